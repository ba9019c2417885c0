//! The ground's material tiles, read from `assets/tiles/` (issue #25) through the asset server,
//! so a GM can replace one without rebuilding: its file watcher reloads a changed file and the
//! ground showing it changes in place, the scene left as it is.
//!
//! Each material's `ColorMaterial` samples an image of this module's own: the file's pixels
//! made into a repeating tile with its smaller copies ([`repeating_tile`]). Until the file is
//! read, and whenever it is missing or cannot be read (warned about once), that image holds the
//! tile drawn in code, the same pixels `assets/tiles/` was written from (patterns.rs).

use super::patterns::{repeating_tile, tile, tile_path};
use super::pictures::{AssetsFolder, rgba8};
use crate::scene::Material;
use bevy::asset::{AssetLoadFailedEvent, RenderAssetUsages};
use bevy::image::ImageLoaderSettings;
use bevy::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::Path;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<GroundTiles>();
    app.add_systems(Update, tiles_from_files);
}

/// What was wrong with a tile's file, each warned about once a material.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Problem {
    /// Not in `assets/tiles/`.
    Missing,
    /// Could not be read, or its pixels are in a format with no colours to read.
    Unreadable,
    /// Not a square power of two: drawn without its smaller copies.
    Size,
}

/// Every material's tile: the image its ground samples and the file it comes from.
#[derive(Resource, Default)]
pub(super) struct GroundTiles {
    /// The image each material's ground samples; kept across rebuilds of the scene.
    shown: HashMap<Material, Handle<Image>>,
    /// The asset server's handle of each material's file, kept so it stays loaded and watched.
    files: HashMap<Material, Handle<Image>>,
    /// The material of each file's handle.
    loading: HashMap<AssetId<Image>, Material>,
    /// Problems already warned about.
    warned: HashSet<(Material, Problem)>,
}

impl GroundTiles {
    /// The image `material`'s ground samples. Asked for the first time, it holds the tile drawn
    /// in code and the file is asked of `server`; a file missing from `assets` (when known) is
    /// warned about and the drawn tile stays.
    pub(super) fn tile(
        &mut self,
        images: &mut Assets<Image>,
        server: Option<&AssetServer>,
        assets: Option<&Path>,
        material: Material,
    ) -> Handle<Image> {
        if let Some(handle) = self.shown.get(&material) {
            return handle.clone();
        }
        let handle = images.add(tile(material));
        self.shown.insert(material, handle.clone());
        let path = tile_path(material);
        if let Some(assets) = assets
            && !assets.join(&path).is_file()
        {
            let folder = assets.display().to_string();
            self.warn_once(material, Problem::Missing, || {
                format!("{path} is not in {folder}: the {} ground shows the tile drawn in code", material.id())
            });
        } else if let Some(server) = server {
            // Only its pixels are read, here: the file itself never goes to the GPU.
            let file: Handle<Image> = server
                .load_builder()
                .with_settings(|s: &mut ImageLoaderSettings| s.asset_usage = RenderAssetUsages::MAIN_WORLD)
                .load(path);
            self.watch(images, material, file);
        }
        handle
    }

    /// `file` is `material`'s tile file: shown once read (at once if it is already).
    fn watch(&mut self, images: &mut Assets<Image>, material: Material, file: Handle<Image>) {
        self.loading.insert(file.id(), material);
        let read = images.get(&file).is_some();
        self.files.insert(material, file);
        if read {
            self.show_file(images, material);
        }
    }

    /// `material`'s file was read (or read again): its ground shows the file's pixels, in the
    /// image it already samples.
    fn show_file(&mut self, images: &mut Assets<Image>, material: Material) {
        let Some(id) = self.files.get(&material).map(Handle::id) else { return };
        let path = tile_path(material);
        let pixels = match images.get(id).map(rgba8) {
            None => return,
            Some(Some(pixels)) if pixels.width > 0 && pixels.height > 0 => pixels,
            Some(_) => {
                self.fall_back(images, material, || format!("{path}: its pixels are in a format tiles cannot read"));
                return;
            }
        };
        let (width, height) = (pixels.width, pixels.height);
        if width != height || !width.is_power_of_two() {
            self.warn_once(material, Problem::Size, || {
                format!(
                    "{path} is {width}×{height} pixels, not a square power of two (as 64×64): it is drawn \
                     without its smaller copies and may shimmer when zoomed out"
                )
            });
        }
        if let Some(mut shown) = self.shown.get(&material).and_then(|h| images.get_mut(h)) {
            *shown = repeating_tile(pixels.data, width, height);
        }
    }

    /// `material`'s file cannot be read (`why`): its ground shows the tile drawn in code again.
    fn fall_back(&mut self, images: &mut Assets<Image>, material: Material, why: impl FnOnce() -> String) {
        self.warn_once(material, Problem::Unreadable, || {
            format!("{}: the {} ground shows the tile drawn in code", why(), material.id())
        });
        if let Some(mut shown) = self.shown.get(&material).and_then(|h| images.get_mut(h)) {
            *shown = tile(material);
        }
    }

    fn warn_once(&mut self, material: Material, problem: Problem, message: impl FnOnce() -> String) {
        if self.warned.insert((material, problem)) {
            warn!("{}", message());
        }
    }
}

/// What the terrain needs to get its tiles.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct TileLoader<'w> {
    tiles: ResMut<'w, GroundTiles>,
    server: Option<Res<'w, AssetServer>>,
    assets: Option<Res<'w, AssetsFolder>>,
}

impl TileLoader<'_> {
    /// The image `material`'s ground samples ([`GroundTiles::tile`]).
    pub(super) fn tile(&mut self, images: &mut Assets<Image>, material: Material) -> Handle<Image> {
        let assets = self.assets.as_ref().map(|a| a.0.as_path());
        self.tiles.tile(images, self.server.as_deref(), assets, material)
    }
}

/// A tile's file read or changed on disk: its ground shows it. One that could not be read is
/// warned about once and its ground shows the tile drawn in code.
fn tiles_from_files(
    mut tiles: ResMut<GroundTiles>,
    mut images: ResMut<Assets<Image>>,
    mut events: MessageReader<AssetEvent<Image>>,
    mut failures: MessageReader<AssetLoadFailedEvent<Image>>,
) {
    let mut ready: Vec<Material> = Vec::new();
    for event in events.read() {
        if let AssetEvent::LoadedWithDependencies { id } | AssetEvent::Modified { id } = event
            && let Some(&material) = tiles.loading.get(id)
            && !ready.contains(&material)
        {
            ready.push(material);
        }
    }
    for material in ready {
        tiles.show_file(&mut images, material);
    }
    for failure in failures.read() {
        if let Some(&material) = tiles.loading.get(&failure.id) {
            let (path, error) = (tile_path(material), failure.error.to_string());
            tiles.fall_back(&mut images, material, || format!("{path} could not be read ({error})"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::asset::{AssetLoadError, AssetPath};
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

    /// A solid `width` × `height` picture, as the asset server gives a PNG.
    fn solid(width: u32, height: u32, rgba: [u8; 4]) -> Image {
        Image::new(
            Extent3d { width, height, depth_or_array_layers: 1 },
            TextureDimension::D2,
            rgba.repeat((width * height) as usize),
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::MAIN_WORLD,
        )
    }

    fn app() -> App {
        let mut app = App::new();
        let assets = bevy::asset::AssetPlugin { watch_for_changes_override: Some(false), ..default() };
        app.add_plugins((MinimalPlugins, assets)).init_asset::<Image>().add_plugins(plugin);
        app
    }

    /// The image `material`'s ground samples, asked for with no asset server.
    fn shown(app: &mut App, material: Material, assets: Option<&Path>) -> Handle<Image> {
        shown_with(app, material, assets, None)
    }

    fn shown_with(
        app: &mut App,
        material: Material,
        assets: Option<&Path>,
        server: Option<&AssetServer>,
    ) -> Handle<Image> {
        app.world_mut().resource_scope(|world, mut tiles: Mut<GroundTiles>| {
            let mut images = world.resource_mut::<Assets<Image>>();
            tiles.tile(&mut images, server, assets, material)
        })
    }

    fn data(app: &App, handle: &Handle<Image>) -> Option<Vec<u8>> {
        app.world().resource::<Assets<Image>>().get(handle).and_then(|i| i.data.clone())
    }

    fn mip_levels(app: &App, handle: &Handle<Image>) -> Option<u32> {
        app.world().resource::<Assets<Image>>().get(handle).map(|i| i.texture_descriptor.mip_level_count)
    }

    /// A file `material`'s tile comes from, already read.
    fn file(app: &mut App, material: Material, image: Image) -> Handle<Image> {
        let file = app.world_mut().resource_mut::<Assets<Image>>().add(image);
        app.world_mut().resource_scope(|world, mut tiles: Mut<GroundTiles>| {
            let mut images = world.resource_mut::<Assets<Image>>();
            tiles.watch(&mut images, material, file.clone());
        });
        file
    }

    /// One image a material, whatever asks; the code's tile until a file is read.
    #[test]
    fn a_ground_shows_the_code_tile_until_its_file_is_read() {
        let mut app = app();
        let grass = shown(&mut app, Material::Grass, None);
        assert_eq!(shown(&mut app, Material::Grass, None), grass, "one image a material");
        assert_ne!(shown(&mut app, Material::Water, None), grass);
        assert_eq!(data(&app, &grass), tile(Material::Grass).data);
        assert!(app.world().resource::<GroundTiles>().warned.is_empty());
    }

    #[test]
    fn a_tile_missing_from_assets_is_warned_about_once_and_the_code_tile_drawn() {
        let mut app = app();
        let nowhere = std::env::temp_dir().join(format!("tabula-no-tiles-{}", std::process::id()));
        let server = app.world().resource::<AssetServer>().clone();
        let rock = shown_with(&mut app, Material::Rock, Some(&nowhere), Some(&server));
        assert_eq!(data(&app, &rock), tile(Material::Rock).data);
        let tiles = app.world().resource::<GroundTiles>();
        assert_eq!(tiles.warned, HashSet::from([(Material::Rock, Problem::Missing)]));
        assert!(tiles.files.is_empty(), "nothing asked of the asset server");
    }

    /// A file read, then changed on disk, then broken: the same image shows each in turn (a
    /// 64-pixel file with its 7 levels, a 48×32 one as it is, then the code's tile).
    #[test]
    fn a_file_read_or_changed_shows_in_place_and_a_broken_one_falls_back() {
        let mut app = app();
        let paved = shown(&mut app, Material::Paved, None);
        let red = [200, 10, 10, 255];
        let file = file(&mut app, Material::Paved, solid(64, 64, red));
        assert_eq!(mip_levels(&app, &paved), Some(7));
        assert_eq!(data(&app, &paved).map(|d| d[..64 * 64 * 4].to_vec()), Some(red.repeat(64 * 64)));
        // The file watcher replaced it with a 48×32 picture.
        let blue = [10, 10, 200, 255];
        if let Some(mut image) = app.world_mut().resource_mut::<Assets<Image>>().get_mut(&file) {
            *image = solid(48, 32, blue);
        }
        // Assets tell of the change after Update; the tiles read it in the next frame's.
        app.update();
        app.update();
        assert_eq!(mip_levels(&app, &paved), Some(1));
        assert_eq!(data(&app, &paved), Some(blue.repeat(48 * 32)));
        assert!(app.world().resource::<GroundTiles>().warned.contains(&(Material::Paved, Problem::Size)));
        // Read again and failed.
        app.world_mut().write_message(AssetLoadFailedEvent::<Image> {
            id: file.id(),
            path: AssetPath::from("tiles/paved.png"),
            error: AssetLoadError::AssetMetaReadError,
        });
        app.update();
        assert_eq!(data(&app, &paved), tile(Material::Paved).data);
        assert!(app.world().resource::<GroundTiles>().warned.contains(&(Material::Paved, Problem::Unreadable)));
        // Another material's ground is untouched by it all.
        let water = shown(&mut app, Material::Water, None);
        assert_eq!(data(&app, &water), tile(Material::Water).data);
    }

    /// A file of the project's own is the code's tile: the ground looks the same either way.
    #[test]
    fn the_project_file_shows_as_the_code_tile() {
        let mut app = app();
        let hay = shown(&mut app, Material::Hay, None);
        let pixels = super::super::patterns::tile_pixels(Material::Hay);
        let image = Image::new(
            Extent3d { width: 64, height: 64, depth_or_array_layers: 1 },
            TextureDimension::D2,
            pixels,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::MAIN_WORLD,
        );
        file(&mut app, Material::Hay, image);
        assert_eq!(data(&app, &hay), tile(Material::Hay).data);
    }
}
