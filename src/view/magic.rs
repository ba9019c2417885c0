//! Magic in the view (issue 22). Players see an occult being only once a spell has revealed it;
//! until then it is drawn on the GM layer alone. The GM also sees each ward's reach and, in the
//! Magic panel (menu, or `open --magic`), every magician's Magic Power as a bar, the spells
//! failed today, the curses and the mesmerisms.

use super::layers::GmGizmos;
use super::panels::PanelState;
use super::playhead::PlayheadSystems;
use super::{PX_PER_INCH, to_world};
use crate::sim::magic::{MagicBook, OccultBeing};
use crate::sim::world::{Figure, TablePosition};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (draw_revealed_beings, draw_hidden_beings_and_wards).after(PlayheadSystems));
    app.add_systems(EguiPrimaryContextPass, magic_panel.run_if(super::is_gm_view));
}

/// The beings' colour: a pale violet, apart from the sites' rose and the traps' amber.
const BEING_COLOUR: Color = Color::srgb(0.7, 0.55, 1.0);
/// The wards' colour: silver-white.
const WARD_COLOUR: Color = Color::srgb(0.85, 0.9, 0.95);

/// A being's mark: a diamond about its position.
fn diamond(at: Vec2) -> [Vec2; 5] {
    let r = 0.5 * PX_PER_INCH;
    let (up, right) = (Vec2::new(0.0, r), Vec2::new(r, 0.0));
    [at + up, at + right, at - up, at - right, at + up]
}

/// Public layer: the beings a spell has revealed.
fn draw_revealed_beings(mut gizmos: Gizmos, beings: Query<(&TablePosition, &OccultBeing)>) {
    for (pos, being) in &beings {
        if being.0.revealed {
            gizmos.linestrip_2d(diamond(to_world(pos.0)), BEING_COLOUR);
        }
    }
}

/// GM layer: the hidden beings (dashed look: a smaller diamond inside) and every ward's reach.
fn draw_hidden_beings_and_wards(
    mut gizmos: Gizmos<GmGizmos>,
    beings: Query<(&TablePosition, &OccultBeing)>,
    figures: Query<(&TablePosition, &Figure)>,
    book: Option<Res<MagicBook>>,
) {
    for (pos, being) in &beings {
        if being.0.revealed {
            continue;
        }
        let at = to_world(pos.0);
        gizmos.linestrip_2d(diamond(at), BEING_COLOUR.with_alpha(0.6));
        gizmos.circle_2d(Isometry2d::from_translation(at), 0.2 * PX_PER_INCH, BEING_COLOUR.with_alpha(0.6));
    }
    let Some(book) = book else { return };
    for ward in &book.magic.wards {
        let at = match (&ward.carried_by, ward.position) {
            (Some(by), _) => figures.iter().find(|(_, f)| f.0.name == *by).map(|(p, _)| p.0),
            (None, Some(p)) => Some(Vec2::new(p.0, p.1)),
            (None, None) => None,
        };
        let Some(at) = at else { continue };
        let radius = ward.kind.radius_in() * PX_PER_INCH;
        gizmos.circle_2d(Isometry2d::from_translation(to_world(at)), radius, WARD_COLOUR.with_alpha(0.5));
    }
}

/// A magician's line: "Magister Ulrich: MP 3 / 5".
fn power_text(name: &str, mp: i32, maximum: i32) -> String {
    format!("{name}: MP {mp} / {maximum}")
}

/// The Magic panel: MP bars, failed spells, curses, mesmerisms, beings.
fn magic_panel(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    book: Option<Res<MagicBook>>,
    beings: Query<&OccultBeing>,
) -> Result {
    if !panels.show_magic {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Magic").open(&mut open).default_pos([8.0, 120.0]).default_width(420.0).show(ctx, |ui| {
        let Some(book) = book.as_ref() else {
            ui.label("No magic in this scene.");
            return;
        };
        let magic = &book.magic;
        ui.strong("Magicians");
        if magic.magicians.is_empty() {
            ui.label("No magicians in this scene.");
        }
        for m in &magic.magicians {
            let magician = crate::rules::magic::Magician {
                maximum_magic_power: m.mmp,
                magic_power: m.mp.unwrap_or(m.mmp),
                tired: m.tired,
                wound: None,
                evil_eye: magic.evil_eye_on(&m.figure),
            };
            let maximum = magician.maximum_now(&book.settings);
            let mp = magician.magic_power_now(&book.settings);
            let share = if maximum > 0 { mp as f32 / maximum as f32 } else { 0.0 };
            ui.add(egui::ProgressBar::new(share).text(power_text(&m.figure, mp, maximum)));
            if !m.failed.is_empty() {
                let failed: Vec<&str> = m.failed.iter().map(|f| f.spell.as_str()).collect();
                ui.weak(format!("   failed today: {}", failed.join(", ")));
            }
        }
        ui.separator();
        ui.strong("Curses and mesmerisms");
        for c in &magic.curses {
            let rank = c.gremlin_rank.map(|r| format!(" (rank {r})")).unwrap_or_default();
            ui.label(format!("{}: {}{rank}, laid by {} on day {}", c.victim, c.curse.id(), c.by, c.day));
        }
        for m in &magic.mesmerised {
            ui.label(format!("{}: mesmerised by {} on day {}, prompt days {}", m.figure, m.by, m.day, m.prompt_days));
        }
        ui.separator();
        ui.strong("Occult beings");
        for b in &beings {
            let state = if b.0.revealed { "revealed" } else { "hidden" };
            ui.label(format!("{}: {} ({state})", b.0.name, b.0.kind.id()));
        }
    });
    if !open {
        panels.show_magic = false;
    }
    Ok(())
}
