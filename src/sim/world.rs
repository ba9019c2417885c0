//! The scene in the ECS: resources for the table, components for each entity, and the way
//! back from the world to a scene file (`--final`, save).

use super::clock::{MoveClock, SimDice};
use super::geometry::{WallIndex, WallsBetween};
use super::log::EventLog;
use crate::rules::lighting::{Lighting, LightingSettings};
use crate::scene::{self, Material, Point, Scene};
use bevy::prelude::*;
use std::collections::VecDeque;
use std::sync::Arc;

/// The scene as loaded: table, lighting, rules, and the parts of it that do not change.
#[derive(Resource, Debug, Clone)]
pub struct LoadedScene(pub Scene);

/// Table size in inches.
#[derive(Resource, Debug, Clone, Copy)]
pub struct TableSize(pub Vec2);

/// The scene's lighting level, before lights.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct SceneLighting(pub Lighting);

/// Light sources: each brightens the lighting within its range; with the scene's lighting
/// settings (`rules.lighting`: how many steps a light lifts, how far one sees in the dark).
#[derive(Resource, Debug, Clone, Default)]
pub struct Lights(pub Vec<scene::Light>, pub LightingSettings);

/// The lighting at a point: the scene's level, lifted by the brightest light in range
/// (house rules `rules.lighting`: intensity 0.5 and above lifts two steps, below one step).
pub fn lighting_at(base: Lighting, lights: &Lights, p: Vec2) -> Lighting {
    let steps = lights
        .0
        .iter()
        .filter(|l| vec2(l.position).distance(p) <= l.range)
        .map(|l| lights.1.light_steps(l.intensity))
        .max()
        .unwrap_or(0);
    base.brighter(steps)
}

/// How far one sees a thing at `p` (001 "Lighting": DDD 2", DDL `dark_sight_in`), by the
/// lighting there; unlimited (infinite) in better light.
pub fn sight_at(base: Lighting, lights: &Lights, p: Vec2) -> f32 {
    lighting_at(base, lights, p).sight_limit(&lights.1).unwrap_or(f32::INFINITY)
}

/// Terrain regions in scene order; a later region lies over an earlier one.
#[derive(Resource, Debug, Clone, Default)]
pub struct Terrain(pub Vec<scene::Region>);

impl Terrain {
    /// The material on top at `p`, if any region covers it.
    pub fn material_at(&self, p: Vec2) -> Option<Material> {
        self.0.iter().rev().find(|r| r.shape.contains((p.x, p.y))).map(|r| r.material)
    }
}

/// Walls and doors, for line checks (waking through walls, beasts stopped by walls). They do
/// not change in play: a new set is a new `Walls` ([`Walls::new`]), which indexes the walls'
/// segments once so a line check tests only the segments near it. Clones share the set.
#[derive(Resource, Debug, Clone, Default)]
pub struct Walls(Arc<WallSet>);

#[derive(Debug, Default)]
struct WallSet {
    walls: Vec<scene::Wall>,
    doors: Vec<scene::Door>,
    index: WallIndex,
}

impl Walls {
    /// The walls and doors, their segments indexed.
    pub fn new(walls: Vec<scene::Wall>, doors: Vec<scene::Door>) -> Self {
        let index = WallIndex::new(&walls);
        Self(Arc::new(WallSet { walls, doors, index }))
    }

    /// The walls, in scene order.
    pub fn walls(&self) -> &[scene::Wall] {
        &self.0.walls
    }

    /// The doors and windows, in scene order.
    pub fn doors(&self) -> &[scene::Door] {
        &self.0.doors
    }

    /// The walls' segments in a grid.
    pub fn index(&self) -> &WallIndex {
        &self.0.index
    }

    /// Whether a move from `a` to `b` is blocked, and where along it (0..=1) the first blocking
    /// wall is: [`geometry::first_wall_hit`](super::geometry::first_wall_hit), indexed.
    pub fn first_hit(&self, a: Vec2, b: Vec2) -> Option<f32> {
        self.0.index.first_hit(a, b, &self.0.doors)
    }

    /// How many walls of each kind lie between `a` and `b`:
    /// [`geometry::walls_between`](super::geometry::walls_between), indexed.
    pub fn between(&self, a: Vec2, b: Vec2) -> WallsBetween {
        self.0.index.between(a, b, &self.0.walls, &self.0.doors)
    }
}

/// An entity's position in its scene list: systems that roll dice visit entities in this
/// order, never in query order.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct SceneOrder(pub u32);

/// Position on the table, in inches.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct TablePosition(pub Vec2);

/// Facing in degrees, counter-clockwise from +x.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Facing(pub f32);

/// A figure: its sheet as the scene gave it (the parts that do not change in play). Every
/// figure sweeps a path each move, so it comes with an empty [`Swept`].
#[derive(Component, Debug, Clone)]
#[require(Swept)]
pub struct Figure(pub scene::Figure);

/// Waypoints still to walk.
#[derive(Component, Debug, Clone, Default)]
pub struct Waypoints(pub VecDeque<Vec2>);

/// Lasting effects on a figure.
#[derive(Component, Debug, Clone, Default)]
pub struct Conditions(pub Vec<scene::Condition>);

/// The ground a figure swept this move, segment by segment, and its speed in inches per
/// move: traps read this, so a runner crossing a cord springs it without stopping on it.
#[derive(Component, Debug, Clone, Default)]
pub struct Swept {
    /// Each segment walked this move, start and end, in order.
    pub segments: Vec<(Vec2, Vec2)>,
    /// The figure's move allowance this move, in inches: its speed.
    pub speed: f32,
    /// How many of the segments, from the first, ended at a waypoint that was then taken off
    /// the path: a trap that stops the figure part-way puts those back.
    pub popped: usize,
}

impl Swept {
    /// Cut the figure's move at `walked` inches along its swept path, as a trap that stops it
    /// does (a temptation entered, a stake line's loss): it stands there, and the waypoints it
    /// had reached beyond go back on its path.
    pub fn stop_at(&mut self, walked: f32, position: &mut Vec2, waypoints: &mut VecDeque<Vec2>) {
        let total: f32 = self.segments.iter().map(|(a, b)| a.distance(*b)).sum();
        if self.segments.is_empty() || walked >= total - 1e-4 {
            return;
        }
        let mut start = 0.0f32;
        let mut cut = self.segments.len() - 1;
        for (i, (a, b)) in self.segments.iter().enumerate() {
            let len = a.distance(*b);
            if walked < start + len {
                cut = i;
                break;
            }
            start += len;
        }
        let (a, b) = self.segments[cut];
        let len = a.distance(b);
        let at = if len > 0.0 { a + (b - a) * ((walked - start) / len).clamp(0.0, 1.0) } else { a };
        for j in (cut..self.popped.min(self.segments.len())).rev() {
            waypoints.push_front(self.segments[j].1);
        }
        self.segments.truncate(cut + 1);
        if let Some(last) = self.segments.last_mut() {
            last.1 = at;
        }
        self.popped = self.popped.min(cut);
        *position = at;
    }
}

/// A scene point as a vector.
pub fn vec2(p: Point) -> Vec2 {
    Vec2::new(p.0, p.1)
}

/// A vector as a scene point.
pub fn point(v: Vec2) -> Point {
    (v.x, v.y)
}

/// A figure's components, as the scene puts it on the table (and as encounters spawn monsters).
pub(super) fn figure_bundle(order: u32, f: &scene::Figure) -> impl Bundle {
    (
        Name::new(f.name.clone()),
        SceneOrder(order),
        TablePosition(vec2(f.position)),
        Facing(f.facing),
        Waypoints(f.path.iter().copied().map(vec2).collect()),
        Conditions(f.conditions.clone()),
        super::temptations::Tempting(f.temptation.clone()),
        Figure(f.clone()),
    )
}

/// Name, scene order and position: what every placed entity has.
pub fn placed_bundle(order: u32, name: &str, position: Point) -> impl Bundle {
    (Name::new(name.to_string()), SceneOrder(order), TablePosition(vec2(position)))
}

/// Put a scene into the world: resources, then one entity per scene entity. Anything a
/// previous scene spawned is removed first.
pub fn spawn_scene(world: &mut World, scene: &Scene, seed: u64) {
    let geometry =
        world.contains_resource::<super::sight::UnwatchedRun>().then(|| same_geometry(world, scene)).flatten();
    let (walls, sight) = match geometry {
        Some((walls, sight)) => (walls, Some(sight)),
        None => (Walls::new(scene.walls.clone(), scene.doors.clone()), None),
    };
    clear_scene(world);
    // The world's record of removed components is cleared by `App::update`, which a headless
    // run never calls: a play-test restarting thousands of times would keep every despawn.
    world.clear_trackers();
    // Messages a run left unread (a trap's flame, an ignition asked for, the last noises).
    clear_messages::<super::traps::TrapFlame>(world);
    clear_messages::<super::fire::IgniteRequest>(world);
    clear_messages::<super::noise::NoiseMade>(world);
    world.insert_resource(TableSize(Vec2::new(scene.table.width, scene.table.height)));
    world.insert_resource(SceneLighting(scene.lighting));
    world.insert_resource(Lights(scene.lights.clone(), scene.rules.lighting.clone()));
    world.insert_resource(Terrain(scene.terrain.clone()));
    world.insert_resource(walls);
    world.insert_resource(MoveClock {
        move_number: scene.clock.moves_played,
        round: None,
        rounds_per_move: scene.rules.rounds_per_move,
    });
    world.insert_resource(SimDice::new(seed));
    // Emptied rather than replaced: a play-test's next run logs as much again, and growing a
    // log of large events from nothing each run cost it whole copies and large allocations.
    match world.get_resource_mut::<EventLog>() {
        Some(mut log) => log.events.clear(),
        None => world.insert_resource(EventLog::default()),
    }
    for (i, f) in scene.figures.iter().enumerate() {
        world.spawn(figure_bundle(i as u32, f));
    }
    super::traps::spawn(world, scene);
    super::fire::spawn(world, scene);
    super::herds::spawn(world, scene);
    super::sleepers::spawn(world, scene);
    super::temptations::spawn(world, scene);
    super::prisoners::spawn(world, scene);
    super::trails::spawn(world, scene);
    super::magic::spawn(world, scene);
    // After herds: laid planks bridge the grids herds keep.
    super::obstacles::spawn(world, scene);
    // After the figures: sets the OSR party's pace.
    super::encounters::spawn(world, scene);
    // Last: what the players' side sees from where every figure stands.
    super::sight::spawn(world, scene, sight);
    // A play-test restarts one scene thousands of times: the copy the world holds is kept, not
    // made again each run.
    if world.get_resource::<LoadedScene>().is_none_or(|loaded| loaded.0 != *scene) {
        world.insert_resource(LoadedScene(scene.clone()));
    }
}

/// The indexed walls and the sight blockers of the scene on the table, when `scene` has the
/// same table, walls, doors, lights and lighting: a play-test restarting one scene reuses
/// them rather than indexing them again on every run (neither changes in play).
fn same_geometry(world: &World, scene: &Scene) -> Option<(Walls, super::sight::SceneSight)> {
    let old = &world.get_resource::<LoadedScene>()?.0;
    let same = old.table == scene.table
        && old.walls == scene.walls
        && old.doors == scene.doors
        && old.lights == scene.lights
        && old.lighting == scene.lighting
        && old.rules.lighting == scene.rules.lighting
        && old.rules.sight == scene.rules.sight;
    if !same {
        return None;
    }
    Some((world.get_resource::<Walls>()?.clone(), world.get_resource::<super::sight::SceneSight>()?.unlit()))
}

fn clear_messages<M: Message>(world: &mut World) {
    if let Some(mut messages) = world.get_resource_mut::<Messages<M>>() {
        messages.clear();
    }
}

/// Remove every scene entity.
pub fn clear_scene(world: &mut World) {
    let entities: Vec<Entity> = world.query_filtered::<Entity, With<SceneOrder>>().iter(world).collect();
    for e in entities {
        world.despawn(e);
    }
}

/// A query's items in scene order (the key `order` reads from each): how systems that roll
/// dice visit entities. A stable sort of the query's items, as `Query::sort` is, without the
/// query state `Query::sort` builds on every call.
pub fn in_scene_order<T>(items: impl Iterator<Item = T>, order: impl Fn(&T) -> SceneOrder) -> Vec<T> {
    let mut items: Vec<T> = items.collect();
    items.sort_by_key(|item| order(item));
    items
}

/// Entities of one kind in scene order, with a clone of their component.
pub fn sorted<C: Component + Clone>(world: &mut World) -> Vec<(SceneOrder, C, Entity)> {
    let mut v: Vec<_> =
        world.query::<(&SceneOrder, &C, Entity)>().iter(world).map(|(o, c, e)| (*o, c.clone(), e)).collect();
    v.sort_by_key(|(o, _, _)| *o);
    v
}

/// The world as a scene file: what was loaded, with everything play has changed.
pub fn snapshot_scene(world: &mut World) -> Option<Scene> {
    let mut scene = world.get_resource::<LoadedScene>()?.0.clone();
    scene.clock.moves_played = world.get_resource::<MoveClock>().map_or(0, |c| c.move_number);
    scene.seed = world.get_resource::<SimDice>().map_or(scene.seed, |d| d.seed);
    scene.figures = sorted::<Figure>(world)
        .into_iter()
        .map(|(_, Figure(mut f), e)| {
            let entity = world.entity(e);
            if let Some(p) = entity.get::<TablePosition>() {
                f.position = point(p.0);
            }
            if let Some(facing) = entity.get::<Facing>() {
                f.facing = facing.0;
            }
            if let Some(w) = entity.get::<Waypoints>() {
                f.path = w.0.iter().copied().map(point).collect();
            }
            if let Some(c) = entity.get::<Conditions>() {
                f.conditions = c.0.clone();
            }
            if let Some(t) = entity.get::<super::temptations::Tempting>() {
                f.temptation = t.0.clone();
            }
            f
        })
        .collect();
    super::traps::snapshot(world, &mut scene);
    super::fire::snapshot(world, &mut scene);
    super::herds::snapshot(world, &mut scene);
    super::sleepers::snapshot(world, &mut scene);
    super::trails::snapshot(world, &mut scene);
    super::magic::snapshot(world, &mut scene);
    super::obstacles::snapshot(world, &mut scene);
    super::encounters::snapshot(world, &mut scene);
    super::sight::snapshot(world, &mut scene);
    Some(scene)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_cut_short_puts_back_the_waypoints_beyond() {
        let mut swept = Swept {
            segments: vec![(Vec2::ZERO, Vec2::new(2.0, 0.0)), (Vec2::new(2.0, 0.0), Vec2::new(2.0, 4.0))],
            speed: 6.0,
            popped: 1,
        };
        let mut waypoints = VecDeque::from([Vec2::new(2.0, 10.0)]);
        let mut position = Vec2::new(2.0, 4.0);
        swept.stop_at(1.0, &mut position, &mut waypoints);
        assert_eq!(position, Vec2::new(1.0, 0.0));
        assert_eq!(waypoints, VecDeque::from([Vec2::new(2.0, 0.0), Vec2::new(2.0, 10.0)]));
        assert_eq!(swept.segments, vec![(Vec2::ZERO, Vec2::new(1.0, 0.0))]);
        assert_eq!(swept.popped, 0);
        // At the end of the walk: nothing changes.
        let before = swept.clone();
        swept.stop_at(5.0, &mut position, &mut waypoints);
        assert_eq!(swept.segments, before.segments);
    }
}
