//! The document: the scene the GM works on, its file, the history of its moves and edits to
//! it. No windows and no drawing: the GM view (`view`, feature `gui`) shows the document and
//! forwards the GM's requests here (step, rewind, edit, open, save), and it all builds and is
//! tested headless.
//!
//! - [`history`]: snapshots before every move, capped by size; rewind; stepping by moves and by
//!   rounds, and how much of the last move is revealed.
//! - [`edit`]: edits to the scene, made through the scene and a rebuild of the world.
//! - [`undo`](mod@undo): undo and redo of the edits (at most [`MAX_UNDO_STEPS`]), apart from
//!   rewinding moves.
//! - [`file`](mod@file): open (a scene or a map), save atomically (a map's image beside its scene),
//!   reload when the file changed on disk.

pub mod edit;
pub mod file;
pub mod history;
pub mod undo;

pub use edit::{Edit, FogEdit, Placeable, apply_edits, edit_fog, edit_scene, entity_ron, fresh_name};
pub use file::{BackgroundSource, Document, OpenError, is_map, new_scene, open, reload, replace_world, save};
pub use history::{
    History, MAX_HISTORY_BYTES, Reveal, Revealed, Snapshot, decide, event_revealed, order_cast, order_combat, reseed,
    rest, rewind, show_more, step, step_moves, step_rounds,
};
pub use undo::{EditHistory, EditMark, MAX_UNDO_BYTES, MAX_UNDO_STEPS, SceneDelta, end_group, redo, undo};

use crate::scene::Scene;
use crate::sim::EventLog;
use bevy::prelude::*;

/// The document's resources, in an app that holds a scene (the GM view, tests).
pub fn plugin(app: &mut App) {
    app.init_resource::<History>()
        .init_resource::<EditHistory>()
        .init_resource::<Reveal>()
        .init_resource::<Document>()
        .init_resource::<SceneGeneration>();
}

/// Bumped whenever the sim world is rebuilt from a scene (open, reload, rewind, edits), so
/// whatever mirrors it (the view's entities) is rebuilt too.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SceneGeneration(pub u32);

/// Rebuild the sim world from `scene` with `seed`. `keep_log` is the dice log to keep (taken
/// out of the world with `World::remove_resource`, never cloned); None starts a fresh one. The
/// whole of the last move is revealed afterwards.
pub fn respawn(world: &mut World, scene: &Scene, seed: u64, keep_log: Option<EventLog>) {
    crate::sim::world::spawn_scene(world, scene, seed);
    if let Some(log) = keep_log {
        world.insert_resource(log);
    }
    world.get_resource_or_init::<SceneGeneration>().0 += 1;
    if let Some(mut reveal) = world.get_resource_mut::<Reveal>() {
        reveal.finish();
    }
}

/// The world now differs from the file.
pub fn mark_dirty(world: &mut World) {
    if let Some(mut document) = world.get_resource_mut::<Document>() {
        document.dirty = true;
    }
}

/// For tests: a headless app holding a walker crossing a 40"x10" table, with the document.
#[cfg(test)]
pub(crate) fn walker_app() -> App {
    let scene = crate::sim::testing::scene_from_str(
        "(version: 1, table: (width: 40, height: 10), figures: [(name: \"Walker\", position: (1, 5), path: [(39, 5)])])",
    );
    let mut app = crate::sim::testing::app_with_scene(&scene, 3);
    app.add_plugins(plugin);
    app
}
