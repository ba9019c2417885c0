//! Prisoners, runaways and berserkers through the simulation (000 "Guarding prisoners",
//! "Catching, runaways, and overpowering", "Berserking"): the escape dice with their factors,
//! the number who run against the text's distribution, chases and catches, bonds worked only
//! unsupervised, a berserker's rage, saving and continuing, and the example escort.

mod common;

use common::{chi_square, scene_from_str};
use std::path::Path;
use tabula::playtest::{report, run_all, run_one, to_text};
use tabula::scene::{RunStatus, Scene, load_scene, parse_scene, scene_to_ron};
use tabula::sim::log::LogEvent;
use tabula::sim::{EventLog, Run, Simulation, run, run_log};

/// Chi-square 99.9% critical value for 3 degrees of freedom.
const CHI_SQUARE_3_DF_999: f64 = 16.266;

fn events<'a>(log: &'a EventLog, event: &str) -> Vec<&'a LogEvent> {
    log.events.iter().filter(|e| e.system == "prisoners" && e.event == event).collect()
}

fn text<'a>(e: &'a LogEvent, key: &str) -> Option<&'a str> {
    e.fields.get(key).and_then(|v| v.as_str())
}

fn modifiers(e: &LogEvent, roll: usize) -> Vec<(String, i32)> {
    e.rolls[roll].modifiers.iter().map(|m| (m.reason.to_string(), m.value)).collect()
}

fn escort_scene() -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/prisoner-escort.ron"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// One guard walking east along a river with `prisoners` (figure entries, each walking east too).
fn escort(prisoners: &[(&str, &str)], sides_blocked: u8) -> Scene {
    let names: Vec<String> = prisoners.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    let figures: Vec<String> = prisoners
        .iter()
        .enumerate()
        .map(|(i, (n, extra))| {
            let y = 6.0 + i as f32;
            format!(
                "(name: \"{n}\", side: \"outlaws\", position: (4, {y}), bound: (hands: true), path: [(58, {y})]{extra})"
            )
        })
        .collect();
    scene_from_str(&format!(
        "(version: 1, table: (width: 60, height: 30),
          terrain: [(name: \"River\", material: water, shape: Rect(min: (0, 0), max: (60, 4)))],
          figures: [(name: \"Brand\", side: \"keep\", position: (6, 8), path: [(58, 8)],
                     guard: (prisoners: [{}], sides_blocked: {sides_blocked})), {}])",
        names.join(", "),
        figures.join(", ")
    ))
}

// ---- the escape dice ----

/// One guard, four men (a leader among them), a river along the way: one in excess, so the
/// escort rolls D10 + 1 (one side blocked) − 3 (leader present), logged with both factors.
#[test]
fn an_escort_with_a_prisoner_in_excess_rolls_with_its_factors() {
    let scene = escort(&[("Lord", ", prisoner_rank: leader"), ("A", ""), ("B", ""), ("C", "")], 1);
    let Run { log, .. } = run(&scene, 5, 1);
    let escorts = events(&log, "escort");
    assert_eq!(escorts.len(), 1, "{escorts:?}");
    assert_eq!(escorts[0].outcome, "in_excess");
    assert_eq!(escorts[0].fields.get("excess").and_then(|v| v.as_u64()), Some(1));
    assert_eq!(escorts[0].fields.get("secured").and_then(|v| v.as_u64()), Some(3));
    let rolls = events(&log, "escape_roll");
    assert!(!rolls.is_empty());
    let first = rolls[0];
    assert_eq!(first.subject, "Brand");
    assert_eq!(
        modifiers(first, 0),
        vec![("one side blocked by physical feature".to_string(), 1), ("leader present".to_string(), -3)]
    );
    assert_eq!(first.rolls[0].target, Some(0));
    // A 0− sends a prisoner running, named on the roll and in a `ran_off` event.
    for r in &rolls {
        let runs = r.rolls[0].total <= 0;
        assert_eq!(r.outcome, if runs { "runs_off" } else { "no_attempt" });
        assert_eq!(text(r, "runner").is_some(), runs);
    }
    let ran: Vec<&str> = rolls.iter().filter_map(|r| text(r, "runner")).collect();
    let ran_off: Vec<&str> = events(&log, "ran_off").iter().map(|e| e.subject.as_str()).collect();
    assert_eq!(ran, ran_off);
    // Three men: one guard holds them all; the escort is secure and rolls nothing.
    let scene = escort(&[("Lord", ", prisoner_rank: leader"), ("A", ""), ("B", "")], 1);
    let Run { log, .. } = run(&scene, 5, 1);
    assert_eq!(events(&log, "escort")[0].outcome, "secure");
    assert!(events(&log, "escape_roll").is_empty());
}

/// The number who run in the first move, over many seeds, against the distribution worked out
/// from the text (docs/prisoners.md "A move of escape dice"): one guard, five men, one an
/// officer, a river on one side, the default readings (the same excess prisoner rolls again
/// after a runaway; any prisoner still present runs, each as likely).
///
/// Two in excess (5 men, 3 a guard). Roll 1: D10 + 1 − 2 = face − 1, a runaway on faces 0–1
/// (20 %). None run: 0.8 × 0.8 = 0.64. Exactly one: the first roll runs (0.2) and, the runner
/// being the officer (1/5: the next roll is face + 1 − 1, runs on 0, 10 %) or a follower (4/5:
/// face + 1 − 2 − 1, runs on 0–2, 30 %), the dice again and the second excess roll both fail:
/// 0.2 × (1/5 × 0.9 × 0.9 + 4/5 × 0.7 × 0.7) = 0.1108; or the first fails and the second runs
/// and its dice again fails: 0.8 × 0.2 × (1/5 × 0.9 + 4/5 × 0.7) = 0.1184; 0.2292 in all. The
/// same enumeration gives two 0.09072 and three or more 0.04008.
#[test]
fn the_runaways_of_a_first_move_follow_the_text() {
    let scene = escort(&[("Officer", ", prisoner_rank: officer"), ("A", ""), ("B", ""), ("C", ""), ("D", "")], 1);
    let runs = run_all(&scene, 4000, 1, 19_000, 4, &|_| {});
    assert_eq!(runs.len(), 4000);
    let mut observed = [0u32; 4];
    for r in &runs {
        observed[(r.escapes.ran_off as usize).min(3)] += 1;
    }
    let expected = [0.64, 0.2292, 0.09072, 0.04008];
    let chi = chi_square(&observed, &expected);
    assert!(chi < CHI_SQUARE_3_DF_999, "chi-square {chi}: {observed:?} vs {expected:?}");
    // The report counts them.
    let rep = report("escort", &runs, 1, 19_000);
    let with_one = runs.iter().filter(|r| r.escapes.ran_off > 0).count() as u32;
    assert_eq!(rep.escapes.ran_off.count, with_one);
    assert!(to_text(&rep).contains("ran off"));
}

// ---- chases ----

/// A runaway already running west, his guard half an inch behind with Me +10 and a whip: the
/// guard runs 6" a round (double 6"), the bound runaway 4.5" (double −3", halved): within 1"
/// after round 1, caught and knocked down (at least 0 + 12 against at most 9 − 2), and in round
/// 2 the struggle gives control (12 against 9 − 2 − 2 − 1 at most).
#[test]
fn a_guard_runs_down_and_ties_a_runaway() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20), figures: [
           (name: \"Guard\", side: \"keep\", position: (20.5, 10), melee_factor: 10, whip: true,
            guard: (prisoners: [\"Runner\"])),
           (name: \"Runner\", side: \"outlaws\", position: (20, 10), bound: (hands: true),
            prisoner: (run: (status: fugitive, toward: (0, 10))))])",
    );
    let Run { log, end } = run(&scene, 1, 1);
    let catch = events(&log, "catch");
    assert_eq!(catch.len(), 1, "{catch:?}");
    assert_eq!((catch[0].outcome, catch[0].round), ("caught_knocked_down", Some(1)));
    assert_eq!(catch[0].rolls.len(), 2, "guard, then fugitive");
    assert!(modifiers(catch[0], 0).contains(&("using whip".to_string(), 2)));
    assert!(modifiers(catch[0], 1).contains(&("hands bound".to_string(), -2)));
    let struggle = events(&log, "struggle");
    assert_eq!(struggle.len(), 1);
    assert_eq!((struggle[0].outcome, struggle[0].round), ("gains_control", Some(2)));
    let fugitive = modifiers(struggle[0], 1);
    assert!(fugitive.contains(&("for being caught".to_string(), -1)), "{fugitive:?}");
    assert!(fugitive.contains(&("down".to_string(), -2)), "{fugitive:?}");
    assert_eq!(events(&log, "recaptured").len(), 1);
    let runner = &end.figures[1];
    assert!(runner.bound.hands && runner.prisoner.run.is_none());
    // Both ran this move: a fatigue point each.
    assert_eq!((end.figures[0].fatigue, runner.fatigue), (1, 1));
    let summary = run_one(&scene, 1, 1);
    assert_eq!((summary.escapes.recaptured, summary.escapes.escaped), (1, 0));
}

/// A runaway with no guard free to chase him reaches the table edge and is out of play.
#[test]
fn a_runaway_no_one_chases_escapes_off_the_table() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20), figures: [
           (name: \"Runner\", side: \"outlaws\", position: (9, 10), prisoner_rank: follower,
            prisoner: (run: (status: fugitive, toward: (0, 10))))])",
    );
    let Run { log, end } = run(&scene, 1, 2);
    assert_eq!(events(&log, "pursuit")[0].outcome, "no_guard_free");
    let escaped = events(&log, "escaped");
    assert_eq!(escaped.len(), 1);
    // 6" a round unbound: (3, 10) after round 1, the edge in round 2.
    assert_eq!((escaped[0].move_number, escaped[0].round), (1, Some(2)));
    let run = end.figures[0].prisoner.run.as_ref().expect("still recorded");
    assert_eq!(run.status, RunStatus::Escaped);
    assert_eq!(end.figures[0].position, (0.0, 10.0));
    assert_eq!(run_one(&scene, 1, 2).escapes.escaped, 1);
}

// ---- bonds ----

fn bonds_scene(guard_at: (f32, f32)) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 40, height: 20), figures: [
           (name: \"Guard\", side: \"keep\", position: ({}, {}), guard: (prisoners: [\"Officer\", \"Follower\"])),
           (name: \"Officer\", side: \"outlaws\", position: (5, 5), prisoner_rank: officer,
            bound: (hands: true, feet: true, gag: true)),
           (name: \"Follower\", side: \"outlaws\", position: (5, 6), bound: (hands: true))])",
        guard_at.0, guard_at.1
    ))
}

#[test]
fn bonds_are_worked_only_unsupervised_and_by_rank() {
    // A guard within 6": no one works his bonds.
    let log = run_log(&bonds_scene((8.0, 5.0)), 2, 10);
    assert!(events(&log, "bonds_roll").is_empty());
    // The guard 20" off: the officer works his bonds each move until free or given up; the
    // follower never does.
    let moves = 40;
    let Run { log, end } = run(&bonds_scene((30.0, 15.0)), 2, moves);
    let rolls = events(&log, "bonds_roll");
    assert!(!rolls.is_empty());
    assert!(rolls.iter().all(|e| e.subject == "Officer"));
    assert!(rolls.iter().all(|e| e.house_rule_paths().contains(&"prisoners.supervision_reach_in")));
    let mut loosenings = 0;
    for e in &rolls {
        let expected: Vec<(String, i32)> = match loosenings {
            0 => vec![],
            1 => vec![("one loosening".to_string(), 1)],
            n => vec![(format!("{n} loosenings"), n)],
        };
        assert_eq!(modifiers(e, 0), expected);
        let total = e.rolls[0].total;
        let want = if total >= 11 {
            "free"
        } else if total >= 8 {
            "loosened"
        } else if total >= 1 {
            "still_bound"
        } else {
            "gives_up"
        };
        assert_eq!(e.outcome, want);
        if want == "loosened" {
            loosenings += 1;
        }
    }
    let last = rolls.last().expect("a roll");
    let officer = &end.figures[1];
    match last.outcome {
        "free" if last.move_number < moves => {
            // Free hands: the feet, then the gag, one a round from the next move.
            assert!(!officer.bound.hands && !officer.bound.feet && !officer.bound.gag);
            let undone = events(&log, "binding_undone");
            let order: Vec<&str> = undone.iter().filter_map(|e| text(e, "binding")).collect();
            assert_eq!(order, ["feet", "gag"]);
            assert_eq!(undone[0].move_number, last.move_number + 1);
            assert_eq!((undone[0].round, undone[1].round), (Some(1), Some(2)));
        }
        "free" => assert!(!officer.bound.hands),
        "gives_up" => assert!(officer.prisoner.given_up && officer.bound.hands),
        other => panic!("{moves} moves end in free or gives up, not {other}"),
    }
}

// ---- berserkers ----

#[test]
fn a_berserker_builds_his_rage_then_charges_the_nearest_within_twelve_inches() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 30), figures: [
           (name: \"Berk\", side: \"outlaws\", position: (10, 10), berserker: (begin_rage: 1, exhaustion_point: 3)),
           (name: \"Far\", side: \"keep\", position: (10, 21)),
           (name: \"Near\", side: \"keep\", position: (18, 10)),
           (name: \"Friend\", side: \"outlaws\", position: (11, 10))])",
    );
    let Run { log, end } = run(&scene, 4, 5);
    let rage: Vec<(u32, &str)> = events(&log, "berserk").iter().map(|e| (e.move_number, e.outcome)).collect();
    assert_eq!(
        rage,
        [(1, "builds_rage"), (2, "charges"), (3, "charges"), (4, "collapses_exhausted")],
        "build (1 point), charge at a run (a point a move) until 3"
    );
    let charge = events(&log, "berserk")[1];
    assert_eq!(text(charge, "target"), Some("Near"));
    assert_eq!(charge.fields.get("melee_bonus").and_then(|v| v.as_i64()), Some(2));
    assert_eq!(charge.fields.get("contact").and_then(|v| v.as_bool()), Some(true));
    assert_eq!(charge.fields.get("ignores_orders_and_morale").and_then(|v| v.as_bool()), Some(true));
    assert!(!charge.house_rule_paths().contains(&"prisoners.berserk_exhaustion_point"), "his own point");
    let berk = &end.figures[0];
    assert_eq!(berk.position, (17.5, 10.0), "half an inch short of Near");
    assert_eq!(berk.fatigue, 3);
    assert_eq!(berk.berserker.as_ref().map(|b| b.state), Some(tabula::rules::prisoners::BerserkState::Collapsed));
    // No enemy within 12": he rages where he stands (the default reading).
    let alone = scene_from_str(
        "(version: 1, table: (width: 40, height: 30), figures: [
           (name: \"Berk\", side: \"outlaws\", position: (10, 10), berserker: (begin_rage: 1)),
           (name: \"Far\", side: \"keep\", position: (10, 22.5))])",
    );
    let log = run_log(&alone, 4, 2);
    let rage = events(&log, "berserk");
    assert_eq!(rage[1].outcome, "rages_without_enemy");
    assert!(rage[1].house_rule_paths().contains(&"prisoners.berserk_without_enemy"));
}

// ---- the example escort, saving and continuing ----

#[test]
fn the_escort_scene_runs_headless_deterministically() {
    let scene = escort_scene();
    let a = run_log(&scene, 19, 12).to_json_lines();
    let b = run_log(&scene, 19, 12).to_json_lines();
    assert_eq!(a, b, "same seed, same log bytes");
    assert!(a.contains("\"event\":\"escort\""));
    assert!(a.contains("\"event\":\"berserk\""));
    // Over many seeds the escort loses prisoners, and the report counts them.
    let runs = run_all(&scene, 40, 12, 1, 2, &|_| {});
    let rep = report("escort", &runs, 12, 1);
    assert!(rep.escapes.ran_off.count > 0, "{:?}", rep.escapes);
}

#[test]
fn a_saved_escort_keeps_every_field_and_continues_identically() {
    let scene = escort_scene();
    let whole = run_log(&scene, 23, 10);
    let mut sim = Simulation::new(&scene, 23);
    sim.step_moves(5);
    let first = sim.take_log();
    let saved = sim.scene_now().expect("a scene");
    let text = scene_to_ron(&saved).expect("saves");
    let back = parse_scene(&text, Path::new("saved.ron")).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, saved);
    let mut resumed = Simulation::new(&back, 23);
    resumed.step_moves(5);
    let mut joined = first.events;
    joined.extend(resumed.take_log().events);
    assert_eq!(joined, whole.events);
    // The example itself round-trips.
    let again = parse_scene(&scene_to_ron(&scene).expect("saves"), Path::new("x.ron")).expect("loads");
    assert_eq!(again, scene);
}

// ---- fatigue from running ----

/// RULES-NOTES "Time and movement": a figure walking its path at a run gains a fatigue point each
/// move it moves, logged on its `moved` event; at a walk, or standing, none.
#[test]
fn running_along_a_path_costs_a_fatigue_point_a_move() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 60, height: 20),
          figures: [(name: \"Runner\", position: (1, 5), gait: running, path: [(30, 5)]),
                    (name: \"Walker\", position: (1, 15), path: [(59, 15)]),
                    (name: \"Stander\", position: (50, 5), gait: running)])",
    );
    let Run { log, end } = run(&scene, 1, 3);
    let fatigue = |name: &str| end.figures.iter().find(|f| f.name == name).map(|f| f.fatigue);
    // 12" a move at a run: 29" takes three moves, each one costing a point.
    assert_eq!(fatigue("Runner"), Some(3));
    assert_eq!(fatigue("Walker"), Some(0));
    assert_eq!(fatigue("Stander"), Some(0));
    let moved = |who: &str| -> Vec<&LogEvent> {
        log.events.iter().filter(|e| e.system == "movement" && e.event == "moved" && e.subject == who).collect()
    };
    let gained: Vec<(u32, Option<u64>)> =
        moved("Runner").iter().map(|e| (e.move_number, e.fields.get("fatigue").and_then(|v| v.as_u64()))).collect();
    assert_eq!(gained, vec![(1, Some(1)), (2, Some(2)), (3, Some(3))]);
    assert!(moved("Walker").iter().all(|e| e.fields.get("fatigue").is_none()));
}
