//! The apps Tabula builds: which plugins make up each. `main.rs` only calls the CLI.

use crate::scene::Scene;
use bevy::prelude::*;

/// The simulation with no window: `MinimalPlugins` plus every simulation plugin.
pub fn headless(scene: &Scene, seed: u64) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, crate::sim::plugin));
    crate::sim::world::spawn_scene(app.world_mut(), scene, seed);
    app
}
