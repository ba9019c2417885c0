//! The GM window: the table drawn to scale, figures, traps and the dice log, with a control
//! to step moves. Behind the `gui` feature; the simulation never depends on it.

mod draw;
mod herds;
mod panels;
mod screenshot;

use crate::scene::Scene;
use bevy::prelude::*;
use bevy_egui::EguiPlugin;
use std::path::PathBuf;
use std::process::ExitCode;

/// Screen pixels per table inch at zoom 1.
pub const PX_PER_INCH: f32 = 32.0;

/// How the window is opened.
#[derive(Debug, Clone, Default)]
pub struct ViewOptions {
    /// Render, save a PNG here and exit.
    pub screenshot: Option<PathBuf>,
    /// Moves to resolve before showing the table.
    pub moves: u32,
}

/// The scene file the view shows, if it came from one.
#[derive(Resource, Debug, Clone, Default)]
pub struct ScenePath(pub Option<PathBuf>);

/// Open the GM view on `scene`.
pub fn run(scene: Scene, path: Option<PathBuf>) -> ExitCode {
    run_with(scene, path, ViewOptions::default())
}

/// Open the GM view with options (screenshots for tests and docs).
pub fn run_with(scene: Scene, path: Option<PathBuf>, options: ViewOptions) -> ExitCode {
    let mut app = App::new();
    let title = if scene.title.is_empty() { "Tabula — GM".to_string() } else { format!("Tabula — GM — {}", scene.title) };
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window { title, resolution: (1600, 1000).into(), ..default() }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .add_plugins((crate::sim::plugin, plugin));
    crate::sim::world::spawn_scene(app.world_mut(), &scene, scene.seed);
    for _ in 0..options.moves {
        crate::sim::step_move(app.world_mut());
    }
    app.insert_resource(ScenePath(path));
    if let Some(shot) = options.screenshot {
        app.insert_resource(screenshot::ScreenshotPlan::new(shot));
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Every view plugin.
pub fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Color::srgb(0.12, 0.12, 0.14)));
    app.add_plugins((draw::plugin, panels::plugin, screenshot::plugin, herds::plugin));
}

/// Table inches to world units.
pub fn to_world(p: Vec2) -> Vec2 {
    p * PX_PER_INCH
}
