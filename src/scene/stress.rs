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
