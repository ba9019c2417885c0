//! A uniform grid (bucket) index over segments on the table, so a query along a short step, or
//! round a point, tests only what lies in the cells it crosses rather than everything.
//!
//! Each item is a segment `a`–`b` (a point is a segment of no length) with a reach: it is put
//! in every cell that holds a point within its reach of the segment (and a hair more, so float
//! rounding at a cell border never loses it). A query names the cells the same way and hands
//! back the ids found there, **sorted ascending and each once**: callers visit candidates in the
//! order they visited every item before, so results (and the dice rolled on them) do not change.
//! The candidates are a superset of the items that meet the query; the caller still measures.

use bevy::math::Vec2;

/// How far past its reach, in inches, a segment's cells run on insertion and on query, so float
/// rounding at a cell border (a few millionths of an inch on a 1000" table) never loses an item.
const MARGIN: f32 = 0.01;
/// Most cells along either side of the grid: a huge table gets larger cells, not more memory.
const MAX_SIDE: usize = 1024;
/// Most (cell, id) entries (or four an item, where that is more): cells start large enough for
/// the items' total length to fit in half of it, and double in size until the entries fit.
const MAX_ENTRIES: usize = 1 << 23;
/// Most items a grid of one cell holds: so few that measuring each costs less than finding the
/// cells a query crosses (a tomb's few walls, a party's paths).
const ONE_CELL_MOST: usize = 32;

/// Segment ids bucketed by square cells: built once from a list of items, then queried.
#[derive(Debug, Clone, Default)]
pub struct SegmentGrid {
    origin: Vec2,
    cell: f32,
    columns: usize,
    rows: usize,
    /// The ids of cell `c` (row-major) are `ids[starts[c]..starts[c + 1]]`, ascending.
    starts: Vec<u32>,
    ids: Vec<u32>,
    /// Items the grid was built over (ids are below this).
    items: usize,
}

impl SegmentGrid {
    /// A grid over `items`, each `(a, b, reach)` under its index: a segment, or a point where
    /// `a == b`, found by every query that comes within `reach` of it. Cells are at least
    /// `min_cell` inches (at least 0.01"); items that are not finite are left out.
    pub fn new(items: &[(Vec2, Vec2, f32)], min_cell: f32) -> Self {
        Self::build(items, min_cell, ONE_CELL_MOST)
    }

    /// As [`SegmentGrid::new`], in cells however few the items: for a caller whose answer
    /// depends on more than which candidates meet its query. A sight polygon is built from the
    /// blockers near the viewer, and a far one adds vertices its range then cuts.
    pub fn in_cells(items: &[(Vec2, Vec2, f32)], min_cell: f32) -> Self {
        Self::build(items, min_cell, 0)
    }

    fn build(items: &[(Vec2, Vec2, f32)], min_cell: f32, one_cell_most: usize) -> Self {
        let finite = |&(a, b, r): &(Vec2, Vec2, f32)| a.is_finite() && b.is_finite() && r.is_finite();
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        let mut length = 0.0f32;
        let mut count = 0usize;
        for item in items.iter().filter(|&i| finite(i)) {
            let (a, b, r) = *item;
            let r = r.max(0.0);
            lo = lo.min(a.min(b) - Vec2::splat(r));
            hi = hi.max(a.max(b) + Vec2::splat(r));
            let d = (b - a).abs();
            length += d.x + d.y + 2.0 * r;
            count += 1;
        }
        if count == 0 {
            return Self::default();
        }
        let min_cell = if min_cell.is_finite() { min_cell.max(0.01) } else { 1.0 };
        let span = (hi - lo).max(Vec2::splat(min_cell));
        if count <= one_cell_most {
            // One cell holding every finite item, in id order.
            let ids: Vec<u32> = items.iter().enumerate().filter(|(_, i)| finite(i)).map(|(id, _)| id as u32).collect();
            let starts = vec![0, ids.len() as u32];
            return Self { starts, ids, items: items.len(), ..Self::empty(lo, span, f32::INFINITY) };
        }
        let most = MAX_ENTRIES.max(4 * count);
        let mut cell = min_cell.max(span.max_element() / MAX_SIDE as f32).max(length / (most / 2) as f32);
        loop {
            let mut grid = Self::empty(lo, span, cell);
            let mut counts = vec![0u32; grid.columns * grid.rows + 1];
            let mut total = 0usize;
            for item in items.iter().filter(|&i| finite(i)) {
                grid.for_each_cell(item.0, item.1, item.2, |c| {
                    counts[c] += 1;
                    total += 1;
                });
            }
            if total > most && grid.columns * grid.rows > 1 {
                cell *= 2.0;
                continue;
            }
            // Prefix sums: `starts[c]` is where cell c's ids begin.
            let mut at = 0u32;
            for c in counts.iter_mut() {
                let n = *c;
                *c = at;
                at += n;
            }
            let mut next = counts.clone();
            let mut ids = vec![0u32; total];
            for (id, item) in items.iter().enumerate() {
                if !finite(item) {
                    continue;
                }
                grid.for_each_cell(item.0, item.1, item.2, |c| {
                    ids[next[c] as usize] = id as u32;
                    next[c] += 1;
                });
            }
            grid.starts = counts;
            grid.ids = ids;
            grid.items = items.len();
            return grid;
        }
    }

    /// A grid of `cell`-inch squares covering `span` from `origin`, holding nothing yet.
    fn empty(origin: Vec2, span: Vec2, cell: f32) -> Self {
        let side = |s: f32| (((s / cell).floor() as usize).saturating_add(1)).clamp(1, MAX_SIDE + 1);
        Self { origin, cell, columns: side(span.x), rows: side(span.y), starts: Vec::new(), ids: Vec::new(), items: 0 }
    }

    /// The cell size in inches (0 for an empty grid, infinite for a grid of one cell).
    pub fn cell_size(&self) -> f32 {
        self.cell
    }

    /// The column (or row) holding coordinate `v`, clamped to the grid: a point off it counts
    /// in the nearest edge cell, the same on insertion and on query.
    fn index(v: f32, origin: f32, cell: f32, n: usize) -> usize {
        // No `floor`: above 0 the cast truncates to the floor, and at or below 0 (or NaN) the
        // first cell is taken either way. On the baseline x86-64 target `floor` is a call.
        let c = (v - origin) / cell;
        if c.is_nan() || c <= 0.0 {
            0
        } else if c >= (n - 1) as f32 {
            n - 1
        } else {
            c as usize
        }
    }

    /// Call `f` with every cell (row-major index) holding a point within `reach` (and the
    /// margin) of the segment `a`–`b`, each once: column by column, the rows the segment
    /// spans within the column widened by the reach.
    fn for_each_cell(&self, a: Vec2, b: Vec2, reach: f32, mut f: impl FnMut(usize)) {
        if self.columns == 0 || self.rows == 0 {
            return;
        }
        let r = reach.max(0.0) + MARGIN;
        let (lo, hi) = (a.min(b) - Vec2::splat(r), a.max(b) + Vec2::splat(r));
        let col = |x: f32| Self::index(x, self.origin.x, self.cell, self.columns);
        let row = |y: f32| Self::index(y, self.origin.y, self.cell, self.rows);
        let d = b - a;
        for cx in col(lo.x)..=col(hi.x) {
            // The column's span (the edge columns run on without end), widened by the reach.
            let left = if cx == 0 { f32::NEG_INFINITY } else { self.origin.x + cx as f32 * self.cell };
            let right =
                if cx + 1 == self.columns { f32::INFINITY } else { self.origin.x + (cx + 1) as f32 * self.cell };
            let (y_lo, y_hi) = if d.x == 0.0 {
                (a.y.min(b.y), a.y.max(b.y))
            } else {
                let t0 = ((left - r - a.x) / d.x).clamp(0.0, 1.0);
                let t1 = ((right + r - a.x) / d.x).clamp(0.0, 1.0);
                let (y0, y1) = (a.y + d.y * t0, a.y + d.y * t1);
                (y0.min(y1), y0.max(y1))
            };
            for cy in row(y_lo - r)..=row(y_hi + r) {
                f(cy * self.columns + cx);
            }
        }
    }

    fn push_cell(&self, c: usize, out: &mut Vec<u32>) {
        let (from, to) = (self.starts[c] as usize, self.starts[c + 1] as usize);
        out.extend_from_slice(&self.ids[from..to]);
    }

    /// The ids of every item that may come within `reach` of the segment `a`–`b` (a point
    /// where `a == b`), ascending and each once (a superset: the caller measures).
    pub fn along(&self, a: Vec2, b: Vec2, reach: f32) -> Vec<u32> {
        let mut out = Vec::new();
        if self.ids.is_empty() || !(a.is_finite() && b.is_finite()) {
            return out;
        }
        if self.starts.len() == 2 {
            // One cell: its ids, ascending and each once as they were put in.
            return self.ids.clone();
        }
        self.for_each_cell(a, b, reach, |c| self.push_cell(c, &mut out));
        self.ascending_once(out)
    }

    /// `found` ascending and each once. Many finds (a crowd on one spot: every cell of a long
    /// query holds the same thousands of ids) are marked in a bitset over the items instead of
    /// sorted, so the work is linear in what was found.
    fn ascending_once(&self, mut found: Vec<u32>) -> Vec<u32> {
        if found.len() <= 64 || found.len() < self.items / 64 {
            found.sort_unstable();
            found.dedup();
            return found;
        }
        let mut bits = vec![0u64; self.items.div_ceil(64)];
        for &id in &found {
            if let Some(word) = bits.get_mut(id as usize / 64) {
                *word |= 1 << (id % 64);
            }
        }
        found.clear();
        for (w, &word) in bits.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                found.push(w as u32 * 64 + word.trailing_zeros());
                word &= word - 1;
            }
        }
        found
    }

    /// The ids of every item that may have a point within the box `lo`..`hi` (a superset),
    /// ascending and each once.
    pub fn in_box(&self, lo: Vec2, hi: Vec2) -> Vec<u32> {
        let mut out = Vec::new();
        if self.ids.is_empty() || !(lo.is_finite() && hi.is_finite()) {
            return out;
        }
        if self.starts.len() == 2 {
            return self.ids.clone();
        }
        let col = |x: f32| Self::index(x, self.origin.x, self.cell, self.columns);
        let row = |y: f32| Self::index(y, self.origin.y, self.cell, self.rows);
        let (lo, hi) = (lo.min(hi) - Vec2::splat(MARGIN), lo.max(hi) + Vec2::splat(MARGIN));
        for cy in row(lo.y)..=row(hi.y) {
            for cx in col(lo.x)..=col(hi.x) {
                self.push_cell(cy * self.columns + cx, &mut out);
            }
        }
        self.ascending_once(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::geometry::{point_segment_distance, segments_cross};
    use rand::{Rng, SeedableRng, rngs::Xoshiro256PlusPlus};

    /// The cell of a coordinate is the clamped floor of its offset in cells, as written with
    /// `floor`: at integers and either side of them, below and past the grid, and NaN.
    #[test]
    fn a_coordinate_s_cell_is_the_clamped_floor() {
        let by_floor = |v: f32, origin: f32, cell: f32, n: usize| {
            let c = ((v - origin) / cell).floor();
            if c.is_nan() || c <= 0.0 {
                0
            } else if c >= (n - 1) as f32 {
                n - 1
            } else {
                c as usize
            }
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut values = vec![f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0, 0.0, f32::MIN_POSITIVE];
        for k in -3..=40 {
            let v = k as f32 * 0.5;
            values.extend([v, v.next_down(), v.next_up()]);
        }
        values.extend((0..2000).map(|_| unit(&mut rng) * 50.0 - 5.0));
        for &(origin, cell, n) in &[(0.0, 1.0, 1usize), (0.0, 0.5, 7), (-1.25, 0.75, 30), (2.0, 3.0, 4)] {
            for &v in &values {
                assert_eq!(
                    SegmentGrid::index(v, origin, cell, n),
                    by_floor(v, origin, cell, n),
                    "v {v}, origin {origin}, cell {cell}, n {n}"
                );
            }
        }
    }

    /// A float in `0..1` from the generator.
    fn unit(rng: &mut Xoshiro256PlusPlus) -> f32 {
        (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32
    }

    /// The distance between two segments (0 where they cross).
    fn segment_distance(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> f32 {
        if segments_cross(a, b, c, d).is_some() {
            return 0.0;
        }
        point_segment_distance(a, c, d)
            .min(point_segment_distance(b, c, d))
            .min(point_segment_distance(c, a, b))
            .min(point_segment_distance(d, a, b))
    }

    /// Segments of every awkward sort: long ones crossing many cells, ones lying on cell
    /// borders (whole inches, with 1" cells), points, and a polyline of thousands of points.
    fn awkward_segments(rng: &mut Xoshiro256PlusPlus, n: usize) -> Vec<(Vec2, Vec2)> {
        fn at(rng: &mut Xoshiro256PlusPlus) -> Vec2 {
            Vec2::new(unit(rng) * 100.0, unit(rng) * 100.0)
        }
        let mut v = Vec::new();
        for i in 0..n {
            let a = at(rng);
            let seg = match i % 6 {
                // Long: across much of the table.
                0 => (a, at(rng)),
                // Short.
                1 => (a, a + Vec2::new(unit(rng) - 0.5, unit(rng) - 0.5) * 3.0),
                // On cell borders: whole inches, along a row or a column line.
                2 => {
                    let (x, y) = (a.x.floor(), a.y.floor());
                    if rng.next_u32().is_multiple_of(2) {
                        (Vec2::new(x, y), Vec2::new(x + (rng.next_u32() % 7) as f32, y))
                    } else {
                        (Vec2::new(x, y), Vec2::new(x, y + (rng.next_u32() % 7) as f32))
                    }
                }
                // A point.
                3 => (a, a),
                // A point on a cell corner.
                4 => (a.floor(), a.floor()),
                // Nearly vertical and long.
                _ => (a, Vec2::new(a.x + (unit(rng) - 0.5) * 1e-4, unit(rng) * 100.0)),
            };
            v.push(seg);
        }
        // A wall of thousands of points: a jagged ring round the middle.
        let ring: Vec<Vec2> = (0..=3000)
            .map(|k| {
                let angle = k as f32 / 3000.0 * std::f32::consts::TAU;
                Vec2::new(50.0, 50.0) + Vec2::from_angle(angle) * (40.0 + (k % 3) as f32 * 0.3)
            })
            .collect();
        v.extend(ring.windows(2).map(|w| (w[0], w[1])));
        v
    }

    #[test]
    fn queries_along_segments_find_every_segment_in_reach() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(16);
        let segments = awkward_segments(&mut rng, 600);
        for min_cell in [1.0f32, 0.37, 5.0] {
            let items: Vec<(Vec2, Vec2, f32)> = segments.iter().map(|&(a, b)| (a, b, 0.0)).collect();
            let grid = SegmentGrid::new(&items, min_cell);
            let queries = awkward_segments(&mut rng, 300);
            for &(a, b) in queries.iter().take(400) {
                for reach in [0.0f32, 1e-3, 2.5] {
                    let found = grid.along(a, b, reach);
                    assert!(found.windows(2).all(|w| w[0] < w[1]), "ascending and each once");
                    for (i, &(c, d)) in segments.iter().enumerate() {
                        // Crossing, or within reach: it must be a candidate.
                        let crossing = segments_cross(a, b, c, d).is_some();
                        let near = segment_distance(a, b, c, d) <= reach;
                        if crossing || near {
                            assert!(
                                found.binary_search(&(i as u32)).is_ok(),
                                "cell {min_cell}: segment {i} {c}-{d} missed by query {a}-{b} reach {reach}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn items_with_reach_are_found_from_points_and_boxes() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        // Discs as points with a reach, and figures' paths as segments.
        let items: Vec<(Vec2, Vec2, f32)> = awkward_segments(&mut rng, 400)
            .into_iter()
            .map(|(a, b)| (a, b, if rng.next_u32() % 3 == 0 { unit(&mut rng) * 4.0 } else { 0.0 }))
            .collect();
        let grid = SegmentGrid::new(&items, 2.0);
        for _ in 0..400 {
            let p = Vec2::new(unit(&mut rng) * 110.0 - 5.0, unit(&mut rng) * 110.0 - 5.0);
            let r = unit(&mut rng) * 6.0;
            let near = grid.along(p, p, r);
            let boxed = grid.in_box(p - Vec2::splat(r), p + Vec2::splat(r));
            for (i, &(a, b, reach)) in items.iter().enumerate() {
                if point_segment_distance(p, a, b) <= r + reach {
                    assert!(near.binary_search(&(i as u32)).is_ok(), "item {i} missed from {p} within {r}");
                }
                // Any point of the segment in the box.
                let q = crate::sim::geometry::segment_enters_square(a, b, p, r);
                if q.is_some() {
                    assert!(boxed.binary_search(&(i as u32)).is_ok(), "item {i} missed by the box round {p}");
                }
            }
        }
    }

    /// Up to `ONE_CELL_MOST` finite items make one cell: every query, even far off, finds each
    /// finite item, ascending. One item more and the grid has cells again.
    #[test]
    fn few_items_make_one_cell_that_every_query_finds_whole() {
        let at = |k: usize| Vec2::new(k as f32 * 3.0, (k % 5) as f32 * 7.0);
        let mut items: Vec<(Vec2, Vec2, f32)> = (0..ONE_CELL_MOST).map(|k| (at(k), at(k) + Vec2::X, 0.5)).collect();
        items.insert(3, (Vec2::NAN, Vec2::ONE, 0.0));
        let grid = SegmentGrid::new(&items, 1.0);
        assert_eq!(grid.cell_size(), f32::INFINITY);
        let all: Vec<u32> = (0..items.len() as u32).filter(|&i| i != 3).collect();
        assert_eq!(grid.along(Vec2::new(-500.0, -500.0), Vec2::new(-499.0, -500.0), 0.0), all);
        assert_eq!(grid.along(at(7), at(7), f32::INFINITY), all);
        assert_eq!(grid.in_box(Vec2::new(900.0, 900.0), Vec2::new(901.0, 901.0)), all);
        assert!(grid.along(Vec2::NAN, Vec2::ONE, 0.0).is_empty());
        // Asked for cells, it has them.
        assert_eq!(SegmentGrid::in_cells(&items, 1.0).cell_size(), 1.0);
        items.push((at(40), at(40), 0.0));
        let grid = SegmentGrid::new(&items, 1.0);
        assert_eq!(grid.cell_size(), 1.0);
        assert_eq!(grid.along(Vec2::new(-500.0, -500.0), Vec2::new(-499.0, -500.0), 0.0), vec![0]);
    }

    #[test]
    fn empty_and_degenerate_grids() {
        let grid = SegmentGrid::new(&[], 1.0);
        assert!(grid.along(Vec2::ZERO, Vec2::ONE, 5.0).is_empty());
        let nan = Vec2::new(f32::NAN, 0.0);
        let grid = SegmentGrid::new(&[(nan, Vec2::ONE, 0.0), (Vec2::ONE, Vec2::ONE, 0.0)], 1.0);
        assert_eq!(grid.along(Vec2::ZERO, Vec2::splat(2.0), 0.0), vec![1]);
        assert!(grid.along(nan, Vec2::ONE, 0.0).is_empty());
        // Far off the grid: the edge cells hold everything beyond them.
        let grid = SegmentGrid::new(&[(Vec2::ZERO, Vec2::splat(10.0), 0.0)], 1.0);
        assert_eq!(grid.along(Vec2::new(-50.0, -50.0), Vec2::new(-40.0, -40.0), 0.0), vec![0]);
    }
}
