//! Trails in the scene file: trails laid before the scene starts, trackers and their quarry,
//! draughts of pepper, and the weather with its changes (000 "Tracking", "Scent Tracking",
//! "Pepper trap"; issue 18). Not yet part of [`Scene`](super::Scene): docs/tracking.md.

use super::format::Point;
use crate::rules::tracking::{SCENT_LEVEL_MAX, SCENT_LEVEL_MIN, Weather};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Most points a trail laid in the scene file may hold.
pub const MAX_TRAIL_POINTS: usize = 10_000;
/// How far around its point a draught of pepper reaches, inches, when the file gives none. House
/// rule (proposed `tracking.pepper_radius_in`): 000 "Pepper trap" says "one draught of pepper
/// laid on the trail", with no size; half an inch is a pinch across the trail.
pub const DEFAULT_PEPPER_RADIUS_IN: f32 = 0.5;

fn default_pepper_radius() -> f32 {
    DEFAULT_PEPPER_RADIUS_IN
}

/// One point of a trail: where the quarry passed, and how many moves before the scene started.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrailPoint {
    /// Where, in table inches.
    pub at: Point,
    /// Moves since the quarry passed here, at the scene's start.
    pub age_moves: u32,
}

/// A trail laid before the scene starts: the points in the order the quarry passed them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneTrail {
    /// The trail's name, unique among trails.
    pub name: String,
    /// Who left it: a figure's name, or a name of its own for a quarry not on the table.
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

/// A figure's tracker fields: what it follows and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrackerFields {
    /// The figure who tracks.
    pub figure: String,
    /// The quarry whose trail it follows: a figure's name or a trail's `quarry`.
    pub quarry: String,
    /// By sight or by scent, with the level.
    pub sense: TrackerSense,
}

/// A draught of pepper laid on a trail (000 "Pepper trap").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PepperDraught {
    /// The draught's name, unique among draughts.
    pub name: String,
    /// Where it lies, in table inches.
    pub at: Point,
    /// How far around `at` an animal moving in meets it (house rule default 0.5").
    #[serde(default = "default_pepper_radius")]
    pub radius_in: f32,
}

/// The weather from a move on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeatherChange {
    /// The move (1-based) from which it holds.
    pub at_move: u32,
    /// The weather from then.
    pub weather: Weather,
}

/// Everything of trails a scene holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrailsSection {
    /// Whether beasts leave trails as they move (figures always do).
    pub beasts_leave_trails: bool,
    /// Trails laid before the scene starts.
    pub trails: Vec<SceneTrail>,
    /// The trackers.
    pub trackers: Vec<TrackerFields>,
    /// Draughts of pepper.
    pub pepper: Vec<PepperDraught>,
    /// The weather at the start (default clear).
    pub weather: Weather,
    /// Changes of weather, in move order.
    pub weather_changes: Vec<WeatherChange>,
}

impl TrailsSection {
    /// The weather in force at `move_number`: the last change at or before it, else the start's.
    pub fn weather_at(&self, move_number: u32) -> Weather {
        self.weather_changes
            .iter()
            .filter(|c| c.at_move <= move_number)
            .max_by_key(|c| c.at_move)
            .map_or(self.weather, |c| c.weather)
    }

    /// Every problem with the section; `figures` are the scene's figure names. Empty: valid.
    pub fn problems(&self, figures: &[&str]) -> Vec<String> {
        let mut out = Vec::new();
        let finite = |p: Point| p.0.is_finite() && p.1.is_finite();
        let mut names = HashSet::new();
        for t in &self.trails {
            if !names.insert(t.name.as_str()) {
                out.push(format!("trail \"{}\": name used twice", t.name));
            }
            if t.points.is_empty() {
                out.push(format!("trail \"{}\": no points", t.name));
            }
            if t.points.len() > MAX_TRAIL_POINTS {
                out.push(format!("trail \"{}\": more than {MAX_TRAIL_POINTS} points", t.name));
            }
            if t.points.iter().any(|p| !finite(p.at)) {
                out.push(format!("trail \"{}\": a point is not a finite position", t.name));
            }
            if t.points.windows(2).any(|w| w[1].age_moves > w[0].age_moves) {
                out.push(format!("trail \"{}\": ages must not increase along the trail (oldest first)", t.name));
            }
        }
        let quarries: HashSet<&str> =
            self.trails.iter().map(|t| t.quarry.as_str()).chain(figures.iter().copied()).collect();
        let figure_set: HashSet<&str> = figures.iter().copied().collect();
        let mut trackers = HashSet::new();
        for t in &self.trackers {
            if !figure_set.contains(t.figure.as_str()) {
                out.push(format!("tracker \"{}\": no such figure", t.figure));
            }
            if !trackers.insert(t.figure.as_str()) {
                out.push(format!("tracker \"{}\": listed twice", t.figure));
            }
            if !quarries.contains(t.quarry.as_str()) {
                out.push(format!(
                    "tracker \"{}\": quarry \"{}\" is neither a figure nor a trail's quarry",
                    t.figure, t.quarry
                ));
            }
            if t.quarry == t.figure {
                out.push(format!("tracker \"{}\": cannot track itself", t.figure));
            }
            if let TrackerSense::Scent { level } = t.sense
                && !(SCENT_LEVEL_MIN..=SCENT_LEVEL_MAX).contains(&level)
            {
                out.push(format!("tracker \"{}\": scent level {level} must be 1 to 3", t.figure));
            }
        }
        let mut draughts = HashSet::new();
        for p in &self.pepper {
            if !draughts.insert(p.name.as_str()) {
                out.push(format!("pepper \"{}\": name used twice", p.name));
            }
            if !finite(p.at) {
                out.push(format!("pepper \"{}\": not a finite position", p.name));
            }
            if !(p.radius_in.is_finite() && p.radius_in > 0.0) {
                out.push(format!("pepper \"{}\": radius_in {} must be above 0", p.name, p.radius_in));
            }
        }
        if self.weather_changes.windows(2).any(|w| w[1].at_move <= w[0].at_move) {
            out.push("weather_changes: moves must increase".to_string());
        }
        if self.weather_changes.iter().any(|c| c.at_move == 0) {
            out.push("weather_changes: moves start at 1".to_string());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::tracking::Rain;

    fn trail(name: &str, ages: &[u32]) -> SceneTrail {
        SceneTrail {
            name: name.to_string(),
            quarry: "fugitive".to_string(),
            points: ages.iter().enumerate().map(|(i, &a)| TrailPoint { at: (i as f32, 0.0), age_moves: a }).collect(),
        }
    }

    fn hound(level: u8) -> TrackerFields {
        TrackerFields {
            figure: "hound".to_string(),
            quarry: "fugitive".to_string(),
            sense: TrackerSense::Scent { level },
        }
    }

    #[test]
    fn a_valid_section_has_no_problems() {
        let s = TrailsSection {
            trails: vec![trail("old trail", &[30, 20, 10])],
            trackers: vec![hound(3)],
            pepper: vec![PepperDraught { name: "pinch".to_string(), at: (4.0, 2.0), radius_in: 0.5 }],
            weather_changes: vec![WeatherChange {
                at_move: 10,
                weather: Weather { rain: Rain::Light, ..Weather::CLEAR },
            }],
            ..TrailsSection::default()
        };
        assert!(s.problems(&["hound", "fugitive"]).is_empty(), "{:?}", s.problems(&["hound", "fugitive"]));
        assert_eq!(s.weather_at(9), Weather::CLEAR);
        assert_eq!(s.weather_at(10).rain, Rain::Light);
        assert_eq!(s.weather_at(500).rain, Rain::Light);
    }

    #[test]
    fn problems_are_found() {
        let s = TrailsSection {
            trails: vec![trail("a", &[10, 20]), trail("a", &[])],
            trackers: vec![hound(0), hound(4)],
            pepper: vec![PepperDraught { name: "p".to_string(), at: (f32::NAN, 0.0), radius_in: 0.0 }],
            weather_changes: vec![
                WeatherChange { at_move: 0, weather: Weather::CLEAR },
                WeatherChange { at_move: 0, weather: Weather::CLEAR },
            ],
            ..TrailsSection::default()
        };
        let p = s.problems(&["hound"]);
        for needle in [
            "ages must not increase",
            "name used twice",
            "no points",
            "scent level 0",
            "scent level 4",
            "listed twice",
            "not a finite position",
            "radius_in 0",
            "moves must increase",
            "moves start at 1",
        ] {
            assert!(p.iter().any(|m| m.contains(needle)), "{needle}: {p:?}");
        }
        // Levels 1 and 3 are the text's edges.
        let ok = |level| TrailsSection { trackers: vec![hound(level)], ..TrailsSection::default() };
        assert!(ok(1).problems(&["hound", "fugitive"]).is_empty());
        assert!(ok(3).problems(&["hound", "fugitive"]).is_empty());
        assert!(!ok(3).problems(&["hound"]).is_empty(), "no such quarry");
    }

    #[test]
    fn parses_from_ron() {
        let text = r#"(
            trails: [(name: "night", quarry: "fugitive", points: [(at: (0.0, 0.0), age_moves: 40)])],
            trackers: [(figure: "ranger", quarry: "fugitive", sense: sight(level: 2))],
            pepper: [(name: "pinch", at: (5.0, 1.0))],
            weather_changes: [(at_move: 10, weather: (rain: light))],
        )"#;
        let s: TrailsSection = ron::from_str(text).expect("parse");
        assert_eq!(s.pepper[0].radius_in, DEFAULT_PEPPER_RADIUS_IN);
        assert_eq!(s.trackers[0].sense, TrackerSense::Sight { level: 2 });
        assert_eq!(s.weather_at(10).rain, Rain::Light);
        assert!(ron::from_str::<TrailsSection>("(hail: true)").is_err());
    }
}
