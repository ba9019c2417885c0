//! OSR exploration and encounters through the simulation (003, docs/osr.md "In a scene"): the
//! goblin warren on its imported map runs headless and deterministically; the wandering-monster
//! rate and the encounter distances against the numbers worked out by hand; the surprise,
//! reaction, initiative and morale events with their factors; the party's pace; saving mid-run
//! and continuing exactly; and Morval scenes untouched.

mod common;

use common::{chi_square, scene_from_str};
use std::path::Path;
use tabula::scene::uvtt::{ImportSettings, import_uvtt};
use tabula::scene::{Scene, load_scene, parse_scene, scene_to_ron};
use tabula::sim::log::LogEvent;
use tabula::sim::{EventLog, Run, Simulation, run};

/// Chi-square 99.9% critical values by degrees of freedom.
const CHI_SQUARE_1_DF_999: f64 = 10.828;
const CHI_SQUARE_10_DF_999: f64 = 29.588;

fn warren() -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/goblin-warren.ron"))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn events<'a>(log: &'a EventLog, event: &str) -> Vec<&'a LogEvent> {
    log.events.iter().filter(|e| e.system == "encounters" && e.event == event).collect()
}

fn int(e: &LogEvent, key: &str) -> Option<i64> {
    e.fields.get(key).and_then(|v| v.as_i64())
}

fn modifier(e: &LogEvent, reason: &str) -> Option<i32> {
    e.rolls.first()?.modifiers.iter().find(|m| m.reason == reason).map(|m| m.value)
}

/// A 40x40 OSR dungeon with one explorer (no path) and the encounter table given.
fn hall(terrain: &str, table: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 40, height: 40), rules_family: osr,
          figures: [(name: \"Hero\", position: (20, 20))],
          osr: (terrain: {terrain}, entries_from_table_edges: true,
                sheets: [(figure: \"Hero\", hp: 6, max_hp: 6)],
                encounter_table: [{table}]))"
    ))
}

/// The warren's walls and doors are the map's, as `tabula import` reads them at 1" a square.
#[test]
fn the_warren_is_built_on_the_imported_cave() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/uvtt/cave-20x20.dd2vtt");
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let imported =
        import_uvtt(&bytes, "cave-20x20.dd2vtt", &ImportSettings::default()).unwrap_or_else(|e| panic!("{e}"));
    let (map, scene) = (&imported.scene, warren());
    assert_eq!(scene.table, map.table);
    assert_eq!(scene.walls.len(), map.walls.len());
    for (a, b) in scene.walls.iter().zip(&map.walls) {
        assert_eq!((&a.name, a.kind, a.points.len()), (&b.name, b.kind, b.points.len()));
        for (p, q) in a.points.iter().zip(&b.points) {
            assert!((p.0 - q.0).abs() < 1e-4 && (p.1 - q.1).abs() < 1e-4, "{}: {p:?} against {q:?}", a.name);
        }
    }
    assert_eq!(scene.doors.len(), map.doors.len());
    for (a, b) in scene.doors.iter().zip(&map.doors) {
        assert_eq!((&a.name, a.kind, a.open), (&b.name, b.kind, b.open));
        for (p, q) in [(a.from, b.from), (a.to, b.to)] {
            assert!((p.0 - q.0).abs() < 1e-4 && (p.1 - q.1).abs() < 1e-4, "{}", a.name);
        }
    }
}

/// The warren runs headless, the same seed giving the same log, and its turns, checks and
/// encounters appear; the party keeps to Odo's pace (20'/60' under 101-150 lb: 6" a turn).
#[test]
fn the_warren_runs_headless_and_deterministically() {
    let scene = warren();
    let a = run(&scene, 7, 60);
    let b = run(&scene, 7, 60);
    assert_eq!(a.log.to_json_lines(), b.log.to_json_lines());
    assert!(!events(&a.log, "osr_turn").is_empty());
    assert!(!events(&a.log, "wandering_check").is_empty());
    let moved: Vec<&LogEvent> =
        a.log.events.iter().filter(|e| e.event == "moved" && e.subject == "Brand" && e.move_number == 1).collect();
    let allowance = moved.first().and_then(|e| e.fields.get("allowance")).and_then(|v| v.as_f64());
    assert_eq!(allowance, Some(6.0), "the party moves at its slowest member's 60' a turn");
    assert!(tabula::scene::load::validate(&a.end).is_empty(), "the end state loads");
}

/// "For every two turns spent exploring, there is a 1-in-6 chance": a check every second
/// step, and 1/6 of them bring an encounter (by hand: one face of six).
#[test]
fn the_wandering_rate_is_one_in_six_every_two_turns() {
    let scene = hall("dungeon", "");
    let (mut checks, mut encounters) = (0u32, 0u32);
    for seed in 0..4 {
        let Run { log, .. } = run(&scene, seed, 3_000);
        let turns = events(&log, "osr_turn");
        assert_eq!(turns.len(), 3_000, "every step is a turn while exploring");
        let rolled = events(&log, "wandering_check");
        assert_eq!(rolled.len(), 1_500, "one check every two exploring turns");
        for e in &rolled {
            assert_eq!(e.rolls.len(), 1);
            assert_eq!(e.rolls[0].target, Some(1));
            assert_eq!(int(e, "exploring_turns").map(|t| t % 2), Some(0));
        }
        checks += rolled.len() as u32;
        encounters += rolled.iter().filter(|e| e.outcome == "encounter").count() as u32;
    }
    let chi = chi_square(&[encounters, checks - encounters], &[1.0 / 6.0, 5.0 / 6.0]);
    assert!(chi < CHI_SQUARE_1_DF_999, "{encounters} encounters of {checks} checks, chi-square {chi}");
}

/// "Up to 2d6x10 feet away in dungeons": 20' to 120' with the 2d6 chances 1,2,3,4,5,6,5,4,3,2,1
/// in 36 (by hand); each the feet over `feet_per_inch` (10) in inches on the table.
#[test]
fn the_encounter_distance_is_two_d6_times_ten_feet() {
    let scene = hall("dungeon", "(name: \"rat\", count: 1, morale: 5, hp: 1, reaction: friendly)");
    let mut observed = [0u32; 11];
    for seed in 0..24 {
        let Run { log, .. } = run(&scene, 100 + seed, 1_500);
        for e in events(&log, "monsters_arrive") {
            let feet = int(e, "feet").expect("feet");
            assert!(feet % 10 == 0 && (20..=120).contains(&feet), "{feet} feet");
            assert_eq!(e.fields.get("unit").and_then(|v| v.as_str()), Some("feet"));
            let inches = e.fields.get("inches").and_then(|v| v.as_f64()).expect("inches");
            assert!((inches - feet as f64 / 10.0).abs() < 1e-9);
            observed[(feet / 10 - 2) as usize] += 1;
        }
    }
    let ways = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0];
    let expected: Vec<f64> = ways.iter().map(|w| w / 36.0).collect();
    let n: u32 = observed.iter().sum();
    assert!(n > 2_500, "enough encounters: {n}");
    let chi = chi_square(&observed, &expected);
    assert!(chi < CHI_SQUARE_10_DF_999, "{observed:?}, chi-square {chi}");
}

/// "Or yards in the wilderness": the same 2d6×10, in yards, three feet each.
#[test]
fn wilderness_distances_are_in_yards() {
    let scene = hall("wilderness", "(name: \"wolf\", count: 1, morale: 8, hp: 3, reaction: indifferent)");
    let Run { log, .. } = run(&scene, 3, 600);
    let arrivals = events(&log, "monsters_arrive");
    assert!(!arrivals.is_empty());
    for e in arrivals {
        assert_eq!(e.fields.get("unit").and_then(|v| v.as_str()), Some("yards"));
        assert_eq!(int(e, "feet"), int(e, "distance").map(|d| d * 3));
    }
}

/// Surprise, reaction, initiative and morale events carry their factors: the lit party's case
/// (party 2 in 6, goblins 1 in 6), the face's +1 and the dwarves' −2, 1d6 a side, and the
/// morale check's circumstance, score and 2d10.
#[test]
fn encounter_events_carry_their_factors() {
    let scene = warren();
    let (mut surprises, mut reactions, mut initiatives, mut morale, mut loyalty) = (0, 0, 0, 0, 0);
    for seed in 0..60 {
        let Run { log, .. } = run(&scene, seed, 80);
        for e in events(&log, "surprise") {
            surprises += 1;
            assert_eq!(e.fields.get("case").and_then(|v| v.as_str()), Some("encounter_one_in_six"));
            assert_eq!(int(e, "party_in_six"), Some(2));
            let off_guard = e.fields.get("awareness").and_then(|v| v.as_str()) == Some("off_guard");
            assert_eq!(int(e, "monsters_in_six"), Some(if off_guard { 3 } else { 1 }));
            assert_eq!(e.rolls.len(), 2, "the party's D6, then the goblins'");
            assert_eq!(e.rolls[0].target, Some(2));
        }
        for e in events(&log, "reaction") {
            reactions += 1;
            assert_eq!(modifier(e, "face's reaction modifier"), Some(1));
            assert_eq!(modifier(e, "goblins hate dwarves"), Some(-2));
            assert_eq!(e.fields.get("face").and_then(|v| v.as_str()), Some("Mira"));
            assert!(e.fields.get("possible_actions").and_then(|v| v.as_array()).is_some_and(|a| !a.is_empty()));
        }
        for e in events(&log, "combat_phase").into_iter().filter(|e| !e.rolls.is_empty()) {
            initiatives += 1;
            assert!(e.outcome == "initiative" || e.outcome == "s2a_initiative", "{}", e.outcome);
            assert!(e.rolls.len() >= 2 && e.rolls.iter().all(|r| r.faces.len() == 1));
        }
        for e in events(&log, "morale_check") {
            morale += 1;
            let triggers = e.fields.get("triggers").and_then(|v| v.as_array()).expect("triggers");
            assert!(triggers.iter().any(|t| t.as_str() == Some("group_dead")), "{triggers:?}");
            let score = int(e, "score").expect("score");
            assert!(score == 7 || score == 6);
            assert_eq!(e.rolls.len(), 1);
            assert_eq!(e.rolls[0].target, Some(score as i32));
            assert_eq!(e.rolls[0].faces.len(), 2, "2d10");
            assert!(["acts_normally", "flees", "surrenders"].contains(&e.outcome.as_str()));
        }
        for e in events(&log, "loyalty_check") {
            loyalty += 1;
            assert_eq!(e.subject, "Odo");
            let triggers = e.fields.get("triggers").and_then(|v| v.as_array()).expect("triggers");
            assert!(triggers.iter().any(|t| t.as_str() == Some("low_hp")), "{triggers:?}");
        }
    }
    assert!(surprises > 0 && reactions > 0 && initiatives > 0, "{surprises} {reactions} {initiatives}");
    assert!(morale > 0, "the GM's hits kill a third of the goblins in some run");
    assert!(loyalty > 0, "Odo's hurt in round 3 of some combat");
}

/// A scene saved mid-run (an encounter in progress in some seeds) reads back the same and
/// continues exactly as the unbroken run.
#[test]
fn a_saved_warren_continues_as_an_unbroken_run() {
    let scene = warren();
    let mut mid_combat = 0;
    for seed in 0..60 {
        let Run { log: whole, .. } = run(&scene, seed, 40);
        let Run { end: halfway, .. } = run(&scene, seed, 16);
        let text = scene_to_ron(&halfway).unwrap_or_else(|e| panic!("{e}"));
        let saved = parse_scene(&text, Path::new("saved.ron")).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(saved, halfway, "seed {seed}: the saved scene reads back the same");
        if saved.osr.encounter.is_some() {
            mid_combat += 1;
        }
        let mut sim = Simulation::new(&saved, seed);
        sim.step_moves(24);
        let rest = sim.take_log();
        let after: Vec<String> =
            whole.events.iter().filter(|e| e.move_number > 16).map(LogEvent::to_json_line).collect();
        let resumed: Vec<String> = rest.events.iter().map(LogEvent::to_json_line).collect();
        assert_eq!(after, resumed, "seed {seed}");
    }
    assert!(mid_combat > 0, "some seed saves in the middle of a combat");
}

/// A Morval scene has no OSR event and writes no OSR field.
#[test]
fn morval_scenes_have_no_encounters() {
    let scene = load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/farmstead.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    let Run { log, end } = run(&scene, 1, 6);
    assert!(log.events.iter().all(|e| e.system != "encounters"));
    let text = scene_to_ron(&end).unwrap_or_else(|e| panic!("{e}"));
    assert!(!text.contains("rules_family") && !text.contains("osr:"));
}

/// The play-test counts encounters, surprises and routs for an OSR scene, in text and CSV.
#[test]
fn the_play_test_counts_encounters_surprises_and_routs() {
    use tabula::playtest::{report, run_all, to_csv, to_text};
    let scene = warren();
    let runs = run_all(&scene, 40, 60, 1, 2, &|_| {});
    let r = report("warren", &runs, 60, 1);
    let o = r.encounters.as_ref().expect("an OSR scene reports its encounters");
    assert!(o.runs_with_encounter.count > 0);
    assert!(o.party_surprised.of > 0 && o.party_surprised.of == o.monsters_surprised.of);
    assert!(to_text(&r).contains("party surprised"));
    assert!(to_csv(&r).contains("encounters,,runs_with_rout"));
    let morval = load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/farmstead.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    let runs = run_all(&morval, 2, 3, 1, 1, &|_| {});
    assert!(report("farm", &runs, 3, 1).encounters.is_none());
}
