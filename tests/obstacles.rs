//! Obstacles through the simulation (000 "Sharpened Stakes", "Grapnels, Ropes, and cords"; 001
//! "Cattle Grids", "Climbing over High broken glass topped walls"): the lodgement, throw-down,
//! rope-break and cutting rates against the text's, cut ropes dropping their climbers, figures
//! stopped at walls climbing ropes and glass-topped walls (and plain walls still blocking),
//! carrying costs, stakes built in play, the wagon at the grid, saving and continuing, and the
//! wall-raid scene.

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
            match e.outcome {
                "lodged" => lodgement[0] += 1,
                "no_lodgement" => lodgement[1] += 1,
                other => panic!("{other}"),
            }
        }
        for e in events(&log, "throw_down") {
            assert_eq!(e.rolls[0].target, Some(7));
            match e.outcome {
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
                match e.outcome {
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
    let laying: Vec<&str> = events(&first, "planks").iter().map(|e| e.outcome).collect();
    assert_eq!(laying, vec!["laying", "laying"]);
    sim.step_moves(1);
    let second = sim.take_log();
    let laying: Vec<&str> = events(&second, "planks").iter().map(|e| e.outcome).collect();
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

/// Chi-square 99.9% critical value for 2 degrees of freedom.
const CHI_SQUARE_2_DF_999: f64 = 13.816;

fn field_f64(e: &LogEvent, key: &str) -> f64 {
    e.fields.get(key).and_then(|v| v.as_f64()).unwrap_or_else(|| panic!("{key} in {e:?}"))
}

fn field_str<'a>(e: &'a LogEvent, key: &str) -> &'a str {
    e.fields.get(key).and_then(|v| v.as_str()).unwrap_or_else(|| panic!("{key} in {e:?}"))
}

fn mods(e: &LogEvent) -> Vec<(String, i32)> {
    e.rolls[0].modifiers.iter().map(|m| (m.reason.to_string(), m.value)).collect()
}

/// Where the scene has the figure `name`.
fn position_of(scene: &Scene, name: &str) -> (f32, f32) {
    scene.figures.iter().find(|f| f.name == name).map(|f| f.position).unwrap_or_else(|| panic!("{name}"))
}

/// 200 light ropes (5 quabits, half 3 rounded up), hanging with no grapnel and no climbers, each
/// with a cutter 0.5" from its anchor and a strike 1 blade.
fn cutting_field() -> Scene {
    let mut figures = Vec::new();
    let mut ropes = Vec::new();
    let mut cuts = Vec::new();
    for i in 0..200 {
        let (x, y) = (2.0 + (i % 20) as f32 * 4.0, 2.0 + (i / 20) as f32 * 4.0);
        figures.push(format!("(name: \"K{i}\", side: \"keep\", position: ({}, {y}))", x + 0.5));
        ropes.push(format!("(name: \"R{i}\", kind: light, anchor: ({x}, {y}), height_in: 3)"));
        cuts.push(format!("(cutter: \"K{i}\", rope: \"R{i}\", weapon_strike: 1, from_move: 1)"));
    }
    scene_from_str(&format!(
        "(version: 1, table: (width: 90, height: 50), figures: [{}], obstacles: (ropes: [{}], cuts: [{}]))",
        figures.join(", "),
        ropes.join(", "),
        cuts.join(", ")
    ))
}

/// 000: "D10 + Weapon strike - half ropes quabit strength. = -2- fail, -1+ weaken -2 quabits, +1 +
/// rope cut". A light rope (5, half 3) and a strike 1 blade: total = face − 2 on a D10 of 0–9.
/// Fail at −2 or less: face 0 (1 in 10); weaken at −1 and 0: faces 1, 2 (2 in 10); cut at +1 or
/// more: faces 3–9 (7 in 10). Each rope's first try is in round 1 of move 1; a weakened rope
/// (3 quabits) then halves to 2, and a cut rope is tried no more.
#[test]
fn cutting_rates_match_the_text() {
    let scene = cutting_field();
    let mut first = [0u32; 3];
    for seed in 0..10 {
        let mut sim = Simulation::new(&scene, seed);
        sim.step_moves(1);
        let log = sim.take_log();
        let mut strength: std::collections::HashMap<String, i32> = std::collections::HashMap::new();
        let mut cut: std::collections::HashSet<String> = std::collections::HashSet::new();
        for e in events(&log, "cut_rope") {
            let rope = field_str(e, "rope").to_string();
            assert!(!cut.contains(&rope), "{rope} was cut, and tried again: {e:?}");
            let before = *strength.get(&rope).unwrap_or(&5);
            assert_eq!(field_f64(e, "strength_before"), f64::from(before), "{e:?}");
            let half = (before + 1) / 2;
            let wanted = vec![("weapon strike".to_string(), 1), ("half rope's quabit strength".to_string(), -half)];
            assert_eq!(mods(e), wanted);
            let total = e.rolls[0].total;
            let band = if total >= 1 {
                "cut"
            } else if total >= -1 {
                "weakened"
            } else {
                "fail"
            };
            assert_eq!(e.outcome, band, "{e:?}");
            match e.outcome {
                "weakened" => {
                    assert_eq!(field_f64(e, "strength_after"), f64::from((before - 2).max(0)));
                    strength.insert(rope, (before - 2).max(0));
                }
                "cut" => {
                    cut.insert(rope);
                }
                _ => {}
            }
            if e.round == Some(1) {
                match e.outcome {
                    "fail" => first[0] += 1,
                    "weakened" => first[1] += 1,
                    "cut" => first[2] += 1,
                    other => panic!("{other}"),
                }
            }
        }
        // The rope state is saved: each cut rope parted, each weakened one at its new strength.
        let now = sim.scene_now().expect("a scene");
        for r in &now.obstacles.ropes {
            assert_eq!(r.parted, cut.contains(&r.name), "{}", r.name);
            let expected = strength.get(&r.name).map(|&s| s as u32);
            assert_eq!(r.strength_quabits, expected, "{}", r.name);
        }
    }
    assert_eq!(first.iter().sum::<u32>(), 2000);
    let chi = chi_square(&first, &[0.1, 0.2, 0.7]);
    assert!(chi < CHI_SQUARE_2_DF_999, "cutting chi-square {chi}: {first:?}");
}

/// A rope cut while two men hang on it drops them both, each from his height, the falls
/// reported with their strikes (house rule `as_pit_fall`); a blunt weapon is reported once.
#[test]
fn a_cut_rope_drops_its_climbers() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 20, height: 20),
          walls: [(name: \"Wall\", points: [(10, 0), (10, 20)])],
          figures: [(name: \"Ann\", position: (9.5, 10)), (name: \"Bo\", position: (9.5, 10.5)),
                    (name: \"Cutter\", side: \"keep\", position: (10.5, 10)),
                    (name: \"Clubber\", side: \"keep\", position: (10.5, 15))],
          obstacles: (
              ropes: [(name: \"Rope\", kind: light, anchor: (10, 10), height_in: 4,
                       climbers: [(figure: \"Ann\", height_in: 1, weight_quabits: 2),
                                  (figure: \"Bo\", height_in: 3, weight_quabits: 2)]),
                      (name: \"Other rope\", kind: light, anchor: (10, 15), height_in: 4)],
              cuts: [(cutter: \"Cutter\", rope: \"Rope\", weapon_strike: 20, from_move: 1),
                     (cutter: \"Clubber\", rope: \"Other rope\", weapon_strike: 5, sharp_edged: false, from_move: 1)]))",
    );
    let mut sim = Simulation::new(&scene, 11);
    sim.step_moves(2);
    let log = sim.take_log();
    let cuts = events(&log, "cut_rope");
    assert_eq!(cuts.len(), 2, "one cut and one blunt report: {cuts:?}");
    let cut = cuts.iter().find(|e| e.subject == "Cutter").expect("the cut");
    assert_eq!(cut.outcome, "cut");
    assert_eq!((cut.move_number, cut.round), (1, Some(1)));
    let falls = cut.fields.get("falls").and_then(|v| v.as_array()).cloned().unwrap_or_default();
    assert_eq!(falls.len(), 2, "{falls:?}");
    assert_eq!(falls[0]["figure"], "Ann");
    assert_eq!(falls[0]["height_in"], 1.0);
    assert_eq!(falls[1]["figure"], "Bo");
    assert_eq!(falls[1]["height_in"], 3.0);
    assert!(falls.iter().all(|f| f["strike"].is_number()), "{falls:?}");
    // The D10, then each fall's strike.
    assert_eq!(cut.rolls.len(), 3);
    assert!(cut.house_rule_paths().contains(&"obstacles.rope_fall_strike"));
    let blunt = cuts.iter().find(|e| e.subject == "Clubber").expect("the blunt try");
    assert_eq!(blunt.outcome, "not_sharp_edged");
    assert!(blunt.rolls.is_empty());
    let now = sim.scene_now().expect("a scene");
    let rope = &now.obstacles.ropes[0];
    assert!(rope.parted && rope.climbers.is_empty(), "{rope:?}");
    assert!(!now.obstacles.ropes[1].parted);
    assert!(!now.obstacles.cuts[0].done && now.obstacles.cuts[1].done);
}

fn climbing_scene(rope_kind: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 20, height: 20),
          walls: [(name: \"Wall\", points: [(10, 0), (10, 20)])],
          figures: [(name: \"Climber\", position: (7, 10), path: [(14, 10)],
                     inventory: [(name: \"mooring rope\", kind: mooring_rope), (name: \"grapnel\", kind: grapnel)])],
          obstacles: (ropes: [(name: \"Rope\", kind: {rope_kind}, anchor: (10, 10), height_in: 4)]))"
    ))
}

/// A figure whose path the wall stops takes the hanging rope within 1" and climbs it in two
/// rounds (house rule `rope_climb_rounds`: half way after the first), comes down 0.05" beyond the
/// wall and walks on next move. He carries a mooring rope (heavier: ½) and a grapnel with it
/// (½): 1 fatigue endurance, reported, not applied; ¼ + 1 quabits by the house-rule weights.
#[test]
fn a_figure_stopped_at_a_wall_climbs_a_hanging_rope() {
    let mut sim = Simulation::new(&climbing_scene("permanent"), 4);
    sim.step_moves(1);
    let log = sim.take_log();
    let climb = events(&log, "rope_climb");
    let seen: Vec<(&str, Option<u8>, f64)> =
        climb.iter().map(|e| (e.outcome, e.round, field_f64(e, "height_in"))).collect();
    assert_eq!(seen, vec![("takes_rope", Some(1), 2.0), ("climbing", Some(2), 4.0), ("over_the_wall", Some(2), 4.0)]);
    assert!(climb.iter().all(|e| e.house_rule_paths() == vec!["obstacles.rope_climb_rounds"]), "{climb:?}");
    // 4 quabits and his 1¼ on a rope for 10: no overload roll.
    assert_eq!(field_f64(climb[0], "weight_quabits"), 5.25);
    assert!(events(&log, "rope_overload").is_empty());
    let carrying = events(&log, "carrying");
    assert_eq!(carrying.len(), 1);
    assert_eq!(carrying[0].outcome, "endurance_cost");
    assert_eq!(field_f64(carrying[0], "fatigue_endurance_cost"), 1.0);
    assert_eq!(field_f64(carrying[0], "weight_quabits"), 1.25);
    assert!((field_f64(carrying[0], "weight_lb") - 1.25 * 16.0 * 2.204_623).abs() < 1e-2);
    assert_eq!(carrying[0].fields.get("applied"), Some(&serde_json::json!(false)));
    let paths = carrying[0].house_rule_paths();
    assert!(paths.contains(&"obstacles.weights.mooring_rope") && paths.contains(&"obstacles.weights.grapnel"));
    let now = sim.scene_now().expect("a scene");
    let (x, y) = position_of(&now, "Climber");
    assert!((x - 10.05).abs() < 1e-3 && (y - 10.0).abs() < 1e-4, "over the wall: ({x}, {y})");
    assert!(now.obstacles.ropes[0].climbers.is_empty());
    assert_eq!(now.figures[0].path, vec![(14.0, 10.0)]);
    assert_eq!(now.figures[0].fatigue, 0, "the endurance cost is reported, not taken as fatigue points");
    sim.step_moves(1);
    let log = sim.take_log();
    let moved: Vec<&LogEvent> =
        log.events.iter().filter(|e| e.system == "movement" && e.subject == "Climber").collect();
    assert_eq!(moved[0].outcome, "arrived");
    assert!(events(&log, "rope_climb").is_empty());
    assert_eq!(position_of(&sim.scene_now().expect("a scene"), "Climber"), (14.0, 10.0));
}

/// On a light rope (5) his 5¼ quabits overload it as he takes it: D6 − 1 (a begun quabit
/// counts), rolled in the round he takes it; broken, he falls from half way and stays at the
/// foot; held, he goes over.
#[test]
fn a_climber_overloading_a_rope_rolls_as_he_takes_it() {
    let mut broke = 0;
    for seed in 0..12 {
        let mut sim = Simulation::new(&climbing_scene("light"), seed);
        sim.step_moves(1);
        let log = sim.take_log();
        let overload = events(&log, "rope_overload");
        assert_eq!(overload.len(), 1, "{overload:?}");
        let o = overload[0];
        assert_eq!((o.move_number, o.round), (1, Some(1)));
        assert_eq!(field_f64(o, "load_quabits"), 5.25);
        assert_eq!(field_f64(o, "excess_quabits"), 1.0);
        let now = sim.scene_now().expect("a scene");
        let (x, _) = position_of(&now, "Climber");
        match o.outcome {
            "breaks" => {
                broke += 1;
                let falls = o.fields.get("falls").and_then(|v| v.as_array()).cloned().unwrap_or_default();
                assert_eq!(falls.len(), 1);
                assert_eq!(falls[0]["figure"], "Climber");
                assert_eq!(falls[0]["height_in"], 2.0);
                assert!(x < 10.0, "fallen at the foot: {x}");
                assert!(now.obstacles.ropes[0].parted);
                assert!(!events(&log, "rope_climb").iter().any(|e| e.outcome == "over_the_wall"));
            }
            "holds" => assert!(x > 10.0, "over: {x}"),
            other => panic!("{other}"),
        }
    }
    // D6 − 1 breaks on faces 1–3: half the time; 12 seeds all one way is 1 in 2048.
    assert!((1..12).contains(&broke), "{broke} of 12 broke");
}

/// Walls still block: a plain wall with no rope at hand, and a rider (who cannot take a rope)
/// at a rope, both wait at the wall move after move.
#[test]
fn plain_walls_still_block_paths() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 20, height: 20),
          walls: [(name: \"Wall\", points: [(10, 0), (10, 20)])],
          figures: [(name: \"Walker\", position: (7, 15), path: [(14, 15)]),
                    (name: \"Rider\", mounted: true, position: (7, 5), path: [(14, 5)])],
          obstacles: (ropes: [(name: \"Rope\", kind: mooring, anchor: (10, 5), height_in: 4)]))",
    );
    let log = run_log(&scene, 2, 3);
    assert!(events(&log, "rope_climb").is_empty() && events(&log, "glass_wall_reached").is_empty());
    let blocked = log.events.iter().filter(|e| e.system == "movement" && e.outcome == "blocked_by_wall").count();
    assert_eq!(blocked, 6, "both blocked in each of 3 moves");
}

/// A figure stopped at a glass-topped wall sets about climbing it, his newspaper giving the +1;
/// with the target at −20 (a setting) every try gets over, and he walks on from beyond the wall.
#[test]
fn a_figure_stopped_at_a_glass_wall_climbs_it() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 20, height: 20),
          walls: [(name: \"Garden wall\", points: [(10, 0), (10, 20)], height_in: 4, glass_topped: true)],
          figures: [(name: \"Edda\", sex: female, position: (7, 10), path: [(14, 10)],
                     inventory: [(name: \"newspaper\", kind: cloth_or_newspaper, weight_quabits: 0.01)])],
          rules: (obstacles: (glass_wall_target: -20)))",
    );
    let mut sim = Simulation::new(&scene, 9);
    sim.step_moves(1);
    let log = sim.take_log();
    let reached = events(&log, "glass_wall_reached");
    assert_eq!(reached.len(), 1);
    assert_eq!(reached[0].outcome, "at_glass_wall");
    assert_eq!(reached[0].round, Some(1));
    assert_eq!(reached[0].fields.get("cloth"), Some(&serde_json::json!(true)));
    assert_eq!(reached[0].fields.get("height_in"), Some(&serde_json::json!(4.0)), "the wall's own height");
    let tries = events(&log, "glass_wall_climb");
    assert_eq!(tries.len(), 1, "one try a move (glass_wall_rounds_per_try 2)");
    assert_eq!(tries[0].round, Some(2));
    assert_eq!(tries[0].outcome, "climbed");
    assert_eq!(mods(tries[0]), vec![("Pst AvD".to_string(), -2), ("cloth or newspaper used".to_string(), 1)]);
    assert!(events(&log, "carrying").is_empty(), "a newspaper costs no endurance");
    let now = sim.scene_now().expect("a scene");
    let (x, _) = position_of(&now, "Edda");
    assert!((x - 10.05).abs() < 1e-3, "{x}");
    assert!(now.obstacles.glass_walls.is_empty(), "no climbers left: no entry is saved");
    sim.step_moves(1);
    assert_eq!(position_of(&sim.scene_now().expect("a scene"), "Edda"), (14.0, 10.0));
}

/// 000 "Sharpened Stakes": "Take 2 moves to fell & 3 moves to position & sharpen": a builder
/// within 1" of the line works a move each move; a builder 3" off does nothing; a rider crossing
/// the unfinished line is not struck.
#[test]
fn a_figure_builds_stakes_in_play() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 30, height: 20),
          figures: [(name: \"Builder\", position: (10.5, 10)), (name: \"Idler\", position: (23, 10)),
                    (name: \"Rider\", mounted: true, move_rate: 16, position: (2, 3), path: [(20, 3)])],
          obstacles: (stake_lines: [
              (name: \"New stakes\", from: (10, 2), to: (10, 18), sharp_side: (5, 10), moves_worked: 0, builder: \"Builder\"),
              (name: \"Idle stakes\", from: (20, 2), to: (20, 18), sharp_side: (25, 10), moves_worked: 0, builder: \"Idler\"),
          ]))",
    );
    let mut sim = Simulation::new(&scene, 1);
    sim.step_moves(6);
    let log = sim.take_log();
    let work = events(&log, "stake_work");
    assert!(work.iter().all(|e| e.subject == "New stakes"), "{work:?}");
    let left = |e: &LogEvent| field_f64(e, "moves_left");
    let seen: Vec<(u32, &str, f64, &str, f64)> = work
        .iter()
        .copied()
        .map(|e| (e.move_number, e.outcome, field_f64(e, "moves_worked"), field_str(e, "stage"), left(e)))
        .collect();
    assert_eq!(
        seen,
        vec![
            (1, "stakes_building", 1.0, "felling", 4.0),
            (2, "stakes_building", 2.0, "positioning", 3.0),
            (3, "stakes_building", 3.0, "positioning", 2.0),
            (4, "stakes_building", 4.0, "positioning", 1.0),
            (5, "stakes_ready", 5.0, "ready", 0.0),
        ]
    );
    assert!(events(&log, "stake_strike").is_empty(), "the rider crossed in move 1, before the line was ready");
    let now = sim.scene_now().expect("a scene");
    assert_eq!(now.obstacles.stake_lines[0].moves_worked, Some(5));
    assert_eq!(now.obstacles.stake_lines[1].moves_worked, Some(0));
}

/// A wagon whose leg crosses a grid with planks beyond a nearer grid without: it stops at the
/// nearer one, and has crossed neither (the grids are met in order along the leg, not in scene
/// order).
#[test]
fn a_wagon_stops_at_the_first_grid_it_meets() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 50, height: 20),
          cattle_grids: [(name: \"Far grid\", from: (30, 5), to: (30, 15), planks: true),
                         (name: \"Near grid\", from: (20, 5), to: (20, 15))],
          obstacles: (vehicles: [(name: \"Wagon\", position: (10, 10), path: [(40, 10)], move_rate: 25)]))",
    );
    let log = run_log(&scene, 1, 1);
    let moved = events(&log, "vehicle_moved");
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0].outcome, "stopped_at_grid");
    assert_eq!(field_str(moved[0], "grid"), "Near grid");
    assert_eq!(moved[0].fields.get("crossed"), Some(&serde_json::json!([])));
    let to = moved[0].fields.get("to").and_then(|v| v.as_array()).cloned().unwrap_or_default();
    assert_eq!(to, vec![serde_json::json!(19.75), serde_json::json!(10.0)]);
}

/// The wall raid's cut order and Sigurd's climb run from the scene: Warder Cole's tries are
/// logged with his D10 and the rope's half strength, and every carrier of grapnel and rope has
/// his ½ reported each move.
#[test]
fn the_raid_cuts_and_carries() {
    let log = run_log(&raid(), 7, 3);
    for e in events(&log, "cut_rope") {
        assert_eq!(e.subject, "Warder Cole");
        assert_eq!(field_str(e, "rope"), "Sigurd's rope");
        assert_eq!(e.rolls[0].modifiers[0].value, 1, "weapon strike: {e:?}");
    }
    let carrying = events(&log, "carrying");
    assert_eq!(carrying.len(), 4 * 3, "Osric, Wulf, Grim and Sigurd, each move");
    for e in carrying {
        assert_eq!(field_f64(e, "fatigue_endurance_cost"), 0.5, "{e:?}");
        assert_eq!(field_f64(e, "weight_quabits"), 0.5, "grapnel ¼ and light rope ¼: {e:?}");
    }
    let reached = events(&log, "rope_climb").len() + events(&log, "glass_wall_reached").len();
    assert!(reached > 0, "Sigurd takes his rope or sets about the glass");
}

/// 000 "Sharpened Stakes": foot attacking "deduct 1" from normal move & 3" from charge move",
/// "Advancing from behind sharpened stakes Riders -3" Foot -1"": the inches come off the end of
/// the move in which the line is crossed, never putting the figure back behind the line.
#[test]
fn crossing_a_stake_line_costs_the_inches_of_the_text() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 30, height: 24),
          figures: [
              (name: \"Walker\", move_rate: 12, position: (1, 4), path: [(29, 4)]),
              (name: \"Charger\", move_rate: 14, gait: running, position: (1, 8), path: [(29, 8)]),
              (name: \"Retreater\", move_rate: 12, position: (19, 12), path: [(0, 12)]),
              (name: \"Horseman\", mounted: true, move_rate: 17, position: (19, 16), path: [(0, 16)]),
              (name: \"Late\", move_rate: 6, position: (5, 20), path: [(29, 20)]),
              (name: \"Stroller\", move_rate: 6, position: (20, 2), path: [(26, 2)]),
          ],
          obstacles: (stake_lines: [(name: \"Stakes\", from: (10, 0), to: (10, 24), sharp_side: (5, 12))]))",
    );
    let mut sim = Simulation::new(&scene, 4);
    sim.step_moves(1);
    let log = sim.take_log();
    let now = sim.scene_now().expect("a scene");
    let x = |name| position_of(&now, name).0;
    // From the sharp side on foot: 12" walked, 1" off (walking); 14" run, 3" off (a charge).
    assert!((x("Walker") - 12.0).abs() < 1e-3, "{}", x("Walker"));
    assert!((x("Charger") - 12.0).abs() < 1e-3, "{}", x("Charger"));
    // From behind: foot 1", the rider 3" off his 16" (17 less 1" as a non-rider).
    assert!((x("Retreater") - 8.0).abs() < 1e-3, "{}", x("Retreater"));
    assert!((x("Horseman") - 6.0).abs() < 1e-3, "{}", x("Horseman"));
    // Crossing in the last inch: he stops just past the line, not behind it.
    assert!((x("Late") - 10.05).abs() < 1e-3, "{}", x("Late"));
    // Not crossing: the full move.
    assert!((x("Stroller") - 26.0).abs() < 1e-3, "{}", x("Stroller"));
    let crossed = events(&log, "stakes_crossed");
    let loss: Vec<(&str, f64, bool)> = crossed
        .iter()
        .map(|e| {
            (
                e.subject.as_str(),
                field_f64(e, "move_loss_in"),
                e.fields.get("applied") == Some(&serde_json::json!(true)),
            )
        })
        .collect();
    assert_eq!(
        loss,
        vec![
            ("Walker", 1.0, true),
            ("Charger", 3.0, true),
            ("Retreater", 1.0, true),
            ("Horseman", 3.0, true),
            ("Late", 1.0, true)
        ]
    );
    assert_eq!(field_f64(crossed[4], "ends_at_in"), 5.05);
    // The waypoint not reached stays on the path: the next move walks on from there.
    sim.step_moves(1);
    let next = sim.scene_now().expect("a scene");
    assert!((position_of(&next, "Walker").0 - 24.0).abs() < 1e-3);
}
