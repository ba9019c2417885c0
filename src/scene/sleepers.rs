//! Sleeping groups in the scene file: where they lie, who they are, and how far each woken member
//! has got (000 "Awaking groups asleep", "Woken sleepers response", "Dressing & Undressing").

use super::format::Point;
use crate::rules::character::{Armour, Sex};
use crate::rules::sleepers::{D6OrMd, Dresser, Hearing, Rank, SleepersSettings};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

pub use crate::rules::sleepers::Shelter;

fn is_false(b: &bool) -> bool {
    !*b
}

fn default_side() -> String {
    "camp".to_string()
}

/// Most rounds of dressing a member may have on the clock (plate for a lady is 12).
pub const MAX_DRESSING_ROUNDS: u32 = 100;
/// Most moves a member may be left listening (the text rolls D6).
pub const MAX_LISTEN_MOVES: u32 = 100;
/// Most conditions a member may carry: as a figure, [`MAX_CONDITIONS`](super::load::MAX_CONDITIONS).
pub const MAX_MEMBER_CONDITIONS: usize = super::load::MAX_CONDITIONS;

/// A group asleep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SleepingGroup {
    /// The group's name, unique in the scene.
    pub name: String,
    /// Where the group lies; noises are measured to here.
    pub position: Point,
    /// Open, tent or building: sets the earshot (6", 4", 2").
    #[serde(default)]
    pub shelter: Shelter,
    /// Whose side the sleepers are on: an investigator who comes upon a figure of another side
    /// raises the alarm.
    #[serde(default = "default_side")]
    pub side: String,
    /// "Noisy area −1".
    #[serde(default, skip_serializing_if = "is_false")]
    pub noisy_area: bool,
    /// "Known threat +1".
    #[serde(default, skip_serializing_if = "is_false")]
    pub known_threat: bool,
    /// "Expecting trouble +1" to the response.
    #[serde(default, skip_serializing_if = "is_false")]
    pub expecting_trouble: bool,
    /// Members who arm dress fully (the text's extra rounds), not hastily.
    #[serde(default, skip_serializing_if = "is_false")]
    pub full_dressing: bool,
    /// "D6 or MD" for this group's waking and response rolls; `None` takes the rules settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<D6OrMd>,
    /// The sleepers: a plain name, or `(name: ..., rank: ..., ...)`.
    pub members: Vec<Sleeper>,
}

/// What a member of a sleeping group is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SleeperState {
    /// Asleep.
    #[default]
    Asleep,
    /// Awake and watchful with no timer (a watch kept in the group): hears every noise in
    /// earshot and responds to it; "go back to sleep" leaves them awake.
    Awake,
    /// "Listen awake D6 moves": hears every noise in earshot and responds to it; asleep again
    /// when the moves run out.
    Listening {
        /// Moves left before they sleep again.
        moves_left: u32,
    },
    /// Walking toward a noise (`returning`: walking back to the group) at the basic move.
    Investigating {
        /// Where they are now.
        at: Point,
        /// The noise they are walking to.
        toward: Point,
        /// Walking back to the group, having found nothing.
        returning: bool,
    },
    /// Has raised or joined the alarm, and arms.
    Alarm,
}

impl SleeperState {
    /// The state's name, as the scene file writes it (`asleep`, `listening`, ...).
    pub fn id(&self) -> &'static str {
        match self {
            SleeperState::Asleep => "asleep",
            SleeperState::Awake => "awake",
            SleeperState::Listening { .. } => "listening",
            SleeperState::Investigating { .. } => "investigating",
            SleeperState::Alarm => "alarm",
        }
    }
}

/// One member of a sleeping group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SleeperSheet {
    /// The member's name, unique in the group.
    pub name: String,
    /// Officer +1, independent 0, follower −1, nidderling −2 to the response.
    #[serde(default)]
    pub rank: Rank,
    /// The armour they arm in when woken (and move in while investigating).
    #[serde(default)]
    pub armour: Armour,
    /// Normal, acute (+1) or obtuse (−1).
    #[serde(default)]
    pub hearing: Hearing,
    /// For the basic move while investigating (6" men, 5" women).
    #[serde(default)]
    pub sex: Sex,
    /// Who is dressing, for the extra rounds of full dressing.
    #[serde(default)]
    pub dresser: Dresser,
    /// What they are doing; a saved scene carries it on.
    #[serde(default)]
    pub state: SleeperState,
    /// Rounds spent dressing so far; `None` until they start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dressing_rounds: Option<u32>,
    /// Lasting effects: burns from a fire that reached them (001 "Persons").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<super::format::Condition>,
}

/// A member, written in the scene either as a plain name (`"Ulf"`: an independent, clothed,
/// normal hearer, asleep) or in full.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Sleeper(pub SleeperSheet);

impl Sleeper {
    /// A member with every default: independent, clothed, normal hearing, asleep.
    pub fn named(name: &str) -> Self {
        Sleeper(SleeperSheet {
            name: name.to_string(),
            rank: Rank::default(),
            armour: Armour::default(),
            hearing: Hearing::default(),
            sex: Sex::default(),
            dresser: Dresser::default(),
            state: SleeperState::Asleep,
            dressing_rounds: None,
            conditions: Vec::new(),
        })
    }
}

impl<'de> Deserialize<'de> for Sleeper {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SleeperVisitor;
        impl<'de> Visitor<'de> for SleeperVisitor {
            type Value = Sleeper;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a member's name, or (name: \"...\", rank: ..., armour: ..., hearing: ..., ...)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Sleeper, E> {
                Ok(Sleeper::named(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Sleeper, A::Error> {
                SleeperSheet::deserialize(de::value::MapAccessDeserializer::new(map)).map(Sleeper)
            }
        }
        deserializer.deserialize_any(SleeperVisitor)
    }
}

impl SleepingGroup {
    /// The checks the parser cannot make.
    pub(crate) fn check<'a>(&'a self, c: &mut super::load::Checker<'a>) {
        let e = c.name("sleeping group", &self.name);
        c.on_table(&e, "position", self.position);
        let max = super::load::MAX_GROUP_SIZE;
        if self.members.is_empty() || self.members.len() > max {
            c.problem(&e, format!("members: {} must be 1 to {max}", self.members.len()));
            return;
        }
        let mut seen = std::collections::HashSet::new();
        for (i, Sleeper(m)) in self.members.iter().enumerate() {
            let field = format!("members[{i}]");
            if m.name.trim().is_empty() {
                c.problem(&e, format!("{field}: name must not be empty"));
            } else if m.name.chars().count() > super::load::MAX_NAME_CHARS {
                c.problem(&e, format!("{field}: name longer than {} characters", super::load::MAX_NAME_CHARS));
            } else if !seen.insert(m.name.as_str()) {
                c.problem(&e, format!("{field} \"{}\": another member of the group has this name", m.name));
            }
            let who = format!("{field} \"{}\"", m.name.chars().take(super::load::MAX_NAME_CHARS).collect::<String>());
            match m.state {
                SleeperState::Listening { moves_left } if moves_left == 0 || moves_left > MAX_LISTEN_MOVES => {
                    c.problem(
                        &e,
                        format!("{who}: state listening moves_left {moves_left} must be 1 to {MAX_LISTEN_MOVES}"),
                    );
                }
                SleeperState::Investigating { at, toward, .. } => {
                    c.on_table(&e, &format!("{who}: state investigating at"), at);
                    c.on_table(&e, &format!("{who}: state investigating toward"), toward);
                }
                _ => {}
            }
            if let Some(r) = m.dressing_rounds
                && r > MAX_DRESSING_ROUNDS
            {
                c.problem(&e, format!("{who}: dressing_rounds {r} is more than {MAX_DRESSING_ROUNDS}"));
            }
            if m.conditions.len() > MAX_MEMBER_CONDITIONS {
                c.problem(
                    &e,
                    format!("{who}: conditions: {} is more than {MAX_MEMBER_CONDITIONS}", m.conditions.len()),
                );
            }
        }
    }
}

/// Checks on the sleepers' rules settings (`rules: (sleepers: (...))`).
pub(crate) fn check_settings(s: &SleepersSettings, c: &mut super::load::Checker) {
    let e = "rules";
    let factors = [
        ("alarm_waking_factor", s.alarm_waking_factor),
        ("cursing_waking_factor", s.cursing_waking_factor),
        ("furtive_movement_response_factor", s.furtive_movement_response_factor),
        ("plate_movement_response_factor", s.plate_movement_response_factor),
        ("screech_response_factor", s.screech_response_factor),
        ("shout_response_factor", s.shout_response_factor),
        ("cursing_response_factor", s.cursing_response_factor),
    ];
    for (field, v) in factors {
        if !(-20..=20).contains(&v) {
            c.problem(e, format!("sleepers.{field}: {v} must be -20 to 20"));
        }
    }
    if !(1..=20).contains(&s.light_armour_hasty_rounds) {
        c.problem(e, format!("sleepers.light_armour_hasty_rounds: {} must be 1 to 20", s.light_armour_hasty_rounds));
    }
    let spot = s.investigator_spots_within;
    if !(spot.is_finite() && (0.0..=100.0).contains(&spot)) {
        c.problem(e, format!("sleepers.investigator_spots_within: {spot} must be 0 to 100"));
    }
}
