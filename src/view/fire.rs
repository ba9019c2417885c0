//! Fire in the GM view: burning and spent ground as one texture over the table, one texel per
//! fire-front cell, drawn with linear filtering so edges are smooth. The picture is drawn for
//! the moment the playhead shows (playhead.rs), reading the cells' exact arrival times, so the
//! GM sees the fire creep rather than jump, and a move revealed round by round shows each
//! round's front.

use super::playhead::{Playhead, PlayheadSystems};
use super::to_world;
use crate::sim::MoveClock;
use crate::sim::fire::FireFront;
use crate::sim::fire_front::{Cell, CellState};
use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw_fire.after(PlayheadSystems));
}

/// Above the terrain (z −9..), below walls, figures and labels.
const FIRE_Z: f32 = -4.0;

/// RGBA of each state. Unburnt is transparent with the spent colour, so filtering fades spent
/// ground out instead of darkening burning edges.
const BURNING: [u8; 4] = [255, 110, 20, 225];
const SPENT: [u8; 4] = [38, 32, 28, 210];
const UNBURNT: [u8; 4] = [38, 32, 28, 0];

/// The sprite showing the fire, and what it was last drawn for.
#[derive(Component)]
struct FireLayer {
    generation: u64,
    time: f32,
}

fn draw_fire(
    mut commands: Commands,
    front: Res<FireFront>,
    clock: Res<MoveClock>,
    playhead: Res<Playhead>,
    mut images: ResMut<Assets<Image>>,
    mut layer: Query<(Entity, &mut FireLayer, &Sprite)>,
) {
    let Some(grid) = front.grid() else {
        // No fire any more (a rewind to before it, another scene): no picture of one.
        for (entity, ..) in &layer {
            commands.entity(entity).despawn();
        }
        return;
    };
    let (width, height) = (grid.width_cells(), grid.height_cells());
    // A grid of another size (another table) gets a new picture.
    for (entity, _, sprite) in &layer {
        if images.get(&sprite.image).is_some_and(|i| (i.width(), i.height()) != (width, height)) {
            commands.entity(entity).despawn();
        }
    }
    // The fire time the picture shows: the end of the last round, less what of the last move
    // is not shown yet.
    let time = front.time() - (1.0 - playhead.shown()) * f32::from(clock.rounds_per_move);
    let mut current = layer
        .iter_mut()
        .find(|(_, _, sprite)| images.get(&sprite.image).is_some_and(|i| (i.width(), i.height()) == (width, height)));
    if let Some((_, l, _)) = current.as_mut() {
        if l.generation == front.generation() && l.time == time {
            return;
        }
        l.generation = front.generation();
        l.time = time;
    }
    let mut data = Vec::with_capacity(width as usize * height as usize * 4);
    // Image rows run top to bottom; grid rows bottom to top.
    for y in (0..height).rev() {
        for x in 0..width {
            data.extend_from_slice(match grid.state_at(Cell { x, y }, time) {
                CellState::Burning => &BURNING,
                CellState::Spent => &SPENT,
                CellState::Unburnt => &UNBURNT,
            });
        }
    }
    if let Some((_, _, sprite)) = current {
        if let Some(mut image) = images.get_mut(&sprite.image) {
            image.data = Some(data);
        }
        return;
    }
    let mut image = Image::new(
        Extent3d { width, height, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::linear();
    // The grid may overhang the table by part of a cell.
    let covered = Vec2::new(width as f32, height as f32) * grid.cell_size_in();
    commands.spawn((
        Sprite { image: images.add(image), custom_size: Some(to_world(covered)), ..default() },
        Transform::from_translation((to_world(covered) / 2.0).extend(FIRE_Z)),
        FireLayer { generation: front.generation(), time },
    ));
}
