//! The apps Tabula builds: which plugins make up each. `main.rs` only calls the CLI.

use crate::scene::Scene;
use bevy::prelude::*;

/// The simulation with no window: every simulation plugin and nothing else. Its schedules are
/// run by hand, move by move, never by `App::run` or `App::update`, so `MinimalPlugins` would
/// go unused: its task pools alone start three pools of threads a process.
pub fn headless(scene: &Scene, seed: u64) -> App {
    let mut app = bare_app();
    app.add_plugins(crate::sim::plugin);
    crate::sim::world::spawn_scene(app.world_mut(), scene, seed);
    crate::sim::build_schedules(app.world_mut());
    app
}

/// `App::new()` without filling the type registry with every reflected type of the build
/// (bevy's `reflect_auto_register`, which the GUI's features turn on): a few milliseconds a
/// process that nothing headless reads. Otherwise what `App::default` sets up.
fn bare_app() -> App {
    let mut app = App::empty();
    app.main_mut().update_schedule = Some(bevy::ecs::schedule::ScheduleLabel::intern(&Main));
    app.init_resource::<AppTypeRegistry>();
    app.add_plugins(bevy::app::MainSchedulePlugin);
    app.add_systems(Last, bevy::ecs::system::despawn_unused_registered_systems);
    app.add_message::<AppExit>();
    app
}
