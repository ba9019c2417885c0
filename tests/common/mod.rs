//! Helpers shared by the integration tests.
#![allow(dead_code)]

use tabula::scene::Scene;

/// Parse scene text or panic with the error: for tests' inline scenes.
pub fn scene_from_str(text: &str) -> Scene {
    match tabula::scene::parse_scene(text, std::path::Path::new("<test>")) {
        Ok(s) => s,
        Err(e) => panic!("test scene is invalid: {e}"),
    }
}
