//! Where a moving point first comes within reach of a shape: distances in inches along a
//! segment `a`–`b` (not fractions of it, as [`super::segment_enters_circle`] and
//! [`super::segment_enters_square`] give), and the distance from a point to a shape.
//!
//! These answer the traps' "where along its walk does a figure first meet this area" (moved
//! here from `sim::traps`); the arithmetic is theirs, unchanged, so the dice follow as before.

use super::point_segment_distance;
use bevy::math::Vec2;

/// Distance from `p` to the disc of `radius` at `centre` (0 inside it).
pub fn point_disc_distance(p: Vec2, centre: Vec2, radius: f32) -> f32 {
    (p.distance(centre) - radius).max(0.0)
}

/// Distance from `p` to the axis-aligned square of half-side `half` at `centre` (0 inside it).
pub fn point_square_distance(p: Vec2, centre: Vec2, half: f32) -> f32 {
    let d = ((p - centre).abs() - Vec2::splat(half)).max(Vec2::ZERO);
    d.length()
}

/// Distance along `a`–`b` at which it first comes within `r` of `centre`.
pub fn first_in_disc(a: Vec2, b: Vec2, centre: Vec2, r: f32) -> Option<f32> {
    let f = a - centre;
    if f.length_squared() <= r * r {
        return Some(0.0);
    }
    let len = a.distance(b);
    if len <= 0.0 {
        return None;
    }
    let d = (b - a) / len;
    let half_b = f.dot(d);
    let disc = half_b * half_b - (f.length_squared() - r * r);
    if disc < 0.0 {
        return None;
    }
    let t = -half_b - disc.sqrt();
    (0.0..=len).contains(&t).then_some(t)
}

/// Distance along `a`–`b` at which it first enters the axis-aligned box `lo`..`hi`.
pub fn first_in_box(a: Vec2, b: Vec2, lo: Vec2, hi: Vec2) -> Option<f32> {
    let len = a.distance(b);
    if a.cmpge(lo).all() && a.cmple(hi).all() {
        return Some(0.0);
    }
    if len <= 0.0 {
        return None;
    }
    let d = (b - a) / len;
    let (mut enter, mut exit) = (0.0f32, len);
    for axis in 0..2 {
        if d[axis].abs() < 1e-12 {
            if a[axis] < lo[axis] || a[axis] > hi[axis] {
                return None;
            }
            continue;
        }
        let (t0, t1) = ((lo[axis] - a[axis]) / d[axis], (hi[axis] - a[axis]) / d[axis]);
        enter = enter.max(t0.min(t1));
        exit = exit.min(t0.max(t1));
    }
    (enter <= exit).then_some(enter)
}

/// Distance along `a`–`b` at which it first comes within `range` of the square of half-side
/// `half` at `centre`: two crossed boxes and four corner discs make up the grown square.
pub fn first_in_rounded_square(a: Vec2, b: Vec2, centre: Vec2, half: f32, range: f32) -> Option<f32> {
    let wide = Vec2::new(half + range, half);
    let tall = Vec2::new(half, half + range);
    let corners = [Vec2::new(half, half), Vec2::new(-half, half), Vec2::new(half, -half), Vec2::new(-half, -half)];
    [first_in_box(a, b, centre - wide, centre + wide), first_in_box(a, b, centre - tall, centre + tall)]
        .into_iter()
        .chain(corners.map(|c| first_in_disc(a, b, centre + c, range)))
        .flatten()
        .min_by(f32::total_cmp)
}

/// The first distance along `a`–`b` at which a convex shape is within `range`, by search: the
/// distance from a point moving on a line to a convex shape is convex, so a ternary search finds
/// its least value and a bisection before it the first point in range. `bounds` is a circle
/// (centre, radius) holding the whole shape, `distance` the distance from a point to the shape.
pub fn first_within_convex(
    a: Vec2,
    b: Vec2,
    bounds: (Vec2, f32),
    distance: impl Fn(Vec2) -> f32,
    range: f32,
) -> Option<f32> {
    // The shape lies within its bounding circle, so a segment that never comes within `range`
    // of the circle never comes within it of the shape: skip the search.
    let (centre, extent) = bounds;
    if point_segment_distance(centre, a, b) - extent > range {
        return None;
    }
    let len = a.distance(b);
    let at = |s: f32| if len > 0.0 { a + (b - a) * (s / len) } else { a };
    let f = |s: f32| distance(at(s));
    if f(0.0) <= range {
        return Some(0.0);
    }
    if len <= 0.0 {
        return None;
    }
    let (mut lo, mut hi) = (0.0f32, len);
    for _ in 0..60 {
        let m1 = lo + (hi - lo) / 3.0;
        let m2 = hi - (hi - lo) / 3.0;
        // Thirds that round to the ends: every further step would change nothing.
        if m1 == lo && m2 == hi {
            break;
        }
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let best = (lo + hi) / 2.0;
    let best = if f(len) < f(best) { len } else { best };
    if f(best) > range {
        return None;
    }
    // `lo` stays out of range and `hi` in it, so a midpoint that rounds to either end would
    // set that end to itself: every further halving changes nothing.
    let (mut lo, mut hi) = (0.0f32, best);
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        if mid == lo || mid == hi {
            break;
        }
        if f(mid) <= range {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_entries_into_discs_and_squares() {
        let (a, b) = (Vec2::ZERO, Vec2::new(10.0, 0.0));
        assert_eq!(first_in_disc(a, b, Vec2::new(5.0, 0.0), 1.0), Some(4.0));
        assert_eq!(first_in_disc(a, b, Vec2::new(5.0, 0.0), 3.0), Some(2.0));
        assert!(first_in_disc(Vec2::new(0.0, 3.5), Vec2::new(10.0, 3.5), Vec2::new(5.0, 0.0), 3.0).is_none());
        assert_eq!(first_in_disc(Vec2::new(5.0, 0.5), b, Vec2::new(5.0, 0.0), 1.0), Some(0.0));
        assert_eq!(first_in_box(a, b, Vec2::new(4.0, -1.0), Vec2::new(6.0, 1.0)), Some(4.0));
        assert!(first_in_box(a, b, Vec2::new(4.0, 1.0), Vec2::new(6.0, 2.0)).is_none());
        let d = first_in_rounded_square(a, b, Vec2::new(5.0, 0.4), 0.5, 1e-3).unwrap();
        assert!((d - 4.5).abs() < 1e-2, "{d}");
        // By a corner: the corner's disc, not the grown boxes' corner, is what is in range.
        assert!(
            first_in_rounded_square(Vec2::new(6.3, 5.0), Vec2::new(6.3, 1.3), Vec2::new(5.0, 0.0), 0.5, 1.0).is_none()
        );
    }

    #[test]
    fn the_convex_search_agrees_with_the_exact_disc() {
        let (a, b, centre) = (Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(5.0, 0.0));
        let d = first_within_convex(a, b, (centre, 1.0), |p| point_disc_distance(p, centre, 1.0), 2.0).unwrap();
        assert!((d - 2.0).abs() < 1e-3, "{d}");
        assert!(first_within_convex(a, b, (centre, 1.0), |p| point_disc_distance(p, centre, 1.0), -0.5).is_none());
        assert_eq!(point_square_distance(Vec2::new(9.0, 5.0), Vec2::new(5.0, 0.0), 1.0), 5.0);
    }

    /// [`first_within_convex`] as it was before it stopped at steps that change nothing: all
    /// 60 thirds and 40 halvings.
    fn first_within_convex_every_step(
        a: Vec2,
        b: Vec2,
        bounds: (Vec2, f32),
        distance: impl Fn(Vec2) -> f32,
        range: f32,
    ) -> Option<f32> {
        let (centre, extent) = bounds;
        if point_segment_distance(centre, a, b) - extent > range {
            return None;
        }
        let len = a.distance(b);
        let at = |s: f32| if len > 0.0 { a + (b - a) * (s / len) } else { a };
        let f = |s: f32| distance(at(s));
        if f(0.0) <= range {
            return Some(0.0);
        }
        if len <= 0.0 {
            return None;
        }
        let (mut lo, mut hi) = (0.0f32, len);
        for _ in 0..60 {
            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if f(m1) <= f(m2) { hi = m2 } else { lo = m1 }
        }
        let best = (lo + hi) / 2.0;
        let best = if f(len) < f(best) { len } else { best };
        if f(best) > range {
            return None;
        }
        let (mut lo, mut hi) = (0.0f32, best);
        for _ in 0..40 {
            let mid = (lo + hi) / 2.0;
            if f(mid) <= range { hi = mid } else { lo = mid }
        }
        Some(hi)
    }

    /// Stopping early finds the very same floats: cords (segments) met from every side, long
    /// and short paths, ranges from none to wide, paths far off.
    #[test]
    fn the_convex_search_stops_early_on_the_same_answer() {
        let mut state = 0x9e37_79b9_u32;
        let mut unit = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state as f32 / u32::MAX as f32
        };
        let mut found = 0;
        for i in 0..3000 {
            let mut point = |scale: f32| Vec2::new(unit() * scale, unit() * scale);
            let (a, b, c, d) = (point(60.0), point(60.0), point(60.0), point(60.0));
            let range = [0.0, 0.25, 1.0, 2.0, 6.0][i % 5];
            let distance = |p: Vec2| point_segment_distance(p, c, d);
            let bounds = ((c + d) / 2.0, c.distance(d) / 2.0);
            let new = first_within_convex(a, b, bounds, distance, range);
            let old = first_within_convex_every_step(a, b, bounds, distance, range);
            assert_eq!(new.map(f32::to_bits), old.map(f32::to_bits), "{a} {b} cord {c} {d} range {range}");
            found += usize::from(new.is_some_and(|s| s > 0.0));
        }
        // Most paths meet their cord somewhere past their start: the searches ran.
        assert!(found > 500, "{found}");
    }
}
