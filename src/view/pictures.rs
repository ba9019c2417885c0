//! Pictures on tokens (issue #25). A figure, herd or trap may name a picture (`picture`, PNG or
//! WebP); the default token faces are pictures too (`assets/tokens/`). Each is drawn clipped to
//! the token's round base with a rim, as table-top programs draw tokens: the CPU bakes one image
//! per look (picture, tint, rim) from a square cut from the picture's middle, clear outside the
//! disc, so tokens that look alike share an image and are drawn in one batch.
//!
//! A name is looked for beside the scene file first, then under the project's `assets/` folder.
//! Pictures under `assets/` come through Bevy's asset server, whose file watcher reloads one
//! when its file changes; a picture beside the scene is read here and read again when its
//! file's modification time changes (looked at once a second), because the asset server reads
//! only under its own folder. Either way the tokens showing it are baked again in place. A
//! picture in neither place is a warning, logged once, and the token stays the plain disc.

use super::draw::trap_shown_to_players;
use super::layers::gm_only;
use super::playhead::{BeforeMove, Playhead, PlayheadSystems};
use super::{PX_PER_INCH, SceneGeneration, to_world};
use crate::document::{Document, Edit};
use crate::sim::herds::Herd;
use crate::sim::traps::Trap;
use crate::sim::world::{Figure, TablePosition};
use bevy::asset::{AssetLoadFailedEvent, RenderAssetUsages};
use bevy::camera::visibility::RenderLayers;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Pictures>();
    app.add_systems(Update, (bake_loaded_pictures, reread_changed_pictures));
    app.add_systems(Update, (spawn_trap_pictures, place_trap_pictures).chain().after(PlayheadSystems));
}

/// Pixels across a token's baked picture (a power of two, for its smaller copies).
pub(super) const TOKEN_PX: u32 = 128;
/// The default face of a figure, under `assets/`.
pub(super) const DEFAULT_FIGURE_FACE: &str = "tokens/default-figure.png";
/// The default face of a beast, under `assets/`.
pub(super) const DEFAULT_BEAST_FACE: &str = "tokens/default-beast.png";
/// Largest picture file read beside a scene, in bytes.
const MAX_PICTURE_BYTES: u64 = crate::scene::pictures::MAX_PICTURE_BYTES;
/// Trap pictures lie under beasts (z 1.5) and figures (z 2), over the ground and the fire.
const TRAP_Z: f32 = 0.5;
/// A trap's rim when no side set it.
const TRAP_RIM: Color = Color::srgb(0.55, 0.55, 0.55);

/// The project's `assets/` folder, as the asset server was given it (run_with).
#[derive(Resource, Debug, Clone)]
pub(super) struct AssetsFolder(pub(super) PathBuf);

/// Where the project's own pictures are: `TABULA_ASSETS` when it is set; otherwise the first
/// `assets/` holding the default faces, beside the executable, in the working folder, or in the
/// source tree the binary was built from; that last one when none does (the faces then warn).
pub(super) fn assets_folder() -> PathBuf {
    if let Some(dir) = std::env::var_os("TABULA_ASSETS") {
        let dir = PathBuf::from(dir);
        return std::path::absolute(&dir).unwrap_or(dir);
    }
    let built_from = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let beside_binary = std::env::current_exe().ok().and_then(|exe| exe.parent().map(|d| d.join("assets")));
    let working = std::env::current_dir().ok().map(|d| d.join("assets"));
    let found = beside_binary
        .into_iter()
        .chain(working)
        .chain([built_from.clone()])
        .find(|dir| dir.join(DEFAULT_FIGURE_FACE).is_file());
    let dir = found.unwrap_or(built_from);
    std::fs::canonicalize(&dir).unwrap_or(dir)
}

/// How a token shows its picture. Colours are sRGB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TokenLook {
    /// Multiplies the picture's colours: white shows a picture as drawn, a colour tints a grey
    /// default face.
    pub tint: [u8; 3],
    /// Shows where the picture is transparent, so the base is solid whatever the picture.
    pub base: [u8; 3],
    /// The ring round the base's edge.
    pub rim: [u8; 3],
    /// Where the ring begins, in hundredths of the radius.
    pub rim_from: u8,
}

/// `c` (0..1 a channel) as sRGB bytes.
pub(super) fn srgb_bytes(c: Vec3) -> [u8; 3] {
    [c.x, c.y, c.z].map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// `color`'s sRGB channels, 0..1.
pub(super) fn srgb_channels(color: Color) -> Vec3 {
    let c = color.to_srgba();
    Vec3::new(c.red, c.green, c.blue)
}

/// A scene's own picture: as drawn, on a dark base of `side`'s colour, ringed in `side`'s colour.
pub fn picture_look(side: Color) -> TokenLook {
    let c = srgb_channels(side);
    TokenLook { tint: [255; 3], base: srgb_bytes(c * 0.35), rim: srgb_bytes(c), rim_from: 84 }
}

/// A picture's pixels: sRGB RGBA, 8 bits a channel, rows from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgba8 {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// `width` × `height` × 4 bytes.
    pub data: Vec<u8>,
}

impl Rgba8 {
    /// One white pixel: a token of it is the plain disc of its look.
    pub fn white() -> Self {
        Self { width: 1, height: 1, data: vec![255; 4] }
    }

    fn is_whole(&self) -> bool {
        self.width > 0 && self.height > 0 && self.data.len() >= self.width as usize * self.height as usize * 4
    }
}

/// A round token `size` pixels across (RGBA, rows from the top) of `picture`: the largest
/// square cut from its middle, scaled to the disc, tinted and laid over the base of `look`,
/// ringed with its rim; clear outside the disc, its edge soft over a pixel. A picture with no
/// pixels counts as white.
pub fn round_token(picture: &Rgba8, size: u32, look: &TokenLook) -> Vec<u8> {
    let white = Rgba8::white();
    let picture = if picture.is_whole() { picture } else { &white };
    let side = picture.width.min(picture.height);
    let (left, top) = ((picture.width - side) / 2, (picture.height - side) / 2);
    // Samples a pixel along each axis: enough to average a picture larger than the token.
    let samples = side.div_ceil(size.max(1)).clamp(1, 4);
    let unit = |c: [u8; 3]| Vec3::new(f32::from(c[0]), f32::from(c[1]), f32::from(c[2])) / 255.0;
    let (tint, base, rim) = (unit(look.tint), unit(look.base), unit(look.rim));
    let rim_from = f32::from(look.rim_from) / 100.0;
    let n = size as f32;
    let px = 2.0 / n;
    let count = (samples * samples) as f32;
    let mut out = Vec::with_capacity(size as usize * size as usize * 4);
    for y in 0..size {
        for x in 0..size {
            // -1..1 across, +y up.
            let p = Vec2::new((x as f32 + 0.5) / n * 2.0 - 1.0, 1.0 - (y as f32 + 0.5) / n * 2.0);
            let r = p.length();
            let coverage = ((1.0 - r) / px + 0.5).clamp(0.0, 1.0);
            // The picture under this pixel, each sample weighted by its alpha.
            let mut colour = Vec3::ZERO;
            let mut alpha = 0.0;
            for sy in 0..samples {
                for sx in 0..samples {
                    let u = (x as f32 + (sx as f32 + 0.5) / samples as f32) / n;
                    let v = (y as f32 + (sy as f32 + 0.5) / samples as f32) / n;
                    let ix = left + ((u * side as f32) as u32).min(side - 1);
                    let iy = top + ((v * side as f32) as u32).min(side - 1);
                    let i = (iy as usize * picture.width as usize + ix as usize) * 4;
                    let a = f32::from(picture.data[i + 3]) / 255.0;
                    colour += unit([picture.data[i], picture.data[i + 1], picture.data[i + 2]]) * a;
                    alpha += a;
                }
            }
            let face = colour / count * tint + base * (1.0 - alpha / count);
            let rim_mix = ((r - rim_from) / px + 0.5).clamp(0.0, 1.0);
            let rgb = face.lerp(rim, rim_mix);
            out.extend([rgb.x, rgb.y, rgb.z, coverage].map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8));
        }
    }
    out
}

/// The token image of `picture` in `look`, [`TOKEN_PX`] across, with smaller copies for
/// zoomed-out views so a detailed picture does not shimmer.
fn token_image(picture: &Rgba8, look: &TokenLook) -> Image {
    super::patterns::mipmapped_image(round_token(picture, TOKEN_PX, look), TOKEN_PX)
}

/// A loaded image's pixels as sRGB RGBA bytes; none for a format with no colours to read.
pub(super) fn rgba8(image: &Image) -> Option<Rgba8> {
    let (width, height) = (image.width(), image.height());
    let len = width as usize * height as usize * 4;
    match image.texture_descriptor.format {
        TextureFormat::Rgba8UnormSrgb | TextureFormat::Rgba8Unorm => {
            let data = image.data.as_ref()?;
            (data.len() >= len).then(|| Rgba8 { width, height, data: data[..len].to_vec() })
        }
        _ => {
            let mut data = Vec::with_capacity(len);
            for y in 0..height {
                for x in 0..width {
                    // Bevy reads a format without sRGB in its name as linear; a picture file's
                    // values are sRGB whatever its format (16-bit PNGs), so they are taken as stored.
                    let v = match image.get_color_at(x, y).ok()? {
                        Color::Srgba(s) => [s.red, s.green, s.blue, s.alpha],
                        other => {
                            let l = other.to_linear();
                            [l.red, l.green, l.blue, l.alpha]
                        }
                    };
                    data.extend(v.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8));
                }
            }
            Some(Rgba8 { width, height, data })
        }
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Read and decode a picture file.
fn read_picture_file(path: &Path) -> Result<Rgba8, String> {
    let bytes = crate::scene::load::read_bounded(path, MAX_PICTURE_BYTES)
        .map_err(|e| e.to_string())?
        .map_err(|size| format!("{size} bytes, more than the {MAX_PICTURE_BYTES} read for a picture"))?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("png").to_ascii_lowercase();
    let image = Image::from_buffer(
        &bytes,
        ImageType::Extension(&ext),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::Default,
        RenderAssetUsages::MAIN_WORLD,
    )
    .map_err(|e| e.to_string())?;
    rgba8(&image).ok_or_else(|| "its pixels are in a format tokens cannot read".to_string())
}

/// Where a picture's pixels come from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Source {
    /// A file beside the scene file, read here.
    Beside(PathBuf),
    /// A file under `assets/`, through the asset server.
    Asset(String),
    /// In neither place: the plain token.
    Missing(String),
}

/// Where pictures are looked for.
pub(super) struct Places<'a> {
    /// The scene file's folder; none when the scene has no file.
    pub(super) scene_folder: Option<&'a Path>,
    /// The project's `assets/` folder, when known; none leaves it to the asset server.
    pub(super) assets: Option<&'a Path>,
    /// Bumped when the world is rebuilt: names are looked up again then.
    pub(super) generation: u32,
}

/// A token's request for its picture.
pub(super) struct PictureRequest<'a> {
    /// Who asks, for warnings: `figure "Ann"`.
    pub(super) owner: &'a str,
    /// The picture's name as the scene (or the default face) gives it.
    pub(super) picture: &'a str,
    /// Looked for beside the scene file first (a scene's own picture; not a default face).
    pub(super) beside_scene: bool,
    /// How the picture is drawn.
    pub(super) look: TokenLook,
    /// The plain disc drawn until the picture is read, or when it cannot be.
    pub(super) plain: TokenLook,
}

/// Every picture read and every token image baked from one.
#[derive(Resource, Default)]
pub(super) struct Pictures {
    /// Where each name (and whether it is looked for beside the scene) was found...
    names: HashMap<(String, bool), Source>,
    /// ...for this generation and scene folder.
    names_for: Option<(u32, Option<PathBuf>)>,
    /// The asset server's handles, by path under `assets/`, kept so their pictures stay loaded.
    handles: HashMap<String, Handle<Image>>,
    /// The path of each handle the asset server loads.
    loading: HashMap<AssetId<Image>, String>,
    /// The pixels of each picture read.
    pixels: HashMap<Source, Rgba8>,
    /// Files beside the scene and their modification times when last read.
    read_at: HashMap<PathBuf, Option<SystemTime>>,
    /// One token image per picture and look.
    looks: HashMap<(Source, TokenLook), Handle<Image>>,
    /// Pictures already warned about.
    warned: HashSet<String>,
}

impl Pictures {
    /// The token image for `request`: its picture baked in its look, or the plain disc until the
    /// picture is read (then baked into the same image) or when it cannot be.
    pub(super) fn token(
        &mut self,
        images: &mut Assets<Image>,
        server: Option<&AssetServer>,
        places: &Places,
        request: &PictureRequest,
    ) -> Handle<Image> {
        let source = self.source(server, places, request);
        let key = (source, request.look);
        if let Some(handle) = self.looks.get(&key) {
            return handle.clone();
        }
        let image = match self.pixels.get(&key.0) {
            Some(pixels) => token_image(pixels, &request.look),
            None => token_image(&Rgba8::white(), &request.plain),
        };
        let handle = images.add(image);
        self.looks.insert(key, handle.clone());
        handle
    }

    fn source(&mut self, server: Option<&AssetServer>, places: &Places, request: &PictureRequest) -> Source {
        let names_for = (places.generation, places.scene_folder.map(Path::to_path_buf));
        if self.names_for.as_ref() != Some(&names_for) {
            self.names.clear();
            self.names_for = Some(names_for);
        }
        let name = (request.picture.to_string(), request.beside_scene);
        if let Some(source) = self.names.get(&name) {
            return source.clone();
        }
        let source = self.find(server, places, request);
        self.names.insert(name, source.clone());
        source
    }

    fn find(&mut self, server: Option<&AssetServer>, places: &Places, request: &PictureRequest) -> Source {
        let picture = request.picture;
        // A checked scene's names are always whole; a bad one is drawn plain.
        let Some(path) = crate::scene::pictures::normal_picture_path(picture).filter(|p| !p.is_empty()) else {
            return Source::Missing(picture.to_string());
        };
        if request.beside_scene
            && let Some(folder) = places.scene_folder
        {
            let file = folder.join(&path);
            if file.is_file() {
                if !self.read_at.contains_key(&file) {
                    self.read_beside(&file, request);
                }
                return Source::Beside(file);
            }
        }
        if let Some(assets) = places.assets
            && !assets.join(&path).is_file()
        {
            let looked = match places.scene_folder.filter(|_| request.beside_scene) {
                Some(folder) => {
                    format!("is neither beside the scene ({}) nor in {}", shown_folder(folder), assets.display())
                }
                None => format!("is not in {}", assets.display()),
            };
            let owner = request.owner;
            self.warn_once(picture, || format!("{owner}: picture \"{picture}\" {looked}: the plain token is drawn"));
            return Source::Missing(path);
        }
        let Some(server) = server else { return Source::Missing(path) };
        if !self.handles.contains_key(&path) {
            let handle: Handle<Image> = server.load(path.clone());
            self.loading.insert(handle.id(), path.clone());
            self.handles.insert(path.clone(), handle);
        }
        Source::Asset(path)
    }

    /// Read a picture beside the scene, noting its file's time (so a fixed file is read again).
    fn read_beside(&mut self, file: &Path, request: &PictureRequest) {
        self.read_at.insert(file.to_path_buf(), modified(file));
        match read_picture_file(file) {
            Ok(pixels) => {
                self.pixels.insert(Source::Beside(file.to_path_buf()), pixels);
            }
            Err(e) => {
                let (owner, picture) = (request.owner, request.picture);
                self.warn_once(picture, || {
                    format!("{owner}: picture \"{picture}\" ({}): {e}: the plain token is drawn", file.display())
                });
            }
        }
    }

    /// `source`'s pixels are now `pixels`: bake every token image of it again, in place.
    fn set_pixels(&mut self, images: &mut Assets<Image>, source: Source, pixels: Rgba8) {
        for ((of, look), handle) in &self.looks {
            if *of == source
                && let Some(mut image) = images.get_mut(handle)
            {
                *image = token_image(&pixels, look);
            }
        }
        self.pixels.insert(source, pixels);
    }

    /// Read again every picture beside the scene whose file changed since it was read.
    pub(super) fn reread_changed(&mut self, images: &mut Assets<Image>) {
        let changed: Vec<PathBuf> =
            self.read_at.iter().filter(|(file, at)| modified(file) != **at).map(|(file, _)| file.clone()).collect();
        for file in changed {
            self.read_at.insert(file.clone(), modified(&file));
            match read_picture_file(&file) {
                Ok(pixels) => self.set_pixels(images, Source::Beside(file), pixels),
                Err(e) => warn!("picture {}: {e}: its tokens stay as they were", file.display()),
            }
        }
    }

    fn warn_once(&mut self, picture: &str, message: impl FnOnce() -> String) {
        if self.warned.insert(picture.to_string()) {
            warn!("{}", message());
        }
    }
}

/// A folder for a message: `.` for the working folder.
fn shown_folder(folder: &Path) -> String {
    if folder.as_os_str().is_empty() { ".".into() } else { folder.display().to_string() }
}

/// What a token system needs to get its pictures.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct PictureLoader<'w> {
    pictures: ResMut<'w, Pictures>,
    images: ResMut<'w, Assets<Image>>,
    server: Option<Res<'w, AssetServer>>,
    document: Option<Res<'w, Document>>,
    assets: Option<Res<'w, AssetsFolder>>,
    generation: Option<Res<'w, SceneGeneration>>,
}

impl PictureLoader<'_> {
    /// The token image for `request` ([`Pictures::token`]).
    pub(super) fn token(&mut self, request: &PictureRequest) -> Handle<Image> {
        let scene_folder = self.document.as_ref().and_then(|d| d.path.as_deref()).and_then(Path::parent);
        let places = Places {
            scene_folder,
            assets: self.assets.as_ref().map(|a| a.0.as_path()),
            generation: self.generation.as_ref().map_or(0, |g| g.0),
        };
        self.pictures.token(&mut self.images, self.server.as_deref(), &places, request)
    }

    /// Add an image of the token systems' own.
    pub(super) fn add(&mut self, image: Image) -> Handle<Image> {
        self.images.add(image)
    }
}

/// A picture under `assets/` loaded or changed on disk: bake its tokens again. One that could
/// not be read is warned about once; its tokens stay plain.
fn bake_loaded_pictures(
    mut pictures: ResMut<Pictures>,
    mut images: ResMut<Assets<Image>>,
    mut events: MessageReader<AssetEvent<Image>>,
    mut failures: MessageReader<AssetLoadFailedEvent<Image>>,
) {
    let mut ready: Vec<AssetId<Image>> = Vec::new();
    for event in events.read() {
        if let AssetEvent::LoadedWithDependencies { id } | AssetEvent::Modified { id } = event
            && pictures.loading.contains_key(id)
            && !ready.contains(id)
        {
            ready.push(*id);
        }
    }
    for id in ready {
        let Some(path) = pictures.loading.get(&id).cloned() else { continue };
        let pixels = images.get(id).map(rgba8);
        match pixels {
            Some(Some(pixels)) => pictures.set_pixels(&mut images, Source::Asset(path), pixels),
            Some(None) => pictures.warn_once(&path, || {
                format!("picture \"{path}\" in assets: its pixels are in a format tokens cannot read")
            }),
            None => {}
        }
    }
    for failure in failures.read() {
        if let Some(path) = pictures.loading.get(&failure.id).cloned() {
            let error = failure.error.to_string();
            pictures.warn_once(&path, || {
                format!("picture \"{path}\" in assets could not be read ({error}): the plain token is drawn")
            });
        }
    }
}

/// Once a second, read again the pictures beside the scene whose files changed.
fn reread_changed_pictures(
    time: Res<Time>,
    mut since: Local<f32>,
    mut pictures: ResMut<Pictures>,
    mut images: ResMut<Assets<Image>>,
) {
    *since += time.delta_secs();
    if *since < 1.0 {
        return;
    }
    *since = 0.0;
    pictures.reread_changed(&mut images);
}

/// The `picture` of the figure, herd or trap named `name`, for the inspector: none when it is
/// none of those (nothing to set), else its picture (`Some(None)`: it names none).
pub(super) fn picture_setting(world: &mut World, name: &str) -> Option<Option<String>> {
    let mut query = world.query::<(&Name, Option<&Figure>, Option<&Trap>, Option<&Herd>)>();
    let (_, figure, trap, herd) = query.iter(world).find(|(n, ..)| n.as_str() == name)?;
    figure
        .map(|f| f.0.picture.clone())
        .or_else(|| trap.map(|t| t.0.picture.clone()))
        .or_else(|| herd.map(|h| h.0.picture.clone()))
}

/// The edit that makes `typed` the picture of the entity named `name`, whose picture is
/// `current`: blank clears it; none when it would change nothing.
pub(super) fn picture_edit(name: &str, current: Option<&str>, typed: &str) -> Option<Edit> {
    let wanted = Some(typed.trim()).filter(|t| !t.is_empty());
    (wanted != current).then(|| Edit::SetPicture(name.to_string(), wanted.map(str::to_string)))
}

/// A trap's picture, on its own entity; it goes when its trap goes.
#[derive(Component)]
struct TrapPicture(Entity);

/// On a trap whose picture (if it names one) exists; a rebuilt world's new traps lack it.
#[derive(Component)]
struct Pictured;

/// A trap naming a picture gets it on its area, a disc `radius` round it, ringed in the colour
/// of the side that set it (grey when none did); GM-only until the players see the trap.
fn spawn_trap_pictures(
    mut commands: Commands,
    mut loader: PictureLoader,
    traps: Query<(Entity, &Trap), Without<Pictured>>,
) {
    for (entity, trap) in &traps {
        commands.entity(entity).try_insert(Pictured);
        let t = &trap.0;
        let Some(picture) = &t.picture else { continue };
        let rim = t.side.as_deref().map_or(TRAP_RIM, super::tokens::side_color);
        let owner = format!("trap \"{}\"", t.name);
        let look = picture_look(rim);
        let request =
            PictureRequest { owner: &owner, picture: picture.as_str(), beside_scene: true, look, plain: look };
        commands.spawn((
            Sprite {
                image: loader.token(&request),
                custom_size: Some(Vec2::splat(2.0 * t.radius * PX_PER_INCH)),
                ..default()
            },
            Transform::from_xyz(0.0, 0.0, TRAP_Z),
            Visibility::Hidden,
            TrapPicture(entity),
            gm_only(),
        ));
    }
}

/// Trap pictures follow their traps and go to the players when the trap does
/// ([`trap_shown_to_players`]).
fn place_trap_pictures(
    mut commands: Commands,
    playhead: Res<Playhead>,
    before: Res<BeforeMove>,
    mut pictures: Query<(Entity, &TrapPicture, &mut Transform, &mut Visibility, Has<RenderLayers>)>,
    traps: Query<(&TablePosition, &Trap)>,
) {
    for (entity, of, mut transform, mut visibility, on_gm_layer) in &mut pictures {
        let Ok((position, trap)) = traps.get(of.0) else {
            commands.entity(entity).despawn();
            continue;
        };
        let place = to_world(position.0).extend(TRAP_Z);
        if transform.translation != place {
            transform.translation = place;
        }
        visibility.set_if_neq(Visibility::Inherited);
        let public = trap_shown_to_players(&before, &playhead, of.0, trap);
        if public && on_gm_layer {
            commands.entity(entity).remove::<RenderLayers>();
        } else if !public && !on_gm_layer {
            commands.entity(entity).insert(gm_only());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAGENTA: [u8; 4] = [255, 0, 255, 255];

    fn solid(width: u32, height: u32, rgba: [u8; 4]) -> Rgba8 {
        Rgba8 { width, height, data: rgba.repeat((width * height) as usize) }
    }

    fn at(pixels: &[u8], size: u32, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * size + x) * 4) as usize;
        [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]]
    }

    /// As drawn, on black, ringed in blue from 0.8 of the radius.
    const PLAIN_BLUE_RIM: TokenLook = TokenLook { tint: [255; 3], base: [0; 3], rim: [0, 0, 255], rim_from: 80 };

    /// 8 pixels across (a pixel is 0.25 of the radius): a corner's centre is 1.24 radii out,
    /// clear; the middle four are 0.18 out, opaque and the picture's own colour.
    #[test]
    fn the_disc_is_clear_at_the_corners_and_the_picture_in_the_middle() {
        let token = round_token(&solid(8, 8, MAGENTA), 8, &PLAIN_BLUE_RIM);
        assert_eq!(token.len(), 8 * 8 * 4);
        for (x, y) in [(0, 0), (7, 0), (0, 7), (7, 7)] {
            assert_eq!(at(&token, 8, x, y)[3], 0, "corner ({x}, {y})");
        }
        for (x, y) in [(3, 3), (4, 3), (3, 4), (4, 4)] {
            assert_eq!(at(&token, 8, x, y), MAGENTA, "middle ({x}, {y})");
        }
        // Pixel (0, 3) is 0.884 radii out: coverage (1 − 0.884) / 0.25 + 0.5 = 0.964 (246), and
        // the rim's share (0.884 − 0.8) / 0.25 + 0.5 = 0.836 of its colour: red 255 × 0.164 = 42.
        assert_eq!(at(&token, 8, 0, 3), [42, 0, 255, 246]);
    }

    /// 64 across: pixel (2, 32) is 0.922 radii out, wholly rim and wholly inside the disc.
    #[test]
    fn the_rim_rings_the_edge_in_its_colour() {
        let token = round_token(&solid(64, 64, MAGENTA), 64, &PLAIN_BLUE_RIM);
        assert_eq!(at(&token, 64, 2, 32), [0, 0, 255, 255]);
        assert_eq!(at(&token, 64, 32, 32), MAGENTA);
    }

    /// A picture 12 wide and 4 high, green, magenta, green in thirds: the token shows the
    /// middle square only, so it is magenta right across (stretched, its left would be green).
    #[test]
    fn a_wide_picture_gives_the_square_from_its_middle() {
        let mut data = Vec::new();
        for _ in 0..4 {
            for x in 0..12 {
                data.extend(if (4..8).contains(&x) { MAGENTA } else { [0, 255, 0, 255] });
            }
        }
        let picture = Rgba8 { width: 12, height: 4, data };
        let token = round_token(&picture, 8, &PLAIN_BLUE_RIM);
        // (1, 4) is 0.64 radii out: inside the rim; it samples picture column 4 + floor(1.5 / 8 × 4) = 4.
        assert_eq!(at(&token, 8, 1, 4), MAGENTA);
        assert_eq!(at(&token, 8, 6, 3), MAGENTA);
    }

    /// Where the picture is clear the base shows, so the token is solid; a tint multiplies.
    #[test]
    fn the_base_shows_through_a_clear_picture_and_the_tint_multiplies() {
        let look = TokenLook { tint: [100, 150, 200], base: [10, 20, 30], rim: [0; 3], rim_from: 80 };
        let clear = round_token(&solid(4, 4, [255, 255, 255, 0]), 8, &look);
        assert_eq!(at(&clear, 8, 4, 4), [10, 20, 30, 255]);
        let white = round_token(&Rgba8::white(), 8, &look);
        assert_eq!(at(&white, 8, 4, 4), [100, 150, 200, 255]);
        // No pixels at all: as white.
        let empty = Rgba8 { width: 0, height: 0, data: Vec::new() };
        assert_eq!(round_token(&empty, 8, &look), white);
    }

    /// Averaging: a 16-wide picture of alternate black and white columns on an 8-pixel token
    /// takes two samples a pixel each way, one black and one white: mid grey.
    #[test]
    fn a_larger_picture_is_averaged() {
        let mut data = Vec::new();
        for _ in 0..16 {
            for x in 0..16 {
                data.extend(if x % 2 == 0 { [0, 0, 0, 255] } else { [255, 255, 255, 255] });
            }
        }
        let token = round_token(&Rgba8 { width: 16, height: 16, data }, 8, &PLAIN_BLUE_RIM);
        assert_eq!(at(&token, 8, 4, 4), [128, 128, 128, 255]);
    }

    #[test]
    fn a_token_image_carries_its_smaller_copies() {
        let image = token_image(&solid(8, 8, MAGENTA), &PLAIN_BLUE_RIM);
        assert_eq!(image.texture_descriptor.mip_level_count, 8, "128, 64, ..., 1");
        let bytes: usize = (0..8).map(|l| (TOKEN_PX as usize >> l).pow(2) * 4).sum();
        assert_eq!(image.data.as_ref().map(Vec::len), Some(bytes));
    }

    #[test]
    fn the_inspector_field_sets_clears_or_leaves_the_picture() {
        let set = |picture: Option<&str>| Some(Edit::SetPicture("Ann".into(), picture.map(str::to_string)));
        assert_eq!(picture_edit("Ann", None, " art/ann.png "), set(Some("art/ann.png")), "trimmed");
        assert_eq!(picture_edit("Ann", Some("ann.png"), "orc.png"), set(Some("orc.png")));
        assert_eq!(picture_edit("Ann", Some("ann.png"), "  "), set(None), "blank clears it");
        assert_eq!(picture_edit("Ann", Some("ann.png"), "ann.png"), None, "unchanged: no edit");
        assert_eq!(picture_edit("Ann", None, ""), None, "none to none: no edit");
    }

    fn write_png(path: &Path, rgba: [u8; 4]) {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, 4, 4);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("header");
        writer.write_image_data(&rgba.repeat(16)).expect("pixels");
        writer.finish().expect("written");
        std::fs::write(path, bytes).expect("written");
    }

    fn middle(images: &Assets<Image>, handle: &Handle<Image>) -> [u8; 4] {
        let data = images.get(handle).and_then(|i| i.data.as_ref()).expect("pixels");
        at(data, TOKEN_PX, TOKEN_PX / 2, TOKEN_PX / 2)
    }

    /// A picture beside the scene is read at once and baked; changed on disk, it is read again
    /// into the same image; a name found nowhere is the plain disc, warned about once.
    #[test]
    fn a_picture_beside_the_scene_is_read_and_read_again_when_it_changes() {
        let dir = std::env::temp_dir().join(format!("tabula-pictures-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp folder");
        let file = dir.join("face.png");
        write_png(&file, MAGENTA);
        let nowhere = dir.join("no-assets");
        let places = Places { scene_folder: Some(&dir), assets: Some(&nowhere), generation: 0 };
        let plain = TokenLook { tint: [1, 2, 3], base: [1, 2, 3], rim: [0; 3], rim_from: 80 };
        let request = PictureRequest {
            owner: "figure \"Ann\"",
            picture: "face.png",
            beside_scene: true,
            look: PLAIN_BLUE_RIM,
            plain,
        };
        let mut pictures = Pictures::default();
        let mut images = Assets::<Image>::default();
        let face = pictures.token(&mut images, None, &places, &request);
        assert_eq!(middle(&images, &face), MAGENTA);
        assert_eq!(pictures.token(&mut images, None, &places, &request), face, "one image a look");
        // Changed on disk (its time moved on, whatever the file system's clock resolution).
        write_png(&file, [0, 255, 255, 255]);
        let later = modified(&file).expect("a time") + std::time::Duration::from_secs(10);
        std::fs::File::options().write(true).open(&file).and_then(|f| f.set_modified(later)).expect("touched");
        pictures.reread_changed(&mut images);
        assert_eq!(middle(&images, &face), [0, 255, 255, 255]);
        // Neither beside the scene nor in assets: the plain disc, one warning for two asks.
        let missing = PictureRequest { picture: "gone.png", ..request };
        let gone = pictures.token(&mut images, None, &places, &missing);
        assert_eq!(middle(&images, &gone), [1, 2, 3, 255]);
        pictures.token(&mut images, None, &places, &PictureRequest { owner: "figure \"Bob\"", ..missing });
        assert!(pictures.warned.contains("gone.png"), "warned about");
        assert_eq!(pictures.warned.len(), 1, "once, and nothing else: {:?}", pictures.warned);
        // A default face is never looked for beside the scene.
        let face_only_in_assets = PictureRequest { beside_scene: false, ..request };
        let not_beside = pictures.token(&mut images, None, &places, &face_only_in_assets);
        assert_eq!(middle(&images, &not_beside), [1, 2, 3, 255]);
        std::fs::remove_dir_all(&dir).ok();
    }
}
