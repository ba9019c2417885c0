//! Play-test throughput: runs of the tomb and the ambush trail, on 1 and 2 threads.

// criterion_group! generates a public function with no doc comment.
#![allow(missing_docs)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use tabula::playtest::run_and_tally;
use tabula::scene::load_scene;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("playtest");
    group.sample_size(10);
    const RUNS: u32 = 50;
    group.throughput(Throughput::Elements(RUNS as u64));
    for name in ["tomb", "ambush-trail"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes").join(format!("{name}.ron"));
        let scene = load_scene(&path).unwrap_or_else(|e| panic!("{e}"));
        for threads in [1, 2] {
            group.bench_function(format!("{name}, {RUNS} runs of 20 moves, {threads} thread(s)"), |b| {
                // As `tabula playtest` makes them: each run counted into the report as made.
                b.iter(|| run_and_tally(&scene, RUNS, 20, 1, threads, &|_| {}, &AtomicBool::new(false), false))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
