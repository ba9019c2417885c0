//! Temptation sites and decisions in the view (issue 23). Players see each site as a place: a
//! sign at its position (its name is the label every named entity gets, draw.rs). The GM sees
//! more: the ring of its reach and who is inside. Two GM panels, toggled from the menu: the
//! Temptations panel (the sites, who is inside and for how long, every figure's qualities,
//! weaknesses and money) and the Decide panel (a decision diced for a figure between moves, as a
//! scene's `decide` order would dice it, through `document::decide`).

use super::layers::GmGizmos;
use super::panels::PanelState;
use super::playhead::{PlayheadSystems, Shown};
use super::{PX_PER_INCH, to_world};
use crate::rules::decisions::TemptationSettings;
use crate::rules::decisions::{
    CAUSATION_MAX, DecisionOption, DecisionResult, KnownQualities, OptionScore, Quality, QualityWeight, Relevance,
};
use crate::scene::temptations::MAX_DECISION_OPTIONS;
use crate::sim::temptations::{TemptationRules, TemptationSite, Tempting};
use crate::sim::world::{Figure, SceneOrder, TablePosition};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DecideState>();
    // The sign is for everyone; reach rings and who is inside are the GM's.
    app.add_systems(Update, (draw_signs, draw_reach_and_inside).after(PlayheadSystems));
    app.add_systems(EguiPrimaryContextPass, (temptations_panel, decide_panel).chain().run_if(super::is_gm_view));
    app.add_systems(Update, apply_decide.run_if(super::is_gm_view));
}

/// The sites' colour: a warm rose, apart from the sleepers' state colours and the traps' amber.
const SITE_COLOUR: Color = Color::srgb(1.0, 0.45, 0.55);

/// A small signboard on a post at each site, on the public layer: players see the place.
fn draw_signs(mut gizmos: Gizmos, sites: Query<&TablePosition, With<TemptationSite>>) {
    for pos in &sites {
        let at = to_world(pos.0);
        let post = 0.45 * PX_PER_INCH;
        let board = at + Vec2::new(0.0, 0.25 * PX_PER_INCH);
        gizmos.line_2d(at - Vec2::new(0.0, post), board, SITE_COLOUR);
        gizmos.rect_2d(
            Isometry2d::from_translation(board),
            Vec2::new(0.9 * PX_PER_INCH, 0.4 * PX_PER_INCH),
            SITE_COLOUR,
        );
    }
}

/// GM layer: each site's reach, and a ring round every figure inside a site with a line to it.
fn draw_reach_and_inside(
    mut gizmos: Gizmos<GmGizmos>,
    sites: Query<(&TablePosition, &TemptationSite)>,
    figures: Query<(&TablePosition, Option<&Shown>, &Tempting), With<Figure>>,
    rules: Option<Res<TemptationRules>>,
) {
    let settings = rules.map(|r| r.0).unwrap_or_default();
    for (pos, site) in &sites {
        let at = to_world(pos.0);
        let reach = site.0.reach_in(&settings) * PX_PER_INCH;
        gizmos.circle_2d(Isometry2d::from_translation(at), reach, SITE_COLOUR.with_alpha(0.5));
        gizmos.circle_2d(Isometry2d::from_translation(at), reach - 1.5, SITE_COLOUR.with_alpha(0.2));
    }
    for (pos, shown, tempting) in &figures {
        let Some(inside) = tempting.inside() else { continue };
        let Some((site_pos, _)) = sites.iter().find(|(_, s)| s.0.name == inside.site) else { continue };
        let at = to_world(shown.map_or(pos.0, |s| s.at));
        gizmos.circle_2d(Isometry2d::from_translation(at), 0.6 * PX_PER_INCH, SITE_COLOUR);
        gizmos.line_2d(at, to_world(site_pos.0), SITE_COLOUR.with_alpha(0.6));
    }
}

/// The qualities in EIMGILD order by abbreviation, "?" for those not known yet:
/// "Ey 4 Ie ? Ms 5 ...".
fn qualities_text(q: &KnownQualities) -> String {
    Quality::ALL
        .iter()
        .map(|&quality| match q.get(quality) {
            Some(v) => format!("{} {v}", quality.abbreviation()),
            None => format!("{} ?", quality.abbreviation()),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// 000's note on what two qualities may feed, shown on hover over a figure's qualities: a
/// reminder, the text gives no numbers.
fn influences_text() -> String {
    let notes: Vec<String> =
        Quality::ALL.iter().filter_map(|q| q.influences().map(|i| format!("{} {i}", q.abbreviation()))).collect();
    format!("{} (000 EIMGILD ratings; no numbers given)", notes.join("; "))
}

/// Who is inside a site and for how long: "Ann (2 moves in, 3 to stay)".
fn inside_text(name: &str, inside: &crate::scene::Inside) -> String {
    let moves = if inside.moves == 1 { "1 move in".to_string() } else { format!("{} moves in", inside.moves) };
    match inside.moves_left {
        Some(left) => format!("{name} ({moves}, {left} to stay)"),
        None => format!("{name} ({moves}, dices to leave)"),
    }
}

/// A site's line: "Tavern: Low Drinking Tavern, reach 3\", GM factor -1, 2 a move".
fn site_text(site: &crate::scene::TemptationSite, settings: &TemptationSettings) -> String {
    let house = if site.reach_is_house_rule() { crate::rules::house_rules::HOUSE_RULE_TAG } else { "" };
    let mut s = format!("{}: {}, reach {}\"{house}", site.name, site.kind.label(), site.reach_in(settings));
    if site.gm_factor != 0 {
        s.push_str(&format!(", GM factor {}", site.gm_factor));
    }
    if site.cost_per_move != 0 {
        s.push_str(&format!(", {} a move", site.cost_per_move));
    }
    s
}

/// A figure's line: qualities, weaknesses, money and where it is.
fn figure_text(f: &crate::scene::Figure, state: &crate::scene::TemptationState) -> String {
    let mut parts = vec![format!("{}: {}", f.name, qualities_text(&f.qualities))];
    if !f.weaknesses.is_empty() {
        parts.push(f.weaknesses.iter().map(|w| w.label()).collect::<Vec<_>>().join(", "));
    }
    if let Some(money) = f.money {
        parts.push(format!("money {money}"));
    }
    if let Some(inside) = &state.inside {
        parts.push(format!("inside {}", inside.site));
    }
    parts.join("; ")
}

/// An option diced: "go: 9.5, faces 4-9" (or "no face" when its share rounds to none).
fn score_text(score: &OptionScore) -> String {
    let faces = match score.faces {
        Some(f) if f.low == f.high => format!("face {}", f.low),
        Some(f) => format!("faces {}-{}", f.low, f.high),
        None => "no face".to_string(),
    };
    format!("{}: {}, {faces}", score.name, score.total())
}

fn temptations_panel(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    sites: Query<(&SceneOrder, &TemptationSite)>,
    figures: Query<(&SceneOrder, &Figure, &Tempting)>,
    rules: Option<Res<TemptationRules>>,
) -> Result {
    if !panels.show_temptations {
        return Ok(());
    }
    let settings = rules.map(|r| r.0).unwrap_or_default();
    let ctx = contexts.ctx_mut()?;
    let mut sites: Vec<(&SceneOrder, &TemptationSite)> = sites.iter().collect();
    sites.sort_by_key(|(order, _)| **order);
    let mut figures: Vec<(&SceneOrder, &Figure, &Tempting)> = figures.iter().collect();
    figures.sort_by_key(|(order, _, _)| **order);
    let mut open = true;
    egui::Window::new("Temptations").open(&mut open).default_pos([8.0, 96.0]).default_width(520.0).show(ctx, |ui| {
        egui::ScrollArea::vertical().max_height(480.0).show(ui, |ui| {
            ui.strong("Sites");
            if sites.is_empty() {
                ui.label("No temptation sites in this scene.");
            }
            for (_, site) in &sites {
                ui.label(site_text(&site.0, &settings));
                for (_, figure, tempting) in &figures {
                    if let Some(inside) = tempting.inside().filter(|i| i.site == site.0.name) {
                        ui.label(format!("   inside: {}", inside_text(&figure.0.name, inside)));
                    }
                }
            }
            ui.separator();
            ui.strong("Figures");
            ui.weak("Qualities not known yet (?) are diced when first needed, logged and kept.");
            for (_, figure, tempting) in &figures {
                ui.label(figure_text(&figure.0, &tempting.0)).on_hover_text(influences_text());
            }
        });
    });
    if !open {
        panels.show_temptations = false;
    }
    Ok(())
}

/// One option as the GM enters it: each quality doubled, as it is, halved or not counted.
#[derive(Debug, Clone, Default)]
struct OptionDraft {
    name: String,
    causation: u8,
    charmer_rating: u8,
    /// In EIMGILD order ([`Quality::ALL`]).
    relevance: [Option<Relevance>; 7],
}

impl OptionDraft {
    /// The option as the decision dice take it.
    fn option(&self) -> DecisionOption {
        DecisionOption {
            name: self.name.trim().to_string(),
            causation: self.causation,
            charmer_rating: self.charmer_rating,
            qualities: Quality::ALL
                .iter()
                .zip(self.relevance)
                .filter_map(|(&quality, r)| r.map(|relevance| QualityWeight { quality, relevance }))
                .collect(),
        }
    }
}

/// The next relevance a quality's button cycles to: not counted, doubled, as it is, halved.
fn next_relevance(r: Option<Relevance>) -> Option<Relevance> {
    match r {
        None => Some(Relevance::Doubled),
        Some(Relevance::Doubled) => Some(Relevance::AsIs),
        Some(Relevance::AsIs) => Some(Relevance::Halved),
        Some(Relevance::Halved) => None,
    }
}

/// A quality's button text: "Ly x2", "Ly", "Ly /2", or "(Ly)" when it does not count.
fn relevance_text(quality: Quality, r: Option<Relevance>) -> String {
    let q = quality.abbreviation();
    match r {
        None => format!("({q})"),
        Some(Relevance::Doubled) => format!("{q} x2"),
        Some(Relevance::AsIs) => q.to_string(),
        Some(Relevance::Halved) => format!("{q} /2"),
    }
}

/// A decision asked for: (decider, decision, options).
type DecideRequest = (String, String, Vec<DecisionOption>);

/// What the Decide panel holds between frames.
#[derive(Resource, Debug)]
struct DecideState {
    decider: String,
    decision: String,
    options: Vec<OptionDraft>,
    /// "Roll" pressed this frame: diced outside egui's pass.
    requested: Option<DecideRequest>,
    /// The last decision diced: (decider, decision, result).
    last: Option<(String, String, DecisionResult)>,
    /// Why the last roll was refused.
    error: Option<String>,
}

impl Default for DecideState {
    fn default() -> Self {
        Self {
            decider: String::new(),
            decision: String::new(),
            options: vec![OptionDraft::default(), OptionDraft::default()],
            requested: None,
            last: None,
            error: None,
        }
    }
}

fn decide_panel(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    mut state: ResMut<DecideState>,
    figures: Query<(&SceneOrder, &Figure)>,
) -> Result {
    if !panels.show_decide {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut figures: Vec<(&SceneOrder, &Figure)> = figures.iter().collect();
    figures.sort_by_key(|(order, _)| **order);
    let state = &mut *state;
    let mut open = true;
    egui::Window::new("Decide").open(&mut open).default_pos([560.0, 96.0]).default_width(560.0).show(ctx, |ui| {
        ui.horizontal(|ui| {
            ui.label("Decider");
            let shown = if state.decider.is_empty() { "(pick a figure)" } else { state.decider.as_str() };
            egui::ComboBox::from_id_salt("decide-decider").selected_text(shown).show_ui(ui, |ui| {
                for (_, figure) in &figures {
                    let name = figure.0.name.as_str();
                    ui.selectable_value(&mut state.decider, name.to_string(), name);
                }
            });
            ui.label("Decision");
            ui.add(egui::TextEdit::singleline(&mut state.decision).desired_width(200.0));
        });
        if let Some((_, figure)) = figures.iter().find(|(_, f)| f.0.name == state.decider) {
            ui.weak(format!("{}  (? is diced when rolled, logged and kept)", qualities_text(&figure.0.qualities)));
        }
        ui.separator();
        ui.weak(
            "Each option: causation 0-5, a Charmer's rating, and the qualities that favour it; click a \
             quality to cycle doubled (exactly one in all), as it is, halved, not counted.",
        );
        let mut remove = None;
        let count = state.options.len();
        for (i, option) in state.options.iter_mut().enumerate() {
            ui.push_id(("decide-option", i), |ui| {
                ui.horizontal(|ui| {
                    ui.label(format!("{}.", i + 1));
                    ui.add(egui::TextEdit::singleline(&mut option.name).desired_width(140.0).hint_text("option"));
                    ui.label("causation");
                    ui.add(egui::DragValue::new(&mut option.causation).range(0..=CAUSATION_MAX));
                    ui.label("charmer");
                    ui.add(egui::DragValue::new(&mut option.charmer_rating).range(0..=20));
                    if count > 1 && ui.small_button("Remove").clicked() {
                        remove = Some(i);
                    }
                });
                ui.horizontal(|ui| {
                    ui.add_space(16.0);
                    for (k, quality) in Quality::ALL.iter().enumerate() {
                        let text = relevance_text(*quality, option.relevance[k]);
                        if ui.small_button(text).on_hover_text(quality.reason()).clicked() {
                            option.relevance[k] = next_relevance(option.relevance[k]);
                        }
                    }
                });
            });
        }
        if let Some(i) = remove {
            state.options.remove(i);
        }
        ui.horizontal(|ui| {
            if state.options.len() < MAX_DECISION_OPTIONS && ui.button("Add option").clicked() {
                state.options.push(OptionDraft::default());
            }
            let ready = !state.decider.is_empty();
            if ui
                .add_enabled(ready, egui::Button::new("Roll"))
                .on_hover_text(
                    "One D10 between the options (000 \"To arrive at a decision using card characters\"), \
                     logged as a decide order is. Rewind undoes it.",
                )
                .clicked()
            {
                let options = state.options.iter().map(OptionDraft::option).collect();
                state.requested = Some((state.decider.clone(), state.decision.trim().to_string(), options));
            }
        });
        if let Some(error) = &state.error {
            ui.colored_label(egui::Color32::from_rgb(255, 120, 120), error.as_str());
        }
        if let Some((decider, decision, result)) = &state.last {
            ui.separator();
            ui.strong(format!("{decider}: {decision}"));
            for (i, score) in result.scores.iter().enumerate() {
                let mark = if i == result.chosen { "->" } else { "  " };
                ui.label(format!("{mark} {}", score_text(score)));
            }
            ui.label(format!("D10 shows {}: {}", result.roll.total, result.chosen_name()));
        }
    });
    if !open {
        panels.show_decide = false;
    }
    Ok(())
}

/// Dice the decision asked for, outside egui's pass (it changes the world and the log).
fn apply_decide(world: &mut World) {
    let Some((decider, decision, options)) = world.resource_mut::<DecideState>().requested.take() else { return };
    let result = crate::document::decide(world, &decider, &decision, &options);
    let mut state = world.resource_mut::<DecideState>();
    match result {
        Ok(result) => {
            state.last = Some((decider, decision, result));
            state.error = None;
        }
        Err(e) => state.error = Some(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::decisions::FaceRange;

    #[test]
    fn qualities_read_by_abbreviation_with_the_unknown_marked() {
        let q = KnownQualities { energy: Some(4), integrity: Some(6), ..KnownQualities::default() };
        assert_eq!(qualities_text(&q), "Ey 4 Ie ? Ms ? Gy ? Iy 6 Ly ? Dy ?");
        let note = influences_text();
        assert!(note.starts_with("Ie can be used to influence the Spell Resistance factor; Iy can be used"), "{note}");
        assert!(note.contains("Terror Resistance"), "{note}");
    }

    #[test]
    fn an_option_takes_the_qualities_that_count_and_a_score_reads_its_faces() {
        let mut draft = OptionDraft { name: " wait ".into(), causation: 2, ..OptionDraft::default() };
        draft.relevance[5] = Some(Relevance::Doubled);
        draft.relevance[0] = next_relevance(next_relevance(None));
        let option = draft.option();
        assert_eq!(option.name, "wait");
        assert_eq!(
            option.qualities,
            vec![
                QualityWeight { quality: Quality::Energy, relevance: Relevance::AsIs },
                QualityWeight { quality: Quality::Loyalty, relevance: Relevance::Doubled },
            ]
        );
        assert_eq!(next_relevance(Some(Relevance::Halved)), None);
        assert_eq!(relevance_text(Quality::Loyalty, Some(Relevance::Doubled)), "Ly x2");
        let score = OptionScore {
            name: "go".into(),
            causation: 3,
            quality_half_points: vec![],
            half_points: 19,
            faces: Some(FaceRange { low: 4, high: 9 }),
        };
        assert_eq!(score_text(&score), "go: 9.5, faces 4-9");
        let inside = crate::scene::Inside { site: "Tavern".into(), moves_left: Some(3), moves: 2 };
        assert_eq!(inside_text("Ann", &inside), "Ann (2 moves in, 3 to stay)");
    }
}
