//! Days of rest after the fight (docs/injuries.md "Rest"): injuries located on the scene's
//! tables, the left for dead living or dying, wounds healing with the treatment ordered, every
//! roll logged, the same seed the same days.

mod common;

use common::scene_from_str;
use std::path::Path;
use tabula::rules::dice::Dice;
use tabula::rules::injuries::HealingStage;
use tabula::scene::{ConditionKind, Scene, SceneError, Treatment, load_scene, parse_scene, scene_to_ron};
use tabula::sim::{LogEvent, RestError, RestRun, rest, run};

fn example(name: &str) -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn rest_ok(scene: &Scene, days: u32, seed: u64) -> RestRun {
    rest(scene, days, seed).unwrap_or_else(|e| panic!("{e}"))
}

fn field<'a>(e: &'a LogEvent, key: &str) -> &'a serde_json::Value {
    e.fields.get(key).unwrap_or(&serde_json::Value::Null)
}

/// Every healing injury in the scene: (figure, condition, stage, days done, healing time).
fn healing_of(scene: &Scene) -> Vec<(String, String, HealingStage, u32, u32)> {
    let mut out = Vec::new();
    for f in &scene.figures {
        for c in &f.conditions {
            if let Some(h) = c.healing {
                out.push((f.name.clone(), c.name.clone(), h.stage, h.days_done(), h.total_days));
            }
        }
    }
    out
}

/// A scene written and read back is the same scene, and passes every check.
fn round_trips(scene: &Scene) {
    let text = scene_to_ron(scene).unwrap_or_else(|e| panic!("{e}"));
    let back = parse_scene(&text, Path::new("rested.ron")).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&back, scene);
}

/// The tomb after a 20-move fight, rested 30 days with the infirmary's location tables: the
/// hurt are located or left for dead; what still heals after the first day has 29 more days
/// done after 30 (festering adds to the healing time and to what is left alike), or healed, or
/// its figure died (a death ends the figure's days). The rest's first day is the one-day rest; resting on from it is the
/// unbroken rest; the rested scene loads again.
#[test]
fn the_tomb_after_twenty_moves_heals_over_thirty_days() {
    let tables = example("infirmary.ron").location_tables;
    let mut healing = 0;
    for seed in 1..=200u64 {
        let mut after = run(&example("tomb.ron"), seed, 20).end;
        after.location_tables = tables.clone();
        let one = rest_ok(&after, 1, seed);
        let thirty = rest_ok(&after, 30, seed);
        let n = one.log.events.len();
        assert_eq!(thirty.log.events[..n], one.log.events[..], "seed {seed}: the first day");
        for e in &thirty.log.events {
            assert_eq!(e.system, "injuries");
            let day = field(e, "day").as_u64().expect("every rest event has its day");
            assert_eq!(u64::from(e.move_number), 20 + day * 480, "stamped with the day's end");
            assert_eq!(e.round, None);
        }
        for e in &thirty.log.events {
            let rolled = matches!(e.event, "wound_recovery" | "unconscious")
                || (e.event == "location" && e.outcome == "located")
                || (e.event == "apparently_dead" && e.outcome != "definitely_dead");
            assert!(!rolled || !e.rolls.is_empty(), "every roll logged: {}", e.to_json_line());
        }
        let later = healing_of(&thirty.end);
        let dead = |figure: &str| {
            thirty
                .end
                .figures
                .iter()
                .any(|f| f.name == figure && f.conditions.iter().any(|c| c.kind == ConditionKind::Dead))
        };
        for (figure, condition, stage, done, total) in healing_of(&one.end) {
            if stage != HealingStage::Recovering {
                continue;
            }
            healing += 1;
            if dead(&figure) {
                // A death ends the figure's days: its other injuries heal no more.
                continue;
            }
            match later.iter().find(|h| h.0 == figure && h.1 == condition) {
                Some((_, _, HealingStage::Recovering, done30, total30)) => {
                    assert!(*done30 >= done + 29, "seed {seed}: {figure} {condition}: {done} then {done30} days done");
                    assert!(*total30 >= total);
                }
                Some(_) => {}
                None => {
                    let healed = thirty.log.events.iter().any(|e| {
                        e.subject == figure
                            && e.event == "healing_day"
                            && e.outcome == "healed"
                            && field(e, "condition").as_str() == Some(condition.as_str())
                    });
                    assert!(healed, "seed {seed}: {figure} {condition} went without healing or dying");
                }
            }
        }
        round_trips(&thirty.end);
        assert_eq!(rest_ok(&one.end, 29, seed).end, thirty.end, "seed {seed}: resting on from day one");
        if healing >= 3 {
            break;
        }
    }
    assert!(healing >= 1, "no figure of the tomb was left hurt and healing in 200 runs");
}

#[test]
fn the_same_seed_rests_the_same_and_another_seed_differs() {
    let scene = example("infirmary.ron");
    let a = rest_ok(&scene, 30, 5).log.to_json_lines();
    assert!(!a.is_empty());
    assert_eq!(a, rest_ok(&scene, 30, 5).log.to_json_lines());
    assert_ne!(a, rest_ok(&scene, 30, 6).log.to_json_lines());
}

/// The infirmary's tables locate its wounds, its orders treat them, and each kind of injury
/// takes its own road.
#[test]
fn the_infirmary_uses_its_tables_and_orders() {
    let scene = example("infirmary.ron");
    let rested = rest_ok(&scene, 30, scene.seed);
    let events = &rested.log.events;
    let of = |who: &'static str, what: &'static str| events.iter().filter(move |e| e.subject == who && e.event == what);
    // Gunnar's sword cut is located on the wound table, D%.
    let cut = of("Gunnar", "location").next().expect("Gunnar's wound located");
    assert_eq!(cut.outcome, "located");
    assert!(field(cut, "report").as_str().is_some_and(|r| r.starts_with("wound: ")), "{}", cut.to_json_line());
    assert_eq!(cut.rolls[0].dice, Dice::Percent);
    // Balm: no infection roll; a constant 2nd-level healer: one deduction (D6), the day he has
    // attended half the time.
    let days: Vec<&LogEvent> = of("Gunnar", "healing_day").collect();
    assert!(days.iter().all(|e| e.rolls.iter().all(|r| r.dice == Dice::D6)), "only the healer's D6");
    assert_eq!(days.iter().filter(|e| !field(e, "healer_days").is_null()).count(), 1);
    assert!(days.iter().any(|e| field(e, "rest_days_deducted") == 1), "full rest deducts");
    // Jorg's crippling was struck with a mace: −5 to the D%.
    let knee = of("Jorg", "location").next().expect("Jorg's crippling located");
    assert!(knee.rolls[0].modifiers.iter().any(|m| m.reason == "blunt weapon" && m.value == -5));
    assert_eq!(*field(knee, "wound"), "crippling");
    // Ida's burn: a burn table, holy water on the first day (counting as balm: no infection roll).
    let burn = of("Ida", "location").next().expect("Ida's burn located");
    assert!(field(burn, "report").as_str().is_some_and(|r| r.starts_with("burn: ")));
    let first = of("Ida", "healing_day").next().expect("Ida's first day");
    assert_eq!(field(first, "day"), 1);
    assert!(!field(first, "holy_water_days").is_null());
    assert!(first.rolls.iter().any(|r| r.modifiers.iter().any(|m| m.reason == "holy water 35%")));
    assert!(of("Ida", "healing_day").all(|e| e.rolls.iter().all(|r| !(r.dice == Dice::D10 && r.modifiers.is_empty()))));
    // Old Tam has no order: 001's sore wound, its D20 + 10 days, and an infection roll a day.
    let tam = of("Old Tam", "wound_recovery").next().expect("Tam's recovery rolled");
    assert_eq!((tam.outcome, tam.rolls[0].dice), ("sore_wounded", Dice::D20));
    let first = of("Old Tam", "healing_day").next().expect("Tam's first day");
    assert_eq!(field(first, "day"), 1);
    assert_eq!((first.rolls[0].dice, first.rolls[0].modifiers.len()), (Dice::D10, 0));
    // Wulf is left for dead after wounds: 000 by default. Hilde was apparently dead in fire:
    // 001, +1 for treatment within 3 moves.
    let wulf = of("Wulf", "apparently_dead").next().expect("Wulf's recoverability");
    assert_eq!(*field(wulf, "text"), "optional_rules_000");
    let hilde = of("Hilde", "apparently_dead").next().expect("Hilde's saga recovery");
    assert_eq!(*field(hilde, "text"), "saga_recovery_001");
    assert!(hilde.rolls[0].modifiers.iter().any(|m| m.reason == "treated within 3 moves" && m.value == 1));
    // Kurt is out for his Ucon roll, then comes round (7 × D6 hours at most: under two days).
    assert!(of("Kurt", "unconscious").next().is_some_and(|e| e.rolls.len() == 2));
    assert_eq!(of("Kurt", "came_round").count(), 1);
    // Bertha's spear thrust was healing already: full rest finishes it on the third day, and a
    // healed wound leaves the list.
    let healed = of("Bertha", "healing_day").find(|e| e.outcome == "healed").expect("Bertha healed");
    assert_eq!(field(healed, "day"), 3);
    let bertha = rested.end.figures.iter().find(|f| f.name == "Bertha").expect("Bertha");
    assert!(bertha.conditions.is_empty());
    // The clock has moved on 30 days; the rested scene loads again.
    assert_eq!(rested.end.clock.moves_played, 30 * 480);
    round_trips(&rested.end);
}

fn order(patient: &str) -> Treatment {
    Treatment::for_patient(patient)
}

/// Treatment changes what happens: holy water ends the infection checks and takes days off;
/// full rest takes a day every second day.
#[test]
fn treatment_changes_the_healing() {
    let mut untreated = example("infirmary.ron");
    untreated.treatments.clear();
    let mut holy = untreated.clone();
    holy.treatments.push(Treatment { holy_water: 1, ..order("Old Tam") });
    let mut resting = untreated.clone();
    resting.treatments.push(Treatment { full_rest: true, ..order("Old Tam") });
    let tam_days = |scene: &Scene, days: u32| -> Vec<LogEvent> {
        rest_ok(scene, days, 3)
            .log
            .events
            .into_iter()
            .filter(|e| e.subject == "Old Tam" && e.event == "healing_day")
            .collect()
    };
    let infection_rolls = |events: &[LogEvent]| {
        events.iter().flat_map(|e| &e.rolls).filter(|r| r.dice == Dice::D10 && r.modifiers.is_empty()).count()
    };
    assert!(infection_rolls(&tam_days(&untreated, 10)) >= 1);
    assert_eq!(infection_rolls(&tam_days(&holy, 10)), 0, "holy water counts as balm");
    // The same recovery roll (the dice before Tam are the same), fewer days left with holy water.
    let left = |scene: &Scene| {
        let one = rest_ok(scene, 1, 3).end;
        healing_of(&one).into_iter().find(|h| h.0 == "Old Tam").map(|h| h.4 - h.3).expect("Tam heals")
    };
    assert!(left(&holy) < left(&untreated), "holy water takes (D10 + 35)% off");
    let rested = tam_days(&resting, 4);
    let deducted: Vec<u64> = rested.iter().map(|e| field(e, "rest_days_deducted").as_u64().unwrap_or(0)).collect();
    assert!(deducted.len() >= 2, "a day logged every second day at least: {deducted:?}");
    assert!(rested.iter().any(|e| field(e, "day") == 2 && field(e, "rest_days_deducted") == 1));
    assert!(rested.iter().all(|e| field(e, "day") != 1 || field(e, "rest_days_deducted") == 0));
}

/// The left for dead: the dead become `dead` and nothing more is rolled for them; the living
/// are unconscious 20 + D10 hours and regain their fitness over 6 × D10 + 5 days.
#[test]
fn the_left_for_dead_live_or_die() {
    let scene = example("infirmary.ron");
    let (mut died, mut lived) = (false, false);
    for seed in 0..200u64 {
        let rested = rest_ok(&scene, 2, seed);
        let wulf = rested.end.figures.iter().find(|f| f.name == "Wulf").expect("Wulf");
        let events: Vec<&LogEvent> = rested.log.events.iter().filter(|e| e.subject == "Wulf").collect();
        assert_eq!(events[0].event, "apparently_dead");
        if events[0].outcome == "dead_as_first_thought" {
            assert_eq!(wulf.conditions.len(), 1);
            let c = &wulf.conditions[0];
            assert_eq!(
                (c.kind, c.name.as_str(), c.immobile),
                (ConditionKind::Dead, "dead (left for dead at the ford)", true)
            );
            assert_eq!(events.len(), 1, "nothing more for the dead");
            died = true;
        } else {
            let fitness = wulf.conditions.iter().find(|c| c.kind == ConditionKind::RegainingFitness).expect("fitness");
            assert!(fitness.name.starts_with("regaining fitness, "), "{}", fitness.name);
            assert!(fitness.healing.is_some_and(|h| h.infection_checks_left == 0));
            assert!(events.iter().any(|e| e.event == "came_round"), "20 + D10 hours: out a day or two");
            lived = true;
        }
        if died && lived {
            break;
        }
    }
    assert!(died && lived);
}

#[test]
fn without_a_table_a_burn_is_reported_and_kept() {
    let scene = scene_from_str(
        r#"(version: 1, table: (width: 10, height: 10), figures: [(name: "Ida", position: (5, 5), conditions: [(name: "bad burns", kind: burns, me_and_mo: -2)])])"#,
    );
    let rested = rest_ok(&scene, 3, 1);
    assert_eq!(rested.log.events.len(), 1);
    let e = &rested.log.events[0];
    assert_eq!((e.event, e.outcome), ("location", "no_location_table"));
    assert_eq!(field(e, "report").as_str(), Some("burnt: no location table supplied"));
    assert!(e.rolls.is_empty());
    assert_eq!(rested.end.figures[0].conditions, scene.figures[0].conditions);
    assert_eq!(rested.end.clock.moves_played, 3 * 480);
}

#[test]
fn days_and_the_clock_are_bounded() {
    // A day of 100 moves: ten years fit on the clock.
    let mut scene = scene_from_str("(version: 1, table: (width: 10, height: 10), rules: (moves_per_day: 100))");
    assert_eq!(rest(&scene, 0, 1).err(), Some(RestError::Days(0)));
    assert_eq!(rest(&scene, tabula::sim::MAX_REST_DAYS + 1, 1).err(), Some(RestError::Days(3651)));
    assert_eq!(rest_ok(&scene, tabula::sim::MAX_REST_DAYS, 1).end.clock.moves_played, 365_000);
    scene.clock.moves_played = 1_000_000 - 99;
    let err = rest(&scene, 1, 1).expect_err("no room for a day");
    assert!(matches!(err, RestError::ClockFull(_)), "{err}");
    assert!(err.to_string().contains("the most moves a scene may play"), "{err}");
    scene.clock.moves_played = 1_000_000 - 100;
    assert_eq!(rest_ok(&scene, 1, 1).end.clock.moves_played, 1_000_000);
}

fn problems(text: &str) -> Vec<String> {
    match parse_scene(text, Path::new("bad.ron")) {
        Err(SceneError::Invalid { problems, .. }) => problems.iter().map(|p| p.to_string()).collect(),
        other => panic!("expected problems, got {other:?}"),
    }
}

#[test]
fn the_scene_checks_name_the_table_the_order_and_the_figure() {
    let row = |low: u32, high: u32| format!(r#"(low: {low}, high: {high}, location: "arm", healing: (dice: D6))"#);
    let gap = format!(
        "(version: 1, table: (width: 10, height: 10), location_tables: [(kind: burn, rows: [{}, {}])])",
        row(0, 41),
        row(43, 99)
    );
    assert_eq!(problems(&gap), [r#"location table "burn": no row covers 42"#]);
    let twice = format!(
        "(version: 1, table: (width: 10, height: 10), location_tables: [(kind: wound, rows: [{}]), (kind: wound, rows: [{}])])",
        row(0, 99),
        row(0, 99)
    );
    assert_eq!(
        problems(&twice),
        [r#"location table "wound": kind: another location table is for this kind; one table a kind"#]
    );
    let orders = r#"(version: 1, table: (width: 10, height: 10), figures: [(name: "A", position: (1, 1))],
        treatments: [(patient: "A", holy_water: 101), (patient: "Nobody", by: Some("Ulf"))])"#;
    assert_eq!(
        problems(orders),
        [
            r#"treatment 1 (of "A"): holy_water: 101 phials, more than 100"#,
            r#"treatment 2 (of "Nobody"): patient: no figure is named "Nobody""#,
            r#"treatment 2 (of "Nobody"): by: no figure is named "Ulf""#,
        ]
    );
    let healing = r#"(version: 1, table: (width: 10, height: 10), figures: [(name: "A", position: (1, 1),
        conditions: [(name: "cut", kind: wound, healing: Some((kind: wound, schedule: fixed((melee: -1)), stage: recovering, total_days: 5, days_left: 9)))])])"#;
    assert_eq!(problems(healing), [r#"figure "A": conditions "cut": healing days_left: 9 is more than total_days 5"#]);
    // An order naming a condition the patient no longer has covers nothing, and is no error.
    let gone = r#"(version: 1, table: (width: 10, height: 10), figures: [(name: "A", position: (1, 1))],
        treatments: [(patient: "A", condition: Some("healed long ago"), full_rest: true)])"#;
    assert!(parse_scene(gone, Path::new("ok.ron")).is_ok());
}
