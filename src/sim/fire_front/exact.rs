//! The exact front (issue 15): inside one convex patch of one material with one spread rate, the
//! fire reaches a point when it has covered the straight line from the ignition disc, so its
//! arrival is `start + max(0, distance − radius) / FSR` (001 "Fire Spreading": "spreads at the
//! FSR per round with the same material"), with no grid error at all. Most scene regions are
//! convex (rectangles, circles, convex polygons); a patch that is not (an L of two fields, a
//! field with a building painted into it) or that met another fire before it was first lit
//! keeps the grid's Dijkstra front.
//!
//! A patch is the set of cells the grid front could reach from a cell: 4-connected cells of one
//! material (a diagonal step needs both side cells). The table's patches are found and
//! classified once a paint, at the first ignition (copies of the grid share them): convex means
//! every cell centre inside the convex hull of its cell centres is in it (digital convexity,
//! checked exactly in integers per row). A patch first lit takes the exact front if it is
//! convex, of one spread rate, and untouched by fire. The arrival of every cell of the patch is
//! written when it is lit (a few additions and a square root a cell); settling a round then
//! visits only the cells in that round's ring of each ignition, row by row. A patch lit once
//! keeps each row's settled run and grows it outwards, reading only the cells that settle and
//! a few beyond each end.

use super::runs::{join, lowest};
use super::{FireGrid, HeapEntry};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;
use std::sync::Arc;

/// Ignitions an exact patch takes before it hands over to the grid front: each one costs a pass
/// over the patch and a ring walk a round, which the grid's heap does not.
pub(super) const MAX_EXACT_IGNITIONS: usize = 32;

/// Most cell updates an exact patch's ignitions may cost together (ignitions × cells) before it
/// hands over to the grid front: a table-wide patch lit by thousands of fires (the worst scene
/// `check` accepts) takes the grid front after a few, not after 32 passes over a million cells.
const EXACT_WORK_CELLS: usize = 8 << 20;

/// The exact front's sort buffers: they hold nothing between calls, so every grid of a thread
/// shares one set instead of each growing (and each copy of a grid regrowing) its own.
#[derive(Default)]
struct SortBuffers {
    batch: Vec<u64>,
    scratch: Vec<u64>,
    counts: Vec<u32>,
}

thread_local! {
    static SORT_BUFFERS: std::cell::RefCell<SortBuffers> = std::cell::RefCell::default();
}

/// A row of an exact patch none of whose cells settled yet: (leftmost, rightmost).
const NO_CELLS: (u32, u32) = (1, 0);

/// Cells beyond an end of a row's settled run looked at at once (a line of the cache).
const AHEAD_CELLS: u32 = 16;

/// What settling the rows of a patch lit once works on.
struct Frontier<'a> {
    arrival: &'a [f32],
    settled: &'a mut [bool],
    width: usize,
    batch: &'a mut Vec<u64>,
}

impl Frontier<'_> {
    /// Settles the cells arriving by `until` in rows `ys` of a patch lit once (its first row
    /// `first_row`, its rows' cells `rows` and settled cells `frontier`, both from it), pushing
    /// their keys row by row, left to right. A row's settled cells are one run about the column
    /// nearest the ignition point (`column`, clamped to the row): arrival falls towards it,
    /// then rises, in floating point too (each step of the arrival's sum is monotone), so the
    /// run grows outwards by the cells beyond each end arriving by `until`, and only those and
    /// the rest of a chunk beyond them are read.
    fn settle_rows(
        self,
        until: f32,
        column: u32,
        first_row: usize,
        rows: &[(u32, u32)],
        frontier: &mut [(u32, u32)],
        ys: RangeInclusive<usize>,
    ) {
        let Frontier { arrival, settled, width, batch } = self;
        for y in ys {
            let k = y - first_row;
            let ((lo, hi), (left, right)) = (rows[k], frontier[k]);
            let row = &arrival[y * width..y * width + width];
            let (mut new_left, mut new_right) = if left <= right {
                (left, right)
            } else {
                // None settled yet: the run starts at the earliest cell near the point's
                // column (the cell holding the point, or a neighbour a rounding favours).
                let near = column.clamp(lo, hi);
                let seed = (near.saturating_sub(2).max(lo)..=near.saturating_add(2).min(hi))
                    .min_by(|&a, &b| row[a as usize].total_cmp(&row[b as usize]))
                    .unwrap_or(near);
                if row[seed as usize] > until {
                    continue;
                }
                (seed, seed)
            };
            // Outwards from the run arrival never falls, so the cells settling beyond an end
            // are the first of those beyond it: counted a chunk at a time, without a branch
            // a cell (whose last would be mispredicted at every end of every row).
            let settling = |cells: &[f32]| cells.iter().fold(0, |n, &a| n + u32::from(a <= until));
            while new_left > lo {
                let chunk = &row[new_left.saturating_sub(AHEAD_CELLS).max(lo) as usize..new_left as usize];
                let n = settling(chunk);
                new_left -= n;
                if n < chunk.len() as u32 {
                    break;
                }
            }
            while new_right < hi {
                let chunk = &row[new_right as usize + 1..=new_right.saturating_add(AHEAD_CELLS).min(hi) as usize];
                let n = settling(chunk);
                new_right += n;
                if n < chunk.len() as u32 {
                    break;
                }
            }
            // The cells settling now, as [from, end).
            let runs = if left <= right {
                [(new_left, left), (right + 1, new_right + 1)]
            } else {
                [(new_left, new_right + 1), (0, 0)]
            };
            for (from, end) in runs {
                if from >= end {
                    continue;
                }
                let cells = y * width + from as usize..y * width + end as usize;
                let first = cells.start;
                // Flags set in the same pass: a run is a few cells, too few for a `fill` call.
                batch.extend(arrival[cells.clone()].iter().zip(&mut settled[cells]).zip(first..).map(
                    |((&a, settled), index)| {
                        *settled = true;
                        settle_key(a, index as u32)
                    },
                ));
            }
            frontier[k] = (new_left, new_right);
        }
    }
}

/// A run of burnable cells of one material in one row, as [`FireGrid::work_out_patches`]
/// finds them.
struct MaterialRun {
    row: u32,
    lo: u32,
    hi: u32,
    material: u8,
    /// Its first cell's spread rate, as bits.
    rate: u32,
    /// Whether every cell of it spreads at `rate`.
    uniform: bool,
}

/// Cells a row's runs are crossed a chunk at a time by, where they are one fuel.
const RUN_CHUNK: usize = 16;

/// Cells of slack around each ring walked: the per-cell test decides exactly, the slack only
/// keeps rounding in the ring's bounds from missing a cell (and covers the cell holding the
/// ignition point, which catches at once wherever in it the point is).
const RING_SLACK_CELLS: f32 = 1.5;

/// Most stencil reach in cells (the (3, 2) step): how far ahead of settled cells the grid
/// front's tentative arrivals go, which exact patches imitate for `tentative_arrival`.
pub(super) const STENCIL_REACH_CELLS: f32 = 3.605_551_3;

/// One ignition of an exact patch, as a save carries it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExactFront {
    /// The ignition point: x, inches.
    pub x: f32,
    /// The ignition point: y, inches.
    pub y: f32,
    /// Radius caught at once, inches.
    pub radius: f32,
    /// When it caught, rounds.
    pub time: f32,
}

#[derive(Clone, Debug)]
pub(super) enum PatchFront {
    /// Arrivals are straight-line distances from these ignitions.
    Exact {
        rate: f32,
        first_row: u32,
        rows: Vec<(u32, u32)>,
        /// Each ignition, with the time up to which its rings have been walked.
        ignitions: Vec<(ExactFront, f32)>,
        unsettled: usize,
        /// No cell of the patch arrives later than this, once lit (arrivals only come sooner).
        latest: f32,
        /// While one ignition has lit the patch, and lit it untouched: per row, the cells
        /// settled so far (leftmost, rightmost; leftmost > rightmost for none). They are one
        /// run, since along a row the distance to a point falls, then rises. `None` otherwise.
        frontier: Option<Vec<(u32, u32)>>,
    },
    /// The grid's Dijkstra front.
    Grid,
}

/// The table's patches, worked out once a paint (copies of a grid share them): each patch's
/// runs of cells, row by row, and its shape. Runs, not a number a cell: a table of one patch
/// holds a run a row.
#[derive(Debug, Default)]
pub(super) struct PatchMap {
    width: usize,
    /// Per row: its runs of burnable cells (leftmost, rightmost, patch), left to right.
    runs: Vec<Vec<(u32, u32, u32)>>,
    shapes: Vec<PatchShape>,
}

impl PatchMap {
    /// The patch holding cell `index`; `None` where nothing burns.
    pub(super) fn patch_at(&self, index: usize) -> Option<u32> {
        let (x, y) = (index % self.width.max(1), index / self.width.max(1));
        let runs = self.runs.get(y)?;
        let &(lo, _, patch) = runs.get(runs.partition_point(|&(_, hi, _)| (hi as usize) < x))?;
        (lo as usize <= x).then_some(patch)
    }
}

/// One patch as painted.
#[derive(Debug)]
struct PatchShape {
    /// The rate of its first cell.
    rate: f32,
    /// Whether every cell spreads at `rate`.
    uniform: bool,
    /// Whether it is digitally convex (see [`convex`]).
    convex: bool,
    first_row: u32,
    /// Per row from `first_row`: its leftmost and rightmost cell.
    rows: Vec<(u32, u32)>,
    cells: usize,
}

/// The patches lit so far, in the order they were first lit, and which of them have an exact
/// front. Cleared at the cost of the patches lit, not of the table.
#[derive(Clone, Debug, Default)]
pub(super) struct Patches {
    /// Per patch of the [`PatchMap`]: its place in `list` once lit, else [`UNLIT`].
    lit: Vec<u32>,
    pub(super) list: Vec<PatchFront>,
    /// Per entry of `list`: its patch in the map.
    ids: Vec<u32>,
}

/// A patch no fire has lit since the last clear.
const UNLIT: u32 = u32::MAX;

impl Patches {
    pub(super) fn clear(&mut self) {
        for &id in &self.ids {
            self.lit[id as usize] = UNLIT;
        }
        self.ids.clear();
        self.list.clear();
    }

    /// The place in `list` of lit patch `id`.
    fn lit(&self, id: u32) -> Option<usize> {
        self.lit.get(id as usize).filter(|&&k| k != UNLIT).map(|&k| k as usize)
    }

    /// Whether lit patch `lit` (its place in `list`) has an exact front.
    pub(super) fn is_exact(&self, lit: usize) -> bool {
        matches!(self.list.get(lit), Some(PatchFront::Exact { .. }))
    }
}

impl FireGrid {
    /// The place in the lit patches of the patch holding `origin` (a burnable cell), lit now if
    /// it was not. `fresh`: only a patch no fire has reached may be exact (a restore passes false
    /// and vouches for the arrivals itself).
    pub(super) fn patch_of(&mut self, origin: usize, fresh: bool) -> Option<usize> {
        let map = Arc::clone(self.patch_map());
        let id = map.patch_at(origin)?;
        if let Some(known) = self.patches.lit(id) {
            return Some(known);
        }
        let shape = &map.shapes[id as usize];
        let width = self.width as usize;
        let cells_of = |k: usize, (lo, hi): (u32, u32)| {
            let start = (shape.first_row as usize + k) * width;
            start + lo as usize..=start + hi as usize
        };
        // A fresh patch on a grid never lit is untouched without looking (a restore, which
        // writes arrivals before it lights, is not fresh). Only an exact patch's matters, and
        // its rows hold its cells alone. Folds, not `all`: one branch-free pass a row.
        let candidate = self.solver == super::FrontSolver::Exact && shape.uniform && shape.convex;
        let untouched = (fresh && self.nothing_lit())
            || candidate
                && shape.rows.iter().enumerate().all(|(k, &row)| {
                    self.settled[cells_of(k, row)].iter().fold(true, |none, &s| none & !s)
                        && self.arrival[cells_of(k, row)].iter().fold(true, |none, &a| none & (a == f32::INFINITY))
                });
        let front = if candidate && (untouched || !fresh) {
            let rows = shape.rows.clone();
            let (settled, latest) =
                if untouched { (0, f32::NEG_INFINITY) } else { self.settled_and_latest(shape.first_row, &rows) };
            PatchFront::Exact {
                rate: shape.rate,
                first_row: shape.first_row,
                rows,
                ignitions: Vec::new(),
                unsettled: shape.cells - settled,
                latest,
                frontier: None,
            }
        } else {
            PatchFront::Grid
        };
        let patches = &mut self.patches;
        if patches.lit.len() <= id as usize {
            patches.lit.resize(map.shapes.len(), UNLIT);
        }
        patches.lit[id as usize] = patches.list.len() as u32;
        patches.ids.push(id);
        patches.list.push(front);
        Some(patches.list.len() - 1)
    }

    /// The exact patch holding cell `index`, if it is one: its rate.
    pub(super) fn exact_rate(&self, index: usize) -> Option<f32> {
        let id = self.patch_map.get()?.patch_at(index)?;
        match self.patches.list.get(self.patches.lit(id)?)? {
            PatchFront::Exact { rate, .. } => Some(*rate),
            PatchFront::Grid => None,
        }
    }

    /// [`PatchMap`], worked out now if it was not.
    pub(super) fn patch_map(&self) -> &Arc<PatchMap> {
        self.patch_map.get_or_init(|| Arc::new(self.work_out_patches()))
    }

    /// Every patch of the table: the 4-connected cells of one material (a diagonal step needs
    /// both side cells), numbered by first cell, row by row. Each row is cut into runs of one
    /// material (a run of one fuel is crossed a chunk at a time), and runs of one material that
    /// share a column with one in the row below join (a union–find whose root is a patch's
    /// first run): the work is the cells' bytes read once and a few steps a run.
    #[inline(never)]
    fn work_out_patches(&self) -> PatchMap {
        let (width, height) = (self.width as usize, self.height as usize);
        let (found, row_starts) = self.material_runs();
        // Each run's patch: its first run (the least index, so the one whose first cell comes
        // first row by row).
        let mut first_run: Vec<u32> = (0..found.len() as u32).collect();
        for y in 1..height {
            let (below, here) = (&found[row_starts[y - 1]..row_starts[y]], &found[row_starts[y]..row_starts[y + 1]]);
            let (mut a, mut b) = (0, 0);
            while a < below.len() && b < here.len() {
                let (lower, upper) = (&below[a], &here[b]);
                if lower.lo <= upper.hi && upper.lo <= lower.hi && lower.material == upper.material {
                    join(&mut first_run, row_starts[y - 1] + a, row_starts[y] + b);
                }
                // The run ending first meets nothing further on.
                if lower.hi <= upper.hi {
                    a += 1;
                } else {
                    b += 1;
                }
            }
        }
        // Patch ids by first run, then each patch's shape from its runs, row by row.
        let mut patch_of_run = vec![0u32; found.len()];
        let mut shapes: Vec<PatchShape> = Vec::new();
        for (k, run) in found.iter().enumerate() {
            let first = lowest(&mut first_run, k);
            let id = if first == k {
                shapes.push(PatchShape {
                    rate: f32::from_bits(run.rate),
                    uniform: true,
                    // Until a row turns out to hold two of its runs; then the hull is checked.
                    convex: true,
                    first_row: run.row,
                    rows: Vec::new(),
                    cells: 0,
                });
                shapes.len() as u32 - 1
            } else {
                patch_of_run[first]
            };
            patch_of_run[k] = id;
            let shape = &mut shapes[id as usize];
            shape.uniform &= run.uniform && run.rate == shape.rate.to_bits();
            shape.cells += (run.hi - run.lo + 1) as usize;
            // A 4-connected patch covers a run of whole rows: this row is its last or the next.
            let rows_so_far = shape.first_row as usize + shape.rows.len();
            match shape.rows.last_mut() {
                Some(last) if rows_so_far - 1 == run.row as usize => {
                    // A second run in one row: a gap between them, so not convex.
                    *last = (last.0.min(run.lo), last.1.max(run.hi));
                    shape.convex = false;
                }
                _ => shape.rows.push((run.lo, run.hi)),
            }
        }
        let mut whole_rows: Vec<(u32, u32, u32)> = Vec::new();
        for shape in shapes.iter_mut().filter(|shape| shape.convex) {
            whole_rows.clear();
            whole_rows.extend(shape.rows.iter().map(|&(lo, hi)| (lo, hi, hi - lo + 1)));
            shape.convex = convex(&whole_rows);
        }
        let runs = (0..height)
            .map(|y| (row_starts[y]..row_starts[y + 1]).map(|k| (found[k].lo, found[k].hi, patch_of_run[k])).collect())
            .collect();
        PatchMap { width, runs, shapes }
    }

    /// The runs of burnable cells of one material, row by row and left to right, and where each
    /// row's start in them (one more entry than rows, the last the count).
    fn material_runs(&self) -> (Vec<MaterialRun>, Vec<usize>) {
        let width = self.width as usize;
        let mut found = Vec::new();
        let mut row_starts = Vec::with_capacity(self.height as usize + 1);
        for (y, row) in self.fuel.chunks_exact(width.max(1)).enumerate().take(self.height as usize) {
            row_starts.push(found.len());
            let mut x = 0;
            while x < width {
                // Unburnable cells, a chunk at a time while whole chunks are.
                while x + RUN_CHUNK <= width && row[x..x + RUN_CHUNK].iter().fold(true, |none, &f| none & (f == 0)) {
                    x += RUN_CHUNK;
                }
                while x < width && row[x] == 0 {
                    x += 1;
                }
                if x == width {
                    break;
                }
                let (lo, first_fuel) = (x, row[x]);
                let material = self.material_of[usize::from(first_fuel)];
                let rate = self.rate_of[usize::from(first_fuel)].to_bits();
                let (mut fuel, mut uniform) = (first_fuel, true);
                x += 1;
                loop {
                    // Cells of the fuel just seen, a chunk at a time, then the next cell.
                    while x + RUN_CHUNK <= width && row[x..x + RUN_CHUNK].iter().fold(true, |all, &f| all & (f == fuel))
                    {
                        x += RUN_CHUNK;
                    }
                    match row.get(x) {
                        Some(&next) if next == fuel => x += 1,
                        Some(&next) if next != 0 && self.material_of[usize::from(next)] == material => {
                            uniform &= self.rate_of[usize::from(next)].to_bits() == rate;
                            fuel = next;
                            x += 1;
                        }
                        _ => break,
                    }
                }
                found.push(MaterialRun { row: y as u32, lo: lo as u32, hi: x as u32 - 1, material, rate, uniform });
            }
        }
        row_starts.resize(self.height as usize + 1, found.len());
        (found, row_starts)
    }

    /// How many cells of a patch are settled, and its latest finite arrival.
    fn settled_and_latest(&self, first_row: u32, rows: &[(u32, u32)]) -> (usize, f32) {
        let width = self.width as usize;
        rows.iter().enumerate().fold((0, f32::NEG_INFINITY), |(settled, latest), (k, &(lo, hi))| {
            let start = (first_row as usize + k) * width;
            let cells = start + lo as usize..=start + hi as usize;
            let row_latest =
                self.arrival[cells.clone()].iter().filter(|a| a.is_finite()).fold(latest, |m, &a| m.max(a));
            (settled + self.settled[cells].iter().filter(|&&s| s).count(), row_latest)
        })
    }

    /// Lights exact patch `patch` from `front`: every unsettled cell whose straight-line arrival
    /// is earlier takes it. Returns the cells brought forward; past [`MAX_EXACT_IGNITIONS`] the
    /// patch hands over to the grid front.
    pub(super) fn ignite_exact(&mut self, patch: usize, origin: usize, front: ExactFront) -> usize {
        let PatchFront::Exact { rate, first_row, rows, ignitions, latest, unsettled, frontier } =
            &mut self.patches.list[patch]
        else {
            return 0;
        };
        let (rate, first_row, mut last_arrival) = (*rate, *first_row, *latest);
        ignitions.push((front, f32::NEG_INFINITY));
        let rows = std::mem::take(rows);
        let cells: usize = rows.iter().map(|&(lo, hi)| (hi - lo + 1) as usize).sum();
        // The first ignition of an untouched patch: its rows settle outwards from the point.
        let untouched = *unsettled == cells;
        *frontier = (ignitions.len() == 1 && untouched).then(|| vec![NO_CELLS; rows.len()]);
        let hand_over = ignitions.len() > MAX_EXACT_IGNITIONS || ignitions.len() * cells > EXACT_WORK_CELLS;
        let width = self.width as usize;
        let slowness = 1.0 / rate;
        let mut seeded = 0;
        // The origin's cell catches at once wherever in it the point is: its arrival before the
        // rows' pass, which works it out as any other cell's.
        let origin_before = self.arrival[origin];
        for (k, &(lo, hi)) in rows.iter().enumerate() {
            let y = first_row as usize + k;
            let dy = (y as f32 + 0.5) * self.cell_size - front.y;
            // x as i32 (a grid is at most 4,096 cells across), whose conversion vectorises.
            let delay_at = |x: i32| {
                let dx = (x as f32 + 0.5) * self.cell_size - front.x;
                let beyond = (dx * dx + dy * dy).sqrt() - front.radius;
                (if beyond > 0.0 { beyond } else { 0.0 }) * slowness
            };
            let cells = y * width + lo as usize..=y * width + hi as usize;
            let mut row_seeded = 0u32;
            if untouched {
                // Nothing of the patch settled: its flags are not read (a flag page never
                // written is the kernel's zero page until it is, two faults instead of one).
                let arrivals = &mut self.arrival[cells];
                for (k, arrival) in arrivals.iter_mut().enumerate() {
                    let candidate = front.time + delay_at(lo as i32 + k as i32);
                    let earlier = candidate < *arrival;
                    *arrival = if earlier { candidate } else { *arrival };
                    row_seeded += u32::from(earlier);
                }
            } else {
                let (arrivals, settled) = (&mut self.arrival[cells.clone()], &self.settled[cells]);
                // Branch-free and indexed, so that it vectorises: a settled cell keeps its arrival.
                for k in 0..arrivals.len().min(settled.len()) {
                    let candidate = front.time + delay_at(lo as i32 + k as i32);
                    let earlier = !settled[k] & (candidate < arrivals[k]);
                    arrivals[k] = if earlier { candidate } else { arrivals[k] };
                    row_seeded += u32::from(earlier);
                }
            }
            seeded += row_seeded as usize;
            // Distance along a row is convex, so its cells arrive no later than its ends.
            for x in [lo, hi] {
                last_arrival = last_arrival.max(front.time + delay_at(x as i32));
            }
        }
        // Unless settled or arriving by `front.time` already (then the pass, whose candidate is
        // never before `front.time`, left it as it was), the origin's cell catches now.
        if !self.settled[origin] && front.time < origin_before {
            // Seeded by the pass already when its own candidate was earlier than before.
            seeded += usize::from(self.arrival[origin] == origin_before);
            self.arrival[origin] = front.time;
        }
        // Each seeded cell settles once: room for them now, not by copying as they do.
        self.settle_order.reserve(seeded);
        if hand_over {
            // The grid front carries on from the arrivals written so far.
            for (k, &(lo, hi)) in rows.iter().enumerate() {
                let start = (first_row as usize + k) * width;
                for index in start + lo as usize..=start + hi as usize {
                    if !self.settled[index] && self.arrival[index].is_finite() {
                        self.heap.push(HeapEntry::new(self.arrival[index], index as u32));
                    }
                }
            }
            self.patches.list[patch] = PatchFront::Grid;
        } else if let PatchFront::Exact { rows: kept, latest, .. } = &mut self.patches.list[patch] {
            *kept = rows;
            *latest = last_arrival;
        }
        seeded
    }

    /// Adds a saved ignition to exact patch `patch` without touching arrivals (a restore has
    /// put them back, settled up to `settled_until`).
    pub(super) fn add_exact_front(&mut self, patch: usize, front: ExactFront, settled_until: f32) {
        if let Some(PatchFront::Exact { ignitions, frontier, .. }) = self.patches.list.get_mut(patch) {
            ignitions.push((front, settled_until));
            *frontier = None;
        }
    }

    /// Settles the cells of exact patches arriving by `until`, appending them to the settle
    /// order in arrival order after `first_new`.
    pub(super) fn advance_exact(&mut self, until: f32, first_new: usize) {
        let (expected, (from, to)) = self.exact_window(until, self.settled_until);
        // A window of many cells (a whole table at once) settles as a few narrower ones, one
        // after the other, so that each one's keys sort in cache. Only where no grid cell
        // settled in it: then each narrower window's cells are the settle order's tail.
        let windows = expected / WINDOW_KEYS;
        if windows > 1 && first_new == self.settle_order.len() && to.is_finite() && from < to {
            let mut after = from;
            for k in 1..windows {
                let by = from + (to - from) * (k as f32 / windows as f32);
                if by <= after || by >= until {
                    continue;
                }
                let (expected, bounds) = self.exact_window(by, after);
                self.settle_exact(by, self.settle_order.len(), expected, bounds);
                after = by;
            }
            let (expected, bounds) = self.exact_window(until, after);
            self.settle_exact(until, self.settle_order.len(), expected, bounds);
        } else {
            self.settle_exact(until, first_new, expected, (from, to));
        }
    }

    /// How many cells of exact patches may settle by `until` (the rings of their ignitions
    /// walked so far, and `until`'s), and bounds on their arrivals: never before `after` (what
    /// arrived by then is settled) nor before an ignition, and never after a patch's latest.
    fn exact_window(&self, until: f32, after: f32) -> (usize, (f32, f32)) {
        let cell = self.cell_size;
        let slack = RING_SLACK_CELLS * cell;
        let (mut expected, mut from, mut to) = (0usize, f32::INFINITY, f32::NEG_INFINITY);
        for patch in &self.patches.list {
            let PatchFront::Exact { rate, ignitions, unsettled, latest, .. } = patch else { continue };
            let mut ring_cells = 0.0f32;
            for (front, swept) in ignitions {
                if until < front.time || until <= *swept || *unsettled == 0 {
                    continue;
                }
                let inner = (front.radius + (*swept - front.time) * *rate - slack).max(0.0);
                let outer = front.radius + (until - front.time) * *rate + slack;
                ring_cells += std::f32::consts::PI * (outer * outer - inner * inner) / (cell * cell);
                from = from.min(front.time);
                to = to.max(latest.min(until));
            }
            expected += (ring_cells as usize).min(*unsettled);
        }
        (expected, (from.max(after), to))
    }

    /// Settles the cells of exact patches arriving by `until` (about `expected` of them, their
    /// arrivals mostly within `bounds`), appending them to the settle order in arrival order
    /// after `first_new`.
    fn settle_exact(&mut self, until: f32, first_new: usize, expected: usize, bounds: (f32, f32)) {
        let width = self.width as usize;
        let cell = self.cell_size;
        let slack = RING_SLACK_CELLS * cell;
        // Taken, not borrowed: nothing here can find them in use.
        let SortBuffers { mut batch, mut scratch, mut counts } = SORT_BUFFERS.take();
        batch.clear();
        batch.reserve(expected);
        // Whether the batch is in cell order: the rows of one patch lit once, settled outwards.
        let (mut patches_walked, mut rows_outwards) = (0, true);
        for patch in self.patches.list.iter_mut() {
            let PatchFront::Exact { rate, first_row, rows, ignitions, unsettled, frontier, .. } = patch else {
                continue;
            };
            if *unsettled == 0 {
                continue;
            }
            let last_row = *first_row as usize + rows.len() - 1;
            let walked_before = batch.len();
            if let (Some(frontier), [(front, swept)]) = (frontier.as_mut(), ignitions.as_mut_slice()) {
                if until < front.time || until <= *swept {
                    continue;
                }
                *swept = until;
                let outer = front.radius + (until - front.time) * *rate + slack;
                let ys = rows_within(front, outer, cell, *first_row, last_row);
                let room = Frontier { arrival: &self.arrival, settled: &mut self.settled, width, batch: &mut batch };
                // `as` saturates: a point left of the table seeds each row at its leftmost.
                let column = (front.x / cell) as u32;
                room.settle_rows(until, column, *first_row as usize, &rows[..], &mut frontier[..], ys);
                *unsettled -= batch.len() - walked_before;
                patches_walked += usize::from(batch.len() > walked_before);
                continue;
            }
            for (front, swept) in ignitions.iter_mut() {
                if until < front.time || until <= *swept {
                    continue;
                }
                // The ring of distances whose arrival from this ignition falls after the time
                // its rings were walked to and by `until`: nearer cells were settled then.
                let inner = front.radius + (*swept - front.time) * *rate - slack;
                *swept = until;
                let outer = front.radius + (until - front.time) * *rate + slack;
                for y in rows_within(front, outer, cell, *first_row, last_row) {
                    let dy = (y as f32 + 0.5) * cell - front.y;
                    if outer.is_finite() && dy.abs() > outer {
                        continue;
                    }
                    let (lo, hi) = rows[y - *first_row as usize];
                    let half = (outer * outer - dy * dy).sqrt();
                    // `as` saturates: an infinite ring spans the row.
                    let from = ((front.x - half) / cell - 0.5).ceil().max(lo as f32) as i64;
                    let to = ((front.x + half) / cell - 0.5).floor().min(hi as f32) as i64;
                    // Cells nearer than the ring's inner edge settled in an earlier window.
                    let (hole_from, hole_to) = if inner > dy.abs() {
                        let hole = (inner * inner - dy * dy).sqrt();
                        (((front.x - hole) / cell - 0.5).ceil() as i64, ((front.x + hole) / cell - 0.5).floor() as i64)
                    } else {
                        (i64::MAX, i64::MIN)
                    };
                    let spans = if hole_from <= hole_to {
                        [(from, to.min(hole_from - 1)), (from.max(hole_to + 1), to)]
                    } else {
                        [(from, to), (1, 0)]
                    };
                    let row_start = y * width;
                    for (span_from, span_to) in spans {
                        if span_to < span_from {
                            continue;
                        }
                        let cells = row_start + span_from as usize..=row_start + span_to as usize;
                        let first = *cells.start();
                        for (index, (&arrival, settled)) in
                            (first..).zip(self.arrival[cells.clone()].iter().zip(&mut self.settled[cells]))
                        {
                            if !*settled && arrival <= until {
                                *settled = true;
                                batch.push(settle_key(arrival, index as u32));
                            }
                        }
                    }
                }
            }
            *unsettled -= batch.len() - walked_before;
            patches_walked += usize::from(batch.len() > walked_before);
            rows_outwards &= batch.len() == walked_before;
        }
        if !batch.is_empty() {
            let in_cell_order = patches_walked == 1 && rows_outwards;
            sort_keys(&mut batch, bounds, &mut scratch, &mut counts, in_cell_order);
            if first_new == self.settle_order.len() {
                // No grid cells settled in this window: the batch is the settle order's tail.
                self.settle_order.extend(batch.iter().map(|&key| key_cell(key)));
            } else {
                self.merge_settled(first_new, &batch);
            }
        }
        SORT_BUFFERS.set(SortBuffers { batch, scratch, counts });
    }

    /// Merges `batch` (sorted) into the settle order's tail from `first_new` (sorted too: the
    /// heap's), by arrival then cell, as the heap alone would have settled them.
    fn merge_settled(&mut self, first_new: usize, batch: &[u64]) {
        let grid: Vec<u32> = self.settle_order.split_off(first_new);
        let arrival = &self.arrival;
        let (mut g, mut b) = (0, 0);
        while g < grid.len() && b < batch.len() {
            if settle_key(arrival[grid[g] as usize], grid[g]) <= batch[b] {
                self.settle_order.push(grid[g]);
                g += 1;
            } else {
                self.settle_order.push(key_cell(batch[b]));
                b += 1;
            }
        }
        self.settle_order.extend_from_slice(&grid[g..]);
        self.settle_order.extend(batch[b..].iter().map(|&key| key_cell(key)));
    }

    /// The ignitions of exact patches not yet burnt through, for a save.
    pub fn exact_fronts(&self) -> Vec<ExactFront> {
        self.patches
            .list
            .iter()
            .filter_map(|p| match p {
                PatchFront::Exact { ignitions, unsettled, .. } if *unsettled > 0 => {
                    Some(ignitions.iter().map(|&(front, _)| front))
                }
                _ => None,
            })
            .flatten()
            .collect()
    }
}

/// The rows from `first_row` to `last_row` whose cell centres may lie within `outer` of
/// `front`'s point, cells `cell` inches wide.
fn rows_within(front: &ExactFront, outer: f32, cell: f32, first_row: u32, last_row: usize) -> RangeInclusive<usize> {
    let low = ((front.y - outer) / cell - 0.5).floor().max(first_row as f32) as usize;
    let high = ((front.y + outer) / cell - 0.5).ceil().min(last_row as f32) as usize;
    low..=high
}

/// Whether a patch given as rows (leftmost, rightmost, count) from its lowest row is digitally
/// convex: one run a row, and the runs' ends are exactly the lattice points of its hull's edges.
fn convex(rows: &[(u32, u32, u32)]) -> bool {
    if rows.iter().any(|&(lo, hi, count)| lo > hi || hi - lo + 1 != count) {
        return false;
    }
    let left: Vec<(i64, i64)> = rows.iter().enumerate().map(|(k, r)| (k as i64, i64::from(r.0))).collect();
    let right: Vec<(i64, i64)> = rows.iter().enumerate().map(|(k, r)| (k as i64, -i64::from(r.1))).collect();
    // The left edge is the lower convex envelope of the leftmost cells (x as a function of the
    // row); mirrored, the right edge is the same for the rightmost.
    boundary_is_hull(&left) && boundary_is_hull(&right)
}

/// Whether every point (row, x) equals the ceiling of the lower convex envelope of all points at
/// its row, i.e. no lattice point between the envelope and the boundary is left out.
fn boundary_is_hull(points: &[(i64, i64)]) -> bool {
    let mut hull: Vec<(i64, i64)> = Vec::with_capacity(points.len());
    for &p in points {
        while hull.len() >= 2 {
            let (o, a) = (hull[hull.len() - 2], hull[hull.len() - 1]);
            let cross = (a.0 - o.0) * (p.1 - o.1) - (a.1 - o.1) * (p.0 - o.0);
            if cross > 0 {
                break;
            }
            hull.pop();
        }
        hull.push(p);
    }
    hull.windows(2).all(|edge| {
        let ((u1, v1), (u2, v2)) = (edge[0], edge[1]);
        let span = u2 - u1;
        (u1..=u2).all(|u| {
            let numerator = v1 * span + (v2 - v1) * (u - u1);
            numerator.div_euclid(span) + i64::from(numerator.rem_euclid(span) != 0) == points[u as usize].1
        })
    })
}

/// A cell's place in the settle order, by arrival then cell (as the heap breaks ties), as one
/// integer: the arrival's bits mapped so that integer order is `f32::total_cmp`'s, above the
/// cell.
pub(super) fn settle_key(arrival: f32, cell: u32) -> u64 {
    u64::from(ordered_bits(arrival)) << 32 | u64::from(cell)
}

/// An arrival's bits mapped so that integer order is `f32::total_cmp`'s.
fn ordered_bits(arrival: f32) -> u32 {
    let bits = arrival.to_bits();
    if bits >> 31 == 1 { !bits } else { bits | 1 << 31 }
}

/// The arrival whose [`ordered_bits`] these are.
fn arrival_of_bits(ordered: u32) -> f32 {
    f32::from_bits(if ordered >> 31 == 1 { ordered & !(1 << 31) } else { !ordered })
}

/// The cell a [`settle_key`] holds.
pub(super) fn key_cell(key: u64) -> u32 {
    key as u32
}

/// The arrival a [`settle_key`] holds.
pub(super) fn key_arrival(key: u64) -> f32 {
    arrival_of_bits((key >> 32) as u32)
}

/// Most buckets of one sort (16 MiB of counts).
const MAX_BUCKETS: usize = 1 << 22;

/// Keys quantised to buckets by the upper bits of their ordered arrival (a subtraction and a
/// shift a key, no float work), monotone in time: a key's bucket is never before that of an
/// earlier arrival, so only keys of one bucket can be out of order once placed by bucket. Within
/// one binade the buckets are even in time; a sort's arrivals mostly span one or two.
#[derive(Clone, Copy, Debug)]
struct Buckets {
    first: u32,
    shift: u32,
    last: u32,
}

impl Buckets {
    /// About one bucket an arrival (between half and twice as many as `cells`) spread over
    /// `bounds` (arrivals outside them take the first or last bucket); `None` for a few cells
    /// or no span. Few keys share a bucket, so few are out of order after it.
    fn spread(cells: usize, bounds: (f32, f32)) -> Option<Self> {
        if cells < 64 {
            return None;
        }
        Self::spread_into(cells, bounds)
    }

    /// At most `count` buckets (at least 2, rounded up to a power of two) over `bounds`; `None`
    /// for no span (or a NaN bound).
    // `!(earliest < latest)` on purpose: a NaN bound gives no buckets.
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    fn spread_into(count: usize, (earliest, latest): (f32, f32)) -> Option<Self> {
        if !(earliest < latest) {
            return None;
        }
        let (first, span) = (ordered_bits(earliest), ordered_bits(latest) - ordered_bits(earliest));
        let buckets = count.max(2).next_power_of_two().min(MAX_BUCKETS) as u32;
        // The least shift that leaves at most `buckets` buckets: span >> shift < buckets.
        let shift = (u32::BITS - span.leading_zeros()).saturating_sub(buckets.trailing_zeros());
        Some(Self { first, shift, last: span >> shift })
    }

    fn len(&self) -> usize {
        self.last as usize + 1
    }

    /// The same buckets merged into buckets `shift` bits wide (no narrower than they were).
    fn widened_to(self, shift: u32) -> Self {
        let shift = shift.max(self.shift);
        Self { first: self.first, shift, last: self.last >> (shift - self.shift) }
    }

    /// A key's place within its bucket: the low `shift` bits of its ordered arrival above the
    /// first bucket's start (0 before it). Only for a shift below 32.
    fn within(&self, key: u64) -> usize {
        (((key >> 32) as u32).saturating_sub(self.first) & ((1 << self.shift) - 1)) as usize
    }

    fn of(&self, key: u64) -> usize {
        // Saturating: a key before `first` is bucket 0, one after the last bucket's is the last.
        ((((key >> 32) as u32).saturating_sub(self.first) >> self.shift).min(self.last)) as usize
    }

    /// The arrivals bucket `bucket` starts at and the next one starts at.
    fn bounds(&self, bucket: usize) -> (f32, f32) {
        let start =
            |b: u64| arrival_of_bits((u64::from(self.first) + (b << self.shift)).min(u64::from(u32::MAX)) as u32);
        (start(bucket as u64), start(bucket as u64 + 1))
    }
}

/// Most keys sorted in one counting pass; more are first split into bands by arrival, each
/// small enough for its own counting pass to stay in cache. Above a window's keys (the last
/// windows of a burn-out hold about twice the average): banding a window's keys cost more
/// than sorting them out of the nearest cache (issue 15, measured).
pub(super) const ONE_PASS_KEYS: usize = 1 << 18;

/// Keys of a band, on average.
const KEYS_PER_BAND: usize = 1 << 8;

/// Cells a window of the exact front settles, on average, where one that would settle many
/// more is split into narrower ones. Each window walks the ends of every row it reaches, far
/// apart in memory, so fewer, fuller windows won until their sort left the cache: 2^16 beat
/// 2^14 and 2^17 in a whole-table burn-out at 345,600 and 3.5 M cells (issue 15).
pub(super) const WINDOW_KEYS: usize = 1 << 16;

/// The bands of arrival a big batch of settle keys is first split into.
#[derive(Clone, Copy, Debug)]
struct Bands(Buckets);

impl Bands {
    /// Bands for about `keys` keys whose arrivals mostly lie within `bounds` (keys outside take
    /// the first or last band); `None` where one counting pass will do.
    fn for_keys(keys: usize, bounds: (f32, f32)) -> Option<Self> {
        if keys <= ONE_PASS_KEYS {
            return None;
        }
        Buckets::spread_into(keys / KEYS_PER_BAND, bounds).map(Self)
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    /// About the arrivals of band `band` (the first and last take any arrival beyond them).
    fn bounds(&self, band: usize) -> (f32, f32) {
        self.0.bounds(band)
    }
}

/// Sorts settle keys whose arrivals mostly lie within `bounds` (keys outside take the first or
/// last bucket): a counting sort on quantised arrival, in two passes for many keys.
/// `in_cell_order`: the keys come in cell order, so keys of one arrival need no sorting.
fn sort_keys(
    keys: &mut Vec<u64>,
    bounds: (f32, f32),
    scratch: &mut Vec<u64>,
    counts: &mut Vec<u32>,
    in_cell_order: bool,
) {
    match Bands::for_keys(keys.len(), bounds) {
        Some(bands) => sort_banded(keys, bands, counts, scratch, in_cell_order),
        None => {
            room_for(scratch, keys.len());
            sort_into(keys, scratch, bounds, counts, in_cell_order);
            std::mem::swap(keys, scratch);
        }
    }
}

/// Makes `scratch` `len` long for a sort to place every key in. What it held is left there
/// (each slot is written before it is read), so only room it never had is zeroed.
fn room_for(scratch: &mut Vec<u64>, len: usize) {
    if scratch.len() < len {
        scratch.resize(len, 0);
    } else {
        scratch.truncate(len);
    }
}

/// Sorts `keys` by placing them by band into `scratch`, then sorting each band back into
/// `keys`, using `counts` as room.
fn sort_banded(keys: &mut [u64], bands: Bands, counts: &mut Vec<u32>, scratch: &mut Vec<u64>, in_cell_order: bool) {
    room_for(scratch, keys.len());
    count(keys, bands.0, counts);
    scatter(keys, scratch, bands.0, counts);
    let ends: Vec<usize> = counts[..bands.len()].iter().map(|&end| end as usize).collect();
    let mut from = 0;
    for (band, end) in ends.into_iter().enumerate() {
        // Placing by band is stable: a band's keys keep their order.
        sort_into(&scratch[from..end], &mut keys[from..end], bands.bounds(band), counts, in_cell_order);
        from = end;
    }
}

/// Sorts `keys` into `sorted` (as long) by a counting sort on arrival quantised over `bounds`
/// (keys outside take the first or last bucket), using `counts` as room. `in_cell_order`: as
/// for [`sort_keys`].
fn sort_into(keys: &[u64], sorted: &mut [u64], bounds: (f32, f32), counts: &mut Vec<u32>, in_cell_order: bool) {
    let Some(buckets) = Buckets::spread(keys.len(), bounds) else {
        sorted.copy_from_slice(keys);
        sorted.sort_unstable();
        return;
    };
    if (1..=MAX_LOW_BITS).contains(&buckets.shift) {
        // Two digits, the low one as wide as it may be: a key's bucket then only needs the
        // bits above it, so both digits' counts are a few kilobytes and stay in the nearest
        // cache, where a bucket a key would spread the counts and the scatter over the table.
        let all_within = place_by_low_bits_then_bucket(keys, sorted, buckets.widened_to(MAX_LOW_BITS), counts);
        // Then every key was placed by all the bits of its arrival, and keys of one arrival
        // kept their order: in cell order, nothing is left to sort.
        if all_within && in_cell_order {
            return;
        }
    } else {
        count(keys, buckets, counts);
        scatter(keys, sorted, buckets, counts);
    }
    finish_by_insertion(sorted);
}

/// Places `keys` into `sorted` by bucket, and within a bucket by the low bits of their
/// arrivals (`buckets.shift` of them, at most [`MAX_LOW_BITS`]), using `counts` as room. Keys of
/// one bucket differ only in those bits, so they come out in order: a symmetric ignition's
/// mirror-image cells, whose arrivals differ by an ulp or two in no order, included. Left for
/// the insertion pass: ties of other ignitions' walks and keys outside the buckets' bounds.
/// Returns whether every key was within them.
fn place_by_low_bits_then_bucket(keys: &[u64], sorted: &mut [u64], buckets: Buckets, counts: &mut Vec<u32>) -> bool {
    let LowRoom { mut placed, mut low_counts } = LOW_ROOM.take();
    room_for(&mut placed, keys.len());
    for (counts, len) in [(&mut *counts, buckets.len()), (&mut low_counts, 1 << buckets.shift)] {
        counts.clear();
        counts.resize(len + 1, 0);
    }
    // A key's offset above the first bucket's start, wrapping below it: within the buckets
    // when at most `most`. Its digits are then its low `shift` bits and the bits above them,
    // with nothing to clamp.
    let Buckets { first, shift, last } = buckets;
    let low = (1u32 << shift) - 1;
    let most = last << shift | low;
    let offset = |key: u64| ((key >> 32) as u32).wrapping_sub(first);
    // Both counts in one pass. A key outside counts in the last bucket (wrongly, if before
    // the first), and sends every key down the clamping path below.
    let mut outside = false;
    for &key in keys {
        let d = offset(key);
        outside |= d > most;
        counts[(d >> shift).min(last) as usize + 1] += 1;
        low_counts[(d & low) as usize + 1] += 1;
    }
    if outside {
        // Rare (bounds worked out before the walk that a key falls outside): every key
        // clamped to the buckets.
        count(keys, buckets, counts);
        low_counts.fill(0);
        for &key in keys {
            low_counts[buckets.within(key) + 1] += 1;
        }
        scatter_by(keys, &mut placed, |key| buckets.within(key), &mut low_counts);
        scatter(&placed, sorted, buckets, counts);
    } else {
        scatter_by(keys, &mut placed, |key| (offset(key) & low) as usize, &mut low_counts);
        scatter_by(&placed, sorted, |key| (offset(key) >> shift) as usize, counts);
    }
    LOW_ROOM.set(LowRoom { placed, low_counts });
    !outside
}

/// Most low bits of an arrival (1,024 counts) a sort places keys by before their buckets.
const MAX_LOW_BITS: u32 = 10;

/// Room for keys placed by the low bits of their arrivals, and their counts.
#[derive(Default)]
struct LowRoom {
    placed: Vec<u64>,
    low_counts: Vec<u32>,
}

thread_local! {
    /// Only [`sort_into`] uses it, within one call.
    static LOW_ROOM: std::cell::Cell<LowRoom> = std::cell::Cell::default();
}

/// Most moves [`finish_by_insertion`] makes per key before it sorts the rest another way.
const INSERTION_MOVES_PER_KEY: usize = 4;

/// Sorts keys already in order by bucket: only keys of one bucket (a few, or ties in time such
/// as an ignition disc's, which the walk gives in order) can be out of order, so one insertion
/// pass finishes them, with a general sort if a big bucket turns out to be scrambled.
fn finish_by_insertion(keys: &mut [u64]) {
    let most = INSERTION_MOVES_PER_KEY * keys.len();
    let mut moves = 0;
    let Some(&first) = keys.first() else { return };
    // The greatest key so far, kept in a register: most keys are in order and are not stored.
    let mut greatest = first;
    for i in 1..keys.len() {
        let key = keys[i];
        if key >= greatest {
            greatest = key;
            continue;
        }
        // Out of order: shift the greater keys up one. The greatest stays the greatest.
        let mut j = i;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = key;
        moves += i - j;
        if moves > most {
            keys.sort_unstable();
            return;
        }
    }
}

/// Sets `counts[b + 1]` to the number of `keys` in bucket `b` (and `counts[0]` to 0).
fn count(keys: &[u64], buckets: Buckets, counts: &mut Vec<u32>) {
    counts.clear();
    counts.resize(buckets.len() + 1, 0);
    for &key in keys {
        counts[buckets.of(key) + 1] += 1;
    }
}

/// Places `keys` into `into` by bucket, given `counts[b + 1]`, the number of keys in bucket `b`
/// (then `counts[b]` is where bucket `b` ends in `into`).
fn scatter(keys: &[u64], into: &mut [u64], buckets: Buckets, counts: &mut [u32]) {
    scatter_by(keys, into, |key| buckets.of(key), counts);
}

/// [`scatter`], key `k` in bucket `of(k)`; stable: keys of one bucket keep their order.
fn scatter_by(keys: &[u64], into: &mut [u64], of: impl Fn(u64) -> usize, counts: &mut [u32]) {
    for k in 1..counts.len() {
        counts[k] += counts[k - 1];
    }
    // counts[b]: where bucket b starts; after placing, where it ends.
    for &key in keys {
        let slot = &mut counts[of(key)];
        into[*slot as usize] = key;
        *slot += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::fire_front::Cell;

    /// A linear congruential generator's successive states from `seed` (Knuth's MMIX constants).
    fn lcg(mut state: u64) -> impl FnMut() -> u64 {
        move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state
        }
    }

    fn rows_of(cells: &[(u32, u32)]) -> Vec<(u32, u32, u32)> {
        let first = cells.iter().map(|c| c.1).min().unwrap_or(0);
        let last = cells.iter().map(|c| c.1).max().unwrap_or(0);
        (first..=last)
            .map(|y| {
                let xs: Vec<u32> = cells.iter().filter(|c| c.1 == y).map(|c| c.0).collect();
                (xs.iter().copied().min().unwrap_or(u32::MAX), xs.iter().copied().max().unwrap_or(0), xs.len() as u32)
            })
            .collect()
    }

    fn cells_where(size: u32, inside: impl Fn(f32, f32) -> bool) -> Vec<(u32, u32)> {
        (0..size).flat_map(|y| (0..size).map(move |x| (x, y))).filter(|&(x, y)| inside(x as f32, y as f32)).collect()
    }

    #[test]
    fn rectangles_discs_and_triangles_are_convex() {
        assert!(convex(&rows_of(&cells_where(20, |x, y| (3.0..12.0).contains(&x) && (5.0..9.0).contains(&y)))));
        assert!(convex(&rows_of(&cells_where(40, |x, y| (x - 20.0).hypot(y - 17.3) <= 11.7))));
        assert!(convex(&rows_of(&cells_where(30, |x, y| y <= x && x + 2.0 * y <= 40.0))));
        assert!(convex(&rows_of(&[(4, 4)])));
    }

    #[test]
    fn an_l_a_notch_a_hole_and_a_ring_are_not() {
        let l = cells_where(20, |x, y| (x < 5.0 && y < 15.0) || (y < 5.0 && x < 15.0));
        assert!(!convex(&rows_of(&l)));
        // One cell bitten out of a rectangle's edge.
        let notch = cells_where(20, |x, y| x < 10.0 && y < 10.0 && !(x == 9.0 && y == 4.0));
        assert!(!convex(&rows_of(&notch)));
        let hole = cells_where(20, |x, y| x < 10.0 && y < 10.0 && !(x == 4.0 && y == 4.0));
        assert!(!convex(&rows_of(&hole)));
        let ring = cells_where(40, |x, y| (5.0..15.0).contains(&(x - 20.0).hypot(y - 20.0)));
        assert!(!convex(&rows_of(&ring)));
        // A triangle missing a lattice point of its slanted edge.
        let mut dented = cells_where(30, |x, y| y <= x && x + 2.0 * y <= 40.0);
        dented.retain(|&c| c != (20, 10));
        assert!(!convex(&rows_of(&dented)));
    }

    #[test]
    fn a_patch_is_the_4_connected_cells_of_its_material() {
        // Blobs of four fuels and gaps on 70 × 45 cells (runs longer than a row's chunk and
        // shorter); fuels 1 and 2 are one material, of two spread rates.
        let mut random = lcg(7);
        let mut next = move || (random() >> 33) as usize;
        let blobs: Vec<usize> = (0..18 * 12).map(|_| next() % 5).collect();
        let fuel_at = |x: f32, y: f32| {
            let blob = blobs[(y / 0.4) as usize * 18 + (x / 0.4) as usize];
            // A gap where 3x + y is a multiple of 97 (most rows have one), so runs end inside blobs.
            let gap = ((x / 0.1) as usize * 3 + (y / 0.1) as usize).is_multiple_of(97);
            (blob > 0 && !gap).then_some(super::super::Fuel {
                index: blob as u8,
                spread_rate_in: if blob == 2 { 0.3 } else { 0.5 },
                burn_out_rounds: 2.0,
            })
        };
        let mut grid = FireGrid::new(7.0, 4.5, 0.1).expect("a valid grid");
        grid.paint(fuel_at).expect("valid fuel");
        grid.set_material(2, 1);
        let (width, height) = (grid.width as usize, grid.height as usize);
        let material = |grid: &FireGrid, index: usize| match grid.fuel[index] {
            0 => None,
            fuel => Some(grid.material_of[fuel as usize]),
        };
        let mut patches = 0;
        let mut first_cells = Vec::new();
        let (mut uniform, mut convex_patches) = (0, 0);
        for origin in (0..width * height).step_by(37) {
            let Some(id) = grid.patch_map().patch_at(origin) else {
                assert!(material(&grid, origin).is_none(), "cell {origin} burns but is in no patch");
                continue;
            };
            if grid.patches.lit(id).is_some() {
                continue;
            }
            grid.patch_of(origin, true);
            patches += 1;
            // A plain flood over the four neighbours.
            let mut inside = vec![false; width * height];
            let mut stack = vec![origin];
            inside[origin] = true;
            while let Some(cell) = stack.pop() {
                let (x, y) = (cell % width, cell / width);
                let neighbours = [(x > 0).then(|| cell - 1), (x + 1 < width).then(|| cell + 1)]
                    .into_iter()
                    .chain([(y > 0).then(|| cell - width), (y + 1 < height).then(|| cell + width)]);
                for next in neighbours.flatten() {
                    if !inside[next] && material(&grid, next) == material(&grid, origin) {
                        inside[next] = true;
                        stack.push(next);
                    }
                }
            }
            for (cell, &inside) in inside.iter().enumerate() {
                assert_eq!(
                    grid.patch_map().patch_at(cell) == Some(id),
                    inside,
                    "cell {cell} and the patch of {origin}"
                );
            }
            // Its shape, from the flood's cells.
            let cells: Vec<usize> = (0..width * height).filter(|&c| inside[c]).collect();
            let (first_row, last_row) = (cells[0] / width, cells[cells.len() - 1] / width);
            let rows: Vec<(u32, u32, u32)> = (first_row..=last_row)
                .map(|y| {
                    let xs: Vec<u32> = cells.iter().filter(|&&c| c / width == y).map(|&c| (c % width) as u32).collect();
                    (xs[0], xs[xs.len() - 1], xs.len() as u32)
                })
                .collect();
            let rate = grid.rate_of[usize::from(grid.fuel[cells[0]])];
            let shape = &grid.patch_map().shapes[id as usize];
            assert_eq!(shape.cells, cells.len(), "the patch of {origin}");
            assert_eq!(shape.first_row as usize, first_row, "the patch of {origin}");
            assert_eq!(
                shape.rows,
                rows.iter().map(|&(lo, hi, _)| (lo, hi)).collect::<Vec<_>>(),
                "the patch of {origin}"
            );
            assert_eq!(shape.rate, rate, "the patch of {origin}: its first cell's rate");
            let all_at_rate = cells.iter().all(|&c| grid.rate_of[usize::from(grid.fuel[c])] == rate);
            assert_eq!(shape.uniform, all_at_rate, "the patch of {origin}");
            assert_eq!(shape.convex, convex(&rows), "the patch of {origin}");
            uniform += usize::from(all_at_rate);
            convex_patches += usize::from(shape.convex);
            first_cells.push((cells[0], id));
        }
        assert!(patches > 20, "{patches} patches");
        // Some of each kind, and numbered by first cell, row by row.
        assert!(uniform > 0 && uniform < patches && convex_patches > 0 && convex_patches < patches);
        first_cells.sort_unstable();
        assert!(first_cells.windows(2).all(|w| w[0].1 < w[1].1), "ids by first cell");
    }

    /// The table's patches are worked out once a paint and shared by copies; putting a fire
    /// out forgets which were lit, so a fire lit again goes as on a fresh grid; and a new
    /// material or paint works them out again.
    #[test]
    fn copies_share_the_patches_and_a_fire_put_out_lights_them_afresh() {
        let fuel = |index: u8| super::super::Fuel { index, spread_rate_in: 0.5, burn_out_rounds: 2.0 };
        let painted = || {
            let mut grid = FireGrid::new(10.0, 6.0, 0.1).expect("a valid grid");
            grid.paint(|x, _| Some(fuel(if x < 5.0 { 1 } else { 2 }))).expect("valid fuel");
            grid
        };
        let template = painted();
        template.prepare_contacts();
        let mut grid = template.clone();
        let shared = |a: &FireGrid, b: &FireGrid| match (a.patch_map.get(), b.patch_map.get()) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        assert!(shared(&template, &grid));
        assert_eq!(template.patch_map().shapes.len(), 2, "two fuels, two patches");
        grid.ignite(2.5, 3.0, 0.2, 0.0).expect("lit");
        grid.advance_to(20.0);
        assert!(matches!(grid.patches.list[..], [PatchFront::Exact { .. }]));
        // Put out, then lit in the other patch: as on a grid never lit.
        grid.clear_fire();
        assert!(grid.patches.list.is_empty() && grid.patches.lit.iter().all(|&k| k == UNLIT));
        let mut fresh = painted();
        for g in [&mut grid, &mut fresh] {
            g.ignite(7.5, 3.0, 0.2, 1.0).expect("lit");
            g.advance_to(f32::INFINITY);
        }
        assert!(grid.arrival.iter().zip(&fresh.arrival).all(|(a, b)| a.to_bits() == b.to_bits()));
        assert_eq!(grid.settle_order, fresh.settle_order);
        assert!(grid.exact_rate(grid.index_of(Cell { x: 80, y: 30 }).expect("on the table")).is_some());
        assert!(grid.exact_rate(grid.index_of(Cell { x: 20, y: 30 }).expect("on the table")).is_none(), "not lit");
        // One material: the two fuels are one patch, worked out again; the copy keeps its own.
        grid.set_material(2, 1);
        assert!(grid.patch_map.get().is_none());
        grid.clear_fire();
        grid.ignite(2.5, 3.0, 0.2, 0.0).expect("lit");
        grid.advance_to(f32::INFINITY);
        assert_eq!(grid.patch_map().shapes.len(), 1);
        assert!(grid.arrival(Cell { x: 99, y: 30 }).is_some(), "the fire crosses into fuel 2");
        assert_eq!(template.patch_map().shapes.len(), 2);
    }

    #[test]
    fn counting_sort_orders_by_time_then_cell() {
        let mut random = lcg(12345);
        let mut next = move || random() >> 33;
        // Cells in index order (one ignition's rings), then shuffled (several ignitions), with
        // ties in time, a negative time and a zero.
        // A tie group of 300, far more than a bucket holds.
        let mut arrival: Vec<f32> = (0..20_000).map(|_| (next() % 300) as f32 * 0.37 - 1.0).collect();
        arrival[7] = -0.0;
        arrival[3] = 0.0;
        arrival[100..400].fill(2.5);
        let ordered: Vec<u32> = (0..5000).collect();
        let mut shuffled: Vec<u32> = (0..20_000).collect();
        for i in (1..shuffled.len()).rev() {
            shuffled.swap(i, next() as usize % (i + 1));
        }
        shuffled.truncate(9000);
        for cells in [ordered, shuffled, vec![5, 1, 9]] {
            let mut expected = cells.clone();
            expected.sort_by(|&a, &b| arrival[a as usize].total_cmp(&arrival[b as usize]).then(a.cmp(&b)));
            let mut keys: Vec<u64> = cells.iter().map(|&c| settle_key(arrival[c as usize], c)).collect();
            sort_keys(&mut keys, (-1.0, 110.0), &mut Vec::new(), &mut Vec::new(), false);
            let sorted: Vec<u32> = keys.iter().map(|&key| key as u32).collect();
            assert_eq!(sorted, expected);
        }
        for time in [-3.5f32, -0.0, 0.0, 1e-30, 2.25, f32::INFINITY] {
            assert_eq!(key_arrival(settle_key(time, 9)).to_bits(), time.to_bits());
        }
    }

    /// A symmetric ignition's rings: groups of up to eight cells (mirror images) whose
    /// arrivals differ by a few ulps in no order, walked row by row. With about a bucket a key,
    /// a group shares a bucket and its keys are placed by their arrivals' low bits first: the
    /// sort must still give the order of time, then cell, and leave the insertion pass nothing
    /// to move. Wide bounds (more bits within a bucket than are placed first) sort the same.
    #[test]
    fn mirror_image_ties_sort_by_their_low_bits() {
        let mut random = lcg(4242);
        let mut next = move || random() >> 33;
        let mut keys = Vec::new();
        for cell in 0..30_000u32 {
            let group = next() % 4000;
            let base = 20.0 + group as f32 * 0.001;
            let time = f32::from_bits(base.to_bits() + (next() % 4) as u32);
            keys.push(settle_key(time, cell));
        }
        let mut expected = keys.clone();
        expected.sort_unstable();
        for bounds in [(20.0, 24.0), (19.0, 1e6), (22.0, 24.0)] {
            let buckets = Buckets::spread(keys.len(), bounds).expect("buckets");
            // Keys in cell order (as here) or not: the same order comes out, the insertion pass
            // left out only where every key is within the bounds.
            for in_cell_order in [false, true] {
                let mut sorted = vec![0; keys.len()];
                sort_into(&keys, &mut sorted, bounds, &mut Vec::new(), in_cell_order);
                assert!(sorted == expected, "{bounds:?}, in cell order: {in_cell_order}");
            }
            if (1..=MAX_LOW_BITS).contains(&buckets.shift) {
                // Placed by low bits, then by bucket: in order before the insertion pass when
                // every key is within the bounds, and said to be.
                let mut by_bucket = vec![0; keys.len()];
                let all_within = place_by_low_bits_then_bucket(&keys, &mut by_bucket, buckets, &mut Vec::new());
                assert_eq!(all_within, bounds.0 <= 20.0, "{bounds:?}");
                assert_eq!(by_bucket == expected, all_within, "{bounds:?}: the passes alone");
            } else {
                assert!(bounds.1 > 1e5, "the narrow bounds take the low pass");
            }
        }
    }

    #[test]
    fn buckets_from_loose_or_wrong_bounds_still_sort() {
        // The sort buckets keys by bounds worked out before the walk: too wide, too narrow, or
        // missing keys at either end, the order must come out the same, in one pass or in bands.
        let mut random = lcg(99);
        let mut next = move || (random() >> 40) as u32;
        for cells in [3000, ONE_PASS_KEYS + 1, 100_000] {
            let keys: Vec<u64> =
                (0..cells).map(|cell| settle_key((next() % 5000) as f32 * 0.01, cell as u32)).collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            for bounds in [(0.0, 50.0), (-100.0, 1e6), (10.0, 20.0), (49.0, 49.5), (-5.0, 0.001), (3.0, f32::INFINITY)]
            {
                let mut sorted = vec![0; cells];
                sort_into(&keys, &mut sorted, bounds, &mut Vec::new(), false);
                assert!(sorted == expected, "one pass, {cells} keys, {bounds:?}");
                let Some(bands) = Bands::for_keys(cells, bounds) else { continue };
                let mut sorted = keys.clone();
                sort_banded(&mut sorted, bands, &mut Vec::new(), &mut Vec::new(), false);
                assert!(sorted == expected, "in bands, {cells} keys, {bounds:?}");
            }
            let mut sorted = keys.clone();
            sort_keys(&mut sorted, (0.0, 50.0), &mut Vec::new(), &mut Vec::new(), false);
            assert!(sorted == expected, "{cells} keys");
        }
        assert!(Buckets::spread(63, (0.0, 1.0)).is_none());
        assert!(Buckets::spread(1000, (1.0, 1.0)).is_none());
        assert!(Buckets::spread(1000, (2.0, 1.0)).is_none());
        assert!(Buckets::spread(1000, (f32::NAN, 1.0)).is_none());
        // At most the buckets asked for, and more than half of them.
        for bounds in [(0.0, 1.0), (40.0, 41.5), (-3.0, 7.0), (0.0, f32::INFINITY)] {
            let buckets = Buckets::spread(3000, bounds).map(|b| b.len());
            assert!(buckets.is_some_and(|b| b > 2048 && b <= 4096), "{bounds:?}: {buckets:?}");
        }
        // Widened, a bucket is the merge of the narrow ones whose numbers agree above the new
        // width: every key's bucket is its narrow one's shifted, within bounds and beyond them.
        let narrow = Buckets::spread(20_000, (12.0, 13.0)).expect("buckets");
        assert!(narrow.shift < MAX_LOW_BITS);
        let wide = narrow.widened_to(MAX_LOW_BITS);
        assert_eq!((wide.shift, wide.last), (MAX_LOW_BITS, narrow.last >> (MAX_LOW_BITS - narrow.shift)));
        for arrival in [11.0, 12.0, 12.3, 12.999, 13.0, 14.0] {
            let key = settle_key(arrival, 7);
            assert_eq!(wide.of(key), narrow.of(key) >> (MAX_LOW_BITS - narrow.shift), "{arrival}");
        }
        assert_eq!(narrow.widened_to(1).shift, narrow.shift, "never narrower");
    }
}
