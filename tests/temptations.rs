//! Temptations and decisions through the simulation (000 "Temptations and Weaknesses",
//! "Weaknesses", "To arrive at a decision using card characters"): who is tempted and when, going
//! in and leaving, the `decide` order, saving and continuing, and the market town.

mod common;

use common::scene_from_str;
use std::path::Path;
use tabula::playtest::{report, run_all, to_text};
use tabula::scene::{Scene, load_scene, parse_scene, scene_to_ron};
use tabula::sim::log::LogEvent;
use tabula::sim::{EventLog, Run, run};

// ---- helpers ----

/// A 40x20 table with one walker going east along y = 10 (6" a move: (7, 10) after move 1,
/// (13, 10) after move 2) and the sites given.
fn street(walker: &str, sites: &str, decisions: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 40, height: 20),
          figures: [(name: \"Walker\", position: (1, 10), path: [(39, 10)]{walker})],
          temptations: [{sites}], decisions: [{decisions}])"
    ))
}

fn events<'a>(log: &'a EventLog, event: &str) -> Vec<&'a LogEvent> {
    log.events.iter().filter(|e| e.event == event).collect()
}

fn text<'a>(e: &'a LogEvent, key: &str) -> Option<&'a str> {
    e.fields.get(key).and_then(|v| v.as_str())
}

fn market_town() -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/market-town.ron")).unwrap_or_else(|e| panic!("{e}"))
}

// ---- who is tempted ----

#[test]
fn a_walker_passing_a_tavern_within_reach_rolls_once() {
    let scene =
        street(", qualities: (integrity: 7)", "(name: \"Inn\", kind: low_drinking_tavern, position: (10, 12))", "");
    let Run { log, .. } = run(&scene, 3, 10);
    let tempted = events(&log, "temptation");
    assert_eq!(tempted.len(), 1, "{tempted:?}");
    let e = tempted[0];
    assert_eq!((e.move_number, e.subject.as_str(), text(e, "site")), (2, "Walker", Some("Inn")));
    // D10 + Iy 7 always reaches 7: it ignores the tavern, with the quality on the roll.
    assert_eq!(e.outcome, "resisted");
    assert_eq!(e.rolls.len(), 1);
    assert!(e.rolls[0].modifiers.iter().any(|m| m.reason == "integrity (Iy)" && m.value == 7), "{:?}", e.rolls);
    assert_eq!(e.rolls[0].target, Some(7));
    // Its qualities were all given except six, diced once and then kept.
    assert_eq!(events(&log, "qualities_diced").len(), 1);
}

#[test]
fn a_site_out_of_reach_tempts_no_one() {
    let scene = street("", "(name: \"Inn\", kind: low_drinking_tavern, position: (10, 16))", "");
    let Run { log, .. } = run(&scene, 3, 10);
    assert!(events(&log, "temptation").is_empty());
    assert!(events(&log, "qualities_diced").is_empty(), "nothing needed the qualities");
    // A wider reach takes it in.
    let scene = street("", "(name: \"Inn\", kind: low_drinking_tavern, position: (10, 16), reach: 6.5)", "");
    let Run { log, .. } = run(&scene, 3, 10);
    assert_eq!(events(&log, "temptation").len(), 1);
}

/// The reach a site does not give is the house rule `temptations.reach_in` (3"), and the
/// event says so; the scene's `rules.temptations` moves it, and a site's own reach is not tagged.
#[test]
fn a_defaulted_reach_is_the_house_rule_and_tagged() {
    let tagged = |e: &LogEvent| e.house_rule_paths().contains(&"temptations.reach_in");
    let scene = street("", "(name: \"Inn\", kind: low_drinking_tavern, position: (10, 12.5))", "");
    let Run { log, .. } = run(&scene, 3, 10);
    let tempted = events(&log, "temptation");
    assert_eq!(tempted.len(), 1);
    assert!(tagged(tempted[0]), "{:?}", tempted[0]);
    assert_eq!(tempted[0].fields.get("reach").and_then(|v| v.as_f64()), Some(3.0));
    // 2.5" away: out of a 2" reach set for the scene.
    let mut scene = street("", "(name: \"Inn\", kind: low_drinking_tavern, position: (10, 12.5))", "");
    scene.rules.temptations.reach_in = 2.0;
    let Run { log, .. } = run(&scene, 3, 10);
    assert!(events(&log, "temptation").is_empty());
    // Its own reach: in, and not a house rule.
    let scene = street("", "(name: \"Inn\", kind: low_drinking_tavern, position: (10, 12.5), reach: 3)", "");
    let Run { log, .. } = run(&scene, 3, 10);
    let tempted = events(&log, "temptation");
    assert_eq!(tempted.len(), 1);
    assert!(!tagged(tempted[0]), "{:?}", tempted[0]);
    // A reach the rules block cannot have is refused, naming the setting.
    let err = parse_scene(
        "(version: 1, table: (width: 40, height: 20), rules: (temptations: (reach_in: 0)))",
        Path::new("bad.ron"),
    )
    .expect_err("a reach of 0 is refused");
    assert!(err.to_string().contains("temptations reach_in"), "{err}");
}

/// Pyromania (000 "Weaknesses": "Will set fire to any enemy property") is a reminder at the
/// sites, and the GM's igniter order goes through the fire rules: a fire the pyromaniac holds
/// an igniter to is rolled each round until it catches.
#[test]
fn a_pyromaniacs_igniter_order_goes_through_the_fire_rules() {
    let scene = scene_from_str(
        "(version: 1, table: (width: 40, height: 20),
          terrain: [(name: \"enemy barn\", material: thatch, shape: Rect(min: (20, 0), max: (30, 6)))],
          figures: [(name: \"Firebug\", position: (22, 3), weaknesses: [pyromania])],
          temptations: [(name: \"Inn\", kind: low_drinking_tavern, position: (23, 3))],
          fires: [(name: \"barn fire\", position: (22, 3), igniter: held(kind: torch, by: \"Firebug\"))])",
    );
    let Run { log, .. } = run(&scene, 5, 6);
    let reminders = events(&log, "weakness_reminder");
    assert!(reminders.iter().any(|e| text(e, "weakness") == Some("pyromania")), "{reminders:?}");
    let fire: Vec<&LogEvent> = log.events.iter().filter(|e| e.system == "fire" && e.subject == "barn fire").collect();
    assert!(!fire.is_empty(), "the igniter is rolled");
    assert!(fire.iter().any(|e| !e.rolls.is_empty()), "{fire:?}");
}

#[test]
fn a_site_that_does_not_lure_a_figure_rolls_nothing() {
    let scene = street(", sex: female", "(name: \"Rosa\", kind: street_harlot, position: (10, 12), gm_factor: 2)", "");
    let Run { log, end } = run(&scene, 3, 10);
    let tempted = events(&log, "temptation");
    assert_eq!(tempted.len(), 1);
    assert_eq!(tempted[0].outcome, "not_tempted");
    assert!(tempted[0].rolls.is_empty());
    assert!(events(&log, "qualities_diced").is_empty());
    assert_eq!(end.figures[0].position, (39.0, 10.0), "she walked on");
    // Nor does a book tempt one who cannot read.
    let scene = street(", reader: false", "(name: \"Book\", kind: enthralling_book, position: (10, 12))", "");
    let Run { log, .. } = run(&scene, 3, 10);
    assert!(events(&log, "temptation").iter().all(|e| e.outcome == "not_tempted" && e.rolls.is_empty()));
}

// ---- going in and leaving ----

#[test]
fn a_figure_that_succumbs_stops_stays_its_time_and_walks_on() {
    // Filthy (dirtiness −20): D10 − Dy − 20 never reaches −2, so it always takes a bath,
    // D6 + 2 moves.
    let scene = street(
        ", money: 10",
        "(name: \"Baths\", kind: public_baths, position: (10, 12), gm_factor: -20, cost_per_move: 3)",
        "",
    );
    for seed in [1, 2, 3, 4] {
        let Run { log, end } = run(&scene, seed, 25);
        let tempted = events(&log, "temptation");
        assert_eq!(tempted.len(), 1, "seed {seed}: once a passing");
        let e = tempted[0];
        assert_eq!((e.move_number, e.outcome), (2, "succumbed"));
        // It stops where its path came nearest the baths, and pays.
        let stopped = e.fields.get("stopped_at").and_then(|v| v.as_array()).expect("stopped_at");
        assert_eq!((stopped[0].as_f64(), stopped[1].as_f64()), (Some(10.0), Some(10.0)));
        assert_eq!(e.fields.get("spent").and_then(|v| v.as_u64()), Some(3));
        let stay = e.fields.get("stay_moves").and_then(|v| v.as_u64()).expect("stay_moves") as u32;
        assert!((3..=8).contains(&stay), "D6 + 2: {stay}");
        assert_eq!(e.rolls.len(), 2, "the temptation and the time");
        // Each move of its stay is logged; the last says its time is up.
        let inside = events(&log, "time_inside");
        assert_eq!(inside.len() as u32, stay, "seed {seed}");
        assert!(inside.iter().enumerate().all(|(i, t)| t.move_number == 3 + i as u32));
        assert_eq!(inside.last().map(|t| t.outcome), Some("time_up"));
        // It did not walk while inside, then walked on from the baths to the end of its path.
        let walks: Vec<u32> =
            events(&log, "moved").iter().filter(|m| m.subject == "Walker").map(|m| m.move_number).collect();
        assert!(walks.iter().all(|&m| m <= 2 || m > 2 + stay), "seed {seed}: {walks:?}");
        assert!(walks.contains(&(3 + stay)));
        assert_eq!(end.figures[0].position, (39.0, 10.0));
        assert!(end.figures[0].temptation.inside.is_none());
        // 10 coins: 3 going in, then 3 a move until they run out.
        let spent: u64 = log.events.iter().filter_map(|e| e.fields.get("spent").and_then(|v| v.as_u64())).sum();
        assert_eq!(spent, 10);
        assert_eq!(end.figures[0].money, Some(0));
    }
}

#[test]
fn a_drinker_inside_dices_each_move_to_leave_with_weakness_factors_only() {
    // Thirst −20: always goes in; then D10 − 2 (alcohol) against 8+: never leaves by the dice.
    let scene = street(
        ", weaknesses: [alcohol]",
        "(name: \"Inn\", kind: low_drinking_tavern, position: (10, 12), gm_factor: -20)",
        "",
    );
    let Run { log, end } = run(&scene, 7, 12);
    let leaves = events(&log, "leave_roll");
    assert_eq!(leaves.len(), 10, "moves 3 to 12");
    for e in &leaves {
        assert_eq!(e.outcome, "stays");
        let reasons: Vec<&str> = e.rolls[0].modifiers.iter().map(|m| &*m.reason).collect();
        assert_eq!(reasons, ["alcohol"], "weakness factors only");
        assert_eq!(e.rolls[0].target, Some(8));
    }
    assert_eq!(end.figures[0].position, (10.0, 10.0));
    assert_eq!(end.figures[0].temptation.inside.as_ref().map(|i| i.moves), Some(10));
}

#[test]
fn weaknesses_without_dice_are_shown_once_a_site() {
    let scene = street(
        ", weaknesses: [idleness, pyromania], qualities: (integrity: 7)",
        "(name: \"Inn\", kind: low_drinking_tavern, position: (10, 12)),
         (name: \"Bakery\", kind: bakery, position: (20, 8), gm_factor: 20)",
        "",
    );
    let Run { log, end } = run(&scene, 1, 10);
    let reminders = events(&log, "weakness_reminder");
    let seen: Vec<(Option<&str>, Option<&str>)> =
        reminders.iter().map(|e| (text(e, "site"), text(e, "weakness"))).collect();
    assert_eq!(
        seen,
        [
            (Some("Inn"), Some("idleness")),
            (Some("Inn"), Some("pyromania")),
            (Some("Bakery"), Some("idleness")),
            (Some("Bakery"), Some("pyromania"))
        ]
    );
    assert_eq!(end.figures[0].temptation.reminded, ["Inn", "Bakery"]);
}

// ---- decisions ----

#[test]
fn a_decide_order_is_diced_at_its_move() {
    let scene = street(
        "",
        "",
        "(name: \"Which way?\", decider: \"Walker\", at_move: 3, options: [
            (name: \"left\", causation: 2, qualities: [(quality: loyalty, relevance: doubled)]),
            (name: \"right\", causation: 3, qualities: [(quality: energy, relevance: halved)])])",
    );
    let Run { log, end } = run(&scene, 11, 6);
    let decided = events(&log, "decision");
    assert_eq!(decided.len(), 1);
    let e = decided[0];
    assert_eq!((e.move_number, e.subject.as_str(), e.outcome), (3, "Walker", "decided"));
    assert_eq!(e.rolls.len(), 1);
    assert!(matches!(text(e, "chosen"), Some("left" | "right")), "{e:?}");
    assert_eq!(text(e, "decision"), Some("Which way?"));
    // Its qualities were diced for it, the move it decided, and kept.
    let diced = events(&log, "qualities_diced");
    assert_eq!(diced.len(), 1);
    assert_eq!(diced[0].move_number, 3);
    assert_eq!(diced[0].rolls.len(), 7);
    assert!(end.figures[0].qualities.loyalty.is_some());
}

// ---- outvote orders and weakness checks ----

/// A 40x20 table with a tavern at (10, 12), the figures given and the scene's further lists
/// (`outvotes: [...], weakness_checks: [...]`).
fn tavern(figures: &str, orders: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 40, height: 20), figures: [{figures}],
          temptations: [(name: \"Inn\", kind: low_drinking_tavern, position: (10, 12))], {orders})"
    ))
}

/// A follower drinking in the Inn: alcohol's −2 against the tavern's 8+ never leaves by the dice
/// (D10 − 2 is at most 7), so only an outvote gets him out. Already passing the Inn: walking on
/// does not tempt him again.
const GORM: &str = "(name: \"Gorm\", position: (10, 10), path: [(39, 10)], rank: follower, weaknesses: [alcohol],
                     temptation: (inside: (site: \"Inn\"), passing: [\"Inn\"]))";
/// Standing voters far from the Inn.
const ALDO: &str = "(name: \"Aldo\", position: (30, 2), rank: officer)";
const BESS: &str = "(name: \"Bess\", position: (35, 2))";

fn number(e: &LogEvent, key: &str) -> Option<u64> {
    e.fields.get(key).and_then(|v| v.as_u64())
}

fn list_len(e: &LogEvent, key: &str) -> Option<usize> {
    e.fields.get(key).and_then(|v| v.as_array()).map(Vec::len)
}

#[test]
fn an_outvote_order_takes_a_figure_out_of_its_site() {
    let scene = tavern(
        &format!("{GORM}, {ALDO}, {BESS}"),
        "outvotes: [(name: \"drag Gorm out\", figure: \"Gorm\", voters: [\"Aldo\", \"Bess\"], at_move: 2)]",
    );
    let Run { log, end } = run(&scene, 7, 4);
    let votes = events(&log, "outvote");
    assert_eq!(votes.len(), 1, "{votes:?}");
    let e = votes[0];
    assert_eq!((e.move_number, e.subject.as_str(), e.outcome), (2, "Gorm", "outvoted"));
    assert_eq!(text(e, "site"), Some("Inn"));
    assert_eq!(text(e, "order"), Some("drag Gorm out"));
    assert_eq!(number(e, "outvoters"), Some(2));
    assert_eq!(list_len(e, "voters"), Some(2));
    assert!(e.rolls.is_empty());
    // He diced to leave (and stayed) in moves 1 and 2, then walks on from move 3.
    let leave: Vec<u32> = events(&log, "leave_roll").iter().map(|e| e.move_number).collect();
    assert_eq!(leave, [1, 2]);
    let moved: Vec<u32> = events(&log, "moved").iter().filter(|e| e.subject == "Gorm").map(|e| e.move_number).collect();
    assert_eq!(moved, [3, 4]);
    assert!(events(&log, "temptation").is_empty(), "already passing the Inn");
    let gorm = end.figures.iter().find(|f| f.name == "Gorm").unwrap();
    assert_eq!(gorm.temptation.inside, None);
}

#[test]
fn too_few_voters_of_equal_or_higher_rank_do_not_outvote() {
    // Gorm independent: the officer's vote counts, the follower's does not.
    let gorm = GORM.replace("rank: follower", "rank: independent");
    let scene = tavern(
        &format!("{gorm}, {ALDO}, (name: \"Pip\", position: (35, 2), rank: follower)"),
        "outvotes: [(name: \"drag Gorm out\", figure: \"Gorm\", voters: [\"Aldo\", \"Pip\"], at_move: 1),
                    (name: \"drag Aldo out\", figure: \"Aldo\", voters: [\"Gorm\", \"Pip\"], at_move: 1)]",
    );
    let Run { log, end } = run(&scene, 7, 3);
    let votes = events(&log, "outvote");
    assert_eq!(votes.len(), 2, "{votes:?}");
    assert_eq!((votes[0].subject.as_str(), votes[0].outcome), ("Gorm", "not_outvoted"));
    assert_eq!(number(votes[0], "outvoters"), Some(1));
    assert_eq!(list_len(votes[0], "voters"), Some(2));
    // Aldo is in no site: nothing to outvote him out of.
    assert_eq!((votes[1].subject.as_str(), votes[1].outcome), ("Aldo", "not_inside"));
    assert_eq!(text(votes[1], "site"), None);
    let gorm = end.figures.iter().find(|f| f.name == "Gorm").unwrap();
    assert_eq!(gorm.temptation.inside.as_ref().map(|i| i.site.as_str()), Some("Inn"));
    assert_eq!(events(&log, "leave_roll").len(), 3);
}

#[test]
fn a_voter_inside_a_site_does_not_vote() {
    let bess = "(name: \"Bess\", position: (11, 10), weaknesses: [alcohol], temptation: (inside: (site: \"Inn\")))";
    let scene = tavern(
        &format!("{GORM}, {ALDO}, {bess}"),
        "outvotes: [(name: \"drag Gorm out\", figure: \"Gorm\", voters: [\"Aldo\", \"Bess\"], at_move: 1)]",
    );
    let Run { log, end } = run(&scene, 7, 2);
    let votes = events(&log, "outvote");
    assert_eq!(votes.len(), 1);
    let e = votes[0];
    assert_eq!(e.outcome, "not_outvoted");
    assert_eq!(number(e, "outvoters"), Some(1));
    assert_eq!(list_len(e, "voters"), Some(1));
    let not_voting = e.fields.get("inside_not_voting").and_then(|v| v.as_array()).unwrap();
    assert_eq!(not_voting.len(), 1);
    assert_eq!(not_voting[0].as_str(), Some("Bess"));
    assert!(end.figures.iter().all(|f| f.name == "Aldo" || f.temptation.inside.is_some()));
}

#[test]
fn a_weakness_check_rolls_at_its_move_and_only_then() {
    let scene = tavern(
        "(name: \"Ilse\", position: (30, 2), weaknesses: [over_talkative, collector])",
        "weakness_checks: [(name: \"a new acquaintance\", figure: \"Ilse\", roll: stop_talking, at_move: 3),
                           (name: \"the bookstall\", figure: \"Ilse\", roll: not_distracted, at_move: 3)]",
    );
    for seed in [1, 2, 3] {
        let Run { log, .. } = run(&scene, seed, 5);
        let checks = events(&log, "weakness_check");
        assert_eq!(checks.len(), 2, "{checks:?}");
        let (talk, book) = (checks[0], checks[1]);
        assert_eq!((talk.move_number, talk.subject.as_str()), (3, "Ilse"));
        assert_eq!((text(talk, "check"), text(talk, "roll")), (Some("a new acquaintance"), Some("stop_talking")));
        assert_eq!(text(talk, "weakness"), Some("over_talkative"));
        assert!(matches!(talk.outcome, "stops" | "carries_on"), "{talk:?}");
        assert_eq!(talk.rolls.len(), 1);
        assert_eq!(talk.rolls[0].target, Some(7));
        assert_eq!((book.move_number, text(book, "roll")), (3, Some("not_distracted")));
        assert!(matches!(book.outcome, "resists" | "gives_in"), "{book:?}");
    }
}

/// Clumsy in melee (000 "Weaknesses": "In melee any friend within 1\" D10 2- hit!"): one D10 for
/// each friend of the figure's side within 1", in scene order; none near, no roll.
#[test]
fn a_clumsy_figure_in_melee_rolls_for_each_friend_within_an_inch() {
    let scene = tavern(
        "(name: \"Oaf\", side: \"party\", position: (30, 2), weaknesses: [clumsy]),
         (name: \"Near\", side: \"party\", position: (30.8, 2)),
         (name: \"Foe\", side: \"raiders\", position: (29.5, 2)),
         (name: \"Far\", side: \"party\", position: (32, 2), weaknesses: [clumsy]),
         (name: \"Edge\", side: \"party\", position: (30, 3))",
        "weakness_checks: [(name: \"the melee\", figure: \"Oaf\", roll: friend_in_melee, at_move: 2),
                           (name: \"alone\", figure: \"Far\", roll: friend_in_melee, at_move: 3)]",
    );
    for seed in [1, 2, 3] {
        let Run { log, .. } = run(&scene, seed, 4);
        let checks = events(&log, "weakness_check");
        let melee: Vec<&&LogEvent> = checks.iter().filter(|e| e.move_number == 2).collect();
        let friends: Vec<Option<&str>> = melee.iter().map(|e| text(e, "friend")).collect();
        assert_eq!(friends, [Some("Near"), Some("Edge")], "{melee:?}");
        for e in &melee {
            assert_eq!(e.rolls.len(), 1);
            assert_eq!(e.rolls[0].target, Some(2));
            assert!(matches!(e.outcome, "friend_hit" | "friend_spared"), "{e:?}");
        }
        let alone: Vec<&&LogEvent> = checks.iter().filter(|e| e.move_number == 3).collect();
        assert_eq!(alone.len(), 1);
        assert_eq!(alone[0].outcome, "no_friend_near");
        assert!(alone[0].rolls.is_empty());
    }
}

#[test]
fn outvotes_and_weakness_checks_save_and_load() {
    // A kleptomaniac drinker: the check needs the weakness its roll belongs to.
    let gorm = GORM.replace("[alcohol]", "[alcohol, kleptomania]");
    let scene = tavern(
        &format!("{gorm}, {ALDO}, {BESS}"),
        "outvotes: [(name: \"drag Gorm out\", figure: \"Gorm\", voters: [\"Aldo\", \"Bess\"], at_move: 14)],
         weakness_checks: [(name: \"an unguarded purse\", figure: \"Gorm\", roll: not_steal, at_move: 9)]",
    );
    let text = scene_to_ron(&scene).unwrap();
    let back = parse_scene(&text, Path::new("back.ron")).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, scene);
    assert_eq!(back.outvotes.len(), 1);
    assert_eq!(back.weakness_checks.len(), 1);
}

#[test]
fn order_errors_name_the_order_and_field() {
    let e = match parse_scene(
        &format!(
            "(version: 1, table: (width: 40, height: 20), figures: [{GORM}, {ALDO}],
              temptations: [(name: \"Inn\", kind: low_drinking_tavern, position: (10, 12))],
              outvotes: [(name: \"who?\", figure: \"Nobody\", voters: [\"Aldo\"], at_move: 0),
                         (name: \"self\", figure: \"Gorm\", voters: [\"Gorm\", \"Aldo\", \"Aldo\", \"Zed\"], at_move: 2),
                         (name: \"none\", figure: \"Gorm\", voters: [], at_move: 2)],
              weakness_checks: [(name: \"sober\", figure: \"Aldo\", roll: not_fell, at_move: 3),
                                (name: \"leave\", figure: \"Gorm\", roll: stop_drinking, at_move: 3),
                                (name: \"ghost\", figure: \"Nobody\", roll: not_steal, at_move: 0)])"
        ),
        Path::new("t.ron"),
    ) {
        Ok(_) => panic!("accepted bad orders"),
        Err(e) => e.to_string(),
    };
    for expected in [
        "outvote \"who?\": figure",
        "outvote \"who?\": at_move",
        "outvote \"self\": voters[0]",
        "outvote \"self\": voters[2]",
        "outvote \"self\": voters[3]",
        "outvote \"none\": voters",
        "weakness check \"sober\": figure",
        "weakness check \"leave\": roll",
        "weakness check \"ghost\": figure",
        "weakness check \"ghost\": at_move",
    ] {
        assert!(e.contains(expected), "{expected} in {e}");
    }
    // Gorm has alcohol: a stop_drinking check is refused for the roll, not the weakness.
    assert!(!e.contains("weakness check \"leave\": figure"), "{e}");
}

// ---- determinism, saving, the market town ----

#[test]
fn the_same_seed_gives_the_same_log() {
    let scene = market_town();
    let a = run(&scene, 42, 30).log.to_json_lines();
    let b = run(&scene, 42, 30).log.to_json_lines();
    assert_eq!(a, b);
}

#[test]
fn the_market_town_runs_thirty_moves() {
    let scene = market_town();
    assert_eq!(scene.figures.len(), 5);
    assert!(scene.temptations.len() >= 5);
    for seed in [1, 2, 3] {
        let Run { log, end } = run(&scene, seed, 30);
        assert_eq!(end.clock.moves_played, 30);
        assert!(!events(&log, "temptation").is_empty(), "seed {seed}");
        // Sister Ilse's qualities are not given: the tavern, the first site, needed them.
        assert!(events(&log, "qualities_diced").iter().any(|e| e.subject == "Sister Ilse"), "seed {seed}");
        let decided = events(&log, "decision");
        assert_eq!(decided.len(), 1);
        assert_eq!((decided[0].move_number, decided[0].subject.as_str()), (12, "Captain Aldo"));
        // Sister Ilse's weakness check at move 9; the captain and Bess try to drag Gorm out at 14.
        let checks = events(&log, "weakness_check");
        assert_eq!(checks.len(), 1);
        assert_eq!((checks[0].move_number, checks[0].subject.as_str()), (9, "Sister Ilse"));
        let votes = events(&log, "outvote");
        assert_eq!(votes.len(), 1);
        assert_eq!((votes[0].move_number, votes[0].subject.as_str()), (14, "Gorm"));
        assert!(tabula::scene::load::validate(&end).is_empty(), "the end state loads");
    }
}

#[test]
fn the_market_town_play_test_counts_how_often_the_party_makes_the_ship() {
    let scene = market_town();
    let runs = run_all(&scene, 20, 30, 1, 2, &|_| {});
    let r = report("market town", &runs, 30, 1);
    assert_eq!(r.objectives.len(), 1);
    let ship = &r.objectives[0];
    assert_eq!((ship.name.as_str(), ship.by_move), ("make the ship", 30));
    assert_eq!((ship.reached.count, ship.met.of), (20, 20), "every run plays move 30");
    assert!(ship.met.count <= 20);
    // Made exactly when every one of the five stood on the quay at the end of move 30.
    for summary in &runs {
        let Run { end, .. } = run(&scene, summary.seed, 30);
        let on_quay = end.figures.iter().all(|f| scene.objectives[0].area.contains(f.position));
        assert_eq!(summary.objectives[0].met, Some(on_quay), "seed {}", summary.seed);
    }
    // The same seeds give the same report, whatever the thread count.
    let again = report("market town", &run_all(&scene, 20, 30, 1, 3, &|_| {}), 30, 1);
    assert_eq!(serde_json::to_string(&r).unwrap(), serde_json::to_string(&again).unwrap());
    assert!(to_text(&r).contains("make the ship"));
    // Ten moves: the ship has not sailed; no run reaches the objective.
    let short = report("market town", &run_all(&scene, 4, 10, 1, 2, &|_| {}), 10, 1);
    assert_eq!((short.objectives[0].reached.count, short.objectives[0].met.of), (0, 0));
}

#[test]
fn a_saved_street_continues_as_an_unbroken_run() {
    let scene = market_town();
    for seed in [1, 2, 3] {
        let Run { log: whole, .. } = run(&scene, seed, 30);
        let Run { end: halfway, .. } = run(&scene, seed, 15);
        let saved =
            parse_scene(&scene_to_ron(&halfway).unwrap(), Path::new("saved.ron")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(saved, halfway, "the saved scene reads back the same");
        let Run { log: rest, .. } = run(&saved, seed, 15);
        let after: Vec<String> =
            whole.events.iter().filter(|e| e.move_number > 15).map(LogEvent::to_json_line).collect();
        let resumed: Vec<String> = rest.events.iter().map(LogEvent::to_json_line).collect();
        assert_eq!(after, resumed, "seed {seed}");
    }
}

#[test]
fn scene_errors_name_the_site_and_field() {
    let e = match parse_scene(
        "(version: 1, table: (width: 40, height: 20),
          temptations: [(name: \"Inn\", kind: low_drinking_tavern, position: (50, 12)),
                        (name: \"Rosa\", kind: street_harlot, position: (5, 5), gm_factor: 5)])",
        Path::new("t.ron"),
    ) {
        Ok(_) => panic!("accepted a site off the table"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("temptation \"Inn\": position"), "{e}");
    assert!(e.contains("temptation \"Rosa\": gm_factor"), "{e}");
    // An unknown kind is a located syntax error.
    let e = match parse_scene(
        "(version: 1, table: (width: 40, height: 20),\n temptations: [(name: \"X\", kind: opium, position: (5, 5))])",
        Path::new("t.ron"),
    ) {
        Ok(_) => panic!("accepted an unknown kind"),
        Err(e) => e.to_string(),
    };
    assert!(e.starts_with("t.ron:2:"), "{e}");
}

#[test]
fn every_new_field_saves_and_loads() {
    let scene = street(
        ", qualities: (integrity: 3, loyalty: 6), weaknesses: [gambling, vanity], rank: officer, money: 7,
           reader: false, non_fighter: true, non_smoker: true,
           temptation: (inside: (site: \"Casino\", moves: 2), passing: [\"Casino\"], reminded: [\"Casino\"])",
        "(name: \"Casino\", kind: gambling_casino, position: (1, 12), reach: 4.5, cost_per_move: 2),
         (name: \"Baths\", kind: public_baths, position: (20, 12), gm_factor: 1)",
        "(name: \"Stay?\", decider: \"Walker\", at_move: 9, options: [
            (name: \"stay\", causation: 4, charmer_rating: 2, qualities: [(quality: integrity, relevance: doubled)]),
            (name: \"go\", causation: 1)])",
    );
    let text = scene_to_ron(&scene).unwrap();
    let back = parse_scene(&text, Path::new("back.ron")).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back, scene);
    // The gambler inside dices to leave from the first move, path waiting.
    let Run { log, .. } = run(&scene, 5, 1);
    assert_eq!(events(&log, "leave_roll").len(), 1);
    assert!(events(&log, "moved").is_empty());
}
