//! Fire through the simulation: ignition by igniters and by fire meeting another material, the
//! front, figures caught, the farmstead burning, and a saved fire burning on exactly.

mod common;

use common::{chi_square, scene_from_str};
use std::path::Path;
use tabula::scene::{Scene, load_scene, parse_scene, scene_to_ron};
use tabula::sim::EventLog;
use tabula::sim::Simulation;
use tabula::sim::fire::{FireFront, IgniteRequest};
use tabula::sim::fire_front::CellState;
use tabula::sim::log::LogEvent;
use tabula::sim::{Run, run};

fn farmstead() -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/farmstead.ron");
    load_scene(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn modifier(event: &LogEvent, reason_starts: &str) -> Option<i32> {
    event.rolls.first()?.modifiers.iter().find(|m| m.reason.starts_with(reason_starts)).map(|m| m.value)
}

fn field<'a>(event: &'a LogEvent, key: &str) -> &'a serde_json::Value {
    event.fields.get(key).unwrap_or(&serde_json::Value::Null)
}

/// Global round of an event (1-based) for two rounds a move.
fn round_of(event: &LogEvent) -> u32 {
    (event.move_number - 1) * 2 + u32::from(event.round.unwrap_or(0))
}

#[test]
fn the_farmstead_burns_plausibly() {
    for seed in [11, 1, 2, 3] {
        let Run { log, end } = run(&farmstead(), seed, 32);
        let events = &log.events;
        let find = |pred: &dyn Fn(&LogEvent) -> bool| events.iter().find(|e| pred(e));

        // The torch on dry thatch: D6 + 1 (torch) + 2 (thatch FR −2) is at least 4: lit in round 1.
        let torch = find(&|e| e.event == "ignition" && e.subject == "dropped torch").expect("torch rolled");
        assert_eq!((torch.move_number, torch.round, torch.outcome), (1, Some(1), "ignited"), "seed {seed}");

        // The thatch fire reaches the west haystack's nearest thatch-touching cell
        // (23.95", 35.95") from the torch at (23.5", 33") less the 0.25" caught at once:
        // (2.984 − 0.25) / 0.4" a round = 6.8 rounds, so the contact roll comes at the start of
        // round 8; a 1.5"+ fire (+5) against hay (FR −2) always catches.
        let hay = find(&|e| e.event == "ignition" && e.subject == "haystack west").expect("haystack west rolled");
        assert_eq!(field(hay, "from_region"), "barn roof", "seed {seed}");
        assert_eq!(hay.outcome, "ignited");
        assert_eq!(round_of(hay), 8, "seed {seed}");
        assert_eq!(modifier(hay, "fire strike"), Some(5));

        // The two haystacks are one material: the fire spreads from one into the other without a
        // roll (001 "Fire Spreading": "with the same material").
        assert!(!events.iter().any(|e| e.event == "ignition" && e.subject == "haystack east"), "seed {seed}");
        assert!(
            find(&|e| e.event == "region_burning" && e.subject == "haystack east" && e.outcome == "caught").is_some(),
            "seed {seed}: haystack east never caught"
        );
        for (region, from) in [("brambles", "haystack east"), ("cornfield", "brambles")] {
            let caught = find(&|e| e.event == "ignition" && e.subject == region && e.outcome == "ignited")
                .unwrap_or_else(|| panic!("seed {seed}: {region} never caught"));
            assert_eq!(field(caught, "from_region"), from, "seed {seed}: {region}");
        }
        // The barn roof: its farthest corner (10", 40") is 15.2" from the torch, 38 rounds at
        // 0.4", then 6 rounds burning: out by round 44 (move 22).
        let out = find(&|e| e.event == "region_burning" && e.subject == "barn roof" && e.outcome == "burnt_out")
            .expect("the barn roof burns out");
        assert!(round_of(out) <= 44 && round_of(out) >= 40, "seed {seed}: burnt out in round {}", round_of(out));

        // Hans sleeps in the barn at (18", 36"): 6.26" from the torch, reached after about 15 rounds.
        let hans: Vec<&LogEvent> =
            events.iter().filter(|e| e.event == "person_in_fire" && e.subject == "Hans").collect();
        assert!(!hans.is_empty(), "seed {seed}: Hans never caught");
        assert!((14..=17).contains(&round_of(hans[0])), "seed {seed}: Hans caught in round {}", round_of(hans[0]));
        assert!(hans.iter().all(|e| modifier(e, "unclothed") == Some(1)));
        let hans_figure = end.figures.iter().find(|f| f.name == "Hans").expect("Hans in the scene");
        assert!(!hans_figure.conditions.is_empty(), "seed {seed}: burns kept on the figure");

        // Fires are summarised with fright values; the burning barn (139 in² of thatch) is a house.
        let barn_fire =
            find(&|e| e.event == "fire_burning" && e.subject == "barn roof" && e.move_number == 10).expect("barn fire");
        assert_eq!(field(barn_fire, "building"), "house");
        assert!(field(barn_fire, "fright_value").as_i64().unwrap_or(0) >= 3);
        // The torch is lit and recorded; the fire is in the saved scene as its state.
        assert_eq!(end.fires[0].lit_round, Some(1));
        // Torch, haystack west, brambles, cornfield at least (haystack east needs none).
        let caught = events.iter().filter(|e| e.event == "ignition" && e.outcome == "ignited").count();
        assert!(caught >= 3, "seed {seed}: {caught} ignitions");
        assert!(end.ignitions.is_empty() && end.fire_state.is_some());
    }
}

#[test]
fn a_saved_fire_burns_on_exactly() {
    let scene = farmstead();
    let Run { log: full, .. } = run(&scene, 5, 24);
    let Run { log: first, end: middle } = run(&scene, 5, 12);
    let text = scene_to_ron(&middle).expect("saves");
    let reloaded = parse_scene(&text, Path::new("middle.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reloaded, middle);

    // The reloaded scene shows what burns and what is spent.
    let app = Simulation::new(&reloaded, 5);
    let front = app.world().resource::<FireFront>();
    assert_eq!(front.time(), 24.0);
    assert_eq!(front.state_at(bevy::math::Vec2::new(23.5, 33.0)), CellState::Spent);
    assert!(front.fires().iter().any(|f| f.regions.contains(&"barn roof".to_string())));

    let Run { log: second, .. } = run(&reloaded, 5, 12);
    let mut joined = first.to_json_lines();
    joined.push_str(&second.to_json_lines());
    assert_eq!(full.to_json_lines(), joined);
}

/// Thatch left of x = 6", and `right` beyond it; a 1" fire burning near the left end.
fn boundary_scene(right: &str, wet: bool) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 12, height: 4),
          terrain: [
            (name: \"thatch\", material: thatch, shape: Rect(min: (0, 0), max: (6, 4))),
            (name: \"wall\", material: {right}, shape: Rect(min: (6, 0), max: (12, 4)), wet: {wet}),
          ],
          fires: [(name: \"fire\", position: (1, 2), diameter: 1)])"
    ))
}

/// Rolls against the region beyond the boundary, up to and including the first success.
fn boundary_rolls(log: &EventLog) -> Vec<&LogEvent> {
    let mut rolls = Vec::new();
    for e in log.events.iter().filter(|e| e.event == "ignition" && e.subject == "wall") {
        rolls.push(e);
        if e.outcome == "ignited" {
            break;
        }
    }
    rolls
}

#[test]
fn boundary_ignition_gains_one_per_two_rounds_of_contact() {
    // Wet half-timbering (FR +7, wet +2) is hard to light: several rolls, each a round apart.
    let scene = boundary_scene("half_timbered", true);
    let mut longest = 0;
    for seed in 0..30 {
        let mut app = Simulation::new(&scene, seed);
        app.step_moves(14);
        let log = app.world().resource::<EventLog>();
        let rolls = boundary_rolls(log);
        assert_eq!(rolls.last().map(|e| e.outcome), Some("ignited"), "seed {seed}");
        longest = longest.max(rolls.len());
        for (k, e) in rolls.iter().enumerate() {
            // One roll a round, the contact one round older each time.
            assert_eq!(field(e, "rounds_in_contact"), k as u64, "{e:?}");
            assert_eq!(round_of(e), round_of(rolls[0]) + k as u32);
            // 001 "Held Igniters Add +1 per two rounds held continuously".
            assert_eq!(modifier(e, "held").unwrap_or(0), k as i32 / 2, "{e:?}");
            assert_eq!(modifier(e, "fire strike"), Some(5));
            assert_eq!(modifier(e, "half-timbered building fire resistance"), Some(-7));
            assert_eq!(modifier(e, "wet"), Some(-2));
            assert_eq!(field(e, "from_region"), "thatch");
        }
        // The front reached x = 6" after (5 − 0.5) / 0.4 = 11.25 rounds: first roll in round 13.
        assert_eq!(round_of(rolls[0]), 13);
    }
    // D6 − 4 + ⌊k/2⌋: 1 in 3 catch on the first roll; some runs need +2 (k = 4) or more.
    assert!(longest >= 5, "longest run of rolls {longest}");
}

#[test]
fn boundary_ignition_frequencies_match_the_text() {
    // A 1.5"+ fire (+5) against dry half-timbering (FR +7): D6 − 2 + ⌊k/2⌋ ≥ 1 ignites, k the
    // whole rounds of contact (0, 1, 2, ...): rolls of 3+ (k 0, 1), 2+ (k 2, 3), always (k 4).
    let fail = [2.0 / 6.0, 2.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0, 0.0];
    // Categories: caught on roll 1, 2, 3, 4 or later.
    let mut expected = [0.0f64; 4];
    let mut still = 1.0;
    for (k, p_fail) in fail.iter().enumerate() {
        expected[k.min(3)] += still * (1.0 - p_fail);
        still *= p_fail;
    }
    let trials = 400u32;
    let mut observed = [0u32; 4];
    let scene = boundary_scene("half_timbered", false);
    for seed in 0..trials {
        let mut app = Simulation::new(&scene, u64::from(seed));
        app.step_moves(10);
        let log = app.world().resource::<EventLog>();
        let rolls = boundary_rolls(log);
        assert_eq!(rolls.last().map(|e| e.outcome), Some("ignited"), "seed {seed}");
        assert!(rolls.iter().all(|e| modifier(e, "fire strike") == Some(5)));
        observed[(rolls.len() - 1).min(3)] += 1;
    }
    let chi = chi_square(&observed, &expected);
    // 99.9% critical value of chi-square with 3 degrees of freedom.
    assert!(chi < 16.266, "chi-square {chi}: observed {observed:?}, expected {expected:?}");
}

#[test]
fn spent_ground_never_burns_again_and_the_fire_goes_out() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 6, height: 2),
          terrain: [(name: \"oil\", material: oil, shape: Rect(min: (0, 0), max: (6, 2)))],
          fires: [(name: \"spark\", position: (0.5, 1), diameter: 0.2)])",
    );
    let mut app = Simulation::new(&scene, 1);
    // Oil: 1.0" a round, burns 2 rounds; 5.5" to the far end: all spent by round 8.
    app.step_moves(5);
    let world = app.world();
    let front = world.resource::<FireFront>();
    assert!(front.fires().is_empty());
    for x in [0.5f32, 3.0, 5.9] {
        assert_eq!(front.state_at(bevy::math::Vec2::new(x, 1.0)), CellState::Spent, "{x}");
    }
    let log = world.resource::<EventLog>();
    assert!(log.events.iter().any(|e| e.event == "fires_out"));
    assert!(log.events.iter().any(|e| e.event == "region_burning" && e.outcome == "burnt_out"));
    assert!(!log.events.iter().any(|e| e.event == "ignition"), "nothing left to catch");
}

#[test]
fn igniters_held_thrown_and_dropped() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 20, height: 4),
          terrain: [
            (name: \"door\", material: solid_timber, shape: Rect(min: (0, 0), max: (4, 4))),
            (name: \"thatch\", material: thatch, shape: Rect(min: (10, 0), max: (14, 4)), wet: true),
          ],
          figures: [(name: \"Arsonist\", position: (2, 2))],
          fires: [
            (name: \"match\", position: (2, 2), igniter: held(kind: match, by: \"Arsonist\")),
            (name: \"thrown candle\", position: (12, 2), igniter: thrown(kind: candle)),
            (name: \"dropped candle\", position: (16, 2), igniter: dropped(kind: candle)),
          ])",
    );
    let mut app = Simulation::new(&scene, 4);
    app.step_moves(3);
    let log = app.world().resource::<EventLog>();
    // A held match (−1) against solid timber (+3): rolled each round, +1 per two rounds held,
    // until it catches (D6 − 4 + ⌊k/2⌋ ≥ 1).
    let held: Vec<&LogEvent> = log.events.iter().filter(|e| e.subject == "match").collect();
    assert!(!held.is_empty());
    for (k, e) in held.iter().enumerate() {
        assert_eq!(round_of(e), k as u32 + 1);
        assert_eq!(field(e, "rounds_held"), k as u64);
        assert_eq!(modifier(e, "held").unwrap_or(0), k as i32 / 2);
        assert_eq!(modifier(e, "solid timber fire resistance"), Some(-3));
        assert!(k + 1 == held.len() || e.outcome != "ignited");
    }
    // Thrown: one roll, against wet thatch (−2 + 2).
    let thrown: Vec<&LogEvent> = log.events.iter().filter(|e| e.subject == "thrown candle").collect();
    assert_eq!(thrown.len(), 1);
    assert_eq!(modifier(thrown[0], "wet"), Some(-2));
    assert_eq!(modifier(thrown[0], "fire strike"), Some(-3));
    // Dropped on grass: nothing to burn, no roll, and it is out.
    let dropped: Vec<&LogEvent> = log.events.iter().filter(|e| e.subject == "dropped candle").collect();
    assert_eq!(dropped.len(), 1);
    assert_eq!(dropped[0].outcome, "nothing_to_burn");
    assert!(dropped[0].rolls.is_empty());
}

#[test]
fn the_dead_renamed_by_the_gm_are_still_dead_to_fire() {
    // The fire gives "definitely dead (fire)"; the GM renamed it "Deceased". The kind, not the
    // name, keeps the figure from rolling again; a file from before kinds (no `kind`) keeps the
    // old name's meaning, and a condition only named so (`kind: other`) does not.
    let scene = scene_from_str(
        "(version: 1, table: (width: 30, height: 6),
          terrain: [(name: \"hayfield\", material: hay, shape: Rect(min: (10, 0), max: (20, 6)))],
          figures: [
            (name: \"Renamed\", position: (15, 3), conditions: [(name: \"Deceased\", kind: dead, immobile: true)]),
            (name: \"Old file\", position: (14, 3), conditions: [(name: \"definitely dead (fire)\", immobile: true)]),
            (name: \"Only a name\", position: (16, 3), conditions: [(name: \"definitely dead (fire)\", kind: other)]),
          ],
          fires: [(name: \"blaze\", position: (15, 3), diameter: 4)])",
    );
    let Run { log, .. } = run(&scene, 2, 1);
    let rolled = |who: &str| log.events.iter().filter(|e| e.subject == who && e.event == "person_in_fire").count();
    assert_eq!(rolled("Renamed"), 0);
    assert_eq!(rolled("Old file"), 0);
    assert!(rolled("Only a name") > 0, "a figure in the fire that is not dead rolls");
}

#[test]
fn figures_in_fire_roll_and_keep_their_burns() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 30, height: 6),
          terrain: [(name: \"hayfield\", material: hay, shape: Rect(min: (10, 0), max: (20, 6)))],
          figures: [
            (name: \"Standing\", position: (15, 3), armour: unclothed),
            (name: \"Walker\", position: (5, 2), path: [(25, 2)], gait: running),
          ],
          fires: [(name: \"blaze\", position: (15, 3), diameter: 4)])",
    );
    let mut app = Simulation::new(&scene, 2);
    app.step_moves(1);
    let world = app.world_mut();
    let log = world.resource::<EventLog>().clone();
    let standing: Vec<&LogEvent> =
        log.events.iter().filter(|e| e.subject == "Standing" && e.event == "person_in_fire").collect();
    assert!(!standing.is_empty());
    // The 4" fire is about 5.4" across at the end of round 1 (hay 0.7" a round): FV3, so it
    // strikes persons at FV + 3 = +6; unclothed +1: D6 + 7 is 8 or more, definitely dead, and
    // the dead roll no more.
    assert_eq!(standing.len(), 1);
    for e in &standing {
        assert_eq!(modifier(e, "fire strike"), Some(6));
        assert_eq!(modifier(e, "unclothed"), Some(1));
        assert_eq!(e.outcome, "definitely_dead");
    }
    // The runner crossed the burning field in move 1 (12" running, through x 10..20).
    let walker =
        log.events.iter().find(|e| e.subject == "Walker" && e.event == "person_in_fire").expect("walker caught");
    assert_eq!(field(walker, "how"), "path_crossed_fire");
    assert_eq!(walker.round, Some(1));
    // Kept on the figure and written back into the scene.
    let end = tabula::sim::world::snapshot_scene(world).expect("a scene");
    let conditions = &end.figures[0].conditions;
    assert!(conditions.iter().any(|c| c.immobile && c.name.contains("dead")), "{conditions:?}");
    let walker = &end.figures[1];
    let burns: i32 = walker.conditions.iter().map(|c| c.me_and_mo).sum();
    let expected: i32 = log
        .events
        .iter()
        .filter(|e| e.subject == "Walker" && e.event == "person_in_fire")
        .map(|e| field(e, "me_and_mo").as_i64().unwrap_or(0) as i32)
        .sum();
    assert_eq!(burns, expected);
}

#[test]
fn a_trap_flame_request_is_rolled_like_any_igniter() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 10, height: 4),
          terrain: [(name: \"brush\", material: brushwood, shape: Rect(min: (0, 0), max: (10, 4)))])",
    );
    let mut app = Simulation::new(&scene, 1);
    app.world_mut().write_message(IgniteRequest {
        position: bevy::math::Vec2::new(5.0, 2.0),
        fire_strike: 2,
        rounds_held: 0,
        source: "flame treadle".into(),
    });
    app.step_moves(2);
    let world = app.world();
    let log = world.resource::<EventLog>();
    let roll = log.events.iter().find(|e| e.event == "ignition").expect("rolled");
    assert_eq!(roll.subject, "flame treadle");
    // FS +2 against brushwood (house FR −1): D6 + 3 always catches.
    assert_eq!(roll.outcome, "ignited");
    assert_eq!(modifier(roll, "brushwood fire resistance"), Some(1));
    let front = world.resource::<FireFront>();
    // Brushwood spreads 0.5" a round: after 4 rounds the fire is about 2 × (0.25 + 2)" across.
    let fire = front.fires().first().expect("burning");
    assert!((fire.span_in - 4.5).abs() < 0.3, "{fire:?}");
    assert_eq!(fire.fright_value, Some(3));
    let (_, distance) = front.nearest_burning(bevy::math::Vec2::new(9.0, 2.0), 5.0).expect("in reach");
    assert!((distance - 1.75).abs() < 0.2, "{distance}");
}

#[test]
fn bad_fire_input_names_the_entity_and_field() {
    let cases = [
        (
            "fires: [(name: \"t\", position: (1, 1), igniter: held(kind: torch, by: \"Nobody\"))]",
            "fire \"t\": igniter by",
        ),
        ("clock: (moves_played: 1), ignitions: [(time: 5, position: (1, 1), source: \"x\")]", "time: 5 must be 0 to 2"),
        ("rules: (fire: (cell_size: 0))", "fire cell_size"),
        ("rules: (fire: (burn_out: (hay: 0)))", "fire burn_out hay"),
        // Discs flooded cell by cell when they catch: at most twice the table's area in all, a
        // disc counting at most the table.
        (
            "fires: [(name: \"a\", position: (5, 5), diameter: 23), (name: \"b\", position: (5, 5), diameter: 23), (name: \"c\", position: (5, 5), diameter: 2)]",
            "would set 203 square inches alight at once, more than 2 × the table's 100",
        ),
        (
            "ignitions: [(time: 0, position: (5, 5), radius: 6, source: \"a\"), (time: 0, position: (5, 5), radius: 6, source: \"b\"), (time: 0, position: (5, 5), radius: 6, source: \"c\")]",
            "would set 300 square inches alight at once, more than 2 × the table's 100",
        ),
        // A saved fire fits only the grid it was saved from.
        (
            "clock: (moves_played: 1), fire_state: (width: 50, height: 100, cell_size: 0.1, settled_until: 2, arrivals: \"\")",
            "fire_state: saved for a 50×100 grid of 0.1\" cells, but this table and fire cell_size give 100×100",
        ),
        (
            "clock: (moves_played: 1), fire_state: (width: 100, height: 100, cell_size: 0.1, settled_until: 3, arrivals: \"\")",
            "fire_state: settled_until: 3 must be 0 to 2",
        ),
        (
            "fire_state: (width: 100, height: 100, cell_size: 0.1, settled_until: 0, arrivals: \"AAAA\")",
            "fire_state: arrivals: 3 bytes, 1250 expected",
        ),
        ("fire_state: (width: 100, height: 100, cell_size: 0.1, settled_until: 0, arrivals: \"*\")", "not base64"),
    ];
    for (body, expected) in cases {
        let text = format!("(version: 1, table: (width: 10, height: 10), {body})");
        let err = parse_scene(&text, Path::new("bad.ron")).expect_err(body).to_string();
        assert!(err.contains(expected), "{body}: {err}");
    }
}

#[test]
fn large_fires_held_frighten_before_they_light_anything() {
    // FS − 3: a held 1.5" fire (+5) is FV2, a torch (+1) nothing.
    let scene = scene_from_str(
        "(version: 1, table: (width: 10, height: 4),
          figures: [(name: \"Bearer\", position: (2, 2)), (name: \"Torchman\", position: (6, 2))],
          fires: [
            (name: \"brazier\", position: (2, 2), igniter: held(kind: fire_1_5_inch, by: \"Bearer\")),
            (name: \"torch\", position: (6, 2), igniter: held(kind: torch, by: \"Torchman\")),
          ])",
    );
    let mut app = Simulation::new(&scene, 1);
    app.step_moves(1);
    let front = app.world().resource::<FireFront>();
    let frights: Vec<(&str, i32)> = front.igniter_frights().iter().map(|f| (f.name.as_str(), f.fright_value)).collect();
    assert_eq!(frights, [("brazier", 2)]);
}

/// A treadle's flame payload starts a fire through the fire rules: the flame is a fire as
/// wide as the trap (1" across: FS +4) held against the thatch (FR −2): D6 + 4 + 2 ≥ 7, so the
/// thatch always catches.
#[test]
fn a_trap_flame_starts_a_fire_through_the_fire_rules() {
    let scene = scene_from_str(
        r#"(version: 1, table: (width: 20, height: 10),
            terrain: [(name: "thatch floor", material: thatch, shape: Rect(min: (0, 0), max: (20, 10)))],
            figures: [(name: "Victim", position: (1, 5), path: [(19, 5)])],
            traps: [(name: "fire board", kind: treadle(payload: (kind: flame, strike: 2)), position: (5, 5), side: Some("bandits"))])"#,
    );
    let mut sprung = 0;
    for seed in 0..20 {
        let Run { log, .. } = run(&scene, seed, 2);
        // A figure who spots the board steps round it: no flame then.
        if !log.events.iter().any(|e| e.event == "treadle" && e.outcome == "sprung") {
            assert!(!log.events.iter().any(|e| e.system == "fire" && e.subject == "fire board"));
            continue;
        }
        sprung += 1;
        let ignition = log
            .events
            .iter()
            .find(|e| e.system == "fire" && e.event == "ignition" && e.subject == "fire board")
            .unwrap_or_else(|| panic!("seed {seed}: no ignition from the trap:\n{}", log.to_json_lines()));
        assert_eq!(ignition.outcome, "ignited", "{}", log.to_json_lines());
        let fs = ignition.rolls[0].modifiers.iter().find(|m| m.reason.contains("fire strike")).map(|m| m.value);
        // The flame reaches 1" (house rule `payload_radius.flame`), so its fire is 2" across:
        // as an igniter, 1.5" and larger count +5 (001 "Held Igniters").
        assert_eq!(fs, Some(5), "{:?}", ignition.rolls[0]);
    }
    assert!(sprung >= 5, "the board was sprung in only {sprung} of 20 runs");
}

/// 002 "10-11 – Fire Trap" sets models on fire and says nothing of the ground: a Khemri Fire
/// Trap lights the hay under it only with the house rule `khemri.fire_trap_ignites_ground`.
/// Set, its flame is the counter's area (0.5" radius, 1.0" across: FS +4) against hay (FR −2):
/// D6 + 4 + 2 ≥ 7, always `ignited`.
#[test]
fn a_khemri_fire_trap_lights_the_ground_only_if_set() {
    let text = |ignites: bool| {
        format!(
            r#"(version: 1, table: (width: 20, height: 10),
                rules: (traps: (khemri: (traps_per_player: fixed(10), fire_trap_ignites_ground: {ignites}))),
                terrain: [(name: "hay floor", material: hay, shape: Rect(min: (0, 0), max: (20, 10)))],
                figures: [(name: "Victim", position: (1, 5), path: [(19, 5)], mordheim: (ws: 3, s: 3, t: 3, w: 9, i: 0))],
                traps: [(name: "fire jets", kind: khemri(drawn: Some(complex), complex: Some(fire_trap)), position: (5, 5))])"#
        )
    };
    for seed in 0..10 {
        // I 0 never passes: the Fire Trap goes off in the first move.
        let Run { log, .. } = run(&scene_from_str(&text(false)), seed, 2);
        assert!(log.events.iter().any(|e| e.event == "khemri_trap" && e.outcome == "fire_trap"), "seed {seed}");
        assert!(
            !log.events.iter().any(|e| e.system == "fire" && e.subject == "fire jets"),
            "seed {seed}: the ground is not lit by default:\n{}",
            log.to_json_lines()
        );
        let Run { log, .. } = run(&scene_from_str(&text(true)), seed, 2);
        let ignition = log
            .events
            .iter()
            .find(|e| e.system == "fire" && e.event == "ignition" && e.subject == "fire jets")
            .unwrap_or_else(|| panic!("seed {seed}: no ignition with the house rule:\n{}", log.to_json_lines()));
        assert_eq!(ignition.outcome, "ignited");
    }
}

/// A figure standing in a fire that does not grow: half-timbering spreading 0.001" a round,
/// lit 0.2" across at a cell centre (the cell and its four edge neighbours, 0.05 in², 0.25"
/// across: under the 0.3" row), so its FS is the house rule `fire_strike_under_smallest_fire`,
/// set to −1 here: D6 − 1 is at worst "severe burns" and the figure keeps rolling.
fn standing_in_a_small_fire(person_rolls: &str, burns: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 10, height: 4),
          rules: (fire: (half_timbered_building_spread_rate: 0.001, fire_strike_under_smallest_fire: -1,
                         person_rolls: {person_rolls}, burns: {burns})),
          terrain: [(name: \"hall\", material: half_timbered, shape: Rect(min: (0, 0), max: (10, 4)))],
          figures: [(name: \"Stander\", position: (5.05, 2.05))],
          fires: [(name: \"spark\", position: (5.05, 2.05), diameter: 0.2)])"
    ))
}

#[test]
fn a_person_in_fire_rolls_once_a_move_and_keeps_the_worst_burn() {
    // Two moves standing in fire: once a move (the default) is 2 rolls, once a round 4.
    for (rolls, expected) in [("per_move", 2), ("per_round", 4)] {
        for seed in 0..5 {
            let Run { log, .. } = run(&standing_in_a_small_fire(rolls, "worst_kept"), seed, 2);
            let events: Vec<&LogEvent> = log.events.iter().filter(|e| e.event == "person_in_fire").collect();
            assert_eq!(events.len(), expected, "{rolls} seed {seed}");
            assert!(events.iter().all(|e| modifier(e, "fire strike") == Some(-1)), "{rolls} seed {seed}");
            if rolls == "per_move" {
                // Each in the first round of its move, where the fire reached the figure.
                assert!(events.iter().all(|e| e.round == Some(1)));
                assert_eq!(events.iter().map(|e| e.move_number).collect::<Vec<_>>(), [1, 2]);
            }
        }
    }
    // Burns: the worst kept (default), or all summed.
    let severity = |outcome: &str| {
        ["minor_burns", "bad_burns", "severe_burns", "crippled_in_agony"].iter().position(|o| *o == outcome)
    };
    for seed in 0..20 {
        let Run { log, end } = run(&standing_in_a_small_fire("per_round", "worst_kept"), seed, 2);
        let worst = log.events.iter().filter(|e| e.event == "person_in_fire").filter_map(|e| severity(e.outcome)).max();
        let conditions = &end.figures[0].conditions;
        assert!(conditions.len() <= 1, "seed {seed}: {conditions:?}");
        let kept = conditions.first().map(|c| match c.me_and_mo {
            -1 => 0,
            -2 => 1,
            -3 => 2,
            _ => 3,
        });
        assert_eq!(kept, worst, "seed {seed}: {conditions:?}");

        let Run { log, end } = run(&standing_in_a_small_fire("per_round", "summed"), seed, 2);
        let rolled: Vec<&LogEvent> = log.events.iter().filter(|e| e.event == "person_in_fire").collect();
        let conditions = &end.figures[0].conditions;
        assert_eq!(conditions.len(), rolled.iter().filter(|e| severity(e.outcome).is_some()).count(), "seed {seed}");
        let sum: i64 = rolled.iter().map(|e| field(e, "me_and_mo").as_i64().unwrap_or(0)).sum();
        assert_eq!(conditions.iter().map(|c| i64::from(c.me_and_mo)).sum::<i64>(), sum, "seed {seed}");
    }
}

/// A 10" × 2" strip (20 in²) of `material`, marked a building or not, a fire lit `fire_diameter`
/// across at its middle; nothing burns out for 1000 rounds.
fn strip_scene(material: &str, building: bool, fire_diameter: f32) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 10, height: 4),
          rules: (fire: (burn_out: (thatch: 1000, solid_timber: 1000))),
          terrain: [(name: \"roof\", material: {material}, shape: Rect(min: (0, 0), max: (10, 2)), building: {building})],
          fires: [(name: \"fire\", position: (5, 1), diameter: {fire_diameter})])"
    ))
}

#[test]
fn only_marked_buildings_frighten_as_buildings() {
    // The fire at the end of the first move (2 rounds).
    let fire_after_a_move = |scene: &Scene| {
        let mut app = Simulation::new(scene, 1);
        app.step_moves(1);
        let front = app.world().resource::<FireFront>();
        front.fires().first().cloned().expect("burning")
    };
    // Solid timber (0.1" a round) lit 1" across: after 2 rounds a disc of radius 0.7", 1.54 in²,
    // 1.4" across: FV1 by size. Marked a building, the 1.54 in² burning (under `house_area` 16)
    // is a small burning building: FV2, FS against persons 2 + 3 = 5.
    let small = fire_after_a_move(&strip_scene("solid_timber", true, 1.0));
    assert!((small.diameter_in - 1.4).abs() < 0.06, "{small:?}");
    assert_eq!(small.building, Some(tabula::rules::fire::BurningBuilding::SmallBuilding));
    assert_eq!(small.fright_value, Some(2));
    assert_eq!(small.fire_strike_vs_persons, 5);
    // Unmarked: FV1 by its size, FS 1 + 3 = 4.
    let patch = fire_after_a_move(&strip_scene("solid_timber", false, 1.0));
    assert_eq!(patch.building, None);
    assert_eq!(patch.fright_value, Some(1));
    assert_eq!(patch.fire_strike_vs_persons, 4);
    // Thatch lit 12" across at once: all 20 in² burning. Marked: a house (16 in² and more), FV3,
    // FS 6.
    let house = fire_after_a_move(&strip_scene("thatch", true, 12.0));
    assert!((house.area_in2 - 20.0).abs() < 0.05, "{house:?}");
    assert_eq!(house.building, Some(tabula::rules::fire::BurningBuilding::House));
    assert_eq!(house.fright_value, Some(3));
    assert_eq!(house.fire_strike_vs_persons, 6);
    // Unmarked: d = 2√(20/π) = 5.05", FV3 by its size only, no building.
    let field = fire_after_a_move(&strip_scene("thatch", false, 12.0));
    assert_eq!(field.building, None);
    assert!((field.diameter_in - 5.05).abs() < 0.01, "{field:?}");
    assert_eq!(field.fright_value, Some(3));
}

#[test]
fn sleepers_in_a_burning_region_are_burnt() {
    // Twelve asleep at (5.05, 2.05) in a half-timbered hall whose fire does not grow (0.001" a
    // round): a 2" fire, about 2" across, FV2, so FS = 2 + 3 = 5 (001 "Persons"); asleep they
    // are unclothed, +1: D6 + 6 is 7 (apparently dead, face 1, 1/6) or 8+ (definitely dead, 5/6).
    let members: Vec<String> = (1..=12).map(|i| format!("\"M{i}\"")).collect();
    let scene = scene_from_str(&format!(
        "(version: 1, table: (width: 10, height: 4),
          rules: (fire: (half_timbered_building_spread_rate: 0.001)),
          terrain: [(name: \"hall\", material: half_timbered, shape: Rect(min: (0, 0), max: (10, 4)))],
          fires: [(name: \"blaze\", position: (5.05, 2.05), diameter: 2)],
          sleepers: [(name: \"G\", position: (5.05, 2.05), shelter: building, members: [{}])])",
        members.join(", ")
    ));
    let mut observed = [0u32; 2];
    for seed in 0..50 {
        let Run { log, end } = run(&scene, seed, 1);
        let burnt: Vec<&LogEvent> = log.events.iter().filter(|e| e.event == "person_in_fire").collect();
        // Once a move each (`person_rolls: per_move`).
        assert_eq!(burnt.len(), 12, "seed {seed}");
        for e in &burnt {
            assert_eq!(field(e, "how"), "lies_in_fire");
            assert_eq!(field(e, "group"), "G");
            assert_eq!(modifier(e, "fire strike"), Some(5), "{e:?}");
            assert_eq!(modifier(e, "unclothed"), Some(1));
            match e.outcome {
                "apparently_dead" => observed[0] += 1,
                "definitely_dead" => observed[1] += 1,
                other => panic!("impossible outcome {other} for D6 + 6"),
            }
        }
        // Kept on the members and saved with the scene.
        for (member, e) in end.sleepers[0].members.iter().zip(&burnt) {
            assert_eq!(member.0.name, e.subject);
            assert_eq!(member.0.conditions.len(), 1, "{:?}", member.0.conditions);
            assert!(member.0.conditions[0].immobile);
        }
    }
    let chi = chi_square(&observed, &[1.0 / 6.0, 5.0 / 6.0]);
    // 99.9% critical value of chi-square with 1 degree of freedom.
    assert!(chi < 10.828, "chi-square {chi}: observed {observed:?}");
}

/// Two thatch regions side by side, A [0, 5] × [0, 2] and B [5, 10] × [0, 2] (`b` the second's
/// material), a fire 0.5" across lit in A at (1, 1); nothing burns out for 1000 rounds.
fn two_regions(b: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 10, height: 2),
          rules: (fire: (burn_out: (thatch: 1000, hay: 1000))),
          terrain: [
            (name: \"A\", material: thatch, shape: Rect(min: (0, 0), max: (5, 2))),
            (name: \"B\", material: {b}, shape: Rect(min: (5, 0), max: (10, 2))),
          ],
          fires: [(name: \"spark\", position: (1, 1), diameter: 0.5)])"
    ))
}

#[test]
fn same_material_regions_burn_as_one_fuel() {
    // 001 "Fire Spreading": "Once ignited fire spreads at the FSR ... per round with the same
    // material": thatch 0.4" a round from the 0.25" lit at once, along y = 1: x = 5 after
    // (5 − 1 − 0.25) / 0.4 = 9.375 rounds, x = 7 after 14.375 rounds (±2%: the stencil).
    let mut app = Simulation::new(&two_regions("thatch"), 1);
    let burning =
        |app: &Simulation, x: f32| app.world().resource::<FireFront>().state_at(bevy::math::Vec2::new(x, 1.0));
    app.step_moves(4); // 8 rounds: not yet at x = 5
    assert_eq!(burning(&app, 5.05), CellState::Unburnt);
    app.step_moves(1); // 10 rounds: past x = 5 into B, not yet at 7
    assert_eq!(burning(&app, 5.05), CellState::Burning);
    assert_eq!(burning(&app, 7.05), CellState::Unburnt);
    app.step_moves(3); // 16 rounds: past x = 7
    assert_eq!(burning(&app, 7.05), CellState::Burning);
    let log = app.world().resource::<EventLog>();
    assert!(!log.events.iter().any(|e| e.event == "ignition"), "no roll to cross into B");
    let caught = log
        .events
        .iter()
        .find(|e| e.event == "region_burning" && e.subject == "B" && e.outcome == "caught")
        .expect("B catches from A's fire");
    // In round 10 (9.375 rounds after the start, ±2%).
    assert_eq!(round_of(caught), 10);
}

#[test]
fn a_new_material_catches_half_an_inch() {
    // Thatch A against hay B: the contact roll (fire 1.5"+ across: +5, hay FR −2) always
    // catches, and "1+ ignited (up to 0.5")" lights the hay within 0.25" of the touched cell's
    // centre: about half a disc, π·0.25²/2 ≈ 0.098 in² (≈ 10 cells of 0.1"), not one cell.
    let mut app = Simulation::new(&two_regions("hay"), 1);
    let mut lit = None;
    for _ in 0..10 {
        app.step_moves(1);
        let log = app.world().resource::<EventLog>();
        if let Some(e) = log.events.iter().find(|e| e.event == "ignition" && e.subject == "B") {
            lit = Some(e.clone());
            break;
        }
    }
    let lit = lit.expect("B rolled");
    assert_eq!(lit.outcome, "ignited");
    let log = app.world().resource::<EventLog>();
    let first =
        log.events.iter().find(|e| e.event == "region_burning" && e.subject == "B").expect("B burning after the roll");
    let area = field(first, "newly_burning_in2").as_f64().unwrap_or(0.0);
    // Lit at the round's start, then spreading at hay's 0.7" for the rest of that round: at
    // least the half disc, at most the half disc of radius 0.25 + 0.7, allowing the front's
    // 3% and one row of 0.1" cells along the cut (0.1 · 1.9").
    assert!(area >= 0.07, "{area} in²: more than one cell");
    assert!(area <= std::f64::consts::PI * 0.95 * 0.95 / 2.0 * 1.03 + 0.1 * 1.9, "{area} in²");
    // Saved, the hay's fire is in the state: it loads burning where it burnt.
    let end = tabula::sim::world::snapshot_scene(app.world_mut()).expect("a scene");
    assert!(end.ignitions.is_empty());
    let reloaded = Simulation::new(&end, 1);
    let (before, after) = (app.world().resource::<FireFront>(), reloaded.world().resource::<FireFront>());
    let (grid_before, grid_after) = (before.grid().expect("grid"), after.grid().expect("grid"));
    assert_eq!(grid_before.reached().collect::<Vec<_>>(), grid_after.reached().collect::<Vec<_>>());
    assert_eq!(grid_before.settled_until(), grid_after.settled_until());
}

/// A long fire with many contact ignitions saves small and loads in one pass: the save carries
/// the grid's arrival times, not every ignition (issue 16: a small scene's fire once saved as
/// 23 MB of ignitions, over the load limit).
#[test]
fn a_saved_fire_is_its_state_not_its_history() {
    let scene = farmstead();
    let Run { end, .. } = run(&scene, 3, 40);
    let text = scene_to_ron(&end).expect("saves");
    assert!(end.ignitions.is_empty());
    let state = end.fire_state.as_ref().expect("the fire's state");
    // 72" × 48" at 0.1": a bitmap of 345,600 cells and 4 bytes per reached cell, in base64.
    assert!(state.arrivals.len() <= (345_600 / 8 + 4 * 345_600usize).div_ceil(3) * 4);
    assert!(text.len() < 2 * 1024 * 1024, "{} bytes", text.len());
    let reloaded = parse_scene(&text, Path::new("end.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reloaded, end);
}

/// A table 4.03" wide has 41 columns of 0.1" cells, the last one's centres at x = 4.05", past
/// the edge. Fire meeting a bale lying only in that column catches it at its cell centre: the
/// ignition is logged on the table's edge, in the same cell, and the saved scene loads and burns
/// on exactly as an unbroken run.
#[test]
fn an_ignition_past_the_table_edge_is_recorded_on_the_table() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 4.03, height: 2),
          terrain: [
            (name: \"roof\", material: thatch, shape: Rect(min: (0, 0), max: (4.03, 2))),
            (name: \"bale\", material: hay, shape: Circle(center: (4.03, 1), radius: 0.07)),
          ],
          fires: [(name: \"fire\", position: (0.5, 1), diameter: 1)])",
    );
    let Run { log: full, .. } = run(&scene, 3, 12);
    let Run { log: first, end: middle } = run(&scene, 3, 6);
    let caught = first
        .events
        .iter()
        .find(|e| e.event == "ignition" && e.subject == "bale" && e.outcome == "ignited")
        .expect("the bale caught by move 6");
    let x = caught.fields.get("position").and_then(|p| p.get(0)).and_then(|x| x.as_f64()).expect("a position");
    assert!(x <= 4.03, "{caught:?}");
    let text = scene_to_ron(&middle).expect("saves");
    let reloaded = parse_scene(&text, Path::new("middle.ron")).unwrap_or_else(|e| panic!("{e}"));
    let Run { log: second, .. } = run(&reloaded, 3, 6);
    let mut joined = first.to_json_lines();
    joined.push_str(&second.to_json_lines());
    assert_eq!(full.to_json_lines(), joined);
}
