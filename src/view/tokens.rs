//! Tokens: figures and beasts as sprites. Sprites sharing an image are drawn in one batch, and
//! a token's transform is touched only when where it is shown changes, so a table of thousands
//! of tokens costs next to nothing on a frame where nothing moves.
//!
//! A token is a picture on a round base with a rim (pictures.rs): the scene's own `picture`,
//! ringed in the side's colour, or the default face from `assets/tokens/` tinted with the side's
//! (a beast's: its kind's) colour. A figure's token has a second sprite over it, a white notch
//! on the rim that turns with the figure's facing while the picture stays upright.

use super::pictures::{
    DEFAULT_BEAST_FACE, DEFAULT_FIGURE_FACE, PictureLoader, PictureRequest, TOKEN_PX, TokenLook, picture_look,
    srgb_bytes, srgb_channels,
};
use super::playhead::{PlayheadSystems, Shown, ShownBeasts};
use super::{PX_PER_INCH, to_world};
use crate::rules::herds::Beast;
use crate::sim::herds::Herd;
use crate::sim::world::{Conditions, Figure};
use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<super::pictures::Pictures>();
    app.add_systems(
        Update,
        ((spawn_figure_tokens, spawn_beast_tokens), (move_figure_tokens, move_beast_tokens))
            .chain()
            .after(PlayheadSystems),
    );
}

/// Figures above beasts, both under labels (z 5) and above the fire (z −4); a figure's facing
/// notch just above its picture.
const FIGURE_Z: f32 = 2.0;
const NOTCH_Z: f32 = 2.01;
const BEAST_Z: f32 = 1.5;

/// Inches across a figure's round base.
pub(super) const FIGURE_BASE_IN: f32 = 0.8;

/// A figure's token (its picture, and its facing notch), each on its own entity; they go when
/// their figure goes.
#[derive(Component)]
pub(super) struct FigureToken(pub(super) Entity);

/// On the sprite of a figure's token that turns with its facing.
#[derive(Component)]
pub(super) struct FacingNotch;

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

/// A figure's plain token and the tint of its default face: the side's colour, a light rim.
pub fn figure_look(side: Color) -> TokenLook {
    let c = srgb_channels(side);
    let fill = srgb_bytes(c * 0.75);
    TokenLook { tint: fill, base: fill, rim: srgb_bytes(c.lerp(Vec3::ONE, 0.45)), rim_from: 80 }
}

/// A beast's plain token and the tint of its default face: its kind's colour, a dark rim so
/// white beasts show on pale ground.
pub fn beast_look(beast: Color) -> TokenLook {
    let c = srgb_channels(beast);
    TokenLook { tint: srgb_bytes(c), base: srgb_bytes(c), rim: srgb_bytes(c * 0.35), rim_from: 80 }
}

/// Where a figure's facing notch begins and ends along +x (in radii), and its half-width at its
/// base: an arrowhead on the rim pointing the way the figure faces.
const NOTCH_BASE: f32 = 0.60;
const NOTCH_TIP: f32 = 0.97;
const NOTCH_HALF_WIDTH: f32 = 0.22;

/// A figure's facing notch: a white wedge on the rim at +x, clear elsewhere, as wide as the
/// token; it turns with the figure over the upright picture.
pub fn notch_image() -> Image {
    let n = TOKEN_PX as f32;
    let mut data = Vec::with_capacity((TOKEN_PX * TOKEN_PX * 4) as usize);
    for y in 0..TOKEN_PX {
        for x in 0..TOKEN_PX {
            // -1..1 across, +y up.
            let p = Vec2::new((x as f32 + 0.5) / n * 2.0 - 1.0, 1.0 - (y as f32 + 0.5) / n * 2.0);
            let half_width = NOTCH_HALF_WIDTH * (NOTCH_TIP - p.x) / (NOTCH_TIP - NOTCH_BASE);
            let inside = p.x > NOTCH_BASE && p.x < NOTCH_TIP && p.y.abs() < half_width;
            data.extend([255, 255, 255, if inside { 255 } else { 0 }]);
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
    mut pictures: PictureLoader,
    mut notch_handle: Local<Option<Handle<Image>>>,
    figures: Query<(Entity, &Figure), Without<Tokened>>,
) {
    for (entity, figure) in &figures {
        commands.entity(entity).try_insert(Tokened);
        let f = &figure.0;
        let side = side_color(&f.side);
        let owner = format!("figure \"{}\"", f.name);
        let plain = figure_look(side);
        let request = match &f.picture {
            Some(picture) => PictureRequest {
                owner: &owner,
                picture: picture.as_str(),
                beside_scene: true,
                look: picture_look(side),
                plain,
            },
            None => {
                PictureRequest { owner: &owner, picture: DEFAULT_FIGURE_FACE, beside_scene: false, look: plain, plain }
            }
        };
        let face = pictures.token(&request);
        let notch = notch_handle.get_or_insert_with(|| pictures.add(notch_image())).clone();
        let size = Some(Vec2::splat(FIGURE_BASE_IN * PX_PER_INCH));
        commands.spawn((
            Sprite { image: face, custom_size: size, ..default() },
            Transform::from_xyz(0.0, 0.0, FIGURE_Z),
            Visibility::Hidden,
            FigureToken(entity),
        ));
        commands.spawn((
            Sprite { image: notch, custom_size: size, ..default() },
            Transform::from_xyz(0.0, 0.0, NOTCH_Z),
            Visibility::Hidden,
            FigureToken(entity),
            FacingNotch,
        ));
    }
}

fn spawn_beast_tokens(
    mut commands: Commands,
    mut pictures: PictureLoader,
    herds: Query<(Entity, &Herd), Without<Tokened>>,
) {
    for (entity, herd) in &herds {
        commands.entity(entity).try_insert(Tokened);
        let h = &herd.0;
        let owner = format!("herd \"{}\"", h.name);
        let plain = beast_look(beast_color(h.beast));
        let request = match &h.picture {
            Some(picture) => PictureRequest {
                owner: &owner,
                picture: picture.as_str(),
                beside_scene: true,
                look: picture_look(side_color(&h.side)),
                plain,
            },
            None => {
                PictureRequest { owner: &owner, picture: DEFAULT_BEAST_FACE, beside_scene: false, look: plain, plain }
            }
        };
        let image = pictures.token(&request);
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
    mut tokens: Query<(Entity, &FigureToken, Has<FacingNotch>, &mut Transform, &mut Visibility, &mut Sprite)>,
    shown: Query<(Option<Ref<Shown>>, Ref<Conditions>), With<Figure>>,
) {
    for (token, figure, notch, mut transform, mut visibility, mut sprite) in &mut tokens {
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
            // The notch turns with the figure; the picture stays upright.
            let place = if notch {
                Transform::from_translation(to_world(shown.at).extend(NOTCH_Z))
                    .with_rotation(Quat::from_rotation_z(shown.facing.to_radians()))
            } else {
                Transform::from_translation(to_world(shown.at).extend(FIGURE_Z))
            };
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
    use super::super::pictures::{Rgba8, round_token};
    use super::*;
    use crate::sim::testing::scene_from_str;

    /// The simulation with the playhead and tokens, no window (and no image loader: the
    /// default faces stay plain discs).
    fn app(scene: &crate::scene::Scene) -> App {
        let mut app = App::new();
        let assets = bevy::asset::AssetPlugin { watch_for_changes_override: Some(false), ..default() };
        app.add_plugins((MinimalPlugins, assets))
            .init_asset::<Image>()
            .init_resource::<super::super::SceneGeneration>()
            .add_plugins((crate::sim::plugin, super::super::playhead::plugin, plugin));
        crate::sim::world::spawn_scene(app.world_mut(), scene, 1);
        app
    }

    /// Figures and beasts with tokens; every figure's picture has its notch, of the same figure.
    fn tokens_point_at_the_living(app: &mut App) -> (usize, usize) {
        let world = app.world_mut();
        let figures: Vec<Entity> = world.query_filtered::<Entity, With<Figure>>().iter(world).collect();
        let herds: Vec<Entity> = world.query_filtered::<Entity, With<Herd>>().iter(world).collect();
        let mut faces: Vec<Entity> =
            world.query_filtered::<&FigureToken, Without<FacingNotch>>().iter(world).map(|t| t.0).collect();
        let mut notches: Vec<Entity> =
            world.query_filtered::<&FigureToken, With<FacingNotch>>().iter(world).map(|t| t.0).collect();
        let beast_tokens: Vec<Entity> = world.query::<&BeastToken>().iter(world).map(|t| t.herd).collect();
        assert!(faces.iter().all(|e| figures.contains(e)), "a token of a figure that is gone");
        assert!(beast_tokens.iter().all(|e| herds.contains(e)), "a beast of a herd that is gone");
        faces.sort();
        notches.sort();
        assert_eq!(faces, notches, "a picture without its notch, or a notch without its picture");
        (faces.len(), beast_tokens.len())
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

    fn pixel(data: &[u8], x: u32, y: u32) -> [u8; 4] {
        let i = ((y * TOKEN_PX + x) * 4) as usize;
        [data[i], data[i + 1], data[i + 2], data[i + 3]]
    }

    /// The plain figure token (drawn until the default face is read, or when it cannot be): the
    /// party's blue (0.30, 0.55, 0.95) × 0.75 = (57, 105, 182) inside, the blue lerped 0.45 of
    /// the way to white at the rim: (0.615, 0.7525, 0.9725) = (157, 192, 248). The notch, a
    /// sprite of its own, is white on the right (+x) only, clear over the picture.
    #[test]
    fn a_figure_token_is_a_disc_and_its_notch_faces_right() {
        let disc = round_token(&Rgba8::white(), TOKEN_PX, &figure_look(side_color("party")));
        let mid = TOKEN_PX / 2;
        assert_eq!(pixel(&disc, 0, 0)[3], 0, "clear outside the disc");
        assert_eq!(pixel(&disc, mid - 20, mid), [57, 105, 182, 255]);
        // 0.96 radii out.
        assert_eq!(pixel(&disc, 2, mid), [157, 192, 248, 255]);
        let notch = notch_image();
        let notch = notch.data.as_ref().expect("pixels");
        // 0.77 radii out, right and left.
        assert_eq!(pixel(notch, mid + 49, mid), [255, 255, 255, 255]);
        assert_eq!(pixel(notch, mid - 49, mid)[3], 0);
        assert_eq!(pixel(notch, mid, mid)[3], 0, "the picture shows in the middle");
    }

    /// A sheep's plain token: its colour, 0.98 (250), inside; 0.35 of it (0.343: 87) at the rim.
    #[test]
    fn a_beast_token_has_a_dark_rim_and_its_kinds_colour() {
        let disc = round_token(&Rgba8::white(), TOKEN_PX, &beast_look(beast_color(Beast::Sheep)));
        let mid = TOKEN_PX / 2;
        assert_eq!(pixel(&disc, mid + 36, mid), [250, 250, 250, 255]);
        assert_eq!(pixel(&disc, TOKEN_PX - 3, mid), [87, 87, 87, 255]);
    }

    /// A figure naming a picture beside its scene shows it at once (read here, not by the asset
    /// server); one naming none is the plain disc while its default face is not loaded.
    #[test]
    fn a_figure_with_a_picture_beside_its_scene_shows_it() {
        let dir = std::env::temp_dir().join(format!("tabula-tokens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp folder");
        let mut png_bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut png_bytes, 4, 4);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("header");
        writer.write_image_data(&[255, 0, 255, 255].repeat(16)).expect("pixels");
        writer.finish().expect("written");
        std::fs::write(dir.join("ann.png"), png_bytes).expect("written");
        let scene = scene_from_str(
            "(version: 1, table: (width: 20, height: 20),
              figures: [(name: \"Ann\", position: (2, 2), picture: \"ann.png\"), (name: \"Bob\", position: (4, 4))])",
        );
        let mut app = app(&scene);
        app.insert_resource(crate::document::Document::at(Some(dir.join("scene.ron"))));
        app.update();
        let world = app.world_mut();
        let names: Vec<(Entity, String)> =
            world.query::<(Entity, &Figure)>().iter(world).map(|(e, f)| (e, f.0.name.clone())).collect();
        let faces: Vec<(Entity, Handle<Image>)> = world
            .query_filtered::<(&FigureToken, &Sprite), Without<FacingNotch>>()
            .iter(world)
            .map(|(t, s)| (t.0, s.image.clone()))
            .collect();
        let images = world.resource::<Assets<Image>>();
        let middle = |name: &str| {
            let (figure, _) = names.iter().find(|(_, n)| n == name).expect("the figure");
            let (_, image) = faces.iter().find(|(f, _)| f == figure).expect("its token");
            let data = images.get(image).and_then(|i| i.data.as_ref()).expect("pixels");
            pixel(data, TOKEN_PX / 2, TOKEN_PX / 2)
        };
        assert_eq!(middle("Ann"), [255, 0, 255, 255], "the picture");
        assert_eq!(middle("Bob"), [57, 105, 182, 255], "the plain party disc");
        std::fs::remove_dir_all(&dir).ok();
    }
}
