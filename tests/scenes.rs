//! Scene files: the examples load, bad input gets a located error, saving round-trips.

use std::path::{Path, PathBuf};
use tabula::scene::{self, SceneError, load_scene, parse_scene, save_scene, scene_to_ron};

fn examples() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes"))
        .expect("scenes/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_example_scene_loads() {
    let all = examples();
    assert!(all.len() >= 5, "expected the example scenes, found {all:?}");
    for path in all {
        if let Err(e) = load_scene(&path) {
            panic!("{e}");
        }
    }
}

#[test]
fn the_documented_example_loads() {
    // docs/scene-format.md carries a complete example between ```ron fences.
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scene-format.md")).unwrap();
    let start = doc.find("```ron\n").expect("an example in the docs") + 7;
    let end = start + doc[start..].find("```").expect("closing fence");
    let s = parse_scene(&doc[start..end], Path::new("docs/scene-format.md")).unwrap_or_else(|e| panic!("{e}"));
    assert!(!s.figures.is_empty() && !s.terrain.is_empty() && !s.walls.is_empty());
    assert!(!s.traps.is_empty() && !s.fires.is_empty() && !s.herds.is_empty() && !s.sleepers.is_empty());
}

fn err(text: &str) -> SceneError {
    match parse_scene(text, Path::new("bad.ron")) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e,
    }
}

const MINIMAL: &str = "(version: 1, table: (width: 72, height: 48))";

#[test]
fn minimal_scene_takes_defaults() {
    let s = parse_scene(MINIMAL, Path::new("m.ron")).unwrap();
    assert_eq!(s.rules.rounds_per_move, 2);
    assert_eq!(s.lighting, tabula::rules::lighting::Lighting::Daylight);
    assert!(s.figures.is_empty());
}

#[test]
fn syntax_error_is_located() {
    let e = err("(version: 1,\n table: (width: 72, height: 48\n");
    let msg = e.to_string();
    assert!(msg.starts_with("bad.ron:"), "{msg}");
    let SceneError::Syntax { line, col, .. } = e else { panic!("not a syntax error: {msg}") };
    assert!(line >= 2, "{msg}");
    assert!(col >= 1);
}

#[test]
fn unknown_field_is_an_error() {
    let e = err("(version: 1, table: (width: 72, height: 48), tabel: 3)");
    let msg = e.to_string();
    assert!(msg.starts_with("bad.ron:1:"), "{msg}");
    assert!(msg.contains("tabel"), "{msg}");
}

#[test]
fn wrong_type_is_an_error() {
    let msg = err("(version: 1, table: (width: \"wide\", height: 48))").to_string();
    assert!(msg.starts_with("bad.ron:1:"), "{msg}");
}

#[test]
fn unknown_enum_value_is_an_error() {
    let msg = err("(version: 1, table: (width: 72, height: 48), lighting: \"DUSK\")").to_string();
    assert!(msg.contains("DUSK") || msg.contains("variant"), "{msg}");
}

#[test]
fn off_table_point_names_entity_and_field() {
    let msg = err(
        "(version: 1, table: (width: 72, height: 48), figures: [(name: \"Morgana\", position: (1, 1), path: [(80, 2)])])",
    )
    .to_string();
    assert_eq!(msg, "bad.ron: figure \"Morgana\": path point (80, 2) is off the 72x48 table");
}

#[test]
fn table_size_is_bounded() {
    for (w, h) in [("1001", "10"), ("10", "0"), ("-5", "10"), ("inf", "10"), ("NaN", "10")] {
        let text = format!("(version: 1, table: (width: {w}, height: {h}))");
        match parse_scene(&text, Path::new("bad.ron")) {
            Err(SceneError::Invalid { problems, .. }) => assert!(problems[0].entity == "table", "{problems:?}"),
            Err(SceneError::Syntax { .. }) => {} // `inf`/`NaN` may be refused by the parser itself
            other => panic!("{w}x{h} accepted: {other:?}"),
        }
    }
}

#[test]
fn wrong_version_is_an_error() {
    let msg = err("(version: 2, table: (width: 72, height: 48))").to_string();
    assert!(msg.contains("version: 2 is not supported"), "{msg}");
}

#[test]
fn duplicate_and_empty_names_are_errors() {
    let msg = err(
        "(version: 1, table: (width: 72, height: 48), figures: [(name: \"A\", position: (1, 1)), (name: \"A\", position: (2, 2)), (name: \"\", position: (2, 2))])",
    )
    .to_string();
    assert!(msg.contains("figure \"A\": name: another entity already has this name"), "{msg}");
    assert!(msg.contains("name: must not be empty"), "{msg}");
}

#[test]
fn counts_are_capped() {
    let figures: Vec<String> =
        (0..=scene::load::MAX_ENTITIES_PER_KIND).map(|i| format!("(name: \"f{i}\", position: (1, 1))")).collect();
    let text = format!("(version: 1, table: (width: 72, height: 48), figures: [{}])", figures.join(","));
    let msg = err(&text).to_string();
    assert!(msg.contains("more than the 10000 allowed"), "{msg}");
}

/// Terrain is painted into the fire grid row by row and its polygons swept edge by edge: its
/// regions and polygon points are capped (issue 16: bounded work), and the caps are exact.
#[test]
fn terrain_regions_and_polygon_points_are_capped() {
    let region = |i: usize| format!("(name: \"r{i}\", material: grass, shape: Rect(min: (1, 1), max: (2, 2)))");
    let scene = |terrain: Vec<String>| {
        format!("(version: 1, table: (width: 72, height: 48), terrain: [{}])", terrain.join(","))
    };
    let at_cap: Vec<String> = (0..scene::load::MAX_TERRAIN_REGIONS).map(region).collect();
    scene::parse_scene(&scene(at_cap.clone()), std::path::Path::new("ok.ron")).expect("2,000 regions are allowed");
    let over: Vec<String> = (0..=scene::load::MAX_TERRAIN_REGIONS).map(region).collect();
    let msg = err(&scene(over)).to_string();
    assert!(msg.contains("terrain: 2001 entries, more than the 2000 allowed"), "{msg}");

    // Two polygons of 10,000 points are the most; one point more is refused.
    let polygon = |i: usize, n: usize| {
        let points: Vec<String> =
            (0..n).map(|k| format!("({}, {})", 1.0 + (k % 2) as f32, 1.0 + k as f32 * 0.004)).collect();
        format!("(name: \"p{i}\", material: grass, shape: Polygon(points: [{}]))", points.join(","))
    };
    scene::parse_scene(&scene(vec![polygon(0, 10_000), polygon(1, 10_000)]), std::path::Path::new("ok.ron"))
        .expect("20,000 points are allowed");
    let msg = err(&scene(vec![polygon(0, 10_000), polygon(1, 10_000), polygon(2, 3)])).to_string();
    assert!(msg.contains("terrain: 20003 polygon points in all, more than the 20000 allowed"), "{msg}");
}

/// Figures are capped below the other kinds (traps count every other figure as a bystander):
/// exactly 2,000 load, one more is refused naming the field.
#[test]
fn figures_are_capped_at_exactly_2000() {
    let scene = |n: usize| {
        let figures: Vec<String> = (0..n).map(|i| format!("(name: \"f{i}\", position: (1, 1))")).collect();
        format!("(version: 1, table: (width: 72, height: 48), figures: [{}])", figures.join(","))
    };
    let s = parse_scene(&scene(scene::load::MAX_FIGURES), Path::new("ok.ron")).expect("2,000 figures are allowed");
    assert_eq!(s.figures.len(), 2000);
    let msg = err(&scene(scene::load::MAX_FIGURES + 1)).to_string();
    assert!(msg.contains("figures: 2001 entries, more than the 2000 allowed"), "{msg}");
}

/// Sleeping groups are capped at 500 and their members at 2,000 in all (every waking group's
/// noises reach every other group): exactly at either cap loads, one more is refused naming
/// the field.
#[test]
fn sleeping_groups_and_their_members_are_capped_exactly() {
    // `sizes[g]` members in group g.
    let scene = |sizes: Vec<usize>| {
        let groups: Vec<String> = sizes
            .iter()
            .enumerate()
            .map(|(g, &n)| {
                let members: Vec<String> = (0..n).map(|m| format!("\"m{m}\"")).collect();
                format!("(name: \"g{g}\", position: (1, 1), members: [{}])", members.join(","))
            })
            .collect();
        format!("(version: 1, table: (width: 72, height: 48), sleepers: [{}])", groups.join(","))
    };
    let groups = scene::load::MAX_SLEEPING_GROUPS;
    let s = parse_scene(&scene(vec![1; groups]), Path::new("ok.ron")).expect("500 groups are allowed");
    assert_eq!(s.sleepers.len(), 500);
    let msg = err(&scene(vec![1; groups + 1])).to_string();
    assert!(msg.contains("sleepers: 501 groups, more than the 500 allowed"), "{msg}");

    // Ten full groups of 200 are the 2,000 members allowed; one member more is refused.
    let full = scene::load::MAX_SLEEPERS / scene::load::MAX_GROUP_SIZE;
    let mut sizes = vec![scene::load::MAX_GROUP_SIZE; full];
    let s = parse_scene(&scene(sizes.clone()), Path::new("ok.ron")).expect("2,000 sleepers are allowed");
    assert_eq!(s.sleepers.iter().map(|g| g.members.len()).sum::<usize>(), 2000);
    sizes.push(1);
    let msg = err(&scene(sizes)).to_string();
    assert!(msg.contains("sleepers: 2001 members in all, more than the 2000 allowed"), "{msg}");
}

/// Ignitions are replayed into the fire front when a scene loads: exactly 10,000 load, one more
/// is refused naming the field.
#[test]
fn ignitions_are_capped_at_exactly_10000() {
    let ignition = |i: usize| format!("(time: 0, position: (1, 1), source: \"i{i}\")");
    let scene = |n: usize| {
        let ignitions: Vec<String> = (0..n).map(ignition).collect();
        format!("(version: 1, table: (width: 72, height: 48), ignitions: [{}])", ignitions.join(","))
    };
    let cap = scene::fires::MAX_IGNITIONS;
    let s = parse_scene(&scene(cap), Path::new("ok.ron")).expect("10,000 ignitions are allowed");
    assert_eq!(s.ignitions.len(), 10_000);
    let msg = err(&scene(cap + 1)).to_string();
    assert!(msg.contains("ignitions: 10001 entries, more than the 10000 allowed"), "{msg}");
}

#[test]
fn deep_nesting_is_refused_without_overflow() {
    let text =
        format!("(version: 1, table: (width: 72, height: 48), title: {}1{})", "[".repeat(100_000), "]".repeat(100_000));
    let msg = err(&text).to_string();
    assert!(msg.starts_with("bad.ron:1:"), "{msg}");
}

#[test]
fn oversized_file_is_refused_before_reading() {
    let dir = std::env::temp_dir().join(format!("tabula-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.ron");
    let f = std::fs::File::create(&path).unwrap();
    f.set_len(scene::load::MAX_FILE_BYTES + 1).unwrap();
    let e = load_scene(&path).unwrap_err();
    assert!(matches!(e, SceneError::TooLarge { .. }), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn binary_garbage_is_an_error() {
    let dir = std::env::temp_dir().join(format!("tabula-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bin.ron");
    std::fs::write(&path, [0xff, 0xfe, 0x00, 0x28, 0x80]).unwrap();
    let e = load_scene(&path).unwrap_err();
    assert!(e.to_string().contains("not valid UTF-8"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn missing_file_is_an_io_error() {
    let e = load_scene(Path::new("/nonexistent/tabula/scene.ron")).unwrap_err();
    assert!(e.is_io());
}

#[test]
fn conditions_without_a_kind_take_the_kind_their_name_implies() {
    // Scene text from before conditions had kinds loads: no `kind` is `other`, except for the
    // names the simulator gives to the conditions it acts on.
    let text = "(version: 1, table: (width: 10, height: 10), figures: [(name: \"a\", position: (1, 1), conditions: [
        (name: \"strained ankle\", move_penalty: 2, moves_left: Some(3)),
        (name: \"definitely dead (fire)\", immobile: true),
        (name: \"Deceased\", kind: dead, immobile: true),
        (name: \"out of action\", kind: other),
      ])])";
    let s = parse_scene(text, Path::new("old.ron")).unwrap_or_else(|e| panic!("{e}"));
    let conditions = &s.figures[0].conditions;
    let kinds: Vec<scene::ConditionKind> = conditions.iter().map(|c| c.kind).collect();
    use scene::ConditionKind::{Dead, Other};
    assert_eq!(kinds, [Other, Dead, Dead, Other]);
    // Written only where the name does not imply it, and read back the same.
    let written: Vec<Option<serde_json::Value>> =
        conditions.iter().map(|c| serde_json::to_value(c).unwrap().get("kind").cloned()).collect();
    let kind = |k: &str| Some(serde_json::Value::from(k));
    assert_eq!(written, [None, None, kind("dead"), kind("other")]);
    let saved = scene_to_ron(&s).unwrap();
    let back = parse_scene(&saved, Path::new("saved.ron")).unwrap_or_else(|e| panic!("{e}\n{saved}"));
    assert_eq!(back, s);
    // An unknown kind is an error, as any unknown value.
    let bad = text.replace("kind: dead", "kind: deceased");
    assert!(parse_scene(&bad, Path::new("bad.ron")).is_err());
}

#[test]
fn save_and_load_round_trip() {
    let dir = std::env::temp_dir().join(format!("tabula-rt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for path in examples() {
        let original = load_scene(&path).unwrap();
        let out = dir.join(path.file_name().unwrap());
        save_scene(&original, &out).unwrap();
        let back = load_scene(&out).unwrap_or_else(|e| panic!("{e}\n{}", scene_to_ron(&original).unwrap()));
        assert_eq!(original, back, "{} changed on a round trip", path.display());
        // No temporary file is left behind.
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
            .collect();
        assert!(leftovers.is_empty());
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A name of any length quoted back in an error keeps the line readable (found by the fuzzer:
/// a herder's name of 100,000 characters made a 100,059-character error line).
/// A misspelt field of any length is quoted cut short in the syntax error (found by the fuzzer:
/// a 36,169-character line), and the error stays located.
#[test]
fn a_long_unknown_field_is_cut_in_the_syntax_error() {
    let long = format!("settled_unti{}", "A".repeat(100_000));
    let text = format!("(version: 1, table: (width: 72, height: 48), {long}: 3)");
    let msg = err(&text).to_string();
    assert!(msg.chars().count() < 1500, "{} characters: {}", msg.len(), msg.chars().take(3000).collect::<String>());
    assert!(msg.contains(":1:"), "{msg}");
    assert!(msg.contains("`settled_untiAAAA") && msg.contains("A…`"), "{msg}");
    // A short misspelling is quoted whole, with the fields the table has.
    let msg = err("(version: 1, table: (width: 72, heigth: 48))").to_string();
    assert!(msg.contains("`heigth`") && msg.contains("`height`"), "{msg}");
}

#[test]
fn long_names_quoted_in_errors_are_cut() {
    let long = "n".repeat(100_000);
    let text = format!(
        "(version: 1, table: (width: 72, height: 48), herds: [(name: \"{long}\", beast: cow, count: 2, position: (30, 30), herders: [\"{long}\"])])"
    );
    let msg = err(&text).to_string();
    assert!(msg.lines().all(|l| l.chars().count() < 1000), "{}", msg.chars().take(3000).collect::<String>());
    assert!(msg.contains("herders: no figure is named \"nnnn"), "{}", msg.chars().take(3000).collect::<String>());
    assert!(msg.contains("n…"));
}
