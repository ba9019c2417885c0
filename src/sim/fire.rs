//! Fire on the table (Fire set, per round).

use super::world::{placed_bundle, sorted};
use crate::scene::{self, Scene};
use bevy::prelude::*;

pub(super) fn plugin(_app: &mut App) {}

/// A fire as the scene gives it.
#[derive(Component, Debug, Clone)]
pub struct Fire(pub scene::Fire);

/// Spawn the scene's fires.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    for (i, f) in scene.fires.iter().enumerate() {
        world.spawn((placed_bundle(i as u32, &f.name, f.position), Fire(f.clone())));
    }
}

/// Write the fires back into a scene.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    scene.fires = sorted::<Fire>(world).into_iter().map(|(_, f, _)| f.0).collect();
}
