//! Sleeping groups hear the move's noises, wake, and respond; investigators walk, the alarm
//! spreads, the roused arm (000 "Awaking groups asleep", "Woken sleepers response", "Dressing &
//! Undressing"). The readings and house rules are in docs/sleepers.md.
//!
//! Order within the Sleepers set, each step visiting groups and members in scene order:
//! 1. figures that moved make their movement noise (`make_movement_noises`);
//! 2. investigators walk and look about (`walk_investigators`);
//! 3. every group dices for the noises in earshot, wave by wave: wave 0 holds the move's noises,
//!    each later wave the alarms raised in the wave before (`hear_noises`);
//! 4. listening timers run down and the alarmed dress (`tick_members`); a member roused this
//!    move starts dressing the round after the noise that roused it.

use super::clock::MoveClock;
use super::geometry::{SegmentGrid, WallsBetween};
use super::log::{EventLog, LogEvent, round_to_thousandths_f32};
use super::movement::walk;
use super::noise::{NoiseMade, make_noise_in, round_in_move};
use super::outcome::SleeperOutcome;
use super::referee::Referee;
use super::world::{
    Figure, Lights, SceneLighting, SceneOrder, Swept, TablePosition, Terrain, Walls, Waypoints, in_scene_order,
    lighting_at, placed_bundle, point, sight_at, sorted, vec2,
};
use super::{Move, MoveSystems};
use crate::rules::character::Gait;
use crate::rules::dice::Roll;
use crate::rules::lighting::Lighting;
use crate::rules::movement::move_allowance;
use crate::rules::outcome::{Classified, Outcome};
use crate::rules::sleepers::{
    Noise, ResponseConditions, ResponseOutcome, SleepersSettings, WakingChecks, WakingConditions, armour_after_rounds,
    effective_dresser, full_dressing, hasty_dressing, movement_noise, noise_reach, resolve_response, resolve_waking,
};
use crate::scene::sleepers::SleeperState;
use crate::scene::{self, Scene};
use bevy::prelude::*;
use std::collections::{HashMap, VecDeque};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SleepersRules>();
    app.add_systems(
        Move,
        (make_movement_noises, walk_investigators, hear_noises, tick_members)
            .chain()
            .in_set(MoveSystems::Sleepers)
            .run_if(any_sleeping_group),
    );
}

/// Whether any group sleeps on the table. The set's systems act on groups only, yet a table
/// without one paid for their parameters every move (a twentieth of a play-test's move).
fn any_sleeping_group(groups: Query<(), With<SleepingGroup>>) -> bool {
    !groups.is_empty()
}

/// A sleeping group: the scene's sheet, whose members carry their state.
#[derive(Component, Debug, Clone)]
pub struct SleepingGroup(pub scene::SleepingGroup);

/// Which members changed state this move, and the round of the move (1-based) they last did:
/// their listening timers start next move, and their dressing the round after. Cleared at
/// the end of every move (saves fall between moves, so it is never saved).
#[derive(Component, Debug, Clone, Default)]
pub struct Roused(pub Vec<Option<u8>>);

impl Roused {
    /// Member `i` changed state in `round`; of several changes in a move the latest round counts.
    fn mark(&mut self, i: usize, round: u8) {
        self.0[i] = self.0[i].max(Some(round));
    }
}

/// The scene's sleepers settings (`rules: (sleepers: (...))`).
#[derive(Resource, Debug, Clone, Default)]
pub struct SleepersRules(pub SleepersSettings);

/// Spawn the scene's sleeping groups.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    world.insert_resource(SleepersRules(scene.rules.sleepers.clone()));
    for (i, g) in scene.sleepers.iter().enumerate() {
        world.spawn((
            placed_bundle(i as u32, &g.name, g.position),
            SleepingGroup(g.clone()),
            Roused(vec![None; g.members.len()]),
        ));
    }
}

/// Write the groups back into a scene.
pub(super) fn snapshot(world: &mut World, scene: &mut Scene) {
    scene.sleepers = sorted::<SleepingGroup>(world).into_iter().map(|(_, g, _)| g.0).collect();
}

/// The settings for one group: its own choice of D6 or MD, where it makes one.
fn group_settings(rules: &SleepersSettings, group: &scene::SleepingGroup) -> SleepersSettings {
    let mut s = rules.clone();
    if let Some(dice) = group.dice {
        s.waking_dice = dice;
        s.response_dice = dice;
    }
    s
}

/// The point of segment `a`–`b` nearest to `p`.
pub fn nearest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= f32::EPSILON {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
}

/// The point of a swept path nearest to `p` (the first such point along the path).
pub fn nearest_on_path(p: Vec2, segments: &[(Vec2, Vec2)]) -> Option<Vec2> {
    nearest_along_path(p, segments).map(|(q, _)| q)
}

/// The point of a swept path nearest to `p` (the first such point along the path), and how far
/// along the path it lies, in inches.
pub fn nearest_along_path(p: Vec2, segments: &[(Vec2, Vec2)]) -> Option<(Vec2, f32)> {
    let mut walked = 0.0f32;
    // (point, its distance from p, the length walked to it)
    let mut best: Option<(Vec2, f32, f32)> = None;
    for &(a, b) in segments {
        let q = nearest_on_segment(p, a, b);
        let d = q.distance(p);
        if best.is_none_or(|(_, nearest, _)| d < nearest) {
            best = Some((q, d, walked + a.distance(q)));
        }
        walked += a.distance(b);
    }
    best.map(|(q, _, to)| (q, to))
}

/// The fraction of the move (0 to 1) by which a figure had walked `walked` inches of its swept
/// path: at the pace of its allowance, as the traps time it (docs/traps.md "Speed"), or along
/// the path when it has none.
fn move_fraction(walked: f32, swept: &Swept) -> f32 {
    let length: f32 =
        if swept.speed > 0.0 { swept.speed } else { swept.segments.iter().map(|&(a, b)| a.distance(b)).sum() };
    if length > 0.0 { (walked / length).clamp(0.0, 1.0) } else { 0.0 }
}

fn rounded(v: Vec2) -> Vec2 {
    Vec2::new(round_to_thousandths_f32(v.x), round_to_thousandths_f32(v.y))
}

/// How far a group hears a noise: its shelter's earshot, or the noise's own "heard to" shortened
/// by the shelter as `heard_to_in_shelter` says (house rule; `rules::sleepers::noise_reach`).
pub fn reach(shelter: scene::Shelter, heard_to: Option<f32>, settings: &SleepersSettings) -> f32 {
    noise_reach(shelter, heard_to, settings.heard_to_in_shelter)
}

/// 000 "Awaking groups asleep": a figure that moved this move makes the noise of its gait and
/// armour. The whole swept path is noisy; for each group the point of the path nearest to it
/// counts, so a noise is written there for every group it comes within earshot of. Where no group
/// could hear it no noise is written, so scenes without sleepers log no more than before. The
/// noise's round is the round the figure reached that point: the fraction of the move it had
/// walked to it (inches along its path ÷ its allowance) × the rounds a move, rounded up, at
/// least 1; the round a trap met at that point logs as `in_round`.
fn make_movement_noises(
    figures: Query<(&SceneOrder, &Name, &Figure, &Swept)>,
    groups: Query<(&SceneOrder, &SleepingGroup)>,
    rules: Res<SleepersRules>,
    clock: Res<MoveClock>,
    mut log: ResMut<EventLog>,
    mut messages: ResMut<Messages<NoiseMade>>,
) {
    let groups = in_scene_order(groups.iter(), |item| *item.0);
    if groups.is_empty() {
        return;
    }
    // The groups by their earshot (and a hair for the rounding of the nearest point).
    let earshots: Vec<(Vec2, Vec2, f32)> = groups
        .iter()
        .map(|(_, g)| {
            let centre = vec2(g.0.position);
            (centre, centre, reach(g.0.shelter, None, &rules.0) + 0.01)
        })
        .collect();
    let index = SegmentGrid::new(&earshots, 2.0);
    let figures: Vec<_> =
        in_scene_order(figures.iter(), |item| *item.0).into_iter().filter(|f| !f.3.segments.is_empty()).collect();
    for (_, name, figure, swept) in figures {
        let noise = movement_noise(figure.0.gait, figure.0.armour, &rules.0);
        let mut at: Vec<(Vec2, u8)> = Vec::new();
        // The groups whose earshot the path may come into, in scene order.
        let mut near: Vec<u32> = swept.segments.iter().flat_map(|&(a, b)| index.along(a, b, 0.0)).collect();
        near.sort_unstable();
        near.dedup();
        for (_, group) in near.into_iter().map(|g| &groups[g as usize]) {
            let centre = vec2(group.0.position);
            let Some((p, walked)) = nearest_along_path(centre, &swept.segments) else { continue };
            let p = rounded(p);
            if p.distance(centre) <= reach(group.0.shelter, None, &rules.0) && !at.iter().any(|&(q, _)| q == p) {
                at.push((p, round_in_move(move_fraction(walked, swept), clock.rounds_per_move)));
            }
        }
        for (position, round) in at {
            let made = NoiseMade { source: name.to_string(), position, noise, heard_to: None, round };
            make_noise_in(&mut messages, &mut log, &clock, made);
        }
    }
}

/// Investigators walk toward the noise at the basic move in what they wear, stopping at a wall;
/// there they look about and walk back, and at the group go back to sleep. Whoever comes within
/// `investigator_spots_within` of a figure of another side, in line of sight (no wall or closed
/// door between, issue #17; windows and open doors let sight through), raises the alarm (house
/// rule), and no farther than the light at the figure lets one see (001 "Lighting": DDD 2", DDL
/// `rules.lighting.dark_sight_in`). They look about at the end of their walk, so what they do
/// counts from the move's last round.
fn walk_investigators(
    mut groups: Query<(&SceneOrder, &mut SleepingGroup, &mut Roused)>,
    figures: Query<(&SceneOrder, &Name, &Figure, &TablePosition)>,
    rules: Res<SleepersRules>,
    terrain: Res<Terrain>,
    walls: Res<Walls>,
    (lighting, lights): (Res<SceneLighting>, Res<Lights>),
    sight: Option<Res<crate::sim::sight::SceneSight>>,
    clock: Res<MoveClock>,
    mut log: ResMut<EventLog>,
    mut messages: ResMut<Messages<NoiseMade>>,
) {
    let settings = &rules.0;
    // Issue #17: in line of sight; without the scene's sight (a world built by hand), no wall
    // between as before.
    let in_sight = |from: Vec2, to: Vec2| match &sight {
        Some(s) => s.visible(from, to, f32::INFINITY),
        None => {
            let w = walls.between(from, to);
            w.inner == 0 && w.outer == 0
        }
    };
    // A figure a fire lights (the Fire set has burnt this move) is seen as in daylight (issue #17).
    let lit_by_fire = |p: Vec2| sight.as_ref().is_some_and(|s| s.lit_by_fire(p));
    let last_round = clock.rounds_per_move.max(1);
    let figures = in_scene_order(figures.iter(), |item| *item.0);
    // The figures by where they stand, indexed when an investigator first looks about.
    let mut index: Option<SegmentGrid> = None;
    let groups = in_scene_order(groups.iter_mut(), |item| *item.0);
    for (_, mut group, mut roused) in groups {
        let home = vec2(group.0.position);
        let group_name = group.0.name.clone();
        let side = group.0.side.clone();
        for (i, member) in group.0.members.iter_mut().enumerate() {
            let sheet = &mut member.0;
            let SleeperState::Investigating { at, toward, returning } = sheet.state else { continue };
            let from = vec2(at);
            let goal = if returning { home } else { vec2(toward) };
            let worn = armour_after_rounds(sheet.armour, sheet.dressing_rounds.unwrap_or(0), settings);
            let going = terrain.material_at(from).map(|m| m.going()).unwrap_or_default();
            let allowance = move_allowance(sheet.sex, worn, going, Gait::Normal, &[]);
            let mut waypoints = VecDeque::from([goal]);
            let (segments, blocked) = walk(from, &mut waypoints, allowance.inches, &walls);
            let now = segments.last().map_or(from, |s| s.1);
            let arrived = waypoints.is_empty() || blocked;
            // The figures that may stand within `investigator_spots_within`, in scene order.
            let in_reach: Vec<usize> = if settings.investigator_spots_within > 0.0 {
                let index = index.get_or_insert_with(|| {
                    let points: Vec<(Vec2, Vec2, f32)> = figures.iter().map(|f| (f.3.0, f.3.0, 0.0)).collect();
                    SegmentGrid::new(&points, 2.0)
                });
                index.along(now, now, settings.investigator_spots_within).into_iter().map(|i| i as usize).collect()
            } else {
                Vec::new()
            };
            let spotted = (settings.investigator_spots_within > 0.0)
                .then(|| {
                    in_reach.iter().map(|&i| &figures[i]).find(|(_, _, f, p)| {
                        let within = if lit_by_fire(p.0) {
                            settings.investigator_spots_within
                        } else {
                            settings.investigator_spots_within.min(sight_at(lighting.0, &lights, p.0))
                        };
                        f.0.side != side && p.0.distance(now) <= within && in_sight(now, p.0)
                    })
                })
                .flatten();
            // No one spotted, but a figure within reach, no wall between, was hidden by the
            // dark: DDL's sight limit is the house rule `lighting.dark_sight_in`.
            let hidden_by_dark = spotted.is_none()
                && settings.investigator_spots_within > 0.0
                && in_reach.iter().map(|&i| &figures[i]).any(|(_, _, f, p)| {
                    let distance = p.0.distance(now);
                    f.0.side != side
                        && distance <= settings.investigator_spots_within
                        && lighting_at(lighting.0, &lights, p.0) == Lighting::Dark
                        && distance > sight_at(lighting.0, &lights, p.0)
                        && !lit_by_fire(p.0)
                        && in_sight(now, p.0)
                });
            let (outcome, state) = match (spotted, arrived, returning) {
                (Some(_), _, _) => (SleeperOutcome::FoundIntruder, SleeperState::Alarm),
                (None, true, false) => (
                    SleeperOutcome::FoundNothing,
                    SleeperState::Investigating { at: point(now), toward, returning: true },
                ),
                (None, true, true) => (SleeperOutcome::BackToSleep, SleeperState::Asleep),
                (None, false, _) => {
                    (SleeperOutcome::Walking, SleeperState::Investigating { at: point(now), toward, returning })
                }
            };
            sheet.state = state;
            roused.mark(i, last_round);
            let mut event = LogEvent::new("sleepers", "investigator_moved", group_name.as_str())
                .outcome(outcome)
                .field("member", &sheet.name)
                .field("from", point(from))
                .field("to", point(now))
                .field("toward", point(goal))
                .field("returning", returning)
                .field("allowance", round_to_thousandths_f32(allowance.inches))
                .field("armour_worn", worn)
                .field("blocked_by_wall", blocked);
            if let Some((_, intruder, _, p)) = spotted {
                event = event
                    .field("intruder", intruder.as_str())
                    .field("distance", round_to_thousandths_f32(p.0.distance(now)))
                    .house_rule("sleepers.investigator_spots_within");
            }
            if hidden_by_dark {
                event = event.house_rule("lighting.dark_sight_in");
            }
            log.push(&clock, event);
            if spotted.is_some() {
                log.push(
                    &clock,
                    LogEvent::new("sleepers", "alarm_raised", group_name.as_str())
                        .outcome(SleeperOutcome::Alarm)
                        .field("members", [&sheet.name])
                        .field("position", point(now)),
                );
                let alarm = NoiseMade {
                    source: sheet.name.clone(),
                    position: rounded(now),
                    noise: Noise::Alarm,
                    heard_to: None,
                    round: last_round,
                };
                make_noise_in(&mut messages, &mut log, &clock, alarm);
            }
        }
    }
}

/// A noise as one group hears it.
#[derive(Debug, Clone)]
struct Heard {
    source: String,
    noise: Noise,
    position: Vec2,
    distance: f32,
    walls: WallsBetween,
    /// The waking factor of the noise and the walls: the loudest is diced for first.
    loudness: i32,
    /// The round of the move it was made in.
    round: u8,
    /// Its own "heard to" was shortened by the shelter (house rule `heard_to_in_shelter`).
    heard_to_scaled: bool,
}

/// A wave of noises, bucketed by where they were made.
struct Wave<'a> {
    noises: &'a [NoiseMade],
    grid: SegmentGrid,
    /// Every "heard to" among the noises, each once.
    heard_to: Vec<Option<f32>>,
}

impl<'a> Wave<'a> {
    fn new(noises: &'a [NoiseMade]) -> Self {
        let points: Vec<(Vec2, Vec2, f32)> = noises.iter().map(|n| (n.position, n.position, 0.0)).collect();
        let mut heard_to: Vec<Option<f32>> = noises.iter().map(|n| n.heard_to).collect();
        heard_to.sort_unstable_by_key(|h| h.map(f32::to_bits));
        heard_to.dedup_by_key(|h| h.map(f32::to_bits));
        Self { noises, grid: SegmentGrid::new(&points, 2.0), heard_to }
    }

    /// The noises a group might hear (a superset of those within its reach), in wave order.
    fn near(&self, group: &scene::SleepingGroup, settings: &SleepersSettings) -> Vec<&'a NoiseMade> {
        let noises: &'a [NoiseMade] = self.noises;
        let reaches: Vec<f32> = self.heard_to.iter().map(|&h| reach(group.shelter, h, settings)).collect();
        if reaches.iter().any(|r| !r.is_finite()) {
            return noises.iter().collect();
        }
        let farthest = reaches.into_iter().fold(0.0f32, f32::max);
        let centre = vec2(group.position);
        self.grid.along(centre, centre, farthest).into_iter().map(|i| &noises[i as usize]).collect()
    }
}

/// The noises of `wave` within a group's earshot, one per source and kind (the nearest), loudest
/// first, then nearest, then by source name.
fn heard_by(group: &scene::SleepingGroup, wave: &Wave, walls: &Walls, settings: &SleepersSettings) -> Vec<Heard> {
    let centre = vec2(group.position);
    let mut heard: Vec<Heard> = Vec::new();
    for n in wave.near(group, settings) {
        let distance = n.position.distance(centre);
        let within = reach(group.shelter, n.heard_to, settings);
        if distance > within {
            continue;
        }
        if let Some(same) = heard.iter().position(|h| h.source == n.source && h.noise == n.noise) {
            if heard[same].distance <= distance {
                continue;
            }
            heard.remove(same);
        }
        let w = walls.between(n.position, centre);
        let loudness = n.noise.waking_factor(settings)
            + crate::rules::sleepers::wall_factor(w.inner, w.outer, settings.wall_stacking);
        heard.push(Heard {
            source: n.source.clone(),
            noise: n.noise,
            position: n.position,
            distance,
            walls: w,
            loudness,
            round: n.round,
            heard_to_scaled: n.heard_to.is_some_and(|h| h != within),
        });
    }
    heard.sort_by(|a, b| {
        b.loudness
            .cmp(&a.loudness)
            .then(a.distance.total_cmp(&b.distance))
            .then_with(|| a.source.cmp(&b.source))
            .then_with(|| a.noise.id().cmp(b.noise.id()))
    });
    heard
}

/// Where a figure that made a noise stands now, and whether it is still walking.
struct FigureNow {
    name: String,
    noise: Noise,
    position: Vec2,
    walking_on: bool,
}

/// 000 "Woken sleepers response": whether the noise is still going on when the sleeper is awake
/// ("Noise ceased −1" otherwise). An alarm goes on; a figure's movement goes on while the figure
/// is still walking and stands within the group's earshot at the end of the move; anything else
/// (a trap sprung, a scream) is over by the time the sleeper is awake.
fn goes_on(heard: &Heard, group: &scene::SleepingGroup, moving: &HashMap<String, Vec<FigureNow>>) -> bool {
    if heard.noise == Noise::Alarm {
        return true;
    }
    let centre = vec2(group.position);
    moving.get(&heard.source).into_iter().flatten().any(|f| {
        f.name == heard.source
            && f.noise == heard.noise
            && f.walking_on
            && f.position.distance(centre) <= group.shelter.earshot_inches()
    })
}

/// Waking rolls and responses, wave by wave, until no new alarm is raised.
fn hear_noises(
    mut groups: Query<(&SceneOrder, &mut SleepingGroup, &mut Roused)>,
    figures: Query<(&Name, &Figure, &TablePosition, &Swept, &Waypoints)>,
    rules: Res<SleepersRules>,
    walls: Res<Walls>,
    referee: Referee,
    mut messages: ResMut<Messages<NoiseMade>>,
) {
    let Referee { clock, mut dice, mut log } = referee;
    // The figures that moved, by name (a noise's source is its maker's name).
    let mut moving: HashMap<String, Vec<FigureNow>> = HashMap::new();
    for (name, figure, pos, _, waypoints) in figures.iter().filter(|f| !f.3.segments.is_empty()) {
        moving.entry(name.to_string()).or_default().push(FigureNow {
            name: name.to_string(),
            noise: movement_noise(figure.0.gait, figure.0.armour, &rules.0),
            position: pos.0,
            walking_on: !waypoints.0.is_empty(),
        });
    }
    let mut groups = in_scene_order(groups.iter_mut(), |item| *item.0);
    let mut alarmed = vec![false; groups.len()];
    let mut wave: Vec<NoiseMade> = {
        let mut cursor = messages.get_cursor();
        cursor.read(&messages).cloned().collect()
    };
    // Each group raises the alarm at most once a move, so the waves end.
    for wave_number in 0..=groups.len() {
        if wave.is_empty() {
            break;
        }
        let mut next_wave = Vec::new();
        let noises = Wave::new(&wave);
        for (gi, (_, group, roused)) in groups.iter_mut().enumerate() {
            let settings = group_settings(&rules.0, &group.0);
            let heard = heard_by(&group.0, &noises, &walls, &settings);
            if heard.is_empty() {
                continue;
            }
            let name = group.0.name.clone();
            for h in &heard {
                log.push(
                    &clock,
                    LogEvent::new("sleepers", "noise_heard", name.as_str())
                        .outcome(SleeperOutcome::Heard)
                        .field("source", &h.source)
                        .field("noise", h.noise.id())
                        .field("position", point(h.position))
                        .field("distance", round_to_thousandths_f32(h.distance))
                        .field("inner_walls", h.walls.inner)
                        .field("outer_walls", h.walls.outer)
                        .field("shelter", group.0.shelter.id())
                        .field("wave", wave_number),
                );
            }
            // Who responds, and to which noise: the newly woken, then the listeners.
            // (member, noise heard, woken by it just now)
            let mut responders: Vec<(usize, usize, bool)> = Vec::new();
            let checks = match settings.waking_checks {
                WakingChecks::EachSource => heard.len(),
                WakingChecks::Loudest => 1,
            };
            for (hi, h) in heard.iter().enumerate().take(checks) {
                let asleep: Vec<usize> = (0..group.0.members.len())
                    .filter(|&i| group.0.members[i].0.state == SleeperState::Asleep)
                    .collect();
                if asleep.is_empty() {
                    break;
                }
                let hearing = settings.group_hearing.pick(asleep.iter().map(|&i| group.0.members[i].0.hearing));
                // The sleepers hear unlike: which hearing counts is the house rule `group_hearing`.
                let hearing_differs = asleep
                    .iter()
                    .any(|&i| group.0.members[i].0.hearing.factor() != group.0.members[asleep[0]].0.hearing.factor());
                let conditions = WakingConditions {
                    noise: h.noise,
                    hearing,
                    noisy_area: group.0.noisy_area,
                    asleep: asleep.len() as u32,
                    group_size: group.0.members.len() as u32,
                    inner_walls: h.walls.inner,
                    outer_walls: h.walls.outer,
                    known_threat: group.0.known_threat,
                };
                // The group's roll, no figure's: no evil eye (001 "Lay an evil eye Curse").
                let result = resolve_waking(&conditions, &settings, &mut *dice);
                // The keenest hearers wake first, then in the order the scene lists them.
                let mut order = asleep.clone();
                order.sort_by_key(|&i| (-group.0.members[i].0.hearing.factor(), i));
                let woken: Vec<usize> = order.into_iter().take(result.woken as usize).collect();
                for &i in &woken {
                    group.0.members[i].0.state = SleeperState::Awake;
                    roused.mark(i, h.round);
                    responders.push((i, hi, true));
                }
                let mut event = LogEvent::new("sleepers", "waking_roll", name.as_str())
                    .roll(result.roll)
                    .outcome(result.outcome)
                    .field("source", &h.source)
                    .field("noise", h.noise.id())
                    .field("asleep", asleep.len())
                    .field("hearing", hearing.id())
                    .field("woken", woken.iter().map(|&i| group.0.members[i].0.name.as_str()).collect::<Vec<_>>())
                    .field("wave", wave_number);
                // More than one noise heard: how many are diced for is the house rule `waking_checks`.
                if heard.len() > 1 {
                    event = event.house_rule("sleepers.waking_checks");
                }
                if hearing_differs {
                    event = event.house_rule("sleepers.group_hearing");
                }
                if h.heard_to_scaled {
                    event = event.house_rule("sleepers.heard_to_in_shelter");
                }
                log.push(&clock, event);
            }
            if settings.listeners_respond {
                for (i, m) in group.0.members.iter().enumerate() {
                    let listening = matches!(m.0.state, SleeperState::Listening { .. } | SleeperState::Awake);
                    if listening && !responders.iter().any(|r| r.0 == i) {
                        responders.push((i, 0, false));
                    }
                }
            }
            let mut raisers: Vec<String> = Vec::new();
            // The alarm is raised in the earliest round one of its raisers was roused in.
            let mut raised_in: Option<u8> = None;
            for (i, hi, woken_now) in responders {
                let h = &heard[hi];
                let noise_now = goes_on(h, &group.0, &moving).then_some(h.noise);
                let home = group.0.position;
                let expecting_trouble = group.0.expecting_trouble;
                let sheet = &mut group.0.members[i].0;
                let keeps_watch = !woken_now && sheet.state == SleeperState::Awake;
                let conditions = ResponseConditions { noise_now, rank: sheet.rank, expecting_trouble };
                // A member's roll; a member is not a figure, and the evil eye is a figure's
                // (`Cursed`), so none is applied.
                let result = resolve_response(&conditions, &settings, &mut *dice);
                let (outcome, state) =
                    respond_state(result.outcome, result.listen_moves.as_ref(), h, home, keeps_watch);
                sheet.state = state;
                roused.mark(i, h.round);
                if result.outcome == ResponseOutcome::RaiseAlarm {
                    raisers.push(sheet.name.clone());
                    let now = roused.0[i].unwrap_or(h.round);
                    raised_in = Some(raised_in.map_or(now, |r| r.min(now)));
                }
                let mut event = LogEvent::new("sleepers", "response", name.as_str())
                    .roll(result.roll)
                    .outcome(outcome)
                    .field("member", &sheet.name)
                    .field("rank", sheet.rank.id())
                    .field("source", &h.source)
                    .field("noise", h.noise.id())
                    .field("noise_ceased", noise_now.is_none())
                    .field("wave", wave_number);
                if let Some(moves) = result.listen_moves {
                    event = event.field("listen_moves", moves.total).roll(moves);
                }
                log.push(&clock, event);
            }
            if !raisers.is_empty() && !alarmed[gi] {
                alarmed[gi] = true;
                log.push(
                    &clock,
                    LogEvent::new("sleepers", "alarm_raised", name.as_str())
                        .outcome(SleeperOutcome::Alarm)
                        .field("members", &raisers)
                        .field("position", group.0.position)
                        .field("wave", wave_number),
                );
                let alarm = NoiseMade {
                    source: name.clone(),
                    position: vec2(group.0.position),
                    noise: Noise::Alarm,
                    heard_to: None,
                    round: raised_in.unwrap_or(clock.rounds_per_move.max(1)),
                };
                make_noise_in(&mut messages, &mut log, &clock, alarm.clone());
                next_wave.push(alarm);
            }
        }
        wave = next_wave;
    }
}

/// The state a response leaves a member in, and the logged outcome.
fn respond_state(
    outcome: ResponseOutcome,
    listen_moves: Option<&Roll>,
    heard: &Heard,
    home: scene::Point,
    keeps_watch: bool,
) -> (Classified, SleeperState) {
    match outcome {
        // A watch kept in the group thinks nothing of it and stays awake.
        ResponseOutcome::BackToSleep if keeps_watch => (SleeperOutcome::StaysAwake.classified(), SleeperState::Awake),
        ResponseOutcome::BackToSleep => (outcome.classified(), SleeperState::Asleep),
        ResponseOutcome::ListenAwake => {
            let moves = listen_moves.map_or(1, |r| r.total.max(1) as u32);
            (outcome.classified(), SleeperState::Listening { moves_left: moves })
        }
        ResponseOutcome::Investigate => (
            outcome.classified(),
            SleeperState::Investigating { at: home, toward: point(heard.position), returning: false },
        ),
        ResponseOutcome::RaiseAlarm => (outcome.classified(), SleeperState::Alarm),
    }
}

/// End of the move: listening timers run down (asleep when they run out) and the alarmed dress,
/// two rounds a move (the move's rounds). A member roused this move keeps its timer until next
/// move and dresses from the round after it was roused: roused in round r, it dresses
/// `rounds_per_move − r` rounds now (none when roused in the last round).
fn tick_members(
    mut groups: Query<(&SceneOrder, &mut SleepingGroup, &mut Roused)>,
    rules: Res<SleepersRules>,
    clock: Res<MoveClock>,
    mut log: ResMut<EventLog>,
) {
    let settings = &rules.0;
    let rounds_per_move = clock.rounds_per_move;
    let groups = in_scene_order(groups.iter_mut(), |item| *item.0);
    for (_, mut group, mut roused) in groups {
        let name = group.0.name.clone();
        let full = group.0.full_dressing;
        for (i, member) in group.0.members.iter_mut().enumerate() {
            let sheet = &mut member.0;
            let roused_in = std::mem::take(&mut roused.0[i]);
            // The rounds of this move left after the one it was roused in.
            let rounds_now = roused_in.map_or(rounds_per_move, |r| rounds_per_move.saturating_sub(r));
            match sheet.state {
                SleeperState::Listening { .. } if roused_in.is_some() => {}
                SleeperState::Listening { moves_left } => {
                    if moves_left <= 1 {
                        sheet.state = SleeperState::Asleep;
                        log.push(
                            &clock,
                            LogEvent::new("sleepers", "listening_ended", name.as_str())
                                .outcome(SleeperOutcome::BackToSleep)
                                .field("member", &sheet.name),
                        );
                    } else {
                        sheet.state = SleeperState::Listening { moves_left: moves_left - 1 };
                    }
                }
                SleeperState::Alarm if rounds_now == 0 => {}
                SleeperState::Alarm => {
                    let before = sheet.dressing_rounds.unwrap_or(0);
                    // "women +2": an ordinary dresser who is a woman dresses as one.
                    let dresser = effective_dresser(sheet.dresser, sheet.sex);
                    let progress = |rounds| {
                        if full {
                            full_dressing(sheet.armour, dresser, rounds, settings)
                        } else {
                            hasty_dressing(sheet.armour, rounds, settings)
                        }
                    };
                    if progress(before).done {
                        continue;
                    }
                    let rounds = (before + u32::from(rounds_now)).min(progress(before).rounds_needed);
                    let p = progress(rounds);
                    sheet.dressing_rounds = Some(rounds);
                    log.push(
                        &clock,
                        LogEvent::new("sleepers", "dressing", name.as_str())
                            .outcome(if p.done { SleeperOutcome::Dressed } else { SleeperOutcome::Dressing })
                            .field("member", &sheet.name)
                            .field("full_dressing", full)
                            .field("dresser", dresser.id())
                            .field("rounds_taken", p.rounds_taken)
                            .field("rounds_needed", p.rounds_needed)
                            .field("armour", sheet.armour)
                            .field("armour_worn", p.armour_worn)
                            .field("half_dressed", p.half_dressed)
                            .field("melee_modifier", p.melee_modifier),
                    );
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::sleepers::{Shelter, ShelterScaling};
    use rand::{Rng, SeedableRng, rngs::Xoshiro256PlusPlus};

    #[test]
    fn a_wave_offers_every_noise_a_group_can_hear() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2025);
        let mut unit = move || (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
        // Noises on a 150" table, some on whole inches, some heard far ("heard to"), some twice.
        let mut noises: Vec<NoiseMade> = (0..3000)
            .map(|k| {
                let at = Vec2::new(unit() * 150.0, unit() * 150.0);
                NoiseMade {
                    source: format!("s{}", k % 700),
                    position: if k % 3 == 0 { at.floor() } else { at },
                    noise: Noise::Movement,
                    heard_to: [None, Some(8.0), Some(18.0), Some(3.0)][k % 4],
                    round: 1,
                }
            })
            .collect();
        noises.extend_from_within(0..40);
        let wave = Wave::new(&noises);
        let mut heard = 0;
        for scaling in [ShelterScaling::Proportional, ShelterScaling::Subtract, ShelterScaling::Earshot] {
            let settings = SleepersSettings { heard_to_in_shelter: scaling, ..SleepersSettings::default() };
            for k in 0..300 {
                let shelter = [Shelter::Open, Shelter::Tent, Shelter::Building][k % 3];
                let centre = Vec2::new(unit() * 160.0 - 5.0, unit() * 160.0 - 5.0);
                let centre = if k % 4 == 0 { centre.floor() } else { centre };
                let group = scene::SleepingGroup {
                    shelter,
                    ..ron::from_str(&format!("(name: \"g\", position: ({}, {}), members: [])", centre.x, centre.y))
                        .unwrap()
                };
                let centre = vec2(group.position);
                let within = |n: &&NoiseMade| n.position.distance(centre) <= reach(shelter, n.heard_to, &settings);
                let brute: Vec<&NoiseMade> = noises.iter().filter(within).collect();
                let offered: Vec<&NoiseMade> = wave.near(&group, &settings).into_iter().filter(within).collect();
                assert_eq!(brute.len(), offered.len(), "{shelter:?} at {centre}");
                assert!(brute.iter().zip(&offered).all(|(a, b)| std::ptr::eq(*a, *b)), "in wave order");
                heard += brute.len();
            }
        }
        assert!(heard > 1000, "{heard} noises heard");
    }
}
