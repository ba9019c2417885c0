//! Trails in the scene file: trails laid before the scene starts (and, in a saved scene, those
//! laid since), trackers with their quarry and where they stand with the trail, draughts of
//! pepper, and the weather with its changes (000 "Tracking", "Scent Tracking", "Pepper trap";
//! issue 18). docs/tracking.md "In a scene" says how the simulation reads them.

use super::format::{Point, Scene, Shape};
use super::load::{Checker, MAX_MOVES_PLAYED, MAX_NAME_CHARS, MAX_TABLE_INCHES, shown};
use crate::rules::tracking::{SCENT_LEVEL_MAX, SCENT_LEVEL_MIN, TrackingSettings, Weather};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Most trails in a scene: every figure that moves lays one (and every herd, where beasts leave
/// trails), so this leaves room for the most figures and a herd beside each.
pub const MAX_TRAILS: usize = 5_000;
/// Most points one trail may hold. The simulation drops a trail's oldest points beyond it (and
/// those older than any tracker can read), so a scene it saves always loads.
pub const MAX_TRAIL_POINTS: usize = 10_000;
/// Most trackers in a scene: each reads its quarry's trails every move.
pub const MAX_TRACKERS: usize = 500;
/// Most draughts of pepper in a scene: every tracking animal is measured against each every move.
pub const MAX_PEPPER_DRAUGHTS: usize = 500;
/// Most counter-scent areas in a scene.
pub const MAX_COUNTER_SCENTS: usize = 500;
/// Most weather changes in a scene.
pub const MAX_WEATHER_CHANGES: usize = 1_000;
/// Highest tracker level for tracking by sight: the text gives no range; a bound for the file.
pub const MAX_SIGHT_LEVEL: u8 = 20;
/// Oldest a trail point may be, in moves: older than any trail can be read (three days of the
/// longest day a scene may have).
pub const MAX_TRAIL_AGE_MOVES: u32 = 3 * 100_000;

fn is_false(b: &bool) -> bool {
    !*b
}

/// One point of a trail: where the quarry passed, and how many moves ago (at the scene's clock).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrailPoint {
    /// Where, in table inches.
    pub at: Point,
    /// Moves since the quarry passed here, at the scene's clock (`clock.moves_played`).
    pub age_moves: u32,
}

/// A trail: the points in the order the quarry passed them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneTrail {
    /// The trail's name, unique among trails.
    pub name: String,
    /// Who left it: a figure's (or a herd's) name, or a name of its own for a quarry not on the table.
    pub quarry: String,
    /// The points, oldest first (ages never increase along the trail).
    pub points: Vec<TrailPoint>,
}

/// How a tracker follows a trail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrackerSense {
    /// By sight (000 "Tracking"), at a tracker level.
    Sight {
        /// "trackers level".
        level: u8,
    },
    /// By scent, an animal (000 "Scent Tracking"), at a level of 1 to 3.
    Scent {
        /// "levels 1 > 3".
        level: u8,
    },
}

impl TrackerSense {
    /// Whether the tracker is a tracking animal (pepper affects only these).
    pub fn is_scent(self) -> bool {
        matches!(self, TrackerSense::Scent { .. })
    }

    /// The tracker level.
    pub fn level(self) -> u8 {
        match self {
            TrackerSense::Sight { level } | TrackerSense::Scent { level } => level,
        }
    }
}

/// What a tracker is doing with the trail, move to move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrackerMode {
    /// Following: it dices each move (the default).
    #[default]
    Following,
    /// Sight, after a 4 (`uncertain_move: next_move`): it goes 3" at `heading_deg` this move,
    /// from `from` (where the prey was), then dices to pick the track up.
    Guessing {
        /// Where it stood when it rolled the 4.
        from: Point,
        /// The guessed heading, degrees counter-clockwise from +x.
        heading_deg: f32,
    },
    /// Sight, after the guessed 3": it dices to pick the track up; a miss goes back to `from`.
    PickingUp {
        /// Where it stood when it rolled the 4.
        from: Point,
    },
    /// Scent, after a loss: it goes to `at` to search again, and dices there.
    Searching {
        /// The search point.
        at: Point,
    },
    /// A tracking animal in pepper: it dices D6 each move, needing 6 to track again.
    Sneezing {
        /// The draught it moved into.
        draught: String,
    },
    /// The trail is too old to follow: tracking has ended.
    GaveUp,
}

/// Where a tracker stands with the trail (written by the simulation).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrackerState {
    /// What it is doing.
    #[serde(skip_serializing_if = "is_following")]
    pub mode: TrackerMode,
    /// Its last reading of the trail: the last result's outcome id (for the GM).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reading: Option<String>,
    /// The draughts of pepper it has moved into (each catches it once).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub peppered_by: Vec<String>,
    /// It ended its last move within 1" of its quarry.
    #[serde(skip_serializing_if = "is_false")]
    pub with_quarry: bool,
}

fn is_following(m: &TrackerMode) -> bool {
    *m == TrackerMode::Following
}

impl TrackerState {
    /// Nothing to write: following, no reading, never peppered, not with its quarry.
    pub fn is_empty(&self) -> bool {
        *self == TrackerState::default()
    }
}

/// A figure's tracker fields: what it follows and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackerFields {
    /// The figure who tracks.
    pub figure: String,
    /// The quarry whose trail it follows: a figure's (or herd's) name or a trail's `quarry`.
    pub quarry: String,
    /// By sight or by scent, with the level.
    pub sense: TrackerSense,
    /// Where it stands with the trail (written by the simulation).
    #[serde(default, skip_serializing_if = "TrackerState::is_empty")]
    pub state: TrackerState,
}

/// A draught of pepper laid on a trail (000 "Pepper trap").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PepperDraught {
    /// The draught's name, unique in the scene.
    pub name: String,
    /// Where it lies, in table inches.
    pub at: Point,
    /// How far around `at` an animal moving in meets it; none: the house rule
    /// `rules.tracking.pepper_radius_in` (0.5").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius_in: Option<f32>,
}

impl PepperDraught {
    /// Its reach: its own `radius_in`, or the house rule's.
    pub fn radius(&self, settings: &TrackingSettings) -> f32 {
        self.radius_in.unwrap_or(settings.pepper_radius_in)
    }

    /// Whether the house rule `tracking.pepper_radius_in` gives its reach.
    pub fn radius_is_house_rule(&self) -> bool {
        self.radius_in.is_none()
    }
}

/// An area of counter-scents (000 "Scent Tracking": "Counter scents -1 > -3"): a midden, a
/// tannery, a field of wild garlic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterScent {
    /// The area's name, unique in the scene.
    pub name: String,
    /// Where it lies (edges count as inside).
    pub area: Shape,
    /// Its factor on a scent roll made inside it: −1 to −3.
    pub value: i32,
}

/// The weather from a move on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeatherChange {
    /// The move (as the clock counts, from 1) from which it holds.
    pub at_move: u32,
    /// The weather from then.
    pub weather: Weather,
}

/// Everything of trails a scene holds (`trails: (...)`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrailsSection {
    /// Whether herds leave trails as they move (figures always do).
    #[serde(skip_serializing_if = "is_false")]
    pub beasts_leave_trails: bool,
    /// Trails: laid before the scene starts, and in a saved scene those laid since.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trails: Vec<SceneTrail>,
    /// The trackers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trackers: Vec<TrackerFields>,
    /// Draughts of pepper.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pepper: Vec<PepperDraught>,
    /// Counter-scent areas.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub counter_scents: Vec<CounterScent>,
    /// The weather at the start (default clear).
    #[serde(skip_serializing_if = "is_clear")]
    pub weather: Weather,
    /// Changes of weather, in move order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub weather_changes: Vec<WeatherChange>,
}

fn is_clear(w: &Weather) -> bool {
    *w == Weather::CLEAR
}

impl TrailsSection {
    /// Nothing of trails in the scene: the section is left out when saved.
    pub fn is_empty(&self) -> bool {
        *self == TrailsSection::default()
    }

    /// The weather in force at `move_number`: the last change at or before it, else the start's.
    pub fn weather_at(&self, move_number: u32) -> Weather {
        self.weather_changes
            .iter()
            .filter(|c| c.at_move <= move_number)
            .max_by_key(|c| c.at_move)
            .map_or(self.weather, |c| c.weather)
    }

    /// The tracker fields of the figure `name`, if it tracks.
    pub fn tracker(&self, name: &str) -> Option<&TrackerFields> {
        self.trackers.iter().find(|t| t.figure == name)
    }
}

/// A name that is not an entity's (a trail's): not empty, not too long; `e` names it in errors.
fn check_own_name(kind: &str, name: &str, c: &mut Checker) -> String {
    let e = format!("{kind} \"{}\"", shown(name));
    if name.trim().is_empty() {
        c.problem(&format!("{kind} (unnamed)"), "name: must not be empty".into());
    } else if name.chars().count() > MAX_NAME_CHARS {
        c.problem(&e, format!("name: longer than {MAX_NAME_CHARS} characters"));
    }
    e
}

/// The checks on the trails section: counts, trails, trackers, pepper and the weather changes,
/// each problem under its entity's name (`trail "…"`, `tracker "…"`, `pepper "…"`, `trails`).
pub(crate) fn check_scene<'a>(scene: &'a Scene, c: &mut Checker<'a>) {
    let s = &scene.trails;
    for (what, n, max) in [
        ("trails", s.trails.len(), MAX_TRAILS),
        ("trackers", s.trackers.len(), MAX_TRACKERS),
        ("pepper", s.pepper.len(), MAX_PEPPER_DRAUGHTS),
        ("counter_scents", s.counter_scents.len(), MAX_COUNTER_SCENTS),
        ("weather_changes", s.weather_changes.len(), MAX_WEATHER_CHANGES),
    ] {
        if n > max {
            c.problem("trails", format!("{what}: {n} entries, more than the {max} allowed"));
            return;
        }
    }
    let mut trail_names = HashSet::new();
    for t in &s.trails {
        let e = check_own_name("trail", &t.name, c);
        if !trail_names.insert(t.name.as_str()) {
            c.problem(&e, "name: another trail already has this name".into());
        }
        if t.quarry.trim().is_empty() || t.quarry.chars().count() > MAX_NAME_CHARS {
            c.problem(&e, format!("quarry: must be a name of 1 to {MAX_NAME_CHARS} characters"));
        }
        if t.points.is_empty() || t.points.len() > MAX_TRAIL_POINTS {
            c.problem(&e, format!("points: {} must be 1 to {MAX_TRAIL_POINTS}", t.points.len()));
            continue;
        }
        for p in &t.points {
            c.on_table(&e, "points at", p.at);
        }
        if let Some(p) = t.points.iter().find(|p| p.age_moves > MAX_TRAIL_AGE_MOVES) {
            c.problem(&e, format!("points age_moves: {} is more than {MAX_TRAIL_AGE_MOVES}", p.age_moves));
        }
        if t.points.windows(2).any(|w| w[1].age_moves > w[0].age_moves) {
            c.problem(&e, "points: ages must not increase along the trail (oldest first)".into());
        }
    }
    let figures: HashSet<&str> = scene.figures.iter().map(|f| f.name.as_str()).collect();
    let quarries: HashSet<&str> = s
        .trails
        .iter()
        .map(|t| t.quarry.as_str())
        .chain(figures.iter().copied())
        .chain(scene.herds.iter().filter(|_| s.beasts_leave_trails).map(|h| h.name.as_str()))
        .collect();
    let draughts: HashSet<&str> = s.pepper.iter().map(|p| p.name.as_str()).collect();
    let mut trackers = HashSet::new();
    for t in &s.trackers {
        let e = format!("tracker \"{}\"", shown(&t.figure));
        if !figures.contains(t.figure.as_str()) {
            c.problem(&e, format!("figure: no figure is named \"{}\"", shown(&t.figure)));
        }
        if !trackers.insert(t.figure.as_str()) {
            c.problem(&e, "figure: listed as a tracker twice".into());
        }
        if t.quarry == t.figure {
            c.problem(&e, "quarry: a tracker cannot track itself".into());
        } else if !quarries.contains(t.quarry.as_str()) {
            c.problem(
                &e,
                format!("quarry: \"{}\" is neither a figure, a trailing herd nor a trail's quarry", shown(&t.quarry)),
            );
        }
        match t.sense {
            TrackerSense::Scent { level } if !(SCENT_LEVEL_MIN..=SCENT_LEVEL_MAX).contains(&level) => {
                c.problem(&e, format!("sense: scent level {level} must be {SCENT_LEVEL_MIN} to {SCENT_LEVEL_MAX}"))
            }
            TrackerSense::Sight { level } if level > MAX_SIGHT_LEVEL => {
                c.problem(&e, format!("sense: sight level {level} must be 0 to {MAX_SIGHT_LEVEL}"))
            }
            _ => {}
        }
        let state = &t.state;
        match &state.mode {
            TrackerMode::Guessing { from, heading_deg } => {
                c.on_table(&e, "state mode from", *from);
                c.finite(&e, "state mode heading_deg", *heading_deg);
            }
            TrackerMode::PickingUp { from } => c.on_table(&e, "state mode from", *from),
            TrackerMode::Searching { at } => c.on_table(&e, "state mode at", *at),
            TrackerMode::Sneezing { draught } if !draughts.contains(draught.as_str()) => {
                c.problem(&e, format!("state mode: no pepper draught is named \"{}\"", shown(draught)))
            }
            _ => {}
        }
        if !t.sense.is_scent() && matches!(state.mode, TrackerMode::Searching { .. } | TrackerMode::Sneezing { .. }) {
            c.problem(&e, "state mode: searching and sneezing are for scent trackers".into());
        }
        if t.sense.is_scent() && matches!(state.mode, TrackerMode::Guessing { .. } | TrackerMode::PickingUp { .. }) {
            c.problem(&e, "state mode: guessing and picking up are for sight trackers".into());
        }
        if state.reading.as_ref().is_some_and(|r| r.chars().count() > MAX_NAME_CHARS) {
            c.problem(&e, format!("state reading: longer than {MAX_NAME_CHARS} characters"));
        }
        if state.peppered_by.len() > MAX_PEPPER_DRAUGHTS {
            c.problem(&e, format!("state peppered_by: more than {MAX_PEPPER_DRAUGHTS} entries"));
        } else if let Some(d) = state.peppered_by.iter().find(|d| !draughts.contains(d.as_str())) {
            c.problem(&e, format!("state peppered_by: no pepper draught is named \"{}\"", shown(d)));
        }
    }
    for p in &s.pepper {
        let e = c.name("pepper", &p.name);
        c.on_table(&e, "at", p.at);
        if let Some(r) = p.radius_in {
            c.positive(&e, "radius_in", r, MAX_TABLE_INCHES);
        }
    }
    for a in &s.counter_scents {
        let e = c.name("counter scent", &a.name);
        c.shape(&e, "area", &a.area);
        if !(crate::rules::tracking::COUNTER_SCENTS_STRONGEST..=-1).contains(&a.value) {
            c.problem(&e, format!("value: {} must be -3 to -1", a.value));
        }
    }
    if s.weather_changes.iter().any(|w| !(1..=MAX_MOVES_PLAYED).contains(&w.at_move)) {
        c.problem("trails", format!("weather_changes at_move: must be 1 to {MAX_MOVES_PLAYED}"));
    }
    if s.weather_changes.windows(2).any(|w| w[1].at_move <= w[0].at_move) {
        c.problem("trails", "weather_changes: at_move must increase from one change to the next".into());
    }
}

/// The checks on `rules.tracking`.
pub(crate) fn check_settings(s: &TrackingSettings, c: &mut Checker) {
    if !(-20..=30).contains(&s.pick_up_at_least) {
        c.problem("rules", format!("tracking pick_up_at_least: {} must be -20 to 30", s.pick_up_at_least));
    }
    let least = crate::rules::tracking::SEARCH_AGAIN_AT_LEAST_IN;
    if c.finite("rules", "tracking search_again_in", s.search_again_in)
        && !(least..=MAX_TABLE_INCHES).contains(&s.search_again_in)
    {
        c.problem(
            "rules",
            format!("tracking search_again_in: {} must be {least} to {MAX_TABLE_INCHES} inches", s.search_again_in),
        );
    }
    c.positive("rules", "tracking pepper_radius_in", s.pepper_radius_in, MAX_TABLE_INCHES);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tracking::Rain;
    use crate::scene::load::validate;
    use crate::scene::scene_to_ron;

    fn scene(trails: &str) -> Scene {
        let text = format!(
            "(version: 1, table: (width: 40, height: 20),
              figures: [(name: \"fugitive\", position: (30, 10)), (name: \"hound\", position: (1, 1))],
              trails: {trails})"
        );
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        match options.from_str(&text) {
            Ok(s) => s,
            Err(e) => panic!("{e}: {text}"),
        }
    }

    fn problems(s: &Scene) -> Vec<String> {
        validate(s).into_iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn a_valid_section_has_no_problems_and_round_trips() {
        let s = scene(
            "(trails: [(name: \"night\", quarry: \"fugitive\",
                         points: [(at: (1, 1), age_moves: 30), (at: (5, 1), age_moves: 20), (at: (9, 2), age_moves: 10)])],
              trackers: [(figure: \"hound\", quarry: \"fugitive\", sense: scent(level: 3),
                          state: (mode: sneezing(draught: \"pinch\"), reading: \"sneezes\", peppered_by: [\"pinch\"]))],
              pepper: [(name: \"pinch\", at: (4, 2))],
              weather_changes: [(at_move: 10, weather: (rain: light))])",
        );
        assert_eq!(problems(&s), Vec::<String>::new());
        let t = &s.trails;
        assert_eq!(t.weather_at(9), Weather::CLEAR);
        assert_eq!(t.weather_at(10).rain, Rain::Light);
        assert_eq!(t.weather_at(500).rain, Rain::Light);
        assert_eq!(t.pepper[0].radius_in, None);
        assert_eq!(t.pepper[0].radius(&s.rules.tracking), crate::rules::tracking::DEFAULT_PEPPER_RADIUS_IN);
        let text = scene_to_ron(&s).expect("saves");
        let again: Scene = ron::from_str(&text).expect("loads");
        assert_eq!(again, s);
    }

    #[test]
    fn an_empty_section_is_left_out() {
        let s = scene("()");
        assert!(s.trails.is_empty());
        assert!(!scene_to_ron(&s).expect("saves").contains("trails"));
    }

    #[test]
    fn problems_name_the_entity() {
        let s = scene(
            "(trails: [(name: \"a\", quarry: \"fugitive\", points: [(at: (1, 1), age_moves: 10), (at: (2, 1), age_moves: 20)]),
                       (name: \"a\", quarry: \"fugitive\", points: []),
                       (name: \"b\", quarry: \"fugitive\", points: [(at: (100, 1), age_moves: 0)])],
              trackers: [(figure: \"hound\", quarry: \"nobody\", sense: scent(level: 0)),
                         (figure: \"hound\", quarry: \"hound\", sense: scent(level: 4)),
                         (figure: \"ghost\", quarry: \"fugitive\", sense: sight(level: 2),
                          state: (mode: sneezing(draught: \"none\")))],
              pepper: [(name: \"p\", at: (5, 50), radius_in: 0)],
              counter_scents: [(name: \"midden\", area: Circle(center: (5, 5), radius: 2), value: -4)],
              weather_changes: [(at_move: 0, weather: ()), (at_move: 0, weather: ())])",
        );
        let p = problems(&s);
        for needle in [
            "trail \"a\": points: ages must not increase",
            "trail \"a\": name: another trail",
            "trail \"a\": points: 0 must be 1",
            "trail \"b\": points at (100, 1) is off",
            "tracker \"hound\": quarry: \"nobody\"",
            "tracker \"hound\": sense: scent level 0",
            "tracker \"hound\": sense: scent level 4",
            "tracker \"hound\": figure: listed as a tracker twice",
            "tracker \"hound\": quarry: a tracker cannot track itself",
            "tracker \"ghost\": figure: no figure",
            "tracker \"ghost\": state mode: no pepper draught",
            "tracker \"ghost\": state mode: searching and sneezing are for scent trackers",
            "pepper \"p\": at (5, 50) is off",
            "pepper \"p\": radius_in",
            "counter scent \"midden\": value: -4",
            "trails: weather_changes at_move",
            "trails: weather_changes: at_move must increase",
        ] {
            assert!(p.iter().any(|m| m.starts_with(needle)), "{needle}: {p:?}");
        }
        // Levels 1 and 3 are the text's edges.
        for level in [1, 3] {
            let s = scene(&format!(
                "(trackers: [(figure: \"hound\", quarry: \"fugitive\", sense: scent(level: {level}))])"
            ));
            assert_eq!(problems(&s), Vec::<String>::new(), "level {level}");
        }
    }

    #[test]
    fn too_many_trackers_are_refused() {
        let trackers: Vec<String> = (0..=MAX_TRACKERS)
            .map(|_| "(figure: \"hound\", quarry: \"fugitive\", sense: scent(level: 1))".to_string())
            .collect();
        let s = scene(&format!("(trackers: [{}])", trackers.join(",")));
        assert!(problems(&s).iter().any(|m| m.starts_with("trails: trackers")), "{:?}", problems(&s));
    }

    #[test]
    fn unknown_fields_are_refused() {
        assert!(ron::from_str::<TrailsSection>("(hail: true)").is_err());
    }
}
