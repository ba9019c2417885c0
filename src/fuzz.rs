//! A fuzz and property harness for the scene loader and the Universal VTT importer.
//!
//! Two deterministic mutators make inputs out of good ones: [`mutate_scene`] (scene RON) and
//! [`mutate_uvtt`] (map JSON). The same input and seed always give the same output, on every
//! platform: they use a generator of their own, not `rand`'s algorithms.
//!
//! Two checks state what must hold for any input, [`check_scene_case`] and [`check_uvtt_case`]:
//!
//! - nothing panics (a panic is caught and reported with its message and where it happened);
//! - a refused input gets a clear error: a scene error starts with the file name and is located
//!   (`file:line:col` for syntax, an entity and a field for a failed check); a map error names
//!   the file and a field;
//! - the loader's quick reader of plain RON takes a text only where `ron` reads the same scene
//!   from it;
//! - an accepted input saves as `tabula` saves (`--final`, `import -o`) and loads again with no
//!   problem, unchanged;
//! - an accepted scene within the [`SimBudget`] runs a few moves with the case's seed, and the
//!   scene `tabula sim --final` would write then loads with no problem, unchanged: a saved scene
//!   always loads.
//!
//! [`Corpus`] turns good files into numbered [`Case`]s. `tests/fuzz.rs` runs a fixed, bounded
//! pass under `cargo test`; `examples/fuzz.rs` runs for as long as it is asked to. See
//! `docs/fuzzing.md`.

use crate::scene::base64::encode_base64;
use crate::scene::fires::{FireIgnition, Igniter, MAX_IGNITIONS};
use crate::scene::format::{
    CattleGrid, Condition, ConditionKind, Door, DoorKind, Material, Point, Region, Scene, Shape, Skill, Table, Wall,
    WallKind,
};
use crate::scene::load::{
    MAX_CONDITIONS, MAX_ENTITIES_PER_KIND, MAX_GROUP_SIZE, MAX_HERD_SIZE, MAX_MOVES_PLAYED, MAX_NAME_CHARS, MAX_POINTS,
    MAX_TABLE_INCHES, SceneError, parse_scene, validate,
};
use crate::scene::save::scene_to_ron;
use crate::scene::sleepers::{MAX_MEMBER_CONDITIONS, Sleeper, SleeperState};
use crate::scene::traps::TrapKind;
use crate::scene::uvtt::{EDGE_SNAP_SQUARES, ImportSettings, MAX_TOTAL_POINTS, UvttError, import_uvtt};
use crate::sim::Simulation;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The file name a scene case is given in errors.
pub const SCENE_CASE_FILE: &str = "fuzz-case.ron";
/// The file name a map case is given in errors.
pub const MAP_CASE_FILE: &str = "fuzz-case.dd2vtt";
/// The file name a saved scene is given in errors when it is loaded again.
const SAVED_FILE: &str = "fuzz-saved.ron";

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

/// The largest scene a check simulates. A mutated count or table size can make a scene that is
/// valid but takes minutes a move in a debug build; beyond the budget a case is only loaded,
/// saved and loaded again. Huge work per move is looked for by the local runner
/// (`examples/fuzz.rs`), whose budget is every scene and whose cases have a time limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimBudget {
    /// Largest table area, square inches.
    pub table_area: f32,
    /// Most fire-front cells: the table's area over the square of `rules.fire.cell_size`.
    pub fire_cells: f32,
    /// Most entities of any one kind (regions, walls, doors, lights, figures, traps, fires,
    /// herds, sleeping groups, cattle grids).
    pub entities: usize,
    /// Most points in walls, polygons and paths together.
    pub points: usize,
    /// Most beasts in all herds together.
    pub beasts: u64,
    /// Most members of all sleeping groups together.
    pub sleepers: usize,
    /// Most recorded ignitions.
    pub ignitions: usize,
}

impl SimBudget {
    /// For `cargo test`, a debug build: a little more than the example scenes (a 100" square
    /// table, a million fire cells, 200 entities of a kind, 5000 points, 2000 beasts).
    pub const TEST: SimBudget = SimBudget {
        table_area: 100.0 * 100.0,
        fire_cells: 1_000_000.0,
        entities: 200,
        points: 5_000,
        beasts: 2_000,
        sleepers: 400,
        ignitions: 2_000,
    };

    /// Every scene the loader accepts (the scene limits in `docs/scene-format.md`).
    pub const ANY: SimBudget = SimBudget {
        table_area: f32::INFINITY,
        fire_cells: f32::INFINITY,
        entities: usize::MAX,
        points: usize::MAX,
        beasts: u64::MAX,
        sleepers: usize::MAX,
        ignitions: usize::MAX,
    };

    /// Whether `scene` is within the budget.
    pub fn allows(&self, scene: &Scene) -> bool {
        let area = scene.table.width * scene.table.height;
        let cell = scene.rules.fire.cell_size;
        let kinds = [
            scene.terrain.len(),
            scene.walls.len(),
            scene.doors.len(),
            scene.lights.len(),
            scene.figures.len(),
            scene.traps.len(),
            scene.fires.len(),
            scene.herds.len(),
            scene.sleepers.len(),
            scene.cattle_grids.len(),
        ];
        let polygon_points = |r: &Region| match &r.shape {
            Shape::Polygon { points } => points.len(),
            _ => 0,
        };
        let points = scene.walls.iter().map(|w| w.points.len()).sum::<usize>()
            + scene.figures.iter().map(|f| f.path.len()).sum::<usize>()
            + scene.terrain.iter().map(polygon_points).sum::<usize>();
        let beasts: u64 = scene.herds.iter().map(|h| u64::from(h.count)).sum();
        let sleepers: usize = scene.sleepers.iter().map(|g| g.members.len()).sum();
        area <= self.table_area
            && area / (cell * cell) <= self.fire_cells
            && kinds.iter().all(|&n| n <= self.entities)
            && points <= self.points
            && beasts <= self.beasts
            && sleepers <= self.sleepers
            && scene.ignitions.len() <= self.ignitions
    }
}

/// How much of a case to run, and what counts as a finding beyond the properties every case
/// must have.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckOptions {
    /// Moves to simulate an accepted scene for; 0 never simulates.
    pub moves: u32,
    /// Simulate one accepted case in this many, chosen by the case's seed (1: every one; 0:
    /// none). The simulation is most of a case's time.
    pub sim_one_in: u64,
    /// Scenes larger than this are not simulated.
    pub budget: SimBudget,
    /// A step (loading, importing, simulating) slower than this is a finding: huge work. None:
    /// never (a debug build's times say little).
    pub slow: Option<Duration>,
    /// A case still running after this long is a finding (a hang or huge work); its thread is
    /// left running and the next case goes on. None: wait for every case.
    pub deadline: Option<Duration>,
    /// An error line longer than this many characters is a finding: an error that quotes a
    /// megabyte name is not clear. None: any length.
    pub max_error_line: Option<usize>,
}

impl CheckOptions {
    /// For `cargo test`: 3 moves for one accepted case in 2 within [`SimBudget::TEST`], a minute
    /// at most a case, no time or length findings.
    pub const TEST: CheckOptions = CheckOptions {
        moves: 3,
        sim_one_in: 2,
        budget: SimBudget::TEST,
        slow: None,
        deadline: Some(Duration::from_secs(60)),
        max_error_line: None,
    };

    /// For the local runner, a release build: 3 moves for every accepted case, any size; a step
    /// over 5 s or a case over 2 minutes is huge work; error lines at most 2000 characters.
    pub const LOCAL: CheckOptions = CheckOptions {
        moves: 3,
        sim_one_in: 1,
        budget: SimBudget::ANY,
        slow: Some(Duration::from_secs(5)),
        deadline: Some(Duration::from_secs(120)),
        max_error_line: Some(2_000),
    };
}

/// What a case did when it held every property (a case that does not is a finding, an `Err`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseOutcome {
    /// Refused with a clear error.
    Rejected,
    /// Loaded (or imported), saved and loaded again unchanged.
    Accepted {
        /// The moves were run too, and the `--final` scene loaded again unchanged.
        simulated: bool,
    },
}

// ---------------------------------------------------------------------------------------------
// Cases and the corpus
// ---------------------------------------------------------------------------------------------

/// Whether a case is a scene or a map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaseKind {
    /// Scene RON, checked by [`check_scene_case`].
    Scene,
    /// Universal VTT JSON, checked by [`check_uvtt_case`].
    Map,
}

impl CaseKind {
    /// `scene` or `map`.
    pub fn id(self) -> &'static str {
        match self {
            CaseKind::Scene => "scene",
            CaseKind::Map => "map",
        }
    }

    /// The file extension its inputs are written with: `ron` or `dd2vtt`.
    pub fn extension(self) -> &'static str {
        match self {
            CaseKind::Scene => "ron",
            CaseKind::Map => "dd2vtt",
        }
    }

    /// Whether a file is one of this kind's inputs, by its extension.
    fn reads(self, path: &Path) -> bool {
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        match self {
            CaseKind::Scene => extension == "ron",
            CaseKind::Map => matches!(extension, "dd2vtt" | "uvtt" | "df2vtt"),
        }
    }
}

/// One input to check: where it came from, its seed and the text itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// Scene or map.
    pub kind: CaseKind,
    /// The good file it was made from (its file name).
    pub source: String,
    /// The seed it was mutated with, which also seeds its simulation (and a map's import
    /// settings, [`import_settings`]).
    pub seed: u64,
    /// The input: scene RON or map JSON.
    pub input: String,
}

impl Case {
    /// Check the case: `Err` is a finding.
    pub fn check(&self, options: &CheckOptions) -> Result<CaseOutcome, String> {
        match self.kind {
            CaseKind::Scene => check_scene_case(&self.input, self.seed, options),
            CaseKind::Map => check_uvtt_case(self.input.as_bytes(), self.seed, options),
        }
    }

    /// The file name its input is written under: `scene-tomb-00000000000000ff.ron`.
    pub fn file_name(&self) -> String {
        let stem = Path::new(&self.source)
            .file_stem()
            .map_or_else(|| "case".to_string(), |s| s.to_string_lossy().into_owned());
        format!("{}-{stem}-{:016x}.{}", self.kind.id(), self.seed, self.kind.extension())
    }

    /// Write the input into `folder` (created if need be), with a note beside it
    /// (`<file>.txt`) holding the finding, the source, the seed and how to reproduce it.
    /// Returns the input's path.
    pub fn write(&self, folder: &Path, finding: &str) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(folder)?;
        let file = folder.join(self.file_name());
        std::fs::write(&file, &self.input)?;
        let note = format!("{finding}\n\nsource: {}\nseed: {:#x}\n{}\n", self.source, self.seed, self.reproduce(&file));
        std::fs::write(folder.join(format!("{}.txt", self.file_name())), note)?;
        Ok(file)
    }

    /// How to run the case again by hand, with its input written at `file`.
    pub fn reproduce(&self, file: &Path) -> String {
        let f = file.display();
        match self.kind {
            CaseKind::Scene => format!(
                "reproduce: tabula check {f}; tabula sim {f} --moves 3 --seed {} --final /tmp/final.ron && tabula check /tmp/final.ron",
                self.seed
            ),
            CaseKind::Map => {
                let settings = import_settings(self.seed);
                let outer = if settings.wall_kind == WallKind::Outer { " --outer-walls" } else { "" };
                format!(
                    "reproduce: tabula import {f} -o /tmp/map.ron --inches-per-square={}{outer} && tabula check /tmp/map.ron",
                    settings.inches_per_square
                )
            }
        }
    }
}

/// The seed of case `index` of a pass started from `base`: well mixed, so neighbouring cases
/// differ.
pub fn case_seed(base: u64, index: u64) -> u64 {
    Mix::new(base ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

/// Mixed into a map case's seed, so scene case `i` and map case `i` differ.
const MAP_SALT: u64 = 0x6D61_7073_0000_0001;

/// The good inputs cases are made from: scene texts and parsed maps, each with its file name.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    scenes: Vec<(String, String)>,
    maps: Vec<(String, Value)>,
}

impl Corpus {
    /// Add a scene's text, named `source` in findings.
    pub fn add_scene(&mut self, source: &str, text: &str) {
        self.scenes.push((source.to_string(), text.to_string()));
    }

    /// Add a map file's bytes, named `source` in findings; an error when they are not JSON.
    pub fn add_map(&mut self, source: &str, bytes: &[u8]) -> Result<(), String> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(bytes);
        let map: Value = serde_json::from_slice(bytes).map_err(|e| format!("{source}: not JSON: {e}"))?;
        self.maps.push((source.to_string(), map));
        Ok(())
    }

    /// Add every file of `kind` in `folder` (`*.ron` scenes; `*.dd2vtt`, `*.uvtt` and `*.df2vtt`
    /// maps), in name order. Returns how many were added.
    pub fn add_folder(&mut self, folder: &Path, kind: CaseKind) -> Result<usize, String> {
        let entries = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| kind.reads(p)).collect();
        files.sort();
        for file in &files {
            let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
            let source =
                file.file_name().map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned());
            match kind {
                CaseKind::Scene => self.add_scene(&source, &String::from_utf8_lossy(&bytes)),
                CaseKind::Map => self.add_map(&source, &bytes)?,
            }
        }
        Ok(files.len())
    }

    /// Add, for each scene source so far, the scene `tabula sim --final` writes after `moves`
    /// moves with `seed`, named `<source stem>-after-<moves>-moves`: sources that hold what only
    /// the simulation writes (fire state, ignitions, conditions, sleepers' states, disarmed and
    /// sprung traps). A source that does not load, or whose run panics or cannot be written, adds
    /// nothing (the originals' own check reports it). Returns how many were added.
    pub fn add_finals(&mut self, moves: u32, seed: u64) -> usize {
        let mut finals = Vec::new();
        for (source, text) in &self.scenes {
            let Ok(scene) = parse_scene(text, Path::new(source)) else { continue };
            let run = || scene_to_ron(&crate::sim::run(&scene, seed, moves).end);
            let Ok(Ok(saved)) = guarded("a run for a source", run) else { continue };
            let stem = source.strip_suffix(".ron").unwrap_or(source);
            finals.push((format!("{stem}-after-{moves}-moves"), saved));
        }
        let added = finals.len();
        self.scenes.extend(finals);
        added
    }

    /// How many scenes cases are made from.
    pub fn scene_sources(&self) -> usize {
        self.scenes.len()
    }

    /// How many maps cases are made from.
    pub fn map_sources(&self) -> usize {
        self.maps.len()
    }

    /// Every source as it is, scenes then maps, with seed 0 (a map's default import settings):
    /// each must load, run, save and load again.
    pub fn originals(&self) -> Vec<Case> {
        let scenes = self.scenes.iter().map(|(source, text)| Case {
            kind: CaseKind::Scene,
            source: source.clone(),
            seed: 0,
            input: text.clone(),
        });
        let maps = self.maps.iter().map(|(source, map)| Case {
            kind: CaseKind::Map,
            source: source.clone(),
            seed: 0,
            input: serde_json::to_string(map).unwrap_or_default(),
        });
        scenes.chain(maps).collect()
    }

    /// Scene case `index` of the pass seeded `base`: the sources taken in turn, each mutated
    /// with [`case_seed`]. None when there are no scenes.
    pub fn scene_case(&self, index: u64, base: u64) -> Option<Case> {
        if self.scenes.is_empty() {
            return None;
        }
        let (source, text) = &self.scenes[(index % self.scenes.len() as u64) as usize];
        let seed = case_seed(base, index);
        Some(Case { kind: CaseKind::Scene, source: source.clone(), seed, input: mutate_scene(text, seed) })
    }

    /// Map case `index` of the pass seeded `base`, as [`Corpus::scene_case`]. None when there
    /// are no maps.
    pub fn map_case(&self, index: u64, base: u64) -> Option<Case> {
        if self.maps.is_empty() {
            return None;
        }
        let (source, map) = &self.maps[(index % self.maps.len() as u64) as usize];
        let seed = case_seed(base ^ MAP_SALT, index);
        Some(Case { kind: CaseKind::Map, source: source.clone(), seed, input: mutate_uvtt(map, seed) })
    }
}

// ---------------------------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------------------------

/// Check one scene text: `Ok` when it held every property (see the module documentation),
/// `Err` with a short description of the finding otherwise. `seed` seeds the simulation.
pub fn check_scene_case(text: &str, seed: u64, options: &CheckOptions) -> Result<CaseOutcome, String> {
    let text = text.to_string();
    let options = *options;
    with_deadline(options.deadline, "the scene case", move || scene_case(&text, seed, &options))?
}

/// [`check_scene_case`] with [`CheckOptions::TEST`], the outcome left out.
pub fn check_case(text: &str, seed: u64) -> Result<(), String> {
    check_scene_case(text, seed, &CheckOptions::TEST).map(|_| ())
}

/// Check one map file's bytes, imported with [`import_settings`]`(seed)`: `Ok` when it held
/// every property, `Err` with a short description of the finding otherwise.
pub fn check_uvtt_case(bytes: &[u8], seed: u64, options: &CheckOptions) -> Result<CaseOutcome, String> {
    let bytes = bytes.to_vec();
    let options = *options;
    with_deadline(options.deadline, "the map case", move || map_case(&bytes, seed, &options))?
}

/// The import settings a map case runs with, from its seed: the defaults for seed 0 (the
/// originals) and most seeds, sometimes another scale or outer walls, now and then a scale the
/// importer must refuse.
pub fn import_settings(seed: u64) -> ImportSettings {
    if seed == 0 {
        return ImportSettings::default();
    }
    let mut rng = Mix::new(seed ^ 0x1A7E_5E77);
    let inches_per_square = match rng.below(20) {
        0 => 0.5,
        1 => 2.0,
        2 => 0.0,
        3 => -1.0,
        4 => f32::NAN,
        5 => MAX_TABLE_INCHES,
        6 => f32::INFINITY,
        7 => 1.0e-6,
        _ => 1.0,
    };
    let wall_kind = if rng.one_in(4) { WallKind::Outer } else { WallKind::Inner };
    ImportSettings { inches_per_square, wall_kind }
}

fn scene_case(text: &str, seed: u64, options: &CheckOptions) -> Result<CaseOutcome, String> {
    let path = Path::new(SCENE_CASE_FILE);
    let started = Instant::now();
    let loaded = guarded("loading the scene", || parse_scene(text, path))?;
    check_time(options, "loading the scene", started.elapsed())?;
    quick_reader_agrees(text)?;
    let scene = match loaded {
        Ok(scene) => scene,
        Err(e) => {
            check_scene_error(&e, text, path, options)?;
            return Ok(CaseOutcome::Rejected);
        }
    };
    round_trip(&scene, "the loaded scene")?;
    let simulated = simulate(&scene, seed, options)?;
    Ok(CaseOutcome::Accepted { simulated })
}

/// The loader's quick reader takes a text only where `ron` reads the same scene from it.
fn quick_reader_agrees(text: &str) -> Result<(), String> {
    let Some(quick) = guarded("the quick reader", || crate::scene::quick_ron::read::<Scene>(text))? else {
        return Ok(());
    };
    // Compared as `Debug` text, so NaNs in both compare equal.
    match parse_unchecked(text) {
        Some(slow) if format!("{quick:?}") == format!("{slow:?}") => Ok(()),
        Some(_) => Err("the quick reader and ron read different scenes from the text".into()),
        None => Err("the quick reader took a text ron refuses".into()),
    }
}

fn map_case(bytes: &[u8], seed: u64, options: &CheckOptions) -> Result<CaseOutcome, String> {
    let settings = import_settings(seed);
    let started = Instant::now();
    let imported = guarded("importing the map", || import_uvtt(bytes, MAP_CASE_FILE, &settings))?;
    check_time(options, "importing the map", started.elapsed())?;
    let scene = match imported {
        Ok(imported) => imported.scene,
        Err(e) => {
            check_map_error(&e, options)?;
            return Ok(CaseOutcome::Rejected);
        }
    };
    let problems = validate(&scene);
    if !problems.is_empty() {
        let list: Vec<String> = problems.iter().take(5).map(|p| p.to_string()).collect();
        return Err(format!("the import is accepted but its scene fails the scene checks: {}", list.join("; ")));
    }
    round_trip(&scene, "the imported scene (as `tabula import -o` writes it)")?;
    let simulated = simulate(&scene, seed, options)?;
    Ok(CaseOutcome::Accepted { simulated })
}

/// Run `options.moves` moves of an accepted scene (when it is chosen and within the budget)
/// and check the scene `--final` would write. Whether it ran comes back.
fn simulate(scene: &Scene, seed: u64, options: &CheckOptions) -> Result<bool, String> {
    if options.moves == 0 || !chosen_for_sim(seed, options.sim_one_in) || !options.budget.allows(scene) {
        return Ok(false);
    }
    let moves = options.moves;
    let started = Instant::now();
    let end = guarded("the simulation", || {
        let mut sim = Simulation::new(scene, seed);
        sim.step_moves(moves);
        sim.scene_now()
    })?;
    check_time(options, &format!("simulating {moves} moves"), started.elapsed())?;
    let end = end.ok_or_else(|| "the simulation has no scene to save (`Simulation::scene_now` is None)".to_string())?;
    round_trip(&end, &format!("the `--final` scene after {moves} moves with seed {seed}"))?;
    Ok(true)
}

/// Whether the case seeded `seed` is one of the `one_in` simulated.
fn chosen_for_sim(seed: u64, one_in: u64) -> bool {
    one_in != 0 && Mix::new(seed ^ 0x51A1_57E9).next_u64().is_multiple_of(one_in)
}

/// Save `scene` as `tabula` does, load it back and save it again: it must load with no problem
/// and come back unchanged.
fn round_trip(scene: &Scene, what: &str) -> Result<(), String> {
    let saved = guarded("saving the scene", || scene_to_ron(scene))?
        .map_err(|e| format!("{what} cannot be written as RON: {e}"))?;
    let back = match guarded("loading the saved scene", || parse_scene(&saved, Path::new(SAVED_FILE)))? {
        Ok(back) => back,
        Err(e) => return Err(format!("{what}, saved, does not load: {}", clip_lines(&e.to_string(), 6))),
    };
    let again = guarded("saving the scene again", || scene_to_ron(&back))?
        .map_err(|e| format!("{what}, loaded again, cannot be written as RON: {e}"))?;
    if again != saved {
        return Err(format!("{what} changes when saved, loaded and saved again: {}", first_difference(&saved, &again)));
    }
    Ok(())
}

/// A scene error must name the file first and say where: `file:line:col` inside the text for
/// syntax, an entity and a message for each failed check.
fn check_scene_error(e: &SceneError, text: &str, path: &Path, options: &CheckOptions) -> Result<(), String> {
    let shown = e.to_string();
    let name = path.display().to_string();
    let bad = |why: &str| format!("{why}: {}", clip_lines(&shown, 6));
    if e.is_io() {
        return Err(bad("an I/O error from text in memory"));
    }
    if !shown.starts_with(&name) {
        return Err(bad("the error does not start with the file name"));
    }
    if let SceneError::Syntax { line, col, message, .. } = e {
        let lines = text.split('\n').count();
        if *line == 0 || *col == 0 || *line > lines {
            return Err(bad(&format!("a syntax error located at {line}:{col}, outside the text's {lines} lines")));
        }
        if message.trim().is_empty() {
            return Err(bad("a syntax error without a message"));
        }
    }
    if let SceneError::Invalid { problems, .. } = e {
        if problems.is_empty() {
            return Err(bad("the scene is refused with no problem listed"));
        }
        if let Some(p) = problems.iter().find(|p| p.entity.trim().is_empty() || p.message.trim().is_empty()) {
            return Err(bad(&format!("a problem without an entity or a message: {p:?}")));
        }
    }
    check_line_length(&shown, options.max_error_line)
}

/// A map error must name the file first, then a field, then what is wrong.
fn check_map_error(e: &UvttError, options: &CheckOptions) -> Result<(), String> {
    let shown = e.to_string();
    let bad = |why: &str| format!("{why}: {}", clip_lines(&shown, 4));
    if e.is_io() {
        return Err(bad("an I/O error from bytes in memory"));
    }
    if !shown.starts_with(&format!("{MAP_CASE_FILE}: ")) {
        return Err(bad("the error does not start with the file name"));
    }
    if e.field.trim().is_empty() || e.message.trim().is_empty() {
        return Err(bad("an error without a field or a message"));
    }
    check_line_length(&shown, options.max_error_line)
}

fn check_line_length(shown: &str, limit: Option<usize>) -> Result<(), String> {
    let Some(limit) = limit else { return Ok(()) };
    match shown.lines().find(|l| l.chars().count() > limit) {
        Some(long) => {
            Err(format!("an error line of {} characters, over {limit}: {}", long.chars().count(), clip(long, 200)))
        }
        None => Ok(()),
    }
}

fn check_time(options: &CheckOptions, what: &str, took: Duration) -> Result<(), String> {
    match options.slow {
        Some(limit) if took > limit => {
            Err(format!("huge work: {what} took {} ms, over the {} ms allowed", took.as_millis(), limit.as_millis()))
        }
        _ => Ok(()),
    }
}

/// The first line where two texts differ, both sides shown short.
fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}: `{}` became `{}`", i + 1, clip(x.trim(), 120), clip(y.trim(), 120));
        }
    }
    format!("one is {} lines long, the other {}", a.lines().count(), b.lines().count())
}

/// `text` cut to `chars` characters.
fn clip(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        format!("{}...", text.chars().take(chars).collect::<String>())
    }
}

/// The first `lines` lines of `text`, each cut short.
fn clip_lines(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    let mut shown: Vec<String> = all.iter().take(lines).map(|l| clip(l, 300)).collect();
    if all.len() > lines {
        shown.push(format!("... and {} more lines", all.len() - lines));
    }
    shown.join("\n    ")
}

// ---------------------------------------------------------------------------------------------
// Panics and hangs
// ---------------------------------------------------------------------------------------------

thread_local! {
    /// Whether this thread is inside [`guarded`]: its panics are recorded, not printed.
    static CAPTURING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The last panic recorded on this thread: its message and where.
    static CAPTURED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

static HOOK: std::sync::Once = std::sync::Once::new();

/// Install, once, a panic hook that records a panic inside [`guarded`] (message and location)
/// instead of printing it, and hands every other panic to the hook that was there before.
fn install_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CAPTURING.with(|c| c.get()) {
                let at = info.location().map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column()));
                let text = format!("{}{}", payload_text(info.payload()), at.unwrap_or_default());
                CAPTURED.with(|c| *c.borrow_mut() = Some(text));
            } else {
                previous(info);
            }
        }));
    });
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with a payload that is not text".to_string()
    }
}

/// Run `work`; a panic comes back as `Err("<what> panicked: <message> at <file:line:col>")`.
fn guarded<T>(what: &str, work: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    CAPTURED.with(|c| *c.borrow_mut() = None);
    // Nested: the outer step goes on capturing once this one is done.
    let outer = CAPTURING.with(|c| c.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
    CAPTURING.with(|c| c.set(outer));
    result.map_err(|payload| {
        let text = CAPTURED.with(|c| c.borrow_mut().take()).unwrap_or_else(|| payload_text(&*payload));
        format!("{what} panicked: {text}")
    })
}

/// Run `work` on a thread of its own and wait at most `deadline` for it (a hang or huge work
/// is then a finding and the thread is left running); without a deadline, run it here.
fn with_deadline<T: Send + 'static>(
    deadline: Option<Duration>,
    what: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let Some(limit) = deadline else { return guarded(what, work) };
    let (send, receive) = std::sync::mpsc::channel();
    let label = what.to_string();
    // Dropping the handle detaches the thread: a case that hangs is left behind.
    let _handle = std::thread::Builder::new()
        .name("fuzz case".into())
        .stack_size(16 << 20)
        .spawn(move || {
            let _ = send.send(guarded(&label, work));
        })
        .map_err(|e| format!("could not start a thread for {what}: {e}"))?;
    match receive.recv_timeout(limit) {
        Ok(result) => result,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(format!(
            "huge work or a hang: {what} did not finish in {} s (its thread is left running)",
            limit.as_secs()
        )),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(format!("{what} stopped without a result")),
    }
}

// ---------------------------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------------------------

/// SplitMix64: small, fast and fixed, so a case depends on its seed alone.
struct Mix(u64);

impl Mix {
    fn new(seed: u64) -> Self {
        Mix(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_u64() % n as u64) as usize }
    }

    /// True one time in `n`.
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A number in `0.0..1.0`.
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// One of `items`, which must not be empty.
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------------------------
// Byte-level mutations (scene RON and map JSON alike)
// ---------------------------------------------------------------------------------------------

/// Tokens worth splicing into RON or JSON.
const TOKENS: &[&str] = &[
    "NaN",
    "inf",
    "-inf",
    "-0",
    "-1",
    "0",
    "1e39",
    "-1e39",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "-2147483649",
    "0x10",
    "1_000",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "\"",
    "'a'",
    "Some(",
    "None",
    "true",
    "null",
    "//",
    "/*",
    "\\",
    "r#\"",
    "#![enable(implicit_some)]",
    "é",
    "🎲",
    "\u{0}",
    "\n",
];

/// Numbers to put where a number was.
const NUMBERS: &[&str] = &[
    "NaN",
    "inf",
    "-inf",
    "-0.0",
    "0",
    "-1",
    "1e-45",
    "3.4028235e38",
    "1e39",
    "255",
    "256",
    "1000",
    "1000.5",
    "10001",
    "100001",
    "4294967294",
    "4294967295",
    "4294967296",
    "-2147483648",
    "18446744073709551615",
    "0.0001",
];

/// Bytes to overwrite a byte with.
const FLIP_BYTES: &[u8] = b"()[]{},:\"'0123456789.-+eE _aZ\n\t\\#/\x00\xff";

/// One to three byte-level changes: overwrite, splice a token, delete, truncate, duplicate a
/// span, put an odd number where a number was, insert a random byte. Invalid UTF-8 becomes
/// U+FFFD.
fn mutate_bytes(text: &str, rng: &mut Mix) -> String {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let len = b.len();
        let at = rng.below(len + 1);
        match rng.below(7) {
            0 => {
                let byte = rng.pick(FLIP_BYTES);
                if let Some(old) = b.get_mut(at) {
                    *old = byte;
                }
            }
            1 => b = splice(&b, at, at, rng.pick(TOKENS).as_bytes()),
            2 => {
                let end = (at + 1 + rng.below(64)).min(len);
                b = splice(&b, at, end, b"");
            }
            3 => b.truncate(at),
            4 => {
                let end = (at + 1 + rng.below(256)).min(len);
                let span = b[at..end].to_vec();
                let to = rng.below(len + 1);
                b = splice(&b, to, to, &span);
            }
            5 => {
                let spans = number_spans(&b);
                if !spans.is_empty() {
                    let (start, end) = spans[rng.below(spans.len())];
                    b = splice(&b, start, end, rng.pick(NUMBERS).as_bytes());
                }
            }
            _ => b = splice(&b, at, at, &[rng.next_u64() as u8]),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// `b` with `start..end` replaced by `with`.
fn splice(b: &[u8], start: usize, end: usize, with: &[u8]) -> Vec<u8> {
    [&b[..start], with, &b[end..]].concat()
}

/// Where the number literals are: a digit run not inside a word, with a sign before it, its
/// fraction and exponent.
fn number_spans(b: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let in_word = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if !b[i].is_ascii_digit() || in_word {
            i += 1;
            continue;
        }
        let start = if i > 0 && b[i - 1] == b'-' { i - 1 } else { i };
        let mut end = i;
        while end < b.len() {
            let c = b[end];
            let exponent_sign = matches!(c, b'+' | b'-') && matches!(b[end - 1], b'e' | b'E');
            if c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'_') || exponent_sign {
                end += 1;
            } else {
                break;
            }
        }
        spans.push((start, end));
        i = end;
    }
    spans
}

// ---------------------------------------------------------------------------------------------
// Scene mutations
// ---------------------------------------------------------------------------------------------

/// A scene text mutated by `seed`. Mostly structural: the text is parsed (without the checks),
/// one to three changes are made to the `Scene` value (odd numbers and points, counts at and
/// just over the caps, degenerate shapes, odd and duplicate names, empty lists, a clock near
/// `u32::MAX`, entities on the table's edge) and it is written again with `scene_to_ron`, the
/// project's own save; sometimes byte-level changes follow. A text that does not parse gets
/// byte-level changes only.
pub fn mutate_scene(text: &str, seed: u64) -> String {
    let mut rng = Mix::new(seed);
    let parsed = if rng.one_in(5) { None } else { parse_unchecked(text) };
    let Some(mut scene) = parsed else { return mutate_bytes(text, &mut rng) };
    for _ in 0..1 + rng.below(3) {
        mutate_structure(&mut scene, &mut rng);
    }
    match scene_to_ron(&scene) {
        Ok(saved) if rng.one_in(10) => mutate_bytes(&saved, &mut rng),
        Ok(saved) => saved,
        Err(_) => mutate_bytes(text, &mut rng),
    }
}

/// The scene in `text` as the loader parses it, before the checks, so a scene that fails them
/// can still be mutated.
fn parse_unchecked(text: &str) -> Option<Scene> {
    crate::scene::load::ron_options().from_str(text).ok()
}

fn mutate_structure(s: &mut Scene, rng: &mut Mix) {
    match rng.below(100) {
        0..=13 => odd_number(s, rng),
        14..=25 => odd_point_in(s, rng),
        26..=29 => odd_table(s, rng),
        30..=33 => clock_near_the_end(s, rng),
        34..=37 => entities_to_cap(s, rng),
        38..=42 => points_to_cap(s, rng),
        43..=46 => herd_to_cap(s, rng),
        47..=50 => members_to_cap(s, rng),
        51..=57 => conditions_to_cap(s, rng),
        58..=60 => add_ignitions(s, rng),
        61..=67 => degenerate_shape(s, rng),
        68..=73 => odd_name(s, rng),
        74..=78 => copy_a_name(s, rng),
        79..=82 => empty_list(s, rng),
        83..=86 => drop_entity(s, rng),
        87..=89 => copy_entity(s, rng),
        90..=95 => to_the_edge(s, rng),
        _ => swap_kinds(s, rng),
    }
}

/// Every number and point a scene file sets, as places to change.
#[derive(Default)]
struct Slots<'a> {
    points: Vec<&'a mut Point>,
    floats: Vec<&'a mut f32>,
    u32s: Vec<&'a mut u32>,
    i32s: Vec<&'a mut i32>,
    u8s: Vec<&'a mut u8>,
}

fn slots(s: &mut Scene) -> Slots<'_> {
    let mut o = Slots::default();
    let Scene {
        version,
        table,
        clock,
        rules,
        background,
        terrain,
        walls,
        doors,
        lights,
        figures,
        traps,
        fires,
        ignitions,
        fire_state,
        herds,
        sleepers,
        cattle_grids,
        ..
    } = s;
    o.u32s.push(version);
    o.floats.extend([&mut table.width, &mut table.height]);
    o.u32s.push(&mut clock.moves_played);
    o.u8s.push(&mut rules.rounds_per_move);
    o.u32s.push(&mut rules.moves_per_day);
    o.floats.extend([
        &mut rules.fire.cell_size,
        &mut rules.fire.house_area,
        &mut rules.fire.large_building_area,
        &mut rules.fire.heaped_loose_timber_spread_rate,
        &mut rules.lighting.dark_sight_in,
        &mut rules.lighting.strong_light_from,
        &mut rules.herds.herding_reach_in,
        &mut rules.herds.stampede_move_in,
        &mut rules.herds.free_stuck_reach_in,
        &mut rules.sleepers.investigator_spots_within,
        &mut rules.traps.table.figure_weight,
        &mut rules.traps.table.boulder_width,
    ]);
    o.u32s.extend([
        &mut rules.fire.burn_out.thatch,
        &mut rules.fire.burn_out.hay,
        &mut rules.herds.grid_escape_attempts_per_move,
        &mut rules.sleepers.light_armour_hasty_rounds,
        &mut rules.traps.table.status_moves,
    ]);
    o.i32s.extend([
        &mut rules.sleepers.alarm_waking_factor,
        &mut rules.herds.fire_fright_threshold,
        &mut rules.traps.table.steed_agility,
    ]);
    o.u8s.extend([&mut rules.lighting.strong_light_steps, &mut rules.lighting.weak_light_steps]);
    if let Some(bg) = background {
        o.points.extend([&mut bg.origin, &mut bg.size]);
    }
    for r in terrain.iter_mut() {
        match &mut r.shape {
            Shape::Rect { min, max } => o.points.extend([min, max]),
            Shape::Circle { center, radius } => {
                o.points.push(center);
                o.floats.push(radius);
            }
            Shape::Polygon { points } => o.points.extend(points.iter_mut()),
        }
    }
    for w in walls.iter_mut() {
        o.points.extend(w.points.iter_mut());
    }
    for d in doors.iter_mut() {
        o.points.extend([&mut d.from, &mut d.to]);
    }
    for light in lights.iter_mut() {
        o.points.push(&mut light.position);
        o.floats.extend([&mut light.range, &mut light.intensity]);
    }
    for f in figures.iter_mut() {
        o.points.push(&mut f.position);
        o.points.extend(f.path.iter_mut());
        o.floats.push(&mut f.facing);
        o.floats.extend(f.move_rate.iter_mut());
        o.floats.extend(f.weight.iter_mut());
        o.i32s.push(&mut f.spot_factor);
        o.i32s.extend(f.agility.iter_mut());
        for skill in f.skills.iter_mut() {
            if let Skill::SpotDisarm(n) | Skill::SetTrap(n) | Skill::AnimalTrainer(n) = skill {
                o.u8s.push(n);
            }
        }
        if let Some(m) = &mut f.mordheim {
            o.u8s.extend([&mut m.ws, &mut m.s, &mut m.t, &mut m.w, &mut m.i]);
            o.u8s.extend(m.sv.iter_mut());
        }
        condition_slots(&mut o, &mut f.conditions);
    }
    for t in traps.iter_mut() {
        o.points.push(&mut t.position);
        o.floats.push(&mut t.radius);
        match &mut t.kind {
            TrapKind::TripCord { to } => o.points.push(to),
            TrapKind::Treadle { payload, weight_above, .. } => {
                o.i32s.push(&mut payload.strike);
                o.i32s.extend(payload.heard_to_inches.iter_mut());
                o.floats.extend(weight_above.iter_mut());
            }
            TrapKind::Lifter { payload, .. } => {
                o.i32s.push(&mut payload.strike);
                o.i32s.extend(payload.heard_to_inches.iter_mut());
            }
            TrapKind::Pit { depth, .. } => o.i32s.push(depth),
            TrapKind::FallingFloor { depth, gives_way_at, .. } => {
                o.i32s.push(depth);
                o.floats.extend(gives_way_at.iter_mut());
            }
            TrapKind::Loop => {}
            TrapKind::Leydonic { strike, recharge_moves, discharged_at_move } => {
                o.i32s.push(strike);
                o.u32s.push(recharge_moves);
                o.u32s.extend(discharged_at_move.iter_mut());
            }
            TrapKind::Khemri { pit_depth, hall, .. } => {
                o.i32s.extend(pit_depth.iter_mut());
                o.floats.extend(hall.iter_mut());
            }
        }
    }
    for fire in fires.iter_mut() {
        o.points.push(&mut fire.position);
        o.floats.push(&mut fire.diameter);
        o.u32s.extend(fire.lit_round.iter_mut());
        if let Some(Igniter::Held { since_round, .. } | Igniter::Dropped { since_round, .. }) = &mut fire.igniter {
            o.u32s.extend(since_round.iter_mut());
        }
    }
    for ignition in ignitions.iter_mut() {
        o.points.push(&mut ignition.position);
        o.floats.extend([&mut ignition.time, &mut ignition.radius]);
    }
    if let Some(state) = fire_state {
        o.u32s.extend([&mut state.width, &mut state.height]);
        o.floats.extend([&mut state.cell_size, &mut state.settled_until]);
    }
    for herd in herds.iter_mut() {
        o.points.push(&mut herd.position);
        o.points.extend(herd.beasts.iter_mut());
        o.floats.extend([&mut herd.heading, &mut herd.spacing]);
        o.floats.extend(herd.move_rate.iter_mut());
        if let Some(zone) = &mut herd.zone {
            o.floats.extend(zone.radius.iter_mut());
        }
        o.u32s.extend([&mut herd.count, &mut herd.stampede]);
        o.u32s.extend(herd.on_grid.iter_mut().map(|hold| &mut hold.beast));
    }
    for group in sleepers.iter_mut() {
        o.points.push(&mut group.position);
        for Sleeper(m) in group.members.iter_mut() {
            match &mut m.state {
                SleeperState::Listening { moves_left } => o.u32s.push(moves_left),
                SleeperState::Investigating { at, toward, .. } => o.points.extend([at, toward]),
                _ => {}
            }
            o.u32s.extend(m.dressing_rounds.iter_mut());
            condition_slots(&mut o, &mut m.conditions);
        }
    }
    for grid in cattle_grids.iter_mut() {
        o.points.extend([&mut grid.from, &mut grid.to]);
    }
    o
}

fn condition_slots<'a>(o: &mut Slots<'a>, list: &'a mut [Condition]) {
    for c in list {
        o.floats.push(&mut c.move_penalty);
        o.u32s.extend(c.moves_left.iter_mut());
        o.i32s.push(&mut c.me_and_mo);
    }
}

/// Every name and every reference to a name (herders, holders, doors), the title, sides,
/// colours and sources.
fn string_slots(s: &mut Scene) -> Vec<&mut String> {
    let Scene {
        title,
        background,
        terrain,
        walls,
        doors,
        lights,
        figures,
        traps,
        fires,
        ignitions,
        fire_state,
        herds,
        sleepers,
        cattle_grids,
        ..
    } = s;
    let mut v: Vec<&mut String> = vec![title];
    v.extend(background.iter_mut().map(|bg| &mut bg.image));
    v.extend(terrain.iter_mut().map(|r| &mut r.name));
    v.extend(walls.iter_mut().map(|w| &mut w.name));
    v.extend(doors.iter_mut().map(|d| &mut d.name));
    for light in lights.iter_mut() {
        v.extend([&mut light.name, &mut light.color]);
    }
    for f in figures.iter_mut() {
        v.extend([&mut f.name, &mut f.side]);
        v.extend(f.conditions.iter_mut().map(|c| &mut c.name));
    }
    for t in traps.iter_mut() {
        v.push(&mut t.name);
        v.extend(t.side.iter_mut());
        v.extend(t.in_range_of.iter_mut());
        if let TrapKind::Lifter { door: Some(door), .. } = &mut t.kind {
            v.push(door);
        }
    }
    for fire in fires.iter_mut() {
        v.push(&mut fire.name);
        if let Some(Igniter::Held { by, .. }) = &mut fire.igniter {
            v.push(by);
        }
    }
    v.extend(ignitions.iter_mut().map(|i| &mut i.source));
    v.extend(fire_state.iter_mut().map(|state| &mut state.arrivals));
    for herd in herds.iter_mut() {
        v.extend([&mut herd.name, &mut herd.side]);
        v.extend(herd.herders.iter_mut());
    }
    for group in sleepers.iter_mut() {
        v.extend([&mut group.name, &mut group.side]);
        for Sleeper(m) in group.members.iter_mut() {
            v.push(&mut m.name);
            v.extend(m.conditions.iter_mut().map(|c| &mut c.name));
        }
    }
    v.extend(cattle_grids.iter_mut().map(|g| &mut g.name));
    v
}

/// Change one slot with `odd`.
fn change<T: Copy>(slots: &mut [&mut T], rng: &mut Mix, odd: fn(&mut Mix, T) -> T) {
    if slots.is_empty() {
        return;
    }
    let i = rng.below(slots.len());
    let old = *slots[i];
    *slots[i] = odd(rng, old);
}

fn odd_f32(rng: &mut Mix, old: f32) -> f32 {
    const ODD: &[f32] = &[
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -0.0,
        0.0,
        -1.0,
        1.0,
        f32::MAX,
        f32::MIN,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::EPSILON,
        0.01,
        12.0,
        12.5,
        100.0,
        100.5,
        MAX_TABLE_INCHES,
        MAX_TABLE_INCHES + 0.5,
        1.0e6,
        -1.0e6,
    ];
    match rng.below(5) {
        0 => -old,
        1 => old * 1000.0,
        2 => old + rng.unit() - 0.5,
        _ => rng.pick(ODD),
    }
}

fn odd_u32(rng: &mut Mix, old: u32) -> u32 {
    const ODD: &[u32] = &[
        0,
        1,
        2,
        6,
        7,
        99,
        100,
        101,
        1_000,
        1_001,
        10_000,
        10_001,
        100_000,
        100_001,
        1_000_000,
        1_000_001,
        0x7FFF_FFFF,
        u32::MAX - 2,
        u32::MAX - 1,
        u32::MAX,
    ];
    match rng.below(4) {
        0 => old.wrapping_add(1),
        1 => old.wrapping_sub(1),
        _ => rng.pick(ODD),
    }
}

fn odd_i32(rng: &mut Mix, old: i32) -> i32 {
    const ODD: &[i32] = &[i32::MIN, -1_000_000, -101, -21, -11, -1, 0, 1, 6, 7, 11, 21, 101, 1_000_000, i32::MAX];
    match rng.below(4) {
        0 => old.wrapping_add(1),
        1 => old.wrapping_neg(),
        _ => rng.pick(ODD),
    }
}

fn odd_u8(rng: &mut Mix, old: u8) -> u8 {
    const ODD: &[u8] = &[0, 1, 2, 4, 5, 6, 7, 10, 11, 100, 255];
    match rng.below(4) {
        0 => old.wrapping_add(1),
        1 => old.wrapping_sub(1),
        _ => rng.pick(ODD),
    }
}

/// Set one number somewhere in the scene to NaN, an infinity, -0, a huge or negative value, a
/// bound or just past it.
fn odd_number(s: &mut Scene, rng: &mut Mix) {
    let kind = rng.below(4);
    let mut o = slots(s);
    match kind {
        0 => change(&mut o.floats, rng, odd_f32),
        1 => change(&mut o.i32s, rng, odd_i32),
        2 => change(&mut o.u8s, rng, odd_u8),
        _ => change(&mut o.u32s, rng, odd_u32),
    }
}

fn odd_point(rng: &mut Mix, old: Point, table: Table) -> Point {
    let (w, h) = (table.width, table.height);
    match rng.below(14) {
        0 => (w, h),
        1 => (0.0, 0.0),
        2 => (w, old.1),
        3 => (old.0, 0.0),
        4 => (w + 0.01, old.1),
        5 => (old.0, -0.01),
        6 => (-0.0, -0.0),
        7 => (f32::NAN, old.1),
        8 => (old.0, f32::INFINITY),
        9 => (-1.0e6, 1.0e6),
        10 => (w * rng.unit(), h * rng.unit()),
        11 => (old.0 + 0.001, old.1),
        12 => (w / 2.0, h / 2.0),
        _ => (f32::MAX, f32::MIN),
    }
}

/// Move one point somewhere: a corner, the edge, just off it, NaN, far away; sometimes the
/// point after it too, so a list gets a repeated point.
fn odd_point_in(s: &mut Scene, rng: &mut Mix) {
    let table = s.table;
    let mut o = slots(s);
    if o.points.is_empty() {
        return;
    }
    let i = rng.below(o.points.len());
    let old = *o.points[i];
    let new = odd_point(rng, old, table);
    *o.points[i] = new;
    if i + 1 < o.points.len() && rng.one_in(3) {
        *o.points[i + 1] = new;
    }
}

fn odd_table(s: &mut Scene, rng: &mut Mix) {
    let t = &mut s.table;
    match rng.below(8) {
        0 => {
            t.width = 1.0;
            t.height = 1.0;
        }
        1 => {
            t.width = MAX_TABLE_INCHES;
            t.height = MAX_TABLE_INCHES;
        }
        2 => t.width = MAX_TABLE_INCHES + 0.001,
        3 => t.height = 0.999,
        4 => std::mem::swap(&mut t.width, &mut t.height),
        5 => t.width = f32::NAN,
        6 => t.height = -t.height,
        _ => {
            // Everything on the far half is now off the table.
            t.width *= 0.5;
            t.height *= 0.5;
        }
    }
}

/// The clock at or a few moves short of the most a scene may have played (the simulation must
/// stop there and the `--final` scene still load), just past it, a few moves from `u32::MAX`,
/// where the rounds played no longer fit a `u32`, or where an `f32` no longer counts rounds
/// exactly.
fn clock_near_the_end(s: &mut Scene, rng: &mut Mix) {
    let rounds = u32::from(s.rules.rounds_per_move.max(1));
    s.clock.moves_played = match rng.below(6) {
        0..=1 => MAX_MOVES_PLAYED - rng.below(4) as u32,
        2 => MAX_MOVES_PLAYED + 1,
        3 => u32::MAX - rng.below(4) as u32,
        4 => u32::MAX / rounds - rng.below(3) as u32,
        _ => (1u32 << 24) / rounds + rng.below(3) as u32,
    };
}

/// Grow a list of entities to the per-kind cap, just over it, or to a hundred or so (small
/// enough to simulate), by copying its first entry.
fn entities_to_cap(s: &mut Scene, rng: &mut Mix) {
    let len = match rng.below(4) {
        0 => MAX_ENTITIES_PER_KIND,
        1 => MAX_ENTITIES_PER_KIND + 1,
        _ => 20 + rng.below(100),
    };
    let same_names = rng.one_in(8);
    let grown = match rng.below(9) {
        0 => fill(&mut s.figures, len, same_names, |f, n| f.name = n),
        1 => fill(&mut s.traps, len, same_names, |t, n| t.name = n),
        2 => fill(&mut s.terrain, len, same_names, |r, n| r.name = n),
        3 => fill(&mut s.walls, len, same_names, |w, n| w.name = n),
        4 => fill(&mut s.fires, len, same_names, |f, n| f.name = n),
        5 => fill(&mut s.herds, len, same_names, |h, n| h.name = n),
        6 => fill(&mut s.sleepers, len, same_names, |g, n| g.name = n),
        7 => fill(&mut s.cattle_grids, len, same_names, |g, n| g.name = n),
        _ => false,
    };
    if !grown {
        if s.doors.is_empty() {
            let to = (s.table.width.min(1.0), 0.0);
            s.doors.push(Door { name: "fuzz door".into(), kind: DoorKind::Door, from: (0.0, 0.0), to, open: false });
        }
        fill(&mut s.doors, len, same_names, |d, n| d.name = n);
    }
}

/// The most a list may grow to by copying its first entry, in bytes of compact RON: ten
/// thousand copies of an entity that holds thousands of points would need gigabytes.
const MAX_GROWN_BYTES: usize = 8 << 20;

/// Grow `list` to `len` entries (fewer if they would pass [`MAX_GROWN_BYTES`]) with copies of
/// its first, each renamed `fuzz <i>` unless `same_names`. False when the list is empty.
fn fill<T: Clone + serde::Serialize>(
    list: &mut Vec<T>,
    len: usize,
    same_names: bool,
    rename: impl Fn(&mut T, String),
) -> bool {
    let Some(first) = list.first().cloned() else { return false };
    let bytes = ron::to_string(&first).map_or(usize::MAX, |text| text.len().max(1));
    let len = len.min(MAX_GROWN_BYTES / bytes);
    while list.len() < len {
        let mut copy = first.clone();
        if !same_names {
            rename(&mut copy, format!("fuzz {}", list.len()));
        }
        list.push(copy);
    }
    true
}

/// A wall, a figure's path or a region's polygon with as many points as allowed, one more, none
/// or a few hundred: a zigzag across the table whose segments cross.
fn points_to_cap(s: &mut Scene, rng: &mut Mix) {
    let len = match rng.below(4) {
        0 => MAX_POINTS,
        1 => MAX_POINTS + 1,
        2 => 0,
        _ => 2 + rng.below(500),
    };
    let (w, h) = (s.table.width, s.table.height);
    let line: Vec<Point> = (0..len)
        .map(|i| {
            let t = i as f32 / len.max(1) as f32;
            (w * t, h * (0.5 + 0.4 * (t * 97.0).sin()))
        })
        .collect();
    match rng.below(3) {
        0 if !s.figures.is_empty() => {
            let i = rng.below(s.figures.len());
            s.figures[i].path = line;
        }
        1 if !s.terrain.is_empty() => {
            let i = rng.below(s.terrain.len());
            s.terrain[i].shape = Shape::Polygon { points: line };
        }
        _ => s.walls.push(Wall::new(format!("fuzz wall {}", s.walls.len()), WallKind::Inner, line)),
    }
}

/// A herd of the most beasts allowed, one more, none, or a few hundred; laid out, listed across
/// the table, or listed with one position too many.
fn herd_to_cap(s: &mut Scene, rng: &mut Mix) {
    if s.herds.is_empty() {
        return;
    }
    let (w, h) = (s.table.width, s.table.height);
    let i = rng.below(s.herds.len());
    let herd = &mut s.herds[i];
    herd.count = match rng.below(4) {
        0 => MAX_HERD_SIZE,
        1 => MAX_HERD_SIZE + 1,
        2 => 0,
        _ => 1 + rng.below(300) as u32,
    };
    let count = herd.count as usize;
    match rng.below(3) {
        0 => herd.beasts.clear(),
        1 => {
            herd.beasts = (0..count).map(|k| (w * (k % 40) as f32 / 40.0, h * (k / 40) as f32 / 40.0)).collect();
        }
        _ => herd.beasts = vec![herd.position; count + 1],
    }
}

/// A sleeping group of the most members allowed, one more, none, or a few.
fn members_to_cap(s: &mut Scene, rng: &mut Mix) {
    if s.sleepers.is_empty() {
        return;
    }
    let i = rng.below(s.sleepers.len());
    let len = match rng.below(4) {
        0 => MAX_GROUP_SIZE,
        1 => MAX_GROUP_SIZE + 1,
        2 => 0,
        _ => 1 + rng.below(50),
    };
    let members = &mut s.sleepers[i].members;
    members.truncate(len);
    while members.len() < len {
        members.push(Sleeper::named(&format!("fuzz sleeper {}", members.len())));
    }
}

/// Conditions at the cap: every figure and member exactly at it (a condition the simulation
/// gives then takes a `--final` scene over it), or one of them at it or just over.
fn conditions_to_cap(s: &mut Scene, rng: &mut Mix) {
    // Everyone at the cap is at most fifty thousand conditions.
    let people = s.figures.len() + s.sleepers.iter().map(|g| g.members.len()).sum::<usize>();
    if rng.one_in(2) && people <= 500 {
        for f in &mut s.figures {
            fill_conditions(&mut f.conditions, MAX_CONDITIONS);
        }
        for group in &mut s.sleepers {
            for Sleeper(m) in &mut group.members {
                fill_conditions(&mut m.conditions, MAX_MEMBER_CONDITIONS);
            }
        }
        return;
    }
    let extra = rng.below(2);
    if !s.figures.is_empty() && rng.one_in(2) {
        let i = rng.below(s.figures.len());
        fill_conditions(&mut s.figures[i].conditions, MAX_CONDITIONS + extra);
    } else if !s.sleepers.is_empty() {
        let g = rng.below(s.sleepers.len());
        let members = &mut s.sleepers[g].members;
        if !members.is_empty() {
            let m = rng.below(members.len());
            fill_conditions(&mut members[m].0.conditions, MAX_MEMBER_CONDITIONS + extra);
        }
    }
}

/// Add harmless lasting conditions until there are `len`.
fn fill_conditions(list: &mut Vec<Condition>, len: usize) {
    while list.len() < len {
        list.push(Condition {
            name: format!("fuzz condition {}", list.len()),
            kind: ConditionKind::Other,
            move_penalty: 0.0,
            moves_left: None,
            immobile: false,
            me_and_mo: 0,
            healing: None,
        });
    }
}

/// Recorded ignitions: a few with odd times, places and radii, or (rarely) as many as allowed
/// or one more, all valid.
fn add_ignitions(s: &mut Scene, rng: &mut Mix) {
    let now = s.clock.moves_played as f32 * f32::from(s.rules.rounds_per_move);
    let (w, h) = (s.table.width, s.table.height);
    let len = if rng.one_in(8) { MAX_IGNITIONS + rng.below(2) } else { s.ignitions.len() + 1 + rng.below(20) };
    let many = len > 1_000;
    while s.ignitions.len() < len {
        let source = format!("fuzz ignition {}", s.ignitions.len());
        let ignition = if many {
            FireIgnition { time: 0.0, position: (w / 2.0, h / 2.0), radius: 0.0, source }
        } else {
            let time = match rng.below(6) {
                0 => -1.0,
                1 => now + 1.0,
                2 => f32::NAN,
                3 => now,
                _ => now * rng.unit(),
            };
            let radius = rng.pick(&[0.0, 0.25, -1.0, MAX_TABLE_INCHES, 2_000.0]);
            FireIgnition { time, position: (w * rng.unit(), h * rng.unit()), radius, source }
        };
        s.ignitions.push(ignition);
    }
}

/// A degenerate shape on a region (zero area, repeated points, self-intersecting, off the
/// table, inverted, zero radius, a circle reaching off the table), or a degenerate line: a
/// zero-length wall, door, cattle grid or trip cord, a wall of one point.
fn degenerate_shape(s: &mut Scene, rng: &mut Mix) {
    let (w, h) = (s.table.width, s.table.height);
    let c = (w / 2.0, h / 2.0);
    let shape = match rng.below(14) {
        0 => Shape::Polygon { points: vec![c, c, c] },
        1 => Shape::Polygon { points: vec![(0.0, 0.0), c, (w, h)] },
        2 => Shape::Polygon { points: vec![(0.0, 0.0), (w, h), (w, 0.0), (0.0, h)] },
        3 => Shape::Polygon { points: vec![(0.0, 0.0), (w, 0.0), (w, h), (0.0, h), (0.0, 0.0), (w, 0.0)] },
        4 => Shape::Polygon { points: vec![c, (w, h)] },
        5 => Shape::Polygon { points: vec![(-1.0, -1.0), (w + 1.0, 0.0), c] },
        6 => Shape::Rect { min: c, max: c },
        7 => Shape::Rect { min: (w, h), max: (0.0, 0.0) },
        8 => Shape::Rect { min: (0.0, 0.0), max: (w, h) },
        9 => Shape::Circle { center: c, radius: 0.0 },
        10 => Shape::Circle { center: (0.0, 0.0), radius: MAX_TABLE_INCHES },
        11 => Shape::Circle { center: c, radius: f32::MIN_POSITIVE },
        _ => {
            degenerate_line(s, rng, c);
            return;
        }
    };
    if s.terrain.is_empty() || rng.one_in(3) {
        let material = rng.pick(&Material::ALL);
        let name = format!("fuzz region {}", s.terrain.len());
        s.terrain.push(Region { name, material, shape, wet: rng.one_in(4), building: rng.one_in(4) });
    } else {
        let i = rng.below(s.terrain.len());
        s.terrain[i].shape = shape;
    }
}

fn degenerate_line(s: &mut Scene, rng: &mut Mix, c: Point) {
    match rng.below(5) {
        0 => {
            // A zero-length glass-topped wall: a figure may meet it, and the sim adds its climbers.
            let mut wall = Wall::new("fuzz zero wall", WallKind::Outer, vec![c, c]);
            wall.glass_topped = true;
            wall.height_in = Some(0.5);
            s.walls.push(wall);
        }
        1 => s.walls.push(Wall::new("fuzz point wall", WallKind::Low, vec![c])),
        2 => s.doors.push(Door {
            name: "fuzz zero door".into(),
            kind: DoorKind::Window,
            from: c,
            to: c,
            open: rng.one_in(2),
        }),
        3 => s.cattle_grids.push(CattleGrid { name: "fuzz zero grid".into(), from: c, to: c, planks: false }),
        _ => {
            for t in &mut s.traps {
                if let TrapKind::TripCord { to } = &mut t.kind {
                    *to = t.position;
                }
            }
        }
    }
}

fn odd_text(rng: &mut Mix, old: &str) -> String {
    match rng.below(13) {
        0 => "x".repeat(MAX_NAME_CHARS),
        1 => "x".repeat(MAX_NAME_CHARS + 1),
        2 => "é".repeat(MAX_NAME_CHARS),
        3 => "🎲".repeat(MAX_NAME_CHARS + 1),
        4 => "n".repeat(100_000),
        5 => String::new(),
        6 => "   ".to_string(),
        7 => format!("{old}\n{old}"),
        8 => format!("{old}\u{0}"),
        9 => "\"quoted\" \\ back\\slash".to_string(),
        10 => "e\u{301}".repeat(60),
        11 => format!("{old} → {old}"),
        _ => format!("{old}\u{202e}"),
    }
}

/// A name, reference, side, colour or title made odd: at the length limit (in ASCII and in
/// multi-byte characters), just over it, 100 000 characters, empty, blank, with a newline, a NUL,
/// quotes, combining marks or a direction override.
fn odd_name(s: &mut Scene, rng: &mut Mix) {
    let mut names = string_slots(s);
    if names.is_empty() {
        return;
    }
    let i = rng.below(names.len());
    let old = names[i].clone();
    *names[i] = odd_text(rng, &old);
}

/// Give one name or reference the text of another: duplicate names, and references that now
/// name something else (sometimes validly).
fn copy_a_name(s: &mut Scene, rng: &mut Mix) {
    let mut pool: Vec<String> = Vec::new();
    for name in string_slots(s) {
        pool.push(name.clone());
    }
    if pool.is_empty() {
        return;
    }
    let from = rng.below(pool.len());
    let mut names = string_slots(s);
    let to = rng.below(names.len());
    *names[to] = pool[from].clone();
}

fn empty_list(s: &mut Scene, rng: &mut Mix) {
    match rng.below(14) {
        0 => s.terrain.clear(),
        1 => s.walls.clear(),
        2 => s.doors.clear(),
        3 => s.figures.clear(),
        4 => s.traps.clear(),
        5 => s.fires.clear(),
        6 => s.herds.clear(),
        7 => s.sleepers.clear(),
        8 => s.lights.clear(),
        12 => s.ignitions.clear(),
        13 => s.fire_state = None,
        9 => {
            for f in &mut s.figures {
                f.path.clear();
            }
        }
        10 => {
            for group in &mut s.sleepers {
                group.members.clear();
            }
        }
        _ => {
            for herd in &mut s.herds {
                herd.beasts.clear();
                herd.herders.clear();
            }
        }
    }
}

fn drop_one<T>(list: &mut Vec<T>, rng: &mut Mix) {
    if !list.is_empty() {
        let i = rng.below(list.len());
        list.remove(i);
    }
}

fn drop_entity(s: &mut Scene, rng: &mut Mix) {
    match rng.below(9) {
        0 => drop_one(&mut s.terrain, rng),
        1 => drop_one(&mut s.walls, rng),
        2 => drop_one(&mut s.doors, rng),
        3 => drop_one(&mut s.figures, rng),
        4 => drop_one(&mut s.traps, rng),
        5 => drop_one(&mut s.fires, rng),
        6 => drop_one(&mut s.herds, rng),
        7 => drop_one(&mut s.sleepers, rng),
        _ => drop_one(&mut s.cattle_grids, rng),
    }
}

/// A copy of one entry at the end of its list, or `None` when the list is empty.
fn copy_one<'a, T: Clone>(list: &'a mut Vec<T>, rng: &mut Mix) -> Option<&'a mut T> {
    if list.is_empty() {
        return None;
    }
    let copy = list[rng.below(list.len())].clone();
    list.push(copy);
    list.last_mut()
}

/// Copy an entity in place: same position, and the same name unless renamed.
fn copy_entity(s: &mut Scene, rng: &mut Mix) {
    let rename = !rng.one_in(3);
    match rng.below(6) {
        0 => copy_renamed(&mut s.figures, rng, rename, |f| &mut f.name),
        1 => copy_renamed(&mut s.traps, rng, rename, |t| &mut t.name),
        2 => copy_renamed(&mut s.fires, rng, rename, |f| &mut f.name),
        3 => copy_renamed(&mut s.herds, rng, rename, |h| &mut h.name),
        4 => copy_renamed(&mut s.sleepers, rng, rename, |g| &mut g.name),
        _ => copy_renamed(&mut s.terrain, rng, rename, |r| &mut r.name),
    }
}

/// [`copy_one`], the copy's name (from `name`) marked " (copy)" when `rename`.
fn copy_renamed<T: Clone>(list: &mut Vec<T>, rng: &mut Mix, rename: bool, name: impl Fn(&mut T) -> &mut String) {
    if let Some(copy) = copy_one(list, rng)
        && rename
    {
        name(copy).push_str(" (copy)");
    }
}

/// Valid scenes that push things at the table's edge, so the simulation may carry them off it
/// and a `--final` scene fails its own checks: figures walking to a corner, herds on the edge
/// stampeding outwards, sleepers investigating toward a corner, fires in a corner.
fn to_the_edge(s: &mut Scene, rng: &mut Mix) {
    let (w, h) = (s.table.width, s.table.height);
    let corner = rng.pick(&[(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)]);
    let opposite = (w - corner.0, h - corner.1);
    match rng.below(5) {
        0 => {
            for f in &mut s.figures {
                f.path = vec![corner];
            }
        }
        1 => {
            if let Some(f) = s.figures.first_mut() {
                f.position = corner;
                f.path = vec![opposite, corner];
            }
        }
        2 => {
            for herd in &mut s.herds {
                let n = herd.count.min(MAX_HERD_SIZE) as usize;
                // Listed on the east edge, heading east, stampeding.
                herd.beasts = (0..n).map(|k| (w, h * (k as f32 + 0.5) / n as f32)).collect();
                herd.position = (w, h / 2.0);
                herd.heading = 0.0;
                herd.stampede = 5;
                herd.tethered = false;
                herd.on_grid.clear();
            }
        }
        3 => {
            for group in &mut s.sleepers {
                group.position = corner;
                for Sleeper(m) in &mut group.members {
                    m.state = SleeperState::Investigating { at: corner, toward: opposite, returning: false };
                }
            }
        }
        _ => {
            for fire in &mut s.fires {
                fire.position = corner;
            }
        }
    }
}

/// One trap takes another's kind, or one fire another's igniter.
fn swap_kinds(s: &mut Scene, rng: &mut Mix) {
    if s.traps.len() >= 2 {
        let (i, j) = (rng.below(s.traps.len()), rng.below(s.traps.len()));
        let kind = s.traps[j].kind.clone();
        s.traps[i].kind = kind;
    }
    if s.fires.len() >= 2 && rng.one_in(2) {
        let (i, j) = (rng.below(s.fires.len()), rng.below(s.fires.len()));
        let igniter = s.fires[j].igniter.clone();
        s.fires[i].igniter = igniter;
    }
}

// ---------------------------------------------------------------------------------------------
// Map (Universal VTT JSON) mutations
// ---------------------------------------------------------------------------------------------

/// A map mutated by `seed`, as JSON text. The embedded image is first replaced by a small PNG
/// header in most cases (a real one is megabytes and only its header is read). Mostly
/// structural changes on the JSON value: keys dropped, values of the wrong type, huge, tiny,
/// negative or zero numbers and sizes, arrays at and just over the caps (points in a line,
/// walls, doors, lights, all points together), copied and emptied arrays, degenerate doors, odd
/// lights, lighting, format and image, points on, near and off the map's edge; sometimes
/// byte-level changes on the text.
pub fn mutate_uvtt(map: &Value, seed: u64) -> String {
    let mut rng = Mix::new(seed);
    let mut v = map.clone();
    if !rng.one_in(8)
        && let Some(image) = v.get_mut("image")
        && image.is_string()
    {
        *image = Value::String(encode_base64(&png_header(64, 64)));
    }
    let byte_level = rng.one_in(5);
    let rounds = if byte_level { rng.below(2) } else { 1 + rng.below(3) };
    for _ in 0..rounds {
        mutate_json(&mut v, &mut rng);
    }
    let text = serde_json::to_string(&v).unwrap_or_default();
    if byte_level { mutate_bytes(&text, &mut rng) } else { text }
}

fn mutate_json(v: &mut Value, rng: &mut Mix) {
    let mut paths = Vec::new();
    json_paths(v, String::new(), &mut paths);
    match rng.below(100) {
        0..=11 => drop_key(v, rng, &paths),
        12..=23 => wrong_type(v, rng, &paths),
        24..=39 => odd_json_number(v, rng, &paths),
        40..=47 => odd_frame(v, rng),
        48..=53 => big_arrays(v, rng),
        54..=61 => copy_element(v, rng, &paths),
        62..=67 => empty_array(v, rng, &paths),
        68..=73 => odd_portal(v, rng),
        74..=79 => odd_light(v, rng),
        80..=83 => odd_environment(v, rng),
        84..=87 => odd_format(v, rng),
        88..=93 => odd_image(v, rng),
        _ => point_near_edge(v, rng, &paths),
    }
}

/// The JSON pointer of every value in `v`, the root (`""`) last.
fn json_paths(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                json_paths(item, format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                json_paths(item, format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// The pointers among `paths` whose value is `keep`.
fn paths_where(v: &Value, paths: &[String], keep: impl Fn(&Value) -> bool) -> Vec<String> {
    paths.iter().filter(|p| v.pointer(p).is_some_and(&keep)).cloned().collect()
}

fn choose(rng: &mut Mix, list: &[String]) -> Option<String> {
    if list.is_empty() { None } else { Some(list[rng.below(list.len())].clone()) }
}

fn number_at(v: &Value, at: &str) -> f64 {
    v.pointer(at).and_then(Value::as_f64).unwrap_or(0.0)
}

fn drop_key(v: &mut Value, rng: &mut Mix, paths: &[String]) {
    let objects = paths_where(v, paths, |n| n.as_object().is_some_and(|m| !m.is_empty()));
    let Some(at) = choose(rng, &objects) else { return };
    if let Some(Value::Object(map)) = v.pointer_mut(&at) {
        let keys: Vec<String> = map.keys().cloned().collect();
        let key = &keys[rng.below(keys.len())];
        map.remove(key);
    }
}

fn odd_json(rng: &mut Mix) -> Value {
    match rng.below(10) {
        0 => Value::Null,
        1 => Value::Bool(true),
        2 => Value::from("ten"),
        3 => Value::from(""),
        4 => Value::Array(Vec::new()),
        5 => Value::Object(serde_json::Map::new()),
        6 => serde_json::json!([1, 2]),
        7 => serde_json::json!({"x": "1", "y": null}),
        8 => Value::from("0.3"),
        _ => serde_json::json!([[{"x": 0, "y": 0}]]),
    }
}

fn wrong_type(v: &mut Value, rng: &mut Mix, paths: &[String]) {
    let Some(at) = choose(rng, paths) else { return };
    let new = odd_json(rng);
    if let Some(node) = v.pointer_mut(&at) {
        *node = new;
    }
}

fn odd_f64(rng: &mut Mix, old: f64) -> Value {
    const ODD: &[f64] = &[
        1e308,
        -1e308,
        1e9,
        1_000_000_001.0,
        -1e9,
        0.0,
        -0.0,
        -1.0,
        0.5,
        0.005,
        0.01,
        1e5,
        4_096.0,
        16_384.0,
        16_385.0,
        f64::MIN_POSITIVE,
        f64::EPSILON,
    ];
    match rng.below(6) {
        0 => Value::from(u64::MAX),
        1 => Value::from(i64::MIN),
        2 => Value::from(-old),
        3 => Value::from(old * 1e6),
        _ => Value::from(rng.pick(ODD)),
    }
}

fn odd_json_number(v: &mut Value, rng: &mut Mix, paths: &[String]) {
    let numbers = paths_where(v, paths, Value::is_number);
    let Some(at) = choose(rng, &numbers) else { return };
    if let Some(node) = v.pointer_mut(&at) {
        let old = node.as_f64().unwrap_or(0.0);
        *node = odd_f64(rng, old);
    }
}

/// Negative, zero and huge map sizes, pixels per square and origins.
fn odd_frame(v: &mut Value, rng: &mut Mix) {
    let (at, new) = match rng.below(8) {
        0 => ("/resolution/map_size/x", Value::from(-10)),
        1 => ("/resolution/map_size/y", Value::from(0)),
        2 => ("/resolution/map_size/x", Value::from(1_001)),
        3 => ("/resolution/map_size/y", Value::from(1_000_000_000)),
        4 => ("/resolution/pixels_per_grid", Value::from(0)),
        5 => ("/resolution/pixels_per_grid", Value::from(-64)),
        6 => ("/resolution/map_origin/x", Value::from(-1e9)),
        _ => ("/resolution/map_origin/y", Value::from(0.001)),
    };
    if let Some(node) = v.pointer_mut(at) {
        *node = new;
    }
}

/// Arrays at and just over the caps: a line of `MAX_POINTS` points or one more; walls, doors or
/// lights to the per-kind cap or one more; all lines together near the importer's total.
fn big_arrays(v: &mut Value, rng: &mut Mix) {
    let (ox, oy) = (number_at(v, "/resolution/map_origin/x"), number_at(v, "/resolution/map_origin/y"));
    let (w, h) = (number_at(v, "/resolution/map_size/x").max(1.0), number_at(v, "/resolution/map_size/y").max(1.0));
    let line = |n: usize| -> Value {
        let points = (0..n).map(|i| {
            let t = i as f64 / n.max(1) as f64;
            serde_json::json!({"x": ox + w * t, "y": oy + h * (0.5 + 0.4 * (t * 97.0).sin())})
        });
        Value::Array(points.collect())
    };
    let Some(top) = v.as_object_mut() else { return };
    let cap = MAX_ENTITIES_PER_KIND + rng.below(2);
    match rng.below(6) {
        0 => push_to(top, "line_of_sight", line(MAX_POINTS)),
        1 => push_to(top, "line_of_sight", line(MAX_POINTS + 1)),
        2 => {
            top.insert("line_of_sight".into(), Value::Array(vec![line(2); cap]));
        }
        3 => {
            let door = serde_json::json!({
                "position": {"x": ox + 0.5, "y": oy},
                "bounds": [{"x": ox, "y": oy}, {"x": ox + 1.0, "y": oy}],
                "rotation": 0, "closed": true, "freestanding": false
            });
            top.insert("portals".into(), Value::Array(vec![door; cap]));
        }
        4 => {
            let light = serde_json::json!({
                "position": {"x": ox + 1.0, "y": oy + 1.0}, "range": 2, "intensity": 1, "color": "ffffffff"
            });
            top.insert("lights".into(), Value::Array(vec![light; cap]));
        }
        _ if rng.one_in(3) => {
            // Rare and slow (half a million points): every point the importer allows, in lines
            // of the most points each.
            let lines = MAX_TOTAL_POINTS / MAX_POINTS + rng.below(2);
            top.insert("objects_line_of_sight".into(), Value::Array(vec![line(MAX_POINTS); lines]));
        }
        _ => push_to(top, "objects_line_of_sight", line(1 + rng.below(MAX_POINTS))),
    }
}

fn push_to(top: &mut serde_json::Map<String, Value>, key: &str, item: Value) {
    if let Some(Value::Array(items)) = top.get_mut(key) {
        items.push(item);
        return;
    }
    top.insert(key.to_string(), Value::Array(vec![item]));
}

fn copy_element(v: &mut Value, rng: &mut Mix, paths: &[String]) {
    let arrays = paths_where(v, paths, |n| n.as_array().is_some_and(|a| !a.is_empty()));
    let Some(at) = choose(rng, &arrays) else { return };
    if let Some(Value::Array(items)) = v.pointer_mut(&at) {
        let copy = items[rng.below(items.len())].clone();
        let to = rng.below(items.len() + 1);
        items.insert(to, copy);
    }
}

fn empty_array(v: &mut Value, rng: &mut Mix, paths: &[String]) {
    let arrays = paths_where(v, paths, Value::is_array);
    let Some(at) = choose(rng, &arrays) else { return };
    if let Some(Value::Array(items)) = v.pointer_mut(&at) {
        let keep = if rng.one_in(2) { 0 } else { rng.below(items.len() + 1) };
        items.truncate(keep);
    }
}

/// A door of zero length, of one bound, without bounds, with a bound far away, or `closed` not
/// a bool.
fn odd_portal(v: &mut Value, rng: &mut Mix) {
    let Some(Value::Array(portals)) = v.get_mut("portals") else { return };
    if portals.is_empty() {
        return;
    }
    let i = rng.below(portals.len());
    let portal = &mut portals[i];
    match rng.below(5) {
        0 => {
            if let Some(first) = portal.pointer("/bounds/0").cloned()
                && let Some(second) = portal.pointer_mut("/bounds/1")
            {
                *second = first;
            }
        }
        1 => {
            if let Some(Value::Array(bounds)) = portal.pointer_mut("/bounds") {
                bounds.truncate(1);
            }
        }
        2 => {
            if let Some(fields) = portal.as_object_mut() {
                fields.insert("closed".into(), Value::from("yes"));
            }
        }
        3 => {
            if let Some(fields) = portal.as_object_mut() {
                fields.remove("bounds");
            }
        }
        _ => {
            if let Some(x) = portal.pointer_mut("/bounds/1/x") {
                *x = Value::from(1e9);
            }
        }
    }
}

fn odd_light(v: &mut Value, rng: &mut Mix) {
    let Some(Value::Array(lights)) = v.get_mut("lights") else { return };
    if lights.is_empty() {
        return;
    }
    let i = rng.below(lights.len());
    let Some(light) = lights[i].as_object_mut() else { return };
    let (key, new) = match rng.below(8) {
        0 => ("range", Value::from(-1)),
        1 => ("range", Value::from(0)),
        2 => ("range", Value::from(1e9)),
        3 => ("intensity", Value::from(-5)),
        4 => ("intensity", Value::from(1e9)),
        5 => ("color", Value::from("zz")),
        6 => ("color", Value::from("ffffffffff")),
        _ => ("color", Value::from("#fff")),
    };
    light.insert(key.to_string(), new);
}

fn odd_environment(v: &mut Value, rng: &mut Mix) {
    let Some(top) = v.as_object_mut() else { return };
    let environment = match rng.below(6) {
        0 => serde_json::json!({"baked_lighting": true, "ambient_light": "00000000"}),
        1 => serde_json::json!({"ambient_light": "zzzzzzzz"}),
        2 => serde_json::json!({"ambient_light": 7}),
        3 => serde_json::json!({"ambient_light": "ffffffffffffffff"}),
        4 => serde_json::json!("dark"),
        _ => serde_json::json!({"ambient_light": ""}),
    };
    top.insert("environment".into(), environment);
}

fn odd_format(v: &mut Value, rng: &mut Mix) {
    let Some(top) = v.as_object_mut() else { return };
    let format = match rng.below(7) {
        0 => Value::from(0.1),
        1 => Value::from(0.2),
        2 => Value::from(0.3),
        3 => Value::from("0.3"),
        4 => Value::from(0.3 + 1e-11),
        5 => Value::Null,
        _ => Value::from(3),
    };
    top.insert("format".into(), format);
}

fn odd_image(v: &mut Value, rng: &mut Mix) {
    let Some(top) = v.as_object_mut() else { return };
    let image = match rng.below(9) {
        0 => encode_base64(&png_header(64, 64)),
        1 => encode_base64(&png_header(0, 64)),
        2 => encode_base64(&png_header(16_385, 64)),
        3 => encode_base64(&png_header(u32::MAX, u32::MAX)),
        4 => String::new(),
        5 => format!("data:image/png;base64,{}", encode_base64(&png_header(8, 8))),
        6 => "!!!not base64!!!".to_string(),
        7 => encode_base64(&png_header(64, 64)[..20]),
        _ => encode_base64(b"RIFF\x10\x00\x00\x00WEBPVP8 "),
    };
    top.insert("image".into(), Value::String(image));
}

/// A point just inside the importer's edge snap, just past it, on the far corner, far away or on
/// the origin.
fn point_near_edge(v: &mut Value, rng: &mut Mix, paths: &[String]) {
    let (ox, oy) = (number_at(v, "/resolution/map_origin/x"), number_at(v, "/resolution/map_origin/y"));
    let (w, h) = (number_at(v, "/resolution/map_size/x"), number_at(v, "/resolution/map_size/y"));
    let is_point = |n: &Value| n.get("x").is_some_and(Value::is_number) && n.get("y").is_some_and(Value::is_number);
    let points = paths_where(v, paths, is_point);
    let Some(at) = choose(rng, &points) else { return };
    let (x, y) = match rng.below(6) {
        0 => (ox + w + EDGE_SNAP_SQUARES / 2.0, oy),
        1 => (ox - EDGE_SNAP_SQUARES * 2.0, oy + h / 2.0),
        2 => (ox + w, oy + h),
        3 => (ox - 1e6, oy - 1e6),
        4 => (ox + w / 2.0, oy + h + EDGE_SNAP_SQUARES),
        _ => (ox, oy),
    };
    if let Some(node) = v.pointer_mut(&at) {
        *node = serde_json::json!({"x": x, "y": y});
    }
}

/// The first 33 bytes of a PNG, signature and IHDR: all the importer reads of an image.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    b.extend_from_slice(&width.to_be_bytes());
    b.extend_from_slice(&height.to_be_bytes());
    b.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOMB: &str = include_str!("../scenes/tomb.ron");

    #[test]
    fn mutations_are_deterministic_and_change_the_text() {
        let mut changed = 0;
        for seed in 0..40 {
            let a = mutate_scene(TOMB, seed);
            assert_eq!(a, mutate_scene(TOMB, seed), "seed {seed}");
            changed += usize::from(a != TOMB);
        }
        assert!(changed >= 35, "only {changed} of 40 mutations changed the scene");
        let map = serde_json::json!({"format": 0.3, "resolution": {"map_size": {"x": 4, "y": 4}}, "line_of_sight": []});
        assert_eq!(mutate_uvtt(&map, 7), mutate_uvtt(&map, 7));
    }

    #[test]
    fn the_example_scene_holds_every_property() {
        let options = CheckOptions { sim_one_in: 1, ..CheckOptions::TEST };
        assert_eq!(check_scene_case(TOMB, 1, &options), Ok(CaseOutcome::Accepted { simulated: true }));
    }

    #[test]
    fn a_refused_scene_is_not_a_finding_and_a_panic_is() {
        assert_eq!(check_scene_case("(version: 1,", 1, &CheckOptions::TEST), Ok(CaseOutcome::Rejected));
        let finding = guarded("the step", || -> u32 { panic!("boom") }).unwrap_err();
        assert!(finding.starts_with("the step panicked: boom at "), "{finding}");
        assert!(finding.contains("fuzz.rs:"), "{finding}");
    }

    #[test]
    fn a_syntax_error_outside_the_text_is_a_finding() {
        let e = SceneError::Syntax { path: SCENE_CASE_FILE.into(), line: 9, col: 1, message: "x".into() };
        let finding = check_scene_error(&e, "one line", Path::new(SCENE_CASE_FILE), &CheckOptions::TEST);
        assert!(finding.unwrap_err().contains("outside the text"));
    }

    #[test]
    fn number_spans_find_signed_exponents_but_not_names() {
        let b = b"(x: -1.5e-3, name: \"a2\", n: 40)";
        let spans: Vec<&str> =
            number_spans(b).into_iter().map(|(s, e)| std::str::from_utf8(&b[s..e]).unwrap()).collect();
        assert_eq!(spans, ["-1.5e-3", "40"]);
    }

    #[test]
    fn base64_matches_a_known_value() {
        assert_eq!(encode_base64(b"Man"), "TWFu");
        assert_eq!(encode_base64(b"Ma"), "TWE=");
        assert_eq!(encode_base64(b"M"), "TQ==");
    }
}
