//! Helpers for the library's unit tests. Integration tests, benches and the CLI use
//! [`super::Simulation`].

use crate::scene::Scene;
use bevy::prelude::*;

/// A headless app holding `scene`, seeded with `seed`.
pub fn app_with_scene(scene: &Scene, seed: u64) -> App {
    crate::app::headless(scene, seed)
}

/// Parse scene text or panic with the error: for tests' inline scenes.
pub fn scene_from_str(text: &str) -> Scene {
    match crate::scene::parse_scene(text, std::path::Path::new("<test>")) {
        Ok(s) => s,
        Err(e) => panic!("test scene is invalid: {e}"),
    }
}
