//! Magic in the view (issue 22). Players see an occult being only once a spell has revealed it;
//! until then it is drawn on the GM layer alone. The GM also sees each ward's reach and, in the
//! Magic panel (menu, or `open --magic`), every magician's Magic Power as a bar (the MMP reduced
//! by tiredness and wounds as the Magic set reduces it), the spells failed today, the curses and
//! the mesmerisms. Each magician has a Cast control: a spell, what it needs (TS, target, class,
//! rank, victim), and a Cast button that orders it for the next move through
//! `document::order_cast` (logged, and undone by rewinding).

use super::layers::GmGizmos;
use super::panels::PanelState;
use super::playhead::PlayheadSystems;
use super::{PX_PER_INCH, to_world};
use crate::rules::magic::{DEMON_RANK_MAX, DEMON_RANK_MIN, Spell, VictimDistance, WardedBeing};
use crate::scene::CastOrder;
use crate::scene::magic::{MAX_ATTEMPTS_AGAIN, MAX_CLASS, MAX_GM_FACTOR, MAX_TARGET_MPU};
use crate::sim::MoveClock;
use crate::sim::magic::{MagicBook, OccultBeing, wound_of};
use crate::sim::world::{Conditions, Figure, SceneOrder, TablePosition};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::collections::HashMap;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CastState>();
    app.add_systems(Update, (draw_revealed_beings, draw_hidden_beings_and_wards).after(PlayheadSystems));
    app.add_systems(EguiPrimaryContextPass, magic_panel.run_if(super::is_gm_view));
    app.add_systems(Update, apply_cast.run_if(super::is_gm_view));
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

/// One magician's Cast control, kept between frames.
#[derive(Debug, Clone, PartialEq)]
struct CastDraft {
    /// The listed spell; none: a spell by the general rule, against `ts`.
    spell: Option<Spell>,
    /// A general spell's name: what it is "not attempted again until another day" by.
    name: String,
    /// The general rule's target in MPUs.
    ts: i32,
    /// Whom it is aimed at (a ghost, a demon, a curse's victim, the person mesmerised).
    target: String,
    /// A curse's victim who is not a figure on the table.
    victim: VictimDistance,
    /// Summon a suspected Demon with no demon named: its rank.
    demon_rank: u8,
    /// Mesmerise: the person's class as a number.
    class: i32,
    /// Mesmerise: movement or loud noise near by that the table does not show.
    nearby_noise: bool,
    /// Mesmerise: fighting near by.
    nearby_fighting: bool,
    /// "F": the GM's own factors.
    gm_factor: i32,
    /// Attempts again after a "0", each a fatigue point.
    attempts_again: u32,
}

impl Default for CastDraft {
    fn default() -> Self {
        Self {
            spell: Some(Spell::DryClothes),
            name: String::new(),
            ts: 3,
            target: String::new(),
            victim: VictimDistance::Close,
            demon_rank: DEMON_RANK_MIN,
            class: 0,
            nearby_noise: false,
            nearby_fighting: false,
            gm_factor: 0,
            attempts_again: 0,
        }
    }
}

/// What a spell reads besides the caster: a target (and whether it may be left out), a rank, a
/// victim's distance, a class and the noise and fighting near by, a TS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct SpellNeeds {
    /// Whom it is aimed at.
    target: bool,
    /// The target may be left out (a demon summoned by its rank).
    target_optional: bool,
    /// A demon's rank, when no demon is named.
    demon_rank: bool,
    /// A curse's victim's distance, when the victim is not a figure.
    victim: bool,
    /// Mesmerise's class, noise and fighting.
    mesmerism: bool,
    /// The general rule's TS.
    ts: bool,
}

/// What `spell` reads (none: the general rule), as `scene::CastOrder`'s checks want it.
fn spell_needs(spell: Option<Spell>) -> SpellNeeds {
    let none = SpellNeeds::default();
    match spell {
        None => SpellNeeds { ts: true, ..none },
        Some(Spell::SummonGhost) => SpellNeeds { target: true, ..none },
        Some(Spell::SummonSuspectedDemon) => {
            SpellNeeds { target: true, target_optional: true, demon_rank: true, ..none }
        }
        Some(Spell::LayGremlinCurse | Spell::LayEvilEyeCurse) => SpellNeeds { target: true, victim: true, ..none },
        Some(Spell::Mesmerise) => SpellNeeds { target: true, mesmerism: true, ..none },
        Some(
            Spell::DryClothes | Spell::CallSuspectedGhost | Spell::SummonSuspectedGremlin | Spell::RevealOccultPresence,
        ) => none,
    }
}

/// How the spell picker names a spell: its name in the text, or "general rule (TS)".
fn spell_text(spell: Option<Spell>) -> &'static str {
    spell.map_or("general rule (TS)", Spell::label)
}

/// The spell order `caster`'s draft asks for, holding only the fields its spell reads (its
/// `at_move` is set by `document::order_cast`). `target_is_figure`: the target is a figure on
/// the table, whose distance the cast measures (no victim distance is given for it then).
fn cast_order(caster: &str, draft: &CastDraft, target_is_figure: bool) -> CastOrder {
    let needs = spell_needs(draft.spell);
    let target = Some(draft.target.trim().to_string()).filter(|t| needs.target && !t.is_empty());
    let name = match draft.spell {
        Some(spell) => spell.label().to_string(),
        None if draft.name.trim().is_empty() => "general spell".to_string(),
        None => draft.name.trim().to_string(),
    };
    CastOrder {
        name,
        caster: caster.to_string(),
        at_move: 0,
        spell: draft.spell,
        ts: needs.ts.then_some(draft.ts),
        victim: (needs.victim && target.is_some() && !target_is_figure).then_some(draft.victim),
        demon_rank: (needs.demon_rank && target.is_none()).then_some(draft.demon_rank),
        class: needs.mesmerism.then_some(draft.class),
        nearby_noise: needs.mesmerism && draft.nearby_noise,
        nearby_fighting: needs.mesmerism && draft.nearby_fighting,
        gm_factor: draft.gm_factor,
        attempts_again: draft.attempts_again,
        target,
    }
}

/// The line the panel writes for an order placed: "Magister Ulrich casts Summon a Ghost by name
/// at Grey Lady in move 2".
fn ordered_text(order: &CastOrder) -> String {
    let at = order.target.as_ref().map(|t| format!(" at {t}")).unwrap_or_default();
    format!("{} casts {}{at} in move {}", order.caster, order.name, order.at_move)
}

/// What the Magic panel's Cast controls hold between frames.
#[derive(Resource, Debug, Default)]
struct CastState {
    /// Each magician's draft, by figure name.
    drafts: HashMap<String, CastDraft>,
    /// An order asked for this frame.
    requested: Option<CastOrder>,
    /// The last order placed, in words, or why it could not be.
    last: Option<Result<String, String>>,
}

/// One magician's Cast control: the spell, what it needs, and the Cast button (sets `request`).
fn cast_controls(
    ui: &mut egui::Ui,
    caster: &str,
    draft: &mut CastDraft,
    (figures, ghosts, demons): (&[&str], &[&str], &[&str]),
    next_move: u32,
    request: &mut Option<CastOrder>,
) {
    ui.horizontal(|ui| {
        ui.label("Spell");
        egui::ComboBox::from_id_salt(("cast-spell", caster)).selected_text(spell_text(draft.spell)).show_ui(ui, |ui| {
            ui.selectable_value(&mut draft.spell, None, spell_text(None));
            for spell in Spell::ALL {
                ui.selectable_value(&mut draft.spell, Some(spell), spell.label());
            }
        });
    });
    let needs = spell_needs(draft.spell);
    if needs.ts {
        ui.horizontal(|ui| {
            ui.label("Name");
            ui.add(egui::TextEdit::singleline(&mut draft.name).desired_width(140.0).hint_text("general spell"));
            ui.label("TS (MPUs)");
            ui.add(egui::DragValue::new(&mut draft.ts).range(0..=MAX_TARGET_MPU));
        });
    }
    if needs.target {
        let candidates: &[&str] = match draft.spell {
            Some(Spell::SummonGhost) => ghosts,
            Some(Spell::SummonSuspectedDemon) => demons,
            _ => figures,
        };
        ui.horizontal(|ui| {
            ui.label(if needs.target_optional { "Target (or none: by rank)" } else { "Target" });
            ui.add(egui::TextEdit::singleline(&mut draft.target).desired_width(140.0));
            egui::ComboBox::from_id_salt(("cast-target", caster)).selected_text("pick").show_ui(ui, |ui| {
                for name in candidates.iter().filter(|n| **n != caster || draft.spell != Some(Spell::Mesmerise)) {
                    ui.selectable_value(&mut draft.target, name.to_string(), *name);
                }
            });
        });
    }
    let target = draft.target.trim();
    if needs.demon_rank && target.is_empty() {
        ui.horizontal(|ui| {
            ui.label("Demon's rank");
            ui.add(egui::DragValue::new(&mut draft.demon_rank).range(DEMON_RANK_MIN..=DEMON_RANK_MAX));
        });
    }
    let target_is_figure = figures.contains(&target);
    if needs.victim && !target.is_empty() && !target_is_figure {
        ui.horizontal(|ui| {
            ui.label("Victim off the table");
            egui::ComboBox::from_id_salt(("cast-victim", caster)).selected_text(draft.victim.id()).show_ui(ui, |ui| {
                for v in [VictimDistance::Close, VictimDistance::WithinALeague, VictimDistance::Distant] {
                    ui.selectable_value(&mut draft.victim, v, v.id());
                }
            });
        });
    }
    if needs.mesmerism {
        ui.horizontal(|ui| {
            ui.label("Class");
            ui.add(egui::DragValue::new(&mut draft.class).range(-MAX_CLASS..=MAX_CLASS));
            ui.checkbox(&mut draft.nearby_noise, "noise near by");
            ui.checkbox(&mut draft.nearby_fighting, "fighting near by");
        });
    }
    ui.horizontal(|ui| {
        ui.label("F");
        ui.add(egui::DragValue::new(&mut draft.gm_factor).range(-MAX_GM_FACTOR..=MAX_GM_FACTOR));
        ui.label("tries again after a 0");
        ui.add(egui::DragValue::new(&mut draft.attempts_again).range(0..=MAX_ATTEMPTS_AGAIN));
        if ui
            .button("Cast")
            .on_hover_text(format!(
                "Ordered for move {next_move}: cast when that move is stepped (001 \"Spell Casting\": D6 + MMP - TS, \
                 the table read then), every roll in the dice log. Rewind undoes it."
            ))
            .clicked()
        {
            *request = Some(cast_order(caster, draft, target_is_figure));
        }
    });
}

/// The Magic panel: MP bars, failed spells, Cast controls, curses, mesmerisms, beings.
fn magic_panel(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    mut cast: ResMut<CastState>,
    book: Option<Res<MagicBook>>,
    beings: Query<&OccultBeing>,
    figures: Query<(&SceneOrder, &Figure, &Conditions)>,
    clock: Res<MoveClock>,
) -> Result {
    if !panels.show_magic {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let cast = &mut *cast;
    let mut figures: Vec<(&SceneOrder, &Figure, &Conditions)> = figures.iter().collect();
    figures.sort_by_key(|(order, _, _)| **order);
    let figure_names: Vec<&str> = figures.iter().map(|(_, f, _)| f.0.name.as_str()).collect();
    let ghosts: Vec<&str> =
        beings.iter().filter(|b| b.0.kind == WardedBeing::Ghost).map(|b| b.0.name.as_str()).collect();
    let demons: Vec<&str> =
        beings.iter().filter(|b| b.0.kind == WardedBeing::Demon).map(|b| b.0.name.as_str()).collect();
    let next_move = clock.move_number.saturating_add(1);
    let mut request = None;
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
            // The worst wound of the magician's figure reduces his MMP, as in the Magic set.
            let wound = figures.iter().find(|(_, f, _)| f.0.name == m.figure).and_then(|(_, _, c)| wound_of(&c.0));
            let magician = crate::rules::magic::Magician {
                maximum_magic_power: m.mmp,
                magic_power: m.mp.unwrap_or(m.mmp),
                tired: m.tired,
                wound,
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
            ui.push_id(("cast", m.figure.as_str()), |ui| {
                egui::CollapsingHeader::new("Cast a spell").show(ui, |ui| {
                    let draft = cast.drafts.entry(m.figure.clone()).or_default();
                    let candidates = (figure_names.as_slice(), ghosts.as_slice(), demons.as_slice());
                    cast_controls(ui, &m.figure, draft, candidates, next_move, &mut request);
                });
            });
        }
        match &cast.last {
            Some(Ok(done)) => {
                ui.label(format!("Ordered: {done}"));
            }
            Some(Err(why)) => {
                ui.colored_label(egui::Color32::from_rgb(255, 120, 120), why.as_str());
            }
            None => {}
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
    if request.is_some() {
        cast.requested = request;
    }
    Ok(())
}

/// Order the spell asked for, outside egui's pass (it changes the world and the log).
fn apply_cast(world: &mut World) {
    let Some(order) = world.resource_mut::<CastState>().requested.take() else { return };
    let result = crate::document::order_cast(world, order);
    world.resource_mut::<CastState>().last = Some(result.map(|o| ordered_text(&o)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_spell_reads_what_its_order_checks_want() {
        assert_eq!(spell_needs(None), SpellNeeds { ts: true, ..SpellNeeds::default() });
        assert_eq!(spell_needs(Some(Spell::DryClothes)), SpellNeeds::default());
        assert!(spell_needs(Some(Spell::SummonGhost)).target);
        assert!(!spell_needs(Some(Spell::SummonGhost)).target_optional);
        assert!(spell_needs(Some(Spell::SummonSuspectedDemon)).target_optional);
        assert!(spell_needs(Some(Spell::LayEvilEyeCurse)).victim);
        assert!(spell_needs(Some(Spell::Mesmerise)).mesmerism);
        assert_eq!(spell_text(None), "general rule (TS)");
        assert_eq!(spell_text(Some(Spell::SummonGhost)), "Summon a Ghost by name");
    }

    #[test]
    fn a_draft_becomes_an_order_with_only_the_fields_its_spell_reads() {
        // A listed spell that reads no target leaves the target out, whatever was typed.
        let draft = CastDraft { target: "Ann".into(), class: 4, ts: 7, ..CastDraft::default() };
        let order = cast_order("Mage", &draft, true);
        assert_eq!((order.name.as_str(), order.caster.as_str()), ("Dry Clothes", "Mage"));
        assert_eq!((order.spell, order.target, order.ts, order.class), (Some(Spell::DryClothes), None, None, None));
        // The general rule: its TS and name.
        let general = CastDraft { spell: None, name: " light ".into(), ts: 7, ..CastDraft::default() };
        let order = cast_order("Mage", &general, false);
        assert_eq!((order.name.as_str(), order.spell, order.ts), ("light", None, Some(7)));
        let unnamed = CastDraft { spell: None, ..CastDraft::default() };
        assert_eq!(cast_order("Mage", &unnamed, false).name, "general spell");
        // A curse: a figure's distance is measured; a victim off the table gives his.
        let curse = CastDraft {
            spell: Some(Spell::LayGremlinCurse),
            target: "Burgomaster".into(),
            victim: VictimDistance::Distant,
            ..CastDraft::default()
        };
        assert_eq!(cast_order("Mage", &curse, false).victim, Some(VictimDistance::Distant));
        assert_eq!(cast_order("Mage", &curse, true).victim, None);
        // A demon by its rank when none is named; by name otherwise.
        let demon = CastDraft { spell: Some(Spell::SummonSuspectedDemon), demon_rank: 4, ..CastDraft::default() };
        let order = cast_order("Mage", &demon, false);
        assert_eq!((order.target, order.demon_rank), (None, Some(4)));
        let named = CastDraft { target: "Azazel".into(), ..demon };
        let order = cast_order("Mage", &named, false);
        assert_eq!((order.target.as_deref(), order.demon_rank), (Some("Azazel"), None));
        // Mesmerise: the class, noise and fighting; the F and the tries again go on every order.
        let mesmer = CastDraft {
            spell: Some(Spell::Mesmerise),
            target: " Ann ".into(),
            class: -2,
            nearby_fighting: true,
            gm_factor: 1,
            attempts_again: 2,
            ..CastDraft::default()
        };
        let order = cast_order("Mage", &mesmer, true);
        assert_eq!((order.target.as_deref(), order.class, order.nearby_fighting), (Some("Ann"), Some(-2), true));
        assert_eq!((order.gm_factor, order.attempts_again, order.nearby_noise), (1, 2, false));
        let placed = CastOrder { at_move: 3, ..order };
        assert_eq!(ordered_text(&placed), "Mage casts Mesmerise a person at Ann in move 3");
    }
}
