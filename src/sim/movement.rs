//! Figures walk their waypoints each move, as far as their allowance lets them
//! (RULES-NOTES "Time and movement"); the swept segments are kept for the traps.

use super::clock::MoveClock;
use super::geometry::{SegmentGrid, first_in_disc};
use super::log::{EventLog, LogEvent, SharedValues, round_to_thousandths_f32};
use super::outcome::MoveOutcome;
use super::temptations::Tempting;
use super::traps::{KhemriCounter, Trap, avoided_disc};
use super::world::{
    Conditions, Facing, Figure, LoadedScene, SceneOrder, Swept, TablePosition, Terrain, Walls, Waypoints,
    in_scene_order, point,
};
use super::{Move, MoveSystems};
use crate::rules::character::Gait;
use crate::rules::movement::{MoveAllowance, MovePenalty, move_allowance};
use crate::rules::prisoners::RUNNING_FATIGUE_PER_MOVE;
use crate::scene::prisoners::MAX_FATIGUE;
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
    let w = walk_round(from, waypoints, budget, walls, &AvoidDiscs::default());
    (w.segments, w.stop.is_some())
}

/// What stopped a walk short of its budget and path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A wall: the figure waits `WALL_STANDOFF` short of it.
    Wall,
    /// A pit it walks round, with a wall in the way round: it waits at the pit's edge.
    Pit,
}

/// A walk: the segments swept, the waypoints reached (the way round a pit is put on the path
/// as waypoints, so each segment but a last part-segment ends at a reached waypoint), and what
/// stopped it.
#[derive(Debug, Clone, Default)]
pub struct Walk {
    /// The segments swept, in order.
    pub segments: Vec<(Vec2, Vec2)>,
    /// Waypoints reached and taken off the path.
    pub popped: usize,
    /// What stopped it, if anything did.
    pub stop: Option<Stop>,
}

/// How far outside a pit's edge the way round it runs, in inches.
const PIT_STANDOFF: f32 = 0.05;

/// Discs a walk goes round (centre, radius: pits it knows of), in the order given (scene
/// order), bucketed in a grid so each leg of a walk looks only at the discs near it.
#[derive(Debug, Clone, Default)]
pub struct AvoidDiscs {
    discs: Vec<(Vec2, f32)>,
    grid: SegmentGrid,
}

impl AvoidDiscs {
    /// The discs `discs` (centre, radius), indexed.
    pub fn new(discs: Vec<(Vec2, f32)>) -> Self {
        let items: Vec<(Vec2, Vec2, f32)> = discs.iter().map(|&(c, r)| (c, c, r + PIT_STANDOFF)).collect();
        Self { grid: SegmentGrid::new(&items, 2.0), discs }
    }

    /// The discs, in order.
    pub fn discs(&self) -> &[(Vec2, f32)] {
        &self.discs
    }

    /// The discs that may come within the standoff of the leg `a`–`b` (a superset), in order.
    fn near(&self, a: Vec2, b: Vec2) -> impl Iterator<Item = (Vec2, f32)> + '_ {
        self.grid.along(a, b, 0.0).into_iter().map(|i| self.discs[i as usize])
    }
}

/// Most ways round pits in one walk (pits touching each other could send it back and forth).
const MAX_DETOURS: usize = 16;

/// As [`walk`], going round the discs in `avoid` (centre, radius: pits it knows of, docs/traps.md
/// "Open and revealed traps"): a leg that would enter one goes round it on the side the leg
/// passes nearer, `PIT_STANDOFF` outside its edge; if a wall blocks the way round, the figure
/// stops at the edge. A disc the figure stands in, or that holds the waypoint it walks to, is
/// not gone round (it walks into the pit it was sent to).
pub fn walk_round(
    from: Vec2,
    waypoints: &mut std::collections::VecDeque<Vec2>,
    budget: f32,
    walls: &Walls,
    avoid: &AvoidDiscs,
) -> Walk {
    let mut at = from;
    let mut left = budget;
    let mut walk = Walk::default();
    let mut detours = 0;
    while left > 1e-6 {
        let Some(&next) = waypoints.front() else { break };
        let d = at.distance(next);
        let reach = if d <= left { next } else { at + (next - at) * (left / d) };
        let wall = walls.first_hit(at, reach);
        let wall_at = wall.map_or(f32::INFINITY, |t| at.distance(reach) * t);
        // The first pit the leg enters before any wall and within this move's reach.
        let pit = first_pit(at, next, left.min(d).min(wall_at), avoid.near(at, next));
        if let Some((s, c, r)) = pit {
            let way = detour_round(at, next, c, r + PIT_STANDOFF);
            let legs = std::iter::once(at).chain(way.iter().copied()).collect::<Vec<_>>();
            let clear = !way.is_empty()
                && detours < MAX_DETOURS
                && legs.windows(2).all(|w| walls.first_hit(w[0], w[1]).is_none());
            if clear {
                detours += 1;
                for &p in way.iter().rev() {
                    waypoints.push_front(p);
                }
                continue;
            }
            let edge = first_in_disc(at, next, c, r + PIT_STANDOFF).unwrap_or(s);
            let stop = if d > 0.0 { at + (next - at) * (edge.min(d) / d) } else { at };
            if stop != at {
                walk.segments.push((at, stop));
            }
            walk.stop = Some(Stop::Pit);
            return walk;
        }
        if let Some(t) = wall {
            let stop_len = (at.distance(reach) * t - WALL_STANDOFF).max(0.0);
            let stop = if d > 0.0 { at + (next - at) * (stop_len / d) } else { at };
            if stop != at {
                walk.segments.push((at, stop));
            }
            walk.stop = Some(Stop::Wall);
            return walk;
        }
        if d <= left {
            walk.segments.push((at, next));
            at = next;
            left -= d;
            waypoints.pop_front();
            walk.popped += 1;
        } else {
            let to = at + (next - at) * (left / d);
            walk.segments.push((at, to));
            left = 0.0;
        }
    }
    walk
}

/// The first of `discs` (centre, radius; the first of equals) that the leg from `at` to `next`
/// enters short of `before` inches, with neither end in it: how far along the leg, and the disc.
fn first_pit(at: Vec2, next: Vec2, before: f32, discs: impl Iterator<Item = (Vec2, f32)>) -> Option<(f32, Vec2, f32)> {
    discs
        .filter(|&(c, r)| at.distance(c) >= r + PIT_STANDOFF / 2.0 && next.distance(c) >= r + PIT_STANDOFF)
        .filter_map(|(c, r)| first_in_disc(at, next, c, r + PIT_STANDOFF / 2.0).map(|s| (s, c, r)))
        .filter(|&(s, _, _)| s < before)
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// The way round a disc from `a` to `b`, both outside it: the corners of a polygon drawn round
/// the disc (its sides touch the circle) between the tangent from `a` and the tangent from `b`,
/// on the side of the disc the straight line passes nearer (the left of `a`→`b` when the
/// centre is on it). Every leg of `a`, the corners, `b` keeps at least `radius` from `centre`.
/// Empty when there is no way round to take.
fn detour_round(a: Vec2, b: Vec2, centre: Vec2, radius: f32) -> Vec<Vec2> {
    use std::f32::consts::{FRAC_PI_4, TAU};
    let (ra, rb) = (a - centre, b - centre);
    let (da, db) = (ra.length(), rb.length());
    if radius <= 0.0 || da <= 0.0 || db <= 0.0 {
        return Vec::new();
    }
    // Round the side away from the centre: angles growing (counter-clockwise) when the centre
    // lies left of a→b or on the line, so the way passes right of it; shrinking otherwise.
    let sign = if (b - a).perp_dot(centre - a) >= 0.0 { 1.0 } else { -1.0 };
    let alpha_a = ra.y.atan2(ra.x);
    let alpha_b = rb.y.atan2(rb.x);
    let beta_a = (radius / da).min(1.0).acos();
    let beta_b = (radius / db).min(1.0).acos();
    let first = alpha_a + sign * beta_a;
    let last = alpha_b - sign * beta_b;
    let sweep = (sign * (last - first)).rem_euclid(TAU);
    if sweep <= 1e-6 || sweep >= TAU - 1e-4 {
        return Vec::new();
    }
    let steps = (sweep / FRAC_PI_4).ceil().max(1.0);
    let step = sweep / steps;
    let corner = radius / (step / 2.0).cos();
    (0..steps as usize)
        .map(|j| {
            let angle = first + sign * (j as f32 + 0.5) * step;
            centre + Vec2::from_angle(angle) * corner
        })
        .collect()
}

fn move_figures(
    mut figures: Query<(
        &SceneOrder,
        &Name,
        &mut Figure,
        &Conditions,
        &mut TablePosition,
        &mut Facing,
        &mut Waypoints,
        &mut Swept,
        Option<&Tempting>,
    )>,
    traps: Query<(&SceneOrder, &Trap, Option<&KhemriCounter>, &TablePosition), Without<Figure>>,
    scene: Option<Res<LoadedScene>>,
    terrain: Res<Terrain>,
    walls: Res<Walls>,
    clock: Res<MoveClock>,
    mut log: ResMut<EventLog>,
    mut shared: Local<(
        SharedValues<Vec<crate::rules::movement::MoveFactor>>,
        SharedValues<Gait>,
        SharedValues<String>,
    )>,
) {
    // Pits figures walk round (docs/traps.md "Open and revealed traps"), in scene order.
    let avoid = AvoidDiscs::new(match &scene {
        Some(scene) => in_scene_order(traps.iter(), |item| *item.0)
            .into_iter()
            .filter_map(|(_, trap, counter, at)| avoided_disc(&trap.0, counter, at.0, &scene.0.rules.traps.table))
            .collect(),
        None => Vec::new(),
    });
    let figures = in_scene_order(figures.iter_mut(), |item| *item.0);
    // At most an event a figure.
    log.reserve(figures.len());
    for (_, name, mut figure, conditions, mut position, mut facing, mut waypoints, mut swept, tempting) in figures {
        swept.segments.clear();
        swept.speed = 0.0;
        swept.popped = 0;
        // Inside a temptation its path waits; the Temptations set dices it out.
        if tempting.is_some_and(|t| t.inside().is_some()) {
            continue;
        }
        // A runaway runs, and a raging berserker charges, in the Prisoners set: neither walks his path.
        if super::prisoners::off_path(&figure.0) {
            continue;
        }
        if waypoints.0.is_empty() {
            continue;
        }
        if let Some(held) = conditions.0.iter().find(|c| c.immobile) {
            log.push(
                &clock,
                LogEvent::new("movement", "moved", name.as_str())
                    .outcome(MoveOutcome::Held)
                    .shared_field("condition", shared.2.get(held.name.as_str()))
                    .field("waypoints_left", waypoints.0.len()),
            );
            continue;
        }
        let allowance = allowance_for(&figure, position.0, conditions, &terrain);
        let from = position.0;
        let walked = walk_round(from, &mut waypoints.0, allowance.inches, &walls, &avoid);
        let segments = walked.segments;
        swept.popped = walked.popped;
        let distance: f32 = segments.iter().map(|(a, b)| a.distance(*b)).sum();
        if let Some(&(a, b)) = segments.last() {
            position.0 = b;
            if a != b {
                facing.0 = (b - a).to_angle().to_degrees();
            }
        }
        swept.segments = segments;
        swept.speed = allowance.inches;
        let outcome = if walked.stop == Some(Stop::Wall) {
            MoveOutcome::BlockedByWall
        } else if walked.stop == Some(Stop::Pit) {
            MoveOutcome::BlockedByPit
        } else if distance <= 0.0 {
            MoveOutcome::HeldUp
        } else if waypoints.0.is_empty() {
            MoveOutcome::Arrived
        } else {
            MoveOutcome::Moved
        };
        // In key order (the order they are written in): each is added at the end.
        let mut event = LogEvent::new("movement", "moved", name.as_str())
            .outcome(outcome)
            .field("allowance", round_to_thousandths_f32(allowance.inches))
            // A crowd's factors and gaits are few: each built as a log value once.
            .shared_field("allowance_factors", shared.0.get(allowance.factors.as_slice()))
            .field("distance", round_to_thousandths_f32(distance))
            .field("from", point(from))
            .shared_field("gait", shared.1.get(&figure.0.gait))
            .field("to", point(position.0))
            .field("waypoints_left", waypoints.0.len());
        // RULES-NOTES "Time and movement": running "costs a fatigue point", once a move run.
        if figure.0.gait == Gait::Running && distance > 0.0 {
            let fatigue = figure.0.fatigue.saturating_add(RUNNING_FATIGUE_PER_MOVE).min(MAX_FATIGUE);
            figure.0.fatigue = fatigue;
            event = event.field("fatigue_gained", RUNNING_FATIGUE_PER_MOVE).field("fatigue", fatigue);
        }
        log.push(&clock, event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::geometry::point_segment_distance;
    use std::collections::VecDeque;

    fn length(segments: &[(Vec2, Vec2)]) -> f32 {
        segments.iter().map(|(a, b)| a.distance(*b)).sum()
    }

    #[test]
    fn walk_detours_round_an_avoided_disc() {
        let centre = Vec2::new(5.0, 2.0);
        let avoid = AvoidDiscs::new(vec![(centre, 0.5)]);
        let r = 0.5 + PIT_STANDOFF;
        // (1, 2) → (9, 2) straight through a pit of radius 0.5 at (5, 2). The way round keeps
        // r = 0.55 from the centre. Its length from the geometry: a tangent from each end,
        // √(4² − r²) each, and round the arc between the tangent points, which spans
        // π − 2·acos(r/4) (one corner of the drawn-round polygon: 2·r·tan(span/2)).
        let span = std::f32::consts::PI - 2.0 * (r / 4.0).acos();
        let expected = 2.0 * (16.0 - r * r).sqrt() + 2.0 * r * (span / 2.0).tan();
        let mut path = VecDeque::from([Vec2::new(9.0, 2.0)]);
        let w = walk_round(Vec2::new(1.0, 2.0), &mut path, 20.0, &Walls::default(), &avoid);
        assert_eq!(w.stop, None);
        assert!(path.is_empty(), "{path:?}");
        assert_eq!(w.popped, w.segments.len(), "the corner is a waypoint reached");
        assert!((w.segments.last().unwrap().1 - Vec2::new(9.0, 2.0)).length() < 1e-5);
        for &(a, b) in &w.segments {
            assert!(point_segment_distance(centre, a, b) >= r - 1e-4, "{a} {b}");
        }
        let swept = length(&w.segments);
        assert!((swept - expected).abs() < 1e-3 && swept > 8.0, "{swept} vs {expected}");

        // The centre above the line: the way goes below it, the nearer side.
        let above = Vec2::new(5.0, 2.3);
        let mut path = VecDeque::from([Vec2::new(9.0, 2.0)]);
        let w =
            walk_round(Vec2::new(1.0, 2.0), &mut path, 20.0, &Walls::default(), &AvoidDiscs::new(vec![(above, 0.5)]));
        assert_eq!(w.stop, None);
        for &(a, b) in &w.segments {
            assert!(point_segment_distance(above, a, b) >= r - 1e-4, "{a} {b}");
            assert!(b.y < 2.3, "round the near side: {b}");
        }

        // Out of budget on the way round (4": past where it would enter the pit, 3.475", short of
        // the corner, 4.038"): the corner not reached stays on the path.
        let mut path = VecDeque::from([Vec2::new(9.0, 2.0)]);
        let w = walk_round(Vec2::new(1.0, 2.0), &mut path, 4.0, &Walls::default(), &avoid);
        assert!((length(&w.segments) - 4.0).abs() < 1e-4);
        assert_eq!(path.len(), 2, "a corner and the end: {path:?}");

        // A wall under the pit blocks the way round: it stops at the pit's edge, path kept.
        let wall = crate::scene::Wall::new("w", Default::default(), vec![(3.0, 1.5), (7.0, 1.5)]);
        let walls = Walls::new(vec![wall], Vec::new());
        let mut path = VecDeque::from([Vec2::new(9.0, 2.0)]);
        let w = walk_round(Vec2::new(1.0, 2.0), &mut path, 20.0, &walls, &avoid);
        assert_eq!(w.stop, Some(Stop::Pit));
        assert_eq!(path, VecDeque::from([Vec2::new(9.0, 2.0)]));
        assert!((w.segments.last().unwrap().1 - Vec2::new(5.0 - r, 2.0)).length() < 1e-4, "{:?}", w.segments);

        // Sent into the pit (its waypoint is in it): it walks straight in.
        let mut path = VecDeque::from([centre]);
        let w = walk_round(Vec2::new(1.0, 2.0), &mut path, 20.0, &Walls::default(), &avoid);
        assert_eq!(w.segments, vec![(Vec2::new(1.0, 2.0), centre)]);
    }

    #[test]
    fn indexed_pits_are_met_as_with_every_pit_tried() {
        use rand::{Rng, SeedableRng, rngs::Xoshiro256PlusPlus};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1600);
        let mut unit = move || (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
        // Pits of every size, some on whole inches (cell corners), some repeated (equal entries).
        let mut discs: Vec<(Vec2, f32)> = (0..3000)
            .map(|k| {
                let c = Vec2::new(unit() * 200.0, unit() * 200.0);
                let c = if k % 4 == 0 { c.floor() } else { c };
                (c, [0.5, 0.5 * std::f32::consts::SQRT_2, 1.0, 3.0, 12.0][k % 5])
            })
            .collect();
        discs.extend_from_within(0..50);
        let avoid = AvoidDiscs::new(discs.clone());
        let mut met = 0;
        for k in 0..5000 {
            let at = Vec2::new(unit() * 200.0, unit() * 200.0);
            let next = match k % 4 {
                0 => at,
                1 => at + Vec2::new(unit() - 0.5, 0.0).floor() * 7.0,
                2 => Vec2::new(unit() * 200.0, unit() * 200.0),
                _ => at + Vec2::new(unit() - 0.5, unit() - 0.5) * 12.0,
            };
            let before = unit() * 20.0;
            let brute = first_pit(at, next, before, discs.iter().copied());
            let indexed = first_pit(at, next, before, avoid.near(at, next));
            assert_eq!(brute, indexed, "{at} → {next}");
            met += usize::from(brute.is_some());
        }
        assert!(met > 500, "{met} legs met a pit");
    }
}
