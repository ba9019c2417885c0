//! OSR exploration and encounters through the simulation (003, docs/osr.md "In a scene"): the
//! goblin warren on its imported map runs headless and deterministically; the wandering-monster
//! rate and the encounter distances against the numbers worked out by hand; the surprise,
//! reaction, initiative and morale events with their factors; the party's pace; saving mid-run
//! and continuing exactly; a scene's attack tables fighting combats to their end, their hit
//! rates and targets; no check while a combat runs; the checks in Morval time, every N moves;
//! and Morval scenes without an encounter table untouched.

mod common;

use common::{chi_square, scene_from_str};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use tabula::rules::dice::Dice;
use tabula::scene::osr::{EncounterEntry, OsrStanding};
use tabula::scene::uvtt::{ImportSettings, import_uvtt};
use tabula::scene::{Scene, load_scene, parse_scene, scene_to_ron};
use tabula::sim::encounters::MORVAL_COMBAT_NOTE;
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
            assert!(["acts_normally", "flees", "surrenders"].contains(&e.outcome));
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

// ---- a scene's attack table (docs/osr.md "Attacks from a scene's table") ----

/// Brand's sword and Mira's sling (ranged), as the arena's sheets write them.
const ARENA_PARTY: &str =
    "(figure: \"Brand\", hp: 8, max_hp: 8, attack: (roll: D20, hit_on: 11, bonus: 1, damage: D6)),
     (figure: \"Mira\", hp: 5, max_hp: 5, attack: (roll: D20, hit_on: 12, damage: D3, ranged: true))";

/// Three goblins that always attack, each with a short sword.
const GOBLINS: &str = "(name: \"goblin\", count: 3, morale: 7, hp: 3, reaction: hostile,
     attack: (roll: D20, hit_on: 13, damage: D6))";

/// A 40x40 OSR dungeon: Brand at (20, 20) and Mira at (21, 20), standing still, the monsters
/// coming in by the table edges; `rules.osr` as given; no GM orders.
fn arena(rules: &str, sheets: &str, table: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 40, height: 40), rules_family: osr, rules: (osr: ({rules})),
          figures: [(name: \"Brand\", position: (20, 20)), (name: \"Mira\", position: (21, 20))],
          osr: (entries_from_table_edges: true, sheets: [{sheets}], encounter_table: [{table}]))"
    ))
}

fn text<'a>(e: &'a LogEvent, key: &str) -> Option<&'a str> {
    e.fields.get(key).and_then(|v| v.as_str())
}

/// Every combat of the arena is fought out by the tables: each attack's D20 with its bonus
/// against the number to hit, the damage die on a hit only, the target's hit points down by
/// the damage, the dead counted, the morale checks following, and every combat ending in
/// slaughter, surrender or retreat with no GM's order.
#[test]
fn an_attack_table_fights_each_combat_to_its_end() {
    let scene = arena("fights_at: hostile", ARENA_PARTY, GOBLINS);
    let (mut begun, mut ended, mut attacks, mut kills, mut morale) = (0usize, 0usize, 0u32, 0u32, 0usize);
    for seed in 0..20 {
        let Run { log, .. } = run(&scene, seed, 120);
        let combats = events(&log, "combat").iter().filter(|e| e.outcome == "combat_begins").count();
        let endings = events(&log, "combat_ended");
        for e in &endings {
            assert!(["slaughter", "surrender", "retreat"].contains(&e.outcome), "seed {seed}: {}", e.outcome);
        }
        assert!(endings.len() <= combats && combats <= endings.len() + 1, "seed {seed}: only the last may run on");
        begun += combats;
        ended += endings.len();
        let mut hp: BTreeMap<String, i64> = BTreeMap::from([("Brand".into(), 8), ("Mira".into(), 5)]);
        for e in events(&log, "attack") {
            attacks += 1;
            let (hit_on, bonus, damage_die, ranged) = match e.subject.as_str() {
                "Brand" => (11, 1, Dice::D6, false),
                "Mira" => (12, 0, Dice::D3, true),
                _ => (13, 0, Dice::D6, false),
            };
            let roll = &e.rolls[0];
            assert_eq!((roll.dice, roll.faces.len(), roll.target), (Dice::D20, 1, Some(hit_on)));
            assert_eq!(roll.total, roll.natural() + bonus);
            let hit = roll.total >= hit_on;
            assert_eq!(e.outcome, if hit { "hit" } else { "miss" }, "seed {seed}");
            let damage = int(e, "damage").expect("damage");
            if hit {
                assert_eq!((e.rolls.len(), e.rolls[1].dice), (2, damage_die));
                assert_eq!(damage, i64::from(e.rolls[1].total.max(0)));
            } else {
                assert_eq!((e.rolls.len(), damage), (1, 0));
            }
            let phase = text(e, "phase").expect("phase");
            let phases = if ranged { ["s4_ranged", "ranged"] } else { ["s6_melee", "melee"] };
            assert!(phases.contains(&phase), "{}: {phase}", e.subject);
            assert_eq!(e.house_rule_paths(), vec!["osr.attacks", "osr.attack_targets"]);
            let target = text(e, "target").expect("target").to_string();
            let before = *hp.entry(target.clone()).or_insert(3);
            assert!(before > 0, "seed {seed}: {target} attacked when down");
            let after = before - damage;
            hp.insert(target.clone(), after);
            assert_eq!(int(e, "hp"), Some(after), "seed {seed}: {target}");
            let killed = e.fields.get("killed").and_then(|v| v.as_bool()) == Some(true);
            assert_eq!(killed, after <= 0, "seed {seed}: {target}");
            kills += u32::from(killed);
        }
        morale += events(&log, "morale_check").len();
    }
    assert!(begun > 20 && ended + 20 >= begun, "{begun} combats, {ended} ended");
    assert!(attacks > 200 && kills > 20, "{attacks} attacks, {kills} kills");
    assert!(morale > 0, "the goblins' dead bring morale checks");
}

/// The hit rate against the chance worked out from the die and the number to hit: Brand's
/// D20 + 1 against 14 hits on the faces 13 to 20, 8 in 20; the ogre's D6 against 5 on the 5
/// and the 6, 2 in 6. Neither falls in the run (10000 hp each: the ogre takes about 3500, 8 in
/// 20 of a D6's 3.5 a round, Brand at most 3 a round) nor breaks (Brand has no morale, the ogre
/// fights to the last), so the one combat runs on: no second encounter comes while it does.
#[test]
fn the_hit_rate_is_the_table_s() {
    let scene = arena(
        "fights_at: hostile",
        "(figure: \"Brand\", hp: 10000, max_hp: 10000, attack: (roll: D20, hit_on: 14, bonus: 1, damage: D6))",
        "(name: \"ogre\", count: 1, morale: 7, hp: 10000, reaction: hostile, fights_to_the_last: true,
          attack: (roll: D6, hit_on: 5, damage: D3))",
    );
    let (mut brand, mut ogre) = ([0u32; 2], [0u32; 2]);
    for seed in 0..4 {
        let Run { log, .. } = run(&scene, 300 + seed, 2_500);
        assert_eq!(events(&log, "encounter_drawn").len(), 1, "seed {seed}: the fight never ends");
        assert!(events(&log, "combat_ended").is_empty());
        for e in events(&log, "attack") {
            let tally = if e.subject == "Brand" { &mut brand } else { &mut ogre };
            tally[usize::from(e.outcome != "hit")] += 1;
        }
    }
    let n = brand[0] + brand[1];
    assert!(n > 9_000, "{n} attacks by Brand");
    let chi = chi_square(&brand, &[8.0 / 20.0, 12.0 / 20.0]);
    assert!(chi < CHI_SQUARE_1_DF_999, "Brand hits {brand:?}, chi-square {chi}");
    let chi = chi_square(&ogre, &[2.0 / 6.0, 4.0 / 6.0]);
    assert!(chi < CHI_SQUARE_1_DF_999, "the ogre hits {ogre:?}, chi-square {chi}");
}

/// Follows the arena's log and checks each attack's target under `rules.osr.attack_targets`:
/// among the foes still fighting (not killed by an attack, not fled or surrendered on morale),
/// the nearest (to within the log's thousandths) or the first in scene order. The attacks checked.
fn check_targets(log: &EventLog, nearest: bool) -> u32 {
    let party = ["Brand", "Mira"];
    let mut at: BTreeMap<String, (f64, f64)> =
        BTreeMap::from([("Brand".into(), (20.0, 20.0)), ("Mira".into(), (21.0, 20.0))]);
    let mut out: BTreeSet<String> = BTreeSet::new();
    let mut monsters: Vec<String> = Vec::new();
    let mut checked = 0;
    for e in log.events.iter().filter(|e| e.system == "encounters") {
        match e.event {
            "monsters_arrive" => {
                let names = e.fields.get("monsters").and_then(|v| v.as_array()).expect("monsters");
                let placed = e.fields.get("placed").and_then(|v| v.as_array()).expect("placed");
                monsters = names.iter().filter_map(|n| n.as_str().map(String::from)).collect();
                for (name, p) in monsters.iter().zip(placed) {
                    let xy = p.as_array().expect("a point");
                    let (x, y) = (xy[0].as_f64().expect("x"), xy[1].as_f64().expect("y"));
                    at.insert(name.clone(), (x, y));
                }
            }
            "morale_check" | "loyalty_check" if e.outcome != "acts_normally" => {
                out.insert(e.subject.clone());
            }
            "attack" => {
                let target = text(e, "target").expect("target").to_string();
                let foes: Vec<String> = if party.contains(&e.subject.as_str()) {
                    monsters.clone()
                } else {
                    party.iter().map(|p| p.to_string()).collect()
                };
                let able: Vec<&String> = foes.iter().filter(|f| !out.contains(*f)).collect();
                assert!(able.contains(&&target), "{} attacks {target}, not fighting: {able:?}", e.subject);
                if nearest {
                    let from = at[&e.subject];
                    let d = |n: &str| (at[n].0 - from.0).hypot(at[n].1 - from.1);
                    let least = able.iter().map(|n| d(n.as_str())).fold(f64::INFINITY, f64::min);
                    assert!(
                        d(target.as_str()) <= least + 0.01,
                        "{} attacks {target}, not the nearest of {able:?}",
                        e.subject
                    );
                } else {
                    assert_eq!(Some(&&target), able.first(), "{} attacks the first still fighting", e.subject);
                }
                if e.fields.get("killed").and_then(|v| v.as_bool()) == Some(true) {
                    out.insert(target);
                }
                checked += 1;
            }
            _ => {}
        }
    }
    checked
}

/// `attack_targets: nearest` (the default) and `scene_order`, followed through the log.
#[test]
fn attacks_go_at_the_foe_the_setting_picks() {
    for (rules, nearest) in [("fights_at: hostile", true), ("attack_targets: scene_order", false)] {
        let scene = arena(rules, ARENA_PARTY, GOBLINS);
        let mut checked = 0;
        for seed in 0..12 {
            let Run { log, .. } = run(&scene, 50 + seed, 120);
            checked += check_targets(&log, nearest);
            for e in events(&log, "attack") {
                assert_eq!(text(e, "target_choice"), Some(if nearest { "nearest" } else { "scene_order" }));
            }
        }
        assert!(checked > 100, "{rules}: {checked} attacks");
    }
}

/// `attacks: gm_only`: the tables are never rolled; the goblins stand, the combat runs on.
#[test]
fn gm_only_rolls_no_attack() {
    let scene = arena("attacks: gm_only", ARENA_PARTY, GOBLINS);
    let Run { log, end } = run(&scene, 2, 200);
    assert!(!events(&log, "combat_phase").is_empty(), "a combat began");
    assert!(events(&log, "attack").is_empty());
    assert!(end.osr.sheets.iter().all(|s| s.standing == OsrStanding::Fighting && s.hp == s.max_hp));
}

/// "For every two turns spent exploring": a combat's rounds are not exploring turns, so no
/// check comes due while one runs and no second encounter is spawned on top of it; exploring
/// goes on after it, each check two exploring turns after the last, none lost or doubled.
#[test]
fn no_wandering_check_while_a_combat_runs() {
    let scene = arena("fights_at: hostile", ARENA_PARTY, GOBLINS);
    let mut combats = 0;
    for seed in 0..20 {
        let Run { log, .. } = run(&scene, seed, 120);
        let begins: Vec<u32> =
            events(&log, "combat").iter().filter(|e| e.outcome == "combat_begins").map(|e| e.move_number).collect();
        let ends: Vec<u32> = events(&log, "combat_ended").iter().map(|e| e.move_number).collect();
        let mut fighting = BTreeSet::new();
        for (i, &from) in begins.iter().enumerate() {
            // The last may run past the end of the run.
            let to = ends.get(i).copied().unwrap_or(120);
            assert!(to > from || ends.get(i).is_none(), "seed {seed}: a combat ends after it begins");
            fighting.extend(from + 1..=to);
            combats += 1;
        }
        for e in log.events.iter().filter(|e| e.system == "encounters" && fighting.contains(&e.move_number)) {
            let exploring = ["osr_turn", "wandering_check", "encounter_drawn", "monsters_arrive"];
            assert!(!exploring.contains(&e.event), "seed {seed}: {} in move {} of a combat", e.event, e.move_number);
        }
        for e in events(&log, "combat_phase") {
            assert!(fighting.contains(&e.move_number), "seed {seed}: a combat step outside a combat");
        }
        for (i, e) in events(&log, "wandering_check").iter().enumerate() {
            assert_eq!(int(e, "exploring_turns"), Some(2 * (i as i64 + 1)), "seed {seed}: check {}", i + 1);
        }
    }
    assert!(combats > 20, "{combats} combats");
}

/// A scene saved in the middle of a fight by the tables (the monsters' attacks on their
/// sheets) reads back the same and continues exactly as the unbroken run.
#[test]
fn a_saved_fight_by_the_tables_continues_exactly() {
    let scene = arena("fights_at: hostile", ARENA_PARTY, GOBLINS);
    let mut mid_combat = 0;
    for seed in 0..30 {
        let Run { log: whole, .. } = run(&scene, seed, 50);
        let Run { end: halfway, .. } = run(&scene, seed, 20);
        let text = scene_to_ron(&halfway).unwrap_or_else(|e| panic!("{e}"));
        let saved = parse_scene(&text, Path::new("saved.ron")).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(saved, halfway, "seed {seed}: the saved scene reads back the same");
        if let Some(enc) = &saved.osr.encounter {
            mid_combat += 1;
            for m in &enc.monsters {
                let armed = saved.osr.sheet(m).is_some_and(|s| s.attack.is_some());
                assert!(armed, "seed {seed}: {m} has its row's attack");
            }
        }
        let mut sim = Simulation::new(&saved, seed);
        sim.step_moves(30);
        let rest = sim.take_log();
        let after: Vec<String> =
            whole.events.iter().filter(|e| e.move_number > 20).map(LogEvent::to_json_line).collect();
        let resumed: Vec<String> = rest.events.iter().map(LogEvent::to_json_line).collect();
        assert_eq!(after, resumed, "seed {seed}");
    }
    assert!(mid_combat > 0, "some seed saves in the middle of a combat");
}

// ---- Morval time (docs/osr.md "In Morval time") ----

/// A 40x40 Morval scene (no `rules_family`) with one explorer, an OSR encounter table and a
/// check every `every` moves.
fn morval_hall(every: u32, table: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 40, height: 40), rules: (osr: (moves_per_wandering_check: {every})),
          figures: [(name: \"Hero\", position: (20, 20))],
          osr: (entries_from_table_edges: true, sheets: [(figure: \"Hero\", hp: 6, max_hp: 6)],
                encounter_table: [{table}]))"
    ))
}

/// Under Morval with an OSR encounter table: a check on the 3rd, 6th, ... move of the clock
/// and no other (`moves_per_wandering_check: 3`), 1 in 6 of them an encounter (by hand: one face
/// of six); the monsters come, surprise and reaction are rolled, no combat is stepped and no OSR
/// clock kept.
#[test]
fn morval_time_checks_every_n_moves_one_in_six() {
    let scene = morval_hall(3, "(name: \"rat\", count: 1, morale: 5, hp: 1)");
    let (mut checks, mut encounters, mut not_stepped) = (0u32, 0u32, 0u32);
    for seed in 0..6 {
        let Run { log, end } = run(&scene, 40 + seed, 1_800);
        let rolled = events(&log, "wandering_check");
        assert_eq!(rolled.len(), 600, "seed {seed}: a check every third move");
        for e in &rolled {
            assert_eq!(e.move_number % 3, 0, "seed {seed}: a check in move {}", e.move_number);
            assert_eq!((e.rolls.len(), e.rolls[0].target), (1, Some(1)));
            assert_eq!(int(e, "moves_per_wandering_check"), Some(3));
            assert_eq!(text(e, "rules_family"), Some("morval"));
        }
        let came = rolled.iter().filter(|e| e.outcome == "encounter").count();
        assert_eq!(events(&log, "monsters_arrive").len(), came);
        assert_eq!(events(&log, "reaction").len(), came);
        assert_eq!(end.osr.encounters_had as usize, came);
        assert!(events(&log, "osr_turn").is_empty() && events(&log, "combat_phase").is_empty());
        assert!(log.events.iter().filter(|e| e.system == "encounters").all(|e| !e.fields.contains_key("osr_turn")));
        for e in events(&log, "combat") {
            assert_ne!(e.outcome, "combat_begins");
            if e.outcome == "combat_not_stepped" {
                not_stepped += 1;
                assert_eq!(text(e, "note"), Some(MORVAL_COMBAT_NOTE));
            }
        }
        assert!(end.osr.encounter.is_none(), "no encounter stays in progress in Morval time");
        checks += rolled.len() as u32;
        encounters += came as u32;
    }
    let chi = chi_square(&[encounters, checks - encounters], &[1.0 / 6.0, 5.0 / 6.0]);
    assert!(chi < CHI_SQUARE_1_DF_999, "{encounters} encounters of {checks} checks, chi-square {chi}");
    assert!(not_stepped > 0, "a hostile rat now and then: the fight is the GM's");
}

/// Under Morval no combat is stepped, so none stays in progress: the check N moves on is made
/// whatever the last monsters do, and a second group may come while the GM plays the first
/// ("more encounters can occur during combats due to either third parties or reinforcements").
#[test]
fn morval_checks_go_on_while_the_gm_plays_a_fight() {
    let scene = morval_hall(1, "(name: \"orc\", count: 2, morale: 8, hp: 4, reaction: hostile)");
    let Run { log, end } = run(&scene, 9, 120);
    assert_eq!(events(&log, "wandering_check").len(), 120);
    let combats = events(&log, "combat");
    assert!(combats.len() >= 2, "{} encounters", combats.len());
    for e in &combats {
        assert_eq!(e.outcome, "combat_not_stepped");
        assert_eq!(e.house_rule_paths(), vec!["osr.fights_at"]);
    }
    assert!(end.osr.encounter.is_none());
    let orcs = end.figures.iter().filter(|f| f.name.starts_with("orc ")).count();
    assert_eq!(orcs, 2 * combats.len(), "every group stays on the table for the GM");
    let saved = scene_to_ron(&end).unwrap_or_else(|e| panic!("{e}"));
    assert!(!saved.contains("rules_family"), "still a Morval scene");
}

/// A Morval scene saved between checks continues exactly (the checks count the clock's moves).
#[test]
fn a_saved_morval_scene_keeps_its_checks() {
    let scene = morval_hall(4, "(name: \"rat\", count: 1, morale: 5, hp: 1, reaction: friendly)");
    for seed in 0..6 {
        let Run { log: whole, .. } = run(&scene, seed, 80);
        let Run { end: halfway, .. } = run(&scene, seed, 30);
        let text = scene_to_ron(&halfway).unwrap_or_else(|e| panic!("{e}"));
        let saved = parse_scene(&text, Path::new("saved.ron")).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut sim = Simulation::new(&saved, seed);
        sim.step_moves(50);
        let rest = sim.take_log();
        let after: Vec<String> =
            whole.events.iter().filter(|e| e.move_number > 30).map(LogEvent::to_json_line).collect();
        let resumed: Vec<String> = rest.events.iter().map(LogEvent::to_json_line).collect();
        assert_eq!(after, resumed, "seed {seed}");
        assert!(rest.events.iter().filter(|e| e.event == "wandering_check").all(|e| e.move_number % 4 == 0));
    }
}

/// A Morval scene whose OSR section has no encounter table rolls nothing and logs nothing: its
/// log is byte for byte the plain scene's, however often a check would come; one row in the
/// table and the same scene checks every move (the comparison can fail).
#[test]
fn a_morval_scene_without_a_table_rolls_nothing() {
    let farm = load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/farmstead.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    let plain = run(&farm, 5, 30).log.to_json_lines();
    let mut no_table = farm.clone();
    no_table.rules.osr.moves_per_wandering_check = 1;
    no_table.osr.entries_from_table_edges = true;
    let Run { log, .. } = run(&no_table, 5, 30);
    assert!(log.events.iter().all(|e| e.system != "encounters"));
    assert_eq!(log.to_json_lines(), plain, "no die, no event");
    let mut with_table = no_table.clone();
    let rat: EncounterEntry =
        serde_json::from_str(r#"{"name":"rat","count":1,"morale":5,"hp":1,"reaction":"friendly"}"#).expect("a row");
    with_table.osr.encounter_table.push(rat);
    let Run { log, .. } = run(&with_table, 5, 30);
    assert_eq!(events(&log, "wandering_check").len(), 30);
    assert_ne!(log.to_json_lines(), plain);
}
