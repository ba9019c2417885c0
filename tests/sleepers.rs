//! Sleepers through the simulation: earshot by shelter, walls, waking and response distributions
//! against the text, alarms spreading, dressing, and the night camp.

use std::path::Path;
use tabula::cli::simulate;
use tabula::rules::character::{Armour, Gait};
use tabula::scene::{Scene, load_scene};

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

fn alarm_rate(scene: &Scene, seeds: u64, moves: u32) -> f64 {
    let alarms = (0..seeds)
        .filter(|&seed| simulate(scene, seed, moves).0.events.iter().any(|e| e.event == "alarm_raised"))
        .count();
    alarms as f64 / seeds as f64
}

#[test]
fn a_furtive_party_slips_by_more_often_than_one_in_plate() {
    let furtive = alarm_rate(&night_camp(), 200, 24);
    let plate = alarm_rate(&party_as(Gait::Normal, Armour::Plate), 200, 24);
    let cautious = alarm_rate(&party_as(Gait::Cautious, Armour::Clothed), 200, 24);
    eprintln!("alarm rates over 200 seeds: furtive {furtive}, cautious {cautious}, plate {plate}");
    assert!(furtive < plate);
}
