//! Play-testing a layout: run a scene many times from consecutive seeds, in parallel, and
//! report what happened, with 95% confidence intervals. Run `i` uses seed `S + i`, so any run
//! can be replayed alone with `tabula sim --seed`. Results are the same whatever the thread
//! count: each run is independent and runs are gathered in seed order.
//!
//! What counts, read from each run's event log (docs/playtest.md), by each event's typed
//! outcome meaning (`LogEvent::meaning`, see [`crate::rules::outcome`]) and its fields, never by
//! matching outcome strings:
//! - a trap is *approached* when any trap event names it, *spotted* on a `spot_check` (or a Khemri
//!   crossing) that spots it, *disarmed* on a successful `khemri_disarm`, *sprung* on any other event naming
//!   it whose outcome is not one of "did not go off" (avoided, locked, holds, ...);
//! - a figure is *hurt* by an event that gives it an injury, a strike, a wound, a fall or a
//!   burn; *dead* on `definitely_dead`; *apparently dead* on `apparently_dead` or when a Khemri
//!   hit leaves it out of wounds (the Mordheim injury table is not in the sources);
//! - a figure *reached its goal* when it arrived at its last waypoint; *moves lost* counts a
//!   move held as 1 and a move cut short as the share of it not walked;
//! - the alarm is raised by the noise a sleeper was answering when it chose to raise it;
//! - escapes (docs/prisoners.md "In a scene"): a prisoner *ran off* on each `ran_off` event, was
//!   *recaptured* on each `recaptured`, *escaped* on each `escaped` (off the table or at his
//!   refuge), each counted by its outcome's mark.
//! - a tracker *caught up* when it ended a move within 1" of its quarry (a `caught_up` event).
//! - OSR encounters (`rules_family: osr`, docs/osr.md): an *encounter* on each wandering check
//!   that brings one, the *party* or the *monsters surprised* on each surprise roll that says so
//!   (both sides when both are), a *rout* on each failed morale or loyalty check (fled or
//!   surrendered), each counted by its outcome's mark.
//!
//! Objectives (the scene's `objectives`) are not read from the log: a figure's position is
//! changed by movement, temptations, traps and cattle grids, not all of which log where it ends
//! up. [`run_all`] stops each run at the end of every move an objective is judged at and reads
//! where the figures stand from the world ([`Simulation::figure_positions`]); stepping in parts
//! plays exactly the moves one stretch would. An objective is *met* when every figure of its
//! side stands inside its area then; a run that does not play its move leaves it *not reached*,
//! counted apart from the runs that did.

use crate::heatmap::{CellSet, OverlayGrid, OverlayTally};
use crate::rules::outcome::{Harm, Mark, Sprung};
use crate::scene::{Point, Scene};
use crate::sim::{EventLog, LogEvent, Simulation};
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::atomic::AtomicBool;

mod workers;
pub use workers::MAX_KEPT_THREADS;
use workers::run_runs;

/// Most runs one play-test makes.
pub const MAX_RUNS: u32 = 1_000_000;

/// What one run did, reduced to what the report counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RunSummary {
    /// The seed the run was made with.
    pub seed: u64,
    /// What each trap did, by name.
    pub traps: BTreeMap<String, TrapRun>,
    /// What befell each figure, by name.
    pub figures: BTreeMap<String, FigureRun>,
    /// Cells burnt per material, in square inches.
    pub burnt_area: BTreeMap<String, f64>,
    /// A building burnt.
    pub building_burnt: bool,
    /// The noise that first raised an alarm, if one was raised.
    pub alarm: Option<String>,
    /// Where figures were hurt, for the heatmap.
    pub hurt_at: Vec<(f32, f32)>,
    /// Harm done in the run: 1 per injury or wound, 10 per death; orders worst and best runs.
    pub harm: u32,
    /// Each objective, in scene order: filled by [`run_all`] and [`run_one`] from where the
    /// figures stood; left empty by [`summarize`], which has only the log.
    pub objectives: Vec<ObjectiveRun>,
    /// Prisoners who ran off, were recaptured and escaped in the run.
    pub escapes: EscapeRun,
    /// Each tracker by name: its quarry, and whether it caught up with it.
    pub trackers: BTreeMap<String, TrackerRun>,
    /// OSR encounters, surprises and routs; none for a scene with no OSR procedure (not
    /// `rules_family: osr`, and no OSR encounter table).
    pub encounters: Option<EncounterRun>,
    /// Where each of the scene's figures stood at the end of the run, in scene order (`None`: not
    /// on the table then), for the heatmap: filled by [`run_all`] and [`run_one`] from the world,
    /// left empty by [`summarize`], which has only the log.
    pub ends: Vec<Option<Point>>,
    /// The heatmap cells ([`OverlayGrid`]) the fire had reached by the end of the run, burning or
    /// burnt out: filled by [`run_all`] and [`run_one`] from the fire grid, left empty by
    /// [`summarize`]. At most 2 KiB a run ([`crate::heatmap::MAX_OVERLAY_CELLS`] bits).
    pub burnt: CellSet,
}

/// OSR encounters in one run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct EncounterRun {
    /// Wandering checks that brought an encounter.
    pub encounters: u32,
    /// Surprise rolls that surprised the party (alone or with the monsters).
    pub party_surprised: u32,
    /// Surprise rolls that surprised the monsters (alone or with the party).
    pub monsters_surprised: u32,
    /// Morale and loyalty checks failed: the figure fled or surrendered.
    pub routs: u32,
}

/// Escapes in one run: how many times prisoners ran off, were recaptured, got away.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct EscapeRun {
    /// Prisoners who ran off from their escort (a prisoner may run more than once).
    pub ran_off: u32,
    /// Runaways whose guard tied their hands again.
    pub recaptured: u32,
    /// Runaways who got off the table or to their refuge.
    pub escaped: u32,
}

/// What one tracker did in one run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TrackerRun {
    /// The quarry it was set on.
    pub quarry: String,
    /// It ended a move within 1" of its quarry.
    pub caught_up: bool,
    /// The first move it did.
    pub caught_up_move: Option<u32>,
}

/// One objective in one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ObjectiveRun {
    /// The objective's name.
    pub name: String,
    /// The move at whose end it is judged.
    pub by_move: u32,
    /// Met or not at the end of that move; `None` when the run did not play it (the run ended
    /// sooner, or the scene's clock was already past it).
    pub met: Option<bool>,
}

/// Where each figure stood at the end of a move, by name.
pub type Standing = BTreeMap<String, Point>;

/// What one trap did in one run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TrapRun {
    /// A trap event named it (a spotting roll or a trigger).
    pub approached: bool,
    /// It was spotted.
    pub spotted: bool,
    /// It went off.
    pub sprung: bool,
    /// It was disarmed.
    pub disarmed: bool,
    /// Figures it caught this run.
    pub victims: u32,
    /// Each trigger's `event:outcome` id.
    pub outcomes: Vec<String>,
}

/// What befell one figure in one run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FigureRun {
    /// It arrived at its last waypoint.
    pub reached_goal: bool,
    /// Each harmful outcome suffered.
    pub hurt: Vec<String>,
    /// Moves lost: a move held counts 1, a move cut short the share of it not walked.
    pub moves_lost: f64,
    /// It died (`definitely_dead`).
    pub dead: bool,
    /// It was left apparently dead, or out of action by a Khemri hit.
    pub apparently_dead: bool,
}

/// Every event field [`summarize`] reads: all a play-test's runs log (see
/// [`crate::sim::log::keeping_only_fields`]). A key read and not listed here would never be found.
pub const SUMMARIZED_FIELDS: &[&str] = &[
    "allowance",
    "building",
    "distance",
    "injury",
    "material",
    "noise",
    "out_of_wounds",
    "reached_in2",
    "strike",
    "to",
    "trap",
    "wounds",
];

/// Whether an event hurt its subject, by the harm rule in the module docs: a Morval injury or
/// strike, a Khemri wound (read from the event's fields), or an outcome that is harm in itself
/// (a fall into a pit, a burn, death: its typed [`Harm`]).
fn is_harm(e: &LogEvent) -> bool {
    if e.system != "traps" && e.system != "fire" {
        return false;
    }
    let present = |k: &str| e.fields.get(k).is_some_and(|v| !v.is_null());
    e.meaning.harm != Harm::None
        || present("injury")
        || present("strike")
        || e.fields.get("wounds").and_then(Value::as_u64).is_some_and(|w| w > 0)
}

fn str_field<'a>(e: &'a LogEvent, key: &str) -> Option<&'a str> {
    e.fields.get(key).and_then(Value::as_str)
}

fn point_field(e: &LogEvent, key: &str) -> Option<(f32, f32)> {
    let v = e.fields.get(key)?.as_array()?;
    Some((v.first()?.as_f64()? as f32, v.get(1)?.as_f64()? as f32))
}

/// Reduce one run's log and end state to its summary.
pub fn summarize(seed: u64, scene: &Scene, log: &EventLog) -> RunSummary {
    let mut s = RunSummary { seed, ..Default::default() };
    // OSR scenes, and Morval scenes whose OSR encounter table brings wandering monsters.
    if scene.rules_family == crate::scene::osr::RulesFamily::Osr || !scene.osr.encounter_table.is_empty() {
        s.encounters = Some(EncounterRun::default());
    }
    for t in &scene.traps {
        s.traps.insert(t.name.clone(), TrapRun::default());
    }
    for f in &scene.figures {
        s.figures.insert(f.name.clone(), FigureRun::default());
    }
    for t in &scene.trails.trackers {
        s.trackers.insert(t.figure.clone(), TrackerRun { quarry: t.quarry.clone(), ..Default::default() });
    }
    let mut victims: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut positions: BTreeMap<String, (f32, f32)> =
        scene.figures.iter().map(|f| (f.name.clone(), f.position)).collect();
    for e in &log.events {
        if e.system == "movement" {
            if let Some(to) = point_field(e, "to") {
                positions.insert(e.subject.clone(), to);
            }
            if e.meaning.mark == Mark::Arrived
                && let Some(f) = s.figures.get_mut(&e.subject)
            {
                f.reached_goal = true;
            }
            if let (Some(allowance), Some(distance)) =
                (e.fields.get("allowance").and_then(Value::as_f64), e.fields.get("distance").and_then(Value::as_f64))
            {
                // A move cut short counts as the share of it lost (not the last move, which
                // simply ended at the goal).
                if e.meaning.mark != Mark::Arrived
                    && allowance > 0.0
                    && let Some(f) = s.figures.get_mut(&e.subject)
                {
                    f.moves_lost += ((allowance - distance) / allowance).clamp(0.0, 1.0);
                }
            }
            if e.meaning.mark == Mark::Held
                && let Some(f) = s.figures.get_mut(&e.subject)
            {
                f.moves_lost += 1.0;
            }
        }
        if e.system == "traps"
            && let Some(trap) = str_field(e, "trap")
        {
            let Some(t) = s.traps.get_mut(trap) else { continue };
            t.approached = true;
            if e.meaning.mark == Mark::Spotted {
                t.spotted = true;
            }
            if e.meaning.mark == Mark::Disarmed {
                t.disarmed = true;
            }
            if e.meaning.sprung != Sprung::NotATrigger {
                t.outcomes.push(format!("{}:{}", e.event, e.outcome));
                if e.meaning.sprung == Sprung::Sprung {
                    t.sprung = true;
                    victims.entry(trap.to_string()).or_default().insert(e.subject.clone());
                }
            }
        }
        // Harm to a figure, from any system.
        if let Some(f) = s.figures.get_mut(&e.subject) {
            if is_harm(e) {
                f.hurt.push(e.outcome.to_string());
                s.harm += 1;
                // Where: at the trap that did it, else where the figure stood.
                let trap_at =
                    str_field(e, "trap").and_then(|t| scene.traps.iter().find(|x| x.name == t)).map(|t| t.position);
                s.hurt_at.push(trap_at.or_else(|| positions.get(&e.subject).copied()).unwrap_or((0.0, 0.0)));
            }
            if e.meaning.harm == Harm::DefinitelyDead {
                f.dead = true;
                s.harm += 10;
            }
            // Khemri "out of action" (no Mordheim injury table in the sources) counts with
            // the apparently dead.
            if e.meaning.harm == Harm::ApparentlyDead
                || e.fields.get("out_of_wounds").and_then(Value::as_bool) == Some(true)
            {
                f.apparently_dead = true;
            }
        }
        if e.system == "fire" && e.event == "fire_burning" && e.fields.get("building").is_some_and(|b| !b.is_null()) {
            s.building_burnt = true;
        }
        match e.meaning.mark {
            Mark::RanOff => s.escapes.ran_off += 1,
            Mark::Recaptured => s.escapes.recaptured += 1,
            Mark::Escaped => s.escapes.escaped += 1,
            _ => {}
        }
        if let Some(osr) = &mut s.encounters {
            match e.meaning.mark {
                Mark::Encounter => osr.encounters += 1,
                Mark::PartySurprised => osr.party_surprised += 1,
                Mark::MonstersSurprised => osr.monsters_surprised += 1,
                Mark::BothSurprised => {
                    osr.party_surprised += 1;
                    osr.monsters_surprised += 1;
                }
                Mark::Routed => osr.routs += 1,
                _ => {}
            }
        }
        if e.meaning.mark == Mark::CaughtUp
            && let Some(t) = s.trackers.get_mut(&e.subject)
            && !t.caught_up
        {
            t.caught_up = true;
            t.caught_up_move = Some(e.move_number);
        }
        if e.system == "sleepers" && s.alarm.is_none() && e.meaning.mark == Mark::RaisesAlarm {
            s.alarm = Some(str_field(e, "noise").unwrap_or("unknown").to_string());
        }
    }
    for (trap, who) in victims {
        if let Some(t) = s.traps.get_mut(&trap) {
            t.victims = who.len() as u32;
        }
    }
    s.burnt_area = fire_area_from_log(log);
    s
}

/// Each objective of `scene`, judged by where the figures stood at the end of its move
/// (`standings`, by move); `None` for a move not in `standings`.
pub fn judge_objectives(scene: &Scene, standings: &BTreeMap<u32, Standing>) -> Vec<ObjectiveRun> {
    scene
        .objectives
        .iter()
        .map(|o| ObjectiveRun {
            name: o.name.clone(),
            by_move: o.by_move,
            met: standings.get(&o.by_move).map(|at| o.met_by(&scene.figures, at)),
        })
        .collect()
}

/// Play `moves` moves, noting where the figures stand at the end of each move an objective is
/// judged at that the run plays (a clock already at that move counts: the start is its end).
/// The moves are the same as one `step_moves(moves)`: only the reading stops in between.
fn play(sim: &mut Simulation, scene: &Scene, moves: u32) -> BTreeMap<u32, Standing> {
    let start = sim.moves_played();
    let last = start.saturating_add(moves);
    let judged: BTreeSet<u32> =
        scene.objectives.iter().map(|o| o.by_move).filter(|m| (start..=last).contains(m)).collect();
    let mut standings = BTreeMap::new();
    for m in judged {
        let to_go = m.saturating_sub(sim.moves_played());
        sim.step_moves(to_go);
        if sim.moves_played() != m {
            // The clock is full: the run ends short of this move.
            break;
        }
        standings.insert(m, sim.figure_positions());
    }
    let played = sim.moves_played().saturating_sub(start);
    sim.step_moves(moves.saturating_sub(played));
    standings
}

/// Play one run on `sim` (already holding the scene, seeded `seed`) and summarize it, with its
/// objectives, where the figures ended and what burnt.
fn play_and_summarize(sim: &mut Simulation, scene: &Scene, seed: u64, moves: u32) -> RunSummary {
    // The log is read for its summary and never written: its events keep only what that reads.
    crate::sim::log::keeping_only_fields(SUMMARIZED_FIELDS, || summarized_run(sim, scene, seed, moves))
}

/// [`play_and_summarize`] with the log keeping whatever fields this thread's log keeps.
fn summarized_run(sim: &mut Simulation, scene: &Scene, seed: u64, moves: u32) -> RunSummary {
    let standings = play(sim, scene, moves);
    // Read in place, not taken: the next restart empties the log and keeps its room.
    let mut summary = summarize(seed, scene, sim.log());
    summary.objectives = judge_objectives(scene, &standings);
    let at = sim.figure_positions();
    summary.ends = scene.figures.iter().map(|f| at.get(&f.name).copied()).collect();
    summary.burnt = burnt_cells(sim, scene);
    summary
}

/// The overlay cells the fire had reached by the end of the run (none when no fire was lit).
fn burnt_cells(sim: &Simulation, scene: &Scene) -> CellSet {
    let Some(front) = sim.world().get_resource::<crate::sim::fire::FireFront>() else { return CellSet::default() };
    match front.grid() {
        Some(fire) => CellSet::burnt(&OverlayGrid::for_scene(scene), fire, front.time()),
        None => CellSet::default(),
    }
}

/// One run exactly as [`run_all`] makes it: `moves` moves from `seed`, summarized with its
/// objectives. Replays any run of a play-test.
pub fn run_one(scene: &Scene, seed: u64, moves: u32) -> RunSummary {
    let mut sim = Simulation::unwatched(scene, seed);
    play_and_summarize(&mut sim, scene, seed, moves)
}

/// Run every run, on `threads` threads, calling `progress(done)` as runs finish: every run's
/// summary, in seed order. A play-test of many runs gathers them with [`run_and_tally`] instead,
/// which keeps counts, not runs.
pub fn run_all(
    scene: &Scene,
    runs: u32,
    moves: u32,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u32) + Sync),
) -> Vec<RunSummary> {
    let mut made = Vec::with_capacity(runs.min(MAX_RUNS) as usize);
    run_runs(scene, runs, moves, seed, threads, progress, &AtomicBool::new(false), &mut |run| made.push(run));
    made
}

/// What a play-test gathered: the report's counts and, when asked for, the heatmap's.
#[derive(Debug, Clone)]
pub struct Gathered {
    /// The report's counts ([`Tally::report`]).
    pub tally: Tally,
    /// The overlays' counts ([`OverlayTally::overlays`]), when asked for.
    pub overlays: Option<OverlayTally>,
}

/// A play-test as the CLI and the GM view make it: [`run_all`]'s runs, each counted into a
/// [`Tally`] (and an [`OverlayTally`] with `overlays`) in seed order as it is made, so memory
/// does not grow with the runs. Given up when `cancel` is set: no run is begun once that is
/// seen (as each run is made, and at least every 20 ms), the runs under way finish, and the
/// result is none unless every run was made. The flag is only read between runs, so the runs
/// made are [`run_all`]'s, run for run.
#[allow(clippy::too_many_arguments)]
pub fn run_and_tally(
    scene: &Scene,
    runs: u32,
    moves: u32,
    seed: u64,
    threads: usize,
    progress: &(dyn Fn(u32) + Sync),
    cancel: &AtomicBool,
    overlays: bool,
) -> Option<Gathered> {
    let mut gathered = Gathered { tally: Tally::default(), overlays: overlays.then(|| OverlayTally::new(scene)) };
    let made = run_runs(scene, runs, moves, seed, threads, progress, cancel, &mut |run| {
        gathered.tally.add(&run);
        if let Some(o) = &mut gathered.overlays {
            o.add(&run);
        }
    });
    (made == runs).then_some(gathered)
}

/// Area the fire reached (burning or spent) per material, from the fire's `region_burning`
/// events: the last figure logged for each region, summed by material.
fn fire_area_from_log(log: &EventLog) -> BTreeMap<String, f64> {
    let mut by_region: BTreeMap<&str, (&str, f64)> = BTreeMap::new();
    for e in log.events.iter().filter(|e| e.system == "fire" && e.event == "region_burning") {
        if let (Some(material), Some(reached)) =
            (str_field(e, "material"), e.fields.get("reached_in2").and_then(Value::as_f64))
        {
            by_region.insert(e.subject.as_str(), (material, reached));
        }
    }
    let mut area: BTreeMap<String, f64> = BTreeMap::new();
    for (material, reached) in by_region.into_values() {
        *area.entry(material.to_string()).or_default() += reached;
    }
    area
}

/// A share with its 95% Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Share {
    /// How many times it happened.
    pub count: u32,
    /// Out of how many trials.
    pub of: u32,
    /// `count / of`, from 0 to 1.
    pub share: f64,
    /// The interval's lower bound.
    pub low: f64,
    /// The interval's upper bound.
    pub high: f64,
}

/// The 95% Wilson score interval for `count` successes in `of` trials.
pub fn wilson(count: u32, of: u32) -> Share {
    if of == 0 {
        return Share { count, of, share: 0.0, low: 0.0, high: 0.0 };
    }
    let n = of as f64;
    let p = count as f64 / n;
    let z = 1.959_963_985;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * ((p * (1.0 - p) + z2 / (4.0 * n)) / n).sqrt() / (1.0 + z2 / n);
    Share { count, of, share: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
}

/// One trap over all runs.
#[derive(Debug, Clone, Serialize)]
pub struct TrapReport {
    /// The trap's name.
    pub name: String,
    /// Share of runs in which it was approached.
    pub approached: Share,
    /// Share of runs in which it was spotted.
    pub spotted: Share,
    /// Share of runs in which it was sprung.
    pub sprung: Share,
    /// Share of runs in which it was disarmed.
    pub disarmed: Share,
    /// Mean victims in the runs it was sprung.
    pub victims_per_sprung: f64,
    /// Each outcome's share of all its triggers.
    pub outcomes: BTreeMap<String, Share>,
}

/// One figure over all runs.
#[derive(Debug, Clone, Serialize)]
pub struct FigureReport {
    /// The figure's name.
    pub name: String,
    /// Share of runs in which it reached its goal.
    pub reached_goal: Share,
    /// Share of runs in which it was hurt.
    pub hurt: Share,
    /// Share of runs in which it was hurt by each outcome.
    pub hurt_by: BTreeMap<String, Share>,
    /// Mean moves lost per run.
    pub mean_moves_lost: f64,
    /// Share of runs in which it died.
    pub dead: Share,
    /// Share of runs in which it was left apparently dead.
    pub apparently_dead: Share,
}

/// One objective over all runs.
#[derive(Debug, Clone, Serialize)]
pub struct ObjectiveReport {
    /// The objective's name.
    pub name: String,
    /// The move at whose end it is judged.
    pub by_move: u32,
    /// Share of all runs that played that move.
    pub reached: Share,
    /// Share of the runs that played that move in which it was met.
    pub met: Share,
}

/// Escapes over all runs: the share of runs in which each happened at least once, and the mean
/// count a run.
#[derive(Debug, Clone, Serialize)]
pub struct EscapeReport {
    /// Runs in which a prisoner ran off.
    pub ran_off: Share,
    /// Runs in which a runaway was recaptured.
    pub recaptured: Share,
    /// Runs in which a runaway escaped.
    pub escaped: Share,
    /// Mean runaways a run.
    pub mean_ran_off: f64,
    /// Mean recaptures a run.
    pub mean_recaptured: f64,
    /// Mean escapes a run.
    pub mean_escaped: f64,
}

/// One tracker over all runs.
#[derive(Debug, Clone, Serialize)]
pub struct TrackerReport {
    /// The tracker's name.
    pub name: String,
    /// The quarry it was set on.
    pub quarry: String,
    /// Share of runs in which it caught up (ended a move within 1" of its quarry).
    pub caught_up: Share,
    /// Mean move of catching up, over the runs in which it did.
    pub mean_caught_up_move: Option<f64>,
}

/// OSR encounters over all runs: the share of runs with one, the mean a run, and each side's
/// surprises as a share of the encounters.
#[derive(Debug, Clone, Serialize)]
pub struct EncounterReport {
    /// Runs in which a wandering monster came.
    pub runs_with_encounter: Share,
    /// Mean encounters a run.
    pub mean_encounters: f64,
    /// Encounters in which the party was surprised, of all encounters.
    pub party_surprised: Share,
    /// Encounters in which the monsters were surprised, of all encounters.
    pub monsters_surprised: Share,
    /// Runs in which a monster or henchman routed (fled or surrendered).
    pub runs_with_rout: Share,
    /// Mean routs a run.
    pub mean_routs: f64,
}

/// Area burnt of one material over all runs, in square inches.
#[derive(Debug, Clone, Serialize)]
pub struct AreaReport {
    /// The material.
    pub material: String,
    /// Mean area burnt per run.
    pub mean: f64,
    /// The 10th percentile.
    pub p10: f64,
    /// The median.
    pub median: f64,
    /// The 90th percentile.
    pub p90: f64,
}

/// What a play-test found: the runs gathered, with their shares.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The scene's title, or its file path when it has none.
    pub scene: String,
    /// How many runs.
    pub runs: u32,
    /// Moves in each run.
    pub moves: u32,
    /// Seed of the first run; run `i` used `first_seed + i`.
    pub first_seed: u64,
    /// Each trap, in name order.
    pub traps: Vec<TrapReport>,
    /// Each figure, in name order.
    pub figures: Vec<FigureReport>,
    /// Each objective, in scene order.
    pub objectives: Vec<ObjectiveReport>,
    /// Each tracker, in name order.
    pub trackers: Vec<TrackerReport>,
    /// Area burnt per material, in material order.
    pub burnt_area: Vec<AreaReport>,
    /// Share of runs in which a building burnt.
    pub building_burnt: Share,
    /// Share of runs in which an alarm was raised.
    pub alarm_raised: Share,
    /// Share of runs in which the alarm was first raised by each noise.
    pub alarm_by: BTreeMap<String, Share>,
    /// Prisoners running off, recaptured and escaping.
    pub escapes: EscapeReport,
    /// OSR encounters, surprises and routs; left out for a scene with no OSR procedure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounters: Option<EncounterReport>,
    /// Seeds of notable runs, to replay: the most harm, the least, the median.
    pub worst_seed: Option<u64>,
    /// Seed of the run with the least harm.
    pub best_seed: Option<u64>,
    /// Seed of the run with the median harm.
    pub median_seed: Option<u64>,
}

/// Gather the runs (in seed order) into the report: [`Tally`] fed every run.
pub fn report(title: &str, runs: &[RunSummary], moves: u32, first_seed: u64) -> Report {
    let mut tally = Tally::default();
    for run in runs {
        tally.add(run);
    }
    tally.report(title, moves, first_seed)
}

/// A report's counts, added to run by run (in seed order), so a play-test keeps counts and not
/// its runs: its size grows with the scene (traps, figures, outcomes, distinct burnt areas,
/// distinct harms), never with the number of runs.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    runs: u32,
    /// Keyed by the first run's traps, figures, objectives and trackers, as the report is.
    traps: Vec<(String, TrapTally)>,
    figures: Vec<(String, FigureTally)>,
    objectives: Vec<(String, u32, u32, u32)>,
    trackers: Vec<(String, String, u32, u64, u32)>,
    /// Per material: how many runs burnt each area (keyed in `f64::total_cmp` order), and in
    /// how many runs the material appeared.
    burnt_area: BTreeMap<String, (BTreeMap<AreaKey, u32>, u32)>,
    building_burnt: u32,
    alarm_raised: u32,
    alarm_by: BTreeMap<String, u32>,
    escapes: [u32; 6],
    /// Runs with an OSR procedure, and the sums the report's encounter figures are made of.
    encounter_runs: u32,
    encounters: [u64; 6],
    /// Per harm: how many runs did it, the first and the last seed that did.
    harm: BTreeMap<u32, (u32, u64, u64)>,
}

#[derive(Debug, Clone, Default)]
struct TrapTally {
    approached: u32,
    spotted: u32,
    sprung: u32,
    disarmed: u32,
    victims: u32,
    outcomes: BTreeMap<String, u32>,
    per_event: BTreeMap<String, u32>,
}

#[derive(Debug, Clone, Default)]
struct FigureTally {
    reached_goal: u32,
    hurt: u32,
    hurt_by: BTreeMap<String, u32>,
    moves_lost: f64,
    dead: u32,
    apparently_dead: u32,
}

/// An area as a key ordered as `f64::total_cmp` orders areas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct AreaKey(i64);

impl AreaKey {
    fn of(v: f64) -> Self {
        let bits = v.to_bits() as i64;
        Self(bits ^ ((((bits >> 63) as u64) >> 1) as i64))
    }

    fn value(self) -> f64 {
        let bits = self.0 ^ ((((self.0 >> 63) as u64) >> 1) as i64);
        f64::from_bits(bits as u64)
    }
}

/// The sum `Iterator::sum` makes of floats: from −0.0, in order.
const FLOAT_SUM_START: f64 = -0.0;

impl Tally {
    /// Count one more run: the next in seed order.
    pub fn add(&mut self, r: &RunSummary) {
        if self.runs == 0 {
            self.traps = r.traps.keys().map(|k| (k.clone(), TrapTally::default())).collect();
            self.figures = r
                .figures
                .keys()
                .map(|k| (k.clone(), FigureTally { moves_lost: FLOAT_SUM_START, ..FigureTally::default() }))
                .collect();
            self.objectives = r.objectives.iter().map(|o| (o.name.clone(), o.by_move, 0, 0)).collect();
            self.trackers = r.trackers.iter().map(|(k, t)| (k.clone(), t.quarry.clone(), 0, 0, 0)).collect();
        }
        self.runs += 1;
        let yes = |b: bool| u32::from(b);
        for (name, t) in &mut self.traps {
            let Some(run) = r.traps.get(name) else { continue };
            t.approached += yes(run.approached);
            t.spotted += yes(run.spotted);
            t.sprung += yes(run.sprung);
            t.disarmed += yes(run.disarmed);
            t.victims += run.victims;
            // Each outcome's share of the triggers of its own event kind.
            for o in &run.outcomes {
                let event = o.split(':').next().unwrap_or("");
                *t.per_event.entry(event.to_string()).or_default() += 1;
                *t.outcomes.entry(o.clone()).or_default() += 1;
            }
        }
        for (name, f) in &mut self.figures {
            let Some(run) = r.figures.get(name) else {
                f.moves_lost += 0.0;
                continue;
            };
            f.reached_goal += yes(run.reached_goal);
            f.hurt += yes(!run.hurt.is_empty());
            let kinds: BTreeSet<&String> = run.hurt.iter().collect();
            for k in kinds {
                *f.hurt_by.entry(k.clone()).or_default() += 1;
            }
            f.moves_lost += run.moves_lost;
            f.dead += yes(run.dead);
            f.apparently_dead += yes(run.apparently_dead);
        }
        for (i, (_, _, reached, met)) in self.objectives.iter_mut().enumerate() {
            let m = r.objectives.get(i).and_then(|x| x.met);
            *reached += yes(m.is_some());
            *met += yes(m == Some(true));
        }
        for (name, _, caught_up, move_sum, moves) in &mut self.trackers {
            let Some(run) = r.trackers.get(name) else { continue };
            *caught_up += yes(run.caught_up);
            if let Some(m) = run.caught_up_move {
                *move_sum += u64::from(m);
                *moves += 1;
            }
        }
        for (material, &area) in &r.burnt_area {
            let (areas, runs) = self.burnt_area.entry(material.clone()).or_default();
            *areas.entry(AreaKey::of(area)).or_default() += 1;
            *runs += 1;
        }
        self.building_burnt += yes(r.building_burnt);
        if let Some(a) = &r.alarm {
            self.alarm_raised += 1;
            *self.alarm_by.entry(a.clone()).or_default() += 1;
        }
        let e = &r.escapes;
        for (sum, v) in self.escapes.iter_mut().zip([
            yes(e.ran_off > 0),
            yes(e.recaptured > 0),
            yes(e.escaped > 0),
            e.ran_off,
            e.recaptured,
            e.escaped,
        ]) {
            *sum += v;
        }
        if let Some(e) = r.encounters {
            self.encounter_runs += 1;
            for (sum, v) in self.encounters.iter_mut().zip([
                yes(e.encounters > 0),
                e.encounters,
                e.party_surprised,
                e.monsters_surprised,
                yes(e.routs > 0),
                e.routs,
            ]) {
                *sum += u64::from(v);
            }
        }
        let seen = self.harm.entry(r.harm).or_insert((0, r.seed, r.seed));
        seen.0 += 1;
        seen.1 = seen.1.min(r.seed);
        seen.2 = seen.2.max(r.seed);
    }

    /// The report of the runs counted so far.
    pub fn report(&self, title: &str, moves: u32, first_seed: u64) -> Report {
        let n = self.runs;
        let mean = |sum: u64| if n > 0 { sum as f64 / f64::from(n) } else { 0.0 };
        let traps = self
            .traps
            .iter()
            .map(|(name, t)| TrapReport {
                name: name.clone(),
                approached: wilson(t.approached, n),
                spotted: wilson(t.spotted, n),
                sprung: wilson(t.sprung, n),
                disarmed: wilson(t.disarmed, n),
                victims_per_sprung: if t.sprung > 0 { t.victims as f64 / t.sprung as f64 } else { 0.0 },
                outcomes: t
                    .outcomes
                    .iter()
                    .map(|(k, &c)| {
                        let of = t.per_event.get(k.split(':').next().unwrap_or("")).copied().unwrap_or(c);
                        (k.clone(), wilson(c, of))
                    })
                    .collect(),
            })
            .collect();
        let figures = self
            .figures
            .iter()
            .map(|(name, f)| FigureReport {
                name: name.clone(),
                reached_goal: wilson(f.reached_goal, n),
                hurt: wilson(f.hurt, n),
                hurt_by: f.hurt_by.iter().map(|(k, &c)| (k.clone(), wilson(c, n))).collect(),
                mean_moves_lost: if n > 0 { f.moves_lost / n as f64 } else { 0.0 },
                dead: wilson(f.dead, n),
                apparently_dead: wilson(f.apparently_dead, n),
            })
            .collect();
        let objectives = self
            .objectives
            .iter()
            .map(|(name, by_move, reached, met)| ObjectiveReport {
                name: name.clone(),
                by_move: *by_move,
                reached: wilson(*reached, n),
                met: wilson(*met, *reached),
            })
            .collect();
        let trackers = self
            .trackers
            .iter()
            .map(|(name, quarry, caught_up, move_sum, moves)| TrackerReport {
                name: name.clone(),
                quarry: quarry.clone(),
                caught_up: wilson(*caught_up, n),
                mean_caught_up_move: (*moves > 0).then(|| *move_sum as f64 / f64::from(*moves)),
            })
            .collect();
        let burnt_area = self
            .burnt_area
            .iter()
            .map(|(material, (areas, runs))| {
                // Runs in which the material did not burn count as 0.
                let mut sorted = areas.clone();
                *sorted.entry(AreaKey::of(0.0)).or_default() += n - runs;
                let at = |index: usize| {
                    let mut seen = 0usize;
                    for (key, &count) in &sorted {
                        seen += count as usize;
                        if index < seen {
                            return key.value();
                        }
                    }
                    0.0
                };
                let quantile = |q: f64| if n == 0 { 0.0 } else { at(((n - 1) as f64 * q).round() as usize) };
                let mut sum = FLOAT_SUM_START;
                for (key, &count) in &sorted {
                    for _ in 0..count {
                        sum += key.value();
                    }
                }
                AreaReport {
                    material: material.clone(),
                    mean: if n == 0 { 0.0 } else { sum / f64::from(n) },
                    p10: quantile(0.1),
                    median: quantile(0.5),
                    p90: quantile(0.9),
                }
            })
            .collect();
        let [ran_off, recaptured, escaped, ran_off_sum, recaptured_sum, escaped_sum] = self.escapes;
        let encounters = (self.encounter_runs > 0).then(|| {
            let [with_encounter, encounters, party, monsters, with_rout, routs] = self.encounters;
            let total = encounters as u32;
            EncounterReport {
                runs_with_encounter: wilson(with_encounter as u32, n),
                mean_encounters: mean(encounters),
                party_surprised: wilson(party as u32, total),
                monsters_surprised: wilson(monsters as u32, total),
                runs_with_rout: wilson(with_rout as u32, n),
                mean_routs: mean(routs),
            }
        });
        Report {
            scene: title.to_string(),
            runs: n,
            moves,
            first_seed,
            traps,
            figures,
            objectives,
            trackers,
            burnt_area,
            building_burnt: wilson(self.building_burnt, n),
            alarm_raised: wilson(self.alarm_raised, n),
            alarm_by: self.alarm_by.iter().map(|(k, &c)| (k.clone(), wilson(c, n))).collect(),
            escapes: EscapeReport {
                ran_off: wilson(ran_off, n),
                recaptured: wilson(recaptured, n),
                escaped: wilson(escaped, n),
                mean_ran_off: mean(u64::from(ran_off_sum)),
                mean_recaptured: mean(u64::from(recaptured_sum)),
                mean_escaped: mean(u64::from(escaped_sum)),
            },
            encounters,
            worst_seed: self.harm.last_key_value().map(|(_, &(_, _, last))| last),
            best_seed: self.harm.first_key_value().map(|(_, &(_, first, _))| first),
            median_seed: self.median_harm().and_then(|h| self.harm.get(&h)).map(|&(_, first, _)| first),
        }
    }

    /// The harm of the median run (the run at half the count, ordered by harm).
    fn median_harm(&self) -> Option<u32> {
        let half = self.runs / 2;
        let mut seen = 0;
        for (&harm, &(count, _, _)) in &self.harm {
            seen += count;
            if half < seen {
                return Some(harm);
            }
        }
        None
    }
}

fn pct(s: &Share) -> String {
    format!("{:5.1}% [{:4.1}–{:4.1}]", 100.0 * s.share, 100.0 * s.low, 100.0 * s.high)
}

/// The report as a readable table.
pub fn to_text(r: &Report) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{}: {} runs of {} moves, seeds {}..{}\n",
        r.scene,
        r.runs,
        r.moves,
        r.first_seed,
        r.first_seed + r.runs.saturating_sub(1) as u64
    ));
    out.push_str("Shares are of runs, with 95% confidence intervals.\n");
    if !r.traps.is_empty() {
        out.push_str(&format!(
            "\n{:<22} {:>22} {:>22} {:>22} {:>22} {:>8}\n",
            "trap", "approached", "spotted", "sprung", "disarmed", "victims"
        ));
        for t in &r.traps {
            out.push_str(&format!(
                "{:<22} {:>22} {:>22} {:>22} {:>22} {:>8.2}\n",
                t.name,
                pct(&t.approached),
                pct(&t.spotted),
                pct(&t.sprung),
                pct(&t.disarmed),
                t.victims_per_sprung
            ));
            for (o, s) in &t.outcomes {
                out.push_str(&format!("    {:<44} {} of {}\n", o, pct(s), s.of));
            }
        }
    }
    if !r.figures.is_empty() {
        out.push_str(&format!(
            "\n{:<22} {:>22} {:>22} {:>22} {:>22} {:>10}\n",
            "figure", "reached goal", "hurt", "dead", "apparently dead", "moves lost"
        ));
        for f in &r.figures {
            out.push_str(&format!(
                "{:<22} {:>22} {:>22} {:>22} {:>22} {:>10.1}\n",
                f.name,
                pct(&f.reached_goal),
                pct(&f.hurt),
                pct(&f.dead),
                pct(&f.apparently_dead),
                f.mean_moves_lost
            ));
            for (o, s) in &f.hurt_by {
                out.push_str(&format!("    {:<32} {}\n", o, pct(s)));
            }
        }
    }
    if !r.objectives.is_empty() {
        out.push_str(&format!(
            "\n{:<22} {:>7} {:>22} {:>8} {:>12}\n",
            "objective", "by move", "met", "of runs", "not reached"
        ));
        for o in &r.objectives {
            out.push_str(&format!(
                "{:<22} {:>7} {:>22} {:>8} {:>12}\n",
                o.name,
                o.by_move,
                pct(&o.met),
                o.met.of,
                o.reached.of - o.reached.count
            ));
        }
        if r.objectives.iter().any(|o| o.reached.count < o.reached.of) {
            out.push_str("    not reached: runs that ended before the move (more --moves), left out of met\n");
        }
    }
    if !r.trackers.is_empty() {
        out.push_str(&format!("\n{:<22} {:<22} {:>22} {:>10}\n", "tracker", "quarry", "caught up", "mean move"));
        for t in &r.trackers {
            let mean = t.mean_caught_up_move.map_or("-".to_string(), |m| format!("{m:.1}"));
            out.push_str(&format!("{:<22} {:<22} {:>22} {:>10}\n", t.name, t.quarry, pct(&t.caught_up), mean));
        }
    }
    if !r.burnt_area.is_empty() {
        out.push_str(&format!(
            "\n{:<22} {:>10} {:>10} {:>10} {:>10}   (square inches burnt)\n",
            "material", "mean", "p10", "median", "p90"
        ));
        for a in &r.burnt_area {
            out.push_str(&format!(
                "{:<22} {:>10.1} {:>10.1} {:>10.1} {:>10.1}\n",
                a.material, a.mean, a.p10, a.median, a.p90
            ));
        }
        out.push_str(&format!("a building burnt: {}\n", pct(&r.building_burnt)));
    }
    let e = &r.escapes;
    if e.ran_off.count > 0 {
        out.push_str(&format!(
            "\n{:<22} {:>22} {:>10}   (prisoners, docs/prisoners.md)\n",
            "escapes", "runs with one", "mean a run"
        ));
        for (what, share, mean) in [
            ("ran off", &e.ran_off, e.mean_ran_off),
            ("recaptured", &e.recaptured, e.mean_recaptured),
            ("escaped", &e.escaped, e.mean_escaped),
        ] {
            out.push_str(&format!("{:<22} {:>22} {:>10.2}\n", what, pct(share), mean));
        }
    }
    if let Some(o) = &r.encounters {
        out.push_str(&format!("\n{:<22} {:>22} {:>10}   (OSR, docs/osr.md)\n", "encounters", "share", "mean a run"));
        out.push_str(&format!(
            "{:<22} {:>22} {:>10.2}\n",
            "runs with one",
            pct(&o.runs_with_encounter),
            o.mean_encounters
        ));
        out.push_str(&format!("{:<22} {:>22} {:>10}\n", "party surprised", pct(&o.party_surprised), "of encounters"));
        out.push_str(&format!(
            "{:<22} {:>22} {:>10}\n",
            "monsters surprised",
            pct(&o.monsters_surprised),
            "of encounters"
        ));
        out.push_str(&format!("{:<22} {:>22} {:>10.2}\n", "runs with a rout", pct(&o.runs_with_rout), o.mean_routs));
    }
    out.push_str(&format!("\nalarm raised: {}\n", pct(&r.alarm_raised)));
    for (noise, s) in &r.alarm_by {
        out.push_str(&format!("    by {:<29} {}\n", noise, pct(s)));
    }
    if let (Some(w), Some(b), Some(m)) = (r.worst_seed, r.best_seed, r.median_seed) {
        out.push_str(&format!(
            "\nreplay: worst run seed {w}, best {b}, median {m} (tabula sim SCENE --seed N, or tabula open)\n"
        ));
    }
    out
}

/// The report as JSON, as `tabula playtest --json` and the GM view's Play-test panel write it:
/// the two write the same bytes for the same runs.
pub fn to_json(r: &Report) -> String {
    serde_json::to_string_pretty(r).unwrap_or_default()
}

/// The report's title for `scene` read from `path`: the scene's title, else the path as given
/// (`(unsaved scene)` for a scene with neither).
pub fn report_title(scene: &Scene, path: Option<&Path>) -> String {
    match path {
        _ if !scene.title.is_empty() => scene.title.clone(),
        Some(path) => path.display().to_string(),
        None => "(unsaved scene)".to_string(),
    }
}

/// The report as CSV: one row per measured share.
pub fn to_csv(r: &Report) -> String {
    let mut out = String::from("section,entity,measure,count,of,share,low95,high95\n");
    let mut row = |section: &str, entity: &str, measure: &str, s: &Share| {
        let q =
            |x: &str| if x.contains([',', '"']) { format!("\"{}\"", x.replace('"', "\"\"")) } else { x.to_string() };
        out.push_str(&format!(
            "{},{},{},{},{},{:.6},{:.6},{:.6}\n",
            section,
            q(entity),
            q(measure),
            s.count,
            s.of,
            s.share,
            s.low,
            s.high
        ));
    };
    for t in &r.traps {
        row("trap", &t.name, "approached", &t.approached);
        row("trap", &t.name, "spotted", &t.spotted);
        row("trap", &t.name, "sprung", &t.sprung);
        row("trap", &t.name, "disarmed", &t.disarmed);
        for (o, s) in &t.outcomes {
            row("trap_outcome", &t.name, o, s);
        }
    }
    for f in &r.figures {
        row("figure", &f.name, "reached_goal", &f.reached_goal);
        row("figure", &f.name, "hurt", &f.hurt);
        row("figure", &f.name, "dead", &f.dead);
        row("figure", &f.name, "apparently_dead", &f.apparently_dead);
        for (o, s) in &f.hurt_by {
            row("figure_hurt_by", &f.name, o, s);
        }
    }
    for o in &r.objectives {
        row("objective", &o.name, "reached", &o.reached);
        row("objective", &o.name, "met", &o.met);
    }
    for t in &r.trackers {
        row("tracker", &t.name, "caught_up", &t.caught_up);
    }
    row("fire", "", "building_burnt", &r.building_burnt);
    row("sleepers", "", "alarm_raised", &r.alarm_raised);
    row("prisoners", "", "ran_off", &r.escapes.ran_off);
    row("prisoners", "", "recaptured", &r.escapes.recaptured);
    row("prisoners", "", "escaped", &r.escapes.escaped);
    for (noise, s) in &r.alarm_by {
        row("sleepers_alarm_by", noise, "alarm_raised", s);
    }
    if let Some(o) = &r.encounters {
        row("encounters", "", "runs_with_encounter", &o.runs_with_encounter);
        row("encounters", "", "party_surprised", &o.party_surprised);
        row("encounters", "", "monsters_surprised", &o.monsters_surprised);
        row("encounters", "", "runs_with_rout", &o.runs_with_rout);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A play-test's runs log only [`SUMMARIZED_FIELDS`]: every example scene's runs summarize
    /// the same as runs that logged every field, and the lean logs did leave fields out.
    #[test]
    fn runs_logging_only_the_summarized_fields_summarize_as_whole_logs_do() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        let (mut scenes, mut left_out) = (0, 0);
        for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "ron")) {
            let scene = crate::scene::load_scene(path).unwrap();
            scenes += 1;
            for seed in 1..=3 {
                let mut whole = Simulation::unwatched(&scene, seed);
                let expected = summarized_run(&mut whole, &scene, seed, 25);
                let mut lean = Simulation::unwatched(&scene, seed);
                assert_eq!(play_and_summarize(&mut lean, &scene, seed, 25), expected, "{} seed {seed}", path.display());
                let (whole, lean) = (&whole.log().events, &lean.log().events);
                assert_eq!(whole.len(), lean.len(), "{}", path.display());
                for (w, l) in whole.iter().zip(lean) {
                    // Every summarized field as the whole log has it; anything else, as there too
                    // (fields put in other than by `field`, such as house rules, are kept).
                    assert!(SUMMARIZED_FIELDS.iter().all(|k| w.fields.get(k) == l.fields.get(k)));
                    assert!(l.fields.iter().all(|(k, v)| w.fields.get(k) == Some(v)));
                    assert_eq!((w.event, w.outcome, &w.subject, &w.rolls), (l.event, l.outcome, &l.subject, &l.rolls));
                    left_out += w.fields.len() - l.fields.len();
                }
            }
        }
        assert!(scenes >= 10 && left_out > 1000, "{scenes} scenes, {left_out} fields left out");
    }

    #[test]
    fn wilson_interval_known_values() {
        // 50 of 100: centre 0.5, half-width about 0.0962 (textbook value).
        let s = wilson(50, 100);
        assert!((s.low - 0.4038).abs() < 1e-3 && (s.high - 0.5962).abs() < 1e-3, "{s:?}");
        // 0 of 20: upper bound about 0.161.
        let s = wilson(0, 20);
        assert_eq!(s.low, 0.0);
        assert!((s.high - 0.1611).abs() < 1e-3, "{s:?}");
        assert_eq!(wilson(0, 0).share, 0.0);
    }

    /// A walker at 4" a move from (1, 3) east: (5, 3) after move 1, (9, 3) after 2, (13, 3)
    /// after 3; a watcher of another side stands still at (1, 1).
    fn walk(objectives: &str) -> Scene {
        crate::sim::testing::scene_from_str(&format!(
            "(version: 1, table: (width: 20, height: 6),
              figures: [(name: \"Walker\", position: (1, 3), move_rate: 4, path: [(19, 3)]),
                        (name: \"Watcher\", side: \"bandits\", position: (1, 1))],
              objectives: [{objectives}])"
        ))
    }

    #[test]
    fn an_objective_is_met_when_the_whole_side_is_inside_at_the_end_of_its_move() {
        let scene = walk(
            "(name: \"over by 3\", side: \"party\", area: Rect(min: (12, 0), max: (20, 6)), by_move: 3),
             (name: \"over by 2\", side: \"party\", area: Rect(min: (12, 0), max: (20, 6)), by_move: 2),
             (name: \"by 6\", side: \"party\", area: Rect(min: (12, 0), max: (20, 6)), by_move: 6),
             (name: \"hold the corner\", side: \"bandits\", area: Circle(center: (1, 1), radius: 1), by_move: 1)",
        );
        let r = run_one(&scene, 1, 4);
        let met: Vec<(&str, u32, Option<bool>)> =
            r.objectives.iter().map(|o| (o.name.as_str(), o.by_move, o.met)).collect();
        assert_eq!(
            met,
            [
                ("over by 3", 3, Some(true)),
                ("over by 2", 2, Some(false)),
                ("by 6", 6, None),
                ("hold the corner", 1, Some(true))
            ]
        );
        // Stepping in parts plays the same moves as one stretch: the log is the same.
        let whole = crate::sim::run_log(&scene, 1, 4);
        let mut summary = summarize(1, &scene, &whole);
        summary.objectives = r.objectives.clone();
        // Where the figures ended (read from the world, not the log): the walker at (17, 3) after
        // 4 moves, the watcher where it stood.
        let ended: Vec<Point> = r.ends.iter().flatten().copied().collect();
        assert_eq!(ended.len(), 2, "{:?}", r.ends);
        assert!((ended[0].0 - 17.0).abs() < 1e-3 && (ended[0].1 - 3.0).abs() < 1e-3, "{:?}", r.ends);
        assert_eq!(ended[1], (1.0, 1.0));
        summary.ends = r.ends.clone();
        assert!(r.burnt.is_empty(), "no fire");
        assert_eq!(summary, r);
        // The report: met of the runs that reached the move; the others counted apart.
        let runs = run_all(&scene, 3, 4, 1, 2, &|_| {});
        let rep = report("walk", &runs, 4, 1);
        let names: Vec<&str> = rep.objectives.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["over by 3", "over by 2", "by 6", "hold the corner"], "scene order");
        assert_eq!((rep.objectives[0].met.count, rep.objectives[0].met.of, rep.objectives[0].reached.count), (3, 3, 3));
        assert_eq!((rep.objectives[1].met.count, rep.objectives[1].met.of), (0, 3));
        assert_eq!(
            (rep.objectives[2].reached.count, rep.objectives[2].reached.of, rep.objectives[2].met.of),
            (0, 3, 0)
        );
        assert!(to_text(&rep).contains("not reached"));
        assert!(to_csv(&rep).contains("objective,over by 3,met,3,3,1.000000"));
    }

    #[test]
    fn a_side_is_inside_only_when_every_figure_of_it_is() {
        let scene = walk("(name: \"x\", side: \"party\", area: Rect(min: (0, 0), max: (2, 6)), by_move: 1)");
        let o = &scene.objectives[0];
        let at = |walker: Point| -> Standing {
            [("Walker".to_string(), walker), ("Watcher".to_string(), (19.0, 5.0))].into_iter().collect()
        };
        assert!(o.met_by(&scene.figures, &at((1.0, 3.0))), "the watcher is of another side");
        assert!(o.met_by(&scene.figures, &at((2.0, 6.0))), "the edge is inside");
        assert!(!o.met_by(&scene.figures, &at((2.5, 3.0))));
        assert!(!o.met_by(&scene.figures, &Standing::new()), "a figure not placed is not inside");
        let nobody = crate::scene::Objective { side: "nobody".into(), ..o.clone() };
        assert!(!nobody.met_by(&scene.figures, &at((1.0, 3.0))), "a side with no figure");
    }

    /// A cancelled play-test gives nothing; one not cancelled counts `run_all`'s runs.
    #[test]
    fn a_cancelled_play_test_gives_nothing_and_an_uncancelled_one_counts_run_all_s_runs() {
        let scene = walk("");
        let cancel = AtomicBool::new(false);
        let done = AtomicUsize::new(0);
        let count = |d: u32| {
            done.fetch_max(d as usize, Ordering::Relaxed);
        };
        let made =
            run_and_tally(&scene, 5, 4, 7, 2, &count, &cancel, false).map(|g| to_json(&g.tally.report("t", 4, 7)));
        assert_eq!(made, Some(to_json(&report("t", &run_all(&scene, 5, 4, 7, 3, &|_| {}), 4, 7))));
        assert_eq!(done.load(Ordering::Relaxed), 5, "progress counts every run");
        cancel.store(true, Ordering::Relaxed);
        assert!(run_and_tally(&scene, 5, 4, 7, 2, &|_| {}, &cancel, false).is_none());
    }

    #[test]
    fn the_report_is_titled_by_the_scene_else_its_path() {
        let mut scene = walk("");
        assert_eq!(report_title(&scene, Some(Path::new("scenes/walk.ron"))), "scenes/walk.ron");
        assert_eq!(report_title(&scene, None), "(unsaved scene)");
        scene.title = "A walk".into();
        assert_eq!(report_title(&scene, Some(Path::new("scenes/walk.ron"))), "A walk");
    }

    fn burnt(seed: u64, harm: u32, areas: &[(&str, f64)]) -> RunSummary {
        RunSummary {
            seed,
            harm,
            burnt_area: areas.iter().map(|&(m, a)| (m.to_string(), a)).collect(),
            ..RunSummary::default()
        }
    }

    /// Areas: mean and the nearest-rank quantiles of every run's area, a run in which the
    /// material did not burn counting 0; the notable runs by harm, the lowest seed on a tie.
    #[test]
    fn the_tally_s_quantiles_count_unburnt_runs_as_zero_and_name_runs_by_harm() {
        let runs = [
            burnt(10, 3, &[("brushwood", 3.0), ("straw", 8.0)]),
            burnt(11, 1, &[("brushwood", 1.0)]),
            burnt(12, 3, &[("brushwood", 5.0)]),
            burnt(13, 0, &[("brushwood", 2.0), ("straw", 0.5)]),
            burnt(14, 7, &[("brushwood", 4.0)]),
            burnt(15, 3, &[("brushwood", -0.0)]),
        ];
        let r = report("t", &runs, 20, 10);
        let brushwood = &r.burnt_area[0];
        assert_eq!(brushwood.material, "brushwood");
        // Sorted: -0, 1, 2, 3, 4, 5; ranks round(5 q): 1 → 1, 2 (2.5 rounds away) → 3, 5 → 5.
        assert_eq!((brushwood.p10, brushwood.median, brushwood.p90), (1.0, 3.0, 5.0));
        assert_eq!(brushwood.mean, 15.0 / 6.0);
        let straw = &r.burnt_area[1];
        // Sorted: 0, 0, 0, 0, 0.5, 8.
        assert_eq!((straw.p10, straw.median, straw.p90, straw.mean), (0.0, 0.0, 8.0, 8.5 / 6.0));
        // Harms in order: 0 (13), 1 (11), 3 (10, 12, 15), 7 (14); the run at 6 / 2 = 3 has harm 3.
        assert_eq!((r.best_seed, r.median_seed, r.worst_seed), (Some(13), Some(10), Some(14)));
        let none = report("t", &[], 20, 10);
        assert_eq!((none.best_seed, none.median_seed, none.worst_seed), (None, None, None));
    }

    #[test]
    fn area_keys_order_areas_as_total_cmp_does() {
        let v = [-1.5, -0.0, 0.0, 1e-300, 2.0, f64::INFINITY];
        for w in v.windows(2) {
            assert!(AreaKey::of(w[0]) < AreaKey::of(w[1]), "{} < {}", w[0], w[1]);
        }
        for x in v {
            assert_eq!(AreaKey::of(x).value().to_bits(), x.to_bits());
        }
    }
}
