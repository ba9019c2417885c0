//! Tokens: figures and beasts as sprites. Sprites sharing an image are drawn in one batch, and
//! a token's transform is touched only when where it is shown changes, so a table of thousands
//! of tokens costs next to nothing on a frame where nothing moves.

use super::playhead::{PlayheadSystems, Shown, ShownBeasts};
use super::{PX_PER_INCH, to_world};
use crate::rules::herds::Beast;
use crate::sim::herds::Herd;
use crate::sim::world::{Conditions, Figure};
use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use std::collections::HashMap;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TokenImages>();
    app.add_systems(
        Update,
        ((spawn_figure_tokens, spawn_beast_tokens), (move_figure_tokens, move_beast_tokens))
            .chain()
            .after(PlayheadSystems),
    );
}

/// Figures above beasts, both under labels (z 5) and above the fire (z −4).
const FIGURE_Z: f32 = 2.0;
const BEAST_Z: f32 = 1.5;

/// A figure's token, on its own entity; it goes when its figure goes.
#[derive(Component)]
pub(super) struct FigureToken(pub(super) Entity);

/// On a figure or herd whose tokens exist. The world is rebuilt with new entities (rewind,
/// reload, edit), which lack it and so get tokens, whatever order the rebuild and these
/// systems run in.
#[derive(Component)]
struct Tokened;

/// One beast of a herd.
#[derive(Component)]
pub(super) struct BeastToken {
    pub(super) herd: Entity,
    pub(super) index: usize,
}

/// Token pictures, one per look; tokens that look alike share one and batch together.
#[derive(Resource, Default)]
struct TokenImages(HashMap<(bool, [u8; 4]), Handle<Image>>);

impl TokenImages {
    fn get(&mut self, images: &mut Assets<Image>, color: Color, facing_notch: bool) -> Handle<Image> {
        let key = (facing_notch, color.to_srgba().to_u8_array());
        self.0.entry(key).or_insert_with(|| images.add(token_image(color, facing_notch))).clone()
    }
}

/// Pixels across a token picture.
const TOKEN_PX: u32 = 64;

/// A round token in `color`: a figure's has a light rim and a white notch showing which way it
/// faces (+x in the picture); a beast's a dark rim so white beasts show on pale ground.
pub fn token_image(color: Color, facing_notch: bool) -> Image {
    let c = color.to_srgba();
    let base = Vec3::new(c.red, c.green, c.blue);
    let (fill, rim) = if facing_notch { (base * 0.75, base.lerp(Vec3::ONE, 0.45)) } else { (base, base * 0.35) };
    let n = TOKEN_PX as f32;
    let mut data = Vec::with_capacity((TOKEN_PX * TOKEN_PX * 4) as usize);
    for y in 0..TOKEN_PX {
        for x in 0..TOKEN_PX {
            // -1..1 across, +y up.
            let p = Vec2::new((x as f32 + 0.5) / n * 2.0 - 1.0, 1.0 - (y as f32 + 0.5) / n * 2.0);
            let r = p.length();
            let px = 2.0 / n;
            let coverage = ((1.0 - r) / px + 0.5).clamp(0.0, 1.0);
            let rim_mix = ((r - 0.80) / px + 0.5).clamp(0.0, 1.0);
            let mut rgb = fill.lerp(rim, rim_mix);
            if facing_notch {
                // A wedge from the middle of the token to its rim.
                let half_width = 0.26 * (0.92 - p.x) / 0.57;
                if p.x > 0.35 && p.x < 0.92 && p.y.abs() < half_width {
                    rgb = Vec3::ONE;
                }
            }
            let alpha = coverage * if facing_notch { 0.95 } else { 1.0 };
            data.extend([rgb.x, rgb.y, rgb.z, alpha].map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8));
        }
    }
    let mut image = Image::new(
        Extent3d { width: TOKEN_PX, height: TOKEN_PX, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::linear();
    image
}

/// A side's token colour: the party blue, anyone else red.
pub fn side_color(side: &str) -> Color {
    if side == "party" { Color::srgb(0.30, 0.55, 0.95) } else { Color::srgb(0.90, 0.30, 0.25) }
}

/// A beast's token colour.
pub fn beast_color(beast: Beast) -> Color {
    match beast {
        Beast::Cow => Color::srgb(0.95, 0.92, 0.85),
        Beast::Bull => Color::srgb(0.55, 0.25, 0.15),
        Beast::Sheep => Color::srgb(0.98, 0.98, 0.98),
        Beast::Goat => Color::srgb(0.75, 0.70, 0.55),
        Beast::Pig => Color::srgb(0.98, 0.65, 0.70),
        Beast::Horse => Color::srgb(0.65, 0.42, 0.20),
        Beast::Wolf => Color::srgb(0.50, 0.50, 0.55),
    }
}

fn spawn_figure_tokens(
    mut commands: Commands,
    mut looks: ResMut<TokenImages>,
    mut images: ResMut<Assets<Image>>,
    figures: Query<(Entity, &Figure), Without<Tokened>>,
) {
    for (entity, figure) in &figures {
        commands.entity(entity).try_insert(Tokened);
        commands.spawn((
            Sprite {
                image: looks.get(&mut images, side_color(&figure.0.side), true),
                custom_size: Some(Vec2::splat(0.8 * PX_PER_INCH)),
                ..default()
            },
            Transform::from_xyz(0.0, 0.0, FIGURE_Z),
            Visibility::Hidden,
            FigureToken(entity),
        ));
    }
}

fn spawn_beast_tokens(
    mut commands: Commands,
    mut looks: ResMut<TokenImages>,
    mut images: ResMut<Assets<Image>>,
    herds: Query<(Entity, &Herd), Without<Tokened>>,
) {
    for (entity, herd) in &herds {
        commands.entity(entity).try_insert(Tokened);
        let h = &herd.0;
        let image = looks.get(&mut images, beast_color(h.beast), false);
        let size = 0.7 * h.spacing.min(1.0) * PX_PER_INCH;
        for index in 0..h.count as usize {
            commands.spawn((
                Sprite { image: image.clone(), custom_size: Some(Vec2::splat(size)), ..default() },
                Transform::from_xyz(0.0, 0.0, BEAST_Z),
                Visibility::Hidden,
                BeastToken { herd: entity, index },
            ));
        }
    }
}

/// A figure down (unconscious, apparently dead, left for dead, dead: `roster::is_down`) is a
/// greyed token, on the projector too: players see it lying there, not why.
const DOWN_TINT: Color = Color::srgba(0.45, 0.45, 0.45, 0.85);

fn move_figure_tokens(
    mut commands: Commands,
    mut tokens: Query<(Entity, &FigureToken, &mut Transform, &mut Visibility, &mut Sprite)>,
    shown: Query<(Option<Ref<Shown>>, Ref<Conditions>), With<Figure>>,
) {
    for (token, figure, mut transform, mut visibility, mut sprite) in &mut tokens {
        let Ok((shown, conditions)) = shown.get(figure.0) else {
            // Its figure is gone.
            commands.entity(token).despawn();
            continue;
        };
        if conditions.is_changed() || *visibility == Visibility::Hidden {
            let tint = if conditions.0.iter().any(super::roster::is_down) { DOWN_TINT } else { Color::WHITE };
            if sprite.color != tint {
                sprite.color = tint;
            }
        }
        // Placed once the figure's shown place is known.
        let Some(shown) = shown else { continue };
        if shown.is_changed() || *visibility == Visibility::Hidden {
            let place = Transform::from_translation(to_world(shown.at).extend(FIGURE_Z))
                .with_rotation(Quat::from_rotation_z(shown.facing.to_radians()));
            transform.set_if_neq(place);
            visibility.set_if_neq(Visibility::Inherited);
        }
    }
}

fn move_beast_tokens(
    mut commands: Commands,
    mut tokens: Query<(Entity, &BeastToken, &mut Transform, &mut Visibility)>,
    herds: Query<Option<Ref<ShownBeasts>>, With<Herd>>,
) {
    for (token, beast, mut transform, mut visibility) in &mut tokens {
        let Ok(shown) = herds.get(beast.herd) else {
            // Its herd is gone.
            commands.entity(token).despawn();
            continue;
        };
        let Some(shown) = shown else { continue };
        if !shown.is_changed() && *visibility != Visibility::Hidden {
            continue;
        }
        match shown.0.get(beast.index) {
            Some(at) => {
                let place = to_world(*at).extend(BEAST_Z);
                if transform.translation != place {
                    transform.translation = place;
                }
                visibility.set_if_neq(Visibility::Inherited);
            }
            None => {
                visibility.set_if_neq(Visibility::Hidden);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::scene_from_str;

    /// The simulation with the playhead and tokens, no window.
    fn app(scene: &crate::scene::Scene) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, bevy::asset::AssetPlugin::default()))
            .init_asset::<Image>()
            .init_resource::<super::super::SceneGeneration>()
            .add_plugins((crate::sim::plugin, super::super::playhead::plugin, plugin));
        crate::sim::world::spawn_scene(app.world_mut(), scene, 1);
        app
    }

    fn tokens_point_at_the_living(app: &mut App) -> (usize, usize) {
        let world = app.world_mut();
        let figures: Vec<Entity> = world.query_filtered::<Entity, With<Figure>>().iter(world).collect();
        let herds: Vec<Entity> = world.query_filtered::<Entity, With<Herd>>().iter(world).collect();
        let figure_tokens: Vec<Entity> = world.query::<&FigureToken>().iter(world).map(|t| t.0).collect();
        let beast_tokens: Vec<Entity> = world.query::<&BeastToken>().iter(world).map(|t| t.herd).collect();
        assert!(figure_tokens.iter().all(|e| figures.contains(e)), "a token of a figure that is gone");
        assert!(beast_tokens.iter().all(|e| herds.contains(e)), "a beast of a herd that is gone");
        (figure_tokens.len(), beast_tokens.len())
    }

    #[test]
    fn every_figure_and_beast_has_one_token_across_rebuilds() {
        let scene = scene_from_str(
            "(version: 1, table: (width: 20, height: 20),
              figures: [(name: \"A\", position: (2, 2)), (name: \"B\", position: (4, 4))],
              herds: [(name: \"cows\", beast: cow, count: 5, position: (10, 10))])",
        );
        let mut app = app(&scene);
        app.update();
        app.update();
        assert_eq!(tokens_point_at_the_living(&mut app), (2, 5));
        // Rebuilt from a smaller scene (an edit deleted a figure), with or without a frame
        // between the rebuild and the token systems.
        let mut smaller = scene.clone();
        smaller.figures.pop();
        crate::document::respawn(app.world_mut(), &smaller, 1, None);
        app.update();
        app.update();
        assert_eq!(tokens_point_at_the_living(&mut app), (1, 5));
        crate::document::respawn(app.world_mut(), &scene, 1, None);
        crate::document::respawn(app.world_mut(), &scene, 1, None);
        app.update();
        app.update();
        assert_eq!(tokens_point_at_the_living(&mut app), (2, 5));
    }

    fn pixel(image: &Image, x: u32, y: u32) -> [u8; 4] {
        let data = image.data.as_ref().expect("pixels");
        let i = ((y * TOKEN_PX + x) * 4) as usize;
        [data[i], data[i + 1], data[i + 2], data[i + 3]]
    }

    #[test]
    fn a_figure_token_is_a_disc_with_a_white_notch_facing_right() {
        let image = token_image(Color::srgb(0.3, 0.55, 0.95), true);
        let mid = TOKEN_PX / 2;
        // Outside the disc: clear. Inside: opaque, its colour darker than the rim.
        assert_eq!(pixel(&image, 0, 0)[3], 0);
        assert!(pixel(&image, mid - 10, mid)[3] > 200);
        let fill = pixel(&image, mid - 10, mid);
        assert!(fill[2] > fill[0], "blue token");
        // The notch is on the right (+x), not on the left.
        assert_eq!(&pixel(&image, mid + 18, mid)[..3], &[255, 255, 255]);
        assert_ne!(&pixel(&image, mid - 18, mid)[..3], &[255, 255, 255]);
    }

    #[test]
    fn a_beast_token_has_a_dark_rim_and_no_notch() {
        let image = token_image(Color::srgb(0.98, 0.98, 0.98), false);
        let mid = TOKEN_PX / 2;
        let rim = pixel(&image, TOKEN_PX - 3, mid);
        let fill = pixel(&image, mid + 18, mid);
        assert!(rim[0] < 150, "dark rim: {rim:?}");
        assert!(fill[0] > 240, "pale fill: {fill:?}");
    }
}
