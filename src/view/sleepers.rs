//! Drawing the sleepers: each group with its earshot ring and a dot per member coloured by state,
//! investigators where they walk, and the last move's noises as ripples. A panel lists every
//! member's state, timer and dressing.

use super::layers::GmGizmos;
use super::{PX_PER_INCH, to_world};
use crate::rules::sleepers::SleepersSettings;
use crate::scene::sleepers::{SleeperSheet, SleeperState};
use crate::sim::MoveClock;
use crate::sim::noise::NoiseMade;
use crate::sim::sleepers::{SleepersRules, SleepingGroup};
use crate::sim::world::SceneOrder;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShownNoises>();
    // Sleepers, their states and what they heard are the GM's secrets: GM layer only.
    app.add_systems(Update, (collect_noises, draw_groups, draw_noises).chain());
    app.add_systems(EguiPrimaryContextPass, sleepers_panel.run_if(super::is_gm_view));
}

/// The noises of the last move resolved, kept for drawing: the messages themselves last only a
/// frame or two in a windowed app.
#[derive(Resource, Default)]
struct ShownNoises {
    move_number: u32,
    /// When the move's first noise was seen, in seconds of app time.
    since: f32,
    noises: Vec<NoiseMade>,
}

fn collect_noises(
    mut reader: MessageReader<NoiseMade>,
    clock: Res<MoveClock>,
    time: Res<Time>,
    mut shown: ResMut<ShownNoises>,
) {
    if shown.move_number != clock.move_number {
        shown.move_number = clock.move_number;
        shown.since = time.elapsed_secs();
        shown.noises.clear();
    }
    shown.noises.extend(reader.read().cloned());
}

/// A member's colour by state.
fn state_color(state: &SleeperState) -> Color {
    match state {
        SleeperState::Asleep => Color::srgb(0.45, 0.55, 0.85),
        SleeperState::Awake => Color::srgb(0.95, 0.95, 0.95),
        SleeperState::Listening { .. } => Color::srgb(0.95, 0.85, 0.25),
        SleeperState::Investigating { .. } => Color::srgb(0.98, 0.55, 0.15),
        SleeperState::Alarm => Color::srgb(0.95, 0.15, 0.15),
    }
}

/// The group's colour: its most roused member's.
fn group_color(group: &crate::scene::SleepingGroup) -> Color {
    let rank = |s: &SleeperState| match s {
        SleeperState::Asleep => 0,
        SleeperState::Awake | SleeperState::Listening { .. } => 1,
        SleeperState::Investigating { .. } => 2,
        SleeperState::Alarm => 3,
    };
    group.members.iter().map(|m| &m.0.state).max_by_key(|s| rank(s)).map_or(Color::WHITE, state_color)
}

fn draw_groups(mut gizmos: Gizmos<GmGizmos>, groups: Query<(&SceneOrder, &SleepingGroup)>) {
    for (_, SleepingGroup(group)) in &groups {
        let centre = Vec2::new(group.position.0, group.position.1);
        let at = to_world(centre);
        let color = group_color(group);
        // The earshot ring, thin and faint: where a noise is diced for.
        let earshot = group.shelter.earshot_inches() * PX_PER_INCH;
        gizmos.circle_2d(Isometry2d::from_translation(at), earshot, color.with_alpha(0.45));
        gizmos.circle_2d(Isometry2d::from_translation(at), earshot - 1.0, color.with_alpha(0.25));
        // The bedding: a square for a building, a triangle for a tent, a circle in the open.
        let r = 0.5 * PX_PER_INCH;
        match group.shelter {
            crate::scene::Shelter::Open => {
                gizmos.circle_2d(Isometry2d::from_translation(at), r, color);
            }
            crate::scene::Shelter::Tent => {
                let pts = [
                    at + Vec2::new(0.0, r),
                    at + Vec2::new(-r, -r * 0.8),
                    at + Vec2::new(r, -r * 0.8),
                    at + Vec2::new(0.0, r),
                ];
                gizmos.linestrip_2d(pts, color);
            }
            crate::scene::Shelter::Building => {
                gizmos.rect_2d(Isometry2d::from_translation(at), Vec2::splat(2.0 * r), color);
            }
        }
        // One dot per member round the bedding, coloured by state.
        let n = group.members.len().max(1) as f32;
        for (i, member) in group.members.iter().enumerate() {
            draw_member(&mut gizmos, &member.0, at, i as f32 / n);
        }
    }
}

fn draw_member(gizmos: &mut Gizmos<GmGizmos>, member: &SleeperSheet, bed: Vec2, turn: f32) {
    let color = state_color(&member.state);
    let angle = turn * std::f32::consts::TAU + std::f32::consts::FRAC_PI_2;
    let spot = bed + Vec2::from_angle(angle) * 0.8 * PX_PER_INCH;
    gizmos.circle_2d(Isometry2d::from_translation(spot), 0.15 * PX_PER_INCH, color);
    if let SleeperState::Investigating { at, toward, returning } = member.state {
        let now = to_world(Vec2::new(at.0, at.1));
        let goal = if returning { bed } else { to_world(Vec2::new(toward.0, toward.1)) };
        gizmos.line_2d(spot, now, color.with_alpha(0.3));
        gizmos.circle_2d(Isometry2d::from_translation(now), 0.35 * PX_PER_INCH, color);
        gizmos.circle_2d(Isometry2d::from_translation(now), 0.25 * PX_PER_INCH, color);
        gizmos.line_2d(now, goal, color.with_alpha(0.7));
        gizmos.cross_2d(Isometry2d::from_translation(goal), 0.3 * PX_PER_INCH, color.with_alpha(0.7));
    }
    if member.state == SleeperState::Alarm {
        // A ring round the alarm-raiser's dot.
        gizmos.circle_2d(Isometry2d::from_translation(spot), 0.25 * PX_PER_INCH, color);
    }
}

/// Seconds the ripples run after a move before settling to a faint ring.
const RIPPLE_SECONDS: f32 = 6.0;

fn draw_noises(mut gizmos: Gizmos<GmGizmos>, shown: Res<ShownNoises>, rules: Res<SleepersRules>, time: Res<Time>) {
    let age = time.elapsed_secs() - shown.since;
    for noise in &shown.noises {
        let at = to_world(noise.position);
        let color = noise_color(noise, &rules.0);
        // A louder noise ripples wider: 1" for furtive movement up to 3.5" for a shout.
        let factor = noise.noise.waking_factor(&rules.0).clamp(-1, 4) as f32;
        let radius = (1.5 + 0.5 * factor) * PX_PER_INCH;
        if age < RIPPLE_SECONDS {
            for k in 0..3 {
                let phase = (age * 0.7 + k as f32 / 3.0).fract();
                gizmos.circle_2d(Isometry2d::from_translation(at), radius * phase, color.with_alpha(1.0 - phase));
            }
        } else {
            gizmos.circle_2d(Isometry2d::from_translation(at), radius * 0.5, color.with_alpha(0.35));
        }
    }
}

/// Quiet noises green, loud ones red, the alarm magenta.
fn noise_color(noise: &NoiseMade, settings: &SleepersSettings) -> Color {
    if noise.noise == crate::rules::sleepers::Noise::Alarm {
        return Color::srgb(1.0, 0.2, 0.9);
    }
    let t = ((noise.noise.waking_factor(settings) + 1) as f32 / 5.0).clamp(0.0, 1.0);
    Color::srgb(0.3 + 0.7 * t, 0.9 - 0.7 * t, 0.3)
}

fn member_line(m: &SleeperSheet, settings: &SleepersSettings, full: bool) -> String {
    let state = match m.state {
        SleeperState::Listening { moves_left } => format!("listening ({moves_left} moves left)"),
        SleeperState::Investigating { returning: true, .. } => "investigating (returning)".to_string(),
        SleeperState::Investigating { toward, .. } => {
            format!("investigating toward ({:.1}, {:.1})", toward.0, toward.1)
        }
        ref s => s.id().to_string(),
    };
    let dressing = m.dressing_rounds.map(|r| {
        let p = if full {
            crate::rules::sleepers::full_dressing(m.armour, m.dresser, r, settings)
        } else {
            crate::rules::sleepers::hasty_dressing(m.armour, r, settings)
        };
        let half = if p.half_dressed { ", half dressed −1 in melee" } else { "" };
        format!(" · dressing {}/{} rounds, wears {}{half}", p.rounds_taken, p.rounds_needed, p.armour_worn.label())
    });
    format!("{} ({}, {}): {state}{}", m.name, m.rank.id(), m.hearing.id(), dressing.unwrap_or_default())
}

fn sleepers_panel(
    mut contexts: EguiContexts,
    groups: Query<(&SceneOrder, &SleepingGroup)>,
    rules: Res<SleepersRules>,
) -> Result {
    if groups.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut groups: Vec<_> = groups.iter().collect();
    groups.sort_by_key(|g| *g.0);
    egui::Window::new("Sleepers")
        .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, -8.0])
        .default_width(420.0)
        .resizable(false)
        .show(ctx, |ui| {
            for (_, SleepingGroup(g)) in groups {
                ui.label(
                    egui::RichText::new(format!(
                        "{} — {}, earshot {}\"",
                        g.name,
                        g.shelter.id(),
                        g.shelter.earshot_inches()
                    ))
                    .strong(),
                );
                for m in &g.members {
                    ui.label(format!("   {}", member_line(&m.0, &rules.0, g.full_dressing)));
                }
            }
        });
    Ok(())
}
