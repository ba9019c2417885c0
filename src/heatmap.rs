//! Play-test overlays: what many runs of a scene did where, per cell of the table, and the
//! picture `tabula playtest --heatmap` draws of them (docs/playtest.md "The heatmap").
//!
//! [`OverlayTally`] (or [`Overlays::from_runs`]) gathers the runs' summaries (in seed order) into:
//! - **burn**: the share of runs in which each cell burnt (the fire reached it, burning or burnt
//!   out by the end of the run), like the burn-probability maps fire analysts draw;
//! - **hurt**: the share of runs in which a figure was hurt in each cell (at the trap that did it,
//!   or where the figure stood);
//! - **ends**: the share of runs in which a figure ended in each cell, and each figure's most
//!   frequent end;
//! - each trap's sprung and spotted shares.
//!
//! Each share comes with its 95% Wilson interval ([`CellShares::share_at`]): what a click on a
//! cell shows. Cells are [`OverlayGrid`]'s: 1" squares, larger on a table too big for
//! [`MAX_OVERLAY_CELLS`] of them. A run records the cells its fire reached as a [`CellSet`], one
//! bit a cell, so a run costs at most `MAX_OVERLAY_CELLS / 8` bytes (2 KiB) however fine the
//! fire's own grid, and nothing when nothing burnt.
//!
//! [`render`] draws the chosen overlays, one panel each, into an RGBA buffer with the table's
//! grid, inch labels, walls, doors, traps and figures by name, a title and a legend; colours come
//! from [`viridis`] (perceptually uniform, readable in grey and with red-green colour blindness).
//! No GPU and no font file: text is [`crate::raster_font`]. The picture depends only on the scene
//! and the runs, so it is byte-identical whatever the thread count of the play-test.

use crate::playtest::{Report, RunSummary, Share, wilson};
use crate::raster_font::{draw_text, text_height, text_width};
use crate::scene::{Material, Point, Scene};
use crate::sim::fire_front::{FireGrid, fitting_cell_size};
use serde::Serialize;
use std::collections::BTreeMap;

/// Most cells an overlay grid has (128 × 128 one-inch cells): a larger table gets 2", 4", ...
/// cells. Bounds a run's [`CellSet`] to 2 KiB.
pub const MAX_OVERLAY_CELLS: u64 = 1 << 14;

/// The cells overlays are counted in: squares of `cell_in` inches from the table's lower-left
/// corner, `width` columns by `height` rows, row by row from the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OverlayGrid {
    /// The side of a cell, in inches: 1, or the smallest power of two above it that keeps the
    /// grid within [`MAX_OVERLAY_CELLS`] and is no finer than the fire's cells.
    pub cell_in: f32,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

/// Cells of `cell` inches needed to cover `length` inches (at least 1); a length within 0.1% of a
/// whole number of cells counts as that number.
fn cells_across(length: f32, cell: f32) -> u32 {
    let n = (f64::from(length) / f64::from(cell) - 1e-3).ceil();
    if n.is_finite() { n.clamp(1.0, f64::from(u32::MAX)) as u32 } else { 1 }
}

impl OverlayGrid {
    /// The grid for `scene`'s table: 1" cells, doubled until there are at most
    /// [`MAX_OVERLAY_CELLS`] and each is at least as large as the fire grid's cells (so every
    /// overlay cell holds the centre of a fire cell).
    pub fn for_scene(scene: &Scene) -> Self {
        let (w, h) = (scene.table.width, scene.table.height);
        let fire_cell = fitting_cell_size(w, h, scene.rules.fire.cell_size);
        let mut cell = 1.0f32;
        loop {
            let (columns, rows) = (cells_across(w, cell), cells_across(h, cell));
            let fits = u64::from(columns) * u64::from(rows) <= MAX_OVERLAY_CELLS && cell >= fire_cell;
            // 1024" cells cover the largest table in one cell: the loop always ends.
            if fits || cell >= 1024.0 {
                return Self { cell_in: cell, width: columns, height: rows };
            }
            cell *= 2.0;
        }
    }

    /// Cells in the grid.
    pub fn len(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Whether the grid has no cells (never, for a grid from [`OverlayGrid::for_scene`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index (row by row from the bottom) of the cell at column `col`, row `row`.
    pub fn index(&self, col: u32, row: u32) -> Option<u32> {
        (col < self.width && row < self.height).then(|| row * self.width + col)
    }

    /// The column and row of cell `index`.
    pub fn column_row(&self, index: u32) -> (u32, u32) {
        (index % self.width.max(1), index / self.width.max(1))
    }

    /// The cell holding point `p` (inches); a point on the grid's far edge is in the last cell.
    pub fn cell_at(&self, p: Point) -> Option<u32> {
        let (x, y) = (p.0 / self.cell_in, p.1 / self.cell_in);
        if !(x >= 0.0 && y >= 0.0 && x <= self.width as f32 && y <= self.height as f32) {
            return None;
        }
        let col = (x.floor() as u32).min(self.width.saturating_sub(1));
        let row = (y.floor() as u32).min(self.height.saturating_sub(1));
        self.index(col, row)
    }
}

/// A set of overlay cells, one bit a cell: the cells one run's fire reached.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CellSet {
    words: Vec<u64>,
}

impl CellSet {
    /// Add cell `index`.
    pub fn insert(&mut self, index: u32) {
        let word = index as usize / 64;
        if self.words.len() <= word {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1u64 << (index % 64);
    }

    /// Whether cell `index` is in the set.
    pub fn contains(&self, index: u32) -> bool {
        self.words.get(index as usize / 64).is_some_and(|w| w & (1u64 << (index % 64)) != 0)
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Cells in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The cells, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            (0..64u32).filter(move |bit| w & (1u64 << bit) != 0).map(move |bit| i as u32 * 64 + bit)
        })
    }

    /// The overlay cells the fire on `fire` had reached by `time` (rounds): burning or burnt out.
    /// A fire cell marks the overlay cell holding its centre; a fire cell larger than an overlay
    /// cell (a saved fire with coarse cells) marks every overlay cell it covers.
    pub fn burnt(grid: &OverlayGrid, fire: &FireGrid, time: f32) -> Self {
        let mut set = CellSet::default();
        let size = fire.cell_size_in();
        let c = grid.cell_in;
        for (cell, arrival) in fire.settled_from(0) {
            if arrival > time {
                continue;
            }
            let Some((cx, cy)) = fire.cell_centre(cell) else { continue };
            if size <= c {
                if let Some(i) = grid.cell_at((cx, cy)) {
                    set.insert(i);
                }
                continue;
            }
            let half = size / 2.0;
            let first = |v: f32| ((v - half) / c).floor().max(0.0) as u32;
            let last = |v: f32, n: u32| (((v + half) / c).ceil() as u32).saturating_sub(1).min(n.saturating_sub(1));
            for row in first(cy)..=last(cy, grid.height) {
                for col in first(cx)..=last(cx, grid.width) {
                    if let Some(i) = grid.index(col, row) {
                        set.insert(i);
                    }
                }
            }
        }
        set
    }
}

/// One overlay: in how many of `runs` runs something happened in each cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CellShares {
    /// The side of a cell, in inches.
    pub cell_in: f32,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Runs counted.
    pub runs: u32,
    /// Per cell, row by row from the bottom: the runs in which it happened there.
    pub counts: Vec<u32>,
}

impl CellShares {
    fn new(grid: &OverlayGrid, runs: u32) -> Self {
        Self { cell_in: grid.cell_in, width: grid.width, height: grid.height, runs, counts: vec![0; grid.len()] }
    }

    /// The grid the counts are in.
    pub fn grid(&self) -> OverlayGrid {
        OverlayGrid { cell_in: self.cell_in, width: self.width, height: self.height }
    }

    /// Count one run in each of `cells` (each cell once).
    fn add_run(&mut self, cells: &CellSet) {
        for i in cells.iter() {
            if let Some(c) = self.counts.get_mut(i as usize) {
                *c += 1;
            }
        }
    }

    /// The share of runs for the cell at column `col`, row `row`, with its 95% Wilson interval.
    pub fn share(&self, col: u32, row: u32) -> Option<Share> {
        let i = self.grid().index(col, row)?;
        self.counts.get(i as usize).map(|&c| wilson(c, self.runs))
    }

    /// The share of runs for the cell holding point `p` (inches), with its 95% Wilson interval:
    /// what clicking the table there shows.
    pub fn share_at(&self, p: Point) -> Option<Share> {
        let i = self.grid().cell_at(p)?;
        self.counts.get(i as usize).map(|&c| wilson(c, self.runs))
    }

    /// Whether anything happened in any cell in any run.
    pub fn has_data(&self) -> bool {
        self.counts.iter().any(|&c| c > 0)
    }
}

/// A trap's shares over all runs, for its label.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrapMark {
    /// The trap's name.
    pub name: String,
    /// Where it lies.
    pub position: Point,
    /// Share of runs in which it went off.
    pub sprung: Share,
    /// Share of runs in which it was spotted.
    pub spotted: Share,
}

/// Where one figure started and where it ended most often.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FigureEnds {
    /// The figure's name.
    pub name: String,
    /// Where it starts.
    pub start: Point,
    /// The cell (column, row) it ended in most often (the lowest on a tie) and the share of runs
    /// it ended there; none when it ended on the table in no run.
    pub most_often: Option<((u32, u32), Share)>,
}

/// One overlay of the heatmap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// Burn probability: the share of runs in which each cell burnt.
    Burn,
    /// The share of runs in which a figure was hurt in each cell.
    Hurt,
    /// The share of runs in which a figure ended in each cell.
    Ends,
}

impl Layer {
    /// Every layer, in the order the picture stacks them.
    pub const ALL: [Layer; 3] = [Layer::Burn, Layer::Hurt, Layer::Ends];
}

/// Which overlays `tabula playtest --heatmap` draws (`--heatmap-layer`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LayerChoice {
    /// Every layer with data, one panel each (burn, hurt, ends).
    #[default]
    All,
    /// Burn probability per cell.
    Burn,
    /// Where figures were hurt.
    Hurt,
    /// Where figures ended.
    Ends,
}

impl LayerChoice {
    /// The layers drawn: the one chosen, or for `All` those with data (the hurt layer alone when
    /// none has any, so the picture still shows the table).
    pub fn layers(self, overlays: &Overlays) -> Vec<Layer> {
        match self {
            LayerChoice::Burn => vec![Layer::Burn],
            LayerChoice::Hurt => vec![Layer::Hurt],
            LayerChoice::Ends => vec![Layer::Ends],
            LayerChoice::All => {
                let with: Vec<Layer> = Layer::ALL.into_iter().filter(|&l| overlays.layer(l).has_data()).collect();
                if with.is_empty() { vec![Layer::Hurt] } else { with }
            }
        }
    }
}

/// Every overlay of a play-test, gathered from its runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Overlays {
    /// Runs gathered.
    pub runs: u32,
    /// Share of runs in which each cell burnt.
    pub burn: CellShares,
    /// Share of runs in which a figure was hurt in each cell.
    pub hurt: CellShares,
    /// Share of runs in which a figure ended in each cell.
    pub ends: CellShares,
    /// Each trap, in scene order.
    pub traps: Vec<TrapMark>,
    /// Each figure of the scene, in scene order.
    pub figures: Vec<FigureEnds>,
}

impl Overlays {
    /// Gather `runs` (in seed order, as [`crate::playtest::run_all`] returns them) of `scene`:
    /// an [`OverlayTally`] fed every run. Counts are sums over runs, so the result does not
    /// depend on how the runs were made.
    pub fn from_runs(scene: &Scene, runs: &[RunSummary]) -> Self {
        let mut tally = OverlayTally::new(scene);
        for run in runs {
            tally.add(run);
        }
        tally.overlays()
    }

    /// The cell shares of `layer`.
    pub fn layer(&self, layer: Layer) -> &CellShares {
        match layer {
            Layer::Burn => &self.burn,
            Layer::Hurt => &self.hurt,
            Layer::Ends => &self.ends,
        }
    }
}

/// The overlays' counts, added to run by run, so a play-test keeps counts and not its runs:
/// its size grows with the overlay grid and the scene, never with the number of runs.
#[derive(Clone, Debug)]
pub struct OverlayTally {
    grid: OverlayGrid,
    runs: u32,
    burn: CellShares,
    hurt: CellShares,
    ends: CellShares,
    /// Each scene trap: its name, where it lies, the runs it was sprung and spotted in.
    traps: Vec<(String, Point, u32, u32)>,
    /// Each scene figure: its name, start, and the runs it ended in each cell.
    figures: Vec<(String, Point, BTreeMap<u32, u32>)>,
}

impl OverlayTally {
    /// No runs yet, for `scene`.
    pub fn new(scene: &Scene) -> Self {
        let grid = OverlayGrid::for_scene(scene);
        Self {
            grid,
            runs: 0,
            burn: CellShares::new(&grid, 0),
            hurt: CellShares::new(&grid, 0),
            ends: CellShares::new(&grid, 0),
            traps: scene.traps.iter().map(|t| (t.name.clone(), t.position, 0, 0)).collect(),
            figures: scene.figures.iter().map(|f| (f.name.clone(), f.position, BTreeMap::new())).collect(),
        }
    }

    /// Count one more run.
    pub fn add(&mut self, run: &RunSummary) {
        self.runs += 1;
        self.burn.add_run(&run.burnt);
        let mut hurt_here = CellSet::default();
        for &p in &run.hurt_at {
            if let Some(i) = self.grid.cell_at(p) {
                hurt_here.insert(i);
            }
        }
        self.hurt.add_run(&hurt_here);
        let mut ended_here = CellSet::default();
        for ((_, _, cells), end) in self.figures.iter_mut().zip(&run.ends) {
            if let Some(i) = end.and_then(|p| self.grid.cell_at(p)) {
                ended_here.insert(i);
                *cells.entry(i).or_default() += 1;
            }
        }
        self.ends.add_run(&ended_here);
        for (name, _, sprung, spotted) in &mut self.traps {
            if let Some(t) = run.traps.get(name) {
                *sprung += u32::from(t.sprung);
                *spotted += u32::from(t.spotted);
            }
        }
    }

    /// The overlays of the runs counted so far.
    pub fn overlays(&self) -> Overlays {
        let n = self.runs;
        let with_runs = |shares: &CellShares| CellShares { runs: n, ..shares.clone() };
        let traps = self
            .traps
            .iter()
            .map(|(name, position, sprung, spotted)| TrapMark {
                name: name.clone(),
                position: *position,
                sprung: wilson(*sprung, n),
                spotted: wilson(*spotted, n),
            })
            .collect();
        let figures = self
            .figures
            .iter()
            .map(|(name, start, cells)| {
                // The most runs; on a tie the lowest cell (the map iterates ascending).
                let best = cells.iter().fold(None, |best: Option<(u32, u32)>, (&cell, &count)| match best {
                    Some((_, most)) if most >= count => best,
                    _ => Some((cell, count)),
                });
                FigureEnds {
                    name: name.clone(),
                    start: *start,
                    most_often: best.map(|(cell, count)| (self.grid.column_row(cell), wilson(count, n))),
                }
            })
            .collect();
        Overlays {
            runs: n,
            burn: with_runs(&self.burn),
            hurt: with_runs(&self.hurt),
            ends: with_runs(&self.ends),
            traps,
            figures,
        }
    }
}

/// Viridis (matplotlib's perceptually uniform colour map, van der Walt and Smith) at 33 evenly
/// spaced points, `t` = 0, 1/32, ..., 1, each the reference 256-entry table's colour there
/// rounded to 8 bits. Linear interpolation between them is within 1.71 units of 255 of the
/// reference on every channel at each of its 256 entries (2 after rounding to 8 bits).
const VIRIDIS: [[u8; 3]; 33] = [
    [68, 1, 84],
    [71, 13, 96],
    [72, 24, 106],
    [72, 35, 116],
    [71, 45, 123],
    [69, 54, 129],
    [66, 64, 134],
    [63, 73, 137],
    [59, 82, 139],
    [55, 90, 141],
    [51, 99, 141],
    [47, 106, 142],
    [44, 114, 142],
    [41, 122, 142],
    [38, 129, 142],
    [35, 137, 142],
    [33, 144, 140],
    [31, 152, 139],
    [31, 159, 136],
    [33, 166, 133],
    [40, 174, 128],
    [49, 181, 123],
    [62, 188, 116],
    [76, 194, 108],
    [93, 201, 99],
    [110, 206, 88],
    [130, 211, 76],
    [150, 216, 63],
    [171, 220, 50],
    [192, 223, 36],
    [213, 226, 26],
    [234, 229, 26],
    [253, 231, 37],
];

/// The viridis colour of `t` from 0 (dark purple, #440154) to 1 (yellow, #fde725), sRGB; `t`
/// outside 0..1 is clamped, NaN is 0. Its lightness rises steadily, so it reads in grey and
/// never relies on telling red from green.
pub fn viridis(t: f32) -> [u8; 3] {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (VIRIDIS.len() - 1) as f32;
    let i = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - i as f32;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    std::array::from_fn(|c| (f32::from(a[c]) + (f32::from(b[c]) - f32::from(a[c])) * f).round() as u8)
}

/// Where one panel of a [`Picture`] lies, to find a table point or the legend in its pixels.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PanelPlace {
    /// The overlay the panel shows.
    pub layer: Layer,
    /// The map's left edge, in pixels from the picture's left.
    pub map_left: u32,
    /// The map's top edge (the table's far side), in pixels from the picture's top.
    pub map_top: u32,
    /// The map's width in pixels.
    pub map_width: u32,
    /// The map's height in pixels.
    pub map_height: u32,
    /// Pixels an inch.
    pub px_per_inch: f32,
    /// The table's height in inches (the map's y runs down, the table's up).
    pub table_height: f32,
    /// The legend bar's left edge (its first pixel is the colour of 0%).
    pub bar_left: u32,
    /// The legend bar's top edge.
    pub bar_top: u32,
    /// The legend bar's width (its last pixel is the colour of 100%).
    pub bar_width: u32,
}

impl PanelPlace {
    /// Table point `p` (inches) in picture pixels (not rounded).
    pub fn to_pixel(&self, p: Point) -> (f32, f32) {
        (
            self.map_left as f32 + p.0 * self.px_per_inch,
            self.map_top as f32 + (self.table_height - p.1) * self.px_per_inch,
        )
    }
}

/// A drawn heatmap: RGBA pixels, row by row from the top, and where each panel lies.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// 4 bytes a pixel (red, green, blue, alpha; every pixel opaque).
    pub rgba: Vec<u8>,
    /// The panels, top to bottom.
    pub panels: Vec<PanelPlace>,
}

impl Picture {
    /// The pixel at (`x`, `y`), if inside.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        self.rgba.get(i..i + 4).map(|p| [p[0], p[1], p[2], p[3]])
    }

    /// The picture as PNG bytes (8-bit RGBA).
    pub fn to_png(&self) -> Result<Vec<u8>, String> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(&self.rgba).map_err(|e| e.to_string())?;
        writer.finish().map_err(|e| e.to_string())?;
        Ok(bytes)
    }
}

/// The heatmap of a play-test as PNG bytes: its overlays drawn by [`render`].
pub fn heatmap_png(
    scene: &Scene,
    overlays: &Overlays,
    report: &Report,
    layers: LayerChoice,
) -> Result<Vec<u8>, String> {
    render(scene, overlays, report, layers).to_png()
}

// Layout, in pixels. Text is the raster font at scale 2 (12 px a character, 14 px high).
const SCALE: u32 = 2;
/// A line of text and the space below it.
const LINE: u32 = 20;
const MARGIN: u32 = 16;
/// The map's longer side, about (whole pixels an inch where that is 2 or more).
const MAP_LONG_SIDE: f32 = 1080.0;
const MAX_PX_PER_INCH: f32 = 40.0;
const MIN_WIDTH: u32 = 760;
/// The title and the run count above the panels.
const TITLE_BLOCK: u32 = MARGIN + 2 * LINE + 12;
/// A panel's two caption lines and the gap above its map.
const CAPTION: u32 = 2 * LINE + 8;
const BAR_WIDTH: u32 = 400;
const BAR_HEIGHT: u32 = 16;
/// Below a map: inch labels, a gap, the legend bar, its tick labels, a gap, the symbols' key.
const BELOW_MAP: u32 = LINE + 10 + BAR_HEIGHT + 4 + LINE + 8 + LINE;
const PANEL_GAP: u32 = 24;

const WHITE: [u8; 3] = [255, 255, 255];
const INK: [u8; 3] = [30, 30, 30];
const GREY_INK: [u8; 3] = [90, 90, 90];
/// The table where no region lies.
const TABLE: [u8; 3] = [236, 232, 222];
const GRID: [u8; 3] = [110, 110, 110];
const WALL: [u8; 3] = [40, 40, 40];
const DOOR: [u8; 3] = [170, 110, 50];

/// Pixels an inch for a table of `w` × `h` inches: about [`MAP_LONG_SIDE`] along the longer
/// side, at most [`MAX_PX_PER_INCH`], whole where it is 2 or more (crisp grid lines).
fn px_per_inch(w: f32, h: f32) -> f32 {
    let long = w.max(h).max(1.0);
    let ppi = (MAP_LONG_SIDE / long).min(MAX_PX_PER_INCH);
    if ppi >= 2.0 { ppi.floor() } else { ppi }
}

/// Inches between the stronger grid lines (and the inch labels): 6", or 12" (and doubling) when
/// 6" is under 60 pixels.
fn major_step(ppi: f32) -> f32 {
    let mut step = 6.0;
    while step * ppi < 60.0 && step < 2048.0 {
        step = if step < 12.0 { 12.0 } else { step * 2.0 };
    }
    step
}

/// An RGBA canvas (opaque) that clips everything drawn to it.
struct Canvas {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Canvas {
    fn new(width: u32, height: u32, colour: [u8; 3]) -> Self {
        let rgba = [colour[0], colour[1], colour[2], 255].repeat(width as usize * height as usize);
        Self { width, height, rgba }
    }

    /// Blend `colour` over the pixel at (`x`, `y`) with opacity `alpha` (0 to 1).
    fn blend(&mut self, x: i64, y: i64, colour: [u8; 3], alpha: f32) {
        if x < 0 || y < 0 || x >= i64::from(self.width) || y >= i64::from(self.height) {
            return;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        let a = alpha.clamp(0.0, 1.0);
        for (channel, &new) in self.rgba[i..i + 3].iter_mut().zip(&colour) {
            let old = f32::from(*channel);
            *channel = (old + (f32::from(new) - old) * a).round() as u8;
        }
    }

    fn set(&mut self, x: i64, y: i64, colour: [u8; 3]) {
        self.blend(x, y, colour, 1.0);
    }

    /// Fill pixels `x0..x1` × `y0..y1`.
    fn fill(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, colour: [u8; 3], alpha: f32) {
        for y in y0.max(0)..y1.min(i64::from(self.height)) {
            for x in x0.max(0)..x1.min(i64::from(self.width)) {
                self.blend(x, y, colour, alpha);
            }
        }
    }

    /// A one-pixel outline just outside `x0..x1` × `y0..y1`.
    fn outline(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, colour: [u8; 3]) {
        self.fill(x0 - 1, y0 - 1, x1 + 1, y0, colour, 1.0);
        self.fill(x0 - 1, y1, x1 + 1, y1 + 1, colour, 1.0);
        self.fill(x0 - 1, y0, x0, y1, colour, 1.0);
        self.fill(x1, y0, x1 + 1, y1, colour, 1.0);
    }

    /// A line `width` pixels wide from `a` to `b` (pixel coordinates); `dash` pixels on and off
    /// when given.
    fn line(&mut self, a: (f32, f32), b: (f32, f32), width: f32, colour: [u8; 3], dash: Option<f32>) {
        let length = (b.0 - a.0).hypot(b.1 - a.1);
        let steps = (length * 2.0).ceil().max(1.0) as i64;
        let r = (width / 2.0).max(0.5);
        let reach = r.ceil() as i64;
        for i in 0..=steps {
            let t = i as f32 / steps as f32;
            if let Some(d) = dash
                && ((t * length / d) as i64) % 2 == 1
            {
                continue;
            }
            let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            for dy in -reach..=reach {
                for dx in -reach..=reach {
                    let (px, py) = (x.floor() as i64 + dx, y.floor() as i64 + dy);
                    let (cx, cy) = (px as f32 + 0.5 - x, py as f32 + 0.5 - y);
                    if cx * cx + cy * cy <= r * r {
                        self.set(px, py, colour);
                    }
                }
            }
        }
    }

    /// Pixels whose centre lies within `r` of `centre`, for which `inside(dx, dy)` holds (offsets
    /// from the centre), painted `colour`.
    fn shape(&mut self, centre: (f32, f32), r: f32, colour: [u8; 3], inside: impl Fn(f32, f32) -> bool) {
        let reach = r.ceil() as i64 + 1;
        let (x0, y0) = (centre.0.floor() as i64, centre.1.floor() as i64);
        for py in y0 - reach..=y0 + reach {
            for px in x0 - reach..=x0 + reach {
                let (dx, dy) = (px as f32 + 0.5 - centre.0, py as f32 + 0.5 - centre.1);
                if inside(dx, dy) {
                    self.set(px, py, colour);
                }
            }
        }
    }

    fn disc(&mut self, centre: (f32, f32), r: f32, colour: [u8; 3]) {
        self.shape(centre, r, colour, |dx, dy| dx * dx + dy * dy <= r * r);
    }

    /// A circle's outline: the pixels between `inner` and `outer` from `centre`.
    fn ring(&mut self, centre: (f32, f32), inner: f32, outer: f32, colour: [u8; 3]) {
        self.shape(centre, outer, colour, |dx, dy| (inner * inner..=outer * outer).contains(&(dx * dx + dy * dy)));
    }

    /// A diamond's outline: the pixels between `inner` and `outer` from `centre`, across and
    /// down added.
    fn diamond_ring(&mut self, centre: (f32, f32), inner: f32, outer: f32, colour: [u8; 3]) {
        self.shape(centre, outer, colour, |dx, dy| (inner..=outer).contains(&(dx.abs() + dy.abs())));
    }

    fn text(&mut self, text: &str, x: i64, y: i64, colour: [u8; 3]) {
        draw_text(text, x, y, SCALE, |px, py| self.set(px, py, colour));
    }
}

/// `text`, cut short with "..." to fit `max` pixels at the picture's text scale.
fn fit(text: &str, max: u32) -> String {
    if text_width(text, SCALE) <= max {
        return text.to_string();
    }
    let mut out: String = String::new();
    for c in text.chars() {
        let mut next = out.clone();
        next.push(c);
        if text_width(&format!("{next}..."), SCALE) > max {
            break;
        }
        out = next;
    }
    format!("{out}...")
}

/// A share as a whole percentage; "<1%" and ">99%" where rounding would say 0% or 100% of
/// something that did or did not always happen.
fn percent(s: &Share) -> String {
    let p = 100.0 * s.share;
    if s.count > 0 && p < 0.5 {
        "<1%".to_string()
    } else if s.count < s.of && p >= 99.5 {
        ">99%".to_string()
    } else {
        format!("{p:.0}%")
    }
}

/// A cell size or distance in inches: `1"`, `0.5"`.
fn inches(v: f32) -> String {
    format!("{v}\"")
}

/// A box in pixels, `x0..x1` × `y0..y1`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Boxed {
    x0: i64,
    y0: i64,
    x1: i64,
    y1: i64,
}

impl Boxed {
    fn around(centre: (f32, f32), r: f32) -> Self {
        let (x, y) = (centre.0.round() as i64, centre.1.round() as i64);
        let r = r.ceil() as i64;
        Self { x0: x - r, y0: y - r, x1: x + r + 1, y1: y + r + 1 }
    }

    fn overlaps(&self, o: &Boxed) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// Places labels where they cover no other label and no marker: beside the marker if it can,
/// farther out (with a leader line) if not, and where it must when nowhere is free.
struct Labels {
    taken: Vec<Boxed>,
    bounds: Boxed,
}

impl Labels {
    /// A `w` × `h` box for a label of the marker at `anchor`, at least `clear` pixels off it
    /// across or down, and whether it stands farther off (needs a leader line).
    fn place(&mut self, anchor: (f32, f32), w: i64, h: i64, clear: i64) -> (Boxed, bool) {
        let (ax, ay) = (anchor.0.round() as i64, anchor.1.round() as i64);
        let mut first = None;
        for ring in 0..3i64 {
            let d = clear + ring * (h + 8);
            let candidates = [
                (ax + d, ay - h / 2),
                (ax - d - w, ay - h / 2),
                (ax - w / 2, ay - d - h),
                (ax - w / 2, ay + d),
                (ax + d, ay - d - h),
                (ax + d, ay + d),
                (ax - d - w, ay - d - h),
                (ax - d - w, ay + d),
            ];
            for (x, y) in candidates {
                let b = self.clamp(Boxed { x0: x, y0: y, x1: x + w, y1: y + h });
                let spot = (b, ring > 0);
                first.get_or_insert(spot);
                if !self.taken.iter().any(|t| t.overlaps(&b)) {
                    self.taken.push(b);
                    return spot;
                }
            }
        }
        let spot = first.unwrap_or((Boxed { x0: ax, y0: ay, x1: ax + w, y1: ay + h }, false));
        self.taken.push(spot.0);
        spot
    }

    fn clamp(&self, b: Boxed) -> Boxed {
        let (w, h) = (b.x1 - b.x0, b.y1 - b.y0);
        let x0 = b.x0.min(self.bounds.x1 - w).max(self.bounds.x0);
        let y0 = b.y0.min(self.bounds.y1 - h).max(self.bounds.y0);
        Boxed { x0, y0, x1: x0 + w, y1: y0 + h }
    }
}

/// Draw a label of one or more lines in a light box at `b`.
fn draw_label(canvas: &mut Canvas, b: Boxed, lines: &[String]) {
    canvas.fill(b.x0, b.y0, b.x1, b.y1, WHITE, 0.85);
    canvas.outline(b.x0, b.y0, b.x1, b.y1, [150, 150, 150]);
    for (i, line) in lines.iter().enumerate() {
        canvas.text(line, b.x0 + 3, b.y0 + 3 + i as i64 * i64::from(text_height(SCALE) + 4), INK);
    }
}

fn label_size(lines: &[String]) -> (i64, i64) {
    let w = lines.iter().map(|l| text_width(l, SCALE)).max().unwrap_or(0);
    let n = lines.len() as u32;
    (i64::from(w + 6), i64::from(n * text_height(SCALE) + n.saturating_sub(1) * 4 + 6))
}

fn faint(c: [u8; 3]) -> [u8; 3] {
    [(c[0] as u16 / 3 + 160) as u8, (c[1] as u16 / 3 + 160) as u8, (c[2] as u16 / 3 + 160) as u8]
}

fn material_rgb(m: Material) -> [u8; 3] {
    match m {
        Material::Water => [50, 90, 150],
        Material::Trees | Material::Bushes => [40, 100, 45],
        Material::Grass => [90, 140, 70],
        Material::Paved | Material::StoneFloor | Material::Rock => [130, 130, 135],
        Material::Thatch | Material::Hay | Material::StandingCorn => [210, 180, 90],
        _ => [140, 110, 80],
    }
}

/// The table's ground, faint, `map_w` × `map_h` pixels row by row from the top.
fn ground(scene: &Scene, map_w: u32, map_h: u32, ppi: f32) -> Vec<[u8; 3]> {
    let mut px = vec![TABLE; map_w as usize * map_h as usize];
    for y in 0..map_h {
        for x in 0..map_w {
            let p = ((x as f32 + 0.5) / ppi, scene.table.height - (y as f32 + 0.5) / ppi);
            if let Some(region) = scene.terrain.iter().rev().find(|r| r.shape.contains(p)) {
                px[(y * map_w + x) as usize] = faint(material_rgb(region.material));
            }
        }
    }
    px
}

/// A panel's two caption lines: what it shows, and what its colour counts.
fn caption(layer: Layer, overlays: &Overlays) -> (String, String) {
    let cell = inches(overlays.burn.cell_in);
    let (title, what, none) = match layer {
        Layer::Burn => ("Burn probability", format!("share of runs in which each {cell} cell burnt"), "no cell burnt"),
        Layer::Hurt => {
            ("Where figures were hurt", format!("share of runs with a figure hurt in each {cell} cell"), "no one hurt")
        }
        Layer::Ends => {
            ("Where figures ended", format!("share of runs with a figure ending in each {cell} cell"), "none ended")
        }
    };
    let title =
        if overlays.layer(layer).has_data() { title.to_string() } else { format!("{title} ({none} in any run)") };
    (title, what)
}

/// Draw `overlays` of `scene`, the layers `choice` picks, one panel each, under a title from
/// `report` (scene, runs, moves, seeds). Each panel: two caption lines; the map (ground, the
/// cells coloured by share, the 1" grid with a stronger line every 6" or 12", inch labels on the
/// left and bottom edges, walls, doors, traps with their sprung and spotted shares, figures'
/// starts by name, and on the ends panel each figure's most frequent end); the legend bar from
/// 0% to 100% and a key to the symbols.
pub fn render(scene: &Scene, overlays: &Overlays, report: &Report, choice: LayerChoice) -> Picture {
    let layers = choice.layers(overlays);
    let (tw, th) = (scene.table.width, scene.table.height);
    let ppi = px_per_inch(tw, th);
    let map_w = ((tw * ppi).ceil() as u32).max(1);
    let map_h = ((th * ppi).ceil() as u32).max(1);
    let step = major_step(ppi);
    // The left gutter holds the longest inch label.
    let y_labels = (th / step + 1e-3).floor() as u32;
    let gutter = (0..=y_labels).map(|k| text_width(&format!("{}", k as f32 * step), SCALE)).max().unwrap_or(0) + 8;
    let width = (MARGIN + gutter + map_w + MARGIN).max(MIN_WIDTH);
    let n = layers.len() as u32;
    let panel_h = CAPTION + map_h + BELOW_MAP;
    let height = TITLE_BLOCK + n * panel_h + n.saturating_sub(1) * PANEL_GAP + MARGIN;
    let mut canvas = Canvas::new(width, height, WHITE);
    let text_room = width - 2 * MARGIN;

    let last_seed = report.first_seed.saturating_add(u64::from(report.runs.saturating_sub(1)));
    canvas.text(&fit(&report.scene, text_room), i64::from(MARGIN), i64::from(MARGIN), INK);
    let (runs, moves, first) = (report.runs, report.moves, report.first_seed);
    let runs_line = format!("{runs} runs of {moves} moves, seeds {first}..{last_seed}");
    canvas.text(&fit(&runs_line, text_room), i64::from(MARGIN), i64::from(MARGIN + LINE), GREY_INK);

    let ground_px = ground(scene, map_w, map_h, ppi);
    let mut panels = Vec::new();
    for (k, &layer) in layers.iter().enumerate() {
        let top = TITLE_BLOCK + k as u32 * (panel_h + PANEL_GAP);
        let map_left = MARGIN + gutter;
        let map_top = top + CAPTION;
        let place = PanelPlace {
            layer,
            map_left,
            map_top,
            map_width: map_w,
            map_height: map_h,
            px_per_inch: ppi,
            table_height: th,
            bar_left: map_left,
            bar_top: map_top + map_h + LINE + 10,
            bar_width: BAR_WIDTH,
        };
        let (title, what) = caption(layer, overlays);
        canvas.text(&fit(&title, text_room), i64::from(MARGIN), i64::from(top), INK);
        canvas.text(&fit(&what, text_room), i64::from(MARGIN), i64::from(top + LINE), GREY_INK);
        draw_map(&mut canvas, scene, overlays, layer, &place, &ground_px, step);
        draw_axes(&mut canvas, &place, tw, step);
        draw_legend(&mut canvas, scene, layer, &place, width);
        panels.push(place);
    }
    Picture { width, height, rgba: canvas.rgba, panels }
}

/// The map of one panel: ground, coloured cells, grid, walls and doors, marks and labels.
fn draw_map(
    canvas: &mut Canvas,
    scene: &Scene,
    overlays: &Overlays,
    layer: Layer,
    place: &PanelPlace,
    ground_px: &[[u8; 3]],
    step: f32,
) {
    let (left, top) = (i64::from(place.map_left), i64::from(place.map_top));
    let (w, h) = (i64::from(place.map_width), i64::from(place.map_height));
    let ppi = place.px_per_inch;
    let (tw, th) = (scene.table.width, scene.table.height);
    for y in 0..h {
        for x in 0..w {
            if let Some(&c) = ground_px.get((y * w + x) as usize) {
                canvas.set(left + x, top + y, c);
            }
        }
    }
    // Cells coloured by their share; cells where nothing happened in any run keep the ground.
    let shares = overlays.layer(layer);
    let grid = shares.grid();
    let c = grid.cell_in;
    // A cell's pixels (the last row and column may be part cells, cut at the table's edge).
    let cell_box = |index: u32| {
        let (col, row) = grid.column_row(index);
        let (x0, x1) = (col as f32 * c, ((col + 1) as f32 * c).min(tw));
        let (y0, y1) = (row as f32 * c, ((row + 1) as f32 * c).min(th));
        let px = |v: f32| (v * ppi).round() as i64;
        Boxed {
            x0: left + px(x0),
            y0: top + px(th - y1),
            x1: (left + px(x1)).min(left + w),
            y1: (top + px(th - y0)).min(top + h),
        }
    };
    for (i, &count) in shares.counts.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let b = cell_box(i as u32);
        canvas.fill(b.x0, b.y0, b.x1, b.y1, viridis(count as f32 / shares.runs.max(1) as f32), 1.0);
    }
    // The grid: 1" lines where an inch is at least 6 pixels, stronger ones every `step` inches.
    let column = |x: f32| left + ((x * ppi).round() as i64).min(w - 1);
    let line_row = |y: f32| top + (((th - y) * ppi).round() as i64).min(h - 1);
    for (inch_step, alpha, minor) in [(1.0f32, 0.18f32, true), (step, 0.45, false)] {
        if minor && ppi < 6.0 {
            continue;
        }
        let mut x = 0.0;
        while x <= tw + 1e-3 {
            canvas.fill(column(x), top, column(x) + 1, top + h, GRID, alpha);
            x += inch_step;
        }
        let mut y = 0.0;
        while y <= th + 1e-3 {
            canvas.fill(left, line_row(y), left + w, line_row(y) + 1, GRID, alpha);
            y += inch_step;
        }
    }
    let at = |p: Point| place.to_pixel(p);
    for door in &scene.doors {
        canvas.line(at(door.from), at(door.to), 3.0, DOOR, door.open.then_some(4.0));
    }
    for wall in &scene.walls {
        for seg in wall.points.windows(2) {
            canvas.line(at(seg[0]), at(seg[1]), 3.0, WALL, None);
        }
    }
    canvas.outline(left, top, left + w, top + h, [60, 60, 60]);

    // Marks, then their labels, placed clear of every mark and of each other.
    let mut labels = Labels {
        taken: Vec::new(),
        bounds: Boxed { x0: i64::from(MARGIN), y0: top, x1: i64::from(canvas.width - MARGIN), y1: top + h },
    };
    // Labels stand clear of their mark, and of the cell under a trap or an end (half a cell).
    let mark_clear = 10i64;
    let cell_clear = mark_clear.max(((c * ppi) / 2.0).ceil() as i64 + 3);
    let mut to_label: Vec<((f32, f32), Vec<String>, i64)> = Vec::new();
    // On the ends panel, each figure's most frequent end, joined to its start by a dashed line
    // (all lines first, so that none crosses a mark).
    let ends: Vec<((f32, f32), (f32, f32), Option<u32>, String)> = if layer == Layer::Ends {
        overlays
            .figures
            .iter()
            .filter_map(|f| {
                let ((col, row), share) = f.most_often?;
                let end = at(((col as f32 + 0.5) * c, (row as f32 + 0.5) * c));
                let text = format!("{} {}", fit(&f.name, 300), percent(&share));
                Some((at(f.start), end, grid.index(col, row), text))
            })
            .collect()
    } else {
        Vec::new()
    };
    for (start, end, _, _) in &ends {
        canvas.line(*start, *end, 1.0, INK, Some(5.0));
    }
    for t in &overlays.traps {
        let p = at(t.position);
        trap_mark(canvas, p);
        labels.taken.push(Boxed::around(p, TRAP_MARK));
        // Keep the cell under the trap clear: the hurt layer colours it.
        if let Some(i) = grid.cell_at(t.position) {
            labels.taken.push(cell_box(i));
        }
        let line2 = format!("sprung {}, spotted {}", percent(&t.sprung), percent(&t.spotted));
        to_label.push((p, vec![fit(&t.name, 360), line2], cell_clear));
    }
    for f in &overlays.figures {
        let p = at(f.start);
        start_mark(canvas, p);
        labels.taken.push(Boxed::around(p, START_MARK));
        to_label.push((p, vec![fit(&f.name, 360)], mark_clear));
    }
    for (_, end, cell, text) in ends {
        end_mark(canvas, end);
        labels.taken.push(Boxed::around(end, END_MARK));
        if let Some(i) = cell {
            labels.taken.push(cell_box(i));
        }
        to_label.push((end, vec![text], cell_clear));
    }
    for (anchor, lines, clear) in to_label {
        let (lw, lh) = label_size(&lines);
        let (b, off) = labels.place(anchor, lw, lh, clear);
        if off {
            let target = ((b.x0 + b.x1) as f32 / 2.0, (b.y0 + b.y1) as f32 / 2.0);
            canvas.line(anchor, target, 1.0, GREY_INK, None);
        }
        draw_label(canvas, b, &lines);
    }
}

// Marks are outlines in a white halo, hollow so the colour of the cell under them shows.

/// How far a trap's mark reaches from its centre, in pixels.
const TRAP_MARK: f32 = 8.5;
/// How far a figure's start mark reaches.
const START_MARK: f32 = 7.0;
/// How far a figure's end mark reaches.
const END_MARK: f32 = 4.5;

/// A trap: a dark diamond outline.
fn trap_mark(canvas: &mut Canvas, p: (f32, f32)) {
    canvas.diamond_ring(p, 7.0, TRAP_MARK, WHITE);
    canvas.diamond_ring(p, 4.5, 7.0, INK);
}

/// A figure's start: a dark circle outline.
fn start_mark(canvas: &mut Canvas, p: (f32, f32)) {
    canvas.ring(p, 5.5, START_MARK, WHITE);
    canvas.ring(p, 3.5, 5.5, INK);
}

/// A figure's most frequent end: a small dark dot.
fn end_mark(canvas: &mut Canvas, p: (f32, f32)) {
    canvas.disc(p, END_MARK, WHITE);
    canvas.disc(p, 3.0, INK);
}

/// Inch labels at the stronger grid lines: along the bottom edge and the left edge.
fn draw_axes(canvas: &mut Canvas, place: &PanelPlace, table_width: f32, step: f32) {
    let below = i64::from(place.map_top + place.map_height + 6);
    let right_limit = i64::from(canvas.width) - 2;
    let mut x = 0.0;
    while x <= table_width + 1e-3 {
        let text = format!("{x}");
        let tw = i64::from(text_width(&text, SCALE));
        let centre = place.to_pixel((x, 0.0)).0.round() as i64;
        canvas.text(&text, (centre - tw / 2).clamp(2, (right_limit - tw).max(2)), below, INK);
        x += step;
    }
    // From the first line up: the corner's 0 below the map serves both edges.
    let mut y = step;
    while y <= place.table_height + 1e-3 {
        let text = format!("{y}");
        let tw = i64::from(text_width(&text, SCALE));
        let middle = place.to_pixel((0.0, y)).1.round() as i64;
        let half = i64::from(text_height(SCALE)) / 2;
        canvas.text(&text, i64::from(place.map_left) - 6 - tw, middle - half, INK);
        y += step;
    }
}

/// The colour bar from 0% to 100% with ticks at each quarter, what no colour means, and a key
/// to the marks.
fn draw_legend(canvas: &mut Canvas, scene: &Scene, layer: Layer, place: &PanelPlace, width: u32) {
    let (x0, y0) = (i64::from(place.bar_left), i64::from(place.bar_top));
    let bar_w = i64::from(place.bar_width);
    let bar_h = i64::from(BAR_HEIGHT);
    for i in 0..bar_w {
        let colour = viridis(i as f32 / (bar_w - 1).max(1) as f32);
        canvas.fill(x0 + i, y0, x0 + i + 1, y0 + bar_h, colour, 1.0);
    }
    canvas.outline(x0, y0, x0 + bar_w, y0 + bar_h, INK);
    for (k, label) in ["0%", "25%", "50%", "75%", "100%"].iter().enumerate() {
        let x = x0 + (k as i64 * (bar_w - 1)) / 4;
        canvas.fill(x, y0 + bar_h + 1, x + 1, y0 + bar_h + 4, INK, 1.0);
        let tw = i64::from(text_width(label, SCALE));
        canvas.text(label, x - tw / 2, y0 + bar_h + 5, INK);
    }
    canvas.text("uncoloured: in no run", x0 + bar_w + 24, y0 + 1, INK);

    // The key: one mark and its meaning each, left to right.
    let mut entries: Vec<(fn(&mut Canvas, (f32, f32)), &str)> = Vec::new();
    if !scene.traps.is_empty() {
        entries.push((trap_mark, "trap: sprung, spotted"));
    }
    if !scene.figures.is_empty() {
        entries.push((start_mark, "start"));
        if layer == Layer::Ends {
            entries.push((end_mark, "most frequent end"));
        }
    }
    let key_y = y0 + bar_h + 4 + i64::from(LINE) + 8;
    let mid = key_y as f32 + text_height(SCALE) as f32 / 2.0;
    let mut x = x0;
    for (mark, text) in entries {
        mark(canvas, (x as f32 + 7.0, mid));
        let room = (i64::from(width) - i64::from(MARGIN) - (x + 20)).max(0) as u32;
        let text = fit(text, room);
        canvas.text(&text, x + 20, key_y, INK);
        x += 20 + i64::from(text_width(&text, SCALE)) + 24;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(a: [u8; 3], b: [u8; 3], by: u8) -> bool {
        a.iter().zip(&b).all(|(x, y)| x.abs_diff(*y) <= by)
    }

    #[test]
    fn viridis_runs_from_the_reference_purple_to_the_reference_yellow() {
        assert!(near(viridis(0.0), [0x44, 0x01, 0x54], 1), "{:?}", viridis(0.0));
        assert!(near(viridis(1.0), [0xfd, 0xe7, 0x25], 1), "{:?}", viridis(1.0));
        // The reference's middle, #21918c (its entries 127 and 128 average to it).
        assert!(near(viridis(0.5), [0x21, 0x91, 0x8c], 2), "{:?}", viridis(0.5));
        assert_eq!(viridis(-1.0), viridis(0.0));
        assert_eq!(viridis(2.0), viridis(1.0));
        assert_eq!(viridis(f32::NAN), viridis(0.0));
        // Perceptually ordered: relative luminance rises at every step.
        let luminance = |c: [u8; 3]| {
            let lin = |v: u8| {
                let v = f32::from(v) / 255.0;
                if v <= 0.04045 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
            };
            0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
        };
        for k in 0..64 {
            let (a, b) = (viridis(k as f32 / 64.0), viridis((k + 1) as f32 / 64.0));
            assert!(luminance(a) < luminance(b), "step {k}: {a:?} to {b:?}");
        }
    }

    fn table(width: f32, height: f32, fire_cell: f32) -> Scene {
        let mut scene = crate::sim::testing::scene_from_str("(version: 1, table: (width: 10, height: 10))");
        scene.table.width = width;
        scene.table.height = height;
        scene.rules.fire.cell_size = fire_cell;
        scene
    }

    #[test]
    fn overlay_cells_are_inches_unless_the_table_is_large() {
        let g = OverlayGrid::for_scene(&table(72.0, 48.0, 0.1));
        assert_eq!((g.cell_in, g.width, g.height), (1.0, 72, 48));
        // 200" × 100" is 20,000 one-inch cells, over 16,384: 2" cells.
        let g = OverlayGrid::for_scene(&table(200.0, 100.0, 0.1));
        assert_eq!((g.cell_in, g.width, g.height), (2.0, 100, 50));
        // The largest table: 1000" / 8" = 125 cells a side, 15,625 cells.
        let g = OverlayGrid::for_scene(&table(1000.0, 1000.0, 0.1));
        assert_eq!((g.cell_in, g.width, g.height), (8.0, 125, 125));
        // Fire cells of 1.5" make overlay cells of 2".
        assert_eq!(OverlayGrid::for_scene(&table(20.0, 10.0, 1.5)).cell_in, 2.0);
        // A part cell at the edge counts; a point on the far edge is in the last cell.
        let g = OverlayGrid::for_scene(&table(10.5, 4.0, 0.1));
        assert_eq!((g.width, g.height), (11, 4));
        assert_eq!(g.cell_at((10.5, 4.0)), g.index(10, 3));
        assert_eq!(g.cell_at((0.0, 0.0)), Some(0));
        assert_eq!(g.cell_at((2.5, 1.5)), Some(11 + 2));
        assert_eq!(g.cell_at((-0.1, 1.0)), None);
        assert_eq!(g.cell_at((11.5, 1.0)), None);
        assert_eq!(g.cell_at((f32::NAN, 1.0)), None);
    }

    #[test]
    fn a_cell_set_holds_its_cells() {
        let mut s = CellSet::default();
        assert!(s.is_empty());
        for i in [3, 64, 200, 3] {
            s.insert(i);
        }
        assert_eq!(s.iter().collect::<Vec<_>>(), [3, 64, 200]);
        assert_eq!(s.len(), 3);
        assert!(s.contains(64) && !s.contains(65) && !s.contains(100_000));
    }

    #[test]
    fn fire_cells_mark_the_overlay_cells_they_burn() {
        let grid = OverlayGrid { cell_in: 1.0, width: 4, height: 2 };
        // Fine fire cells (0.5"): the overlay cell holding each centre.
        let mut fire = FireGrid::new(4.0, 2.0, 0.5).expect("grid");
        fire.paint(|_, _| Some(crate::sim::fire_front::Fuel { index: 1, spread_rate_in: 1.0, burn_out_rounds: 2.0 }))
            .expect("paint");
        assert!(fire.ignite(0.25, 0.25, 0.1, 0.0).is_some());
        fire.advance_to(0.0);
        assert_eq!(CellSet::burnt(&grid, &fire, 0.0).iter().collect::<Vec<_>>(), [0]);
        // 1" a round from (0.25, 0.25): after 1.2 rounds the front has reached x = 1.25 (cell 1)
        // but not 2 (cell 2) on the bottom row, and y = 1.25 (cell 4).
        fire.advance_to(1.2);
        let burnt: Vec<u32> = CellSet::burnt(&grid, &fire, 1.2).iter().collect();
        assert!(burnt.contains(&0) && burnt.contains(&1) && burnt.contains(&4), "{burnt:?}");
        assert!(!burnt.contains(&2) && !burnt.contains(&3), "{burnt:?}");
        // A later time than asked for is not counted.
        assert_eq!(CellSet::burnt(&grid, &fire, 0.0).iter().collect::<Vec<_>>(), [0]);
        // Coarse fire cells (2") cover two overlay cells each way.
        let mut coarse = FireGrid::new(4.0, 2.0, 2.0).expect("grid");
        coarse
            .paint(|_, _| Some(crate::sim::fire_front::Fuel { index: 1, spread_rate_in: 1.0, burn_out_rounds: 2.0 }))
            .expect("paint");
        assert!(coarse.ignite(1.0, 1.0, 0.1, 0.0).is_some());
        coarse.advance_to(0.0);
        assert_eq!(CellSet::burnt(&grid, &coarse, 0.0).iter().collect::<Vec<_>>(), [0, 1, 4, 5]);
    }

    #[test]
    fn long_text_is_cut_to_fit() {
        assert_eq!(fit("short", 1000), "short");
        let cut = fit("a rather long scene title", 120);
        assert!(cut.ends_with("...") && text_width(&cut, SCALE) <= 120, "{cut}");
        assert_eq!(percent(&wilson(0, 10)), "0%");
        assert_eq!(percent(&wilson(1, 1000)), "<1%");
        assert_eq!(percent(&wilson(999, 1000)), ">99%");
        assert_eq!(percent(&wilson(10, 10)), "100%");
        assert_eq!(percent(&wilson(1, 4)), "25%");
    }
}
