//! Herds, steeds and beasts with tempers (Herds set): figures crossing cattle grids, beasts
//! freed from grids, steeds caught, herds herded, wandering or stampeding, and zone attacks.
//!
//! A herd is one entity holding every beast's position ([`Beasts`]); it moves together.
//! Rules come from `rules::herds`; its headings are compass bearings (clockwise from north),
//! the scene's are degrees counter-clockwise from +x: [`compass_from_scene`] and
//! [`scene_from_compass`] are the one place that converts. See `docs/herds.md`.

pub mod spatial;

mod catch;
mod grids;
mod movement;
mod obstacles;
mod zones;

use super::world::{Facing, Figure, SceneOrder, TablePosition, in_scene_order, placed_bundle, point, sorted, vec2};
use super::{Move, MoveSystems};
use crate::rules::herds::{HerdSettings, Horsemanship, normalize_heading};
use crate::scene::{self, GridHold, GridHoldState, Scene, Skill};
use bevy::prelude::*;
use spatial::SpatialGrid;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CattleGrids>()
        .init_resource::<FireHazards>()
        .init_resource::<BurningHazards>()
        .init_resource::<HerdRules>();
    app.add_systems(
        Move,
        (
            obstacles::fires_turn_herds.run_if(any_herd),
            // Figures cross cattle grids with or without a herd on the table.
            grids::figures_cross_cattle_grids,
            (catch::free_held_beasts, catch::catch_steeds, movement::move_herds, zones::check_zones)
                .chain()
                .run_if(any_herd),
        )
            .chain()
            .in_set(MoveSystems::Herds),
    );
}

/// Whether a herd is on the table. Its systems act on herds only, yet a table without one paid
/// for their parameters every move.
fn any_herd(herds: Query<(), With<Herd>>) -> bool {
    !herds.is_empty()
}

/// A herd as the scene gives it; `tethered` and `stampede` change in play.
#[derive(Component, Debug, Clone)]
pub struct Herd(pub scene::Herd);

/// Every beast of a herd: where it stands and whether a cattle grid holds it.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct Beasts {
    /// Where each beast stands, in table inches.
    pub positions: Vec<Vec2>,
    /// Per beast: the cattle grid's hold on it, if one has it.
    pub held: Vec<Option<GridHoldState>>,
}

impl Beasts {
    fn is_free(&self, i: usize) -> bool {
        self.held[i].is_none()
    }

    /// The centre of the herd: the mean of its beasts.
    pub fn centroid(&self) -> Vec2 {
        if self.positions.is_empty() {
            return Vec2::ZERO;
        }
        self.positions.iter().copied().sum::<Vec2>() / self.positions.len() as f32
    }

    /// The herd's position on a table `table` wide and high: its [centroid](Self::centroid),
    /// kept on the table. Beasts at a table's edge can have a mean a rounding error past it
    /// (three at y = 1.7 have a mean of 1.7000002), and the scene check refuses a herd off it.
    pub fn centre_on(&self, table: Vec2) -> Vec2 {
        self.centroid().clamp(Vec2::ZERO, table.max(Vec2::ZERO))
    }
}

/// The scene's cattle grids (they do not change in play).
#[derive(Resource, Debug, Clone, Default)]
pub struct CattleGrids(pub Vec<scene::CattleGrid>);

/// The `rules.herds` settings of the scene.
#[derive(Resource, Debug, Clone, Default)]
pub struct HerdRules(pub HerdSettings);

/// A fire as herds see it: beasts will not go within `radius` inches of `position`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FireHazard {
    /// Centre of the fire.
    pub position: Vec2,
    /// How near beasts will go, in inches.
    pub radius: f32,
    /// 001 "Fire Against people and animals": the fire's fright value, logged when it turns a herd.
    pub fright: i32,
}

/// Hook for the fire domain: fires that turn herds. Empty unless something fills it (the fire
/// systems run before the Herds set each move, so whatever they write here is seen the same
/// move). A herd whose move would enter a hazard stops short and turns away from it.
#[derive(Resource, Debug, Clone, Default)]
pub struct FireHazards(pub Vec<FireHazard>);

/// A fire burning now that frightens herds: the bounds of its burning cells and its fright
/// value. Beasts stop short of its burning cells, not of its bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BurningFire {
    /// The lower corner of the fire's bounds.
    pub min: Vec2,
    /// The upper corner of the fire's bounds.
    pub max: Vec2,
    /// 001 "Fire Against people and animals": its fright value, at least `fire_fright_threshold`.
    pub fright: i32,
}

/// The fires burning now that frighten herds (filled from the fire front each move, beside any
/// [`FireHazards`] given by hand); the front's burning cells are the obstacle.
#[derive(Resource, Debug, Clone, Default)]
pub struct BurningHazards(pub Vec<BurningFire>);

// ---------------------------------------------------------------------------------------------
// Headings
// ---------------------------------------------------------------------------------------------

/// A scene heading (degrees counter-clockwise from +x) as the rules' compass bearing (degrees
/// clockwise from north, +y): 90 (north) is bearing 0, 0 (east) is bearing 90.
pub fn compass_from_scene(scene_degrees: f32) -> f32 {
    normalize_heading(90.0 - scene_degrees)
}

/// A compass bearing as a scene heading in `0.0..360.0` (the inverse of [`compass_from_scene`]).
pub fn scene_from_compass(bearing: f32) -> f32 {
    normalize_heading(90.0 - bearing)
}

/// The unit vector a scene heading points along.
pub fn scene_direction(scene_degrees: f32) -> Vec2 {
    Vec2::from_angle(scene_degrees.to_radians())
}

/// The scene heading of a direction, in `0.0..360.0`.
fn heading_of(d: Vec2) -> f32 {
    normalize_heading(d.to_angle().to_degrees())
}

// ---------------------------------------------------------------------------------------------
// Spawning and saving
// ---------------------------------------------------------------------------------------------

fn herd_bundle(order: u32, h: &scene::Herd) -> impl Bundle {
    let mut held = vec![None; h.count as usize];
    for hold in &h.on_grid {
        if let Some(slot) = held.get_mut(hold.beast as usize) {
            *slot = Some(hold.state);
        }
    }
    let positions = h.beast_positions().into_iter().map(vec2).collect();
    (placed_bundle(order, &h.name, h.position), Facing(h.heading), Beasts { positions, held }, Herd(h.clone()))
}

/// Spawn the scene's herds, its cattle grids and the herd settings.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    world.insert_resource(CattleGrids(scene.cattle_grids.clone()));
    world.insert_resource(HerdRules(scene.rules.herds.clone()));
    world.insert_resource(FireHazards::default());
    world.insert_resource(BurningHazards::default());
    for (i, h) in scene.herds.iter().enumerate() {
        world.spawn(herd_bundle(i as u32, h));
    }
}

/// Write the herds back into a scene, where they are now. Beast positions are written unless
/// they are still exactly the laid-out herd, so an unplayed scene saves as it was loaded.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    scene.herds = sorted::<Herd>(world)
        .into_iter()
        .map(|(_, Herd(mut h), e)| {
            let entity = world.entity(e);
            if let Some(p) = entity.get::<TablePosition>() {
                h.position = point(p.0);
            }
            if let Some(facing) = entity.get::<Facing>() {
                h.heading = facing.0;
            }
            if let Some(beasts) = entity.get::<Beasts>() {
                let now: Vec<scene::Point> = beasts.positions.iter().copied().map(point).collect();
                h.beasts =
                    if now == scene::herds::layout_beasts(h.position, h.count, h.spacing) { Vec::new() } else { now };
                h.on_grid = beasts
                    .held
                    .iter()
                    .enumerate()
                    .filter_map(|(i, s)| s.map(|state| GridHold { beast: i as u32, state }))
                    .collect();
            }
            h
        })
        .collect();
}

// ---------------------------------------------------------------------------------------------
// What figures are, as herds see them
// ---------------------------------------------------------------------------------------------

/// A figure as the herd systems read it, after movement, borrowed from the world (they ask
/// for every figure each move).
#[derive(Debug, Clone)]
struct FigureAt<'w> {
    name: &'w str,
    side: &'w str,
    position: Vec2,
    horsemanship: Horsemanship,
    trainer_or_shepherd: bool,
    /// Under the evil eye (001 "Lay an evil eye Curse"): −1 on its catch rolls.
    cursed: bool,
}

/// 000 "Riders & Animal Trainers": riders are 1st-level animal trainers.
pub(crate) fn horsemanship(skills: &[Skill]) -> Horsemanship {
    if skills.contains(&Skill::AnimalTrainer(2)) {
        Horsemanship::SecondLevelTrainer
    } else if skills.iter().any(|s| matches!(s, Skill::Rider | Skill::AnimalTrainer(_))) {
        Horsemanship::Rider
    } else {
        Horsemanship::NonRider
    }
}

type FigureQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static SceneOrder,
        &'static Name,
        &'static Figure,
        &'static TablePosition,
        Option<&'static super::magic::Cursed>,
    ),
    Without<Herd>,
>;

fn figures_in_order<'w>(figures: &'w FigureQuery) -> Vec<FigureAt<'w>> {
    let v = in_scene_order(figures.iter(), |item| *item.0);
    v.into_iter()
        .map(|(_, name, figure, position, cursed)| {
            let horsemanship = horsemanship(&figure.0.skills);
            FigureAt {
                name: name.as_str(),
                side: figure.0.side.as_str(),
                position: position.0,
                horsemanship,
                // 000 "Herding": "Animal trainers, shepherds etc"; a rider is a 1st-level trainer.
                trainer_or_shepherd: figure.0.skills.contains(&Skill::Shepherd) || horsemanship.is_animal_trainer(),
                cursed: cursed.is_some(),
            }
        })
        .collect()
}

/// For each figure, the distance to the nearest beast of each herd within `reach`: one grid
/// over every beast, so the cost grows with the beasts near each figure, not all of them.
fn beasts_near_figures(figures: &[FigureAt<'_>], herds: &[&Beasts], reach: f32) -> Vec<Vec<(usize, f32)>> {
    let mut owners: Vec<(u32, u32)> = Vec::new();
    let mut points = Vec::new();
    for (h, beasts) in herds.iter().enumerate() {
        for (b, &p) in beasts.positions.iter().enumerate() {
            points.push(p);
            owners.push((h as u32, b as u32));
        }
    }
    let grid = SpatialGrid::from_points(&points, reach.max(1.0));
    figures
        .iter()
        .map(|f| {
            let mut nearest: Vec<(usize, f32)> = Vec::new();
            grid.for_each_near(f.position, reach, |id| {
                let (h, b) = owners[id as usize];
                let d = herds[h as usize].positions[b as usize].distance(f.position);
                if d <= reach {
                    match nearest.iter_mut().find(|(hh, _)| *hh == h as usize) {
                        Some(entry) => entry.1 = entry.1.min(d),
                        None => nearest.push((h as usize, d)),
                    }
                }
            });
            nearest.sort_by_key(|(h, _)| *h);
            nearest
        })
        .collect()
}

/// [`beasts_near_figures`] turned round: for each of `herds` herds, the figures with a beast of
/// it within reach and that beast's distance, in figure order.
fn figures_near_herds(near: &[Vec<(usize, f32)>], herds: usize) -> Vec<Vec<(usize, f32)>> {
    let mut by_herd = vec![Vec::new(); herds];
    for (f, list) in near.iter().enumerate() {
        for &(h, d) in list {
            by_herd[h].push((f, d));
        }
    }
    by_herd
}

fn herds_in_order(q: &Query<(Entity, &SceneOrder), With<Herd>>) -> Vec<Entity> {
    let mut v: Vec<_> = q.iter().map(|(e, o)| (*o, e)).collect();
    v.sort_by_key(|(o, _)| *o);
    v.into_iter().map(|(_, e)| e).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Beasts pressed against the edge of a thin table: their mean lies a rounding error past
    /// it, and the herd's position written back stays on the table.
    #[test]
    fn a_herd_at_the_table_edge_is_centred_on_the_table() {
        let table = Vec2::new(20.0, 1.7);
        let beasts = Beasts { positions: vec![Vec2::new(5.0, 1.7); 3], held: vec![None; 3] };
        assert!(beasts.centroid().y > table.y, "the mean itself rounds past the edge");
        let centre = beasts.centre_on(table);
        assert_eq!(centre, Vec2::new(5.0, 1.7));
    }

    #[test]
    fn headings_convert_between_scene_and_compass() {
        // Scene 90 (+y) is north, bearing 0; scene 0 (+x) is east, bearing 90.
        assert_eq!(compass_from_scene(90.0), 0.0);
        assert_eq!(compass_from_scene(0.0), 90.0);
        assert_eq!(compass_from_scene(180.0), 270.0);
        assert_eq!(compass_from_scene(270.0), 180.0);
        for h in [0.0f32, 17.0, 90.0, 200.0, 359.0] {
            assert!((scene_from_compass(compass_from_scene(h)) - h).abs() < 1e-4, "{h}");
        }
        // A right (clockwise) turn of 90 from north heads east, along +x.
        let east = scene_direction(scene_from_compass(compass_from_scene(90.0) + 90.0));
        assert!((east - Vec2::X).length() < 1e-5, "{east}");
        // A left turn of 90 from east heads north, along +y.
        let north = scene_direction(scene_from_compass(compass_from_scene(0.0) - 90.0));
        assert!((north - Vec2::Y).length() < 1e-5, "{north}");
    }
}
