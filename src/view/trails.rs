//! Trails in the view (issue 18). Everything here is the GM's, on the GM layer: the projector
//! never shows a trail. Each trail is a line through its points, a colour per quarry (by the
//! order the quarries' trails were laid), opaque where fresh and fading to faint as its points
//! near the age its trackers can still read; draughts of pepper are small crosses with a ring
//! at their reach; counter-scent areas are outlined. Each tracker carries its current reading
//! of the trail as a short label ("follows", "lost", "guessing", "sneezing"). The Trails panel,
//! toggled from the menu or opened with `open --trails`, gives the weather, each tracker's
//! quarry, sense, mode and last result, and each trail's points and ages.

use super::layers::{GM_LAYER, Retained, gm_only};
use super::panels::PanelState;
use super::playhead::{PlayheadSystems, Shown};
use super::{PX_PER_INCH, SceneGeneration, to_world};
use crate::rules::house_rules::HOUSE_RULE_TAG;
use crate::rules::tracking::{Rain, Snow, Weather, Wind};
use crate::scene::{Shape, TrackerMode, TrackerSense, TrackerState};
use crate::sim::MoveClock;
use crate::sim::trails::{
    LiveTrail, Tracker, TrailRules, TrailsLaid, TrailsScene, age_at, horizon_moves, readable_moves,
};
use crate::sim::world::{LoadedScene, SceneOrder, TablePosition};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::collections::{HashMap, HashSet};

pub(super) fn plugin(app: &mut App) {
    // Trails, pepper, counter-scents and readings are the GM's: GM layer only.
    app.add_systems(Update, (draw_trails, update_reading_labels).after(PlayheadSystems));
    app.add_systems(EguiPrimaryContextPass, trails_panel.run_if(super::is_gm_view));
}

/// The quarries' colours, in the order their trails were laid (repeated past the eighth).
const QUARRY_COLOURS: [Color; 8] = [
    Color::srgb(1.0, 0.45, 0.35),
    Color::srgb(0.35, 0.8, 1.0),
    Color::srgb(0.6, 1.0, 0.4),
    Color::srgb(1.0, 0.45, 0.9),
    Color::srgb(1.0, 0.65, 0.2),
    Color::srgb(0.6, 0.55, 1.0),
    Color::srgb(0.3, 1.0, 0.8),
    Color::srgb(0.95, 0.95, 0.5),
];
/// A draught of pepper: a pepper red.
const PEPPER_COLOUR: Color = Color::srgb(0.85, 0.25, 0.1);
/// A counter-scent area: a midden's olive.
const COUNTER_SCENT_COLOUR: Color = Color::srgb(0.65, 0.7, 0.25);
/// A tracker's reading.
const READING_COLOUR: Color = Color::srgb(0.75, 1.0, 0.75);
/// The alpha of a point at the age its trackers can last read (a fresh point is opaque).
const FAINTEST_ALPHA: f32 = 0.12;
/// How far under a tracker its reading is written, inches (under the conditions' line).
const READING_BELOW_IN: f32 = 1.1;

/// The colour of the quarry at `index` among the quarries in trail order.
fn quarry_colour(index: usize) -> Color {
    QUARRY_COLOURS[index % QUARRY_COLOURS.len()]
}

/// Each quarry's index, in the order their first trails stand in `trails`.
fn quarry_indices(trails: &[LiveTrail]) -> HashMap<&str, usize> {
    let mut out: HashMap<&str, usize> = HashMap::new();
    for t in trails {
        let next = out.len();
        out.entry(t.quarry.as_str()).or_insert(next);
    }
    out
}

/// The alpha of a point `age` moves old on a trail readable for `horizon` moves: 1 when just
/// laid, falling evenly to [`FAINTEST_ALPHA`] at the horizon and staying there beyond it.
fn fade(age: u32, horizon: u32) -> f32 {
    let share = if horizon == 0 { 1.0 } else { (age as f32 / horizon as f32).min(1.0) };
    1.0 - share * (1.0 - FAINTEST_ALPHA)
}

/// The outline of a shape in table inches (a circle is drawn as a circle, not by this).
fn outline(shape: &Shape) -> Vec<Vec2> {
    match shape {
        Shape::Rect { min, max } => {
            vec![Vec2::new(min.0, min.1), Vec2::new(max.0, min.1), Vec2::new(max.0, max.1), Vec2::new(min.0, max.1)]
        }
        Shape::Circle { .. } => Vec::new(),
        Shape::Polygon { points } => points.iter().map(|p| Vec2::new(p.0, p.1)).collect(),
    }
}

/// Trails, pepper and counter-scents, redrawn only when the trails, the clock, the trackers or
/// the scene change (a trail can hold thousands of points).
fn draw_trails(
    mut lines: Retained,
    generation: Res<SceneGeneration>,
    (laid, scene, rules): (Res<TrailsLaid>, Res<TrailsScene>, Res<TrailRules>),
    clock: Res<MoveClock>,
    loaded: Option<Res<LoadedScene>>,
    changed: Query<(), Changed<Tracker>>,
    trackers: Query<&Tracker>,
) {
    let scene_changed = loaded.as_ref().is_some_and(|l| l.is_changed());
    if !(generation.is_changed()
        || laid.is_changed()
        || scene.is_changed()
        || rules.is_changed()
        || clock.is_changed()
        || scene_changed
        || !changed.is_empty())
    {
        return;
    }
    let now = clock.move_number;
    let moves_per_day = loaded.as_ref().map_or(480, |l| l.0.rules.moves_per_day);
    // A quarry's trail fades towards the oldest age any of its trackers can read; a trail
    // nobody tracks, towards the oldest any tracker could.
    let mut horizons: HashMap<&str, u32> = HashMap::new();
    for t in &trackers {
        let readable = readable_moves(t.sense, moves_per_day);
        let h = horizons.entry(t.quarry.as_str()).or_insert(readable);
        *h = (*h).max(readable);
    }
    let colours = quarry_indices(&laid.0);
    lines.redraw("trails", GM_LAYER, |gizmos| {
        for t in &laid.0 {
            let colour = quarry_colour(colours.get(t.quarry.as_str()).copied().unwrap_or(0));
            let horizon = horizons.get(t.quarry.as_str()).copied().unwrap_or_else(|| horizon_moves(moves_per_day));
            if t.points.len() > 1 {
                gizmos.linestrip_gradient_2d(
                    t.points.iter().map(|p| (to_world(p.at), colour.with_alpha(fade(age_at(p, now), horizon)))),
                );
            }
            // The newest point: where the quarry was last seen to pass.
            if let Some(last) = t.points.back() {
                let alpha = fade(age_at(last, now), horizon);
                let at = Isometry2d::from_translation(to_world(last.at));
                gizmos.circle_2d(at, 0.12 * PX_PER_INCH, colour.with_alpha(alpha)).resolution(8);
            }
        }
        for d in &scene.0.pepper {
            let at = to_world(Vec2::new(d.at.0, d.at.1));
            gizmos.cross_2d(Isometry2d::from_translation(at), 0.2 * PX_PER_INCH, PEPPER_COLOUR);
            let reach = d.radius(&rules.0) * PX_PER_INCH;
            gizmos.circle_2d(Isometry2d::from_translation(at), reach, PEPPER_COLOUR.with_alpha(0.6));
        }
        for area in &scene.0.counter_scents {
            // Stronger counter-scents (−3) are drawn stronger.
            let colour = COUNTER_SCENT_COLOUR.with_alpha(0.3 + 0.2 * area.value.unsigned_abs().min(3) as f32);
            match &area.area {
                Shape::Circle { center, radius } => {
                    let at = to_world(Vec2::new(center.0, center.1));
                    gizmos.circle_2d(Isometry2d::from_translation(at), *radius * PX_PER_INCH, colour);
                }
                shape => {
                    gizmos.lineloop_2d(outline(shape).into_iter().map(to_world), colour);
                }
            }
        }
    });
}

/// A tracker's reading of the trail under it, in a word or two.
fn reading_label(state: &TrackerState) -> String {
    let word = match &state.mode {
        TrackerMode::GaveUp => "gave up",
        TrackerMode::Sneezing { .. } => "sneezing",
        TrackerMode::Guessing { .. } => "guessing",
        TrackerMode::PickingUp { .. } => "picking up",
        TrackerMode::Searching { .. } => "searching",
        TrackerMode::Following => match state.reading.as_deref() {
            None => "tracking",
            Some("follow_normal") => "follows",
            Some("follow_minus_one") => "follows -1\"",
            Some("follow_minus_three") => "follows -3\"",
            Some("direction_uncertain") => "guessing",
            Some("halted") => "halted",
            Some("lost" | "off_trail" | "not_picked_up") => "lost",
            Some("lost_at_water") => "lost at water",
            Some("too_dark") => "too dark",
            Some("trail_too_old") => "too old",
            Some("sneezes" | "still_sneezing") => "sneezing",
            Some("restarts_tracking") => "tracks again",
            Some(other) => other,
        },
    };
    if state.with_quarry { format!("{word} · caught up") } else { word.to_string() }
}

/// A tracker's reading, written under it (GM only).
#[derive(Component)]
struct ReadingLabel(Entity);

/// Keep a reading label by each tracker: spawned for a new tracker (under it, until labels.rs
/// places it), gone with its tracker, its text touched only when it changes.
fn update_reading_labels(
    mut commands: Commands,
    mut labels: Query<(Entity, &ReadingLabel, &mut Text2d)>,
    trackers: Query<(Entity, &TablePosition, Option<&Shown>, &Tracker)>,
) {
    let mut labelled: HashSet<Entity> = HashSet::new();
    for (entity, label, mut text) in &mut labels {
        let Ok((_, _, _, tracker)) = trackers.get(label.0) else {
            commands.entity(entity).despawn();
            continue;
        };
        labelled.insert(label.0);
        let line = reading_label(&tracker.state);
        if text.0 != line {
            text.0 = line;
        }
    }
    for (entity, pos, shown, tracker) in &trackers {
        if labelled.contains(&entity) {
            continue;
        }
        let at = shown.map_or(pos.0, |s| s.at);
        let place = (to_world(at) - Vec2::new(0.0, READING_BELOW_IN * PX_PER_INCH)).extend(6.0);
        commands.spawn((
            Text2d::new(reading_label(&tracker.state)),
            TextFont { font_size: FontSize::Px(super::labels::STATE_FONT_PX), ..default() },
            TextColor(READING_COLOUR),
            Transform::from_translation(place),
            ReadingLabel(entity),
            super::labels::PlacedLabel::reading(entity),
            gm_only(),
        ));
    }
}

/// The weather in words: "light rain, strong wind, ground wet", or "clear".
fn weather_text(w: Weather) -> String {
    let mut parts = Vec::new();
    if w.rain != Rain::None {
        parts.push(format!("{} rain", w.rain.id()));
    }
    if w.snow != Snow::None {
        parts.push(format!("{} snow", w.snow.id()));
    }
    if w.snow_on_ground {
        parts.push("snow on the ground".to_string());
    }
    match w.wind {
        Wind::None => {}
        Wind::Strong => parts.push("strong wind".to_string()),
        Wind::Gale => parts.push("gale".to_string()),
    }
    if w.ground_wet {
        parts.push("ground wet".to_string());
    }
    if parts.is_empty() { "clear".to_string() } else { parts.join(", ") }
}

/// How a tracker follows: "scent, level 3".
fn sense_text(sense: TrackerSense) -> String {
    match sense {
        TrackerSense::Sight { level } => format!("sight, level {level}"),
        TrackerSense::Scent { level } => format!("scent, level {level}"),
    }
}

/// What a tracker is doing with the trail.
fn mode_text(mode: &TrackerMode) -> String {
    match mode {
        TrackerMode::Following => "following".to_string(),
        TrackerMode::Guessing { heading_deg, .. } => format!("guessing (heading {heading_deg:.0}°)"),
        TrackerMode::PickingUp { from } => format!("picking up the track (guessed from {:.1}, {:.1})", from.0, from.1),
        TrackerMode::Searching { at } => format!("searching again at {:.1}, {:.1}", at.0, at.1),
        TrackerMode::Sneezing { draught } => format!("sneezing ({draught})"),
        TrackerMode::GaveUp => "gave up".to_string(),
    }
}

/// A tracker's line: "Brutus on Wat: scent, level 3; following; last: follow_normal".
fn tracker_text(name: &str, tracker: &Tracker) -> String {
    let state = &tracker.state;
    let mut parts = vec![
        format!("{name} on {}: {}", tracker.quarry, sense_text(tracker.sense)),
        mode_text(&state.mode),
        format!("last: {}", state.reading.as_deref().unwrap_or("none yet")),
    ];
    if !state.peppered_by.is_empty() {
        parts.push(format!("peppered by {}", state.peppered_by.join(", ")));
    }
    if state.with_quarry {
        parts.push("with its quarry".to_string());
    }
    parts.join("; ")
}

/// A trail's line: "Wat trail (Wat): 24 points, 0 to 57 moves old".
fn trail_text(t: &LiveTrail, now: u32) -> String {
    match (t.points.back(), t.points.front()) {
        (Some(newest), Some(oldest)) => format!(
            "{} ({}): {} point{}, {} to {} moves old",
            t.name,
            t.quarry,
            t.points.len(),
            if t.points.len() == 1 { "" } else { "s" },
            age_at(newest, now),
            age_at(oldest, now)
        ),
        _ => format!("{} ({}): no points", t.name, t.quarry),
    }
}

/// The Trails panel: the weather, the trackers, the trails, the pepper and counter-scents.
fn trails_panel(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    (laid, scene, rules): (Res<TrailsLaid>, Res<TrailsScene>, Res<TrailRules>),
    clock: Res<MoveClock>,
    trackers: Query<(&SceneOrder, &Name, &Tracker)>,
) -> Result {
    if !panels.show_trails {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let now = clock.move_number;
    let mut trackers: Vec<(&SceneOrder, &Name, &Tracker)> = trackers.iter().collect();
    trackers.sort_by_key(|(order, _, _)| **order);
    let mut open = true;
    egui::Window::new("Trails").open(&mut open).default_pos([8.0, 144.0]).default_width(520.0).show(ctx, |ui| {
        egui::ScrollArea::vertical().max_height(480.0).show(ui, |ui| {
            ui.strong(format!("Weather at move {now}"));
            ui.label(weather_text(scene.0.weather_at(now)));
            if let Some(next) = scene.0.weather_changes.iter().find(|c| c.at_move > now) {
                ui.weak(format!("from move {}: {}", next.at_move, weather_text(next.weather)));
            }
            ui.separator();
            ui.strong("Trackers");
            if trackers.is_empty() {
                ui.label("No trackers in this scene.");
            }
            for (_, name, tracker) in &trackers {
                ui.label(tracker_text(name.as_str(), tracker));
            }
            ui.separator();
            ui.strong("Trails");
            if laid.0.is_empty() {
                ui.label("No trails laid.");
            }
            for t in &laid.0 {
                ui.label(trail_text(t, now));
            }
            if !scene.0.pepper.is_empty() {
                ui.separator();
                ui.strong("Pepper");
                for d in &scene.0.pepper {
                    ui.label(format!(
                        "{}: at {:.1}, {:.1}, reach {:.2}\"{}",
                        d.name,
                        d.at.0,
                        d.at.1,
                        d.radius(&rules.0),
                        if d.radius_is_house_rule() { HOUSE_RULE_TAG } else { "" }
                    ));
                }
            }
            if !scene.0.counter_scents.is_empty() {
                ui.separator();
                ui.strong("Counter-scents");
                for a in &scene.0.counter_scents {
                    ui.label(format!("{}: {}", a.name, a.value));
                }
            }
        });
    });
    if !open {
        panels.show_trails = false;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::trails::LaidPoint;
    use std::collections::VecDeque;

    fn trail(name: &str, quarry: &str, laid_at: &[i64]) -> LiveTrail {
        LiveTrail {
            name: name.into(),
            quarry: quarry.into(),
            points: laid_at.iter().map(|&m| LaidPoint { at: Vec2::new(m as f32, 0.0), laid_at: m }).collect(),
        }
    }

    #[test]
    fn trails_fade_from_fresh_to_the_horizon() {
        assert_eq!(fade(0, 120), 1.0);
        assert!((fade(60, 120) - (1.0 + FAINTEST_ALPHA) / 2.0).abs() < 1e-6);
        assert!((fade(120, 120) - FAINTEST_ALPHA).abs() < 1e-6);
        assert!((fade(500, 120) - FAINTEST_ALPHA).abs() < 1e-6, "beyond the horizon stays faint");
        assert!(fade(10, 120) > fade(11, 120), "older is fainter");
        assert!((fade(0, 0) - FAINTEST_ALPHA).abs() < 1e-6);
    }

    #[test]
    fn each_quarry_keeps_the_colour_of_its_first_trail() {
        let trails = vec![trail("a", "Wat", &[1]), trail("b", "Brutus", &[2]), trail("c", "Wat", &[3])];
        let idx = quarry_indices(&trails);
        assert_eq!(idx["Wat"], 0);
        assert_eq!(idx["Brutus"], 1);
        assert_eq!(quarry_colour(8), quarry_colour(0));
        assert_ne!(quarry_colour(1), quarry_colour(0));
    }

    #[test]
    fn readings_read_in_a_word() {
        let mut state = TrackerState::default();
        assert_eq!(reading_label(&state), "tracking");
        state.reading = Some("follow_normal".into());
        assert_eq!(reading_label(&state), "follows");
        state.reading = Some("not_picked_up".into());
        assert_eq!(reading_label(&state), "lost");
        state.mode = TrackerMode::Sneezing { draught: "pepper".into() };
        assert_eq!(reading_label(&state), "sneezing");
        state.mode = TrackerMode::Guessing { from: (1.0, 2.0), heading_deg: 90.0 };
        state.with_quarry = true;
        assert_eq!(reading_label(&state), "guessing · caught up");
    }

    #[test]
    fn panel_lines() {
        let w = Weather { rain: Rain::Light, wind: Wind::Gale, ground_wet: true, ..Weather::CLEAR };
        assert_eq!(weather_text(w), "light rain, gale, ground wet");
        assert_eq!(weather_text(Weather::CLEAR), "clear");
        let t = trail("Wat trail", "Wat", &[-20, 3, 10]);
        assert_eq!(trail_text(&t, 10), "Wat trail (Wat): 3 points, 0 to 30 moves old");
        let empty = LiveTrail { name: "x".into(), quarry: "Wat".into(), points: VecDeque::new() };
        assert_eq!(trail_text(&empty, 10), "x (Wat): no points");
        let hound = Tracker {
            quarry: "Wat".into(),
            sense: TrackerSense::Scent { level: 3 },
            state: TrackerState {
                mode: TrackerMode::Sneezing { draught: "pepper by the ford".into() },
                reading: Some("still_sneezing".into()),
                peppered_by: vec!["pepper by the ford".into()],
                with_quarry: false,
            },
        };
        assert_eq!(
            tracker_text("Brutus", &hound),
            "Brutus on Wat: scent, level 3; sneezing (pepper by the ford); last: still_sneezing; \
             peppered by pepper by the ford"
        );
    }
}
