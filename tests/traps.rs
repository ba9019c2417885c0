//! Traps through the simulation: for each kind, thousands of figures cross one trap each (one
//! lane per figure, lanes 4" apart so no figure is near another's trap), over fixed seeds, and
//! the outcome frequencies are compared with the distribution worked out by hand from the text
//! (000 "Characters and Traps", 002 "Traps"). Then the table mechanics: swept paths, stopping,
//! own side, spotted traps, wounds, flames, round trips.

mod common;

use common::{chi_square, scene_from_str};
use std::collections::BTreeMap;
use tabula::scene::Scene;
use tabula::sim::EventLog;
use tabula::sim::Simulation;
use tabula::sim::traps::{KhemriCounter, TrapFlame};
use tabula::sim::world::{Conditions, TablePosition, Waypoints};
use tabula::sim::{Run, run};

const LANES: usize = 240;
const SEEDS: u64 = 12;

/// A scene of `LANES` lanes: in lane `i` (y = 4i + 2) a figure walks from x = 1 along `path_x`
/// and a trap stands near x = 5. `figure` and `trap(y)` give the rest of each entity's fields
/// (the trap's position included).
fn lanes(head: &str, figure: &str, path_x: &[f32], trap: impl Fn(f32) -> String) -> Scene {
    let height = 4 * LANES + 4;
    let mut figures = String::new();
    let mut traps = String::new();
    for i in 0..LANES {
        let y = (4 * i + 2) as f32;
        let path: Vec<String> = path_x.iter().map(|x| format!("({x}, {y})")).collect();
        figures.push_str(&format!("(name: \"f{i}\", position: (1, {y}), path: [{}], {figure}),\n", path.join(", ")));
        traps.push_str(&format!("(name: \"t{i}\", {}),\n", trap(y)));
    }
    scene_from_str(&format!(
        "(version: 1, table: (width: 30, height: {height}), {head} figures: [{figures}], traps: [{traps}])"
    ))
}

/// Outcome counts of `event` over `SEEDS` seeds of `moves` moves.
fn outcomes(scene: &Scene, moves: u32, event: &str) -> (BTreeMap<String, u32>, u32) {
    let mut counts = BTreeMap::new();
    let mut n = 0;
    for seed in 0..SEEDS {
        let Run { log, .. } = run(scene, 1000 + seed, moves);
        for e in log.events.iter().filter(|e| e.event == event) {
            *counts.entry(e.outcome.to_string()).or_insert(0) += 1;
            n += 1;
        }
    }
    (counts, n)
}

/// Each outcome's count within 4.5 standard deviations of the expected (fixed seeds: the test
/// is deterministic; the tolerance is what a correct implementation needs).
fn assert_distribution(counts: &BTreeMap<String, u32>, n: u32, expected: &[(&str, f64)]) {
    let total: f64 = expected.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9, "expected probabilities sum to {total}");
    for (id, p) in expected {
        let got = f64::from(counts.get(*id).copied().unwrap_or(0));
        let mean = f64::from(n) * p;
        let sd = (f64::from(n) * p * (1.0 - p)).sqrt();
        assert!(
            (got - mean).abs() <= 4.5 * sd + 1.0,
            "{id}: {got} of {n}, expected {mean:.0} ± {:.0}: {counts:?}",
            4.5 * sd
        );
    }
    let known: u32 = expected.iter().map(|(id, _)| counts.get(*id).copied().unwrap_or(0)).sum();
    assert_eq!(known, n, "outcomes outside the table: {counts:?}");
}

/// No spotting: in pitch black (DDD −3), plate (−2) and moving 10"+ (−2), a D6 never reaches
/// any concealment target.
const UNSEEN: &str = "lighting: \"DDD\",";

#[test]
fn trip_cord_bands() {
    // A runner at 12" a move (+2), agility 0: total = D10 (0–9) + 2, so 2 (face 0) 10%, 3–4
    // 20%, 5–6 20%, 7–8 20%, 9–10 20%, 11 (face 9) 10%.
    let scene = lanes(UNSEEN, "move_rate: Some(12), armour: plate, agility: Some(0)", &[25.0], |y| {
        format!("kind: trip_cord(to: (5, {})), position: (5, {}), concealment: Some(LC)", y + 0.5, y - 0.5)
    });
    let (counts, n) = outcomes(&scene, 1, "trip_cord");
    assert_eq!(n, LANES as u32 * SEEDS as u32, "every runner springs the cord it crosses");
    assert_distribution(
        &counts,
        n,
        &[
            ("break_cord", 0.1),
            ("break_cord_cursing", 0.2),
            ("fall_strained_ankle", 0.2),
            ("fall_sprained_ankle", 0.2),
            ("faint_broken_ankle", 0.2),
            ("faint_broken_leg", 0.1),
        ],
    );
}

#[test]
fn spotting_against_concealment_and_light_at_the_trap() {
    // A cautious clothed walker (+1, 5" a move) at an LC cord in daylight: D6 + 1 ≥ 4, 4/6.
    let cord =
        |y: f32| format!("kind: trip_cord(to: (5, {})), position: (5, {}), concealment: Some(LC)", y + 0.5, y - 0.5);
    let scene = lanes("", "gait: cautious", &[25.0], cord);
    let (counts, n) = outcomes(&scene, 1, "spot_check");
    assert_distribution(&counts, n, &[("spotted", 4.0 / 6.0), ("not_spotted", 2.0 / 6.0)]);
    // A spotted trap is revealed and not sprung: only the unspotted spring their cords.
    let (sprung, m) = outcomes(&scene, 1, "trip_cord");
    assert_eq!(m, counts["not_spotted"], "{sprung:?}");

    // A normal walker at an NC pit in gloom (D/L −1, house rule): D6 − 1 ≥ 5, 1/6.
    let pit = |y: f32| format!("kind: pit(depth: 1, bottom: earth), concealment: Some(NC), position: (5, {y})");
    let scene = lanes("lighting: \"D/L\",", "", &[25.0], pit);
    let (counts, n) = outcomes(&scene, 1, "spot_check");
    assert_distribution(&counts, n, &[("spotted", 1.0 / 6.0), ("not_spotted", 5.0 / 6.0)]);

    // A lantern over every trap lifts gloom two steps to daylight: D6 ≥ 5, 2/6.
    let lights: String =
        (0..LANES).map(|i| format!("(name: \"lamp{i}\", position: (5, {}), range: 2.5),", 4 * i + 2)).collect();
    let scene = lanes(&format!("lighting: \"D/L\", lights: [{lights}],"), "", &[25.0], pit);
    let (counts, n) = outcomes(&scene, 1, "spot_check");
    assert_distribution(&counts, n, &[("spotted", 2.0 / 6.0), ("not_spotted", 4.0 / 6.0)]);
}

#[test]
fn specimen_pit_bands() {
    // Plate walker (5" a move, no speed factor), agility 0: total = D10 (0–9). 9+ 10%, 7–8
    // 20%, 6 10%, 5 10%, 4 10%, 3 10%, 2− 30%.
    let scene = lanes(UNSEEN, "armour: plate, agility: Some(0)", &[25.0], |y| {
        format!("kind: pit(depth: 2, bottom: rocky), radius: 1, position: (5, {y})")
    });
    let (counts, n) = outcomes(&scene, 1, "pit");
    assert_eq!(n, LANES as u32 * SEEDS as u32);
    assert_distribution(
        &counts,
        n,
        &[
            ("jump_over", 0.1),
            ("jump_back", 0.2),
            ("hanging_on_far_edge", 0.1),
            ("hanging_on_near_edge", 0.1),
            ("retarded_fall_minus_two", 0.1),
            ("retarded_fall_minus_one", 0.1),
            ("fall_unimpeded", 0.3),
        ],
    );
    // Falls: D10 + pit strike factor (rocky −3, one extra inch +1) + retarded fall.
    let Run { log, end } = run(&scene, 5, 1);
    for e in log.events.iter().filter(|e| e.event == "pit") {
        let fig = end.figures.iter().find(|f| f.name == e.subject).unwrap();
        match e.outcome {
            "fall_unimpeded" | "retarded_fall_minus_one" | "retarded_fall_minus_two" => {
                let adjust = match e.outcome {
                    "retarded_fall_minus_two" => -2,
                    "retarded_fall_minus_one" => -1,
                    _ => 0,
                };
                let strike = &e.rolls[1];
                assert_eq!(strike.total, i32::from(strike.faces[0]) - 3 + 1 + adjust, "{e:?}");
                assert!(fig.conditions.iter().any(|c| c.immobile && c.name.starts_with("in pit")), "{fig:?}");
                assert_eq!(fig.position.0, 5.0, "in the pit");
            }
            "hanging_on_far_edge" => {
                assert!(fig.conditions.iter().any(|c| c.immobile && c.name.starts_with("hanging on far")))
            }
            "hanging_on_near_edge" => assert!(fig.position.0 < 5.0),
            "jump_over" => assert!(fig.position.0 > 5.99, "jumped over and walked on: {fig:?}"),
            "jump_back" => assert!(fig.position.0 <= 4.0 + 1e-3, "{fig:?}"),
            other => panic!("{other}"),
        }
    }
}

#[test]
fn loop_bands_and_its_noises() {
    // Agility 0, 6" walk: D10. 8+ 20%, 6–7 20%, 4–5 20%, 2–3 20%, 1− 20%. Loops catch friends.
    let scene = lanes(UNSEEN, "armour: plate, agility: Some(0), side: \"hunters\"", &[25.0], |y| {
        format!("kind: loop, side: Some(\"hunters\"), position: (5, {y})")
    });
    let (counts, n) = outcomes(&scene, 1, "loop");
    assert_eq!(n, LANES as u32 * SEEDS as u32, "friends are caught by loops too");
    assert_distribution(
        &counts,
        n,
        &[
            ("sprung_not_caught", 0.2),
            ("missed_not_sprung", 0.2),
            ("caught_keeps_items", 0.2),
            ("caught_cursing", 0.2),
            ("caught_screaming", 0.2),
        ],
    );
    let Run { log, .. } = run(&scene, 3, 1);
    let noises: Vec<_> = log.events.iter().filter(|e| e.event == "noise_made").collect();
    let loud = log.events.iter().filter(|e| e.event == "loop" && e.outcome.starts_with("caught_")).count()
        - log.events.iter().filter(|e| e.event == "loop" && e.outcome == "caught_keeps_items").count();
    assert_eq!(noises.len(), loud);
    for e in noises {
        let heard = e.fields["heard_to"].as_f64().unwrap();
        assert!(heard == 8.0 && e.outcome == "cursing" || heard == 18.0 && e.outcome == "scream", "{e:?}");
        // Made in the round the victim met the loop.
        let met = |l: &&tabula::sim::LogEvent| l.event == "loop" && l.subject == e.subject;
        assert!(log.events.iter().filter(met).any(|l| l.fields["in_round"] == e.fields["round"]), "{e:?}");
    }
}

#[test]
fn treadle_silent_alarm() {
    // Clothed 6" walker: the silent alarm is D6 + 0, realised on 6+: 1/6.
    let scene = lanes(UNSEEN, "", &[25.0], |y| {
        format!("kind: treadle(payload: (kind: silent_alarm)), reusable: true, position: (5, {y})")
    });
    let (counts, n) = outcomes(&scene, 1, "payload");
    assert_eq!(n, LANES as u32 * SEEDS as u32);
    assert_distribution(&counts, n, &[("victim_realises", 1.0 / 6.0), ("unnoticed", 5.0 / 6.0)]);
}

#[test]
fn leydonic_strikes_harder_through_metal_and_recharges() {
    // D10 + 3 + 2 (medium armour is metal): 5..14, each 10%.
    let scene = lanes(UNSEEN, "armour: medium", &[25.0], |y| {
        format!("kind: leydonic(strike: 3, recharge_moves: 10), position: (5, {y})")
    });
    let (counts, n) = outcomes(&scene, 1, "leydonic");
    assert_eq!(counts.get("discharged").copied(), Some(n));
    let mut totals = BTreeMap::new();
    for seed in 0..SEEDS {
        let Run { log, .. } = run(&scene, 1000 + seed, 1);
        for e in log.events.iter().filter(|e| e.event == "leydonic") {
            *totals.entry(e.fields["strike"].to_string()).or_insert(0u32) += 1;
        }
    }
    let expected: Vec<(String, f64)> = (5..=14).map(|t| (t.to_string(), 0.1)).collect();
    let expected: Vec<(&str, f64)> = expected.iter().map(|(s, p)| (s.as_str(), *p)).collect();
    assert_distribution(&totals, n, &expected);

    // Two figures one after the other: the second finds it discharged until it recharges.
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 10), figures: [
            (name: \"first\", position: (1, 5), path: [(30, 5)]),
            (name: \"second\", position: (1, 6), path: [(1, 5), (30, 5)]),
          ], traps: [(name: \"jar\", kind: leydonic(strike: 0, recharge_moves: 10), position: (5, 5))])",
    );
    let Run { log, end } = run(&scene, 1, 3);
    let out: Vec<_> =
        log.events.iter().filter(|e| e.event == "leydonic").map(|e| (e.subject.as_str(), e.outcome)).collect();
    assert_eq!(out, [("first", "discharged"), ("second", "not_charged")]);
    assert!(matches!(end.traps[0].kind, tabula::scene::TrapKind::Leydonic { discharged_at_move: Some(1), .. }));
}

#[test]
fn khemri_initiative_and_simple_hits() {
    // I 4: D6 ≤ 4 avoids, 4/6. A simple trap is S3 on T3 (4+ to wound), no save: 1/2 wounds.
    let scene = lanes("", "mordheim: (ws: 3, s: 3, t: 3, w: 2, i: 4)", &[25.0], |y| {
        format!("kind: khemri(drawn: Some(simple)), side: Some(\"tomb\"), position: (5, {y})")
    });
    let scene = Scene { rules: with_fixed_counters(scene.rules.clone()), ..scene };
    let (counts, n) = outcomes(&scene, 1, "khemri_crossing");
    assert_eq!(n, LANES as u32 * SEEDS as u32);
    assert_distribution(&counts, n, &[("avoided", 4.0 / 6.0), ("triggered", 2.0 / 6.0)]);
    let mut wounded = BTreeMap::new();
    let mut m = 0;
    for seed in 0..SEEDS {
        let Run { log, end } = run(&scene, 1000 + seed, 1);
        for e in log.events.iter().filter(|e| e.event == "khemri_trap") {
            assert_eq!(e.outcome, "simple");
            let w = e.fields["wounds"].as_i64().unwrap();
            *wounded.entry(if w == 1 { "wounded" } else { "no_wound" }.to_string()).or_insert(0) += 1;
            m += 1;
            let fig = end.figures.iter().find(|f| f.name == e.subject).unwrap();
            assert_eq!(i64::from(fig.mordheim.unwrap().w), 2 - w, "wounds come off the figure and round-trip");
        }
    }
    assert_distribution(&wounded, m, &[("wounded", 0.5), ("no_wound", 0.5)]);
}

fn with_fixed_counters(mut rules: tabula::scene::RulesSettings) -> tabula::scene::RulesSettings {
    rules.traps.khemri.traps_per_player = tabula::rules::khemri_traps::TrapsPerPlayer::Fixed(10_000);
    rules
}

#[test]
fn khemri_complex_table() {
    // I 0 never passes, so every crossing triggers. The table is 2D6: 2 Boulder 1/36, 3–4 Pit
    // 5/36, 5–6 Arrows 9/36, 7 Blades 6/36, 8–9 Gas 9/36, 10–11 Fire 5/36, 12 Walls 1/36.
    let scene = lanes("", "mordheim: (ws: 3, s: 3, t: 3, w: 9, i: 0)", &[25.0], |y| {
        format!("kind: khemri(drawn: Some(complex)), position: (5, {y})")
    });
    let scene = Scene { rules: with_fixed_counters(scene.rules.clone()), ..scene };
    let (counts, n) = outcomes(&scene, 1, "khemri_trap");
    assert_eq!(n, LANES as u32 * SEEDS as u32);
    let p = |k: f64| k / 36.0;
    assert_distribution(
        &counts,
        n,
        &[
            ("boulder", p(1.0)),
            ("pit", p(5.0)),
            ("arrows", p(9.0)),
            ("swinging_blades", p(6.0)),
            ("poison_gas", p(9.0)),
            ("fire_trap", p(5.0)),
            ("collapsing_walls", p(1.0)),
        ],
    );
}

#[test]
fn khemri_deck_deals_three_simple_to_one_complex_to_one_dud() {
    let mut counts = BTreeMap::new();
    let n = 3000;
    let scene = scene_from_str(
        "(version: 1, table: (width: 10, height: 10), traps: [(name: \"c\", kind: khemri(), position: (5, 5))])",
    );
    for seed in 0..n {
        let mut app = Simulation::new(&scene, seed);
        let world = app.world_mut();
        let counter = world.query::<&KhemriCounter>().single(world).unwrap().counter.trap;
        *counts.entry(counter.id().to_string()).or_insert(0) += 1;
    }
    assert_distribution(&counts, n as u32, &[("simple", 0.6), ("complex", 0.2), ("dud", 0.2)]);
}

// ---------------------------------------------------------------------------------------------
// Table mechanics

fn events<'a>(log: &'a EventLog, event: &str) -> Vec<&'a tabula::sim::LogEvent> {
    log.events.iter().filter(|e| e.event == event).collect()
}

#[test]
fn a_runner_springs_a_cord_he_crosses_without_stopping() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 10), lighting: \"DDD\", figures: [
            (name: \"runner\", position: (1, 5), gait: running, armour: plate, agility: Some(-5), path: [(30, 5)]),
            (name: \"short\", position: (1, 8), path: [(4, 8)]),
          ], traps: [
            (name: \"cord\", kind: trip_cord(to: (10, 6)), position: (10, 4), concealment: Some(LC)),
            (name: \"cord2\", kind: trip_cord(to: (10, 9)), position: (10, 7), concealment: Some(LC)),
          ])",
    );
    let Run { log, end } = run(&scene, 2, 1);
    let cords = events(&log, "trip_cord");
    assert_eq!(cords.len(), 1, "{cords:?}");
    assert_eq!(cords[0].subject, "runner");
    // Agility −5 makes the total at least 5 + 1: he falls at the cord and his move ends there.
    let runner = &end.figures[0];
    assert!((runner.position.0 - 10.0).abs() < 1e-2, "{runner:?}");
    assert_eq!(runner.path, vec![(30.0, 5.0)], "the waypoint he had not reached is kept");
    assert!(runner.conditions.iter().any(|c| c.move_penalty >= 2.0), "{:?}", runner.conditions);
    assert!(!end.traps[0].armed, "a cord works for one round only");
    assert!(end.traps[1].armed, "the walker stopped short of the other cord");
}

#[test]
fn a_caught_figure_stops_at_the_trap_and_keeps_its_path() {
    // Agility 10: the loop total is at most −1, caught screaming.
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 10), lighting: \"DDD\", figures: [
            (name: \"walker\", position: (1, 5), agility: Some(10), armour: plate, path: [(5, 5), (8, 5), (8, 9)]),
          ], traps: [(name: \"noose\", kind: loop, position: (3, 5))])",
    );
    let mut app = Simulation::new(&scene, 4);
    app.step_moves(1);
    let world = app.world_mut();
    let (p, w, c) = world.query::<(&TablePosition, &Waypoints, &Conditions)>().single(world).unwrap();
    assert!((p.0.x - 3.0).abs() < 1e-3, "{:?}", p.0);
    let path: Vec<(f32, f32)> = w.0.iter().map(|v| (v.x, v.y)).collect();
    assert_eq!(path, [(5.0, 5.0), (8.0, 5.0), (8.0, 9.0)]);
    assert!(c.0.iter().any(|c| c.immobile && c.name == "hanging in loop noose"), "{:?}", c.0);
    let sprain = c.0.iter().find(|c| c.name == "sprained foot (on release)").expect("sprain waits for release");
    let left = sprain.moves_left.unwrap();
    // While hanging, the sprain's countdown is held.
    app.step_moves(3);
    let world = app.world_mut();
    let c = world.query::<&Conditions>().single(world).unwrap();
    assert_eq!(c.0.iter().find(|c| c.name.ends_with("(on release)")).unwrap().moves_left, Some(left));
}

#[test]
fn spotted_traps_are_revealed_and_own_side_is_not_caught() {
    // With the house rule `own_side_exempt` (default off, see morval_own_side_exemption_is_a_setting).
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 10),
          rules: (traps: (morval: (loosely_concealed_spot_target: -20, own_side_exempt: true))),
          figures: [
            (name: \"sharp\", position: (1, 2), path: [(30, 2)]),
            (name: \"bandit\", side: \"bandits\", position: (1, 6), path: [(30, 6)]),
          ], traps: [
            (name: \"seen\", kind: trip_cord(to: (10, 3)), position: (10, 1), concealment: Some(LC)),
            (name: \"theirs\", kind: pit(bottom: spiked), position: (10, 6), side: Some(\"bandits\")),
          ])",
    );
    let Run { log, end } = run(&scene, 1, 2);
    assert_eq!(events(&log, "spot_check").iter().map(|e| e.outcome).collect::<Vec<_>>(), ["spotted"]);
    assert!(events(&log, "trip_cord").is_empty() && events(&log, "pit").is_empty());
    assert!(end.traps[0].revealed && !end.traps[1].revealed);
}

#[test]
fn treadles_lifters_floors_and_flame() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20), lighting: \"DDD\",
          figures: [
            (name: \"guard\", side: \"keep\", position: (1, 2), path: [(30, 2)]),
            (name: \"thief\", position: (1, 5), path: [(30, 5)]),
            (name: \"looter\", position: (1, 8), path: [(10, 8)]),
            (name: \"a\", position: (1, 11), armour: plate, agility: Some(-9), path: [(10, 11)]),
            (name: \"b\", position: (2, 11.5), armour: plate, agility: Some(-9), path: [(10, 11.2)]),
          ],
          traps: [
            (name: \"locked\", kind: treadle(payload: (kind: boulder, strike: 2), safety: armed), position: (10, 2), side: Some(\"keep\")),
            (name: \"flame\", kind: treadle(payload: (kind: flame, strike: 1)), position: (10, 5)),
            (name: \"idol\", kind: lifter(payload: (kind: sounding_alarm, heard_to_inches: Some(30))), position: (10, 8)),
            (name: \"bridge\", kind: falling_floor(depth: 3, bottom: rocky, gives_way_at: Some(2)), position: (10, 11), radius: 1.5),
          ])",
    );
    let Run { log, end } = run(&scene, 1, 3);
    let treadles: Vec<_> = events(&log, "treadle").iter().map(|e| (e.subject.clone(), e.outcome.to_string())).collect();
    assert_eq!(treadles, [("guard".to_string(), "safety_lever".to_string()), ("thief".into(), "sprung".into())]);
    assert!(events(&log, "trap_flame").iter().any(|e| e.subject == "flame"));
    let lifter = events(&log, "lifter");
    assert_eq!(lifter.len(), 1, "sprung where the looter's path ends");
    assert!(events(&log, "noise_made").iter().any(|e| e.subject == "idol" && e.outcome == "alarm"));
    let floors: Vec<_> = events(&log, "falling_floor").iter().map(|e| e.outcome.to_string()).collect();
    assert_eq!(floors.last().map(String::as_str), Some("gives_way"), "{floors:?}");
    assert_eq!(floors.iter().filter(|o| *o == "gives_way").count(), 1);
    assert_eq!(events(&log, "pit").len(), 2, "both on the bridge go down with it");
    assert!(!end.traps[3].armed && end.traps[3].revealed);
}

#[test]
fn khemri_effects_on_the_table() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20), rules: (traps: (khemri: (traps_per_player: fixed(10)))),
          figures: [
            (name: \"victim\", position: (1, 5), path: [(10, 5)], mordheim: (ws: 3, s: 3, t: 3, w: 3, i: 0)),
            (name: \"near\", position: (1, 5.5), path: [(9.5, 5.5)], mordheim: (ws: 3, s: 3, t: 3, w: 3, i: 0), skills: [spot_disarm(1)]),
            (name: \"burnt\", position: (1, 12), path: [(10, 12)], mordheim: (ws: 3, s: 3, t: 3, w: 3, i: 0)),
          ],
          traps: [
            (name: \"pit\", kind: khemri(drawn: Some(complex), complex: Some(pit)), position: (10, 5)),
            (name: \"fire\", kind: khemri(drawn: Some(complex), complex: Some(fire_trap)), position: (10, 12)),
          ])",
    );
    let mut app = Simulation::new(&scene, 11);
    app.step_moves(2);
    let world = app.world_mut();
    let flames: Vec<TrapFlame> = world.resource_mut::<bevy::ecs::message::Messages<TrapFlame>>().drain().collect();
    let log = world.resource::<EventLog>();
    let trap_events: Vec<_> = events(log, "khemri_trap").iter().map(|e| (e.subject.clone(), e.outcome)).collect();
    assert!(trap_events.contains(&("victim".into(), "pit")), "{trap_events:?}");
    assert!(trap_events.contains(&("burnt".into(), "fire_trap")), "{trap_events:?}");
    // The figure beside the pit (within 1") tests I 0: it falls in too.
    assert!(events(log, "khemri_pit_edge").iter().any(|e| e.subject == "near" && e.outcome == "fell_in"));
    // 002 "Use the MH rules for falling": the Mordheim rule, labelled as not in the sources.
    for e in
        events(log, "khemri_pit_edge").iter().chain(events(log, "khemri_trap").iter().filter(|e| e.outcome == "pit"))
    {
        let rule = e.fields["fall_rule"].as_str().unwrap_or_default();
        assert!(rule.starts_with("Mordheim rulebook falling (not in the sources)"), "{e:?}");
    }
    assert!(flames.iter().any(|f| f.trap == "fire" && f.position.x == 10.0), "the fire trap starts a fire: {flames:?}");
    let Run { end, .. } = run(&scene, 11, 2);
    let victim = &end.figures[0];
    assert!(victim.conditions.iter().any(|c| c.immobile && c.name == "in pit pit"), "{victim:?}");
    assert!(matches!(
        end.traps[0].kind,
        tabula::scene::TrapKind::Khemri {
            status: tabula::rules::khemri_traps::TrapStatus::Spent,
            pit_depth: Some(_),
            ..
        }
    ));
}

#[test]
fn swinging_blades_strike_again_at_a_figure_stopped_on_them() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 10), figures: [
            (name: \"stopper\", position: (1, 5), path: [(10, 5)], mordheim: (ws: 3, s: 3, t: 3, w: 9, i: 0)),
          ], traps: [(name: \"blades\", kind: khemri(drawn: Some(complex), complex: Some(swinging_blades)), position: (10, 5))])",
    );
    let Run { log, .. } = run(&scene, 3, 3);
    assert_eq!(events(&log, "khemri_trap").len(), 1);
    let again = events(&log, "khemri_swinging_blades_again");
    assert_eq!(again.len(), 1, "once, at the start of his next move");
    assert_eq!(again[0].move_number, 3);
}

#[test]
fn blades_strike_again_by_the_kind_not_the_name() {
    // Renamed by the GM, still under the blades; only named so (`kind: other`), not.
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 10), figures: [
            (name: \"bitten\", position: (10, 5), mordheim: (ws: 3, s: 3, t: 3, w: 9, i: 0),
             conditions: [(name: \"Blade-bitten\", kind: under_blades, moves_left: Some(2))]),
            (name: \"named\", position: (20, 5), mordheim: (ws: 3, s: 3, t: 3, w: 9, i: 0),
             conditions: [(name: \"under swinging blades blades\", kind: other, moves_left: Some(2))]),
          ])",
    );
    let Run { log, end } = run(&scene, 3, 1);
    let again: Vec<(String, Option<serde_json::Value>)> = events(&log, "khemri_swinging_blades_again")
        .iter()
        .map(|e| (e.subject.clone(), e.fields.get("condition").cloned()))
        .collect();
    assert_eq!(again, vec![("bitten".to_string(), Some(serde_json::Value::from("Blade-bitten")))]);
    assert!(end.figures[0].conditions.is_empty(), "{:?}", end.figures[0].conditions);
    assert_eq!(end.figures[1].conditions.len(), 1);
}

#[test]
fn khemri_counters_too_close_are_rejected_naming_both() {
    let err = tabula::scene::parse_scene(
        "(version: 1, table: (width: 40, height: 10), traps: [
            (name: \"one\", kind: khemri(), position: (10, 5)),
            (name: \"two\", kind: khemri(), position: (11.5, 5)),
          ])",
        std::path::Path::new("close.ron"),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("trap \"two\"") && err.contains("\"one\"") && err.contains("2\""), "{err}");
}

#[test]
fn a_trip_cord_better_than_loosely_concealed_is_rejected() {
    let err = tabula::scene::parse_scene(
        "(version: 1, table: (width: 40, height: 10), traps: [
            (name: \"cord\", kind: trip_cord(to: (10, 6)), position: (10, 4), concealment: Some(WC)),
          ])",
        std::path::Path::new("cord.ron"),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("trap \"cord\"") && err.contains("LC"), "{err}");
}

fn example(name: &str) -> Scene {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name);
    tabula::scene::load_scene(&path).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_trap_scenes_exercise_every_kind_and_run_on_exactly() {
    use tabula::rules::khemri_traps::ComplexTrap;
    use tabula::scene::TrapKind;
    let trail = example("ambush-trail.ron");
    let kinds: std::collections::BTreeSet<&str> = trail.traps.iter().map(|t| t.kind.id()).collect();
    for kind in tabula::rules::morval_traps::TrapKind::ALL {
        assert!(kinds.contains(kind.id()), "ambush-trail.ron lacks a {}", kind.id());
    }
    let tomb = example("tomb.ron");
    for complex in ComplexTrap::ALL {
        assert!(
            tomb.traps.iter().any(|t| matches!(t.kind, TrapKind::Khemri { complex: Some(c), .. } if c == complex)),
            "tomb.ron lacks {}",
            complex.id()
        );
    }
    let demo =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/demo.ron")).unwrap();
    let tomb_text =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/tomb.ron")).unwrap();
    let body = |s: &str| s.lines().skip_while(|l| l.starts_with("//")).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&demo), body(&tomb_text), "demo.ron is a copy of tomb.ron");

    for scene in [trail, tomb] {
        let mut app = Simulation::new(&scene, scene.seed);
        assert_eq!(tabula::sim::world::snapshot_scene(app.world_mut()).unwrap(), scene, "{}", scene.title);
        let Run { log: full, .. } = run(&scene, 5, 12);
        let Run { log: first, end: middle } = run(&scene, 5, 6);
        let Run { log: second, .. } = run(&middle, 5, 6);
        let mut joined = first.to_json_lines();
        joined.push_str(&second.to_json_lines());
        assert_eq!(full.to_json_lines(), joined, "{}: a saved run continues like an unbroken one", scene.title);
        assert!(full.events.iter().filter(|e| e.system == "traps").count() > 10, "{}", scene.title);
    }
}

// ---------------------------------------------------------------------------------------------
// Issue 13: rules fidelity

#[test]
fn a_falling_floor_weighs_friend_and_foe() {
    // 000 "Falling Traps": "a bridge or floor gives way when a certain cubits weight of creatures
    // is on it". The keep's own guard stands on its floor (weight 1); a stranger steps on (1
    // more): 2 reaches `gives_way_at: 2`, and both fall. In plate in pitch black (D6 − 3 − 2)
    // the stranger never spots the floor (NC 5+).
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 10), lighting: \"DDD\",
          figures: [
            (name: \"guard\", side: \"keep\", position: (10, 5), armour: plate),
            (name: \"stranger\", position: (1, 5.3), armour: plate, path: [(20, 5.3)]),
          ],
          traps: [
            (name: \"floor\", kind: falling_floor(depth: 2, bottom: earth, gives_way_at: Some(2)), position: (10, 5), radius: 1.5, side: Some(\"keep\")),
          ])",
    );
    let Run { log, .. } = run(&scene, 7, 3);
    let floors = events(&log, "falling_floor");
    assert_eq!(floors.len(), 1, "{floors:?}");
    assert_eq!(floors[0].outcome, "gives_way");
    assert_eq!(floors[0].fields["weight_on_it"].as_f64(), Some(2.0));
    let mut fallers: Vec<&str> = events(&log, "pit").iter().map(|e| e.subject.as_str()).collect();
    fallers.sort_unstable();
    assert_eq!(fallers, ["guard", "stranger"], "both on the floor roll the pit table");
}

/// 99.9% critical value of chi-square with one degree of freedom.
const CHI2_DF1: f64 = 10.828;

#[test]
fn khemri_counters_catch_their_own_side() {
    // 002 "Traps": "When a model was to move over a trap counter, then the player would test
    // against his I" — no side is exempted. A tomb figure with I 3 and no Spot/Disarm crossing
    // a tomb counter: D6 ≤ 3 avoids, 3/6; 4–6 triggers, 3/6.
    let scene = lanes("", "side: \"tomb\", mordheim: (ws: 3, s: 3, t: 3, w: 9, i: 3)", &[25.0], |y| {
        format!("kind: khemri(drawn: Some(simple)), side: Some(\"tomb\"), position: (5, {y})")
    });
    let scene = Scene { rules: with_fixed_counters(scene.rules.clone()), ..scene };
    let (counts, n) = outcomes(&scene, 1, "khemri_crossing");
    assert_eq!(n, LANES as u32 * SEEDS as u32, "every crossing tests I: {counts:?}");
    let observed = [counts.get("avoided").copied().unwrap_or(0), counts.get("triggered").copied().unwrap_or(0)];
    assert_eq!(observed[0] + observed[1], n, "{counts:?}");
    let chi = chi_square(&observed, &[0.5, 0.5]);
    assert!(chi < CHI2_DF1, "chi-square {chi}: {counts:?}");
}

#[test]
fn set_trap_leaves_the_counter_unowned() {
    // 002 "SKILLS" > Set Trap: "a success means that it will work" — nothing about whose it
    // becomes. A trapper (Set Trap 4 times) ends his path on a face-up dud with no side.
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 10),
          figures: [(name: \"trapper\", side: \"raiders\", position: (1, 5), path: [(10, 5)], skills: [set_trap(4)])],
          traps: [(name: \"old dud\", kind: khemri(drawn: Some(dud)), position: (10, 5), revealed: true)])",
    );
    let mut armed = 0;
    for seed in 0..20 {
        let Run { log, end } = run(&scene, seed, 3);
        let set = events(&log, "khemri_set_trap");
        assert_eq!(set.len(), 1, "seed {seed}: {set:?}");
        assert_eq!(set[0].fields["set_by"].as_str(), Some("trapper"));
        assert_eq!(end.traps[0].side, None, "seed {seed}: Set Trap gives the counter no side");
        armed += usize::from(set[0].outcome == "armed");
    }
    assert!(armed > 0, "some seeds arm it");
}

#[test]
fn morval_own_side_exemption_is_a_setting() {
    // The text exempts nobody; `own_side_exempt: true` (house rule) spares the setter's side
    // except at loops and treadles with no safety device. Side "a" figures each cross one of
    // side "a"'s traps, unseen (pitch black, plate: D6 − 5 never spots).
    let text = |rules: &str| {
        format!(
            "(version: 1, table: (width: 40, height: 20), lighting: \"DDD\", {rules}
              figures: [
                (name: \"corder\", side: \"a\", position: (1, 2), armour: plate, agility: Some(0), path: [(30, 2)]),
                (name: \"looper\", side: \"a\", position: (1, 8), armour: plate, agility: Some(0), path: [(30, 8)]),
                (name: \"treader\", side: \"a\", position: (1, 14), armour: plate, agility: Some(0), path: [(30, 14)]),
              ],
              traps: [
                (name: \"cord\", kind: trip_cord(to: (10, 3)), position: (10, 1), concealment: Some(LC), side: Some(\"a\")),
                (name: \"noose\", kind: loop, position: (10, 8), side: Some(\"a\")),
                (name: \"board\", kind: treadle(payload: (kind: silent_alarm)), position: (10, 14), side: Some(\"a\")),
              ])"
        )
    };
    for seed in 0..5 {
        let Run { log, .. } = run(&scene_from_str(&text("")), seed, 3);
        assert_eq!(events(&log, "trip_cord").len(), 1, "default: the cord trips its own side");
        assert_eq!(events(&log, "loop").len(), 1);
        assert_eq!(events(&log, "treadle").iter().filter(|e| e.outcome == "sprung").count(), 1);
        let Run { log, .. } =
            run(&scene_from_str(&text("rules: (traps: (morval: (own_side_exempt: true))),")), seed, 3);
        assert!(events(&log, "trip_cord").is_empty(), "exempt: the cord spares its side");
        assert!(events(&log, "spot_check").iter().all(|e| e.fields["trap"] != "cord"));
        assert_eq!(events(&log, "loop").len(), 1, "loops still catch friends");
        assert_eq!(events(&log, "treadle").iter().filter(|e| e.outcome == "sprung").count(), 1);
    }
}

#[test]
fn one_deck_is_dealt_in_order() {
    // 002 "Traps": "The trap counters must be drawn from the deck". One set (3 simple, 1 complex,
    // 1 dud) and five counters, two of one side and three of another, all in play (fixed 3):
    // each counter draws one card, so the five are exactly the one set, on every seed.
    let scene = scene_from_str(
        "(version: 1, table: (width: 30, height: 10),
          rules: (traps: (khemri: (deck_sets: 1, traps_per_player: fixed(3)))),
          traps: [
            (name: \"a1\", kind: khemri(), position: (5, 5), side: Some(\"a\")),
            (name: \"b1\", kind: khemri(), position: (8, 5), side: Some(\"b\")),
            (name: \"a2\", kind: khemri(), position: (11, 5), side: Some(\"a\")),
            (name: \"b2\", kind: khemri(), position: (14, 5), side: Some(\"b\")),
            (name: \"b3\", kind: khemri(), position: (17, 5), side: Some(\"b\")),
          ])",
    );
    for seed in 0..100 {
        let mut app = Simulation::new(&scene, seed);
        let world = app.world_mut();
        let mut counts = BTreeMap::new();
        for c in world.query::<&KhemriCounter>().iter(world) {
            assert!(c.in_play, "seed {seed}");
            *counts.entry(c.counter.trap.id()).or_insert(0) += 1;
        }
        assert_eq!(counts, BTreeMap::from([("complex", 1), ("dud", 1), ("simple", 3)]), "seed {seed}");
    }
}

#[test]
fn one_roll_for_everyone() {
    // 002 "Traps": "(Or there could be one D6 roll that applied to everyone ...)". With
    // `traps_per_player: roll_d6_once` both sides may place the same number, rolled once:
    // uniform 1..6, 1/6 each.
    let scene = scene_from_str(
        "(version: 1, table: (width: 30, height: 10),
          rules: (traps: (khemri: (traps_per_player: roll_d6_once))),
          traps: [
            (name: \"a1\", kind: khemri(), position: (5, 3), side: Some(\"a\")),
            (name: \"b1\", kind: khemri(), position: (5, 7), side: Some(\"b\")),
          ])",
    );
    let mut observed = [0u32; 6];
    for seed in 0..1200 {
        let app = Simulation::new(&scene, seed);
        let log = app.world().resource::<EventLog>();
        let deals = events(log, "khemri_deal");
        assert_eq!(deals.len(), 2, "seed {seed}");
        assert_eq!(deals[0].fields["allowed"], deals[1].fields["allowed"], "seed {seed}: one number for both");
        assert_eq!(deals.iter().map(|e| e.rolls.len()).sum::<usize>(), 1, "seed {seed}: one roll, logged once");
        let allowed = deals[0].fields["allowed"].as_u64().unwrap() as usize;
        observed[allowed - 1] += 1;
    }
    let chi = chi_square(&observed, &[1.0 / 6.0; 6]);
    // 99.9% critical value of chi-square with five degrees of freedom.
    assert!(chi < 20.515, "chi-square {chi} for {observed:?}");
}

#[test]
fn a_broken_cord_trips_no_one_after_it_breaks() {
    // 000 "Trip cords": "= 2- break cord lose 1", 3+ break cord lose 3" & curse loudly, 5+ fall
    // ..." and "2nd victim -1, 3rd victim -2". Three figures (agility 0, 6" a move, unseen in
    // pitch black) reach one cord 0.5", 1" and 1.5" from their starts, all in round 1. The 1st
    // rolls D10 (0–9): breaks it on 0–4, 5/10. Only if he fell does the 2nd roll, D10 − 1:
    // falls (total ≥ 5) on 6–9, 4/10. So victims per cord: 1 with 5/10, 2 with 5/10 · 6/10 =
    // 3/10, 3 with 5/10 · 4/10 = 2/10.
    const CORDS: usize = 200;
    let mut figures = String::new();
    let mut traps = String::new();
    for i in 0..CORDS {
        let y = (4 * i + 2) as f32;
        for (n, (x, dy)) in [(3.5, 0.0), (3.0, 0.3), (2.5, -0.3)].into_iter().enumerate() {
            figures.push_str(&format!(
                "(name: \"c{i}v{n}\", position: ({x}, {}), armour: medium, agility: Some(0), path: [(25, {})]),\n",
                y + dy,
                y + dy
            ));
        }
        traps.push_str(&format!(
            "(name: \"cord{i}\", kind: trip_cord(to: (4, {})), position: (4, {}), concealment: Some(LC)),\n",
            y + 1.0,
            y - 1.0
        ));
    }
    let scene = scene_from_str(&format!(
        "(version: 1, table: (width: 30, height: {}), lighting: \"DDD\", figures: [{figures}], traps: [{traps}])",
        4 * CORDS + 4
    ));
    let mut observed = [0u32; 3];
    for seed in 0..5 {
        let Run { log, .. } = run(&scene, 2000 + seed, 1);
        let mut by_cord: BTreeMap<String, Vec<&tabula::sim::LogEvent>> = BTreeMap::new();
        for e in events(&log, "trip_cord") {
            by_cord.entry(e.fields["trap"].as_str().unwrap().to_string()).or_default().push(e);
        }
        assert_eq!(by_cord.len(), CORDS, "every cord is sprung");
        for (cord, victims) in &by_cord {
            // In the order they reach it, each numbered as the text counts victims.
            for (k, e) in victims.iter().enumerate() {
                assert!(e.subject.ends_with(&format!("v{k}")), "{cord}: {victims:?}");
                assert_eq!(e.fields["victim_order"].as_u64(), Some(k as u64 + 1));
                let broke = e.outcome.starts_with("break_cord");
                assert!(!broke || k + 1 == victims.len(), "{cord}: tripped after it broke: {victims:?}");
            }
            observed[victims.len() - 1] += 1;
        }
    }
    let chi = chi_square(&observed, &[0.5, 0.3, 0.2]);
    // 99.9% critical value of chi-square with two degrees of freedom.
    assert!(chi < 13.816, "chi-square {chi} for {observed:?}");
}

#[test]
fn a_figure_s_own_spot_factor_counts() {
    // 000 "Spotting Traps": "D6 + F ... F are Personal Bonuses and handicaps". A clothed 6"
    // walker at an NC pit (5+) in daylight: D6 alone spots on 5–6, 2/6; `spot_factor: 2` on
    // 3–6, 4/6; `spot_factor: -1` on 6, 1/6.
    let pit = |y: f32| format!("kind: pit(depth: 1, bottom: earth), concealment: Some(NC), position: (5, {y})");
    for (figure, p) in [("", 2.0 / 6.0), ("spot_factor: 2", 4.0 / 6.0), ("spot_factor: -1", 1.0 / 6.0)] {
        let scene = lanes("", figure, &[25.0], pit);
        let (counts, n) = outcomes(&scene, 1, "spot_check");
        assert_eq!(n, LANES as u32 * SEEDS as u32, "{figure}: one roll per walker");
        let observed = [counts.get("spotted").copied().unwrap_or(0), counts.get("not_spotted").copied().unwrap_or(0)];
        let chi = chi_square(&observed, &[p, 1.0 - p]);
        assert!(chi < CHI2_DF1, "{figure}: chi-square {chi} for {counts:?}");
    }
}

#[test]
fn khemri_pit_edge_is_measured_from_the_counter() {
    // 002 "3-4 - Pit": "Any other models 1" or closer to the pit must also roll against I".
    // The counter at (5, 2), radius 0.5; the digger (I 0: always triggers) enters at (4.5, 2).
    // "far side" at (6.4, 2) is 1.9" from the digger but 0.9" from the pit: it tests. "behind"
    // at (3.4, 2) is 1.1" from both: it does not.
    let scene = scene_from_str(
        "(version: 1, table: (width: 20, height: 6), rules: (traps: (khemri: (traps_per_player: fixed(10)))),
          figures: [
            (name: \"digger\", position: (1, 2), path: [(9, 2)], mordheim: (ws: 3, s: 3, t: 3, w: 9, i: 0)),
            (name: \"far side\", position: (6.4, 2), mordheim: (ws: 3, s: 3, t: 3, w: 9, i: 3)),
            (name: \"behind\", position: (3.4, 2.0), mordheim: (ws: 3, s: 3, t: 3, w: 9, i: 3)),
          ],
          traps: [(name: \"slab\", kind: khemri(drawn: Some(complex), complex: Some(pit)), position: (5, 2))])",
    );
    for seed in 0..5 {
        let Run { log, .. } = run(&scene, seed, 1);
        assert!(events(&log, "khemri_trap").iter().any(|e| e.outcome == "pit"), "seed {seed}");
        let edge: Vec<&str> = events(&log, "khemri_pit_edge").iter().map(|e| e.subject.as_str()).collect();
        assert_eq!(edge, ["far side"], "seed {seed}");
    }
}

#[test]
fn figures_climb_out_of_a_pit() {
    // House rule `table.pit_climb: initiative_test` (default): each move D6 ≤ I. With I 3, 1/2
    // a move: out in move 1 with 1/2, move 2 1/4, move 3 1/8, later 1/8 (geometric, mean 2).
    // 200 pits a run (the table's 1000" cap), over 6 seeds.
    const PITS: usize = 200;
    let mut figures = String::new();
    let mut traps = String::new();
    for i in 0..PITS {
        let y = 4 * i + 2;
        figures.push_str(&format!(
            "(name: \"f{i}\", position: (5, {y}), path: [(25, {y})], mordheim: (ws: 3, s: 3, t: 3, w: 9, i: 3),
              conditions: [(name: \"in pit p{i}\", kind: in_pit, immobile: true)]),\n"
        ));
        traps.push_str(&format!(
            "(name: \"p{i}\", kind: khemri(drawn: Some(complex), complex: Some(pit), status: spent, pit_depth: Some(3)), position: (5, {y}), revealed: true),\n"
        ));
    }
    let scene = scene_from_str(&format!(
        "(version: 1, table: (width: 30, height: {}), figures: [{figures}], traps: [{traps}])",
        4 * PITS + 4
    ));
    let mut observed = [0u32; 4];
    for seed in 0..6 {
        let Run { log, end } = run(&scene, 3000 + seed, 3);
        let mut out_in: BTreeMap<&str, u32> = BTreeMap::new();
        for e in events(&log, "pit_climb") {
            assert_eq!(e.rolls.len(), 1, "{e:?}");
            if e.outcome == "climbed_out" {
                assert!(out_in.insert(e.subject.as_str(), e.move_number).is_none(), "climbed out twice: {e:?}");
                // On the edge nearest its next waypoint (25, y): 0.5" along +x from the centre.
                let to = e.fields["to"].as_array().unwrap();
                assert!((to[0].as_f64().unwrap() - 5.5).abs() < 1e-3, "{e:?}");
            }
        }
        for f in &end.figures {
            let in_pit = f.conditions.iter().any(|c| c.immobile && c.name.starts_with("in pit"));
            match out_in.get(f.name.as_str()) {
                Some(&m) => {
                    assert!(!in_pit, "{f:?}");
                    observed[(m as usize - 1).min(3)] += 1;
                }
                None => {
                    assert!(in_pit, "{f:?}");
                    observed[3] += 1;
                }
            }
        }
    }
    let chi = chi_square(&observed, &[0.5, 0.25, 0.125, 0.125]);
    // 99.9% critical value of chi-square with three degrees of freedom.
    assert!(chi < 16.266, "chi-square {chi} for {observed:?}");
}

#[test]
fn spotting_is_once_per_approach_or_per_move() {
    // 000 "Spotting Traps": "Diced for when within 2"". An NC pit (radius 0.5) at (5, 3), never
    // spotted (target 30); a figure walks y = 2 from x = 2. It is within 2" of the pit's edge
    // while |x − 5| ≤ √(2.5² − 1²) = 2.29, x in [2.71, 7.29].
    let scene = |checks: &str, rate: f32, path: &str| {
        scene_from_str(&format!(
            "(version: 1, table: (width: 20, height: 6),
              rules: (traps: (morval: (normally_concealed_spot_target: 30, spot_checks: {checks}))),
              figures: [(name: \"walker\", position: (2, 2), move_rate: Some({rate}), path: [{path}])],
              traps: [(name: \"pit\", kind: pit(depth: 1, bottom: earth), concealment: Some(NC), position: (5, 3))])"
        ))
    };
    let checks = |s: &Scene, moves: u32| -> Vec<u32> {
        let Run { log, .. } = run(s, 9, moves);
        events(&log, "spot_check").iter().map(|e| e.move_number).collect()
    };
    // 1" a move to x = 10: in range in moves 1 (2→3) to 6 (7→8).
    assert_eq!(checks(&scene("per_move", 1.0, "(10, 2)"), 8), [1, 2, 3, 4, 5, 6]);
    assert_eq!(checks(&scene("per_approach", 1.0, "(10, 2)"), 8), [1]);
    // 2" a move out to x = 10 and back: in range in moves 1–3 and 6–8; two approaches.
    assert_eq!(checks(&scene("per_move", 2.0, "(10, 2), (2, 2)"), 8), [1, 2, 3, 6, 7, 8]);
    assert_eq!(checks(&scene("per_approach", 2.0, "(10, 2), (2, 2)"), 8), [1, 6]);
    // Out and back within one move (16"): two approaches in move 1, one roll per move.
    assert_eq!(checks(&scene("per_move", 16.0, "(10, 2), (2, 2)"), 1), [1]);
    assert_eq!(checks(&scene("per_approach", 16.0, "(10, 2), (2, 2)"), 1), [1, 1]);

    // Who is in range is saved: a run stopped after move 3 (in range) and resumed logs what
    // the unbroken run logs, with no new approach in move 4.
    let s = scene("per_approach", 1.0, "(10, 2)");
    let Run { log: full, .. } = run(&s, 5, 8);
    let Run { log: first, end: middle } = run(&s, 5, 3);
    assert_eq!(middle.traps[0].in_range_of, ["walker"]);
    let Run { log: second, .. } = run(&middle, 5, 5);
    let mut joined = first.to_json_lines();
    joined.push_str(&second.to_json_lines());
    assert_eq!(full.to_json_lines(), joined, "a saved run continues like an unbroken one");
    assert_eq!(events(&full, "spot_check").len(), 1);
}

#[test]
fn a_sprung_or_revealed_trap_is_not_rolled_for_and_remembers_no_one() {
    // 000 "Spotting Traps": figures roll to spot a hidden trap that can still go off. The pit of
    // the test above, with the walker passing within 2" of it in moves 1 to 6 at 1" a move.
    let scene = |target: i32, state: &str| {
        scene_from_str(&format!(
            "(version: 1, table: (width: 20, height: 6),
              rules: (traps: (morval: (normally_concealed_spot_target: {target}))),
              figures: [(name: \"walker\", position: (2, 2), move_rate: Some(1.0), path: [(10, 2)])],
              traps: [(name: \"pit\", kind: pit(depth: 1, bottom: earth), concealment: Some(NC), position: (5, 3), {state})])"
        ))
    };
    // Revealed, or disarmed, in the file (and once remembering the walker): no roll, and no list
    // kept, though the walker ends moves 1 to 5 in range.
    for state in
        ["revealed: true, in_range_of: [\"walker\"]", "armed: false, in_range_of: [\"walker\"]", "revealed: true"]
    {
        let Run { log, end } = run(&scene(30, state), 9, 3);
        assert!(events(&log, "spot_check").is_empty(), "{state}: {:?}", events(&log, "spot_check"));
        assert!(end.traps[0].in_range_of.is_empty(), "{state}: {:?}", end.traps[0].in_range_of);
    }
    // Always spotted (target 1): revealed by the roll of move 1, after which no one rolls and its
    // list is empty; never spotted (target 30), it keeps the walker in range.
    let Run { log, end } = run(&scene(1, ""), 9, 3);
    let spots = events(&log, "spot_check");
    assert_eq!(spots.iter().map(|e| (e.move_number, e.outcome)).collect::<Vec<_>>(), [(1, "spotted")]);
    assert!(end.traps[0].revealed);
    assert!(end.traps[0].in_range_of.is_empty(), "{:?}", end.traps[0].in_range_of);
    let Run { end, .. } = run(&scene(30, ""), 9, 3);
    assert_eq!(end.traps[0].in_range_of, ["walker"]);
}

#[test]
fn each_hidden_trap_remembers_every_figure_ending_the_move_within_two_inches() {
    // 000 "Spotting Traps": within 2" of the trap's edge. Figures standing on a grid, and hidden
    // pits (radius 0.5) among them that no one can spot; the list is checked against distances
    // measured here. Few traps measure every figure; many index the figures first.
    for traps in [3usize, 24] {
        let mut figures = String::new();
        for i in 0..900 {
            let (x, y) = (1.0 + (i % 45) as f32 * 0.9, 1.0 + (i / 45) as f32 * 1.3);
            figures.push_str(&format!("(name: \"f{i}\", position: ({x}, {y})),"));
        }
        let spots: Vec<(f32, f32)> =
            (0..traps).map(|k| (2.25 + (k % 6) as f32 * 6.7, 2.35 + (k / 6) as f32 * 6.1)).collect();
        let pits: String = spots
            .iter()
            .enumerate()
            .map(|(k, (x, y))| {
                format!("(name: \"pit {k}\", kind: pit(depth: 1, bottom: earth), concealment: Some(NC), position: ({x}, {y})),")
            })
            .collect();
        let scene = scene_from_str(&format!(
            "(version: 1, table: (width: 42, height: 28), {NO_SPOTTING}
              figures: [{figures}], traps: [{pits}])"
        ));
        let Run { end, .. } = run(&scene, 1, 1);
        for (trap, &(x, y)) in end.traps.iter().zip(&spots) {
            let expected: Vec<&str> = end
                .figures
                .iter()
                .filter(|f| (f.position.0 - x).hypot(f.position.1 - y) - 0.5 <= 2.0)
                .map(|f| f.name.as_str())
                .collect();
            assert!(!expected.is_empty());
            assert_eq!(trap.in_range_of, expected, "{traps} traps: {}", trap.name);
        }
    }
}

/// Spotting a Morval trap is impossible: every concealment target is out of a D6's reach.
const NO_SPOTTING: &str = "rules: (traps: (morval: (loosely_concealed_spot_target: 30, \
     normally_concealed_spot_target: 30, well_concealed_spot_target: 30))),";

#[test]
fn a_payload_strikes_everyone_in_its_area() {
    // 000 "Treadle Traps": "... cloud of gas ... threatens the victim(s)". Gas reaches 2"
    // (house rule `payload_radius.gas`). In each lane a walker steps on a gas treadle (strike
    // +2) at (5, y); "near" stands 1.5" from it, "far" 2.5" (and 4" lanes keep every figure
    // more than 2" from the other lanes' traps). Each struck figure rolls its own D10 + 2:
    // totals 2..=11, each 1/10. Walker and near are struck, far is not.
    let mut figures = String::new();
    let mut traps = String::new();
    for i in 0..LANES {
        let y = (4 * i + 2) as f32;
        figures.push_str(&format!(
            "(name: \"s{i}\", position: (1, {y}), path: [(25, {y})]),
             (name: \"n{i}\", position: (5, {}), side: \"others\"),
             (name: \"f{i}\", position: (7.5, {y})),\n",
            y + 1.5
        ));
        traps.push_str(&format!(
            "(name: \"t{i}\", kind: treadle(payload: (kind: gas, strike: 2)), position: (5, {y})),\n"
        ));
    }
    let scene = scene_from_str(&format!(
        "(version: 1, table: (width: 30, height: {}), {NO_SPOTTING} figures: [{figures}], traps: [{traps}])",
        4 * LANES + 4
    ));
    let mut totals = [0u32; 10];
    for seed in 0..SEEDS {
        let Run { log, .. } = run(&scene, 2000 + seed, 1);
        let payloads = events(&log, "payload");
        assert_eq!(payloads.len(), 2 * LANES, "walker and near, in every lane");
        for e in payloads {
            assert!(!e.subject.starts_with('f'), "2.5\" is out of the gas's reach: {e:?}");
            let order = if e.subject.starts_with('s') { 1 } else { 2 };
            assert_eq!(e.fields.get("victim_order"), Some(&serde_json::Value::from(order)), "{e:?}");
            let strike = e.rolls.last().unwrap().total;
            assert!((2..=11).contains(&strike), "{e:?}");
            totals[(strike - 2) as usize] += 1;
        }
    }
    // 9 degrees of freedom, p = 0.0001: 33.7.
    let chi = common::chi_square(&totals, &[0.1; 10]);
    assert!(chi < 33.7, "strike totals {totals:?}: chi-square {chi}");
}

/// The `moved` event's swept distance for `who`.
fn moved_distance(log: &EventLog, who: &str) -> f64 {
    events(log, "moved").iter().filter(|e| e.subject == who).map(|e| e.fields["distance"].as_f64().unwrap()).sum()
}

#[test]
fn an_open_pit_is_gone_round_or_fallen_into() {
    // 000 "Specimen Pit Trap": an open pit (sprung before) at (5, 2), radius 0.5, earth, 1";
    // 002 "3-4 - Pit": a spent Khemri pit 3" deep at (5, 6). Walkers at 12" a move go from
    // x = 1 to x = 9 straight through each.
    let scene = |open_pit: &str| {
        scene_from_str(&format!(
            "(version: 1, table: (width: 20, height: 10), rules: (traps: (table: (open_pit: {open_pit}))),
              figures: [
                (name: \"m\", position: (1, 2), move_rate: Some(12), path: [(9, 2)]),
                (name: \"k\", position: (1, 6), move_rate: Some(12), path: [(9, 6)],
                 mordheim: (ws: 3, s: 3, t: 3, w: 9, i: 3)),
              ], traps: [
                (name: \"pit\", kind: pit(bottom: earth, open: true), position: (5, 2), revealed: true),
                (name: \"hole\", kind: khemri(drawn: Some(complex), complex: Some(pit), status: spent,
                 pit_depth: Some(3)), position: (5, 6), revealed: true),
              ])"
        ))
    };
    // Avoid (default): both go round, 0.05" outside the edge: longer than 8", no fall.
    let Run { log, end } = run(&scene("avoid"), 7, 1);
    assert!(events(&log, "pit").is_empty() && events(&log, "khemri_open_pit").is_empty());
    for (i, who) in ["m", "k"].into_iter().enumerate() {
        let d = moved_distance(&log, who);
        assert!(d > 8.0 && d < 8.2, "{who} went round: {d}");
        assert_eq!(end.figures[i].position.0, 9.0, "{who} arrived: {:?}", end.figures[i]);
    }
    // FallIn: no spotting roll and no entry roll: the Morval walker falls unimpeded, D10 − 4;
    // the Khemri walker falls 3": D3 hits at S3.
    let mut strikes = [0u32; 10];
    for seed in 0..200 {
        let Run { log, end } = run(&scene("fall_in"), seed, 1);
        let pit = events(&log, "pit");
        assert_eq!(pit.len(), 1);
        assert_eq!(pit[0].outcome, "fall_unimpeded");
        assert_eq!(pit[0].rolls.len(), 1, "the fall's strike only: {:?}", pit[0]);
        let strike = pit[0].rolls[0].total;
        assert!((-4..=5).contains(&strike), "{strike}");
        strikes[(strike + 4) as usize] += 1;
        assert!(events(&log, "spot_check").is_empty());
        let hole = events(&log, "khemri_open_pit");
        assert_eq!(hole.len(), 1);
        assert_eq!(hole[0].outcome, "fell_in");
        assert_eq!(hole[0].fields["strength"], serde_json::Value::from(3));
        let hits = hole[0].fields["hits"].as_u64().unwrap();
        assert!((1..=3).contains(&hits), "D3 hits: {hits}");
        for f in &end.figures {
            assert!(f.conditions.iter().any(|c| c.immobile && c.name.starts_with("in pit")), "{f:?}");
        }
    }
    // D10 − 4: −4..=5, each 1/10. 9 degrees of freedom, p = 0.0001: 33.7.
    let chi = common::chi_square(&strikes, &[0.1; 10]);
    assert!(chi < 33.7, "{strikes:?}: {chi}");
}

#[test]
fn a_sprung_pit_stays_open() {
    // Agility −9: the pit total is at least 9 (jump over) — the cover is gone all the same, and
    // the next figure walks round the open pit.
    let scene = scene_from_str(&format!(
        "(version: 1, table: (width: 30, height: 10), {NO_SPOTTING} figures: [
            (name: \"first\", position: (1, 2), agility: Some(-9), move_rate: Some(12), path: [(9, 2)]),
          ], traps: [(name: \"pit\", kind: pit(bottom: earth), position: (5, 2))])"
    ));
    let Run { log, end } = run(&scene, 1, 1);
    assert_eq!(events(&log, "pit").iter().map(|e| e.outcome).collect::<Vec<_>>(), ["jump_over"]);
    assert!(matches!(end.traps[0].kind, tabula::scene::TrapKind::Pit { open: true, .. }), "{:?}", end.traps[0]);
    let mut back = end.clone();
    back.figures[0].path = vec![(1.0, 2.0)];
    let Run { log, .. } = run(&back, 2, 1);
    assert!(events(&log, "pit").is_empty(), "gone round");
    assert!(moved_distance(&log, "first") > 8.0);
}

#[test]
fn revealed_traps_follow_their_kind_setting() {
    // A revealed cord at x = 5, a revealed idol lifter where a path ends, a revealed pit.
    let scene = |revealed: &str| {
        let rules = if revealed.is_empty() {
            String::new()
        } else {
            format!("rules: (traps: (table: (revealed: ({revealed})))),")
        };
        scene_from_str(&format!(
            "(version: 1, table: (width: 30, height: 14), {rules}
              figures: [
                (name: \"cord_walker\", position: (1, 2), move_rate: Some(12), path: [(9, 2)]),
                (name: \"looter\", position: (1, 6), move_rate: Some(12), path: [(5, 6)]),
                (name: \"pit_walker\", position: (1, 10), move_rate: Some(12), path: [(9, 10)]),
              ], traps: [
                (name: \"cord\", kind: trip_cord(to: (5, 2.5)), position: (5, 1.5), concealment: Some(LC), revealed: true),
                (name: \"idol\", kind: lifter(payload: (kind: sounding_alarm)), position: (5, 6), revealed: true),
                (name: \"pit\", kind: pit(bottom: earth), position: (5, 10), revealed: true),
              ])"
        ))
    };
    // Defaults: the cord is stepped over, the idol still fires, the pit is gone round.
    let Run { log, end } = run(&scene(""), 3, 1);
    assert!(events(&log, "trip_cord").is_empty());
    assert_eq!(events(&log, "lifter").iter().map(|e| e.outcome).collect::<Vec<_>>(), ["sprung"]);
    assert!(events(&log, "pit").is_empty());
    assert!(moved_distance(&log, "pit_walker") > 8.0 && moved_distance(&log, "cord_walker") < 8.0 + 1e-3);
    assert_eq!(end.figures[2].position, (9.0, 10.0));
    // Turned round: the cord still fires, the idol is harmless, the pit still fires (walked
    // straight over, it goes off as if unseen).
    let Run { log, .. } = run(&scene("trip_cord: still_fires, lifter: harmless, pit: still_fires"), 3, 1);
    assert_eq!(events(&log, "trip_cord").len(), 1);
    assert!(events(&log, "lifter").is_empty());
    assert_eq!(events(&log, "pit").len(), 1);
    // Harmless pit: walked straight over, nothing happens.
    let Run { log, .. } = run(&scene("pit: harmless"), 3, 1);
    assert!(events(&log, "pit").is_empty());
    assert!((moved_distance(&log, "pit_walker") - 8.0).abs() < 1e-3);
}

#[test]
fn a_mounted_figure_is_unhorsed_when_its_steed_falls() {
    // 000 "Trip cords": the cord catches the steed (agility `table.steed_agility`, 0) at 6"
    // (no speed factor), first victim: it falls on D10 ≥ 5, 5/10; then "Riders whose Steeds
    // fall, fall off strike -3": D10 − 3 for a rider, −3..=6. The rider is unhorsed.
    let scene =
        lanes(NO_SPOTTING, "move_rate: Some(6), mounted: true, skills: [rider], agility: Some(-5)", &[25.0], |y| {
            format!("kind: trip_cord(to: (5, {})), position: (5, {}), concealment: Some(LC)", y + 0.5, y - 0.5)
        });
    let mut counts = [0u32; 2];
    for seed in 0..SEEDS {
        let Run { log, end } = run(&scene, 3000 + seed, 1);
        let cords = events(&log, "trip_cord");
        assert_eq!(cords.len(), LANES);
        for e in cords {
            let fig = end.figures.iter().find(|f| f.name == e.subject).unwrap();
            let unhorsed = e.fields["unhorsed"].as_bool() == Some(true);
            assert_eq!(e.fields["victim"], serde_json::Value::from("steed"));
            if unhorsed {
                counts[1] += 1;
                let strike = e.fields["rider_fall_strike"].as_i64().unwrap();
                assert!((-3..=6).contains(&strike), "{e:?}");
                assert!(!fig.mounted && fig.conditions.iter().any(|c| c.name == "unhorsed"), "{fig:?}");
                assert!((fig.position.0 - 5.0).abs() < 1e-2, "stops at the cord: {fig:?}");
                // The steed's injury is not the rider's.
                assert!(!fig.conditions.iter().any(|c| c.move_penalty > 0.0), "{fig:?}");
            } else {
                counts[0] += 1;
                assert!(fig.mounted, "{fig:?}");
            }
        }
    }
    // 1 degree of freedom, p = 0.0001: 15.1.
    let chi = common::chi_square(&counts, &[0.5, 0.5]);
    assert!(chi < 15.1, "{counts:?}: {chi}");
}

#[test]
fn traps_are_spotted_no_farther_than_the_light_allows() {
    // A pit (radius 0.5) whose edge lies 1.8" from a walker's path: within the 2" spotting range
    // (000 "Spotting Traps") in daylight and in DDL with the default 4" sight, but not when DDL
    // sight is set to 1.5" (001 "Lighting": "DDL Dark range of vision limited").
    let spot_checks = |head: &str| {
        let scene = scene_from_str(&format!(
            "(version: 1, table: (width: 20, height: 10), {head}
              figures: [(name: \"Walker\", side: \"party\", position: (1, 5), path: [(19, 5)])],
              traps: [(name: \"pit\", kind: pit(depth: 1, bottom: earth), concealment: Some(NC), radius: 0.5,
                       position: (10, 7.3), side: Some(\"bandits\"))])"
        ));
        let Run { log, .. } = run(&scene, 1, 4);
        log.events.iter().filter(|e| e.event == "spot_check").count()
    };
    assert!(spot_checks("") > 0);
    assert!(spot_checks("lighting: \"DDL\",") > 0);
    assert_eq!(spot_checks("lighting: \"DDL\", rules: (lighting: (dark_sight_in: 1.5)),"), 0);
}

#[test]
fn a_door_lifter_fires_when_the_door_is_passed() {
    // 000 "Lifter Traps": "Similar is the type triggered when a door or trapdoor is opened." An
    // open door D from (5, 0) to (5, 4) with a (reusable) lifter set on it; a figure at 6" a
    // move from (1, 2) reaches the door 4" along, in round ceil(4/6 · 2) = 2. No spotting can
    // succeed (targets 30), so nothing but the door decides.
    let lifters = |kind: &str, to: &str| {
        let scene = scene_from_str(&format!(
            "(version: 1, table: (width: 12, height: 6),
              rules: (traps: (morval: (loosely_concealed_spot_target: 30, normally_concealed_spot_target: 30,
                                       well_concealed_spot_target: 30))),
              doors: [(name: \"D\", from: (5, 0), to: (5, 4), open: true)],
              figures: [(name: \"walker\", position: (1, 2), move_rate: Some(6), path: [{to}])],
              traps: [(name: \"door trap\", kind: lifter(payload: (kind: sounding_alarm), {kind}), position: (5, 2),
                       reusable: true)])"
        ));
        let Run { log, .. } = run(&scene, 1, 3);
        events(&log, "lifter")
            .iter()
            .map(|e| (e.outcome.to_string(), e.fields.get("in_round").and_then(serde_json::Value::as_u64)))
            .collect::<Vec<_>>()
    };
    let door = "action: open_door, door: Some(\"D\")";
    let once: Vec<(String, Option<u64>)> = vec![("sprung".to_string(), Some(2))];
    assert_eq!(lifters(door, "(9, 2)"), once, "walked through the door");
    assert!(lifters(door, "(3, 2)").is_empty(), "stopped short of the door");
    assert_eq!(lifters(door, "(5, 2)"), once, "a path ending in the doorway fires once, not twice");
    // A trapdoor lifter with no door keeps its disc (radius 0.5): entered 3.5" along, round 2.
    assert_eq!(lifters("action: open_trapdoor", "(9, 2)"), once, "walked over the trapdoor");
    assert_eq!(lifters("action: open_trapdoor", "(5, 2)"), once, "stopped on the trapdoor: once");
    // An idol is still lifted only where a path ends on it.
    assert!(lifters("action: lift_object", "(9, 2)").is_empty());
    assert_eq!(lifters("action: lift_object", "(5, 2)"), once);
}

#[test]
fn a_door_lifter_names_a_door_of_the_scene() {
    let err = |kind: &str| {
        tabula::scene::parse_scene(
            &format!(
                "(version: 1, table: (width: 12, height: 6),
                  doors: [(name: \"D\", from: (5, 0), to: (5, 4), open: true)],
                  traps: [(name: \"door trap\", kind: lifter(payload: (kind: sounding_alarm), {kind}), position: (5, 2))])"
            ),
            std::path::Path::new("door.ron"),
        )
        .err()
        .map(|e| e.to_string())
    };
    assert_eq!(err("action: open_door, door: Some(\"D\")"), None);
    assert_eq!(err("action: open_trapdoor, door: Some(\"D\")"), None);
    assert_eq!(err("action: open_trapdoor"), None);
    let missing = err("action: open_door, door: Some(\"E\")").expect("no door E");
    assert!(
        missing.contains("trap \"door trap\"") && missing.contains("kind door") && missing.contains("\"E\""),
        "{missing}"
    );
    let unnamed = err("action: open_door").expect("an open_door lifter names its door");
    assert!(unnamed.contains("trap \"door trap\"") && unnamed.contains("kind door"), "{unnamed}");
    assert!(err("action: lift_object, door: Some(\"D\")").is_some_and(|e| e.contains("kind door")));
}

/// A pit by the table's edge: a figure left hanging on its far edge, which lies past the
/// table's edge, is put on the table's edge instead, so the saved scene loads.
#[test]
fn a_pit_edge_past_the_table_edge_keeps_the_figure_on_the_table() {
    // Lanes 4" apart; each plate walker (5" a move, agility 0: D10 alone, 6 hangs on the far
    // edge) enters a pit of radius 2 at x = 29, whose far edge lies at x = 31, past the 30" table.
    let lanes = 60;
    let mut figures = String::new();
    let mut traps = String::new();
    for i in 0..lanes {
        let y = 4 * i + 2;
        figures.push_str(&format!(
            "(name: \"f{i}\", position: (24, {y}), path: [(30, {y})], armour: plate, agility: Some(0)),\n"
        ));
        traps.push_str(&format!(
            "(name: \"t{i}\", kind: pit(depth: 1, bottom: earth), radius: 2, position: (29, {y})),\n"
        ));
    }
    let scene = scene_from_str(&format!(
        "(version: 1, table: (width: 30, height: {}), {UNSEEN} figures: [{figures}], traps: [{traps}])",
        4 * lanes + 4
    ));
    let mut far = 0;
    for seed in 0..4 {
        let Run { log, end } = run(&scene, seed, 1);
        for e in events(&log, "pit").into_iter().filter(|e| e.outcome == "hanging_on_far_edge") {
            far += 1;
            let figure = end.figures.iter().find(|f| f.name == e.subject).unwrap();
            assert_eq!(figure.position.0, 30.0, "on the table's edge: {figure:?}");
        }
        let problems = tabula::scene::load::validate(&end);
        assert!(problems.is_empty(), "seed {seed}: {problems:?}");
    }
    assert!(far > 0, "no figure was left hanging on a far edge");
}
