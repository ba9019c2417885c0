//! The headless run API: what the CLI, the play-test, the tests and the benchmarks call to
//! step a scene. The library never calls the CLI; the CLI calls this.

use super::clock::{ClockFull, MoveClock, moves_after};
use super::log::EventLog;
use crate::scene::{Point, Scene};
use bevy::prelude::*;
use std::collections::BTreeMap;

/// A scene loaded into a headless world (no window, no GPU), stepped move by move.
pub struct Simulation {
    app: App,
}

impl Simulation {
    /// The simulation of `scene`, its dice seeded with `seed`.
    pub fn new(scene: &Scene, seed: u64) -> Self {
        Self { app: crate::app::headless(scene, seed) }
    }

    /// The simulation of `scene` for a run no one watches (a play-test): the same moves, events
    /// and outcomes, without working out what the players' side sees and explores each move
    /// ([`UnwatchedRun`](super::sight::UnwatchedRun)); the fog of war stays as the scene had it.
    pub fn unwatched(scene: &Scene, seed: u64) -> Self {
        let mut app = crate::app::headless(scene, seed);
        app.world_mut().insert_resource(super::sight::UnwatchedRun);
        let mut sim = Self { app };
        sim.restart(scene, seed);
        sim
    }

    /// Put `scene` back on the table with dice seeded `seed`, keeping the app and its schedules
    /// (built once, on the first move): what follows is exactly what a new simulation of the
    /// scene would do. A play-test runs its many seeds this way.
    pub fn restart(&mut self, scene: &Scene, seed: u64) {
        super::world::spawn_scene(self.app.world_mut(), scene, seed);
    }

    /// Resolve the next move; false, resolving nothing, when the clock stands at
    /// [`MAX_MOVES_PLAYED`](crate::scene::load::MAX_MOVES_PLAYED).
    pub fn step_move(&mut self) -> bool {
        super::step_move(self.app.world_mut())
    }

    /// Resolve the next `moves` moves, or as many as the clock has room for (it stops at
    /// [`MAX_MOVES_PLAYED`](crate::scene::load::MAX_MOVES_PLAYED)). A count from a user goes
    /// through [`Simulation::try_step_moves`], which says why it cannot be played instead.
    pub fn step_moves(&mut self, moves: u32) {
        for _ in 0..moves {
            if !self.step_move() {
                break;
            }
        }
    }

    /// Resolve the next `moves` moves, or none and why: they would take the clock past
    /// [`MAX_MOVES_PLAYED`](crate::scene::load::MAX_MOVES_PLAYED).
    pub fn try_step_moves(&mut self, moves: u32) -> Result<(), ClockFull> {
        moves_after(self.moves_played(), moves)?;
        self.step_moves(moves);
        Ok(())
    }

    /// Moves played so far: the scene's clock and every move resolved since.
    pub fn moves_played(&self) -> u32 {
        self.app.world().resource::<MoveClock>().move_number
    }

    /// The world, to read entities and resources.
    pub fn world(&self) -> &World {
        self.app.world()
    }

    /// The world, to change it between moves.
    pub fn world_mut(&mut self) -> &mut World {
        self.app.world_mut()
    }

    /// The app, to add systems or resources (tests that inject events).
    pub fn app_mut(&mut self) -> &mut App {
        &mut self.app
    }

    /// Every event so far.
    pub fn log(&self) -> &EventLog {
        self.app.world().resource::<EventLog>()
    }

    /// Take the log out, leaving an empty one.
    pub fn take_log(&mut self) -> EventLog {
        std::mem::take(&mut *self.app.world_mut().resource_mut::<EventLog>())
    }

    /// Where each figure stands now, by name: what a play-test judges objectives by, without
    /// the whole snapshot [`Simulation::scene_now`] makes. Reading changes nothing.
    pub fn figure_positions(&mut self) -> BTreeMap<String, Point> {
        let world = self.app.world_mut();
        world
            .query::<(&super::world::Figure, &super::world::TablePosition)>()
            .iter(world)
            .map(|(f, p)| (f.0.name.clone(), super::world::point(p.0)))
            .collect()
    }

    /// The world as a scene file now (what `--final` writes): resuming it with the same seed
    /// continues exactly as this run would.
    pub fn scene_now(&mut self) -> Option<Scene> {
        super::world::snapshot_scene(self.app.world_mut())
    }
}

/// What a run left: its event log and the scene at its end.
#[derive(Debug, Clone)]
pub struct Run {
    /// Every event of the run, in order.
    pub log: EventLog,
    /// The world after the last move, as a scene.
    pub end: Scene,
}

/// Run `scene` for `moves` moves with `seed`: the log and the end state. The run stops early
/// at the most moves a scene may play (check first with [`moves_after`]).
pub fn run(scene: &Scene, seed: u64, moves: u32) -> Run {
    let mut sim = Simulation::new(scene, seed);
    sim.step_moves(moves);
    let log = sim.take_log();
    // The world was spawned from a scene, so a snapshot always exists; fall back to the input.
    let end = sim.scene_now().unwrap_or_else(|| scene.clone());
    Run { log, end }
}

/// Run `scene` for `moves` moves with `seed` and keep only the log (no end-state snapshot); it
/// stops early at the most moves a scene may play, as [`run`] does.
pub fn run_log(scene: &Scene, seed: u64, moves: u32) -> EventLog {
    let mut sim = Simulation::new(scene, seed);
    sim.step_moves(moves);
    sim.take_log()
}
