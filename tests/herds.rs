//! Herds through the simulation: wandering distributions against the rule text, spacing and
//! cohesion over long runs, catching steeds, herding, zones, cattle grids, fire, round trips.

mod common;

use bevy::math::Vec2;
use common::{chi_square, scene_from_str};
use std::path::Path;
use tabula::scene::herds::layout_radius;
use tabula::scene::{Scene, load_scene, parse_scene, scene_to_ron};
use tabula::sim::Simulation;
use tabula::sim::herds::{Beasts, FireHazard, FireHazards, Herd};
use tabula::sim::log::LogEvent;
use tabula::sim::world::{TablePosition, snapshot_scene};
use tabula::sim::{EventLog, step_move};
use tabula::sim::{Run, run};

fn example(name: &str) -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn events<'a>(log: &'a EventLog, event: &str) -> Vec<&'a LogEvent> {
    log.events.iter().filter(|e| e.event == event).collect()
}

fn f(e: &LogEvent, key: &str) -> f64 {
    e.fields[key].as_f64().unwrap_or_else(|| panic!("{key} in {e:?}"))
}

fn pt(e: &LogEvent, key: &str) -> Vec2 {
    let v = &e.fields[key];
    Vec2::new(v[0].as_f64().unwrap() as f32, v[1].as_f64().unwrap() as f32)
}

// Critical values at p = 1e-6: the seeds are fixed, a wrong band shifts whole tenths.
const CHI2_DF1: f64 = 23.93;
const CHI2_DF6: f64 = 38.26;
const CHI2_DF9: f64 = 44.81;

/// Lone beasts in the middle of a table too big for them to reach an edge in the moves run.
fn open_field(herds: usize) -> Scene {
    let list: Vec<String> = (0..herds)
        .map(|i| format!("(name: \"h{i}\", beast: cow, count: 1, position: (500, 500), heading: {})", (i * 37) % 360))
        .collect();
    scene_from_str(&format!("(version: 1, table: (width: 1000, height: 1000), herds: [{}])", list.join(",")))
}

#[test]
fn wander_distance_and_turn_through_the_sim_match_the_text() {
    // From the text, Morval D10 faces 0..=9: D10 − 3 is −3..=6. "If result a minus, has not
    // moved": faces 0, 1, 2, 3 in 10. Face 3 gives 0", so 4 in 10 moves cover no ground; each
    // of 1"..6" is 1 in 10. The turn is D10 × 20°: each of 0°, 20°, ..., 180° 1 in 10; the
    // side D6 4+ right (clockwise), 3− left: 1 in 2.
    let mut expected_distance = [0.0f64; 7];
    let mut expected_minus = 0.0;
    for face in 0..=9i32 {
        let total = face - 3;
        if total < 0 {
            expected_minus += 0.1;
        }
        expected_distance[total.max(0) as usize] += 0.1;
    }
    let expected_turn = [0.1f64; 10];
    let right_share = (1..=6).filter(|&d| d >= 4).count() as f64 / 6.0;

    let moves = 50;
    let Run { log, .. } = run(&open_field(200), 11, moves);
    let wanders = events(&log, "wandered");
    assert_eq!(wanders.len(), 200 * moves as usize);
    let mut distance = [0u32; 7];
    let mut minus = [0u32; 2];
    let mut turn = [0u32; 10];
    let mut side = [0u32; 2];
    for e in &wanders {
        // What the beast actually did on the table, not what the rules returned.
        let (from, to) = (pt(e, "from"), pt(e, "to"));
        let went = from.distance(to);
        let inches = went.round();
        assert!((went - inches).abs() < 1e-3, "travelled {went}");
        distance[inches as usize] += 1;
        minus[usize::from(e.outcome != "not_moved")] += 1;
        if e.outcome == "not_moved" {
            assert!(e.rolls[0].total < 0);
        }
        // The heading change on the table, counter-clockwise positive; the rules' turn is
        // clockwise positive.
        let delta = (f(e, "heading") - f(e, "heading_before")).rem_euclid(360.0);
        let clockwise = if delta > 180.0 + 1e-3 { 360.0 - delta } else { -delta };
        let magnitude = clockwise.abs();
        assert!((magnitude / 20.0 - (magnitude / 20.0).round()).abs() < 1e-3, "turn {clockwise}");
        turn[(magnitude / 20.0).round() as usize] += 1;
        let right = e.rolls[1].total >= 4;
        side[usize::from(!right)] += 1;
        if magnitude > 1e-3 && (magnitude - 180.0).abs() > 1e-3 {
            assert_eq!(clockwise > 0.0, right, "a right turn is clockwise: {e:?}");
        }
        // The beast went along its new heading.
        if went > 0.5 {
            let along = Vec2::from_angle((f(e, "heading") as f32).to_radians());
            assert!(((to - from) / went - along).length() < 1e-3, "{e:?}");
        }
    }
    let n = wanders.len() as f64;
    let zero_share = f64::from(distance[0]) / n;
    let minus_share = f64::from(minus[0]) / n;
    assert!((minus_share - expected_minus).abs() < 0.02, "minus share {minus_share}");
    assert!((zero_share - expected_distance[0]).abs() < 0.02, "no-ground share {zero_share}");
    let chi = chi_square(&distance, &expected_distance);
    assert!(chi < CHI2_DF6, "distance chi-square {chi} for {distance:?}");
    let chi = chi_square(&minus, &[expected_minus, 1.0 - expected_minus]);
    assert!(chi < CHI2_DF1, "minus chi-square {chi} for {minus:?}");
    let chi = chi_square(&turn, &expected_turn);
    assert!(chi < CHI2_DF9, "turn chi-square {chi} for {turn:?}");
    let chi = chi_square(&side, &[right_share, 1.0 - right_share]);
    assert!(chi < CHI2_DF1, "side chi-square {chi} for {side:?}");
}

/// A fenced field with a cattle grid in its gateway, herds inside and out, a fire ring.
// The bull wanders here (house rule `zone_creatures_wander`) so that, over a thousand moves,
// something meets the fire ring in the corner.
const PADDOCK: &str = "(version: 1, table: (width: 72, height: 48),
    rules: (herds: (zone_creatures_wander: true)),
    walls: [
        (name: \"fence\", kind: low, points: [(20, 10), (60, 10), (60, 40), (20, 40), (20, 26)]),
        (name: \"fence gate post\", kind: low, points: [(20, 22), (20, 10)]),
    ],
    cattle_grids: [(name: \"gate grid\", from: (20, 22), to: (20, 26))],
    figures: [(name: \"Shepherd\", side: \"village\", position: (10, 40), skills: [shepherd])],
    herds: [
        (name: \"cows in\", beast: cow, count: 12, position: (40, 25), heading: 180),
        (name: \"pigs in\", beast: pig, count: 7, position: (50, 33), heading: 0, spacing: 1.5),
        (name: \"goats out\", beast: goat, count: 19, position: (8, 8), heading: 200),
        (name: \"sheep out\", beast: sheep, count: 15, position: (10, 36), heading: 90, herders: [\"Shepherd\"]),
        (name: \"bull out\", beast: bull, count: 1, position: (66, 44), heading: 45),
    ])";

fn inside_paddock(p: Vec2) -> bool {
    p.x > 20.0 && p.x < 60.0 && p.y > 10.0 && p.y < 40.0
}

#[test]
fn spacing_and_cohesion_hold_over_a_thousand_moves() {
    let scene = scene_from_str(PADDOCK);
    for seed in [1u64, 2] {
        let mut app = Simulation::new(&scene, seed);
        app.world_mut().insert_resource(FireHazards(vec![FireHazard {
            position: Vec2::new(30.0, 45.0),
            radius: 2.0,
            fright: 2,
        }]));
        let mut min_gap = f32::MAX;
        for m in 1..=1000 {
            step_move(app.world_mut());
            let world = app.world_mut();
            let mut q = world.query::<(&Herd, &Beasts)>();
            for (herd, beasts) in q.iter(world) {
                let h = &herd.0;
                let p = &beasts.positions;
                for (i, a) in p.iter().enumerate() {
                    assert!(
                        a.x >= 0.0 && a.y >= 0.0 && a.x <= 72.0 && a.y <= 48.0,
                        "{} off the table at move {m}: {a}",
                        h.name
                    );
                    assert!(a.distance(Vec2::new(30.0, 45.0)) > 2.0, "{} in the fire at move {m}", h.name);
                    if h.name.ends_with(" in") {
                        assert!(inside_paddock(*a), "{} beast {i} got out at move {m}: {a}", h.name);
                    } else {
                        assert!(!inside_paddock(*a), "{} beast {i} got in at move {m}: {a}", h.name);
                    }
                    for b in &p[i + 1..] {
                        let gap = a.distance(*b);
                        min_gap = min_gap.min(gap / h.spacing);
                        assert!(gap >= h.spacing - 1e-2, "{}: beasts {gap}\" apart at move {m} (seed {seed})", h.name);
                    }
                }
                // Wandering herds stay together: within the laid-out radius of their centre
                // (twice over, for a lattice whose mean is off its first beast).
                if h.herders.is_empty() {
                    let centre = beasts.centroid();
                    let bound = 2.0 * layout_radius(h.count, h.spacing) + 0.01;
                    for a in p {
                        assert!(
                            a.distance(centre) <= bound,
                            "{} strays {}\" from its centre at move {m}",
                            h.name,
                            a.distance(centre)
                        );
                    }
                }
            }
        }
        let log = app.world().resource::<EventLog>();
        for outcome in ["stopped_by_table_edge", "stopped_by_wall", "turned_by_fire"] {
            assert!(log.events.iter().any(|e| e.outcome == outcome), "seed {seed}: no {outcome} in 1000 moves");
        }
        assert!(min_gap >= 0.99, "{min_gap}");
    }
}

#[test]
fn livestock_never_cross_a_cattle_grid_but_wolves_do() {
    // A corridor closed by a grid: cows pile up at it, a wolf pack goes through.
    let text = |beast: &str| {
        format!(
            "(version: 1, table: (width: 60, height: 10),
              walls: [(name: \"north\", points: [(0, 7), (60, 7)]), (name: \"south\", points: [(0, 3), (60, 3)])],
              cattle_grids: [(name: \"grid\", from: (12, 3), to: (12, 7))],
              herds: [(name: \"herd\", beast: {beast}, count: 1, position: (6, 5), heading: 0)],
              rules: (herds: (zone_creatures_wander: true)))"
        )
    };
    let mut crossed_wolf = false;
    for seed in 0..20 {
        let Run { log, end } = run(&scene_from_str(&text("cow")), seed, 200);
        assert!(end.herds[0].position.0 < 12.0, "a cow crossed the grid: {:?}", end.herds[0].position);
        assert!(log.events.iter().all(|e| e.event != "wandered" || pt(e, "to").x < 12.0));
        let Run { end, .. } = run(&scene_from_str(&text("wolf")), seed, 200);
        crossed_wolf |= end.herds[0].position.0 > 12.0;
    }
    assert!(crossed_wolf, "wolves are not livestock and cross grids");
}

/// H1. 000 "Untethered Steeds and ruminants & herding": "Herds & flocks will wander together";
/// zone creatures (000 "Neuserks, Okserks & Chuserks") hold their zone. A bull, a wolf pack and a
/// horse given a scene zone never move unless `zone_creatures_wander`; cows beside them wander.
#[test]
fn zone_creatures_keep_their_place() {
    let text = |rules: &str| {
        format!(
            "(version: 1, table: (width: 400, height: 400), rules: ({rules}),
              herds: [
                (name: \"bull\", beast: bull, count: 1, position: (100, 100), heading: 30),
                (name: \"wolves\", beast: wolf, count: 5, position: (300, 100), heading: 120),
                (name: \"guarded\", beast: horse, count: 2, position: (100, 300), zone: Some((temper: okserk, radius: Some(3)))),
                (name: \"cows\", beast: cow, count: 1, position: (300, 300), heading: 0),
              ])"
        )
    };
    let scene = scene_from_str(&text(""));
    // Cows: D10 − 3 on Morval faces 0..=9 covers ground on faces 4..=9: P(moved > 0) = 6/10.
    let mut cow_moves = [0u32; 2];
    for seed in 0..10 {
        let Run { log, end } = run(&scene, seed, 20);
        for (i, name) in ["bull", "wolves", "guarded"].into_iter().enumerate() {
            assert_eq!(end.herds[i], scene.herds[i], "seed {seed}: {name} moved");
            let mine: Vec<_> = events(&log, "wandered").into_iter().filter(|e| e.subject == name).collect();
            assert_eq!(mine.len(), 20, "{name}: one event a move");
            assert!(mine.iter().all(|e| e.outcome == "keeps_place" && e.rolls.is_empty()), "{name}");
        }
        for e in events(&log, "wandered").into_iter().filter(|e| e.subject == "cows") {
            cow_moves[usize::from(pt(e, "from").distance(pt(e, "to")) > 1e-3)] += 1;
        }
    }
    let chi = chi_square(&cow_moves, &[0.4, 0.6]);
    assert!(chi < CHI2_DF1, "cow moves {cow_moves:?}");
    // The house rule lets them wander.
    let loose = scene_from_str(&text("herds: (zone_creatures_wander: true)"));
    let Run { log, end } = run(&loose, 1, 20);
    assert_ne!(end.herds[0].position, loose.herds[0].position, "the bull wanders by setting");
    assert!(events(&log, "wandered").iter().all(|e| e.outcome != "keeps_place"));
}

#[test]
fn steeds_are_caught_by_their_side_within_six_inches() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20),
          figures: [
            (name: \"Stranger\", side: \"bandits\", position: (4, 10), path: [(9, 10)]),
            (name: \"Far\", side: \"party\", position: (30, 2), path: [(30, 3)]),
            (name: \"Standing\", side: \"party\", position: (12, 12)),
            (name: \"Rider\", side: \"party\", position: (2, 6), skills: [rider], path: [(8, 7)]),
          ],
          herds: [(name: \"mare\", beast: horse, count: 1, position: (10, 10), side: \"party\", bond: faithful)])",
    );
    let mut caught = 0;
    for seed in 0..40 {
        let Run { log, end } = run(&scene, seed, 1);
        let tries = events(&log, "catch_attempt");
        // The stranger is of another side and Far ends beyond 6"; Standing (who did not move, a
        // non-rider) and the Rider are within 6" and try in scene order until one catches.
        let t = tries[0];
        assert_eq!(t.fields["catcher"], "Standing");
        let roll = &t.rolls[0];
        let m: Vec<(&str, i32)> = roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect();
        assert_eq!(m, [("faithful mount", 4), ("non-rider (house rule)", -1)]);
        // D6 + 4 − 1, 6+: faces 3..=6 catch.
        assert_eq!(t.outcome == "caught", roll.faces[0] >= 3);
        if t.outcome == "caught" {
            assert_eq!(tries.len(), 1, "{tries:?}");
        } else {
            assert_eq!(tries.len(), 2, "{tries:?}");
            let t = tries[1];
            assert_eq!(t.fields["catcher"], "Rider");
            let roll = &t.rolls[0];
            assert_eq!(roll.modifiers.len(), 1);
            assert_eq!((roll.modifiers[0].reason.as_ref(), roll.modifiers[0].value), ("faithful mount", 4));
            // D6 + 4, 6+: faces 2..=6 catch.
            assert_eq!(t.outcome == "caught", roll.faces[0] >= 2);
        }
        let any = tries.iter().any(|t| t.outcome == "caught");
        assert_eq!(end.herds[0].tethered, any);
        caught += u32::from(any);
    }
    // P(caught) = 4/6 + 2/6 · 5/6 = 34/36.
    assert!(caught > 30, "{caught}");
}

/// H2. 000 "Within 6", D6 +F 6+ = caught. Faithful Mount 4+, Usual Mount 2+": a figure of the
/// steeds' side standing 3" off tries each move, moved or not. Usual bond +2: a rider catches on
/// D6 + 2 ≥ 6, faces 4..=6, P = 3/6; a non-rider (house rule −1) on faces 5..=6, P = 2/6; a
/// faithful mount (+4) to a rider on faces 2..=6, P = 5/6.
#[test]
fn a_figure_standing_still_tries_to_catch() {
    for (skills, bond, p) in [("rider", "usual", 3.0 / 6.0), ("", "usual", 2.0 / 6.0), ("rider", "faithful", 5.0 / 6.0)]
    {
        let scene = scene_from_str(&format!(
            "(version: 1, table: (width: 40, height: 20),
              figures: [(name: \"Groom\", side: \"party\", position: (13, 10), skills: [{skills}])],
              herds: [(name: \"mare\", beast: horse, count: 1, position: (10, 10), side: \"party\", bond: {bond})])"
        ));
        let mut observed = [0u32; 2];
        for seed in 0..400 {
            let Run { log, .. } = run(&scene, seed, 1);
            let tries = events(&log, "catch_attempt");
            assert_eq!(tries.len(), 1, "the standing figure tries once a move");
            observed[usize::from(tries[0].outcome == "caught")] += 1;
        }
        let chi = chi_square(&observed, &[1.0 - p, p]);
        assert!(chi < CHI2_DF1, "{skills} {bond}: {observed:?} against {p}");
    }
}

#[test]
fn tethered_steeds_stay_put() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20),
          herds: [(name: \"tied\", beast: horse, count: 2, position: (10, 10), tethered: true)])",
    );
    let Run { log, end } = run(&scene, 5, 30);
    assert_eq!(end.herds[0], scene.herds[0]);
    assert!(events(&log, "wandered").iter().all(|e| e.outcome == "tethered" && e.rolls.is_empty()));
}

#[test]
fn herders_herd_up_to_their_capacity_and_the_rest_wander() {
    let text = |beast: &str, count: u32, skills: &str, dog: bool| {
        format!(
            "(version: 1, table: (width: 80, height: 40),
              figures: [(name: \"Herder\", side: \"village\", position: (20, 20), skills: [{skills}])],
              herds: [(name: \"herd\", beast: {beast}, count: {count}, position: (14, 20), herders: [\"Herder\"], dog: {dog})])"
        )
    };
    // (beast, count, skills, dog, herded): cows 4 per herder; sheep 6, 8 with a dog, +3 for a shepherd; pigs 5.
    for (beast, count, skills, dog, herded) in [
        ("cow", 6, "", false, 4),
        ("cow", 6, "shepherd", false, 6),
        ("sheep", 12, "", false, 6),
        ("sheep", 12, "", true, 8),
        ("sheep", 12, "shepherd", true, 11),
        ("goat", 5, "", false, 5),
        ("pig", 9, "animal_trainer(1)", false, 8),
        // H3, a_rider_herds_three_more: a rider is a 1st-level animal trainer, +3.
        ("cow", 9, "rider", false, 7),
        ("sheep", 12, "rider", true, 11),
        ("pig", 9, "rider", false, 8),
    ] {
        let Run { log, .. } = run(&scene_from_str(&text(beast, count, skills, dog)), 3, 1);
        let e = events(&log, "herded")[0];
        assert_eq!(e.fields["herded"], herded, "{beast} {skills} dog {dog}");
        assert_eq!(e.fields["stragglers"], count - herded);
        assert_eq!(e.outcome, if herded == count { "herded" } else { "partly_herded" });
        assert_eq!(events(&log, "wandered").len(), usize::from(herded < count));
        // Cows 5", sheep and goats 4", pigs 3": the herded beasts close on the herder at that rate.
        let rate = match beast {
            "cow" => 5.0,
            "pig" => 3.0,
            _ => 4.0,
        };
        assert_eq!(f(e, "rate"), rate);
        assert!(f(e, "travelled") <= rate + 1e-3 && f(e, "travelled") > 0.0, "{e:?}");
    }
    // A herder beyond reach herds nothing.
    let far = text("cow", 3, "", false).replace("position: (20, 20)", "position: (60, 20)");
    let Run { log, .. } = run(&scene_from_str(&far), 3, 1);
    assert_eq!(events(&log, "herded")[0].outcome, "herders_out_of_reach");
}

#[test]
fn zone_creatures_attack_strangers_by_their_temper() {
    let scene = |herd: &str, figures: &str| {
        scene_from_str(&format!(
            "(version: 1, table: (width: 200, height: 200), figures: [{figures}], herds: [{herd}])"
        ))
    };
    let stranger = |name: &str, x: f32| format!("(name: \"{name}\", side: \"party\", position: ({x}, 100))");
    // The bull (okserk, 3"): one stranger within 3" → D10, 3− attacks; a friend does not count.
    let bull = "(name: \"bull\", beast: bull, count: 1, position: (100, 100), side: \"farm\", tethered: true)";
    let figures =
        [stranger("A", 102.5), stranger("B", 104.0), "(name: \"Farmer\", side: \"farm\", position: (101, 100))".into()]
            .join(",");
    let mut attacks = 0;
    for seed in 0..60 {
        let Run { log, .. } = run(&scene(bull, &figures), seed, 1);
        let z = events(&log, "zone");
        assert_eq!(z.len(), 1);
        assert_eq!(z[0].fields["strangers"], serde_json::json!(["A"]));
        assert_eq!(z[0].rolls.len(), 1);
        assert_eq!(z[0].outcome == "attacks", z[0].rolls[0].faces[0] <= 3);
        attacks += u32::from(z[0].outcome == "attacks");
    }
    assert!(attacks > 10 && attacks < 45, "{attacks}");
    // Two strangers: +2, attacks only on faces 0 and 1.
    let two = [stranger("A", 102.5), stranger("B", 98.0)].join(",");
    for seed in 0..30 {
        let Run { log, .. } = run(&scene(bull, &two), seed, 1);
        let z = events(&log, "zone")[0];
        assert_eq!(z.rolls[0].modifiers[0].value, 2);
        assert_eq!(z.outcome == "attacks", z.rolls[0].faces[0] <= 1);
    }
    // A wolf pack (chuserk, 5", two or fewer strangers).
    let wolves = "(name: \"wolves\", beast: wolf, count: 5, position: (100, 100), side: \"wild\", tethered: true)";
    let Run { log, .. } = run(&scene(wolves, &[stranger("A", 104.0), stranger("B", 96.0)].join(",")), 1, 1);
    assert_eq!(events(&log, "zone")[0].outcome, "attacks");
    let three = [stranger("A", 104.0), stranger("B", 96.0), stranger("C", 100.5)].join(",");
    let Run { log, .. } = run(&scene(wolves, &three), 1, 1);
    let z = events(&log, "zone")[0];
    assert_eq!((z.outcome, z.rolls.len()), ("holds", 0));
    // A neuserk with move 6" defends 5", always.
    let dog = "(name: \"guard dog\", beast: wolf, count: 1, position: (100, 100), side: \"farm\", tethered: true,
               zone: Some((temper: neuserk)), move_rate: Some(6))";
    let Run { log, .. } = run(&scene(dog, &[stranger("A", 104.9), stranger("B", 94.0)].join(",")), 1, 1);
    let z = events(&log, "zone")[0];
    assert_eq!((z.outcome, f(z, "zone")), ("attacks", 5.0));
    assert_eq!(z.fields["strangers"], serde_json::json!(["A"]));
}

#[test]
fn figures_crossing_a_grid_lose_ground_or_roll() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20),
          cattle_grids: [(name: \"grid\", from: (10, 0), to: (10, 20)), (name: \"planked\", from: (30, 0), to: (30, 20), planks: true)],
          figures: [
            (name: \"Man\", position: (6, 2), path: [(20, 2)]),
            (name: \"Woman\", sex: female, position: (7, 6), path: [(20, 6)]),
            (name: \"Runner\", gait: running, position: (6, 10), path: [(20, 10)]),
            (name: \"Over planks\", position: (27, 14), path: [(35, 14)]),
          ])",
    );
    let mut hurt = 0;
    for seed in 0..40 {
        let Run { log, end } = run(&scene, seed, 1);
        let grid = |who: &str| events(&log, "cattle_grid").into_iter().find(|e| e.subject == who).cloned().unwrap();
        // A man walking 6" loses 1": 5" along; a woman 5" loses 2": 3".
        assert_eq!(grid("Man").outcome, "walked");
        assert!((end.figures[0].position.0 - 11.0).abs() < 1e-4, "{:?}", end.figures[0].position);
        assert_eq!(end.figures[0].path, vec![(20.0, 2.0)]);
        assert!((end.figures[1].position.0 - 10.0).abs() < 1e-4, "{:?}", end.figures[1].position);
        let run = grid("Runner");
        let face = run.rolls[0].faces[0];
        let expected = match face {
            3..=6 => "crossed",
            2 => "hurt_one_inch",
            _ => "hurt_two_inches",
        };
        assert_eq!(run.outcome, expected);
        assert!((end.figures[2].position.0 - 18.0).abs() < 1e-4, "running loses no ground");
        let conditions = &end.figures[2].conditions;
        assert_eq!(conditions.len(), usize::from(face <= 2));
        if let Some(c) = conditions.first() {
            assert_eq!(c.move_penalty, if face == 2 { 1.0 } else { 2.0 });
            hurt += 1;
        }
        assert_eq!(grid("Over planks").outcome, "crossed_on_planks");
        assert!((end.figures[3].position.0 - 33.0).abs() < 1e-4);
    }
    assert!(hurt > 5 && hurt < 25, "{hurt}");
}

/// H4. 001 "Cattle Grids": "Impassable to normal livestock ... {Planks needed to allow horse
/// drawn vehicles to cross": a steed is livestock, so a mounted figure stops 0.05" short of a
/// grid without planks (path kept, every move) and crosses on planks; a walker loses 1".
#[test]
fn mounted_figures_and_cattle_grids() {
    let text = |rules: &str| {
        format!(
            "(version: 1, table: (width: 40, height: 20), rules: ({rules}),
              cattle_grids: [(name: \"bare\", from: (5, 0), to: (5, 10)), (name: \"planked\", from: (5, 10), to: (5, 20), planks: true)],
              figures: [
                (name: \"Horseman\", position: (1, 2), move_rate: Some(12), mounted: true, skills: [rider], path: [(30, 2)]),
                (name: \"Walker\", position: (1, 6), path: [(30, 6)]),
                (name: \"Plank rider\", position: (1, 14), move_rate: Some(12), mounted: true, skills: [rider], path: [(30, 14)]),
              ])"
        )
    };
    let scene = scene_from_str(&text(""));
    let Run { log, end } = run(&scene, 1, 2);
    let grid = |who: &str| events(&log, "cattle_grid").into_iter().filter(|e| e.subject == who).collect::<Vec<_>>();
    let horseman = grid("Horseman");
    assert_eq!(horseman.len(), 2, "stopped at the grid each move");
    assert!(horseman.iter().all(|e| e.outcome == "impassable_to_steed"));
    assert!((pt(horseman[1], "to").x - 4.95).abs() < 1e-4, "{:?}", horseman[1]);
    assert!((end.figures[0].position.0 - 4.95).abs() < 1e-4, "{:?}", end.figures[0].position);
    assert_eq!(end.figures[0].path, vec![(30.0, 2.0)], "the path is kept");
    assert_eq!(grid("Walker")[0].outcome, "walked");
    assert_eq!(grid("Plank rider")[0].outcome, "crossed_on_planks");
    assert!((end.figures[2].position.0 - 25.0).abs() < 1e-4, "{:?}", end.figures[2].position);
    // Planks only for vehicles (house rule off): the steed balks at the planked grid too.
    let Run { log, end } = run(&scene_from_str(&text("herds: (planks_let_livestock_cross: false)")), 1, 1);
    let e = events(&log, "cattle_grid").into_iter().find(|e| e.subject == "Plank rider").unwrap();
    assert_eq!(e.outcome, "impassable_to_steed");
    assert!((end.figures[2].position.0 - 4.95).abs() < 1e-4);
}

/// H4. 000 "Riders & Animal Trainers": "Non riders deduct 1" from moves": a mounted non-rider
/// at `move_rate` 12 goes 11", a rider 12"; on foot nobody loses anything; with the worked-out
/// basic move (man 6") a mounted non-rider goes 5".
#[test]
fn a_non_rider_mounted_loses_an_inch() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20),
          figures: [
            (name: \"Rider\", position: (1, 2), move_rate: Some(12), mounted: true, skills: [rider], path: [(39, 2)]),
            (name: \"Non-rider\", position: (1, 6), move_rate: Some(12), mounted: true, path: [(39, 6)]),
            (name: \"On foot\", position: (1, 10), move_rate: Some(12), path: [(39, 10)]),
            (name: \"Basic\", position: (1, 14), mounted: true, path: [(39, 14)]),
          ])",
    );
    let Run { log, end } = run(&scene, 1, 1);
    let went: Vec<f32> = end.figures.iter().map(|f| f.position.0 - 1.0).collect();
    for (got, want) in went.iter().zip([12.0, 11.0, 12.0, 5.0]) {
        assert!((got - want).abs() < 1e-4, "{went:?}");
    }
    let moved = events(&log, "moved").into_iter().find(|e| e.subject == "Non-rider").unwrap();
    assert!(moved.to_json_line().contains("non-rider mounted"), "{moved:?}");
}

#[test]
fn stampeding_beasts_roll_on_grids_escape_and_are_freed() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 60, height: 20),
          cattle_grids: [(name: \"grid\", from: (20, 0), to: (20, 20))],
          figures: [(name: \"Helper\", position: (25, 18), path: [(20, 10.5)])],
          herds: [(name: \"pigs\", beast: pig, count: 7, position: (15, 10), heading: 0, stampede: 1)])",
    );
    let mut seen = std::collections::HashSet::new();
    for seed in 0..30 {
        let Run { log, end } = run(&scene, seed, 4);
        for e in events(&log, "grid_stampede") {
            let roll = &e.rolls[0];
            assert_eq!((roll.modifiers[0].reason.as_ref(), roll.modifiers[0].value), ("pigs", -3));
            let total = i32::from(roll.faces[0]) - 3;
            let expected = if total >= 2 {
                "crossed"
            } else if total == 1 {
                "trapped"
            } else {
                "stuck"
            };
            assert_eq!(e.outcome, expected);
            seen.insert(e.outcome);
        }
        for e in events(&log, "grid_escape") {
            assert_eq!(e.outcome == "escaped", e.rolls[0].faces[0] >= 5);
            seen.insert(e.outcome);
        }
        for e in events(&log, "grid_freed") {
            assert_eq!(e.fields["helper"], "Helper");
            seen.insert(e.outcome);
        }
        // Whatever is still held is written to the scene and loads again.
        let text = scene_to_ron(&end).unwrap();
        let back = parse_scene(&text, Path::new("end.ron")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.herds[0].on_grid, end.herds[0].on_grid);
    }
    for outcome in ["crossed", "trapped", "stuck", "escaped", "still_trapped", "freed"] {
        assert!(seen.contains(outcome), "never saw {outcome}: {seen:?}");
    }
}

#[test]
fn fire_turns_a_herd_away() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 100, height: 100),
          herds: [(name: \"cows\", beast: cow, count: 7, position: (50, 50), heading: 0)])",
    );
    let mut app = Simulation::new(&scene, 4);
    let fire = FireHazard { position: Vec2::new(56.0, 50.0), radius: 3.0, fright: 3 };
    app.world_mut().insert_resource(FireHazards(vec![fire]));
    app.step_moves(200);
    let world = app.world_mut();
    let log = world.resource::<EventLog>();
    let turned = events(log, "wandered").into_iter().filter(|e| e.outcome == "turned_by_fire").count();
    assert!(turned > 0);
    let e = log.events.iter().find(|e| e.outcome == "turned_by_fire").unwrap();
    assert_eq!(e.fields["fright"], 3);
    let beasts = world.query::<&Beasts>().single(world).unwrap().clone();
    assert!(beasts.positions.iter().all(|p| p.distance(fire.position) > fire.radius));
}

/// H7. 001 "Fire Against people and animals": "Fire Strike -3 = Fright Value of fire (0 or less
/// not used.)". Herds stop short of the fire's burning cells, not of a circle round it. An L of
/// solid timber ([10,30]×[10,13] and [10,13]×[10,30]), all alight in move 1 (it burns 30 rounds):
/// area 20·3 + 17·3 = 111 in², d = 2√(111/π) ≈ 11.9" → FV4. Its centre lies in the unburnt
/// corner. A cow herded (5" a move) through the corner goes its full 5"; one herded south into
/// the arm stops 0.05" short of y = 13 and turns. With `fire_fright_threshold: 5` (above FV4) the
/// fire turns nobody. A hand-made FV1 ring turns at threshold 1, not at 2.
#[test]
fn herds_turn_from_burning_cells_not_a_circle() {
    let text = |herder: (f32, f32), threshold: i32| {
        format!(
            "(version: 1, table: (width: 40, height: 40),
              rules: (herds: (herding_reach_in: 10, fire_fright_threshold: {threshold})),
              terrain: [(name: \"timber\", material: solid_timber,
                         shape: Polygon(points: [(10, 10), (30, 10), (30, 13), (13, 13), (13, 30), (10, 30)]))],
              fires: [(name: \"blaze\", position: (11.5, 11.5), diameter: 60)],
              figures: [(name: \"Herder\", side: \"farm\", position: ({}, {}))],
              herds: [(name: \"cow\", beast: cow, count: 1, position: (25, 16), herders: [\"Herder\"], side: \"farm\")])",
            herder.0, herder.1
        )
    };
    let herded = |scene: &Scene| -> LogEvent {
        let Run { log, .. } = run(scene, 1, 1);
        events(&log, "herded")[0].clone()
    };
    // Through the unburnt corner, north: 5" unhindered.
    let e = herded(&scene_from_str(&text((25.0, 23.0), 1)));
    assert_eq!(e.outcome, "herded");
    assert!((f(&e, "travelled") - 5.0).abs() < 1e-3, "{e:?}");
    assert!(e.fields.get("stopped_by").is_none(), "{e:?}");
    // South into the arm: stopped 0.05" short of its burning cells.
    let e = herded(&scene_from_str(&text((25.0, 9.5), 1)));
    assert_eq!(e.fields["stopped_by"], "turned_by_fire", "{e:?}");
    let to = pt(&e, "to");
    assert!(to.y >= 13.0 && to.y <= 13.1, "stopped at {to}");
    // The threshold above the fire's FV4: not turned, the cow walks 5" into the flames.
    let e = herded(&scene_from_str(&text((25.0, 9.5), 5)));
    assert!(e.fields.get("stopped_by").is_none(), "{e:?}");
    assert!((f(&e, "travelled") - 5.0).abs() < 1e-3, "{e:?}");
    // A hand-made 1.0" fire (FV1) across the path: threshold 1 turns, 2 does not.
    for (threshold, turned) in [(1, true), (2, false)] {
        let scene = scene_from_str(&format!(
            "(version: 1, table: (width: 40, height: 40), rules: (herds: (fire_fright_threshold: {threshold})),
              figures: [(name: \"Herder\", side: \"farm\", position: (25, 10))],
              herds: [(name: \"cow\", beast: cow, count: 1, position: (25, 16), herders: [\"Herder\"], side: \"farm\")])"
        ));
        let mut app = Simulation::new(&scene, 1);
        let ring = FireHazard { position: Vec2::new(25.0, 13.0), radius: 0.5, fright: 1 };
        app.world_mut().insert_resource(FireHazards(vec![ring]));
        app.step_moves(1);
        let log = app.world().resource::<EventLog>();
        let e = events(log, "herded")[0];
        assert_eq!(e.fields.get("stopped_by").is_some(), turned, "threshold {threshold}: {e:?}");
    }
}

#[test]
fn the_pasture_runs_on_from_its_final_scene() {
    let scene = example("pasture.ron");
    let Run { log: full, end: full_end } = run(&scene, 9, 8);
    let Run { log: first, end: middle } = run(&scene, 9, 4);
    // Through the file format, as `--final` writes it.
    let text = scene_to_ron(&middle).unwrap();
    let middle = parse_scene(&text, Path::new("final.ron")).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert!(middle.herds.iter().any(|h| !h.beasts.is_empty()), "beast positions are written");
    let Run { log: second, end } = run(&middle, 9, 4);
    let mut joined = first.to_json_lines();
    joined.push_str(&second.to_json_lines());
    assert_eq!(full.to_json_lines(), joined);
    assert_eq!(full_end.herds, end.herds);
}

#[test]
fn the_pasture_shows_every_herd_event() {
    let Run { log, .. } = run(&example("pasture.ron"), 3, 12);
    for (event, outcome) in [
        ("wandered", "moved"),
        ("wandered", "not_moved"),
        ("wandered", "tethered"),
        ("catch_attempt", "caught"),
        ("herded", "partly_herded"),
        ("zone", "attacks"),
        ("zone", "holds"),
        ("cattle_grid", "walked"),
        ("grid_stampede", "stuck"),
        ("stampeded", "ran"),
    ] {
        assert!(
            log.events.iter().any(|e| e.event == event && e.outcome == outcome),
            "the pasture scene never logs {event} {outcome}"
        );
    }
    // Every wander roll is logged: distance D10, side D6, turn D10.
    for e in events(&log, "wandered").into_iter().filter(|e| e.outcome != "tethered" && e.outcome != "keeps_place") {
        let dice: Vec<&str> = e.rolls.iter().map(|r| r.dice.label()).collect();
        assert_eq!(dice, ["D10", "D6", "D10"]);
    }
}

#[test]
fn herd_centres_follow_their_beasts() {
    let scene = example("pasture.ron");
    let mut app = Simulation::new(&scene, 3);
    app.step_moves(5);
    let world = app.world_mut();
    let mut q = world.query::<(&Herd, &Beasts, &TablePosition)>();
    let mut moved = 0;
    for (herd, beasts, centre) in q.iter(world) {
        let start: Vec<Vec2> = herd.0.beast_positions().into_iter().map(|p| Vec2::new(p.0, p.1)).collect();
        if beasts.positions == start {
            assert_eq!(centre.0, Vec2::new(herd.0.position.0, herd.0.position.1), "{}", herd.0.name);
        } else {
            moved += 1;
            assert!((beasts.centroid() - centre.0).length() < 1e-3, "{}", herd.0.name);
        }
    }
    // Of the seven herds the tethered horse, the bull and the wolf pack keep their place (000:
    // only herds, flocks and untethered steeds wander); the loose horses may be caught.
    assert!(moved >= 3, "{moved}");
    let back = snapshot_scene(world).unwrap();
    for h in &back.herds {
        assert!(h.beasts.is_empty() || h.beasts.len() == h.count as usize);
    }
}

#[test]
fn bad_herds_get_clear_errors() {
    let bad = |herds: &str, extra: &str| -> String {
        let text = format!(
            "(version: 1, table: (width: 20, height: 20), figures: [(name: \"Jo\", position: (1, 1))], herds: [{herds}] {extra})"
        );
        match parse_scene(&text, Path::new("bad.ron")) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e.to_string(),
        }
    };
    let msg = bad("(name: \"crowd\", beast: cow, count: 50, position: (1, 1))", "");
    assert!(msg.contains("herd \"crowd\": position:") && msg.contains("off the table"), "{msg}");
    let msg = bad("(name: \"few\", beast: cow, count: 3, position: (5, 5), beasts: [(5, 5)])", "");
    assert!(msg.contains("herd \"few\": beasts: 1 positions listed for a count of 3"), "{msg}");
    let msg = bad("(name: \"dog\", beast: wolf, count: 1, position: (5, 5), zone: Some((temper: neuserk)))", "");
    assert!(msg.contains("herd \"dog\": zone radius:"), "{msg}");
    let msg = bad("(name: \"nags\", beast: horse, count: 2, position: (5, 5), herders: [\"Jo\"])", "");
    assert!(msg.contains("herd \"nags\": herders:"), "{msg}");
    let msg = bad("(name: \"pigs\", beast: pig, count: 2, position: (5, 5), on_grid: [(beast: 4, state: stuck)])", "");
    assert!(msg.contains("on_grid: beast 4 does not exist"), "{msg}");
    let msg = bad("", ", cattle_grids: [(name: \"g\", from: (3, 3), to: (3, 3))]");
    assert!(msg.contains("cattle grid \"g\": to:"), "{msg}");
    let msg = bad("", ", rules: (herds: (herding_reach_in: -1))");
    assert!(msg.contains("rules: herds herding_reach_in"), "{msg}");
    let msg = bad("", ", rules: (herds: (grid_escape_attempts_per_move: 4000000000))");
    assert!(msg.contains("grid_escape_attempts_per_move"), "{msg}");
    let msg = bad("(name: \"x\", beast: unicorn, count: 1, position: (5, 5))", "");
    assert!(msg.starts_with("bad.ron:1:"), "{msg}");
}

/// A real fire, not a hand-made hazard: a burning patch of brushwood (fires frighten from 1"
/// across, FV1) turns the cows that wander into it, and no beast ever stands in the flames.
#[test]
fn a_burning_fire_turns_a_herd() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 100, height: 100),
          terrain: [(name: \"scrub\", material: brushwood, shape: Rect(min: (54, 40), max: (70, 60)))],
          fires: [(name: \"blaze\", position: (56, 50), diameter: 3.0)],
          herds: [(name: \"cows\", beast: cow, count: 7, position: (50, 50), heading: 0)])",
    );
    let mut turned = 0;
    for seed in 0..20 {
        let mut app = Simulation::new(&scene, seed);
        app.step_moves(30);
        let world = app.world_mut();
        turned += events(world.resource::<EventLog>(), "wandered")
            .into_iter()
            .filter(|e| e.outcome == "turned_by_fire")
            .count();
        let beasts = world.query::<&Beasts>().single(world).unwrap().clone();
        let front = world.resource::<tabula::sim::fire::FireFront>();
        assert!(beasts.positions.iter().all(|p| !front.is_burning(*p)), "seed {seed}: a beast stands in the fire");
    }
    assert!(turned > 0, "no herd was turned by the fire");
}

/// A figure running to and fro over a cattle grid is hurt far more than 100 times in one move.
/// Its hurts never take its conditions past the cap the scene check enforces: at the cap each
/// repeat is merged into the same hurt already there, the penalties added (to the most one
/// condition may have, more than any move), and the saved scene loads.
#[test]
fn repeated_grid_hurts_stay_within_the_condition_cap() {
    use tabula::scene::load::{MAX_CONDITIONS, MAX_MOVE_PENALTY, validate};
    // 1000 waypoints 0.02" apart across the grid: a runner's 12" cross it about 600 times.
    let path: Vec<&str> = (0..1000).map(|i| if i % 2 == 0 { "(10, 5.01)" } else { "(10, 4.99)" }).collect();
    let scene = scene_from_str(&format!(
        "(version: 1, table: (width: 20, height: 10),
          cattle_grids: [(name: \"grid\", from: (5, 5), to: (15, 5))],
          figures: [(name: \"Runner\", gait: running, position: (10, 4.99), path: [{}])])",
        path.join(", ")
    ));
    let Run { log, end } = run(&scene, 7, 1);
    let crossings = events(&log, "cattle_grid");
    let hurts: Vec<f32> =
        crossings.iter().filter(|e| e.outcome.starts_with("hurt")).map(|e| f(e, "move_penalty") as f32).collect();
    assert!(hurts.len() > MAX_CONDITIONS, "only {} hurts: the test needs more than the cap", hurts.len());
    let conditions = &end.figures[0].conditions;
    assert_eq!(conditions.len(), MAX_CONDITIONS);
    // Every hurt past the cap went into the first, its twin.
    let first = (hurts[0] + hurts[MAX_CONDITIONS..].iter().sum::<f32>()).min(MAX_MOVE_PENALTY);
    assert_eq!(conditions[0].move_penalty, first);
    for (c, &h) in conditions[1..].iter().zip(&hurts[1..MAX_CONDITIONS]) {
        assert_eq!(c.move_penalty, h);
    }
    let merged = crossings.iter().filter(|e| e.fields.contains_key("condition_at_cap")).count();
    assert_eq!(merged, hurts.len() - MAX_CONDITIONS);
    assert!(validate(&end).is_empty(), "{:?}", validate(&end));
    let text = scene_to_ron(&end).unwrap();
    parse_scene(&text, Path::new("end.ron")).unwrap_or_else(|e| panic!("{e}"));
}
