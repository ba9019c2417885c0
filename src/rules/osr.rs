//! OSR exploration and encounters: encumbrance speeds, the round and the turn, wandering
//! monsters, surprise, reactions, the order of combat, morale and loyalty (003, the whole text).
//!
//! Dice follow RULES-NOTES "Dice": the OSR text's dice are ordinary and 1-based (a D6 shows
//! 1–6, 2d6 2–12, 2d10 2–20). Distances are in feet (yards in the wilderness) as the text gives
//! them, turned into table inches by [`OsrSettings::feet_per_inch`] (RULES-NOTES "Time and
//! movement": 1" = 10'). Every reading of a terse line is marked "Reading:" where it is applied,
//! is a field of [`OsrSettings`] (or of an encounter's input) where a choice is needed, and is
//! listed in docs/osr.md.

use super::character::Armour;
use super::dice::{Dice, DiceSource, Modifier, Roll, Rolls};
use super::outcome::{Mark, Meaning};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;

/// 003 "Encumbrance": "less than 50 lbs | 40' | 120'": the first row holds loads below this.
pub const FIRST_ROW_BELOW_LB: f32 = 50.0;
/// 003 "Encumbrance": "50-100 lbs | 30' | 90'": the second row's top.
pub const SECOND_ROW_TOP_LB: f32 = 100.0;
/// 003 "Encumbrance": "101-150 lbs | 20' | 60'": the third row's top.
pub const THIRD_ROW_TOP_LB: f32 = 150.0;
/// 003 "Encumbrance": "151-200 lbs | 10' | 30'": the fourth row's top; "more than 200 lb*" beyond.
pub const FOURTH_ROW_TOP_LB: f32 = 200.0;
/// 003 "Encounters & Exploration": "the round (1 minute)".
pub const ROUND_MINUTES: u32 = 1;
/// 003 "Encounters & Exploration": "the turn (10 minutes)".
pub const TURN_MINUTES: u32 = 10;
/// 003 "Encounters (Wandering Monsters)": "For every two turns spent exploring".
pub const TURNS_PER_WANDERING_CHECK: u32 = 2;
/// 003 "Encounters (Wandering Monsters)": "there is a 1-in-6 chance that a random encounter will occur".
pub const WANDERING_CHANCE_IN_SIX: i32 = 1;
/// 003 "Encounters (Wandering Monsters)": "up to 2d6x10 feet away": the multiplier.
pub const DISTANCE_MULTIPLIER: u32 = 10;
/// 003 "Encounters (Wandering Monsters)": "or yards in the wilderness": feet in a yard.
pub const FEET_PER_YARD: u32 = 3;
/// 003 "Surprise": "both sides have a 2-in-6 chance of being surprised" (and "the party has the normal 2-in-6 chance").
pub const SURPRISE_NORMAL_IN_SIX: u8 = 2;
/// 003 "Surprise": "the encounter only has a 1-in-6 chance to be surprised".
pub const SURPRISE_LIT_ENCOUNTER_IN_SIX: u8 = 1;
/// 003 "Surprise": the Knights "know the party is the west wing ... only have a 1-in-6 chance of being surprised".
pub const KNOWS_WHEREABOUTS_IN_SIX: u8 = 1;
/// 003 "Surprise": "if the know the party is trapped in the Anti-Temple, the Knights will not be surprised".
pub const KNOWS_TRAPPED_IN_SIX: u8 = 0;
/// 003 "Surprise": "the neophytes performing cursory duties ... have a 3-in-6 chance of being surprised".
pub const OFF_GUARD_IN_SIX: u8 = 3;
/// 003 "Surprise": "Surprised opponents are essentially helpless for one round".
pub const HELPLESS_ROUNDS: u32 = 1;
/// 003 "Reactions": "2-3| Hostile": the row's top.
pub const HOSTILE_TOP: i32 = 3;
/// 003 "Reactions": "4-5| Unfriendly": the row's top.
pub const UNFRIENDLY_TOP: i32 = 5;
/// 003 "Reactions": "6-7| Indifferent": the row's top.
pub const INDIFFERENT_TOP: i32 = 7;
/// 003 "Reactions": "8-9 | Unsure": the row's top.
pub const UNSURE_TOP: i32 = 9;
/// 003 "Reactions": "10-11| Friendly": the row's top; "12| Helpful" above.
pub const FRIENDLY_TOP: i32 = 11;
/// 003 "Morale & Loyalty": "when 30% or more of their group are dead".
pub const DEAD_PERCENT: i64 = 30;
/// 003 "Morale & Loyalty": "if they only have 30% or less hp remaining".
pub const LOW_HP_PERCENT: i64 = 30;
/// 003 "Morale & Loyalty": "if their leader is reduced to 25% or less hp".
pub const LEADER_LOW_HP_PERCENT: i64 = 25;
/// 003 "Morale & Loyalty": "likely to fight to the last". Reading: the score raised to 20, the
/// highest 2d10 can show, so the check cannot fail; the text gives no number.
pub const FIGHT_TO_THE_LAST_SCORE: i32 = 20;
/// RULES-NOTES "Time and movement": "OSR encumbrance (003) is in feet: the product uses 1" = 10'".
pub const DEFAULT_FEET_PER_INCH: f32 = 10.0;
/// RULES-NOTES "Time and movement": "OSR 'every two turns' (20 minutes) of exploring = every 7 moves".
pub const DEFAULT_MOVES_PER_WANDERING_CHECK: u32 = 7;
/// Reading: tied sides roll again at most this many times before acting together (a guard
/// against an endless run of ties; 20 ties in a row between two sides is about 1 in 4·10¹⁵).
pub const MAX_TIE_REROLLS: u32 = 20;

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// How sides whose initiative dice tie act. Reading: the text says only "the highest
    /// scoring side acts first".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum InitiativeTies {
        /// The default: no side is highest, so none acts first; tied sides act together.
        #[default]
        Simultaneous => "simultaneous",
        /// Tied sides roll 1d6 again among themselves until one is highest.
        Reroll => "reroll",
    }
}

crate::rules::named_enum! {
    /// When a monster or henchman checks morale again. Reading: the text says when a check is
    /// made ("when 30% or more ... are dead", ...) but not whether it is made again.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum MoraleRecheck {
        /// The default: once for each circumstance the first time it arises.
        #[default]
        NewTrigger => "new_trigger",
        /// Every round while any circumstance holds.
        EveryRound => "every_round",
    }
}

crate::rules::named_enum! {
    /// Whether the simulation rolls the attacks a scene's table gives. Reading: 003 "Combat
    /// Structure" orders "4. Ranged attacks occur" and "6. Melee attacks occur" but resolves no
    /// attack; the table's numbers are the scene author's ([`OsrAttack`]).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum AttackResolution {
        /// The default: an attack a sheet (or an encounter row) gives is rolled in its phase;
        /// a scene that gives none leaves every hit to the GM.
        #[default]
        SceneTables => "scene_tables",
        /// The GM's hits alone: the tables are shown, never rolled.
        GmOnly => "gm_only",
    }
}

crate::rules::named_enum! {
    /// Which foe a combatant's rolled attack goes at. Reading: the text names no target.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum AttackTargets {
        /// The default: the nearest foe still fighting, the first in scene order among equals.
        #[default]
        Nearest => "nearest",
        /// The first foe still fighting in scene order.
        SceneOrder => "scene_order",
    }
}

/// 003 "Encumbrance": the table row each armour's own movement value is, for "use the worst of
/// the two movement values". The text gives one: plate is the 30' row ("a character wearing
/// plate but carrying less than 50 lbs has a combat speed of 30'"). The others are not in the
/// text: `None` (no limit) until a table sets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ArmourRows {
    /// Light armour's row; the text gives none.
    pub light: Option<EncumbranceRow>,
    /// Medium armour's row; the text gives none.
    pub medium: Option<EncumbranceRow>,
    /// Heavy armour's row; the text gives none.
    pub heavy: Option<EncumbranceRow>,
    /// Plate's row: the 30' row, from the text's example.
    pub plate: Option<EncumbranceRow>,
}

impl Default for ArmourRows {
    fn default() -> Self {
        Self { light: None, medium: None, heavy: None, plate: Some(EncumbranceRow::From50To100) }
    }
}

/// The readings of 003 where a choice is needed, each default the most literal: the scene's
/// `rules.osr` block (docs/house-rules.md "OSR exploration and encounters").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OsrSettings {
    /// Feet of the text to one table inch (RULES-NOTES: 1" = 10').
    pub feet_per_inch: f32,
    /// Morval moves to one wandering-monster check, for a scene timed in moves (RULES-NOTES: 7).
    pub moves_per_wandering_check: u32,
    /// Each armour's own row of the encumbrance table.
    pub armour_rows: ArmourRows,
    /// How tied initiative dice act.
    pub initiative_ties: InitiativeTies,
    /// When morale is checked again.
    pub morale_recheck: MoraleRecheck,
    /// The reaction row at or below which a combat begins (the simulation; the rules leave it
    /// to the referee).
    pub fights_at: Reaction,
    /// Whether the attacks of a scene's table are rolled (the simulation; not in the text).
    pub attacks: AttackResolution,
    /// Which foe a rolled attack goes at.
    pub attack_targets: AttackTargets,
}

impl Default for OsrSettings {
    fn default() -> Self {
        Self {
            feet_per_inch: DEFAULT_FEET_PER_INCH,
            moves_per_wandering_check: DEFAULT_MOVES_PER_WANDERING_CHECK,
            armour_rows: ArmourRows::default(),
            initiative_ties: InitiativeTies::Simultaneous,
            morale_recheck: MoraleRecheck::NewTrigger,
            fights_at: Reaction::Hostile,
            attacks: AttackResolution::SceneTables,
            attack_targets: AttackTargets::Nearest,
        }
    }
}

/// RULES-NOTES "Time and movement": feet of the text as table inches ("1" = 10'", a setting).
///
/// A scale that is not a positive number (a bad scene file) falls back to 10' an inch.
pub fn feet_to_inches(feet: f32, settings: &OsrSettings) -> f32 {
    let per_inch = if settings.feet_per_inch > 0.0 { settings.feet_per_inch } else { DEFAULT_FEET_PER_INCH };
    feet / per_inch
}

// ---------------------------------------------------------------------------------------------
// Encumbrance
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// A row of 003 "Encumbrance"'s table, lightest first (so the worse of two rows is the greater).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    pub enum EncumbranceRow {
        /// "less than 50 lbs | 40' | 120'".
        #[default]
        #[serde(rename = "less_than_50_lb")]
        LessThan50 => "less_than_50_lb",
        /// "50-100 lbs | 30' | 90'".
        #[serde(rename = "50_to_100_lb")]
        From50To100 => "50_to_100_lb",
        /// "101-150 lbs | 20' | 60'".
        #[serde(rename = "101_to_150_lb")]
        From101To150 => "101_to_150_lb",
        /// "151-200 lbs | 10' | 30'".
        #[serde(rename = "151_to_200_lb")]
        From151To200 => "151_to_200_lb",
        /// "more than 200 lb* | 5' | 15'".
        #[serde(rename = "more_than_200_lb")]
        MoreThan200 => "more_than_200_lb",
    }
}

/// A speed of the encumbrance table, in feet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OsrSpeed {
    /// "Combat Speed": feet a round.
    pub combat_ft: u32,
    /// "Exploration Speed": feet a turn.
    pub exploration_ft: u32,
}

impl OsrSpeed {
    /// The combat speed in table inches.
    pub fn combat_in(self, settings: &OsrSettings) -> f32 {
        feet_to_inches(self.combat_ft as f32, settings)
    }

    /// The exploration speed in table inches.
    pub fn exploration_in(self, settings: &OsrSettings) -> f32 {
        feet_to_inches(self.exploration_ft as f32, settings)
    }
}

impl EncumbranceRow {
    /// 003 "Encumbrance": the row for a tallied load.
    ///
    /// Reading: the rows are whole pounds ("50-100", "101-150"); a fraction over a row's top
    /// belongs to the next row (100.5 lb is "101-150"), as "more than 200" shows the rows meet.
    /// A load that is not a number counts as nothing carried.
    pub fn for_weight(lb: f32) -> EncumbranceRow {
        if lb.is_nan() || lb < FIRST_ROW_BELOW_LB {
            EncumbranceRow::LessThan50
        } else if lb <= SECOND_ROW_TOP_LB {
            EncumbranceRow::From50To100
        } else if lb <= THIRD_ROW_TOP_LB {
            EncumbranceRow::From101To150
        } else if lb <= FOURTH_ROW_TOP_LB {
            EncumbranceRow::From151To200
        } else {
            EncumbranceRow::MoreThan200
        }
    }

    /// 003 "Encumbrance": the row's "Combat Speed" and "Exploration Speed".
    pub fn speed(self) -> OsrSpeed {
        let (combat_ft, exploration_ft) = match self {
            EncumbranceRow::LessThan50 => (40, 120),
            EncumbranceRow::From50To100 => (30, 90),
            EncumbranceRow::From101To150 => (20, 60),
            EncumbranceRow::From151To200 => (10, 30),
            EncumbranceRow::MoreThan200 => (5, 15),
        };
        OsrSpeed { combat_ft, exploration_ft }
    }
}

crate::rules::named_enum! {
    /// What an item carried is, as 003 "Encumbrance" sorts it for weighing.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ItemKind {
        /// "the starting tools": not weighed.
        StartingTool => "starting_tool",
        /// "sundries": not weighed.
        Sundry => "sundry",
        /// "worn armor carried into the dungeon or wilderness": not weighed.
        WornArmour => "worn_armour",
        /// "weapons": tallied.
        Weapon => "weapon",
        /// "additional armor": tallied.
        AdditionalArmour => "additional_armour",
        /// "any items acquired during expeditions": tallied (the default: weighed unless said otherwise).
        #[default]
        Acquired => "acquired",
    }
}

impl ItemKind {
    /// 003 "Encumbrance": "starting tools, sundries, and worn armor ... are not weighed and tallied but weapons, additional armor, and any items acquired during expeditions ARE tallied".
    pub fn tallied(self) -> bool {
        matches!(self, ItemKind::Weapon | ItemKind::AdditionalArmour | ItemKind::Acquired)
    }
}

/// One item a figure carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CarriedItem {
    /// What it is, for weighing.
    pub kind: ItemKind,
    /// Its weight in pounds.
    pub weight_lb: f32,
}

/// 003 "Encumbrance": the weight "tallied": weapons, additional armour and items acquired; negative or non-number weights count 0.
pub fn tallied_weight_lb(items: &[CarriedItem]) -> f32 {
    items.iter().filter(|i| i.kind.tallied() && i.weight_lb > 0.0).map(|i| i.weight_lb).sum()
}

/// 003 "Encumbrance": the armour's own row under the settings ("use the worst of the two movement values").
pub fn armour_row(armour: Armour, settings: &OsrSettings) -> Option<EncumbranceRow> {
    let rows = &settings.armour_rows;
    match armour {
        Armour::Unclothed | Armour::Clothed => None,
        Armour::Light => rows.light,
        Armour::Medium => rows.medium,
        Armour::Heavy => rows.heavy,
        Armour::Plate => rows.plate,
    }
}

crate::rules::named_enum! {
    /// What set a figure's speed.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SpeedLimit {
        /// The weight carried (no armour row, or a better one).
        Weight => "weight",
        /// The armour's row, worse than the weight's.
        Armour => "armour",
        /// Armour and weight give the same row.
        Both => "both",
        /// "The referee may rule that certain weights or unwieldy masses allow no movement whatsoever."
        RefereeNoMovement => "referee_no_movement",
    }
}

/// A figure's encumbrance and speeds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Encumbrance {
    /// The weight tallied, in pounds.
    pub tallied_lb: f32,
    /// The weight's row.
    pub weight_row: EncumbranceRow,
    /// The armour's row, if the armour has one.
    pub armour_row: Option<EncumbranceRow>,
    /// The row that counts: the worse of the two.
    pub row: EncumbranceRow,
    /// What set it.
    pub limited_by: SpeedLimit,
    /// The speeds (both 0 when the referee rules no movement).
    pub speed: OsrSpeed,
}

/// 003 "Encumbrance": speeds from the weight carried; "For characters wearing armor, use the worst of the two movement values".
///
/// `no_movement` is the referee's ruling of the table's footnote ("certain weights or unwieldy
/// masses allow no movement whatsoever"): both speeds 0.
pub fn encumbrance(tallied_lb: f32, armour_row: Option<EncumbranceRow>, no_movement: bool) -> Encumbrance {
    let weight_row = EncumbranceRow::for_weight(tallied_lb);
    let (row, by) = match armour_row {
        Some(a) if a > weight_row => (a, SpeedLimit::Armour),
        Some(a) if a == weight_row => (a, SpeedLimit::Both),
        _ => (weight_row, SpeedLimit::Weight),
    };
    let (limited_by, speed) =
        if no_movement { (SpeedLimit::RefereeNoMovement, OsrSpeed::default()) } else { (by, row.speed()) };
    Encumbrance { tallied_lb, weight_row, armour_row, row, limited_by, speed }
}

/// How fast a party moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartyPace {
    /// Together, at the slowest member's speeds.
    Together(OsrSpeed),
    /// Each at its own speed: a full retreat (or no one to wait for).
    EachOwn,
}

/// 003 "Encounters & Exploration": "a party will move as fast as its slowest member ...; if a full retreat is being enacted then no such compulsion exists".
pub fn party_pace(members: &[OsrSpeed], full_retreat: bool) -> PartyPace {
    if full_retreat || members.is_empty() {
        return PartyPace::EachOwn;
    }
    let combat_ft = members.iter().map(|s| s.combat_ft).min().unwrap_or(0);
    let exploration_ft = members.iter().map(|s| s.exploration_ft).min().unwrap_or(0);
    PartyPace::Together(OsrSpeed { combat_ft, exploration_ft })
}

// ---------------------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------------------

/// The OSR clock: minutes passed in rounds and turns, and the exploring turns that bring the
/// wandering-monster checks (003 "Encounters & Exploration", "Encounters (Wandering Monsters)").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OsrClock {
    /// Minutes passed.
    pub minutes: u32,
    /// Rounds counted (combat).
    pub rounds: u32,
    /// Turns spent exploring.
    pub exploring_turns: u32,
}

impl OsrClock {
    /// Whole turns passed, rounds included ("the turn (10 minutes)").
    pub fn turns(self) -> u32 {
        self.minutes / TURN_MINUTES
    }

    /// Rounds (minutes) into the current turn.
    pub fn rounds_into_turn(self) -> u32 {
        (self.minutes % TURN_MINUTES) / ROUND_MINUTES
    }

    /// 003 "Encounters & Exploration": a round passes, "the round (1 minute)".
    pub fn add_round(&mut self) {
        self.rounds = self.rounds.saturating_add(1);
        self.minutes = self.minutes.saturating_add(ROUND_MINUTES);
    }

    /// 003 "Encounters (Wandering Monsters)": a turn passes; true when it completes "two turns spent exploring" (a check is due).
    ///
    /// Reading: only turns spent exploring count toward the check; a resting turn (or a turn
    /// of rounds) passes the time alone.
    pub fn add_turn(&mut self, exploring: bool) -> bool {
        self.minutes = self.minutes.saturating_add(TURN_MINUTES);
        if !exploring {
            return false;
        }
        self.exploring_turns = self.exploring_turns.saturating_add(1);
        self.exploring_turns.is_multiple_of(TURNS_PER_WANDERING_CHECK)
    }

    /// Exploring turns until the next wandering-monster check (2 just after one, 1 between).
    pub fn turns_until_check(self) -> u32 {
        TURNS_PER_WANDERING_CHECK - self.exploring_turns % TURNS_PER_WANDERING_CHECK
    }
}

// ---------------------------------------------------------------------------------------------
// Wandering monsters
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// A wandering-monster check's result.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum WanderingOutcome {
        /// The 1 in 6: "a random encounter will occur".
        Encounter => "encounter",
        /// No encounter.
        NoEncounter => "no_encounter",
    }
}

/// 003 "Encounters (Wandering Monsters)": "a 1-in-6 chance": a D6 showing 1 (reading: the low face, as "X-in-6" is usually read).
pub fn wandering_band(face: i32) -> WanderingOutcome {
    if face <= WANDERING_CHANCE_IN_SIX { WanderingOutcome::Encounter } else { WanderingOutcome::NoEncounter }
}

/// A wandering-monster check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WanderingCheck {
    /// The D6, passed (an encounter) at 1.
    pub roll: Roll,
    /// Encounter or not.
    pub outcome: WanderingOutcome,
}

/// 003 "Encounters (Wandering Monsters)": "For every two turns spent exploring, there is a 1-in-6 chance that a random encounter will occur".
pub fn roll_wandering_check(src: &mut impl DiceSource) -> WanderingCheck {
    let roll = Roll::new(Dice::D6, src).at_most(WANDERING_CHANCE_IN_SIX);
    let outcome = wandering_band(roll.total);
    WanderingCheck { roll, outcome }
}

crate::rules::named_enum! {
    /// Where the party is, for distances and surprise.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Terrain {
        /// "in dungeons": feet.
        #[default]
        Dungeon => "dungeon",
        /// "in the wilderness": yards.
        Wilderness => "wilderness",
    }
}

crate::rules::named_enum! {
    /// The unit of an encounter distance.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum DistanceUnit {
        /// Feet (dungeons).
        Feet => "feet",
        /// Yards (the wilderness).
        Yards => "yards",
    }
}

/// How far away a wandering monster appears.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EncounterDistance {
    /// The 2d6.
    pub roll: Roll,
    /// Dungeon or wilderness.
    pub terrain: Terrain,
    /// 2d6 × 10, in `unit`.
    pub distance: u32,
    /// Feet or yards.
    pub unit: DistanceUnit,
    /// The distance in feet.
    pub feet: u32,
}

impl EncounterDistance {
    /// The distance in table inches.
    pub fn inches(&self, settings: &OsrSettings) -> f32 {
        feet_to_inches(self.feet as f32, settings)
    }
}

/// 003 "Encounters (Wandering Monsters)": "up to 2d6x10 feet away in dungeons or yards in the wilderness": (distance, unit, feet) for a 2d6 total.
pub fn encounter_distance(two_d6: i32, terrain: Terrain) -> (u32, DistanceUnit, u32) {
    let distance = u32::try_from(two_d6).unwrap_or(0).saturating_mul(DISTANCE_MULTIPLIER);
    match terrain {
        Terrain::Dungeon => (distance, DistanceUnit::Feet, distance),
        Terrain::Wilderness => (distance, DistanceUnit::Yards, distance.saturating_mul(FEET_PER_YARD)),
    }
}

/// 003 "Encounters (Wandering Monsters)": "The monster will be up to 2d6x10 feet away in dungeons or yards in the wilderness".
///
/// Reading: the roll is the distance; "up to" lets the caller bring the monster nearer where
/// the map has no room that far along its route.
pub fn roll_encounter_distance(terrain: Terrain, src: &mut impl DiceSource) -> EncounterDistance {
    let roll = Roll::new(Dice::TwoD6, src);
    let (distance, unit, feet) = encounter_distance(roll.total, terrain);
    EncounterDistance { roll, terrain, distance, unit, feet }
}

crate::rules::named_enum! {
    /// A point a wandering monster may come in by, taken from the map.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum EntryKind {
        /// A door.
        #[default]
        Door => "door",
        /// The open end of a corridor.
        CorridorEnd => "corridor_end",
        /// An edge of the table.
        TableEdge => "table_edge",
        /// An imported map's portal.
        Portal => "portal",
    }
}

/// A candidate point of entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EntryPoint {
    /// What it is.
    pub kind: EntryKind,
    /// It opens from the room (or area) the party just left.
    pub in_room_just_left: bool,
    /// The GM marks it illogical for another reason (bricked up, a sheer drop).
    pub illogical: bool,
}

impl EntryPoint {
    /// 003 "Encounters (Wandering Monsters)": "ignoring illogical routes such as the empty room the party just left".
    ///
    /// Reading: a route through the room the party just left is illogical (the party would
    /// have met the monster there), and so is any route the GM marks.
    pub fn is_logical(self) -> bool {
        !self.in_room_just_left && !self.illogical
    }
}

/// Where a wandering monster comes in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EntryChoice {
    /// The indices of the logical candidates.
    pub logical: Vec<usize>,
    /// The chosen candidate's index; `None` when no route is logical (the GM places it).
    pub chosen: Option<usize>,
}

/// 003 "Encounters (Wandering Monsters)": "randomly determine its point of entry, ignoring illogical routes".
///
/// Each logical candidate is as likely, drawn from the dice (`DiceSource::below`, not a logged
/// die); a single logical candidate is taken without a draw.
pub fn choose_entry_point(points: &[EntryPoint], src: &mut impl DiceSource) -> EntryChoice {
    let logical: Vec<usize> = points.iter().enumerate().filter(|(_, p)| p.is_logical()).map(|(i, _)| i).collect();
    let chosen = match logical.len() {
        0 => None,
        1 => logical.first().copied(),
        n => logical.get(src.below(u32::try_from(n).unwrap_or(u32::MAX)) as usize).copied(),
    };
    EntryChoice { logical, chosen }
}

// ---------------------------------------------------------------------------------------------
// Surprise
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// The hours of the day, for surprise in the wilderness.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Hours {
        /// "active hours".
        #[default]
        Active => "active",
        /// "resting hours".
        Resting => "resting",
    }
}

crate::rules::named_enum! {
    /// Which of the text's two surprise cases holds.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SurpriseCase {
        /// No lights in the dungeon, or the wilderness in active hours: both sides 2 in 6.
        BothTwoInSix => "both_two_in_six",
        /// Lights in the dungeon, or the wilderness in resting hours: the encounter 1 in 6, the party 2 in 6.
        EncounterOneInSix => "encounter_one_in_six",
    }
}

/// 003 "Surprise": "If the party does not have lights in the dungeon or is in the wilderness during active hours ... If the party does have lights in the dungeon or is in the wilderness during resting hours".
///
/// Reading: lights count in the dungeon only and the hours in the wilderness only, as the two
/// sentences pair them.
pub fn surprise_case(terrain: Terrain, party_has_lights: bool, hours: Hours) -> SurpriseCase {
    let encounter_one = match terrain {
        Terrain::Dungeon => party_has_lights,
        Terrain::Wilderness => hours == Hours::Resting,
    };
    if encounter_one { SurpriseCase::EncounterOneInSix } else { SurpriseCase::BothTwoInSix }
}

impl SurpriseCase {
    /// 003 "Surprise": (party, encounter) chances in six.
    pub fn chances_in_six(self) -> (u8, u8) {
        match self {
            SurpriseCase::BothTwoInSix => (SURPRISE_NORMAL_IN_SIX, SURPRISE_NORMAL_IN_SIX),
            SurpriseCase::EncounterOneInSix => (SURPRISE_NORMAL_IN_SIX, SURPRISE_LIT_ENCOUNTER_IN_SIX),
        }
    }
}

crate::rules::named_enum! {
    /// What the encountered group knows, as the Knights-of-the-Fang examples of 003 "Surprise" set it.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum MonsterAwareness {
        /// Nothing special: the case's chance.
        #[default]
        Unaware => "unaware",
        /// "know the party is the west wing": "only have a 1-in-6 chance of being surprised".
        KnowsWhereabouts => "knows_whereabouts",
        /// "know the party is trapped in the Anti-Temple": "will not be surprised".
        KnowsTrapped => "knows_trapped",
        /// "performing cursory duties": "a 3-in-6 chance of being surprised".
        OffGuard => "off_guard",
    }
}

impl MonsterAwareness {
    /// 003 "Surprise": the encounter's chance in six, given the case's `case_chance`.
    pub fn monsters_in_six(self, case_chance: u8) -> u8 {
        match self {
            MonsterAwareness::Unaware => case_chance,
            MonsterAwareness::KnowsWhereabouts => KNOWS_WHEREABOUTS_IN_SIX,
            MonsterAwareness::KnowsTrapped => KNOWS_TRAPPED_IN_SIX,
            MonsterAwareness::OffGuard => OFF_GUARD_IN_SIX,
        }
    }
}

/// One encounter's surprise settings (003 "Surprise": "some enemies will have reduced or
/// increased chances of being surprised based on other factors").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EncounterSurprise {
    /// What the group knows (the Knights-of-the-Fang cases).
    pub awareness: MonsterAwareness,
    /// The group's own chance in six of being surprised, over the awareness (0–6).
    pub monsters_in_six: Option<u8>,
    /// The party's chance in six of being surprised, over the case (0–6).
    pub party_in_six: Option<u8>,
    /// "particularly large, reckless, or conspicuous" monsters: "no chance of surprising opponents".
    pub monsters_cannot_surprise: bool,
    /// A particularly large, reckless or conspicuous party: it cannot surprise the monsters.
    pub party_cannot_surprise: bool,
}

/// The chances in six of being surprised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SurpriseChances {
    /// The text's case.
    pub case: SurpriseCase,
    /// The party's chance in six.
    pub party_in_six: u8,
    /// The encounter's chance in six.
    pub monsters_in_six: u8,
}

/// 003 "Surprise": each side's chance in six of being surprised, with the encounter's settings ("no chance of surprising opponents", the Knights' cases).
///
/// Order: the case, then the awareness, then the group's own numbers; a side that cannot
/// surprise makes the other side's chance 0. Chances above 6 count as 6.
pub fn surprise_chances(
    terrain: Terrain,
    party_has_lights: bool,
    hours: Hours,
    encounter: &EncounterSurprise,
) -> SurpriseChances {
    let case = surprise_case(terrain, party_has_lights, hours);
    let (party_case, monsters_case) = case.chances_in_six();
    let mut party_in_six = encounter.party_in_six.unwrap_or(party_case);
    let mut monsters_in_six =
        encounter.monsters_in_six.unwrap_or_else(|| encounter.awareness.monsters_in_six(monsters_case));
    if encounter.monsters_cannot_surprise {
        party_in_six = 0;
    }
    if encounter.party_cannot_surprise {
        monsters_in_six = 0;
    }
    SurpriseChances { case, party_in_six: party_in_six.min(6), monsters_in_six: monsters_in_six.min(6) }
}

/// One side's surprise roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideSurprise {
    /// The chance in six.
    pub chance_in_six: u8,
    /// The D6, passed (surprised) at or under the chance; none when the chance is 0.
    pub roll: Option<Roll>,
    /// Surprised: "essentially helpless for one round".
    pub surprised: bool,
}

/// 003 "Surprise": "a 2-in-6 chance of being surprised": a D6 at or under the chance (a chance of 0 rolls nothing).
pub fn roll_side_surprise(chance_in_six: u8, src: &mut impl DiceSource) -> SideSurprise {
    if chance_in_six == 0 {
        return SideSurprise { chance_in_six, roll: None, surprised: false };
    }
    let roll = Roll::new(Dice::D6, src).at_most(i32::from(chance_in_six));
    let surprised = roll.passed() == Some(true);
    SideSurprise { chance_in_six, roll: Some(roll), surprised }
}

crate::rules::named_enum! {
    /// Who is surprised.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SurpriseOutcome {
        /// Neither side.
        Neither => "neither",
        /// The party alone.
        PartySurprised => "party_surprised",
        /// The encounter alone.
        MonstersSurprised => "monsters_surprised",
        /// Both sides: neither acts in the surprise round.
        #[serde(rename = "both_surprised")]
        Both => "both_surprised",
    }
}

/// Both sides' surprise rolls.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SurpriseResult {
    /// The chances rolled against.
    pub chances: SurpriseChances,
    /// The party's roll.
    pub party: SideSurprise,
    /// The encounter's roll.
    pub monsters: SideSurprise,
    /// Who is surprised.
    pub outcome: SurpriseOutcome,
}

/// 003 "Surprise" and "Combat Structure" "S1. Determine surprise": each side rolls; the party's die first (reading).
pub fn roll_surprise(chances: SurpriseChances, src: &mut impl DiceSource) -> SurpriseResult {
    let party = roll_side_surprise(chances.party_in_six, src);
    let monsters = roll_side_surprise(chances.monsters_in_six, src);
    let outcome = match (party.surprised, monsters.surprised) {
        (false, false) => SurpriseOutcome::Neither,
        (true, false) => SurpriseOutcome::PartySurprised,
        (false, true) => SurpriseOutcome::MonstersSurprised,
        (true, true) => SurpriseOutcome::Both,
    };
    SurpriseResult { chances, party, monsters, outcome }
}

// ---------------------------------------------------------------------------------------------
// Reactions
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// A row of 003 "Reactions".
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Reaction {
        /// "2-3| Hostile".
        Hostile => "hostile",
        /// "4-5| Unfriendly".
        Unfriendly => "unfriendly",
        /// "6-7| Indifferent".
        Indifferent => "indifferent",
        /// "8-9 | Unsure".
        Unsure => "unsure",
        /// "10-11| Friendly".
        Friendly => "friendly",
        /// "12| Helpful".
        Helpful => "helpful",
    }
}

crate::rules::named_enum! {
    /// One of the "Possible Actions" of 003 "Reactions".
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum PossibleAction {
        /// "Attack".
        Attack => "attack",
        /// "offer horrible deal".
        OfferHorribleDeal => "offer_horrible_deal",
        /// "Insult".
        Insult => "insult",
        /// "draw weapons".
        DrawWeapons => "draw_weapons",
        /// "offer bad deal".
        OfferBadDeal => "offer_bad_deal",
        /// "Ignore".
        Ignore => "ignore",
        /// "offer normal deal".
        OfferNormalDeal => "offer_normal_deal",
        /// "Observe".
        Observe => "observe",
        /// "retreat".
        Retreat => "retreat",
        /// "hide".
        Hide => "hide",
        /// "Non-combat aid".
        NonCombatAid => "non_combat_aid",
        /// "offer good deal".
        OfferGoodDeal => "offer_good_deal",
        /// "Combat aid".
        CombatAid => "combat_aid",
        /// "offer great deal".
        OfferGreatDeal => "offer_great_deal",
    }
}

impl PossibleAction {
    /// The text's words.
    pub fn label(self) -> &'static str {
        match self {
            PossibleAction::Attack => "attack",
            PossibleAction::OfferHorribleDeal => "offer horrible deal",
            PossibleAction::Insult => "insult",
            PossibleAction::DrawWeapons => "draw weapons",
            PossibleAction::OfferBadDeal => "offer bad deal",
            PossibleAction::Ignore => "ignore",
            PossibleAction::OfferNormalDeal => "offer normal deal",
            PossibleAction::Observe => "observe",
            PossibleAction::Retreat => "retreat",
            PossibleAction::Hide => "hide",
            PossibleAction::NonCombatAid => "non-combat aid",
            PossibleAction::OfferGoodDeal => "offer good deal",
            PossibleAction::CombatAid => "combat aid",
            PossibleAction::OfferGreatDeal => "offer great deal",
        }
    }
}

impl Reaction {
    /// 003 "Reactions": the row's "Possible Actions", in the text's order.
    pub fn possible_actions(self) -> &'static [PossibleAction] {
        use PossibleAction as A;
        match self {
            Reaction::Hostile => &[A::Attack, A::OfferHorribleDeal],
            Reaction::Unfriendly => &[A::Insult, A::DrawWeapons, A::OfferBadDeal],
            Reaction::Indifferent => &[A::Ignore, A::OfferNormalDeal],
            Reaction::Unsure => &[A::Observe, A::Retreat, A::Hide],
            Reaction::Friendly => &[A::NonCombatAid, A::OfferGoodDeal],
            Reaction::Helpful => &[A::CombatAid, A::OfferGreatDeal],
        }
    }
}

/// 003 "Reactions": "2-3| Hostile ... 12| Helpful" for a modified 2d6 total.
///
/// Reading: a total below 2 is read on the 2–3 row and one above 12 on the 12 row (the
/// modifiers push the roll along the table, which has no rows beyond its ends).
pub fn reaction_band(total: i32) -> Reaction {
    if total <= HOSTILE_TOP {
        Reaction::Hostile
    } else if total <= UNFRIENDLY_TOP {
        Reaction::Unfriendly
    } else if total <= INDIFFERENT_TOP {
        Reaction::Indifferent
    } else if total <= UNSURE_TOP {
        Reaction::Unsure
    } else if total <= FRIENDLY_TOP {
        Reaction::Friendly
    } else {
        Reaction::Helpful
    }
}

/// A party member who might speak for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FaceCandidate {
    /// The Charisma score.
    pub charisma: i32,
    /// The reaction modifier that Charisma gives (the text gives no table: the figure's own).
    pub reaction_modifier: i32,
}

/// 003 "Reactions": "applying the reaction modifier of the party member with the highest Charisma (unless the party wishes to nominate someone else as their 'face')".
///
/// The nominated member when there is one (an index out of range is ignored); otherwise the
/// highest Charisma, the first listed among equals. `None` for an empty party.
pub fn choose_face(members: &[FaceCandidate], nominated: Option<usize>) -> Option<usize> {
    if let Some(i) = nominated.filter(|&i| i < members.len()) {
        return Some(i);
    }
    members.iter().enumerate().max_by_key(|&(i, m)| (m.charisma, Reverse(i))).map(|(i, _)| i)
}

/// A referee's bias on a reaction roll ("adjustments to the reaction roll based on biases").
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReactionBias {
    /// Why, as the log shows it ("anti-cleric meets a cleric").
    pub reason: String,
    /// Added to the roll (negative sours it).
    pub value: i32,
}

/// A reaction roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReactionResult {
    /// 2d6 with the face's modifier and the biases.
    pub roll: Roll,
    /// The row.
    pub reaction: Reaction,
    /// The total was outside 2–12 and read on the nearest end row.
    pub clamped: bool,
}

/// 003 "Reactions": "he should roll below, applying the reaction modifier of the party member with the highest Charisma"; biases as adjustments.
pub fn roll_reaction(face_modifier: i32, biases: &[ReactionBias], src: &mut impl DiceSource) -> ReactionResult {
    let mut roll = Roll::new(Dice::TwoD6, src);
    roll.add("face's reaction modifier", face_modifier);
    for bias in biases {
        roll.add(bias.reason.clone(), bias.value);
    }
    let (low, high) = Dice::TwoD6.range();
    let clamped = roll.total < low || roll.total > high;
    ReactionResult { reaction: reaction_band(roll.total), clamped, roll }
}

// ---------------------------------------------------------------------------------------------
// Combat order
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// A step of 003 "Combat Structure".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CombatPhase {
        /// "S1. Determine surprise".
        #[default]
        #[serde(rename = "s1_determine_surprise")]
        DetermineSurprise => "s1_determine_surprise",
        /// "S2. Unsurprised sides declare actions".
        #[serde(rename = "s2_declare")]
        SurpriseDeclare => "s2_declare",
        /// "S2a. Roll initiative (1d6) for each unsurprised side if there are multiple".
        #[serde(rename = "s2a_initiative")]
        SurpriseInitiative => "s2a_initiative",
        /// "S3. Unsurprised movement occurs".
        #[serde(rename = "s3_movement")]
        SurpriseMovement => "s3_movement",
        /// "S4. Unsurprised ranged attacks occur".
        #[serde(rename = "s4_ranged")]
        SurpriseRanged => "s4_ranged",
        /// "S5. Unsurprised spells occur".
        #[serde(rename = "s5_spells")]
        SurpriseSpells => "s5_spells",
        /// "S6. Unsurprised melee attacks occur".
        #[serde(rename = "s6_melee")]
        SurpriseMelee => "s6_melee",
        /// "1. All sides declare actions".
        Declare => "declare",
        /// "2. Roll initiative (1d6) for each side".
        Initiative => "initiative",
        /// "3. Movement occurs".
        Movement => "movement",
        /// "4. Ranged attacks occur".
        Ranged => "ranged",
        /// "5. Spells occur".
        Spells => "spells",
        /// "6. Melee attacks occur".
        Melee => "melee",
        /// "7. Repeat until slaughter, surrender, ceasefire, or retreat": combat is over.
        Ended => "ended",
    }
}

impl CombatPhase {
    /// The text's line for the step.
    pub fn label(self) -> &'static str {
        match self {
            CombatPhase::DetermineSurprise => "S1. Determine surprise",
            CombatPhase::SurpriseDeclare => "S2. Unsurprised sides declare actions",
            CombatPhase::SurpriseInitiative => "S2a. Roll initiative (1d6) for each unsurprised side",
            CombatPhase::SurpriseMovement => "S3. Unsurprised movement occurs",
            CombatPhase::SurpriseRanged => "S4. Unsurprised ranged attacks occur",
            CombatPhase::SurpriseSpells => "S5. Unsurprised spells occur",
            CombatPhase::SurpriseMelee => "S6. Unsurprised melee attacks occur",
            CombatPhase::Declare => "1. All sides declare actions",
            CombatPhase::Initiative => "2. Roll initiative (1d6) for each side",
            CombatPhase::Movement => "3. Movement occurs",
            CombatPhase::Ranged => "4. Ranged attacks occur",
            CombatPhase::Spells => "5. Spells occur",
            CombatPhase::Melee => "6. Melee attacks occur",
            CombatPhase::Ended => "7. Combat over",
        }
    }

    /// Whether the step belongs to the surprise round (S1–S6).
    pub fn in_surprise_round(self) -> bool {
        matches!(
            self,
            CombatPhase::DetermineSurprise
                | CombatPhase::SurpriseDeclare
                | CombatPhase::SurpriseInitiative
                | CombatPhase::SurpriseMovement
                | CombatPhase::SurpriseRanged
                | CombatPhase::SurpriseSpells
                | CombatPhase::SurpriseMelee
        )
    }
}

crate::rules::named_enum! {
    /// How a combat ends: "Repeat until slaughter, surrender, ceasefire, or retreat".
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CombatEnd {
        /// "slaughter".
        Slaughter => "slaughter",
        /// "surrender".
        Surrender => "surrender",
        /// "ceasefire".
        Ceasefire => "ceasefire",
        /// "retreat".
        Retreat => "retreat",
    }
}

/// One side's initiative die.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideInitiative {
    /// The side's index.
    pub side: usize,
    /// The 1d6.
    pub roll: Roll,
}

/// An initiative roll for several sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Initiative {
    /// Each side's die, in side order.
    pub rolls: Vec<SideInitiative>,
    /// Dice rolled again to break ties ([`InitiativeTies::Reroll`]), in the order rolled.
    pub rerolls: Vec<SideInitiative>,
    /// The sides in acting order, highest first; sides in one group act together.
    pub order: Vec<Vec<usize>>,
}

/// 003 "Combat Structure": "the highest scoring side acts first": sides grouped by total, highest first, equal totals in one group (in the order given).
pub fn initiative_order(rolls: &[SideInitiative]) -> Vec<Vec<usize>> {
    let mut sorted: Vec<&SideInitiative> = rolls.iter().collect();
    sorted.sort_by_key(|r| Reverse(r.roll.total));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut last: Option<i32> = None;
    for r in sorted {
        match groups.last_mut() {
            Some(group) if last == Some(r.roll.total) => group.push(r.side),
            _ => groups.push(vec![r.side]),
        }
        last = Some(r.roll.total);
    }
    groups
}

fn roll_sides(sides: &[usize], src: &mut impl DiceSource) -> Vec<SideInitiative> {
    sides.iter().map(|&side| SideInitiative { side, roll: Roll::new(Dice::D6, src) }).collect()
}

/// 003 "Combat Structure": "Roll initiative (1d6) for each side; the highest scoring side acts first", ties under [`InitiativeTies`].
pub fn roll_initiative(sides: &[usize], ties: InitiativeTies, src: &mut impl DiceSource) -> Initiative {
    let rolls = roll_sides(sides, src);
    let mut order = initiative_order(&rolls);
    let mut rerolls = Vec::new();
    if ties == InitiativeTies::Reroll {
        for _ in 0..MAX_TIE_REROLLS {
            if order.iter().all(|g| g.len() <= 1) {
                break;
            }
            let mut next = Vec::new();
            for group in order {
                if group.len() <= 1 {
                    next.push(group);
                    continue;
                }
                let again = roll_sides(&group, src);
                next.extend(initiative_order(&again));
                rerolls.extend(again);
            }
            order = next;
        }
    }
    Initiative { rolls, rerolls, order }
}

/// What a step of the combat order brought.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CombatStep {
    /// The step now current.
    pub phase: CombatPhase,
    /// The round (the surprise round is round 1).
    pub round: u32,
    /// The sides that act in it, in acting order; a group acts together.
    pub acting: Vec<Vec<usize>>,
    /// The initiative rolled on entering an initiative step.
    pub initiative: Option<Initiative>,
}

/// 003 "Combat Structure" as a step machine: S1–S6 for the unsurprised, then rounds of declare,
/// initiative, movement, ranged, spells and melee until the combat ends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CombatOrder {
    /// The current step.
    pub phase: CombatPhase,
    /// The round: 1 is the surprise round (S1–S6), normal combat starts at 2.
    pub round: u32,
    /// Each side's surprise, from S1.
    pub surprised: Vec<bool>,
    /// This round's acting order (from its initiative), highest first.
    pub order: Vec<Vec<usize>>,
    /// How it ended, once it has.
    pub end: Option<CombatEnd>,
}

impl CombatOrder {
    /// "S1. Determine surprise": a combat of `surprised.len()` sides, each surprised or not (from [`roll_surprise`]).
    pub fn begin(surprised: Vec<bool>) -> CombatOrder {
        CombatOrder { phase: CombatPhase::DetermineSurprise, round: 1, surprised, order: Vec::new(), end: None }
    }

    /// The sides that are not surprised, in side order.
    pub fn unsurprised(&self) -> Vec<usize> {
        self.surprised.iter().enumerate().filter(|(_, s)| !**s).map(|(i, _)| i).collect()
    }

    fn all_sides(&self) -> Vec<usize> {
        (0..self.surprised.len()).collect()
    }

    /// 003 "Combat Structure": "7. Repeat until slaughter, surrender, ceasefire, or retreat": the combat ends.
    pub fn end(&mut self, how: CombatEnd) {
        self.end = Some(how);
        self.phase = CombatPhase::Ended;
        self.order.clear();
    }

    /// 003 "Combat Structure": on to the next step, rolling initiative where the step says.
    ///
    /// Readings: with no side unsurprised the surprise round passes with no one acting (every
    /// side "helpless for one round") and normal combat begins; S2a is skipped with a single
    /// unsurprised side ("if there are multiple"); with a single side in all, step 2 rolls
    /// nothing. Sides that tie act together unless [`InitiativeTies::Reroll`].
    pub fn advance(&mut self, settings: &OsrSettings, src: &mut impl DiceSource) -> CombatStep {
        use CombatPhase as P;
        let mut initiative = None;
        let unsurprised = self.unsurprised();
        let phase = self.phase;
        let next = match phase {
            P::DetermineSurprise if unsurprised.is_empty() => self.new_round(),
            P::DetermineSurprise => {
                self.order = vec![unsurprised.clone()];
                P::SurpriseDeclare
            }
            P::SurpriseDeclare if unsurprised.len() > 1 => {
                let rolled = roll_initiative(&unsurprised, settings.initiative_ties, src);
                self.order = rolled.order.clone();
                initiative = Some(rolled);
                P::SurpriseInitiative
            }
            P::SurpriseDeclare | P::SurpriseInitiative => P::SurpriseMovement,
            P::SurpriseMovement => P::SurpriseRanged,
            P::SurpriseRanged => P::SurpriseSpells,
            P::SurpriseSpells => P::SurpriseMelee,
            P::SurpriseMelee | P::Melee => self.new_round(),
            P::Declare => {
                let sides = self.all_sides();
                if sides.len() > 1 {
                    let rolled = roll_initiative(&sides, settings.initiative_ties, src);
                    self.order = rolled.order.clone();
                    initiative = Some(rolled);
                } else {
                    self.order = vec![sides];
                }
                P::Initiative
            }
            P::Initiative => P::Movement,
            P::Movement => P::Ranged,
            P::Ranged => P::Spells,
            P::Spells => P::Melee,
            P::Ended => P::Ended,
        };
        self.phase = next;
        CombatStep { phase: next, round: self.round, acting: self.order.clone(), initiative }
    }

    /// "S7. Once all unsurprised sides have acted, normal combat begins" / "7. Repeat": a new round's declarations.
    fn new_round(&mut self) -> CombatPhase {
        self.round = self.round.saturating_add(1);
        self.order = vec![self.all_sides()];
        CombatPhase::Declare
    }
}

// ---------------------------------------------------------------------------------------------
// Morale and loyalty
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// Morale (monsters) or loyalty (henchmen): "Both are fundamentally the same".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum MoraleKind {
        /// A monster's morale.
        #[default]
        Morale => "morale",
        /// A henchman's loyalty.
        Loyalty => "loyalty",
    }
}

crate::rules::named_enum! {
    /// A circumstance that calls for a morale or loyalty check.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum MoraleTrigger {
        /// "30% or more of their group are dead" (henchmen: "of their party").
        GroupDead => "group_dead",
        /// "they only have 30% or less hp remaining".
        LowHp => "low_hp",
        /// Henchmen: "their leader is reduced to 25% or less hp".
        LeaderLowHp => "leader_low_hp",
        /// Henchmen: "their leader dies": the check fails automatically.
        LeaderDied => "leader_died",
    }
}

/// A henchman's leader, for loyalty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LeaderState {
    /// Hit points remaining.
    pub hp: i32,
    /// Hit points at full health.
    pub max_hp: i32,
    /// Dead.
    pub dead: bool,
}

/// What morale reads about the one who checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MoraleState {
    /// The group (or party) as it was when the encounter began.
    pub group_size: u32,
    /// How many of it are dead.
    pub group_dead: u32,
    /// The checker's hit points remaining.
    pub hp: i32,
    /// The checker's hit points at full health.
    pub max_hp: i32,
    /// A henchman's leader (ignored for monsters).
    pub leader: Option<LeaderState>,
}

/// Whether `part` is at least `percent`% of `whole` (exact, in integers); never for an empty whole.
fn at_least_percent(part: i64, whole: i64, percent: i64) -> bool {
    whole > 0 && part * 100 >= whole * percent
}

/// Whether `part` is at most `percent`% of `whole` (exact, in integers); never for a whole of 0 or less.
fn at_most_percent(part: i64, whole: i64, percent: i64) -> bool {
    whole > 0 && part * 100 <= whole * percent
}

/// 003 "Morale & Loyalty": "Monsters check morale when 30% or more of their group are dead or if they only have 30% or less hp remaining"; henchmen also "if their leader is reduced to 25% or less hp", and fail "if their leader dies".
///
/// Reading: "they ... hp" is the checker's own hit points ("the character acts normally": each
/// character checks); a dead leader is `leader_died`, not also `leader_low_hp`.
pub fn morale_triggers(kind: MoraleKind, state: &MoraleState) -> Vec<MoraleTrigger> {
    let mut out = Vec::new();
    if at_least_percent(i64::from(state.group_dead), i64::from(state.group_size), DEAD_PERCENT) {
        out.push(MoraleTrigger::GroupDead);
    }
    if at_most_percent(i64::from(state.hp), i64::from(state.max_hp), LOW_HP_PERCENT) {
        out.push(MoraleTrigger::LowHp);
    }
    if let (MoraleKind::Loyalty, Some(leader)) = (kind, state.leader) {
        if leader.dead {
            out.push(MoraleTrigger::LeaderDied);
        } else if at_most_percent(i64::from(leader.hp), i64::from(leader.max_hp), LEADER_LOW_HP_PERCENT) {
            out.push(MoraleTrigger::LeaderLowHp);
        }
    }
    out
}

/// Whether a check is due now, given the circumstances already checked for ([`MoraleRecheck`]).
pub fn morale_check_due(already_checked: &[MoraleTrigger], current: &[MoraleTrigger], recheck: MoraleRecheck) -> bool {
    match recheck {
        MoraleRecheck::NewTrigger => current.iter().any(|t| !already_checked.contains(t)),
        MoraleRecheck::EveryRound => !current.is_empty(),
    }
}

crate::rules::named_enum! {
    /// A morale or loyalty check's result.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum MoraleOutcome {
        /// "equal or lower then the character acts normally".
        ActsNormally => "acts_normally",
        /// Failed: "they will flee if possible".
        Flees => "flees",
        /// Failed: "or surrender if unable".
        Surrenders => "surrenders",
    }
}

/// 003 "Morale & Loyalty": a failed check: "they will flee if possible or surrender if unable".
pub fn failed_morale(can_flee: bool) -> MoraleOutcome {
    if can_flee { MoraleOutcome::Flees } else { MoraleOutcome::Surrenders }
}

/// One morale or loyalty check's inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoraleCheck<'a> {
    /// Morale or loyalty.
    pub kind: MoraleKind,
    /// The morale or loyalty score.
    pub score: i32,
    /// The referee's changes to the score for circumstances, each with its reason.
    pub score_modifiers: &'a [Modifier],
    /// "A group who knows there is no escape and that they will be killed even if they surrender".
    pub fights_to_the_last: bool,
    /// A henchman's leader has died.
    pub leader_died: bool,
    /// Flight is possible.
    pub can_flee: bool,
}

/// A morale or loyalty check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoraleResult {
    /// Morale or loyalty.
    pub kind: MoraleKind,
    /// The score before the referee's changes.
    pub base_score: i32,
    /// The referee's changes, in order (a fight to the last is the last).
    pub score_modifiers: Vec<Modifier>,
    /// The score rolled against.
    pub score: i32,
    /// The 2d10, passed (acts normally) at or under the score; none on an automatic failure.
    pub roll: Option<Roll>,
    /// "Henchmen automatically fall loyalty checks if their leader dies".
    pub automatic_failure: bool,
    /// The result.
    pub outcome: MoraleOutcome,
}

/// 003 "Morale & Loyalty": "roll 2d10: If the result is equal or lower then the character acts normally"; "the referee may modify morale scores".
///
/// The referee's circumstances change the score (the target), not the dice. A henchman whose
/// leader died fails without a roll. "fight to the last" raises the score to
/// [`FIGHT_TO_THE_LAST_SCORE`] (a reading).
pub fn roll_morale(check: &MoraleCheck, src: &mut impl DiceSource) -> MoraleResult {
    let mut score_modifiers: Vec<Modifier> = check.score_modifiers.iter().filter(|m| m.value != 0).cloned().collect();
    let mut score = check.score.saturating_add(score_modifiers.iter().map(|m| m.value).sum::<i32>());
    if check.fights_to_the_last && score < FIGHT_TO_THE_LAST_SCORE {
        score_modifiers.push(Modifier {
            reason: "no escape, killed even if they surrender: fight to the last".into(),
            value: FIGHT_TO_THE_LAST_SCORE - score,
        });
        score = FIGHT_TO_THE_LAST_SCORE;
    }
    let automatic_failure = check.kind == MoraleKind::Loyalty && check.leader_died;
    let (roll, outcome) = if automatic_failure {
        (None, failed_morale(check.can_flee))
    } else {
        let roll = Roll::new(Dice::TwoD10, src).at_most(score);
        let outcome =
            if roll.passed() == Some(true) { MoraleOutcome::ActsNormally } else { failed_morale(check.can_flee) };
        (Some(roll), outcome)
    };
    MoraleResult { kind: check.kind, base_score: check.score, score_modifiers, score, roll, automatic_failure, outcome }
}

// ---------------------------------------------------------------------------------------------
// A scene's attack table (not in the text)
// ---------------------------------------------------------------------------------------------

/// The dice an attack table may roll: the 1-based single dice (RULES-NOTES "Dice": the OSR
/// dice are 1-based; the Morval D10 and D% show 0, MD is hidden from the players).
pub const ATTACK_DICE: [Dice; 6] = [Dice::D3, Dice::D4, Dice::D6, Dice::D8, Dice::D12, Dice::D20];
/// Most damage dice one attack rolls (a guard on a scene's number, not a rule).
pub const MAX_DAMAGE_DICE: u32 = 20;

fn is_zero(v: &i32) -> bool {
    *v == 0
}

fn one_die() -> u32 {
    1
}

fn is_one_die(n: &u32) -> bool {
    *n == 1
}

fn is_not(b: &bool) -> bool {
    !*b
}

/// One combatant's attack from a scene's table. Attack resolution is not in 003 ("Combat
/// Structure" only orders the phases): every number here is the scene author's, none the
/// text's. The attack die plus `bonus` hits at `hit_on` or more; a hit rolls `damage_dice`
/// dice of `damage` plus `damage_bonus`, taken off the target's hit points.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OsrAttack {
    /// The attack die: one of [`ATTACK_DICE`].
    pub roll: Dice,
    /// The total that hits: the die plus `bonus`, at or above it.
    pub hit_on: i32,
    /// Added to the attack die.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bonus: i32,
    /// The damage die: one of [`ATTACK_DICE`].
    pub damage: Dice,
    /// How many damage dice are rolled (1 to [`MAX_DAMAGE_DICE`]).
    #[serde(default = "one_die", skip_serializing_if = "is_one_die")]
    pub damage_dice: u32,
    /// Added to the damage dice.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub damage_bonus: i32,
    /// A ranged attack: rolled in the ranged phase (S4, 4), not the melee phase (S6, 6).
    #[serde(default, skip_serializing_if = "is_not")]
    pub ranged: bool,
}

impl OsrAttack {
    /// The attack as the GM reads it: "D20+1 hits on 12+, damage 2×D6-1" ("ranged: " first
    /// for a ranged attack).
    pub fn label(&self) -> String {
        let signed = |v: i32| if v == 0 { String::new() } else { format!("{v:+}") };
        let dice = if self.damage_dice == 1 {
            self.damage.label().to_string()
        } else {
            format!("{}×{}", self.damage_dice, self.damage.label())
        };
        format!(
            "{}{}{} hits on {}+, damage {dice}{}",
            if self.ranged { "ranged: " } else { "" },
            self.roll.label(),
            signed(self.bonus),
            self.hit_on,
            signed(self.damage_bonus)
        )
    }
}

crate::rules::named_enum! {
    /// An attack roll's result.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum AttackOutcome {
        /// The total reached the number to hit.
        Hit => "hit",
        /// It fell short.
        Miss => "miss",
    }
}

/// A scene's attack table: a total at or above the number to hit hits (the author's numbers;
/// no face hits or misses of itself).
pub fn attack_band(total: i32, hit_on: i32) -> AttackOutcome {
    if total >= hit_on { AttackOutcome::Hit } else { AttackOutcome::Miss }
}

/// A damage roll: the dice, the first carrying the bonus, and the hit points taken off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DamageRoll {
    /// Each damage die, in the order rolled; the first carries `damage_bonus`.
    pub rolls: Vec<Roll>,
    /// The dice's totals added, at least 0 (a hit never heals).
    pub damage: i32,
}

/// A scene's attack table: `damage_dice` dice of `damage` plus `damage_bonus`, at least 0.
///
/// The count is held to 1 to [`MAX_DAMAGE_DICE`] (a scene's is checked on load).
pub fn roll_damage(attack: &OsrAttack, src: &mut impl DiceSource) -> DamageRoll {
    let count = attack.damage_dice.clamp(1, MAX_DAMAGE_DICE);
    let mut rolls: Vec<Roll> = (0..count).map(|_| Roll::new(attack.damage, src)).collect();
    if let Some(first) = rolls.first_mut() {
        first.add("damage bonus", attack.damage_bonus);
    }
    let damage = rolls.iter().map(|r| r.total).sum::<i32>().max(0);
    DamageRoll { rolls, damage }
}

/// One rolled attack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AttackResult {
    /// The attack die with its bonus, against the number to hit ("at least").
    pub roll: Roll,
    /// Hit or miss.
    pub outcome: AttackOutcome,
    /// The damage, on a hit.
    pub damage: Option<DamageRoll>,
}

impl AttackResult {
    /// Hit points taken off: the damage on a hit, 0 on a miss.
    pub fn damage_done(&self) -> i32 {
        self.damage.as_ref().map_or(0, |d| d.damage)
    }
}

/// A scene's attack table: the attack die plus the bonus against `hit_on`; on a hit, the damage.
pub fn roll_attack(attack: &OsrAttack, src: &mut impl DiceSource) -> AttackResult {
    let roll = Roll::new(attack.roll, src).modifier("attack bonus", attack.bonus).at_least(attack.hit_on);
    let outcome = attack_band(roll.total, attack.hit_on);
    let damage = (outcome == AttackOutcome::Hit).then(|| roll_damage(attack, src));
    AttackResult { roll, outcome, damage }
}

// ---------------------------------------------------------------------------------------------
// Outcomes and rolls
// ---------------------------------------------------------------------------------------------

crate::rules::outcome::impl_outcome! {
    WanderingOutcome => |o| match o {
        WanderingOutcome::Encounter => Meaning::NONE.mark(Mark::Encounter),
        WanderingOutcome::NoEncounter => Meaning::NONE,
    };
    SurpriseOutcome => |o| match o {
        SurpriseOutcome::Neither => Meaning::NONE,
        SurpriseOutcome::PartySurprised => Meaning::NONE.mark(Mark::PartySurprised),
        SurpriseOutcome::MonstersSurprised => Meaning::NONE.mark(Mark::MonstersSurprised),
        SurpriseOutcome::Both => Meaning::NONE.mark(Mark::BothSurprised),
    };
    Reaction => |o| Meaning::NONE;
    MoraleOutcome => |o| match o {
        MoraleOutcome::ActsNormally => Meaning::NONE,
        MoraleOutcome::Flees | MoraleOutcome::Surrenders => Meaning::NONE.mark(Mark::Routed),
    };
    CombatEnd => |o| Meaning::NONE;
    CombatPhase => |o| Meaning::NONE;
    AttackOutcome => |o| Meaning::NONE;
}

// The rolls of each report in the order they were rolled (new events: no earlier log to keep).

impl Rolls for WanderingCheck {
    /// The D6.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for EncounterDistance {
    /// The 2d6.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for SideSurprise {
    /// The D6, if rolled.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for SurpriseResult {
    /// The party's die, then the encounter's.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.party.push_rolls(out);
        self.monsters.push_rolls(out);
    }
}

impl Rolls for ReactionResult {
    /// The 2d6.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for SideInitiative {
    /// The 1d6.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for Initiative {
    /// Each side's die, then the tie-breaking dice.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.rolls.push_rolls(out);
        self.rerolls.push_rolls(out);
    }
}

impl Rolls for CombatStep {
    /// The initiative dice, if rolled.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.initiative.push_rolls(out);
    }
}

impl Rolls for MoraleResult {
    /// The 2d10, if rolled.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for DamageRoll {
    /// Each damage die, in order.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.rolls.push_rolls(out);
    }
}

impl Rolls for AttackResult {
    /// The attack die, then the damage dice on a hit.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
        self.damage.push_rolls(out);
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

    /// Chi-square 99.9% critical values by degrees of freedom.
    const CHI_SQUARE_1_DF_999: f64 = 10.828;
    const CHI_SQUARE_5_DF_999: f64 = 20.515;
    const CHI_SQUARE_10_DF_999: f64 = 29.588;

    fn settings() -> OsrSettings {
        OsrSettings::default()
    }

    fn faces(f: &[u32]) -> crate::rules::dice::ScriptedFaces {
        ScriptedDice::faces(f.iter().copied())
    }

    fn mods(roll: &Roll) -> Vec<(&str, i32)> {
        roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect()
    }

    // ---- encumbrance ----

    /// "less than 50 lbs | 40' | 120'" ... "more than 200 lb* | 5' | 15'": each row's edges.
    #[test]
    fn weight_rows_and_their_edges() {
        use EncumbranceRow as R;
        for (lb, row) in [
            (0.0, R::LessThan50),
            (49.0, R::LessThan50),
            (49.9, R::LessThan50),
            (50.0, R::From50To100),
            (100.0, R::From50To100),
            (100.5, R::From101To150),
            (101.0, R::From101To150),
            (150.0, R::From101To150),
            (151.0, R::From151To200),
            (200.0, R::From151To200),
            (200.5, R::MoreThan200),
            (201.0, R::MoreThan200),
            (1000.0, R::MoreThan200),
            (-5.0, R::LessThan50),
            (f32::NAN, R::LessThan50),
        ] {
            assert_eq!(R::for_weight(lb), row, "{lb} lb");
        }
    }

    #[test]
    fn row_speeds_are_the_text_s() {
        use EncumbranceRow as R;
        let speed = |c, e| OsrSpeed { combat_ft: c, exploration_ft: e };
        assert_eq!(R::LessThan50.speed(), speed(40, 120));
        assert_eq!(R::From50To100.speed(), speed(30, 90));
        assert_eq!(R::From101To150.speed(), speed(20, 60));
        assert_eq!(R::From151To200.speed(), speed(10, 30));
        assert_eq!(R::MoreThan200.speed(), speed(5, 15));
    }

    /// "the starting tools, sundries, and worn armor ... are not weighed and tallied but weapons, additional armor, and any items acquired ... ARE tallied".
    #[test]
    fn only_weapons_extra_armour_and_finds_are_tallied() {
        let item = |kind, weight_lb| CarriedItem { kind, weight_lb };
        let items = [
            item(ItemKind::StartingTool, 10.0),
            item(ItemKind::Sundry, 5.0),
            item(ItemKind::WornArmour, 50.0),
            item(ItemKind::Weapon, 8.0),
            item(ItemKind::AdditionalArmour, 25.0),
            item(ItemKind::Acquired, 20.0),
            item(ItemKind::Acquired, -3.0),
        ];
        assert_eq!(tallied_weight_lb(&items), 53.0);
        assert!(!ItemKind::StartingTool.tallied() && !ItemKind::Sundry.tallied() && !ItemKind::WornArmour.tallied());
        assert!(ItemKind::Weapon.tallied() && ItemKind::AdditionalArmour.tallied() && ItemKind::Acquired.tallied());
    }

    /// "a character wearing plate but carrying less than 50 lbs has a combat speed of 30'".
    #[test]
    fn armour_and_weight_take_the_worse() {
        let s = settings();
        let plate = armour_row(Armour::Plate, &s);
        assert_eq!(plate, Some(EncumbranceRow::From50To100));
        let e = encumbrance(10.0, plate, false);
        assert_eq!((e.speed.combat_ft, e.limited_by), (30, SpeedLimit::Armour));
        let e = encumbrance(75.0, plate, false);
        assert_eq!((e.speed.combat_ft, e.limited_by), (30, SpeedLimit::Both));
        let e = encumbrance(120.0, plate, false);
        assert_eq!((e.speed, e.limited_by), (EncumbranceRow::From101To150.speed(), SpeedLimit::Weight));
        // Armour rows the text does not give: none by default, so the weight alone counts.
        for armour in [Armour::Unclothed, Armour::Clothed, Armour::Light, Armour::Medium, Armour::Heavy] {
            assert_eq!(armour_row(armour, &s), None, "{armour:?}");
        }
        let e = encumbrance(10.0, armour_row(Armour::Heavy, &s), false);
        assert_eq!((e.speed.combat_ft, e.limited_by), (40, SpeedLimit::Weight));
        let chain = OsrSettings {
            armour_rows: ArmourRows { medium: Some(EncumbranceRow::From101To150), ..ArmourRows::default() },
            ..settings()
        };
        assert_eq!(encumbrance(10.0, armour_row(Armour::Medium, &chain), false).speed.combat_ft, 20);
    }

    /// "*The referee may rule that certain weights or unwieldy masses allow no movement whatsoever."
    #[test]
    fn the_referee_may_allow_no_movement() {
        let e = encumbrance(250.0, None, true);
        assert_eq!(e.row, EncumbranceRow::MoreThan200);
        assert_eq!(e.limited_by, SpeedLimit::RefereeNoMovement);
        assert_eq!(e.speed, OsrSpeed { combat_ft: 0, exploration_ft: 0 });
    }

    /// RULES-NOTES: 1" = 10', a setting.
    #[test]
    fn feet_become_inches_at_the_scale() {
        let s = settings();
        let light = EncumbranceRow::LessThan50.speed();
        assert_eq!(light.combat_in(&s), 4.0);
        assert_eq!(light.exploration_in(&s), 12.0);
        let five = OsrSettings { feet_per_inch: 5.0, ..settings() };
        assert_eq!(light.combat_in(&five), 8.0);
        let broken = OsrSettings { feet_per_inch: 0.0, ..settings() };
        assert_eq!(light.combat_in(&broken), 4.0);
    }

    /// "a party will move as fast as its slowest member ...; if a full retreat is being enacted then no such compulsion exists".
    #[test]
    fn the_party_keeps_to_its_slowest() {
        let members = [
            EncumbranceRow::LessThan50.speed(),
            EncumbranceRow::From101To150.speed(),
            EncumbranceRow::From50To100.speed(),
        ];
        assert_eq!(party_pace(&members, false), PartyPace::Together(EncumbranceRow::From101To150.speed()));
        assert_eq!(party_pace(&members, true), PartyPace::EachOwn);
        assert_eq!(party_pace(&[], false), PartyPace::EachOwn);
    }

    // ---- time ----

    /// "the round (1 minute) and the turn (10 minutes)"; "For every two turns spent exploring".
    #[test]
    fn the_clock_counts_rounds_turns_and_checks() {
        let mut c = OsrClock::default();
        assert_eq!(c.turns_until_check(), 2);
        for _ in 0..9 {
            c.add_round();
        }
        assert_eq!((c.turns(), c.rounds_into_turn(), c.rounds), (0, 9, 9));
        c.add_round();
        assert_eq!((c.turns(), c.rounds_into_turn(), c.minutes), (1, 0, 10));
        assert!(!c.add_turn(true), "one exploring turn: no check yet");
        assert_eq!(c.turns_until_check(), 1);
        assert!(!c.add_turn(false), "a resting turn does not count");
        assert_eq!(c.turns_until_check(), 1);
        assert!(c.add_turn(true), "the second exploring turn brings the check");
        assert_eq!(c.turns_until_check(), 2);
        assert!(!c.add_turn(true));
        assert!(c.add_turn(true));
        assert_eq!((c.turns(), c.exploring_turns), (6, 4));
    }

    // ---- wandering monsters ----

    /// "a 1-in-6 chance": a 1 brings an encounter, a 2 does not.
    #[test]
    fn wandering_check_edges() {
        assert_eq!(wandering_band(1), WanderingOutcome::Encounter);
        assert_eq!(wandering_band(2), WanderingOutcome::NoEncounter);
        assert_eq!(wandering_band(6), WanderingOutcome::NoEncounter);
        let c = roll_wandering_check(&mut faces(&[1]));
        assert_eq!((c.outcome, c.roll.passed()), (WanderingOutcome::Encounter, Some(true)));
        assert_eq!(c.roll.rolls().len(), 1);
        let c = roll_wandering_check(&mut faces(&[2]));
        assert_eq!(c.outcome, WanderingOutcome::NoEncounter);
    }

    /// "up to 2d6x10 feet away in dungeons or yards in the wilderness".
    #[test]
    fn encounter_distances() {
        let d = roll_encounter_distance(Terrain::Dungeon, &mut faces(&[1, 1]));
        assert_eq!((d.distance, d.unit, d.feet), (20, DistanceUnit::Feet, 20));
        assert_eq!(d.inches(&settings()), 2.0);
        let d = roll_encounter_distance(Terrain::Dungeon, &mut faces(&[6, 6]));
        assert_eq!((d.distance, d.feet), (120, 120));
        assert_eq!(d.inches(&settings()), 12.0);
        let d = roll_encounter_distance(Terrain::Wilderness, &mut faces(&[1, 1]));
        assert_eq!((d.distance, d.unit, d.feet), (20, DistanceUnit::Yards, 60));
        let d = roll_encounter_distance(Terrain::Wilderness, &mut faces(&[6, 6]));
        assert_eq!((d.distance, d.feet), (120, 360));
        assert_eq!(d.inches(&settings()), 36.0);
    }

    /// "randomly determine its point of entry, ignoring illogical routes such as the empty room the party just left".
    #[test]
    fn entry_points_skip_the_illogical() {
        let door_just_left = EntryPoint { kind: EntryKind::Door, in_room_just_left: true, illogical: false };
        let corridor = EntryPoint { kind: EntryKind::CorridorEnd, ..EntryPoint::default() };
        let bricked = EntryPoint { kind: EntryKind::Door, in_room_just_left: false, illogical: true };
        let edge = EntryPoint { kind: EntryKind::TableEdge, ..EntryPoint::default() };
        let points = [door_just_left, corridor, bricked, edge];
        // Two logical points: a draw of 1 or 2 (the first or second logical).
        let c = choose_entry_point(&points, &mut faces(&[1]));
        assert_eq!((c.logical.clone(), c.chosen), (vec![1, 3], Some(1)));
        assert_eq!(choose_entry_point(&points, &mut faces(&[2])).chosen, Some(3));
        // One logical point: no draw.
        let mut none = faces(&[]);
        assert_eq!(choose_entry_point(&[door_just_left, edge], &mut none).chosen, Some(1));
        assert!(none.is_empty());
        // None logical: the GM places the monster.
        assert_eq!(choose_entry_point(&[door_just_left, bricked], &mut faces(&[])).chosen, None);
    }

    #[test]
    fn random_entry_is_even_among_logical_points() {
        let points = [
            EntryPoint { in_room_just_left: true, ..EntryPoint::default() },
            EntryPoint::default(),
            EntryPoint { kind: EntryKind::Portal, ..EntryPoint::default() },
            EntryPoint { kind: EntryKind::TableEdge, ..EntryPoint::default() },
        ];
        let mut src = SeededDice::new(24_003);
        let mut counts = [0u32; 4];
        for _ in 0..30_000 {
            if let Some(i) = choose_entry_point(&points, &mut src).chosen {
                counts[i] += 1;
            }
        }
        // The room just left never; the other three a third each.
        let chi = chi_square(&counts, &[0.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]);
        assert!(chi < 13.816, "entries {counts:?}");
    }

    // ---- surprise ----

    /// The two sentences of "Surprise", every combination of terrain, lights and hours.
    #[test]
    fn surprise_cases() {
        use Hours::{Active, Resting};
        use SurpriseCase::{BothTwoInSix, EncounterOneInSix};
        assert_eq!(surprise_case(Terrain::Dungeon, false, Active), BothTwoInSix);
        assert_eq!(surprise_case(Terrain::Dungeon, false, Resting), BothTwoInSix);
        assert_eq!(surprise_case(Terrain::Dungeon, true, Active), EncounterOneInSix);
        assert_eq!(surprise_case(Terrain::Dungeon, true, Resting), EncounterOneInSix);
        assert_eq!(surprise_case(Terrain::Wilderness, false, Active), BothTwoInSix);
        assert_eq!(surprise_case(Terrain::Wilderness, true, Active), BothTwoInSix);
        assert_eq!(surprise_case(Terrain::Wilderness, false, Resting), EncounterOneInSix);
        assert_eq!(BothTwoInSix.chances_in_six(), (2, 2));
        assert_eq!(EncounterOneInSix.chances_in_six(), (2, 1));
    }

    /// The Knights of the Fang: 1 in 6 knowing where the party is, never when it is trapped,
    /// 3 in 6 for neophytes on cursory duties; large, reckless or conspicuous groups cannot surprise.
    #[test]
    fn per_encounter_surprise_settings() {
        let dark = |e: EncounterSurprise| surprise_chances(Terrain::Dungeon, false, Hours::Active, &e);
        let plain = dark(EncounterSurprise::default());
        assert_eq!((plain.party_in_six, plain.monsters_in_six), (2, 2));
        let aware = |a| dark(EncounterSurprise { awareness: a, ..EncounterSurprise::default() }).monsters_in_six;
        assert_eq!(aware(MonsterAwareness::KnowsWhereabouts), 1);
        assert_eq!(aware(MonsterAwareness::KnowsTrapped), 0);
        assert_eq!(aware(MonsterAwareness::OffGuard), 3);
        let lit = surprise_chances(Terrain::Dungeon, true, Hours::Active, &EncounterSurprise::default());
        assert_eq!((lit.party_in_six, lit.monsters_in_six), (2, 1));
        let loud = dark(EncounterSurprise { monsters_cannot_surprise: true, ..EncounterSurprise::default() });
        assert_eq!((loud.party_in_six, loud.monsters_in_six), (0, 2));
        let loud_party = dark(EncounterSurprise { party_cannot_surprise: true, ..EncounterSurprise::default() });
        assert_eq!((loud_party.party_in_six, loud_party.monsters_in_six), (2, 0));
        let own = dark(EncounterSurprise {
            awareness: MonsterAwareness::OffGuard,
            monsters_in_six: Some(4),
            party_in_six: Some(9),
            ..EncounterSurprise::default()
        });
        assert_eq!((own.party_in_six, own.monsters_in_six), (6, 4));
    }

    /// "a 2-in-6 chance of being surprised": at or under the chance, each edge both sides.
    #[test]
    fn surprise_roll_edges() {
        for (chance, face, surprised) in
            [(2, 2, true), (2, 3, false), (1, 1, true), (1, 2, false), (3, 3, true), (3, 4, false)]
        {
            let s = roll_side_surprise(chance, &mut faces(&[face]));
            assert_eq!(s.surprised, surprised, "{face} against {chance} in 6");
        }
        let mut none = faces(&[]);
        let s = roll_side_surprise(0, &mut none);
        assert_eq!((s.roll, s.surprised), (None, false));
        let chances = SurpriseChances { case: SurpriseCase::BothTwoInSix, party_in_six: 2, monsters_in_six: 2 };
        let r = roll_surprise(chances, &mut faces(&[2, 3]));
        assert_eq!(r.outcome, SurpriseOutcome::PartySurprised);
        assert_eq!(r.rolls().len(), 2);
        assert_eq!(roll_surprise(chances, &mut faces(&[3, 1])).outcome, SurpriseOutcome::MonstersSurprised);
        assert_eq!(roll_surprise(chances, &mut faces(&[1, 2])).outcome, SurpriseOutcome::Both);
        assert_eq!(roll_surprise(chances, &mut faces(&[6, 3])).outcome, SurpriseOutcome::Neither);
    }

    #[test]
    fn surprise_rate_is_two_in_six() {
        let mut src = SeededDice::new(16);
        let trials = 30_000u32;
        let surprised = (0..trials).filter(|_| roll_side_surprise(2, &mut src).surprised).count() as u32;
        // 2 faces of 6: 1/3.
        let chi = chi_square(&[surprised, trials - surprised], &[1.0 / 3.0, 2.0 / 3.0]);
        assert!(chi < CHI_SQUARE_1_DF_999, "surprised {surprised}");
    }

    // ---- reactions ----

    /// "2-3| Hostile ... 12| Helpful", each edge both sides, and the clamp beyond 2–12.
    #[test]
    fn reaction_rows_and_edges() {
        use Reaction::*;
        for (total, row) in [
            (-3, Hostile),
            (1, Hostile),
            (2, Hostile),
            (3, Hostile),
            (4, Unfriendly),
            (5, Unfriendly),
            (6, Indifferent),
            (7, Indifferent),
            (8, Unsure),
            (9, Unsure),
            (10, Friendly),
            (11, Friendly),
            (12, Helpful),
            (13, Helpful),
            (20, Helpful),
        ] {
            assert_eq!(reaction_band(total), row, "{total}");
        }
    }

    #[test]
    fn possible_actions_are_the_text_s() {
        let words = |r: Reaction| r.possible_actions().iter().map(|a| a.label()).collect::<Vec<_>>().join(", ");
        assert_eq!(words(Reaction::Hostile), "attack, offer horrible deal");
        assert_eq!(words(Reaction::Unfriendly), "insult, draw weapons, offer bad deal");
        assert_eq!(words(Reaction::Indifferent), "ignore, offer normal deal");
        assert_eq!(words(Reaction::Unsure), "observe, retreat, hide");
        assert_eq!(words(Reaction::Friendly), "non-combat aid, offer good deal");
        assert_eq!(words(Reaction::Helpful), "combat aid, offer great deal");
        let all: usize = Reaction::ALL.iter().map(|r| r.possible_actions().len()).sum();
        assert_eq!(all, PossibleAction::ALL.len(), "each action in one row");
    }

    #[test]
    fn the_reaction_roll_adds_the_face_and_biases() {
        let biases = [ReactionBias { reason: "anti-cleric meets a cleric".into(), value: -2 }];
        let r = roll_reaction(1, &biases, &mut faces(&[3, 4]));
        assert_eq!(r.roll.total, 6);
        assert_eq!(mods(&r.roll), vec![("face's reaction modifier", 1), ("anti-cleric meets a cleric", -2)]);
        assert_eq!((r.reaction, r.clamped), (Reaction::Indifferent, false));
        let r = roll_reaction(-2, &[], &mut faces(&[1, 1]));
        assert_eq!((r.roll.total, r.reaction, r.clamped), (0, Reaction::Hostile, true));
        let r = roll_reaction(2, &[], &mut faces(&[6, 5]));
        assert_eq!((r.roll.total, r.reaction, r.clamped), (13, Reaction::Helpful, true));
        let r = roll_reaction(0, &[], &mut faces(&[6, 6]));
        assert_eq!((r.reaction, r.clamped), (Reaction::Helpful, false));
    }

    /// "the party member with the highest Charisma (unless the party wishes to nominate someone else as their 'face')".
    #[test]
    fn the_face_is_the_highest_charisma_unless_nominated() {
        let m = |charisma, reaction_modifier| FaceCandidate { charisma, reaction_modifier };
        let party = [m(10, 0), m(15, 1), m(15, 2), m(8, -1)];
        assert_eq!(choose_face(&party, None), Some(1));
        assert_eq!(choose_face(&party, Some(3)), Some(3));
        assert_eq!(choose_face(&party, Some(9)), Some(1));
        assert_eq!(choose_face(&[], None), None);
    }

    /// Reaction rows from 2d6 worked out by hand: ways to roll each total of two dice are
    /// 1,2,3,4,5,6,5,4,3,2,1 (2..12) of 36. Modifier 0: hostile 2–3 = 1+2 = 3/36, unfriendly
    /// 4–5 = 3+4 = 7/36, indifferent 6–7 = 5+6 = 11/36, unsure 8–9 = 5+4 = 9/36, friendly
    /// 10–11 = 3+2 = 5/36, helpful 12 = 1/36. Modifier +2 (natural 2–12 read as 4–14):
    /// hostile needs natural ≤ 1, 0/36; unfriendly natural 2–3, 3/36; indifferent 4–5, 7/36;
    /// unsure 6–7, 11/36; friendly 8–9, 9/36; helpful 10–12 (clamped), 3+2+1 = 6/36.
    #[test]
    fn reaction_rows_match_the_text() {
        let expected: [(i32, [f64; 6]); 2] = [
            (0, [3.0 / 36.0, 7.0 / 36.0, 11.0 / 36.0, 9.0 / 36.0, 5.0 / 36.0, 1.0 / 36.0]),
            (2, [0.0, 3.0 / 36.0, 7.0 / 36.0, 11.0 / 36.0, 9.0 / 36.0, 6.0 / 36.0]),
        ];
        let mut src = SeededDice::new(2_612);
        for (modifier, probabilities) in expected {
            let mut observed = [0u32; 6];
            for _ in 0..36_000 {
                let r = roll_reaction(modifier, &[], &mut src);
                let row = Reaction::ALL.iter().position(|&x| x == r.reaction).expect("a row");
                observed[row] += 1;
            }
            let chi = chi_square(&observed, &probabilities);
            assert!(chi < CHI_SQUARE_5_DF_999, "modifier {modifier}: {observed:?}, chi-square {chi}");
        }
    }

    // ---- wandering statistics ----

    /// "a 1-in-6 chance": one face of six, 1/6 encounters, 5/6 none.
    #[test]
    fn wandering_rate_is_one_in_six() {
        let mut src = SeededDice::new(6_001);
        let trials = 60_000u32;
        let encounters = (0..trials)
            .filter(|_| roll_wandering_check(&mut src).outcome == WanderingOutcome::Encounter)
            .count() as u32;
        let chi = chi_square(&[encounters, trials - encounters], &[1.0 / 6.0, 5.0 / 6.0]);
        assert!(chi < CHI_SQUARE_1_DF_999, "encounters {encounters} of {trials}");
    }

    /// "2d6x10 feet": 20, 30, ... 120 feet with the 2d6 chances 1,2,3,4,5,6,5,4,3,2,1 in 36.
    #[test]
    fn encounter_distance_distribution() {
        let ways = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
        let expected: Vec<f64> = ways.iter().map(|w| w / 36.0).collect();
        let mut src = SeededDice::new(2_006);
        let mut observed = [0u32; 11];
        for _ in 0..36_000 {
            let d = roll_encounter_distance(Terrain::Dungeon, &mut src);
            assert!(d.feet.is_multiple_of(10) && (20..=120).contains(&d.feet), "{} feet", d.feet);
            observed[(d.feet / 10 - 2) as usize] += 1;
        }
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI_SQUARE_10_DF_999, "{observed:?}, chi-square {chi}");
    }

    // ---- combat order ----

    fn step(order: &mut CombatOrder, src: &mut impl DiceSource) -> (CombatPhase, u32, Vec<Vec<usize>>) {
        let s = order.advance(&settings(), src);
        (s.phase, s.round, s.acting)
    }

    /// S1–S6 with one side surprised: no S2a (a single unsurprised side), then normal rounds.
    #[test]
    fn combat_order_with_one_side_surprised() {
        use CombatPhase as P;
        let mut o = CombatOrder::begin(vec![false, true]);
        assert_eq!(o.phase, P::DetermineSurprise);
        let mut dice = faces(&[2, 5]);
        assert_eq!(step(&mut o, &mut dice), (P::SurpriseDeclare, 1, vec![vec![0]]));
        assert_eq!(step(&mut o, &mut dice), (P::SurpriseMovement, 1, vec![vec![0]]));
        assert_eq!(step(&mut o, &mut dice).0, P::SurpriseRanged);
        assert_eq!(step(&mut o, &mut dice).0, P::SurpriseSpells);
        assert_eq!(step(&mut o, &mut dice).0, P::SurpriseMelee);
        assert_eq!(step(&mut o, &mut dice), (P::Declare, 2, vec![vec![0, 1]]));
        let s = o.advance(&settings(), &mut dice);
        assert_eq!((s.phase, s.acting.clone()), (P::Initiative, vec![vec![1], vec![0]]), "5 beats 2");
        assert_eq!(s.rolls().len(), 2);
        for phase in [P::Movement, P::Ranged, P::Spells, P::Melee] {
            assert_eq!(step(&mut o, &mut dice), (phase, 2, vec![vec![1], vec![0]]));
        }
        assert_eq!(step(&mut o, &mut dice).0, P::Declare);
        assert_eq!(o.round, 3);
        o.end(CombatEnd::Surrender);
        assert_eq!((o.phase, o.end), (P::Ended, Some(CombatEnd::Surrender)));
        assert_eq!(step(&mut o, &mut dice).0, P::Ended);
        assert!(dice.is_empty());
    }

    /// No one surprised: "S2a. Roll initiative (1d6) for each unsurprised side if there are multiple".
    #[test]
    fn combat_order_with_no_one_surprised_rolls_s2a() {
        use CombatPhase as P;
        let mut o = CombatOrder::begin(vec![false, false, false]);
        let mut dice = faces(&[3, 6, 3]);
        assert_eq!(step(&mut o, &mut dice), (P::SurpriseDeclare, 1, vec![vec![0, 1, 2]]));
        let s = o.advance(&settings(), &mut dice);
        assert_eq!(s.phase, P::SurpriseInitiative);
        // 6 first; the two 3s tie and act together (the default reading).
        assert_eq!(s.acting, vec![vec![1], vec![0, 2]]);
        assert_eq!(step(&mut o, &mut dice).0, P::SurpriseMovement);
    }

    /// Every side surprised: the surprise round passes, normal combat begins in round 2.
    #[test]
    fn combat_order_with_everyone_surprised() {
        let mut o = CombatOrder::begin(vec![true, true]);
        assert_eq!(step(&mut o, &mut faces(&[])), (CombatPhase::Declare, 2, vec![vec![0, 1]]));
    }

    #[test]
    fn initiative_ties() {
        let sides = [0, 1, 2];
        let i = roll_initiative(&sides, InitiativeTies::Simultaneous, &mut faces(&[4, 4, 1]));
        assert_eq!(i.order, vec![vec![0, 1], vec![2]]);
        assert!(i.rerolls.is_empty());
        // Reroll: the tied 4s roll again, 2 then 5: side 1 first.
        let i = roll_initiative(&sides, InitiativeTies::Reroll, &mut faces(&[4, 4, 1, 2, 5]));
        assert_eq!(i.order, vec![vec![1], vec![0], vec![2]]);
        assert_eq!(i.rolls().len(), 5);
        // A tie again rolls again.
        let i = roll_initiative(&[0, 1], InitiativeTies::Reroll, &mut faces(&[3, 3, 6, 6, 1, 2]));
        assert_eq!(i.order, vec![vec![1], vec![0]]);
    }

    // ---- morale ----

    fn state(group_size: u32, group_dead: u32, hp: i32, max_hp: i32) -> MoraleState {
        MoraleState { group_size, group_dead, hp, max_hp, leader: None }
    }

    /// "30% or more of their group are dead", "30% or less hp remaining", each edge both sides.
    #[test]
    fn morale_trigger_edges() {
        use MoraleTrigger::*;
        let none: Vec<MoraleTrigger> = Vec::new();
        assert_eq!(morale_triggers(MoraleKind::Morale, &state(10, 2, 10, 10)), none);
        assert_eq!(morale_triggers(MoraleKind::Morale, &state(10, 3, 10, 10)), vec![GroupDead]);
        // 3 of 9 is 33%; 2 of 9 is 22%.
        assert_eq!(morale_triggers(MoraleKind::Morale, &state(9, 3, 10, 10)), vec![GroupDead]);
        assert_eq!(morale_triggers(MoraleKind::Morale, &state(9, 2, 10, 10)), none);
        assert_eq!(morale_triggers(MoraleKind::Morale, &state(10, 0, 3, 10)), vec![LowHp]);
        assert_eq!(morale_triggers(MoraleKind::Morale, &state(10, 0, 4, 10)), none);
        // 30% of 7 hp is 2.1: 2 is under, 3 is over.
        assert_eq!(morale_triggers(MoraleKind::Morale, &state(1, 0, 2, 7)), vec![LowHp]);
        assert_eq!(morale_triggers(MoraleKind::Morale, &state(1, 0, 3, 7)), none);
        assert_eq!(morale_triggers(MoraleKind::Morale, &state(0, 0, 0, 0)), none);
        assert_eq!(morale_triggers(MoraleKind::Morale, &state(10, 5, 1, 10)), vec![GroupDead, LowHp]);
    }

    /// Henchmen: "if their leader is reduced to 25% or less hp"; "automatically fall loyalty checks if their leader dies".
    #[test]
    fn leader_triggers_are_for_henchmen() {
        use MoraleTrigger::*;
        let none: Vec<MoraleTrigger> = Vec::new();
        let with = |hp, dead| MoraleState { leader: Some(LeaderState { hp, max_hp: 20, dead }), ..state(4, 0, 10, 10) };
        assert_eq!(morale_triggers(MoraleKind::Loyalty, &with(5, false)), vec![LeaderLowHp]);
        assert_eq!(morale_triggers(MoraleKind::Loyalty, &with(6, false)), none);
        assert_eq!(morale_triggers(MoraleKind::Loyalty, &with(0, true)), vec![LeaderDied]);
        assert_eq!(morale_triggers(MoraleKind::Morale, &with(0, true)), none, "monsters have no leader rule");
    }

    #[test]
    fn morale_rechecks() {
        use MoraleTrigger::*;
        assert!(morale_check_due(&[], &[GroupDead], MoraleRecheck::NewTrigger));
        assert!(!morale_check_due(&[GroupDead], &[GroupDead], MoraleRecheck::NewTrigger));
        assert!(morale_check_due(&[GroupDead], &[GroupDead, LowHp], MoraleRecheck::NewTrigger));
        assert!(morale_check_due(&[GroupDead], &[GroupDead], MoraleRecheck::EveryRound));
        assert!(!morale_check_due(&[], &[], MoraleRecheck::EveryRound));
    }

    fn check(score: i32, score_modifiers: &[Modifier]) -> MoraleCheck<'_> {
        MoraleCheck {
            kind: MoraleKind::Morale,
            score,
            score_modifiers,
            fights_to_the_last: false,
            leader_died: false,
            can_flee: true,
        }
    }

    /// "roll 2d10: If the result is equal or lower then the character acts normally"; "flee if possible or surrender if unable".
    #[test]
    fn morale_roll_edges() {
        let r = roll_morale(&check(7, &[]), &mut faces(&[3, 4]));
        assert_eq!((r.outcome, r.roll.as_ref().map(|r| r.total)), (MoraleOutcome::ActsNormally, Some(7)));
        let r = roll_morale(&check(7, &[]), &mut faces(&[4, 4]));
        assert_eq!(r.outcome, MoraleOutcome::Flees);
        let r = roll_morale(&MoraleCheck { can_flee: false, ..check(7, &[]) }, &mut faces(&[4, 4]));
        assert_eq!(r.outcome, MoraleOutcome::Surrenders);
        // 2d10 is 2–20: a score of 1 always fails, 20 never.
        assert_eq!(roll_morale(&check(1, &[]), &mut faces(&[1, 1])).outcome, MoraleOutcome::Flees);
        assert_eq!(roll_morale(&check(20, &[]), &mut faces(&[10, 10])).outcome, MoraleOutcome::ActsNormally);
    }

    /// "the referee may modify morale scores to reflect circumstances"; "fight to the last".
    #[test]
    fn morale_scores_are_modified() {
        let changes =
            [Modifier { reason: "chief slain".into(), value: -2 }, Modifier { reason: "none".into(), value: 0 }];
        let r = roll_morale(&check(9, &changes), &mut faces(&[3, 4]));
        assert_eq!((r.base_score, r.score, r.score_modifiers.len()), (9, 7, 1));
        assert_eq!(r.outcome, MoraleOutcome::ActsNormally);
        let r = roll_morale(&check(9, &changes), &mut faces(&[4, 4]));
        assert_eq!(r.outcome, MoraleOutcome::Flees);
        let last = MoraleCheck { fights_to_the_last: true, ..check(5, &[]) };
        let r = roll_morale(&last, &mut faces(&[10, 10]));
        assert_eq!((r.score, r.outcome), (20, MoraleOutcome::ActsNormally));
        assert_eq!(r.score_modifiers.last().map(|m| m.value), Some(15));
    }

    /// "Henchmen automatically fall loyalty checks if their leader dies": no dice.
    #[test]
    fn a_dead_leader_fails_loyalty_without_a_roll() {
        let c = MoraleCheck { kind: MoraleKind::Loyalty, leader_died: true, ..check(12, &[]) };
        let mut none = faces(&[]);
        let r = roll_morale(&c, &mut none);
        assert_eq!((r.roll.is_none(), r.automatic_failure, r.outcome), (true, true, MoraleOutcome::Flees));
        let r = roll_morale(&MoraleCheck { can_flee: false, ..c }, &mut none);
        assert_eq!(r.outcome, MoraleOutcome::Surrenders);
        // A monster's "leader" is no rule of the text: it rolls.
        let r = roll_morale(&MoraleCheck { kind: MoraleKind::Morale, ..c }, &mut faces(&[1, 1]));
        assert_eq!((r.automatic_failure, r.outcome), (false, MoraleOutcome::ActsNormally));
    }

    /// 2d10 ≤ 7 by hand: pairs (a, b) of 1–10 with a + b = s number s − 1 for s ≤ 11, so
    /// totals 2..7 give 1+2+3+4+5+6 = 21 of 100.
    #[test]
    fn morale_rate_matches_the_text() {
        let mut src = SeededDice::new(2_010);
        let trials = 40_000u32;
        let normal = (0..trials)
            .filter(|_| roll_morale(&check(7, &[]), &mut src).outcome == MoraleOutcome::ActsNormally)
            .count() as u32;
        let chi = chi_square(&[normal, trials - normal], &[0.21, 0.79]);
        assert!(chi < CHI_SQUARE_1_DF_999, "acts normally {normal} of {trials}");
    }

    // ---- a scene's attack table ----

    fn attack(roll: Dice, hit_on: i32, bonus: i32) -> OsrAttack {
        OsrAttack { roll, hit_on, bonus, damage: Dice::D6, damage_dice: 1, damage_bonus: 0, ranged: false }
    }

    /// The table's number to hit: a hit exactly at it, a miss one below.
    #[test]
    fn attack_edges() {
        assert_eq!(attack_band(12, 12), AttackOutcome::Hit);
        assert_eq!(attack_band(11, 12), AttackOutcome::Miss);
        assert_eq!(attack_band(13, 12), AttackOutcome::Hit);
        // D20 + 1 against 14: a 13 makes 14, a hit (then the D6); a 12 makes 13, a miss.
        let a = attack(Dice::D20, 14, 1);
        let r = roll_attack(&a, &mut faces(&[13, 4]));
        assert_eq!((r.outcome, r.roll.total, r.roll.target), (AttackOutcome::Hit, 14, Some(14)));
        assert_eq!(r.roll.passed(), Some(true));
        assert_eq!(mods(&r.roll), vec![("attack bonus", 1)]);
        assert_eq!((r.damage_done(), r.rolls().len()), (4, 2));
        let mut dice = faces(&[12]);
        let r = roll_attack(&a, &mut dice);
        assert_eq!((r.outcome, r.roll.total, r.damage_done()), (AttackOutcome::Miss, 13, 0));
        assert!(r.damage.is_none() && dice.is_empty(), "a miss rolls no damage");
        assert_eq!(r.rolls().len(), 1);
        // A D6 table, 5 to hit: 5 hits, 4 misses; a bonus of -2 makes a 6 a 4, a miss.
        assert_eq!(roll_attack(&attack(Dice::D6, 5, 0), &mut faces(&[5, 1])).outcome, AttackOutcome::Hit);
        assert_eq!(roll_attack(&attack(Dice::D6, 5, 0), &mut faces(&[4])).outcome, AttackOutcome::Miss);
        assert_eq!(roll_attack(&attack(Dice::D6, 5, -2), &mut faces(&[6])).outcome, AttackOutcome::Miss);
        assert_eq!(roll_attack(&attack(Dice::D6, 5, -2), &mut faces(&[1])).roll.total, -1);
    }

    /// Damage: each die, the bonus on the first, never below 0; the count held to 1..=20.
    #[test]
    fn damage_adds_the_dice_and_the_bonus() {
        let a = OsrAttack { damage_dice: 2, damage_bonus: 1, ..attack(Dice::D20, 10, 0) };
        let d = roll_damage(&a, &mut faces(&[3, 5]));
        assert_eq!((d.damage, d.rolls.len()), (9, 2));
        assert_eq!(mods(&d.rolls[0]), vec![("damage bonus", 1)]);
        assert!(d.rolls[1].modifiers.is_empty());
        assert_eq!(d.rolls().len(), 2);
        let weak = OsrAttack { damage: Dice::D3, damage_bonus: -5, ..attack(Dice::D20, 10, 0) };
        let d = roll_damage(&weak, &mut faces(&[3]));
        assert_eq!((d.rolls[0].total, d.damage), (-2, 0), "a hit never heals");
        let none = OsrAttack { damage_dice: 0, ..attack(Dice::D20, 10, 0) };
        assert_eq!(roll_damage(&none, &mut faces(&[2])).rolls.len(), 1);
        let many = OsrAttack { damage_dice: 500, ..attack(Dice::D20, 10, 0) };
        assert_eq!(roll_damage(&many, &mut SeededDice::new(1)).rolls.len(), MAX_DAMAGE_DICE as usize);
    }

    /// D20 + 1 against 14 hits on the faces 13 to 20: 8 of 20, 0.4 (by hand).
    #[test]
    fn attack_rate_matches_the_table() {
        let a = attack(Dice::D20, 14, 1);
        let mut src = SeededDice::new(2_014);
        let trials = 40_000u32;
        let hits = (0..trials).filter(|_| roll_attack(&a, &mut src).outcome == AttackOutcome::Hit).count() as u32;
        let chi = chi_square(&[hits, trials - hits], &[0.4, 0.6]);
        assert!(chi < CHI_SQUARE_1_DF_999, "hits {hits} of {trials}");
    }

    #[test]
    fn attacks_read_in_words_and_from_a_file() {
        assert_eq!(attack(Dice::D20, 12, 1).label(), "D20+1 hits on 12+, damage D6");
        let bow = OsrAttack { damage_dice: 2, damage_bonus: -1, ranged: true, ..attack(Dice::D20, 11, 0) };
        assert_eq!(bow.label(), "ranged: D20 hits on 11+, damage 2×D6-1");
        let read: OsrAttack =
            serde_json::from_str(r#"{"roll":"D20","hit_on":12,"bonus":1,"damage":"D6"}"#).expect("an attack");
        assert_eq!(read, attack(Dice::D20, 12, 1));
        let written = serde_json::to_string(&read).expect("written");
        assert!(!written.contains("damage_dice") && !written.contains("ranged"), "{written}");
        for a in AttackResolution::ALL {
            assert_eq!(serde_json::to_value(a).ok(), Some(serde_json::Value::String(a.id().into())));
        }
        for t in AttackTargets::ALL {
            assert_eq!(serde_json::to_value(t).ok(), Some(serde_json::Value::String(t.id().into())));
        }
    }

    #[test]
    fn outcomes_have_ids() {
        assert_eq!(Outcome::id(Reaction::Unsure), "unsure");
        assert_eq!(WanderingOutcome::Encounter.classified().id(), "encounter");
        assert_eq!(EncumbranceRow::From101To150.id(), "101_to_150_lb");
        assert_eq!(CombatPhase::SurpriseInitiative.id(), "s2a_initiative");
        assert_eq!((AttackOutcome::Hit.classified().id(), AttackOutcome::Miss.id()), ("hit", "miss"));
        assert!(CombatPhase::SurpriseMelee.in_surprise_round() && !CombatPhase::Melee.in_surprise_round());
    }

    #[test]
    fn settings_default_and_read_back() {
        let s = OsrSettings::default();
        assert_eq!(s.feet_per_inch, 10.0);
        assert_eq!(s.moves_per_wandering_check, 7);
        assert_eq!(s.initiative_ties, InitiativeTies::Simultaneous);
        assert_eq!((s.attacks, s.attack_targets), (AttackResolution::SceneTables, AttackTargets::Nearest));
        let json = serde_json::to_string(&s).expect("settings serialize");
        let back: OsrSettings = serde_json::from_str(&json).expect("settings read back");
        assert_eq!(back, s);
        let partial: OsrSettings = serde_json::from_str(r#"{"initiative_ties":"reroll"}"#).expect("partial");
        assert_eq!(
            (partial.initiative_ties, partial.armour_rows.plate),
            (InitiativeTies::Reroll, Some(EncumbranceRow::From50To100))
        );
    }
}
