//! The event log: every event of a run, with every roll made for it, in the order it
//! happened. Written as JSON Lines by `tabula sim --events`.

use crate::rules::dice::Roll;
use crate::rules::outcome::{Meaning, Outcome};
use bevy::prelude::*;
use serde::Serialize;
use serde::ser::SerializeMap;
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
    pub outcome: &'static str,
    /// What the outcome means (trap sprung, harm, ...), for the play-test report; not written.
    #[serde(skip)]
    pub meaning: Meaning,
    /// The event's own data, written as further keys of its JSON object.
    #[serde(flatten)]
    pub fields: Fields,
}

/// An event's own fields by key, written in key order as a JSON object's keys are. Keys are
/// the code's own names: a move logs thousands of events, and an owned key a field was an
/// allocation each.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fields(Vec<(&'static str, FieldValue)>);

/// A field's value: the event's own, or one many events share (a crowd's move factors, built
/// once a move instead of once a figure). Both read, compare and write as the value.
#[derive(Clone, Debug)]
enum FieldValue {
    Own(Value),
    Shared(std::sync::Arc<Value>),
}

impl std::ops::Deref for FieldValue {
    type Target = Value;

    fn deref(&self) -> &Value {
        match self {
            Self::Own(v) => v,
            Self::Shared(v) => v,
        }
    }
}

impl FieldValue {
    /// The value to change: a shared one is copied first.
    fn to_mut(&mut self) -> &mut Value {
        match self {
            Self::Own(v) => v,
            Self::Shared(v) => std::sync::Arc::make_mut(v),
        }
    }
}

impl PartialEq for FieldValue {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

/// Room an event's fields get at their first: a move's event has up to about eight.
const FIELDS_AT_ONCE: usize = 8;

impl Fields {
    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        // A scan: an event has a few fields (cheaper than a binary search of comparisons).
        self.0.iter().find(|(k, _)| same_key(k, key)).map(|(_, v)| &**v)
    }

    /// Whether there is a value under `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Puts `value` under `key`, replacing what was there.
    pub fn insert(&mut self, key: &'static str, value: Value) {
        self.put(key, FieldValue::Own(value));
    }

    /// Puts `value` under `key`, replacing what was there.
    fn put(&mut self, key: &'static str, value: FieldValue) {
        match self.position(key) {
            Ok(i) => self.0[i].1 = value,
            Err(i) => {
                // Room for a typical event's fields at once, not grown 4 then 8.
                if self.0.capacity() == 0 {
                    self.0.reserve_exact(FIELDS_AT_ONCE);
                }
                self.0.insert(i, (key, value))
            }
        }
    }

    /// The value under `key`, put there by `make` first if there was none.
    pub fn get_or_insert_with(&mut self, key: &'static str, make: impl FnOnce() -> Value) -> &mut Value {
        let i = match self.position(key) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (key, FieldValue::Own(make())));
                i
            }
        };
        self.0[i].1.to_mut()
    }

    /// The fields in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &Value)> + '_ {
        self.0.iter().map(|(k, v)| (*k, &**v))
    }

    /// How many fields there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Where `key` is, or where it would go: appended fields are the common case, so the last
    /// key is compared first.
    fn position(&self, key: &str) -> Result<usize, usize> {
        // Byte by byte, as `str`'s order is: keys are short, and this is no call to `memcmp`.
        let order = |k: &str| k.bytes().cmp(key.bytes());
        match self.0.last() {
            None => Err(0),
            Some((last, _)) if order(last).is_lt() => Err(self.0.len()),
            _ => self.0.binary_search_by(|(k, _)| order(k)),
        }
    }
}

impl std::ops::Index<&str> for Fields {
    type Output = Value;

    /// The value under `key`. Panics when there is none, as a JSON map does.
    fn index(&self, key: &str) -> &Value {
        match self.get(key) {
            Some(value) => value,
            None => panic!("the event has no field {key:?}"),
        }
    }
}

impl Serialize for Fields {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, &**value)?;
        }
        map.end()
    }
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
            outcome: event,
            meaning: Meaning::NONE,
            fields: Fields::default(),
        }
    }

    /// Add a roll made for the event.
    pub fn roll(mut self, roll: Roll) -> Self {
        self.rolls.push(roll);
        self
    }

    /// The outcome: its id is written, its meaning kept for the report.
    pub fn outcome(mut self, outcome: impl Outcome) -> Self {
        self.outcome = outcome.id();
        self.meaning = outcome.meaning();
        self
    }

    /// Add one of the event's own fields. A value that cannot be written as JSON is stored
    /// as null rather than lost silently in a panic. Left out, unbuilt, where this thread keeps
    /// only other keys ([`keeping_only_fields`]).
    pub fn field(mut self, key: &'static str, value: impl Serialize) -> Self {
        if KEPT_FIELDS.get().is_some_and(|kept| !kept.iter().any(|k| same_key(k, key))) {
            return self;
        }
        self.fields.insert(key, to_log_value(value));
        self
    }

    /// Add one of the event's own fields, a value many events share (built once, see
    /// [`SharedValues`]). Left out where this thread keeps only other keys, as
    /// [`LogEvent::field`] is.
    pub fn shared_field(mut self, key: &'static str, value: &std::sync::Arc<Value>) -> Self {
        if KEPT_FIELDS.get().is_some_and(|kept| !kept.iter().any(|k| same_key(k, key))) {
            return self;
        }
        self.fields.put(key, FieldValue::Shared(std::sync::Arc::clone(value)));
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
        let entry = self.fields.get_or_insert_with(HOUSE_RULES_KEY, || Value::Array(Vec::new()));
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
        let entry = self.fields.get_or_insert_with(CONDITION_AT_CAP_KEY, || Value::Object(Map::new()));
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

/// A field's value as the log keeps it: a value that cannot be written as JSON is null.
pub fn to_log_value(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The key of an event's house-rule setting paths ([`LogEvent::house_rule`]).
pub const HOUSE_RULES_KEY: &str = "house_rules";

/// The key of an event's conditions that met a full list ([`LogEvent::note_condition_at_cap`]):
/// an object from each condition's name to `merged` or `dropped`, left out when none did.
pub const CONDITION_AT_CAP_KEY: &str = "condition_at_cap";

/// The house-rule setting paths in an event's `fields` (its `house_rules` array), in order;
/// empty when there are none.
pub fn house_rule_paths(fields: &Fields) -> Vec<&str> {
    fields
        .get(HOUSE_RULES_KEY)
        .and_then(Value::as_array)
        .map(|paths| paths.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Whether two field keys are the same: lengths first (keys mostly differ in length), then
/// byte by byte, with no call to `memcmp` for such short strings.
fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().eq(b.bytes())
}

/// The log values of the last few distinct inputs, so a system logging the same input for a
/// crowd (its move factors, a condition's name) builds the value once: [`SharedValues::get`]
/// hands back the value built for an equal input, or builds it (forgetting the oldest kept). A
/// value is the one built anew.
#[derive(Debug)]
pub struct SharedValues<K> {
    recent: Vec<(K, std::sync::Arc<Value>)>,
}

impl<K> Default for SharedValues<K> {
    fn default() -> Self {
        Self { recent: Vec::new() }
    }
}

impl<K> SharedValues<K> {
    /// Most inputs kept: a crowd's few kinds of figure, ground and condition.
    const MOST: usize = 8;

    /// The log value of `input` ([`to_log_value`]), built if none is kept for an equal input.
    pub fn get<Q>(&mut self, input: &Q) -> &std::sync::Arc<Value>
    where
        Q: ?Sized + PartialEq + ToOwned<Owned = K> + Serialize,
        K: std::borrow::Borrow<Q>,
    {
        let at = match self.recent.iter().position(|(kept, _)| kept.borrow() == input) {
            Some(at) => at,
            None => {
                if self.recent.len() == Self::MOST {
                    self.recent.remove(0);
                }
                self.recent.push((input.to_owned(), std::sync::Arc::new(to_log_value(input))));
                self.recent.len() - 1
            }
        };
        &self.recent[at].1
    }
}

thread_local! {
    /// The only keys [`LogEvent::field`] keeps on this thread, or `None` for every key: see
    /// [`keeping_only_fields`].
    static KEPT_FIELDS: std::cell::Cell<Option<&'static [&'static str]>> = const { std::cell::Cell::new(None) };
}

/// Run `f` with [`LogEvent::field`] on this thread keeping only the fields under `keys` (the
/// rest of each event is as ever). For a run whose log is read for those keys and never written:
/// a play-test's run, whose report reads a dozen keys. Building every field (a move's allowance
/// factors and path, as JSON values) was about a tenth of such a run.
pub fn keeping_only_fields<R>(keys: &'static [&'static str], f: impl FnOnce() -> R) -> R {
    /// Puts back what was kept before, however `f` ends.
    struct Restore(Option<&'static [&'static str]>);
    impl Drop for Restore {
        fn drop(&mut self) {
            KEPT_FIELDS.set(self.0);
        }
    }
    let _restore = Restore(KEPT_FIELDS.replace(Some(keys)));
    f()
}

/// Every event of the run so far.
#[derive(Resource, Default, Debug, Clone)]
pub struct EventLog {
    /// The events, in the order they happened.
    pub events: Vec<LogEvent>,
}

impl EventLog {
    /// Room for `events` more events at once, where a system knows about how many it logs:
    /// not grown (and copied) a doubling at a time.
    pub fn reserve(&mut self, events: usize) {
        self.events.reserve(events);
    }

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
    use std::sync::Arc;

    /// A shared value reads, compares and writes as the same value given to one event, and
    /// changing it in one event leaves the others' as they were.
    #[test]
    fn a_shared_field_is_the_field_and_is_copied_before_it_changes() {
        let mut shared: SharedValues<Vec<(&str, f64)>> = SharedValues::default();
        let factors = [("basic move (man)", 6.0), ("bad ground", -1.0)];
        let a = Arc::clone(shared.get(&factors[..]));
        let b = Arc::clone(shared.get(factors.to_vec().as_slice()));
        assert!(Arc::ptr_eq(&a, &b), "an equal list is built once");
        let c = Arc::clone(shared.get(&factors[..1]));
        assert!(!Arc::ptr_eq(&a, &c), "a different list is built");
        assert_eq!(*c, serde_json::json!([["basic move (man)", 6.0]]));
        // Names by `str`, kept as `String`s.
        let mut names: SharedValues<String> = SharedValues::default();
        let caught = Arc::clone(names.get("caught in a loop"));
        assert!(Arc::ptr_eq(&caught, names.get(String::from("caught in a loop").as_str())));
        assert_eq!(*caught, serde_json::json!("caught in a loop"));
        // Eight kept: the ninth new name forgets the oldest, which is built again (equal).
        for n in 0..8 {
            names.get(format!("name {n}").as_str());
        }
        let again = Arc::clone(names.get("caught in a loop"));
        assert!(!Arc::ptr_eq(&caught, &again));
        assert_eq!(caught, again);
        let own = LogEvent::new("movement", "moved", "Ann").field("allowance_factors", factors).field("gait", "normal");
        let one =
            LogEvent::new("movement", "moved", "Ann").shared_field("allowance_factors", &a).field("gait", "normal");
        assert_eq!(one, own);
        assert_eq!(one.to_json_line(), own.to_json_line());
        assert_eq!(one.fields["allowance_factors"], own.fields["allowance_factors"]);
        // Changed through one event, the shared value is copied.
        let mut other = LogEvent::new("movement", "moved", "Bo").shared_field("allowance_factors", &a);
        if let Value::Array(list) = other.fields.get_or_insert_with("allowance_factors", || Value::Null) {
            list.clear();
        }
        assert_eq!(other.fields["allowance_factors"], serde_json::json!([]));
        assert_eq!(one.fields["allowance_factors"], own.fields["allowance_factors"]);
        // Left out, as any field is, where the thread keeps only other keys.
        let lean = keeping_only_fields(&["to"], || LogEvent::new("m", "e", "s").shared_field("allowance_factors", &a));
        assert!(lean.fields.is_empty());
    }

    /// Fields under other keys are left out while only some are kept, and every key is kept
    /// again after.
    #[test]
    fn a_thread_keeping_only_some_fields_leaves_the_rest_out_until_it_is_done() {
        let build = || LogEvent::new("movement", "moved", "Ann").field("to", [1, 2]).field("gait", "normal");
        let lean = keeping_only_fields(&["to", "trap"], build);
        assert_eq!((lean.fields.get("to"), lean.fields.get("gait")), (Some(&serde_json::json!([1, 2])), None));
        let whole = build();
        assert_eq!(whole.fields.len(), 2);
        // Not on another thread.
        let other = keeping_only_fields(&["to"], || std::thread::spawn(build).join().unwrap());
        assert_eq!(other.fields.len(), 2);
    }
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
    fn fields_are_written_in_key_order_as_a_json_map_writes_them() {
        // Out of order, one replaced, one past the last: written as serde_json's sorted map.
        let e = LogEvent::new("traps", "test", "x")
            .field("to", (1.0, 2.0))
            .field("allowance", 5.5)
            .field("gait", "normal")
            .field("allowance", 6)
            .field("waypoints_left", 2)
            .field("a_first", true);
        let mut map = Map::new();
        for (k, v) in [
            ("to", serde_json::json!([1.0, 2.0])),
            ("allowance", serde_json::json!(6)),
            ("gait", serde_json::json!("normal")),
            ("waypoints_left", serde_json::json!(2)),
            ("a_first", serde_json::json!(true)),
        ] {
            map.insert(k.to_string(), v);
        }
        assert_eq!(serde_json::to_string(&e.fields).ok(), serde_json::to_string(&map).ok());
        assert_eq!(e.fields.len(), 5);
        assert_eq!(
            e.fields.iter().map(|(k, _)| k).collect::<Vec<_>>(),
            ["a_first", "allowance", "gait", "to", "waypoints_left"]
        );
        assert_eq!(e.fields["allowance"], 6);
        assert!(e.fields.contains_key("gait") && !e.fields.contains_key("fatigue"));
        assert_eq!(e.fields.get("fatigue"), None);
        let line = e.to_json_line();
        assert!(
            line.ends_with(
                r#""outcome":"test","a_first":true,"allowance":6,"gait":"normal","to":[1.0,2.0],"waypoints_left":2}"#
            ),
            "{line}"
        );
    }

    #[test]
    #[should_panic(expected = "no field \"fatigue\"")]
    fn a_missing_field_indexed_panics_as_a_json_map_does() {
        let _ = &LogEvent::new("traps", "test", "x").field("a", 1).fields["fatigue"];
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
