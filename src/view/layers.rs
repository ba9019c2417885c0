//! Render layers: what the players may see, and what only the GM sees.

use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;

/// Drawn for everyone: the table, terrain, figures, revealed traps.
pub const PUBLIC_LAYER: usize = 0;
/// Drawn for the GM only: hidden traps, paths, markers, the projector frame.
pub const GM_LAYER: usize = 1;
/// Drawn only by the projector's fog cameras, over the projector camera's picture: the fog of
/// war (fog.rs).
pub const PROJECTOR_FOG_LAYER: usize = 2;

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

/// A set of lines kept on the GPU and rebuilt only when what they show changes: immediate
/// gizmos are rebuilt on the CPU every frame, which thousands of tokens cannot afford.
#[derive(Component)]
pub struct RetainedLines(pub &'static str);

/// Draw into retained line sets by name.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Retained<'w, 's> {
    commands: Commands<'w, 's>,
    assets: ResMut<'w, Assets<GizmoAsset>>,
    sets: Query<'w, 's, (&'static RetainedLines, &'static Gizmo)>,
}

impl Retained<'_, '_> {
    /// Replace the lines of the set `key` on `layer` with what `draw` draws; the set is
    /// created the first time.
    pub fn redraw(&mut self, key: &'static str, layer: usize, draw: impl FnOnce(&mut GizmoAsset)) {
        let handle = match self.sets.iter().find(|(k, _)| k.0 == key) {
            Some((_, gizmo)) => gizmo.handle.clone(),
            None => {
                let handle = self.assets.add(GizmoAsset::new());
                self.commands.spawn((
                    RetainedLines(key),
                    Gizmo { handle: handle.clone(), ..default() },
                    RenderLayers::layer(layer),
                ));
                handle
            }
        };
        if let Ok(mut lines) = self.assets.get_or_insert_with(handle.id(), GizmoAsset::new) {
            lines.clear();
            draw(&mut lines);
        }
    }
}
