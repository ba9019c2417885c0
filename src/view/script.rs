//! `tabula open SCENE --script FILE` (a hidden option, for the GUI smoke tests): replay simple
//! input frame by frame — the cursor at a table point, the left mouse button, keys — and print
//! what the script asks for (the ruler's reading, where an entity stands, the undo steps) on
//! standard output; when it is over, save the `--screenshot` if one was asked for, and exit.
//! While a script runs the cursor is the script's: the real pointer is not read, and the egui
//! panels under it do not take the script's clicks on the table.
//!
//! One action a line; `#` begins a comment:
//!
//! - `wait N`: let N frames pass (1 to 10,000).
//! - `cursor X Y`: the cursor at table point (X, Y), inches.
//! - `press`, `release`: the left mouse button down, up.
//! - `drag X1 Y1 X2 Y2 [FRAMES]`: the cursor at the first point, press, move to the second over
//!   FRAMES frames (8 unless given), release.
//! - `key COMBO`: keys down for one frame, then up: `m`, `ctrl+z`, `ctrl+shift+z`, `escape`.
//! - `down KEY`, `up KEY`: hold a key down (e.g. `shift`, for a radius), let it go.
//! - `print ruler` (`ruler: 5.0"`, or `ruler: none`), `print undo` (`undo: 1, redo: 0`),
//!   `print position NAME` (`position NAME: (6.00, 11.50)`, or `position NAME: none`),
//!   `print overlay X Y` (what the Play-test window shows for a cell picked at table point
//!   (X, Y): `overlay at (X, Y): the 1" cell from ...; burn probability: ...`).
//! - `playtest RUNS MOVES SEED THREADS OUT`: the Play-test window's Run with those numbers
//!   (runs 1 to 100,000, moves 1 to 10,000, threads kept to the cores there are), the script
//!   waiting until it is done, then its JSON saved to the file OUT by the window's Save code;
//!   if it cannot be made or saved, the view says why and exits with 2.
//! - `overlay LAYER [OPACITY]`: the play-test's overlay drawn on the table, `none`, `burn`,
//!   `hurt` or `ends`, at an opacity from 0 to 1 when given.
//!
//! Every action but `print` takes a frame; a script should begin with a `wait` while the first
//! frames settle.

use super::camera::CursorTable;
use super::playtest_panel::{MAX_PANEL_MOVES, MAX_PANEL_RUNS, PlaytestPanel};
use super::ruler::Ruler;
use crate::document::EditHistory;
use crate::heatmap::Layer;
use crate::sim::world::{SceneOrder, TablePosition};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_egui::input::EguiWantsInput;
use std::path::{Path, PathBuf};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        play_script
            .run_if(resource_exists::<ScriptPlayer>)
            .after(bevy::input::InputSystems)
            .before(super::undo::begin_gesture),
    );
}

/// Frames a `drag` takes unless the script says.
const DRAG_FRAMES: u32 = 8;
/// Most frames a `drag` or a `wait` may take.
const MAX_DRAG_FRAMES: u32 = 600;
const MAX_WAIT_FRAMES: u32 = 10_000;
/// Frames the picture is given at the end: at least the first, at most the second.
const SCREENSHOT_SETTLE_FRAMES: u32 = 30;
const SCREENSHOT_MAX_FRAMES: u32 = 600;
/// Largest script file read.
const MAX_SCRIPT_BYTES: u64 = 1024 * 1024;

/// One frame's input (or a report, which takes no frame).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Step {
    Wait(u32),
    Cursor(Vec2),
    Press,
    Release,
    KeysDown(Vec<KeyCode>),
    KeysUp(Vec<KeyCode>),
    Print(Report),
    /// The Play-test window's run, its JSON saved to `out` (the script waits for it).
    Playtest {
        runs: u32,
        moves: u32,
        seed: u64,
        threads: usize,
        out: PathBuf,
    },
    /// The play-test's overlay on the table (none: none), and its opacity if given.
    Overlay(Option<Layer>, Option<f32>),
}

/// What `print` writes.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Report {
    Ruler,
    Undo,
    Position(String),
    /// What a pick of the cell at this table point shows.
    Overlay(Vec2),
}

/// Whether the view's table tools take the left button: the pointer is on the table rather
/// than on a panel, or a script drives the input.
pub(super) fn pointer_on_table(wants: Res<EguiWantsInput>, script: Option<Res<ScriptPlayer>>) -> bool {
    script.is_some() || !wants.wants_any_pointer_input()
}

/// Read and check a script file.
pub(super) fn read_script(path: &Path) -> Result<Vec<Step>, String> {
    let bytes = crate::scene::load::read_bounded(path, MAX_SCRIPT_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .map_err(|_| format!("{}: a script is at most {MAX_SCRIPT_BYTES} bytes", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
    parse_script(&text, &path.display().to_string())
}

fn number(word: &str) -> Option<f32> {
    word.parse::<f32>().ok().filter(|v| v.is_finite())
}

/// A key by its name in a script: a letter, a digit, or `ctrl`, `shift`, `alt`, `escape`,
/// `enter`, `space`, `delete`, `backspace`, `home`, `f1`, `f2`, `left`, `right`, `up`, `down`.
fn key_code(name: &str) -> Option<KeyCode> {
    const LETTERS: [KeyCode; 26] = [
        KeyCode::KeyA,
        KeyCode::KeyB,
        KeyCode::KeyC,
        KeyCode::KeyD,
        KeyCode::KeyE,
        KeyCode::KeyF,
        KeyCode::KeyG,
        KeyCode::KeyH,
        KeyCode::KeyI,
        KeyCode::KeyJ,
        KeyCode::KeyK,
        KeyCode::KeyL,
        KeyCode::KeyM,
        KeyCode::KeyN,
        KeyCode::KeyO,
        KeyCode::KeyP,
        KeyCode::KeyQ,
        KeyCode::KeyR,
        KeyCode::KeyS,
        KeyCode::KeyT,
        KeyCode::KeyU,
        KeyCode::KeyV,
        KeyCode::KeyW,
        KeyCode::KeyX,
        KeyCode::KeyY,
        KeyCode::KeyZ,
    ];
    const DIGITS: [KeyCode; 10] = [
        KeyCode::Digit0,
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    let name = name.to_ascii_lowercase();
    if let [c] = name.as_bytes() {
        if c.is_ascii_lowercase() {
            return LETTERS.get(usize::from(c - b'a')).copied();
        }
        if c.is_ascii_digit() {
            return DIGITS.get(usize::from(c - b'0')).copied();
        }
    }
    Some(match name.as_str() {
        "ctrl" | "control" => KeyCode::ControlLeft,
        "shift" => KeyCode::ShiftLeft,
        "alt" => KeyCode::AltLeft,
        "esc" | "escape" => KeyCode::Escape,
        "enter" | "return" => KeyCode::Enter,
        "space" => KeyCode::Space,
        "delete" => KeyCode::Delete,
        "backspace" => KeyCode::Backspace,
        "home" => KeyCode::Home,
        "f1" => KeyCode::F1,
        "f2" => KeyCode::F2,
        "left" => KeyCode::ArrowLeft,
        "right" => KeyCode::ArrowRight,
        "up" => KeyCode::ArrowUp,
        "down" => KeyCode::ArrowDown,
        _ => return None,
    })
}

/// The steps of a script's text; a problem names the line (`origin:LINE: ...`).
pub(super) fn parse_script(text: &str, origin: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&verb, args)) = words.split_first() else { continue };
        let fail = |what: &str| format!("{origin}:{}: `{line}`: {what}", index + 1);
        match verb {
            "wait" => {
                let frames = match args {
                    [n] => n.parse::<u32>().ok().filter(|n| (1..=MAX_WAIT_FRAMES).contains(n)),
                    _ => None,
                };
                let Some(frames) = frames else { return Err(fail("wait takes a count of frames, 1 to 10000")) };
                steps.push(Step::Wait(frames));
            }
            "cursor" => {
                let point: Option<Vec<f32>> = args.iter().copied().map(number).collect();
                let Some(&[x, y]) = point.as_deref() else {
                    return Err(fail("cursor takes a table point: X Y, in inches"));
                };
                steps.push(Step::Cursor(Vec2::new(x, y)));
            }
            "press" | "release" => {
                if !args.is_empty() {
                    return Err(fail("press and release take nothing: they are the left button's"));
                }
                steps.push(if verb == "press" { Step::Press } else { Step::Release });
            }
            "drag" => {
                let usage = "drag takes X1 Y1 X2 Y2 in inches, and maybe the frames it takes (1 to 600)";
                let (corners, frames) = match args {
                    [a, b, c, d] => ([*a, *b, *c, *d], Some(DRAG_FRAMES)),
                    [a, b, c, d, n] => {
                        ([*a, *b, *c, *d], n.parse::<u32>().ok().filter(|n| (1..=MAX_DRAG_FRAMES).contains(n)))
                    }
                    _ => return Err(fail(usage)),
                };
                let corners: Option<Vec<f32>> = corners.into_iter().map(number).collect();
                let (Some(&[x1, y1, x2, y2]), Some(frames)) = (corners.as_deref(), frames) else {
                    return Err(fail(usage));
                };
                let (from, to) = (Vec2::new(x1, y1), Vec2::new(x2, y2));
                steps.push(Step::Cursor(from));
                steps.push(Step::Press);
                for k in 1..frames {
                    steps.push(Step::Cursor(from.lerp(to, k as f32 / frames as f32)));
                }
                steps.push(Step::Cursor(to));
                steps.push(Step::Release);
            }
            "key" | "down" | "up" => {
                let [combo] = args else { return Err(fail("takes one key or combination, e.g. ctrl+z")) };
                let keys: Option<Vec<KeyCode>> = combo.split('+').map(key_code).collect();
                let Some(keys) = keys.filter(|k| !k.is_empty()) else {
                    return Err(fail("an unknown key: letters, digits, ctrl, shift, alt, escape, enter, ..."));
                };
                match verb {
                    "key" => {
                        steps.push(Step::KeysDown(keys.clone()));
                        steps.push(Step::KeysUp(keys));
                    }
                    "down" => steps.push(Step::KeysDown(keys)),
                    _ => steps.push(Step::KeysUp(keys)),
                }
            }
            "print" => {
                let report = match args {
                    ["ruler"] => Report::Ruler,
                    ["undo"] => Report::Undo,
                    ["position", name @ ..] if !name.is_empty() => Report::Position(name.join(" ")),
                    ["overlay", x, y] => match (number(x), number(y)) {
                        (Some(x), Some(y)) => Report::Overlay(Vec2::new(x, y)),
                        _ => return Err(fail("print overlay takes a table point: X Y, in inches")),
                    },
                    _ => return Err(fail("print ruler, print undo, print position NAME or print overlay X Y")),
                };
                steps.push(Step::Print(report));
            }
            "playtest" => {
                let usage = "playtest takes RUNS (1 to 100000), MOVES (1 to 10000), SEED, THREADS (1 or more) and \
                             the JSON file to write";
                let [runs, moves, seed, threads, out @ ..] = args else { return Err(fail(usage)) };
                let runs = runs.parse::<u32>().ok().filter(|n| (1..=MAX_PANEL_RUNS).contains(n));
                let moves = moves.parse::<u32>().ok().filter(|n| (1..=MAX_PANEL_MOVES).contains(n));
                let (seed, threads) = (seed.parse::<u64>().ok(), threads.parse::<usize>().ok().filter(|n| *n >= 1));
                let (Some(runs), Some(moves), Some(seed), Some(threads)) = (runs, moves, seed, threads) else {
                    return Err(fail(usage));
                };
                if out.is_empty() {
                    return Err(fail(usage));
                }
                steps.push(Step::Playtest { runs, moves, seed, threads, out: PathBuf::from(out.join(" ")) });
            }
            "overlay" => {
                let usage = "overlay takes none, burn, hurt or ends, and maybe an opacity from 0 to 1";
                let (layer, opacity) = match args {
                    [layer] => (*layer, None),
                    [layer, o] => match number(o).filter(|o| (0.0..=1.0).contains(o)) {
                        Some(o) => (*layer, Some(o)),
                        None => return Err(fail(usage)),
                    },
                    _ => return Err(fail(usage)),
                };
                let layer = match layer {
                    "none" => None,
                    "burn" => Some(Layer::Burn),
                    "hurt" => Some(Layer::Hurt),
                    "ends" => Some(Layer::Ends),
                    _ => return Err(fail(usage)),
                };
                steps.push(Step::Overlay(layer, opacity));
            }
            _ => {
                return Err(fail(
                    "unknown action: wait, cursor, press, release, drag, key, down, up, print, playtest, overlay",
                ));
            }
        }
    }
    Ok(steps)
}

/// The script being played.
#[derive(Resource, Debug)]
pub(super) struct ScriptPlayer {
    steps: Vec<Step>,
    next: usize,
    /// Frames still to wait.
    waiting: u32,
    /// The picture to save when the script is over.
    screenshot: Option<PathBuf>,
    /// Frames since the picture was asked for, once the script is over.
    ending: Option<u32>,
    /// A `playtest` is running: the script waits for it.
    awaiting_playtest: bool,
    /// A `playtest` failed: the view is exiting with an error.
    failed: bool,
}

impl ScriptPlayer {
    /// Play `steps`, then save the primary window to `screenshot` (if any) and exit.
    pub(super) fn new(steps: Vec<Step>, screenshot: Option<PathBuf>) -> Self {
        if let Some(path) = &screenshot {
            // A file left from an earlier run must not count as this run's picture.
            let _ = std::fs::remove_file(path);
        }
        Self { steps, next: 0, waiting: 0, screenshot, ending: None, awaiting_playtest: false, failed: false }
    }
}

/// After the input has been read for the frame: this frame's step(s) of the script.
pub(super) fn play_script(
    mut commands: Commands,
    mut player: ResMut<ScriptPlayer>,
    mut keys: ResMut<ButtonInput<KeyCode>>,
    mut buttons: ResMut<ButtonInput<MouseButton>>,
    mut cursor: ResMut<CursorTable>,
    ruler: Option<Res<Ruler>>,
    edits: Option<Res<EditHistory>>,
    tokens: Query<(&Name, &TablePosition), With<SceneOrder>>,
    mut playtest: ResMut<PlaytestPanel>,
    mut exit: MessageWriter<AppExit>,
) {
    if player.failed {
        return;
    }
    if player.waiting > 0 {
        player.waiting -= 1;
        return;
    }
    if player.awaiting_playtest {
        if playtest.script_waiting() {
            return;
        }
        player.awaiting_playtest = false;
        if let Some(e) = playtest.take_script_error() {
            eprintln!("playtest: {e}");
            player.failed = true;
            exit.write(AppExit::from_code(2));
            return;
        }
    }
    while let Some(step) = player.steps.get(player.next).cloned() {
        player.next += 1;
        match step {
            Step::Wait(frames) => {
                player.waiting = frames.saturating_sub(1);
                return;
            }
            Step::Cursor(at) => {
                cursor.0 = Some(at);
                return;
            }
            Step::Press => {
                buttons.press(MouseButton::Left);
                return;
            }
            Step::Release => {
                buttons.release(MouseButton::Left);
                return;
            }
            Step::KeysDown(down) => {
                for key in down {
                    keys.press(key);
                }
                return;
            }
            Step::KeysUp(up) => {
                for key in up {
                    keys.release(key);
                }
                return;
            }
            Step::Print(report) => {
                println!("{}", report_line(&report, ruler.as_deref(), edits.as_deref(), &tokens, &playtest));
            }
            Step::Playtest { runs, moves, seed, threads, out } => {
                playtest.ask_from_script(runs, moves, seed, threads, out);
                player.awaiting_playtest = true;
                return;
            }
            Step::Overlay(layer, opacity) => {
                playtest.set_overlay(layer, opacity);
                return;
            }
        }
    }
    // The script is over: the picture, if one is asked for, then exit.
    let Some(path) = player.screenshot.clone() else {
        exit.write(AppExit::Success);
        return;
    };
    let frames = match player.ending {
        None => {
            commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone()));
            0
        }
        Some(frames) => frames + 1,
    };
    player.ending = Some(frames);
    if frames >= SCREENSHOT_SETTLE_FRAMES && path.exists() {
        exit.write(AppExit::Success);
    } else if frames >= SCREENSHOT_MAX_FRAMES {
        error!("screenshot {} was not written", path.display());
        exit.write(AppExit::error());
    }
}

/// The line `print` writes.
fn report_line(
    report: &Report,
    ruler: Option<&Ruler>,
    edits: Option<&EditHistory>,
    tokens: &Query<(&Name, &TablePosition), With<SceneOrder>>,
    playtest: &PlaytestPanel,
) -> String {
    match report {
        Report::Ruler => {
            let reading = ruler.map_or("", |r| r.reading());
            format!("ruler: {}", if reading.is_empty() { "none" } else { reading })
        }
        Report::Undo => {
            let (undo, redo) = edits.map_or((0, 0), |e| (e.undo_steps(), e.redo_steps()));
            format!("undo: {undo}, redo: {redo}")
        }
        Report::Position(name) => match tokens.iter().find(|(n, _)| n.as_str() == name) {
            Some((_, at)) => format!("position {name}: ({:.2}, {:.2})", at.0.x, at.0.y),
            None => format!("position {name}: none"),
        },
        Report::Overlay(at) => playtest.pick_line(*at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_reads_as_frames_of_input() {
        let text = "wait 3\ncursor 1 2.5  # a comment\n\ndrag 0 0 3 4 2\nkey ctrl+shift+z\ndown shift\n\
                    print position Captain Hesse\nprint ruler\nprint undo\n";
        let steps = parse_script(text, "test").unwrap();
        let combo = vec![KeyCode::ControlLeft, KeyCode::ShiftLeft, KeyCode::KeyZ];
        assert_eq!(
            steps,
            vec![
                Step::Wait(3),
                Step::Cursor(Vec2::new(1.0, 2.5)),
                Step::Cursor(Vec2::ZERO),
                Step::Press,
                Step::Cursor(Vec2::new(1.5, 2.0)),
                Step::Cursor(Vec2::new(3.0, 4.0)),
                Step::Release,
                Step::KeysDown(combo.clone()),
                Step::KeysUp(combo),
                Step::KeysDown(vec![KeyCode::ShiftLeft]),
                Step::Print(Report::Position("Captain Hesse".into())),
                Step::Print(Report::Ruler),
                Step::Print(Report::Undo),
            ]
        );
        assert_eq!(key_code("M"), Some(KeyCode::KeyM));
        assert_eq!(key_code("7"), Some(KeyCode::Digit7));
        assert_eq!(key_code("esc"), Some(KeyCode::Escape));
    }

    #[test]
    fn a_script_asks_for_a_play_test_its_overlay_and_a_cell_s_numbers() {
        let text = "playtest 200 20 5 2 /tmp/gui out.json\noverlay burn 1\noverlay none\nprint overlay 23.5 33\n";
        let steps = parse_script(text, "test").unwrap();
        assert_eq!(
            steps,
            vec![
                Step::Playtest { runs: 200, moves: 20, seed: 5, threads: 2, out: PathBuf::from("/tmp/gui out.json") },
                Step::Overlay(Some(Layer::Burn), Some(1.0)),
                Step::Overlay(None, None),
                Step::Print(Report::Overlay(Vec2::new(23.5, 33.0))),
            ]
        );
    }

    #[test]
    fn a_bad_script_line_is_named() {
        for (text, line) in [
            ("wait 2\njump 1 2", "test:2:"),
            ("cursor 1", "test:1:"),
            ("cursor 1 x", "test:1:"),
            ("wait 0", "test:1:"),
            ("wait 1\n\nkey ctrl+nokey", "test:3:"),
            ("drag 1 2 3", "test:1:"),
            ("drag 1 2 3 4 0", "test:1:"),
            ("press now", "test:1:"),
            ("print position", "test:1:"),
            ("print overlay 1", "test:1:"),
            ("playtest 200 20 5 2", "test:1:"),
            ("wait 1\nplaytest 0 20 5 2 out.json", "test:2:"),
            ("playtest 200 10001 5 2 out.json", "test:1:"),
            ("playtest 200 20 -5 2 out.json", "test:1:"),
            ("playtest 200 20 5 0 out.json", "test:1:"),
            ("overlay fire", "test:1:"),
            ("overlay burn 1.5", "test:1:"),
            ("overlay", "test:1:"),
        ] {
            let err = parse_script(text, "test").unwrap_err();
            assert!(err.starts_with(line), "{text:?}: {err}");
        }
    }
}
