//! The GM's controls: the clock, stepping moves, and the dice log with every modifier.

use crate::sim::{EventLog, MoveClock};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StepRequest>();
    app.add_systems(EguiPrimaryContextPass, controls);
    app.add_systems(Update, (keyboard, apply_step).chain());
}

/// Moves asked for and not yet resolved.
#[derive(Resource, Default)]
struct StepRequest(u32);

fn keyboard(keys: Res<ButtonInput<KeyCode>>, mut request: ResMut<StepRequest>) {
    if keys.just_pressed(KeyCode::Space) {
        request.0 += 1;
    }
}

fn apply_step(world: &mut World) {
    let n = std::mem::take(&mut world.resource_mut::<StepRequest>().0);
    for _ in 0..n {
        crate::sim::step_move(world);
    }
}

fn controls(mut contexts: EguiContexts, clock: Res<MoveClock>, log: Res<EventLog>, mut request: ResMut<StepRequest>) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Window::new("Table")
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .default_width(420.0)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(format!("Move {} ({} rounds a move)", clock.move_number, clock.rounds_per_move));
            if ui.button("Step move  [Space]").clicked() {
                request.0 += 1;
            }
            ui.separator();
            ui.heading("Dice log");
            egui::ScrollArea::vertical().max_height(760.0).show(ui, |ui| {
                for e in log.events.iter().rev().take(300) {
                    ui.label(egui::RichText::new(format!("m{} {} · {} · {} → {}", e.move_number, e.system, e.subject, e.event, e.outcome)).strong());
                    for r in &e.rolls {
                        let faces: Vec<String> = r.faces.iter().map(|f| f.to_string()).collect();
                        let mods: Vec<String> = r.modifiers.iter().map(|m| format!("{:+} {}", m.value, m.reason)).collect();
                        let target = r.target.map(|t| format!(" vs {t}")).unwrap_or_default();
                        let secret = if r.secret { " (MD, secret)" } else { "" };
                        ui.label(format!("   {} [{}] {} = {}{}{}", r.dice, faces.join(","), mods.join(" "), r.total, target, secret));
                    }
                }
            });
        });
    Ok(())
}
