//! The event log: every event of a run, with every roll made for it, in the order it
//! happened. Written as JSON Lines by `tabula sim --events`.

use crate::rules::dice::Roll;
use crate::rules::outcome::{Meaning, Outcome};
use bevy::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EventLog>();
}

/// One thing that happened. `fields` holds the event's own data (sorted by key, so the
/// output is byte-stable).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogEvent {
    /// The move it happened in (written as `move`).
    #[serde(rename = "move")]
    pub move_number: u32,
    /// The round within the move, for per-round systems; null otherwise.
    pub round: Option<u8>,
    /// The system that logged it: movement, traps, fire, herds, sleepers, bookkeeping.
    pub system: &'static str,
    /// What happened, snake_case.
    pub event: &'static str,
    /// The scene name of the entity it happened to.
    pub subject: String,
    /// Every roll made for it, in order.
    pub rolls: Vec<Roll>,
    /// A stable snake_case outcome id.
    pub outcome: String,
    /// What the outcome means (trap sprung, harm, ...), for the play-test report; not written.
    #[serde(skip)]
    pub meaning: Meaning,
    /// The event's own data, written as further keys of its JSON object.
    #[serde(flatten)]
    pub fields: Map<String, Value>,
}

impl LogEvent {
    /// A new event of `system` about `subject`, its outcome `event` until one is given; its move
    /// and round are stamped by [`EventLog::push`].
    pub fn new(system: &'static str, event: &'static str, subject: impl Into<String>) -> Self {
        Self {
            move_number: 0,
            round: None,
            system,
            event,
            subject: subject.into(),
            rolls: Vec::new(),
            outcome: event.to_string(),
            meaning: Meaning::NONE,
            fields: Map::new(),
        }
    }

    /// Add a roll made for the event.
    pub fn roll(mut self, roll: Roll) -> Self {
        self.rolls.push(roll);
        self
    }

    /// The outcome: its id is written, its meaning kept for the report.
    pub fn outcome(mut self, outcome: impl Outcome) -> Self {
        self.outcome = outcome.id().to_string();
        self.meaning = outcome.meaning();
        self
    }

    /// Add one of the event's own fields. A value that cannot be written as JSON is stored
    /// as null rather than lost silently in a panic.
    pub fn field(mut self, key: &str, value: impl Serialize) -> Self {
        self.fields.insert(key.to_string(), serde_json::to_value(value).unwrap_or(Value::Null));
        self
    }

    /// Mark the event as decided by the house-rule setting at `path` (dotted, as registered
    /// in [`crate::rules::house_rules::HOUSE_RULES`]): the paths are written, in the order
    /// given and once each, as the `house_rules` array, which is left out when no house rule
    /// decided the event.
    pub fn house_rule(mut self, path: &'static str) -> Self {
        self.add_house_rule(path);
        self
    }

    /// [`LogEvent::house_rule`] on an event already built.
    pub fn add_house_rule(&mut self, path: &'static str) {
        debug_assert!(crate::rules::house_rules::is_house_rule(path), "{path} is not a registered house rule");
        let entry = self.fields.entry(HOUSE_RULES_KEY.to_string()).or_insert_with(|| Value::Array(Vec::new()));
        if !entry.is_array() {
            *entry = Value::Array(Vec::new());
        }
        if let Value::Array(paths) = entry
            && !paths.iter().any(|p| p.as_str() == Some(path))
        {
            paths.push(Value::String(path.to_string()));
        }
    }

    /// The house-rule setting paths that decided the event (its `house_rules` field), in order;
    /// empty when none did.
    pub fn house_rule_paths(&self) -> Vec<&str> {
        house_rule_paths(&self.fields)
    }

    /// Note that the condition `name` this event gave met a full list and was `how` (`merged`
    /// or `dropped`, see [`crate::scene::put_condition`]): written under
    /// [`CONDITION_AT_CAP_KEY`], one entry a condition.
    pub fn note_condition_at_cap(&mut self, name: &str, how: &str) {
        let entry = self.fields.entry(CONDITION_AT_CAP_KEY.to_string()).or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        if let Value::Object(conditions) = entry {
            conditions.insert(name.to_string(), Value::String(how.to_string()));
        }
    }

    /// True when any roll is MD: only the GM may see its faces.
    pub fn is_secret(&self) -> bool {
        self.rolls.iter().any(|r| r.secret)
    }

    /// One JSON object on one line.
    pub fn to_json_line(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The key of an event's house-rule setting paths ([`LogEvent::house_rule`]).
pub const HOUSE_RULES_KEY: &str = "house_rules";

/// The key of an event's conditions that met a full list ([`LogEvent::note_condition_at_cap`]):
/// an object from each condition's name to `merged` or `dropped`, left out when none did.
pub const CONDITION_AT_CAP_KEY: &str = "condition_at_cap";

/// The house-rule setting paths in an event's `fields` (its `house_rules` array), in order;
/// empty when there are none.
pub fn house_rule_paths(fields: &Map<String, Value>) -> Vec<&str> {
    fields
        .get(HOUSE_RULES_KEY)
        .and_then(Value::as_array)
        .map(|paths| paths.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Every event of the run so far.
#[derive(Resource, Default, Debug, Clone)]
pub struct EventLog {
    /// The events, in the order they happened.
    pub events: Vec<LogEvent>,
}

impl EventLog {
    /// Stamp the event with the clock and keep it.
    pub fn push(&mut self, clock: &super::clock::MoveClock, mut event: LogEvent) {
        event.move_number = clock.move_number;
        event.round = clock.round;
        self.events.push(event);
    }

    /// The whole log as JSON Lines.
    pub fn to_json_lines(&self) -> String {
        let mut out = String::new();
        for e in &self.events {
            out.push_str(&e.to_json_line());
            out.push('\n');
        }
        out
    }
}

/// A condition as the log writes it (`conditions_added`, `condition`): the scene's fields
/// without `kind`. The log has always shown a condition by its name and effects; the kind is
/// the scene's, so adding it left the log as it was.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LoggedCondition<'a> {
    /// The condition's name.
    pub name: &'a str,
    /// Inches off every move.
    pub move_penalty: f32,
    /// Moves left; null when it lasts until removed.
    pub moves_left: Option<u32>,
    /// Left out when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub immobile: bool,
    /// Left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub me_and_mo: i32,
}

impl<'a> LoggedCondition<'a> {
    /// `c` as the log writes it.
    pub fn of(c: &'a crate::scene::Condition) -> Self {
        Self {
            name: &c.name,
            move_penalty: c.move_penalty,
            moves_left: c.moves_left,
            immobile: c.immobile,
            me_and_mo: c.me_and_mo,
        }
    }

    /// Each of `conditions`, in order.
    pub fn all(conditions: &'a [crate::scene::Condition]) -> Vec<Self> {
        conditions.iter().map(Self::of).collect()
    }
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// A length, area or coordinate for the log, to a thousandth (of an inch, of a square inch),
/// worked in f64 so JSON prints it short.
pub fn round_to_thousandths(v: f32) -> f64 {
    (f64::from(v) * 1000.0).round() / 1000.0
}

/// A point for the log, each coordinate to a thousandth of an inch ([`round_to_thousandths`]).
pub fn point_to_thousandths(v: Vec2) -> (f64, f64) {
    (round_to_thousandths(v.x), round_to_thousandths(v.y))
}

/// To a thousandth worked in f32, for the fields and positions that have always been rounded
/// so. Not the same value as [`round_to_thousandths`] (the f32 product rounds differently), so
/// the two stay apart: changing either would change the log.
pub fn round_to_thousandths_f32(v: f32) -> f32 {
    (v * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{Condition, ConditionKind};

    #[test]
    fn logged_conditions_are_written_as_before_kinds() {
        let renamed = Condition {
            name: "Deceased".into(),
            kind: ConditionKind::Dead,
            move_penalty: 1.5,
            moves_left: Some(3),
            immobile: true,
            me_and_mo: -2,
            healing: None,
        };
        let plain = Condition {
            name: "strained ankle".into(),
            kind: ConditionKind::Injury,
            move_penalty: 2.0,
            moves_left: None,
            immobile: false,
            me_and_mo: 0,
            healing: None,
        };
        let e = LogEvent::new("traps", "test", "x").field("conditions_added", LoggedCondition::all(&[renamed, plain]));
        assert_eq!(
            e.fields["conditions_added"].to_string(),
            r#"[{"immobile":true,"me_and_mo":-2,"move_penalty":1.5,"moves_left":3,"name":"Deceased"},{"move_penalty":2.0,"moves_left":null,"name":"strained ankle"}]"#
        );
    }

    #[test]
    fn house_rule_paths_are_written_as_an_array_only_when_given() {
        let tagged = LogEvent::new("fire", "test", "x").house_rule("fire.person_rolls").house_rule("fire.burns");
        assert!(tagged.to_json_line().contains(r#""house_rules":["fire.person_rolls","fire.burns"]"#));
        assert_eq!(tagged.house_rule_paths(), vec!["fire.person_rolls", "fire.burns"]);
        // The same path twice is written once.
        let again = tagged.house_rule("fire.burns");
        assert_eq!(again.house_rule_paths(), vec!["fire.person_rolls", "fire.burns"]);
        let plain = LogEvent::new("fire", "test", "x").field("a", 1);
        assert!(!plain.to_json_line().contains("house_rules"));
        assert!(plain.house_rule_paths().is_empty());
    }
}
