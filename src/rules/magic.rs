//! Magic and occult wards: a magician's Magic Power and its recovery, casting a spell against
//! the GM's target, the listed spells with their factors, the curses (the evil eye's −1 on every
//! die of its victim), mesmerism, and the wards of silver, garlic and wolf's bane (001 "MAGIC!",
//! "Spell Casting", "Occult Wards", "Lighting", "Spells").
//!
//! Dice follow RULES-NOTES "Dice": a D6 shows 1–6. Distances are inches as `f32`; "within" a
//! distance includes it. Every reading of a terse line is marked "Reading:" where it is applied,
//! is a field of [`MagicSettings`] where a choice is needed (its default the most literal one, or
//! a house rule where the text gives no number), and is listed in docs/magic.md.

use super::dice::{Dice, DiceSource, Modifier, Roll, Rolls};
use super::house_rules::house_rule_reason;
use super::injuries::WoundRecovery;
use super::lighting::Lighting;
use super::outcome::Meaning;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// 001 "Spell Casting": "D6 + MMP – TS = 1+ spell cast".
pub const CAST_FROM: i32 = 1;
/// 001 "Spell Casting": "0 fails but Magician may attempt again immediately".
pub const TRY_AGAIN_AT: i32 = 0;
/// 001 "Spell Casting": "-1- fails altogether".
pub const FAILS_ALTOGETHER_AT_MOST: i32 = -1;
/// 001 "Spell Casting": "attempt again immediately at a cost of 1 fatigue point".
pub const TRY_AGAIN_FATIGUE: u32 = 1;
/// 001 "Spell Casting": "and deducting 1 from the dice".
pub const TRY_AGAIN_FACTOR: i32 = -1;
/// 001 "MAGIC!": "Magic Power is recovered at 1 per move not expending a fatigue point".
pub const RECOVERY_PER_MOVE: i32 = 1;
/// 001 "MAGIC!": "or 2 resting".
pub const RECOVERY_PER_MOVE_RESTING: i32 = 2;

/// 001 "Spells", Dry Clothes: "D6 +MP+F = 5+ $".
pub const DRY_CLOTHES_FROM: i32 = 5;
/// 001 "Spells", Summon a Ghost by name: "= 4+$".
pub const SUMMON_GHOST_FROM: i32 = 4;
/// 001 "Spells", Call for a suspected ghost: "= 6+$".
pub const CALL_GHOST_FROM: i32 = 6;
/// 001 "Spells", Summon a suspected Gremlin: "= 5+$".
pub const SUMMON_GREMLIN_FROM: i32 = 5;
/// 001 "Spells", Summon a suspected Demon: "= 5+$".
pub const SUMMON_DEMON_FROM: i32 = 5;
/// 001 "Spells", Lay a Gremlin Curse: "= N-5 gives rank of the Gremlin": the N taken off.
pub const GREMLIN_RANK_OFFSET: i32 = 5;
/// 001 "Spells", Lay an evil eye Curse: "= 5+ $".
pub const EVIL_EYE_FROM: i32 = 5;
/// 001 "Spells", Reveal Occult Presence: "= 6+$".
pub const REVEAL_FROM: i32 = 6;
/// 001 "Spells", Mesmerise a person: "= 8+ Mesmerized will obey immediate reasonable orders".
pub const MESMERISED_FROM: i32 = 8;
/// 001 "Spells", Mesmerise a person: "10+ Mesmerized plus will carry out a specific order when awakened if prompt given".
pub const PROMPTED_ORDER_FROM: i32 = 10;
/// 001 "Spells", Mesmerise a person: "n -11 = gives days will respond to prompt".
pub const PROMPT_DAYS_OFFSET: i32 = 11;
/// 001 "Spells", Mesmerise a person: "if prompt given for one day".
pub const PROMPT_DAYS_AT_LEAST: u32 = 1;
/// 001 "Spells": "Mesmerise a person 3”".
pub const MESMERISE_REACH_IN: f32 = 3.0;

/// 001 "Spells": "2 people -1, 3 -2, 4 -3, 5 -4" (Summon a Ghost, Call for a suspected ghost,
/// Summon a suspected Gremlin and Demon, Reveal Occult Presence).
pub const PEOPLE_PRESENT_FACTORS: [(u32, i32); 4] = [(2, -1), (3, -2), (4, -3), (5, -4)];
/// 001 "Spells", Summon a Ghost, Call for a suspected ghost, Reveal Occult Presence: "SUN -6,
/// DLL -4, D/L -2, DDL 0, DDD +2" (no LLL: [`MagicSettings::ghost_rows_lll_factor`]).
pub const GHOST_LIGHTING_FACTORS: [(Lighting, i32); 5] = [
    (Lighting::Sun, -6),
    (Lighting::Overcast, -4),
    (Lighting::Gloom, -2),
    (Lighting::Dark, 0),
    (Lighting::PitchBlack, 2),
];
/// 001 "Spells", Summon a suspected Gremlin and Demon, both curses: "SUN -3, DLL -2, D/L -1,
/// DDL 0, DDD +1" (no LLL: [`MagicSettings::gremlin_rows_lll_factor`]).
pub const GREMLIN_LIGHTING_FACTORS: [(Lighting, i32); 5] = [
    (Lighting::Sun, -3),
    (Lighting::Overcast, -2),
    (Lighting::Gloom, -1),
    (Lighting::Dark, 0),
    (Lighting::PitchBlack, 1),
];
/// 001 "Spells", Summon a suspected Demon: "- Rank of demon (1-6)": the lowest rank.
pub const DEMON_RANK_MIN: u8 = 1;
/// 001 "Spells", Summon a suspected Demon: "- Rank of demon (1-6)": the highest rank.
pub const DEMON_RANK_MAX: u8 = 6;
/// 001 "Spells", Summon a suspected Demon: "Silver ward -2".
pub const SILVER_WARD_FACTOR: i32 = -2;
/// 001 "Spells", the curses: "Victim present +1".
pub const VICTIM_PRESENT_FACTOR: i32 = 1;
/// 001 "Spells", the curses: "Vm close 0".
pub const VICTIM_CLOSE_FACTOR: i32 = 0;
/// 001 "Spells", the curses: "Vm within a league -1".
pub const VICTIM_WITHIN_A_LEAGUE_FACTOR: i32 = -1;
/// 001 "Spells", the curses: "Vm distant -3".
pub const VICTIM_DISTANT_FACTOR: i32 = -3;
/// 001 "Spells", Lay an evil eye Curse: "One that deducts 1 from every dice throw for character".
pub const EVIL_EYE_FACTOR: i32 = -1;
/// The reason the evil eye's −1 carries on every roll of its victim.
pub const EVIL_EYE_REASON: &str = "evil eye curse";
/// 001 "Spells", Mesmerise a person: "others present -1".
pub const OTHERS_PRESENT_FACTOR: i32 = -1;
/// 001 "Spells", Mesmerise a person: "nearby movement or loud noise -1".
pub const NEARBY_NOISE_FACTOR: i32 = -1;
/// 001 "Spells", Mesmerise a person: "nearby fighting -3".
pub const NEARBY_FIGHTING_FACTOR: i32 = -3;
/// 001 "Spells", Mesmerise a person: "Previously Mesmerized +2".
pub const PREVIOUSLY_MESMERISED_FACTOR: i32 = 2;

/// 001 "Occult Wards": silver "diced D6 within 6”".
pub const SILVER_WARD_RADIUS_IN: f32 = 6.0;
/// 001 "Occult Wards": "Clove of Garlic within 3”".
pub const GARLIC_RADIUS_IN: f32 = 3.0;
/// 001 "Occult Wards": "Wolf’s Bane within 3”".
pub const WOLFS_BANE_RADIUS_IN: f32 = 3.0;
/// 001 "Occult Wards": "Ghosts FV2, Gremlins FV3, Demons FV4, Werewolves FV2, Vampires FV3" (silver).
pub const SILVER_FRIGHT_VALUES: [(WardedBeing, u8); 5] = [
    (WardedBeing::Ghost, 2),
    (WardedBeing::Gremlin, 3),
    (WardedBeing::Demon, 4),
    (WardedBeing::Werewolf, 2),
    (WardedBeing::Vampire, 3),
];
/// 001 "Occult Wards": garlic, "Werewolves FV2, Vampires FV 4".
pub const GARLIC_FRIGHT_VALUES: [(WardedBeing, u8); 2] = [(WardedBeing::Werewolf, 2), (WardedBeing::Vampire, 4)];
/// 001 "Occult Wards": wolf's bane, "Werewolves FV 3, Wolves FV4".
pub const WOLFS_BANE_FRIGHT_VALUES: [(WardedBeing, u8); 2] = [(WardedBeing::Werewolf, 3), (WardedBeing::Wolf, 4)];
/// 001 "Occult Wards": "The possession of a Ward Adds 1 to ADT dicing against occult Frights".
pub const WARD_FRIGHT_BONUS: i32 = 1;

// The reasons a house rule decides; built through `house_rule_reason` where they are used.
// (Not yet in `HOUSE_RULE_REASONS`: the settings are not a block of the scene's `rules` yet.)
const TIRED: &str = "tired";
const ATTEMPTING_AGAIN: &str = "attempting again";

// ---------------------------------------------------------------------------------------------
// The readings
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// Which power the general casting roll adds. Reading: the text writes "D6 + MMP – TS".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CastPower {
        /// The default, the literal "MMP": the Maximum Magic Power, reduced when tired or wounded.
        #[default]
        MaximumMagicPower => "maximum_magic_power",
        /// The Magic Power the magician has now (as the listed spells' "MP").
        MagicPower => "magic_power",
    }
}

crate::rules::named_enum! {
    /// House rule: the Magic Power a spell cast by the general rule uses up. The text says "the
    /// Target (TS) of Magic Power Units (MPUs) needed" and that Magic Power "is recovered" after a
    /// spell, not how much goes.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CastCost {
        /// The default: a spell cast uses the TS MPUs it needed (no more than the magician has).
        #[default]
        Target => "target",
        /// Casting uses no Magic Power.
        Nothing => "nothing",
    }
}

crate::rules::named_enum! {
    /// House rule: the Magic Power a listed spell cast uses up. The spell list adds "MP" to the
    /// die and gives no cost.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ListedSpellCost {
        /// The default: the spell draws on all the Magic Power the roll added, which then
        /// "is recovered at 1 per move".
        #[default]
        AllMagicPower => "all_magic_power",
        /// One point.
        OnePoint => "one_point",
        /// Nothing.
        Nothing => "nothing",
    }
}

crate::rules::named_enum! {
    /// House rule: the factor for more than five people present. The text stops at "5 -4".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum PeopleBeyondFive {
        /// The default: the row goes on, −1 a person beyond the first (6 people −5).
        #[default]
        ContinueRow => "continue_row",
        /// As five: −4 however many.
        AsFive => "as_five",
    }
}

/// A test a scene supplies where the sources give none: the die, and the total the die less
/// the fright value (and plus its other factors) must reach for the subject not to be
/// frightened. Neither 000 nor 001 gives the fright test itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FrightTest {
    /// The die rolled.
    pub dice: Dice,
    /// The subject holds on this total or more (die − FV + factors).
    pub target: i32,
}

impl Default for FrightTest {
    fn default() -> Self {
        Self { dice: Dice::D6, target: 1 }
    }
}

/// The readings of these sections where a choice is needed, each default the most literal (or,
/// where the text gives no number, a house rule). Not yet a block of the scene's `rules`:
/// docs/house-rules.md "Magic and occult wards" proposes the paths `rules.magic.*`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MagicSettings {
    /// House rule: points a tired magician's MMP is reduced by (001 "This is reduced if the
    /// Magician is tired", no number). Default 1.
    pub tired_reduction: i32,
    /// House rule: points a flesh-wounded magician's MMP is reduced by. Default 1, the flesh
    /// wound's "–1" of 001 "Wound Recoveries".
    pub flesh_wounded_reduction: i32,
    /// House rule: points a wounded magician's MMP is reduced by. Default 1, the wound's "–1".
    pub wounded_reduction: i32,
    /// House rule: points a sore-wounded magician's MMP is reduced by. Default 3, "Sore wounded (-3)".
    pub sore_wounded_reduction: i32,
    /// Which power the general casting roll adds.
    pub general_cast_power: CastPower,
    /// House rule: the Magic Power a spell cast by the general rule uses up.
    pub general_cast_cost: CastCost,
    /// House rule: the Magic Power a listed spell cast uses up.
    pub listed_spell_cost: ListedSpellCost,
    /// House rule: whether a second attempt again deducts 2, a third 3 (true), or every attempt
    /// again deducts 1 (false, the text's "deducting 1 from the dice").
    pub try_again_penalty_cumulative: bool,
    /// Whether a listed spell one short of its target "fails but Magician may attempt again"
    /// (true), or the list's "$ success" is all there is (false).
    pub listed_spells_may_try_again: bool,
    /// House rule: LLL for Summon a Ghost, Call for a suspected ghost and Reveal Occult Presence,
    /// whose rows skip it ("SUN -6, DLL -4"). Default −5, between the two.
    pub ghost_rows_lll_factor: i32,
    /// House rule: LLL for Summon a suspected Gremlin and Demon and both curses ("SUN -3, DLL -2").
    /// Default −3, as SUN: halfway is −2½, and daylight is daylight.
    pub gremlin_rows_lll_factor: i32,
    /// House rule: more than five people present.
    pub people_beyond_five: PeopleBeyondFive,
    /// The ward dice: silver is "diced D6" (the text); garlic and wolf's bane use the same die
    /// (house rule). The target is a house rule: the text gives no fright test.
    pub ward_test: FrightTest,
    /// A person's "ADT dicing against occult Frights": a scene-supplied test (house rule).
    pub occult_fright_test: FrightTest,
}

impl Default for MagicSettings {
    fn default() -> Self {
        Self {
            tired_reduction: 1,
            flesh_wounded_reduction: 1,
            wounded_reduction: 1,
            sore_wounded_reduction: 3,
            general_cast_power: CastPower::MaximumMagicPower,
            general_cast_cost: CastCost::Target,
            listed_spell_cost: ListedSpellCost::AllMagicPower,
            try_again_penalty_cumulative: false,
            listed_spells_may_try_again: false,
            ghost_rows_lll_factor: -5,
            gremlin_rows_lll_factor: -3,
            people_beyond_five: PeopleBeyondFive::ContinueRow,
            ward_test: FrightTest::default(),
            occult_fright_test: FrightTest::default(),
        }
    }
}

impl MagicSettings {
    /// House rule: the MMP reduction for a wound (001 "Wound Recoveries" names the three).
    pub fn wound_reduction(&self, wound: WoundRecovery) -> i32 {
        match wound {
            WoundRecovery::FleshWounded => self.flesh_wounded_reduction,
            WoundRecovery::Wounded => self.wounded_reduction,
            WoundRecovery::SoreWounded => self.sore_wounded_reduction,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Magic Power
// ---------------------------------------------------------------------------------------------

/// A magician, as the magic rules read him.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Magician {
    /// "Maximum Magic Power (MMP)", fresh and unwounded.
    pub maximum_magic_power: i32,
    /// Magic Power (MP) now.
    pub magic_power: i32,
    /// Tired ("reduced if the Magician is tired"); the caller says when.
    pub tired: bool,
    /// His wound, if any (001 "Wound Recoveries": flesh wounded, wounded, sore wounded).
    pub wound: Option<WoundRecovery>,
    /// Under an evil-eye curse: −1 on every die he throws.
    pub evil_eye: bool,
}

/// How the log names a wound.
fn wound_label(wound: WoundRecovery) -> &'static str {
    match wound {
        WoundRecovery::FleshWounded => "flesh wounded",
        WoundRecovery::Wounded => "wounded",
        WoundRecovery::SoreWounded => "sore wounded",
    }
}

impl Magician {
    /// 001 "MAGIC!": "This is reduced if the Magician is tired or wounded": each reduction with its reason (house-rule numbers), never below 0 in all.
    pub fn power_reductions(&self, settings: &MagicSettings) -> Vec<(String, i32)> {
        let mut left = self.maximum_magic_power.max(0);
        let mut out = Vec::new();
        let causes = [
            self.tired.then_some((TIRED, settings.tired_reduction)),
            self.wound.map(|w| (wound_label(w), settings.wound_reduction(w))),
        ];
        for (label, amount) in causes.into_iter().flatten() {
            let cut = amount.clamp(0, left);
            left -= cut;
            if cut > 0 {
                out.push((house_rule_reason(label), -cut));
            }
        }
        out
    }

    /// 001 "MAGIC!": the Maximum Magic Power now, "reduced if the Magician is tired or wounded".
    pub fn maximum_now(&self, settings: &MagicSettings) -> i32 {
        self.maximum_magic_power.max(0) + self.power_reductions(settings).iter().map(|(_, v)| v).sum::<i32>()
    }

    /// 001 "MAGIC!": the Magic Power he has now, never above the Maximum Magic Power now ("up to Maximum Magic Power").
    pub fn magic_power_now(&self, settings: &MagicSettings) -> i32 {
        self.magic_power.clamp(0, self.maximum_now(settings))
    }
}

crate::rules::named_enum! {
    /// What a magician did in a move, for his Magic Power's recovery.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum MoveActivity {
        /// Spent a fatigue point (ran, fought, ...): no recovery.
        SpendsFatigue => "spends_fatigue",
        /// Did not spend a fatigue point: 1 back.
        #[default]
        NoFatigueSpent => "no_fatigue_spent",
        /// Rested: 2 back.
        Resting => "resting",
    }
}

/// 001 "MAGIC!": "recovered at 1 per move not expending a fatigue point or 2 resting": the points one move gives back before the cap.
pub fn recovery_per_move(activity: MoveActivity) -> i32 {
    match activity {
        MoveActivity::SpendsFatigue => 0,
        MoveActivity::NoFatigueSpent => RECOVERY_PER_MOVE,
        MoveActivity::Resting => RECOVERY_PER_MOVE_RESTING,
    }
}

/// One move's recovery of Magic Power.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PowerRecovery {
    /// MP at the start of the move (capped at the MMP now).
    pub before: i32,
    /// Points recovered.
    pub recovered: i32,
    /// MP after the move.
    pub after: i32,
    /// The cap: the MMP now.
    pub maximum: i32,
}

/// 001 "MAGIC!": "Magic Power is recovered at 1 per move not expending a fatigue point or 2 resting, up to Maximum Magic Power".
///
/// The cap is the Maximum Magic Power as reduced now (tired or wounded).
pub fn recover_magic_power(magician: &Magician, activity: MoveActivity, settings: &MagicSettings) -> PowerRecovery {
    let maximum = magician.maximum_now(settings);
    let before = magician.magic_power_now(settings);
    let after = before.saturating_add(recovery_per_move(activity)).min(maximum);
    PowerRecovery { before, recovered: after - before, after, maximum }
}

// ---------------------------------------------------------------------------------------------
// Casting
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// A casting attempt's result.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SpellOutcome {
        /// "1+ spell cast" (a listed spell: "$ success").
        Succeeds => "succeeds",
        /// "0 fails but Magician may attempt again immediately" (a fatigue point, −1 on the
        /// die); declined, it has failed for the day.
        MayTryAgain => "may_try_again",
        /// "-1- fails altogether" (a listed spell: "# fail"); not again until another day.
        Fails => "fails",
        /// Mesmerise: the person is farther than 3"; no roll.
        OutOfRange => "out_of_range",
        /// The spell failed earlier today: "may not be attempted again until another day"; no roll.
        NotUntilAnotherDay => "not_until_another_day",
    }
}

impl SpellOutcome {
    /// 001 "Spell Casting": "If failed the spell may not be attempted again until another day": whether this outcome locks the spell for the day.
    ///
    /// `MayTryAgain` locks it too once the magician declines the attempt again: the caller then
    /// calls [`SpellLockouts::record_failure`].
    pub fn fails_for_the_day(self) -> bool {
        self == SpellOutcome::Fails
    }
}

/// Which attempt this is, and the GM's own factors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Attempt {
    /// 0 for the first attempt; 1 for the attempt again after a 0, 2 after another 0, ...
    pub again: u32,
    /// Factors the GM adds ("F= Factors") beyond those the spell lists (Dry Clothes lists none).
    pub gm_factor: i32,
}

impl Attempt {
    /// A first attempt, no GM factor.
    pub const FIRST: Attempt = Attempt { again: 0, gm_factor: 0 };
}

/// 001 "Spell Casting": "= 1+ spell cast, 0 fails but Magician may attempt again immediately ..., -1- fails altogether".
pub fn cast_band(total: i32) -> SpellOutcome {
    if total >= CAST_FROM {
        SpellOutcome::Succeeds
    } else if total == TRY_AGAIN_AT {
        SpellOutcome::MayTryAgain
    } else {
        SpellOutcome::Fails
    }
}

/// 001 "Spell Casting": "deducting 1 from the dice" for an attempt again; the die's deduction for attempt `again`.
///
/// Reading ([`MagicSettings::try_again_penalty_cumulative`]): every attempt again deducts 1.
pub fn try_again_factor(again: u32, settings: &MagicSettings) -> i32 {
    match again {
        0 => 0,
        n if settings.try_again_penalty_cumulative => {
            TRY_AGAIN_FACTOR.saturating_mul(i32::try_from(n).unwrap_or(i32::MAX))
        }
        _ => TRY_AGAIN_FACTOR,
    }
}

/// 001 "Spell Casting": "at a cost of 1 fatigue point": the fatigue an attempt costs.
pub fn attempt_fatigue(attempt: Attempt) -> u32 {
    if attempt.again > 0 { TRY_AGAIN_FATIGUE } else { 0 }
}

/// 001 "Spell Casting" and "Spells": the factors every casting roll shares: the GM's, an attempt again, the evil eye.
fn add_attempt_factors(roll: &mut Roll, attempt: Attempt, evil_eye: bool, settings: &MagicSettings) {
    roll.add("GM factors", attempt.gm_factor);
    let factor = try_again_factor(attempt.again, settings);
    if attempt.again > 1 {
        // A second attempt again: the text speaks of one; its deduction is a reading.
        roll.add(house_rule_reason(ATTEMPTING_AGAIN), factor);
    } else {
        roll.add(ATTEMPTING_AGAIN, factor);
    }
    apply_evil_eye(roll, evil_eye);
}

/// A spell cast by the general rule, against the GM's target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GeneralCast {
    /// D6 + MMP − TS (and an attempt again's −1), against 1+.
    pub roll: Roll,
    /// Cast, may try again, or fails.
    pub outcome: SpellOutcome,
    /// Fatigue points this attempt cost (1 for an attempt again).
    pub fatigue_cost: u32,
    /// Magic Power used up (when cast; [`CastCost`]).
    pub magic_power_spent: i32,
}

/// 001 "Spell Casting": "the Games Master will set the Target (TS) of Magic Power Units (MPUs) needed for success ... Then D6 + MMP – TS = 1+ spell cast".
///
/// MMP is the Maximum Magic Power reduced when tired or wounded (each reduction a logged
/// factor), or the MP now under [`CastPower::MagicPower`].
pub fn cast_general(
    magician: &Magician,
    target_mpu: i32,
    attempt: Attempt,
    settings: &MagicSettings,
    src: &mut impl DiceSource,
) -> GeneralCast {
    let mut roll = Roll::new(Dice::D6, src);
    match settings.general_cast_power {
        CastPower::MaximumMagicPower => {
            roll.add("MMP", magician.maximum_magic_power.max(0));
            for (reason, value) in magician.power_reductions(settings) {
                roll.add(reason, value);
            }
        }
        CastPower::MagicPower => roll.add("MP", magician.magic_power_now(settings)),
    }
    roll.add("TS", target_mpu.saturating_neg());
    add_attempt_factors(&mut roll, attempt, magician.evil_eye, settings);
    let roll = roll.at_least(CAST_FROM);
    let outcome = cast_band(roll.total);
    let magic_power_spent = match (outcome, settings.general_cast_cost) {
        (SpellOutcome::Succeeds, CastCost::Target) => target_mpu.clamp(0, magician.magic_power_now(settings)),
        _ => 0,
    };
    GeneralCast { roll, outcome, fatigue_cost: attempt_fatigue(attempt), magic_power_spent }
}

/// The spells failed on a day: "If failed the spell may not be attempted again until another day".
///
/// A spell is named by the caller: a listed spell by its [`Spell::id`] (or with the ghost's
/// name for "Summon a Ghost by name"), a general spell by the GM's name for it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SpellLockouts {
    /// Each spell failed, with the day it failed.
    pub failed: Vec<FailedSpell>,
}

/// A spell failed on a day.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FailedSpell {
    /// The spell's name.
    pub spell: String,
    /// The day it failed.
    pub day: u32,
}

impl SpellLockouts {
    /// 001 "Spell Casting": whether `spell` may be attempted on `day`: not on a day it failed.
    pub fn may_attempt(&self, spell: &str, day: u32) -> bool {
        !self.failed.iter().any(|f| f.spell == spell && f.day == day)
    }

    /// 001 "Spell Casting": "If failed the spell may not be attempted again until another day": note the failure.
    pub fn record_failure(&mut self, spell: &str, day: u32) {
        if self.may_attempt(spell, day) {
            self.failed.push(FailedSpell { spell: spell.to_string(), day });
        }
    }

    /// Note an attempt's outcome: a failure locks the spell for the day.
    pub fn note(&mut self, spell: &str, day: u32, outcome: SpellOutcome) {
        if outcome.fails_for_the_day() {
            self.record_failure(spell, day);
        }
    }

    /// Forget the failures of days before `day`: they no longer lock anything.
    pub fn forget_before(&mut self, day: u32) {
        self.failed.retain(|f| f.day >= day);
    }
}

// ---------------------------------------------------------------------------------------------
// The spells
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// 001 "Spells": every spell of the list.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Spell {
        /// "Dry Clothes~ To dry soaking wet clothes on a person".
        DryClothes => "dry_clothes",
        /// "Summon a Ghost by name".
        SummonGhost => "summon_ghost",
        /// "Call for a suspected ghost".
        CallSuspectedGhost => "call_suspected_ghost",
        /// "Summon a suspected Gremlin".
        SummonSuspectedGremlin => "summon_suspected_gremlin",
        /// "Summon a suspected Demon".
        SummonSuspectedDemon => "summon_suspected_demon",
        /// "Lay a Gremlin Curse".
        LayGremlinCurse => "lay_gremlin_curse",
        /// "Lay an evil eye Curse".
        LayEvilEyeCurse => "lay_evil_eye_curse",
        /// "Reveal Occult Presence".
        RevealOccultPresence => "reveal_occult_presence",
        /// "Mesmerise a person 3”".
        Mesmerise => "mesmerise",
    }
}

impl Spell {
    /// 001 "Spells": the spell's name in the text.
    pub fn label(self) -> &'static str {
        match self {
            Spell::DryClothes => "Dry Clothes",
            Spell::SummonGhost => "Summon a Ghost by name",
            Spell::CallSuspectedGhost => "Call for a suspected ghost",
            Spell::SummonSuspectedGremlin => "Summon a suspected Gremlin",
            Spell::SummonSuspectedDemon => "Summon a suspected Demon",
            Spell::LayGremlinCurse => "Lay a Gremlin Curse",
            Spell::LayEvilEyeCurse => "Lay an evil eye Curse",
            Spell::RevealOccultPresence => "Reveal Occult Presence",
            Spell::Mesmerise => "Mesmerise a person",
        }
    }

    /// 001 "Spells": the total for success ("= 5+$", "= 4+$", ...; the Gremlin Curse's N − 5 is a rank from 6; mesmerism "8+").
    pub fn target(self) -> i32 {
        match self {
            Spell::DryClothes => DRY_CLOTHES_FROM,
            Spell::SummonGhost => SUMMON_GHOST_FROM,
            Spell::CallSuspectedGhost => CALL_GHOST_FROM,
            Spell::SummonSuspectedGremlin => SUMMON_GREMLIN_FROM,
            Spell::SummonSuspectedDemon => SUMMON_DEMON_FROM,
            Spell::LayGremlinCurse => GREMLIN_RANK_OFFSET + 1,
            Spell::LayEvilEyeCurse => EVIL_EYE_FROM,
            Spell::RevealOccultPresence => REVEAL_FROM,
            Spell::Mesmerise => MESMERISED_FROM,
        }
    }
}

crate::rules::named_enum! {
    /// 001 "Spells", the curses: where the victim ("Vm") is.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum VictimDistance {
        /// "Victim present +1".
        #[default]
        Present => "present",
        /// "Vm close 0".
        Close => "close",
        /// "Vm within a league -1".
        WithinALeague => "within_a_league",
        /// "Vm distant -3".
        Distant => "distant",
    }
}

impl VictimDistance {
    /// 001 "Spells", the curses: "Victim present +1, Vm close 0, Vm within a league -1, Vm distant -3".
    pub fn factor(self) -> i32 {
        match self {
            VictimDistance::Present => VICTIM_PRESENT_FACTOR,
            VictimDistance::Close => VICTIM_CLOSE_FACTOR,
            VictimDistance::WithinALeague => VICTIM_WITHIN_A_LEAGUE_FACTOR,
            VictimDistance::Distant => VICTIM_DISTANT_FACTOR,
        }
    }

    /// The roll's reason, in the text's words ("Vm" is "Victim").
    pub fn reason(self) -> &'static str {
        match self {
            VictimDistance::Present => "victim present",
            VictimDistance::Close => "victim close",
            VictimDistance::WithinALeague => "victim within a league",
            VictimDistance::Distant => "victim distant",
        }
    }
}

/// The person a magician tries to mesmerise, and what is about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MesmerSubject {
    /// Inches from the magician ("Mesmerise a person 3”").
    pub distance_in: f32,
    /// The person's class "as a number", taken off the roll.
    pub class: i32,
    /// "others present -1".
    pub others_present: bool,
    /// "nearby movement or loud noise -1".
    pub nearby_movement_or_noise: bool,
    /// "nearby fighting -3".
    pub nearby_fighting: bool,
    /// "Previously Mesmerized +2".
    pub previously_mesmerised: bool,
}

/// A listed spell with what its factors read.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpellOrder {
    /// "D6 +MP+F = 5+ $".
    DryClothes,
    /// People present, lighting; 4+.
    SummonGhost { people_present: u32, lighting: Lighting },
    /// People present, lighting; 6+.
    CallSuspectedGhost { people_present: u32, lighting: Lighting },
    /// People present, the Gremlin lighting row; 5+.
    SummonSuspectedGremlin { people_present: u32, lighting: Lighting },
    /// The demon's rank (1–6), people present, the Gremlin lighting row, a silver ward; 5+.
    SummonSuspectedDemon { demon_rank: u8, people_present: u32, lighting: Lighting, silver_ward: bool },
    /// Where the victim is, the Gremlin lighting row; N − 5 is the Gremlin's rank.
    LayGremlinCurse { victim: VictimDistance, lighting: Lighting },
    /// Where the victim is, the Gremlin lighting row; 5+.
    LayEvilEyeCurse { victim: VictimDistance, lighting: Lighting },
    /// People present, the ghost lighting row; 6+.
    RevealOccultPresence { people_present: u32, lighting: Lighting },
    /// The person and what is about; 8+, 10+.
    Mesmerise(MesmerSubject),
}

impl SpellOrder {
    /// Which spell it is.
    pub fn spell(&self) -> Spell {
        match self {
            SpellOrder::DryClothes => Spell::DryClothes,
            SpellOrder::SummonGhost { .. } => Spell::SummonGhost,
            SpellOrder::CallSuspectedGhost { .. } => Spell::CallSuspectedGhost,
            SpellOrder::SummonSuspectedGremlin { .. } => Spell::SummonSuspectedGremlin,
            SpellOrder::SummonSuspectedDemon { .. } => Spell::SummonSuspectedDemon,
            SpellOrder::LayGremlinCurse { .. } => Spell::LayGremlinCurse,
            SpellOrder::LayEvilEyeCurse { .. } => Spell::LayEvilEyeCurse,
            SpellOrder::RevealOccultPresence { .. } => Spell::RevealOccultPresence,
            SpellOrder::Mesmerise(_) => Spell::Mesmerise,
        }
    }
}

/// 001 "Spells": "2 people -1, 3 -2, 4 -3, 5 -4"; none for one person (the magician alone).
///
/// Reading: `people` counts everyone present, the magician too. More than five: house rule
/// [`PeopleBeyondFive`], the reason tagged.
pub fn people_present_factor(people: u32, settings: &MagicSettings) -> Option<(Cow<'static, str>, i32)> {
    if people <= 1 {
        return None;
    }
    if let Some(&(_, f)) = PEOPLE_PRESENT_FACTORS.iter().find(|(n, _)| *n == people) {
        return Some((format!("{people} people present").into(), f));
    }
    let factor = match settings.people_beyond_five {
        PeopleBeyondFive::ContinueRow => i32::try_from(people - 1).unwrap_or(i32::MAX).saturating_neg(),
        PeopleBeyondFive::AsFive => PEOPLE_PRESENT_FACTORS[PEOPLE_PRESENT_FACTORS.len() - 1].1,
    };
    Some((house_rule_reason(&format!("{people} people present")).into(), factor))
}

/// Which lighting row a spell reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LightingRow {
    /// "SUN -6, DLL -4, D/L -2, DDL 0, DDD +2".
    Ghost,
    /// "SUN -3, DLL -2, D/L -1, DDL 0, DDD +1".
    Gremlin,
}

/// 001 "Spells": the lighting factor, "SUN -6, DLL -4, D/L -2, DDL 0, DDD +2" or "SUN -3, DLL -2, D/L -1, DDL 0, DDD +1"; LLL a house rule.
fn lighting_factor(row: LightingRow, lighting: Lighting, settings: &MagicSettings) -> (Cow<'static, str>, i32) {
    let (table, lll) = match row {
        LightingRow::Ghost => (&GHOST_LIGHTING_FACTORS, settings.ghost_rows_lll_factor),
        LightingRow::Gremlin => (&GREMLIN_LIGHTING_FACTORS, settings.gremlin_rows_lll_factor),
    };
    match table.iter().find(|(l, _)| *l == lighting) {
        Some(&(_, f)) => (lighting.code().into(), f),
        None => (house_rule_reason(lighting.code()).into(), lll),
    }
}

/// 001 "Spells", Summon a Ghost by name: "SUN -6, DLL -4, D/L -2, DDL 0, DDD +2" (LLL a house rule).
pub fn ghost_lighting_factor(lighting: Lighting, settings: &MagicSettings) -> i32 {
    lighting_factor(LightingRow::Ghost, lighting, settings).1
}

/// 001 "Spells", Summon a suspected Gremlin: "SUN -3, DLL -2, D/L -1, DDL 0, DDD +1" (LLL a house rule).
pub fn gremlin_lighting_factor(lighting: Lighting, settings: &MagicSettings) -> i32 {
    lighting_factor(LightingRow::Gremlin, lighting, settings).1
}

/// 001 "Spells": every factor a listed spell adds to "D6 + MP", with its reason, in the text's order (zero factors included).
///
/// Reading: a demon's rank outside 1–6 is taken as the nearest.
pub fn spell_factors(order: &SpellOrder, settings: &MagicSettings) -> Vec<(Cow<'static, str>, i32)> {
    let mut out: Vec<(Cow<'static, str>, i32)> = Vec::new();
    let people = |n: u32, out: &mut Vec<(Cow<'static, str>, i32)>| out.extend(people_present_factor(n, settings));
    match *order {
        SpellOrder::DryClothes => {}
        SpellOrder::SummonGhost { people_present, lighting }
        | SpellOrder::CallSuspectedGhost { people_present, lighting }
        | SpellOrder::RevealOccultPresence { people_present, lighting } => {
            people(people_present, &mut out);
            out.push(lighting_factor(LightingRow::Ghost, lighting, settings));
        }
        SpellOrder::SummonSuspectedGremlin { people_present, lighting } => {
            people(people_present, &mut out);
            out.push(lighting_factor(LightingRow::Gremlin, lighting, settings));
        }
        SpellOrder::SummonSuspectedDemon { demon_rank, people_present, lighting, silver_ward } => {
            let rank = demon_rank.clamp(DEMON_RANK_MIN, DEMON_RANK_MAX);
            out.push(("rank of demon".into(), -i32::from(rank)));
            people(people_present, &mut out);
            out.push(lighting_factor(LightingRow::Gremlin, lighting, settings));
            if silver_ward {
                out.push(("silver ward".into(), SILVER_WARD_FACTOR));
            }
        }
        SpellOrder::LayGremlinCurse { victim, lighting } | SpellOrder::LayEvilEyeCurse { victim, lighting } => {
            out.push((victim.reason().into(), victim.factor()));
            out.push(lighting_factor(LightingRow::Gremlin, lighting, settings));
        }
        SpellOrder::Mesmerise(subject) => {
            out.push(("class as a number".into(), subject.class.saturating_neg()));
            if subject.others_present {
                out.push(("others present".into(), OTHERS_PRESENT_FACTOR));
            }
            if subject.nearby_movement_or_noise {
                out.push(("nearby movement or loud noise".into(), NEARBY_NOISE_FACTOR));
            }
            if subject.nearby_fighting {
                out.push(("nearby fighting".into(), NEARBY_FIGHTING_FACTOR));
            }
            if subject.previously_mesmerised {
                out.push(("previously mesmerized".into(), PREVIOUSLY_MESMERISED_FACTOR));
            }
        }
    }
    out
}

/// 001 "Spells": "$= success #= fail": a listed spell's total against its target; one short may try again only under [`MagicSettings::listed_spells_may_try_again`].
pub fn listed_spell_band(total: i32, target: i32, settings: &MagicSettings) -> SpellOutcome {
    if total >= target {
        SpellOutcome::Succeeds
    } else if settings.listed_spells_may_try_again && total == target.saturating_sub(1) {
        SpellOutcome::MayTryAgain
    } else {
        SpellOutcome::Fails
    }
}

/// 001 "Spells", Lay a Gremlin Curse: "= N-5 gives rank of the Gremlin": the rank, none below 1.
pub fn gremlin_curse_rank(total: i32) -> Option<u32> {
    u32::try_from(total.saturating_sub(GREMLIN_RANK_OFFSET)).ok().filter(|&r| r >= 1)
}

crate::rules::named_enum! {
    /// 001 "Spells", Mesmerise a person: how deep the mesmerism goes.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Mesmerism {
        /// Below 8: not mesmerised.
        NotMesmerised => "not_mesmerised",
        /// "8+ Mesmerized will obey immediate reasonable orders".
        ObeysImmediateOrders => "obeys_immediate_orders",
        /// "10+ Mesmerized plus will carry out a specific order when awakened if prompt given".
        CarriesOutPromptedOrder => "carries_out_prompted_order",
    }
}

/// 001 "Spells", Mesmerise a person: "= 8+ Mesmerized will obey immediate reasonable orders, 10+ Mesmerized plus will carry out a specific order".
pub fn mesmerism_band(total: i32) -> Mesmerism {
    if total >= PROMPTED_ORDER_FROM {
        Mesmerism::CarriesOutPromptedOrder
    } else if total >= MESMERISED_FROM {
        Mesmerism::ObeysImmediateOrders
    } else {
        Mesmerism::NotMesmerised
    }
}

/// 001 "Spells", Mesmerise a person: "if prompt given for one day, n -11 = gives days will respond to prompt": the days, for a 10+.
///
/// Reading: both lines hold: at least one day, and n − 11 days where that is more (10, 11 and 12
/// give 1 day, 13 gives 2). 0 below 10.
pub fn prompt_days(total: i32) -> u32 {
    if total < PROMPTED_ORDER_FROM {
        return 0;
    }
    u32::try_from(total.saturating_sub(PROMPT_DAYS_OFFSET)).unwrap_or(0).max(PROMPT_DAYS_AT_LEAST)
}

/// 001 "Spells": "Mesmerise a person 3”": whether the person is near enough (3" included).
pub fn within_mesmerise_reach(distance_in: f32) -> bool {
    !distance_in.is_nan() && distance_in <= MESMERISE_REACH_IN
}

/// A listed spell's attempt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpellCast {
    /// The spell.
    pub spell: Spell,
    /// D6 + MP + F against the spell's target; `None` when no roll was made.
    pub roll: Option<Roll>,
    /// Succeeds, may try again, fails, out of range, or not until another day.
    pub outcome: SpellOutcome,
    /// Lay a Gremlin Curse: "N-5 gives rank of the Gremlin" (succeeded only).
    pub gremlin_rank: Option<u32>,
    /// Mesmerise: how deep (`None` for the other spells, or with no roll).
    pub mesmerism: Option<Mesmerism>,
    /// Mesmerise 10+: the days the person will respond to the prompt; else 0.
    pub prompt_days: u32,
    /// Fatigue points this attempt cost (1 for an attempt again).
    pub fatigue_cost: u32,
    /// Magic Power used up (on success; [`ListedSpellCost`]).
    pub magic_power_spent: i32,
}

impl SpellCast {
    /// An attempt with no roll.
    fn without_roll(spell: Spell, outcome: SpellOutcome) -> Self {
        SpellCast {
            spell,
            roll: None,
            outcome,
            gremlin_rank: None,
            mesmerism: None,
            prompt_days: 0,
            fatigue_cost: 0,
            magic_power_spent: 0,
        }
    }

    /// The evil-eye curse took: its victim has −1 on every die from now ([`apply_evil_eye`]).
    pub fn lays_evil_eye(&self) -> bool {
        self.spell == Spell::LayEvilEyeCurse && self.outcome == SpellOutcome::Succeeds
    }
}

/// 001 "Spells": a listed spell, "D6 + MP +F" with the spell's factors against its target.
///
/// Mesmerise first checks the 3" reach (no roll, nothing spent outside it). On success the
/// spell uses up Magic Power as [`ListedSpellCost`] says.
pub fn cast_spell(
    magician: &Magician,
    order: &SpellOrder,
    attempt: Attempt,
    settings: &MagicSettings,
    src: &mut impl DiceSource,
) -> SpellCast {
    let spell = order.spell();
    if let SpellOrder::Mesmerise(subject) = order
        && !within_mesmerise_reach(subject.distance_in)
    {
        return SpellCast::without_roll(spell, SpellOutcome::OutOfRange);
    }
    let power = magician.magic_power_now(settings);
    let mut roll = Roll::new(Dice::D6, src);
    roll.add("MP", power);
    for (reason, value) in spell_factors(order, settings) {
        roll.add(reason, value);
    }
    add_attempt_factors(&mut roll, attempt, magician.evil_eye, settings);
    let target = spell.target();
    let roll = roll.at_least(target);
    let outcome = listed_spell_band(roll.total, target, settings);
    let succeeded = outcome == SpellOutcome::Succeeds;
    let gremlin_rank = if spell == Spell::LayGremlinCurse && succeeded { gremlin_curse_rank(roll.total) } else { None };
    let mesmerism = (spell == Spell::Mesmerise).then(|| mesmerism_band(roll.total));
    let prompt_days = if spell == Spell::Mesmerise { prompt_days(roll.total) } else { 0 };
    let magic_power_spent = match (succeeded, settings.listed_spell_cost) {
        (false, _) | (true, ListedSpellCost::Nothing) => 0,
        (true, ListedSpellCost::AllMagicPower) => power,
        (true, ListedSpellCost::OnePoint) => power.min(1),
    };
    SpellCast {
        spell,
        roll: Some(roll),
        outcome,
        gremlin_rank,
        mesmerism,
        prompt_days,
        fatigue_cost: attempt_fatigue(attempt),
        magic_power_spent,
    }
}

/// 001 "Spell Casting": a listed spell on `day`, refused without a roll when it failed earlier that day; a failure is noted in `lockouts`.
///
/// `name` is the spell's name for the lockout ([`SpellLockouts`]).
#[allow(clippy::too_many_arguments)]
pub fn attempt_spell(
    magician: &Magician,
    order: &SpellOrder,
    attempt: Attempt,
    name: &str,
    day: u32,
    lockouts: &mut SpellLockouts,
    settings: &MagicSettings,
    src: &mut impl DiceSource,
) -> SpellCast {
    if !lockouts.may_attempt(name, day) {
        return SpellCast::without_roll(order.spell(), SpellOutcome::NotUntilAnotherDay);
    }
    let cast = cast_spell(magician, order, attempt, settings, src);
    lockouts.note(name, day, cast.outcome);
    cast
}

// ---------------------------------------------------------------------------------------------
// The evil eye
// ---------------------------------------------------------------------------------------------

/// 001 "Spells", Lay an evil eye Curse: "One that deducts 1 from every dice throw for character": the modifier, with its reason.
pub fn evil_eye_modifier() -> Modifier {
    Modifier { reason: EVIL_EYE_REASON.into(), value: EVIL_EYE_FACTOR }
}

/// 001 "Spells", Lay an evil eye Curse: "deducts 1 from every dice throw for character": for any system's roll of a figure `cursed`.
///
/// Once per throw, whatever the dice. Add it after the roll's own factors; `Roll::passed` reads
/// the new total against the roll's target, and a banded table is read from the new total.
pub fn apply_evil_eye(roll: &mut Roll, cursed: bool) {
    if cursed {
        roll.add(EVIL_EYE_REASON, EVIL_EYE_FACTOR);
    }
}

// ---------------------------------------------------------------------------------------------
// Wards and occult frights
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// 001 "Occult Wards": the beings the wards name. Wolves are not occult, but wolf's bane
    /// wards them off.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum WardedBeing {
        /// "Ghosts".
        Ghost => "ghost",
        /// "Gremlins".
        Gremlin => "gremlin",
        /// "Demons".
        Demon => "demon",
        /// "Werewolves".
        Werewolf => "werewolf",
        /// "Vampires".
        Vampire => "vampire",
        /// "Wolves" (wolf's bane only).
        Wolf => "wolf",
    }
}

crate::rules::named_enum! {
    /// 001 "Occult Wards": the three wards.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum WardKind {
        /// "Silver Crosses, Crescents or Stars of David", within 6".
        Silver => "silver",
        /// "Clove of Garlic", within 3".
        Garlic => "garlic",
        /// "Wolf's Bane", within 3".
        WolfsBane => "wolfs_bane",
    }
}

impl WardKind {
    /// How the log names it.
    pub fn label(self) -> &'static str {
        match self {
            WardKind::Silver => "silver",
            WardKind::Garlic => "garlic",
            WardKind::WolfsBane => "wolf's bane",
        }
    }

    /// 001 "Occult Wards": "within 6”" (silver), "within 3”" (garlic, wolf's bane).
    pub fn radius_in(self) -> f32 {
        match self {
            WardKind::Silver => SILVER_WARD_RADIUS_IN,
            WardKind::Garlic => GARLIC_RADIUS_IN,
            WardKind::WolfsBane => WOLFS_BANE_RADIUS_IN,
        }
    }

    /// 001 "Occult Wards": the ward's fright value against `being`; `None` where the ward names no value for it.
    pub fn fright_value(self, being: WardedBeing) -> Option<u8> {
        let table: &[(WardedBeing, u8)] = match self {
            WardKind::Silver => &SILVER_FRIGHT_VALUES,
            WardKind::Garlic => &GARLIC_FRIGHT_VALUES,
            WardKind::WolfsBane => &WOLFS_BANE_FRIGHT_VALUES,
        };
        table.iter().find(|(b, _)| *b == being).map(|&(_, fv)| fv)
    }
}

crate::rules::named_enum! {
    /// A being near a ward.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum WardOutcome {
        /// The ward names no fright value for this being: no roll.
        NotWarded => "not_warded",
        /// Farther than the ward's reach: no roll.
        OutOfRange => "out_of_range",
        /// The ward's fright took: the being is frightened off (what it then does is the scene's).
        Repelled => "repelled",
        /// The being held against the ward's fright.
        Braves => "braves",
    }
}

/// A ward's dice for a being within its reach.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WardRoll {
    /// The ward.
    pub ward: WardKind,
    /// The being.
    pub being: WardedBeing,
    /// The ward's FV against the being, if it names one.
    pub fright_value: Option<u8>,
    /// The die − FV against the test's target; `None` with no roll.
    pub roll: Option<Roll>,
    /// Not warded, out of range, repelled or braves.
    pub outcome: WardOutcome,
}

/// 001 "Occult Wards": "Silver Crosses, Crescents or Stars of David diced D6 within 6”. Ghosts FV2, ...": the being within the ward's reach is diced against the ward's FV.
///
/// Reading: "diced D6 within 6”" means a being that comes within 6" of the silver is diced for
/// with a D6 against the ward's fright value for it; garlic and wolf's bane, "within 3”" with
/// their FVs, the same way (their die is not named: [`MagicSettings::ward_test`]). The text
/// gives no fright test: the roll is the die less the FV, and the being holds on the test's
/// target or more (house rule, default D6 − FV = 1+, as "D6 + MMP – TS = 1+").
pub fn ward_check(
    ward: WardKind,
    being: WardedBeing,
    distance_in: f32,
    settings: &MagicSettings,
    src: &mut impl DiceSource,
) -> WardRoll {
    let fright_value = ward.fright_value(being);
    let no_roll = |outcome| WardRoll { ward, being, fright_value, roll: None, outcome };
    let Some(fv) = fright_value else {
        return no_roll(WardOutcome::NotWarded);
    };
    if distance_in.is_nan() || distance_in > ward.radius_in() {
        return no_roll(WardOutcome::OutOfRange);
    }
    let test = settings.ward_test;
    let roll = Roll::new(test.dice, src)
        .modifier(house_rule_reason(&format!("{} FV{fv}", ward.label())), -i32::from(fv))
        .at_least(test.target);
    let outcome = if roll.passed() == Some(true) { WardOutcome::Braves } else { WardOutcome::Repelled };
    WardRoll { ward, being, fright_value, roll: Some(roll), outcome }
}

/// 001 "Occult Wards": "The possession of a Ward Adds 1 to ADT dicing against occult Frights": the bonus.
pub fn ward_fright_bonus(possesses_ward: bool) -> i32 {
    if possesses_ward { WARD_FRIGHT_BONUS } else { 0 }
}

crate::rules::named_enum! {
    /// A person's dicing against an occult fright.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum FrightOutcome {
        /// Holds against the fright.
        Holds => "holds",
        /// Frightened (what that does is the scene's).
        Frightened => "frightened",
    }
}

/// A person's dicing against an occult fright.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FrightRoll {
    /// The fright's value (the scene's: the sources give no FV for the beings themselves).
    pub fright_value: u8,
    /// "+1" for a ward possessed (0 without).
    pub ward_bonus: i32,
    /// The die − FV + the ward's 1 (and the evil eye's −1) against the test's target.
    pub roll: Roll,
    /// Holds or frightened.
    pub outcome: FrightOutcome,
}

/// 001 "Occult Wards": "ADT dicing against occult Frights", with "Adds 1" for possessing a ward; the test itself a scene setting.
///
/// The sources give neither the test nor the beings' FVs: the scene supplies both
/// ([`MagicSettings::occult_fright_test`], `fright_value`); the +1 is the text's.
pub fn occult_fright_test(
    fright_value: u8,
    possesses_ward: bool,
    evil_eye: bool,
    settings: &MagicSettings,
    src: &mut impl DiceSource,
) -> FrightRoll {
    let test = settings.occult_fright_test;
    let ward_bonus = ward_fright_bonus(possesses_ward);
    let mut roll = Roll::new(test.dice, src)
        .modifier(house_rule_reason(&format!("fright FV{fright_value}")), -i32::from(fright_value))
        .modifier("possession of a ward", ward_bonus);
    apply_evil_eye(&mut roll, evil_eye);
    let roll = roll.at_least(test.target);
    let outcome = if roll.passed() == Some(true) { FrightOutcome::Holds } else { FrightOutcome::Frightened };
    FrightRoll { fright_value, ward_bonus, roll, outcome }
}

// ---------------------------------------------------------------------------------------------
// Outcomes and rolls
// ---------------------------------------------------------------------------------------------

crate::rules::outcome::impl_outcome! {
    SpellOutcome => |o| Meaning::NONE;
    Mesmerism => |o| Meaning::NONE;
    WardOutcome => |o| Meaning::NONE;
    FrightOutcome => |o| Meaning::NONE;
}

impl Rolls for GeneralCast {
    /// The D6.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for SpellCast {
    /// The D6, if rolled.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for WardRoll {
    /// The ward's die, if rolled.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for FrightRoll {
    /// The die.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}
