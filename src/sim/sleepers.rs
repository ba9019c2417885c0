//! Sleeping groups, hearing noises and waking (Sleepers set).

use super::world::{placed_bundle, sorted};
use crate::scene::{self, Scene};
use bevy::prelude::*;

pub(super) fn plugin(_app: &mut App) {}

/// A sleeping group as the scene gives it.
#[derive(Component, Debug, Clone)]
pub struct SleepingGroup(pub scene::SleepingGroup);

/// Spawn the scene's sleeping groups.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    for (i, g) in scene.sleepers.iter().enumerate() {
        world.spawn((placed_bundle(i as u32, &g.name, g.position), SleepingGroup(g.clone())));
    }
}

/// Write the groups back into a scene.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    scene.sleepers = sorted::<SleepingGroup>(world).into_iter().map(|(_, g, _)| g.0).collect();
}
