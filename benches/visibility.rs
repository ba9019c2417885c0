//! Sight benchmarks (issue #17): the visibility polygons of 10 viewers against an imported-
//! map-like dungeon of 2,000 wall segments, at D/L's 12" and with unlimited sight, and the
//! preparation of the blockers (once for each state of the doors). Target: under 2 ms for
//! all 10 viewers. Also what a big fire lights (worked out again each move its front changes):
//! a 60" × 36" fire on a 72" × 48" table, in the open and in the dungeon.

// criterion_group! generates a public function with no doc comment.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tabula::sim::fire_front::Cell;
use tabula::sim::geometry::{Segment, SightBlockers, TableBounds, TablePoint, visibility_polygon};
use tabula::sim::sight::FireLight;

/// A dungeon of 12 × 8 rooms of 10" on a 120" × 80" table: walls on every room's border in 1"
/// pieces (as imported maps draw them), a 2" doorway in three borders of four, and 1" pillars
/// until there are 2,000 segments.
fn dungeon() -> (Vec<Segment>, TableBounds) {
    let (cols, rows, cell) = (12usize, 8usize, 10.0f64);
    let seg = |a: (f64, f64), b: (f64, f64)| Segment::new(TablePoint::new(a.0, a.1), TablePoint::new(b.0, b.1));
    let doorway =
        |i: usize, j: usize, piece: usize, outer: bool| !outer && !(i + j).is_multiple_of(4) && (4..6).contains(&piece);
    let mut walls = Vec::new();
    for j in 0..=rows {
        for i in 0..cols {
            for k in 0..10 {
                if !doorway(i, j, k, j == 0 || j == rows) {
                    let x = i as f64 * cell + k as f64;
                    walls.push(seg((x, j as f64 * cell), (x + 1.0, j as f64 * cell)));
                }
            }
        }
    }
    for i in 0..=cols {
        for j in 0..rows {
            for k in 0..10 {
                if !doorway(i, j + 1, k, i == 0 || i == cols) {
                    let y = j as f64 * cell + k as f64;
                    walls.push(seg((i as f64 * cell, y), (i as f64 * cell, y + 1.0)));
                }
            }
        }
    }
    let mut room = 0;
    while walls.len() < 2000 {
        let (i, j) = (room % cols, room / cols % rows);
        let x = i as f64 * cell + 2.0 + ((i * 7 + j * 3) % 5) as f64;
        let y = j as f64 * cell + 2.0 + ((i * 5 + j * 11) % 5) as f64;
        let corners = [(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0), (x, y)];
        walls.extend(corners.windows(2).map(|w| seg(w[0], w[1])));
        room += 1;
    }
    walls.truncate(2000);
    let bounds =
        TableBounds { min: TablePoint::new(0.0, 0.0), max: TablePoint::new(cols as f64 * cell, rows as f64 * cell) };
    (walls, bounds)
}

/// Ten viewers spread over the dungeon, each off the middle of its room.
fn viewers() -> Vec<TablePoint> {
    (0..10).map(|k| TablePoint::new(5.5 + (k * 37 % 12) as f64 * 10.0, 4.5 + (k * 5 % 8) as f64 * 10.0)).collect()
}

fn bench(c: &mut Criterion) {
    let (walls, bounds) = dungeon();
    assert_eq!(walls.len(), 2000);
    let blockers = SightBlockers::new(&walls, bounds);
    let viewers = viewers();
    let mut group = c.benchmark_group("sight");
    for (name, range) in [("12\" (D/L)", 12.0), ("unlimited (LLL)", f64::INFINITY)] {
        group.bench_function(format!("10 viewers, 2,000 wall segments, range {name}"), |b| {
            b.iter(|| {
                for &v in &viewers {
                    black_box(visibility_polygon(v, &blockers, range));
                }
            })
        });
    }
    group.bench_function("prepare 2,000 wall segments (once a door state)", |b| {
        b.iter(|| black_box(SightBlockers::new(&walls, bounds)))
    });
    group.finish();
}

/// The 0.1" fire cells from (x0, y0) to (x1, y1), in inches.
fn burning(x0: u32, y0: u32, x1: u32, y1: u32) -> Vec<Cell> {
    (y0 * 10..y1 * 10).flat_map(|y| (x0 * 10..x1 * 10).map(move |x| Cell { x, y })).collect()
}

fn fire_light(c: &mut Criterion) {
    let mut group = c.benchmark_group("fire light");
    let cells = burning(6, 6, 66, 42);
    let open = SightBlockers::new(&[], TableBounds::table(72.0, 48.0));
    group.bench_function("60\" x 36\" fire (216,000 cells), 3\" margin, open table", |b| {
        b.iter(|| black_box(FireLight::of_burning_cells(0.1, 720, 480, cells.iter().copied(), 3.0, &open)))
    });
    let (walls, _) = dungeon();
    let walled = SightBlockers::new(&walls, TableBounds::table(72.0, 48.0));
    group.bench_function("60\" x 36\" fire, 3\" margin, 2,000 wall segments", |b| {
        b.iter(|| black_box(FireLight::of_burning_cells(0.1, 720, 480, cells.iter().copied(), 3.0, &walled)))
    });
    let small = burning(30, 20, 34, 24);
    group.bench_function("4\" x 4\" fire (1,600 cells), 3\" margin, 2,000 wall segments", |b| {
        b.iter(|| black_box(FireLight::of_burning_cells(0.1, 720, 480, small.iter().copied(), 3.0, &walled)))
    });
    group.finish();
}

criterion_group!(benches, bench, fire_light);
criterion_main!(benches);
