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

/// Write `contents` to `path` atomically: temporary file, sync, rename.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "scene".into());
    let tmp = dir.join(format!(".{file_name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
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
