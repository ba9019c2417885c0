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
pub const POUNDS_PER_KILOGRAM: f32 = 2.204_622_6;
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

/// Proposed setting path of [`ObstaclesSettings::slow_riders`] (not yet in the `rules` block).
pub const SLOW_RIDERS_PATH: &str = "obstacles.slow_riders";
/// Proposed setting path of [`ObstaclesSettings::excess_rounding`].
pub const EXCESS_ROUNDING_PATH: &str = "obstacles.excess_rounding";
/// Proposed setting path of [`ObstaclesSettings::half_strength_rounding`].
pub const HALF_STRENGTH_ROUNDING_PATH: &str = "obstacles.half_strength_rounding";
/// Proposed setting path of [`ObstaclesSettings::rope_fall_strike`].
pub const ROPE_FALL_STRIKE_PATH: &str = "obstacles.rope_fall_strike";
/// Proposed setting path of [`ObstaclesSettings::glass_wall_dice`].
pub const GLASS_WALL_DICE_PATH: &str = "obstacles.glass_wall_dice";
/// Proposed setting path of [`ObstaclesSettings::glass_wall_target`].
pub const GLASS_WALL_TARGET_PATH: &str = "obstacles.glass_wall_target";

/// Modifier reason (tagged house rule) for a rider under 6" under [`SlowRiderStrike::AsSixInches`].
/// Not a literal in a `house_rule_reason` call: the setting is not in the `rules` block yet, so
/// it cannot be listed in `HOUSE_RULE_REASONS` (see docs/house-rules.md "Obstacles").
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
/// Not yet a block of the scene's `rules`: docs/house-rules.md "Obstacles" proposes the paths
/// (`obstacles.<field>`).
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
    /// Proposed setting paths that decided it.
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
    /// Proposed setting paths that decided it.
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

/// 000 "Grapnels, Ropes, and cords": fatigue endurance deducted for carrying `items`: "heavier length ropes would deduct 1/2", "carrying one [grapnel] with a length of rope will deduct 1/2".
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
    is_within
        && (!was_within || (new_round && settings.throw_down_tries == ThrowDownTries::EachRound))
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
    /// Proposed setting paths that decided it.
    pub house_rules: Vec<&'static str>,
}

/// 000 "Grapnels, Ropes, and cords": "If an opponent is within 1" of the lodgement D10 7+ they throw it down".
///
/// Reading: a grapnel thrown down drops whoever is on its rope ([`drop_climbers`]).
pub fn throw_down_grapnel(
    opponent_distance_in: f32,
    load: &RopeLoad,
    settings: &ObstaclesSettings,
    src: &mut impl DiceSource,
) -> ThrowDown {
    if opponent_distance_in.is_nan() || !within_throw_down_reach(opponent_distance_in) {
        let outcome = ThrowDownOutcome::OutOfReach;
        return ThrowDown { roll: None, outcome, falls: Vec::new(), house_rules: Vec::new() };
    }
    let roll = Roll::new(Dice::D10, src).at_least(THROW_DOWN_FROM);
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
    /// Proposed setting paths that decided it.
    pub house_rules: Vec<&'static str>,
}

/// 000 "Grapnels, Ropes, and cords": "Cutting ropes & cords with sharp edged weapons. Try each round, D10 + Weapon strike - half ropes quabit strength".
///
/// The strength halved is the rope's strength now (after earlier weakenings). A weakened rope
/// whose load now exceeds it rolls for overload ([`resolve_overload`]) when
/// [`overload_roll_due`] says so. A cut rope drops its climbers ([`drop_climbers`]).
pub fn resolve_cut(
    rope: &Rope,
    weapon: CuttingWeapon,
    load: &RopeLoad,
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
    let roll = Roll::new(Dice::D10, src)
        .modifier("weapon strike", weapon.strike)
        .modifier("half rope's quabit strength", -i32::try_from(half).unwrap_or(i32::MAX));
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
    /// Proposed setting paths that decided it: the dice and the target, always.
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
    let outcome =
        if roll.passed() == Some(true) { GlassWallOutcome::Climbed } else { GlassWallOutcome::FailsToClimb };
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
