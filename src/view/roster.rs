//! The GM's roster (issue 21): every figure's injuries with their healing state (days to heal,
//! the deductions now, infection, festering, treatment), and a control that rests the scene a
//! number of days (`tabula rest` in the GM view). GM-only; on the projector a figure down
//! (unconscious, apparently dead, left for dead, dead) is a greyed token, nothing more.

use super::panels::PanelState;
use crate::rules::injuries::{HealingState, Penalties};
use crate::scene::{Condition, ConditionKind};
use crate::sim::world::{Conditions, Figure, SceneOrder};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RestDays>();
    app.add_systems(EguiPrimaryContextPass, roster.run_if(super::is_gm_view));
    app.add_systems(Update, apply_rest.run_if(super::is_gm_view));
}

/// The days the roster's rest control asks for, and a rest asked for this frame.
#[derive(Resource, Debug)]
struct RestDays {
    days: u32,
    requested: Option<u32>,
}

impl Default for RestDays {
    fn default() -> Self {
        Self { days: 1, requested: None }
    }
}

/// Whether a condition puts its figure down: players see it lying there, not why.
pub fn is_down(condition: &Condition) -> bool {
    matches!(
        condition.kind,
        ConditionKind::Unconscious
            | ConditionKind::ApparentlyDead
            | ConditionKind::LeftForDead
            | ConditionKind::MortallyWounded
            | ConditionKind::OutOfAction
            | ConditionKind::Dead
    )
}

/// How the roster says a deduction: "−2\" move, −1 melee, −1 firing", or "none".
fn penalties_text(p: Penalties) -> String {
    let mut parts = Vec::new();
    if p.move_inches != 0 {
        parts.push(format!("{}\" move", p.move_inches));
    }
    if p.melee != 0 {
        parts.push(format!("{} melee", p.melee));
    }
    if p.firing != 0 {
        parts.push(format!("{} firing", p.firing));
    }
    if parts.is_empty() { "no deductions".into() } else { parts.join(", ") }
}

/// One line for a healing injury: stage, days, deductions now, infection and treatment.
pub fn healing_text(h: &HealingState) -> String {
    let mut parts = vec![format!("{} {}", h.kind.label(), h.stage.id())];
    parts.push(format!("{} of {} days left", h.days_left, h.total_days));
    if let Some(d) = h.dies_in_days {
        parts.push(format!("dies in {d} days"));
    }
    parts.push(penalties_text(h.penalties()));
    match &h.festering {
        Some(f) => {
            let mut s = format!("festering ({})", f.row.id());
            if let Some(d) = f.dies_in_days {
                s.push_str(&format!(", dies in {d} days"));
            }
            if let Some(d) = f.heals_in_days {
                s.push_str(&format!(", holy water heals it in {d} days"));
            }
            parts.push(s);
        }
        None if h.treated.healing_balm => parts.push("balm: no infection".into()),
        None if h.infection_checks_left > 0 => parts.push(format!("{} infection checks left", h.infection_checks_left)),
        None => {}
    }
    let t = &h.treated;
    let mut treated = Vec::new();
    if t.pain_soothing_salve {
        treated.push("pain-soothing salve".to_string());
    }
    if t.burn_salve {
        treated.push("burn salve".to_string());
    }
    if t.rest_days > 0 {
        treated.push(format!("{} days' rest", t.rest_days));
    }
    if t.healer_days > 0 {
        treated.push(format!("healer {} days", t.healer_days));
    }
    if !treated.is_empty() {
        parts.push(format!("treated: {}", treated.join(", ")));
    }
    if h.permanent != Penalties::NONE {
        parts.push(format!("for life: {}", penalties_text(h.permanent)));
    }
    parts.join("; ")
}

fn roster(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    mut rest: ResMut<RestDays>,
    figures: Query<(&SceneOrder, &Figure, &Conditions)>,
) -> Result {
    if !panels.show_roster {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Roster").open(&mut open).default_pos([8.0, 56.0]).default_width(520.0).show(ctx, |ui| {
        ui.horizontal(|ui| {
            ui.label("Rest");
            ui.add(egui::DragValue::new(&mut rest.days).range(1..=crate::sim::MAX_REST_DAYS));
            ui.label("days");
            if ui
                .button("Rest")
                .on_hover_text(
                    "Healing, infection and deaths day by day (001 \"Wound Recoveries\", 000 \"Infections\"), \
                     with the scene's treatment orders; every roll goes to the dice log. Rewind undoes it.",
                )
                .clicked()
            {
                rest.requested = Some(rest.days);
            }
        });
        ui.separator();
        let mut rows: Vec<(&SceneOrder, &Figure, &Conditions)> = figures.iter().collect();
        rows.sort_by_key(|(order, _, _)| **order);
        egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
            let mut any = false;
            for (_, figure, conditions) in rows {
                if conditions.0.is_empty() {
                    continue;
                }
                any = true;
                let down = conditions.0.iter().any(is_down);
                let title = if down { format!("{} (down)", figure.0.name) } else { figure.0.name.clone() };
                ui.strong(title);
                for c in &conditions.0 {
                    let line = match &c.healing {
                        Some(h) => format!("{}: {}", c.name, healing_text(h)),
                        None => format!("{} ({})", c.name, c.kind.id()),
                    };
                    ui.label(format!("  {line}"));
                }
            }
            if !any {
                ui.label("No figure is hurt.");
            }
        });
    });
    if !open {
        panels.show_roster = false;
    }
    Ok(())
}

/// Rest the days asked for, outside egui's pass (it rebuilds the world).
fn apply_rest(world: &mut World) {
    let Some(days) = world.resource_mut::<RestDays>().requested.take() else { return };
    if let Err(e) = crate::document::rest(world, days)
        && let Some(mut document) = world.get_resource_mut::<crate::document::Document>()
    {
        document.message = Some(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::injuries::{PenaltySchedule, WoundKind, WoundRecovery};

    #[test]
    fn a_healing_wound_reads_its_days_and_deductions() {
        let h = HealingState::new(WoundKind::Wound, PenaltySchedule::Recovery(WoundRecovery::SoreWounded), 21);
        let text = healing_text(&h);
        assert!(text.contains("21 of 21 days left"), "{text}");
        assert!(text.contains("-3\" move, -3 melee, -3 firing"), "{text}");
    }

    #[test]
    fn only_the_down_are_down() {
        let c = |kind| Condition {
            name: "x".into(),
            kind,
            move_penalty: 0.0,
            moves_left: None,
            immobile: false,
            me_and_mo: 0,
            healing: None,
        };
        assert!(is_down(&c(ConditionKind::ApparentlyDead)));
        assert!(is_down(&c(ConditionKind::Unconscious)));
        assert!(!is_down(&c(ConditionKind::Wounded)));
        assert!(!is_down(&c(ConditionKind::Burns)));
    }
}
