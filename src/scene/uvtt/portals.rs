//! Doors and windows: `portals` with `closed: true` become closed doors, with `closed: false`
//! open windows, spanning `bounds[0]` to `bounds[1]` and cut at the map's edge.

use super::Fail;
use super::frame::MapFrame;
use super::json::{At, Entries, array, boolean, fail, field, object, optional, point};
use crate::scene::format::{Door, DoorKind};
use crate::scene::load::MAX_ENTITIES_PER_KIND;

/// The doors (`door 1`...) and windows (`window 1`...) on the map.
pub(super) fn read_doors(top: Entries<'_, '_>, map: &MapFrame) -> Result<Vec<Door>, Fail> {
    let root = At::ROOT;
    let mut doors = Vec::new();
    if let Some(v) = optional(top, "portals") {
        let at = root.key("portals");
        let portals = array(v, &at)?;
        if portals.len() > MAX_ENTITIES_PER_KIND {
            return Err(fail(
                &at,
                format!("{} portals, more than the {MAX_ENTITIES_PER_KIND} a scene may have", portals.len()),
            ));
        }
        let (mut door_count, mut window_count) = (0, 0);
        for (i, portal) in portals.iter().enumerate() {
            let at = at.index(i);
            let portal = object(portal, &at)?;
            let bounds_at = at.key("bounds");
            let bounds = array(field(portal, &at, "bounds", "a list of two points")?, &bounds_at)?;
            let [a, b] = bounds else {
                return Err(fail(&bounds_at, format!("expected two points, found {}", bounds.len())));
            };
            let a = point(a, &bounds_at.index(0))?;
            let b = point(b, &bounds_at.index(1))?;
            let closed = boolean(field(portal, &at, "closed", "true or false")?, &at.key("closed"))?;
            let Some((from, to)) = map.clip_segment(map.local(a), map.local(b)) else {
                continue; // wholly off the map
            };
            let (kind, name) = if closed {
                door_count += 1;
                (DoorKind::Door, format!("door {door_count}"))
            } else {
                window_count += 1;
                (DoorKind::Window, format!("window {window_count}"))
            };
            doors.push(Door { name, kind, from: map.table(from), to: map.table(to), open: !closed });
        }
    }
    Ok(doors)
}
