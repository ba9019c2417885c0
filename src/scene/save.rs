//! Writing a scene: pretty RON, written to a temporary file beside the target and renamed
//! over it, so a crash mid-write never leaves a half-written scene.

use super::format::Scene;
use std::io::Write;
use std::path::Path;

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
            // A device or a FIFO: write into it; renaming over it would replace it.
            let mut f = std::fs::OpenOptions::new().write(true).open(&path)?;
            return f.write_all(contents).and_then(|_| f.flush());
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let tmp = dir.join(format!(".tabula-{}-{}.tmp", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed)));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        if let Some(m) = &existing {
            f.set_permissions(m.permissions())?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
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
    /// The file could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The scene file.
        path: std::path::PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// Save a scene atomically.
pub fn save_scene(scene: &Scene, path: &Path) -> Result<(), SaveError> {
    let text = scene_to_ron(scene)?;
    write_atomic(path, text.as_bytes()).map_err(|source| SaveError::Io { path: path.to_path_buf(), source })
}

#[cfg(test)]
mod tests {
    use super::write_atomic;
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
}
