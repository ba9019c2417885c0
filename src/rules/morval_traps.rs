//! Morval traps (000 "Characters and Traps"): agility, spotting hidden traps, trip cords,
//! treadle and lifter traps with their payloads, falling floors and pits, loop traps and
//! leydonic (electric) traps.
//!
//! The Morval combat tables are not in the sources (RULES-NOTES "Strike resolution"), so every
//! strike a trap makes is rolled as the text rolls falls ("D10 + pit strike factor") and
//! reported, not turned into wounds. Note the tables' directions, exactly as the text reads:
//! a high trip-cord total is bad for the victim, a high pit or loop total is good.
//! Move losses and penalties are positive inches taken off a move (a strained ankle: 2).

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

use super::character::{Armour, Gait, Sex, Traits};
use super::dice::{Dice, DiceSource, Modifier, Roll};
use super::herds::{Horsemanship, NonRiderFallingDice};
use super::lighting::Lighting;

/// 000 "Characters and Traps" > "Spotting Traps": "Diced for when within 2"".
pub const SPOTTING_RANGE_INCHES: f32 = 2.0;
/// 000 "Characters and Traps" > "Trip cords": "quickly made, up to 3" per move".
pub const TRIP_CORD_INCHES_LAID_PER_MOVE: i32 = 3;
/// 000 "Characters and Traps" > "Trip cords": "Riders whose Steeds fall, fall off strike -3".
pub const RIDER_FALL_STRIKE_FACTOR: i32 = -3;
/// 000 "Characters and Traps" > "Treadle Traps": "6+ victim realises something has been triggered".
pub const SILENT_ALARM_TARGET: i32 = 6;
/// 000 "Characters and Traps" > "Specimen Pit Trap": "16 cubits (1" deep)".
pub const SPECIMEN_PIT_DEPTH_INCHES: i32 = 1;
/// 000 "Characters and Traps" > "Specimen Pit Trap": "taking one man 8 hours".
pub const SPECIMEN_PIT_DIGGING_MAN_HOURS: i32 = 8;
/// 000 "Characters and Traps" > "Loop Traps": the loop "covers an area of one square inch".
pub const LOOP_AREA_SQUARE_INCHES: i32 = 1;
/// 000 "Characters and Traps" > "Loop Traps": "quickly laid, 3 men 4 moves" (the men).
pub const LOOP_LAYING_MEN: i32 = 3;
/// 000 "Characters and Traps" > "Loop Traps": "quickly laid, 3 men 4 moves" (the moves).
pub const LOOP_LAYING_MOVES: i32 = 4;
/// 000 "Characters and Traps" > "Loop Traps": "cursing heard to 8"".
pub const LOOP_CURSING_HEARD_TO_INCHES: i32 = 8;
/// 000 "Characters and Traps" > "Loop Traps": "screaming heard to 18"".
pub const LOOP_SCREAMING_HEARD_TO_INCHES: i32 = 18;

// ---------------------------------------------------------------------------------------------
// Settings

/// Which dice a spotting roll uses: the text allows "MD or D6" (RULES-NOTES: the scene chooses
/// per rule, default D6, visible).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SpotDice {
    /// An open D6, shown to the players.
    #[default]
    #[serde(rename = "D6")]
    D6,
    /// Mystic Dice: a D6 whose face only the GM sees.
    #[serde(rename = "MD")]
    Mystic,
}

impl SpotDice {
    /// The dice to roll.
    pub fn dice(self) -> Dice {
        match self {
            SpotDice::D6 => Dice::D6,
            SpotDice::Mystic => Dice::Mystic,
        }
    }
}

crate::rules::named_enum! {
    /// 000 "Spotting Traps": "Diced for when within 2"" — once per approach or once per move.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SpotChecks {
        /// One roll each time a figure comes within 2" of a trap it was not already within 2"
        /// of (RULES-NOTES "Where a source is silent"). The default.
        #[default]
        PerApproach => "per_approach",
        /// One roll in every move the figure moves within 2" of the trap.
        PerMove => "per_move",
    }
}

/// Numbers for Morval traps that the text leaves open: RULES-NOTES defaults and house rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MorvalTrapSettings {
    /// House rule: agility of a clothed (unarmoured) figure, which the "Agility" list omits.
    /// Default +1, as light armour: the list runs unclothed +2, light +1, and clothes hamper
    /// no more than light armour.
    pub clothed_agility: i32,
    /// House rule (RULES-NOTES): spotting target for a Loosely Concealed (LC) trap.
    pub loosely_concealed_spot_target: i32,
    /// House rule (RULES-NOTES): spotting target for a Normally Concealed (NC) trap.
    pub normally_concealed_spot_target: i32,
    /// House rule (RULES-NOTES): spotting target for a Well Concealed (WC) trap.
    pub well_concealed_spot_target: i32,
    /// Spotting dice, "MD or D6" (RULES-NOTES: default D6).
    pub spot_dice: SpotDice,
    /// House rule: spotting factor in gloom (D/L); the text gives no number, so as 000
    /// "Tracking"'s "Gloomy D/L -1".
    pub gloom_spot_factor: i32,
    /// House rule: spotting factor in the dark (DDL), as 000 "Tracking"'s "Dark DDL -3".
    pub dark_spot_factor: i32,
    /// House rule: spotting factor in pitch black (DDD); "Tracking" stops at DDL, so as DDL.
    pub pitch_black_spot_factor: i32,
    /// House rule: factor for a fifth or later trip-cord victim, or fifth or later figure
    /// spotting in an area; the text's lists stop at the fourth (-3), so later ones keep -3.
    pub fifth_or_later_factor: i32,
    /// House rule: how far a trip-cord victim's loud cursing is heard, in inches; the text
    /// gives none, so as the loop trap's "cursing heard to 8"".
    pub trip_cord_cursing_heard_to_inches: i32,
    /// House rule (RULES-NOTES): leydonic strike bonus against medium, heavy and plate armour
    /// ("more effective against those wearing metal armour").
    pub leydonic_metal_armour_bonus: i32,
    /// House rule when true: traps other than loops and treadles without a safety device do
    /// not catch (nor make roll to spot) figures of the side that set them. The text exempts
    /// nobody (000 "Traps General Comments": traps catch "the local denizens" too; a treadle's
    /// safety lever is the text's way for friends to pass), so the default is false.
    pub own_side_exempt: bool,
    /// When spotting is diced: once per approach (default, RULES-NOTES) or once per move within
    /// 2". A reading of the text, not a house rule.
    pub spot_checks: SpotChecks,
    /// House rule: how far from a treadle or lifter each striking payload reaches, in inches;
    /// every figure within it is struck (000 "Treadle Traps": "threatens the victim(s)", no
    /// area given). Never less than the trap's own radius.
    pub payload_radius: PayloadRadii,
}

/// House rule: the reach of each striking payload, in inches from the trap's position (000
/// "Treadle Traps" names "the victim(s)" but gives no area).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PayloadRadii {
    /// House rule: a hail of stones, arrows and javelins: 1".
    pub hail_of_missiles: f32,
    /// House rule: a giant boulder: 0.5" (it falls where the trap is).
    pub boulder: f32,
    /// House rule: a cloud of gas: 2", as 002's poison gas ("within 2"").
    pub gas: f32,
    /// House rule: a bucket of acid: 0.5".
    pub acid: f32,
    /// House rule: a gout of flame: 1"; it also sets the fire's diameter.
    pub flame: f32,
}

impl Default for PayloadRadii {
    fn default() -> Self {
        Self { hail_of_missiles: 1.0, boulder: 0.5, gas: 2.0, acid: 0.5, flame: 1.0 }
    }
}

impl PayloadRadii {
    /// The reach of a payload kind in inches; alarms strike no one (0).
    pub fn inches(&self, kind: PayloadKind) -> f32 {
        match kind {
            PayloadKind::SilentAlarm | PayloadKind::SoundingAlarm => 0.0,
            PayloadKind::HailOfMissiles => self.hail_of_missiles,
            PayloadKind::Boulder => self.boulder,
            PayloadKind::Gas => self.gas,
            PayloadKind::Acid => self.acid,
            PayloadKind::Flame => self.flame,
        }
    }
}

impl Default for MorvalTrapSettings {
    fn default() -> Self {
        Self {
            clothed_agility: 1,
            loosely_concealed_spot_target: 4,
            normally_concealed_spot_target: 5,
            well_concealed_spot_target: 6,
            spot_dice: SpotDice::D6,
            gloom_spot_factor: -1,
            dark_spot_factor: -3,
            pitch_black_spot_factor: -3,
            fifth_or_later_factor: -3,
            trip_cord_cursing_heard_to_inches: 8,
            leydonic_metal_armour_bonus: 2,
            own_side_exempt: false,
            spot_checks: SpotChecks::PerApproach,
            payload_radius: PayloadRadii::default(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Agility

/// A figure's agility ('A'), with the factors that make it up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Agility {
    /// The agility value ('A').
    pub value: i32,
    /// Each default factor (zero factors left out), or the card value alone.
    pub factors: Vec<Modifier>,
    /// True when the character card gave the value.
    pub from_card: bool,
}

/// 000 "Characters and Traps" > "Agility": the armour part of default agility.
pub fn armour_agility(armour: Armour, settings: &MorvalTrapSettings) -> i32 {
    match armour {
        Armour::Plate => -2,
        Armour::Heavy => -1,
        Armour::Medium => 0,
        Armour::Light => 1,
        Armour::Unclothed => 2,
        Armour::Clothed => settings.clothed_agility,
    }
}

/// 000 "Characters and Traps" > "Agility": the value on the character card if it has one,
/// else the defaults (armour, shield -1, female -1, adventurer +1, load -1).
pub fn agility(traits: &Traits, card_value: Option<i32>, settings: &MorvalTrapSettings) -> Agility {
    let mut factors = Vec::new();
    if let Some(value) = card_value {
        push_factor(&mut factors, "A on character card", value);
        return Agility { value, factors, from_card: true };
    }
    let armour_reason = match traits.armour {
        Armour::Clothed => "clothed (house rule)",
        other => other.label(),
    };
    push_factor(&mut factors, armour_reason, armour_agility(traits.armour, settings));
    if traits.shield {
        push_factor(&mut factors, "carrying shield", -1);
    }
    if traits.sex == Sex::Female {
        push_factor(&mut factors, "female", -1);
    }
    if traits.adventurer {
        push_factor(&mut factors, "adventurer", 1);
    }
    if traits.load {
        push_factor(&mut factors, "carrying load", -1);
    }
    let value = factors.iter().map(|f| f.value).sum::<i32>();
    Agility { value, factors, from_card: false }
}

fn push_factor(factors: &mut Vec<Modifier>, reason: &'static str, value: i32) {
    if value != 0 {
        factors.push(Modifier { reason: Cow::Borrowed(reason), value });
    }
}

// ---------------------------------------------------------------------------------------------
// Shared factors

/// 000 "Characters and Traps" > "Trip cords", "Specimen Pit Trap", "Loop Traps": speed factor,
/// 7"+ move +1, 11"+ +2, 15"+ +3, 20"+ +4 (speed in inches per move).
pub fn trap_speed_factor(speed_inches: f32) -> i32 {
    if speed_inches >= 20.0 {
        4
    } else if speed_inches >= 15.0 {
        3
    } else if speed_inches >= 11.0 {
        2
    } else if speed_inches >= 7.0 {
        1
    } else {
        0
    }
}

fn add_trap_speed(roll: &mut Roll, speed_inches: f32) {
    let value = trap_speed_factor(speed_inches);
    let reason = match value {
        4 => "moving 20\"+",
        3 => "moving 15\"+",
        2 => "moving 11\"+",
        _ => "moving 7\"+",
    };
    roll.add(reason, value);
}

/// 000 "Characters and Traps" > "Spotting Traps", "Treadle Traps": moving 7"+ -1, moving 10"+
/// -2 (the faster band replaces the slower one).
pub fn spotting_speed_factor(speed_inches: f32) -> i32 {
    if speed_inches >= 10.0 {
        -2
    } else if speed_inches >= 7.0 {
        -1
    } else {
        0
    }
}

/// 000 "Characters and Traps" > "Trip cords", "Spotting Traps": 2nd -1, 3rd -2, 4th -3
/// (`order` 1 is the first; later than the fourth is a setting).
pub fn order_factor(order: u32, settings: &MorvalTrapSettings) -> i32 {
    match order {
        0 | 1 => 0,
        2 => -1,
        3 => -2,
        4 => -3,
        _ => settings.fifth_or_later_factor,
    }
}

fn trip_cord_order_reason(order: u32) -> &'static str {
    match order {
        0..=2 => "2nd victim",
        3 => "3rd victim",
        4 => "4th victim",
        _ => "5th or later victim (house rule)",
    }
}

fn spot_order_reason(order: u32) -> &'static str {
    match order {
        0..=2 => "second in area",
        3 => "third in area",
        4 => "fourth in area",
        _ => "fifth or later in area (house rule)",
    }
}

/// 000 "Characters and Traps" > "Spotting Traps", "Treadle Traps": plate or heavy -2, medium
/// or encumbered -1 (an encumbered figure in medium or heavier armour takes only the armour's).
pub fn burden_factor(traits: &Traits) -> i32 {
    burden(traits).1
}

fn burden(traits: &Traits) -> (&'static str, i32) {
    match traits.armour {
        Armour::Plate => ("plate armour", -2),
        Armour::Heavy => ("heavy armour", -2),
        Armour::Medium => ("medium armour", -1),
        Armour::Light | Armour::Clothed | Armour::Unclothed if traits.load => ("encumbered", -1),
        Armour::Light | Armour::Clothed | Armour::Unclothed => ("unencumbered", 0),
    }
}

/// Factors shared by spotting and the silent alarm: burden, gait, mounted, speed.
fn add_mover_factors(roll: &mut Roll, traits: &Traits, gait: Gait, speed_inches: f32) {
    let (reason, value) = burden(traits);
    roll.add(reason, value);
    match gait {
        Gait::Cautious => roll.add("walking cautiously", 1),
        Gait::Searching => roll.add("searching", 2),
        Gait::Normal | Gait::Furtive | Gait::Running => {}
    }
    if traits.mounted {
        roll.add("mounted", -1);
    }
    let speed = spotting_speed_factor(speed_inches);
    roll.add(if speed <= -2 { "moving 10\"+" } else { "moving 7\"+" }, speed);
}

// ---------------------------------------------------------------------------------------------
// Concealment and spotting

crate::rules::named_enum! {
    /// Concealment classes (000 "Triggering Traps", "Spotting Traps"), least hidden first.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Concealment {
        /// Loosely Concealed (LC): the best a trip cord can be.
        LooselyConcealed => "loosely_concealed",
        /// Normally Concealed (NC): the best on commonly used routes, and for pits and loops.
        NormallyConcealed => "normally_concealed",
        /// Well Concealed (WC): only in little-used areas such as tombs.
        WellConcealed => "well_concealed",
    }
}

impl Concealment {
    /// The text's abbreviation.
    pub fn code(self) -> &'static str {
        match self {
            Concealment::LooselyConcealed => "LC",
            Concealment::NormallyConcealed => "NC",
            Concealment::WellConcealed => "WC",
        }
    }

    /// House rule (RULES-NOTES "Spotting traps"): the spotting target, LC 4+, NC 5+, WC 6+.
    pub fn spot_target(self, settings: &MorvalTrapSettings) -> i32 {
        match self {
            Concealment::LooselyConcealed => settings.loosely_concealed_spot_target,
            Concealment::NormallyConcealed => settings.normally_concealed_spot_target,
            Concealment::WellConcealed => settings.well_concealed_spot_target,
        }
    }
}

crate::rules::named_enum! {
    /// The kinds of trap in 000 "Characters and Traps".
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum TrapKind {
        /// A trip cord.
        TripCord => "trip_cord",
        /// A treadle trap: goes off when a creature steps on it.
        Treadle => "treadle",
        /// A lifter trap: goes off when an object is lifted or a door or trapdoor opened.
        Lifter => "lifter",
        /// A floor, bridge or the like that gives way.
        FallingFloor => "falling_floor",
        /// The specimen pit: 1" deep, dug by one man in 8 hours.
        SpecimenPit => "specimen_pit",
        /// A loop trap: a concealed noose on a bent-down young tree.
        Loop => "loop",
        /// A leydonic (electric) trap.
        Leydonic => "leydonic",
    }
}

impl TrapKind {
    /// 000 "Characters and Traps" > "Triggering Traps", "Specimen Pit Trap", "Loop Traps": the
    /// best concealment the kind allows (trip cords LC, specimen pits and loops NC).
    pub fn concealment_cap(self) -> Concealment {
        match self {
            TrapKind::TripCord => Concealment::LooselyConcealed,
            TrapKind::SpecimenPit | TrapKind::Loop => Concealment::NormallyConcealed,
            TrapKind::Treadle | TrapKind::Lifter | TrapKind::FallingFloor | TrapKind::Leydonic => {
                Concealment::WellConcealed
            }
        }
    }
}

/// 000 "Characters and Traps" > "Triggering Traps": the best concealment for a trap of `kind`;
/// commonly used routes (and anywhere else) are NC at best, "Only traps set in little used
/// areas, such as tombs could merit Well Concealed status".
pub fn best_concealment(kind: TrapKind, little_used_area: bool) -> Concealment {
    let site_cap = if little_used_area { Concealment::WellConcealed } else { Concealment::NormallyConcealed };
    kind.concealment_cap().min(site_cap)
}

/// A figure looking for a trap within 2".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spotter {
    /// The figure; its armour, load and being mounted are factors.
    pub traits: Traits,
    /// How it moves this move (cautious +1, searching +2).
    pub gait: Gait,
    /// Inches moved this move.
    pub speed_inches: f32,
    /// 1 for the first figure in the area, 2 for the second, and so on.
    pub order_in_area: u32,
    /// Caller-given bonus for a tracker in the wild or an engineer or thief in a building;
    /// the text names them but gives no number.
    pub skill_bonus: i32,
    /// "F are Personal Bonuses and handicaps": the figure's own spotting factor (scene
    /// `spot_factor`).
    pub personal: i32,
}

/// 000 "Spotting Traps": "F are Personal Bonuses and handicaps" — the log's reason for a
/// figure's own factor.
pub const PERSONAL_FACTOR: &str = "personal bonus/handicap";

/// A spotting roll and whether it found the trap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpotResult {
    /// MD or D6 + F, against the concealment's target.
    pub roll: Roll,
    /// The trap's concealment class.
    pub concealment: Concealment,
    /// Whether the figure found the trap.
    pub spotted: bool,
}

/// 000 "Characters and Traps" > "Spotting Traps": the lighting factor ("Penalties are also
/// applied for gloom or darkness"; numbers are house rules, none in SUN, LLL and DLL).
pub fn lighting_spot_factor(lighting: Lighting, settings: &MorvalTrapSettings) -> i32 {
    match lighting {
        Lighting::Sun | Lighting::Daylight | Lighting::Overcast => 0,
        Lighting::Gloom => settings.gloom_spot_factor,
        Lighting::Dark => settings.dark_spot_factor,
        Lighting::PitchBlack => settings.pitch_black_spot_factor,
    }
}

fn lighting_reason(lighting: Lighting) -> &'static str {
    match lighting {
        Lighting::Sun | Lighting::Daylight | Lighting::Overcast => "light",
        Lighting::Gloom => "gloom D/L (house rule)",
        Lighting::Dark => "darkness DDL (house rule)",
        Lighting::PitchBlack => "pitch black DDD (house rule)",
    }
}

/// 000 "Characters and Traps" > "Spotting Traps": whether a spotting total finds a trap.
pub fn spotted(total: i32, concealment: Concealment, settings: &MorvalTrapSettings) -> bool {
    total >= concealment.spot_target(settings)
}

/// 000 "Characters and Traps" > "Spotting Traps": MD or D6 + F against the concealment target.
pub fn spot_trap(
    spotter: &Spotter,
    concealment: Concealment,
    lighting: Lighting,
    settings: &MorvalTrapSettings,
    src: &mut impl DiceSource,
) -> SpotResult {
    let mut roll = Roll::new(settings.spot_dice.dice(), src);
    add_mover_factors(&mut roll, &spotter.traits, spotter.gait, spotter.speed_inches);
    roll.add(spot_order_reason(spotter.order_in_area), order_factor(spotter.order_in_area, settings));
    roll.add(lighting_reason(lighting), lighting_spot_factor(lighting, settings));
    roll.add("tracker, engineer or thief", spotter.skill_bonus);
    roll.add(PERSONAL_FACTOR, spotter.personal);
    let roll = roll.at_least(concealment.spot_target(settings));
    let found = spotted(roll.total, concealment, settings);
    SpotResult { roll, concealment, spotted: found }
}

// ---------------------------------------------------------------------------------------------
// Injuries, statuses and noises

crate::rules::named_enum! {
    /// How a trap leaves its victim (000 "Trip cords").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum VictimStatus {
        /// Demoralised (trip cord 5+).
        Demoralised => "demoralised",
        /// Dazed (trip cord 7+).
        Dazed => "dazed",
        /// Fainted (trip cord 9+).
        Fainted => "fainted",
    }
}

crate::rules::named_enum! {
    /// What an injury's duration counts.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum DurationUnit {
        /// The duration counts moves.
        Moves => "moves",
        /// The duration counts days.
        Days => "days",
    }
}

crate::rules::named_enum! {
    /// Lasting injuries from trip cords and loops (000 "Trip cords", "Loop Traps").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum InjuryKind {
        /// Trip cord 5+: -2" to moves for D6 x20 moves.
        StrainedAnkle => "strained_ankle",
        /// Trip cord 7+: -3" to moves, heals in D6 days.
        SprainedAnkle => "sprained_ankle",
        /// Trip cord 9+: -4" to moves, heals in D6 +4 days.
        BrokenAnkle => "broken_ankle",
        /// Trip cord 11+: -5" to moves, heals in D6 + 11 days.
        BrokenLeg => "broken_leg",
        /// Loop 2+: -1" to moves for D6 x 5 moves.
        StrainedFoot => "strained_foot",
        /// Loop 1-: sprained on release, -2" to moves for D6 x20 moves.
        SprainedFoot => "sprained_foot",
    }
}

impl InjuryKind {
    /// 000 "Characters and Traps" > "Trip cords", "Loop Traps": inches off every move while
    /// the injury lasts.
    pub fn move_penalty_inches(self) -> i32 {
        match self {
            InjuryKind::StrainedAnkle => 2,
            InjuryKind::SprainedAnkle => 3,
            InjuryKind::BrokenAnkle => 4,
            InjuryKind::BrokenLeg => 5,
            InjuryKind::StrainedFoot => 1,
            InjuryKind::SprainedFoot => 2,
        }
    }

    /// 000 "Characters and Traps" > "Trip cords", "Loop Traps": moves or days.
    pub fn duration_unit(self) -> DurationUnit {
        match self {
            InjuryKind::StrainedAnkle | InjuryKind::StrainedFoot | InjuryKind::SprainedFoot => DurationUnit::Moves,
            InjuryKind::SprainedAnkle | InjuryKind::BrokenAnkle | InjuryKind::BrokenLeg => DurationUnit::Days,
        }
    }

    /// 000 "Characters and Traps" > "Trip cords", "Loop Traps": the D6 is multiplied by this
    /// ("D6 x20 moves", "D6 x 5 moves"; 1 for days).
    pub fn duration_multiplier(self) -> i32 {
        match self {
            InjuryKind::StrainedAnkle | InjuryKind::SprainedFoot => 20,
            InjuryKind::StrainedFoot => 5,
            InjuryKind::SprainedAnkle | InjuryKind::BrokenAnkle | InjuryKind::BrokenLeg => 1,
        }
    }

    /// 000 "Characters and Traps" > "Trip cords": added to the D6 ("D6 +4 days", "D6 + 11 days").
    pub fn duration_addend(self) -> i32 {
        match self {
            InjuryKind::BrokenAnkle => 4,
            InjuryKind::BrokenLeg => 11,
            InjuryKind::StrainedAnkle
            | InjuryKind::SprainedAnkle
            | InjuryKind::StrainedFoot
            | InjuryKind::SprainedFoot => 0,
        }
    }

    fn duration_addend_reason(self) -> &'static str {
        match self {
            InjuryKind::BrokenLeg => "broken leg heals in D6 + 11 days",
            _ => "broken ankle heals in D6 +4 days",
        }
    }

    /// 000 "Characters and Traps" > "Loop Traps": the loop's sprain comes "on release", when
    /// the victim is let down, not while hanging.
    pub fn starts_on_release(self) -> bool {
        self == InjuryKind::SprainedFoot
    }
}

/// A lasting injury with its rolled duration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LastingInjury {
    /// Which injury.
    pub kind: InjuryKind,
    /// Inches off every move while it lasts.
    pub move_penalty_inches: i32,
    /// Whether `duration` counts moves or days.
    pub unit: DurationUnit,
    /// The D6, with any days added to it, as rolled.
    pub duration_roll: Roll,
    /// How many moves or days: the roll's total times the kind's multiplier.
    pub duration: i32,
}

impl LastingInjury {
    /// 000 "Characters and Traps" > "Trip cords": "Bandage + pain easing smear improves sprain
    /// 1" etc.": the move penalty once treated (read as applying to any of these injuries).
    pub fn treated_move_penalty_inches(&self) -> i32 {
        (self.move_penalty_inches - 1).max(0)
    }
}

/// 000 "Characters and Traps" > "Trip cords", "Loop Traps": roll how long an injury lasts.
pub fn roll_injury(kind: InjuryKind, src: &mut impl DiceSource) -> LastingInjury {
    let mut duration_roll = Roll::new(Dice::D6, src);
    duration_roll.add(kind.duration_addend_reason(), kind.duration_addend());
    let duration = duration_roll.total * kind.duration_multiplier();
    LastingInjury {
        kind,
        move_penalty_inches: kind.move_penalty_inches(),
        unit: kind.duration_unit(),
        duration_roll,
        duration,
    }
}

crate::rules::named_enum! {
    /// Kinds of noise a trap or its victim makes.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum NoiseKind {
        /// Cursing (a trip-cord victim, a loop's 2+ row).
        Cursing => "cursing",
        /// Screaming (a loop's 1− row).
        Screaming => "screaming",
        /// A gong, bell or trumpet (000 "Treadle Traps").
        Alarm => "alarm",
    }
}

/// A noise others may hear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Noise {
    /// What is heard.
    pub kind: NoiseKind,
    /// How far it is heard, in inches, where the text or the trap gives a distance.
    pub heard_to_inches: Option<i32>,
    /// True when the distance is a house rule, not the text's.
    pub house_rule: bool,
}

// ---------------------------------------------------------------------------------------------
// Trip cords

crate::rules::named_enum! {
    /// 000 "Characters and Traps" > "Trip cords": the results, mildest first.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum TripCordOutcome {
        /// 2-: break cord, lose 1".
        BreakCord => "break_cord",
        /// 3+: break cord, lose 3" and curse loudly.
        BreakCordCursing => "break_cord_cursing",
        /// 5+: fall, demoralised, strained ankle.
        FallStrainedAnkle => "fall_strained_ankle",
        /// 7+: fall, dazed, sprained ankle.
        FallSprainedAnkle => "fall_sprained_ankle",
        /// 9+: fainted, broken ankle.
        FaintBrokenAnkle => "faint_broken_ankle",
        /// 11+: fainted, broken leg.
        FaintBrokenLeg => "faint_broken_leg",
    }
}

impl TripCordOutcome {
    /// Inches lost this move where the text gives them (the cord-breaking rows).
    pub fn move_lost_inches(self) -> Option<i32> {
        match self {
            TripCordOutcome::BreakCord => Some(1),
            TripCordOutcome::BreakCordCursing => Some(3),
            TripCordOutcome::FallStrainedAnkle
            | TripCordOutcome::FallSprainedAnkle
            | TripCordOutcome::FaintBrokenAnkle
            | TripCordOutcome::FaintBrokenLeg => None,
        }
    }

    /// How a fall leaves the victim (demoralised, dazed, fainted); `None` when the cord breaks.
    pub fn status(self) -> Option<VictimStatus> {
        match self {
            TripCordOutcome::BreakCord | TripCordOutcome::BreakCordCursing => None,
            TripCordOutcome::FallStrainedAnkle => Some(VictimStatus::Demoralised),
            TripCordOutcome::FallSprainedAnkle => Some(VictimStatus::Dazed),
            TripCordOutcome::FaintBrokenAnkle | TripCordOutcome::FaintBrokenLeg => Some(VictimStatus::Fainted),
        }
    }

    /// The row's lasting injury; `None` when the cord breaks.
    pub fn injury(self) -> Option<InjuryKind> {
        match self {
            TripCordOutcome::BreakCord | TripCordOutcome::BreakCordCursing => None,
            TripCordOutcome::FallStrainedAnkle => Some(InjuryKind::StrainedAnkle),
            TripCordOutcome::FallSprainedAnkle => Some(InjuryKind::SprainedAnkle),
            TripCordOutcome::FaintBrokenAnkle => Some(InjuryKind::BrokenAnkle),
            TripCordOutcome::FaintBrokenLeg => Some(InjuryKind::BrokenLeg),
        }
    }

    /// The victim goes down (5+): a steed that falls throws its rider.
    pub fn falls(self) -> bool {
        !matches!(self, TripCordOutcome::BreakCord | TripCordOutcome::BreakCordCursing)
    }

    /// "curse loudly" (3+ row only).
    pub fn curses(self) -> bool {
        self == TripCordOutcome::BreakCordCursing
    }
}

/// 000 "Characters and Traps" > "Trip cords": 2- | 3-4 | 5-6 | 7-8 | 9-10 | 11+.
pub fn trip_cord_band(total: i32) -> TripCordOutcome {
    if total >= 11 {
        TripCordOutcome::FaintBrokenLeg
    } else if total >= 9 {
        TripCordOutcome::FaintBrokenAnkle
    } else if total >= 7 {
        TripCordOutcome::FallSprainedAnkle
    } else if total >= 5 {
        TripCordOutcome::FallStrainedAnkle
    } else if total >= 3 {
        TripCordOutcome::BreakCordCursing
    } else {
        TripCordOutcome::BreakCord
    }
}

/// One figure (or steed) running into a trip cord.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TripCordVictim {
    /// The victim's agility, taken off the D10.
    pub agility: i32,
    /// Inches moved this move.
    pub speed_inches: f32,
    /// 1 for the first victim of the cord this round, 2 for the second, and so on.
    pub victim_order: u32,
    /// A steed carrying a rider: if it falls, the rider falls off.
    pub carries_rider: bool,
}

/// A trip cord sprung: every roll and what it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TripCordResult {
    /// D10 - victim's agility + F.
    pub roll: Roll,
    /// The band the total falls in.
    pub outcome: TripCordOutcome,
    /// Inches lost this move (cord-breaking rows).
    pub move_lost_inches: Option<i32>,
    /// How the fall left the victim, if it fell.
    pub status: Option<VictimStatus>,
    /// The lasting injury with its rolled duration, if any.
    pub injury: Option<LastingInjury>,
    /// Loud cursing on the 3+ row; how far it is heard is a house rule.
    pub noise: Option<Noise>,
    /// "Riders whose Steeds fall, fall off strike -3": D10 - 3, reported (no combat tables).
    pub rider_fall_strike: Option<Roll>,
}

/// 000 "Characters and Traps" > "Trip cords": GM's D10 - victim's agility + F.
pub fn resolve_trip_cord(
    victim: &TripCordVictim,
    settings: &MorvalTrapSettings,
    src: &mut impl DiceSource,
) -> TripCordResult {
    let roll = trip_cord_roll(victim, settings, src);
    trip_cord_result(roll, victim, settings, src)
}

/// 000 "Characters and Traps" > "Trip cords": the GM's D10 - victim's agility + F (speed, and
/// the victim's order in the round), before its band is read.
pub fn trip_cord_roll(victim: &TripCordVictim, settings: &MorvalTrapSettings, src: &mut impl DiceSource) -> Roll {
    let mut roll = Roll::new(Dice::D10, src);
    roll.add("victim agility", -victim.agility);
    add_trap_speed(&mut roll, victim.speed_inches);
    roll.add(trip_cord_order_reason(victim.victim_order), order_factor(victim.victim_order, settings));
    roll
}

/// 000 "Characters and Traps" > "Trip cords": what a [`trip_cord_roll`] does, read from its
/// total as it stands (a later factor, such as 001's evil eye, included): the band, then the
/// injury's duration and a rider's fall, rolled in that order.
pub fn trip_cord_result(
    roll: Roll,
    victim: &TripCordVictim,
    settings: &MorvalTrapSettings,
    src: &mut impl DiceSource,
) -> TripCordResult {
    let outcome = trip_cord_band(roll.total);
    let injury = outcome.injury().map(|kind| roll_injury(kind, src));
    let noise = outcome.curses().then_some(Noise {
        kind: NoiseKind::Cursing,
        heard_to_inches: Some(settings.trip_cord_cursing_heard_to_inches),
        house_rule: true,
    });
    let rider_fall_strike = (victim.carries_rider && outcome.falls())
        .then(|| Roll::new(Dice::D10, src).modifier("rider falls off", RIDER_FALL_STRIKE_FACTOR));
    TripCordResult {
        roll,
        outcome,
        move_lost_inches: outcome.move_lost_inches(),
        status: outcome.status(),
        injury,
        noise,
        rider_fall_strike,
    }
}

/// 000 "Characters and Traps" > "Trip cords": "Riders whose Steeds fall, fall off strike -3",
/// D10 − 3, reported; a non-rider's falling dice per 000 "Riders & Animal Trainers" ("Non
/// riders deduct ... 1 from stampeding & falling dice"), read as `reading` says.
pub fn rider_falls_off(horsemanship: Horsemanship, reading: NonRiderFallingDice, src: &mut impl DiceSource) -> Roll {
    let mut roll = Roll::new(Dice::D10, src).modifier("rider falls off", RIDER_FALL_STRIKE_FACTOR);
    let deduct = horsemanship.stampede_and_fall_modifier();
    match reading {
        NonRiderFallingDice::Deduct => roll.add("non-rider", deduct),
        NonRiderFallingDice::AddToStrike => roll.add("non-rider (house rule)", -deduct),
    }
    roll
}

// ---------------------------------------------------------------------------------------------
// Treadle and lifter traps, payloads, the silent alarm

crate::rules::named_enum! {
    /// What a treadle or lifter trap sets off (000 "Treadle Traps"; RULES-NOTES "Treadle payloads").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum PayloadKind {
        /// "As a Silent alarm system": the alarm is given elsewhere; the victim may realise.
        SilentAlarm => "silent_alarm",
        /// "a gong/bell/trumpet sounds".
        SoundingAlarm => "sounding_alarm",
        /// "a hail of stones, arrows and javelins rains down".
        HailOfMissiles => "hail_of_missiles",
        /// "a giant boulder".
        Boulder => "boulder",
        /// "cloud of gas".
        Gas => "gas",
        /// "bucket of acid".
        Acid => "acid",
        /// "gout of flame": also starts a fire through the fire rules (RULES-NOTES).
        Flame => "flame",
    }
}

impl PayloadKind {
    /// Whether it strikes the victim (alarms do not).
    pub fn strikes(self) -> bool {
        !matches!(self, PayloadKind::SilentAlarm | PayloadKind::SoundingAlarm)
    }
}

/// A trap's payload as the scene defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Payload {
    /// What the trap sets off.
    pub kind: PayloadKind,
    /// Strike factor, set per trap (RULES-NOTES), added to a D10; alarms ignore it.
    #[serde(default)]
    pub strike: i32,
    /// How far a sounding alarm is heard, in inches, where the trap sets it (the text gives none).
    #[serde(default)]
    pub heard_to_inches: Option<i32>,
}

crate::rules::named_enum! {
    /// A treadle's safety device (000 "Triggering Traps", "Treadle Traps").
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SafetyLock {
        /// No safety device: it works for everyone.
        #[default]
        NoDevice => "no_device",
        /// A device, not engaged: friends who work its concealed lever pass safely.
        Armed => "armed",
        /// "locked into a safe mode": nobody sets it off.
        Locked => "locked",
    }
}

/// A treadle trap as the scene defines it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreadleTrap {
    /// What the treadle sets off.
    pub payload: Payload,
    /// Its safety device, if any, and whether it is locked.
    #[serde(default)]
    pub safety: SafetyLock,
    /// It works only for a creature above this weight ("above a certain weight?"); None: any.
    #[serde(default)]
    pub weight_above: Option<f32>,
}

/// 000 "Characters and Traps" > "Treadle Traps", "Triggering Traps": whether a creature
/// stepping on the treadle sets it off. `works_safety_lever`: a friend who uses the concealed
/// lever to lock it while passing (a friend who forgets the safety procedure passes `false`).
pub fn treadle_triggers(trap: &TreadleTrap, creature_weight: f32, works_safety_lever: bool) -> bool {
    let heavy_enough = trap.weight_above.is_none_or(|limit| creature_weight > limit);
    let safe = match trap.safety {
        SafetyLock::NoDevice => false,
        SafetyLock::Armed => works_safety_lever,
        SafetyLock::Locked => true,
    };
    heavy_enough && !safe
}

crate::rules::named_enum! {
    /// What sets a lifter trap off (000 "Lifter Traps").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum LifterAction {
        /// "a weight (gold idol, casket, book etc) is lifted upwards".
        LiftObject => "lift_object",
        /// "a door ... is opened".
        OpenDoor => "open_door",
        /// "a ... trapdoor is opened".
        OpenTrapdoor => "open_trapdoor",
    }
}

/// A lifter trap as the scene defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LifterTrap {
    /// What sets it off.
    pub action: LifterAction,
    /// What it sets off.
    pub payload: Payload,
}

/// 000 "Characters and Traps" > "Lifter Traps": it goes off when its own object is lifted or
/// its own door or trapdoor opened.
pub fn lifter_triggers(trap: &LifterTrap, action: LifterAction) -> bool {
    trap.action == action
}

/// A silent-alarm roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SilentAlarmResult {
    /// D6 + F, 6+.
    pub roll: Roll,
    /// 6+: the victim realises something has been triggered.
    pub victim_realises: bool,
}

/// 000 "Characters and Traps" > "Treadle Traps": "= 6+ victim realises something has been triggered".
pub fn silent_alarm_noticed(total: i32) -> bool {
    total >= SILENT_ALARM_TARGET
}

/// 000 "Characters and Traps" > "Treadle Traps": silent alarm, D6 + F (plate/heavy -2,
/// medium/encumbered -1, cautious +1, searching +2, mounted -1, moving 7"+ -1, 10"+ -2).
pub fn silent_alarm_check(
    traits: &Traits,
    gait: Gait,
    speed_inches: f32,
    src: &mut impl DiceSource,
) -> SilentAlarmResult {
    let mut roll = Roll::new(Dice::D6, src);
    add_mover_factors(&mut roll, traits, gait, speed_inches);
    let roll = roll.at_least(SILENT_ALARM_TARGET);
    let victim_realises = silent_alarm_noticed(roll.total);
    SilentAlarmResult { roll, victim_realises }
}

impl SilentAlarmResult {
    /// 000 "Treadle Traps": "F= Personal bonuses": add the victim's own factor to the check
    /// and judge it again.
    pub fn with_personal_factor(mut self, factor: i32) -> Self {
        self.roll.add(PERSONAL_FACTOR, factor);
        self.victim_realises = silent_alarm_noticed(self.roll.total);
        self
    }
}

/// What a sprung payload did to one victim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PayloadResult {
    /// What the trap set off.
    pub payload: PayloadKind,
    /// Silent alarm only: did the victim realise.
    pub silent_alarm: Option<SilentAlarmResult>,
    /// Sounding alarm only.
    pub noise: Option<Noise>,
    /// D10 + the trap's strike factor, reported (the Morval combat tables are absent).
    pub strike: Option<Roll>,
    /// Flame: start a fire at the trap through the fire rules.
    pub starts_fire: bool,
}

/// 000 "Characters and Traps" > "Treadle Traps", "Lifter Traps": a sprung payload against one
/// victim (for a lifter the victim's speed is usually 0).
pub fn spring_payload(
    payload: &Payload,
    victim: &Traits,
    gait: Gait,
    speed_inches: f32,
    src: &mut impl DiceSource,
) -> PayloadResult {
    let silent_alarm =
        (payload.kind == PayloadKind::SilentAlarm).then(|| silent_alarm_check(victim, gait, speed_inches, src));
    let noise = (payload.kind == PayloadKind::SoundingAlarm).then_some(Noise {
        kind: NoiseKind::Alarm,
        heard_to_inches: payload.heard_to_inches,
        house_rule: false,
    });
    let strike =
        payload.kind.strikes().then(|| Roll::new(Dice::D10, src).modifier("trap strike factor", payload.strike));
    PayloadResult {
        payload: payload.kind,
        silent_alarm,
        noise,
        strike,
        starts_fire: payload.kind == PayloadKind::Flame,
    }
}

// ---------------------------------------------------------------------------------------------
// Falling traps and pits

/// 000 "Characters and Traps" > "Falling Traps", "Specimen Pit Trap": whether a floor or bridge
/// gives way: once the creatures on it reach its set weight ("when a certain cubits weight of
/// creatures is on it"), or under any creature when it has none.
pub fn floor_gives_way(weights_on_it: &[f32], gives_way_at: Option<f32>) -> bool {
    match gives_way_at {
        Some(limit) => weights_on_it.iter().sum::<f32>() >= limit,
        None => weights_on_it.iter().any(|&weight| weight > 0.0),
    }
}

crate::rules::named_enum! {
    /// A pit's bottom (000 "Specimen Pit Trap").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum PitBottom {
        /// Earth bottom: strike −4.
        Earth => "earth",
        /// Rocky bottom: strike −3.
        Rocky => "rocky",
        /// Spiked bottom: strike −2.
        Spiked => "spiked",
    }
}

impl PitBottom {
    /// As the text words it.
    pub fn label(self) -> &'static str {
        match self {
            PitBottom::Earth => "earth bottom",
            PitBottom::Rocky => "rocky bottom",
            PitBottom::Spiked => "spiked bottom",
        }
    }

    /// 000 "Characters and Traps" > "Specimen Pit Trap": "Pit strikes for 1", earth bottom -4,
    /// rocky bottom -3, spiked bottom -2".
    pub fn strike_factor(self) -> i32 {
        match self {
            PitBottom::Earth => -4,
            PitBottom::Rocky => -3,
            PitBottom::Spiked => -2,
        }
    }
}

/// A pit (or what lies below a falling floor) as the scene defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pit {
    /// What the bottom is, which sets the strike factor.
    pub bottom: PitBottom,
    /// Depth in whole inches; the specimen pit is 1".
    pub depth_inches: i32,
}

impl Pit {
    /// 000 "Characters and Traps" > "Specimen Pit Trap": 16 cubits (1") deep.
    pub fn specimen(bottom: PitBottom) -> Pit {
        Pit { bottom, depth_inches: SPECIMEN_PIT_DEPTH_INCHES }
    }

    /// 000 "Characters and Traps" > "Specimen Pit Trap": "+1 per extra inch depth".
    pub fn extra_depth_factor(self) -> i32 {
        (self.depth_inches - SPECIMEN_PIT_DEPTH_INCHES).max(0)
    }

    /// 000 "Characters and Traps" > "Specimen Pit Trap": the pit strike factor.
    pub fn strike_factor(self) -> i32 {
        self.bottom.strike_factor() + self.extra_depth_factor()
    }
}

crate::rules::named_enum! {
    /// 000 "Characters and Traps" > "Specimen Pit Trap": the results, best first.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum PitOutcome {
        /// 9+: jump over unscathed.
        JumpOver => "jump_over",
        /// 7+ (7-8): jump back unscathed.
        JumpBack => "jump_back",
        /// 6: hanging on far edge.
        HangingOnFarEdge => "hanging_on_far_edge",
        /// 5: hanging on near edge.
        HangingOnNearEdge => "hanging_on_near_edge",
        /// 4: retarded fall, -2 to strike.
        RetardedFallMinusTwo => "retarded_fall_minus_two",
        /// 3: retarded fall, -1 to strike.
        RetardedFallMinusOne => "retarded_fall_minus_one",
        /// 2-: fall unimpeded.
        FallUnimpeded => "fall_unimpeded",
    }
}

impl PitOutcome {
    /// The victim falls in (and is struck).
    pub fn falls(self) -> bool {
        matches!(self, PitOutcome::RetardedFallMinusTwo | PitOutcome::RetardedFallMinusOne | PitOutcome::FallUnimpeded)
    }

    /// Left hanging on an edge.
    pub fn hanging(self) -> bool {
        matches!(self, PitOutcome::HangingOnFarEdge | PitOutcome::HangingOnNearEdge)
    }

    /// The retarded-fall factor to the fall's strike (0 for an unimpeded fall or no fall).
    pub fn fall_strike_adjustment(self) -> i32 {
        match self {
            PitOutcome::RetardedFallMinusTwo => -2,
            PitOutcome::RetardedFallMinusOne => -1,
            PitOutcome::JumpOver
            | PitOutcome::JumpBack
            | PitOutcome::HangingOnFarEdge
            | PitOutcome::HangingOnNearEdge
            | PitOutcome::FallUnimpeded => 0,
        }
    }
}

/// 000 "Characters and Traps" > "Specimen Pit Trap": 2- | 3 | 4 | 5 | 6 | 7-8 | 9+.
pub fn pit_band(total: i32) -> PitOutcome {
    if total >= 9 {
        PitOutcome::JumpOver
    } else if total >= 7 {
        PitOutcome::JumpBack
    } else if total == 6 {
        PitOutcome::HangingOnFarEdge
    } else if total == 5 {
        PitOutcome::HangingOnNearEdge
    } else if total == 4 {
        PitOutcome::RetardedFallMinusTwo
    } else if total == 3 {
        PitOutcome::RetardedFallMinusOne
    } else {
        PitOutcome::FallUnimpeded
    }
}

/// A victim at an unspotted pit: every roll and what it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PitResult {
    /// D10 - victim's agility + F.
    pub roll: Roll,
    /// The band the total falls in.
    pub outcome: PitOutcome,
    /// For a fall: D10 + pit strike factor + retarded fall, reported (no combat tables).
    pub fall_strike: Option<Roll>,
}

/// 000 "Characters and Traps" > "Specimen Pit Trap": "If not spotted, GM's D10 - victims
/// agility + F", then "GM dices for falls D10 + pit strike factor".
pub fn resolve_pit(agility: i32, speed_inches: f32, pit: Pit, src: &mut impl DiceSource) -> PitResult {
    let roll = victim_agility_roll(agility, speed_inches, src);
    pit_result(roll, pit, src)
}

/// 000 "Characters and Traps" > "Specimen Pit Trap", "Loop Traps": the GM's D10 - victim's
/// agility + F (speed), before its band is read.
pub fn victim_agility_roll(agility: i32, speed_inches: f32, src: &mut impl DiceSource) -> Roll {
    let mut roll = Roll::new(Dice::D10, src);
    roll.add("victim agility", -agility);
    add_trap_speed(&mut roll, speed_inches);
    roll
}

/// 000 "Characters and Traps" > "Specimen Pit Trap": what a [`victim_agility_roll`] at the pit
/// does, read from its total as it stands (a later factor, such as 001's evil eye, included):
/// the band, then for a fall "D10 + pit strike factor".
pub fn pit_result(roll: Roll, pit: Pit, src: &mut impl DiceSource) -> PitResult {
    let outcome = pit_band(roll.total);
    let fall_strike = outcome.falls().then(|| {
        let mut strike = Roll::new(Dice::D10, src);
        strike.add(pit.bottom.label(), pit.bottom.strike_factor());
        strike.add("extra depth", pit.extra_depth_factor());
        strike.add("retarded fall", outcome.fall_strike_adjustment());
        strike
    });
    PitResult { roll, outcome, fall_strike }
}

/// 000 "Characters and Traps" > "Specimen Pit Trap": a figure that walks into an open pit
/// falls unimpeded, "GM dices for falls D10 + pit strike factor" (nothing hides it, so there is
/// no "If not spotted" roll).
pub fn open_pit_fall(pit: Pit, src: &mut impl DiceSource) -> Roll {
    let mut strike = Roll::new(Dice::D10, src);
    strike.add(pit.bottom.label(), pit.bottom.strike_factor());
    strike.add("extra depth", pit.extra_depth_factor());
    strike
}

// ---------------------------------------------------------------------------------------------
// Loop traps

crate::rules::named_enum! {
    /// 000 "Characters and Traps" > "Loop Traps": the results, best first.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum LoopOutcome {
        /// 8+: spring but not caught.
        SprungNotCaught => "sprung_not_caught",
        /// 6+: missed trap, not sprung this time.
        MissedNotSprung => "missed_not_sprung",
        /// 4+: caught but keep hand-held items.
        CaughtKeepsItems => "caught_keeps_items",
        /// 2+: caught, dropping items, cursing heard to 8", strained foot.
        CaughtCursing => "caught_cursing",
        /// 1-: caught, dropping items, screaming heard to 18", sprained foot on release.
        CaughtScreaming => "caught_screaming",
    }
}

impl LoopOutcome {
    /// Left swinging by one foot.
    pub fn caught(self) -> bool {
        matches!(self, LoopOutcome::CaughtKeepsItems | LoopOutcome::CaughtCursing | LoopOutcome::CaughtScreaming)
    }

    /// Drops hand-held items.
    pub fn drops_items(self) -> bool {
        matches!(self, LoopOutcome::CaughtCursing | LoopOutcome::CaughtScreaming)
    }

    /// The trap went off (false only when missed: it stays set for the next one).
    pub fn sprung(self) -> bool {
        self != LoopOutcome::MissedNotSprung
    }

    /// The cursing (2+ row, heard to 8") or screaming (1− row, heard to 18"); `None` otherwise.
    pub fn noise(self) -> Option<Noise> {
        let (kind, inches) = match self {
            LoopOutcome::CaughtCursing => (NoiseKind::Cursing, LOOP_CURSING_HEARD_TO_INCHES),
            LoopOutcome::CaughtScreaming => (NoiseKind::Screaming, LOOP_SCREAMING_HEARD_TO_INCHES),
            LoopOutcome::SprungNotCaught | LoopOutcome::MissedNotSprung | LoopOutcome::CaughtKeepsItems => {
                return None;
            }
        };
        Some(Noise { kind, heard_to_inches: Some(inches), house_rule: false })
    }

    /// The strained foot (2+ row) or the foot sprained on release (1− row); `None` otherwise.
    pub fn injury(self) -> Option<InjuryKind> {
        match self {
            LoopOutcome::CaughtCursing => Some(InjuryKind::StrainedFoot),
            LoopOutcome::CaughtScreaming => Some(InjuryKind::SprainedFoot),
            LoopOutcome::SprungNotCaught | LoopOutcome::MissedNotSprung | LoopOutcome::CaughtKeepsItems => None,
        }
    }
}

/// 000 "Characters and Traps" > "Loop Traps": 1- | 2-3 | 4-5 | 6-7 | 8+.
pub fn loop_band(total: i32) -> LoopOutcome {
    if total >= 8 {
        LoopOutcome::SprungNotCaught
    } else if total >= 6 {
        LoopOutcome::MissedNotSprung
    } else if total >= 4 {
        LoopOutcome::CaughtKeepsItems
    } else if total >= 2 {
        LoopOutcome::CaughtCursing
    } else {
        LoopOutcome::CaughtScreaming
    }
}

/// A victim at an unspotted loop: every roll and what it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoopResult {
    /// D10 - victim's agility + F.
    pub roll: Roll,
    /// The band the total falls in.
    pub outcome: LoopOutcome,
    /// The cursing or screaming, with how far it is heard.
    pub noise: Option<Noise>,
    /// The foot injury with its rolled duration, if caught and hurt.
    pub injury: Option<LastingInjury>,
}

/// 000 "Characters and Traps" > "Loop Traps": GM's D10 - victim's agility + F.
pub fn resolve_loop(agility: i32, speed_inches: f32, src: &mut impl DiceSource) -> LoopResult {
    let roll = victim_agility_roll(agility, speed_inches, src);
    loop_result(roll, src)
}

/// 000 "Characters and Traps" > "Loop Traps": what a [`victim_agility_roll`] at the loop does,
/// read from its total as it stands (a later factor, such as 001's evil eye, included): the
/// band, its noise, then the foot injury's duration.
pub fn loop_result(roll: Roll, src: &mut impl DiceSource) -> LoopResult {
    let outcome = loop_band(roll.total);
    let injury = outcome.injury().map(|kind| roll_injury(kind, src));
    LoopResult { roll, outcome, noise: outcome.noise(), injury }
}

// ---------------------------------------------------------------------------------------------
// Leydonic traps

/// A leydonic (electric) trap as the scene defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeydonicTrap {
    /// Strike factor, set per trap (RULES-NOTES), added to a D10.
    pub strike: i32,
    /// Moves the capacitor takes to charge again ("Long recharging times"), set per trap.
    pub recharge_moves: u32,
}

/// 000 "Characters and Traps" > "Leydonic (Electric) Traps": whether it holds a charge, given
/// the moves since it last discharged (None: never discharged).
pub fn leydonic_charged(trap: &LeydonicTrap, moves_since_discharge: Option<u32>) -> bool {
    moves_since_discharge.is_none_or(|moves| moves >= trap.recharge_moves)
}

/// A leydonic discharge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeydonicResult {
    /// D10 + strike factor (+ metal armour), reported (no combat tables).
    pub strike: Roll,
    /// Moves until it is charged again.
    pub recharged_after_moves: u32,
}

/// 000 "Characters and Traps" > "Leydonic (Electric) Traps": the charge strikes the victim,
/// harder against metal armour (RULES-NOTES: +2 against medium, heavy and plate).
pub fn discharge_leydonic(
    trap: &LeydonicTrap,
    armour: Armour,
    settings: &MorvalTrapSettings,
    src: &mut impl DiceSource,
) -> LeydonicResult {
    let mut strike = Roll::new(Dice::D10, src);
    strike.add("leydonic strike factor", trap.strike);
    if armour.is_metal() {
        strike.add("metal armour (house rule)", settings.leydonic_metal_armour_bonus);
    }
    LeydonicResult { strike, recharged_after_moves: trap.recharge_moves }
}

// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::super::dice::{ScriptedDice, SeededDice};
    use super::*;
    use crate::rules::stats::chi_square;

    #[test]
    fn an_open_pit_fall_has_no_entry_roll() {
        // Specimen pit, earth bottom, 1": D10 − 4, faces 0–9 give −4..=5; rocky 3": D10 − 3 + 2.
        for face in 0..10u32 {
            let mut dice = ScriptedDice::faces([face]);
            assert_eq!(open_pit_fall(Pit::specimen(PitBottom::Earth), &mut dice).total, face as i32 - 4);
            let mut dice = ScriptedDice::faces([face]);
            let deep = Pit { bottom: PitBottom::Rocky, depth_inches: 3 };
            assert_eq!(open_pit_fall(deep, &mut dice).total, face as i32 - 1);
            assert!(dice.is_empty());
        }
    }

    #[test]
    fn rider_fall_strike_and_non_rider() {
        // 000 "Trip cords": D10 − 3 for a rider whose steed falls: faces 0–9 give −3..=6. A
        // non-rider deducts 1 (000 "Riders & Animal Trainers"): −4..=5; the house-rule reading
        // adds it to the strike instead: −2..=7.
        for face in 0..10u32 {
            let f = face as i32;
            let mut dice = ScriptedDice::faces([face]);
            let r = rider_falls_off(Horsemanship::Rider, NonRiderFallingDice::Deduct, &mut dice);
            assert_eq!(r.total, f - 3);
            assert_eq!(reasons(&r), [("rider falls off", -3)]);
            let mut dice = ScriptedDice::faces([face]);
            let r = rider_falls_off(Horsemanship::SecondLevelTrainer, NonRiderFallingDice::AddToStrike, &mut dice);
            assert_eq!(r.total, f - 3);
            let mut dice = ScriptedDice::faces([face]);
            let r = rider_falls_off(Horsemanship::NonRider, NonRiderFallingDice::Deduct, &mut dice);
            assert_eq!(r.total, f - 4);
            assert_eq!(reasons(&r), [("rider falls off", -3), ("non-rider", -1)]);
            let mut dice = ScriptedDice::faces([face]);
            let r = rider_falls_off(Horsemanship::NonRider, NonRiderFallingDice::AddToStrike, &mut dice);
            assert_eq!(r.total, f - 2);
            assert_eq!(reasons(&r), [("rider falls off", -3), ("non-rider (house rule)", 1)]);
            assert!(dice.is_empty());
        }
    }

    const TRIALS: u32 = 20_000;

    fn settings() -> MorvalTrapSettings {
        MorvalTrapSettings::default()
    }

    fn wearing(armour: Armour) -> Traits {
        Traits { armour, ..Traits::default() }
    }

    fn factor(roll: &Roll, reason: &str) -> Option<i32> {
        roll.modifiers.iter().find(|m| m.reason == reason).map(|m| m.value)
    }

    fn reasons(roll: &Roll) -> Vec<(&str, i32)> {
        roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect()
    }

    /// Chi-square of observed outcome counts against `ways[i]` of `faces` equally likely faces.
    /// An impossible outcome must never appear. 27.9 is the p = 0.0001 critical value for
    /// 6 degrees of freedom (the most any table here has); an off-by-one band moves a tenth
    /// (a sixth) of the trials and scores in the thousands.
    fn assert_distribution(label: &str, observed: &[u32], ways: &[u32], faces: u32) {
        assert_eq!(observed.len(), ways.len());
        assert_eq!(ways.iter().sum::<u32>(), faces, "{label}: expected ways must cover every face");
        for (i, (&seen, &w)) in observed.iter().zip(ways).enumerate() {
            assert!(w != 0 || seen == 0, "{label}: outcome {i} is impossible but came up {seen} times");
        }
        let probabilities: Vec<f64> = ways.iter().map(|&w| f64::from(w) / f64::from(faces)).collect();
        let chi = chi_square(observed, &probabilities);
        assert!(chi < 27.9, "{label}: chi-square {chi:.1}; observed {observed:?}, ways {ways:?}");
    }

    // --- settings and ids -------------------------------------------------------------------

    #[test]
    fn settings_defaults_and_serde() {
        let s = settings();
        assert_eq!(s.clothed_agility, 1);
        assert_eq!(
            (s.loosely_concealed_spot_target, s.normally_concealed_spot_target, s.well_concealed_spot_target),
            (4, 5, 6)
        );
        assert_eq!(s.spot_dice, SpotDice::D6);
        assert_eq!((s.gloom_spot_factor, s.dark_spot_factor, s.pitch_black_spot_factor), (-1, -3, -3));
        assert_eq!(s.fifth_or_later_factor, -3);
        assert_eq!(s.trip_cord_cursing_heard_to_inches, 8);
        assert_eq!(s.leydonic_metal_armour_bonus, 2);
        let parsed: MorvalTrapSettings = serde_json::from_str("{}").unwrap();
        assert_eq!(parsed, s);
        let parsed: MorvalTrapSettings = serde_json::from_str(r#"{"spot_dice":"MD"}"#).unwrap();
        assert_eq!(parsed.spot_dice, SpotDice::Mystic);
        assert!(serde_json::from_str::<MorvalTrapSettings>(r#"{"no_such_setting":1}"#).is_err());
    }

    fn assert_ids<T: Serialize + Copy>(all: &[T], id: fn(T) -> &'static str) {
        let mut seen = Vec::new();
        for &value in all {
            assert_eq!(serde_json::to_value(value).unwrap(), serde_json::Value::String(id(value).to_string()));
            assert!(!seen.contains(&id(value)), "duplicate id {}", id(value));
            seen.push(id(value));
        }
    }

    #[test]
    fn ids_are_stable_and_match_serde() {
        assert_ids(&Concealment::ALL, Concealment::id);
        assert_ids(&TrapKind::ALL, TrapKind::id);
        assert_ids(&VictimStatus::ALL, VictimStatus::id);
        assert_ids(&DurationUnit::ALL, DurationUnit::id);
        assert_ids(&InjuryKind::ALL, InjuryKind::id);
        assert_ids(&NoiseKind::ALL, NoiseKind::id);
        assert_ids(&TripCordOutcome::ALL, TripCordOutcome::id);
        assert_ids(&PayloadKind::ALL, PayloadKind::id);
        assert_ids(&SafetyLock::ALL, SafetyLock::id);
        assert_ids(&LifterAction::ALL, LifterAction::id);
        assert_ids(&PitBottom::ALL, PitBottom::id);
        assert_ids(&PitOutcome::ALL, PitOutcome::id);
        assert_ids(&LoopOutcome::ALL, LoopOutcome::id);
        assert_eq!(TripCordOutcome::FaintBrokenLeg.id(), "faint_broken_leg");
        assert_eq!(PitOutcome::RetardedFallMinusTwo.id(), "retarded_fall_minus_two");
        assert_eq!(Concealment::NormallyConcealed.code(), "NC");
    }

    // --- agility ----------------------------------------------------------------------------

    #[test]
    fn agility_defaults_per_armour() {
        let s = settings();
        let expect = [
            (Armour::Plate, -2),
            (Armour::Heavy, -1),
            (Armour::Medium, 0),
            (Armour::Light, 1),
            (Armour::Unclothed, 2),
            (Armour::Clothed, 1),
        ];
        for (armour, value) in expect {
            let a = agility(&wearing(armour), None, &s);
            assert_eq!(a.value, value, "{armour:?}");
            assert!(!a.from_card);
            assert_eq!(armour_agility(armour, &s), value);
        }
        let a = agility(&wearing(Armour::Clothed), None, &s);
        assert_eq!(a.factors[0].reason, "clothed (house rule)");
        // Medium armour is 0: no factor is logged.
        assert!(agility(&wearing(Armour::Medium), None, &s).factors.is_empty());
    }

    #[test]
    fn clothed_agility_is_a_setting() {
        let s = MorvalTrapSettings { clothed_agility: 0, ..settings() };
        assert_eq!(agility(&wearing(Armour::Clothed), None, &s).value, 0);
        let s = MorvalTrapSettings { clothed_agility: 2, ..settings() };
        assert_eq!(agility(&wearing(Armour::Clothed), None, &s).value, 2);
    }

    #[test]
    fn agility_other_factors_each_and_together() {
        let s = settings();
        let base = wearing(Armour::Medium);
        let cases = [
            (Traits { shield: true, ..base }, "carrying shield", -1),
            (Traits { sex: Sex::Female, ..base }, "female", -1),
            (Traits { adventurer: true, ..base }, "adventurer", 1),
            (Traits { load: true, ..base }, "carrying load", -1),
        ];
        for (traits, reason, value) in cases {
            let a = agility(&traits, None, &s);
            assert_eq!(a.value, value, "{reason}");
            assert_eq!(a.factors.len(), 1);
            assert_eq!(a.factors[0].reason, reason);
            assert_eq!(a.factors[0].value, value);
        }
        // Mounted changes nothing here.
        assert_eq!(agility(&Traits { mounted: true, ..base }, None, &s).value, 0);
        let all = Traits {
            armour: Armour::Plate,
            sex: Sex::Female,
            adventurer: true,
            shield: true,
            load: true,
            mounted: false,
        };
        let a = agility(&all, None, &s);
        assert_eq!(a.value, -2 - 1 - 1 + 1 - 1);
        assert_eq!(a.factors.len(), 5);
    }

    #[test]
    fn agility_card_value_overrides_defaults() {
        let s = settings();
        let a = agility(&wearing(Armour::Plate), Some(3), &s);
        assert_eq!(a.value, 3);
        assert!(a.from_card);
        assert_eq!(a.factors.len(), 1);
        assert_eq!(a.factors[0].reason, "A on character card");
        let a = agility(&wearing(Armour::Unclothed), Some(0), &s);
        assert_eq!(a.value, 0);
        assert!(a.from_card);
    }

    // --- shared factors ---------------------------------------------------------------------

    #[test]
    fn trap_speed_bands_both_sides() {
        let cases =
            [(0.0, 0), (6.9, 0), (7.0, 1), (10.9, 1), (11.0, 2), (14.9, 2), (15.0, 3), (19.9, 3), (20.0, 4), (40.0, 4)];
        for (speed, value) in cases {
            assert_eq!(trap_speed_factor(speed), value, "{speed}\"");
        }
    }

    #[test]
    fn spotting_speed_bands_are_not_cumulative() {
        let cases = [(0.0, 0), (6.9, 0), (7.0, -1), (9.9, -1), (10.0, -2), (24.0, -2)];
        for (speed, value) in cases {
            assert_eq!(spotting_speed_factor(speed), value, "{speed}\"");
        }
        let spotter = Spotter {
            traits: Traits::default(),
            gait: Gait::Normal,
            speed_inches: 12.0,
            order_in_area: 1,
            skill_bonus: 0,
            personal: 0,
        };
        let r = spot_trap(
            &spotter,
            Concealment::LooselyConcealed,
            Lighting::Daylight,
            &settings(),
            &mut ScriptedDice::faces([6]),
        );
        assert_eq!(reasons(&r.roll), vec![("moving 10\"+", -2)]);
        assert_eq!(r.roll.total, 4);
    }

    #[test]
    fn order_factors() {
        let s = settings();
        let cases = [(0, 0), (1, 0), (2, -1), (3, -2), (4, -3), (5, -3), (9, -3)];
        for (order, value) in cases {
            assert_eq!(order_factor(order, &s), value, "order {order}");
        }
        let s = MorvalTrapSettings { fifth_or_later_factor: -4, ..settings() };
        assert_eq!(order_factor(5, &s), -4);
        assert_eq!(order_factor(4, &s), -3);
    }

    #[test]
    fn burden_factors() {
        let loaded = |armour: Armour| Traits { armour, load: true, ..Traits::default() };
        assert_eq!(burden_factor(&wearing(Armour::Plate)), -2);
        assert_eq!(burden_factor(&wearing(Armour::Heavy)), -2);
        assert_eq!(burden_factor(&wearing(Armour::Medium)), -1);
        assert_eq!(burden_factor(&wearing(Armour::Light)), 0);
        assert_eq!(burden_factor(&wearing(Armour::Clothed)), 0);
        assert_eq!(burden_factor(&wearing(Armour::Unclothed)), 0);
        assert_eq!(burden_factor(&loaded(Armour::Light)), -1);
        assert_eq!(burden_factor(&loaded(Armour::Clothed)), -1);
        assert_eq!(burden_factor(&loaded(Armour::Unclothed)), -1);
        // Not cumulative with armour.
        assert_eq!(burden_factor(&loaded(Armour::Medium)), -1);
        assert_eq!(burden_factor(&loaded(Armour::Plate)), -2);
    }

    #[test]
    fn lighting_factors() {
        let s = settings();
        let cases = [
            (Lighting::Sun, 0),
            (Lighting::Daylight, 0),
            (Lighting::Overcast, 0),
            (Lighting::Gloom, -1),
            (Lighting::Dark, -3),
            (Lighting::PitchBlack, -3),
        ];
        for (lighting, value) in cases {
            assert_eq!(lighting_spot_factor(lighting, &s), value, "{lighting:?}");
        }
    }

    // --- concealment and spotting -----------------------------------------------------------

    #[test]
    fn concealment_caps() {
        assert_eq!(best_concealment(TrapKind::TripCord, true), Concealment::LooselyConcealed);
        assert_eq!(best_concealment(TrapKind::TripCord, false), Concealment::LooselyConcealed);
        assert_eq!(best_concealment(TrapKind::Loop, true), Concealment::NormallyConcealed);
        assert_eq!(best_concealment(TrapKind::SpecimenPit, true), Concealment::NormallyConcealed);
        assert_eq!(best_concealment(TrapKind::Treadle, true), Concealment::WellConcealed);
        assert_eq!(best_concealment(TrapKind::Treadle, false), Concealment::NormallyConcealed);
        assert_eq!(best_concealment(TrapKind::Leydonic, true), Concealment::WellConcealed);
    }

    fn plain_spotter() -> Spotter {
        Spotter {
            traits: Traits::default(),
            gait: Gait::Normal,
            speed_inches: 6.0,
            order_in_area: 1,
            skill_bonus: 0,
            personal: 0,
        }
    }

    #[test]
    fn spot_targets_both_sides() {
        let s = settings();
        let cases =
            [(Concealment::LooselyConcealed, 4), (Concealment::NormallyConcealed, 5), (Concealment::WellConcealed, 6)];
        for (concealment, target) in cases {
            assert_eq!(concealment.spot_target(&s), target);
            let miss = spot_trap(
                &plain_spotter(),
                concealment,
                Lighting::Daylight,
                &s,
                &mut ScriptedDice::faces([target as u32 - 1]),
            );
            assert!(!miss.spotted, "{concealment:?} on {}", target - 1);
            assert_eq!(miss.roll.target, Some(target));
            assert_eq!(miss.roll.passed(), Some(false));
            let hit = spot_trap(
                &plain_spotter(),
                concealment,
                Lighting::Daylight,
                &s,
                &mut ScriptedDice::faces([target as u32]),
            );
            assert!(hit.spotted, "{concealment:?} on {target}");
            assert_eq!(hit.roll.passed(), Some(true));
            assert!(!spotted(target - 1, concealment, &s));
            assert!(spotted(target, concealment, &s));
        }
    }

    #[test]
    fn spot_modifiers_each() {
        let s = settings();
        let spot = |spotter: Spotter, lighting: Lighting| {
            spot_trap(&spotter, Concealment::NormallyConcealed, lighting, &s, &mut ScriptedDice::faces([6]))
        };
        let with = |traits: Traits| Spotter { traits, ..plain_spotter() };
        let cases: [(Spotter, Lighting, &str, i32); 17] = [
            (with(wearing(Armour::Plate)), Lighting::Daylight, "plate armour", -2),
            (with(wearing(Armour::Heavy)), Lighting::Daylight, "heavy armour", -2),
            (with(wearing(Armour::Medium)), Lighting::Daylight, "medium armour", -1),
            (
                with(Traits { armour: Armour::Light, load: true, ..Traits::default() }),
                Lighting::Daylight,
                "encumbered",
                -1,
            ),
            (with(Traits { mounted: true, ..Traits::default() }), Lighting::Daylight, "mounted", -1),
            (Spotter { gait: Gait::Cautious, ..plain_spotter() }, Lighting::Daylight, "walking cautiously", 1),
            (Spotter { gait: Gait::Searching, ..plain_spotter() }, Lighting::Daylight, "searching", 2),
            (Spotter { speed_inches: 7.0, ..plain_spotter() }, Lighting::Daylight, "moving 7\"+", -1),
            (Spotter { speed_inches: 10.0, ..plain_spotter() }, Lighting::Daylight, "moving 10\"+", -2),
            (Spotter { order_in_area: 2, ..plain_spotter() }, Lighting::Daylight, "second in area", -1),
            (Spotter { order_in_area: 3, ..plain_spotter() }, Lighting::Daylight, "third in area", -2),
            (Spotter { order_in_area: 4, ..plain_spotter() }, Lighting::Daylight, "fourth in area", -3),
            (
                Spotter { order_in_area: 5, ..plain_spotter() },
                Lighting::Daylight,
                "fifth or later in area (house rule)",
                -3,
            ),
            (plain_spotter(), Lighting::Gloom, "gloom D/L (house rule)", -1),
            (plain_spotter(), Lighting::Dark, "darkness DDL (house rule)", -3),
            (plain_spotter(), Lighting::PitchBlack, "pitch black DDD (house rule)", -3),
            (Spotter { skill_bonus: 2, ..plain_spotter() }, Lighting::Daylight, "tracker, engineer or thief", 2),
        ];
        for (spotter, lighting, reason, value) in cases {
            let r = spot(spotter, lighting);
            assert_eq!(reasons(&r.roll), vec![(reason, value)], "{reason}");
            assert_eq!(r.roll.total, 6 + value, "{reason}");
            assert_eq!(r.spotted, 6 + value >= 5, "{reason}");
        }
        // Nothing at all for a plain figure in daylight, SUN or DLL, and no speed band at 6.9".
        for lighting in [Lighting::Sun, Lighting::Daylight, Lighting::Overcast] {
            assert!(spot(plain_spotter(), lighting).roll.modifiers.is_empty());
        }
        assert!(spot(Spotter { speed_inches: 6.9, ..plain_spotter() }, Lighting::Daylight).roll.modifiers.is_empty());
        // Furtive and running gaits have no factor of their own.
        assert!(spot(Spotter { gait: Gait::Furtive, ..plain_spotter() }, Lighting::Daylight).roll.modifiers.is_empty());
    }

    #[test]
    fn personal_spot_factor() {
        // 000 "Spotting Traps": "D6 + F (F = Factors) / F are Personal Bonuses and handicaps".
        // NC 5+, D6, daylight, clothed, 6": spotted on 5–6, 2/6; with +2 on 3–6, 4/6; with −1
        // on 6 only, 1/6.
        let s = settings();
        for (personal, faces_spotted) in [(0, 2u32), (2, 4), (-1, 1)] {
            let spotter = Spotter { personal, ..plain_spotter() };
            let found = (1..=6u32)
                .filter(|&face| {
                    let r = spot_trap(
                        &spotter,
                        Concealment::NormallyConcealed,
                        Lighting::Daylight,
                        &s,
                        &mut ScriptedDice::faces([face]),
                    );
                    r.spotted
                })
                .count() as u32;
            assert_eq!(found, faces_spotted, "personal {personal}");
        }
        let r = spot_trap(
            &Spotter { personal: 2, ..plain_spotter() },
            Concealment::NormallyConcealed,
            Lighting::Daylight,
            &s,
            &mut ScriptedDice::faces([3]),
        );
        assert!(r.roll.modifiers.iter().any(|m| m.reason == PERSONAL_FACTOR && m.value == 2), "{:?}", r.roll);
        // The silent alarm takes it too: D6 5 + 1 = 6, realised.
        let alarm = silent_alarm_check(&Traits::default(), Gait::Normal, 6.0, &mut ScriptedDice::faces([5]));
        assert!(!alarm.victim_realises);
        assert!(alarm.with_personal_factor(1).victim_realises);
    }

    #[test]
    fn spot_modifiers_together() {
        let spotter = Spotter {
            traits: Traits { armour: Armour::Plate, mounted: true, ..Traits::default() },
            gait: Gait::Searching,
            speed_inches: 8.0,
            order_in_area: 2,
            skill_bonus: 1,
            personal: 0,
        };
        let r = spot_trap(
            &spotter,
            Concealment::LooselyConcealed,
            Lighting::Gloom,
            &settings(),
            &mut ScriptedDice::faces([6]),
        );
        assert_eq!(factor(&r.roll, "plate armour"), Some(-2));
        assert_eq!(factor(&r.roll, "searching"), Some(2));
        assert_eq!(factor(&r.roll, "mounted"), Some(-1));
        assert_eq!(factor(&r.roll, "moving 7\"+"), Some(-1));
        assert_eq!(factor(&r.roll, "second in area"), Some(-1));
        assert_eq!(factor(&r.roll, "gloom D/L (house rule)"), Some(-1));
        assert_eq!(factor(&r.roll, "tracker, engineer or thief"), Some(1));
        assert_eq!(r.roll.total, 6 - 2 + 2 - 1 - 1 - 1 - 1 + 1);
        assert!(!r.spotted);
    }

    #[test]
    fn spot_uses_mystic_dice_when_set() {
        let s = MorvalTrapSettings { spot_dice: SpotDice::Mystic, ..settings() };
        let r = spot_trap(
            &plain_spotter(),
            Concealment::WellConcealed,
            Lighting::Daylight,
            &s,
            &mut ScriptedDice::faces([6]),
        );
        assert_eq!(r.roll.dice, Dice::Mystic);
        assert!(r.roll.secret);
        assert!(r.spotted);
        let r = spot_trap(
            &plain_spotter(),
            Concealment::WellConcealed,
            Lighting::Daylight,
            &settings(),
            &mut ScriptedDice::faces([6]),
        );
        assert_eq!(r.roll.dice, Dice::D6);
        assert!(!r.roll.secret);
    }

    // --- injuries ---------------------------------------------------------------------------

    #[test]
    fn injury_table() {
        let cases = [
            (InjuryKind::StrainedAnkle, 4, 2, DurationUnit::Moves, 80),
            (InjuryKind::SprainedAnkle, 4, 3, DurationUnit::Days, 4),
            (InjuryKind::BrokenAnkle, 4, 4, DurationUnit::Days, 8),
            (InjuryKind::BrokenLeg, 4, 5, DurationUnit::Days, 15),
            (InjuryKind::StrainedFoot, 4, 1, DurationUnit::Moves, 20),
            (InjuryKind::SprainedFoot, 4, 2, DurationUnit::Moves, 80),
        ];
        for (kind, face, penalty, unit, duration) in cases {
            let mut src = ScriptedDice::faces([face]);
            let injury = roll_injury(kind, &mut src);
            assert!(src.is_empty());
            assert_eq!(injury.kind, kind);
            assert_eq!(injury.move_penalty_inches, penalty, "{kind:?}");
            assert_eq!(injury.unit, unit, "{kind:?}");
            assert_eq!(injury.duration, duration, "{kind:?}");
            assert_eq!(injury.duration_roll.dice, Dice::D6);
            assert_eq!(injury.treated_move_penalty_inches(), penalty - 1);
        }
        assert_eq!(roll_injury(InjuryKind::BrokenLeg, &mut ScriptedDice::faces([1])).duration, 12);
        assert_eq!(roll_injury(InjuryKind::BrokenAnkle, &mut ScriptedDice::faces([6])).duration, 10);
        assert_eq!(roll_injury(InjuryKind::StrainedFoot, &mut ScriptedDice::faces([6])).duration, 30);
        assert!(InjuryKind::SprainedFoot.starts_on_release());
        assert!(!InjuryKind::StrainedFoot.starts_on_release());
    }

    // --- trip cords -------------------------------------------------------------------------

    fn trip_victim(agility: i32, speed_inches: f32, victim_order: u32) -> TripCordVictim {
        TripCordVictim { agility, speed_inches, victim_order, carries_rider: false }
    }

    #[test]
    fn trip_cord_band_both_sides() {
        let cases = [
            (-20, TripCordOutcome::BreakCord),
            (2, TripCordOutcome::BreakCord),
            (3, TripCordOutcome::BreakCordCursing),
            (4, TripCordOutcome::BreakCordCursing),
            (5, TripCordOutcome::FallStrainedAnkle),
            (6, TripCordOutcome::FallStrainedAnkle),
            (7, TripCordOutcome::FallSprainedAnkle),
            (8, TripCordOutcome::FallSprainedAnkle),
            (9, TripCordOutcome::FaintBrokenAnkle),
            (10, TripCordOutcome::FaintBrokenAnkle),
            (11, TripCordOutcome::FaintBrokenLeg),
            (30, TripCordOutcome::FaintBrokenLeg),
        ];
        for (total, outcome) in cases {
            assert_eq!(trip_cord_band(total), outcome, "total {total}");
        }
    }

    #[test]
    fn trip_cord_break_cord_rows() {
        let s = settings();
        let mut src = ScriptedDice::faces([2]);
        let r = resolve_trip_cord(&trip_victim(0, 6.0, 1), &s, &mut src);
        assert!(src.is_empty());
        assert_eq!(r.outcome, TripCordOutcome::BreakCord);
        assert_eq!(r.move_lost_inches, Some(1));
        assert_eq!((r.status, r.injury, r.noise, r.rider_fall_strike), (None, None, None, None));

        let mut src = ScriptedDice::faces([3]);
        let r = resolve_trip_cord(&trip_victim(0, 6.0, 1), &s, &mut src);
        assert!(src.is_empty());
        assert_eq!(r.outcome, TripCordOutcome::BreakCordCursing);
        assert_eq!(r.move_lost_inches, Some(3));
        assert_eq!(r.noise, Some(Noise { kind: NoiseKind::Cursing, heard_to_inches: Some(8), house_rule: true }));
        assert_eq!((r.status, r.injury), (None, None));

        let s = MorvalTrapSettings { trip_cord_cursing_heard_to_inches: 12, ..settings() };
        let r = resolve_trip_cord(&trip_victim(0, 6.0, 1), &s, &mut ScriptedDice::faces([4]));
        assert_eq!(r.noise.and_then(|n| n.heard_to_inches), Some(12));
    }

    #[test]
    fn trip_cord_fall_rows() {
        let s = settings();
        // (D10 face, speed, D6 face, outcome, status, injury, penalty, unit, duration)
        let cases = [
            (
                5,
                6.0,
                4,
                TripCordOutcome::FallStrainedAnkle,
                VictimStatus::Demoralised,
                InjuryKind::StrainedAnkle,
                2,
                DurationUnit::Moves,
                80,
            ),
            (
                7,
                6.0,
                3,
                TripCordOutcome::FallSprainedAnkle,
                VictimStatus::Dazed,
                InjuryKind::SprainedAnkle,
                3,
                DurationUnit::Days,
                3,
            ),
            (
                9,
                6.0,
                2,
                TripCordOutcome::FaintBrokenAnkle,
                VictimStatus::Fainted,
                InjuryKind::BrokenAnkle,
                4,
                DurationUnit::Days,
                6,
            ),
            (
                9,
                11.0,
                1,
                TripCordOutcome::FaintBrokenLeg,
                VictimStatus::Fainted,
                InjuryKind::BrokenLeg,
                5,
                DurationUnit::Days,
                12,
            ),
        ];
        for (face, speed, d6, outcome, status, kind, penalty, unit, duration) in cases {
            let mut src = ScriptedDice::faces([face, d6]);
            let r = resolve_trip_cord(&trip_victim(0, speed, 1), &s, &mut src);
            assert!(src.is_empty());
            assert_eq!(r.outcome, outcome);
            assert_eq!(r.status, Some(status));
            assert_eq!(r.move_lost_inches, None);
            assert_eq!(r.noise, None);
            assert_eq!(r.rider_fall_strike, None);
            let injury = r.injury.expect("a fall injures");
            assert_eq!(injury.kind, kind);
            assert_eq!(injury.move_penalty_inches, penalty);
            assert_eq!(injury.unit, unit);
            assert_eq!(injury.duration, duration);
        }
    }

    #[test]
    fn trip_cord_modifiers() {
        let s = settings();
        let r = resolve_trip_cord(&trip_victim(1, 11.0, 3), &s, &mut ScriptedDice::faces([5]));
        assert_eq!(reasons(&r.roll), vec![("victim agility", -1), ("moving 11\"+", 2), ("3rd victim", -2)]);
        assert_eq!(r.roll.total, 4);
        assert_eq!(r.outcome, TripCordOutcome::BreakCordCursing);

        let r = resolve_trip_cord(&trip_victim(-2, 0.0, 1), &s, &mut ScriptedDice::faces([0]));
        assert_eq!(reasons(&r.roll), vec![("victim agility", 2)]);
        assert_eq!(r.outcome, TripCordOutcome::BreakCord);

        let order_cases = [(2, "2nd victim", -1), (4, "4th victim", -3), (5, "5th or later victim (house rule)", -3)];
        for (order, reason, value) in order_cases {
            let r = resolve_trip_cord(&trip_victim(0, 0.0, order), &s, &mut ScriptedDice::faces([4]));
            assert_eq!(reasons(&r.roll), vec![(reason, value)]);
        }
        let speed_cases = [(7.0, "moving 7\"+", 1), (15.0, "moving 15\"+", 3), (20.0, "moving 20\"+", 4)];
        for (speed, reason, value) in speed_cases {
            let r = resolve_trip_cord(&trip_victim(0, speed, 1), &s, &mut ScriptedDice::faces([0]));
            assert_eq!(reasons(&r.roll), vec![(reason, value)]);
        }
    }

    #[test]
    fn trip_cord_rider_falls_off_when_steed_falls() {
        let s = settings();
        let steed = TripCordVictim { agility: 0, speed_inches: 6.0, victim_order: 1, carries_rider: true };
        let mut src = ScriptedDice::faces([5, 1, 6]);
        let r = resolve_trip_cord(&steed, &s, &mut src);
        assert!(src.is_empty());
        assert_eq!(r.outcome, TripCordOutcome::FallStrainedAnkle);
        assert_eq!(r.injury.as_ref().map(|i| i.duration), Some(20));
        let strike = r.rider_fall_strike.expect("rider thrown");
        assert_eq!(strike.dice, Dice::D10);
        assert_eq!(reasons(&strike), vec![("rider falls off", -3)]);
        assert_eq!(strike.total, 3);
        // The steed breaks the cord and stays up: the rider stays on.
        let mut src = ScriptedDice::faces([4]);
        let r = resolve_trip_cord(&steed, &s, &mut src);
        assert!(src.is_empty());
        assert_eq!(r.rider_fall_strike, None);
    }

    #[test]
    fn trip_cord_frequencies_match_the_text() {
        let s = settings();
        // (agility, speed, what those add to the D10)
        for (agility, speed, shift) in [(0, 0.0, 0), (-2, 12.0, 4), (1, 0.0, -1)] {
            // From the text: 2- | 3+ | 5+ | 7+ | 9+ | 11+.
            let thresholds = [3, 5, 7, 9, 11];
            let mut ways = [0u32; 6];
            for face in 0..=9 {
                let total = face + shift;
                ways[thresholds.iter().filter(|&&t| total >= t).count()] += 1;
            }
            let mut src = SeededDice::new(0x7219 + (shift + 10) as u64);
            let mut observed = [0u32; 6];
            for _ in 0..TRIALS {
                let r = resolve_trip_cord(&trip_victim(agility, speed, 1), &s, &mut src);
                let i = match r.outcome {
                    TripCordOutcome::BreakCord => 0,
                    TripCordOutcome::BreakCordCursing => 1,
                    TripCordOutcome::FallStrainedAnkle => 2,
                    TripCordOutcome::FallSprainedAnkle => 3,
                    TripCordOutcome::FaintBrokenAnkle => 4,
                    TripCordOutcome::FaintBrokenLeg => 5,
                };
                observed[i] += 1;
            }
            assert_distribution(&format!("trip cord shift {shift}"), &observed, &ways, 10);
        }
    }

    // --- treadles, lifters, payloads, silent alarm ------------------------------------------

    #[test]
    fn silent_alarm_boundary() {
        assert!(!silent_alarm_noticed(5));
        assert!(silent_alarm_noticed(6));
        let plain = Traits::default();
        let r = silent_alarm_check(&plain, Gait::Normal, 6.0, &mut ScriptedDice::faces([5]));
        assert!(!r.victim_realises);
        assert_eq!(r.roll.passed(), Some(false));
        let r = silent_alarm_check(&plain, Gait::Normal, 6.0, &mut ScriptedDice::faces([6]));
        assert!(r.victim_realises);
        assert_eq!(r.roll.target, Some(6));
        assert_eq!(r.roll.dice, Dice::D6);
        let r = silent_alarm_check(&plain, Gait::Cautious, 6.0, &mut ScriptedDice::faces([5]));
        assert!(r.victim_realises);
        let r = silent_alarm_check(&wearing(Armour::Medium), Gait::Normal, 6.0, &mut ScriptedDice::faces([6]));
        assert!(!r.victim_realises);
    }

    #[test]
    fn silent_alarm_modifiers() {
        let loaded = |armour: Armour| Traits { armour, load: true, ..Traits::default() };
        let cases: [(Traits, Gait, f32, &str, i32); 10] = [
            (wearing(Armour::Plate), Gait::Normal, 0.0, "plate armour", -2),
            (wearing(Armour::Heavy), Gait::Normal, 0.0, "heavy armour", -2),
            (wearing(Armour::Medium), Gait::Normal, 0.0, "medium armour", -1),
            (loaded(Armour::Light), Gait::Normal, 0.0, "encumbered", -1),
            (loaded(Armour::Clothed), Gait::Normal, 0.0, "encumbered", -1),
            (Traits::default(), Gait::Cautious, 0.0, "walking cautiously", 1),
            (Traits::default(), Gait::Searching, 0.0, "searching", 2),
            (Traits { mounted: true, ..Traits::default() }, Gait::Normal, 0.0, "mounted", -1),
            (Traits::default(), Gait::Normal, 7.0, "moving 7\"+", -1),
            (Traits::default(), Gait::Normal, 10.0, "moving 10\"+", -2),
        ];
        for (traits, gait, speed, reason, value) in cases {
            let r = silent_alarm_check(&traits, gait, speed, &mut ScriptedDice::faces([3]));
            assert_eq!(reasons(&r.roll), vec![(reason, value)], "{reason}");
            assert_eq!(r.roll.total, 3 + value);
        }
        let r = silent_alarm_check(&wearing(Armour::Light), Gait::Normal, 6.9, &mut ScriptedDice::faces([3]));
        assert!(r.roll.modifiers.is_empty());
    }

    #[test]
    fn silent_alarm_frequencies_match_the_text() {
        // (traits, gait, speed, F as the text gives it)
        let cases = [
            (wearing(Armour::Medium), Gait::Cautious, 0.0, -1 + 1),
            (wearing(Armour::Light), Gait::Searching, 0.0, 2),
            (Traits { armour: Armour::Plate, mounted: true, ..Traits::default() }, Gait::Normal, 10.0, -2 - 1 - 2),
        ];
        for (n, (traits, gait, speed, f)) in cases.into_iter().enumerate() {
            // From the text: D6 + F, 6+ realises.
            let mut ways = [0u32; 2];
            for face in 1..=6 {
                ways[usize::from(face + f >= 6)] += 1;
            }
            let mut src = SeededDice::new(0x51A + n as u64);
            let mut observed = [0u32; 2];
            for _ in 0..TRIALS {
                let r = silent_alarm_check(&traits, gait, speed, &mut src);
                observed[usize::from(r.victim_realises)] += 1;
            }
            assert_distribution(&format!("silent alarm F {f}"), &observed, &ways, 6);
        }
    }

    fn payload(kind: PayloadKind, strike: i32) -> Payload {
        Payload { kind, strike, heard_to_inches: None }
    }

    #[test]
    fn treadle_triggers_by_lock_and_weight() {
        let mut trap =
            TreadleTrap { payload: payload(PayloadKind::Boulder, 2), safety: SafetyLock::NoDevice, weight_above: None };
        assert!(treadle_triggers(&trap, 1.0, true));
        assert!(treadle_triggers(&trap, 1.0, false));
        trap.safety = SafetyLock::Armed;
        assert!(!treadle_triggers(&trap, 1.0, true));
        assert!(treadle_triggers(&trap, 1.0, false));
        trap.safety = SafetyLock::Locked;
        assert!(!treadle_triggers(&trap, 1.0, true));
        assert!(!treadle_triggers(&trap, 1.0, false));
        trap.safety = SafetyLock::NoDevice;
        trap.weight_above = Some(50.0);
        assert!(!treadle_triggers(&trap, 50.0, false));
        assert!(treadle_triggers(&trap, 50.5, false));
        let parsed: TreadleTrap = serde_json::from_str(r#"{"payload":{"kind":"gas","strike":1}}"#).unwrap();
        assert_eq!(parsed.safety, SafetyLock::NoDevice);
        assert_eq!(parsed.weight_above, None);
        assert_eq!(parsed.payload, payload(PayloadKind::Gas, 1));
    }

    #[test]
    fn lifter_triggers_on_its_own_action() {
        let trap = LifterTrap { action: LifterAction::LiftObject, payload: payload(PayloadKind::Acid, 1) };
        assert!(lifter_triggers(&trap, LifterAction::LiftObject));
        assert!(!lifter_triggers(&trap, LifterAction::OpenDoor));
        let trap = LifterTrap { action: LifterAction::OpenTrapdoor, ..trap };
        assert!(lifter_triggers(&trap, LifterAction::OpenTrapdoor));
        assert!(!lifter_triggers(&trap, LifterAction::LiftObject));
    }

    #[test]
    fn payloads() {
        let plain = Traits::default();
        // Silent alarm: the victim's D6 + F, no strike.
        let mut src = ScriptedDice::faces([4]);
        let r = spring_payload(
            &payload(PayloadKind::SilentAlarm, 5),
            &wearing(Armour::Light),
            Gait::Searching,
            0.0,
            &mut src,
        );
        assert!(src.is_empty());
        let alarm = r.silent_alarm.expect("silent alarm rolled");
        assert!(alarm.victim_realises);
        assert_eq!(alarm.roll.total, 6);
        assert_eq!((r.noise, r.strike, r.starts_fire), (None, None, false));
        // Sounding alarm: a noise, no dice.
        let mut src = ScriptedDice::faces(Vec::<u32>::new());
        let sounding = Payload { kind: PayloadKind::SoundingAlarm, strike: 0, heard_to_inches: Some(24) };
        let r = spring_payload(&sounding, &plain, Gait::Normal, 6.0, &mut src);
        assert_eq!(r.noise, Some(Noise { kind: NoiseKind::Alarm, heard_to_inches: Some(24), house_rule: false }));
        assert_eq!((r.silent_alarm, r.strike, r.starts_fire), (None, None, false));
        // Striking payloads: D10 + the trap's strike factor; flame also starts a fire.
        for kind in
            [PayloadKind::HailOfMissiles, PayloadKind::Boulder, PayloadKind::Gas, PayloadKind::Acid, PayloadKind::Flame]
        {
            let mut src = ScriptedDice::faces([5]);
            let r = spring_payload(&payload(kind, 2), &plain, Gait::Normal, 6.0, &mut src);
            assert!(src.is_empty());
            let strike = r.strike.expect("payload strikes");
            assert_eq!(strike.dice, Dice::D10);
            assert_eq!(strike.total, 7, "{kind:?}");
            assert_eq!(reasons(&strike), vec![("trap strike factor", 2)]);
            assert_eq!(r.starts_fire, kind == PayloadKind::Flame);
            assert_eq!((r.noise, r.silent_alarm), (None, None));
        }
    }

    // --- falling traps and pits -------------------------------------------------------------

    #[test]
    fn floor_gives_way_under_weight() {
        assert!(!floor_gives_way(&[], None));
        assert!(floor_gives_way(&[10.0], None));
        assert!(!floor_gives_way(&[40.0, 50.0], Some(100.0)));
        assert!(floor_gives_way(&[40.0, 60.0], Some(100.0)));
        assert!(floor_gives_way(&[40.0, 61.0], Some(100.0)));
        assert!(!floor_gives_way(&[], Some(100.0)));
    }

    #[test]
    fn pit_strike_factors() {
        assert_eq!(Pit::specimen(PitBottom::Earth).strike_factor(), -4);
        assert_eq!(Pit::specimen(PitBottom::Rocky).strike_factor(), -3);
        assert_eq!(Pit::specimen(PitBottom::Spiked).strike_factor(), -2);
        assert_eq!(Pit { bottom: PitBottom::Earth, depth_inches: 2 }.strike_factor(), -3);
        assert_eq!(Pit { bottom: PitBottom::Earth, depth_inches: 3 }.strike_factor(), -2);
        assert_eq!(Pit { bottom: PitBottom::Spiked, depth_inches: 5 }.strike_factor(), 2);
        assert_eq!(Pit { bottom: PitBottom::Rocky, depth_inches: 0 }.strike_factor(), -3);
        assert_eq!(Pit::specimen(PitBottom::Earth).depth_inches, 1);
    }

    #[test]
    fn pit_band_both_sides() {
        let cases = [
            (-10, PitOutcome::FallUnimpeded),
            (2, PitOutcome::FallUnimpeded),
            (3, PitOutcome::RetardedFallMinusOne),
            (4, PitOutcome::RetardedFallMinusTwo),
            (5, PitOutcome::HangingOnNearEdge),
            (6, PitOutcome::HangingOnFarEdge),
            (7, PitOutcome::JumpBack),
            (8, PitOutcome::JumpBack),
            (9, PitOutcome::JumpOver),
            (20, PitOutcome::JumpOver),
        ];
        for (total, outcome) in cases {
            assert_eq!(pit_band(total), outcome, "total {total}");
        }
    }

    #[test]
    fn pit_rows_without_a_fall() {
        let pit = Pit::specimen(PitBottom::Earth);
        let cases = [
            (9, PitOutcome::JumpOver),
            (8, PitOutcome::JumpBack),
            (7, PitOutcome::JumpBack),
            (6, PitOutcome::HangingOnFarEdge),
            (5, PitOutcome::HangingOnNearEdge),
        ];
        for (face, outcome) in cases {
            let mut src = ScriptedDice::faces([face]);
            let r = resolve_pit(0, 6.0, pit, &mut src);
            assert!(src.is_empty());
            assert_eq!(r.outcome, outcome);
            assert_eq!(r.fall_strike, None);
            assert!(!outcome.falls());
        }
        assert!(PitOutcome::HangingOnFarEdge.hanging());
        assert!(PitOutcome::HangingOnNearEdge.hanging());
        assert!(!PitOutcome::JumpBack.hanging());
    }

    #[test]
    fn pit_falls_strike() {
        // (D10, pit, strike D10, outcome, strike total, modifiers)
        let earth = Pit::specimen(PitBottom::Earth);
        let rocky = Pit::specimen(PitBottom::Rocky);
        let spiked_deep = Pit { bottom: PitBottom::Spiked, depth_inches: 3 };
        let mut src = ScriptedDice::faces([4, 7]);
        let r = resolve_pit(0, 6.0, earth, &mut src);
        assert!(src.is_empty());
        assert_eq!(r.outcome, PitOutcome::RetardedFallMinusTwo);
        let strike = r.fall_strike.expect("falls");
        assert_eq!(reasons(&strike), vec![("earth bottom", -4), ("retarded fall", -2)]);
        assert_eq!(strike.total, 1);

        let r = resolve_pit(0, 6.0, rocky, &mut ScriptedDice::faces([3, 7]));
        assert_eq!(r.outcome, PitOutcome::RetardedFallMinusOne);
        let strike = r.fall_strike.expect("falls");
        assert_eq!(reasons(&strike), vec![("rocky bottom", -3), ("retarded fall", -1)]);
        assert_eq!(strike.total, 3);

        let r = resolve_pit(0, 6.0, spiked_deep, &mut ScriptedDice::faces([2, 9]));
        assert_eq!(r.outcome, PitOutcome::FallUnimpeded);
        let strike = r.fall_strike.expect("falls");
        assert_eq!(reasons(&strike), vec![("spiked bottom", -2), ("extra depth", 2)]);
        assert_eq!(strike.total, 9);
    }

    #[test]
    fn pit_modifiers() {
        let pit = Pit::specimen(PitBottom::Earth);
        let r = resolve_pit(0, 7.0, pit, &mut ScriptedDice::faces([8]));
        assert_eq!(reasons(&r.roll), vec![("moving 7\"+", 1)]);
        assert_eq!(r.outcome, PitOutcome::JumpOver);
        let r = resolve_pit(1, 6.0, pit, &mut ScriptedDice::faces([9]));
        assert_eq!(reasons(&r.roll), vec![("victim agility", -1)]);
        assert_eq!(r.outcome, PitOutcome::JumpBack);
        let r = resolve_pit(-2, 20.0, pit, &mut ScriptedDice::faces([0]));
        assert_eq!(reasons(&r.roll), vec![("victim agility", 2), ("moving 20\"+", 4)]);
        assert_eq!(r.outcome, PitOutcome::HangingOnFarEdge);
    }

    #[test]
    fn pit_frequencies_match_the_text() {
        let pit = Pit::specimen(PitBottom::Rocky);
        for (agility, speed, shift) in [(0, 0.0, 0), (2, 0.0, -2), (0, 11.0, 2)] {
            // From the text: 2- fall | 3 | 4 | 5 | 6 | 7+ jump back | 9+ jump over.
            let thresholds = [3, 4, 5, 6, 7, 9];
            let mut ways = [0u32; 7];
            for face in 0..=9 {
                let total = face + shift;
                ways[thresholds.iter().filter(|&&t| total >= t).count()] += 1;
            }
            let mut src = SeededDice::new(0x917 + (shift + 10) as u64);
            let mut observed = [0u32; 7];
            for _ in 0..TRIALS {
                let r = resolve_pit(agility, speed, pit, &mut src);
                let i = match r.outcome {
                    PitOutcome::FallUnimpeded => 0,
                    PitOutcome::RetardedFallMinusOne => 1,
                    PitOutcome::RetardedFallMinusTwo => 2,
                    PitOutcome::HangingOnNearEdge => 3,
                    PitOutcome::HangingOnFarEdge => 4,
                    PitOutcome::JumpBack => 5,
                    PitOutcome::JumpOver => 6,
                };
                observed[i] += 1;
            }
            assert_distribution(&format!("pit shift {shift}"), &observed, &ways, 10);
        }
    }

    // --- loops ------------------------------------------------------------------------------

    #[test]
    fn loop_band_both_sides() {
        let cases = [
            (-5, LoopOutcome::CaughtScreaming),
            (1, LoopOutcome::CaughtScreaming),
            (2, LoopOutcome::CaughtCursing),
            (3, LoopOutcome::CaughtCursing),
            (4, LoopOutcome::CaughtKeepsItems),
            (5, LoopOutcome::CaughtKeepsItems),
            (6, LoopOutcome::MissedNotSprung),
            (7, LoopOutcome::MissedNotSprung),
            (8, LoopOutcome::SprungNotCaught),
            (15, LoopOutcome::SprungNotCaught),
        ];
        for (total, outcome) in cases {
            assert_eq!(loop_band(total), outcome, "total {total}");
        }
    }

    #[test]
    fn loop_rows() {
        let mut src = ScriptedDice::faces([8]);
        let r = resolve_loop(0, 6.0, &mut src);
        assert!(src.is_empty());
        assert_eq!(r.outcome, LoopOutcome::SprungNotCaught);
        assert!(r.outcome.sprung() && !r.outcome.caught() && !r.outcome.drops_items());
        assert_eq!((r.noise, r.injury), (None, None));

        let r = resolve_loop(0, 6.0, &mut ScriptedDice::faces([6]));
        assert_eq!(r.outcome, LoopOutcome::MissedNotSprung);
        assert!(!r.outcome.sprung() && !r.outcome.caught());
        assert_eq!((r.noise, r.injury), (None, None));

        let r = resolve_loop(0, 6.0, &mut ScriptedDice::faces([4]));
        assert_eq!(r.outcome, LoopOutcome::CaughtKeepsItems);
        assert!(r.outcome.sprung() && r.outcome.caught() && !r.outcome.drops_items());
        assert_eq!((r.noise, r.injury), (None, None));

        let mut src = ScriptedDice::faces([2, 3]);
        let r = resolve_loop(0, 6.0, &mut src);
        assert!(src.is_empty());
        assert_eq!(r.outcome, LoopOutcome::CaughtCursing);
        assert!(r.outcome.caught() && r.outcome.drops_items());
        assert_eq!(r.noise, Some(Noise { kind: NoiseKind::Cursing, heard_to_inches: Some(8), house_rule: false }));
        let injury = r.injury.expect("strained foot");
        assert_eq!(
            (injury.kind, injury.move_penalty_inches, injury.unit, injury.duration),
            (InjuryKind::StrainedFoot, 1, DurationUnit::Moves, 15)
        );

        let mut src = ScriptedDice::faces([1, 6]);
        let r = resolve_loop(0, 6.0, &mut src);
        assert!(src.is_empty());
        assert_eq!(r.outcome, LoopOutcome::CaughtScreaming);
        assert!(r.outcome.caught() && r.outcome.drops_items());
        assert_eq!(r.noise, Some(Noise { kind: NoiseKind::Screaming, heard_to_inches: Some(18), house_rule: false }));
        let injury = r.injury.expect("sprained foot");
        assert_eq!(
            (injury.kind, injury.move_penalty_inches, injury.unit, injury.duration),
            (InjuryKind::SprainedFoot, 2, DurationUnit::Moves, 120)
        );
        assert!(injury.kind.starts_on_release());
    }

    #[test]
    fn loop_modifiers() {
        let r = resolve_loop(0, 20.0, &mut ScriptedDice::faces([5]));
        assert_eq!(reasons(&r.roll), vec![("moving 20\"+", 4)]);
        assert_eq!(r.outcome, LoopOutcome::SprungNotCaught);
        let r = resolve_loop(2, 6.0, &mut ScriptedDice::faces([3, 1]));
        assert_eq!(reasons(&r.roll), vec![("victim agility", -2)]);
        assert_eq!(r.outcome, LoopOutcome::CaughtScreaming);
        let r = resolve_loop(-1, 11.0, &mut ScriptedDice::faces([4]));
        assert_eq!(reasons(&r.roll), vec![("victim agility", 1), ("moving 11\"+", 2)]);
        assert_eq!(r.outcome, LoopOutcome::MissedNotSprung);
    }

    #[test]
    fn loop_frequencies_match_the_text() {
        for (agility, speed, shift) in [(0, 0.0, 0), (1, 15.0, 2), (2, 0.0, -2)] {
            // From the text: 1- screaming | 2+ cursing | 4+ keeps items | 6+ missed | 8+ sprung.
            let thresholds = [2, 4, 6, 8];
            let mut ways = [0u32; 5];
            for face in 0..=9 {
                let total = face + shift;
                ways[thresholds.iter().filter(|&&t| total >= t).count()] += 1;
            }
            let mut src = SeededDice::new(0x100B + (shift + 10) as u64);
            let mut observed = [0u32; 5];
            for _ in 0..TRIALS {
                let r = resolve_loop(agility, speed, &mut src);
                let i = match r.outcome {
                    LoopOutcome::CaughtScreaming => 0,
                    LoopOutcome::CaughtCursing => 1,
                    LoopOutcome::CaughtKeepsItems => 2,
                    LoopOutcome::MissedNotSprung => 3,
                    LoopOutcome::SprungNotCaught => 4,
                };
                observed[i] += 1;
            }
            assert_distribution(&format!("loop shift {shift}"), &observed, &ways, 10);
        }
    }

    // --- leydonic ---------------------------------------------------------------------------

    #[test]
    fn leydonic_recharge() {
        let trap = LeydonicTrap { strike: 3, recharge_moves: 10 };
        assert!(leydonic_charged(&trap, None));
        assert!(!leydonic_charged(&trap, Some(0)));
        assert!(!leydonic_charged(&trap, Some(9)));
        assert!(leydonic_charged(&trap, Some(10)));
        assert!(leydonic_charged(&trap, Some(11)));
    }

    #[test]
    fn leydonic_strikes_harder_through_metal() {
        let s = settings();
        let trap = LeydonicTrap { strike: 3, recharge_moves: 10 };
        for armour in Armour::ALL {
            let mut src = ScriptedDice::faces([4]);
            let r = discharge_leydonic(&trap, armour, &s, &mut src);
            assert!(src.is_empty());
            assert_eq!(r.recharged_after_moves, 10);
            assert_eq!(r.strike.dice, Dice::D10);
            let metal = matches!(armour, Armour::Medium | Armour::Heavy | Armour::Plate);
            if metal {
                assert_eq!(reasons(&r.strike), vec![("leydonic strike factor", 3), ("metal armour (house rule)", 2)]);
                assert_eq!(r.strike.total, 9, "{armour:?}");
            } else {
                assert_eq!(reasons(&r.strike), vec![("leydonic strike factor", 3)]);
                assert_eq!(r.strike.total, 7, "{armour:?}");
            }
        }
        let s = MorvalTrapSettings { leydonic_metal_armour_bonus: 3, ..settings() };
        let r = discharge_leydonic(&trap, Armour::Plate, &s, &mut ScriptedDice::faces([0]));
        assert_eq!(r.strike.total, 6);
    }

    /// The split rolls read their band from the total as it stands: a factor added between the
    /// roll and its result (001's evil eye, −1) moves it down a row at each band edge, and the
    /// row's own dice follow the new row. Whole, they roll as `resolve_*` always did.
    #[test]
    fn a_factor_added_before_the_result_moves_the_band() {
        let s = settings();
        let victim = trip_victim(0, 6.0, 1);
        // Trip cord: 5 falls (strained ankle, D6 days), 4 breaks the cord with no roll.
        let roll = trip_cord_roll(&victim, &s, &mut ScriptedDice::faces([5]));
        let plain = trip_cord_result(roll.clone(), &victim, &s, &mut ScriptedDice::faces([2]));
        assert_eq!(plain.outcome, TripCordOutcome::FallStrainedAnkle);
        let mut cursed = roll;
        cursed.add("evil eye curse", -1);
        let mut no_dice = ScriptedDice::faces(Vec::<u32>::new());
        let r = trip_cord_result(cursed, &victim, &s, &mut no_dice);
        assert_eq!((r.roll.total, r.outcome, r.injury), (4, TripCordOutcome::BreakCordCursing, None));
        // Pit: 7 jumps back, 6 hangs on the far edge; 3 falls (D10 strike), 2 falls unimpeded.
        let pit = Pit::specimen(PitBottom::Earth);
        let mut at_edge = victim_agility_roll(0, 6.0, &mut ScriptedDice::faces([7]));
        at_edge.add("evil eye curse", -1);
        assert_eq!(pit_result(at_edge, pit, &mut no_dice).outcome, PitOutcome::HangingOnFarEdge);
        let mut falling = victim_agility_roll(0, 6.0, &mut ScriptedDice::faces([3]));
        falling.add("evil eye curse", -1);
        let r = pit_result(falling, pit, &mut ScriptedDice::faces([4]));
        assert_eq!(r.outcome, PitOutcome::FallUnimpeded);
        assert_eq!(r.fall_strike.map(|f| f.modifiers.iter().any(|m| m.reason == "retarded fall")), Some(false));
        // Loop: 6 missed, 5 caught keeping items; 4 caught keeping items, 3 caught cursing (D6 days).
        let mut missed = victim_agility_roll(0, 6.0, &mut ScriptedDice::faces([6]));
        missed.add("evil eye curse", -1);
        assert_eq!(loop_result(missed, &mut no_dice).outcome, LoopOutcome::CaughtKeepsItems);
        let mut keeps = victim_agility_roll(0, 6.0, &mut ScriptedDice::faces([4]));
        keeps.add("evil eye curse", -1);
        let r = loop_result(keeps, &mut ScriptedDice::faces([1]));
        assert_eq!(r.outcome, LoopOutcome::CaughtCursing);
        assert!(r.injury.is_some());
        assert!(no_dice.is_empty());
        // Whole, the same faces give the same result as the parts.
        for seed in 0..50 {
            let (mut a, mut b) = (SeededDice::new(seed), SeededDice::new(seed));
            let whole = resolve_trip_cord(&victim, &s, &mut a);
            let roll = trip_cord_roll(&victim, &s, &mut b);
            assert_eq!(whole, trip_cord_result(roll, &victim, &s, &mut b));
            assert_eq!(resolve_pit(1, 8.0, pit, &mut a), pit_result(victim_agility_roll(1, 8.0, &mut b), pit, &mut b));
            assert_eq!(resolve_loop(1, 8.0, &mut a), loop_result(victim_agility_roll(1, 8.0, &mut b), &mut b));
        }
    }
}
