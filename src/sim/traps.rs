//! Traps on the table (Traps set). Figures' swept paths are checked against each trap.

use super::world::{placed_bundle, sorted};
use crate::scene::{self, Scene};
use bevy::prelude::*;

pub(super) fn plugin(_app: &mut App) {}

/// A trap as the scene gives it.
#[derive(Component, Debug, Clone)]
pub struct Trap(pub scene::Trap);

/// Spawn the scene's traps.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    for (i, t) in scene.traps.iter().enumerate() {
        world.spawn((placed_bundle(i as u32, &t.name, t.position), Trap(t.clone())));
    }
}

/// Write the traps back into a scene.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    scene.traps = sorted::<Trap>(world).into_iter().map(|(_, t, _)| t.0).collect();
}
