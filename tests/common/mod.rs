//! Helpers shared by the integration tests (`mod common;` in each file that uses them).

// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use tabula::scene::Scene;

// The same file the unit tests use as `crate::rules::stats`: one chi-square for every test.
#[path = "../../src/rules/stats.rs"]
mod stats;

// Not every test file uses it.
#[allow(unused_imports)]
pub use stats::chi_square;

/// Parse scene text or panic with the error: for tests' inline scenes.
pub fn scene_from_str(text: &str) -> Scene {
    match tabula::scene::parse_scene(text, std::path::Path::new("<test>")) {
        Ok(s) => s,
        Err(e) => panic!("test scene is invalid: {e}"),
    }
}
