//! Render layers: what the players may see, and what only the GM sees.

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;

/// Drawn for everyone: the table, terrain, figures, revealed traps.
pub const PUBLIC_LAYER: usize = 0;
/// Drawn for the GM only: hidden traps, paths, markers, the projector frame.
pub const GM_LAYER: usize = 1;

/// Gizmos for the GM's eyes only.
#[derive(Default, Reflect, GizmoConfigGroup)]
pub struct GmGizmos;

pub(super) fn plugin(app: &mut App) {
    app.init_gizmo_group::<GmGizmos>();
    app.add_systems(Startup, configure);
}

fn configure(mut store: ResMut<GizmoConfigStore>) {
    let (config, _) = store.config_mut::<GmGizmos>();
    config.render_layers = RenderLayers::layer(GM_LAYER);
    let (config, _) = store.config_mut::<DefaultGizmoConfigGroup>();
    config.render_layers = RenderLayers::layer(super::PUBLIC_LAYER);
}

/// Layers for something only the GM sees.
pub fn gm_only() -> RenderLayers {
    RenderLayers::layer(GM_LAYER)
}
