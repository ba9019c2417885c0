//! Days of rest off the table (`tabula rest`, docs/injuries.md "Rest"): injuries are located,
//! the left for dead live or die, wounds heal, fester or kill, day by day, with the treatment
//! the scene orders; every roll is logged as the moves' rolls are.
//!
//! Rest is a plain function over the [`Scene`]: nothing moves on the table while the days pass,
//! so no ECS world is built. Figures are visited in scene order, each figure's conditions in
//! list order, day by day. The days are the scene's own: a day is `rules.moves_per_day` moves,
//! and the clock (`clock.moves_played`) moves on by that many moves a day, never past
//! [`MAX_MOVES_PLAYED`](crate::scene::load::MAX_MOVES_PLAYED).

use super::clock::{ClockFull, MoveClock, move_seed, moves_after};
use super::log::{EventLog, LogEvent, LoggedCondition};
use super::outcome::RestOutcome;
use crate::rules::dice::{Rolls, SeededDice};
use crate::rules::injuries::{
    self, ApparentDeathCause, ApparentDeathText, ApparentlyDeadReport, DayOutcome, HealingStage, HealingState,
    InjurySettings, LocationTable, OutOfAction, PenaltySchedule, Recoverability, SagaRecovery, WoundKind,
    WoundRecovery,
};
use crate::scene::injuries::{Treatment, bound_healing, day_treatment};
use crate::scene::load::{MAX_CONDITIONS, MAX_MOVE_PENALTY};
use crate::scene::{Condition, ConditionKind, Figure, Scene};
use std::collections::HashMap;

/// Most days one rest may pass (`tabula rest --days`): ten years. The clock must also have room
/// for them ([`MAX_MOVES_PLAYED`](crate::scene::load::MAX_MOVES_PLAYED)).
pub const MAX_REST_DAYS: u32 = 3650;

/// Mixed into the run seed for the days' dice, so that a day never rolls what a move of the
/// same number rolls.
const REST_SEED_SALT: u64 = 0x7265_7374_5f64_6179;

/// The dice seed of the day of rest that ends at move `move_number` of a rest with `seed`: each
/// day has its own dice, so resting on from a rested scene never rolls a day's dice again.
pub fn day_seed(seed: u64, move_number: u32) -> u64 {
    move_seed(seed ^ REST_SEED_SALT, move_number)
}

/// What a rest left: its event log and the scene after the last day.
#[derive(Debug, Clone)]
pub struct RestRun {
    /// Every event of the rest, day by day.
    pub log: EventLog,
    /// The scene after the last day (what `tabula rest --final` writes).
    pub end: Scene,
}

/// Why the days cannot be rested.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RestError {
    /// The days asked for are not 1 to [`MAX_REST_DAYS`].
    #[error("{0} days: a rest is 1 to {MAX_REST_DAYS} days")]
    Days(u32),
    /// The days would take the clock past the most moves a scene may play.
    #[error(transparent)]
    ClockFull(#[from] ClockFull),
}

/// Rest `scene` for `days` days with the dice seeded from `seed`: every figure's injuries, in
/// scene order, day by day (docs/injuries.md "Rest").
///
/// On the first day each condition that has no healing state yet and is one the rules roll
/// for gets one: wounds, cripplings, burns and cripple burns are located on the scene's tables
/// (or reported "no location table supplied" and left as they are), 001's recoveries roll
/// their days, the unconscious how long, and the left for dead (fire's apparently dead, one
/// left for dead, and by the house rule `injuries.out_of_action` a Khemri model out of action)
/// live or die by the text `rules.injuries.apparent_death_text` chooses. Then, every day,
/// each healing injury advances a day ([`injuries::advance_day`]) with the day's treatment
/// from the scene's orders, and conditions counted in moves count down `moves_per_day` moves.
/// A death makes the condition `dead` and ends the figure's days; a healed injury is removed,
/// unless festering left losses for life, when it stays, healed, with them.
///
/// The same scene, days and seed always give the same log and scene.
pub fn rest(scene: &Scene, days: u32, seed: u64) -> Result<RestRun, RestError> {
    if !(1..=MAX_REST_DAYS).contains(&days) {
        return Err(RestError::Days(days));
    }
    let per_day = scene.rules.moves_per_day.max(1);
    let start = scene.clock.moves_played;
    let moves = days.checked_mul(per_day).ok_or(ClockFull { played: start, moves: u32::MAX })?;
    let last = moves_after(start, moves)?;
    let mut end = scene.clone();
    let mut log = EventLog::default();
    let Scene { figures, treatments, location_tables, rules, .. } = &mut end;
    // Each figure's orders, by the figure's place in the scene.
    let place: HashMap<&str, usize> =
        scene.figures.iter().enumerate().rev().map(|(i, f)| (f.name.as_str(), i)).collect();
    let mut orders_of: Vec<Vec<usize>> = vec![Vec::new(); figures.len()];
    // 001 "Lay an evil eye Curse": −1 on the rolls that decide each cursed figure's recovery.
    let cursed: Vec<bool> = scene.figures.iter().map(|f| scene.magic.evil_eye_on(&f.name)).collect();
    for (k, order) in scene.treatments.iter().enumerate() {
        if let Some(&i) = place.get(order.patient.as_str()) {
            orders_of[i].push(k);
        }
    }
    for day in 1..=days {
        let clock =
            MoveClock { move_number: start + day * per_day, round: None, rounds_per_move: rules.rounds_per_move };
        let mut today = Day {
            day,
            clock,
            per_day,
            settings: rules.injuries,
            tables: location_tables.as_slice(),
            dice: SeededDice::new(day_seed(seed, clock.move_number)),
            log: &mut log,
        };
        for ((figure, mine), &cursed) in figures.iter_mut().zip(&orders_of).zip(&cursed) {
            let mut orders = Orders { all: treatments.as_mut_slice(), mine: mine.as_slice() };
            today.figure(figure, &mut orders, cursed);
        }
    }
    end.clock.moves_played = last;
    Ok(RestRun { log, end })
}

/// A figure's treatment orders, among all the scene's.
struct Orders<'a> {
    all: &'a mut [Treatment],
    mine: &'a [usize],
}

impl Orders<'_> {
    /// The day's treatment of the condition named `condition`.
    fn on(&self, condition: &str, day: u32) -> injuries::DayTreatment {
        day_treatment(self.mine.iter().filter_map(|&k| self.all.get(k)), condition, day)
    }

    /// Whether an order covering `condition` says it was treated within 3 moves.
    fn treated_within_three_moves(&self, condition: &str) -> bool {
        self.mine
            .iter()
            .filter_map(|&k| self.all.get(k))
            .any(|o| o.treated_within_three_moves && o.covers_condition(condition))
    }

    /// The condition `old` is now called `new`: orders naming it follow it.
    fn rename(&mut self, old: &str, new: &str) {
        for &k in self.mine {
            if let Some(o) = self.all.get_mut(k)
                && o.condition.as_deref() == Some(old)
            {
                o.condition = Some(new.to_string());
            }
        }
    }
}

/// One day of rest: its clock, dice and the log.
struct Day<'a> {
    /// The day, from 1.
    day: u32,
    /// The clock at the day's end: its events are stamped with it.
    clock: MoveClock,
    /// Moves in a day.
    per_day: u32,
    settings: InjurySettings,
    tables: &'a [LocationTable],
    dice: SeededDice,
    log: &'a mut EventLog,
}

/// Whether the figure is dead: nothing more is rolled or counted for it.
fn is_dead(figure: &Figure) -> bool {
    figure.conditions.iter().any(|c| c.kind == ConditionKind::Dead)
}

/// The location table a condition of `kind` is located on, and whether the blow was blunt:
/// wounds, cripplings; fire's burns are burn wounds and its crippled in agony a cripple burn
/// ([`injuries::burn_from_fire`]).
fn located_as(kind: ConditionKind) -> Option<(WoundKind, bool)> {
    match kind {
        ConditionKind::Wound => Some((WoundKind::Wound, false)),
        ConditionKind::Crippling => Some((WoundKind::Crippling, false)),
        ConditionKind::BluntCrippling => Some((WoundKind::Crippling, true)),
        ConditionKind::Burns => Some((WoundKind::Burn, false)),
        ConditionKind::Crippled => Some((WoundKind::CrippleBurn, false)),
        _ => None,
    }
}

/// 001 "Wound Recoveries": the recovery a condition of `kind` heals by.
fn recovery_of(kind: ConditionKind) -> Option<WoundRecovery> {
    match kind {
        ConditionKind::SoreWounded => Some(WoundRecovery::SoreWounded),
        ConditionKind::Wounded => Some(WoundRecovery::Wounded),
        ConditionKind::FleshWounded => Some(WoundRecovery::FleshWounded),
        _ => None,
    }
}

/// Inches off the move a healing state gives now, as a condition's `move_penalty`.
fn move_penalty_of(state: &HealingState) -> f32 {
    (-state.penalties().move_inches).clamp(0, MAX_MOVE_PENALTY as i32) as f32
}

/// Whether a healed injury leaves nothing for life (festering row 3's losses).
fn leaves_nothing(state: &HealingState) -> bool {
    state.permanent.is_none() && !state.half_fatigue
}

/// A condition of `kind` called `name`, with nothing else.
fn plain(kind: ConditionKind, name: String, immobile: bool) -> Condition {
    Condition { name, kind, move_penalty: 0.0, moves_left: None, immobile, me_and_mo: 0, healing: None }
}

/// A condition with its healing: `move_penalty` follows the healing's move deduction.
fn healing(kind: ConditionKind, name: String, immobile: bool, state: HealingState) -> Condition {
    let state = bound_healing(state);
    Condition { move_penalty: move_penalty_of(&state), healing: Some(state), ..plain(kind, name, immobile) }
}

/// The text's abbreviation for a 000 recoverability row ("AFR", "RMD", "RD", "RBD").
fn abbreviation(row: Recoverability) -> &'static str {
    match row {
        Recoverability::AlmostFullyRecoverable => "AFR",
        Recoverability::MinorDisability => "RMD",
        Recoverability::Disability => "RD",
        Recoverability::BadlyDisabled => "RBD",
        Recoverability::DeadAsFirstThought | Recoverability::DefinitelyDead => "dead",
    }
}

impl Day<'_> {
    /// A new event of the day about `subject`.
    fn event(&self, event: &'static str, subject: &str) -> LogEvent {
        LogEvent::new("injuries", event, subject).field("day", self.day)
    }

    /// Keep `event`, stamped with the day's clock.
    fn push(&mut self, event: LogEvent) {
        self.log.push(&self.clock, event);
    }

    /// The figure's day: on the first, each condition's healing rolled; then a day of healing
    /// for each injury; then the moves of the day counted off. The dead are left alone.
    /// `cursed`: under the evil eye.
    fn figure(&mut self, figure: &mut Figure, orders: &mut Orders<'_>, cursed: bool) {
        if is_dead(figure) {
            return;
        }
        if self.day == 1 {
            let mut i = 0;
            while i < figure.conditions.len() {
                i = self.resolve(figure, i, orders, cursed);
                if is_dead(figure) {
                    return;
                }
            }
        }
        let mut i = 0;
        while i < figure.conditions.len() {
            i = self.heal(figure, i, orders, cursed);
            if is_dead(figure) {
                return;
            }
        }
        self.count_down(figure);
    }

    /// Roll what condition `i` needs to heal, if it has no healing state and the rules roll for
    /// its kind. Returns the index of the next condition to look at.
    fn resolve(&mut self, figure: &mut Figure, i: usize, orders: &mut Orders<'_>, cursed: bool) -> usize {
        let c = &figure.conditions[i];
        if c.healing.is_some() {
            return i + 1;
        }
        let (kind, no_moves) = (c.kind, c.moves_left.is_none());
        if let Some((wound, blunt)) = located_as(kind) {
            self.locate(figure, i, wound, blunt);
        } else if let Some(recovery) = recovery_of(kind) {
            self.recover(figure, i, recovery);
        } else {
            match kind {
                ConditionKind::Unconscious if no_moves => self.unconscious(figure, i),
                ConditionKind::ApparentlyDead => {
                    return self.apparently_dead(figure, i, ApparentDeathCause::Fire, false, orders, cursed);
                }
                ConditionKind::LeftForDead => {
                    return self.apparently_dead(figure, i, ApparentDeathCause::Wounds, false, orders, cursed);
                }
                ConditionKind::OutOfAction if self.settings.out_of_action == OutOfAction::LeftForDead => {
                    return self.apparently_dead(figure, i, ApparentDeathCause::Wounds, true, orders, cursed);
                }
                _ => {}
            }
        }
        i + 1
    }

    /// 000 "Adventurers Wounding" (and Crippling, Burn Wounding, Cripple burns): D% on the
    /// scene's table of `wound`, and the row's healing time; without a table the condition stays
    /// as it is, reported.
    fn locate(&mut self, figure: &mut Figure, i: usize, wound: WoundKind, blunt: bool) {
        let result = injuries::roll_location(wound, self.tables, blunt, &mut self.dice);
        let c = &mut figure.conditions[i];
        let mut event = self
            .event("location", &figure.name)
            .outcome(result.outcome)
            .field("condition", &c.name)
            .field("wound", wound.id())
            .field("blunt_weapon", blunt)
            .field("report", result.label())
            .field("row", &result.row)
            .field("healing_days", result.healing.as_ref().map(|h| h.amount));
        event.rolls = result.rolls();
        if let Some(state) = result.healing_state() {
            let state = bound_healing(state);
            c.move_penalty = move_penalty_of(&state);
            c.healing = Some(state);
            event = event.field("penalties", state.penalties()).field("healing", state);
        }
        self.push(event);
    }

    /// 001 "Wound Recoveries": the days to recover, in thirds, halves or at −1.
    fn recover(&mut self, figure: &mut Figure, i: usize, recovery: WoundRecovery) {
        let days = recovery.roll_days(&mut self.dice);
        let state =
            bound_healing(HealingState::new(WoundKind::Wound, PenaltySchedule::Recovery(recovery), days.amount));
        let c = &mut figure.conditions[i];
        c.move_penalty = move_penalty_of(&state);
        c.healing = Some(state);
        let mut event = self
            .event("wound_recovery", &figure.name)
            .outcome(recovery)
            .field("condition", &c.name)
            .field("days", days.amount)
            .field("penalties", state.penalties())
            .field("healing", state);
        event.rolls = days.rolls();
        self.push(event);
    }

    /// 000 "Adventurers Crippling" > "Ucon": how long the figure is out, in moves.
    fn unconscious(&mut self, figure: &mut Figure, i: usize) {
        let r = injuries::roll_unconscious(self.per_day, &mut self.dice);
        let c = &mut figure.conditions[i];
        c.moves_left = Some(r.moves);
        c.immobile = true;
        let mut event = self
            .event("unconscious", &figure.name)
            .outcome(r.outcome)
            .field("condition", &c.name)
            .field("amount", r.duration.amount)
            .field("in_hours", r.outcome.in_hours())
            .field("moves", r.moves);
        event.rolls = r.rolls();
        self.push(event);
    }

    /// 000 "Adventurers Apparent 'Death' dicing" or 001 "Saga Apparently Dead Recovery Dicing"
    /// for condition `i`: the dead become `dead`; 000's living are unconscious 20 + D10 hours
    /// and regain their fitness in 6 × D10 + 5 days; 001's are fully recovered (the condition
    /// goes), wounded, sore wounded or mortally wounded. `out_of_action`: the house rule
    /// `injuries.out_of_action` sent it here. Returns the next index.
    fn apparently_dead(
        &mut self,
        figure: &mut Figure,
        i: usize,
        cause: ApparentDeathCause,
        out_of_action: bool,
        orders: &mut Orders<'_>,
        cursed: bool,
    ) -> usize {
        let name = figure.conditions[i].name.clone();
        let treated = orders.treated_within_three_moves(&name);
        let report = injuries::resolve_apparently_dead(
            self.settings.apparent_death_text,
            cause,
            treated,
            self.per_day,
            cursed,
            &mut self.dice,
        );
        let text = match &report {
            ApparentlyDeadReport::OptionalRules(_) => ApparentDeathText::OptionalRules,
            ApparentlyDeadReport::Saga(_) => ApparentDeathText::SagaRecovery,
        };
        let mut event = self
            .event("apparently_dead", &figure.name)
            .outcome(report.classified())
            .field("condition", &name)
            .field("cause", cause.id())
            .field("text", text.id())
            .field("treated_within_three_moves", treated);
        event.rolls = report.rolls();
        if out_of_action {
            event = event.house_rule("injuries.out_of_action");
        }
        // What the condition becomes (none: it goes), and a second condition it brings.
        let (now, also): (Option<Condition>, Option<Condition>) = match &report {
            ApparentlyDeadReport::OptionalRules(r) if r.outcome.alive() => {
                event = event
                    .field("result", r.outcome.label())
                    .field("unconscious_moves", r.unconscious_moves)
                    .field("fitness_days", r.fitness_days.as_ref().map(|d| d.amount));
                let fitness = r.healing_state().map(|state| {
                    let what = format!("regaining fitness, {} ({name})", abbreviation(r.outcome));
                    healing(ConditionKind::RegainingFitness, what, false, state)
                });
                let out = Condition {
                    moves_left: r.unconscious_moves,
                    ..plain(ConditionKind::Unconscious, format!("unconscious ({name})"), true)
                };
                (fitness, Some(out))
            }
            ApparentlyDeadReport::OptionalRules(r) => {
                event = event.field("result", r.outcome.label());
                (Some(plain(ConditionKind::Dead, format!("dead ({name})"), true)), None)
            }
            ApparentlyDeadReport::Saga(r) => {
                event = event.field("days", r.days.as_ref().map(|d| d.amount));
                let state = r.healing_state(WoundKind::Wound);
                let now = match (r.outcome, state) {
                    (SagaRecovery::FullyRecovered, _) => None,
                    (SagaRecovery::Wounded, Some(s)) => {
                        Some(healing(ConditionKind::Wounded, format!("wounded ({name})"), false, s))
                    }
                    (SagaRecovery::SoreWounded, Some(s)) => {
                        Some(healing(ConditionKind::SoreWounded, format!("sore wounded ({name})"), false, s))
                    }
                    (SagaRecovery::MortallyWounded, Some(s)) => {
                        Some(healing(ConditionKind::MortallyWounded, format!("mortally wounded ({name})"), true, s))
                    }
                    _ => Some(plain(ConditionKind::Dead, format!("dead ({name})"), true)),
                };
                (now, None)
            }
        };
        let mut logged: Vec<Condition> = Vec::new();
        let next = match now {
            Some(c) => {
                orders.rename(&name, &c.name);
                logged.push(c.clone());
                figure.conditions[i] = c;
                i + 1
            }
            None => {
                figure.conditions.remove(i);
                i
            }
        };
        if let Some(also) = also {
            // Never past the cap the scene check enforces (a list full of other conditions).
            if figure.conditions.len() < MAX_CONDITIONS {
                logged.push(also.clone());
                figure.conditions.push(also);
            } else {
                event.note_condition_at_cap(&also.name, "dropped");
            }
        }
        event = event
            .field("conditions_now", LoggedCondition::all(&logged))
            .field("healing", logged.first().and_then(|c| c.healing));
        self.push(event);
        next
    }

    /// A day of healing for condition `i`, if it has a healing state not yet over. Returns the
    /// next index (a healed condition is removed).
    fn heal(&mut self, figure: &mut Figure, i: usize, orders: &mut Orders<'_>, cursed: bool) -> usize {
        let Some(state) = figure.conditions[i].healing else { return i + 1 };
        if state.is_over() {
            if state.stage == HealingStage::Healed && leaves_nothing(&state) {
                figure.conditions.remove(i);
                return i;
            }
            return i + 1;
        }
        let name = figure.conditions[i].name.clone();
        let treatment = orders.on(&name, self.day);
        let (next, outcome, report) = injuries::advance_day(&state, &treatment, cursed, &mut self.dice);
        let next = bound_healing(next);
        let rolls = report.rolls();
        let deducted = report.rest_days_deducted > 0 || report.holy_water.is_some() || report.healer.is_some();
        if outcome != DayOutcome::Recovering || !rolls.is_empty() || deducted {
            let mut event = self
                .event("healing_day", &figure.name)
                .outcome(outcome)
                .field("condition", &name)
                .field("treatment", treatment)
                .field("stage", next.stage.id())
                .field("days_left", next.days_left)
                .field("total_days", next.total_days)
                .field("penalties", next.penalties())
                .field("rest_days_deducted", report.rest_days_deducted)
                .field("holy_water_days", report.holy_water.as_ref().map(|h| h.days))
                .field("healer_days", report.healer.as_ref().map(|h| h.days))
                .field("festering", next.festering)
                .field("infection_checks_left", next.infection_checks_left);
            event.rolls = rolls;
            self.push(event);
        }
        match outcome {
            DayOutcome::Died => {
                let c = &figure.conditions[i];
                let dead =
                    Condition { healing: Some(next), ..plain(ConditionKind::Dead, format!("dead ({})", c.name), true) };
                orders.rename(&name, &dead.name);
                figure.conditions[i] = dead;
                i + 1
            }
            DayOutcome::Healed if leaves_nothing(&next) => {
                figure.conditions.remove(i);
                i
            }
            _ => {
                let c = &mut figure.conditions[i];
                c.move_penalty = move_penalty_of(&next);
                c.healing = Some(next);
                i + 1
            }
        }
    }

    /// The day's moves off every condition counted in moves (as bookkeeping takes one a move;
    /// a loop's injury waits while its victim hangs): the unconscious come round, others expire.
    fn count_down(&mut self, figure: &mut Figure) {
        let per_day = self.per_day;
        let hanging = figure.conditions.iter().any(|c| c.kind == ConditionKind::HangingInLoop);
        let mut ended = Vec::new();
        figure.conditions.retain_mut(|c| {
            if hanging && c.kind == ConditionKind::InjuryOnRelease {
                return true;
            }
            match c.moves_left.as_mut() {
                Some(left) => {
                    *left = left.saturating_sub(per_day);
                    if *left == 0 {
                        ended.push((c.kind, c.name.clone()));
                        false
                    } else {
                        true
                    }
                }
                None => true,
            }
        });
        for (kind, name) in ended {
            let event = if kind == ConditionKind::Unconscious {
                self.event("came_round", &figure.name).outcome(RestOutcome::CameRound)
            } else {
                self.event("condition_expired", &figure.name).outcome(RestOutcome::Expired)
            };
            self.push(event.field("condition", name));
        }
    }
}
