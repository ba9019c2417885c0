//! The fog of war as a saved scene carries it (issue #17, `docs/sight.md`): which cells of the
//! table the players' side has explored, so a saved scene continues with the same fog, and
//! whether the GM has the fog of war switched on for the projector.
//!
//! The fog grid covers the table in square cells of [`FOG_CELL_IN`] inches, larger on tables
//! whose longer side would need more than [`MAX_FOG_SIDE_CELLS`] of them ([`FogGrid::for_table`]).
//! `explored` is base64 (standard alphabet, padded) of run lengths over the cells, row by row from
//! the table's lower edge, each row left to right: runs alternate unexplored and explored,
//! starting with unexplored (that first run may be 0 long, no other may), each an unsigned
//! LEB128 number; the runs add up to every cell of the grid.

use super::base64::{decode_base64, encode_base64};
use super::format::Scene;
use super::load::Checker;
use serde::{Deserialize, Serialize};

/// The fog's cell side, inches, on tables up to `MAX_FOG_SIDE_CELLS × FOG_CELL_IN` (512") long.
pub const FOG_CELL_IN: f32 = 0.5;
/// Most columns or rows of the fog grid: on a longer table the cells are larger.
pub const MAX_FOG_SIDE_CELLS: u32 = 1024;
/// Most cells a fog grid has.
pub const MAX_FOG_CELLS: usize = (MAX_FOG_SIDE_CELLS as usize) * (MAX_FOG_SIDE_CELLS as usize);
/// Most bytes the run lengths take: a run of `n ≥ 1` cells takes at most `n` bytes and each
/// run at least one cell, but for the first, so at most two bytes a cell and one more.
pub const MAX_FOG_BYTES: usize = 2 * MAX_FOG_CELLS + 1;
/// Longest `explored` text: base64 of [`MAX_FOG_BYTES`].
pub const MAX_FOG_CHARS: usize = MAX_FOG_BYTES.div_ceil(3) * 4;

/// The explored cells and the fog's switch, written by the simulation into a saved scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FogState {
    /// Columns of the grid it was saved from (must be this table's, [`FogGrid::for_table`]).
    pub columns: u32,
    /// Rows of the grid it was saved from.
    pub rows: u32,
    /// The explored cells as run lengths, encoded (see the module docs).
    pub explored: String,
    /// The fog of war is switched on: the projector shows it (the GM view's Fog panel, `open
    /// --fog`). Off by default, and left out of the file while off, so a scene saved before the
    /// switch was saved reads as it did.
    #[serde(default, skip_serializing_if = "is_false")]
    pub on: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The fog grid over a table: square cells from the lower-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FogGrid {
    /// A cell's side, inches.
    pub cell: f32,
    /// Cells across.
    pub columns: u32,
    /// Cells up.
    pub rows: u32,
}

impl FogGrid {
    /// The grid of a table `width` by `height` inches: [`FOG_CELL_IN`] cells, or larger ones so
    /// that neither side has more than [`MAX_FOG_SIDE_CELLS`]; at least one cell each way.
    pub fn for_table(width: f32, height: f32) -> Self {
        let longest = if width.is_finite() && height.is_finite() { width.max(height).max(0.0) } else { 0.0 };
        let cell = FOG_CELL_IN.max(longest / MAX_FOG_SIDE_CELLS as f32);
        let count = |v: f32| {
            let n = if v.is_finite() && v > 0.0 { (v / cell).ceil() } else { 1.0 };
            (n as u32).clamp(1, MAX_FOG_SIDE_CELLS)
        };
        Self { cell, columns: count(width), rows: count(height) }
    }

    /// How many cells it has.
    pub fn cells(&self) -> usize {
        self.columns as usize * self.rows as usize
    }

    /// The cell a table point lies in, `None` off the grid.
    pub fn cell_at(&self, x: f32, y: f32) -> Option<usize> {
        if !(x.is_finite() && y.is_finite()) || x < 0.0 || y < 0.0 {
            return None;
        }
        let (c, r) = ((x / self.cell) as u32, (y / self.cell) as u32);
        (c < self.columns && r < self.rows).then(|| r as usize * self.columns as usize + c as usize)
    }
}

/// Words a bitset of `cells` bits takes.
pub fn words_for(cells: usize) -> usize {
    cells.div_ceil(64)
}

/// Whether bit `i` is set.
pub fn bit(bits: &[u64], i: usize) -> bool {
    bits.get(i / 64).is_some_and(|&w| (w >> (i % 64)) & 1 == 1)
}

/// Encode the first `cells` bits of `bits` (bit `i` of the table's cells row by row is bit
/// `i % 64` of word `i / 64`) as `explored` text.
pub fn encode_explored(bits: &[u64], cells: usize) -> String {
    let mut bytes = Vec::new();
    let mut push = |mut n: u64| loop {
        let low = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            bytes.push(low);
            break;
        }
        bytes.push(low | 0x80);
    };
    let (mut state, mut run) = (false, 0u64);
    for i in 0..cells {
        if bit(bits, i) != state {
            push(run);
            state = !state;
            run = 0;
        }
        run += 1;
    }
    push(run);
    encode_base64(&bytes)
}

/// Decode `explored` text for a grid of `cells` cells into a bitset ([`encode_explored`]).
pub fn decode_explored(text: &str, cells: usize) -> Result<Vec<u64>, String> {
    let chars = text.len();
    if chars > MAX_FOG_CHARS {
        return Err(format!("{chars} characters, more than the {MAX_FOG_CHARS} the largest fog needs"));
    }
    let bytes = decode_base64(text, MAX_FOG_BYTES).map_err(|e| format!("not base64 ({e})"))?;
    let mut bits = vec![0u64; words_for(cells)];
    let (mut at, mut state, mut runs) = (0usize, false, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        let (mut n, mut shift) = (0u64, 0u32);
        loop {
            let Some(&b) = bytes.get(i) else { return Err("a run length is cut off at the end".into()) };
            i += 1;
            if shift > 28 {
                return Err(format!("run {} is longer than any grid", runs + 1));
            }
            n |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        if n == 0 && runs > 0 {
            return Err(format!("run {} is 0 cells long (only the first may be)", runs + 1));
        }
        let end = at.saturating_add(usize::try_from(n).unwrap_or(usize::MAX));
        if end > cells {
            return Err(format!("the runs cover more than the grid's {cells} cells"));
        }
        if state {
            for j in at..end {
                bits[j / 64] |= 1 << (j % 64);
            }
        }
        at = end;
        state = !state;
        runs += 1;
    }
    if at != cells {
        return Err(format!("the runs cover {at} of the grid's {cells} cells"));
    }
    Ok(bits)
}

/// Check `rules.sight` (each 0 to 1000 inches) and the saved `fog` (the table's grid, readable).
pub(crate) fn check_scene(scene: &Scene, c: &mut Checker<'_>) {
    let s = &scene.rules.sight;
    let fields = [
        ("gloom_sight_in", s.gloom_sight_in),
        ("torch_radius_in", s.torch_radius_in),
        ("lantern_radius_in", s.lantern_radius_in),
        ("fire_light_margin_in", s.fire_light_margin_in),
    ];
    for (field, v) in fields {
        if c.finite("rules", &format!("sight {field}"), v) && !(0.0..=1000.0).contains(&v) {
            c.problem("rules", format!("sight {field}: {v} must be 0 to 1000 inches"));
        }
    }
    let Some(fog) = &scene.fog else { return };
    let grid = FogGrid::for_table(scene.table.width, scene.table.height);
    if (fog.columns, fog.rows) != (grid.columns, grid.rows) {
        c.problem(
            "fog",
            format!(
                "saved for a {}×{} grid, but this table gives {}×{} cells of {}\": remove fog to start the fog of war again",
                fog.columns, fog.rows, grid.columns, grid.rows, grid.cell
            ),
        );
        return;
    }
    if let Err(e) = decode_explored(&fog.explored, grid.cells()) {
        c.problem("fog", format!("explored: {e}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_cells_and_bounds() {
        let g = FogGrid::for_table(48.0, 36.0);
        assert_eq!((g.cell, g.columns, g.rows), (0.5, 96, 72));
        let odd = FogGrid::for_table(10.2, 1.0);
        assert_eq!((odd.columns, odd.rows), (21, 2), "a part cell at the edge is a cell");
        let big = FogGrid::for_table(1000.0, 250.0);
        assert!(big.columns <= MAX_FOG_SIDE_CELLS && big.rows <= MAX_FOG_SIDE_CELLS);
        assert_eq!(big.columns, MAX_FOG_SIDE_CELLS);
        assert!(big.cell > 0.97 && big.cell < 0.98);
        let edge = FogGrid::for_table(512.0, 512.0);
        assert_eq!((edge.cell, edge.columns), (0.5, 1024));
        assert_eq!(g.cell_at(0.0, 0.0), Some(0));
        assert_eq!(g.cell_at(0.6, 0.6), Some(97));
        assert_eq!(g.cell_at(48.0, 1.0), None);
        assert_eq!(g.cell_at(-0.1, 1.0), None);
        assert_eq!(g.cell_at(f32::NAN, 1.0), None);
    }

    #[test]
    fn explored_round_trips() {
        let cells = 1000;
        for pattern in [0u64, u64::MAX, 0xf0f0_0000_ffff_0001, 0x8000_0000_0000_0001] {
            let mut bits = vec![pattern; words_for(cells)];
            // Bits past the grid are not cells.
            *bits.last_mut().unwrap() &= (1u64 << (cells % 64)) - 1;
            let text = encode_explored(&bits, cells);
            assert_eq!(decode_explored(&text, cells).unwrap(), bits, "{pattern:x}");
        }
        // All unexplored: one run of every cell.
        assert_eq!(decode_explored(&encode_explored(&[0; 16], cells), cells).unwrap(), vec![0; 16]);
    }

    #[test]
    fn the_switch_round_trips_and_is_left_out_while_off() {
        let (columns, rows) = (20, 8);
        let explored = encode_explored(&[0b1011], columns as usize * rows as usize);
        let off = FogState { columns, rows, explored: explored.clone(), on: false };
        let on = FogState { on: true, ..off.clone() };
        let scene_with = |fog: &FogState| {
            let text = format!(
                "(version: 1, table: (width: 10, height: 4), fog: {})",
                ron::to_string(fog).expect("serialize")
            );
            crate::scene::parse_scene(&text, std::path::Path::new("<test>")).expect("parses")
        };
        for state in [&off, &on] {
            let scene = scene_with(state);
            assert_eq!(scene.fog.as_ref(), Some(state));
            let problems = crate::scene::load::validate(&scene);
            assert!(problems.is_empty(), "{problems:?}");
            // Through a whole saved scene and back.
            let saved = crate::scene::scene_to_ron(&scene).expect("save");
            let again = crate::scene::parse_scene(&saved, std::path::Path::new("<saved>")).expect("loads");
            assert_eq!(again.fog.as_ref(), Some(state));
        }
        assert!(!ron::to_string(&off).expect("serialize").contains("on:"), "off is left out");
        assert!(ron::to_string(&on).expect("serialize").contains("on:true"));
        // A fog saved before the switch was (no `on`) reads as off.
        let old = format!(
            "(version: 1, table: (width: 10, height: 4), fog: (columns: 20, rows: 8, explored: \"{explored}\"))"
        );
        let scene = crate::scene::parse_scene(&old, std::path::Path::new("<old>")).expect("parses");
        assert_eq!(scene.fog, Some(off));
    }

    #[test]
    fn bad_explored_text_is_refused() {
        let runs = |bytes: &[u8]| encode_base64(bytes);
        assert!(decode_explored(&runs(&[4, 6]), 10).is_ok());
        assert!(decode_explored(&runs(&[0, 10]), 10).is_ok(), "all explored: the first run is 0");
        let e = decode_explored(&runs(&[4, 5]), 10).unwrap_err();
        assert!(e.contains("cover 9 of the grid's 10"), "{e}");
        let e = decode_explored(&runs(&[4, 7]), 10).unwrap_err();
        assert!(e.contains("more than the grid"), "{e}");
        let e = decode_explored(&runs(&[4, 0, 6]), 10).unwrap_err();
        assert!(e.contains("0 cells long"), "{e}");
        let e = decode_explored(&runs(&[0x84]), 10).unwrap_err();
        assert!(e.contains("cut off"), "{e}");
        let e = decode_explored(&runs(&[0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), 10).unwrap_err();
        assert!(e.contains("longer than any grid"), "{e}");
        assert!(decode_explored("!!", 10).unwrap_err().contains("not base64"));
        let long = "A".repeat(MAX_FOG_CHARS + 4);
        assert!(decode_explored(&long, 10).unwrap_err().contains("characters"));
    }
}
