//! Coordinates: the map's frame on the exporter's canvas (`resolution`), and moving and cutting
//! points, segments and polylines from canvas squares to table inches.

use super::EDGE_SNAP_SQUARES;
use super::Fail;
use super::json::{At, Entries, fail, field, number, object, optional, point};
use crate::scene::format::{Point, Table};
use crate::scene::load::MAX_TABLE_INCHES;

/// The frame: where the map lies on the canvas, and its size; the table it makes at
/// `ips` inches a square.
pub(super) fn read_frame(top: Entries<'_, '_>, ips: f32) -> Result<(Table, MapFrame), Fail> {
    let root = At::ROOT;
    let res_at = root.key("resolution");
    let res = object(field(top, &root, "resolution", "an object")?, &res_at)?;
    let origin = match optional(res, "map_origin") {
        Some(v) => point(v, &res_at.key("map_origin"))?,
        None => (0.0, 0.0),
    };
    let size_at = res_at.key("map_size");
    let size = point(field(res, &res_at, "map_size", "a point {x, y}")?, &size_at)?;
    if let Some(v) = optional(res, "pixels_per_grid") {
        let at = res_at.key("pixels_per_grid");
        let ppg = number(v, &at)?;
        if ppg <= 0.0 {
            return Err(fail(&at, format!("{ppg} must be more than 0")));
        }
    }
    let scale = ips as f64;
    let mut table_sides = [0.0f32; 2];
    for (side, (axis, squares)) in table_sides.iter_mut().zip([("x", size.0), ("y", size.1)]) {
        let inches = (squares * scale) as f32;
        if !(squares > 0.0 && (1.0..=MAX_TABLE_INCHES).contains(&inches)) {
            return Err(fail(
                &size_at.key(axis),
                format!(
                    "{squares} squares at {ips}\" a square make a {inches}\" table side; a side must be 1 to {MAX_TABLE_INCHES} inches"
                ),
            ));
        }
        *side = inches;
    }
    let table = Table { width: table_sides[0], height: table_sides[1] };
    Ok((table, MapFrame { origin, size, scale }))
}

/// A point in squares: on the canvas as read, or on the map (origin taken off), y down.
pub(super) type Squares = (f64, f64);

/// Where the map lies on the exporter's canvas, and how big a square is on the table.
#[derive(Clone, Copy, Debug)]
pub(super) struct MapFrame {
    pub(super) origin: Squares,
    pub(super) size: Squares,
    /// Inches per square.
    pub(super) scale: f64,
}

impl MapFrame {
    /// Canvas squares to map squares: the origin taken off, points a hair beyond the edge
    /// moved onto it.
    pub(super) fn local(&self, p: Squares) -> Squares {
        let snap = |v: f64, max: f64| {
            if v < 0.0 && v > -EDGE_SNAP_SQUARES {
                0.0
            } else if v > max && v < max + EDGE_SNAP_SQUARES {
                max
            } else {
                v
            }
        };
        (snap(p.0 - self.origin.0, self.size.0), snap(p.1 - self.origin.1, self.size.1))
    }

    /// The nearest point on the map.
    pub(super) fn clamp(&self, q: Squares) -> Squares {
        (q.0.clamp(0.0, self.size.0), q.1.clamp(0.0, self.size.1))
    }

    /// Map squares (y down) to table inches (y up).
    pub(super) fn table(&self, q: Squares) -> Point {
        ((q.0 * self.scale) as f32, ((self.size.1 - q.1) * self.scale) as f32)
    }

    /// The part of the segment `a`-`b` (map squares) on the map, if any (Liang-Barsky).
    pub(super) fn clip_segment(&self, a: Squares, b: Squares) -> Option<(Squares, Squares)> {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [(-dx, a.0), (dx, self.size.0 - a.0), (-dy, a.1), (dy, self.size.1 - a.1)] {
            if p == 0.0 {
                if q < 0.0 {
                    return None; // parallel to this edge and beyond it
                }
            } else {
                let r = q / p;
                if p < 0.0 {
                    if r > t1 {
                        return None;
                    }
                    t0 = t0.max(r);
                } else {
                    if r < t0 {
                        return None;
                    }
                    t1 = t1.min(r);
                }
            }
        }
        // Ends on the map are kept exactly, so consecutive segments still join.
        let at = |t: f64| {
            if t == 0.0 {
                a
            } else if t == 1.0 {
                b
            } else {
                self.clamp((a.0 + t * dx, a.1 + t * dy))
            }
        };
        Some((at(t0), at(t1)))
    }

    /// A polyline in canvas squares as the table polylines of its parts on the map.
    pub(super) fn clip_polyline(&self, points: &[Squares]) -> Vec<Vec<Point>> {
        let local: Vec<Squares> = points.iter().map(|&p| self.local(p)).collect();
        let mut pieces: Vec<Vec<Squares>> = Vec::new();
        for pair in local.windows(2) {
            let Some((p, q)) = self.clip_segment(pair[0], pair[1]) else { continue };
            match pieces.last_mut() {
                Some(piece) if piece.last() == Some(&p) => piece.push(q),
                _ => pieces.push(vec![p, q]),
            }
        }
        pieces
            .into_iter()
            // A piece that only touches the map at one point blocks nothing.
            .filter(|piece| piece.iter().any(|q| *q != piece[0]))
            .map(|piece| piece.into_iter().map(|q| self.table(q)).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_lose_the_origin_and_flip_y() {
        let map = MapFrame { origin: (2.0, 1.0), size: (10.0, 8.0), scale: 1.0 };
        // Canvas (3, 2) is one square in from the map's top-left: (1, 8 - 1) on the table.
        assert_eq!(map.table(map.local((3.0, 2.0))), (1.0, 7.0));
        // The canvas origin itself is the map's top-left corner: the table's (0, height).
        assert_eq!(map.table(map.local((2.0, 1.0))), (0.0, 8.0));
        // The map's far corner is the table's lower-right.
        assert_eq!(map.table(map.local((12.0, 9.0))), (10.0, 0.0));
        let doubled = MapFrame { scale: 2.0, ..map };
        assert_eq!(doubled.table(doubled.local((3.0, 2.0))), (2.0, 14.0));
        // Within the snap distance of an edge: onto it.
        assert_eq!(map.local((1.995, 9.004)), (0.0, 8.0));
        assert_eq!(map.local((1.9, 9.1)).0, 1.9 - 2.0);
    }

    #[test]
    fn walls_are_cut_at_the_map_edge() {
        let map = MapFrame { origin: (0.0, 0.0), size: (10.0, 10.0), scale: 1.0 };
        // Out through the right edge and back in: two walls.
        let pieces = map.clip_polyline(&[(5.0, 5.0), (15.0, 5.0), (15.0, 7.0), (5.0, 7.0)]);
        assert_eq!(pieces, vec![vec![(5.0, 5.0), (10.0, 5.0)], vec![(10.0, 3.0), (5.0, 3.0)]]);
        // Wholly off the map, or only touching a corner: nothing.
        assert!(map.clip_polyline(&[(11.0, 1.0), (12.0, 9.0)]).is_empty());
        assert!(map.clip_polyline(&[(9.0, 11.0), (11.0, 9.0)]).is_empty());
        // Inside: unchanged, one wall, however many points.
        let inside = map.clip_polyline(&[(1.0, 1.0), (2.0, 1.0), (2.0, 2.0)]);
        assert_eq!(inside, vec![vec![(1.0, 9.0), (2.0, 9.0), (2.0, 8.0)]]);
        // Along an edge: kept.
        assert_eq!(map.clip_polyline(&[(0.0, 0.0), (10.0, 0.0)]), vec![vec![(0.0, 10.0), (10.0, 10.0)]]);
        // Fewer than two points: nothing.
        assert!(map.clip_polyline(&[(1.0, 1.0)]).is_empty());
    }
}
