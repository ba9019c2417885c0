//! Writes a generated scene: the stress scene for measuring the GM view (2,000 figures, 500
//! traps, 50 herds of 20 and a 72"x48" table of brushwood burning from its centre), or one of the
//! worst scenes `check` accepts, for timing a move (issue 16; `docs/performance.md`).
//!
//! ```sh
//! cargo run --release --example stress_scene > /tmp/stress.ron
//! tabula open /tmp/stress.ron --moves 20 --measure-frames 300
//! cargo run --release --example stress_scene -- worst-fire-paint > /tmp/paint.ron
//! ```

use tabula::scene::stress;

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "stress".to_string());
    let scene = match which.as_str() {
        "stress" => stress::stress_scene_ron(),
        "worst-fire-paint" => stress::worst_fire_paint_ron(),
        "worst-fire-ignitions" => stress::worst_fire_ignitions_ron(),
        "worst-fire-burnout" => stress::worst_fire_burnout_ron(),
        "worst-herds-walls" => stress::worst_herds_walls_ron(),
        "worst-traps-figures" => stress::worst_traps_figures_ron(),
        "worst-crowd" => stress::worst_crowd_ron(),
        "worst-sleepers" => stress::worst_sleepers_ron(),
        other => {
            eprintln!(
                "unknown scene {other:?}: stress, worst-fire-paint, worst-fire-ignitions, worst-fire-burnout, worst-herds-walls, worst-traps-figures, worst-crowd or worst-sleepers"
            );
            std::process::exit(2);
        }
    };
    print!("{scene}");
}
