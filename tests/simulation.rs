//! The Move schedule: movement along waypoints, determinism, round-tripping the world.

mod common;

use common::scene_from_str;
use std::path::Path;
use tabula::scene::load_scene;
use tabula::sim::Simulation;
use tabula::sim::world::{TablePosition, snapshot_scene};
use tabula::sim::{EventLog, MoveClock};
use tabula::sim::{Run, run};

fn example(name: &str) -> tabula::scene::Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_man_walks_six_inches_a_move() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 30, height: 10), figures: [(name: \"Walker\", position: (1, 5), path: [(21, 5)])])",
    );
    let mut app = Simulation::new(&scene, 1);
    app.step_moves(1);
    let world = app.world_mut();
    let pos = world.query::<&TablePosition>().single(world).unwrap().0;
    assert!((pos.x - 7.0).abs() < 1e-4 && (pos.y - 5.0).abs() < 1e-4, "{pos}");
    app.step_moves(3);
    let world = app.world_mut();
    let pos = world.query::<&TablePosition>().single(world).unwrap().0;
    assert!((pos.x - 21.0).abs() < 1e-4, "stops at the last waypoint: {pos}");
    let log = world.resource::<EventLog>();
    let outcomes: Vec<&str> = log.events.iter().map(|e| e.outcome).collect();
    assert_eq!(outcomes, ["moved", "moved", "moved", "arrived"]);
    assert_eq!(world.resource::<MoveClock>().move_number, 4);
}

#[test]
fn going_and_gait_change_the_move() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 30, height: 10),
          terrain: [(name: \"road\", material: paved, shape: Rect(min: (0, 0), max: (30, 4)))],
          figures: [
            (name: \"On the road\", position: (1, 2), path: [(29, 2)]),
            (name: \"Running woman\", position: (1, 6), sex: female, gait: running, path: [(29, 6)]),
          ])",
    );
    let mut app = Simulation::new(&scene, 1);
    app.step_moves(1);
    let log = app.world().resource::<EventLog>();
    let dist = |who: &str| log.events.iter().find(|e| e.subject == who).unwrap().fields["distance"].as_f64().unwrap();
    assert_eq!(dist("On the road"), 7.0);
    assert_eq!(dist("Running woman"), 10.0);
}

#[test]
fn conditions_slow_then_expire() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 60, height: 10), figures: [(name: \"Limper\", position: (1, 5), path: [(59, 5)],
           conditions: [(name: \"strained ankle\", move_penalty: 2, moves_left: Some(2))])])",
    );
    let mut app = Simulation::new(&scene, 1);
    app.step_moves(3);
    let log = app.world().resource::<EventLog>();
    let moves: Vec<f64> =
        log.events.iter().filter(|e| e.event == "moved").map(|e| e.fields["distance"].as_f64().unwrap()).collect();
    assert_eq!(moves, [4.0, 4.0, 6.0]);
    assert!(log.events.iter().any(|e| e.event == "condition_expired" && e.move_number == 2));
}

#[test]
fn same_scene_and_seed_give_identical_logs() {
    for name in ["tomb.ron", "farmstead.ron", "pasture.ron", "night-camp.ron"] {
        let scene = example(name);
        let Run { log: a, .. } = run(&scene, 42, 12);
        let Run { log: b, .. } = run(&scene, 42, 12);
        assert_eq!(a.to_json_lines(), b.to_json_lines(), "{name}");
        assert!(!a.events.is_empty(), "{name} logged nothing");
    }
}

#[test]
fn a_snapshot_of_a_fresh_world_is_the_scene() {
    for name in ["tomb.ron", "farmstead.ron", "pasture.ron", "night-camp.ron"] {
        let scene = example(name);
        let mut app = Simulation::new(&scene, scene.seed);
        let back = snapshot_scene(app.world_mut()).unwrap();
        assert_eq!(scene, back, "{name}");
    }
}

#[test]
fn a_saved_run_continues_like_an_unbroken_one() {
    let scene = example("tomb.ron");
    let Run { log: full, .. } = run(&scene, 9, 6);
    let Run { log: first, end: middle } = run(&scene, 9, 3);
    let Run { log: second, .. } = run(&middle, 9, 3);
    let mut joined = first.to_json_lines();
    joined.push_str(&second.to_json_lines());
    assert_eq!(full.to_json_lines(), joined);
}

#[test]
fn event_lines_carry_the_required_keys() {
    let Run { log, .. } = run(&example("tomb.ron"), 1, 2);
    for line in log.to_json_lines().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for key in ["move", "round", "system", "event", "subject", "rolls", "outcome"] {
            assert!(v.get(key).is_some(), "{key} missing in {line}");
        }
    }
}

#[test]
fn walls_stop_figures_and_open_doors_let_them_through() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 30, height: 10),
          walls: [(name: \"w\", kind: outer, points: [(5, 0), (5, 10)]), (name: \"v\", points: [(5, 5), (5, 10)])],
          doors: [(name: \"door\", from: (5, 1), to: (5, 3), open: true), (name: \"window\", kind: window, from: (5, 6), to: (5, 8), open: true)],
          figures: [
            (name: \"Through the door\", position: (1, 2), path: [(9, 2)]),
            (name: \"At the window\", position: (1, 7), path: [(9, 7)]),
          ])",
    );
    let mut app = Simulation::new(&scene, 1);
    app.step_moves(2);
    let log = app.world().resource::<EventLog>();
    let outcome =
        |who: &str, m: u32| log.events.iter().find(|e| e.subject == who && e.move_number == m).unwrap().outcome;
    assert_eq!(outcome("Through the door", 1), "moved");
    assert_eq!(outcome("Through the door", 2), "arrived");
    assert_eq!(outcome("At the window", 1), "blocked_by_wall");
    let to = log.events.iter().find(|e| e.subject == "At the window").unwrap().fields["to"].clone();
    assert!((to[0].as_f64().unwrap() - 4.95).abs() < 1e-3, "{to}");
}

#[test]
fn an_immobile_condition_holds_a_figure_until_it_ends() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 30, height: 10), figures: [(name: \"Caught\", position: (1, 5), path: [(29, 5)],
           conditions: [(name: \"caught in a loop\", moves_left: Some(2), immobile: true)])])",
    );
    let mut app = Simulation::new(&scene, 1);
    app.step_moves(3);
    let log = app.world().resource::<EventLog>();
    let outcomes: Vec<&str> = log.events.iter().filter(|e| e.event == "moved").map(|e| e.outcome).collect();
    assert_eq!(outcomes, ["held", "held", "moved"]);
}

/// A play-test restarts one simulation per thread for each seed: every example scene (and the
/// stress scene), restarted after runs of other scenes and seeds, logs exactly what a new
/// simulation logs, and ends in the same scene.
#[test]
fn a_restarted_simulation_runs_exactly_as_a_new_one() {
    let mut scenes: Vec<tabula::scene::Scene> =
        ["tomb.ron", "ambush-trail.ron", "farmstead.ron", "pasture.ron", "night-camp.ron", "demo.ron"]
            .into_iter()
            .map(example)
            .collect();
    scenes.push(scene_from_str(&tabula::scene::stress::stress_scene_ron()));
    let mut reused = Simulation::new(&scenes[0], 99);
    reused.step_moves(3);
    for (k, scene) in scenes.iter().enumerate() {
        for seed in [1u64, 7] {
            let moves = if k == scenes.len() - 1 { 2 } else { 12 };
            let Run { log, end } = run(scene, seed, moves);
            reused.restart(scene, seed);
            reused.step_moves(moves);
            assert_eq!(reused.take_log().to_json_lines(), log.to_json_lines(), "scene {k}, seed {seed}");
            assert_eq!(reused.scene_now().as_ref(), Some(&end), "scene {k}, seed {seed}");
        }
    }
}
