//! Injuries after the fight: how long a figure stays unconscious, whether one left for dead
//! lives, how many days a wound takes to heal, what treatment takes off, and whether the wound
//! festers (000 "Adventurers injuries optional rules", "Adventurers Wounding", "Adventurers
//! Crippling", "Adventurers Burn Wounding", "Adventurer's Cripple burns", "Adventurers Apparent
//! 'Death' dicing", "Infections"; 001 "Saga Apparently Dead Recovery Dicing", "Wound
//! Recoveries", "Persons").
//!
//! The wounding, crippling, burn and cripple-burn location tables are missing from 000: only
//! their footnotes survive. None is invented here. A scene may supply its own
//! [`LocationTable`]; without one [`roll_location`] reports
//! [`LocationOutcome::NoLocationTable`] ("wounded: no location table supplied", RULES-NOTES
//! "Where a source is silent").
//!
//! Dice follow RULES-NOTES "Dice": a Morval D10 shows 0–9, D% 00–99, D6 1–6, D20 1–20. "3x D10",
//! "6xD10", "2 x D6" multiply one die's value (as 000 "Trip cords" "D6 x20 moves" does). Every
//! reading of a terse line is marked "Reading:" where it is applied, and listed in
//! docs/injuries.md.

use super::dice::{Dice, DiceSource, Roll, Rolls};
use super::fire::PersonInFireOutcome;
use super::magic::apply_evil_eye;
use super::outcome::{Classified, Harm, Meaning, Outcome};
use serde::{Deserialize, Serialize};

/// 000 "Adventurers injuries optional rules": "the standard -2 wound penalty".
pub const STANDARD_WOUND_PENALTY: i32 = -2;
/// 000 "Adventurers injuries optional rules": "reduced to - 1 after first aid is provided by a healer".
pub const FIRST_AID_WOUND_PENALTY: i32 = -1;
/// 000 "Adventurers Wounding": "wounded characters will take a round, rough bandaging a wound themselves".
pub const ROUGH_BANDAGING_ROUNDS: u32 = 1;
/// 000 "Adventurers Wounding": "If a character continues fighting bleeding he loses one fatigue point per move".
pub const BLEEDING_FATIGUE_PER_MOVE: u32 = 1;
/// 000 "Adventurers Crippling": "If the blow was struck with a blunt weapon ... -5 to D%".
pub const BLUNT_CRIPPLING_MODIFIER: i32 = -5;
/// 000 "Adventurers Crippling": "Treatment by a 1^st level healer, deducts D6 -2 days".
pub const FIRST_LEVEL_HEALER_MODIFIER: i32 = -2;
/// 000 "Adventurers Wounding" (and each treatment paragraph): "A phial of Holey water deducts D10 + 35% of healing time".
pub const HOLY_WATER_BASE_PERCENT: i32 = 35;
/// 000 "Infections": holy water "heals festering, in D6 +1 days".
pub const HOLY_WATER_FESTERING_ADDEND: i32 = 1;
/// 000 "Adventurers Apparent 'Death' dicing": "unconscious for at least 20 plus D10 hours".
pub const APPARENT_DEATH_MIN_HOURS: i32 = 20;
/// 000 "Adventurers Apparent 'Death' dicing": "6xD10 +5 days to regain maximum fitness possible".
pub const APPARENT_DEATH_FITNESS_TIMES: u32 = 6;
/// 000 "Adventurers Apparent 'Death' dicing": "6xD10 +5 days".
pub const APPARENT_DEATH_FITNESS_ADDEND: i32 = 5;
/// 001 "Saga Apparently Dead Recovery Dicing": "D10 + 1 if treated within 3 moves": the moves.
pub const SAGA_TREATMENT_WITHIN_MOVES: u32 = 3;
/// 001 "Saga Apparently Dead Recovery Dicing": "D10 + 1 if treated within 3 moves": the bonus.
pub const SAGA_TREATMENT_BONUS: i32 = 1;
/// Hours in a day: converts hours to moves at the scene's `moves_per_day`.
pub const HOURS_PER_DAY: u32 = 24;

// ---------------------------------------------------------------------------------------------
// Wounds, penalties and bleeding
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// The four kinds of injury 000 tables (each with its own, missing, location table).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum WoundKind {
        /// 000 "Adventurers Wounding" (and the 001 wound recoveries).
        #[default]
        Wound => "wound",
        /// 000 "Adventurers Crippling".
        Crippling => "crippling",
        /// 000 "Adventurers Burn Wounding": "No bleeding involved".
        Burn => "burn",
        /// 000 "Adventurer's Cripple burns": "No bleeding involved".
        CrippleBurn => "cripple_burn",
    }
}

impl WoundKind {
    /// How the log and the view name it, e.g. "cripple burn".
    pub fn label(self) -> &'static str {
        match self {
            WoundKind::Wound => "wound",
            WoundKind::Crippling => "crippling",
            WoundKind::Burn => "burn",
            WoundKind::CrippleBurn => "cripple burn",
        }
    }

    /// 000 "Adventurers Burn Wounding", "Adventurer's Cripple burns": "No bleeding involved"; wounds and cripplings bleed.
    pub fn bleeds(self) -> bool {
        matches!(self, WoundKind::Wound | WoundKind::Crippling)
    }

    /// 000 "Infections": checks run "for half the recovery time"; "Adventurer's Cripple burns": "for a third".
    pub fn infection_divisor(self) -> u32 {
        match self {
            WoundKind::CrippleBurn => 3,
            WoundKind::Wound | WoundKind::Crippling | WoundKind::Burn => 2,
        }
    }

    /// 000 "Adventurers Wounding", "Adventurers Burn Wounding", "Adventurer's Cripple burns": the salve that "reduces the Melee and firing deductions by one".
    ///
    /// A pain-soothing salve for wounds, a burn salve for burns and cripple burns. Reading: the
    /// crippling paragraph names no salve, so none applies to a crippling.
    pub fn salve(self) -> Option<Salve> {
        match self {
            WoundKind::Wound => Some(Salve::PainSoothing),
            WoundKind::Burn | WoundKind::CrippleBurn => Some(Salve::Burn),
            WoundKind::Crippling => None,
        }
    }

    /// RULES-NOTES "Where a source is silent": what is reported when the scene has no location table of this kind.
    pub fn no_location_table_label(self) -> &'static str {
        match self {
            WoundKind::Wound => "wounded: no location table supplied",
            WoundKind::Crippling => "crippled: no location table supplied",
            WoundKind::Burn => "burnt: no location table supplied",
            WoundKind::CrippleBurn => "cripple-burnt: no location table supplied",
        }
    }
}

crate::rules::named_enum! {
    /// The salves 000 names.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Salve {
        /// 000 "Adventurers Wounding": "a pain soothing salve".
        PainSoothing => "pain_soothing",
        /// 000 "Adventurers Burn Wounding", "Adventurer's Cripple burns": "a burn salve".
        Burn => "burn",
    }
}

/// Deductions a wound gives (negative numbers), as 001 "Wound Recoveries" names them: "to move,
/// melee and firing hit chances".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Penalties {
    /// Inches off every move (reading: 001's "to move" is inches, as 000's "-1" to moves").
    pub move_inches: i32,
    /// Off the melee hit chance ("Me").
    pub melee: i32,
    /// Off the firing hit chance ("Fi").
    pub firing: i32,
}

impl Penalties {
    /// No deductions.
    pub const NONE: Penalties = Penalties { move_inches: 0, melee: 0, firing: 0 };

    /// The same deduction to move, melee and firing.
    pub const fn all(value: i32) -> Penalties {
        Penalties { move_inches: value, melee: value, firing: value }
    }

    /// Both deductions together.
    pub fn plus(self, other: Penalties) -> Penalties {
        Penalties {
            move_inches: self.move_inches.saturating_add(other.move_inches),
            melee: self.melee.saturating_add(other.melee),
            firing: self.firing.saturating_add(other.firing),
        }
    }

    /// 000 "Adventurers Wounding": a salve "reduces the Melee and firing deductions by one" (never to a bonus; move unchanged).
    pub fn soothed(self) -> Penalties {
        let ease = |d: i32| if d < 0 { d + 1 } else { d };
        Penalties { move_inches: self.move_inches, melee: ease(self.melee), firing: ease(self.firing) }
    }

    /// Whether there is no deduction at all.
    pub fn is_none(self) -> bool {
        self == Penalties::NONE
    }
}

/// 000 "Adventurers injuries optional rules": "the standard -2 wound penalty, reduced to - 1 after first aid is provided by a healer".
pub fn standard_wound_penalty(first_aid_by_healer: bool) -> i32 {
    if first_aid_by_healer { FIRST_AID_WOUND_PENALTY } else { STANDARD_WOUND_PENALTY }
}

/// 000 "Adventurers Wounding": fatigue points lost fighting on bleeding, one a move; burns do not bleed.
///
/// `bandaged`: the wound has been at least roughly bandaged (a round, [`ROUGH_BANDAGING_ROUNDS`]),
/// so it no longer bleeds.
pub fn bleeding_fatigue(kind: WoundKind, bandaged: bool, moves_fighting: u32) -> u32 {
    if kind.bleeds() && !bandaged { moves_fighting.saturating_mul(BLEEDING_FATIGUE_PER_MOVE) } else { 0 }
}

/// RULES-NOTES "Time and movement": hours as moves at the scene's `moves_per_day` (480: 20 an hour), rounded to the nearest move.
pub fn hours_to_moves(hours: u32, moves_per_day: u32) -> u32 {
    let per_day = u64::from(HOURS_PER_DAY);
    let moves = (u64::from(hours) * u64::from(moves_per_day) + per_day / 2) / per_day;
    u32::try_from(moves).unwrap_or(u32::MAX)
}

/// 001 "Persons": the injury a fire row leaves to heal, by the 000 burn tables.
///
/// Reading: minor, bad and severe burns are burn wounds (000 "Adventurers Burn Wounding"),
/// crippled in agony a cripple burn (000 "Adventurer's Cripple burns"); the other rows leave no
/// burn to heal (apparently dead goes to [`resolve_apparently_dead`] with
/// [`ApparentDeathCause::Fire`]; definitely dead is dead). Neither text gives a burn's healing
/// time: it comes from the scene's burn location table, or is reported missing.
pub fn burn_from_fire(outcome: PersonInFireOutcome) -> Option<WoundKind> {
    match outcome {
        PersonInFireOutcome::MinorBurns | PersonInFireOutcome::BadBurns | PersonInFireOutcome::SevereBurns => {
            Some(WoundKind::Burn)
        }
        PersonInFireOutcome::CrippledInAgony => Some(WoundKind::CrippleBurn),
        PersonInFireOutcome::Unharmed
        | PersonInFireOutcome::SingedClothes
        | PersonInFireOutcome::ApparentlyDead
        | PersonInFireOutcome::DefinitelyDead => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Rolled amounts
// ---------------------------------------------------------------------------------------------

/// An amount the texts roll as "k × die + n" (moves, hours, days).
///
/// When nothing multiplies the die (`times` 1) the addend is a modifier of `roll` and the roll's
/// total is the amount; otherwise ("3x D10", "6xD10 +5") the roll holds the die alone and
/// `amount` is `times` × its value + the addend.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RolledAmount {
    /// The die as rolled.
    pub roll: Roll,
    /// How many times the die's value counts.
    pub times: u32,
    /// The amount, never below 0.
    pub amount: u32,
}

/// Roll "times × dice + plus"; `reason` names the addend when it is a modifier.
fn roll_amount(dice: Dice, times: u32, plus: i32, reason: &'static str, src: &mut impl DiceSource) -> RolledAmount {
    let mut roll = Roll::new(dice, src);
    let amount = if times == 1 {
        roll.add(reason, plus);
        i64::from(roll.total)
    } else {
        i64::from(roll.total) * i64::from(times) + i64::from(plus)
    };
    RolledAmount { roll, times, amount: u32::try_from(amount.max(0)).unwrap_or(u32::MAX) }
}

// ---------------------------------------------------------------------------------------------
// Unconscious
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// 000 "Adventurers Crippling" > "Ucon": how long an unconscious figure stays out, by D6.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum UnconsciousOutcome {
        /// 6: 3 × D10 moves.
        ThreeD10Moves => "three_d10_moves",
        /// 5: 7 × D10 moves.
        SevenD10Moves => "seven_d10_moves",
        /// 4: 12 × D10 moves.
        TwelveD10Moves => "twelve_d10_moves",
        /// 3: D6 hours.
        D6Hours => "d6_hours",
        /// 2: 3 × D6 hours.
        ThreeD6Hours => "three_d6_hours",
        /// 1: 7 × D6 hours.
        SevenD6Hours => "seven_d6_hours",
    }
}

impl UnconsciousOutcome {
    /// 000 "Adventurers Crippling" > "Ucon": the die the row rolls (D10 for moves, D6 for hours).
    pub fn dice(self) -> Dice {
        match self {
            UnconsciousOutcome::ThreeD10Moves
            | UnconsciousOutcome::SevenD10Moves
            | UnconsciousOutcome::TwelveD10Moves => Dice::D10,
            UnconsciousOutcome::D6Hours | UnconsciousOutcome::ThreeD6Hours | UnconsciousOutcome::SevenD6Hours => {
                Dice::D6
            }
        }
    }

    /// 000 "Adventurers Crippling" > "Ucon": what the die is multiplied by ("3x D10", "7x D10", "12x D10", "D6", "3xD6", "7x D6").
    pub fn times(self) -> u32 {
        match self {
            UnconsciousOutcome::ThreeD10Moves | UnconsciousOutcome::ThreeD6Hours => 3,
            UnconsciousOutcome::SevenD10Moves | UnconsciousOutcome::SevenD6Hours => 7,
            UnconsciousOutcome::TwelveD10Moves => 12,
            UnconsciousOutcome::D6Hours => 1,
        }
    }

    /// 000 "Adventurers Crippling" > "Ucon": whether the row counts hours (rows 3, 2, 1) rather than moves (6, 5, 4).
    pub fn in_hours(self) -> bool {
        self.dice() == Dice::D6
    }
}

/// 000 "Adventurers Crippling" > "Ucon": "D6 = 6 3x D10 moves, 5 7x D10 moves, 4 12x D10 moves, 3 D6 hours, 2 3xD6 hours, 1 7x D6 hours".
pub fn unconscious_band(total: i32) -> UnconsciousOutcome {
    match total {
        6..=i32::MAX => UnconsciousOutcome::ThreeD10Moves,
        5 => UnconsciousOutcome::SevenD10Moves,
        4 => UnconsciousOutcome::TwelveD10Moves,
        3 => UnconsciousOutcome::D6Hours,
        2 => UnconsciousOutcome::ThreeD6Hours,
        i32::MIN..=1 => UnconsciousOutcome::SevenD6Hours,
    }
}

/// How long a figure stays unconscious, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnconsciousResult {
    /// The D6 for the row.
    pub roll: Roll,
    /// The row.
    pub outcome: UnconsciousOutcome,
    /// The row's die and the moves or hours it gives.
    pub duration: RolledAmount,
    /// The duration in moves (hours converted at the scene's `moves_per_day`).
    pub moves: u32,
}

/// 000 "Adventurers Crippling" > "Ucon": D6 for the row, then its D10 moves or D6 hours, in moves.
///
/// A Morval D10 shows 0–9, so the moves rows can give 0 moves: the figure comes round at once.
pub fn roll_unconscious(moves_per_day: u32, src: &mut impl DiceSource) -> UnconsciousResult {
    let roll = Roll::new(Dice::D6, src);
    let outcome = unconscious_band(roll.total);
    let duration = roll_amount(outcome.dice(), outcome.times(), 0, "", src);
    let moves = if outcome.in_hours() { hours_to_moves(duration.amount, moves_per_day) } else { duration.amount };
    UnconsciousResult { roll, outcome, duration, moves }
}

// ---------------------------------------------------------------------------------------------
// Apparent death: which text
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// Why a figure was left for dead.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ApparentDeathCause {
        /// Wounds, a fall, a trap: anything but fire and water.
        #[default]
        Wounds => "wounds",
        /// 001 "Persons" row 7: "Apparently dead" in fire.
        Fire => "fire",
        /// 000 "Adventurers Apparent 'Death' dicing": "burnt to death" (001 "Persons" 8+).
        BurntToDeath => "burnt_to_death",
        /// 000 "Adventurers Apparent 'Death' dicing": "drowned".
        Drowned => "drowned",
    }
}

impl ApparentDeathCause {
    /// 000 "Adventurers Apparent 'Death' dicing": "Any burnt to death or drowned are definitely dead".
    pub fn definitely_dead(self) -> bool {
        matches!(self, ApparentDeathCause::BurntToDeath | ApparentDeathCause::Drowned)
    }
}

crate::rules::named_enum! {
    /// Which text decides whether one left for dead lives: 000 and 001 each give a table, and
    /// they are alternatives (a scene setting).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ApparentDeathText {
        /// The default: 001 for one apparently dead from fire (001 "Persons" row 7, in the same
        /// text), 000 for everyone else.
        #[default]
        ByCause => "by_cause",
        /// 000 "Adventurers Apparent 'Death' dicing" always.
        #[serde(rename = "optional_rules_000")]
        OptionalRules => "optional_rules_000",
        /// 001 "Saga Apparently Dead Recovery Dicing" always.
        #[serde(rename = "saga_recovery_001")]
        SagaRecovery => "saga_recovery_001",
    }
}

impl ApparentDeathText {
    /// 000 "Adventurers Apparent 'Death' dicing" / 001 "Saga Apparently Dead Recovery Dicing": the text that applies to `cause` (never `ByCause`).
    pub fn for_cause(self, cause: ApparentDeathCause) -> ApparentDeathText {
        match (self, cause) {
            (ApparentDeathText::ByCause, ApparentDeathCause::Fire) => ApparentDeathText::SagaRecovery,
            (ApparentDeathText::ByCause, _) => ApparentDeathText::OptionalRules,
            (text, _) => text,
        }
    }
}

crate::rules::named_enum! {
    /// What days of rest make of a figure a Khemri trap took "out of action" (the house rule
    /// `injuries.out_of_action`): 002 takes the model out at its last wound and no text says
    /// what follows the action.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum OutOfAction {
        /// One "left for dead" (000 "Adventurers Apparent 'Death' dicing": "For those characters
        /// left for dead"), cause wounds: the apparent-death text decides whether they live.
        #[default]
        LeftForDead => "left_for_dead",
        /// Nothing is rolled: the condition stays for the GM.
        Ignored => "ignored",
    }
}

/// The scene's `rules.injuries` block: which apparent-death text applies (a choice the texts
/// offer) and the house rules of the days after the fight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct InjurySettings {
    /// 000 "Adventurers Apparent 'Death' dicing" or 001 "Saga Apparently Dead Recovery Dicing":
    /// the texts are alternatives; by default 001 for one apparently dead from fire, 000 otherwise.
    pub apparent_death_text: ApparentDeathText,
    /// House rule: what rest makes of a figure a Khemri trap took out of action.
    pub out_of_action: OutOfAction,
}

// ---------------------------------------------------------------------------------------------
// Apparent death (000)
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// 000 "Adventurers Apparent 'Death' dicing" > "Recoverability Dice".
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Recoverability {
        /// 9: "almost fully recoverable (AFR)".
        AlmostFullyRecoverable => "almost_fully_recoverable",
        /// 8: "recoverable to minor disability (RMD)".
        #[serde(rename = "recoverable_to_minor_disability")]
        MinorDisability => "recoverable_to_minor_disability",
        /// 7: "recoverable to disability (RD)".
        #[serde(rename = "recoverable_to_disability")]
        Disability => "recoverable_to_disability",
        /// 6: "recovered to badly disabled (RBD)".
        #[serde(rename = "recovered_to_badly_disabled")]
        BadlyDisabled => "recovered_to_badly_disabled",
        /// 5 or less: "dead as first thought".
        DeadAsFirstThought => "dead_as_first_thought",
        /// Burnt to death or drowned: "definitely dead", no roll.
        DefinitelyDead => "definitely_dead",
    }
}

impl Recoverability {
    /// 000 "Adventurers Apparent 'Death' dicing": whether the body lives (rows 9 to 6).
    pub fn alive(self) -> bool {
        !matches!(self, Recoverability::DeadAsFirstThought | Recoverability::DefinitelyDead)
    }

    /// How the log and the view name it, with the text's abbreviation.
    pub fn label(self) -> &'static str {
        match self {
            Recoverability::AlmostFullyRecoverable => "almost fully recoverable (AFR)",
            Recoverability::MinorDisability => "recoverable to minor disability (RMD)",
            Recoverability::Disability => "recoverable to disability (RD)",
            Recoverability::BadlyDisabled => "recovered to badly disabled (RBD)",
            Recoverability::DeadAsFirstThought => "dead as first thought",
            Recoverability::DefinitelyDead => "definitely dead",
        }
    }
}

/// 000 "Adventurers Apparent 'Death' dicing": "D10 = 9, almost fully recoverable (AFR) 8, ... (RMD) 7, ... (RD) 6, ... (RBD) 5 or less dead as first thought".
pub fn recoverability_band(total: i32) -> Recoverability {
    match total {
        9..=i32::MAX => Recoverability::AlmostFullyRecoverable,
        8 => Recoverability::MinorDisability,
        7 => Recoverability::Disability,
        6 => Recoverability::BadlyDisabled,
        i32::MIN..=5 => Recoverability::DeadAsFirstThought,
    }
}

/// One left for dead, by 000, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ApparentDeathResult {
    /// Why they were left for dead.
    pub cause: ApparentDeathCause,
    /// The recoverability D10; `None` for the burnt to death and the drowned.
    pub recoverability: Option<Roll>,
    /// The row.
    pub outcome: Recoverability,
    /// 20 + D10 hours unconscious, for the living.
    pub unconscious_hours: Option<Roll>,
    /// Those hours in moves at the scene's `moves_per_day`.
    pub unconscious_moves: Option<u32>,
    /// 6 × D10 + 5 days to regain the fitness the row allows, for the living.
    pub fitness_days: Option<RolledAmount>,
}

impl ApparentDeathResult {
    /// 000 "Adventurers Apparent 'Death' dicing": the days "to regain maximum fitness possible", as a healing state.
    pub fn healing_state(&self) -> Option<HealingState> {
        self.fitness_days.as_ref().map(|days| HealingState::regaining_fitness(days.amount))
    }
}

/// 000 "Adventurers Apparent 'Death' dicing": recoverability D10; the living are unconscious 20 + D10 hours and need 6 × D10 + 5 days.
///
/// Rolled in that order: recoverability, hours, days. Readings: "at least 20 plus D10 hours" is
/// the duration rolled (the GM may keep them out longer); "Recovered D10 for result" restates
/// that the recoverability D10 gives the result, not a second roll; the burnt to death and the
/// drowned roll nothing.
pub fn resolve_apparent_death(
    cause: ApparentDeathCause,
    moves_per_day: u32,
    src: &mut impl DiceSource,
) -> ApparentDeathResult {
    apparent_death(cause, moves_per_day, false, src)
}

/// [`resolve_apparent_death`], the recoverability D10 taking 001's evil-eye −1 when `evil_eye`.
fn apparent_death(
    cause: ApparentDeathCause,
    moves_per_day: u32,
    evil_eye: bool,
    src: &mut impl DiceSource,
) -> ApparentDeathResult {
    let mut result = ApparentDeathResult {
        cause,
        recoverability: None,
        outcome: Recoverability::DefinitelyDead,
        unconscious_hours: None,
        unconscious_moves: None,
        fitness_days: None,
    };
    if cause.definitely_dead() {
        return result;
    }
    let mut recoverability = Roll::new(Dice::D10, src);
    apply_evil_eye(&mut recoverability, evil_eye);
    result.outcome = recoverability_band(recoverability.total);
    result.recoverability = Some(recoverability);
    if !result.outcome.alive() {
        return result;
    }
    let hours = Roll::new(Dice::D10, src).modifier("at least 20 hours", APPARENT_DEATH_MIN_HOURS);
    result.unconscious_moves = Some(hours_to_moves(u32::try_from(hours.total).unwrap_or(0), moves_per_day));
    result.unconscious_hours = Some(hours);
    result.fitness_days =
        Some(roll_amount(Dice::D10, APPARENT_DEATH_FITNESS_TIMES, APPARENT_DEATH_FITNESS_ADDEND, "", src));
    result
}

// ---------------------------------------------------------------------------------------------
// Wound recoveries (001)
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// 001 "Wound Recoveries": the three wounds with their days and deductions.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum WoundRecovery {
        /// "Sore wounded (-3) D20 + 10 total days", in thirds at −3, −2, −1.
        SoreWounded => "sore_wounded",
        /// "Wounded D10+2 days", in halves at −1 and −1.
        Wounded => "wounded",
        /// "Flesh wounded D6 days at –1".
        FleshWounded => "flesh_wounded",
    }
}

impl WoundRecovery {
    /// 001 "Wound Recoveries": the days to recover, "D20 + 10", "D10+2" or "D6".
    pub fn roll_days(self, src: &mut impl DiceSource) -> RolledAmount {
        match self {
            WoundRecovery::SoreWounded => roll_amount(Dice::D20, 1, 10, "sore wounded +10 days", src),
            WoundRecovery::Wounded => roll_amount(Dice::D10, 1, 2, "wounded +2 days", src),
            WoundRecovery::FleshWounded => roll_amount(Dice::D6, 1, 0, "", src),
        }
    }
}

/// 001 "Wound Recoveries": the deductions `days_done` days into a recovery of `total_days` ("first third –3, second –2 and last –1"; halves –1 and –1; flesh –1).
///
/// Readings: the deductions apply to move (inches), melee and firing alike, flesh wounds too;
/// when the days do not divide evenly the earlier parts take the odd days (day `d`, 0-based, is
/// in the first third while 3d < total, the second while 3d < 2 × total); the wounded's halves
/// are both −1 as written. From `total_days` on, the wound is healed: no deduction.
pub fn recovery_penalty(recovery: WoundRecovery, total_days: u32, days_done: u32) -> Penalties {
    if days_done >= total_days {
        return Penalties::NONE;
    }
    let (done, total) = (u64::from(days_done), u64::from(total_days));
    match recovery {
        WoundRecovery::SoreWounded if 3 * done < total => Penalties::all(-3),
        WoundRecovery::SoreWounded if 3 * done < 2 * total => Penalties::all(-2),
        WoundRecovery::SoreWounded => Penalties::all(-1),
        // "divided by two first half –1 and second –1": the same in both halves.
        WoundRecovery::Wounded => Penalties::all(-1),
        WoundRecovery::FleshWounded => Penalties::all(-1),
    }
}

// ---------------------------------------------------------------------------------------------
// Saga apparently-dead recovery (001)
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// 001 "Saga Apparently Dead Recovery Dicing".
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SagaRecovery {
        /// 9 (and 10 with the treatment bonus): "Fully recovered by next day".
        FullyRecovered => "fully_recovered",
        /// 7+: "wounded D10+2 days to recover".
        Wounded => "wounded",
        /// 5+: "sore wounded D20 + 10 days to recover".
        SoreWounded => "sore_wounded",
        /// 4: "mortally wounded D6 days to die".
        MortallyWounded => "mortally_wounded",
        /// 3−: "DEAD!".
        Dead => "dead",
    }
}

impl SagaRecovery {
    /// 001 "Saga Apparently Dead Recovery Dicing": the 001 "Wound Recoveries" row a survivor heals by.
    pub fn recovery(self) -> Option<WoundRecovery> {
        match self {
            SagaRecovery::Wounded => Some(WoundRecovery::Wounded),
            SagaRecovery::SoreWounded => Some(WoundRecovery::SoreWounded),
            SagaRecovery::FullyRecovered | SagaRecovery::MortallyWounded | SagaRecovery::Dead => None,
        }
    }
}

/// 001 "Saga Apparently Dead Recovery Dicing": "9 Fully recovered by next day, 7+ wounded, 5+ sore wounded, 4 mortally wounded, 3- DEAD!".
///
/// Reading: 9 is the top of a Morval D10, so a treated 9 (total 10) is fully recovered too.
pub fn saga_recovery_band(total: i32) -> SagaRecovery {
    match total {
        9..=i32::MAX => SagaRecovery::FullyRecovered,
        7..=8 => SagaRecovery::Wounded,
        5..=6 => SagaRecovery::SoreWounded,
        4 => SagaRecovery::MortallyWounded,
        i32::MIN..=3 => SagaRecovery::Dead,
    }
}

/// One apparently dead, by 001, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SagaRecoveryResult {
    /// D10, +1 if treated within 3 moves.
    pub roll: Roll,
    /// The row.
    pub outcome: SagaRecovery,
    /// Days to recover (wounded D10 + 2, sore wounded D20 + 10) or to die (mortally wounded D6).
    pub days: Option<RolledAmount>,
}

impl SagaRecoveryResult {
    /// 001 "Saga Apparently Dead Recovery Dicing": the survivor's healing (or dying) as a state; `None` when fully recovered or dead.
    pub fn healing_state(&self, kind: WoundKind) -> Option<HealingState> {
        let days = self.days.as_ref()?.amount;
        match (self.outcome, self.outcome.recovery()) {
            (_, Some(recovery)) => Some(HealingState::new(kind, PenaltySchedule::Recovery(recovery), days)),
            (SagaRecovery::MortallyWounded, None) => Some(HealingState::dying(kind, days)),
            _ => None,
        }
    }
}

/// 001 "Saga Apparently Dead Recovery Dicing": "D10 + 1 if treated within 3 moves", then the row's days.
pub fn resolve_saga_recovery(treated_within_three_moves: bool, src: &mut impl DiceSource) -> SagaRecoveryResult {
    saga_recovery(treated_within_three_moves, false, src)
}

/// [`resolve_saga_recovery`], the D10 taking 001's evil-eye −1 when `evil_eye`.
fn saga_recovery(treated_within_three_moves: bool, evil_eye: bool, src: &mut impl DiceSource) -> SagaRecoveryResult {
    let mut roll = Roll::new(Dice::D10, src)
        .modifier("treated within 3 moves", if treated_within_three_moves { SAGA_TREATMENT_BONUS } else { 0 });
    apply_evil_eye(&mut roll, evil_eye);
    let outcome = saga_recovery_band(roll.total);
    let days = match outcome {
        SagaRecovery::Wounded => Some(WoundRecovery::Wounded.roll_days(src)),
        SagaRecovery::SoreWounded => Some(WoundRecovery::SoreWounded.roll_days(src)),
        SagaRecovery::MortallyWounded => Some(roll_amount(Dice::D6, 1, 0, "", src)),
        SagaRecovery::FullyRecovered | SagaRecovery::Dead => None,
    };
    SagaRecoveryResult { roll, outcome, days }
}

/// One left for dead, by whichever text applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ApparentlyDeadReport {
    /// By 000 "Adventurers Apparent 'Death' dicing" (and every one burnt to death or drowned).
    OptionalRules(ApparentDeathResult),
    /// By 001 "Saga Apparently Dead Recovery Dicing".
    Saga(SagaRecoveryResult),
}

impl ApparentlyDeadReport {
    /// The outcome's id and meaning, whichever table gave it.
    pub fn classified(&self) -> Classified {
        match self {
            ApparentlyDeadReport::OptionalRules(r) => r.outcome.classified(),
            ApparentlyDeadReport::Saga(r) => r.outcome.classified(),
        }
    }

    /// The healing (or dying) that follows, if the figure lives.
    pub fn healing_state(&self, kind: WoundKind) -> Option<HealingState> {
        match self {
            ApparentlyDeadReport::OptionalRules(r) => r.healing_state(),
            ApparentlyDeadReport::Saga(r) => r.healing_state(kind),
        }
    }
}

/// 000 "Adventurers Apparent 'Death' dicing" or 001 "Saga Apparently Dead Recovery Dicing", as `text` chooses for `cause`.
///
/// Reading: "Any burnt to death or drowned are definitely dead" holds under either text, so
/// those go to 000's [`Recoverability::DefinitelyDead`] with no roll. `treated_within_three_moves`
/// counts only under 001; `moves_per_day` only under 000. `evil_eye`: the figure is cursed (001
/// "Lay an evil eye Curse"), −1 on the D10 that decides.
pub fn resolve_apparently_dead(
    text: ApparentDeathText,
    cause: ApparentDeathCause,
    treated_within_three_moves: bool,
    moves_per_day: u32,
    evil_eye: bool,
    src: &mut impl DiceSource,
) -> ApparentlyDeadReport {
    if !cause.definitely_dead() && text.for_cause(cause) == ApparentDeathText::SagaRecovery {
        ApparentlyDeadReport::Saga(saga_recovery(treated_within_three_moves, evil_eye, src))
    } else {
        ApparentlyDeadReport::OptionalRules(apparent_death(cause, moves_per_day, evil_eye, src))
    }
}

// ---------------------------------------------------------------------------------------------
// Treatment
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// A healer's level (000 "Adventurers Crippling": "1^st level healer", "2^nd level healer").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum HealerLevel {
        /// Deducts D6 − 2 days.
        First => "first",
        /// Deducts D6 days.
        Second => "second",
    }
}

/// 000 "Adventurers injuries optional rules": "Each two days full rest deducts one from the days healing required": days deducted for `rest_days` of full rest.
///
/// Reading: the days of full rest are counted over the whole healing, not only in unbroken runs.
pub fn rest_deduction(rest_days: u32) -> u32 {
    rest_days / 2
}

/// A healer's deduction, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HealerResult {
    /// D6 (− 2 for a 1st-level healer).
    pub roll: Roll,
    /// Days deducted.
    pub days: u32,
}

/// 000 "Adventurers Crippling": "1^st level healer, deducts D6 -2 days ... 2^nd level healer deducts D6 days".
///
/// Reading: a D6 − 2 below 0 deducts nothing (a healer never adds days).
pub fn roll_healer_deduction(level: HealerLevel, src: &mut impl DiceSource) -> HealerResult {
    let modifier = match level {
        HealerLevel::First => FIRST_LEVEL_HEALER_MODIFIER,
        HealerLevel::Second => 0,
    };
    let roll = Roll::new(Dice::D6, src).modifier("1st-level healer", modifier);
    let days = u32::try_from(roll.total.max(0)).unwrap_or(0);
    HealerResult { roll, days }
}

/// 000 "Adventurers Crippling": a healer's treatment counts "if constant for at least half the time" of `total_days`.
pub fn healer_constant_enough(days_treated: u32, total_days: u32) -> bool {
    total_days > 0 && 2 * u64::from(days_treated) >= u64::from(total_days)
}

/// 000 "Adventurers Wounding": "A phial of Holey water deducts D10 + 35% of healing time": days for a D10 + 35 of `percent`.
///
/// Reading: "D10 + 35%" is (D10 + 35) per cent (35–44 %) of the healing time, the whole
/// healing time as it stands (`total_days`), rounded down.
pub fn holy_water_days(total_days: u32, percent: i32) -> u32 {
    let percent = u64::try_from(percent.max(0)).unwrap_or(0);
    u32::try_from(u64::from(total_days) * percent / 100).unwrap_or(u32::MAX)
}

/// A phial of holy water, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HolyWaterResult {
    /// D10 + 35: the per cent of the healing time deducted.
    pub roll: Roll,
    /// Days deducted.
    pub days: u32,
}

/// 000 "Adventurers Wounding": "A phial of Holey water deducts D10 + 35% of healing time" (see [`holy_water_days`]).
pub fn roll_holy_water(total_days: u32, src: &mut impl DiceSource) -> HolyWaterResult {
    let roll = Roll::new(Dice::D10, src).modifier("holy water 35%", HOLY_WATER_BASE_PERCENT);
    let days = holy_water_days(total_days, roll.total);
    HolyWaterResult { roll, days }
}

// ---------------------------------------------------------------------------------------------
// Infections
// ---------------------------------------------------------------------------------------------

/// 000 "Infections": "D10 each day for half the recovery time" ("Adventurer's Cripple burns": "for a third"): the days checked.
///
/// Reading: a part day counts as a day (rounded up).
pub fn infection_check_days(kind: WoundKind, total_days: u32) -> u32 {
    total_days.div_ceil(kind.infection_divisor())
}

crate::rules::named_enum! {
    /// 000 "Infections": a day's D10.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum InfectionOutcome {
        /// 1–9: no harm.
        Clean => "clean",
        /// "0 the wound festers".
        Festers => "festers",
    }
}

/// 000 "Infections": "D10 each day ..., 0 the wound festers".
pub fn infection_band(total: i32) -> InfectionOutcome {
    match total {
        i32::MIN..=0 => InfectionOutcome::Festers,
        1..=i32::MAX => InfectionOutcome::Clean,
    }
}

/// A day's infection check, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InfectionResult {
    /// The D10.
    pub roll: Roll,
    /// Whether the wound festers.
    pub outcome: InfectionOutcome,
}

/// 000 "Infections": "If no healing balm (antiseptic) is applied, D10 each day ..., 0 the wound festers".
pub fn roll_infection(src: &mut impl DiceSource) -> InfectionResult {
    check_infection(false, src)
}

/// [`roll_infection`], the D10 taking 001's evil-eye −1 when `evil_eye`.
fn check_infection(evil_eye: bool, src: &mut impl DiceSource) -> InfectionResult {
    let mut roll = Roll::new(Dice::D10, src);
    apply_evil_eye(&mut roll, evil_eye);
    let outcome = infection_band(roll.total);
    InfectionResult { roll, outcome }
}

crate::rules::named_enum! {
    /// 000 "Infections": what festering does, by D6.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum FesterOutcome {
        /// 6: "adds D6 days to healing".
        AddsD6Days => "adds_d6_days",
        /// 5: "adds 2 x D6 days to healing".
        AddsTwoD6Days => "adds_two_d6_days",
        /// 4: "adds 4 x D6 days to healing".
        AddsFourD6Days => "adds_four_d6_days",
        /// 3: "adds 7 x D6 days and permanent -1" to moves, -1 to melee and 1/2 fatigue".
        AddsSevenD6DaysAndLamed => "adds_seven_d6_days_and_lamed",
        /// 2−: "dies in 2 x D6 days!".
        DiesInTwoD6Days => "dies_in_two_d6_days",
    }
}

impl FesterOutcome {
    /// 000 "Infections": what the row's D6 is multiplied by (1, 2, 4, 7; 2 for the days to die).
    pub fn times(self) -> u32 {
        match self {
            FesterOutcome::AddsD6Days => 1,
            FesterOutcome::AddsTwoD6Days | FesterOutcome::DiesInTwoD6Days => 2,
            FesterOutcome::AddsFourD6Days => 4,
            FesterOutcome::AddsSevenD6DaysAndLamed => 7,
        }
    }

    /// 000 "Infections": "2- dies in 2 x D6 days!".
    pub fn kills(self) -> bool {
        self == FesterOutcome::DiesInTwoD6Days
    }

    /// 000 "Infections": row 3's "permanent -1" to moves, -1 to melee"; nothing for the other rows.
    pub fn permanent_penalties(self) -> Penalties {
        match self {
            FesterOutcome::AddsSevenD6DaysAndLamed => Penalties { move_inches: -1, melee: -1, firing: 0 },
            _ => Penalties::NONE,
        }
    }

    /// 000 "Infections": row 3's permanent "1/2 fatigue".
    pub fn halves_fatigue(self) -> bool {
        self == FesterOutcome::AddsSevenD6DaysAndLamed
    }
}

/// 000 "Infections": "D6 = 6 adds D6 days, 5 adds 2 x D6 days, 4 adds 4 x D6 days, 3 adds 7 x D6 days and permanent ..., 2- dies in 2 x D6 days!".
pub fn fester_band(total: i32) -> FesterOutcome {
    match total {
        6..=i32::MAX => FesterOutcome::AddsD6Days,
        5 => FesterOutcome::AddsTwoD6Days,
        4 => FesterOutcome::AddsFourD6Days,
        3 => FesterOutcome::AddsSevenD6DaysAndLamed,
        i32::MIN..=2 => FesterOutcome::DiesInTwoD6Days,
    }
}

/// A wound festering, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FesterResult {
    /// The D6 for the row.
    pub roll: Roll,
    /// The row.
    pub outcome: FesterOutcome,
    /// The row's D6 and the days it adds (or the days to death).
    pub days: RolledAmount,
}

/// 000 "Infections": a festering wound's D6 row, then its D6 days (× 1, 2, 4, 7, or 2 to death).
pub fn roll_festering(src: &mut impl DiceSource) -> FesterResult {
    festering(false, src)
}

/// [`roll_festering`], the row's D6 taking 001's evil-eye −1 when `evil_eye` (the days' D6 is an
/// amount, not a throw read on a table).
fn festering(evil_eye: bool, src: &mut impl DiceSource) -> FesterResult {
    let mut roll = Roll::new(Dice::D6, src);
    apply_evil_eye(&mut roll, evil_eye);
    let outcome = fester_band(roll.total);
    let days = roll_amount(Dice::D6, outcome.times(), 0, "", src);
    FesterResult { roll, outcome, days }
}

// ---------------------------------------------------------------------------------------------
// Location tables (supplied by the scene)
// ---------------------------------------------------------------------------------------------

/// A table row's healing time: `times` × `dice` + `plus` days (e.g. D6 + 4, 6 × D10 + 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HealingDice {
    /// The die (a Morval D10 shows 0–9).
    pub dice: Dice,
    /// What its value is multiplied by (at least 1).
    pub times: u32,
    /// Days added.
    pub plus: i32,
}

impl Default for HealingDice {
    fn default() -> Self {
        Self { dice: Dice::D6, times: 1, plus: 0 }
    }
}

impl HealingDice {
    /// 000 "Adventurers Wounding": "The full healing time is diced for as indicated in the table".
    pub fn roll(&self, src: &mut impl DiceSource) -> RolledAmount {
        roll_amount(self.dice, self.times, self.plus, "healing days added", src)
    }
}

/// One row of a scene's location table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocationRow {
    /// Lowest D% total of the row (00–99).
    pub low: i32,
    /// Highest D% total of the row, inclusive.
    pub high: i32,
    /// Where the wound is, e.g. "sword arm".
    pub location: String,
    /// What else it does, as the table writes it (e.g. "*Must discard shield", "c").
    #[serde(default)]
    pub effects: String,
    /// The Me & Fi (and move) deductions while it heals.
    #[serde(default)]
    pub penalties: Penalties,
    /// The healing time.
    pub healing: HealingDice,
}

/// A location table the scene supplies for one kind of injury (000 gives none).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocationTable {
    /// Which injury it locates.
    pub kind: WoundKind,
    /// Its rows, which together cover 00–99 once each.
    pub rows: Vec<LocationRow>,
}

/// Why a location table cannot be used. Rows are numbered from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LocationTableError {
    /// The table has no rows.
    #[error("the {kind} location table has no rows")]
    Empty {
        /// The table's kind.
        kind: &'static str,
    },
    /// A row's low end is above its high end.
    #[error("row {row} ({low}-{high}): its low end is above its high end")]
    Inverted {
        /// The row.
        row: usize,
        /// Its low end.
        low: i32,
        /// Its high end.
        high: i32,
    },
    /// A row reaches outside 00–99.
    #[error("row {row} ({low}-{high}) reaches outside the D% range 00-99")]
    OutOfRange {
        /// The row.
        row: usize,
        /// Its low end.
        low: i32,
        /// Its high end.
        high: i32,
    },
    /// Two rows cover the same total.
    #[error("rows {first} and {second} both cover {value:02}")]
    Overlap {
        /// The earlier row.
        first: usize,
        /// The later row.
        second: usize,
        /// The first total both cover.
        value: i32,
    },
    /// No row covers a total.
    #[error("no row covers {value:02}")]
    Gap {
        /// The first total no row covers.
        value: i32,
    },
    /// A row's healing dice multiply by 0.
    #[error("row {row}: healing dice times must be at least 1")]
    ZeroTimes {
        /// The row.
        row: usize,
    },
}

impl LocationTable {
    /// RULES-NOTES "Dice" (D% 00–99): the rows cover every total 00–99 exactly once, each row low ≤ high, healing times ≥ 1.
    pub fn validate(&self) -> Result<(), LocationTableError> {
        let (lowest, highest) = Dice::Percent.range();
        if self.rows.is_empty() {
            return Err(LocationTableError::Empty { kind: self.kind.label() });
        }
        let mut covered: Vec<Option<usize>> = vec![None; usize::try_from(highest - lowest + 1).unwrap_or(0)];
        for (index, r) in self.rows.iter().enumerate() {
            let row = index + 1;
            if r.low > r.high {
                return Err(LocationTableError::Inverted { row, low: r.low, high: r.high });
            }
            if r.low < lowest || r.high > highest {
                return Err(LocationTableError::OutOfRange { row, low: r.low, high: r.high });
            }
            if r.healing.times == 0 {
                return Err(LocationTableError::ZeroTimes { row });
            }
            for value in r.low..=r.high {
                let slot = &mut covered[usize::try_from(value - lowest).unwrap_or(0)];
                if let Some(first) = *slot {
                    return Err(LocationTableError::Overlap { first, second: row, value });
                }
                *slot = Some(row);
            }
        }
        match covered.iter().position(Option::is_none) {
            Some(gap) => Err(LocationTableError::Gap { value: lowest + i32::try_from(gap).unwrap_or(0) }),
            None => Ok(()),
        }
    }

    /// 000 "Adventurers Wounding": "Throw percentage dice ... for the location": the row for a D% `total`, if one covers it.
    pub fn lookup(&self, total: i32) -> Option<&LocationRow> {
        self.rows.iter().find(|r| (r.low..=r.high).contains(&total))
    }
}

crate::rules::named_enum! {
    /// Whether a location roll found a row.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum LocationOutcome {
        /// A row of the scene's table.
        Located => "located",
        /// The scene supplies no table of this kind: "wounded: no location table supplied".
        NoLocationTable => "no_location_table",
        /// The scene's table has no row for the total (it failed [`LocationTable::validate`]).
        NoRow => "no_row",
    }
}

/// A location roll, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LocationResult {
    /// The injury's kind.
    pub kind: WoundKind,
    /// Whether a row was found.
    pub outcome: LocationOutcome,
    /// The D% (−5 for a crippling blow with a blunt weapon); `None` without a table.
    pub roll: Option<Roll>,
    /// The row found.
    pub row: Option<LocationRow>,
    /// The row's healing time, rolled.
    pub healing: Option<RolledAmount>,
}

impl LocationResult {
    /// How the log and the view say it: the row's location, or why there is none.
    pub fn label(&self) -> String {
        match (&self.outcome, &self.row) {
            (LocationOutcome::Located, Some(row)) => format!("{}: {}", self.kind.label(), row.location),
            (LocationOutcome::NoRow, _) => format!("{}: the location table has no row for the roll", self.kind.label()),
            _ => self.kind.no_location_table_label().to_string(),
        }
    }

    /// 000 "Adventurers Wounding": the located injury's healing, its row's deductions held until healed.
    pub fn healing_state(&self) -> Option<HealingState> {
        let (row, healing) = (self.row.as_ref()?, self.healing.as_ref()?);
        Some(HealingState::new(self.kind, PenaltySchedule::Fixed(row.penalties), healing.amount))
    }
}

/// 000 "Adventurers Wounding" (Crippling, Burn Wounding, Cripple burns): D% on the scene's table of `kind`, then the row's healing dice.
///
/// Crippling blows with a blunt weapon take −5 ("Adventurers Crippling"). Reading: a total
/// below 00 reads as 00. Without a table of `kind` nothing is rolled and the outcome is
/// [`LocationOutcome::NoLocationTable`] (RULES-NOTES "Where a source is silent").
pub fn roll_location(
    kind: WoundKind,
    tables: &[LocationTable],
    blunt_weapon: bool,
    src: &mut impl DiceSource,
) -> LocationResult {
    let mut result =
        LocationResult { kind, outcome: LocationOutcome::NoLocationTable, roll: None, row: None, healing: None };
    let Some(table) = tables.iter().find(|t| t.kind == kind) else {
        return result;
    };
    let blunt = if kind == WoundKind::Crippling && blunt_weapon { BLUNT_CRIPPLING_MODIFIER } else { 0 };
    let roll = Roll::new(Dice::Percent, src).modifier("blunt weapon", blunt);
    match table.lookup(roll.total.max(0)) {
        Some(row) => {
            result.outcome = LocationOutcome::Located;
            result.healing = Some(row.healing.roll(src));
            result.row = Some(row.clone());
        }
        None => result.outcome = LocationOutcome::NoRow,
    }
    result.roll = Some(roll);
    result
}

// ---------------------------------------------------------------------------------------------
// Healing over days
// ---------------------------------------------------------------------------------------------

/// How a healing injury's deductions run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PenaltySchedule {
    /// 001 "Wound Recoveries": by parts of the healing time (see [`recovery_penalty`]).
    Recovery(WoundRecovery),
    /// The same deductions until healed: a location row's (000 "Adventurers Wounding": "The
    /// deductions can be improved in healing steps, at the GM's discretion": the GM edits them).
    Fixed(Penalties),
}

crate::rules::named_enum! {
    /// Where a healing injury stands.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum HealingStage {
        /// Days of healing left.
        #[default]
        Recovering => "recovering",
        /// Counting down to death (001 "Saga Apparently Dead Recovery Dicing": "mortally wounded D6
        /// days to die"; 000 "Infections": "dies in 2 x D6 days").
        Dying => "dying",
        /// Healed (permanent losses stay).
        Healed => "healed",
        /// Dead.
        Dead => "dead",
    }
}

/// What has been done for the injury so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Treated {
    /// Healing balm (antiseptic, or a dressing, or holy water) has been applied: no infection checks.
    pub healing_balm: bool,
    /// A pain-soothing salve has been applied.
    pub pain_soothing_salve: bool,
    /// A burn salve has been applied.
    pub burn_salve: bool,
    /// Days of full rest.
    pub rest_days: u32,
    /// Days treated by a healer of either level.
    pub healer_days: u32,
    /// Days treated by a 2nd-level healer.
    pub second_level_healer_days: u32,
    /// The days the healer deducted, once "constant for at least half the time"; `None` until then.
    pub healer_deducted: Option<u32>,
    /// Phials of holy water applied.
    pub holy_water_phials: u32,
}

/// A festering wound (000 "Infections").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Festering {
    /// The D6 row it fell in.
    pub row: FesterOutcome,
    /// Days until holy water has healed it ("heals festering, in D6 +1 days").
    #[serde(default)]
    pub heals_in_days: Option<u32>,
    /// Days until it kills (row 2−).
    #[serde(default)]
    pub dies_in_days: Option<u32>,
}

impl Festering {
    /// One day passes: returns (healed by holy water, died). Healing is counted first.
    fn pass_day(&mut self) -> (bool, bool) {
        self.heals_in_days = self.heals_in_days.map(|d| d.saturating_sub(1));
        if self.heals_in_days == Some(0) {
            return (true, false);
        }
        self.dies_in_days = self.dies_in_days.map(|d| d.saturating_sub(1));
        (false, self.dies_in_days == Some(0))
    }
}

/// One injury's healing, day by day: what [`advance_day`] reads and returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HealingState {
    /// The kind of injury (which salve helps, how long infection is checked).
    pub kind: WoundKind,
    /// How its deductions run.
    pub schedule: PenaltySchedule,
    /// Where it stands.
    pub stage: HealingStage,
    /// The healing time as it stands (festering adds to it).
    pub total_days: u32,
    /// Days of healing left.
    pub days_left: u32,
    /// Days to death of a mortal wound (001 "Saga Apparently Dead Recovery Dicing": "mortally wounded D6 days to die").
    #[serde(default)]
    pub dies_in_days: Option<u32>,
    /// What has been done for it.
    #[serde(default)]
    pub treated: Treated,
    /// Whether it festers.
    #[serde(default)]
    pub festering: Option<Festering>,
    /// Days of infection checks left (000 "Infections").
    #[serde(default)]
    pub infection_checks_left: u32,
    /// Losses for life (festering row 3).
    #[serde(default)]
    pub permanent: Penalties,
    /// Fatigue halved for life (festering row 3).
    #[serde(default)]
    pub half_fatigue: bool,
}

impl HealingState {
    /// 000 "Infections": an injury of `total_days` to heal, with its infection checks ([`infection_check_days`]).
    pub fn new(kind: WoundKind, schedule: PenaltySchedule, total_days: u32) -> Self {
        Self {
            kind,
            schedule,
            stage: if total_days == 0 { HealingStage::Healed } else { HealingStage::Recovering },
            total_days,
            days_left: total_days,
            dies_in_days: None,
            treated: Treated::default(),
            festering: None,
            infection_checks_left: if total_days == 0 { 0 } else { infection_check_days(kind, total_days) },
            permanent: Penalties::NONE,
            half_fatigue: false,
        }
    }

    /// 001 "Saga Apparently Dead Recovery Dicing": "mortally wounded D6 days to die".
    pub fn dying(kind: WoundKind, days_to_die: u32) -> Self {
        Self {
            stage: if days_to_die == 0 { HealingStage::Dead } else { HealingStage::Dying },
            dies_in_days: Some(days_to_die),
            ..Self::new(kind, PenaltySchedule::Fixed(Penalties::NONE), 0)
        }
    }

    /// 000 "Adventurers Apparent 'Death' dicing": "6xD10 +5 days to regain maximum fitness possible".
    ///
    /// Reading: these days carry no deductions the text gives and no infection checks (they are
    /// not a wound's healing time); rest, healers and holy water shorten them like any healing.
    pub fn regaining_fitness(days: u32) -> Self {
        Self { infection_checks_left: 0, ..Self::new(WoundKind::Wound, PenaltySchedule::Fixed(Penalties::NONE), days) }
    }

    /// Days of healing done, treatment deductions included.
    pub fn days_done(&self) -> u32 {
        self.total_days.saturating_sub(self.days_left)
    }

    /// Whether nothing more can happen to it (healed or dead).
    pub fn is_over(&self) -> bool {
        matches!(self.stage, HealingStage::Healed | HealingStage::Dead)
    }

    /// Whether its salve has been applied (000 "Adventurers Wounding": "reduces the Melee and firing deductions by one").
    pub fn soothed(&self) -> bool {
        match self.kind.salve() {
            Some(Salve::PainSoothing) => self.treated.pain_soothing_salve,
            Some(Salve::Burn) => self.treated.burn_salve,
            None => false,
        }
    }

    /// 001 "Wound Recoveries", 000 "Infections": the deductions now: the schedule's (eased by the salve), plus any for life.
    pub fn penalties(&self) -> Penalties {
        let wound = match self.stage {
            HealingStage::Dead | HealingStage::Healed => Penalties::NONE,
            HealingStage::Recovering | HealingStage::Dying => {
                let p = match self.schedule {
                    PenaltySchedule::Recovery(recovery) => {
                        recovery_penalty(recovery, self.total_days, self.days_done())
                    }
                    PenaltySchedule::Fixed(p) => p,
                };
                if self.soothed() { p.soothed() } else { p }
            }
        };
        if self.stage == HealingStage::Dead { Penalties::NONE } else { wound.plus(self.permanent) }
    }

    /// 000 "Infections": the wound festers: add the row's days, or start the count to death, and any losses for life.
    fn fester(&mut self, fester: &FesterResult) {
        let dies_in_days = if fester.outcome.kills() {
            Some(fester.days.amount)
        } else {
            self.total_days = self.total_days.saturating_add(fester.days.amount);
            self.days_left = self.days_left.saturating_add(fester.days.amount);
            None
        };
        self.permanent = self.permanent.plus(fester.outcome.permanent_penalties());
        self.half_fatigue |= fester.outcome.halves_fatigue();
        self.infection_checks_left = 0;
        self.festering = Some(Festering { row: fester.outcome, heals_in_days: None, dies_in_days });
    }
}

/// One day's treatment of one injury (an order in the scene).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DayTreatment {
    /// A day of full rest.
    pub full_rest: bool,
    /// Treated by a healer this day.
    pub healer: Option<HealerLevel>,
    /// Healing balm (antiseptic) or a dressing applied.
    pub healing_balm: bool,
    /// A pain-soothing salve applied.
    pub pain_soothing_salve: bool,
    /// A burn salve applied.
    pub burn_salve: bool,
    /// A phial of holy water applied.
    pub holy_water: bool,
}

crate::rules::named_enum! {
    /// What a day did to an injury.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum DayOutcome {
        /// Healing goes on (or the count to death does).
        Recovering => "recovering",
        /// The wound festered today.
        Festered => "festered",
        /// Holy water healed the festering today.
        FesteringHealed => "festering_healed",
        /// Healed today.
        Healed => "healed",
        /// Died today.
        Died => "died",
        /// Already healed or dead: nothing happens.
        Unchanged => "unchanged",
    }
}

/// One day's rolls and deductions, as logged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DayReport {
    /// The day's infection D10, if one was due.
    pub infection: Option<InfectionResult>,
    /// The festering row and its days, if it festered.
    pub fester: Option<FesterResult>,
    /// The phial of holy water, if one was applied.
    pub holy_water: Option<HolyWaterResult>,
    /// D6 + 1 days for holy water to heal the festering, when it began today.
    pub festering_heals_in: Option<Roll>,
    /// The healer's deduction, on the day it came due.
    pub healer: Option<HealerResult>,
    /// Days full rest deducted today (0 or 1).
    pub rest_days_deducted: u32,
}

/// 000 "Adventurers injuries optional rules", "Infections"; 001 "Wound Recoveries": one day of healing with its treatment.
///
/// In this order: the day's balm and salves are applied (and stay applied: reading); the
/// infection D10 if one is due and no balm or holy water has ever been applied (a wound festers
/// once: reading), with its D6 row and days; holy water ((D10 + 35) % of the healing time, and
/// on a festering wound D6 + 1 days to heal it, rolled once); the healer's deduction, once, on
/// the day the healer's days reach half the healing time (2nd level if the 2nd-level days alone
/// do, else 1st: reading); full rest (every second day of rest deducts one); then the day
/// passes. Then counts run out: holy water's cure before death, so a cure due the day of death
/// saves (reading); a festering that kills is stopped only by holy water, not by the wound
/// healing (reading). Healed and dead injuries are returned unchanged, with no rolls.
/// `evil_eye`: the patient is cursed (001 "Lay an evil eye Curse"), −1 on the infection D10 and
/// the festering row's D6 (the treatments' dice are the healer's and the water's).
pub fn advance_day(
    state: &HealingState,
    treatment: &DayTreatment,
    evil_eye: bool,
    src: &mut impl DiceSource,
) -> (HealingState, DayOutcome, DayReport) {
    let mut s = *state;
    let mut report = DayReport::default();
    if s.is_over() {
        return (s, DayOutcome::Unchanged, report);
    }
    // What is applied today. Holy water "count[s] as healing balm".
    s.treated.healing_balm |= treatment.healing_balm || treatment.holy_water;
    s.treated.pain_soothing_salve |= treatment.pain_soothing_salve;
    s.treated.burn_salve |= treatment.burn_salve;

    // Infection: "If no healing balm is applied D10 each day for half the recovery time".
    let mut festered = false;
    if s.treated.healing_balm {
        s.infection_checks_left = 0;
    } else if s.infection_checks_left > 0 && s.festering.is_none() {
        s.infection_checks_left = s.infection_checks_left.saturating_sub(1);
        let infection = check_infection(evil_eye, src);
        if infection.outcome == InfectionOutcome::Festers {
            let fester = festering(evil_eye, src);
            s.fester(&fester);
            festered = true;
            report.fester = Some(fester);
        }
        report.infection = Some(infection);
    }

    // Holy water: days off, and a festering healed in D6 + 1 days.
    if treatment.holy_water {
        let holy = roll_holy_water(s.total_days, src);
        s.days_left = s.days_left.saturating_sub(holy.days);
        s.treated.holy_water_phials = s.treated.holy_water_phials.saturating_add(1);
        report.holy_water = Some(holy);
        if let Some(festering) = s.festering.as_mut().filter(|f| f.heals_in_days.is_none()) {
            let heal = Roll::new(Dice::D6, src).modifier("heals festering in D6 + 1 days", HOLY_WATER_FESTERING_ADDEND);
            festering.heals_in_days = Some(u32::try_from(heal.total).unwrap_or(1));
            report.festering_heals_in = Some(heal);
        }
    }

    // A healer: once "constant for at least half the time".
    if let Some(level) = treatment.healer {
        s.treated.healer_days = s.treated.healer_days.saturating_add(1);
        if level == HealerLevel::Second {
            s.treated.second_level_healer_days = s.treated.second_level_healer_days.saturating_add(1);
        }
        if s.treated.healer_deducted.is_none() && healer_constant_enough(s.treated.healer_days, s.total_days) {
            let level = if healer_constant_enough(s.treated.second_level_healer_days, s.total_days) {
                HealerLevel::Second
            } else {
                HealerLevel::First
            };
            let healer = roll_healer_deduction(level, src);
            s.days_left = s.days_left.saturating_sub(healer.days);
            s.treated.healer_deducted = Some(healer.days);
            report.healer = Some(healer);
        }
    }

    // Full rest: "Each two days full rest deducts one".
    if treatment.full_rest {
        let before = rest_deduction(s.treated.rest_days);
        s.treated.rest_days = s.treated.rest_days.saturating_add(1);
        report.rest_days_deducted = rest_deduction(s.treated.rest_days) - before;
        s.days_left = s.days_left.saturating_sub(report.rest_days_deducted);
    }

    // The day passes.
    s.days_left = s.days_left.saturating_sub(1);
    let (festering_healed, died_of_festering) = s.festering.as_mut().map_or((false, false), Festering::pass_day);
    if festering_healed {
        s.festering = None;
    }
    s.dies_in_days = s.dies_in_days.map(|d| d.saturating_sub(1));
    let died = died_of_festering || s.dies_in_days == Some(0);
    let dying = s.dies_in_days.is_some() || s.festering.is_some_and(|f| f.dies_in_days.is_some());
    s.stage = if died {
        HealingStage::Dead
    } else if dying {
        HealingStage::Dying
    } else if s.days_left == 0 {
        HealingStage::Healed
    } else {
        HealingStage::Recovering
    };
    if s.stage == HealingStage::Healed {
        s.festering = None;
        s.infection_checks_left = 0;
    }
    let outcome = if died {
        DayOutcome::Died
    } else if s.stage == HealingStage::Healed {
        DayOutcome::Healed
    } else if festered {
        DayOutcome::Festered
    } else if festering_healed {
        DayOutcome::FesteringHealed
    } else {
        DayOutcome::Recovering
    };
    (s, outcome, report)
}

// ---------------------------------------------------------------------------------------------
// Outcomes and rolls
// ---------------------------------------------------------------------------------------------

crate::rules::outcome::impl_outcome! {
    UnconsciousOutcome => |o| Meaning::NONE;
    Recoverability => |o| match o {
        Recoverability::DeadAsFirstThought | Recoverability::DefinitelyDead => {
            Meaning::NONE.harm(Harm::DefinitelyDead)
        }
        _ => Meaning::NONE,
    };
    SagaRecovery => |o| match o {
        SagaRecovery::Dead => Meaning::NONE.harm(Harm::DefinitelyDead),
        _ => Meaning::NONE,
    };
    InfectionOutcome => |o| Meaning::NONE;
    FesterOutcome => |o| Meaning::NONE;
    LocationOutcome => |o| Meaning::NONE;
    WoundRecovery => |o| Meaning::NONE;
    DayOutcome => |o| match o {
        DayOutcome::Died => Meaning::NONE.harm(Harm::DefinitelyDead),
        _ => Meaning::NONE,
    };
}

// The rolls of each report in the order they were rolled (new events: no earlier log to keep).

impl Rolls for RolledAmount {
    /// The die.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for UnconsciousResult {
    /// `roll`, then `duration`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
        self.duration.push_rolls(out);
    }
}

impl Rolls for ApparentDeathResult {
    /// `recoverability`, `unconscious_hours`, `fitness_days`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.recoverability.push_rolls(out);
        self.unconscious_hours.push_rolls(out);
        self.fitness_days.push_rolls(out);
    }
}

impl Rolls for SagaRecoveryResult {
    /// `roll`, then `days`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
        self.days.push_rolls(out);
    }
}

impl Rolls for ApparentlyDeadReport {
    /// The report's own rolls.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        match self {
            ApparentlyDeadReport::OptionalRules(r) => r.push_rolls(out),
            ApparentlyDeadReport::Saga(r) => r.push_rolls(out),
        }
    }
}

impl Rolls for HealerResult {
    /// The D6.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for HolyWaterResult {
    /// The D10.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for InfectionResult {
    /// The D10.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for FesterResult {
    /// `roll`, then `days`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
        self.days.push_rolls(out);
    }
}

impl Rolls for LocationResult {
    /// `roll`, then `healing`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
        self.healing.push_rolls(out);
    }
}

impl Rolls for DayReport {
    /// `infection`, `fester`, `holy_water`, `festering_heals_in`, `healer`: the order of the day.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.infection.push_rolls(out);
        self.fester.push_rolls(out);
        self.holy_water.push_rolls(out);
        self.festering_heals_in.push_rolls(out);
        self.healer.push_rolls(out);
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{ScriptedDice, ScriptedFaces, SeededDice};
    use crate::rules::stats::chi_square;

    /// Chi-square 99.9% critical values by degrees of freedom.
    const CHI_SQUARE_4_DF_999: f64 = 18.467;
    const CHI_SQUARE_5_DF_999: f64 = 20.515;
    const CHI_SQUARE_9_DF_999: f64 = 27.877;
    const CHI_SQUARE_19_DF_999: f64 = 43.820;

    fn no_dice() -> ScriptedFaces {
        ScriptedDice::faces(Vec::<u32>::new())
    }

    fn mods(roll: &Roll) -> Vec<(&str, i32)> {
        roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect()
    }

    fn balm() -> DayTreatment {
        DayTreatment { healing_balm: true, ..DayTreatment::default() }
    }

    fn holy() -> DayTreatment {
        DayTreatment { holy_water: true, ..DayTreatment::default() }
    }

    /// `days` days of the same treatment: the last state, each day's outcome and report.
    fn run_days(
        state: HealingState,
        treatment: DayTreatment,
        days: usize,
        src: &mut impl DiceSource,
    ) -> (HealingState, Vec<DayOutcome>, Vec<DayReport>) {
        let mut s = state;
        let mut outcomes = Vec::new();
        let mut reports = Vec::new();
        for _ in 0..days {
            let (next, outcome, report) = advance_day(&s, &treatment, false, src);
            s = next;
            outcomes.push(outcome);
            reports.push(report);
        }
        (s, outcomes, reports)
    }

    fn fixed(total_days: u32) -> HealingState {
        HealingState::new(WoundKind::Wound, PenaltySchedule::Fixed(Penalties::NONE), total_days)
    }

    // --- Wound penalties, bleeding, time ------------------------------------------------------

    #[test]
    fn standard_wound_penalty_and_first_aid() {
        assert_eq!(standard_wound_penalty(false), -2);
        assert_eq!(standard_wound_penalty(true), -1);
    }

    #[test]
    fn bleeding_costs_a_fatigue_point_a_move_and_burns_do_not_bleed() {
        assert_eq!(bleeding_fatigue(WoundKind::Wound, false, 0), 0);
        assert_eq!(bleeding_fatigue(WoundKind::Wound, false, 1), 1);
        assert_eq!(bleeding_fatigue(WoundKind::Wound, false, 5), 5);
        assert_eq!(bleeding_fatigue(WoundKind::Crippling, false, 3), 3);
        assert_eq!(bleeding_fatigue(WoundKind::Wound, true, 5), 0);
        assert_eq!(bleeding_fatigue(WoundKind::Burn, false, 5), 0);
        assert_eq!(bleeding_fatigue(WoundKind::CrippleBurn, false, 5), 0);
        assert!(WoundKind::Wound.bleeds() && WoundKind::Crippling.bleeds());
        assert!(!WoundKind::Burn.bleeds() && !WoundKind::CrippleBurn.bleeds());
    }

    #[test]
    fn hours_convert_at_the_scenes_moves_per_day() {
        assert_eq!(hours_to_moves(0, 480), 0);
        assert_eq!(hours_to_moves(1, 480), 20);
        assert_eq!(hours_to_moves(42, 480), 840);
        assert_eq!(hours_to_moves(1, 240), 10);
        // 3 hours at 100 moves a day is 12.5 moves: 13. An hour at 1 a day is 0.04: 0.
        assert_eq!(hours_to_moves(3, 100), 13);
        assert_eq!(hours_to_moves(1, 1), 0);
        assert_eq!(hours_to_moves(u32::MAX, 100_000), u32::MAX);
    }

    #[test]
    fn fire_rows_feed_the_burn_tables() {
        use crate::rules::fire::PersonInFireOutcome as P;
        assert_eq!(burn_from_fire(P::Unharmed), None);
        assert_eq!(burn_from_fire(P::SingedClothes), None);
        assert_eq!(burn_from_fire(P::MinorBurns), Some(WoundKind::Burn));
        assert_eq!(burn_from_fire(P::BadBurns), Some(WoundKind::Burn));
        assert_eq!(burn_from_fire(P::SevereBurns), Some(WoundKind::Burn));
        assert_eq!(burn_from_fire(P::CrippledInAgony), Some(WoundKind::CrippleBurn));
        assert_eq!(burn_from_fire(P::ApparentlyDead), None);
        assert_eq!(burn_from_fire(P::DefinitelyDead), None);
    }

    // --- Unconscious ----------------------------------------------------------------------------

    #[test]
    fn unconscious_rows_on_both_sides_of_each_boundary() {
        assert_eq!(unconscious_band(7), UnconsciousOutcome::ThreeD10Moves);
        assert_eq!(unconscious_band(6), UnconsciousOutcome::ThreeD10Moves);
        assert_eq!(unconscious_band(5), UnconsciousOutcome::SevenD10Moves);
        assert_eq!(unconscious_band(4), UnconsciousOutcome::TwelveD10Moves);
        assert_eq!(unconscious_band(3), UnconsciousOutcome::D6Hours);
        assert_eq!(unconscious_band(2), UnconsciousOutcome::ThreeD6Hours);
        assert_eq!(unconscious_band(1), UnconsciousOutcome::SevenD6Hours);
        assert_eq!(unconscious_band(0), UnconsciousOutcome::SevenD6Hours);
        let rows: Vec<(Dice, u32, bool)> =
            UnconsciousOutcome::ALL.iter().map(|o| (o.dice(), o.times(), o.in_hours())).collect();
        assert_eq!(
            rows,
            [
                (Dice::D10, 3, false),
                (Dice::D10, 7, false),
                (Dice::D10, 12, false),
                (Dice::D6, 1, true),
                (Dice::D6, 3, true),
                (Dice::D6, 7, true),
            ]
        );
    }

    #[test]
    fn unconscious_rows_roll_their_durations() {
        // (D6 row, the row's die, moves at 480 a day). A Morval D10 shows 0-9.
        let cases: [(u32, u32, u32); 12] = [
            (6, 0, 0),
            (6, 9, 27),
            (5, 0, 0),
            (5, 9, 63),
            (4, 1, 12),
            (4, 9, 108),
            (3, 1, 20),
            (3, 6, 120),
            (2, 1, 60),
            (2, 6, 360),
            (1, 1, 140),
            (1, 6, 840),
        ];
        for (row, face, moves) in cases {
            let mut dice = ScriptedDice::faces([row, face]);
            let r = roll_unconscious(480, &mut dice);
            assert!(dice.is_empty());
            assert_eq!(r.roll.total, row as i32);
            assert_eq!(r.outcome, unconscious_band(row as i32));
            assert_eq!(r.duration.roll.dice, r.outcome.dice());
            assert_eq!(r.moves, moves, "D6 {row}, then {face}");
            assert_eq!(r.rolls().len(), 2);
        }
        // Hours follow the scene's clock: 7 × 6 hours at 240 moves a day.
        let r = roll_unconscious(240, &mut ScriptedDice::faces([1, 6]));
        assert_eq!((r.duration.amount, r.moves), (42, 420));
    }

    fn moves_bucket(moves: u32) -> usize {
        match moves {
            0..=9 => 0,
            10..=29 => 1,
            30..=59 => 2,
            60..=119 => 3,
            120..=359 => 4,
            _ => 5,
        }
    }

    #[test]
    fn unconscious_distribution_matches_the_text() {
        // The text's rows: (die's lowest face, sides, times, in hours), each row 1/6.
        let rows: [(u32, u32, u32, bool); 6] = [
            (0, 10, 3, false),
            (0, 10, 7, false),
            (0, 10, 12, false),
            (1, 6, 1, true),
            (1, 6, 3, true),
            (1, 6, 7, true),
        ];
        let mut expected = [0.0f64; 6];
        for (low, sides, times, hours) in rows {
            for face in low..low + sides {
                let amount = times * face;
                let moves = if hours { amount * 20 } else { amount };
                expected[moves_bucket(moves)] += 1.0 / 6.0 / f64::from(sides);
            }
        }
        let mut observed = [0u32; 6];
        let mut src = SeededDice::new(0x0C0);
        for _ in 0..60_000 {
            observed[moves_bucket(roll_unconscious(480, &mut src).moves)] += 1;
        }
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI_SQUARE_5_DF_999, "chi-square {chi}: observed {observed:?}, expected {expected:?}");
    }

    // --- Apparent death (000) -------------------------------------------------------------------

    #[test]
    fn recoverability_rows_on_both_sides_of_each_boundary() {
        assert_eq!(recoverability_band(10), Recoverability::AlmostFullyRecoverable);
        assert_eq!(recoverability_band(9), Recoverability::AlmostFullyRecoverable);
        assert_eq!(recoverability_band(8), Recoverability::MinorDisability);
        assert_eq!(recoverability_band(7), Recoverability::Disability);
        assert_eq!(recoverability_band(6), Recoverability::BadlyDisabled);
        assert_eq!(recoverability_band(5), Recoverability::DeadAsFirstThought);
        assert_eq!(recoverability_band(0), Recoverability::DeadAsFirstThought);
        assert_eq!(recoverability_band(-1), Recoverability::DeadAsFirstThought);
        let alive: Vec<bool> = Recoverability::ALL.iter().map(|r| r.alive()).collect();
        assert_eq!(alive, [true, true, true, true, false, false]);
    }

    #[test]
    fn apparent_death_rows_roll_hours_and_days() {
        // (recoverability, hours D10, days D10) -> (row, hours, moves at 480 a day, days)
        let cases = [
            ([9, 0, 0], Recoverability::AlmostFullyRecoverable, 20, 400, 5),
            ([8, 9, 1], Recoverability::MinorDisability, 29, 580, 11),
            ([7, 5, 5], Recoverability::Disability, 25, 500, 35),
            ([6, 9, 9], Recoverability::BadlyDisabled, 29, 580, 59),
        ];
        for (faces, row, hours, moves, days) in cases {
            let mut dice = ScriptedDice::faces(faces);
            let r = resolve_apparent_death(ApparentDeathCause::Wounds, 480, &mut dice);
            assert!(dice.is_empty());
            assert_eq!(r.outcome, row);
            let rolled_hours = r.unconscious_hours.as_ref().expect("the living are unconscious");
            assert_eq!(mods(rolled_hours), [("at least 20 hours", 20)]);
            assert_eq!(rolled_hours.total, hours);
            assert_eq!(r.unconscious_moves, Some(moves));
            assert_eq!(r.fitness_days.as_ref().map(|d| (d.times, d.amount)), Some((6, days)));
            assert_eq!(r.rolls().len(), 3);
            let s = r.healing_state().expect("days to regain fitness");
            assert_eq!((s.total_days, s.infection_checks_left, s.penalties()), (days, 0, Penalties::NONE));
        }
        // 5 and below: dead as first thought, after the one roll.
        for face in [5, 0] {
            let mut dice = ScriptedDice::faces([face]);
            let r = resolve_apparent_death(ApparentDeathCause::Fire, 480, &mut dice);
            assert!(dice.is_empty());
            assert_eq!(r.outcome, Recoverability::DeadAsFirstThought);
            assert_eq!(r.rolls().len(), 1);
            assert!(r.healing_state().is_none());
        }
    }

    #[test]
    fn burnt_to_death_or_drowned_are_definitely_dead_without_a_roll() {
        for cause in [ApparentDeathCause::BurntToDeath, ApparentDeathCause::Drowned] {
            assert!(cause.definitely_dead());
            let mut dice = no_dice();
            let r = resolve_apparent_death(cause, 480, &mut dice);
            assert_eq!(r.outcome, Recoverability::DefinitelyDead);
            assert!(r.rolls().is_empty());
            for text in ApparentDeathText::ALL {
                let report = resolve_apparently_dead(text, cause, true, 480, false, &mut dice);
                assert_eq!(report.classified().id(), "definitely_dead");
                assert!(report.rolls().is_empty());
            }
        }
        assert!(!ApparentDeathCause::Wounds.definitely_dead());
        assert!(!ApparentDeathCause::Fire.definitely_dead());
    }

    #[test]
    fn apparent_death_text_by_cause() {
        use super::ApparentDeathCause as C;
        use super::ApparentDeathText as T;
        assert_eq!(T::default(), T::ByCause);
        assert_eq!(T::ByCause.for_cause(C::Fire), T::SagaRecovery);
        for cause in [C::Wounds, C::BurntToDeath, C::Drowned] {
            assert_eq!(T::ByCause.for_cause(cause), T::OptionalRules);
        }
        for cause in C::ALL {
            assert_eq!(T::OptionalRules.for_cause(cause), T::OptionalRules);
            assert_eq!(T::SagaRecovery.for_cause(cause), T::SagaRecovery);
        }
        // By cause: fire goes to 001, where treatment counts (8 + 1 = 9: fully recovered).
        let r = resolve_apparently_dead(T::ByCause, C::Fire, true, 480, false, &mut ScriptedDice::faces([8]));
        assert_eq!(r.classified().id(), "fully_recovered");
        assert!(matches!(r, ApparentlyDeadReport::Saga(_)));
        // Wounds go to 000: the same 8 is a minor disability, with its hours and days.
        let mut dice = ScriptedDice::faces([8, 0, 0]);
        let r = resolve_apparently_dead(T::ByCause, C::Wounds, true, 480, false, &mut dice);
        assert!(dice.is_empty());
        assert_eq!(r.classified().id(), "recoverable_to_minor_disability");
        assert_eq!(r.healing_state(WoundKind::Wound).map(|s| s.total_days), Some(5));
        // A setting may send fire to 000 and wounds to 001.
        let r = resolve_apparently_dead(T::OptionalRules, C::Fire, false, 480, false, &mut ScriptedDice::faces([4]));
        assert_eq!(r.classified().id(), "dead_as_first_thought");
        let r =
            resolve_apparently_dead(T::SagaRecovery, C::Wounds, false, 480, false, &mut ScriptedDice::faces([4, 2]));
        assert_eq!(r.classified().id(), "mortally_wounded");
        assert_eq!(
            r.healing_state(WoundKind::Wound).map(|s| (s.stage, s.dies_in_days)),
            Some((HealingStage::Dying, Some(2)))
        );
    }

    #[test]
    fn apparent_death_distribution_matches_the_text() {
        // D10 0-9: 9, 8, 7, 6 one face each, 0-5 six faces.
        let expected = [0.1, 0.1, 0.1, 0.1, 0.6];
        let mut observed = [0u32; 5];
        // The living's days: 6 × one D10 + 5, ten values 5, 11, ..., 59, equally likely.
        let mut days = [0u32; 10];
        let mut src = SeededDice::new(0xDEAD);
        for _ in 0..50_000 {
            let r = resolve_apparent_death(ApparentDeathCause::Wounds, 480, &mut src);
            let index = match r.outcome {
                Recoverability::AlmostFullyRecoverable => 0,
                Recoverability::MinorDisability => 1,
                Recoverability::Disability => 2,
                Recoverability::BadlyDisabled => 3,
                Recoverability::DeadAsFirstThought => 4,
                Recoverability::DefinitelyDead => panic!("no roll gives definitely dead"),
            };
            observed[index] += 1;
            if let Some(d) = &r.fitness_days {
                assert!((d.amount - 5).is_multiple_of(6), "6 × one D10 + 5: {}", d.amount);
                days[((d.amount - 5) / 6) as usize] += 1;
                let hours = r.unconscious_hours.as_ref().map_or(0, |h| h.total);
                assert!((20..=29).contains(&hours), "{hours} hours");
            }
        }
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI_SQUARE_4_DF_999, "chi-square {chi}: observed {observed:?}, expected {expected:?}");
        let chi = chi_square(&days, &[0.1; 10]);
        assert!(chi < CHI_SQUARE_9_DF_999, "chi-square {chi}: fitness days {days:?}");
    }

    // --- Saga recovery and wound recoveries (001) -----------------------------------------------

    #[test]
    fn saga_recovery_rows_on_both_sides_of_each_boundary() {
        assert_eq!(saga_recovery_band(10), SagaRecovery::FullyRecovered);
        assert_eq!(saga_recovery_band(9), SagaRecovery::FullyRecovered);
        assert_eq!(saga_recovery_band(8), SagaRecovery::Wounded);
        assert_eq!(saga_recovery_band(7), SagaRecovery::Wounded);
        assert_eq!(saga_recovery_band(6), SagaRecovery::SoreWounded);
        assert_eq!(saga_recovery_band(5), SagaRecovery::SoreWounded);
        assert_eq!(saga_recovery_band(4), SagaRecovery::MortallyWounded);
        assert_eq!(saga_recovery_band(3), SagaRecovery::Dead);
        assert_eq!(saga_recovery_band(0), SagaRecovery::Dead);
        assert_eq!(saga_recovery_band(-1), SagaRecovery::Dead);
        assert_eq!(SagaRecovery::Wounded.recovery(), Some(WoundRecovery::Wounded));
        assert_eq!(SagaRecovery::SoreWounded.recovery(), Some(WoundRecovery::SoreWounded));
        assert_eq!(SagaRecovery::FullyRecovered.recovery(), None);
        assert_eq!(SagaRecovery::MortallyWounded.recovery(), None);
        assert_eq!(SagaRecovery::Dead.recovery(), None);
    }

    #[test]
    fn saga_recovery_rows_roll_their_days() {
        // (D10, treated within 3 moves, the row's die if any) -> (row, days)
        let cases: [(u32, bool, Option<u32>, SagaRecovery, Option<u32>); 13] = [
            (9, false, None, SagaRecovery::FullyRecovered, None),
            (8, true, None, SagaRecovery::FullyRecovered, None),
            (8, false, Some(0), SagaRecovery::Wounded, Some(2)),
            (7, false, Some(9), SagaRecovery::Wounded, Some(11)),
            (6, true, Some(9), SagaRecovery::Wounded, Some(11)),
            (6, false, Some(1), SagaRecovery::SoreWounded, Some(11)),
            (5, false, Some(20), SagaRecovery::SoreWounded, Some(30)),
            (4, true, Some(1), SagaRecovery::SoreWounded, Some(11)),
            (4, false, Some(1), SagaRecovery::MortallyWounded, Some(1)),
            (3, true, Some(6), SagaRecovery::MortallyWounded, Some(6)),
            (3, false, None, SagaRecovery::Dead, None),
            (2, true, None, SagaRecovery::Dead, None),
            (0, false, None, SagaRecovery::Dead, None),
        ];
        for (face, treated, die, row, days) in cases {
            let faces: Vec<u32> = std::iter::once(face).chain(die).collect();
            let mut dice = ScriptedDice::faces(faces);
            let r = resolve_saga_recovery(treated, &mut dice);
            assert!(dice.is_empty(), "D10 {face}, treated {treated}");
            assert_eq!(r.outcome, row, "D10 {face}, treated {treated}");
            assert_eq!(r.roll.total, face as i32 + i32::from(treated));
            assert_eq!(r.days.as_ref().map(|d| d.amount), days, "D10 {face}, treated {treated}");
        }
        let r = resolve_saga_recovery(true, &mut ScriptedDice::faces([9]));
        assert_eq!(mods(&r.roll), [("treated within 3 moves", 1)]);
        assert!(resolve_saga_recovery(false, &mut ScriptedDice::faces([9])).roll.modifiers.is_empty());
        // What follows: healing by 001 "Wound Recoveries", or the count to death.
        let r = resolve_saga_recovery(false, &mut ScriptedDice::faces([7, 3]));
        let s = r.healing_state(WoundKind::Wound).expect("wounded");
        assert_eq!(s.schedule, PenaltySchedule::Recovery(WoundRecovery::Wounded));
        assert_eq!((s.total_days, s.days_left, s.stage), (5, 5, HealingStage::Recovering));
        let r = resolve_saga_recovery(false, &mut ScriptedDice::faces([4, 3]));
        let s = r.healing_state(WoundKind::Wound).expect("mortally wounded");
        assert_eq!((s.stage, s.dies_in_days), (HealingStage::Dying, Some(3)));
        assert!(resolve_saga_recovery(false, &mut ScriptedDice::faces([9])).healing_state(WoundKind::Wound).is_none());
        assert!(resolve_saga_recovery(false, &mut ScriptedDice::faces([0])).healing_state(WoundKind::Wound).is_none());
    }

    #[test]
    fn saga_recovery_distribution_matches_the_text() {
        for (treated, seed) in [(false, 0x5A6A), (true, 0x5A6B)] {
            let bonus = i32::from(treated);
            // [fully recovered 9+, wounded 7+, sore wounded 5+, mortally wounded 4, dead 3-]
            let mut expected = [0.0f64; 5];
            for face in 0..=9 {
                let total = face + bonus;
                let index = if total >= 9 {
                    0
                } else if total >= 7 {
                    1
                } else if total >= 5 {
                    2
                } else if total == 4 {
                    3
                } else {
                    4
                };
                expected[index] += 0.1;
            }
            let mut observed = [0u32; 5];
            let mut src = SeededDice::new(seed);
            for _ in 0..50_000 {
                let index = match resolve_saga_recovery(treated, &mut src).outcome {
                    SagaRecovery::FullyRecovered => 0,
                    SagaRecovery::Wounded => 1,
                    SagaRecovery::SoreWounded => 2,
                    SagaRecovery::MortallyWounded => 3,
                    SagaRecovery::Dead => 4,
                };
                observed[index] += 1;
            }
            let chi = chi_square(&observed, &expected);
            assert!(
                chi < CHI_SQUARE_4_DF_999,
                "treated {treated}: chi-square {chi}: observed {observed:?}, expected {expected:?}"
            );
        }
    }

    #[test]
    fn wound_recovery_days_rows() {
        let days = |recovery: WoundRecovery, face: u32| {
            let mut dice = ScriptedDice::faces([face]);
            let amount = recovery.roll_days(&mut dice);
            assert!(dice.is_empty());
            (amount.roll.dice, amount.amount)
        };
        assert_eq!(days(WoundRecovery::SoreWounded, 1), (Dice::D20, 11));
        assert_eq!(days(WoundRecovery::SoreWounded, 20), (Dice::D20, 30));
        assert_eq!(days(WoundRecovery::Wounded, 0), (Dice::D10, 2));
        assert_eq!(days(WoundRecovery::Wounded, 9), (Dice::D10, 11));
        assert_eq!(days(WoundRecovery::FleshWounded, 1), (Dice::D6, 1));
        assert_eq!(days(WoundRecovery::FleshWounded, 6), (Dice::D6, 6));
    }

    #[test]
    fn sore_wound_days_distribution_matches_the_text() {
        // D20 + 10: 11..=30, each 1/20.
        let mut observed = [0u32; 20];
        let mut src = SeededDice::new(0x5012E);
        for _ in 0..40_000 {
            let days = WoundRecovery::SoreWounded.roll_days(&mut src).amount;
            assert!((11..=30).contains(&days), "{days}");
            observed[(days - 11) as usize] += 1;
        }
        let chi = chi_square(&observed, &[0.05; 20]);
        assert!(chi < CHI_SQUARE_19_DF_999, "chi-square {chi}: observed {observed:?}");
    }

    #[test]
    fn recovery_penalty_thirds_halves_and_flesh_wounds() {
        // Sore wounded, 11 days: the odd days go to the earlier thirds (4 at -3, 4 at -2, 3 at -1).
        for (done, expect) in [(0, -3), (3, -3), (4, -2), (7, -2), (8, -1), (10, -1)] {
            assert_eq!(recovery_penalty(WoundRecovery::SoreWounded, 11, done), Penalties::all(expect), "{done} of 11");
        }
        assert_eq!(recovery_penalty(WoundRecovery::SoreWounded, 11, 11), Penalties::NONE);
        // 12 days: 4 of each.
        for (done, expect) in [(3, -3), (4, -2), (7, -2), (8, -1), (11, -1)] {
            assert_eq!(recovery_penalty(WoundRecovery::SoreWounded, 12, done), Penalties::all(expect), "{done} of 12");
        }
        // 3 days: one of each.
        for (done, expect) in [(0, -3), (1, -2), (2, -1)] {
            assert_eq!(recovery_penalty(WoundRecovery::SoreWounded, 3, done), Penalties::all(expect), "{done} of 3");
        }
        // Wounded: -1 in both halves.
        for done in [0, 2, 3, 4] {
            assert_eq!(recovery_penalty(WoundRecovery::Wounded, 5, done), Penalties::all(-1), "{done} of 5");
        }
        assert_eq!(recovery_penalty(WoundRecovery::Wounded, 5, 5), Penalties::NONE);
        // Flesh wounded: -1 throughout.
        assert_eq!(recovery_penalty(WoundRecovery::FleshWounded, 1, 0), Penalties::all(-1));
        assert_eq!(recovery_penalty(WoundRecovery::FleshWounded, 6, 5), Penalties::all(-1));
        assert_eq!(recovery_penalty(WoundRecovery::FleshWounded, 1, 1), Penalties::NONE);
        assert_eq!(recovery_penalty(WoundRecovery::FleshWounded, 0, 0), Penalties::NONE);
        // "to move, melee and firing hit chances".
        assert_eq!(Penalties::all(-3), Penalties { move_inches: -3, melee: -3, firing: -3 });
    }

    #[test]
    fn a_sore_wound_heals_through_its_thirds() {
        let mut s = HealingState::new(WoundKind::Wound, PenaltySchedule::Recovery(WoundRecovery::SoreWounded), 12);
        let mut melee = vec![s.penalties().melee];
        for _ in 0..12 {
            s = advance_day(&s, &balm(), false, &mut no_dice()).0;
            melee.push(s.penalties().melee);
        }
        assert_eq!(melee, [-3, -3, -3, -3, -2, -2, -2, -2, -1, -1, -1, -1, 0]);
        assert_eq!(s.stage, HealingStage::Healed);
    }

    #[test]
    fn salves_ease_melee_and_firing_by_one() {
        assert_eq!(Penalties::all(-3).soothed(), Penalties { move_inches: -3, melee: -2, firing: -2 });
        assert_eq!(Penalties::all(-1).soothed(), Penalties { move_inches: -1, melee: 0, firing: 0 });
        assert_eq!(Penalties::NONE.soothed(), Penalties::NONE);
        assert_eq!(WoundKind::Wound.salve(), Some(Salve::PainSoothing));
        assert_eq!(WoundKind::Burn.salve(), Some(Salve::Burn));
        assert_eq!(WoundKind::CrippleBurn.salve(), Some(Salve::Burn));
        assert_eq!(WoundKind::Crippling.salve(), None);
        // A pain-soothing salve eases a wound.
        let mut s = HealingState::new(WoundKind::Wound, PenaltySchedule::Recovery(WoundRecovery::SoreWounded), 12);
        assert_eq!(s.penalties(), Penalties::all(-3));
        s.treated.pain_soothing_salve = true;
        assert_eq!(s.penalties(), Penalties { move_inches: -3, melee: -2, firing: -2 });
        // A burn takes a burn salve, not a pain-soothing one.
        let mut b = HealingState::new(WoundKind::Burn, PenaltySchedule::Fixed(Penalties::all(-2)), 6);
        b.treated.pain_soothing_salve = true;
        assert_eq!(b.penalties(), Penalties::all(-2));
        b.treated.burn_salve = true;
        assert_eq!(b.penalties(), Penalties { move_inches: -2, melee: -1, firing: -1 });
        // The crippling paragraph names no salve.
        let mut c = HealingState::new(WoundKind::Crippling, PenaltySchedule::Fixed(Penalties::all(-2)), 6);
        c.treated.pain_soothing_salve = true;
        c.treated.burn_salve = true;
        assert_eq!(c.penalties(), Penalties::all(-2));
        // A salve applied on a day stays applied.
        let day = DayTreatment { burn_salve: true, healing_balm: true, ..DayTreatment::default() };
        let (b, _, _) = advance_day(
            &HealingState::new(WoundKind::Burn, PenaltySchedule::Fixed(Penalties::all(-2)), 6),
            &day,
            false,
            &mut no_dice(),
        );
        let (b, _, _) = advance_day(&b, &DayTreatment::default(), false, &mut no_dice());
        assert_eq!(b.penalties(), Penalties { move_inches: -2, melee: -1, firing: -1 });
    }

    // --- Treatment ----------------------------------------------------------------------------

    #[test]
    fn rest_healer_and_holy_water_rows() {
        assert_eq!([0, 1, 2, 3, 4, 5].map(rest_deduction), [0, 0, 1, 1, 2, 2]);
        // 1st level: D6 - 2, never below nothing (reading).
        for (face, days) in [(1, 0), (2, 0), (3, 1), (6, 4)] {
            let r = roll_healer_deduction(HealerLevel::First, &mut ScriptedDice::faces([face]));
            assert_eq!(mods(&r.roll), [("1st-level healer", -2)]);
            assert_eq!(r.days, days, "1st level, D6 {face}");
        }
        // 2nd level: D6.
        for (face, days) in [(1, 1), (6, 6)] {
            let r = roll_healer_deduction(HealerLevel::Second, &mut ScriptedDice::faces([face]));
            assert!(r.roll.modifiers.is_empty());
            assert_eq!(r.days, days, "2nd level, D6 {face}");
        }
        // "constant for at least half the time".
        assert!(!healer_constant_enough(4, 10));
        assert!(healer_constant_enough(5, 10));
        assert!(!healer_constant_enough(5, 11));
        assert!(healer_constant_enough(6, 11));
        assert!(healer_constant_enough(1, 1));
        assert!(!healer_constant_enough(0, 0));
        // Holy water: (D10 + 35) % of the healing time, rounded down.
        assert_eq!(holy_water_days(20, 35), 7);
        assert_eq!(holy_water_days(20, 44), 8);
        assert_eq!(holy_water_days(10, 35), 3);
        assert_eq!(holy_water_days(100, 44), 44);
        assert_eq!(holy_water_days(2, 44), 0);
        assert_eq!(holy_water_days(0, 44), 0);
        let r = roll_holy_water(20, &mut ScriptedDice::faces([0]));
        assert_eq!((r.roll.total, r.days), (35, 7));
        assert_eq!(mods(&r.roll), [("holy water 35%", 35)]);
        let r = roll_holy_water(20, &mut ScriptedDice::faces([9]));
        assert_eq!((r.roll.total, r.days), (44, 8));
    }

    #[test]
    fn full_rest_deducts_a_day_every_second_day() {
        let state = HealingState::new(WoundKind::Wound, PenaltySchedule::Recovery(WoundRecovery::FleshWounded), 6);
        let rest = DayTreatment { full_rest: true, healing_balm: true, ..DayTreatment::default() };
        let (s, outcomes, reports) = run_days(state, rest, 4, &mut no_dice());
        let deducted: Vec<u32> = reports.iter().map(|r| r.rest_days_deducted).collect();
        assert_eq!(deducted, [0, 1, 0, 1]);
        assert!(reports.iter().all(|r| r.rolls().is_empty()));
        assert_eq!(
            outcomes,
            [DayOutcome::Recovering, DayOutcome::Recovering, DayOutcome::Recovering, DayOutcome::Healed]
        );
        assert_eq!((s.stage, s.days_left, s.treated.rest_days), (HealingStage::Healed, 0, 4));
        assert_eq!(s.penalties(), Penalties::NONE);
    }

    #[test]
    fn a_healer_deducts_once_when_constant_for_half_the_time() {
        let first = DayTreatment { healer: Some(HealerLevel::First), healing_balm: true, ..DayTreatment::default() };
        let state = fixed(10);
        // Days 1-4 roll nothing; day 5 (half of 10): D6 6 - 2 = 4 days off. 10 - 5 - 4 = 1 left.
        let mut dice = ScriptedDice::faces([6]);
        let (s, _, reports) = run_days(state, first, 5, &mut dice);
        assert!(dice.is_empty());
        assert!(reports[..4].iter().all(|r| r.healer.is_none()));
        assert_eq!(reports[4].healer.as_ref().map(|h| h.days), Some(4));
        assert_eq!((s.days_left, s.treated.healer_deducted, s.treated.healer_days), (1, Some(4), 5));
        // Day 6: no second deduction; healed.
        let (s, outcome, report) = advance_day(&s, &first, false, &mut no_dice());
        assert!(report.healer.is_none());
        assert_eq!((outcome, s.stage), (DayOutcome::Healed, HealingStage::Healed));
        // A 1 on a 1st-level healer's D6 deducts nothing.
        let (s, _, _) = run_days(state, first, 5, &mut ScriptedDice::faces([1]));
        assert_eq!((s.days_left, s.treated.healer_deducted), (5, Some(0)));
        // A 2nd-level healer for half the time: D6.
        let second = DayTreatment { healer: Some(HealerLevel::Second), ..first };
        let (s, outcomes, _) = run_days(state, second, 5, &mut ScriptedDice::faces([6]));
        assert_eq!((s.days_left, s.stage, outcomes[4]), (0, HealingStage::Healed, DayOutcome::Healed));
        // 2 days of a 2nd-level healer and 3 of a 1st: half the time by a healer, not by the 2nd level.
        let (s, _, _) = run_days(state, second, 2, &mut no_dice());
        let (s, _, reports) = run_days(s, first, 3, &mut ScriptedDice::faces([6]));
        let healer = reports[2].healer.as_ref().expect("due on day 5");
        assert_eq!((mods(&healer.roll), healer.days), (vec![("1st-level healer", -2)], 4));
        assert_eq!((s.treated.healer_days, s.treated.second_level_healer_days), (5, 2));
    }

    #[test]
    fn holy_water_counts_as_balm_and_deducts_days() {
        let state = fixed(20);
        assert_eq!(state.infection_checks_left, 10);
        // D10 5: 40 % of 20 days = 8.
        let mut dice = ScriptedDice::faces([5]);
        let (s, outcome, report) = advance_day(&state, &holy(), false, &mut dice);
        assert!(dice.is_empty());
        assert!(report.infection.is_none());
        assert_eq!(report.holy_water.as_ref().map(|h| h.days), Some(8));
        assert_eq!(outcome, DayOutcome::Recovering);
        assert_eq!(
            (s.days_left, s.infection_checks_left, s.treated.healing_balm, s.treated.holy_water_phials),
            (11, 0, true, 1)
        );
    }

    // --- Infections ---------------------------------------------------------------------------

    #[test]
    fn infection_rows_and_check_days() {
        assert_eq!(infection_band(-1), InfectionOutcome::Festers);
        assert_eq!(infection_band(0), InfectionOutcome::Festers);
        assert_eq!(infection_band(1), InfectionOutcome::Clean);
        assert_eq!(infection_band(9), InfectionOutcome::Clean);
        assert_eq!(roll_infection(&mut ScriptedDice::faces([0])).outcome, InfectionOutcome::Festers);
        assert_eq!(roll_infection(&mut ScriptedDice::faces([1])).outcome, InfectionOutcome::Clean);
        assert_eq!(roll_infection(&mut ScriptedDice::faces([9])).outcome, InfectionOutcome::Clean);
        // Half the recovery time, a third for cripple burns, a part day counting as a day.
        assert_eq!(infection_check_days(WoundKind::Wound, 10), 5);
        assert_eq!(infection_check_days(WoundKind::Wound, 9), 5);
        assert_eq!(infection_check_days(WoundKind::Wound, 1), 1);
        assert_eq!(infection_check_days(WoundKind::Wound, 0), 0);
        assert_eq!(infection_check_days(WoundKind::Crippling, 7), 4);
        assert_eq!(infection_check_days(WoundKind::Burn, 4), 2);
        assert_eq!(infection_check_days(WoundKind::CrippleBurn, 9), 3);
        assert_eq!(infection_check_days(WoundKind::CrippleBurn, 10), 4);
        assert_eq!(infection_check_days(WoundKind::CrippleBurn, 1), 1);
        let cripple = HealingState::new(WoundKind::CrippleBurn, PenaltySchedule::Fixed(Penalties::NONE), 9);
        assert_eq!(cripple.infection_checks_left, 3);
    }

    #[test]
    fn fester_rows_on_both_sides_of_each_boundary() {
        assert_eq!(fester_band(7), FesterOutcome::AddsD6Days);
        assert_eq!(fester_band(6), FesterOutcome::AddsD6Days);
        assert_eq!(fester_band(5), FesterOutcome::AddsTwoD6Days);
        assert_eq!(fester_band(4), FesterOutcome::AddsFourD6Days);
        assert_eq!(fester_band(3), FesterOutcome::AddsSevenD6DaysAndLamed);
        assert_eq!(fester_band(2), FesterOutcome::DiesInTwoD6Days);
        assert_eq!(fester_band(1), FesterOutcome::DiesInTwoD6Days);
        assert_eq!(fester_band(0), FesterOutcome::DiesInTwoD6Days);
        let times: Vec<u32> = FesterOutcome::ALL.iter().map(|o| o.times()).collect();
        assert_eq!(times, [1, 2, 4, 7, 2]);
        let kills: Vec<bool> = FesterOutcome::ALL.iter().map(|o| o.kills()).collect();
        assert_eq!(kills, [false, false, false, false, true]);
        for row in FesterOutcome::ALL {
            let lamed = row == FesterOutcome::AddsSevenD6DaysAndLamed;
            let expect = if lamed { Penalties { move_inches: -1, melee: -1, firing: 0 } } else { Penalties::NONE };
            assert_eq!(row.permanent_penalties(), expect, "{row:?}");
            assert_eq!(row.halves_fatigue(), lamed, "{row:?}");
        }
    }

    #[test]
    fn festering_rows_roll_their_days() {
        let cases: [(u32, u32, FesterOutcome, u32); 10] = [
            (6, 1, FesterOutcome::AddsD6Days, 1),
            (6, 6, FesterOutcome::AddsD6Days, 6),
            (5, 1, FesterOutcome::AddsTwoD6Days, 2),
            (5, 6, FesterOutcome::AddsTwoD6Days, 12),
            (4, 1, FesterOutcome::AddsFourD6Days, 4),
            (4, 6, FesterOutcome::AddsFourD6Days, 24),
            (3, 1, FesterOutcome::AddsSevenD6DaysAndLamed, 7),
            (3, 6, FesterOutcome::AddsSevenD6DaysAndLamed, 42),
            (2, 1, FesterOutcome::DiesInTwoD6Days, 2),
            (1, 6, FesterOutcome::DiesInTwoD6Days, 12),
        ];
        for (row, face, outcome, days) in cases {
            let mut dice = ScriptedDice::faces([row, face]);
            let r = roll_festering(&mut dice);
            assert!(dice.is_empty());
            assert_eq!((r.outcome, r.days.times, r.days.amount), (outcome, outcome.times(), days), "D6 {row}, {face}");
        }
    }

    #[test]
    fn infection_is_checked_daily_for_half_the_time_without_balm() {
        let state = fixed(4);
        assert_eq!(state.infection_checks_left, 2);
        // Day 1: D10 1, clean. Day 2: D10 0 festers; D6 6 adds D6 days; D6 3. Day 3: no check.
        let mut dice = ScriptedDice::faces([1, 0, 6, 3]);
        let (s, outcomes, reports) = run_days(state, DayTreatment::default(), 3, &mut dice);
        assert!(dice.is_empty());
        assert_eq!(outcomes, [DayOutcome::Recovering, DayOutcome::Festered, DayOutcome::Recovering]);
        assert_eq!(reports[0].infection.as_ref().map(|i| i.outcome), Some(InfectionOutcome::Clean));
        assert_eq!(
            reports[1].fester.as_ref().map(|f| (f.outcome, f.days.amount)),
            Some((FesterOutcome::AddsD6Days, 3))
        );
        let day_two: Vec<u8> = reports[1].rolls().iter().map(|r| r.faces[0]).collect();
        assert_eq!(day_two, [0, 6, 3]);
        assert!(reports[2].rolls().is_empty());
        // 4 days + 3 festering, 3 of them passed.
        assert_eq!((s.total_days, s.days_left), (7, 4));
        assert_eq!(s.festering.map(|f| f.row), Some(FesterOutcome::AddsD6Days));
        // Balm on day 1 stops every check.
        let (s, _, reports) = run_days(state, balm(), 2, &mut no_dice());
        assert!(reports.iter().all(|r| r.infection.is_none()));
        assert_eq!(s.infection_checks_left, 0);
        // After the first half, no more checks.
        let (s, _, reports) = run_days(state, DayTreatment::default(), 4, &mut ScriptedDice::faces([5, 5]));
        assert!(reports[2..].iter().all(|r| r.infection.is_none()));
        assert_eq!(s.stage, HealingStage::Healed);
    }

    #[test]
    fn festering_row_three_leaves_losses_for_life() {
        let state = HealingState::new(WoundKind::Wound, PenaltySchedule::Recovery(WoundRecovery::FleshWounded), 2);
        // D10 0 festers; D6 3: 7 × D6 days and losses for life; D6 1: 7 days.
        let (s, outcome, _) = advance_day(&state, &DayTreatment::default(), false, &mut ScriptedDice::faces([0, 3, 1]));
        assert_eq!(outcome, DayOutcome::Festered);
        assert_eq!((s.total_days, s.days_left), (9, 8));
        assert!(s.half_fatigue);
        assert_eq!(s.permanent, Penalties { move_inches: -1, melee: -1, firing: 0 });
        // While it heals: the flesh wound's -1 and the losses.
        assert_eq!(s.penalties(), Penalties { move_inches: -2, melee: -2, firing: -1 });
        let (s, outcomes, _) = run_days(s, balm(), 8, &mut no_dice());
        assert_eq!(outcomes.last(), Some(&DayOutcome::Healed));
        assert_eq!(s.penalties(), Penalties { move_inches: -1, melee: -1, firing: 0 });
        assert!(s.festering.is_none() && s.half_fatigue);
    }

    /// 001 "Lay an evil eye Curse": a cursed patient's infection D10 and festering row's D6,
    /// and the D10 that decides one left for dead, take −1, each row read at its edge.
    #[test]
    fn the_evil_eye_takes_one_off_the_rolls_that_decide_a_recovery() {
        use super::ApparentDeathCause as C;
        use super::ApparentDeathText as T;
        let state = HealingState::new(WoundKind::Wound, PenaltySchedule::Recovery(WoundRecovery::FleshWounded), 2);
        // D10 1 is clean; cursed, 0 festers, and the row's D6 4 is 3: 7 × D6 days and losses.
        let (_, _, report) = advance_day(&state, &DayTreatment::default(), false, &mut ScriptedDice::faces([1]));
        assert_eq!(report.infection.map(|i| i.outcome), Some(InfectionOutcome::Clean));
        let mut dice = ScriptedDice::faces([1, 4, 1]);
        let (s, outcome, report) = advance_day(&state, &DayTreatment::default(), true, &mut dice);
        assert!(dice.is_empty());
        assert_eq!(outcome, DayOutcome::Festered);
        assert_eq!(report.infection.map(|i| (i.roll.total, i.outcome)), Some((0, InfectionOutcome::Festers)));
        let fester = report.fester.map(|f| (f.roll.total, f.outcome));
        assert_eq!(fester, Some((3, FesterOutcome::AddsSevenD6DaysAndLamed)));
        assert!(s.half_fatigue);
        // Left for dead, by 000: 9 almost fully recoverable; cursed, 8 a minor disability.
        let mut dice = ScriptedDice::faces([9, 0, 0]);
        let r = resolve_apparently_dead(T::OptionalRules, C::Wounds, false, 480, true, &mut dice);
        assert_eq!(r.classified().id(), "recoverable_to_minor_disability");
        // By 001: 9 fully recovered; cursed, 8 wounded (D10 + 2 days).
        let r = resolve_apparently_dead(T::SagaRecovery, C::Wounds, false, 480, false, &mut ScriptedDice::faces([9]));
        assert_eq!(r.classified().id(), "fully_recovered");
        let r = resolve_apparently_dead(T::SagaRecovery, C::Wounds, false, 480, true, &mut ScriptedDice::faces([9, 3]));
        assert_eq!(r.classified().id(), "wounded");
    }

    #[test]
    fn festering_that_kills_counts_down_past_the_wounds_healing() {
        let state = fixed(2);
        // D10 0 festers; D6 2: dies in 2 × D6 days; D6 1: 2 days (today and tomorrow).
        let (s, outcome, _) = advance_day(&state, &DayTreatment::default(), false, &mut ScriptedDice::faces([0, 2, 1]));
        assert_eq!((outcome, s.stage), (DayOutcome::Festered, HealingStage::Dying));
        assert_eq!(s.festering.and_then(|f| f.dies_in_days), Some(1));
        assert_eq!(s.total_days, 2);
        // Day 2: the wound's days run out, but the festering kills.
        let (s, outcome, _) = advance_day(&s, &DayTreatment::default(), false, &mut no_dice());
        assert_eq!((outcome, s.stage), (DayOutcome::Died, HealingStage::Dead));
        assert_eq!(s.penalties(), Penalties::NONE);
        // The dead stay dead, and nothing is rolled.
        let (after, outcome, report) = advance_day(&s, &holy(), false, &mut no_dice());
        assert_eq!((after, outcome), (s, DayOutcome::Unchanged));
        assert!(report.rolls().is_empty());
    }

    #[test]
    fn holy_water_heals_festering_in_d6_plus_one_days() {
        let state = fixed(10);
        // Day 1: D10 0 festers; D6 1 kills; D6 6: in 12 days.
        let (s, _, _) = advance_day(&state, &DayTreatment::default(), false, &mut ScriptedDice::faces([0, 1, 6]));
        assert_eq!(s.festering.and_then(|f| f.dies_in_days), Some(11));
        // Day 2: holy water D10 0 (35 % of 10 = 3 days off), D6 1: the festering heals in 2 days.
        let mut dice = ScriptedDice::faces([0, 1]);
        let (s, outcome, report) = advance_day(&s, &holy(), false, &mut dice);
        assert!(dice.is_empty());
        assert_eq!((outcome, s.stage), (DayOutcome::Recovering, HealingStage::Dying));
        let heal = report.festering_heals_in.as_ref().expect("festering");
        assert_eq!((mods(heal), heal.total), (vec![("heals festering in D6 + 1 days", 1)], 2));
        assert_eq!(s.days_left, 5);
        assert_eq!(s.festering.map(|f| (f.heals_in_days, f.dies_in_days)), Some((Some(1), Some(10))));
        // Day 3: another phial rolls its D10 only; the festering heals and death is off.
        let mut dice = ScriptedDice::faces([0]);
        let (s, outcome, report) = advance_day(&s, &holy(), false, &mut dice);
        assert!(dice.is_empty());
        assert!(report.festering_heals_in.is_none());
        assert_eq!((outcome, s.stage, s.festering), (DayOutcome::FesteringHealed, HealingStage::Recovering, None));
        assert_eq!((s.days_left, s.treated.holy_water_phials), (1, 2));
    }

    #[test]
    fn a_cure_due_on_the_day_of_death_saves() {
        let state = fixed(10);
        // Day 1: D10 0 festers; D6 1 kills; D6 2: in 4 days.
        let (s, _, _) = advance_day(&state, &DayTreatment::default(), false, &mut ScriptedDice::faces([0, 1, 2]));
        // Day 2: holy water D10 0, D6 2: heals in 3 days; both counts end on day 4.
        let (s, _, _) = advance_day(&s, &holy(), false, &mut ScriptedDice::faces([0, 2]));
        assert_eq!(s.festering.map(|f| (f.heals_in_days, f.dies_in_days)), Some((Some(2), Some(2))));
        let (s, outcomes, _) = run_days(s, DayTreatment::default(), 2, &mut no_dice());
        assert_eq!(outcomes, [DayOutcome::Recovering, DayOutcome::FesteringHealed]);
        assert_eq!((s.stage, s.days_left), (HealingStage::Recovering, 3));
    }

    #[test]
    fn a_mortal_wound_dies_on_its_day_whatever_is_done() {
        let state = HealingState::dying(WoundKind::Wound, 2);
        assert_eq!((state.stage, state.infection_checks_left, state.dies_in_days), (HealingStage::Dying, 0, Some(2)));
        let care = DayTreatment {
            full_rest: true,
            healer: Some(HealerLevel::Second),
            healing_balm: true,
            pain_soothing_salve: true,
            burn_salve: true,
            holy_water: true,
        };
        // Holy water rolls its D10 each day; there is no festering for it to heal.
        let mut dice = ScriptedDice::faces([9, 9]);
        let (s, outcomes, _) = run_days(state, care, 2, &mut dice);
        assert!(dice.is_empty());
        assert_eq!(outcomes, [DayOutcome::Recovering, DayOutcome::Died]);
        assert_eq!(s.stage, HealingStage::Dead);
        assert_eq!(HealingState::dying(WoundKind::Wound, 0).stage, HealingStage::Dead);
    }

    #[test]
    fn healed_injuries_are_unchanged() {
        let healed = HealingState::new(WoundKind::Wound, PenaltySchedule::Fixed(Penalties::all(-2)), 0);
        assert_eq!((healed.stage, healed.infection_checks_left), (HealingStage::Healed, 0));
        assert_eq!(healed.penalties(), Penalties::NONE);
        let (s, outcome, report) = advance_day(&healed, &holy(), false, &mut no_dice());
        assert_eq!((s, outcome), (healed, DayOutcome::Unchanged));
        assert!(report.rolls().is_empty());
    }

    #[test]
    fn infection_distribution_matches_the_text() {
        // An untreated wound of 10 days: D10 on each of 5 days, 0 festers; then the D6 row.
        let state = HealingState::new(WoundKind::Wound, PenaltySchedule::Recovery(WoundRecovery::Wounded), 10);
        assert_eq!(state.infection_checks_left, 5);
        let clean = 0.9f64.powi(5);
        let festers = 1.0 - clean;
        // [never festers, adds D6, 2 × D6, 4 × D6, 7 × D6, dies]
        let expected = [clean, festers / 6.0, festers / 6.0, festers / 6.0, festers / 6.0, festers * 2.0 / 6.0];
        let mut observed = [0u32; 6];
        let mut src = SeededDice::new(0x1AFEC7);
        for _ in 0..30_000 {
            let mut s = state;
            let mut festered = None;
            let mut days = 0u32;
            while !s.is_over() {
                let (next, _, report) = advance_day(&s, &DayTreatment::default(), false, &mut src);
                if let Some(f) = &report.fester {
                    festered = Some((f.outcome, f.days.amount));
                }
                s = next;
                days += 1;
                assert!(days <= 100, "the healing never ends");
            }
            let index = match festered {
                None => {
                    assert_eq!((days, s.stage), (10, HealingStage::Healed));
                    0
                }
                Some((FesterOutcome::DiesInTwoD6Days, _)) => {
                    assert_eq!(s.stage, HealingStage::Dead);
                    5
                }
                Some((row, added)) => {
                    // The festering's days add to the ten, day for day.
                    assert_eq!((days, s.stage), (10 + added, HealingStage::Healed), "{row:?}");
                    match row {
                        FesterOutcome::AddsD6Days => 1,
                        FesterOutcome::AddsTwoD6Days => 2,
                        FesterOutcome::AddsFourD6Days => 3,
                        _ => 4,
                    }
                }
            };
            observed[index] += 1;
        }
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI_SQUARE_5_DF_999, "chi-square {chi}: observed {observed:?}, expected {expected:?}");
    }

    // --- Location tables ------------------------------------------------------------------------

    fn table(kind: WoundKind, ranges: &[(i32, i32)]) -> LocationTable {
        let rows = ranges
            .iter()
            .enumerate()
            .map(|(i, &(low, high))| LocationRow {
                low,
                high,
                location: format!("location {}", i + 1),
                effects: String::new(),
                penalties: Penalties::all(-1),
                healing: HealingDice { dice: Dice::D6, times: 1, plus: 2 },
            })
            .collect();
        LocationTable { kind, rows }
    }

    #[test]
    fn location_tables_must_cover_00_to_99_once() {
        use super::LocationTableError as E;
        assert_eq!(table(WoundKind::Wound, &[(0, 49), (50, 99)]).validate(), Ok(()));
        assert_eq!(table(WoundKind::Wound, &[(0, 99)]).validate(), Ok(()));
        assert_eq!(table(WoundKind::Wound, &[]).validate(), Err(E::Empty { kind: "wound" }));
        assert_eq!(
            table(WoundKind::Wound, &[(0, 49), (60, 50)]).validate(),
            Err(E::Inverted { row: 2, low: 60, high: 50 })
        );
        assert_eq!(table(WoundKind::Wound, &[(-1, 99)]).validate(), Err(E::OutOfRange { row: 1, low: -1, high: 99 }));
        assert_eq!(table(WoundKind::Wound, &[(0, 100)]).validate(), Err(E::OutOfRange { row: 1, low: 0, high: 100 }));
        let overlap = table(WoundKind::Wound, &[(0, 50), (50, 99)]).validate();
        assert_eq!(overlap, Err(E::Overlap { first: 1, second: 2, value: 50 }));
        assert_eq!(overlap.unwrap_err().to_string(), "rows 1 and 2 both cover 50");
        assert_eq!(table(WoundKind::Wound, &[(0, 48), (50, 99)]).validate(), Err(E::Gap { value: 49 }));
        assert_eq!(table(WoundKind::Wound, &[(1, 99)]).validate(), Err(E::Gap { value: 0 }));
        assert_eq!(table(WoundKind::Wound, &[(0, 98)]).validate(), Err(E::Gap { value: 99 }));
        assert_eq!(E::Gap { value: 9 }.to_string(), "no row covers 09");
        let mut zero = table(WoundKind::Wound, &[(0, 99)]);
        zero.rows[0].healing.times = 0;
        assert_eq!(zero.validate(), Err(E::ZeroTimes { row: 1 }));
    }

    #[test]
    fn location_lookup_on_both_sides_of_each_boundary() {
        let t = table(WoundKind::Wound, &[(0, 49), (50, 99)]);
        let location = |total: i32| t.lookup(total).map(|r| r.location.clone());
        assert_eq!(location(-1), None);
        assert_eq!(location(0).as_deref(), Some("location 1"));
        assert_eq!(location(49).as_deref(), Some("location 1"));
        assert_eq!(location(50).as_deref(), Some("location 2"));
        assert_eq!(location(99).as_deref(), Some("location 2"));
        assert_eq!(location(100), None);
    }

    #[test]
    fn a_location_roll_reads_the_scenes_table() {
        let tables = [table(WoundKind::Wound, &[(0, 49), (50, 99)])];
        // D% 4 and 9: 49; healing D6 3 + 2 = 5 days.
        let mut dice = ScriptedDice::faces([4, 9, 3]);
        let r = roll_location(WoundKind::Wound, &tables, false, &mut dice);
        assert!(dice.is_empty());
        assert_eq!(r.outcome, LocationOutcome::Located);
        assert_eq!(r.roll.as_ref().map(|r| r.total), Some(49));
        assert_eq!(r.row.as_ref().map(|r| r.location.as_str()), Some("location 1"));
        assert_eq!(r.healing.as_ref().map(|h| h.amount), Some(5));
        assert_eq!(r.label(), "wound: location 1");
        assert_eq!(r.rolls().len(), 2);
        let s = r.healing_state().expect("located");
        assert_eq!((s.kind, s.total_days, s.penalties()), (WoundKind::Wound, 5, Penalties::all(-1)));
        // A blunt weapon changes nothing on a wound: 50 is the upper row.
        let r = roll_location(WoundKind::Wound, &tables, true, &mut ScriptedDice::faces([5, 0, 1]));
        assert!(r.roll.as_ref().is_some_and(|r| r.modifiers.is_empty() && r.total == 50));
        assert_eq!(r.row.as_ref().map(|r| r.location.as_str()), Some("location 2"));
    }

    #[test]
    fn blunt_crippling_blows_take_five_off_the_d_percent() {
        let tables = [table(WoundKind::Crippling, &[(0, 49), (50, 99)])];
        let located = |blunt: bool, faces: [u32; 3]| {
            let r = roll_location(WoundKind::Crippling, &tables, blunt, &mut ScriptedDice::faces(faces));
            let total = r.roll.as_ref().map(|roll| roll.total).expect("a table");
            (total, r.row.map(|row| row.location))
        };
        // 54 - 5 = 49: the lower row; 55 - 5 = 50: the upper.
        assert_eq!(located(true, [5, 4, 1]), (49, Some("location 1".to_string())));
        assert_eq!(located(true, [5, 5, 1]), (50, Some("location 2".to_string())));
        // Not blunt: 54, the upper row.
        assert_eq!(located(false, [5, 4, 1]), (54, Some("location 2".to_string())));
        // 03 - 5 = -2 reads as 00.
        assert_eq!(located(true, [0, 3, 1]), (-2, Some("location 1".to_string())));
        let r = roll_location(WoundKind::Crippling, &tables, true, &mut ScriptedDice::faces([5, 4, 1]));
        assert_eq!(r.roll.as_ref().map(mods), Some(vec![("blunt weapon", -5)]));
    }

    #[test]
    fn without_a_location_table_the_injury_is_reported() {
        for kind in WoundKind::ALL {
            let r = roll_location(kind, &[], false, &mut no_dice());
            assert_eq!(r.outcome, LocationOutcome::NoLocationTable);
            assert!(r.rolls().is_empty());
            assert!(r.healing_state().is_none());
            assert_eq!(r.label(), kind.no_location_table_label());
        }
        assert_eq!(WoundKind::Wound.no_location_table_label(), "wounded: no location table supplied");
        // A table of another kind is not used.
        let burns = [table(WoundKind::Burn, &[(0, 99)])];
        assert_eq!(
            roll_location(WoundKind::Wound, &burns, false, &mut no_dice()).outcome,
            LocationOutcome::NoLocationTable
        );
        // A table that failed validation: the roll is logged, the missing row reported.
        let gappy = [table(WoundKind::Wound, &[(0, 48)])];
        let r = roll_location(WoundKind::Wound, &gappy, false, &mut ScriptedDice::faces([9, 9]));
        assert_eq!((r.outcome, r.rolls().len()), (LocationOutcome::NoRow, 1));
        assert_eq!(r.label(), "wound: the location table has no row for the roll");
    }

    #[test]
    fn a_location_table_reads_from_scene_json() {
        let t: LocationTable = serde_json::from_str(
            r#"{"kind": "crippling", "rows": [
                {"low": 0, "high": 99, "location": "leg", "healing": {"dice": "D10", "times": 6, "plus": 5}}
            ]}"#,
        )
        .expect("parse");
        assert_eq!(t.validate(), Ok(()));
        assert_eq!(t.rows[0].penalties, Penalties::NONE);
        assert_eq!(t.rows[0].healing, HealingDice { dice: Dice::D10, times: 6, plus: 5 });
        // 6 × D10 9 + 5 = 59 days.
        assert_eq!(t.rows[0].healing.roll(&mut ScriptedDice::faces([9])).amount, 59);
        let short: HealingDice = serde_json::from_str(r#"{"dice": "D20"}"#).expect("parse");
        assert_eq!(short, HealingDice { dice: Dice::D20, times: 1, plus: 0 });
        assert!(serde_json::from_str::<LocationTable>(r#"{"kind": "wound", "rows": [], "extra": 1}"#).is_err());
    }

    #[test]
    fn healing_state_round_trips_through_serde() {
        let mut s =
            HealingState::new(WoundKind::CrippleBurn, PenaltySchedule::Recovery(WoundRecovery::SoreWounded), 20);
        s.festering = Some(Festering { row: FesterOutcome::AddsTwoD6Days, heals_in_days: Some(3), dies_in_days: None });
        s.treated.burn_salve = true;
        s.treated.healer_deducted = Some(2);
        let json = serde_json::to_string(&s).expect("serialize");
        let back: HealingState = serde_json::from_str(&json).expect("parse");
        assert_eq!(back, s);
        // What is left out takes its default.
        let minimal: HealingState = serde_json::from_str(
            r#"{"kind": "wound", "schedule": {"fixed": {"melee": -2}}, "stage": "recovering", "total_days": 4, "days_left": 4}"#,
        )
        .expect("parse");
        assert_eq!(minimal.penalties(), Penalties { move_inches: 0, melee: -2, firing: 0 });
        assert_eq!((minimal.infection_checks_left, minimal.festering), (0, None));
    }

    #[test]
    fn deaths_are_harm_in_the_report() {
        assert_eq!(DayOutcome::Died.meaning().harm, Harm::DefinitelyDead);
        assert_eq!(DayOutcome::Festered.meaning(), Meaning::NONE);
        assert_eq!(SagaRecovery::Dead.meaning().harm, Harm::DefinitelyDead);
        assert_eq!(SagaRecovery::MortallyWounded.meaning(), Meaning::NONE);
        assert_eq!(Recoverability::DeadAsFirstThought.meaning().harm, Harm::DefinitelyDead);
        assert_eq!(Recoverability::DefinitelyDead.meaning().harm, Harm::DefinitelyDead);
        assert_eq!(Recoverability::BadlyDisabled.meaning(), Meaning::NONE);
        assert_eq!(UnconsciousOutcome::SevenD6Hours.meaning(), Meaning::NONE);
    }
}
