//! The exact front (issue 15): inside one convex patch of one material with one spread rate, the
//! fire reaches a point when it has covered the straight line from the ignition disc, so its
//! arrival is `start + max(0, distance − radius) / FSR` (001 "Fire Spreading": "spreads at the
//! FSR per round with the same material"), with no grid error at all. Most scene regions are
//! convex (rectangles, circles, convex polygons); a patch that is not (an L of two fields, a
//! field with a building painted into it) or that met another fire before it was first lit
//! keeps the grid's Dijkstra front.
//!
//! A patch is the set of cells the grid front could reach from a cell: 4-connected cells of one
//! material (a diagonal step needs both side cells). It is classified once, when first lit:
//! convex means every cell centre inside the convex hull of its cell centres is in it (digital
//! convexity, checked exactly in integers per row). The arrival of every cell of the patch is
//! written when it is lit (a few additions and a square root a cell); settling a round then
//! visits only the cells in that round's ring of each ignition, row by row.

use super::{FireGrid, HeapEntry};
use serde::{Deserialize, Serialize};

/// Ignitions an exact patch takes before it hands over to the grid front: each one costs a pass
/// over the patch and a ring walk a round, which the grid's heap does not.
pub(super) const MAX_EXACT_IGNITIONS: usize = 32;

/// Most cell updates an exact patch's ignitions may cost together (ignitions × cells) before it
/// hands over to the grid front: a table-wide patch lit by thousands of fires (the worst scene
/// `check` accepts) takes the grid front after a few, not after 32 passes over a million cells.
const EXACT_WORK_CELLS: usize = 8 << 20;

/// No patch known for this cell yet.
pub(super) const UNCLASSIFIED: u32 = u32::MAX;

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
    },
    /// The grid's Dijkstra front.
    Grid,
}

/// Every patch classified so far; cells of unclassified patches hold [`UNCLASSIFIED`].
#[derive(Clone, Debug, Default)]
pub(super) struct Patches {
    pub(super) of_cell: Vec<u32>,
    pub(super) list: Vec<PatchFront>,
}

impl Patches {
    pub(super) fn new(cells: usize) -> Self {
        Self { of_cell: vec![UNCLASSIFIED; cells], list: Vec::new() }
    }

    pub(super) fn clear(&mut self) {
        self.of_cell.fill(UNCLASSIFIED);
        self.list.clear();
    }

    /// The exact patch holding cell `index`, if it is one.
    pub(super) fn exact_rate(&self, index: usize) -> Option<f32> {
        match self.list.get(*self.of_cell.get(index)? as usize)? {
            PatchFront::Exact { rate, .. } => Some(*rate),
            PatchFront::Grid => None,
        }
    }
}

impl FireGrid {
    /// The patch holding `origin`, classified now if it was not. `fresh`: only a patch no fire
    /// has reached may be exact (a restore passes false and vouches for the arrivals itself).
    pub(super) fn patch_of(&mut self, origin: usize, fresh: bool) -> usize {
        let known = self.patches.of_cell[origin];
        if known != UNCLASSIFIED {
            return known as usize;
        }
        let id = self.patches.list.len() as u32;
        let material = self.material_of[self.fuel[origin] as usize];
        let width = self.width as usize;
        let rate = self.rate[origin];
        // Per row of the table: leftmost, rightmost and count of the patch's cells, filled run by
        // run (a scanline flood: each cell is looked at a few times, in row order).
        let mut rows: Vec<(u32, u32, u32)> = vec![(u32::MAX, 0, 0); self.height as usize];
        let mut uniform = true;
        let mut untouched = true;
        let same = |grid: &Self, index: usize| {
            let fuel = grid.fuel[index];
            fuel != 0 && grid.material_of[fuel as usize] == material && grid.patches.of_cell[index] == UNCLASSIFIED
        };
        let mut seeds = vec![origin];
        while let Some(seed) = seeds.pop() {
            if self.patches.of_cell[seed] != UNCLASSIFIED {
                continue;
            }
            let y = seed / width;
            let row = y * width;
            let (mut lo, mut hi) = (seed - row, seed - row);
            while lo > 0 && same(self, row + lo - 1) {
                lo -= 1;
            }
            while hi + 1 < width && same(self, row + hi + 1) {
                hi += 1;
            }
            for index in row + lo..=row + hi {
                self.patches.of_cell[index] = id;
                uniform &= self.rate[index].to_bits() == rate.to_bits();
                untouched &= !self.settled[index] && self.arrival[index] == f32::INFINITY;
            }
            let entry = &mut rows[y];
            *entry = (entry.0.min(lo as u32), entry.1.max(hi as u32), entry.2 + (hi - lo + 1) as u32);
            // One seed for each run of the patch's cells touching this run above and below.
            for next_row in [y.wrapping_sub(1), y + 1] {
                if next_row >= self.height as usize {
                    continue;
                }
                let base = next_row * width;
                let mut in_run = false;
                for x in lo..=hi {
                    let fits = same(self, base + x);
                    if fits && !in_run {
                        seeds.push(base + x);
                    }
                    in_run = fits;
                }
            }
        }
        // A 4-connected patch covers a run of whole rows.
        let first_row = rows.iter().position(|r| r.2 > 0).unwrap_or(0);
        let last_row = rows.iter().rposition(|r| r.2 > 0).unwrap_or(0);
        let rows = &rows[first_row..=last_row];
        let first_row = first_row as u32;
        let exact = self.solver == super::FrontSolver::Exact && uniform && (untouched || !fresh) && convex(rows);
        let front = if exact {
            let rows: Vec<(u32, u32)> = rows.iter().map(|&(lo, hi, _)| (lo, hi)).collect();
            let cells = rows.iter().map(|&(lo, hi)| (hi - lo + 1) as usize).sum::<usize>();
            let settled = if untouched { 0 } else { self.count_settled(first_row, &rows) };
            PatchFront::Exact { rate, first_row, rows, ignitions: Vec::new(), unsettled: cells - settled }
        } else {
            PatchFront::Grid
        };
        self.patches.list.push(front);
        id as usize
    }

    fn count_settled(&self, first_row: u32, rows: &[(u32, u32)]) -> usize {
        let width = self.width as usize;
        rows.iter()
            .enumerate()
            .map(|(k, &(lo, hi))| {
                let start = (first_row as usize + k) * width;
                self.settled[start + lo as usize..=start + hi as usize].iter().filter(|&&s| s).count()
            })
            .sum()
    }

    /// Lights exact patch `patch` from `front`: every unsettled cell whose straight-line arrival
    /// is earlier takes it. Returns the cells brought forward; past [`MAX_EXACT_IGNITIONS`] the
    /// patch hands over to the grid front.
    pub(super) fn ignite_exact(&mut self, patch: usize, origin: usize, front: ExactFront) -> usize {
        let PatchFront::Exact { rate, first_row, rows, ignitions, .. } = &mut self.patches.list[patch] else {
            return 0;
        };
        let (rate, first_row) = (*rate, *first_row);
        ignitions.push((front, f32::NEG_INFINITY));
        let rows = std::mem::take(rows);
        let cells: usize = rows.iter().map(|&(lo, hi)| (hi - lo + 1) as usize).sum();
        let hand_over = ignitions.len() > MAX_EXACT_IGNITIONS || ignitions.len() * cells > EXACT_WORK_CELLS;
        let width = self.width as usize;
        let slowness = 1.0 / rate;
        let mut seeded = 0;
        for (k, &(lo, hi)) in rows.iter().enumerate() {
            let y = first_row as usize + k;
            let dy = (y as f32 + 0.5) * self.cell_size - front.y;
            for x in lo as usize..=hi as usize {
                let index = y * width + x;
                if self.settled[index] {
                    continue;
                }
                let dx = (x as f32 + 0.5) * self.cell_size - front.x;
                let delay =
                    if index == origin { 0.0 } else { ((dx * dx + dy * dy).sqrt() - front.radius).max(0.0) * slowness };
                let candidate = front.time + delay;
                if candidate < self.arrival[index] {
                    self.arrival[index] = candidate;
                    seeded += 1;
                }
            }
        }
        if hand_over {
            // The grid front carries on from the arrivals written so far.
            for (k, &(lo, hi)) in rows.iter().enumerate() {
                let start = (first_row as usize + k) * width;
                for index in start + lo as usize..=start + hi as usize {
                    if !self.settled[index] && self.arrival[index].is_finite() {
                        self.heap.push(HeapEntry { time: self.arrival[index], cell: index as u32 });
                    }
                }
            }
            self.patches.list[patch] = PatchFront::Grid;
        } else if let PatchFront::Exact { rows: kept, .. } = &mut self.patches.list[patch] {
            *kept = rows;
        }
        seeded
    }

    /// Adds a saved ignition to exact patch `patch` without touching arrivals (a restore has
    /// put them back, settled up to `settled_until`).
    pub(super) fn add_exact_front(&mut self, patch: usize, front: ExactFront, settled_until: f32) {
        if let Some(PatchFront::Exact { ignitions, .. }) = self.patches.list.get_mut(patch) {
            ignitions.push((front, settled_until));
        }
    }

    /// Settles the cells of exact patches arriving by `until`, appending them to the settle
    /// order in arrival order after `first_new`.
    pub(super) fn advance_exact(&mut self, until: f32, first_new: usize) {
        let width = self.width as usize;
        let cell = self.cell_size;
        let slack = RING_SLACK_CELLS * cell;
        let mut batch = std::mem::take(&mut self.exact_batch);
        batch.clear();
        for patch in self.patches.list.iter_mut() {
            let PatchFront::Exact { rate, first_row, rows, ignitions, unsettled } = patch else { continue };
            if *unsettled == 0 {
                continue;
            }
            let last_row = *first_row as usize + rows.len() - 1;
            for (front, swept) in ignitions.iter_mut() {
                if until < front.time || until <= *swept {
                    continue;
                }
                // The ring of distances whose arrival from this ignition falls after the time
                // its rings were walked to and by `until`: nearer cells were settled then.
                let inner = front.radius + (*swept - front.time) * *rate - slack;
                *swept = until;
                let outer = front.radius + (until - front.time) * *rate + slack;
                let low = ((front.y - outer) / cell - 0.5).floor().max(*first_row as f32) as usize;
                let high = ((front.y + outer) / cell - 0.5).ceil().min(last_row as f32) as usize;
                for y in low..=high {
                    let dy = (y as f32 + 0.5) * cell - front.y;
                    if outer.is_finite() && dy.abs() > outer {
                        continue;
                    }
                    let (lo, hi) = rows[y - *first_row as usize];
                    let half = (outer * outer - dy * dy).sqrt();
                    let from = ((front.x - half) / cell - 0.5).ceil().max(lo as f32) as usize;
                    let to = ((front.x + half) / cell - 0.5).floor().min(hi as f32);
                    if to < from as f32 {
                        continue;
                    }
                    let to = to as usize;
                    // Cells nearer than the ring's inner edge settled in an earlier window.
                    let (skip_from, skip_to) = if inner > dy.abs() {
                        let hole = (inner * inner - dy * dy).sqrt();
                        (((front.x - hole) / cell - 0.5).ceil(), ((front.x + hole) / cell - 0.5).floor())
                    } else {
                        (f32::INFINITY, f32::NEG_INFINITY)
                    };
                    let row_start = y * width;
                    let mut x = from;
                    while x <= to {
                        if (x as f32) >= skip_from && (x as f32) <= skip_to {
                            x = (skip_to as usize + 1).max(x + 1);
                            continue;
                        }
                        let index = row_start + x;
                        if !self.settled[index] && self.arrival[index] <= until {
                            self.settled[index] = true;
                            *unsettled -= 1;
                            batch.push((self.arrival[index], index as u32));
                        }
                        x += 1;
                    }
                }
            }
        }
        if !batch.is_empty() {
            sort_by_arrival(&mut batch, &mut self.exact_scratch);
            self.merge_settled(first_new, &batch);
        }
        self.exact_batch = batch;
    }

    /// Merges `batch` (sorted) into the settle order's tail from `first_new` (sorted too: the
    /// heap's), by arrival then cell, as the heap alone would have settled them.
    fn merge_settled(&mut self, first_new: usize, batch: &[(f32, u32)]) {
        if first_new == self.settle_order.len() {
            self.settle_order.extend(batch.iter().map(|&(_, c)| c));
            return;
        }
        let grid: Vec<u32> = self.settle_order.split_off(first_new);
        let arrival = &self.arrival;
        let (mut g, mut b) = (0, 0);
        while g < grid.len() && b < batch.len() {
            let from_grid = (arrival[grid[g] as usize], grid[g]);
            if from_grid.0.total_cmp(&batch[b].0).then(from_grid.1.cmp(&batch[b].1)).is_le() {
                self.settle_order.push(grid[g]);
                g += 1;
            } else {
                self.settle_order.push(batch[b].1);
                b += 1;
            }
        }
        self.settle_order.extend_from_slice(&grid[g..]);
        self.settle_order.extend(batch[b..].iter().map(|&(_, c)| c));
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

/// Sorts settled cells by arrival, then cell: a stable radix sort (11 bits a pass) of the
/// cells by index, skipped when they are in index order already (one ignition's rings are),
/// then of their times quantised to 22 bits over the batch's span (two passes), then an
/// insertion pass that orders the few cells whose times fell in one quantum.
fn sort_by_arrival(batch: &mut Vec<(f32, u32)>, scratch: &mut Vec<(f32, u32)>) {
    let order = |a: &(f32, u32), b: &(f32, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    let (first, last) =
        batch.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &(t, _)| (lo.min(t), hi.max(t)));
    let span = last - first;
    if batch.len() < 256 || !(span > 0.0 && span.is_finite()) {
        batch.sort_unstable_by(order);
        return;
    }
    if !batch.is_sorted_by_key(|&(_, cell)| cell) {
        radix_passes(batch, scratch, |&(_, cell)| cell);
    }
    // Monotone in time, so only cells of one quantum can be out of order after it.
    let scale = ((1u32 << 22) - 1) as f32 / span;
    radix_passes(batch, scratch, |&(time, _)| (((time - first) * scale) as u32).min((1 << 22) - 1));
    for i in 1..batch.len() {
        let mut j = i;
        while j > 0 && order(&batch[j - 1], &batch[j]).is_gt() {
            batch.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Stable LSD radix sort of `items` by a 32-bit key, 11 bits a pass; passes where every key
/// has the same digit are skipped.
fn radix_passes(items: &mut Vec<(f32, u32)>, scratch: &mut Vec<(f32, u32)>, key: impl Fn(&(f32, u32)) -> u32) {
    const BITS: u32 = 11;
    const BUCKETS: usize = 1 << BITS;
    let (low, high) = items.iter().fold((u32::MAX, 0u32), |(lo, hi), item| (lo.min(key(item)), hi.max(key(item))));
    let differing = low ^ high;
    let mut shift = 0;
    while shift < 32 {
        if (differing >> shift) & (BUCKETS as u32 - 1) != 0 {
            let digit = |item: &(f32, u32)| ((key(item) >> shift) as usize) & (BUCKETS - 1);
            let mut counts = [0usize; BUCKETS];
            for item in items.iter() {
                counts[digit(item)] += 1;
            }
            let mut next = [0usize; BUCKETS];
            let mut total = 0;
            for (slot, count) in next.iter_mut().zip(counts) {
                *slot = total;
                total += count;
            }
            scratch.clear();
            scratch.resize(items.len(), (0.0, 0));
            for item in items.iter() {
                let d = digit(item);
                scratch[next[d]] = *item;
                next[d] += 1;
            }
            std::mem::swap(items, scratch);
        }
        shift += BITS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn radix_sort_orders_by_time_then_cell() {
        let mut state = 12345u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state >> 33
        };
        // Cells in index order (one ignition's rings), then shuffled (several ignitions), with
        // ties in time, a negative time and a zero.
        let ordered: Vec<(f32, u32)> = (0..5000).map(|i| ((next() % 700) as f32 * 0.01, i)).collect();
        let mut shuffled: Vec<(f32, u32)> =
            (0..5000).map(|_| ((next() % 300) as f32 * 0.37 - 1.0, (next() % 3_000_000) as u32)).collect();
        shuffled.push((-0.0, 7));
        shuffled.push((0.0, 3));
        for mut batch in [ordered, shuffled] {
            let mut expected = batch.clone();
            expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            sort_by_arrival(&mut batch, &mut Vec::new());
            assert_eq!(batch, expected);
        }
    }
}
