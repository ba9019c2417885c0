//! Obstacles on the table: stake lines made and charged, grapnels thrown and thrown down,
//! climbers overloading ropes, glass-topped walls climbed, planks laid over cattle grids and
//! vehicles that wait for them (000 "Sharpened Stakes", "Grapnels, Ropes, and cords"; 001
//! "Cattle Grids", "Climbing over High broken glass topped walls"). The readings are in
//! docs/obstacles.md "In a scene".
//!
//! The Obstacles set runs after Traps and before Temptations, in one system; each step visits
//! its entries in scene order:
//! 1. stake lines: a builder within 1" adds a move of work; each figure whose path this move
//!    crossed a ready line is reported: a rider from the sharp side gets the stakes' strike on
//!    his steed (D10 + F + the speed band), foot and anyone advancing from behind the inches
//!    the text takes off (reported, not applied: the sim has no charge moves);
//! 2. the grapnel throws ordered for this move (range by sex, lodgement D10 6+);
//! 3. round by round, every opponent of the thrower within 1" of a lodged grapnel dices to
//!    throw it down (D10 7+), per `rules.obstacles.throw_down_tries`; its rope's climbers fall;
//! 4. round by round, each hanging rope whose load grew past its strength rolls D6 − 1 per
//!    excess quabit (per `rules.obstacles.overload_rolls`); 2 or less breaks, its climbers fall;
//! 5. round by round, each figure at a glass-topped wall works at a try; a try that succeeds
//!    puts him down on the far side;
//! 6. round by round, the men at a plank order lay the planks (3 rounds); laid, they bridge the
//!    grid for the rest of play;
//! 7. each vehicle goes along its path at its rate, stopping at a wall or at a grid it may not
//!    cross (horse drawn, no planks).

use super::clock::{MoveClock, SimDice};
use super::geometry::segments_cross;
use super::herds::CattleGrids;
use super::log::{EventLog, LogEvent, point_to_thousandths, round_to_thousandths};
use super::magic::Cursed;
use super::outcome::ObstacleEventOutcome as O;
use super::world::{Figure, SceneOrder, Swept, TablePosition, Walls, point, vec2};
use super::{Move, MoveSystems};
use crate::rules::character::{Gait, Sex};
use crate::rules::dice::Rolls;
use crate::rules::house_rules::is_house_rule;
use crate::rules::magic::apply_evil_eye;
use crate::rules::obstacles::{
    AVERAGE_PERSON_QUABITS, Climber, ClimberFall, GlassWallOutcome, LodgementOutcome, ObstaclesSettings,
    OverloadOutcome, Rope, RopeLoad, STANDARD_LENGTH_HETS, StakeSide, ThrowDownOutcome, Troop, climb_glass_wall,
    grapnel_range_in, lay_planks_round, lodgement_band, overload_roll_due, plank_work, raw_excess_quabits,
    resolve_overload, rider_stake_strike, stake_work, stakes_melee, stakes_move_loss_in, throw_down_due,
    throw_down_grapnel, throw_grapnel, vehicle_can_cross, within_throw_down_reach,
};
use crate::scene::Scene;
use crate::scene::obstacles::{ObstaclesSection, SceneRope};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ObstacleBook>();
    app.add_systems(Move, resolve_obstacles.in_set(MoveSystems::Obstacles));
}

/// How close a figure must stand to a stake line, a glass wall, or planks and their grid to
/// work there (reading: base to base, as the grapnel's "within 1"").
pub const WORK_REACH_IN: f32 = 1.0;
/// How far short of a wall or a grid a vehicle stops, inches.
pub const VEHICLE_STANDOFF_IN: f32 = 0.25;

/// The scene's obstacles as play has changed them, with `rules.obstacles`.
#[derive(Resource, Debug, Clone, Default)]
pub struct ObstacleBook {
    /// The scene's `obstacles` section.
    pub section: ObstaclesSection,
    /// `rules.obstacles`.
    pub settings: ObstaclesSettings,
}

/// Keep the scene's obstacles; planks already laid bridge their grid.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    let section = scene.obstacles.clone();
    if let Some(mut grids) = world.get_resource_mut::<CattleGrids>() {
        for order in section.planks.iter().filter(|p| plank_work(p.rounds_worked).laid) {
            for g in grids.0.iter_mut().filter(|g| g.name == order.grid) {
                g.planks = true;
            }
        }
    }
    world.insert_resource(ObstacleBook { section, settings: scene.rules.obstacles.clone() });
}

/// Write the obstacles back into the scene; grids with laid planks are written with `planks`.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    let Some(book) = world.get_resource::<ObstacleBook>() else { return };
    scene.obstacles = book.section.clone();
    for order in scene.obstacles.planks.iter().filter(|p| plank_work(p.rounds_worked).laid) {
        for g in scene.cattle_grids.iter_mut().filter(|g| g.name == order.grid) {
            g.planks = true;
        }
    }
}

/// A figure as the obstacles read it.
struct Body {
    name: String,
    side: String,
    sex: Sex,
    mounted: bool,
    running: bool,
    melee_factor: i32,
    at: Vec2,
    segments: Vec<(Vec2, Vec2)>,
    speed: f32,
    cursed: bool,
}

/// The distance from `p` to the segment `a`–`b`.
fn distance_to_segment(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= f32::EPSILON {
        return p.distance(a);
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// Which side of the line `a`–`b` the point `p` lies on: +1, −1, or 0 on it.
fn side_of(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    (b - a).perp_dot(p - a).signum()
}

/// Add each of `paths` that is a registered house rule (the others are readings of the text).
fn mark(mut event: LogEvent, paths: &[&'static str]) -> LogEvent {
    for &p in paths {
        if is_house_rule(p) {
            event.add_house_rule(p);
        }
    }
    event
}

/// The falls, as the log writes them.
fn falls_field(falls: &[ClimberFall], names: &[String]) -> Vec<serde_json::Value> {
    falls
        .iter()
        .map(|f| {
            serde_json::json!({
                "figure": names.get(f.climber).cloned().unwrap_or_default(),
                "height_in": round_to_thousandths(f.height_in),
                "strike": f.strike.as_ref().map(|r| r.total),
            })
        })
        .collect()
}

/// A scene rope as the rules take it.
fn rules_rope(r: &SceneRope) -> Rope {
    Rope {
        kind: r.kind,
        length_hets: r.length_hets.unwrap_or(STANDARD_LENGTH_HETS),
        strength_quabits: r.strength_quabits.unwrap_or(r.kind.strength_quabits()),
        parted: r.parted,
    }
}

/// The climbers on a scene rope as the rules take them.
fn rules_climbers(r: &SceneRope) -> Vec<Climber> {
    r.climbers
        .iter()
        .map(|c| Climber { weight_quabits: c.weight_quabits.unwrap_or(AVERAGE_PERSON_QUABITS), height_in: c.height_in })
        .collect()
}

/// Whether a rope hangs: not parted, not thrown down, and its grapnel (if it has one) lodged.
fn hangs(section: &ObstaclesSection, r: &SceneRope) -> bool {
    !r.parted && !r.down && section.grapnels.iter().filter(|g| g.rope.as_ref() == Some(&r.name)).all(|g| g.lodged)
}

#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn resolve_obstacles(
    mut figures: Query<(&SceneOrder, &Figure, &mut TablePosition, &Swept, Option<&Cursed>)>,
    mut book: ResMut<ObstacleBook>,
    mut grids: ResMut<CattleGrids>,
    clock: Res<MoveClock>,
    walls: Res<Walls>,
    mut dice: ResMut<SimDice>,
    mut log: ResMut<EventLog>,
) {
    if book.section.is_empty() {
        return;
    }
    let mut figures: Vec<_> = figures.iter_mut().sort::<&SceneOrder>().collect();
    let mut bodies: Vec<Body> = figures
        .iter()
        .map(|(_, figure, position, swept, cursed)| Body {
            name: figure.0.name.clone(),
            side: figure.0.side.clone(),
            sex: figure.0.sex,
            mounted: figure.0.mounted,
            running: figure.0.gait == Gait::Running,
            melee_factor: figure.0.melee_factor,
            at: position.0,
            segments: swept.segments.clone(),
            speed: swept.speed,
            cursed: cursed.is_some(),
        })
        .collect();
    let clock = *clock;
    let book = &mut *book;
    let settings = book.settings.clone();
    let section = &mut book.section;
    let dice = &mut *dice;
    let log = &mut *log;
    stakes(section, &bodies, &settings, &clock, dice, log);
    grapnel_throws(section, &bodies, &clock, dice, log);
    for round in 1..=clock.rounds_per_move {
        let at = MoveClock { round: Some(round), ..clock };
        throw_downs(section, &bodies, &settings, &at, dice, log);
        overloads(section, &settings, &at, dice, log);
        glass_walls(section, &mut bodies, &walls, &settings, &at, dice, log);
        planks(section, &bodies, &mut grids, &settings, &at, log);
    }
    vehicles(section, &grids, &walls, &clock, log);
    for ((_, _, position, _, _), body) in figures.iter_mut().zip(bodies) {
        if position.0 != body.at {
            position.0 = body.at;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Stakes
// ---------------------------------------------------------------------------------------------

/// 000 "Sharpened Stakes": building lines, and the figures that crossed a ready line this move.
fn stakes(
    section: &mut ObstaclesSection,
    bodies: &[Body],
    settings: &ObstaclesSettings,
    clock: &MoveClock,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    for line in section.stake_lines.iter_mut() {
        let (a, b) = (vec2(line.from), vec2(line.to));
        if let (Some(done), Some(builder)) = (line.moves_worked, &line.builder)
            && stake_work(done).moves_left > 0
            && bodies.iter().any(|x| x.name == *builder && distance_to_segment(x.at, a, b) <= WORK_REACH_IN)
        {
            let work = stake_work(done + 1);
            line.moves_worked = Some(done + 1);
            let outcome = if work.moves_left == 0 { O::StakesReady } else { O::StakesBuilding };
            log.push(
                clock,
                LogEvent::new("obstacles", "stake_work", line.name.as_str())
                    .outcome(outcome)
                    .field("builder", builder)
                    .field("moves_worked", done + 1)
                    .field("stage", work.stage.id())
                    .field("moves_left", work.moves_left),
            );
        }
    }
    for body in bodies {
        // Each crossing this move: (inches along the path, line, from the sharp side, where).
        let mut crossings = Vec::new();
        let mut along = 0.0;
        for &(p, q) in &body.segments {
            for (l, line) in section.stake_lines.iter().enumerate() {
                if stake_work(line.work_done()).moves_left > 0 {
                    continue;
                }
                let (a, b) = (vec2(line.from), vec2(line.to));
                if let Some(t) = segments_cross(p, q, a, b)
                    && t > 1e-6
                {
                    let sharp = side_of(p, a, b) == side_of(vec2(line.sharp_side), a, b);
                    crossings.push((along + p.distance(q) * t, l, sharp, p + (q - p) * t));
                }
            }
            along += p.distance(q);
        }
        crossings.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        for (_, l, sharp, at) in crossings {
            let line = &section.stake_lines[l];
            let side = if sharp { StakeSide::SharpSide } else { StakeSide::Behind };
            let troop = if body.mounted { Troop::Rider } else { Troop::Foot };
            let melee = stakes_melee(troop, side, settings);
            let loss = stakes_move_loss_in(troop, side, body.running);
            let base = LogEvent::new("obstacles", "stakes_crossed", body.name.as_str())
                .field("line", &line.name)
                .field("at", point_to_thousandths(at))
                .field("troop", troop.id())
                .field("side", side.id())
                .field("charging", body.running)
                .field("loses_charge_bonus", melee.loses_charge_bonus)
                .field("melee_factor", melee.melee_factor)
                .field("move_loss_in", loss);
            if troop == Troop::Rider && side == StakeSide::SharpSide {
                let strike = rider_stake_strike(body.speed, body.melee_factor, settings, dice);
                let outcome = if strike.strike.is_some() { O::Struck } else { O::NoStrike };
                let mut event = LogEvent::new("obstacles", "stake_strike", body.name.as_str())
                    .outcome(outcome)
                    .field("line", &line.name)
                    .field("at", point_to_thousandths(at))
                    .field("speed", round_to_thousandths(body.speed))
                    .field("speed_band", strike.speed.id())
                    .field("strike", strike.strike.as_ref().map(|r| r.total))
                    .field("loses_charge_bonus", melee.loses_charge_bonus)
                    .field("melee_factor", melee.melee_factor)
                    .field("on", "steed")
                    .field("combat", "outside the sources: the strike value is reported");
                for r in strike.rolls() {
                    event = event.roll(r);
                }
                log.push(clock, mark(event, &strike.house_rules));
            } else {
                log.push(clock, base.outcome(O::MoveLoss).field("applied", false));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 2. Grapnel throws
// ---------------------------------------------------------------------------------------------

/// 000 "Grapnels, Ropes, and cords": the throws ordered for this move.
fn grapnel_throws(
    section: &mut ObstaclesSection,
    bodies: &[Body],
    clock: &MoveClock,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    for g in section.grapnels.iter_mut() {
        if g.thrown || g.at_move != clock.move_number {
            continue;
        }
        let Some(thrower) = bodies.iter().find(|b| b.name == g.thrower) else { continue };
        let distance = thrower.at.distance(vec2(g.target));
        let mut throw = throw_grapnel(thrower.sex, distance, dice);
        let mut evil_eye = false;
        if let Some(roll) = throw.roll.as_mut() {
            apply_evil_eye(roll, thrower.cursed);
            evil_eye = thrower.cursed;
            throw.outcome = lodgement_band(roll.total);
        }
        g.thrown = true;
        g.lodged = throw.outcome == LodgementOutcome::Lodged;
        g.defenders_within.clear();
        let mut event = LogEvent::new("obstacles", "grapnel_throw", g.thrower.as_str())
            .outcome(throw.outcome)
            .field("grapnel", &g.name)
            .field("target", g.target)
            .field("distance", round_to_thousandths(distance))
            .field("range", grapnel_range_in(thrower.sex))
            .field("rope", &g.rope)
            .field("evil_eye", evil_eye);
        for r in throw.rolls() {
            event = event.roll(r);
        }
        log.push(clock, event);
    }
}

// ---------------------------------------------------------------------------------------------
// 3. Throwing grapnels down
// ---------------------------------------------------------------------------------------------

/// 000 "Grapnels, Ropes, and cords": "If an opponent is within 1" of the lodgement D10 7+ they throw it down".
fn throw_downs(
    section: &mut ObstaclesSection,
    bodies: &[Body],
    settings: &ObstaclesSettings,
    clock: &MoveClock,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    for k in 0..section.grapnels.len() {
        if !section.grapnels[k].lodged {
            continue;
        }
        let Some(thrower) = bodies.iter().find(|b| b.name == section.grapnels[k].thrower) else { continue };
        let target = vec2(section.grapnels[k].target);
        let rope = section.grapnels[k].rope.clone().and_then(|r| section.ropes.iter().position(|x| x.name == r));
        for defender in bodies.iter().filter(|b| b.side != thrower.side) {
            let distance = defender.at.distance(target);
            let is_within = within_throw_down_reach(distance);
            let g = &mut section.grapnels[k];
            let was_within = g.defenders_within.contains(&defender.name);
            // A round has always begun since his last chance: this set runs once a round.
            let due = throw_down_due(was_within, is_within, true, settings);
            if is_within && !was_within {
                g.defenders_within.push(defender.name.clone());
            } else if !is_within && was_within {
                g.defenders_within.retain(|n| *n != defender.name);
            }
            if !due {
                continue;
            }
            let (climbers, ground, names) = match rope {
                Some(r) => (
                    rules_climbers(&section.ropes[r]),
                    section.ropes[r].ground,
                    section.ropes[r].climbers.iter().map(|c| c.figure.clone()).collect::<Vec<_>>(),
                ),
                None => (Vec::new(), crate::rules::morval_traps::PitBottom::Earth, Vec::new()),
            };
            let load = RopeLoad { climbers: &climbers, ground };
            let result = throw_down_grapnel(distance, &load, settings, dice);
            let g = &mut section.grapnels[k];
            let mut event = LogEvent::new("obstacles", "throw_down", defender.name.as_str())
                .outcome(result.outcome)
                .field("grapnel", &g.name)
                .field("thrower", &g.thrower)
                .field("distance", round_to_thousandths(distance))
                .field("falls", falls_field(&result.falls, &names));
            for r in result.rolls() {
                event = event.roll(r);
            }
            log.push(clock, mark(event, &result.house_rules));
            if result.outcome == ThrowDownOutcome::ThrownDown {
                g.lodged = false;
                g.defenders_within.clear();
                if let Some(r) = rope {
                    section.ropes[r].down = true;
                    section.ropes[r].climbers.clear();
                    section.ropes[r].excess_rolled = 0.0;
                }
                break;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Overloaded ropes
// ---------------------------------------------------------------------------------------------

/// 000 "Grapnels, Ropes, and cords": "If a rope is overloaded D6 - 1each excess quabit, = 2- breaks".
fn overloads(
    section: &mut ObstaclesSection,
    settings: &ObstaclesSettings,
    clock: &MoveClock,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    for k in 0..section.ropes.len() {
        if !hangs(section, &section.ropes[k]) {
            continue;
        }
        let r = &mut section.ropes[k];
        let rope = rules_rope(r);
        let climbers = rules_climbers(r);
        let load = RopeLoad { climbers: &climbers, ground: r.ground };
        let now = raw_excess_quabits(load.weight_quabits(), rope.strength_quabits);
        let due = overload_roll_due(r.excess_rolled, now, true, settings);
        r.excess_rolled = now;
        if !due {
            continue;
        }
        let names: Vec<String> = r.climbers.iter().map(|c| c.figure.clone()).collect();
        let check = resolve_overload(&rope, &load, settings, dice);
        let mut event = LogEvent::new("obstacles", "rope_overload", r.name.as_str())
            .outcome(check.outcome)
            .field("kind", r.kind.id())
            .field("strength_quabits", rope.strength_quabits)
            .field("load_quabits", round_to_thousandths(check.load_quabits))
            .field("excess_quabits", check.excess_quabits)
            .field("climbers", &names)
            .field("falls", falls_field(&check.falls, &names));
        for roll in check.rolls() {
            event = event.roll(roll);
        }
        log.push(clock, mark(event, &check.house_rules));
        if check.outcome == OverloadOutcome::Breaks {
            r.parted = true;
            r.climbers.clear();
            r.excess_rolled = 0.0;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Glass-topped walls
// ---------------------------------------------------------------------------------------------

/// 001 "Climbing over High broken glass topped walls": a round's work at each try under way.
#[allow(clippy::too_many_arguments)]
fn glass_walls(
    section: &mut ObstaclesSection,
    bodies: &mut [Body],
    walls: &Walls,
    settings: &ObstaclesSettings,
    clock: &MoveClock,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    for wall in section.glass_walls.iter_mut() {
        let Some(points) = walls.walls().iter().find(|w| w.name == wall.wall).map(|w| w.points.clone()) else {
            continue;
        };
        let near = |p: Vec2| points.windows(2).any(|s| distance_to_segment(p, vec2(s[0]), vec2(s[1])) <= WORK_REACH_IN);
        let mut over = Vec::new();
        for (k, climber) in wall.climbers.iter_mut().enumerate() {
            let Some(body) = bodies.iter_mut().find(|b| b.name == climber.figure) else { continue };
            if !near(body.at) {
                continue;
            }
            climber.rounds_spent = climber.rounds_spent.saturating_add(1);
            if climber.rounds_spent < settings.glass_wall_rounds_per_try {
                continue;
            }
            climber.rounds_spent = 0;
            let mut climb = climb_glass_wall(climber.cloth, settings, dice);
            apply_evil_eye(&mut climb.roll, body.cursed);
            climb.outcome = if climb.roll.passed() == Some(true) {
                GlassWallOutcome::Climbed
            } else {
                GlassWallOutcome::FailsToClimb
            };
            let from = body.at;
            if climb.outcome == GlassWallOutcome::Climbed {
                body.at = vec2(climber.to);
                over.push(k);
            }
            let event = LogEvent::new("obstacles", "glass_wall_climb", climber.figure.as_str())
                .outcome(climb.outcome)
                .roll(climb.roll.clone())
                .field("wall", &wall.wall)
                .field("height_in", wall.height_in)
                .field("cloth", climber.cloth)
                .field("from", point_to_thousandths(from))
                .field("to", point_to_thousandths(body.at))
                .field("evil_eye", body.cursed);
            log.push(clock, mark(event, &climb.house_rules));
        }
        for k in over.into_iter().rev() {
            wall.climbers.remove(k);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 6. Planks
// ---------------------------------------------------------------------------------------------

/// 001 "Cattle Grids": "Takes one man 3 rounds to emplace": a round's laying at each order.
fn planks(
    section: &mut ObstaclesSection,
    bodies: &[Body],
    grids: &mut CattleGrids,
    settings: &ObstaclesSettings,
    clock: &MoveClock,
    log: &mut EventLog,
) {
    for order in section.planks.iter_mut() {
        let work = plank_work(order.rounds_worked);
        if work.laid {
            continue;
        }
        let Some(g) = grids.0.iter().position(|g| g.name == order.grid) else { continue };
        let (a, b) = (vec2(grids.0[g].from), vec2(grids.0[g].to));
        let planks_at = vec2(order.planks_at);
        let men: Vec<&String> = order
            .layers
            .iter()
            .filter(|n| {
                bodies.iter().any(|x| {
                    x.name == **n
                        && (x.at.distance(planks_at) <= WORK_REACH_IN
                            || distance_to_segment(x.at, a, b) <= WORK_REACH_IN)
                })
            })
            .collect();
        let count = u32::try_from(men.len()).unwrap_or(u32::MAX);
        let next = lay_planks_round(work, count, true, settings);
        if next == work {
            continue;
        }
        order.rounds_worked = next.rounds_worked;
        if next.laid {
            grids.0[g].planks = true;
        }
        log.push(
            clock,
            LogEvent::new("obstacles", "planks", order.grid.as_str())
                .outcome(if next.laid { O::Laid } else { O::Laying })
                .field("men", &men)
                .field("rounds_worked", next.rounds_worked)
                .field("rounds_left", next.rounds_left),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Vehicles
// ---------------------------------------------------------------------------------------------

/// 001 "Cattle Grids": "Planks needed to allow horse drawn vehicles to cross": each vehicle goes along its path.
fn vehicles(section: &mut ObstaclesSection, grids: &CattleGrids, walls: &Walls, clock: &MoveClock, log: &mut EventLog) {
    for v in section.vehicles.iter_mut() {
        if v.path.is_empty() {
            continue;
        }
        let from = vec2(v.position);
        let mut at = from;
        let mut left = v.move_rate;
        let mut stopped: Option<(O, Option<String>)> = None;
        let mut crossed: Vec<String> = Vec::new();
        while left > 1e-6 {
            let Some(&next) = v.path.first() else { break };
            let next = vec2(next);
            let d = at.distance(next);
            let reach = if d <= left { next } else { at + (next - at) * (left / d) };
            // The first thing in the way: a wall, or a grid it may not cross.
            let mut block: Option<(f32, O, Option<String>)> =
                walls.first_hit(at, reach).map(|t| (t, O::BlockedByWall, None));
            for g in &grids.0 {
                if let Some(t) = segments_cross(at, reach, vec2(g.from), vec2(g.to))
                    && t > 1e-6
                {
                    if vehicle_can_cross(v.kind, g.planks) {
                        if block.as_ref().is_none_or(|b| t < b.0) {
                            crossed.push(g.name.clone());
                        }
                    } else if block.as_ref().is_none_or(|b| t < b.0) {
                        block = Some((t, O::StoppedAtGrid, Some(g.name.clone())));
                    }
                }
            }
            if let Some((t, outcome, grid)) = block {
                let len = at.distance(reach);
                let stop = (len * t - VEHICLE_STANDOFF_IN).max(0.0);
                if len > 0.0 {
                    at += (reach - at) * (stop / len);
                }
                stopped = Some((outcome, grid));
                break;
            }
            if d <= left {
                at = next;
                left -= d;
                v.path.remove(0);
            } else {
                at = reach;
                left = 0.0;
            }
        }
        let (outcome, grid) = match stopped {
            Some((o, grid)) => (o, grid),
            None if v.path.is_empty() => (O::Arrived, None),
            None => (O::Moved, None),
        };
        v.position = point(at);
        log.push(
            clock,
            LogEvent::new("obstacles", "vehicle_moved", v.name.as_str())
                .outcome(outcome)
                .field("kind", v.kind.id())
                .field("from", point_to_thousandths(from))
                .field("to", point_to_thousandths(at))
                .field("grid", grid)
                .field("crossed", crossed),
        );
    }
}
