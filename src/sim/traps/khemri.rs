//! Khemri tomb traps on the table (002 "Traps", "SKILLS"): the deal, crossing counters, every
//! complex trap with the models around it, Spot/Disarm and Set Trap. Rolls come from
//! `rules::khemri_traps`; the geometry (who is near, where a boulder rolls) is worked out here.

use super::{Candidate, Mover, ON_EDGE, Output, Pass, TrapFlame, with_rolls};
use crate::rules::dice::{Dice, Roll, Rolls, SeededDice};
use crate::rules::khemri_traps::{
    self as rules, BoulderDirection, Bystander, ComplexEffect, CrossingOutcome, DisarmOutcome, HitsReport, KhemriTrap,
    MordheimProfile, TrapCounter, TrapDeck, TrapEffect, TrapStatus, TrapSurroundings, TrapVictim, TrapsPerPlayer,
    attempt_disarm, attempt_set_trap, boulder_path_model, cross_trap, resolve_swinging_blades, trap_count,
};
use crate::scene::traps::{OpenPit, PitClimb};
use crate::scene::{self, ConditionKind, Scene, Skill, TrapKind};
use crate::sim::clock::{MoveClock, move_seed};
use crate::sim::geometry::point_segment_distance;
use crate::sim::log::{EventLog, LogEvent, point_to_thousandths};
use crate::sim::outcome::TrapOutcome;
use bevy::prelude::*;
use std::collections::HashMap;

/// The condition of a figure that stopped on a Swinging Blades counter: the blades strike
/// again at the start of its next move (002 "7 - Swinging Blades").
const UNDER_BLADES: &str = "under swinging blades";
/// House rule: a figure brought to 0 wounds by a trap is out of action (what follows, the
/// Mordheim injury roll, is not in the sources).
const OUT_OF_ACTION: &str = "out of action";
/// Keeps the deal's dice apart from any move's dice.
const DEAL_SALT: u64 = 0x6b68_656d_7269_6465;

/// A Khemri counter in play: the rules' counter, and whether the deal left it on the table.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct KhemriCounter {
    /// The counter as the rules see it: its kind and state.
    pub counter: TrapCounter,
    /// False for counters beyond the number its side rolled: they are not in play.
    pub in_play: bool,
    /// The scene left it to the deck; while face down the file keeps it undrawn, and the
    /// same seed deals it the same again.
    pub dealt: bool,
}

impl KhemriCounter {
    /// Write its state into the scene's trap.
    pub(super) fn write_back(&self, trap: &mut scene::Trap) {
        if let TrapKind::Khemri { drawn, complex, status, pit_depth, .. } = &mut trap.kind {
            let c = &self.counter;
            if !self.dealt || c.face_up || c.status != TrapStatus::Active {
                *drawn = Some(c.trap);
            }
            *complex = c.complex;
            *status = c.status;
            *pit_depth = c.pit_depth;
        }
        trap.revealed = self.counter.face_up;
    }
}

/// 002 "Traps": deal the counters. Each side that set counters rolls D6 (or one D6 for
/// everyone, or takes the set number) for how many it may place, and each counter draws one
/// card face down from one deck of 3:1:1, in scene order, with dice from the run's seed: the
/// same scene and seed deal the same. Counters past their side's number stay off the table.
/// The deal is logged when the scene starts (no moves played), so a saved scene run on does
/// not log it twice.
pub(super) fn deal(world: &mut World, scene: &Scene, seed: u64) -> HashMap<usize, KhemriCounter> {
    let settings = &scene.rules.traps.khemri;
    let mut dice = SeededDice::new(move_seed(seed ^ DEAL_SALT, 0));
    let mut deck = TrapDeck::new(settings.deck_sets, &mut dice);
    let mut sides: Vec<(Option<String>, Vec<usize>)> = Vec::new();
    for (i, t) in scene.traps.iter().enumerate() {
        if matches!(t.kind, TrapKind::Khemri { .. }) {
            match sides.iter_mut().find(|(s, _)| *s == t.side) {
                Some((_, list)) => list.push(i),
                None => sides.push((t.side.clone(), vec![i])),
            }
        }
    }
    let mut out = HashMap::new();
    let mut events = Vec::new();
    // "one D6 roll that applied to everyone": rolled once, logged with the first side's deal.
    let mut once = (settings.traps_per_player == TrapsPerPlayer::RollD6Once && !sides.is_empty())
        .then(|| trap_count(settings, &mut dice));
    let shared = once.as_ref().map(|c| c.count);
    for (side, indices) in sides {
        // Only the number is rolled here: the counters themselves draw their cards below.
        let count = match (shared, once.take()) {
            (Some(_), Some(first)) => first,
            (Some(n), None) => rules::TrapCount { roll: None, count: n },
            (None, _) => trap_count(settings, &mut dice),
        };
        let allowed = count.count as usize;
        let side_name = side.unwrap_or_else(|| "(no side)".to_string());
        let mut left_out = Vec::new();
        let refills_before = deck.refills();
        for (n, &i) in indices.iter().enumerate() {
            let t = &scene.traps[i];
            let TrapKind::Khemri { drawn, complex, status, pit_depth, .. } = &t.kind else { continue };
            // Each counter takes a card, drawn or not, so the rest deal the same on a reload.
            let card = deck.draw(&mut dice);
            let counter = TrapCounter {
                id: i as u32,
                trap: drawn.unwrap_or(card),
                face_up: t.revealed,
                complex: *complex,
                status: *status,
                pit_depth: *pit_depth,
            };
            let settled = counter.face_up || counter.status != TrapStatus::Active;
            let in_play = n < allowed || settled;
            if !in_play {
                left_out.push(t.name.clone());
            }
            out.insert(i, KhemriCounter { counter, in_play, dealt: drawn.is_none() });
        }
        let deal = LogEvent::new("traps", "khemri_deal", side_name)
            .outcome(if left_out.is_empty() { TrapOutcome::Dealt } else { TrapOutcome::CountersLeftOut })
            .field("allowed", allowed)
            .field("placed", indices.len())
            .field("left_out", left_out)
            .field("one_roll_for_everyone", shared.is_some());
        // The deck ran out while this side drew: its size (house rule `deck_sets`) decided the refill.
        let refilled = deck.refills() > refills_before;
        events.push(if refilled { deal.house_rule("traps.khemri.deck_sets") } else { deal });
        if let Some(roll) = count.roll {
            let last = events.len() - 1;
            events[last] = events[last].clone().roll(roll);
        }
    }
    if scene.clock.moves_played == 0 {
        let clock = world.get_resource::<MoveClock>().copied().unwrap_or_default();
        if let Some(mut log) = world.get_resource_mut::<EventLog>() {
            for e in events {
                log.push(&clock, e);
            }
        }
    }
    out
}

/// A Khemri pit that has gone off and stays open: its depth (002 "3-4 - Pit").
pub(super) fn open_pit_depth(kc: &KhemriCounter) -> Option<i32> {
    let c = &kc.counter;
    let pit = c.status == TrapStatus::Spent && c.complex == Some(rules::ComplexTrap::Pit);
    c.pit_depth.filter(|_| pit)
}

fn profile(f: &scene::Figure, wounds: Option<i32>) -> Option<MordheimProfile> {
    f.mordheim.map(|p| MordheimProfile {
        weapon_skill: i32::from(p.ws),
        strength: i32::from(p.s),
        toughness: i32::from(p.t),
        wounds: wounds.unwrap_or(i32::from(p.w)),
        initiative: i32::from(p.i),
        save: p.sv.map(i32::from),
    })
}

fn skill_times(f: &scene::Figure, set_trap: bool) -> u8 {
    f.skills
        .iter()
        .filter_map(|s| match (s, set_trap) {
            (Skill::SpotDisarm(n), false) | (Skill::SetTrap(n), true) => Some(*n),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

impl Pass<'_> {
    fn victim(&self, m: usize) -> TrapVictim {
        let mover = &self.movers[m];
        let mut v = match profile(mover.sheet, mover.wounds) {
            Some(p) => TrapVictim::from_profile(p),
            None => TrapVictim::with_initiative(self.settings.table.default_initiative),
        };
        v.spot_disarm = skill_times(mover.sheet, false);
        // 001 "Lay an evil eye Curse": −1 on its Initiative tests and skill rolls, a bystander's too.
        v.evil_eye = mover.cursed.is_some();
        v
    }

    /// The other figures at `time`, with their distance from `at` (the bystander id is the
    /// mover's index).
    fn bystanders(&self, m: usize, at: Vec2, time: f32) -> Vec<Bystander> {
        self.movers_near(at, rules::NEARBY_RANGE as f32 + 1.0 + ON_EDGE)
            .into_iter()
            .filter(|&o| o != m)
            .map(|o| Bystander {
                id: o as u32,
                distance: f64::from(self.movers[o].position_at_time(time).distance(at)),
                victim: self.victim(o),
            })
            .filter(|b| b.distance <= rules::NEARBY_RANGE + 1.0)
            .collect()
    }

    /// Take a trap's hits off a figure's wounds; at none left it is out of action.
    fn apply_hits(&mut self, m: usize, hits: &HitsReport) {
        let mover = &mut self.movers[m];
        if let (Some(left), Some(_)) = (hits.wounds_left, mover.wounds) {
            mover.wounds = Some(left);
            mover.changed = true;
        }
        if hits.out_of_wounds && !mover.conditions.iter().any(|c| c.kind == ConditionKind::OutOfAction) {
            let d = mover.cap;
            mover.halt(d);
            self.give_condition(m, Self::lasting(ConditionKind::OutOfAction, OUT_OF_ACTION, 0.0, None, true));
        }
    }

    fn hits_fields(event: LogEvent, hits: Option<&HitsReport>) -> LogEvent {
        match hits {
            Some(h) => event
                .field("strength", h.strength)
                .field("hits", h.hits.len())
                .field("hit_outcomes", h.hits.iter().map(|x| x.outcome.id()).collect::<Vec<_>>())
                .field("wounds", h.wounds)
                .field("wounds_left", h.wounds_left)
                .field("out_of_wounds", h.out_of_wounds),
            None => event.field("hits", 0),
        }
    }

    /// 002 "Traps": a figure of any side moving over a counter tests Initiative; Spot/Disarm
    /// never sets one off, and (house rule `disarm_counters`) stops to disarm it.
    pub(super) fn cross_counter(&mut self, c: Candidate) {
        let (m, t) = (c.mover, c.trap);
        let Some(mut kc) = self.traps[t].khemri.clone() else { return };
        if let Some(depth) = open_pit_depth(&kc) {
            if kc.in_play {
                self.khemri_open_pit(c, depth);
            }
            return;
        }
        // 002 "Traps": "When a model was to move over a trap counter": any model, of any side.
        if !kc.in_play || !self.traps[t].spec.armed {
            return;
        }
        let victim = self.victim(m);
        let at = self.movers[m].point_at(c.distance);
        let stopped_on = self.traps[t].area().distance(self.movers[m].final_position()) <= ON_EDGE;
        let surroundings = self.surroundings(m, t, at, c.time);
        let report =
            cross_trap(&mut kc.counter, &victim, stopped_on, &surroundings, &self.settings.khemri, &mut self.dice);
        let event = with_rolls(self.new_event("khemri_crossing", m, t, c.time), report.test.clone())
            .outcome(report.outcome)
            .field("initiative", victim.initiative)
            .field("stopped_on_counter", stopped_on);
        self.event(event);
        self.set_counter(t, kc);
        match report.outcome {
            CrossingOutcome::Triggered => {
                if let Some(effect) = report.effect {
                    self.apply_effect(m, t, c.time, c.distance, stopped_on, effect);
                }
            }
            CrossingOutcome::Spotted if self.settings.table.disarm_counters => self.disarm(c, at),
            CrossingOutcome::Spotted | CrossingOutcome::Avoided | CrossingOutcome::Inactive => {}
        }
    }

    /// 002 "3-4 - Pit": "there will be a pit (depth determined by the original roll) in the
    /// tunnel": a figure that enters it falls in ("Use the MH rules for falling"); it tests I
    /// first only under the house rule `table.open_pit_entry_roll`.
    fn khemri_open_pit(&mut self, c: Candidate, depth: i32) {
        let (m, t) = (c.mover, c.trap);
        let victim = self.victim(m);
        let entry = rules::fall_into_open_pit(depth, &victim, self.settings.table.open_pit_entry_roll, &mut self.dice);
        let e = with_rolls(self.new_event("khemri_open_pit", m, t, c.time), (&entry.test, &entry.fall).rolls())
            .outcome(if entry.fall.is_some() { TrapOutcome::FellIn } else { TrapOutcome::KeptFooting })
            .field("depth", depth)
            .house_rule("traps.table.open_pit_entry_roll");
        // Under `open_pit: fall_in` the house rule walked it into the pit.
        let e = if self.settings.table.open_pit == OpenPit::FallIn { e.house_rule("traps.table.open_pit") } else { e };
        self.event(Self::hits_fields(e, entry.fall.as_ref().map(|f| &f.hits)));
        if let Some(fall) = &entry.fall {
            let name = self.traps[t].spec.name.clone();
            let in_pit = Self::lasting(ConditionKind::InPit, format!("in pit {name}"), 0.0, self.in_pit_moves(), true);
            let centre = self.traps[t].position;
            self.halt(m, c.distance, Some(centre));
            self.give_condition(m, in_pit);
            self.apply_hits(m, &fall.hits);
        }
    }

    fn surroundings(&self, m: usize, t: usize, at: Vec2, time: f32) -> TrapSurroundings {
        let narrow_hall = matches!(self.traps[t].spec.kind, TrapKind::Khemri { hall: Some(_), .. });
        TrapSurroundings {
            narrow_hall,
            nearby: self.bystanders(m, at, time),
            pit_edge: Some(self.pit_edge(m, t, time)),
        }
    }

    /// 002 "3-4 - Pit": "Any other models 1" or closer to the pit": the other figures at `time`,
    /// with their distance from the counter's edge (the pit is the counter's area).
    fn pit_edge(&self, m: usize, t: usize, time: f32) -> Vec<Bystander> {
        let area = self.traps[t].area();
        self.movers_near_area(area, rules::PIT_EDGE_RANGE as f32 + 1.0 + ON_EDGE)
            .into_iter()
            .filter(|&o| o != m)
            .map(|o| Bystander {
                id: o as u32,
                distance: f64::from(area.distance(self.movers[o].position_at_time(time))),
                victim: self.victim(o),
            })
            .filter(|b| b.distance <= rules::PIT_EDGE_RANGE + 1.0)
            .collect()
    }

    /// Moves a figure that fell into a pit stays in it: `table.pit_climb` `after_moves(n)` (or
    /// the older `in_pit_moves`); otherwise until it climbs out or the GM frees it.
    pub(super) fn in_pit_moves(&self) -> Option<u32> {
        match self.settings.table.pit_climb() {
            PitClimb::AfterMoves(n) => Some(n),
            PitClimb::GmFrees | PitClimb::InitiativeTest => None,
        }
    }

    /// House rule `table.pit_climb: initiative_test` (Mordheim-style, not in the sources; 002
    /// "3-4 - Pit": "Models who find themselves still alive in the pit will also have to climb
    /// out"): each move a figure in a pit tests Initiative (D6 ≤ I); passing, it is placed on
    /// the pit's edge nearest its next waypoint and is no longer in the pit.
    pub(super) fn climb_out(&mut self, m: usize) {
        if self.settings.table.pit_climb() != PitClimb::InitiativeTest {
            return;
        }
        let Some(i) = self.movers[m].conditions.iter().position(|c| c.kind == ConditionKind::InPit) else {
            return;
        };
        let victim = self.victim(m);
        let test = victim.initiative_test(&mut self.dice);
        let out = test.passed() == Some(true);
        let mover = &self.movers[m];
        let here = mover.final_position();
        // The pit it is in: the first pit (scene order) under it, among the traps met from here.
        let pit = self.trap_index.near(&[(here, here)]).into_iter().find(|&t| {
            let t = &self.traps[t];
            matches!(t.spec.kind, TrapKind::Pit { .. } | TrapKind::FallingFloor { .. } | TrapKind::Khemri { .. })
                && t.area().distance(here) <= ON_EDGE
        });
        let edge = pit.filter(|_| out).map(|t| {
            let (centre, radius) = (self.traps[t].position, self.traps[t].spec.radius);
            let toward = mover.waypoints.front().map(|&w| w - centre).unwrap_or(here - centre);
            let dir = if toward.length() > ON_EDGE {
                toward.normalize()
            } else {
                Vec2::from_angle(mover.facing.to_radians())
            };
            centre + dir * radius
        });
        // A pit by the table's edge: the figure climbs out onto the table.
        let edge = edge.map(|p| self.onto_table(p));
        let condition = mover.conditions[i].name.clone();
        let mut e = LogEvent::new("traps", "pit_climb", mover.name)
            .roll(test)
            .outcome(if out { TrapOutcome::ClimbedOut } else { TrapOutcome::StillInPit })
            .field("condition", condition)
            .field("climb_rule", "house rule: Mordheim-style Initiative test, not in the sources")
            .field("to", edge.map(point_to_thousandths))
            .house_rule("traps.table.pit_climb");
        if let Some(t) = pit {
            e = e.field("trap", self.traps[t].name());
        }
        self.event(e);
        if out {
            let mover = &mut self.movers[m];
            mover.conditions.to_mut().remove(i);
            mover.changed = true;
            let d = mover.cap;
            if let Some(p) = edge {
                self.halt(m, d, Some(p));
            }
        }
    }

    fn set_counter(&mut self, t: usize, kc: KhemriCounter) {
        self.traps[t].spec.to_mut().revealed = kc.counter.face_up;
        self.traps[t].khemri = Some(kc);
        self.traps[t].changed = true;
    }

    /// 002 "SKILLS" > Spot/Disarm: he stops at the counter and tries; failing, he tests I or
    /// sets it off himself.
    fn disarm(&mut self, c: Candidate, at: Vec2) {
        let (m, t) = (c.mover, c.trap);
        let Some(mut kc) = self.traps[t].khemri.clone() else { return };
        if kc.counter.status != TrapStatus::Active || (kc.counter.face_up && kc.counter.trap == KhemriTrap::Dud) {
            return;
        }
        self.movers[m].halt(c.distance);
        let victim = self.victim(m);
        let surroundings = self.surroundings(m, t, at, c.time);
        let Ok(report) = attempt_disarm(&mut kc.counter, &victim, &surroundings, &self.settings.khemri, &mut self.dice)
        else {
            return;
        };
        let rolls = report.roll.iter().chain(report.initiative_test.iter()).cloned().collect::<Vec<_>>();
        let event = with_rolls(self.new_event("khemri_disarm", m, t, c.time), rolls)
            .outcome(report.outcome)
            .field("counter", kc.counter.trap.id())
            .field("spot_disarm", victim.spot_disarm);
        self.event(event);
        self.set_counter(t, kc);
        if report.outcome == DisarmOutcome::SetOff
            && let Some(effect) = report.effect
        {
            self.apply_effect(m, t, c.time, c.distance, true, effect);
        }
    }

    /// 002 "SKILLS" > Set Trap: a figure with the skill whose path ends on a face-up dud or a
    /// disarmed counter sets it. The text gives it no owner: the counter catches any model, and
    /// the log names who set it (`set_by`).
    pub(super) fn set_trap(&mut self, c: Candidate) {
        let (m, t) = (c.mover, c.trap);
        let times = skill_times(self.movers[m].sheet, true);
        let Some(mut kc) = self.traps[t].khemri.clone() else { return };
        let known_dud = kc.counter.face_up && kc.counter.trap == KhemriTrap::Dud;
        if times == 0 || !kc.in_play || !(known_dud || kc.counter.status == TrapStatus::Disarmed) {
            return;
        }
        let evil_eye = self.movers[m].cursed.is_some();
        let Ok(report) = attempt_set_trap(&mut kc.counter, times, evil_eye, &self.settings.khemri, &mut self.dice)
        else {
            return;
        };
        let rolls = report.dud_roll.iter().chain(std::iter::once(&report.roll)).cloned().collect::<Vec<_>>();
        let event = with_rolls(self.new_event("khemri_set_trap", m, t, c.time), rolls)
            .outcome(report.outcome)
            .field("becomes", report.becomes.id())
            .field("set_by", self.movers[m].name);
        self.event(event);
        self.set_counter(t, kc);
    }

    /// 002 "7 - Swinging Blades": "test against Ini at the beginning of his next turn".
    pub(super) fn blades_again(&mut self, m: usize) {
        let Some(i) = self.movers[m].conditions.iter().position(|c| c.kind == ConditionKind::UnderBlades) else {
            return;
        };
        let condition = self.movers[m].conditions.to_mut().remove(i);
        self.movers[m].changed = true;
        let victim = self.victim(m);
        let report = resolve_swinging_blades(&victim, false, &mut self.dice);
        let event =
            with_rolls(LogEvent::new("traps", "khemri_swinging_blades_again", self.movers[m].name), report.rolls())
                .outcome(if report.hits.is_some() { TrapOutcome::Struck } else { TrapOutcome::Dodged })
                .field("condition", &condition.name);
        let event = Self::hits_fields(event, report.hits.as_ref());
        self.event(event);
        if let Some(hits) = &report.hits {
            self.apply_hits(m, hits);
        }
    }

    /// What a triggered counter did, to the figure and those around it.
    fn apply_effect(&mut self, m: usize, t: usize, time: f32, d: f32, stopped_on: bool, effect: TrapEffect) {
        let base = |pass: &Pass, event: &'static str, who: usize| pass.new_event(event, who, t, time);
        match effect {
            TrapEffect::Dud => {
                let e = base(self, "khemri_trap", m).outcome(TrapOutcome::Dud);
                self.event(e);
            }
            TrapEffect::Simple(hits) => {
                let e = with_rolls(base(self, "khemri_trap", m), hits.rolls()).outcome(TrapOutcome::Simple);
                self.event(Self::hits_fields(e, Some(&hits)));
                self.apply_hits(m, &hits);
            }
            TrapEffect::Complex { table, effect } => {
                let table_rolls = table.as_ref().map(|t| t.rolls.clone()).unwrap_or_default();
                let trap_id = effect.trap();
                let reuse = effect.trap().reuse(&self.settings.khemri).id();
                let head = |pass: &Pass, victim_report: &dyn Rolls| {
                    with_rolls(base(pass, "khemri_trap", m), table_rolls.iter().cloned().chain(victim_report.rolls()))
                        .outcome(trap_id)
                        .field("reuse", reuse)
                        .field("table_rolled", table.is_some())
                };
                match *effect {
                    ComplexEffect::Boulder(r) => {
                        let e = head(self, &(&r.dodge, &r.hit_count, &r.hits))
                            .field("dodged", r.hits.is_none())
                            .field("boulder_rolls_inches", r.rolling.distance.total)
                            .field("boulder_direction", r.rolling.direction.id())
                            .roll(r.rolling.distance.clone())
                            .roll(r.rolling.direction_roll.clone());
                        self.event(Self::hits_fields(e, r.hits.as_ref()));
                        if let Some(h) = &r.hits {
                            self.apply_hits(m, h);
                        }
                        self.roll_boulder(m, t, time, r.rolling.distance.total, r.rolling.direction);
                    }
                    ComplexEffect::Pit(r) => {
                        let e = head(self, &(&r.depth, &r.fall))
                            .field("depth", r.depth.total)
                            .field("fall_rule", rules::FALL_RULE);
                        self.event(Self::hits_fields(e, Some(&r.fall.hits)));
                        let name = self.traps[t].spec.name.clone();
                        let in_pit = Self::lasting(
                            ConditionKind::InPit,
                            format!("in pit {name}"),
                            0.0,
                            self.in_pit_moves(),
                            true,
                        );
                        self.halt(m, d, Some(self.traps[t].position));
                        self.give_condition(m, in_pit.clone());
                        self.apply_hits(m, &r.fall.hits);
                        for edge in &r.edge {
                            let o = edge.id as usize;
                            let e = with_rolls(base(self, "khemri_pit_edge", o), edge.rolls())
                                .outcome(if edge.fall.is_some() {
                                    TrapOutcome::FellIn
                                } else {
                                    TrapOutcome::KeptFooting
                                })
                                .field("fall_rule", rules::FALL_RULE);
                            self.event(Self::hits_fields(e, edge.fall.as_ref().map(|f| &f.hits)));
                            if let Some(fall) = &edge.fall {
                                let mover = &self.movers[o];
                                let od = (time * mover.speed).min(mover.cap);
                                self.halt(o, od, Some(self.traps[t].position));
                                self.give_condition(o, in_pit.clone());
                                self.apply_hits(o, &fall.hits);
                            }
                        }
                    }
                    ComplexEffect::Arrows(r) => {
                        let e = head(self, &(&r.arrow_count, &r.victim))
                            .field("arrows", r.arrow_count.total)
                            .field("misses", r.victim.misses)
                            .field("into_wall", r.into_wall);
                        self.event(Self::hits_fields(e, Some(&r.victim.hits)));
                        self.apply_hits(m, &r.victim.hits);
                        for stray in &r.strays {
                            let o = stray.id as usize;
                            let e = with_rolls(base(self, "khemri_stray_arrows", o), stray.volley.rolls())
                                .outcome(if stray.volley.hits.hits.is_empty() {
                                    TrapOutcome::Missed
                                } else {
                                    TrapOutcome::Hit
                                })
                                .field("arrows", stray.volley.rolls.len());
                            self.event(Self::hits_fields(e, Some(&stray.volley.hits)));
                            self.apply_hits(o, &stray.volley.hits);
                        }
                    }
                    ComplexEffect::SwingingBlades(r) => {
                        let e = head(self, &r).field("dodged", r.hits.is_none());
                        self.event(Self::hits_fields(e, r.hits.as_ref()));
                        if let Some(h) = &r.hits {
                            self.apply_hits(m, h);
                        }
                        if r.test_again_next_turn {
                            let name = format!("{UNDER_BLADES} {}", self.traps[t].spec.name);
                            self.give_condition(
                                m,
                                Self::lasting(ConditionKind::UnderBlades, name, 0.0, Some(1), false),
                            );
                        }
                    }
                    ComplexEffect::PoisonGas(r) => {
                        let e = head(self, &(&r.hit_count, &r.hits)).field("immune", r.immune);
                        self.event(Self::hits_fields(e, r.hits.as_ref()));
                        if let Some(h) = &r.hits {
                            self.apply_hits(m, h);
                        }
                        for b in &r.nearby {
                            let o = b.id as usize;
                            let e = with_rolls(base(self, "khemri_gas", o), b.rolls()).outcome(if b.immune {
                                TrapOutcome::Immune
                            } else {
                                TrapOutcome::Gassed
                            });
                            self.event(Self::hits_fields(e, b.hits.as_ref()));
                            if let Some(h) = &b.hits {
                                self.apply_hits(o, h);
                            }
                        }
                    }
                    ComplexEffect::FireTrap(r) => {
                        let e = head(self, &(&r.hits, &r.fire_roll)).field("on_fire", r.on_fire);
                        self.event(Self::hits_fields(e, Some(&r.hits)));
                        self.apply_hits(m, &r.hits);
                        let mut burning = Vec::new();
                        if r.on_fire {
                            burning.push(self.movers[m].name.to_string());
                        }
                        for b in &r.nearby {
                            let o = b.id as usize;
                            let e = base(self, "khemri_fire_nearby", o)
                                .roll(b.fire_roll.clone())
                                .outcome(if b.on_fire { TrapOutcome::OnFire } else { TrapOutcome::NotOnFire });
                            self.event(e);
                            if b.on_fire {
                                burning.push(self.movers[o].name.to_string());
                            }
                        }
                        let trap = &self.traps[t];
                        self.out.push(Output::Flame(TrapFlame {
                            trap: trap.spec.name.clone(),
                            position: trap.position,
                            diameter: 2.0 * trap.spec.radius,
                            figures_on_fire: burning,
                            source: super::FlameSource::KhemriFireTrap,
                        }));
                    }
                    ComplexEffect::CollapsingWalls(r) => {
                        let e = head(self, &(&r.dodge, &r.hits)).field("step_aside", r.step_aside);
                        self.event(Self::hits_fields(e, r.hits.as_ref()));
                        if let Some(h) = &r.hits {
                            self.apply_hits(m, h);
                        }
                        if r.step_aside && stopped_on {
                            self.step_aside(m, t, time);
                        }
                    }
                }
            }
        }
    }

    /// 002 "2 - Boulder": it rolls D6" from the counter, stopped by walls; each other figure in
    /// its way (within half the house-rule `boulder_width` of its line), nearest first, tests I
    /// or takes an S5 hit.
    fn roll_boulder(&mut self, m: usize, t: usize, time: f32, inches: i32, direction: BoulderDirection) {
        let from = self.traps[t].position;
        let degrees = match (direction, &self.traps[t].spec.kind) {
            (BoulderDirection::Hall { forward }, TrapKind::Khemri { hall: Some(h), .. }) => {
                if forward {
                    *h
                } else {
                    h + 180.0
                }
            }
            // A clock face: 12 o'clock is north (+y), hours clockwise.
            (BoulderDirection::Clock { degrees, .. }, _) => 90.0 - degrees as f32,
            (BoulderDirection::Hall { .. }, _) => 0.0,
        };
        let mut to = from + Vec2::from_angle(degrees.to_radians()) * inches as f32;
        if let Some(f) = self.walls.first_hit(from, to) {
            to = from + (to - from) * f;
        }
        let half = self.settings.table.boulder_width / 2.0;
        let mut in_way: Vec<(f32, usize)> = self
            .movers_along(from, to, half.max(0.0) + ON_EDGE)
            .into_iter()
            .filter(|&o| o != m)
            .filter_map(|o| {
                let p = self.movers[o].position_at_time(time);
                (point_segment_distance(p, from, to) <= half).then(|| (p.distance(from), o))
            })
            .collect();
        in_way.sort_by(|a, b| a.0.total_cmp(&b.0).then(self.movers[a.1].order.cmp(&self.movers[b.1].order)));
        let e = self
            .new_event("khemri_boulder_rolls", m, t, time)
            .outcome(if in_way.is_empty() { TrapOutcome::Clear } else { TrapOutcome::ModelsInWay })
            .field("from", point_to_thousandths(from))
            .field("to", point_to_thousandths(to))
            .field("in_way", in_way.iter().map(|&(_, o)| self.movers[o].name).collect::<Vec<_>>());
        self.event(e);
        for (distance, o) in in_way {
            let bystander = Bystander { id: o as u32, distance: f64::from(distance), victim: self.victim(o) };
            let hit = boulder_path_model(&bystander, &self.settings.khemri, &mut self.dice);
            let e = with_rolls(self.new_event("khemri_boulder_path", o, t, time), hit.rolls())
                .outcome(if hit.hits.is_some() { TrapOutcome::Struck } else { TrapOutcome::Dodged });
            self.event(Self::hits_fields(e, hit.hits.as_ref()));
            if let Some(h) = &hit.hits {
                self.apply_hits(o, h);
            }
        }
    }

    /// 002 "12 - Collapsing walls": a model that dodged while stopped on the counter moves 1"
    /// to either side. House rule: a D6 picks the side (1–3 left of its way, 4–6 right); a
    /// side a wall blocks, or off the table, is not taken.
    fn step_aside(&mut self, m: usize, t: usize, time: f32) {
        let mover: &Mover = &self.movers[m];
        let from = mover.final_position();
        let heading = mover.heading_at(mover.cap);
        let roll = Roll::new(Dice::D6, &mut self.dice);
        let left = heading.perp();
        let first = if roll.total <= 3 { left } else { -left };
        let blocked = |p: Vec2| !self.on_table(p) || self.walls.first_hit(from, p).is_some();
        let choice = [from + first, from - first].into_iter().find(|&p| !blocked(p));
        let e = self
            .new_event("khemri_step_aside", m, t, time)
            .roll(roll)
            .outcome(if choice.is_some() { TrapOutcome::SteppedAside } else { TrapOutcome::WallsBothSides })
            .field("to", choice.map(point_to_thousandths));
        self.event(e);
        if let Some(p) = choice {
            let d = self.movers[m].cap;
            self.halt(m, d, Some(p));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scene files from before kinds: the names given here imply the kinds acted on.
    #[test]
    fn condition_names_imply_their_kinds() {
        assert_eq!(ConditionKind::implied_by(OUT_OF_ACTION), ConditionKind::OutOfAction);
        assert_eq!(ConditionKind::implied_by(&format!("{UNDER_BLADES} blades")), ConditionKind::UnderBlades);
    }
}
