//! Obstacles and climbing: sharpened stakes, ropes, cords and grapnels, cutting ropes (000
//! "Sharpened Stakes", "Grapnels, Ropes, and cords"), climbing high broken-glass-topped walls
//! and planks over cattle grids (001 "Cattle Grids", "Climbing over High broken glass topped
//! walls").
//!
//! Dice follow RULES-NOTES "Dice": a Morval D10 shows 0–9, a D6 1–6. Distances are inches as
//! `f32`; "within" a distance includes it. Weights are quabits ("A quabit = 16 kilos."). The
//! Morval combat tables are not in the sources (RULES-NOTES "Strike resolution"), so the stakes'
//! strike and a climber's fall are reported as strike values, as falls are in
//! [`super::morval_traps`]. Every reading of a terse line is a field of [`ObstaclesSettings`]
//! where a choice is needed (its default the most literal one) and is listed in docs/obstacles.md.

use super::character::Sex;
use super::dice::{Dice, DiceSource, Roll, Rolls};
use super::house_rules::house_rule_reason;
use super::morval_traps::{Pit, PitBottom};
use super::outcome::Meaning;
use serde::{Deserialize, Serialize};

/// 000 "Sharpened Stakes": "(Take 2 moves to fell".
pub const STAKE_FELLING_MOVES: u32 = 2;
/// 000 "Sharpened Stakes": "& 3 moves to position & sharpen)".
pub const STAKE_POSITIONING_MOVES: u32 = 3;
/// 000 "Sharpened Stakes": "speed 15"+ strike -4": the speed.
pub const STAKE_FAST_SPEED_IN: f32 = 15.0;
/// 000 "Sharpened Stakes": "speed 15"+ strike -4": the strike.
pub const STAKE_FAST_STRIKE: i32 = -4;
/// 000 "Sharpened Stakes": "10"+ strike -5": the speed.
pub const STAKE_MEDIUM_SPEED_IN: f32 = 10.0;
/// 000 "Sharpened Stakes": "10"+ strike -5": the strike.
pub const STAKE_MEDIUM_STRIKE: i32 = -5;
/// 000 "Sharpened Stakes": "6"+ strike -6, on steeds": the speed.
pub const STAKE_SLOW_SPEED_IN: f32 = 6.0;
/// 000 "Sharpened Stakes": "6"+ strike -6, on steeds": the strike.
pub const STAKE_SLOW_STRIKE: i32 = -6;
/// 000 "Sharpened Stakes": riders "-1 in melee from sharp side".
pub const SHARP_SIDE_MELEE_FACTOR: i32 = -1;
/// 000 "Sharpened Stakes": foot "deduct 1" from normal move".
pub const FOOT_ATTACK_NORMAL_LOSS_IN: f32 = 1.0;
/// 000 "Sharpened Stakes": foot "& 3" from charge move".
pub const FOOT_ATTACK_CHARGE_LOSS_IN: f32 = 3.0;
/// 000 "Sharpened Stakes": "Advancing from behind sharpened stakes Riders -3"".
pub const RIDER_BEHIND_LOSS_IN: f32 = 3.0;
/// 000 "Sharpened Stakes": "Advancing from behind sharpened stakes ... Foot -1"".
pub const FOOT_BEHIND_LOSS_IN: f32 = 1.0;

/// 000 "Grapnels, Ropes, and cords": "Ropes are normally in six het lengths".
pub const STANDARD_LENGTH_HETS: f32 = 6.0;
/// 000 "Grapnels, Ropes, and cords": "six het lengths (6 table inches)": 6" for six hets.
pub const STANDARD_LENGTH_IN: f32 = 6.0;
/// 000 "Grapnels, Ropes, and cords": "(A quabit = 16 kilos.)".
pub const KILOGRAMS_PER_QUABIT: f32 = 16.0;
/// Pounds in a kilogram (the OSR text 003 weighs in lbs).
pub const POUNDS_PER_KILOGRAM: f32 = 2.204_623;
/// 000 "Grapnels, Ropes, and cords": the light rope "capable of carrying 5 quabits".
pub const LIGHT_ROPE_QUABITS: u32 = 5;
/// 000 "Grapnels, Ropes, and cords": "Permanently placed ropes and ships grapnel ropes can usually carry 10 quabits".
pub const PERMANENT_ROPE_QUABITS: u32 = 10;
/// 000 "Grapnels, Ropes, and cords": "vessels mooring ropes are 20 quabits".
pub const MOORING_ROPE_QUABITS: u32 = 20;
/// 000 "Grapnels, Ropes, and cords": "Cords come in six het balls, 1 quabit strength".
pub const CORD_QUABITS: u32 = 1;
/// 000 "Grapnels, Ropes, and cords": 5 quabits is "the weight of one and a quarter average persons".
pub const PERSONS_IN_LIGHT_ROPE_LOAD: f32 = 1.25;
/// An average person in quabits: 5 quabits / 1¼ persons = 4 quabits (64 kilos).
pub const AVERAGE_PERSON_QUABITS: f32 = LIGHT_ROPE_QUABITS as f32 / PERSONS_IN_LIGHT_ROPE_LOAD;
/// 000 "Grapnels, Ropes, and cords": overloaded, "= 2- breaks".
pub const ROPE_BREAKS_AT_MOST: i32 = 2;
/// 000 "Grapnels, Ropes, and cords": "D6 - 1each excess quabit".
pub const EXCESS_QUABIT_FACTOR: i32 = -1;
/// 000 "Grapnels, Ropes, and cords": heavier ropes, and a grapnel with a rope, "deduct 1/2 fatigue endurance".
pub const CARRYING_ENDURANCE_COST: f32 = 0.5;
/// 000 "Grapnels, Ropes, and cords": "A quarter of a het is enough to bind a prisoner hands and feet".
pub const CORD_HETS_PER_PRISONER: f32 = 0.25;
/// 000 "Grapnels, Ropes, and cords": "Normal throwing ranges for grapnels are men 5"".
pub const GRAPNEL_RANGE_MEN_IN: f32 = 5.0;
/// 000 "Grapnels, Ropes, and cords": "and women 4"".
pub const GRAPNEL_RANGE_WOMEN_IN: f32 = 4.0;
/// 000 "Grapnels, Ropes, and cords": "To gain a lodgement successfully D10 6+ required".
pub const LODGEMENT_FROM: i32 = 6;
/// 000 "Grapnels, Ropes, and cords": "If an opponent is within 1" of the lodgement".
pub const THROW_DOWN_REACH_IN: f32 = 1.0;
/// 000 "Grapnels, Ropes, and cords": "D10 7+ they throw it down".
pub const THROW_DOWN_FROM: i32 = 7;
/// 000 "Grapnels, Ropes, and cords": cutting, "= -2- fail".
pub const CUT_FAIL_AT_MOST: i32 = -2;
/// 000 "Grapnels, Ropes, and cords": cutting, "-1+ weaken -2 quabits": the band.
pub const CUT_WEAKEN_FROM: i32 = -1;
/// 000 "Grapnels, Ropes, and cords": cutting, "-1+ weaken -2 quabits": the loss.
pub const CUT_WEAKEN_QUABITS: u32 = 2;
/// 000 "Grapnels, Ropes, and cords": cutting, "+1 + rope cut".
pub const CUT_FROM: i32 = 1;

/// 001 "Climbing over High broken glass topped walls": "Pst AvD –2".
pub const GLASS_WALL_FACTOR: i32 = -2;
/// 001 "Climbing over High broken glass topped walls": "(+1 if cloth or newspaper used)".
pub const CLOTH_OR_NEWSPAPER_FACTOR: i32 = 1;
/// 001 "Cattle Grids": "Takes one man 3 rounds to emplace" (the planks).
pub const PLANK_LAYING_ROUNDS: u32 = 3;

/// Setting path of [`ObstaclesSettings::slow_riders`] (`rules.obstacles`).
pub const SLOW_RIDERS_PATH: &str = "obstacles.slow_riders";
/// Setting path of [`ObstaclesSettings::excess_rounding`].
pub const EXCESS_ROUNDING_PATH: &str = "obstacles.excess_rounding";
/// Setting path of [`ObstaclesSettings::half_strength_rounding`].
pub const HALF_STRENGTH_ROUNDING_PATH: &str = "obstacles.half_strength_rounding";
/// Setting path of [`ObstaclesSettings::rope_fall_strike`].
pub const ROPE_FALL_STRIKE_PATH: &str = "obstacles.rope_fall_strike";
/// Setting path of [`ObstaclesSettings::glass_wall_dice`].
pub const GLASS_WALL_DICE_PATH: &str = "obstacles.glass_wall_dice";
/// Setting path of [`ObstaclesSettings::glass_wall_target`].
pub const GLASS_WALL_TARGET_PATH: &str = "obstacles.glass_wall_target";
/// Setting path of [`ObstaclesSettings::rope_climb_rounds`].
pub const ROPE_CLIMB_ROUNDS_PATH: &str = "obstacles.rope_climb_rounds";

/// Modifier reason (tagged house rule) for a rider under 6" under [`SlowRiderStrike::AsSixInches`].
/// Listed in `HOUSE_RULE_REASONS` with its setting.
const SLOW_RIDER_REASON: &str = "speed under 6\", as 6\"+";
/// Modifier reason (tagged house rule) for a rope fall's extra height, as a pit's extra depth.
const FALL_EXTRA_HEIGHT_REASON: &str = "rope fall, extra height";

// ---------------------------------------------------------------------------------------------
// Readings and settings
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// What strikes a rider attacking stakes slower than 6". The text's rows start at "6"+".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SlowRiderStrike {
        /// The default, the literal rows: below 6" the stakes strike nothing (the strike
        /// weakens as the speed falls, −4, −5, −6, and no row is given under 6").
        #[default]
        NoStrike => "no_strike",
        /// As 6"+: strike −6 (tagged house rule).
        AsSixInches => "as_six_inches",
    }
}

crate::rules::named_enum! {
    /// How a part of a quabit over the rope's strength counts in "D6 - 1each excess quabit".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ExcessRounding {
        /// The default: each quabit begun counts, so an overloaded rope has at least one
        /// excess quabit.
        #[default]
        Up => "up",
        /// Whole quabits only (a rope overloaded by less than one still rolls, at D6 − 0).
        Down => "down",
    }
}

crate::rules::named_enum! {
    /// When an overloaded rope rolls "D6 - 1each excess quabit". The text gives no time.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum OverloadRolls {
        /// The default: once each time the rope becomes (more) overloaded, by a load put on it
        /// or by weakening; a rope that held goes on holding the same load.
        #[default]
        WhenExcessGrows => "when_excess_grows",
        /// Also every round it stays overloaded.
        EachRound => "each_round",
    }
}

crate::rules::named_enum! {
    /// How often an opponent within 1" of a lodgement dices to throw it down.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ThrowDownTries {
        /// The default: once each time an opponent comes within 1" (or is within 1" when it
        /// lodges), as RULES-NOTES reads "Diced for when within 2"" for spotting traps.
        #[default]
        OncePerApproach => "once_per_approach",
        /// Every round he is within 1".
        EachRound => "each_round",
    }
}

crate::rules::named_enum! {
    /// How "half ropes quabit strength" is taken of an odd strength (the roll is in whole points).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum HalfStrengthRounding {
        /// The default, a half rounded to the nearest with halves up: a light rope (5) takes 3.
        #[default]
        Up => "up",
        /// Rounded down: a light rope takes 2, a cord 0.
        Down => "down",
    }
}

crate::rules::named_enum! {
    /// The strike of a climber's fall when his rope parts. The text gives none.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum RopeFallStrike {
        /// The default, the nearest row the text gives (000 "Specimen Pit Trap"): D10 + the
        /// ground's pit strike for 1" (earth −4, rocky −3, spiked −2) + 1 per extra whole inch
        /// of height (tagged house rule).
        #[default]
        AsPitFall => "as_pit_fall",
        /// The fall is reported with its height, no strike rolled.
        NotRolled => "not_rolled",
    }
}

/// Weights of the items in quabits, each for a six-het length (or one grapnel). The text gives
/// none: every one is a house rule (docs/house-rules.md "Obstacles").
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ItemWeights {
    /// A light rope, six hets (default 0.25: 4 kilos).
    pub light_rope: f32,
    /// A permanent rope, six hets (default 0.5: 8 kilos, twice the light rope's strength).
    pub permanent_rope: f32,
    /// A ship's grapnel rope, six hets (default 0.5, as a permanent rope of the same strength).
    pub ships_grapnel_rope: f32,
    /// A vessel's mooring rope, six hets (default 1: 16 kilos).
    pub mooring_rope: f32,
    /// A ball of cord, six hets (default 0.0625: 1 kilo).
    pub cord_ball: f32,
    /// A grapnel (default 0.25: 4 kilos of iron).
    pub grapnel: f32,
}

impl Default for ItemWeights {
    fn default() -> Self {
        Self {
            light_rope: 0.25,
            permanent_rope: 0.5,
            ships_grapnel_rope: 0.5,
            mooring_rope: 1.0,
            cord_ball: 0.0625,
            grapnel: 0.25,
        }
    }
}

/// The readings of these sections where a choice is needed, each default the most literal.
/// The scene's `rules.obstacles` block (docs/house-rules.md "Obstacles").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ObstaclesSettings {
    /// What strikes a rider slower than 6".
    pub slow_riders: SlowRiderStrike,
    /// Whether foot attacking from the sharp side take "-1 in melee" too (true), or only the
    /// riders, in whose sentence the text puts it (false).
    pub foot_melee_from_sharp_side: bool,
    /// Table inches in a het: "six het lengths (6 table inches)" gives 1 (the 6 is
    /// offered, not the default).
    pub inches_per_het: f32,
    /// How a part of an excess quabit counts.
    pub excess_rounding: ExcessRounding,
    /// When an overloaded rope rolls.
    pub overload_rolls: OverloadRolls,
    /// Whether each heavier rope and each grapnel with a rope deducts ½ (true), or carrying any
    /// of them deducts ½ in all (false).
    pub endurance_costs_add_up: bool,
    /// How often an opponent within 1" dices to throw a grapnel down.
    pub throw_down_tries: ThrowDownTries,
    /// How half an odd rope strength is taken in the cutting roll.
    pub half_strength_rounding: HalfStrengthRounding,
    /// The strike of a climber's fall when his rope parts.
    pub rope_fall_strike: RopeFallStrike,
    /// House rule: the dice of "Pst AvD" (the text does not say what it means).
    pub glass_wall_dice: Dice,
    /// House rule: the total "Pst AvD –2" must reach to get over.
    pub glass_wall_target: i32,
    /// House rule: rounds one try at a glass-topped wall takes.
    pub glass_wall_rounds_per_try: u32,
    /// House rule: rounds a figure takes to climb a hanging rope up and over its wall (the
    /// text gives no time).
    pub rope_climb_rounds: u32,
    /// Whether several men laying planks add their rounds (true), or the planks take "one man 3
    /// rounds" however many help (false).
    pub plank_layers_share_work: bool,
    /// House rule: the items' weights.
    pub weights: ItemWeights,
}

impl Default for ObstaclesSettings {
    fn default() -> Self {
        Self {
            slow_riders: SlowRiderStrike::NoStrike,
            foot_melee_from_sharp_side: false,
            inches_per_het: 1.0,
            excess_rounding: ExcessRounding::Up,
            overload_rolls: OverloadRolls::WhenExcessGrows,
            endurance_costs_add_up: true,
            throw_down_tries: ThrowDownTries::OncePerApproach,
            half_strength_rounding: HalfStrengthRounding::Up,
            rope_fall_strike: RopeFallStrike::AsPitFall,
            glass_wall_dice: Dice::D6,
            glass_wall_target: 3,
            glass_wall_rounds_per_try: 2,
            rope_climb_rounds: 2,
            plank_layers_share_work: false,
            weights: ItemWeights::default(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Sharpened stakes
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// How far a stake is made.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum StakeStage {
        /// The first 2 moves: felling.
        Felling => "felling",
        /// The next 3 moves: positioning and sharpening.
        Positioning => "positioning",
        /// In place and sharp.
        Ready => "ready",
    }
}

/// A stake's progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StakeWork {
    /// The stage the next move of work goes to (or ready).
    pub stage: StakeStage,
    /// Moves of work still needed (0 when ready).
    pub moves_left: u32,
}

/// 000 "Sharpened Stakes": "(Take 2 moves to fell & 3 moves to position & sharpen)": the stake after `moves_worked` moves.
///
/// Reading: the moves are one figure's; the text names no crew size or length of stake line.
pub fn stake_work(moves_worked: u32) -> StakeWork {
    let total = STAKE_FELLING_MOVES + STAKE_POSITIONING_MOVES;
    let stage = if moves_worked < STAKE_FELLING_MOVES {
        StakeStage::Felling
    } else if moves_worked < total {
        StakeStage::Positioning
    } else {
        StakeStage::Ready
    };
    StakeWork { stage, moves_left: total.saturating_sub(moves_worked) }
}

crate::rules::named_enum! {
    /// Riders or foot, as the stakes rules name them.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Troop {
        /// Riders on steeds.
        Rider => "rider",
        /// Foot.
        #[default]
        Foot => "foot",
    }
}

crate::rules::named_enum! {
    /// Which way a figure meets a line of stakes.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum StakeSide {
        /// Attacking the stakes, from the sharp side.
        SharpSide => "sharp_side",
        /// Advancing out from behind the stakes.
        Behind => "behind",
    }
}

/// A figure's move across a line of stakes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StakesMove {
    /// Inches deducted.
    pub loss_in: f32,
    /// The move left, never below 0.
    pub move_in: f32,
}

/// 000 "Sharpened Stakes": inches lost, foot attacking "deduct 1" from normal move & 3" from charge move", "Advancing from behind sharpened stakes Riders -3" Foot -1"".
///
/// Riders attacking lose no inches: the text gives them a strike and melee factors only.
pub fn stakes_move_loss_in(troop: Troop, side: StakeSide, charging: bool) -> f32 {
    match (side, troop) {
        (StakeSide::SharpSide, Troop::Foot) if charging => FOOT_ATTACK_CHARGE_LOSS_IN,
        (StakeSide::SharpSide, Troop::Foot) => FOOT_ATTACK_NORMAL_LOSS_IN,
        (StakeSide::SharpSide, Troop::Rider) => 0.0,
        (StakeSide::Behind, Troop::Rider) => RIDER_BEHIND_LOSS_IN,
        (StakeSide::Behind, Troop::Foot) => FOOT_BEHIND_LOSS_IN,
    }
}

/// 000 "Sharpened Stakes": the move (normal or charge, as the caller has it) less [`stakes_move_loss_in`], never below 0.
pub fn stakes_move(move_in: f32, troop: Troop, side: StakeSide, charging: bool) -> StakesMove {
    let loss_in = stakes_move_loss_in(troop, side, charging);
    StakesMove { loss_in, move_in: (move_in - loss_in).max(0.0) }
}

/// What attacking stakes does to a figure's melee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StakesMelee {
    /// "Lose charge bonus".
    pub loses_charge_bonus: bool,
    /// Added to melee: "-1 in melee from sharp side" (0 when it does not apply).
    pub melee_factor: i32,
}

/// 000 "Sharpened Stakes": riders "Lose charge bonus & -1 in melee from sharp side", foot "lose charge bonus".
///
/// Foot take the −1 only under [`ObstaclesSettings::foot_melee_from_sharp_side`]. A figure
/// advancing from behind loses nothing in melee.
pub fn stakes_melee(troop: Troop, side: StakeSide, settings: &ObstaclesSettings) -> StakesMelee {
    match side {
        StakeSide::Behind => StakesMelee { loses_charge_bonus: false, melee_factor: 0 },
        StakeSide::SharpSide => {
            let minus = troop == Troop::Rider || settings.foot_melee_from_sharp_side;
            StakesMelee { loses_charge_bonus: true, melee_factor: if minus { SHARP_SIDE_MELEE_FACTOR } else { 0 } }
        }
    }
}

crate::rules::named_enum! {
    /// A rider's speed band against stakes.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum StakeSpeed {
        /// 15" or more: strike −4.
        FifteenPlus => "fifteen_plus",
        /// 10" to under 15": strike −5.
        TenPlus => "ten_plus",
        /// 6" to under 10": strike −6.
        SixPlus => "six_plus",
        /// Under 6": no row in the text ([`SlowRiderStrike`]).
        UnderSix => "under_six",
    }
}

/// 000 "Sharpened Stakes": "speed 15"+ strike -4, 10"+ strike -5, 6"+ strike -6": the band of `speed_in`.
pub fn stake_speed(speed_in: f32) -> StakeSpeed {
    if speed_in >= STAKE_FAST_SPEED_IN {
        StakeSpeed::FifteenPlus
    } else if speed_in >= STAKE_MEDIUM_SPEED_IN {
        StakeSpeed::TenPlus
    } else if speed_in >= STAKE_SLOW_SPEED_IN {
        StakeSpeed::SixPlus
    } else {
        StakeSpeed::UnderSix
    }
}

/// The stakes' strike on a charging rider's steed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RiderStakeStrike {
    /// The speed band.
    pub speed: StakeSpeed,
    /// D10 + F + the band's strike, reported (no combat tables); `None` when nothing strikes.
    pub strike: Option<Roll>,
    /// Setting paths that decided it.
    pub house_rules: Vec<&'static str>,
}

/// 000 "Sharpened Stakes": "Riders attacking sharpened stakes, D10 +F, speed 15"+ strike -4, 10"+ strike -5, 6"+ strike -6, on steeds".
///
/// `factors`: the F the caller's combat rules add (0 for none). The strike is on the steed.
/// Under 6" per [`ObstaclesSettings::slow_riders`].
pub fn rider_stake_strike(
    speed_in: f32,
    factors: i32,
    settings: &ObstaclesSettings,
    src: &mut impl DiceSource,
) -> RiderStakeStrike {
    let speed = stake_speed(speed_in);
    let (reason, value, house_rules): (String, i32, Vec<&'static str>) = match speed {
        StakeSpeed::FifteenPlus => ("speed 15\"+".into(), STAKE_FAST_STRIKE, Vec::new()),
        StakeSpeed::TenPlus => ("speed 10\"+".into(), STAKE_MEDIUM_STRIKE, Vec::new()),
        StakeSpeed::SixPlus => ("speed 6\"+".into(), STAKE_SLOW_STRIKE, Vec::new()),
        StakeSpeed::UnderSix => match settings.slow_riders {
            SlowRiderStrike::NoStrike => {
                return RiderStakeStrike { speed, strike: None, house_rules: vec![SLOW_RIDERS_PATH] };
            }
            SlowRiderStrike::AsSixInches => {
                (house_rule_reason(SLOW_RIDER_REASON), STAKE_SLOW_STRIKE, vec![SLOW_RIDERS_PATH])
            }
        },
    };
    let strike = Roll::new(Dice::D10, src).modifier("F", factors).modifier(reason, value);
    RiderStakeStrike { speed, strike: Some(strike), house_rules }
}

// ---------------------------------------------------------------------------------------------
// Ropes and cords
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// The ropes and cord of the text.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum RopeKind {
        /// "the light type carried by adventurers": 5 quabits.
        #[default]
        Light => "light",
        /// "Permanently placed ropes": 10 quabits.
        Permanent => "permanent",
        /// "ships grapnel ropes": 10 quabits.
        ShipsGrapnel => "ships_grapnel",
        /// "vessels mooring ropes": 20 quabits.
        Mooring => "mooring",
        /// Cord: 1 quabit.
        Cord => "cord",
    }
}

impl RopeKind {
    /// 000 "Grapnels, Ropes, and cords": what the rope "can usually carry", in quabits.
    pub fn strength_quabits(self) -> u32 {
        match self {
            RopeKind::Light => LIGHT_ROPE_QUABITS,
            RopeKind::Permanent | RopeKind::ShipsGrapnel => PERMANENT_ROPE_QUABITS,
            RopeKind::Mooring => MOORING_ROPE_QUABITS,
            RopeKind::Cord => CORD_QUABITS,
        }
    }

    /// 000 "Grapnels, Ropes, and cords": "Carrying heavier length ropes would deduct 1/2 fatigue endurance": heavier than the light rope.
    pub fn is_heavier(self) -> bool {
        matches!(self, RopeKind::Permanent | RopeKind::ShipsGrapnel | RopeKind::Mooring)
    }
}

/// A rope (or cord) in play.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rope {
    /// Which rope.
    pub kind: RopeKind,
    /// Length in hets.
    pub length_hets: f32,
    /// What it carries now, in quabits: its kind's strength less any weakening.
    pub strength_quabits: u32,
    /// Cut or broken: it carries nothing.
    #[serde(default)]
    pub parted: bool,
}

impl Rope {
    /// 000 "Grapnels, Ropes, and cords": a rope of `kind` "normally in six het lengths", at its usual strength.
    pub fn standard(kind: RopeKind) -> Rope {
        Rope { kind, length_hets: STANDARD_LENGTH_HETS, strength_quabits: kind.strength_quabits(), parted: false }
    }
}

/// 000 "Grapnels, Ropes, and cords": "six het lengths (6 table inches)": hets to table inches.
pub fn hets_to_inches(hets: f32, settings: &ObstaclesSettings) -> f32 {
    hets * settings.inches_per_het
}

/// 000 "Grapnels, Ropes, and cords": whether a rope of `length_hets` reaches down a wall `height_in` high.
pub fn rope_reaches(length_hets: f32, height_in: f32, settings: &ObstaclesSettings) -> bool {
    hets_to_inches(length_hets, settings) >= height_in
}

/// 000 "Grapnels, Ropes, and cords": "A quarter of a het is enough to bind a prisoner hands and feet": prisoners `cord_hets` binds.
pub fn prisoners_bound_by(cord_hets: f32) -> u32 {
    if cord_hets.is_nan() || cord_hets <= 0.0 {
        return 0;
    }
    (cord_hets / CORD_HETS_PER_PRISONER).floor() as u32
}

/// 000 "Grapnels, Ropes, and cords": "(A quabit = 16 kilos.)".
pub fn quabits_to_kilograms(quabits: f32) -> f32 {
    quabits * KILOGRAMS_PER_QUABIT
}

/// Quabits in pounds, for the OSR encumbrance table (003 "Encumbrance" weighs in lbs).
pub fn quabits_to_pounds(quabits: f32) -> f32 {
    quabits_to_kilograms(quabits) * POUNDS_PER_KILOGRAM
}

/// One figure on a rope.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Climber {
    /// His weight with what he carries, in quabits.
    pub weight_quabits: f32,
    /// How high he is above the ground, in inches (0: standing at the foot).
    pub height_in: f32,
}

impl Climber {
    /// An average person ([`AVERAGE_PERSON_QUABITS`], 4 quabits) at `height_in`.
    pub fn average_person(height_in: f32) -> Climber {
        Climber { weight_quabits: AVERAGE_PERSON_QUABITS, height_in }
    }
}

/// What hangs on a rope and what lies below it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RopeLoad<'a> {
    /// The figures on the rope, in the caller's order.
    pub climbers: &'a [Climber],
    /// The ground below, for a fall's strike ([`RopeFallStrike::AsPitFall`]).
    pub ground: PitBottom,
}

/// Nothing on a rope.
pub const NO_LOAD: RopeLoad<'static> = RopeLoad { climbers: &[], ground: PitBottom::Earth };

impl RopeLoad<'_> {
    /// The load in quabits.
    pub fn weight_quabits(&self) -> f32 {
        self.climbers.iter().map(|c| c.weight_quabits).sum()
    }
}

/// A climber's fall when his rope parts or is thrown down.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClimberFall {
    /// Index into [`RopeLoad::climbers`].
    pub climber: usize,
    /// The height he falls, inches.
    pub height_in: f32,
    /// D10 + strike, reported (no combat tables); `None` under [`RopeFallStrike::NotRolled`].
    pub strike: Option<Roll>,
}

/// 000 "Grapnels, Ropes, and cords": the climbers a parted rope drops: each above the ground falls his height.
///
/// The fall's strike per [`ObstaclesSettings::rope_fall_strike`]: by default as a pit (000
/// "Specimen Pit Trap": "Pit strikes for 1", earth bottom -4, rocky bottom -3, spiked bottom -2,
/// +1 per extra inch depth"), the height taken in whole inches, at least 1.
pub fn drop_climbers(load: &RopeLoad, settings: &ObstaclesSettings, src: &mut impl DiceSource) -> Vec<ClimberFall> {
    load.climbers
        .iter()
        .enumerate()
        .filter(|(_, c)| c.height_in > 0.0)
        .map(|(i, c)| {
            let strike = match settings.rope_fall_strike {
                RopeFallStrike::NotRolled => None,
                RopeFallStrike::AsPitFall => {
                    let pit = Pit { bottom: load.ground, depth_inches: (c.height_in.floor() as i32).max(1) };
                    let mut strike = Roll::new(Dice::D10, &mut *src);
                    let ground = house_rule_reason(&format!("rope fall onto {}", load.ground.label()));
                    strike.add(ground, pit.bottom.strike_factor());
                    strike.add(house_rule_reason(FALL_EXTRA_HEIGHT_REASON), pit.extra_depth_factor());
                    Some(strike)
                }
            };
            ClimberFall { climber: i, height_in: c.height_in, strike }
        })
        .collect()
}

/// How far a load is over a rope's strength, in quabits (0 when not over).
pub fn raw_excess_quabits(load_quabits: f32, strength_quabits: u32) -> f32 {
    (load_quabits - strength_quabits as f32).max(0.0)
}

/// 000 "Grapnels, Ropes, and cords": "D6 - 1each excess quabit": the excess quabits counted, per [`ExcessRounding`].
pub fn excess_quabits(load_quabits: f32, strength_quabits: u32, rounding: ExcessRounding) -> u32 {
    let over = raw_excess_quabits(load_quabits, strength_quabits);
    let counted = match rounding {
        ExcessRounding::Up => over.ceil(),
        ExcessRounding::Down => over.floor(),
    };
    counted as u32
}

/// 000 "Grapnels, Ropes, and cords": whether an overloaded rope rolls now, per [`OverloadRolls`].
///
/// `excess_before` and `excess_now`: [`raw_excess_quabits`] before and after the change (a
/// load put on, a weakening); `new_round`: a round has begun since its last roll.
pub fn overload_roll_due(excess_before: f32, excess_now: f32, new_round: bool, settings: &ObstaclesSettings) -> bool {
    excess_now > 0.0
        && (excess_now > excess_before || (new_round && settings.overload_rolls == OverloadRolls::EachRound))
}

crate::rules::named_enum! {
    /// An overloaded rope's roll.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum OverloadOutcome {
        /// The load is within the rope's strength: no roll.
        NotOverloaded => "not_overloaded",
        /// 3 or more: the rope holds.
        Holds => "holds",
        /// 2 or less: the rope breaks.
        Breaks => "breaks",
    }
}

/// 000 "Grapnels, Ropes, and cords": "= 2- breaks" (3 or more holds).
pub fn overload_band(total: i32) -> OverloadOutcome {
    if total <= ROPE_BREAKS_AT_MOST { OverloadOutcome::Breaks } else { OverloadOutcome::Holds }
}

/// One overload check.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OverloadCheck {
    /// The load, quabits.
    pub load_quabits: f32,
    /// The excess quabits counted.
    pub excess_quabits: u32,
    /// D6 − 1 per excess quabit, passed (breaks) at 2 or less; `None` when not overloaded.
    pub roll: Option<Roll>,
    /// Not overloaded, holds or breaks.
    pub outcome: OverloadOutcome,
    /// The rope after.
    pub rope: Rope,
    /// The climbers a broken rope drops.
    pub falls: Vec<ClimberFall>,
    /// Setting paths that decided it.
    pub house_rules: Vec<&'static str>,
}

/// 000 "Grapnels, Ropes, and cords": "If a rope is overloaded D6 - 1each excess quabit, = 2- breaks".
///
/// Overloaded: the load is more than the rope's strength now. A broken rope drops its climbers
/// ([`drop_climbers`]). When to call it: [`overload_roll_due`].
pub fn resolve_overload(
    rope: &Rope,
    load: &RopeLoad,
    settings: &ObstaclesSettings,
    src: &mut impl DiceSource,
) -> OverloadCheck {
    let load_quabits = load.weight_quabits();
    let over = raw_excess_quabits(load_quabits, rope.strength_quabits);
    if over <= 0.0 {
        return OverloadCheck {
            load_quabits,
            excess_quabits: 0,
            roll: None,
            outcome: OverloadOutcome::NotOverloaded,
            rope: *rope,
            falls: Vec::new(),
            house_rules: Vec::new(),
        };
    }
    let excess = excess_quabits(load_quabits, rope.strength_quabits, settings.excess_rounding);
    let mut house_rules = Vec::new();
    if over.fract() != 0.0 {
        house_rules.push(EXCESS_ROUNDING_PATH);
    }
    let factor = i32::try_from(excess).unwrap_or(i32::MAX).saturating_mul(EXCESS_QUABIT_FACTOR);
    let reason = if excess == 1 { "1 excess quabit".to_string() } else { format!("{excess} excess quabits") };
    let roll = Roll::new(Dice::D6, src).modifier(reason, factor).at_most(ROPE_BREAKS_AT_MOST);
    let outcome = overload_band(roll.total);
    let mut after = *rope;
    let mut falls = Vec::new();
    if outcome == OverloadOutcome::Breaks {
        after.parted = true;
        falls = drop_climbers(load, settings, src);
        if !falls.is_empty() && settings.rope_fall_strike == RopeFallStrike::AsPitFall {
            house_rules.push(ROPE_FALL_STRIKE_PATH);
        }
    }
    OverloadCheck { load_quabits, excess_quabits: excess, roll: Some(roll), outcome, rope: after, falls, house_rules }
}

// ---------------------------------------------------------------------------------------------
// Carrying and weights
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// An item a figure carries (its weight in [`ItemWeights`]).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ObstacleItem {
        /// A light rope, six hets.
        LightRope => "light_rope",
        /// A permanent rope, six hets.
        PermanentRope => "permanent_rope",
        /// A ship's grapnel rope, six hets.
        ShipsGrapnelRope => "ships_grapnel_rope",
        /// A vessel's mooring rope, six hets.
        MooringRope => "mooring_rope",
        /// A six-het ball of cord.
        CordBall => "cord_ball",
        /// A grapnel.
        Grapnel => "grapnel",
    }
}

impl ObstacleItem {
    /// The rope (or cord) the item is; `None` for a grapnel.
    pub fn rope_kind(self) -> Option<RopeKind> {
        match self {
            ObstacleItem::LightRope => Some(RopeKind::Light),
            ObstacleItem::PermanentRope => Some(RopeKind::Permanent),
            ObstacleItem::ShipsGrapnelRope => Some(RopeKind::ShipsGrapnel),
            ObstacleItem::MooringRope => Some(RopeKind::Mooring),
            ObstacleItem::CordBall => Some(RopeKind::Cord),
            ObstacleItem::Grapnel => None,
        }
    }

    /// Its weight in quabits (house rule, [`ItemWeights`]).
    pub fn weight_quabits(self, weights: &ItemWeights) -> f32 {
        match self {
            ObstacleItem::LightRope => weights.light_rope,
            ObstacleItem::PermanentRope => weights.permanent_rope,
            ObstacleItem::ShipsGrapnelRope => weights.ships_grapnel_rope,
            ObstacleItem::MooringRope => weights.mooring_rope,
            ObstacleItem::CordBall => weights.cord_ball,
            ObstacleItem::Grapnel => weights.grapnel,
        }
    }
}

/// What `items` weigh in all, in quabits (house rule weights).
pub fn inventory_weight_quabits(items: &[ObstacleItem], weights: &ItemWeights) -> f32 {
    items.iter().map(|i| i.weight_quabits(weights)).sum()
}

/// 000 "Grapnels, Ropes, and cords": fatigue endurance deducted for carrying `items`: "heavier length ropes would deduct 1/2", "carrying one \[grapnel\] with a length of rope will deduct 1/2".
///
/// Each grapnel pairs with one rope (not a cord) carried with it; a grapnel without a rope and
/// a light rope alone cost nothing. Costs add up per [`ObstaclesSettings::endurance_costs_add_up`].
pub fn carrying_endurance_cost(items: &[ObstacleItem], settings: &ObstaclesSettings) -> f32 {
    let heavier = items.iter().filter(|i| i.rope_kind().is_some_and(RopeKind::is_heavier)).count();
    let ropes = items.iter().filter(|i| i.rope_kind().is_some_and(|k| k != RopeKind::Cord)).count();
    let grapnels = items.iter().filter(|&&i| i == ObstacleItem::Grapnel).count();
    let costs = heavier + grapnels.min(ropes);
    if costs == 0 {
        0.0
    } else if settings.endurance_costs_add_up {
        costs as f32 * CARRYING_ENDURANCE_COST
    } else {
        CARRYING_ENDURANCE_COST
    }
}

// ---------------------------------------------------------------------------------------------
// Grapnels
// ---------------------------------------------------------------------------------------------

/// 000 "Grapnels, Ropes, and cords": "Normal throwing ranges for grapnels are men 5", and women 4"".
pub fn grapnel_range_in(sex: Sex) -> f32 {
    match sex {
        Sex::Male => GRAPNEL_RANGE_MEN_IN,
        Sex::Female => GRAPNEL_RANGE_WOMEN_IN,
    }
}

crate::rules::named_enum! {
    /// A grapnel throw.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum LodgementOutcome {
        /// Beyond the thrower's range: no throw.
        OutOfRange => "out_of_range",
        /// 6 or more: it lodges.
        Lodged => "lodged",
        /// 5 or less: no lodgement.
        NoLodgement => "no_lodgement",
    }
}

/// 000 "Grapnels, Ropes, and cords": "To gain a lodgement successfully D10 6+ required".
pub fn lodgement_band(total: i32) -> LodgementOutcome {
    if total >= LODGEMENT_FROM { LodgementOutcome::Lodged } else { LodgementOutcome::NoLodgement }
}

/// One grapnel throw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GrapnelThrow {
    /// D10, passed at 6+; `None` when out of range.
    pub roll: Option<Roll>,
    /// Out of range, lodged or not.
    pub outcome: LodgementOutcome,
}

/// 000 "Grapnels, Ropes, and cords": a throw at a purchase point `distance_in` away, within "men 5", and women 4"", lodging on "D10 6+".
pub fn throw_grapnel(sex: Sex, distance_in: f32, src: &mut impl DiceSource) -> GrapnelThrow {
    if distance_in.is_nan() || distance_in > grapnel_range_in(sex) {
        return GrapnelThrow { roll: None, outcome: LodgementOutcome::OutOfRange };
    }
    let roll = Roll::new(Dice::D10, src).at_least(LODGEMENT_FROM);
    let outcome = lodgement_band(roll.total);
    GrapnelThrow { roll: Some(roll), outcome }
}

/// 000 "Grapnels, Ropes, and cords": "If an opponent is within 1" of the lodgement": whether he may try.
pub fn within_throw_down_reach(distance_in: f32) -> bool {
    distance_in <= THROW_DOWN_REACH_IN
}

/// 000 "Grapnels, Ropes, and cords": whether an opponent dices to throw a lodgement down now, per [`ThrowDownTries`].
///
/// `was_within`: he was within 1" at his last chance (false the round it lodges); `is_within`:
/// he is within 1" now; `new_round`: a round has begun since.
pub fn throw_down_due(was_within: bool, is_within: bool, new_round: bool, settings: &ObstaclesSettings) -> bool {
    is_within && (!was_within || (new_round && settings.throw_down_tries == ThrowDownTries::EachRound))
}

crate::rules::named_enum! {
    /// An opponent's try at a lodged grapnel.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ThrowDownOutcome {
        /// Farther than 1" from the lodgement: no roll.
        OutOfReach => "out_of_reach",
        /// 7 or more: thrown down.
        ThrownDown => "thrown_down",
        /// 6 or less: the grapnel holds.
        Holds => "holds",
    }
}

/// 000 "Grapnels, Ropes, and cords": "D10 7+ they throw it down".
pub fn throw_down_band(total: i32) -> ThrowDownOutcome {
    if total >= THROW_DOWN_FROM { ThrowDownOutcome::ThrownDown } else { ThrowDownOutcome::Holds }
}

/// One try at throwing a grapnel down.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThrowDown {
    /// D10, passed at 7+; `None` when out of reach.
    pub roll: Option<Roll>,
    /// Out of reach, thrown down or holds.
    pub outcome: ThrowDownOutcome,
    /// The climbers on its rope, dropped when it is thrown down.
    pub falls: Vec<ClimberFall>,
    /// Setting paths that decided it.
    pub house_rules: Vec<&'static str>,
}

/// 000 "Grapnels, Ropes, and cords": "If an opponent is within 1" of the lodgement D10 7+ they throw it down".
///
/// Reading: a grapnel thrown down drops whoever is on its rope ([`drop_climbers`]).
/// `evil_eye`: the opponent is cursed (001 "Lay an evil eye Curse"), −1 on his D10.
pub fn throw_down_grapnel(
    opponent_distance_in: f32,
    load: &RopeLoad,
    evil_eye: bool,
    settings: &ObstaclesSettings,
    src: &mut impl DiceSource,
) -> ThrowDown {
    if opponent_distance_in.is_nan() || !within_throw_down_reach(opponent_distance_in) {
        let outcome = ThrowDownOutcome::OutOfReach;
        return ThrowDown { roll: None, outcome, falls: Vec::new(), house_rules: Vec::new() };
    }
    let mut roll = Roll::new(Dice::D10, src).at_least(THROW_DOWN_FROM);
    super::magic::apply_evil_eye(&mut roll, evil_eye);
    let outcome = throw_down_band(roll.total);
    let falls = if outcome == ThrowDownOutcome::ThrownDown { drop_climbers(load, settings, src) } else { Vec::new() };
    let mut house_rules = Vec::new();
    if !falls.is_empty() && settings.rope_fall_strike == RopeFallStrike::AsPitFall {
        house_rules.push(ROPE_FALL_STRIKE_PATH);
    }
    ThrowDown { roll: Some(roll), outcome, falls, house_rules }
}

// ---------------------------------------------------------------------------------------------
// Cutting ropes and cords
// ---------------------------------------------------------------------------------------------

/// A weapon used on a rope.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CuttingWeapon {
    /// Its strike factor ("Weapon strike").
    pub strike: i32,
    /// "sharp edged": only these cut.
    pub sharp_edged: bool,
}

/// 000 "Grapnels, Ropes, and cords": "half ropes quabit strength", an odd strength per [`HalfStrengthRounding`].
pub fn half_strength(strength_quabits: u32, rounding: HalfStrengthRounding) -> u32 {
    match rounding {
        HalfStrengthRounding::Up => strength_quabits.div_ceil(2),
        HalfStrengthRounding::Down => strength_quabits / 2,
    }
}

crate::rules::named_enum! {
    /// One round's cutting.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CutOutcome {
        /// The weapon is not sharp edged: no roll.
        NotSharpEdged => "not_sharp_edged",
        /// The rope is already cut or broken: no roll.
        AlreadyParted => "already_parted",
        /// −2 or less: fail.
        Fail => "fail",
        /// −1 or 0: weakened by 2 quabits.
        Weakened => "weakened",
        /// +1 or more: the rope is cut.
        Cut => "cut",
    }
}

/// 000 "Grapnels, Ropes, and cords": "= -2- fail, -1+ weaken -2 quabits, +1 + rope cut" (so −1 and 0 weaken).
pub fn cut_band(total: i32) -> CutOutcome {
    if total >= CUT_FROM {
        CutOutcome::Cut
    } else if total >= CUT_WEAKEN_FROM {
        CutOutcome::Weakened
    } else {
        CutOutcome::Fail
    }
}

/// One round at a rope with a blade.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CutRound {
    /// D10 + weapon strike − half the rope's strength; `None` when no roll is made.
    pub roll: Option<Roll>,
    /// The row.
    pub outcome: CutOutcome,
    /// The rope after (weakened, or parted).
    pub rope: Rope,
    /// A weakened rope's overload roll, when its load now exceeds it.
    pub overload: Option<OverloadCheck>,
    /// The climbers a cut rope drops (a rope broken by the overload lists its own).
    pub falls: Vec<ClimberFall>,
    /// Setting paths that decided it.
    pub house_rules: Vec<&'static str>,
}

/// 000 "Grapnels, Ropes, and cords": "Cutting ropes & cords with sharp edged weapons. Try each round, D10 + Weapon strike - half ropes quabit strength".
///
/// The strength halved is the rope's strength now (after earlier weakenings). A weakened rope
/// whose load now exceeds it rolls for overload ([`resolve_overload`]) when
/// [`overload_roll_due`] says so. A cut rope drops its climbers ([`drop_climbers`]).
/// `evil_eye`: the cutter is cursed (001 "Lay an evil eye Curse"), −1 on his D10.
pub fn resolve_cut(
    rope: &Rope,
    weapon: CuttingWeapon,
    load: &RopeLoad,
    evil_eye: bool,
    settings: &ObstaclesSettings,
    src: &mut impl DiceSource,
) -> CutRound {
    let no_roll = |outcome| CutRound {
        roll: None,
        outcome,
        rope: *rope,
        overload: None,
        falls: Vec::new(),
        house_rules: Vec::new(),
    };
    if rope.parted {
        return no_roll(CutOutcome::AlreadyParted);
    }
    if !weapon.sharp_edged {
        return no_roll(CutOutcome::NotSharpEdged);
    }
    let half = half_strength(rope.strength_quabits, settings.half_strength_rounding);
    let mut house_rules = Vec::new();
    if !rope.strength_quabits.is_multiple_of(2) {
        house_rules.push(HALF_STRENGTH_ROUNDING_PATH);
    }
    let mut roll = Roll::new(Dice::D10, src)
        .modifier("weapon strike", weapon.strike)
        .modifier("half rope's quabit strength", -i32::try_from(half).unwrap_or(i32::MAX));
    super::magic::apply_evil_eye(&mut roll, evil_eye);
    let outcome = cut_band(roll.total);
    let mut after = *rope;
    let mut overload = None;
    let mut falls = Vec::new();
    match outcome {
        CutOutcome::Weakened => {
            after.strength_quabits = rope.strength_quabits.saturating_sub(CUT_WEAKEN_QUABITS);
            let weight = load.weight_quabits();
            let before = raw_excess_quabits(weight, rope.strength_quabits);
            let now = raw_excess_quabits(weight, after.strength_quabits);
            if overload_roll_due(before, now, false, settings) {
                let check = resolve_overload(&after, load, settings, src);
                after = check.rope;
                house_rules.extend(check.house_rules.iter().copied());
                overload = Some(check);
            }
        }
        CutOutcome::Cut => {
            after.parted = true;
            falls = drop_climbers(load, settings, src);
            if !falls.is_empty() && settings.rope_fall_strike == RopeFallStrike::AsPitFall {
                house_rules.push(ROPE_FALL_STRIKE_PATH);
            }
        }
        _ => {}
    }
    CutRound { roll: Some(roll), outcome, rope: after, overload, falls, house_rules }
}

// ---------------------------------------------------------------------------------------------
// Glass-topped walls (001)
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// One try at a high broken-glass-topped wall.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum GlassWallOutcome {
        /// At or over the target: over the wall.
        Climbed => "climbed",
        /// Under it: still at the foot; the text names no harm.
        FailsToClimb => "fails_to_climb",
    }
}

/// One try at the wall.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GlassWallClimb {
    /// The house-rule dice −2, +1 with cloth or newspaper, against the house-rule target.
    pub roll: Roll,
    /// Climbed or not.
    pub outcome: GlassWallOutcome,
    /// Setting paths that decided it: the dice and the target, always.
    pub house_rules: Vec<&'static str>,
}

/// 001 "Climbing over High broken glass topped walls": "Pst AvD –2 (+1 if cloth or newspaper used)".
///
/// "Pst AvD" is not explained anywhere in the sources, so the dice and the target are house
/// rules ([`ObstaclesSettings::glass_wall_dice`], [`ObstaclesSettings::glass_wall_target`];
/// default D6, 3+, as the running roll of 001 "Cattle Grids", "Running D6 3+ OK").
pub fn climb_glass_wall(
    cloth_or_newspaper: bool,
    settings: &ObstaclesSettings,
    src: &mut impl DiceSource,
) -> GlassWallClimb {
    let roll = Roll::new(settings.glass_wall_dice, src)
        .modifier("Pst AvD", GLASS_WALL_FACTOR)
        .modifier("cloth or newspaper used", if cloth_or_newspaper { CLOTH_OR_NEWSPAPER_FACTOR } else { 0 })
        .at_least(settings.glass_wall_target);
    let outcome = if roll.passed() == Some(true) { GlassWallOutcome::Climbed } else { GlassWallOutcome::FailsToClimb };
    GlassWallClimb { roll, outcome, house_rules: vec![GLASS_WALL_DICE_PATH, GLASS_WALL_TARGET_PATH] }
}

// ---------------------------------------------------------------------------------------------
// Cattle-grid planks (001)
// ---------------------------------------------------------------------------------------------

/// Planks over a cattle grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PlankWork {
    /// Rounds of laying done.
    pub rounds_worked: u32,
    /// Rounds still needed (0 when laid).
    pub rounds_left: u32,
    /// The planks are across the grid.
    pub laid: bool,
}

/// 001 "Cattle Grids": "Takes one man 3 rounds to emplace": the planks after `rounds_worked` rounds.
pub fn plank_work(rounds_worked: u32) -> PlankWork {
    PlankWork {
        rounds_worked,
        rounds_left: PLANK_LAYING_ROUNDS.saturating_sub(rounds_worked),
        laid: rounds_worked >= PLANK_LAYING_ROUNDS,
    }
}

/// 001 "Cattle Grids": one round of `men` laying the planks "usually left beside Grid".
///
/// Nothing is done without planks at hand or without a man. Several men count as one unless
/// [`ObstaclesSettings::plank_layers_share_work`].
pub fn lay_planks_round(work: PlankWork, men: u32, planks_at_hand: bool, settings: &ObstaclesSettings) -> PlankWork {
    if work.laid || !planks_at_hand || men == 0 {
        return work;
    }
    let rounds = if settings.plank_layers_share_work { men } else { 1 };
    plank_work(work.rounds_worked.saturating_add(rounds))
}

crate::rules::named_enum! {
    /// A vehicle at a cattle grid.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum VehicleKind {
        /// A horse-drawn wagon.
        #[default]
        Wagon => "wagon",
        /// A horse-drawn cart.
        Cart => "cart",
        /// A handcart, pushed by men: not horse drawn.
        Handcart => "handcart",
    }
}

impl VehicleKind {
    /// Whether horses draw it.
    pub fn horse_drawn(self) -> bool {
        !matches!(self, VehicleKind::Handcart)
    }
}

/// 001 "Cattle Grids": "Planks needed to allow horse drawn vehicles to cross": whether a vehicle crosses a grid.
///
/// Reading: a vehicle not horse drawn is not held by the grid (the text names only horse-drawn
/// ones; the men pushing it cross as walkers).
pub fn vehicle_can_cross(kind: VehicleKind, planks_laid: bool) -> bool {
    planks_laid || !kind.horse_drawn()
}

// ---------------------------------------------------------------------------------------------
// Outcomes and rolls
// ---------------------------------------------------------------------------------------------

crate::rules::outcome::impl_outcome! {
    OverloadOutcome => |o| Meaning::NONE;
    LodgementOutcome => |o| Meaning::NONE;
    ThrowDownOutcome => |o| Meaning::NONE;
    CutOutcome => |o| Meaning::NONE;
    GlassWallOutcome => |o| Meaning::NONE;
}

// The rolls of each report in the order they were rolled (new events: no earlier log to keep).

impl Rolls for RiderStakeStrike {
    /// The strike, if any.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.strike.push_rolls(out);
    }
}

impl Rolls for ClimberFall {
    /// The fall's strike, if rolled.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.strike.push_rolls(out);
    }
}

impl Rolls for OverloadCheck {
    /// The D6, then each fall.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
        self.falls.push_rolls(out);
    }
}

impl Rolls for GrapnelThrow {
    /// The D10, if thrown.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for ThrowDown {
    /// The D10, then each fall.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
        self.falls.push_rolls(out);
    }
}

impl Rolls for CutRound {
    /// The D10, the overload check's rolls, then each fall.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
        self.overload.push_rolls(out);
        self.falls.push_rolls(out);
    }
}

impl Rolls for GlassWallClimb {
    /// The roll.
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
    use crate::rules::house_rules::is_house_rule_reason;
    use crate::rules::stats::chi_square;

    /// Chi-square 99.9% critical values by degrees of freedom.
    const CHI_SQUARE_1_DF_999: f64 = 10.828;
    const CHI_SQUARE_2_DF_999: f64 = 13.816;

    fn settings() -> ObstaclesSettings {
        ObstaclesSettings::default()
    }

    fn mods(roll: &Roll) -> Vec<(&str, i32)> {
        roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect()
    }

    fn no_dice() -> crate::rules::dice::ScriptedFaces {
        ScriptedDice::faces(Vec::<u32>::new())
    }

    fn on_earth(climbers: &[Climber]) -> RopeLoad<'_> {
        RopeLoad { climbers, ground: PitBottom::Earth }
    }

    /// A climber of `weight` standing at the foot of the rope (no fall to roll).
    fn at_foot(weight: f32) -> Climber {
        Climber { weight_quabits: weight, height_in: 0.0 }
    }

    // ---- sharpened stakes ----

    #[test]
    fn stakes_take_two_moves_to_fell_and_three_to_position() {
        let w = |stage, moves_left| StakeWork { stage, moves_left };
        assert_eq!(stake_work(0), w(StakeStage::Felling, 5));
        assert_eq!(stake_work(1), w(StakeStage::Felling, 4));
        assert_eq!(stake_work(2), w(StakeStage::Positioning, 3));
        assert_eq!(stake_work(4), w(StakeStage::Positioning, 1));
        assert_eq!(stake_work(5), w(StakeStage::Ready, 0));
        assert_eq!(stake_work(9), w(StakeStage::Ready, 0));
    }

    #[test]
    fn rider_speed_band_edges() {
        assert_eq!(stake_speed(24.0), StakeSpeed::FifteenPlus);
        assert_eq!(stake_speed(15.0), StakeSpeed::FifteenPlus);
        assert_eq!(stake_speed(14.9), StakeSpeed::TenPlus);
        assert_eq!(stake_speed(10.0), StakeSpeed::TenPlus);
        assert_eq!(stake_speed(9.9), StakeSpeed::SixPlus);
        assert_eq!(stake_speed(6.0), StakeSpeed::SixPlus);
        assert_eq!(stake_speed(5.9), StakeSpeed::UnderSix);
        assert_eq!(stake_speed(0.0), StakeSpeed::UnderSix);
        assert_eq!(stake_speed(f32::NAN), StakeSpeed::UnderSix);
    }

    #[test]
    fn rider_strike_rows() {
        let s = settings();
        let strike = |speed: f32, face: u32| {
            let r = rider_stake_strike(speed, 2, &s, &mut ScriptedDice::faces([face]));
            r.strike.expect("a strike at 6\"+")
        };
        // D10 5 + F 2 − 4 = 3 at 15"+.
        let r = strike(15.0, 5);
        assert_eq!((mods(&r), r.total), (vec![("F", 2), ("speed 15\"+", -4)], 3));
        let r = strike(14.5, 5);
        assert_eq!((mods(&r), r.total), (vec![("F", 2), ("speed 10\"+", -5)], 2));
        let r = strike(10.0, 5);
        assert_eq!(r.total, 2);
        let r = strike(9.5, 5);
        assert_eq!((mods(&r), r.total), (vec![("F", 2), ("speed 6\"+", -6)], 1));
        let r = strike(6.0, 0);
        assert_eq!(r.total, -4);
        // No F: no factor logged.
        let r = rider_stake_strike(15.0, 0, &s, &mut ScriptedDice::faces([9])).strike.expect("strike");
        assert_eq!((mods(&r), r.total), (vec![("speed 15\"+", -4)], 5));
        // Under 6": no row, nothing rolled.
        let mut dice = no_dice();
        let r = rider_stake_strike(5.9, 2, &s, &mut dice);
        assert_eq!((r.speed, r.strike), (StakeSpeed::UnderSix, None));
        assert_eq!(r.house_rules, vec![SLOW_RIDERS_PATH]);
        assert!(dice.is_empty());
        // The other reading: as 6"+, tagged.
        let as_six = ObstaclesSettings { slow_riders: SlowRiderStrike::AsSixInches, ..settings() };
        let r = rider_stake_strike(5.9, 2, &as_six, &mut ScriptedDice::faces([5]));
        let roll = r.strike.expect("a strike under the reading");
        assert_eq!(roll.total, 1);
        assert_eq!(roll.modifiers[1].value, -6);
        assert!(is_house_rule_reason(&roll.modifiers[1].reason));
        assert!(!is_house_rule_reason(&roll.modifiers[0].reason));
        // At 6"+ the text decides: no house rule.
        assert!(rider_stake_strike(6.0, 0, &s, &mut ScriptedDice::faces([1])).house_rules.is_empty());
    }

    #[test]
    fn stakes_move_losses() {
        let m = stakes_move;
        let sm = |loss_in, move_in| StakesMove { loss_in, move_in };
        // Foot attacking: −1" from a normal move, −3" from a charge move.
        assert_eq!(m(6.0, Troop::Foot, StakeSide::SharpSide, false), sm(1.0, 5.0));
        assert_eq!(m(12.0, Troop::Foot, StakeSide::SharpSide, true), sm(3.0, 9.0));
        // Riders attacking lose no inches (strike and melee only).
        assert_eq!(m(12.0, Troop::Rider, StakeSide::SharpSide, true), sm(0.0, 12.0));
        // Advancing from behind: riders −3", foot −1", charging or not.
        assert_eq!(m(12.0, Troop::Rider, StakeSide::Behind, false), sm(3.0, 9.0));
        assert_eq!(m(12.0, Troop::Rider, StakeSide::Behind, true), sm(3.0, 9.0));
        assert_eq!(m(6.0, Troop::Foot, StakeSide::Behind, false), sm(1.0, 5.0));
        assert_eq!(m(12.0, Troop::Foot, StakeSide::Behind, true), sm(1.0, 11.0));
        // Never below 0.
        assert_eq!(m(2.0, Troop::Foot, StakeSide::SharpSide, true), sm(3.0, 0.0));
        assert_eq!(m(1.0, Troop::Foot, StakeSide::SharpSide, false), sm(1.0, 0.0));
    }

    #[test]
    fn stakes_melee_rows() {
        let s = settings();
        let melee = |loses_charge_bonus, melee_factor| StakesMelee { loses_charge_bonus, melee_factor };
        assert_eq!(stakes_melee(Troop::Rider, StakeSide::SharpSide, &s), melee(true, -1));
        assert_eq!(stakes_melee(Troop::Foot, StakeSide::SharpSide, &s), melee(true, 0));
        assert_eq!(stakes_melee(Troop::Rider, StakeSide::Behind, &s), melee(false, 0));
        assert_eq!(stakes_melee(Troop::Foot, StakeSide::Behind, &s), melee(false, 0));
        let foot_too = ObstaclesSettings { foot_melee_from_sharp_side: true, ..settings() };
        assert_eq!(stakes_melee(Troop::Foot, StakeSide::SharpSide, &foot_too), melee(true, -1));
        assert_eq!(stakes_melee(Troop::Foot, StakeSide::Behind, &foot_too), melee(false, 0));
    }

    // ---- ropes and cords ----

    #[test]
    fn rope_strengths_follow_the_text() {
        assert_eq!(RopeKind::Light.strength_quabits(), 5);
        assert_eq!(RopeKind::Permanent.strength_quabits(), 10);
        assert_eq!(RopeKind::ShipsGrapnel.strength_quabits(), 10);
        assert_eq!(RopeKind::Mooring.strength_quabits(), 20);
        assert_eq!(RopeKind::Cord.strength_quabits(), 1);
        assert!(!RopeKind::Light.is_heavier());
        assert!(!RopeKind::Cord.is_heavier());
        assert!(RopeKind::Permanent.is_heavier() && RopeKind::ShipsGrapnel.is_heavier());
        assert!(RopeKind::Mooring.is_heavier());
        let r = Rope::standard(RopeKind::Light);
        assert_eq!((r.length_hets, r.strength_quabits, r.parted), (6.0, 5, false));
    }

    #[test]
    fn hets_quabits_and_persons() {
        let s = settings();
        // "six het lengths (6 table inches)".
        assert_eq!(hets_to_inches(STANDARD_LENGTH_HETS, &s), STANDARD_LENGTH_IN);
        assert_eq!(hets_to_inches(0.5, &s), 0.5);
        let six = ObstaclesSettings { inches_per_het: 6.0, ..settings() };
        assert_eq!(hets_to_inches(6.0, &six), 36.0);
        assert!(rope_reaches(6.0, 6.0, &s));
        assert!(!rope_reaches(6.0, 6.5, &s));
        // 5 quabits is "one and a quarter average persons": a person is 4 quabits, 64 kilos.
        assert_eq!(AVERAGE_PERSON_QUABITS, 4.0);
        assert_eq!(quabits_to_kilograms(AVERAGE_PERSON_QUABITS), 64.0);
        assert_eq!(Climber::average_person(2.0), Climber { weight_quabits: 4.0, height_in: 2.0 });
        assert!((quabits_to_pounds(1.0) - 35.27).abs() < 0.01);
    }

    #[test]
    fn a_quarter_het_of_cord_binds_a_prisoner() {
        assert_eq!(prisoners_bound_by(0.25), 1);
        assert_eq!(prisoners_bound_by(0.24), 0);
        assert_eq!(prisoners_bound_by(0.5), 2);
        assert_eq!(prisoners_bound_by(0.74), 2);
        // A six-het ball binds 24.
        assert_eq!(prisoners_bound_by(6.0), 24);
        assert_eq!(prisoners_bound_by(0.0), 0);
        assert_eq!(prisoners_bound_by(-1.0), 0);
        assert_eq!(prisoners_bound_by(f32::NAN), 0);
    }

    #[test]
    fn overload_band_edges() {
        assert_eq!(overload_band(-5), OverloadOutcome::Breaks);
        assert_eq!(overload_band(2), OverloadOutcome::Breaks);
        assert_eq!(overload_band(3), OverloadOutcome::Holds);
        assert_eq!(overload_band(6), OverloadOutcome::Holds);
    }

    #[test]
    fn excess_quabits_by_reading() {
        assert_eq!(excess_quabits(5.0, 5, ExcessRounding::Up), 0);
        assert_eq!(excess_quabits(4.0, 5, ExcessRounding::Up), 0);
        assert_eq!(excess_quabits(5.5, 5, ExcessRounding::Up), 1);
        assert_eq!(excess_quabits(5.5, 5, ExcessRounding::Down), 0);
        assert_eq!(excess_quabits(6.0, 5, ExcessRounding::Up), 1);
        assert_eq!(excess_quabits(6.0, 5, ExcessRounding::Down), 1);
        assert_eq!(excess_quabits(8.0, 5, ExcessRounding::Up), 3);
        assert_eq!(raw_excess_quabits(f32::NAN, 5), 0.0);
    }

    #[test]
    fn overload_rows() {
        let s = settings();
        let rope = Rope::standard(RopeKind::Light);
        // At its strength: not overloaded, no roll.
        let five = [at_foot(5.0)];
        let mut dice = no_dice();
        let c = resolve_overload(&rope, &on_earth(&five), &s, &mut dice);
        assert_eq!((c.outcome, c.excess_quabits, c.roll), (OverloadOutcome::NotOverloaded, 0, None));
        assert!(dice.is_empty());
        // 6 on 5: one excess quabit, D6 − 1: a 3 is 2, breaks; a 4 is 3, holds.
        let six = [at_foot(6.0)];
        let c = resolve_overload(&rope, &on_earth(&six), &s, &mut ScriptedDice::faces([4]));
        let roll = c.roll.as_ref().expect("overloaded");
        assert_eq!((mods(roll), roll.total, roll.target), (vec![("1 excess quabit", -1)], 3, Some(2)));
        assert_eq!((c.outcome, c.rope.parted, roll.passed()), (OverloadOutcome::Holds, false, Some(false)));
        let c = resolve_overload(&rope, &on_earth(&six), &s, &mut ScriptedDice::faces([3]));
        assert_eq!((c.outcome, c.rope.parted), (OverloadOutcome::Breaks, true));
        assert!(c.falls.is_empty(), "a climber at the foot does not fall");
        assert!(c.house_rules.is_empty());
        // Two persons on a light rope: 3 excess; a 5 is 2, breaks; a 6 is 3, holds.
        let two = [at_foot(4.0), at_foot(4.0)];
        let c = resolve_overload(&rope, &on_earth(&two), &s, &mut ScriptedDice::faces([5]));
        assert_eq!((c.excess_quabits, c.outcome), (3, OverloadOutcome::Breaks));
        let c = resolve_overload(&rope, &on_earth(&two), &s, &mut ScriptedDice::faces([6]));
        assert_eq!(c.outcome, OverloadOutcome::Holds);
        // Half a quabit over: one counted (up), tagged with the reading; or none (down), D6 bare.
        let over = [at_foot(5.5)];
        let c = resolve_overload(&rope, &on_earth(&over), &s, &mut ScriptedDice::faces([3]));
        assert_eq!((c.excess_quabits, c.outcome), (1, OverloadOutcome::Breaks));
        assert_eq!(c.house_rules, vec![EXCESS_ROUNDING_PATH]);
        let down = ObstaclesSettings { excess_rounding: ExcessRounding::Down, ..settings() };
        let c = resolve_overload(&rope, &on_earth(&over), &down, &mut ScriptedDice::faces([3]));
        assert_eq!((c.excess_quabits, c.outcome), (0, OverloadOutcome::Holds));
        assert!(c.roll.as_ref().expect("still overloaded").modifiers.is_empty());
        let c = resolve_overload(&rope, &on_earth(&over), &down, &mut ScriptedDice::faces([2]));
        assert_eq!(c.outcome, OverloadOutcome::Breaks);
    }

    #[test]
    fn a_broken_rope_drops_its_climbers() {
        let s = settings();
        let rope = Rope::standard(RopeKind::Light);
        // A person 3" up and one at the foot: 8 quabits, 3 excess. D6 1 breaks; the fall D10 5:
        // 5 − 4 (earth, the first inch) + 2 (two extra inches) = 3.
        let climbers = [Climber::average_person(3.0), Climber::average_person(0.0)];
        let mut dice = ScriptedDice::faces([1, 5]);
        let c = resolve_overload(&rope, &on_earth(&climbers), &s, &mut dice);
        assert!(dice.is_empty());
        assert_eq!(c.outcome, OverloadOutcome::Breaks);
        assert_eq!(c.falls.len(), 1);
        let fall = &c.falls[0];
        assert_eq!((fall.climber, fall.height_in), (0, 3.0));
        let strike = fall.strike.as_ref().expect("as a pit fall");
        assert_eq!(strike.modifiers.iter().map(|m| m.value).collect::<Vec<_>>(), vec![-4, 2]);
        assert!(strike.modifiers.iter().all(|m| is_house_rule_reason(&m.reason)));
        assert_eq!(strike.total, 3);
        assert_eq!(c.house_rules, vec![ROPE_FALL_STRIKE_PATH]);
        let rolls = c.rolls();
        assert_eq!(rolls.iter().map(|r| r.dice).collect::<Vec<_>>(), vec![Dice::D6, Dice::D10]);
        // Rocky ground, half an inch up: the first inch only, −3.
        let low = [Climber { weight_quabits: 6.0, height_in: 0.5 }];
        let load = RopeLoad { climbers: &low, ground: PitBottom::Rocky };
        let c = resolve_overload(&rope, &load, &s, &mut ScriptedDice::faces([1, 9]));
        let strike = c.falls[0].strike.as_ref().expect("a strike");
        assert_eq!((strike.modifiers.len(), strike.total), (1, 6));
        // Not rolled: the fall is reported with no strike and no die.
        let unrolled = ObstaclesSettings { rope_fall_strike: RopeFallStrike::NotRolled, ..settings() };
        let mut dice = ScriptedDice::faces([1]);
        let c = resolve_overload(&rope, &on_earth(&climbers), &unrolled, &mut dice);
        assert!(dice.is_empty());
        assert_eq!((c.falls.len(), c.falls[0].strike.clone()), (1, None));
        assert!(c.house_rules.is_empty());
    }

    #[test]
    fn when_an_overloaded_rope_rolls() {
        let s = settings();
        assert!(overload_roll_due(0.0, 1.0, false, &s));
        assert!(overload_roll_due(1.0, 3.0, false, &s));
        assert!(!overload_roll_due(1.0, 1.0, true, &s), "it held this load");
        assert!(!overload_roll_due(2.0, 0.0, true, &s), "not overloaded");
        let each = ObstaclesSettings { overload_rolls: OverloadRolls::EachRound, ..settings() };
        assert!(overload_roll_due(1.0, 1.0, true, &each));
        assert!(!overload_roll_due(1.0, 1.0, false, &each));
        assert!(!overload_roll_due(0.0, 0.0, true, &each));
    }

    // ---- carrying ----

    #[test]
    fn carrying_heavier_ropes_and_grapnels_costs_half_endurance() {
        use ObstacleItem::*;
        let s = settings();
        let cost = |items: &[ObstacleItem]| carrying_endurance_cost(items, &s);
        assert_eq!(cost(&[]), 0.0);
        assert_eq!(cost(&[LightRope]), 0.0);
        assert_eq!(cost(&[CordBall]), 0.0);
        assert_eq!(cost(&[Grapnel]), 0.0, "a grapnel without a rope");
        assert_eq!(cost(&[Grapnel, CordBall]), 0.0, "a cord is not a rope");
        assert_eq!(cost(&[PermanentRope]), 0.5);
        assert_eq!(cost(&[ShipsGrapnelRope]), 0.5);
        assert_eq!(cost(&[MooringRope, PermanentRope]), 1.0);
        assert_eq!(cost(&[Grapnel, LightRope]), 0.5);
        assert_eq!(cost(&[Grapnel, Grapnel, LightRope]), 0.5, "one rope for one grapnel");
        assert_eq!(cost(&[Grapnel, PermanentRope]), 1.0);
        let once = ObstaclesSettings { endurance_costs_add_up: false, ..settings() };
        assert_eq!(carrying_endurance_cost(&[Grapnel, PermanentRope], &once), 0.5);
        assert_eq!(carrying_endurance_cost(&[LightRope], &once), 0.0);
    }

    #[test]
    fn item_weights_come_from_the_settings() {
        use ObstacleItem::*;
        let w = ItemWeights {
            light_rope: 1.0,
            permanent_rope: 2.0,
            ships_grapnel_rope: 3.0,
            mooring_rope: 4.0,
            cord_ball: 5.0,
            grapnel: 6.0,
        };
        let each: Vec<f32> = ObstacleItem::ALL.iter().map(|i| i.weight_quabits(&w)).collect();
        assert_eq!(each, vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(inventory_weight_quabits(&[LightRope, Grapnel, Grapnel], &w), 13.0);
        assert_eq!(inventory_weight_quabits(&[], &w), 0.0);
        assert_eq!(inventory_weight_quabits(&[LightRope, Grapnel], &ItemWeights::default()), 0.5);
        assert_eq!(Grapnel.rope_kind(), None);
        assert_eq!(CordBall.rope_kind(), Some(RopeKind::Cord));
    }

    // ---- grapnels ----

    #[test]
    fn grapnel_ranges_and_lodgement_edges() {
        assert_eq!(grapnel_range_in(Sex::Male), 5.0);
        assert_eq!(grapnel_range_in(Sex::Female), 4.0);
        assert_eq!(lodgement_band(5), LodgementOutcome::NoLodgement);
        assert_eq!(lodgement_band(6), LodgementOutcome::Lodged);
        let t = throw_grapnel(Sex::Male, 5.0, &mut ScriptedDice::faces([6]));
        assert_eq!(t.outcome, LodgementOutcome::Lodged);
        assert_eq!(t.roll.as_ref().map(|r| (r.target, r.passed())), Some((Some(6), Some(true))));
        let t = throw_grapnel(Sex::Male, 5.0, &mut ScriptedDice::faces([5]));
        assert_eq!(t.outcome, LodgementOutcome::NoLodgement);
        let mut dice = no_dice();
        assert_eq!(throw_grapnel(Sex::Male, 5.01, &mut dice).outcome, LodgementOutcome::OutOfRange);
        assert_eq!(throw_grapnel(Sex::Female, 4.01, &mut dice).outcome, LodgementOutcome::OutOfRange);
        assert_eq!(throw_grapnel(Sex::Female, f32::NAN, &mut dice).outcome, LodgementOutcome::OutOfRange);
        assert!(dice.is_empty());
        let t = throw_grapnel(Sex::Female, 4.0, &mut ScriptedDice::faces([9]));
        assert_eq!(t.outcome, LodgementOutcome::Lodged);
        let t = throw_grapnel(Sex::Female, 4.0, &mut ScriptedDice::faces([0]));
        assert_eq!(t.outcome, LodgementOutcome::NoLodgement);
    }

    #[test]
    fn throw_down_rows() {
        let s = settings();
        assert_eq!(throw_down_band(6), ThrowDownOutcome::Holds);
        assert_eq!(throw_down_band(7), ThrowDownOutcome::ThrownDown);
        assert!(within_throw_down_reach(1.0));
        assert!(!within_throw_down_reach(1.01));
        // Within 1": a 7 throws it down and drops the climber 2.5" up (D10 4: 4 − 4 + 1 = 1).
        let up = [Climber::average_person(2.5)];
        let mut dice = ScriptedDice::faces([7, 4]);
        let t = throw_down_grapnel(1.0, &on_earth(&up), false, &s, &mut dice);
        assert!(dice.is_empty());
        assert_eq!(t.outcome, ThrowDownOutcome::ThrownDown);
        assert_eq!(t.falls.len(), 1);
        assert_eq!(t.falls[0].strike.as_ref().map(|r| r.total), Some(1));
        assert_eq!(t.house_rules, vec![ROPE_FALL_STRIKE_PATH]);
        // A 6 holds: nobody falls.
        let t = throw_down_grapnel(0.5, &on_earth(&up), false, &s, &mut ScriptedDice::faces([6]));
        assert_eq!((t.outcome, t.falls.len()), (ThrowDownOutcome::Holds, 0));
        // The same 7 by a cursed opponent is 6: it holds.
        let t = throw_down_grapnel(0.5, &on_earth(&up), true, &s, &mut ScriptedDice::faces([7]));
        assert_eq!((t.roll.as_ref().map(|r| r.total), t.outcome, t.falls.len()), (Some(6), ThrowDownOutcome::Holds, 0));
        // Thrown down with no one on it.
        let t = throw_down_grapnel(0.0, &NO_LOAD, false, &s, &mut ScriptedDice::faces([9]));
        assert_eq!((t.outcome, t.falls.len()), (ThrowDownOutcome::ThrownDown, 0));
        assert!(t.house_rules.is_empty());
        // Beyond 1": no roll.
        let mut dice = no_dice();
        let t = throw_down_grapnel(1.01, &on_earth(&up), false, &s, &mut dice);
        assert_eq!((t.outcome, t.roll), (ThrowDownOutcome::OutOfReach, None));
        assert!(dice.is_empty());
    }

    #[test]
    fn when_an_opponent_tries_to_throw_it_down() {
        let s = settings();
        assert!(throw_down_due(false, true, false, &s), "comes within 1\"");
        assert!(!throw_down_due(true, true, true, &s), "once per approach");
        assert!(!throw_down_due(true, false, true, &s));
        assert!(!throw_down_due(false, false, true, &s));
        let each = ObstaclesSettings { throw_down_tries: ThrowDownTries::EachRound, ..settings() };
        assert!(throw_down_due(true, true, true, &each));
        assert!(!throw_down_due(true, true, false, &each));
        assert!(!throw_down_due(true, false, true, &each));
    }

    // ---- cutting ----

    #[test]
    fn cut_band_edges() {
        assert_eq!(cut_band(-3), CutOutcome::Fail);
        assert_eq!(cut_band(-2), CutOutcome::Fail);
        assert_eq!(cut_band(-1), CutOutcome::Weakened);
        assert_eq!(cut_band(0), CutOutcome::Weakened);
        assert_eq!(cut_band(1), CutOutcome::Cut);
        assert_eq!(cut_band(12), CutOutcome::Cut);
    }

    #[test]
    fn half_strength_by_reading() {
        assert_eq!(half_strength(5, HalfStrengthRounding::Up), 3);
        assert_eq!(half_strength(5, HalfStrengthRounding::Down), 2);
        assert_eq!(half_strength(10, HalfStrengthRounding::Up), 5);
        assert_eq!(half_strength(10, HalfStrengthRounding::Down), 5);
        assert_eq!(half_strength(1, HalfStrengthRounding::Up), 1);
        assert_eq!(half_strength(1, HalfStrengthRounding::Down), 0);
        assert_eq!(half_strength(0, HalfStrengthRounding::Up), 0);
    }

    #[test]
    fn cutting_rows_through_the_roll() {
        let s = settings();
        let light = Rope::standard(RopeKind::Light);
        let blade = |strike| CuttingWeapon { strike, sharp_edged: true };
        let cut = |rope: &Rope, strike, face, s: &ObstaclesSettings| {
            resolve_cut(rope, blade(strike), &NO_LOAD, false, s, &mut ScriptedDice::faces([face]))
        };
        // Light rope (5, half 3 rounded up), strike 0: the total is the face − 3.
        let c = cut(&light, 0, 1, &s);
        assert_eq!((c.roll.as_ref().map(|r| r.total), c.outcome), (Some(-2), CutOutcome::Fail));
        assert_eq!(c.rope, light);
        let c = cut(&light, 0, 2, &s);
        assert_eq!((c.roll.as_ref().map(|r| r.total), c.outcome), (Some(-1), CutOutcome::Weakened));
        assert_eq!((c.rope.strength_quabits, c.rope.parted), (3, false));
        let c = cut(&light, 0, 3, &s);
        assert_eq!((c.roll.as_ref().map(|r| r.total), c.outcome), (Some(0), CutOutcome::Weakened));
        let c = cut(&light, 0, 4, &s);
        assert_eq!((c.roll.as_ref().map(|r| r.total), c.outcome), (Some(1), CutOutcome::Cut));
        assert!(c.rope.parted);
        assert_eq!(mods(c.roll.as_ref().expect("rolled")), vec![("half rope's quabit strength", -3)]);
        assert_eq!(c.house_rules, vec![HALF_STRENGTH_ROUNDING_PATH]);
        // A cursed cutter's 4 is a 0: weakened, not cut; his 5 is a 1: cut.
        let cursed = |face| resolve_cut(&light, blade(0), &NO_LOAD, true, &s, &mut ScriptedDice::faces([face]));
        let c = cursed(4);
        assert_eq!((c.roll.as_ref().map(|r| r.total), c.outcome), (Some(0), CutOutcome::Weakened));
        assert!(mods(c.roll.as_ref().expect("rolled")).contains(&(crate::rules::magic::EVIL_EYE_REASON, -1)));
        assert_eq!(cursed(5).outcome, CutOutcome::Cut);
        // A weapon strike counts.
        let c = cut(&light, 2, 2, &s);
        let roll = c.roll.as_ref().expect("rolled");
        assert_eq!(mods(roll), vec![("weapon strike", 2), ("half rope's quabit strength", -3)]);
        assert_eq!((roll.total, c.outcome), (1, CutOutcome::Cut));
        // Rounded down: half 2; a 0 is −2, fails; a 1 is −1, weakens.
        let down = ObstaclesSettings { half_strength_rounding: HalfStrengthRounding::Down, ..settings() };
        assert_eq!(cut(&light, 0, 0, &down).outcome, CutOutcome::Fail);
        assert_eq!(cut(&light, 0, 1, &down).outcome, CutOutcome::Weakened);
        // An even strength needs no rounding: permanent rope, half 5.
        let permanent = Rope::standard(RopeKind::Permanent);
        let c = cut(&permanent, 0, 5, &s);
        assert_eq!((c.roll.as_ref().map(|r| r.total), c.outcome), (Some(0), CutOutcome::Weakened));
        assert!(c.house_rules.is_empty());
        assert_eq!(c.rope.strength_quabits, 8);
        // Weakened again from 3 to 1; a cord (1) to 0, never below.
        let weak = Rope { strength_quabits: 3, ..light };
        assert_eq!(cut(&weak, 0, 1, &s).rope.strength_quabits, 1);
        let cord = Rope::standard(RopeKind::Cord);
        let c = cut(&cord, 0, 0, &s);
        assert_eq!((c.roll.as_ref().map(|r| r.total), c.outcome), (Some(-1), CutOutcome::Weakened));
        assert_eq!(c.rope.strength_quabits, 0);
        // No roll: a blunt weapon, or a rope already parted.
        let mut dice = no_dice();
        let c = resolve_cut(&light, CuttingWeapon { strike: 3, sharp_edged: false }, &NO_LOAD, false, &s, &mut dice);
        assert_eq!((c.outcome, c.roll), (CutOutcome::NotSharpEdged, None));
        let parted = Rope { parted: true, ..light };
        let c = resolve_cut(&parted, blade(3), &NO_LOAD, false, &s, &mut dice);
        assert_eq!((c.outcome, c.roll), (CutOutcome::AlreadyParted, None));
        assert!(dice.is_empty());
    }

    #[test]
    fn a_weakened_rope_under_load_rolls_for_overload() {
        let s = settings();
        let light = Rope::standard(RopeKind::Light);
        let blade = CuttingWeapon { strike: 0, sharp_edged: true };
        let one = [Climber::average_person(3.0)];
        // D10 2: −1, weakened to 3 under 4 quabits: one excess. D6 3 − 1 = 2 breaks; the fall
        // D10 5 − 4 + 2 = 3.
        let mut dice = ScriptedDice::faces([2, 3, 5]);
        let c = resolve_cut(&light, blade, &on_earth(&one), false, &s, &mut dice);
        assert!(dice.is_empty());
        assert_eq!(c.outcome, CutOutcome::Weakened);
        let o = c.overload.as_ref().expect("now overloaded");
        assert_eq!((o.excess_quabits, o.outcome), (1, OverloadOutcome::Breaks));
        assert_eq!((c.rope.parted, c.rope.strength_quabits), (true, 3));
        assert_eq!(o.falls.len(), 1);
        assert!(c.falls.is_empty());
        assert_eq!(c.rolls().iter().map(|r| r.dice).collect::<Vec<_>>(), vec![Dice::D10, Dice::D6, Dice::D10]);
        assert!(c.house_rules.contains(&ROPE_FALL_STRIKE_PATH));
        // D6 4 − 1 = 3 holds.
        let c = resolve_cut(&light, blade, &on_earth(&one), false, &s, &mut ScriptedDice::faces([2, 4]));
        assert_eq!(c.overload.as_ref().map(|o| o.outcome), Some(OverloadOutcome::Holds));
        assert!(!c.rope.parted);
        // A permanent rope weakened to 8 still carries 4: no overload roll.
        let permanent = Rope::standard(RopeKind::Permanent);
        let mut dice = ScriptedDice::faces([4]);
        let c = resolve_cut(&permanent, blade, &on_earth(&one), false, &s, &mut dice);
        assert_eq!((c.outcome, c.overload.is_none()), (CutOutcome::Weakened, true));
        assert!(dice.is_empty());
    }

    #[test]
    fn a_cut_rope_drops_its_climbers() {
        let s = settings();
        let light = Rope::standard(RopeKind::Light);
        let blade = CuttingWeapon { strike: 3, sharp_edged: true };
        let two = [Climber::average_person(4.0), Climber::average_person(1.0)];
        // D10 9 + 3 − 3 = 9: cut. Falls: 0 − 4 + 3 = −1 from 4"; 9 − 4 = 5 from 1".
        let mut dice = ScriptedDice::faces([9, 0, 9]);
        let c = resolve_cut(&light, blade, &on_earth(&two), false, &s, &mut dice);
        assert!(dice.is_empty());
        assert_eq!(c.outcome, CutOutcome::Cut);
        let falls: Vec<(usize, f32, Option<i32>)> =
            c.falls.iter().map(|f| (f.climber, f.height_in, f.strike.as_ref().map(|r| r.total))).collect();
        assert_eq!(falls, vec![(0, 4.0, Some(-1)), (1, 1.0, Some(5))]);
        assert!(c.overload.is_none());
    }

    // ---- glass-topped walls ----

    #[test]
    fn glass_wall_rows_under_the_default() {
        let s = settings();
        let climb = |cloth, face| climb_glass_wall(cloth, &s, &mut ScriptedDice::faces([face]));
        // D6 − 2 against 3+: a 4 is 2, fails; a 5 is 3, over.
        let c = climb(false, 4);
        assert_eq!(mods(&c.roll), vec![("Pst AvD", -2)]);
        assert_eq!((c.roll.total, c.outcome), (2, GlassWallOutcome::FailsToClimb));
        assert_eq!(climb(false, 5).outcome, GlassWallOutcome::Climbed);
        // Cloth or newspaper +1: a 4 is 3, over; a 3 is 2, fails.
        let c = climb(true, 4);
        assert_eq!(mods(&c.roll), vec![("Pst AvD", -2), ("cloth or newspaper used", 1)]);
        assert_eq!((c.roll.total, c.outcome), (3, GlassWallOutcome::Climbed));
        assert_eq!(climb(true, 3).outcome, GlassWallOutcome::FailsToClimb);
        assert_eq!(c.roll.dice, Dice::D6);
        assert_eq!(c.house_rules, vec![GLASS_WALL_DICE_PATH, GLASS_WALL_TARGET_PATH]);
    }

    #[test]
    fn glass_wall_dice_and_target_are_settings() {
        let s = ObstaclesSettings { glass_wall_dice: Dice::D10, glass_wall_target: 5, ..settings() };
        let climb = |face| climb_glass_wall(false, &s, &mut ScriptedDice::faces([face]));
        assert_eq!((climb(7).roll.total, climb(7).outcome), (5, GlassWallOutcome::Climbed));
        assert_eq!((climb(6).roll.total, climb(6).outcome), (4, GlassWallOutcome::FailsToClimb));
        assert_eq!(climb(0).roll.total, -2);
    }

    // ---- cattle-grid planks ----

    #[test]
    fn planks_take_one_man_three_rounds() {
        let s = settings();
        assert_eq!(plank_work(0), PlankWork { rounds_worked: 0, rounds_left: 3, laid: false });
        assert_eq!(plank_work(2), PlankWork { rounds_worked: 2, rounds_left: 1, laid: false });
        assert_eq!(plank_work(3), PlankWork { rounds_worked: 3, rounds_left: 0, laid: true });
        let mut work = plank_work(0);
        for _ in 0..2 {
            work = lay_planks_round(work, 1, true, &s);
        }
        assert!(!work.laid);
        work = lay_planks_round(work, 1, true, &s);
        assert!(work.laid);
        // Three men are no quicker by default; sharing, one round does it.
        assert!(!lay_planks_round(plank_work(0), 3, true, &s).laid);
        let share = ObstaclesSettings { plank_layers_share_work: true, ..settings() };
        assert!(lay_planks_round(plank_work(0), 3, true, &share).laid);
        assert!(!lay_planks_round(plank_work(0), 2, true, &share).laid);
        // No planks at hand, or no man: nothing done.
        assert_eq!(lay_planks_round(plank_work(1), 1, false, &s), plank_work(1));
        assert_eq!(lay_planks_round(plank_work(1), 0, true, &s), plank_work(1));
        // Laid planks stay laid.
        assert_eq!(lay_planks_round(plank_work(3), 1, true, &s), plank_work(3));
    }

    #[test]
    fn horse_drawn_vehicles_need_planks() {
        assert!(!vehicle_can_cross(VehicleKind::Wagon, false));
        assert!(vehicle_can_cross(VehicleKind::Wagon, true));
        assert!(!vehicle_can_cross(VehicleKind::Cart, false));
        assert!(vehicle_can_cross(VehicleKind::Cart, true));
        assert!(vehicle_can_cross(VehicleKind::Handcart, false));
        assert!(VehicleKind::Wagon.horse_drawn() && VehicleKind::Cart.horse_drawn());
        assert!(!VehicleKind::Handcart.horse_drawn());
    }

    #[test]
    fn settings_default_and_read_back() {
        let s: ObstaclesSettings = ron::from_str("(glass_wall_target: 4)").expect("a partial block");
        assert_eq!(s, ObstaclesSettings { glass_wall_target: 4, ..settings() });
        assert!(ron::from_str::<ObstaclesSettings>("(no_such_field: 1)").is_err());
    }

    // ---- rates against the text ----

    #[test]
    fn lodgement_rate_matches_the_text() {
        // D10 shows 0–9; "D10 6+" passes on 6, 7, 8, 9: 4 faces in 10.
        let mut src = SeededDice::new(20_006);
        let mut observed = [0u32; 2];
        for _ in 0..20_000 {
            match throw_grapnel(Sex::Male, 3.0, &mut src).outcome {
                LodgementOutcome::Lodged => observed[0] += 1,
                LodgementOutcome::NoLodgement => observed[1] += 1,
                LodgementOutcome::OutOfRange => unreachable!("within 5\""),
            }
        }
        let chi = chi_square(&observed, &[0.4, 0.6]);
        assert!(chi < CHI_SQUARE_1_DF_999, "chi-square {chi}: {observed:?}");
    }

    #[test]
    fn throw_down_rate_matches_the_text() {
        // "D10 7+": 7, 8, 9 of 0–9, 3 in 10.
        let mut src = SeededDice::new(20_007);
        let mut observed = [0u32; 2];
        for _ in 0..20_000 {
            match throw_down_grapnel(0.5, &NO_LOAD, false, &settings(), &mut src).outcome {
                ThrowDownOutcome::ThrownDown => observed[0] += 1,
                ThrowDownOutcome::Holds => observed[1] += 1,
                ThrowDownOutcome::OutOfReach => unreachable!("within 1\""),
            }
        }
        let chi = chi_square(&observed, &[0.3, 0.7]);
        assert!(chi < CHI_SQUARE_1_DF_999, "chi-square {chi}: {observed:?}");
    }

    #[test]
    fn rope_break_rates_match_the_text() {
        // "D6 - 1each excess quabit, = 2- breaks": with e excess quabits the rope breaks when the
        // face is 2 + e or less, (2 + e) / 6 of the time.
        let s = settings();
        let configs: [(RopeKind, f32, f64); 4] = [
            // 6 on a light rope (5): e = 1, faces 1–3, 3/6.
            (RopeKind::Light, 6.0, 3.0 / 6.0),
            // 5½ on a light rope: e = 1 (a begun quabit counts), 3/6.
            (RopeKind::Light, 5.5, 3.0 / 6.0),
            // Two persons (8) on a light rope: e = 3, faces 1–5, 5/6.
            (RopeKind::Light, 8.0, 5.0 / 6.0),
            // Three persons (12) on a permanent rope (10): e = 2, faces 1–4, 4/6.
            (RopeKind::Permanent, 12.0, 4.0 / 6.0),
        ];
        let mut src = SeededDice::new(20_011);
        for (kind, weight, p_break) in configs {
            let rope = Rope::standard(kind);
            let load = [at_foot(weight)];
            let mut observed = [0u32; 2];
            for _ in 0..12_000 {
                match resolve_overload(&rope, &on_earth(&load), &s, &mut src).outcome {
                    OverloadOutcome::Breaks => observed[0] += 1,
                    OverloadOutcome::Holds => observed[1] += 1,
                    OverloadOutcome::NotOverloaded => unreachable!("overloaded"),
                }
            }
            let chi = chi_square(&observed, &[p_break, 1.0 - p_break]);
            assert!(chi < CHI_SQUARE_1_DF_999, "{kind:?} {weight}: chi-square {chi}, {observed:?} vs {p_break}");
        }
    }

    #[test]
    fn cutting_rates_match_the_text() {
        // A light rope (5, half 3 rounded up) and a strike 0 blade: total = face − 3. Fail at −2−:
        // faces 0, 1 (2/10); weaken at −1 and 0: faces 2, 3 (2/10); cut at +1+: faces 4–9 (6/10).
        let s = settings();
        let rope = Rope::standard(RopeKind::Light);
        let blade = CuttingWeapon { strike: 0, sharp_edged: true };
        let mut src = SeededDice::new(20_017);
        let mut observed = [0u32; 3];
        for _ in 0..20_000 {
            match resolve_cut(&rope, blade, &NO_LOAD, false, &s, &mut src).outcome {
                CutOutcome::Fail => observed[0] += 1,
                CutOutcome::Weakened => observed[1] += 1,
                CutOutcome::Cut => observed[2] += 1,
                other => unreachable!("{other:?}"),
            }
        }
        let chi = chi_square(&observed, &[0.2, 0.2, 0.6]);
        assert!(chi < CHI_SQUARE_2_DF_999, "chi-square {chi}: {observed:?}");
    }

    #[test]
    fn glass_wall_rates_under_the_default() {
        // D6 − 2 against 3+: faces 5, 6 (2/6); with cloth D6 − 1: faces 4, 5, 6 (3/6).
        let s = settings();
        let mut src = SeededDice::new(20_019);
        for (cloth, p) in [(false, 2.0 / 6.0), (true, 3.0 / 6.0)] {
            let mut observed = [0u32; 2];
            for _ in 0..12_000 {
                match climb_glass_wall(cloth, &s, &mut src).outcome {
                    GlassWallOutcome::Climbed => observed[0] += 1,
                    GlassWallOutcome::FailsToClimb => observed[1] += 1,
                }
            }
            let chi = chi_square(&observed, &[p, 1.0 - p]);
            assert!(chi < CHI_SQUARE_1_DF_999, "cloth {cloth}: chi-square {chi}, {observed:?}");
        }
    }
}
