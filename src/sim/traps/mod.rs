//! Traps on the table (Traps set): every figure's swept path this move is checked against
//! every trap, and what the paths meet is resolved in the order it happens along the move.
//!
//! A figure whose path comes within 2" of a hidden Morval trap rolls to spot it; a path that
//! enters a trap's area springs it (a runner who crosses a cord without stopping springs it);
//! a lifter goes off, and Set Trap is tried, where a path ends (a door or trapdoor lifter where
//! the path passes through the door, entering its area). A trap that stops a figure
//! (a fall, a pit, a loop) cuts its move short there and puts back the waypoints it had not
//! reached. The rules are `rules::morval_traps` and `rules::khemri_traps`; the choices made
//! here are in docs/traps.md.

mod khemri;
mod morval;

use super::clock::{MoveClock, SimDice};
use super::geometry::{
    SegmentGrid, first_in_disc, first_in_rounded_square, first_within_convex, heading_along_path, point_along_path,
    point_disc_distance, point_segment_distance, point_square_distance,
};
use super::log::{EventLog, LogEvent, point_to_thousandths};
use super::noise::{NoiseMade, make_noise};
use super::world::{
    Conditions, Facing, Figure, Lights, LoadedScene, SceneLighting, SceneOrder, Swept, TablePosition, TableSize,
    Terrain, Walls, Waypoints, lighting_at, placed_bundle, sight_at, sorted, vec2,
};
use super::{Move, MoveSystems};
use crate::rules::character::Traits;
use crate::rules::dice::Roll;
use crate::rules::lighting::Lighting;
use crate::rules::morval_traps::SpotChecks;
use crate::scene::traps::TrapSettings;
use crate::scene::{self, Scene};
use bevy::ecs::message::Messages;
use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use std::collections::VecDeque;

pub use khemri::KhemriCounter;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<TrapFlame>();
    app.add_systems(Move, resolve_traps.in_set(MoveSystems::Traps));
}

/// A trap as the scene gives it, with its state in play (armed, revealed, recharge).
#[derive(Component, Debug, Clone)]
pub struct Trap(pub scene::Trap);

/// Wounds left on a figure with a Mordheim profile (Khemri trap hits take them off).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wounds(pub i32);

/// A trap's flame went off: a Morval treadle or lifter with a `flame` payload, or a Khemri
/// Fire Trap. The fire rules read it to start a fire at `position`, `diameter` across.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct TrapFlame {
    /// The trap's scene name.
    pub trap: String,
    /// Where the flame bursts out.
    pub position: Vec2,
    /// Across, in inches: the trap's area.
    pub diameter: f32,
    /// Figures the flame set on fire (Khemri "counts as being on fire"), by scene name.
    pub figures_on_fire: Vec<String>,
    /// Which trap made it: a Khemri Fire Trap lights the ground only with the house rule
    /// `khemri.fire_trap_ignites_ground`.
    pub source: FlameSource,
}

/// Where a [`TrapFlame`] came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlameSource {
    /// A Morval treadle or lifter with a `flame` payload ("gout of flame").
    MorvalPayload,
    /// A Khemri Fire Trap: 002 burns the models, and says nothing of the ground.
    KhemriFireTrap,
}

/// Spawn the scene's traps, deal the Khemri counters drawn face down, and give figures with a
/// Mordheim profile their wounds.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    let figures: Vec<(Entity, SceneOrder)> =
        world.query_filtered::<(Entity, &SceneOrder), With<Figure>>().iter(world).map(|(e, o)| (e, *o)).collect();
    for (entity, order) in figures {
        if let Some(profile) = scene.figures.get(order.0 as usize).and_then(|f| f.mordheim) {
            world.entity_mut(entity).insert(Wounds(i32::from(profile.w)));
        }
    }
    let seed = world.get_resource::<SimDice>().map_or(scene.seed, |d| d.seed);
    let counters = khemri::deal(world, scene, seed);
    for (i, t) in scene.traps.iter().enumerate() {
        // Spawned whole: a counter inserted after the spawn moved the trap to another table.
        let trap = (placed_bundle(i as u32, &t.name, t.position), Trap(t.clone()));
        match counters.get(&i) {
            Some(counter) => world.spawn((trap, counter.clone())),
            None => world.spawn(trap),
        };
    }
}

/// The disc (centre, radius) figures walk round for a trap, if they walk round it (house
/// rules, docs/traps.md "Open and revealed traps"): an open pit (a Morval pit once sprung, a
/// spent Khemri pit with its depth) under `table.open_pit: avoid`, or a revealed, armed Morval
/// trap whose kind is `avoid` under `table.revealed` (a loop: the circle round its square inch;
/// a cord cannot be gone round and is stepped over).
pub fn avoided_disc(
    trap: &scene::Trap,
    counter: Option<&KhemriCounter>,
    position: Vec2,
    table: &crate::scene::traps::TableTrapSettings,
) -> Option<(Vec2, f32)> {
    use crate::scene::traps::{OpenPit, RevealedTrap};
    let open = match &trap.kind {
        scene::TrapKind::Pit { open, .. } => *open,
        scene::TrapKind::Khemri { .. } => counter.is_some_and(|c| c.in_play && khemri::open_pit_depth(c).is_some()),
        _ => false,
    };
    if open {
        return (table.open_pit == OpenPit::Avoid).then_some((position, trap.radius));
    }
    let kind = trap.kind.morval_kind()?;
    if !trap.armed || !trap.revealed || table.revealed.of(kind) != RevealedTrap::Avoid {
        return None;
    }
    match trap.kind {
        // A cord, or a door's line, cannot be gone round.
        scene::TrapKind::TripCord { .. } | scene::TrapKind::Lifter { door: Some(_), .. } => None,
        scene::TrapKind::Loop => Some((position, 0.5 * std::f32::consts::SQRT_2)),
        _ => Some((position, trap.radius)),
    }
}

/// Write the traps back into a scene, and the figures' wounds.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    let traps = sorted::<Trap>(world);
    scene.traps = traps
        .into_iter()
        .map(|(_, Trap(mut t), e)| {
            if let Some(counter) = world.entity(e).get::<KhemriCounter>() {
                counter.write_back(&mut t);
            }
            t
        })
        .collect();
    for (order, Wounds(w), _) in sorted::<Wounds>(world) {
        if let Some(profile) = scene.figures.get_mut(order.0 as usize).and_then(|f| f.mordheim.as_mut()) {
            profile.w = w.clamp(0, i32::from(u8::MAX)) as u8;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Geometry of a move

/// Inches within which a point counts as on a trap's edge.
const ON_EDGE: f32 = 1e-3;

/// The ground a trap covers.
#[derive(Debug, Clone, Copy)]
enum Area {
    Disc {
        centre: Vec2,
        radius: f32,
    },
    /// A loop: one square inch (000 "Loop Traps").
    Square {
        centre: Vec2,
        half: f32,
    },
    Cord {
        from: Vec2,
        to: Vec2,
    },
}

impl Area {
    fn distance(self, p: Vec2) -> f32 {
        match self {
            Area::Disc { centre, radius } => point_disc_distance(p, centre, radius),
            Area::Square { centre, half } => point_square_distance(p, centre, half),
            Area::Cord { from, to } => point_segment_distance(p, from, to),
        }
    }

    /// The point of the area a figure at `p` looks at to spot it (issue #17): a disc's or a
    /// square's centre, a cord's (or a door's line's) nearest point.
    fn looked_at_from(self, p: Vec2) -> Vec2 {
        match self {
            Area::Disc { centre, .. } | Area::Square { centre, .. } => centre,
            Area::Cord { from, to } => {
                let d = to - from;
                let len2 = d.length_squared();
                if len2 <= f32::EPSILON { from } else { from + d * ((p - from).dot(d) / len2).clamp(0.0, 1.0) }
            }
        }
    }

    /// A circle holding the whole area, for a quick reject.
    fn bounds(self) -> (Vec2, f32) {
        match self {
            Area::Disc { centre, radius } => (centre, radius),
            Area::Square { centre, half } => (centre, half * std::f32::consts::SQRT_2),
            Area::Cord { from, to } => ((from + to) / 2.0, from.distance(to) / 2.0),
        }
    }
}

/// Traps bucketed by a coarse grid over the ground they can be met from (their area, plus the
/// spotting range), so each figure is checked against the traps near its walk rather than
/// every trap on the table.
struct TrapIndex {
    origin: Vec2,
    cell: f32,
    columns: usize,
    rows: usize,
    buckets: Vec<Vec<usize>>,
}

impl TrapIndex {
    /// Most buckets: a huge table gets larger cells, not more memory.
    const MAX_BUCKETS: usize = 1 << 16;

    /// `reach[i]`: a circle (centre, radius) holding everywhere trap `i` can be met from.
    fn new(reach: &[(Vec2, f32)]) -> Self {
        let (mut min, mut max) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for &(c, r) in reach {
            min = min.min(c - Vec2::splat(r));
            max = max.max(c + Vec2::splat(r));
        }
        if reach.is_empty() || !(min.is_finite() && max.is_finite()) {
            return Self { origin: Vec2::ZERO, cell: 1.0, columns: 0, rows: 0, buckets: Vec::new() };
        }
        let span = (max - min).max(Vec2::splat(1.0));
        let mut cell = 4.0f32;
        while (span.x / cell).ceil() * (span.y / cell).ceil() > Self::MAX_BUCKETS as f32 {
            cell *= 2.0;
        }
        let (columns, rows) = ((span.x / cell).ceil() as usize + 1, (span.y / cell).ceil() as usize + 1);
        let mut index = Self { origin: min, cell, columns, rows, buckets: vec![Vec::new(); columns * rows] };
        for (i, &(c, r)) in reach.iter().enumerate() {
            let (x0, y0, x1, y1) = index.cells_over(c - Vec2::splat(r), c + Vec2::splat(r));
            for y in y0..=y1 {
                for x in x0..=x1 {
                    index.buckets[y * columns + x].push(i);
                }
            }
        }
        index
    }

    /// The cells (clamped to the grid) a box from `lo` to `hi` overlaps.
    fn cells_over(&self, lo: Vec2, hi: Vec2) -> (usize, usize, usize, usize) {
        // The cast truncates: the floor for what `max` leaves (no `floor` call).
        let to_cell = |v: f32, o: f32, n: usize| (((v - o) / self.cell).max(0.0) as usize).min(n - 1);
        (
            to_cell(lo.x, self.origin.x, self.columns),
            to_cell(lo.y, self.origin.y, self.rows),
            to_cell(hi.x, self.origin.x, self.columns),
            to_cell(hi.y, self.origin.y, self.rows),
        )
    }

    /// Traps that may be met from any of `segments`, in trap order, each once.
    fn near(&self, segments: &[(Vec2, Vec2)]) -> Vec<usize> {
        let mut out = Vec::new();
        if self.buckets.is_empty() {
            return out;
        }
        for &(a, b) in segments {
            let (x0, y0, x1, y1) = self.cells_over(a.min(b), a.max(b));
            for y in y0..=y1 {
                for x in x0..=x1 {
                    out.extend_from_slice(&self.buckets[y * self.columns + x]);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Where the figures may be during the pass, for "who is near here" questions: every point a
/// figure can be at some time of the move lies on its swept path (or is where it stood, if it
/// did not move), or is where a trap put it ([`Pass::halt`] keeps those in `Pass::placed`).
/// The paths are bucketed in a grid once; answers are supersets, in mover order, each once.
struct MoverIndex {
    grid: SegmentGrid,
    /// The mover each grid item belongs to; items are added mover by mover, so ascending items
    /// give ascending movers.
    owner: Vec<u32>,
}

impl MoverIndex {
    /// Smallest cell, in inches: the questions reach a few inches (2" nearby, 1" pit edges).
    const MIN_CELL: f32 = 2.0;

    fn new(movers: &[Mover]) -> Self {
        let mut items = Vec::new();
        let mut owner = Vec::new();
        for (i, m) in movers.iter().enumerate() {
            items.push((m.position, m.position, 0.0));
            owner.push(i as u32);
            for &(a, b) in m.segments {
                items.push((a, b, 0.0));
                owner.push(i as u32);
            }
        }
        Self { grid: SegmentGrid::new(&items, Self::MIN_CELL), owner }
    }

    /// The movers whose path comes within `reach` of the segment `a`–`b`, and every placed
    /// mover (a superset of the movers within `reach` of it at any time): ascending, each once.
    fn along(&self, a: Vec2, b: Vec2, reach: f32, placed: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> =
            self.grid.along(a, b, reach).into_iter().map(|i| self.owner[i as usize] as usize).collect();
        out.extend_from_slice(placed);
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The first distance along `a`–`b` at which `area` is within `range`. The distance from a
/// point moving on a line to a convex area is convex, so a ternary search finds its least
/// value and a bisection before it the first point in range.
fn first_within_on_segment(a: Vec2, b: Vec2, area: Area, range: f32) -> Option<f32> {
    // Discs and squares have exact answers: the segment's first entry into the area grown by
    // `range` (a disc; a square with rounded corners). Cords are searched.
    match area {
        Area::Disc { centre, radius } => return first_in_disc(a, b, centre, radius + range),
        Area::Square { centre, half } => return first_in_rounded_square(a, b, centre, half, range),
        Area::Cord { .. } => {}
    }
    first_within_by_search(a, b, area, range)
}

/// The first distance along `a`–`b` at which `area` is within `range`, by search (the
/// geometry's convex search, with the area's bounding circle and distance).
fn first_within_by_search(a: Vec2, b: Vec2, area: Area, range: f32) -> Option<f32> {
    first_within_convex(a, b, area.bounds(), |p| area.distance(p), range)
}

/// Most (trap, figure) pairs measured one by one for who ends a move within spotting range;
/// more, and the figures' ends are indexed first (building the index costs about as much as
/// measuring a few traps against every figure).
const MEASURED_WITHOUT_INDEX: usize = 1 << 14;

/// Sampling step, in inches, for finding where a path leaves and comes back into range.
const RANGE_STEP: f32 = 0.05;

/// Margin kept under the distance a path may go unlooked at in [`approaches`]: the floats'
/// error in a point and its distance is under 1e-3" even on a 1000" table.
const LIPSCHITZ_MARGIN_IN: f32 = 0.01;

/// 000 "Spotting Traps", one roll per approach: the distances along the move at which the path
/// comes within `reach` of `area` from outside. `first`: the exact first point in range. A
/// figure that ended its last move in range (`remembered`) and starts in range is not on a new
/// approach until it has left; one that starts in range unremembered (the scene's first move)
/// approaches at 0. Leaving and coming back within the move is a new approach.
fn approaches(m: &Mover, area: Area, reach: f32, remembered: bool, first: Option<f32>) -> Vec<f32> {
    let inside = |d: f32| area.distance(m.point_at(d)) <= reach;
    // The first distance after `from` where `inside` becomes `want`, to a hair.
    let next_change = |from: f32, want: bool| -> Option<f32> {
        let mut prev = from;
        // Where the path was last looked at, and how far from there `inside` cannot change: the
        // point along the path and its distance to the area each move at most an inch an inch,
        // so steps nearer than the gap between that distance and `reach` are taken without
        // looking (less a margin far above the floats' error). The steps, and what the
        // bisection finds, are the same as looking at each.
        let (mut looked, mut unchanged_for) = (from, f32::NEG_INFINITY);
        loop {
            let d = (prev + RANGE_STEP).min(m.total);
            let changes = d - looked >= unchanged_for && {
                let distance = area.distance(m.point_at(d));
                // NaN (no reach) looks at every step.
                (looked, unchanged_for) = (d, ((distance - reach).abs() - LIPSCHITZ_MARGIN_IN).max(f32::NEG_INFINITY));
                (distance <= reach) == want
            };
            if changes {
                let (mut lo, mut hi) = (prev, d);
                for _ in 0..24 {
                    let mid = (lo + hi) / 2.0;
                    // Adjacent floats: every further halving would look at `lo` or `hi` again
                    // and change neither.
                    if mid == lo || mid == hi {
                        break;
                    }
                    if inside(mid) == want {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                return Some(hi);
            }
            if d >= m.total {
                return None;
            }
            prev = d;
        }
    };
    let mut out = Vec::new();
    let mut from = if remembered && inside(0.0) {
        match next_change(0.0, false) {
            Some(left) => left,
            None => return out,
        }
    } else {
        match first {
            Some(d) => {
                out.push(d);
                match next_change(d, false) {
                    Some(left) => left,
                    None => return out,
                }
            }
            None => return out,
        }
    };
    while let Some(back) = next_change(from, true) {
        out.push(back);
        match next_change(back, false) {
            Some(left) => from = left,
            None => break,
        }
    }
    out
}

/// A figure during the pass: where it went this move and what traps did to it.
#[derive(Debug, Clone)]
struct Mover<'w> {
    entity: Entity,
    order: u32,
    /// The figure's name, its path and its waypoints, read from the world: the pass changes
    /// none of them (where a trap stops a figure, [`Changes::of`] cuts copies of them).
    name: &'w str,
    /// The figure's sheet, read from the world (the pass changes only `mounted`).
    sheet: &'w scene::Figure,
    /// Whether it rides: the sheet's, until a trap throws it.
    mounted: bool,
    /// Its conditions: the world's, read, until a trap changes them (most never do).
    conditions: std::borrow::Cow<'w, [scene::Condition]>,
    wounds: Option<i32>,
    segments: &'w [(Vec2, Vec2)],
    /// Distance along the move at the start of each segment.
    starts: Vec<f32>,
    total: f32,
    /// Inches per move: the allowance it moved at (docs/traps.md "Speed").
    speed: f32,
    popped: usize,
    /// How far along its move it got: a trap that stops it lowers this.
    cap: f32,
    /// Where a trap put it, and from what time of the move (a pit's floor, a far edge).
    place: Option<(f32, Vec2)>,
    position: Vec2,
    facing: f32,
    /// Its path ended this move (for lifters and Set Trap).
    arrived: bool,
    waypoints: &'w VecDeque<Vec2>,
    changed: bool,
    /// Its steed fell under it and threw it: written back as not `mounted`.
    unhorsed: bool,
    /// Under the evil eye: −1 on its rolls ([`crate::sim::magic::evil_eye_on`]).
    cursed: Option<crate::sim::magic::Cursed>,
}

impl Mover<'_> {
    fn point_at(&self, d: f32) -> Vec2 {
        point_along_path(self.segments, &self.starts, d).unwrap_or(self.position)
    }

    /// Fraction of the move (0..=1) at which it has gone `d` inches.
    fn time_at(&self, d: f32) -> f32 {
        if self.speed > 0.0 { (d / self.speed).clamp(0.0, 1.0) } else { 0.0 }
    }

    fn position_at_time(&self, t: f32) -> Vec2 {
        if let Some((from, p)) = self.place
            && t >= from
        {
            return p;
        }
        if self.segments.is_empty() {
            return self.position;
        }
        self.point_at((t * self.speed).min(self.cap))
    }

    fn final_position(&self) -> Vec2 {
        match self.place {
            Some((_, p)) => p,
            None if self.segments.is_empty() => self.position,
            None => self.point_at(self.cap),
        }
    }

    /// The way it was going `d` inches along its move (its facing when it did not move).
    fn heading_at(&self, d: f32) -> Vec2 {
        heading_along_path(self.segments, &self.starts, d).unwrap_or_else(|| Vec2::from_angle(self.facing.to_radians()))
    }

    fn traits(&self) -> Traits {
        let f = &self.sheet;
        Traits {
            armour: f.armour,
            sex: f.sex,
            adventurer: f.adventurer,
            shield: f.shield,
            load: f.load,
            mounted: self.mounted,
        }
    }

    /// Cut the move short `d` inches along. A trap that also puts the figure somewhere else
    /// does it through [`Pass::halt`], which keeps it among the placed movers.
    fn halt(&mut self, d: f32) {
        let d = d.clamp(0.0, self.total);
        if d < self.cap {
            self.cap = d;
        }
        self.changed = true;
    }

    /// Put a condition on it, never past the cap the scene check enforces
    /// ([`scene::put_condition`]).
    fn add_condition(&mut self, condition: scene::Condition) -> scene::ConditionPut {
        self.changed = true;
        scene::put_condition(self.conditions.to_mut(), condition)
    }
}

/// A trap during the pass.
#[derive(Debug, Clone)]
struct TrapRt<'w> {
    entity: Entity,
    order: u32,
    /// The trap as the world holds it, copied when the pass changes it.
    spec: TrapSpec<'w>,
    khemri: Option<KhemriCounter>,
    position: Vec2,
    /// Figures that have rolled to spot it this move (2nd, 3rd, 4th in the area).
    spotters: u32,
    /// The round a trip cord was sprung in this move, and its victims so far.
    cord_round: Option<u8>,
    cord_victims: u32,
    /// A lifter set on a door: the door's line (its `from` and `to`).
    door: Option<(Vec2, Vec2)>,
    changed: bool,
}

/// A trap as the world holds it, or the pass's copy once the pass changes it. The copy is
/// boxed: the pass lists every trap each move, and a list of whole traps was a large
/// allocation every move.
#[derive(Debug, Clone)]
enum TrapSpec<'w> {
    Read(&'w scene::Trap),
    Changed(Box<scene::Trap>),
}

impl std::ops::Deref for TrapSpec<'_> {
    type Target = scene::Trap;

    fn deref(&self) -> &scene::Trap {
        match self {
            Self::Read(trap) => trap,
            Self::Changed(trap) => trap,
        }
    }
}

impl TrapSpec<'_> {
    /// The pass's own copy, made at the first change.
    fn to_mut(&mut self) -> &mut scene::Trap {
        if let Self::Read(trap) = *self {
            *self = Self::Changed(Box::new(trap.clone()));
        }
        match self {
            Self::Changed(trap) => trap,
            Self::Read(_) => unreachable!("the copy was made above"),
        }
    }

    fn into_owned(self) -> scene::Trap {
        match self {
            Self::Read(trap) => trap.clone(),
            Self::Changed(trap) => *trap,
        }
    }
}

impl TrapRt<'_> {
    /// Whether a roll to spot it can still be made: it is armed and not yet revealed. Neither
    /// comes back within a move or after it, so a trap that fails this never needs its
    /// approaches worked out again.
    fn can_be_spotted(&self) -> bool {
        self.spec.armed && !self.spec.revealed
    }

    fn area(&self) -> Area {
        if let Some((from, to)) = self.door {
            return Area::Cord { from, to };
        }
        match self.spec.kind {
            scene::TrapKind::TripCord { to } => Area::Cord { from: self.position, to: vec2(to) },
            scene::TrapKind::Loop => Area::Square { centre: self.position, half: 0.5 },
            _ => Area::Disc { centre: self.position, radius: self.spec.radius },
        }
    }

    fn name(&self) -> &str {
        &self.spec.name
    }
}

/// What the pass produced, in the order it happened.
enum Output {
    Event(LogEvent),
    Noise(NoiseMade),
    Flame(TrapFlame),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Meeting {
    /// Came within 2" of a hidden trap: roll to spot it.
    Spot,
    /// Entered its area.
    Enter,
    /// Its path ended on it.
    Stop,
}

#[derive(Debug, Clone, Copy)]
struct Candidate {
    time: f32,
    meeting: Meeting,
    mover: usize,
    trap: usize,
    /// Inches along the mover's path.
    distance: f32,
}

/// One move's traps: the figures, the traps and everything needed to resolve them.
struct Pass<'w> {
    movers: Vec<Mover<'w>>,
    traps: Vec<TrapRt<'w>>,
    settings: &'w TrapSettings,
    moves_per_day: u32,
    /// `herds.non_rider_falling_dice`: a non-rider thrown from its steed.
    non_rider_falling_dice: crate::rules::herds::NonRiderFallingDice,
    rounds_per_move: u8,
    move_number: u32,
    lighting: Lighting,
    lights: &'w Lights,
    terrain: &'w Terrain,
    walls: &'w Walls,
    /// What blocks sight (issue #17): a trap is spotted only in line of sight.
    sight: Option<super::sight::SceneSight>,
    /// The table's width and height: where a trap puts a figure stays on it.
    table: Vec2,
    dice: SimDice,
    out: Vec<Output>,
    /// The traps by where they can be met from.
    trap_index: TrapIndex,
    /// The figures by where they went: built at the first question of who is near (a move in
    /// which no trap goes off asks none). Paths and starting places do not change in the pass.
    mover_index: std::cell::OnceCell<MoverIndex>,
    /// Figures a trap has put somewhere off their path this move (see [`MoverIndex`]).
    placed: Vec<usize>,
}

impl Pass<'_> {
    /// Cut mover `m`'s move short `d` inches along, optionally putting it somewhere else (a
    /// pit's floor, a far edge): a figure put somewhere is kept among the placed movers, so the
    /// questions of who is near a point find it there.
    fn halt(&mut self, m: usize, d: f32, place: Option<Vec2>) {
        let mover = &mut self.movers[m];
        let d = d.clamp(0.0, mover.total);
        mover.halt(d);
        if let Some(p) = place {
            mover.place = Some((mover.time_at(d), p));
            self.placed.push(m);
        }
    }

    /// The mover index, built at its first use.
    fn mover_index(&self) -> &MoverIndex {
        self.mover_index.get_or_init(|| MoverIndex::new(&self.movers))
    }

    /// The movers that may be within `reach` of `at` at some time of the move (a superset, to
    /// be measured), in mover order.
    fn movers_near(&self, at: Vec2, reach: f32) -> Vec<usize> {
        self.mover_index().along(at, at, reach, &self.placed)
    }

    /// The movers that may be within `reach` of the segment `a`–`b` at some time of the move
    /// (a superset, to be measured), in mover order.
    fn movers_along(&self, a: Vec2, b: Vec2, reach: f32) -> Vec<usize> {
        self.mover_index().along(a, b, reach, &self.placed)
    }

    /// The movers that may be within `reach` of a trap's `area` at some time of the move (a
    /// superset, to be measured), in mover order.
    fn movers_near_area(&self, area: Area, reach: f32) -> Vec<usize> {
        let (centre, extent) = area.bounds();
        self.movers_near(centre, extent + reach + ON_EDGE)
    }

    fn event(&mut self, event: LogEvent) {
        self.out.push(Output::Event(event));
    }

    /// Whether a point lies on the table (its edges included, as the scene check has it).
    fn on_table(&self, p: Vec2) -> bool {
        p.x >= 0.0 && p.y >= 0.0 && p.x <= self.table.x && p.y <= self.table.y
    }

    /// A point moved onto the table: a pit's edge can reach past the table's edge, and a figure
    /// is put on the table's edge there instead.
    fn onto_table(&self, p: Vec2) -> Vec2 {
        p.clamp(Vec2::ZERO, self.table.max(Vec2::ZERO))
    }

    /// Give figure `m` a condition (never past the cap the scene check enforces). One merged
    /// or dropped at the cap is noted on the figure's last event, the one that gave it.
    fn give_condition(&mut self, m: usize, condition: scene::Condition) {
        let name = condition.name.clone();
        let Some(how) = self.movers[m].add_condition(condition).logged() else { return };
        let subject = &self.movers[m].name;
        let last = self.out.iter_mut().rev().find_map(|o| match o {
            Output::Event(e) if e.subject == *subject => Some(e),
            _ => None,
        });
        if let Some(event) = last {
            event.note_condition_at_cap(&name, how);
        }
    }

    /// A trap's noise, made at `time` (a fraction of the move): in the round of the meeting.
    fn noise(&mut self, source: &str, position: Vec2, time: f32, noise: crate::rules::morval_traps::Noise) {
        use crate::rules::morval_traps::NoiseKind;
        use crate::rules::sleepers::Noise;
        let kind = match noise.kind {
            NoiseKind::Cursing => Noise::Cursing,
            NoiseKind::Screaming => Noise::Scream,
            NoiseKind::Alarm => Noise::Alarm,
        };
        self.out.push(Output::Noise(NoiseMade {
            source: source.to_string(),
            position,
            noise: kind,
            heard_to: noise.heard_to_inches.map(|h| h as f32),
            round: self.round_at(time),
        }));
    }

    /// The round of the move a time falls in (1-based).
    fn round_at(&self, time: f32) -> u8 {
        let rounds = self.rounds_per_move.max(1);
        ((time * f32::from(rounds)).ceil() as u8).clamp(1, rounds)
    }

    /// Whether the figure is of the side that set the trap.
    fn friendly(&self, m: usize, t: usize) -> bool {
        self.traps[t].spec.side.as_deref() == Some(self.movers[m].sheet.side.as_str())
    }

    /// A lasting condition lasting `moves` moves after this one (the move it started in is
    /// counted off by bookkeeping at its end).
    fn lasting(
        kind: scene::ConditionKind,
        name: impl Into<String>,
        move_penalty: f32,
        moves: Option<u32>,
        immobile: bool,
    ) -> scene::Condition {
        scene::Condition {
            name: name.into(),
            kind,
            move_penalty,
            moves_left: moves.map(|m| m.saturating_add(1)),
            immobile,
            me_and_mo: 0,
            healing: None,
        }
    }

    /// Moves an injury lasts: its moves, or its days at `moves_per_day`.
    fn injury_moves(&self, injury: &crate::rules::morval_traps::LastingInjury) -> u32 {
        use crate::rules::morval_traps::DurationUnit;
        let n = injury.duration.max(0) as u32;
        match injury.unit {
            DurationUnit::Moves => n,
            DurationUnit::Days => n.saturating_mul(self.moves_per_day),
        }
    }

    fn new_event(&self, event: &'static str, m: usize, t: usize, time: f32) -> LogEvent {
        LogEvent::new("traps", event, self.movers[m].name)
            .field("trap", self.traps[t].name())
            .field("in_round", self.round_at(time))
    }

    /// Every meeting of a path with a trap this move, in the order they happen.
    /// How far from its area a trap can be met: spotted from (a Morval trap that can still be
    /// spotted), or stepped on.
    fn reach(trap: &TrapRt) -> f32 {
        if trap.spec.kind.morval_kind().is_some() && trap.can_be_spotted() {
            crate::rules::morval_traps::SPOTTING_RANGE_INCHES
        } else {
            ON_EDGE
        }
    }

    /// Where each trap can be met from: a circle (centre, radius) holding its area and reach.
    fn trap_reaches(traps: &[TrapRt]) -> Vec<(Vec2, f32)> {
        traps
            .iter()
            .map(|t| {
                let (centre, extent) = t.area().bounds();
                (centre, extent + Self::reach(t) + 2.0 * ON_EDGE)
            })
            .collect()
    }

    fn candidates(&self) -> Vec<Candidate> {
        let mut out = Vec::new();
        let index = &self.trap_index;
        // How far one sees at each trap (lights in range), worked out once a trap.
        let mut sight: Vec<Option<f32>> = vec![None; self.traps.len()];
        for (mi, m) in self.movers.iter().enumerate() {
            if m.segments.is_empty() || m.total <= 0.0 {
                continue;
            }
            let start = m.segments[0].0;
            let end = m.point_at(m.total);
            for ti in index.near(m.segments) {
                let trap = &self.traps[ti];
                let area = trap.area();
                let morval = trap.spec.kind.morval_kind().is_some();
                let reach = Self::reach(trap);
                let (centre, extent) = area.bounds();
                let near =
                    m.segments.iter().any(|&(a, b)| point_segment_distance(centre, a, b) <= extent + reach + ON_EDGE);
                if !near {
                    continue;
                }
                let first = |range: f32| {
                    m.segments
                        .iter()
                        .enumerate()
                        .find_map(|(i, &(a, b))| first_within_on_segment(a, b, area, range).map(|s| m.starts[i] + s))
                };
                // Spotted from 2", or as far as the light at the trap lets one see (001 "Lighting");
                // a fire lighting the trap (as it burnt at the end of the last move) lets it be seen
                // from the full reach (issue #17).
                // A roll that `spot` would not make is not looked for.
                if morval && trap.can_be_spotted() && !self.exempt(mi, ti) {
                    let seen = *sight[ti].get_or_insert_with(|| {
                        if self.sight.as_ref().is_some_and(|s| s.lit_by_fire(trap.position)) {
                            f32::INFINITY
                        } else {
                            sight_at(self.lighting, self.lights, trap.position)
                        }
                    });
                    let reach = reach.min(seen);
                    let spots: Vec<f32> = match self.settings.morval.spot_checks {
                        SpotChecks::PerMove => first(reach).into_iter().collect(),
                        SpotChecks::PerApproach => {
                            let remembered = trap.spec.in_range_of.iter().any(|n| n == m.name);
                            approaches(m, area, reach, remembered, first(reach))
                        }
                    };
                    for d in spots {
                        out.push(Candidate {
                            time: m.time_at(d),
                            meeting: Meeting::Spot,
                            mover: mi,
                            trap: ti,
                            distance: d,
                        });
                    }
                }
                // A figure that starts the move on a trap has already met it.
                let starts_on = area.distance(start) <= ON_EDGE;
                if !starts_on && let Some(d) = first(ON_EDGE) {
                    out.push(Candidate {
                        time: m.time_at(d),
                        meeting: Meeting::Enter,
                        mover: mi,
                        trap: ti,
                        distance: d,
                    });
                }
                // Lifting the object, and Set Trap, where a path ends. A door or trapdoor lifter
                // goes off as a path enters it (above); where a path that started on it ends on
                // it too, but never twice in one path.
                let ends_here = match &trap.spec.kind {
                    scene::TrapKind::Lifter { .. } => !trap.spec.kind.lifter_on_passing() || starts_on,
                    scene::TrapKind::Khemri { .. } => true,
                    _ => false,
                };
                if ends_here && m.arrived && area.distance(end) <= ON_EDGE {
                    out.push(Candidate {
                        time: m.time_at(m.total),
                        meeting: Meeting::Stop,
                        mover: mi,
                        trap: ti,
                        distance: m.total,
                    });
                }
            }
        }
        out.sort_by(|a, b| {
            a.time
                .total_cmp(&b.time)
                .then(a.meeting.cmp(&b.meeting))
                .then(self.movers[a.mover].order.cmp(&self.movers[b.mover].order))
                .then(self.traps[a.trap].order.cmp(&self.traps[b.trap].order))
        });
        out
    }

    fn run(&mut self) {
        self.start_of_move();
        for c in self.candidates() {
            let m = &self.movers[c.mover];
            if c.distance > m.cap + ON_EDGE || m.place.is_some_and(|(from, _)| c.time > from) {
                continue;
            }
            if c.meeting == Meeting::Stop && m.cap < m.total - ON_EDGE {
                continue;
            }
            match (c.meeting, self.traps[c.trap].spec.kind.morval_kind().is_some()) {
                (Meeting::Spot, true) => self.spot(c),
                (Meeting::Enter, true) => self.enter_morval(c),
                (Meeting::Stop, true) => self.stop_on_lifter(c),
                (Meeting::Enter, false) => self.cross_counter(c),
                (Meeting::Stop, false) => self.set_trap(c),
                (Meeting::Spot, false) => {}
            }
        }
        // "Can only operate for one round": a sprung cord is spent.
        for trap in &mut self.traps {
            if trap.cord_round.is_some() {
                trap.spec.to_mut().armed = false;
                trap.changed = true;
            }
        }
        self.remember_in_range();
    }

    /// Each Morval trap keeps the figures within spotting range at the end of the move (scene
    /// `in_range_of`, saved): next move they are not on a new approach.
    fn remember_in_range(&mut self) {
        if !self.traps.iter().any(|t| t.spec.kind.morval_kind().is_some()) {
            return;
        }
        // Where each figure ends its move, on its path or where a trap put it, indexed once
        // (a far smaller question than who passed near on the way); for a few traps that can
        // still be spotted, every figure is measured instead of indexing them all.
        let spottable = self.traps.iter().filter(|t| t.spec.kind.morval_kind().is_some() && t.can_be_spotted());
        let indexed = spottable.count().saturating_mul(self.movers.len()) > MEASURED_WITHOUT_INDEX;
        let mut ends: Option<SegmentGrid> = None;
        for t in 0..self.traps.len() {
            let trap = &self.traps[t];
            if trap.spec.kind.morval_kind().is_none() {
                continue;
            }
            if !trap.can_be_spotted() {
                // Sprung or revealed: no figure rolls to spot it again, so it keeps no list.
                if !trap.spec.in_range_of.is_empty() {
                    let trap = &mut self.traps[t];
                    trap.spec.to_mut().in_range_of.clear();
                    trap.changed = true;
                }
                continue;
            }
            let area = trap.area();
            let reach = Self::reach(trap);
            let (centre, extent) = area.bounds();
            let in_reach = |o: &u32| area.distance(self.movers[*o as usize].final_position()) <= reach;
            // Ascending, each once: mover order.
            let near: Vec<u32> = if indexed {
                let ends = ends.get_or_insert_with(|| {
                    let ends: Vec<(Vec2, Vec2, f32)> = self
                        .movers
                        .iter()
                        .map(|m| {
                            let end = m.final_position();
                            (end, end, 0.0)
                        })
                        .collect();
                    SegmentGrid::new(&ends, MoverIndex::MIN_CELL)
                });
                let mut near = ends.along(centre, centre, extent + reach + ON_EDGE);
                near.retain(in_reach);
                near
            } else {
                (0..self.movers.len() as u32).filter(in_reach).collect()
            };
            let names = near.iter().map(|&o| self.movers[o as usize].name);
            // Most moves change no trap's list: compared name by name, copied only if changed.
            if !names.clone().eq(trap.spec.in_range_of.iter().map(String::as_str)) {
                let names = names.map(str::to_string).collect();
                let trap = &mut self.traps[t];
                trap.spec.to_mut().in_range_of = names;
                trap.changed = true;
            }
        }
    }

    /// Work that comes at the start of a figure's move: swinging blades strike again at a
    /// figure that stopped on their counter, a loop's sprain starts once the victim is down,
    /// and a figure in a pit tries to climb out (house rule `table.pit_climb`).
    fn start_of_move(&mut self) {
        for m in 0..self.movers.len() {
            self.blades_again(m);
            self.loop_release(m);
            self.climb_out(m);
        }
    }
}

fn with_rolls(mut event: LogEvent, rolls: impl IntoIterator<Item = Roll>) -> LogEvent {
    for r in rolls {
        event = event.roll(r);
    }
    event
}

/// What the trap pass reads of each figure.
type MoverData = (
    Entity,
    &'static SceneOrder,
    &'static Name,
    &'static Figure,
    &'static Conditions,
    &'static TablePosition,
    &'static Facing,
    &'static Waypoints,
    &'static Swept,
    Option<&'static Wounds>,
    Option<&'static crate::sim::magic::Cursed>,
);

/// What the trap pass reads of each trap.
type TrapData = (Entity, &'static SceneOrder, &'static Trap, Option<&'static KhemriCounter>, &'static TablePosition);

/// Where the trap pass writes what happened.
type PassOutput = (MessageWriter<'static, NoiseMade>, ResMut<'static, EventLog>, Res<'static, MoveClock>);

/// The Traps set: build the pass from the world, run it, write it back. The query and system
/// states are the system's own, built once (a play-test runs this thousands of times).
fn resolve_traps(
    world: &mut World,
    mover_query: &mut QueryState<MoverData>,
    trap_query: &mut QueryState<TrapData>,
    output: &mut SystemState<PassOutput>,
) {
    if let Some(mut flames) = world.get_resource_mut::<Messages<TrapFlame>>() {
        // Last move's flames were read in its Fire set.
        flames.clear();
    }
    // The pass borrows the world's scene, figures and traps; it owns only what it changes.
    let world_now: &World = world;
    let Some(loaded) = world_now.get_resource::<LoadedScene>() else { return };
    let rules = &loaded.0.rules;
    let clock = *world_now.resource::<MoveClock>();
    let mut movers: Vec<Mover> = mover_query
        .iter(world_now)
        .map(|(entity, order, name, figure, conditions, position, facing, waypoints, swept, wounds, cursed)| {
            let mut starts = Vec::with_capacity(swept.segments.len());
            let mut total = 0.0;
            for &(a, b) in &swept.segments {
                starts.push(total);
                total += a.distance(b);
            }
            Mover {
                entity,
                order: order.0,
                name: name.as_str(),
                sheet: &figure.0,
                mounted: figure.0.mounted,
                conditions: std::borrow::Cow::Borrowed(&conditions.0),
                wounds: wounds.map(|w| w.0),
                segments: &swept.segments,
                starts,
                total,
                speed: swept.speed,
                popped: swept.popped,
                cap: total,
                place: None,
                position: position.0,
                facing: facing.0,
                arrived: waypoints.0.is_empty(),
                waypoints: &waypoints.0,
                changed: false,
                unhorsed: false,
                cursed: cursed.copied(),
            }
        })
        .collect();
    movers.sort_by_key(|m| m.order);
    let Some(walls) = world_now.get_resource::<Walls>() else { return };
    let mut traps: Vec<TrapRt> = trap_query
        .iter(world_now)
        .map(|(entity, order, trap, counter, position)| TrapRt {
            entity,
            order: order.0,
            spec: TrapSpec::Read(&trap.0),
            khemri: counter.cloned(),
            position: position.0,
            spotters: 0,
            cord_round: None,
            cord_victims: 0,
            door: door_line(&trap.0, walls.doors()),
            changed: false,
        })
        .collect();
    traps.sort_by_key(|t| t.order);
    let trap_index = TrapIndex::new(&Pass::trap_reaches(&traps));
    let (Some(lights), Some(terrain)) = (world_now.get_resource::<Lights>(), world_now.get_resource::<Terrain>())
    else {
        return;
    };
    let mut pass = Pass {
        movers,
        traps,
        settings: &rules.traps,
        moves_per_day: rules.moves_per_day,
        non_rider_falling_dice: rules.herds.non_rider_falling_dice,
        rounds_per_move: clock.rounds_per_move,
        move_number: clock.move_number,
        lighting: world_now.get_resource::<SceneLighting>().map(|l| l.0).unwrap_or_default(),
        lights,
        terrain,
        walls,
        sight: world_now.get_resource::<super::sight::SceneSight>().cloned(),
        table: world_now.get_resource::<TableSize>().map_or(Vec2::splat(f32::MAX), |t| t.0),
        dice: world_now.resource::<SimDice>().clone(),
        out: Vec::new(),
        trap_index,
        mover_index: std::cell::OnceCell::new(),
        placed: Vec::new(),
    };
    pass.run();
    let changes = Changes::of(pass);
    write_back(world, changes, output);
}

/// What a trap pass changed, owned: written back once the pass's borrows of the world end.
struct Changes {
    dice: SimDice,
    movers: Vec<MoverChange>,
    traps: Vec<(Entity, scene::Trap, Option<KhemriCounter>)>,
    out: Vec<Output>,
}

/// A figure the pass changed: where it ends, and what it is left with.
struct MoverChange {
    entity: Entity,
    position: Vec2,
    waypoints: VecDeque<Vec2>,
    segments: Vec<(Vec2, Vec2)>,
    conditions: Vec<scene::Condition>,
    wounds: Option<i32>,
    unhorsed: bool,
}

impl Changes {
    fn of(pass: Pass) -> Self {
        let movers = pass
            .movers
            .into_iter()
            .filter(|m| m.changed)
            .map(|m| {
                let position = m.final_position();
                let mut waypoints = m.waypoints.clone();
                let mut segments = m.segments.to_vec();
                if m.cap < m.total - ON_EDGE {
                    // Put back the waypoints reached beyond where the figure stopped.
                    let i = (0..m.segments.len())
                        .find(|&i| m.cap < m.starts[i] + m.segments[i].0.distance(m.segments[i].1))
                        .unwrap_or(m.segments.len().saturating_sub(1));
                    for j in (i..m.popped.min(m.segments.len())).rev() {
                        waypoints.push_front(m.segments[j].1);
                    }
                    segments.truncate(i + 1);
                    if let Some(last) = segments.last_mut() {
                        last.1 = m.point_at(m.cap);
                    }
                }
                MoverChange {
                    entity: m.entity,
                    position,
                    waypoints,
                    segments,
                    conditions: m.conditions.into_owned(),
                    wounds: m.wounds,
                    unhorsed: m.unhorsed,
                }
            })
            .collect();
        let traps =
            pass.traps.into_iter().filter(|t| t.changed).map(|t| (t.entity, t.spec.into_owned(), t.khemri)).collect();
        Self { dice: pass.dice, movers, traps, out: pass.out }
    }
}

/// The line of the door a lifter is set on (`kind lifter door`, an entry of the scene's doors).
fn door_line(trap: &scene::Trap, doors: &[scene::Door]) -> Option<(Vec2, Vec2)> {
    let scene::TrapKind::Lifter { door: Some(name), .. } = &trap.kind else { return None };
    doors.iter().find(|d| d.name == *name).map(|d| (vec2(d.from), vec2(d.to)))
}

fn write_back(world: &mut World, pass: Changes, state: &mut SystemState<PassOutput>) {
    // Written over the world's dice (the pass read them there): cheaper than inserting anew.
    *world.resource_mut::<SimDice>() = pass.dice;
    for m in pass.movers {
        let mut entity = world.entity_mut(m.entity);
        if let Some(mut p) = entity.get_mut::<TablePosition>() {
            p.0 = m.position;
        }
        if let Some(mut w) = entity.get_mut::<Waypoints>() {
            w.0 = m.waypoints;
        }
        if let Some(mut s) = entity.get_mut::<Swept>() {
            s.segments = m.segments;
        }
        if let Some(mut c) = entity.get_mut::<Conditions>() {
            c.0 = m.conditions;
        }
        if let (Some(w), Some(mut wounds)) = (m.wounds, entity.get_mut::<Wounds>()) {
            wounds.0 = w;
        }
        if m.unhorsed
            && let Some(mut figure) = entity.get_mut::<Figure>()
        {
            figure.0.mounted = false;
        }
    }
    for (e, spec, khemri) in pass.traps {
        let mut entity = world.entity_mut(e);
        if let Some(mut trap) = entity.get_mut::<Trap>() {
            trap.0 = spec;
        }
        if let (Some(counter), Some(mut c)) = (khemri, entity.get_mut::<KhemriCounter>()) {
            *c = counter;
        }
    }
    let mut flames = Vec::new();
    // The resources were all inserted with the scene, so the parameters are always valid.
    if let Ok((mut writer, mut log, clock)) = state.get_mut(world) {
        for output in pass.out {
            match output {
                Output::Event(e) => log.push(&clock, e),
                Output::Noise(n) => make_noise(&mut writer, &mut log, &clock, n),
                Output::Flame(f) => {
                    log.push(
                        &clock,
                        LogEvent::new("traps", "trap_flame", f.trap.clone())
                            .outcome(crate::sim::outcome::TrapOutcome::Flame)
                            .field("position", point_to_thousandths(f.position))
                            .field("diameter", f.diameter)
                            .field("figures_on_fire", &f.figures_on_fire),
                    );
                    flames.push(f);
                }
            }
        }
    }
    state.apply(world);
    for f in flames {
        world.write_message(f);
    }
}

/// The lighting at a trap, for spotting (001 "Lighting", lifted by lights in range).
fn lighting_at_trap(pass: &Pass, t: usize) -> Lighting {
    lighting_at(pass.lighting, pass.lights, pass.traps[t].position)
}

#[cfg(test)]
mod tests {

    #[test]
    fn exact_entries_agree_with_the_search() {
        // Many segments from a fixed pseudo-random sequence, against discs and squares.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 40) as f32 / (1u64 << 24) as f32
        };
        let mut met = 0;
        for _ in 0..4000 {
            let a = Vec2::new(next() * 20.0, next() * 20.0);
            let b = Vec2::new(next() * 20.0, next() * 20.0);
            let centre = Vec2::new(5.0 + next() * 10.0, 5.0 + next() * 10.0);
            let range = if next() < 0.3 { ON_EDGE } else { next() * 6.0 };
            for area in [Area::Disc { centre, radius: next() * 2.0 }, Area::Square { centre, half: 0.5 }] {
                let exact = first_within_on_segment(a, b, area, range);
                let searched = first_within_by_search(a, b, area, range);
                match (exact, searched) {
                    (Some(e), Some(s)) => {
                        met += 1;
                        assert!((e - s).abs() < 1e-3, "{area:?} {a} {b} range {range}: {e} vs {s}");
                        // It is in range there, and was not before.
                        let at = |t: f32| a + (b - a).normalize_or_zero() * t;
                        assert!(area.distance(at(e)) <= range + 1e-3);
                        assert!(e < 1e-3 || area.distance(at(e - 1e-2)) > range - 1e-3);
                    }
                    (None, None) => {}
                    // Grazing the edge: both within a hair of range.
                    (e, s) => {
                        let t = e.or(s).unwrap_or(0.0);
                        let p = a + (b - a).normalize_or_zero() * t;
                        assert!((area.distance(p) - range).abs() < 1e-3, "{area:?} {a} {b} {range}: {e:?} vs {s:?}");
                    }
                }
            }
        }
        assert!(met > 1000, "the segments met the areas {met} times");
    }
    use super::*;

    #[test]
    fn first_point_in_range_along_a_segment() {
        let disc = Area::Disc { centre: Vec2::new(5.0, 0.0), radius: 1.0 };
        let d = first_within_on_segment(Vec2::ZERO, Vec2::new(10.0, 0.0), disc, 0.0).unwrap();
        assert!((d - 4.0).abs() < 1e-3, "{d}");
        let d = first_within_on_segment(Vec2::ZERO, Vec2::new(10.0, 0.0), disc, 2.0).unwrap();
        assert!((d - 2.0).abs() < 1e-3, "{d}");
        assert!(first_within_on_segment(Vec2::new(0.0, 3.5), Vec2::new(10.0, 3.5), disc, 2.0).is_none());
        let cord = Area::Cord { from: Vec2::new(5.0, -1.0), to: Vec2::new(5.0, 1.0) };
        let d = first_within_on_segment(Vec2::ZERO, Vec2::new(10.0, 0.0), cord, ON_EDGE).unwrap();
        assert!((d - 5.0).abs() < 1e-2, "crossing a cord: {d}");
        let square = Area::Square { centre: Vec2::new(5.0, 0.4), half: 0.5 };
        let d = first_within_on_segment(Vec2::ZERO, Vec2::new(10.0, 0.0), square, ON_EDGE).unwrap();
        assert!((d - 4.5).abs() < 1e-2, "{d}");
    }

    /// A figure for the pass: standing at `position`, having swept `segments` at `speed`.
    fn mover(i: usize, position: Vec2, segments: Vec<(Vec2, Vec2)>, speed: f32) -> Mover<'static> {
        // Leaked: a test's few sheets, borrowed as the pass borrows the world's.
        let sheet: &'static scene::Figure = Box::leak(Box::new(
            ron::from_str(&format!("(name: \"f{i}\", position: ({}, {}))", position.x, position.y)).unwrap(),
        ));
        let mut starts = Vec::new();
        let mut total = 0.0;
        for &(a, b) in &segments {
            starts.push(total);
            total += a.distance(b);
        }
        Mover {
            entity: Entity::PLACEHOLDER,
            order: i as u32,
            name: &sheet.name,
            sheet,
            mounted: sheet.mounted,
            conditions: std::borrow::Cow::Borrowed(&[]),
            wounds: None,
            segments: Box::leak(segments.into_boxed_slice()),
            starts,
            total,
            speed,
            popped: 0,
            cap: total,
            place: None,
            position,
            facing: 0.0,
            arrived: false,
            waypoints: Box::leak(Box::default()),
            changed: false,
            unhorsed: false,
            cursed: None,
        }
    }

    /// [`approaches`] as it was before it stepped past what cannot change: every step looked
    /// at, every bisection run its 24 halvings.
    fn approaches_looking_at_every_step(
        m: &Mover,
        area: Area,
        reach: f32,
        remembered: bool,
        first: Option<f32>,
    ) -> Vec<f32> {
        let inside = |d: f32| area.distance(m.point_at(d)) <= reach;
        let next_change = |from: f32, want: bool| -> Option<f32> {
            let mut prev = from;
            loop {
                let d = (prev + RANGE_STEP).min(m.total);
                if inside(d) == want {
                    let (mut lo, mut hi) = (prev, d);
                    for _ in 0..24 {
                        let mid = (lo + hi) / 2.0;
                        if inside(mid) == want { hi = mid } else { lo = mid }
                    }
                    return Some(hi);
                }
                if d >= m.total {
                    return None;
                }
                prev = d;
            }
        };
        let mut out = Vec::new();
        let mut from = if remembered && inside(0.0) {
            match next_change(0.0, false) {
                Some(left) => left,
                None => return out,
            }
        } else {
            let Some(d) = first else { return out };
            out.push(d);
            match next_change(d, false) {
                Some(left) => left,
                None => return out,
            }
        };
        while let Some(back) = next_change(from, true) {
            out.push(back);
            match next_change(back, false) {
                Some(left) => from = left,
                None => break,
            }
        }
        out
    }

    /// Skipping the steps where being in range cannot change, and the halvings that cannot
    /// move the bisection, finds the approaches looking at every step finds, to the bit: zig-zag
    /// paths past discs, squares and cords, on a small table and far out on a 1000" one.
    #[test]
    fn approaches_found_by_skipping_are_those_found_step_by_step() {
        use rand::{Rng, SeedableRng, rngs::Xoshiro256PlusPlus};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(77);
        let mut unit = move || (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
        let mut approaches_found = 0;
        for case in 0..3000 {
            let origin = if case % 3 == 0 { Vec2::splat(990.0) } else { Vec2::ZERO };
            let point = |unit: &mut dyn FnMut() -> f32| origin + Vec2::new(unit() * 10.0, unit() * 10.0);
            let start = point(&mut unit);
            let mut segments = Vec::new();
            let mut at = start;
            for _ in 0..1 + case % 5 {
                let next = point(&mut unit);
                segments.push((at, next));
                at = next;
            }
            let m = mover(case, start, segments, 8.0);
            let centre = point(&mut unit);
            let area = match case % 3 {
                0 => Area::Disc { centre, radius: unit() * 0.5 },
                1 => Area::Square { centre, half: unit() * 0.5 },
                _ => Area::Cord { from: centre, to: point(&mut unit) },
            };
            let reach = [2.0, ON_EDGE, unit() * 3.0][case % 3];
            let first = m
                .segments
                .iter()
                .enumerate()
                .find_map(|(i, &(a, b))| first_within_on_segment(a, b, area, reach).map(|s| m.starts[i] + s));
            let remembered = case % 4 == 0;
            let found = approaches(&m, area, reach, remembered, first);
            let expected = approaches_looking_at_every_step(&m, area, reach, remembered, first);
            let bits = |v: &[f32]| v.iter().map(|d| d.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&found), bits(&expected), "case {case}: {found:?} {expected:?}");
            approaches_found += found.len().saturating_sub(1);
        }
        assert!(approaches_found > 300, "paths come back into range often: {approaches_found}");
    }

    #[test]
    fn indexed_movers_near_a_point_are_every_mover_near_it() {
        use rand::{Rng, SeedableRng, rngs::Xoshiro256PlusPlus};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2024);
        let mut unit = move || (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
        // Figures on a 120" table: some standing, some walking a few legs (on whole inches,
        // with legs of no length), some walking far; some cut short, some put somewhere else.
        let mut movers = Vec::new();
        let mut placed = Vec::new();
        for i in 0..2000 {
            let start = Vec2::new(unit() * 120.0, unit() * 120.0);
            let start = if i % 5 == 0 { start.floor() } else { start };
            let mut segments = Vec::new();
            let mut at = start;
            for k in 0..(i % 4) {
                let step = match k % 3 {
                    0 => Vec2::new(unit() - 0.5, unit() - 0.5) * 12.0,
                    1 => Vec2::ZERO,
                    _ => Vec2::new((unit() * 8.0).floor(), 0.0),
                };
                let next = if i % 97 == 0 { Vec2::new(unit() * 120.0, unit() * 120.0) } else { at + step };
                segments.push((at, next));
                at = next;
            }
            let mut m = mover(i, start, segments, 4.0 + unit() * 8.0);
            if i % 7 == 0 {
                m.cap = m.total * unit();
            }
            if i % 11 == 0 {
                m.place = Some((unit(), Vec2::new(unit() * 120.0, unit() * 120.0)));
                placed.push(i);
            }
            movers.push(m);
        }
        let index = MoverIndex::new(&movers);
        let mut found = 0;
        for k in 0..3000 {
            let at = Vec2::new(unit() * 130.0 - 5.0, unit() * 130.0 - 5.0);
            let at = if k % 4 == 0 { at.floor() } else { at };
            let reach = [0.01, 1.0, 2.0, 3.0, 7.5][k % 5];
            let time = if k % 6 == 0 { 1.0 } else { unit() };
            let brute: Vec<usize> =
                (0..movers.len()).filter(|&o| movers[o].position_at_time(time).distance(at) <= reach).collect();
            let indexed: Vec<usize> = index
                .along(at, at, reach, &placed)
                .into_iter()
                .filter(|&o| movers[o].position_at_time(time).distance(at) <= reach)
                .collect();
            assert_eq!(brute, indexed, "near {at} within {reach} at {time}");
            let ends: Vec<usize> =
                (0..movers.len()).filter(|&o| movers[o].final_position().distance(at) <= reach).collect();
            let indexed_ends: Vec<usize> = index
                .along(at, at, reach, &placed)
                .into_iter()
                .filter(|&o| movers[o].final_position().distance(at) <= reach)
                .collect();
            assert_eq!(ends, indexed_ends, "ending near {at} within {reach}");
            // Along a boulder's line.
            let to = at + Vec2::new(unit() - 0.5, unit() - 0.5) * 12.0;
            let line: Vec<usize> = (0..movers.len())
                .filter(|&o| point_segment_distance(movers[o].position_at_time(time), at, to) <= reach)
                .collect();
            let indexed_line: Vec<usize> = index
                .along(at, to, reach, &placed)
                .into_iter()
                .filter(|&o| point_segment_distance(movers[o].position_at_time(time), at, to) <= reach)
                .collect();
            assert_eq!(line, indexed_line, "along {at}-{to} within {reach}");
            found += brute.len();
        }
        assert!(found > 1000, "{found} figures found near the points");
    }
}
