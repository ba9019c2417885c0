//! A uniform grid over points on the table, for neighbour queries that stay cheap as herds
//! grow: spacing within a herd, figures near beasts.

use bevy::math::Vec2;

/// Most cells along either side: points spread wider get larger cells (the answers are
/// supersets either way; the callers measure).
const MAX_SIDE: usize = 1024;

/// Point ids bucketed by square cells of one size, built once from a list of points: the cells
/// over the points' bounds, each cell's ids together and ascending (no allocation a cell).
#[derive(Debug, Clone)]
pub struct SpatialGrid {
    cell: f32,
    /// The cell holding the lowest key, and the grid's columns and rows.
    origin: (i64, i64),
    columns: usize,
    rows: usize,
    /// The ids of cell `c` (row-major) are `ids[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    ids: Vec<u32>,
}

impl SpatialGrid {
    /// A grid holding `points`, each under its index, in cells of `cell` inches (at least
    /// 0.01", more where the points spread over more than 1,024 cells a side).
    pub fn from_points(points: &[Vec2], cell: f32) -> Self {
        let mut cell = if cell.is_finite() { cell.max(0.01) } else { 1.0 };
        let finite = points.iter().filter(|p| p.is_finite());
        let (lo, hi) = finite
            .fold((Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY)), |(lo, hi), &p| (lo.min(p), hi.max(p)));
        if lo.x > hi.x {
            return Self { cell, origin: (0, 0), columns: 0, rows: 0, starts: vec![0], ids: Vec::new() };
        }
        cell = cell.max((hi - lo).max_element() / (MAX_SIDE - 1) as f32);
        let mut grid = Self { cell, origin: (0, 0), columns: 0, rows: 0, starts: Vec::new(), ids: Vec::new() };
        let (x0, y0) = grid.key(lo);
        let (x1, y1) = grid.key(hi);
        grid.origin = (x0, y0);
        grid.columns = (x1 - x0 + 1).clamp(1, MAX_SIDE as i64) as usize;
        grid.rows = (y1 - y0 + 1).clamp(1, MAX_SIDE as i64) as usize;
        // A counting sort of the points by cell, stable: each cell's ids ascend.
        let cells: Vec<Option<usize>> = points.iter().map(|&p| p.is_finite().then(|| grid.cell_of(p))).collect();
        let mut starts = vec![0u32; grid.columns * grid.rows + 1];
        for &c in cells.iter().flatten() {
            starts[c + 1] += 1;
        }
        for c in 1..starts.len() {
            starts[c] += starts[c - 1];
        }
        let mut next = starts.clone();
        let mut ids = vec![0u32; starts[starts.len() - 1] as usize];
        for (id, c) in cells.iter().enumerate() {
            if let Some(c) = *c {
                ids[next[c] as usize] = id as u32;
                next[c] += 1;
            }
        }
        grid.starts = starts;
        grid.ids = ids;
        grid
    }

    fn key(&self, p: Vec2) -> (i64, i64) {
        // Saturating casts: a point far off any table still lands in some cell.
        ((p.x / self.cell).floor() as i64, (p.y / self.cell).floor() as i64)
    }

    /// The grid's column and row of key `k`, clamped to the grid.
    fn column_row(&self, (x, y): (i64, i64)) -> (usize, usize) {
        let clamp = |v: i64, from: i64, n: usize| (v.saturating_sub(from)).clamp(0, n as i64 - 1) as usize;
        (clamp(x, self.origin.0, self.columns), clamp(y, self.origin.1, self.rows))
    }

    fn cell_of(&self, p: Vec2) -> usize {
        let (x, y) = self.column_row(self.key(p));
        y * self.columns + x
    }

    /// Call `f` with every id in the cells within `r` of `p` (a superset of the points within
    /// `r`; the caller measures). Cells are visited in a fixed order, each cell's ids ascending,
    /// so the visit order is deterministic.
    pub fn for_each_near(&self, p: Vec2, r: f32, mut f: impl FnMut(u32)) {
        if self.ids.is_empty() || !p.is_finite() {
            return;
        }
        let r = r.max(0.0);
        let (x0, y0) = self.column_row(self.key(p - Vec2::splat(r)));
        let (x1, y1) = self.column_row(self.key(p + Vec2::splat(r)));
        for x in x0..=x1 {
            for y in y0..=y1 {
                let c = y * self.columns + x;
                for &id in &self.ids[self.starts[c] as usize..self.starts[c + 1] as usize] {
                    f(id);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_point_within_reach() {
        let points: Vec<Vec2> = (0..400).map(|i| Vec2::new((i % 20) as f32 * 0.7, (i / 20) as f32 * 0.9)).collect();
        let grid = SpatialGrid::from_points(&points, 1.0);
        for probe in [Vec2::new(3.0, 4.0), Vec2::new(0.0, 0.0), Vec2::new(13.2, 17.0), Vec2::new(-5.0, 2.0)] {
            for r in [0.5f32, 1.0, 2.5] {
                let mut found = Vec::new();
                grid.for_each_near(probe, r, |id| {
                    if points[id as usize].distance(probe) <= r {
                        found.push(id)
                    }
                });
                found.sort_unstable();
                let expected: Vec<u32> =
                    (0..points.len() as u32).filter(|&i| points[i as usize].distance(probe) <= r).collect();
                assert_eq!(found, expected, "probe {probe} r {r}");
            }
        }
    }

    /// Cells are visited column by column and each cell's ids ascending, so what is rolled over
    /// them comes in a fixed order; points off the table and far apart are still found.
    #[test]
    fn visits_cells_column_by_column_and_ids_ascending() {
        // Cells (0, 0), (1, 0) and (0, 1).
        let points = [(0.2, 0.2), (0.8, 0.1), (0.5, 0.5), (1.5, 0.5), (0.4, 1.5), (1.1, 0.9)];
        let points: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
        let grid = SpatialGrid::from_points(&points, 1.0);
        let mut seen = Vec::new();
        grid.for_each_near(Vec2::new(0.9, 0.9), 0.5, |id| seen.push(id));
        assert_eq!(seen, [0, 1, 2, 4, 3, 5]);
        // Spread over a million inches, with a point that is not finite: larger cells.
        let far = [Vec2::new(-1e6, 0.0), Vec2::new(f32::NAN, 1.0), Vec2::new(1e6, 3.0), Vec2::new(1e6 + 0.5, 3.0)];
        let grid = SpatialGrid::from_points(&far, 1.0);
        for (i, &p) in far.iter().enumerate().filter(|(_, p)| p.is_finite()) {
            let mut found = Vec::new();
            grid.for_each_near(p, 1.0, |id| found.push(id));
            assert!(found.contains(&(i as u32)), "{i}: {found:?}");
            assert!(!found.contains(&1));
        }
        let mut none = Vec::new();
        SpatialGrid::from_points(&[], 1.0).for_each_near(Vec2::ZERO, 5.0, |id| none.push(id));
        assert!(none.is_empty());
    }
}
