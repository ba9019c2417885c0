//! Figures crossing cattle grids (001 "Cattle Grids"): on planks, running (a roll, maybe a hurt
//! foot) or walking (pulled back by the ground lost); a mounted figure's steed is livestock and
//! stops at a grid without planks.

use super::obstacles::BEAST_STANDOFF;
use super::{CattleGrids, HerdRules};
use crate::rules::character::Gait;
use crate::rules::herds::{Beast, may_cross_grid, resolve_running_grid, running_grid_result, walking_grid_loss_in};
use crate::scene;
use crate::sim::geometry::{SegmentGrid, segments_cross};
use crate::sim::log::LogEvent;
use crate::sim::outcome::HerdOutcome;
use crate::sim::referee::Referee;
use crate::sim::world::{Conditions, Figure, SceneOrder, Swept, TablePosition, Waypoints, in_scene_order, point, vec2};
use bevy::prelude::*;
use std::collections::VecDeque;

// ---------------------------------------------------------------------------------------------
// 1. Figures crossing cattle grids
// ---------------------------------------------------------------------------------------------

/// Whether the last swept segment ended at a waypoint the walk used up (rather than partway
/// towards the next one).
fn last_segment_used_a_waypoint(a: Vec2, b: Vec2, waypoints: &VecDeque<Vec2>) -> bool {
    let Some(&front) = waypoints.front() else { return true };
    let (ab, af) = (b - a, front - a);
    // Partway: the next waypoint lies straight ahead beyond the segment's end.
    !(ab.perp_dot(af).abs() <= 1e-4 * af.length().max(1.0) && ab.dot(af) > 0.0 && af.length() + 1e-5 >= ab.length())
}

/// Pull a figure back along its swept path to `keep` inches from its start, putting back any
/// waypoint it reached beyond that point. Returns the new position and the shortened path.
fn pull_back(segments: &[(Vec2, Vec2)], waypoints: &mut VecDeque<Vec2>, keep: f32) -> (Vec2, Vec<(Vec2, Vec2)>) {
    let Some(&(la, lb)) = segments.last() else { return (Vec2::ZERO, Vec::new()) };
    let last_used = last_segment_used_a_waypoint(la, lb, waypoints);
    let mut walked = 0.0;
    let mut kept = Vec::new();
    for (k, &(a, b)) in segments.iter().enumerate() {
        let len = a.distance(b);
        if walked + len < keep - 1e-6 {
            kept.push((a, b));
            walked += len;
            continue;
        }
        let cut = if len > 0.0 { a + (b - a) * ((keep - walked) / len).clamp(0.0, 1.0) } else { a };
        if cut != a {
            kept.push((a, cut));
        }
        // Waypoints reached from here on are walked again next move.
        let last = segments.len() - 1;
        let used: Vec<Vec2> =
            (k..=last).filter(|&i| i < last || last_used).map(|i| segments[i].1).filter(|&p| p != cut).collect();
        for p in used.into_iter().rev() {
            waypoints.push_front(p);
        }
        return (cut, kept);
    }
    (lb, kept)
}

pub(super) fn figures_cross_cattle_grids(
    mut figures: Query<(
        &SceneOrder,
        &Name,
        &Figure,
        &mut TablePosition,
        &mut Waypoints,
        &mut Swept,
        &mut Conditions,
        Option<&crate::sim::magic::Cursed>,
    )>,
    grids: Res<CattleGrids>,
    rules: Res<HerdRules>,
    referee: Referee,
) {
    let Referee { clock, mut dice, mut log } = referee;
    if grids.0.is_empty() {
        return;
    }
    // The grids by the cells they cross: each step tries only the grids near it, in grid order.
    let lines: Vec<(Vec2, Vec2, f32)> = grids.0.iter().map(|g| (vec2(g.from), vec2(g.to), 0.0)).collect();
    let index = SegmentGrid::new(&lines, 1.0);
    let figures = in_scene_order(figures.iter_mut(), |item| *item.0);
    for (_, name, figure, mut position, mut waypoints, mut swept, mut conditions, cursed) in figures {
        // Each crossing: (inches along the swept path, grid index, where).
        let mut crossings = Vec::new();
        let mut along = 0.0;
        for &(a, b) in &swept.segments {
            for g in index.along(a, b, 0.0).into_iter().map(|g| g as usize) {
                let grid = &grids.0[g];
                if let Some(t) = segments_cross(a, b, vec2(grid.from), vec2(grid.to)) {
                    // A start on the grid line is the crossing counted when the figure got there.
                    if t > 1e-6 {
                        crossings.push((along + a.distance(b) * t, g, a + (b - a) * t));
                    }
                }
            }
            along += a.distance(b);
        }
        if crossings.is_empty() {
            continue;
        }
        crossings.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let swept_len = along;
        let mut loss = 0.0f32;
        let mut floor = 0.0f32;
        // Where a mounted figure's steed balks: inches along the swept path to stop at.
        let mut balked: Option<f32> = None;
        let mut events = Vec::new();
        for (at, g, where_) in crossings {
            let grid = &grids.0[g];
            let base = LogEvent::new("herds", "cattle_grid", name.as_str())
                .field("grid", &grid.name)
                .field("at", point(where_))
                .field("gait", figure.0.gait);
            // 001 "Impassable to normal livestock ... {Planks needed to allow horse drawn vehicles
            // to cross": the steed is livestock; it stops short like at a wall, its path kept.
            if figure.0.mounted && !may_cross_grid(Beast::Horse, grid.planks, &rules.0) {
                events.push(base.outcome(HerdOutcome::ImpassableToSteed).field("mounted", true));
                balked = Some((at - BEAST_STANDOFF).max(0.0));
                break;
            }
            if grid.planks {
                events.push(base.outcome(HerdOutcome::CrossedOnPlanks));
            } else if figure.0.gait == Gait::Running {
                let mut r = resolve_running_grid(&rules.0, &mut *dice);
                // 001 "Lay an evil eye Curse": the runner's −1, the row read again.
                if crate::sim::magic::evil_eye_on(&mut r.roll, cursed) {
                    r = running_grid_result(r.roll, &rules.0);
                }
                let hurt = scene::Condition {
                    name: format!("hurt on cattle grid \"{}\"", grid.name),
                    kind: scene::ConditionKind::Injury,
                    move_penalty: r.move_penalty_in,
                    // Bookkeeping counts this move down too: one more keeps the full count.
                    moves_left: r.lasts_moves.map(|m| m.saturating_add(1)),
                    immobile: false,
                    me_and_mo: 0,
                    healing: None,
                };
                let hurt_name = hurt.name.clone();
                // Never past the cap the scene check enforces: at it, a repeated hurt is merged.
                let put = (r.move_penalty_in > 0.0).then(|| scene::put_condition(&mut conditions.0, hurt));
                let mut event = base
                    .roll(r.roll.clone())
                    .outcome(r.outcome)
                    .field("move_penalty", r.move_penalty_in)
                    .field("lasts_moves", r.lasts_moves);
                if let Some(how) = put.and_then(scene::ConditionPut::logged) {
                    event.note_condition_at_cap(&hurt_name, how);
                }
                events.push(event);
            } else {
                let l = walking_grid_loss_in(figure.0.sex);
                loss += l;
                floor = at;
                events.push(base.outcome(HerdOutcome::Walked).field("sex", figure.0.sex).field("loss", l));
            }
        }
        if let Some(keep) = balked {
            let from = position.0;
            let (at, kept) = pull_back(&swept.segments, &mut waypoints.0, keep);
            position.0 = at;
            swept.segments = kept;
            if let Some(last) = events.last_mut() {
                last.fields.insert("moved_back_from", serde_json::json!(point(from)));
                last.fields.insert("to", serde_json::json!(point(position.0)));
            }
        } else if loss > 0.0 {
            let keep = (swept_len - loss).max(floor);
            let from = position.0;
            if keep < swept_len - 1e-6 {
                let (at, kept) = pull_back(&swept.segments, &mut waypoints.0, keep);
                position.0 = at;
                swept.segments = kept;
            }
            if let Some(last) = events.iter_mut().rev().find(|e| e.outcome == HerdOutcome::Walked.id()) {
                last.fields.insert("moved_back_from", serde_json::json!(point(from)));
                last.fields.insert("to", serde_json::json!(point(position.0)));
            }
        }
        for e in events {
            log.push(&clock, e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pull_back_restores_waypoints() {
        // Walked (0,0)→(2,0) [waypoint], →(2,3) [waypoint], →(2,4) partway to (2,6).
        let segments = vec![
            (Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0)),
            (Vec2::new(2.0, 0.0), Vec2::new(2.0, 3.0)),
            (Vec2::new(2.0, 3.0), Vec2::new(2.0, 4.0)),
        ];
        let mut wp: VecDeque<Vec2> = [Vec2::new(2.0, 6.0)].into();
        let (at, kept) = pull_back(&segments, &mut wp, 4.0);
        assert!((at - Vec2::new(2.0, 2.0)).length() < 1e-5, "{at}");
        assert_eq!(wp, VecDeque::from([Vec2::new(2.0, 3.0), Vec2::new(2.0, 6.0)]));
        assert_eq!(kept.len(), 2);
        // Arrived at the last waypoint: it is put back too.
        let mut wp = VecDeque::new();
        let (at, _) = pull_back(&segments, &mut wp, 5.0);
        assert!((at - Vec2::new(2.0, 3.0)).length() < 1e-5);
        assert_eq!(wp, VecDeque::from([Vec2::new(2.0, 4.0)]));
    }
}
