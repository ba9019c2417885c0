//! Walking a swept path: a figure's move as segments, with the distance along the move at which
//! each segment starts (moved here from `sim::traps`, arithmetic unchanged).

use bevy::math::Vec2;

/// The point `d` inches along the path `segments` (`starts[i]`: the distance along it at which
/// segment `i` starts): the end of the path beyond it. `None` for an empty path.
pub fn point_along_path(segments: &[(Vec2, Vec2)], starts: &[f32], d: f32) -> Option<Vec2> {
    let first = segments.first()?;
    let mut last = first.0;
    for (i, &(a, b)) in segments.iter().enumerate() {
        let len = a.distance(b);
        if d <= starts[i] + len {
            let s = (d - starts[i]).max(0.0);
            return Some(if len > 0.0 { a + (b - a) * (s / len) } else { a });
        }
        last = b;
    }
    Some(last)
}

/// The unit direction of the first segment of length that runs on to `d` inches along the path
/// (as [`point_along_path`]); `None` when there is none (no move, or `d` beyond its end).
pub fn heading_along_path(segments: &[(Vec2, Vec2)], starts: &[f32], d: f32) -> Option<Vec2> {
    for (i, &(a, b)) in segments.iter().enumerate() {
        if d <= starts[i] + a.distance(b) && a != b {
            return Some((b - a).normalize());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walking_a_path() {
        let segments = [(Vec2::ZERO, Vec2::new(3.0, 0.0)), (Vec2::new(3.0, 0.0), Vec2::new(3.0, 4.0))];
        let starts = [0.0, 3.0];
        assert_eq!(point_along_path(&segments, &starts, 1.5), Some(Vec2::new(1.5, 0.0)));
        assert_eq!(point_along_path(&segments, &starts, 5.0), Some(Vec2::new(3.0, 2.0)));
        assert_eq!(point_along_path(&segments, &starts, 9.0), Some(Vec2::new(3.0, 4.0)));
        assert_eq!(point_along_path(&[], &[], 1.0), None);
        assert_eq!(heading_along_path(&segments, &starts, 1.0), Some(Vec2::X));
        assert_eq!(heading_along_path(&segments, &starts, 4.0), Some(Vec2::Y));
        assert_eq!(heading_along_path(&segments, &starts, 9.0), None);
    }
}
