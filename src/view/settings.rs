//! View settings kept between runs: projector calibration. Saved atomically as RON in the
//! user's config folder (`$XDG_CONFIG_HOME/tabula/view.ron` or `~/.config/tabula/view.ron`).

use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ViewSettings::load());
}

#[derive(Resource, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ViewSettings {
    /// The projected picture's width on the table, in real inches; with the projector window's
    /// width in pixels this fixes pixels per inch so one grid square is one real inch.
    pub projector_width_inches: f32,
    /// Open the projector window borderless full screen (else windowed).
    pub projector_fullscreen: bool,
    /// Which monitor the projector window opens on (0 = the primary).
    pub projector_monitor: usize,
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self { projector_width_inches: 40.0, projector_fullscreen: false, projector_monitor: 1 }
    }
}

fn path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("tabula").join("view.ron"))
}

impl ViewSettings {
    /// The saved settings, or defaults when there are none or they cannot be read.
    pub fn load() -> Self {
        let Some(p) = path() else { return Self::default() };
        // A settings file is a few lines; anything past 64 KiB (or a device) is not ours.
        let text = match crate::scene::load::read_bounded(&p, 64 * 1024) {
            Ok(Ok(bytes)) => String::from_utf8(bytes).map_err(|e| e.to_string()),
            Ok(Err(size)) => Err(format!("{size} bytes, more than a settings file holds")),
            Err(e) => Err(e.to_string()),
        };
        match text {
            Ok(text) => match ron::from_str::<ViewSettings>(&text) {
                Ok(s) if s.projector_width_inches.is_finite() && s.projector_width_inches > 1.0 => s,
                Ok(_) => Self::default(),
                Err(e) => {
                    warn!("{}: {e}; using default view settings", p.display());
                    Self::default()
                }
            },
            Err(e) => {
                if p.exists() {
                    warn!("{}: {e}; using default view settings", p.display());
                }
                Self::default()
            }
        }
    }

    /// Save atomically; errors are reported, not fatal.
    pub fn save(&self) -> Result<(), String> {
        let p = path().ok_or("no home folder to save settings in")?;
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let text = ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).map_err(|e| e.to_string())?;
        crate::scene::save::write_atomic(&p, text.as_bytes()).map_err(|e| format!("{}: {e}", p.display()))
    }
}
