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

/// The worst scene for painting the fire grid that `check` accepts: a 1000" × 1000" table
/// (1024 × 1024 cells of about 0.98") under two comb-shaped polygons of 10,000 points each (the
/// terrain's 20,000 in all) whose teeth run the table's full height, so every row of cells is
/// crossed 20,000 times, and 1,998 circles one over another covering most of the table (2,000
/// regions in all, the limit), with a fire that makes the grid be built.
pub fn worst_fire_paint_ron() -> String {
    use std::fmt::Write;
    let mut s =
        String::from("(version: 1, title: \"Worst fire painting\", table: (width: 1000, height: 1000),\n terrain: [\n");
    let materials = ["thatch", "hay", "brushwood", "rock"];
    for r in 0..2 {
        let _ = write!(s, "  (name: \"comb {r}\", material: {}, shape: Polygon(points: [", materials[r % 4]);
        let teeth = 5_000;
        for t in 0..teeth {
            let x = (t as f32 + (r as f32) / 2.0) * 999.0 / teeth as f32;
            let (top, bottom) = if t % 2 == 0 { (999.5, 0.5) } else { (0.5, 999.5) };
            let _ = write!(s, "({x:.2},{top}),({:.2},{bottom}),", x + 0.1);
        }
        s.push_str("])),\n");
    }
    // One disc over another: the table's corners stay unpainted, so every row of every disc is
    // worked out (nothing is skipped as already painted).
    for r in 0..1_998 {
        let _ = writeln!(
            s,
            "  (name: \"disc {r}\", material: {}, shape: Circle(center: (500, 500), radius: 500)),",
            materials[r % 4]
        );
    }
    s.push_str(" ],\n fires: [(name: \"spark\", position: (500, 500))],\n)\n");
    s
}

/// The worst scene for replaying listed ignitions that `check` accepts: a 1000" × 1000" table of
/// brushwood, 10 moves played, and 10,000 ignitions (the limit) of 7.9" radius (together just
/// under twice the table's area, the limit) at times spread over the 20 rounds played.
pub fn worst_fire_ignitions_ron() -> String {
    use std::fmt::Write;
    let mut s = String::from(
        "(version: 1, title: \"Worst ignitions\", table: (width: 1000, height: 1000), clock: (moves_played: 10),\n terrain: [(name: \"brushwood\", material: brushwood, shape: Rect(min: (0, 0), max: (1000, 1000)))],\n ignitions: [\n",
    );
    for i in 0..10_000u32 {
        let x = (i.wrapping_mul(7_919) % 1000) as f32 + 0.5;
        let y = (i.wrapping_mul(104_729) % 997) as f32 + 0.5;
        let _ = writeln!(s, "  (time: {}, position: ({x}, {y}), radius: 7.9, source: \"i\"),", (i % 20) as f32);
    }
    s.push_str(" ],\n)\n");
    s
}

/// The worst single move for the fire front that `check` accepts: a 1000" × 1000" table of oil
/// (1" a round) lit by 10,000 fires (the limit) 10" apart, each 10.2" across (together 0.82 of the
/// table's area, within the limit), so every one of the 1,048,576 cells catches within the first
/// move's two rounds and burns out two rounds later.
pub fn worst_fire_burnout_ron() -> String {
    use std::fmt::Write;
    let mut s = String::from(
        "(version: 1, title: \"Worst burn-out\", table: (width: 1000, height: 1000),\n terrain: [(name: \"oil\", material: oil, shape: Rect(min: (0, 0), max: (1000, 1000)))],\n fires: [\n",
    );
    for i in 0..10_000 {
        let _ = writeln!(
            s,
            "  (name: \"fire {i}\", position: ({}, {}), diameter: 10.2),",
            5 + (i % 100) * 10,
            5 + (i / 100) * 10
        );
    }
    s.push_str(" ],\n)\n");
    s
}

/// The worst crowd `check` accepts: the tomb with its party joined by 1,996 copies of its
/// captain, all standing on one spot and walking one path (2,000 figures, the limit), so every
/// trap one of them springs counts all the others as bystanders.
pub fn worst_crowd_ron() -> String {
    use std::fmt::Write;
    let tomb = include_str!("../../scenes/tomb.ron");
    let Some(at) = tomb.find("figures: [").map(|i| i + "figures: [".len()) else { return tomb.to_string() };
    let mut crowd = String::from("\n");
    for k in 0..super::load::MAX_FIGURES - 4 {
        let _ = writeln!(
            crowd,
            "        (name: \"crowd {k}\", side: \"party\", position: (3, 11), gait: cautious, armour: medium, adventurer: true, shield: true, path: [(20, 11), (38, 11), (43, 11)], mordheim: (ws: 4, s: 4, t: 3, w: 2, i: 4, sv: Some(5))),"
        );
    }
    format!("{}{crowd}{}", &tomb[..at], &tomb[at..])
}

/// The worst sleeping camp `check` accepts: the night camp with 496 more groups of four (500
/// groups and 2,000 sleepers, the limits) packed round it in earshot of one another, so every
/// noise a waking group makes is heard by all the others.
pub fn worst_sleepers_ron() -> String {
    use std::fmt::Write;
    let camp = include_str!("../../scenes/night-camp.ron");
    let Some(at) = camp.find("sleepers: [").map(|i| i + "sleepers: [".len()) else { return camp.to_string() };
    let mut groups = String::from("\n");
    for g in 0..super::load::MAX_SLEEPING_GROUPS - 4 {
        let (x, y) = (4.0 + (g % 31) as f32 * 1.3, 4.0 + (g / 31) as f32 * 1.7);
        let _ = writeln!(
            groups,
            "        (name: \"camp {g}\", position: ({x:.1}, {y:.1}), shelter: open, members: [(name: \"a{g}\", rank: officer), (name: \"b{g}\"), (name: \"c{g}\", hearing: acute), (name: \"d{g}\", armour: plate)]),"
        );
    }
    format!("{}{groups}{}", &camp[..at], &camp[at..])
}

/// Herds of the largest size penned in by walls of the most points, on the largest table: the
/// worst accepted scene for beasts stopped by walls. On a 1000"x1000" table, an outer ring wall
/// of [`MAX_POINTS`](super::load::MAX_POINTS) points holds 16 pens, each a ring of
/// `MAX_POINTS` points 22" across the radius round a herd of
/// [`MAX_HERD_SIZE`](super::load::MAX_HERD_SIZE) beasts (cows and sheep, half of them
/// stampeding, the rest wandering), so every beast's step and every push apart runs along a
/// wall of thousands of points.
pub fn worst_herds_walls_ron() -> String {
    use super::load::{MAX_HERD_SIZE, MAX_POINTS, MAX_TABLE_INCHES};
    use std::fmt::Write;
    let size = MAX_TABLE_INCHES;
    let ring = |s: &mut String, name: &str, centre: (f32, f32), radius: f32| {
        let _ = write!(s, "        (name: \"{name}\", kind: outer, points: [");
        for k in 0..MAX_POINTS {
            // The last point closes the ring on the first.
            let a = (k % (MAX_POINTS - 1)) as f32 / (MAX_POINTS - 1) as f32 * std::f32::consts::TAU;
            let _ = write!(s, "({:.3}, {:.3}), ", centre.0 + radius * a.cos(), centre.1 + radius * a.sin());
        }
        s.push_str("]),\n");
    };
    let mut s = String::new();
    s.push_str("(\n    version: 1,\n    title: \"Worst herds: 16 herds of 1000 in pens of 10000-point walls\",\n");
    let _ = writeln!(s, "    table: (width: {size}, height: {size}),\n    seed: 1,");
    s.push_str("    walls: [\n");
    ring(&mut s, "outer ring", (size / 2.0, size / 2.0), size / 2.0 - 10.0);
    let centres: Vec<(f32, f32)> =
        (0..16).map(|i| (200.0 + (i % 4) as f32 * 200.0, 200.0 + (i / 4) as f32 * 200.0)).collect();
    for (i, &c) in centres.iter().enumerate() {
        ring(&mut s, &format!("pen {i}"), c, 22.0);
    }
    s.push_str("    ],\n    herds: [\n");
    for (i, &(x, y)) in centres.iter().enumerate() {
        let beast = if i % 4 == 3 { "sheep" } else { "cow" };
        let stampede = if i % 2 == 0 { 5 } else { 0 };
        let _ = writeln!(
            s,
            "        (name: \"herd {i}\", beast: {beast}, count: {MAX_HERD_SIZE}, position: ({x}, {y}), heading: {}, stampede: {stampede}),",
            (i * 67) % 360
        );
    }
    s.push_str("    ],\n)\n");
    s
}

/// The most figures and traps a scene may hold, crowded as the tomb's corridor is: the worst
/// accepted scene for traps met by figures. [`MAX_ENTITIES_PER_KIND`](super::load::MAX_ENTITIES_PER_KIND)
/// figures (each with a Mordheim profile, a fifth of them running) stand 3" apart in 100 rows
/// on a 320"x305" table in the dark, each walking 12" along its row; as many traps lie between
/// them along the rows, 3" apart: Khemri counters of every complex kind and simple ones, and
/// Morval pits, loops, missile treadles, falling floors and trip cords. Every figure walks over
/// four traps a move with eight neighbours within reach of each.
pub fn worst_traps_figures_ron() -> String {
    use super::load::{MAX_ENTITIES_PER_KIND, MAX_FIGURES};
    use std::fmt::Write;
    let side = 100;
    let count = MAX_ENTITIES_PER_KIND.min(side * side);
    let mut s = String::new();
    s.push_str("(\n    version: 1,\n    title: \"Worst traps: 2000 figures walking over 10000 traps\",\n");
    s.push_str("    table: (width: 320, height: 305),\n    seed: 7,\n    lighting: \"DDL\",\n    figures: [\n");
    // Figures every fifth trap row, so each walks over traps of every kind.
    for i in 0..MAX_FIGURES {
        let (x, y) = (2.0 + (i % side) as f32 * 3.0, 2.0 + (i / side * 5) as f32 * 3.0);
        let gait = if i % 5 == 0 { ", gait: running" } else { "" };
        let _ = writeln!(
            s,
            "        (name: \"figure {i}\", side: \"party\", position: ({x}, {y}), path: [({}, {y})]{gait}, mordheim: (ws: 3, s: 3, t: 3, w: 2, i: 3)),",
            x + 12.0
        );
    }
    s.push_str("    ],\n    traps: [\n");
    let complex = ["boulder", "arrows", "swinging_blades", "poison_gas", "fire_trap", "pit", "collapsing_walls"];
    for i in 0..count {
        let (x, y) = (3.5 + (i % side) as f32 * 3.0, 2.0 + (i / side) as f32 * 3.0);
        let kind = match i % 13 {
            k @ 0..=6 => {
                let hall = if k == 0 { ", hall: Some(0)" } else { "" };
                format!("khemri(drawn: Some(complex), complex: Some({}){hall})", complex[k])
            }
            7 => "khemri(drawn: Some(simple))".to_string(),
            8 => "pit(depth: 2, bottom: spiked), radius: 1, concealment: Some(NC)".to_string(),
            9 => "loop, concealment: Some(NC)".to_string(),
            10 => "treadle(payload: (kind: hail_of_missiles, strike: 1)), concealment: Some(NC)".to_string(),
            11 => "falling_floor(depth: 3, bottom: rocky, gives_way_at: Some(2)), radius: 1.2, concealment: Some(NC)"
                .to_string(),
            _ => format!("trip_cord(to: ({x}, {})), concealment: Some(LC)", y + 1.4),
        };
        let _ = writeln!(s, "        (name: \"trap {i}\", kind: {kind}, position: ({x}, {y}), side: Some(\"tomb\")),");
    }
    s.push_str("    ],\n)\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::load::{MAX_ENTITIES_PER_KIND, MAX_FILE_BYTES, MAX_HERD_SIZE, MAX_POINTS, parse_scene};
    use std::path::Path;

    #[test]
    fn the_worst_scenes_are_accepted() {
        let text = worst_herds_walls_ron();
        assert!((text.len() as u64) < MAX_FILE_BYTES);
        let herds = parse_scene(&text, Path::new("worst-herds.ron")).unwrap();
        assert!(herds.walls.iter().all(|w| w.points.len() == MAX_POINTS));
        assert!(herds.herds.iter().all(|h| h.count == MAX_HERD_SIZE));
        assert_eq!(herds.table.width, crate::scene::load::MAX_TABLE_INCHES);

        let text = worst_traps_figures_ron();
        assert!((text.len() as u64) < MAX_FILE_BYTES);
        let traps = parse_scene(&text, Path::new("worst-traps.ron")).unwrap();
        assert_eq!((traps.figures.len(), traps.traps.len()), (crate::scene::load::MAX_FIGURES, MAX_ENTITIES_PER_KIND));

        for (name, text) in [
            ("paint", worst_fire_paint_ron()),
            ("ignitions", worst_fire_ignitions_ron()),
            ("burnout", worst_fire_burnout_ron()),
            ("crowd", worst_crowd_ron()),
            ("sleepers", worst_sleepers_ron()),
        ] {
            assert!((text.len() as u64) < MAX_FILE_BYTES, "{name}");
            parse_scene(&text, Path::new(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}
