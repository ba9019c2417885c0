//! Obstacles for beasts: the table edge, walls, cattle grids they may not cross, and fires
//! they fear (the fire front's burning cells, and hand-made rings).

use super::{BurningFire, BurningHazards, FireHazard, HerdRules};
use crate::rules::outcome::Meaning;
use crate::sim::fire::{BurningBoxes, FireFront};
use crate::sim::geometry::{point_segment_distance, segment_enters_circle, segments_cross};
use crate::sim::world::{Walls, vec2};
use bevy::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;

/// How far short of a wall, grid or fire a blocked beast stops, in inches.
pub(super) const BEAST_STANDOFF: f32 = 0.05;
/// How near a wall segment passes to where a beast hit a wall, in inches, to be the segment hit.
const WALL_AT_HIT: f32 = 1e-3;

/// 001 "Fire Against people and animals" ("Fire Strike -3 = Fright Value of fire (0 or less not used.)"): fires that turn herds.
///
/// Every fire burning now whose fright value is at least `fire_fright_threshold` (house rule,
/// default 1) is listed; its burning cells, not its bounds, stop beasts.
pub(super) fn fires_turn_herds(front: Res<FireFront>, rules: Res<HerdRules>, mut hazards: ResMut<BurningHazards>) {
    let threshold = rules.0.fire_fright_threshold;
    hazards.0 = front
        .fires()
        .iter()
        .filter_map(|f| {
            let fright = f.fright_value.filter(|&v| v >= threshold)?;
            Some(BurningFire { min: Vec2::new(f.min.0, f.min.1), max: Vec2::new(f.max.0, f.max.1), fright })
        })
        .collect();
}

/// The fire front's burning cells, as an obstacle: the front and the frightening fires near
/// the herd.
#[derive(Clone, Copy)]
pub(super) struct Burning<'a> {
    /// The fire front, for its cells.
    pub(super) front: &'a FireFront,
    /// The fires that frighten the herd.
    pub(super) fires: &'a [BurningFire],
}

/// Most samples along one step when looking for burning cells.
const MAX_FIRE_SAMPLES: usize = 4096;

// ---------------------------------------------------------------------------------------------
// Obstacles: the table edge, walls, impassable grids and fires
// ---------------------------------------------------------------------------------------------

/// What stopped a group of beasts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Blocker {
    /// The table edge; the outward normal.
    TableEdge(Vec2),
    /// A wall segment's direction.
    Wall(Vec2),
    /// A cattle grid the beasts may not cross: its index and direction.
    Grid(usize, Vec2),
    /// A fire: its centre and fright value.
    Fire(Vec2, i32),
}

impl crate::rules::outcome::Outcome for Blocker {
    fn id(self) -> &'static str {
        Blocker::id(self)
    }
    fn meaning(self) -> Meaning {
        Meaning::NONE
    }
}

impl Blocker {
    pub(super) fn id(self) -> &'static str {
        match self {
            Blocker::TableEdge(_) => "stopped_by_table_edge",
            Blocker::Wall(_) => "stopped_by_wall",
            Blocker::Grid(..) => "stopped_by_cattle_grid",
            Blocker::Fire(..) => "turned_by_fire",
        }
    }

    /// The direction to take after being stopped going along `d` (house rule): bounce off
    /// the edge, wall or grid as a ball would, or turn straight away from the fire.
    pub(super) fn turn(self, d: Vec2, centre: Vec2) -> Vec2 {
        match self {
            Blocker::TableEdge(n) => d - 2.0 * d.dot(n) * n,
            Blocker::Wall(u) | Blocker::Grid(_, u) => {
                let u = u.normalize_or_zero();
                2.0 * d.dot(u) * u - d
            }
            Blocker::Fire(c, _) => {
                let away = (centre - c).normalize_or_zero();
                if away == Vec2::ZERO { -d } else { away }
            }
        }
    }
}

/// Everything that can stop one herd this move, cut down to what lies near it.
pub(super) struct Obstacles<'a> {
    table: Vec2,
    /// Every wall, its segments indexed; only the walls near the herd stop it.
    walls: &'a Walls,
    /// The beasts' bounds widened by the reach: a wall with a segment whose bounds meet this
    /// box is near the herd (all its segments count), any other is not.
    near_box: (Vec2, Vec2),
    /// Whether each wall asked about so far is near, by its index.
    near_walls: RefCell<HashMap<u32, bool>>,
    /// Grids these beasts may not cross now: (index, from, to).
    grids: Vec<(usize, Vec2, Vec2)>,
    fires: &'a [FireHazard],
    /// The fire front and the frightening fires whose bounds come near the herd.
    front: Option<&'a FireFront>,
    /// Where the front may burn now, asked of its last summary once for the herd.
    boxes: Option<BurningBoxes<'a>>,
    burning: Vec<BurningFire>,
    /// The front's cell size: bounds are widened by it and steps sampled at a quarter of it.
    cell: f32,
}

/// How many of the samples after the one at `x` (of `steps` along `d`, at `k / steps`) lie for
/// certain in the cell of `x` (cells `cell` inches square from the origin): the room to the cell's
/// edge along each axis, less a margin far above the floats' error in a sample, over each
/// sample's step; none where `x` lies within that margin of its cell's edge.
fn samples_left_in_cell(x: Vec2, d: Vec2, steps: usize, cell: f32) -> usize {
    let cell = f64::from(cell);
    let room = |v: f32, along: f32| -> f64 {
        let (v, step) = (f64::from(v), f64::from(along) / steps as f64);
        let margin = 1e-3 + 4e-6 * v.abs();
        if step == 0.0 {
            // The same coordinate in every sample.
            return f64::INFINITY;
        }
        // Rounded down by a cast (`floor` is a call on the baseline x86-64 target).
        let c = {
            let q = v / cell;
            let t = q as i64 as f64;
            if t > q { t - 1.0 } else { t }
        };
        let (below, above) = (v - c * cell, (c + 1.0) * cell - v);
        if below < margin || above < margin {
            // So near an edge that the sample's own cell is in doubt.
            return 0.0;
        }
        let room = if step > 0.0 { above } else { below };
        // Not negative here, so the cast rounds down.
        ((room - margin) / step.abs()) as i64 as f64
    };
    let n = room(x.x, d.x).min(room(x.y, d.y));
    if n >= 1.0 { n.min(steps as f64) as usize } else { 0 }
}

impl<'a> Obstacles<'a> {
    /// The obstacles within `reach` of the beasts' bounding box.
    pub(super) fn near(
        positions: &[Vec2],
        reach: f32,
        table: Vec2,
        walls: &'a Walls,
        grids: &[(usize, Vec2, Vec2)],
        fires: &'a [FireHazard],
        burning: Option<Burning<'a>>,
    ) -> Self {
        let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for &p in positions {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        lo -= Vec2::splat(reach);
        hi += Vec2::splat(reach);
        let overlaps = |a: Vec2, b: Vec2| a.min(b).cmple(hi).all() && a.max(b).cmpge(lo).all();
        let grids = grids.iter().copied().filter(|&(_, a, b)| overlaps(a, b)).collect();
        let cell = burning.and_then(|b| b.front.grid()).map_or(0.1, |g| g.cell_size_in());
        let near_fires: Vec<BurningFire> =
            burning.map(|b| b.fires.iter().copied().filter(|f| overlaps(f.min, f.max)).collect()).unwrap_or_default();
        let front = burning.filter(|_| !near_fires.is_empty()).map(|b| b.front);
        let boxes = front.map(|f| f.burning_boxes(f.time()));
        Obstacles {
            table,
            walls,
            near_box: (lo, hi),
            near_walls: RefCell::default(),
            grids,
            fires,
            front,
            boxes,
            burning: near_fires,
            cell,
        }
    }

    /// Whether the wall of segment `id` is near the herd: it has a segment whose bounds meet
    /// the herd's box. The segment itself is tried first; the rest of its wall once, if need be.
    fn wall_is_near(&self, id: u32) -> bool {
        let (lo, hi) = self.near_box;
        let overlaps = |a: Vec2, b: Vec2| a.min(b).cmple(hi).all() && a.max(b).cmpge(lo).all();
        let segment = self.walls.index().segment(id);
        if overlaps(segment.from, segment.to) {
            return true;
        }
        *self.near_walls.borrow_mut().entry(segment.wall).or_insert_with(|| {
            self.walls.walls()[segment.wall as usize].points.windows(2).any(|s| overlaps(vec2(s[0]), vec2(s[1])))
        })
    }

    /// Where along `p`–`p + d` (0..=1) a beast first reaches a burning cell of a frightening fire,
    /// that cell's point, and the fire's fright value. A beast the fire has already reached may
    /// walk out through it (it is not held in the flames); once out, it stops at the next.
    fn first_burning(&self, p: Vec2, d: Vec2) -> Option<(f32, Vec2, i32)> {
        let front = self.front?;
        let q = p + d;
        let margin = Vec2::splat(self.cell);
        let (lo, hi) = (p.min(q) - margin, p.max(q) + margin);
        // The frightening fires whose bounds meet the step's (no list made: a herd asks this of
        // every beast, and every spreading push).
        let near_step = |f: &&BurningFire| f.min.cmple(hi).all() && f.max.cmpge(lo).all();
        if !self.burning.iter().any(|f| near_step(&f)) || !self.boxes.is_some_and(|b| b.may_burn_within(lo, hi)) {
            return None;
        }
        let mut burning = front.burning_test(front.time());
        // Whether the cell at `x` burns, and the fright of the fires there if it does.
        let mut fright_at = |x: Vec2| -> (bool, Option<i32>) {
            if !burning(x) {
                return (false, None);
            }
            let fright = self
                .burning
                .iter()
                .filter(near_step)
                .filter(|f| (f.min - margin).cmple(x).all() && (f.max + margin).cmpge(x).all())
                .map(|f| f.fright)
                .max();
            (true, fright)
        };
        let steps = ((d.length() / (self.cell * 0.25)).ceil() as usize).clamp(1, MAX_FIRE_SAMPLES);
        let mut leaving = fright_at(p).1.is_some();
        let mut before = 0.0f32;
        let mut k = 1;
        while k <= steps {
            let t = k as f32 / steps as f32;
            let x = p + d * t;
            let (burns, fright) = fright_at(x);
            k += 1;
            if !burns {
                // The samples after this one in its cell, which does not burn, are not looked at:
                // each would find what this one found (nothing, and not leaving a fire).
                k += samples_left_in_cell(x, d, steps, self.cell).min(steps + 1 - k);
                leaving = false;
                before = (k - 1) as f32 / steps as f32;
                continue;
            }
            match fright {
                Some(fright) if !leaving => {
                    // The cell edge lies between the last clear sample and this one.
                    let (mut a, mut b) = (before, t);
                    let mut burning = front.burning_test(front.time());
                    for _ in 0..10 {
                        let m = (a + b) / 2.0;
                        if burning(p + d * m) {
                            b = m;
                        } else {
                            a = m;
                        }
                    }
                    return Some((a, p + d * b, fright));
                }
                Some(_) => {}
                None => leaving = false,
            }
            before = t;
        }
        None
    }

    /// How far (0..=1) a beast at `p` can go along `d` before something stops it.
    pub(super) fn clear(&self, p: Vec2, d: Vec2) -> (f32, Option<Blocker>) {
        let len = d.length();
        if len <= f32::EPSILON {
            return (1.0, None);
        }
        let back = BEAST_STANDOFF / len;
        let mut best: (f32, Option<Blocker>) = (1.0, None);
        let mut consider = |t: f32, b: Blocker| {
            let t = t.clamp(0.0, 1.0);
            if t < best.0 {
                best = (t, Some(b));
            }
        };
        // Table edge: stop on it.
        for (axis, size) in [(0usize, self.table.x), (1, self.table.y)] {
            let (pc, dc) = (p[axis], d[axis]);
            let mut n = Vec2::ZERO;
            if dc > 0.0 && pc + dc > size {
                n[axis] = 1.0;
                consider((size - pc) / dc, Blocker::TableEdge(n));
            } else if dc < 0.0 && pc + dc < 0.0 {
                n[axis] = -1.0;
                consider(-pc / dc, Blocker::TableEdge(n));
            }
        }
        let index = self.walls.index();
        if let Some(t) = index.first_hit_where(p, p + d, self.walls.doors(), |id| self.wall_is_near(id)) {
            let hit = p + d * t;
            // The first segment of a near wall (wall order, then point order) at the hit.
            let u = index
                .near(hit, hit, WALL_AT_HIT)
                .into_iter()
                .map(|id| (id, index.segment(id)))
                .find(|&(id, s)| point_segment_distance(hit, s.from, s.to) < WALL_AT_HIT && self.wall_is_near(id))
                .map_or(Vec2::new(-d.y, d.x), |(_, s)| s.to - s.from);
            consider(t - back, Blocker::Wall(u));
        }
        for &(i, a, b) in &self.grids {
            if let Some(t) = segments_cross(p, p + d, a, b) {
                consider(t - back, Blocker::Grid(i, b - a));
            }
        }
        for fire in self.fires {
            if let Some(t) = segment_enters_circle(p, p + d, fire.position, fire.radius) {
                // Already within the fire's ring: only going closer is stopped.
                let inside = p.distance(fire.position) <= fire.radius;
                if !inside || (p + d).distance(fire.position) < p.distance(fire.position) {
                    consider(if inside { 0.0 } else { t - back }, Blocker::Fire(fire.position, fire.fright));
                }
            }
        }
        if let Some((t, at, fright)) = self.first_burning(p, d) {
            consider(t - back, Blocker::Fire(at, fright));
        }
        best
    }

    /// A point nudged onto the table: a beast stopped at the edge may land a rounding error off it.
    pub(super) fn on_table(&self, p: Vec2) -> Vec2 {
        p.clamp(Vec2::ZERO, self.table)
    }

    /// Whether a beast may step from `p` to `q` (a small spreading step).
    pub(super) fn step_ok(&self, p: Vec2, q: Vec2) -> bool {
        q.x >= 0.0 && q.y >= 0.0 && q.x <= self.table.x && q.y <= self.table.y && self.clear(p, q - p).1.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sample skipped as lying in the cell of the one looked at does lie there, as the fire
    /// grid finds a point's cell (`x / cell`, rounded down, in `f32`): on small and large cells,
    /// short and long steps, on and off a 1000" table.
    #[test]
    fn samples_skipped_in_a_cell_are_in_that_cell() {
        use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
        let mut skipped = 0usize;
        for _ in 0..3000 {
            let cell = [0.0316f32, 0.1, 0.25, 1.0][rng.random_range(0..4)];
            let p = Vec2::new(rng.random_range(-5.0..1000.0f32), rng.random_range(-5.0..1000.0f32));
            let d = Vec2::new(rng.random_range(-20.0..20.0f32), rng.random_range(-20.0..20.0f32))
                * if rng.random_range(0..4) == 0 { Vec2::new(1.0, 0.0) } else { Vec2::ONE };
            let steps = ((d.length() / (cell * 0.25)).ceil() as usize).clamp(1, MAX_FIRE_SAMPLES);
            let at = |k: usize| p + d * (k as f32 / steps as f32);
            let cell_of = |x: Vec2| ((x.x / cell).floor(), (x.y / cell).floor());
            for k in 1..=steps {
                let n = samples_left_in_cell(at(k), d, steps, cell);
                for j in k + 1..=(k + n).min(steps) {
                    assert_eq!(cell_of(at(j)), cell_of(at(k)), "p {p} d {d} cell {cell} k {k} j {j} n {n}");
                }
                skipped += n.min(steps - k);
            }
        }
        assert!(skipped > 100_000, "skips samples: {skipped}");
    }

    #[test]
    fn obstacles_stop_and_turn() {
        let walls =
            Walls::new(vec![crate::scene::Wall::new("w", Default::default(), vec![(10.0, 0.0), (10.0, 20.0)])], vec![]);
        let fires = [FireHazard { position: Vec2::new(5.0, 15.0), radius: 2.0, fright: 2 }];
        let grids = [(0usize, Vec2::new(0.0, 8.0), Vec2::new(10.0, 8.0))];
        let obstacles =
            Obstacles::near(&[Vec2::new(5.0, 5.0)], 20.0, Vec2::new(20.0, 20.0), &walls, &grids, &fires, None);
        // Wall ahead: stops short of it, then bounces back.
        let (t, b) = obstacles.clear(Vec2::new(5.0, 2.0), Vec2::new(10.0, 0.0));
        assert!((t - (0.5 - BEAST_STANDOFF / 10.0)).abs() < 1e-5, "{t}");
        let b = b.unwrap();
        assert_eq!(b.id(), "stopped_by_wall");
        assert!((b.turn(Vec2::new(10.0, 0.0), Vec2::ZERO) - Vec2::new(-10.0, 0.0)).length() < 1e-4);
        // Grid ahead.
        let (_, b) = obstacles.clear(Vec2::new(5.0, 5.0), Vec2::new(0.0, 5.0));
        assert_eq!(b.unwrap().id(), "stopped_by_cattle_grid");
        // Table edge: stops on it.
        let (t, b) = obstacles.clear(Vec2::new(2.0, 2.0), Vec2::new(-4.0, 0.0));
        assert_eq!((t, b.unwrap().id()), (0.5, "stopped_by_table_edge"));
        // Fire: turns away from it.
        let (_, b) = obstacles.clear(Vec2::new(5.0, 10.0), Vec2::new(0.0, 4.0));
        let b = b.unwrap();
        assert_eq!(b.id(), "turned_by_fire");
        assert!(b.turn(Vec2::new(0.0, 4.0), Vec2::new(5.0, 12.0)).y < 0.0);
    }

    /// What walls did to a step before they were indexed: the walls with a segment whose bounds
    /// meet the herd's box, every segment of them tried (wall order, then point order).
    fn brute_force_wall_stop(walls: &Walls, positions: &[Vec2], reach: f32, p: Vec2, d: Vec2) -> Option<(f32, Vec2)> {
        let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for &q in positions {
            lo = lo.min(q);
            hi = hi.max(q);
        }
        lo -= Vec2::splat(reach);
        hi += Vec2::splat(reach);
        let overlaps = |a: Vec2, b: Vec2| a.min(b).cmple(hi).all() && a.max(b).cmpge(lo).all();
        let near: Vec<crate::scene::Wall> = walls
            .walls()
            .iter()
            .filter(|w| w.points.windows(2).any(|s| overlaps(vec2(s[0]), vec2(s[1]))))
            .cloned()
            .collect();
        let t = crate::sim::geometry::first_wall_hit(p, p + d, &near, walls.doors())?;
        let hit = p + d * t;
        let u = near
            .iter()
            .flat_map(|w| w.points.windows(2).map(|s| (vec2(s[0]), vec2(s[1]))))
            .find(|&(a, b)| point_segment_distance(hit, a, b) < 1e-3)
            .map_or(Vec2::new(-d.y, d.x), |(a, b)| b - a);
        Some((t, u))
    }

    #[test]
    fn indexed_walls_stop_beasts_as_the_brute_force_did() {
        use rand::{Rng, SeedableRng, rngs::Xoshiro256PlusPlus};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
        let mut unit = move || (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
        // A pen of 4,000 points, walls across it on whole inches, and long walls reaching in
        // from far away, on a 300" table.
        let pen = (0..4000)
            .map(|k| {
                let a = k as f32 / 3999.0 * std::f32::consts::TAU;
                (150.0 + 40.0 * a.cos(), 150.0 + 40.0 * a.sin())
            })
            .collect();
        let mut walls = vec![crate::scene::Wall::new("pen", Default::default(), pen)];
        for i in 0..30 {
            let (x, y) = ((110.0 + unit() * 80.0).floor(), (110.0 + unit() * 80.0).floor());
            let points = match i % 3 {
                0 => vec![(x, y), (x + 6.0, y), (x + 6.0, y + 4.0)],
                1 => vec![(x, y), (x, y), (x + unit() * 3.0, y + unit() * 3.0)],
                _ => vec![(unit() * 300.0, 0.0), (x, y), (300.0, unit() * 300.0)],
            };
            walls.push(crate::scene::Wall::new(format!("w{i}"), Default::default(), points));
        }
        let walls = Walls::new(walls, vec![]);
        let table = Vec2::splat(300.0);
        let mut stops = 0;
        for _ in 0..300 {
            let centre = Vec2::new(120.0 + unit() * 60.0, 120.0 + unit() * 60.0);
            let herd: Vec<Vec2> = (0..20).map(|_| centre + Vec2::new(unit() - 0.5, unit() - 0.5) * 10.0).collect();
            let reach = 1.0 + unit() * 12.0;
            let obstacles = Obstacles::near(&herd, reach, table, &walls, &[], &[], None);
            for k in 0..20 {
                let p = herd[k];
                // Steps of every length, some running out of the herd's box.
                let d = Vec2::new(unit() - 0.5, unit() - 0.5) * [1.0, 8.0, 60.0][k % 3];
                let got = obstacles.clear(p, d);
                let expected = match brute_force_wall_stop(&walls, &herd, reach, p, d) {
                    Some((t, u)) => ((t - BEAST_STANDOFF / d.length()).clamp(0.0, 1.0), Some(Blocker::Wall(u))),
                    None => (1.0, None),
                };
                if expected.1.is_some() {
                    stops += 1;
                }
                assert_eq!(got, expected, "step {p} + {d}");
            }
        }
        assert!(stops > 500, "{stops} steps stopped");
    }
}
