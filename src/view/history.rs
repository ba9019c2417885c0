//! Stepping and rewinding: a snapshot of the world before every move, so the GM can go back
//! to any earlier move and play on. Dice for a move are seeded from the run seed and the move
//! number, so a replay after a rewind rolls exactly what was rolled before.

use crate::scene::Scene;
use crate::sim::world::snapshot_scene;
use crate::sim::{EventLog, SimDice};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<History>().init_resource::<Playback>().init_resource::<StepRequest>();
    app.add_systems(Update, (play, apply_requests).chain());
}

/// One saved state: the world before a move, and how long the log was then.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub scene: Scene,
    pub log_len: usize,
}

/// Snapshots, oldest first: `snapshots[i]` is the world before move `first_move + i`.
#[derive(Resource, Debug, Default)]
pub struct History {
    pub snapshots: Vec<Snapshot>,
}

/// Most snapshots kept; the oldest go first.
pub const MAX_SNAPSHOTS: usize = 2_000;

/// Play: step a move every `1 / moves_per_second` seconds.
#[derive(Resource, Debug)]
pub struct Playback {
    pub playing: bool,
    pub moves_per_second: f32,
    since: f32,
}

impl Default for Playback {
    fn default() -> Self {
        Self { playing: false, moves_per_second: 1.0, since: 0.0 }
    }
}

/// What the controls asked for this frame.
#[derive(Resource, Debug, Default)]
pub struct StepRequest {
    pub moves: u32,
    /// Go back to the world as it was before this move number.
    pub rewind_to_move: Option<u32>,
    pub reseed: Option<u64>,
}

/// Save the world, then resolve the next move.
pub fn step(world: &mut World) {
    if let Some(scene) = snapshot_scene(world) {
        let log_len = world.resource::<EventLog>().events.len();
        let mut history = world.resource_mut::<History>();
        history.snapshots.push(Snapshot { scene, log_len });
        if history.snapshots.len() > MAX_SNAPSHOTS {
            history.snapshots.remove(0);
        }
    }
    crate::sim::step_move(world);
}

/// Go back to the world as it was before move `move_number` (1-based). Returns false when
/// that move is not in the history.
pub fn rewind(world: &mut World, move_number: u32) -> bool {
    let index =
        world.resource::<History>().snapshots.iter().position(|s| s.scene.clock.moves_played + 1 == move_number);
    let Some(index) = index else { return false };
    let snapshot = {
        let mut history = world.resource_mut::<History>();
        let s = history.snapshots[index].clone();
        history.snapshots.truncate(index);
        s
    };
    let mut log = world.resource::<EventLog>().clone();
    log.events.truncate(snapshot.log_len);
    let seed = world.resource::<SimDice>().seed;
    super::respawn(world, &snapshot.scene, seed, Some(log));
    true
}

fn play(time: Res<Time>, mut playback: ResMut<Playback>, mut request: ResMut<StepRequest>) {
    if !playback.playing {
        playback.since = 0.0;
        return;
    }
    playback.since += time.delta_secs();
    let period = 1.0 / playback.moves_per_second.clamp(0.1, 60.0);
    while playback.since >= period {
        playback.since -= period;
        request.moves += 1;
    }
}

fn apply_requests(world: &mut World) {
    let (moves, rewind_to, reseed) = {
        let mut r = world.resource_mut::<StepRequest>();
        (std::mem::take(&mut r.moves), r.rewind_to_move.take(), r.reseed.take())
    };
    if let Some(m) = rewind_to {
        rewind(world, m);
        world.resource_mut::<super::files::CurrentFile>().dirty = true;
    }
    if let Some(seed) = reseed {
        // A new seed changes the moves still to come; what was rolled stays in the log.
        world.resource_mut::<SimDice>().seed = seed;
        world.resource_mut::<super::files::CurrentFile>().dirty = true;
    }
    for _ in 0..moves.min(100) {
        step(world);
    }
    if moves > 0 {
        world.resource_mut::<super::files::CurrentFile>().dirty = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::{app_with_scene, scene_from_str};
    use crate::sim::world::TablePosition;

    pub(crate) fn app() -> App {
        let scene = scene_from_str(
            "(version: 1, table: (width: 40, height: 10), figures: [(name: \"Walker\", position: (1, 5), path: [(39, 5)])])",
        );
        let mut app = app_with_scene(&scene, 3);
        app.init_resource::<History>()
            .init_resource::<super::super::SceneGeneration>()
            .insert_resource(super::super::files::CurrentFile::default());
        app
    }

    fn position(world: &mut World) -> Vec2 {
        world.query::<&TablePosition>().single(world).unwrap().0
    }

    #[test]
    fn rewind_restores_the_world_and_log_and_replays_the_same() {
        let mut app = app();
        let world = app.world_mut();
        for _ in 0..3 {
            step(world);
        }
        let after_three = world.resource::<EventLog>().to_json_lines();
        assert_eq!(world.resource::<MoveClockAlias>().move_number, 3);
        assert!(rewind(world, 2), "move 2 is in the history");
        assert_eq!(world.resource::<MoveClockAlias>().move_number, 1);
        assert_eq!(world.resource::<EventLog>().events.len(), 1);
        assert!((position(world).x - 7.0).abs() < 1e-4);
        assert_eq!(world.resource::<History>().snapshots.len(), 1);
        step(world);
        step(world);
        assert_eq!(world.resource::<EventLog>().to_json_lines(), after_three);
        assert!(!rewind(world, 9), "a move not yet played cannot be rewound to");
    }

    type MoveClockAlias = crate::sim::MoveClock;
}
