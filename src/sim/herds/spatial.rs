//! A uniform grid over points on the table, for neighbour queries that stay cheap as herds
//! grow: spacing within a herd, figures near beasts.

use bevy::math::Vec2;
use bevy::platform::collections::HashMap;

/// Point ids bucketed by square cells of one size.
#[derive(Debug, Clone)]
pub struct SpatialGrid {
    cell: f32,
    /// Each cell's first and last entry: a cell's ids are a list linked through `entries`, in
    /// insertion order (a herd's thousand cells are no longer a thousand allocations).
    cells: HashMap<(i32, i32), (u32, u32)>,
    /// Each entry's id and the next entry of its cell ([`NO_ENTRY`] at the last).
    entries: Vec<(u32, u32)>,
}

/// The end of a cell's list.
const NO_ENTRY: u32 = u32::MAX;

impl SpatialGrid {
    /// An empty grid of `cell`-inch squares (at least 0.01").
    pub fn new(cell: f32) -> Self {
        let cell = if cell.is_finite() { cell.max(0.01) } else { 1.0 };
        Self { cell, cells: HashMap::default(), entries: Vec::new() }
    }

    /// A grid holding `points`, each under its index.
    pub fn from_points(points: &[Vec2], cell: f32) -> Self {
        let mut grid = Self::new(cell);
        grid.entries.reserve(points.len());
        for (i, &p) in points.iter().enumerate() {
            grid.insert(i as u32, p);
        }
        grid
    }

    fn key(&self, p: Vec2) -> (i32, i32) {
        // Saturating casts: a point far off any table still lands in some cell.
        ((p.x / self.cell).floor() as i32, (p.y / self.cell).floor() as i32)
    }

    /// Add the point `p` under `id`.
    pub fn insert(&mut self, id: u32, p: Vec2) {
        let key = self.key(p);
        let entry = self.entries.len() as u32;
        self.entries.push((id, NO_ENTRY));
        match self.cells.entry(key) {
            bevy::platform::collections::hash_map::Entry::Occupied(mut cell) => {
                let (_, last) = cell.get_mut();
                self.entries[*last as usize].1 = entry;
                *last = entry;
            }
            bevy::platform::collections::hash_map::Entry::Vacant(cell) => {
                cell.insert((entry, entry));
            }
        }
    }

    /// Call `f` with every id in the cells within `r` of `p` (a superset of the points within
    /// `r`; the caller measures). Cells are visited in a fixed order, ids in insertion order,
    /// so the visit order is deterministic.
    pub fn for_each_near(&self, p: Vec2, r: f32, mut f: impl FnMut(u32)) {
        let r = r.max(0.0);
        let (x0, y0) = self.key(p - Vec2::splat(r));
        let (x1, y1) = self.key(p + Vec2::splat(r));
        for x in x0..=x1 {
            for y in y0..=y1 {
                let mut at = self.cells.get(&(x, y)).map_or(NO_ENTRY, |&(first, _)| first);
                while let Some(&(id, next)) = self.entries.get(at as usize) {
                    f(id);
                    at = next;
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

    /// Cells are visited column by column, each cell's ids in the order they were put in, so
    /// what is rolled over them comes in a fixed order.
    #[test]
    fn visits_cells_column_by_column_and_ids_as_inserted() {
        let mut grid = SpatialGrid::new(1.0);
        // Cells (0, 0), (1, 0) and (0, 1), ids put in out of order and interleaved.
        for (id, p) in
            [(7, (0.2, 0.2)), (3, (1.5, 0.5)), (9, (0.4, 1.5)), (1, (0.8, 0.1)), (5, (1.1, 0.9)), (2, (0.5, 0.5))]
        {
            grid.insert(id, Vec2::new(p.0, p.1));
        }
        let mut seen = Vec::new();
        grid.for_each_near(Vec2::new(0.9, 0.9), 0.5, |id| seen.push(id));
        assert_eq!(seen, [7, 1, 2, 9, 3, 5]);
    }
}
