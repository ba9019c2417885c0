//! A generated scene for benchmarks and the GM view's frame-time measure.

/// The stress scene for measuring the view and a busy move: 2,000 figures walking the width
/// of a 72"x48" table of brushwood, 500 loop traps, 50 herds of 20 cows, and a fire at the
/// centre.
pub fn stress_scene_ron() -> String {
    use std::fmt::Write;
    let mut s = String::new();
    s.push_str(
        "(\n    version: 1,\n    title: \"Stress: 2000 figures, 500 traps, 50 herds of 20, a burning table\",\n",
    );
    s.push_str("    table: (width: 72, height: 48),\n    seed: 1,\n");
    s.push_str("    terrain: [(name: \"brushwood\", material: brushwood, shape: Rect(min: (0, 0), max: (72, 48)))],\n");
    s.push_str("    figures: [\n");
    for i in 0..2000 {
        let x = 1.0 + (i % 50) as f32 * 1.4;
        let y = 1.0 + (i / 50) as f32 * 1.15;
        let _ = writeln!(
            s,
            "        (name: \"figure {i}\", position: ({x:.2}, {y:.2}), path: [({:.2}, {y:.2}), ({x:.2}, {y:.2})]),",
            71.0 - x
        );
    }
    s.push_str("    ],\n    traps: [\n");
    for i in 0..500 {
        let x = 2.0 + (i % 25) as f32 * 2.8;
        let y = 2.0 + (i / 25) as f32 * 2.2;
        let _ = writeln!(
            s,
            "        (name: \"trap {i}\", kind: loop, position: ({x:.2}, {y:.2}), concealment: Some(NC), side: Some(\"GM\")),"
        );
    }
    s.push_str("    ],\n    fires: [(name: \"blaze\", position: (36, 24), diameter: 1.0)],\n    herds: [\n");
    for i in 0..50 {
        let x = 4.0 + (i % 10) as f32 * 7.0;
        let y = 5.0 + (i / 10) as f32 * 9.0;
        let _ = writeln!(
            s,
            "        (name: \"herd {i}\", beast: cow, count: 20, position: ({x:.1}, {y:.1}), heading: {}),",
            (i * 37) % 360
        );
    }
    s.push_str("    ],\n)\n");
    s
}

/// The worst scene for painting the fire grid that `check` accepts, near the 16 MiB file limit:
/// a 1000" × 1000" table (1024 × 1024 cells of about 0.98") under 80 comb-shaped polygons of
/// 10,000 points each whose teeth run the table's full height, so every row of cells is crossed
/// 800,000 times, and a fire that makes the grid be built.
pub fn worst_fire_paint_ron() -> String {
    use std::fmt::Write;
    let mut s =
        String::from("(version: 1, title: \"Worst fire painting\", table: (width: 1000, height: 1000),\n terrain: [\n");
    let materials = ["thatch", "hay", "brushwood", "stone"];
    for r in 0..80 {
        let _ = write!(s, "  (name: \"comb {r}\", material: {}, shape: Polygon(points: [", materials[r % 4]);
        let teeth = 5_000;
        for t in 0..teeth {
            let x = (t as f32 + (r as f32) / 80.0) * 1000.0 / teeth as f32;
            let (top, bottom) = if t % 2 == 0 { (999.5, 0.5) } else { (0.5, 999.5) };
            let _ = write!(s, "({x:.2},{top}),({:.2},{bottom}),", x + 0.1);
        }
        s.push_str("])),\n");
    }
    s.push_str(" ],\n fires: [(name: \"spark\", position: (500, 500))],\n)\n");
    s
}

/// The worst scene for replaying listed ignitions that `check` accepts: a 1000" × 1000" table of
/// brushwood, 10 moves played, and 100,000 ignitions of 3.5" radius (together just under 4
/// tables' area, the limit) at times spread over the 20 rounds played.
pub fn worst_fire_ignitions_ron() -> String {
    use std::fmt::Write;
    let mut s = String::from(
        "(version: 1, title: \"Worst ignitions\", table: (width: 1000, height: 1000), clock: (moves_played: 10),\n terrain: [(name: \"brushwood\", material: brushwood, shape: Rect(min: (0, 0), max: (1000, 1000)))],\n ignitions: [\n",
    );
    for i in 0..100_000u32 {
        let x = (i.wrapping_mul(7_919) % 1000) as f32 + 0.5;
        let y = (i.wrapping_mul(104_729) % 997) as f32 + 0.5;
        let _ = writeln!(s, "  (time: {}, position: ({x}, {y}), radius: 3.5, source: \"i\"),", (i % 20) as f32);
    }
    s.push_str(" ],\n)\n");
    s
}

/// The worst single move for the fire front that `check` accepts: a 1000" × 1000" table of oil
/// (1" a round) lit by one fire covering it all (a disc of 4 tables' area, the limit), so every
/// one of the 1,048,576 cells catches in the first round and burns out two rounds later.
pub fn worst_fire_burnout_ron() -> String {
    "(version: 1, title: \"Worst burn-out\", table: (width: 1000, height: 1000),
 terrain: [(name: \"oil\", material: oil, shape: Rect(min: (0, 0), max: (1000, 1000)))],
 fires: [(name: \"everything\", position: (500, 500), diameter: 2256)],
)
"
    .to_string()
}
