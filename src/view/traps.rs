//! Traps' state and figures' conditions in the GM view: spent or disarmed traps are crossed
//! out in grey, a turned Khemri counter shows what it is, and each figure carries short
//! badges for its lasting conditions and wounds. All of it is for the GM's eyes only (it
//! names face-down counters and hidden traps).

use super::labels::{PlacedLabel, STATE_FONT_PX};
use super::layers::{GM_LAYER, Retained, gm_only};
use super::{PX_PER_INCH, SceneGeneration, to_world};
use crate::rules::khemri_traps::TrapStatus;
use crate::sim::traps::{KhemriCounter, Trap, Wounds};
use crate::sim::world::{Conditions, Figure, TablePosition};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_state_labels);
    app.add_systems(
        Update,
        (rebuild.run_if(resource_changed::<SceneGeneration>), draw_trap_state, update_state_labels)
            .chain()
            .after(super::playhead::PlayheadSystems),
    );
}

/// A line of state text by a trap or figure; labels.rs places it.
#[derive(Component)]
pub(super) struct StateLabel(Entity);

/// The world was rebuilt from a scene: label what is in it now.
fn rebuild(mut commands: Commands, old: Query<Entity, With<StateLabel>>) {
    for e in &old {
        commands.entity(e).despawn();
    }
    commands.run_system_cached(spawn_state_labels);
}

pub(super) fn spawn_state_labels(mut commands: Commands, things: Query<Entity, Or<(With<Trap>, With<Figure>)>>) {
    for entity in &things {
        commands.spawn((
            Text2d::new(""),
            TextFont { font_size: FontSize::Px(STATE_FONT_PX), ..default() },
            TextColor(Color::srgb(1.0, 0.85, 0.5)),
            Transform::from_xyz(0.0, 0.0, 6.0),
            StateLabel(entity),
            PlacedLabel::state(entity),
            gm_only(),
        ));
    }
}

/// Grey ring round a trap that can no longer go off (spent, disarmed, left out of play).
/// Redrawn only when a trap changes.
fn draw_trap_state(
    mut lines: Retained,
    generation: Res<SceneGeneration>,
    changed: Query<(), (With<Trap>, Or<(Changed<Trap>, Changed<KhemriCounter>, Changed<TablePosition>)>)>,
    traps: Query<(&TablePosition, &Trap, Option<&KhemriCounter>)>,
) {
    if !generation.is_changed() && changed.is_empty() {
        return;
    }
    lines.redraw("trap state", GM_LAYER, |gizmos| {
        for (pos, trap, counter) in &traps {
            let inactive =
                !trap.0.armed || counter.is_some_and(|c| !c.in_play || c.counter.status != TrapStatus::Active);
            if inactive {
                let at = to_world(pos.0);
                let r = (trap.0.radius + 0.15) * PX_PER_INCH;
                gizmos.circle_2d(Isometry2d::from_translation(at), r, Color::srgb(0.55, 0.55, 0.55));
            }
        }
    });
}

/// A short badge for a condition: its first word, and the inches it costs.
fn badge(c: &crate::scene::Condition) -> String {
    let word: String = c.name.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
    let mut s = if c.immobile { format!("[{word}]") } else { word };
    if c.move_penalty > 0.0 {
        s.push_str(&format!(" -{}\"", c.move_penalty));
    }
    s
}

/// Write each state label's text; where it goes is labels.rs's.
pub(super) fn update_state_labels(
    mut labels: Query<(Ref<StateLabel>, &mut Text2d)>,
    traps: Query<(Ref<Trap>, Option<Ref<KhemriCounter>>)>,
    figures: Query<(Ref<Conditions>, Option<Ref<Wounds>>)>,
) {
    // Text is rebuilt only for what changed: thousands of labels are checked every frame.
    for (label, mut text) in &mut labels {
        let new = label.is_added();
        let line = if let Ok((trap, counter)) = traps.get(label.0) {
            if !(new || trap.is_changed() || counter.as_ref().is_some_and(|c| c.is_changed())) {
                continue;
            }
            let mut parts = Vec::new();
            if let Some(c) = counter {
                // The GM sees the face-down type too; face up is marked.
                let face = if c.counter.face_up { "up" } else { "down" };
                parts.push(format!("{} ({face})", c.counter.trap.id()));
                if let Some(complex) = c.counter.complex {
                    parts.push(complex.id().replace('_', " "));
                }
                if c.counter.status != TrapStatus::Active {
                    parts.push(c.counter.status.id().to_string());
                }
                if !c.in_play {
                    parts.push("not in play".into());
                }
            } else {
                parts.push(trap.0.kind.id().replace('_', " "));
                parts.push(if trap.0.revealed { "revealed".into() } else { "hidden".into() });
            }
            if !trap.0.armed {
                parts.push("spent".into());
            }
            parts.join(", ")
        } else if let Ok((conditions, wounds)) = figures.get(label.0) {
            if !(new || conditions.is_changed() || wounds.as_ref().is_some_and(|w| w.is_changed())) {
                continue;
            }
            let mut parts: Vec<String> = conditions.0.iter().map(badge).collect();
            if let Some(w) = wounds {
                parts.push(format!("W{}", w.0));
            }
            parts.join(" ")
        } else {
            continue;
        };
        if text.0 != line {
            text.0 = line;
        }
    }
}
