//! Sight in play (issue #17, `docs/sight.md`): what blocks sight on this table
//! ([`SceneSight`], built once when the scene is put in the world: walls and doors do not change
//! in play), what the fires burning now light ([`FireLight`], after the Fire set's rounds), what
//! the players' side sees at the end of each move ([`PartySight`], the Sight set) and the fog of
//! war it has explored ([`ExploredFog`], saved in the scene's `fog` with the fog's switch).
//!
//! The rules that need sight (spotting Morval traps, woken investigators, sight trackers) ask
//! [`SceneSight::visible`]; the projector draws [`PartySight`] and [`ExploredFog`].

use super::fire::FireFront;
use super::fire_front::Cell;
use super::geometry::{
    LitDisc, RANGE_ARC_ERROR_IN, SightBlockers, TableBounds, TablePoint, VisibilityPolygon, lit_areas, sight_blockers,
    visibility_polygon, visible,
};
use super::world::{Conditions, Figure, Lights, SceneLighting, SceneOrder, TablePosition};
use super::{Move, MoveSystems};
use crate::rules::sight::{CarriedLight, SightSettings, sight_range_in};
use crate::scene::fog::{FogGrid, FogState, decode_explored, encode_explored, words_for};
use crate::scene::{ConditionKind, Scene};
use bevy::prelude::*;
use std::borrow::Cow;
use std::sync::Arc;

/// The players' side, whose sight the fog of war follows: the scene's default side.
pub const PLAYERS_SIDE: &str = "party";

/// The side of a fire light's block, inches: burning cells are merged into one lit disc per
/// block of about this side (the fire grid's cells are 0.1" by default, so a block is 10 × 10),
/// or of a quarter of the margin where that is more.
pub const FIRE_LIGHT_BLOCK_IN: f32 = 1.0;
/// Most blocks a fire light is merged into: a table with larger fire cells gets larger blocks.
pub const MAX_FIRE_LIGHT_BLOCKS: usize = 1 << 16;
/// No disc: a block with no lit disc of its own.
const NO_DISC: u32 = u32::MAX;

pub(super) fn plugin(app: &mut App) {
    // After the rounds: the rules that ask for sight later in the move (Sleepers) and the Sight
    // set see this move's fire; the Trails and Traps sets, before Fire, see the last move's.
    app.add_systems(Move, light_fires_after_rounds.in_set(MoveSystems::Fire).after(super::run_rounds));
    app.add_systems(Move, update_party_sight.in_set(MoveSystems::Sight));
}

/// What blocks sight on the table (walls, closed doors: [`sight_blockers`]), prepared once, with
/// the sight settings and the scene's lights, and what the fires burning now light. Clones
/// share both.
#[derive(Resource, Debug, Clone)]
pub struct SceneSight {
    set: Arc<SightSet>,
    fire: Arc<FireLight>,
}

#[derive(Debug)]
struct SightSet {
    blockers: SightBlockers,
    settings: SightSettings,
    /// The scene's lights as lit discs: each lights its `range`.
    scene_lights: Vec<LitDisc>,
    /// The scene's lighting limits sight (D/L and darker): only then can a fire's light show
    /// anything that is not seen already.
    limited: bool,
}

impl SceneSight {
    /// Prepare the sight of `scene`: its walls and doors as they stand, on its table.
    pub fn new(scene: &Scene) -> Self {
        let bounds = TableBounds::table(scene.table.width, scene.table.height);
        let blockers = SightBlockers::new(&sight_blockers(&scene.walls, &scene.doors), bounds);
        let scene_lights =
            scene.lights.iter().map(|l| LitDisc { position: l.position.into(), radius: f64::from(l.range) }).collect();
        let limited = sight_range_in(scene.lighting, &scene.rules.lighting, &scene.rules.sight).is_some();
        let set = SightSet { blockers, settings: scene.rules.sight.clone(), scene_lights, limited };
        Self { set: Arc::new(set), fire: Arc::new(FireLight::default()) }
    }

    /// This sight as a fresh scene of the same walls, doors, lights and settings would have
    /// it: the same blockers, with no fire lit.
    pub fn unlit(&self) -> Self {
        Self { set: self.set.clone(), fire: Arc::new(FireLight::default()) }
    }

    /// The prepared blockers.
    pub fn blockers(&self) -> &SightBlockers {
        &self.set.blockers
    }

    /// The scene's `rules.sight`.
    pub fn settings(&self) -> &SightSettings {
        &self.set.settings
    }

    /// What the fires burning now light.
    pub fn fire_light(&self) -> &FireLight {
        &self.fire
    }

    /// Whether the fire light is that of `front` as it stands.
    pub fn fires_lit(&self, front: &FireFront) -> bool {
        self.fire.generation == Some(front.generation())
    }

    /// Light the fires burning in `front` now (`rules.sight.fire_light_margin_in` round them),
    /// unless that is done already. Where the scene's lighting leaves sight unlimited (SUN, LLL,
    /// DLL) a fire shows nothing not seen already, and its light is not worked out.
    pub fn light_fires(&mut self, front: &FireFront) {
        if self.fires_lit(front) {
            return;
        }
        let light = if self.set.limited {
            FireLight::of_fire_front(front, self.set.settings.fire_light_margin_in, &self.set.blockers)
        } else {
            FireLight { generation: Some(front.generation()), ..FireLight::default() }
        };
        self.fire = Arc::new(light);
    }

    /// Whether a fire burning now lights `p` ([`FireLight::lights`]; never in a scene whose
    /// lighting leaves sight unlimited, where it is not worked out).
    pub fn lit_by_fire(&self, p: Vec2) -> bool {
        self.fire.lights(table_point(p))
    }

    /// Whether `from` sees `to`: both on the table and no wall or closed door between
    /// ([`visible`]), and within `range` inches (infinite: unlimited) or lit by a fire burning now
    /// (issue #17: "a figure sees lit areas in its line of sight beyond its own range"). The
    /// scene's lights come in through `range`: the callers pass the sight the lighting at `to`
    /// gives, lights lifting it (`sim::world::sight_at`).
    pub fn visible(&self, from: Vec2, to: Vec2, range: f32) -> bool {
        let (a, b) = (table_point(from), table_point(to));
        visible(a, b, &self.set.blockers, f64::from(range))
            || (range < f32::INFINITY && self.fire.lights(b) && visible(a, b, &self.set.blockers, f64::INFINITY))
    }
}

/// What the fires burning now light (issue #17: "fires light their burning area plus a margin"):
/// every burning cell of the fire grid, and round the burning ground as far as
/// `rules.sight.fire_light_margin_in`, where the fire sees (walls and closed doors stop it, as
/// they stop a lantern's light).
///
/// A big fire burns tens of thousands of 0.1" cells, so the margin is not lit cell by cell: the
/// grid is cut into blocks of about [`FIRE_LIGHT_BLOCK_IN`] (a quarter of the margin, where that is
/// more), and each block with burning cells is one [`LitDisc`] at the middle of its burning cells'
/// bounding box, radius the margin plus half that box's diagonal (plus [`RANGE_ARC_ERROR_IN`], the
/// most a range circle's polygon falls short). So every point within the margin of a burning cell
/// that its disc's centre sees is lit, and none further beyond the margin than a block's diagonal
/// (1.42" for 1" blocks). A block whose disc would light only burning ground (every block it
/// reaches burns whole) gets none: the interior of a big fire is lit by its burning cells alone, so
/// the discs follow the fire's edge. A point is tested against the discs of the blocks within reach
/// only.
#[derive(Debug, Clone, Default)]
pub struct FireLight {
    /// The fire front's `generation` this was worked out for (`None`: none yet).
    generation: Option<u64>,
    /// The fire grid's cell side, inches.
    cell: f64,
    /// The fire grid's columns and rows.
    columns: u32,
    rows: u32,
    /// The burning cells, bit `i` of word `i / 64`, row by row from the lower edge.
    burning: Vec<u64>,
    /// How many cells burn.
    burning_cells: usize,
    /// Fire cells along a block's side.
    block_cells: u32,
    /// Blocks across and up.
    block_columns: u32,
    block_rows: u32,
    /// Each block's lit disc (an index into `discs`), [`NO_DISC`] where it has none.
    disc_of_block: Vec<u32>,
    /// The lit discs, block by block, row by row.
    discs: Vec<LitDisc>,
    /// What each disc lights: its visibility polygon to its radius.
    lit: Vec<VisibilityPolygon>,
    /// The largest disc's radius, inches.
    reach: f64,
}

impl FireLight {
    /// What the fires burning in `front` now light, `margin` inches round them.
    pub fn of_fire_front(front: &FireFront, margin: f32, blockers: &SightBlockers) -> Self {
        let mut light = match front.grid() {
            Some(grid) => Self::of_burning_cells(
                grid.cell_size_in(),
                grid.width_cells(),
                grid.height_cells(),
                grid.burning_cells(front.time()),
                margin,
                blockers,
            ),
            None => Self::default(),
        };
        light.generation = Some(front.generation());
        light
    }

    /// What the `burning` cells of a fire grid of `columns` × `rows` cells of `cell` inches light,
    /// `margin` inches round them (0 or less, or not a number: the burning cells only). Cells
    /// off the grid are left out.
    pub fn of_burning_cells(
        cell: f32,
        columns: u32,
        rows: u32,
        burning: impl IntoIterator<Item = Cell>,
        margin: f32,
        blockers: &SightBlockers,
    ) -> Self {
        let mut light = Self::default();
        if !(cell.is_finite() && cell > 0.0) || columns == 0 || rows == 0 {
            return light;
        }
        let cells = columns as usize * rows as usize;
        // A wide margin gets wider blocks: each disc's polygon grows with it.
        let block_in = FIRE_LIGHT_BLOCK_IN.max(margin / 4.0);
        let by_size = ((block_in / cell).round() as u32).max(1);
        let by_count = (cells as f64 / MAX_FIRE_LIGHT_BLOCKS as f64).sqrt().ceil() as u32;
        let k = by_size.max(by_count).max(1);
        let (block_columns, block_rows) = (columns.div_ceil(k), rows.div_ceil(k));
        let blocks = block_columns as usize * block_rows as usize;
        light.cell = f64::from(cell);
        (light.columns, light.rows) = (columns, rows);
        (light.block_cells, light.block_columns, light.block_rows) = (k, block_columns, block_rows);
        light.burning = vec![0; words_for(cells)];
        // Per block: burning cells, and their bounding box in cells (lowest x, y, highest x, y).
        let mut counts = vec![0u32; blocks];
        let mut boxes = vec![[u32::MAX, u32::MAX, 0, 0]; blocks];
        for c in burning {
            if c.x >= columns || c.y >= rows {
                continue;
            }
            let i = c.y as usize * columns as usize + c.x as usize;
            let (word, bit) = (i / 64, 1u64 << (i % 64));
            if light.burning[word] & bit != 0 {
                continue;
            }
            light.burning[word] |= bit;
            light.burning_cells += 1;
            let b = (c.y / k) as usize * block_columns as usize + (c.x / k) as usize;
            counts[b] += 1;
            let bbox = &mut boxes[b];
            *bbox = [bbox[0].min(c.x), bbox[1].min(c.y), bbox[2].max(c.x), bbox[3].max(c.y)];
        }
        light.disc_of_block = vec![NO_DISC; blocks];
        let margin = f64::from(margin);
        if light.burning_cells == 0 || margin.is_nan() || margin <= 0.0 {
            return light;
        }
        // Blocks burning whole, as a summed-area table: how many in any rectangle of blocks.
        let stride = block_columns as usize + 1;
        let mut whole = vec![0u32; stride * (block_rows as usize + 1)];
        for by in 0..block_rows {
            for bx in 0..block_columns {
                let b = by as usize * block_columns as usize + bx as usize;
                let in_block = k.min(columns - bx * k) * k.min(rows - by * k);
                let full = u32::from(counts[b] == in_block);
                let (x, y) = (bx as usize, by as usize);
                whole[(y + 1) * stride + x + 1] =
                    full + whole[y * stride + x + 1] + whole[(y + 1) * stride + x] - whole[y * stride + x];
            }
        }
        let whole_in = |x0: usize, y0: usize, x1: usize, y1: usize| {
            let at = |x: usize, y: usize| i64::from(whole[y * stride + x]);
            at(x1 + 1, y1 + 1) - at(x0, y1 + 1) - at(x1 + 1, y0) + at(x0, y0)
        };
        let size = light.cell;
        for (b, &count) in counts.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let [x0, y0, x1, y1] = boxes[b].map(f64::from);
            let (low, high) = ((x0 * size, y0 * size), ((x1 + 1.0) * size, (y1 + 1.0) * size));
            let centre = TablePoint::new((low.0 + high.0) / 2.0, (low.1 + high.1) / 2.0);
            let radius = margin + 0.5 * (high.0 - low.0).hypot(high.1 - low.1) + RANGE_ARC_ERROR_IN;
            // The blocks the disc reaches, on the grid: if every one burns whole, it lights
            // nothing the burning cells do not.
            let cell_span = |v: f64, n: u32| {
                let lo = ((v - radius) / size).floor().clamp(0.0, f64::from(n - 1)) as u32;
                let hi = ((v + radius) / size).floor().clamp(0.0, f64::from(n - 1)) as u32;
                ((lo / k) as usize, (hi / k) as usize)
            };
            let ((bx0, bx1), (by0, by1)) = (cell_span(centre.x, columns), cell_span(centre.y, rows));
            if whole_in(bx0, by0, bx1, by1) == ((bx1 - bx0 + 1) * (by1 - by0 + 1)) as i64 {
                continue;
            }
            light.disc_of_block[b] = light.discs.len() as u32;
            light.discs.push(LitDisc { position: centre, radius });
            light.reach = light.reach.max(radius);
        }
        light.lit = lit_areas(&light.discs, blockers);
        light
    }

    /// How many cells burn.
    pub fn burning_cells(&self) -> usize {
        self.burning_cells
    }

    /// Nothing burns: the fires light nothing.
    pub fn is_dark(&self) -> bool {
        self.burning_cells == 0
    }

    /// The lit discs round the burning ground (none where only burning ground would be lit).
    pub fn discs(&self) -> &[LitDisc] {
        &self.discs
    }

    /// What each disc lights.
    pub fn lit(&self) -> &[VisibilityPolygon] {
        &self.lit
    }

    /// Whether the fire cell holding `p` burns.
    pub fn is_burning(&self, p: TablePoint) -> bool {
        if self.burning_cells == 0 || !(p.x >= 0.0 && p.y >= 0.0) {
            return false;
        }
        let (x, y) = ((p.x / self.cell).floor(), (p.y / self.cell).floor());
        x < f64::from(self.columns)
            && y < f64::from(self.rows)
            && crate::scene::fog::bit(&self.burning, y as usize * self.columns as usize + x as usize)
    }

    /// Whether a fire lights `p`: it burns there, or a lit disc near it sees it within its radius.
    pub fn lights(&self, p: TablePoint) -> bool {
        if self.burning_cells == 0 || !p.is_finite() {
            return false;
        }
        if self.is_burning(p) {
            return true;
        }
        let lit_by = |i: usize| self.discs[i].position.distance(p) <= self.discs[i].radius && self.lit[i].contains(p);
        let block_in = self.cell * f64::from(self.block_cells);
        // A disc stands in its own block, so only blocks within its reach (and one more) can hold
        // one that lights `p`; where that is more blocks than there are discs, try every disc.
        let span = (self.reach / block_in).ceil() as i64 + 1;
        if (2 * span + 1).saturating_mul(2 * span + 1) as usize >= self.discs.len() {
            return (0..self.discs.len()).any(lit_by);
        }
        let (bx, by) = ((p.x / block_in).floor() as i64, (p.y / block_in).floor() as i64);
        let (columns, rows) = (i64::from(self.block_columns), i64::from(self.block_rows));
        for y in (by - span).max(0)..=(by + span).min(rows - 1) {
            for x in (bx - span).max(0)..=(bx + span).min(columns - 1) {
                let disc = self.disc_of_block[(y * columns + x) as usize];
                if disc != NO_DISC && lit_by(disc as usize) {
                    return true;
                }
            }
        }
        false
    }

    /// Set the cells of the fog `grid` whose centre a fire lights: those in a burning cell, and
    /// those the discs light (as [`FireLight::lights`] answers for the centre).
    pub fn fill_cells(&self, grid: &FogGrid, bits: &mut [u64]) {
        if self.burning_cells == 0 || bits.len() < words_for(grid.cells()) {
            return;
        }
        let fog = f64::from(grid.cell);
        let (fog_columns, fog_rows) = (grid.columns as usize, grid.rows as usize);
        // The fog cells whose centre lies in `[a, b)`.
        let centres_in = |a: f64, b: f64, n: usize| {
            let lo = ((a / fog - 0.5).ceil().max(0.0) as usize).min(n);
            let hi = ((b / fog - 0.5).ceil().max(0.0) as usize).min(n);
            lo..hi
        };
        let columns = self.columns as usize;
        for (w, &word) in self.burning.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let i = w * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let (x, y) = ((i % columns) as f64, (i / columns) as f64);
                for r in centres_in(y * self.cell, (y + 1.0) * self.cell, fog_rows) {
                    for c in centres_in(x * self.cell, (x + 1.0) * self.cell, fog_columns) {
                        let j = r * fog_columns + c;
                        bits[j / 64] |= 1 << (j % 64);
                    }
                }
            }
        }
        for polygon in &self.lit {
            fill_polygon(grid, polygon, bits);
        }
    }
}

fn table_point(p: Vec2) -> TablePoint {
    TablePoint::new(f64::from(p.x), f64::from(p.y))
}

/// One figure of the players' side and what it sees.
#[derive(Debug, Clone)]
pub struct Viewer {
    /// The figure's scene name.
    pub name: String,
    /// Where it stands.
    pub position: Vec2,
    /// What it sees by itself, to its own range.
    pub own: VisibilityPolygon,
    /// Its whole line of sight, where its own range is limited and something is lit.
    pub line_of_sight: Option<VisibilityPolygon>,
}

/// What the players' side sees now: each figure's sight, the lit areas, and the cells of the
/// fog grid seen (a cell is seen where its centre is).
#[derive(Resource, Debug, Clone)]
pub struct PartySight {
    /// The fog grid the `seen` cells are on.
    pub grid: FogGrid,
    /// The players' figures that see, in scene order.
    pub viewers: Vec<Viewer>,
    /// What each light lights (the scene's lights, then carried lights in scene order); what
    /// fires light is [`PartySight::fire_light`].
    pub lit: Vec<VisibilityPolygon>,
    /// The cells seen, bit `i` of word `i / 64`, row by row from the lower edge.
    pub seen: Vec<u64>,
    /// What the fires burning at the end of the move light.
    fire: Arc<FireLight>,
    /// The blockers and own range the viewers' polygons were made with: a viewer standing where
    /// it stood then, among the same blockers, sees the same ([`party_sight_after`]).
    made_with: Option<(Arc<SightSet>, f64)>,
}

impl Default for PartySight {
    fn default() -> Self {
        let grid = FogGrid::for_table(1.0, 1.0);
        let seen = vec![0; words_for(grid.cells())];
        Self { grid, viewers: Vec::new(), lit: Vec::new(), seen, fire: Arc::new(FireLight::default()), made_with: None }
    }
}

impl PartySight {
    /// Whether some figure of the players' side sees `p`: within its own sight, or in its line
    /// of sight and lit (by a light or a fire).
    pub fn sees(&self, p: Vec2) -> bool {
        let p = table_point(p);
        self.viewers.iter().any(|v| {
            v.own.contains(p)
                || v.line_of_sight.as_ref().is_some_and(|los| {
                    los.contains(p) && (self.lit.iter().any(|l| l.contains(p)) || self.fire.lights(p))
                })
        })
    }

    /// What the fires burning at the end of the move light.
    pub fn fire_light(&self) -> &FireLight {
        &self.fire
    }

    /// Whether the cell `i` of the grid is seen.
    pub fn cell_seen(&self, i: usize) -> bool {
        crate::scene::fog::bit(&self.seen, i)
    }
}

/// A figure as sight needs it: its name and side borrowed from the world while it is looked
/// at each move (a crowd of thousands would copy both every move).
#[derive(Debug, Clone)]
pub struct Looker<'a> {
    /// Its scene name.
    pub name: Cow<'a, str>,
    /// Its side.
    pub side: Cow<'a, str>,
    /// Where it stands.
    pub position: Vec2,
    /// The light it carries.
    pub light: Option<CarriedLight>,
    /// Whether it can look: not dead, apparently dead, unconscious, left for dead or out of action.
    pub awake: bool,
}

/// Whether a figure with `conditions` can look about.
fn can_look(conditions: &[crate::scene::Condition]) -> bool {
    !conditions.iter().any(|c| {
        matches!(
            c.kind,
            ConditionKind::Dead
                | ConditionKind::ApparentlyDead
                | ConditionKind::Unconscious
                | ConditionKind::LeftForDead
                | ConditionKind::OutOfAction
        )
    })
}

/// What the players' side sees: each awake figure of [`PLAYERS_SIDE`] sees its visibility
/// polygon to `own_range` inches (infinite: unlimited), and lit areas (the scene's lights, every
/// awake figure's carried light, whatever its side, and the fires burning: `sight`'s
/// [`FireLight`]) in its line of sight beyond that.
pub fn party_sight(lookers: &[Looker], own_range: f64, sight: &SceneSight, grid: FogGrid) -> PartySight {
    party_sight_after(lookers, own_range, sight, grid, None)
}

/// How far on among the viewers before [`party_sight_after`] looks for a viewer now.
const VIEWERS_LOOKED_AHEAD: usize = 8;

/// [`party_sight`], taking the polygons of `before` (what the side saw last) for each viewer
/// that stands where it stood then, with the same blockers and own range: the same polygons,
/// not worked out again (a crowd mostly standing still).
pub fn party_sight_after(
    lookers: &[Looker],
    own_range: f64,
    sight: &SceneSight,
    grid: FogGrid,
    before: Option<PartySight>,
) -> PartySight {
    let settings = sight.settings();
    let mut discs = sight.set.scene_lights.clone();
    discs.extend(lookers.iter().filter(|l| l.awake).filter_map(|l| {
        l.light.map(|light| LitDisc {
            position: table_point(l.position),
            radius: f64::from(settings.light_radius_in(light)),
        })
    }));
    let lit = lit_areas(&discs, sight.blockers());
    let fire = Arc::clone(&sight.fire);
    // As `geometry::seen_area`, with the fires' light counted as a light.
    let anything_lit = !lit.is_empty() || !fire.is_dark();
    let wants_line_of_sight = own_range.is_finite() && anything_lit;
    // The viewers before, if their polygons were made with these blockers and this range; in
    // scene order, as the viewers now are.
    let mut before = before
        .filter(|b| {
            b.made_with
                .as_ref()
                .is_some_and(|(set, range)| Arc::ptr_eq(set, &sight.set) && range.to_bits() == own_range.to_bits())
        })
        .map_or_else(Vec::new, |b| b.viewers.into_iter().map(Some).collect::<Vec<_>>());
    let mut next_before = 0;
    let viewers: Vec<Viewer> = lookers
        .iter()
        .filter(|l| l.awake && l.side == PLAYERS_SIDE)
        .map(|l| {
            // The same figure before: viewers drop out and join, but keep their order, so it is
            // one of the next few there (those passed over have dropped out).
            let ahead = before.len().min(next_before + VIEWERS_LOOKED_AHEAD);
            let same = (next_before..ahead).find(|&k| before[k].as_ref().is_some_and(|v| v.name == *l.name));
            let same = same.and_then(|k| {
                next_before = k + 1;
                before[k].take()
            });
            // Its polygons depend only on where it stands.
            let origin = table_point(l.position);
            let (name, own, line_of_sight_before) = match same.filter(|v| v.position == l.position) {
                Some(v) => (v.name, v.own, v.line_of_sight),
                None => (l.name.to_string(), visibility_polygon(origin, sight.blockers(), own_range), None),
            };
            let line_of_sight = wants_line_of_sight.then(|| {
                line_of_sight_before.unwrap_or_else(|| visibility_polygon(origin, sight.blockers(), f64::INFINITY))
            });
            Viewer { name, position: l.position, own, line_of_sight }
        })
        .collect();
    let words = words_for(grid.cells());
    let mut seen = vec![0u64; words];
    if !viewers.is_empty() {
        let mut lit_cells = vec![0u64; words];
        for l in &lit {
            fill_polygon(&grid, l, &mut lit_cells);
        }
        fire.fill_cells(&grid, &mut lit_cells);
        let mut scratch = vec![0u64; words];
        // Rows all seen, and rows whose lit cells are all seen.
        let (mut all_seen, mut lit_seen) = (RowsDone::new(grid.rows as usize), RowsDone::new(grid.rows as usize));
        for v in &viewers {
            // A crowd on an open table sees what the first of it saw: a polygon whose rows are
            // seen already adds nothing, and is not filled.
            if !rows_seen(&grid, &v.own, &seen, None, &mut all_seen) {
                fill_polygon(&grid, &v.own, &mut seen);
            }
            if let Some(los) =
                v.line_of_sight.as_ref().filter(|los| !rows_seen(&grid, los, &seen, Some(&lit_cells), &mut lit_seen))
            {
                scratch.fill(0);
                fill_polygon(&grid, los, &mut scratch);
                for ((s, l), x) in seen.iter_mut().zip(&lit_cells).zip(&scratch) {
                    *s |= l & x;
                }
            }
        }
    }
    PartySight { grid, viewers, lit, seen, fire, made_with: Some((Arc::clone(&sight.set), own_range)) }
}

/// Rows found so by [`rows_seen`], and the span of rows not yet found so (every row outside it
/// is): a crowd's thousands of polygons over rows all seen are answered without a look at each.
struct RowsDone {
    done: Vec<bool>,
    /// The rows not yet done lie in `undone_from..undone_to`.
    undone_from: usize,
    undone_to: usize,
}

impl RowsDone {
    fn new(rows: usize) -> Self {
        Self { done: vec![false; rows], undone_from: 0, undone_to: rows }
    }

    fn mark(&mut self, row: usize) {
        self.done[row] = true;
        while self.undone_from < self.undone_to && self.done[self.undone_from] {
            self.undone_from += 1;
        }
        while self.undone_to > self.undone_from && self.done[self.undone_to - 1] {
            self.undone_to -= 1;
        }
    }
}

/// Whether every cell in the rows `polygon` spans is set in `seen`, or every cell set in `lit`
/// there: filling it (and, with `lit`, keeping only the lit cells) would set nothing new.
/// `done` marks the rows found so already: `seen` only gains cells and `lit` is fixed, so they
/// stay so, and a crowd's polygons over the same rows look at each row's words once.
fn rows_seen(
    grid: &FogGrid,
    polygon: &VisibilityPolygon,
    seen: &[u64],
    lit: Option<&[u64]>,
    done: &mut RowsDone,
) -> bool {
    let Some((first, last)) = polygon_rows(grid, polygon) else { return true };
    let columns = grid.columns as usize;
    if (last + 1) * columns > seen.len() * 64 || lit.is_some_and(|l| l.len() < seen.len()) || done.done.len() <= last {
        return false;
    }
    for row in first.max(done.undone_from)..(last + 1).min(done.undone_to) {
        if done.done[row] {
            continue;
        }
        let (mut i, to) = (row * columns, (row + 1) * columns);
        while i < to {
            let (word, at) = (i / 64, i % 64);
            let n = (64 - at).min(to - i);
            let mask = if n == 64 { u64::MAX } else { ((1u64 << n) - 1) << at };
            let wanted = lit.map_or(mask, |l| l[word] & mask);
            if seen[word] & wanted != wanted {
                return false;
            }
            i += n;
        }
        done.mark(row);
    }
    true
}

/// The rows whose centre line `polygon` spans, first and last; `None` for none (or fewer than
/// three corners).
fn polygon_rows(grid: &FogGrid, polygon: &VisibilityPolygon) -> Option<(usize, usize)> {
    let v = &polygon.vertices;
    if v.len() < 3 {
        return None;
    }
    let cell = f64::from(grid.cell);
    let (min_y, max_y) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p.y), hi.max(p.y)));
    let first = (min_y / cell - 0.5).ceil().max(0.0);
    let last = (max_y / cell - 0.5).floor().min(f64::from(grid.rows) - 1.0);
    if last.is_nan() || last < first {
        return None;
    }
    Some((first as usize, last as usize))
}

/// Set the bits `from..to`.
fn set_span(bits: &mut [u64], from: usize, to: usize) {
    let mut i = from;
    while i < to {
        let (word, at) = (i / 64, i % 64);
        let n = (64 - at).min(to - i);
        let mask = if n == 64 { u64::MAX } else { ((1u64 << n) - 1) << at };
        bits[word] |= mask;
        i += n;
    }
}

/// Set the cells of `grid` whose centre lies inside `polygon` (even-odd, a scanline a row):
/// each edge counts for the rows whose centre line it spans, half-open, so a corner counts once.
pub fn fill_polygon(grid: &FogGrid, polygon: &VisibilityPolygon, bits: &mut [u64]) {
    let v = &polygon.vertices;
    if bits.len() < words_for(grid.cells()) {
        return;
    }
    let Some((first, last)) = polygon_rows(grid, polygon) else { return };
    let cell = f64::from(grid.cell);
    // Every (row, x) where an edge crosses a row's centre line, in one list: one allocation a
    // polygon, not one a row (a crowd of viewers filled thousands of polygons a move).
    let mut crossings: Vec<(usize, f64)> = Vec::with_capacity(2 * (last - first + 1));
    let mut j = v.len() - 1;
    for i in 0..v.len() {
        let (a, b) = (v[j], v[i]);
        j = i;
        if a.y == b.y || !a.is_finite() || !b.is_finite() {
            continue;
        }
        let (lo, hi) = if a.y < b.y { (a, b) } else { (b, a) };
        let r0 = (lo.y / cell - 0.5).ceil().max(first as f64) as usize;
        let r1 = (hi.y / cell - 0.5).ceil().min(last as f64 + 1.0).max(0.0) as usize;
        for r in r0..r1 {
            let y = (r as f64 + 0.5) * cell;
            crossings.push((r, lo.x + (y - lo.y) * (hi.x - lo.x) / (hi.y - lo.y)));
        }
    }
    crossings.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let columns = grid.columns as usize;
    for row_crossings in crossings.chunk_by(|a, b| a.0 == b.0) {
        let row = row_crossings[0].0 * columns;
        for pair in row_crossings.chunks_exact(2) {
            let c0 = (pair[0].1 / cell - 0.5).ceil().max(0.0);
            let c1 = (pair[1].1 / cell - 0.5).ceil().min(columns as f64);
            if c1 > c0 {
                set_span(bits, row + c0 as usize, row + c1 as usize);
            }
        }
    }
}

/// The cells the players' side has explored: every cell it has seen at the end of a move, and
/// what the GM revealed by hand, less what the GM hid; and whether the GM has the fog of war
/// switched on for the projector. Saved as the scene's `fog`.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct ExploredFog {
    grid: FogGrid,
    bits: Vec<u64>,
    on: bool,
}

impl ExploredFog {
    /// Nothing explored on `grid`, the fog switched off.
    pub fn new(grid: FogGrid) -> Self {
        Self { grid, bits: vec![0; words_for(grid.cells())], on: false }
    }

    /// The scene's saved fog, or nothing explored and the fog off where it has none. Explored
    /// cells the scene check would refuse (another grid, bad text) are read as nothing explored.
    pub fn from_scene(scene: &Scene) -> Self {
        let grid = FogGrid::for_table(scene.table.width, scene.table.height);
        let mut fog = Self::new(grid);
        fog.on = scene.fog.as_ref().is_some_and(|state| state.on);
        if let Some(state) = &scene.fog
            && (state.columns, state.rows) == (grid.columns, grid.rows)
            && let Ok(bits) = decode_explored(&state.explored, grid.cells())
        {
            fog.bits = bits;
        }
        fog
    }

    /// Whether the fog of war is switched on for the projector.
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Switch the fog of war on or off for the projector.
    pub fn set_on(&mut self, on: bool) {
        self.on = on;
    }

    /// The grid.
    pub fn grid(&self) -> FogGrid {
        self.grid
    }

    /// The explored cells, bit `i` of word `i / 64`.
    pub fn bits(&self) -> &[u64] {
        &self.bits
    }

    /// Whether cell `i` is explored.
    pub fn is_explored(&self, i: usize) -> bool {
        crate::scene::fog::bit(&self.bits, i)
    }

    /// How many cells are explored.
    pub fn explored_cells(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Add the `seen` cells (on the same grid); whether any was new.
    pub fn explore(&mut self, seen: &[u64]) -> bool {
        let mut changed = false;
        for (e, s) in self.bits.iter_mut().zip(seen) {
            changed |= s & !*e != 0;
            *e |= s;
        }
        changed
    }

    /// Mark the cells whose centre lies in the rectangle between `a` and `b` explored (or not).
    pub fn set_rect(&mut self, a: Vec2, b: Vec2, explored: bool) {
        let (min, max) = (a.min(b), a.max(b));
        self.set_where(explored, |c| c.cmpge(min).all() && c.cmple(max).all());
    }

    /// Mark the cells whose centre lies within `radius` of `centre` explored (or not).
    pub fn set_disc(&mut self, centre: Vec2, radius: f32, explored: bool) {
        self.set_where(explored, |c| c.distance(centre) <= radius);
    }

    fn set_where(&mut self, explored: bool, inside: impl Fn(Vec2) -> bool) {
        let columns = self.grid.columns as usize;
        for i in 0..self.grid.cells() {
            let centre = (Vec2::new((i % columns) as f32, (i / columns) as f32) + 0.5) * self.grid.cell;
            if inside(centre) {
                let (word, bit) = (i / 64, 1u64 << (i % 64));
                if explored {
                    self.bits[word] |= bit;
                } else {
                    self.bits[word] &= !bit;
                }
            }
        }
    }

    /// Nothing explored any more.
    pub fn clear(&mut self) {
        self.bits.fill(0);
    }

    /// The fog as the scene saves it; `None` while nothing is explored and the fog is off.
    pub fn state(&self) -> Option<FogState> {
        (self.on || self.explored_cells() > 0).then(|| FogState {
            columns: self.grid.columns,
            rows: self.grid.rows,
            explored: encode_explored(&self.bits, self.grid.cells()),
            on: self.on,
        })
    }
}

/// What sight reads of each figure.
type LookerData = (&'static SceneOrder, &'static Figure, &'static TablePosition, Option<&'static Conditions>);

/// The figures as sight needs them, in scene order.
fn lookers<'w>(query: &mut QueryState<LookerData>, world: &'w World) -> Vec<Looker<'w>> {
    let mut figures: Vec<(SceneOrder, Looker)> = query
        .iter(world)
        .map(|(order, figure, position, conditions)| {
            let f = &figure.0;
            let awake = can_look(conditions.map_or(&f.conditions[..], |c| &c.0[..]));
            let (name, side) = (Cow::Borrowed(f.name.as_str()), Cow::Borrowed(f.side.as_str()));
            (*order, Looker { name, side, position: position.0, light: f.light, awake })
        })
        .collect();
    figures.sort_by_key(|(order, _)| *order);
    figures.into_iter().map(|(_, l)| l).collect()
}

/// What the players' side sees in the world as it stands.
fn party_sight_now(world: &World, query: &mut QueryState<LookerData>, before: Option<PartySight>) -> PartySight {
    let Some(sight) = world.get_resource::<SceneSight>() else { return PartySight::default() };
    let grid = world.get_resource::<ExploredFog>().map_or_else(|| PartySight::default().grid, |f| f.grid);
    let lighting = world.get_resource::<SceneLighting>().map(|l| l.0).unwrap_or_default();
    let lighting_settings = world.get_resource::<Lights>().map(|l| l.1.clone()).unwrap_or_default();
    let own_range = sight_range_in(lighting, &lighting_settings, sight.settings()).map_or(f64::INFINITY, f64::from);
    let lookers = lookers(query, world);
    party_sight_after(&lookers, own_range, sight, grid, before)
}

/// A run no one watches (a play-test): what the players' side sees and the fog it explores are
/// not worked out each move. No rule reads them (the rules ask [`SceneSight::visible`]); only
/// the projector and a saved scene's `fog` do.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct UnwatchedRun;

/// Put the scene's sight in the world: the blockers, what the fires burning light (a saved
/// scene's fire is burning from the start), the saved fog, and what the players' side sees
/// where it stands (not yet added to the explored cells: a saved scene loads its fog as it was
/// saved). After the fire's spawn. `prepared`: the scene's sight made before, unlit.
pub(super) fn spawn(world: &mut World, scene: &Scene, prepared: Option<SceneSight>) {
    let mut sight = prepared.unwrap_or_else(|| SceneSight::new(scene));
    if let Some(front) = world.get_resource::<FireFront>() {
        sight.light_fires(front);
    }
    world.insert_resource(sight);
    world.insert_resource(ExploredFog::from_scene(scene));
    let party = if world.contains_resource::<UnwatchedRun>() {
        PartySight::default()
    } else {
        let mut query = world.query::<LookerData>();
        party_sight_now(world, &mut query, None)
    };
    world.insert_resource(party);
}

/// Write the explored cells and the fog's switch back into a scene.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    scene.fog = world.get_resource::<ExploredFog>().and_then(ExploredFog::state);
}

/// After the Fire set's rounds: what the fires burning at the end of the move light.
fn light_fires_after_rounds(front: Res<FireFront>, sight: Option<ResMut<SceneSight>>) {
    if let Some(mut sight) = sight
        && !sight.fires_lit(&front)
    {
        sight.light_fires(&front);
    }
}

/// The fire light brought up to the fire front, where that changed since the Fire set's rounds.
fn light_fires_now(world: &mut World) {
    let (Some(front), Some(sight)) = (world.get_resource::<FireFront>(), world.get_resource::<SceneSight>()) else {
        return;
    };
    if sight.fires_lit(front) {
        return;
    }
    let mut sight = sight.clone();
    sight.light_fires(front);
    world.insert_resource(sight);
}

/// The Sight set: what the players' side sees at the end of the move, added to the explored cells.
/// The figures' query is the system's own, built once.
fn update_party_sight(world: &mut World, query: &mut QueryState<LookerData>) {
    light_fires_now(world);
    if world.contains_resource::<UnwatchedRun>() {
        return;
    }
    // Last move's sight, replaced below: its polygons of figures that stood still are kept.
    let before = world.remove_resource::<PartySight>();
    let party = party_sight_now(world, query, before);
    if let Some(mut fog) = world.get_resource_mut::<ExploredFog>() {
        fog.explore(&party.seen);
    }
    world.insert_resource(party);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::scene_from_str;

    fn grid(w: f32, h: f32) -> FogGrid {
        FogGrid::for_table(w, h)
    }

    /// The rectangle from (1, 1) to (3, 2), seen from (2, 2).
    fn two_by_one_rectangle() -> VisibilityPolygon {
        VisibilityPolygon {
            origin: TablePoint::new(2.0, 2.0),
            vertices: vec![
                TablePoint::new(1.0, 1.0),
                TablePoint::new(3.0, 1.0),
                TablePoint::new(3.0, 2.0),
                TablePoint::new(1.0, 2.0),
            ],
        }
    }

    #[test]
    fn filling_a_rectangle_sets_the_cells_whose_centre_is_inside() {
        let g = grid(10.0, 10.0);
        let square = two_by_one_rectangle();
        let mut bits = vec![0; words_for(g.cells())];
        fill_polygon(&g, &square, &mut bits);
        let set: Vec<usize> = (0..g.cells()).filter(|&i| crate::scene::fog::bit(&bits, i)).collect();
        // Rows 2 and 3 (centres 1.25, 1.75), columns 2 to 5 (centres 1.25 to 2.75).
        let expected: Vec<usize> = [2usize, 3].iter().flat_map(|r| (2..6).map(move |c| r * 20 + c)).collect();
        assert_eq!(set, expected);
    }

    /// A polygon's rows are seen when every cell of each of them is (or every lit one), the
    /// first and last rows included.
    #[test]
    fn rows_are_seen_only_when_every_row_the_polygon_spans_is() {
        let g = grid(10.0, 10.0);
        // Rows 2 and 3 (centres 1.25, 1.75) of a 20-column grid.
        let square = two_by_one_rectangle();
        let words = words_for(g.cells());
        let rows = |rows: std::ops::Range<usize>| {
            let mut bits = vec![0; words];
            set_span(&mut bits, rows.start * 20, rows.end * 20);
            bits
        };
        assert!(rows_seen(&g, &square, &rows(2..4), None, &mut RowsDone::new(20)));
        assert!(rows_seen(&g, &square, &rows(0..20), None, &mut RowsDone::new(20)));
        assert!(!rows_seen(&g, &square, &rows(2..3), None, &mut RowsDone::new(20)), "the last row");
        assert!(!rows_seen(&g, &square, &rows(3..4), None, &mut RowsDone::new(20)), "the first row");
        assert!(!rows_seen(&g, &square, &vec![0; words], None, &mut RowsDone::new(20)));
        // Only the lit cells count with `lit`: one lit cell in row 3, seen or not.
        let mut lit = vec![0; words];
        set_span(&mut lit, 3 * 20 + 7, 3 * 20 + 8);
        assert!(rows_seen(&g, &square, &rows(3..4), Some(&lit), &mut RowsDone::new(20)));
        assert!(!rows_seen(&g, &square, &rows(2..3), Some(&lit), &mut RowsDone::new(20)));
        assert!(
            rows_seen(&g, &square, &vec![0; words], Some(&vec![0; words]), &mut RowsDone::new(20)),
            "nothing lit: nothing to add"
        );
        // Rows found seen are marked, and marked rows are not looked at again.
        let mut done = RowsDone::new(20);
        assert!(!rows_seen(&g, &square, &rows(3..4), None, &mut done));
        assert!(done.done.iter().all(|d| !d), "row 2 is not seen, and row 3 was not reached");
        assert!(rows_seen(&g, &square, &rows(2..4), None, &mut done));
        assert_eq!((0..20).filter(|&r| done.done[r]).collect::<Vec<usize>>(), [2, 3]);
        assert_eq!((done.undone_from, done.undone_to), (0, 20), "rows 0, 1 and 4 on are not done");
        // The rows done from either end narrow the span looked at.
        let mut ends = RowsDone::new(20);
        assert!(rows_seen(&g, &square, &rows(0..20), None, &mut ends));
        for row in [0, 1, 19, 18, 4, 5] {
            ends.mark(row);
        }
        assert_eq!((ends.undone_from, ends.undone_to), (6, 18));
        assert!(rows_seen(&g, &square, &vec![0; words], None, &mut ends), "rows 2 and 3 are done");
        assert!(rows_seen(&g, &square, &vec![0; words], None, &mut done), "marked rows stay seen");
        assert!(!rows_seen(&g, &square, &rows(2..4), None, &mut RowsDone::new(3)), "marks too short for the rows");
    }

    #[test]
    fn fill_agrees_with_the_polygon_test() {
        // A concave room seen from inside: every cell's centre inside iff the polygon holds it.
        let scene = scene_from_str(
            "(version: 1, table: (width: 20, height: 20),
              walls: [(name: \"L\", points: [(2, 2), (18, 2), (18, 10), (10, 10), (10, 18), (2, 18), (2, 2)])])",
        );
        let sight = SceneSight::new(&scene);
        let g = grid(20.0, 20.0);
        let poly = crate::sim::geometry::visibility_polygon(TablePoint::new(4.1, 3.7), sight.blockers(), f64::INFINITY);
        let mut bits = vec![0; words_for(g.cells())];
        fill_polygon(&g, &poly, &mut bits);
        let mut disagree = 0;
        for i in 0..g.cells() {
            let c = TablePoint::new(((i % 40) as f64 + 0.5) * 0.5, ((i / 40) as f64 + 0.5) * 0.5);
            if crate::scene::fog::bit(&bits, i) != poly.contains(c) {
                disagree += 1;
            }
        }
        assert_eq!(disagree, 0);
        assert!(poly.contains(TablePoint::new(16.0, 8.0)) && !poly.contains(TablePoint::new(14.0, 14.0)), "concave");
    }

    fn looker(name: &str, side: &str, at: (f32, f32)) -> Looker<'static> {
        let (name, side) = (Cow::Owned(name.to_string()), Cow::Owned(side.to_string()));
        Looker { name, side, position: Vec2::new(at.0, at.1), light: None, awake: true }
    }

    #[test]
    fn only_the_players_side_sees_and_lights_carry_beyond_the_own_range() {
        let scene = scene_from_str("(version: 1, table: (width: 40, height: 10))");
        let sight = SceneSight::new(&scene);
        let g = grid(40.0, 10.0);
        let enemy = looker("Orc", "raiders", (5.0, 5.0));
        let party = party_sight(std::slice::from_ref(&enemy), 2.0, &sight, g);
        assert!(party.viewers.is_empty() && !party.sees(Vec2::new(5.0, 5.0)));
        let hero = looker("Hero", PLAYERS_SIDE, (5.0, 5.0));
        let mut torch = looker("Torchbearer", "raiders", (30.0, 5.0));
        torch.light = Some(CarriedLight::Torch);
        let party = party_sight(&[hero.clone(), torch.clone()], 2.0, &sight, g);
        assert!(party.sees(Vec2::new(6.9, 5.0)) && !party.sees(Vec2::new(7.5, 5.0)), "own range 2\"");
        assert!(party.sees(Vec2::new(30.0, 5.0)) && party.sees(Vec2::new(25.5, 5.0)), "the torch's 6\"");
        assert!(!party.sees(Vec2::new(23.0, 5.0)));
        let cell = |x: f32, y: f32| g.cell_at(x, y).unwrap();
        assert!(party.cell_seen(cell(26.0, 5.0)) && !party.cell_seen(cell(15.0, 5.0)));
        // Out cold, he sees nothing.
        let asleep = Looker { awake: false, ..hero };
        assert!(party_sight(&[asleep, torch], 2.0, &sight, g).viewers.is_empty());
    }

    /// What the side sees, worked out after what it saw before, is what it sees worked out
    /// afresh, move after move: viewers standing still keep their polygons (the same ones),
    /// those that moved, joined or dropped out do not, and nothing is kept across a change of
    /// the blockers (a door opened) or of the own range.
    #[test]
    fn sight_worked_out_after_the_last_is_sight_worked_out_afresh() {
        use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};
        let walled = |door: &str| {
            scene_from_str(&format!(
                "(version: 1, table: (width: 30, height: 20), lighting: \"LLL\",
                  walls: [(name: \"w\", kind: outer, points: [(5, 5), (25, 5), (25, 15), (5, 15)])],
                  doors: [(name: \"d\", from: (25, 8), to: (25, 10), open: {door})],
                  lights: [(name: \"lamp\", position: (20, 10), range: 4)])"
            ))
        };
        let (shut, open) = (SceneSight::new(&walled("false")), SceneSight::new(&walled("true")));
        let g = grid(30.0, 20.0);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut lookers: Vec<Looker> = (0..40)
            .map(|i| {
                let mut l = looker(&format!("f{i}"), if i % 5 == 0 { "raiders" } else { PLAYERS_SIDE }, (10.0, 10.0));
                l.position = Vec2::new(rng.random_range(0.0..30.0f32), rng.random_range(0.0..20.0f32));
                l.light = (i % 7 == 1).then_some(CarriedLight::Torch);
                l
            })
            .collect();
        let mut before: Option<PartySight> = None;
        let mut kept = 0;
        for step in 0..12 {
            // A third move, some drop out (fall asleep) or wake, the rest stand still.
            for l in &mut lookers {
                match rng.random_range(0..6) {
                    0 | 1 => l.position = Vec2::new(rng.random_range(0.0..30.0f32), rng.random_range(0.0..20.0f32)),
                    2 => l.awake = !l.awake,
                    _ => {}
                }
            }
            let sight = if step % 4 == 3 { &open } else { &shut };
            let own_range = if step == 6 { f64::INFINITY } else { 2.0 };
            let old: Vec<(String, Vec2, *const TablePoint)> = before
                .iter()
                .flat_map(|b| &b.viewers)
                .map(|v| (v.name.clone(), v.position, v.own.vertices.as_ptr()))
                .collect();
            let after = party_sight_after(&lookers, own_range, sight, g, before.take());
            let fresh = party_sight(&lookers, own_range, sight, g);
            assert_eq!(after.seen, fresh.seen, "step {step}");
            assert_eq!(after.viewers.len(), fresh.viewers.len());
            for (a, f) in after.viewers.iter().zip(&fresh.viewers) {
                assert_eq!((&a.name, a.position), (&f.name, f.position), "step {step}");
                assert_eq!(a.own.vertices, f.own.vertices, "step {step} {}", a.name);
                assert_eq!(
                    a.line_of_sight.as_ref().map(|p| &p.vertices),
                    f.line_of_sight.as_ref().map(|p| &p.vertices),
                    "step {step} {}",
                    a.name
                );
                kept += usize::from(old.iter().any(|o| o.2 == a.own.vertices.as_ptr() && !a.own.vertices.is_empty()));
            }
            before = Some(after);
        }
        assert!(kept > 50, "polygons of viewers standing still are kept: {kept}");
    }

    /// Skipping the polygons whose rows are seen already changes nothing: the party sees what
    /// filling every viewer's polygons sees, in a walled room with lights and on an open table,
    /// with crowds on one spot and viewers apart, at a short own range and an unlimited one.
    #[test]
    fn skipping_polygons_seen_already_sees_what_filling_them_all_does() {
        use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};
        let room = scene_from_str(
            "(version: 1, table: (width: 30, height: 20), lighting: \"LLL\",
              walls: [(name: \"w\", kind: outer, points: [(5, 5), (25, 5), (25, 15), (5, 15)]),
                      (name: \"screen\", kind: outer, points: [(12, 8), (12, 13)])],
              lights: [(name: \"lamp\", position: (20, 10), range: 4)])",
        );
        let open = scene_from_str("(version: 1, table: (width: 30, height: 20))");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for (k, scene) in [&room, &open, &room, &open].into_iter().enumerate() {
            let sight = SceneSight::new(scene);
            let g = grid(30.0, 20.0);
            let mut lookers: Vec<Looker> =
                (0..6).map(|i| looker(&format!("crowd {i}"), PLAYERS_SIDE, (8.0, 9.0))).collect();
            for i in 0..12 {
                let at = (rng.random_range(0.0..30.0f32), rng.random_range(0.0..20.0f32));
                let mut l = looker(&format!("f{i}"), if i % 3 == 0 { "raiders" } else { PLAYERS_SIDE }, at);
                l.light = (i % 4 == 1).then_some(CarriedLight::Torch);
                lookers.push(l);
            }
            let own_range = if k < 2 { 2.0 } else { f64::INFINITY };
            let party = party_sight(&lookers, own_range, &sight, g);
            let words = words_for(g.cells());
            let mut lit = vec![0u64; words];
            for l in &party.lit {
                fill_polygon(&g, l, &mut lit);
            }
            party.fire.fill_cells(&g, &mut lit);
            let mut seen = vec![0u64; words];
            for v in &party.viewers {
                fill_polygon(&g, &v.own, &mut seen);
                if let Some(los) = &v.line_of_sight {
                    let mut line = vec![0u64; words];
                    fill_polygon(&g, los, &mut line);
                    seen.iter_mut().zip(&lit).zip(&line).for_each(|((s, l), x)| *s |= l & x);
                }
            }
            assert_eq!(party.seen, seen, "case {k}");
            assert!(seen.iter().any(|&w| w != 0) && seen.iter().any(|&w| w != u64::MAX), "case {k} sees some, not all");
        }
    }

    #[test]
    fn explored_cells_accumulate_and_round_trip() {
        let g = grid(10.0, 4.0);
        let mut fog = ExploredFog::new(g);
        assert_eq!(fog.state(), None, "nothing explored: nothing saved");
        fog.set_rect(Vec2::new(0.0, 0.0), Vec2::new(2.0, 2.0), true);
        assert_eq!(fog.explored_cells(), 16);
        let mut seen = vec![0; words_for(g.cells())];
        seen[0] = 1; // already explored
        assert!(!fog.explore(&seen));
        seen[1] = 1;
        assert!(fog.explore(&seen));
        fog.set_disc(Vec2::new(1.0, 1.0), 0.4, false);
        assert_eq!(fog.explored_cells(), 13);
        let mut scene = scene_from_str("(version: 1, table: (width: 10, height: 4))");
        scene.fog = fog.state();
        assert_eq!(ExploredFog::from_scene(&scene), fog);
        assert!(crate::scene::load::validate(&scene).is_empty());
        fog.clear();
        assert_eq!(fog.state(), None);
        // The switch is saved, with nothing explored too, and read back.
        fog.set_on(true);
        let state = fog.state().expect("the fog switched on is saved");
        assert!(state.on);
        assert!(decode_explored(&state.explored, g.cells()).expect("decodes").iter().all(|&w| w == 0));
        scene.fog = Some(state);
        let loaded = ExploredFog::from_scene(&scene);
        assert!(loaded.is_on() && loaded.explored_cells() == 0);
        assert_eq!(loaded, fog);
        assert!(crate::scene::load::validate(&scene).is_empty());
        fog.set_on(false);
        assert_eq!(fog.state(), None, "off and nothing explored: nothing saved");
    }

    /// The fire cells (0.1") of the rectangle from `(x0, y0)` to `(x1, y1)` inches.
    fn cells_in(x0: u32, y0: u32, x1: u32, y1: u32) -> Vec<Cell> {
        (y0 * 10..y1 * 10).flat_map(|y| (x0 * 10..x1 * 10).map(move |x| Cell { x, y })).collect()
    }

    #[test]
    fn a_burning_patch_lights_its_margin_as_far_as_it_sees() {
        // A 1" patch burning from (10, 4) to (11, 5), one block, on a 30" x 10" table (0.1" fire
        // cells); a wall along x = 13. Margin 3": the disc stands at (10.5, 4.5), radius
        // 3 + 0.5·√2 + 0.01 = 3.717".
        let scene = scene_from_str(
            "(version: 1, table: (width: 30, height: 10), walls: [(name: \"w\", points: [(13, 0), (13, 10)])])",
        );
        let sight = SceneSight::new(&scene);
        let light = FireLight::of_burning_cells(0.1, 300, 100, cells_in(10, 4, 11, 5), 3.0, sight.blockers());
        assert_eq!(light.burning_cells(), 100);
        assert_eq!(light.discs().len(), 1);
        let lit = |x: f64, y: f64| light.lights(TablePoint::new(x, y));
        assert!(light.is_burning(TablePoint::new(10.5, 4.5)) && lit(10.5, 4.5), "the burning ground");
        assert!(!light.is_burning(TablePoint::new(11.05, 4.5)));
        for (x, y, expected, why) in [
            (7.05, 4.5, true, "2.95\" west of it"),
            (6.7, 4.5, false, "3.3\" west: 3.8\" from the disc's centre"),
            (10.5, 7.9, true, "2.9\" north"),
            (10.5, 8.3, false, "3.3\" north"),
            (12.9, 4.5, true, "before the wall"),
            (13.5, 4.5, false, "behind the wall, 2.5\" from the fire"),
        ] {
            assert_eq!(lit(x, y), expected, "{why}");
        }
        assert!(!lit(f64::NAN, 4.5) && !lit(-1.0, 4.5));
        // No margin: the burning ground only.
        let bare = FireLight::of_burning_cells(0.1, 300, 100, cells_in(10, 4, 11, 5), 0.0, sight.blockers());
        assert!(bare.discs().is_empty() && bare.lights(TablePoint::new(10.5, 4.5)));
        assert!(!bare.lights(TablePoint::new(11.5, 4.5)));
        // Nothing burning lights nothing; cells off the grid are left out.
        let none = FireLight::of_burning_cells(0.1, 300, 100, [Cell { x: 300, y: 5 }], 3.0, sight.blockers());
        assert!(none.is_dark() && !none.lights(TablePoint::new(29.95, 0.55)));
    }

    #[test]
    fn a_big_fire_is_lit_by_discs_along_its_edge_only() {
        // 60" x 36" burning, from (6, 6) to (66, 42), on a 72" x 48" table: 216,000 cells in
        // 2,160 blocks of 1". A block's disc (radius 3.717") reaches the blocks 4 each way, so it
        // is left out where all of those burn whole: blocks 10 to 61 across (52) and 10 to 37 up
        // (28), 1,456 of them; 2,160 − 1,456 = 704 discs remain.
        let blockers = SightBlockers::new(&[], TableBounds::table(72.0, 48.0));
        let light = FireLight::of_burning_cells(0.1, 720, 480, cells_in(6, 6, 66, 42), 3.0, &blockers);
        assert_eq!(light.burning_cells(), 216_000);
        assert_eq!(light.discs().len(), 704);
        // Against the distance to the burning rectangle: lit within the margin, dark beyond
        // the margin and what a whole block's disc adds along its side (3.717 − 0.5 = 3.217").
        let distance = |x: f64, y: f64| (6.0 - x).max(x - 66.0).max(0.0).hypot((6.0 - y).max(y - 42.0).max(0.0));
        let (mut near, mut far) = (0, 0);
        for i in 0..136 {
            for j in 0..91 {
                let (x, y) = (0.2 + 0.53 * f64::from(i), 0.2 + 0.53 * f64::from(j));
                let d = distance(x, y);
                if d <= 3.0 {
                    assert!(light.lights(TablePoint::new(x, y)), "({x}, {y}), {d}\" from the fire, is dark");
                    near += 1;
                } else if d > 3.25 {
                    assert!(!light.lights(TablePoint::new(x, y)), "({x}, {y}), {d}\" from the fire, is lit");
                    far += 1;
                }
            }
        }
        assert!(near > 8_000 && far > 1_000, "{near} near, {far} far");
        // The fog's cells agree with the point test at their centres.
        let g = grid(72.0, 48.0);
        let mut bits = vec![0; words_for(g.cells())];
        light.fill_cells(&g, &mut bits);
        let columns = g.columns as usize;
        let disagree = (0..g.cells())
            .filter(|&i| {
                let c = TablePoint::new(((i % columns) as f64 + 0.5) * 0.5, ((i / columns) as f64 + 0.5) * 0.5);
                crate::scene::fog::bit(&bits, i) != light.lights(c)
            })
            .count();
        assert_eq!(disagree, 0);
    }

    #[test]
    fn the_party_sees_what_a_fire_lights_in_its_line_of_sight() {
        // Pitch black (2"), a hero at (5, 5), a patch burning from (14, 4) to (15, 6) (two blocks,
        // discs at (14.5, 4.5) and (14.5, 5.5), 3.717"); a wall along y = 8 from x = 10 to 20,
        // which the fire's light does not pass, and one along x = 8 up to y = 4, which hides a
        // lit spot from the hero.
        let scene = scene_from_str(
            "(version: 1, table: (width: 30, height: 12), walls: [
              (name: \"north\", points: [(10, 8), (20, 8)]), (name: \"west\", points: [(8, 0), (8, 4)])])",
        );
        let mut sight = SceneSight::new(&scene);
        let hero = looker("Hero", PLAYERS_SIDE, (5.0, 5.0));
        let g = grid(30.0, 12.0);
        let dark = party_sight(std::slice::from_ref(&hero), 2.0, &sight, g);
        assert!(!dark.sees(Vec2::new(12.0, 5.0)) && dark.viewers[0].line_of_sight.is_none(), "nothing lit");
        let light = FireLight::of_burning_cells(0.1, 300, 120, cells_in(14, 4, 15, 6), 3.0, sight.blockers());
        sight.fire = Arc::new(light);
        let party = party_sight(std::slice::from_ref(&hero), 2.0, &sight, g);
        assert!(party.viewers[0].line_of_sight.is_some());
        for (x, y, expected, why) in [
            (14.5, 5.0, true, "the burning ground"),
            (12.0, 5.0, true, "lit, 7\" off"),
            (9.0, 5.0, false, "dark between"),
            (14.5, 7.5, true, "lit, before the north wall"),
            (14.5, 8.5, false, "behind the north wall: unlit, and out of his line of sight"),
            (12.5, 1.5, false, "lit, 2.9\" from the fire, but the west wall hides it from him"),
        ] {
            assert_eq!(party.sees(Vec2::new(x, y)), expected, "{why}");
            let cell = g.cell_at(x, y).expect("on the table");
            assert_eq!(party.cell_seen(cell), expected, "cell: {why}");
            assert_eq!(sight.visible(Vec2::new(5.0, 5.0), Vec2::new(x, y), 2.0), expected, "{why}");
        }
        assert!(sight.lit_by_fire(Vec2::new(12.5, 1.5)), "lit, where the west wall hides it");
        assert!(!sight.lit_by_fire(Vec2::new(14.5, 8.5)), "the north wall stops the fire's light");
    }
}
