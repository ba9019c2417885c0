//! Sight benchmarks (issue #17): the visibility polygons of 10 viewers against an imported-
//! map-like dungeon of 2,000 wall segments, at D/L's 12" and with unlimited sight, and the
//! preparation of the blockers (once for each state of the doors). Target: under 2 ms for
//! all 10 viewers.

// criterion_group! generates a public function with no doc comment.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tabula::sim::geometry::{Segment, SightBlockers, TableBounds, TablePoint, visibility_polygon};

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

criterion_group!(benches, bench);
criterion_main!(benches);
