//! Obstacles through the simulation (000 "Sharpened Stakes", "Grapnels, Ropes, and cords"; 001
//! "Cattle Grids", "Climbing over High broken glass topped walls"): the lodgement, throw-down
//! and rope-break rates against the text's, the wagon at the grid, saving and continuing, and
//! the wall-raid scene.

mod common;

use common::{chi_square, scene_from_str};
use std::path::Path;
use tabula::scene::{Scene, load_scene, parse_scene, scene_to_ron};
use tabula::sim::log::LogEvent;
use tabula::sim::{EventLog, Simulation, run_log};

/// Chi-square 99.9% critical value for 1 degree of freedom.
const CHI_SQUARE_1_DF_999: f64 = 10.828;

fn events<'a>(log: &'a EventLog, event: &str) -> Vec<&'a LogEvent> {
    log.events.iter().filter(|e| e.system == "obstacles" && e.event == event).collect()
}

fn raid() -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/wall-raid.ron")).unwrap_or_else(|e| panic!("{e}"))
}

/// 200 grapnels on a 20 × 10 grid 5" apart: each thrown from 3" (within a man's 5"), with a
/// defender of the other side 0.5" from its purchase point and no other within 1".
fn grapnel_field() -> Scene {
    let mut figures = Vec::new();
    let mut grapnels = Vec::new();
    for r in 0..10 {
        for c in 0..20 {
            let (x, y) = (5.0 + 5.0 * c as f32, 5.0 + 5.0 * r as f32);
            figures.push(format!("(name: \"T{r}_{c}\", side: \"raiders\", position: ({}, {y}))", x - 3.0));
            figures.push(format!("(name: \"D{r}_{c}\", side: \"keep\", position: ({}, {y}))", x + 0.5));
            grapnels.push(format!("(name: \"G{r}_{c}\", thrower: \"T{r}_{c}\", target: ({x}, {y}), at_move: 1)"));
        }
    }
    scene_from_str(&format!(
        "(version: 1, table: (width: 110, height: 60), figures: [{}], obstacles: (grapnels: [{}]))",
        figures.join(", "),
        grapnels.join(", ")
    ))
}

/// "D10 6+" on a D10 showing 0–9 lodges on 6, 7, 8, 9: 4 in 10. "D10 7+" throws it down on
/// 7, 8, 9: 3 in 10. Each lodged grapnel has exactly one defender within 1", who dices once
/// (`once_per_approach`).
#[test]
fn lodgement_and_throw_down_rates_match_the_text() {
    let scene = grapnel_field();
    let mut lodgement = [0u32; 2];
    let mut throw_down = [0u32; 2];
    for seed in 0..10 {
        let log = run_log(&scene, seed, 1);
        for e in events(&log, "grapnel_throw") {
            assert_eq!(e.rolls.len(), 1);
            assert_eq!(e.rolls[0].target, Some(6));
            match e.outcome.as_str() {
                "lodged" => lodgement[0] += 1,
                "no_lodgement" => lodgement[1] += 1,
                other => panic!("{other}"),
            }
        }
        for e in events(&log, "throw_down") {
            assert_eq!(e.rolls[0].target, Some(7));
            match e.outcome.as_str() {
                "thrown_down" => throw_down[0] += 1,
                "holds" => throw_down[1] += 1,
                other => panic!("{other}"),
            }
        }
        // One try per lodged grapnel.
        assert_eq!(
            events(&log, "throw_down").len(),
            events(&log, "grapnel_throw").iter().filter(|e| e.outcome == "lodged").count()
        );
    }
    assert_eq!(lodgement.iter().sum::<u32>(), 2000);
    let chi = chi_square(&lodgement, &[0.4, 0.6]);
    assert!(chi < CHI_SQUARE_1_DF_999, "lodgement chi-square {chi}: {lodgement:?}");
    assert!(throw_down.iter().sum::<u32>() > 500, "{throw_down:?}");
    let chi = chi_square(&throw_down, &[0.3, 0.7]);
    assert!(chi < CHI_SQUARE_1_DF_999, "throw-down chi-square {chi}: {throw_down:?}");
}

/// A light rope (5 quabits) with one climber of 6 quabits: one excess quabit, D6 − 1, breaks on
/// 2 or less: faces 1, 2, 3, 3 in 6. Two average persons (8): three excess, faces 1–5, 5 in 6.
#[test]
fn rope_break_rate_matches_the_text() {
    for (weights, p_break) in [(vec![6.0f32], 3.0 / 6.0), (vec![4.0, 4.0], 5.0 / 6.0)] {
        let mut figures = Vec::new();
        let mut ropes = Vec::new();
        for i in 0..200 {
            let (x, y) = (2.0 + (i % 20) as f32 * 4.0, 2.0 + (i / 20) as f32 * 4.0);
            let climbers: Vec<String> = weights
                .iter()
                .enumerate()
                .map(|(k, w)| {
                    figures.push(format!("(name: \"C{i}_{k}\", position: ({x}, {y}))"));
                    format!("(figure: \"C{i}_{k}\", height_in: 1, weight_quabits: {w})")
                })
                .collect();
            ropes.push(format!(
                "(name: \"R{i}\", kind: light, anchor: ({x}, {y}), height_in: 3, climbers: [{}])",
                climbers.join(", ")
            ));
        }
        let scene = scene_from_str(&format!(
            "(version: 1, table: (width: 90, height: 50), figures: [{}], obstacles: (ropes: [{}]))",
            figures.join(", "),
            ropes.join(", ")
        ));
        let mut observed = [0u32; 2];
        for seed in 0..10 {
            let log = run_log(&scene, seed, 2);
            let rolls = events(&log, "rope_overload");
            // Rolled once, when the load first exceeds the rope (`when_excess_grows`).
            assert_eq!(rolls.len(), 200);
            for e in rolls {
                assert_eq!(
                    e.rolls[0].modifiers.last().map(|m| m.value),
                    Some(-(weights.iter().sum::<f32>() as i32 - 5))
                );
                match e.outcome.as_str() {
                    "breaks" => observed[0] += 1,
                    "holds" => observed[1] += 1,
                    other => panic!("{other}"),
                }
            }
        }
        let chi = chi_square(&observed, &[p_break, 1.0 - p_break]);
        assert!(chi < CHI_SQUARE_1_DF_999, "{weights:?}: chi-square {chi}, {observed:?} vs {p_break}");
    }
}

/// The wagon halts short of the grid in move 1 (two rounds of laying done, one to go), and
/// crosses in move 2 once Tom has laid the planks in its first round; without Tom it waits.
#[test]
fn the_wagon_waits_for_the_planks() {
    let scene = raid();
    let mut sim = Simulation::new(&scene, 3);
    sim.step_moves(1);
    let first = sim.take_log();
    let moved = events(&first, "vehicle_moved");
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0].outcome, "stopped_at_grid");
    assert_eq!(moved[0].fields.get("grid").and_then(|v| v.as_str()), Some("Lane grid"));
    let laying: Vec<&str> = events(&first, "planks").iter().map(|e| e.outcome.as_str()).collect();
    assert_eq!(laying, vec!["laying", "laying"]);
    sim.step_moves(1);
    let second = sim.take_log();
    let laying: Vec<&str> = events(&second, "planks").iter().map(|e| e.outcome.as_str()).collect();
    assert_eq!(laying, vec!["laid"]);
    let moved = events(&second, "vehicle_moved");
    assert_eq!(moved[0].outcome, "moved");
    let crossed = moved[0].fields.get("crossed").and_then(|v| v.as_array()).cloned().unwrap_or_default();
    assert_eq!(crossed, vec![serde_json::json!("Lane grid")]);
    let now = sim.scene_now().expect("a scene");
    assert!(now.cattle_grids[0].planks, "the laid planks are saved with the grid");
    assert!(now.obstacles.vehicles[0].position.0 > 45.0);

    let mut no_carter = raid();
    no_carter.obstacles.planks.clear();
    let log = run_log(&no_carter, 3, 3);
    let moved = events(&log, "vehicle_moved");
    assert_eq!(moved.len(), 3);
    assert!(moved.iter().all(|e| e.outcome == "stopped_at_grid"), "{moved:?}");
}

/// The riders crossing the gate stakes from the sharp side are struck by speed band.
#[test]
fn riders_charging_the_stakes_are_struck() {
    let log = run_log(&raid(), 5, 2);
    let strikes = events(&log, "stake_strike");
    let cenric = strikes.iter().find(|e| e.subject == "Horseman Cenric").expect("Cenric crosses the stakes");
    assert_eq!(cenric.outcome, "struck");
    assert_eq!(cenric.fields.get("speed_band").and_then(|v| v.as_str()), Some("fifteen_plus"));
    let mods: Vec<(String, i32)> = cenric.rolls[0].modifiers.iter().map(|m| (m.reason.to_string(), m.value)).collect();
    assert_eq!(mods, vec![("F".to_string(), 1), ("speed 15\"+".to_string(), -4)]);
}

/// The same seed gives the same log bytes, and a scene saved part-way runs on as the whole run did.
#[test]
fn a_saved_raid_runs_on_identically() {
    let scene = raid();
    let whole = run_log(&scene, 7, 4);
    assert_eq!(whole.to_json_lines(), run_log(&scene, 7, 4).to_json_lines());
    assert!(!events(&whole, "grapnel_throw").is_empty());
    let mut sim = Simulation::new(&scene, 7);
    sim.step_moves(1);
    let first = sim.take_log();
    let saved = sim.scene_now().expect("a scene");
    let text = scene_to_ron(&saved).expect("saves");
    let reloaded = parse_scene(&text, Path::new("<saved>")).expect("loads");
    assert_eq!(reloaded, saved);
    let mut resumed = Simulation::new(&reloaded, 7);
    resumed.step_moves(3);
    let mut joined = first.events.clone();
    joined.extend(resumed.take_log().events);
    assert_eq!(joined, whole.events);
}
