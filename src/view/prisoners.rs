//! Prisoners, runaways and berserkers in the view (issue 19). Players see the figures (tokens.rs
//! draws them); everything here is the GM's, on the GM layer: a badge for each binding (hands,
//! feet, gag), a ring for a berserker's rage (a cross when he has collapsed), a tick a fatigue
//! point, a line from each guard to the runaway he runs down (doubled while they struggle), and
//! a cross where a runaway escaped. The Prisoners panel, toggled from the menu or opened with
//! `open --prisoners`, lists the escorts, the prisoners' bonds and runs, the berserkers and
//! everyone's fatigue.

use super::layers::GmGizmos;
use super::panels::PanelState;
use super::playhead::{PlayheadSystems, Shown};
use super::{PX_PER_INCH, to_world};
use crate::rules::prisoners::BerserkState;
use crate::scene::RunStatus;
use crate::sim::world::{Figure, SceneOrder, TablePosition};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    // Bonds, rage, fatigue and chases are the GM's: GM layer only.
    app.add_systems(Update, draw_badges_and_chases.after(PlayheadSystems));
    app.add_systems(EguiPrimaryContextPass, prisoners_panel.run_if(super::is_gm_view));
}

/// Bound hands: a rope brown.
const HANDS_COLOUR: Color = Color::srgb(0.85, 0.55, 0.2);
/// Bound feet: a paler brown.
const FEET_COLOUR: Color = Color::srgb(0.95, 0.8, 0.45);
/// A gag: a cloth white.
const GAG_COLOUR: Color = Color::srgb(0.95, 0.95, 0.95);
/// Rage: blood red.
const RAGE_COLOUR: Color = Color::srgb(0.9, 0.1, 0.1);
/// Fatigue ticks: grey.
const FATIGUE_COLOUR: Color = Color::srgb(0.7, 0.7, 0.7);
/// A chase: a guard's line to his runaway.
const CHASE_COLOUR: Color = Color::srgb(1.0, 0.85, 0.1);

/// Most fatigue ticks drawn under a figure (the panel gives the number).
const MAX_TICKS: u32 = 10;

fn draw_badges_and_chases(mut gizmos: Gizmos<GmGizmos>, figures: Query<(&TablePosition, Option<&Shown>, &Figure)>) {
    let at_of = |pos: &TablePosition, shown: Option<&Shown>| to_world(shown.map_or(pos.0, |s| s.at));
    for (pos, shown, figure) in &figures {
        let sheet = &figure.0;
        let at = at_of(pos, shown);
        // Bindings: three small squares above the figure, left to right hands, feet, gag.
        let badge = 0.22 * PX_PER_INCH;
        for (k, (on, colour)) in
            [(sheet.bound.hands, HANDS_COLOUR), (sheet.bound.feet, FEET_COLOUR), (sheet.bound.gag, GAG_COLOUR)]
                .into_iter()
                .enumerate()
        {
            if on {
                let spot = at + Vec2::new((k as f32 - 1.0) * 1.3 * badge, 0.75 * PX_PER_INCH);
                gizmos.rect_2d(Isometry2d::from_translation(spot), Vec2::splat(badge), colour);
            }
        }
        // Rage: a double ring while raging; a cross once collapsed.
        match sheet.berserker.as_ref().map(|b| b.state) {
            Some(BerserkState::Raging) => {
                gizmos.circle_2d(Isometry2d::from_translation(at), 0.7 * PX_PER_INCH, RAGE_COLOUR);
                gizmos.circle_2d(Isometry2d::from_translation(at), 0.6 * PX_PER_INCH, RAGE_COLOUR.with_alpha(0.6));
            }
            Some(BerserkState::Collapsed) => {
                gizmos.cross_2d(Isometry2d::from_translation(at), 0.6 * PX_PER_INCH, RAGE_COLOUR);
            }
            Some(BerserkState::Calm) | None => {}
        }
        // Fatigue: a tick a point under the figure.
        let ticks = sheet.fatigue.min(MAX_TICKS);
        for t in 0..ticks {
            let x = at.x + (t as f32 - (ticks as f32 - 1.0) / 2.0) * 0.15 * PX_PER_INCH;
            let y = at.y - 0.75 * PX_PER_INCH;
            gizmos.line_2d(Vec2::new(x, y), Vec2::new(x, y - 0.2 * PX_PER_INCH), FATIGUE_COLOUR);
        }
        // A runaway: the line from his guard, doubled in the struggle; a cross where he escaped.
        let Some(run) = &sheet.prisoner.run else { continue };
        if run.status == RunStatus::Escaped {
            gizmos.cross_2d(Isometry2d::from_translation(at), 0.5 * PX_PER_INCH, CHASE_COLOUR.with_alpha(0.6));
            continue;
        }
        gizmos.line_2d(at, to_world(Vec2::new(run.toward.0, run.toward.1)), CHASE_COLOUR.with_alpha(0.25));
        let Some(guard) = &run.pursued_by else { continue };
        let Some((gpos, gshown, _)) = figures.iter().find(|(_, _, f)| f.0.name == *guard) else { continue };
        let from = at_of(gpos, gshown);
        gizmos.line_2d(from, at, CHASE_COLOUR);
        if run.status == RunStatus::Caught {
            let side = (at - from).perp().normalize_or_zero() * 2.0;
            gizmos.line_2d(from + side, at + side, CHASE_COLOUR);
        }
    }
}

/// A figure's bindings: "hands, gag", or "free".
fn bonds_text(bound: crate::rules::prisoners::Bonds) -> String {
    let on: Vec<&str> = [(bound.hands, "hands"), (bound.feet, "feet"), (bound.gag, "gag")]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
    if on.is_empty() { "free".to_string() } else { on.join(", ") }
}

/// A prisoner's line: "Wat (follower): hands; 1 loosening; fugitive, run down by Brand".
fn prisoner_text(f: &crate::scene::Figure) -> String {
    let rank = f.prisoner_rank.unwrap_or_default().label();
    let mut parts = vec![format!("{} ({rank}): {}", f.name, bonds_text(f.bound))];
    let p = &f.prisoner;
    if p.loosenings == 1 {
        parts.push("1 loosening".to_string());
    } else if p.loosenings > 1 {
        parts.push(format!("{} loosenings", p.loosenings));
    }
    if p.given_up {
        parts.push("given up on his bonds".to_string());
    }
    if let Some(run) = &p.run {
        let mut s = run.status.id().to_string();
        if let Some(g) = &run.pursued_by {
            s.push_str(&format!(", {} {g}", if run.status == RunStatus::Caught { "held by" } else { "run down by" }));
        }
        if run.knocked_down && run.status == RunStatus::Caught {
            s.push_str(", knocked down");
        }
        parts.push(s);
    }
    if f.fatigue > 0 {
        parts.push(format!("fatigue {}", f.fatigue));
    }
    parts.join("; ")
}

fn prisoners_panel(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    figures: Query<(&SceneOrder, &Figure)>,
) -> Result {
    if !panels.show_prisoners {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut figures: Vec<(&SceneOrder, &Figure)> = figures.iter().collect();
    figures.sort_by_key(|(order, _)| **order);
    let mut open = true;
    egui::Window::new("Prisoners").open(&mut open).default_pos([8.0, 96.0]).default_width(520.0).show(ctx, |ui| {
        egui::ScrollArea::vertical().max_height(480.0).show(ui, |ui| {
            ui.strong("Guards");
            let guards: Vec<&crate::scene::Figure> =
                figures.iter().map(|(_, f)| &f.0).filter(|f| f.guard.is_some()).collect();
            if guards.is_empty() {
                ui.label("No guards in this scene.");
            }
            for g in guards {
                let Some(role) = &g.guard else { continue };
                let mut line = format!("{}: {}", g.name, role.prisoners.join(", "));
                if role.expert {
                    line.push_str("; expert");
                }
                if g.whip {
                    line.push_str("; whip");
                }
                if role.sides_blocked > 0 {
                    line.push_str(&format!("; {} side(s) blocked", role.sides_blocked));
                }
                if g.fatigue > 0 {
                    line.push_str(&format!("; fatigue {}", g.fatigue));
                }
                ui.label(line);
            }
            ui.separator();
            ui.strong("Prisoners");
            for (_, f) in figures.iter().filter(|(_, f)| f.0.is_prisoner()) {
                ui.label(prisoner_text(&f.0));
            }
            ui.separator();
            ui.strong("Berserkers");
            for (_, f) in &figures {
                let Some(b) = &f.0.berserker else { continue };
                let point = b.exhaustion_point.map_or("the house rule's".to_string(), |p| p.to_string());
                ui.label(format!(
                    "{}: {}, fatigue {}, collapses at {point}{}",
                    f.0.name,
                    b.state.id(),
                    f.0.fatigue,
                    if b.trained { "" } else { " (untrained)" }
                ));
            }
        });
    });
    if !open {
        panels.show_prisoners = false;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::prisoners::Bonds;

    #[test]
    fn a_prisoner_reads_with_his_bonds_and_run() {
        assert_eq!(bonds_text(Bonds::NONE), "free");
        assert_eq!(bonds_text(Bonds { hands: true, feet: false, gag: true }), "hands, gag");
        let scene = crate::sim::testing::scene_from_str(
            "(version: 1, table: (width: 20, height: 20), figures: [
               (name: \"Brand\", position: (1, 1), guard: (prisoners: [\"Wat\"])),
               (name: \"Wat\", side: \"outlaws\", position: (2, 2), bound: (hands: true), fatigue: 2,
                prisoner: (loosenings: 1, run: (status: fugitive, toward: (0, 2), pursued_by: \"Brand\")))])",
        );
        assert_eq!(
            prisoner_text(&scene.figures[1]),
            "Wat (follower): hands; 1 loosening; fugitive, run down by Brand; fatigue 2"
        );
    }
}
