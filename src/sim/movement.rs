//! Figures walk their waypoints each move, as far as their allowance lets them
//! (RULES-NOTES "Time and movement"); the swept segments are kept for the traps.

use super::clock::MoveClock;
use super::geometry::first_wall_hit;
use super::log::{EventLog, LogEvent, round_to_thousandths_f32};
use super::outcome::MoveOutcome;
use super::world::{Conditions, Facing, Figure, SceneOrder, Swept, TablePosition, Terrain, Walls, Waypoints, point};
use super::{Move, MoveSystems};
use crate::rules::movement::{MoveAllowance, MovePenalty, move_allowance};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Move, move_figures.in_set(MoveSystems::Movement));
}

/// The move a figure may make now: a fixed `move_rate` where the scene sets one (less its
/// injuries), otherwise the worked-out basic move on the ground it stands on. A mounted
/// non-rider takes 1" off either (000 "Riders & Animal Trainers": "Non riders deduct 1" from moves").
pub fn allowance_for(
    figure: &super::world::Figure,
    at: Vec2,
    conditions: &Conditions,
    terrain: &Terrain,
) -> MoveAllowance {
    let sheet = &figure.0;
    let mut penalties: Vec<MovePenalty> = conditions
        .0
        .iter()
        .filter(|c| c.move_penalty > 0.0)
        .map(|c| MovePenalty { reason: &c.name, inches: c.move_penalty })
        .collect();
    if sheet.mounted {
        let inches = super::herds::horsemanship(&sheet.skills).mounted_move_penalty_in();
        if inches > 0.0 {
            penalties.push(MovePenalty { reason: "non-rider mounted", inches });
        }
    }
    let going = terrain.material_at(at).map(|m| m.going()).unwrap_or_default();
    match sheet.move_rate {
        Some(rate) => {
            let penalty: f32 = penalties.iter().map(|p| p.inches).sum();
            let mut a = MoveAllowance { inches: (rate - penalty).max(0.0), factors: Vec::new() };
            a.factors
                .push(crate::rules::movement::MoveFactor { reason: "move rate set in scene".into(), inches: rate });
            for p in &penalties {
                a.factors.push(crate::rules::movement::MoveFactor { reason: p.reason.to_string(), inches: -p.inches });
            }
            a
        }
        None => move_allowance(sheet.sex, sheet.armour, going, sheet.gait, &penalties),
    }
}

/// How far short of a wall a blocked figure stops, in inches.
const WALL_STANDOFF: f32 = 0.05;

/// Walk `from` along `waypoints` for at most `budget` inches; returns the segments swept and
/// whether a wall stopped the walk (the figure then waits at the wall, its path kept).
pub fn walk(
    from: Vec2,
    waypoints: &mut std::collections::VecDeque<Vec2>,
    budget: f32,
    walls: &Walls,
) -> (Vec<(Vec2, Vec2)>, bool) {
    let mut at = from;
    let mut left = budget;
    let mut segments = Vec::new();
    while left > 1e-6 {
        let Some(&next) = waypoints.front() else { break };
        let d = at.distance(next);
        let reach = if d <= left { next } else { at + (next - at) * (left / d) };
        if let Some(t) = first_wall_hit(at, reach, &walls.walls, &walls.doors) {
            let stop_len = (at.distance(reach) * t - WALL_STANDOFF).max(0.0);
            let stop = if d > 0.0 { at + (next - at) * (stop_len / d) } else { at };
            if stop != at {
                segments.push((at, stop));
            }
            return (segments, true);
        }
        if d <= left {
            segments.push((at, next));
            at = next;
            left -= d;
            waypoints.pop_front();
        } else {
            let to = at + (next - at) * (left / d);
            segments.push((at, to));
            left = 0.0;
        }
    }
    (segments, false)
}

fn move_figures(
    mut figures: Query<(
        &SceneOrder,
        &Name,
        &Figure,
        &Conditions,
        &mut TablePosition,
        &mut Facing,
        &mut Waypoints,
        &mut Swept,
    )>,
    terrain: Res<Terrain>,
    walls: Res<Walls>,
    clock: Res<MoveClock>,
    mut log: ResMut<EventLog>,
) {
    let figures: Vec<_> = figures.iter_mut().sort::<&SceneOrder>().collect();
    for (_, name, figure, conditions, mut position, mut facing, mut waypoints, mut swept) in figures {
        swept.segments.clear();
        swept.speed = 0.0;
        swept.popped = 0;
        if waypoints.0.is_empty() {
            continue;
        }
        if let Some(held) = conditions.0.iter().find(|c| c.immobile) {
            log.push(
                &clock,
                LogEvent::new("movement", "moved", name.as_str())
                    .outcome(MoveOutcome::Held)
                    .field("condition", &held.name)
                    .field("waypoints_left", waypoints.0.len()),
            );
            continue;
        }
        let allowance = allowance_for(figure, position.0, conditions, &terrain);
        let from = position.0;
        let waypoints_before = waypoints.0.len();
        let (segments, blocked) = walk(from, &mut waypoints.0, allowance.inches, &walls);
        swept.popped = waypoints_before - waypoints.0.len();
        let distance: f32 = segments.iter().map(|(a, b)| a.distance(*b)).sum();
        if let Some(&(a, b)) = segments.last() {
            position.0 = b;
            if a != b {
                facing.0 = (b - a).to_angle().to_degrees();
            }
        }
        swept.segments = segments;
        swept.speed = allowance.inches;
        let outcome = if blocked {
            MoveOutcome::BlockedByWall
        } else if distance <= 0.0 {
            MoveOutcome::HeldUp
        } else if waypoints.0.is_empty() {
            MoveOutcome::Arrived
        } else {
            MoveOutcome::Moved
        };
        log.push(
            &clock,
            LogEvent::new("movement", "moved", name.as_str())
                .outcome(outcome)
                .field("from", point(from))
                .field("to", point(position.0))
                .field("distance", round_to_thousandths_f32(distance))
                .field("allowance", round_to_thousandths_f32(allowance.inches))
                .field("allowance_factors", &allowance.factors)
                .field("gait", figure.0.gait)
                .field("waypoints_left", waypoints.0.len()),
        );
    }
}
