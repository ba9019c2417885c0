//! The caption bar's text for recorded clips (record.rs): the built-in 5x7 ASCII font of
//! [`crate::raster_font`] (shared with the play-test heatmap), drawn straight into RGBA pictures
//! with clipping at their edges.

use crate::raster_font;

/// Width of a glyph in font pixels.
#[cfg(test)]
pub const GLYPH_WIDTH: usize = raster_font::GLYPH_WIDTH as usize;
/// Height of a glyph in font pixels.
pub const GLYPH_HEIGHT: usize = raster_font::GLYPH_HEIGHT as usize;
/// From one glyph's left edge to the next one's: the glyph and a column of space.
pub const ADVANCE: usize = raster_font::ADVANCE as usize;

/// The rows of `c`'s glyph; a character outside printable ASCII is drawn as `?`.
#[cfg(test)]
pub fn glyph(c: char) -> [u8; GLYPH_HEIGHT] {
    raster_font::glyph(c)
}

/// Width in picture pixels of `text` drawn at `scale` picture pixels a font pixel (no space after
/// the last glyph).
pub fn text_width(text: &str, scale: usize) -> usize {
    let glyphs = text.chars().count();
    if glyphs == 0 { 0 } else { (glyphs * ADVANCE - 1) * scale }
}

/// Draw `text` into an RGBA picture `width` pixels wide, its top-left corner at `at`, each font
/// pixel a `scale` by `scale` square of `colour`. What falls outside the picture is left out.
pub fn draw_text(rgba: &mut [u8], width: usize, at: (usize, usize), text: &str, scale: usize, colour: [u8; 4]) {
    if width == 0 {
        return;
    }
    let height = rgba.len() / 4 / width;
    let scale = u32::try_from(scale.max(1)).unwrap_or(u32::MAX);
    let (x0, y0) = (i64::try_from(at.0).unwrap_or(i64::MAX), i64::try_from(at.1).unwrap_or(i64::MAX));
    raster_font::draw_text(text, x0, y0, scale, |x, y| {
        if let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y))
            && x < width
            && y < height
        {
            let p = (y * width + x) * 4;
            rgba[p..p + 4].copy_from_slice(&colour);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const INK: [u8; 4] = [255, 255, 255, 255];

    /// The picture as rows of `#` (ink) and `.` (anything else).
    fn rows(rgba: &[u8], width: usize) -> Vec<String> {
        rgba.chunks(width * 4).map(|row| row.chunks(4).map(|p| if p == INK { '#' } else { '.' }).collect()).collect()
    }

    #[test]
    fn an_a_is_drawn_as_its_glyph() {
        let mut picture = vec![0; GLYPH_WIDTH * GLYPH_HEIGHT * 4];
        draw_text(&mut picture, GLYPH_WIDTH, (0, 0), "A", 1, INK);
        assert_eq!(rows(&picture, GLYPH_WIDTH), [".###.", "#...#", "#...#", "#...#", "#####", "#...#", "#...#"]);
    }

    #[test]
    fn a_glyph_at_scale_two_is_twice_as_big_and_placed_where_asked() {
        // "1" at (1, 1), doubled: its top row is one pixel at column 2, so pixels (5..7, 1..3).
        let (width, height) = (13, 16);
        let mut picture = vec![0; width * height * 4];
        draw_text(&mut picture, width, (1, 1), "1", 2, INK);
        let drawn = rows(&picture, width);
        assert_eq!(drawn[0], ".............");
        assert_eq!(drawn[1], ".....##......");
        assert_eq!(drawn[2], ".....##......");
        // The bottom row of "1" is three pixels wide: columns 1..4 of the glyph, doubled.
        assert_eq!(drawn[13], "...######....");
        assert_eq!(drawn[14], "...######....");
        assert_eq!(drawn[15], ".............");
    }

    #[test]
    fn text_is_clipped_at_the_picture_edge_and_unknown_characters_are_question_marks() {
        let mut picture = vec![0; 8 * 3 * 4];
        // Two glyphs in a picture 8 wide and 3 high: no panic, only what fits is drawn.
        draw_text(&mut picture, 8, (0, 0), "HH", 1, INK);
        assert_eq!(rows(&picture, 8), ["#...#.#.", "#...#.#.", "#...#.#."]);
        assert_eq!(glyph('\u{e9}'), glyph('?'));
        assert_eq!(glyph('\n'), glyph('?'));
        assert_ne!(glyph('a'), glyph('?'));
    }

    #[test]
    fn width_counts_the_space_between_glyphs_only() {
        assert_eq!(text_width("", 2), 0);
        assert_eq!(text_width("A", 1), 5);
        assert_eq!(text_width("AB", 1), 11);
        assert_eq!(text_width("AB", 3), 33);
    }

    #[test]
    fn every_glyph_but_the_space_has_ink_within_five_columns() {
        for code in 33u8..=126 {
            let rows = glyph(char::from(code));
            assert!(rows.iter().any(|r| *r != 0), "{:?} is blank", char::from(code));
            assert!(rows.iter().all(|r| *r < 32), "{:?} is wider than five", char::from(code));
        }
        assert!(glyph(' ').iter().all(|r| *r == 0));
    }
}
