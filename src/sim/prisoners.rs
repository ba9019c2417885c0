//! Prisoners under escort, runaways and the guards who run them down, bonds worked loose, and
//! berserkers in their rage (000 "Guarding prisoners", "Catching, runaways, and overpowering",
//! "Berserking"). The readings are in docs/prisoners.md "In a scene".
//!
//! One system, after Movement (the escort has walked) and before Traps (which so see the ground
//! a runaway or a charging berserker ran over). Each step visits figures in scene order:
//! 1. the escape dice: each escort (guards and the prisoners they list, guards who share a
//!    prisoner being one escort), in the order of its first figure, rolls for its prisoners in
//!    excess; a runaway runs for his refuge or the nearest table edge he can reach in a
//!    straight line;
//! 2. the chases, round by round (`rules.rounds_per_move`): each runaway runs on, the nearest
//!    free guard of his runs him down, within 1" the catch is rolled, a caught runaway
//!    struggles from the next round until the guard gains control; a runaway at his refuge or
//!    the table edge has escaped;
//! 3. bonds: a bound leader, officer or independent whom no free guard of his stands near
//!    works his bonds; one whose hands were free at the start of the move undoes a binding a
//!    round;
//! 4. berserkers: building a rage, charging the nearest enemy within 12", collapsing;
//! 5. fatigue: a point for each figure that ran this move.

use super::clock::{MoveClock, SimDice};
use super::log::{EventLog, LogEvent, round_to_thousandths_f32};
use super::movement::{allowance_for, walk};
use super::outcome::PrisonerEventOutcome as P;
use super::world::{
    Conditions, Facing, Figure, SceneOrder, Swept, TablePosition, TableSize, Terrain, Walls, in_scene_order, point,
    vec2,
};
use super::{Move, MoveSystems};
use crate::rules::character::{Gait, Sex};
use crate::rules::dice::Rolls;
use crate::rules::prisoners::{
    BerserkOutcome, BerserkState, Berserker, BondsState, ChaseOutcome, EscapeOutcome, Escort, EscortPrisoner, Fugitive,
    PrisonersSettings, Pursuer, RUNNING_FATIGUE_PER_MOVE, StruggleOutcome, berserk_move, down_in_struggle,
    escape_dice_due, just_run_at_start, resolve_catch_round, resolve_escape_dice, resolve_struggle_round,
    running_move_in, undo_binding_round, within_catch_reach, work_bonds,
};
use crate::scene::prisoners::{MAX_FATIGUE, MAX_STRUGGLE_ROUNDS};
use crate::scene::{self, Material, RunStatus, Runaway, Scene};
use bevy::prelude::*;
use std::collections::{HashMap, VecDeque};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PrisonerRules>();
    app.add_systems(Move, resolve_prisoners.in_set(MoveSystems::Prisoners));
}

/// The scene's `rules.prisoners` house rules.
#[derive(Resource, Debug, Clone, Default)]
pub struct PrisonerRules(pub PrisonersSettings);

/// Keep the scene's prisoner settings.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    world.insert_resource(PrisonerRules(scene.rules.prisoners.clone()));
}

/// How far short of the figure he runs for a guard or a berserker stops, in inches: base to
/// base, within the catch's 1".
pub const CHASE_GAP_IN: f32 = 0.5;
/// A charging berserker is in contact with his enemy within this many inches (reading: as the
/// catch's "within 1"").
pub const BERSERK_CONTACT_IN: f32 = 1.0;
/// How finely a runaway's way is looked along for water, in inches.
const WATER_SAMPLE_IN: f32 = 0.25;

/// Whether a figure does not walk its path: a runaway (running, caught or escaped) runs or
/// stands in the Prisoners set; a berserker raging or collapsed follows no orders.
pub fn off_path(sheet: &scene::Figure) -> bool {
    sheet.prisoner.run.is_some() || sheet.berserker.as_ref().is_some_and(|b| b.state != BerserkState::Calm)
}

/// 000 "Guarding prisoners": "Running with bound hands = double move -3"". Reading: bound feet
/// hamper a runaway no less (the text gives running bound for the hands only).
fn runs_hampered(sheet: &scene::Figure) -> bool {
    sheet.bound.hands || sheet.bound.feet
}

/// Whether the Prisoners set has anything to do with a figure.
fn takes_part(sheet: &scene::Figure) -> bool {
    sheet.is_prisoner() || sheet.guard.is_some() || sheet.berserker.is_some()
}

/// One figure while the set works: its sheet, where it stands, and what it did this move.
struct Piece {
    sheet: scene::Figure,
    at: Vec2,
    facing: f32,
    immobile: bool,
    /// Basic Me: the figure's `melee_factor` with its conditions' Me & Mo.
    me: i32,
    /// The move before the gait (RULES-NOTES "Time and movement"), inches.
    base_move_in: f32,
    /// Walked its path this move (the Movement set swept some ground).
    walked: bool,
    /// Ran this move: a fatigue point.
    ran: bool,
    /// Ground run over in this set, in order.
    segments: Vec<(Vec2, Vec2)>,
    /// Fastest run this move, inches a move.
    speed: f32,
}

/// What every step reads.
struct Ctx<'a> {
    settings: &'a PrisonersSettings,
    clock: MoveClock,
    table: Vec2,
    terrain: &'a Terrain,
    walls: &'a Walls,
}

impl Ctx<'_> {
    fn round(&self, round: u8) -> MoveClock {
        MoveClock { round: Some(round), ..self.clock }
    }
}

/// Guards and the prisoners they list: guards who share a prisoner are one escort.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct EscortGroup {
    guards: Vec<usize>,
    prisoners: Vec<usize>,
}

#[allow(clippy::type_complexity)]
fn resolve_prisoners(
    mut figures: Query<(&SceneOrder, &mut Figure, &mut TablePosition, &mut Facing, &mut Swept, &Conditions)>,
    rules: Res<PrisonerRules>,
    clock: Res<MoveClock>,
    table: Option<Res<TableSize>>,
    (terrain, walls): (Res<Terrain>, Res<Walls>),
    mut dice: ResMut<SimDice>,
    mut log: ResMut<EventLog>,
    cursed_figures: Query<&Name, With<crate::sim::magic::Cursed>>,
) {
    let Some(table) = table else { return };
    if !figures.iter().any(|(_, f, ..)| takes_part(&f.0)) {
        return;
    }
    let mut figures = in_scene_order(figures.iter_mut(), |item| *item.0);
    let mut pieces: Vec<Piece> = figures
        .iter()
        .map(|(_, figure, position, facing, swept, conditions)| {
            let sheet = figure.0.clone();
            let base_move_in = if takes_part(&sheet) {
                let mut walker = Figure(sheet.clone());
                walker.0.gait = Gait::Normal;
                allowance_for(&walker, position.0, conditions, &terrain).inches
            } else {
                0.0
            };
            Piece {
                me: sheet.melee_factor.saturating_add(conditions.0.iter().map(|c| c.me_and_mo).sum::<i32>()),
                immobile: conditions.0.iter().any(|c| c.immobile),
                walked: !swept.segments.is_empty(),
                sheet,
                at: position.0,
                facing: facing.0,
                base_move_in,
                ran: false,
                segments: Vec::new(),
                speed: 0.0,
            }
        })
        .collect();
    let ctx = Ctx { settings: &rules.0, clock: *clock, table: table.0, terrain: &terrain, walls: &walls };
    // Under the evil eye (001 "Lay an evil eye Curse"), by piece.
    let cursed: Vec<bool> = {
        let names: std::collections::HashSet<&str> = cursed_figures.iter().map(|n| n.as_str()).collect();
        pieces.iter().map(|p| names.contains(p.sheet.name.as_str())).collect()
    };
    let dice = &mut *dice;
    let log = &mut *log;
    escape_dice(&mut pieces, &cursed, &ctx, dice, log);
    for round in 1..=ctx.clock.rounds_per_move {
        chase_round(&mut pieces, &cursed, round, &ctx, dice, log);
    }
    work_all_bonds(&mut pieces, &cursed, &ctx, dice, log);
    berserkers(&mut pieces, &ctx, log);
    fatigue(&mut pieces, &ctx, log);
    for ((_, figure, position, facing, swept, _), piece) in figures.iter_mut().zip(pieces) {
        if figure.0 != piece.sheet {
            figure.0 = piece.sheet;
        }
        if position.0 != piece.at {
            position.0 = piece.at;
        }
        if facing.0 != piece.facing {
            facing.0 = piece.facing;
        }
        if !piece.segments.is_empty() {
            swept.segments.extend(piece.segments);
            swept.speed = swept.speed.max(piece.speed);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Escorts and the escape dice
// ---------------------------------------------------------------------------------------------

fn index_by_name(pieces: &[Piece]) -> HashMap<String, usize> {
    pieces.iter().enumerate().map(|(i, p)| (p.sheet.name.clone(), i)).collect()
}

/// The escorts, each in the order of its first figure; guards and prisoners in scene order.
fn escorts(pieces: &[Piece]) -> Vec<EscortGroup> {
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let names = index_by_name(pieces);
    let mut parent: Vec<usize> = (0..pieces.len()).collect();
    let mut member = vec![false; pieces.len()];
    let mut guarded = vec![false; pieces.len()];
    for (g, piece) in pieces.iter().enumerate() {
        let Some(role) = &piece.sheet.guard else { continue };
        member[g] = true;
        for name in &role.prisoners {
            // Checked on load: every name is a figure.
            let Some(&p) = names.get(name) else { continue };
            member[p] = true;
            guarded[p] = true;
            let (a, b) = (root(&mut parent, g), root(&mut parent, p));
            if a != b {
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    let mut groups: Vec<(usize, EscortGroup)> = Vec::new();
    for i in (0..pieces.len()).filter(|&i| member[i]) {
        let r = root(&mut parent, i);
        let k = match groups.iter().position(|(root, _)| *root == r) {
            Some(k) => k,
            None => {
                groups.push((r, EscortGroup::default()));
                groups.len() - 1
            }
        };
        if pieces[i].sheet.guard.is_some() {
            groups[k].1.guards.push(i);
        }
        if guarded[i] {
            groups[k].1.prisoners.push(i);
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// The guards who list prisoner `p`, in scene order.
fn guards_of(pieces: &[Piece], p: usize) -> Vec<usize> {
    let name = &pieces[p].sheet.name;
    (0..pieces.len())
        .filter(|&g| pieces[g].sheet.guard.as_ref().is_some_and(|role| role.prisoners.contains(name)))
        .collect()
}

/// Whether guard `g` is running a runaway down or holding one caught.
fn busy(pieces: &[Piece], g: usize) -> bool {
    let name = &pieces[g].sheet.name;
    pieces.iter().any(|p| {
        p.sheet
            .prisoner
            .run
            .as_ref()
            .is_some_and(|r| r.status != RunStatus::Escaped && r.pursued_by.as_ref() == Some(name))
    })
}

/// A guard able to watch, chase or help: not held where he stands, not busy with a runaway.
fn free(pieces: &[Piece], g: usize) -> bool {
    !pieces[g].immobile && !busy(pieces, g)
}

fn names(pieces: &[Piece], list: &[usize]) -> Vec<String> {
    list.iter().map(|&i| pieces[i].sheet.name.clone()).collect()
}

/// 000 "Guarding prisoners": each escort's escape dice for its prisoners in excess.
fn escape_dice(pieces: &mut [Piece], cursed: &[bool], ctx: &Ctx, dice: &mut SimDice, log: &mut EventLog) {
    let settings = ctx.settings;
    for escort in escorts(pieces) {
        let moving = escort.guards.iter().chain(&escort.prisoners).any(|&i| pieces[i].walked);
        if !escape_dice_due(moving, settings) {
            continue;
        }
        // Only prisoners with bound hands, not on the run, are counted.
        let present: Vec<usize> = escort
            .prisoners
            .iter()
            .copied()
            .filter(|&i| pieces[i].sheet.bound.hands && pieces[i].sheet.prisoner.run.is_none())
            .collect();
        if present.is_empty() {
            continue;
        }
        let on_duty: Vec<usize> = escort.guards.iter().copied().filter(|&g| free(pieces, g)).collect();
        let expert = |g: usize| pieces[g].sheet.guard.as_ref().is_some_and(|r| r.expert);
        let expert_guards = on_duty.iter().filter(|&&g| expert(g)).count();
        let ordinary_guards = on_duty.len() - expert_guards;
        let sides_blocked = escort
            .guards
            .iter()
            .filter_map(|&g| pieces[g].sheet.guard.as_ref().map(|r| r.sides_blocked))
            .max()
            .unwrap_or(0);
        let previous = ctx.clock.move_number.checked_sub(1);
        let ran_before =
            previous.is_some() && escort.prisoners.iter().any(|&i| pieces[i].sheet.prisoner.last_ran_at == previous);
        let list: Vec<EscortPrisoner> = present
            .iter()
            .map(|&i| EscortPrisoner {
                sex: pieces[i].sheet.sex,
                rank: pieces[i].sheet.prisoner_rank.unwrap_or_default(),
                evil_eye: cursed[i],
            })
            .collect();
        let escort_dice = Escort {
            prisoners: &list,
            ordinary_guards: u32::try_from(ordinary_guards).unwrap_or(u32::MAX),
            expert_guards: u32::try_from(expert_guards).unwrap_or(u32::MAX),
            sides_blocked,
            just_run: just_run_at_start(ran_before, settings),
        };
        let result = resolve_escape_dice(&escort_dice, settings, dice);
        // The escort is named by its first guard.
        let subject = pieces[escort.guards[0]].sheet.name.clone();
        let mixed = list.iter().any(|p| p.sex == Sex::Male) && list.iter().any(|p| p.sex == Sex::Female);
        let mut event = LogEvent::new("prisoners", "escort", subject.as_str())
            .outcome(if result.security.complete() { P::Secure } else { P::InExcess })
            .field("guards", names(pieces, &on_duty))
            .field("expert_guards", expert_guards)
            .field("prisoners", names(pieces, &present))
            .field("secured", result.security.secured)
            .field("excess", result.security.excess)
            .field("sides_blocked", sides_blocked)
            .field("moving", moving);
        if mixed {
            event = event.house_rule("prisoners.mixed_escort");
        }
        if !moving {
            event = event.house_rule("prisoners.dice_when_halted");
        }
        if sides_blocked > 1 {
            event = event.house_rule("prisoners.each_blocked_side_counts");
        }
        log.push(&ctx.clock, event);
        let mut after_runaway = false;
        for (k, roll) in result.rolls.iter().enumerate() {
            let mut event = LogEvent::new("prisoners", "escape_roll", subject.as_str())
                .outcome(roll.outcome)
                .roll(roll.roll.clone())
                .field("roll_number", k + 1)
                .field("runner", roll.runner.map(|r| pieces[present[r]].sheet.name.clone()));
            if after_runaway {
                event = event.house_rule("prisoners.dice_again");
            }
            if k == 0 && escort_dice.just_run {
                event = event.house_rule("prisoners.just_run_includes_previous_move");
            }
            if roll.runner.is_some() {
                event = event.house_rule("prisoners.runner");
            }
            log.push(&ctx.clock, event);
            after_runaway = roll.outcome == EscapeOutcome::RunsOff;
        }
        for r in result.runners() {
            start_run(pieces, present[r], ctx, log);
        }
    }
}

/// Whether the straight way from `a` to `b` crosses water.
fn crosses_water(a: Vec2, b: Vec2, terrain: &Terrain) -> bool {
    let steps = (a.distance(b) / WATER_SAMPLE_IN).ceil().max(1.0) as usize;
    (0..=steps).any(|k| terrain.material_at(a.lerp(b, k as f32 / steps as f32)) == Some(Material::Water))
}

/// The last point on the straight way from `a` to `b` before water (`b` when it is dry all the way).
fn dry_until(a: Vec2, b: Vec2, terrain: &Terrain) -> Vec2 {
    let steps = (a.distance(b) / WATER_SAMPLE_IN).ceil().max(1.0) as usize;
    let mut last = a;
    for k in 1..=steps {
        let p = a.lerp(b, k as f32 / steps as f32);
        if terrain.material_at(p) == Some(Material::Water) {
            return last;
        }
        last = p;
    }
    b
}

/// Where a runaway runs for: his refuge, or the nearest point of the table edge whose straight
/// way holds no wall or water (the nearest edge when none is clear). Among equals: left,
/// right, bottom, top.
fn destination(piece: &Piece, ctx: &Ctx) -> (Vec2, &'static str) {
    if let Some(refuge) = piece.sheet.refuge {
        return (vec2(refuge), "refuge");
    }
    let (w, h, at) = (ctx.table.x, ctx.table.y, piece.at);
    let mut edges = [
        (at.x, Vec2::new(0.0, at.y)),
        (w - at.x, Vec2::new(w, at.y)),
        (at.y, Vec2::new(at.x, 0.0)),
        (h - at.y, Vec2::new(at.x, h)),
    ];
    edges.sort_by(|a, b| a.0.total_cmp(&b.0));
    let clear =
        edges.iter().find(|(_, e)| ctx.walls.first_hit(at, *e).is_none() && !crosses_water(at, *e, ctx.terrain));
    (clear.unwrap_or(&edges[0]).1, "table_edge")
}

/// A prisoner runs off: he runs for his refuge or the table edge from now on.
fn start_run(pieces: &mut [Piece], i: usize, ctx: &Ctx, log: &mut EventLog) {
    let (toward, kind) = destination(&pieces[i], ctx);
    let p = &mut pieces[i];
    p.sheet.prisoner.last_ran_at = Some(ctx.clock.move_number);
    p.sheet.prisoner.run = Some(Runaway {
        status: RunStatus::Fugitive,
        toward: point(toward),
        pursued_by: None,
        knocked_down: false,
        struggle_rounds: 0,
    });
    let run_in = running_move_in(p.base_move_in, runs_hampered(&p.sheet));
    log.push(
        &ctx.clock,
        LogEvent::new("prisoners", "ran_off", p.sheet.name.as_str())
            .outcome(P::RanOff)
            .field("from", point(p.at))
            .field("toward", point(toward))
            .field("destination", kind)
            .field("hands_bound", p.sheet.bound.hands)
            .field("running_move", round_to_thousandths_f32(run_in)),
    );
}

// ---------------------------------------------------------------------------------------------
// Chases
// ---------------------------------------------------------------------------------------------

/// Run figure `i` toward `goal` for at most `inches`: walls stop it, and it will not run into
/// water. Returns whether something held it short of both.
fn run_toward(piece: &mut Piece, goal: Vec2, inches: f32, ctx: &Ctx) -> bool {
    if inches <= 0.0 || piece.at == goal {
        return false;
    }
    let mut way = VecDeque::from([goal]);
    let (segments, walled) = walk(piece.at, &mut way, inches, ctx.walls);
    let mut blocked = walled;
    for (a, b) in segments {
        let end = dry_until(a, b, ctx.terrain);
        if end != a {
            piece.segments.push((a, end));
            piece.facing = (end - a).to_angle().to_degrees();
        }
        piece.at = end;
        if end != b {
            blocked = true;
            break;
        }
    }
    piece.ran = true;
    blocked
}

/// The basic Me and whip of guard `g` as the catch reads him, and whether he is `cursed`.
fn pursuer(piece: &Piece, cursed: bool) -> Pursuer {
    Pursuer { melee_factor: piece.me, whip: piece.sheet.whip, down: false, evil_eye: cursed }
}

/// A second person aiding guard `g` against runaway `f`: another free guard of the runaway's,
/// within 1" of him, the first in scene order.
fn helper_for(pieces: &[Piece], f: usize, g: usize) -> Option<usize> {
    guards_of(pieces, f)
        .into_iter()
        .find(|&h| h != g && free(pieces, h) && within_catch_reach(pieces[h].at.distance(pieces[f].at)))
}

/// One round for every runaway, in scene order.
fn chase_round(pieces: &mut [Piece], cursed: &[bool], round: u8, ctx: &Ctx, dice: &mut SimDice, log: &mut EventLog) {
    for i in 0..pieces.len() {
        let Some(run) = pieces[i].sheet.prisoner.run.clone() else { continue };
        match run.status {
            RunStatus::Escaped => {}
            RunStatus::Caught => struggle(pieces, cursed, i, run, round, ctx, dice, log),
            RunStatus::Fugitive => flee(pieces, cursed, i, run, round, ctx, dice, log),
        }
    }
}

/// The runaway reached his refuge or the table edge: out of play.
fn escape(pieces: &mut [Piece], i: usize, mut run: Runaway, clock: &MoveClock, log: &mut EventLog) {
    let pursuer = run.pursued_by.take();
    run.status = RunStatus::Escaped;
    let p = &mut pieces[i];
    p.sheet.prisoner.run = Some(run);
    log.push(
        clock,
        LogEvent::new("prisoners", "escaped", p.sheet.name.as_str())
            .outcome(P::Escaped)
            .field("at", point(p.at))
            .field("pursued_by", pursuer),
    );
}

/// Run runaway `i` on for `inches` toward where his run (as it stands on his sheet) takes him,
/// logging it; true when he escaped.
fn run_on(pieces: &mut [Piece], i: usize, inches: f32, why: &str, round: u8, ctx: &Ctx, log: &mut EventLog) -> bool {
    let Some(run) = pieces[i].sheet.prisoner.run.clone() else { return false };
    let clock = ctx.round(round);
    let goal = vec2(run.toward);
    let from = pieces[i].at;
    let blocked = run_toward(&mut pieces[i], goal, inches, ctx);
    let p = &pieces[i];
    let escaped = p.at.distance(goal) <= 1e-3;
    log.push(
        &clock,
        LogEvent::new("prisoners", "fugitive_ran", p.sheet.name.as_str())
            .outcome(if blocked && !escaped { P::Blocked } else { P::Running })
            .field("why", why)
            .field("from", point(from))
            .field("to", point(p.at))
            .field("distance", round_to_thousandths_f32(from.distance(p.at)))
            .field("toward", run.toward)
            .field("pursued_by", &run.pursued_by),
    );
    if escaped {
        escape(pieces, i, run, &clock, log);
    }
    escaped
}

/// 000 "Catching, runaways, and overpowering": a round of a runaway's flight and his guard's chase, "both ... running at double move rate".
fn flee(
    pieces: &mut [Piece],
    cursed: &[bool],
    i: usize,
    mut run: Runaway,
    round: u8,
    ctx: &Ctx,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    let clock = ctx.round(round);
    let rounds = f32::from(ctx.clock.rounds_per_move.max(1));
    // The runaway runs first.
    let step = running_move_in(pieces[i].base_move_in, runs_hampered(&pieces[i].sheet)) / rounds;
    if run_on(pieces, i, step, "running", round, ctx, log) {
        return;
    }
    // His guard: the one already after him, else the nearest free guard of his.
    let by_name = index_by_name(pieces);
    let chaser = run.pursued_by.as_ref().and_then(|n| by_name.get(n).copied()).filter(|&g| !pieces[g].immobile);
    let chaser = match chaser {
        Some(g) => Some(g),
        None => {
            let at = pieces[i].at;
            let nearest = guards_of(pieces, i)
                .into_iter()
                .filter(|&g| free(pieces, g))
                .min_by(|&a, &b| pieces[a].at.distance(at).total_cmp(&pieces[b].at.distance(at)));
            let event = LogEvent::new("prisoners", "pursuit", pieces[i].sheet.name.as_str());
            match nearest {
                Some(g) => {
                    run.pursued_by = Some(pieces[g].sheet.name.clone());
                    pieces[i].sheet.prisoner.run = Some(run.clone());
                    log.push(
                        &clock,
                        event
                            .outcome(P::Pursues)
                            .field("guard", &pieces[g].sheet.name)
                            .field("distance", round_to_thousandths_f32(pieces[g].at.distance(at))),
                    );
                }
                None if round == 1 => log.push(&clock, event.outcome(P::NoGuardFree)),
                None => {}
            }
            nearest
        }
    };
    let Some(g) = chaser else { return };
    let target = pieces[i].at;
    let gap = pieces[g].at.distance(target);
    let step = running_move_in(pieces[g].base_move_in, false) / rounds;
    let budget = step.min((gap - CHASE_GAP_IN).max(0.0));
    run_toward(&mut pieces[g], target, budget, ctx);
    let distance = pieces[g].at.distance(pieces[i].at);
    if !within_catch_reach(distance) {
        return;
    }
    let helper = helper_for(pieces, i, g);
    // Each side's D10 takes its own figure's evil eye (001 "Lay an evil eye Curse").
    let guard = pursuer(&pieces[g], cursed[g]);
    let second = helper.map(|h| pursuer(&pieces[h], cursed[h]));
    let hands_bound = pieces[i].sheet.bound.hands;
    let fugitive = Fugitive { melee_factor: pieces[i].me, hands_bound, down: false, evil_eye: cursed[i] };
    let result = resolve_catch_round(distance, &guard, second.as_ref(), &fugitive, ctx.settings, dice);
    let Some(contest) = &result.contest else { return };
    let mut event = LogEvent::new("prisoners", "catch", pieces[i].sheet.name.as_str())
        .outcome(result.outcome)
        .field("guard", &pieces[g].sheet.name)
        .field("distance", round_to_thousandths_f32(distance))
        .field("margin", contest.margin)
        .field("clear", result.clear_in);
    if contest.helper.is_some() {
        event = event
            .field("second_person", helper.map(|h| pieces[h].sheet.name.clone()))
            .house_rule("prisoners.second_person_helps_catch");
    }
    for r in result.rolls() {
        event = event.roll(r);
    }
    log.push(&clock, event);
    match result.outcome {
        ChaseOutcome::Caught | ChaseOutcome::CaughtKnockedDown => {
            run.status = RunStatus::Caught;
            run.knocked_down = result.outcome == ChaseOutcome::CaughtKnockedDown;
            run.struggle_rounds = 0;
            pieces[i].sheet.prisoner.run = Some(run);
        }
        ChaseOutcome::FugitiveClear => {
            run_on(pieces, i, result.clear_in, "clear", round, ctx, log);
        }
        ChaseOutcome::StillInvolved | ChaseOutcome::OutOfReach => {}
    }
}

/// 000 "Catching, runaways, and overpowering": a round of the struggle after the catch, "Fugitive -1for being caught"; "+3 to tie hands and gain control".
fn struggle(
    pieces: &mut [Piece],
    cursed: &[bool],
    i: usize,
    mut run: Runaway,
    round: u8,
    ctx: &Ctx,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    let clock = ctx.round(round);
    let by_name = index_by_name(pieces);
    let holder = run.pursued_by.as_ref().and_then(|n| by_name.get(n).copied()).filter(|&g| !pieces[g].immobile);
    let Some(g) = holder else {
        // No guard to hold him (checked on load; a guard held by a condition lets go): he runs on.
        run.status = RunStatus::Fugitive;
        run.pursued_by = None;
        run.knocked_down = false;
        pieces[i].sheet.prisoner.run = Some(run);
        return;
    };
    let settings = ctx.settings;
    let helper = helper_for(pieces, i, g);
    let guard = pursuer(&pieces[g], cursed[g]);
    let second = helper.map(|h| pursuer(&pieces[h], cursed[h]));
    let down = down_in_struggle(run.knocked_down, run.struggle_rounds, settings);
    let hands_bound = pieces[i].sheet.bound.hands;
    let fugitive = Fugitive { melee_factor: pieces[i].me, hands_bound, down, evil_eye: cursed[i] };
    let result = resolve_struggle_round(&guard, second.as_ref(), &fugitive, settings, dice);
    let mut event = LogEvent::new("prisoners", "struggle", pieces[i].sheet.name.as_str())
        .outcome(result.outcome)
        .field("guard", &pieces[g].sheet.name)
        .field("second_person", helper.map(|h| pieces[h].sheet.name.clone()))
        .field("margin", result.contest.margin)
        .field("struggle_round", run.struggle_rounds + 1);
    if run.knocked_down {
        event = event.house_rule("prisoners.knocked_down_stays_down");
    }
    if helper.is_some() {
        event = event.house_rule("prisoners.mean_rounding");
    }
    if result.outcome == StruggleOutcome::BreaksClear {
        event = event.house_rule("prisoners.struggle_minus_breaks_clear");
    }
    for r in result.rolls() {
        event = event.roll(r);
    }
    log.push(&clock, event);
    match result.outcome {
        StruggleOutcome::GainsControl => {
            let guard_name = pieces[g].sheet.name.clone();
            let at = pieces[i].at;
            let p = &mut pieces[i].sheet;
            // New bonds: the work on the old ones is lost.
            p.bound.hands = true;
            p.prisoner.loosenings = 0;
            p.prisoner.given_up = false;
            p.prisoner.run = None;
            let event = LogEvent::new("prisoners", "recaptured", p.name.as_str())
                .outcome(P::Recaptured)
                .field("guard", guard_name)
                .field("at", point(at));
            log.push(&clock, event);
        }
        StruggleOutcome::StruggleGoesOn => {
            run.struggle_rounds = run.struggle_rounds.saturating_add(1).min(MAX_STRUGGLE_ROUNDS);
            pieces[i].sheet.prisoner.run = Some(run);
        }
        StruggleOutcome::BreaksClear => {
            run.status = RunStatus::Fugitive;
            run.knocked_down = false;
            run.struggle_rounds = 0;
            pieces[i].sheet.prisoner.run = Some(run);
            run_on(pieces, i, result.clear_in, "clear", round, ctx, log);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bonds
// ---------------------------------------------------------------------------------------------

/// 000 "Guarding prisoners": unsupervised bound leaders, officers and independents work their bonds; free hands undo a binding a round.
fn work_all_bonds(pieces: &mut [Piece], cursed: &[bool], ctx: &Ctx, dice: &mut SimDice, log: &mut EventLog) {
    let settings = ctx.settings;
    for i in 0..pieces.len() {
        let sheet = &pieces[i].sheet;
        if !sheet.is_prisoner() || sheet.prisoner.run.is_some() || sheet.bound == crate::rules::prisoners::Bonds::NONE {
            continue;
        }
        let at = pieces[i].at;
        let watched_by: Vec<usize> = guards_of(pieces, i)
            .into_iter()
            .filter(|&g| free(pieces, g) && pieces[g].at.distance(at) <= settings.supervision_reach_in)
            .collect();
        let unsupervised = watched_by.is_empty();
        let rank = pieces[i].sheet.prisoner_rank.unwrap_or_default();
        if !pieces[i].sheet.bound.hands {
            // Hands free since an earlier move: a binding a round, while unsupervised.
            if !unsupervised || !rank.works_bonds() {
                continue;
            }
            for round in 1..=ctx.clock.rounds_per_move {
                let before = pieces[i].sheet.bound;
                let (after, undone) = undo_binding_round(before, settings.undo_order);
                let Some(binding) = undone else { break };
                pieces[i].sheet.bound = after;
                let mut event = LogEvent::new("prisoners", "binding_undone", pieces[i].sheet.name.as_str())
                    .outcome(P::Undone)
                    .field("binding", binding.id())
                    .field("bound", after)
                    .house_rule("prisoners.supervision_reach_in");
                if before.feet && before.gag {
                    event = event.house_rule("prisoners.undo_order");
                }
                log.push(&ctx.round(round), event);
            }
            continue;
        }
        let p = &pieces[i].sheet;
        let state = BondsState { bonds: p.bound, loosenings: p.prisoner.loosenings, given_up: p.prisoner.given_up };
        let (mut next, roll) = work_bonds(rank, state, unsupervised, settings, dice);
        let Some(mut roll) = roll else { continue };
        // 001 "Lay an evil eye Curse": the prisoner's −1, and his bonds read again.
        if cursed[i] {
            crate::rules::magic::apply_evil_eye(&mut roll.roll, true);
            roll.outcome = crate::rules::prisoners::bonds_band(roll.roll.total);
            next = crate::rules::prisoners::bonds_after(state, roll.outcome, settings);
        }
        let p = &mut pieces[i].sheet;
        p.bound = next.bonds;
        p.prisoner.loosenings = next.loosenings;
        p.prisoner.given_up = next.given_up;
        let mut event = LogEvent::new("prisoners", "bonds_roll", p.name.as_str())
            .outcome(roll.outcome)
            .roll(roll.roll)
            .field("rank", rank.id())
            .field("loosenings", next.loosenings)
            .field("bound", next.bonds)
            .house_rule("prisoners.supervision_reach_in");
        if next.given_up {
            event = event.house_rule("prisoners.gives_up_for_good");
        }
        log.push(&ctx.clock, event);
    }
}

// ---------------------------------------------------------------------------------------------
// Berserkers
// ---------------------------------------------------------------------------------------------

/// 000 "Berserking": each berserker's move: building his rage, charging the nearest enemy within 12", collapsing exhausted.
fn berserkers(pieces: &mut [Piece], ctx: &Ctx, log: &mut EventLog) {
    let settings = ctx.settings;
    for i in 0..pieces.len() {
        let Some(sheet) = pieces[i].sheet.berserker.clone() else { continue };
        if pieces[i].sheet.prisoner.run.is_some() || pieces[i].sheet.bound.hands {
            continue;
        }
        let side = pieces[i].sheet.side.clone();
        let at = pieces[i].at;
        // Enemies: figures of another side still on the table, in scene order.
        let enemies: Vec<usize> = (0..pieces.len())
            .filter(|&j| j != i && pieces[j].sheet.side != side && !pieces[j].sheet.prisoner.escaped())
            .collect();
        let distances: Vec<f32> = enemies.iter().map(|&j| pieces[j].at.distance(at)).collect();
        let exhaustion_point = sheet.exhaustion_point.unwrap_or(settings.berserk_exhaustion_point);
        let berserker = Berserker {
            state: sheet.state,
            trained: sheet.trained,
            begin_rage: sheet.begin_rage.is_some_and(|m| ctx.clock.move_number >= m),
            fatigue: pieces[i].sheet.fatigue,
            exhaustion_point,
            enemy_distances_in: &distances,
        };
        let m = berserk_move(&berserker, settings);
        // Kept within what a scene may hold, so a saved scene always loads.
        let fatigue = pieces[i].sheet.fatigue.saturating_add(m.fatigue_cost).min(MAX_FATIGUE);
        pieces[i].sheet.fatigue = fatigue;
        if let Some(b) = pieces[i].sheet.berserker.as_mut() {
            b.state = m.state;
        }
        if matches!(m.outcome, BerserkOutcome::StaysCalm | BerserkOutcome::Exhausted) {
            continue;
        }
        let mut event = LogEvent::new("prisoners", "berserk", pieces[i].sheet.name.as_str())
            .outcome(m.outcome)
            .field("state", m.state.id())
            .field("fatigue", fatigue)
            .field("exhaustion_point", exhaustion_point)
            .field("melee_bonus", m.melee_bonus)
            .field("ignores_orders_and_morale", m.ignores_orders_and_morale);
        if sheet.exhaustion_point.is_none() && m.outcome != BerserkOutcome::BuildsRage {
            event = event.house_rule("prisoners.berserk_exhaustion_point");
        }
        if matches!(m.outcome, BerserkOutcome::RagesWithoutEnemy | BerserkOutcome::CalmsDown) {
            event = event.house_rule("prisoners.berserk_without_enemy");
        }
        if m.state == BerserkState::Raging
            && m.outcome != BerserkOutcome::BuildsRage
            && settings.rage_fatigue_per_move > 0
        {
            event = event.house_rule("prisoners.rage_fatigue_per_move");
        }
        if let Some(k) = m.target {
            let j = enemies[k];
            let goal = pieces[j].at;
            let from = pieces[i].at;
            let run_in = running_move_in(pieces[i].base_move_in, false);
            let budget = run_in.min((from.distance(goal) - CHASE_GAP_IN).max(0.0));
            run_toward(&mut pieces[i], goal, budget, ctx);
            // Reading: a charge is at a run, and costs the running point even in contact (the
            // text gives melee no fatigue of its own).
            pieces[i].ran = true;
            pieces[i].speed = pieces[i].speed.max(run_in);
            let now = pieces[i].at.distance(goal);
            event = event
                .field("target", &pieces[j].sheet.name)
                .field("target_distance", round_to_thousandths_f32(distances[k]))
                .field("from", point(from))
                .field("to", point(pieces[i].at))
                .field("contact", now <= BERSERK_CONTACT_IN)
                .field("melee", "outside the sources: the contact and the +2 are reported");
        }
        log.push(&ctx.clock, event);
    }
}

/// RULES-NOTES "Time and movement": running "costs a fatigue point": once a move for each figure that ran in this set.
fn fatigue(pieces: &mut [Piece], ctx: &Ctx, log: &mut EventLog) {
    for p in pieces.iter_mut().filter(|p| p.ran) {
        let run_in = running_move_in(p.base_move_in, p.sheet.prisoner.run.is_some() && runs_hampered(&p.sheet));
        p.speed = p.speed.max(run_in);
        // Walking its path at a run already cost this move's point (the Movement set).
        if p.walked && p.sheet.gait == Gait::Running {
            continue;
        }
        p.sheet.fatigue = p.sheet.fatigue.saturating_add(RUNNING_FATIGUE_PER_MOVE).min(MAX_FATIGUE);
        log.push(
            &ctx.clock,
            LogEvent::new("prisoners", "fatigue", p.sheet.name.as_str())
                .outcome(P::Tired)
                .field("gained", RUNNING_FATIGUE_PER_MOVE)
                .field("fatigue", p.sheet.fatigue)
                .field("why", "running"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::scene_from_str;
    use crate::sim::{Simulation, run_log};

    fn events<'a>(log: &'a EventLog, event: &str) -> Vec<&'a LogEvent> {
        log.events.iter().filter(|e| e.system == "prisoners" && e.event == event).collect()
    }

    /// Guards who share a prisoner are one escort; escorts come in the order of their first figure.
    #[test]
    fn escorts_join_guards_who_share_a_prisoner() {
        let scene = scene_from_str(
            "(version: 1, table: (width: 40, height: 20), figures: [
               (name: \"P1\", side: \"r\", position: (1, 1), bound: (hands: true)),
               (name: \"G1\", position: (2, 1), guard: (prisoners: [\"P1\", \"P2\"])),
               (name: \"G3\", position: (9, 9), guard: (prisoners: [\"P3\"])),
               (name: \"P2\", side: \"r\", position: (3, 1), bound: (hands: true)),
               (name: \"G2\", position: (4, 1), guard: (prisoners: [\"P2\"])),
               (name: \"P3\", side: \"r\", position: (9, 8), prisoner_rank: officer)])",
        );
        let pieces: Vec<Piece> = scene
            .figures
            .iter()
            .map(|f| Piece {
                sheet: f.clone(),
                at: vec2(f.position),
                facing: 0.0,
                immobile: false,
                me: 0,
                base_move_in: 6.0,
                walked: false,
                ran: false,
                segments: Vec::new(),
                speed: 0.0,
            })
            .collect();
        assert_eq!(
            escorts(&pieces),
            vec![
                EscortGroup { guards: vec![1, 4], prisoners: vec![0, 3] },
                EscortGroup { guards: vec![2], prisoners: vec![5] },
            ]
        );
        assert_eq!(guards_of(&pieces, 3), vec![1, 4]);
    }

    /// RULES-NOTES: running costs a fatigue point once a move: a guard who walked his path at a
    /// run (charged by the Movement set) and then chases pays nothing more; one who stood and
    /// then chased pays his point here.
    #[test]
    fn running_costs_one_fatigue_point_a_move_however_often_he_runs() {
        let scene = scene_from_str(
            "(version: 1, table: (width: 40, height: 20), figures: [
               (name: \"Walked\", position: (1, 1), gait: running, fatigue: 1),
               (name: \"Stood\", position: (5, 1), fatigue: 1)])",
        );
        let terrain = Terrain::default();
        let walls = Walls::default();
        let settings = PrisonersSettings::default();
        let ctx = Ctx {
            settings: &settings,
            clock: MoveClock::default(),
            table: Vec2::new(40.0, 20.0),
            terrain: &terrain,
            walls: &walls,
        };
        let mut pieces: Vec<Piece> = scene
            .figures
            .iter()
            .map(|f| Piece {
                sheet: f.clone(),
                at: vec2(f.position),
                facing: 0.0,
                immobile: false,
                me: 0,
                base_move_in: 6.0,
                walked: f.name == "Walked",
                ran: true,
                segments: Vec::new(),
                speed: 0.0,
            })
            .collect();
        let mut log = EventLog::default();
        fatigue(&mut pieces, &ctx, &mut log);
        assert_eq!(pieces[0].sheet.fatigue, 1, "already charged in Movement");
        assert_eq!(pieces[1].sheet.fatigue, 1 + RUNNING_FATIGUE_PER_MOVE);
        assert_eq!(events(&log, "fatigue").len(), 1);
        assert_eq!(events(&log, "fatigue")[0].subject, "Stood");
    }

    /// A runaway runs for the nearest edge he can reach without crossing water.
    #[test]
    fn a_runaway_does_not_run_into_the_river() {
        let scene = scene_from_str(
            "(version: 1, table: (width: 40, height: 20),
              terrain: [(name: \"River\", material: water, shape: Rect(min: (0, 0), max: (40, 4)))],
              figures: [(name: \"P\", position: (20, 6), bound: (hands: true))])",
        );
        let terrain = Terrain(scene.terrain.clone());
        let walls = Walls::default();
        let settings = PrisonersSettings::default();
        let ctx = Ctx {
            settings: &settings,
            clock: MoveClock::default(),
            table: Vec2::new(40.0, 20.0),
            terrain: &terrain,
            walls: &walls,
        };
        let f = &scene.figures[0];
        let piece = Piece {
            sheet: f.clone(),
            at: vec2(f.position),
            facing: 0.0,
            immobile: false,
            me: 0,
            base_move_in: 6.0,
            walked: false,
            ran: false,
            segments: Vec::new(),
            speed: 0.0,
        };
        // The bottom edge is 6" off across the river; the top, 14" off, is dry.
        assert_eq!(destination(&piece, &ctx), (Vec2::new(20.0, 20.0), "table_edge"));
        assert!(crosses_water(Vec2::new(20.0, 6.0), Vec2::new(20.0, 0.0), &terrain));
        let dry = dry_until(Vec2::new(20.0, 6.0), Vec2::new(20.0, 0.0), &terrain);
        assert!((dry - Vec2::new(20.0, 4.25)).length() < 1e-4, "{dry}");
    }

    /// The same seed gives the same log, and a scene saved part-way runs on as the whole run did.
    #[test]
    fn a_saved_escort_runs_on_identically() {
        let scene = scene_from_str(include_str!("../../scenes/prisoner-escort.ron"));
        let whole = run_log(&scene, 7, 6);
        assert_eq!(whole.to_json_lines(), run_log(&scene, 7, 6).to_json_lines());
        let mut sim = Simulation::new(&scene, 7);
        sim.step_moves(3);
        let first = sim.take_log();
        let saved = sim.scene_now().expect("a scene");
        let text = crate::scene::scene_to_ron(&saved).expect("saves");
        let reloaded = crate::scene::parse_scene(&text, std::path::Path::new("<saved>")).expect("loads");
        assert_eq!(reloaded, saved);
        let mut resumed = Simulation::new(&reloaded, 7);
        resumed.step_moves(3);
        let mut joined = first.events.clone();
        joined.extend(resumed.take_log().events);
        assert_eq!(joined, whole.events);
        assert!(!events(&whole, "escort").is_empty(), "the escort is diced");
    }
}
