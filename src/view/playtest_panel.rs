//! The GM view's Play-test window (issue #25, docs/playtest.md "In the GM view"): many runs of
//! the table as it stands, in the background, with a progress bar and a Cancel button; the
//! report's key lines; its JSON saved exactly as `tabula playtest --json` writes it; the runs'
//! overlays drawn on the table for the GM, with a legend; a cell's numbers on a click; and the
//! worst, median and best runs' seeds set for replaying.
//!
//! The runs are [`playtest::run_and_tally`]'s, the report [`playtest::Tally::report`]'s and the
//! JSON [`playtest::to_json`]'s: the engine entry points `tabula playtest` uses, so the numbers
//! and the file are the CLI's, byte for byte, for the same scene, runs, moves and seed. They run
//! on a thread of their own (which spreads the runs over the threads asked for) on a snapshot of
//! the world, so the view stays responsive and may be stepped or edited meanwhile.
//!
//! The overlay is one sprite on the GM layer, a texel an overlay cell (fog.rs's way): a cell's
//! viridis colour where anything happened there in some run, transparent where nothing did. Each
//! trap's sprung and spotted shares are a GM label by the trap, placed with the other labels.

use super::camera::CursorTable;
use super::editing::Tool;
use super::labels::{PlacedLabel, STATE_FONT_PX};
use super::layers::gm_only;
use super::panels::PanelState;
use super::{SceneGeneration, to_world};
use crate::document::Document;
use crate::heatmap::{CellShares, Layer, OverlayTally, Overlays, TrapMark, viridis};
use crate::playtest::{self, Report, Share};
use crate::scene::{Point, Scene};
use crate::sim::traps::Trap;
use crate::sim::world::{TableSize, snapshot_scene};
use crate::sim::{EventLog, MoveClock, SimDice};
use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PlaytestPanel>();
    app.add_systems(Startup, spawn_overlay_sprite);
    // A click that picks a cell is taken before the table tools (and the undo's gesture) see it.
    app.add_systems(
        PreUpdate,
        pick_cell
            .after(bevy::input::InputSystems)
            .after(super::script::play_script)
            .before(super::undo::begin_gesture)
            .run_if(super::is_gm_view)
            .run_if(super::script::pointer_on_table),
    );
    app.add_systems(
        Update,
        (drive.before(super::history::apply_requests), (update_overlay, update_share_labels).after(drive)),
    );
    app.add_systems(EguiPrimaryContextPass, (playtest_window, legend_window).chain().run_if(super::is_gm_view));
}

/// Most runs the window makes at once (the CLI allows [`playtest::MAX_RUNS`]).
pub(super) const MAX_PANEL_RUNS: u32 = 100_000;
/// Most moves a run of the window's plays.
pub(super) const MAX_PANEL_MOVES: u32 = 10_000;
/// The overlay lies over the ground, the fire and the GM's fog overlay (1), under beasts (1.5),
/// figures (2) and labels (5).
const OVERLAY_Z: f32 = 1.2;
/// The overlay's opacity unless the GM changes it.
const DEFAULT_OPACITY: f32 = 0.7;
/// A picked point names the traps within this many inches of it.
const TRAP_PICK_IN: f32 = 1.0;
/// The colour of the traps' share labels: apart from the GM's amber state lines.
const SHARE_INK: Color = Color::srgb(0.80, 0.86, 1.0);
/// The legend's colour bar: its size in points and the slices it is drawn in.
const BAR_WIDTH: f32 = 320.0;
const BAR_HEIGHT: f32 = 14.0;
const BAR_SLICES: u32 = 64;

/// What one play-test is asked to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ask {
    runs: u32,
    moves: u32,
    seed: u64,
    threads: usize,
}

/// A play-test running in the background.
struct Job {
    ask: Ask,
    /// Runs finished so far.
    done: Arc<AtomicUsize>,
    /// Set to stop: no run is begun after it.
    cancel: Arc<AtomicBool>,
    handle: Option<JoinHandle<Option<Finished>>>,
}

impl Job {
    fn finished(&self) -> bool {
        self.handle.as_ref().is_none_or(|h| h.is_finished())
    }

    /// Runs finished, runs asked for.
    fn progress(&self) -> (usize, usize) {
        (self.done.load(Ordering::Relaxed), self.ask.runs as usize)
    }
}

/// A finished play-test: its report, JSON and overlays, and the table it was made from.
struct Finished {
    ask: Ask,
    /// The move the table stood at.
    from_move: u32,
    /// The table play-tested (a snapshot of the world then).
    scene: Scene,
    report: Report,
    overlays: Overlays,
    /// The report as `tabula playtest --json` writes it.
    json: String,
    /// The report as `tabula playtest` prints it.
    text: String,
    secs: f64,
}

/// One of the report's notable runs, to replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Notable {
    Worst,
    Median,
    Best,
}

impl Notable {
    const ALL: [Notable; 3] = [Notable::Worst, Notable::Median, Notable::Best];

    fn word(self) -> &'static str {
        match self {
            Notable::Worst => "worst",
            Notable::Median => "median",
            Notable::Best => "best",
        }
    }

    fn seed(self, report: &Report) -> Option<u64> {
        match self {
            Notable::Worst => report.worst_seed,
            Notable::Median => report.median_seed,
            Notable::Best => report.best_seed,
        }
    }
}

/// The Play-test window's fields, what its buttons asked for, the job under way and the last
/// result.
#[derive(Resource)]
pub(super) struct PlaytestPanel {
    runs: u32,
    moves: u32,
    seed_input: String,
    /// The GM typed a seed (or a run began): stop following the world's.
    seed_edited: bool,
    threads: usize,
    start: bool,
    replay: Option<Notable>,
    save: bool,
    save_path: String,
    save_path_edited: bool,
    job: Option<Job>,
    result: Option<Finished>,
    /// Bumped with each result, so what is drawn of it is redrawn.
    serial: u32,
    /// The overlay drawn on the table (none: none).
    layer: Option<Layer>,
    opacity: f32,
    /// Each trap's shares by it on the table while an overlay is drawn.
    trap_shares: bool,
    /// A click on the table picks a cell.
    pick: bool,
    picked: Option<Vec2>,
    /// What the last run, save or replay came to: whether it went well, and what to say.
    message: Option<(bool, String)>,
    /// A script's play-test (`open --script`): the JSON is saved here when it is done.
    script: Option<PathBuf>,
    script_error: Option<String>,
}

impl Default for PlaytestPanel {
    fn default() -> Self {
        Self {
            runs: 200,
            moves: 20,
            seed_input: String::new(),
            seed_edited: false,
            threads: available_threads(),
            start: false,
            replay: None,
            save: false,
            save_path: String::new(),
            save_path_edited: false,
            job: None,
            result: None,
            serial: 0,
            layer: None,
            opacity: DEFAULT_OPACITY,
            trap_shares: true,
            pick: false,
            picked: None,
            message: None,
            script: None,
            script_error: None,
        }
    }
}

impl PlaytestPanel {
    /// A script's `playtest RUNS MOVES SEED THREADS OUT`: the Run button's play-test with those
    /// numbers (the threads kept to the cores there are: the report does not depend on them),
    /// its JSON saved to `out` by the Save button's code when it is done.
    pub(super) fn ask_from_script(&mut self, runs: u32, moves: u32, seed: u64, threads: usize, out: PathBuf) {
        self.runs = runs.clamp(1, MAX_PANEL_RUNS);
        self.moves = moves.clamp(1, MAX_PANEL_MOVES);
        self.seed_input = seed.to_string();
        self.seed_edited = true;
        self.threads = threads.clamp(1, available_threads());
        self.start = true;
        self.script = Some(out);
        self.script_error = None;
    }

    /// A script's play-test is asked for or under way, or its JSON not yet saved.
    pub(super) fn script_waiting(&self) -> bool {
        self.script.is_some()
    }

    /// Why a script's play-test wrote no JSON, once.
    pub(super) fn take_script_error(&mut self) -> Option<String> {
        self.script_error.take()
    }

    /// Draw `layer` on the table (none: no overlay), at `opacity` (0 to 1) when given.
    pub(super) fn set_overlay(&mut self, layer: Option<Layer>, opacity: Option<f32>) {
        self.layer = layer;
        if let Some(o) = opacity {
            self.opacity = o.clamp(0.0, 1.0);
        }
    }

    /// What a pick at `at` (table inches) shows, as one line (`print overlay X Y`).
    pub(super) fn pick_line(&self, at: Vec2) -> String {
        let lines = match &self.result {
            Some(result) => pick_lines(&result.overlays, (at.x, at.y)),
            None => vec!["no play-test".to_string()],
        };
        format!("overlay at ({:.2}, {:.2}): {}", at.x, at.y, lines.join("; "))
    }

    /// The form's play-test, checked.
    fn ask(&self) -> Result<Ask, String> {
        let seed = self
            .seed_input
            .trim()
            .parse::<u64>()
            .map_err(|_| format!("seed: `{}` is not a whole number from 0 up", self.seed_input.trim()))?;
        Ok(Ask {
            runs: self.runs.clamp(1, MAX_PANEL_RUNS),
            moves: self.moves.clamp(1, MAX_PANEL_MOVES),
            seed,
            threads: self.threads.clamp(1, available_threads()),
        })
    }
}

/// The cores there are to run on.
fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The file Save JSON offers: beside the scene, `SCENE-playtest.json`.
pub(super) fn default_json_path(scene: Option<&Path>) -> PathBuf {
    match scene {
        Some(path) => {
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "scene".into());
            path.with_file_name(format!("{stem}-playtest.json"))
        }
        None => PathBuf::from("playtest.json"),
    }
}

/// Write `json` to `path` atomically (never over the scene file `scene_file`); what to say.
fn save_json(path: &Path, json: &str, scene_file: Option<&Path>) -> Result<String, String> {
    if path.as_os_str().is_empty() {
        return Err("Save JSON: name the file to write".into());
    }
    let same = scene_file.is_some_and(
        |scene| matches!((std::fs::canonicalize(scene), std::fs::canonicalize(path)), (Ok(a), Ok(b)) if a == b),
    );
    if same {
        return Err(format!("{}: is the scene file; the report goes in a file of its own", path.display()));
    }
    crate::scene::save::write_atomic(path, json.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(format!("{}: written, {} bytes", path.display(), json.len()))
}

/// The play-test, on its own thread: the runs, then the report, its JSON and text, and the
/// overlays, all as `tabula playtest` makes them; none when cancelled.
fn play_test(
    scene: Scene,
    ask: Ask,
    title: &str,
    from_move: u32,
    done: &AtomicUsize,
    cancel: &AtomicBool,
) -> Option<Finished> {
    let started = Instant::now();
    // Runs finish on several threads at once: the count only goes up.
    let progress = |d: u32| {
        done.fetch_max(d as usize, Ordering::Relaxed);
    };
    let gathered =
        playtest::run_and_tally(&scene, ask.runs, ask.moves, ask.seed, ask.threads, &progress, cancel, true)?;
    let report = gathered.tally.report(title, ask.moves, ask.seed);
    let overlays = gathered.overlays.unwrap_or_else(|| OverlayTally::new(&scene)).overlays();
    let json = playtest::to_json(&report);
    let text = playtest::to_text(&report);
    Some(Finished { ask, from_move, scene, report, overlays, json, text, secs: started.elapsed().as_secs_f64() })
}

/// Begin the form's play-test on a snapshot of the world as it stands.
fn start_job(world: &mut World) -> Result<(), String> {
    if world.resource::<PlaytestPanel>().job.is_some() {
        return Err("a play-test is running: cancel it first".into());
    }
    let ask = world.resource::<PlaytestPanel>().ask()?;
    let from_move = world.resource::<MoveClock>().move_number;
    crate::sim::moves_after(from_move, ask.moves).map_err(|full| full.to_string())?;
    let scene = snapshot_scene(world).ok_or("there is no scene to play-test")?;
    let path = world.get_resource::<Document>().and_then(|d| d.path.clone());
    let title = playtest::report_title(&scene, path.as_deref());
    let done = Arc::new(AtomicUsize::new(0));
    let cancel = Arc::new(AtomicBool::new(false));
    let (counter, stop) = (Arc::clone(&done), Arc::clone(&cancel));
    let handle = std::thread::Builder::new()
        .name("tabula-playtest".into())
        .spawn(move || play_test(scene, ask, &title, from_move, &counter, &stop))
        .map_err(|e| format!("could not start the play-test: {e}"))?;
    let mut panel = world.resource_mut::<PlaytestPanel>();
    panel.job = Some(Job { ask, done, cancel, handle: Some(handle) });
    // The seed stays the one play-tested, whatever the world's becomes (a replay sets it).
    panel.seed_edited = true;
    panel.message = None;
    Ok(())
}

/// A job that has ended: keep its result, or say why there is none; a script's JSON is saved.
fn poll(panel: &mut PlaytestPanel, scene_file: Option<&Path>) {
    if !panel.job.as_ref().is_some_and(Job::finished) {
        return;
    }
    let Some(mut job) = panel.job.take() else { return };
    let (done, total) = job.progress();
    let ended = match job.handle.take().map(JoinHandle::join) {
        Some(Ok(Some(finished))) => Ok(finished),
        Some(Ok(None)) => Err(format!("play-test cancelled after {done} of {total} runs: no report")),
        Some(Err(_)) | None => Err("the play-test failed: no report".to_string()),
    };
    match ended {
        Ok(finished) => {
            let ask = finished.ask;
            let (runs, moves, secs, threads) = (ask.runs, ask.moves, finished.secs, ask.threads);
            panel.message = Some((true, format!("{runs} runs of {moves} moves in {secs:.1} s on {threads} threads")));
            if let Some(out) = panel.script.take() {
                panel.script_error = save_json(&out, &finished.json, scene_file).err();
            }
            panel.result = Some(finished);
            panel.serial = panel.serial.wrapping_add(1);
            panel.picked = None;
        }
        Err(e) => {
            if panel.script.take().is_some() {
                panel.script_error = Some(e.clone());
            }
            panel.message = Some((false, e));
        }
    }
}

/// Start, poll, replay and save, once a frame, before the controls' requests are applied.
fn drive(world: &mut World) {
    let scene_file = world.get_resource::<Document>().and_then(|d| d.path.clone());
    let table = world.get_resource::<TableSize>().map(|t| t.0);
    let (start, replay_asked, save) = {
        let mut panel = world.resource_mut::<PlaytestPanel>();
        poll(&mut panel, scene_file.as_deref());
        // Another table (a scene opened or a new one): the overlay is not of it.
        let other_table = panel
            .result
            .as_ref()
            .is_some_and(|r| table.is_some_and(|t| t != Vec2::new(r.scene.table.width, r.scene.table.height)));
        if other_table {
            panel.result = None;
            panel.picked = None;
            panel.serial = panel.serial.wrapping_add(1);
        }
        (std::mem::take(&mut panel.start), panel.replay.take(), std::mem::take(&mut panel.save))
    };
    if start && let Err(e) = start_job(world) {
        let mut panel = world.resource_mut::<PlaytestPanel>();
        if panel.script.take().is_some() {
            panel.script_error = Some(e.clone());
        }
        panel.message = Some((false, e));
    }
    if let Some(which) = replay_asked {
        let said = replay(world, which);
        world.resource_mut::<PlaytestPanel>().message = Some(said);
    }
    if save {
        let mut panel = world.resource_mut::<PlaytestPanel>();
        let said = match &panel.result {
            Some(result) => save_json(Path::new(panel.save_path.trim()), &result.json, scene_file.as_deref()),
            None => Err("no play-test to save yet".into()),
        };
        panel.message = Some(match said {
            Ok(s) => (true, s),
            Err(e) => (false, e),
        });
    }
}

/// Set the seed of a notable run on the table it was play-tested from, so that stepping moves
/// plays that run: rewind to the play-test's move if the table has moved on, set the seed
/// through the document (as the Reseed control does, an undo step), and rebuild the world with
/// it, as a run of the play-test begins (a Khemri scene's counters are dealt from the seed).
fn replay(world: &mut World, which: Notable) -> (bool, String) {
    let Some((seed, from_move, played)) = world
        .resource::<PlaytestPanel>()
        .result
        .as_ref()
        .and_then(|r| Some((which.seed(&r.report)?, r.from_move, r.scene.clone())))
    else {
        return (false, "no play-test to replay".into());
    };
    let now = world.resource::<MoveClock>().move_number;
    let mut rewound = true;
    if now > from_move {
        rewound = crate::document::rewind(world, from_move + 1);
    }
    crate::document::reseed(world, seed);
    if let Some(scene) = snapshot_scene(world) {
        let log = world.remove_resource::<EventLog>();
        crate::document::respawn(world, &scene, seed, log);
    }
    let same = snapshot_scene(world).is_some_and(|mut scene| {
        scene.seed = played.seed;
        scene == played
    });
    if same {
        let word = which.word();
        (true, format!("seed {seed} (the {word} run) set at move {from_move}: step moves to replay it"))
    } else {
        let why = if rewound { "moved or edited since" } else { "its move is no longer in the history" };
        (
            false,
            format!(
                "seed {seed} set, but the table is not the one play-tested at move {from_move} ({why}): stepping \
                 plays that seed on the table as it stands"
            ),
        )
    }
}

/// While "Pick a cell" is on (with the Select tool, the window open and an overlay drawn), a
/// left click on the table picks the cell under it and is taken from the table tools: it
/// neither selects nor drags.
fn pick_cell(
    mut buttons: ResMut<ButtonInput<MouseButton>>,
    cursor: Res<CursorTable>,
    tool: Res<Tool>,
    panels: Res<PanelState>,
    mut panel: ResMut<PlaytestPanel>,
) {
    let picking =
        panel.pick && panels.show_playtest && *tool == Tool::Select && panel.layer.is_some() && panel.result.is_some();
    if !picking {
        return;
    }
    let Some(at) = cursor.0 else { return };
    if buttons.clear_just_pressed(MouseButton::Left) {
        panel.picked = Some(at);
    }
}

/// A share as the window and a pick show it: `31.6% [27.7–35.8] (63 of 200 runs)`.
fn share_text(s: &Share) -> String {
    format!("{:.1}% [{:.1}–{:.1}] ({} of {} runs)", 100.0 * s.share, 100.0 * s.low, 100.0 * s.high, s.count, s.of)
}

/// A share and its interval, short: `31.6% [27.7–35.8]`.
fn percent(s: &Share) -> String {
    format!("{:.1}% [{:.1}–{:.1}]", 100.0 * s.share, 100.0 * s.low, 100.0 * s.high)
}

/// A layer's name, as the heatmap's captions name it.
fn layer_title(layer: Layer) -> &'static str {
    match layer {
        Layer::Burn => "burn probability",
        Layer::Hurt => "where figures were hurt",
        Layer::Ends => "where figures ended",
    }
}

/// What a layer's colour counts, for a cell of `cell_in` inches.
fn layer_counts(layer: Layer, cell_in: f32) -> String {
    match layer {
        Layer::Burn => format!("the share of runs in which each {cell_in}\" cell burnt"),
        Layer::Hurt => format!("the share of runs with a figure hurt in each {cell_in}\" cell"),
        Layer::Ends => format!("the share of runs with a figure ending in each {cell_in}\" cell"),
    }
}

/// What a pick at `at` (table inches) shows: the cell, each layer's share there with its 95%
/// interval, and each trap within [`TRAP_PICK_IN`] of it with its sprung and spotted shares.
pub(super) fn pick_lines(overlays: &Overlays, at: Point) -> Vec<String> {
    let grid = overlays.burn.grid();
    let Some(index) = grid.cell_at(at) else { return vec!["off the table".to_string()] };
    let (col, row) = grid.column_row(index);
    let c = grid.cell_in;
    let (x, y) = (col as f32 * c, row as f32 * c);
    let mut lines = vec![format!("the {c}\" cell from ({x}, {y}) to ({}, {})", x + c, y + c)];
    for layer in Layer::ALL {
        if let Some(share) = overlays.layer(layer).share(col, row) {
            lines.push(format!("{}: {}", layer_title(layer), share_text(&share)));
        }
    }
    let near = |t: &&TrapMark| Vec2::new(t.position.0 - at.0, t.position.1 - at.1).length() <= TRAP_PICK_IN;
    for t in overlays.traps.iter().filter(near) {
        lines.push(format!("trap {}: sprung {}, spotted {}", t.name, share_text(&t.sprung), share_text(&t.spotted)));
    }
    lines
}

/// The label by a trap: its sprung and spotted shares with their intervals.
fn share_label(mark: &TrapMark) -> String {
    let short = |s: &Share| format!("{:.0}% [{:.0}-{:.0}]", 100.0 * s.share, 100.0 * s.low, 100.0 * s.high);
    format!("sprung {}\nspotted {}", short(&mark.sprung), short(&mark.spotted))
}

/// The overlay's texels, RGBA: each cell's viridis colour, opaque, where anything happened in
/// it in some run; transparent where nothing did. Texture rows run down from the top, the
/// grid's rows up from the bottom.
pub(super) fn overlay_texels(shares: &CellShares) -> Vec<u8> {
    let (columns, rows) = (shares.width as usize, shares.height as usize);
    let runs = shares.runs.max(1) as f32;
    let mut texels = vec![0u8; columns * rows * 4];
    for row in 0..rows {
        let texel_row = (rows - 1 - row) * columns;
        for col in 0..columns {
            let count = shares.counts.get(row * columns + col).copied().unwrap_or(0);
            if count == 0 {
                continue;
            }
            let [r, g, b] = viridis(count as f32 / runs);
            let at = (texel_row + col) * 4;
            texels[at..at + 4].copy_from_slice(&[r, g, b, u8::MAX]);
        }
    }
    texels
}

/// The overlay picture, sampled nearest so cells stay square.
fn overlay_image(columns: u32, rows: u32, texels: Vec<u8>) -> Image {
    let mut image = Image::new(
        Extent3d { width: columns.max(1), height: rows.max(1), depth_or_array_layers: 1 },
        TextureDimension::D2,
        texels,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::nearest();
    image
}

/// The overlay's picture.
#[derive(Resource)]
struct OverlayPicture(Handle<Image>);

/// The overlay's sprite.
#[derive(Component)]
struct OverlaySprite;

/// A trap's share label.
#[derive(Component)]
struct ShareLabel;

fn spawn_overlay_sprite(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    let handle = images.add(overlay_image(1, 1, vec![0; 4]));
    commands.insert_resource(OverlayPicture(handle.clone()));
    commands.spawn((
        Sprite { image: handle, ..default() },
        Transform::from_xyz(0.0, 0.0, OVERLAY_Z),
        Visibility::Hidden,
        gm_only(),
        OverlaySprite,
    ));
}

/// The result drawn, the layer and the opacity: the overlay is redrawn when one changes.
type OverlayKey = (u32, Option<Layer>, u32);

/// Redraw the overlay when the result, the layer or the opacity changed; hide it with none.
fn update_overlay(
    panel: Res<PlaytestPanel>,
    picture: Option<Res<OverlayPicture>>,
    mut images: ResMut<Assets<Image>>,
    mut sprites: Query<(&mut Sprite, &mut Transform, &mut Visibility), With<OverlaySprite>>,
    mut last: Local<Option<OverlayKey>>,
) {
    let shown = panel.result.as_ref().zip(panel.layer);
    let key = (panel.serial, shown.map(|(_, l)| l), panel.opacity.to_bits());
    if *last == Some(key) {
        return;
    }
    *last = Some(key);
    let Some(picture) = picture else { return };
    let Some((result, layer)) = shown else {
        for (_, _, mut visibility) in &mut sprites {
            visibility.set_if_neq(Visibility::Hidden);
        }
        return;
    };
    let shares = result.overlays.layer(layer);
    let texels = overlay_texels(shares);
    if let Some(mut image) = images.get_mut(&picture.0) {
        if image.size() == UVec2::new(shares.width, shares.height) {
            image.data = Some(texels);
        } else {
            *image = overlay_image(shares.width, shares.height, texels);
        }
    }
    // The last row and column of cells may reach a little past the table's far edges.
    let size = to_world(Vec2::new(shares.width as f32, shares.height as f32) * shares.cell_in);
    for (mut sprite, mut transform, mut visibility) in &mut sprites {
        sprite.custom_size = Some(size);
        sprite.color = Color::srgba(1.0, 1.0, 1.0, panel.opacity);
        transform.set_if_neq(Transform::from_translation((size / 2.0).extend(OVERLAY_Z)));
        visibility.set_if_neq(Visibility::Inherited);
    }
}

/// Label each trap with its shares while an overlay is drawn (and the GM wants them); again
/// when the world is rebuilt (its traps are new entities then).
fn update_share_labels(
    mut commands: Commands,
    panel: Res<PlaytestPanel>,
    generation: Res<SceneGeneration>,
    traps: Query<(Entity, &Trap)>,
    old: Query<Entity, With<ShareLabel>>,
    mut last: Local<Option<(u32, bool, SceneGeneration)>>,
) {
    let show = panel.trap_shares && panel.layer.is_some();
    let key = (panel.serial, show, *generation);
    if *last == Some(key) {
        return;
    }
    *last = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(result) = panel.result.as_ref().filter(|_| show) else { return };
    for (entity, trap) in &traps {
        let Some(mark) = result.overlays.traps.iter().find(|m| m.name == trap.0.name) else { continue };
        commands.spawn((
            Text2d::new(share_label(mark)),
            TextFont { font_size: FontSize::Px(STATE_FONT_PX), ..default() },
            TextColor(SHARE_INK),
            Transform::from_xyz(0.0, 0.0, 6.0),
            ShareLabel,
            PlacedLabel::reading(entity),
            gm_only(),
        ));
    }
}

fn playtest_window(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    mut panel: ResMut<PlaytestPanel>,
    mut tool: ResMut<Tool>,
    clock: Res<MoveClock>,
    dice: Res<SimDice>,
    document: Res<Document>,
) -> Result {
    if !panels.show_playtest {
        return Ok(());
    }
    let panel = &mut *panel;
    if !panel.seed_edited {
        panel.seed_input = dice.seed.to_string();
    }
    if !panel.save_path_edited {
        panel.save_path = default_json_path(document.path.as_deref()).display().to_string();
    }
    let available = available_threads();
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Play-test").open(&mut open).default_pos([8.0, 56.0]).default_width(520.0).show(ctx, |ui| {
        ui.label(format!(
            "Run the table as it stands (move {}) many times from consecutive seeds, in the background: the \
             same runs, numbers and JSON as `tabula playtest`.",
            clock.move_number
        ));
        ui.horizontal(|ui| {
            ui.label("Runs");
            ui.add(egui::DragValue::new(&mut panel.runs).range(1..=MAX_PANEL_RUNS));
            ui.label("moves");
            ui.add(egui::DragValue::new(&mut panel.moves).range(1..=MAX_PANEL_MOVES));
            ui.label("threads");
            ui.add(egui::DragValue::new(&mut panel.threads).range(1..=available));
        });
        ui.horizontal(|ui| {
            ui.label("First seed");
            if ui.add(egui::TextEdit::singleline(&mut panel.seed_input).desired_width(170.0)).changed() {
                panel.seed_edited = true;
            }
            ui.weak("run i uses seed + i");
        });
        match &panel.job {
            Some(job) => {
                let (done, total) = job.progress();
                let text = if job.cancel.load(Ordering::Relaxed) {
                    format!("cancelling: the runs under way finish ({done} of {total})")
                } else {
                    format!("run {done} of {total}")
                };
                ui.add(egui::ProgressBar::new(done as f32 / total.max(1) as f32).text(text));
                if ui.button("Cancel").clicked() {
                    job.cancel.store(true, Ordering::Relaxed);
                }
            }
            None => {
                if ui.button("Run").clicked() {
                    panel.start = true;
                }
            }
        }
        if let Some((fine, said)) = &panel.message {
            let colour =
                if *fine { egui::Color32::from_rgb(140, 220, 140) } else { egui::Color32::from_rgb(255, 120, 100) };
            ui.colored_label(colour, said.as_str());
        }
        let Some(result) = &panel.result else { return };
        ui.separator();
        let r = &result.report;
        let last_seed = r.first_seed.saturating_add(u64::from(r.runs.saturating_sub(1)));
        ui.strong(format!(
            "{}: {} runs of {} moves from move {}, seeds {}..{last_seed}",
            r.scene, r.runs, r.moves, result.from_move, r.first_seed
        ));
        if !r.traps.is_empty() {
            egui::Grid::new("playtest traps").striped(true).show(ui, |ui| {
                for head in ["trap", "approached", "spotted", "sprung", "disarmed", "victims"] {
                    ui.strong(head);
                }
                ui.end_row();
                for t in &r.traps {
                    ui.label(t.name.as_str());
                    for s in [&t.approached, &t.spotted, &t.sprung, &t.disarmed] {
                        ui.monospace(percent(s));
                    }
                    ui.monospace(format!("{:.2}", t.victims_per_sprung));
                    ui.end_row();
                }
            });
        }
        if !r.figures.is_empty() {
            egui::Grid::new("playtest figures").striped(true).show(ui, |ui| {
                for head in ["figure", "reached goal", "hurt", "dead", "moves lost"] {
                    ui.strong(head);
                }
                ui.end_row();
                for f in &r.figures {
                    ui.label(f.name.as_str());
                    for s in [&f.reached_goal, &f.hurt, &f.dead] {
                        ui.monospace(percent(s));
                    }
                    ui.monospace(format!("{:.1}", f.mean_moves_lost));
                    ui.end_row();
                }
            });
        }
        let (burnt, alarm) = (percent(&r.building_burnt), percent(&r.alarm_raised));
        ui.label(format!("a building burnt: {burnt}; alarm raised: {alarm}"));
        egui::CollapsingHeader::new("The whole report, as tabula playtest prints it").show(ui, |ui| {
            egui::ScrollArea::both().max_height(260.0).show(ui, |ui| {
                let text = egui::RichText::new(result.text.as_str()).monospace();
                ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend));
            });
        });
        ui.horizontal(|ui| {
            ui.label("Replay:");
            for which in Notable::ALL {
                if let Some(seed) = which.seed(r)
                    && ui
                        .button(format!("{} run (seed {seed})", which.word()))
                        .on_hover_text("Set this seed on the table play-tested; then step moves to replay the run")
                        .clicked()
                {
                    panel.replay = Some(which);
                }
            }
        });
        ui.separator();
        ui.horizontal_wrapped(|ui| {
            ui.label("On the table:");
            ui.radio_value(&mut panel.layer, None, "none");
            for layer in Layer::ALL {
                ui.radio_value(&mut panel.layer, Some(layer), layer_title(layer));
            }
        });
        ui.add(egui::Slider::new(&mut panel.opacity, 0.1..=1.0).text("opacity"));
        ui.checkbox(&mut panel.trap_shares, "each trap's sprung and spotted shares by it");
        let pick = ui
            .checkbox(&mut panel.pick, "Pick a cell: a click on the table shows its numbers")
            .on_hover_text("While ticked, with an overlay drawn, a click picks a cell: it neither selects nor drags");
        if pick.changed() && panel.pick {
            *tool = Tool::Select;
        }
        if let Some(at) = panel.picked {
            for line in pick_lines(&result.overlays, (at.x, at.y)) {
                ui.monospace(line);
            }
        }
        ui.separator();
        ui.horizontal(|ui| {
            if ui.add(egui::TextEdit::singleline(&mut panel.save_path).desired_width(330.0)).changed() {
                panel.save_path_edited = true;
            }
            if ui.button("Save JSON...").on_hover_text("The report as tabula playtest --json writes it").clicked() {
                panel.save = true;
            }
        });
    });
    panels.show_playtest = open;
    Ok(())
}

/// While an overlay is drawn: what it shows, the colour bar from 0% to 100%, and the runs.
fn legend_window(mut contexts: EguiContexts, panel: Res<PlaytestPanel>) -> Result {
    let (Some(result), Some(layer)) = (&panel.result, panel.layer) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let cell_in = result.overlays.layer(layer).cell_in;
    // Under the middle of the table: the GM view keeps 440 px on the right for the panels.
    egui::Window::new("Play-test legend")
        .title_bar(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_BOTTOM, [-220.0, -8.0])
        .show(ctx, |ui| {
            ui.strong(format!("Play-test: {}", layer_title(layer)));
            ui.label(layer_counts(layer, cell_in));
            colour_bar(ui);
            let r = &result.report;
            let (runs, moves, from) = (r.runs, r.moves, result.from_move);
            ui.weak(format!("{runs} runs of {moves} moves from move {from}; uncoloured: in no run"));
        });
    Ok(())
}

/// Viridis from 0% to 100%, with ticks and numbers at every quarter.
fn colour_bar(ui: &mut egui::Ui) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(BAR_WIDTH, BAR_HEIGHT + 18.0), egui::Sense::hover());
    let bar = egui::Rect::from_min_size(rect.min, egui::vec2(BAR_WIDTH, BAR_HEIGHT));
    let painter = ui.painter();
    for i in 0..BAR_SLICES {
        let x = |k: u32| bar.left() + bar.width() * k as f32 / BAR_SLICES as f32;
        let [r, g, b] = viridis((i as f32 + 0.5) / BAR_SLICES as f32);
        let slice = egui::Rect::from_min_max(egui::pos2(x(i), bar.top()), egui::pos2(x(i + 1), bar.bottom()));
        painter.rect_filled(slice, 0.0, egui::Color32::from_rgb(r, g, b));
    }
    let ink = ui.visuals().text_color();
    for quarter in 0..=4u32 {
        let x = bar.left() + bar.width() * quarter as f32 / 4.0;
        let tick = [egui::pos2(x, bar.bottom()), egui::pos2(x, bar.bottom() + 3.0)];
        painter.line_segment(tick, egui::Stroke::new(1.0, ink));
        let align = match quarter {
            0 => egui::Align2::LEFT_TOP,
            4 => egui::Align2::RIGHT_TOP,
            _ => egui::Align2::CENTER_TOP,
        };
        let at = egui::pos2(x, bar.bottom() + 4.0);
        painter.text(at, align, format!("{}%", quarter * 25), egui::FontId::proportional(12.0), ink);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playtest::wilson;

    fn shares(width: u32, height: u32, runs: u32, counts: Vec<u32>) -> CellShares {
        CellShares { cell_in: 1.0, width, height, runs, counts }
    }

    #[test]
    fn a_cell_is_coloured_by_its_share_and_one_where_nothing_happened_is_clear() {
        // 2 x 2 cells, rows from the bottom: (0,0) in 4 of 4 runs, (1,0) none, (0,1) 1, (1,1) 2.
        let texels = overlay_texels(&shares(2, 2, 4, vec![4, 0, 1, 2]));
        assert_eq!(texels.len(), 16);
        let texel = |x: usize, y: usize| &texels[(y * 2 + x) * 4..(y * 2 + x) * 4 + 4];
        let opaque = |[r, g, b]: [u8; 3]| [r, g, b, 255];
        // The texture's top row is the grid's top row.
        assert_eq!(texel(0, 0), opaque(viridis(0.25)));
        assert_eq!(texel(1, 0), opaque(viridis(0.5)));
        assert_eq!(texel(0, 1), opaque(viridis(1.0)));
        assert_eq!(texel(1, 1), [0, 0, 0, 0], "a cell where nothing happened is transparent");
        assert_eq!(opaque(viridis(1.0)), [253, 231, 37, 255]);
    }

    #[test]
    fn a_pick_names_the_cell_its_shares_with_their_intervals_and_the_traps_by_it() {
        let burn = shares(3, 2, 20, vec![0, 5, 0, 0, 0, 20]);
        let none = shares(3, 2, 20, vec![0; 6]);
        let overlays = Overlays {
            runs: 20,
            burn,
            hurt: none.clone(),
            ends: none,
            traps: vec![TrapMark {
                name: "pit".into(),
                position: (1.5, 0.5),
                sprung: wilson(10, 20),
                spotted: wilson(0, 20),
            }],
            figures: Vec::new(),
        };
        let lines = pick_lines(&overlays, (1.2, 0.9));
        let five = wilson(5, 20);
        assert_eq!(lines[0], "the 1\" cell from (1, 0) to (2, 1)");
        assert_eq!(
            lines[1],
            format!("burn probability: 25.0% [{:.1}–{:.1}] (5 of 20 runs)", 100.0 * five.low, 100.0 * five.high)
        );
        assert!(lines[2].starts_with("where figures were hurt: 0.0% [0.0–"), "{}", lines[2]);
        assert!(lines[4].starts_with("trap pit: sprung 50.0% ["), "{}", lines[4]);
        assert_eq!(lines.len(), 5);
        // A point over 1" from the trap names no trap; off the table, nothing but that.
        assert_eq!(pick_lines(&overlays, (2.9, 1.9)).len(), 4);
        assert_eq!(pick_lines(&overlays, (-1.0, 0.5)), ["off the table"]);
    }

    #[test]
    fn the_report_goes_beside_the_scene_and_never_over_it() {
        assert_eq!(default_json_path(Some(Path::new("scenes/tomb.ron"))), Path::new("scenes/tomb-playtest.json"));
        assert_eq!(default_json_path(None), Path::new("playtest.json"));
        let dir = std::env::temp_dir().join(format!("tabula-playtest-panel-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let scene = dir.join("scene.ron");
        std::fs::write(&scene, "(version: 1)").unwrap();
        assert!(save_json(&scene, "{}", Some(scene.as_path())).unwrap_err().contains("is the scene file"));
        assert_eq!(std::fs::read_to_string(&scene).unwrap(), "(version: 1)");
        let out = dir.join("report.json");
        assert!(save_json(&out, "{\"runs\": 1}", Some(scene.as_path())).is_ok());
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "{\"runs\": 1}");
        assert!(save_json(Path::new(""), "{}", None).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn the_form_reads_its_seed_and_keeps_its_numbers_in_bounds() {
        let mut panel = PlaytestPanel { seed_input: " 42 ".into(), runs: 0, moves: 20_000, ..default() };
        assert_eq!(panel.ask().map(|a| (a.runs, a.moves, a.seed)), Ok((1, MAX_PANEL_MOVES, 42)));
        panel.seed_input = "-3".into();
        assert!(panel.ask().unwrap_err().starts_with("seed: `-3`"));
        panel.ask_from_script(200, 20, 5, 10_000, PathBuf::from("x.json"));
        let ask = panel.ask().unwrap();
        assert_eq!((ask.runs, ask.moves, ask.seed), (200, 20, 5));
        assert!((1..=available_threads()).contains(&ask.threads));
        assert!(panel.start && panel.script_waiting());
        panel.set_overlay(Some(Layer::Burn), Some(2.0));
        assert_eq!((panel.layer, panel.opacity), (Some(Layer::Burn), 1.0));
        assert_eq!(panel.pick_line(Vec2::new(1.0, 2.0)), "overlay at (1.00, 2.00): no play-test");
    }
}
