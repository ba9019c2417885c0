//! Walls and obstacles: `line_of_sight` polylines become walls of the chosen kind,
//! `objects_line_of_sight` low obstacles, each cut at the map's edge.

use super::frame::MapFrame;
use super::json::{At, Entries, array, fail, field, optional, point};
use super::{Fail, MAX_TOTAL_POINTS};
use crate::scene::format::{Wall, WallKind};
use crate::scene::load::{MAX_ENTITIES_PER_KIND, MAX_POINTS};

/// The walls (`wall_kind`, named `wall 1`...) and obstacles (`obstacle 1`...) on the map.
pub(super) fn read_walls(top: Entries<'_, '_>, wall_kind: WallKind, map: &MapFrame) -> Result<Vec<Wall>, Fail> {
    let root = At::ROOT;
    let los_at = root.key("line_of_sight");
    let los = array(field(top, &root, "line_of_sight", "a list of polylines")?, &los_at)?;
    let objects_at = root.key("objects_line_of_sight");
    let objects = match optional(top, "objects_line_of_sight") {
        Some(v) => array(v, &objects_at)?,
        None => &[],
    };
    if los.len() + objects.len() > MAX_ENTITIES_PER_KIND {
        return Err(fail(
            &los_at,
            format!(
                "{} walls and {} obstacles, more than the {MAX_ENTITIES_PER_KIND} walls a scene may have",
                los.len(),
                objects.len()
            ),
        ));
    }
    let mut walls = Vec::new();
    let mut total_points = 0usize;
    for (lines, lines_at, kind, stem) in
        [(los, &los_at, wall_kind, "wall"), (objects, &objects_at, WallKind::Low, "obstacle")]
    {
        let mut count = 0;
        for (i, line) in lines.iter().enumerate() {
            let at = lines_at.index(i);
            let raw = array(line, &at)?;
            if raw.len() > MAX_POINTS {
                return Err(fail(&at, format!("{} points, more than the {MAX_POINTS} a wall may have", raw.len())));
            }
            total_points += raw.len();
            if total_points > MAX_TOTAL_POINTS {
                return Err(fail(&at, format!("more than {MAX_TOTAL_POINTS} wall and obstacle points in all")));
            }
            let mut squares = Vec::with_capacity(raw.len());
            for (j, p) in raw.iter().enumerate() {
                squares.push(point(p, &at.index(j))?);
            }
            for points in map.clip_polyline(&squares) {
                count += 1;
                walls.push(Wall::new(format!("{stem} {count}"), kind, points));
            }
        }
    }
    if walls.len() > MAX_ENTITIES_PER_KIND {
        return Err(fail(
            &los_at,
            format!(
                "{} walls once cut at the map's edge, more than the {MAX_ENTITIES_PER_KIND} a scene may have",
                walls.len()
            ),
        ));
    }
    Ok(walls)
}
