//! Trails: tracking by sight, scent tracking by animals, the pepper trap, and the weather that
//! spoils a trail (000 "Tracking", "Scent Tracking", "Pepper trap").
//!
//! Dice follow RULES-NOTES "Dice": the tracking dice are D6 (1–6). Ages are in moves (RULES-NOTES
//! "Time and movement": a move is 3 minutes, a day `moves_per_day` moves, passed in). Distances
//! are inches as `f32`; "within" a distance includes it. Every reading of a terse line is marked
//! "Reading:" where it is applied, is a field of [`TrackingSettings`] where a choice is needed
//! (its default the most literal one), and is listed in docs/tracking.md.

use super::dice::{Dice, DiceSource, Roll, Rolls};
use super::lighting::Lighting;
use super::outcome::Meaning;
use super::sleepers::Noise;
use serde::{Deserialize, Serialize};

/// 000 "Tracking": "Trails are traceable for up to three days".
pub const SIGHT_TRACEABLE_DAYS: u32 = 3;
/// 000 "Tracking": "Fresh within 60 moves, (=3 hours)".
pub const SIGHT_FRESH_WITHIN_MOVES: u32 = 60;
/// 000 "Tracking": "fresh 0".
pub const SIGHT_FRESH_FACTOR: i32 = 0;
/// 000 "Tracking": "set -1".
pub const SIGHT_SET_FACTOR: i32 = -1;
/// 000 "Tracking": "stale -2".
pub const SIGHT_STALE_FACTOR: i32 = -2;
/// 000 "Tracking": "old -3".
pub const SIGHT_OLD_FACTOR: i32 = -3;
/// 000 "Tracking": "Gloomy D/L -1".
pub const SIGHT_GLOOM_FACTOR: i32 = -1;
/// 000 "Tracking": "Dark DDL -3".
pub const SIGHT_DARK_FACTOR: i32 = -3;
/// 000 "Tracking": "snow on ground +2".
pub const SIGHT_SNOW_ON_GROUND_FACTOR: i32 = 2;
/// 000 "Tracking": "tracker moves 3" next move in guessed direction".
pub const GUESS_MOVE_IN: f32 = 3.0;
/// 000 "Tracking": "can only follow the track if within 1"".
pub const PICK_UP_WITHIN_IN: f32 = 1.0;
/// 000 "Tracking": "3- lost track, must backtrack 3"".
pub const BACKTRACK_IN: f32 = 3.0;

/// 000 "Scent Tracking": "Scents are traceable for up to 6 hours (120 moves)" ("old = less than 120 moves").
pub const SCENT_TRACEABLE_BELOW_MOVES: u32 = 120;
/// 000 "Scent Tracking": "fresh = less than 40 moves".
pub const SCENT_FRESH_BELOW_MOVES: u32 = 40;
/// 000 "Scent Tracking": "stale = less than 80 moves".
pub const SCENT_STALE_BELOW_MOVES: u32 = 80;
/// 000 "Scent Tracking": "fresh 0".
pub const SCENT_FRESH_FACTOR: i32 = 0;
/// 000 "Scent Tracking": "stale -1".
pub const SCENT_STALE_FACTOR: i32 = -1;
/// 000 "Scent Tracking": "old -2".
pub const SCENT_OLD_FACTOR: i32 = -2;
/// 000 "Scent Tracking": "ground wet -1".
pub const SCENT_GROUND_WET_FACTOR: i32 = -1;
/// 000 "Scent Tracking": "Counter scents -1 > -3": the strongest.
pub const COUNTER_SCENTS_STRONGEST: i32 = -3;
/// 000 "Scent Tracking": "Scents are lost within 1" of water obstacles".
pub const WATER_LOSS_WITHIN_IN: f32 = 1.0;
/// 000 "Scent Tracking": "must search again at least 3" away from loss point".
pub const SEARCH_AGAIN_AT_LEAST_IN: f32 = 3.0;
/// 000 "Scent Tracking": "For scent tracking animals, levels 1 > 3": the lowest.
pub const SCENT_LEVEL_MIN: u8 = 1;
/// 000 "Scent Tracking": "levels 1 > 3": the highest.
pub const SCENT_LEVEL_MAX: u8 = 3;

/// 000 "Tracking" and "Scent Tracking": "Result 7+ follow at normal move rate".
pub const FOLLOW_NORMAL_FROM: i32 = 7;
/// 000 "Tracking" and "Scent Tracking": "6 follow at move -1"".
pub const FOLLOW_MINUS_ONE_AT: i32 = 6;
/// 000 "Tracking" and "Scent Tracking": "6 follow at move -1"": the inches lost.
pub const MINUS_ONE_LOSS_IN: f32 = 1.0;
/// 000 "Tracking" and "Scent Tracking": "5 follow at move -3"".
pub const FOLLOW_MINUS_THREE_AT: i32 = 5;
/// 000 "Tracking" and "Scent Tracking": "5 follow at move -3"": the inches lost.
pub const MINUS_THREE_LOSS_IN: f32 = 3.0;
/// 000 "Tracking": "4 prey was here but direction uncertain"; "Scent Tracking": "4 halted a move".
pub const FOUR_ROW_AT: i32 = 4;
/// 000 "Tracking": "3- lost track"; "Scent Tracking": "3- trail lost".
pub const LOST_AT_MOST: i32 = 3;

/// 000 "Pepper trap": "sneeze violently (heard to 9")".
pub const SNEEZE_HEARD_TO_IN: f32 = 9.0;
/// 000 "Pepper trap": "D6 each move needing 6 to restart tracking".
pub const PEPPER_RESTART_ON: i32 = 6;

// ---------------------------------------------------------------------------------------------
// Weather
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// Rain, as the tracking tables grade it.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Rain {
        /// No rain.
        #[default]
        None => "none",
        /// Light rain: scent −1; sight not listed.
        Light => "light",
        /// Moderate rain: sight −1, scent −2.
        Moderate => "moderate",
        /// Heavy rain: sight −2, scent −3.
        Heavy => "heavy",
    }
}

crate::rules::named_enum! {
    /// Falling snow, as the tracking tables grade it.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Snow {
        /// No snow falling.
        #[default]
        None => "none",
        /// Light snow: sight −1; scent not listed.
        Light => "light",
        /// Moderate snow: sight −2, scent −1.
        Moderate => "moderate",
        /// Heavy snow: sight −3, scent −2.
        Heavy => "heavy",
    }
}

crate::rules::named_enum! {
    /// Wind, as the scent table grades it.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Wind {
        /// No wind to speak of.
        #[default]
        None => "none",
        /// Strong wind: scent −1.
        Strong => "strong",
        /// A gale: scent −2.
        Gale => "gale",
    }
}

impl Rain {
    /// 000 "Tracking": "moderate rain -1, heavy rain -2" (light rain is not listed: 0), with its reason.
    pub fn sight_factor(self) -> Option<(&'static str, i32)> {
        match self {
            Rain::None | Rain::Light => None,
            Rain::Moderate => Some(("moderate rain", -1)),
            Rain::Heavy => Some(("heavy rain", -2)),
        }
    }

    /// 000 "Scent Tracking": "light rain -1, moderate rain -2, heavy rain -3", with its reason.
    pub fn scent_factor(self) -> Option<(&'static str, i32)> {
        match self {
            Rain::None => None,
            Rain::Light => Some(("light rain", -1)),
            Rain::Moderate => Some(("moderate rain", -2)),
            Rain::Heavy => Some(("heavy rain", -3)),
        }
    }
}

impl Snow {
    /// 000 "Tracking": "light snow -1, moderate snow -2, heavy snow -3", with its reason.
    pub fn sight_factor(self) -> Option<(&'static str, i32)> {
        match self {
            Snow::None => None,
            Snow::Light => Some(("light snow", -1)),
            Snow::Moderate => Some(("moderate snow", -2)),
            Snow::Heavy => Some(("heavy snow", -3)),
        }
    }

    /// 000 "Scent Tracking": "moderate snow -1, heavy snow -2" (light snow is not listed: 0), with its reason.
    pub fn scent_factor(self) -> Option<(&'static str, i32)> {
        match self {
            Snow::None | Snow::Light => None,
            Snow::Moderate => Some(("moderate snow", -1)),
            Snow::Heavy => Some(("heavy snow", -2)),
        }
    }
}

impl Wind {
    /// 000 "Scent Tracking": "strong wind -1, gale -2", with its reason (sight lists no wind).
    pub fn scent_factor(self) -> Option<(&'static str, i32)> {
        match self {
            Wind::None => None,
            Wind::Strong => Some(("strong wind", -1)),
            Wind::Gale => Some(("gale", -2)),
        }
    }
}

/// The weather over the whole table. Default: clear (no rain, snow or wind, dry ground).
///
/// Reading: each factor is the scene's to set; rain does not make the ground wet by itself
/// (the scent table lists "ground wet" and rain as separate factors), so a scene wets the
/// ground with a weather change of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Weather {
    /// Rain falling.
    pub rain: Rain,
    /// Snow falling.
    pub snow: Snow,
    /// Snow lying on the ground (sight +2).
    pub snow_on_ground: bool,
    /// Wind.
    pub wind: Wind,
    /// Wet ground (scent −1).
    pub ground_wet: bool,
}

impl Weather {
    /// Clear weather: the default.
    pub const CLEAR: Weather =
        Weather { rain: Rain::None, snow: Snow::None, snow_on_ground: false, wind: Wind::None, ground_wet: false };

    /// 000 "Tracking": the weather's factors on a roll to track by sight, each with its reason, in the text's order.
    pub fn sight_factors(&self) -> Vec<(&'static str, i32)> {
        let mut out: Vec<(&'static str, i32)> = Vec::new();
        out.extend(self.rain.sight_factor());
        out.extend(self.snow.sight_factor());
        if self.snow_on_ground {
            out.push(("snow on ground", SIGHT_SNOW_ON_GROUND_FACTOR));
        }
        out
    }

    /// 000 "Scent Tracking": the weather's factors on a scent roll, each with its reason, in the text's order.
    pub fn scent_factors(&self) -> Vec<(&'static str, i32)> {
        let mut out: Vec<(&'static str, i32)> = Vec::new();
        if self.ground_wet {
            out.push(("ground wet", SCENT_GROUND_WET_FACTOR));
        }
        out.extend(self.rain.scent_factor());
        out.extend(self.snow.scent_factor());
        out.extend(self.wind.scent_factor());
        out
    }
}

/// 000 "Tracking": "Gloomy D/L -1, Dark DDL -3", with its reason; `None` in DDD, where the text gives no row.
///
/// Reading: DDD (pitch black, 2" sight) is darker than the text's darkest row; a trail that
/// cannot be seen cannot be followed by sight ([`SightOutcome::TooDark`]). A light lifts the
/// level (`Lighting::brighter`), so a tracker with a lantern tracks at D/L.
pub fn sight_lighting_factor(lighting: Lighting) -> Option<Option<(&'static str, i32)>> {
    match lighting {
        Lighting::Sun | Lighting::Daylight | Lighting::Overcast => Some(None),
        Lighting::Gloom => Some(Some(("gloomy D/L", SIGHT_GLOOM_FACTOR))),
        Lighting::Dark => Some(Some(("dark DDL", SIGHT_DARK_FACTOR))),
        Lighting::PitchBlack => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Trail ages
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// How old a trail is, for tracking by sight.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SightAge {
        /// "Fresh within 60 moves": 0.
        Fresh => "fresh",
        /// "set rest of 1st days": −1.
        Set => "set",
        /// "stale on 2nd day": −2.
        Stale => "stale",
        /// "old 3rd day": −3.
        Old => "old",
    }
}

impl SightAge {
    /// 000 "Tracking": "fresh 0, set -1, stale -2, old -3".
    pub fn factor(self) -> i32 {
        match self {
            SightAge::Fresh => SIGHT_FRESH_FACTOR,
            SightAge::Set => SIGHT_SET_FACTOR,
            SightAge::Stale => SIGHT_STALE_FACTOR,
            SightAge::Old => SIGHT_OLD_FACTOR,
        }
    }
}

/// 000 "Tracking": "traceable for up to three days. Fresh within 60 moves, (=3 hours) set rest of 1st days, stale on 2nd day, old 3rd day".
///
/// Reading: `age_moves` is the moves since the prey passed; each edge is inclusive, as "within"
/// is: fresh up to 60, set up to one day (`moves_per_day`), stale up to two days, old up to
/// three; older is `None` (untraceable). A `moves_per_day` of 60 or less leaves no set band.
pub fn sight_age(age_moves: u32, moves_per_day: u32) -> Option<SightAge> {
    let age = u64::from(age_moves);
    let day = u64::from(moves_per_day);
    if age <= u64::from(SIGHT_FRESH_WITHIN_MOVES) {
        Some(SightAge::Fresh)
    } else if age <= day {
        Some(SightAge::Set)
    } else if age <= 2 * day {
        Some(SightAge::Stale)
    } else if age <= u64::from(SIGHT_TRACEABLE_DAYS) * day {
        Some(SightAge::Old)
    } else {
        None
    }
}

crate::rules::named_enum! {
    /// How old a scent is.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ScentAge {
        /// "fresh = less than 40 moves": 0.
        Fresh => "fresh",
        /// "stale = less than 80 moves": −1.
        Stale => "stale",
        /// "old = less than 120 moves": −2.
        Old => "old",
    }
}

impl ScentAge {
    /// 000 "Scent Tracking": "fresh 0, stale -1, old -2".
    pub fn factor(self) -> i32 {
        match self {
            ScentAge::Fresh => SCENT_FRESH_FACTOR,
            ScentAge::Stale => SCENT_STALE_FACTOR,
            ScentAge::Old => SCENT_OLD_FACTOR,
        }
    }
}

/// 000 "Scent Tracking": "fresh = less than 40 moves, stale = less than 80 moves, old = less than 120 moves"; 120 or more: `None`.
pub fn scent_age(age_moves: u32) -> Option<ScentAge> {
    if age_moves < SCENT_FRESH_BELOW_MOVES {
        Some(ScentAge::Fresh)
    } else if age_moves < SCENT_STALE_BELOW_MOVES {
        Some(ScentAge::Stale)
    } else if age_moves < SCENT_TRACEABLE_BELOW_MOVES {
        Some(ScentAge::Old)
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------------
// Readings (settings)
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// How a sight tracker's "guessed direction" is chosen. Reading: the text says only
    /// "tracker moves 3" next move in guessed direction".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum GuessedDirection {
        /// The default: any direction, each whole degree as likely, drawn from the dice: a guess
        /// carries no knowledge of where the prey went.
        #[default]
        AnyDirection => "any_direction",
        /// On along the trail's last heading: the tracker guesses the prey kept its way.
        Onward => "onward",
    }
}

crate::rules::named_enum! {
    /// When a sight tracker who rolled a 4 makes his guessed 3". Reading: "4 prey was here but
    /// direction uncertain, tracker moves 3" next move in guessed direction".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum UncertainMove {
        /// The default, the literal "next move": he stays where the prey was this move, and goes
        /// 3" in the guessed direction the move after; the pick-up roll is the move after that.
        #[default]
        NextMove => "next_move",
        /// This move: the roll's own move is the guessed 3"; the pick-up roll is the next move.
        ThisMove => "this_move",
    }
}

crate::rules::named_enum! {
    /// What "search again at least 3" away from loss point" does for a scent tracker. Reading:
    /// the text gives the distance, not the place.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SearchAgain {
        /// The default: the animal casts on past the break and dices again, the next move, at the
        /// first point of the trail at least `search_again_in` on from the loss point (and more
        /// than 1" from water): hounds lose the scent at a ford and find it across the water.
        #[default]
        AheadOnTrail => "ahead_on_trail",
        /// The animal goes `search_again_in` from the loss point in a direction drawn from the
        /// dice, and can take up the scent there only within 1" of the trail, as a sight
        /// tracker's guess.
        RandomCast => "random_cast",
    }
}

crate::rules::named_enum! {
    /// Whether the trails of several quarries crossing confuse a tracker. Reading: the text is
    /// silent; the GM knows the prey's trail ("known to GM", "GM will know scent path").
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CrossingTrails {
        /// The default: the tracker follows its own quarry; another trail changes nothing (the
        /// text gives no factor for it).
        #[default]
        Ignored => "ignored",
        /// Where another quarry's trail is within 1", a result that would follow the trail (5 or
        /// more) is read as the 4 row instead (direction uncertain, or halted a move): the tracker
        /// stops to sort the trails out. A 4 or a loss stands. No new number.
        Confused => "confused",
        /// Where another quarry's trail is within 1" and fresher than his own quarry's, the
        /// tracker takes the fresher trail (the strongest sign).
        FollowFresher => "follow_fresher",
    }
}

/// The readings of these sections where a choice is needed, each default the most literal: the
/// scene's `rules.tracking` block, every field a house rule (docs/house-rules.md "Tracking").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrackingSettings {
    /// How a sight tracker's guessed direction is chosen.
    pub guessed_direction: GuessedDirection,
    /// When the guessed 3" is made.
    pub uncertain_move: UncertainMove,
    /// The lowest total that picks the track up again after a guessed move ("the dice score is
    /// high enough"); default 5, the lowest row that follows the trail.
    pub pick_up_at_least: i32,
    /// What "search again" does for a scent tracker.
    pub search_again: SearchAgain,
    /// How far from the loss point the search starts, inches; never less than the text's 3"
    /// ("at least 3""), which is the default.
    pub search_again_in: f32,
    /// Whether crossing trails of several quarries confuse a tracker.
    pub crossing_trails: CrossingTrails,
    /// The noise a pepper sneeze counts as for sleepers (its 9" is the text's); default
    /// `screech` (+2 waking): the waking table lists no sneeze, and a violent sneeze is a
    /// sudden sharp noise.
    pub sneeze_noise: Noise,
    /// Whether a peppered animal sneezes again each move it fails its D6 (true) or only on
    /// moving into the pepper (false, the text's one sneeze).
    pub sneezes_each_move: bool,
    /// How far around its point a draught of pepper reaches, inches, for a draught that gives
    /// no `radius_in`: the text gives "one draught of pepper laid on the trail" no size; half
    /// an inch is a pinch across the trail.
    pub pepper_radius_in: f32,
}

/// [`TrackingSettings::pepper_radius_in`]'s default: half an inch.
pub const DEFAULT_PEPPER_RADIUS_IN: f32 = 0.5;

impl Default for TrackingSettings {
    fn default() -> Self {
        Self {
            guessed_direction: GuessedDirection::AnyDirection,
            uncertain_move: UncertainMove::NextMove,
            pick_up_at_least: FOLLOW_MINUS_THREE_AT,
            search_again: SearchAgain::AheadOnTrail,
            search_again_in: SEARCH_AGAIN_AT_LEAST_IN,
            crossing_trails: CrossingTrails::Ignored,
            sneeze_noise: Noise::Screech,
            sneezes_each_move: false,
            pepper_radius_in: DEFAULT_PEPPER_RADIUS_IN,
        }
    }
}

impl TrackingSettings {
    /// 000 "Scent Tracking": "at least 3" away from loss point": `search_again_in`, never below 3" (a NaN reads as 3").
    pub fn search_distance_in(&self) -> f32 {
        self.search_again_in.max(SEARCH_AGAIN_AT_LEAST_IN)
    }
}

// ---------------------------------------------------------------------------------------------
// What the tracker does
// ---------------------------------------------------------------------------------------------

/// How a tracker moves after a result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TrackerMove {
    /// Along the trail, this many inches this move.
    Follow {
        /// Inches along the trail.
        inches: f32,
    },
    /// Stays where he is this move.
    Halt,
    /// Stays this move ("prey was here"); the next move goes `inches` in a guessed direction.
    GuessNextMove {
        /// Inches of the guessed move.
        inches: f32,
    },
    /// Goes `inches` in a guessed direction this move.
    Guess {
        /// Inches of the guessed move.
        inches: f32,
    },
    /// Goes `inches` back the way he came this move, and dices again next move.
    Backtrack {
        /// Inches back.
        inches: f32,
    },
    /// Goes to search again at least `at_least_in` from the loss point ([`SearchAgain`]).
    SearchAgain {
        /// Inches from the loss point.
        at_least_in: f32,
    },
    /// The trail is too old to follow: tracking ends.
    GiveUp,
}

/// A following row's move: the normal move less `loss_in`, never below 0.
fn follow(normal_move_in: f32, loss_in: f32) -> TrackerMove {
    TrackerMove::Follow { inches: (normal_move_in - loss_in).max(0.0) }
}

// ---------------------------------------------------------------------------------------------
// Tracking by sight
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// One move's result for a tracker following a trail by sight.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SightOutcome {
        /// 7+: follows at his normal move.
        FollowNormal => "follow_normal",
        /// 6: follows at his move −1".
        FollowMinusOne => "follow_minus_one",
        /// 5: follows at his move −3".
        FollowMinusThree => "follow_minus_three",
        /// 4: "prey was here but direction uncertain": 3" in a guessed direction.
        DirectionUncertain => "direction_uncertain",
        /// 3−: lost track: backtracks 3" and dices again next move.
        Lost => "lost",
        /// After a guessed move, further than 1" from the track: cannot follow it (as lost).
        OffTrail => "off_trail",
        /// After a guessed move, within 1" but the score not high enough (as lost).
        NotPickedUp => "not_picked_up",
        /// DDD: the trail cannot be seen (no roll).
        TooDark => "too_dark",
        /// Older than three days: untraceable (no roll).
        TrailTooOld => "trail_too_old",
    }
}

impl SightOutcome {
    /// Whether the tracker follows the trail this move.
    pub fn follows(self) -> bool {
        matches!(self, SightOutcome::FollowNormal | SightOutcome::FollowMinusOne | SightOutcome::FollowMinusThree)
    }

    /// 000 "Tracking": the move each result gives a tracker whose normal move is `normal_move_in`.
    ///
    /// 7+ normal, 6 −1", 5 −3" (never below 0); 4: the guessed 3" (when: [`UncertainMove`]);
    /// 3−, off the trail or not picked up: backtrack 3"; too dark: halt; too old: give up.
    pub fn movement(self, normal_move_in: f32, settings: &TrackingSettings) -> TrackerMove {
        match self {
            SightOutcome::FollowNormal => follow(normal_move_in, 0.0),
            SightOutcome::FollowMinusOne => follow(normal_move_in, MINUS_ONE_LOSS_IN),
            SightOutcome::FollowMinusThree => follow(normal_move_in, MINUS_THREE_LOSS_IN),
            SightOutcome::DirectionUncertain => match settings.uncertain_move {
                UncertainMove::NextMove => TrackerMove::GuessNextMove { inches: GUESS_MOVE_IN },
                UncertainMove::ThisMove => TrackerMove::Guess { inches: GUESS_MOVE_IN },
            },
            SightOutcome::Lost | SightOutcome::OffTrail | SightOutcome::NotPickedUp => {
                TrackerMove::Backtrack { inches: BACKTRACK_IN }
            }
            SightOutcome::TooDark => TrackerMove::Halt,
            SightOutcome::TrailTooOld => TrackerMove::GiveUp,
        }
    }
}

/// 000 "Tracking": "Result 7+ follow at normal move rate, 6 follow at move -1", 5 follow at move -3", 4 prey was here but direction uncertain ... 3- lost track".
pub fn sight_band(total: i32) -> SightOutcome {
    if total >= FOLLOW_NORMAL_FROM {
        SightOutcome::FollowNormal
    } else if total == FOLLOW_MINUS_ONE_AT {
        SightOutcome::FollowMinusOne
    } else if total == FOLLOW_MINUS_THREE_AT {
        SightOutcome::FollowMinusThree
    } else if total == FOUR_ROW_AT {
        SightOutcome::DirectionUncertain
    } else {
        SightOutcome::Lost
    }
}

/// The trail and the conditions a sight tracker reads it in, this move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SightConditions {
    /// Moves since the prey passed the point being read.
    pub age_moves: u32,
    /// Moves in a day (the scene's `moves_per_day`).
    pub moves_per_day: u32,
    /// The weather now.
    pub weather: Weather,
    /// The lighting where the tracker stands (after any light he carries).
    pub lighting: Lighting,
}

/// One move's tracking by sight.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SightTracking {
    /// The trail's age band; `None` when older than three days.
    pub age: Option<SightAge>,
    /// D6 + tracker level + F; `None` when no roll is made (too old, too dark, off the trail).
    pub roll: Option<Roll>,
    /// The result.
    pub outcome: SightOutcome,
}

/// The D6 + level + F roll for tracking by sight: level, age, weather, lighting, in the text's order.
fn sight_roll(
    level: u8,
    age: SightAge,
    weather: &Weather,
    light: Option<(&'static str, i32)>,
    src: &mut impl DiceSource,
) -> Roll {
    let mut roll = Roll::new(Dice::D6, src);
    roll.add("tracker level", i32::from(level));
    roll.add(age.id(), age.factor());
    for (reason, value) in weather.sight_factors() {
        roll.add(reason, value);
    }
    if let Some((reason, value)) = light {
        roll.add(reason, value);
    }
    roll
}

/// The age band and lighting factor, or the report of a move that stops without a roll.
fn sight_readable(conditions: &SightConditions) -> Result<(SightAge, Option<(&'static str, i32)>), SightOutcome> {
    let Some(age) = sight_age(conditions.age_moves, conditions.moves_per_day) else {
        return Err(SightOutcome::TrailTooOld);
    };
    let Some(light) = sight_lighting_factor(conditions.lighting) else {
        return Err(SightOutcome::TooDark);
    };
    Ok((age, light))
}

/// A move of tracking by sight that stops without a roll.
fn sight_stopped(conditions: &SightConditions, outcome: SightOutcome) -> SightTracking {
    SightTracking { age: sight_age(conditions.age_moves, conditions.moves_per_day), roll: None, outcome }
}

/// 000 "Tracking": "Dice each move following the trail D6 + trackers level +F".
///
/// F: "fresh 0, set -1, stale -2, old -3, moderate rain -1, heavy rain -2, light snow -1,
/// moderate snow -2, heavy snow -3, snow on ground +2. Gloomy D/L -1, Dark DDL -3". A trail
/// older than three days gives [`SightOutcome::TrailTooOld`] and DDD [`SightOutcome::TooDark`],
/// without a roll.
pub fn resolve_sight_tracking(level: u8, conditions: &SightConditions, src: &mut impl DiceSource) -> SightTracking {
    let (age, light) = match sight_readable(conditions) {
        Ok(readable) => readable,
        Err(outcome) => return sight_stopped(conditions, outcome),
    };
    let roll = sight_roll(level, age, &conditions.weather, light, src);
    let outcome = sight_band(roll.total);
    SightTracking { age: Some(age), roll: Some(roll), outcome }
}

/// 000 "Tracking": after the guessed 3", "can only follow the track if within 1" and the dice score is high enough".
///
/// Reading: the roll is the ordinary D6 + level + F, made the move after the guessed move.
/// Further than 1" from the track (`distance_to_trail_in`): [`SightOutcome::OffTrail`], no roll.
/// Within 1" and a total of at least `pick_up_at_least`: the table's row. Within 1" and lower:
/// [`SightOutcome::NotPickedUp`]. Both misses move as lost (backtrack 3", back where the prey
/// was, and dice again next move).
pub fn resolve_sight_pick_up(
    level: u8,
    conditions: &SightConditions,
    distance_to_trail_in: f32,
    settings: &TrackingSettings,
    src: &mut impl DiceSource,
) -> SightTracking {
    let (age, light) = match sight_readable(conditions) {
        Ok(readable) => readable,
        Err(outcome) => return sight_stopped(conditions, outcome),
    };
    // NaN is not within 1".
    if distance_to_trail_in.is_nan() || distance_to_trail_in > PICK_UP_WITHIN_IN {
        return SightTracking { age: Some(age), roll: None, outcome: SightOutcome::OffTrail };
    }
    let roll = sight_roll(level, age, &conditions.weather, light, src);
    let outcome = pick_up_band(roll.total, settings);
    SightTracking { age: Some(age), roll: Some(roll), outcome }
}

/// 000 "Tracking": a pick-up roll within 1" of the track: the table's row for a total of at
/// least `pick_up_at_least`, else [`SightOutcome::NotPickedUp`] (see [`resolve_sight_pick_up`]).
pub fn pick_up_band(total: i32, settings: &TrackingSettings) -> SightOutcome {
    if total >= settings.pick_up_at_least { sight_band(total) } else { SightOutcome::NotPickedUp }
}

/// 000 "Tracking": "in guessed direction": the heading of the guessed 3", in degrees `0..360`, under [`GuessedDirection`].
///
/// `onward_deg` is the trail's last heading as the tracker followed it. `AnyDirection` draws a
/// whole degree from the dice (`DiceSource::below(360)`; not a die the text rolls, so not a
/// logged [`Roll`]).
pub fn guessed_heading_deg(onward_deg: f32, settings: &TrackingSettings, src: &mut impl DiceSource) -> f32 {
    match settings.guessed_direction {
        GuessedDirection::AnyDirection => src.below(360) as f32,
        GuessedDirection::Onward => onward_deg.rem_euclid(360.0),
    }
}

// ---------------------------------------------------------------------------------------------
// Scent tracking
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// One move's result for an animal following a scent.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ScentOutcome {
        /// 7+: follows at its normal move.
        FollowNormal => "follow_normal",
        /// 6: follows at its move −1".
        FollowMinusOne => "follow_minus_one",
        /// 5: follows at its move −3".
        FollowMinusThree => "follow_minus_three",
        /// 4: halted a move.
        Halted => "halted",
        /// 3−: trail lost: must search again at least 3" from the loss point.
        Lost => "lost",
        /// Within 1" of a water obstacle: the scent is lost (no roll).
        LostAtWater => "lost_at_water",
        /// 120 moves old or more: untraceable (no roll).
        TrailTooOld => "trail_too_old",
    }
}

impl ScentOutcome {
    /// Whether the animal follows the scent this move.
    pub fn follows(self) -> bool {
        matches!(self, ScentOutcome::FollowNormal | ScentOutcome::FollowMinusOne | ScentOutcome::FollowMinusThree)
    }

    /// 000 "Scent Tracking": the move each result gives an animal whose normal move is `normal_move_in`.
    ///
    /// 7+ normal, 6 −1", 5 −3" (never below 0); 4: halted; lost (by the dice or at water):
    /// search again at least 3" from the loss point ([`TrackingSettings::search_distance_in`]);
    /// too old: give up.
    pub fn movement(self, normal_move_in: f32, settings: &TrackingSettings) -> TrackerMove {
        match self {
            ScentOutcome::FollowNormal => follow(normal_move_in, 0.0),
            ScentOutcome::FollowMinusOne => follow(normal_move_in, MINUS_ONE_LOSS_IN),
            ScentOutcome::FollowMinusThree => follow(normal_move_in, MINUS_THREE_LOSS_IN),
            ScentOutcome::Halted => TrackerMove::Halt,
            ScentOutcome::Lost | ScentOutcome::LostAtWater => {
                TrackerMove::SearchAgain { at_least_in: settings.search_distance_in() }
            }
            ScentOutcome::TrailTooOld => TrackerMove::GiveUp,
        }
    }
}

/// 000 "Scent Tracking": "Result 7+ follow normal move rate, 6 follow move -1", 5 follow move -3", 4 halted a move, 3- trail lost".
pub fn scent_band(total: i32) -> ScentOutcome {
    if total >= FOLLOW_NORMAL_FROM {
        ScentOutcome::FollowNormal
    } else if total == FOLLOW_MINUS_ONE_AT {
        ScentOutcome::FollowMinusOne
    } else if total == FOLLOW_MINUS_THREE_AT {
        ScentOutcome::FollowMinusThree
    } else if total == FOUR_ROW_AT {
        ScentOutcome::Halted
    } else {
        ScentOutcome::Lost
    }
}

/// 000 "Scent Tracking": "Scents are lost within 1" of water obstacles" (inclusive; `None`: no water on the table).
pub fn scent_lost_at_water(distance_to_water_in: Option<f32>) -> bool {
    distance_to_water_in.is_some_and(|d| d <= WATER_LOSS_WITHIN_IN)
}

/// 000 "Scent Tracking": "Counter scents -1 > -3": the factor of the counter-scent areas the animal is in.
///
/// Reading: each area gives its value, −1 to −3; where areas overlap the strongest counts, not
/// their sum (the text's range stops at −3). Values outside the range are brought into it
/// (a positive one counts 0).
pub fn counter_scent_factor(areas: &[i32]) -> i32 {
    areas.iter().map(|&v| v.clamp(COUNTER_SCENTS_STRONGEST, 0)).min().unwrap_or(0)
}

/// The scent and the conditions an animal follows it in, this move.
#[derive(Clone, Debug, PartialEq)]
pub struct ScentConditions {
    /// Moves since the quarry passed the point being followed.
    pub age_moves: u32,
    /// The weather now.
    pub weather: Weather,
    /// The counter-scent areas the animal is in, each −1 to −3 ([`counter_scent_factor`]).
    pub counter_scents: Vec<i32>,
    /// Inches from the animal to the nearest water obstacle (`None`: no water on the table).
    pub distance_to_water_in: Option<f32>,
}

/// One move's scent tracking.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScentTracking {
    /// The scent's age band; `None` when 120 moves old or more.
    pub age: Option<ScentAge>,
    /// D6 + level + F; `None` when no roll is made (too old, at water).
    pub roll: Option<Roll>,
    /// The result.
    pub outcome: ScentOutcome,
}

/// 000 "Scent Tracking": "Dice each move following trail D6 +tracker level +F".
///
/// F: "fresh 0, stale -1, old -2, ground wet -1, light rain -1, moderate rain -2, heavy rain -3,
/// moderate snow -1, heavy snow -2, strong wind -1, gale -2. Counter scents -1 > -3". A scent
/// 120 moves old or more gives [`ScentOutcome::TrailTooOld`], and one within 1" of water
/// [`ScentOutcome::LostAtWater`], without a roll. `level` is 1 to 3 (the scene checks it).
pub fn resolve_scent_tracking(level: u8, conditions: &ScentConditions, src: &mut impl DiceSource) -> ScentTracking {
    let Some(age) = scent_age(conditions.age_moves) else {
        return ScentTracking { age: None, roll: None, outcome: ScentOutcome::TrailTooOld };
    };
    if scent_lost_at_water(conditions.distance_to_water_in) {
        return ScentTracking { age: Some(age), roll: None, outcome: ScentOutcome::LostAtWater };
    }
    let mut roll = Roll::new(Dice::D6, src);
    roll.add("tracker level", i32::from(level));
    roll.add(age.id(), age.factor());
    for (reason, value) in conditions.weather.scent_factors() {
        roll.add(reason, value);
    }
    roll.add("counter scents", counter_scent_factor(&conditions.counter_scents));
    let outcome = scent_band(roll.total);
    ScentTracking { age: Some(age), roll: Some(roll), outcome }
}

/// 000 "Scent Tracking": "must search again at least 3" away from loss point": whether a point `distance_from_loss_in` from it will do.
///
/// Reading: the point must also be more than 1" from water, or the scent is lost there again.
pub fn search_point_allowed(
    distance_from_loss_in: f32,
    distance_to_water_in: Option<f32>,
    settings: &TrackingSettings,
) -> bool {
    distance_from_loss_in >= settings.search_distance_in() && !scent_lost_at_water(distance_to_water_in)
}

// ---------------------------------------------------------------------------------------------
// Crossing trails
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// Which trail a tracker takes where another quarry's trail is within 1".
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CrossingChoice {
        /// Keeps to his own quarry's trail.
        KeepsQuarry => "keeps_quarry",
        /// Takes the other, fresher trail.
        SwitchesTrail => "switches_trail",
    }
}

/// [`CrossingTrails`]: which trail a tracker takes where another quarry's trail (`other_age_moves` old) is within 1" of his own (`own_age_moves`).
pub fn crossing_choice(own_age_moves: u32, other_age_moves: u32, settings: &TrackingSettings) -> CrossingChoice {
    match settings.crossing_trails {
        CrossingTrails::FollowFresher if other_age_moves < own_age_moves => CrossingChoice::SwitchesTrail,
        _ => CrossingChoice::KeepsQuarry,
    }
}

/// [`CrossingTrails::Confused`]: a sight result where another quarry's trail is within 1": a following row becomes "direction uncertain".
pub fn sight_at_crossing(outcome: SightOutcome, settings: &TrackingSettings) -> SightOutcome {
    if settings.crossing_trails == CrossingTrails::Confused && outcome.follows() {
        SightOutcome::DirectionUncertain
    } else {
        outcome
    }
}

/// [`CrossingTrails::Confused`]: a scent result where another quarry's trail is within 1": a following row becomes "halted a move".
pub fn scent_at_crossing(outcome: ScentOutcome, settings: &TrackingSettings) -> ScentOutcome {
    if settings.crossing_trails == CrossingTrails::Confused && outcome.follows() {
        ScentOutcome::Halted
    } else {
        outcome
    }
}

// ---------------------------------------------------------------------------------------------
// Pepper trap
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// What a draught of pepper does to a tracking animal.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum PepperOutcome {
        /// Moving into the pepper: it sneezes violently and stops tracking.
        Sneezes => "sneezes",
        /// A move's D6 below 6: still not tracking.
        StillSneezing => "still_sneezing",
        /// A move's D6 of 6: it restarts tracking.
        RestartsTracking => "restarts_tracking",
    }
}

/// A sneeze, for the noise rules: what it counts as, and how far it carries.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sneeze {
    /// The noise it counts as for sleepers ([`TrackingSettings::sneeze_noise`], a house rule).
    pub noise: Noise,
    /// "heard to 9"" ([`SNEEZE_HEARD_TO_IN`]).
    pub heard_to_in: f32,
}

/// 000 "Pepper trap": "sneeze violently (heard to 9")".
pub fn sneeze(settings: &TrackingSettings) -> Sneeze {
    Sneeze { noise: settings.sneeze_noise, heard_to_in: SNEEZE_HEARD_TO_IN }
}

/// A tracking animal moving into a draught of pepper.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PepperEntered {
    /// Always [`PepperOutcome::Sneezes`].
    pub outcome: PepperOutcome,
    /// The sneeze.
    pub sneeze: Sneeze,
}

/// 000 "Pepper trap": "tracking animals moving into one draught of pepper laid on the trail dice, sneeze violently (heard to 9")".
///
/// Reading: only a tracking animal (a scent tracker) is affected; it stops tracking the move it
/// moves in. The stray "dice," is read as the "D6 each move" that follows, rolled from the next
/// move ([`resolve_pepper_move`]); no roll is made on moving in.
pub fn enter_pepper(settings: &TrackingSettings) -> PepperEntered {
    PepperEntered { outcome: PepperOutcome::Sneezes, sneeze: sneeze(settings) }
}

/// A peppered animal's move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PepperMove {
    /// The D6, needing 6.
    pub roll: Roll,
    /// Restarts tracking or still sneezing.
    pub outcome: PepperOutcome,
    /// A sneeze this move, under [`TrackingSettings::sneezes_each_move`].
    pub sneeze: Option<Sneeze>,
}

/// 000 "Pepper trap": "D6 each move needing 6 to restart tracking".
///
/// Reading: on a 6 the animal tracks again this move (its scent roll is made as usual).
pub fn resolve_pepper_move(settings: &TrackingSettings, src: &mut impl DiceSource) -> PepperMove {
    let roll = Roll::new(Dice::D6, src).at_least(PEPPER_RESTART_ON);
    if roll.passed() == Some(true) {
        PepperMove { roll, outcome: PepperOutcome::RestartsTracking, sneeze: None }
    } else {
        let again = settings.sneezes_each_move.then(|| sneeze(settings));
        PepperMove { roll, outcome: PepperOutcome::StillSneezing, sneeze: again }
    }
}

// ---------------------------------------------------------------------------------------------
// Outcomes and rolls
// ---------------------------------------------------------------------------------------------

crate::rules::outcome::impl_outcome! {
    SightOutcome => |o| Meaning::NONE;
    ScentOutcome => |o| Meaning::NONE;
    PepperOutcome => |o| Meaning::NONE;
    CrossingChoice => |o| Meaning::NONE;
}

impl Rolls for SightTracking {
    /// The D6, if rolled.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for ScentTracking {
    /// The D6, if rolled.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for PepperMove {
    /// The D6.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{ScriptedDice, SeededDice};
    use crate::rules::outcome::Outcome;
    use crate::rules::stats::chi_square;

    /// Chi-square 99.9% critical value for 4 degrees of freedom (five result rows).
    const CHI_SQUARE_4_DF_999: f64 = 18.467;

    const DAY: u32 = 480;

    fn settings() -> TrackingSettings {
        TrackingSettings::default()
    }

    fn mods(roll: &Roll) -> Vec<(&str, i32)> {
        roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect()
    }

    fn sight(age_moves: u32, weather: Weather, lighting: Lighting) -> SightConditions {
        SightConditions { age_moves, moves_per_day: DAY, weather, lighting }
    }

    fn scent(age_moves: u32, weather: Weather) -> ScentConditions {
        ScentConditions { age_moves, weather, counter_scents: Vec::new(), distance_to_water_in: None }
    }

    // ---- weather ----

    #[test]
    fn sight_weather_factors_follow_the_text() {
        let f = |w: Weather| w.sight_factors();
        assert!(f(Weather::CLEAR).is_empty());
        assert_eq!(Weather::default(), Weather::CLEAR);
        let rain = |rain| f(Weather { rain, ..Weather::CLEAR });
        assert!(rain(Rain::Light).is_empty(), "light rain is not listed for sight");
        assert_eq!(rain(Rain::Moderate), [("moderate rain", -1)]);
        assert_eq!(rain(Rain::Heavy), [("heavy rain", -2)]);
        let snow = |snow| f(Weather { snow, ..Weather::CLEAR });
        assert_eq!(snow(Snow::Light), [("light snow", -1)]);
        assert_eq!(snow(Snow::Moderate), [("moderate snow", -2)]);
        assert_eq!(snow(Snow::Heavy), [("heavy snow", -3)]);
        assert_eq!(f(Weather { snow_on_ground: true, ..Weather::CLEAR }), [("snow on ground", 2)]);
        // Wind and wet ground are scent factors only.
        assert!(f(Weather { wind: Wind::Gale, ground_wet: true, ..Weather::CLEAR }).is_empty());
        let all = Weather { rain: Rain::Heavy, snow: Snow::Light, snow_on_ground: true, ..Weather::CLEAR };
        assert_eq!(f(all), [("heavy rain", -2), ("light snow", -1), ("snow on ground", 2)]);
    }

    #[test]
    fn scent_weather_factors_follow_the_text() {
        let f = |w: Weather| w.scent_factors();
        assert!(f(Weather::CLEAR).is_empty());
        assert_eq!(f(Weather { ground_wet: true, ..Weather::CLEAR }), [("ground wet", -1)]);
        let rain = |rain| f(Weather { rain, ..Weather::CLEAR });
        assert_eq!(rain(Rain::Light), [("light rain", -1)]);
        assert_eq!(rain(Rain::Moderate), [("moderate rain", -2)]);
        assert_eq!(rain(Rain::Heavy), [("heavy rain", -3)]);
        let snow = |snow| f(Weather { snow, ..Weather::CLEAR });
        assert!(snow(Snow::Light).is_empty(), "light snow is not listed for scent");
        assert_eq!(snow(Snow::Moderate), [("moderate snow", -1)]);
        assert_eq!(snow(Snow::Heavy), [("heavy snow", -2)]);
        let wind = |wind| f(Weather { wind, ..Weather::CLEAR });
        assert_eq!(wind(Wind::Strong), [("strong wind", -1)]);
        assert_eq!(wind(Wind::Gale), [("gale", -2)]);
        assert!(f(Weather { snow_on_ground: true, ..Weather::CLEAR }).is_empty(), "snow on ground is sight only");
        let all =
            Weather { rain: Rain::Moderate, snow: Snow::Heavy, wind: Wind::Strong, ground_wet: true, ..Weather::CLEAR };
        assert_eq!(f(all), [("ground wet", -1), ("moderate rain", -2), ("heavy snow", -2), ("strong wind", -1)]);
    }

    #[test]
    fn weather_parses_with_defaults() {
        let w: Weather = serde_json::from_str("{}").expect("parse");
        assert_eq!(w, Weather::CLEAR);
        let w: Weather =
            serde_json::from_str(r#"{"rain": "light", "wind": "gale", "ground_wet": true}"#).expect("parse");
        assert_eq!(w, Weather { rain: Rain::Light, wind: Wind::Gale, ground_wet: true, ..Weather::CLEAR });
        assert!(serde_json::from_str::<Weather>(r#"{"hail": "heavy"}"#).is_err());
        assert!(serde_json::from_str::<Weather>(r#"{"rain": "drizzle"}"#).is_err());
    }

    #[test]
    fn lighting_factors_follow_the_text() {
        for l in [Lighting::Sun, Lighting::Daylight, Lighting::Overcast] {
            assert_eq!(sight_lighting_factor(l), Some(None), "{l:?}");
        }
        assert_eq!(sight_lighting_factor(Lighting::Gloom), Some(Some(("gloomy D/L", -1))));
        assert_eq!(sight_lighting_factor(Lighting::Dark), Some(Some(("dark DDL", -3))));
        assert_eq!(sight_lighting_factor(Lighting::PitchBlack), None);
    }

    // ---- ages ----

    #[test]
    fn sight_age_bands_and_edges() {
        let a = |m| sight_age(m, DAY);
        assert_eq!(a(0), Some(SightAge::Fresh));
        assert_eq!(a(60), Some(SightAge::Fresh), "within 60 moves");
        assert_eq!(a(61), Some(SightAge::Set));
        assert_eq!(a(480), Some(SightAge::Set), "rest of the 1st day");
        assert_eq!(a(481), Some(SightAge::Stale));
        assert_eq!(a(960), Some(SightAge::Stale), "2nd day");
        assert_eq!(a(961), Some(SightAge::Old));
        assert_eq!(a(1440), Some(SightAge::Old), "3rd day");
        assert_eq!(a(1441), None, "up to three days");
        assert_eq!(a(u32::MAX), None);
        // Days follow moves_per_day.
        let short = |m| sight_age(m, 200);
        assert_eq!(
            [60, 61, 200, 201, 400, 401, 600, 601].map(short),
            [
                Some(SightAge::Fresh),
                Some(SightAge::Set),
                Some(SightAge::Set),
                Some(SightAge::Stale),
                Some(SightAge::Stale),
                Some(SightAge::Old),
                Some(SightAge::Old),
                None
            ]
        );
        // A day no longer than the fresh window leaves no set band.
        assert_eq!(sight_age(60, 50), Some(SightAge::Fresh));
        assert_eq!(sight_age(61, 50), Some(SightAge::Stale));
        assert_eq!(sight_age(151, 50), None);
        assert_eq!(
            [SightAge::Fresh, SightAge::Set, SightAge::Stale, SightAge::Old].map(SightAge::factor),
            [0, -1, -2, -3]
        );
    }

    #[test]
    fn scent_age_bands_and_edges() {
        assert_eq!(scent_age(0), Some(ScentAge::Fresh));
        assert_eq!(scent_age(39), Some(ScentAge::Fresh));
        assert_eq!(scent_age(40), Some(ScentAge::Stale));
        assert_eq!(scent_age(79), Some(ScentAge::Stale));
        assert_eq!(scent_age(80), Some(ScentAge::Old));
        assert_eq!(scent_age(119), Some(ScentAge::Old));
        assert_eq!(scent_age(120), None);
        assert_eq!(scent_age(u32::MAX), None);
        assert_eq!([ScentAge::Fresh, ScentAge::Stale, ScentAge::Old].map(ScentAge::factor), [0, -1, -2]);
    }

    // ---- bands and moves ----

    #[test]
    fn sight_band_edges() {
        assert_eq!(sight_band(12), SightOutcome::FollowNormal);
        assert_eq!(sight_band(7), SightOutcome::FollowNormal);
        assert_eq!(sight_band(6), SightOutcome::FollowMinusOne);
        assert_eq!(sight_band(5), SightOutcome::FollowMinusThree);
        assert_eq!(sight_band(4), SightOutcome::DirectionUncertain);
        assert_eq!(sight_band(3), SightOutcome::Lost);
        assert_eq!(sight_band(-4), SightOutcome::Lost);
    }

    /// A pick-up within 1" (default "at least 5"): 5 follows at move −3", 4 is not picked up;
    /// 001's evil eye takes a 5 to 4, read again here.
    #[test]
    fn pick_up_band_edges() {
        let s = TrackingSettings::default();
        assert_eq!(pick_up_band(7, &s), SightOutcome::FollowNormal);
        assert_eq!(pick_up_band(5, &s), SightOutcome::FollowMinusThree);
        assert_eq!(pick_up_band(4, &s), SightOutcome::NotPickedUp);
        assert_eq!(pick_up_band(-3, &s), SightOutcome::NotPickedUp);
        let lenient = TrackingSettings { pick_up_at_least: 0, ..s };
        assert_eq!(pick_up_band(4, &lenient), SightOutcome::DirectionUncertain);
        assert_eq!(pick_up_band(0, &lenient), SightOutcome::Lost);
        assert_eq!(pick_up_band(-1, &lenient), SightOutcome::NotPickedUp);
    }

    #[test]
    fn scent_band_edges() {
        assert_eq!(scent_band(9), ScentOutcome::FollowNormal);
        assert_eq!(scent_band(7), ScentOutcome::FollowNormal);
        assert_eq!(scent_band(6), ScentOutcome::FollowMinusOne);
        assert_eq!(scent_band(5), ScentOutcome::FollowMinusThree);
        assert_eq!(scent_band(4), ScentOutcome::Halted);
        assert_eq!(scent_band(3), ScentOutcome::Lost);
        assert_eq!(scent_band(-2), ScentOutcome::Lost);
    }

    #[test]
    fn sight_moves_follow_the_text() {
        let s = settings();
        let m = |o: SightOutcome| o.movement(6.0, &s);
        assert_eq!(m(SightOutcome::FollowNormal), TrackerMove::Follow { inches: 6.0 });
        assert_eq!(m(SightOutcome::FollowMinusOne), TrackerMove::Follow { inches: 5.0 });
        assert_eq!(m(SightOutcome::FollowMinusThree), TrackerMove::Follow { inches: 3.0 });
        assert_eq!(m(SightOutcome::DirectionUncertain), TrackerMove::GuessNextMove { inches: 3.0 });
        assert_eq!(m(SightOutcome::Lost), TrackerMove::Backtrack { inches: 3.0 });
        assert_eq!(m(SightOutcome::OffTrail), TrackerMove::Backtrack { inches: 3.0 });
        assert_eq!(m(SightOutcome::NotPickedUp), TrackerMove::Backtrack { inches: 3.0 });
        assert_eq!(m(SightOutcome::TooDark), TrackerMove::Halt);
        assert_eq!(m(SightOutcome::TrailTooOld), TrackerMove::GiveUp);
        // A slow tracker never moves backwards along the trail.
        assert_eq!(SightOutcome::FollowMinusThree.movement(2.0, &s), TrackerMove::Follow { inches: 0.0 });
        let now = TrackingSettings { uncertain_move: UncertainMove::ThisMove, ..settings() };
        assert_eq!(SightOutcome::DirectionUncertain.movement(6.0, &now), TrackerMove::Guess { inches: 3.0 });
    }

    #[test]
    fn scent_moves_follow_the_text() {
        let s = settings();
        let m = |o: ScentOutcome| o.movement(8.0, &s);
        assert_eq!(m(ScentOutcome::FollowNormal), TrackerMove::Follow { inches: 8.0 });
        assert_eq!(m(ScentOutcome::FollowMinusOne), TrackerMove::Follow { inches: 7.0 });
        assert_eq!(m(ScentOutcome::FollowMinusThree), TrackerMove::Follow { inches: 5.0 });
        assert_eq!(m(ScentOutcome::Halted), TrackerMove::Halt);
        assert_eq!(m(ScentOutcome::Lost), TrackerMove::SearchAgain { at_least_in: 3.0 });
        assert_eq!(m(ScentOutcome::LostAtWater), TrackerMove::SearchAgain { at_least_in: 3.0 });
        assert_eq!(m(ScentOutcome::TrailTooOld), TrackerMove::GiveUp);
        let far = TrackingSettings { search_again_in: 5.0, ..settings() };
        assert_eq!(ScentOutcome::Lost.movement(8.0, &far), TrackerMove::SearchAgain { at_least_in: 5.0 });
        // Never nearer than the text's 3".
        let near = TrackingSettings { search_again_in: 1.0, ..settings() };
        assert_eq!(near.search_distance_in(), 3.0);
        let nan = TrackingSettings { search_again_in: f32::NAN, ..settings() };
        assert_eq!(nan.search_distance_in(), 3.0);
    }

    // ---- sight rolls ----

    #[test]
    fn sight_roll_every_factor() {
        // Level 2, a set trail, moderate rain, light snow, snow on ground, D/L: 2 −1 −1 −1 +2 −1 = 0.
        let w = Weather { rain: Rain::Moderate, snow: Snow::Light, snow_on_ground: true, ..Weather::CLEAR };
        let t = resolve_sight_tracking(2, &sight(100, w, Lighting::Gloom), &mut ScriptedDice::faces([6]));
        let roll = t.roll.as_ref().expect("a roll");
        assert_eq!(roll.dice, Dice::D6);
        assert_eq!(
            mods(roll),
            [
                ("tracker level", 2),
                ("set", -1),
                ("moderate rain", -1),
                ("light snow", -1),
                ("snow on ground", 2),
                ("gloomy D/L", -1)
            ]
        );
        assert_eq!((roll.total, t.age, t.outcome), (6, Some(SightAge::Set), SightOutcome::FollowMinusOne));
        assert_eq!(roll.passed(), None, "a banded table has no target");
        // Fresh, clear, daylight: no factor but the level; DDL −3, old −3, heavy snow −3.
        let t = resolve_sight_tracking(1, &sight(60, Weather::CLEAR, Lighting::Sun), &mut ScriptedDice::faces([6]));
        let roll = t.roll.expect("a roll");
        assert_eq!((mods(&roll), roll.total), (vec![("tracker level", 1)], 7));
        assert_eq!(t.outcome, SightOutcome::FollowNormal);
        let w = Weather { snow: Snow::Heavy, ..Weather::CLEAR };
        let t = resolve_sight_tracking(6, &sight(1000, w, Lighting::Dark), &mut ScriptedDice::faces([5]));
        let roll = t.roll.expect("a roll");
        assert_eq!(mods(&roll), [("tracker level", 6), ("old", -3), ("heavy snow", -3), ("dark DDL", -3)]);
        assert_eq!((roll.total, t.outcome), (2, SightOutcome::Lost));
    }

    #[test]
    fn sight_rows_from_the_dice() {
        // Level 1, fresh, clear: D6 + 1 gives 2..7, every row.
        let c = sight(0, Weather::CLEAR, Lighting::Daylight);
        let outcome = |face| resolve_sight_tracking(1, &c, &mut ScriptedDice::faces([face])).outcome;
        assert_eq!(
            [1, 2, 3, 4, 5, 6].map(outcome),
            [
                SightOutcome::Lost,
                SightOutcome::Lost,
                SightOutcome::DirectionUncertain,
                SightOutcome::FollowMinusThree,
                SightOutcome::FollowMinusOne,
                SightOutcome::FollowNormal
            ]
        );
    }

    #[test]
    fn no_sight_roll_when_too_old_or_pitch_black() {
        let mut none = ScriptedDice::faces(Vec::<u32>::new());
        let t = resolve_sight_tracking(3, &sight(1441, Weather::CLEAR, Lighting::Daylight), &mut none);
        assert_eq!((t.age, t.roll, t.outcome), (None, None, SightOutcome::TrailTooOld));
        let t = resolve_sight_tracking(3, &sight(1440, Weather::CLEAR, Lighting::PitchBlack), &mut none);
        assert!(t.rolls().is_empty());
        assert_eq!((t.age, t.roll, t.outcome), (Some(SightAge::Old), None, SightOutcome::TooDark));
        assert!(none.is_empty());
        // A lantern lifts DDD to D/L: tracking at −1.
        let lit = Lighting::PitchBlack.brighter(2);
        let t = resolve_sight_tracking(3, &sight(0, Weather::CLEAR, lit), &mut ScriptedDice::faces([3]));
        assert_eq!(t.roll.map(|r| r.total), Some(5));
    }

    #[test]
    fn pick_up_within_one_inch_and_high_enough() {
        let s = settings();
        let c = sight(0, Weather::CLEAR, Lighting::Daylight);
        let pick = |d: f32, level: u8, face: u32, s: &TrackingSettings| {
            resolve_sight_pick_up(level, &c, d, s, &mut ScriptedDice::faces([face]))
        };
        // Within 1" (inclusive), the table's rows from 5 up.
        assert_eq!(pick(1.0, 1, 6, &s).outcome, SightOutcome::FollowNormal);
        assert_eq!(pick(0.0, 1, 5, &s).outcome, SightOutcome::FollowMinusOne);
        assert_eq!(pick(0.5, 1, 4, &s).outcome, SightOutcome::FollowMinusThree);
        // 4 and below: not picked up (as lost), with the roll.
        let t = pick(0.5, 1, 3, &s);
        assert_eq!((t.outcome, t.roll.map(|r| r.total)), (SightOutcome::NotPickedUp, Some(4)));
        assert_eq!(pick(0.5, 1, 1, &s).outcome, SightOutcome::NotPickedUp);
        // Beyond 1": off the trail, no roll.
        let mut none = ScriptedDice::faces(Vec::<u32>::new());
        let t = resolve_sight_pick_up(5, &c, 1.01, &s, &mut none);
        assert_eq!((t.roll, t.outcome), (None, SightOutcome::OffTrail));
        let t = resolve_sight_pick_up(5, &c, f32::NAN, &s, &mut none);
        assert_eq!(t.outcome, SightOutcome::OffTrail);
        // A stricter score: 7 needed; 6 is not enough, 7 follows.
        let strict = TrackingSettings { pick_up_at_least: 7, ..settings() };
        assert_eq!(pick(0.5, 1, 5, &strict).outcome, SightOutcome::NotPickedUp);
        assert_eq!(pick(0.5, 1, 6, &strict).outcome, SightOutcome::FollowNormal);
        // A lenient score lets the table's 4 and 3− stand.
        let lenient = TrackingSettings { pick_up_at_least: 0, ..settings() };
        assert_eq!(pick(0.5, 1, 3, &lenient).outcome, SightOutcome::DirectionUncertain);
        assert_eq!(pick(0.5, 1, 2, &lenient).outcome, SightOutcome::Lost);
        // Too old or too dark stop before the distance matters.
        let old = sight(2000, Weather::CLEAR, Lighting::Daylight);
        assert_eq!(resolve_sight_pick_up(1, &old, 0.0, &s, &mut none).outcome, SightOutcome::TrailTooOld);
        assert!(none.is_empty());
    }

    #[test]
    fn guessed_heading_by_reading() {
        let s = settings();
        let mut src = ScriptedDice::new([0, 359, 90]);
        assert_eq!(guessed_heading_deg(45.0, &s, &mut src), 0.0);
        assert_eq!(guessed_heading_deg(45.0, &s, &mut src), 359.0);
        assert_eq!(guessed_heading_deg(45.0, &s, &mut src), 90.0);
        assert!(src.is_empty());
        let onward = TrackingSettings { guessed_direction: GuessedDirection::Onward, ..settings() };
        let mut none = ScriptedDice::new(Vec::<u32>::new());
        assert_eq!(guessed_heading_deg(45.0, &onward, &mut none), 45.0);
        assert_eq!(guessed_heading_deg(-90.0, &onward, &mut none), 270.0);
        assert_eq!(guessed_heading_deg(450.0, &onward, &mut none), 90.0);
    }

    // ---- scent rolls ----

    #[test]
    fn scent_roll_every_factor() {
        // Level 3, old −2, ground wet −1, light rain −1, moderate snow −1, strong wind −1, counter −2.
        let w =
            Weather { rain: Rain::Light, snow: Snow::Moderate, wind: Wind::Strong, ground_wet: true, ..Weather::CLEAR };
        let c = ScentConditions { counter_scents: vec![-1, -2], ..scent(100, w) };
        let t = resolve_scent_tracking(3, &c, &mut ScriptedDice::faces([6]));
        let roll = t.roll.as_ref().expect("a roll");
        assert_eq!(
            mods(roll),
            [
                ("tracker level", 3),
                ("old", -2),
                ("ground wet", -1),
                ("light rain", -1),
                ("moderate snow", -1),
                ("strong wind", -1),
                ("counter scents", -2)
            ]
        );
        assert_eq!((roll.total, t.age, t.outcome), (1, Some(ScentAge::Old), ScentOutcome::Lost));
        // Stale, heavy rain, heavy snow, gale.
        let w = Weather { rain: Rain::Heavy, snow: Snow::Heavy, wind: Wind::Gale, ..Weather::CLEAR };
        let t = resolve_scent_tracking(1, &scent(40, w), &mut ScriptedDice::faces([6]));
        let roll = t.roll.expect("a roll");
        assert_eq!(
            mods(&roll),
            [("tracker level", 1), ("stale", -1), ("heavy rain", -3), ("heavy snow", -2), ("gale", -2)]
        );
        assert_eq!(roll.total, -1);
        // Fresh and clear: only the level.
        let t = resolve_scent_tracking(2, &scent(39, Weather::CLEAR), &mut ScriptedDice::faces([5]));
        let roll = t.roll.expect("a roll");
        assert_eq!((mods(&roll), roll.total, t.outcome), (vec![("tracker level", 2)], 7, ScentOutcome::FollowNormal));
    }

    #[test]
    fn scent_rows_from_the_dice() {
        // Level 1, fresh, clear: D6 + 1 gives 2..7, every row.
        let c = scent(0, Weather::CLEAR);
        let outcome = |face| resolve_scent_tracking(1, &c, &mut ScriptedDice::faces([face])).outcome;
        assert_eq!(
            [1, 2, 3, 4, 5, 6].map(outcome),
            [
                ScentOutcome::Lost,
                ScentOutcome::Lost,
                ScentOutcome::Halted,
                ScentOutcome::FollowMinusThree,
                ScentOutcome::FollowMinusOne,
                ScentOutcome::FollowNormal
            ]
        );
    }

    #[test]
    fn counter_scents_range() {
        assert_eq!(counter_scent_factor(&[]), 0);
        assert_eq!(counter_scent_factor(&[-1]), -1);
        assert_eq!(counter_scent_factor(&[-3]), -3);
        assert_eq!(counter_scent_factor(&[-1, -2]), -2, "the strongest, not the sum");
        assert_eq!(counter_scent_factor(&[-5]), -3, "never beyond -3");
        assert_eq!(counter_scent_factor(&[2]), 0);
    }

    #[test]
    fn scent_lost_at_water_within_one_inch() {
        assert!(scent_lost_at_water(Some(0.0)));
        assert!(scent_lost_at_water(Some(1.0)));
        assert!(!scent_lost_at_water(Some(1.01)));
        assert!(!scent_lost_at_water(None));
        let mut none = ScriptedDice::faces(Vec::<u32>::new());
        let c = ScentConditions { distance_to_water_in: Some(1.0), ..scent(0, Weather::CLEAR) };
        let t = resolve_scent_tracking(3, &c, &mut none);
        assert_eq!((t.age, t.roll, t.outcome), (Some(ScentAge::Fresh), None, ScentOutcome::LostAtWater));
        // Too old first: no scent to lose.
        let c = ScentConditions { distance_to_water_in: Some(0.0), ..scent(120, Weather::CLEAR) };
        let t = resolve_scent_tracking(3, &c, &mut none);
        assert_eq!((t.age, t.roll, t.outcome), (None, None, ScentOutcome::TrailTooOld));
        assert!(none.is_empty());
        // Just beyond 1": the roll is made.
        let c = ScentConditions { distance_to_water_in: Some(1.01), ..scent(0, Weather::CLEAR) };
        assert!(resolve_scent_tracking(3, &c, &mut ScriptedDice::faces([1])).roll.is_some());
    }

    #[test]
    fn search_again_at_least_three_inches_away() {
        let s = settings();
        assert!(search_point_allowed(3.0, None, &s));
        assert!(!search_point_allowed(2.99, None, &s));
        assert!(search_point_allowed(3.0, Some(1.01), &s));
        assert!(!search_point_allowed(3.0, Some(1.0), &s), "not where the scent is lost again");
        let far = TrackingSettings { search_again_in: 4.0, ..settings() };
        assert!(!search_point_allowed(3.5, None, &far));
        assert!(search_point_allowed(4.0, None, &far));
    }

    // ---- crossings ----

    #[test]
    fn crossing_trails_by_reading() {
        let s = settings();
        assert_eq!(crossing_choice(50, 10, &s), CrossingChoice::KeepsQuarry);
        assert_eq!(sight_at_crossing(SightOutcome::FollowNormal, &s), SightOutcome::FollowNormal);
        assert_eq!(scent_at_crossing(ScentOutcome::FollowNormal, &s), ScentOutcome::FollowNormal);
        let fresher = TrackingSettings { crossing_trails: CrossingTrails::FollowFresher, ..settings() };
        assert_eq!(crossing_choice(50, 49, &fresher), CrossingChoice::SwitchesTrail);
        assert_eq!(crossing_choice(50, 50, &fresher), CrossingChoice::KeepsQuarry);
        assert_eq!(crossing_choice(50, 51, &fresher), CrossingChoice::KeepsQuarry);
        let confused = TrackingSettings { crossing_trails: CrossingTrails::Confused, ..settings() };
        assert_eq!(crossing_choice(50, 10, &confused), CrossingChoice::KeepsQuarry);
        for o in [SightOutcome::FollowNormal, SightOutcome::FollowMinusOne, SightOutcome::FollowMinusThree] {
            assert_eq!(sight_at_crossing(o, &confused), SightOutcome::DirectionUncertain);
        }
        for o in [SightOutcome::DirectionUncertain, SightOutcome::Lost, SightOutcome::TooDark] {
            assert_eq!(sight_at_crossing(o, &confused), o);
        }
        for o in [ScentOutcome::FollowNormal, ScentOutcome::FollowMinusOne, ScentOutcome::FollowMinusThree] {
            assert_eq!(scent_at_crossing(o, &confused), ScentOutcome::Halted);
        }
        for o in [ScentOutcome::Halted, ScentOutcome::Lost, ScentOutcome::LostAtWater] {
            assert_eq!(scent_at_crossing(o, &confused), o);
        }
    }

    // ---- pepper ----

    #[test]
    fn pepper_sneeze_and_restart() {
        let s = settings();
        let e = enter_pepper(&s);
        assert_eq!(e.outcome, PepperOutcome::Sneezes);
        assert_eq!(e.sneeze, Sneeze { noise: Noise::Screech, heard_to_in: 9.0 });
        let m = resolve_pepper_move(&s, &mut ScriptedDice::faces([6]));
        assert_eq!((m.outcome, m.sneeze), (PepperOutcome::RestartsTracking, None));
        assert_eq!((m.roll.target, m.roll.passed()), (Some(6), Some(true)));
        for face in 1..=5 {
            let m = resolve_pepper_move(&s, &mut ScriptedDice::faces([face]));
            assert_eq!((m.outcome, m.sneeze), (PepperOutcome::StillSneezing, None), "{face}");
            assert_eq!(m.rolls().len(), 1);
        }
        let loud = TrackingSettings { sneezes_each_move: true, sneeze_noise: Noise::Shout, ..settings() };
        let m = resolve_pepper_move(&loud, &mut ScriptedDice::faces([5]));
        assert_eq!(m.sneeze, Some(Sneeze { noise: Noise::Shout, heard_to_in: 9.0 }));
        let m = resolve_pepper_move(&loud, &mut ScriptedDice::faces([6]));
        assert_eq!(m.sneeze, None);
    }

    // ---- settings and ids ----

    #[test]
    fn settings_defaults_and_parsing() {
        let s = settings();
        assert_eq!(s.guessed_direction, GuessedDirection::AnyDirection);
        assert_eq!(s.uncertain_move, UncertainMove::NextMove);
        assert_eq!(s.pick_up_at_least, 5);
        assert_eq!(s.search_again, SearchAgain::AheadOnTrail);
        assert_eq!(s.search_again_in, 3.0);
        assert_eq!(s.crossing_trails, CrossingTrails::Ignored);
        assert_eq!(s.sneeze_noise, Noise::Screech);
        assert!(!s.sneezes_each_move);
        let parsed: TrackingSettings =
            serde_json::from_str(r#"{"guessed_direction": "onward", "pick_up_at_least": 7}"#).expect("parse");
        assert_eq!(
            parsed,
            TrackingSettings { guessed_direction: GuessedDirection::Onward, pick_up_at_least: 7, ..settings() }
        );
        assert!(serde_json::from_str::<TrackingSettings>(r#"{"guess": "onward"}"#).is_err());
    }

    #[test]
    fn outcomes_carry_their_ids() {
        assert_eq!(Outcome::id(SightOutcome::DirectionUncertain), "direction_uncertain");
        assert_eq!(Outcome::id(ScentOutcome::LostAtWater), "lost_at_water");
        assert_eq!(Outcome::id(PepperOutcome::RestartsTracking), "restarts_tracking");
        assert_eq!(SightOutcome::Lost.meaning(), Meaning::NONE);
        let json = serde_json::to_value(TrackerMove::Follow { inches: 5.0 }).expect("json");
        assert_eq!(json, serde_json::json!({"kind": "follow", "inches": 5.0}));
        assert_eq!(serde_json::to_value(TrackerMove::Halt).expect("json"), serde_json::json!({"kind": "halt"}));
    }

    // ---- statistics ----

    /// A sight tracker of level 3 on a stale trail (−2), snow on the ground (+2), moderate rain
    /// (−1), in daylight: D6 + 2, totals 3 to 8, each face 1/6. Worked out by hand from the
    /// table: 7+ on faces 5, 6 (2/6); 6 on face 4 (1/6); 5 on face 3 (1/6); 4 on face 2 (1/6);
    /// 3− on face 1 (1/6).
    #[test]
    fn sight_results_match_the_text() {
        const EXPECTED: [f64; 5] = [2.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0];
        let w = Weather { rain: Rain::Moderate, snow_on_ground: true, ..Weather::CLEAR };
        let c = sight(700, w, Lighting::Daylight);
        assert_eq!(sight_age(700, DAY), Some(SightAge::Stale));
        let mut src = SeededDice::new(18);
        let mut observed = [0u32; 5];
        for _ in 0..12_000 {
            let i = match resolve_sight_tracking(3, &c, &mut src).outcome {
                SightOutcome::FollowNormal => 0,
                SightOutcome::FollowMinusOne => 1,
                SightOutcome::FollowMinusThree => 2,
                SightOutcome::DirectionUncertain => 3,
                SightOutcome::Lost => 4,
                other => panic!("no roll should give {other:?}"),
            };
            observed[i] += 1;
        }
        let chi = chi_square(&observed, &EXPECTED);
        assert!(chi < CHI_SQUARE_4_DF_999, "chi-square {chi}: {observed:?} vs {EXPECTED:?}");
    }

    /// Two scent trackers, worked out by hand from the table (each D6 face 1/6):
    /// - level 3, stale (−1), light rain (−1): D6 + 1, totals 2 to 7: 7+ on face 6 (1/6), 6 on
    ///   face 5 (1/6), 5 on face 4 (1/6), 4 on face 3 (1/6), 3− on faces 1, 2 (2/6);
    /// - level 2, fresh, strong wind (−1), counter-scent areas −1 and −2 (the strongest, −2):
    ///   D6 − 1, totals 0 to 5: never 7+ or 6; 5 on face 6 (1/6), 4 on face 5 (1/6), 3− on faces
    ///   1 to 4 (4/6).
    #[test]
    fn scent_results_match_the_text() {
        let stale = scent(50, Weather { rain: Rain::Light, ..Weather::CLEAR });
        let windy = ScentConditions {
            counter_scents: vec![-1, -2],
            ..scent(10, Weather { wind: Wind::Strong, ..Weather::CLEAR })
        };
        let cases: [(u8, ScentConditions, [f64; 5]); 2] = [
            (3, stale, [1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 2.0 / 6.0]),
            (2, windy, [0.0, 0.0, 1.0 / 6.0, 1.0 / 6.0, 4.0 / 6.0]),
        ];
        let mut src = SeededDice::new(1818);
        for (level, c, expected) in cases {
            let mut observed = [0u32; 5];
            for _ in 0..12_000 {
                let i = match resolve_scent_tracking(level, &c, &mut src).outcome {
                    ScentOutcome::FollowNormal => 0,
                    ScentOutcome::FollowMinusOne => 1,
                    ScentOutcome::FollowMinusThree => 2,
                    ScentOutcome::Halted => 3,
                    ScentOutcome::Lost => 4,
                    other => panic!("no roll should give {other:?}"),
                };
                observed[i] += 1;
            }
            let chi = chi_square(&observed, &expected);
            assert!(chi < CHI_SQUARE_4_DF_999, "level {level}: chi-square {chi}: {observed:?} vs {expected:?}");
        }
    }

    /// A peppered animal restarts on a 6: 1/6 a move, worked out from "D6 each move needing 6".
    #[test]
    fn pepper_restarts_one_move_in_six() {
        let s = settings();
        let mut src = SeededDice::new(9);
        let mut restarts = 0u32;
        let trials = 12_000u32;
        for _ in 0..trials {
            if resolve_pepper_move(&s, &mut src).outcome == PepperOutcome::RestartsTracking {
                restarts += 1;
            }
        }
        let chi = chi_square(&[restarts, trials - restarts], &[1.0 / 6.0, 5.0 / 6.0]);
        assert!(chi < 10.828, "restarts {restarts} of {trials}");
    }
}
