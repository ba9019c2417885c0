//! The file behind the document: a scene (.ron), or a Universal VTT map (.dd2vtt, .uvtt,
//! .df2vtt) opened directly and imported in memory with its image. Saving is atomic; a map's
//! scene is saved as .ron with the map image written beside it, so the saved scene still shows
//! the map. The file's modification time is kept so a change on disk can be offered for reload.

use super::History;
use crate::scene::uvtt::UvttError;
use crate::scene::{self, Scene, SceneError};
use crate::sim::world::{LoadedScene, snapshot_scene};
use bevy::prelude::*;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// File extensions of Universal VTT maps.
pub const MAP_EXTENSIONS: [&str; 3] = ["dd2vtt", "uvtt", "df2vtt"];

/// Is this a Universal VTT map rather than a scene file?
pub fn is_map(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| MAP_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// Where the background image comes from.
#[derive(Clone, Default, PartialEq, Eq)]
pub enum BackgroundSource {
    /// The file the scene's `background` names, in the scene file's folder (or no image).
    #[default]
    BesideFile,
    /// A map opened directly: its embedded image, in memory until the scene is saved.
    Bytes {
        /// The image file's bytes.
        bytes: Vec<u8>,
        /// The image's file extension (its format), without the dot.
        extension: &'static str,
    },
}

impl std::fmt::Debug for BackgroundSource {
    // The bytes are megabytes: show their count only.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BesideFile => f.write_str("BesideFile"),
            Self::Bytes { bytes, extension } => write!(f, "Bytes(<{} bytes of {extension}>)", bytes.len()),
        }
    }
}

/// Why a file could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The scene file could not be read or is not a valid scene.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// The map could not be read or imported.
    #[error(transparent)]
    Map(#[from] UvttError),
}

impl OpenError {
    /// The file could not be read (as against a bad file).
    pub fn is_io(&self) -> bool {
        match self {
            Self::Scene(e) => e.is_io(),
            Self::Map(e) => e.is_io(),
        }
    }
}

/// The file the GM is working on.
#[derive(Resource, Debug, Default)]
pub struct Document {
    /// The file the scene was opened from or last saved to: a scene, or a map opened directly.
    pub path: Option<PathBuf>,
    /// The scene as last read or written.
    pub scene: Option<Scene>,
    /// Where the background image comes from.
    pub background: BackgroundSource,
    /// The world differs from the file (edits, moves stepped, rewinds).
    pub dirty: bool,
    /// The file's modification time when last read or written.
    mtime: Option<SystemTime>,
    /// The file changed on disk since; the GM is offered a reload.
    pub changed_on_disk: bool,
    /// The last save, open, reload or edit problem, shown until dismissed.
    pub message: Option<String>,
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

impl Document {
    /// A document for the file at `path` (none: not saved yet), its time noted.
    pub fn at(path: Option<PathBuf>) -> Self {
        let mtime = path.as_deref().and_then(modified);
        Self { path, mtime, ..default() }
    }

    /// Read a scene file, or import a map (one inch a square, inner walls) with its image.
    pub fn open(path: &Path) -> Result<Self, OpenError> {
        let mtime = modified(path);
        let (scene, background) = if is_map(path) {
            let imported = scene::uvtt::read_uvtt(path, &scene::uvtt::ImportSettings::default())?;
            let background = match imported.image {
                Some(image) => BackgroundSource::Bytes { bytes: image.bytes, extension: image.extension },
                None => BackgroundSource::BesideFile,
            };
            (imported.scene, background)
        } else {
            (scene::load_scene(path)?, BackgroundSource::BesideFile)
        };
        Ok(Self { path: Some(path.to_path_buf()), scene: Some(scene), background, mtime, ..default() })
    }

    /// True when the document is a map opened directly (not yet saved as a scene).
    pub fn is_map(&self) -> bool {
        self.path.as_deref().is_some_and(is_map)
    }

    /// Where Save as suggests saving: the file itself, or a map's scene beside it as .ron.
    pub fn save_path(&self) -> Option<PathBuf> {
        let path = self.path.as_ref()?;
        Some(if is_map(path) { path.with_extension("ron") } else { path.clone() })
    }

    /// Look at the file on disk: note when it changed since it was read or written.
    pub fn poll_disk(&mut self) {
        let Some(path) = &self.path else { return };
        let now = modified(path);
        if now.is_some() && now != self.mtime {
            self.changed_on_disk = true;
        }
    }

    /// Keep what is in memory over a change on disk: not offered again until it changes again.
    pub fn keep_over_disk(&mut self) {
        self.mtime = self.path.as_deref().and_then(modified);
        self.changed_on_disk = false;
    }

    /// The background image's bytes and extension (lower case, no dot): from memory, or read
    /// from beside the scene file. None when the scene has no background.
    pub fn background_bytes(&self, scene: &Scene) -> Result<Option<(Cow<'_, [u8]>, String)>, String> {
        let Some(bg) = &scene.background else { return Ok(None) };
        match &self.background {
            BackgroundSource::Bytes { bytes, extension } => {
                Ok(Some((Cow::Borrowed(bytes.as_slice()), extension.to_string())))
            }
            BackgroundSource::BesideFile => {
                let path = self.folder().join(&bg.image);
                let bytes = read_image(&path)?;
                let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("png").to_ascii_lowercase();
                Ok(Some((Cow::Owned(bytes), ext)))
            }
        }
    }

    /// The folder of the document's file (the working folder when it has none).
    fn folder(&self) -> PathBuf {
        self.path.as_ref().and_then(|p| p.parent().map(Path::to_path_buf)).unwrap_or_default()
    }

    /// Save `scene` atomically to `path`, a scene file (a map is never overwritten). A map's
    /// image is written beside it as SCENE-STEM.png/.webp (as `tabula import` does) and the
    /// scene's background renamed to it; an image beside the old file is copied along when the
    /// scene moves to another folder, and so are the pictures its tokens name that are beside
    /// the old file ([`copy_pictures`]; those it could not bring are named in
    /// [`Document::message`]). The document is then that file, clean.
    pub fn save_as(&mut self, scene: &mut Scene, path: &Path) -> Result<(), String> {
        if is_map(path) {
            return Err(format!("{}: maps are not overwritten; save the scene as a .ron file", path.display()));
        }
        // The image to write beside the scene, if any: written with it, both or neither, so a
        // scene that cannot be saved leaves no image behind.
        let mut image: Option<(PathBuf, Cow<'_, [u8]>)> = None;
        if let Some(bg) = scene.background.as_mut() {
            match &self.background {
                BackgroundSource::Bytes { bytes, extension } => {
                    let stem = path.file_stem().map_or_else(|| "map".into(), |s| s.to_string_lossy().into_owned());
                    let name = format!("{stem}.{extension}");
                    image = Some((path.with_file_name(&name), Cow::Borrowed(bytes.as_slice())));
                    bg.image = name;
                }
                BackgroundSource::BesideFile => {
                    let from = self.folder().join(&bg.image);
                    let to = path.parent().map(Path::to_path_buf).unwrap_or_default().join(&bg.image);
                    if self.path.is_some() && !to.exists() && from.exists() {
                        image = Some((to, Cow::Owned(read_image(&from)?)));
                    }
                }
            }
        }
        match &image {
            Some((image_path, bytes)) => scene::save::save_scene_with_image(scene, path, image_path, bytes),
            None => scene::save_scene(scene, path),
        }
        .map_err(|e| e.to_string())?;
        drop(image);
        // After the scene is saved, so a failed save copies nothing; a picture that cannot come
        // along leaves the saved scene as valid as one that travels without its pictures.
        if self.path.is_some() {
            let to = path.parent().map(Path::to_path_buf).unwrap_or_default();
            let left = copy_pictures(scene, &self.folder(), &to);
            if !left.is_empty() {
                self.message = Some(format!("Saved; not every picture came along:\n{}", left.join("\n")));
            }
        }
        self.background = BackgroundSource::BesideFile;
        self.mtime = modified(path);
        self.path = Some(path.to_path_buf());
        self.scene = Some(scene.clone());
        self.dirty = false;
        self.changed_on_disk = false;
        Ok(())
    }
}

/// Read a background image from beside a scene file: at most [`scene::uvtt::MAX_IMAGE_BYTES`]
/// bytes, the limit a map's image has. The read stops one byte past it, so a huge file or a
/// device named as the image never fills memory.
fn read_image(path: &Path) -> Result<Vec<u8>, String> {
    let limit = scene::uvtt::MAX_IMAGE_BYTES as u64;
    scene::load::read_bounded(path, limit)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .map_err(|_| format!("{}: the image is larger than the {limit}-byte limit for images", path.display()))
}

/// `folder`, with the working folder for an empty one (a file named without its folder).
fn folder_or_working(folder: &Path) -> &Path {
    if folder.as_os_str().is_empty() { Path::new(".") } else { folder }
}

/// Whether `a` and `b` are the same folder (by their real paths when both exist).
fn same_folder(a: &Path, b: &Path) -> bool {
    let (a, b) = (folder_or_working(a), folder_or_working(b));
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Copy the pictures `scene` names (on figures, herds and traps) that lie beside its old file,
/// in `from`, to the same names beside its new one, in `to`, each written atomically. A picture
/// `to` holds already is left as it is: the same bytes need no copy, and other bytes are never
/// overwritten. Pictures not beside the old file (under `assets/`, or nowhere) are where the
/// view finds them still. What could not be brought along, one line each.
pub fn copy_pictures(scene: &Scene, from: &Path, to: &Path) -> Vec<String> {
    if same_folder(from, to) {
        return Vec::new();
    }
    let named = scene.figures.iter().filter_map(|f| f.picture.as_deref());
    let named = named.chain(scene.herds.iter().filter_map(|h| h.picture.as_deref()));
    let named = named.chain(scene.traps.iter().filter_map(|t| t.picture.as_deref()));
    // As the view looks them up: `art/../orc.png` is `orc.png`.
    let mut names: Vec<String> =
        named.filter_map(scene::pictures::normal_picture_path).filter(|p| !p.is_empty()).collect();
    names.sort();
    names.dedup();
    let mut left = Vec::new();
    for name in names {
        let source = from.join(&name);
        if source.is_file()
            && let Err(why) = copy_picture(&source, &to.join(&name))
        {
            left.push(format!("picture \"{name}\": {why}"));
        }
    }
    left
}

/// Copy the picture `source` to `target` unless `target` holds it already; an error, `target`
/// kept as it is, when it holds something else.
fn copy_picture(source: &Path, target: &Path) -> Result<(), String> {
    let bytes = read_picture(source)?;
    if std::fs::symlink_metadata(target).is_ok() {
        // Only a plain file is read to compare: a device or a FIFO there could block the read.
        let plain = std::fs::metadata(target).is_ok_and(|m| m.is_file());
        let same = plain && read_picture(target).is_ok_and(|there| there == bytes);
        return if same {
            Ok(())
        } else {
            Err(format!("{} is there already and differs: it is kept, not overwritten", target.display()))
        };
    }
    if let Some(folder) = target.parent() {
        std::fs::create_dir_all(folder_or_working(folder)).map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    scene::save::write_atomic(target, &bytes).map_err(|e| format!("{}: {e}", target.display()))
}

/// Read a picture file, at most [`scene::pictures::MAX_PICTURE_BYTES`].
fn read_picture(path: &Path) -> Result<Vec<u8>, String> {
    let limit = scene::pictures::MAX_PICTURE_BYTES;
    scene::load::read_bounded(path, limit)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .map_err(|size| format!("{}: {size} bytes, more than the {limit} copied for a picture", path.display()))
}

/// Save the world's scene to `path`, or to the document's own file.
pub fn save(world: &mut World, path: Option<PathBuf>) -> Result<(), String> {
    let Some(path) = path.or_else(|| world.resource::<Document>().path.clone()) else {
        return Err("this scene has no file yet: use Save as".into());
    };
    // A gesture under way is a step of its own before the save.
    super::undo::settle(world);
    let mut scene = snapshot_scene(world).ok_or("nothing to save")?;
    world.resource_mut::<Document>().save_as(&mut scene, &path)?;
    super::undo::saved(world);
    // A map's image is now named after the saved scene: later saves name it so too.
    if let Some(mut loaded) = world.get_resource_mut::<LoadedScene>()
        && loaded.0.background != scene.background
    {
        loaded.0.background = scene.background;
    }
    Ok(())
}

/// Open a scene file or a map in place of the world: fresh log, fresh history.
pub fn open(world: &mut World, path: &Path) -> Result<(), String> {
    let document = Document::open(path).map_err(|e| e.to_string())?;
    let Some(scene) = document.scene.clone() else { return Err("nothing to open".into()) };
    replace_world(world, &scene, document);
    Ok(())
}

/// Read the document's file again (the GM has been asked about unsaved changes).
pub fn reload(world: &mut World) -> Result<(), String> {
    let Some(path) = world.resource::<Document>().path.clone() else {
        return Err("this scene has no file to reload".into());
    };
    open(world, &path)
}

/// A new empty table, `width` by `height` inches, with no file yet.
pub fn new_scene(world: &mut World, width: f32, height: f32) -> Result<(), String> {
    let text = format!("(version: 1, table: (width: {width}, height: {height}))");
    let scene = scene::parse_scene(&text, Path::new("<new scene>")).map_err(|e| e.to_string())?;
    replace_world(world, &scene, Document::default());
    Ok(())
}

/// Put a new scene in the world: fresh log, fresh history, no undo steps, this document.
pub fn replace_world(world: &mut World, scene: &Scene, document: Document) {
    super::respawn(world, scene, scene.seed, None);
    world.resource_mut::<History>().clear();
    super::undo::forget(world);
    world.insert_resource(document);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::scene_from_str;
    use crate::sim::{EventLog, MoveClock};

    const CAVE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/uvtt/cave-20x20.dd2vtt");
    const CROPPED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/uvtt/cropped-origin-10x10.dd2vtt");

    /// The sample maps, or None (with a note) where they are not beside the clone.
    fn maps() -> Option<(PathBuf, PathBuf)> {
        for map in [CAVE, CROPPED] {
            if let Err(e) = std::fs::metadata(map) {
                eprintln!("note: skipping, sample map {map} not readable ({e}); it sits in ../shared beside the clone");
                return None;
            }
        }
        Some((PathBuf::from(CAVE), PathBuf::from(CROPPED)))
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabula-document-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn app() -> App {
        crate::document::walker_app()
    }

    fn image_bytes(document: &Document) -> Option<Vec<u8>> {
        match &document.background {
            BackgroundSource::Bytes { bytes, .. } => Some(bytes.clone()),
            BackgroundSource::BesideFile => None,
        }
    }

    #[test]
    fn a_scene_file_opens_saves_and_reloads() {
        let dir = temp_dir("ron");
        let path = dir.join("walk.ron");
        let mut app = app();
        let world = app.world_mut();
        super::super::step(world);
        save(world, Some(path.clone())).unwrap();
        assert!(!world.resource::<Document>().dirty);
        assert_eq!(world.resource::<Document>().path.as_deref(), Some(path.as_path()));
        let document = Document::open(&path).unwrap();
        assert_eq!(document.scene.as_ref().map(|s| s.clock.moves_played), Some(1));
        assert_eq!(document.background, BackgroundSource::BesideFile);
        assert!(!document.changed_on_disk);
        super::super::step(world);
        reload(world).unwrap();
        assert_eq!(world.resource::<MoveClock>().move_number, 1);
        assert!(world.resource::<EventLog>().events.is_empty(), "a reloaded scene starts a fresh log");
        assert!(world.resource::<History>().is_empty());
        assert!(!world.resource::<Document>().dirty);
        // Another program writes the file: the document notices.
        std::thread::sleep(std::time::Duration::from_millis(20));
        let text = std::fs::read_to_string(&path).unwrap().replace("moves_played: 1", "moves_played: 5");
        std::fs::write(&path, text).unwrap();
        {
            let mut document = world.resource_mut::<Document>();
            document.mtime = Some(SystemTime::UNIX_EPOCH);
            document.poll_disk();
            assert!(document.changed_on_disk);
            document.keep_over_disk();
            document.poll_disk();
            assert!(!document.changed_on_disk, "kept: not offered again until it changes again");
        }
        reload(world).unwrap();
        assert_eq!(world.resource::<MoveClock>().move_number, 5);
        assert!(save(world, Some(dir.join("walk.dd2vtt"))).is_err(), "a map is never written over");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_map_opens_directly_with_its_image() {
        let Some((cave, _)) = maps() else { return };
        let document = Document::open(&cave).unwrap();
        let scene = document.scene.as_ref().unwrap();
        assert!(scene.background.is_some(), "the cave map has an image");
        assert!(!scene.walls.is_empty());
        assert!(image_bytes(&document).is_some_and(|b| !b.is_empty()));
        assert!(document.is_map());
        assert_eq!(document.save_path(), Some(cave.with_extension("ron")));
        let bytes = document.background_bytes(scene).unwrap().unwrap();
        assert!(!bytes.0.is_empty());
        assert!(bytes.1 == "png" || bytes.1 == "webp", "{}", bytes.1);
    }

    #[test]
    fn saving_a_map_opened_directly_keeps_its_image_beside_the_scene() {
        let Some((cave, _)) = maps() else { return };
        let dir = temp_dir("map-save");
        let mut app = app();
        let world = app.world_mut();
        open(world, &cave).unwrap();
        let image = image_bytes(world.resource::<Document>()).unwrap();
        assert!(save(world, None).is_err(), "the map itself is not written over");
        let path = dir.join("cave-scene.ron");
        save(world, Some(path.clone())).unwrap();
        let saved = scene::load_scene(&path).unwrap();
        let bg = saved.background.as_ref().expect("the saved scene names its image");
        assert!(bg.image.starts_with("cave-scene."), "{}", bg.image);
        assert_eq!(std::fs::read(dir.join(&bg.image)).unwrap(), image);
        // The document is now the scene file, its image read from beside it.
        let document = world.resource::<Document>();
        assert_eq!(document.background, BackgroundSource::BesideFile);
        assert_eq!(&*document.background_bytes(&saved).unwrap().unwrap().0, image.as_slice());
        // Saving again names the same image; opening the scene shows it.
        save(world, None).unwrap();
        assert_eq!(scene::load_scene(&path).unwrap().background, saved.background);
        let reopened = Document::open(&path).unwrap();
        assert_eq!(&*reopened.background_bytes(&saved).unwrap().unwrap().0, image.as_slice());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn opening_a_second_map_replaces_the_first_ones_image() {
        let Some((cave, cropped)) = maps() else { return };
        let mut app = app();
        let world = app.world_mut();
        open(world, &cave).unwrap();
        let first = image_bytes(world.resource::<Document>()).unwrap();
        super::super::step(world);
        open(world, &cropped).unwrap();
        let document = world.resource::<Document>();
        let second = image_bytes(document).unwrap();
        assert_ne!(first, second, "the second map's image, not the first's");
        assert_eq!(document.path.as_deref(), Some(cropped.as_path()));
        assert!(!document.dirty);
        let scene = snapshot_scene(world).unwrap();
        let shown = world.resource::<Document>().background_bytes(&scene).unwrap().unwrap();
        assert_eq!(&*shown.0, second.as_slice());
        assert_eq!(world.resource::<MoveClock>().move_number, 0);
        // A scene file opened after a map shows its own (none here), not the map's.
        let dir = temp_dir("map-then-ron");
        let path = dir.join("plain.ron");
        scene::save_scene(&scene_from_str("(version: 1, table: (width: 10, height: 10))"), &path).unwrap();
        open(world, &path).unwrap();
        assert_eq!(world.resource::<Document>().background, BackgroundSource::BesideFile);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Saving a map's scene where it cannot be written (a folder of that name) fails and
    /// leaves no image beside it: the image goes with the scene or not at all.
    #[test]
    fn a_save_that_fails_leaves_no_image_behind() {
        let dir = temp_dir("failed-save");
        std::fs::remove_dir_all(&dir).ok();
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("blocked.ron");
        std::fs::create_dir_all(&target).unwrap();
        let mut scene = scene_from_str(
            "(version: 1, table: (width: 10, height: 10), background: (image: \"map.png\", size: (10, 10)))",
        );
        let mut document = Document {
            path: Some(dir.join("map.dd2vtt")),
            background: BackgroundSource::Bytes { bytes: vec![1, 2, 3], extension: "png" },
            ..default()
        };
        assert!(document.save_as(&mut scene, &target).is_err());
        assert!(!dir.join("blocked.png").exists(), "no image without its scene");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "only the folder in the way");
        // The document still holds the map's image, to save elsewhere.
        assert!(image_bytes(&document).is_some());
        document.save_as(&mut scene, &dir.join("saved.ron")).unwrap();
        assert_eq!(std::fs::read(dir.join("saved.png")).unwrap(), [1u8, 2, 3]);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Save as into another folder brings along the pictures found beside the old file, in
    /// their folders and atomically; one already there with other bytes is kept and named in
    /// the message, one with the same bytes is left; a picture not beside the old file (one in
    /// assets/) is not copied. Within one folder nothing is copied.
    #[test]
    fn save_as_elsewhere_brings_the_pictures_beside_the_old_file() {
        let dir = temp_dir("pictures");
        std::fs::remove_dir_all(&dir).ok();
        let (from, to, third) = (dir.join("from"), dir.join("to"), dir.join("third"));
        for folder in [from.join("art"), to.clone(), third.clone()] {
            std::fs::create_dir_all(folder).unwrap();
        }
        std::fs::write(from.join("art/ann.png"), b"ann").unwrap();
        std::fs::write(from.join("pit.webp"), b"pit").unwrap();
        std::fs::write(from.join("cow.png"), b"cow").unwrap();
        std::fs::write(to.join("pit.webp"), b"another pit").unwrap();
        std::fs::write(to.join("cow.png"), b"cow").unwrap();
        let mut scene = scene_from_str(
            "(version: 1, table: (width: 20, height: 10), \
             figures: [(name: \"Ann\", position: (1, 1), picture: \"art/ann.png\"), \
                       (name: \"Bob\", position: (2, 1), picture: \"./art/../art/ann.png\"), \
                       (name: \"Cy\", position: (3, 1), picture: \"tokens/default-figure.png\")], \
             traps: [(name: \"Pit\", kind: pit(depth: 1, bottom: spiked), position: (5, 5), picture: \"pit.webp\")], \
             herds: [(name: \"Cows\", beast: cow, count: 2, position: (12, 5), picture: \"cow.png\")])",
        );
        let mut document = Document { path: Some(from.join("scene.ron")), ..default() };
        document.save_as(&mut scene, &to.join("scene.ron")).unwrap();
        assert_eq!(std::fs::read(to.join("art/ann.png")).unwrap(), b"ann");
        assert_eq!(std::fs::read(to.join("pit.webp")).unwrap(), b"another pit", "kept, not overwritten");
        assert_eq!(std::fs::read(to.join("cow.png")).unwrap(), b"cow");
        use crate::scene::save::tests::names;
        assert_eq!(names(&to), ["art", "cow.png", "pit.webp", "scene.ron"], "no temporary file, no tokens/");
        assert_eq!(names(&to.join("art")), ["ann.png"]);
        let message = document.message.clone().unwrap_or_default();
        assert!(message.contains("\"pit.webp\"") && message.contains("differs"), "{message}");
        assert!(!message.contains("cow.png") && !message.contains("ann.png"), "{message}");
        assert_eq!(document.path.as_deref(), Some(to.join("scene.ron").as_path()), "saved all the same");
        // In the same folder: nothing to copy, nothing said.
        document.message = None;
        document.save_as(&mut scene, &to.join("again.ron")).unwrap();
        assert_eq!(document.message, None);
        // On to a third folder: from where the document is now, the picture kept there included.
        document.save_as(&mut scene, &third.join("scene.ron")).unwrap();
        assert_eq!(document.message, None);
        assert_eq!(std::fs::read(third.join("pit.webp")).unwrap(), b"another pit");
        assert_eq!(std::fs::read(third.join("art/ann.png")).unwrap(), b"ann");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// An image beside the scene is read only up to the image limit, when shown and when
    /// copied along by Save as into another folder: one over it is refused with a message
    /// naming it, and nothing is written.
    #[test]
    fn a_background_image_over_the_limit_is_refused_not_read_whole() {
        let dir = temp_dir("huge-image");
        std::fs::remove_dir_all(&dir).ok();
        let (from, to) = (dir.join("from"), dir.join("to"));
        std::fs::create_dir_all(&from).unwrap();
        std::fs::create_dir_all(&to).unwrap();
        // A sparse file one byte over the limit: no disk used, but read whole it is 128 MiB.
        let huge = std::fs::File::create(from.join("huge.png")).unwrap();
        huge.set_len(scene::uvtt::MAX_IMAGE_BYTES as u64 + 1).unwrap();
        drop(huge);
        let mut scene = scene_from_str(
            "(version: 1, table: (width: 10, height: 10), background: (image: \"huge.png\", size: (10, 10)))",
        );
        let mut document = Document { path: Some(from.join("map.ron")), ..default() };
        let shown = document.background_bytes(&scene).expect_err("too large to show");
        assert!(shown.contains("huge.png") && shown.contains("larger than the"), "{shown}");
        let saved = document.save_as(&mut scene, &to.join("map.ron")).expect_err("too large to copy along");
        assert!(saved.contains("huge.png") && saved.contains("limit for images"), "{saved}");
        assert_eq!(std::fs::read_dir(&to).unwrap().count(), 0, "neither scene nor image written");
        assert_eq!(document.path.as_deref(), Some(from.join("map.ron").as_path()), "still the old file");
        std::fs::remove_dir_all(&dir).ok();
    }
}
