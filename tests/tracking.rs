//! Trails through the simulation (000 "Tracking", "Scent Tracking", "Pepper trap"): trails laid
//! as figures move, trackers reading and following them, the scent lost at water, the pepper's
//! sneeze waking sleepers, saving and continuing, the shares of results against the text, and
//! the manhunt scene.

mod common;

use common::{chi_square, scene_from_str};
use std::path::Path;
use tabula::scene::{Scene, TrackerMode, load_scene, parse_scene, scene_to_ron};
use tabula::sim::log::LogEvent;
use tabula::sim::{EventLog, Run, Simulation, run};

// ---- helpers ----

fn events<'a>(log: &'a EventLog, event: &str) -> Vec<&'a LogEvent> {
    log.events.iter().filter(|e| e.event == event).collect()
}

fn text<'a>(e: &'a LogEvent, key: &str) -> Option<&'a str> {
    e.fields.get(key).and_then(|v| v.as_str())
}

fn position(scene: &Scene, name: &str) -> (f32, f32) {
    scene.figures.iter().find(|f| f.name == name).map(|f| f.position).unwrap_or_else(|| panic!("no {name}"))
}

fn manhunt() -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/manhunt.ron")).unwrap_or_else(|e| panic!("{e}"))
}

/// Chi-square 99.9% critical value for 4 degrees of freedom (five result rows).
const CHI_SQUARE_4_DF_999: f64 = 18.467;

// ---- trails laid ----

/// A walker at 6" a move lays its path: the points it passed, each with its move; saved after
/// move 2 the ages are 1 for move 1's points and 0 for move 2's. A scene with no tracker and no
/// trail lays none.
#[test]
fn trails_are_recorded_as_figures_move() {
    let walker = "(name: \"Walker\", position: (1, 10), move_rate: 6, path: [(39, 10)])";
    let untracked = scene_from_str(&format!("(version: 1, table: (width: 40, height: 20), figures: [{walker}])"));
    let Run { end, .. } = run(&untracked, 1, 2);
    assert!(end.trails.trails.is_empty(), "{:?}", end.trails.trails);
    let scene = scene_from_str(&format!(
        "(version: 1, table: (width: 40, height: 20),
          figures: [{walker}, (name: \"Hound\", position: (1, 19), move_rate: 0)],
          trails: (trackers: [(figure: \"Hound\", quarry: \"Walker\", sense: scent(level: 1))]))"
    ));
    let Run { end, .. } = run(&scene, 1, 2);
    let trail = end.trails.trails.iter().find(|t| t.quarry == "Walker").expect("a trail of the walker");
    assert_eq!(trail.name, "Walker trail");
    let points: Vec<((f32, f32), u32)> = trail.points.iter().map(|p| (p.at, p.age_moves)).collect();
    assert_eq!(points, vec![((1.0, 10.0), 1), ((7.0, 10.0), 1), ((13.0, 10.0), 0)]);
    assert!(tabula::scene::load::validate(&end).is_empty(), "the saved scene loads");
}

// ---- following ----

/// A hound at the start of a fresh trail: D6 + 3 (level 3, fresh 0, clear weather). It follows
/// at its 8" (7+), 7" (6), 5" (5) or halts (4), never past the trail's end, where the walker
/// stands after its 6" (the walker moves first).
#[test]
fn a_tracker_follows_a_fresh_trail_and_logs_its_factors() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20),
          figures: [(name: \"Walker\", position: (1, 10), move_rate: 6, path: [(39, 10)]),
                    (name: \"Hound\", position: (1, 10), move_rate: 8)],
          trails: (trackers: [(figure: \"Hound\", quarry: \"Walker\", sense: scent(level: 3))]))",
    );
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let Run { log, end } = run(&scene, seed, 1);
        let rolls = events(&log, "scent_tracking");
        assert_eq!(rolls.len(), 1, "{:?}", log.events);
        let e = rolls[0];
        assert_eq!((e.move_number, e.subject.as_str(), text(e, "quarry")), (1, "Hound", Some("Walker")));
        assert_eq!(text(e, "age"), Some("fresh"));
        assert_eq!(e.rolls.len(), 1);
        let factors: Vec<(&str, i32)> = e.rolls[0].modifiers.iter().map(|m| (&*m.reason, m.value)).collect();
        assert!(factors.contains(&("tracker level", 3)), "{factors:?}");
        assert!(!factors.iter().any(|(r, _)| r.contains("rain") || r.contains("wind")), "{factors:?}");
        let inches = match e.outcome {
            "follow_normal" => 8.0,
            "follow_minus_one" => 7.0,
            "follow_minus_three" => 5.0,
            "halted" => 0.0,
            other => panic!("D6 + 3 cannot give {other}"),
        };
        seen.insert(e.outcome);
        let (x, y) = position(&end, "Hound");
        let expected = 1.0 + f32::min(inches, 6.0);
        assert!((x - expected).abs() < 1e-3 && (y - 10.0).abs() < 1e-3, "{}: at ({x}, {y})", e.outcome);
    }
    assert!(seen.len() >= 3, "forty seeds show most rows: {seen:?}");
}

/// 000 "Scent Tracking": "Scents are lost within 1\" of water obstacles": a hound 0.5" from a
/// stream loses the scent without a roll and searches again past the water (the house rule
/// `tracking.search_again`): the first point of the trail (sampled every quarter inch) at least
/// 3" on and more than 1" from the water, which ends at x = 11.9: (13, 10).
#[test]
fn the_scent_is_lost_at_water_and_found_across_it() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20),
          terrain: [(name: \"stream\", material: water, shape: Rect(min: (10, 0), max: (11.9, 20)))],
          figures: [(name: \"Fugitive\", position: (20, 10)), (name: \"Hound\", position: (9.5, 10), move_rate: 8)],
          trails: (
            trails: [(name: \"old\", quarry: \"Fugitive\", points: [
              (at: (2, 10), age_moves: 5), (at: (9.5, 10), age_moves: 4), (at: (15, 10), age_moves: 3),
              (at: (20, 10), age_moves: 2)])],
            trackers: [(figure: \"Hound\", quarry: \"Fugitive\", sense: scent(level: 3))]))",
    );
    let Run { log, end } = run(&scene, 5, 1);
    let rolls = events(&log, "scent_tracking");
    assert_eq!(rolls.len(), 1);
    assert_eq!(rolls[0].outcome, "lost_at_water");
    assert!(rolls[0].rolls.is_empty(), "no roll at water");
    assert_eq!(rolls[0].fields.get("distance_to_water").and_then(|v| v.as_f64()), Some(0.5));
    assert_eq!(events(&log, "trail_lost").len(), 1);
    let search = events(&log, "search");
    assert_eq!(search.len(), 1);
    assert!(search[0].house_rule_paths().contains(&"tracking.search_again"), "{:?}", search[0]);
    let (x, y) = position(&end, "Hound");
    assert!((x - 13.0).abs() < 1e-3 && (y - 10.0).abs() < 1e-3, "searched at ({x}, {y})");
    // Across the water it dices again the next move, an ordinary roll.
    let Run { log, .. } = run(&scene, 5, 2);
    let second: Vec<_> = events(&log, "scent_tracking").into_iter().filter(|e| e.move_number == 2).collect();
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].rolls.len(), 1, "{:?}", second[0]);
}

// ---- pepper ----

/// A hound following into a draught of pepper sneezes (a screech heard to 9", the house rule
/// `tracking.sneeze_noise`), and a charcoal burner asleep 7" away (beyond the 6" at which
/// movement is diced for, within the sneeze's 9") dices to wake on it; from the next move the
/// hound dices D6 needing 6.
#[test]
fn a_pepper_sneeze_is_heard_by_a_sleeper() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20),
          figures: [(name: \"Fugitive\", position: (30, 10)), (name: \"Hound\", position: (2, 10), move_rate: 8)],
          sleepers: [(name: \"charcoal burners\", position: (4, 17), shelter: open, members: [\"Wat\"])],
          trails: (
            trails: [(name: \"old\", quarry: \"Fugitive\", points: [(at: (2, 10), age_moves: 10), (at: (30, 10), age_moves: 5)])],
            trackers: [(figure: \"Hound\", quarry: \"Fugitive\", sense: scent(level: 3))],
            pepper: [(name: \"pinch\", at: (4, 10))]))",
    );
    let Run { log, end } = run(&scene, 11, 12);
    let pepper = events(&log, "pepper");
    let sneeze = pepper.iter().find(|e| e.outcome == "sneezes").expect("the hound met the pepper");
    assert!(sneeze.house_rule_paths().contains(&"tracking.pepper_radius_in"));
    let m = sneeze.move_number;
    let noise = log
        .events
        .iter()
        .find(|e| e.event == "noise_made" && e.subject == "Hound" && e.move_number == m)
        .expect("the sneeze is a noise");
    assert_eq!(text(noise, "noise"), Some("screech"));
    assert_eq!(noise.fields.get("heard_to").and_then(|v| v.as_f64()), Some(9.0));
    assert!(noise.house_rule_paths().contains(&"tracking.sneeze_noise"));
    assert!(
        log.events.iter().any(|e| e.event == "waking_roll"
            && e.move_number == m
            && text(e, "source") == Some("Hound")
            && text(e, "noise") == Some("screech")),
        "the sleepers dice on the sneeze"
    );
    // It stopped in the pepper, and every later move until a 6 it dices D6 needing 6.
    let later: Vec<_> = pepper.iter().filter(|e| e.move_number > m).collect();
    assert!(!later.is_empty());
    for e in &later {
        assert_eq!(e.rolls.len(), 1);
        assert_eq!(e.rolls[0].target, Some(6));
    }
    if !later.iter().any(|e| e.outcome == "restarts_tracking") {
        let t = end.trails.tracker("Hound").expect("a tracker");
        assert_eq!(t.state.mode, TrackerMode::Sneezing { draught: "pinch".into() });
    }
}

// ---- saving ----

/// The manhunt saved after six moves keeps the trails laid so far, with their ages then, and
/// each tracker's state; run on with the same seed it plays what an unbroken run plays.
#[test]
fn a_saved_manhunt_keeps_its_trails_and_continues_as_an_unbroken_run() {
    let scene = manhunt();
    let whole = run(&scene, 9, 12);
    let half = run(&scene, 9, 6);
    let night = half.end.trails.trails.iter().find(|t| t.name == "night trail").expect("the night trail");
    assert_eq!(night.points[0].age_moves, 40 + 6, "ages count on");
    assert!(night.points.len() > 5, "the fugitive's moves are on his trail");
    assert!(half.end.trails.trails.iter().any(|t| t.quarry == "Brutus"), "trackers lay trails too");
    let text = scene_to_ron(&half.end).expect("saves");
    let saved = parse_scene(&text, Path::new("saved.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(saved.trails, half.end.trails);
    let rest = run(&saved, 9, 6);
    let tail: Vec<String> = whole.log.events.iter().filter(|e| e.move_number > 6).map(|e| e.to_json_line()).collect();
    let resumed: Vec<String> = rest.log.events.iter().map(|e| e.to_json_line()).collect();
    assert_eq!(resumed, tail);
    assert_eq!(rest.end.trails, whole.end.trails);
}

// ---- the shares of results against the text ----

/// Run `scene` from `runs` seeds, one move each, and count the first `event`'s outcome in `rows`.
fn first_move_shares(scene: &Scene, event: &str, rows: &[&str], runs: u64) -> Vec<u32> {
    let mut sim = Simulation::new(scene, 0);
    let mut counts = vec![0u32; rows.len()];
    for seed in 0..runs {
        sim.restart(scene, 1000 + seed);
        sim.step_move();
        let e = sim.log().events.iter().find(|e| e.event == event).unwrap_or_else(|| panic!("no {event}"));
        let i = rows.iter().position(|r| *r == e.outcome).unwrap_or_else(|| panic!("unexpected {}", e.outcome));
        counts[i] += 1;
    }
    counts
}

/// A ranger of level 3 on a stale trail (700 moves: the 2nd day of 480, −2), snow on the ground
/// (+2), in gloom (D/L −1): D6 + 2, totals 3 to 8. Worked out by hand from 000 "Tracking":
/// 7+ on faces 5 and 6 (2/6), 6 on face 4, 5 on face 3, 4 on face 2, 3− on face 1 (1/6 each).
#[test]
fn sight_results_in_play_match_the_text() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20), lighting: \"D/L\",
          figures: [(name: \"Fugitive\", position: (30, 10)), (name: \"Ranger\", position: (2, 10))],
          trails: (
            weather: (snow_on_ground: true),
            trails: [(name: \"old\", quarry: \"Fugitive\", points: [(at: (2, 10), age_moves: 700), (at: (30, 10), age_moves: 700)])],
            trackers: [(figure: \"Ranger\", quarry: \"Fugitive\", sense: sight(level: 3))]))",
    );
    const EXPECTED: [f64; 5] = [2.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0];
    let rows = ["follow_normal", "follow_minus_one", "follow_minus_three", "direction_uncertain", "lost"];
    let observed = first_move_shares(&scene, "sight_tracking", &rows, 3000);
    let chi = chi_square(&observed[..], &EXPECTED);
    assert!(chi < CHI_SQUARE_4_DF_999, "chi-square {chi}: {observed:?} vs {EXPECTED:?}");
}

/// A hound of level 2 on a fresh trail in light rain (−1) inside a counter-scent area of −1:
/// D6 + 0, totals 1 to 6. Worked out by hand from 000 "Scent Tracking": never 7+; 6 on face 6,
/// 5 on face 5, 4 (halted) on face 4 (1/6 each); 3− on faces 1 to 3 (3/6).
#[test]
fn scent_results_in_play_match_the_text() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20),
          figures: [(name: \"Fugitive\", position: (30, 10)), (name: \"Hound\", position: (2, 10), move_rate: 8)],
          trails: (
            weather: (rain: light),
            counter_scents: [(name: \"midden\", area: Circle(center: (2, 10), radius: 1.5), value: -1)],
            trails: [(name: \"old\", quarry: \"Fugitive\", points: [(at: (2, 10), age_moves: 10), (at: (30, 10), age_moves: 5)])],
            trackers: [(figure: \"Hound\", quarry: \"Fugitive\", sense: scent(level: 2))]))",
    );
    // The 7+ row is impossible here; it is counted apart and must stay at 0.
    let rows = ["follow_normal", "follow_minus_one", "follow_minus_three", "halted", "lost"];
    let observed = first_move_shares(&scene, "scent_tracking", &rows, 3000);
    assert_eq!(observed[0], 0, "D6 + 0 never reaches 7");
    const EXPECTED: [f64; 4] = [1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 3.0 / 6.0];
    let chi = chi_square(&observed[1..], &EXPECTED);
    // 3 degrees of freedom, 99.9%.
    assert!(chi < 16.266, "chi-square {chi}: {observed:?} vs {EXPECTED:?}");
}

// ---- the manhunt ----

#[test]
fn the_manhunt_runs_and_its_trackers_read_the_trail() {
    let scene = manhunt();
    assert_eq!(scene.trails.trackers.len(), 3);
    let Run { log, .. } = run(&scene, 18, 40);
    assert!(!events(&log, "scent_tracking").is_empty());
    assert!(!events(&log, "sight_tracking").is_empty());
    // From move 10 the light rain is on the scent rolls.
    let rainy: Vec<_> =
        events(&log, "scent_tracking").into_iter().filter(|e| e.move_number >= 10 && !e.rolls.is_empty()).collect();
    assert!(!rainy.is_empty(), "the hounds dice in the rain");
    for e in rainy {
        assert!(e.rolls[0].modifiers.iter().any(|m| m.reason == "light rain" && m.value == -1), "{e:?}");
    }
    let early = events(&log, "scent_tracking").into_iter().filter(|e| e.move_number < 10 && !e.rolls.is_empty());
    for e in early {
        assert!(!e.rolls[0].modifiers.iter().any(|m| m.reason == "light rain"), "{e:?}");
    }
}

#[test]
fn the_same_seed_gives_the_same_manhunt_log() {
    let scene = manhunt();
    let a = run(&scene, 42, 40).log.to_json_lines();
    let b = run(&scene, 42, 40).log.to_json_lines();
    assert!(a.contains("\"system\":\"tracking\""));
    assert_eq!(a, b);
}

/// The play-test counts, for each tracker, the runs in which it ended a move within 1" of its
/// quarry: exactly the runs whose log holds its `caught_up` event.
#[test]
fn the_manhunt_play_test_counts_how_often_the_hounds_catch_up() {
    use tabula::playtest::{report, run_all, to_csv, to_text};
    let scene = manhunt();
    let runs = run_all(&scene, 12, 40, 1, 2, &|_| {});
    let r = report("manhunt", &runs, 40, 1);
    let names: Vec<&str> = r.trackers.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Brutus", "Fang", "Ranger Hale"]);
    for (i, summary) in runs.iter().enumerate() {
        let Run { log, .. } = run(&scene, summary.seed, 40);
        for t in ["Brutus", "Fang", "Ranger Hale"] {
            let caught = log.events.iter().any(|e| e.event == "caught_up" && e.subject == t);
            assert_eq!(summary.trackers[t].caught_up, caught, "run {i}, {t}");
        }
    }
    let brutus = &r.trackers[0];
    assert_eq!((brutus.quarry.as_str(), brutus.caught_up.of), ("Fugitive", 12));
    let caught = runs.iter().filter(|s| s.trackers["Brutus"].caught_up).count() as u32;
    assert_eq!(brutus.caught_up.count, caught);
    assert!(to_text(&r).contains("caught up"));
    assert!(to_csv(&r).contains("tracker,Brutus,caught_up,"));
}

// ---- the rows in play: guess, backtrack, search again ----

/// The ranger of `sight_results_in_play_match_the_text`: D6 + 2 on a stale trail.
fn ranger_scene() -> Scene {
    scene_from_str(
        "(version: 1, table: (width: 40, height: 20), lighting: \"D/L\",
          figures: [(name: \"Fugitive\", position: (30, 10)), (name: \"Ranger\", position: (2, 10))],
          trails: (
            weather: (snow_on_ground: true),
            trails: [(name: \"old\", quarry: \"Fugitive\", points: [(at: (2, 10), age_moves: 700), (at: (30, 10), age_moves: 700)])],
            trackers: [(figure: \"Ranger\", quarry: \"Fugitive\", sense: sight(level: 3))]))",
    )
}

/// The first seed whose first sight roll gives `outcome`.
fn seed_with_first_sight(scene: &Scene, outcome: &str) -> u64 {
    (0..500)
        .find(|&seed| events(&run(scene, seed, 1).log, "sight_tracking").first().is_some_and(|e| e.outcome == outcome))
        .unwrap_or_else(|| panic!("no seed gives {outcome}"))
}

/// 000 "Tracking", the 4 row: "prey was here but direction uncertain, tracker moves 3" next
/// move in guessed direction and can only follow the track if within 1" of it and the dice
/// score is high enough". With the literal `uncertain_move: next_move` the ranger stays the
/// move of the 4, walks 3" the move after (a guessed heading, tagged), and the move after that
/// dices to pick the trail up, the roll tagged with `tracking.pick_up_at_least`.
#[test]
fn a_direction_uncertain_ranger_stays_guesses_three_inches_then_dices_to_pick_up() {
    let scene = ranger_scene();
    let seed = seed_with_first_sight(&scene, "direction_uncertain");
    let after_one = run(&scene, seed, 1).end;
    assert_eq!(position(&after_one, "Ranger"), (2.0, 10.0), "he stays the move of the 4");
    let Run { log, end } = run(&scene, seed, 2);
    let guesses = events(&log, "guessed_move");
    assert_eq!(guesses.len(), 1, "{:?}", log.events);
    assert_eq!(guesses[0].move_number, 2);
    assert!(guesses[0].house_rule_paths().contains(&"tracking.guessed_direction"));
    assert!(events(&log, "sight_tracking").iter().all(|e| e.move_number == 1), "no reading while guessing");
    let (x, y) = position(&end, "Ranger");
    let walked = ((x - 2.0).powi(2) + (y - 10.0).powi(2)).sqrt();
    assert!((walked - 3.0).abs() < 1e-3 || x <= 0.0 || y <= 0.0 || y >= 20.0, "3\" (or to the edge): {walked}");
    let log = run(&scene, seed, 3).log;
    let third: Vec<_> = events(&log, "sight_tracking").into_iter().filter(|e| e.move_number == 3).collect();
    assert_eq!(third.len(), 1, "{:?}", log.events);
    assert_eq!(third[0].fields.get("picking_up").and_then(|v| v.as_bool()), Some(true));
    assert!(third[0].house_rule_paths().contains(&"tracking.pick_up_at_least"), "{:?}", third[0]);
    // Beyond 1" of the trail there is nothing to pick up: no dice.
    let off = third[0].fields.get("distance_to_trail").and_then(|v| v.as_f64()).expect("a distance");
    if off > 1.0 {
        assert_eq!((third[0].outcome, third[0].rolls.len()), ("off_trail", 0));
    } else {
        assert_eq!(third[0].rolls.len(), 1);
    }
}

/// 000 "Tracking", the 3− row: "lost, backtrack 3" and dice again next move": the trail is
/// lost, he goes back 3" along it (to x = 0 at the trail's start 2" behind him, the table's
/// edge) and dices again the next move.
#[test]
fn a_lost_ranger_backtracks_and_dices_again_next_move() {
    let scene = ranger_scene();
    let seed = seed_with_first_sight(&scene, "lost");
    let Run { log, .. } = run(&scene, seed, 2);
    let lost = events(&log, "trail_lost");
    assert!(!lost.is_empty(), "{:?}", log.events);
    assert_eq!(lost[0].move_number, 1);
    let back = events(&log, "backtracked");
    assert_eq!(back[0].move_number, 1);
    assert_eq!(back[0].fields.get("inches").and_then(|v| v.as_f64()), Some(3.0));
    assert!(events(&log, "sight_tracking").iter().any(|e| e.move_number == 2), "he dices again at move 2");
    // Found again on a following roll after the loss.
    let found_seed = (0..500).find(|&s| {
        let l = run(&scene, s, 2).log;
        events(&l, "sight_tracking").first().is_some_and(|e| e.outcome == "lost")
            && events(&l, "sight_tracking").iter().any(|e| e.move_number == 2 && e.outcome.starts_with("follow"))
    });
    let found_seed = found_seed.expect("some seed loses then follows");
    let log = run(&scene, found_seed, 2).log;
    assert_eq!(events(&log, "trail_found").len(), 1, "{:?}", log.events);
}

/// `rules.tracking.search_again: random_cast` (a house rule): the hound casts 3" from the loss
/// point in a direction from the dice and takes the scent up only within 1" of the trail. Off
/// the trail it casts again; it is never walked onto the trail without a roll.
#[test]
fn a_random_cast_hound_takes_the_scent_up_only_within_an_inch() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20),
          rules: (tracking: (search_again: random_cast)),
          terrain: [(name: \"stream\", material: water, shape: Rect(min: (10, 0), max: (11.9, 20)))],
          figures: [(name: \"Fugitive\", position: (20, 10)), (name: \"Hound\", position: (9.5, 10), move_rate: 8)],
          trails: (
            trails: [(name: \"old\", quarry: \"Fugitive\", points: [
              (at: (2, 10), age_moves: 5), (at: (9.5, 10), age_moves: 4), (at: (15, 10), age_moves: 3),
              (at: (20, 10), age_moves: 2)])],
            trackers: [(figure: \"Hound\", quarry: \"Fugitive\", sense: scent(level: 3))]))",
    );
    let mut cast_again = 0;
    for seed in 0..30 {
        let log = run(&scene, seed, 6).log;
        let searches = events(&log, "search");
        assert!(!searches.is_empty(), "the scent is lost at the water");
        // Each cast (not each arrival) is the house rule's.
        let casts: Vec<_> = searches.iter().filter(|e| e.outcome == "searching").collect();
        assert!(casts.iter().all(|e| e.house_rule_paths().contains(&"tracking.search_again")), "{casts:?}");
        assert!(events(&log, "cast_to_trail").is_empty(), "seed {seed}: walked onto the trail: {:?}", log.events);
        let points: std::collections::BTreeSet<String> =
            searches.iter().filter_map(|e| e.fields.get("at")).map(|v| v.to_string()).collect();
        if points.len() > 1 {
            cast_again += 1;
        }
    }
    // A cast lands within 1" of the straight trail only when it points along it.
    assert!(cast_again > 0, "some hounds cast again");
}
