//! Sight in play (issue #17, `docs/sight.md`): what blocks sight on this table
//! ([`SceneSight`], built once when the scene is put in the world: walls and doors do not change
//! in play), what the players' side sees at the end of each move ([`PartySight`], the Sight set)
//! and the fog of war it has explored ([`ExploredFog`], saved in the scene's `fog`).
//!
//! The rules that need sight (spotting Morval traps, woken investigators, sight trackers) ask
//! [`SceneSight::visible`]; the projector draws [`PartySight`] and [`ExploredFog`].

use super::geometry::{
    LitDisc, SightBlockers, TableBounds, TablePoint, VisibilityPolygon, lit_areas, seen_area, sight_blockers, visible,
};
use super::world::{Conditions, Figure, Lights, SceneLighting, SceneOrder, TablePosition};
use super::{Move, MoveSystems};
use crate::rules::sight::{CarriedLight, SightSettings, sight_range_in};
use crate::scene::fog::{FogGrid, FogState, decode_explored, encode_explored, words_for};
use crate::scene::{ConditionKind, Scene};
use bevy::prelude::*;
use std::sync::Arc;

/// The players' side, whose sight the fog of war follows: the scene's default side.
pub const PLAYERS_SIDE: &str = "party";

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Move, update_party_sight.in_set(MoveSystems::Sight));
}

/// What blocks sight on the table (walls, closed doors: [`sight_blockers`]), prepared once, with
/// the sight settings and the scene's lights. Clones share it.
#[derive(Resource, Debug, Clone)]
pub struct SceneSight(Arc<SightSet>);

#[derive(Debug)]
struct SightSet {
    blockers: SightBlockers,
    settings: SightSettings,
    /// The scene's lights as lit discs: each lights its `range`.
    scene_lights: Vec<LitDisc>,
}

impl SceneSight {
    /// Prepare the sight of `scene`: its walls and doors as they stand, on its table.
    pub fn new(scene: &Scene) -> Self {
        let bounds = TableBounds::table(scene.table.width, scene.table.height);
        let blockers = SightBlockers::new(&sight_blockers(&scene.walls, &scene.doors), bounds);
        let scene_lights =
            scene.lights.iter().map(|l| LitDisc { position: l.position.into(), radius: f64::from(l.range) }).collect();
        Self(Arc::new(SightSet { blockers, settings: scene.rules.sight.clone(), scene_lights }))
    }

    /// The prepared blockers.
    pub fn blockers(&self) -> &SightBlockers {
        &self.0.blockers
    }

    /// The scene's `rules.sight`.
    pub fn settings(&self) -> &SightSettings {
        &self.0.settings
    }

    /// Whether `from` sees `to` within `range` inches (infinite: unlimited): both on the table
    /// and no wall or closed door between ([`visible`]).
    pub fn visible(&self, from: Vec2, to: Vec2, range: f32) -> bool {
        visible(table_point(from), table_point(to), &self.0.blockers, f64::from(range))
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
    /// What each light lights (the scene's lights, then carried lights in scene order).
    pub lit: Vec<VisibilityPolygon>,
    /// The cells seen, bit `i` of word `i / 64`, row by row from the lower edge.
    pub seen: Vec<u64>,
}

impl Default for PartySight {
    fn default() -> Self {
        let grid = FogGrid::for_table(1.0, 1.0);
        Self { grid, viewers: Vec::new(), lit: Vec::new(), seen: vec![0; words_for(grid.cells())] }
    }
}

impl PartySight {
    /// Whether some figure of the players' side sees `p`: within its own sight, or in its line
    /// of sight and lit.
    pub fn sees(&self, p: Vec2) -> bool {
        let p = table_point(p);
        self.viewers.iter().any(|v| {
            v.own.contains(p)
                || v.line_of_sight.as_ref().is_some_and(|los| los.contains(p) && self.lit.iter().any(|l| l.contains(p)))
        })
    }

    /// Whether the cell `i` of the grid is seen.
    pub fn cell_seen(&self, i: usize) -> bool {
        crate::scene::fog::bit(&self.seen, i)
    }
}

/// A figure as sight needs it.
#[derive(Debug, Clone)]
pub struct Looker {
    /// Its scene name.
    pub name: String,
    /// Its side.
    pub side: String,
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
/// polygon to `own_range` inches (infinite: unlimited), and lit areas (the scene's lights, and
/// every awake figure's carried light, whatever its side) in its line of sight beyond that.
pub fn party_sight(lookers: &[Looker], own_range: f64, sight: &SceneSight, grid: FogGrid) -> PartySight {
    let settings = sight.settings();
    let mut discs = sight.0.scene_lights.clone();
    discs.extend(lookers.iter().filter(|l| l.awake).filter_map(|l| {
        l.light.map(|light| LitDisc {
            position: table_point(l.position),
            radius: f64::from(settings.light_radius_in(light)),
        })
    }));
    let lit = lit_areas(&discs, sight.blockers());
    let viewers: Vec<Viewer> = lookers
        .iter()
        .filter(|l| l.awake && l.side == PLAYERS_SIDE)
        .map(|l| {
            let area = seen_area(table_point(l.position), own_range, &lit, sight.blockers());
            Viewer { name: l.name.clone(), position: l.position, own: area.own, line_of_sight: area.line_of_sight }
        })
        .collect();
    let words = words_for(grid.cells());
    let mut seen = vec![0u64; words];
    if !viewers.is_empty() {
        let mut lit_cells = vec![0u64; words];
        for l in &lit {
            fill_polygon(&grid, l, &mut lit_cells);
        }
        let mut scratch = vec![0u64; words];
        for v in &viewers {
            fill_polygon(&grid, &v.own, &mut seen);
            if let Some(los) = &v.line_of_sight {
                scratch.fill(0);
                fill_polygon(&grid, los, &mut scratch);
                for ((s, l), x) in seen.iter_mut().zip(&lit_cells).zip(&scratch) {
                    *s |= l & x;
                }
            }
        }
    }
    PartySight { grid, viewers, lit, seen }
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
    if v.len() < 3 || bits.len() < words_for(grid.cells()) {
        return;
    }
    let cell = f64::from(grid.cell);
    let (min_y, max_y) = v.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p.y), hi.max(p.y)));
    let first = (min_y / cell - 0.5).ceil().max(0.0);
    let last = (max_y / cell - 0.5).floor().min(f64::from(grid.rows) - 1.0);
    if last.is_nan() || last < first {
        return;
    }
    let (first, last) = (first as usize, last as usize);
    let mut crossings: Vec<Vec<f64>> = vec![Vec::new(); last - first + 1];
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
            crossings[r - first].push(lo.x + (y - lo.y) * (hi.x - lo.x) / (hi.y - lo.y));
        }
    }
    let columns = grid.columns as usize;
    for (k, xs) in crossings.iter_mut().enumerate() {
        xs.sort_by(f64::total_cmp);
        let row = (first + k) * columns;
        for pair in xs.chunks_exact(2) {
            let c0 = (pair[0] / cell - 0.5).ceil().max(0.0);
            let c1 = (pair[1] / cell - 0.5).ceil().min(columns as f64);
            if c1 > c0 {
                set_span(bits, row + c0 as usize, row + c1 as usize);
            }
        }
    }
}

/// The cells the players' side has explored: every cell it has seen at the end of a move, and
/// what the GM revealed by hand, less what the GM hid. Saved as the scene's `fog`.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct ExploredFog {
    grid: FogGrid,
    bits: Vec<u64>,
}

impl ExploredFog {
    /// Nothing explored on `grid`.
    pub fn new(grid: FogGrid) -> Self {
        Self { grid, bits: vec![0; words_for(grid.cells())] }
    }

    /// The scene's saved fog, or nothing explored where it has none. A fog the scene check
    /// would refuse (another grid, bad text) is read as nothing explored.
    pub fn from_scene(scene: &Scene) -> Self {
        let grid = FogGrid::for_table(scene.table.width, scene.table.height);
        let mut fog = Self::new(grid);
        if let Some(state) = &scene.fog
            && (state.columns, state.rows) == (grid.columns, grid.rows)
            && let Ok(bits) = decode_explored(&state.explored, grid.cells())
        {
            fog.bits = bits;
        }
        fog
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

    /// The fog as the scene saves it; `None` while nothing is explored.
    pub fn state(&self) -> Option<FogState> {
        (self.explored_cells() > 0).then(|| FogState {
            columns: self.grid.columns,
            rows: self.grid.rows,
            explored: encode_explored(&self.bits, self.grid.cells()),
        })
    }
}

/// The figures as sight needs them, in scene order.
fn lookers(world: &mut World) -> Vec<Looker> {
    let mut figures: Vec<(SceneOrder, Looker)> = world
        .query::<(&SceneOrder, &Figure, &TablePosition, Option<&Conditions>)>()
        .iter(world)
        .map(|(order, figure, position, conditions)| {
            let f = &figure.0;
            let awake = can_look(conditions.map_or(&f.conditions[..], |c| &c.0[..]));
            (*order, Looker { name: f.name.clone(), side: f.side.clone(), position: position.0, light: f.light, awake })
        })
        .collect();
    figures.sort_by_key(|(order, _)| *order);
    figures.into_iter().map(|(_, l)| l).collect()
}

/// What the players' side sees in the world as it stands.
fn party_sight_now(world: &mut World) -> PartySight {
    let Some(sight) = world.get_resource::<SceneSight>().cloned() else { return PartySight::default() };
    let grid = world.get_resource::<ExploredFog>().map_or_else(|| PartySight::default().grid, |f| f.grid);
    let lighting = world.get_resource::<SceneLighting>().map(|l| l.0).unwrap_or_default();
    let lighting_settings = world.get_resource::<Lights>().map(|l| l.1.clone()).unwrap_or_default();
    let own_range = sight_range_in(lighting, &lighting_settings, sight.settings()).map_or(f64::INFINITY, f64::from);
    let lookers = lookers(world);
    party_sight(&lookers, own_range, &sight, grid)
}

/// Put the scene's sight in the world: the blockers, the saved fog, and what the players' side
/// sees where it stands (not yet added to the explored cells: a saved scene loads its fog as
/// it was saved).
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    world.insert_resource(SceneSight::new(scene));
    world.insert_resource(ExploredFog::from_scene(scene));
    let party = party_sight_now(world);
    world.insert_resource(party);
}

/// Write the explored cells back into a scene.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    scene.fog = world.get_resource::<ExploredFog>().and_then(ExploredFog::state);
}

/// The Sight set: what the players' side sees at the end of the move, added to the explored cells.
fn update_party_sight(world: &mut World) {
    let party = party_sight_now(world);
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

    #[test]
    fn filling_a_rectangle_sets_the_cells_whose_centre_is_inside() {
        let g = grid(10.0, 10.0);
        let square = VisibilityPolygon {
            origin: TablePoint::new(2.0, 2.0),
            vertices: vec![
                TablePoint::new(1.0, 1.0),
                TablePoint::new(3.0, 1.0),
                TablePoint::new(3.0, 2.0),
                TablePoint::new(1.0, 2.0),
            ],
        };
        let mut bits = vec![0; words_for(g.cells())];
        fill_polygon(&g, &square, &mut bits);
        let set: Vec<usize> = (0..g.cells()).filter(|&i| crate::scene::fog::bit(&bits, i)).collect();
        // Rows 2 and 3 (centres 1.25, 1.75), columns 2 to 5 (centres 1.25 to 2.75).
        let expected: Vec<usize> = [2usize, 3].iter().flat_map(|r| (2..6).map(move |c| r * 20 + c)).collect();
        assert_eq!(set, expected);
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

    fn looker(name: &str, side: &str, at: (f32, f32)) -> Looker {
        Looker { name: name.into(), side: side.into(), position: Vec2::new(at.0, at.1), light: None, awake: true }
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
    }
}
