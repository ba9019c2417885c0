//! Prisoners, runaways and berserkers: how many guards an escort of bound prisoners needs, the
//! escape dice for the prisoners in excess, running with bound hands, working bonds free,
//! catching a runaway and the struggle to tie him, and a berserker's rage (000 "Guarding
//! prisoners", "Catching, runaways, and overpowering", "Berserking").
//!
//! Dice follow RULES-NOTES "Dice": a Morval D10 shows 0–9. Distances are inches as `f32`;
//! "within" a distance includes it. Every reading of a terse line is marked "Reading:" where it
//! is applied, is a field of [`PrisonersSettings`] where a choice is needed (its default the
//! most literal one), and is listed in docs/prisoners.md.

use super::character::Sex;
use super::dice::{Dice, DiceSource, Roll, Rolls};
use super::magic::apply_evil_eye;
use super::outcome::Meaning;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// 000 "Guarding prisoners": "one guard per 3 men or 5 women": the men.
pub const MEN_PER_GUARD: u32 = 3;
/// 000 "Guarding prisoners": "one guard per 3 men or 5 women": the women.
pub const WOMEN_PER_GUARD: u32 = 5;
/// 000 "Guarding prisoners": "Expert guards or turnkeys + 2 to these totals".
pub const EXPERT_GUARD_EXTRA: u32 = 2;
/// 000 "Guarding prisoners": "One side blocked by physical feature +1".
pub const SIDE_BLOCKED_FACTOR: i32 = 1;
/// 000 "Guarding prisoners": "prisoner just run -1".
pub const JUST_RUN_FACTOR: i32 = -1;
/// 000 "Guarding prisoners": "= 0- a prisoner runs off".
pub const RUNS_OFF_AT_MOST: i32 = 0;
/// 000 "Guarding prisoners": "Running with bound hands = double move -3"".
pub const BOUND_HANDS_RUNNING_LOSS_IN: f32 = 3.0;
/// 000 "Guarding prisoners": working bonds, "11+ Free".
pub const BONDS_FREE_FROM: i32 = 11;
/// 000 "Guarding prisoners": working bonds, "8+ Loosened".
pub const BONDS_LOOSENED_FROM: i32 = 8;
/// 000 "Guarding prisoners": working bonds, "0 give up too secure".
pub const BONDS_GIVE_UP_AT_MOST: i32 = 0;
/// 000 "Guarding prisoners": working bonds, "Each loosening +1".
pub const LOOSENING_FACTOR: i32 = 1;
/// 000 "Catching, runaways, and overpowering": "When within 1" of Fugitive".
pub const CATCH_REACH_IN: f32 = 1.0;
/// 000 "Catching, runaways, and overpowering": "F hands bound -2".
pub const HANDS_BOUND_FACTOR: i32 = -2;
/// 000 "Catching, runaways, and overpowering": "Guard using whip + 2".
pub const WHIP_FACTOR: i32 = 2;
/// 000 "Catching, runaways, and overpowering": "down -2".
pub const DOWN_FACTOR: i32 = -2;
/// 000 "Catching, runaways, and overpowering": "Guard +5 F caught & knocked down".
pub const KNOCKED_DOWN_FROM: i32 = 5;
/// 000 "Catching, runaways, and overpowering": "+3 F caught".
pub const CAUGHT_FROM: i32 = 3;
/// 000 "Catching, runaways, and overpowering": "0+ F still involved".
pub const STILL_INVOLVED_FROM: i32 = 0;
/// 000 "Catching, runaways, and overpowering": "continue struggle with Fugitive -1for being caught".
pub const BEING_CAUGHT_FACTOR: i32 = -1;
/// 000 "Catching, runaways, and overpowering": "Guard +3 to tie hands and gain control".
pub const CONTROL_FROM: i32 = 3;
/// 000 "Catching, runaways, and overpowering": "If a second person aids the guard, mean and add +3".
pub const SECOND_PERSON_BONUS: i32 = 3;
/// 000 "Berserking": "spend one move building himself up into a rage".
pub const RAGE_BUILDING_MOVES: u32 = 1;
/// 000 "Berserking": "costing one fatigue point in the process".
pub const RAGE_BUILDING_FATIGUE: u32 = 1;
/// 000 "Berserking": "He then adds +2 to his melee".
pub const BERSERK_MELEE_BONUS: i32 = 2;
/// 000 "Berserking": "attack any enemy standing within 12"".
pub const BERSERK_REACH_IN: f32 = 12.0;
/// RULES-NOTES "Time and movement": "running doubles the move and costs a fatigue point".
pub const RUNNING_FATIGUE_PER_MOVE: u32 = 1;

// ---------------------------------------------------------------------------------------------
// Prisoners and the readings
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// A prisoner's standing, as the escape and bonds rules name it.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum PrisonerRank {
        /// A leader: "Leader present -3"; works his bonds.
        Leader => "leader",
        /// An officer: "Officer present -2"; works his bonds.
        Officer => "officer",
        /// An independent: "Independent prisoner present -1"; works his bonds.
        Independent => "independent",
        /// A follower: no factor; does not work his bonds.
        #[default]
        Follower => "follower",
    }
}

impl PrisonerRank {
    /// How the log names it, e.g. "officer".
    pub fn label(self) -> &'static str {
        self.id()
    }

    /// 000 "Guarding prisoners": "Independent prisoner present -1, Officer present -2, Leader present -3".
    pub fn present_factor(self) -> i32 {
        match self {
            PrisonerRank::Leader => -3,
            PrisonerRank::Officer => -2,
            PrisonerRank::Independent => -1,
            PrisonerRank::Follower => 0,
        }
    }

    /// 000 "Guarding prisoners": the escape roll's reason for this rank's presence, in the text's words.
    pub fn present_reason(self) -> &'static str {
        match self {
            PrisonerRank::Leader => "leader present",
            PrisonerRank::Officer => "officer present",
            PrisonerRank::Independent => "independent prisoner present",
            PrisonerRank::Follower => "follower present",
        }
    }

    /// 000 "Guarding prisoners": "Bound Leader, Officer and Independent prisoners can try to work their bonds free".
    pub fn works_bonds(self) -> bool {
        !matches!(self, PrisonerRank::Follower)
    }

    /// Seniority, 0 for a leader to 3 for a follower (for [`RunnerChoice::HighestRank`]).
    pub fn seniority(self) -> u8 {
        match self {
            PrisonerRank::Leader => 0,
            PrisonerRank::Officer => 1,
            PrisonerRank::Independent => 2,
            PrisonerRank::Follower => 3,
        }
    }
}

crate::rules::named_enum! {
    /// How guards share an escort of men and women. Reading: the text gives "3 men or 5 women" a
    /// guard and says nothing of a mixed escort.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum MixedEscort {
        /// The default, the literal "or": each guard watches men or women, never both.
        #[default]
        SeparateGuards => "separate_guards",
        /// A guard may watch both, each man taking a third of him (a fifth of an expert) and each
        /// woman a fifth (a seventh of an expert), rounded down to whole prisoners.
        SharedGuards => "shared_guards",
    }
}

crate::rules::named_enum! {
    /// What "a prisoner runs off and dice again" means for the number of escape rolls.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum DiceAgain {
        /// The default: every runaway earns another roll for the same excess prisoner, so one
        /// excess prisoner's dice go on until a 1+ or no prisoner is left.
        #[default]
        ExtraRoll => "extra_roll",
        /// One roll for each excess prisoner counted at the start of the move; "dice again" only
        /// says a runaway does not end the move's dicing.
        OncePerExcess => "once_per_excess",
    }
}

crate::rules::named_enum! {
    /// Which prisoner runs off on a 0−. Reading: the text says "a prisoner runs off".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum RunnerChoice {
        /// The default: any prisoner still present, each as likely (drawn from the dice).
        #[default]
        Random => "random",
        /// The most senior present (leader, officer, independent, follower), the first listed
        /// among equals.
        HighestRank => "highest_rank",
        /// The first listed still present.
        FirstListed => "first_listed",
    }
}

crate::rules::named_enum! {
    /// Which binding a prisoner with free hands undoes first. Reading: the text says "one binding
    /// per round including feet and gags" and gives no order.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum UndoOrder {
        /// The default, the text's order: feet, then the gag.
        #[default]
        FeetFirst => "feet_first",
        /// The gag, then the feet.
        GagFirst => "gag_first",
    }
}

crate::rules::named_enum! {
    /// How "mean" of a guard and his helper is taken. Reading: the text says "mean and add +3".
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum MeanRounding {
        /// The default: the exact mean, a half kept.
        #[default]
        Exact => "exact",
        /// Rounded down.
        Down => "down",
        /// Rounded up.
        Up => "up",
    }
}

crate::rules::named_enum! {
    /// What a raging berserker does with no enemy within 12". Reading: the text names only
    /// collapse as the rage's end.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum BerserkWithoutEnemy {
        /// The default: he stays in his rage until he collapses exhausted.
        #[default]
        KeepsRaging => "keeps_raging",
        /// He calms down and must build a rage afresh.
        CalmsDown => "calms_down",
    }
}

/// The readings of these sections where a choice is needed, each default the most literal: the
/// scene's `rules.prisoners` block (docs/house-rules.md "Prisoners").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PrisonersSettings {
    /// How guards share an escort of men and women.
    pub mixed_escort: MixedEscort,
    /// Whether several sides blocked count +1 each (true) or "One side blocked +1" once (false).
    pub each_blocked_side_counts: bool,
    /// Whether the escape dice are rolled for a halted escort too (true), or only while it is
    /// moved, as "Moving prisoners" says (false).
    pub dice_when_halted: bool,
    /// What "dice again" means for the number of escape rolls.
    pub dice_again: DiceAgain,
    /// Which prisoner runs off.
    pub runner: RunnerChoice,
    /// Whether "prisoner just run −1" also applies to the move after a runaway (true), or only
    /// to the dice after him in the same move (false).
    pub just_run_includes_previous_move: bool,
    /// Whether "0 give up too secure" is for good (true) or for the move only (false).
    pub gives_up_for_good: bool,
    /// Which binding free hands undo first.
    pub undo_order: UndoOrder,
    /// Whether a second person may aid the guard while catching (true), or only in the struggle
    /// after the catch, where the text puts the line (false).
    pub second_person_helps_catch: bool,
    /// How the mean of a guard and his helper is taken.
    pub mean_rounding: MeanRounding,
    /// Whether a minus in the struggle lets the caught fugitive break clear by that many inches,
    /// as in the catch (true), or the struggle simply goes on, the text giving only the +3 row
    /// (false).
    pub struggle_minus_breaks_clear: bool,
    /// Whether a fugitive knocked down stays down for the whole struggle (true) or for its first
    /// round only (false).
    pub knocked_down_stays_down: bool,
    /// What a raging berserker does with no enemy within 12".
    pub berserk_without_enemy: BerserkWithoutEnemy,
    /// Fatigue points each move of rage costs besides running; the text charges only the
    /// building move.
    pub rage_fatigue_per_move: u32,
    /// The fatigue points at which a berserker without his own `exhaustion_point` collapses
    /// exhausted: the text gives no number.
    pub berserk_exhaustion_point: u32,
    /// A bound prisoner is "left unsupervised" when none of his guards, free (not chasing
    /// another) and able to move, stands within this many inches of him.
    pub supervision_reach_in: f32,
}

/// The default [`PrisonersSettings::berserk_exhaustion_point`]: the building move's point and
/// five moves of charging at a run (a point a move), about a quarter of an hour of rage.
pub const DEFAULT_BERSERK_EXHAUSTION_POINT: u32 = 6;
/// The default [`PrisonersSettings::supervision_reach_in`]: a man's basic move (RULES-NOTES
/// "Time and movement": 6"), so a guard who can be at his side within a move supervises him.
pub const DEFAULT_SUPERVISION_REACH_IN: f32 = 6.0;

impl Default for PrisonersSettings {
    fn default() -> Self {
        Self {
            mixed_escort: MixedEscort::SeparateGuards,
            each_blocked_side_counts: false,
            dice_when_halted: false,
            dice_again: DiceAgain::ExtraRoll,
            runner: RunnerChoice::Random,
            just_run_includes_previous_move: false,
            gives_up_for_good: true,
            undo_order: UndoOrder::FeetFirst,
            second_person_helps_catch: false,
            mean_rounding: MeanRounding::Exact,
            struggle_minus_breaks_clear: false,
            knocked_down_stays_down: true,
            berserk_without_enemy: BerserkWithoutEnemy::KeepsRaging,
            rage_fatigue_per_move: 0,
            berserk_exhaustion_point: DEFAULT_BERSERK_EXHAUSTION_POINT,
            supervision_reach_in: DEFAULT_SUPERVISION_REACH_IN,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Guards enough
// ---------------------------------------------------------------------------------------------

/// 000 "Guarding prisoners": the men or women one guard secures, "3 men or 5 women", an expert or turnkey "+ 2".
pub fn guard_capacity(expert: bool) -> (u32, u32) {
    let extra = if expert { EXPERT_GUARD_EXTRA } else { 0 };
    (MEN_PER_GUARD + extra, WOMEN_PER_GUARD + extra)
}

/// The women a guard who holds `men` of his `cap_men` can still hold.
fn women_beside(cap_men: u32, cap_women: u32, men: u32, mixed: MixedEscort) -> u32 {
    if men == 0 {
        return cap_women;
    }
    match mixed {
        MixedEscort::SeparateGuards => 0,
        MixedEscort::SharedGuards => cap_women * cap_men.saturating_sub(men) / cap_men,
    }
}

/// How well an escort is guarded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EscortSecurity {
    /// Prisoners in the escort.
    pub prisoners: u32,
    /// Prisoners the guards hold securely.
    pub secured: u32,
    /// "each prisoner in excess": the prisoners the guards cannot hold.
    pub excess: u32,
}

impl EscortSecurity {
    /// "complete security": no prisoner in excess.
    pub fn complete(self) -> bool {
        self.excess == 0
    }
}

/// 000 "Guarding prisoners": "one guard per 3 men or 5 women for complete security. Expert guards or turnkeys + 2 to these totals".
///
/// The guards are shared out to hold as many prisoners as they can, under the [`MixedEscort`]
/// reading; the rest are in excess. A guard with no prisoner to watch adds nothing, so at most
/// one guard per prisoner is counted, experts first.
pub fn escort_security(
    men: u32,
    women: u32,
    ordinary_guards: u32,
    expert_guards: u32,
    mixed: MixedEscort,
) -> EscortSecurity {
    let prisoners = men.saturating_add(women);
    let experts = expert_guards.min(prisoners);
    let ordinary = ordinary_guards.min(prisoners - experts);
    let m = men as usize;
    // best[a]: the most women the guards so far can hold beside `a` men (None: `a` men do not fit).
    let mut best: Vec<Option<u32>> = vec![None; m + 1];
    best[0] = Some(0);
    let guards = (0..experts).map(|_| true).chain((0..ordinary).map(|_| false));
    for expert in guards {
        let (cap_men, cap_women) = guard_capacity(expert);
        let mut next: Vec<Option<u32>> = vec![None; m + 1];
        for (a, held) in best.iter().enumerate() {
            let Some(held) = *held else { continue };
            let room = u32::try_from(m - a).unwrap_or(u32::MAX);
            for j in 0..=cap_men.min(room) {
                let total = held.saturating_add(women_beside(cap_men, cap_women, j, mixed));
                let slot = &mut next[a + j as usize];
                if slot.is_none_or(|s| s < total) {
                    *slot = Some(total);
                }
            }
        }
        best = next;
    }
    let secured = best
        .iter()
        .enumerate()
        .filter_map(|(a, w)| w.map(|w| u32::try_from(a).unwrap_or(u32::MAX).saturating_add(w.min(women))))
        .max()
        .unwrap_or(0);
    EscortSecurity { prisoners, secured, excess: prisoners - secured }
}

// ---------------------------------------------------------------------------------------------
// Escape dice
// ---------------------------------------------------------------------------------------------

/// One bound prisoner in an escort.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EscortPrisoner {
    /// Man or woman: "3 men or 5 women" a guard.
    pub sex: Sex,
    /// Leader, officer, independent or follower.
    pub rank: PrisonerRank,
    /// Under the evil eye (001 "Lay an evil eye Curse"); see [`resolve_escape_dice`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub evil_eye: bool,
}

/// An escort moving bound prisoners, for one move's escape dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Escort<'a> {
    /// The prisoners with bound hands, in scene order.
    pub prisoners: &'a [EscortPrisoner],
    /// Ordinary guards.
    pub ordinary_guards: u32,
    /// Expert guards or turnkeys.
    pub expert_guards: u32,
    /// Sides of the escort's way blocked by a physical feature (a river, a wall).
    pub sides_blocked: u8,
    /// A prisoner ran before this move's dice, where the caller counts it (see
    /// [`PrisonersSettings::just_run_includes_previous_move`]); runaways during this move's dice
    /// count by themselves.
    pub just_run: bool,
}

crate::rules::named_enum! {
    /// One escape roll's result.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum EscapeOutcome {
        /// 0 or less: a prisoner runs off (and the dice are rolled again).
        RunsOff => "runs_off",
        /// 1 or more: no escape attempt.
        NoAttempt => "no_attempt",
    }
}

/// 000 "Guarding prisoners": "= 0- a prisoner runs off and dice again, 1+ no escape attempt".
pub fn escape_band(total: i32) -> EscapeOutcome {
    if total <= RUNS_OFF_AT_MOST { EscapeOutcome::RunsOff } else { EscapeOutcome::NoAttempt }
}

/// 000 "Guarding prisoners": whether this move's escape dice are rolled ("Moving prisoners", "D10 +F per move").
pub fn escape_dice_due(escort_moving: bool, settings: &PrisonersSettings) -> bool {
    escort_moving || settings.dice_when_halted
}

/// 000 "Guarding prisoners": whether "prisoner just run -1" counts from the first roll of a move, for a runaway in the move before.
///
/// Runaways during the move's own dice always count for the rolls after them
/// ([`resolve_escape_dice`]); one in the previous move only under
/// [`PrisonersSettings::just_run_includes_previous_move`].
pub fn just_run_at_start(ran_previous_move: bool, settings: &PrisonersSettings) -> bool {
    ran_previous_move && settings.just_run_includes_previous_move
}

/// 000 "Guarding prisoners": "One side blocked by physical feature +1" for `sides` blocked sides.
pub fn sides_blocked_factor(sides: u8, settings: &PrisonersSettings) -> i32 {
    match sides {
        0 => 0,
        n if settings.each_blocked_side_counts => SIDE_BLOCKED_FACTOR * i32::from(n),
        _ => SIDE_BLOCKED_FACTOR,
    }
}

/// One escape roll and, on a 0−, the prisoner who ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EscapeRoll {
    /// D10 + F, passed (a prisoner runs) at 0 or less.
    pub roll: Roll,
    /// Runs off or no attempt.
    pub outcome: EscapeOutcome,
    /// The runaway's index in [`Escort::prisoners`], for [`EscapeOutcome::RunsOff`].
    pub runner: Option<usize>,
}

/// One move's escape dice for an escort.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EscortMove {
    /// The guards against the prisoners, at the start of the move.
    pub security: EscortSecurity,
    /// Every roll, in the order rolled.
    pub rolls: Vec<EscapeRoll>,
}

impl EscortMove {
    /// The prisoners who ran off, by index in [`Escort::prisoners`], in the order they ran.
    pub fn runners(&self) -> Vec<usize> {
        self.rolls.iter().filter_map(|r| r.runner).collect()
    }
}

/// The escape roll with every factor, for the prisoners still `present`.
fn escape_roll(
    escort: &Escort,
    present: &[bool],
    just_run: bool,
    settings: &PrisonersSettings,
    src: &mut impl DiceSource,
) -> Roll {
    let mut roll = Roll::new(Dice::D10, src);
    let blocked: Cow<'static, str> = if escort.sides_blocked > 1 && settings.each_blocked_side_counts {
        format!("{} sides blocked by physical features", escort.sides_blocked).into()
    } else {
        "one side blocked by physical feature".into()
    };
    roll.add(blocked, sides_blocked_factor(escort.sides_blocked, settings));
    for rank in [PrisonerRank::Independent, PrisonerRank::Officer, PrisonerRank::Leader] {
        let here = escort.prisoners.iter().zip(present).any(|(p, &here)| here && p.rank == rank);
        if here {
            roll.add(rank.present_reason(), rank.present_factor());
        }
    }
    if just_run {
        roll.add("prisoner just run", JUST_RUN_FACTOR);
    }
    // 001 "Lay an evil eye Curse": the roll is for one of the prisoners still there, whichever;
    // it is a cursed prisoner's when every one still there is cursed.
    let cursed = escort.prisoners.iter().zip(present).all(|(p, &here)| !here || p.evil_eye);
    apply_evil_eye(&mut roll, cursed);
    roll.at_most(RUNS_OFF_AT_MOST)
}

/// 000 "Guarding prisoners": "a prisoner runs off": which, under the [`RunnerChoice`] reading.
fn pick_runner(
    prisoners: &[EscortPrisoner],
    present: &[bool],
    choice: RunnerChoice,
    src: &mut impl DiceSource,
) -> Option<usize> {
    let mut candidates = (0..prisoners.len()).filter(|&i| present[i]);
    match choice {
        RunnerChoice::FirstListed => candidates.next(),
        RunnerChoice::HighestRank => candidates.min_by_key(|&i| prisoners[i].rank.seniority()),
        RunnerChoice::Random => {
            let all: Vec<usize> = candidates.collect();
            if all.is_empty() {
                return None;
            }
            let n = u32::try_from(all.len()).unwrap_or(u32::MAX);
            all.get(src.below(n) as usize).copied()
        }
    }
}

/// 000 "Guarding prisoners": "For each prisoner in excess, D10 +F per move", a runaway on 0− and dice again.
///
/// The excess is counted at the start of the move. Before each roll the presence factors are
/// those of the prisoners still there: a leader who has run off no longer counts. After a
/// runaway every later roll of the move has "prisoner just run −1" (once, however many ran).
/// The dice stop when no prisoner is left. A roll is for no one prisoner in particular: it
/// takes 001's evil-eye −1 only when every prisoner still there is cursed (one left, cursed).
pub fn resolve_escape_dice(escort: &Escort, settings: &PrisonersSettings, src: &mut impl DiceSource) -> EscortMove {
    let count = escort.prisoners.len();
    let men = u32::try_from(escort.prisoners.iter().filter(|p| p.sex == Sex::Male).count()).unwrap_or(u32::MAX);
    let women = u32::try_from(count).unwrap_or(u32::MAX).saturating_sub(men);
    let security = escort_security(men, women, escort.ordinary_guards, escort.expert_guards, settings.mixed_escort);
    let mut present = vec![true; count];
    let mut ran_this_move = false;
    let mut rolls = Vec::new();
    'excess: for _ in 0..security.excess {
        loop {
            if !present.iter().any(|&p| p) {
                break 'excess;
            }
            let roll = escape_roll(escort, &present, escort.just_run || ran_this_move, settings, src);
            let outcome = escape_band(roll.total);
            let runner = match outcome {
                EscapeOutcome::RunsOff => pick_runner(escort.prisoners, &present, settings.runner, src),
                EscapeOutcome::NoAttempt => None,
            };
            if let Some(i) = runner {
                present[i] = false;
                ran_this_move = true;
            }
            rolls.push(EscapeRoll { roll, outcome, runner });
            if runner.is_none() || settings.dice_again == DiceAgain::OncePerExcess {
                break;
            }
        }
    }
    EscortMove { security, rolls }
}

/// 000 "Guarding prisoners": "Running with bound hands = double move -3"" (an unbound runner doubles the move).
///
/// `move_in` is the figure's move before its gait (RULES-NOTES "Time and movement"). Never below 0.
pub fn running_move_in(move_in: f32, hands_bound: bool) -> f32 {
    let double = move_in * 2.0;
    let run = if hands_bound { double - BOUND_HANDS_RUNNING_LOSS_IN } else { double };
    run.max(0.0)
}

// ---------------------------------------------------------------------------------------------
// Bonds
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// One of a prisoner's bindings.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Binding {
        /// Hands bound.
        Hands => "hands",
        /// Feet bound.
        Feet => "feet",
        /// Gagged.
        Gag => "gag",
    }
}

/// How a prisoner is bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bonds {
    /// Hands bound.
    pub hands: bool,
    /// Feet bound.
    pub feet: bool,
    /// Gagged.
    pub gag: bool,
}

impl Bonds {
    /// Nothing bound.
    pub const NONE: Bonds = Bonds { hands: false, feet: false, gag: false };
    /// Hands, feet and gag.
    pub const ALL: Bonds = Bonds { hands: true, feet: true, gag: true };

    /// Whether `binding` is on.
    pub fn has(self, binding: Binding) -> bool {
        match binding {
            Binding::Hands => self.hands,
            Binding::Feet => self.feet,
            Binding::Gag => self.gag,
        }
    }

    /// The same bonds with `binding` undone.
    pub fn without(self, binding: Binding) -> Bonds {
        match binding {
            Binding::Hands => Bonds { hands: false, ..self },
            Binding::Feet => Bonds { feet: false, ..self },
            Binding::Gag => Bonds { gag: false, ..self },
        }
    }
}

crate::rules::named_enum! {
    /// One move's work on bound hands.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum BondsOutcome {
        /// 11 or more: the hands are free.
        Free => "free",
        /// 8 to 10: loosened (+1 to later rolls).
        Loosened => "loosened",
        /// 1 to 7: no change.
        StillBound => "still_bound",
        /// 0 or less: gives up, the bonds too secure.
        GivesUp => "gives_up",
    }
}

/// 000 "Guarding prisoners": working bonds, "= 11+ Free, 8+ Loosened, 0 give up too secure" (1 to 7: no change).
pub fn bonds_band(total: i32) -> BondsOutcome {
    if total >= BONDS_FREE_FROM {
        BondsOutcome::Free
    } else if total >= BONDS_LOOSENED_FROM {
        BondsOutcome::Loosened
    } else if total > BONDS_GIVE_UP_AT_MOST {
        BondsOutcome::StillBound
    } else {
        BondsOutcome::GivesUp
    }
}

/// A prisoner's bonds and his work on them so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BondsState {
    /// What is bound.
    pub bonds: Bonds,
    /// Loosenings so far ("Each loosening +1").
    pub loosenings: u32,
    /// He has given up on these bonds ("too secure").
    pub given_up: bool,
}

/// 000 "Guarding prisoners": "Bound Leader, Officer and Independent prisoners can try to work their bonds free if left unsupervised".
pub fn may_work_bonds(rank: PrisonerRank, state: &BondsState, unsupervised: bool) -> bool {
    rank.works_bonds() && state.bonds.hands && unsupervised && !state.given_up
}

/// One move's bonds roll.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BondsRoll {
    /// D10 + F, +1 per loosening.
    pub roll: Roll,
    /// Free, loosened, still bound or gives up.
    pub outcome: BondsOutcome,
}

/// 000 "Guarding prisoners": "D10 + F each move. Each loosening +1, = 11+ Free, 8+ Loosened, 0 give up too secure".
pub fn resolve_bonds(loosenings: u32, src: &mut impl DiceSource) -> BondsRoll {
    let l = i32::try_from(loosenings).unwrap_or(i32::MAX).saturating_mul(LOOSENING_FACTOR);
    let reason: Cow<'static, str> =
        if loosenings == 1 { "one loosening".into() } else { format!("{loosenings} loosenings").into() };
    let roll = Roll::new(Dice::D10, src).modifier(reason, l);
    let outcome = bonds_band(roll.total);
    BondsRoll { roll, outcome }
}

/// 000 "Guarding prisoners": a prisoner's move at his bonds: the roll if he may work them, and his bonds after.
///
/// Free: the hands are untied and the loosenings done with. Loosened: one more loosening. Gives
/// up: no more tries on these bonds while [`PrisonersSettings::gives_up_for_good`] (else he
/// tries again next move).
pub fn work_bonds(
    rank: PrisonerRank,
    state: BondsState,
    unsupervised: bool,
    settings: &PrisonersSettings,
    src: &mut impl DiceSource,
) -> (BondsState, Option<BondsRoll>) {
    if !may_work_bonds(rank, &state, unsupervised) {
        return (state, None);
    }
    let result = resolve_bonds(state.loosenings, src);
    (bonds_after(state, result.outcome, settings), Some(result))
}

/// 000 "Guarding prisoners": a prisoner's bonds after a bonds roll of `outcome` (read again when
/// another rule, 001's evil eye, changes the roll's total; see [`work_bonds`]).
pub fn bonds_after(state: BondsState, outcome: BondsOutcome, settings: &PrisonersSettings) -> BondsState {
    match outcome {
        BondsOutcome::Free => BondsState { bonds: state.bonds.without(Binding::Hands), loosenings: 0, ..state },
        BondsOutcome::Loosened => BondsState { loosenings: state.loosenings.saturating_add(1), ..state },
        BondsOutcome::StillBound => state,
        BondsOutcome::GivesUp => BondsState { given_up: settings.gives_up_for_good, ..state },
    }
}

/// 000 "Guarding prisoners": "Once hands free can undo one binding per round including feet and gags": this round's.
///
/// Nothing while the hands are bound or when nothing is left to undo.
pub fn undo_binding_round(bonds: Bonds, order: UndoOrder) -> (Bonds, Option<Binding>) {
    if bonds.hands {
        return (bonds, None);
    }
    let order = match order {
        UndoOrder::FeetFirst => [Binding::Feet, Binding::Gag],
        UndoOrder::GagFirst => [Binding::Gag, Binding::Feet],
    };
    match order.into_iter().find(|&b| bonds.has(b)) {
        Some(b) => (bonds.without(b), Some(b)),
        None => (bonds, None),
    }
}

// ---------------------------------------------------------------------------------------------
// Catching runaways and the struggle
// ---------------------------------------------------------------------------------------------

/// A guard (or the second person aiding him) in a catch or a struggle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Pursuer {
    /// His basic Me (melee) factor.
    pub melee_factor: i32,
    /// Using a whip (+2).
    pub whip: bool,
    /// Down (−2).
    pub down: bool,
    /// Under the evil eye (001 "Lay an evil eye Curse"): −1 on his D10.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub evil_eye: bool,
}

/// The runaway in a catch or a struggle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Fugitive {
    /// His basic Me (melee) factor.
    pub melee_factor: i32,
    /// Hands bound (−2).
    pub hands_bound: bool,
    /// Down (−2).
    pub down: bool,
    /// Under the evil eye (001 "Lay an evil eye Curse"): −1 on his D10.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub evil_eye: bool,
}

/// One round's competition: the guard's side against the fugitive.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Contest {
    /// The guard's D10 + F.
    pub guard: Roll,
    /// The second person's D10 + F, when one aids the guard.
    pub helper: Option<Roll>,
    /// "+3" for the second person (0 without one).
    pub helper_bonus: i32,
    /// The guard's side: his total, or the mean of both totals (see [`MeanRounding`]) + 3.
    pub guard_score: f32,
    /// The fugitive's D10 + F.
    pub fugitive: Roll,
    /// The guard's side less the fugitive's total: how far the guard is ahead.
    pub margin: f32,
}

/// 000 "Catching, runaways, and overpowering": a guard's D10 + F, "adding basic Me factors", "Guard using whip + 2, down -2".
fn pursuer_roll(p: &Pursuer, src: &mut impl DiceSource) -> Roll {
    let mut roll = Roll::new(Dice::D10, src)
        .modifier("basic Me factor", p.melee_factor)
        .modifier("using whip", if p.whip { WHIP_FACTOR } else { 0 })
        .modifier("down", if p.down { DOWN_FACTOR } else { 0 });
    apply_evil_eye(&mut roll, p.evil_eye);
    roll
}

/// 000 "Catching, runaways, and overpowering": the fugitive's D10 + F, "F hands bound -2", "down -2", and "-1for being caught".
fn fugitive_roll(f: &Fugitive, caught: bool, src: &mut impl DiceSource) -> Roll {
    let mut roll = Roll::new(Dice::D10, src)
        .modifier("basic Me factor", f.melee_factor)
        .modifier("hands bound", if f.hands_bound { HANDS_BOUND_FACTOR } else { 0 })
        .modifier("down", if f.down { DOWN_FACTOR } else { 0 })
        .modifier("for being caught", if caught { BEING_CAUGHT_FACTOR } else { 0 });
    apply_evil_eye(&mut roll, f.evil_eye);
    roll
}

/// 000 "Catching, runaways, and overpowering": "mean and add +3 as with melees", the mean taken as [`MeanRounding`] says.
pub fn aided_score(guard_total: i32, helper_total: i32, rounding: MeanRounding) -> f32 {
    let sum = guard_total.saturating_add(helper_total);
    let mean = match rounding {
        MeanRounding::Exact => sum as f32 / 2.0,
        MeanRounding::Down => sum.div_euclid(2) as f32,
        MeanRounding::Up => sum.saturating_add(1).div_euclid(2) as f32,
    };
    mean + SECOND_PERSON_BONUS as f32
}

/// 000 "Catching, runaways, and overpowering": "D10 + F each in competition": guard, helper, then fugitive.
fn run_contest(
    pursuer: &Pursuer,
    helper: Option<&Pursuer>,
    fugitive: &Fugitive,
    caught: bool,
    rounding: MeanRounding,
    src: &mut impl DiceSource,
) -> Contest {
    let guard = pursuer_roll(pursuer, src);
    let helper = helper.map(|h| pursuer_roll(h, &mut *src));
    let fugitive = fugitive_roll(fugitive, caught, src);
    let (helper_bonus, guard_score) = match &helper {
        Some(h) => (SECOND_PERSON_BONUS, aided_score(guard.total, h.total, rounding)),
        None => (0, guard.total as f32),
    };
    let margin = guard_score - fugitive.total as f32;
    Contest { guard, helper, helper_bonus, guard_score, fugitive, margin }
}

/// 000 "Catching, runaways, and overpowering": whether the guard is near enough to try, "When within 1" of Fugitive".
pub fn within_catch_reach(distance_in: f32) -> bool {
    distance_in <= CATCH_REACH_IN
}

crate::rules::named_enum! {
    /// One round of a guard running down a fugitive.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ChaseOutcome {
        /// Farther than 1": no roll; both run on at double move.
        OutOfReach => "out_of_reach",
        /// The guard +5 or more: caught and knocked down.
        CaughtKnockedDown => "caught_knocked_down",
        /// +3 or +4: caught.
        Caught => "caught",
        /// 0 to +2: still involved.
        StillInvolved => "still_involved",
        /// A minus: the fugitive gets that many inches clear.
        FugitiveClear => "fugitive_clear",
    }
}

/// 000 "Catching, runaways, and overpowering": "= Guard +5 F caught & knocked down, +3 F caught, 0+ F still involved, minuses give inches F clear".
pub fn chase_band(margin: f32) -> ChaseOutcome {
    if margin >= KNOCKED_DOWN_FROM as f32 {
        ChaseOutcome::CaughtKnockedDown
    } else if margin >= CAUGHT_FROM as f32 {
        ChaseOutcome::Caught
    } else if margin >= STILL_INVOLVED_FROM as f32 {
        ChaseOutcome::StillInvolved
    } else {
        ChaseOutcome::FugitiveClear
    }
}

/// One round of the catch.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CatchRound {
    /// The competition; `None` when out of reach.
    pub contest: Option<Contest>,
    /// The row.
    pub outcome: ChaseOutcome,
    /// Inches the fugitive gets clear ([`ChaseOutcome::FugitiveClear`]; else 0).
    pub clear_in: f32,
}

/// 000 "Catching, runaways, and overpowering": one round of the catch, "D10 + F each in competition" when within 1".
///
/// The helper counts only under [`PrisonersSettings::second_person_helps_catch`]; otherwise he
/// rolls nothing. A fugitive caught (either row) struggles from the next round
/// ([`resolve_struggle_round`]); a fugitive clear runs on and the chase goes on.
pub fn resolve_catch_round(
    distance_in: f32,
    pursuer: &Pursuer,
    helper: Option<&Pursuer>,
    fugitive: &Fugitive,
    settings: &PrisonersSettings,
    src: &mut impl DiceSource,
) -> CatchRound {
    if distance_in.is_nan() || !within_catch_reach(distance_in) {
        return CatchRound { contest: None, outcome: ChaseOutcome::OutOfReach, clear_in: 0.0 };
    }
    let helper = helper.filter(|_| settings.second_person_helps_catch);
    let contest = run_contest(pursuer, helper, fugitive, false, settings.mean_rounding, src);
    let outcome = chase_band(contest.margin);
    let clear_in = if outcome == ChaseOutcome::FugitiveClear { -contest.margin } else { 0.0 };
    CatchRound { contest: Some(contest), outcome, clear_in }
}

crate::rules::named_enum! {
    /// One round of the struggle after the catch.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum StruggleOutcome {
        /// The guard +3 or more: hands tied, the guard in control.
        GainsControl => "gains_control",
        /// Less: the struggle goes on next round.
        StruggleGoesOn => "struggle_goes_on",
        /// A minus, under [`PrisonersSettings::struggle_minus_breaks_clear`] only: the fugitive
        /// breaks that many inches clear.
        BreaksClear => "breaks_clear",
    }
}

/// 000 "Catching, runaways, and overpowering": "= Guard +3 to tie hands and gain control" (less: the struggle goes on).
pub fn struggle_band(margin: f32, settings: &PrisonersSettings) -> StruggleOutcome {
    if margin >= CONTROL_FROM as f32 {
        StruggleOutcome::GainsControl
    } else if margin < 0.0 && settings.struggle_minus_breaks_clear {
        StruggleOutcome::BreaksClear
    } else {
        StruggleOutcome::StruggleGoesOn
    }
}

/// One round of the struggle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StruggleRound {
    /// The competition.
    pub contest: Contest,
    /// The row.
    pub outcome: StruggleOutcome,
    /// Inches the fugitive breaks clear ([`StruggleOutcome::BreaksClear`]; else 0).
    pub clear_in: f32,
}

/// 000 "Catching, runaways, and overpowering": "Once caught, continue struggle with Fugitive -1for being caught", a second person "mean and add +3".
pub fn resolve_struggle_round(
    pursuer: &Pursuer,
    helper: Option<&Pursuer>,
    fugitive: &Fugitive,
    settings: &PrisonersSettings,
    src: &mut impl DiceSource,
) -> StruggleRound {
    let contest = run_contest(pursuer, helper, fugitive, true, settings.mean_rounding, src);
    let outcome = struggle_band(contest.margin, settings);
    let clear_in = if outcome == StruggleOutcome::BreaksClear { -contest.margin } else { 0.0 };
    StruggleRound { contest, outcome, clear_in }
}

/// 000 "Catching, runaways, and overpowering": whether a fugitive "caught & knocked down" is still down in a struggle round.
///
/// `struggle_rounds_done`: rounds of struggle already rolled since the catch. Down for the
/// whole struggle under [`PrisonersSettings::knocked_down_stays_down`], else for its first round.
pub fn down_in_struggle(knocked_down: bool, struggle_rounds_done: u32, settings: &PrisonersSettings) -> bool {
    knocked_down && (settings.knocked_down_stays_down || struggle_rounds_done == 0)
}

// ---------------------------------------------------------------------------------------------
// Berserking
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// Where a berserker is in his rage.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum BerserkState {
        /// Not in a rage.
        #[default]
        Calm => "calm",
        /// In a rage: +2 melee, no orders or morale throws.
        Raging => "raging",
        /// Collapsed exhausted.
        Collapsed => "collapsed",
    }
}

crate::rules::named_enum! {
    /// A berserker's move.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum BerserkOutcome {
        /// Calm and not building a rage (or not trained to).
        StaysCalm => "stays_calm",
        /// Spends the move building up a rage (one fatigue point).
        BuildsRage => "builds_rage",
        /// Raging: goes for the nearest enemy within 12".
        Charges => "charges",
        /// Raging with no enemy within 12" ([`BerserkWithoutEnemy::KeepsRaging`]).
        RagesWithoutEnemy => "rages_without_enemy",
        /// Raging with no enemy within 12" ([`BerserkWithoutEnemy::CalmsDown`]).
        CalmsDown => "calms_down",
        /// Collapses exhausted: his fatigue has reached his exhaustion point.
        CollapsesExhausted => "collapses_exhausted",
        /// Lies collapsed.
        Exhausted => "exhausted",
    }
}

/// A berserker at the start of a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Berserker<'a> {
    /// Where he is in his rage.
    pub state: BerserkState,
    /// "A warrior trained to go berserk".
    pub trained: bool,
    /// He begins building a rage this move (when calm); the caller decides when.
    pub begin_rage: bool,
    /// Fatigue points he has now.
    pub fatigue: u32,
    /// Fatigue points at which he collapses exhausted (the text gives no number).
    pub exhaustion_point: u32,
    /// Distances to each enemy, in the caller's order.
    pub enemy_distances_in: &'a [f32],
}

/// What a berserker does this move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BerserkMove {
    /// What he does.
    pub outcome: BerserkOutcome,
    /// Where he is in his rage after the move.
    pub state: BerserkState,
    /// Fatigue points the rage costs this move (running costs its own, [`RUNNING_FATIGUE_PER_MOVE`]).
    pub fatigue_cost: u32,
    /// The enemy he goes for: an index into [`Berserker::enemy_distances_in`].
    pub target: Option<usize>,
    /// "+2 to his melee" this move (0 when not raging).
    pub melee_bonus: i32,
    /// "not subject to orders or morale throws" this move.
    pub ignores_orders_and_morale: bool,
}

/// 000 "Berserking": "attack any enemy standing within 12"": the nearest within 12", the first listed among equals.
///
/// Reading: "any enemy" is the nearest (issue 19); "standing" means being there.
pub fn berserk_target(enemy_distances_in: &[f32]) -> Option<usize> {
    enemy_distances_in
        .iter()
        .enumerate()
        .filter(|(_, d)| !d.is_nan() && **d <= BERSERK_REACH_IN)
        .fold(None, |best: Option<(usize, f32)>, (i, &d)| match best {
            Some((_, bd)) if bd <= d => best,
            _ => Some((i, d)),
        })
        .map(|(i, _)| i)
}

/// 000 "Berserking": one move of a berserker: "one move building himself up into a rage", then "+2 to his melee" against any enemy within 12" "until they collapse exhausted".
///
/// Calm and beginning: the move is spent building the rage (one fatigue point, no bonus yet);
/// he rages from the next move. Raging: he collapses once his fatigue has reached his
/// exhaustion point; otherwise he goes for the nearest enemy within 12" with +2 melee, outside
/// orders and morale. He stays collapsed until the caller calms him (the text gives no recovery).
pub fn berserk_move(berserker: &Berserker, settings: &PrisonersSettings) -> BerserkMove {
    let calm = |outcome, state| BerserkMove {
        outcome,
        state,
        fatigue_cost: 0,
        target: None,
        melee_bonus: 0,
        ignores_orders_and_morale: false,
    };
    match berserker.state {
        BerserkState::Calm if berserker.trained && berserker.begin_rage => BerserkMove {
            fatigue_cost: RAGE_BUILDING_FATIGUE,
            ..calm(BerserkOutcome::BuildsRage, BerserkState::Raging)
        },
        BerserkState::Calm => calm(BerserkOutcome::StaysCalm, BerserkState::Calm),
        BerserkState::Collapsed => calm(BerserkOutcome::Exhausted, BerserkState::Collapsed),
        BerserkState::Raging if berserker.fatigue >= berserker.exhaustion_point => {
            calm(BerserkOutcome::CollapsesExhausted, BerserkState::Collapsed)
        }
        BerserkState::Raging => {
            let raging = |outcome, target| BerserkMove {
                outcome,
                state: BerserkState::Raging,
                fatigue_cost: settings.rage_fatigue_per_move,
                target,
                melee_bonus: BERSERK_MELEE_BONUS,
                ignores_orders_and_morale: true,
            };
            match berserk_target(berserker.enemy_distances_in) {
                Some(i) => raging(BerserkOutcome::Charges, Some(i)),
                None => match settings.berserk_without_enemy {
                    BerserkWithoutEnemy::KeepsRaging => raging(BerserkOutcome::RagesWithoutEnemy, None),
                    BerserkWithoutEnemy::CalmsDown => calm(BerserkOutcome::CalmsDown, BerserkState::Calm),
                },
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Outcomes and rolls
// ---------------------------------------------------------------------------------------------

crate::rules::outcome::impl_outcome! {
    EscapeOutcome => |o| Meaning::NONE;
    BondsOutcome => |o| Meaning::NONE;
    ChaseOutcome => |o| Meaning::NONE;
    StruggleOutcome => |o| Meaning::NONE;
    BerserkOutcome => |o| Meaning::NONE;
}

// The rolls of each report in the order they were rolled (new events: no earlier log to keep).

impl Rolls for EscapeRoll {
    /// The D10.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for EscortMove {
    /// Each escape roll, in order.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.rolls.push_rolls(out);
    }
}

impl Rolls for BondsRoll {
    /// The D10.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for Contest {
    /// `guard`, `helper`, then `fugitive`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.guard.push_rolls(out);
        self.helper.push_rolls(out);
        self.fugitive.push_rolls(out);
    }
}

impl Rolls for CatchRound {
    /// The contest's rolls, if any.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.contest.push_rolls(out);
    }
}

impl Rolls for StruggleRound {
    /// The contest's rolls.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.contest.push_rolls(out);
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
    const CHI_SQUARE_2_DF_999: f64 = 13.816;
    const CHI_SQUARE_3_DF_999: f64 = 16.266;

    fn settings() -> PrisonersSettings {
        PrisonersSettings::default()
    }

    fn mods(roll: &Roll) -> Vec<(&str, i32)> {
        roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect()
    }

    fn man(rank: PrisonerRank) -> EscortPrisoner {
        EscortPrisoner { sex: Sex::Male, rank, evil_eye: false }
    }

    fn woman(rank: PrisonerRank) -> EscortPrisoner {
        EscortPrisoner { sex: Sex::Female, rank, evil_eye: false }
    }

    fn escort(prisoners: &[EscortPrisoner], ordinary_guards: u32) -> Escort<'_> {
        Escort { prisoners, ordinary_guards, expert_guards: 0, sides_blocked: 0, just_run: false }
    }

    fn first_listed() -> PrisonersSettings {
        PrisonersSettings { runner: RunnerChoice::FirstListed, ..settings() }
    }

    // ---- guards enough ----

    #[test]
    fn guard_capacity_follows_the_text() {
        assert_eq!(guard_capacity(false), (3, 5));
        assert_eq!(guard_capacity(true), (5, 7));
    }

    #[test]
    fn one_guard_per_three_men_or_five_women() {
        let sec = |m, w, o, e| escort_security(m, w, o, e, MixedEscort::SeparateGuards);
        // Men: 3 a guard, the 4th in excess.
        assert_eq!(sec(3, 0, 1, 0), EscortSecurity { prisoners: 3, secured: 3, excess: 0 });
        assert_eq!(sec(4, 0, 1, 0), EscortSecurity { prisoners: 4, secured: 3, excess: 1 });
        assert_eq!(sec(6, 0, 2, 0).excess, 0);
        assert_eq!(sec(7, 0, 2, 0).excess, 1);
        // Women: 5 a guard, the 6th in excess.
        assert_eq!(sec(0, 5, 1, 0).excess, 0);
        assert_eq!(sec(0, 6, 1, 0).excess, 1);
        // Experts and turnkeys: 5 men or 7 women.
        assert_eq!(sec(5, 0, 0, 1).excess, 0);
        assert_eq!(sec(6, 0, 0, 1).excess, 1);
        assert_eq!(sec(0, 7, 0, 1).excess, 0);
        assert_eq!(sec(0, 8, 0, 1).excess, 1);
        // One of each: 8 men secure, the 9th in excess.
        assert_eq!(sec(8, 0, 1, 1).excess, 0);
        assert_eq!(sec(9, 0, 1, 1).excess, 1);
        // No guards: everyone in excess; no prisoners: complete security.
        assert_eq!(sec(2, 3, 0, 0).excess, 5);
        assert!(sec(0, 0, 0, 0).complete());
        assert!(!sec(1, 0, 0, 0).complete());
        // Many guards: everyone secured.
        assert_eq!(sec(4, 4, 1000, 1000), EscortSecurity { prisoners: 8, secured: 8, excess: 0 });
    }

    #[test]
    fn mixed_escorts_by_reading() {
        let sep = |m, w, o, e| escort_security(m, w, o, e, MixedEscort::SeparateGuards).excess;
        let shared = |m, w, o, e| escort_security(m, w, o, e, MixedEscort::SharedGuards).excess;
        // One guard, two men and a woman: "or" leaves the woman (or a man) over; sharing holds all
        // (2/3 + 1/5 ≤ 1).
        assert_eq!(sep(2, 1, 1, 0), 1);
        assert_eq!(shared(2, 1, 1, 0), 0);
        // One man and three women (1/3 + 3/5 ≤ 1); a fourth woman does not fit.
        assert_eq!(shared(1, 3, 1, 0), 0);
        assert_eq!(shared(1, 4, 1, 0), 1);
        assert_eq!(sep(1, 3, 1, 0), 1);
        // Two men and two women: 2/3 + 2/5 > 1.
        assert_eq!(shared(2, 2, 1, 0), 1);
        // An expert: a man and five women (1/5 + 5/7 ≤ 1), not six.
        assert_eq!(shared(1, 5, 0, 1), 0);
        assert_eq!(shared(1, 6, 0, 1), 1);
        // Three men and two women with an expert: 3/5 + 2/7 ≤ 1.
        assert_eq!(shared(3, 2, 0, 1), 0);
        assert_eq!(sep(3, 2, 0, 1), 2);
        // Two guards, separate: one for the men, one for the women.
        assert_eq!(sep(3, 5, 2, 0), 0);
        assert_eq!(sep(3, 6, 2, 0), 1);
        // An expert watches the men (5) better than an ordinary guard: 5 men, 5 women secure.
        assert_eq!(sep(5, 5, 1, 1), 0);
        assert_eq!(sep(5, 7, 1, 1), 2);
        // Sharing never holds fewer than separate guards.
        for m in 0..8 {
            for w in 0..8 {
                for o in 0..3 {
                    for e in 0..2 {
                        assert!(shared(m, w, o, e) <= sep(m, w, o, e), "{m} {w} {o} {e}");
                    }
                }
            }
        }
    }

    // ---- escape dice ----

    #[test]
    fn escape_band_edges() {
        assert_eq!(escape_band(-7), EscapeOutcome::RunsOff);
        assert_eq!(escape_band(-1), EscapeOutcome::RunsOff);
        assert_eq!(escape_band(0), EscapeOutcome::RunsOff);
        assert_eq!(escape_band(1), EscapeOutcome::NoAttempt);
        assert_eq!(escape_band(10), EscapeOutcome::NoAttempt);
    }

    #[test]
    fn no_escape_dice_when_secure() {
        let prisoners = [man(PrisonerRank::Leader), man(PrisonerRank::Follower), man(PrisonerRank::Follower)];
        let mut src = ScriptedDice::faces(Vec::<u32>::new());
        let m = resolve_escape_dice(&escort(&prisoners, 1), &settings(), &mut src);
        assert!(m.security.complete());
        assert!(m.rolls.is_empty());
    }

    #[test]
    fn one_roll_per_excess_prisoner() {
        let prisoners = [man(PrisonerRank::Follower); 5];
        let mut src = ScriptedDice::faces([1, 9]);
        let m = resolve_escape_dice(&escort(&prisoners, 1), &settings(), &mut src);
        assert_eq!(m.security.excess, 2);
        assert_eq!(m.rolls.len(), 2);
        assert!(m.rolls.iter().all(|r| r.outcome == EscapeOutcome::NoAttempt && r.runner.is_none()));
        assert!(m.rolls.iter().all(|r| r.roll.modifiers.is_empty()));
        assert_eq!(m.rolls[0].roll.target, Some(0));
        assert_eq!(m.rolls[0].roll.passed(), Some(false));
        assert!(src.is_empty());
    }

    #[test]
    fn escape_every_factor() {
        /// The first escape roll with every face `face` (no guards: every prisoner in excess).
        fn roll_with(prisoners: &[EscortPrisoner], sides: u8, just_run: bool, face: u32) -> Roll {
            let e = Escort { prisoners, ordinary_guards: 0, expert_guards: 0, sides_blocked: sides, just_run };
            let once = PrisonersSettings { dice_again: DiceAgain::OncePerExcess, ..first_listed() };
            let mut src = ScriptedDice::faces(vec![face; prisoners.len()]);
            let m = resolve_escape_dice(&e, &once, &mut src);
            m.rolls[0].roll.clone()
        }
        let f = [man(PrisonerRank::Follower)];
        assert!(roll_with(&f, 0, false, 5).modifiers.is_empty());
        let r = roll_with(&f, 1, false, 5);
        assert_eq!((mods(&r), r.total), (vec![("one side blocked by physical feature", 1)], 6));
        let r = roll_with(&[man(PrisonerRank::Independent)], 0, false, 5);
        assert_eq!((mods(&r), r.total), (vec![("independent prisoner present", -1)], 4));
        let r = roll_with(&[man(PrisonerRank::Officer)], 0, false, 5);
        assert_eq!((mods(&r), r.total), (vec![("officer present", -2)], 3));
        let r = roll_with(&[man(PrisonerRank::Leader)], 0, false, 5);
        assert_eq!((mods(&r), r.total), (vec![("leader present", -3)], 2));
        let r = roll_with(&f, 0, true, 5);
        assert_eq!((mods(&r), r.total), (vec![("prisoner just run", -1)], 4));
        // All at once, in the text's order; two officers count once.
        let all = [
            man(PrisonerRank::Leader),
            man(PrisonerRank::Officer),
            man(PrisonerRank::Officer),
            woman(PrisonerRank::Independent),
            man(PrisonerRank::Follower),
        ];
        let r = roll_with(&all, 1, true, 9);
        assert_eq!(
            mods(&r),
            vec![
                ("one side blocked by physical feature", 1),
                ("independent prisoner present", -1),
                ("officer present", -2),
                ("leader present", -3),
                ("prisoner just run", -1),
            ]
        );
        assert_eq!(r.total, 3);
        // 9 − 6 = 3 on a 9; the band edge with these factors: 6 runs (0), 7 does not (1).
        assert_eq!(roll_with(&all, 1, true, 6).total, 0);
        assert_eq!(escape_band(roll_with(&all, 1, true, 6).total), EscapeOutcome::RunsOff);
        assert_eq!(escape_band(roll_with(&all, 1, true, 7).total), EscapeOutcome::NoAttempt);
        // Plain: a 0 runs, a 1 does not.
        assert_eq!(escape_band(roll_with(&f, 0, false, 0).total), EscapeOutcome::RunsOff);
        assert_eq!(escape_band(roll_with(&f, 0, false, 1).total), EscapeOutcome::NoAttempt);
        // Blocked: a 0 is 1, no attempt.
        assert_eq!(escape_band(roll_with(&f, 1, false, 0).total), EscapeOutcome::NoAttempt);
    }

    #[test]
    fn blocked_sides_by_reading() {
        let s = settings();
        assert_eq!(sides_blocked_factor(0, &s), 0);
        assert_eq!(sides_blocked_factor(1, &s), 1);
        assert_eq!(sides_blocked_factor(2, &s), 1);
        let each = PrisonersSettings { each_blocked_side_counts: true, ..settings() };
        assert_eq!(sides_blocked_factor(2, &each), 2);
        let prisoners = [man(PrisonerRank::Follower)];
        let e = Escort { sides_blocked: 2, ..escort(&prisoners, 0) };
        let m = resolve_escape_dice(&e, &each, &mut ScriptedDice::faces([4]));
        assert_eq!(mods(&m.rolls[0].roll), vec![("2 sides blocked by physical features", 2)]);
        let m = resolve_escape_dice(&e, &s, &mut ScriptedDice::faces([4]));
        assert_eq!(mods(&m.rolls[0].roll), vec![("one side blocked by physical feature", 1)]);
    }

    #[test]
    fn runaway_dices_again_with_just_run() {
        // Five men, one guard: two in excess. A 0 runs; the dice again take −1; a 2 is 1, no
        // attempt; the second excess prisoner's roll keeps the −1.
        let prisoners = [man(PrisonerRank::Follower); 5];
        let mut src = ScriptedDice::faces([0, 2, 2]);
        let m = resolve_escape_dice(&escort(&prisoners, 1), &first_listed(), &mut src);
        assert_eq!(m.rolls.len(), 3);
        assert_eq!((m.rolls[0].outcome, m.rolls[0].runner), (EscapeOutcome::RunsOff, Some(0)));
        assert_eq!(m.rolls[0].roll.passed(), Some(true));
        assert_eq!(mods(&m.rolls[1].roll), vec![("prisoner just run", -1)]);
        assert_eq!((m.rolls[1].roll.total, m.rolls[1].outcome), (1, EscapeOutcome::NoAttempt));
        assert_eq!(mods(&m.rolls[2].roll), vec![("prisoner just run", -1)]);
        assert_eq!(m.runners(), vec![0]);
        assert!(src.is_empty());
        // Runs go on while the dice fail: 0, then 1 − 1 = 0, then 3 − 1 = 2; then the next.
        let mut src = ScriptedDice::faces([0, 1, 3, 5]);
        let m = resolve_escape_dice(&escort(&prisoners, 1), &first_listed(), &mut src);
        assert_eq!(m.runners(), vec![0, 1]);
        assert_eq!(m.rolls.len(), 4);
        assert!(src.is_empty());
    }

    #[test]
    fn once_per_excess_reading() {
        let prisoners = [man(PrisonerRank::Follower); 5];
        let once = PrisonersSettings { dice_again: DiceAgain::OncePerExcess, ..first_listed() };
        let mut src = ScriptedDice::faces([0, 1]);
        let m = resolve_escape_dice(&escort(&prisoners, 1), &once, &mut src);
        assert_eq!(m.rolls.len(), 2);
        assert_eq!(m.runners(), vec![0, 1]);
        assert_eq!(m.rolls[1].roll.total, 0);
        assert!(src.is_empty());
    }

    #[test]
    fn the_dice_stop_when_no_prisoner_is_left() {
        let prisoners = [man(PrisonerRank::Follower)];
        let mut src = ScriptedDice::faces([0]);
        let m = resolve_escape_dice(&escort(&prisoners, 0), &first_listed(), &mut src);
        assert_eq!(m.runners(), vec![0]);
        assert_eq!(m.rolls.len(), 1);
        assert!(src.is_empty());
    }

    #[test]
    fn which_prisoner_runs() {
        let prisoners = [
            man(PrisonerRank::Follower),
            man(PrisonerRank::Officer),
            man(PrisonerRank::Leader),
            man(PrisonerRank::Leader),
        ];
        // First listed.
        let once = PrisonersSettings { dice_again: DiceAgain::OncePerExcess, ..first_listed() };
        let m = resolve_escape_dice(&escort(&prisoners, 0), &once, &mut ScriptedDice::faces([0, 9, 9, 9]));
        assert_eq!(m.runners(), vec![0]);
        // Highest rank: the first leader, then the second; then the officer.
        let high =
            PrisonersSettings { runner: RunnerChoice::HighestRank, dice_again: DiceAgain::OncePerExcess, ..settings() };
        let m = resolve_escape_dice(&escort(&prisoners, 0), &high, &mut ScriptedDice::faces([0, 0, 0, 9]));
        assert_eq!(m.runners(), vec![2, 3, 1]);
        // The leaders' −3 and the officer's −2 go with them.
        assert!(mods(&m.rolls[1].roll).contains(&("leader present", -3)));
        assert!(!mods(&m.rolls[2].roll).iter().any(|(r, _)| *r == "leader present"));
        assert!(mods(&m.rolls[2].roll).contains(&("officer present", -2)));
        assert!(!mods(&m.rolls[3].roll).iter().any(|(r, _)| *r == "officer present"));
        // Random: a draw among those present (raw indices: the D10 face, then the pick).
        let random = PrisonersSettings { dice_again: DiceAgain::OncePerExcess, ..settings() };
        let mut src = ScriptedDice::new([0, 2, 0, 2, 9, 9]);
        let m = resolve_escape_dice(&escort(&prisoners, 0), &random, &mut src);
        // Draw 2 of [0, 1, 2, 3] is 2; then draw 2 of [0, 1, 3] is 3.
        assert_eq!(m.runners(), vec![2, 3]);
        assert!(src.is_empty());
    }

    #[test]
    fn just_run_from_the_move_before_by_reading() {
        assert!(!just_run_at_start(true, &settings()));
        assert!(!just_run_at_start(false, &settings()));
        let previous = PrisonersSettings { just_run_includes_previous_move: true, ..settings() };
        assert!(just_run_at_start(true, &previous));
        assert!(!just_run_at_start(false, &previous));
    }

    #[test]
    fn escape_dice_only_while_moving() {
        assert!(escape_dice_due(true, &settings()));
        assert!(!escape_dice_due(false, &settings()));
        assert!(escape_dice_due(false, &PrisonersSettings { dice_when_halted: true, ..settings() }));
    }

    #[test]
    fn running_with_bound_hands() {
        assert_eq!(running_move_in(6.0, true), 9.0);
        assert_eq!(running_move_in(5.0, true), 7.0);
        assert_eq!(running_move_in(6.0, false), 12.0);
        assert_eq!(running_move_in(1.5, true), 0.0);
        assert_eq!(running_move_in(1.0, true), 0.0);
        assert_eq!(running_move_in(0.0, false), 0.0);
    }

    // ---- bonds ----

    #[test]
    fn who_works_bonds() {
        let bound = BondsState { bonds: Bonds::ALL, ..BondsState::default() };
        for rank in [PrisonerRank::Leader, PrisonerRank::Officer, PrisonerRank::Independent] {
            assert!(may_work_bonds(rank, &bound, true), "{}", rank.id());
            assert!(!may_work_bonds(rank, &bound, false), "{}: supervised", rank.id());
        }
        assert!(!may_work_bonds(PrisonerRank::Follower, &bound, true));
        let free_hands = BondsState { bonds: Bonds { hands: false, ..Bonds::ALL }, ..bound };
        assert!(!may_work_bonds(PrisonerRank::Leader, &free_hands, true));
        let given_up = BondsState { given_up: true, ..bound };
        assert!(!may_work_bonds(PrisonerRank::Leader, &given_up, true));
        // No roll when he may not.
        let mut src = ScriptedDice::faces(Vec::<u32>::new());
        let (state, roll) = work_bonds(PrisonerRank::Follower, bound, true, &settings(), &mut src);
        assert_eq!((state, roll), (bound, None));
    }

    #[test]
    fn bonds_band_edges() {
        assert_eq!(bonds_band(13), BondsOutcome::Free);
        assert_eq!(bonds_band(11), BondsOutcome::Free);
        assert_eq!(bonds_band(10), BondsOutcome::Loosened);
        assert_eq!(bonds_band(8), BondsOutcome::Loosened);
        assert_eq!(bonds_band(7), BondsOutcome::StillBound);
        assert_eq!(bonds_band(1), BondsOutcome::StillBound);
        assert_eq!(bonds_band(0), BondsOutcome::GivesUp);
        assert_eq!(bonds_band(-1), BondsOutcome::GivesUp);
    }

    #[test]
    fn bonds_roll_adds_each_loosening() {
        let r = resolve_bonds(0, &mut ScriptedDice::faces([0]));
        assert_eq!((r.roll.total, r.outcome), (0, BondsOutcome::GivesUp));
        assert!(r.roll.modifiers.is_empty());
        let r = resolve_bonds(0, &mut ScriptedDice::faces([1]));
        assert_eq!(r.outcome, BondsOutcome::StillBound);
        let r = resolve_bonds(0, &mut ScriptedDice::faces([7]));
        assert_eq!(r.outcome, BondsOutcome::StillBound);
        let r = resolve_bonds(0, &mut ScriptedDice::faces([8]));
        assert_eq!(r.outcome, BondsOutcome::Loosened);
        let r = resolve_bonds(0, &mut ScriptedDice::faces([9]));
        assert_eq!(r.outcome, BondsOutcome::Loosened);
        let r = resolve_bonds(1, &mut ScriptedDice::faces([9]));
        assert_eq!((mods(&r.roll), r.roll.total, r.outcome), (vec![("one loosening", 1)], 10, BondsOutcome::Loosened));
        let r = resolve_bonds(2, &mut ScriptedDice::faces([8]));
        assert_eq!((r.roll.total, r.outcome), (10, BondsOutcome::Loosened));
        let r = resolve_bonds(2, &mut ScriptedDice::faces([9]));
        assert_eq!((mods(&r.roll), r.roll.total, r.outcome), (vec![("2 loosenings", 2)], 11, BondsOutcome::Free));
        // With a loosening a 0 is 1: never gives up again.
        let r = resolve_bonds(1, &mut ScriptedDice::faces([0]));
        assert_eq!((r.roll.total, r.outcome), (1, BondsOutcome::StillBound));
    }

    #[test]
    fn working_bonds_move_by_move() {
        let s = settings();
        let start = BondsState { bonds: Bonds::ALL, ..BondsState::default() };
        let (st, r) = work_bonds(PrisonerRank::Officer, start, true, &s, &mut ScriptedDice::faces([8]));
        assert_eq!(r.map(|r| r.outcome), Some(BondsOutcome::Loosened));
        assert_eq!(st.loosenings, 1);
        let (st, r) = work_bonds(PrisonerRank::Officer, st, true, &s, &mut ScriptedDice::faces([5]));
        assert_eq!(r.map(|r| r.outcome), Some(BondsOutcome::StillBound));
        assert_eq!(st.loosenings, 1);
        let (st, _) = work_bonds(PrisonerRank::Officer, st, true, &s, &mut ScriptedDice::faces([9]));
        assert_eq!(st.loosenings, 2);
        let (st, r) = work_bonds(PrisonerRank::Officer, st, true, &s, &mut ScriptedDice::faces([9]));
        assert_eq!(r.map(|r| r.outcome), Some(BondsOutcome::Free));
        assert_eq!(st.bonds, Bonds { hands: false, feet: true, gag: true });
        assert_eq!(st.loosenings, 0);
        // Free hands: no more bonds rolls.
        let (st2, r) = work_bonds(PrisonerRank::Officer, st, true, &s, &mut ScriptedDice::faces(Vec::<u32>::new()));
        assert_eq!((st2, r), (st, None));
        // Giving up: for good by default, for the move under the other reading.
        let (st, r) = work_bonds(PrisonerRank::Leader, start, true, &s, &mut ScriptedDice::faces([0]));
        assert_eq!(r.map(|r| r.outcome), Some(BondsOutcome::GivesUp));
        assert!(st.given_up);
        assert!(!may_work_bonds(PrisonerRank::Leader, &st, true));
        let retry = PrisonersSettings { gives_up_for_good: false, ..settings() };
        let (st, _) = work_bonds(PrisonerRank::Leader, start, true, &retry, &mut ScriptedDice::faces([0]));
        assert!(!st.given_up);
        assert!(may_work_bonds(PrisonerRank::Leader, &st, true));
    }

    #[test]
    fn one_binding_undone_a_round_once_hands_are_free() {
        let (b, undone) = undo_binding_round(Bonds::ALL, UndoOrder::FeetFirst);
        assert_eq!((b, undone), (Bonds::ALL, None));
        let free_hands = Bonds { hands: false, ..Bonds::ALL };
        let (b, undone) = undo_binding_round(free_hands, UndoOrder::FeetFirst);
        assert_eq!(undone, Some(Binding::Feet));
        let (b, undone) = undo_binding_round(b, UndoOrder::FeetFirst);
        assert_eq!(undone, Some(Binding::Gag));
        assert_eq!(b, Bonds::NONE);
        assert_eq!(undo_binding_round(b, UndoOrder::FeetFirst), (Bonds::NONE, None));
        let (b, undone) = undo_binding_round(free_hands, UndoOrder::GagFirst);
        assert_eq!(undone, Some(Binding::Gag));
        assert_eq!(undo_binding_round(b, UndoOrder::GagFirst).1, Some(Binding::Feet));
        let gag_only = Bonds { gag: true, ..Bonds::NONE };
        assert_eq!(undo_binding_round(gag_only, UndoOrder::FeetFirst), (Bonds::NONE, Some(Binding::Gag)));
    }

    // ---- catching and the struggle ----

    #[test]
    fn chase_band_edges() {
        assert_eq!(chase_band(9.0), ChaseOutcome::CaughtKnockedDown);
        assert_eq!(chase_band(5.0), ChaseOutcome::CaughtKnockedDown);
        assert_eq!(chase_band(4.5), ChaseOutcome::Caught);
        assert_eq!(chase_band(4.0), ChaseOutcome::Caught);
        assert_eq!(chase_band(3.0), ChaseOutcome::Caught);
        assert_eq!(chase_band(2.5), ChaseOutcome::StillInvolved);
        assert_eq!(chase_band(2.0), ChaseOutcome::StillInvolved);
        assert_eq!(chase_band(0.0), ChaseOutcome::StillInvolved);
        assert_eq!(chase_band(-0.5), ChaseOutcome::FugitiveClear);
        assert_eq!(chase_band(-1.0), ChaseOutcome::FugitiveClear);
        assert_eq!(chase_band(-9.0), ChaseOutcome::FugitiveClear);
    }

    /// 001 "Lay an evil eye Curse": in a contest each side takes its own figure's −1; a bonds
    /// roll is read again by [`bonds_band`] and [`bonds_after`]; an escape roll takes it only
    /// when every prisoner still there is cursed.
    #[test]
    fn the_evil_eye_takes_one_off_its_own_figures_rolls() {
        let s = settings();
        let (g, f) = (Pursuer::default(), Fugitive::default());
        let (cursed_g, cursed_f) = (Pursuer { evil_eye: true, ..g }, Fugitive { evil_eye: true, ..f });
        // Catch: guard 3 against 0, "+3 F caught"; the guard cursed, +2 "still involved".
        let catch =
            |g: &Pursuer, f: &Fugitive| resolve_catch_round(0.0, g, None, f, &s, &mut ScriptedDice::faces([3, 0]));
        assert_eq!(catch(&g, &f).outcome, ChaseOutcome::Caught);
        let r = catch(&cursed_g, &f);
        assert_eq!(r.outcome, ChaseOutcome::StillInvolved);
        let c = r.contest.expect("within reach");
        assert_eq!(mods(&c.guard), vec![(crate::rules::magic::EVIL_EYE_REASON, -1)]);
        assert!(mods(&c.fugitive).is_empty());
        assert_eq!(catch(&g, &cursed_f).contest.map(|c| c.margin), Some(4.0));
        // Struggle: guard 3 against 1 − 1 for being caught, "+3 to tie hands"; cursed, +2 goes on.
        let struggle = |g: &Pursuer| resolve_struggle_round(g, None, &f, &s, &mut ScriptedDice::faces([3, 1])).outcome;
        assert_eq!(struggle(&g), StruggleOutcome::GainsControl);
        assert_eq!(struggle(&cursed_g), StruggleOutcome::StruggleGoesOn);
        // Bonds, "8+ Loosened": an 8 loosens; the same 8 cursed is 7, still bound.
        let state = BondsState { bonds: Bonds { hands: true, ..Bonds::NONE }, ..BondsState::default() };
        let (next, roll) = work_bonds(PrisonerRank::Leader, state, true, &s, &mut ScriptedDice::faces([8]));
        assert_eq!(next.loosenings, 1);
        let mut roll = roll.expect("an unsupervised leader works his bonds");
        apply_evil_eye(&mut roll.roll, true);
        assert_eq!(bonds_band(roll.roll.total), BondsOutcome::StillBound);
        assert_eq!(bonds_after(state, BondsOutcome::StillBound, &s), state);
        assert!(!bonds_after(state, BondsOutcome::Free, &s).bonds.hands);
        // Escape dice, no guard: a lone prisoner's 1 is no attempt; cursed, 0 runs off.
        let plain = [man(PrisonerRank::Follower)];
        let alone = [EscortPrisoner { evil_eye: true, ..plain[0] }];
        let r = resolve_escape_dice(&escort(&plain, 0), &first_listed(), &mut ScriptedDice::faces([1]));
        assert_eq!(r.rolls.iter().map(|e| e.outcome).collect::<Vec<_>>(), [EscapeOutcome::NoAttempt]);
        let r = resolve_escape_dice(&escort(&alone, 0), &first_listed(), &mut ScriptedDice::faces([1]));
        assert_eq!(
            r.rolls.iter().map(|e| (e.roll.total, e.outcome)).collect::<Vec<_>>(),
            [(0, EscapeOutcome::RunsOff)]
        );
        // One cursed among two: the roll is no one's in particular, so no curse.
        let mixed = [alone[0], plain[0]];
        let r = resolve_escape_dice(&escort(&mixed, 0), &first_listed(), &mut ScriptedDice::faces([1, 1]));
        assert!(r.rolls.iter().all(|e| e.roll.total == 1 && e.outcome == EscapeOutcome::NoAttempt), "{r:?}");
    }

    #[test]
    fn catch_only_within_one_inch() {
        let g = Pursuer::default();
        let f = Fugitive::default();
        let mut none = ScriptedDice::faces(Vec::<u32>::new());
        for d in [1.01, 6.0, f32::NAN, f32::INFINITY] {
            let r = resolve_catch_round(d, &g, None, &f, &settings(), &mut none);
            assert_eq!((r.outcome, r.contest.is_none(), r.clear_in), (ChaseOutcome::OutOfReach, true, 0.0), "{d}");
        }
        assert!(within_catch_reach(1.0));
        assert!(within_catch_reach(0.0));
        assert!(!within_catch_reach(1.01));
        let r = resolve_catch_round(1.0, &g, None, &f, &settings(), &mut ScriptedDice::faces([4, 4]));
        assert_eq!(r.outcome, ChaseOutcome::StillInvolved);
    }

    #[test]
    fn catch_every_factor() {
        let s = settings();
        let g = Pursuer { melee_factor: 2, whip: true, down: true, evil_eye: false };
        let f = Fugitive { melee_factor: -1, hands_bound: true, down: true, evil_eye: false };
        let r = resolve_catch_round(0.5, &g, None, &f, &s, &mut ScriptedDice::faces([5, 6]));
        let c = r.contest.expect("within reach");
        assert_eq!(mods(&c.guard), vec![("basic Me factor", 2), ("using whip", 2), ("down", -2)]);
        assert_eq!(c.guard.total, 7);
        assert_eq!(mods(&c.fugitive), vec![("basic Me factor", -1), ("hands bound", -2), ("down", -2)]);
        assert_eq!(c.fugitive.total, 1);
        assert_eq!((c.guard_score, c.margin, c.helper_bonus), (7.0, 6.0, 0));
        assert!(c.helper.is_none());
        assert_eq!(r.outcome, ChaseOutcome::CaughtKnockedDown);
        assert_eq!(c.rolls().len(), 2);
        // No "for being caught" in the catch itself.
        assert!(!mods(&c.fugitive).iter().any(|(reason, _)| *reason == "for being caught"));
    }

    #[test]
    fn catch_rows_through_the_dice() {
        let s = settings();
        let g = Pursuer::default();
        let f = Fugitive::default();
        let round = |gf: u32, ff: u32| resolve_catch_round(0.0, &g, None, &f, &s, &mut ScriptedDice::faces([gf, ff]));
        assert_eq!(round(5, 0).outcome, ChaseOutcome::CaughtKnockedDown);
        assert_eq!(round(9, 4).outcome, ChaseOutcome::CaughtKnockedDown);
        assert_eq!(round(8, 4).outcome, ChaseOutcome::Caught);
        assert_eq!(round(3, 0).outcome, ChaseOutcome::Caught);
        assert_eq!(round(2, 0).outcome, ChaseOutcome::StillInvolved);
        assert_eq!(round(4, 4).outcome, ChaseOutcome::StillInvolved);
        let r = round(4, 5);
        assert_eq!((r.outcome, r.clear_in), (ChaseOutcome::FugitiveClear, 1.0));
        let r = round(0, 9);
        assert_eq!((r.outcome, r.clear_in), (ChaseOutcome::FugitiveClear, 9.0));
        assert_eq!(round(5, 0).clear_in, 0.0);
    }

    #[test]
    fn a_second_person_by_reading() {
        let g = Pursuer::default();
        let h = Pursuer { melee_factor: 1, ..Pursuer::default() };
        let f = Fugitive::default();
        // In the catch the helper is ignored by default: he rolls nothing.
        let mut src = ScriptedDice::faces([3, 3]);
        let r = resolve_catch_round(0.5, &g, Some(&h), &f, &settings(), &mut src);
        let c = r.contest.expect("within reach");
        assert!(c.helper.is_none());
        assert_eq!(r.outcome, ChaseOutcome::StillInvolved);
        assert!(src.is_empty());
        // Under the other reading he aids: mean of 3 and 4 + 3 = 6.5 against 3: +3.5, caught.
        let helps = PrisonersSettings { second_person_helps_catch: true, ..settings() };
        let r = resolve_catch_round(0.5, &g, Some(&h), &f, &helps, &mut ScriptedDice::faces([3, 3, 3]));
        let c = r.contest.expect("within reach");
        assert_eq!(c.helper.as_ref().map(|h| h.total), Some(4));
        assert_eq!((c.helper_bonus, c.guard_score, c.margin), (3, 6.5, 3.5));
        assert_eq!(r.outcome, ChaseOutcome::Caught);
        assert_eq!(c.rolls().len(), 3);
    }

    #[test]
    fn mean_and_add_three() {
        assert_eq!(aided_score(3, 4, MeanRounding::Exact), 6.5);
        assert_eq!(aided_score(3, 4, MeanRounding::Down), 6.0);
        assert_eq!(aided_score(3, 4, MeanRounding::Up), 7.0);
        assert_eq!(aided_score(4, 4, MeanRounding::Exact), 7.0);
        assert_eq!(aided_score(4, 4, MeanRounding::Down), 7.0);
        assert_eq!(aided_score(4, 4, MeanRounding::Up), 7.0);
        assert_eq!(aided_score(-3, 0, MeanRounding::Down), 1.0);
        assert_eq!(aided_score(-3, 0, MeanRounding::Up), 2.0);
        assert_eq!(aided_score(-3, 0, MeanRounding::Exact), 1.5);
    }

    #[test]
    fn struggle_band_edges() {
        let s = settings();
        assert_eq!(struggle_band(7.0, &s), StruggleOutcome::GainsControl);
        assert_eq!(struggle_band(3.0, &s), StruggleOutcome::GainsControl);
        assert_eq!(struggle_band(2.5, &s), StruggleOutcome::StruggleGoesOn);
        assert_eq!(struggle_band(0.0, &s), StruggleOutcome::StruggleGoesOn);
        assert_eq!(struggle_band(-4.0, &s), StruggleOutcome::StruggleGoesOn);
        let clear = PrisonersSettings { struggle_minus_breaks_clear: true, ..settings() };
        assert_eq!(struggle_band(3.0, &clear), StruggleOutcome::GainsControl);
        assert_eq!(struggle_band(0.0, &clear), StruggleOutcome::StruggleGoesOn);
        assert_eq!(struggle_band(-0.5, &clear), StruggleOutcome::BreaksClear);
        assert_eq!(struggle_band(-4.0, &clear), StruggleOutcome::BreaksClear);
    }

    #[test]
    fn struggle_rounds() {
        let s = settings();
        let g = Pursuer::default();
        let f = Fugitive::default();
        // The fugitive −1 for being caught: 3 against 1 − 1 = 0 is +3, control.
        let r = resolve_struggle_round(&g, None, &f, &s, &mut ScriptedDice::faces([3, 1]));
        assert_eq!(mods(&r.contest.fugitive), vec![("for being caught", -1)]);
        assert_eq!((r.contest.margin, r.outcome), (3.0, StruggleOutcome::GainsControl));
        let r = resolve_struggle_round(&g, None, &f, &s, &mut ScriptedDice::faces([2, 1]));
        assert_eq!((r.contest.margin, r.outcome), (2.0, StruggleOutcome::StruggleGoesOn));
        let r = resolve_struggle_round(&g, None, &f, &s, &mut ScriptedDice::faces([0, 9]));
        assert_eq!((r.contest.margin, r.outcome, r.clear_in), (-8.0, StruggleOutcome::StruggleGoesOn, 0.0));
        let clear = PrisonersSettings { struggle_minus_breaks_clear: true, ..settings() };
        let r = resolve_struggle_round(&g, None, &f, &clear, &mut ScriptedDice::faces([0, 9]));
        assert_eq!((r.outcome, r.clear_in), (StruggleOutcome::BreaksClear, 8.0));
        // A second person always counts in the struggle: mean of 0 and 1 + 3 = 3.5 against 1 − 1 = 0.
        let r = resolve_struggle_round(&g, Some(&g), &f, &s, &mut ScriptedDice::faces([0, 1, 1]));
        assert_eq!((r.contest.guard_score, r.contest.margin), (3.5, 3.5));
        assert_eq!(r.outcome, StruggleOutcome::GainsControl);
        // Mean rounded down: 3 against 0 is still control; against 1 it is not.
        let down = PrisonersSettings { mean_rounding: MeanRounding::Down, ..settings() };
        let r = resolve_struggle_round(&g, Some(&g), &f, &down, &mut ScriptedDice::faces([0, 1, 2]));
        assert_eq!((r.contest.guard_score, r.contest.margin), (3.0, 2.0));
        assert_eq!(r.outcome, StruggleOutcome::StruggleGoesOn);
        assert_eq!(r.rolls().len(), 3);
    }

    #[test]
    fn knocked_down_fugitive_by_reading() {
        let s = settings();
        assert!(!down_in_struggle(false, 0, &s));
        assert!(down_in_struggle(true, 0, &s));
        assert!(down_in_struggle(true, 5, &s));
        let once = PrisonersSettings { knocked_down_stays_down: false, ..settings() };
        assert!(down_in_struggle(true, 0, &once));
        assert!(!down_in_struggle(true, 1, &once));
    }

    // ---- berserking ----

    fn berserker(state: BerserkState, fatigue: u32, enemies: &[f32]) -> Berserker<'_> {
        Berserker { state, trained: true, begin_rage: false, fatigue, exhaustion_point: 5, enemy_distances_in: enemies }
    }

    #[test]
    fn building_a_rage_takes_a_move_and_a_fatigue_point() {
        let s = settings();
        let calm = berserker(BerserkState::Calm, 0, &[3.0]);
        let m = berserk_move(&calm, &s);
        assert_eq!((m.outcome, m.state, m.fatigue_cost), (BerserkOutcome::StaysCalm, BerserkState::Calm, 0));
        let m = berserk_move(&Berserker { begin_rage: true, ..calm }, &s);
        assert_eq!(m.outcome, BerserkOutcome::BuildsRage);
        assert_eq!(m.state, BerserkState::Raging);
        assert_eq!(m.fatigue_cost, RAGE_BUILDING_FATIGUE);
        assert_eq!((m.melee_bonus, m.ignores_orders_and_morale, m.target), (0, false, None));
        // Untrained: no rage.
        let m = berserk_move(&Berserker { begin_rage: true, trained: false, ..calm }, &s);
        assert_eq!(m.outcome, BerserkOutcome::StaysCalm);
        assert_eq!(RAGE_BUILDING_MOVES, 1);
    }

    #[test]
    fn a_raging_berserker_charges_the_nearest_within_twelve_inches() {
        let s = settings();
        let enemies = [13.0, 12.0, f32::NAN, 12.5];
        let m = berserk_move(&berserker(BerserkState::Raging, 1, &enemies), &s);
        assert_eq!((m.outcome, m.target), (BerserkOutcome::Charges, Some(1)));
        assert_eq!((m.melee_bonus, m.ignores_orders_and_morale, m.fatigue_cost), (2, true, 0));
        assert_eq!(m.state, BerserkState::Raging);
        assert_eq!(berserk_target(&[8.0, 3.0, 3.0, 11.0]), Some(1));
        assert_eq!(berserk_target(&[12.01]), None);
        assert_eq!(berserk_target(&[]), None);
        assert_eq!(berserk_target(&[0.0]), Some(0));
        let costly = PrisonersSettings { rage_fatigue_per_move: 1, ..settings() };
        assert_eq!(berserk_move(&berserker(BerserkState::Raging, 1, &enemies), &costly).fatigue_cost, 1);
    }

    #[test]
    fn no_enemy_within_reach_by_reading() {
        let far = [12.1];
        let m = berserk_move(&berserker(BerserkState::Raging, 1, &far), &settings());
        assert_eq!((m.outcome, m.state, m.target), (BerserkOutcome::RagesWithoutEnemy, BerserkState::Raging, None));
        assert_eq!((m.melee_bonus, m.ignores_orders_and_morale), (2, true));
        let calms = PrisonersSettings { berserk_without_enemy: BerserkWithoutEnemy::CalmsDown, ..settings() };
        let m = berserk_move(&berserker(BerserkState::Raging, 1, &far), &calms);
        assert_eq!((m.outcome, m.state, m.melee_bonus), (BerserkOutcome::CalmsDown, BerserkState::Calm, 0));
    }

    #[test]
    fn he_rages_until_he_collapses_exhausted() {
        let s = settings();
        let near = [2.0];
        let m = berserk_move(&berserker(BerserkState::Raging, 4, &near), &s);
        assert_eq!(m.outcome, BerserkOutcome::Charges);
        let m = berserk_move(&berserker(BerserkState::Raging, 5, &near), &s);
        assert_eq!((m.outcome, m.state), (BerserkOutcome::CollapsesExhausted, BerserkState::Collapsed));
        assert_eq!((m.melee_bonus, m.target, m.ignores_orders_and_morale), (0, None, false));
        let m = berserk_move(&berserker(BerserkState::Collapsed, 5, &near), &s);
        assert_eq!((m.outcome, m.state), (BerserkOutcome::Exhausted, BerserkState::Collapsed));
        // A whole rage: build (1), then charge while he runs (1 a move), collapse at 5.
        let mut b = Berserker { begin_rage: true, ..berserker(BerserkState::Calm, 0, &near) };
        let mut outcomes = Vec::new();
        for _ in 0..7 {
            let m = berserk_move(&b, &s);
            outcomes.push(m.outcome);
            let ran = u32::from(m.outcome == BerserkOutcome::Charges) * RUNNING_FATIGUE_PER_MOVE;
            b = Berserker { state: m.state, fatigue: b.fatigue + m.fatigue_cost + ran, begin_rage: false, ..b };
        }
        use BerserkOutcome::*;
        assert_eq!(outcomes, [BuildsRage, Charges, Charges, Charges, Charges, CollapsesExhausted, Exhausted]);
    }

    // ---- settings, ids, rolls ----

    #[test]
    fn settings_round_trip_and_defaults() {
        let s = settings();
        let text = serde_json::to_string(&s).unwrap();
        let back: PrisonersSettings = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
        let empty: PrisonersSettings = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, s);
        let shared: PrisonersSettings = serde_json::from_str(r#"{"mixed_escort":"shared_guards"}"#).unwrap();
        assert_eq!(shared.mixed_escort, MixedEscort::SharedGuards);
        assert!(serde_json::from_str::<PrisonersSettings>(r#"{"no_such":1}"#).is_err());
    }

    #[test]
    fn rank_factors_and_outcome_meanings() {
        assert_eq!(PrisonerRank::ALL.map(|r| r.present_factor()), [-3, -2, -1, 0]);
        assert_eq!(PrisonerRank::ALL.map(|r| r.works_bonds()), [true, true, true, false]);
        assert_eq!(PrisonerRank::ALL.map(|r| r.seniority()), [0, 1, 2, 3]);
        assert_eq!(Outcome::id(EscapeOutcome::RunsOff), "runs_off");
        assert_eq!(Outcome::meaning(ChaseOutcome::Caught), Meaning::NONE);
    }

    // ---- statistics ----

    /// P(D10 + f ≤ 0): a Morval D10 shows 0–9.
    fn p_runs(f: i32) -> f64 {
        f64::from((1 - f).clamp(0, 10)) / 10.0
    }

    /// The number of runaways in one move, worked out from the text for prisoners listed most
    /// senior first (so the highest-ranked present are a suffix `ranks[k..]`), under the
    /// extra-roll reading: each excess prisoner's dice go on after each runaway.
    fn runaways_from_text(ranks: &[PrisonerRank], excess: u32, blocked: i32, extra_roll: bool) -> Vec<f64> {
        fn go(
            ranks: &[PrisonerRank],
            k: usize,
            slots: u32,
            ran: bool,
            blocked: i32,
            extra: bool,
            p: f64,
            out: &mut [f64],
        ) {
            let runs = k;
            if slots == 0 || k == ranks.len() {
                out[runs] += p;
                return;
            }
            let mut f = blocked;
            for rank in [PrisonerRank::Independent, PrisonerRank::Officer, PrisonerRank::Leader] {
                if ranks[k..].contains(&rank) {
                    f += rank.present_factor();
                }
            }
            if ran {
                f -= 1;
            }
            let pr = p_runs(f);
            if pr > 0.0 {
                let slots_after = if extra { slots } else { slots - 1 };
                go(ranks, k + 1, slots_after, true, blocked, extra, p * pr, out);
            }
            if pr < 1.0 {
                go(ranks, k, slots - 1, ran, blocked, extra, p * (1.0 - pr), out);
            }
        }
        let mut out = vec![0.0; ranks.len() + 1];
        go(ranks, 0, excess, false, blocked, extra_roll, 1.0, &mut out);
        out
    }

    #[test]
    fn escape_runaways_match_the_text() {
        use PrisonerRank::*;
        let configs: [(&[PrisonerRank], u32, u8, DiceAgain); 3] = [
            // Five men, one guard: two in excess; a leader and an independent among them.
            (&[Leader, Independent, Follower, Follower, Follower], 1, 0, DiceAgain::ExtraRoll),
            // An officer and four followers beside a river.
            (&[Officer, Follower, Follower, Follower, Follower], 1, 1, DiceAgain::ExtraRoll),
            (&[Leader, Independent, Follower, Follower, Follower], 1, 0, DiceAgain::OncePerExcess),
        ];
        let mut src = SeededDice::new(19_000);
        let trials = 20_000;
        for (ranks, guards, blocked, dice_again) in configs {
            let prisoners: Vec<EscortPrisoner> = ranks.iter().map(|&r| man(r)).collect();
            let e = Escort { sides_blocked: blocked, ..escort(&prisoners, guards) };
            let s = PrisonersSettings { runner: RunnerChoice::HighestRank, dice_again, ..settings() };
            let excess = escort_security(5, 0, guards, 0, MixedEscort::SeparateGuards).excess;
            assert_eq!(excess, 2);
            let exact = runaways_from_text(ranks, excess, i32::from(blocked), dice_again == DiceAgain::ExtraRoll);
            // 0, 1, 2, 3 or more runaways.
            let expected = [exact[0], exact[1], exact[2], exact[3..].iter().sum::<f64>()];
            let mut observed = [0u32; 4];
            for _ in 0..trials {
                let m = resolve_escape_dice(&e, &s, &mut src);
                observed[m.runners().len().min(3)] += 1;
            }
            let chi = chi_square(&observed, &expected);
            assert!(chi < CHI_SQUARE_3_DF_999, "{ranks:?}: chi-square {chi}, {observed:?} vs {expected:?}");
        }
    }

    #[test]
    fn a_random_runner_is_any_prisoner() {
        let prisoners = [man(PrisonerRank::Follower); 4];
        let e = Escort { just_run: true, ..escort(&prisoners, 1) };
        let s = settings();
        let mut src = SeededDice::new(23);
        let mut first = [0u32; 4];
        let mut moves_with_runs = 0u32;
        for _ in 0..20_000 {
            let m = resolve_escape_dice(&e, &s, &mut src);
            if let Some(&i) = m.runners().first() {
                first[i] += 1;
                moves_with_runs += 1;
            }
        }
        // One in excess at −1: runs on a 0 or 1, 20%.
        let chi = chi_square(&[moves_with_runs, 20_000 - moves_with_runs], &[0.2, 0.8]);
        assert!(chi < CHI_SQUARE_1_DF_999, "runs {moves_with_runs}");
        let chi = chi_square(&first, &[0.25; 4]);
        assert!(chi < CHI_SQUARE_3_DF_999, "first runners {first:?}");
    }

    #[test]
    fn bonds_frequencies_match_the_text() {
        let mut src = SeededDice::new(8);
        let trials = 12_000;
        for loosenings in [0u32, 1, 2, 3] {
            let mut expected = [0.0f64; 4];
            for face in 0..10 {
                let total = face + loosenings as i32;
                let band = if total >= 11 {
                    0
                } else if total >= 8 {
                    1
                } else if total >= 1 {
                    2
                } else {
                    3
                };
                expected[band] += 0.1;
            }
            let mut observed = [0u32; 4];
            for _ in 0..trials {
                let i = match resolve_bonds(loosenings, &mut src).outcome {
                    BondsOutcome::Free => 0,
                    BondsOutcome::Loosened => 1,
                    BondsOutcome::StillBound => 2,
                    BondsOutcome::GivesUp => 3,
                };
                observed[i] += 1;
            }
            let chi = chi_square(&observed, &expected);
            assert!(chi < CHI_SQUARE_3_DF_999, "{loosenings}: {observed:?} vs {expected:?}");
        }
    }

    #[test]
    fn catch_frequencies_match_the_text() {
        // A guard with Me +1 and a whip (+3 in all) after a bound fugitive (Me 0, −2).
        let g = Pursuer { melee_factor: 1, whip: true, down: false, evil_eye: false };
        let f = Fugitive { hands_bound: true, ..Fugitive::default() };
        let mut expected = [0.0f64; 4];
        let mut clear = [0.0f64; 10];
        for gf in 0..10 {
            for ff in 0..10 {
                let margin = (gf + 3) - (ff - 2);
                let band = if margin >= 5 {
                    0
                } else if margin >= 3 {
                    1
                } else if margin >= 0 {
                    2
                } else {
                    clear[(-margin) as usize] += 0.01;
                    3
                };
                expected[band] += 0.01;
            }
        }
        let mut src = SeededDice::new(335);
        let mut observed = [0u32; 4];
        let mut clear_seen = [0u32; 10];
        for _ in 0..20_000 {
            let r = resolve_catch_round(0.5, &g, None, &f, &settings(), &mut src);
            let i = match r.outcome {
                ChaseOutcome::CaughtKnockedDown => 0,
                ChaseOutcome::Caught => 1,
                ChaseOutcome::StillInvolved => 2,
                ChaseOutcome::FugitiveClear => {
                    clear_seen[r.clear_in as usize] += 1;
                    3
                }
                ChaseOutcome::OutOfReach => unreachable!("within reach"),
            };
            observed[i] += 1;
        }
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI_SQUARE_3_DF_999, "{observed:?} vs {expected:?}");
        // Inches clear: 1 to 4 only (the fugitive's best, 9 − 2 = 7, against the guard's worst, 0 + 3).
        let total: f64 = clear.iter().sum();
        let clear_p: Vec<f64> = clear.iter().map(|p| if total > 0.0 { p / total } else { 0.0 }).collect();
        let seen: u32 = clear_seen.iter().sum();
        assert!(seen > 0);
        let kept: Vec<usize> = (0..10).filter(|&i| clear_p[i] > 0.0 || clear_seen[i] > 0).collect();
        assert_eq!(kept, vec![1, 2, 3, 4]);
        let obs: Vec<u32> = kept.iter().map(|&i| clear_seen[i]).collect();
        let exp: Vec<f64> = kept.iter().map(|&i| clear_p[i]).collect();
        let chi = chi_square(obs.as_slice(), exp.as_slice());
        assert!(chi < CHI_SQUARE_3_DF_999, "clear {clear_seen:?} vs {clear_p:?}");
    }

    #[test]
    fn struggle_with_a_second_person_matches_the_text() {
        // Guard and helper (Me 0) against a fugitive with Me +2, −1 for being caught: exact mean + 3.
        let g = Pursuer::default();
        let f = Fugitive { melee_factor: 2, ..Fugitive::default() };
        let s = PrisonersSettings { struggle_minus_breaks_clear: true, ..settings() };
        let mut expected = [0.0f64; 3];
        for a in 0..10 {
            for b in 0..10 {
                for c in 0..10 {
                    let margin = f64::from(a + b) / 2.0 + 3.0 - f64::from(c + 2 - 1);
                    let band = if margin >= 3.0 {
                        0
                    } else if margin >= 0.0 {
                        1
                    } else {
                        2
                    };
                    expected[band] += 0.001;
                }
            }
        }
        let mut src = SeededDice::new(339);
        let mut observed = [0u32; 3];
        for _ in 0..20_000 {
            let r = resolve_struggle_round(&g, Some(&g), &f, &s, &mut src);
            let i = match r.outcome {
                StruggleOutcome::GainsControl => 0,
                StruggleOutcome::StruggleGoesOn => 1,
                StruggleOutcome::BreaksClear => 2,
            };
            observed[i] += 1;
        }
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI_SQUARE_2_DF_999, "{observed:?} vs {expected:?}");
    }
}
