//! The walls' segments in a [`SegmentGrid`], for line checks that stay cheap when walls have
//! thousands of points: a step tests only the segments in the cells it crosses. Each answer
//! equals the brute-force one ([`super::first_wall_hit`], [`super::walls_between`]) exactly:
//! the candidates are visited in wall order, then point order, as the brute force visits them.

use super::grid::SegmentGrid;
use super::{WallsBetween, point_segment_distance, segments_cross};
use crate::scene::{Door, DoorKind, Wall, WallKind};
use bevy::math::Vec2;

/// Smallest cell, in inches: steps are a few inches, walls a fraction of an inch to the table.
const MIN_CELL: f32 = 1.0;

/// One wall segment: its ends and the index of its wall.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WallSegment {
    /// Where it starts.
    pub from: Vec2,
    /// Where it ends.
    pub to: Vec2,
    /// The index of its wall in the scene's walls.
    pub wall: u32,
}

/// Every wall segment, numbered in wall order then point order, bucketed in a grid.
#[derive(Debug, Clone, Default)]
pub struct WallIndex {
    segments: Vec<WallSegment>,
    grid: SegmentGrid,
}

fn v(p: crate::scene::Point) -> Vec2 {
    Vec2::new(p.0, p.1)
}

impl WallIndex {
    /// Index the segments of `walls`.
    pub fn new(walls: &[Wall]) -> Self {
        let segments: Vec<WallSegment> = walls
            .iter()
            .enumerate()
            .flat_map(|(i, w)| {
                w.points.windows(2).map(move |s| WallSegment { from: v(s[0]), to: v(s[1]), wall: i as u32 })
            })
            .collect();
        let items: Vec<(Vec2, Vec2, f32)> = segments.iter().map(|s| (s.from, s.to, 0.0)).collect();
        Self { grid: SegmentGrid::new(&items, MIN_CELL), segments }
    }

    /// Segment number `id` (wall order, then point order).
    pub fn segment(&self, id: u32) -> WallSegment {
        self.segments[id as usize]
    }

    /// How many segments there are.
    pub fn len(&self) -> usize {
        self.segments.len()
    }

    /// Whether there are no wall segments at all.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// The numbers of the segments that may cross `a`–`b` or come within `reach` of it
    /// (a superset), ascending.
    pub fn near(&self, a: Vec2, b: Vec2, reach: f32) -> Vec<u32> {
        self.grid.along(a, b, reach)
    }

    /// As [`super::first_wall_hit`]: where along `a`–`b` (0..=1) the first blocking segment is
    /// (only open doors let a move through), counting only the segments `keep` accepts.
    pub fn first_hit_where(&self, a: Vec2, b: Vec2, doors: &[Door], mut keep: impl FnMut(u32) -> bool) -> Option<f32> {
        let mut first: Option<f32> = None;
        for id in self.near(a, b, 0.0) {
            let s = self.segments[id as usize];
            if let Some(t) = segments_cross(a, b, s.from, s.to) {
                if !keep(id) {
                    continue;
                }
                let at = a + (b - a) * t;
                let through_door = doors.iter().any(|d| {
                    d.open && d.kind == DoorKind::Door && point_segment_distance(at, v(d.from), v(d.to)) < 0.05
                });
                if !through_door && first.is_none_or(|f| t < f) {
                    first = Some(t);
                }
            }
        }
        first
    }

    /// As [`super::first_wall_hit`], with the segments indexed.
    pub fn first_hit(&self, a: Vec2, b: Vec2, doors: &[Door]) -> Option<f32> {
        self.first_hit_where(a, b, doors, |_| true)
    }

    /// As [`super::walls_between`], with the segments indexed: how many walls of each kind the
    /// line from `a` to `b` passes through, not counting crossings in an open door or window.
    pub fn between(&self, a: Vec2, b: Vec2, walls: &[Wall], doors: &[Door]) -> WallsBetween {
        let mut crossed: Vec<u32> = Vec::new();
        for id in self.near(a, b, 0.0) {
            let s = self.segments[id as usize];
            // Ids ascend, so a wall's segments come together: one crossing counts it.
            if crossed.last() == Some(&s.wall) {
                continue;
            }
            let through = segments_cross(a, b, s.from, s.to).is_some_and(|t| {
                let at = a + (b - a) * t;
                !doors.iter().any(|d| d.open && point_segment_distance(at, v(d.from), v(d.to)) < 0.05)
            });
            if through {
                crossed.push(s.wall);
            }
        }
        let mut out = WallsBetween::default();
        for w in crossed {
            match walls.get(w as usize).map(|w| w.kind) {
                Some(WallKind::Inner) => out.inner += 1,
                Some(WallKind::Outer) => out.outer += 1,
                // Low obstacles do not stop sound.
                Some(WallKind::Low) | None => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::{first_wall_hit, walls_between};
    use super::*;
    use rand::{Rng, SeedableRng, rngs::Xoshiro256PlusPlus};

    fn unit(rng: &mut Xoshiro256PlusPlus) -> f32 {
        (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32
    }

    /// Walls of every awkward sort on a 200" table: one of 5,000 points round the whole table,
    /// long zigzags, walls along whole-inch cell borders, repeated points (segments of no
    /// length), and doors and windows, some open, on some of them.
    fn scene(rng: &mut Xoshiro256PlusPlus) -> (Vec<Wall>, Vec<Door>) {
        let kinds = [WallKind::Outer, WallKind::Inner, WallKind::Low];
        let mut walls = Vec::new();
        let ring: Vec<(f32, f32)> = (0..5000)
            .map(|k| {
                let a = k as f32 / 4999.0 * std::f32::consts::TAU;
                let r = 90.0 + (k % 7) as f32 * 0.2;
                (100.0 + r * a.cos(), 100.0 + r * a.sin())
            })
            .collect();
        walls.push(Wall::new("ring", WallKind::Outer, ring));
        for i in 0..40 {
            let n = 2 + rng.next_u32() as usize % 30;
            let mut points: Vec<(f32, f32)> = Vec::new();
            for _ in 0..n {
                let p = match i % 4 {
                    // On whole inches: segments along cell borders.
                    0 => ((unit(rng) * 200.0).floor(), (unit(rng) * 200.0).floor()),
                    _ => (unit(rng) * 200.0, unit(rng) * 200.0),
                };
                points.push(p);
                if rng.next_u32().is_multiple_of(5) {
                    // A repeated point: a segment of no length.
                    points.push(p);
                }
            }
            if i % 4 == 0 {
                // Keep the border walls axis-aligned: each point shares x or y with the last.
                for k in 1..points.len() {
                    if k % 2 == 0 {
                        points[k].0 = points[k - 1].0;
                    } else {
                        points[k].1 = points[k - 1].1;
                    }
                }
            }
            walls.push(Wall::new(format!("w{i}"), kinds[i % 3], points));
        }
        let mut doors = Vec::new();
        for (i, w) in walls.iter().enumerate().skip(1).step_by(3) {
            let (a, b) = (w.points[0], w.points[1]);
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            let kind = if i % 2 == 0 { DoorKind::Door } else { DoorKind::Window };
            doors.push(Door { name: format!("d{i}"), kind, from: a, to: mid, open: i % 4 != 0 });
        }
        (walls, doors)
    }

    #[test]
    fn indexed_wall_checks_equal_the_brute_force() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1616);
        let (walls, doors) = scene(&mut rng);
        let index = WallIndex::new(&walls);
        let mut hits = 0;
        for k in 0..6000 {
            let a = Vec2::new(unit(&mut rng) * 210.0 - 5.0, unit(&mut rng) * 210.0 - 5.0);
            let (a, b) = match k % 5 {
                // A short step, as beasts and figures take.
                0 | 1 => (a, a + Vec2::new(unit(&mut rng) - 0.5, unit(&mut rng) - 0.5) * 8.0),
                // Across the table, as a sleeper hears.
                2 => (a, Vec2::new(unit(&mut rng) * 200.0, unit(&mut rng) * 200.0)),
                // No step at all.
                3 => (a, a),
                // From a wall's own point along whole inches (on cell borders).
                _ => {
                    let w = &walls[k % walls.len()];
                    let p = w.points[k % w.points.len()];
                    let a = Vec2::new(p.0, p.1);
                    let d = (rng.next_u32() % 9) as f32 - 4.0;
                    (a, if rng.next_u32() % 2 == 0 { a + Vec2::new(d, 0.0) } else { a + Vec2::new(0.0, d) })
                }
            };
            let brute = first_wall_hit(a, b, &walls, &doors);
            let indexed = index.first_hit(a, b, &doors);
            assert_eq!(brute.map(f32::to_bits), indexed.map(f32::to_bits), "first hit {a} → {b}");
            hits += usize::from(brute.is_some());
            assert_eq!(walls_between(a, b, &walls, &doors), index.between(a, b, &walls, &doors), "{a} → {b}");
        }
        assert!(hits > 1000, "{hits} steps met a wall");
    }

    #[test]
    fn a_wall_of_ten_thousand_points() {
        // The most points a wall may have, zigzagging across a 1000" table.
        let points: Vec<(f32, f32)> =
            (0..10_000).map(|k| ((k as f32 * 0.1) % 1000.0, if k % 2 == 0 { 10.0 } else { 990.0 })).collect();
        let walls = vec![Wall::new("zigzag", WallKind::Inner, points)];
        let index = WallIndex::new(&walls);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(10_000);
        for _ in 0..300 {
            let a = Vec2::new(unit(&mut rng) * 1000.0, unit(&mut rng) * 1000.0);
            let b = a + Vec2::new(unit(&mut rng) - 0.5, unit(&mut rng) - 0.5) * 10.0;
            let brute = first_wall_hit(a, b, &walls, &[]);
            assert_eq!(brute.map(f32::to_bits), index.first_hit(a, b, &[]).map(f32::to_bits), "{a} → {b}");
            assert_eq!(walls_between(a, b, &walls, &[]), index.between(a, b, &walls, &[]));
        }
    }
}
