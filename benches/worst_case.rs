//! The worst scenes `check` accepts, one per system (issue 16): loading the scene into a
//! simulation and resolving its first move, which is when the fire grid is painted and the
//! listed ignitions replayed. Each must stay under one second (`docs/performance.md`).

// criterion_group! generates a public function with no doc comment.
#![allow(missing_docs)]

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::path::Path;
use tabula::scene::{parse_scene, stress};
use tabula::sim::Simulation;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("worst accepted scene: load and first move");
    group.sample_size(10);
    let scenes = [
        ("fire painting (2,000 regions, 20,000 polygon points)", stress::worst_fire_paint_ron()),
        ("listed ignitions (10,000 over the table's area)", stress::worst_fire_ignitions_ron()),
        ("fire burn-out (1,048,576 cells in one move)", stress::worst_fire_burnout_ron()),
        ("herds in walls (16 herds of 1,000, 17 walls of 10,000 points)", stress::worst_herds_walls_ron()),
        ("traps and figures (2,000 figures over 10,000 traps)", stress::worst_traps_figures_ron()),
        ("a crowd of 2,000 on one spot in the tomb", stress::worst_crowd_ron()),
        ("a camp of 500 sleeping groups in earshot", stress::worst_sleepers_ron()),
    ];
    for (name, text) in scenes {
        let scene = parse_scene(&text, Path::new(name)).expect("the worst scenes are accepted");
        group.bench_function(name, |b| {
            b.iter_batched(
                || scene.clone(),
                |scene| {
                    let mut sim = Simulation::new(&scene, 1);
                    sim.step_moves(1);
                    sim
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
