//! What the GM sees on hover: the entity under the cursor, a trap's spotting and trigger
//! radii, a fire's diameter and fright value; and each figure's reach this move.

use super::camera::CursorTable;
use super::layers::GmGizmos;
use super::panels::HOUSE_RULE_COLOUR;
use super::{PX_PER_INCH, to_world};
use crate::document::{Reveal, event_revealed};
use crate::rules::house_rules::event_house_rule_note;
use crate::sim::fire::FireFront;
use crate::sim::movement::{allowance_for, walk};
use crate::sim::traps::Trap;
use crate::sim::world::{Conditions, Figure, SceneOrder, TablePosition, Terrain, Walls, Waypoints};
use crate::sim::{EventLog, MoveClock};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    // Screenshots show the table, not whatever the pointer happens to rest on.
    let pointer_free = not(resource_exists::<super::screenshot::ScreenshotPlan>);
    app.add_systems(
        Update,
        (
            draw_reach.run_if(super::is_gm_view),
            draw_hovered_trap.run_if(super::is_gm_view).run_if(pointer_free.clone()),
        ),
    );
    app.add_systems(EguiPrimaryContextPass, hover_info.run_if(super::is_gm_view).run_if(pointer_free));
}

/// Distance within which the cursor is over a token, in inches.
const HOVER_RADIUS: f32 = 0.7;

/// How many of the newest log events the hover looks through for the hovered entity's last
/// rolls (the lookup runs every frame the pointer rests on it).
const HOVER_LOG_EVENTS: usize = 2_000;

/// The house rules that decided the latest event about `subject` with rolls or house-rule
/// settings: its note (see [`event_house_rule_note`]) headed by the event, or `None` when no
/// house rule touched its rolls or decided it.
fn latest_house_rules(log: &EventLog, subject: &str, unrevealed: Option<(u32, u8)>) -> Option<String> {
    let event = log
        .events
        .iter()
        .rev()
        .take(HOVER_LOG_EVENTS)
        .filter(|e| event_revealed(e, unrevealed))
        .find(|e| e.subject == subject && (!e.rolls.is_empty() || !e.house_rule_paths().is_empty()))?;
    let reasons = event.rolls.iter().flat_map(|r| r.modifiers.iter().map(|m| &*m.reason));
    let note = event_house_rule_note(reasons, event.house_rule_paths())?;
    Some(format!("HR m{} {} -> {}: {note}", event.move_number, event.event, event.outcome))
}

/// Where each figure will be at the end of this move, worked out again only when a figure, its
/// path or its conditions change.
#[derive(Resource, Default)]
struct Reach(Vec<Vec2>);

fn draw_reach(
    figures: Query<(&Figure, &TablePosition, &Waypoints, &Conditions)>,
    changed: Query<(), Or<(Changed<TablePosition>, Changed<Waypoints>, Changed<Conditions>)>>,
    terrain: Res<Terrain>,
    walls: Res<Walls>,
    mut reach: Local<Reach>,
    mut gizmos: Gizmos<GmGizmos>,
) {
    if !changed.is_empty() || terrain.is_changed() || walls.is_changed() {
        reach.0.clear();
        for (figure, pos, waypoints, conditions) in &figures {
            if waypoints.0.is_empty() || conditions.0.iter().any(|c| c.immobile) {
                continue;
            }
            let allowance = allowance_for(figure, pos.0, conditions, &terrain);
            let mut path = waypoints.0.clone();
            let (segments, _) = walk(pos.0, &mut path, allowance.inches, &walls);
            if let Some(&(_, end)) = segments.last() {
                reach.0.push(end);
            }
        }
    }
    let r = 0.25 * PX_PER_INCH;
    let color = Color::srgb(0.9, 0.9, 0.3);
    for end in &reach.0 {
        let at = to_world(*end);
        gizmos.linestrip_2d(
            [at + Vec2::Y * r, at + Vec2::X * r, at - Vec2::Y * r, at - Vec2::X * r, at + Vec2::Y * r],
            color,
        );
    }
}

/// Spotting (2") and trigger radii of the trap under the cursor.
fn draw_hovered_trap(cursor: Res<CursorTable>, traps: Query<(&TablePosition, &Trap)>, mut gizmos: Gizmos<GmGizmos>) {
    let Some(at) = cursor.0 else { return };
    for (pos, trap) in &traps {
        if pos.0.distance(at) <= HOVER_RADIUS.max(trap.0.radius) {
            let c = to_world(pos.0);
            gizmos.circle_2d(Isometry2d::from_translation(c), 2.0 * PX_PER_INCH, Color::srgb(1.0, 0.9, 0.3));
            gizmos.circle_2d(Isometry2d::from_translation(c), trap.0.radius * PX_PER_INCH, Color::srgb(1.0, 0.4, 0.2));
        }
    }
}

/// What the hover shows of an entity's `show_players` (none while automatic).
fn show_players_line(setting: Option<bool>) -> Option<String> {
    setting.map(|s| format!("projector: {} (set by the GM)", super::fog::show_players_words(Some(s))))
}

fn hover_info(
    mut contexts: EguiContexts,
    cursor: Res<CursorTable>,
    named: Query<
        (
            Entity,
            &Name,
            &TablePosition,
            Option<&Figure>,
            Option<&Trap>,
            Option<&crate::sim::herds::Herd>,
            Option<&crate::sim::fire::Fire>,
        ),
        With<SceneOrder>,
    >,
    front: Option<Res<FireFront>>,
    log: Res<EventLog>,
    clock: Res<MoveClock>,
    reveal: Res<Reveal>,
    labels: Res<super::labels::LabelLayout>,
) -> Result {
    let Some(at) = cursor.0 else { return Ok(()) };
    let mut lines = Vec::new();
    // Lines a house rule decided, drawn in the house-rule colour after the others.
    let mut house_rules = None;
    if let Some((entity, name, _, figure, trap, herd, fire)) = named
        .iter()
        .filter(|(_, _, p, ..)| p.0.distance(at) <= HOVER_RADIUS)
        .min_by(|a, b| a.2.0.distance(at).total_cmp(&b.2.0.distance(at)))
    {
        lines.push(name.as_str().to_string());
        // Labels the table had no room for.
        if let Some(hidden) = labels.hidden.get(&entity) {
            lines.extend(hidden.iter().filter(|t| t.as_str() != name.as_str()).cloned());
        }
        let setting = figure
            .map(|f| f.0.show_players)
            .or(trap.map(|t| t.0.show_players))
            .or(herd.map(|h| h.0.show_players))
            .or(fire.map(|f| f.0.show_players));
        lines.extend(setting.and_then(show_players_line));
        if let Some(f) = figure {
            lines.push(format!("{} · {} · {}", f.0.side, f.0.armour.label(), f.0.gait.label()));
        }
        if let Some(t) = trap {
            let concealment = t.0.concealment.map(|c| format!("{c:?}")).unwrap_or_else(|| "default concealment".into());
            lines.push(format!("trap · {concealment} · trigger radius {}\" · spotted within 2\"", t.0.radius));
            lines.push(if t.0.revealed { "revealed to the players".into() } else { "hidden from the players".into() });
        }
        house_rules = latest_house_rules(&log, name.as_str(), reveal.unrevealed(clock.move_number));
    }
    if let Some(fire) = front.as_ref().and_then(|f| f.fire_at(at)) {
        let fright = fire.fright_value.map(|v| format!("FV{v}")).unwrap_or_else(|| "no fright".into());
        lines.push(format!(
            "fire {} · {:.1}\" across · FS {:+} · {fright}",
            fire.name, fire.diameter_in, fire.fire_strike
        ));
    }
    lines.push(format!("({:.1}, {:.1})", at.x, at.y));
    let ctx = contexts.ctx_mut()?;
    if let Some(pointer) = ctx.pointer_latest_pos() {
        egui::Area::new(egui::Id::new("hover-info"))
            .fixed_pos(pointer + egui::vec2(16.0, 16.0))
            .interactable(false)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    for l in &lines {
                        ui.label(l);
                    }
                    if let Some(note) = &house_rules {
                        ui.label(egui::RichText::new(note).color(HOUSE_RULE_COLOUR));
                    }
                });
            });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{Dice, Roll};
    use crate::sim::LogEvent;

    #[test]
    fn hover_names_the_house_rules_of_the_latest_roll() {
        let mut older = LogEvent::new("traps", "trip_cord", "Bob");
        older.rolls.push(Roll::from_faces(Dice::D10, vec![5]).modifier("clothed (house rule)", 1));
        let mut other = LogEvent::new("traps", "trip_cord", "Ann");
        other.rolls.push(Roll::from_faces(Dice::D10, vec![5]).modifier("clothed (house rule)", 1));
        let log = EventLog { events: vec![older.clone(), other] };
        let note = latest_house_rules(&log, "Bob", None).expect("Bob's roll was house-ruled");
        assert!(note.starts_with("HR m0 trip_cord"), "{note}");
        assert!(note.contains("traps.morval.clothed_agility"), "{note}");
        assert_eq!(latest_house_rules(&log, "Cid", None), None);
        let mut newer = LogEvent::new("traps", "spotting", "Bob");
        newer.rolls.push(Roll::from_faces(Dice::D6, vec![4]).modifier("cautious", 1));
        let log = EventLog { events: vec![older, newer] };
        assert_eq!(latest_house_rules(&log, "Bob", None), None, "only the latest rolled event counts");
    }
}
