//! The GM's panels: scene menu, clock and controls, dice log, inspector, palette, projector
//! and calibration, help. Everything here is GM-only (the projector shows no egui).

use super::camera::Projector;
use super::editing::{Edit, EditRequest, Selected, Tool};
use super::files::{FileAction, FileRequest};
use super::history::{Playback, StepRequest};
use super::settings::ViewSettings;
use crate::document::{Document, EditHistory, History, Reveal, entity_ron, event_revealed};
use crate::rules::house_rules::{event_house_rule_note, house_rule_note};
use crate::sim::world::snapshot_scene;
use crate::sim::{EventLog, MoveClock, SimDice};
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PanelState>();
    app.add_systems(
        EguiPrimaryContextPass,
        (menu_bar, controls, dice_log, inspector, dialogs, help).chain().run_if(super::is_gm_view),
    );
    app.add_systems(Update, shortcuts.run_if(super::is_gm_view).run_if(not(egui_wants_any_keyboard_input)));
}

/// What the panels hold between frames.
#[derive(Resource, Debug, Default)]
pub struct PanelState {
    pub show_help: bool,
    /// The roster of figures' injuries is open.
    pub show_roster: bool,
    /// The temptations panel (sites, who is inside, figures' qualities) is open.
    pub show_temptations: bool,
    /// The Decide panel (a decision diced for a figure) is open.
    pub show_decide: bool,
    /// The prisoners panel (escorts, bonds, runaways, berserkers, fatigue) is open.
    pub show_prisoners: bool,
    /// The Magic panel (magicians' MP, curses, mesmerisms, occult beings) is open.
    pub show_magic: bool,
    /// The Fog panel (the fog of war on or off, the GM's overlay, reveal and hide, reset) is open.
    pub show_fog: bool,
    /// The Trails panel (weather, trackers and their readings, trails laid) is open.
    pub show_trails: bool,
    /// The Obstacles panel (stake lines, ropes, grapnels, glass walls, planks, vehicles) is open.
    pub show_obstacles: bool,
    /// The OSR panel (turn, wandering checks, the party's pace, the encounter and its combat) is open.
    pub show_osr: bool,
    /// The Record window (the next moves into an animated GIF, APNG or video, record.rs) is open.
    pub show_record: bool,
    /// The Play-test window (many runs of the table, their report and overlays, playtest_panel.rs) is open.
    pub show_playtest: bool,
    pub show_calibration: bool,
    /// Path typed into the open / save-as dialog.
    path_input: String,
    path_dialog: Option<PathDialog>,
    new_size: (f32, f32),
    show_new: bool,
    log_system: String,
    log_subject: String,
    /// The dice log's display lines, and the (log length, system, entity) they were built for.
    log_lines: Vec<LogText>,
    log_key: Option<(usize, Unrevealed, String, String)>,
    /// The inspector's RON text for the selected entity, and whose it is.
    ron_text: String,
    ron_for: Option<String>,
    /// The inspector's picture field for the selected entity, read with its RON text.
    picture_text: String,
    rewind_target: u32,
    seed_input: String,
}

impl PanelState {
    /// Read the selected entity's text again: the scene changed under the inspector (an undo).
    pub fn refresh_inspector(&mut self) {
        self.ron_for = None;
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PathDialog {
    Open,
    SaveAs,
}

/// Keyboard shortcuts (listed in the help overlay).
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Space", "step a move (or show the rest of a move being stepped by rounds)"),
    ("R", "step a round: resolve the next move and show its first round, then the next"),
    ("P", "play / pause"),
    ("Backspace", "rewind one move"),
    ("Ctrl+S", "save"),
    ("Ctrl+O", "open"),
    ("Ctrl+R", "reload from disk"),
    ("Ctrl+N", "new scene"),
    ("F1 or ?", "this help"),
    ("Right/middle drag, arrows", "pan"),
    ("Wheel, + and -", "zoom"),
    ("Home", "fit the table"),
    ("Click", "select; drag a token to move it"),
    ("G", "draw a path for the selected figure (click waypoints; Enter ends)"),
    ("Delete", "remove the selected entity"),
    ("Esc / Enter", "back to select"),
    ("Ctrl+Z", "undo the last edit (moves have their own rewind)"),
    ("Ctrl+Shift+Z or Ctrl+Y", "redo"),
    ("M", "ruler: drag to measure, Shift-drag for a radius; M again puts it down"),
    ("F2", "projector window on / off"),
    ("Shift+arrows", "move the projected area 1\""),
    ("B", "blackout the projector"),
];

fn shortcuts(
    keys: Res<ButtonInput<KeyCode>>,
    mut request: ResMut<StepRequest>,
    mut playback: ResMut<Playback>,
    mut files: ResMut<FileRequest>,
    mut panels: ResMut<PanelState>,
    mut projector: ResMut<Projector>,
    clock: Res<MoveClock>,
) {
    let ctrl = keys.pressed(KeyCode::ControlLeft) || keys.pressed(KeyCode::ControlRight);
    if keys.just_pressed(KeyCode::Space) {
        request.moves += 1;
    }
    if !ctrl && keys.just_pressed(KeyCode::KeyR) {
        request.rounds += 1;
    }
    if keys.just_pressed(KeyCode::KeyP) {
        playback.playing = !playback.playing;
    }
    if keys.just_pressed(KeyCode::Backspace) && clock.move_number > 0 {
        request.rewind_to_move = Some(clock.move_number);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        files.action = Some(FileAction::Save);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyR) {
        files.action = Some(FileAction::Reload);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyO) {
        panels.path_dialog = Some(PathDialog::Open);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyN) {
        panels.show_new = true;
    }
    if keys.just_pressed(KeyCode::F1) || keys.just_pressed(KeyCode::Slash) {
        panels.show_help = !panels.show_help;
    }
    if keys.just_pressed(KeyCode::F2) {
        projector.open = !projector.open;
    }
}

fn menu_bar(
    mut contexts: EguiContexts,
    mut files: ResMut<FileRequest>,
    file: Res<Document>,
    mut panels: ResMut<PanelState>,
    mut projector: ResMut<Projector>,
    edits: Res<EditHistory>,
    mut undo: ResMut<super::undo::UndoRequest>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("menu").title_bar(false).anchor(egui::Align2::LEFT_TOP, [8.0, 8.0]).resizable(false).show(
        ctx,
        |ui| {
            ui.horizontal(|ui| {
                ui.menu_button("Scene", |ui| {
                    if ui.button("New…  Ctrl+N").clicked() {
                        panels.show_new = true;
                        ui.close();
                    }
                    if ui.button("Open…  Ctrl+O").clicked() {
                        panels.path_dialog = Some(PathDialog::Open);
                        ui.close();
                    }
                    if ui.button("Save  Ctrl+S").clicked() {
                        files.action = Some(FileAction::Save);
                        ui.close();
                    }
                    if ui.button("Save as…").clicked() {
                        panels.path_input = file.save_path().map(|p| p.display().to_string()).unwrap_or_default();
                        panels.path_dialog = Some(PathDialog::SaveAs);
                        ui.close();
                    }
                    if ui.button("Reload  Ctrl+R").clicked() {
                        files.action = Some(FileAction::Reload);
                        ui.close();
                    }
                    if ui.button("Quit").clicked() {
                        files.action = Some(FileAction::Quit);
                        ui.close();
                    }
                });
                ui.menu_button("Projector", |ui| {
                    let label = if projector.open { "Close projector window  F2" } else { "Open projector window  F2" };
                    if ui.button(label).clicked() {
                        projector.open = !projector.open;
                        ui.close();
                    }
                    ui.checkbox(&mut projector.blackout, "Blackout  B");
                    if ui.button("Calibrate…").clicked() {
                        panels.show_calibration = true;
                        ui.close();
                    }
                });
                // Undo and redo of edits, with the steps there are; the moves have their own rewind.
                let (undo_steps, redo_steps) = (edits.undo_steps(), edits.redo_steps());
                let undo_button = egui::Button::new(format!("Undo ({undo_steps})"));
                if ui
                    .add_enabled(undo_steps > 0, undo_button)
                    .on_hover_text("Ctrl+Z: take back the last edit (moves are rewound, not undone)")
                    .clicked()
                {
                    undo.undo += 1;
                }
                let redo_button = egui::Button::new(format!("Redo ({redo_steps})"));
                if ui
                    .add_enabled(redo_steps > 0, redo_button)
                    .on_hover_text("Ctrl+Shift+Z or Ctrl+Y: make the edit taken back again")
                    .clicked()
                {
                    undo.redo += 1;
                }
                if ui.button("Roster").on_hover_text("Every figure's injuries, and resting days").clicked() {
                    panels.show_roster = !panels.show_roster;
                }
                if ui
                    .button("Temptations")
                    .on_hover_text(
                        "Temptation sites, who is inside, and every figure's qualities, weaknesses and money",
                    )
                    .clicked()
                {
                    panels.show_temptations = !panels.show_temptations;
                }
                if ui.button("Decide").on_hover_text("Dice a decision for a figure between its options").clicked() {
                    panels.show_decide = !panels.show_decide;
                }
                if ui
                    .button("Prisoners")
                    .on_hover_text("Escorts and their security, bonds, runaways and chases, berserkers, fatigue")
                    .clicked()
                {
                    panels.show_prisoners = !panels.show_prisoners;
                }
                if ui
                    .button("Magic")
                    .on_hover_text("Magicians' Magic Power, curses, mesmerisms, occult beings")
                    .clicked()
                {
                    panels.show_magic = !panels.show_magic;
                }
                if ui
                    .button("Fog")
                    .on_hover_text("The fog of war: on or off, on the GM view, reveal or hide by hand, reset")
                    .clicked()
                {
                    panels.show_fog = !panels.show_fog;
                }
                if ui
                    .button("Trails")
                    .on_hover_text("The weather, each tracker's quarry and reading of the trail, the trails laid")
                    .clicked()
                {
                    panels.show_trails = !panels.show_trails;
                }
                if ui
                    .button("Obstacles")
                    .on_hover_text(
                        "Stake lines and their work, ropes and their load, grapnels, glass-topped walls and their \
                         climbers, planks, vehicles",
                    )
                    .clicked()
                {
                    panels.show_obstacles = !panels.show_obstacles;
                }
                if ui
                    .button("OSR")
                    .on_hover_text(
                        "OSR turns and wandering checks, the party's pace and loads, the encounter: surprise, \
                         reaction, the combat order, morale, the GM's hits",
                    )
                    .clicked()
                {
                    panels.show_osr = !panels.show_osr;
                }
                if ui
                    .button("Record")
                    .on_hover_text("Record the next moves, round by round, as an animated GIF or PNG, or a video")
                    .clicked()
                {
                    panels.show_record = !panels.show_record;
                }
                if ui
                    .button("Play-test")
                    .on_hover_text(
                        "Run the table many times in the background: the report, its JSON, and where things \
                         happened drawn on the table",
                    )
                    .clicked()
                {
                    panels.show_playtest = !panels.show_playtest;
                }
                if ui.button("Help  F1").clicked() {
                    panels.show_help = !panels.show_help;
                }
                let name =
                    file.path.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "(unsaved scene)".into());
                ui.label(format!("{name}{}", if file.dirty { "  •  unsaved changes" } else { "" }));
            });
        },
    );
    Ok(())
}

/// Time of day is not in the scene: show time elapsed (a move is about 3 minutes).
fn elapsed(moves: u32) -> String {
    let minutes = moves * 3;
    format!("{}h {:02}m", minutes / 60, minutes % 60)
}

fn controls(
    mut contexts: EguiContexts,
    clock: Res<MoveClock>,
    dice: Res<SimDice>,
    history: Res<History>,
    reveal: Res<Reveal>,
    mut request: ResMut<StepRequest>,
    mut playback: ResMut<Playback>,
    mut panels: ResMut<PanelState>,
    mut tool: ResMut<Tool>,
    osr: Option<Res<crate::sim::encounters::OsrBook>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let shown_round = if reveal.mid_move() {
        format!("round {} of {}", reveal.revealed_rounds(clock.rounds_per_move), clock.rounds_per_move)
    } else {
        format!("{} rounds a move", clock.rounds_per_move)
    };
    egui::Window::new("Clock").anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0]).default_width(420.0).resizable(false).show(
        ctx,
        |ui| {
            // Under the OSR rules a step is a turn exploring, a round in combat: the OSR clock.
            let line = match osr.as_deref().filter(|b| b.is_osr()) {
                Some(book) => super::osr::clock_text(book, clock.move_number, dice.seed),
                None => format!(
                    "Move {}  ·  {shown_round}  ·  {} elapsed  ·  seed {}",
                    clock.move_number,
                    elapsed(clock.move_number),
                    dice.seed
                ),
            };
            ui.label(line);
            ui.horizontal(|ui| {
                if ui.button("Step round  [R]").clicked() {
                    request.rounds += 1;
                }
                if ui.button("Step move  [Space]").clicked() {
                    request.moves += 1;
                }
                let label = if playback.playing { "Pause  [P]" } else { "Play  [P]" };
                if ui.button(label).clicked() {
                    playback.playing = !playback.playing;
                }
                ui.add(egui::Slider::new(&mut playback.moves_per_second, 0.1..=10.0).text("moves/s").logarithmic(true));
                ui.checkbox(&mut playback.by_rounds, "by rounds")
                    .on_hover_text("Play round by round: the same pace, each round shown in turn");
            });
            ui.horizontal(|ui| {
                let first = history.first_move().unwrap_or(clock.move_number + 1);
                if clock.move_number >= first {
                    panels.rewind_target = panels.rewind_target.clamp(first, clock.move_number);
                    ui.add(egui::Slider::new(&mut panels.rewind_target, first..=clock.move_number).text("before move"));
                    if ui.button("Rewind").clicked() {
                        request.rewind_to_move = Some(panels.rewind_target);
                    }
                } else {
                    ui.label("Rewind: no moves stepped yet");
                }
            });
            ui.horizontal(|ui| {
                ui.label("Seed");
                ui.add(egui::TextEdit::singleline(&mut panels.seed_input).desired_width(120.0));
                if ui.button("Reseed").clicked()
                    && let Ok(seed) = panels.seed_input.trim().parse::<u64>()
                {
                    request.reseed = Some(seed);
                }
            });
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                ui.label("Palette:");
                for (t, label) in Tool::PALETTE {
                    ui.selectable_value(&mut *tool, t, label);
                }
            });
        },
    );
    Ok(())
}

/// How a dice-log line is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LogLine {
    Event,
    Roll,
    /// An MD roll: the GM's eyes only.
    Secret,
}

#[derive(Debug, Clone)]
struct LogText {
    text: String,
    kind: LogLine,
    /// For a roll a house rule modified: the hover note naming each house rule (the line is
    /// marked "HR" and drawn in [`HOUSE_RULE_COLOUR`]).
    house_rules: Option<String>,
}

/// The colour of a dice-log roll that a house rule modified (and of house-rule lines on hover).
pub const HOUSE_RULE_COLOUR: egui::Color32 = egui::Color32::from_rgb(255, 190, 80);

/// Most lines the dice log keeps for display (newest first).
const MAX_LOG_LINES: usize = 5_000;

/// Events of the last move that happened in rounds not yet shown: (move, last round shown).
pub type Unrevealed = Option<(u32, u8)>;

/// The log as display lines, newest event first, filtered by system and entity. While a move
/// is shown round by round, its events of later rounds are held back; events of the whole move
/// (movement, herds, sleepers) show with its first round.
fn log_lines(log: &EventLog, system: &str, subject: &str, unrevealed: Unrevealed) -> Vec<LogText> {
    let subject = subject.to_lowercase();
    let mut out = Vec::new();
    let shown = log
        .events
        .iter()
        .rev()
        .filter(|e| event_revealed(e, unrevealed))
        .filter(|e| system.is_empty() || e.system == system)
        .filter(|e| subject.is_empty() || e.subject.to_lowercase().contains(&subject));
    for e in shown {
        if out.len() >= MAX_LOG_LINES {
            break;
        }
        let round = e.round.map(|r| format!(" r{r}")).unwrap_or_default();
        // An event a house-rule setting decided (its `house_rules`) is marked "HR" too.
        let house_rules = event_house_rule_note(std::iter::empty(), e.house_rule_paths());
        let mark = if house_rules.is_some() { "HR " } else { "" };
        out.push(LogText {
            text: format!(
                "{mark}m{}{} {} · {} · {} -> {}",
                e.move_number, round, e.system, e.subject, e.event, e.outcome
            ),
            kind: LogLine::Event,
            house_rules,
        });
        for r in &e.rolls {
            let faces: Vec<String> = r.faces.iter().map(|f| f.to_string()).collect();
            let mods: Vec<String> = r.modifiers.iter().map(|m| format!("{:+} {}", m.value, m.reason)).collect();
            let target = r.target.map(|t| format!(" vs {t}")).unwrap_or_default();
            let house_rules = house_rule_note(r.modifiers.iter().map(|m| &*m.reason));
            // "HR" takes the place of the indent, so marked and unmarked rolls line up.
            let indent = if house_rules.is_some() { "HR " } else { "   " };
            let text = format!("{indent}{} [{}] {} = {}{}", r.dice, faces.join(","), mods.join(", "), r.total, target);
            if r.secret {
                out.push(LogText { text: format!("{text}   (MD: secret)"), kind: LogLine::Secret, house_rules });
            } else {
                out.push(LogText { text, kind: LogLine::Roll, house_rules });
            }
        }
    }
    out
}

fn dice_log(
    mut contexts: EguiContexts,
    log: Res<EventLog>,
    clock: Res<MoveClock>,
    reveal: Res<Reveal>,
    mut panels: ResMut<PanelState>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let unrevealed = reveal.unrevealed(clock.move_number);
    egui::Window::new("Dice log")
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 200.0])
        .default_width(420.0)
        .default_height(420.0)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label("System");
                egui::ComboBox::from_id_salt("log-system")
                    .selected_text(if panels.log_system.is_empty() { "all" } else { &panels.log_system })
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut panels.log_system, String::new(), "all");
                        for s in [
                            "movement",
                            "traps",
                            "fire",
                            "herds",
                            "sleepers",
                            "noise",
                            "temptations",
                            "decisions",
                            "tracking",
                            "bookkeeping",
                        ] {
                            ui.selectable_value(&mut panels.log_system, s.to_string(), s);
                        }
                    });
                ui.label("Entity");
                ui.add(egui::TextEdit::singleline(&mut panels.log_subject).desired_width(120.0));
            });
            // Lines are rebuilt only when the log or the filter changes, and only the rows in
            // view are laid out: a long run's log costs nothing per frame.
            let key = (log.events.len(), unrevealed, panels.log_system.clone(), panels.log_subject.clone());
            if panels.log_key.as_ref() != Some(&key) {
                panels.log_lines = log_lines(&log, &panels.log_system, &panels.log_subject, unrevealed);
                panels.log_key = Some(key);
            }
            let row_height = ui.text_style_height(&egui::TextStyle::Body);
            let lines = &panels.log_lines;
            egui::ScrollArea::both().auto_shrink([false, false]).show_rows(ui, row_height, lines.len(), |ui, rows| {
                for line in &lines[rows] {
                    let text = egui::RichText::new(&line.text);
                    let text = match line.kind {
                        LogLine::Event if line.house_rules.is_some() => text.strong().color(HOUSE_RULE_COLOUR),
                        LogLine::Event => text.strong(),
                        LogLine::Roll if line.house_rules.is_some() => text.color(HOUSE_RULE_COLOUR),
                        LogLine::Roll => text,
                        LogLine::Secret => text.color(egui::Color32::from_rgb(220, 170, 255)),
                    };
                    // One line per row (no wrapping), so every row has the same height.
                    let label = ui.add(egui::Label::new(text).wrap_mode(egui::TextWrapMode::Extend));
                    if let Some(note) = &line.house_rules {
                        label.on_hover_text(note.as_str());
                    }
                }
            });
        });
    Ok(())
}

fn inspector(world: &mut World, contexts: &mut bevy::ecs::system::SystemState<EguiContexts>) {
    let selected = world.resource::<Selected>().0.clone();
    let Some(name) = selected else { return };
    // The entity's RON text, refreshed when the selection changes.
    let needs_text = world.resource::<PanelState>().ron_for.as_deref() != Some(name.as_str());
    let picture = super::pictures::picture_setting(world, &name);
    if needs_text {
        let text = snapshot_scene(world).and_then(|s| entity_ron(&s, &name)).unwrap_or_default();
        let mut panels = world.resource_mut::<PanelState>();
        panels.ron_text = text;
        panels.ron_for = Some(name.clone());
        panels.picture_text = picture.clone().flatten().unwrap_or_default();
    }
    let show_players = super::fog::show_players_setting(world, &name);
    let Ok(mut egui) = contexts.get_mut(world) else { return };
    let Ok(ctx) = egui.ctx_mut() else { return };
    let ctx = ctx.clone();
    let mut edits: Vec<Edit> = Vec::new();
    let mut close = false;
    {
        let mut panels = world.resource_mut::<PanelState>();
        egui::Window::new(format!("Inspector: {name}"))
            .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -8.0])
            .default_width(380.0)
            .show(&ctx, |ui| {
                if let Some(setting) = show_players {
                    let before = edits.len();
                    super::fog::show_players_choice(ui, &name, setting, &mut edits);
                    if edits.len() > before {
                        // The text shows the new setting once the edit is made.
                        panels.ron_for = None;
                    }
                }
                if let Some(current) = &picture {
                    ui.horizontal(|ui| {
                        ui.label("Picture:").on_hover_text(
                            "A PNG or WebP file beside the scene file or under assets/, drawn on the token. \
                             Empty: none (a figure or beast shows the default face). Saved with the scene.",
                        );
                        let field = ui.add(
                            egui::TextEdit::singleline(&mut panels.picture_text).desired_width(220.0).hint_text("none"),
                        );
                        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                        if (ui.button("Set").clicked() || entered)
                            && let Some(edit) =
                                super::pictures::picture_edit(&name, current.as_deref(), &panels.picture_text)
                        {
                            edits.push(edit);
                            // The text and the field show the new picture once the edit is made.
                            panels.ron_for = None;
                        }
                    });
                }
                ui.label("Edit the entity as scene text, then Apply (checked like a scene file).");
                egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
                    ui.add(egui::TextEdit::multiline(&mut panels.ron_text).code_editor().desired_width(f32::INFINITY));
                });
                ui.horizontal(|ui| {
                    if ui.button("Apply").clicked() {
                        edits.push(Edit::ReplaceRon(name.clone(), panels.ron_text.clone()));
                        panels.ron_for = None;
                    }
                    if ui.button("Revert").clicked() {
                        panels.ron_for = None;
                    }
                    if ui.button("Clear path").clicked() {
                        edits.push(Edit::ClearPath(name.clone()));
                        panels.ron_for = None;
                    }
                    if ui.button("Delete").clicked() {
                        edits.push(Edit::Delete(name.clone()));
                        close = true;
                    }
                });
            });
    }
    world.resource_mut::<EditRequest>().0.extend(edits);
    if close {
        world.resource_mut::<Selected>().0 = None;
    }
}

fn dialogs(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    mut files: ResMut<FileRequest>,
    mut file: ResMut<Document>,
    mut settings: ResMut<ViewSettings>,
    mut projector: ResMut<Projector>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(action) = files.awaiting_confirmation.clone() {
        egui::Window::new("Unsaved changes")
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label("The scene has changes that are not saved. What should happen to them?");
                ui.horizontal(|ui| {
                    if ui.button("Save first").clicked() {
                        files.awaiting_confirmation = None;
                        files.action = Some(FileAction::Save);
                        // The original action waits for the GM to ask again once saved.
                    }
                    if ui.button("Discard them").clicked() {
                        files.awaiting_confirmation = None;
                        files.action = Some(action.clone());
                        files.confirmed = true;
                    }
                    if ui.button("Cancel").clicked() {
                        files.awaiting_confirmation = None;
                    }
                });
            });
    }
    if file.changed_on_disk {
        egui::Window::new("Scene file changed on disk")
            .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label("Another program changed the scene file.");
                ui.horizontal(|ui| {
                    if ui.button("Reload it").clicked() {
                        file.changed_on_disk = false;
                        files.action = Some(FileAction::Reload);
                    }
                    if ui.button("Keep mine").clicked() {
                        file.keep_over_disk();
                    }
                });
            });
    }
    if let Some(message) = file.message.clone() {
        egui::Window::new("Problem").anchor(egui::Align2::CENTER_BOTTOM, [0.0, -20.0]).collapsible(false).show(
            ctx,
            |ui| {
                ui.label(message);
                if ui.button("OK").clicked() {
                    file.message = None;
                }
            },
        );
    }
    if let Some(kind) = panels.path_dialog {
        let title = if kind == PathDialog::Open { "Open scene" } else { "Save scene as" };
        egui::Window::new(title).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).collapsible(false).show(ctx, |ui| {
            ui.label(if kind == PathDialog::Open {
                "Path of the scene file (.ron), or of a map (.dd2vtt, .uvtt, .df2vtt):"
            } else {
                "Path of the scene file (.ron); a map's image is written beside it:"
            });
            ui.add(egui::TextEdit::singleline(&mut panels.path_input).desired_width(420.0));
            ui.horizontal(|ui| {
                if ui.button(if kind == PathDialog::Open { "Open" } else { "Save" }).clicked()
                    && !panels.path_input.trim().is_empty()
                {
                    let path = std::path::PathBuf::from(panels.path_input.trim());
                    files.action =
                        Some(if kind == PathDialog::Open { FileAction::Open(path) } else { FileAction::SaveAs(path) });
                    panels.path_dialog = None;
                }
                if ui.button("Cancel").clicked() {
                    panels.path_dialog = None;
                }
            });
        });
    }
    if panels.show_new {
        if panels.new_size.0 <= 0.0 {
            panels.new_size = (72.0, 48.0);
        }
        egui::Window::new("New scene").anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).collapsible(false).show(
            ctx,
            |ui| {
                ui.add(egui::Slider::new(&mut panels.new_size.0, 1.0..=1000.0).text("width (inches)"));
                ui.add(egui::Slider::new(&mut panels.new_size.1, 1.0..=1000.0).text("height (inches)"));
                ui.horizontal(|ui| {
                    if ui.button("Create").clicked() {
                        files.action = Some(FileAction::New {
                            width: panels.new_size.0.round(),
                            height: panels.new_size.1.round(),
                        });
                        panels.show_new = false;
                    }
                    if ui.button("Cancel").clicked() {
                        panels.show_new = false;
                    }
                });
            },
        );
    }
    if panels.show_calibration {
        let mut open = true;
        egui::Window::new("Projector calibration").open(&mut open).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
            ui.label("So that one grid square is one real inch: measure the projected picture's width on the table, or turn on the ruler and adjust until its 10 marks match 10 inches of a real ruler.");
            ui.add(egui::Slider::new(&mut settings.projector_width_inches, 5.0..=200.0).text("picture width (inches)"));
            ui.checkbox(&mut projector.ruler, "Show a 10\" ruler on the projector");
            ui.checkbox(&mut settings.projector_fullscreen, "Borderless full screen (reopen the window to apply)");
            ui.add(egui::Slider::new(&mut settings.projector_monitor, 0..=8).text("monitor"));
            if ui.button("Save settings").clicked() {
                file.message = settings.save().err();
            }
        });
        panels.show_calibration = open;
    }
    Ok(())
}

fn help(mut contexts: EguiContexts, mut panels: ResMut<PanelState>) -> Result {
    if !panels.show_help {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Keyboard shortcuts").open(&mut open).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(
        ctx,
        |ui| {
            egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                for (key, what) in SHORTCUTS {
                    ui.label(egui::RichText::new(*key).monospace());
                    ui.label(*what);
                    ui.end_row();
                }
            });
        },
    );
    panels.show_help = open;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::LogEvent;

    fn event(move_number: u32, round: Option<u8>, system: &'static str) -> LogEvent {
        let mut e = LogEvent::new(system, "happened", "someone");
        e.move_number = move_number;
        e.round = round;
        e
    }

    #[test]
    fn a_move_shown_round_by_round_holds_back_its_later_rounds() {
        let log = EventLog {
            events: vec![
                event(1, Some(2), "fire"),
                event(2, None, "movement"),
                event(2, Some(1), "fire"),
                event(2, Some(2), "fire"),
                event(2, None, "herds"),
            ],
        };
        let lines = |unrevealed| log_lines(&log, "", "", unrevealed).into_iter().map(|l| l.text).collect::<Vec<_>>();
        let all = lines(None);
        assert_eq!(all.len(), 5);
        let first_round = lines(Some((2, 1)));
        assert_eq!(first_round.len(), 4);
        assert!(!first_round.iter().any(|t| t.starts_with("m2 r2")), "{first_round:?}");
        assert!(first_round.iter().any(|t| t.starts_with("m1 r2")), "earlier moves are shown whole");
        assert!(first_round.iter().any(|t| t.starts_with("m2 herds")), "events of the whole move show at once");
    }

    #[test]
    fn rolls_a_house_rule_modified_are_marked() {
        use crate::rules::dice::{Dice, Roll};
        let mut e = event(1, Some(1), "traps");
        e.rolls.push(Roll::from_faces(Dice::D10, vec![5]).modifier("clothed (house rule)", 1).modifier("light", 0));
        e.rolls.push(Roll::from_faces(Dice::D6, vec![3]).modifier("cautious", 1));
        let log = EventLog { events: vec![e] };
        let lines = log_lines(&log, "", "", None);
        assert_eq!(lines.len(), 3);
        assert!(lines[1].text.starts_with("HR D10 [5] +1 clothed (house rule) = 6"), "{}", lines[1].text);
        let note = lines[1].house_rules.as_deref().expect("a house-rule note");
        assert!(note.contains("see docs/house-rules.md"), "{note}");
        assert!(note.contains("traps.morval.clothed_agility"), "{note}");
        assert!(lines[2].text.starts_with("   D6 [3]"), "{}", lines[2].text);
        assert!(lines[2].house_rules.is_none());
        assert!(lines[0].house_rules.is_none());
    }

    #[test]
    fn events_a_house_rule_decided_are_marked() {
        let e = event(1, Some(1), "fire").house_rule("fire.person_rolls");
        let log = EventLog { events: vec![e, event(1, Some(1), "fire")] };
        let lines = log_lines(&log, "", "", None);
        assert_eq!(lines.len(), 2);
        // Newest first: the unmarked event, then the marked one.
        assert!(lines[0].house_rules.is_none());
        assert!(lines[1].text.starts_with("HR m1 r1"), "{}", lines[1].text);
        let note = lines[1].house_rules.as_deref().expect("a house-rule note");
        assert!(note.contains("house rule: fire.person_rolls"), "{note}");
    }
}
