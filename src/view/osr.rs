//! OSR exploration and encounters in the view (issue 24, docs/osr.md "In the GM view"). Under
//! `rules_family: osr` the Clock reads OSR turns and rounds (`clock_text`). On the GM layer:
//! every point of entry a wandering monster may come in by (doors, corridor ends, table edges,
//! portals; those the GM marks illogical crossed out), the arriving encounter's entry ringed, and
//! a ring on each monster of the encounter in progress by where it stands (a cross when dead).
//! The OSR panel (menu, or `open --osr`) shows the turn, the next wandering-monster check, the
//! party's pace with each member's load, and the encounter in progress: its monsters and the
//! party's figures, the surprise, the reaction with its possible actions, the combat order's
//! phases with the current one marked, the round's initiative, and morale. The GM orders hits
//! and the end of the combat for the next round through `document::order_combat` (logged, and
//! undone by rewinding). This module draws nothing on the public layer: the monsters are
//! hidden from the players by the fog of war's general rule (fog.rs: with the fog on, figures
//! of other sides than the players' show only where the party sees them).

use super::layers::GmGizmos;
use super::panels::PanelState;
use super::playhead::{PlayheadSystems, Shown};
use super::{PX_PER_INCH, SceneGeneration, to_world};
use crate::rules::osr::{
    CombatEnd, CombatPhase, DEAD_PERCENT, Encumbrance, EncumbranceRow, EntryKind, OsrSettings, OsrSpeed, PartyPace,
    Reaction, SpeedLimit, party_pace,
};
use crate::scene::osr::{CombatOrderEntry, EncounterState, MAX_HP, OsrSheet, OsrStanding};
use crate::sim::encounters::{OsrBook, entry_candidates, member_encumbrance, round_played_next};
use crate::sim::sight::PartySight;
use crate::sim::world::{Figure, SceneOrder, TablePosition, TableSize, Walls};
use crate::sim::{EventLog, LogEvent, MoveClock};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CombatControls>().init_resource::<LogDigest>();
    // Entry points and the monsters' rings are the GM's: GM layer only.
    app.add_systems(Update, (update_digest, draw_entries_and_monsters).chain().after(PlayheadSystems));
    app.add_systems(EguiPrimaryContextPass, osr_panel.run_if(super::is_gm_view));
    app.add_systems(Update, apply_combat_order.run_if(super::is_gm_view));
}

/// Points of entry: a sea green, apart from the traps' amber and the beings' violet.
const ENTRY_COLOUR: Color = Color::srgb(0.3, 0.85, 0.7);
/// An entry the GM marks illogical: grey.
const ILLOGICAL_COLOUR: Color = Color::srgb(0.55, 0.55, 0.55);
/// The arriving encounter's entry: a warning orange.
const ARRIVAL_COLOUR: Color = Color::srgb(1.0, 0.5, 0.1);
/// A monster fighting: red.
const FIGHTING_COLOUR: Color = Color::srgb(0.95, 0.2, 0.2);
/// A monster that fled: yellow.
const FLED_COLOUR: Color = Color::srgb(1.0, 0.9, 0.2);
/// A monster that surrendered: white.
const SURRENDERED_COLOUR: Color = Color::srgb(0.95, 0.95, 0.95);
/// A dead monster's cross: dark grey.
const DEAD_COLOUR: Color = Color::srgb(0.4, 0.4, 0.4);
/// The combat phase now current, in the panel.
const CURRENT_PHASE_COLOUR: egui::Color32 = egui::Color32::from_rgb(255, 170, 60);

// ---- what the log says ----

/// The latest arrival of wandering monsters in the log (`monsters_arrive`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Arrival {
    /// The encounter's number (1 is the scene's first).
    encounter: u32,
    /// The table row that came.
    row: String,
    /// The point of entry's name; none when no route was logical.
    entry: Option<String>,
    /// The step (the log's move) it came in.
    move_number: u32,
}

/// The latest initiative rolled in the log (`combat_phase` with dice): its encounter, round,
/// and the dice's totals in the order rolled (the party's, the monsters', then any tie-breaks).
#[derive(Debug, Clone, PartialEq, Eq)]
struct RoundInitiative {
    encounter: u32,
    round: u32,
    dice: Vec<i32>,
}

/// What the OSR view reads from the log, rebuilt when the log changes or the world is rebuilt.
#[derive(Resource, Debug, Default)]
struct LogDigest {
    /// The (log length, scene generation) it was built for.
    key: Option<(usize, u32)>,
    arrival: Option<Arrival>,
    initiative: Option<RoundInitiative>,
}

fn field_u32(e: &LogEvent, key: &str) -> Option<u32> {
    e.fields.get(key).and_then(|v| v.as_u64()).and_then(|v| u32::try_from(v).ok())
}

/// The latest arrival and the latest initiative among `events`, read from the newest back.
fn digest_of(events: &[LogEvent]) -> (Option<Arrival>, Option<RoundInitiative>) {
    let (mut arrival, mut initiative) = (None, None);
    for e in events.iter().rev().filter(|e| e.system == "encounters") {
        if arrival.is_none() && e.event == "monsters_arrive" {
            arrival = Some(Arrival {
                encounter: field_u32(e, "encounter").unwrap_or(0),
                row: e.subject.clone(),
                entry: e.fields.get("entry").and_then(|v| v.as_str()).map(String::from),
                move_number: e.move_number,
            });
        }
        if initiative.is_none() && e.event == "combat_phase" && !e.rolls.is_empty() {
            initiative = Some(RoundInitiative {
                encounter: field_u32(e, "encounter").unwrap_or(0),
                round: field_u32(e, "round").unwrap_or(0),
                dice: e.rolls.iter().map(|r| r.total).collect(),
            });
        }
        if arrival.is_some() && initiative.is_some() {
            break;
        }
    }
    (arrival, initiative)
}

fn update_digest(log: Res<EventLog>, generation: Option<Res<SceneGeneration>>, mut digest: ResMut<LogDigest>) {
    let key = (log.events.len(), generation.map_or(0, |g| g.0));
    if digest.key == Some(key) {
        return;
    }
    let (arrival, initiative) = digest_of(&log.events);
    *digest = LogDigest { key: Some(key), arrival, initiative };
}

/// The point of entry to ring: the latest arrival's, while its encounter is in progress or in
/// the step it came (an encounter with no combat is over as it arrives).
fn arriving_entry(arrival: Option<&Arrival>, encounter_in_progress: Option<u32>, move_number: u32) -> Option<&str> {
    let a = arrival?;
    let current = encounter_in_progress == Some(a.encounter) || a.move_number == move_number;
    if current { a.entry.as_deref() } else { None }
}

// ---- the GM layer ----

/// A point of entry's mark: a square for a door, a ring for a corridor end, a bar for a table
/// edge, a diamond for a portal.
fn draw_entry_mark(gizmos: &mut Gizmos<GmGizmos>, kind: EntryKind, at: Vec2, colour: Color) {
    let iso = Isometry2d::from_translation(at);
    match kind {
        EntryKind::Door => {
            gizmos.rect_2d(iso, Vec2::splat(0.4 * PX_PER_INCH), colour);
        }
        EntryKind::CorridorEnd => {
            gizmos.circle_2d(iso, 0.25 * PX_PER_INCH, colour);
            gizmos.circle_2d(iso, 0.1 * PX_PER_INCH, colour);
        }
        EntryKind::TableEdge => {
            gizmos.rect_2d(iso, Vec2::new(0.8, 0.2) * PX_PER_INCH, colour);
        }
        EntryKind::Portal => {
            let r = 0.3 * PX_PER_INCH;
            let (up, right) = (Vec2::new(0.0, r), Vec2::new(r, 0.0));
            gizmos.linestrip_2d([at + up, at + right, at - up, at - right, at + up], colour);
        }
    }
}

/// A monster's ring colour by where it stands.
fn standing_colour(standing: OsrStanding) -> Color {
    match standing {
        OsrStanding::Fighting => FIGHTING_COLOUR,
        OsrStanding::Fled => FLED_COLOUR,
        OsrStanding::Surrendered => SURRENDERED_COLOUR,
        OsrStanding::Dead => DEAD_COLOUR,
    }
}

/// GM layer: every point of entry, the arriving one ringed; the encounter's monsters ringed.
fn draw_entries_and_monsters(
    mut gizmos: Gizmos<GmGizmos>,
    book: Option<Res<OsrBook>>,
    walls: Option<Res<Walls>>,
    table: Option<Res<TableSize>>,
    digest: Res<LogDigest>,
    clock: Res<MoveClock>,
    figures: Query<(&TablePosition, Option<&Shown>, &Figure)>,
) {
    let Some(book) = book.filter(|b| b.is_osr()) else { return };
    let section = &book.section;
    let no_doors: Vec<crate::scene::Door> = Vec::new();
    let doors = match &walls {
        Some(w) => w.doors(),
        None => &no_doors[..],
    };
    let table = table.map_or(Vec2::ZERO, |t| t.0);
    let in_progress = section.encounter.as_ref().map(|e| e.number);
    let arriving = arriving_entry(digest.arrival.as_ref(), in_progress, clock.move_number);
    for (name, kind, at, illogical) in entry_candidates(section, doors, table) {
        let at = to_world(at);
        let colour = if illogical { ILLOGICAL_COLOUR } else { ENTRY_COLOUR };
        draw_entry_mark(&mut gizmos, kind, at, colour);
        let iso = Isometry2d::from_translation(at);
        if illogical {
            gizmos.cross_2d(iso, 0.35 * PX_PER_INCH, ILLOGICAL_COLOUR);
        }
        if arriving == Some(name.as_str()) {
            gizmos.circle_2d(iso, 0.6 * PX_PER_INCH, ARRIVAL_COLOUR);
            gizmos.circle_2d(iso, 0.75 * PX_PER_INCH, ARRIVAL_COLOUR.with_alpha(0.6));
        }
    }
    let Some(state) = &section.encounter else { return };
    for (pos, shown, figure) in &figures {
        if !state.monsters.contains(&figure.0.name) {
            continue;
        }
        let Some(sheet) = section.sheet(&figure.0.name) else { continue };
        let iso = Isometry2d::from_translation(to_world(shown.map_or(pos.0, |s| s.at)));
        if sheet.standing == OsrStanding::Dead {
            gizmos.cross_2d(iso, 0.5 * PX_PER_INCH, DEAD_COLOUR);
        } else {
            gizmos.circle_2d(iso, 0.55 * PX_PER_INCH, standing_colour(sheet.standing));
        }
    }
}

// ---- the panel's text ----

/// The Clock window's line under `rules_family: osr`: the OSR clock ([`OsrBook::clock_label`]),
/// the step (the log's move) and the seed: "Turn 8 (1:10), combat round 3  ·  step 12  ·  seed 24".
pub(super) fn clock_text(book: &OsrBook, step: u32, seed: u64) -> String {
    format!("{}  ·  step {step}  ·  seed {seed}", book.clock_label())
}

/// A number as the panel writes it: whole numbers bare ("57"), others to a tenth ("0.5").
fn number_text(v: f32) -> String {
    if (v - v.round()).abs() < 0.05 { format!("{:.0}", v.round()) } else { format!("{v:.1}") }
}

/// An encumbrance row as the text's table names it.
fn row_text(row: EncumbranceRow) -> &'static str {
    match row {
        EncumbranceRow::LessThan50 => "less than 50 lb",
        EncumbranceRow::From50To100 => "50-100 lb",
        EncumbranceRow::From101To150 => "101-150 lb",
        EncumbranceRow::From151To200 => "151-200 lb",
        EncumbranceRow::MoreThan200 => "more than 200 lb",
    }
}

/// A speed as the table writes it, combat then exploration: "20'/60'".
fn speed_text(s: OsrSpeed) -> String {
    format!("{}'/{}'", s.combat_ft, s.exploration_ft)
}

/// A party member's load: "Odo: 120 lb carried (101-150 lb): 20'/60'"; the armour's row when
/// it counts ("; armour 50-100 lb too", "; armour 50-100 lb, worse").
fn member_text(name: &str, e: &Encumbrance) -> String {
    let armour = match (e.limited_by, e.armour_row) {
        (SpeedLimit::Armour, Some(a)) => format!("; armour {}, worse", row_text(a)),
        (SpeedLimit::Both, Some(a)) => format!("; armour {} too", row_text(a)),
        (SpeedLimit::RefereeNoMovement, _) => "; the referee rules no movement".to_string(),
        _ => String::new(),
    };
    format!(
        "{name}: {} lb carried ({}){armour}: {}",
        number_text(e.tallied_lb),
        row_text(e.weight_row),
        speed_text(e.speed)
    )
}

/// The party's pace: "Party pace 20'/60' (6\" a turn), kept to Odo's"; in combat a round's.
/// `slowest`: the slowest member fighting, none when no one with a sheet is.
fn pace_text(pace: PartyPace, slowest: Option<&str>, settings: &OsrSettings, in_combat: bool) -> String {
    match pace {
        PartyPace::Together(s) => {
            let (inches, unit) =
                if in_combat { (s.combat_in(settings), "round") } else { (s.exploration_in(settings), "turn") };
            let kept = slowest.map(|n| format!(", kept to {n}'s")).unwrap_or_default();
            format!("Party pace {} ({}\" a {unit}){kept}", speed_text(s), number_text(inches))
        }
        PartyPace::EachOwn if slowest.is_some() => "Full retreat: each member at its own speed".to_string(),
        PartyPace::EachOwn => "No party member with a sheet is fighting".to_string(),
    }
}

/// When the next wandering-monster check comes.
fn check_text(in_combat: bool, resting: bool, turns: u32) -> String {
    if in_combat {
        "No wandering-monster check while the combat runs".to_string()
    } else if resting {
        format!("Resting: turns pass without counting; the next check {turns} exploring turn(s) away")
    } else if turns == 1 {
        "Next wandering-monster check in 1 turn (1 in 6)".to_string()
    } else {
        format!("Next wandering-monster check in {turns} turns (1 in 6)")
    }
}

/// Who S1 surprised.
fn surprise_text(party_surprised: bool, monsters_surprised: bool) -> &'static str {
    match (party_surprised, monsters_surprised) {
        (false, false) => "Surprise: neither side",
        (true, false) => "Surprise: the party (helpless in the surprise round)",
        (false, true) => "Surprise: the monsters (helpless in the surprise round)",
        (true, true) => "Surprise: both sides (no one acts in the surprise round)",
    }
}

/// The reaction's row with the text's possible actions.
fn reaction_text(reaction: Reaction) -> String {
    let actions: Vec<&str> = reaction.possible_actions().iter().map(|a| a.label()).collect();
    format!("Reaction: {} (possible actions: {})", reaction.id(), actions.join(", "))
}

/// The phases of the round `current` is in: S1 to S6 in the surprise round, 1 to 6 after.
fn phases_of_round(current: CombatPhase) -> Vec<CombatPhase> {
    let surprise = current.in_surprise_round();
    CombatPhase::ALL.into_iter().filter(|p| *p != CombatPhase::Ended && p.in_surprise_round() == surprise).collect()
}

fn side_text(side: usize) -> &'static str {
    if side == 0 { "the party" } else { "the monsters" }
}

/// The round's acting order (groups act together), with its initiative dice when rolled:
/// "Acting order: the monsters, then the party (1d6: party 2, monsters 5)".
fn initiative_text(order: &[Vec<usize>], dice: &[i32]) -> String {
    if order.is_empty() {
        return "Acting order: none yet".to_string();
    }
    let groups: Vec<String> = order
        .iter()
        .map(|group| {
            let sides: Vec<&str> = group.iter().map(|&s| side_text(s)).collect();
            if sides.len() > 1 { format!("{} together", sides.join(" and ")) } else { sides.concat() }
        })
        .collect();
    let mut text = format!("Acting order: {}", groups.join(", then "));
    if let [party, monsters, rest @ ..] = dice {
        let again = if rest.is_empty() { "" } else { ", ties rolled again" };
        text.push_str(&format!(" (1d6: party {party}, monsters {monsters}{again})"));
    }
    text
}

/// A figure of the encounter: "goblin 1-3: 2/2 hp, fighting; morale 6 (checked: group_dead);
/// attacks D20 hits on 13+, damage D6; in the party's sight" (the attack from the scene's table).
fn figure_text(sheet: &OsrSheet, seen: Option<bool>) -> String {
    let mut text = format!("{}: {}/{} hp, {}", sheet.figure, sheet.hp, sheet.max_hp, sheet.standing.id());
    if let Some(score) = sheet.morale {
        match &sheet.henchman_of {
            Some(leader) => text.push_str(&format!("; loyalty {score} to {leader}")),
            None => text.push_str(&format!("; morale {score}")),
        }
        if !sheet.morale_checked.is_empty() {
            let checked: Vec<&str> = sheet.morale_checked.iter().map(|t| t.id()).collect();
            text.push_str(&format!(" (checked: {})", checked.join(", ")));
        }
    }
    if let Some(attack) = &sheet.attack {
        text.push_str(&format!("; attacks {}", attack.label()));
    }
    match seen {
        Some(true) => text.push_str("; in the party's sight"),
        Some(false) => text.push_str("; unseen by the party"),
        None => {}
    }
    text
}

/// A group's dead against 003's 30%: "goblin foragers: 2 of 4 dead (morale is checked from 2)".
fn group_text(name: &str, size: u32, dead: u32) -> String {
    if size == 0 {
        return format!("{name}: no one");
    }
    // The fewest dead that are 30% or more of the group (exact, in integers).
    let at = (u64::from(size) * DEAD_PERCENT.unsigned_abs()).div_ceil(100);
    format!("{name}: {dead} of {size} dead (morale is checked from {at})")
}

/// A GM's combat order: "Round 2: goblin foragers 1-1 takes 2 hp", "Round 5: the combat ends (ceasefire)".
fn order_text(order: &CombatOrderEntry) -> String {
    let mut parts = Vec::new();
    if let Some(target) = &order.target {
        parts.push(format!("{target} takes {} hp", order.damage));
    }
    if let Some(end) = order.end {
        parts.push(format!("the combat ends ({})", end.id()));
    }
    format!("Round {}: {}", order.round, parts.join("; "))
}

// ---- the panel ----

/// The OSR panel's combat controls, kept between frames.
#[derive(Resource, Debug)]
struct CombatControls {
    /// Whom the next hit is on.
    target: String,
    /// Hit points it takes off.
    damage: i32,
    /// How the GM ends the combat.
    end: CombatEnd,
    /// An order asked for this frame.
    requested: Option<CombatOrderEntry>,
    /// The last order placed, in words, or why it could not be.
    last: Option<Result<String, String>>,
}

impl Default for CombatControls {
    fn default() -> Self {
        Self { target: String::new(), damage: 1, end: CombatEnd::Ceasefire, requested: None, last: None }
    }
}

/// The party's figures with a sheet (`figures` in scene order), each with its load and whether
/// it fights.
fn party_loads(book: &OsrBook, figures: &[&Figure]) -> Vec<(String, Encumbrance, bool)> {
    figures
        .iter()
        .filter(|f| f.0.side == book.section.party_side)
        .filter_map(|f| {
            let sheet = book.section.sheet(&f.0.name)?;
            let fighting = sheet.standing == OsrStanding::Fighting;
            Some((f.0.name.clone(), member_encumbrance(sheet, &f.0, book), fighting))
        })
        .collect()
}

/// The party: each member's load, and the pace the party keeps.
fn party_section(ui: &mut egui::Ui, book: &OsrBook, loads: &[(String, Encumbrance, bool)]) {
    let fighting: Vec<&(String, Encumbrance, bool)> = loads.iter().filter(|(_, _, f)| *f).collect();
    let speeds: Vec<OsrSpeed> = fighting.iter().map(|(_, e, _)| e.speed).collect();
    let pace = party_pace(&speeds, book.section.full_retreat);
    // The slowest member: the lowest exploration speed, the first among equals.
    let slowest = fighting.iter().min_by_key(|(_, e, _)| e.speed.exploration_ft).map(|(n, _, _)| n.as_str());
    let in_combat = book.section.encounter.is_some();
    ui.label(pace_text(pace, slowest, &book.settings, in_combat));
    for (name, e, fights) in loads {
        let line = member_text(name, e);
        if *fights {
            ui.label(line);
        } else {
            ui.weak(format!("{line} (not fighting: not counted)"));
        }
    }
}

/// The encounter in progress: figures, surprise, reaction, phases, initiative, morale, orders.
fn encounter_section(
    ui: &mut egui::Ui,
    book: &OsrBook,
    state: &EncounterState,
    digest: &LogDigest,
    seen: &dyn Fn(&str) -> Option<bool>,
    controls: &mut CombatControls,
    request: &mut Option<CombatOrderEntry>,
) {
    let section = &book.section;
    let entry = digest
        .arrival
        .as_ref()
        .filter(|a| a.encounter == state.number)
        .and_then(|a| a.entry.clone())
        .map(|e| format!(" by {e}"))
        .unwrap_or_default();
    ui.strong(format!("Encounter {}: {}{entry}", state.number, state.entry));
    ui.label(surprise_text(state.party_surprised, state.monsters_surprised));
    ui.label(reaction_text(state.reaction));
    ui.separator();
    let round =
        if state.round == 1 { "Round 1, the surprise round".to_string() } else { format!("Round {}", state.round) };
    ui.strong(round);
    for phase in phases_of_round(state.phase) {
        if phase == state.phase {
            ui.label(egui::RichText::new(format!("> {}", phase.label())).strong().color(CURRENT_PHASE_COLOUR));
        } else {
            ui.weak(format!("   {}", phase.label()));
        }
    }
    let dice = digest
        .initiative
        .as_ref()
        .filter(|i| i.encounter == state.number && i.round == state.round)
        .map(|i| i.dice.as_slice())
        .unwrap_or_default();
    ui.label(initiative_text(&state.order, dice));
    ui.separator();
    let dead = |names: &[String]| {
        names.iter().filter(|n| section.sheet(n).is_some_and(|s| s.standing == OsrStanding::Dead)).count() as u32
    };
    ui.label(group_text(&state.entry, state.monsters.len() as u32, dead(&state.monsters)));
    for name in &state.monsters {
        if let Some(sheet) = section.sheet(name) {
            ui.label(figure_text(sheet, seen(name.as_str())));
        }
    }
    ui.label(group_text("the party", state.party.len() as u32, dead(&state.party)));
    for name in &state.party {
        if let Some(sheet) = section.sheet(name) {
            ui.label(figure_text(sheet, None));
        }
    }
    ui.separator();
    let next = round_played_next(state);
    ui.strong(format!("The GM's orders (the next step plays round {next})"));
    for order in section.combat_orders.iter().filter(|o| o.encounter == state.number && o.round >= next) {
        ui.label(order_text(order));
    }
    let targets: Vec<&String> = state
        .monsters
        .iter()
        .chain(&state.party)
        .filter(|n| section.sheet(n).is_some_and(|s| s.standing == OsrStanding::Fighting))
        .collect();
    ui.horizontal(|ui| {
        ui.label("Hit");
        let shown = if controls.target.is_empty() { "pick a figure".to_string() } else { controls.target.clone() };
        egui::ComboBox::from_id_salt("osr-hit-target").selected_text(shown).show_ui(ui, |ui| {
            for name in &targets {
                ui.selectable_value(&mut controls.target, name.to_string(), name.as_str());
            }
        });
        ui.label("hp off");
        ui.add(egui::DragValue::new(&mut controls.damage).range(1..=MAX_HP));
        if ui
            .button("Hit")
            .on_hover_text(format!(
                "Ordered for round {next}: it lands when the next step is played, then morale is checked \
                 (003 \"Morale & Loyalty\"). Logged now; rewind undoes it."
            ))
            .clicked()
            && !controls.target.is_empty()
        {
            *request = Some(CombatOrderEntry {
                encounter: state.number,
                round: next,
                target: Some(controls.target.clone()),
                damage: controls.damage,
                end: None,
            });
        }
    });
    ui.horizontal(|ui| {
        ui.label("End the combat");
        egui::ComboBox::from_id_salt("osr-end").selected_text(controls.end.id()).show_ui(ui, |ui| {
            for end in CombatEnd::ALL {
                ui.selectable_value(&mut controls.end, end, end.id());
            }
        });
        if ui
            .button("End after the round")
            .on_hover_text(format!(
                "The combat ends after round {next} (\"until slaughter, surrender, ceasefire, or retreat\")."
            ))
            .clicked()
        {
            *request = Some(CombatOrderEntry {
                encounter: state.number,
                round: next,
                target: None,
                damage: 0,
                end: Some(controls.end),
            });
        }
    });
    match &controls.last {
        Some(Ok(done)) => {
            ui.label(format!("Ordered: {done}"));
        }
        Some(Err(why)) => {
            ui.colored_label(egui::Color32::from_rgb(255, 120, 120), why.as_str());
        }
        None => {}
    }
}

/// The OSR panel: the turn, the next check, the party's pace and loads, the encounter.
fn osr_panel(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    mut controls: ResMut<CombatControls>,
    book: Option<Res<OsrBook>>,
    digest: Res<LogDigest>,
    sight: Option<Res<PartySight>>,
    figures: Query<(&SceneOrder, &Figure, &TablePosition)>,
) -> Result {
    if !panels.show_osr {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let controls = &mut *controls;
    let mut figures: Vec<(&SceneOrder, &Figure, &TablePosition)> = figures.iter().collect();
    figures.sort_by_key(|(order, _, _)| **order);
    let seen = |name: &str| -> Option<bool> {
        let sight = sight.as_ref()?;
        let (_, _, pos) = figures.iter().find(|(_, f, _)| f.0.name == name)?;
        Some(sight.sees(pos.0))
    };
    let mut request = None;
    let mut open = true;
    egui::Window::new("OSR").open(&mut open).default_pos([8.0, 96.0]).default_width(480.0).show(ctx, |ui| {
        let Some(book) = book.as_ref().filter(|b| b.is_osr()) else {
            ui.label("This scene is not run under the OSR rules (rules_family: osr).");
            return;
        };
        let section = &book.section;
        egui::ScrollArea::vertical().max_height(640.0).show(ui, |ui| {
            ui.strong(book.clock_label());
            ui.label(format!(
                "{} turns spent exploring; {} encounters so far",
                section.clock.exploring_turns, section.encounters_had
            ));
            ui.label(check_text(section.encounter.is_some(), section.resting, book.turns_until_check()));
            ui.separator();
            ui.strong("Party");
            let sheets: Vec<&Figure> = figures.iter().map(|(_, f, _)| *f).collect();
            party_section(ui, book, &party_loads(book, &sheets));
            ui.separator();
            match &section.encounter {
                Some(state) => encounter_section(ui, book, state, &digest, &seen, controls, &mut request),
                None => {
                    ui.label("No combat in progress.");
                    if let Some(a) = &digest.arrival {
                        let by = a.entry.as_ref().map(|e| format!(" by {e}")).unwrap_or_default();
                        ui.weak(format!(
                            "Last arrival: {} (encounter {}){by}, in step {}",
                            a.row, a.encounter, a.move_number
                        ));
                    }
                }
            }
        });
    });
    if !open {
        panels.show_osr = false;
    }
    if request.is_some() {
        controls.requested = request;
    }
    Ok(())
}

/// Order the hit or the end asked for, outside egui's pass (it changes the world and the log).
fn apply_combat_order(world: &mut World) {
    let Some(order) = world.resource_mut::<CombatControls>().requested.take() else { return };
    let result = crate::document::order_combat(world, order);
    world.resource_mut::<CombatControls>().last = Some(result.map(|o| order_text(&o)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::character::Armour;
    use crate::rules::osr::{MoraleTrigger, OsrClock, armour_row, encumbrance};
    use crate::scene::osr::{OsrSection, RulesFamily};

    fn book(clock: OsrClock, encounter: Option<EncounterState>) -> OsrBook {
        OsrBook {
            section: OsrSection { clock, encounter, ..OsrSection::default() },
            family: RulesFamily::Osr,
            ..OsrBook::default()
        }
    }

    fn state(phase: CombatPhase, round: u32) -> EncounterState {
        EncounterState {
            number: 1,
            entry: "goblin foragers".into(),
            monsters: vec!["goblin foragers 1-1".into()],
            party: vec!["Odo".into()],
            party_surprised: false,
            monsters_surprised: true,
            reaction: Reaction::Unfriendly,
            phase,
            round,
            order: vec![vec![1], vec![0]],
        }
    }

    fn sheet(figure: &str, hp: i32, max_hp: i32) -> OsrSheet {
        OsrSheet {
            figure: figure.into(),
            hp,
            max_hp,
            charisma: 0,
            reaction_modifier: 0,
            morale: None,
            henchman_of: None,
            carried: Vec::new(),
            inventory_kind: Default::default(),
            lights: 0,
            no_movement: false,
            attack: None,
            standing: OsrStanding::Fighting,
            morale_checked: Vec::new(),
        }
    }

    #[test]
    fn the_clock_reads_osr_turns_and_the_combat_round() {
        let exploring = OsrClock { minutes: 70, rounds: 0, exploring_turns: 7 };
        assert_eq!(clock_text(&book(exploring, None), 7, 24), "Turn 8 (1:10)  ·  step 7  ·  seed 24");
        let fighting = OsrClock { minutes: 463, rounds: 3, exploring_turns: 46 };
        assert_eq!(
            clock_text(&book(fighting, Some(state(CombatPhase::Melee, 3))), 49, 24),
            "Turn 47 (7:43), combat round 3  ·  step 49  ·  seed 24"
        );
    }

    #[test]
    fn the_next_check_counts_exploring_turns() {
        assert_eq!(check_text(false, false, 1), "Next wandering-monster check in 1 turn (1 in 6)");
        assert_eq!(check_text(false, false, 2), "Next wandering-monster check in 2 turns (1 in 6)");
        assert!(check_text(false, true, 2).starts_with("Resting"));
        assert_eq!(check_text(true, false, 1), "No wandering-monster check while the combat runs");
        // The book's count is the clock's: 1 after an odd number of exploring turns.
        let odd = book(OsrClock { minutes: 10, rounds: 0, exploring_turns: 1 }, None);
        assert_eq!(odd.turns_until_check(), 1);
    }

    #[test]
    fn loads_and_the_pace_read_as_the_table_writes_them() {
        let settings = OsrSettings::default();
        // Odo's chest: 120 lb, the 101-150 row.
        let odo = encumbrance(120.0, None, false);
        assert_eq!(member_text("Odo", &odo), "Odo: 120 lb carried (101-150 lb): 20'/60'");
        // Brand: 57 lb in plate, whose row is the same 50-100.
        let brand = encumbrance(57.0, armour_row(Armour::Plate, &settings), false);
        assert_eq!(member_text("Brand", &brand), "Brand: 57 lb carried (50-100 lb); armour 50-100 lb too: 30'/90'");
        // Plate worse than a light load; a fraction of a pound kept to a tenth.
        let light = encumbrance(0.5, armour_row(Armour::Plate, &settings), false);
        assert_eq!(
            member_text("Mira", &light),
            "Mira: 0.5 lb carried (less than 50 lb); armour 50-100 lb, worse: 30'/90'"
        );
        let stuck = encumbrance(250.0, None, true);
        assert_eq!(
            member_text("Ox", &stuck),
            "Ox: 250 lb carried (more than 200 lb); the referee rules no movement: 0'/0'"
        );
        let pace = party_pace(&[brand.speed, odo.speed], false);
        assert_eq!(pace_text(pace, Some("Odo"), &settings, false), "Party pace 20'/60' (6\" a turn), kept to Odo's");
        assert_eq!(pace_text(pace, Some("Odo"), &settings, true), "Party pace 20'/60' (2\" a round), kept to Odo's");
        let retreat = party_pace(&[brand.speed, odo.speed], true);
        assert_eq!(pace_text(retreat, Some("Odo"), &settings, false), "Full retreat: each member at its own speed");
        assert_eq!(
            pace_text(party_pace(&[], false), None, &settings, false),
            "No party member with a sheet is fighting"
        );
    }

    #[test]
    fn surprise_reaction_and_order_read_in_words() {
        assert_eq!(surprise_text(false, false), "Surprise: neither side");
        assert!(surprise_text(true, false).starts_with("Surprise: the party"));
        assert!(surprise_text(false, true).starts_with("Surprise: the monsters"));
        assert!(surprise_text(true, true).starts_with("Surprise: both sides"));
        assert_eq!(
            reaction_text(Reaction::Unfriendly),
            "Reaction: unfriendly (possible actions: insult, draw weapons, offer bad deal)"
        );
        assert_eq!(
            reaction_text(Reaction::Helpful),
            "Reaction: helpful (possible actions: combat aid, offer great deal)"
        );
        assert_eq!(
            initiative_text(&[vec![1], vec![0]], &[2, 5]),
            "Acting order: the monsters, then the party (1d6: party 2, monsters 5)"
        );
        assert_eq!(
            initiative_text(&[vec![0, 1]], &[4, 4]),
            "Acting order: the party and the monsters together (1d6: party 4, monsters 4)"
        );
        assert_eq!(
            initiative_text(&[vec![0], vec![1]], &[3, 3, 6, 1]),
            "Acting order: the party, then the monsters (1d6: party 3, monsters 3, ties rolled again)"
        );
        assert_eq!(initiative_text(&[vec![0]], &[]), "Acting order: the party");
        assert_eq!(initiative_text(&[], &[]), "Acting order: none yet");
    }

    #[test]
    fn the_phase_list_is_the_round_the_combat_is_in() {
        let surprise = phases_of_round(CombatPhase::SurpriseMelee);
        assert_eq!(surprise.len(), 7);
        assert_eq!(surprise.first(), Some(&CombatPhase::DetermineSurprise));
        assert_eq!(surprise.last(), Some(&CombatPhase::SurpriseMelee));
        let normal = phases_of_round(CombatPhase::Melee);
        assert_eq!(
            normal,
            vec![
                CombatPhase::Declare,
                CombatPhase::Initiative,
                CombatPhase::Movement,
                CombatPhase::Ranged,
                CombatPhase::Spells,
                CombatPhase::Melee
            ]
        );
        assert_eq!(phases_of_round(CombatPhase::Declare), normal);
    }

    #[test]
    fn figures_groups_and_orders_read_with_their_state() {
        let mut goblin = sheet("goblin foragers 1-3", 2, 2);
        goblin.morale = Some(6);
        goblin.morale_checked = vec![MoraleTrigger::GroupDead];
        assert_eq!(
            figure_text(&goblin, Some(false)),
            "goblin foragers 1-3: 2/2 hp, fighting; morale 6 (checked: group_dead); unseen by the party"
        );
        let mut odo = sheet("Odo", 1, 4);
        odo.morale = Some(7);
        odo.henchman_of = Some("Brand".into());
        odo.standing = OsrStanding::Fled;
        assert_eq!(figure_text(&odo, None), "Odo: 1/4 hp, fled; loyalty 7 to Brand");
        assert_eq!(figure_text(&sheet("Brand", 9, 9), Some(true)), "Brand: 9/9 hp, fighting; in the party's sight");
        let mut armed = sheet("goblin 2-1", 3, 3);
        armed.attack = Some(crate::rules::osr::OsrAttack {
            roll: crate::rules::dice::Dice::D20,
            hit_on: 13,
            bonus: 0,
            damage: crate::rules::dice::Dice::D6,
            damage_dice: 1,
            damage_bonus: 0,
            ranged: false,
        });
        assert_eq!(figure_text(&armed, None), "goblin 2-1: 3/3 hp, fighting; attacks D20 hits on 13+, damage D6");
        // 30% of 4 is 1.2: the second death brings the check; of 10, the third.
        assert_eq!(group_text("goblin foragers", 4, 2), "goblin foragers: 2 of 4 dead (morale is checked from 2)");
        assert_eq!(group_text("goblin patrol", 10, 0), "goblin patrol: 0 of 10 dead (morale is checked from 3)");
        assert_eq!(group_text("nobody", 0, 0), "nobody: no one");
        let hit = CombatOrderEntry { encounter: 1, round: 2, target: Some("goblin 1-1".into()), damage: 3, end: None };
        assert_eq!(order_text(&hit), "Round 2: goblin 1-1 takes 3 hp");
        let end = CombatOrderEntry { encounter: 1, round: 5, target: None, damage: 0, end: Some(CombatEnd::Ceasefire) };
        assert_eq!(order_text(&end), "Round 5: the combat ends (ceasefire)");
    }

    #[test]
    fn the_log_gives_the_latest_arrival_and_initiative() {
        use crate::rules::dice::{Dice, Roll};
        let arrive = |n: u32, entry: Option<&str>, at_move: u32| {
            let mut e = LogEvent::new("encounters", "monsters_arrive", "goblin patrol")
                .field("encounter", n)
                .field("entry", entry);
            e.move_number = at_move;
            e
        };
        let mut initiative =
            LogEvent::new("encounters", "combat_phase", "goblin patrol").field("encounter", 2).field("round", 3);
        initiative.rolls = vec![Roll::from_faces(Dice::D6, vec![4]), Roll::from_faces(Dice::D6, vec![1])];
        let phase =
            LogEvent::new("encounters", "combat_phase", "goblin patrol").field("encounter", 2).field("round", 3);
        let events = vec![arrive(1, Some("door 3"), 46), arrive(2, Some("door 2"), 57), initiative, phase];
        let (arrival, init) = digest_of(&events);
        let arrival = arrival.expect("an arrival");
        assert_eq!(
            arrival,
            Arrival { encounter: 2, row: "goblin patrol".into(), entry: Some("door 2".into()), move_number: 57 }
        );
        assert_eq!(init, Some(RoundInitiative { encounter: 2, round: 3, dice: vec![4, 1] }));
        assert_eq!(digest_of(&[]), (None, None));
        // Ringed while its encounter is in progress, or in the step it came; not after.
        assert_eq!(arriving_entry(Some(&arrival), Some(2), 60), Some("door 2"));
        assert_eq!(arriving_entry(Some(&arrival), None, 57), Some("door 2"));
        assert_eq!(arriving_entry(Some(&arrival), None, 58), None);
        assert_eq!(arriving_entry(Some(&arrival), Some(1), 58), None);
        let nowhere = Arrival { entry: None, ..arrival };
        assert_eq!(arriving_entry(Some(&nowhere), Some(2), 57), None);
        assert_eq!(arriving_entry(None, Some(2), 57), None);
    }

    #[test]
    fn numbers_are_whole_or_to_a_tenth() {
        assert_eq!(number_text(57.0), "57");
        assert_eq!(number_text(6.0), "6");
        assert_eq!(number_text(0.5), "0.5");
        assert_eq!(number_text(12.34), "12.3");
        assert_eq!(row_text(EncumbranceRow::MoreThan200), "more than 200 lb");
        assert_eq!(speed_text(EncumbranceRow::LessThan50.speed()), "40'/120'");
    }
}
