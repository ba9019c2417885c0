//! Beasts held by cattle grids (trapped ones roll to escape, stuck ones wait for a helper) and
//! steeds caught by their own side.

use super::obstacles::BEAST_STANDOFF;
use super::{
    Beasts, CattleGrids, FigureQuery, Herd, HerdRules, beasts_near_figures, figures_in_order, figures_near_herds,
    herds_in_order, scene_direction,
};
use crate::rules::herds::{
    CATCH_REACH_IN, CatchOutcome, GridEscapeOutcome, catch_band, resolve_catch, resolve_grid_escapes_this_move,
};
use crate::scene::{self, GridHoldState};
use crate::sim::geometry::{SegmentGrid, point_segment_distance};
use crate::sim::log::{LogEvent, round_to_thousandths_f32};
use crate::sim::outcome::HerdOutcome;
use crate::sim::referee::Referee;
use crate::sim::world::{Facing, SceneOrder, TableSize, point, vec2};
use bevy::prelude::*;

// ---------------------------------------------------------------------------------------------
// 2. Beasts held by grids
// ---------------------------------------------------------------------------------------------

pub(super) fn free_held_beasts(
    figures: FigureQuery,
    herds: Query<(Entity, &SceneOrder), With<Herd>>,
    mut state: Query<(&Name, &mut Beasts, &Facing)>,
    grids: Res<CattleGrids>,
    rules: Res<HerdRules>,
    table: Res<TableSize>,
    referee: Referee,
) {
    let Referee { clock, mut dice, mut log } = referee;
    if herds.is_empty() {
        return;
    }
    let figures = figures_in_order(&figures);
    // The figures by where they stand, indexed when a stuck beast first looks for a helper.
    let mut standing: Option<SegmentGrid> = None;
    for entity in herds_in_order(&herds) {
        let Ok((name, mut beasts, facing)) = state.get_mut(entity) else { continue };
        for i in 0..beasts.positions.len() {
            let at = beasts.positions[i];
            match beasts.held[i] {
                None => {}
                Some(GridHoldState::Trapped) => {
                    // A beast's rolls: no figure's evil eye.
                    let tries = resolve_grid_escapes_this_move(&rules.0, &mut *dice);
                    let escaped = tries.iter().any(|t| t.outcome == GridEscapeOutcome::Escaped);
                    let mut e = LogEvent::new("herds", "grid_escape", name.as_str())
                        .outcome(if escaped { GridEscapeOutcome::Escaped } else { GridEscapeOutcome::StillTrapped })
                        .field("beast", i)
                        .field("at", point(at));
                    for t in tries {
                        e = e.roll(t.roll);
                    }
                    log.push(&clock, e);
                    if escaped {
                        beasts.held[i] = None;
                        beasts.positions[i] = off_the_grid(at, scene_direction(facing.0), &grids.0, table.0);
                    }
                }
                Some(GridHoldState::Stuck) => {
                    let reach = rules.0.free_stuck_reach_in;
                    let standing = standing.get_or_insert_with(|| {
                        let points: Vec<(Vec2, Vec2, f32)> =
                            figures.iter().map(|f| (f.position, f.position, 0.0)).collect();
                        SegmentGrid::new(&points, 2.0)
                    });
                    // The first figure in scene order within reach.
                    let helper = standing
                        .along(at, at, reach)
                        .into_iter()
                        .map(|i| &figures[i as usize])
                        .find(|f| f.position.distance(at) <= reach);
                    if let Some(helper) = helper {
                        beasts.held[i] = None;
                        beasts.positions[i] = off_the_grid(at, scene_direction(facing.0), &grids.0, table.0);
                        log.push(
                            &clock,
                            LogEvent::new("herds", "grid_freed", name.as_str())
                                .outcome(HerdOutcome::Freed)
                                .field("beast", i)
                                .field("helper", helper.name)
                                .field("at", point(at)),
                        );
                    }
                }
            }
        }
    }
}

/// A beast leaving a grid steps just off it, on the side it was heading for, and stays on the
/// table (`table`: its width and height) where the grid lies along the table's edge.
fn off_the_grid(at: Vec2, heading: Vec2, grids: &[scene::CattleGrid], table: Vec2) -> Vec2 {
    let nearest = grids.iter().min_by(|a, b| {
        let da = point_segment_distance(at, vec2(a.from), vec2(a.to));
        let db = point_segment_distance(at, vec2(b.from), vec2(b.to));
        da.total_cmp(&db)
    });
    let Some(grid) = nearest else { return at };
    let u = (vec2(grid.to) - vec2(grid.from)).normalize_or_zero();
    let n = Vec2::new(-u.y, u.x);
    let side = if heading.dot(n) >= 0.0 { 1.0 } else { -1.0 };
    (at + n * side * 2.0 * BEAST_STANDOFF).clamp(Vec2::ZERO, table.max(Vec2::ZERO))
}

// ---------------------------------------------------------------------------------------------
// 3. Catching steeds
// ---------------------------------------------------------------------------------------------

pub(super) fn catch_steeds(
    figures: FigureQuery,
    herds: Query<(Entity, &SceneOrder), With<Herd>>,
    mut state: Query<(&Name, &mut Herd, &Beasts)>,
    rules: Res<HerdRules>,
    referee: Referee,
) {
    let Referee { clock, mut dice, mut log } = referee;
    let order = herds_in_order(&herds);
    let loose: Vec<Entity> = order
        .into_iter()
        .filter(|&e| state.get(e).is_ok_and(|(_, h, _)| h.0.beast.is_steed() && !h.0.tethered))
        .collect();
    if loose.is_empty() {
        return;
    }
    let figures = figures_in_order(&figures);
    let near = {
        let beasts: Vec<&Beasts> = loose.iter().filter_map(|&e| state.get(e).ok().map(|(_, _, b)| b)).collect();
        figures_near_herds(&beasts_near_figures(&figures, &beasts, CATCH_REACH_IN), loose.len())
    };
    let mut tried = vec![false; figures.len()];
    for (h, &entity) in loose.iter().enumerate() {
        let Ok((name, mut herd, _)) = state.get_mut(entity) else { continue };
        // The figures with a steed of this herd within reach, in scene order.
        for &(f, distance) in &near[h] {
            let figure = &figures[f];
            // 000 "Within 6", D6 +F 6+ = caught": any figure of the steeds' side within 6", moved
            // or not, tries (house rule: once a move, its side being the steeds' riders).
            if tried[f] || figure.side != herd.0.side {
                continue;
            }
            tried[f] = true;
            let mut attempt = resolve_catch(distance, herd.0.bond, figure.horsemanship, &rules.0, &mut *dice);
            // 001 "Lay an evil eye Curse": the catcher's −1, the row read again.
            if let Some(roll) = attempt.roll.as_mut().filter(|_| figure.cursed) {
                crate::rules::magic::apply_evil_eye(roll, true);
                attempt.outcome = catch_band(roll.total);
            }
            let mut e = LogEvent::new("herds", "catch_attempt", name.as_str())
                .outcome(attempt.outcome)
                .field("catcher", figure.name)
                .field("distance", round_to_thousandths_f32(distance))
                .field("bond", herd.0.bond)
                .field("horsemanship", figure.horsemanship);
            if let Some(roll) = attempt.roll {
                e = e.roll(roll);
            }
            log.push(&clock, e);
            if attempt.outcome == CatchOutcome::Caught {
                herd.0.tethered = true;
                break;
            }
        }
    }
}
