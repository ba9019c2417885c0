//! Sight on the table (issue #17): which walls and doors block sight ([`sight_blockers`]), the
//! area a viewer sees ([`visibility_polygon`], an angular sweep cut to a sight range and the
//! table), and whether one point sees another ([`visible`]). Plain `f64` geometry in inches,
//! y up from the table's lower-left corner; no ECS. The readings are in `docs/sight.md`.
//!
//! The blockers are prepared once for a state of the doors ([`SightBlockers::new`]): cut to the
//! table, the table's edges added, cut where they cross one another and joined where their ends
//! all but meet, and bucketed in a [`SegmentGrid`]. With no two blockers crossing, the nearest
//! blocker along a ray changes only where a blocker begins or ends, so the sweep sorts the
//! blockers' ends by angle (O(n log n)) and looks for a new nearest blocker only there.

use super::grid::SegmentGrid;
use crate::scene::{Door, DoorKind, Wall, WallKind};
use bevy::math::Vec2;
use std::ops::{Add, Mul, Sub};

/// How far, in inches, both ends of an open door or a window may lie off a wall's line and
/// still open a gap in it (as `walls_between` lets a crossing within 0.05" of one through).
pub const DOOR_ON_WALL_IN: f64 = 0.05;
/// A blocker's end closer than this to another blocker, in inches, is joined to it, so float
/// rounding where a map's walls meet does not leave a crack for sight to leak through.
pub const JOIN_IN: f64 = 1e-3;
/// A viewer closer than this to a blocker's line, in inches, stands on it and sees along it on
/// both sides (a sight line that starts on a wall does not cross it); likewise a crossing this
/// close to either end of a sight line does not block it.
pub const ON_WALL_IN: f64 = 1e-9;
/// The most, in inches, the range circle's polygon falls inside the true circle: its vertices
/// lie on the circle and no chord's middle is further than this inside it (for ranges up to
/// about 8,500"; tables are at most 1,000").
pub const RANGE_ARC_ERROR_IN: f64 = 0.01;
/// Most vertices a whole range circle gets.
const MAX_ARC_VERTICES: f64 = 2048.0;
/// Blockers shorter than this, in inches, block nothing (a polyline's repeated point).
const MIN_SEGMENT_IN: f64 = 1e-9;
/// How far, in inches, a viewer on the table's edge looks to tell whether a direction leaves it.
const ON_TABLE_STEP_IN: f64 = 1e-6;
/// Smallest grid cell, in inches.
const GRID_MIN_CELL: f32 = 1.0;
/// The pseudo-angle of a whole turn (see [`pseudo_angle`]).
const TURN: f64 = 4.0;
/// No slot: a piece that is not in the sweep's active set.
const NO_SLOT: u32 = u32::MAX;

/// A point on the table, in inches.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TablePoint {
    /// Inches from the table's left edge.
    pub x: f64,
    /// Inches from the table's lower edge.
    pub y: f64,
}

impl TablePoint {
    /// The point `(x, y)`.
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }

    /// Distance to `other`, inches.
    pub fn distance(self, other: TablePoint) -> f64 {
        (other - self).length()
    }

    /// Whether both coordinates are finite.
    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    fn length(self) -> f64 {
        // Not `hypot`: table coordinates are far from overflow, and glibc's careful hypot was
        // most of preparing a large map's walls.
        (self.x * self.x + self.y * self.y).sqrt()
    }

    fn dot(self, o: TablePoint) -> f64 {
        self.x * o.x + self.y * o.y
    }

    fn cross(self, o: TablePoint) -> f64 {
        self.x * o.y - self.y * o.x
    }

    fn to_vec2(self) -> Vec2 {
        Vec2::new(self.x as f32, self.y as f32)
    }
}

impl From<crate::scene::Point> for TablePoint {
    fn from(p: crate::scene::Point) -> Self {
        Self::new(f64::from(p.0), f64::from(p.1))
    }
}

impl Add for TablePoint {
    type Output = TablePoint;
    fn add(self, o: TablePoint) -> TablePoint {
        TablePoint::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for TablePoint {
    type Output = TablePoint;
    fn sub(self, o: TablePoint) -> TablePoint {
        TablePoint::new(self.x - o.x, self.y - o.y)
    }
}

impl Mul<f64> for TablePoint {
    type Output = TablePoint;
    fn mul(self, k: f64) -> TablePoint {
        TablePoint::new(self.x * k, self.y * k)
    }
}

/// A straight piece of something that blocks sight.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Segment {
    /// One end.
    pub from: TablePoint,
    /// The other end.
    pub to: TablePoint,
}

impl Segment {
    /// The segment from `from` to `to`.
    pub const fn new(from: TablePoint, to: TablePoint) -> Self {
        Self { from, to }
    }

    /// Its length, inches.
    pub fn length(&self) -> f64 {
        self.from.distance(self.to)
    }

    fn is_finite(&self) -> bool {
        self.from.is_finite() && self.to.is_finite()
    }
}

/// The table's rectangle: nothing is seen beyond it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableBounds {
    /// The lower-left corner.
    pub min: TablePoint,
    /// The upper-right corner.
    pub max: TablePoint,
}

impl TableBounds {
    /// A table `width` by `height` inches from `(0, 0)`, as the scene's `table` is.
    pub fn table(width: f32, height: f32) -> Self {
        Self { min: TablePoint::new(0.0, 0.0), max: TablePoint::new(f64::from(width), f64::from(height)) }
    }

    /// Whether `p` is on the table (its edges included).
    pub fn holds(&self, p: TablePoint) -> bool {
        (self.min.x..=self.max.x).contains(&p.x) && (self.min.y..=self.max.y).contains(&p.y)
    }

    fn is_valid(&self) -> bool {
        self.min.is_finite() && self.max.is_finite() && self.max.x > self.min.x && self.max.y > self.min.y
    }

    /// The four edges, counter-clockwise from the lower-left corner.
    fn edges(&self) -> [Segment; 4] {
        let (lo, hi) = (self.min, self.max);
        let (lr, ul) = (TablePoint::new(hi.x, lo.y), TablePoint::new(lo.x, hi.y));
        [Segment::new(lo, lr), Segment::new(lr, hi), Segment::new(hi, ul), Segment::new(ul, lo)]
    }
}

/// Whether a door or window lets sight through: an open door, or any window (glass or an
/// empty frame; the scene has no shutters).
fn lets_sight_through(door: &Door) -> bool {
    door.open || door.kind == DoorKind::Window
}

/// The segments that block sight: every segment of the inner and outer walls, less the gaps
/// that open doors and windows lying along them fill, and every closed door (which also
/// closes a gap between walls, as imported maps draw doors). Low walls (furniture, rubble)
/// block no sight; windows, open or closed, and open doors let it through. Segments of no
/// length are left out.
pub fn sight_blockers(walls: &[Wall], doors: &[Door]) -> Vec<Segment> {
    let gaps: Vec<Segment> =
        doors.iter().filter(|d| lets_sight_through(d)).map(|d| Segment::new(d.from.into(), d.to.into())).collect();
    let mut out = Vec::new();
    for wall in walls.iter().filter(|w| w.kind != WallKind::Low) {
        for pair in wall.points.windows(2) {
            cut_out_gaps(Segment::new(pair[0].into(), pair[1].into()), &gaps, &mut out);
        }
    }
    for door in doors.iter().filter(|d| !lets_sight_through(d)) {
        let s = Segment::new(door.from.into(), door.to.into());
        if s.length() >= MIN_SEGMENT_IN {
            out.push(s);
        }
    }
    out
}

/// Push the pieces of `wall` left once the gaps lying along it (both ends within
/// [`DOOR_ON_WALL_IN`] of its line) are taken out.
fn cut_out_gaps(wall: Segment, gaps: &[Segment], out: &mut Vec<Segment>) {
    let along = wall.to - wall.from;
    let length = along.length();
    if length.is_nan() || length < MIN_SEGMENT_IN {
        return;
    }
    // The gaps as parameter spans along the wall, clamped to it.
    let mut spans: Vec<(f64, f64)> = Vec::new();
    for gap in gaps {
        let off = |p: TablePoint| along.cross(p - wall.from).abs() / length;
        if off(gap.from) > DOOR_ON_WALL_IN || off(gap.to) > DOOR_ON_WALL_IN {
            continue;
        }
        let at = |p: TablePoint| (p - wall.from).dot(along) / (length * length);
        let (a, b) = (at(gap.from), at(gap.to));
        let (lo, hi) = (a.min(b).max(0.0), a.max(b).min(1.0));
        if hi > lo {
            spans.push((lo, hi));
        }
    }
    if spans.is_empty() {
        out.push(wall);
        return;
    }
    spans.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut from = 0.0f64;
    let piece = |lo: f64, hi: f64, out: &mut Vec<Segment>| {
        if (hi - lo) * length >= MIN_SEGMENT_IN {
            let end = |t: f64| {
                if t <= 0.0 {
                    wall.from
                } else if t >= 1.0 {
                    wall.to
                } else {
                    wall.from + along * t
                }
            };
            out.push(Segment::new(end(lo), end(hi)));
        }
    };
    for (lo, hi) in spans {
        if lo > from {
            piece(from, lo, out);
        }
        from = from.max(hi);
    }
    if from < 1.0 {
        piece(from, 1.0, out);
    }
}

/// The blockers of one state of the doors, prepared for sight queries on a table: cut to the
/// table, with its four edges, no two crossing, in a grid.
#[derive(Debug, Clone)]
pub struct SightBlockers {
    bounds: TableBounds,
    segments: Vec<Segment>,
    grid: SegmentGrid,
}

impl SightBlockers {
    /// Prepare `blockers` (from [`sight_blockers`], or any segments) on the table `bounds`:
    /// each is cut to the table, the table's edges are added, blockers are cut where they cross
    /// and joined where an end comes within [`JOIN_IN`] of another. Blockers that are not
    /// finite, or of no length, are left out. Invalid bounds (not finite, or empty) see nothing.
    pub fn new(blockers: &[Segment], bounds: TableBounds) -> Self {
        if !bounds.is_valid() {
            return Self { bounds, segments: Vec::new(), grid: SegmentGrid::default() };
        }
        let mut raw: Vec<Segment> = blockers
            .iter()
            .filter(|s| s.is_finite())
            .filter_map(|&s| clip_to_bounds(s, &bounds))
            .filter(|s| s.length() >= MIN_SEGMENT_IN)
            .collect();
        raw.extend(bounds.edges());
        let grid = grid_over(&raw);
        // Where each blocker is cut: (parameter along it, the point).
        let mut cuts: Vec<Vec<(f64, TablePoint)>> = vec![Vec::new(); raw.len()];
        let mut bridges: Vec<Segment> = Vec::new();
        for (i, s) in raw.iter().enumerate() {
            for j in grid.along(s.from.to_vec2(), s.to.to_vec2(), JOIN_IN as f32) {
                let j = j as usize;
                if j > i {
                    meet(&raw, i, j, &mut cuts, &mut bridges);
                }
            }
        }
        let mut segments = Vec::with_capacity(raw.len() + bridges.len());
        for (s, mut at) in raw.iter().zip(cuts) {
            at.sort_by(|x, y| x.0.total_cmp(&y.0));
            let mut from = s.from;
            for (_, p) in at {
                if from.distance(p) >= MIN_SEGMENT_IN {
                    segments.push(Segment::new(from, p));
                    from = p;
                }
            }
            if from.distance(s.to) >= MIN_SEGMENT_IN {
                segments.push(Segment::new(from, s.to));
            }
        }
        segments.extend(bridges.into_iter().filter(|b| b.length() >= MIN_SEGMENT_IN));
        let segments = merge_straight_runs(segments);
        let grid = grid_over(&segments);
        Self { bounds, segments, grid }
    }

    /// The table they lie on.
    pub fn bounds(&self) -> TableBounds {
        self.bounds
    }

    /// The prepared segments: the blockers cut where they cross, the joins, the table's edges.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The prepared segments a viewer at `origin` with sight `range` may meet (all of them
    /// for an unlimited range): those within `range` of it, found in the grid.
    #[cfg(test)]
    fn candidates(&self, origin: TablePoint, range: f64) -> Vec<usize> {
        let mut out = Vec::new();
        self.candidates_into(origin, range, &mut out);
        out
    }

    /// [`SightBlockers::candidates`], written over `out`.
    fn candidates_into(&self, origin: TablePoint, range: f64, out: &mut Vec<usize>) {
        out.clear();
        if range.is_finite() {
            let o = origin.to_vec2();
            out.extend(self.grid.along(o, o, range as f32).into_iter().map(|id| id as usize));
        } else {
            out.extend(0..self.segments.len());
        }
    }
}

/// `segments` with each straight run merged into one: where exactly two segments meet at a
/// point, running on in one straight line, they become one (imported maps draw walls in many
/// short pieces; fewer pieces make a faster sweep). A point where a third segment meets them
/// stays a joint, so no two segments come to cross.
fn merge_straight_runs(segments: Vec<Segment>) -> Vec<Segment> {
    use std::collections::HashMap;
    let key = |p: TablePoint| (p.x.to_bits(), p.y.to_bits());
    let mut meeting: HashMap<(u64, u64), Vec<usize>> = HashMap::with_capacity(segments.len() * 2);
    for (i, s) in segments.iter().enumerate() {
        meeting.entry(key(s.from)).or_default().push(i);
        meeting.entry(key(s.to)).or_default().push(i);
    }
    // The segment running straight on from segment `i` through its end `p`, if there is one.
    let straight_on = |i: usize, p: TablePoint| -> Option<usize> {
        let ids = meeting.get(&key(p))?;
        let &[a, b] = ids.as_slice() else { return None };
        let j = if a == i { b } else { a };
        if j == i || (a != i && b != i) {
            return None;
        }
        let far = |s: Segment| if key(s.from) == key(p) { s.to } else { s.from };
        let (u, v) = (far(segments[i]) - p, far(segments[j]) - p);
        (u.cross(v).abs() <= 1e-12 * u.length() * v.length() && u.dot(v) < 0.0).then_some(j)
    };
    let mut merged = vec![false; segments.len()];
    let mut out = Vec::with_capacity(segments.len());
    for i in 0..segments.len() {
        if merged[i] {
            continue;
        }
        merged[i] = true;
        // Walk the run out through each end of segment i.
        let mut ends = [segments[i].from, segments[i].to];
        for end in ends.iter_mut() {
            let mut at = i;
            while let Some(j) = straight_on(at, *end) {
                if merged[j] {
                    break;
                }
                merged[j] = true;
                let s = segments[j];
                *end = if key(s.from) == key(*end) { s.to } else { s.from };
                at = j;
            }
        }
        out.push(Segment::new(ends[0], ends[1]));
    }
    out
}

/// A grid over segments, each found by queries that touch it.
fn grid_over(segments: &[Segment]) -> SegmentGrid {
    let items: Vec<(Vec2, Vec2, f32)> = segments.iter().map(|s| (s.from.to_vec2(), s.to.to_vec2(), 0.0)).collect();
    SegmentGrid::in_cells(&items, GRID_MIN_CELL)
}

/// `s` cut to `bounds` (Liang–Barsky), if any of it is on the table.
fn clip_to_bounds(s: Segment, bounds: &TableBounds) -> Option<Segment> {
    let d = s.to - s.from;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-d.x, s.from.x - bounds.min.x),
        (d.x, bounds.max.x - s.from.x),
        (-d.y, s.from.y - bounds.min.y),
        (d.y, bounds.max.y - s.from.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
            if t0 > t1 {
                return None;
            }
        }
    }
    let from = if t0 > 0.0 { s.from + d * t0 } else { s.from };
    let to = if t1 < 1.0 { s.from + d * t1 } else { s.to };
    Some(Segment::new(from, to))
}

/// Where blockers `i` and `j` meet: an end of either within [`JOIN_IN`] of the other cuts the
/// other there and is bridged to it; a crossing away from the ends cuts both at one point.
fn meet(raw: &[Segment], i: usize, j: usize, cuts: &mut [Vec<(f64, TablePoint)>], bridges: &mut Vec<Segment>) {
    let (si, sj) = (raw[i], raw[j]);
    for (end, k) in [(si.from, j), (si.to, j), (sj.from, i), (sj.to, i)] {
        join(end, raw[k], &mut cuts[k], bridges);
    }
    let (r, s) = (si.to - si.from, sj.to - sj.from);
    let denom = r.cross(s);
    if denom == 0.0 {
        return;
    }
    let t = (sj.from - si.from).cross(s) / denom;
    let u = (sj.from - si.from).cross(r) / denom;
    let (ei, ej) = (JOIN_IN / r.length(), JOIN_IN / s.length());
    if t > ei && t < 1.0 - ei && u > ej && u < 1.0 - ej {
        let p = si.from + r * t;
        cuts[i].push((t, p));
        cuts[j].push((u, p));
    }
}

/// An end within [`JOIN_IN`] of `seg`: cut `seg` at the nearest point (its own end when that is
/// within the join distance) and bridge the end to it.
fn join(end: TablePoint, seg: Segment, cuts: &mut Vec<(f64, TablePoint)>, bridges: &mut Vec<Segment>) {
    let s = seg.to - seg.from;
    let len2 = s.dot(s);
    if len2.is_nan() || len2 <= 0.0 {
        return;
    }
    let u = ((end - seg.from).dot(s) / len2).clamp(0.0, 1.0);
    let nearest = seg.from + s * u;
    if end.distance(nearest) > JOIN_IN {
        return;
    }
    let e = JOIN_IN / len2.sqrt();
    let at = if u <= e {
        seg.from
    } else if u >= 1.0 - e {
        seg.to
    } else {
        cuts.push((u, nearest));
        nearest
    };
    if end != at {
        bridges.push(Segment::new(end, at));
    }
}

/// The area a viewer sees: a polygon, counter-clockwise, star-shaped round its origin. Empty
/// (no vertices) where the viewer sees nothing.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VisibilityPolygon {
    /// Where the viewer stands.
    pub origin: TablePoint,
    /// The corners, counter-clockwise. The origin itself is one where a viewer on the table's
    /// edge looks off the table.
    pub vertices: Vec<TablePoint>,
}

impl VisibilityPolygon {
    /// Whether it is empty (fewer than three corners).
    pub fn is_empty(&self) -> bool {
        self.vertices.len() < 3
    }

    /// Its area, square inches.
    pub fn area(&self) -> f64 {
        let n = self.vertices.len();
        if n < 3 {
            return 0.0;
        }
        let twice: f64 = (0..n).map(|i| self.vertices[i].cross(self.vertices[(i + 1) % n])).sum();
        twice / 2.0
    }

    /// Whether `p` lies inside (even-odd rule; a point on the outline may go either way).
    pub fn contains(&self, p: TablePoint) -> bool {
        let v = &self.vertices;
        if v.len() < 3 {
            return false;
        }
        let mut inside = false;
        let mut j = v.len() - 1;
        for i in 0..v.len() {
            let (a, b) = (v[i], v[j]);
            if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
                inside = !inside;
            }
            j = i;
        }
        inside
    }
}

/// What a viewer at `origin` sees, to `range` inches (`f64::INFINITY`: the whole table), past
/// none of `blockers` and not off the table. Empty where the origin is off the table or not
/// finite, or the range is not above 0. The range circle is a polygon inside it, at most
/// [`RANGE_ARC_ERROR_IN`] short of it. A viewer touching a wall sees along it on its own side,
/// not through it; one exactly on a wall's line sees both sides (`docs/sight.md`).
pub fn visibility_polygon(origin: TablePoint, blockers: &SightBlockers, range: f64) -> VisibilityPolygon {
    let mut polygon = VisibilityPolygon { origin, vertices: Vec::new() };
    if !origin.is_finite() || range.is_nan() || range <= 0.0 || !blockers.bounds.holds(origin) {
        return polygon;
    }
    // Buffers kept from the last polygon on this thread (a crowd's thousands a move were each a
    // handful of allocations); taken, so a polygon worked out meanwhile gets fresh ones.
    let mut buffers = SWEEP_BUFFERS.take();
    let mut candidates = std::mem::take(&mut buffers.candidates);
    blockers.candidates_into(origin, range, &mut candidates);
    let mut pieces = std::mem::take(&mut buffers.pieces);
    pieces.clear();
    for &id in &candidates {
        let s = blockers.segments[id];
        add_pieces(&mut pieces, s.from - origin, s.to - origin);
    }
    // Where no blocker lies within a finite range the outline runs beyond it, to be cut to
    // its circle; looking off the table (from its edge) it runs back to the viewer.
    let open_far = |d: TablePoint| {
        let on_table = blockers.bounds.holds(origin + d * (ON_TABLE_STEP_IN / d.length()));
        (range.is_finite() && on_table).then_some(2.0 * range)
    };
    sweep_into(&pieces, &open_far, &mut buffers);
    let clipped;
    let around = if range.is_finite() {
        clipped = clip_to_disc(&buffers.out, range);
        &clipped
    } else {
        &buffers.out
    };
    if around.len() >= 3 {
        polygon.vertices = around.iter().map(|&p| p + origin).collect();
    }
    (buffers.candidates, buffers.pieces) = (candidates, pieces);
    SWEEP_BUFFERS.set(buffers);
    polygon
}

/// What [`visibility_polygon`] works in, kept between polygons on a thread.
#[derive(Default)]
struct SweepBuffers {
    candidates: Vec<usize>,
    pieces: Vec<Piece>,
    events: Vec<(f64, u32, bool)>,
    /// The outline, round the origin.
    out: Vec<TablePoint>,
    active: Vec<u32>,
    slot: Vec<u32>,
    started: Vec<u32>,
}

thread_local! {
    static SWEEP_BUFFERS: std::cell::Cell<SweepBuffers> = std::cell::Cell::new(SweepBuffers::default());
}

/// A blocker seen from the origin (at `(0, 0)`): its ends counter-clockwise and their
/// pseudo-angles, `start < end`.
#[derive(Debug, Clone, Copy)]
struct Piece {
    a: TablePoint,
    b: TablePoint,
    start: f64,
    end: f64,
}

/// A monotone stand-in for the angle of `p` round the origin, 0 (the +x axis) up to 4 (a
/// whole turn), with no trigonometry.
fn pseudo_angle(p: TablePoint) -> f64 {
    let a = if p.y >= 0.0 {
        if p.x >= 0.0 { p.y / (p.x + p.y) } else { 1.0 + (-p.x) / (-p.x + p.y) }
    } else if p.x < 0.0 {
        2.0 + (-p.y) / (-p.x - p.y)
    } else {
        3.0 + p.x / (p.x - p.y)
    };
    // No -0.0: it would sort before +0.0.
    a + 0.0
}

/// A direction (not of unit length) at pseudo-angle `a`: the inverse of [`pseudo_angle`].
fn direction(a: f64) -> TablePoint {
    let a = a.rem_euclid(TURN);
    if a < 1.0 {
        TablePoint::new(1.0 - a, a)
    } else if a < 2.0 {
        let q = a - 1.0;
        TablePoint::new(-q, 1.0 - q)
    } else if a < 3.0 {
        let q = a - 2.0;
        TablePoint::new(q - 1.0, -q)
    } else {
        let q = a - 3.0;
        TablePoint::new(q, q - 1.0)
    }
}

/// Add the blocker `a`–`b` (relative to the origin) as one piece, or two where it crosses the
/// +x axis; none where the origin is on its line (it is seen edge-on and blocks no area).
fn add_pieces(pieces: &mut Vec<Piece>, a: TablePoint, b: TablePoint) {
    let length = (b - a).length();
    if length.is_nan() || length < MIN_SEGMENT_IN {
        return;
    }
    let cross = a.cross(b);
    if cross.abs() <= ON_WALL_IN * length {
        return;
    }
    let (a, b) = if cross > 0.0 { (a, b) } else { (b, a) };
    let (start, end) = (pseudo_angle(a), pseudo_angle(b));
    if end > start {
        pieces.push(Piece { a, b, start, end });
    } else if end == 0.0 {
        // It ends on the +x axis: the end of the turn.
        pieces.push(Piece { a, b, start, end: TURN });
    } else if start > end {
        // It crosses the +x axis: cut it there.
        let t = a.y / (a.y - b.y);
        let p = TablePoint::new(a.x + (b.x - a.x) * t, 0.0);
        pieces.push(Piece { a, b: p, start, end: TURN });
        pieces.push(Piece { a: p, b, start: 0.0, end });
    }
}

/// How far along the ray `dir` from the origin it meets `piece`'s line, in lengths of `dir`;
/// infinite where it does not (ahead).
fn ray_distance(piece: &Piece, dir: TablePoint) -> f64 {
    let e = piece.b - piece.a;
    let s = piece.a.cross(e) / dir.cross(e);
    if s > 0.0 { s } else { f64::INFINITY }
}

/// Where the ray at pseudo-angle `angle` meets `piece` (its own ends exactly at theirs).
fn hit(piece: &Piece, angle: f64) -> TablePoint {
    if angle == piece.start {
        return piece.a;
    }
    if angle == piece.end {
        return piece.b;
    }
    let dir = direction(angle);
    let s = ray_distance(piece, dir);
    if s.is_finite() {
        dir * s
    } else if piece.a.length() <= piece.b.length() {
        piece.a
    } else {
        piece.b
    }
}

/// The nearest of `ids` along the ray `dir` (the lowest id of equals), if any meets it.
fn nearest_along(pieces: &[Piece], ids: impl Iterator<Item = u32>, dir: TablePoint) -> Option<u32> {
    let mut best: Option<(f64, u32)> = None;
    for id in ids {
        let s = ray_distance(&pieces[id as usize], dir);
        if s.is_finite() && best.is_none_or(|(b, bid)| s < b || (s == b && id < bid)) {
            best = Some((s, id));
        }
    }
    best.map(|(_, id)| id)
}

/// Push `p` unless it repeats the last point.
fn push_point(out: &mut Vec<TablePoint>, p: TablePoint) {
    if out.last() != Some(&p) {
        out.push(p);
    }
}

/// Push the outline of an interval of directions `from`..`to` (pseudo-angles) in which no
/// piece lies: points `far` away where [`OpenFar`] gives a distance (they lie beyond the
/// range and are cut to its circle; at most a quarter turn apart, so no chord between them
/// comes within the range), else the origin (the viewer looks off the table).
fn push_empty(out: &mut Vec<TablePoint>, from: f64, to: f64, open_far: &OpenFar<'_>) {
    match open_far(direction(0.5 * (from + to))) {
        None => push_point(out, TablePoint::default()),
        Some(far) => {
            let n = (to - from).ceil().max(1.0) as usize;
            for k in 0..=n {
                let d = direction(from + (to - from) * k as f64 / n as f64);
                push_point(out, d * (far / d.length()));
            }
        }
    }
}

/// For a direction in which no piece lies: how far to put the outline (beyond the range), or
/// `None` where looking that way leaves the table.
type OpenFar<'a> = dyn Fn(TablePoint) -> Option<f64> + 'a;

/// The visibility polygon round the origin among `pieces` (no two crossing), counter-clockwise
/// from the +x axis. Directions in which no piece lies are filled by [`push_empty`].
#[cfg(test)]
fn sweep(pieces: &[Piece], open_far: &OpenFar<'_>) -> Vec<TablePoint> {
    let mut buffers = SweepBuffers::default();
    sweep_into(pieces, open_far, &mut buffers);
    buffers.out
}

/// [`sweep`], written over `buffers.out`, in `buffers`' room.
fn sweep_into(pieces: &[Piece], open_far: &OpenFar<'_>, buffers: &mut SweepBuffers) {
    let SweepBuffers { events, out, active, slot, started, .. } = buffers;
    events.clear();
    out.clear();
    active.clear();
    slot.clear();
    slot.resize(pieces.len(), NO_SLOT);
    for (i, p) in pieces.iter().enumerate() {
        events.push((p.start, i as u32, true));
        events.push((p.end, i as u32, false));
    }
    // Pseudo-angles are 0 to 4, never -0.0: their bits sort as they do.
    events.sort_unstable_by_key(|e| (e.0.to_bits(), e.1, e.2));
    let first = events.first().map_or(TURN, |e| e.0);
    if first > 0.0 {
        push_empty(out, 0.0, first, open_far);
    }
    let mut nearest: Option<u32> = None;
    let mut k = 0;
    while k < events.len() {
        let angle = events[k].0;
        started.clear();
        let mut g = k;
        while g < events.len() && events[g].0 == angle {
            let (_, id, is_start) = events[g];
            if is_start {
                slot[id as usize] = active.len() as u32;
                active.push(id);
                started.push(id);
            } else {
                let at = slot[id as usize] as usize;
                active.swap_remove(at);
                if at < active.len() {
                    slot[active[at] as usize] = at as u32;
                }
                slot[id as usize] = NO_SLOT;
            }
            g += 1;
        }
        let next = events.get(g).map(|e| e.0);
        // The nearest piece on the open interval up to the next event: no two pieces cross,
        // so it holds the whole interval; the old nearest only yields to a piece just begun.
        let after = next.and_then(|next| {
            let dir = direction(0.5 * (angle + next));
            match nearest {
                Some(n) if slot[n as usize] != NO_SLOT => {
                    nearest_along(pieces, started.iter().copied().chain(std::iter::once(n)), dir)
                }
                _ => nearest_along(pieces, active.iter().copied(), dir),
            }
        });
        if let Some(n) = nearest
            && after != nearest
        {
            push_point(out, hit(&pieces[n as usize], angle));
        }
        match after {
            Some(m) if after != nearest => push_point(out, hit(&pieces[m as usize], angle)),
            Some(_) => {}
            None => {
                let to = next.unwrap_or(TURN);
                if to > angle {
                    push_empty(out, angle, to, open_far);
                }
            }
        }
        nearest = after;
        k = g;
    }
    while out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
}

/// The largest angle between two vertices of an arc of radius `r` keeping every chord within
/// [`RANGE_ARC_ERROR_IN`] of the circle: `r (1 − cos(step / 2)) ≤ error`.
fn arc_step(r: f64) -> f64 {
    let c = (1.0 - RANGE_ARC_ERROR_IN / r).clamp(-1.0, 1.0);
    (2.0 * c.acos()).clamp(std::f64::consts::TAU / MAX_ARC_VERTICES, std::f64::consts::FRAC_PI_4)
}

/// Push the arc of radius `r` counter-clockwise from the direction of `u` towards that of `v`:
/// its first point and those between, not its last.
fn push_arc(out: &mut Vec<TablePoint>, u: TablePoint, v: TablePoint, r: f64, step: f64) {
    let from = u.y.atan2(u.x);
    let mut span = v.y.atan2(v.x) - from;
    if span < 0.0 {
        span += std::f64::consts::TAU;
    }
    // No edge of the polygon spans half a turn: more is a radial edge's rounding.
    if span > std::f64::consts::PI {
        span = 0.0;
    }
    let n = (span / step).ceil().max(1.0) as usize;
    for k in 0..n {
        let a = from + span * k as f64 / n as f64;
        push_point(out, TablePoint::new(r * a.cos(), r * a.sin()));
    }
}

/// The star-shaped polygon `vertices` (round the origin) cut to the disc of radius `r`: each
/// edge keeps its part inside, and arcs replace the parts outside (nearest of the two in every
/// direction, as the polygon is star-shaped and the disc centred on its centre).
fn clip_to_disc(vertices: &[TablePoint], r: f64) -> Vec<TablePoint> {
    let n = vertices.len();
    if n < 3 {
        return Vec::new();
    }
    let step = arc_step(r);
    let mut out = Vec::with_capacity(2 * n);
    for i in 0..n {
        let (p, q) = (vertices[i], vertices[(i + 1) % n]);
        let d = q - p;
        let a = d.dot(d);
        let c = p.dot(p) - r * r;
        if a == 0.0 {
            let p = if c <= 0.0 { p } else { p * (r / p.length()) };
            push_point(&mut out, p);
            continue;
        }
        let b = 2.0 * p.dot(d);
        let disc = b * b - 4.0 * a * c;
        let (t0, t1) = if disc > 0.0 {
            let root = disc.sqrt();
            ((-b - root) / (2.0 * a), (-b + root) / (2.0 * a))
        } else {
            (f64::INFINITY, f64::NEG_INFINITY)
        };
        if t1 <= 0.0 || t0 >= 1.0 {
            // Wholly outside the circle.
            push_arc(&mut out, p, q, r, step);
            continue;
        }
        if t0 > 0.0 {
            let enter = p + d * t0;
            push_arc(&mut out, p, enter, r, step);
            push_point(&mut out, enter);
        } else {
            push_point(&mut out, p);
        }
        if t1 < 1.0 {
            let leave = p + d * t1;
            push_point(&mut out, leave);
            push_arc(&mut out, leave, q, r, step);
        }
    }
    while out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    out
}

/// Whether a viewer at `origin` sees the point `target` within `range` inches
/// (`f64::INFINITY`: the whole table): both on the table and the straight line between them
/// crosses no blocker. A crossing within [`ON_WALL_IN`] of either end does not block (a viewer
/// on a wall's line sees along it, and a point on a wall, a door say, is seen from both
/// sides); a line running along a blocker is not blocked by it.
pub fn visible(origin: TablePoint, target: TablePoint, blockers: &SightBlockers, range: f64) -> bool {
    if !origin.is_finite() || !target.is_finite() || !blockers.bounds.holds(origin) || !blockers.bounds.holds(target) {
        return false;
    }
    let length = origin.distance(target);
    if length.is_nan() || length > range || range.is_nan() {
        return false;
    }
    if length <= 2.0 * ON_WALL_IN {
        return true;
    }
    let r = target - origin;
    !blockers.grid.along(origin.to_vec2(), target.to_vec2(), 0.0).into_iter().any(|id| {
        let s = blockers.segments[id as usize];
        let e = s.to - s.from;
        let denom = r.cross(e);
        if denom == 0.0 {
            return false;
        }
        let t = (s.from - origin).cross(e) / denom;
        let u = (s.from - origin).cross(r) / denom;
        (0.0..=1.0).contains(&u) && t * length > ON_WALL_IN && (1.0 - t) * length > ON_WALL_IN
    })
}

/// A light's lit disc: where it stands and how far it lights, inches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LitDisc {
    /// Where the light stands.
    pub position: TablePoint,
    /// How far it lights, inches.
    pub radius: f64,
}

/// Whether a viewer at `viewer`, seeing `own_range` inches by itself (`f64::INFINITY`:
/// unlimited), sees `target`: in its line of sight, and within its own range or lit by a light
/// that sees the target within its radius (issue #17: "a figure sees lit areas in its line of
/// sight beyond its own range").
pub fn sees_point(
    viewer: TablePoint,
    own_range: f64,
    lights: &[LitDisc],
    target: TablePoint,
    blockers: &SightBlockers,
) -> bool {
    visible(viewer, target, blockers, f64::INFINITY)
        && (viewer.distance(target) <= own_range
            || lights.iter().any(|l| visible(l.position, target, blockers, l.radius)))
}

/// The area each light lights: its visibility polygon cut to its radius. Lights do not
/// depend on the viewer, so these serve every viewer of a move.
pub fn lit_areas(lights: &[LitDisc], blockers: &SightBlockers) -> Vec<VisibilityPolygon> {
    lights.iter().map(|l| visibility_polygon(l.position, blockers, l.radius)).collect()
}

/// What one viewer sees: its own sight, and lit areas in its line of sight.
#[derive(Debug, Clone)]
pub struct SeenArea<'a> {
    /// What it sees by itself, to its own range.
    pub own: VisibilityPolygon,
    /// Its whole line of sight (none where its own range is unlimited: `own` is all of it).
    pub line_of_sight: Option<VisibilityPolygon>,
    /// The lit areas ([`lit_areas`]).
    pub lit: &'a [VisibilityPolygon],
}

impl SeenArea<'_> {
    /// Whether it sees `p`: within its own sight, or in its line of sight and lit.
    pub fn contains(&self, p: TablePoint) -> bool {
        self.own.contains(p)
            || self.line_of_sight.as_ref().is_some_and(|los| los.contains(p) && self.lit.iter().any(|l| l.contains(p)))
    }
}

/// What a viewer at `viewer`, seeing `own_range` inches by itself, sees among the `lit` areas.
pub fn seen_area<'a>(
    viewer: TablePoint,
    own_range: f64,
    lit: &'a [VisibilityPolygon],
    blockers: &SightBlockers,
) -> SeenArea<'a> {
    let own = visibility_polygon(viewer, blockers, own_range);
    let line_of_sight =
        (own_range.is_finite() && !lit.is_empty()).then(|| visibility_polygon(viewer, blockers, f64::INFINITY));
    SeenArea { own, line_of_sight, lit }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng, rngs::Xoshiro256PlusPlus};

    fn pt(x: f64, y: f64) -> TablePoint {
        TablePoint::new(x, y)
    }

    fn seg(a: (f64, f64), b: (f64, f64)) -> Segment {
        Segment::new(pt(a.0, a.1), pt(b.0, b.1))
    }

    fn polyline(points: &[(f64, f64)]) -> Vec<Segment> {
        points.windows(2).map(|w| seg(w[0], w[1])).collect()
    }

    fn bounds(w: f64, h: f64) -> TableBounds {
        TableBounds { min: pt(0.0, 0.0), max: pt(w, h) }
    }

    fn distance_to(p: TablePoint, s: Segment) -> f64 {
        let e = s.to - s.from;
        let len2 = e.dot(e);
        if len2 == 0.0 {
            return p.distance(s.from);
        }
        let t = ((p - s.from).dot(e) / len2).clamp(0.0, 1.0);
        p.distance(s.from + e * t)
    }

    /// The brute force: `p` on the table, within `range`, and the straight line from `o`
    /// touches none of the `raw` blockers (no preparation, no grid, no tolerance).
    fn brute_visible(o: TablePoint, p: TablePoint, raw: &[Segment], table: TableBounds, range: f64) -> bool {
        if !table.holds(p) || o.distance(p) > range {
            return false;
        }
        let r = p - o;
        !raw.iter().any(|s| {
            let e = s.to - s.from;
            let d = r.cross(e);
            if d == 0.0 {
                return false;
            }
            let t = (s.from - o).cross(e) / d;
            let u = (s.from - o).cross(r) / d;
            (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)
        })
    }

    /// Whether a hair's change could flip the answer for `p`: it is near a blocker, the table's
    /// edge or the range circle, or its sight line grazes a blocker's end. (Two segments that do
    /// not cross are nearest at an end of one, so these cover every near miss.)
    fn ambiguous(o: TablePoint, p: TablePoint, raw: &[Segment], table: TableBounds, range: f64, band: f64) -> bool {
        let line = Segment::new(o, p);
        raw.iter()
            .any(|s| distance_to(p, *s) < band || distance_to(s.from, line) < band || distance_to(s.to, line) < band)
            || (range.is_finite() && (o.distance(p) - range).abs() < band + RANGE_ARC_ERROR_IN)
            || (p.x - table.min.x).abs() < band
            || (p.x - table.max.x).abs() < band
            || (p.y - table.min.y).abs() < band
            || (p.y - table.max.y).abs() < band
    }

    /// Walls of every awkward sort on a `w` × `h` table: long ones running off the table,
    /// rooms as closed polylines with a gap (shared ends), runs of collinear walls overlapping
    /// and meeting end to end, T-junctions on whole inches, and segments of no length.
    fn random_walls(rng: &mut Xoshiro256PlusPlus, w: f64, h: f64) -> Vec<Segment> {
        let mut out = Vec::new();
        let n = rng.random_range(0..10usize);
        for k in 0..n {
            match k % 5 {
                0 => out.push(seg(
                    (rng.random_range(-5.0..w + 5.0), rng.random_range(-5.0..h + 5.0)),
                    (rng.random_range(-5.0..w + 5.0), rng.random_range(-5.0..h + 5.0)),
                )),
                1 => {
                    let (x0, y0) = (rng.random_range(0.0..w - 6.0), rng.random_range(0.0..h - 6.0));
                    let (x1, y1) = (x0 + rng.random_range(3.0..15.0), y0 + rng.random_range(3.0..15.0));
                    let gap = rng.random_range(0.5..2.0);
                    let mid = (x0 + x1) / 2.0;
                    out.extend(polyline(&[
                        (mid + gap / 2.0, y0),
                        (x1, y0),
                        (x1, y1),
                        (x0, y1),
                        (x0, y0),
                        (mid - gap / 2.0, y0),
                    ]));
                }
                2 => {
                    // Collinear pieces along one line: end to end, overlapping, apart.
                    let a = pt(rng.random_range(0.0..w), rng.random_range(0.0..h));
                    let angle = rng.random_range(0.0..std::f64::consts::TAU);
                    let dir = pt(angle.cos(), angle.sin());
                    let mut t = 0.0;
                    for _ in 0..4 {
                        let len = rng.random_range(1.0..6.0);
                        out.push(Segment::new(a + dir * t, a + dir * (t + len)));
                        t += len * [1.0, 0.5, 1.3][rng.random_range(0..3usize)];
                    }
                }
                3 => {
                    let p = (rng.random_range(0.0..w), rng.random_range(0.0..h));
                    out.push(seg(p, p));
                    out.push(seg(p, (p.0 + rng.random_range(-2.0..2.0), p.1 + rng.random_range(-2.0..2.0))));
                }
                _ => {
                    // Whole inches: an L and a T meeting it.
                    let (x, y) =
                        (rng.random_range(2..(w as i32 - 8)) as f64, rng.random_range(2..(h as i32 - 8)) as f64);
                    out.extend(polyline(&[(x, y + 6.0), (x, y), (x + 6.0, y)]));
                    out.push(seg((x + 3.0, y), (x + 3.0, y + 4.0)));
                }
            }
        }
        out
    }

    #[test]
    fn polygons_and_sight_lines_agree_with_brute_force_ray_casting() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        let band = 0.02;
        let (mut checked, mut seen, mut skipped) = (0usize, 0usize, 0usize);
        for scene in 0..150 {
            let (w, h) = (rng.random_range(20.0..60.0), rng.random_range(20.0..40.0));
            let table = bounds(w, h);
            let raw = random_walls(&mut rng, w, h);
            let blockers = SightBlockers::new(&raw, table);
            for viewer in 0..3 {
                // A viewer clear of every wall (touching ones have tests of their own).
                let Some(o) = (0..50)
                    .map(|_| pt(rng.random_range(0.5..w - 0.5), rng.random_range(0.5..h - 0.5)))
                    .find(|&o| raw.iter().all(|s| distance_to(o, *s) > band))
                else {
                    continue;
                };
                let range = match (scene + viewer) % 3 {
                    0 => f64::INFINITY,
                    1 => rng.random_range(1.0..8.0),
                    _ => rng.random_range(8.0..40.0),
                };
                let polygon = visibility_polygon(o, &blockers, range);
                assert!(!polygon.is_empty(), "scene {scene}: a viewer on the table sees something");
                for _ in 0..250 {
                    let p = if rng.random_range(0..4u32) == 0 {
                        // Near the viewer, where short ranges see.
                        o + pt(rng.random_range(-9.0..9.0), rng.random_range(-9.0..9.0))
                    } else {
                        pt(rng.random_range(-2.0..w + 2.0), rng.random_range(-2.0..h + 2.0))
                    };
                    if ambiguous(o, p, &raw, table, range, band) {
                        skipped += 1;
                        continue;
                    }
                    let expected = brute_visible(o, p, &raw, table, range);
                    assert_eq!(polygon.contains(p), expected, "scene {scene}, viewer {o:?} range {range}, point {p:?}");
                    assert_eq!(visible(o, p, &blockers, range), expected, "scene {scene}, {o:?} → {p:?} range {range}");
                    checked += 1;
                    seen += usize::from(expected);
                }
            }
        }
        assert!(checked > 60_000, "{checked} points checked, {skipped} skipped");
        assert!(seen > checked / 10 && seen < checked * 9 / 10, "{seen} of {checked} seen");
    }

    #[test]
    fn a_concave_l_shaped_room_hides_what_is_round_its_corner() {
        let room =
            polyline(&[(0.0, 0.0), (20.0, 0.0), (20.0, 10.0), (10.0, 10.0), (10.0, 20.0), (0.0, 20.0), (0.0, 0.0)]);
        let blockers = SightBlockers::new(&room, bounds(30.0, 30.0));
        let o = pt(15.0, 5.0);
        let polygon = visibility_polygon(o, &blockers, f64::INFINITY);
        // The L is 300 sq in; the shadow of the inner corner (10, 10) is the triangle
        // (10, 10), (10, 20), (0, 20) above the line x + y = 20: 50 sq in.
        assert!((polygon.area() - 250.0).abs() < 1e-6, "area {}", polygon.area());
        for (p, expected) in [
            ((5.0, 5.0), true),
            ((5.0, 12.0), true),
            ((2.0, 17.0), true),
            ((5.0, 18.0), false),
            ((9.0, 19.0), false),
            ((25.0, 5.0), false),
            ((15.0, 15.0), false),
        ] {
            let p = pt(p.0, p.1);
            assert_eq!(polygon.contains(p), expected, "{p:?}");
            assert_eq!(visible(o, p, &blockers, f64::INFINITY), expected, "{p:?}");
        }
    }

    #[test]
    fn a_closed_room_shows_exactly_itself_with_no_leak_at_its_corners() {
        let room = polyline(&[(10.0, 10.0), (20.0, 10.0), (20.0, 18.0), (10.0, 18.0), (10.0, 10.0)]);
        let blockers = SightBlockers::new(&room, bounds(40.0, 30.0));
        let inside = visibility_polygon(pt(13.0, 12.0), &blockers, f64::INFINITY);
        assert!((inside.area() - 80.0).abs() < 1e-9, "area {}", inside.area());
        for p in [pt(9.99, 9.99), pt(20.01, 18.01), pt(9.99, 18.01), pt(20.01, 9.99)] {
            assert!(!inside.contains(p), "{p:?} beyond a corner");
        }
        let outside = visibility_polygon(pt(5.0, 5.0), &blockers, f64::INFINITY);
        assert!(!outside.contains(pt(15.0, 14.0)), "inside the room");
        assert!(!outside.contains(pt(30.0, 25.0)), "in the room's shadow");
        assert!(outside.contains(pt(35.0, 5.0)) && outside.contains(pt(5.0, 25.0)));
    }

    #[test]
    fn collinear_walls_block_as_one_and_are_seen_along() {
        // Three walls end to end on y = 10, and one overlapping two of them.
        let walls = vec![
            seg((5.0, 10.0), (12.0, 10.0)),
            seg((12.0, 10.0), (20.0, 10.0)),
            seg((20.0, 10.0), (30.0, 10.0)),
            seg((9.0, 10.0), (25.0, 10.0)),
        ];
        let table = bounds(40.0, 20.0);
        let blockers = SightBlockers::new(&walls, table);
        let below = visibility_polygon(pt(17.0, 5.0), &blockers, f64::INFINITY);
        for p in [pt(12.0, 10.5), pt(20.0, 11.0), pt(17.0, 19.0)] {
            assert!(!below.contains(p), "{p:?} through the joints");
            assert!(!visible(pt(17.0, 5.0), p, &blockers, f64::INFINITY));
        }
        assert!(below.contains(pt(1.0, 11.0)), "round the end at x = 5");
        // In line with them, beyond their end: seen edge-on, they hide nothing.
        let along = visibility_polygon(pt(35.0, 10.0), &blockers, f64::INFINITY);
        assert!((along.area() - 800.0).abs() < 1e-6, "area {}", along.area());
        assert!(along.contains(pt(10.0, 12.0)) && along.contains(pt(10.0, 8.0)));
        assert!(visible(pt(35.0, 10.0), pt(2.0, 10.0), &blockers, f64::INFINITY), "along the wall's line");
    }

    #[test]
    fn a_figure_touching_a_wall_sees_along_it_not_through_it() {
        let wall = vec![seg((10.0, 0.0), (10.0, 20.0))];
        let table = bounds(30.0, 20.0);
        let blockers = SightBlockers::new(&wall, table);
        for off in [0.5, 1e-3, 1e-6] {
            let o = pt(10.0 - off, 10.0);
            let polygon = visibility_polygon(o, &blockers, f64::INFINITY);
            assert!((polygon.area() - 200.0).abs() < 1e-6, "{off}: its own side, area {}", polygon.area());
            for (p, expected) in [
                ((5.0, 15.0), true),
                ((10.0 - off / 2.0, 19.5), true),
                ((10.0 - off / 2.0, 0.5), true),
                ((15.0, 10.0), false),
                ((10.5, 19.9), false),
            ] {
                let p = pt(p.0, p.1);
                assert_eq!(polygon.contains(p), expected, "{off}: {p:?}");
                assert_eq!(visible(o, p, &blockers, f64::INFINITY), expected, "{off}: {p:?}");
            }
        }
        // Exactly on the wall's line: it sees along the wall to both sides.
        let on = pt(10.0, 10.0);
        let polygon = visibility_polygon(on, &blockers, f64::INFINITY);
        assert!((polygon.area() - 600.0).abs() < 1e-6, "area {}", polygon.area());
        assert!(visible(on, pt(15.0, 10.0), &blockers, f64::INFINITY));
        assert!(visible(on, pt(5.0, 12.0), &blockers, f64::INFINITY));
        // A point on the wall is seen from either side.
        assert!(visible(pt(5.0, 5.0), pt(10.0, 7.0), &blockers, f64::INFINITY));
        assert!(visible(pt(15.0, 5.0), pt(10.0, 7.0), &blockers, f64::INFINITY));
    }

    /// A 10" × 10" room in a 30" × 20" table, its east wall on x = 20 with a 2" opening from
    /// (20, 9) to (20, 11).
    fn room_with_door(on_wall: bool, kind: DoorKind, open: bool, wall_kind: WallKind) -> Vec<Segment> {
        let points = if on_wall {
            // Hand-made scenes: the wall runs on through the door.
            vec![(20.0, 9.0), (20.0, 15.0), (10.0, 15.0), (10.0, 5.0), (20.0, 5.0), (20.0, 9.0)]
        } else {
            // Imported maps: the door fills a gap between walls.
            vec![(20.0, 11.0), (20.0, 15.0), (10.0, 15.0), (10.0, 5.0), (20.0, 5.0), (20.0, 9.0)]
        };
        let walls = vec![Wall::new("room", wall_kind, points)];
        let doors = vec![Door { name: "door".into(), kind, from: (20.0, 9.0), to: (20.0, 11.0), open }];
        sight_blockers(&walls, &doors)
    }

    #[test]
    fn closed_doors_block_and_open_doors_windows_and_low_walls_do_not() {
        let table = bounds(30.0, 20.0);
        let (o, inside) = (pt(25.0, 10.0), pt(12.0, 10.0));
        for on_wall in [true, false] {
            let sees = |blockers: Vec<Segment>| {
                let blockers = SightBlockers::new(&blockers, table);
                let polygon = visibility_polygon(o, &blockers, f64::INFINITY);
                assert!(!polygon.contains(pt(12.0, 14.0)), "{on_wall}: never through the wall");
                let by_line = visible(o, inside, &blockers, f64::INFINITY);
                assert_eq!(polygon.contains(inside), by_line);
                by_line
            };
            assert!(!sees(room_with_door(on_wall, DoorKind::Door, false, WallKind::Inner)), "{on_wall}: closed door");
            assert!(sees(room_with_door(on_wall, DoorKind::Door, true, WallKind::Inner)), "{on_wall}: open door");
            assert!(sees(room_with_door(on_wall, DoorKind::Window, false, WallKind::Outer)), "{on_wall}: window");
            assert!(sees(room_with_door(on_wall, DoorKind::Window, true, WallKind::Outer)), "{on_wall}: open window");
        }
        // A low wall blocks nothing, though a closed door in it still does.
        let low = room_with_door(false, DoorKind::Door, true, WallKind::Low);
        assert!(low.is_empty());
        let blockers = SightBlockers::new(&low, table);
        assert!(visibility_polygon(o, &blockers, f64::INFINITY).contains(pt(12.0, 14.0)));
        assert_eq!(room_with_door(false, DoorKind::Door, false, WallKind::Low), vec![seg((20.0, 9.0), (20.0, 11.0))]);
    }

    #[test]
    fn open_doors_cut_their_gap_out_of_the_wall_they_lie_on() {
        let walls = vec![Wall::new("w", WallKind::Outer, vec![(0.0, 0.0), (10.0, 0.0)])];
        let door = |from: (f32, f32), to: (f32, f32), open: bool| Door {
            name: "d".into(),
            kind: DoorKind::Door,
            from,
            to,
            open,
        };
        assert_eq!(
            sight_blockers(&walls, &[door((4.0, 0.0), (6.0, 0.0), true)]),
            vec![seg((0.0, 0.0), (4.0, 0.0)), seg((6.0, 0.0), (10.0, 0.0))]
        );
        // Drawn backwards, a hair off the line, past the wall's end: cut all the same.
        assert_eq!(
            sight_blockers(&walls, &[door((12.0, 0.04), (8.0, -0.04), true)]),
            vec![seg((0.0, 0.0), (8.0, 0.0))]
        );
        // Further off the line than 0.05": not in this wall.
        assert_eq!(sight_blockers(&walls, &[door((4.0, 0.1), (6.0, 0.1), true)]), vec![seg((0.0, 0.0), (10.0, 0.0))]);
        // A closed door is a blocker of its own, the wall kept whole.
        assert_eq!(
            sight_blockers(&walls, &[door((4.0, 0.0), (6.0, 0.0), false)]),
            vec![seg((0.0, 0.0), (10.0, 0.0)), seg((4.0, 0.0), (6.0, 0.0))]
        );
        // A repeated point blocks nothing.
        let repeated = vec![Wall::new("r", WallKind::Inner, vec![(1.0, 1.0), (1.0, 1.0)])];
        assert!(sight_blockers(&repeated, &[]).is_empty());
    }

    #[test]
    fn the_range_cuts_a_circle_within_its_error() {
        let table = bounds(40.0, 20.0);
        let blockers = SightBlockers::new(&[], table);
        for r in [0.5, 2.0, 6.0, 9.0] {
            let polygon = visibility_polygon(pt(20.0, 10.0), &blockers, r);
            let circle = std::f64::consts::PI * r * r;
            let area = polygon.area();
            assert!(area <= circle && circle - area <= std::f64::consts::TAU * r * RANGE_ARC_ERROR_IN, "{r}: {area}");
            assert!(polygon.contains(pt(20.0 + r - 2.0 * RANGE_ARC_ERROR_IN, 10.0)));
            assert!(!polygon.contains(pt(20.0, 10.0 + r + 1e-6)));
            assert!(polygon.vertices.iter().all(|v| (v.distance(pt(20.0, 10.0)) - r).abs() < 1e-9));
        }
        // A wall inside the range: the range's arc, the wall, the arc again.
        let walls = vec![seg((22.0, 0.0), (22.0, 20.0))];
        let blockers = SightBlockers::new(&walls, table);
        let polygon = visibility_polygon(pt(20.0, 10.0), &blockers, 6.0);
        assert!(polygon.contains(pt(21.9, 10.0)) && polygon.contains(pt(15.0, 10.0)));
        assert!(!polygon.contains(pt(22.1, 10.0)) && !polygon.contains(pt(13.9, 10.0)));
        // The disc less the part beyond x = 22: a segment of the circle at distance 2.
        let (r, d): (f64, f64) = (6.0, 2.0);
        let cut = r * r * (d / r).acos() - d * (r * r - d * d).sqrt();
        let expected = std::f64::consts::PI * r * r - cut;
        assert!(
            (polygon.area() - expected).abs() < std::f64::consts::TAU * r * RANGE_ARC_ERROR_IN,
            "{}",
            polygon.area()
        );
    }

    #[test]
    fn the_table_bounds_cut_what_is_seen() {
        let table = bounds(40.0, 20.0);
        let blockers = SightBlockers::new(&[seg((-10.0, 5.0), (50.0, 5.0))], table);
        let whole = visibility_polygon(pt(3.0, 10.0), &blockers, f64::INFINITY);
        assert!((whole.area() - 40.0 * 15.0).abs() < 1e-6, "above the wall: {}", whole.area());
        assert!(!whole.contains(pt(-1.0, 10.0)) && !whole.contains(pt(3.0, 21.0)));
        assert!(!visible(pt(3.0, 10.0), pt(-1.0, 10.0), &blockers, f64::INFINITY));
        // A short range by the edge: the disc less what lies off the table.
        let near_edge = visibility_polygon(pt(2.0, 12.0), &blockers, 5.0);
        let (r, d): (f64, f64) = (5.0, 2.0);
        let expected = std::f64::consts::PI * r * r - (r * r * (d / r).acos() - d * (r * r - d * d).sqrt());
        assert!((near_edge.area() - expected).abs() < std::f64::consts::TAU * r * RANGE_ARC_ERROR_IN);
        assert!(near_edge.contains(pt(0.5, 12.0)) && !near_edge.contains(pt(-0.5, 12.0)));
        // On the table's edge: it sees the table, not off it; off the table: nothing.
        let on_edge = visibility_polygon(pt(0.0, 12.0), &blockers, f64::INFINITY);
        assert!((on_edge.area() - 600.0).abs() < 1e-6, "{}", on_edge.area());
        assert!(visibility_polygon(pt(-0.1, 12.0), &blockers, f64::INFINITY).is_empty());
        assert!(visibility_polygon(pt(f64::NAN, 12.0), &blockers, f64::INFINITY).is_empty());
        assert!(visibility_polygon(pt(5.0, 12.0), &blockers, 0.0).is_empty());
    }

    #[test]
    fn no_walls_and_walls_of_no_length_see_the_whole_table() {
        let table = bounds(40.0, 20.0);
        for walls in [vec![], vec![seg((5.0, 5.0), (5.0, 5.0)), seg((30.0, 2.0), (30.0, 2.0))]] {
            let blockers = SightBlockers::new(&walls, table);
            let polygon = visibility_polygon(pt(5.0, 5.0), &blockers, f64::INFINITY);
            assert!((polygon.area() - 800.0).abs() < 1e-9, "{}", polygon.area());
            assert!(polygon.contains(pt(39.0, 19.0)));
        }
    }

    #[test]
    fn a_crack_of_rounding_between_walls_leaks_no_sight() {
        // Two walls of an imported map whose corner misses by a ten-thousandth of an inch.
        let walls = vec![seg((10.0, 10.0), (20.0, 10.0)), seg((20.0001, 10.0001), (20.0, 20.0))];
        let blockers = SightBlockers::new(&walls, bounds(40.0, 30.0));
        let o = pt(15.0, 15.0);
        let polygon = visibility_polygon(o, &blockers, f64::INFINITY);
        // Straight through the crack, to the far corner of the table.
        let beyond = o + (pt(20.00005, 10.00005) - o) * 3.0;
        assert!(!polygon.contains(beyond));
        assert!(!polygon.contains(pt(25.0, 5.0)));
    }

    /// A dungeon of 12 × 8 rooms of 10" on a 120" × 80" table: walls on every room's border in
    /// 1" pieces (as imported maps draw them), a 2" doorway in three borders of four, and 1"
    /// pillars until there are at least 2,000 segments.
    fn dungeon() -> (Vec<Segment>, TableBounds) {
        let (cols, rows, cell) = (12usize, 8usize, 10.0f64);
        let mut walls = Vec::new();
        let doorway = |i: usize, j: usize, piece: usize, outer: bool| {
            !outer && !(i + j).is_multiple_of(4) && (4..6).contains(&piece)
        };
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
            walls.extend(polyline(&[(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0), (x, y)]));
            room += 1;
        }
        (walls, bounds(cols as f64 * cell, rows as f64 * cell))
    }

    #[test]
    fn a_short_range_only_considers_the_segments_near_the_viewer() {
        let (walls, table) = dungeon();
        assert!(walls.len() >= 2000);
        let blockers = SightBlockers::new(&walls, table);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2000);
        for _ in 0..10 {
            let o = pt(rng.random_range(1.0..119.0), rng.random_range(1.0..79.0));
            let range = 12.0;
            let near = blockers.candidates(o, range).len();
            assert!(near * 4 < blockers.segments().len(), "{near} of {}", blockers.segments().len());
            // The same area as the sweep over every segment, cut to the range.
            let filtered = visibility_polygon(o, &blockers, range);
            let mut pieces = Vec::new();
            for s in blockers.segments() {
                add_pieces(&mut pieces, s.from - o, s.to - o);
            }
            let all: Vec<TablePoint> =
                clip_to_disc(&sweep(&pieces, &|_| Some(2.0 * range)), range).into_iter().map(|p| p + o).collect();
            let all = VisibilityPolygon { origin: o, vertices: all };
            assert!((filtered.area() - all.area()).abs() < 0.5, "{} against {}", filtered.area(), all.area());
            for _ in 0..300 {
                let p = o + pt(rng.random_range(-13.0..13.0), rng.random_range(-13.0..13.0));
                if ambiguous(o, p, &walls, table, range, 0.02) {
                    continue;
                }
                let expected = brute_visible(o, p, &walls, table, range);
                assert_eq!(filtered.contains(p), expected, "{o:?} → {p:?}");
                assert_eq!(all.contains(p), expected, "{o:?} → {p:?}");
            }
        }
    }

    #[test]
    fn lights_show_what_is_in_sight_beyond_the_own_range() {
        // A corridor 40" long, a wall across it at x = 30 with a gap at its top.
        let walls = vec![seg((0.0, 2.0), (40.0, 2.0)), seg((0.0, 6.0), (40.0, 6.0)), seg((30.0, 2.0), (30.0, 5.0))];
        let blockers = SightBlockers::new(&walls, bounds(40.0, 10.0));
        let viewer = pt(2.0, 4.0);
        let lights =
            [LitDisc { position: pt(20.0, 4.0), radius: 6.0 }, LitDisc { position: pt(36.0, 3.0), radius: 6.0 }];
        let lit = lit_areas(&lights, &blockers);
        let seen = seen_area(viewer, 2.0, &lit, &blockers);
        for (p, expected, why) in [
            ((3.5, 4.0), true, "within its own range"),
            ((10.0, 4.0), false, "dark, beyond its range"),
            ((18.0, 3.0), true, "lit by the first light"),
            ((25.9, 4.0), true, "lit to the light's radius"),
            ((26.1, 4.0), false, "beyond the light's radius"),
            ((33.0, 3.0), false, "lit by the far light, hidden from the viewer by the wall"),
            ((18.0, 8.0), false, "lit, beyond the corridor's wall"),
        ] {
            let p = pt(p.0, p.1);
            assert_eq!(seen.contains(p), expected, "{why}: {p:?}");
            assert_eq!(sees_point(viewer, 2.0, &lights, p, &blockers), expected, "{why}: {p:?}");
        }
        // In daylight its own range is the table: no line of sight kept apart.
        let day = seen_area(viewer, f64::INFINITY, &lit, &blockers);
        assert!(day.line_of_sight.is_none() && day.contains(pt(10.0, 4.0)));
    }
}
