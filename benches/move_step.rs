//! Foundation benchmarks: parsing a scene, and resolving one move of a crowded scene.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;
use tabula::scene::parse_scene;
use tabula::sim::testing::{app_with_scene, step_moves};

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
        b.iter_batched_ref(|| app_with_scene(&scene, 1), |app| step_moves(app, 1), criterion::BatchSize::LargeInput)
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
