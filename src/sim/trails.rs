//! Trails and the trackers who follow them (000 "Tracking", "Scent Tracking", "Pepper trap").
//! The readings are in docs/tracking.md "In a scene".
//!
//! Order within the Trails set (after Movement, so the quarry's move this move is on its trail):
//! 1. `record_trails`: every figure's path walked this move, in scene order, is added to its
//!    trail (the last trail whose quarry it is, else a new one), each point with the move; herds
//!    add their centre when `trails.beasts_leave_trails`. Points older than any tracker can
//!    read (three days by sight, 120 moves by scent) and beyond [`MAX_TRAIL_POINTS`] are dropped.
//! 2. `track`: each tracker, in scene order, reads its quarry's trail where it stands (age,
//!    weather at this move, lighting, water, counter-scents), dices by sight or scent and moves
//!    by the result; a tracking animal whose path comes within a draught of pepper stops there
//!    and sneezes (a noise for the sleepers), then dices D6 each move needing 6. A tracker's own
//!    path is added to its trail, and a tracker ending its move within 1" of its quarry is
//!    logged `caught_up` (once each time it comes up).

use super::clock::{MoveClock, SimDice};
use super::geometry::point_segment_distance;
use super::herds::{Beasts, Herd};
use super::log::{EventLog, LogEvent, point_to_thousandths, round_to_thousandths};
use super::movement::{allowance_for, walk};
use super::noise::{NoiseMade, make_house_rule_noise, round_in_move};
use super::outcome::TrackingEventOutcome;
use super::world::{
    Conditions, Facing, Figure, Lights, SceneLighting, SceneOrder, Swept, TablePosition, TableSize, Terrain, Walls,
    Waypoints, in_scene_order, lighting_at, point, vec2,
};
use super::{Move, MoveSystems};
use crate::rules::dice::{DiceSource, Rolls};
use crate::rules::tracking::{
    CrossingChoice, CrossingTrails, PICK_UP_WITHIN_IN, PepperOutcome, SCENT_TRACEABLE_BELOW_MOVES,
    SIGHT_TRACEABLE_DAYS, ScentConditions, SearchAgain, SightConditions, TrackerMove, TrackingSettings,
    WATER_LOSS_WITHIN_IN, Weather, crossing_choice, enter_pepper, guessed_heading_deg, resolve_pepper_move,
    resolve_scent_tracking, resolve_sight_pick_up, resolve_sight_tracking, scent_at_crossing, search_point_allowed,
    sight_at_crossing,
};
use crate::scene::trails::MAX_TRAIL_POINTS;
use crate::scene::{self, Material, Scene, Shape, TrackerMode, TrackerSense, TrackerState};
use bevy::prelude::*;
use std::collections::VecDeque;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TrailRules>();
    app.init_resource::<TrailsLaid>();
    app.init_resource::<TrailsScene>().init_resource::<LaysTrails>();
    app.add_systems(Move, (record_trails, track).chain().in_set(MoveSystems::Trails).run_if(lays_or_tracks));
}

/// Whether the scene lays trails or a figure tracks: what `record_trails` and `track` look at
/// first, asked once a move before their many parameters are fetched.
fn lays_or_tracks(lays: Res<LaysTrails>, trackers: Query<(), With<Tracker>>) -> bool {
    lays.0 || !trackers.is_empty()
}

/// How near its quarry a tracker must end a move to have caught up, in inches.
pub const CAUGHT_UP_WITHIN_IN: f32 = 1.0;
/// Step, in inches, at which a path is searched for water and for a search point.
const SAMPLE_STEP_IN: f32 = 0.25;
/// Two points nearer than this are one place on a trail, inches.
const SAME_PLACE_IN: f32 = 0.01;

/// The scene's `rules.tracking` house rules.
#[derive(Resource, Debug, Clone, Default)]
pub struct TrailRules(pub TrackingSettings);

/// The parts of the trails section that do not change in play: the draughts of pepper, the
/// counter-scent areas, the weather and its changes, whether herds leave trails.
#[derive(Resource, Debug, Clone, Default)]
pub struct TrailsScene(pub scene::TrailsSection);

/// One point of a trail in play: where, and the move the quarry passed it (before the scene's
/// first move for a trail laid in the file: `moves_played − age_moves`, which may be negative).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LaidPoint {
    /// Where, in table inches.
    pub at: Vec2,
    /// The move the quarry passed.
    pub laid_at: i64,
}

/// A trail in play.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveTrail {
    /// Its name, unique among trails.
    pub name: String,
    /// Who left it.
    pub quarry: String,
    /// The points, oldest first.
    pub points: VecDeque<LaidPoint>,
}

/// Whether the scene lays trails: only one with a trail or a tracker does (nothing else reads
/// them, and a crowd's saves would carry a day of footprints).
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct LaysTrails(pub bool);

/// Every trail on the table, in the scene's order, then in the order laid.
#[derive(Resource, Debug, Clone, Default)]
pub struct TrailsLaid(pub Vec<LiveTrail>);

/// A point's age in moves at move `now` (0 for a point laid later, which cannot happen).
pub fn age_at(p: &LaidPoint, now: u32) -> u32 {
    (i64::from(now) - p.laid_at).clamp(0, i64::from(u32::MAX)) as u32
}

/// A figure that tracks: its quarry, its sense and where it stands with the trail.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Tracker {
    /// The quarry whose trail it follows.
    pub quarry: String,
    /// By sight or by scent, with the level.
    pub sense: TrackerSense,
    /// Mode, last reading, pepper met, with its quarry.
    pub state: TrackerState,
}

/// Put the scene's trails in the world and make its trackers' figures trackers.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    world.insert_resource(TrailRules(scene.rules.tracking.clone()));
    let now = i64::from(scene.clock.moves_played);
    let trails = scene
        .trails
        .trails
        .iter()
        .map(|t| LiveTrail {
            name: t.name.clone(),
            quarry: t.quarry.clone(),
            points: t
                .points
                .iter()
                .map(|p| LaidPoint { at: vec2(p.at), laid_at: now - i64::from(p.age_moves) })
                .collect(),
        })
        .collect();
    world.insert_resource(LaysTrails(!scene.trails.trails.is_empty() || !scene.trails.trackers.is_empty()));
    world.insert_resource(TrailsLaid(trails));
    world.insert_resource(TrailsScene(scene::TrailsSection {
        trails: Vec::new(),
        trackers: Vec::new(),
        ..scene.trails.clone()
    }));
    let figures: Vec<(Entity, String)> = world
        .query_filtered::<(Entity, &Name), With<Figure>>()
        .iter(world)
        .map(|(e, n)| (e, n.as_str().to_string()))
        .collect();
    for t in &scene.trails.trackers {
        if let Some((e, _)) = figures.iter().find(|(_, n)| *n == t.figure) {
            world.entity_mut(*e).insert(Tracker { quarry: t.quarry.clone(), sense: t.sense, state: t.state.clone() });
        }
    }
}

/// The trails section as the world holds it now: trails laid so far with their ages at the
/// clock, and each tracker's quarry and state.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    let now = world.get_resource::<MoveClock>().map_or(0, |c| c.move_number);
    if let Some(laid) = world.get_resource::<TrailsLaid>() {
        scene.trails.trails = laid
            .0
            .iter()
            .filter(|t| !t.points.is_empty())
            .map(|t| scene::SceneTrail {
                name: t.name.clone(),
                quarry: t.quarry.clone(),
                points: t
                    .points
                    .iter()
                    .map(|p| scene::TrailPoint { at: point(p.at), age_moves: age_at(p, now) })
                    .collect(),
            })
            .collect();
    }
    let mut trackers: Vec<(SceneOrder, String, Tracker)> = world
        .query::<(&SceneOrder, &Name, &Tracker)>()
        .iter(world)
        .map(|(o, n, t)| (*o, n.as_str().to_string(), t.clone()))
        .collect();
    trackers.sort_by_key(|(o, _, _)| *o);
    // Trackers keep the file's order (their figures' order is the scene's too).
    for (_, name, t) in trackers {
        if let Some(fields) = scene.trails.trackers.iter_mut().find(|f| f.figure == name) {
            fields.quarry = t.quarry;
            fields.state = t.state;
        }
    }
}

/// How old a point may be and still be kept: the longest any tracker can read (three days by
/// sight, 120 moves by scent).
pub fn horizon_moves(moves_per_day: u32) -> u32 {
    SIGHT_TRACEABLE_DAYS.saturating_mul(moves_per_day).max(SCENT_TRACEABLE_BELOW_MOVES)
}

/// The oldest a point may be, in moves, for a tracker of `sense` to read it: three days by
/// sight, under 120 moves by scent.
pub fn readable_moves(sense: TrackerSense, moves_per_day: u32) -> u32 {
    match sense {
        TrackerSense::Sight { .. } => SIGHT_TRACEABLE_DAYS.saturating_mul(moves_per_day),
        TrackerSense::Scent { .. } => SCENT_TRACEABLE_BELOW_MOVES - 1,
    }
}

/// Add a walked path to `quarry`'s trail (the last trail whose quarry it is, else a new one).
/// A path of no length lays nothing.
fn lay(trails: &mut Vec<LiveTrail>, quarry: &str, segments: &[(Vec2, Vec2)], now: u32) {
    if segments.iter().all(|(a, b)| a.distance(*b) <= SAME_PLACE_IN) {
        return;
    }
    lay_points(trails, quarry, segments.iter().flat_map(|&(a, b)| [a, b]), now);
}

/// Add points to `quarry`'s trail (the last trail whose quarry it is, else a new one, unless
/// the scene holds [`MAX_TRAILS`](crate::scene::trails::MAX_TRAILS) already), each with the move
/// `now`; a point where the trail already ends is not repeated.
fn lay_points(trails: &mut Vec<LiveTrail>, quarry: &str, points: impl IntoIterator<Item = Vec2>, now: u32) {
    let i = match trails.iter().rposition(|t| t.quarry == quarry) {
        Some(i) => i,
        None => {
            if trails.len() >= crate::scene::trails::MAX_TRAILS {
                return;
            }
            let mut name = format!("{quarry} trail");
            let mut n = 2;
            while trails.iter().any(|t| t.name == name) {
                name = format!("{quarry} trail {n}");
                n += 1;
            }
            trails.push(LiveTrail { name, quarry: quarry.to_string(), points: VecDeque::new() });
            trails.len() - 1
        }
    };
    let trail = &mut trails[i];
    let laid_at = i64::from(now);
    for p in points {
        if trail.points.back().is_none_or(|last| last.at.distance(p) > SAME_PLACE_IN) {
            trail.points.push_back(LaidPoint { at: p, laid_at });
        }
    }
    while trail.points.len() > MAX_TRAIL_POINTS {
        trail.points.pop_front();
    }
}

/// 000 "Tracking": "Trails are traceable for up to three days": each figure's path this move
/// goes on its trail; points no tracker can read any more are dropped.
fn record_trails(
    figures: Query<(&SceneOrder, &Name, &Swept), With<Figure>>,
    herds: Query<(&SceneOrder, &Herd, &Beasts)>,
    (scene, lays): (Res<TrailsScene>, Res<LaysTrails>),
    loaded: Option<Res<super::world::LoadedScene>>,
    clock: Res<MoveClock>,
    mut laid: ResMut<TrailsLaid>,
) {
    // docs/tracking.md "In a scene": a scene with no trails and no trackers lays none.
    if !lays.0 {
        return;
    }
    let now = clock.move_number;
    for (_, name, swept) in in_scene_order(figures.iter(), |item| *item.0) {
        lay(&mut laid.0, name.as_str(), &swept.segments, now);
    }
    if scene.0.beasts_leave_trails {
        for (_, herd, beasts) in in_scene_order(herds.iter(), |item| *item.0) {
            // One trail a herd, along its centre (docs/tracking.md "In a scene").
            lay_points(&mut laid.0, &herd.0.name, [beasts.centroid()], now);
        }
    }
    let moves_per_day = loaded.map_or(480, |l| l.0.rules.moves_per_day);
    let horizon = horizon_moves(moves_per_day);
    for t in &mut laid.0 {
        while t.points.front().is_some_and(|p| age_at(p, now) > horizon) {
            t.points.pop_front();
        }
    }
    laid.0.retain(|t| !t.points.is_empty());
}

/// Distance from `p` to a shape (0 inside it).
pub fn shape_distance(shape: &Shape, p: Vec2) -> f32 {
    if shape.contains((p.x, p.y)) {
        return 0.0;
    }
    match shape {
        Shape::Rect { min, max } => {
            let dx = (min.0 - p.x).max(p.x - max.0).max(0.0);
            let dy = (min.1 - p.y).max(p.y - max.1).max(0.0);
            (dx * dx + dy * dy).sqrt()
        }
        Shape::Circle { center, radius } => (vec2(*center).distance(p) - radius).max(0.0),
        Shape::Polygon { points } => {
            let n = points.len();
            (0..n)
                .map(|i| point_segment_distance(p, vec2(points[i]), vec2(points[(i + 1) % n])))
                .fold(f32::INFINITY, f32::min)
        }
    }
}

/// Inches from `p` to the nearest water region (the scent's "water obstacles"); `None` when the
/// table has no water.
pub fn water_distance(terrain: &Terrain, p: Vec2) -> Option<f32> {
    terrain.0.iter().filter(|r| r.material == Material::Water).map(|r| shape_distance(&r.shape, p)).reduce(f32::min)
}

/// Where a tracker stands against a trail: the nearest segment.
#[derive(Debug, Clone, Copy)]
struct OnTrail {
    /// Which trail (index in [`TrailsLaid`]).
    trail: usize,
    /// The point ahead: the segment's end (index in the trail).
    ahead: usize,
    /// The nearest point of the segment.
    at: Vec2,
    /// How far the tracker is from it.
    distance: f32,
    /// The age of the point ahead.
    age: u32,
}

/// The nearest point of `quarry`'s trails to `p`, on segments whose point ahead is at most
/// `readable` moves old; failing any, on any segment (so a trail too old is read as too old).
fn nearest_on(trails: &[LiveTrail], quarry: &str, p: Vec2, now: u32, readable: u32) -> Option<OnTrail> {
    let mut best: Option<OnTrail> = None;
    let mut best_any: Option<OnTrail> = None;
    for (ti, t) in trails.iter().enumerate().filter(|(_, t)| t.quarry == quarry) {
        for ahead in 0..t.points.len() {
            let b = t.points[ahead].at;
            let a = if ahead == 0 { b } else { t.points[ahead - 1].at };
            let at = nearest_on_segment(p, a, b);
            let on = OnTrail { trail: ti, ahead, at, distance: at.distance(p), age: age_at(&t.points[ahead], now) };
            if best_any.is_none_or(|x| on.distance < x.distance) {
                best_any = Some(on);
            }
            if on.age <= readable && best.is_none_or(|x| on.distance < x.distance) {
                best = Some(on);
            }
        }
    }
    best.or(best_any)
}

fn nearest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= f32::EPSILON {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
}

/// The trail on from `on`: its nearest point, then the points ahead.
fn ahead_of(trails: &[LiveTrail], on: &OnTrail) -> VecDeque<Vec2> {
    let mut out = VecDeque::from([on.at]);
    out.extend(trails[on.trail].points.iter().skip(on.ahead).map(|p| p.at));
    out
}

/// The trail back from `on`: its nearest point, then the points behind, newest first.
fn behind_of(trails: &[LiveTrail], on: &OnTrail) -> VecDeque<Vec2> {
    let mut out = VecDeque::from([on.at]);
    out.extend(trails[on.trail].points.iter().take(on.ahead).rev().map(|p| p.at));
    out
}

/// The heading of the trail at `on`, degrees counter-clockwise from +x (0 on a one-point trail).
fn trail_heading_deg(trails: &[LiveTrail], on: &OnTrail) -> f32 {
    let points = &trails[on.trail].points;
    if on.ahead == 0 || on.ahead >= points.len() {
        return 0.0;
    }
    let d = points[on.ahead].at - points[on.ahead - 1].at;
    if d.length_squared() <= f32::EPSILON { 0.0 } else { d.to_angle().to_degrees() }
}

/// Points along a polyline every [`SAMPLE_STEP_IN`], with the inches walked to each.
fn samples(path: &[(Vec2, Vec2)]) -> Vec<(Vec2, f32)> {
    let mut out = Vec::new();
    let mut walked = 0.0f32;
    for &(a, b) in path {
        let len = a.distance(b);
        let steps = (len / SAMPLE_STEP_IN).ceil().max(1.0) as usize;
        for k in 0..=steps {
            let t = k as f32 / steps as f32;
            out.push((a + (b - a) * t, walked + len * t));
        }
        walked += len;
    }
    out
}

/// Cut `segments` at `walked` inches along them.
fn cut_at(segments: &mut Vec<(Vec2, Vec2)>, walked: f32) {
    let mut start = 0.0f32;
    for i in 0..segments.len() {
        let (a, b) = segments[i];
        let len = a.distance(b);
        if walked <= start + len {
            let at = if len > 0.0 { a + (b - a) * ((walked - start) / len).clamp(0.0, 1.0) } else { a };
            segments.truncate(i + 1);
            segments[i].1 = at;
            return;
        }
        start += len;
    }
}

/// A path as segments from `from` through `waypoints`.
fn as_segments(from: Vec2, waypoints: &VecDeque<Vec2>) -> Vec<(Vec2, Vec2)> {
    let mut at = from;
    let mut out = Vec::new();
    for &p in waypoints {
        out.push((at, p));
        at = p;
    }
    out
}

#[allow(clippy::too_many_arguments)]
/// Where the search starts again (`tracking.search_again`): the first point of the trail on
/// from the loss point at least `at_least_in` from it and more than 1" from water; or a point
/// that far in a direction from the dice, kept on the table.
fn search_point(
    trails: &[LiveTrail],
    on: &OnTrail,
    loss: Vec2,
    at_least_in: f32,
    settings: &TrackingSettings,
    terrain: &Terrain,
    table: Vec2,
    dice: &mut SimDice,
) -> Option<Vec2> {
    match settings.search_again {
        SearchAgain::AheadOnTrail => {
            let path = as_segments(on.at, &ahead_of(trails, on));
            samples(&path)
                .into_iter()
                .map(|(p, _)| p)
                .find(|&p| search_point_allowed(p.distance(loss), water_distance(terrain, p), settings))
        }
        SearchAgain::RandomCast => {
            let heading = (dice.below(360) as f32).to_radians();
            Some((loss + Vec2::from_angle(heading) * at_least_in).clamp(Vec2::ZERO, table.max(Vec2::ZERO)))
        }
    }
}

/// What a tracker does this move, after any roll.
struct Step {
    /// Waypoints to walk this move (empty: it stays).
    waypoints: VecDeque<Vec2>,
    /// Inches it may walk.
    budget: f32,
    /// A scent tracker stops where the scent meets water.
    stop_at_water: bool,
}

impl Step {
    fn stay() -> Self {
        Step { waypoints: VecDeque::new(), budget: 0.0, stop_at_water: false }
    }

    fn to(waypoints: VecDeque<Vec2>, budget: f32) -> Self {
        Step { waypoints, budget, stop_at_water: false }
    }
}

/// Everything a tracker reads the trail with, this move.
struct Reading<'a> {
    moves_per_day: u32,
    weather: Weather,
    settings: &'a TrackingSettings,
}

/// The sight or scent roll for a tracker at `at` on `on`, logged; the outcome's id and move.
#[allow(clippy::too_many_arguments)]
fn roll_tracking(
    name: &str,
    tracker: &Tracker,
    at: Vec2,
    on: &OnTrail,
    crossing: Option<&OnTrail>,
    picking_up: bool,
    normal_move: f32,
    r: &Reading,
    terrain: &Terrain,
    scene: &TrailsScene,
    (base, lights): (&SceneLighting, &Lights),
    cursed: Option<&super::magic::Cursed>,
    dice: &mut SimDice,
    log: &mut EventLog,
    clock: &MoveClock,
) -> (String, TrackerMove, bool) {
    let confused = crossing.is_some() && r.settings.crossing_trails == CrossingTrails::Confused;
    let (id, movement, follows, rolls, age, extra) = match tracker.sense {
        TrackerSense::Sight { level } => {
            let lighting = lighting_at(base.0, lights, at);
            let c = SightConditions { age_moves: on.age, moves_per_day: r.moves_per_day, weather: r.weather, lighting };
            let mut t = if picking_up {
                resolve_sight_pick_up(level, &c, on.distance, r.settings, &mut *dice)
            } else {
                resolve_sight_tracking(level, &c, &mut *dice)
            };
            // 001 "Lay an evil eye Curse": a cursed tracker's −1, the row read again.
            if let Some(roll) = t.roll.as_mut()
                && super::magic::evil_eye_on(roll, cursed)
            {
                let total = roll.total;
                t.outcome = if picking_up {
                    crate::rules::tracking::pick_up_band(total, r.settings)
                } else {
                    crate::rules::tracking::sight_band(total)
                };
            }
            let outcome = if crossing.is_some() { sight_at_crossing(t.outcome, r.settings) } else { t.outcome };
            let extra = LogEvent::new("tracking", "sight_tracking", name)
                .outcome(outcome)
                .field("lighting", lighting)
                .field("picking_up", picking_up);
            (
                outcome.id(),
                outcome.movement(normal_move, r.settings),
                outcome.follows(),
                t.rolls(),
                t.age.map(|a| a.id()),
                extra,
            )
        }
        TrackerSense::Scent { level } => {
            let counter: Vec<i32> =
                scene.0.counter_scents.iter().filter(|a| a.area.contains((at.x, at.y))).map(|a| a.value).collect();
            let c = ScentConditions {
                age_moves: on.age,
                weather: r.weather,
                counter_scents: counter.clone(),
                distance_to_water_in: water_distance(terrain, at),
            };
            let mut t = resolve_scent_tracking(level, &c, &mut *dice);
            // The evil eye: a tracking animal is a figure too, cursed only if the scene says so.
            if let Some(roll) = t.roll.as_mut()
                && super::magic::evil_eye_on(roll, cursed)
            {
                t.outcome = crate::rules::tracking::scent_band(roll.total);
            }
            let outcome = if crossing.is_some() { scent_at_crossing(t.outcome, r.settings) } else { t.outcome };
            let extra = LogEvent::new("tracking", "scent_tracking", name)
                .outcome(outcome)
                .field("distance_to_water", c.distance_to_water_in.map(round_to_thousandths))
                .field("counter_scents", counter);
            (
                outcome.id(),
                outcome.movement(normal_move, r.settings),
                outcome.follows(),
                t.rolls(),
                t.age.map(|a| a.id()),
                extra,
            )
        }
    };
    let mut e = extra
        .field("quarry", &tracker.quarry)
        .field("level", tracker.sense.level())
        .field("age_moves", on.age)
        .field("age", age)
        .field("distance_to_trail", round_to_thousandths(on.distance))
        .field("weather", r.weather)
        .field("normal_move", round_to_thousandths(normal_move))
        .field("result", movement);
    if confused {
        e = e.house_rule("tracking.crossing_trails");
    }
    if picking_up && matches!(tracker.sense, TrackerSense::Sight { .. }) {
        e = e.house_rule("tracking.pick_up_at_least");
    }
    for roll in rolls {
        e = e.roll(roll);
    }
    log.push(clock, e);
    (id.to_string(), movement, follows)
}

/// 000 "Tracking", "Scent Tracking", "Pepper trap": each tracker reads its quarry's trail, dices
/// and moves; tracking animals meet the pepper.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn track(
    mut figures: Query<(
        &SceneOrder,
        &Name,
        &Figure,
        &Conditions,
        &mut TablePosition,
        &mut Facing,
        &Waypoints,
        &mut Swept,
        Option<&mut Tracker>,
        Option<&super::magic::Cursed>,
    )>,
    herds: Query<(&Herd, &Beasts)>,
    mut laid: ResMut<TrailsLaid>,
    (scene, rules, loaded): (Res<TrailsScene>, Res<TrailRules>, Option<Res<super::world::LoadedScene>>),
    (terrain, walls, table): (Res<Terrain>, Res<Walls>, Res<TableSize>),
    (lighting, lights, sight): (Res<SceneLighting>, Res<Lights>, Option<Res<super::sight::SceneSight>>),
    clock: Res<MoveClock>,
    mut dice: ResMut<SimDice>,
    mut log: ResMut<EventLog>,
    mut noises: MessageWriter<NoiseMade>,
) {
    if !figures.iter().any(|f| f.8.is_some()) {
        return;
    }
    let settings = &rules.0;
    let now = clock.move_number;
    let moves_per_day = loaded.map_or(480, |l| l.0.rules.moves_per_day);
    let reading = Reading { moves_per_day, weather: scene.0.weather_at(now), settings };
    // Where every quarry stands now (figures, then herds' centres), before any tracker moves.
    let mut standing: Vec<(String, Vec2)> = figures.iter().map(|f| (f.1.as_str().to_string(), f.4.0)).collect();
    standing.extend(herds.iter().map(|(h, b)| (h.0.name.clone(), b.centroid())));
    let sorted = in_scene_order(figures.iter_mut(), |item| *item.0);
    for (_, name, figure, conditions, mut position, mut facing, waypoints, mut swept, tracker, cursed) in sorted {
        let Some(mut tracker) = tracker else { continue };
        // The GM's waypoints come first; an immobile condition holds it.
        if !waypoints.0.is_empty() || conditions.0.iter().any(|c| c.immobile) {
            continue;
        }
        let name = name.as_str();
        let from = position.0;
        let normal_move = allowance_for(figure, from, conditions, &terrain).inches;
        let readable = readable_moves(tracker.sense, moves_per_day);
        let mut step = Step::stay();
        // Whether it reads the trail this move: not while guessing or on its way to search.
        let mut reads = true;
        let mode = tracker.state.mode.clone();
        match mode {
            TrackerMode::GaveUp => continue,
            TrackerMode::Sneezing { draught } => {
                let m = resolve_pepper_move(settings, &mut *dice);
                let mut e = ev("pepper", name, &tracker.quarry).outcome(m.outcome).field("draught", &draught);
                for roll in m.rolls() {
                    e = e.roll(roll);
                }
                if m.sneeze.is_some() {
                    e = e.house_rule("tracking.sneezes_each_move");
                }
                log.push(&clock, e);
                if let Some(s) = m.sneeze {
                    let noise = NoiseMade {
                        source: name.to_string(),
                        position: from,
                        noise: s.noise,
                        heard_to: Some(s.heard_to_in),
                        round: 1,
                    };
                    make_house_rule_noise(&mut noises, &mut log, &clock, noise, "tracking.sneeze_noise");
                }
                tracker.state.reading = Some(m.outcome.id().to_string());
                if m.outcome != PepperOutcome::RestartsTracking {
                    continue;
                }
                tracker.state.mode = TrackerMode::Following;
            }
            TrackerMode::Guessing { from: start, heading_deg } => {
                let to = from + Vec2::from_angle(heading_deg.to_radians()) * crate::rules::tracking::GUESS_MOVE_IN;
                let to = to.clamp(Vec2::ZERO, table.0.max(Vec2::ZERO));
                log.push(
                    &clock,
                    ev("guessed_move", name, &tracker.quarry)
                        .outcome(TrackingEventOutcome::Guessed)
                        .field("heading_deg", round_to_thousandths(heading_deg))
                        .field("to", point_to_thousandths(to))
                        .house_rule("tracking.guessed_direction")
                        .house_rule("tracking.uncertain_move"),
                );
                tracker.state.mode = TrackerMode::PickingUp { from: start };
                step = Step::to(VecDeque::from([to]), crate::rules::tracking::GUESS_MOVE_IN);
                reads = false;
            }
            TrackerMode::Searching { at } => {
                step = Step::to(VecDeque::from([vec2(at)]), normal_move);
                reads = false;
            }
            TrackerMode::Following | TrackerMode::PickingUp { .. } => {}
        }
        let searching = matches!(tracker.state.mode, TrackerMode::Searching { .. });
        if reads {
            let quarry = tracker.quarry.clone();
            let Some(on) = nearest_on(&laid.0, &quarry, from, now, readable) else {
                // No trail of the quarry yet: nothing to read.
                continue;
            };
            let picking_up = matches!(tracker.state.mode, TrackerMode::PickingUp { .. });
            if !picking_up && on.distance > PICK_UP_WITHIN_IN {
                // Off the trail: it goes to it first (the GM puts it on the trail), no roll.
                log.push(
                    &clock,
                    ev("cast_to_trail", name, &tracker.quarry)
                        .outcome(TrackingEventOutcome::CastToTrail)
                        .field("distance_to_trail", round_to_thousandths(on.distance)),
                );
                step = Step::to(VecDeque::from([on.at]), normal_move);
            } else if matches!(tracker.sense, TrackerSense::Sight { .. })
                && sight
                    .as_ref()
                    .is_some_and(|s| !s.visible(from, on.at, super::world::sight_at(lighting.0, &lights, on.at)))
            {
                // Issue #17: a sight tracker reads the trail only where he sees it (a wall or a
                // closed door between, or beyond the sight the light there gives): he stays.
                log.push(
                    &clock,
                    ev("trail_not_in_sight", name, &tracker.quarry)
                        .outcome(TrackingEventOutcome::NotInSight)
                        .field("at", point_to_thousandths(on.at))
                        .field("distance_to_trail", round_to_thousandths(on.distance)),
                );
            } else {
                // Another quarry's trail within 1" (tracking.crossing_trails).
                let crossing = if settings.crossing_trails == CrossingTrails::Ignored {
                    None
                } else {
                    laid.0
                        .iter()
                        .filter(|t| t.quarry != quarry)
                        .filter_map(|t| nearest_on(&laid.0, &t.quarry, from, now, readable))
                        .filter(|o| o.distance <= PICK_UP_WITHIN_IN && o.age <= readable)
                        .min_by(|a, b| a.distance.total_cmp(&b.distance))
                };
                if let Some(other) = crossing
                    && crossing_choice(on.age, other.age, settings) == CrossingChoice::SwitchesTrail
                {
                    let to = laid.0[other.trail].quarry.clone();
                    log.push(
                        &clock,
                        ev("switched_trail", name, &tracker.quarry)
                            .outcome(TrackingEventOutcome::Switched)
                            .field("to", &to)
                            .field("age_moves", on.age)
                            .field("other_age_moves", other.age)
                            .house_rule("tracking.crossing_trails"),
                    );
                    tracker.quarry = to;
                }
                let on = if tracker.quarry == quarry { on } else { crossing.unwrap_or(on) };
                let was_lost = tracker.state.reading.as_deref().is_some_and(is_loss);
                let (id, movement, follows) = roll_tracking(
                    name,
                    &tracker,
                    from,
                    &on,
                    crossing.as_ref().filter(|_| tracker.quarry == quarry),
                    picking_up,
                    normal_move,
                    &reading,
                    &terrain,
                    &scene,
                    (&*lighting, &*lights),
                    cursed,
                    &mut dice,
                    &mut log,
                    &clock,
                );
                if follows && (was_lost || picking_up) {
                    log.push(&clock, ev("trail_found", name, &tracker.quarry).outcome(TrackingEventOutcome::Found));
                }
                let back_to = match &tracker.state.mode {
                    TrackerMode::PickingUp { from } => Some(vec2(*from)),
                    _ => None,
                };
                tracker.state.mode = TrackerMode::Following;
                tracker.state.reading = Some(id.clone());
                match movement {
                    TrackerMove::Follow { inches } => {
                        step = Step::to(ahead_of(&laid.0, &on), inches);
                        step.stop_at_water = tracker.sense.is_scent();
                    }
                    TrackerMove::Halt => {}
                    TrackerMove::GuessNextMove { .. } => {
                        let heading = guessed_heading_deg(trail_heading_deg(&laid.0, &on), settings, &mut *dice);
                        tracker.state.mode = TrackerMode::Guessing { from: point(from), heading_deg: heading };
                    }
                    TrackerMove::Guess { inches } => {
                        let heading = guessed_heading_deg(trail_heading_deg(&laid.0, &on), settings, &mut *dice);
                        let to = (from + Vec2::from_angle(heading.to_radians()) * inches)
                            .clamp(Vec2::ZERO, table.0.max(Vec2::ZERO));
                        log.push(
                            &clock,
                            ev("guessed_move", name, &tracker.quarry)
                                .outcome(TrackingEventOutcome::Guessed)
                                .field("heading_deg", round_to_thousandths(heading))
                                .field("to", point_to_thousandths(to))
                                .house_rule("tracking.guessed_direction")
                                .house_rule("tracking.uncertain_move"),
                        );
                        tracker.state.mode = TrackerMode::PickingUp { from: point(from) };
                        step = Step::to(VecDeque::from([to]), inches);
                    }
                    TrackerMove::Backtrack { inches } => {
                        let lost = ev("trail_lost", name, &tracker.quarry).outcome(TrackingEventOutcome::Lost);
                        log.push(&clock, lost.field("result", &id));
                        // Back the way he came: to where he guessed from, else back along the trail.
                        let way = match back_to {
                            Some(p) => VecDeque::from([p]),
                            None => behind_of(&laid.0, &on),
                        };
                        log.push(
                            &clock,
                            ev("backtracked", name, &tracker.quarry)
                                .outcome(TrackingEventOutcome::Backtracked)
                                .field("inches", inches),
                        );
                        step = Step::to(way, inches);
                    }
                    TrackerMove::SearchAgain { at_least_in } => {
                        let lost = ev("trail_lost", name, &tracker.quarry).outcome(TrackingEventOutcome::Lost);
                        log.push(&clock, lost.field("result", &id));
                        let at = search_point(&laid.0, &on, from, at_least_in, settings, &terrain, table.0, &mut dice);
                        let mut e = ev("search", name, &tracker.quarry)
                            .house_rule("tracking.search_again")
                            .house_rule("tracking.search_again_in");
                        match at {
                            Some(at) => {
                                e = e.outcome(TrackingEventOutcome::Searching).field("at", point_to_thousandths(at));
                                tracker.state.mode = TrackerMode::Searching { at: point(at) };
                                step = Step::to(VecDeque::from([at]), normal_move);
                            }
                            None => e = e.outcome(TrackingEventOutcome::NoSearchPoint),
                        }
                        log.push(&clock, e);
                    }
                    TrackerMove::GiveUp => {
                        log.push(&clock, ev("gave_up", name, &tracker.quarry).outcome(TrackingEventOutcome::GaveUp));
                        tracker.state.mode = TrackerMode::GaveUp;
                    }
                }
            }
        }
        // Walk the step.
        let mut wps = step.waypoints;
        let (mut segments, _blocked) = walk(from, &mut wps, step.budget.max(0.0), &walls);
        if step.stop_at_water && water_distance(&terrain, from).is_none_or(|d| d > WATER_LOSS_WITHIN_IN) {
            // The scent is lost where it comes within 1" of water: the animal stops there.
            if let Some(&(_, walked)) = samples(&segments)
                .iter()
                .find(|(p, _)| water_distance(&terrain, *p).is_some_and(|d| d <= WATER_LOSS_WITHIN_IN))
            {
                cut_at(&mut segments, walked);
            }
        }
        // Pepper: a tracking animal whose path comes within a draught it has not met.
        if tracker.sense.is_scent() && !segments.is_empty() {
            let met = scene
                .0
                .pepper
                .iter()
                .filter(|d| !tracker.state.peppered_by.contains(&d.name))
                .filter_map(|d| {
                    let centre = vec2(d.at);
                    let (p, walked) = super::sleepers::nearest_along_path(centre, &segments)?;
                    (p.distance(centre) <= d.radius(settings)).then_some((walked, d))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((walked, draught)) = met {
                cut_at(&mut segments, walked);
                let entered = enter_pepper(settings);
                let mut e =
                    ev("pepper", name, &tracker.quarry).outcome(entered.outcome).field("draught", &draught.name);
                if draught.radius_is_house_rule() {
                    e = e.house_rule("tracking.pepper_radius_in");
                }
                log.push(&clock, e);
                let at = segments.last().map_or(from, |s| s.1);
                let fraction = if step.budget > 0.0 { walked / step.budget } else { 0.0 };
                let noise = NoiseMade {
                    source: name.to_string(),
                    position: at,
                    noise: entered.sneeze.noise,
                    heard_to: Some(entered.sneeze.heard_to_in),
                    round: round_in_move(fraction, clock.rounds_per_move),
                };
                make_house_rule_noise(&mut noises, &mut log, &clock, noise, "tracking.sneeze_noise");
                tracker.state.peppered_by.push(draught.name.clone());
                tracker.state.mode = TrackerMode::Sneezing { draught: draught.name.clone() };
                tracker.state.reading = Some(entered.outcome.id().to_string());
            }
        }
        if let Some(&(a, b)) = segments.last() {
            position.0 = b;
            if a != b {
                facing.0 = (b - a).to_angle().to_degrees();
            }
        }
        if let TrackerMode::Searching { at } = tracker.state.mode.clone() {
            let arrived = position.0.distance(vec2(at)) <= SAME_PLACE_IN;
            let outcome = if arrived { TrackingEventOutcome::AtSearchPoint } else { TrackingEventOutcome::Searching };
            // The move of the loss logged its search already.
            if searching {
                log.push(&clock, ev("search", name, &tracker.quarry).outcome(outcome).field("at", at));
            }
            if arrived {
                tracker.state.mode = TrackerMode::Following;
                // A random cast takes the scent up only within 1" of the trail: off it, the
                // animal casts again from where it stands (tracking.search_again).
                let off_trail = nearest_on(&laid.0, &tracker.quarry, position.0, now, readable)
                    .is_none_or(|on| on.distance > PICK_UP_WITHIN_IN);
                if settings.search_again == SearchAgain::RandomCast && off_trail {
                    let heading = (dice.below(360) as f32).to_radians();
                    let again = (position.0 + Vec2::from_angle(heading) * settings.search_distance_in())
                        .clamp(Vec2::ZERO, table.0.max(Vec2::ZERO));
                    log.push(
                        &clock,
                        ev("search", name, &tracker.quarry)
                            .outcome(TrackingEventOutcome::Searching)
                            .field("at", point_to_thousandths(again))
                            .house_rule("tracking.search_again")
                            .house_rule("tracking.search_again_in"),
                    );
                    tracker.state.mode = TrackerMode::Searching { at: point(again) };
                }
            }
        }
        swept.segments = segments;
        swept.speed = normal_move;
        swept.popped = 0;
        lay(&mut laid.0, name, &swept.segments, now);
        // Caught up: within 1" of its quarry at the end of its move.
        let quarry_at = standing.iter().find(|(n, _)| *n == tracker.quarry).map(|(_, p)| *p);
        let with = quarry_at.is_some_and(|q| q.distance(position.0) <= CAUGHT_UP_WITHIN_IN);
        if with && !tracker.state.with_quarry {
            log.push(
                &clock,
                ev("caught_up", name, &tracker.quarry)
                    .outcome(TrackingEventOutcome::CaughtUp)
                    .field("at", point_to_thousandths(position.0))
                    .field("distance", quarry_at.map(|q| round_to_thousandths(q.distance(position.0)))),
            );
        }
        tracker.state.with_quarry = with;
    }
}

/// A tracking event about the tracker `name` following `quarry`.
fn ev(event: &'static str, name: &str, quarry: &str) -> LogEvent {
    LogEvent::new("tracking", event, name).field("quarry", quarry)
}

/// Whether a reading is a loss of the trail (after which following again is `trail_found`).
fn is_loss(id: &str) -> bool {
    matches!(id, "lost" | "lost_at_water" | "off_trail" | "not_picked_up" | "restarts_tracking")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_distances() {
        let rect = Shape::Rect { min: (0.0, 0.0), max: (2.0, 2.0) };
        assert_eq!(shape_distance(&rect, Vec2::new(1.0, 1.0)), 0.0);
        assert!((shape_distance(&rect, Vec2::new(5.0, 6.0)) - 5.0).abs() < 1e-5);
        let disc = Shape::Circle { center: (0.0, 0.0), radius: 1.0 };
        assert!((shape_distance(&disc, Vec2::new(3.0, 0.0)) - 2.0).abs() < 1e-5);
        let tri = Shape::Polygon { points: vec![(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)] };
        assert!((shape_distance(&tri, Vec2::new(2.0, -1.0)) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn laying_appends_and_caps() {
        let mut trails = Vec::new();
        lay(&mut trails, "Ann", &[(Vec2::ZERO, Vec2::new(1.0, 0.0)), (Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0))], 3);
        assert_eq!(trails.len(), 1);
        assert_eq!(trails[0].name, "Ann trail");
        let at: Vec<Vec2> = trails[0].points.iter().map(|p| p.at).collect();
        assert_eq!(at, vec![Vec2::ZERO, Vec2::new(1.0, 0.0), Vec2::new(1.0, 1.0)]);
        assert!(trails[0].points.iter().all(|p| p.laid_at == 3));
        // Standing still lays nothing.
        lay(&mut trails, "Ann", &[(Vec2::new(1.0, 1.0), Vec2::new(1.0, 1.0))], 4);
        assert_eq!(trails[0].points.len(), 3);
        assert_eq!(age_at(&trails[0].points[0], 10), 7);
    }

    #[test]
    fn the_horizon_is_the_longest_readable_age() {
        assert_eq!(horizon_moves(480), 1440);
        assert_eq!(horizon_moves(10), 120);
        assert_eq!(readable_moves(TrackerSense::Sight { level: 2 }, 480), 1440);
        assert_eq!(readable_moves(TrackerSense::Scent { level: 2 }, 480), 119);
    }
}
