//! Writing a scene: pretty RON, written to a temporary file beside the target and renamed
//! over it, so a crash mid-write never leaves a half-written scene.

use super::format::Scene;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The scene as RON text, as `tabula` writes it.
pub fn scene_to_ron(scene: &Scene) -> Result<String, ron::Error> {
    let config = ron::ser::PrettyConfig::new().depth_limit(6).struct_names(false);
    ron::ser::to_string_pretty(scene, config)
}

/// Write `contents` to `path` atomically: temporary file, sync, rename. What is at `path`
/// decides how:
/// - a regular file (or nothing): a temporary file in the same folder, synced, then renamed
///   over it, keeping the replaced file's permission bits;
/// - a symbolic link: the file it points to is written (atomically), the link stays;
/// - a device or a FIFO (`/dev/null` to discard): written straight into, never replaced;
/// - a folder: an error.
///
/// The temporary name is short (`.tabula-<pid>-<n>.tmp`), so any legal file name works.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    stage(path, contents)?.commit()
}

/// A file written in full but not yet in place: a synced temporary file beside its target,
/// or the bytes for a device. [`Staged::commit`] puts it in place; dropped uncommitted, the
/// temporary file is removed and nothing is left behind.
struct Staged {
    /// The file to replace (a link already followed).
    target: PathBuf,
    how: Staging,
}

/// How a [`Staged`] file goes in place.
enum Staging {
    /// Renamed over the target; `None` once committed.
    Rename(Option<PathBuf>),
    /// A device or a FIFO, written straight into (renaming over it would replace it).
    WriteInto(Vec<u8>),
}

/// Write `contents` for `path` without putting them in place yet: the checks and the writing
/// of [`write_atomic`], all but its last step.
fn stage(path: &Path, contents: &[u8]) -> std::io::Result<Staged> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    // Through a link to what it names; a dangling link's target is created.
    let path = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => resolve_link(path)?,
        _ => path.to_path_buf(),
    };
    let existing = match std::fs::metadata(&path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(m) = &existing {
        if m.is_dir() {
            return Err(std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a folder, not a file"));
        }
        if !m.is_file() {
            return Ok(Staged { target: path, how: Staging::WriteInto(contents.to_vec()) });
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = dir.join(format!(".tabula-{}-{}.tmp", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed)));
    // From here on a failure drops the staged file, which removes the temporary one.
    let staged = Staged { target: path.clone(), how: Staging::Rename(Some(tmp.clone())) };
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(contents)?;
    if let Some(m) = &existing {
        f.set_permissions(m.permissions())?;
    }
    f.sync_all()?;
    Ok(staged)
}

impl Staged {
    /// Put the file in place: rename the temporary file over the target (or write a device).
    fn commit(mut self) -> std::io::Result<()> {
        match &mut self.how {
            Staging::Rename(tmp) => match tmp.take() {
                Some(tmp) => std::fs::rename(&tmp, &self.target).inspect_err(|_| {
                    let _ = std::fs::remove_file(&tmp);
                }),
                None => Ok(()),
            },
            Staging::WriteInto(contents) => {
                let mut f = std::fs::OpenOptions::new().write(true).open(&self.target)?;
                f.write_all(contents.as_slice()).and_then(|_| f.flush())
            }
        }
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Staging::Rename(Some(tmp)) = &self.how {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Where a symbolic link points, relative links taken from the link's folder; links to links
/// are followed a bounded number of times.
fn resolve_link(link: &Path) -> std::io::Result<std::path::PathBuf> {
    let mut path = link.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Why a scene could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The scene could not be written as RON.
    #[error("could not write the scene as RON: {0}")]
    Encode(#[from] ron::Error),
    /// The scene would be larger than a scene may be to load again: nothing was written.
    #[error(
        "{path}: the scene would be {bytes} bytes, more than the {} a scene may have to load again; nothing was written",
        super::load::MAX_FILE_BYTES
    )]
    TooLarge {
        /// The scene file.
        path: std::path::PathBuf,
        /// Its size as RON.
        bytes: usize,
    },
    /// The file could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The scene file.
        path: std::path::PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// The scene as RON, refused when it would be over the size a scene may have to load.
fn loadable_text(scene: &Scene, path: &Path) -> Result<String, SaveError> {
    let text = scene_to_ron(scene)?;
    if text.len() as u64 > super::load::MAX_FILE_BYTES {
        return Err(SaveError::TooLarge { path: path.to_path_buf(), bytes: text.len() });
    }
    Ok(text)
}

/// Save a scene atomically; never a scene too large to load again (nothing is written then).
pub fn save_scene(scene: &Scene, path: &Path) -> Result<(), SaveError> {
    let text = loadable_text(scene, path)?;
    write_atomic(path, text.as_bytes()).map_err(|source| SaveError::Io { path: path.to_path_buf(), source })
}

/// A [`SaveError::Io`] for `path`, from the error that writing it gave.
fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> SaveError {
    move |source| SaveError::Io { path: path.to_path_buf(), source }
}

/// Save a scene atomically with its background image, both or neither: the scene is encoded
/// and both files are written in full under temporary names beside their targets before
/// either is put in place, the image first, so a scene never names a missing image and a
/// failed save (a folder where the scene goes, no room, no permission) leaves no image behind.
/// Should the scene's last rename fail after the image's succeeded, an image that was not
/// there before is removed again.
pub fn save_scene_with_image(scene: &Scene, path: &Path, image_path: &Path, image: &[u8]) -> Result<(), SaveError> {
    let text = loadable_text(scene, path)?;
    let image_was_there = std::fs::symlink_metadata(image_path).is_ok();
    let staged_image = stage(image_path, image).map_err(io_error(image_path))?;
    // Dropping a staged file on an error below removes its temporary file.
    let staged_scene = stage(path, text.as_bytes()).map_err(io_error(path))?;
    let image_target = staged_image.target.clone();
    staged_image.commit().map_err(io_error(image_path))?;
    staged_scene.commit().map_err(io_error(path)).inspect_err(|_| {
        if !image_was_there {
            let _ = std::fs::remove_file(&image_target);
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{SaveError, save_scene, save_scene_with_image, write_atomic};
    use std::path::PathBuf;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tabula-save-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn writes_and_replaces_a_file_leaving_no_temporary() {
        let d = dir("plain");
        let path = d.join("a.ron");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1, "no temporary left behind");
    }

    #[test]
    fn a_name_at_the_length_limit_still_saves() {
        let d = dir("long");
        let path = d.join(format!("{}.ron", "n".repeat(251)));
        write_atomic(&path, b"long").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"long");
    }

    /// The names in folder `d`, sorted (tests here and in `document::file` check what a save left).
    pub(crate) fn names(d: &std::path::Path) -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    /// A scene with its image: both are written, or neither. A scene that cannot be written
    /// (a folder where it goes) leaves no new image, no temporary file, and an image already
    /// there as it was.
    #[test]
    fn a_scene_and_its_image_are_saved_both_or_neither() {
        let d = dir("with-image");
        let scene = crate::sim::testing::scene_from_str("(version: 1, table: (width: 10, height: 10))");
        save_scene_with_image(&scene, &d.join("map.ron"), &d.join("map.png"), b"png").unwrap();
        assert_eq!(names(&d), ["map.png", "map.ron"]);
        assert_eq!(std::fs::read(d.join("map.png")).unwrap(), b"png");

        let blocked = d.join("blocked");
        std::fs::create_dir_all(blocked.join("scene.ron")).unwrap();
        let err = save_scene_with_image(&scene, &blocked.join("scene.ron"), &blocked.join("scene.png"), b"png");
        assert!(matches!(&err, Err(SaveError::Io { path, .. }) if path.ends_with("scene.ron")), "{err:?}");
        assert_eq!(names(&blocked), ["scene.ron"], "no image and no temporary file left behind");
        // An image already there is not touched by a save that fails.
        std::fs::write(blocked.join("scene.png"), b"old").unwrap();
        assert!(save_scene_with_image(&scene, &blocked.join("scene.ron"), &blocked.join("scene.png"), b"new").is_err());
        assert_eq!(std::fs::read(blocked.join("scene.png")).unwrap(), b"old");
        assert_eq!(names(&blocked), ["scene.png", "scene.ron"]);
        // A folder that is not there: nothing is written anywhere.
        let missing = d.join("missing").join("scene.ron");
        assert!(save_scene_with_image(&scene, &missing, &d.join("stray.png"), b"png").is_err());
        assert!(!d.join("stray.png").exists());
    }

    #[test]
    fn a_folder_is_refused() {
        let d = dir("folder");
        assert!(write_atomic(&d, b"x").is_err());
        assert!(d.is_dir());
    }

    #[cfg(unix)]
    #[test]
    fn permissions_links_and_devices() {
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        let d = dir("unix");
        // The replaced file's permission bits are kept.
        let path = d.join("private.ron");
        std::fs::write(&path, b"old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        // A link is written through: the target changes, the link stays a link.
        let target = d.join("target.ron");
        std::fs::write(&target, b"old").unwrap();
        let link = d.join("link.ron");
        std::os::unix::fs::symlink("target.ron", &link).unwrap();
        write_atomic(&link, b"through").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"through");
        // A device is written into, never replaced: /dev/null still discards.
        write_atomic(std::path::Path::new("/dev/null"), b"discarded").unwrap();
        assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    }

    /// A FIFO is written into, never replaced: a reader on it gets the bytes, and it is still a
    /// FIFO after, with no temporary file beside it.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_into_and_stays_a_fifo() {
        use std::os::unix::fs::FileTypeExt;
        let d = dir("fifo");
        let fifo = d.join("pipe");
        match std::process::Command::new("mkfifo").arg(&fifo).status() {
            Ok(status) if status.success() => {}
            other => {
                eprintln!("skipping: mkfifo could not make a FIFO ({other:?})");
                return;
            }
        }
        // The reader first: opening a FIFO to write waits until a reader opens it. Its answer
        // comes over a channel, so a FIFO replaced instead of written fails the test, not hangs it.
        let (sender, answer) = std::sync::mpsc::channel();
        let reader = fifo.clone();
        std::thread::spawn(move || {
            let _ = sender.send(std::fs::read(&reader));
        });
        write_atomic(&fifo, b"through the pipe").unwrap();
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
        let read = answer.recv_timeout(std::time::Duration::from_secs(30)).expect("the reader gets an answer");
        assert_eq!(read.expect("the FIFO reads"), b"through the pipe");
        assert_eq!(names(&d), ["pipe"], "no temporary file beside it");
    }

    /// A scene too large to load again is not written, and what was there stays.
    #[test]
    fn a_scene_too_large_to_load_is_not_saved() {
        let dir = std::env::temp_dir().join(format!("tabula-too-large-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.ron");
        std::fs::write(&path, "before").unwrap();
        let mut scene = crate::scene::parse_scene("(version: 1, table: (width: 10, height: 10))", &path).unwrap();
        scene.title = "x".repeat(crate::scene::load::MAX_FILE_BYTES as usize);
        let err = save_scene(&scene, &path).unwrap_err();
        assert!(matches!(err, SaveError::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("nothing was written"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "before");
        std::fs::remove_dir_all(&dir).ok();
    }
}
