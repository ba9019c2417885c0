//! Sight through the simulation (issue #17, docs/sight.md): what the players' side sees past
//! walls and doors, what a burning fire lights, the explored fog saved and loaded, and the rules
//! that need line of sight (spotting a Morval trap, a woken investigator, a sight tracker), each
//! with a wall or closed door that blocks it and the same scene without.

mod common;

use bevy::prelude::*;
use common::scene_from_str;
use std::path::Path;
use tabula::scene::{Scene, parse_scene, scene_to_ron};
use tabula::sim::log::LogEvent;
use tabula::sim::sight::{ExploredFog, PartySight, SceneSight};
use tabula::sim::{EventLog, Run, Simulation, run};

fn events<'a>(log: &'a EventLog, event: &str) -> Vec<&'a LogEvent> {
    log.events.iter().filter(|e| e.event == event).collect()
}

/// A 30×20 table, a room from (15, 5) to (25, 15) with a door in its west wall from (15, 9) to
/// (15, 11), and whatever figures are given.
fn room(door_open: bool, figures: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 30, height: 20),
          walls: [
            (name: \"room\", points: [(15, 11), (15, 15), (25, 15), (25, 5), (15, 5), (15, 9)]),
          ],
          doors: [(name: \"door\", from: (15, 9), to: (15, 11), open: {door_open})],
          figures: [{figures}])"
    ))
}

fn party_sees(sim: &Simulation, x: f32, y: f32) -> bool {
    sim.world().resource::<PartySight>().sees(Vec2::new(x, y))
}

fn explored_at(sim: &Simulation, x: f32, y: f32) -> bool {
    let fog = sim.world().resource::<ExploredFog>();
    fog.grid().cell_at(x, y).is_some_and(|i| fog.is_explored(i))
}

#[test]
fn a_closed_door_hides_the_room_and_an_open_one_lets_sight_in() {
    let hero = "(name: \"Hero\", position: (5, 10))";
    let closed = Simulation::new(&room(false, hero), 1);
    assert!(party_sees(&closed, 10.0, 10.0) && party_sees(&closed, 5.0, 18.0), "the open floor outside");
    assert!(!party_sees(&closed, 20.0, 10.0), "the room behind the closed door");
    let open = Simulation::new(&room(true, hero), 1);
    assert!(party_sees(&open, 20.0, 10.0), "through the open doorway");
    assert!(!party_sees(&open, 20.0, 6.0), "the room's corner, out of line with the doorway");
    // A figure of another side sees nothing for the fog.
    let enemy = "(name: \"Orc\", side: \"raiders\", position: (5, 10))";
    let theirs = Simulation::new(&room(true, enemy), 1);
    assert!(!party_sees(&theirs, 10.0, 10.0));
}

#[test]
fn a_concave_room_hides_its_far_arm() {
    // An L-shaped room: from the end of one arm the other arm's far end is round the corner.
    let scene = scene_from_str(
        "(version: 1, table: (width: 30, height: 30),
          walls: [(name: \"L\", points: [(2, 2), (28, 2), (28, 10), (10, 10), (10, 28), (2, 28), (2, 2)])],
          figures: [(name: \"Hero\", position: (26, 6))])",
    );
    let sim = Simulation::new(&scene, 1);
    assert!(party_sees(&sim, 4.0, 4.0) && party_sees(&sim, 12.0, 8.0));
    assert!(!party_sees(&sim, 6.0, 26.0), "round the corner");
    assert!(!party_sees(&sim, 20.0, 20.0), "outside the room");
}

#[test]
fn explored_cells_accumulate_move_by_move_and_save_with_the_scene() {
    // The hero walks past the open doorway: at the start he sees only the open floor; after a
    // move he has seen into the room, and it stays explored once he is past.
    let hero = "(name: \"Hero\", position: (5, 3), move_rate: 6, path: [(5, 10), (5, 17)])";
    let scene = room(true, hero);
    let mut sim = Simulation::new(&scene, 1);
    assert!(!explored_at(&sim, 20.0, 10.0), "nothing explored before the first move");
    assert!(sim.scene_now().expect("a scene").fog.is_none(), "and nothing saved");
    sim.step_moves(1);
    assert!(explored_at(&sim, 20.0, 10.0) && party_sees(&sim, 20.0, 10.0), "seen through the doorway");
    sim.step_moves(1);
    assert!(!party_sees(&sim, 20.0, 10.0), "past the doorway he no longer sees in");
    assert!(explored_at(&sim, 20.0, 10.0), "still explored once out of sight");
    assert!(!explored_at(&sim, 24.0, 14.0), "never in sight");
    let saved = sim.scene_now().expect("a scene");
    assert!(saved.fog.is_some());
    assert!(tabula::scene::load::validate(&saved).is_empty(), "the saved scene loads");
    // Through the file and back, and a run that continues from the save ends as an unbroken one.
    let text = scene_to_ron(&saved).expect("serialize");
    let reloaded = parse_scene(&text, Path::new("<saved>")).expect("the saved scene parses");
    assert_eq!(reloaded.fog, saved.fog);
    let loaded = Simulation::new(&reloaded, 1);
    assert_eq!(loaded.world().resource::<ExploredFog>(), sim.world().resource::<ExploredFog>());
    let whole = run(&scene, 1, 3).end;
    let continued = run(&run(&scene, 1, 2).end, 1, 1).end;
    assert_eq!(whole.fog, continued.fog);
}

/// Pitch black (DDD, 2" sight): a watcher at (5, 5) and a pit 10" east of him at (15, 5); a
/// hay rick from (16, 3) to (18, 7), 1" beyond the pit, set burning at (17, 5) when `fire`; a
/// wall across the table at x = 10 when `wall`.
fn dark_pit(fire: bool, wall: bool) -> Scene {
    let fires = if fire { "fires: [(name: \"blaze\", position: (17, 5), diameter: 2)]," } else { "" };
    let walls = if wall { "walls: [(name: \"w\", points: [(10, 0), (10, 10)])]," } else { "" };
    scene_from_str(&format!(
        "(version: 1, table: (width: 30, height: 10), lighting: \"DDD\",
          terrain: [(name: \"rick\", material: hay, shape: Rect(min: (16, 3), max: (18, 7)))],
          {fires} {walls}
          figures: [(name: \"Watcher\", position: (5, 5))],
          traps: [(name: \"pit\", kind: pit(depth: 1, bottom: earth), position: (15, 5), concealment: Some(LC))])"
    ))
}

/// Whether the watcher sees the pit, as the fog has it and as the rules ask it (his own 2").
fn watcher_sees_pit(sim: &Simulation) -> (bool, bool) {
    let sight = sim.world().resource::<SceneSight>();
    (party_sees(sim, 15.0, 5.0), sight.visible(Vec2::new(5.0, 5.0), Vec2::new(15.0, 5.0), 2.0))
}

#[test]
fn a_fire_lights_a_trap_in_the_dark_but_not_through_a_wall() {
    // Before the first move nothing burns: 10" off in pitch black, the pit is not seen.
    let mut sim = Simulation::new(&dark_pit(true, false), 1);
    assert_eq!(watcher_sees_pit(&sim), (false, false), "before the fire");
    assert!(party_sees(&sim, 6.5, 5.0), "his own 2\"");
    // The blaze catches at once (the hay within 1" of it, up to the rick's west edge at x = 16)
    // and the rick burns through the move (hay burns out after 3 rounds): the pit, 1" from the
    // burning ground, lies in the 3" margin, and in his line of sight.
    sim.step_moves(1);
    let sight = sim.world().resource::<SceneSight>();
    assert!(sight.lit_by_fire(Vec2::new(15.0, 5.0)) && sight.lit_by_fire(Vec2::new(17.0, 5.0)));
    assert_eq!(watcher_sees_pit(&sim), (true, true), "lit by the fire");
    assert!(explored_at(&sim, 15.0, 5.0), "and explored");
    assert!(!party_sees(&sim, 9.0, 5.0), "7\" from the fire, beyond its margin: dark");
    // Without the fire the pit stays unseen after the move.
    let mut unlit = Simulation::new(&dark_pit(false, false), 1);
    unlit.step_moves(1);
    assert_eq!(watcher_sees_pit(&unlit), (false, false), "no fire");
    // A wall between: the fire lights the pit, but the watcher has no line of sight to it.
    let mut walled = Simulation::new(&dark_pit(true, true), 1);
    walled.step_moves(1);
    assert!(walled.world().resource::<SceneSight>().lit_by_fire(Vec2::new(15.0, 5.0)), "lit all the same");
    assert_eq!(watcher_sees_pit(&walled), (false, false), "through the wall");
}

#[test]
fn a_fog_for_another_table_is_refused() {
    let scene = room(false, "(name: \"Hero\", position: (5, 10), path: [(5, 12)])");
    let mut saved = run(&scene, 1, 1).end;
    let fog = saved.fog.clone().expect("explored");
    saved.table.width = 40.0;
    let problems = tabula::scene::load::validate(&saved);
    assert!(problems.iter().any(|p| p.entity == "fog" && p.message.contains("remove fog")), "{problems:?}");
    saved.table.width = 30.0;
    saved.fog = Some(tabula::scene::fog::FogState { explored: "AAAA".into(), ..fog });
    let problems = tabula::scene::load::validate(&saved);
    assert!(problems.iter().any(|p| p.entity == "fog" && p.message.contains("explored")), "{problems:?}");
}

// ---- rules that need sight ----

/// A walker along y = 2 passes within 2" of a loosely concealed pit at (10, 3.5) that he always
/// spots when he may check (target −20); a wall along y = 3, with a door from (9, 3) to (11, 3)
/// in it, lies between when given.
fn pit_walk(walls: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 40, height: 10),
          rules: (traps: (morval: (loosely_concealed_spot_target: -20))),
          {walls}
          figures: [(name: \"Walker\", position: (4, 2), path: [(30, 2)])],
          traps: [(name: \"pit\", kind: pit(depth: 1, bottom: earth), position: (10, 3.5), concealment: Some(LC))])"
    ))
}

fn spot_outcomes(scene: &Scene) -> Vec<String> {
    let Run { log, .. } = run(scene, 1, 2);
    events(&log, "spot_check").iter().map(|e| e.outcome.to_string()).collect()
}

#[test]
fn a_trap_behind_a_wall_or_a_closed_door_is_not_spotted() {
    assert_eq!(spot_outcomes(&pit_walk("")), ["spotted"], "in the open");
    let wall = "walls: [(name: \"w\", points: [(0, 3), (40, 3)])],";
    assert_eq!(spot_outcomes(&pit_walk(wall)), ["not_in_sight"]);
    let with_door = |open: bool| {
        format!(
            "walls: [(name: \"w1\", points: [(0, 3), (9, 3)]), (name: \"w2\", points: [(11, 3), (40, 3)])],
             doors: [(name: \"d\", from: (9, 3), to: (11, 3), open: {open})],"
        )
    };
    // From (8, 2), where he first comes within 2", the sight line crosses y = 3 at x ≈ 9.3: the door.
    assert_eq!(spot_outcomes(&pit_walk(&with_door(false))), ["not_in_sight"]);
    assert_eq!(spot_outcomes(&pit_walk(&with_door(true))), ["spotted"]);
    // A check out of sight rolls nothing and reveals nothing.
    let Run { log, end } = run(&pit_walk(wall), 1, 2);
    assert!(events(&log, "spot_check").iter().all(|e| e.rolls.is_empty()));
    assert!(!end.traps[0].revealed);
}

/// An investigator of a woken group walks from (10, 10) toward (20, 10) and stops at (16, 10);
/// an intruder of the party stands at (17, 10); a wall at x = 16.5 with a door or window from
/// (16.5, 9) to (16.5, 11) when given.
fn investigation(doors: &str) -> Scene {
    let walls = if doors.is_empty() {
        String::new()
    } else {
        "(name: \"w1\", points: [(16.5, 0), (16.5, 9)]), (name: \"w2\", points: [(16.5, 11), (16.5, 30)])".to_string()
    };
    scene_from_str(&format!(
        "(version: 1, table: (width: 40, height: 30), walls: [{walls}], doors: [{doors}],
          figures: [(name: \"Thief\", side: \"party\", position: (17, 10))],
          sleepers: [(name: \"G\", position: (10, 10), members: [
            (name: \"Bero\", state: investigating(at: (10, 10), toward: (20, 10), returning: false)), \"Sleepy\"])])"
    ))
}

fn investigator_outcome(scene: &Scene) -> String {
    let Run { log, .. } = run(scene, 1, 1);
    events(&log, "investigator_moved")[0].outcome.to_string()
}

#[test]
fn an_investigator_spots_an_intruder_only_in_sight() {
    assert_eq!(investigator_outcome(&investigation("")), "found_intruder");
    let door =
        |open: bool, kind: &str| format!("(name: \"d\", kind: {kind}, from: (16.5, 9), to: (16.5, 11), open: {open})");
    // Before issue #17 a closed door in a gap of the wall hid nothing (only walls counted).
    assert_eq!(investigator_outcome(&investigation(&door(false, "door"))), "walking");
    assert_eq!(investigator_outcome(&investigation(&door(true, "door"))), "found_intruder");
    // A window, shut or open, lets sight through.
    assert_eq!(investigator_outcome(&investigation(&door(false, "window"))), "found_intruder");
}

/// A ranger tracking by sight stands 0.4" north of y = 10; his quarry's fresh trail runs 0.4"
/// south of it; a wall along y = 10 between them when given.
fn ranger(walls: &str) -> Scene {
    scene_from_str(&format!(
        "(version: 1, table: (width: 40, height: 20), walls: [{walls}],
          figures: [(name: \"Fugitive\", position: (30, 9.6)), (name: \"Ranger\", position: (2, 10.4))],
          trails: (
            trails: [(name: \"fresh\", quarry: \"Fugitive\", points: [(at: (2, 9.6), age_moves: 1), (at: (30, 9.6), age_moves: 1)])],
            trackers: [(figure: \"Ranger\", quarry: \"Fugitive\", sense: sight(level: 3))]))"
    ))
}

#[test]
fn a_sight_tracker_reads_the_trail_only_where_he_sees_it() {
    let Run { log, .. } = run(&ranger(""), 1, 1);
    assert_eq!(events(&log, "sight_tracking").len(), 1, "in the open he reads it");
    assert!(events(&log, "trail_not_in_sight").is_empty());
    let wall = "(name: \"w\", points: [(0, 10), (40, 10)])";
    let Run { log, end } = run(&ranger(wall), 1, 1);
    assert!(events(&log, "sight_tracking").is_empty(), "no roll through the wall");
    let blocked = events(&log, "trail_not_in_sight");
    assert_eq!(blocked.len(), 1);
    assert_eq!(blocked[0].outcome, "not_in_sight");
    let at = end.figures.iter().find(|f| f.name == "Ranger").expect("the ranger").position;
    assert_eq!(at, (2.0, 10.4), "he stays");
}

/// Pitch black (DDD, 2" sight), an investigator reaching 6" (`investigator_spots_within`): he
/// stops at (16, 10) and the intruder stands 3.5" off at (19.5, 10), beyond the dark's 2". A hay
/// rick burning from x = 20 (this move's fire: Sleepers runs after Fire) lights the intruder, who
/// is then spotted from the full reach.
#[test]
fn a_fire_lets_an_investigator_spot_an_intruder_in_the_dark() {
    let scene = |fire: bool| {
        let fires = if fire { "fires: [(name: \"blaze\", position: (21, 10), diameter: 2)]," } else { "" };
        scene_from_str(&format!(
            "(version: 1, table: (width: 40, height: 30), lighting: \"DDD\",
              terrain: [(name: \"rick\", material: hay, shape: Rect(min: (20, 8), max: (22, 12)))],
              {fires}
              figures: [(name: \"Thief\", side: \"party\", position: (19.5, 10))],
              sleepers: [(name: \"G\", position: (10, 10), members: [
                (name: \"Bero\", state: investigating(at: (10, 10), toward: (20, 10), returning: false)), \"Sleepy\"])],
              rules: (sleepers: (investigator_spots_within: 6)))"
        ))
    };
    assert_ne!(investigator_outcome(&scene(false)), "found_intruder", "hidden by the dark");
    assert_eq!(investigator_outcome(&scene(true)), "found_intruder", "lit by the fire");
}
