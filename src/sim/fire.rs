//! Fire on the table, round by round (the Fire set runs the [`Round`] schedule once a round).
//!
//! The scene's terrain is painted into a [`FireGrid`], each burnable region its own fuel index.
//! Each round (001 "Fire Starting Rules", "Fire Spreading", "Fire Against people and animals"):
//! 1. ignition requests (traps: [`IgniteRequest`]), then the scene's fires and igniters in scene
//!    order, roll D6 + FS − FR and set fire to the material at the start of the round;
//! 2. where a burning region touches a burnable region of another material, the burning edge is
//!    an igniter of its size held against it: **one roll per (burning region, touched region)
//!    pair per round**, at the spot touched longest, +1 per two rounds of contact; regions of one
//!    material are one fuel to the front, which spreads between them without a roll;
//! 3. the front advances to the end of the round at each material's FSR;
//! 4. figures standing in burning ground (or whose path this move crossed it) roll D6 + FS;
//! 5. what caught, what is spent and each fire's size and fright value are logged, and
//!    [`FireFront`] is updated for the herds and the view.
//!
//! A saved scene carries the grid's arrival times (scene field `fire_state`), which loading puts
//! back as they were, so the front, and the dice that follow, continue exactly; ignitions a scene
//! lists (`ignitions`) are replayed on top. See `docs/fire.md`.

use super::clock::{MoveClock, SimDice};
use super::fire_front::{self, Cell, CellState, FireGrid};
use super::log::{EventLog, LogEvent, point_to_thousandths, round_to_thousandths};
use super::noise::{NoiseMade, make_house_rule_noise};
use super::outcome::FireOutcome;
use super::referee::Referee;
use super::sleepers::{SleepersRules, SleepingGroup};
use super::world::{
    Conditions, Figure, SceneOrder, Swept, TablePosition, in_scene_order, placed_bundle, point, sorted, vec2,
};
use super::{Move, MoveSystems, Round};
use crate::rules::fire::{
    self as rules, BurnStacking, FireSettings, Fuel, IgnitionOutcome, PersonFireRolls, PersonInFireOutcome,
    burning_building_by_area, burning_fire_strike, fire_fright_value, person_fire_strike, resolve_ignition,
    resolve_person_in_fire,
};
use crate::rules::sleepers::{SleepersSettings, armour_after_rounds};
use crate::scene::sleepers::SleeperState;
use crate::scene::{self, ConditionKind, FireIgnition, Igniter, Material, Scene, Shape};
use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<IgniteRequest>();
    app.init_resource::<FireFront>();
    app.add_systems(Round, fire_round);
    app.add_systems(Move, trap_flames_ignite.in_set(MoveSystems::Fire).before(super::run_rounds));
    app.add_systems(Move, fire_noises.in_set(MoveSystems::Fire).after(super::run_rounds));
}

/// 000 "Awaking groups asleep": a fire within a group's earshot is a noise (house rule
/// `sleepers.fire_noise`, shouts by default), made once a move at the burning point nearest
/// the group, after the move's rounds: the Sleepers set hears it the same move. Its round is the
/// round the fire reached that point (round 1 when it burnt there from before the move; the
/// move's last round if the arrival is unknown).
fn fire_noises(
    front: Res<FireFront>,
    groups: Query<(&SceneOrder, &SleepingGroup)>,
    sleepers: Res<SleepersRules>,
    clock: Res<MoveClock>,
    mut log: ResMut<EventLog>,
    mut noises: MessageWriter<NoiseMade>,
) {
    if front.fires.is_empty() {
        return;
    }
    let mut made: Vec<Vec2> = Vec::new();
    for (_, group) in in_scene_order(groups.iter(), |item| *item.0) {
        let centre = vec2(group.0.position);
        let Some((at, _)) = front.nearest_burning(centre, group.0.shelter.earshot_inches()) else { continue };
        // A cell centre past the table's edge (the last cells of a side that is not a whole
        // number of cells): the noise is made on the edge, where an investigator may walk.
        let at = onto_table(at, front.table);
        if made.contains(&at) {
            continue;
        }
        made.push(at);
        let source = front.fire_at(at).map_or_else(|| "fire".to_string(), |f| f.name.clone());
        let round = fire_round_at(&front, &clock, at);
        let noise = NoiseMade { source, position: at, noise: sleepers.0.fire_noise, heard_to: None, round };
        // What noise a fire makes is the house rule `sleepers.fire_noise`.
        make_house_rule_noise(&mut noises, &mut log, &clock, noise, "sleepers.fire_noise");
    }
}

/// A point moved onto the table (`table`: its width and height). The fire front's last column
/// or row of cells can reach past the table's edge, when a side is not a whole number of cells;
/// a point there is put on the edge, which lies in the same cell.
fn onto_table(p: Vec2, table: Vec2) -> Vec2 {
    p.clamp(Vec2::ZERO, table.max(Vec2::ZERO))
}

/// The round of the clock's move (1-based) in which the fire reached the cell at `at`: its
/// arrival on the scene clock, counted from the move's start (round `R` of the move runs from
/// `R − 1` to `R`; a fire lit at the start of a round is of that round, one burning there before
/// the move of round 1).
fn fire_round_at(front: &FireFront, clock: &MoveClock, at: Vec2) -> u8 {
    let rounds = clock.rounds_per_move.max(1);
    let arrival = front.grid().and_then(|g| g.cell_at(at.x, at.y).and_then(|cell| g.arrival(cell)));
    let Some(arrival) = arrival else { return rounds };
    let start = clock.move_number.saturating_sub(1) as f32 * f32::from(rounds);
    // A NaN casts to 0, and the clamp makes it round 1.
    ((arrival - start).floor() as i32).saturating_add(1).clamp(1, i32::from(rounds)) as u8
}

/// A trap's flame (a treadle's `flame` payload; a Khemri Fire Trap only with the house rule
/// `khemri.fire_trap_ignites_ground`) is an igniter held for a flash: a fire as wide as the
/// trap's area (001 "Fire Starting Rules": "0.3" d fire +2" ... "1.5" d fire +5"), rolled
/// against what lies there at the start of the next round.
fn trap_flames_ignite(
    mut flames: MessageReader<super::traps::TrapFlame>,
    front: Res<FireFront>,
    scene: Option<Res<super::world::LoadedScene>>,
    mut requests: MessageWriter<IgniteRequest>,
) {
    let khemri_ignites = scene.is_some_and(|s| s.0.rules.traps.khemri.fire_trap_ignites_ground);
    for flame in flames.read() {
        if flame.source == super::traps::FlameSource::KhemriFireTrap && !khemri_ignites {
            continue;
        }
        let strike = rules::burning_fire_strike(flame.diameter, &front.settings);
        ignite_at(&mut requests, flame.position, strike, flame.trap.clone());
    }
}

/// A fire as the scene gives it, with its igniter's state as play changes it.
#[derive(Component, Debug, Clone)]
pub struct Fire(pub scene::Fire);

/// Ask the fire rules to set fire to the material at a point (001 "Fire Starting Rules"): rolled
/// D6 + `fire_strike` − FR at the start of the next round the Fire set runs. The traps' flame
/// payload (`TrapFlame`) is meant to be turned into this message.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct IgniteRequest {
    /// Where the igniter touches the ground, in table inches.
    pub position: Vec2,
    /// The igniter's fire strike (FS), e.g. a thrown torch −1.
    pub fire_strike: i32,
    /// Rounds the igniter has been held there already (+1 per two); 0 for a flash or a throw.
    pub rounds_held: u32,
    /// The scene name of what set it (a trap), for the log.
    pub source: String,
}

/// Write an [`IgniteRequest`] from a system that is not a fire system (a trap's flame).
pub fn ignite_at(
    writer: &mut MessageWriter<IgniteRequest>,
    position: Vec2,
    fire_strike: i32,
    source: impl Into<String>,
) {
    writer.write(IgniteRequest { position, fire_strike, rounds_held: 0, source: source.into() });
}

/// Radius of material set alight by a successful roll: "1+ ignited (up to 0.5")".
const IGNITED_RADIUS: f32 = rules::IGNITED_FIRE_DIAMETER_INCHES / 2.0;

/// Most burnable regions with fuel indices of their own (a fuel index is a `u8`). Beyond it a
/// region shares the index of the last earlier region of the same material and wetness.
pub const MAX_FUEL_REGIONS: usize = 255;

/// The condition a definitely dead figure carries; such figures roll no more.
pub const DEAD_CONDITION: &str = "definitely dead (fire)";

/// A burnable terrain region, as painted into the grid (fuel index = position + 1).
#[derive(Debug, Clone, PartialEq)]
pub struct FuelRegion {
    /// The region's scene name.
    pub name: String,
    /// What burns there (001 "Fire Resistances").
    pub fuel: Fuel,
    /// Wet fuel resists ignition more.
    pub wet: bool,
    /// Cells painted with this fuel index.
    pub cells: usize,
    /// Marked `building` in the scene: burning, it frightens as a building, sized by the area
    /// of it burning.
    pub building: bool,
}

/// A connected patch of burning cells at the end of a round: one "fire".
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FireSummary {
    /// The first region (scene order) burning in it.
    pub name: String,
    /// Every region burning in it, in scene order.
    pub regions: Vec<String>,
    /// Burning area in square inches.
    pub area_in2: f32,
    /// Diameter of the circle of the same area (001 "1.0" diameter fire FV1" ...).
    pub diameter_in: f32,
    /// Longer side of its bounding box.
    pub span_in: f32,
    /// Centre of the burning cells.
    pub centre: (f32, f32),
    /// Lower corner of its bounding box.
    pub min: (f32, f32),
    /// Upper corner of its bounding box.
    pub max: (f32, f32),
    /// As an igniter: 001 "Held Igniters" fire rows by diameter (1.5" and more +5).
    pub fire_strike: i32,
    /// Against persons caught in it: FV + 3 (001 "Fire Strike -3 = Fright Value of fire"), the
    /// building's if that is more; below 1.0" the igniter rows.
    pub fire_strike_vs_persons: i32,
    /// 001 "Fire Against people and animals": by diameter, or the burning building's, the larger.
    pub fright_value: Option<i32>,
    /// The burning building it counts as, if a building burns in it.
    pub building: Option<rules::BurningBuilding>,
}

/// An igniter not yet alight that frightens by itself (001 "Fire Strike −3 = Fright Value of
/// fire (0 or less not used)"): only the 1.0" and 1.5" fire rows do.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct IgniterFright {
    /// The fire's scene name.
    pub name: String,
    /// Where it burns.
    pub position: (f32, f32),
    /// Its fright value (1 or 2).
    pub fright_value: i32,
}

/// The fire front: material raster, arrival times, and the fires burning now.
///
/// For other domains (herds flee fire they fear): [`FireFront::fires`] lists each fire with its
/// fright value and bounds; [`FireFront::is_burning`] and [`FireFront::nearest_burning`] answer
/// for a point. State is as at the end of the last round resolved.
#[derive(Resource, Default)]
pub struct FireFront {
    settings: FireSettings,
    rounds_per_move: u8,
    table: Vec2,
    terrain: Vec<scene::Region>,
    regions: Vec<FuelRegion>,
    /// Fuel index of each terrain region (0: does not burn).
    fuel_of_region: Vec<u8>,
    grid: Option<FireGrid>,
    /// Why the grid could not be built, if it could not.
    grid_error: Option<String>,
    /// The scene's `ignitions`, replayed when the grid is built (saves carry `fire_state`).
    history: Vec<FireIgnition>,
    /// Every ignition of the grid since the scene was loaded, in order: with the painted grid,
    /// all the fire front's inputs.
    caught: Vec<FireIgnition>,
    /// The saved fire the grid starts from, until the grid is built.
    saved_state: Option<scene::fire_state::FireState>,
    /// Time (rounds on the scene clock) the grid is settled to.
    time: f32,
    fires: Vec<FireSummary>,
    igniters: Vec<IgniterFright>,
    /// Settled cells already counted in `arrivals`.
    seen_cells: usize,
    /// Per fuel index − 1: arrival times of its reached cells, in order. None are kept with
    /// one region on the table: the grid's settle order holds them.
    arrivals: Vec<Vec<f32>>,
    /// Per fuel index − 1: how many of `arrivals` are spent.
    spent: Vec<usize>,
    /// Bumped whenever the burning state changes (the view redraws then).
    generation: u64,
    /// The move and the persons who have rolled for fire in it (`person_rolls: per_move`).
    /// Saves fall between moves, so this is never saved.
    rolled_in_move: (u32, BTreeSet<String>),
    /// [`Self::summarise`]'s bits and labels per grid cell, kept between rounds.
    marks: SummaryMarks,
    /// The last summary, while the grid is as it was then (see [`Self::patches_of`]).
    summarised: Option<Summarised>,
    /// The terrain as painted before any fire, kept only in a run no one watches (a play-test
    /// restarts one scene many times and paints the same grid each time otherwise).
    painted: Option<Arc<PaintedGrid>>,
    /// Whether to keep `painted` (an unwatched run).
    keep_paint: bool,
    /// The last run's grid of the same painting, to be cleared and used again.
    spare: Option<FireGrid>,
}

/// What an unwatched run's front keeps for the next restart: the grid as painted, the last
/// run's grid, and the summaries' bit set.
struct KeptPaint {
    painted: Arc<PaintedGrid>,
    grid: Option<FireGrid>,
    marks: SummaryMarks,
}

/// [`FireFront::summarise`]'s buffers, a bit or a label per grid cell, kept between rounds.
#[derive(Debug, Clone, Default)]
struct SummaryMarks {
    /// Burning at the last time summarised: brought up to date from there at the next.
    burning: fire_front::BurningBits,
    /// The runs of burning cells and their fires (which fire holds a cell burning then: a
    /// binary search of its row's runs, so no label is written per cell).
    runs: fire_front::runs::RunLabels,
}

/// One fire's cells, summed run by run: how many, the sums of twice their centres' columns
/// and rows (whole numbers, so exact in any order), and their bounds in cells.
#[derive(Clone, Copy, Debug)]
struct PatchSums {
    cells: u64,
    twice_x: u64,
    twice_y: u64,
    min: UVec2,
    max: UVec2,
}

impl Default for PatchSums {
    fn default() -> Self {
        Self { cells: 0, twice_x: 0, twice_y: 0, min: UVec2::MAX, max: UVec2::ZERO }
    }
}

impl PatchSums {
    fn add(&mut self, run: fire_front::runs::Run) {
        let (from, to, row) = (u64::from(run.from), u64::from(run.to), u64::from(run.row));
        let cells = to - from + 1;
        self.cells += cells;
        // 1 + 3 + ... + (2n − 1) = n², so the centres 2x + 1 of columns from..=to sum to this.
        self.twice_x += (to + 1) * (to + 1) - from * from;
        self.twice_y += cells * (2 * row + 1);
        self.min = self.min.min(UVec2::new(run.from, run.row));
        self.max = self.max.max(UVec2::new(run.to, run.row));
    }

    /// The mean of the cells' centres, in inches.
    fn centre(&self, size: f32) -> Vec2 {
        let mean = |twice: u64| (twice as f64 / (2 * self.cells.max(1)) as f64 * f64::from(size)) as f32;
        Vec2::new(mean(self.twice_x), mean(self.twice_y))
    }
}

/// The last summary's time, and its fires as patches: with [`SummaryMarks::runs`], the size
/// of the patch holding any cell burning then, without flooding it again.
#[derive(Debug, Clone, Default)]
struct Summarised {
    /// When the fires were summarised.
    time: f32,
    /// How many settled cells had arrived by then ([`FireGrid::settled_by`]): while it is the
    /// same, so is everything burning then.
    settled: usize,
    /// Each fire as a patch, in the order of [`FireFront::fires`].
    patches: Vec<fire_front::FireRegion>,
    /// Which tiles of the grid held a burning cell then.
    tiles: BurningTiles,
}

/// [`FireFront::burning_boxes`]: whether a box may hold a burning cell at one time.
#[derive(Clone, Copy)]
pub struct BurningBoxes<'a> {
    grid: Option<&'a fire_front::FireGrid>,
    /// The summary's tiles, when they are of that time; else every box on the grid may burn.
    tiles: Option<&'a BurningTiles>,
}

impl BurningBoxes<'_> {
    /// Whether a cell from `lo` to `hi` (inches, a box) may burn: false only where nothing
    /// does (no grid, off the grid, or no burning cell in the tiles of the box's cells).
    pub fn may_burn_within(&self, lo: Vec2, hi: Vec2) -> bool {
        let Some(grid) = self.grid else { return false };
        let size = grid.cell_size_in();
        let (width, height) = (grid.width_cells() as f32 * size, grid.height_cells() as f32 * size);
        if !(hi.x >= 0.0 && hi.y >= 0.0 && lo.x < width && lo.y < height) {
            return false;
        }
        let Some(tiles) = self.tiles else { return true };
        // Cells as `FireGrid::cell_at` finds them.
        let cell = |v: f32| (v.max(0.0) / size) as u32;
        tiles.any_within(UVec2::new(cell(lo.x), cell(lo.y)), UVec2::new(cell(hi.x), cell(hi.y)))
    }
}

/// Which square tiles of [`BurningTiles::CELLS`]² grid cells hold a burning cell, a bit a
/// tile: a box over clear tiles has nothing burning in it, so a herd's step or a figure's path
/// there need not be sampled cell by cell.
#[derive(Debug, Clone, Default)]
struct BurningTiles {
    /// Tiles across the grid.
    across: usize,
    /// Tiles up the grid.
    up: usize,
    /// A bit a tile, row by row; each row of tiles starts a new word.
    bits: Vec<u64>,
}

impl BurningTiles {
    /// Grid cells along a tile's side.
    const CELLS: u32 = 8;

    /// The tiles of the runs of burning cells in a grid `width` × `height` cells.
    fn of_runs(width: u32, height: u32, runs: impl Iterator<Item = fire_front::runs::Run>, mut bits: Vec<u64>) -> Self {
        let across = width.div_ceil(Self::CELLS) as usize;
        let up = height.div_ceil(Self::CELLS) as usize;
        let words = across.div_ceil(64);
        bits.clear();
        bits.resize(words * up, 0);
        for run in runs {
            let row = &mut bits[(run.row / Self::CELLS) as usize * words..][..words];
            let (first, last) = ((run.from / Self::CELLS) as usize, (run.to / Self::CELLS) as usize);
            // A word's tiles at once, not a tile at a time: a run's few tiles cost no loop whose
            // end is mispredicted.
            for (w, word) in row.iter_mut().enumerate().take(last / 64 + 1).skip(first / 64) {
                *word |= Self::word_mask(w, first, last);
            }
        }
        Self { across, up, bits }
    }

    /// The bits of word `w` of a row for its tiles from `first` to `last` (inclusive).
    fn word_mask(w: usize, first: usize, last: usize) -> u64 {
        let from = if w == first / 64 { first % 64 } else { 0 };
        let to = if w == last / 64 { last % 64 } else { 63 };
        (u64::MAX >> (63 - to)) & (u64::MAX << from)
    }

    /// Whether any tile holding one of the cells from `lo` to `hi` (column, row; inclusive)
    /// holds a burning cell.
    fn any_within(&self, lo: UVec2, hi: UVec2) -> bool {
        let words = self.across.div_ceil(64);
        let (x0, x1) =
            ((lo.x / Self::CELLS) as usize, ((hi.x / Self::CELLS) as usize).min(self.across.saturating_sub(1)));
        let (y0, y1) = ((lo.y / Self::CELLS) as usize, ((hi.y / Self::CELLS) as usize).min(self.up.saturating_sub(1)));
        if x0 > x1 || y0 > y1 {
            return false;
        }
        (y0..=y1).any(|row| {
            let row = &self.bits[row * words..][..words];
            (x0 / 64..=x1 / 64).any(|w| row[w] & Self::word_mask(w, x0, x1) != 0)
        })
    }
}

/// A fire grid as painted from a table, its terrain and the fire settings, with no fire yet:
/// what a restart of the same scene would paint again.
struct PaintedGrid {
    table: Vec2,
    terrain: Vec<scene::Region>,
    settings: FireSettings,
    grid: FireGrid,
    /// Cells painted per fuel region, in region order.
    cells: Vec<usize>,
}

impl PaintedGrid {
    fn paints(&self, front: &FireFront) -> bool {
        self.table == front.table && self.terrain == front.terrain && self.settings == front.settings
    }
}

impl FireFront {
    /// Every ignition of the grid since the scene was loaded (its recorded `ignitions` are not
    /// repeated), in order, each at the time it caught.
    pub fn caught(&self) -> &[FireIgnition] {
        &self.caught
    }

    /// Lights the grid at `at` (001 "Fire Spreading") and records it in [`Self::caught`].
    fn ignite(&mut self, at: Vec2, radius: f32, time: f32, source: &str) -> Option<fire_front::Ignition> {
        let lit = self.grid.as_mut()?.ignite(at.x, at.y, radius, time)?;
        self.caught.push(FireIgnition { time: lit.time, position: (at.x, at.y), radius, source: source.to_owned() });
        Some(lit)
    }

    /// Fires burning at the end of the last round.
    pub fn fires(&self) -> &[FireSummary] {
        &self.fires
    }

    /// Igniters not yet alight with a fright value of their own (FS − 3 above 0).
    pub fn igniter_frights(&self) -> &[IgniterFright] {
        &self.igniters
    }

    /// The grid, once any fire has needed it.
    pub fn grid(&self) -> Option<&FireGrid> {
        self.grid.as_ref()
    }

    /// Rounds on the scene clock the front is settled to.
    pub fn time(&self) -> f32 {
        self.time
    }

    /// Changes whenever burning or spent ground changes.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Why the fire front could not be built (a table too large even for 1" cells).
    pub fn error(&self) -> Option<&str> {
        self.grid_error.as_deref()
    }

    /// The burnable regions painted into the grid.
    pub fn regions(&self) -> &[FuelRegion] {
        &self.regions
    }

    /// Burning, spent or unburnt at a point, now.
    pub fn state_at(&self, p: Vec2) -> CellState {
        self.grid
            .as_ref()
            .and_then(|g| g.cell_at(p.x, p.y).map(|c| g.state_at(c, self.time)))
            .unwrap_or(CellState::Unburnt)
    }

    /// Whether the cell at `p` is burning now.
    pub fn is_burning(&self, p: Vec2) -> bool {
        self.state_at(p) == CellState::Burning
    }

    /// Quick answers to "may anything burn in this box at `time`?", from the last summary's
    /// tiles when it was taken at `time` with the grid as it is now. Costs a search of the
    /// settle order once, then a bit per tile a box.
    pub fn burning_boxes(&self, time: f32) -> BurningBoxes<'_> {
        BurningBoxes { grid: self.grid.as_ref(), tiles: self.summary_at(time).map(|s| &s.tiles) }
    }

    /// The last summary, if it was taken at `time` and the grid is as it was then: while as
    /// many settled cells have arrived by `time`, everything burning then is the same.
    fn summary_at(&self, time: f32) -> Option<&Summarised> {
        let grid = self.grid.as_ref()?;
        self.summarised.as_ref().filter(|s| s.time == time && grid.settled_by(time) == s.settled)
    }

    /// Whether the cell at a point burns at `time`, for many points one after another, such as
    /// samples along a line: a point in the cell of the point before is answered without
    /// looking again. At [`Self::time`], [`Self::is_burning`].
    pub fn burning_test(&self, time: f32) -> impl FnMut(Vec2) -> bool + '_ {
        // By the cell's index: no division to find its column and row.
        let mut last: Option<(usize, bool)> = None;
        move |p| {
            let Some(grid) = self.grid.as_ref() else { return false };
            let Some(index) = grid.index_at_point(p.x, p.y) else { return false };
            match last {
                Some((before, burning)) if before == index => burning,
                _ => {
                    let burning = grid.burns_at_index(index, time);
                    last = Some((index, burning));
                    burning
                }
            }
        }
    }

    /// The nearest burning point within `within` inches of `p` (cell centre) and its distance.
    /// Cost: the cells in a square of side 2·`within`.
    pub fn nearest_burning(&self, p: Vec2, within: f32) -> Option<(Vec2, f32)> {
        let grid = self.grid.as_ref()?;
        if self.fires.is_empty() || !(within.is_finite() && within >= 0.0) {
            return None;
        }
        let size = grid.cell_size_in();
        let lo = |v: f32| ((v - within) / size).floor().max(0.0) as u32;
        let hi = |v: f32, n: u32| (((v + within) / size).floor().max(0.0) as u32).min(n.saturating_sub(1));
        let mut best: Option<(Vec2, f32)> = None;
        for y in lo(p.y)..=hi(p.y, grid.height_cells()) {
            for x in lo(p.x)..=hi(p.x, grid.width_cells()) {
                let cell = Cell { x, y };
                if grid.state_at(cell, self.time) != CellState::Burning {
                    continue;
                }
                let Some(centre) = grid.cell_centre(cell).map(|(cx, cy)| Vec2::new(cx, cy)) else { continue };
                let d = centre.distance(p);
                if d <= within && best.is_none_or(|(_, b)| d < b) {
                    best = Some((centre, d));
                }
            }
        }
        best
    }

    /// The fire (if any) whose bounds hold `p` and which burns at `p`.
    pub fn fire_at(&self, p: Vec2) -> Option<&FireSummary> {
        if !self.is_burning(p) {
            return None;
        }
        self.fires.iter().find(|f| p.x >= f.min.0 && p.x <= f.max.0 && p.y >= f.min.1 && p.y <= f.max.1)
    }

    /// The front of `scene`. With `keep_paint` (a run no one watches), the grid painted from
    /// its terrain is kept, and `kept`, what the last run kept, is used if it paints the same.
    fn from_scene(scene: &Scene, keep_paint: bool, kept: Option<KeptPaint>) -> Self {
        let mut front = FireFront {
            settings: scene.rules.fire.clone(),
            rounds_per_move: scene.rules.rounds_per_move,
            table: Vec2::new(scene.table.width, scene.table.height),
            terrain: scene.terrain.clone(),
            history: scene.ignitions.clone(),
            saved_state: scene.fire_state.clone(),
            time: scene.clock.moves_played as f32 * f32::from(scene.rules.rounds_per_move),
            ..default()
        };
        if let Some(kept) = kept.filter(|k| keep_paint && k.painted.paints(&front)) {
            front.painted = Some(kept.painted);
            front.spare = kept.grid;
            front.marks = kept.marks;
        }
        front.keep_paint = keep_paint;
        front.assign_fuels();
        if !scene.fires.is_empty() || !scene.ignitions.is_empty() || scene.fire_state.is_some() {
            front.build_grid();
        }
        front
    }

    /// Give each burnable region its fuel index.
    fn assign_fuels(&mut self) {
        let mut last_like: BTreeMap<(u8, bool), u8> = BTreeMap::new();
        for region in &self.terrain {
            let Some(fuel) = fuel_of_material(region.material) else {
                self.fuel_of_region.push(0);
                continue;
            };
            let key = (Fuel::ALL.iter().position(|&f| f == fuel).unwrap_or(0) as u8, region.wet);
            let index = if self.regions.len() < MAX_FUEL_REGIONS {
                self.regions.push(FuelRegion {
                    name: region.name.clone(),
                    fuel,
                    wet: region.wet,
                    cells: 0,
                    building: region.building,
                });
                self.regions.len() as u8
            } else {
                last_like.get(&key).copied().unwrap_or(0)
            };
            if index != 0 {
                last_like.insert(key, index);
            }
            self.fuel_of_region.push(index);
        }
        self.arrivals = vec![Vec::new(); self.regions.len()];
        self.spent = vec![0; self.regions.len()];
    }

    /// Paint the terrain and replay the recorded ignitions up to the scene clock.
    fn build_grid(&mut self) {
        if self.grid.is_some() || self.grid_error.is_some() {
            return;
        }
        let mut grid = match self.painted.as_ref() {
            Some(painted) => {
                for (region, &cells) in self.regions.iter_mut().zip(&painted.cells) {
                    region.cells = cells;
                }
                // The last run's grid, its fire put out, is the painted one: clearing costs the
                // cells that burnt, copying the painted grid costs the table.
                match self.spare.take() {
                    Some(mut spare) => {
                        spare.clear_fire();
                        spare
                    }
                    None => painted.grid.clone(),
                }
            }
            None => match self.paint_grid() {
                Ok(grid) => grid,
                Err(e) => {
                    self.grid_error = Some(e);
                    return;
                }
            },
        };
        if let Some(state) = self.saved_state.take() {
            let restored = if (state.width, state.height) != (grid.width_cells(), grid.height_cells()) {
                Err(format!(
                    "saved fire state is for a {}×{} grid, this one is {}×{}",
                    state.width,
                    state.height,
                    grid.width_cells(),
                    grid.height_cells()
                ))
            } else {
                state.decode().map_err(|e| e.to_string()).and_then(|cells| {
                    grid.restore_with(state.settled_until, cells, &state.exact_fronts).map_err(|e| e.to_string())
                })
            };
            if let Err(e) = restored {
                self.saved_state = Some(state);
                self.grid_error = Some(e);
                return;
            }
        }
        for ignition in &self.history {
            grid.advance_to(ignition.time);
            grid.ignite(ignition.position.0, ignition.position.1, ignition.radius, ignition.time);
        }
        grid.advance_to(self.time);
        self.grid = Some(grid);
        let now = self.time;
        self.count_new_cells(now);
        self.summarise(now);
        self.generation += 1;
    }

    /// Paint the terrain into a new grid, with no fire: fuels, materials and each region's
    /// painted cells.
    fn paint_grid(&mut self) -> Result<FireGrid, String> {
        // A table too large for the cell size asked for gets cells just large enough.
        let cell = fire_front::fitting_cell_size(self.table.x, self.table.y, self.settings.cell_size);
        let mut grid = FireGrid::new(self.table.x, self.table.y, cell).map_err(|e| e.to_string())?;
        // A diagnostic, not a rule: `TABULA_FIRE_FRONT=grid` burns every patch by the grid
        // front, to compare a scene's log with the exact front's (docs/fire.md).
        if std::env::var_os("TABULA_FIRE_FRONT").is_some_and(|v| v == "grid") {
            grid.set_front_solver(fire_front::FrontSolver::Grid);
        }
        // Each cell's fuel index as painted below: its region's place in `regions` plus one.
        let fuel_of_region = &self.fuel_of_region;
        let fuel_of_cell =
            paint_owners(&grid, &self.terrain, 0u8, |region| fuel_of_region.get(region).copied().unwrap_or(0));
        let fuels: Vec<fire_front::Fuel> = self
            .regions
            .iter()
            .enumerate()
            .map(|(i, r)| fire_front::Fuel {
                index: i as u8 + 1,
                spread_rate_in: r.fuel.fire_spread_rate(&self.settings),
                burn_out_rounds: r.fuel.burn_out_rounds(&self.settings) as f32,
            })
            .collect();
        grid.paint_indexed_cells(&fuels, fuel_of_cell).map_err(|e| e.to_string())?;
        // 001 "Fire Spreading": "with the same material": regions of one material are one fuel.
        for (i, region) in self.regions.iter().enumerate() {
            let material = Fuel::ALL.iter().position(|&f| f == region.fuel).unwrap_or(0) as u8 + 1;
            grid.set_material(i as u8 + 1, material);
        }
        let cells = grid.cells_by_fuel_index();
        for (region, &cells) in self.regions.iter_mut().zip(&cells[1..]) {
            region.cells += cells;
        }
        if self.keep_paint {
            // Worked out now so every restart's copy has the contact borders already.
            grid.prepare_contacts();
            self.painted = Some(Arc::new(PaintedGrid {
                table: self.table,
                terrain: self.terrain.clone(),
                settings: self.settings.clone(),
                grid: grid.clone(),
                cells: self.regions.iter().map(|r| r.cells).collect(),
            }));
        }
        Ok(grid)
    }

    /// What the next restart of an unwatched run may use again.
    fn into_kept(self) -> Option<KeptPaint> {
        let painted = self.painted?;
        Some(KeptPaint { painted, grid: self.grid.or(self.spare), marks: self.marks })
    }

    /// Count newly reached and newly spent cells per fuel; returns (newly reached, newly spent)
    /// per fuel index − 1.
    fn count_new_cells(&mut self, now: f32) -> Vec<(usize, usize)> {
        let mut changes = vec![(0usize, 0usize); self.regions.len()];
        let Some(grid) = &self.grid else { return changes };
        let settled = grid.settled_count();
        if let [region] = self.regions.as_slice() {
            // Every settled cell (a burnable one) is the one region's, in the grid's settle
            // order: none is looked up or copied.
            let burn = region.fuel.burn_out_rounds(&self.settings) as f32;
            changes[0].0 = settled - self.seen_cells;
            // The grid's test: spent once `now >= arrival + burn` (times here are finite). It
            // holds for a prefix of the settle order, which is by arrival: halved, not walked.
            let newly_spent = grid.settled_passing_from(self.spent[0], |a| now >= a + burn);
            self.spent[0] += newly_spent;
            changes[0].1 += newly_spent;
            self.seen_cells = settled;
            return changes;
        }
        let fuels = grid.fuel_indices();
        for (index, arrival) in grid.settled_indices_from(self.seen_cells) {
            let Some(i) = usize::from(fuels[index]).checked_sub(1) else { continue };
            let (Some(arrivals), Some(change)) = (self.arrivals.get_mut(i), changes.get_mut(i)) else { continue };
            if arrivals.capacity() == 0 {
                // Room for the whole region once it catches: no copying as it burns.
                arrivals.reserve(self.regions[i].cells);
            }
            arrivals.push(arrival);
            change.0 += 1;
        }
        self.seen_cells = settled;
        for (i, region) in self.regions.iter().enumerate() {
            let burn = region.fuel.burn_out_rounds(&self.settings) as f32;
            let arrivals = &self.arrivals[i];
            // The grid's test: spent once `now >= arrival + burn` (times here are finite).
            while self.spent[i] < arrivals.len() && now >= arrivals[self.spent[i]] + burn {
                self.spent[i] += 1;
                changes[i].1 += 1;
            }
        }
        changes
    }

    /// How many cells of region `i` (fuel index − 1) the fire had reached at the last count:
    /// with one region, every settled cell counted.
    fn reached(&self, i: usize) -> usize {
        if self.regions.len() == 1 { self.seen_cells } else { self.arrivals.get(i).map_or(0, Vec::len) }
    }

    /// Connected burning patches at `now`, in the order of their first cell (row by row), into
    /// [`Self::fires`], and which of them holds each burning cell (for [`Self::patches_of`]).
    /// Costs a bit set per burning cell, the words of the rows they span and their runs in
    /// those rows, not the table: the bit set is a buffer kept between rounds, all clear
    /// between calls.
    fn summarise(&mut self, now: f32) {
        let mut marks = std::mem::take(&mut self.marks);
        let (fires, patches) = self.summarise_with(now, &mut marks);
        let buffer = self.summarised.take().map(|s| s.tiles.bits).unwrap_or_default();
        self.summarised = self.grid.as_ref().map(|grid| {
            let tiles = BurningTiles::of_runs(
                grid.width_cells(),
                grid.height_cells(),
                // With no fire the runs were not labelled again: they are an older round's.
                marks.runs.runs().map(|(run, _)| run).filter(|_| !fires.is_empty()),
                buffer,
            );
            Summarised { time: now, settled: grid.settled_by(now), patches, tiles }
        });
        self.marks = marks;
        self.fires = fires;
    }

    fn summarise_with(&self, now: f32, all: &mut SummaryMarks) -> (Vec<FireSummary>, Vec<fire_front::FireRegion>) {
        let Some(grid) = &self.grid else { return (Vec::new(), Vec::new()) };
        let width = grid.width_cells() as usize;
        let height = grid.height_cells() as usize;
        let SummaryMarks { burning, runs } = all;
        // A bit per cell, row by row: burning. Fires are the 8-connected patches of its runs,
        // found in the order of their first cell. The bits are kept for the next summary.
        grid.mark_burning(burning, now);
        let Some((first_word, last_word)) = burning.set_words().filter(|_| width > 0) else {
            return (Vec::new(), Vec::new());
        };
        let rows = first_word * 64 / width..=((last_word * 64 + 63) / width).min(height - 1);
        let count = runs.label(burning.bits(), width, rows);
        let regions = self.regions.len();
        let mut sums = vec![PatchSums::default(); count];
        // Burning cells of each region in each fire.
        let mut in_fire = vec![0usize; count * regions];
        for (run, fire) in runs.runs() {
            let row_start = run.row as usize * width;
            let cells = row_start + run.from as usize..=row_start + run.to as usize;
            let in_this = &mut in_fire[fire as usize * regions..][..regions];
            if regions == 1 {
                // Every burning cell is the one region's.
                in_this[0] += run.len();
            } else {
                for &fuel in &grid.fuel_indices()[cells] {
                    if let Some(c) = in_this.get_mut(usize::from(fuel).wrapping_sub(1)) {
                        *c += 1;
                    }
                }
            }
            sums[fire as usize].add(run);
        }
        let size = grid.cell_size_in();
        sums.iter()
            .zip(in_fire.chunks(regions.max(1)))
            .map(|(sums, in_fire)| {
                let patch = fire_front::FireRegion::of_cells(
                    sums.cells as usize,
                    (sums.max - sums.min).max_element() + 1,
                    size,
                );
                (self.summary_of(patch, sums.centre(size), (sums.min, sums.max), in_fire), patch)
            })
            .unzip()
    }

    /// The patch burning at `time` that holds each of `cells` (`None` where it does not burn),
    /// as [`FireGrid::burning_regions_of`] floods them: read from the last summary while the
    /// grid is as it was then, else flooded.
    fn patches_of(&self, cells: &[Cell], time: f32) -> Vec<Option<fire_front::FireRegion>> {
        let Some(grid) = self.grid.as_ref() else { return vec![None; cells.len()] };
        match self.summary_at(time) {
            Some(summary) => cells
                .iter()
                .map(|&cell| {
                    (grid.state_at(cell, time) == CellState::Burning).then_some(())?;
                    summary.patches.get(self.marks.runs.patch_at(cell.y, cell.x)? as usize).copied()
                })
                .collect(),
            None => grid.burning_regions_of(cells, time),
        }
    }

    /// One burning patch's summary from its cells: the patch, the mean of their centres, their
    /// bounds in cells and how many of each region's.
    fn summary_of(
        &self,
        patch: fire_front::FireRegion,
        centre: Vec2,
        (min, max): (UVec2, UVec2),
        in_fire: &[usize],
    ) -> FireSummary {
        let size = self.grid.as_ref().map_or(1.0, |g| g.cell_size_in());
        let (area, diameter, span) = (patch.area_in2, patch.diameter_in, patch.span_in);
        // A building frightens by the part of it burning (001 "Small Burning building FV2,
        // House burning FV3, Large building burning FV 4"), only regions marked `building`.
        let building = self
            .regions
            .iter()
            .zip(in_fire)
            .filter(|(r, cells)| **cells > 0 && r.building)
            .map(|(_, &cells)| burning_building_by_area(cells as f32 * size * size, &self.settings))
            .max_by_key(|b| b.fright_value());
        let fright = fire_fright_value(diameter).max(building.map(|b| b.fright_value()));
        let names: Vec<String> =
            self.regions.iter().zip(in_fire).filter(|(_, cells)| **cells > 0).map(|(r, _)| r.name.clone()).collect();
        FireSummary {
            name: names.first().cloned().unwrap_or_default(),
            regions: names,
            area_in2: area,
            diameter_in: diameter,
            span_in: span,
            centre: (centre.x, centre.y),
            min: (min.x as f32 * size, min.y as f32 * size),
            max: ((max.x + 1) as f32 * size, (max.y + 1) as f32 * size),
            fire_strike: burning_fire_strike(diameter, &self.settings),
            fire_strike_vs_persons: person_fire_strike(diameter, building, &self.settings),
            fright_value: fright,
            building,
        }
    }

    /// The burning building a figure in `cell` is caught in at `time`: its region's, when that
    /// region frightens as a building (001 "Small Burning building FV2, House burning FV3 ...").
    /// Sized by the area of that region burning at `time`.
    fn building_at(&self, cell: Cell, time: f32) -> Option<rules::BurningBuilding> {
        let index = self.region_at(cell)?;
        if !self.regions[index].building {
            return None;
        }
        let burning = self.grid.as_ref()?.burning_area_in2(index as u8 + 1, time);
        Some(burning_building_by_area(burning, &self.settings))
    }

    /// The region (fuel index − 1) of the material at a cell.
    fn region_at(&self, cell: Cell) -> Option<usize> {
        self.grid.as_ref()?.fuel_at(cell).map(|f| f.index as usize - 1)
    }
}

/// The fuel a material is, if it burns (001 "Fire Resistances", "Fire Spreading").
pub fn fuel_of_material(m: Material) -> Option<Fuel> {
    match m {
        Material::Thatch => Some(Fuel::Thatch),
        Material::Hay => Some(Fuel::Hay),
        Material::StandingCorn => Some(Fuel::StandingCorn),
        Material::LooseTimber => Some(Fuel::HeapedLooseTimber),
        Material::Brushwood => Some(Fuel::Brushwood),
        Material::Bushes => Some(Fuel::BushesAndFoliage),
        Material::Trees => Some(Fuel::Trees),
        Material::Cloth => Some(Fuel::Cloth),
        Material::Oil => Some(Fuel::Oil),
        Material::SolidTimber => Some(Fuel::SolidTimber),
        Material::HalfTimbered => Some(Fuel::HalfTimberedBuilding),
        Material::Grass
        | Material::Earth
        | Material::StoneFloor
        | Material::Paved
        | Material::BadGround
        | Material::Rock
        | Material::Water => None,
    }
}

/// What `of_region` says of the terrain region on top at each cell centre (`none` where there
/// is none), exactly as [`Shape::contains`] decides at the centre. Regions are painted from the
/// top one down, each row by its spans (scanline; a polygon's edges are swept, not tested per
/// cell), and cells already painted are skipped: the work is the rows and edge crossings of
/// each region plus each cell once, never cells × vertices or regions × cells.
fn paint_owners<T: Copy>(
    grid: &FireGrid,
    terrain: &[scene::Region],
    none: T,
    of_region: impl Fn(usize) -> T,
) -> Vec<T> {
    let (width, height) = (grid.width_cells() as usize, grid.height_cells() as usize);
    let size = grid.cell_size_in();
    let mut owner = vec![none; width * height];
    let mut unpainted = UnpaintedCells::new(width, height);
    let centre = |i: usize| (i as f32 + 0.5) * size;
    let mut crossings: Vec<f32> = Vec::new();
    for (index, region) in terrain.iter().enumerate().rev() {
        let (lo, hi) = bounds(&region.shape);
        let first = ((lo.1 / size - 0.5).floor().max(0.0)) as usize;
        let last = ((hi.1 / size).ceil().max(0.0) as usize).min(height.saturating_sub(1));
        let value = of_region(index);
        let paint = |unpainted: &mut UnpaintedCells, owner: &mut [T], y: usize, a: usize, b: usize| {
            unpainted.paint(y, a, b, |from, to| owner[y * width + from..=y * width + to].fill(value));
        };
        // A row already painted across the region's bounds (a cell wider, for rounding) holds
        // nothing more for it.
        let left = first_centre_at_least(lo.0, size, width).saturating_sub(1);
        let right = last_centre_at_most(hi.0, size, width).map_or(0, |r| (r + 1).min(width.saturating_sub(1)));
        if width == 0 || left > right {
            continue;
        }
        match &region.shape {
            Shape::Rect { min, max } => {
                for y in first..=last {
                    let cy = centre(y);
                    if !unpainted.any_within(y, left, right) {
                        continue;
                    }
                    if cy >= min.1 && cy <= max.1 {
                        let a = first_centre_at_least(min.0, size, width);
                        let b = last_centre_at_most(max.0, size, width);
                        if let (Some(b), true) = (b, a < width) {
                            paint(&mut unpainted, &mut owner, y, a, b);
                        }
                    }
                }
            }
            Shape::Circle { center, radius } => {
                for y in first..=last {
                    if !unpainted.any_within(y, left, right) {
                        continue;
                    }
                    let cy = centre(y);
                    let dy = cy - center.1;
                    let inside = |x: usize| {
                        let dx = centre(x) - center.0;
                        dx * dx + dy * dy <= radius * radius
                    };
                    let half = (radius * radius - dy * dy).max(0.0).sqrt();
                    let a = first_centre_at_least(center.0 - half, size, width);
                    let b = last_centre_at_most(center.0 + half, size, width).unwrap_or(0);
                    if let Some((a, b)) = exact_span(a, b, width, inside) {
                        paint(&mut unpainted, &mut owner, y, a, b);
                    }
                }
            }
            Shape::Polygon { points } => {
                if points.len() < 3 {
                    continue;
                }
                // Edges as `point_in_polygon` walks them: (poly[i], poly[i - 1]), by lowest y.
                let n = points.len();
                let mut edges: Vec<((f32, f32), (f32, f32))> =
                    (0..n).map(|i| (points[i], points[(i + n - 1) % n])).collect();
                edges.sort_by(|a, b| a.0.1.min(a.1.1).total_cmp(&b.0.1.min(b.1.1)));
                let mut next_edge = 0;
                let mut active: Vec<((f32, f32), (f32, f32))> = Vec::new();
                for y in first..=last {
                    let cy = centre(y);
                    // An edge crosses the row when exactly one end lies above its centre line.
                    while next_edge < edges.len() && edges[next_edge].0.1.min(edges[next_edge].1.1) <= cy {
                        active.push(edges[next_edge]);
                        next_edge += 1;
                    }
                    active.retain(|e| e.0.1.max(e.1.1) > cy);
                    if !unpainted.any_within(y, left, right) {
                        continue;
                    }
                    crossings.clear();
                    for &((xi, yi), (xj, yj)) in &active {
                        if (yi > cy) != (yj > cy) {
                            crossings.push((xj - xi) * (cy - yi) / (yj - yi) + xi);
                        }
                    }
                    crossings.sort_by(f32::total_cmp);
                    // A centre x is inside when an odd number of crossings lie beyond it (x < c).
                    let m = crossings.len();
                    for k in 0..=m {
                        if (m - k).is_multiple_of(2) {
                            continue;
                        }
                        let a = if k == 0 { 0 } else { first_centre_at_least(crossings[k - 1], size, width) };
                        let b = if k == m { Some(width - 1) } else { last_centre_below(crossings[k], size, width) };
                        if let (Some(b), true) = (b, a < width) {
                            paint(&mut unpainted, &mut owner, y, a, b);
                        }
                    }
                }
            }
        }
    }
    owner
}

/// Per row, the runs of cells not yet painted, in order, so each cell is painted once however
/// many regions cover it. A row costs its runs, not its cells.
struct UnpaintedCells {
    rows: Vec<Vec<(u32, u32)>>,
}

impl UnpaintedCells {
    fn new(width: usize, height: usize) -> Self {
        let row = if width == 0 { Vec::new() } else { vec![(0, width as u32 - 1)] };
        Self { rows: vec![row; height] }
    }

    /// Whether any cell of row `row` from `a` to `b` inclusive is unpainted.
    fn any_within(&self, row: usize, a: usize, b: usize) -> bool {
        let runs = &self.rows[row];
        runs.get(first_reaching(runs, a)).is_some_and(|&(lo, _)| lo as usize <= b)
    }

    /// Calls `paint(from, to)` for each run of unpainted cells of row `row` from `a` to `b`
    /// inclusive, and marks them painted.
    fn paint(&mut self, row: usize, a: usize, b: usize, mut paint: impl FnMut(usize, usize)) {
        let runs = &mut self.rows[row];
        let mut k = first_reaching(runs, a);
        while let Some(&(lo, hi)) = runs.get(k) {
            if lo as usize > b {
                break;
            }
            let (from, to) = (lo.max(a as u32), hi.min(b as u32));
            paint(from as usize, to as usize);
            // What is left of the run: cells before `from`, cells after `to` (then `to` is `b`).
            match (lo < from, hi > to) {
                (false, false) => {
                    runs.remove(k);
                }
                (true, false) => {
                    runs[k].1 = from - 1;
                    k += 1;
                }
                (false, true) => {
                    runs[k].0 = to + 1;
                    break;
                }
                (true, true) => {
                    runs[k].1 = from - 1;
                    runs.insert(k + 1, (to + 1, hi));
                    break;
                }
            }
        }
    }
}

/// Where in `runs` (in order, apart) the first run reaching column `a` or beyond is.
fn first_reaching(runs: &[(u32, u32)], a: usize) -> usize {
    runs.partition_point(|&(_, hi)| (hi as usize) < a)
}

/// The first column whose centre is at least `v` (`width` if none).
fn first_centre_at_least(v: f32, size: f32, width: usize) -> usize {
    let centre = |i: usize| (i as f32 + 0.5) * size;
    let guess = (v / size - 0.5).ceil();
    let mut x = if guess.is_nan() || guess < 0.0 { 0 } else { (guess as usize).min(width) };
    while x > 0 && centre(x - 1) >= v {
        x -= 1;
    }
    while x < width && centre(x) < v {
        x += 1;
    }
    x
}

/// The last column whose centre is at most `v`, if any.
fn last_centre_at_most(v: f32, size: f32, width: usize) -> Option<usize> {
    let centre = |i: usize| (i as f32 + 0.5) * size;
    let first_beyond = {
        let guess = (v / size - 0.5).floor() + 1.0;
        let mut x = if guess.is_nan() || guess < 0.0 { 0 } else { (guess as usize).min(width) };
        while x > 0 && centre(x - 1) > v {
            x -= 1;
        }
        while x < width && centre(x) <= v {
            x += 1;
        }
        x
    };
    first_beyond.checked_sub(1)
}

/// The last column whose centre is below `v`, if any.
fn last_centre_below(v: f32, size: f32, width: usize) -> Option<usize> {
    first_centre_at_least(v, size, width).checked_sub(1)
}

/// The cells of a row where `inside` holds, known to be one run within a cell or two of `a..=b`.
fn exact_span(a: usize, b: usize, width: usize, inside: impl Fn(usize) -> bool) -> Option<(usize, usize)> {
    if width == 0 {
        return None;
    }
    let (lo, hi) = (a.min(b).saturating_sub(2), (a.max(b) + 2).min(width - 1));
    let start = (lo..=hi).find(|&x| inside(x))?;
    let mut start = start;
    while start > 0 && inside(start - 1) {
        start -= 1;
    }
    let mut end = (start..=hi).rev().find(|&x| inside(x)).unwrap_or(start);
    while end + 1 < width && inside(end + 1) {
        end += 1;
    }
    Some((start, end))
}

fn bounds(shape: &Shape) -> ((f32, f32), (f32, f32)) {
    let points = shape.points();
    let lo = points.iter().fold((f32::INFINITY, f32::INFINITY), |a, p| (a.0.min(p.0), a.1.min(p.1)));
    let hi = points.iter().fold((f32::NEG_INFINITY, f32::NEG_INFINITY), |a, p| (a.0.max(p.0), a.1.max(p.1)));
    (lo, hi)
}

/// Spawn the scene's fires and build the fire front.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    for (i, f) in scene.fires.iter().enumerate() {
        world.spawn((placed_bundle(i as u32, &f.name, f.position), Fire(f.clone())));
    }
    // A run no one watches keeps the painted grid of the last restart (see `PaintedGrid`).
    let keep_paint = world.contains_resource::<super::sight::UnwatchedRun>();
    let kept = if keep_paint { world.remove_resource::<FireFront>().and_then(FireFront::into_kept) } else { None };
    world.insert_resource(FireFront::from_scene(scene, keep_paint, kept));
}

/// Write the fires and the ignitions so far back into a scene.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    scene.fires = sorted::<Fire>(world).into_iter().map(|(_, f, _)| f.0).collect();
    if let Some(front) = world.get_resource::<FireFront>() {
        match &front.grid {
            // Every ignition so far is in the grid's arrival times (none: no state to keep).
            Some(grid) => {
                scene.ignitions = Vec::new();
                scene.fire_state = grid.reached().next().is_some().then(|| scene::fire_state::FireState {
                    exact_fronts: grid.exact_fronts(),
                    ..scene::fire_state::FireState::encode(
                        grid.width_cells(),
                        grid.height_cells(),
                        grid.cell_size_in(),
                        grid.settled_until(),
                        grid.reached(),
                    )
                });
            }
            None => {
                scene.ignitions = front.history.clone();
                scene.fire_state = front.saved_state.clone();
            }
        }
    }
}

/// The figures fire can catch, in a query of their own (they never carry a [`Fire`]).
type FigureQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static SceneOrder,
        &'static Name,
        &'static Figure,
        &'static TablePosition,
        &'static Swept,
        &'static mut Conditions,
        Option<&'static crate::sim::magic::Cursed>,
    ),
    Without<Fire>,
>;

/// A scene fire as the round reads it, in scene order.
type FireRow<'a> = (&'a SceneOrder, &'a Name, Mut<'a, Fire>, Mut<'a, TablePosition>);

/// The round being resolved: its number in the move and on the scene clock (1-based), and the
/// scene time it runs from and to.
#[derive(Debug, Clone, Copy)]
struct RoundTimes {
    in_move: u8,
    round: u32,
    start: f32,
    end: f32,
}

impl RoundTimes {
    /// Round `in_move` of the clock's move: round `R` runs from time `R − 1` to `R`.
    fn of(clock: &MoveClock, in_move: u8, rounds_per_move: u8) -> Self {
        let rounds_per_move = u32::from(rounds_per_move.max(1));
        let round = clock.move_number.saturating_sub(1).saturating_mul(rounds_per_move) + u32::from(in_move);
        let (start, end) = ((round - 1) as f32, round as f32);
        RoundTimes { in_move, round, start, end }
    }
}

/// What one round of fire does (see the module documentation for the order).
fn fire_round(
    referee: Referee,
    mut front: ResMut<FireFront>,
    mut requests: ResMut<Messages<IgniteRequest>>,
    mut fires: Query<(&SceneOrder, &Name, &mut Fire, &mut TablePosition), Without<Figure>>,
    mut figures: FigureQuery,
    mut groups: Query<(&SceneOrder, &mut SleepingGroup)>,
    sleepers: Res<SleepersRules>,
) {
    let Referee { clock, mut dice, mut log } = referee;
    let Some(round_in_move) = clock.round else { return };
    let times = RoundTimes::of(&clock, round_in_move, front.rounds_per_move);
    let requested: Vec<IgniteRequest> = requests.drain().collect();
    let live_fire = fires.iter().any(|(_, _, f, _)| f.0.lit_round.is_none() && !f.0.out);
    if !front_to_round_start(&mut front, !requested.is_empty() || live_fire, times.start) {
        return;
    }
    let front = &mut *front;
    let settings = front.settings.clone();

    // 1. Ignition requests, then the scene's fires and igniters.
    let mut ignitions =
        Ignitions { front, settings: &settings, dice: &mut dice, log: &mut log, clock: &clock, time: times.start };
    ignitions.requested(requested);
    let mut fires = in_scene_order(fires.iter_mut(), |item| *item.0);
    // Borrowed names: a crowded table copied every figure's name each round.
    let figure_positions: Vec<(&str, Vec2)> = figures.iter().map(|(_, n, _, p, ..)| (n.as_str(), p.0)).collect();
    ignitions.scene_fires(&mut fires, &figure_positions, times.round);
    ignitions.front.igniters = igniter_frights(&fires);

    // 2. Fire meeting another material: one roll per (burning region, touched region) a round.
    ignitions.contact_ignitions();

    // Who is caught crossing fire is found before step 3 (see `figures_crossing_fire`).
    let mut rolled = std::mem::take(&mut front.rolled_in_move);
    if rolled.0 != clock.move_number {
        rolled = (clock.move_number, BTreeSet::new());
    }
    let crossed = figures_crossing_fire(front, &figures, times, &settings, &rolled.1);

    // 3. The front advances to the end of the round, where the fires are summarised: step 4
    // reads the size of the patch a person stands in from the summary (nobody moves in a
    // round's fire) instead of flooding it again.
    let (changes, fires_before) = advance_front(front, times.end);

    // 4. Figures caught by fire.
    let caught = Caught { settings: &settings, rolled: &mut rolled.1, dice: &mut dice, log: &mut log, clock: &clock };
    let caught = figures_in_fire(front, &mut figures, times, crossed, caught);
    sleepers_in_fire(front, &mut groups, times.end, &sleepers.0, caught);
    front.rolled_in_move = rolled;

    // 5. What caught, what burnt out, and each fire.
    let changed = log_region_changes(front, &changes, &mut log, &clock);
    log_fires(front, fires_before, &mut log, &clock);
    if changed || fires_before != front.fires.len() {
        front.generation += 1;
    }
}

/// Build the grid when something may light it (`light`), and bring the front to the round's
/// `start`. False when there is no grid: no fire this round.
fn front_to_round_start(front: &mut ResMut<FireFront>, light: bool, start: f32) -> bool {
    if light {
        front.build_grid();
    }
    if front.grid.is_none() {
        return false;
    }
    if let Some(grid) = front.grid.as_mut() {
        grid.advance_to(start);
    }
    front.time = start;
    true
}

/// The scene's igniters not yet alight whose fright value counts (FS − 3 above 0), for the herds.
fn igniter_frights(fires: &[FireRow]) -> Vec<IgniterFright> {
    fires
        .iter()
        .filter(|(_, _, f, _)| f.0.lit_round.is_none() && !f.0.out)
        .filter_map(|(_, name, f, _)| {
            let strike = match f.0.igniter {
                Some(Igniter::Held { kind, .. } | Igniter::Dropped { kind, .. }) => kind.fire_strike(),
                _ => return None,
            };
            let fright_value = rules::fright_value_of_fire_strike(strike)?;
            Some(IgniterFright { name: name.to_string(), position: f.0.position, fright_value })
        })
        .collect()
}

/// Step 3: the front advances to `end`, the round's end. Returns the cells newly burning and
/// newly spent in each region, and how many fires burnt before.
fn advance_front(front: &mut FireFront, end: f32) -> (Vec<(usize, usize)>, usize) {
    if let Some(grid) = front.grid.as_mut() {
        grid.advance_to(end);
    }
    front.time = end;
    let changes = front.count_new_cells(end);
    let fires_before = front.fires.len();
    front.summarise(end);
    (changes, fires_before)
}

/// The diameter of the burning patch holding `cell` at `time` (0 where it does not burn).
fn patch_diameter(front: &FireFront, cell: fire_front::Cell, time: f32) -> f32 {
    front.patches_of(&[cell], time).pop().flatten().map_or(0.0, |r| r.diameter_in)
}

/// Whether fire can catch a figure this round: not when dead, nor when it has rolled this
/// move already under `person_rolls: per_move`.
fn may_catch(settings: &FireSettings, rolled: &BTreeSet<String>, name: &str, conditions: &Conditions) -> bool {
    !(conditions.0.iter().any(|c| c.kind == ConditionKind::Dead)
        || (settings.person_rolls == PersonFireRolls::PerMove && rolled.contains(name)))
}

/// Step 4's first half, found before the front advances (step 3): in a move's first round,
/// the figures whose path this move crossed ground burning at the round's start, each (in
/// scene order) with the point and the diameter of the patch burning there. Once this round's
/// ignitions are made, what burns at the start is settled, so the patches are those of the last
/// round's summary (unless something caught this round), looked up once for the whole crowd:
/// a crowd in one big fire must not flood it per figure.
fn figures_crossing_fire(
    front: &FireFront,
    figures: &FigureQuery,
    times: RoundTimes,
    settings: &FireSettings,
    rolled: &BTreeSet<String>,
) -> Vec<Option<(Vec2, f32)>> {
    let figures = in_scene_order(figures.iter(), |item| *item.0);
    if times.in_move != 1 {
        return vec![None; figures.len()];
    }
    let boxes = front.burning_boxes(times.start);
    let crossed: Vec<Option<Vec2>> = figures
        .iter()
        .map(|(_, name, _, _, swept, conditions, _)| {
            may_catch(settings, rolled, name.as_str(), conditions)
                .then(|| swept_burning_point(front, boxes, &swept.segments, times.start))
                .flatten()
        })
        .collect();
    let cell_of = |at: Vec2| front.grid.as_ref().and_then(|g| g.cell_at(at.x, at.y));
    let cells: Vec<fire_front::Cell> = crossed.iter().flatten().filter_map(|&p| cell_of(p)).collect();
    let mut patches = if cells.is_empty() { Vec::new() } else { front.patches_of(&cells, times.start) }.into_iter();
    crossed
        .into_iter()
        .map(|at| {
            let at = at?;
            let diameter = cell_of(at).and_then(|_| patches.next().flatten()).map_or(0.0, |r| r.diameter_in);
            Some((at, diameter))
        })
        .collect()
}

/// Step 4: figures caught by fire: those `crossed` found crossing it at the round's start,
/// else those standing in burning ground at its end (the patches there were summarised in
/// step 3). `caught.rolled`: who has rolled already this move.
fn figures_in_fire<'a>(
    front: &FireFront,
    figures: &mut FigureQuery,
    times: RoundTimes,
    crossed: Vec<Option<(Vec2, f32)>>,
    caught: Caught<'a>,
) -> Caught<'a> {
    let RoundTimes { start, end, .. } = times;
    let Caught { settings, rolled, dice, log, clock } = caught;
    let figures = in_scene_order(figures.iter_mut(), |item| *item.0);
    // Where, when and how each is caught; the patch's diameter when crossing.
    let caught_at: Vec<Option<(Vec2, f32, &str, Option<f32>)>> = figures
        .iter()
        .zip(crossed)
        .map(|((_, name, _, position, _, conditions, _), crossed)| {
            let caught = match crossed {
                Some((at, diameter)) => Some((at, start, "path_crossed_fire", Some(diameter))),
                None => front.is_burning(position.0).then_some((position.0, end, "stands_in_fire", None)),
            };
            // Asked only of those the fire reaches: a crowd's names are not looked up.
            caught.filter(|_| may_catch(settings, rolled, name.as_str(), conditions))
        })
        .collect();
    for ((_, name, figure, _, _, mut conditions, cursed), caught) in figures.into_iter().zip(caught_at) {
        let Some((at, when, how, crossed_diameter)) = caught else { continue };
        rolled.insert(name.to_string());
        // The fire's size where it caught them, and the building burning there: FV + 3 (001
        // "Fire Strike -3 = Fright Value of fire").
        let cell = front.grid.as_ref().and_then(|g| g.cell_at(at.x, at.y));
        let diameter = match (cell, crossed_diameter) {
            (None, _) => 0.0,
            (Some(_), Some(diameter)) => diameter,
            (Some(cell), None) => patch_diameter(front, cell, when),
        };
        let building = cell.and_then(|c| front.building_at(c, when));
        let caught = PersonCaught {
            name: name.as_str(),
            armour: figure.0.armour,
            at,
            diameter,
            building,
            cursed: cursed.is_some(),
        };
        let event = person_in_fire(caught, &mut conditions.0, settings, &mut *dice).field("how", how);
        log.push(clock, event);
    }
    Caught { settings, rolled, dice, log, clock }
}

/// A person caught by fire, as step 4 found them.
struct PersonCaught<'a> {
    name: &'a str,
    armour: crate::rules::character::Armour,
    at: Vec2,
    diameter: f32,
    building: Option<rules::BurningBuilding>,
    /// Under the evil eye (001 "Lay an evil eye Curse").
    cursed: bool,
}

/// 001 "Persons": D6 + FS (+1 unclothed), the burn kept by `fire.burns` (house rule); the
/// `person_in_fire` event, tagged with the house rules that decided it.
fn person_in_fire(
    p: PersonCaught,
    conditions: &mut Vec<scene::Condition>,
    settings: &FireSettings,
    dice: &mut SimDice,
) -> LogEvent {
    let fire_strike = person_fire_strike(p.diameter, p.building, settings);
    let mut result = resolve_person_in_fire(fire_strike, p.armour, dice);
    // 001 "Lay an evil eye Curse": the person's own D6 (the fire strike is its factor).
    if p.cursed {
        crate::rules::magic::apply_evil_eye(&mut result.roll, true);
        result.outcome = rules::person_in_fire_band(result.roll.total);
    }
    let condition = burn_condition(result.outcome);
    let burns_decided = condition.is_some() && burns_rule_decides(conditions, settings.burns);
    let kept = condition.clone().is_some_and(|c| keep_burn(conditions, c, settings.burns));
    let mut event = LogEvent::new("fire", "person_in_fire", p.name)
        .roll(result.roll)
        .outcome(result.outcome)
        .field("at", point_to_thousandths(p.at))
        .field("fire_diameter", round_to_thousandths(p.diameter))
        .field("building", p.building.map(|b| b.id()))
        .field("me_and_mo", result.outcome.me_and_mo_modifier())
        .field("condition", condition.as_ref().filter(|_| kept).map(|c| c.name.clone()))
        .house_rule("fire.person_rolls");
    if burns_decided {
        event = event.house_rule("fire.burns");
    }
    event
}

/// What rolling for persons caught by fire needs: the fire rules, who has rolled this move,
/// the dice and the log.
struct Caught<'a> {
    settings: &'a FireSettings,
    rolled: &'a mut BTreeSet<String>,
    dice: &'a mut SimDice,
    log: &'a mut EventLog,
    clock: &'a MoveClock,
}

/// Step 4, sleepers (001 "Persons"): each member of a sleeping group lying in burning ground at
/// the round's `end` (an investigator where it stands) rolls D6 + FS, +1 unclothed: asleep they
/// wear nothing until dressed (`armour_after_rounds`). Burns are kept on the member.
fn sleepers_in_fire(
    front: &FireFront,
    groups: &mut Query<(&SceneOrder, &mut SleepingGroup)>,
    end: f32,
    sleepers: &SleepersSettings,
    caught: Caught,
) {
    let Caught { settings, rolled, dice, log, clock } = caught;
    let Some(grid) = front.grid.as_ref() else { return };
    let groups = in_scene_order(groups.iter_mut(), |item| *item.0);
    for (_, mut group) in groups {
        let home = vec2(group.0.position);
        let group_name = group.0.name.clone();
        for member in group.0.members.iter_mut() {
            let sheet = &mut member.0;
            let (at, how) = match sheet.state {
                SleeperState::Investigating { at, .. } => (vec2(at), "investigating_in_fire"),
                _ => (home, "lies_in_fire"),
            };
            if sheet.conditions.iter().any(|c| c.kind == ConditionKind::Dead) || !front.is_burning(at) {
                continue;
            }
            let key = format!("{group_name}\u{1f}{}", sheet.name);
            if settings.person_rolls == PersonFireRolls::PerMove && rolled.contains(&key) {
                continue;
            }
            rolled.insert(key);
            let cell = grid.cell_at(at.x, at.y);
            let diameter = cell.map_or(0.0, |c| patch_diameter(front, c, end));
            let building = cell.and_then(|c| front.building_at(c, end));
            let armour = armour_after_rounds(sheet.armour, sheet.dressing_rounds.unwrap_or(0), sleepers);
            // A sleeping group's member is not a figure: the evil eye is a figure's (`Cursed`).
            let caught = PersonCaught { name: &sheet.name, armour, at, diameter, building, cursed: false };
            let event = person_in_fire(caught, &mut sheet.conditions, settings, &mut *dice)
                .field("how", how)
                .field("group", &group_name);
            log.push(clock, event);
        }
    }
}

/// How bad a burn condition is (001 "Persons": minor 1 < bad 2 < severe 3 < crippled 4 <
/// apparently dead 5 < definitely dead 6); `None` for conditions fire does not give.
fn burn_severity(condition: &scene::Condition) -> Option<u8> {
    match condition.kind {
        ConditionKind::Burns => Some(match condition.me_and_mo {
            i32::MIN..=-3 => 3,
            -2 => 2,
            _ => 1,
        }),
        ConditionKind::Crippled => Some(4),
        ConditionKind::ApparentlyDead => Some(5),
        ConditionKind::Dead => Some(6),
        _ => None,
    }
}

/// Whether the house rule `fire.burns` decides what becomes of a new burn on a figure with
/// `conditions`: under `worst_kept` a figure already burnt has the new burn dropped or its
/// milder burns replaced (under `summed`, or with no burn yet, the burn is simply put on).
fn burns_rule_decides(conditions: &[scene::Condition], stacking: BurnStacking) -> bool {
    stacking == BurnStacking::WorstKept && conditions.iter().any(|c| burn_severity(c).is_some())
}

/// Put a new burn on a figure (house rule `fire.burns`): `summed` keeps every burn;
/// `worst_kept` drops it unless it is worse than every burn the figure has, and then it
/// replaces the milder ones. True when it was put on; never past the cap the scene check
/// enforces ([`scene::put_condition`]).
fn keep_burn(conditions: &mut Vec<scene::Condition>, new: scene::Condition, stacking: BurnStacking) -> bool {
    if stacking == BurnStacking::WorstKept {
        let rank = burn_severity(&new);
        if conditions.iter().filter_map(burn_severity).any(|old| Some(old) >= rank) {
            return false;
        }
        conditions.retain(|c| burn_severity(c).is_none());
    }
    scene::put_condition(conditions, new) != scene::ConditionPut::Dropped
}

/// Step 5, each region where cells caught or were spent this round: whether it caught, spreads
/// or burnt out. Returns whether any region changed.
fn log_region_changes(front: &FireFront, changes: &[(usize, usize)], log: &mut EventLog, clock: &MoveClock) -> bool {
    let mut changed = false;
    for (i, (new, spent)) in changes.iter().copied().enumerate() {
        if new == 0 && spent == 0 {
            continue;
        }
        changed = true;
        let region = &front.regions[i];
        let reached = front.reached(i);
        let burning = reached - front.spent[i];
        let cell_area = front.grid.as_ref().map_or(0.0, |g| g.cell_size_in().powi(2));
        let outcome = if new > 0 && reached == new {
            FireOutcome::Caught
        } else if burning == 0 {
            FireOutcome::BurntOut
        } else {
            FireOutcome::Spreading
        };
        log.push(
            clock,
            LogEvent::new("fire", "region_burning", region.name.clone())
                .outcome(outcome)
                .field("material", region.fuel.id())
                .field("newly_burning_in2", round_to_thousandths(new as f32 * cell_area))
                .field("newly_spent_in2", round_to_thousandths(spent as f32 * cell_area))
                .field("burning_in2", round_to_thousandths(burning as f32 * cell_area))
                .field("reached_in2", round_to_thousandths(reached as f32 * cell_area))
                .field("region_in2", round_to_thousandths(region.cells as f32 * cell_area)),
        );
    }
    changed
}

/// Step 5, each fire burning at the round's end (its size and fright value), and `fires_out`
/// when the last of the `fires_before` went out.
fn log_fires(front: &FireFront, fires_before: usize, log: &mut EventLog, clock: &MoveClock) {
    for fire in &front.fires {
        log.push(
            clock,
            LogEvent::new("fire", "fire_burning", fire.name.clone())
                .outcome(FireOutcome::Burning)
                .field("regions", &fire.regions)
                .field("area_in2", round_to_thousandths(fire.area_in2))
                .field("diameter_in", round_to_thousandths(fire.diameter_in))
                .field("span_in", round_to_thousandths(fire.span_in))
                .field("centre", (round_to_thousandths(fire.centre.0), round_to_thousandths(fire.centre.1)))
                .field("fire_strike", fire.fire_strike)
                .field("fire_strike_vs_persons", fire.fire_strike_vs_persons)
                .field("fright_value", fire.fright_value)
                .field("building", fire.building.map(|b| b.id())),
        );
    }
    if fires_before > 0 && front.fires.is_empty() {
        log.push(clock, LogEvent::new("fire", "fires_out", "fire").outcome(FireOutcome::Out));
    }
}

/// What a round's ignition attempts share: the front they may light, the fire rules, the dice,
/// the log, and the moment they happen (the round's start).
struct Ignitions<'a> {
    front: &'a mut FireFront,
    settings: &'a FireSettings,
    dice: &'a mut SimDice,
    log: &'a mut EventLog,
    clock: &'a MoveClock,
    time: f32,
}

impl Ignitions<'_> {
    /// Step 1, first: the ignition requests (traps), in the order written.
    fn requested(&mut self, requested: Vec<IgniteRequest>) {
        for request in requested {
            let at = request.position;
            self.try_ignite(at, request.fire_strike, request.rounds_held, &request.source);
        }
    }

    /// Step 1, then: the scene's fires and igniters in scene order, in round `round`. A fire
    /// with no igniter catches without a roll; a thrown igniter is rolled once; a held or
    /// dropped one is rolled each round, +1 per two rounds held in one place.
    fn scene_fires(&mut self, fires: &mut [FireRow], figure_positions: &[(&str, Vec2)], round: u32) {
        let start = self.time;
        for (_, name, fire, position) in fires.iter_mut() {
            let fire = &mut fire.0;
            if fire.lit_round.is_some() || fire.out {
                continue;
            }
            let at = vec2(fire.position);
            match fire.igniter.clone() {
                None => {
                    let lit = self.front.ignite(at, fire.diameter / 2.0, start, name.as_str());
                    let region = lit.and_then(|l| self.front.regions.get(l.fuel as usize - 1)).map(|r| r.name.clone());
                    let mut event = LogEvent::new("fire", "fire_lit", name.as_str())
                        .field("position", fire.position)
                        .field("diameter", fire.diameter);
                    if lit.is_some() {
                        fire.lit_round = Some(round);
                        event = event.outcome(FireOutcome::Burning).field("region", region);
                    } else {
                        fire.out = true;
                        event = event.outcome(FireOutcome::NothingToBurn);
                    }
                    self.log.push(self.clock, event);
                }
                Some(Igniter::Thrown { kind }) => {
                    let outcome = self.try_ignite(at, kind.fire_strike(), 0, name.as_str());
                    if outcome == Some(IgnitionOutcome::Ignited) {
                        fire.lit_round = Some(round);
                    } else {
                        fire.out = true;
                    }
                }
                Some(Igniter::Held { kind, by, since_round }) => {
                    let Some(holder) = figure_positions.iter().find(|(n, _)| *n == by).map(|(_, p)| *p) else {
                        fire.out = true;
                        continue;
                    };
                    // Moved to another spot: held there from this round.
                    let mut since = since_round.unwrap_or(round);
                    if holder != at {
                        fire.position = point(holder);
                        position.0 = holder;
                        if since_round.is_some() {
                            since = round;
                        }
                    }
                    fire.igniter = Some(Igniter::Held { kind, by, since_round: Some(since) });
                    // A `since_round` from a file later than now counts no rounds (never a wrap).
                    let outcome =
                        self.try_ignite(holder, kind.fire_strike(), round.saturating_sub(since), name.as_str());
                    if outcome == Some(IgnitionOutcome::Ignited) {
                        fire.lit_round = Some(round);
                    }
                }
                Some(Igniter::Dropped { kind, since_round }) => {
                    let since = since_round.unwrap_or(round);
                    fire.igniter = Some(Igniter::Dropped { kind, since_round: Some(since) });
                    match self.try_ignite(at, kind.fire_strike(), round.saturating_sub(since), name.as_str()) {
                        Some(IgnitionOutcome::Ignited) => fire.lit_round = Some(round),
                        None => fire.out = true,
                        Some(_) => {}
                    }
                }
            }
        }
    }

    /// Roll D6 + FS − FR against the material at `at` and set it alight on 1+. `None` when
    /// there is nothing there to burn (no roll is made).
    fn try_ignite(&mut self, at: Vec2, fire_strike: i32, rounds_held: u32, source: &str) -> Option<IgnitionOutcome> {
        let grid = self.front.grid.as_ref()?;
        let cell = grid.cell_at(at.x, at.y);
        let state = cell.map(|c| grid.state_at(c, self.time));
        let region = cell.and_then(|c| self.front.region_at(c));
        let event = LogEvent::new("fire", "ignition", source).field("position", point(at)).field("source", source);
        let (Some(region), Some(CellState::Unburnt)) = (region, state) else {
            let why = if state == Some(CellState::Burning) {
                FireOutcome::AlreadyBurning
            } else {
                FireOutcome::NothingToBurn
            };
            self.log.push(self.clock, event.outcome(why));
            return None;
        };
        let (fuel, wet, region_name) =
            (self.front.regions[region].fuel, self.front.regions[region].wet, self.front.regions[region].name.clone());
        let result = resolve_ignition(fire_strike, rounds_held, fuel, wet, self.settings, self.dice);
        let outcome = result.outcome;
        self.log.push(
            self.clock,
            event
                .roll(result.roll)
                .outcome(outcome)
                .field("region", &region_name)
                .field("material", fuel.id())
                .field("wet", wet)
                .field("rounds_held", rounds_held),
        );
        if outcome == IgnitionOutcome::Ignited {
            self.front.ignite(at, IGNITED_RADIUS, self.time, source);
        }
        Some(outcome)
    }

    /// 001 "Fire Starting Rules" / "Fire Spreading": where fire meets another material, the burning
    /// edge is an igniter of its size held against it. One roll per (burning region, touched region)
    /// pair a round, at the touched cell in contact longest, +1 per two whole rounds of contact.
    /// Touched cells that their own region's fire is already reaching are left to it.
    fn contact_ignitions(&mut self) {
        let time = self.time;
        let Some(grid) = self.front.grid.as_ref() else { return };
        let mut fronts: BTreeMap<(u8, u8), fire_front::Contact> = BTreeMap::new();
        for contact in grid.contacts(time) {
            if grid.tentative_arrival(contact.to_cell).is_some() {
                continue;
            }
            fronts
                .entry((contact.from_fuel, contact.to_fuel))
                .and_modify(|c| {
                    if contact.since_time < c.since_time {
                        *c = contact;
                    }
                })
                .or_insert(contact);
        }
        // Each pair's burning patch, flooded once for all the pairs after it until a cell
        // catches (an exact front settles what catches at once, which can join a patch).
        let from_cells: Vec<Cell> = fronts.values().map(|c| c.from_cell).collect();
        let (mut patches, mut patches_from) = (Vec::new(), None);
        for (k, ((from, to), contact)) in fronts.into_iter().enumerate() {
            let Some(grid) = self.front.grid.as_ref() else { return };
            // The touched cell may have caught from another pair's roll this round.
            if grid.state_at(contact.to_cell, time) != CellState::Unburnt
                || grid.tentative_arrival(contact.to_cell).is_some()
            {
                continue;
            }
            let first = *patches_from.get_or_insert_with(|| {
                patches = self.front.patches_of(&from_cells[k..], time);
                k
            });
            let diameter = patches.get(k - first).copied().flatten().map_or(0.0, |r| r.diameter_in);
            let fire_strike = burning_fire_strike(diameter, self.settings);
            let rounds = (time - contact.since_time + 1e-3).floor().max(0.0) as u32;
            let (from_region, to_region) =
                (&self.front.regions[from as usize - 1], &self.front.regions[to as usize - 1]);
            let result = resolve_ignition(fire_strike, rounds, to_region.fuel, to_region.wet, self.settings, self.dice);
            // Caught on the table: a touched cell along the table's edge can have its centre past
            // it, and the recorded ignition must load again (the same cell catches).
            let at =
                grid.cell_centre(contact.to_cell).map_or((0.0, 0.0), |c| point(onto_table(vec2(c), self.front.table)));
            let source = format!("{} → {}", from_region.name, to_region.name);
            self.log.push(
                self.clock,
                LogEvent::new("fire", "ignition", to_region.name.clone())
                    .roll(result.roll)
                    .outcome(result.outcome)
                    .field("source", &source)
                    .field("from_region", &from_region.name)
                    .field("region", &to_region.name)
                    .field("material", to_region.fuel.id())
                    .field("wet", to_region.wet)
                    .field("position", (round_to_thousandths(at.0), round_to_thousandths(at.1)))
                    .field("fire_diameter", round_to_thousandths(diameter))
                    .field("rounds_in_contact", rounds),
            );
            // "1+ ignited (up to 0.5")": the touched material catches 0.5" across, centred on the
            // touched cell (that material only).
            if result.outcome == IgnitionOutcome::Ignited {
                self.front.ignite(Vec2::new(at.0, at.1), IGNITED_RADIUS, time, &source);
                patches_from = None;
            }
        }
    }
}

/// The first point of a swept path that lies in burning ground at `time`, sampled every half
/// cell.
fn swept_burning_point(front: &FireFront, boxes: BurningBoxes, segments: &[(Vec2, Vec2)], time: f32) -> Option<Vec2> {
    let grid = front.grid.as_ref()?;
    let step = grid.cell_size_in() / 2.0;
    let mut burning = front.burning_test(time);
    let margin = Vec2::splat(grid.cell_size_in());
    for &(a, b) in segments {
        // Samples lie in the segment's box (a cell covers their rounding).
        if !boxes.may_burn_within(a.min(b) - margin, a.max(b) + margin) {
            continue;
        }
        let samples = ((a.distance(b) / step).ceil() as usize).min(1_000_000);
        for k in 0..=samples {
            let p = a.lerp(b, if samples == 0 { 0.0 } else { k as f32 / samples as f32 });
            if burning(p) {
                return Some(p);
            }
        }
    }
    None
}

/// The lasting effect of a burning (001 "Persons": Me & Mo deductions; crippled, apparently and
/// definitely dead keep the figure where it lies).
fn burn_condition(outcome: PersonInFireOutcome) -> Option<scene::Condition> {
    let condition = |kind: ConditionKind, name: &str, me_and_mo: i32, immobile: bool| scene::Condition {
        name: name.to_string(),
        kind,
        move_penalty: 0.0,
        moves_left: None,
        immobile,
        me_and_mo,
        healing: None,
    };
    match outcome {
        PersonInFireOutcome::Unharmed | PersonInFireOutcome::SingedClothes => None,
        PersonInFireOutcome::MinorBurns => Some(condition(ConditionKind::Burns, "minor burns", -1, false)),
        PersonInFireOutcome::BadBurns => Some(condition(ConditionKind::Burns, "bad burns", -2, false)),
        PersonInFireOutcome::SevereBurns => Some(condition(ConditionKind::Burns, "severe burns", -3, false)),
        PersonInFireOutcome::CrippledInAgony => {
            Some(condition(ConditionKind::Crippled, "crippled in agony (fire)", 0, true))
        }
        PersonInFireOutcome::ApparentlyDead => {
            Some(condition(ConditionKind::ApparentlyDead, "apparently dead (fire)", 0, true))
        }
        PersonInFireOutcome::DefinitelyDead => Some(condition(ConditionKind::Dead, DEAD_CONDITION, 0, true)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burn_conditions_carry_their_kind() {
        let kind = |outcome| burn_condition(outcome).map(|c| c.kind);
        assert_eq!(kind(PersonInFireOutcome::SingedClothes), None);
        assert_eq!(kind(PersonInFireOutcome::BadBurns), Some(ConditionKind::Burns));
        assert_eq!(kind(PersonInFireOutcome::CrippledInAgony), Some(ConditionKind::Crippled));
        assert_eq!(kind(PersonInFireOutcome::ApparentlyDead), Some(ConditionKind::ApparentlyDead));
        assert_eq!(kind(PersonInFireOutcome::DefinitelyDead), Some(ConditionKind::Dead));
        // Scene files from before kinds: the dead's name implies dead.
        assert_eq!(ConditionKind::implied_by(DEAD_CONDITION), ConditionKind::Dead);
    }

    #[test]
    fn keep_worst_burn() {
        let burns = |outcomes: &[PersonInFireOutcome], stacking: BurnStacking| {
            let mut conditions = vec![scene::Condition {
                name: "strained ankle".into(),
                kind: ConditionKind::Other,
                move_penalty: 1.0,
                moves_left: None,
                immobile: false,
                me_and_mo: 0,
                healing: None,
            }];
            let kept: Vec<bool> = outcomes
                .iter()
                .map(|&o| burn_condition(o).is_some_and(|c| keep_burn(&mut conditions, c, stacking)))
                .collect();
            (kept, conditions)
        };
        let sequence =
            [PersonInFireOutcome::MinorBurns, PersonInFireOutcome::BadBurns, PersonInFireOutcome::MinorBurns];
        // Worst kept: minor, then bad replaces it, then the milder minor is dropped: −2.
        let (kept, conditions) = burns(&sequence, BurnStacking::WorstKept);
        assert_eq!(kept, [true, true, false]);
        let names: Vec<&str> = conditions.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["strained ankle", "bad burns"], "other conditions stay");
        assert_eq!(conditions.iter().map(|c| c.me_and_mo).sum::<i32>(), -2);
        // Summed: −1 − 2 − 1 = −4.
        let (kept, conditions) = burns(&sequence, BurnStacking::Summed);
        assert_eq!(kept, [true, true, true]);
        assert_eq!(conditions.iter().map(|c| c.me_and_mo).sum::<i32>(), -4);
        // An equal burn is not kept again; crippled replaces severe burns; nothing replaces dead.
        let (kept, _) = burns(&[PersonInFireOutcome::BadBurns, PersonInFireOutcome::BadBurns], BurnStacking::WorstKept);
        assert_eq!(kept, [true, false]);
        let (_, conditions) =
            burns(&[PersonInFireOutcome::SevereBurns, PersonInFireOutcome::CrippledInAgony], BurnStacking::WorstKept);
        assert_eq!(conditions.last().map(|c| c.kind), Some(ConditionKind::Crippled));
        assert_eq!(conditions.iter().filter(|c| c.kind == ConditionKind::Burns).count(), 0);
        let (kept, _) =
            burns(&[PersonInFireOutcome::DefinitelyDead, PersonInFireOutcome::ApparentlyDead], BurnStacking::WorstKept);
        assert_eq!(kept, [true, false]);
    }

    #[test]
    fn every_burnable_material_has_its_fuel() {
        let pairs = [
            (Material::Thatch, Fuel::Thatch),
            (Material::Hay, Fuel::Hay),
            (Material::StandingCorn, Fuel::StandingCorn),
            (Material::LooseTimber, Fuel::HeapedLooseTimber),
            (Material::Brushwood, Fuel::Brushwood),
            (Material::Bushes, Fuel::BushesAndFoliage),
            (Material::Trees, Fuel::Trees),
            (Material::Cloth, Fuel::Cloth),
            (Material::Oil, Fuel::Oil),
            (Material::SolidTimber, Fuel::SolidTimber),
            (Material::HalfTimbered, Fuel::HalfTimberedBuilding),
        ];
        for (material, fuel) in pairs {
            assert_eq!(fuel_of_material(material), Some(fuel), "{material:?}");
        }
        for material in [
            Material::Grass,
            Material::Earth,
            Material::StoneFloor,
            Material::Paved,
            Material::BadGround,
            Material::Rock,
            Material::Water,
        ] {
            assert_eq!(fuel_of_material(material), None, "{material:?}");
        }
    }

    /// A table of one region counts its reached and spent cells from the grid's settle order;
    /// with a second region (never lit) it takes the general path, cell by cell. Round by
    /// round, both count the same for the burning region, and every cell is spent at the end.
    #[test]
    fn one_region_counts_what_the_general_path_counts() {
        let scene = |second: &str| {
            crate::sim::testing::scene_from_str(&format!(
                "(version: 1, table: (width: 12, height: 8),
                  terrain: [
                    (name: \"scrub\", material: brushwood, shape: Rect(min: (0, 0), max: (10, 8))),
                    {second}
                  ],
                  ignitions: [(time: 0, position: (4, 3), radius: 0.25, source: \"test\")])"
            ))
        };
        let mut one = FireFront::from_scene(&scene(""), false, None);
        let mut two = FireFront::from_scene(
            &scene("(name: \"far hay\", material: hay, shape: Rect(min: (11, 0), max: (12, 8))),"),
            false,
            None,
        );
        assert_eq!((one.regions.len(), two.regions.len()), (1, 2));
        // The cells caught at once were counted when the grid was built.
        let (mut reached, mut spent) = (one.reached(0), one.spent[0]);
        assert!(reached > 0 && spent == 0);
        for round in 1..=40 {
            let end = round as f32;
            let (a, _) = advance_front(&mut one, end);
            let (b, _) = advance_front(&mut two, end);
            assert_eq!((a[0], one.reached(0), one.spent[0]), (b[0], two.reached(0), two.spent[0]), "round {round}");
            assert_eq!(b[1], (0, 0));
            reached += a[0].0;
            spent += a[0].1;
        }
        let cells = one.regions[0].cells;
        assert_eq!((reached, spent, one.reached(0), one.spent[0]), (cells, cells, cells, cells), "burnt out by 40");
        assert!(one.arrivals[0].is_empty(), "no arrival is copied for one region");
    }

    /// The patch holding a cell, read from the summary, is what a flood of it measures, for
    /// every cell; once a cell has caught by the summary's time, or at another time, the patch
    /// is flooded again. Summarising leaves its bits clear.
    #[test]
    fn patches_read_from_the_summary_match_a_flood_of_each_cell() {
        let scene = crate::sim::testing::scene_from_str(
            "(version: 1, table: (width: 12, height: 6),
              terrain: [
                (name: \"a\", material: brushwood, shape: Rect(min: (0, 0), max: (6, 6))),
                (name: \"b\", material: hay, shape: Rect(min: (6, 0), max: (12, 6))),
                (name: \"road\", material: paved, shape: Rect(min: (5.8, 0), max: (6.2, 6))),
              ],
              fires: [(name: \"f\", position: (2, 2)), (name: \"g\", position: (9, 3))])",
        );
        let mut front = FireFront::from_scene(&scene, false, None);
        let grid = front.grid.as_mut().expect("built for a scene with a fire");
        assert!(grid.ignite(2.0, 2.0, 0.5, 0.0).is_some() && grid.ignite(9.0, 3.0, 0.5, 0.0).is_some());
        grid.advance_to(1.5);
        front.time = 1.5;
        let grid = front.grid.as_ref().expect("grid");
        let cells: Vec<Cell> = (0..grid.width_cells() * grid.height_cells())
            .map(|i| Cell { x: i % grid.width_cells(), y: i / grid.width_cells() })
            .chain([Cell { x: 1000, y: 0 }, Cell { x: 0, y: 1000 }])
            .collect();
        let floods = |front: &FireFront, time: f32| -> Vec<Option<fire_front::FireRegion>> {
            let grid = front.grid.as_ref().expect("grid");
            cells.iter().map(|&c| grid.burning_region(c, time)).collect()
        };
        for _ in 0..2 {
            front.summarise(1.5);
            assert_eq!(front.fires.len(), 2, "two fires, the road between them");
            assert!(front.summarised.is_some());
            let read = front.patches_of(&cells, 1.5);
            assert_eq!(read, floods(&front, 1.5));
            assert!(read.iter().flatten().count() > 150, "{}", read.iter().flatten().count());
            for (fire, patch) in front.fires.iter().zip(&front.summarised.as_ref().expect("summarised").patches) {
                assert_eq!(
                    (fire.area_in2, fire.diameter_in, fire.span_in),
                    (patch.area_in2, patch.diameter_in, patch.span_in)
                );
            }
            // The bits kept for the next summary are the cells burning at this one.
            let grid = front.grid.as_ref().expect("grid");
            let bits = front.marks.burning.bits();
            for &cell in &cells[..cells.len() - 2] {
                let index = grid.cell_index(cell).expect("on the grid");
                let marked = bits[index / 64] >> (index % 64) & 1 == 1;
                assert_eq!(marked, grid.state_at(cell, 1.5) == CellState::Burning, "{cell:?}");
            }
            // Each fire's centre is the mean of its cells' centres, and its regions those its
            // cells lie in, from the cells themselves.
            let grid = front.grid.as_ref().expect("grid");
            for (number, fire) in front.fires.iter().enumerate() {
                let (mut count, mut sum, mut regions) = (0.0f64, (0.0f64, 0.0f64), BTreeSet::new());
                for &cell in &cells[..cells.len() - 2] {
                    let index = grid.cell_index(cell).expect("on the grid");
                    if grid.state_at(cell, 1.5) == CellState::Burning
                        && front.marks.runs.patch_at(cell.y, cell.x) == Some(number as u32)
                    {
                        let (x, y) = grid.cell_centre(cell).expect("on the grid");
                        count += 1.0;
                        sum = (sum.0 + f64::from(x), sum.1 + f64::from(y));
                        regions.insert(front.regions[usize::from(grid.fuel_index_of(index)) - 1].name.clone());
                    }
                }
                assert!(count > 0.0);
                let mean = (sum.0 / count, sum.1 / count);
                let off = (f64::from(fire.centre.0) - mean.0).abs().max((f64::from(fire.centre.1) - mean.1).abs());
                assert!(off < 1e-5, "fire {number}: {:?} against {mean:?}", fire.centre);
                assert_eq!(fire.regions.iter().cloned().collect::<BTreeSet<_>>(), regions);
            }
        }
        // Another time is flooded, not read.
        assert_eq!(front.patches_of(&cells, 1.0), floods(&front, 1.0));
        // A new fire at the summary's time that joins the two: read from the summary, it would
        // still be two patches.
        let grid = front.grid.as_mut().expect("grid");
        assert!(grid.ignite(6.0, 3.0, 0.1, 1.5).is_none(), "the road does not burn");
        assert!(grid.ignite(5.5, 3.0, 0.4, 1.5).is_some() && grid.ignite(6.5, 3.0, 0.4, 1.5).is_some());
        grid.advance_to(1.5);
        let before = front.summarised.as_ref().expect("summarised").settled;
        assert!(front.grid.as_ref().expect("grid").settled_by(1.5) > before, "cells caught by 1.5");
        assert_eq!(front.patches_of(&cells, 1.5), floods(&front, 1.5));
    }

    /// A run marks every tile it touches and no other, in rows of tiles across several words.
    #[test]
    fn runs_mark_exactly_the_tiles_they_touch() {
        let (width, height) = (8 * 150 + 5, 8 * 3);
        let runs = [
            (0, 0, 0),
            (1, 7, 8),
            (2, 500, 519),
            (5, 503, 1204),
            (9, 511, 512),
            (17, 8 * 63, 8 * 64 + 7),
            (23, 0, 1204),
        ]
        .map(|(row, from, to)| fire_front::runs::Run { row, from, to });
        let tiles = BurningTiles::of_runs(width, height, runs.iter().copied(), Vec::new());
        for ty in 0..tiles.up as u32 {
            for tx in 0..tiles.across as u32 {
                let touched = runs.iter().any(|r| r.row / 8 == ty && r.from / 8 <= tx && tx <= r.to / 8);
                let tile = UVec2::new(tx * 8, ty * 8);
                assert_eq!(tiles.any_within(tile, tile), touched, "tile ({tx}, {ty})");
            }
        }
    }

    /// A box may burn when a tile of its cells holds a burning cell at the summary's time, and
    /// only then; at any other time, or once more cells have caught, it may.
    #[test]
    fn boxes_clear_of_burning_tiles_do_not_burn() {
        let scene = crate::sim::testing::scene_from_str(
            "(version: 1, table: (width: 12, height: 6),
              terrain: [(name: \"a\", material: brushwood, shape: Rect(min: (0, 0), max: (12, 6)))],
              fires: [(name: \"f\", position: (2, 2)), (name: \"g\", position: (9, 4))])",
        );
        let mut front = FireFront::from_scene(&scene, false, None);
        let grid = front.grid.as_mut().expect("built for a scene with a fire");
        assert!(grid.ignite(2.0, 2.0, 0.5, 0.0).is_some() && grid.ignite(9.0, 4.0, 0.3, 0.0).is_some());
        grid.advance_to(1.5);
        front.time = 1.5;
        // Before any summary nothing is known: every box may burn.
        assert!(front.burning_boxes(1.5).may_burn_within(Vec2::new(11.0, 0.0), Vec2::new(11.5, 0.5)));
        front.summarise(1.5);
        let grid = front.grid.as_ref().expect("grid");
        let (size, tile) = (grid.cell_size_in(), BurningTiles::CELLS);
        let burning_tile = |tx: u32, ty: u32| {
            (ty * tile..(ty + 1) * tile).any(|y| {
                (tx * tile..(tx + 1) * tile).any(|x| {
                    let cell = Cell { x, y };
                    grid.cell_index(cell).is_some() && grid.state_at(cell, 1.5) == CellState::Burning
                })
            })
        };
        let (mut clear, mut burning) = (0, 0);
        for (x0, y0, w, h) in
            (0..26).flat_map(|i| (0..14).flat_map(move |j| [(i, j, 1, 1), (i, j, 3, 2), (i, j, 9, 7)]))
        {
            let lo = Vec2::new(x0 as f32 * 0.5 - 0.3, y0 as f32 * 0.5 - 0.3);
            let hi = lo + Vec2::new(w as f32 * 0.37, h as f32 * 0.41);
            let cell = |v: f32, n: u32| ((v.max(0.0) / size) as u32).min(n - 1) / tile;
            let (tx0, tx1) = (cell(lo.x, grid.width_cells()), cell(hi.x, grid.width_cells()));
            let (ty0, ty1) = (cell(lo.y, grid.height_cells()), cell(hi.y, grid.height_cells()));
            let on_grid = hi.x >= 0.0 && hi.y >= 0.0 && lo.x < 12.0 && lo.y < 6.0;
            let expected = on_grid && (ty0..=ty1).any(|ty| (tx0..=tx1).any(|tx| burning_tile(tx, ty)));
            assert_eq!(front.burning_boxes(1.5).may_burn_within(lo, hi), expected, "{lo} {hi}");
            if expected { burning += 1 } else { clear += 1 }
        }
        assert!(clear > 100 && burning > 100, "{clear} clear, {burning} burning");
        assert!(
            !front.burning_boxes(1.5).may_burn_within(Vec2::new(-3.0, -3.0), Vec2::new(-1.0, -1.0)),
            "off the table"
        );
        // Another time is not known.
        assert!(front.burning_boxes(1.0).may_burn_within(Vec2::new(11.0, 0.0), Vec2::new(11.5, 0.5)));
        // Cells caught since the summary: not known either.
        assert!(!front.burning_boxes(1.5).may_burn_within(Vec2::new(11.0, 0.0), Vec2::new(11.5, 0.5)));
        let grid = front.grid.as_mut().expect("grid");
        assert!(grid.ignite(11.2, 0.2, 0.1, 1.5).is_some());
        grid.advance_to(1.5);
        assert!(front.burning_boxes(1.5).may_burn_within(Vec2::new(11.0, 0.0), Vec2::new(11.5, 0.5)));
    }

    #[test]
    fn regions_paint_in_order_each_with_its_own_fuel() {
        let scene = crate::sim::testing::scene_from_str(
            "(version: 1, table: (width: 10, height: 4),
              terrain: [
                (name: \"a\", material: thatch, shape: Rect(min: (0, 0), max: (5, 4))),
                (name: \"b\", material: thatch, shape: Rect(min: (5, 0), max: (10, 4)), wet: true),
                (name: \"road\", material: paved, shape: Rect(min: (4, 0), max: (4.5, 4))),
                (name: \"stack\", material: hay, shape: Circle(center: (8, 2), radius: 1)),
              ],
              fires: [(name: \"f\", position: (1, 1))])",
        );
        let front = FireFront::from_scene(&scene, false, None);
        let grid = front.grid().expect("built for a scene with a fire");
        let region = |x: f32, y: f32| {
            grid.cell_at(x, y).and_then(|c| front.region_at(c)).map(|i| front.regions()[i].name.as_str())
        };
        assert_eq!(region(1.0, 1.0), Some("a"));
        assert_eq!(region(4.2, 1.0), None, "the road lies on top and does not burn");
        assert_eq!(region(6.0, 1.0), Some("b"));
        assert_eq!(region(8.0, 2.0), Some("stack"), "later regions lie on top");
        assert!(front.regions()[1].wet && !front.regions()[0].wet);
        // 0.1" cells: region a's 50 columns less the road's 5, 40 rows.
        assert_eq!(front.regions()[0].cells, 45 * 40);
    }

    /// The scanline painter agrees with testing every cell centre against every region.
    #[test]
    fn scanline_painting_matches_the_centre_test_cell_for_cell() {
        use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(16);
        for case in 0..60 {
            let (w, h) = (rng.random_range(1.0..30.0f32), rng.random_range(1.0..30.0f32));
            let size = [0.1, 0.25, 0.3, 1.0][case % 4];
            let grid = FireGrid::new(w, h, size).expect("grid");
            let point = |rng: &mut Xoshiro256PlusPlus| {
                // Off the table sometimes, and on cell centres and borders sometimes.
                let snap = |v: f32| match case % 3 {
                    0 => v,
                    1 => (v / size).round() * size,
                    _ => ((v / size).floor() + 0.5) * size,
                };
                (snap(rng.random_range(-3.0..w + 3.0)), snap(rng.random_range(-3.0..h + 3.0)))
            };
            let terrain: Vec<scene::Region> = (0..rng.random_range(1..8))
                .map(|i| {
                    let shape = match rng.random_range(0..3) {
                        0 => {
                            let (a, b) = (point(&mut rng), point(&mut rng));
                            Shape::Rect { min: (a.0.min(b.0), a.1.min(b.1)), max: (a.0.max(b.0), a.1.max(b.1)) }
                        }
                        1 => Shape::Circle { center: point(&mut rng), radius: rng.random_range(0.0..12.0) },
                        // Convex or not, self-crossing, repeated points, flat: all by the even-odd rule.
                        _ => Shape::Polygon { points: (0..rng.random_range(3..40)).map(|_| point(&mut rng)).collect() },
                    };
                    scene::Region {
                        name: format!("r{i}"),
                        material: Material::Thatch,
                        shape,
                        wet: false,
                        building: false,
                    }
                })
                .collect();
            let owners = paint_owners(&grid, &terrain, u32::MAX, |region| region as u32);
            let width = grid.width_cells() as usize;
            for (i, &owner) in owners.iter().enumerate() {
                let centre = (((i % width) as f32 + 0.5) * size, ((i / width) as f32 + 0.5) * size);
                let expected = terrain.iter().rposition(|r| r.shape.contains(centre)).map_or(u32::MAX, |r| r as u32);
                assert_eq!(owner, expected, "case {case}: cell {i} at {centre:?}");
            }
        }
    }

    /// Issue 15: on every example scene, the exact front and the grid front it replaces agree
    /// cell for cell within the grid front's bound (src/sim/fire_front.rs). Each scene burns
    /// twice: as its own fires and fire traps lit it in a 40-move run (contacts with other
    /// materials included), and from a point inside every burnable region at once. Patches
    /// that are not convex take the grid front in both, so agree exactly.
    #[test]
    fn exact_and_grid_fronts_agree_on_the_example_scenes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let mut paths: Vec<_> = std::fs::read_dir(&dir).expect("scenes/").map(|e| e.expect("entry").path()).collect();
        paths.retain(|p| p.extension().is_some_and(|e| e == "ron"));
        paths.sort();
        let moves = 40;
        let (mut runs_burnt, mut regions_lit, mut compared, mut differing) = (0, 0, 0, 0);
        for path in &paths {
            let scene = crate::scene::load_scene(path).expect("an example scene loads");
            let mut unlit = scene.clone();
            unlit.fires.clear();
            unlit.ignitions.clear();
            unlit.fire_state = None;
            let painted = FireFront::from_scene(&unlit, false, None).paint_grid().expect("the scene paints");
            let until = (scene.clock.moves_played + moves) as f32 * f32::from(scene.rules.rounds_per_move);
            // The first of a few seeds whose run lights a fire (a fire trap is not always sprung).
            let played = (1..=6).find_map(|seed| {
                let mut sim = crate::sim::Simulation::unwatched(&scene, seed);
                sim.step_moves(moves);
                let caught = sim.world().resource::<FireFront>().caught().to_vec();
                (!caught.is_empty()).then_some(caught)
            });
            // Every burnable region, from the middle one of its cells (row by row) at time 0.
            let mut cells_of: BTreeMap<u8, Vec<Cell>> = BTreeMap::new();
            for y in 0..painted.height_cells() {
                for x in 0..painted.width_cells() {
                    if let Some(fuel) = painted.fuel_at(Cell { x, y }) {
                        cells_of.entry(fuel.index).or_default().push(Cell { x, y });
                    }
                }
            }
            let everywhere: Vec<FireIgnition> = cells_of
                .values()
                .filter_map(|cells| painted.cell_centre(cells[cells.len() / 2]))
                .map(|position| FireIgnition { time: 0.0, position, radius: 0.25, source: "test".into() })
                .collect();
            runs_burnt += usize::from(played.is_some());
            regions_lit += everywhere.len();
            for ignitions in played.iter().chain([&everywhere]) {
                let (cells, differ) = compare_fronts(&painted, ignitions, until, &path.display().to_string());
                compared += cells;
                differing += differ;
            }
        }
        assert!(runs_burnt >= 1 && regions_lit >= 10, "{runs_burnt} runs burnt, {regions_lit} regions lit");
        assert!(compared > 100_000, "{compared} cells compared");
        // The fronts differ somewhere, so the exact one did run.
        assert!(differing > 1000, "{differing} of {compared} cells differ");
    }

    /// Burns `painted` from `ignitions` until `until` by the exact and by the grid front and
    /// checks every cell against the grid front's bound: (cells reached by both, of them
    /// reached at different times).
    fn compare_fronts(painted: &FireGrid, ignitions: &[FireIgnition], until: f32, name: &str) -> (usize, usize) {
        let stencil_bound = fire_front::stencil_slowdown();
        let burn = |solver| {
            let mut grid = painted.clone();
            grid.set_front_solver(solver);
            for ignition in ignitions {
                grid.advance_to(ignition.time);
                grid.ignite(ignition.position.0, ignition.position.1, ignition.radius, ignition.time);
            }
            grid.advance_to(until);
            grid
        };
        let (exact, reference) = (burn(fire_front::FrontSolver::Exact), burn(fire_front::FrontSolver::Grid));
        let size = painted.cell_size_in();
        let (mut compared, mut differing) = (0, 0);
        for y in 0..painted.height_cells() {
            for x in 0..painted.width_cells() {
                let cell = Cell { x, y };
                let Some(fuel) = painted.fuel_at(cell) else { continue };
                // The grid front spreads from the ignition's cell centre, up to half a cell's
                // diagonal off the point, and is slower by at most its stencil bound plus a few
                // cells where a region's edge bends its paths.
                let early = 0.7072 * size / fuel.spread_rate_in + 1e-3;
                let late = |a: f32| a * stencil_bound + 4.0 * size / fuel.spread_rate_in;
                match (exact.arrival(cell), reference.arrival(cell)) {
                    (Some(a), Some(b)) => {
                        assert!(b >= a - early && b <= late(a), "{name} {cell:?}: exact {a}, grid {b}");
                        compared += 1;
                        differing += usize::from(a != b);
                    }
                    // Reached by one front only by the end: near the other's edge.
                    (Some(a), None) => assert!(late(a) >= until, "{name} {cell:?}: exact {a}, grid not by {until}"),
                    (None, Some(b)) => assert!(b + early >= until, "{name} {cell:?}: grid {b}, exact not by {until}"),
                    (None, None) => {}
                }
            }
        }
        (compared, differing)
    }
}
