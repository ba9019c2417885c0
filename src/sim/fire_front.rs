//! Fire-front geometry: when the fire reaches each point of the table (001 "Fire Spreading":
//! "Once ignited fire spreads at the FSR (Fire Spread Rate) per round with the same material").
//!
//! The table is rasterised into square cells. Each cell holds a fuel index (0 = does not burn),
//! a spread rate (inches per round) and a burn-out time (rounds). Times are in rounds (`f32`;
//! 1 move = 2 rounds, RULES-NOTES "Time and movement").
//!
//! Inside one convex patch of one material the front is exact: a cell's arrival is the straight
//! distance from the ignition disc over the FSR (module `exact`; most scene regions are convex).
//! Elsewhere (a patch that is not convex, one lit more than `MAX_EXACT_IGNITIONS` (32) times,
//! or one restored from a save without its ignitions) arrival times come from Dijkstra's
//! algorithm over a 32-neighbour stencil, so a front in uniform fuel is round (error bound at
//! `STENCIL_FIRST_OCTANT`), not the diamond or octagon a 4/8-neighbour grid stepped once a round
//! gives. The heap is kept between calls, so stepping round by round costs only the cells settled
//! in that round; an exact patch costs the cells in that round's ring of each of its ignitions.
//!
//! The front never enters a different material by itself ("with the same material"): where a
//! burning cell touches burnable cells of another material it reports a [`Contact`]; the caller
//! rolls ignition (001 "Fire Starting Rules") and on success calls [`FireGrid::ignite`]. Fuel
//! indices of one material ([`FireGrid::set_material`]; by default each index is its own) are
//! one fuel to the front: it spreads from one into the other without a contact.
//!
//! Cost of the grid front: O(N·K + H·log H) for N cells reached, K = 32 stencil edges, H heap
//! pushes (a few per cell); of an exact patch: O(N) for each of its ignitions.

mod exact;
pub mod runs;
pub mod textbook;

pub use exact::ExactFront;
use exact::settle_key;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BinaryHeap};

/// Most cells a grid may hold (4096 × 4096); each costs about 18 bytes once burnt.
pub const MAX_CELLS: usize = 1 << 24;

/// Most cells a scene's fire grid holds (1024 × 1024): bounds the work of one move, since a table
/// burnt out in a single move settles every cell once (about half a second on 2 cores). Larger
/// tables get larger cells ([`fitting_cell_size`]).
pub const MAX_SCENE_CELLS: usize = 1 << 20;

/// Most cells along either side of a scene's fire grid: bounds the rows a region is painted over.
pub const MAX_CELLS_ACROSS: u32 = 4096;

/// The cell size a scene's grid over `width_in` × `height_in` inches uses when `wanted_in` is
/// asked for: the wanted size, or just large enough to keep within [`MAX_SCENE_CELLS`] and
/// [`MAX_CELLS_ACROSS`].
pub fn fitting_cell_size(width_in: f32, height_in: f32, wanted_in: f32) -> f32 {
    let by_area = (width_in * height_in / MAX_SCENE_CELLS as f32).sqrt() * 1.001;
    let by_side = width_in.max(height_in) / MAX_CELLS_ACROSS as f32 * 1.001;
    wanted_in.max(by_area).max(by_side)
}

/// Cells beyond an ignition disc that get exact (Euclidean) start times, in cells. Close to the
/// ignition point the stencil's angular error is largest relative to the distance covered.
const SEED_MARGIN_CELLS: f32 = 2.0;

/// First-octant stencil directions; the other octants follow by symmetry (32 offsets in all).
///
/// Why 32 and not 16 neighbours: in uniform fuel the grid distance to a far cell at angle θ
/// between two adjacent stencil directions u, v (Δ apart) is |T|·(sin(θ−θu) + sin(θv−θ)) / sin Δ,
/// largest at the bisector, where it is |T| / cos(Δ/2). The burnt radius after r rounds is then
/// FSR·r·cos(Δ/2) there, i.e. short by 1 − cos(Δ/2). Every adjacent pair here has determinant 1,
/// so every lattice cell is a whole-number sum of the pair and grid distances meet this bound
/// exactly (no extra constant term).
/// - 16 neighbours, directions 0°, 26.57°, 45°: Δ ≤ 26.57°, 1 − cos(13.28°) = 2.68%: fails 2%.
/// - 32 neighbours, directions 0°, 18.43°, 26.57°, 33.69°, 45°: Δ ≤ 18.43°,
///   1 − cos(9.22°) = 1.29% in the worst direction; 0.38% at 22.5°, 0 at multiples of 45°.
const STENCIL_FIRST_OCTANT: [(i32, i32); 5] = [(1, 0), (3, 1), (2, 1), (3, 2), (1, 1)];

/// 1 / cos(Δ/2) for the stencil's widest gap between adjacent directions (Δ = 18.43°, from
/// (1, 0) to (3, 1)): how much longer than a straight line a grid distance can be in uniform
/// fuel, the bound tests hold the grid front to.
#[cfg(test)]
pub(crate) fn stencil_slowdown() -> f32 {
    1.0 / (18.434_95f32 / 2.0).to_radians().cos()
}

/// How a grid works out arrival times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FrontSolver {
    /// Exact in convex patches of one material, the grid front elsewhere: what the product runs.
    #[default]
    Exact,
    /// The grid front everywhere: the reference the exact front is tested against.
    Grid,
}

/// Why a grid could not be made or painted.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FireGridError {
    /// A size or the cell size is not finite, or not above 0.
    #[error(
        "fire grid size must be finite and above 0 (width {width_in}\", height {height_in}\", cell {cell_size_in}\")"
    )]
    InvalidSize {
        /// The grid's width asked for, in inches.
        width_in: f32,
        /// The grid's height asked for, in inches.
        height_in: f32,
        /// The cell size asked for, in inches.
        cell_size_in: f32,
    },
    /// The grid would need more than [`MAX_CELLS`] cells.
    #[error("fire grid would need {cells} cells, more than the {max} allowed: use larger cells")]
    TooManyCells {
        /// The cells it would need.
        cells: u64,
        /// The most allowed.
        max: usize,
    },
    /// A saved fire state does not fit this grid.
    #[error("saved fire state: {0}")]
    InvalidState(String),
    /// A fuel painted into the grid is not valid.
    #[error("invalid fuel at ({x_in}\", {y_in}\"): {reason}")]
    InvalidFuel {
        /// The centre of the cell it was painted in: x, in inches.
        x_in: f32,
        /// The centre of the cell it was painted in: y, in inches.
        y_in: f32,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// A burnable material as painted into cells.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fuel {
    /// Material id, 1..=255 (paint `None` for cells that do not burn).
    pub index: u8,
    /// Fire spread rate, inches per round (001 "Fire Spreading": Oil 1.0" … Solid timber 0.1").
    pub spread_rate_in: f32,
    /// Rounds a cell burns before it is spent (house defaults in RULES-NOTES "Fire burn-out").
    pub burn_out_rounds: f32,
}

/// Why a fuel cannot be painted when its index already burns otherwise.
const FUEL_CONFLICT: &str = "its fuel index is painted elsewhere with another spread rate or burn-out";

impl Fuel {
    /// Whether `other` is the same index with other numbers.
    fn conflicts_with(&self, other: &Fuel) -> bool {
        self.index == other.index
            && (self.spread_rate_in.to_bits(), self.burn_out_rounds.to_bits())
                != (other.spread_rate_in.to_bits(), other.burn_out_rounds.to_bits())
    }

    fn problem(&self) -> Option<&'static str> {
        if self.index == 0 {
            Some("fuel index 0 means \"does not burn\": paint None instead")
        } else if !(self.spread_rate_in.is_finite() && self.spread_rate_in > 0.0) {
            Some("spread rate must be finite and above 0")
        } else if !(self.burn_out_rounds.is_finite() && self.burn_out_rounds > 0.0) {
            Some("burn-out rounds must be finite and above 0")
        } else {
            None
        }
    }
}

/// A cell by column (x, from the left) and row (y).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    /// Column, from the left edge.
    pub x: u32,
    /// Row, from the bottom edge.
    pub y: u32,
}

crate::rules::named_enum! {
    /// What a cell is doing at a given time.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CellState {
        /// Not yet reached by the fire.
        Unburnt => "unburnt",
        /// On fire.
        Burning => "burning",
        /// Burnt out: spent.
        Spent => "spent",
    }
}

/// What an ignition did.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Ignition {
    /// The material that caught (the fuel of the cell holding the ignition point).
    pub fuel: u8,
    /// When it caught: the time asked for, or `settled_until` if that was later (the past is
    /// settled and is not rewritten).
    pub time: f32,
    /// Cells whose arrival time this ignition brought forward.
    pub cells_seeded: usize,
}

/// A burning cell touching a burnable cell of another material that has not caught yet: the
/// caller rolls ignition against `to_fuel`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Contact {
    /// The material burning in `from_cell`.
    pub from_fuel: u8,
    /// The burning cell that has touched `to_cell` longest (of those that caught first, the
    /// lowest, row by row).
    pub from_cell: Cell,
    /// The cell of another material it touches, not yet caught.
    pub to_cell: Cell,
    /// The material of `to_cell`.
    pub to_fuel: u8,
    /// Earliest arrival among the cells of `from_fuel` now burning next to `to_cell`.
    pub since_time: f32,
}

/// A connected patch of burning cells (any fuels), for fire size (001 "0.3\" diameter fire +2"…)
/// and fright value ("1.0\" diameter fire FV1"…).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FireRegion {
    /// How many cells the patch holds.
    pub cells: usize,
    /// Its area in square inches.
    pub area_in2: f32,
    /// Diameter of the circle with the same area.
    pub diameter_in: f32,
    /// Longer side of the bounding box: larger than `diameter_in` for rings and strips.
    pub span_in: f32,
}

impl FireRegion {
    /// A patch of `cells` cells of `cell_size_in` inches whose bounding box is `span_cells`
    /// cells along its longer side.
    pub fn of_cells(cells: usize, span_cells: u32, cell_size_in: f32) -> Self {
        let area_in2 = cells as f32 * cell_size_in * cell_size_in;
        FireRegion {
            cells,
            area_in2,
            diameter_in: 2.0 * (area_in2 / std::f32::consts::PI).sqrt(),
            span_in: span_cells as f32 * cell_size_in,
        }
    }
}

/// A stencil edge from a cell whose every step stays in its material: see
/// [`FireGrid::interior_steps`].
#[derive(Clone, Copy, Debug)]
struct InteriorStep {
    offset: isize,
    half_length_in: f32,
}

/// How [`FireGrid::relax`] steps from a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StepKind {
    /// Each step is checked: it may leave the table or the material.
    Checked,
    /// Every cell the stencil can reach or cross is on the table and of the cell's material.
    Interior,
    /// As `Interior`, and all of them hold the cell's own fuel index, so each step costs the
    /// same from every such cell of that fuel.
    OneFuel,
}

/// [`FireGrid::interior`]: how each cell steps, and what each interior step costs between two
/// cells of one fuel.
#[derive(Clone, Debug)]
struct Interior {
    /// Per cell.
    kind: Vec<StepKind>,
    /// Per fuel index, the cost in rounds of each step to the square of cells around a cell
    /// that the stencil reaches, between two cells of that fuel (row by row from `dy = −3`,
    /// `dx = −3` first): the step's half length times twice the fuel's slowness, worked out as
    /// [`FireGrid::relax`] works out any step; infinite where no step goes.
    one_fuel_costs: Vec<[[f32; STENCIL_SIDE]; STENCIL_SIDE]>,
}

#[derive(Clone, Debug)]
struct StencilEdge {
    dx: i32,
    dy: i32,
    length_cells: f32,
    /// Offsets of the cells the segment between the two centres touches (corners included),
    /// endpoints excluded: they must hold the same fuel, so fire never jumps a gap.
    crossed: Vec<(i32, i32)>,
    /// The far end and the crossed cells as bits of the square around a cell that the stencil
    /// reaches ([`window_bit`]): the step is open where all of them are.
    window_mask: u64,
}

/// Most cells a stencil step goes along either axis (the (3, 2) and (3, 1) steps).
const STENCIL_REACH: i32 = 3;

/// Cells along a side of the square around a cell that the stencil reaches.
const STENCIL_SIDE: usize = 2 * STENCIL_REACH as usize + 1;

/// The bit of offset (`dx`, `dy`) in the square of `2 × STENCIL_REACH + 1` cells a side around
/// a cell (49 bits).
fn window_bit(dx: i32, dy: i32) -> u64 {
    1 << ((dy + STENCIL_REACH) * STENCIL_SIDE as i32 + dx + STENCIL_REACH)
}

/// A cell on its way, as one integer ordered by time, then by cell ([`exact::settle_key`]):
/// reversed, as `BinaryHeap` is a max-heap and the earliest must come out first. The cell
/// breaks ties so the order never depends on how the heap was filled, and one integer compare
/// is all a sift costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct HeapEntry(std::cmp::Reverse<u64>);

impl HeapEntry {
    fn new(time: f32, cell: u32) -> Self {
        Self(std::cmp::Reverse(exact::settle_key(time, cell)))
    }

    fn time(self) -> f32 {
        exact::key_arrival(self.0.0)
    }

    fn cell(self) -> u32 {
        exact::key_cell(self.0.0)
    }
}

/// The table as fuel cells, and the fire's arrival time in each.
#[derive(Clone, Debug)]
pub struct FireGrid {
    width: u32,
    height: u32,
    cell_size: f32,
    fuel: Vec<u8>,
    /// Per fuel index: its spread rate, its slowness (1 / rate, so a step divides nothing) and
    /// its burn-out, 0 for an index nothing is painted with. A cell's are its fuel's: a table
    /// of 256, not three numbers a cell.
    rate_of: [f32; 256],
    slowness_of: [f32; 256],
    burn_of: [f32; 256],
    /// How many cells hold each fuel index, counted at each paint.
    cells_of_fuel: [usize; 256],
    /// Tentative until `settled`; INFINITY = not reached.
    arrival: Vec<f32>,
    settled: Vec<bool>,
    /// Settled cells in settling order, hence by non-decreasing arrival. Cells only, not their
    /// arrivals too: a table burnt out settles every cell, and each page of this list touched
    /// costs a page fault.
    settle_order: Vec<u32>,
    heap: BinaryHeap<HeapEntry>,
    settled_until: f32,
    max_burn_rounds: f32,
    /// The shortest burn-out of a burnable cell (0 with none): a cell that arrived less than
    /// this long ago burns, whatever its fuel.
    min_burn_rounds: f32,
    stencil: Vec<StencilEdge>,
    /// The stencil as an interior cell steps it: index offset and half the edge's length in
    /// inches, worked out once.
    interior_steps: Vec<InteriorStep>,
    /// The eight edges to neighbouring cells (sides and corners), for floods and contacts.
    unit_stencil: Vec<StencilEdge>,
    /// The material of each fuel index (index 0: none); the front spreads freely between
    /// indices of one material.
    material_of: [u8; 256],
    /// Cells an ignition's flood has visited: equal to `flood_generation` when seen by the
    /// current one (a stamp, so no set is built or cleared per ignition).
    flood_mark: Vec<u32>,
    flood_generation: u32,
    solver: FrontSolver,
    /// Patches of one material as lit so far, and which of them have an exact front.
    patches: exact::Patches,
    /// The table's patches and their shapes, worked out at the first ignition after a paint
    /// (or by [`Self::prepare_contacts`]) and shared by copies.
    patch_map: std::sync::OnceLock<std::sync::Arc<exact::PatchMap>>,
    /// The cells touching (edge or corner) a burnable cell of another material, the only cells
    /// [`Self::contacts`] need look at; worked out when first asked after a paint.
    borders: std::sync::OnceLock<Borders>,
    /// How [`Self::relax`] steps from each cell; worked out when first asked after a paint.
    interior: std::sync::OnceLock<Interior>,
    /// This grid's fire, for [`BurningBits`]: new for each copy and each wipe.
    epoch: FireEpoch,
}

/// Which fire a [`BurningBits`] was marked from: drawn anew for each grid, each copy of one and
/// each wipe of its fire, so that bits marked from one fire are never carried on for another.
/// Between two wipes a grid's settle order only grows.
#[derive(Debug)]
struct FireEpoch(u64);

impl FireEpoch {
    fn fresh() -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Self(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Clone for FireEpoch {
    fn clone(&self) -> Self {
        Self::fresh()
    }
}

/// The cells burning at one time, a bit per cell (cell `y × width + x` is bit `i % 64` of word
/// `i / 64`), marked by [`FireGrid::mark_burning`]. Kept from one time to a later one, the bits
/// are brought up to date at the cost of the cells that caught or burnt out between.
#[derive(Clone, Debug)]
pub struct BurningBits {
    bits: Vec<u64>,
    /// What the bits hold: the grid's fire (its epoch), the time, and how many cells of its
    /// settle order had arrived by then. None: every bit is clear.
    marked: Option<(u64, f32, usize)>,
    /// Words that may hold a set bit: `first_word..=last_word` (none while first > last).
    first_word: usize,
    last_word: usize,
}

impl Default for BurningBits {
    fn default() -> Self {
        Self { bits: Vec::new(), marked: None, first_word: usize::MAX, last_word: 0 }
    }
}

impl BurningBits {
    /// The bits.
    pub fn bits(&self) -> &[u64] {
        &self.bits
    }

    /// The first and the last word holding a set bit, if any.
    pub fn set_words(&mut self) -> Option<(usize, usize)> {
        while self.first_word <= self.last_word && self.bits[self.first_word] == 0 {
            self.first_word += 1;
        }
        while self.first_word <= self.last_word && self.bits[self.last_word] == 0 {
            self.last_word -= 1;
        }
        (self.first_word <= self.last_word).then_some((self.first_word, self.last_word))
    }

    /// Every bit clear, `words` words of them.
    fn clear(&mut self, words: usize) {
        if self.bits.len() != words {
            self.bits.clear();
            self.bits.resize(words, 0);
        } else if self.first_word <= self.last_word {
            self.bits[self.first_word..=self.last_word].fill(0);
        }
        (self.first_word, self.last_word) = (usize::MAX, 0);
        self.marked = None;
    }
}

/// The cells touching a burnable cell of another material, as flags and as a list in row
/// order.
#[derive(Clone, Debug, Default)]
struct Borders {
    /// A flag a cell; empty where the grid holds one material (no cell is a border).
    of_cell: Vec<bool>,
    cells: Vec<u32>,
}

impl FireGrid {
    /// An all-unburnable grid covering `width_in` × `height_in` inches with square cells.
    pub fn new(width_in: f32, height_in: f32, cell_size_in: f32) -> Result<Self, FireGridError> {
        let valid = |v: f32| v.is_finite() && v > 0.0;
        if !(valid(width_in) && valid(height_in) && valid(cell_size_in)) {
            return Err(FireGridError::InvalidSize { width_in, height_in, cell_size_in });
        }
        let (width, height) = grid_dimensions(width_in, height_in, cell_size_in)?;
        let count = width as usize * height as usize;
        let stencil = build_stencil();
        let interior_steps = stencil
            .iter()
            .map(|e| InteriorStep {
                offset: e.dy as isize * width as isize + e.dx as isize,
                half_length_in: e.length_cells * (0.5 * cell_size_in),
            })
            .collect();
        let unit_stencil = stencil.iter().filter(|e| e.dx.abs() <= 1 && e.dy.abs() <= 1).cloned().collect();
        Ok(Self {
            width,
            height,
            cell_size: cell_size_in,
            fuel: vec![0; count],
            rate_of: [0.0; 256],
            slowness_of: [0.0; 256],
            burn_of: [0.0; 256],
            cells_of_fuel: std::array::from_fn(|k| if k == 0 { count } else { 0 }),
            arrival: vec![f32::INFINITY; count],
            settled: vec![false; count],
            settle_order: Vec::with_capacity(count),
            heap: BinaryHeap::new(),
            settled_until: f32::NEG_INFINITY,
            max_burn_rounds: 0.0,
            min_burn_rounds: 0.0,
            stencil,
            interior_steps,
            unit_stencil,
            material_of: std::array::from_fn(|i| i as u8),
            flood_mark: vec![0; count],
            flood_generation: 0,
            solver: FrontSolver::Exact,
            patches: exact::Patches::default(),
            patch_map: std::sync::OnceLock::new(),
            borders: std::sync::OnceLock::new(),
            interior: std::sync::OnceLock::new(),
            epoch: FireEpoch::fresh(),
        })
    }

    /// Chooses how arrival times are worked out (the default is [`FrontSolver::Exact`]). Patches
    /// lit before keep the front they had.
    pub fn set_front_solver(&mut self, solver: FrontSolver) {
        self.solver = solver;
    }

    /// Columns in the grid.
    pub fn width_cells(&self) -> u32 {
        self.width
    }

    /// Rows in the grid.
    pub fn height_cells(&self) -> u32 {
        self.height
    }

    /// The side of a cell, in inches.
    pub fn cell_size_in(&self) -> f32 {
        self.cell_size
    }

    /// Every arrival up to this time is final.
    pub fn settled_until(&self) -> f32 {
        self.settled_until
    }

    /// The cell holding a point, if it is on the table.
    pub fn cell_at(&self, x_in: f32, y_in: f32) -> Option<Cell> {
        self.index_at(x_in, y_in).map(|index| self.cell_of(index))
    }

    /// The index of the cell at a point (as [`FireGrid::cell_at`] finds it), row by row from
    /// the bottom; `None` off the grid.
    pub fn index_at_point(&self, x_in: f32, y_in: f32) -> Option<usize> {
        self.index_at(x_in, y_in)
    }

    /// Whether the cell at `index` burns at `time` ([`FireGrid::state_at`] by index).
    pub fn burns_at_index(&self, index: usize, time: f32) -> bool {
        index < self.arrival.len() && self.state_of_index(index, time) == CellState::Burning
    }

    /// A cell's index, row by row from the bottom; `None` off the grid.
    pub fn cell_index(&self, cell: Cell) -> Option<usize> {
        self.index_of(cell)
    }

    /// The centre of a cell, in inches.
    pub fn cell_centre(&self, cell: Cell) -> Option<(f32, f32)> {
        self.index_of(cell).map(|index| self.centre_of_index(index))
    }

    /// The fuel index of the cell at `index` (`y × width + x`), 0 where nothing burns.
    pub fn fuel_index_of(&self, index: usize) -> u8 {
        self.fuel.get(index).copied().unwrap_or(0)
    }

    /// Every cell's fuel index, row by row (`y × width + x`), 0 where nothing burns.
    pub fn fuel_indices(&self) -> &[u8] {
        &self.fuel
    }

    /// The material in a cell; `None` where nothing burns.
    pub fn fuel_at(&self, cell: Cell) -> Option<Fuel> {
        let fuel = self.fuel[self.index_of(cell)?];
        (fuel != 0).then(|| Fuel {
            index: fuel,
            spread_rate_in: self.rate_of[usize::from(fuel)],
            burn_out_rounds: self.burn_of[usize::from(fuel)],
        })
    }

    /// 001 "Fire Spreading" ("with the same material"): say which material fuel index `fuel`
    /// is (1..=255). The front spreads between fuel indices of one material as through one
    /// fuel, and reports no [`Contact`] between them. Give indices of one material the same
    /// spread rate. Ignored for index 0 or material 0.
    pub fn set_material(&mut self, fuel: u8, material: u8) {
        if fuel != 0 && material != 0 {
            self.material_of[fuel as usize] = material;
            self.borders = std::sync::OnceLock::new();
            self.interior = std::sync::OnceLock::new();
            self.patch_map = std::sync::OnceLock::new();
        }
    }

    /// Put out every fire: the grid as it was painted, with nothing lit (what [`Self::paint`]
    /// leaves), at the cost of the cells a fire reached: a grid no fire reached is cleared at
    /// once. For reusing one grid across runs of one table.
    pub fn clear_fire(&mut self) {
        if self.nothing_lit() {
            self.settled_until = f32::NEG_INFINITY;
        } else {
            self.wipe_fire();
        }
    }

    /// Whether no fire was lit since the grid was made or wiped: then every arrival is
    /// infinite and no cell is settled (every arrival written is settled, in the heap, or in a
    /// classified patch).
    fn nothing_lit(&self) -> bool {
        self.settle_order.is_empty() && self.heap.is_empty() && self.patches.list.is_empty()
    }

    /// [`Self::clear_fire`] at the cost of the table, whatever is lit.
    fn wipe_fire(&mut self) {
        self.arrival.fill(f32::INFINITY);
        self.settled.fill(false);
        self.settle_order.clear();
        self.heap.clear();
        self.patches.clear();
        self.settled_until = f32::NEG_INFINITY;
        self.epoch = FireEpoch::fresh();
    }

    /// Work out now what [`Self::contacts`] would work out on its first call after a paint, so
    /// that copies of this grid share it.
    pub fn prepare_contacts(&self) {
        self.borders();
        self.interior();
        if self.solver == FrontSolver::Exact {
            self.patch_map();
        }
    }

    /// [`Self::interior`], worked out now if it was not: cells whose stencil's reach holds one
    /// material, and those where it holds one fuel index.
    fn interior(&self) -> &Interior {
        self.interior.get_or_init(|| self.work_out_interior())
    }

    /// Once a paint, so kept out of the front's loop.
    #[inline(never)]
    fn work_out_interior(&self) -> Interior {
        let (width, height) = (self.width as usize, self.height as usize);
        let reach = STENCIL_REACH as usize;
        let fuels = uniform_boxes(&self.fuel, width, height, reach);
        // Where each material is one fuel index, a square of one material is one of one fuel.
        let counts = self.cells_by_fuel_index();
        let painted = || (1..256).filter(|&f| counts[f] > 0);
        let one_fuel_a_material =
            painted().all(|f| painted().all(|g| f == g || self.material_of[f] != self.material_of[g]));
        let materials =
            if one_fuel_a_material { None } else { Some(uniform_boxes(&self.cell_materials(), width, height, reach)) };
        let kind = fuels
            .iter()
            .enumerate()
            .map(|(index, &fuel)| match (fuel, materials.as_ref().is_some_and(|m| m[index])) {
                (true, _) => StepKind::OneFuel,
                (false, true) => StepKind::Interior,
                (false, false) => StepKind::Checked,
            })
            .collect();
        let one_fuel_costs = self
            .slowness_of
            .iter()
            .map(|&slowness| {
                let mut costs = [[f32::INFINITY; STENCIL_SIDE]; STENCIL_SIDE];
                for (edge, step) in self.stencil.iter().zip(&self.interior_steps) {
                    let (row, column) = ((edge.dy + STENCIL_REACH) as usize, (edge.dx + STENCIL_REACH) as usize);
                    costs[row][column] = step.half_length_in * (slowness + slowness);
                }
                costs
            })
            .collect();
        Interior { kind, one_fuel_costs }
    }

    /// [`Self::borders`], worked out now if it was not: row by row, each cell's material
    /// against its eight neighbours'.
    fn borders(&self) -> &Borders {
        self.borders.get_or_init(|| {
            let (width, height) = (self.width as usize, self.height as usize);
            // One material (or none) has no borders: the common whole-table case costs nothing
            // (no flag a cell: every cell reads as no border).
            if self.one_material() {
                return Borders { of_cell: Vec::new(), cells: Vec::new() };
            }
            let mut borders = Borders { of_cell: vec![false; self.fuel.len()], cells: Vec::new() };
            // Three rows' materials at a time, not a copy of the table's: the row above, this
            // one and the one below (a row off the table is all "nothing", which borders none).
            let table = self.material_table();
            let material_row = |y: Option<usize>, row: &mut [u8]| match y {
                Some(y) => {
                    for (m, &f) in row.iter_mut().zip(&self.fuel[y * width..(y + 1) * width]) {
                        *m = table[usize::from(f)];
                    }
                }
                None => row.fill(0),
            };
            let (mut above, mut here, mut below) = (vec![0u8; width], vec![0u8; width], vec![0u8; width]);
            material_row(None, &mut above);
            material_row(Some(0), &mut here);
            let mut touches = vec![false; width];
            for y in 0..height {
                material_row((y + 1 < height).then_some(y + 1), &mut below);
                touches.fill(false);
                // Each of the eight neighbours in turn, over the whole row: branch-free passes
                // over slices, so that they vectorise.
                let other = |there: u8, here: u8| (there != 0) & (there != here);
                for (k, row) in [&above, &here, &below].into_iter().enumerate() {
                    if k != 1 {
                        for ((t, &n), &h) in touches.iter_mut().zip(row.iter()).zip(here.iter()) {
                            *t |= other(n, h);
                        }
                    }
                    // The neighbour to the left, then to the right.
                    for ((t, &n), &h) in touches[1..].iter_mut().zip(row.iter()).zip(here[1..].iter()) {
                        *t |= other(n, h);
                    }
                    for ((t, &n), &h) in touches.iter_mut().zip(row[1..].iter()).zip(here.iter()) {
                        *t |= other(n, h);
                    }
                }
                for (x, (&t, &h)) in touches.iter().zip(here.iter()).enumerate() {
                    if t & (h != 0) {
                        let index = y * width + x;
                        borders.of_cell[index] = true;
                        borders.cells.push(index as u32);
                    }
                }
                std::mem::swap(&mut above, &mut here);
                std::mem::swap(&mut here, &mut below);
            }
            borders
        })
    }

    /// Whether every burnable cell is of one material, so that no cell borders another: from
    /// the fuel indices painted, not the cells.
    fn one_material(&self) -> bool {
        let mut materials = (1..256).filter(|&f| self.cells_of_fuel[f] > 0).map(|f| self.material_of[f]);
        let first = materials.next();
        materials.all(|m| Some(m) == first)
    }

    /// Each fuel index's material, 0 for index 0 (nothing burns).
    fn material_table(&self) -> [u8; 256] {
        std::array::from_fn(|f| if f == 0 { 0 } else { self.material_of[f] })
    }

    /// Each cell's material, row by row (0 where nothing burns).
    fn cell_materials(&self) -> Vec<u8> {
        let table = self.material_table();
        self.fuel.iter().map(|&f| table[usize::from(f)]).collect()
    }

    /// Whether two fuel indices (both burnable) are one material.
    fn same_material(&self, a: u8, b: u8) -> bool {
        a != 0 && b != 0 && self.material_of[a as usize] == self.material_of[b as usize]
    }

    /// Sets every cell from its centre (inches); `None` = does not burn. Clears all fire. On an
    /// invalid fuel, stops there with an error (cells before it are painted). A fuel index has
    /// one spread rate and burn-out: a cell giving it others is an invalid fuel.
    pub fn paint(&mut self, mut fuel_at: impl FnMut(f32, f32) -> Option<Fuel>) -> Result<(), FireGridError> {
        self.paint_cells(true, |x_in, y_in| Some(fuel_at(x_in, y_in)))
    }

    /// Sets the cells whose centres lie in the rectangle (corners in any order, right and bottom
    /// edges excluded); other cells keep their fuel. Clears all fire. A fuel index other cells
    /// hold keeps its spread rate and burn-out: giving it others is an invalid fuel.
    pub fn paint_rect(
        &mut self,
        (x0, y0): (f32, f32),
        (x1, y1): (f32, f32),
        fuel: Option<Fuel>,
    ) -> Result<(), FireGridError> {
        let (left, right) = (x0.min(x1), x0.max(x1));
        let (top, bottom) = (y0.min(y1), y0.max(y1));
        self.paint_cells(false, |x_in, y_in| {
            (x_in >= left && x_in < right && y_in >= top && y_in < bottom).then_some(fuel)
        })
    }

    /// 001 "Fire Starting Rules": "1+ ignited (up to 0.5")". Sets fire to the material at a point:
    /// cells of that material within `radius_in` catch at once, and a margin of two cells beyond
    /// gets exact times, all reached without leaving the material. `None` if the point is off the
    /// table or does not burn, or a number is not finite (or the radius negative).
    pub fn ignite(&mut self, x_in: f32, y_in: f32, radius_in: f32, time: f32) -> Option<Ignition> {
        let origin = self.index_at(x_in, y_in)?;
        self.ignite_from(origin, x_in, y_in, radius_in, time)
    }

    /// 001 "Fire Starting Rules". Sets fire to one cell (from its centre), e.g. the `to_cell` of a
    /// [`Contact`] whose ignition roll succeeded.
    pub fn ignite_cell(&mut self, cell: Cell, time: f32) -> Option<Ignition> {
        let origin = self.index_of(cell)?;
        let (x_in, y_in) = self.centre_of_index(origin);
        self.ignite_from(origin, x_in, y_in, 0.0, time)
    }

    /// 001 "Fire Spreading". Settles every arrival up to `time` (`f32::INFINITY`: to the end).
    /// Calling it round by round costs the same in total as one call.
    pub fn advance_to(&mut self, time: f32) {
        if time.is_nan() {
            return;
        }
        let first_new = self.settle_order.len();
        while let Some(&top) = self.heap.peek() {
            if top.time() > time {
                break;
            }
            self.heap.pop();
            let index = top.cell() as usize;
            if self.settled[index] || top.time() > self.arrival[index] {
                continue; // a stale entry: this cell was reached sooner
            }
            self.settled[index] = true;
            self.settle_order.push(top.cell());
            self.relax(index);
        }
        self.advance_exact(time, first_new);
        self.settled_until = self.settled_until.max(time);
    }

    /// Every cell the fire has reached or is on its way to (a finite arrival time, settled or
    /// not), row by row, with that time. With [`Self::settled_until`] this is all the state
    /// [`Self::restore`] needs: a saved scene carries it instead of replaying its ignitions.
    pub fn reached(&self) -> impl Iterator<Item = (u32, f32)> + '_ {
        self.arrival.iter().enumerate().filter(|(_, a)| a.is_finite()).map(|(i, &a)| (i as u32, a))
    }

    /// Puts back a fire that [`Self::reached`] gave on a grid painted the same way: cells that
    /// arrived by `settled_until` are settled, later ones are on their way, exactly as before.
    /// Cells that do not burn are skipped. Clears any fire there was. Patches that had an exact
    /// front take the grid's front from here on: use [`Self::restore_with`] to keep it.
    pub fn restore(
        &mut self,
        settled_until: f32,
        reached: impl IntoIterator<Item = (u32, f32)>,
    ) -> Result<(), FireGridError> {
        self.restore_with(settled_until, reached, &[])
    }

    /// [`Self::restore`], with the ignitions of exact patches not yet burnt through
    /// ([`Self::exact_fronts`] at the save): those patches go on exactly as before.
    pub fn restore_with(
        &mut self,
        settled_until: f32,
        reached: impl IntoIterator<Item = (u32, f32)>,
        exact_fronts: &[ExactFront],
    ) -> Result<(), FireGridError> {
        let restored = self.put_back(settled_until, reached, exact_fronts);
        if restored.is_err() {
            // Arrivals put back before the error may be in no list [`Self::clear_fire`] reads.
            self.wipe_fire();
        }
        restored
    }

    fn put_back(
        &mut self,
        settled_until: f32,
        reached: impl IntoIterator<Item = (u32, f32)>,
        exact_fronts: &[ExactFront],
    ) -> Result<(), FireGridError> {
        if !settled_until.is_finite() {
            return Err(FireGridError::InvalidState(format!("settled time {settled_until} is not finite")));
        }
        self.wipe_fire();
        let mut pending = Vec::new();
        for (index, time) in reached {
            let Some(&fuel) = self.fuel.get(index as usize) else {
                return Err(FireGridError::InvalidState(format!(
                    "cell {index} is beyond the grid's {} cells",
                    self.fuel.len()
                )));
            };
            if !(time.is_finite() && time >= 0.0) {
                return Err(FireGridError::InvalidState(format!("arrival time {time} must be finite and at least 0")));
            }
            if fuel == 0 {
                continue;
            }
            self.arrival[index as usize] = time;
            if time <= settled_until {
                self.settled[index as usize] = true;
                self.settle_order.push(index);
            } else {
                pending.push(HeapEntry::new(time, index));
            }
        }
        // The grid front alone takes every pending cell to the heap instead.
        let exact_fronts = if self.solver == FrontSolver::Exact { exact_fronts } else { &[] };
        for front in exact_fronts {
            let Some(origin) = self.index_at(front.x, front.y).filter(|&i| self.fuel[i] != 0) else {
                return Err(FireGridError::InvalidState(format!(
                    "exact front at ({}\", {}\") is not on a burnable cell",
                    front.x, front.y
                )));
            };
            if let Some(patch) = self.patch_of(origin, false) {
                self.add_exact_front(patch, *front, settled_until);
            }
        }
        for entry in pending {
            if self.exact_rate(entry.cell() as usize).is_none() {
                self.heap.push(entry);
            }
        }
        // The order Dijkstra settles in: by time, then by cell (as the heap breaks ties).
        let arrival = &self.arrival;
        self.settle_order.sort_unstable_by_key(|&cell| settle_key(arrival[cell as usize], cell));
        self.settled_until = settled_until;
        Ok(())
    }

    /// How many cells have been settled (reached) so far; with [`Self::settled_from`] a caller
    /// sees every newly reached cell exactly once, ignitions at the settled time included.
    pub fn settled_count(&self) -> usize {
        self.settle_order.len()
    }

    /// How many cells settled after the first `first` of them, in order, pass `test` before one
    /// fails, where `test` holds for every arrival up to some time and none after (so the
    /// answer is found by halving, not by looking at each cell).
    pub fn settled_passing_from(&self, first: usize, test: impl Fn(f32) -> bool) -> usize {
        let order = &self.settle_order[first.min(self.settle_order.len())..];
        order.partition_point(|&cell| test(self.arrival[cell as usize]))
    }

    /// Cells settled after the first `first` of them, by arrival.
    pub fn settled_from(&self, first: usize) -> impl Iterator<Item = (Cell, f32)> + '_ {
        self.settled_indices_from(first).map(|(index, arrival)| (self.cell_of(index), arrival))
    }

    /// [`Self::settled_from`] by cell index ([`Self::cell_index`]).
    pub fn settled_indices_from(&self, first: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.settle_order[first.min(self.settle_order.len())..]
            .iter()
            .map(move |&cell| (cell as usize, self.arrival[cell as usize]))
    }

    /// The arrival time known so far, settled or not: finite when the fire of this cell's own
    /// material is already on its way to it (within one stencil step of a settled cell).
    pub fn tentative_arrival(&self, cell: Cell) -> Option<f32> {
        let index = self.index_of(cell)?;
        let arrival = self.arrival[index];
        // An exact patch knows every arrival once lit; it says "on its way" as far ahead as the
        // grid front would (one stencil step beyond the settled cells).
        let horizon = match self.exact_rate(index) {
            Some(rate) if !self.settled[index] => {
                self.settled_until + exact::STENCIL_REACH_CELLS * self.cell_size / rate
            }
            _ => f32::INFINITY,
        };
        (arrival.is_finite() && arrival <= horizon).then_some(arrival)
    }

    /// When the fire reached a cell, once settled.
    pub fn arrival(&self, cell: Cell) -> Option<f32> {
        let index = self.index_of(cell)?;
        self.settled[index].then(|| self.arrival[index])
    }

    /// A cell burns from its arrival until `burn_out_rounds` later, then is spent. Exact for
    /// `time <= settled_until()`; later times see only what has been settled.
    pub fn state_at(&self, cell: Cell, time: f32) -> CellState {
        match self.index_of(cell) {
            Some(index) => self.state_of_index(index, time),
            None => CellState::Unburnt,
        }
    }

    /// Cells burning at `time`, by arrival.
    pub fn burning_cells(&self, time: f32) -> Vec<Cell> {
        self.burning_indices(time).map(|index| self.cell_of(index)).collect()
    }

    /// Area of `fuel` reached by `time` (burning or spent), in square inches.
    pub fn burnt_area_in2(&self, fuel: u8, time: f32) -> f32 {
        let reached = self.settled_by(time);
        let cells = self.settle_order[..reached].iter().filter(|&&cell| self.fuel[cell as usize] == fuel).count();
        cells as f32 * self.cell_size * self.cell_size
    }

    /// Area of `fuel` burning at `time`, in square inches.
    pub fn burning_area_in2(&self, fuel: u8, time: f32) -> f32 {
        let cells = self.burning_indices(time).filter(|&index| self.fuel[index] == fuel).count();
        cells as f32 * self.cell_size * self.cell_size
    }

    /// Cells reached with `after < arrival <= until`, by arrival, for event reporting
    /// (call `advance_to(until)` first).
    pub fn newly_burnt_between(&self, after: f32, until: f32) -> impl Iterator<Item = (Cell, f32)> + '_ {
        let (lo, hi) = (self.settled_by(after), self.settled_by(until));
        self.settle_order[lo..hi.max(lo)]
            .iter()
            .map(move |&cell| (self.cell_of(cell as usize), self.arrival[cell as usize]))
    }

    /// 001 "Fire Spreading" ("with the same material"). Burning cells at `time` touching
    /// (sharing an edge or a corner with) unburnt cells of another fuel, one entry per
    /// (to_cell, from_fuel), in row order. A corner touch counts only when neither of the two
    /// cells beside the corner is unburnable.
    pub fn contacts(&self, time: f32) -> Vec<Contact> {
        let mut found: BTreeMap<(usize, u8), Contact> = BTreeMap::new();
        let width = self.width as usize;
        let borders = self.borders();
        // The burning border cells: from the border cells or from the cells that may burn,
        // whichever are fewer (the earliest catching, then the lowest, wins a tie below, so
        // the order they come in does not matter).
        let window = self.burning_window(time);
        let from_border: Box<dyn Iterator<Item = usize>> = if borders.cells.len() < window.len() {
            Box::new(
                borders
                    .cells
                    .iter()
                    .map(|&i| i as usize)
                    .filter(move |&i| self.state_of_index(i, time) == CellState::Burning),
            )
        } else {
            Box::new(self.burning_indices(time).filter(|&i| borders.of_cell.get(i) == Some(&true)))
        };
        for from in from_border {
            let from_fuel = self.fuel[from];
            let (x, y) = ((from % width) as i32, (from / width) as i32);
            for edge in &self.unit_stencil {
                let Some(to) = self.neighbour(x, y, edge.dx, edge.dy) else { continue };
                let to_fuel = self.fuel[to];
                if to_fuel == 0
                    || self.same_material(to_fuel, from_fuel)
                    || self.state_of_index(to, time) != CellState::Unburnt
                {
                    continue;
                }
                let pinched = edge
                    .crossed
                    .iter()
                    .any(|&(ox, oy)| self.neighbour(x, y, ox, oy).is_none_or(|corner| self.fuel[corner] == 0));
                if pinched {
                    continue;
                }
                let since = self.arrival[from];
                let from_cell = self.cell_of(from);
                found
                    .entry((to, from_fuel))
                    .and_modify(|contact| {
                        let earlier = (since, from_cell.y, from_cell.x);
                        if earlier < (contact.since_time, contact.from_cell.y, contact.from_cell.x) {
                            contact.since_time = since;
                            contact.from_cell = from_cell;
                        }
                    })
                    .or_insert(Contact { from_fuel, from_cell, to_cell: self.cell_of(to), to_fuel, since_time: since });
            }
        }
        found.into_values().collect()
    }

    /// The connected (8-neighbour) patch of burning cells holding `cell`, any fuels; `None` if
    /// `cell` is not burning at `time`. For many lookups at one time, use [`Self::burning_regions_of`].
    pub fn burning_region(&self, cell: Cell, time: f32) -> Option<FireRegion> {
        let start = self.index_of(cell)?;
        if self.state_of_index(start, time) != CellState::Burning {
            return None;
        }
        self.burning_regions_of(&[cell], time).pop().flatten()
    }

    /// [`Self::burning_region`] of each of `cells`, each patch flooded once however many of the
    /// cells lie in it. The burning cells are marked first, a bit each, and each flood clears
    /// the bits it takes: the work is the burning cells, not the table.
    pub fn burning_regions_of(&self, cells: &[Cell], time: f32) -> Vec<Option<FireRegion>> {
        let mut regions: Vec<Option<FireRegion>> = vec![None; cells.len()];
        let starts: Vec<Option<usize>> = cells.iter().map(|&c| self.index_of(c)).collect();
        if starts.iter().flatten().all(|&i| self.state_of_index(i, time) != CellState::Burning) {
            return regions;
        }
        let mut burning = vec![0u64; self.arrival.len().div_ceil(64)];
        for index in self.burning_indices(time) {
            burning[index / 64] |= 1 << (index % 64);
        }
        let marked = |bits: &[u64], index: usize| bits[index / 64] >> (index % 64) & 1 != 0;
        let was_burning: Vec<bool> = starts.iter().map(|s| s.is_some_and(|i| marked(&burning, i))).collect();
        for k in 0..cells.len() {
            let Some(start) = starts[k].filter(|&i| regions[k].is_none() && marked(&burning, i)) else { continue };
            burning[start / 64] &= !(1 << (start % 64));
            // Claiming a cell clears its bit: only burning cells not yet taken are claimed.
            let region = self.flood_burning(start, |i| {
                let bit = 1 << (i % 64);
                let fresh = burning[i / 64] & bit != 0;
                burning[i / 64] &= !bit;
                fresh
            });
            // A later cell that was burning and that this flood took is in this patch (one an
            // earlier flood took already has its answer).
            for later in k..cells.len() {
                if regions[later].is_none() && was_burning[later] && starts[later].is_some_and(|i| !marked(&burning, i))
                {
                    regions[later] = Some(region);
                }
            }
        }
        regions
    }

    /// Flood the burning cells connected to `start` (already claimed), claiming each new one
    /// with `claim` (false when it was claimed before or is not burning), and measure the patch.
    fn flood_burning(&self, start: usize, mut claim: impl FnMut(usize) -> bool) -> FireRegion {
        let width = self.width as usize;
        let mut stack = vec![start];
        let mut cells = 0;
        let (mut min_x, mut max_x, mut min_y, mut max_y) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        while let Some(index) = stack.pop() {
            cells += 1;
            let (x, y) = ((index % width) as i32, (index / width) as i32);
            (min_x, max_x, min_y, max_y) = (min_x.min(x), max_x.max(x), min_y.min(y), max_y.max(y));
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let Some(next) = self.neighbour(x, y, dx, dy) else { continue };
                    if claim(next) {
                        stack.push(next);
                    }
                }
            }
        }
        let span_cells = (max_x - min_x).max(max_y - min_y) + 1;
        FireRegion::of_cells(cells, span_cells as u32, self.cell_size)
    }

    /// Paints every cell from a list of fuels: cell `i` (row by row) takes `fuels[k - 1]` for
    /// `k = fuel_of(i)`, and no fuel for 0 or a `k` past the list. What [`Self::paint`] does
    /// for a whole table, without working out each cell's centre or checking each cell's fuel.
    /// Clears all fire. A list entry giving an earlier entry's index other numbers is an
    /// invalid fuel where a cell takes it.
    pub fn paint_indexed(&mut self, fuels: &[Fuel], fuel_of: impl Fn(usize) -> usize) -> Result<(), FireGridError> {
        self.paint_listed(fuels, &fuel_of, |cells, index_of| {
            for (index, fuel) in cells.iter_mut().enumerate() {
                *fuel = index_of.get(fuel_of(index)).copied().unwrap_or(0);
            }
        })
    }

    /// [`Self::paint_indexed`] with `k` for each cell given as a byte a cell, row by row (a
    /// cell past `cells` takes no fuel). The bytes become the grid's own, each looked up in a
    /// table unless every `k` painted is the index of fuel `k`: then none is copied.
    pub fn paint_indexed_cells(&mut self, fuels: &[Fuel], cells: Vec<u8>) -> Result<(), FireGridError> {
        let cells = std::cell::RefCell::new(cells);
        let fuel_of = |index: usize| usize::from(cells.borrow().get(index).copied().unwrap_or(0));
        self.paint_listed(fuels, &fuel_of, |painted, index_of| {
            let mut cells = cells.take();
            cells.resize(painted.len(), 0);
            let table: [u8; 256] = std::array::from_fn(|k| index_of.get(k).copied().unwrap_or(0));
            let most = cells.iter().copied().max().unwrap_or(0);
            if (0..=most).any(|k| table[usize::from(k)] != k) {
                for k in &mut cells {
                    *k = table[usize::from(*k)];
                }
            }
            *painted = cells;
        })
    }

    /// Paints from a list of fuels: checks them at the cells `fuel_of` gives them, then lets
    /// `fill` write every cell's fuel index from the list's indices (`index_of[k]`: `k`'s).
    fn paint_listed(
        &mut self,
        fuels: &[Fuel],
        fuel_of: &dyn Fn(usize) -> usize,
        fill: impl FnOnce(&mut Vec<u8>, &[u8]),
    ) -> Result<(), FireGridError> {
        // A fuel's own problem, or an index an earlier fuel of the list gives other numbers.
        let problems: Vec<Option<&'static str>> = fuels
            .iter()
            .enumerate()
            .map(|(k, f)| {
                f.problem().or_else(|| fuels[..k].iter().any(|g| g.conflicts_with(f)).then_some(FUEL_CONFLICT))
            })
            .collect();
        if problems.iter().any(Option::is_some) {
            // Reported at the first cell that takes a broken fuel, as `paint` would.
            let broken = |i: usize| problems.get(fuel_of(i).wrapping_sub(1)).copied().flatten();
            if let Some((index, reason)) = (0..self.fuel.len()).find_map(|i| broken(i).map(|r| (i, r))) {
                let (x_in, y_in) = self.centre_of_index(index);
                return Err(FireGridError::InvalidFuel { x_in, y_in, reason });
            }
        }
        self.clear_for_paint();
        self.forget_fuels();
        for (fuel, problem) in fuels.iter().zip(&problems) {
            if problem.is_none() {
                self.learn_fuel(fuel);
            }
        }
        let index_of: Vec<u8> = std::iter::once(0).chain(fuels.iter().map(|f| f.index)).collect();
        fill(&mut self.fuel, &index_of);
        self.set_burn_round_bounds();
        Ok(())
    }

    /// How many cells hold each fuel index (0: none).
    pub fn cells_by_fuel_index(&self) -> [usize; 256] {
        self.cells_of_fuel
    }

    /// Clears every fire before a paint (at no cost on a grid no fire reached).
    fn clear_for_paint(&mut self) {
        self.clear_fire();
        self.borders = std::sync::OnceLock::new();
        self.interior = std::sync::OnceLock::new();
        self.patch_map = std::sync::OnceLock::new();
    }

    /// Forgets every fuel index's numbers, before painting the whole table from a checked list.
    fn forget_fuels(&mut self) {
        self.rate_of = [0.0; 256];
        self.slowness_of = [0.0; 256];
        self.burn_of = [0.0; 256];
    }

    /// Takes `fuel`'s numbers for its index (a valid fuel, not in conflict with the table).
    fn learn_fuel(&mut self, fuel: &Fuel) {
        let index = usize::from(fuel.index);
        self.rate_of[index] = fuel.spread_rate_in;
        // What a step would divide by: the same number, worked out once.
        self.slowness_of[index] = 1.0 / fuel.spread_rate_in;
        self.burn_of[index] = fuel.burn_out_rounds;
    }

    /// Whether `fuel` gives its index other numbers than the table holds for it.
    fn conflicts(&self, fuel: &Fuel) -> bool {
        let index = usize::from(fuel.index);
        let known =
            Fuel { index: fuel.index, spread_rate_in: self.rate_of[index], burn_out_rounds: self.burn_of[index] };
        known.spread_rate_in != 0.0 && known.conflicts_with(fuel)
    }

    /// Forgets the numbers of indices no cell holds any more, then works out the longest and
    /// the shortest burn-out of any painted cell.
    fn set_burn_round_bounds(&mut self) {
        let mut counts = [0usize; 256];
        for &fuel in &self.fuel {
            counts[usize::from(fuel)] += 1;
        }
        self.cells_of_fuel = counts;
        let (mut most, mut least) = (0.0f32, f32::INFINITY);
        for (index, &cells) in counts.iter().enumerate().skip(1) {
            if cells == 0 {
                (self.rate_of[index], self.slowness_of[index], self.burn_of[index]) = (0.0, 0.0, 0.0);
            } else {
                most = most.max(self.burn_of[index]);
                least = least.min(self.burn_of[index]);
            }
        }
        self.max_burn_rounds = most;
        self.min_burn_rounds = if least.is_finite() { least } else { 0.0 };
    }

    /// Paints the cells `choose` picks (`whole`: every cell). A whole paint may give an index
    /// new numbers (its first cell painted decides); a partial one keeps the numbers of the
    /// cells it leaves. Cells after an invalid fuel keep their fuel, and its numbers unless
    /// this paint gave that index new ones.
    fn paint_cells(
        &mut self,
        whole: bool,
        mut choose: impl FnMut(f32, f32) -> Option<Option<Fuel>>,
    ) -> Result<(), FireGridError> {
        self.clear_for_paint();
        // Indices whose numbers this paint must keep.
        let mut known = [!whole; 256];
        let mut result = Ok(());
        for index in 0..self.fuel.len() {
            let (x_in, y_in) = self.centre_of_index(index);
            let Some(choice) = choose(x_in, y_in) else { continue };
            self.fuel[index] = match choice {
                None => 0,
                Some(fuel) => {
                    let conflict = known[usize::from(fuel.index)] && self.conflicts(&fuel);
                    if let Some(reason) = fuel.problem().or_else(|| conflict.then_some(FUEL_CONFLICT)) {
                        result = Err(FireGridError::InvalidFuel { x_in, y_in, reason });
                        break;
                    }
                    known[usize::from(fuel.index)] = true;
                    self.learn_fuel(&fuel);
                    fuel.index
                }
            };
        }
        self.set_burn_round_bounds();
        result
    }

    fn ignite_from(&mut self, origin: usize, x_in: f32, y_in: f32, radius_in: f32, time: f32) -> Option<Ignition> {
        if time.is_nan() || !(x_in.is_finite() && y_in.is_finite() && radius_in.is_finite() && radius_in >= 0.0) {
            return None;
        }
        let fuel = self.fuel[origin];
        if fuel == 0 {
            return None;
        }
        let start = time.max(self.settled_until);
        if !start.is_finite() {
            return None;
        }
        if self.solver == FrontSolver::Exact
            && let Some(patch) = self.patch_of(origin, true)
            && self.patches.is_exact(patch)
        {
            let front = ExactFront { x: x_in, y: y_in, radius: radius_in, time: start };
            let cells_seeded = self.ignite_exact(patch, origin, front);
            if self.settled_until.is_finite() {
                let until = self.settled_until;
                self.advance_to(until);
            }
            return Some(Ignition { fuel, time: start, cells_seeded });
        }
        let reach = radius_in + SEED_MARGIN_CELLS * self.cell_size;
        let width = self.width as usize;
        // Flood the same fuel within reach, so seeding never jumps a gap or another material.
        self.flood_generation = self.flood_generation.wrapping_add(1);
        if self.flood_generation == 0 {
            self.flood_mark.fill(0);
            self.flood_generation = 1;
        }
        let generation = self.flood_generation;
        self.flood_mark[origin] = generation;
        let mut stack = vec![origin];
        let mut cells_seeded = 0;
        while let Some(index) = stack.pop() {
            let (cx, cy) = self.centre_of_index(index);
            let distance = ((cx - x_in).powi(2) + (cy - y_in).powi(2)).sqrt();
            // The cell holding the point catches at once; others when the fire covers the gap.
            let delay = if index == origin {
                0.0
            } else {
                (distance - radius_in).max(0.0) / self.rate_of[usize::from(self.fuel[index])]
            };
            let candidate = start + delay;
            if !self.settled[index] && candidate < self.arrival[index] {
                self.arrival[index] = candidate;
                self.heap.push(HeapEntry::new(candidate, index as u32));
                cells_seeded += 1;
            }
            let (x, y) = ((index % width) as i32, (index / width) as i32);
            for edge in &self.unit_stencil {
                let Some(next) = self.step(x, y, edge, fuel) else { continue };
                if self.flood_mark[next] == generation {
                    continue;
                }
                let (nx, ny) = self.centre_of_index(next);
                let next_distance = ((nx - x_in).powi(2) + (ny - y_in).powi(2)).sqrt();
                if next_distance <= reach {
                    self.flood_mark[next] = generation;
                    stack.push(next);
                }
            }
        }
        // Seeds at exactly `settled_until` belong to the settled past: settle them now.
        if self.settled_until.is_finite() {
            let until = self.settled_until;
            self.advance_to(until);
        }
        Some(Ignition { fuel, time: start, cells_seeded })
    }

    fn relax(&mut self, index: usize) {
        let fuel = self.fuel[index];
        let time = self.arrival[index];
        let slowness = self.slowness_of[usize::from(fuel)];
        let kind = self.interior().kind[index];
        if kind != StepKind::Checked {
            // Inside one material every step is open (what `step` would find, unchecked). The
            // arrays are borrowed apart and are of one length, so a step costs one bounds check.
            let Self { fuel: fuels, arrival, settled, slowness_of, heap, interior_steps, interior, width, .. } = self;
            let (fuels, arrival, settled) = (&fuels[..], &mut arrival[..], &settled[..]);
            assert!(arrival.len() == fuels.len() && settled.len() == fuels.len());
            // Whether a neighbour is settled is a coin toss along the front: it is tested with
            // the arrival in one branch (`&`, not `&&`), which is rarely taken and so well
            // predicted.
            let mut relax_to = |arrival: &mut [f32], next: usize, candidate: f32| {
                if (candidate < arrival[next]) & !settled[next] {
                    arrival[next] = candidate;
                    heap.push(HeapEntry::new(candidate, next as u32));
                }
            };
            match interior.get() {
                Some(Interior { one_fuel_costs, .. }) if kind == StepKind::OneFuel => {
                    // Every cell within reach holds this fuel: each step's cost is worked out
                    // already. Row by row over the square the stencil reaches, a row's seven
                    // arrivals are compared at once (no step: an infinite cost), and only a row
                    // with a sooner arrival is gone through again to write it.
                    let width = *width as usize;
                    let corner = index - STENCIL_REACH as usize * width - STENCIL_REACH as usize;
                    for (dy, costs) in one_fuel_costs[usize::from(fuel)].iter().enumerate() {
                        let start = corner + dy * width;
                        let row = &arrival[start..start + STENCIL_SIDE];
                        let sooner = row.iter().zip(costs).fold(false, |any, (&a, &c)| any | (time + c < a));
                        if sooner {
                            // Written out, not a loop: whether LLVM unrolled the loop depended
                            // on how the crate's code happened to be split for compiling, and
                            // the rolled loop cost the farmstead's move 7% more instructions.
                            let [c0, c1, c2, c3, c4, c5, c6] = *costs;
                            relax_to(arrival, start, time + c0);
                            relax_to(arrival, start + 1, time + c1);
                            relax_to(arrival, start + 2, time + c2);
                            relax_to(arrival, start + 3, time + c3);
                            relax_to(arrival, start + 4, time + c4);
                            relax_to(arrival, start + 5, time + c5);
                            relax_to(arrival, start + 6, time + c6);
                        }
                    }
                }
                _ => {
                    for step in interior_steps.iter() {
                        let next = index.wrapping_add_signed(step.offset);
                        // Distance × mean slowness of the two cells: rounds to cross from
                        // centre to centre.
                        let candidate = time + step.half_length_in * (slowness + slowness_of[usize::from(fuels[next])]);
                        relax_to(arrival, next, candidate);
                    }
                }
            }
            return;
        }
        let width = self.width as usize;
        let (x, y) = ((index % width) as i32, (index / width) as i32);
        let half_cell = 0.5 * self.cell_size;
        // Which cells around this one are on the table and of its material, as bits: a step is
        // open where its far end and every cell it crosses are (what `step` finds, edge by edge).
        let mut open = 0u64;
        for dy in -STENCIL_REACH..=STENCIL_REACH {
            let ny = y + dy;
            if ny < 0 || ny >= self.height as i32 {
                continue;
            }
            for dx in -STENCIL_REACH..=STENCIL_REACH {
                let nx = x + dx;
                if nx >= 0
                    && nx < self.width as i32
                    && self.same_material(self.fuel[ny as usize * width + nx as usize], fuel)
                {
                    open |= window_bit(dx, dy);
                }
            }
        }
        for edge in self.stencil.iter() {
            if open & edge.window_mask != edge.window_mask {
                continue;
            }
            let next = (y + edge.dy) as usize * width + (x + edge.dx) as usize;
            let candidate =
                time + edge.length_cells * half_cell * (slowness + self.slowness_of[usize::from(self.fuel[next])]);
            if !self.settled[next] & (candidate < self.arrival[next]) {
                self.arrival[next] = candidate;
                self.heap.push(HeapEntry::new(candidate, next as u32));
            }
        }
    }

    /// The cell `edge` leads to from (x, y), if it and every cell the step crosses hold `fuel`'s
    /// material.
    fn step(&self, x: i32, y: i32, edge: &StencilEdge, fuel: u8) -> Option<usize> {
        let next = self.neighbour(x, y, edge.dx, edge.dy)?;
        if !self.same_material(self.fuel[next], fuel) {
            return None;
        }
        // Crossed cells lie between the two ends, so they are on the table too.
        let width = self.width as usize;
        let clear = edge
            .crossed
            .iter()
            .all(|&(ox, oy)| self.same_material(self.fuel[(y + oy) as usize * width + (x + ox) as usize], fuel));
        clear.then_some(next)
    }

    fn neighbour(&self, x: i32, y: i32, dx: i32, dy: i32) -> Option<usize> {
        let (nx, ny) = (x + dx, y + dy);
        if nx < 0 || ny < 0 || nx >= self.width as i32 || ny >= self.height as i32 {
            return None;
        }
        Some(ny as usize * self.width as usize + nx as usize)
    }

    // `!(arrival <= time)` on purpose: a NaN time is "not reached".
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    fn state_of_index(&self, index: usize, time: f32) -> CellState {
        let arrival = self.arrival[index];
        if !self.settled[index] || !(arrival <= time) {
            CellState::Unburnt
        } else if time < arrival + self.burn_of[usize::from(self.fuel[index])] {
            CellState::Burning
        } else {
            CellState::Spent
        }
    }

    /// The cells burning at `time`, as indices row by row from the lower left (`y × width + x`),
    /// in the order they caught.
    pub fn burning_indices(&self, time: f32) -> impl Iterator<Item = usize> + '_ {
        let window = self.burning_window(time);
        let surely = self.surely_burning_from(time, window.clone());
        // Before `surely`, a cell burns only where its fuel burns longer than the shortest:
        // with one burn-out time on the table none does, and none is looked at.
        let tested = if self.min_burn_rounds < self.max_burn_rounds { window.start..surely } else { surely..surely };
        let test = move |&index: &usize| self.state_of_index(index, time) == CellState::Burning;
        let order = |range: std::ops::Range<usize>| self.settle_order[range].iter().map(|&cell| cell as usize);
        order(tested).filter(test).chain(order(surely..window.end))
    }

    /// Marks in `marks` the cells burning at `time`, as [`Self::burning_indices`] finds them.
    /// Marked last from this grid's fire at an earlier time, the bits are brought up to date:
    /// cells that caught since are looked at, and for each burn-out time the run of the settle
    /// order whose cells burnt out since; else they are marked afresh.
    pub fn mark_burning(&self, marks: &mut BurningBits, time: f32) {
        let words = self.fuel.len().div_ceil(64);
        let seen = self.settled_by(time);
        let carried_on = marks.marked.filter(|&(epoch, then, seen_then)| {
            epoch == self.epoch.0 && then <= time && seen_then <= seen && marks.bits.len() == words
        });
        if carried_on.is_none() {
            marks.clear(words);
        }
        let (arrival, fuel, order) = (&self.arrival[..], &self.fuel[..], &self.settle_order[..]);
        let bits = &mut marks.bits[..];
        let (mut first_word, mut last_word) = (marks.first_word, marks.last_word);
        let mut set = |cell: usize| {
            let word = cell / 64;
            bits[word] |= 1 << (cell % 64);
            first_word = first_word.min(word);
            last_word = last_word.max(word);
        };
        match carried_on {
            None => self.burning_indices(time).for_each(set),
            Some((_, then, seen_then)) => {
                // Caught since `then`: burning unless burnt out already, which only a cell that arrived
                // the shortest burn-out or longer before `time` can be.
                let surely = self.surely_burning_from(time, seen_then..seen);
                for &cell in &order[seen_then..surely] {
                    if self.state_of_index(cell as usize, time) == CellState::Burning {
                        set(cell as usize);
                    }
                }
                order[surely..seen].iter().for_each(|&cell| set(cell as usize));
                // Burnt out since: cells that arrived by `then` burn while `time < arrival + burn`, and
                // `arrival + burn` grows along the settle order, so for each burn-out time those whose
                // sum passed `then` but not `time` are one run of it.
                if then < time {
                    let mut burns: Vec<u32> =
                        self.burn_of[1..].iter().filter(|&&b| b > 0.0).map(|b| b.to_bits()).collect();
                    burns.sort_unstable();
                    burns.dedup();
                    let one_burn = burns.len() == 1;
                    let before = &order[..seen_then];
                    for burn in burns.into_iter().map(f32::from_bits) {
                        let out_by = |t: f32| before.partition_point(|&cell| arrival[cell as usize] + burn <= t);
                        for &cell in &before[out_by(then)..out_by(time)] {
                            // With one burn-out time on the table, every cell has it.
                            if one_burn || self.burn_of[usize::from(fuel[cell as usize])] == burn {
                                bits[cell as usize / 64] &= !(1 << (cell % 64));
                            }
                        }
                    }
                }
            }
        }
        (marks.first_word, marks.last_word) = (first_word, last_word);
        marks.marked = Some((self.epoch.0, time, seen));
    }

    /// Where in `window` (of the settle order, arrived by `time`) the cells that are surely
    /// burning at `time` begin: those that arrived less than the shortest burn-out before it.
    /// `time < arrival + shortest` rounds no later than `time < arrival + burn` for any longer
    /// burn, and grows with the arrival, so they are a tail of the window.
    fn surely_burning_from(&self, time: f32, window: std::ops::Range<usize>) -> usize {
        let shortest = self.min_burn_rounds;
        let arrival = &self.arrival;
        window.start + self.settle_order[window].partition_point(|&cell| arrival[cell as usize] + shortest <= time)
    }

    /// How many settled cells arrived by `time` (the settle order is by arrival). What burns at
    /// `time` changes only when this does, or when the grid is painted, cleared or restored.
    pub fn settled_by(&self, time: f32) -> usize {
        // Every settled cell arrived by `settled_until`: asked at or after it (as each round
        // asks, at its end), no arrival need be looked up, each one far out of cache.
        if time >= self.settled_until {
            return self.settle_order.len();
        }
        self.settle_order.partition_point(|&cell| self.arrival[cell as usize] <= time)
    }

    /// The entries of the settle order that may be burning at `time`: only cells that arrived
    /// within the longest burn-out before it can still burn (the extra round absorbs rounding;
    /// callers test each cell exactly).
    fn burning_window(&self, time: f32) -> std::ops::Range<usize> {
        let earliest = time - self.max_burn_rounds - 1.0;
        let (lo, hi) = (self.settled_by(earliest), self.settled_by(time));
        lo..hi.max(lo)
    }

    fn index_of(&self, cell: Cell) -> Option<usize> {
        (cell.x < self.width && cell.y < self.height).then(|| cell.y as usize * self.width as usize + cell.x as usize)
    }

    fn index_at(&self, x_in: f32, y_in: f32) -> Option<usize> {
        if !(x_in >= 0.0 && y_in >= 0.0) {
            return None;
        }
        // Not negative, so `as` rounds down as `floor` would (which is a libm call), and a
        // whole number of cells bounds the unrounded value as it bounds the rounded one.
        let x = x_in / self.cell_size;
        let y = y_in / self.cell_size;
        if !(x < self.width as f32 && y < self.height as f32) {
            return None;
        }
        Some(y as usize * self.width as usize + x as usize)
    }

    fn cell_of(&self, index: usize) -> Cell {
        let width = self.width as usize;
        Cell { x: (index % width) as u32, y: (index / width) as u32 }
    }

    fn centre_of_index(&self, index: usize) -> (f32, f32) {
        let width = self.width as usize;
        (((index % width) as f32 + 0.5) * self.cell_size, ((index / width) as f32 + 0.5) * self.cell_size)
    }
}

/// Columns and rows of a grid over `width_in` × `height_in` inches with cells `cell_size_in`
/// across (sizes already checked finite and above 0), within [`MAX_CELLS`].
pub fn grid_dimensions(width_in: f32, height_in: f32, cell_size_in: f32) -> Result<(u32, u32), FireGridError> {
    let width = cells_across(width_in, cell_size_in);
    let height = cells_across(height_in, cell_size_in);
    let cells = width.saturating_mul(height);
    if cells > MAX_CELLS as u64 || width > u64::from(u32::MAX) || height > u64::from(u32::MAX) {
        return Err(FireGridError::TooManyCells { cells, max: MAX_CELLS });
    }
    Ok((width as u32, height as u32))
}

/// Cells needed to cover `length` inches; a length within 0.1% of a whole number of cells
/// counts as that number (72" / 0.1" is 720 cells, not 721 through rounding).
fn cells_across(length: f32, cell: f32) -> u64 {
    let exact = f64::from(length) / f64::from(cell);
    let rounded = exact.round();
    let cells = if (exact - rounded).abs() < 1e-3 { rounded } else { exact.ceil() };
    cells.max(1.0) as u64
}

/// Per cell of a grid `width` × `height`: whether every cell within `reach` of it (a square,
/// `2 × reach + 1` cells a side) is on the grid and holds its key, which is not 0. Runs of one
/// key along each row long enough for the reach either side, then the same down each column.
fn uniform_boxes(keys: &[u8], width: usize, height: usize, reach: usize) -> Vec<bool> {
    let mut across = vec![false; keys.len()];
    for y in 0..height {
        let row = &keys[y * width..(y + 1) * width];
        let mut start = 0;
        while start < width {
            let end = start + row[start..].iter().take_while(|&&k| k == row[start]).count();
            if row[start] != 0 && end - start > 2 * reach {
                across[y * width + start + reach..y * width + end - reach].fill(true);
            }
            start = end;
        }
    }
    (0..keys.len())
        .map(|index| {
            let y = index / width;
            across[index]
                && y >= reach
                && y + reach < height
                && (y - reach..=y + reach)
                    .all(|ny| across[ny * width + index % width] && keys[ny * width + index % width] == keys[index])
        })
        .collect()
}

fn build_stencil() -> Vec<StencilEdge> {
    let mut offsets: Vec<(i32, i32)> = Vec::new();
    for (a, b) in STENCIL_FIRST_OCTANT {
        for (p, q) in [(a, b), (b, a)] {
            for sx in [1, -1] {
                for sy in [1, -1] {
                    let offset = (sx * p, sy * q);
                    if !offsets.contains(&offset) {
                        offsets.push(offset);
                    }
                }
            }
        }
    }
    offsets
        .into_iter()
        .map(|(dx, dy)| {
            let crossed = crossed_cells(dx, dy);
            let window_mask = crossed.iter().fold(window_bit(dx, dy), |mask, &(ox, oy)| mask | window_bit(ox, oy));
            StencilEdge { dx, dy, length_cells: ((dx * dx + dy * dy) as f32).sqrt(), crossed, window_mask }
        })
        .collect()
}

/// Cells (other than the two ends) whose closed squares the segment from the centre of (0, 0) to
/// the centre of (dx, dy) touches. Exact: separating-axis test in doubled integer coordinates.
fn crossed_cells(dx: i32, dy: i32) -> Vec<(i32, i32)> {
    let mut crossed = Vec::new();
    for i in dx.min(0)..=dx.max(0) {
        for j in dy.min(0)..=dy.max(0) {
            if (i, j) == (0, 0) || (i, j) == (dx, dy) {
                continue;
            }
            // Within the segment's bounding box already; touch if the square's corners are not
            // all strictly on one side of the line.
            let corners =
                [(2 * i - 1, 2 * j - 1), (2 * i + 1, 2 * j - 1), (2 * i - 1, 2 * j + 1), (2 * i + 1, 2 * j + 1)];
            let sides = corners.map(|(cx, cy)| i64::from(2 * dx) * i64::from(cy) - i64::from(2 * dy) * i64::from(cx));
            let lowest = sides.iter().copied().min().unwrap_or(0);
            let highest = sides.iter().copied().max().unwrap_or(0);
            if lowest <= 0 && highest >= 0 {
                crossed.push((i, j));
            }
        }
    }
    crossed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 001 "Fire Spreading", written out again.
    const FIRE_SPREAD_RATES: [(&str, f32); 8] = [
        ("oil", 1.0),
        ("standing corn or hay", 0.7),
        ("brushwood", 0.5),
        ("thatch", 0.4),
        ("cloth", 0.3),
        ("bushes", 0.3),
        ("trees", 0.2),
        ("solid timber", 0.1),
    ];

    fn fuel(index: u8, rate: f32, burn: f32) -> Fuel {
        Fuel { index, spread_rate_in: rate, burn_out_rounds: burn }
    }

    fn grid(width_in: f32, height_in: f32) -> FireGrid {
        FireGrid::new(width_in, height_in, 0.1).expect("valid test grid")
    }

    fn uniform(width_in: f32, height_in: f32, rate: f32, burn: f32) -> FireGrid {
        let mut g = grid(width_in, height_in);
        g.paint(|_, _| Some(fuel(1, rate, burn))).expect("valid fuel");
        g
    }

    fn all_cells(g: &FireGrid) -> impl Iterator<Item = Cell> + '_ {
        (0..g.height_cells()).flat_map(move |y| (0..g.width_cells()).map(move |x| Cell { x, y }))
    }

    /// Distance along a ray from `origin` to the first point in an unburnt cell.
    fn burnt_radius(g: &FireGrid, origin: (f32, f32), angle: f32, time: f32) -> f32 {
        let step = 0.002f32;
        let (dx, dy) = (angle.cos(), angle.sin());
        let mut last = 0.0;
        for i in 1..10_000 {
            let s = i as f32 * step;
            let burnt = g
                .cell_at(origin.0 + s * dx, origin.1 + s * dy)
                .is_some_and(|c| g.state_at(c, time) != CellState::Unburnt);
            if !burnt {
                break;
            }
            last = s;
        }
        last
    }

    #[test]
    fn stencil_has_32_distinct_offsets_and_crossed_cells() {
        let stencil = build_stencil();
        assert_eq!(stencil.len(), 32);
        for (i, a) in stencil.iter().enumerate() {
            assert!(stencil[i + 1..].iter().all(|b| (b.dx, b.dy) != (a.dx, a.dy)));
        }
        assert!(crossed_cells(1, 0).is_empty());
        assert_eq!(crossed_cells(2, 0), vec![(1, 0)]);
        assert_eq!(crossed_cells(1, 1), vec![(0, 1), (1, 0)]);
        assert_eq!(crossed_cells(1, 2), vec![(0, 1), (1, 1)]);
        assert_eq!(crossed_cells(-1, 2), vec![(-1, 1), (0, 1)]);
        // Passes exactly through the corner at (0.5, 1.5): all four cells around it.
        assert_eq!(crossed_cells(1, 3), vec![(0, 1), (0, 2), (1, 1), (1, 2)]);
        assert_eq!(crossed_cells(2, 3), vec![(0, 1), (1, 1), (1, 2), (2, 2)]);
        assert_eq!(crossed_cells(3, 2), vec![(1, 0), (1, 1), (2, 1), (2, 2)]);
    }

    /// A step is open by the window's bits exactly where `step` finds it open: on a grid of
    /// two materials (one of two fuels), rock, holes and the table's edges, from every cell.
    #[test]
    fn window_masks_open_the_steps_that_step_opens() {
        let mut g = grid(3.0, 2.0);
        g.paint(|x, y| match ((x * 1.7) as u32 * 3 + (y * 2.3) as u32 * 5 + (x * y) as u32) % 4 {
            0 => None,
            1 => Some(fuel(1, 0.5, 3.0)),
            2 => Some(fuel(2, 0.5, 3.0)),
            _ => Some(fuel(3, 0.2, 2.0)),
        })
        .expect("valid fuel");
        g.set_material(2, 1);
        for edge in &g.stencil {
            assert!(edge.dx.abs() <= STENCIL_REACH && edge.dy.abs() <= STENCIL_REACH);
            assert_eq!(edge.window_mask.count_ones() as usize, 1 + edge.crossed.len());
        }
        let (width, height) = (g.width_cells() as i32, g.height_cells() as i32);
        let (mut open_steps, mut closed_steps) = (0, 0);
        for y in 0..height {
            for x in 0..width {
                let fuel = g.fuel[(y * width + x) as usize];
                let mut window = 0u64;
                for dy in -STENCIL_REACH..=STENCIL_REACH {
                    for dx in -STENCIL_REACH..=STENCIL_REACH {
                        let on = (0..width).contains(&(x + dx)) && (0..height).contains(&(y + dy));
                        if on && g.same_material(g.fuel[((y + dy) * width + x + dx) as usize], fuel) {
                            window |= window_bit(dx, dy);
                        }
                    }
                }
                for edge in &g.stencil {
                    let open = window & edge.window_mask == edge.window_mask;
                    assert_eq!(open, g.step(x, y, edge, fuel).is_some(), "({x}, {y}) by ({}, {})", edge.dx, edge.dy);
                    (open_steps, closed_steps) = (open_steps + usize::from(open), closed_steps + usize::from(!open));
                }
            }
        }
        assert!(open_steps > 1000 && closed_steps > 1000, "{open_steps} open, {closed_steps} closed");
    }

    #[test]
    fn cells_passing_a_test_on_arrival_are_counted_as_a_walk_counts_them() {
        // Two fires, settled round by round; spent-by-now counts from several starts.
        let mut g = grid(6.0, 4.0);
        g.paint(|x, _| Some(if x < 3.0 { fuel(1, 0.5, 3.0) } else { fuel(2, 0.3, 5.0) })).expect("valid fuel");
        g.ignite(1.0, 1.0, 0.0, 0.0);
        g.ignite(5.0, 3.0, 0.2, 1.5);
        for round in 1..=12 {
            g.advance_to(round as f32);
            let arrivals: Vec<f32> = g.settled_from(0).map(|(_, arrival)| arrival).collect();
            assert!(arrivals.len() > 1);
            for now in [0.0f32, 1.0, 2.5, round as f32, 30.0] {
                for first in [0, 1, arrivals.len() / 2, arrivals.len(), arrivals.len() + 3] {
                    let walked = arrivals.iter().skip(first).take_while(|&&arrival| now >= arrival + 3.0).count();
                    assert_eq!(g.settled_passing_from(first, |arrival| now >= arrival + 3.0), walked, "{now} {first}");
                }
            }
        }
    }

    /// Bits kept from one time to a later one are the cells burning then, as marking them
    /// afresh finds them: with three burn-out times (one shorter than a step between times),
    /// ignitions between markings, at the marked time and after a restore or a wipe, on a copy
    /// of the grid, and at an earlier time.
    #[test]
    fn burning_bits_kept_between_times_are_the_cells_burning() {
        let mut g = grid(6.0, 4.0);
        g.paint(|x, y| {
            Some(if y < 1.0 {
                fuel(3, 2.0, 0.4)
            } else if x < 3.0 {
                fuel(1, 0.5, 3.0)
            } else {
                fuel(2, 0.3, 5.0)
            })
        })
        .expect("valid fuel");
        let check = |g: &FireGrid, marks: &mut BurningBits, time: f32| {
            g.mark_burning(marks, time);
            let mut fresh = BurningBits::default();
            g.mark_burning(&mut fresh, time);
            for index in 0..g.fuel.len() {
                let marked = marks.bits()[index / 64] >> (index % 64) & 1 == 1;
                assert_eq!(marked, g.state_of_index(index, time) == CellState::Burning, "cell {index} at {time}");
            }
            assert_eq!(marks.bits(), fresh.bits(), "at {time}");
            assert_eq!(marks.set_words(), fresh.set_words());
        };
        let mut marks = BurningBits::default();
        g.ignite(1.0, 2.0, 0.0, 0.0);
        let mut burning_at_some_time = false;
        for step in 1..=90 {
            let time = step as f32 * 0.35;
            g.advance_to(time);
            if step == 6 {
                g.ignite(5.0, 3.0, 0.2, time);
                g.ignite(1.0, 0.5, 0.1, time);
            }
            if step % 7 == 0 {
                check(&g, &mut marks, time); // twice at one time
            }
            check(&g, &mut marks, time);
            burning_at_some_time |= marks.set_words().is_some();
        }
        assert!(burning_at_some_time && marks.set_words().is_none(), "the fires burnt out");
        // An earlier time, a copy, a restore and a wipe are each marked afresh.
        let mut copy = g.clone();
        for (grid, time) in [(&g, 3.0), (&copy, 3.5)] {
            check(grid, &mut marks, time);
        }
        let reached: Vec<(u32, f32)> = g.reached().collect();
        copy.restore(4.0, reached).expect("restores");
        check(&copy, &mut marks, 4.0);
        copy.advance_to(5.0);
        check(&copy, &mut marks, 5.0);
        copy.clear_fire();
        copy.ignite(2.0, 2.0, 0.5, 5.0);
        copy.advance_to(5.5);
        check(&copy, &mut marks, 5.5);
    }

    #[test]
    fn new_grid_sizes_and_errors() {
        let g = FireGrid::new(72.0, 48.0, 0.1).expect("a full table");
        assert_eq!((g.width_cells(), g.height_cells()), (720, 480));
        let g = FireGrid::new(1.05, 0.95, 0.1).expect("small");
        assert_eq!((g.width_cells(), g.height_cells()), (11, 10));
        for (w, h, c) in
            [(0.0, 1.0, 0.1), (1.0, -1.0, 0.1), (1.0, 1.0, 0.0), (f32::NAN, 1.0, 0.1), (1.0, f32::INFINITY, 0.1)]
        {
            assert!(matches!(FireGrid::new(w, h, c), Err(FireGridError::InvalidSize { .. })), "{w} {h} {c}");
        }
        assert!(matches!(FireGrid::new(1000.0, 1000.0, 0.1), Err(FireGridError::TooManyCells { .. })));
        assert!(matches!(FireGrid::new(f32::MAX, f32::MAX, 1e-30), Err(FireGridError::TooManyCells { .. })));
    }

    #[test]
    fn invalid_fuel_is_an_error() {
        let mut g = grid(1.0, 1.0);
        for bad in [
            fuel(0, 1.0, 1.0),
            fuel(1, 0.0, 1.0),
            fuel(1, -0.5, 1.0),
            fuel(1, f32::NAN, 1.0),
            fuel(1, 1.0, 0.0),
            fuel(1, 1.0, f32::INFINITY),
        ] {
            assert!(matches!(g.paint(|_, _| Some(bad)), Err(FireGridError::InvalidFuel { .. })), "{bad:?}");
        }
        assert!(g.paint(|_, _| Some(fuel(3, 0.4, 6.0))).is_ok());
        assert_eq!(g.fuel_at(Cell { x: 2, y: 2 }), Some(fuel(3, 0.4, 6.0)));
        assert!(g.paint_rect((0.0, 0.0), (0.5, 0.5), None).is_ok());
        assert_eq!(g.fuel_at(Cell { x: 2, y: 2 }), None);
        assert_eq!(g.fuel_at(Cell { x: 5, y: 2 }), Some(fuel(3, 0.4, 6.0)));
    }

    #[test]
    fn a_fuel_index_has_one_spread_rate_and_burn_out() {
        let mut g = grid(2.0, 1.0);
        // Column x's centre, as the grid works it out.
        let column = |x: u32| (x as f32 + 0.5) * g.cell_size_in();
        let (c5, c10, c12) = (column(5), column(10), column(12));
        let conflict = |result: Result<(), FireGridError>| match result {
            Err(FireGridError::InvalidFuel { x_in, reason, .. }) => {
                assert_eq!(reason, FUEL_CONFLICT);
                x_in
            }
            other => panic!("{other:?}"),
        };
        // One index with two rates, or two burn-outs, in one paint: the first cell of the second.
        assert_eq!(conflict(g.paint(|x, _| Some(fuel(1, if x < 1.0 { 0.5 } else { 0.25 }, 4.0)))), c10);
        assert_eq!(conflict(g.paint(|x, _| Some(fuel(1, 0.5, if x < 0.5 { 4.0 } else { 6.0 })))), c5);
        // A whole paint that fails leaves the cells after the failure as they were, with their
        // fuel's numbers.
        assert!(g.paint(|_, _| Some(fuel(3, 1.0, 1.0))).is_ok());
        assert_eq!(conflict(g.paint(|x, _| Some(fuel(2, if x < 1.0 { 0.5 } else { 0.25 }, 4.0)))), c10);
        assert_eq!(g.fuel_at(Cell { x: 3, y: 0 }), Some(fuel(2, 0.5, 4.0)));
        assert_eq!(g.fuel_at(Cell { x: 3, y: 1 }), Some(fuel(3, 1.0, 1.0)), "not reached by the paint");
        assert_eq!((g.min_burn_rounds, g.max_burn_rounds), (1.0, 4.0));
        // A whole paint may give an index new numbers; painting a part may not.
        assert!(g.paint(|_, _| Some(fuel(1, 0.5, 4.0))).is_ok());
        assert!(g.paint(|_, _| Some(fuel(1, 0.25, 6.0))).is_ok());
        assert_eq!(g.fuel_at(Cell { x: 3, y: 3 }), Some(fuel(1, 0.25, 6.0)));
        assert_eq!(conflict(g.paint_rect((1.0, 0.0), (2.0, 1.0), Some(fuel(1, 0.5, 6.0)))), c10);
        assert!(g.paint_rect((1.0, 0.0), (2.0, 1.0), Some(fuel(1, 0.25, 6.0))).is_ok());
        assert!(g.paint_rect((1.0, 0.0), (2.0, 1.0), Some(fuel(2, 0.5, 2.0))).is_ok());
        assert_eq!(g.fuel_at(Cell { x: 3, y: 3 }), Some(fuel(1, 0.25, 6.0)));
        assert_eq!(g.fuel_at(Cell { x: 13, y: 3 }), Some(fuel(2, 0.5, 2.0)));
        assert_eq!((g.min_burn_rounds, g.max_burn_rounds), (2.0, 6.0));
        // An index no cell holds any more is forgotten: painting it anew gives it new numbers.
        assert!(g.paint_rect((1.0, 0.0), (2.0, 1.0), None).is_ok());
        assert_eq!((g.min_burn_rounds, g.max_burn_rounds), (6.0, 6.0));
        assert!(g.paint_rect((1.0, 0.0), (2.0, 1.0), Some(fuel(2, 1.0, 1.0))).is_ok());
        assert_eq!(g.fuel_at(Cell { x: 13, y: 3 }), Some(fuel(2, 1.0, 1.0)));
        // By index: a list giving one index two sets of numbers, at the first cell taking the
        // second; unused, it paints.
        let list = [fuel(1, 0.5, 4.0), fuel(1, 0.25, 4.0)];
        assert_eq!(conflict(g.paint_indexed(&list, |i| if i % 20 >= 12 { 2 } else { 1 })), c12);
        assert!(g.paint_indexed(&list, |_| 1).is_ok());
        assert_eq!(g.fuel_at(Cell { x: 13, y: 3 }), Some(fuel(1, 0.5, 4.0)));
    }

    #[test]
    fn a_failed_restore_leaves_nothing_lit() {
        let mut g = uniform(2.0, 2.0, 0.5, 4.0);
        // Cells 0 and 5 are put back before cell 10⁶ fails; clearing must still find them.
        let broken = g.restore(0.1, [(0, 0.5), (5, 2.0), (1_000_000, 1.0)]);
        assert!(matches!(broken, Err(FireGridError::InvalidState(_))), "{broken:?}");
        g.clear_fire();
        assert_eq!(g.reached().count(), 0);
        assert_eq!(g.settled_count(), 0);
        assert!(g.paint(|_, _| Some(fuel(1, 0.5, 4.0))).is_ok());
        assert_eq!(g.reached().count(), 0);
    }

    #[test]
    fn painting_by_index_paints_what_painting_by_centre_does() {
        let fuels = [fuel(1, 0.5, 4.0), fuel(2, 0.25, 6.0), fuel(3, 1.0, 1.0)];
        // Stripes of each fuel, none and an index past the list, by cell.
        let choice = |index: usize| (index * 7 / 3) % 5;
        let mut by_index = grid(7.3, 4.1);
        by_index.paint_indexed(&fuels, choice).expect("valid fuels");
        let width = by_index.width_cells() as usize;
        let mut by_centre = grid(7.3, 4.1);
        let size = by_centre.cell_size_in();
        by_centre
            .paint(|x, y| fuels.get(choice((y / size) as usize * width + (x / size) as usize).wrapping_sub(1)).copied())
            .expect("valid fuels");
        let mut counts = [0usize; 256];
        for y in 0..by_index.height_cells() {
            for x in 0..by_index.width_cells() {
                let cell = Cell { x, y };
                assert_eq!(by_index.fuel_at(cell), by_centre.fuel_at(cell), "{cell:?}");
                counts[by_index.fuel_at(cell).map_or(0, |f| usize::from(f.index))] += 1;
            }
        }
        assert_eq!(by_index.cells_by_fuel_index(), counts);
        assert!(counts[1] > 0 && counts[2] > 0 && counts[3] > 0 && counts[0] > 0);
        // The same by a byte a cell, one short of the table (the last cell takes no fuel).
        let cells = width * by_index.height_cells() as usize;
        let bytes: Vec<u8> = (0..cells - 1).map(|i| choice(i) as u8).collect();
        let mut by_bytes = grid(7.3, 4.1);
        by_bytes.paint(|_, _| Some(fuels[2])).expect("valid fuel");
        by_bytes.paint_indexed_cells(&fuels, bytes.clone()).expect("valid fuels");
        assert!((0..cells - 1).all(|i| by_bytes.fuel[i] == by_index.fuel[i]));
        assert_eq!(by_bytes.fuel[cells - 1], 0);
        let recount = |g: &FireGrid| {
            let mut counts = [0usize; 256];
            g.fuel.iter().for_each(|&f| counts[usize::from(f)] += 1);
            counts
        };
        assert_eq!(by_bytes.cells_by_fuel_index(), recount(&by_bytes), "counted again at the second paint");
        // A list whose indices are not their places is looked up: byte 1 is fuel 3, byte 2 fuel 1.
        let mut by_place = grid(7.3, 4.1);
        by_place.paint_indexed_cells(&[fuels[2], fuels[0]], bytes.iter().map(|&k| k.min(2)).collect()).expect("valid");
        for (i, &k) in bytes.iter().enumerate() {
            assert_eq!(by_place.fuel[i], [0, 3, 1][usize::from(k.min(2))], "cell {i}");
        }
        assert_eq!(by_place.cells_by_fuel_index(), recount(&by_place));
        assert_eq!((by_index.min_burn_rounds, by_index.max_burn_rounds), (1.0, 6.0));
        // A broken fuel is reported at the first cell taking it, as by centre; unused, it is not.
        let broken = [fuel(1, 0.5, 4.0), fuel(2, 0.0, 6.0)];
        let by_index = by_index.paint_indexed(&broken, |i| if i >= 13 && i.is_multiple_of(2) { 2 } else { 1 });
        let centre = |i: usize| ((i % width) as f32 + 0.5) * size;
        let by_centre = by_centre.paint(|x, y| {
            let i = (y / size) as usize * width + (x / size) as usize;
            Some(broken[if i >= 13 && i.is_multiple_of(2) { 1 } else { 0 }])
        });
        match (by_index, by_centre) {
            (
                Err(FireGridError::InvalidFuel { x_in, y_in, .. }),
                Err(FireGridError::InvalidFuel { x_in: cx, y_in: cy, .. }),
            ) => {
                assert_eq!((x_in, y_in), (cx, cy));
                assert_eq!(x_in, centre(14));
            }
            other => panic!("{other:?}"),
        }
        let mut g = grid(2.0, 2.0);
        assert!(g.paint_indexed(&broken, |_| 1).is_ok(), "the broken fuel is not painted");
    }

    #[test]
    fn front_is_round_for_every_fire_spread_rate() {
        for (material, rate) in FIRE_SPREAD_RATES {
            let mut g = uniform(20.0, 20.0, rate, 1.0e6);
            let origin = g.cell_centre(Cell { x: 100, y: 100 }).expect("on the table");
            assert!(g.ignite(origin.0, origin.1, 0.0, 0.0).is_some());
            for target_in in [2.0f32, 5.0, 9.0] {
                let rounds = (target_in / rate).floor().max(1.0);
                g.advance_to(rounds);
                let expected = rate * rounds;
                let tolerance = (0.02 * expected).max(0.1);
                for k in 0..16 {
                    let degrees = k as f32 * 22.5;
                    let radius = burnt_radius(&g, origin, degrees.to_radians(), rounds);
                    assert!(
                        (radius - expected).abs() <= tolerance,
                        "{material} (FSR {rate}) after {rounds} rounds at {degrees}°: burnt radius {radius}, expected {expected} ± {tolerance}"
                    );
                }
            }
        }
    }

    #[test]
    fn grid_distance_meets_the_analytic_stencil_bound_in_every_direction() {
        let rate = 0.5;
        let mut g = uniform(20.0, 20.0, rate, 1.0e6);
        g.set_front_solver(FrontSolver::Grid);
        let origin = g.cell_centre(Cell { x: 100, y: 100 }).expect("on the table");
        assert!(g.ignite(origin.0, origin.1, 0.0, 0.0).is_some());
        g.advance_to(f32::INFINITY);
        assert!(g.exact_fronts().is_empty());
        let bound_32 = stencil_slowdown();
        let mut worst = 1.0f32;
        for cell in all_cells(&g) {
            let (cx, cy) = g.cell_centre(cell).expect("on the table");
            let distance = ((cx - origin.0).powi(2) + (cy - origin.1).powi(2)).sqrt();
            if distance < 3.0 {
                continue;
            }
            let arrival = g.arrival(cell).expect("uniform fuel burns everywhere");
            let ratio = arrival * rate / distance;
            assert!(ratio >= 0.9999, "{cell:?} reached faster than the FSR: {ratio}");
            worst = worst.max(ratio);
        }
        assert!(worst <= bound_32 + 1e-4, "worst slowness {worst} above the bound {bound_32}");
        assert!(worst > 1.01, "the test should see the stencil's anisotropy, worst {worst}");
        // The bound is 1.3% short; a 16-neighbour stencil would be 2.7% short.
        assert!(1.0 - 1.0 / bound_32 < 0.0135);
        assert!(1.0 - (26.565_05f32 / 2.0).to_radians().cos() > 0.02);
    }

    #[test]
    fn ignition_radius_catches_at_once_then_spreads() {
        let mut g = uniform(4.0, 4.0, 1.0, 100.0);
        let centre = g.cell_centre(Cell { x: 20, y: 20 }).expect("on the table");
        let ignition = g.ignite(centre.0, centre.1, 0.5, 3.0).expect("burnable");
        assert_eq!(ignition, Ignition { fuel: 1, time: 3.0, cells_seeded: ignition.cells_seeded });
        assert!(ignition.cells_seeded > 80);
        g.advance_to(10.0);
        assert_eq!(g.arrival(Cell { x: 24, y: 20 }), Some(3.0));
        let beyond = g.arrival(Cell { x: 30, y: 20 }).expect("reached");
        assert!((beyond - 3.5).abs() < 1e-4, "{beyond}");
        let far = g.arrival(Cell { x: 38, y: 20 }).expect("reached");
        assert!((far - 4.3).abs() < 1e-3, "{far}");
    }

    #[test]
    fn ignition_refuses_nothing_to_burn_and_never_rewrites_the_past() {
        let mut g = grid(3.0, 3.0);
        g.paint(|x, _| (x < 1.5).then_some(fuel(1, 0.5, 4.0))).expect("valid fuel");
        assert_eq!(g.ignite(2.0, 1.0, 0.0, 0.0), None);
        assert_eq!(g.ignite(-0.1, 1.0, 0.0, 0.0), None);
        assert_eq!(g.ignite(1.0, 3.5, 0.0, 0.0), None);
        assert_eq!(g.ignite(1.0, 1.0, 0.0, f32::NAN), None);
        assert_eq!(g.ignite(1.0, 1.0, -1.0, 0.0), None);
        assert_eq!(g.ignite_cell(Cell { x: 30, y: 0 }, 0.0), None);
        g.advance_to(5.0);
        let late = g.ignite(0.55, 0.55, 0.0, 2.0).expect("burnable");
        assert_eq!(late.time, 5.0);
        // The cell holding the point catches at once, and is settled straight away.
        assert_eq!(g.state_at(Cell { x: 5, y: 5 }, 5.0), CellState::Burning);
    }

    #[test]
    fn fire_does_not_cross_a_one_cell_gap() {
        // Column 30 (centre 3.05") does not burn; the fire starts right beside it.
        let mut g = grid(6.0, 6.0);
        g.paint(|x, _| (!(3.0..3.1).contains(&x)).then_some(fuel(1, 1.0, 100.0))).expect("valid fuel");
        assert!(g.ignite_cell(Cell { x: 29, y: 30 }, 0.0).is_some());
        g.advance_to(f32::INFINITY);
        for cell in all_cells(&g) {
            match cell.x {
                0..30 => assert!(g.arrival(cell).is_some(), "{cell:?} should burn"),
                _ => assert_eq!(g.arrival(cell), None, "{cell:?} is across the gap"),
            }
        }
    }

    #[test]
    fn fire_does_not_cross_a_diagonal_gap_of_corner_touching_cells() {
        // Cells with x == y do not burn: they touch only at corners.
        let mut g = grid(6.0, 6.0);
        g.paint(|x, y| ((x - y).abs() > 0.05).then_some(fuel(1, 1.0, 100.0))).expect("valid fuel");
        assert_eq!(g.fuel_at(Cell { x: 7, y: 7 }), None);
        assert!(g.ignite_cell(Cell { x: 31, y: 30 }, 0.0).is_some());
        g.advance_to(f32::INFINITY);
        for cell in all_cells(&g) {
            if cell.x > cell.y {
                assert!(g.arrival(cell).is_some(), "{cell:?} should burn");
            } else {
                assert_eq!(g.arrival(cell), None, "{cell:?} is across the diagonal gap");
            }
        }
    }

    #[test]
    fn another_material_is_not_entered_but_reported_as_a_contact() {
        // Fuel 1 left of 3.0", fuel 2 right of it: columns 0..30 and 30..60.
        let mut g = grid(6.0, 3.0);
        g.paint(|x, _| Some(if x < 3.0 { fuel(1, 1.0, 100.0) } else { fuel(2, 1.0, 100.0) })).expect("valid fuel");
        assert!(g.ignite_cell(Cell { x: 10, y: 15 }, 0.0).is_some());
        g.advance_to(1.85);
        assert!(g.contacts(1.85).is_empty());
        g.advance_to(2.0);
        let contacts = g.contacts(2.0);
        assert!(!contacts.is_empty());
        for contact in &contacts {
            assert_eq!((contact.from_fuel, contact.to_fuel, contact.to_cell.x), (1, 2, 30), "{contact:?}");
            assert_eq!(contact.from_cell.x, 29);
            assert!(contact.since_time <= 2.0);
        }
        let first = contacts.iter().find(|c| c.to_cell == Cell { x: 30, y: 15 }).expect("straight ahead");
        assert_eq!(first.from_cell, Cell { x: 29, y: 15 });
        assert!((first.since_time - 1.9).abs() < 1e-3, "{first:?}");

        g.advance_to(60.0);
        for cell in all_cells(&g) {
            assert_eq!(g.arrival(cell).is_some(), cell.x < 30, "{cell:?}");
        }
        assert_eq!(g.contacts(60.0).len(), 30);
        // The caller's ignition roll succeeded.
        let caught = g.ignite_cell(Cell { x: 30, y: 15 }, 60.0).expect("burnable");
        assert_eq!((caught.fuel, caught.time), (2, 60.0));
        g.advance_to(61.0);
        let arrival = g.arrival(Cell { x: 35, y: 15 }).expect("the new fire spreads");
        assert!((arrival - 60.5).abs() < 1e-3, "{arrival}");
        assert!(g.contacts(61.0).iter().all(|c| c.to_cell.x == 30 && g.arrival(c.to_cell).is_none()));
    }

    /// Border cells, worked out three rows at a time, are the cells a plain look at each cell's
    /// eight neighbours finds: fuels of one material border none of each other, rock borders
    /// nothing, and the table's edges and corners are checked. One material has none.
    #[test]
    fn border_cells_are_the_cells_beside_another_material() {
        let plain = |g: &FireGrid| -> Vec<u32> {
            let (width, height) = (g.width_cells() as i32, g.height_cells() as i32);
            let material = |x: i32, y: i32| {
                let f = g.fuel[(y * width + x) as usize];
                if f == 0 { 0 } else { g.material_of[usize::from(f)] }
            };
            (0..width * height)
                .filter(|&i| {
                    let (x, y) = (i % width, i / width);
                    let here = material(x, y);
                    here != 0
                        && (-1..=1).any(|dy: i32| {
                            (-1..=1).any(|dx: i32| {
                                let (nx, ny) = (x + dx, y + dy);
                                (0..width).contains(&nx) && (0..height).contains(&ny) && {
                                    let there = material(nx, ny);
                                    there != 0 && there != here
                                }
                            })
                        })
                })
                .map(|i| i as u32)
                .collect()
        };
        for merged in [false, true] {
            let mut g = grid(3.3, 2.1);
            g.paint(|x, y| match ((x * 1.7 + y * 0.9) as u32 + ((x - 1.6).hypot(y - 1.0) < 0.5) as u32) % 5 {
                0 => Some(fuel(1, 0.5, 2.0)),
                1 => Some(fuel(2, 0.5, 2.0)),
                2 => None,
                3 => Some(fuel(3, 0.5, 2.0)),
                _ => Some(fuel(4, 0.2, 2.0)),
            })
            .expect("valid fuel");
            if merged {
                g.set_material(1, 9);
                g.set_material(3, 9);
            }
            let expected = plain(&g);
            assert!(!expected.is_empty());
            let borders = g.borders();
            assert_eq!(borders.cells, expected, "merged {merged}");
            assert!(borders.of_cell.iter().enumerate().all(|(i, &b)| b == expected.contains(&(i as u32))));
        }
        // Two fuel indices of one material, and rock: no borders at all.
        let mut g = grid(2.0, 1.0);
        g.paint(|x, _| {
            if x < 0.5 {
                None
            } else if x < 1.2 {
                Some(fuel(5, 0.5, 2.0))
            } else {
                Some(fuel(6, 0.5, 2.0))
            }
        })
        .expect("valid fuel");
        assert!(!g.borders().cells.is_empty(), "two materials until merged");
        g.set_material(5, 2);
        g.set_material(6, 2);
        assert!(g.borders().cells.is_empty() && g.borders().of_cell.iter().all(|&b| !b));
    }

    #[test]
    fn fuels_of_one_material_burn_as_one() {
        // As above, but fuels 1 and 2 are one material: the front crosses x = 3" at its rate
        // (1" a round from the centre of column 10 at 1.05": column 40 at 4.05" after 3 rounds)
        // and no contact is reported.
        let mut g = grid(6.0, 3.0);
        g.paint(|x, _| Some(if x < 3.0 { fuel(1, 1.0, 100.0) } else { fuel(2, 1.0, 100.0) })).expect("valid fuel");
        g.set_material(1, 7);
        g.set_material(2, 7);
        assert!(g.ignite_cell(Cell { x: 10, y: 15 }, 0.0).is_some());
        g.advance_to(2.9);
        assert!(g.contacts(2.9).is_empty());
        assert_eq!(g.arrival(Cell { x: 40, y: 15 }), None);
        g.advance_to(3.1);
        let arrival = g.arrival(Cell { x: 40, y: 15 }).expect("crossed into fuel 2");
        assert!((arrival - 3.0).abs() < 1e-3, "{arrival}");
        assert_eq!(g.fuel_at(Cell { x: 40, y: 15 }).map(|f| f.index), Some(2), "the cell keeps its own fuel");
        g.advance_to(60.0);
        assert!(all_cells(&g).all(|c| g.arrival(c).is_some()));
        assert!(g.contacts(60.0).is_empty());
        // Material 0 and fuel 0 are ignored.
        g.set_material(0, 7);
        g.set_material(1, 0);
        assert!(g.same_material(1, 2));
        assert!(!g.same_material(0, 0));
    }

    #[test]
    fn contacts_agree_with_every_cell_checked() {
        // Stripes and blobs of three fuels and rock, so some rounds have fewer border cells than
        // cells that may burn and others more: both ways of finding the burning border cells.
        let mut g = grid(4.0, 3.0);
        g.paint(|x, y| match ((x * 0.6 + y * 0.2) as u32 + ((x - 2.0).hypot(y - 1.5) < 0.7) as u32) % 4 {
            0 => Some(fuel(1, 0.7, 2.0)),
            1 => Some(fuel(2, 0.4, 3.0)),
            2 => None,
            _ => Some(fuel(3, 0.5, 2.0)),
        })
        .expect("valid fuel");
        let borders = g.borders().clone();
        let (width, height) = (g.width_cells() as i32, g.height_cells() as i32);
        let index = |x: i32, y: i32| (0..width).contains(&x) && (0..height).contains(&y);
        let expected_borders: Vec<u32> = (0..width * height)
            .filter(|&i| {
                let (x, y, f) = (i % width, i / width, g.fuel[i as usize]);
                f != 0
                    && (-1..=1).any(|dy| {
                        (-1..=1).any(|dx| {
                            index(x + dx, y + dy) && {
                                let other = g.fuel[((y + dy) * width + x + dx) as usize];
                                other != 0 && other != f
                            }
                        })
                    })
            })
            .map(|i| i as u32)
            .collect();
        assert_eq!(borders.cells, expected_borders);
        assert!(borders.of_cell.iter().enumerate().all(|(i, &b)| b == expected_borders.contains(&(i as u32))));
        let lit = [(3, 3), (20, 15), (38, 27), (12, 25), (30, 5)]
            .into_iter()
            .filter(|&(x, y)| g.ignite_cell(Cell { x, y }, 0.0).is_some())
            .count();
        assert!(lit >= 3, "{lit} lit");
        let mut both_ways = [false; 2];
        for step in 1..40 {
            let time = step as f32 * 0.25;
            g.advance_to(time);
            both_ways[usize::from(borders.cells.len() < g.burning_window(time).len())] = true;
            // Every burning cell against each neighbour, the definition written out.
            let mut expected: BTreeMap<(usize, u8), Contact> = BTreeMap::new();
            for from in (0..(width * height) as usize).filter(|&i| g.state_of_index(i, time) == CellState::Burning) {
                let (x, y) = ((from % width as usize) as i32, (from / width as usize) as i32);
                for edge in &g.unit_stencil {
                    let Some(to) = g.neighbour(x, y, edge.dx, edge.dy) else { continue };
                    let (from_fuel, to_fuel) = (g.fuel[from], g.fuel[to]);
                    let open =
                        edge.crossed.iter().all(|&(ox, oy)| g.neighbour(x, y, ox, oy).is_some_and(|c| g.fuel[c] != 0));
                    if to_fuel == 0 || to_fuel == from_fuel || g.state_of_index(to, time) != CellState::Unburnt || !open
                    {
                        continue;
                    }
                    let contact = Contact {
                        from_fuel,
                        from_cell: g.cell_of(from),
                        to_cell: g.cell_of(to),
                        to_fuel,
                        since_time: g.arrival[from],
                    };
                    let key = |c: &Contact| (c.since_time, c.from_cell.y, c.from_cell.x);
                    let entry = expected.entry((to, from_fuel)).or_insert(contact);
                    if key(&contact) < key(entry) {
                        *entry = contact;
                    }
                }
            }
            assert_eq!(g.contacts(time), expected.into_values().collect::<Vec<_>>(), "at {time}");
        }
        assert_eq!(both_ways, [true, true], "both ways were tried");
    }

    #[test]
    fn interior_cells_step_as_the_checked_stencil_would() {
        // Two materials (one of two fuels), rock and the table's edge: interior means every cell
        // within the stencil's reach is on the table and of the cell's material.
        let mut g = grid(5.0, 4.0);
        g.paint(|x, y| match ((x * 0.4 + y * 0.2) as u32 + ((x - 2.5).hypot(y - 2.0) < 0.6) as u32) % 3 {
            0 => Some(fuel(1, 0.5, 3.0)),
            1 => Some(fuel(2, 0.5, 3.0)),
            _ => Some(if x < 2.0 { fuel(3, 0.3, 2.0) } else { fuel(4, 0.3, 2.0) }),
        })
        .expect("valid fuel");
        g.paint_rect((1.0, 1.0), (1.3, 3.5), None).expect("valid fuel");
        // A block of the one material, of fuel 3 beside fuel 4.
        g.paint_rect((3.0, 0.0), (4.0, 1.5), Some(fuel(3, 0.3, 2.0))).expect("valid fuel");
        g.paint_rect((4.0, 0.0), (5.0, 1.5), Some(fuel(4, 0.3, 2.0))).expect("valid fuel");
        g.set_material(4, 3);
        g.set_front_solver(FrontSolver::Grid);
        let (width, height) = (g.width_cells() as i32, g.height_cells() as i32);
        let material = |x: i32, y: i32| g.material_of[g.fuel[(y * width + x) as usize] as usize];
        let expected: Vec<bool> = (0..width * height)
            .map(|i| {
                let (x, y) = (i % width, i / width);
                g.fuel[i as usize] != 0
                    && (-3..=3).all(|dy| {
                        (-3..=3).all(|dx| {
                            (0..width).contains(&(x + dx))
                                && (0..height).contains(&(y + dy))
                                && material(x + dx, y + dy) == material(x, y)
                        })
                    })
            })
            .collect();
        let kinds = &g.interior().kind;
        assert_eq!(kinds.iter().map(|&k| k != StepKind::Checked).collect::<Vec<_>>(), expected);
        assert!(expected.iter().any(|&i| i) && expected.iter().any(|&i| !i));
        // One fuel: every cell within reach holds the cell's fuel index (fuels 3 and 4 are one
        // material, not one fuel).
        let one_fuel: Vec<bool> = (0..width * height)
            .map(|i| {
                let (x, y) = (i % width, i / width);
                expected[i as usize]
                    && (-3..=3)
                        .all(|dy| (-3..=3).all(|dx| g.fuel[((y + dy) * width + x + dx) as usize] == g.fuel[i as usize]))
            })
            .collect();
        assert_eq!(kinds.iter().map(|&k| k == StepKind::OneFuel).collect::<Vec<_>>(), one_fuel);
        assert!(expected.iter().zip(&one_fuel).any(|(&interior, &one)| interior && !one));
        assert!(one_fuel.iter().any(|&o| o));
        // The same burn with every step checked, and with no step costed ahead: the same
        // arrivals, bit for bit, and order.
        let with_kinds = |kind: &dyn Fn(StepKind) -> StepKind| {
            let mut other = g.clone();
            let interior = g.interior();
            other.interior = std::sync::OnceLock::from(Interior {
                kind: interior.kind.iter().map(|&k| kind(k)).collect(),
                one_fuel_costs: interior.one_fuel_costs.clone(),
            });
            other
        };
        let mut checked = with_kinds(&|_| StepKind::Checked);
        let mut uncosted = with_kinds(&|k| if k == StepKind::OneFuel { StepKind::Interior } else { k });
        for front in [&mut g, &mut checked, &mut uncosted] {
            for cell in [Cell { x: 5, y: 5 }, Cell { x: 40, y: 30 }, Cell { x: 25, y: 12 }] {
                front.ignite_cell(cell, 0.0);
            }
            front.advance_to(f32::INFINITY);
        }
        for other in [&checked, &uncosted] {
            assert!(g.arrival.iter().zip(&other.arrival).all(|(a, b)| a.to_bits() == b.to_bits()));
            assert_eq!(g.settle_order, other.settle_order);
        }
        assert!(g.settle_order.len() > 1000);
    }

    #[test]
    fn a_corner_pinched_by_unburnable_cells_is_no_contact() {
        // Fuel 1 at (0,0), fuel 2 at (1,1), rock at (1,0) and (0,1); all else rock.
        let mut g = grid(0.3, 0.3);
        g.paint(|x, y| match ((x / 0.1) as u32, (y / 0.1) as u32) {
            (0, 0) => Some(fuel(1, 1.0, 10.0)),
            (1, 1) => Some(fuel(2, 1.0, 10.0)),
            _ => None,
        })
        .expect("valid fuel");
        assert!(g.ignite_cell(Cell { x: 0, y: 0 }, 0.0).is_some());
        g.advance_to(1.0);
        assert!(g.contacts(1.0).is_empty());
        // With (1,0) as fuel 2 as well, both cells touch.
        g.paint_rect((0.1, 0.0), (0.2, 0.1), Some(fuel(2, 1.0, 10.0))).expect("valid fuel");
        assert!(g.ignite_cell(Cell { x: 0, y: 0 }, 0.0).is_some());
        g.advance_to(1.0);
        let touched: Vec<Cell> = g.contacts(1.0).iter().map(|c| c.to_cell).collect();
        assert_eq!(touched, vec![Cell { x: 1, y: 0 }]);
    }

    #[test]
    fn cells_are_spent_after_burn_out() {
        let mut g = uniform(4.0, 4.0, 0.5, 3.0);
        let origin = Cell { x: 20, y: 20 };
        assert!(g.ignite_cell(origin, 0.0).is_some());
        g.advance_to(10.0);
        assert_eq!(g.state_at(origin, -0.01), CellState::Unburnt);
        assert_eq!(g.state_at(origin, 0.0), CellState::Burning);
        assert_eq!(g.state_at(origin, 2.999), CellState::Burning);
        assert_eq!(g.state_at(origin, 3.0), CellState::Spent);
        let east = Cell { x: 25, y: 20 };
        let arrival = g.arrival(east).expect("reached");
        assert!((arrival - 1.0).abs() < 1e-4, "{arrival}");
        assert_eq!(g.state_at(east, arrival - 0.01), CellState::Unburnt);
        assert_eq!(g.state_at(east, arrival + 2.99), CellState::Burning);
        assert_eq!(g.state_at(east, arrival + 3.0), CellState::Spent);
        assert_eq!(
            [CellState::Unburnt, CellState::Burning, CellState::Spent].map(CellState::id),
            ["unburnt", "burning", "spent"]
        );

        let burning = g.burning_cells(5.0);
        let expected: Vec<Cell> = all_cells(&g).filter(|&c| g.state_at(c, 5.0) == CellState::Burning).collect();
        assert_eq!(burning.len(), expected.len());
        assert!(!burning.is_empty());
        for cell in &burning {
            let a = g.arrival(*cell).expect("burning cells have arrived");
            assert!(a > 2.0 && a <= 5.0, "{cell:?} arrived {a}");
        }
        let area = g.burning_area_in2(1, 5.0);
        assert!((area - burning.len() as f32 * 0.01).abs() < 1e-4);
        assert_eq!(g.burning_area_in2(2, 5.0), 0.0);
        let reached = all_cells(&g).filter(|&c| g.state_at(c, 5.0) != CellState::Unburnt).count();
        assert!((g.burnt_area_in2(1, 5.0) - reached as f32 * 0.01).abs() < 1e-4);
    }

    /// The burning cells are every settled cell burning by `state_at`, in settle order, at
    /// times between and on the burn-outs, with one burn-out time on the table (no cell of the
    /// window is looked at, only its tail taken) and with three: fuels that burn out sooner
    /// leave the window's tail first.
    #[test]
    fn burning_cells_are_the_settled_cells_burning_in_settle_order() {
        let mut one = uniform(6.0, 4.0, 0.5, 3.0);
        let mut three = grid(6.0, 4.0);
        three
            .paint(|x, _| {
                Some(match x {
                    x if x < 2.0 => fuel(1, 0.5, 3.0),
                    x if x < 4.0 => fuel(2, 0.5, 1.0),
                    _ => fuel(3, 0.5, 2.5),
                })
            })
            .expect("valid fuel");
        for material in [2, 3] {
            three.set_material(material, 1);
        }
        let mut outlasting = 0;
        for g in [&mut one, &mut three] {
            assert!(g.ignite(3.0, 2.0, 0.3, 0.0).is_some());
            g.advance_to(20.0);
            let order: Vec<u32> = g.settle_order.clone();
            for k in 0..=80 {
                let time = k as f32 * 0.25;
                let expected: Vec<usize> = order
                    .iter()
                    .map(|&cell| cell as usize)
                    .filter(|&i| g.state_of_index(i, time) == CellState::Burning)
                    .collect();
                assert_eq!(g.burning_indices(time).collect::<Vec<_>>(), expected, "at {time}");
                assert!(k > 24 || !expected.is_empty(), "something burns at {time}");
                let shortest = g.min_burn_rounds;
                outlasting += expected.iter().filter(|&&i| g.arrival[i] + shortest <= time).count();
            }
        }
        assert!(outlasting > 100, "cells burning longer than the shortest burn-out: {outlasting}");
        assert_eq!((three.min_burn_rounds, three.max_burn_rounds), (1.0, 3.0));
        assert_eq!((one.min_burn_rounds, one.max_burn_rounds), (3.0, 3.0));
        assert_eq!(grid(2.0, 2.0).min_burn_rounds, 0.0, "nothing burns");
    }

    /// The 8-neighbour patch of burning cells holding `cell`, by a plain breadth-first flood
    /// over `state_at`: what the patch lookups must agree with.
    fn patch_by_plain_flood(g: &FireGrid, cell: Cell, time: f32) -> Option<FireRegion> {
        let burning = |c: Cell| g.state_at(c, time) == CellState::Burning;
        if cell.x >= g.width_cells() || cell.y >= g.height_cells() || !burning(cell) {
            return None;
        }
        let mut seen = std::collections::HashSet::from([cell]);
        let mut queue = std::collections::VecDeque::from([cell]);
        let (mut lo, mut hi) = ((cell.x, cell.y), (cell.x, cell.y));
        while let Some(c) = queue.pop_front() {
            (lo, hi) = ((lo.0.min(c.x), lo.1.min(c.y)), (hi.0.max(c.x), hi.1.max(c.y)));
            for (dx, dy) in (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))) {
                let (x, y) = (c.x as i64 + dx, c.y as i64 + dy);
                if x < 0 || y < 0 || x >= i64::from(g.width_cells()) || y >= i64::from(g.height_cells()) {
                    continue;
                }
                let n = Cell { x: x as u32, y: y as u32 };
                if burning(n) && seen.insert(n) {
                    queue.push_back(n);
                }
            }
        }
        let size = g.cell_size_in();
        let area_in2 = seen.len() as f32 * size * size;
        Some(FireRegion {
            cells: seen.len(),
            area_in2,
            diameter_in: 2.0 * (area_in2 / std::f32::consts::PI).sqrt(),
            span_in: ((hi.0 - lo.0).max(hi.1 - lo.1) + 1) as f32 * size,
        })
    }

    #[test]
    fn patch_lookups_match_a_plain_flood_per_cell() {
        let mut g = uniform(10.0, 10.0, 1.0, 1000.0);
        assert!(g.ignite_cell(Cell { x: 20, y: 20 }, 0.0).is_some());
        assert!(g.ignite_cell(Cell { x: 80, y: 70 }, 1.0).is_some());
        g.advance_to(2.0);
        let mut patches = std::collections::BTreeSet::new();
        for cell in all_cells(&g) {
            let plain = patch_by_plain_flood(&g, cell, 2.0);
            assert_eq!(g.burning_region(cell, 2.0), plain, "{cell:?}");
            patches.extend(plain.map(|r| (r.cells, r.span_in.to_bits())));
        }
        assert_eq!(patches.len(), 2, "two separate fires");
        assert_eq!(g.burning_region(Cell { x: 1000, y: 0 }, 2.0), None);
        // Many cells at once, the same patch more than once, cells not burning and off the grid
        // among them: each answer is the plain flood's.
        let asked: Vec<Cell> = all_cells(&g)
            .step_by(7)
            .chain([Cell { x: 20, y: 20 }, Cell { x: 1000, y: 0 }, Cell { x: 80, y: 70 }, Cell { x: 20, y: 21 }])
            .collect();
        let answers = g.burning_regions_of(&asked, 2.0);
        assert_eq!(answers.len(), asked.len());
        for (cell, answer) in asked.iter().zip(&answers) {
            assert_eq!(patch_by_plain_flood(&g, *cell, 2.0), *answer, "{cell:?}");
        }
        assert!(answers.iter().flatten().count() > 20);
    }

    #[test]
    fn burning_region_size() {
        let mut g = uniform(10.0, 10.0, 1.0, 1000.0);
        let origin = Cell { x: 50, y: 50 };
        assert!(g.ignite_cell(origin, 0.0).is_some());
        g.advance_to(3.0);
        let region = g.burning_region(origin, 3.0).expect("burning");
        assert_eq!(region.cells, g.burning_cells(3.0).len());
        assert!((region.diameter_in - 6.0).abs() < 0.15, "{region:?}");
        // 59 or 61 cells across, as the cells 3.0" out arrive just before or after 3.0.
        assert!((region.span_in - 6.0).abs() < 0.15, "{region:?}");
        assert_eq!(g.burning_region(Cell { x: 0, y: 0 }, 3.0), None);
    }

    /// Fuel 1 left of 5", fuel 2 right of it, and a wall of no fuel in fuel 1 (not convex).
    fn two_fuels_and_a_wall(g: &mut FireGrid) {
        g.paint(|x, _| Some(if x < 5.0 { fuel(1, 0.5, 3.0) } else { fuel(2, 0.3, 4.0) })).expect("valid fuel");
        g.paint_rect((3.0, 1.0), (3.3, 6.0), None).expect("valid fuel");
    }

    #[test]
    fn round_by_round_equals_one_advance() {
        let mut stepped = grid(8.0, 8.0);
        two_fuels_and_a_wall(&mut stepped);
        let mut jumped = stepped.clone();

        assert!(stepped.ignite(1.0, 1.0, 0.0, 0.0).is_some());
        let mut reported = 0;
        for round in 0..=40 {
            let now = round as f32;
            stepped.advance_to(now);
            if round == 5 {
                assert!(stepped.ignite(6.0, 6.0, 0.0, now).is_some());
            }
            for (cell, arrival) in stepped.newly_burnt_between(now - 1.0, now) {
                assert!(arrival > now - 1.0 && arrival <= now, "{cell:?} at {arrival}");
                reported += 1;
            }
        }

        assert!(jumped.ignite(1.0, 1.0, 0.0, 0.0).is_some());
        jumped.advance_to(5.0);
        assert!(jumped.ignite(6.0, 6.0, 0.0, 5.0).is_some());
        jumped.advance_to(40.0);

        let mut reached = 0;
        for cell in all_cells(&stepped) {
            assert_eq!(stepped.arrival(cell), jumped.arrival(cell), "{cell:?}");
            reached += usize::from(stepped.arrival(cell).is_some());
        }
        assert!(reached > 1000);
        assert_eq!(reported, reached);
        assert_eq!(stepped.contacts(40.0), jumped.contacts(40.0));
        let all: Vec<(Cell, f32)> = jumped.newly_burnt_between(f32::NEG_INFINITY, 40.0).collect();
        assert_eq!(all.len(), reached);
        assert!(all.windows(2).all(|w| w[0].1 <= w[1].1));
    }

    /// A small deterministic generator for the random regions below.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> f32 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }
    }

    /// Whether (x, y) is inside the convex polygon `points` (counterclockwise).
    fn inside_convex(points: &[(f32, f32)], x: f32, y: f32) -> bool {
        (0..points.len()).all(|i| {
            let (a, b) = (points[i], points[(i + 1) % points.len()]);
            (b.0 - a.0) * (y - a.1) - (b.1 - a.1) * (x - a.0) >= 0.0
        })
    }

    /// The convex hull (counterclockwise) of `n` random points in a `size`" square.
    fn random_convex(rng: &mut Lcg, n: usize, size: f32) -> Vec<(f32, f32)> {
        let mut points: Vec<(f32, f32)> = (0..n).map(|_| (rng.next() * size, rng.next() * size)).collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let cross = |o: (f32, f32), a: (f32, f32), b: (f32, f32)| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
        let mut hull: Vec<(f32, f32)> = Vec::new();
        for pass in 0..2 {
            let start = hull.len();
            let ordered: Vec<(f32, f32)> =
                if pass == 0 { points.clone() } else { points.iter().rev().copied().collect() };
            for p in ordered {
                while hull.len() >= start + 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
                    hull.pop();
                }
                hull.push(p);
            }
            hull.pop();
        }
        hull
    }

    /// The same scene burnt by both fronts: (exact grid, grid-front grid), each advanced to `until`.
    fn both_fronts(
        paint: &dyn Fn(f32, f32) -> Option<Fuel>,
        size: f32,
        ignitions: &[(f32, f32, f32, f32)],
        until: f32,
    ) -> (FireGrid, FireGrid) {
        let mut fronts = [grid(size, size), grid(size, size)];
        fronts[1].set_front_solver(FrontSolver::Grid);
        for g in fronts.iter_mut() {
            g.paint(paint).expect("valid fuel");
            for &(x, y, radius, time) in ignitions {
                g.advance_to(time);
                g.ignite(x, y, radius, time);
            }
            g.advance_to(until);
        }
        let [exact, reference] = fronts;
        (exact, reference)
    }

    #[test]
    fn the_exact_front_is_a_circle_in_every_direction() {
        for (material, rate) in FIRE_SPREAD_RATES {
            let mut g = uniform(20.0, 20.0, rate, 1.0e6);
            let origin = (10.03, 9.97);
            assert!(g.ignite(origin.0, origin.1, 0.25, 0.0).is_some());
            assert_eq!(g.exact_fronts().len(), 1, "a uniform table is one convex patch");
            g.advance_to(f32::INFINITY);
            for cell in all_cells(&g) {
                let (cx, cy) = g.cell_centre(cell).expect("on the table");
                let distance = ((cx - origin.0).powi(2) + (cy - origin.1).powi(2)).sqrt();
                let expected =
                    if g.cell_at(origin.0, origin.1) == Some(cell) { 0.0 } else { (distance - 0.25).max(0.0) / rate };
                let arrival = g.arrival(cell).expect("uniform fuel burns everywhere");
                assert!(
                    (arrival - expected).abs() <= 1e-5 * expected.max(1.0),
                    "{material} {cell:?}: {arrival} vs {expected}"
                );
            }
            // The issue's bound, max(0.1", 0.5%) of FSR × r, is met with room in every direction.
            for rounds in [4.0f32, 10.0, 20.0] {
                let expected = rate * rounds + 0.25;
                if expected > 9.5 {
                    continue;
                }
                for k in 0..64 {
                    let radius = burnt_radius(&g, origin, k as f32 * std::f32::consts::TAU / 64.0, rounds);
                    assert!((radius - expected).abs() <= 0.1f32.max(0.005 * expected), "{material} {rounds}: {radius}");
                }
            }
        }
    }

    #[test]
    fn exact_and_grid_fronts_agree_on_random_convex_regions() {
        let mut rng = Lcg(7);
        let bound_32 = stencil_slowdown();
        for trial in 0..12 {
            let polygon = random_convex(&mut rng, 3 + trial % 6, 8.0);
            let rate = [0.5, 0.3, 1.0, 0.1][trial % 4];
            let fuel_here = fuel(1, rate, 1.0e6);
            let poly = polygon.clone();
            let paint = move |x: f32, y: f32| inside_convex(&poly, x, y).then_some(fuel_here);
            // Ignite at the polygon's vertex average (inside it) and once more later elsewhere.
            let n = polygon.len() as f32;
            let centre = polygon.iter().fold((0.0, 0.0), |acc, p| (acc.0 + p.0 / n, acc.1 + p.1 / n));
            let second = ((centre.0 + polygon[0].0) / 2.0, (centre.1 + polygon[0].1) / 2.0);
            let ignitions = [(centre.0, centre.1, 0.1, 0.0), (second.0, second.1, 0.0, 3.0)];
            let (exact, reference) = both_fronts(&paint, 8.0, &ignitions, f32::INFINITY);
            if exact.settled_count() < 50 {
                continue; // a sliver: nothing to compare
            }
            assert!(exact.patches.list.iter().any(|p| matches!(p, exact::PatchFront::Exact { .. })), "trial {trial}");
            let mut compared = 0;
            for cell in all_cells(&exact) {
                let (a, b) = (exact.arrival(cell), reference.arrival(cell));
                assert_eq!(a.is_some(), b.is_some(), "trial {trial} {cell:?}: reached by one front only");
                let (Some(a), Some(b)) = (a, b) else { continue };
                // The grid front is never faster than straight lines from the ignition's cell
                // centre (which it spreads from, up to half a cell's diagonal off the point),
                // and slower by at most its stencil bound plus a few cells where the region's
                // edge bends its paths.
                assert!(b >= a - 0.071 / rate - 1e-3, "trial {trial} {cell:?}: grid {b} before exact {a}");
                assert!(b <= a * bound_32 + 4.0 * 0.1 / rate, "trial {trial} {cell:?}: grid {b}, exact {a}");
                compared += 1;
            }
            assert_eq!(compared, exact.settled_count());
        }
    }

    #[test]
    fn non_convex_regions_take_the_grid_front_cell_for_cell() {
        let mut rng = Lcg(11);
        for trial in 0..8 {
            // An L of two random rectangles, or a rectangle with a hole.
            let (a, b) =
                ((1.0 + rng.next() * 2.0, 1.0 + rng.next() * 2.0), (5.0 + rng.next() * 2.0, 5.0 + rng.next() * 2.0));
            let hole = trial % 2 == 1;
            let paint = move |x: f32, y: f32| {
                let inside = if hole {
                    x < b.0 && y < b.1 && !((a.0..a.0 + 1.0).contains(&x) && (a.1..a.1 + 1.0).contains(&y))
                } else {
                    (x < a.0 && y < b.1) || (x < b.0 && y < a.1)
                };
                inside.then_some(fuel(1, 0.5, 6.0))
            };
            let ignitions = [(0.5, 0.5, 0.2, 0.0), (0.7, 4.5, 0.0, 2.5)];
            let (exact, reference) = both_fronts(&paint, 8.0, &ignitions, f32::INFINITY);
            assert!(exact.exact_fronts().is_empty(), "trial {trial}");
            assert!(exact.settled_count() > 500);
            for cell in all_cells(&exact) {
                assert_eq!(exact.arrival(cell), reference.arrival(cell), "trial {trial} {cell:?}");
            }
            assert_eq!(exact.settle_order, reference.settle_order);
        }
    }

    #[test]
    fn two_ignitions_in_one_patch_meet_where_their_times_are_equal() {
        let mut g = uniform(10.0, 4.0, 0.5, 100.0);
        assert!(g.ignite(2.05, 2.05, 0.0, 0.0).is_some());
        g.advance_to(1.0);
        assert!(g.ignite(8.05, 2.05, 0.0, 1.0).is_some());
        g.advance_to(f32::INFINITY);
        assert_eq!(g.exact_fronts().len(), 0, "burnt through: nothing left for a save");
        for cell in all_cells(&g) {
            let (cx, cy) = g.cell_centre(cell).expect("on the table");
            let first = ((cx - 2.05).powi(2) + (cy - 2.05).powi(2)).sqrt() / 0.5;
            let second = 1.0 + ((cx - 8.05).powi(2) + (cy - 2.05).powi(2)).sqrt() / 0.5;
            let arrival = g.arrival(cell).expect("reached");
            assert!((arrival - first.min(second)).abs() < 1e-4, "{cell:?}: {arrival}");
        }
        let order: Vec<f32> = g.settled_from(0).map(|(_, t)| t).collect();
        assert!(order.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn a_patch_lit_too_often_hands_over_to_the_grid_front() {
        let lit = |g: &mut FireGrid| {
            for k in 0..(exact::MAX_EXACT_IGNITIONS + 6) {
                let time = k as f32 * 0.25;
                g.advance_to(time);
                g.ignite(0.55 + (k % 9) as f32 * 0.7, 0.55 + (k / 9) as f32 * 0.7, 0.0, time);
            }
            g.advance_to(f32::INFINITY);
        };
        let mut g = uniform(8.0, 8.0, 0.3, 50.0);
        lit(&mut g);
        assert!(matches!(g.patches.list[..], [exact::PatchFront::Grid]));
        let mut reference = uniform(8.0, 8.0, 0.3, 50.0);
        reference.set_front_solver(FrontSolver::Grid);
        lit(&mut reference);
        for cell in all_cells(&g) {
            let (a, b) = (g.arrival(cell).expect("reached"), reference.arrival(cell).expect("reached"));
            assert!(a <= b + 1e-4, "{cell:?}: {a} after the grid front's {b}");
            assert!(b <= a * 1.0133 + 0.05, "{cell:?}: {a} vs {b}");
        }
        let order: Vec<f32> = g.settled_from(0).map(|(_, t)| t).collect();
        assert!(order.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn a_huge_patch_hands_over_after_a_few_ignitions() {
        // 1,048,576 cells: eight passes are within the work budget, a ninth is not.
        let mut g = uniform(102.4, 102.4, 1.0, 2.0);
        for k in 0..9 {
            assert!(g.ignite(5.0 + 10.0 * k as f32, 50.0, 0.0, 0.0).is_some());
            let exact = matches!(g.patches.list[..], [exact::PatchFront::Exact { .. }]);
            assert_eq!(exact, k < 8, "after {} ignitions", k + 1);
        }
        g.advance_to(1.0);
        assert_eq!(g.arrival(Cell { x: 850, y: 500 }), Some(0.0), "the ninth fire burns by the grid front");
    }

    #[test]
    fn an_exact_patch_is_on_its_way_only_a_stencil_step_ahead() {
        let mut g = uniform(10.0, 4.0, 0.5, 100.0);
        assert!(g.ignite_cell(Cell { x: 10, y: 20 }, 0.0).is_some());
        g.advance_to(2.0);
        // Settled 1" out; the grid front would know 0.36" further.
        assert!(g.tentative_arrival(Cell { x: 22, y: 20 }).is_some());
        assert!(g.tentative_arrival(Cell { x: 23, y: 20 }).is_some());
        assert_eq!(g.tentative_arrival(Cell { x: 24, y: 20 }), None);
        assert_eq!(g.tentative_arrival(Cell { x: 90, y: 20 }), None);
        assert_eq!(g.arrival(Cell { x: 21, y: 20 }), None);
        assert!(g.arrival(Cell { x: 20, y: 20 }).is_some());
    }

    #[test]
    fn a_restored_exact_fire_burns_on_exactly() {
        let mut unbroken = grid(8.0, 8.0);
        two_fuels_and_a_wall(&mut unbroken);
        let mut restored = unbroken.clone();
        let mut old_save = unbroken.clone();
        assert!(unbroken.ignite(1.0, 1.0, 0.0, 0.0).is_some());
        assert!(unbroken.ignite(6.0, 6.0, 0.3, 0.0).is_some());
        unbroken.advance_to(4.0);
        let reached: Vec<(u32, f32)> = unbroken.reached().collect();
        let fronts = unbroken.exact_fronts();
        assert_eq!(fronts.len(), 1, "the right half is convex, the left has a wall in it");
        restored.restore_with(4.0, reached.clone(), &fronts).expect("fits");
        old_save.restore(4.0, reached).expect("fits");
        for g in [&mut unbroken, &mut restored, &mut old_save] {
            g.advance_to(7.0);
            assert!(g.ignite(7.5, 0.5, 0.0, 7.0).is_some());
            g.advance_to(f32::INFINITY);
        }
        assert_eq!(restored.settle_order, unbroken.settle_order);
        for cell in all_cells(&unbroken) {
            assert_eq!(restored.arrival(cell), unbroken.arrival(cell), "{cell:?}");
            // Without its exact fronts a save still burns everything, by the grid's front.
            assert_eq!(old_save.arrival(cell).is_some(), unbroken.arrival(cell).is_some(), "{cell:?}");
        }
        let mut wrong = grid(8.0, 8.0);
        two_fuels_and_a_wall(&mut wrong);
        let off = ExactFront { x: 3.1, y: 2.0, radius: 0.0, time: 0.0 };
        assert!(matches!(wrong.restore_with(4.0, [], &[off]), Err(FireGridError::InvalidState(_))));
    }

    #[test]
    fn exact_rings_round_by_round_equal_one_advance() {
        let mut stepped = uniform(12.0, 9.0, 0.7, 2.5);
        let mut jumped = stepped.clone();
        let mut reported = 0;
        let mut last = f32::NEG_INFINITY;
        for step in 0..=80 {
            let now = step as f32 * 0.37;
            stepped.advance_to(now);
            if step == 0 {
                assert!(stepped.ignite(3.33, 4.1, 0.45, now).is_some());
            }
            if step == 9 {
                assert!(stepped.ignite(10.2, 1.3, 0.0, now).is_some());
            }
            reported += stepped.newly_burnt_between(last, now).count();
            last = now;
        }
        assert!(jumped.ignite(3.33, 4.1, 0.45, 0.0).is_some());
        jumped.advance_to(9.0 * 0.37);
        assert!(jumped.ignite(10.2, 1.3, 0.0, 9.0 * 0.37).is_some());
        jumped.advance_to(80.0 * 0.37);
        assert_eq!(stepped.settle_order, jumped.settle_order);
        assert_eq!(reported, 120 * 90);
        assert_eq!(stepped.contacts(20.0), jumped.contacts(20.0));
    }

    #[test]
    fn a_window_of_many_cells_settles_in_arrival_then_cell_order() {
        // A 600 × 600-cell exact patch lit twice, and beside it an L of another fuel on the grid
        // front. Alone, a window to the end settles as narrower ones (several of
        // `WINDOW_KEYS`); with the L burning too, as one whose cells (more than
        // `ONE_PASS_KEYS`) sort in bands and merge with the grid's.
        for light_the_l in [false, true] {
            let build = || {
                let mut g = grid(80.0, 60.0);
                g.paint(|x, y| match x < 60.0 {
                    true => Some(fuel(1, 0.6, 2.0)),
                    false => (x < 66.0 || y < 46.0).then(|| fuel(2, 0.3, 3.0)),
                })
                .expect("valid fuel");
                assert!(g.ignite(22.6, 25.4, 0.3, 0.0).is_some());
                if light_the_l {
                    assert!(g.ignite(63.5, 55.5, 0.0, 0.0).is_some());
                }
                g
            };
            // The second fire is lit after the last settled time, so that no cell lit by it
            // ties with one settled before it was lit.
            let mut jumped = build();
            jumped.advance_to(1.9);
            assert!(jumped.ignite(50.1, 8.8, 0.0, 2.0).is_some());
            let settled_before = jumped.settled_count();
            let exact_cells = 600 * 600;
            assert!(exact_cells / exact::WINDOW_KEYS > 2 && exact_cells - settled_before > exact::ONE_PASS_KEYS);
            jumped.advance_to(f32::INFINITY);
            let mut stepped = build();
            stepped.advance_to(1.9);
            assert!(stepped.ignite(50.1, 8.8, 0.0, 2.0).is_some());
            let mut now = 1.9;
            while stepped.settled_count() < jumped.settled_count() {
                now += 0.5;
                stepped.advance_to(now);
            }
            assert!(stepped.settle_order == jumped.settle_order);
            // Against a plain sort of every burnt cell, by arrival then cell.
            let mut expected: Vec<(f32, u32)> = jumped.reached().map(|(cell, arrival)| (arrival, cell)).collect();
            expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let expected: Vec<u32> = expected.into_iter().map(|(_, cell)| cell).collect();
            let l_cells = 60 * 600 + 140 * 460;
            assert_eq!(expected.len(), exact_cells + if light_the_l { l_cells } else { 0 });
            assert!(jumped.settle_order == expected);
        }
    }

    #[test]
    fn a_patch_lit_once_settles_its_rows_outwards_as_the_ring_walk_does() {
        // A disc, a triangle (whose rows lie wholly left of some ignition points) and the whole
        // table, lit once: on a cell's corner, at its centre, beside the patch, with a radius and
        // late. Stepped unevenly, each step settles exactly the cells arriving by then, in
        // arrival then cell order, and the same cells in the same order as the ring walk of an
        // ignition that does not keep its rows' runs.
        type Shape = fn(f32, f32) -> bool;
        let shapes: [(&str, Shape); 3] = [
            ("disc", |x, y| (x - 6.0).powi(2) + (y - 4.5).powi(2) <= 16.0),
            ("triangle", |x, y| x >= 1.0 && y >= 1.0 && x + y <= 9.0),
            ("table", |_, _| true),
        ];
        let lights = [
            (6.0, 4.5, 0.0, 0.0),
            (6.05, 4.45, 0.0, 0.0),
            (7.0, 1.5, 0.3, 1.25),
            (2.0, 4.0, 0.0, 0.4),
            (9.5, 4.5, 0.0, 0.0),
        ];
        let mut lit = 0;
        for (name, inside) in shapes {
            for &(x, y, radius, time) in &lights {
                let mut outwards = grid(12.0, 9.0);
                outwards.paint(|cx, cy| inside(cx, cy).then(|| fuel(1, 0.45, 2.0))).expect("valid fuel");
                let Some(origin) = outwards.cell_at(x, y).filter(|&c| outwards.fuel_at(c).is_some()) else {
                    continue;
                };
                outwards.advance_to(time);
                assert!(outwards.ignite(x, y, radius, time).is_some(), "{name} at ({x}, {y})");
                let mut walked = outwards.clone();
                let [exact::PatchFront::Exact { frontier, .. }] = &mut walked.patches.list[..] else {
                    panic!("{name}: one exact patch");
                };
                assert!(frontier.take().is_some(), "{name} at ({x}, {y}): lit once, rows kept");
                let mut now = time;
                for step in 0..60 {
                    now += [0.37, 1.0, 0.05, 2.3][step % 4];
                    outwards.advance_to(now);
                    walked.advance_to(now);
                    assert!(outwards.settle_order == walked.settle_order, "{name} at ({x}, {y}) by {now}");
                    let by_now = outwards.arrival.iter().filter(|&&a| a <= now).count();
                    assert_eq!(outwards.settled_count(), by_now, "{name} at ({x}, {y}) by {now}");
                    assert!(outwards.settle_order.iter().all(|&c| outwards.arrival[c as usize] <= now));
                }
                let keys: Vec<u64> =
                    outwards.settle_order.iter().map(|&c| exact::settle_key(outwards.arrival[c as usize], c)).collect();
                assert!(keys.is_sorted(), "{name} at ({x}, {y})");
                assert_eq!(outwards.arrival(origin), Some(time.max(0.0)), "{name}: the point's cell catches at once");
                assert_eq!(keys.len(), outwards.fuel.iter().filter(|&&f| f != 0).count(), "{name}: burnt out");
                lit += 1;
            }
        }
        // Points whose cell is in the patch: the disc's five, the triangle's two, the table's five.
        assert_eq!(lit, 5 + 2 + 5);
    }
}
