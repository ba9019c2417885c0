//! Herds on the move: herded after their herders, wandering, or stampeding (over cattle grids
//! they may not cross at a walk), then crowded beasts spread out.

use super::obstacles::{Blocker, Burning, Obstacles};
use super::spatial::SpatialGrid;
use super::{
    Beasts, BurningHazards, CattleGrids, FigureAt, FigureQuery, FireHazard, FireHazards, Herd, HerdRules,
    compass_from_scene, figures_in_order, heading_of, herds_in_order, scene_direction, scene_from_compass,
};
use crate::rules::herds::{
    HerdSettings, Herder, StampedeGridOutcome, herd_capacity, herded_move_rate, may_cross_grid, resolve_stampede_grid,
    resolve_wander, wanders,
};
use crate::rules::outcome::Outcome;
use crate::scene::{self, GridHoldState};
use crate::sim::clock::{MoveClock, SimDice};
use crate::sim::fire::FireFront;
use crate::sim::geometry::{SegmentGrid, segments_cross};
use crate::sim::log::{EventLog, LogEvent, round_to_thousandths_f32};
use crate::sim::outcome::HerdOutcome;
use crate::sim::referee::Referee;
use crate::sim::world::{Facing, SceneOrder, TablePosition, TableSize, Walls, point, vec2};
use bevy::prelude::*;

/// Most passes spreading crowded beasts apart in one move.
const MAX_SPREAD_PASSES: usize = 16;
/// Shortfall from the spacing that still counts as spaced (float rounding).
const SPACING_TOLERANCE: f32 = 1e-3;

/// Move the `members` of a herd together along `d`, as far as the slowest-blocked of them may
/// go. Returns how far they went (inches) and what stopped them.
fn move_group(positions: &mut [Vec2], members: &[usize], d: Vec2, obstacles: &Obstacles) -> (f32, Option<Blocker>) {
    if members.is_empty() || d.length_squared() <= f32::EPSILON {
        return (0.0, None);
    }
    let mut best: (f32, Option<Blocker>) = (1.0, None);
    for &i in members {
        let (t, b) = obstacles.clear(positions[i], d);
        if t < best.0 {
            best = (t, b);
        }
        if best.0 <= 0.0 {
            break;
        }
    }
    let step = d * best.0;
    for &i in members {
        positions[i] = obstacles.on_table(positions[i] + step);
    }
    (step.length(), best.1)
}

/// Spread crowded beasts out to `spacing` (000: "spread out to 1" between each beast"):
/// overlapping pairs are pushed apart along the line between them, held beasts do not move,
/// and no push crosses a wall, grid or fire ring or leaves the table. Returns the pushes made.
fn spread_out(positions: &mut [Vec2], held: &[Option<GridHoldState>], spacing: f32, obstacles: &Obstacles) -> u32 {
    let mut pushes = 0;
    for _ in 0..MAX_SPREAD_PASSES {
        let grid = SpatialGrid::from_points(positions, spacing);
        let mut pairs = Vec::new();
        for (i, &p) in positions.iter().enumerate() {
            grid.for_each_near(p, spacing, |j| {
                let j = j as usize;
                if j > i && positions[j].distance(p) < spacing - SPACING_TOLERANCE {
                    pairs.push((i, j));
                }
            });
        }
        if pairs.is_empty() {
            break;
        }
        pairs.sort_unstable();
        for (i, j) in pairs {
            let (pi, pj) = (positions[i], positions[j]);
            let gap = pi.distance(pj);
            if gap >= spacing - SPACING_TOLERANCE {
                continue;
            }
            // Coincident beasts part along a direction fixed by the later one's index.
            let dir = if gap > 1e-6 { (pj - pi) / gap } else { Vec2::from_angle(j as f32 * 2.399_963) };
            let overlap = spacing - gap + SPACING_TOLERANCE / 2.0;
            let (free_i, free_j) = (held[i].is_none(), held[j].is_none());
            let (share_i, share_j) = match (free_i, free_j) {
                (true, true) => (0.5, 0.5),
                (true, false) => (1.0, 0.0),
                (false, true) => (0.0, 1.0),
                (false, false) => continue,
            };
            let (qi, qj) = (pi - dir * overlap * share_i, pj + dir * overlap * share_j);
            let ok_i = share_i > 0.0 && obstacles.step_ok(pi, qi);
            let ok_j = share_j > 0.0 && obstacles.step_ok(pj, qj);
            match (ok_i, ok_j) {
                (true, true) => {
                    positions[i] = qi;
                    positions[j] = qj;
                }
                // One side is against something: the other takes the whole push if it can.
                (true, false) => {
                    let q = pi - dir * overlap;
                    positions[i] = if obstacles.step_ok(pi, q) { q } else { qi };
                }
                (false, true) => {
                    let q = pj + dir * overlap;
                    positions[j] = if obstacles.step_ok(pj, q) { q } else { qj };
                }
                (false, false) => {}
            }
            pushes += 1;
        }
    }
    pushes
}

// ---------------------------------------------------------------------------------------------
// 4. Herding, wandering and stampeding
// ---------------------------------------------------------------------------------------------

pub(super) fn move_herds(
    figures: FigureQuery,
    herds: Query<(Entity, &SceneOrder), With<Herd>>,
    mut state: Query<(&Name, &mut Herd, &mut Beasts, &mut Facing, &mut TablePosition)>,
    table: Res<TableSize>,
    walls: Res<Walls>,
    grids: Res<CattleGrids>,
    fires: Res<FireHazards>,
    burning: Res<BurningHazards>,
    front: Option<Res<FireFront>>,
    rules: Res<HerdRules>,
    referee: Referee,
) {
    let Referee { clock, mut dice, mut log } = referee;
    if herds.is_empty() {
        return;
    }
    let figures = figures_in_order(&figures);
    let settings = &rules.0;
    // Hand-made rings and the front's burning cells, each only at the fright threshold or above.
    let all_fires: Vec<FireHazard> =
        fires.0.iter().filter(|f| f.fright >= settings.fire_fright_threshold).cloned().collect();
    let cells = front.as_deref().map(|front| Burning { front, fires: &burning.0 });
    // The cattle grids by the cells they cross, for stampedes running onto them.
    let lines: Vec<(Vec2, Vec2, f32)> = grids.0.iter().map(|g| (vec2(g.from), vec2(g.to), 0.0)).collect();
    let grid_index = SegmentGrid::new(&lines, 1.0);
    for entity in herds_in_order(&herds) {
        let Ok((name, mut herd, mut beasts, mut facing, mut position)) = state.get_mut(entity) else { continue };
        let name = name.as_str();
        let herd = &mut herd.0;
        let before = beasts.positions.clone();
        let free: Vec<usize> = (0..beasts.positions.len()).filter(|&i| beasts.is_free(i)).collect();
        if herd.tethered {
            log.push(&clock, LogEvent::new("herds", "wandered", name).outcome(HerdOutcome::Tethered));
            continue;
        }
        if free.is_empty() {
            continue;
        }
        let stampeding = herd.stampede > 0;
        // A zone creature holds its zone: what is not herded stays (H1, `zone_creatures_wander`).
        let keeps_place = !wanders(herd.zone_creature().is_some(), settings);
        // Stampeding livestock try the grids (and roll); otherwise a grid is a wall to them.
        let blocking_grids: Vec<(usize, Vec2, Vec2)> = grids
            .0
            .iter()
            .enumerate()
            .filter(|(_, g)| !stampeding && !may_cross_grid(herd.beast, g.planks, settings))
            .map(|(i, g)| (i, vec2(g.from), vec2(g.to)))
            .collect();
        let reach = settings.stampede_move_in.max(10.0) + herd.spacing + 1.0;
        let obstacles = Obstacles::near(&beasts.positions, reach, table.0, &walls, &blocking_grids, &all_fires, cells);

        let mut wanderers = free.clone();
        if stampeding {
            stampede(
                name,
                herd,
                &mut beasts,
                &mut facing,
                &free,
                &obstacles,
                &grids.0,
                &grid_index,
                settings,
                &clock,
                &mut dice,
                &mut log,
            );
            wanderers.clear();
        } else if !herd.herders.is_empty() {
            wanderers = herd_beasts(
                name,
                herd,
                &mut beasts,
                &mut facing,
                &free,
                &figures,
                &obstacles,
                settings,
                &clock,
                &mut log,
            );
        }
        if !wanderers.is_empty() {
            if keeps_place {
                log.push(
                    &clock,
                    LogEvent::new("herds", "wandered", name)
                        .outcome(HerdOutcome::KeepsPlace)
                        .field("beasts", wanderers.len())
                        .house_rule("herds.zone_creatures_wander"),
                );
            } else {
                wander(name, &mut beasts, &mut facing, &wanderers, &obstacles, &clock, &mut dice, &mut log);
            }
        }
        let all = &mut *beasts;
        let pushes = spread_out(&mut all.positions, &all.held, herd.spacing, &obstacles);
        if pushes > 0 {
            log.push(
                &clock,
                LogEvent::new("herds", "spread_out", name).outcome(HerdOutcome::SpreadOut).field("pushes", pushes),
            );
        }
        if beasts.positions != before {
            position.0 = beasts.centre_on(table.0);
        }
    }
}

/// 000 "Untethered Steeds and ruminants & herding": the herd (or its stragglers) turns by
/// D10×20°, right on D6 4+, and goes D10−3" (nothing on a minus), together.
fn wander(
    name: &str,
    beasts: &mut Beasts,
    facing: &mut Facing,
    members: &[usize],
    obstacles: &Obstacles,
    clock: &MoveClock,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    let heading_before = facing.0;
    let w = resolve_wander(compass_from_scene(heading_before), dice);
    let heading = scene_from_compass(w.new_heading);
    let from = group_centre(&beasts.positions, members);
    let d = scene_direction(heading) * w.distance_in;
    let (went, blocker) = move_group(&mut beasts.positions, members, d, obstacles);
    let to = group_centre(&beasts.positions, members);
    facing.0 = match blocker {
        Some(b) => heading_of(b.turn(d, to)),
        None => heading,
    };
    let outcome = blocker.map_or(w.step.classified(), Outcome::classified);
    let mut e = LogEvent::new("herds", "wandered", name)
        .roll(w.distance_roll)
        .roll(w.direction_roll)
        .roll(w.turn_roll)
        .outcome(outcome)
        .field("step", w.step.id())
        .field("distance", w.distance_in)
        .field("side", w.side.id())
        .field("turn_degrees", w.turn_degrees)
        .field("compass_before", round_to_thousandths_f32(compass_from_scene(heading_before)))
        .field("compass_after", round_to_thousandths_f32(w.new_heading))
        .field("heading_before", round_to_thousandths_f32(heading_before))
        .field("heading", round_to_thousandths_f32(heading))
        .field("travelled", round_to_thousandths_f32(went))
        .field("from", point(from))
        .field("to", point(to))
        .field("beasts", members.len());
    if let Some(b) = blocker {
        e = e.field("turned_to", round_to_thousandths_f32(facing.0));
        if let Blocker::Fire(c, fright) = b {
            // Only a fire at the fright threshold or above turns a herd (house rule).
            e = e.field("fire", point(c)).field("fright", fright).house_rule("herds.fire_fright_threshold");
        }
        if let Blocker::Grid(g, _) = b {
            e = e.field("grid", g);
        }
    }
    log.push(clock, e);
}

fn group_centre(positions: &[Vec2], members: &[usize]) -> Vec2 {
    if members.is_empty() {
        return Vec2::ZERO;
    }
    members.iter().map(|&i| positions[i]).sum::<Vec2>() / members.len() as f32
}

/// 000 "Herding": beasts up to the herders' capacity follow the first herder in reach at the
/// herded rate, stopping a spacing short of him; the rest are returned to wander.
fn herd_beasts(
    name: &str,
    herd: &scene::Herd,
    beasts: &mut Beasts,
    facing: &mut Facing,
    free: &[usize],
    figures: &[FigureAt<'_>],
    obstacles: &Obstacles,
    settings: &HerdSettings,
    clock: &MoveClock,
    log: &mut EventLog,
) -> Vec<usize> {
    let (Some(rate), true) = (herded_move_rate(herd.beast), !free.is_empty()) else { return free.to_vec() };
    let nearest_beast = |p: Vec2| free.iter().map(|&i| beasts.positions[i].distance(p)).fold(f32::MAX, f32::min);
    let present: Vec<&FigureAt<'_>> = herd
        .herders
        .iter()
        .filter_map(|n| figures.iter().find(|f| f.name == n.as_str()))
        .filter(|f| nearest_beast(f.position) <= settings.herding_reach_in)
        .collect();
    if present.is_empty() {
        log.push(
            clock,
            LogEvent::new("herds", "herded", name)
                .outcome(HerdOutcome::HerdersOutOfReach)
                .field("herders", &herd.herders)
                .field("reach", settings.herding_reach_in),
        );
        return free.to_vec();
    }
    let herders: Vec<Herder> = present
        .iter()
        .enumerate()
        .map(|(k, f)| Herder { trainer_or_shepherd: f.trainer_or_shepherd, has_dog: herd.dog && k == 0 })
        .collect();
    let capacity = herd_capacity(herd.beast, &herders).unwrap_or(0) as usize;
    let leader = present[0].position;
    let mut by_distance: Vec<usize> = free.to_vec();
    by_distance.sort_by(|&a, &b| {
        beasts.positions[a].distance(leader).total_cmp(&beasts.positions[b].distance(leader)).then(a.cmp(&b))
    });
    let herded: Vec<usize> = by_distance.iter().copied().take(capacity).collect();
    let mut stragglers: Vec<usize> = by_distance.iter().copied().skip(capacity).collect();
    stragglers.sort_unstable();
    let from = group_centre(&beasts.positions, &herded);
    let spread = herded.iter().map(|&i| beasts.positions[i].distance(from)).fold(0.0, f32::max);
    let gap = leader.distance(from) - spread - herd.spacing;
    let d = if gap > 0.0 { (leader - from).normalize_or_zero() * gap.min(rate) } else { Vec2::ZERO };
    let (went, blocker) = move_group(&mut beasts.positions, &herded, d, obstacles);
    if went > 0.0 && stragglers.is_empty() {
        facing.0 = heading_of(d);
    }
    let outcome = if stragglers.is_empty() { HerdOutcome::Herded } else { HerdOutcome::PartlyHerded };
    let mut e = LogEvent::new("herds", "herded", name)
        .outcome(outcome)
        .field("herders", present.iter().map(|f| f.name).collect::<Vec<_>>())
        .field("dog", herd.dog)
        .field("capacity", capacity)
        .field("herded", herded.len())
        .field("stragglers", stragglers.len())
        .field("rate", rate)
        .field("travelled", round_to_thousandths_f32(went))
        .field("from", point(from))
        .field("to", point(group_centre(&beasts.positions, &herded)));
    if let Some(b) = blocker {
        e = e.field("stopped_by", b.id());
    }
    log.push(clock, e);
    stragglers
}

/// A stampede (house rule: `stampede_move_in` a move along the heading, no wander roll).
/// 001 "Cattle Grids": each beast running onto a grid rolls D6 + F; trapped and stuck beasts
/// stay on it.
fn stampede(
    name: &str,
    herd: &mut scene::Herd,
    beasts: &mut Beasts,
    facing: &mut Facing,
    free: &[usize],
    obstacles: &Obstacles,
    grids: &[scene::CattleGrid],
    grid_index: &SegmentGrid,
    settings: &HerdSettings,
    clock: &MoveClock,
    dice: &mut SimDice,
    log: &mut EventLog,
) {
    let d = scene_direction(facing.0) * settings.stampede_move_in;
    let from = group_centre(&beasts.positions, free);
    // The herd's run is cut short by edges, walls and fire, but not by grids.
    let mut t = 1.0f32;
    let mut blocker = None;
    for &i in free {
        let (ti, b) = obstacles.clear(beasts.positions[i], d);
        if ti < t {
            t = ti;
            blocker = b;
        }
    }
    let step = d * t;
    for &i in free {
        let p = beasts.positions[i];
        // The grids near the run, in grid order.
        let mut crossings: Vec<(f32, usize)> = grid_index
            .along(p, p + step, 0.0)
            .into_iter()
            .map(|gi| (gi as usize, &grids[gi as usize]))
            .filter(|(_, g)| !may_cross_grid(herd.beast, g.planks, settings))
            .filter_map(|(gi, g)| {
                segments_cross(p, p + step, vec2(g.from), vec2(g.to)).filter(|&s| s > 1e-6).map(|s| (s, gi))
            })
            .collect();
        crossings.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut end = p + step;
        for (s, gi) in crossings {
            let r = resolve_stampede_grid(herd.beast, None, settings, dice);
            let at = p + step * s;
            log.push(
                clock,
                LogEvent::new("herds", "grid_stampede", name)
                    .roll(r.roll.clone())
                    .outcome(r.outcome)
                    .field("beast", i)
                    .field("grid", &grids[gi].name)
                    .field("at", point(at)),
            );
            match r.outcome {
                StampedeGridOutcome::Crossed => {}
                StampedeGridOutcome::Trapped | StampedeGridOutcome::Stuck => {
                    beasts.held[i] = Some(if r.outcome == StampedeGridOutcome::Trapped {
                        GridHoldState::Trapped
                    } else {
                        GridHoldState::Stuck
                    });
                    end = at;
                    break;
                }
            }
        }
        beasts.positions[i] = obstacles.on_table(end);
    }
    if let Some(b) = blocker {
        facing.0 = heading_of(b.turn(d, group_centre(&beasts.positions, free)));
    }
    herd.stampede = herd.stampede.saturating_sub(1);
    let mut e = LogEvent::new("herds", "stampeded", name)
        .outcome(blocker.map_or(HerdOutcome::Ran.classified(), Outcome::classified))
        .field("travelled", round_to_thousandths_f32(step.length()))
        .field("from", point(from))
        .field("to", point(group_centre(&beasts.positions, free)))
        .field("moves_left", herd.stampede);
    if blocker.is_some() {
        e = e.field("turned_to", round_to_thousandths_f32(facing.0));
    }
    log.push(clock, e);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crowded_beasts_spread_out() {
        let walls = Walls::default();
        let mut positions = vec![Vec2::new(10.0, 10.0); 12];
        positions.push(Vec2::new(10.2, 10.1));
        let held = vec![None; positions.len()];
        let obstacles = Obstacles::near(&positions, 5.0, Vec2::new(40.0, 40.0), &walls, &[], &[], None);
        for _ in 0..6 {
            spread_out(&mut positions, &held, 1.0, &obstacles);
        }
        for i in 0..positions.len() {
            for j in i + 1..positions.len() {
                assert!(positions[i].distance(positions[j]) >= 1.0 - 2.0 * SPACING_TOLERANCE, "{i} {j}");
            }
        }
    }
}
