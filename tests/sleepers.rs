//! Sleepers through the simulation (000 "Awaking groups asleep", "Woken sleepers response",
//! "Dressing & Undressing"): earshot by shelter, walls, every waking factor the sim supplies,
//! waking and response distributions against the text, alarms spreading, investigators,
//! listening, dressing, saving and continuing, and the night camp.

mod common;

use bevy::prelude::*;
use common::{chi_square, scene_from_str};
use std::path::Path;
use tabula::rules::character::{Armour, Gait};
use tabula::rules::sleepers::Noise;
use tabula::scene::sleepers::SleeperState;
use tabula::scene::{Scene, load_scene, parse_scene, scene_to_ron};
use tabula::sim::Simulation;
use tabula::sim::log::LogEvent;
use tabula::sim::noise::NoiseMade;
use tabula::sim::world::snapshot_scene;
use tabula::sim::{EventLog, Move, MoveSystems};
use tabula::sim::{Run, run};

// ---- helpers ----

/// A 40x30 table with a group at (10, 10) and whatever else is given.
fn scene(groups: &str, figures: &str, walls: &str, doors: &str, rules: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 40, height: 30), rules: ({rules}), walls: [{walls}], doors: [{doors}],
          figures: [{figures}], sleepers: [{groups}])"
    ))
}

/// A figure walking east along y, passing x = 10 (nearest the group) in its first move and
/// walking on afterwards.
fn passer(y: f32, gait: &str, armour: &str) -> String {
    format!("(name: \"Passer\", position: (7, {y}), gait: {gait}, armour: {armour}, path: [(13, {y}), (39, {y})])")
}

fn events<'a>(log: &'a EventLog, event: &str) -> Vec<&'a LogEvent> {
    log.events.iter().filter(|e| e.event == event).collect()
}

/// The modifiers of an event's first roll, as (reason, value).
fn modifiers(e: &LogEvent) -> Vec<(String, i32)> {
    e.rolls[0].modifiers.iter().map(|m| (m.reason.to_string(), m.value)).collect()
}

/// P(D6 + f lands in each band), bands given by an index function on the total.
fn d6_bands(f: i32, bands: usize, band: impl Fn(i32) -> usize) -> Vec<f64> {
    let mut p = vec![0.0; bands];
    for face in 1..=6 {
        p[band(face + f)] += 1.0 / 6.0;
    }
    p
}

/// 000 "Awaking groups asleep" bands, written from the text: 4- none, 5 one, 6 two, 7 three, 8+ all.
fn waking_band(total: i32) -> usize {
    match total {
        ..=4 => 0,
        5 => 1,
        6 => 2,
        7 => 3,
        _ => 4,
    }
}

/// 000 "Woken sleepers response" bands, from the text: 2- sleep, 3 listen, 4 investigate, 5+ alarm.
fn response_band(total: i32) -> usize {
    match total {
        ..=2 => 0,
        3 => 1,
        4 => 2,
        _ => 3,
    }
}

const WAKING_IDS: [&str; 5] = ["none_wake", "one_wakes", "two_wake", "three_wake", "all_wake"];
const RESPONSE_IDS: [&str; 4] = ["back_to_sleep", "listen_awake", "investigate", "raise_alarm"];

/// A group of `n` members with the given fields, each member `member` with a number.
fn group(shelter: &str, n: usize, member: &str, fields: &str) -> String {
    let members: Vec<String> = (1..=n).map(|i| format!("(name: \"M{i}\", {member})")).collect();
    format!("(name: \"G\", position: (10, 10), shelter: {shelter}, members: [{}], {fields})", members.join(", "))
}

// ---- earshot ----

#[test]
fn earshot_by_shelter() {
    for (shelter, earshot) in [("open", 6.0), ("tent", 4.0), ("building", 2.0)] {
        for (offset, heard) in [(-0.05, true), (0.05, false)] {
            let y = 10.0 + earshot + offset;
            let s = scene(&group(shelter, 2, "", ""), &passer(y, "normal", "clothed"), "", "", "");
            let Run { log, .. } = run(&s, 1, 1);
            let noises = events(&log, "noise_heard");
            assert_eq!(!noises.is_empty(), heard, "{shelter} at {y}");
            if heard {
                let d = noises[0].fields["distance"].as_f64().unwrap();
                assert!((d - (earshot + offset) as f64).abs() < 1e-3, "{shelter}: heard at the nearest point, {d}");
                assert_eq!(noises[0].fields["shelter"], shelter);
                assert_eq!(events(&log, "waking_roll").len(), 1);
            } else {
                assert!(events(&log, "waking_roll").is_empty());
            }
        }
    }
}

/// Writes one noise in the Traps set of every move, as the traps do.
#[derive(Resource, Clone)]
struct Inject(Vec<NoiseMade>);

fn inject(mut writer: MessageWriter<NoiseMade>, noises: Res<Inject>) {
    for n in &noises.0 {
        writer.write(n.clone());
    }
}

fn app_with_noises(s: &Scene, seed: u64, noises: Vec<NoiseMade>) -> Simulation {
    let mut sim = Simulation::new(s, seed);
    sim.app_mut().insert_resource(Inject(noises));
    sim.app_mut().add_systems(Move, inject.in_set(MoveSystems::Traps));
    sim
}

/// A noise made in round 1 of the move.
fn noise(source: &str, at: (f32, f32), kind: Noise, heard_to: Option<f32>) -> NoiseMade {
    NoiseMade { source: source.into(), position: Vec2::new(at.0, at.1), noise: kind, heard_to, round: 1 }
}

#[test]
fn a_noise_heard_to_bounds_the_earshot() {
    let s = scene(&group("open", 2, "", ""), "", "", "", "");
    for (heard_to, heard) in [(None, true), (Some(3.5), true), (Some(2.5), false), (Some(20.0), true)] {
        let mut app = app_with_noises(&s, 1, vec![noise("bell", (13.0, 10.0), Noise::Shout, heard_to)]);
        app.step_moves(1);
        let log = app.world().resource::<EventLog>();
        assert_eq!(!events(log, "noise_heard").is_empty(), heard, "heard_to {heard_to:?}");
    }
    // The earlier reading, as a setting: never beyond the shelter's earshot.
    let earshot = scene(&group("open", 2, "", ""), "", "", "", "sleepers: (heard_to_in_shelter: earshot)");
    let mut app = app_with_noises(&earshot, 1, vec![noise("bell", (17.0, 10.0), Noise::Scream, Some(18.0))]);
    app.step_moves(1);
    assert!(events(app.world().resource::<EventLog>(), "noise_heard").is_empty());
}

/// H5. 000 "Loop Traps": "screaming heard to 18""; "Awaking groups asleep": "Diced for within 6"
/// in the open, 4" in tent, 2" within building". A scream carries its 18", shortened by the
/// shelter: × earshot / 6 by default (18, 12, 6), − (6 − earshot) by setting (18, 16, 14), and
/// the shelter's earshot (6, 4, 2) by the other setting. Each distance is probed 0.5" inside
/// (a waking roll) and 0.5" outside (nothing heard).
#[test]
fn a_scream_carries_eighteen_inches() {
    for (setting, reaches) in
        [("proportional", [18.0, 12.0, 6.0]), ("subtract", [18.0, 16.0, 14.0]), ("earshot", [6.0, 4.0, 2.0])]
    {
        for (shelter, reach) in ["open", "tent", "building"].into_iter().zip(reaches) {
            let s =
                scene(&group(shelter, 2, "", ""), "", "", "", &format!("sleepers: (heard_to_in_shelter: {setting})"));
            for (offset, heard) in [(-0.5f32, true), (0.5, false)] {
                let at = (10.0 + reach + offset, 10.0);
                let mut app = app_with_noises(&s, 1, vec![noise("victim", at, Noise::Scream, Some(18.0))]);
                app.step_moves(1);
                let log = app.world().resource::<EventLog>();
                assert_eq!(!events(log, "noise_heard").is_empty(), heard, "{setting} {shelter} at {at:?}");
                assert_eq!(!events(log, "waking_roll").is_empty(), heard, "{setting} {shelter} at {at:?}");
            }
        }
    }
    // The default: a scream 10" from a group in the open is diced for (the earlier reading: not).
    let s = scene(&group("open", 2, "", ""), "", "", "", "");
    let mut app = app_with_noises(&s, 1, vec![noise("victim", (20.0, 10.0), Noise::Scream, Some(18.0))]);
    app.step_moves(1);
    assert_eq!(events(app.world().resource::<EventLog>(), "waking_roll").len(), 1);
}

// ---- walls ----

fn wall(name: &str, kind: &str, y: f32) -> String {
    format!("(name: \"{name}\", kind: {kind}, points: [(0, {y}), (20, {y})])")
}

/// The wall modifiers of the first waking roll for a passer at y = 13 and walls between.
fn wall_modifiers(walls: &str, doors: &str, rules: &str) -> Vec<(String, i32)> {
    let s = scene(&group("open", 2, "", ""), &passer(13.0, "normal", "clothed"), walls, doors, rules);
    let Run { log, .. } = run(&s, 1, 1);
    let rolls = events(&log, "waking_roll");
    assert!(!rolls.is_empty(), "no waking roll with walls {walls}");
    modifiers(rolls[0]).into_iter().filter(|(r, _)| r.contains("wall")).collect()
}

#[test]
fn walls_between_muffle_the_noise() {
    let m = |v: &[(&str, i32)]| v.iter().map(|(r, x)| (r.to_string(), *x)).collect::<Vec<_>>();
    assert_eq!(wall_modifiers("", "", ""), m(&[]));
    assert_eq!(wall_modifiers(&wall("w", "inner", 11.5), "", ""), m(&[("inner wall between", -1)]));
    assert_eq!(wall_modifiers(&wall("w", "outer", 11.5), "", ""), m(&[("outer wall between", -2)]));
    // A low obstacle stops feet, not sound.
    assert_eq!(wall_modifiers(&wall("w", "low", 11.5), "", ""), m(&[]));
    let both = format!("{}, {}", wall("a", "inner", 11.2), wall("b", "outer", 11.8));
    assert_eq!(wall_modifiers(&both, "", ""), m(&[("inner wall between", -1), ("outer wall between", -2)]));
    let two_inner = format!("{}, {}", wall("a", "inner", 11.2), wall("b", "inner", 11.8));
    assert_eq!(wall_modifiers(&two_inner, "", ""), m(&[("2 inner walls between", -2)]));
    // House rule setting: only the worst wall counts.
    assert_eq!(wall_modifiers(&both, "", "sleepers: (wall_stacking: worst)"), m(&[("outer wall between", -2)]));
    // The noise comes through the door's gap (the nearest point is straight across at x = 10).
    let door = |open: bool| format!("(name: \"d\", from: (9, 11.5), to: (11, 11.5), open: {open})");
    assert_eq!(wall_modifiers(&wall("w", "outer", 11.5), &door(false), ""), m(&[("outer wall between", -2)]));
    assert_eq!(wall_modifiers(&wall("w", "outer", 11.5), &door(true), ""), m(&[]));
}

// ---- the other waking factors, as the sim supplies them ----

fn first_waking_modifiers(groups: &str, figures: &str, rules: &str) -> Vec<(String, i32)> {
    let Run { log, .. } = run(&scene(groups, figures, "", "", rules), 3, 1);
    let rolls = events(&log, "waking_roll");
    assert!(!rolls.is_empty(), "no waking roll for {groups} / {figures}");
    modifiers(rolls[0])
}

#[test]
fn movement_noise_by_gait_and_armour() {
    let cases = [
        ("furtive", "clothed", vec![("furtive movement", -1)]),
        ("normal", "clothed", vec![]),
        ("cautious", "light", vec![]),
        ("searching", "medium", vec![]),
        ("normal", "heavy", vec![("heavy movement", 1)]),
        ("normal", "plate", vec![("plate movement", 1)]),
        // House rules: running is heard as heavy movement; armour is heard through a furtive gait.
        ("running", "clothed", vec![("heavy movement", 1)]),
        ("furtive", "plate", vec![("plate movement", 1)]),
    ];
    for (gait, armour, expected) in cases {
        let got = first_waking_modifiers(&group("open", 2, "", ""), &passer(13.0, gait, armour), "");
        let expected: Vec<(String, i32)> = expected.into_iter().map(|(r, v)| (r.to_string(), v)).collect();
        assert_eq!(got, expected, "{gait} in {armour}");
    }
    let muffled = first_waking_modifiers(
        &group("open", 2, "", ""),
        &passer(13.0, "furtive", "plate"),
        "sleepers: (armour_heard_through_furtive_gait: false)",
    );
    assert_eq!(muffled, vec![("furtive movement".to_string(), -1)]);
}

#[test]
fn group_factors() {
    let walker = passer(13.0, "normal", "clothed");
    let has = |m: &[(String, i32)], r: &str, v: i32| m.iter().any(|(reason, value)| reason == r && *value == v);
    let m = first_waking_modifiers(&group("open", 2, "", "noisy_area: true"), &walker, "");
    assert!(has(&m, "noisy area", -1), "{m:?}");
    let m = first_waking_modifiers(&group("open", 2, "", "known_threat: true"), &walker, "");
    assert!(has(&m, "known threat", 1), "{m:?}");
    let m = first_waking_modifiers(&group("open", 1, "", ""), &walker, "");
    assert!(has(&m, "one in group", -1), "{m:?}");
    let m = first_waking_modifiers(&group("open", 2, "hearing: acute", ""), &walker, "");
    assert!(has(&m, "acute hearer", 1), "{m:?}");
    let m = first_waking_modifiers(&group("open", 2, "hearing: obtuse", ""), &walker, "");
    assert!(has(&m, "obtuse hearer", -1), "{m:?}");
    // Mixed hearing: the keenest counts by default, the dullest by setting.
    let mixed =
        "(name: \"G\", position: (10, 10), members: [(name: \"A\", hearing: acute), (name: \"O\", hearing: obtuse)])";
    let m = first_waking_modifiers(mixed, &walker, "");
    assert!(has(&m, "acute hearer", 1), "{m:?}");
    let m = first_waking_modifiers(mixed, &walker, "sleepers: (group_hearing: dullest)");
    assert!(has(&m, "obtuse hearer", -1), "{m:?}");
    // Plain names are independent, clothed, normal hearers.
    let plain = "(name: \"G\", position: (10, 10), members: [\"Ulf\", \"Bero\"])";
    assert_eq!(first_waking_modifiers(plain, &walker, ""), vec![]);
}

#[test]
fn each_source_is_diced_for_loudest_first_or_only_the_loudest() {
    let two = format!(
        "{}, (name: \"Clanker\", position: (7, 12), armour: plate, path: [(13, 12), (39, 12)])",
        passer(13.0, "furtive", "clothed")
    );
    let groups = group("open", 5, "hearing: obtuse", "");
    for seed in 0..20 {
        let Run { log, .. } = run(&scene(&groups, &two, "", "", ""), seed, 1);
        let rolls: Vec<_> = events(&log, "waking_roll").into_iter().filter(|e| e.fields["wave"] == 0).collect();
        assert!(!rolls.is_empty() && rolls.len() <= 2);
        assert_eq!(rolls[0].fields["source"], "Clanker", "the plate is louder and is diced for first");
        if rolls.len() == 2 {
            assert_eq!(rolls[1].fields["source"], "Passer");
        }
        let Run { log, .. } = run(&scene(&groups, &two, "", "", "sleepers: (waking_checks: loudest)"), seed, 1);
        let rolls: Vec<_> = events(&log, "waking_roll").into_iter().filter(|e| e.fields["wave"] == 0).collect();
        assert_eq!(rolls.len(), 1);
        assert_eq!(rolls[0].fields["source"], "Clanker");
    }
}

// ---- distributions through the sim ----

/// The first waking roll of move 1 over many seeds, banded, against D6 + f from the text.
fn check_waking_distribution(groups: &str, figures: &str, walls: &str, f: i32, asleep: usize) {
    let s = scene(groups, figures, walls, "", "");
    let mut observed = [0u32; 5];
    for seed in 0..600 {
        let Run { log, .. } = run(&s, seed, 1);
        let first = events(&log, "waking_roll")[0];
        let band = WAKING_IDS.iter().position(|id| *id == first.outcome).unwrap();
        observed[band] += 1;
        let woken = first.fields["woken"].as_array().unwrap().len();
        assert_eq!(woken, [0, 1, 2, 3, asleep][band].min(asleep), "woken for {}", first.outcome);
        let total: i32 = first.rolls[0].faces[0] as i32 + modifiers(first).iter().map(|m| m.1).sum::<i32>();
        assert_eq!(total, first.rolls[0].total);
    }
    let expected = d6_bands(f, 5, waking_band);
    let chi = chi_square(&observed, &expected);
    // 4 degrees of freedom at most: 18.47 is p = 0.001.
    assert!(chi < 18.47, "F {f}: chi-square {chi}, observed {observed:?}, expected {expected:?}");
}

#[test]
fn waking_matches_the_text_in_the_open() {
    // Plate movement +1, five asleep: 3/6 none, 1/6 one, two, three.
    check_waking_distribution(&group("open", 5, "", ""), &passer(13.0, "normal", "plate"), "", 1, 5);
}

#[test]
fn waking_matches_the_text_in_a_tent_through_an_inner_wall() {
    // Heavy movement +1, inner wall −1, known threat +1.
    let g = group("tent", 4, "", "known_threat: true");
    check_waking_distribution(&g, &passer(13.5, "normal", "heavy"), &wall("w", "inner", 12.0), 1, 4);
}

#[test]
fn waking_matches_the_text_in_a_building_through_an_outer_wall() {
    // Running (heavy) +1, outer wall −2, acute +1, noisy area −1, two asleep.
    let g = group("building", 2, "hearing: acute", "noisy_area: true");
    check_waking_distribution(&g, &passer(11.8, "running", "clothed"), &wall("w", "outer", 11.0), -1, 2);
}

/// Wave-0 responses of move 1 over many seeds, banded, against D6 + f from the text; also
/// the D6 moves of listening.
fn check_response_distribution(groups: &str, figures: &str, f: i32, ceased: bool) {
    let s = scene(groups, figures, "", "", "");
    let mut observed = [0u32; 4];
    let mut listen = [0u32; 6];
    for seed in 0..500 {
        let Run { log, .. } = run(&s, seed, 1);
        for r in events(&log, "response").into_iter().filter(|e| e.fields["wave"] == 0) {
            assert_eq!(r.fields["noise_ceased"], ceased);
            observed[RESPONSE_IDS.iter().position(|id| *id == r.outcome).unwrap()] += 1;
            if r.outcome == "listen_awake" {
                let moves = r.fields["listen_moves"].as_i64().unwrap();
                listen[(moves - 1) as usize] += 1;
                assert_eq!(r.rolls.len(), 2, "the D6 moves are logged");
            }
        }
    }
    assert!(observed.iter().sum::<u32>() > 500, "too few responses: {observed:?}");
    let expected = d6_bands(f, 4, response_band);
    let chi = chi_square(&observed, &expected);
    // 3 degrees of freedom at most: 16.27 is p = 0.001.
    assert!(chi < 16.27, "F {f}: chi-square {chi}, observed {observed:?}, expected {expected:?}");
    if listen.iter().sum::<u32>() > 60 {
        let chi = chi_square(&listen, &[1.0 / 6.0; 6]);
        assert!(chi < 20.52, "listen moves {listen:?}");
    }
}

#[test]
fn response_matches_the_text_while_the_noise_goes_on() {
    // Movement 0, officer +1; the passer walks on within earshot.
    let g = group("open", 5, "rank: officer", "known_threat: true");
    check_response_distribution(&g, &passer(13.0, "normal", "clothed"), 1, false);
}

#[test]
fn response_matches_the_text_when_the_noise_has_ceased() {
    // Noise ceased −1 (the walker stops), follower −1, expecting trouble +1.
    let g = group("open", 5, "rank: follower", "known_threat: true, expecting_trouble: true");
    let stops = "(name: \"Stopper\", position: (7, 13), path: [(12, 13)])";
    check_response_distribution(&g, stops, -1, true);
}

#[test]
fn response_matches_the_text_for_nidderlings_as_the_walker_leaves_earshot() {
    // The walker runs on out of the tent's earshot: ceased −1; running (heavy) is not in the
    // response table but the noise has ceased anyway; nidderling −2.
    let g = group("tent", 5, "rank: nidderling", "known_threat: true");
    check_response_distribution(&g, &passer(12.0, "running", "clothed"), -3, true);
}

// ---- alarms ----

fn alarm_scene(extra_groups: &str) -> Scene {
    let keen = "(name: \"A\", position: (10, 10), expecting_trouble: true, members: [(name: \"Captain\", rank: officer), (name: \"Lieutenant\", rank: officer)])";
    scene(&format!("{keen}, {extra_groups}"), "", "", "", "")
}

#[test]
fn the_alarm_spreads_the_same_move_wave_by_wave() {
    // A hears a bell (the alarm: +4 to wake two, +3 +1 +1 to respond): it always raises the
    // alarm. B lies 5" off, out of the bell's reach but in earshot of A's alarm; C lies 5" from B
    // and 10" from A; D is far away.
    let b = "(name: \"B\", position: (15, 10), expecting_trouble: true, members: [(name: \"Bo\", rank: officer), (name: \"Bea\", rank: officer)])";
    let c = "(name: \"C\", position: (20, 10), members: [\"Cy\", \"Cal\"])";
    let d = "(name: \"D\", position: (38, 28), members: [\"Dee\"])";
    let s = alarm_scene(&format!("{b}, {c}, {d}"));
    for seed in 0..30 {
        let mut app = app_with_noises(&s, seed, vec![noise("bell", (10.0, 10.0), Noise::Alarm, Some(1.0))]);
        app.step_moves(1);
        let log = app.world().resource::<EventLog>();
        let raised: Vec<(&str, i64)> = events(log, "alarm_raised")
            .iter()
            .map(|e| (e.subject.as_str(), e.fields["wave"].as_i64().unwrap()))
            .collect();
        assert_eq!(&raised[..2], &[("A", 0), ("B", 1)], "seed {seed}");
        let b_woken = events(log, "waking_roll").into_iter().find(|e| e.subject == "B").unwrap();
        assert_eq!(b_woken.fields["source"], "A");
        assert_eq!(b_woken.fields["wave"], 1);
        // 000 lists no alarm among the waking noises: +4 is the house rule, tagged so.
        assert!(modifiers(b_woken).contains(&("alarm called, waking (house rule)".to_string(), 4)));
        let b_response = events(log, "response").into_iter().find(|e| e.subject == "B").unwrap();
        assert!(modifiers(b_response).contains(&("alarm called".to_string(), 3)));
        // C hears only B's alarm, in the next wave.
        let c_heard: Vec<_> = events(log, "noise_heard").into_iter().filter(|e| e.subject == "C").collect();
        assert_eq!((c_heard[0].fields["source"].as_str(), c_heard[0].fields["wave"].as_i64()), (Some("B"), Some(2)));
        assert!(c_heard.iter().all(|e| e.fields["source"] != "A" && e.fields["source"] != "bell"));
        assert!(events(log, "noise_heard").iter().all(|e| e.subject != "D"));
        // Each group raises the alarm once a move.
        let mut subjects: Vec<&str> = raised.iter().map(|r| r.0).collect();
        subjects.dedup();
        assert_eq!(subjects.len(), raised.len());
        // The alarm is a noise like any other, for the view and the other domains.
        assert!(log.events.iter().any(|e| e.event == "noise_made" && e.subject == "A" && e.outcome == "alarm"));
    }
}

#[test]
fn the_alarmed_arm_from_the_round_after_waking() {
    let s = alarm_scene("(name: \"far\", position: (38, 28), members: [\"x\"])");
    // The bell in round 1: one round of the move is left to dress in, the second next move.
    let mut app = app_with_noises(&s, 7, vec![noise("bell", (10.0, 10.0), Noise::Alarm, Some(1.0))]);
    app.step_moves(2);
    let log = app.world().resource::<EventLog>();
    let dressing: Vec<(u32, &str, u64)> = events(log, "dressing")
        .iter()
        .map(|e| (e.move_number, e.outcome, e.fields["rounds_taken"].as_u64().unwrap()))
        .collect();
    // Clothed: 2 rounds, for each of the two officers.
    assert_eq!(dressing, [(1, "dressing", 1), (1, "dressing", 1), (2, "dressed", 2), (2, "dressed", 2)]);
    // The bell in the last round: nothing left this move; both rounds next move.
    let bell = NoiseMade { round: 2, ..noise("bell", (10.0, 10.0), Noise::Alarm, Some(1.0)) };
    let mut app = app_with_noises(&s, 7, vec![bell]);
    app.step_moves(2);
    let log = app.world().resource::<EventLog>();
    let dressing = events(log, "dressing");
    assert_eq!(dressing.len(), 2);
    assert!(dressing.iter().all(|e| e.move_number == 2), "dressing starts the move after the alarm");
    assert!(dressing.iter().all(|e| e.outcome == "dressed" && e.fields["rounds_taken"] == 2));
}

/// H6. 000 "Dressing & Undressing": a woken sleeper dresses from the round after it woke. Two
/// rounds a move; heavy armour, 5 rounds. Group A hears a bell in round 1 of move 3: 1 round
/// dressed at the end of move 3, 3 at the end of move 4. Group B (far from A) hears one in round
/// 2 of move 3: none at the end of move 3, 2 at the end of move 4. (The bell is the alarm: +4
/// to wake, officers expecting trouble +1 +1 +3 to respond: both always raise the alarm.)
#[test]
fn dressing_starts_the_round_after_waking() {
    let officers = |name: &str, x: u32, y: u32| {
        format!(
            "(name: \"{name}\", position: ({x}, {y}), expecting_trouble: true, members: [
                (name: \"{name}1\", rank: officer, armour: heavy), (name: \"{name}2\", rank: officer, armour: heavy)])"
        )
    };
    let s = scene(&format!("{}, {}", officers("A", 10, 10), officers("B", 30, 20)), "", "", "", "");
    let bells = vec![
        noise("bell A", (10.0, 10.0), Noise::Alarm, Some(1.0)),
        NoiseMade { round: 2, ..noise("bell B", (30.0, 20.0), Noise::Alarm, Some(1.0)) },
    ];
    for seed in 0..10 {
        let mut app = app_with_noises(&s, seed, Vec::new());
        app.step_moves(2);
        app.app_mut().insert_resource(Inject(bells.clone()));
        app.step_moves(1);
        app.app_mut().insert_resource(Inject(Vec::new()));
        app.step_moves(1);
        let log = app.world().resource::<EventLog>();
        // Both woken by their bells in move 3, and raising the alarm.
        for (group, bell) in [("A", "bell A"), ("B", "bell B")] {
            let woken = events(log, "waking_roll").into_iter().find(|e| e.subject == group).unwrap();
            assert_eq!((woken.move_number, woken.fields["source"].as_str()), (3, Some(bell)), "seed {seed}");
        }
        let alarms: Vec<(&str, u32)> =
            events(log, "alarm_raised").iter().map(|e| (e.subject.as_str(), e.move_number)).collect();
        assert_eq!(alarms, [("A", 3), ("B", 3)], "seed {seed}");
        // Each group's alarm is made in the round of the bell that woke it.
        let alarm_rounds: Vec<(&str, u64)> = events(log, "noise_made")
            .iter()
            .filter(|e| e.outcome == "alarm" && !e.subject.starts_with("bell"))
            .map(|e| (e.subject.as_str(), e.fields["round"].as_u64().unwrap()))
            .collect();
        assert_eq!(alarm_rounds, [("A", 1), ("B", 2)], "seed {seed}");
        let dressed = |member: &str| -> Vec<(u32, u64)> {
            events(log, "dressing")
                .iter()
                .filter(|e| e.fields["member"] == member)
                .map(|e| (e.move_number, e.fields["rounds_taken"].as_u64().unwrap()))
                .collect()
        };
        for member in ["A1", "A2"] {
            assert_eq!(dressed(member), [(3, 1), (4, 3)], "{member}, seed {seed}");
        }
        for member in ["B1", "B2"] {
            assert_eq!(dressed(member), [(4, 2)], "{member}, seed {seed}");
        }
        // The dressing progress the scene keeps.
        let end = snapshot_scene(app.world_mut()).unwrap();
        let rounds: Vec<Option<u32>> =
            end.sleepers.iter().flat_map(|g| g.members.iter().map(|m| m.0.dressing_rounds)).collect();
        assert_eq!(rounds, [Some(3), Some(3), Some(2), Some(2)], "seed {seed}");
    }
}

/// A figure's movement noise is made in the round it comes nearest the group: the fraction of
/// its move walked to that point (inches ÷ its 6" allowance) × 2 rounds, rounded up. From
/// (9, 13) toward (20, 13) a man is nearest (10, 13) after 1" (round 1); from (5, 13), after 5"
/// (round 2).
#[test]
fn a_movement_noise_is_made_in_the_round_of_the_nearest_approach() {
    let figures =
        "(name: \"Early\", position: (9, 13), path: [(20, 13)]), (name: \"Late\", position: (5, 13), path: [(12, 13)])";
    let s = scene(&group("open", 2, "", ""), figures, "", "", "");
    let Run { log, .. } = run(&s, 1, 1);
    let made: Vec<(&str, u64)> = events(&log, "noise_made")
        .iter()
        .filter(|e| e.subject == "Early" || e.subject == "Late")
        .map(|e| (e.subject.as_str(), e.fields["round"].as_u64().unwrap()))
        .collect();
    assert_eq!(made, [("Early", 1), ("Late", 2)]);
}

// ---- dressing ----

#[test]
fn dressing_takes_the_texts_rounds_two_a_move() {
    let members = ["unclothed", "clothed", "light", "medium", "heavy", "plate"]
        .map(|a| format!("(name: \"{a}\", armour: {a}, state: alarm)"))
        .join(", ");
    let s = scene(&format!("(name: \"G\", position: (10, 10), members: [{members}])"), "", "", "", "");
    let Run { log, end } = run(&s, 1, 5);
    // Hasty rounds from the text (light: house rule 3); done in the move the rounds are reached.
    for (armour, rounds, done_move) in
        [("unclothed", 1, 1), ("clothed", 2, 1), ("light", 3, 2), ("medium", 3, 2), ("heavy", 5, 3), ("plate", 7, 4)]
    {
        let mine: Vec<_> = events(&log, "dressing").into_iter().filter(|e| e.fields["member"] == armour).collect();
        assert_eq!(mine.len() as u32, done_move, "{armour}: one event a move until dressed");
        let last = mine.last().unwrap();
        assert_eq!((last.outcome, last.move_number), ("dressed", done_move), "{armour}");
        assert_eq!(last.fields["rounds_needed"], rounds);
        assert_eq!(last.fields["armour_worn"], armour);
        assert_eq!(last.fields["melee_modifier"], 0);
        for e in &mine[..mine.len() - 1] {
            assert_eq!((e.outcome, &e.fields["half_dressed"]), ("dressing", &serde_json::json!(true)));
            assert_eq!(e.fields["melee_modifier"], -1, "fighting half dressed −1 in melee");
        }
    }
    // Plate interrupted: heavy after 5 and 6 rounds ("incomplete armour as for rounds taken").
    let plate: Vec<_> = events(&log, "dressing").into_iter().filter(|e| e.fields["member"] == "plate").collect();
    let worn: Vec<&str> = plate.iter().map(|e| e.fields["armour_worn"].as_str().unwrap()).collect();
    assert_eq!(worn, ["clothed", "medium", "heavy", "plate"]);
    let saved = &end.sleepers[0].members[5].0;
    assert_eq!(saved.dressing_rounds, Some(7));
}

#[test]
fn full_dressing_adds_the_listed_rounds() {
    // Medium 3 + all 1 + lady 4 = 8 rounds: four moves; the armour is on after two.
    let s = scene(
        "(name: \"G\", position: (10, 10), full_dressing: true, members: [(name: \"Lady Ilse\", armour: medium, dresser: lady, state: alarm)])",
        "",
        "",
        "",
        "",
    );
    let Run { log, .. } = run(&s, 1, 5);
    let d = events(&log, "dressing");
    let seen: Vec<(u32, &str, bool)> =
        d.iter().map(|e| (e.move_number, e.outcome, e.fields["half_dressed"].as_bool().unwrap())).collect();
    assert_eq!(seen, [(1, "dressing", true), (2, "dressing", false), (3, "dressing", false), (4, "dressed", false)]);
    assert_eq!(d[3].fields["rounds_needed"], 8);
}

/// H6. 000 "Dressing & Undressing": "For full dressing add the following rounds, All +1, women
/// +2, Ladies +4": a woman (by `sex`, no `dresser` given) fully dressing in clothes takes
/// 2 + 1 + 2 = 5 rounds, three moves at two rounds a move; a man 3, two moves; a lady 2 + 1 + 4 = 7.
#[test]
fn women_add_two_rounds_to_full_dressing() {
    let s = scene(
        "(name: \"G\", position: (10, 10), full_dressing: true, members: [
            (name: \"Greta\", sex: female, state: alarm),
            (name: \"Hans\", state: alarm),
            (name: \"Lady Ilse\", sex: female, dresser: lady, state: alarm),
        ])",
        "",
        "",
        "",
        "",
    );
    let Run { log, .. } = run(&s, 1, 5);
    for (member, dresser, needed, moves) in
        [("Greta", "woman", 5, 3), ("Hans", "ordinary", 3, 2), ("Lady Ilse", "lady", 7, 4)]
    {
        let mine: Vec<_> = events(&log, "dressing").into_iter().filter(|e| e.fields["member"] == member).collect();
        assert_eq!(mine.len(), moves, "{member}");
        let last = mine.last().unwrap();
        assert_eq!((last.outcome, &last.fields["rounds_needed"]), ("dressed", &serde_json::json!(needed)));
        assert_eq!(last.fields["dresser"], dresser);
    }
}

/// H6. 000 "Awaking groups asleep": "One in group −1" is a group of one; the last sleeper of a
/// group of three with two awake rolls without it.
#[test]
fn the_last_sleeper_of_a_group_is_not_alone() {
    let g =
        "(name: \"G\", position: (10, 10), members: [(name: \"A\", state: awake), (name: \"B\", state: awake), \"C\"])";
    let m = first_waking_modifiers(g, &passer(13.0, "normal", "clothed"), "");
    assert!(m.iter().all(|(r, _)| r != "one in group"), "{m:?}");
    let m = first_waking_modifiers(&group("open", 1, "", ""), &passer(13.0, "normal", "clothed"), "");
    assert!(m.contains(&("one in group".to_string(), -1)), "{m:?}");
}

// ---- listening and investigating ----

#[test]
fn listeners_fall_asleep_when_their_moves_run_out() {
    let s = scene(
        "(name: \"G\", position: (10, 10), members: [(name: \"Ear\", state: listening(moves_left: 2))])",
        "",
        "",
        "",
        "",
    );
    let Run { log, end } = run(&s, 1, 1);
    assert_eq!(end.sleepers[0].members[0].0.state, SleeperState::Listening { moves_left: 1 });
    assert!(events(&log, "listening_ended").is_empty());
    let Run { log, end } = run(&s, 1, 2);
    assert_eq!(end.sleepers[0].members[0].0.state, SleeperState::Asleep);
    assert_eq!(events(&log, "listening_ended")[0].move_number, 2);
}

#[test]
fn listeners_respond_to_a_noise_without_a_waking_roll() {
    let listening = "(name: \"G\", position: (10, 10), members: [(name: \"Ear\", state: listening(moves_left: 3))])";
    let s = scene(listening, &passer(13.0, "furtive", "clothed"), "", "", "");
    let Run { log, .. } = run(&s, 1, 1);
    assert!(events(&log, "waking_roll").is_empty());
    assert_eq!(events(&log, "response").len(), 1);
    let s = scene(listening, &passer(13.0, "furtive", "clothed"), "", "", "sleepers: (listeners_respond: false)");
    let Run { log, .. } = run(&s, 1, 1);
    assert!(events(&log, "response").is_empty());
}

#[test]
fn a_watch_in_the_group_stays_awake() {
    let s = scene(
        "(name: \"G\", position: (10, 10), members: [(name: \"Watch\", rank: nidderling, state: awake)])",
        "(name: \"Stopper\", position: (7, 13), path: [(12, 13)])",
        "",
        "",
        "",
    );
    for seed in 0..40 {
        let Run { log, end } = run(&s, seed, 1);
        let r = events(&log, "response")[0];
        // Nidderling −2, ceased −1: D6 − 3 is 3 at most: listens or thinks nothing of it.
        assert!(["stays_awake", "listen_awake"].contains(&r.outcome), "{}", r.outcome);
        if r.outcome == "stays_awake" {
            assert_eq!(end.sleepers[0].members[0].0.state, SleeperState::Awake);
        }
    }
}

fn investigator(toward: (f32, f32)) -> String {
    format!(
        "(name: \"G\", position: (10, 10), members: [(name: \"Bero\", state: investigating(at: (10, 10), toward: ({}, {}), returning: false)), \"Sleepy\"])",
        toward.0, toward.1
    )
}

#[test]
fn an_investigator_who_comes_upon_an_intruder_raises_the_alarm() {
    let intruder = "(name: \"Thief\", side: \"party\", position: (17, 10))";
    let s = scene(&investigator((20.0, 10.0)), intruder, "", "", "");
    let Run { log, end } = run(&s, 1, 1);
    let walked = events(&log, "investigator_moved")[0];
    assert_eq!(walked.outcome, "found_intruder");
    assert_eq!(walked.fields["intruder"], "Thief");
    assert_eq!(walked.fields["to"], serde_json::json!([16.0, 10.0]), "6\" a move, clothed man on grass");
    assert_eq!(end.sleepers[0].members[0].0.state, SleeperState::Alarm);
    let alarm = events(&log, "alarm_raised")[0];
    assert_eq!(alarm.fields["members"], serde_json::json!(["Bero"]));
    // The group's sleeper hears Bero's alarm 6" away, in the open.
    let heard = events(&log, "noise_heard");
    assert!(heard.iter().any(|e| e.fields["source"] == "Bero" && e.fields["noise"] == "alarm"));
    // A figure of the group's own side is no intruder; a wall hides one.
    let friend = "(name: \"Friend\", side: \"camp\", position: (17, 10))";
    let Run { log, .. } = run(&scene(&investigator((20.0, 10.0)), friend, "", "", ""), 1, 1);
    assert_eq!(events(&log, "investigator_moved")[0].outcome, "walking");
    let wall = "(name: \"w\", kind: inner, points: [(16.5, 0), (16.5, 30)])";
    let hidden = "(name: \"Thief\", side: \"party\", position: (17.5, 10))";
    let Run { log, .. } = run(&scene(&investigator((20.0, 10.0)), hidden, wall, "", ""), 1, 1);
    assert_eq!(events(&log, "investigator_moved")[0].outcome, "walking");
    // The setting at 0 turns spotting off.
    let Run { log, .. } =
        run(&scene(&investigator((20.0, 10.0)), intruder, "", "", "sleepers: (investigator_spots_within: 0)"), 1, 1);
    assert_eq!(events(&log, "investigator_moved")[0].outcome, "walking");
}

#[test]
fn an_investigator_who_finds_nothing_walks_back_to_sleep() {
    let s = scene(&investigator((20.0, 10.0)), "", "", "", "");
    let Run { log, end } = run(&s, 1, 4);
    let walks: Vec<(&str, serde_json::Value)> =
        events(&log, "investigator_moved").iter().map(|e| (e.outcome, e.fields["to"].clone())).collect();
    use serde_json::json;
    assert_eq!(
        walks,
        [
            ("walking", json!([16.0, 10.0])),
            ("found_nothing", json!([20.0, 10.0])),
            ("walking", json!([14.0, 10.0])),
            ("back_to_sleep", json!([10.0, 10.0])),
        ]
    );
    assert_eq!(end.sleepers[0].members[0].0.state, SleeperState::Asleep);
    // A wall in the way: they go as far as it and look from there.
    let wall = "(name: \"w\", kind: outer, points: [(13, 0), (13, 30)])";
    let Run { log, .. } = run(&scene(&investigator((20.0, 10.0)), "", wall, "", ""), 1, 1);
    let e = events(&log, "investigator_moved")[0];
    assert_eq!((e.outcome, e.fields["blocked_by_wall"].as_bool()), ("found_nothing", Some(true)));
}

#[test]
fn investigators_walk_toward_the_noise_that_woke_them() {
    let s =
        scene(&group("open", 5, "rank: officer", "known_threat: true"), &passer(13.0, "normal", "clothed"), "", "", "");
    let mut seen = 0;
    for seed in 0..60 {
        let Run { log, end } = run(&s, seed, 1);
        for r in events(&log, "response").into_iter().filter(|e| e.outcome == "investigate") {
            let m = end.sleepers[0].members.iter().find(|m| r.fields["member"] == m.0.name.as_str()).unwrap();
            let SleeperState::Investigating { at, toward, returning } = m.0.state else { panic!("{:?}", m.0.state) };
            assert_eq!((at, returning), ((10.0, 10.0), false));
            assert!(
                (toward.0 - 10.0).abs() < 1e-3 && (toward.1 - 13.0).abs() < 1e-3,
                "toward the nearest point: {toward:?}"
            );
            seen += 1;
        }
    }
    assert!(seen > 5);
}

// ---- scenes ----

#[test]
fn members_as_plain_names_or_in_full_and_their_errors() {
    let ok = parse_scene(
        "(version: 1, table: (width: 20, height: 20), sleepers: [(name: \"G\", position: (5, 5), dice: Some(MD),
           members: [\"Ulf\", (name: \"Voss\", rank: officer, armour: plate, hearing: acute, state: listening(moves_left: 3))])])",
        Path::new("t.ron"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ok.sleepers[0].members[0].0.name, "Ulf");
    assert_eq!(ok.sleepers[0].members[1].0.state, SleeperState::Listening { moves_left: 3 });
    let bad = |members: &str| {
        let text = format!(
            "(version: 1, table: (width: 20, height: 20), sleepers: [(name: \"G\", position: (5, 5), members: [{members}])])"
        );
        match parse_scene(&text, Path::new("t.ron")) {
            Ok(_) => panic!("accepted {members}"),
            Err(e) => e.to_string(),
        }
    };
    let e = bad("\"Ulf\", \"Ulf\"");
    assert!(
        e.contains("sleeping group \"G\"") && e.contains("members[1] \"Ulf\"") && e.contains("has this name"),
        "{e}"
    );
    let e = bad("(name: \"Ear\", state: listening(moves_left: 0))");
    assert!(e.contains("moves_left 0"), "{e}");
    let e = bad("(name: \"Ear\", state: investigating(at: (50, 5), toward: (1, 1), returning: false))");
    assert!(e.contains("investigating at") && e.contains("off the"), "{e}");
    let e = bad("(name: \"Ear\", nose: acute)");
    assert!(e.starts_with("t.ron:1:") && e.contains("nose"), "{e}");
    let e = bad("(name: \"Ear\", rank: general)");
    assert!(e.starts_with("t.ron:1:") && e.contains("general"), "{e}");
    let e = bad("");
    assert!(e.contains("members: 0 must be 1 to 200"), "{e}");
    let e = match parse_scene(
        "(version: 1, table: (width: 20, height: 20), rules: (sleepers: (investigator_spots_within: -1)))",
        Path::new("t.ron"),
    ) {
        Ok(_) => panic!("accepted a negative distance"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("sleepers.investigator_spots_within"), "{e}");
}

fn night_camp() -> Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/night-camp.ron")).unwrap_or_else(|e| panic!("{e}"))
}

/// The night camp with the party's gait and armour replaced.
fn party_as(gait: Gait, armour: Armour) -> Scene {
    let mut scene = night_camp();
    for f in scene.figures.iter_mut().filter(|f| f.side == "party") {
        f.gait = gait;
        f.armour = armour;
    }
    scene
}

#[test]
fn a_saved_camp_continues_as_an_unbroken_run() {
    let scene = party_as(Gait::Normal, Armour::Plate);
    for seed in [1, 2, 3] {
        let Run { log: whole, .. } = run(&scene, seed, 16);
        let Run { end: halfway, .. } = run(&scene, seed, 8);
        let saved =
            parse_scene(&scene_to_ron(&halfway).unwrap(), Path::new("saved.ron")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(saved, halfway, "the saved scene reads back the same");
        let Run { log: rest, .. } = run(&saved, seed, 8);
        let tail: Vec<String> = whole.events.iter().filter(|e| e.move_number > 8).map(|e| e.to_json_line()).collect();
        let rest: Vec<String> = rest.events.iter().map(|e| e.to_json_line()).collect();
        assert_eq!(tail, rest, "seed {seed}");
        assert_eq!(run(&scene, seed, 16).log.to_json_lines(), whole.to_json_lines(), "same seed, same log");
    }
}

fn alarm_rate(scene: &Scene, seeds: u64, moves: u32) -> f64 {
    let alarms =
        (0..seeds).filter(|&seed| run(scene, seed, moves).log.events.iter().any(|e| e.event == "alarm_raised")).count();
    alarms as f64 / seeds as f64
}

#[test]
fn a_furtive_party_slips_by_more_often_than_one_in_plate() {
    // 24 moves: long enough for the furtive party to cross the whole camp.
    let furtive = alarm_rate(&night_camp(), 200, 24);
    let plate = alarm_rate(&party_as(Gait::Normal, Armour::Plate), 200, 24);
    eprintln!("night camp, alarm raised in 200 runs of 24 moves: furtive {furtive}, plate {plate}");
    // Two proportions over 200 runs each differ by far more than chance (z > 4) only if the
    // scene does what it shows.
    let pooled = (furtive + plate) / 2.0;
    let z = (plate - furtive) / (pooled * (1.0 - pooled) * 2.0 / 200.0).sqrt();
    assert!(z > 4.0, "furtive {furtive}, plate {plate}, z {z}");
}

#[test]
fn investigators_see_no_further_than_the_light_allows() {
    // Bero walks 6" east to (16, 10) and looks for an intruder within
    // `investigator_spots_within` (6" here), but no farther than one sees by the light at the
    // intruder (001 "Lighting": DDD 2" sight; DDL "range of vision limited", house rule
    // `rules.lighting.dark_sight_in`, 4" by default).
    let found = |lighting: &str, intruder_x: f32, lights: &str, lighting_rules: &str| {
        let s = scene_from_str(&format!(
            "(version: 1, table: (width: 40, height: 30), lighting: \"{lighting}\",
              rules: (sleepers: (investigator_spots_within: 6), lighting: ({lighting_rules})),
              lights: [{lights}],
              figures: [(name: \"Thief\", side: \"party\", position: ({intruder_x}, 10))],
              sleepers: [{}])",
            investigator((30.0, 10.0))
        ));
        let Run { log, .. } = run(&s, 1, 1);
        let walked = events(&log, "investigator_moved")[0];
        assert_eq!(walked.fields["to"], serde_json::json!([16.0, 10.0]));
        walked.outcome == "found_intruder"
    };
    // Daylight: 3" and 5" off, both within 6".
    assert!(found("LLL", 19.0, "", ""));
    assert!(found("LLL", 21.0, "", ""));
    // Pitch black: 3" off is not found, 1.5" off is.
    assert!(!found("DDD", 19.0, "", ""));
    assert!(found("DDD", 17.5, "", ""));
    // A strong light (intensity 1) at the intruder lifts DDD two steps to D/L: found at 3".
    let lamp = "(name: \"lamp\", position: (19, 10), range: 1, intensity: 1)";
    assert!(found("DDD", 19.0, lamp, ""));
    // ... but lifting only one step (setting) leaves DDL, seen to `dark_sight_in`.
    assert!(found("DDD", 19.0, lamp, "strong_light_steps: 1"));
    assert!(!found("DDD", 19.0, lamp, "strong_light_steps: 1, dark_sight_in: 2.5"));
    // Dark: 3" within the default 4", 5" beyond it; a shorter setting hides the 3" one.
    assert!(found("DDL", 19.0, "", ""));
    assert!(!found("DDL", 21.0, "", ""));
    assert!(!found("DDL", 19.0, "", "dark_sight_in: 2.5"));
}

/// A group of three asleep in the open at (10, 10) and a solid-timber pile [15, 16] × [9.5, 10.5]
/// burning: its nearest burning cell centre (15.05, 10) is 5.05" off, within the 6" earshot.
fn fire_scene(pile_x: f32, rules: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 30, height: 20), rules: ({rules}),
          terrain: [(name: \"pile\", material: solid_timber, shape: Rect(min: ({pile_x}, 9.5), max: ({}, 10.5)))],
          fires: [(name: \"blaze\", position: ({}, 10), diameter: 1)],
          sleepers: [{}])",
        pile_x + 1.0,
        pile_x + 0.5,
        group("open", 3, "", "")
    ))
}

#[test]
fn a_fire_in_earshot_wakes_like_a_shout() {
    // 000 "Awaking groups asleep": "Shouts or Screams +4" (house rule `fire_noise: shout`); three
    // asleep, nothing else: D6 + 4 is 5..10: bands one wakes (5) 1/6, two (6) 1/6, three (7)
    // 1/6, all (8+) 3/6.
    let s = fire_scene(15.0, "");
    let mut observed = [0u32; 5];
    for seed in 0..300 {
        let Run { log, .. } = run(&s, seed, 1);
        // (Woken members may raise the alarm: that is a noise of their own.)
        let made: Vec<&LogEvent> = events(&log, "noise_made").into_iter().filter(|e| e.subject == "pile").collect();
        assert_eq!(made.len(), 1, "one noise a move for the group");
        assert_eq!(made[0].subject, "pile", "named after the fire's region");
        assert_eq!(made[0].fields["noise"], "shout");
        let round = made[0].fields["round"].as_u64().unwrap();
        assert!((1..=2).contains(&round), "made in a round of the move: {round}");
        let first = events(&log, "waking_roll")[0];
        assert!(modifiers(first).iter().any(|(_, v)| *v == 4), "{:?}", modifiers(first));
        observed[WAKING_IDS.iter().position(|id| *id == first.outcome).unwrap()] += 1;
    }
    let expected = d6_bands(4, 5, waking_band);
    let chi = chi_square(&observed, &expected);
    // 99.9% critical value of chi-square with 4 degrees of freedom.
    assert!(chi < 18.47, "chi-square {chi}, observed {observed:?}, expected {expected:?}");

    // The setting chooses the noise.
    let Run { log, .. } = run(&fire_scene(15.0, "sleepers: (fire_noise: scream)"), 1, 1);
    assert_eq!(events(&log, "noise_made")[0].fields["noise"], "scream");
    // Beyond earshot (the pile from x = 16.5: 6.55" off): no noise, no roll.
    let Run { log, .. } = run(&fire_scene(16.5, ""), 1, 1);
    assert!(events(&log, "noise_made").is_empty());
    assert!(events(&log, "waking_roll").is_empty());
}
