//! Play-test reports against cases with known answers.

use std::path::Path;
use tabula::heatmap::{LayerChoice, Overlays, heatmap_png, render, viridis};
use tabula::playtest::{report, run_all, run_and_tally, to_json, wilson};
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
        let Run { log, end } = run(&s, r.seed, 4);
        let mut from_log = tabula::playtest::summarize(r.seed, &s, &log);
        // Where the figures ended is read from the world, not the log: as the run's end scene has it.
        let ended: Vec<Option<(f32, f32)>> =
            s.figures.iter().map(|f| end.figures.iter().find(|e| e.name == f.name).map(|e| e.position)).collect();
        assert_eq!(r.ends, ended);
        assert!(r.burnt.is_empty(), "no fire");
        from_log.ends = ended;
        assert_eq!(&from_log, r);
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

/// Oil from x = 0 to 4 with a spark burning in it at (1, 3). Oil spreads 1" a round and nothing
/// else on the table burns, so no die decides what burns: the whole strip in every run (its far
/// corner is 4.2" from the spark, about 5 rounds; 6 moves are 12 rounds), nothing beyond x = 4.
/// A walker far from the fire ends at (22.5, 5.5) in every run (8" at 4" a move); a scout walks
/// over a Khemri simple counter at (18.5, 1.5) (sprung on a D6 of 4+ against I 3).
const OIL_STRIP: &str = r#"(version: 1, table: (width: 24, height: 6),
    terrain: [(name: "oil", material: oil, shape: Rect(min: (0, 0), max: (4, 6)))],
    fires: [(name: "spark", position: (1, 3), diameter: 0.2)],
    figures: [
        (name: "Walker", position: (14.5, 5.5), move_rate: 4, path: [(22.5, 5.5)]),
        (name: "Scout", position: (14.5, 1.5), path: [(22.5, 1.5)], mordheim: (ws: 3, s: 3, t: 3, w: 1, i: 3)),
    ],
    traps: [(name: "counter", kind: khemri(drawn: Some(simple)), position: (18.5, 1.5), side: Some("tomb"))])"#;

#[test]
fn the_burn_share_is_all_runs_where_the_fire_must_go_and_none_where_it_cannot() {
    let s = scene(OIL_STRIP);
    let runs = run_all(&s, 20, 6, 1, 2, &|_| {});
    let o = Overlays::from_runs(&s, &runs);
    assert_eq!((o.burn.cell_in, o.burn.width, o.burn.height, o.burn.runs), (1.0, 24, 6, 20));
    // 20 runs of 20: 100%, its 95% Wilson interval from 1 / (1 + 1.96² / 20) = 83.9% to 100%.
    let every = wilson(20, 20);
    assert!((every.low - 0.8389).abs() < 1e-3 && (every.high - 1.0).abs() < 1e-9, "{every:?}");
    // The spark's cell, the strip's corners.
    for (col, row) in [(1, 3), (0, 0), (3, 5), (3, 0)] {
        assert_eq!(o.burn.share(col, row), Some(every), "cell ({col}, {row})");
    }
    assert_eq!(o.burn.share_at((3.5, 5.5)), Some(every), "what a click on the cell shows");
    // Nothing burns beyond the oil: the cells just past its edge and out in the open.
    for (col, row) in [(4, 3), (4, 0), (10, 3), (23, 5)] {
        assert_eq!(o.burn.share(col, row).map(|s| s.count), Some(0), "cell ({col}, {row})");
    }
    assert_eq!(o.burn.share(24, 0), None, "off the grid");
    // The walker ends in cell (22, 5) in every run.
    let walker = o.figures.iter().find(|f| f.name == "Walker").expect("walker");
    assert_eq!(walker.most_often, Some(((22, 5), every)));
    assert_eq!(o.ends.share_at((22.5, 5.5)), Some(every));
    // The trap's label and the hurt layer agree with the report: the scout is hurt only at the
    // counter, so the counter's cell counts the runs in which he was hurt.
    let r = report("oil strip", &runs, 6, 1);
    let counter = r.traps.iter().find(|t| t.name == "counter").expect("counter");
    let mark = &o.traps[0];
    assert_eq!((mark.name.as_str(), mark.sprung, mark.spotted), ("counter", counter.sprung, counter.spotted));
    let scout = r.figures.iter().find(|f| f.name == "Scout").expect("scout");
    assert_eq!(o.hurt.share(18, 1).map(|s| s.count), Some(scout.hurt.count));
    assert_eq!(o.hurt.counts.iter().sum::<u32>(), scout.hurt.count, "hurt nowhere else");
}

/// Width, height and RGBA pixels of a PNG.
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Rgba, png::BitDepth::Eight));
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

#[test]
fn the_heatmap_decodes_at_its_size_and_is_the_same_whatever_the_thread_count() {
    let s = scene(OIL_STRIP);
    // Every summary kept, on 1 thread; and counted as made (what the CLI does), on 2.
    let one = run_all(&s, 20, 6, 1, 1, &|_| {});
    let report_one = report("oil strip", &one, 6, 1);
    let a = heatmap_png(&s, &Overlays::from_runs(&s, &one), &report_one, LayerChoice::All).expect("drawn");
    let never = std::sync::atomic::AtomicBool::new(false);
    let two = run_and_tally(&s, 20, 6, 1, 2, &|_| {}, &never, true).expect("not cancelled");
    let report_two = two.tally.report("oil strip", 6, 1);
    let overlays_two = two.overlays.expect("asked for").overlays();
    let b = heatmap_png(&s, &overlays_two, &report_two, LayerChoice::All).expect("drawn");
    assert_eq!(to_json(&report_one), to_json(&report_two));
    assert!(a == b, "the PNG differs between 1 and 2 threads, or between kept and counted runs");

    // 24" × 6" at 40 pixels an inch (1080 / 24 = 45, at most 40): a 960 × 240 map. Across: 16
    // margin, 18 for the inch labels ("6" is 10 pixels, and 8), the map, 16 margin: 1010. Down:
    // 68 for the title, each panel 48 (caption) + 240 + 98 (inch labels, legend bar, its
    // numbers, the key), 24 between panels, 16 margin.
    let o = Overlays::from_runs(&s, &one);
    let panels = [o.burn.has_data(), o.hurt.has_data(), o.ends.has_data()].iter().filter(|&&d| d).count() as u32;
    assert!(o.burn.has_data() && o.ends.has_data());
    let (w, h, _) = decode_png(&a);
    assert_eq!((w, h), (1010, 68 + panels * 386 + (panels - 1) * 24 + 16));

    // The burn layer alone: one panel, the pixels as drawn.
    let picture = render(&s, &o, &report_one, LayerChoice::Burn);
    let (w, h, pixels) = decode_png(&picture.to_png().expect("encoded"));
    assert_eq!((w, h), (1010, 68 + 386 + 16));
    assert!(pixels == picture.rgba, "the PNG holds the pixels drawn");
    let place = picture.panels[0];
    let rgb = |x: u32, y: u32| -> [u8; 3] {
        let p = picture.pixel(x, y).expect("inside");
        [p[0], p[1], p[2]]
    };
    let at = |p: (f32, f32)| {
        let (x, y) = place.to_pixel(p);
        rgb(x as u32, y as u32)
    };
    assert_eq!(at((3.5, 5.5)), viridis(1.0), "a cell burnt in every run");
    assert_eq!(at((10.5, 3.5)), [236, 232, 222], "a cell burnt in no run keeps the bare table");
    // The legend bar runs from 0% to 100%.
    assert_eq!(rgb(place.bar_left, place.bar_top + 8), viridis(0.0));
    assert_eq!(rgb(place.bar_left + place.bar_width - 1, place.bar_top + 8), viridis(1.0));
}

/// A play-test's runs go unwatched (no party sight or fog worked out): every event is the one a
/// watched simulation of the same scene and seed logs, and only the fog is left unexplored.
#[test]
fn an_unwatched_run_logs_what_a_watched_one_does() {
    use tabula::sim::Simulation;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    for name in ["tomb.ron", "ambush-trail.ron", "farmstead.ron", "night-camp.ron"] {
        let s = tabula::scene::load_scene(&path.join(name)).unwrap_or_else(|e| panic!("{e}"));
        for seed in [1, 7] {
            let mut watched = Simulation::new(&s, seed);
            let mut unwatched = Simulation::unwatched(&s, seed);
            watched.step_moves(12);
            unwatched.step_moves(12);
            assert!(!watched.log().events.is_empty(), "{name}");
            assert_eq!(watched.log().to_json_lines(), unwatched.log().to_json_lines(), "{name} seed {seed}");
            let explored =
                |sim: &Simulation| sim.world().resource::<tabula::sim::sight::ExploredFog>().explored_cells();
            assert_eq!(explored(&unwatched), 0, "{name}: no one explored the fog");
            // Restarted, it is unwatched still.
            unwatched.restart(&s, seed);
            unwatched.step_moves(2);
            assert_eq!(explored(&unwatched), 0, "{name}");
        }
    }
}

/// A play-test restarts one simulation for all its runs, keeping the painted fire grid, the
/// indexed walls and the sight blockers while the scene's are the same: every run logs what a
/// new simulation of its scene and seed logs, also after runs of another scene, or of the same
/// scene with other terrain and walls.
#[test]
fn a_restarted_run_logs_what_a_new_simulation_does() {
    use tabula::sim::Simulation;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let load = |name: &str| tabula::scene::load_scene(&path.join(name)).unwrap_or_else(|e| panic!("{e}"));
    let farmstead = load("farmstead.ron");
    let mut soaked = farmstead.clone();
    for region in &mut soaked.terrain {
        region.wet = true;
    }
    soaked.walls.clear();
    let tomb = load("tomb.ron");
    let ambush = load("ambush-trail.ron");
    let fresh = |scene: &tabula::scene::Scene, seed: u64| {
        let mut sim = Simulation::unwatched(scene, seed);
        sim.step_moves(20);
        sim.log().to_json_lines()
    };
    let runs = [
        (&farmstead, 2, "farmstead"),
        (&soaked, 2, "soaked farmstead"),
        (&farmstead, 3, "farmstead"),
        (&tomb, 1, "tomb"),
        (&ambush, 4, "ambush trail"),
        (&farmstead, 1, "farmstead"),
        (&soaked, 5, "soaked farmstead"),
        (&tomb, 2, "tomb"),
    ];
    let mut restarted = Simulation::unwatched(&farmstead, 1);
    restarted.step_moves(20);
    for (scene, seed, name) in runs {
        restarted.restart(scene, seed);
        restarted.step_moves(20);
        let log = restarted.log().to_json_lines();
        assert_eq!(log, fresh(scene, seed), "{name}, seed {seed}");
        if name == "farmstead" {
            assert!(log.contains("\"system\":\"fire\""), "the farmstead burns: {name}, seed {seed}");
        }
    }
    assert_ne!(fresh(&farmstead, 2), fresh(&soaked, 2), "soaking the farmstead and pulling its walls changes its run");
}
