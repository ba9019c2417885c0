//! One move of 100 herds of 50 beasts each (5000 beasts), with fences, cattle grids, herders
//! and strangers near bulls: the neighbour queries must keep this cheap.

// criterion_group! generates a public function with no doc comment.
#![allow(missing_docs)]

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::path::Path;
use tabula::scene::parse_scene;
use tabula::sim::Simulation;

/// A 520x420 table with a 10x10 lattice of herds, a fence and a grid around every fourth.
fn big_pasture() -> String {
    let beasts = ["cow", "sheep", "goat", "pig", "horse"];
    let mut herds = Vec::new();
    let mut walls = Vec::new();
    let mut grids = Vec::new();
    let mut figures = Vec::new();
    for i in 0..10 {
        for j in 0..10 {
            let (x, y) = (30 + 50 * i, 30 + 40 * j);
            let n = i * 10 + j;
            let beast = beasts[n % beasts.len()];
            let herders =
                if beast == "sheep" { format!(", herders: [\"shepherd {n}\"], dog: true") } else { String::new() };
            if beast == "sheep" {
                figures.push(format!("(name: \"shepherd {n}\", side: \"village\", position: ({}, {y}), skills: [shepherd], path: [({}, {y})])", x - 8, x + 20));
            }
            herds.push(format!(
                "(name: \"herd {n}\", beast: {beast}, count: 50, position: ({x}, {y}), heading: {}{herders})",
                (n * 37) % 360
            ));
            if n % 4 == 0 {
                walls.push(format!(
                    "(name: \"fence {n}\", kind: low, points: [({a}, {b}), ({c}, {b}), ({c}, {d}), ({a}, {d}), ({a}, {e})])",
                    a = x - 14,
                    b = y - 14,
                    c = x + 14,
                    d = y + 14,
                    e = y + 2
                ));
                grids.push(format!(
                    "(name: \"grid {n}\", from: ({a}, {b}), to: ({a}, {e}))",
                    a = x - 14,
                    b = y - 14 + 12,
                    e = y + 2
                ));
            }
            if n % 10 == 3 {
                herds.push(format!(
                    "(name: \"bull {n}\", beast: bull, count: 1, position: ({}, {}), side: \"farm\")",
                    x + 20,
                    y + 15
                ));
                figures.push(format!(
                    "(name: \"walker {n}\", side: \"party\", position: ({}, {}), path: [({}, {})])",
                    x + 10,
                    y + 15,
                    x + 24,
                    y + 15
                ));
            }
        }
    }
    format!(
        "(version: 1, table: (width: 520, height: 420), walls: [{}], cattle_grids: [{}], figures: [{}], herds: [{}])",
        walls.join(",\n"),
        grids.join(",\n"),
        figures.join(",\n"),
        herds.join(",\n")
    )
}

fn bench(c: &mut Criterion) {
    let text = big_pasture();
    let scene = parse_scene(&text, Path::new("bench.ron")).unwrap_or_else(|e| panic!("{e}"));
    c.bench_function("one move, 100 herds of 50 beasts", |b| {
        b.iter_batched_ref(|| Simulation::new(&scene, 1), |app| app.step_moves(1), BatchSize::LargeInput)
    });
    c.bench_function("ten moves, 100 herds of 50 beasts", |b| {
        b.iter_batched_ref(|| Simulation::new(&scene, 1), |app| app.step_moves(10), BatchSize::LargeInput)
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
