//! Temptations pull at the figures passing them, and the GM's `decide` orders are diced (000
//! "Temptations and Weaknesses", "Weaknesses", "To arrive at a decision using card
//! characters"). The readings are in docs/decisions.md "In a scene".
//!
//! Order within the Temptations set, each step visiting figures in scene order:
//! 1. `tempt_figures`: a figure inside a site dices to leave (or counts down its timed stay);
//!    any other figure not held by an immobile condition meets the sites whose reach its swept
//!    path (or, standing, its position) came within, in the order it came to them, each once a
//!    passing: weaknesses without dice are shown to the GM once a site, a site that lures it is
//!    diced, and one it succumbs to takes it in, cutting its move short where it came nearest;
//! 2. `outvote_orders`: the outvote orders for this move, in scene order: a figure inside a site
//!    that two voters (not inside a site themselves) of equal or higher rank outvote leaves it;
//! 3. `weakness_checks`: the weakness checks for this move, in scene order, each one D10;
//! 4. `decide_orders`: the orders for this move, in scene order.

use super::clock::{MoveClock, SimDice};
use super::log::{EventLog, LogEvent, round_to_thousandths_f32};
use super::magic::{Cursed, evil_eye_on};
use super::outcome::TemptationEventOutcome;
use super::sleepers::nearest_along_path;
use super::world::{
    Conditions, Figure, SceneOrder, Swept, TablePosition, Waypoints, in_scene_order, placed_bundle, point, vec2,
};
use super::{Move, MoveSystems};
use crate::rules::decisions::{
    DecisionError, DecisionOption, DecisionResult, KnownQualities, LeaveOutcome, OutvoteOutcome, Qualities,
    TemptationReadings, Tempted, Weakness, WeaknessRoll, chosen_option, decide, leave_outcome, outvote, outvoters,
    roll_leave, roll_temptation, roll_weakness, spend_money, weakness_outcome,
};
use crate::rules::dice::{DiceSource, Rolls};
use crate::rules::sleepers::Rank;
use crate::scene::{self, Scene};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DecisionOrders>();
    app.init_resource::<TemptationRules>();
    app.init_resource::<OutvoteOrders>();
    app.init_resource::<WeaknessChecks>();
    app.add_systems(
        Move,
        (tempt_figures, outvote_orders, weakness_checks, decide_orders)
            .chain()
            .in_set(MoveSystems::Temptations)
            .run_if(any_temptation_or_order),
    );
}

/// Whether the table has a temptation site, or the scene an order or check for some move: the
/// set's systems act on nothing else, yet a table with none paid for their parameters every
/// move.
fn any_temptation_or_order(
    sites: Query<(), With<TemptationSite>>,
    decisions: Res<DecisionOrders>,
    outvotes: Res<OutvoteOrders>,
    checks: Res<WeaknessChecks>,
) -> bool {
    !sites.is_empty() || !decisions.0.is_empty() || !outvotes.0.is_empty() || !checks.0.is_empty()
}

/// A temptation site on the table: the scene's entry (sites do not change in play).
#[derive(Component, Debug, Clone)]
pub struct TemptationSite(pub scene::TemptationSite);

/// Where a figure stands with the temptations: inside a site, the sites it is passing, the
/// sites it has been reminded at. Every figure has one; saved on the figure as `temptation`.
#[derive(Component, Debug, Clone, Default)]
pub struct Tempting(pub scene::TemptationState);

impl Tempting {
    /// The site the figure is inside, if any: its path waits.
    pub fn inside(&self) -> Option<&scene::Inside> {
        self.0.inside.as_ref()
    }
}

/// The scene's `decide` orders.
#[derive(Resource, Debug, Clone, Default)]
pub struct DecisionOrders(pub Vec<scene::DecisionOrder>);

/// The scene's outvote orders.
#[derive(Resource, Debug, Clone, Default)]
pub struct OutvoteOrders(pub Vec<scene::OutvoteOrder>);

/// The scene's weakness checks.
#[derive(Resource, Debug, Clone, Default)]
pub struct WeaknessChecks(pub Vec<scene::WeaknessCheck>);

/// The scene's `rules.temptations` house rules.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct TemptationRules(pub crate::rules::decisions::TemptationSettings);

/// Spawn the scene's temptation sites and keep its orders.
pub(super) fn spawn(world: &mut World, scene: &Scene) {
    world.insert_resource(TemptationRules(scene.rules.temptations));
    world.insert_resource(DecisionOrders(scene.decisions.clone()));
    world.insert_resource(OutvoteOrders(scene.outvotes.clone()));
    world.insert_resource(WeaknessChecks(scene.weakness_checks.clone()));
    for (i, s) in scene.temptations.iter().enumerate() {
        world.spawn((placed_bundle(i as u32, &s.name, s.position), TemptationSite(s.clone())));
    }
}

/// The figure's qualities: those not given are diced now (logged as `qualities_diced`, `why`
/// naming what needed them) and kept on the figure from then on. The GM view's Decide panel
/// (through `document::decide`) dices them the same way.
pub(crate) fn qualities_of(
    figure: &mut scene::Figure,
    why: &str,
    dice: &mut SimDice,
    clock: &MoveClock,
    log: &mut EventLog,
) -> Qualities {
    let diced = figure.qualities.complete(dice);
    if !diced.rolls.is_empty() {
        let mut event = LogEvent::new("temptations", "qualities_diced", figure.name.as_str())
            .outcome(TemptationEventOutcome::QualitiesDiced)
            .field("for", why)
            .field("diced", diced.rolls.iter().map(|r| r.quality.id()).collect::<Vec<_>>())
            .field("qualities", diced.qualities);
        for r in diced.rolls() {
            event = event.roll(r);
        }
        log.push(clock, event);
        figure.qualities = KnownQualities::from(diced.qualities);
    }
    diced.qualities
}

/// Pay a site's cost for a move from the figure's money, where it is counted and the site
/// charges: the event gets `spent`, `money_left` and `ran_out`.
fn pay(figure: &mut scene::Figure, site: &scene::TemptationSite, event: LogEvent) -> LogEvent {
    let Some(purse) = figure.money else { return event };
    if site.cost_per_move == 0 {
        return event;
    }
    let paid = spend_money(purse, site.cost_per_move);
    figure.money = Some(paid.left);
    event.field("spent", paid.spent).field("money_left", paid.left).field("ran_out", paid.ran_out)
}

/// 000 "Temptations and Weaknesses": figures inside dice to leave; figures passing are tempted.
fn tempt_figures(
    mut figures: Query<(
        &SceneOrder,
        &mut Figure,
        &Conditions,
        &mut TablePosition,
        &mut Waypoints,
        &mut Swept,
        &mut Tempting,
        Option<&Cursed>,
    )>,
    sites: Query<(&SceneOrder, &TemptationSite)>,
    rules: Res<TemptationRules>,
    clock: Res<MoveClock>,
    mut dice: ResMut<SimDice>,
    mut log: ResMut<EventLog>,
) {
    let sites: Vec<&scene::TemptationSite> =
        in_scene_order(sites.iter(), |item| *item.0).into_iter().map(|(_, s)| &s.0).collect();
    if sites.is_empty() {
        return;
    }
    let settings = &rules.0;
    let readings: TemptationReadings = settings.readings();
    let tag = |mut event: LogEvent, paths: Vec<&'static str>| {
        for path in paths {
            event = event.house_rule(path);
        }
        event
    };
    let figures = in_scene_order(figures.iter_mut(), |item| *item.0);
    for (_, mut figure, conditions, mut position, mut waypoints, mut swept, mut tempting, cursed) in figures {
        let sheet = &mut figure.0;
        let state = &mut tempting.0;
        if let Some(inside) = state.inside.clone() {
            let Some(site) = sites.iter().copied().find(|s| s.name == inside.site) else {
                // Checked on load: a site of another name cannot hold it.
                state.inside = None;
                continue;
            };
            let moves = inside.moves.saturating_add(1);
            match inside.moves_left {
                Some(left) => {
                    // A timed row: the moves it rolled, then it walks on.
                    let left = left.saturating_sub(1);
                    let outcome =
                        if left == 0 { TemptationEventOutcome::TimeUp } else { TemptationEventOutcome::StillInside };
                    let event = LogEvent::new("temptations", "time_inside", sheet.name.as_str())
                        .outcome(outcome)
                        .field("site", &site.name)
                        .field("kind", site.kind.id())
                        .field("moves_inside", moves)
                        .field("moves_left", left);
                    let event = pay(sheet, site, event);
                    log.push(&clock, event);
                    state.inside =
                        (left > 0).then(|| scene::Inside { site: site.name.clone(), moves_left: Some(left), moves });
                }
                None => {
                    let out_of_money = sheet.money == Some(0);
                    let Ok(mut result) = roll_leave(site.kind, &sheet.weaknesses, out_of_money, &readings, &mut *dice)
                    else {
                        // A timed row has no roll to leave (checked on load): it walks on.
                        state.inside = None;
                        continue;
                    };
                    // 001 "Lay an evil eye Curse": "deducts 1 from every dice throw for character".
                    if let Some(roll) = result.roll.as_mut()
                        && evil_eye_on(roll, cursed)
                    {
                        result.outcome = leave_outcome(roll.passed() == Some(true));
                    }
                    let event = LogEvent::new("temptations", "leave_roll", sheet.name.as_str())
                        .outcome(result.outcome)
                        .field("site", &site.name)
                        .field("kind", site.kind.id())
                        .field("moves_inside", moves);
                    let mut event = tag(event, settings.deciding(site.kind, &sheet.weaknesses, true));
                    for r in result.rolls() {
                        event = event.roll(r);
                    }
                    if result.outcome == LeaveOutcome::Stays {
                        event = pay(sheet, site, event);
                        state.inside = Some(scene::Inside { site: site.name.clone(), moves_left: None, moves });
                    } else {
                        state.inside = None;
                    }
                    log.push(&clock, event);
                }
            }
            continue;
        }
        if conditions.0.iter().any(|c| c.immobile) {
            continue;
        }
        // The sites it came within reach of: (inches walked to the nearest point, site, distance).
        let mut near: Vec<(f32, usize, f32)> = Vec::new();
        for (i, site) in sites.iter().enumerate() {
            let centre = vec2(site.position);
            let (p, walked) = nearest_along_path(centre, &swept.segments).unwrap_or((position.0, 0.0));
            let distance = p.distance(centre);
            if distance <= site.reach_in(settings) {
                near.push((walked, i, distance));
            }
        }
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (walked, i, distance) in near {
            let site = sites[i];
            if state.passing.contains(&site.name) {
                continue;
            }
            state.passing.push(site.name.clone());
            // Weaknesses without dice: shown to the GM once a site.
            if !state.reminded.contains(&site.name) {
                let reminders: Vec<(Weakness, &str)> = Weakness::ALL
                    .into_iter()
                    .filter(|w| sheet.weaknesses.contains(w))
                    .filter_map(|w| w.reminder().map(|r| (w, r)))
                    .collect();
                for &(weakness, reminder) in &reminders {
                    log.push(
                        &clock,
                        LogEvent::new("temptations", "weakness_reminder", sheet.name.as_str())
                            .outcome(TemptationEventOutcome::Reminder)
                            .field("site", &site.name)
                            .field("weakness", weakness.id())
                            .field("reminder", reminder),
                    );
                }
                if !reminders.is_empty() {
                    state.reminded.push(site.name.clone());
                }
            }
            let row = site.kind.row();
            let mut event = LogEvent::new("temptations", "temptation", sheet.name.as_str())
                .field("site", &site.name)
                .field("kind", site.kind.id())
                .field("distance", round_to_thousandths_f32(distance))
                .field("reach", site.reach_in(settings));
            if site.reach_is_house_rule() {
                event = event.house_rule("temptations.reach_in");
            }
            if !row.lured.lures(sheet.sex, sheet.reader) {
                // "Males only", "Readers only": no roll.
                event = event
                    .outcome(crate::rules::decisions::TemptationOutcome::NotTempted)
                    .field("lured", row.lured.id());
                log.push(&clock, event);
                continue;
            }
            let qualities = qualities_of(sheet, "temptation", &mut dice, &clock, &mut log);
            let weaknesses = sheet.weaknesses.clone();
            let tempted = Tempted {
                qualities,
                sex: sheet.sex,
                reader: sheet.reader,
                non_fighter: sheet.non_fighter,
                non_smoker: sheet.non_smoker,
                weaknesses: &weaknesses,
                evil_eye: cursed.is_some(),
            };
            let Ok(result) = roll_temptation(site.kind, site.gm_factor, &tempted, &readings, &mut *dice) else {
                // The GM factor is checked on load.
                continue;
            };
            let stay = result.stay.as_ref().map(|s| s.moves);
            // A glance in the mirror (D6 − 2 below 1) costs no move: the figure walks on.
            let goes_in = result.outcome.drawn_in() && stay != Some(0);
            event = tag(event, settings.deciding(site.kind, &weaknesses, false));
            event = event.outcome(result.outcome).field("goes_in", goes_in);
            if let Some(moves) = stay {
                event = event.field("stay_moves", moves);
            }
            for r in result.rolls() {
                event = event.roll(r);
            }
            if !goes_in {
                log.push(&clock, event);
                continue;
            }
            swept.stop_at(walked, &mut position.0, &mut waypoints.0);
            event = event.field("stopped_at", point(position.0)).field("waypoints_left", waypoints.0.len());
            event = pay(sheet, site, event);
            log.push(&clock, event);
            state.inside = Some(scene::Inside { site: site.name.clone(), moves_left: stay, moves: 0 });
            break;
        }
        // A passing ends when the figure ends a move out of the site's reach.
        let at = position.0;
        state
            .passing
            .retain(|n| sites.iter().any(|s| s.name == *n && vec2(s.position).distance(at) <= s.reach_in(settings)));
    }
}

/// A voter as the `outvote` event lists it.
#[derive(serde::Serialize)]
struct Voter<'a> {
    name: &'a str,
    rank: &'static str,
    /// Of equal or higher rank than the figure: the vote counts.
    counts: bool,
}

/// 000 "Temptations and Weaknesses": "A character who succumbs can be outvoted by two others of
/// equal or higher rank". Each order for this move: a figure inside a site is outvoted by the
/// voters not inside a site themselves, and if outvoted walks on from the next move.
fn outvote_orders(
    mut figures: Query<(&SceneOrder, &Figure, &mut Tempting)>,
    orders: Res<OutvoteOrders>,
    clock: Res<MoveClock>,
    mut log: ResMut<EventLog>,
) {
    if !orders.0.iter().any(|o| o.at_move == clock.move_number) {
        return;
    }
    let mut figures = in_scene_order(figures.iter_mut(), |item| *item.0);
    for order in orders.0.iter().filter(|o| o.at_move == clock.move_number) {
        let Some(i) = figures.iter().position(|(_, f, _)| f.0.name == order.figure) else {
            // Checked on load: the figure is a figure.
            continue;
        };
        let rank = figures[i].1.0.rank;
        let inside = figures[i].2.0.inside.as_ref().map(|inside| inside.site.clone());
        let event = LogEvent::new("temptations", "outvote", order.figure.as_str())
            .field("order", &order.name)
            .field("rank", rank.id());
        let Some(site) = inside else {
            log.push(&clock, event.outcome(TemptationEventOutcome::NotInside));
            continue;
        };
        // The voters free to vote: not inside a site themselves (in the order given).
        let mut voting: Vec<(&str, Rank)> = Vec::new();
        let mut not_voting: Vec<&str> = Vec::new();
        for name in &order.voters {
            let Some((_, voter, tempting)) = figures.iter().find(|(_, f, _)| f.0.name == *name) else {
                // Checked on load: every voter is a figure.
                continue;
            };
            if tempting.0.inside.is_some() {
                not_voting.push(name.as_str());
            } else {
                voting.push((name.as_str(), voter.0.rank));
            }
        }
        let ranks: Vec<Rank> = voting.iter().map(|(_, r)| *r).collect();
        let result = outvote(rank, &ranks);
        let voters: Vec<Voter> =
            voting.iter().map(|&(name, r)| Voter { name, rank: r.id(), counts: r.factor() >= rank.factor() }).collect();
        let event = event
            .outcome(result)
            .field("site", site.as_str())
            .field("voters", voters)
            .field("outvoters", outvoters(rank, &ranks))
            .field("inside_not_voting", not_voting);
        log.push(&clock, event);
        if result == OutvoteOutcome::Outvoted {
            figures[i].2.0.inside = None;
        }
    }
}

/// 000 "Weaknesses": each check for this move, the figure's weakness roll (one D10), logged. The
/// roll changes nothing else: the scene holds no objects to steal, fell or search for, and no
/// melee. A clumsy figure's `friend_in_melee` ("In melee any friend within 1\" D10 2- hit!")
/// rolls once for each figure of its side within 1", in scene order.
fn weakness_checks(
    checks: Res<WeaknessChecks>,
    figures: Query<(&SceneOrder, &Figure, &TablePosition, Option<&Cursed>)>,
    clock: Res<MoveClock>,
    mut dice: ResMut<SimDice>,
    mut log: ResMut<EventLog>,
) {
    for check in checks.0.iter().filter(|c| c.at_move == clock.move_number) {
        let cursed = figures.iter().find(|(_, f, _, _)| f.0.name == check.figure).and_then(|(_, _, _, c)| c);
        // 001 "Lay an evil eye Curse": "deducts 1 from every dice throw for character".
        let roll = |dice: &mut SimDice| {
            let mut result = roll_weakness(check.roll, dice);
            if evil_eye_on(&mut result.roll, cursed) {
                result.outcome = weakness_outcome(result.kind, result.roll.passed() == Some(true));
            }
            result
        };
        let event = || {
            LogEvent::new("temptations", "weakness_check", check.figure.as_str())
                .field("check", &check.name)
                .field("roll", check.roll.id())
                .field("weakness", check.roll.weakness().id())
        };
        if check.roll != WeaknessRoll::FriendInMelee {
            let result = roll(&mut dice);
            log.push(&clock, event().outcome(result.outcome).roll(result.roll));
            continue;
        }
        let mut all: Vec<_> = figures.iter().collect();
        all.sort_by_key(|(order, _, _, _)| **order);
        let Some(&(_, clumsy, at, _)) = all.iter().find(|(_, f, _, _)| f.0.name == check.figure) else {
            // Checked on load: the figure is in the scene.
            continue;
        };
        let friends: Vec<(&str, f32)> = all
            .iter()
            .filter(|(_, f, _, _)| f.0.name != clumsy.0.name && f.0.side == clumsy.0.side)
            .map(|(_, f, p, _)| (f.0.name.as_str(), p.0.distance(at.0)))
            .filter(|&(_, d)| d <= FRIEND_IN_MELEE_REACH_IN)
            .collect();
        if friends.is_empty() {
            log.push(&clock, event().outcome(TemptationEventOutcome::NoFriendNear));
        }
        for (friend, distance) in friends {
            let result = roll(&mut dice);
            log.push(
                &clock,
                event()
                    .outcome(result.outcome)
                    .roll(result.roll)
                    .field("friend", friend)
                    .field("distance", round_to_thousandths_f32(distance)),
            );
        }
    }
}

/// 000 "Weaknesses", clumsy: "In melee any friend within 1\"".
const FRIEND_IN_MELEE_REACH_IN: f32 = 1.0;

/// 000 "To arrive at a decision using card characters": each order for this move, the decider's
/// qualities (diced where not given) against the options, one D10.
fn decide_orders(
    mut figures: Query<(&SceneOrder, &mut Figure, Option<&Cursed>)>,
    orders: Res<DecisionOrders>,
    clock: Res<MoveClock>,
    mut dice: ResMut<SimDice>,
    mut log: ResMut<EventLog>,
) {
    if !orders.0.iter().any(|o| o.at_move == clock.move_number) {
        return;
    }
    let mut figures = in_scene_order(figures.iter_mut(), |item| *item.0);
    for order in orders.0.iter().filter(|o| o.at_move == clock.move_number) {
        let Some((_, figure, cursed)) = figures.iter_mut().find(|(_, f, _)| f.0.name == order.decider) else {
            // Checked on load: the decider is a figure.
            continue;
        };
        let cursed = cursed.is_some();
        let sheet = &mut figure.0;
        let qualities = qualities_of(sheet, "decision", &mut dice, &clock, &mut log);
        let result = decide_for(&qualities, &order.options, cursed, &mut *dice);
        log.push(&clock, decision_event(sheet.name.as_str(), &order.name, &result));
    }
}

/// 000 "To arrive at a decision using card characters": the decider's D10 among `options`, with
/// 001's evil-eye −1 when the decider is `cursed` (the option chosen read again from the new
/// total). A `decide` order and the GM view's Decide panel dice through it.
pub(crate) fn decide_for(
    qualities: &Qualities,
    options: &[DecisionOption],
    cursed: bool,
    dice: &mut impl DiceSource,
) -> Result<DecisionResult, DecisionError> {
    let mut result = decide(qualities, options, dice);
    if let Ok(r) = result.as_mut()
        && evil_eye_on(&mut r.roll, cursed.then_some(&Cursed))
    {
        r.chosen = chosen_option(&r.scores, r.roll.total);
    }
    result
}

/// The log's `decision` event for `decider`'s decision `decision`: the D10, every option's
/// score and the choice, or why it was refused. A `decide` order and the GM view's Decide panel
/// log the same event.
pub(crate) fn decision_event(
    decider: &str,
    decision: &str,
    result: &Result<DecisionResult, DecisionError>,
) -> LogEvent {
    let event = LogEvent::new("decisions", "decision", decider).field("decision", decision);
    match result {
        Ok(result) => event
            .roll(result.roll.clone())
            .outcome(result.outcome)
            .field("options", &result.scores)
            .field("chosen", result.chosen_name()),
        Err(e) => event.outcome(TemptationEventOutcome::Refused).field("error", e.to_string()),
    }
}
