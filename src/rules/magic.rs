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
/// House rule `magic.presence_reach_in`: a figure within 6" of the magician is present (the
/// silver ward's "within 6”", the longest reach the magic text gives).
pub const DEFAULT_PRESENCE_REACH_IN: f32 = 6.0;

// The reasons a house rule decides; built through `house_rule_reason` where they are used and
// listed, with their settings, in `HOUSE_RULE_REASONS` (src/rules/house_rules.rs).
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
/// where the text gives no number, a house rule): the scene's `rules.magic` block, each path
/// listed in docs/house-rules.md "Magic and occult wards".
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
    /// House rule: how near the magician, in inches, a figure is "present" (the spells' "people
    /// present", a curse's "Victim present", mesmerism's "others present"). Default 6", the
    /// longest reach the magic text gives (silver "within 6”").
    pub presence_reach_in: f32,
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
            presence_reach_in: DEFAULT_PRESENCE_REACH_IN,
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
    SummonGhost {
        /// Everyone present, the magician too.
        people_present: u32,
        /// The lighting where he casts.
        lighting: Lighting,
    },
    /// People present, lighting; 6+.
    CallSuspectedGhost {
        /// Everyone present, the magician too.
        people_present: u32,
        /// The lighting where he casts.
        lighting: Lighting,
    },
    /// People present, the Gremlin lighting row; 5+.
    SummonSuspectedGremlin {
        /// Everyone present, the magician too.
        people_present: u32,
        /// The lighting where he casts.
        lighting: Lighting,
    },
    /// The demon's rank (1–6), people present, the Gremlin lighting row, a silver ward; 5+.
    SummonSuspectedDemon {
        /// "Rank of demon (1-6)".
        demon_rank: u8,
        /// Everyone present, the magician too.
        people_present: u32,
        /// The lighting where he casts.
        lighting: Lighting,
        /// "Silver ward -2".
        silver_ward: bool,
    },
    /// Where the victim is, the Gremlin lighting row; N − 5 is the Gremlin's rank.
    LayGremlinCurse {
        /// Where the victim ("Vm") is.
        victim: VictimDistance,
        /// The lighting where he casts.
        lighting: Lighting,
    },
    /// Where the victim is, the Gremlin lighting row; 5+.
    LayEvilEyeCurse {
        /// Where the victim ("Vm") is.
        victim: VictimDistance,
        /// The lighting where he casts.
        lighting: Lighting,
    },
    /// People present, the ghost lighting row; 6+.
    RevealOccultPresence {
        /// Everyone present, the magician too.
        people_present: u32,
        /// The lighting where he casts.
        lighting: Lighting,
    },
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

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{ScriptedDice, SeededDice};
    use crate::rules::house_rules::is_house_rule_reason;
    use crate::rules::outcome::Outcome;
    use crate::rules::stats::chi_square;

    /// Chi-square 99.9% critical values by degrees of freedom.
    const CHI_SQUARE_1_DF_999: f64 = 10.828;
    const CHI_SQUARE_2_DF_999: f64 = 13.816;
    const CHI_SQUARE_4_DF_999: f64 = 18.467;

    fn settings() -> MagicSettings {
        MagicSettings::default()
    }

    fn mods(roll: &Roll) -> Vec<(&str, i32)> {
        roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect()
    }

    fn mage(power: i32) -> Magician {
        Magician { maximum_magic_power: power, magic_power: power, ..Magician::default() }
    }

    fn factors(order: &SpellOrder, s: &MagicSettings) -> Vec<(String, i32)> {
        spell_factors(order, s).into_iter().map(|(r, v)| (r.into_owned(), v)).collect()
    }

    fn owned(list: &[(&str, i32)]) -> Vec<(String, i32)> {
        list.iter().map(|&(r, v)| (r.to_string(), v)).collect()
    }

    fn factor_sum(order: &SpellOrder, s: &MagicSettings) -> i32 {
        spell_factors(order, s).iter().map(|(_, v)| v).sum()
    }

    fn cast_with(m: &Magician, order: &SpellOrder, attempt: Attempt, s: &MagicSettings, face: u32) -> SpellCast {
        let mut src = ScriptedDice::faces([face]);
        let cast = cast_spell(m, order, attempt, s, &mut src);
        assert!(src.is_empty());
        cast
    }

    fn general_with(m: &Magician, ts: i32, attempt: Attempt, s: &MagicSettings, face: u32) -> GeneralCast {
        let mut src = ScriptedDice::faces([face]);
        let cast = cast_general(m, ts, attempt, s, &mut src);
        assert!(src.is_empty());
        cast
    }

    fn subject(distance_in: f32) -> MesmerSubject {
        MesmerSubject { distance_in, ..MesmerSubject::default() }
    }

    // ---- Magic Power ----

    #[test]
    fn magic_power_is_reduced_when_tired_or_wounded() {
        let s = settings();
        let m = mage(5);
        assert_eq!(m.maximum_now(&s), 5);
        assert!(m.power_reductions(&s).is_empty());
        let tired = Magician { tired: true, ..m };
        assert_eq!(tired.maximum_now(&s), 4);
        assert_eq!(tired.power_reductions(&s), vec![(house_rule_reason(TIRED), -1)]);
        let wounded = |w| Magician { wound: Some(w), ..m };
        assert_eq!(wounded(WoundRecovery::FleshWounded).maximum_now(&s), 4);
        assert_eq!(wounded(WoundRecovery::Wounded).maximum_now(&s), 4);
        assert_eq!(wounded(WoundRecovery::SoreWounded).maximum_now(&s), 2);
        let r = wounded(WoundRecovery::SoreWounded).power_reductions(&s);
        assert_eq!(r, vec![(house_rule_reason(wound_label(WoundRecovery::SoreWounded)), -3)]);
        assert!(r.iter().all(|(reason, _)| is_house_rule_reason(reason)));
        // Both add up; never below 0.
        let both = Magician { tired: true, wound: Some(WoundRecovery::SoreWounded), ..m };
        assert_eq!(both.maximum_now(&s), 1);
        let weak = Magician { tired: true, wound: Some(WoundRecovery::SoreWounded), ..mage(2) };
        assert_eq!(weak.maximum_now(&s), 0);
        assert_eq!(weak.power_reductions(&s).iter().map(|(_, v)| *v).collect::<Vec<_>>(), vec![-1, -1]);
        assert_eq!(mage(-3).maximum_now(&s), 0);
        // The settings decide the numbers.
        let harsh = MagicSettings { tired_reduction: 2, sore_wounded_reduction: 5, ..settings() };
        assert_eq!(tired.maximum_now(&harsh), 3);
        assert_eq!(wounded(WoundRecovery::SoreWounded).maximum_now(&harsh), 0);
        let negative = MagicSettings { tired_reduction: -2, ..settings() };
        assert_eq!(tired.maximum_now(&negative), 5);
        // MP now is capped at the MMP now, and never below 0.
        assert_eq!(tired.magic_power_now(&s), 4);
        assert_eq!(Magician { magic_power: 2, ..tired }.magic_power_now(&s), 2);
        assert_eq!(Magician { magic_power: -2, ..m }.magic_power_now(&s), 0);
    }

    #[test]
    fn magic_power_recovers_one_a_move_two_resting_up_to_the_maximum() {
        let s = settings();
        assert_eq!(MoveActivity::ALL.map(recovery_per_move), [0, 1, 2]);
        let m = Magician { magic_power: 2, ..mage(5) };
        let after = |m: &Magician, a| recover_magic_power(m, a, &s).after;
        assert_eq!(after(&m, MoveActivity::SpendsFatigue), 2);
        assert_eq!(after(&m, MoveActivity::NoFatigueSpent), 3);
        assert_eq!(after(&m, MoveActivity::Resting), 4);
        let r = recover_magic_power(&Magician { magic_power: 4, ..m }, MoveActivity::Resting, &s);
        assert_eq!(r, PowerRecovery { before: 4, recovered: 1, after: 5, maximum: 5 });
        let full = recover_magic_power(&mage(5), MoveActivity::Resting, &s);
        assert_eq!((full.recovered, full.after), (0, 5));
        // A tired magician recovers only up to his reduced maximum.
        let tired = Magician { tired: true, magic_power: 3, ..mage(5) };
        assert_eq!(recover_magic_power(&tired, MoveActivity::Resting, &s).after, 4);
        let tired_full = Magician { tired: true, ..mage(5) };
        let r = recover_magic_power(&tired_full, MoveActivity::NoFatigueSpent, &s);
        assert_eq!((r.before, r.recovered, r.after), (4, 0, 4));
    }

    // ---- casting ----

    #[test]
    fn cast_band_edges() {
        assert_eq!(cast_band(6), SpellOutcome::Succeeds);
        assert_eq!(cast_band(1), SpellOutcome::Succeeds);
        assert_eq!(cast_band(0), SpellOutcome::MayTryAgain);
        assert_eq!(cast_band(-1), SpellOutcome::Fails);
        assert_eq!(cast_band(FAILS_ALTOGETHER_AT_MOST), SpellOutcome::Fails);
        assert_eq!(cast_band(-9), SpellOutcome::Fails);
    }

    #[test]
    fn general_casting_is_d6_plus_mmp_less_ts() {
        let s = settings();
        let m = mage(3);
        let c = general_with(&m, 5, Attempt::FIRST, &s, 3);
        assert_eq!((c.roll.total, c.outcome), (1, SpellOutcome::Succeeds));
        assert_eq!(mods(&c.roll), vec![("MMP", 3), ("TS", -5)]);
        assert_eq!((c.roll.target, c.roll.passed()), (Some(1), Some(true)));
        assert_eq!((c.fatigue_cost, c.magic_power_spent), (0, 3), "TS 5 MPUs, but he has only 3");
        let c = general_with(&m, 5, Attempt::FIRST, &s, 2);
        assert_eq!((c.roll.total, c.outcome, c.magic_power_spent), (0, SpellOutcome::MayTryAgain, 0));
        let c = general_with(&m, 5, Attempt::FIRST, &s, 1);
        assert_eq!((c.roll.total, c.outcome, c.magic_power_spent), (-1, SpellOutcome::Fails, 0));
        let c = general_with(&m, 2, Attempt::FIRST, &s, 1);
        assert_eq!((c.outcome, c.magic_power_spent), (SpellOutcome::Succeeds, 2));
        let free = MagicSettings { general_cast_cost: CastCost::Nothing, ..settings() };
        assert_eq!(general_with(&m, 2, Attempt::FIRST, &free, 1).magic_power_spent, 0);
    }

    #[test]
    fn attempting_again_costs_a_fatigue_point_and_one_off_the_die() {
        let s = settings();
        let m = mage(3);
        let again = Attempt { again: 1, gm_factor: 0 };
        let c = general_with(&m, 5, again, &s, 3);
        assert_eq!(mods(&c.roll), vec![("MMP", 3), ("TS", -5), ("attempting again", -1)]);
        assert_eq!((c.roll.total, c.outcome, c.fatigue_cost), (0, SpellOutcome::MayTryAgain, 1));
        let c = general_with(&m, 5, again, &s, 4);
        assert_eq!((c.outcome, c.fatigue_cost), (SpellOutcome::Succeeds, TRY_AGAIN_FATIGUE));
        // A second attempt again: −1 by default (a reading, tagged), −2 cumulative.
        let twice = Attempt { again: 2, gm_factor: 0 };
        let c = general_with(&m, 5, twice, &s, 4);
        assert_eq!(c.roll.total, 1);
        assert!(c.roll.modifiers.iter().any(|x| x.value == -1 && is_house_rule_reason(&x.reason)));
        let cumulative = MagicSettings { try_again_penalty_cumulative: true, ..settings() };
        assert_eq!(general_with(&m, 5, twice, &cumulative, 4).roll.total, 0);
        assert_eq!(try_again_factor(0, &cumulative), 0);
        assert_eq!(try_again_factor(1, &cumulative), -1);
        assert_eq!(try_again_factor(3, &cumulative), -3);
        assert_eq!(try_again_factor(3, &s), -1);
        assert_eq!(attempt_fatigue(Attempt::FIRST), 0);
        assert_eq!(attempt_fatigue(twice), 1);
    }

    #[test]
    fn general_casting_reads_the_reduced_mmp_or_the_mp_now() {
        let s = settings();
        let tired = Magician { tired: true, magic_power: 1, ..mage(3) };
        let c = general_with(&tired, 5, Attempt::FIRST, &s, 4);
        let tired_reason = house_rule_reason(TIRED);
        assert_eq!(mods(&c.roll), vec![("MMP", 3), (tired_reason.as_str(), -1), ("TS", -5)]);
        assert_eq!((c.roll.total, c.outcome), (1, SpellOutcome::Succeeds));
        assert_eq!(c.magic_power_spent, 1);
        let by_mp = MagicSettings { general_cast_power: CastPower::MagicPower, ..settings() };
        let c = general_with(&tired, 5, Attempt::FIRST, &by_mp, 4);
        assert_eq!(mods(&c.roll), vec![("MP", 1), ("TS", -5)]);
        assert_eq!(c.outcome, SpellOutcome::MayTryAgain);
        // GM factors and the evil eye.
        let cursed = Magician { evil_eye: true, ..mage(3) };
        let c = general_with(&cursed, 5, Attempt { again: 0, gm_factor: 2 }, &s, 3);
        assert_eq!(mods(&c.roll), vec![("MMP", 3), ("TS", -5), ("GM factors", 2), (EVIL_EYE_REASON, -1)]);
        assert_eq!(c.roll.total, 2);
    }

    #[test]
    fn a_failed_spell_waits_for_another_day() {
        let mut l = SpellLockouts::default();
        assert!(l.may_attempt("dry_clothes", 3));
        l.note("dry_clothes", 3, SpellOutcome::Succeeds);
        l.note("dry_clothes", 3, SpellOutcome::MayTryAgain);
        assert!(l.may_attempt("dry_clothes", 3));
        l.note("dry_clothes", 3, SpellOutcome::Fails);
        assert!(!l.may_attempt("dry_clothes", 3));
        assert!(l.may_attempt("dry_clothes", 4));
        assert!(l.may_attempt("mesmerise", 3));
        l.record_failure("dry_clothes", 3);
        assert_eq!(l.failed.len(), 1);
        l.forget_before(4);
        assert!(l.failed.is_empty());
        assert!(SpellOutcome::Fails.fails_for_the_day());
        assert!(!SpellOutcome::MayTryAgain.fails_for_the_day());
        assert!(!SpellOutcome::OutOfRange.fails_for_the_day());

        let s = settings();
        let m = mage(0);
        let order = SpellOrder::DryClothes;
        let mut lockouts = SpellLockouts::default();
        let mut src = ScriptedDice::faces([1]);
        let c = attempt_spell(&m, &order, Attempt::FIRST, "dry_clothes", 7, &mut lockouts, &s, &mut src);
        assert_eq!(c.outcome, SpellOutcome::Fails);
        let mut none = ScriptedDice::faces(Vec::<u32>::new());
        let c = attempt_spell(&m, &order, Attempt::FIRST, "dry_clothes", 7, &mut lockouts, &s, &mut none);
        assert_eq!((c.outcome, c.roll), (SpellOutcome::NotUntilAnotherDay, None));
        let mut src = ScriptedDice::faces([5]);
        let c = attempt_spell(&m, &order, Attempt::FIRST, "dry_clothes", 8, &mut lockouts, &s, &mut src);
        assert_eq!(c.outcome, SpellOutcome::Succeeds);
        assert!(src.is_empty());
    }

    // ---- the spells' factors ----

    #[test]
    fn people_present_rows() {
        let s = settings();
        assert_eq!(people_present_factor(0, &s), None);
        assert_eq!(people_present_factor(1, &s), None);
        for (n, f) in [(2, -1), (3, -2), (4, -3), (5, -4)] {
            let (reason, value) = people_present_factor(n, &s).expect("a row");
            assert_eq!((&*reason, value), (format!("{n} people present").as_str(), f));
            assert!(!is_house_rule_reason(&reason));
        }
        let (reason, value) = people_present_factor(6, &s).expect("beyond the rows");
        assert_eq!(value, -5);
        assert!(is_house_rule_reason(&reason));
        assert_eq!(people_present_factor(9, &s).map(|(_, v)| v), Some(-8));
        let as_five = MagicSettings { people_beyond_five: PeopleBeyondFive::AsFive, ..settings() };
        assert_eq!(people_present_factor(6, &as_five).map(|(_, v)| v), Some(-4));
        assert_eq!(people_present_factor(5, &as_five).map(|(_, v)| v), Some(-4));
    }

    #[test]
    fn lighting_rows() {
        let s = settings();
        // Lighting::ALL: SUN, LLL, DLL, D/L, DDL, DDD; LLL is the house rule.
        assert_eq!(Lighting::ALL.map(|l| ghost_lighting_factor(l, &s)), [-6, -5, -4, -2, 0, 2]);
        assert_eq!(Lighting::ALL.map(|l| gremlin_lighting_factor(l, &s)), [-3, -3, -2, -1, 0, 1]);
        let other = MagicSettings { ghost_rows_lll_factor: -4, gremlin_rows_lll_factor: -2, ..settings() };
        assert_eq!(ghost_lighting_factor(Lighting::Daylight, &other), -4);
        assert_eq!(gremlin_lighting_factor(Lighting::Daylight, &other), -2);
        assert_eq!(ghost_lighting_factor(Lighting::Sun, &other), -6);
        for row in [LightingRow::Ghost, LightingRow::Gremlin] {
            for l in Lighting::ALL {
                let (reason, _) = lighting_factor(row, l, &s);
                assert_eq!(is_house_rule_reason(&reason), l == Lighting::Daylight, "{l:?}");
                assert!(reason.starts_with(l.code()));
            }
        }
    }

    #[test]
    fn every_spell_lists_its_factors() {
        let s = settings();
        assert!(factors(&SpellOrder::DryClothes, &s).is_empty());
        let ghost = SpellOrder::SummonGhost { people_present: 3, lighting: Lighting::Gloom };
        assert_eq!(factors(&ghost, &s), owned(&[("3 people present", -2), ("D/L", -2)]));
        let call = SpellOrder::CallSuspectedGhost { people_present: 1, lighting: Lighting::PitchBlack };
        assert_eq!(factors(&call, &s), owned(&[("DDD", 2)]));
        let reveal = SpellOrder::RevealOccultPresence { people_present: 5, lighting: Lighting::Sun };
        assert_eq!(factors(&reveal, &s), owned(&[("5 people present", -4), ("SUN", -6)]));
        let gremlin = SpellOrder::SummonSuspectedGremlin { people_present: 2, lighting: Lighting::Overcast };
        assert_eq!(factors(&gremlin, &s), owned(&[("2 people present", -1), ("DLL", -2)]));
        let demon = SpellOrder::SummonSuspectedDemon {
            demon_rank: 4,
            people_present: 4,
            lighting: Lighting::Dark,
            silver_ward: true,
        };
        assert_eq!(
            factors(&demon, &s),
            owned(&[("rank of demon", -4), ("4 people present", -3), ("DDL", 0), ("silver ward", -2)])
        );
        let demon_of_rank = |r| SpellOrder::SummonSuspectedDemon {
            demon_rank: r,
            people_present: 1,
            lighting: Lighting::Dark,
            silver_ward: false,
        };
        let rank = |r| factor_sum(&demon_of_rank(r), &s);
        assert_eq!([1, 2, 3, 4, 5, 6].map(rank), [-1, -2, -3, -4, -5, -6]);
        assert_eq!((rank(0), rank(9)), (-1, -6), "outside 1-6: the nearest");
        let curse = SpellOrder::LayGremlinCurse { victim: VictimDistance::Distant, lighting: Lighting::Sun };
        assert_eq!(factors(&curse, &s), owned(&[("victim distant", -3), ("SUN", -3)]));
        let eye = SpellOrder::LayEvilEyeCurse { victim: VictimDistance::Present, lighting: Lighting::PitchBlack };
        assert_eq!(factors(&eye, &s), owned(&[("victim present", 1), ("DDD", 1)]));
        assert_eq!(VictimDistance::ALL.map(VictimDistance::factor), [1, 0, -1, -3]);
        for v in VictimDistance::ALL {
            let c = SpellOrder::LayEvilEyeCurse { victim: v, lighting: Lighting::Dark };
            assert_eq!(factor_sum(&c, &s), v.factor());
            assert_eq!(factors(&c, &s)[0].0, v.reason());
        }
        let all = SpellOrder::Mesmerise(MesmerSubject {
            distance_in: 1.0,
            class: 2,
            others_present: true,
            nearby_movement_or_noise: true,
            nearby_fighting: true,
            previously_mesmerised: true,
        });
        assert_eq!(
            factors(&all, &s),
            owned(&[
                ("class as a number", -2),
                ("others present", -1),
                ("nearby movement or loud noise", -1),
                ("nearby fighting", -3),
                ("previously mesmerized", 2),
            ])
        );
        assert_eq!(factors(&SpellOrder::Mesmerise(subject(1.0)), &s), owned(&[("class as a number", 0)]));
    }

    /// One order of each spell, with factors.
    fn one_of_each() -> [SpellOrder; 9] {
        [
            SpellOrder::DryClothes,
            SpellOrder::SummonGhost { people_present: 2, lighting: Lighting::Gloom },
            SpellOrder::CallSuspectedGhost { people_present: 3, lighting: Lighting::Dark },
            SpellOrder::SummonSuspectedGremlin { people_present: 1, lighting: Lighting::PitchBlack },
            SpellOrder::SummonSuspectedDemon {
                demon_rank: 3,
                people_present: 2,
                lighting: Lighting::Overcast,
                silver_ward: true,
            },
            SpellOrder::LayGremlinCurse { victim: VictimDistance::WithinALeague, lighting: Lighting::Gloom },
            SpellOrder::LayEvilEyeCurse { victim: VictimDistance::Present, lighting: Lighting::Sun },
            SpellOrder::RevealOccultPresence { people_present: 4, lighting: Lighting::PitchBlack },
            SpellOrder::Mesmerise(MesmerSubject { class: 3, nearby_fighting: true, ..subject(3.0) }),
        ]
    }

    #[test]
    fn every_spell_succeeds_from_its_target() {
        // The text's targets, in Spell::ALL order: 5+, 4+, 6+, 5+, 5+, N-5 a rank from 6, 5+, 6+, 8+.
        assert_eq!(Spell::ALL.map(Spell::target), [5, 4, 6, 5, 5, 6, 5, 6, 8]);
        let s = settings();
        let m = mage(0);
        for order in one_of_each() {
            let spell = order.spell();
            let t = spell.target();
            // A GM factor puts face 1 one short of the target and face 2 on it.
            let gm_factor = t - 2 - factor_sum(&order, &s);
            let attempt = Attempt { again: 0, gm_factor };
            let short = cast_with(&m, &order, attempt, &s, 1);
            let on = cast_with(&m, &order, attempt, &s, 2);
            let (short_roll, on_roll) = (short.roll.expect("rolled"), on.roll.expect("rolled"));
            assert_eq!((short_roll.total, short.outcome), (t - 1, SpellOutcome::Fails), "{spell:?}");
            assert_eq!((on_roll.total, on.outcome), (t, SpellOutcome::Succeeds), "{spell:?}");
            assert_eq!(on_roll.target, Some(t));
            assert_eq!((short_roll.passed(), on_roll.passed()), (Some(false), Some(true)));
            assert_eq!(on.spell, spell);
        }
        assert!(Spell::ALL.iter().all(|s| !s.label().is_empty()));
    }

    #[test]
    fn mp_is_added_and_spent_on_success() {
        let s = settings();
        let m = mage(3);
        let c = cast_with(&m, &SpellOrder::DryClothes, Attempt::FIRST, &s, 2);
        assert_eq!(mods(c.roll.as_ref().expect("rolled")), vec![("MP", 3)]);
        assert_eq!((c.outcome, c.magic_power_spent, c.fatigue_cost), (SpellOutcome::Succeeds, 3, 0));
        let c = cast_with(&m, &SpellOrder::DryClothes, Attempt::FIRST, &s, 1);
        assert_eq!((c.outcome, c.magic_power_spent), (SpellOutcome::Fails, 0));
        let one = MagicSettings { listed_spell_cost: ListedSpellCost::OnePoint, ..settings() };
        assert_eq!(cast_with(&m, &SpellOrder::DryClothes, Attempt::FIRST, &one, 2).magic_power_spent, 1);
        let none = MagicSettings { listed_spell_cost: ListedSpellCost::Nothing, ..settings() };
        assert_eq!(cast_with(&m, &SpellOrder::DryClothes, Attempt::FIRST, &none, 2).magic_power_spent, 0);
        // The MP now: a tired magician with MP 3 and MMP 3 adds 2.
        let tired = Magician { tired: true, ..m };
        let c = cast_with(&tired, &SpellOrder::DryClothes, Attempt::FIRST, &s, 2);
        assert_eq!(mods(c.roll.as_ref().expect("rolled")), vec![("MP", 2)]);
        assert_eq!(c.outcome, SpellOutcome::Fails);
        // An attempt again costs its fatigue point on a listed spell too.
        let c = cast_with(&m, &SpellOrder::DryClothes, Attempt { again: 1, gm_factor: 0 }, &s, 3);
        assert_eq!((c.roll.expect("rolled").total, c.fatigue_cost), (5, 1));
    }

    #[test]
    fn listed_spells_may_try_again_by_reading() {
        let s = settings();
        assert_eq!(listed_spell_band(4, 5, &s), SpellOutcome::Fails);
        assert_eq!(listed_spell_band(5, 5, &s), SpellOutcome::Succeeds);
        let again = MagicSettings { listed_spells_may_try_again: true, ..settings() };
        assert_eq!(listed_spell_band(3, 5, &again), SpellOutcome::Fails);
        assert_eq!(listed_spell_band(4, 5, &again), SpellOutcome::MayTryAgain);
        assert_eq!(listed_spell_band(5, 5, &again), SpellOutcome::Succeeds);
        let c = cast_with(&mage(3), &SpellOrder::DryClothes, Attempt::FIRST, &again, 1);
        assert_eq!((c.outcome, c.magic_power_spent), (SpellOutcome::MayTryAgain, 0));
    }

    #[test]
    fn gremlin_curse_rank_is_n_less_five() {
        assert_eq!(gremlin_curse_rank(-3), None);
        assert_eq!(gremlin_curse_rank(5), None);
        assert_eq!(gremlin_curse_rank(6), Some(1));
        assert_eq!(gremlin_curse_rank(9), Some(4));
        let s = settings();
        let curse = SpellOrder::LayGremlinCurse { victim: VictimDistance::Present, lighting: Lighting::Dark };
        let m = mage(3);
        let c = cast_with(&m, &curse, Attempt::FIRST, &s, 1);
        assert_eq!((c.outcome, c.gremlin_rank), (SpellOutcome::Fails, None));
        let c = cast_with(&m, &curse, Attempt::FIRST, &s, 2);
        assert_eq!((c.outcome, c.gremlin_rank), (SpellOutcome::Succeeds, Some(1)));
        let c = cast_with(&m, &curse, Attempt::FIRST, &s, 6);
        assert_eq!(c.gremlin_rank, Some(5));
        // Other spells lay no gremlin.
        assert_eq!(cast_with(&m, &SpellOrder::DryClothes, Attempt::FIRST, &s, 6).gremlin_rank, None);
    }

    #[test]
    fn mesmerism_bands_and_prompt_days() {
        assert_eq!(mesmerism_band(7), Mesmerism::NotMesmerised);
        assert_eq!(mesmerism_band(8), Mesmerism::ObeysImmediateOrders);
        assert_eq!(mesmerism_band(9), Mesmerism::ObeysImmediateOrders);
        assert_eq!(mesmerism_band(10), Mesmerism::CarriesOutPromptedOrder);
        assert_eq!([7, 9, 10, 11, 12, 13, 15].map(prompt_days), [0, 0, 1, 1, 1, 2, 4]);
        assert!(within_mesmerise_reach(0.0));
        assert!(within_mesmerise_reach(3.0));
        assert!(!within_mesmerise_reach(3.01));
        assert!(!within_mesmerise_reach(f32::NAN));

        let s = settings();
        let m = mage(5);
        let mut none = ScriptedDice::faces(Vec::<u32>::new());
        let far = cast_spell(&m, &SpellOrder::Mesmerise(subject(3.5)), Attempt::FIRST, &s, &mut none);
        assert_eq!((far.outcome, far.roll, far.mesmerism), (SpellOutcome::OutOfRange, None, None));
        assert_eq!((far.fatigue_cost, far.magic_power_spent), (0, 0));
        let near = SpellOrder::Mesmerise(subject(3.0));
        let c = cast_with(&m, &near, Attempt::FIRST, &s, 2);
        assert_eq!((c.outcome, c.mesmerism, c.prompt_days), (SpellOutcome::Fails, Some(Mesmerism::NotMesmerised), 0));
        let c = cast_with(&m, &near, Attempt::FIRST, &s, 3);
        let obeys = (SpellOutcome::Succeeds, Some(Mesmerism::ObeysImmediateOrders), 0);
        assert_eq!((c.outcome, c.mesmerism, c.prompt_days), obeys);
        let c = cast_with(&m, &near, Attempt::FIRST, &s, 5);
        assert_eq!((c.mesmerism, c.prompt_days), (Some(Mesmerism::CarriesOutPromptedOrder), 1));
        let again = SpellOrder::Mesmerise(MesmerSubject { previously_mesmerised: true, ..subject(1.0) });
        let c = cast_with(&m, &again, Attempt::FIRST, &s, 6);
        assert_eq!((c.roll.expect("rolled").total, c.prompt_days), (13, 2));
        assert_eq!(cast_with(&m, &SpellOrder::DryClothes, Attempt::FIRST, &s, 6).mesmerism, None);
    }

    // ---- the evil eye ----

    #[test]
    fn the_evil_eye_takes_one_off_every_roll_of_its_victim() {
        assert_eq!(evil_eye_modifier(), Modifier { reason: EVIL_EYE_REASON.into(), value: -1 });
        // Another system's roll: working bonds (000), a D10 8 is "Loosened"; cursed, 7 is not.
        use crate::rules::prisoners::{BondsOutcome, bonds_band, resolve_bonds};
        let mut src = ScriptedDice::faces([8, 8]);
        let mut cursed = resolve_bonds(0, &mut src).roll;
        let plain = resolve_bonds(0, &mut src).roll;
        apply_evil_eye(&mut cursed, true);
        assert_eq!(bonds_band(plain.total), BondsOutcome::Loosened);
        assert_eq!(bonds_band(cursed.total), BondsOutcome::StillBound);
        assert_eq!(mods(&cursed), vec![(EVIL_EYE_REASON, -1)]);
        // A roll against a target fails once cursed; uncursed, nothing changes.
        let mut r = Roll::from_faces(Dice::D6, vec![5]).at_least(5);
        apply_evil_eye(&mut r, false);
        assert_eq!((r.total, r.passed()), (5, Some(true)));
        apply_evil_eye(&mut r, true);
        assert_eq!((r.total, r.passed()), (4, Some(false)));
        // A cursed magician's own casting.
        let s = settings();
        let cursed_mage = Magician { evil_eye: true, ..mage(3) };
        let c = cast_with(&cursed_mage, &SpellOrder::DryClothes, Attempt::FIRST, &s, 2);
        assert_eq!((c.roll.expect("rolled").total, c.outcome), (4, SpellOutcome::Fails));
        // Laying the curse.
        let eye = SpellOrder::LayEvilEyeCurse { victim: VictimDistance::Close, lighting: Lighting::Dark };
        assert!(cast_with(&mage(3), &eye, Attempt::FIRST, &s, 2).lays_evil_eye());
        assert!(!cast_with(&mage(3), &eye, Attempt::FIRST, &s, 1).lays_evil_eye());
        assert!(!cast_with(&mage(3), &SpellOrder::DryClothes, Attempt::FIRST, &s, 6).lays_evil_eye());
    }

    // ---- wards ----

    #[test]
    fn ward_fright_values_and_reach() {
        use WardedBeing::*;
        // WardedBeing::ALL: ghost, gremlin, demon, werewolf, vampire, wolf.
        assert_eq!(WardedBeing::ALL, [Ghost, Gremlin, Demon, Werewolf, Vampire, Wolf]);
        let fv = |w: WardKind| WardedBeing::ALL.map(|b| w.fright_value(b));
        assert_eq!(fv(WardKind::Silver), [Some(2), Some(3), Some(4), Some(2), Some(3), None]);
        assert_eq!(fv(WardKind::Garlic), [None, None, None, Some(2), Some(4), None]);
        assert_eq!(fv(WardKind::WolfsBane), [None, None, None, Some(3), None, Some(4)]);
        assert_eq!(WardKind::ALL.map(WardKind::radius_in), [6.0, 3.0, 3.0]);
        assert_eq!(ward_fright_bonus(true), 1);
        assert_eq!(ward_fright_bonus(false), 0);
    }

    #[test]
    fn a_being_within_reach_is_diced_against_the_ward() {
        let s = settings();
        let check = |w, b, d, face: Option<u32>| {
            let mut src = ScriptedDice::faces(face);
            let r = ward_check(w, b, d, &s, &mut src);
            assert!(src.is_empty());
            r
        };
        // Silver against a ghost, FV2: D6 − 2, 1+ braves.
        let r = check(WardKind::Silver, WardedBeing::Ghost, 6.0, Some(3));
        assert_eq!((r.outcome, r.fright_value), (WardOutcome::Braves, Some(2)));
        let roll = r.roll.expect("rolled");
        assert_eq!((roll.dice, roll.total, roll.target), (Dice::D6, 1, Some(1)));
        assert_eq!(roll.modifiers.len(), 1);
        assert_eq!(roll.modifiers[0].value, -2);
        assert!(is_house_rule_reason(&roll.modifiers[0].reason));
        assert_eq!(check(WardKind::Silver, WardedBeing::Ghost, 6.0, Some(2)).outcome, WardOutcome::Repelled);
        let out = check(WardKind::Silver, WardedBeing::Ghost, 6.01, None);
        assert_eq!((out.outcome, out.roll), (WardOutcome::OutOfRange, None));
        assert_eq!(check(WardKind::Silver, WardedBeing::Ghost, f32::NAN, None).outcome, WardOutcome::OutOfRange);
        // Garlic does not ward ghosts; silver does not ward wolves.
        assert_eq!(check(WardKind::Garlic, WardedBeing::Ghost, 0.5, None).outcome, WardOutcome::NotWarded);
        assert_eq!(check(WardKind::Silver, WardedBeing::Wolf, 0.5, None).outcome, WardOutcome::NotWarded);
        // Wolf's bane against a wolf, FV4, within 3": 5 braves, 4 repelled; 3.01" out of reach.
        assert_eq!(check(WardKind::WolfsBane, WardedBeing::Wolf, 3.0, Some(5)).outcome, WardOutcome::Braves);
        assert_eq!(check(WardKind::WolfsBane, WardedBeing::Wolf, 3.0, Some(4)).outcome, WardOutcome::Repelled);
        assert_eq!(check(WardKind::WolfsBane, WardedBeing::Wolf, 3.01, None).outcome, WardOutcome::OutOfRange);
        // Garlic against a vampire, FV4.
        assert_eq!(check(WardKind::Garlic, WardedBeing::Vampire, 3.0, Some(4)).outcome, WardOutcome::Repelled);
        assert_eq!(check(WardKind::Garlic, WardedBeing::Vampire, 3.0, Some(5)).outcome, WardOutcome::Braves);
        // Silver against a demon, FV4: 5 braves, 4 repelled.
        assert_eq!(check(WardKind::Silver, WardedBeing::Demon, 1.0, Some(4)).outcome, WardOutcome::Repelled);
        assert_eq!(check(WardKind::Silver, WardedBeing::Demon, 1.0, Some(5)).outcome, WardOutcome::Braves);
        // A scene's own test: a D10 (0–9), 3+.
        let scene = MagicSettings { ward_test: FrightTest { dice: Dice::D10, target: 3 }, ..settings() };
        let mut src = ScriptedDice::faces([5]);
        let r = ward_check(WardKind::Silver, WardedBeing::Werewolf, 2.0, &scene, &mut src);
        assert_eq!((r.roll.expect("rolled").total, r.outcome), (3, WardOutcome::Braves));
        let mut src = ScriptedDice::faces([4]);
        let r = ward_check(WardKind::Silver, WardedBeing::Werewolf, 2.0, &scene, &mut src);
        assert_eq!(r.outcome, WardOutcome::Repelled);
    }

    #[test]
    fn a_ward_adds_one_against_occult_frights() {
        let s = settings();
        let test = |fv, ward, eye, face: u32| occult_fright_test(fv, ward, eye, &s, &mut ScriptedDice::faces([face]));
        let r = test(3, true, false, 3);
        assert_eq!((r.roll.total, r.outcome, r.ward_bonus, r.fright_value), (1, FrightOutcome::Holds, 1, 3));
        assert_eq!(mods(&r.roll)[1], ("possession of a ward", 1));
        assert!(is_house_rule_reason(&r.roll.modifiers[0].reason));
        assert_eq!(test(3, true, false, 2).outcome, FrightOutcome::Frightened);
        let r = test(3, false, false, 3);
        assert_eq!((r.roll.total, r.outcome, r.ward_bonus), (0, FrightOutcome::Frightened, 0));
        assert_eq!(test(3, false, false, 4).outcome, FrightOutcome::Holds);
        assert_eq!(test(3, true, true, 3).outcome, FrightOutcome::Frightened);
        let scene = MagicSettings { occult_fright_test: FrightTest { dice: Dice::D10, target: 3 }, ..settings() };
        let mut src = ScriptedDice::faces([5]);
        assert_eq!(occult_fright_test(3, true, false, &scene, &mut src).outcome, FrightOutcome::Holds);
        let mut src = ScriptedDice::faces([4]);
        assert_eq!(occult_fright_test(3, true, false, &scene, &mut src).outcome, FrightOutcome::Frightened);
    }

    // ---- settings, ids, rolls ----

    #[test]
    fn settings_round_trip_and_defaults() {
        let s = settings();
        let text = serde_json::to_string(&s).unwrap();
        let back: MagicSettings = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
        let empty: MagicSettings = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, s);
        let parsed: MagicSettings =
            serde_json::from_str(r#"{"ward_test":{"dice":"D10","target":2},"people_beyond_five":"as_five"}"#).unwrap();
        assert_eq!(parsed.ward_test, FrightTest { dice: Dice::D10, target: 2 });
        assert_eq!(parsed.people_beyond_five, PeopleBeyondFive::AsFive);
        assert!(serde_json::from_str::<MagicSettings>(r#"{"no_such":1}"#).is_err());
        let order: SpellOrder =
            serde_json::from_str(r#"{"summon_ghost":{"people_present":2,"lighting":"D/L"}}"#).unwrap();
        assert_eq!(order, SpellOrder::SummonGhost { people_present: 2, lighting: Lighting::Gloom });
        let m: Magician = serde_json::from_str(r#"{"maximum_magic_power":4,"wound":"wounded"}"#).unwrap();
        assert_eq!((m.maximum_magic_power, m.magic_power, m.wound), (4, 0, Some(WoundRecovery::Wounded)));
    }

    #[test]
    fn outcome_ids_and_rolls() {
        assert_eq!(Outcome::id(SpellOutcome::MayTryAgain), "may_try_again");
        assert_eq!(Outcome::id(Mesmerism::CarriesOutPromptedOrder), "carries_out_prompted_order");
        assert_eq!(Outcome::meaning(WardOutcome::Repelled), Meaning::NONE);
        let c = cast_with(&mage(3), &SpellOrder::DryClothes, Attempt::FIRST, &settings(), 4);
        assert_eq!(c.rolls().len(), 1);
        let mut none = ScriptedDice::faces(Vec::<u32>::new());
        let far = cast_spell(&mage(3), &SpellOrder::Mesmerise(subject(9.0)), Attempt::FIRST, &settings(), &mut none);
        assert!(far.rolls().is_empty());
    }

    // ---- statistics ----

    /// Successes and failures of `trials` casts against the chance worked out from the text.
    fn check_success_rate(order: &SpellOrder, power: i32, p: f64, src: &mut SeededDice) {
        let trials = 12_000u32;
        let s = settings();
        let m = mage(power);
        let mut succeeded = 0u32;
        for _ in 0..trials {
            if cast_spell(&m, order, Attempt::FIRST, &s, src).outcome == SpellOutcome::Succeeds {
                succeeded += 1;
            }
        }
        let chi = chi_square(&[succeeded, trials - succeeded], &[p, 1.0 - p]);
        assert!(chi < CHI_SQUARE_1_DF_999, "{order:?}: chi-square {chi}, {succeeded} of {trials} vs {p}");
    }

    #[test]
    fn every_spell_succeeds_as_often_as_the_text_says() {
        let mut src = SeededDice::new(2_201);
        // Each chance by hand, MP 3 unless said: P(D6 ≥ k) = (7 − k) / 6.
        let cases: [(SpellOrder, i32, f64); 9] = [
            // Dry Clothes: D6 + 3 ≥ 5 ⇔ D6 ≥ 2.
            (SpellOrder::DryClothes, 3, 5.0 / 6.0),
            // Summon a Ghost, 3 people (−2), D/L (−2): D6 − 1 ≥ 4 ⇔ D6 ≥ 5.
            (SpellOrder::SummonGhost { people_present: 3, lighting: Lighting::Gloom }, 3, 2.0 / 6.0),
            // Call for a suspected ghost, alone, DDL (0): D6 + 3 ≥ 6 ⇔ D6 ≥ 3.
            (SpellOrder::CallSuspectedGhost { people_present: 1, lighting: Lighting::Dark }, 3, 4.0 / 6.0),
            // Summon a suspected Gremlin, 2 people (−1), DLL (−2): D6 + 0 ≥ 5 ⇔ D6 ≥ 5.
            (SpellOrder::SummonSuspectedGremlin { people_present: 2, lighting: Lighting::Overcast }, 3, 2.0 / 6.0),
            // Summon a suspected Demon, rank 1 (−1), alone, DDD (+1), silver ward (−2): D6 + 1 ≥ 5 ⇔ D6 ≥ 4.
            (
                SpellOrder::SummonSuspectedDemon {
                    demon_rank: 1,
                    people_present: 1,
                    lighting: Lighting::PitchBlack,
                    silver_ward: true,
                },
                3,
                3.0 / 6.0,
            ),
            // Lay a Gremlin Curse, victim present (+1), D/L (−1): a rank when D6 + 3 − 5 ≥ 1 ⇔ D6 ≥ 3.
            (SpellOrder::LayGremlinCurse { victim: VictimDistance::Present, lighting: Lighting::Gloom }, 3, 4.0 / 6.0),
            // Lay an evil eye Curse, within a league (−1), DDL (0): D6 + 2 ≥ 5 ⇔ D6 ≥ 3.
            (
                SpellOrder::LayEvilEyeCurse { victim: VictimDistance::WithinALeague, lighting: Lighting::Dark },
                3,
                4.0 / 6.0,
            ),
            // Reveal Occult Presence, 4 people (−3), DDD (+2): D6 + 2 ≥ 6 ⇔ D6 ≥ 4.
            (SpellOrder::RevealOccultPresence { people_present: 4, lighting: Lighting::PitchBlack }, 3, 3.0 / 6.0),
            // Mesmerise, MP 5, class 1 (−1), others present (−1), previously mesmerized (+2):
            // D6 + 5 ≥ 8 ⇔ D6 ≥ 3.
            (
                SpellOrder::Mesmerise(MesmerSubject {
                    class: 1,
                    others_present: true,
                    previously_mesmerised: true,
                    ..subject(2.0)
                }),
                5,
                4.0 / 6.0,
            ),
        ];
        let spells: Vec<Spell> = cases.iter().map(|(o, _, _)| o.spell()).collect();
        assert_eq!(spells, Spell::ALL.to_vec(), "one case per spell kind");
        for (order, power, p) in &cases {
            check_success_rate(order, *power, *p, &mut src);
        }
    }

    #[test]
    fn gremlin_ranks_and_mesmerism_depths_match_the_text() {
        let s = settings();
        let mut src = SeededDice::new(2_202);
        let trials = 12_000;
        // Gremlin Curse, MP 3, victim present (+1), D/L (−1): N = D6 + 3, rank N − 5 = D6 − 2:
        // faces 1, 2 no rank (2/6); 3, 4, 5, 6 ranks 1 to 4 (1/6 each).
        let curse = SpellOrder::LayGremlinCurse { victim: VictimDistance::Present, lighting: Lighting::Gloom };
        let mut ranks = [0u32; 5];
        for _ in 0..trials {
            let c = cast_spell(&mage(3), &curse, Attempt::FIRST, &s, &mut src);
            ranks[c.gremlin_rank.unwrap_or(0) as usize] += 1;
        }
        let chi = chi_square(&ranks, &[2.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0]);
        assert!(chi < CHI_SQUARE_4_DF_999, "ranks {ranks:?}");
        // Mesmerise, MP 5, class 1, others present, previously mesmerized: D6 + 5, 6 to 11:
        // below 8 faces 1, 2; 8 or 9 faces 3, 4; 10+ faces 5, 6: 2/6 each.
        let order = SpellOrder::Mesmerise(MesmerSubject {
            class: 1,
            others_present: true,
            previously_mesmerised: true,
            ..subject(2.0)
        });
        let mut depths = [0u32; 3];
        for _ in 0..trials {
            let c = cast_spell(&mage(5), &order, Attempt::FIRST, &s, &mut src);
            let i = match c.mesmerism.expect("within reach") {
                Mesmerism::NotMesmerised => 0,
                Mesmerism::ObeysImmediateOrders => 1,
                Mesmerism::CarriesOutPromptedOrder => 2,
            };
            depths[i] += 1;
        }
        let chi = chi_square(&depths, &[2.0 / 6.0, 2.0 / 6.0, 2.0 / 6.0]);
        assert!(chi < CHI_SQUARE_2_DF_999, "depths {depths:?}");
    }

    #[test]
    fn general_casting_bands_match_the_text() {
        // A tired magician, MMP 5 (−1), TS 6: D6 + 5 − 1 − 6 = D6 − 2: cast on 3–6 (4/6), 0 on a
        // 2 (1/6), −1 on a 1 (1/6).
        let s = settings();
        let m = Magician { tired: true, ..mage(5) };
        let mut src = SeededDice::new(2_203);
        let mut observed = [0u32; 3];
        for _ in 0..12_000 {
            let i = match cast_general(&m, 6, Attempt::FIRST, &s, &mut src).outcome {
                SpellOutcome::Succeeds => 0,
                SpellOutcome::MayTryAgain => 1,
                SpellOutcome::Fails => 2,
                other => panic!("no roll? {other:?}"),
            };
            observed[i] += 1;
        }
        let chi = chi_square(&observed, &[4.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0]);
        assert!(chi < CHI_SQUARE_2_DF_999, "{observed:?}");
    }

    #[test]
    fn wards_and_frights_hold_as_often_as_the_readings_say() {
        let s = settings();
        let mut src = SeededDice::new(2_204);
        let trials = 12_000u32;
        // Default test D6 − FV ≥ 1. Wolf's bane against a werewolf, FV3: braves on 4–6 (3/6);
        // silver against a demon, FV4: on 5–6 (2/6).
        for (ward, being, p) in
            [(WardKind::WolfsBane, WardedBeing::Werewolf, 3.0 / 6.0), (WardKind::Silver, WardedBeing::Demon, 2.0 / 6.0)]
        {
            let mut braves = 0u32;
            for _ in 0..trials {
                if ward_check(ward, being, 1.0, &s, &mut src).outcome == WardOutcome::Braves {
                    braves += 1;
                }
            }
            let chi = chi_square(&[braves, trials - braves], &[p, 1.0 - p]);
            assert!(chi < CHI_SQUARE_1_DF_999, "{ward:?} {being:?}: {braves}");
        }
        // A person with a ward against FV3: D6 − 3 + 1 ≥ 1 ⇔ D6 ≥ 3 (4/6).
        let mut holds = 0u32;
        for _ in 0..trials {
            if occult_fright_test(3, true, false, &s, &mut src).outcome == FrightOutcome::Holds {
                holds += 1;
            }
        }
        let chi = chi_square(&[holds, trials - holds], &[4.0 / 6.0, 2.0 / 6.0]);
        assert!(chi < CHI_SQUARE_1_DF_999, "holds {holds}");
    }
}
