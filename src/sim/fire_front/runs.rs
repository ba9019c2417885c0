//! Connected patches of set cells in a bit set over a grid, found run by run: each row's runs
//! of set bits, joined to the runs they touch (by an edge or a corner) in the row above. Costs
//! the words of the rows scanned and the runs, not the cells.

use std::ops::RangeInclusive;

/// One row's run of set cells, columns `from..=to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The row.
    pub row: u32,
    /// The first column.
    pub from: u32,
    /// The last column.
    pub to: u32,
}

impl Run {
    /// How many cells.
    pub fn len(&self) -> usize {
        (self.to - self.from) as usize + 1
    }

    /// Never: a run holds at least one cell.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// The runs of a bit set and the patch of each, in buffers kept between calls.
#[derive(Clone, Debug, Default)]
pub struct RunLabels {
    runs: Vec<Run>,
    /// Per run: while joining, a lower run of its patch (or itself, the lowest); then the
    /// patch's number.
    patch: Vec<u32>,
}

impl RunLabels {
    /// Finds the runs of set bits in `rows` of a grid `width` cells wide (cell `y * width + x`
    /// is bit `i % 64` of word `i / 64` of `bits`) and numbers their 8-connected patches in
    /// the order of each patch's first cell, row by row. Returns how many patches there are.
    /// A row's last cell does not touch the next row's first. Rows beyond `bits` are empty.
    pub fn label(&mut self, bits: &[u64], width: usize, rows: RangeInclusive<usize>) -> usize {
        self.runs.clear();
        self.patch.clear();
        if width == 0 {
            return 0;
        }
        let cells = bits.len() * 64;
        // Where the previous row's runs begin in `runs`, and that row.
        let (mut above, mut above_row) = (0usize, usize::MAX);
        for y in rows {
            let row_start = y * width;
            if row_start >= cells {
                break;
            }
            let row_end = (row_start + width).min(cells);
            let first_here = self.runs.len();
            let mut i = row_start;
            while i < row_end {
                let Some(start) = next_bit(bits, i, row_end, false) else { break };
                let end = next_bit(bits, start, row_end, true).unwrap_or(row_end);
                let index = self.runs.len() as u32;
                self.runs.push(Run {
                    row: y as u32,
                    from: (start - row_start) as u32,
                    to: (end - 1 - row_start) as u32,
                });
                self.patch.push(index);
                i = end;
            }
            if above_row.wrapping_add(1) == y {
                self.join_rows(above..first_here, first_here..self.runs.len());
            }
            if self.runs.len() > first_here {
                (above, above_row) = (first_here, y);
            }
        }
        // Each run's lowest run is its patch's first; lower runs are settled first, so one pass
        // in order resolves every run, numbering patches as their first runs come.
        let mut patches = 0u32;
        for r in 0..self.patch.len() {
            let lowest = self.patch[r] as usize;
            self.patch[r] = if lowest == r {
                patches += 1;
                patches - 1
            } else {
                self.patch[lowest]
            };
        }
        patches as usize
    }

    /// Every run in row order, left to right, with its patch's number.
    pub fn runs(&self) -> impl Iterator<Item = (Run, u32)> + '_ {
        self.runs.iter().copied().zip(self.patch.iter().copied())
    }

    /// The patch of the run holding cell (`column`, `row`), if one does: a binary search, as
    /// runs are in row order, left to right.
    pub fn patch_at(&self, row: u32, column: u32) -> Option<u32> {
        let r = self.runs.partition_point(|run| (run.row, run.to) < (row, column));
        let run = self.runs.get(r)?;
        (run.row == row && run.from <= column).then(|| self.patch[r])
    }

    /// Joins the patches of the runs of two neighbouring rows that touch (the column ranges
    /// overlap when each is widened by a cell).
    fn join_rows(&mut self, above: std::ops::Range<usize>, here: std::ops::Range<usize>) {
        let (mut a, mut h) = (above.start, here.start);
        while a < above.end && h < here.end {
            let (up, down) = (self.runs[a], self.runs[h]);
            if up.from <= down.to + 1 && down.from <= up.to + 1 {
                join(&mut self.patch, a, h);
            }
            // The run ending first touches nothing further along the other row.
            if up.to < down.to {
                a += 1;
            } else {
                h += 1;
            }
        }
    }
}

/// The lowest entry of `r`'s set in a union–find (`parent`) whose sets each lead to their
/// lowest entry, halving the path there.
pub(super) fn lowest(parent: &mut [u32], mut r: usize) -> usize {
    while parent[r] as usize != r {
        let up = parent[r] as usize;
        parent[r] = parent[up];
        r = up;
    }
    r
}

/// Joins the sets of entries `a` and `b`: the lower of their lowest entries leads both.
pub(super) fn join(parent: &mut [u32], a: usize, b: usize) {
    let (la, lb) = (lowest(parent, a), lowest(parent, b));
    let (low, high) = (la.min(lb), la.max(lb));
    parent[high] = low as u32;
}

/// The first bit at or after `from` and before `end` that is set (`clear`: that is clear).
fn next_bit(bits: &[u64], from: usize, end: usize, clear: bool) -> Option<usize> {
    let mut word = from / 64;
    let mut mask = !0u64 << (from % 64);
    while word * 64 < end {
        let value = if clear { !bits[word] } else { bits[word] } & mask;
        if value != 0 {
            let at = word * 64 + value.trailing_zeros() as usize;
            return (at < end).then_some(at);
        }
        word += 1;
        mask = !0;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits_of(rows: &[&str]) -> (Vec<u64>, usize) {
        let width = rows[0].len();
        let mut bits = vec![0u64; (width * rows.len()).div_ceil(64)];
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                if c == '#' {
                    let i = y * width + x;
                    bits[i / 64] |= 1 << (i % 64);
                }
            }
        }
        (bits, width)
    }

    /// A plain flood over the cells (8 neighbours, not across a row's end), patches numbered
    /// by first cell: what the runs must agree with.
    fn flooded(rows: &[&str]) -> Vec<Vec<i32>> {
        let (w, h) = (rows[0].len() as i32, rows.len() as i32);
        let set =
            |x: i32, y: i32| x >= 0 && y >= 0 && x < w && y < h && rows[y as usize].as_bytes()[x as usize] == b'#';
        let mut label = vec![vec![-1; w as usize]; h as usize];
        let mut next = 0;
        for y in 0..h {
            for x in 0..w {
                if !set(x, y) || label[y as usize][x as usize] >= 0 {
                    continue;
                }
                let mut stack = vec![(x, y)];
                label[y as usize][x as usize] = next;
                while let Some((cx, cy)) = stack.pop() {
                    for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                        let (nx, ny) = (cx + dx, cy + dy);
                        if set(nx, ny) && label[ny as usize][nx as usize] < 0 {
                            label[ny as usize][nx as usize] = next;
                            stack.push((nx, ny));
                        }
                    }
                }
                next += 1;
            }
        }
        label
    }

    fn labelled(rows: &[&str]) -> (usize, Vec<Vec<i32>>) {
        let (bits, width) = bits_of(rows);
        let mut labels = RunLabels::default();
        let patches = labels.label(&bits, width, 0..=rows.len() - 1);
        let mut label = vec![vec![-1; width]; rows.len()];
        for (run, patch) in labels.runs() {
            assert!(!run.is_empty());
            for x in run.from..=run.to {
                label[run.row as usize][x as usize] = patch as i32;
            }
        }
        // Looked up cell by cell, every cell (in a run or not) finds what the runs give it.
        for (y, row) in label.iter().enumerate() {
            for (x, &patch) in row.iter().enumerate() {
                assert_eq!(labels.patch_at(y as u32, x as u32).map_or(-1, |p| p as i32), patch, "({x}, {y})");
            }
        }
        assert_eq!(labels.patch_at(rows.len() as u32, 0), None);
        (patches, label)
    }

    #[test]
    fn runs_join_by_edges_and_corners_and_number_patches_by_first_cell() {
        let cases: &[&[&str]] = &[
            &["#..#", ".##.", "#..#"],
            &["##..##", "......", "..##..", ".#..#."],
            &["#.#.#.#", ".#.#.#.", "#.#.#.#"],
            // A U: two arms joined only at the bottom, and a run that touches two above.
            &["#...#...#", "#...#...#", "#########"],
            // A ring around a separate dot.
            &["#####", "#...#", "#.#.#", "#...#", "#####"],
            // Patches whose first cells come in a different order than their lowest runs
            // would join: a late arm joins an early patch.
            &["...#", "#..#", "#.##", "##.."],
            &["....", "....", "...."],
        ];
        for rows in cases {
            let (patches, label) = labelled(rows);
            let expected = flooded(rows);
            assert_eq!(label, expected, "{rows:?}");
            let most = expected.iter().flatten().copied().max().unwrap_or(-1);
            assert_eq!(patches as i32, most + 1, "{rows:?}");
        }
    }

    #[test]
    fn a_row_end_does_not_touch_the_next_row_start_and_rows_cross_words() {
        // 70 wide: rows cross 64-bit words; the first row's last cell and the second row's
        // first are neighbours in the bits, not on the table.
        let mut first = ".".repeat(69);
        first.push('#');
        let mut second = "#".to_string();
        second.push_str(&".".repeat(62));
        second.push_str("#######");
        let rows = [first.as_str(), second.as_str()];
        let (patches, label) = labelled(&rows);
        assert_eq!(label, flooded(&rows));
        assert_eq!(patches, 2, "the end of row 0 touches the run ending row 1, not its start");
        let (bits, width) = bits_of(&rows);
        let mut labels = RunLabels::default();
        labels.label(&bits, width, 0..=1);
        let runs: Vec<Run> = labels.runs().map(|(r, _)| r).collect();
        assert_eq!(
            runs,
            [Run { row: 0, from: 69, to: 69 }, Run { row: 1, from: 0, to: 0 }, Run { row: 1, from: 63, to: 69 }]
        );
    }

    /// The next number of a xorshift sequence.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Rows `w` cells wide and `h` high, `#` where `set(x, y)`.
    fn rows_where(w: usize, h: usize, mut set: impl FnMut(usize, usize) -> bool) -> Vec<String> {
        (0..h).map(|y| (0..w).map(|x| if set(x, y) { '#' } else { '.' }).collect()).collect()
    }

    /// The runs of `rows` label them as a flood does, and count its patches.
    fn agrees_with_a_flood(rows: &[String], case: usize) {
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let (patches, label) = labelled(&rows);
        let expected = flooded(&rows);
        assert_eq!(label, expected, "case {case}: {rows:?}");
        assert_eq!(patches as i32, expected.iter().flatten().copied().max().unwrap_or(-1) + 1);
    }

    #[test]
    fn wide_rows_of_many_runs_agree_with_a_flood() {
        // Rows across several words, with runs long and short starting and ending anywhere in
        // a word, and empty or full words between.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for case in 0..60 {
            let (w, h) = (60 + case * 7 % 150, 1 + case % 9);
            let rows = rows_where(w, h, |x, y| {
                let draw = xorshift(&mut state);
                match (case + y) % 4 {
                    0 => (x / (1 + case % 5)) % 2 == 0,
                    1 => !draw.is_multiple_of(3),
                    2 => x < 2 || x + 2 > w || draw.is_multiple_of(5),
                    _ => (x / 70) % 2 == 1 || draw.is_multiple_of(97),
                }
            });
            agrees_with_a_flood(&rows, case);
        }
    }

    #[test]
    fn random_sets_agree_with_a_flood() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for case in 0..200 {
            let (w, h) = (1 + case % 37, 1 + (case * 7) % 23);
            let fill = [0.2, 0.45, 0.6, 0.8][case % 4];
            let rows = rows_where(w, h, |_, _| (xorshift(&mut state) >> 11) as f64 / (1u64 << 53) as f64 <= fill);
            agrees_with_a_flood(&rows, case);
        }
    }
}
