//! Play-test reports against cases with known answers.

use std::path::Path;
use tabula::playtest::{report, run_all};
use tabula::scene::parse_scene;
use tabula::sim::{Run, run};

fn scene(text: &str) -> tabula::scene::Scene {
    parse_scene(text, Path::new("<test>")).unwrap_or_else(|e| panic!("{e}"))
}

/// One figure walks across one Khemri simple counter. The text: an Initiative test (D6 equal
/// to or under I passes) avoids it, so with I 3 it is triggered on a 4, 5 or 6: 1/2.
const LONE_COUNTER: &str = r#"(version: 1, table: (width: 20, height: 6),
    figures: [(name: "Walker", position: (1, 3), path: [(19, 3)], mordheim: (ws: 3, s: 3, t: 3, w: 1, i: 3))],
    traps: [(name: "counter", kind: khemri(drawn: Some(simple)), position: (10, 3), side: Some("tomb"))])"#;

#[test]
fn a_lone_trap_is_sprung_at_its_computed_rate() {
    let s = scene(LONE_COUNTER);
    let runs = run_all(&s, 400, 4, 1, 2, &|_| {});
    let r = report("lone", &runs, 4, 1);
    let t = r.traps.iter().find(|t| t.name == "counter").unwrap();
    assert_eq!(t.approached.count, 400);
    let expected = 0.5;
    assert!(t.sprung.low <= expected && expected <= t.sprung.high, "sprung {:?} does not cover {expected}", t.sprung);
    assert!((t.sprung.share - expected).abs() < 0.1, "{:?}", t.sprung);
}

#[test]
fn a_trap_no_one_can_spot_is_sprung_in_every_run() {
    // Initiative 0 never passes a D6 test, and nobody has Spot/Disarm: sprung every time.
    let s = scene(&LONE_COUNTER.replace("i: 3", "i: 0"));
    let runs = run_all(&s, 100, 4, 50, 2, &|_| {});
    let r = report("certain", &runs, 4, 50);
    let t = r.traps.iter().find(|t| t.name == "counter").unwrap();
    assert_eq!(t.spotted.count, 0);
    assert_eq!(t.sprung.count, 100, "{t:?}");
}

#[test]
fn the_report_is_the_same_whatever_the_thread_count() {
    let s = parse_scene(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/tomb.ron")).unwrap(),
        Path::new("tomb.ron"),
    )
    .unwrap();
    let one = run_all(&s, 40, 8, 7, 1, &|_| {});
    let two = run_all(&s, 40, 8, 7, 2, &|_| {});
    let four = run_all(&s, 40, 8, 7, 4, &|_| {});
    assert_eq!(one, two);
    assert_eq!(one, four);
    let a = serde_json::to_string(&report("tomb", &one, 8, 7)).unwrap();
    let b = serde_json::to_string(&report("tomb", &four, 8, 7)).unwrap();
    assert_eq!(a, b);
    // Run i used seed 7 + i, so any run can be replayed with `tabula sim --seed`.
    assert_eq!(one.iter().map(|r| r.seed).collect::<Vec<_>>(), (7..47).collect::<Vec<_>>());
}

#[test]
fn a_replayed_run_matches_its_summary() {
    let s = scene(LONE_COUNTER);
    let runs = run_all(&s, 10, 4, 100, 2, &|_| {});
    for r in &runs {
        let Run { log, .. } = run(&s, r.seed, 4);
        assert_eq!(&tabula::playtest::summarize(r.seed, &s, &log), r);
    }
}

#[test]
fn the_farmstead_report_counts_burnt_ground_and_buildings() {
    let s = parse_scene(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/farmstead.ron")).unwrap(),
        Path::new("farmstead.ron"),
    )
    .unwrap();
    let runs = run_all(&s, 4, 12, 11, 2, &|_| {});
    let r = report("farmstead", &runs, 12, 11);
    let thatch = r.burnt_area.iter().find(|a| a.material == "thatch").expect("the barn's thatch burns");
    assert!(thatch.mean > 10.0 && thatch.p10 > 0.0, "{thatch:?}");
    // The torch always lights the thatch (D6 + 1 + 2 ≥ 4): the barn burns in every run.
    assert_eq!(r.building_burnt.count, 4);
}

#[test]
fn objective_errors_name_the_objective_and_field() {
    let e = match parse_scene(
        r#"(version: 1, table: (width: 20, height: 6),
            figures: [(name: "Walker", position: (1, 3))],
            objectives: [
                (name: "nobody's", side: "bandits", area: Rect(min: (1, 1), max: (2, 2)), by_move: 3),
                (name: "never", side: "party", area: Rect(min: (1, 1), max: (2, 2)), by_move: 0),
                (name: "inside out", side: "party", area: Rect(min: (5, 5), max: (2, 2)), by_move: 1),
                (name: "off the table", side: "party", area: Circle(center: (30, 3), radius: 1), by_move: 1),
                (name: "Walker", side: "party", area: Rect(min: (1, 1), max: (2, 2)), by_move: 1),
            ])"#,
        Path::new("o.ron"),
    ) {
        Ok(_) => panic!("accepted bad objectives"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("objective \"nobody's\": side: no figure is on side \"bandits\""), "{e}");
    assert!(e.contains("objective \"never\": by_move: 0 must be 1 to"), "{e}");
    assert!(e.contains("objective \"inside out\": area: min (5, 5) is not below and left of max (2, 2)"), "{e}");
    assert!(e.contains("objective \"off the table\": area center (30, 3) is off the 20x6 table"), "{e}");
    assert!(e.contains("objective \"Walker\": name: another entity already has this name"), "{e}");
    // Over the cap.
    let many: Vec<String> = (0..=tabula::scene::load::MAX_OBJECTIVES)
        .map(|i| format!("(name: \"o{i}\", side: \"party\", area: Rect(min: (1, 1), max: (2, 2)), by_move: 1)"))
        .collect();
    let text = format!(
        "(version: 1, table: (width: 20, height: 6), figures: [(name: \"Walker\", position: (1, 3))], objectives: [{}])",
        many.join(", ")
    );
    let e = match parse_scene(&text, Path::new("o.ron")) {
        Ok(_) => panic!("accepted too many objectives"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("scene: objectives: 101 entries, more than the 100 allowed"), "{e}");
}

#[test]
fn objectives_save_and_load() {
    let s = scene(
        r#"(version: 1, table: (width: 20, height: 6),
            figures: [(name: "Walker", position: (1, 3), path: [(19, 3)])],
            objectives: [(name: "across", side: "party", area: Polygon(points: [(15, 0), (20, 0), (20, 6)]), by_move: 4)])"#,
    );
    let text = tabula::scene::scene_to_ron(&s).unwrap();
    assert_eq!(parse_scene(&text, Path::new("back.ron")).unwrap_or_else(|e| panic!("{e}\n{text}")), s);
    // A scene without objectives writes none.
    let none = scene(LONE_COUNTER);
    assert!(!tabula::scene::scene_to_ron(&none).unwrap().contains("objectives"));
}

#[test]
fn a_replayed_run_with_objectives_matches_its_summary() {
    let s = scene(
        r#"(version: 1, table: (width: 20, height: 6),
            figures: [(name: "Walker", position: (1, 3), path: [(19, 3)])],
            objectives: [(name: "across", side: "party", area: Rect(min: (15, 0), max: (20, 6)), by_move: 4)])"#,
    );
    let runs = run_all(&s, 4, 6, 3, 2, &|_| {});
    for r in &runs {
        assert_eq!(r.objectives.len(), 1);
        assert_eq!(&tabula::playtest::run_one(&s, r.seed, 6), r);
    }
}
