//! The GM window and the projector window. Behind the `gui` feature; the simulation never
//! depends on it.
//!
//! What players may see is drawn on the public render layer; GM-only things (hidden traps,
//! markers, paths, the projector frame) on the GM layer, which only the GM camera renders.

mod camera;
mod caption_font;
mod draw;
mod editing;
mod files;
mod fire;
mod fog;
mod herds;
mod history;
mod hover;
mod labels;
mod layers;
mod magic;
mod measure;
mod obstacles;
mod osr;
mod panels;
mod patterns;
mod pictures;
mod playhead;
mod playtest_panel;
mod prisoners;
mod record;
mod roster;
mod ruler;
mod screenshot;
mod script;
mod settings;
mod sleepers;
mod temptations;
mod tiles;
mod tokens;
mod trails;
mod traps;
mod undo;

use crate::document::Document;
use crate::scene::Scene;
use bevy::prelude::*;
use bevy_egui::{EguiGlobalSettings, EguiPlugin};
use std::path::PathBuf;
use std::process::ExitCode;

/// Bumped whenever the sim world is rebuilt; the view's mirrors of it rebuild then.
pub use crate::document::SceneGeneration;
pub use layers::{GM_LAYER, GmGizmos, PUBLIC_LAYER};
pub use patterns::write_tiles;
pub use record::{
    ClipFormat, DEFAULT_RECORD_FPS, DEFAULT_RECORD_WIDTH, MAX_RECORD_MOVES, RECORD_FPS, RECORD_WIDTH, RecordOptions,
};

/// Screen pixels per table inch at zoom 1.
pub const PX_PER_INCH: f32 = 32.0;

/// Which view the main window shows.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ViewKind {
    /// Everything, with the controls.
    #[default]
    Gm,
    /// Only what players may see, no controls (for screenshots of the projector picture).
    Projector,
}

/// How the window is opened.
#[derive(Debug, Clone, Default)]
pub struct ViewOptions {
    /// Render, save a PNG here and exit.
    pub screenshot: Option<PathBuf>,
    /// Moves to resolve before showing the table.
    pub moves: u32,
    /// Rounds to show after those moves (part-way through the next move).
    pub rounds: u32,
    /// Measure the main world's frame time over this many frames, print it and exit.
    pub measure_frames: Option<u32>,
    /// Start playing at this many moves a second.
    pub play: Option<f32>,
    /// Which picture the window shows: the GM's or the players'.
    pub view: ViewKind,
    /// Open with the roster of figures' injuries shown.
    pub roster: bool,
    /// Open with the temptations panel shown (sites, who is inside, figures' qualities).
    pub temptations: bool,
    /// Open with the prisoners panel shown (escorts, bonds, runaways, berserkers, fatigue).
    pub prisoners: bool,
    /// Open with the magic panel shown (magicians' MP, curses, mesmerisms, occult beings).
    pub magic: bool,
    /// Open with the fog of war on (the projector shows what the party sees) and the Fog panel shown.
    pub fog: bool,
    /// Open with the trails panel shown (weather, trackers and their readings, trails laid).
    pub trails: bool,
    /// Open with the obstacles panel shown (stake lines, ropes, grapnels, glass walls, planks, vehicles).
    pub obstacles: bool,
    /// Open with the OSR panel shown (turn, wandering checks, the party's pace, the encounter and its combat).
    pub osr: bool,
    /// Record the next moves into this clip, then exit (`tabula record`).
    pub record: Option<RecordOptions>,
    /// Replay this script of input (the cursor at table points, the left button, keys) frame
    /// by frame, print what it asks, take the screenshot if one is asked for, and exit
    /// (`open --script`, for the GUI smoke tests; script.rs).
    pub script: Option<PathBuf>,
}

/// Open the GM view on `scene`, read from `path` (none: not saved yet).
pub fn run(scene: Scene, path: Option<PathBuf>) -> ExitCode {
    run_with(scene, Document::at(path), ViewOptions::default())
}

/// Open the view on `scene` from `document` (its file and background image), with options
/// (screenshots for tests and docs).
pub fn run_with(scene: Scene, document: Document, options: ViewOptions) -> ExitCode {
    let script = match options.script.as_deref().map(script::read_script).transpose() {
        Ok(script) => script,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut app = App::new();
    let title =
        if scene.title.is_empty() { "Tabula — GM".to_string() } else { format!("Tabula — GM — {}", scene.title) };
    let assets = pictures::assets_folder();
    let mut plugins = DefaultPlugins.build();
    if options.measure_frames.is_some() {
        // Render after the main world, not beside it: with a software rasterizer sharing the
        // CPU, a render thread running alongside would be timed as main-world work.
        plugins = plugins.disable::<bevy::render::pipelined_rendering::PipelinedRenderingPlugin>();
    }
    app.add_plugins(
        plugins
            .set(WindowPlugin {
                primary_window: Some(Window { title, resolution: (1600, 1000).into(), ..default() }),
                // Closing with unsaved changes asks first (files.rs).
                close_when_requested: false,
                ..default()
            })
            .set(bevy::log::LogPlugin { level: bevy::log::Level::WARN, ..default() })
            // The project's pictures, watched so a replaced file shows at once (pictures.rs).
            .set(bevy::asset::AssetPlugin {
                file_path: assets.to_string_lossy().into_owned(),
                watch_for_changes_override: Some(assets.is_dir()),
                ..default()
            }),
    )
    .add_plugins(EguiPlugin::default())
    .insert_resource(EguiGlobalSettings { auto_create_primary_context: false, ..default() })
    .insert_resource(options.view)
    .insert_resource(pictures::AssetsFolder(assets))
    .add_plugins((crate::sim::plugin, plugin));
    crate::sim::world::spawn_scene(app.world_mut(), &scene, scene.seed);
    for _ in 0..options.moves {
        history::step(app.world_mut());
    }
    history::step_rounds(app.world_mut(), options.rounds, 0.0);
    // After the steps: a view opened after some moves has no unsaved changes.
    app.insert_resource(document);
    if options.roster {
        app.world_mut().resource_mut::<panels::PanelState>().show_roster = true;
    }
    if options.temptations {
        app.world_mut().resource_mut::<panels::PanelState>().show_temptations = true;
    }
    if options.prisoners {
        app.world_mut().resource_mut::<panels::PanelState>().show_prisoners = true;
    }
    if options.magic {
        app.world_mut().resource_mut::<panels::PanelState>().show_magic = true;
    }
    if options.fog {
        app.world_mut().resource_mut::<panels::PanelState>().show_fog = true;
        app.world_mut().resource_mut::<fog::FogOfWar>().on = true;
    }
    if options.trails {
        app.world_mut().resource_mut::<panels::PanelState>().show_trails = true;
    }
    if options.obstacles {
        app.world_mut().resource_mut::<panels::PanelState>().show_obstacles = true;
    }
    if options.osr {
        app.world_mut().resource_mut::<panels::PanelState>().show_osr = true;
    }
    if let Some(speed) = options.play {
        app.insert_resource(history::Playback::playing_at(speed));
    }
    if let Some(n) = options.measure_frames {
        measure::enable(&mut app, n);
    }
    match (script, options.screenshot) {
        // A script takes its picture when it is over.
        (Some(steps), shot) => {
            app.insert_resource(script::ScriptPlayer::new(steps, shot));
        }
        (None, Some(shot)) => {
            app.insert_resource(screenshot::ScreenshotPlan::new(shot));
        }
        (None, None) => {}
    }
    if let Some(clip) = options.record {
        record::record_on_launch(&mut app, clip);
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}

/// Every view plugin.
pub fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Color::srgb(0.12, 0.12, 0.14)));
    app.add_plugins(crate::document::plugin);
    app.add_plugins((
        layers::plugin,
        settings::plugin,
        camera::plugin,
        draw::plugin,
        history::plugin,
        files::plugin,
        editing::plugin,
        panels::plugin,
        screenshot::plugin,
        sleepers::plugin,
        traps::plugin,
        fire::plugin,
        hover::plugin,
        measure::plugin,
    ));
    app.add_plugins((
        herds::plugin,
        playhead::plugin,
        tokens::plugin,
        roster::plugin,
        temptations::plugin,
        prisoners::plugin,
        magic::plugin,
        fog::plugin,
        trails::plugin,
        obstacles::plugin,
    ));
    app.add_plugins(osr::plugin);
    app.add_plugins((undo::plugin, ruler::plugin, script::plugin));
    app.add_plugins(labels::plugin);
    app.add_plugins(record::plugin);
    app.add_plugins((pictures::plugin, tiles::plugin));
    app.add_plugins(playtest_panel::plugin);
}

/// Table inches to world units.
pub fn to_world(p: Vec2) -> Vec2 {
    p * PX_PER_INCH
}

/// World units to table inches.
pub fn to_table(p: Vec2) -> Vec2 {
    p / PX_PER_INCH
}

/// True in the GM view (controls and secrets shown).
pub fn is_gm_view(kind: Res<ViewKind>) -> bool {
    *kind == ViewKind::Gm
}
