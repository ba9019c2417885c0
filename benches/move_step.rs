//! Foundation benchmarks: parsing a scene, and resolving one move of a crowded scene.

// criterion_group! generates a public function with no doc comment.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use tabula::scene::parse_scene;
use tabula::scene::stress::stress_scene_ron;
use tabula::sim::Simulation;

/// A 72x48 table with `n` figures walking long zig-zag paths.
fn crowded_scene(n: usize) -> String {
    let mut figures = Vec::new();
    for i in 0..n {
        let y = 1.0 + (i % 46) as f32;
        let x = 1.0 + (i / 46) as f32 % 70.0;
        figures
            .push(format!("(name: \"f{i}\", position: ({x}, {y}), path: [(71, {y}), (1, {y}), (71, {y}), (1, {y})])"));
    }
    format!(
        "(version: 1, table: (width: 72, height: 48), terrain: [(name: \"road\", material: paved, shape: Rect(min: (0, 20), max: (72, 24)))], figures: [{}])",
        figures.join(",\n")
    )
}

fn bench(c: &mut Criterion) {
    let text = crowded_scene(2000);
    c.bench_function("parse and check a 2000-figure scene", |b| {
        b.iter(|| parse_scene(black_box(&text), Path::new("bench.ron")).unwrap())
    });
    let scene = parse_scene(&text, Path::new("bench.ron")).unwrap();
    c.bench_function("one move, 2000 walking figures", |b| {
        b.iter_batched_ref(|| Simulation::new(&scene, 1), |app| app.step_moves(1), criterion::BatchSize::LargeInput)
    });

    // The view's stress scene at move 20: a burning table, a crowd in the fire, every figure
    // sweeping past traps. This is the work of a frame that steps a move while playing.
    let stress = parse_scene(&stress_scene_ron(), Path::new("stress.ron")).unwrap();
    let mut sim = Simulation::new(&stress, 1);
    sim.step_moves(18);
    let at_move_18 = sim.scene_now().expect("a scene");
    sim.step_moves(1);
    let at_move_19 = sim.scene_now().expect("a scene");
    let mut group = c.benchmark_group("stress scene");
    group.sample_size(10);
    // The first move after loading (the schedules are built at loading, in `Simulation::new`;
    // the grid's contact borders are worked out in this move).
    group.bench_function("move 20: 2000 figures, 500 traps, 50 herds, a burning table", |b| {
        b.iter_batched_ref(
            || Simulation::new(&at_move_19, 1),
            |app| app.step_moves(1),
            criterion::BatchSize::PerIteration,
        )
    });
    // The same move 20 while playing on: the world loaded at move 18 has played move 19.
    group.bench_function("move 20 after move 19 in the same world (playing on)", |b| {
        b.iter_batched_ref(
            || {
                let mut app = Simulation::new(&at_move_18, 1);
                app.step_moves(1);
                app
            },
            |app| app.step_moves(1),
            criterion::BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
