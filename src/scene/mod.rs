//! Scene files: the format, loading with located errors, and atomic saving.
//!
//! `format` holds the frame (table, rules, terrain, walls, figures); each domain's entities
//! have a file of their own.

pub(crate) mod base64;
pub mod fire_state;
pub mod fires;
pub mod fog;
pub mod format;
pub mod herds;
pub mod injuries;
pub mod load;
pub mod magic;
pub mod obstacles;
pub mod osr;
pub mod pictures;
pub mod prisoners;
pub(crate) mod quick_ron;
pub mod save;
pub mod sleepers;
pub mod stress;
pub mod temptations;
pub mod trails;
pub mod traps;
pub mod uvtt;

pub use format::*;
pub use load::{SceneError, load_scene, parse_scene};
pub use save::{save_scene, scene_to_ron};

/// The demo scene built into the binary, for `tabula` with no argument.
pub const DEMO_SCENE: &str = include_str!("../../scenes/demo.ron");
