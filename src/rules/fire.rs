//! Fire: igniting things, how fast fire spreads, how long it burns, and what it does to
//! people and animals (001 "Fire Starting Rules", "Fire Spreading", "Fire Against people and
//! animals"; RULES-NOTES "Fire burn-out", "Fire size as igniter").
//!
//! Numbers the text does not give (a fire resistance for oil, brushwood, cloth and trees, a
//! spread rate for heaped loose timber and half-timbered buildings, burning times, the fire
//! strike of a fire under 0.3") live in [`FireSettings`] as house rules.

use super::character::Armour;
use super::dice::{Dice, DiceSource, Roll};
use serde::{Deserialize, Serialize};

/// Rounds in one move (RULES-NOTES "Time and movement": 1 move = 2 rounds).
pub const ROUNDS_PER_MOVE: u32 = 2;

/// Added to a material's fire resistance when it is wet (001 "Fire Resistances (Add 2 if wet)").
pub const WET_FIRE_RESISTANCE_BONUS: i32 = 2;

/// A newly ignited fire is "up to 0.5"" across (001 "Fire Starting Rules").
pub const IGNITED_FIRE_DIAMETER_INCHES: f32 = 0.5;

/// Diameters within this of a table row count as that row, so a fire grown by adding 0.1"
/// steps in floating point still reaches the 0.6" row.
pub const DIAMETER_TOLERANCE_INCHES: f32 = 1e-3;

/// The held-igniter bonus stops growing here. No game reaches it (a bonus of 12 already makes
/// every ignition certain); it only keeps absurd inputs from overflowing the roll's total.
const MAX_HELD_BONUS: i32 = 10_000;

/// "0.3" diameter fire +2, 0.6" d fire +3, 1.0" d fire +4, 1.5" d fire +5" (smallest first).
const FIRE_STRIKE_BY_DIAMETER: [(f32, i32); 4] = [(0.3, 2), (0.6, 3), (1.0, 4), (1.5, 5)];

/// "1.0" diameter fire FV1, 1.5" FV2, 3.0" FV3, 6.0" FV4, 12" FV5" (smallest first).
const FRIGHT_VALUE_BY_DIAMETER: [(f32, i32); 5] = [(1.0, 1), (1.5, 2), (3.0, 3), (6.0, 4), (12.0, 5)];

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

/// Rounds a cell of each material burns before it is spent (RULES-NOTES "Fire burn-out").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BurnOutRounds {
    /// House rule (RULES-NOTES): 2.
    pub oil: u32,
    /// House rule (RULES-NOTES "Hay/Corn"): 3.
    pub hay: u32,
    /// House rule (RULES-NOTES "Hay/Corn"): 3.
    pub standing_corn: u32,
    /// House rule, not in RULES-NOTES either: 10, between brushwood (4) and solid timber (30),
    /// since loose logs and planks are thicker than brushwood but open to the air.
    pub heaped_loose_timber: u32,
    /// House rule (RULES-NOTES): 4.
    pub brushwood: u32,
    /// House rule (RULES-NOTES): 6.
    pub thatch: u32,
    /// House rule (RULES-NOTES): 2.
    pub cloth: u32,
    /// House rule (RULES-NOTES "Bushes"): 4.
    pub bushes_and_foliage: u32,
    /// House rule (RULES-NOTES): 20.
    pub trees: u32,
    /// House rule (RULES-NOTES): 30.
    pub solid_timber: u32,
    /// House rule (RULES-NOTES "half-timbered"): 40.
    pub half_timbered_building: u32,
}

impl Default for BurnOutRounds {
    fn default() -> Self {
        Self {
            oil: 2,
            hay: 3,
            standing_corn: 3,
            heaped_loose_timber: 10,
            brushwood: 4,
            thatch: 6,
            cloth: 2,
            bushes_and_foliage: 4,
            trees: 20,
            solid_timber: 30,
            half_timbered_building: 40,
        }
    }
}

impl BurnOutRounds {
    /// RULES-NOTES "Fire burn-out": rounds one cell of `fuel` burns.
    pub fn rounds(&self, fuel: Fuel) -> u32 {
        match fuel {
            Fuel::Oil => self.oil,
            Fuel::Hay => self.hay,
            Fuel::StandingCorn => self.standing_corn,
            Fuel::HeapedLooseTimber => self.heaped_loose_timber,
            Fuel::Brushwood => self.brushwood,
            Fuel::Thatch => self.thatch,
            Fuel::Cloth => self.cloth,
            Fuel::BushesAndFoliage => self.bushes_and_foliage,
            Fuel::Trees => self.trees,
            Fuel::SolidTimber => self.solid_timber,
            Fuel::HalfTimberedBuilding => self.half_timbered_building,
        }
    }
}

/// The fire numbers the text does not give. Every field is a house rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FireSettings {
    /// House rule: fire resistance of oil, which the FR table omits. Default −2, the most
    /// flammable value the table uses (thatch, haystack): oil has the fastest spread rate.
    pub oil_fire_resistance: i32,
    /// House rule: fire resistance of brushwood, which the FR table omits. Default −1, between
    /// haystack (−2) and heaped loose timber (0): dry small wood, spreading at 0.5" a round.
    pub brushwood_fire_resistance: i32,
    /// House rule: fire resistance of cloth, which the FR table omits. Default 0, as bushes &
    /// foliage, which share its spread rate (0.3").
    pub cloth_fire_resistance: i32,
    /// House rule: fire resistance of (living, standing) trees, which the FR table omits.
    /// Default +2: their spread rate (0.2") lies between bushes (FR 0) and solid timber (FR +3).
    pub trees_fire_resistance: i32,
    /// House rule: spread rate of heaped loose timber, which the FSR list omits. Default 0.2"
    /// a round, between brushwood (0.5") and solid timber (0.1").
    pub heaped_loose_timber_spread_rate: f32,
    /// House rule: spread rate of a half-timbered building, which the FSR list omits. Default
    /// 0.1" a round, as solid timber (its frame).
    pub half_timbered_building_spread_rate: f32,
    /// House rule: the fire strike of a burning fire under 0.3" across, below the table's
    /// smallest row. Default +1, as burning wood: a fire that small is a handful of flame.
    pub fire_strike_under_smallest_fire: i32,
    /// Burning times (RULES-NOTES "Fire burn-out", house defaults).
    pub burn_out: BurnOutRounds,
    /// Setting: side of a fire-front cell, inches (default 0.1"). Finer cells follow shapes
    /// more closely and cost more.
    pub cell_size: f32,
    /// House rule: a burning building region (thatch, solid timber, half-timbered) of at least
    /// this many square inches is a house (FV3), smaller a small building (FV2). Default 16.
    pub house_area: f32,
    /// House rule: from this many square inches a burning building is a large building (FV4).
    /// Default 150.
    pub large_building_area: f32,
    /// House rule: how often a person in fire rolls D6 + FS; 001 "Persons" does not say.
    /// Default `per_move`: once a move, when the fire first reaches them (a roll a round would
    /// make a move in fire two chances of death where the table reads as one exposure).
    pub person_rolls: PersonFireRolls,
    /// House rule: whether burns from several rolls add up; 001 "Persons" does not say. Default
    /// `worst_kept`: a person has the worst burn rolled, the table's rows being states.
    pub burns: BurnStacking,
}

impl Default for FireSettings {
    fn default() -> Self {
        Self {
            oil_fire_resistance: -2,
            brushwood_fire_resistance: -1,
            cloth_fire_resistance: 0,
            trees_fire_resistance: 2,
            heaped_loose_timber_spread_rate: 0.2,
            half_timbered_building_spread_rate: 0.1,
            fire_strike_under_smallest_fire: 1,
            burn_out: BurnOutRounds::default(),
            cell_size: 0.1,
            house_area: 16.0,
            large_building_area: 150.0,
            person_rolls: PersonFireRolls::PerMove,
            burns: BurnStacking::WorstKept,
        }
    }
}

crate::rules::named_enum! {
    /// How often a person caught by fire rolls (house rule: 001 "Persons" does not say).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum PersonFireRolls {
        /// Once a move, in the round the fire first reaches them, at that point (the default).
        #[default]
        PerMove => "per_move",
        /// Every round they stand in fire (and once for a path across fire in a move's first round).
        PerRound => "per_round",
    }
}

crate::rules::named_enum! {
    /// Whether burns from several rolls add up (house rule: 001 "Persons" does not say).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum BurnStacking {
        /// The worst burn is kept: a worse one replaces a milder one, a milder one is dropped
        /// (the default).
        #[default]
        WorstKept => "worst_kept",
        /// Every burn is kept: the Me & Mo deductions add up.
        Summed => "summed",
    }
}

// ---------------------------------------------------------------------------------------------
// Fuel
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// Materials that burn, as the FR table and FSR list name them.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Fuel {
        /// Oil: FSR 1.0"; the FR table has no row for it (house rule).
        Oil => "oil",
        /// Hay or a haystack ("Haystack" in the FR table, "Hay" in the FSR list).
        Hay => "hay",
        /// Standing corn: FR −1, FSR 0.7".
        StandingCorn => "standing_corn",
        /// Heaped loose timber: FR 0; the FSR list has no row for it (house rule).
        HeapedLooseTimber => "heaped_loose_timber",
        /// Brushwood: FSR 0.5"; the FR table has no row for it (house rule).
        Brushwood => "brushwood",
        /// Thatch: FR −2, FSR 0.4".
        Thatch => "thatch",
        /// Cloth: FSR 0.3"; the FR table has no row for it (house rule).
        Cloth => "cloth",
        /// "Bushes & foliage" (FR), "Bushes" (FSR).
        BushesAndFoliage => "bushes_and_foliage",
        /// Living, standing trees: FSR 0.2"; the FR table has no row for them (house rule).
        Trees => "trees",
        /// Huts, wagons, boats, roof shingles etc.
        SolidTimber => "solid_timber",
        /// Half-timbered buildings: FR +7; the FSR list has no row for them (house rule).
        HalfTimberedBuilding => "half_timbered_building",
    }
}

impl Fuel {
    /// How the log and the view name it, e.g. "standing corn".
    pub fn label(self) -> &'static str {
        match self {
            Fuel::Oil => "oil",
            Fuel::Hay => "hay",
            Fuel::StandingCorn => "standing corn",
            Fuel::HeapedLooseTimber => "heaped loose timber",
            Fuel::Brushwood => "brushwood",
            Fuel::Thatch => "thatch",
            Fuel::Cloth => "cloth",
            Fuel::BushesAndFoliage => "bushes & foliage",
            Fuel::Trees => "trees",
            Fuel::SolidTimber => "solid timber",
            Fuel::HalfTimberedBuilding => "half-timbered building",
        }
    }

    /// 001 "Fire Starting Rules" > "Fire Resistances": the FR row, `None` where the table has none.
    pub fn listed_fire_resistance(self) -> Option<i32> {
        match self {
            Fuel::Thatch => Some(-2),
            Fuel::Hay => Some(-2),
            Fuel::StandingCorn => Some(-1),
            Fuel::HeapedLooseTimber => Some(0),
            Fuel::BushesAndFoliage => Some(0),
            Fuel::SolidTimber => Some(3),
            Fuel::HalfTimberedBuilding => Some(7),
            Fuel::Oil | Fuel::Brushwood | Fuel::Cloth | Fuel::Trees => None,
        }
    }

    /// 001 "Fire Starting Rules" > "Fire Resistances": dry FR, house rule where the table has no row.
    pub fn fire_resistance(self, settings: &FireSettings) -> i32 {
        match self {
            // House rules: no row in the FR table.
            Fuel::Oil => settings.oil_fire_resistance,
            Fuel::Brushwood => settings.brushwood_fire_resistance,
            Fuel::Cloth => settings.cloth_fire_resistance,
            Fuel::Trees => settings.trees_fire_resistance,
            // Text rows.
            Fuel::Thatch | Fuel::Hay => -2,
            Fuel::StandingCorn => -1,
            Fuel::HeapedLooseTimber | Fuel::BushesAndFoliage => 0,
            Fuel::SolidTimber => 3,
            Fuel::HalfTimberedBuilding => 7,
        }
    }

    /// 001 "Fire Starting Rules" > "Fire Resistances (Add 2 if wet)": FR, +2 when wet.
    pub fn fire_resistance_when(self, wet: bool, settings: &FireSettings) -> i32 {
        self.fire_resistance(settings) + if wet { WET_FIRE_RESISTANCE_BONUS } else { 0 }
    }

    /// 001 "Fire Spreading": the FSR row in inches a round, `None` where the list has none.
    pub fn listed_fire_spread_rate(self) -> Option<f32> {
        match self {
            Fuel::Oil => Some(1.0),
            Fuel::StandingCorn | Fuel::Hay => Some(0.7),
            Fuel::Brushwood => Some(0.5),
            Fuel::Thatch => Some(0.4),
            Fuel::Cloth => Some(0.3),
            Fuel::BushesAndFoliage => Some(0.3),
            Fuel::Trees => Some(0.2),
            Fuel::SolidTimber => Some(0.1),
            Fuel::HeapedLooseTimber | Fuel::HalfTimberedBuilding => None,
        }
    }

    /// 001 "Fire Spreading": FSR in inches a round through the same material (house rule where unlisted).
    pub fn fire_spread_rate(self, settings: &FireSettings) -> f32 {
        match self {
            // House rules: not in the FSR list.
            Fuel::HeapedLooseTimber => settings.heaped_loose_timber_spread_rate,
            Fuel::HalfTimberedBuilding => settings.half_timbered_building_spread_rate,
            // Text rows.
            Fuel::Oil => 1.0,
            Fuel::StandingCorn | Fuel::Hay => 0.7,
            Fuel::Brushwood => 0.5,
            Fuel::Thatch => 0.4,
            Fuel::Cloth | Fuel::BushesAndFoliage => 0.3,
            Fuel::Trees => 0.2,
            Fuel::SolidTimber => 0.1,
        }
    }

    /// 001 "Fire Spreading" with RULES-NOTES "Time and movement": a front advances 2 × FSR a move.
    pub fn fire_spread_per_move(self, settings: &FireSettings) -> f32 {
        self.fire_spread_rate(settings) * ROUNDS_PER_MOVE as f32
    }

    /// RULES-NOTES "Fire burn-out": rounds a cell of this material burns before it is spent.
    pub fn burn_out_rounds(self, settings: &FireSettings) -> u32 {
        settings.burn_out.rounds(self)
    }
}

// ---------------------------------------------------------------------------------------------
// Igniters
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// Igniters held against the material (001 "Fire Starting Rules" > "Held Igniters").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum HeldIgniter {
        /// A tinderbox: FS −2.
        Tinderbox => "tinderbox",
        /// A match: FS −1.
        Match => "match",
        /// A lighter: FS −1.
        Lighter => "lighter",
        /// A candle: FS 0.
        Candle => "candle",
        /// Burning cloth: FS 0.
        BurningCloth => "burning_cloth",
        /// A torch: FS +1.
        Torch => "torch",
        /// Burning wood: FS +1.
        BurningWood => "burning_wood",
        /// Burning oil: FS +2.
        BurningOil => "burning_oil",
        /// A 0.3" diameter fire next to the material.
        #[serde(rename = "fire_0_3_inch")]
        FireThreeTenthsInch => "fire_0_3_inch",
        /// A 0.6" diameter fire.
        #[serde(rename = "fire_0_6_inch")]
        FireSixTenthsInch => "fire_0_6_inch",
        /// A 1.0" diameter fire.
        #[serde(rename = "fire_1_0_inch")]
        FireOneInch => "fire_1_0_inch",
        /// A 1.5" diameter fire (larger fires count the same: RULES-NOTES "Fire size as igniter").
        #[serde(rename = "fire_1_5_inch")]
        FireOneAndHalfInch => "fire_1_5_inch",
    }
}

impl HeldIgniter {
    /// How the log and the view name it, e.g. "burning cloth".
    pub fn label(self) -> &'static str {
        match self {
            HeldIgniter::Tinderbox => "tinderbox",
            HeldIgniter::Match => "match",
            HeldIgniter::Lighter => "lighter",
            HeldIgniter::Candle => "candle",
            HeldIgniter::BurningCloth => "burning cloth",
            HeldIgniter::Torch => "torch",
            HeldIgniter::BurningWood => "burning wood",
            HeldIgniter::BurningOil => "burning oil",
            HeldIgniter::FireThreeTenthsInch => "0.3\" fire",
            HeldIgniter::FireSixTenthsInch => "0.6\" fire",
            HeldIgniter::FireOneInch => "1.0\" fire",
            HeldIgniter::FireOneAndHalfInch => "1.5\" fire",
        }
    }

    /// 001 "Fire Starting Rules" > "Held Igniters": the igniter's fire strike (FS).
    pub fn fire_strike(self) -> i32 {
        match self {
            HeldIgniter::Tinderbox => -2,
            HeldIgniter::Match => -1,
            HeldIgniter::Lighter => -1,
            HeldIgniter::Candle => 0,
            HeldIgniter::BurningCloth => 0,
            HeldIgniter::Torch => 1,
            HeldIgniter::BurningWood => 1,
            HeldIgniter::BurningOil => 2,
            HeldIgniter::FireThreeTenthsInch => 2,
            HeldIgniter::FireSixTenthsInch => 3,
            HeldIgniter::FireOneInch => 4,
            HeldIgniter::FireOneAndHalfInch => 5,
        }
    }

    /// The diameter of the fire rows, in inches; `None` for hand-held igniters.
    pub fn fire_diameter_inches(self) -> Option<f32> {
        match self {
            HeldIgniter::FireThreeTenthsInch => Some(0.3),
            HeldIgniter::FireSixTenthsInch => Some(0.6),
            HeldIgniter::FireOneInch => Some(1.0),
            HeldIgniter::FireOneAndHalfInch => Some(1.5),
            HeldIgniter::Tinderbox
            | HeldIgniter::Match
            | HeldIgniter::Lighter
            | HeldIgniter::Candle
            | HeldIgniter::BurningCloth
            | HeldIgniter::Torch
            | HeldIgniter::BurningWood
            | HeldIgniter::BurningOil => None,
        }
    }
}

crate::rules::named_enum! {
    /// Igniters thrown onto the material (001 "Fire Starting Rules" > "Thrown Igniters").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ThrownIgniter {
        /// A thrown match: FS −4.
        Match => "match",
        /// A thrown candle: FS −3.
        Candle => "candle",
        /// Thrown burning cloth: FS −2.
        BurningCloth => "burning_cloth",
        /// A thrown torch: FS −1.
        Torch => "torch",
        /// A thrown burning wooden faggot: FS −1.
        BurningWoodenFaggot => "burning_wooden_faggot",
        /// Thrown burning oil: FS 0.
        BurningOil => "burning_oil",
        /// A fire arrow: FS −2.
        FireArrow => "fire_arrow",
    }
}

impl ThrownIgniter {
    /// How the log and the view name it, e.g. "thrown torch".
    pub fn label(self) -> &'static str {
        match self {
            ThrownIgniter::Match => "thrown match",
            ThrownIgniter::Candle => "thrown candle",
            ThrownIgniter::BurningCloth => "thrown burning cloth",
            ThrownIgniter::Torch => "thrown torch",
            ThrownIgniter::BurningWoodenFaggot => "thrown burning wooden faggot",
            ThrownIgniter::BurningOil => "thrown burning oil",
            ThrownIgniter::FireArrow => "fire arrow",
        }
    }

    /// 001 "Fire Starting Rules" > "Thrown Igniters": the igniter's fire strike (FS).
    pub fn fire_strike(self) -> i32 {
        match self {
            ThrownIgniter::Match => -4,
            ThrownIgniter::Candle => -3,
            ThrownIgniter::BurningCloth => -2,
            ThrownIgniter::Torch => -1,
            ThrownIgniter::BurningWoodenFaggot => -1,
            ThrownIgniter::BurningOil => 0,
            ThrownIgniter::FireArrow => -2,
        }
    }
}

/// 001 "Fire Starting Rules" > "Held Igniters": "+1 per two rounds held continuously".
pub fn held_bonus(rounds_held: u32) -> i32 {
    // rounds_held / 2 always fits an i32; the cap only keeps the roll total from overflowing.
    i32::try_from(rounds_held / 2).unwrap_or(MAX_HELD_BONUS).min(MAX_HELD_BONUS)
}

/// 001 "Fire Starting Rules" > "Held Igniters": fire strike of a burning fire by its diameter.
///
/// Between rows the largest row not exceeding the diameter applies; 1.5" and larger count +5
/// (RULES-NOTES "Fire size as igniter"); under 0.3" (and a zero, negative or NaN diameter) the
/// house rule `fire_strike_under_smallest_fire` applies.
pub fn burning_fire_strike(diameter_inches: f32, settings: &FireSettings) -> i32 {
    FIRE_STRIKE_BY_DIAMETER
        .iter()
        .rev()
        .find(|&&(row, _)| reaches_row(diameter_inches, row))
        .map_or(settings.fire_strike_under_smallest_fire, |&(_, strike)| strike)
}

/// 001 "Fire Against people and animals": a person's fire strike, FV + 3 ("Fire Strike -3 = Fright Value").
///
/// From 1.0" across the fire's fright value gives it (1.0" +4, 1.5" +5, 3.0" +6, 6.0" +7, 12"
/// and larger +8); below 1.0", where no fright value is given, the "Held Igniters" fire rows
/// (0.3" +2, 0.6" +3; under 0.3" the house rule `fire_strike_under_smallest_fire`). A burning
/// building strikes with its own FV + 3 (small +5, house +6, large +7) when that is more.
/// Unlike [`burning_fire_strike`] it does not stop at +5: that cap is the igniter table's.
pub fn person_fire_strike(diameter_inches: f32, building: Option<BurningBuilding>, settings: &FireSettings) -> i32 {
    let by_size = match fire_fright_value(diameter_inches) {
        Some(fright) => fright + 3,
        None => burning_fire_strike(diameter_inches, settings),
    };
    building.map_or(by_size, |b| by_size.max(b.fright_value() + 3))
}

/// Whether a diameter reaches a table row, allowing for floating-point rounding. False for NaN.
fn reaches_row(diameter_inches: f32, row_inches: f32) -> bool {
    diameter_inches + DIAMETER_TOLERANCE_INCHES >= row_inches
}

// ---------------------------------------------------------------------------------------------
// Ignition
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// The result of trying to ignite something (001 "Fire Starting Rules").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum IgnitionOutcome {
        /// 1+: ignited, a fire up to 0.5" across.
        Ignited => "ignited",
        /// 0.
        BadlyScorched => "badly_scorched",
        /// −1.
        Scorched => "scorched",
        /// −2.
        Singed => "singed",
        /// −3 or less: failed to ignite and unaffected.
        Unaffected => "unaffected",
    }
}

impl IgnitionOutcome {
    /// How the log and the view name it, e.g. "badly scorched".
    pub fn label(self) -> &'static str {
        match self {
            IgnitionOutcome::Ignited => "ignited",
            IgnitionOutcome::BadlyScorched => "badly scorched",
            IgnitionOutcome::Scorched => "scorched",
            IgnitionOutcome::Singed => "singed",
            IgnitionOutcome::Unaffected => "failed to ignite & unaffected",
        }
    }

    /// 001 "Fire Starting Rules": the new fire's diameter ("up to 0.5"") when ignited.
    pub fn fire_diameter_inches(self) -> Option<f32> {
        (self == IgnitionOutcome::Ignited).then_some(IGNITED_FIRE_DIAMETER_INCHES)
    }
}

/// 001 "Fire Starting Rules": band of D6 + FS − FR.
pub fn ignition_band(total: i32) -> IgnitionOutcome {
    match total {
        1..=i32::MAX => IgnitionOutcome::Ignited,
        0 => IgnitionOutcome::BadlyScorched,
        -1 => IgnitionOutcome::Scorched,
        -2 => IgnitionOutcome::Singed,
        _ => IgnitionOutcome::Unaffected,
    }
}

/// An ignition attempt as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IgnitionResult {
    /// D6 + fire strike + held bonus − fire resistance (wet counted separately).
    pub roll: Roll,
    /// The band the total falls in.
    pub outcome: IgnitionOutcome,
}

/// 001 "Fire Starting Rules": D6 + FS (+1 per two rounds held) − FR (+2 if wet), 1+ ignites.
///
/// `fire_strike` comes from [`HeldIgniter::fire_strike`], [`ThrownIgniter::fire_strike`] or
/// [`burning_fire_strike`]; a thrown igniter has `rounds_held` 0.
pub fn resolve_ignition(
    fire_strike: i32,
    rounds_held: u32,
    fuel: Fuel,
    wet: bool,
    settings: &FireSettings,
    src: &mut impl DiceSource,
) -> IgnitionResult {
    let roll = Roll::new(Dice::D6, src)
        .modifier("fire strike", fire_strike)
        .modifier(format!("held {rounds_held} rounds"), held_bonus(rounds_held))
        .modifier(format!("{} fire resistance", fuel.label()), -fuel.fire_resistance(settings))
        .modifier("wet", if wet { -WET_FIRE_RESISTANCE_BONUS } else { 0 });
    let outcome = ignition_band(roll.total);
    IgnitionResult { roll, outcome }
}

// ---------------------------------------------------------------------------------------------
// Fright
// ---------------------------------------------------------------------------------------------

/// 001 "Fire Against people and animals": FV = fire strike − 3; 0 or less is not used (`None`).
pub fn fright_value_of_fire_strike(fire_strike: i32) -> Option<i32> {
    let fright = fire_strike.saturating_sub(3);
    (fright > 0).then_some(fright)
}

/// 001 "Fire Against people and animals": FV of a fire by diameter (1.0" FV1 … 12" FV5).
///
/// Between rows the largest row not exceeding the diameter applies; 12" and larger stay FV5;
/// under 1.0" there is no fright value (as FS − 3 gives for the 0.3" and 0.6" fires).
pub fn fire_fright_value(diameter_inches: f32) -> Option<i32> {
    FRIGHT_VALUE_BY_DIAMETER
        .iter()
        .rev()
        .find(|&&(row, _)| reaches_row(diameter_inches, row))
        .map(|&(_, fright)| fright)
}

/// 001 "Fire Against people and animals": which burning building a region of `area_in2` is
/// (house rule thresholds `house_area`, `large_building_area`).
pub fn burning_building_by_area(area_in2: f32, settings: &FireSettings) -> BurningBuilding {
    if area_in2 >= settings.large_building_area {
        BurningBuilding::LargeBuilding
    } else if area_in2 >= settings.house_area {
        BurningBuilding::House
    } else {
        BurningBuilding::SmallBuilding
    }
}

crate::rules::named_enum! {
    /// Burning buildings (001 "Fire Against people and animals").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum BurningBuilding {
        /// A small burning building: FV2.
        SmallBuilding => "small_building",
        /// A burning house: FV3.
        House => "house",
        /// A large burning building: FV4.
        LargeBuilding => "large_building",
    }
}

impl BurningBuilding {
    /// 001 "Fire Against people and animals": small building FV2, house FV3, large building FV4.
    pub fn fright_value(self) -> i32 {
        match self {
            BurningBuilding::SmallBuilding => 2,
            BurningBuilding::House => 3,
            BurningBuilding::LargeBuilding => 4,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Persons caught by fire
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// What fire does to a person (001 "Fire Against people and animals" > "Persons").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum PersonInFireOutcome {
        /// 1 or less: "OK".
        Unharmed => "unharmed",
        /// 2.
        SingedClothes => "singed_clothes",
        /// 3: −1 Me & Mo.
        MinorBurns => "minor_burns",
        /// 4: −2 Me & Mo.
        BadBurns => "bad_burns",
        /// 5: −3 Me & Mo.
        SevereBurns => "severe_burns",
        /// 6.
        CrippledInAgony => "crippled_in_agony",
        /// 7.
        ApparentlyDead => "apparently_dead",
        /// 8+.
        DefinitelyDead => "definitely_dead",
    }
}

impl PersonInFireOutcome {
    /// How the log and the view name it, e.g. "minor burns" ("OK" when unharmed).
    pub fn label(self) -> &'static str {
        match self {
            PersonInFireOutcome::Unharmed => "OK",
            PersonInFireOutcome::SingedClothes => "singed clothes",
            PersonInFireOutcome::MinorBurns => "minor burns",
            PersonInFireOutcome::BadBurns => "bad burns",
            PersonInFireOutcome::SevereBurns => "severe burns",
            PersonInFireOutcome::CrippledInAgony => "crippled in agony",
            PersonInFireOutcome::ApparentlyDead => "apparently dead",
            PersonInFireOutcome::DefinitelyDead => "definitely dead",
        }
    }

    /// 001 "Fire Against people and animals" > "Persons": the Me & Mo deduction (−1/−2/−3 for
    /// minor/bad/severe burns); 0 for every other row, where the text gives none.
    pub fn me_and_mo_modifier(self) -> i32 {
        match self {
            PersonInFireOutcome::MinorBurns => -1,
            PersonInFireOutcome::BadBurns => -2,
            PersonInFireOutcome::SevereBurns => -3,
            PersonInFireOutcome::Unharmed
            | PersonInFireOutcome::SingedClothes
            | PersonInFireOutcome::CrippledInAgony
            | PersonInFireOutcome::ApparentlyDead
            | PersonInFireOutcome::DefinitelyDead => 0,
        }
    }
}

impl PersonInFireOutcome {
    /// 001 "Persons": how bad a lasting burn is (minor 1 < bad 2 < severe 3 < crippled 4 <
    /// apparently dead 5 < definitely dead 6); `None` for OK and singed clothes, which leave none.
    pub fn severity(self) -> Option<u8> {
        match self {
            PersonInFireOutcome::Unharmed | PersonInFireOutcome::SingedClothes => None,
            PersonInFireOutcome::MinorBurns => Some(1),
            PersonInFireOutcome::BadBurns => Some(2),
            PersonInFireOutcome::SevereBurns => Some(3),
            PersonInFireOutcome::CrippledInAgony => Some(4),
            PersonInFireOutcome::ApparentlyDead => Some(5),
            PersonInFireOutcome::DefinitelyDead => Some(6),
        }
    }
}

/// 001 "Fire Against people and animals" > "Persons": band of D6 + FS (+1 if unclothed).
pub fn person_in_fire_band(total: i32) -> PersonInFireOutcome {
    match total {
        i32::MIN..=1 => PersonInFireOutcome::Unharmed,
        2 => PersonInFireOutcome::SingedClothes,
        3 => PersonInFireOutcome::MinorBurns,
        4 => PersonInFireOutcome::BadBurns,
        5 => PersonInFireOutcome::SevereBurns,
        6 => PersonInFireOutcome::CrippledInAgony,
        7 => PersonInFireOutcome::ApparentlyDead,
        8..=i32::MAX => PersonInFireOutcome::DefinitelyDead,
    }
}

/// A person caught by fire, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PersonInFireResult {
    /// D6 + fire strike (+1 unclothed).
    pub roll: Roll,
    /// The band the total falls in.
    pub outcome: PersonInFireOutcome,
}

/// 001 "Fire Against people and animals" > "Persons": D6 + FS (+1 if unclothed).
///
/// `fire_strike` is the FS of what burns them: an igniter's, or [`person_fire_strike`] of the
/// fire they are caught in.
pub fn resolve_person_in_fire(fire_strike: i32, armour: Armour, src: &mut impl DiceSource) -> PersonInFireResult {
    let roll = Roll::new(Dice::D6, src)
        .modifier("fire strike", fire_strike)
        .modifier("unclothed", if armour == Armour::Unclothed { 1 } else { 0 });
    let outcome = person_in_fire_band(roll.total);
    PersonInFireResult { roll, outcome }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::super::dice::{ScriptedDice, SeededDice};
    use super::*;
    use crate::rules::stats::chi_square;

    /// Chi-square 99.9% critical value for 4 degrees of freedom.
    const CHI_SQUARE_4_DF_999: f64 = 18.467;

    #[test]
    fn fire_resistance_rows() {
        let s = FireSettings::default();
        // Text rows.
        assert_eq!(Fuel::Thatch.fire_resistance(&s), -2);
        assert_eq!(Fuel::Hay.fire_resistance(&s), -2);
        assert_eq!(Fuel::StandingCorn.fire_resistance(&s), -1);
        assert_eq!(Fuel::HeapedLooseTimber.fire_resistance(&s), 0);
        assert_eq!(Fuel::BushesAndFoliage.fire_resistance(&s), 0);
        assert_eq!(Fuel::SolidTimber.fire_resistance(&s), 3);
        assert_eq!(Fuel::HalfTimberedBuilding.fire_resistance(&s), 7);
        // House rules.
        assert_eq!(Fuel::Oil.fire_resistance(&s), -2);
        assert_eq!(Fuel::Brushwood.fire_resistance(&s), -1);
        assert_eq!(Fuel::Cloth.fire_resistance(&s), 0);
        assert_eq!(Fuel::Trees.fire_resistance(&s), 2);
    }

    #[test]
    fn listed_fire_resistance_matches_and_house_rules_follow_settings() {
        let s = FireSettings::default();
        for fuel in Fuel::ALL {
            if let Some(fr) = fuel.listed_fire_resistance() {
                assert_eq!(fuel.fire_resistance(&s), fr, "{fuel:?}");
            }
        }
        let unlisted: Vec<Fuel> = Fuel::ALL.into_iter().filter(|f| f.listed_fire_resistance().is_none()).collect();
        assert_eq!(unlisted, vec![Fuel::Oil, Fuel::Brushwood, Fuel::Cloth, Fuel::Trees]);
        let custom = FireSettings {
            oil_fire_resistance: -5,
            brushwood_fire_resistance: 4,
            cloth_fire_resistance: 6,
            trees_fire_resistance: 9,
            ..FireSettings::default()
        };
        assert_eq!(Fuel::Oil.fire_resistance(&custom), -5);
        assert_eq!(Fuel::Brushwood.fire_resistance(&custom), 4);
        assert_eq!(Fuel::Cloth.fire_resistance(&custom), 6);
        assert_eq!(Fuel::Trees.fire_resistance(&custom), 9);
        // Listed rows ignore settings.
        assert_eq!(Fuel::Thatch.fire_resistance(&custom), -2);
    }

    #[test]
    fn wet_adds_two_to_every_fire_resistance() {
        let s = FireSettings::default();
        for fuel in Fuel::ALL {
            assert_eq!(fuel.fire_resistance_when(false, &s), fuel.fire_resistance(&s), "{fuel:?}");
            assert_eq!(fuel.fire_resistance_when(true, &s), fuel.fire_resistance(&s) + 2, "{fuel:?}");
        }
        assert_eq!(Fuel::Thatch.fire_resistance_when(true, &s), 0);
        assert_eq!(Fuel::HalfTimberedBuilding.fire_resistance_when(true, &s), 9);
    }

    #[test]
    fn fire_spread_rate_rows() {
        let s = FireSettings::default();
        assert_eq!(Fuel::Oil.fire_spread_rate(&s), 1.0);
        assert_eq!(Fuel::StandingCorn.fire_spread_rate(&s), 0.7);
        assert_eq!(Fuel::Hay.fire_spread_rate(&s), 0.7);
        assert_eq!(Fuel::Brushwood.fire_spread_rate(&s), 0.5);
        assert_eq!(Fuel::Thatch.fire_spread_rate(&s), 0.4);
        assert_eq!(Fuel::Cloth.fire_spread_rate(&s), 0.3);
        assert_eq!(Fuel::BushesAndFoliage.fire_spread_rate(&s), 0.3);
        assert_eq!(Fuel::Trees.fire_spread_rate(&s), 0.2);
        assert_eq!(Fuel::SolidTimber.fire_spread_rate(&s), 0.1);
        // House rules.
        assert_eq!(Fuel::HeapedLooseTimber.fire_spread_rate(&s), 0.2);
        assert_eq!(Fuel::HalfTimberedBuilding.fire_spread_rate(&s), 0.1);
        for fuel in Fuel::ALL {
            if let Some(rate) = fuel.listed_fire_spread_rate() {
                assert_eq!(fuel.fire_spread_rate(&s), rate, "{fuel:?}");
            }
        }
        let unlisted: Vec<Fuel> = Fuel::ALL.into_iter().filter(|f| f.listed_fire_spread_rate().is_none()).collect();
        assert_eq!(unlisted, vec![Fuel::HeapedLooseTimber, Fuel::HalfTimberedBuilding]);
        let custom = FireSettings {
            heaped_loose_timber_spread_rate: 0.6,
            half_timbered_building_spread_rate: 0.05,
            ..FireSettings::default()
        };
        assert_eq!(Fuel::HeapedLooseTimber.fire_spread_rate(&custom), 0.6);
        assert_eq!(Fuel::HalfTimberedBuilding.fire_spread_rate(&custom), 0.05);
    }

    #[test]
    fn fire_spreads_two_rounds_a_move() {
        let s = FireSettings::default();
        assert_eq!(Fuel::Oil.fire_spread_per_move(&s), 2.0);
        assert!((Fuel::Thatch.fire_spread_per_move(&s) - 0.8).abs() < 1e-6);
    }

    #[test]
    fn burn_out_rounds_follow_rules_notes() {
        let s = FireSettings::default();
        assert_eq!(Fuel::Oil.burn_out_rounds(&s), 2);
        assert_eq!(Fuel::Hay.burn_out_rounds(&s), 3);
        assert_eq!(Fuel::StandingCorn.burn_out_rounds(&s), 3);
        assert_eq!(Fuel::Brushwood.burn_out_rounds(&s), 4);
        assert_eq!(Fuel::Thatch.burn_out_rounds(&s), 6);
        assert_eq!(Fuel::Cloth.burn_out_rounds(&s), 2);
        assert_eq!(Fuel::BushesAndFoliage.burn_out_rounds(&s), 4);
        assert_eq!(Fuel::Trees.burn_out_rounds(&s), 20);
        assert_eq!(Fuel::SolidTimber.burn_out_rounds(&s), 30);
        assert_eq!(Fuel::HalfTimberedBuilding.burn_out_rounds(&s), 40);
        // House rule beyond RULES-NOTES.
        assert_eq!(Fuel::HeapedLooseTimber.burn_out_rounds(&s), 10);
        let mut custom = FireSettings::default();
        custom.burn_out.heaped_loose_timber = 12;
        assert_eq!(Fuel::HeapedLooseTimber.burn_out_rounds(&custom), 12);
    }

    #[test]
    fn held_igniter_rows() {
        assert_eq!(HeldIgniter::Tinderbox.fire_strike(), -2);
        assert_eq!(HeldIgniter::Match.fire_strike(), -1);
        assert_eq!(HeldIgniter::Lighter.fire_strike(), -1);
        assert_eq!(HeldIgniter::Candle.fire_strike(), 0);
        assert_eq!(HeldIgniter::BurningCloth.fire_strike(), 0);
        assert_eq!(HeldIgniter::Torch.fire_strike(), 1);
        assert_eq!(HeldIgniter::BurningWood.fire_strike(), 1);
        assert_eq!(HeldIgniter::BurningOil.fire_strike(), 2);
        assert_eq!(HeldIgniter::FireThreeTenthsInch.fire_strike(), 2);
        assert_eq!(HeldIgniter::FireSixTenthsInch.fire_strike(), 3);
        assert_eq!(HeldIgniter::FireOneInch.fire_strike(), 4);
        assert_eq!(HeldIgniter::FireOneAndHalfInch.fire_strike(), 5);
    }

    #[test]
    fn held_fire_rows_agree_with_burning_fire_strike() {
        let s = FireSettings::default();
        for igniter in HeldIgniter::ALL {
            if let Some(d) = igniter.fire_diameter_inches() {
                assert_eq!(burning_fire_strike(d, &s), igniter.fire_strike(), "{igniter:?}");
            }
        }
        let fires = HeldIgniter::ALL.into_iter().filter(|i| i.fire_diameter_inches().is_some()).count();
        assert_eq!(fires, 4);
    }

    #[test]
    fn thrown_igniter_rows() {
        assert_eq!(ThrownIgniter::Match.fire_strike(), -4);
        assert_eq!(ThrownIgniter::Candle.fire_strike(), -3);
        assert_eq!(ThrownIgniter::BurningCloth.fire_strike(), -2);
        assert_eq!(ThrownIgniter::Torch.fire_strike(), -1);
        assert_eq!(ThrownIgniter::BurningWoodenFaggot.fire_strike(), -1);
        assert_eq!(ThrownIgniter::BurningOil.fire_strike(), 0);
        assert_eq!(ThrownIgniter::FireArrow.fire_strike(), -2);
    }

    #[test]
    fn held_bonus_is_one_per_two_rounds() {
        assert_eq!(held_bonus(0), 0);
        assert_eq!(held_bonus(1), 0);
        assert_eq!(held_bonus(2), 1);
        assert_eq!(held_bonus(3), 1);
        assert_eq!(held_bonus(4), 2);
        assert_eq!(held_bonus(5), 2);
        assert_eq!(held_bonus(u32::MAX), MAX_HELD_BONUS);
    }

    #[test]
    fn burning_fire_strike_by_diameter() {
        let s = FireSettings::default();
        // Under the smallest row: house rule (+1).
        assert_eq!(burning_fire_strike(0.0, &s), 1);
        assert_eq!(burning_fire_strike(-1.0, &s), 1);
        assert_eq!(burning_fire_strike(f32::NAN, &s), 1);
        assert_eq!(burning_fire_strike(0.29, &s), 1);
        assert_eq!(burning_fire_strike(0.3, &s), 2);
        assert_eq!(burning_fire_strike(0.59, &s), 2);
        assert_eq!(burning_fire_strike(0.6, &s), 3);
        assert_eq!(burning_fire_strike(0.99, &s), 3);
        assert_eq!(burning_fire_strike(1.0, &s), 4);
        assert_eq!(burning_fire_strike(1.49, &s), 4);
        assert_eq!(burning_fire_strike(1.5, &s), 5);
        // Larger fires stay +5 (RULES-NOTES).
        assert_eq!(burning_fire_strike(3.0, &s), 5);
        assert_eq!(burning_fire_strike(100.0, &s), 5);
        // Float rounding: six 0.1" steps reach the 0.6" row.
        let grown: f32 = (0..6).map(|_| 0.1f32).sum();
        assert_eq!(burning_fire_strike(grown, &s), 3);
        let custom = FireSettings { fire_strike_under_smallest_fire: 0, ..FireSettings::default() };
        assert_eq!(burning_fire_strike(0.2, &custom), 0);
    }

    #[test]
    fn ignition_bands_on_both_sides_of_each_boundary() {
        assert_eq!(ignition_band(8), IgnitionOutcome::Ignited);
        assert_eq!(ignition_band(2), IgnitionOutcome::Ignited);
        assert_eq!(ignition_band(1), IgnitionOutcome::Ignited);
        assert_eq!(ignition_band(0), IgnitionOutcome::BadlyScorched);
        assert_eq!(ignition_band(-1), IgnitionOutcome::Scorched);
        assert_eq!(ignition_band(-2), IgnitionOutcome::Singed);
        assert_eq!(ignition_band(-3), IgnitionOutcome::Unaffected);
        assert_eq!(ignition_band(-4), IgnitionOutcome::Unaffected);
        assert_eq!(ignition_band(-20), IgnitionOutcome::Unaffected);
        assert_eq!(IgnitionOutcome::Ignited.fire_diameter_inches(), Some(0.5));
        assert_eq!(IgnitionOutcome::BadlyScorched.fire_diameter_inches(), None);
    }

    #[test]
    fn resolve_ignition_logs_every_modifier() {
        let s = FireSettings::default();
        // Torch (+1) held 2 rounds (+1) on wet thatch (FR −2, wet +2): 4 + 1 + 1 + 2 − 2 = 6.
        let mut dice = ScriptedDice::faces([4]);
        let r = resolve_ignition(HeldIgniter::Torch.fire_strike(), 2, Fuel::Thatch, true, &s, &mut dice);
        assert!(dice.is_empty());
        assert_eq!(r.roll.dice, Dice::D6);
        assert_eq!(r.roll.faces, vec![4]);
        let mods: Vec<(&str, i32)> = r.roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect();
        assert_eq!(mods, vec![("fire strike", 1), ("held 2 rounds", 1), ("thatch fire resistance", 2), ("wet", -2)]);
        assert_eq!(r.roll.total, 6);
        assert_eq!(r.outcome, IgnitionOutcome::Ignited);

        // Thrown match (−4) on dry solid timber (+3): 6 − 4 − 3 = −1.
        let mut dice = ScriptedDice::faces([6]);
        let r = resolve_ignition(ThrownIgniter::Match.fire_strike(), 0, Fuel::SolidTimber, false, &s, &mut dice);
        let mods: Vec<(&str, i32)> = r.roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect();
        assert_eq!(mods, vec![("fire strike", -4), ("solid timber fire resistance", -3)]);
        assert_eq!(r.roll.total, -1);
        assert_eq!(r.outcome, IgnitionOutcome::Scorched);

        // Held 1 round gives nothing yet; wet is −2 against the same face.
        let dry = resolve_ignition(0, 1, Fuel::HeapedLooseTimber, false, &s, &mut ScriptedDice::faces([3]));
        let wet = resolve_ignition(0, 1, Fuel::HeapedLooseTimber, true, &s, &mut ScriptedDice::faces([3]));
        assert_eq!(dry.roll.total, 3);
        assert!(dry.roll.modifiers.is_empty());
        assert_eq!(wet.roll.total, 1);
        assert_eq!(wet.outcome, IgnitionOutcome::Ignited);
        let wet_lower = resolve_ignition(0, 0, Fuel::HeapedLooseTimber, true, &s, &mut ScriptedDice::faces([2]));
        assert_eq!(wet_lower.roll.total, 0);
        assert_eq!(wet_lower.outcome, IgnitionOutcome::BadlyScorched);

        // Held 4 rounds adds +2: a tinderbox (−2) on half-timbering (+7), face 1: 1 − 2 + 2 − 7 = −6.
        let r = resolve_ignition(-2, 4, Fuel::HalfTimberedBuilding, false, &s, &mut ScriptedDice::faces([1]));
        assert_eq!(r.roll.total, -6);
        assert_eq!(r.outcome, IgnitionOutcome::Unaffected);
        assert!(r.roll.modifiers.iter().any(|m| m.reason == "held 4 rounds" && m.value == 2));
    }

    #[test]
    fn ignition_frequencies_match_the_text() {
        // Held match (FS −1), not held longer, on dry solid timber (FR +3): D6 − 4.
        let s = FireSettings::default();
        let (fire_strike, fire_resistance) = (-1, 3);
        // Expected, from the D6 faces and the text's thresholds:
        // [ignited 1+, badly scorched 0, scorched −1, singed −2, unaffected −3−].
        let mut expected = [0.0f64; 5];
        for face in 1..=6 {
            let total = face + fire_strike - fire_resistance;
            let index = if total >= 1 {
                0
            } else if total == 0 {
                1
            } else if total == -1 {
                2
            } else if total == -2 {
                3
            } else {
                4
            };
            expected[index] += 1.0 / 6.0;
        }
        let trials = 60_000u32;
        let mut observed = [0u32; 5];
        let mut src = SeededDice::new(0xF1E);
        for _ in 0..trials {
            let r = resolve_ignition(HeldIgniter::Match.fire_strike(), 0, Fuel::SolidTimber, false, &s, &mut src);
            let index = match r.outcome {
                IgnitionOutcome::Ignited => 0,
                IgnitionOutcome::BadlyScorched => 1,
                IgnitionOutcome::Scorched => 2,
                IgnitionOutcome::Singed => 3,
                IgnitionOutcome::Unaffected => 4,
            };
            observed[index] += 1;
        }
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI_SQUARE_4_DF_999, "chi-square {chi}: observed {observed:?}, expected {expected:?}");
    }

    #[test]
    fn fright_value_of_fire_strike_rows() {
        assert_eq!(fright_value_of_fire_strike(-4), None);
        assert_eq!(fright_value_of_fire_strike(2), None);
        assert_eq!(fright_value_of_fire_strike(3), None);
        assert_eq!(fright_value_of_fire_strike(4), Some(1));
        assert_eq!(fright_value_of_fire_strike(5), Some(2));
        assert_eq!(fright_value_of_fire_strike(i32::MIN), None);
        // Igniters: burning oil (+2) frightens nobody, a 1.0" fire FV1.
        assert_eq!(fright_value_of_fire_strike(HeldIgniter::BurningOil.fire_strike()), None);
        assert_eq!(fright_value_of_fire_strike(HeldIgniter::FireOneInch.fire_strike()), Some(1));
    }

    #[test]
    fn fire_fright_value_by_diameter() {
        assert_eq!(fire_fright_value(0.0), None);
        assert_eq!(fire_fright_value(f32::NAN), None);
        assert_eq!(fire_fright_value(0.6), None);
        assert_eq!(fire_fright_value(0.99), None);
        assert_eq!(fire_fright_value(1.0), Some(1));
        assert_eq!(fire_fright_value(1.49), Some(1));
        assert_eq!(fire_fright_value(1.5), Some(2));
        assert_eq!(fire_fright_value(2.99), Some(2));
        assert_eq!(fire_fright_value(3.0), Some(3));
        assert_eq!(fire_fright_value(5.99), Some(3));
        assert_eq!(fire_fright_value(6.0), Some(4));
        assert_eq!(fire_fright_value(11.99), Some(4));
        assert_eq!(fire_fright_value(12.0), Some(5));
        assert_eq!(fire_fright_value(50.0), Some(5));
        // The list agrees with FS − 3 where both apply (1.0" and 1.5").
        let s = FireSettings::default();
        for d in [0.3f32, 0.6, 1.0, 1.5] {
            assert_eq!(fire_fright_value(d), fright_value_of_fire_strike(burning_fire_strike(d, &s)), "{d}");
        }
    }

    #[test]
    fn building_size_by_area_house_rule() {
        let s = FireSettings::default();
        assert_eq!(burning_building_by_area(4.0, &s), BurningBuilding::SmallBuilding);
        assert_eq!(burning_building_by_area(15.99, &s), BurningBuilding::SmallBuilding);
        assert_eq!(burning_building_by_area(16.0, &s), BurningBuilding::House);
        assert_eq!(burning_building_by_area(149.0, &s), BurningBuilding::House);
        assert_eq!(burning_building_by_area(150.0, &s), BurningBuilding::LargeBuilding);
    }

    #[test]
    fn burning_building_rows() {
        assert_eq!(BurningBuilding::SmallBuilding.fright_value(), 2);
        assert_eq!(BurningBuilding::House.fright_value(), 3);
        assert_eq!(BurningBuilding::LargeBuilding.fright_value(), 4);
    }

    #[test]
    fn person_fire_strike_follows_fright_value() {
        let s = FireSettings::default();
        // FV + 3 from 1.0" (no +5 cap), the igniter rows below it.
        for (d, fs) in
            [(0.1f32, 1), (0.3, 2), (0.6, 3), (0.99, 3), (1.0, 4), (1.5, 5), (3.0, 6), (6.0, 7), (12.0, 8), (24.0, 8)]
        {
            assert_eq!(person_fire_strike(d, None, &s), fs, "{d}\"");
        }
        // Igniters keep the +5 cap.
        assert_eq!(burning_fire_strike(24.0, &s), 5);
        // Buildings: FV + 3, or the fire's size where that is more.
        assert_eq!(person_fire_strike(0.5, Some(BurningBuilding::SmallBuilding), &s), 5);
        assert_eq!(person_fire_strike(2.0, Some(BurningBuilding::House), &s), 6);
        assert_eq!(person_fire_strike(2.0, Some(BurningBuilding::LargeBuilding), &s), 7);
        assert_eq!(person_fire_strike(12.0, Some(BurningBuilding::House), &s), 8);
    }

    #[test]
    fn person_in_a_three_inch_fire_frequencies() {
        // A clothed person in a 3.0" fire: FS = FV3 + 3 = 6, D6 + 6 spans 7..12: face 1 gives 7
        // (apparently dead), faces 2-6 give 8+ (definitely dead): expected [1/6, 5/6].
        let fire_strike = person_fire_strike(3.0, None, &FireSettings::default());
        assert_eq!(fire_strike, 6);
        let expected = [1.0 / 6.0, 5.0 / 6.0];
        let trials = 30_000u32;
        let mut observed = [0u32; 2];
        let mut src = SeededDice::new(0xF5_06);
        for _ in 0..trials {
            match resolve_person_in_fire(fire_strike, Armour::Clothed, &mut src).outcome {
                PersonInFireOutcome::ApparentlyDead => observed[0] += 1,
                PersonInFireOutcome::DefinitelyDead => observed[1] += 1,
                other => panic!("impossible outcome {other:?} for D6 + 6"),
            }
        }
        let chi = chi_square(&observed, &expected);
        // 99.9% critical value of chi-square with 1 degree of freedom.
        assert!(chi < 10.828, "chi-square {chi}: observed {observed:?}, expected {expected:?}");
    }

    #[test]
    fn person_in_fire_bands_on_both_sides_of_each_boundary() {
        assert_eq!(person_in_fire_band(-5), PersonInFireOutcome::Unharmed);
        assert_eq!(person_in_fire_band(0), PersonInFireOutcome::Unharmed);
        assert_eq!(person_in_fire_band(1), PersonInFireOutcome::Unharmed);
        assert_eq!(person_in_fire_band(2), PersonInFireOutcome::SingedClothes);
        assert_eq!(person_in_fire_band(3), PersonInFireOutcome::MinorBurns);
        assert_eq!(person_in_fire_band(4), PersonInFireOutcome::BadBurns);
        assert_eq!(person_in_fire_band(5), PersonInFireOutcome::SevereBurns);
        assert_eq!(person_in_fire_band(6), PersonInFireOutcome::CrippledInAgony);
        assert_eq!(person_in_fire_band(7), PersonInFireOutcome::ApparentlyDead);
        assert_eq!(person_in_fire_band(8), PersonInFireOutcome::DefinitelyDead);
        assert_eq!(person_in_fire_band(9), PersonInFireOutcome::DefinitelyDead);
        assert_eq!(person_in_fire_band(20), PersonInFireOutcome::DefinitelyDead);
    }

    #[test]
    fn burn_severity_orders_the_rows() {
        let ranks: Vec<Option<u8>> = PersonInFireOutcome::ALL.iter().map(|o| o.severity()).collect();
        assert_eq!(ranks, [None, None, Some(1), Some(2), Some(3), Some(4), Some(5), Some(6)]);
        let s: FireSettings =
            serde_json::from_str(r#"{"person_rolls": "per_round", "burns": "summed"}"#).expect("parse");
        assert_eq!((s.person_rolls, s.burns), (PersonFireRolls::PerRound, BurnStacking::Summed));
        let d = FireSettings::default();
        assert_eq!((d.person_rolls, d.burns), (PersonFireRolls::PerMove, BurnStacking::WorstKept));
    }

    #[test]
    fn me_and_mo_deductions() {
        assert_eq!(PersonInFireOutcome::Unharmed.me_and_mo_modifier(), 0);
        assert_eq!(PersonInFireOutcome::SingedClothes.me_and_mo_modifier(), 0);
        assert_eq!(PersonInFireOutcome::MinorBurns.me_and_mo_modifier(), -1);
        assert_eq!(PersonInFireOutcome::BadBurns.me_and_mo_modifier(), -2);
        assert_eq!(PersonInFireOutcome::SevereBurns.me_and_mo_modifier(), -3);
        assert_eq!(PersonInFireOutcome::CrippledInAgony.me_and_mo_modifier(), 0);
        assert_eq!(PersonInFireOutcome::ApparentlyDead.me_and_mo_modifier(), 0);
        assert_eq!(PersonInFireOutcome::DefinitelyDead.me_and_mo_modifier(), 0);
    }

    #[test]
    fn resolve_person_in_fire_adds_one_when_unclothed() {
        // Torch (+1), clothed, face 2: 3 minor burns.
        let r = resolve_person_in_fire(1, Armour::Clothed, &mut ScriptedDice::faces([2]));
        let mods: Vec<(&str, i32)> = r.roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect();
        assert_eq!(mods, vec![("fire strike", 1)]);
        assert_eq!(r.roll.total, 3);
        assert_eq!(r.outcome, PersonInFireOutcome::MinorBurns);
        assert_eq!(r.outcome.me_and_mo_modifier(), -1);
        // Same face unclothed: 4 bad burns.
        let r = resolve_person_in_fire(1, Armour::Unclothed, &mut ScriptedDice::faces([2]));
        let mods: Vec<(&str, i32)> = r.roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect();
        assert_eq!(mods, vec![("fire strike", 1), ("unclothed", 1)]);
        assert_eq!(r.roll.total, 4);
        assert_eq!(r.outcome, PersonInFireOutcome::BadBurns);
        // Armour other than none is not "unclothed".
        for armour in [Armour::Light, Armour::Medium, Armour::Heavy, Armour::Plate] {
            let r = resolve_person_in_fire(0, armour, &mut ScriptedDice::faces([1]));
            assert_eq!(r.roll.total, 1);
            assert_eq!(r.outcome, PersonInFireOutcome::Unharmed);
        }
        // A thrown match (−4) on a clothed person, face 6: 2 singed clothes.
        let r = resolve_person_in_fire(-4, Armour::Clothed, &mut ScriptedDice::faces([6]));
        assert_eq!(r.outcome, PersonInFireOutcome::SingedClothes);
    }

    #[test]
    fn person_in_fire_frequencies_match_the_text() {
        // FS +2, unclothed: D6 + 3 spans 4..9.
        let fire_strike = 2;
        let unclothed_bonus = 1;
        // Categories: [bad burns 4, severe 5, crippled 6, apparently dead 7, definitely dead 8+].
        let mut expected = [0.0f64; 5];
        for face in 1..=6 {
            let total = face + fire_strike + unclothed_bonus;
            let index = if total >= 8 {
                4
            } else if total == 7 {
                3
            } else if total == 6 {
                2
            } else if total == 5 {
                1
            } else {
                assert_eq!(total, 4);
                0
            };
            expected[index] += 1.0 / 6.0;
        }
        let trials = 60_000u32;
        let mut observed = [0u32; 5];
        let mut src = SeededDice::new(0xB0_12);
        for _ in 0..trials {
            let r = resolve_person_in_fire(fire_strike, Armour::Unclothed, &mut src);
            let index = match r.outcome {
                PersonInFireOutcome::BadBurns => 0,
                PersonInFireOutcome::SevereBurns => 1,
                PersonInFireOutcome::CrippledInAgony => 2,
                PersonInFireOutcome::ApparentlyDead => 3,
                PersonInFireOutcome::DefinitelyDead => 4,
                other => panic!("impossible outcome {other:?} for D6 + 3"),
            };
            observed[index] += 1;
        }
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI_SQUARE_4_DF_999, "chi-square {chi}: observed {observed:?}, expected {expected:?}");
    }

    fn assert_ids(ids: &[&str], serde_names: &[String]) {
        let mut seen = std::collections::HashSet::new();
        for (id, name) in ids.iter().zip(serde_names) {
            assert!(
                !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{id}"
            );
            assert!(seen.insert(*id), "duplicate id {id}");
            assert_eq!(name, &format!("\"{id}\""));
        }
    }

    fn serde_name<T: Serialize>(value: &T) -> String {
        serde_json::to_string(value).unwrap_or_default()
    }

    #[test]
    fn ids_are_stable_unique_and_match_serde() {
        let ids: Vec<&str> = Fuel::ALL.iter().map(|f| f.id()).collect();
        let names: Vec<String> = Fuel::ALL.iter().map(serde_name).collect();
        assert_ids(&ids, &names);
        let ids: Vec<&str> = HeldIgniter::ALL.iter().map(|f| f.id()).collect();
        let names: Vec<String> = HeldIgniter::ALL.iter().map(serde_name).collect();
        assert_ids(&ids, &names);
        let ids: Vec<&str> = ThrownIgniter::ALL.iter().map(|f| f.id()).collect();
        let names: Vec<String> = ThrownIgniter::ALL.iter().map(serde_name).collect();
        assert_ids(&ids, &names);
        let ids: Vec<&str> = IgnitionOutcome::ALL.iter().map(|f| f.id()).collect();
        let names: Vec<String> = IgnitionOutcome::ALL.iter().map(serde_name).collect();
        assert_ids(&ids, &names);
        let ids: Vec<&str> = BurningBuilding::ALL.iter().map(|f| f.id()).collect();
        let names: Vec<String> = BurningBuilding::ALL.iter().map(serde_name).collect();
        assert_ids(&ids, &names);
        let ids: Vec<&str> = PersonInFireOutcome::ALL.iter().map(|f| f.id()).collect();
        let names: Vec<String> = PersonInFireOutcome::ALL.iter().map(serde_name).collect();
        assert_ids(&ids, &names);
        // The id lists cover every variant: each band value appears in ALL.
        for total in -5..=10 {
            assert!(IgnitionOutcome::ALL.contains(&ignition_band(total)));
            assert!(PersonInFireOutcome::ALL.contains(&person_in_fire_band(total)));
        }
    }

    #[test]
    fn settings_serde_defaults_and_rejects_unknown_fields() {
        let empty: FireSettings = serde_json::from_str("{}").expect("empty settings parse");
        assert_eq!(empty, FireSettings::default());
        let partial: FireSettings =
            serde_json::from_str(r#"{"trees_fire_resistance": 3, "burn_out": {"trees": 25}}"#).expect("partial parse");
        assert_eq!(partial.trees_fire_resistance, 3);
        assert_eq!(partial.burn_out.trees, 25);
        assert_eq!(partial.burn_out.oil, 2);
        assert!(serde_json::from_str::<FireSettings>(r#"{"tree_fire_resistance": 3}"#).is_err());
        assert!(serde_json::from_str::<FireSettings>(r#"{"burn_out": {"tree": 3}}"#).is_err());
        let json = serde_json::to_string(&FireSettings::default()).expect("serialize");
        let back: FireSettings = serde_json::from_str(&json).expect("round trip");
        assert_eq!(back, FireSettings::default());
    }
}
