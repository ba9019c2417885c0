//! Herds, steeds and beasts with tempers (Herds set): figures crossing cattle grids, beasts
//! freed from grids, steeds caught, herds herded, wandering or stampeding, and zone attacks.
//!
//! A herd is one entity holding every beast's position ([`Beasts`]); it moves together.
//! Rules come from `rules::herds`; its headings are compass bearings (clockwise from north),
//! the scene's are degrees counter-clockwise from +x: [`compass_from_scene`] and
//! [`scene_from_compass`] are the one place that converts. See `docs/herds.md`.

pub mod spatial;

use super::clock::{MoveClock, SimDice};
use super::referee::Referee;
use super::geometry::{first_wall_hit, segment_enters_circle, segments_cross};
use super::log::{EventLog, LogEvent, round_to_thousandths_f32};
use super::outcome::HerdOutcome;
use super::world::{
    Conditions, Facing, Figure, SceneOrder, Swept, TablePosition, TableSize, Walls, Waypoints, placed_bundle, point,
    sorted, vec2,
};
use super::{Move, MoveSystems};
use crate::rules::character::Gait;
use crate::rules::herds::{
    CATCH_REACH_IN, CatchOutcome, GridEscapeOutcome, HerdSettings, Herder, Horsemanship, StampedeGridOutcome,
    ZoneResponse, herd_capacity, herded_move_rate, may_cross_grid, normalize_heading, resolve_catch,
    resolve_grid_escapes_this_move, resolve_running_grid, resolve_stampede_grid, resolve_wander,
    resolve_zone_strangers, walking_grid_loss_in,
};
use crate::rules::outcome::{Meaning, Outcome};
use crate::scene::{self, GridHold, GridHoldState, Scene, Skill};
use bevy::prelude::*;
use spatial::SpatialGrid;
use std::collections::VecDeque;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CattleGrids>()
        .init_resource::<FireHazards>()
        .init_resource::<BurningHazards>()
        .init_resource::<HerdRules>();
    app.add_systems(
        Move,
        (fires_turn_herds, figures_cross_cattle_grids, free_held_beasts, catch_steeds, move_herds, check_zones)
            .chain()
            .in_set(MoveSystems::Herds),
    );
}

/// Beasts flee fire they fear (001 "Fire Against people and animals"): every fire burning
/// now, with a fright value, is a hazard herds turn from. House rule: any fright value (FV1
/// and up) turns livestock; the hazard reaches half the fire's longer span.
fn fires_turn_herds(front: Res<super::fire::FireFront>, mut hazards: ResMut<BurningHazards>) {
    hazards.0 = front
        .fires()
        .iter()
        .filter_map(|f| {
            let fright = f.fright_value?;
            Some(FireHazard {
                position: Vec2::new(f.centre.0, f.centre.1),
                radius: (f.span_in.max(f.diameter_in) / 2.0).max(0.5),
                fright,
            })
        })
        .collect();
}

/// A herd as the scene gives it; `tethered` and `stampede` change in play.
#[derive(Component, Debug, Clone)]
pub struct Herd(pub scene::Herd);

/// Every beast of a herd: where it stands and whether a cattle grid holds it.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Beasts {
    pub positions: Vec<Vec2>,
    pub held: Vec<Option<GridHoldState>>,
}

impl Beasts {
    fn is_free(&self, i: usize) -> bool {
        self.held[i].is_none()
    }

    /// The centre of the herd: the mean of its beasts.
    pub fn centroid(&self) -> Vec2 {
        if self.positions.is_empty() {
            return Vec2::ZERO;
        }
        self.positions.iter().copied().sum::<Vec2>() / self.positions.len() as f32
    }
}

/// The scene's cattle grids (they do not change in play).
#[derive(Resource, Debug, Clone, Default)]
pub struct CattleGrids(pub Vec<scene::CattleGrid>);

/// The `rules.herds` settings of the scene.
#[derive(Resource, Debug, Clone, Default)]
pub struct HerdRules(pub HerdSettings);

/// A fire as herds see it: beasts will not go within `radius` inches of `position`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FireHazard {
    pub position: Vec2,
    pub radius: f32,
    /// 001 "Fire Against people and animals": the fire's fright value, logged when it turns a herd.
    pub fright: i32,
}

/// Hook for the fire domain: fires that turn herds. Empty unless something fills it (the fire
/// systems run before the Herds set each move, so whatever they write here is seen the same
/// move). A herd whose move would enter a hazard stops short and turns away from it.
#[derive(Resource, Debug, Clone, Default)]
pub struct FireHazards(pub Vec<FireHazard>);

/// The fires burning now, as hazards (filled from the fire front each move, beside any
/// [`FireHazards`] given by hand).
#[derive(Resource, Debug, Clone, Default)]
pub struct BurningHazards(pub Vec<FireHazard>);

/// How far short of a wall, grid or fire a blocked beast stops, in inches.
const BEAST_STANDOFF: f32 = 0.05;
/// Most passes spreading crowded beasts apart in one move.
const MAX_SPREAD_PASSES: usize = 16;
/// Shortfall from the spacing that still counts as spaced (float rounding).
const SPACING_TOLERANCE: f32 = 1e-3;

// ---------------------------------------------------------------------------------------------
// Headings
// ---------------------------------------------------------------------------------------------

/// A scene heading (degrees counter-clockwise from +x) as the rules' compass bearing (degrees
/// clockwise from north, +y): 90 (north) is bearing 0, 0 (east) is bearing 90.
pub fn compass_from_scene(scene_degrees: f32) -> f32 {
    normalize_heading(90.0 - scene_degrees)
}

/// A compass bearing as a scene heading in `0.0..360.0` (the inverse of [`compass_from_scene`]).
pub fn scene_from_compass(bearing: f32) -> f32 {
    normalize_heading(90.0 - bearing)
}

/// The unit vector a scene heading points along.
pub fn scene_direction(scene_degrees: f32) -> Vec2 {
    Vec2::from_angle(scene_degrees.to_radians())
}

/// The scene heading of a direction, in `0.0..360.0`.
fn heading_of(d: Vec2) -> f32 {
    normalize_heading(d.to_angle().to_degrees())
}

// ---------------------------------------------------------------------------------------------
// Spawning and saving
// ---------------------------------------------------------------------------------------------

fn herd_bundle(order: u32, h: &scene::Herd) -> impl Bundle {
    let mut held = vec![None; h.count as usize];
    for hold in &h.on_grid {
        if let Some(slot) = held.get_mut(hold.beast as usize) {
            *slot = Some(hold.state);
        }
    }
    let positions = h.beast_positions().into_iter().map(vec2).collect();
    (placed_bundle(order, &h.name, h.position), Facing(h.heading), Beasts { positions, held }, Herd(h.clone()))
}

/// Spawn the scene's herds, its cattle grids and the herd settings.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    world.insert_resource(CattleGrids(scene.cattle_grids.clone()));
    world.insert_resource(HerdRules(scene.rules.herds.clone()));
    world.insert_resource(FireHazards::default());
    for (i, h) in scene.herds.iter().enumerate() {
        world.spawn(herd_bundle(i as u32, h));
    }
}

/// Write the herds back into a scene, where they are now. Beast positions are written unless
/// they are still exactly the laid-out herd, so an unplayed scene saves as it was loaded.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    scene.herds = sorted::<Herd>(world)
        .into_iter()
        .map(|(_, Herd(mut h), e)| {
            let entity = world.entity(e);
            if let Some(p) = entity.get::<TablePosition>() {
                h.position = point(p.0);
            }
            if let Some(facing) = entity.get::<Facing>() {
                h.heading = facing.0;
            }
            if let Some(beasts) = entity.get::<Beasts>() {
                let now: Vec<scene::Point> = beasts.positions.iter().copied().map(point).collect();
                h.beasts =
                    if now == scene::herds::layout_beasts(h.position, h.count, h.spacing) { Vec::new() } else { now };
                h.on_grid = beasts
                    .held
                    .iter()
                    .enumerate()
                    .filter_map(|(i, s)| s.map(|state| GridHold { beast: i as u32, state }))
                    .collect();
            }
            h
        })
        .collect();
}

// ---------------------------------------------------------------------------------------------
// What figures are, as herds see them
// ---------------------------------------------------------------------------------------------

/// A figure as the herd systems read it, after movement.
#[derive(Debug, Clone)]
struct FigureAt {
    name: String,
    side: String,
    position: Vec2,
    /// It moved this move (its swept path is not empty).
    moved: bool,
    horsemanship: Horsemanship,
    trainer_or_shepherd: bool,
}

/// 000 "Riders & Animal Trainers": riders are 1st-level animal trainers.
fn horsemanship(skills: &[Skill]) -> Horsemanship {
    if skills.contains(&Skill::AnimalTrainer(2)) {
        Horsemanship::SecondLevelTrainer
    } else if skills.iter().any(|s| matches!(s, Skill::Rider | Skill::AnimalTrainer(_))) {
        Horsemanship::Rider
    } else {
        Horsemanship::NonRider
    }
}

type FigureQuery<'w, 's> = Query<
    'w,
    's,
    (&'static SceneOrder, &'static Name, &'static Figure, &'static TablePosition, &'static Swept),
    Without<Herd>,
>;

fn figures_in_order(figures: &FigureQuery) -> Vec<FigureAt> {
    let v: Vec<_> = figures.iter().sort::<&SceneOrder>().collect();
    v.into_iter()
        .map(|(_, name, figure, position, swept)| FigureAt {
            name: name.as_str().to_string(),
            side: figure.0.side.clone(),
            position: position.0,
            moved: !swept.segments.is_empty(),
            horsemanship: horsemanship(&figure.0.skills),
            trainer_or_shepherd: figure.0.skills.iter().any(|s| matches!(s, Skill::Shepherd | Skill::AnimalTrainer(_))),
        })
        .collect()
}

/// For each figure, the distance to the nearest beast of each herd within `reach`: one grid
/// over every beast, so the cost grows with the beasts near each figure, not all of them.
fn beasts_near_figures(figures: &[FigureAt], herds: &[&Beasts], reach: f32) -> Vec<Vec<(usize, f32)>> {
    let mut owners: Vec<(u32, u32)> = Vec::new();
    let mut grid = SpatialGrid::new(reach.max(1.0));
    for (h, beasts) in herds.iter().enumerate() {
        for (b, &p) in beasts.positions.iter().enumerate() {
            grid.insert(owners.len() as u32, p);
            owners.push((h as u32, b as u32));
        }
    }
    figures
        .iter()
        .map(|f| {
            let mut nearest: Vec<(usize, f32)> = Vec::new();
            grid.for_each_near(f.position, reach, |id| {
                let (h, b) = owners[id as usize];
                let d = herds[h as usize].positions[b as usize].distance(f.position);
                if d <= reach {
                    match nearest.iter_mut().find(|(hh, _)| *hh == h as usize) {
                        Some(entry) => entry.1 = entry.1.min(d),
                        None => nearest.push((h as usize, d)),
                    }
                }
            });
            nearest.sort_by_key(|(h, _)| *h);
            nearest
        })
        .collect()
}

fn herds_in_order(q: &Query<(Entity, &SceneOrder), With<Herd>>) -> Vec<Entity> {
    let mut v: Vec<_> = q.iter().map(|(e, o)| (*o, e)).collect();
    v.sort_by_key(|(o, _)| *o);
    v.into_iter().map(|(_, e)| e).collect()
}

// ---------------------------------------------------------------------------------------------
// Obstacles: the table edge, walls, impassable grids and fires
// ---------------------------------------------------------------------------------------------

/// What stopped a group of beasts.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Blocker {
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
    fn id(self) -> &'static str {
        match self {
            Blocker::TableEdge(_) => "stopped_by_table_edge",
            Blocker::Wall(_) => "stopped_by_wall",
            Blocker::Grid(..) => "stopped_by_cattle_grid",
            Blocker::Fire(..) => "turned_by_fire",
        }
    }

    /// The direction to take after being stopped going along `d` (house rule): bounce off
    /// the edge, wall or grid as a ball would, or turn straight away from the fire.
    fn turn(self, d: Vec2, centre: Vec2) -> Vec2 {
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
struct Obstacles<'a> {
    table: Vec2,
    walls: Vec<scene::Wall>,
    doors: &'a [scene::Door],
    /// Grids these beasts may not cross now: (index, from, to).
    grids: Vec<(usize, Vec2, Vec2)>,
    fires: &'a [FireHazard],
}

impl<'a> Obstacles<'a> {
    /// The obstacles within `reach` of the beasts' bounding box.
    fn near(
        positions: &[Vec2],
        reach: f32,
        table: Vec2,
        walls: &'a Walls,
        grids: &[(usize, Vec2, Vec2)],
        fires: &'a [FireHazard],
    ) -> Self {
        let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for &p in positions {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        lo -= Vec2::splat(reach);
        hi += Vec2::splat(reach);
        let overlaps = |a: Vec2, b: Vec2| a.min(b).cmple(hi).all() && a.max(b).cmpge(lo).all();
        let near_walls = walls
            .walls
            .iter()
            .filter(|w| w.points.windows(2).any(|s| overlaps(vec2(s[0]), vec2(s[1]))))
            .cloned()
            .collect();
        let grids = grids.iter().copied().filter(|&(_, a, b)| overlaps(a, b)).collect();
        Obstacles { table, walls: near_walls, doors: &walls.doors, grids, fires }
    }

    /// How far (0..=1) a beast at `p` can go along `d` before something stops it.
    fn clear(&self, p: Vec2, d: Vec2) -> (f32, Option<Blocker>) {
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
        if let Some(t) = first_wall_hit(p, p + d, &self.walls, self.doors) {
            let hit = p + d * t;
            let u = self
                .walls
                .iter()
                .flat_map(|w| w.points.windows(2).map(|s| (vec2(s[0]), vec2(s[1]))))
                .find(|&(a, b)| super::geometry::point_segment_distance(hit, a, b) < 1e-3)
                .map_or(Vec2::new(-d.y, d.x), |(a, b)| b - a);
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
        best
    }

    /// A point nudged onto the table: a beast stopped at the edge may land a rounding error off it.
    fn on_table(&self, p: Vec2) -> Vec2 {
        p.clamp(Vec2::ZERO, self.table)
    }

    /// Whether a beast may step from `p` to `q` (a small spreading step).
    fn step_ok(&self, p: Vec2, q: Vec2) -> bool {
        q.x >= 0.0 && q.y >= 0.0 && q.x <= self.table.x && q.y <= self.table.y && self.clear(p, q - p).1.is_none()
    }
}

/// Move the `members` of a herd together along `d`, as far as the slowest-blocked of them may
/// go. Returns how far they went (inches) and what stopped them.
fn move_group(positions: &mut [Vec2], members: &[usize], d: Vec2, obstacles: &Obstacles) -> (f32, Option<Blocker>) {
    if members.is_empty() || d.length_squared() <= f32::EPSILON {
        return (0.0, None);
    }
    let mut best: (f32, Option<Blocker>) = (1.0, None);
    for &i in members {
        let (t, b) = obstacles.clear(positions[i], d);
        if t < best.0 {
            best = (t, b);
        }
        if best.0 <= 0.0 {
            break;
        }
    }
    let step = d * best.0;
    for &i in members {
        positions[i] = obstacles.on_table(positions[i] + step);
    }
    (step.length(), best.1)
}

/// Spread crowded beasts out to `spacing` (000: "spread out to 1" between each beast"):
/// overlapping pairs are pushed apart along the line between them, held beasts do not move,
/// and no push crosses a wall, grid or fire ring or leaves the table. Returns the pushes made.
fn spread_out(positions: &mut [Vec2], held: &[Option<GridHoldState>], spacing: f32, obstacles: &Obstacles) -> u32 {
    let mut pushes = 0;
    for _ in 0..MAX_SPREAD_PASSES {
        let grid = SpatialGrid::from_points(positions, spacing);
        let mut pairs = Vec::new();
        for (i, &p) in positions.iter().enumerate() {
            grid.for_each_near(p, spacing, |j| {
                let j = j as usize;
                if j > i && positions[j].distance(p) < spacing - SPACING_TOLERANCE {
                    pairs.push((i, j));
                }
            });
        }
        if pairs.is_empty() {
            break;
        }
        pairs.sort_unstable();
        for (i, j) in pairs {
            let (pi, pj) = (positions[i], positions[j]);
            let gap = pi.distance(pj);
            if gap >= spacing - SPACING_TOLERANCE {
                continue;
            }
            // Coincident beasts part along a direction fixed by the later one's index.
            let dir = if gap > 1e-6 { (pj - pi) / gap } else { Vec2::from_angle(j as f32 * 2.399_963) };
            let overlap = spacing - gap + SPACING_TOLERANCE / 2.0;
            let (free_i, free_j) = (held[i].is_none(), held[j].is_none());
            let (share_i, share_j) = match (free_i, free_j) {
                (true, true) => (0.5, 0.5),
                (true, false) => (1.0, 0.0),
                (false, true) => (0.0, 1.0),
                (false, false) => continue,
            };
            let (qi, qj) = (pi - dir * overlap * share_i, pj + dir * overlap * share_j);
            let ok_i = share_i > 0.0 && obstacles.step_ok(pi, qi);
            let ok_j = share_j > 0.0 && obstacles.step_ok(pj, qj);
            match (ok_i, ok_j) {
                (true, true) => {
                    positions[i] = qi;
                    positions[j] = qj;
                }
                // One side is against something: the other takes the whole push if it can.
                (true, false) => {
                    let q = pi - dir * overlap;
                    positions[i] = if obstacles.step_ok(pi, q) { q } else { qi };
                }
                (false, true) => {
                    let q = pj + dir * overlap;
                    positions[j] = if obstacles.step_ok(pj, q) { q } else { qj };
                }
                (false, false) => {}
            }
            pushes += 1;
        }
    }
    pushes
}

// ---------------------------------------------------------------------------------------------
// 1. Figures crossing cattle grids
// ---------------------------------------------------------------------------------------------

/// Whether the last swept segment ended at a waypoint the walk used up (rather than partway
/// towards the next one).
fn last_segment_used_a_waypoint(a: Vec2, b: Vec2, waypoints: &VecDeque<Vec2>) -> bool {
    let Some(&front) = waypoints.front() else { return true };
    let (ab, af) = (b - a, front - a);
    // Partway: the next waypoint lies straight ahead beyond the segment's end.
    !(ab.perp_dot(af).abs() <= 1e-4 * af.length().max(1.0) && ab.dot(af) > 0.0 && af.length() + 1e-5 >= ab.length())
}

/// Pull a figure back along its swept path to `keep` inches from its start, putting back any
/// waypoint it reached beyond that point. Returns the new position and the shortened path.
fn pull_back(segments: &[(Vec2, Vec2)], waypoints: &mut VecDeque<Vec2>, keep: f32) -> (Vec2, Vec<(Vec2, Vec2)>) {
    let Some(&(la, lb)) = segments.last() else { return (Vec2::ZERO, Vec::new()) };
    let last_used = last_segment_used_a_waypoint(la, lb, waypoints);
    let mut walked = 0.0;
    let mut kept = Vec::new();
    for (k, &(a, b)) in segments.iter().enumerate() {
        let len = a.distance(b);
        if walked + len < keep - 1e-6 {
            kept.push((a, b));
            walked += len;
            continue;
        }
        let cut = if len > 0.0 { a + (b - a) * ((keep - walked) / len).clamp(0.0, 1.0) } else { a };
        if cut != a {
            kept.push((a, cut));
        }
        // Waypoints reached from here on are walked again next move.
        let last = segments.len() - 1;
        let used: Vec<Vec2> =
            (k..=last).filter(|&i| i < last || last_used).map(|i| segments[i].1).filter(|&p| p != cut).collect();
        for p in used.into_iter().rev() {
            waypoints.push_front(p);
        }
        return (cut, kept);
    }
    (lb, kept)
}

#[allow(clippy::type_complexity)]
fn figures_cross_cattle_grids(
    mut figures: Query<(&SceneOrder, &Name, &Figure, &mut TablePosition, &mut Waypoints, &mut Swept, &mut Conditions)>,
    grids: Res<CattleGrids>,
    rules: Res<HerdRules>,
    referee: Referee,
) {
    let Referee { clock, mut dice, mut log } = referee;
    if grids.0.is_empty() {
        return;
    }
    let figures: Vec<_> = figures.iter_mut().sort::<&SceneOrder>().collect();
    for (_, name, figure, mut position, mut waypoints, mut swept, mut conditions) in figures {
        // Each crossing: (inches along the swept path, grid index, where).
        let mut crossings = Vec::new();
        let mut along = 0.0;
        for &(a, b) in &swept.segments {
            for (g, grid) in grids.0.iter().enumerate() {
                if let Some(t) = segments_cross(a, b, vec2(grid.from), vec2(grid.to)) {
                    // A start on the grid line is the crossing counted when the figure got there.
                    if t > 1e-6 {
                        crossings.push((along + a.distance(b) * t, g, a + (b - a) * t));
                    }
                }
            }
            along += a.distance(b);
        }
        if crossings.is_empty() {
            continue;
        }
        crossings.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let swept_len = along;
        let mut loss = 0.0f32;
        let mut floor = 0.0f32;
        let mut events = Vec::new();
        for (at, g, where_) in crossings {
            let grid = &grids.0[g];
            let base = LogEvent::new("herds", "cattle_grid", name.as_str())
                .field("grid", &grid.name)
                .field("at", point(where_))
                .field("gait", figure.0.gait);
            if grid.planks {
                events.push(base.outcome(HerdOutcome::CrossedOnPlanks));
            } else if figure.0.gait == Gait::Running {
                let r = resolve_running_grid(&rules.0, &mut *dice);
                if r.move_penalty_in > 0.0 {
                    conditions.0.push(scene::Condition {
                        name: format!("hurt on cattle grid \"{}\"", grid.name),
                        kind: scene::ConditionKind::Injury,
                        move_penalty: r.move_penalty_in,
                        // Bookkeeping counts this move down too: one more keeps the full count.
                        moves_left: r.lasts_moves.map(|m| m.saturating_add(1)),
                        immobile: false,
                        me_and_mo: 0,
                    });
                }
                events.push(
                    base.roll(r.roll.clone())
                        .outcome(r.outcome)
                        .field("move_penalty", r.move_penalty_in)
                        .field("lasts_moves", r.lasts_moves),
                );
            } else {
                let l = walking_grid_loss_in(figure.0.sex);
                loss += l;
                floor = at;
                events.push(base.outcome(HerdOutcome::Walked).field("sex", figure.0.sex).field("loss", l));
            }
        }
        if loss > 0.0 {
            let keep = (swept_len - loss).max(floor);
            let from = position.0;
            if keep < swept_len - 1e-6 {
                let (at, kept) = pull_back(&swept.segments, &mut waypoints.0, keep);
                position.0 = at;
                swept.segments = kept;
            }
            if let Some(last) = events.iter_mut().rev().find(|e| e.outcome == HerdOutcome::Walked.id()) {
                last.fields.insert("moved_back_from".into(), serde_json::json!(point(from)));
                last.fields.insert("to".into(), serde_json::json!(point(position.0)));
            }
        }
        for e in events {
            log.push(&clock, e);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Beasts held by grids
// ---------------------------------------------------------------------------------------------

#[allow(clippy::too_many_arguments)]
fn free_held_beasts(
    figures: FigureQuery,
    herds: Query<(Entity, &SceneOrder), With<Herd>>,
    mut state: Query<(&Name, &mut Beasts, &Facing)>,
    grids: Res<CattleGrids>,
    rules: Res<HerdRules>,
    referee: Referee,
) {
    let Referee { clock, mut dice, mut log } = referee;
    let figures = figures_in_order(&figures);
    for entity in herds_in_order(&herds) {
        let Ok((name, mut beasts, facing)) = state.get_mut(entity) else { continue };
        for i in 0..beasts.positions.len() {
            let at = beasts.positions[i];
            match beasts.held[i] {
                None => {}
                Some(GridHoldState::Trapped) => {
                    let tries = resolve_grid_escapes_this_move(&rules.0, &mut *dice);
                    let escaped = tries.iter().any(|t| t.outcome == GridEscapeOutcome::Escaped);
                    let mut e = LogEvent::new("herds", "grid_escape", name.as_str())
                        .outcome(if escaped { GridEscapeOutcome::Escaped } else { GridEscapeOutcome::StillTrapped })
                        .field("beast", i)
                        .field("at", point(at));
                    for t in tries {
                        e = e.roll(t.roll);
                    }
                    log.push(&clock, e);
                    if escaped {
                        beasts.held[i] = None;
                        beasts.positions[i] = off_the_grid(at, scene_direction(facing.0), &grids.0);
                    }
                }
                Some(GridHoldState::Stuck) => {
                    let reach = rules.0.free_stuck_reach_in;
                    if let Some(helper) = figures.iter().find(|f| f.position.distance(at) <= reach) {
                        beasts.held[i] = None;
                        beasts.positions[i] = off_the_grid(at, scene_direction(facing.0), &grids.0);
                        log.push(
                            &clock,
                            LogEvent::new("herds", "grid_freed", name.as_str())
                                .outcome(HerdOutcome::Freed)
                                .field("beast", i)
                                .field("helper", &helper.name)
                                .field("at", point(at)),
                        );
                    }
                }
            }
        }
    }
}

/// A beast leaving a grid steps just off it, on the side it was heading for.
fn off_the_grid(at: Vec2, heading: Vec2, grids: &[scene::CattleGrid]) -> Vec2 {
    let nearest = grids.iter().min_by(|a, b| {
        let da = super::geometry::point_segment_distance(at, vec2(a.from), vec2(a.to));
        let db = super::geometry::point_segment_distance(at, vec2(b.from), vec2(b.to));
        da.total_cmp(&db)
    });
    let Some(grid) = nearest else { return at };
    let u = (vec2(grid.to) - vec2(grid.from)).normalize_or_zero();
    let n = Vec2::new(-u.y, u.x);
    let side = if heading.dot(n) >= 0.0 { 1.0 } else { -1.0 };
    at + n * side * 2.0 * BEAST_STANDOFF
}

// ---------------------------------------------------------------------------------------------
// 3. Catching steeds
// ---------------------------------------------------------------------------------------------

fn catch_steeds(
    figures: FigureQuery,
    herds: Query<(Entity, &SceneOrder), With<Herd>>,
    mut state: Query<(&Name, &mut Herd, &Beasts)>,
    rules: Res<HerdRules>,
    referee: Referee,
) {
    let Referee { clock, mut dice, mut log } = referee;
    let order = herds_in_order(&herds);
    let loose: Vec<Entity> = order
        .into_iter()
        .filter(|&e| state.get(e).is_ok_and(|(_, h, _)| h.0.beast.is_steed() && !h.0.tethered))
        .collect();
    if loose.is_empty() {
        return;
    }
    let figures = figures_in_order(&figures);
    let near = {
        let beasts: Vec<&Beasts> = loose.iter().filter_map(|&e| state.get(e).ok().map(|(_, _, b)| b)).collect();
        beasts_near_figures(&figures, &beasts, CATCH_REACH_IN)
    };
    let mut tried = vec![false; figures.len()];
    for (h, &entity) in loose.iter().enumerate() {
        let Ok((name, mut herd, _)) = state.get_mut(entity) else { continue };
        for (f, figure) in figures.iter().enumerate() {
            // House rule: a figure of the steeds' side whose move ends within 6" tries, once a move.
            if tried[f] || !figure.moved || figure.side != herd.0.side {
                continue;
            }
            let Some(&(_, distance)) = near[f].iter().find(|(hh, _)| *hh == h) else { continue };
            tried[f] = true;
            let attempt = resolve_catch(distance, herd.0.bond, figure.horsemanship, &rules.0, &mut *dice);
            let mut e = LogEvent::new("herds", "catch_attempt", name.as_str())
                .outcome(attempt.outcome)
                .field("catcher", &figure.name)
                .field("distance", round_to_thousandths_f32(distance))
                .field("bond", herd.0.bond)
                .field("horsemanship", figure.horsemanship);
            if let Some(roll) = attempt.roll {
                e = e.roll(roll);
            }
            log.push(&clock, e);
            if attempt.outcome == CatchOutcome::Caught {
                herd.0.tethered = true;
                break;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Herding, wandering and stampeding
// ---------------------------------------------------------------------------------------------

#[allow(clippy::too_many_arguments)]
fn move_herds(
    figures: FigureQuery,
    herds: Query<(Entity, &SceneOrder), With<Herd>>,
    mut state: Query<(&Name, &mut Herd, &mut Beasts, &mut Facing, &mut TablePosition)>,
    table: Res<TableSize>,
    walls: Res<Walls>,
    grids: Res<CattleGrids>,
    fires: Res<FireHazards>,
    burning: Res<BurningHazards>,
    rules: Res<HerdRules>,
    referee: Referee,
) {
    let Referee { clock, mut dice, mut log } = referee;
    let figures = figures_in_order(&figures);
    let settings = &rules.0;
    let all_fires: Vec<FireHazard> = fires.0.iter().chain(burning.0.iter()).cloned().collect();
    for entity in herds_in_order(&herds) {
        let Ok((name, mut herd, mut beasts, mut facing, mut position)) = state.get_mut(entity) else { continue };
        let name = name.as_str();
        let herd = &mut herd.0;
        let before = beasts.positions.clone();
        let free: Vec<usize> = (0..beasts.positions.len()).filter(|&i| beasts.is_free(i)).collect();
        if herd.tethered {
            log.push(&clock, LogEvent::new("herds", "wandered", name).outcome(HerdOutcome::Tethered));
            continue;
        }
        if free.is_empty() {
            continue;
        }
        let stampeding = herd.stampede > 0;
        // Stampeding livestock try the grids (and roll); otherwise a grid is a wall to them.
        let blocking_grids: Vec<(usize, Vec2, Vec2)> = grids
            .0
            .iter()
            .enumerate()
            .filter(|(_, g)| !stampeding && !may_cross_grid(herd.beast, g.planks, settings))
            .map(|(i, g)| (i, vec2(g.from), vec2(g.to)))
            .collect();
        let reach = settings.stampede_move_in.max(10.0) + herd.spacing + 1.0;
        let obstacles = Obstacles::near(&beasts.positions, reach, table.0, &walls, &blocking_grids, &all_fires);

        let mut wanderers = free.clone();
        if stampeding {
            stampede(
                name,
                herd,
                &mut beasts,
                &mut facing,
                &free,
                &obstacles,
                &grids.0,
                settings,
                &clock,
                &mut dice,
                &mut log,
            );
            wanderers.clear();
        } else if !herd.herders.is_empty() {
            wanderers = herd_beasts(
                name,
                herd,
                &mut beasts,
                &mut facing,
                &free,
                &figures,
                &obstacles,
                settings,
                &clock,
                &mut log,
            );
        }
        if !wanderers.is_empty() {
            wander(name, &mut beasts, &mut facing, &wanderers, &obstacles, &clock, &mut dice, &mut log);
        }
        let all = &mut *beasts;
        let pushes = spread_out(&mut all.positions, &all.held, herd.spacing, &obstacles);
        if pushes > 0 {
            log.push(
                &clock,
                LogEvent::new("herds", "spread_out", name).outcome(HerdOutcome::SpreadOut).field("pushes", pushes),
            );
        }
        if beasts.positions != before {
            position.0 = beasts.centroid();
        }
    }
}

/// 000 "Untethered Steeds and ruminants & herding": the herd (or its stragglers) turns by
/// D10×20°, right on D6 4+, and goes D10−3" (nothing on a minus), together.
#[allow(clippy::too_many_arguments)]
fn wander(
    name: &str,
    beasts: &mut Beasts,
    facing: &mut Facing,
    members: &[usize],
    obstacles: &Obstacles,
    clock: &MoveClock,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    let heading_before = facing.0;
    let w = resolve_wander(compass_from_scene(heading_before), dice);
    let heading = scene_from_compass(w.new_heading);
    let from = group_centre(&beasts.positions, members);
    let d = scene_direction(heading) * w.distance_in;
    let (went, blocker) = move_group(&mut beasts.positions, members, d, obstacles);
    let to = group_centre(&beasts.positions, members);
    facing.0 = match blocker {
        Some(b) => heading_of(b.turn(d, to)),
        None => heading,
    };
    let outcome = blocker.map_or(w.step.classified(), Outcome::classified);
    let mut e = LogEvent::new("herds", "wandered", name)
        .roll(w.distance_roll)
        .roll(w.direction_roll)
        .roll(w.turn_roll)
        .outcome(outcome)
        .field("step", w.step.id())
        .field("distance", w.distance_in)
        .field("side", w.side.id())
        .field("turn_degrees", w.turn_degrees)
        .field("compass_before", round_to_thousandths_f32(compass_from_scene(heading_before)))
        .field("compass_after", round_to_thousandths_f32(w.new_heading))
        .field("heading_before", round_to_thousandths_f32(heading_before))
        .field("heading", round_to_thousandths_f32(heading))
        .field("travelled", round_to_thousandths_f32(went))
        .field("from", point(from))
        .field("to", point(to))
        .field("beasts", members.len());
    if let Some(b) = blocker {
        e = e.field("turned_to", round_to_thousandths_f32(facing.0));
        if let Blocker::Fire(c, fright) = b {
            e = e.field("fire", point(c)).field("fright", fright);
        }
        if let Blocker::Grid(g, _) = b {
            e = e.field("grid", g);
        }
    }
    log.push(clock, e);
}

fn group_centre(positions: &[Vec2], members: &[usize]) -> Vec2 {
    if members.is_empty() {
        return Vec2::ZERO;
    }
    members.iter().map(|&i| positions[i]).sum::<Vec2>() / members.len() as f32
}

/// 000 "Herding": beasts up to the herders' capacity follow the first herder in reach at the
/// herded rate, stopping a spacing short of him; the rest are returned to wander.
#[allow(clippy::too_many_arguments)]
fn herd_beasts(
    name: &str,
    herd: &scene::Herd,
    beasts: &mut Beasts,
    facing: &mut Facing,
    free: &[usize],
    figures: &[FigureAt],
    obstacles: &Obstacles,
    settings: &HerdSettings,
    clock: &MoveClock,
    log: &mut EventLog,
) -> Vec<usize> {
    let (Some(rate), true) = (herded_move_rate(herd.beast), !free.is_empty()) else { return free.to_vec() };
    let nearest_beast = |p: Vec2| free.iter().map(|&i| beasts.positions[i].distance(p)).fold(f32::MAX, f32::min);
    let present: Vec<&FigureAt> = herd
        .herders
        .iter()
        .filter_map(|n| figures.iter().find(|f| &f.name == n))
        .filter(|f| nearest_beast(f.position) <= settings.herding_reach_in)
        .collect();
    if present.is_empty() {
        log.push(
            clock,
            LogEvent::new("herds", "herded", name)
                .outcome(HerdOutcome::HerdersOutOfReach)
                .field("herders", &herd.herders)
                .field("reach", settings.herding_reach_in),
        );
        return free.to_vec();
    }
    let herders: Vec<Herder> = present
        .iter()
        .enumerate()
        .map(|(k, f)| Herder { trainer_or_shepherd: f.trainer_or_shepherd, has_dog: herd.dog && k == 0 })
        .collect();
    let capacity = herd_capacity(herd.beast, &herders).unwrap_or(0) as usize;
    let leader = present[0].position;
    let mut by_distance: Vec<usize> = free.to_vec();
    by_distance.sort_by(|&a, &b| {
        beasts.positions[a].distance(leader).total_cmp(&beasts.positions[b].distance(leader)).then(a.cmp(&b))
    });
    let herded: Vec<usize> = by_distance.iter().copied().take(capacity).collect();
    let mut stragglers: Vec<usize> = by_distance.iter().copied().skip(capacity).collect();
    stragglers.sort_unstable();
    let from = group_centre(&beasts.positions, &herded);
    let spread = herded.iter().map(|&i| beasts.positions[i].distance(from)).fold(0.0, f32::max);
    let gap = leader.distance(from) - spread - herd.spacing;
    let d = if gap > 0.0 { (leader - from).normalize_or_zero() * gap.min(rate) } else { Vec2::ZERO };
    let (went, blocker) = move_group(&mut beasts.positions, &herded, d, obstacles);
    if went > 0.0 && stragglers.is_empty() {
        facing.0 = heading_of(d);
    }
    let outcome = if stragglers.is_empty() { HerdOutcome::Herded } else { HerdOutcome::PartlyHerded };
    let mut e = LogEvent::new("herds", "herded", name)
        .outcome(outcome)
        .field("herders", present.iter().map(|f| f.name.as_str()).collect::<Vec<_>>())
        .field("dog", herd.dog)
        .field("capacity", capacity)
        .field("herded", herded.len())
        .field("stragglers", stragglers.len())
        .field("rate", rate)
        .field("travelled", round_to_thousandths_f32(went))
        .field("from", point(from))
        .field("to", point(group_centre(&beasts.positions, &herded)));
    if let Some(b) = blocker {
        e = e.field("stopped_by", b.id());
    }
    log.push(clock, e);
    stragglers
}

/// A stampede (house rule: `stampede_move_in` a move along the heading, no wander roll).
/// 001 "Cattle Grids": each beast running onto a grid rolls D6 + F; trapped and stuck beasts
/// stay on it.
#[allow(clippy::too_many_arguments)]
fn stampede(
    name: &str,
    herd: &mut scene::Herd,
    beasts: &mut Beasts,
    facing: &mut Facing,
    free: &[usize],
    obstacles: &Obstacles,
    grids: &[scene::CattleGrid],
    settings: &HerdSettings,
    clock: &MoveClock,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    let d = scene_direction(facing.0) * settings.stampede_move_in;
    let from = group_centre(&beasts.positions, free);
    // The herd's run is cut short by edges, walls and fire, but not by grids.
    let mut t = 1.0f32;
    let mut blocker = None;
    for &i in free {
        let (ti, b) = obstacles.clear(beasts.positions[i], d);
        if ti < t {
            t = ti;
            blocker = b;
        }
    }
    let step = d * t;
    for &i in free {
        let p = beasts.positions[i];
        let mut crossings: Vec<(f32, usize)> = grids
            .iter()
            .enumerate()
            .filter(|(_, g)| !may_cross_grid(herd.beast, g.planks, settings))
            .filter_map(|(gi, g)| {
                segments_cross(p, p + step, vec2(g.from), vec2(g.to)).filter(|&s| s > 1e-6).map(|s| (s, gi))
            })
            .collect();
        crossings.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut end = p + step;
        for (s, gi) in crossings {
            let r = resolve_stampede_grid(herd.beast, None, settings, dice);
            let at = p + step * s;
            log.push(
                clock,
                LogEvent::new("herds", "grid_stampede", name)
                    .roll(r.roll.clone())
                    .outcome(r.outcome)
                    .field("beast", i)
                    .field("grid", &grids[gi].name)
                    .field("at", point(at)),
            );
            match r.outcome {
                StampedeGridOutcome::Crossed => {}
                StampedeGridOutcome::Trapped | StampedeGridOutcome::Stuck => {
                    beasts.held[i] = Some(if r.outcome == StampedeGridOutcome::Trapped {
                        GridHoldState::Trapped
                    } else {
                        GridHoldState::Stuck
                    });
                    end = at;
                    break;
                }
            }
        }
        beasts.positions[i] = obstacles.on_table(end);
    }
    if let Some(b) = blocker {
        facing.0 = heading_of(b.turn(d, group_centre(&beasts.positions, free)));
    }
    herd.stampede = herd.stampede.saturating_sub(1);
    let mut e = LogEvent::new("herds", "stampeded", name)
        .outcome(blocker.map_or(HerdOutcome::Ran.classified(), Outcome::classified))
        .field("travelled", round_to_thousandths_f32(step.length()))
        .field("from", point(from))
        .field("to", point(group_centre(&beasts.positions, free)))
        .field("moves_left", herd.stampede);
    if blocker.is_some() {
        e = e.field("turned_to", round_to_thousandths_f32(facing.0));
    }
    log.push(clock, e);
}

// ---------------------------------------------------------------------------------------------
// 5. Zones
// ---------------------------------------------------------------------------------------------

/// 000 "Neuserks, Okserks & Chuserks": every herd with a zone looks at the strangers (figures
/// of another side) within its zone of any of its beasts; the attack is an event.
fn check_zones(
    figures: FigureQuery,
    herds: Query<(Entity, &SceneOrder), With<Herd>>,
    state: Query<(&Name, &Herd, &Beasts)>,
    referee: Referee,
) {
    let Referee { clock, mut dice, mut log } = referee;
    let zoned: Vec<Entity> = herds_in_order(&herds)
        .into_iter()
        .filter(|&e| state.get(e).is_ok_and(|(_, h, _)| h.0.zone_creature().is_some()))
        .collect();
    if zoned.is_empty() {
        return;
    }
    let figures = figures_in_order(&figures);
    let reach = zoned
        .iter()
        .filter_map(|&e| state.get(e).ok().and_then(|(_, h, _)| h.0.zone_creature()))
        .map(|z| z.zone_in)
        .fold(0.0f32, f32::max);
    let beasts: Vec<&Beasts> = zoned.iter().filter_map(|&e| state.get(e).ok().map(|(_, _, b)| b)).collect();
    let near = beasts_near_figures(&figures, &beasts, reach);
    for (h, &entity) in zoned.iter().enumerate() {
        let Ok((name, herd, _)) = state.get(entity) else { continue };
        let Some(creature) = herd.0.zone_creature() else { continue };
        let strangers: Vec<(&str, f32)> = figures
            .iter()
            .zip(&near)
            .filter(|(f, _)| f.side != herd.0.side)
            .filter_map(|(f, n)| n.iter().find(|(hh, _)| *hh == h).map(|&(_, d)| (f.name.as_str(), d)))
            .filter(|&(_, d)| d <= creature.zone_in)
            .collect();
        if strangers.is_empty() {
            continue;
        }
        let decision = resolve_zone_strangers(&creature, strangers.len() as u32, &mut *dice);
        let mut e = LogEvent::new("herds", "zone", name.as_str())
            .outcome(decision.response)
            .field("temper", creature.temper.id())
            .field("zone", creature.zone_in)
            .field("strangers_in_zone", decision.strangers_in_zone)
            .field("strangers", strangers.iter().map(|(n, _)| *n).collect::<Vec<_>>())
            .field("distances", strangers.iter().map(|(_, d)| round_to_thousandths_f32(*d)).collect::<Vec<_>>());
        if let Some(roll) = decision.roll {
            e = e.roll(roll);
        }
        if decision.response == ZoneResponse::Attacks {
            e = e.field("attacks", strangers.iter().map(|(n, _)| *n).collect::<Vec<_>>());
        }
        log.push(&clock, e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_convert_between_scene_and_compass() {
        // Scene 90 (+y) is north, bearing 0; scene 0 (+x) is east, bearing 90.
        assert_eq!(compass_from_scene(90.0), 0.0);
        assert_eq!(compass_from_scene(0.0), 90.0);
        assert_eq!(compass_from_scene(180.0), 270.0);
        assert_eq!(compass_from_scene(270.0), 180.0);
        for h in [0.0f32, 17.0, 90.0, 200.0, 359.0] {
            assert!((scene_from_compass(compass_from_scene(h)) - h).abs() < 1e-4, "{h}");
        }
        // A right (clockwise) turn of 90 from north heads east, along +x.
        let east = scene_direction(scene_from_compass(compass_from_scene(90.0) + 90.0));
        assert!((east - Vec2::X).length() < 1e-5, "{east}");
        // A left turn of 90 from east heads north, along +y.
        let north = scene_direction(scene_from_compass(compass_from_scene(0.0) - 90.0));
        assert!((north - Vec2::Y).length() < 1e-5, "{north}");
    }

    #[test]
    fn pull_back_restores_waypoints() {
        // Walked (0,0)→(2,0) [waypoint], →(2,3) [waypoint], →(2,4) partway to (2,6).
        let segments = vec![
            (Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0)),
            (Vec2::new(2.0, 0.0), Vec2::new(2.0, 3.0)),
            (Vec2::new(2.0, 3.0), Vec2::new(2.0, 4.0)),
        ];
        let mut wp: VecDeque<Vec2> = [Vec2::new(2.0, 6.0)].into();
        let (at, kept) = pull_back(&segments, &mut wp, 4.0);
        assert!((at - Vec2::new(2.0, 2.0)).length() < 1e-5, "{at}");
        assert_eq!(wp, VecDeque::from([Vec2::new(2.0, 3.0), Vec2::new(2.0, 6.0)]));
        assert_eq!(kept.len(), 2);
        // Arrived at the last waypoint: it is put back too.
        let mut wp = VecDeque::new();
        let (at, _) = pull_back(&segments, &mut wp, 5.0);
        assert!((at - Vec2::new(2.0, 3.0)).length() < 1e-5);
        assert_eq!(wp, VecDeque::from([Vec2::new(2.0, 4.0)]));
    }

    #[test]
    fn obstacles_stop_and_turn() {
        let walls = Walls {
            walls: vec![scene::Wall {
                name: "w".into(),
                kind: Default::default(),
                points: vec![(10.0, 0.0), (10.0, 20.0)],
            }],
            doors: vec![],
        };
        let fires = [FireHazard { position: Vec2::new(5.0, 15.0), radius: 2.0, fright: 2 }];
        let grids = [(0usize, Vec2::new(0.0, 8.0), Vec2::new(10.0, 8.0))];
        let obstacles = Obstacles::near(&[Vec2::new(5.0, 5.0)], 20.0, Vec2::new(20.0, 20.0), &walls, &grids, &fires);
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

    #[test]
    fn crowded_beasts_spread_out() {
        let walls = Walls::default();
        let mut positions = vec![Vec2::new(10.0, 10.0); 12];
        positions.push(Vec2::new(10.2, 10.1));
        let held = vec![None; positions.len()];
        let obstacles = Obstacles::near(&positions, 5.0, Vec2::new(40.0, 40.0), &walls, &[], &[]);
        for _ in 0..6 {
            spread_out(&mut positions, &held, 1.0, &obstacles);
        }
        for i in 0..positions.len() {
            for j in i + 1..positions.len() {
                assert!(positions[i].distance(positions[j]) >= 1.0 - 2.0 * SPACING_TOLERANCE, "{i} {j}");
            }
        }
    }
}
