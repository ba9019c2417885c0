//! The command line: `tabula [open|check|sim|rest|playtest|import|record] ...`.

use crate::scene::{self, Scene, SceneError};
use crate::sim;
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Most moves one `tabula sim` runs.
pub const MAX_MOVES: u32 = 100_000;

/// Most moves one `tabula record` records (the view's `MAX_RECORD_MOVES`, which checks again).
const CLIP_MAX_MOVES: i64 = 1_000;
/// `tabula record`'s frame rates, frames a second (the view's `RECORD_FPS`).
const CLIP_FPS: std::ops::RangeInclusive<i64> = 1..=60;
/// `tabula record`'s widths, pixels (the view's `RECORD_WIDTH`).
const CLIP_WIDTH: std::ops::RangeInclusive<i64> = 100..=4096;
/// `tabula record`'s frame rate when none is given (the view's `DEFAULT_RECORD_FPS`).
const CLIP_DEFAULT_FPS: u32 = 10;
/// `tabula record`'s width when none is given (the view's `DEFAULT_RECORD_WIDTH`).
const CLIP_DEFAULT_WIDTH: u32 = 800;

/// The command line's arguments (clap takes `--help` from the attributes below, not this comment).
#[derive(Parser, Debug)]
#[command(
    name = "tabula",
    version,
    about = "Tabletop map visualizer and rules simulator for game-masters",
    long_about = "Tabula holds a table measured in inches, with figures, traps, fires, herds and \
                  sleepers, and resolves it move by move by the rules, logging every die.\n\n\
                  With no command it shows the built-in demo scene.",
    after_help = "Examples:\n  tabula check scenes/*.ron\n  tabula sim scenes/tomb.ron --moves 20 --seed 7 --events -\n  tabula open scenes/farmstead.ron"
)]
pub struct Cli {
    /// The command to run; none shows the built-in demo scene.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The picture `open` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ViewArg {
    /// Everything, with the GM's controls.
    Gm,
    /// Only what the players may see.
    Projector,
}

/// A `tabula` command (`Cli`'s explicit `about` and `long_about` override this comment in `--help`).
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open a scene (or a Universal VTT map) in the GM view.
    #[command(after_help = "Examples:\n  tabula open scenes/tomb.ron\n  \
                            tabula open scenes/tomb.ron --moves 3 --screenshot tomb.png\n  \
                            tabula open scenes/tomb.ron --view projector --screenshot players.png\n  \
                            tabula open scenes/farmstead.ron --play 2")]
    Open {
        /// The scene file (.ron), or a map (.dd2vtt, .uvtt, .df2vtt).
        scene: PathBuf,
        /// Render the view, save it as a PNG here and exit.
        #[arg(long, value_name = "OUT.png")]
        screenshot: Option<PathBuf>,
        /// Resolve this many moves before showing the table.
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=MAX_MOVES as i64))]
        moves: u32,
        /// Then show this many rounds more: `--moves 2 --rounds 1` shows the first round of move 3
        /// (the move is resolved whole, as the rules resolve it).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=MAX_MOVES as i64))]
        rounds: u32,
        /// Measure the main world's frame time over this many frames, print it and exit.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
        measure_frames: Option<u32>,
        /// Which picture the window shows: the GM's, or the players' (projector).
        #[arg(long, value_enum, default_value_t = ViewArg::Gm)]
        view: ViewArg,
        /// Start playing at this many moves a second (0.1 to 10): a hands-off demonstration.
        #[arg(long, value_name = "MOVES_PER_SEC", value_parser = parse_play_speed)]
        play: Option<f32>,
        /// Open with the roster of figures' injuries shown (GM view).
        #[arg(long)]
        roster: bool,
        /// Open with the temptations panel shown (GM view).
        #[arg(long)]
        temptations: bool,
        /// Open with the prisoners panel shown (GM view): escorts, bonds, runaways, berserkers.
        #[arg(long)]
        prisoners: bool,
        /// Open with the magic panel shown (GM view).
        #[arg(long)]
        magic: bool,
        /// Open with the fog of war on (the projector shows what the party sees) and the Fog panel shown.
        #[arg(long)]
        fog: bool,
        /// Open with the trails panel shown (GM view): weather, trackers and their readings, trails.
        #[arg(long)]
        trails: bool,
        /// Open with the obstacles panel shown (GM view): stakes, ropes, grapnels, glass walls, planks, vehicles.
        #[arg(long)]
        obstacles: bool,
        /// Open with the OSR panel shown (GM view): turns, wandering checks, the party's pace, the encounter.
        #[arg(long)]
        osr: bool,
        /// Replay the input in this file frame by frame (the cursor at table points, the left button,
        /// keys; src/view/script.rs), print what it asks for and exit: for the GUI smoke tests.
        #[arg(long, value_name = "FILE", hide = true)]
        script: Option<PathBuf>,
    },
    /// Import a Universal VTT map (.dd2vtt, .uvtt, .df2vtt) as a scene, its image beside it.
    #[command(after_help = "Examples:\n  tabula import cave.dd2vtt -o scenes/cave.ron\n  \
                            tabula import big-map.uvtt -o big.ron --inches-per-square 1")]
    Import {
        /// The map file.
        map: PathBuf,
        /// The scene file to write; the map image is written beside it as SCENE-STEM.png/.webp.
        #[arg(short, long, value_name = "SCENE.ron")]
        output: PathBuf,
        /// Table inches per map square.
        #[arg(long, default_value_t = 1.0)]
        inches_per_square: f32,
        /// Treat the map's walls as outer walls (waking checks −2 through them) rather than inner (−1).
        #[arg(long)]
        outer_walls: bool,
        /// Write the scene even over the map file being read.
        #[arg(long)]
        force: bool,
    },
    /// Run a scene many times from consecutive seeds and report what happened.
    #[command(after_help = "Examples:\n  tabula playtest scenes/tomb.ron --runs 1000\n  \
                            tabula playtest scenes/ambush-trail.ron --runs 5000 --moves 30 --seed 100 --json report.json --csv report.csv --heatmap overlays.png\n  \
                            tabula playtest scenes/farmstead.ron --runs 200 --moves 25 --heatmap burn.png --heatmap-layer burn\n\n\
                            Run i uses seed S+i: replay it with `tabula sim SCENE --seed S+i`.")]
    Playtest {
        /// The scene file (.ron).
        scene: PathBuf,
        /// How many runs.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crate::playtest::MAX_RUNS as i64))]
        runs: u32,
        /// Moves in each run.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=MAX_MOVES as i64))]
        moves: u32,
        /// Seed of the first run; the scene's `seed` when absent.
        #[arg(long)]
        seed: Option<u64>,
        /// Threads to run on; all cores when absent. The report is the same whatever the count.
        #[arg(long)]
        threads: Option<usize>,
        /// Write the full report as JSON.
        #[arg(long, value_name = "PATH")]
        json: Option<PathBuf>,
        /// Write the report's shares as CSV.
        #[arg(long, value_name = "PATH")]
        csv: Option<PathBuf>,
        /// Write a PNG of the table with the play-test's overlays (docs/playtest.md): burn probability
        /// per cell, where figures were hurt, where they ended, each trap's sprung and spotted shares.
        #[arg(long, value_name = "PATH.png")]
        heatmap: Option<PathBuf>,
        /// Which overlays --heatmap draws, one panel each: every one with data, or one alone.
        #[arg(long, value_enum, default_value_t = crate::heatmap::LayerChoice::All)]
        heatmap_layer: crate::heatmap::LayerChoice,
    },
    /// Check scene files: exit 0 if all are valid, 1 if any is invalid, 2 on usage or I/O errors.
    #[command(after_help = "Examples:\n  tabula check scenes/*.ron\n  tabula check my-dungeon.ron")]
    Check {
        /// Scene files to check.
        #[arg(required = true)]
        scenes: Vec<PathBuf>,
    },
    /// Step a scene headless for a number of moves and write what happened.
    #[command(after_help = "Examples:\n  tabula sim scenes/tomb.ron --moves 10\n  \
                            tabula sim scenes/tomb.ron --moves 10 --seed 3 --events events.jsonl --final end.ron\n  \
                            tabula sim scenes/tomb.ron --moves 5 --events - | jq .outcome")]
    Sim {
        /// The scene file (.ron).
        scene: PathBuf,
        /// How many moves to resolve (a move is 2 rounds by default).
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=MAX_MOVES as i64))]
        moves: u32,
        /// Dice seed and outputs.
        #[command(flatten)]
        run: RunArgs,
    },
    /// Rest a scene's figures for days off the table: injuries are located, the left for dead
    /// live or die, wounds heal, fester or kill, with the treatment orders in the scene.
    #[command(after_help = "Examples:\n  tabula rest scenes/infirmary.ron --days 30\n  \
                            tabula sim scenes/tomb.ron --moves 20 --final end.ron && tabula rest end.ron --days 30 --events rest.jsonl --final rested.ron\n  \
                            tabula rest scenes/infirmary.ron --days 10 --seed 3 --events - | jq .outcome\n\n\
                            A day is the scene's `rules.moves_per_day` moves (480); the clock moves on by them.")]
    Rest {
        /// The scene file (.ron).
        scene: PathBuf,
        /// How many days to rest, 1 to 3650.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=sim::MAX_REST_DAYS as i64))]
        days: u32,
        /// Dice seed and outputs.
        #[command(flatten)]
        run: RunArgs,
    },
    /// Record the next moves of a scene, round by round as the GM view steps them, as an animated
    /// GIF, an animated PNG or a video, a caption bar on every frame.
    #[command(after_help = "Examples:\n  tabula record scenes/farmstead.ron --moves 20 -o farmstead.gif\n  \
                            tabula record scenes/pasture.ron --moves 5 --fps 15 --width 1200 -o pasture.png\n  \
                            tabula record scenes/tomb.ron --moves 3 --view projector -o players.mp4\n\n\
                            Each round is tweened as the GM view steps it (0.8 s), so a clip has \
                            1 + MOVES x ROUNDS_PER_MOVE x (floor(0.8 x FPS) + 1) frames, the first held 1 s and the \
                            last 2 s. .gif and .png need nothing more; .mp4 and .webm are made by ffmpeg (Debian's \
                            `ffmpeg` package). The view is rendered in a window: without a display, run it under \
                            `xvfb-run -a`.")]
    Record {
        /// The scene file (.ron), or a map (.dd2vtt, .uvtt, .df2vtt).
        scene: PathBuf,
        /// How many moves to record, 1 to 1000.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=CLIP_MAX_MOVES))]
        moves: u32,
        /// Dice seed; the scene's `seed` when absent.
        #[arg(long)]
        seed: Option<u64>,
        /// Which picture to record: the GM's (every secret), or the players' (projector).
        #[arg(long, value_enum, default_value_t = ViewArg::Gm)]
        view: ViewArg,
        /// Frames a second, 1 to 60.
        #[arg(long, default_value_t = CLIP_DEFAULT_FPS, value_parser = clap::value_parser!(u32).range(CLIP_FPS))]
        fps: u32,
        /// The clip's width in pixels, 100 to 4096; its height follows the table's shape.
        #[arg(long, default_value_t = CLIP_DEFAULT_WIDTH, value_parser = clap::value_parser!(u32).range(CLIP_WIDTH))]
        width: u32,
        /// The clip to write: .gif, .png (an animated PNG), .mp4 or .webm.
        #[arg(short, long, value_name = "OUT.gif")]
        output: PathBuf,
        /// Write the clip even over the scene file being read.
        #[arg(long)]
        force: bool,
    },
}

/// The dice and outputs of a headless run (`sim`, `rest`).
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Dice seed; the scene's `seed` when absent.
    #[arg(long)]
    seed: Option<u64>,
    /// Write the event log as JSON Lines to this file, or `-` for standard output.
    #[arg(long, value_name = "PATH|-")]
    events: Option<String>,
    /// Write the end state as a scene file that loads again.
    #[arg(long = "final", value_name = "PATH")]
    final_scene: Option<PathBuf>,
    /// Write `--events` or `--final` even over the scene file being read.
    #[arg(long)]
    force: bool,
}

impl RunArgs {
    /// The exit code when an output would write over `scene` without `--force`.
    fn refuse_overwriting(&self, scene: &Path) -> Option<ExitCode> {
        let mut outputs = self.events.iter().filter(|e| *e != "-").map(PathBuf::from).chain(self.final_scene.clone());
        outputs.find_map(|output| refuse_overwriting_input(scene, &output, self.force))
    }
}

/// Parse the arguments and run; the process exit code comes back.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => demo(),
        Some(Command::Open {
            scene,
            screenshot,
            moves,
            rounds,
            view,
            measure_frames,
            play,
            roster,
            temptations,
            prisoners,
            magic,
            fog,
            trails,
            obstacles,
            osr,
            script,
        }) => open(
            &scene,
            (screenshot, script),
            (moves, rounds),
            view,
            measure_frames,
            (play, roster, temptations, prisoners, magic, fog, trails, obstacles, osr),
        ),
        Some(Command::Check { scenes }) => check(&scenes),
        Some(Command::Playtest { scene, runs, moves, seed, threads, json, csv, heatmap, heatmap_layer }) => playtest(
            &scene,
            runs,
            moves,
            seed,
            threads,
            json.as_deref(),
            csv.as_deref(),
            heatmap.as_deref().map(|p| (p, heatmap_layer)),
        ),
        Some(Command::Import { map, output, inches_per_square, outer_walls, force }) => {
            if let Some(code) = refuse_overwriting_input(&map, &output, force) {
                return code;
            }
            import(&map, &output, inches_per_square, outer_walls)
        }
        Some(Command::Sim { scene, moves, run }) => match run.refuse_overwriting(&scene) {
            Some(code) => code,
            None => run_sim(&scene, moves, run.seed, run.events.as_deref(), run.final_scene.as_deref()),
        },
        Some(Command::Rest { scene, days, run }) => match run.refuse_overwriting(&scene) {
            Some(code) => code,
            None => run_rest(&scene, days, run.seed, run.events.as_deref(), run.final_scene.as_deref()),
        },
        Some(Command::Record { scene, moves, seed, view, fps, width, output, force }) => {
            match refuse_overwriting_input(&scene, &output, force) {
                Some(code) => code,
                None => record(&scene, moves, seed, view, (fps, width), &output),
            }
        }
    }
}

/// Write a line to standard output. A reader that has gone (a closed pipe, `| head -1`) ends
/// the command quietly with exit 0; any other write error (a full device) exits 2. Never a panic.
macro_rules! say {
    ($($arg:tt)*) => {
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            return output_failed(&e);
        }
    };
}

/// The exit for a failed write to standard output: 0 when the reader closed the pipe, else 2.
fn output_failed(e: &std::io::Error) -> ExitCode {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        ExitCode::SUCCESS
    } else {
        eprintln!("writing output: {e}");
        ExitCode::from(2)
    }
}

/// Exit 2 with a message when `output` is the file `input` being read (the same file, whatever
/// the path says), unless `force`.
fn refuse_overwriting_input(input: &Path, output: &Path, force: bool) -> Option<ExitCode> {
    let same = match (std::fs::canonicalize(input), std::fs::canonicalize(output)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    (same && !force).then(|| {
        eprintln!("{}: is the file being read; pass --force to write over it", output.display());
        ExitCode::from(2)
    })
}

/// Exit 2 with a message when `moves` more moves would take the scene's clock past the most
/// moves a scene may play (the run would stop short, and its end would not load).
fn refuse_a_full_clock(path: &Path, scene: &Scene, moves: u32) -> Option<ExitCode> {
    let full = sim::moves_after(scene.clock.moves_played, moves).err()?;
    eprintln!("{}: {full}", path.display());
    Some(ExitCode::from(2))
}

fn report(e: &SceneError) -> ExitCode {
    fail(e, e.is_io())
}

/// Print an error; exit 2 for usage or I/O problems, 1 for anything wrong inside a file.
fn fail(e: &dyn std::fmt::Display, io: bool) -> ExitCode {
    eprintln!("{e}");
    ExitCode::from(if io { 2 } else { 1 })
}

fn playtest(
    path: &Path,
    runs: u32,
    moves: u32,
    seed: Option<u64>,
    threads: Option<usize>,
    json: Option<&Path>,
    csv: Option<&Path>,
    heatmap: Option<(&Path, crate::heatmap::LayerChoice)>,
) -> ExitCode {
    use std::io::IsTerminal;
    let scene = match scene::load_scene(path) {
        Ok(s) => s,
        Err(e) => return report(&e),
    };
    if let Some(code) = refuse_a_full_clock(path, &scene, moves) {
        return code;
    }
    let seed = seed.unwrap_or(scene.seed);
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).clamp(1, 256);
    let tty = std::io::stderr().is_terminal();
    let progress = |done: u32| {
        if tty && (done == runs || done.is_multiple_of((runs / 100).max(1))) {
            let filled = (done as usize * 30) / runs.max(1) as usize;
            eprint!("\r[{}{}] {done}/{runs} runs", "#".repeat(filled), " ".repeat(30 - filled));
            if done == runs {
                eprintln!();
            }
        }
    };
    let started = std::time::Instant::now();
    let never = std::sync::atomic::AtomicBool::new(false);
    let gathered =
        crate::playtest::run_and_tally(&scene, runs, moves, seed, threads, &progress, &never, heatmap.is_some());
    let Some(gathered) = gathered else {
        eprintln!("the play-test stopped before its last run");
        return ExitCode::FAILURE;
    };
    let secs = started.elapsed().as_secs_f64();
    let title = crate::playtest::report_title(&scene, Some(path));
    let report = gathered.tally.report(&title, moves, seed);
    if let Err(e) = write!(std::io::stdout(), "{}", crate::playtest::to_text(&report)) {
        return output_failed(&e);
    }
    eprintln!("{runs} runs in {secs:.2} s on {threads} threads ({:.1} runs/s)", runs as f64 / secs.max(1e-9));
    let write = |p: &Path, bytes: &[u8]| -> bool {
        match scene::save::write_atomic(p, bytes) {
            Ok(()) => true,
            Err(e) => {
                eprintln!("{}: {e}", p.display());
                false
            }
        }
    };
    let mut ok = true;
    if let Some(p) = json {
        ok &= write(p, crate::playtest::to_json(&report).as_bytes());
    }
    if let Some(p) = csv {
        ok &= write(p, crate::playtest::to_csv(&report).as_bytes());
    }
    if let Some((p, layers)) = heatmap {
        let overlays = gathered.overlays.unwrap_or_else(|| crate::heatmap::OverlayTally::new(&scene)).overlays();
        match crate::heatmap::heatmap_png(&scene, &overlays, &report, layers) {
            Ok(bytes) => ok &= write(p, &bytes),
            Err(e) => {
                eprintln!("heatmap: {e}");
                ok = false;
            }
        }
    }
    if ok { ExitCode::SUCCESS } else { ExitCode::from(2) }
}

/// Is this a Universal VTT map rather than a scene file?
pub fn is_uvtt(path: &Path) -> bool {
    crate::document::is_map(path)
}

fn import_settings(inches_per_square: f32, outer_walls: bool) -> scene::uvtt::ImportSettings {
    scene::uvtt::ImportSettings {
        inches_per_square,
        wall_kind: if outer_walls { scene::WallKind::Outer } else { scene::WallKind::Inner },
    }
}

fn import(map: &Path, output: &Path, inches_per_square: f32, outer_walls: bool) -> ExitCode {
    if !(inches_per_square.is_finite() && inches_per_square > 0.0 && inches_per_square <= 100.0) {
        eprintln!("--inches-per-square: {inches_per_square} must be more than 0 and at most 100");
        return ExitCode::from(2);
    }
    let imported = match scene::uvtt::read_uvtt(map, &import_settings(inches_per_square, outer_walls)) {
        Ok(i) => i,
        Err(e) => return fail(&e, e.is_io()),
    };
    let mut scene = imported.scene;
    // The scene and its image are written both or neither: a scene that cannot be written
    // leaves no image behind.
    let saved = match &imported.image {
        Some(image) => {
            let stem = output.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "map".into());
            let image_name = format!("{stem}.{}", image.extension);
            let image_path = output.with_file_name(&image_name);
            if let Some(bg) = scene.background.as_mut() {
                bg.image = image_name;
            }
            scene::save::save_scene_with_image(&scene, output, &image_path, &image.bytes)
        }
        None => scene::save_scene(&scene, output),
    };
    if let Err(e) = saved {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    say!("{}: imported {} as {}", output.display(), map.display(), summary(&scene));
    ExitCode::SUCCESS
}

fn check(paths: &[PathBuf]) -> ExitCode {
    let mut invalid = false;
    let mut io_error = false;
    for path in paths {
        match scene::load_scene(path) {
            Ok(s) => say!("{}: ok ({})", path.display(), summary(&s)),
            Err(e) => {
                eprintln!("{e}");
                if e.is_io() {
                    io_error = true;
                } else {
                    invalid = true;
                }
            }
        }
    }
    if io_error {
        ExitCode::from(2)
    } else if invalid {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// One line saying what a scene holds.
pub fn summary(s: &Scene) -> String {
    format!(
        "{}x{}\" table, {} figures, {} traps, {} fires, {} herds, {} sleeping groups, {} regions, {} walls",
        s.table.width,
        s.table.height,
        s.figures.len(),
        s.traps.len(),
        s.fires.len(),
        s.herds.len(),
        s.sleepers.len(),
        s.terrain.len(),
        s.walls.len()
    )
}

fn run_sim(path: &Path, moves: u32, seed: Option<u64>, events: Option<&str>, final_path: Option<&Path>) -> ExitCode {
    let scene = match scene::load_scene(path) {
        Ok(s) => s,
        Err(e) => return report(&e),
    };
    if let Some(code) = refuse_a_full_clock(path, &scene, moves) {
        return code;
    }
    let seed = seed.unwrap_or(scene.seed);
    // The end state is worked out only when it is saved (for a burning table it is most of a
    // short run: every reached cell, encoded).
    let (log, end) = match final_path {
        Some(_) => {
            let sim::Run { log, end } = sim::run(&scene, seed, moves);
            (log, Some(end))
        }
        None => (sim::run_log(&scene, seed, moves), None),
    };
    finish_run(path, (moves, "moves"), seed, (&log, end.as_ref()), (events, final_path))
}

/// Write a run's outputs and say what was run, on standard error when the log went to
/// standard output: `PATH: N moves with seed S, E events, R rolls`.
fn finish_run(
    path: &Path,
    (count, unit): (u32, &str),
    seed: u64,
    (log, end): (&sim::EventLog, Option<&Scene>),
    (events, final_path): (Option<&str>, Option<&Path>),
) -> ExitCode {
    let to_stdout = match write_outputs(log, end, events, final_path) {
        Ok(to_stdout) => to_stdout,
        Err(code) => return code,
    };
    let rolls: usize = log.events.iter().map(|e| e.rolls.len()).sum();
    let line =
        format!("{}: {count} {unit} with seed {seed}, {} events, {rolls} rolls", path.display(), log.events.len());
    if to_stdout {
        eprintln!("{line}")
    } else {
        say!("{line}")
    }
    ExitCode::SUCCESS
}

/// Write a run's log (`--events`: a file, or `-` for standard output) and its end
/// (`--final`): whether the log went to standard output, or the exit code of a failed write
/// (2; 0 when the reader of standard output has gone). `end` is needed only with `final_path`.
fn write_outputs(
    log: &sim::EventLog,
    end: Option<&Scene>,
    events: Option<&str>,
    final_path: Option<&Path>,
) -> Result<bool, ExitCode> {
    let mut to_stdout = false;
    if let Some(target) = events {
        let text = log.to_json_lines();
        if target == "-" {
            to_stdout = true;
            let mut out = std::io::stdout().lock();
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                return Err(output_failed(&e));
            }
        } else if let Err(e) = scene::save::write_atomic(Path::new(target), text.as_bytes()) {
            eprintln!("{target}: {e}");
            return Err(ExitCode::from(2));
        }
    }
    if let (Some(final_path), Some(end)) = (final_path, end)
        && let Err(e) = scene::save_scene(end, final_path)
    {
        eprintln!("{e}");
        return Err(ExitCode::from(2));
    }
    Ok(to_stdout)
}

/// `tabula rest`: the days of rest, written as `tabula sim` writes its moves. Exit 1 for a
/// broken scene, 2 when the days would take the clock past its maximum or a write fails.
fn run_rest(path: &Path, days: u32, seed: Option<u64>, events: Option<&str>, final_path: Option<&Path>) -> ExitCode {
    let scene = match scene::load_scene(path) {
        Ok(s) => s,
        Err(e) => return report(&e),
    };
    let seed = seed.unwrap_or(scene.seed);
    let sim::RestRun { log, end } = match sim::rest(&scene, days, seed) {
        Ok(run) => run,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    finish_run(path, (days, "days"), seed, (&log, Some(&end)), (events, final_path))
}

fn demo_scene() -> Option<Scene> {
    match scene::parse_scene(scene::DEMO_SCENE, Path::new("<built-in demo>")) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("{e}");
            None
        }
    }
}

fn demo() -> ExitCode {
    let Some(scene) = demo_scene() else { return ExitCode::from(1) };
    #[cfg(feature = "gui")]
    {
        crate::view::run(scene, None)
    }
    #[cfg(not(feature = "gui"))]
    {
        print_headless_run(&scene, 10);
        ExitCode::SUCCESS
    }
}

/// A play speed in moves a second, within what the Clock panel's slider offers.
fn parse_play_speed(text: &str) -> Result<f32, String> {
    let speed: f32 = text.trim().parse().map_err(|_| format!("`{text}` is not a number"))?;
    if (0.1..=10.0).contains(&speed) { Ok(speed) } else { Err(format!("{speed} is not between 0.1 and 10")) }
}

fn open(
    path: &Path,
    (screenshot, script): (Option<PathBuf>, Option<PathBuf>),
    (moves, rounds): (u32, u32),
    view: ViewArg,
    measure_frames: Option<u32>,
    (play, roster, temptations, prisoners, magic, fog, trails, obstacles, osr): (
        Option<f32>,
        bool,
        bool,
        bool,
        bool,
        bool,
        bool,
        bool,
        bool,
    ),
) -> ExitCode {
    // A map opens directly: imported in memory, its image shown from memory (the document).
    let document = match crate::document::Document::open(path) {
        Ok(d) => d,
        Err(e) => return fail(&e, e.is_io()),
    };
    let Some(scene) = document.scene.clone() else { return ExitCode::from(2) };
    // `--rounds` past the moves resolves a move for each move's worth of rounds begun.
    let moves_needed = moves.saturating_add(rounds.div_ceil(u32::from(scene.rules.rounds_per_move.max(1))));
    if let Some(code) = refuse_a_full_clock(path, &scene, moves_needed) {
        return code;
    }
    #[cfg(feature = "gui")]
    {
        let view = match view {
            ViewArg::Gm => crate::view::ViewKind::Gm,
            ViewArg::Projector => crate::view::ViewKind::Projector,
        };
        let options = crate::view::ViewOptions {
            screenshot,
            moves,
            rounds,
            view,
            measure_frames,
            play,
            roster,
            temptations,
            prisoners,
            magic,
            fog,
            trails,
            obstacles,
            osr,
            script,
            record: None,
        };
        crate::view::run_with(scene, document, options)
    }
    #[cfg(not(feature = "gui"))]
    {
        let _ = (
            screenshot,
            script,
            view,
            document,
            measure_frames,
            play,
            rounds,
            roster,
            temptations,
            prisoners,
            magic,
            fog,
            trails,
            obstacles,
            osr,
        );
        eprintln!("this tabula was built without the `gui` feature; showing a headless run instead");
        print_headless_run(&scene, moves.max(1))
    }
}

/// `tabula record`: open the view on the scene, play `moves` moves round by round and write the
/// clip. Exit 1 for a broken scene, 2 for a usage or I/O problem (an option out of bounds, an
/// unknown kind of clip, no ffmpeg for a video, a clock that would pass its most, a failed write).
fn record(
    path: &Path,
    moves: u32,
    seed: Option<u64>,
    view: ViewArg,
    (fps, width): (u32, u32),
    output: &Path,
) -> ExitCode {
    let document = match crate::document::Document::open(path) {
        Ok(d) => d,
        Err(e) => return fail(&e, e.is_io()),
    };
    let Some(mut scene) = document.scene.clone() else { return ExitCode::from(2) };
    if let Some(code) = refuse_a_full_clock(path, &scene, moves) {
        return code;
    }
    if let Some(seed) = seed {
        scene.seed = seed;
    }
    #[cfg(feature = "gui")]
    {
        let clip = match crate::view::RecordOptions::new(output.to_path_buf(), moves, fps, width) {
            Ok(clip) => clip,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        };
        let view = match view {
            ViewArg::Gm => crate::view::ViewKind::Gm,
            ViewArg::Projector => crate::view::ViewKind::Projector,
        };
        let options = crate::view::ViewOptions { view, record: Some(clip), ..Default::default() };
        crate::view::run_with(scene, document, options)
    }
    #[cfg(not(feature = "gui"))]
    {
        let _ = (scene, document, view, fps, width, output);
        eprintln!("this tabula was built without the `gui` feature: `record` renders the view, which needs it");
        ExitCode::from(2)
    }
}

/// Run a scene headless and print what happened, for builds without a window.
pub fn print_headless_run(scene: &Scene, moves: u32) -> ExitCode {
    say!("{}: {}", if scene.title.is_empty() { "scene" } else { &scene.title }, summary(scene));
    let log = sim::run_log(scene, scene.seed, moves);
    for e in &log.events {
        say!("move {:>3} {:<12} {:<20} {:<24} {}", e.move_number, e.system, e.subject, e.event, e.outcome);
    }
    ExitCode::SUCCESS
}

#[cfg(all(test, feature = "gui"))]
mod tests {
    use super::*;
    use crate::view;

    #[test]
    fn record_takes_the_view_s_bounds_and_defaults() {
        let wide = |r: &std::ops::RangeInclusive<u32>| i64::from(*r.start())..=i64::from(*r.end());
        assert_eq!(CLIP_MAX_MOVES, i64::from(view::MAX_RECORD_MOVES));
        assert_eq!(CLIP_FPS, wide(&view::RECORD_FPS));
        assert_eq!(CLIP_WIDTH, wide(&view::RECORD_WIDTH));
        assert_eq!((CLIP_DEFAULT_FPS, CLIP_DEFAULT_WIDTH), (view::DEFAULT_RECORD_FPS, view::DEFAULT_RECORD_WIDTH));
    }

    #[test]
    fn record_refuses_an_option_out_of_bounds() {
        let parse = |args: &[&str]| {
            let mut all = vec!["tabula", "record", "s.ron", "-o", "x.gif"];
            all.extend_from_slice(args);
            Cli::try_parse_from(all)
        };
        assert!(parse(&["--moves", "2"]).is_ok());
        for bad in [["--moves", "0"], ["--moves", "1001"]] {
            assert!(parse(&bad).is_err(), "{bad:?}");
        }
        for bad in [["--fps", "0"], ["--fps", "61"], ["--width", "99"], ["--width", "4097"]] {
            assert!(parse(&["--moves", "2", bad[0], bad[1]]).is_err(), "{bad:?}");
        }
        let Ok(Cli { command: Some(Command::Record { fps, width, view, .. }) }) = parse(&["--moves", "2"]) else {
            panic!("a record command");
        };
        assert_eq!((fps, width, view), (10, 800, ViewArg::Gm));
    }
}
