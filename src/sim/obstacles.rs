//! Obstacles on the table: stake lines made and charged, grapnels thrown and thrown down,
//! climbers overloading ropes, glass-topped walls climbed, planks laid over cattle grids and
//! vehicles that wait for them (000 "Sharpened Stakes", "Grapnels, Ropes, and cords"; 001
//! "Cattle Grids", "Climbing over High broken glass topped walls"). The readings are in
//! docs/obstacles.md "In a scene".
//!
//! The Obstacles set runs after Traps and before Temptations, in one system; each step visits
//! its entries in scene order:
//! 0. each figure whose inventory holds a heavier rope, or a grapnel with a rope, has the
//!    fatigue endurance it costs reported (the sources give no fatigue endurance to take it from);
//! 1. stake lines: a builder within 1" adds a move of work; each figure whose path this move
//!    crossed a ready line is reported: a rider from the sharp side gets the stakes' strike on
//!    his steed (D10 + F + the speed band), foot and anyone advancing from behind lose the
//!    inches the text takes off, from the end of this move's walk (a running figure's move is
//!    taken as a charge);
//! 2. the grapnel throws ordered for this move (range by sex, lodgement D10 6+);
//! 3. round by round, every opponent of the thrower within 1" of a lodged grapnel dices to
//!    throw it down (D10 7+), per `rules.obstacles.throw_down_tries`; its rope's climbers fall;
//! 4. round by round, each cut order whose cutter stands within 1" of its hanging rope's anchor
//!    rolls D10 + weapon strike − half the rope's strength: −2 or less fails, −1 and 0 weaken it
//!    by 2 quabits, +1 or more cut it; a cut rope drops its climbers;
//! 5. round by round, a figure whose path a wall stopped takes a hanging rope within 1" (and
//!    climbs it, per `rules.obstacles.rope_climb_rounds`), or else sets about the wall if it is
//!    glass topped; the climbers on ropes go up a round;
//! 6. round by round, each hanging rope whose load grew past its strength rolls D6 − 1 per
//!    excess quabit (per `rules.obstacles.overload_rolls`); 2 or less breaks, its climbers fall;
//!    a climber at the top of a rope that held goes over, down on the far side;
//! 7. round by round, each figure at a glass-topped wall works at a try; a try that succeeds
//!    puts him down on the far side;
//! 8. round by round, the men at a plank order lay the planks (3 rounds); laid, they bridge the
//!    grid for the rest of play;
//! 9. each vehicle goes along its path at its rate, stopping at a wall or at a grid it may not
//!    cross (horse drawn, no planks).

use super::clock::{MoveClock, SimDice};
use super::geometry::{point_segment_distance, segments_cross};
use super::herds::CattleGrids;
use super::log::{EventLog, LogEvent, point_to_thousandths, round_to_thousandths};
use super::magic::Cursed;
use super::outcome::ObstacleEventOutcome as O;
use super::world::{
    Conditions, Figure, SceneOrder, Swept, TablePosition, Walls, Waypoints, in_scene_order, point, vec2,
};
use super::{Move, MoveSystems};
use crate::rules::character::{Gait, Sex};
use crate::rules::dice::Rolls;
use crate::rules::house_rules::is_house_rule;
use crate::rules::magic::apply_evil_eye;
use crate::rules::obstacles::{
    AVERAGE_PERSON_QUABITS, Climber, ClimberFall, CutOutcome, CuttingWeapon, GlassWallOutcome, LodgementOutcome,
    ObstacleItem, ObstaclesSettings, OverloadOutcome, ROPE_CLIMB_ROUNDS_PATH, Rope, RopeLoad, STANDARD_LENGTH_HETS,
    StakeSide, ThrowDownOutcome, Troop, carrying_endurance_cost, climb_glass_wall, grapnel_range_in, lay_planks_round,
    lodgement_band, overload_roll_due, plank_work, quabits_to_pounds, raw_excess_quabits, resolve_cut,
    resolve_overload, rider_stake_strike, rope_reaches, stake_work, stakes_melee, stakes_move_loss_in, throw_down_due,
    throw_down_grapnel, throw_grapnel, vehicle_can_cross, within_throw_down_reach,
};
use crate::scene::Scene;
use crate::scene::obstacles::{
    GlassWall, Item, ItemKind, MAX_CLIMBERS, ObstaclesSection, RopeClimber, SceneRope, WallClimber, inventory_quabits,
    obstacle_items,
};
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
/// How near a wall across its way a figure must stand to be stopped there (movement stops a
/// figure 0.05" short of a wall).
pub const AT_WALL_IN: f32 = 0.1;
/// How far beyond a wall a figure that climbed it comes down, inches (as far as movement stops
/// short of one).
pub const OVER_WALL_IN: f32 = 0.05;

/// The scene's obstacles as play has changed them, with `rules.obstacles`.
#[derive(Resource, Debug, Clone, Default)]
pub struct ObstacleBook {
    /// The scene's `obstacles` section.
    pub section: ObstaclesSection,
    /// `rules.obstacles`.
    pub settings: ObstaclesSettings,
}

/// Keep the scene's obstacles; planks already laid bridge their grid; each glass-topped wall
/// has its list of climbers (empty where the scene lists none).
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    let mut section = scene.obstacles.clone();
    for wall in scene.walls.iter().filter(|w| w.glass_topped) {
        if !section.glass_walls.iter().any(|g| g.wall == wall.name) {
            section.glass_walls.push(GlassWall::at(&wall.name));
        }
    }
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
    // A glass-topped wall with no climbers and its own height needs no entry: it gets one again.
    scene.obstacles.glass_walls.retain(|g| !g.is_bare());
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
    /// The waypoint it walks to next.
    next: Option<Vec2>,
    /// It can climb: on foot, hands and feet free, not held, walking its own path.
    climbs: bool,
    inventory: Vec<Item>,
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
    mut figures: Query<(
        &SceneOrder,
        &Figure,
        &mut TablePosition,
        &mut Swept,
        Option<&Cursed>,
        &mut Waypoints,
        &Conditions,
    )>,
    mut book: ResMut<ObstacleBook>,
    mut grids: ResMut<CattleGrids>,
    clock: Res<MoveClock>,
    walls: Res<Walls>,
    mut dice: ResMut<SimDice>,
    mut log: ResMut<EventLog>,
) {
    if book.section.is_empty() && figures.iter().all(|(_, figure, ..)| figure.0.inventory.is_empty()) {
        return;
    }
    let mut figures = in_scene_order(figures.iter_mut(), |item| *item.0);
    let mut bodies: Vec<Body> = figures
        .iter()
        .map(|(_, figure, position, swept, cursed, waypoints, conditions)| Body {
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
            next: waypoints.0.front().copied(),
            climbs: !figure.0.mounted
                && !figure.0.bound.hands
                && !figure.0.bound.feet
                && !super::prisoners::off_path(&figure.0)
                && !conditions.0.iter().any(|c| c.immobile),
            inventory: figure.0.inventory.clone(),
        })
        .collect();
    let clock = *clock;
    let book = &mut *book;
    let settings = book.settings.clone();
    let section = &mut book.section;
    let dice = &mut *dice;
    let log = &mut *log;
    carrying(&bodies, &settings, &clock, log);
    for (index, ends) in stakes(section, &bodies, &settings, &clock, dice, log) {
        let (_, _, position, swept, _, waypoints, _) = &mut figures[index];
        swept.stop_at(ends, &mut position.0, &mut waypoints.0);
        let body = &mut bodies[index];
        body.at = position.0;
        body.segments = swept.segments.clone();
        body.next = waypoints.0.front().copied();
    }
    grapnel_throws(section, &bodies, &clock, dice, log);
    for round in 1..=clock.rounds_per_move {
        let at = MoveClock { round: Some(round), ..clock };
        throw_downs(section, &bodies, &settings, &at, dice, log);
        cuts(section, &bodies, &settings, &at, dice, log);
        wall_climbs(section, &bodies, &walls, &settings, &at, log);
        overloads(section, &settings, &at, dice, log);
        over_the_top(section, &mut bodies, &settings, &at, log);
        glass_walls(section, &mut bodies, &walls, &settings, &at, dice, log);
        planks(section, &bodies, &mut grids, &settings, &at, log);
    }
    vehicles(section, &grids, &walls, &clock, log);
    for ((_, _, position, _, _, _, _), body) in figures.iter_mut().zip(bodies) {
        if position.0 != body.at {
            position.0 = body.at;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 0. Carrying
// ---------------------------------------------------------------------------------------------

/// The house-rule setting that weighs `item` (`rules.obstacles.weights`).
fn weight_path(item: ObstacleItem) -> &'static str {
    match item {
        ObstacleItem::LightRope => "obstacles.weights.light_rope",
        ObstacleItem::PermanentRope => "obstacles.weights.permanent_rope",
        ObstacleItem::ShipsGrapnelRope => "obstacles.weights.ships_grapnel_rope",
        ObstacleItem::MooringRope => "obstacles.weights.mooring_rope",
        ObstacleItem::CordBall => "obstacles.weights.cord_ball",
        ObstacleItem::Grapnel => "obstacles.weights.grapnel",
    }
}

/// The house rules that weighed `items`: the weights of the obstacle items given none.
fn weight_paths(items: &[Item]) -> Vec<&'static str> {
    items
        .iter()
        .filter(|i| i.weight_quabits.is_none())
        .filter_map(|i| i.kind.obstacle_item())
        .map(weight_path)
        .collect()
}

/// 000 "Grapnels, Ropes, and cords": "Carrying heavier length ropes would deduct 1/2 fatigue endurance from the figure", "A character carrying one with a length of rope will deduct 1/2 fatigue endurance".
///
/// Each move, each figure whose inventory costs endurance: the cost is reported with what he
/// carries (quabits and pounds), not applied (`applied: false`): the sources give no fatigue
/// endurance, and fatigue points are not it.
fn carrying(bodies: &[Body], settings: &ObstaclesSettings, clock: &MoveClock, log: &mut EventLog) {
    for body in bodies.iter().filter(|b| !b.inventory.is_empty()) {
        let cost = carrying_endurance_cost(&obstacle_items(&body.inventory), settings);
        if cost <= 0.0 {
            continue;
        }
        let weight = inventory_quabits(&body.inventory, &settings.weights);
        let items: Vec<&str> = body.inventory.iter().map(|i| i.name.as_str()).collect();
        let event = LogEvent::new("obstacles", "carrying", body.name.as_str())
            .outcome(O::EnduranceCost)
            .field("items", items)
            .field("weight_quabits", round_to_thousandths(weight))
            .field("weight_lb", round_to_thousandths(quabits_to_pounds(weight)))
            .field("fatigue_endurance_cost", cost)
            .field("applied", false);
        log.push(clock, mark(event, &weight_paths(&body.inventory)));
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Stakes
// ---------------------------------------------------------------------------------------------

/// 000 "Sharpened Stakes": building lines, and the figures that crossed a ready line this move.
///
/// Returns, for each figure that loses inches, its index and how far along its swept path it
/// now ends: the losses of the lines it crossed, taken off the end of its move, but never so
/// many that it ends back behind the last line it crossed (it stops [`OVER_WALL_IN`] past it).
fn stakes(
    section: &mut ObstaclesSection,
    bodies: &[Body],
    settings: &ObstaclesSettings,
    clock: &MoveClock,
    dice: &mut SimDice,
    log: &mut EventLog,
) -> Vec<(usize, f32)> {
    let mut shortened = Vec::new();
    for line in section.stake_lines.iter_mut() {
        let (a, b) = (vec2(line.from), vec2(line.to));
        if let (Some(done), Some(builder)) = (line.moves_worked, &line.builder)
            && stake_work(done).moves_left > 0
            && bodies.iter().any(|x| x.name == *builder && point_segment_distance(x.at, a, b) <= WORK_REACH_IN)
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
    for (index, body) in bodies.iter().enumerate() {
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
        let walked = along;
        let last_crossing = crossings.last().map(|c| c.0);
        let lost: f32 = crossings
            .iter()
            .map(|&(_, _, sharp, _)| {
                let side = if sharp { StakeSide::SharpSide } else { StakeSide::Behind };
                let troop = if body.mounted { Troop::Rider } else { Troop::Foot };
                stakes_move_loss_in(troop, side, body.running)
            })
            .sum();
        let ends_at = last_crossing.map(|c| (walked - lost).max((c + OVER_WALL_IN).min(walked)));
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
                let mut strike = rider_stake_strike(body.speed, body.melee_factor, settings, dice);
                // 001 "Lay an evil eye Curse": the charging rider's throw (his F is in it).
                if let Some(roll) = strike.strike.as_mut() {
                    apply_evil_eye(roll, body.cursed);
                }
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
                let ends = ends_at.unwrap_or(walked);
                let event = base
                    .outcome(O::MoveLoss)
                    .field("applied", true)
                    .field("walked_in", round_to_thousandths(walked))
                    .field("ends_at_in", round_to_thousandths(ends));
                log.push(clock, event);
            }
        }
        if let Some(ends) = ends_at
            && ends < walked - 1e-4
        {
            shortened.push((index, ends));
        }
    }
    shortened
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
            // 001 "Lay an evil eye Curse": the defender's D10.
            let result = throw_down_grapnel(distance, &load, defender.cursed, settings, dice);
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
// 4. Cutting ropes
// ---------------------------------------------------------------------------------------------

/// 000 "Grapnels, Ropes, and cords": "Cutting ropes & cords with sharp edged weapons. Try each round, D10 + Weapon strike - half ropes quabit strength. = -2- fail, -1+ weaken -2 quabits, +1 + rope cut".
///
/// Each order from its move and round on, while its rope hangs and the cutter stands within 1"
/// of the rope's anchor. A weapon not sharp edged is reported once and the order is done.
fn cuts(
    section: &mut ObstaclesSection,
    bodies: &[Body],
    settings: &ObstaclesSettings,
    clock: &MoveClock,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    let round = u32::from(clock.round.unwrap_or(1));
    for k in 0..section.cuts.len() {
        let order = section.cuts[k].clone();
        if order.done || (clock.move_number, round) < (order.from_move, order.from_round) {
            continue;
        }
        let Some(r) = section.ropes.iter().position(|x| x.name == order.rope) else { continue };
        if !hangs(section, &section.ropes[r]) {
            continue;
        }
        let Some(cutter) = bodies.iter().find(|b| b.name == order.cutter) else { continue };
        let distance = cutter.at.distance(vec2(section.ropes[r].anchor));
        if distance > WORK_REACH_IN {
            continue;
        }
        let weapon = CuttingWeapon { strike: order.weapon_strike, sharp_edged: order.sharp_edged };
        let scene_rope = &mut section.ropes[r];
        let rope = rules_rope(scene_rope);
        let climbers = rules_climbers(scene_rope);
        let names: Vec<String> = scene_rope.climbers.iter().map(|c| c.figure.clone()).collect();
        let load = RopeLoad { climbers: &climbers, ground: scene_rope.ground };
        // 001 "Lay an evil eye Curse": a cursed cutter's D10 is −1.
        let result = resolve_cut(&rope, weapon, &load, cutter.cursed, settings, dice);
        let after = result.rope;
        let mut falls = result.falls.clone();
        if let Some(check) = &result.overload {
            falls.extend(check.falls.iter().cloned());
        }
        let mut event = LogEvent::new("obstacles", "cut_rope", order.cutter.as_str())
            .outcome(result.outcome)
            .field("rope", &order.rope)
            .field("kind", scene_rope.kind.id())
            .field("weapon_strike", order.weapon_strike)
            .field("sharp_edged", order.sharp_edged)
            .field("distance", round_to_thousandths(distance))
            .field("strength_before", rope.strength_quabits)
            .field("strength_after", after.strength_quabits)
            .field("overload", result.overload.as_ref().map(|c| c.outcome))
            .field("parted", after.parted)
            .field("climbers", &names)
            .field("falls", falls_field(&falls, &names))
            .field("evil_eye", cutter.cursed);
        for roll in result.rolls() {
            event = event.roll(roll);
        }
        log.push(clock, mark(event, &result.house_rules));
        if result.outcome == CutOutcome::NotSharpEdged {
            section.cuts[k].done = true;
            continue;
        }
        if after.strength_quabits != rope.strength_quabits {
            scene_rope.strength_quabits = Some(after.strength_quabits);
        }
        if after.parted {
            scene_rope.parted = true;
            scene_rope.climbers.clear();
            scene_rope.excess_rolled = 0.0;
        } else if result.overload.is_some() {
            // The weakened rope rolled for its new excess: the overload step rolls no more for it.
            scene_rope.excess_rolled = raw_excess_quabits(load.weight_quabits(), after.strength_quabits);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Figures stopped at walls
// ---------------------------------------------------------------------------------------------

/// Where a figure at `at`, walking to `next`, stands at a wall across its way: the point beyond
/// the wall where a climb puts it down, and how far along `at`–`next` (0..=1) the wall is.
fn wall_ahead(at: Vec2, next: Vec2, walls: &Walls) -> Option<(Vec2, f32)> {
    let len = at.distance(next);
    if len <= 0.0 {
        return None;
    }
    let t = walls.first_hit(at, next)?;
    if len * t > AT_WALL_IN {
        return None;
    }
    let beyond = (len * t + OVER_WALL_IN).min(len);
    Some((at + (next - at) * (beyond / len), t))
}

/// Whether the wall named `wall` is the one `at`–`next` meets at `t` (0..=1 along it).
fn is_wall_met(walls: &Walls, wall: &str, at: Vec2, next: Vec2, t: f32) -> bool {
    let len = at.distance(next);
    walls.walls().iter().filter(|w| w.name == wall).any(|w| {
        w.points
            .windows(2)
            .any(|s| segments_cross(at, next, vec2(s[0]), vec2(s[1])).is_some_and(|u| (u - t).abs() * len <= 1e-3))
    })
}

/// A climber's weight: an average person with what he carries (none: an average person).
fn climber_weight(body: &Body, settings: &ObstaclesSettings) -> Option<f32> {
    if body.inventory.is_empty() {
        return None;
    }
    let weight = AVERAGE_PERSON_QUABITS + inventory_quabits(&body.inventory, &settings.weights);
    Some(weight.min(crate::scene::obstacles::MAX_CLIMBER_QUABITS))
}

/// The height a climber is at after `rounds` of a climb up a rope `height_in` high.
fn climbed_height(height_in: f32, rounds: u32, settings: &ObstaclesSettings) -> f32 {
    let needed = settings.rope_climb_rounds.max(1);
    (height_in * rounds.min(needed) as f32 / needed as f32).min(height_in)
}

/// A rope climber's round, as the log writes it.
fn rope_climb_event(outcome: O, rope: &SceneRope, climber: &RopeClimber, settings: &ObstaclesSettings) -> LogEvent {
    LogEvent::new("obstacles", "rope_climb", climber.figure.as_str())
        .outcome(outcome)
        .field("rope", &rope.name)
        .field("height_in", round_to_thousandths(climber.height_in))
        .field("rope_height_in", round_to_thousandths(rope.height_in))
        .field("rounds_climbed", climber.rounds_climbed)
        .field("rounds_needed", settings.rope_climb_rounds)
        .field("weight_quabits", climber.weight_quabits.unwrap_or(AVERAGE_PERSON_QUABITS))
        .field("to", climber.to.map(|p| point_to_thousandths(vec2(p))))
        .house_rule(ROPE_CLIMB_ROUNDS_PATH)
}

/// 000 "Grapnels, Ropes, and cords" (grapnels "for hooking onto purchase points for climbing")
/// and 001 "Climbing over High broken glass topped walls": a round at the walls.
///
/// First the climbers already going up a hanging rope climb a round. Then each figure whose path
/// a wall stopped (it stands within [`AT_WALL_IN`] of a wall across the way to its next waypoint)
/// and that can climb takes the first hanging rope (in scene order) that reaches the ground and
/// whose anchor is within 1" of him, and climbs a round; without one, if the wall is glass
/// topped, he joins its climbers (cloth or newspaper in his inventory gives the +1). Otherwise
/// the wall blocks him, as before. A figure already on a rope or at a glass wall is left be.
fn wall_climbs(
    section: &mut ObstaclesSection,
    bodies: &[Body],
    walls: &Walls,
    settings: &ObstaclesSettings,
    clock: &MoveClock,
    log: &mut EventLog,
) {
    let needed = settings.rope_climb_rounds.max(1);
    for r in 0..section.ropes.len() {
        if !hangs(section, &section.ropes[r]) {
            continue;
        }
        let rope = &mut section.ropes[r];
        let height = rope.height_in;
        for c in 0..rope.climbers.len() {
            let climber = &mut rope.climbers[c];
            if climber.to.is_none() || climber.rounds_climbed >= needed {
                continue;
            }
            climber.rounds_climbed += 1;
            climber.height_in = climbed_height(height, climber.rounds_climbed, settings);
            let event = rope_climb_event(O::Climbing, rope, &rope.climbers[c], settings);
            log.push(clock, event);
        }
    }
    for body in bodies.iter().filter(|b| b.climbs) {
        let Some(next) = body.next else { continue };
        let Some((beyond, t)) = wall_ahead(body.at, next, walls) else { continue };
        let busy = section.ropes.iter().any(|r| r.climbers.iter().any(|c| c.figure == body.name))
            || section.glass_walls.iter().any(|w| w.climbers.iter().any(|c| c.figure == body.name));
        if busy {
            continue;
        }
        let shared: &ObstaclesSection = section;
        let rope = shared.ropes.iter().position(|r| {
            hangs(shared, r)
                && r.climbers.len() < MAX_CLIMBERS
                && rope_reaches(r.length_hets.unwrap_or(STANDARD_LENGTH_HETS), r.height_in, settings)
                && vec2(r.anchor).distance(body.at) <= WORK_REACH_IN
        });
        if let Some(r) = rope {
            let rope = &mut section.ropes[r];
            let climber = RopeClimber {
                figure: body.name.clone(),
                height_in: climbed_height(rope.height_in, 1, settings),
                weight_quabits: climber_weight(body, settings),
                to: Some(point(beyond)),
                rounds_climbed: 1,
            };
            log.push(clock, rope_climb_event(O::TakesRope, rope, &climber, settings));
            rope.climbers.push(climber);
            continue;
        }
        let Some(wall) = section.glass_walls.iter_mut().find(|w| is_wall_met(walls, &w.wall, body.at, next, t)) else {
            continue;
        };
        if wall.climbers.len() >= MAX_CLIMBERS {
            continue;
        }
        let cloth = body.inventory.iter().any(|i| i.kind == ItemKind::ClothOrNewspaper);
        wall.climbers.push(WallClimber { figure: body.name.clone(), to: point(beyond), cloth, rounds_spent: 0 });
        log.push(
            clock,
            LogEvent::new("obstacles", "glass_wall_reached", body.name.as_str())
                .outcome(O::AtGlassWall)
                .field("wall", &wall.wall)
                .field("height_in", wall.height(walls.walls()))
                .field("cloth", cloth)
                .field("at", point_to_thousandths(body.at))
                .field("to", point_to_thousandths(beyond)),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 6. Overloaded ropes
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

/// A climber at the top of a rope that held goes over: he comes down on the far side of the
/// wall and walks on from there next move.
fn over_the_top(
    section: &mut ObstaclesSection,
    bodies: &mut [Body],
    settings: &ObstaclesSettings,
    clock: &MoveClock,
    log: &mut EventLog,
) {
    let needed = settings.rope_climb_rounds.max(1);
    for r in 0..section.ropes.len() {
        if !hangs(section, &section.ropes[r]) {
            continue;
        }
        let rope = &mut section.ropes[r];
        let mut k = 0;
        while k < rope.climbers.len() {
            let climber = &rope.climbers[k];
            let Some(to) = climber.to.filter(|_| climber.rounds_climbed >= needed) else {
                k += 1;
                continue;
            };
            let event = rope_climb_event(O::OverTheWall, rope, climber, settings);
            if let Some(body) = bodies.iter_mut().find(|b| b.name == climber.figure) {
                body.at = vec2(to);
            }
            log.push(clock, event);
            rope.climbers.remove(k);
            let load: f32 = rules_climbers(rope).iter().map(|c| c.weight_quabits).sum();
            rope.excess_rolled = raw_excess_quabits(load, rules_rope(rope).strength_quabits).min(rope.excess_rolled);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Glass-topped walls
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
        let height = wall.height(walls.walls());
        let near =
            |p: Vec2| points.windows(2).any(|s| point_segment_distance(p, vec2(s[0]), vec2(s[1])) <= WORK_REACH_IN);
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
                .field("height_in", height)
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
// 8. Planks
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
                            || point_segment_distance(x.at, a, b) <= WORK_REACH_IN)
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
// 9. Vehicles
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
            // The grids on the leg in the order it meets them (scene order among equals): one is
            // crossed only if met before whatever stops the vehicle.
            let mut met: Vec<(f32, usize)> = grids
                .0
                .iter()
                .enumerate()
                .filter_map(|(k, g)| segments_cross(at, reach, vec2(g.from), vec2(g.to)).map(|t| (t, k)))
                .filter(|&(t, _)| t > 1e-6)
                .collect();
            met.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
            for (t, k) in met {
                if block.as_ref().is_some_and(|b| t >= b.0) {
                    break;
                }
                let g = &grids.0[k];
                if vehicle_can_cross(v.kind, g.planks) {
                    crossed.push(g.name.clone());
                } else {
                    block = Some((t, O::StoppedAtGrid, Some(g.name.clone())));
                    break;
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
