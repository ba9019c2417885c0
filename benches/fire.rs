//! Fire benchmarks: a whole table burning out from one point at 0.1" cells and at ten times
//! the cells, each beside the textbook 16-neighbour Dijkstra on the same grid (issue 15's
//! baseline), `tabula sim` burning a table out end to end, and one move (two rounds) of the
//! farmstead fire.

// criterion_group! generates a public function with no doc comment.
#![allow(missing_docs)]

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::path::Path;
use tabula::scene::load_scene;
use tabula::sim::Simulation;
use tabula::sim::fire_front::textbook::textbook_front;
use tabula::sim::fire_front::{FireGrid, Fuel};

/// A 72" × 48" table of one fuel (brushwood, 0.5" a round, 4 rounds burning).
fn uniform_table(cell_size: f32) -> FireGrid {
    let mut grid = FireGrid::new(72.0, 48.0, cell_size).expect("a valid grid");
    grid.paint(|_, _| Some(Fuel { index: 1, spread_rate_in: 0.5, burn_out_rounds: 4.0 })).expect("valid fuel");
    grid
}

fn burn_out(c: &mut Criterion, name: &str, cell_size: f32) {
    let grid = uniform_table(cell_size);
    let mut group = c.benchmark_group("fire front");
    group.sample_size(10);
    group.bench_function(name, |b| {
        b.iter_batched_ref(
            || grid.clone(),
            |g| {
                g.ignite(36.0, 24.0, 0.25, 0.0);
                g.advance_to(f32::INFINITY);
                assert!(g.arrival(tabula::sim::fire_front::Cell { x: 0, y: 0 }).is_some());
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// The baseline of issue 15: the textbook 16-neighbour Dijkstra on the same table from the same
/// cell (the one holding the table's centre).
fn textbook(c: &mut Criterion, name: &str, cell_size: f32) {
    let grid = uniform_table(cell_size);
    let (width, height) = (grid.width_cells(), grid.height_cells());
    let centre = grid.cell_at(36.0, 24.0).expect("on the table");
    let mut group = c.benchmark_group("fire front");
    group.sample_size(10);
    group.bench_function(name, |b| {
        b.iter(|| {
            let times = textbook_front(width, height, cell_size, 0.5, (centre.x, centre.y));
            assert!(times[0].is_finite());
            times
        })
    });
    group.finish();
}

/// Issue 15's end-to-end figure: the `tabula` binary simulating a burning brushwood table until
/// the fire is out, process start and event log included.
fn end_to_end(c: &mut Criterion) {
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/scenes/brushwood-table.ron");
    let events = std::env::temp_dir().join(format!("tabula-bench-{}.jsonl", std::process::id()));
    let mut group = c.benchmark_group("end to end");
    group.sample_size(10);
    group.bench_function("tabula sim: a 72x48 brushwood table burning out (46 moves, event log)", |b| {
        b.iter(|| {
            let status = std::process::Command::new(env!("CARGO_BIN_EXE_tabula"))
                .arg("sim")
                .arg(&scene)
                .args(["--moves", "46", "--force", "--events"])
                .arg(&events)
                .stdout(std::process::Stdio::null())
                .status()
                .expect("tabula runs");
            assert!(status.success());
        })
    });
    group.finish();
    let _ = std::fs::remove_file(&events);
}

fn bench(c: &mut Criterion) {
    burn_out(c, "72x48 table at 0.1\" (720x480 cells) burnt out from one point", 0.1);
    textbook(c, "baseline: textbook 16-neighbour Dijkstra, 720x480 cells", 0.1);
    // 10× the cells: 0.1 / √10 = 0.0316".
    burn_out(c, "72x48 table at 0.0316\" (2277x1518 cells) burnt out from one point", 0.1 / 10f32.sqrt());
    textbook(c, "baseline: textbook 16-neighbour Dijkstra, 2277x1518 cells", 0.1 / 10f32.sqrt());
    end_to_end(c);

    let farmstead = load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/farmstead.ron")).expect("loads");
    let mut group = c.benchmark_group("farmstead");
    group.sample_size(10);
    for after in [10u32, 30] {
        group.bench_function(format!("one move (2 rounds) after {after} moves"), |b| {
            b.iter_batched_ref(
                || {
                    let mut app = Simulation::new(&farmstead, 11);
                    app.step_moves(after);
                    app
                },
                |app| app.step_moves(1),
                BatchSize::LargeInput,
            )
        });
    }
    group.bench_function("load and 40 moves", |b| {
        b.iter(|| {
            let mut app = Simulation::new(&farmstead, 11);
            app.step_moves(40);
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
