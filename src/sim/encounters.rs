//! OSR exploration and encounters on the table (003, `src/rules/osr.rs`); docs/osr.md "In a
//! scene" gives every reading.
//!
//! Under `rules_family: osr` each step of the schedule is an OSR turn (10 minutes) while the
//! party explores and a round (1 minute) while a combat runs. The Encounters set runs after
//! Sleepers and before Sight, in one exclusive system:
//! 1. exploring: the turn passes on the OSR clock; every second exploring turn a
//!    wandering-monster check (1 in 6). On an encounter a row of the scene's table is drawn,
//!    the distance rolled (2d6×10 feet, yards in the wilderness), a point of entry chosen among
//!    the logical ones, the monsters spawned there as figures of the monster side, surprise and
//!    reaction rolled; at or below `rules.osr.fights_at` a combat begins;
//! 2. in combat: one round a step. The combat order is stepped phase by phase (initiative
//!    rolled where the text says; a scene's attack tables rolled in the ranged and melee
//!    phases, `rules.osr.attacks`), the GM's hits for the round land, morale and loyalty are
//!    checked where a circumstance calls for it, and the combat ends on slaughter, surrender,
//!    retreat, or the GM's (or the table row's) ceasefire. No wandering check comes while a
//!    combat runs (its rounds are not exploring turns);
//! 3. the party's pace: each member's speed from what it carries and wears, the party at its
//!    slowest member's unless in full retreat, written as the members' `move_rate` for the next
//!    step (exploration speed a turn, combat speed a round).
//!
//! Under `rules_family: morval` the system does nothing (no die, no event, so Morval logs are
//! as they were) unless the scene has an OSR encounter table: then a wandering check comes on
//! every `rules.osr.moves_per_wandering_check`-th move, with the encounter as above but no
//! combat stepped (Morval combat is outside the sources). Figures are visited in scene order.

use super::clock::{MoveClock, SimDice};
use super::log::{EventLog, LogEvent, point_to_thousandths, round_to_thousandths};
use super::outcome::EncounterEventOutcome;
use super::world::{Facing, Figure, SceneOrder, Swept, TablePosition, TableSize, Walls, vec2};
use super::{Move, MoveSystems};
use crate::rules::dice::{DiceSource, Rolls};
use crate::rules::obstacles::ItemWeights;
use crate::rules::osr::{
    AttackOutcome, AttackResolution, AttackTargets, CarriedItem, CombatEnd, CombatOrder, CombatPhase, Encumbrance,
    EntryKind, EntryPoint, FaceCandidate, LeaderState, MoraleCheck, MoraleKind, MoraleOutcome, MoraleState, OsrAttack,
    OsrClock, OsrSettings, OsrSpeed, PartyPace, TURN_MINUTES, WanderingOutcome, armour_row, choose_entry_point,
    choose_face, encumbrance, morale_check_due, morale_triggers, party_pace, roll_attack, roll_encounter_distance,
    roll_morale, roll_reaction, roll_surprise, roll_wandering_check, surprise_chances, tallied_weight_lb,
};
use crate::scene::osr::{EncounterEntry, EncounterState, OsrSection, OsrSheet, OsrStanding, RulesFamily};
use crate::scene::{self, Scene};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OsrBook>();
    app.add_systems(Move, resolve_encounters.in_set(MoveSystems::Encounters));
}

/// How far apart the monsters of one group are placed, in inches, across their line of approach.
pub const MONSTER_SPACING_IN: f32 = 1.0;
/// How far short of an entry point a line of sight is tested, in inches (a door lies in its wall).
const ENTRY_NUDGE_IN: f32 = 0.1;
/// Most phases one step may pass through (a round has at most seven).
const MAX_PHASES_A_STEP: usize = 16;
/// What a `combat` event says under `rules_family: morval` when the reaction would fight.
pub const MORVAL_COMBAT_NOTE: &str =
    "Morval time: combat is outside the sources, so it is not stepped; the GM plays it (hits, morale, its end)";

/// The scene's OSR section as play has changed it, with `rules.osr`, the rules family and the
/// item weights the inventories are weighed by.
#[derive(Resource, Debug, Clone, Default)]
pub struct OsrBook {
    /// The scene's `osr` section: sheets, table, entries, orders, clock, encounter in progress.
    pub section: OsrSection,
    /// `rules.osr`.
    pub settings: OsrSettings,
    /// The scene's rules family: nothing runs under Morval.
    pub family: RulesFamily,
    /// `rules.obstacles.weights`, for the figures' inventories.
    pub weights: ItemWeights,
}

impl OsrBook {
    /// Whether the OSR procedure runs.
    pub fn is_osr(&self) -> bool {
        self.family == RulesFamily::Osr
    }

    /// The clock as the GM reads it: the turn, the minutes, and the round of a combat.
    pub fn clock_label(&self) -> String {
        let c = self.section.clock;
        let time = format!("{}:{:02}", c.minutes / 60, c.minutes % 60);
        match &self.section.encounter {
            Some(e) => format!("Turn {} ({time}), combat round {}", c.turns() + 1, e.round),
            None => format!("Turn {} ({time})", c.turns() + 1),
        }
    }

    /// Exploring turns until the next wandering-monster check.
    pub fn turns_until_check(&self) -> u32 {
        self.section.clock.turns_until_check()
    }

    /// Under `rules_family: morval`, whether move `move_number` brings a wandering-monster
    /// check: the scene has an OSR encounter table, the party is not resting, and the move is
    /// the Nth, 2Nth, ... of the scene's clock (N = `rules.osr.moves_per_wandering_check`,
    /// RULES-NOTES "Time and movement": "every two turns" of exploring is every 7 moves).
    pub fn morval_check_due(&self, move_number: u32) -> bool {
        let every = self.settings.moves_per_wandering_check.max(1);
        !self.is_osr()
            && !self.section.encounter_table.is_empty()
            && !self.section.resting
            && move_number > 0
            && move_number.is_multiple_of(every)
    }
}

/// Keep the scene's OSR section, and set the party's pace for the first step.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    world.insert_resource(OsrBook {
        section: scene.osr.clone(),
        settings: scene.rules.osr.clone(),
        family: scene.rules_family,
        weights: scene.rules.obstacles.weights,
    });
    if scene.rules_family == RulesFamily::Osr {
        set_party_pace(world);
    }
}

/// Write the OSR section back into the scene.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    if let Some(book) = world.get_resource::<OsrBook>() {
        scene.osr = book.section.clone();
    }
}

/// A figure as the encounters read it.
#[derive(Debug, Clone)]
struct Body {
    order: u32,
    name: String,
    side: String,
    at: Vec2,
    facing: f32,
    /// Where it stood at the start of the step (its first swept segment's start).
    started: Vec2,
}

fn bodies(world: &mut World) -> Vec<Body> {
    let mut v: Vec<Body> = world
        .query::<(&SceneOrder, &Figure, &TablePosition, &Facing, &Swept)>()
        .iter(world)
        .map(|(order, f, p, facing, swept)| Body {
            order: order.0,
            name: f.0.name.clone(),
            side: f.0.side.clone(),
            at: p.0,
            facing: facing.0,
            started: swept.segments.first().map_or(p.0, |s| s.0),
        })
        .collect();
    v.sort_by_key(|b| b.order);
    v
}

/// One step's encounters, worked out of the world and written back.
struct Pass {
    book: OsrBook,
    dice: SimDice,
    bodies: Vec<Body>,
    walls: Walls,
    table: Vec2,
    doors: Vec<scene::Door>,
    out: Vec<LogEvent>,
    spawned: Vec<scene::Figure>,
}

fn resolve_encounters(world: &mut World) {
    let clock = *world.resource::<MoveClock>();
    let Some(book) = world.get_resource::<OsrBook>() else { return };
    // Morval time: nothing at all but on a move a check is due (no table: never, no die).
    if !book.is_osr() && !book.morval_check_due(clock.move_number) {
        return;
    }
    let book = book.clone();
    let walls = world.get_resource::<Walls>().cloned().unwrap_or_default();
    let doors = walls.doors().to_vec();
    let table = world.get_resource::<TableSize>().map_or(Vec2::ZERO, |t| t.0);
    let mut pass = Pass {
        book,
        dice: world.resource::<SimDice>().clone(),
        bodies: bodies(world),
        walls,
        table,
        doors,
        out: Vec::new(),
        spawned: Vec::new(),
    };
    if !pass.book.is_osr() {
        pass.morval_check();
    } else if pass.book.section.encounter.is_some() {
        pass.combat_round();
    } else {
        pass.explore();
    }
    let mut next = pass.bodies.iter().map(|b| b.order).max().map_or(0, |m| m.saturating_add(1));
    for f in std::mem::take(&mut pass.spawned) {
        world.spawn(super::world::figure_bundle(next, &f));
        next = next.saturating_add(1);
    }
    let osr = pass.book.is_osr();
    world.insert_resource(pass.dice);
    world.insert_resource(pass.book);
    // Morval movement keeps its own rates: the OSR pace is for OSR time only.
    if osr {
        set_party_pace(world);
    }
    let mut log = world.resource_mut::<EventLog>();
    for e in pass.out {
        log.push(&clock, e);
    }
}

/// The OSR clock on an event: the turn it falls in (from 1) and the minutes passed.
pub(crate) fn stamped(e: LogEvent, clock: OsrClock) -> LogEvent {
    e.field("osr_turn", clock.minutes.div_ceil(TURN_MINUTES).max(1)).field("osr_minutes", clock.minutes)
}

impl Pass {
    fn log(&mut self, e: LogEvent) {
        // Morval time keeps no OSR clock: its events carry the move alone.
        let e = if self.book.is_osr() { stamped(e, self.book.section.clock) } else { e };
        self.out.push(e);
    }

    fn order_of(&self, name: &str) -> u32 {
        self.bodies.iter().find(|b| b.name == name).map_or(u32::MAX, |b| b.order)
    }

    /// The party: figures of the party side with a sheet, fighting, in scene order.
    fn party(&self) -> Vec<Body> {
        let s = &self.book.section;
        self.bodies
            .iter()
            .filter(|b| b.side == s.party_side)
            .filter(|b| s.sheet(&b.name).is_some_and(|sh| sh.standing == OsrStanding::Fighting))
            .cloned()
            .collect()
    }

    fn sheet_mut(&mut self, name: &str) -> Option<&mut OsrSheet> {
        self.book.section.sheets.iter_mut().find(|s| s.figure == name)
    }

    // ---- exploring ----

    fn explore(&mut self) {
        let exploring = !self.book.section.resting;
        let due = self.book.section.clock.add_turn(exploring);
        let outcome = if exploring { EncounterEventOutcome::Exploring } else { EncounterEventOutcome::Resting };
        let c = self.book.section.clock;
        let e = LogEvent::new("encounters", "osr_turn", self.book.section.party_side.clone())
            .outcome(outcome)
            .field("exploring_turns", c.exploring_turns)
            .field("turns_until_check", c.turns_until_check())
            .field("check_due", due);
        self.log(e);
        if !due {
            return;
        }
        let check = roll_wandering_check(&mut self.dice);
        let e = LogEvent::new("encounters", "wandering_check", self.book.section.party_side.clone())
            .outcome(check.outcome)
            .field("exploring_turns", c.exploring_turns);
        let e = check.roll.rolls().into_iter().fold(e, LogEvent::roll);
        self.log(e);
        if check.outcome == WanderingOutcome::Encounter {
            self.begin_encounter();
        }
    }

    // ---- Morval time ----

    /// Under `rules_family: morval`, on a move a check is due ([`OsrBook::morval_check_due`]):
    /// the 1 in 6, and on an encounter the row, distance, entry, monsters, surprise and
    /// reaction as under OSR. Combat is not stepped ([`MORVAL_COMBAT_NOTE`]), so no encounter
    /// stays in progress and the next check comes N moves on whatever the monsters do.
    fn morval_check(&mut self) {
        let check = roll_wandering_check(&mut self.dice);
        let e = LogEvent::new("encounters", "wandering_check", self.book.section.party_side.clone())
            .outcome(check.outcome)
            .field("rules_family", RulesFamily::Morval.id())
            .field("moves_per_wandering_check", self.book.settings.moves_per_wandering_check);
        let e = check.roll.rolls().into_iter().fold(e, LogEvent::roll);
        self.log(e);
        if check.outcome == WanderingOutcome::Encounter {
            self.begin_encounter();
        }
    }

    fn begin_encounter(&mut self) {
        let table_len = self.book.section.encounter_table.len();
        let party_side = self.book.section.party_side.clone();
        if table_len == 0 {
            let e =
                LogEvent::new("encounters", "encounter_drawn", party_side).outcome(EncounterEventOutcome::EmptyTable);
            self.log(e);
            return;
        }
        let drawn =
            if table_len > 1 { self.dice.below(u32::try_from(table_len).unwrap_or(u32::MAX)) as usize } else { 0 };
        let Some(entry) = self.book.section.encounter_table.get(drawn).cloned() else { return };
        self.book.section.encounters_had = self.book.section.encounters_had.saturating_add(1);
        let number = self.book.section.encounters_had;
        let e = LogEvent::new("encounters", "encounter_drawn", entry.name.clone())
            .outcome(EncounterEventOutcome::Drawn)
            .field("encounter", number)
            .field("row", drawn + 1)
            .field("rows", table_len)
            .field("count", entry.count);
        self.log(e);
        let party = self.party();
        let monsters = self.place_monsters(&entry, number, &party);
        let surprise = self.surprise_of(&entry, &party);
        let reaction = self.reaction_of(&entry, &party);
        for p in &party {
            if let Some(sheet) = self.sheet_mut(&p.name) {
                sheet.morale_checked.clear();
            }
        }
        let fights = reaction <= self.book.settings.fights_at;
        // Only OSR time steps a combat: Morval combat is outside the sources.
        let stepped = self.book.is_osr();
        let outcome = match (fights, stepped) {
            (false, _) => EncounterEventOutcome::NoCombat,
            (true, true) => EncounterEventOutcome::CombatBegins,
            (true, false) => EncounterEventOutcome::CombatNotStepped,
        };
        let e = LogEvent::new("encounters", "combat", entry.name.clone())
            .outcome(outcome)
            .field("encounter", number)
            .field("reaction", reaction.id())
            .field("fights_at", self.book.settings.fights_at.id())
            .house_rule("osr.fights_at");
        let e = if stepped { e } else { e.field("rules_family", RulesFamily::Morval.id()) };
        let e = if fights && !stepped { e.field("note", MORVAL_COMBAT_NOTE) } else { e };
        self.log(e);
        if fights && stepped {
            let order = CombatOrder::begin(vec![surprise.0, surprise.1]);
            self.book.section.encounter = Some(EncounterState {
                number,
                entry: entry.name.clone(),
                monsters,
                party: party.iter().map(|b| b.name.clone()).collect(),
                party_surprised: surprise.0,
                monsters_surprised: surprise.1,
                reaction,
                phase: order.phase,
                round: order.round,
                order: order.order,
            });
        }
    }

    /// The candidates for a point of entry: the scene's list, then the doors, then the edges.
    fn entry_candidates(&self) -> Vec<(String, EntryKind, Vec2, bool)> {
        entry_candidates(&self.book.section, &self.doors, self.table)
    }

    /// Whether `eye` sees `at` with no wall between (tested to a hair short of it).
    fn sees(&self, eye: Vec2, at: Vec2) -> bool {
        let d = eye.distance(at);
        let target = if d > ENTRY_NUDGE_IN { at + (eye - at) * (ENTRY_NUDGE_IN / d) } else { eye };
        self.walls.first_hit(eye, target).is_none()
    }

    /// Roll the distance, choose the point of entry and spawn the monsters; their names.
    fn place_monsters(&mut self, entry: &EncounterEntry, number: u32, party: &[Body]) -> Vec<String> {
        let distance = roll_encounter_distance(self.book.section.terrain, &mut self.dice);
        let inches = distance.inches(&self.book.settings);
        let candidates = self.entry_candidates();
        // Reading: "the room the party just left" is what the party's first member saw from
        // where it stood when the step began and no longer sees now.
        let lead = party.first();
        let points: Vec<EntryPoint> = candidates
            .iter()
            .map(|(_, kind, at, illogical)| {
                let just_left = lead.is_some_and(|l| {
                    l.started.distance(l.at) > 1e-3 && self.sees(l.started, *at) && !self.sees(l.at, *at)
                });
                EntryPoint { kind: *kind, in_room_just_left: just_left, illogical: *illogical }
            })
            .collect();
        let choice = choose_entry_point(&points, &mut self.dice);
        let chosen = choice.chosen.and_then(|i| candidates.get(i));
        // The party member nearest the entry (the first among equals) is whom the distance is from.
        let (base, dir, outcome) = match (chosen, lead) {
            (Some((_, _, at, _)), Some(_)) => {
                let near =
                    party.iter().min_by(|a, b| a.at.distance(*at).total_cmp(&b.at.distance(*at))).map_or(*at, |b| b.at);
                let way = *at - near;
                let d = way.length();
                if d <= inches || d < 1e-6 {
                    (*at, way.normalize_or_zero(), EncounterEventOutcome::AtEntry)
                } else {
                    (near + way / d * inches, way / d, EncounterEventOutcome::NearerThanEntry)
                }
            }
            (Some((_, _, at, _)), None) => (*at, Vec2::ZERO, EncounterEventOutcome::AtEntry),
            (None, Some(l)) => {
                // Reading: no logical route: they come the rolled distance ahead of the first member.
                let ahead = Vec2::from_angle(l.facing.to_radians());
                (l.at + ahead * inches, ahead, EncounterEventOutcome::NoLogicalEntry)
            }
            (None, None) => (self.table / 2.0, Vec2::ZERO, EncounterEventOutcome::NoLogicalEntry),
        };
        let across = if dir == Vec2::ZERO { Vec2::X } else { Vec2::new(-dir.y, dir.x) };
        let facing = if dir == Vec2::ZERO { 0.0 } else { (-dir).to_angle().to_degrees() };
        let side = self.book.section.monster_side.clone();
        let mut names = Vec::new();
        let mut placed = Vec::new();
        let count = entry.count.max(1);
        for i in 0..count {
            let offset = (i as f32 - (count - 1) as f32 / 2.0) * MONSTER_SPACING_IN;
            let at = (base + across * offset).clamp(Vec2::ZERO, self.table);
            let name = format!("{} {}-{}", entry.name, number, i + 1);
            let json = serde_json::json!({
                "name": name,
                "side": side,
                "position": [at.x, at.y],
                "facing": round_to_thousandths(facing),
            });
            let Ok(figure) = serde_json::from_value::<scene::Figure>(json) else { continue };
            self.spawned.push(figure);
            self.book.section.sheets.push(OsrSheet {
                figure: name.clone(),
                hp: entry.hp,
                max_hp: entry.hp,
                charisma: 0,
                reaction_modifier: 0,
                morale: Some(entry.morale),
                henchman_of: None,
                carried: Vec::new(),
                inventory_kind: Default::default(),
                lights: 0,
                no_movement: false,
                attack: entry.attack.clone(),
                standing: OsrStanding::Fighting,
                morale_checked: Vec::new(),
            });
            placed.push(point_to_thousandths(at));
            names.push(name);
        }
        let logical: Vec<&str> =
            choice.logical.iter().filter_map(|&i| candidates.get(i)).map(|c| c.0.as_str()).collect();
        let e = LogEvent::new("encounters", "monsters_arrive", entry.name.clone())
            .outcome(outcome)
            .field("encounter", number)
            .field("distance", distance.distance)
            .field("unit", distance.unit.id())
            .field("feet", distance.feet)
            .field("inches", round_to_thousandths(inches))
            .field("entry", chosen.map(|c| c.0.as_str()))
            .field("entry_kind", chosen.map(|c| c.1.id()))
            .field("logical_entries", logical)
            .field("candidates", candidates.len())
            .field("monsters", &names)
            .field("placed", placed);
        let e = distance.roll.rolls().into_iter().fold(e, LogEvent::roll);
        self.log(e);
        names
    }

    /// S1: each side's surprise; (party surprised, monsters surprised).
    fn surprise_of(&mut self, entry: &EncounterEntry, party: &[Body]) -> (bool, bool) {
        let s = &self.book.section;
        let lights = party.iter().any(|b| s.sheet(&b.name).is_some_and(|sh| sh.lights > 0));
        let chances = surprise_chances(s.terrain, lights, s.hours, &entry.surprise);
        let result = roll_surprise(chances, &mut self.dice);
        let e = LogEvent::new("encounters", "surprise", entry.name.clone())
            .outcome(result.outcome)
            .field("case", result.chances.case.id())
            .field("terrain", s.terrain.id())
            .field("hours", s.hours.id())
            .field("party_has_lights", lights)
            .field("awareness", entry.surprise.awareness.id())
            .field("party_in_six", result.chances.party_in_six)
            .field("monsters_in_six", result.chances.monsters_in_six)
            .field("party_surprised", result.party.surprised)
            .field("monsters_surprised", result.monsters.surprised);
        let e = result.rolls().into_iter().fold(e, LogEvent::roll);
        self.log(e);
        (result.party.surprised, result.monsters.surprised)
    }

    /// The reaction: the referee's where the row gives one, else 2d6 with the face's modifier.
    fn reaction_of(&mut self, entry: &EncounterEntry, party: &[Body]) -> crate::rules::osr::Reaction {
        let s = &self.book.section;
        let sheets: Vec<&OsrSheet> = party.iter().filter_map(|b| s.sheet(&b.name)).collect();
        let faces: Vec<FaceCandidate> = sheets
            .iter()
            .map(|sh| FaceCandidate { charisma: sh.charisma, reaction_modifier: sh.reaction_modifier })
            .collect();
        let nominated = s.face.as_ref().and_then(|f| sheets.iter().position(|sh| sh.figure == *f));
        let face = choose_face(&faces, nominated).and_then(|i| sheets.get(i).copied());
        let face_name = face.map(|sh| sh.figure.clone());
        let modifier = face.map_or(0, |sh| sh.reaction_modifier);
        let (reaction, e) = match entry.reaction {
            Some(r) => {
                let e = LogEvent::new("encounters", "reaction", entry.name.clone()).outcome(r).field("given", true);
                (r, e)
            }
            None => {
                let result = roll_reaction(modifier, &entry.reaction_bias, &mut self.dice);
                let e = LogEvent::new("encounters", "reaction", entry.name.clone())
                    .outcome(result.reaction)
                    .field("given", false)
                    .field("clamped", result.clamped);
                let e = result.rolls().into_iter().fold(e, LogEvent::roll);
                (result.reaction, e)
            }
        };
        let actions: Vec<&str> = reaction.possible_actions().iter().map(|a| a.label()).collect();
        let e = e.field("face", face_name).field("possible_actions", actions);
        self.log(e);
        reaction
    }

    // ---- combat ----

    fn combat_round(&mut self) {
        let Some(state) = self.book.section.encounter.clone() else { return };
        let mut order = CombatOrder {
            phase: state.phase,
            round: state.round,
            surprised: vec![state.party_surprised, state.monsters_surprised],
            order: state.order.clone(),
            end: None,
        };
        let playing = round_played_next(&state);
        self.book.section.clock.add_round();
        for _ in 0..MAX_PHASES_A_STEP {
            let step = order.advance(&self.book.settings, &mut self.dice);
            let acting: Vec<Vec<&str>> =
                step.acting.iter().map(|g| g.iter().map(|&s| side_name(s)).collect()).collect();
            let mut e = LogEvent::new("encounters", "combat_phase", state.entry.clone())
                .outcome(step.phase)
                .field("encounter", state.number)
                .field("round", step.round)
                .field("label", step.phase.label())
                .field("acting", acting);
            if step.initiative.is_some() {
                e.add_house_rule("osr.initiative_ties");
            }
            let e = step.rolls().into_iter().fold(e, LogEvent::roll);
            self.log(e);
            // The surprise round passed with every side helpless: this step was that round.
            let passed = step.round > playing;
            if !passed && let Some(ranged) = attack_phase(step.phase) {
                self.table_attacks(&state, &step.acting, step.phase, step.round, ranged);
            }
            if passed || matches!(step.phase, CombatPhase::Melee | CombatPhase::SurpriseMelee | CombatPhase::Ended) {
                break;
            }
        }
        self.apply_hits(&state, playing);
        self.check_morale(&state);
        // The first order of this round that ends the combat (a hit listed before it does not hide it).
        let ordered_end = self
            .book
            .section
            .combat_orders
            .iter()
            .filter(|o| o.encounter == state.number && o.round == playing)
            .find_map(|o| o.end);
        let row = self.book.section.encounter_table.iter().find(|r| r.name == state.entry);
        // Normal combat starts at round 2: a ceasefire after n rounds comes at the end of round n + 1.
        let ceasefire = row.and_then(|r| r.ceasefire_after).is_some_and(|n| playing > n);
        let end = self.side_beaten(&state).or(ordered_end).or(ceasefire.then_some(CombatEnd::Ceasefire));
        match end {
            Some(how) => {
                order.end(how);
                let e = LogEvent::new("encounters", "combat_ended", state.entry.clone())
                    .outcome(how)
                    .field("encounter", state.number)
                    .field("round", playing);
                self.log(e);
                self.book.section.encounter = None;
            }
            None => {
                if let Some(enc) = &mut self.book.section.encounter {
                    enc.phase = order.phase;
                    enc.round = order.round;
                    enc.order = order.order;
                }
            }
        }
    }

    /// The GM's hits for this round of this encounter, in the order listed.
    fn apply_hits(&mut self, state: &EncounterState, round: u32) {
        let hits: Vec<(String, i32)> = self
            .book
            .section
            .combat_orders
            .iter()
            .filter(|o| o.encounter == state.number && o.round == round)
            .filter_map(|o| o.target.clone().map(|t| (t, o.damage)))
            .collect();
        for (target, damage) in hits {
            let e = LogEvent::new("encounters", "hit", target.clone()).field("damage", damage).field("round", round);
            let e = match self.take_damage(&target, damage) {
                None => e.outcome(EncounterEventOutcome::NoSuchFigure),
                Some((hp, killed)) => {
                    let outcome = if killed { EncounterEventOutcome::Killed } else { EncounterEventOutcome::Hit };
                    e.outcome(outcome).field("hp", hp)
                }
            };
            self.log(e);
        }
    }

    /// Hit points off a figure's sheet (a figure at 0 or fewer is dead): its hit points now and
    /// whether this killed it; none when no figure with a sheet has the name.
    fn take_damage(&mut self, name: &str, damage: i32) -> Option<(i32, bool)> {
        let sheet = self.sheet_mut(name)?;
        sheet.hp = sheet.hp.saturating_sub(damage);
        let killed = sheet.hp <= 0 && sheet.standing != OsrStanding::Dead;
        if sheet.hp <= 0 {
            sheet.standing = OsrStanding::Dead;
        }
        Some((sheet.hp, killed))
    }

    /// A side's combatants (0 the party, 1 the monsters) in scene order.
    fn side_in_scene_order(&self, state: &EncounterState, side: usize) -> Vec<String> {
        let mut names = if side == 0 { state.party.clone() } else { state.monsters.clone() };
        names.sort_by_key(|n| self.order_of(n));
        names
    }

    fn body(&self, name: &str) -> Option<&Body> {
        self.bodies.iter().find(|b| b.name == name)
    }

    /// The foe a rolled attack goes at, among `foes` (in scene order) still fighting
    /// (`rules.osr.attack_targets`): the nearest to the attacker, the first among equals, or
    /// simply the first.
    fn target_for(&self, attacker: &str, foes: &[String]) -> Option<String> {
        let s = &self.book.section;
        let mut able = foes.iter().filter(|f| s.sheet(f).is_some_and(|sh| sh.standing == OsrStanding::Fighting));
        match self.book.settings.attack_targets {
            AttackTargets::SceneOrder => able.next().cloned(),
            AttackTargets::Nearest => {
                let at = self.body(attacker).map(|b| b.at);
                let distance = |name: &str| match (at, self.body(name)) {
                    (Some(a), Some(b)) => a.distance(b.at),
                    _ => f32::INFINITY,
                };
                able.min_by(|a, b| distance(a.as_str()).total_cmp(&distance(b.as_str()))).cloned()
            }
        }
    }

    /// A ranged or melee phase's attacks from the scene's table (`rules.osr.attacks`). The
    /// acting groups strike in order, highest initiative first. In a group every combatant
    /// fighting as the group begins, with an attack of the phase, rolls it (sides that tied
    /// strike together: one felled by a tied side still strikes), the party's then the
    /// monsters', each in scene order; each at a foe still fighting as it rolls.
    fn table_attacks(
        &mut self,
        state: &EncounterState,
        acting: &[Vec<usize>],
        phase: CombatPhase,
        round: u32,
        ranged: bool,
    ) {
        if self.book.settings.attacks == AttackResolution::GmOnly {
            return;
        }
        for group in acting {
            let mut attackers: Vec<(String, usize, OsrAttack)> = Vec::new();
            for &side in group {
                for name in self.side_in_scene_order(state, side) {
                    if let Some(sheet) = self.book.section.sheet(&name)
                        && sheet.standing == OsrStanding::Fighting
                        && let Some(attack) = &sheet.attack
                        && attack.ranged == ranged
                    {
                        let attack = attack.clone();
                        attackers.push((name, side, attack));
                    }
                }
            }
            for (name, side, attack) in attackers {
                let foes = self.side_in_scene_order(state, if side == 0 { 1 } else { 0 });
                let Some(target) = self.target_for(&name, &foes) else { continue };
                let result = roll_attack(&attack, &mut self.dice);
                let damage = result.damage_done();
                let hit = result.outcome == AttackOutcome::Hit;
                let landed = if hit { self.take_damage(&target, damage) } else { None };
                let hp = landed.map(|(hp, _)| hp).or_else(|| self.book.section.sheet(&target).map(|sh| sh.hp));
                let e = LogEvent::new("encounters", "attack", name.clone())
                    .outcome(result.outcome)
                    .field("encounter", state.number)
                    .field("round", round)
                    .field("phase", phase.id())
                    .field("ranged", ranged)
                    .field("target", &target)
                    .field("hit_on", attack.hit_on)
                    .field("damage", damage)
                    .field("hp", hp)
                    .field("killed", landed.is_some_and(|(_, killed)| killed))
                    .field("target_choice", self.book.settings.attack_targets.id())
                    .house_rule("osr.attacks")
                    .house_rule("osr.attack_targets");
                let e = result.rolls().into_iter().fold(e, LogEvent::roll);
                self.log(e);
            }
        }
    }

    fn dead_of(&self, names: &[String]) -> u32 {
        let s = &self.book.section;
        names.iter().filter(|n| s.sheet(n).is_some_and(|sh| sh.standing == OsrStanding::Dead)).count() as u32
    }

    /// Morale for each monster, then loyalty for each henchman, in scene order, where due.
    fn check_morale(&mut self, state: &EncounterState) {
        let mut monsters = state.monsters.clone();
        monsters.sort_by_key(|n| self.order_of(n));
        let mut party = state.party.clone();
        party.sort_by_key(|n| self.order_of(n));
        let row = self.book.section.encounter_table.iter().find(|r| r.name == state.entry).cloned();
        let monsters_dead = self.dead_of(&state.monsters);
        let party_dead = self.dead_of(&state.party);
        for name in &monsters {
            let group = (state.monsters.len() as u32, monsters_dead);
            self.check_one(name, MoraleKind::Morale, group, row.as_ref(), state.number);
        }
        for name in &party {
            let group = (state.party.len() as u32, party_dead);
            self.check_one(name, MoraleKind::Loyalty, group, None, state.number);
        }
    }

    fn check_one(
        &mut self,
        name: &str,
        kind: MoraleKind,
        (group_size, group_dead): (u32, u32),
        row: Option<&EncounterEntry>,
        number: u32,
    ) {
        let s = &self.book.section;
        let Some(sheet) = s.sheet(name) else { return };
        let Some(score) = sheet.morale else { return };
        if sheet.standing != OsrStanding::Fighting {
            return;
        }
        // A party member checks loyalty only as a henchman.
        let leader = match (kind, &sheet.henchman_of) {
            (MoraleKind::Loyalty, None) => return,
            (MoraleKind::Loyalty, Some(l)) => s.sheet(l).map(|ls| LeaderState {
                hp: ls.hp,
                max_hp: ls.max_hp,
                dead: ls.standing == OsrStanding::Dead,
            }),
            (MoraleKind::Morale, _) => None,
        };
        let state = MoraleState { group_size, group_dead, hp: sheet.hp, max_hp: sheet.max_hp, leader };
        let triggers = morale_triggers(kind, &state);
        if !morale_check_due(&sheet.morale_checked, &triggers, self.book.settings.morale_recheck) {
            return;
        }
        let no_modifiers = Vec::new();
        let modifiers = row.map_or(&no_modifiers, |r| &r.morale_modifiers);
        let check = MoraleCheck {
            kind,
            score,
            score_modifiers: modifiers,
            fights_to_the_last: row.is_some_and(|r| r.fights_to_the_last),
            leader_died: triggers.contains(&crate::rules::osr::MoraleTrigger::LeaderDied),
            can_flee: !row.is_some_and(|r| r.cornered),
        };
        let result = roll_morale(&check, &mut self.dice);
        let event = if kind == MoraleKind::Loyalty { "loyalty_check" } else { "morale_check" };
        let triggers_logged: Vec<&str> = triggers.iter().map(|t| t.id()).collect();
        let e = LogEvent::new("encounters", event, name.to_string())
            .outcome(result.outcome)
            .field("encounter", number)
            .field("kind", kind.id())
            .field("triggers", triggers_logged)
            .field("base_score", result.base_score)
            .field("score_modifiers", &result.score_modifiers)
            .field("score", result.score)
            .field("automatic_failure", result.automatic_failure)
            .house_rule("osr.morale_recheck");
        let e = result.rolls().into_iter().fold(e, LogEvent::roll);
        self.log(e);
        if let Some(sheet) = self.sheet_mut(name) {
            for t in triggers {
                if !sheet.morale_checked.contains(&t) {
                    sheet.morale_checked.push(t);
                }
            }
            sheet.standing = match result.outcome {
                MoraleOutcome::ActsNormally => sheet.standing,
                MoraleOutcome::Flees => OsrStanding::Fled,
                MoraleOutcome::Surrenders => OsrStanding::Surrendered,
            };
        }
    }

    /// A side with no one left fighting: surrender if any of it surrendered, else retreat if
    /// any fled, else slaughter.
    fn side_beaten(&self, state: &EncounterState) -> Option<CombatEnd> {
        let s = &self.book.section;
        for names in [&state.monsters, &state.party] {
            let standings: Vec<OsrStanding> = names.iter().filter_map(|n| s.sheet(n)).map(|sh| sh.standing).collect();
            if standings.contains(&OsrStanding::Fighting) {
                continue;
            }
            return Some(if standings.contains(&OsrStanding::Surrendered) {
                CombatEnd::Surrender
            } else if standings.contains(&OsrStanding::Fled) {
                CombatEnd::Retreat
            } else {
                CombatEnd::Slaughter
            });
        }
        None
    }
}

/// The candidates for a point of entry, each (name, kind, position, marked illogical): the
/// scene's `entry_points`, then every door's middle (`entries_from_doors`), then the middles of
/// the table edges (`entries_from_table_edges`), in that order (docs/osr.md "In a scene").
pub fn entry_candidates(
    section: &OsrSection,
    doors: &[scene::Door],
    table: Vec2,
) -> Vec<(String, EntryKind, Vec2, bool)> {
    let mut v: Vec<(String, EntryKind, Vec2, bool)> =
        section.entry_points.iter().map(|p| (p.name.clone(), p.kind, vec2(p.position), p.illogical)).collect();
    if section.entries_from_doors {
        for d in doors.iter().filter(|d| d.kind == scene::DoorKind::Door) {
            v.push((d.name.clone(), EntryKind::Door, (vec2(d.from) + vec2(d.to)) / 2.0, false));
        }
    }
    if section.entries_from_table_edges {
        let (w, h) = (table.x, table.y);
        for (name, at) in [
            ("north edge", Vec2::new(w / 2.0, h)),
            ("east edge", Vec2::new(w, h / 2.0)),
            ("south edge", Vec2::new(w / 2.0, 0.0)),
            ("west edge", Vec2::new(0.0, h / 2.0)),
        ] {
            v.push((name.to_string(), EntryKind::TableEdge, at, false));
        }
    }
    v
}

/// The combat round the next step plays for the encounter in progress (1 is the surprise
/// round): the round after the one whose melee was the last phase played, else the round the
/// combat stands in. The GM's `combat_orders` for that round land in that step.
pub fn round_played_next(state: &EncounterState) -> u32 {
    match state.phase {
        CombatPhase::Melee | CombatPhase::SurpriseMelee => state.round.saturating_add(1),
        _ => state.round,
    }
}

/// Whether a phase rolls the scene's attacks: `Some(true)` the ranged ones (S4, 4),
/// `Some(false)` the melee ones (S6, 6).
fn attack_phase(phase: CombatPhase) -> Option<bool> {
    match phase {
        CombatPhase::SurpriseRanged | CombatPhase::Ranged => Some(true),
        CombatPhase::SurpriseMelee | CombatPhase::Melee => Some(false),
        _ => None,
    }
}

/// The log's name for a combat side.
fn side_name(side: usize) -> &'static str {
    if side == 0 { "party" } else { "monsters" }
}

/// A member's encumbrance from its sheet: the weight tallied (its own items and its inventory)
/// against its armour's row (003 "Encumbrance"), as the party's pace reads it.
pub fn member_encumbrance(sheet: &OsrSheet, figure: &scene::Figure, book: &OsrBook) -> Encumbrance {
    let carried: Vec<CarriedItem> =
        sheet.carried.iter().map(|i| CarriedItem { kind: i.kind, weight_lb: i.weight_lb }).collect();
    let inventory = if sheet.inventory_kind.tallied() {
        crate::scene::obstacles::inventory_pounds(&figure.inventory, &book.weights)
    } else {
        0.0
    };
    let lb = tallied_weight_lb(&carried) + inventory.max(0.0);
    encumbrance(lb, armour_row(figure.armour, &book.settings), sheet.no_movement)
}

/// A member's speed from its sheet ([`member_encumbrance`]).
fn member_speed(sheet: &OsrSheet, figure: &scene::Figure, book: &OsrBook) -> OsrSpeed {
    member_encumbrance(sheet, figure, book).speed
}

/// 003 "Encounters & Exploration": the party moves as its slowest member (unless in full
/// retreat): each member's `move_rate` for the next step, in inches (exploration speed a turn,
/// combat speed a round).
fn set_party_pace(world: &mut World) {
    let Some(book) = world.get_resource::<OsrBook>().cloned() else { return };
    let in_combat = book.section.encounter.is_some();
    let mut members: Vec<(u32, Entity, OsrSpeed)> = world
        .query::<(Entity, &SceneOrder, &Figure)>()
        .iter(world)
        .filter(|(_, _, f)| f.0.side == book.section.party_side)
        .filter_map(|(e, o, f)| {
            let sheet = book.section.sheet(&f.0.name)?;
            (sheet.standing == OsrStanding::Fighting).then(|| (o.0, e, member_speed(sheet, &f.0, &book)))
        })
        .collect();
    members.sort_by_key(|(o, _, _)| *o);
    let speeds: Vec<OsrSpeed> = members.iter().map(|(_, _, s)| *s).collect();
    let pace = party_pace(&speeds, book.section.full_retreat);
    let inches = |s: OsrSpeed| if in_combat { s.combat_in(&book.settings) } else { s.exploration_in(&book.settings) };
    let rates: Vec<(Entity, f32)> = members
        .iter()
        .map(|(_, e, own)| {
            let s = match pace {
                PartyPace::Together(slowest) => slowest,
                PartyPace::EachOwn => *own,
            };
            (*e, inches(s))
        })
        .collect();
    for (e, rate) in rates {
        let mut entity = world.entity_mut(e);
        if let Some(mut f) = entity.get_mut::<Figure>() {
            f.0.move_rate = Some(rate);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::osr::Reaction;
    use crate::scene::osr::SceneEntryPoint;

    fn state(phase: CombatPhase, round: u32) -> EncounterState {
        EncounterState {
            number: 1,
            entry: "goblin".into(),
            monsters: Vec::new(),
            party: Vec::new(),
            party_surprised: false,
            monsters_surprised: false,
            reaction: Reaction::Hostile,
            phase,
            round,
            order: Vec::new(),
        }
    }

    /// A combat begins in S1 of round 1 (its orders are round 1's); once a round's melee is
    /// played the next step plays the round after.
    #[test]
    fn the_next_step_plays_the_round_after_the_last_melee() {
        assert_eq!(round_played_next(&state(CombatPhase::DetermineSurprise, 1)), 1);
        assert_eq!(round_played_next(&state(CombatPhase::SurpriseMelee, 1)), 2);
        assert_eq!(round_played_next(&state(CombatPhase::Declare, 2)), 2);
        assert_eq!(round_played_next(&state(CombatPhase::Spells, 4)), 4);
        assert_eq!(round_played_next(&state(CombatPhase::Melee, 4)), 5);
    }

    /// Morval time: a check on the Nth, 2Nth, ... move of the clock, only with an encounter
    /// table, never while resting, never under OSR (which counts exploring turns).
    #[test]
    fn morval_checks_fall_on_every_nth_move() {
        let mut book = OsrBook::default();
        book.settings.moves_per_wandering_check = 3;
        assert!((0..=12).all(|m| !book.morval_check_due(m)), "no table: never");
        book.section.encounter_table.push(EncounterEntry {
            name: "rat".into(),
            count: 1,
            morale: 5,
            hp: 1,
            reaction_bias: Vec::new(),
            reaction: None,
            surprise: Default::default(),
            morale_modifiers: Vec::new(),
            fights_to_the_last: false,
            cornered: false,
            ceasefire_after: None,
            attack: None,
        });
        let due: Vec<u32> = (0..=12).filter(|&m| book.morval_check_due(m)).collect();
        assert_eq!(due, [3, 6, 9, 12]);
        book.section.resting = true;
        assert!(!book.morval_check_due(6), "resting");
        book.section.resting = false;
        book.settings.moves_per_wandering_check = 1;
        assert!(book.morval_check_due(1) && book.morval_check_due(2));
        book.family = RulesFamily::Osr;
        assert!(!book.morval_check_due(2), "OSR time counts exploring turns");
    }

    /// The scene's attacks are rolled in the ranged and melee phases of both rounds' kinds.
    #[test]
    fn attacks_come_in_the_ranged_and_melee_phases() {
        let rolled: Vec<(CombatPhase, bool)> =
            CombatPhase::ALL.iter().filter_map(|&p| attack_phase(p).map(|ranged| (p, ranged))).collect();
        assert_eq!(
            rolled,
            [
                (CombatPhase::SurpriseRanged, true),
                (CombatPhase::SurpriseMelee, false),
                (CombatPhase::Ranged, true),
                (CombatPhase::Melee, false)
            ]
        );
    }

    /// The scene's entry points, then the doors (not the windows), then the table edges' middles.
    #[test]
    fn entry_candidates_come_in_the_documented_order() {
        let door = |name: &str, kind: scene::DoorKind| scene::Door {
            name: name.into(),
            kind,
            from: (10.0, 0.0),
            to: (12.0, 0.0),
            open: false,
        };
        let mut section = OsrSection {
            entry_points: vec![SceneEntryPoint {
                name: "east tunnel".into(),
                kind: EntryKind::CorridorEnd,
                position: (39.0, 10.0),
                illogical: true,
            }],
            entries_from_table_edges: true,
            ..OsrSection::default()
        };
        let doors = [door("gate", scene::DoorKind::Door), door("slit", scene::DoorKind::Window)];
        let table = Vec2::new(40.0, 20.0);
        let names = |c: &[(String, EntryKind, Vec2, bool)]| c.iter().map(|e| e.0.clone()).collect::<Vec<_>>();
        let all = entry_candidates(&section, &doors, table);
        assert_eq!(names(&all), ["east tunnel", "gate", "north edge", "east edge", "south edge", "west edge"]);
        assert!(all[0].3, "the GM's illogical mark is kept");
        assert_eq!((all[1].1, all[1].2), (EntryKind::Door, Vec2::new(11.0, 0.0)), "a door's middle");
        assert_eq!(all[3].2, Vec2::new(40.0, 10.0));
        section.entries_from_doors = false;
        section.entries_from_table_edges = false;
        assert_eq!(names(&entry_candidates(&section, &doors, table)), ["east tunnel"]);
    }
}
