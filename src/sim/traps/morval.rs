//! Morval traps on the table (000 "Characters and Traps"): spotting, trip cords, treadles,
//! lifters, pits, falling floors, loops and leydonic traps. Each handler rolls through
//! `rules::morval_traps` and turns the result into positions, conditions, noises and events.

use super::{Candidate, Output, Pass, TrapFlame, lighting_at_trap, with_rolls};
use crate::rules::dice::Roll;
use crate::rules::morval_traps::{
    self as rules, LeydonicTrap, LifterTrap, Payload, PayloadKind, Pit, PitOutcome, Spotter, TreadleTrap,
    TripCordVictim, discharge_leydonic, floor_gives_way, leydonic_charged, lifter_triggers, loop_result, pit_result,
    spot_trap, spring_payload, treadle_triggers, trip_cord_result, trip_cord_roll, victim_agility_roll,
};
use crate::rules::outcome::Outcome;
use crate::scene::traps::{OpenPit, RevealedTrap};
use crate::scene::{ConditionKind, Material, Skill, TrapKind};
use crate::sim::log::{LoggedCondition, point_to_thousandths, round_to_thousandths_f32};
use crate::sim::magic::evil_eye_on;
use crate::sim::outcome::TrapOutcome;
use bevy::prelude::*;

/// A loop victim's sprain comes "on release": its countdown waits while the figure hangs.
const ON_RELEASE: &str = " (on release)";
/// The condition of a figure swinging from a loop.
const HANGING_IN_LOOP: &str = "hanging in loop";
/// The condition of a rider thrown when its steed fell at a trip cord or a pit.
const UNHORSED: &str = "unhorsed";

/// The house-rule setting of what a revealed trap of `kind` does (`table.revealed.<kind>`).
fn revealed_rule(kind: rules::TrapKind) -> &'static str {
    match kind {
        rules::TrapKind::TripCord => "traps.table.revealed.trip_cord",
        rules::TrapKind::Treadle => "traps.table.revealed.treadle",
        rules::TrapKind::Lifter => "traps.table.revealed.lifter",
        rules::TrapKind::SpecimenPit => "traps.table.revealed.pit",
        rules::TrapKind::FallingFloor => "traps.table.revealed.falling_floor",
        rules::TrapKind::Loop => "traps.table.revealed.loop",
        rules::TrapKind::Leydonic => "traps.table.revealed.leydonic",
    }
}

/// The house-rule setting of how far a striking payload of `kind` reaches
/// (`morval.payload_radius.<kind>`); `None` for the alarms, which strike no one.
fn payload_radius_rule(kind: PayloadKind) -> Option<&'static str> {
    match kind {
        PayloadKind::SilentAlarm | PayloadKind::SoundingAlarm => None,
        PayloadKind::HailOfMissiles => Some("traps.morval.payload_radius.hail_of_missiles"),
        PayloadKind::Boulder => Some("traps.morval.payload_radius.boulder"),
        PayloadKind::Gas => Some("traps.morval.payload_radius.gas"),
        PayloadKind::Acid => Some("traps.morval.payload_radius.acid"),
        PayloadKind::Flame => Some("traps.morval.payload_radius.flame"),
    }
}

/// A steed's roll: its agility is the house-rule `table.steed_agility`, so the reason says so.
fn steed_agility_reason(roll: &mut Roll) {
    for m in roll.modifiers.iter_mut().filter(|m| m.reason == "victim agility") {
        m.reason = "steed agility (house rule)".into();
    }
}

fn injury_name(kind: rules::InjuryKind) -> String {
    kind.id().replace('_', " ")
}

impl Pass<'_> {
    /// The figure's agility: its own `agility`, or 000 "Agility"'s defaults.
    fn agility(&self, m: usize) -> rules::Agility {
        let f = &self.movers[m].sheet;
        rules::agility(&self.movers[m].traits(), f.agility, &self.settings.morval)
    }

    /// House rule: the bonus for a tracker in the wild, or an engineer or thief in a building
    /// (a trap on a stone floor or timber counts as in a building).
    fn spot_skill_bonus(&self, m: usize, t: usize) -> i32 {
        let indoors = matches!(
            self.terrain.material_at(self.traps[t].position),
            Some(Material::StoneFloor | Material::SolidTimber | Material::HalfTimbered)
        );
        let skills = &self.movers[m].sheet.skills;
        let has = |s: &Skill| skills.contains(s);
        let skilled = if indoors { has(&Skill::Engineer) || has(&Skill::Thief) } else { has(&Skill::Tracker) };
        if skilled { self.settings.table.skill_spot_bonus } else { 0 }
    }

    /// A Morval trap a figure could spring now: armed and hidden. The text exempts no side; with
    /// the house rule `own_side_exempt` a trap spares its own side, except loops and treadles
    /// (a treadle's safety lever decides for itself).
    fn live_for(&self, m: usize, t: usize) -> bool {
        let trap = &self.traps[t].spec;
        if !trap.armed || (trap.revealed && !self.revealed_fires(t)) {
            return false;
        }
        match trap.kind {
            TrapKind::Loop | TrapKind::Treadle { .. } => true,
            _ => !self.exempt(m, t),
        }
    }

    /// House rule `own_side_exempt` (default off): the figure is of the trap's side and so
    /// spared by it.
    pub(super) fn exempt(&self, m: usize, t: usize) -> bool {
        self.settings.morval.own_side_exempt && self.friendly(m, t)
    }

    /// Whether a revealed trap still goes off (house rule `table.revealed`, per kind):
    /// `still_fires`, or `avoid` entered anyway; a cord cannot be walked round, so `avoid`
    /// steps over it as `harmless` does.
    fn revealed_fires(&self, t: usize) -> bool {
        let Some(kind) = self.traps[t].spec.kind.morval_kind() else { return false };
        match self.settings.table.revealed.of(kind) {
            RevealedTrap::Harmless => false,
            RevealedTrap::Avoid => kind != rules::TrapKind::TripCord,
            RevealedTrap::StillFires => true,
        }
    }

    /// 000 "Spotting Traps": within 2", MD or D6 + F against the concealment class.
    pub(super) fn spot(&mut self, c: Candidate) {
        let (m, t) = (c.mover, c.trap);
        if !self.traps[t].can_be_spotted() || self.exempt(m, t) {
            return;
        }
        let Some(class) = self.traps[t].spec.concealment_class() else { return };
        // Issue #17: a trap behind a wall or a closed door is not spotted; no roll.
        let at = self.movers[m].point_at(c.distance);
        let looked_at = self.traps[t].area().looked_at_from(at);
        if self.sight.as_ref().is_some_and(|s| !s.visible(at, looked_at, f32::INFINITY)) {
            let event = self
                .new_event("spot_check", m, t, c.time)
                .outcome(TrapOutcome::NotInSight)
                .field("kind", self.traps[t].spec.kind.id())
                .field("from", point_to_thousandths(at));
            self.event(event);
            return;
        }
        self.traps[t].spotters += 1;
        let mover = &self.movers[m];
        let spotter = Spotter {
            traits: mover.traits(),
            gait: mover.sheet.gait,
            speed_inches: mover.speed,
            order_in_area: self.traps[t].spotters,
            skill_bonus: self.spot_skill_bonus(m, t),
            personal: mover.sheet.spot_factor,
        };
        let lighting = lighting_at_trap(self, t);
        let mut result = spot_trap(&spotter, class, lighting, &self.settings.morval, &mut self.dice);
        // 001 "Lay an evil eye Curse": "deducts 1 from every dice throw for character".
        if evil_eye_on(&mut result.roll, self.movers[m].cursed.as_ref()) {
            result.spotted = rules::spotted(result.roll.total, class, &self.settings.morval);
        }
        let event = self
            .new_event("spot_check", m, t, c.time)
            .outcome(if result.spotted { TrapOutcome::Spotted } else { TrapOutcome::NotSpotted })
            .roll(result.roll)
            .field("kind", self.traps[t].spec.kind.id())
            .field("concealment", class.code())
            .field("lighting", lighting.code())
            .field("order_in_area", self.traps[t].spotters)
            .house_rule("traps.morval.spot_checks");
        self.event(event);
        if result.spotted {
            self.traps[t].spec.to_mut().revealed = true;
            self.traps[t].changed = true;
        }
    }

    pub(super) fn enter_morval(&mut self, c: Candidate) {
        // A revealed, armed trap (not an open pit: `table.open_pit` decides that) that goes
        // off anyway does so by the house rule `table.revealed.<kind>`: its events say so.
        let spec = &self.traps[c.trap].spec;
        // A cord sprung this move trips its round's victims whatever the rule says.
        let decided_before =
            matches!(spec.kind, TrapKind::Pit { open: true, .. }) || self.traps[c.trap].cord_round.is_some();
        let revealed =
            spec.kind.morval_kind().filter(|_| spec.armed && spec.revealed && !decided_before).map(revealed_rule);
        let first = self.out.len();
        self.enter_morval_trap(c);
        if let Some(path) = revealed {
            self.tag_events_since(first, path);
        }
    }

    /// Mark each event logged since output `first` as decided by the house rule at `path`.
    fn tag_events_since(&mut self, first: usize, path: &'static str) {
        for out in &mut self.out[first..] {
            if let Output::Event(e) = out {
                e.add_house_rule(path);
            }
        }
    }

    fn enter_morval_trap(&mut self, c: Candidate) {
        match self.traps[c.trap].spec.kind.clone() {
            TrapKind::TripCord { .. } => self.trip_cord(c),
            TrapKind::Treadle { payload, safety, weight_above } => {
                self.treadle(c, TreadleTrap { payload, safety, weight_above })
            }
            TrapKind::Pit { depth, bottom, open } => {
                let pit = Pit { bottom, depth_inches: depth };
                if open {
                    // 000 "Specimen Pit Trap": "dug in open space": once sprung it stays a pit.
                    self.pit_victim(c.mover, c.trap, c.time, c.distance, pit, true);
                } else if self.live_for(c.mover, c.trap) {
                    let trap = &mut self.traps[c.trap];
                    trap.spec.to_mut().revealed = true;
                    if let TrapKind::Pit { open, .. } = &mut trap.spec.to_mut().kind {
                        *open = true;
                    }
                    trap.changed = true;
                    self.pit_victim(c.mover, c.trap, c.time, c.distance, pit, false);
                }
            }
            TrapKind::FallingFloor { depth, bottom, gives_way_at } => {
                self.falling_floor(c, Pit { bottom, depth_inches: depth }, gives_way_at)
            }
            TrapKind::Loop => self.loop_trap(c),
            TrapKind::Leydonic { strike, recharge_moves, discharged_at_move } => {
                self.leydonic(c, LeydonicTrap { strike, recharge_moves }, discharged_at_move)
            }
            TrapKind::Lifter { .. } => {
                // A door or trapdoor lifter: the figure passes through, at its own speed.
                if self.traps[c.trap].spec.kind.lifter_on_passing() {
                    let speed = self.movers[c.mover].speed;
                    self.spring_lifter(c, speed);
                }
            }
            TrapKind::Khemri { .. } => {}
        }
    }

    /// 000 "Trip cords": D10 − agility + F; the cord works for the round it is sprung in, and
    /// every figure that runs into it in that round, in the order they reach it, is a victim
    /// (2nd −1, 3rd −2, 4th −3) — until a victim breaks it ("2- break cord", "3+ break cord"):
    /// a broken cord trips no one after.
    fn trip_cord(&mut self, c: Candidate) {
        let (m, t) = (c.mover, c.trap);
        let round = self.round_at(c.time);
        match self.traps[t].cord_round {
            Some(sprung) if sprung != round => return,
            Some(_) => {
                // Broken by an earlier victim this round (a fall leaves it whole).
                if !self.traps[t].spec.armed || self.exempt(m, t) {
                    return;
                }
            }
            None => {
                if !self.live_for(m, t) {
                    return;
                }
                self.traps[t].cord_round = Some(round);
                self.traps[t].spec.to_mut().revealed = true;
                self.traps[t].changed = true;
            }
        }
        self.traps[t].cord_victims += 1;
        let agility = self.agility(m);
        let mover = &self.movers[m];
        // T8: under a rider the cord catches the steed, with its own agility (house rule).
        let mounted = mover.mounted;
        let victim = TripCordVictim {
            agility: if mounted { self.settings.table.steed_agility } else { agility.value },
            speed_inches: mover.speed,
            victim_order: self.traps[t].cord_victims,
            carries_rider: false,
        };
        let mut roll = trip_cord_roll(&victim, &self.settings.morval, &mut self.dice);
        // 001 "Lay an evil eye Curse": the victim's −1, before the band is read; under a rider
        // the roll is the steed's, not his.
        if !mounted {
            evil_eye_on(&mut roll, self.movers[m].cursed.as_ref());
        }
        let mut result = trip_cord_result(roll, &victim, &self.settings.morval, &mut self.dice);
        if matches!(result.outcome, rules::TripCordOutcome::BreakCord | rules::TripCordOutcome::BreakCordCursing) {
            self.traps[t].spec.to_mut().armed = false;
            self.traps[t].changed = true;
        }
        if mounted {
            steed_agility_reason(&mut result.roll);
        }
        let rider_fall = (mounted && result.outcome.falls()).then(|| self.rider_falls_off(m));
        let mut added = Vec::new();
        let mut stop_at = None;
        if let Some(lost) = result.move_lost_inches {
            // The lost inches come off the end of the move, never from before the cord.
            stop_at = Some(c.distance.max(self.movers[m].total - lost as f32));
        }
        if result.outcome.falls() {
            stop_at = Some(c.distance);
        }
        if let Some(status) = result.status.filter(|_| !mounted) {
            let fainted = status == rules::VictimStatus::Fainted;
            added.push(Self::lasting(
                ConditionKind::Status,
                status.id(),
                0.0,
                Some(self.settings.table.status_moves),
                fainted,
            ));
        }
        if let Some(injury) = result.injury.as_ref().filter(|_| !mounted) {
            let moves = self.injury_moves(injury);
            added.push(Self::lasting(
                ConditionKind::Injury,
                injury_name(injury.kind),
                injury.move_penalty_inches as f32,
                Some(moves),
                false,
            ));
        }
        if rider_fall.is_some() {
            added.push(Self::unhorsed_condition());
        }
        let mut rolls = vec![result.roll.clone()];
        rolls.extend(result.injury.as_ref().map(|i| i.duration_roll.clone()));
        rolls.extend(rider_fall.clone());
        let at = self.movers[m].point_at(c.distance);
        let mut event = with_rolls(self.new_event("trip_cord", m, t, c.time), rolls)
            .outcome(result.outcome)
            .field("agility", &agility)
            .field("victim_order", victim.victim_order)
            .field("move_lost", result.move_lost_inches)
            .field("status", result.status.map(|s| s.id()).filter(|_| !mounted))
            .field("injury", result.injury.as_ref().filter(|_| !mounted))
            .field("rider_fall_strike", rider_fall.as_ref().map(|r| r.total))
            .field("conditions_added", LoggedCondition::all(&added))
            .field("at", point_to_thousandths(at));
        if mounted {
            event = event
                .field("victim", "steed")
                .field("steed_agility", victim.agility)
                .field("steed_status", result.status.map(|s| s.id()))
                .field("steed_injury", &result.injury)
                .field("unhorsed", rider_fall.is_some());
        }
        self.event(event);
        if let Some(noise) = result.noise {
            let name = self.movers[m].name;
            self.noise(name, at, c.time, noise);
        }
        if let Some(d) = stop_at {
            self.movers[m].halt(d);
        }
        if rider_fall.is_some() {
            self.unhorse(m);
        }
        for condition in added {
            self.give_condition(m, condition);
        }
    }

    /// 000 "Trip cords": "Riders whose Steeds fall, fall off strike -3"; a non-rider's falling
    /// dice as `herds.non_rider_falling_dice` reads 000 "Riders & Animal Trainers".
    fn rider_falls_off(&mut self, m: usize) -> Roll {
        let horsemanship = crate::sim::herds::horsemanship(&self.movers[m].sheet.skills);
        let mut roll = rules::rider_falls_off(horsemanship, self.non_rider_falling_dice, &mut self.dice);
        // 001 "Lay an evil eye Curse": the rider's own falling dice.
        evil_eye_on(&mut roll, self.movers[m].cursed.as_ref());
        roll
    }

    /// The condition of a figure thrown from its fallen steed: it lasts until the GM changes it.
    fn unhorsed_condition() -> crate::scene::Condition {
        Self::lasting(ConditionKind::Other, UNHORSED, 0.0, None, false)
    }

    /// The figure is off its steed: no longer `mounted` (its condition is added by the caller).
    fn unhorse(&mut self, m: usize) {
        let mover = &mut self.movers[m];
        mover.mounted = false;
        mover.unhorsed = true;
        mover.changed = true;
    }

    /// 000 "Treadle Traps": a creature stepping on it sets it off unless it is locked safe, the
    /// creature is a friend working the lever, or it is too light.
    fn treadle(&mut self, c: Candidate, treadle: TreadleTrap) {
        let (m, t) = (c.mover, c.trap);
        if !self.live_for(m, t) {
            return;
        }
        let friendly = self.friendly(m, t);
        let weight = self.movers[m].sheet.weight.unwrap_or(self.settings.table.figure_weight);
        if !treadle_triggers(&treadle, weight, friendly) {
            let outcome = match treadle.safety {
                rules::SafetyLock::Locked => TrapOutcome::LockedSafe,
                rules::SafetyLock::Armed if friendly => TrapOutcome::SafetyLever,
                _ => TrapOutcome::TooLight,
            };
            let event = self
                .new_event("treadle", m, t, c.time)
                .outcome(outcome)
                .field("safety", treadle.safety.id())
                .field("weight", weight);
            self.event(event);
            return;
        }
        let event = self
            .new_event("treadle", m, t, c.time)
            .outcome(TrapOutcome::Sprung)
            .field("safety", treadle.safety.id())
            .field("weight", weight);
        self.event(event);
        let speed = self.movers[m].speed;
        self.payload(m, t, c.time, treadle.payload, speed);
    }

    /// 000 "Lifter Traps": sprung when a figure's path ends on it (it stops to lift the object;
    /// a door or trapdoor lifter when a path that started on it ends on it).
    pub(super) fn stop_on_lifter(&mut self, c: Candidate) {
        // "for a lifter the victim's speed is usually 0": it has stopped.
        self.spring_lifter(c, 0.0);
    }

    /// 000 "Lifter Traps": the lifter goes off under the figure, which meets the payload at
    /// `speed` inches a move: 0 where it stopped to lift the object, its own speed where it
    /// passes through a door or trapdoor (the text is silent; docs/traps.md).
    fn spring_lifter(&mut self, c: Candidate, speed: f32) {
        let (m, t) = (c.mover, c.trap);
        let TrapKind::Lifter { payload, action, door } = self.traps[t].spec.kind.clone() else { return };
        if !self.live_for(m, t) {
            return;
        }
        let lifter = LifterTrap { action, payload };
        if !lifter_triggers(&lifter, action) {
            return;
        }
        let mut event =
            self.new_event("lifter", m, t, c.time).outcome(TrapOutcome::Sprung).field("action", action.id());
        if let Some(door) = &door {
            event = event.field("door", door);
        }
        self.event(event);
        self.payload(m, t, c.time, payload, speed);
    }

    /// 000 "Treadle Traps": what the trap sets off, "threatens the victim(s)": a striking
    /// payload strikes every figure (any side) within its kind's `payload_radius` (house rule,
    /// never less than the trap's radius) at that time, the one that set it off first, then the
    /// rest in scene order, each with its own D10. Once-only traps are spent; a trap the victim
    /// did not notice (a silent alarm, rolled by the one that set it off) stays hidden.
    fn payload(&mut self, m: usize, t: usize, time: f32, payload: Payload, speed: f32) {
        let by_radius = self.settings.morval.payload_radius.inches(payload.kind);
        // The house rule's radius, not the trap's own, sets the reach.
        let by_rule = by_radius >= self.traps[t].spec.radius;
        let reach = by_radius.max(self.traps[t].spec.radius);
        let centre = self.traps[t].position;
        let mut victims = vec![(m, speed)];
        if payload.kind.strikes() {
            for o in self.movers_near(centre, reach + 2.0 * super::ON_EDGE) {
                if o != m && self.movers[o].position_at_time(time).distance(centre) <= reach + super::ON_EDGE {
                    victims.push((o, self.movers[o].speed));
                }
            }
        }
        let mut noticed = true;
        let mut noise = None;
        let mut starts_fire = false;
        for (order, &(v, v_speed)) in victims.iter().enumerate() {
            let mover = &self.movers[v];
            let mut result = spring_payload(&payload, &mover.traits(), mover.sheet.gait, v_speed, &mut self.dice);
            // "F= Personal bonuses": the figure's own factor (scene `spot_factor`).
            result.silent_alarm = result.silent_alarm.map(|a| a.with_personal_factor(mover.sheet.spot_factor));
            // 001 "Lay an evil eye Curse": the victim's check takes −1; the strike is the trap's.
            if let Some(alarm) = result.silent_alarm.as_mut()
                && evil_eye_on(&mut alarm.roll, mover.cursed.as_ref())
            {
                alarm.victim_realises = rules::silent_alarm_noticed(alarm.roll.total);
            }
            let outcome = match (&result.silent_alarm, payload.kind) {
                (Some(alarm), _) if alarm.victim_realises => TrapOutcome::VictimRealises.classified(),
                (Some(_), _) => TrapOutcome::Unnoticed.classified(),
                (None, kind) => kind.classified(),
            };
            if v == m {
                noticed = result.silent_alarm.as_ref().is_none_or(|a| a.victim_realises);
                noise = result.noise;
                starts_fire = result.starts_fire;
            }
            let mut rolls = Vec::new();
            rolls.extend(result.silent_alarm.as_ref().map(|a| a.roll.clone()));
            rolls.extend(result.strike.clone());
            let mut event = with_rolls(self.new_event("payload", v, t, time), rolls)
                .outcome(outcome)
                .field("payload", payload.kind.id())
                .field("strike", result.strike.as_ref().map(|r| r.total))
                .field(
                    "strike_note",
                    result.strike.as_ref().map(|_| "Morval combat tables are not in the sources: reported"),
                );
            if payload.kind.strikes() {
                event = event.field("victim_order", order + 1).field("payload_radius", reach).field(
                    "distance",
                    round_to_thousandths_f32(self.movers[v].position_at_time(time).distance(centre)),
                );
            }
            // Another figure is struck by the payload's reach (house rule `payload_radius`).
            if let Some(path) = payload_radius_rule(payload.kind).filter(|_| v != m && by_rule) {
                event = event.house_rule(path);
            }
            self.event(event);
        }
        let trap = &mut self.traps[t];
        trap.changed = true;
        if noticed {
            trap.spec.to_mut().revealed = true;
        }
        if !trap.spec.reusable {
            trap.spec.to_mut().armed = false;
        }
        let name = trap.spec.name.clone();
        if let Some(noise) = noise {
            self.noise(&name, centre, time, noise);
        }
        if starts_fire && payload.kind == PayloadKind::Flame {
            self.out.push(Output::Flame(TrapFlame {
                trap: name,
                position: centre,
                diameter: 2.0 * reach,
                figures_on_fire: Vec::new(),
                source: super::FlameSource::MorvalPayload,
            }));
        }
    }

    /// 000 "Specimen Pit Trap": one figure at the pit (or a falling floor), D10 − agility + F,
    /// and what the result leaves it doing. `d`: how far along its move it was. `open`: the pit
    /// is already open, so the figure falls in with no roll ("D10 + pit strike factor" only)
    /// unless `table.open_pit_entry_roll` (house rule) has it roll the table. Under a rider the
    /// steed is caught (`table.steed_agility`); if it falls or hangs, the rider falls off
    /// (000 "Trip cords": "fall off strike -3") and stays at the edge, unhorsed.
    fn pit_victim(&mut self, m: usize, t: usize, time: f32, d: f32, pit: Pit, open: bool) {
        let agility = self.agility(m);
        let mounted = self.movers[m].mounted;
        let value = if mounted { self.settings.table.steed_agility } else { agility.value };
        // The fall's strike is the pit's throw, not the victim's: no evil eye on it.
        let (entry, outcome, fall_strike) = if open && !self.settings.table.open_pit_entry_roll {
            (None, PitOutcome::FallUnimpeded, Some(rules::open_pit_fall(pit, &mut self.dice)))
        } else {
            let mut roll = victim_agility_roll(value, self.movers[m].speed, &mut self.dice);
            // 001 "Lay an evil eye Curse": the victim's −1, before the band is read; under a
            // rider the roll is the steed's, not his.
            if !mounted {
                evil_eye_on(&mut roll, self.movers[m].cursed.as_ref());
            }
            let mut r = pit_result(roll, pit, &mut self.dice);
            if mounted {
                steed_agility_reason(&mut r.roll);
            }
            (Some(r.roll), r.outcome, r.fall_strike)
        };
        let steed_down = mounted && (outcome.falls() || outcome.hanging());
        let rider_fall = steed_down.then(|| self.rider_falls_off(m));
        let centre = self.traps[t].position;
        let radius = self.traps[t].spec.radius;
        let name = self.traps[t].spec.name.clone();
        let at = self.movers[m].position_at_time(time);
        let heading = self.movers[m].heading_at(d);
        // The edges lie across the pit along the figure's way; on the table, as every figure.
        let (far_edge, near_edge) =
            (self.onto_table(centre + heading * radius), self.onto_table(centre - heading * radius));
        let in_pit_moves = self.in_pit_moves();
        let table = &self.settings.table;
        let (place, condition) = if steed_down {
            // The steed is in the pit or at its edge; the rider is thrown at the edge.
            (Some(at), Some(Self::unhorsed_condition()))
        } else {
            match outcome {
                PitOutcome::JumpOver => (None, None),
                PitOutcome::JumpBack => (Some(at), None),
                PitOutcome::HangingOnFarEdge => (
                    Some(far_edge),
                    Some(Self::lasting(
                        ConditionKind::HangingOnEdge,
                        format!("hanging on far edge of {name}"),
                        0.0,
                        table.hanging_moves,
                        true,
                    )),
                ),
                PitOutcome::HangingOnNearEdge => (
                    Some(near_edge),
                    Some(Self::lasting(
                        ConditionKind::HangingOnEdge,
                        format!("hanging on near edge of {name}"),
                        0.0,
                        table.hanging_moves,
                        true,
                    )),
                ),
                PitOutcome::RetardedFallMinusTwo | PitOutcome::RetardedFallMinusOne | PitOutcome::FallUnimpeded => (
                    Some(centre),
                    Some(Self::lasting(ConditionKind::InPit, format!("in pit {name}"), 0.0, in_pit_moves, true)),
                ),
            }
        };
        let mut rolls: Vec<Roll> = entry.into_iter().collect();
        rolls.extend(fall_strike.clone());
        rolls.extend(rider_fall.clone());
        let mut event = with_rolls(self.new_event("pit", m, t, time), rolls)
            .outcome(outcome)
            .field("agility", &agility)
            .field("pit_strike_factor", pit.strike_factor())
            .field("fall_strike", fall_strike.as_ref().map(|r| r.total))
            .field("conditions_added", LoggedCondition::all(condition.as_slice()))
            .field("at", point_to_thousandths(place.unwrap_or(at)));
        if open {
            // A figure walked into an open pit (`table.open_pit: fall_in`), and fell in with or
            // without a roll (`table.open_pit_entry_roll`).
            event = event.field("open_pit", true).house_rule("traps.table.open_pit_entry_roll");
            if self.settings.table.open_pit == OpenPit::FallIn {
                event = event.house_rule("traps.table.open_pit");
            }
        }
        if mounted {
            event = event
                .field("victim", "steed")
                .field("steed_agility", value)
                .field("rider_fall_strike", rider_fall.as_ref().map(|r| r.total))
                .field("unhorsed", steed_down);
        }
        self.event(event);
        if outcome != PitOutcome::JumpOver {
            let dist = d.min(self.movers[m].cap);
            self.halt(m, dist, place);
        }
        if steed_down {
            self.unhorse(m);
        }
        if let Some(condition) = condition {
            self.give_condition(m, condition);
        }
    }

    /// 000 "Falling Traps": the floor gives way once the weight on it reaches its limit, and
    /// everyone on it, friend or foe, then goes as at a pit.
    fn falling_floor(&mut self, c: Candidate, pit: Pit, gives_way_at: Option<f32>) {
        let (m, t) = (c.mover, c.trap);
        if !self.live_for(m, t) {
            return;
        }
        let area = self.traps[t].area();
        // "a certain cubits weight of creatures": every figure on it, of any side, weighs and falls.
        let on_it: Vec<usize> = self
            .movers_near_area(area, 10.0 * super::ON_EDGE)
            .into_iter()
            .filter(|&o| area.distance(self.movers[o].position_at_time(c.time)) <= 10.0 * super::ON_EDGE)
            .collect();
        let weights: Vec<f32> =
            on_it.iter().map(|&o| self.movers[o].sheet.weight.unwrap_or(self.settings.table.figure_weight)).collect();
        let gives_way = floor_gives_way(&weights, gives_way_at);
        let names: Vec<&str> = on_it.iter().map(|&o| self.movers[o].name).collect();
        let event = self
            .new_event("falling_floor", m, t, c.time)
            .outcome(if gives_way { TrapOutcome::GivesWay } else { TrapOutcome::Holds })
            .field("weight_on_it", weights.iter().sum::<f32>())
            .field("gives_way_at", gives_way_at)
            .field("on_it", names);
        self.event(event);
        if !gives_way {
            return;
        }
        self.traps[t].spec.to_mut().revealed = true;
        self.traps[t].spec.to_mut().armed = false;
        self.traps[t].changed = true;
        for o in on_it {
            let mover = &self.movers[o];
            let d = if o == m { c.distance } else { (c.time * mover.speed).min(mover.cap) };
            self.pit_victim(o, t, c.time, d, pit, false);
        }
    }

    /// 000 "Loop Traps": D10 − agility + F; caught figures hang by one foot.
    fn loop_trap(&mut self, c: Candidate) {
        let (m, t) = (c.mover, c.trap);
        if !self.live_for(m, t) {
            return;
        }
        let agility = self.agility(m);
        let mut roll = victim_agility_roll(agility.value, self.movers[m].speed, &mut self.dice);
        // 001 "Lay an evil eye Curse": the victim's −1, before the band is read.
        evil_eye_on(&mut roll, self.movers[m].cursed.as_ref());
        let result = loop_result(roll, &mut self.dice);
        let name = self.traps[t].spec.name.clone();
        let centre = self.traps[t].position;
        let mut added = Vec::new();
        if result.outcome.caught() {
            added.push(Self::lasting(
                ConditionKind::HangingInLoop,
                format!("{HANGING_IN_LOOP} {name}"),
                0.0,
                None,
                true,
            ));
        }
        if let Some(injury) = &result.injury {
            let moves = self.injury_moves(injury);
            let mut label = injury_name(injury.kind);
            let mut kind = ConditionKind::Injury;
            if injury.kind.starts_on_release() {
                label.push_str(ON_RELEASE);
                kind = ConditionKind::InjuryOnRelease;
            }
            added.push(Self::lasting(kind, label, injury.move_penalty_inches as f32, Some(moves), false));
        }
        let mut rolls = vec![result.roll.clone()];
        rolls.extend(result.injury.as_ref().map(|i| i.duration_roll.clone()));
        let event = with_rolls(self.new_event("loop", m, t, c.time), rolls)
            .outcome(result.outcome)
            .field("agility", &agility)
            .field("drops_items", result.outcome.drops_items())
            .field("injury", &result.injury)
            .field("conditions_added", LoggedCondition::all(&added));
        self.event(event);
        if result.outcome.sprung() {
            let trap = &mut self.traps[t];
            trap.spec.to_mut().revealed = true;
            trap.spec.to_mut().armed = trap.spec.reusable;
            trap.changed = true;
        }
        if result.outcome.caught() {
            self.halt(m, c.distance, Some(centre));
        }
        if let Some(noise) = result.noise {
            self.noise(self.movers[m].name, centre, c.time, noise);
        }
        for condition in added {
            self.give_condition(m, condition);
        }
    }

    /// A loop's sprain starts when the victim is let down: while it hangs, its countdown is
    /// held (bookkeeping takes one off each move, this puts it back).
    pub(super) fn loop_release(&mut self, m: usize) {
        let mover = &mut self.movers[m];
        if !mover.conditions.iter().any(|c| c.kind == ConditionKind::InjuryOnRelease) {
            return;
        }
        let hanging = mover.conditions.iter().any(|c| c.kind == ConditionKind::HangingInLoop);
        let mut released = Vec::new();
        for c in mover.conditions.to_mut().iter_mut().filter(|c| c.kind == ConditionKind::InjuryOnRelease) {
            if hanging {
                c.moves_left = c.moves_left.map(|n| n.saturating_add(1));
            } else {
                // The name loses its " (on release)" unless the GM renamed it.
                if let Some(len) = c.name.strip_suffix(ON_RELEASE).map(str::len) {
                    c.name.truncate(len);
                }
                c.kind = ConditionKind::Injury;
                released.push(c.clone());
            }
        }
        mover.changed = true;
        let name = mover.name;
        for c in released {
            self.event(
                crate::sim::log::LogEvent::new("traps", "injury_starts", name)
                    .outcome(TrapOutcome::ReleasedFromLoop)
                    .field("condition", LoggedCondition::of(&c)),
            );
        }
    }

    /// 000 "Leydonic (Electric) Traps": a charged trap discharges into whoever makes the
    /// connection, then needs its recharge time. It stays hidden: the victim found a shock,
    /// not the mechanism.
    fn leydonic(&mut self, c: Candidate, trap: LeydonicTrap, discharged_at: Option<u32>) {
        let (m, t) = (c.mover, c.trap);
        if !self.live_for(m, t) {
            return;
        }
        let since = discharged_at.map(|at| self.move_number.saturating_sub(at));
        if !leydonic_charged(&trap, since) {
            let event = self
                .new_event("leydonic", m, t, c.time)
                .outcome(TrapOutcome::NotCharged)
                .field("moves_since_discharge", since)
                .field("recharge_moves", trap.recharge_moves);
            self.event(event);
            return;
        }
        // The trap's strike, not the victim's throw: no evil eye.
        let result = discharge_leydonic(&trap, self.movers[m].sheet.armour, &self.settings.morval, &mut self.dice);
        let event = self
            .new_event("leydonic", m, t, c.time)
            .outcome(TrapOutcome::Discharged)
            .roll(result.strike.clone())
            .field("strike", result.strike.total)
            .field("strike_note", "Morval combat tables are not in the sources: reported")
            .field("recharged_after_moves", result.recharged_after_moves);
        self.event(event);
        if let TrapKind::Leydonic { discharged_at_move, .. } = &mut self.traps[t].spec.to_mut().kind {
            *discharged_at_move = Some(self.move_number);
        }
        self.traps[t].changed = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scene files from before kinds: the names given here imply the kinds acted on.
    #[test]
    fn condition_names_imply_their_kinds() {
        assert_eq!(ConditionKind::implied_by(&format!("{HANGING_IN_LOOP} loop")), ConditionKind::HangingInLoop);
        let sprain = injury_name(rules::InjuryKind::SprainedFoot);
        assert_eq!(ConditionKind::implied_by(&format!("{sprain}{ON_RELEASE}")), ConditionKind::InjuryOnRelease);
        assert_eq!(ConditionKind::implied_by(&sprain), ConditionKind::Other);
    }
}
