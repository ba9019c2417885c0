//! Tabula: a tabletop map visualizer and rules simulator for game-masters.
//!
//! - [`rules`]: the rule texts as pure functions (inputs and dice in, outcome out).
//! - [`scene`]: the scene file format, loading with located errors, atomic saving.
//! - [`sim`]: the ECS world and the `Move` schedule that resolves a move in a fixed order.
//! - [`document`]: the scene being worked on: its file, history, rewinds and edits (no GUI).
//! - `view` (feature `gui`): the GM and projector windows.
//! - [`playtest`]: many runs of a scene, one report; [`heatmap`]: its overlays per cell and the
//!   picture of them.
//! - [`raster_font`]: a built-in 5×7 bitmap font, to write text into pictures without a GPU.
//! - [`fuzz`]: mutated scenes and maps, and the properties every one must keep (docs/fuzzing.md).
//! - [`cli`]: the `tabula` command line.

pub mod app;
pub mod cli;
pub mod document;
pub mod fuzz;
pub mod heatmap;
pub mod playtest;
pub mod raster_font;
pub mod rules;
pub mod scene;
pub mod sim;
#[cfg(feature = "gui")]
pub mod view;
