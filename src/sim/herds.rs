//! Herds, steeds and beasts (Herds set).

use super::world::{Facing, TablePosition, placed_bundle, point, sorted};
use crate::scene::{self, Scene};
use bevy::prelude::*;

pub(super) fn plugin(_app: &mut App) {}

/// A herd as the scene gives it.
#[derive(Component, Debug, Clone)]
pub struct Herd(pub scene::Herd);

/// Spawn the scene's herds.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    for (i, h) in scene.herds.iter().enumerate() {
        world.spawn((placed_bundle(i as u32, &h.name, h.position), Facing(h.heading), Herd(h.clone())));
    }
}

/// Write the herds back into a scene, where they are now.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    scene.herds = sorted::<Herd>(world)
        .into_iter()
        .map(|(_, Herd(mut h), e)| {
            let entity = world.entity(e);
            if let Some(p) = entity.get::<TablePosition>() {
                h.position = point(p.0);
            }
            if let Some(facing) = entity.get::<Facing>() {
                h.heading = facing.0;
            }
            h
        })
        .collect();
}
