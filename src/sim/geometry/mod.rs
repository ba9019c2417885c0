//! Plane geometry on the table, in inches: what a swept path touches, what lies between two
//! points. Pure functions over `Vec2`. Where a moving point first comes within reach of a disc
//! or square is in `entry`, walking a swept path in `path`, a grid index over segments in
//! `grid` and the walls' segments in it in `walls`; all are re-exported here.

mod entry;
mod grid;
mod path;
mod visibility;
mod walls;

pub use entry::{
    first_in_box, first_in_disc, first_in_rounded_square, first_within_convex, point_disc_distance,
    point_square_distance,
};
pub use grid::SegmentGrid;
pub use path::{heading_along_path, point_along_path};
pub use visibility::{
    DOOR_ON_WALL_IN, JOIN_IN, LitDisc, ON_WALL_IN, RANGE_ARC_ERROR_IN, SeenArea, Segment, SightBlockers, TableBounds,
    TablePoint, VisibilityPolygon, lit_areas, seen_area, sees_point, sight_blockers, visibility_polygon, visible,
};
pub use walls::{WallIndex, WallSegment};

use crate::scene::{Door, Point, Wall, WallKind};
use bevy::math::Vec2;

/// Distance from `p` to the segment `a`–`b`.
pub fn point_segment_distance(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= f32::EPSILON {
        return p.distance(a);
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// Where along `a`–`b` (0..=1) the segment first comes within `radius` of `c`, if it does.
pub fn segment_enters_circle(a: Vec2, b: Vec2, c: Vec2, radius: f32) -> Option<f32> {
    if a.distance(c) <= radius {
        return Some(0.0);
    }
    let d = b - a;
    let f = a - c;
    let qa = d.length_squared();
    if qa <= f32::EPSILON {
        return None;
    }
    let qb = 2.0 * f.dot(d);
    let qc = f.length_squared() - radius * radius;
    let disc = qb * qb - 4.0 * qa * qc;
    if disc < 0.0 {
        return None;
    }
    let t = (-qb - disc.sqrt()) / (2.0 * qa);
    (0.0..=1.0).contains(&t).then_some(t)
}

/// Where along `a`–`b` (0..=1) it first enters the axis-aligned square of half-width `half`
/// centred on `c`, if it does (Liang–Barsky clipping).
pub fn segment_enters_square(a: Vec2, b: Vec2, c: Vec2, half: f32) -> Option<f32> {
    let (min, max) = (c - Vec2::splat(half), c + Vec2::splat(half));
    let d = b - a;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [(-d.x, a.x - min.x), (d.x, max.x - a.x), (-d.y, a.y - min.y), (d.y, max.y - a.y)] {
        if p.abs() <= f32::EPSILON {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
            if t0 > t1 {
                return None;
            }
        }
    }
    Some(t0)
}

/// Where along `a`–`b` (0..=1) it crosses the segment `c`–`d`, if it does.
pub fn segments_cross(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> Option<f32> {
    let r = b - a;
    let s = d - c;
    let denom = r.perp_dot(s);
    if denom.abs() <= f32::EPSILON {
        return None;
    }
    let t = (c - a).perp_dot(s) / denom;
    let u = (c - a).perp_dot(r) / denom;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some(t)
}

fn v(p: Point) -> Vec2 {
    Vec2::new(p.0, p.1)
}

/// How many walls of each kind the straight line from `a` to `b` passes through. A crossing
/// inside an open door or window's gap does not count; a closed door counts as its wall.
/// Tests every segment: [`WallIndex::between`] gives the same answer from the cells crossed.
pub fn walls_between(a: Vec2, b: Vec2, walls: &[Wall], doors: &[Door]) -> WallsBetween {
    let mut out = WallsBetween::default();
    for wall in walls {
        let crossed = wall.points.windows(2).any(|w| {
            segments_cross(a, b, v(w[0]), v(w[1])).is_some_and(|t| {
                let at = a + (b - a) * t;
                !doors.iter().any(|d| d.open && point_segment_distance(at, v(d.from), v(d.to)) < 0.05)
            })
        });
        if crossed {
            match wall.kind {
                WallKind::Inner => out.inner += 1,
                WallKind::Outer => out.outer += 1,
                // Low obstacles do not stop sound.
                WallKind::Low => {}
            }
        }
    }
    out
}

/// Walls counted between two points.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WallsBetween {
    /// Inner walls (waking checks −1 each).
    pub inner: u8,
    /// Outer walls (waking checks −2 each).
    pub outer: u8,
}

/// Whether a move from `a` to `b` is blocked by a wall or low obstacle (only open doors let
/// it through; windows do not), and where along it (0..=1) the first blocking wall is.
/// Tests every segment: [`WallIndex::first_hit`] gives the same answer from the cells crossed.
pub fn first_wall_hit(a: Vec2, b: Vec2, walls: &[Wall], doors: &[Door]) -> Option<f32> {
    let mut first: Option<f32> = None;
    for wall in walls {
        for w in wall.points.windows(2) {
            if let Some(t) = segments_cross(a, b, v(w[0]), v(w[1])) {
                let at = a + (b - a) * t;
                let through_door = doors.iter().any(|d| {
                    d.open
                        && d.kind == crate::scene::DoorKind::Door
                        && point_segment_distance(at, v(d.from), v(d.to)) < 0.05
                });
                if !through_door && first.is_none_or(|f| t < f) {
                    first = Some(t);
                }
            }
        }
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_to_segment() {
        let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0));
        assert_eq!(point_segment_distance(Vec2::new(5.0, 3.0), a, b), 3.0);
        assert_eq!(point_segment_distance(Vec2::new(-4.0, 3.0), a, b), 5.0);
    }

    #[test]
    fn circles_and_squares() {
        let (a, b) = (Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0));
        let t = segment_enters_circle(a, b, Vec2::new(5.0, 0.0), 1.0).unwrap();
        assert!((t - 0.4).abs() < 1e-5);
        assert!(segment_enters_circle(a, b, Vec2::new(5.0, 2.0), 1.0).is_none());
        let t = segment_enters_square(a, b, Vec2::new(5.0, 0.4), 0.5).unwrap();
        assert!((t - 0.45).abs() < 1e-5);
        assert!(segment_enters_square(a, b, Vec2::new(5.0, 0.6), 0.5).is_none());
        assert_eq!(segment_enters_square(Vec2::new(5.0, 0.0), b, Vec2::new(5.0, 0.0), 0.5), Some(0.0));
    }

    #[test]
    fn crossing_segments() {
        let t = segments_cross(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), Vec2::new(3.0, -1.0), Vec2::new(3.0, 1.0));
        assert!((t.unwrap() - 0.3).abs() < 1e-5);
        assert!(
            segments_cross(Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(3.0, -1.0), Vec2::new(3.0, 1.0))
                .is_none()
        );
    }

    #[test]
    fn walls_and_doors_between() {
        let walls = vec![
            Wall::new("outer", WallKind::Outer, vec![(5.0, -5.0), (5.0, 5.0)]),
            Wall::new("inner", WallKind::Inner, vec![(7.0, -5.0), (7.0, 5.0)]),
        ];
        let mut doors =
            vec![Door { name: "d".into(), kind: Default::default(), from: (5.0, -1.0), to: (5.0, 1.0), open: false }];
        let w = walls_between(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), &walls, &doors);
        assert_eq!(w, WallsBetween { inner: 1, outer: 1 });
        doors[0].open = true;
        let w = walls_between(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), &walls, &doors);
        assert_eq!(w, WallsBetween { inner: 1, outer: 0 });
        assert!(
            (first_wall_hit(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), &walls, &doors).unwrap() - 0.7).abs() < 1e-5
        );
        assert!(first_wall_hit(Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), &walls, &doors).is_none());
    }
}
