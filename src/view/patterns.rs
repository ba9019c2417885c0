//! Terrain patterns: each material gets a small seamless tile of marks (tufts of grass,
//! flagstone joints, ripples, planks…) that is repeated across its ground, so materials of
//! similar colour still read apart on the table and on a projector.
//!
//! A tile is grey-scale: white where the material's colour shows as it is, darker where a mark
//! is. The material's colour tints it (`ColorMaterial::color`).

use crate::scene::Material;
use bevy::asset::RenderAssetUsages;
use bevy::image::{ImageAddressMode, ImageSampler, ImageSamplerDescriptor};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use std::f32::consts::TAU;

/// Table inches one tile covers.
pub const TILE_INCHES: f32 = 2.0;
/// Pixels across a tile: 32 a table inch, the view's scale at zoom 1.
const TILE_PX: u32 = 64;
/// How dark a mark is: the share of the colour it keeps.
const MARK: f32 = 0.72;

/// Ink (0 none, 1 full mark) of `material`'s pattern at tile coordinates `u`, `v` in 0..1,
/// `px` being one pixel in those units (for soft edges). Every pattern repeats across tile
/// edges: its frequencies are whole numbers.
pub fn ink(material: Material, u: f32, v: f32, px: f32) -> f32 {
    match material {
        // Tufts: short upright strokes on a staggered grid.
        Material::Grass => tufts(u, v, px, 6.0),
        Material::Earth => dots(u, v, px, 6.0, 0.12, true),
        // Flagstones: big slabs, joints staggered every other row.
        Material::StoneFloor => bricks(u, v, px, 2.0, 2.0),
        Material::Paved => bricks(u, v, px, 4.0, 6.0),
        // Stones and ruts.
        Material::BadGround => dots(u, v, px, 4.0, 0.15, true).max(0.7 * stripes(u, v, px, 1.0, 3.0, 0.012)),
        // Cracks.
        Material::Rock => stripes(u, v, px, 3.0, 1.0, 0.012).max(stripes(u, v, px, 1.0, -2.0, 0.01)),
        Material::Water => waves(u, v, px, 5.0, 2.0),
        Material::Thatch => stripes(u, v, px, 8.0, 8.0, 0.012),
        Material::Hay => stripes(u, v, px, 10.0, 6.0, 0.01).max(stripes(u, v, px, 6.0, -10.0, 0.01)),
        // Rows of standing crop.
        Material::StandingCorn => stripes(u, v, px, 8.0, 0.0, 0.012).max(0.6 * dots(u, v, px, 8.0, 0.22, false)),
        Material::LooseTimber => bricks(u, v, px, 2.0, 3.0).max(0.5 * stripes(u, v, px, 0.0, 12.0, 0.008)),
        Material::Brushwood => stripes(u, v, px, 5.0, 7.0, 0.012).max(stripes(u, v, px, 7.0, -5.0, 0.012)),
        Material::Bushes => rings(u, v, px, 4.0, 0.36, 0.06),
        Material::Trees => rings(u, v, px, 2.0, 0.40, 0.04).max(dots(u, v, px, 2.0, 0.07, false)),
        Material::Cloth => weave(u, v, 8.0),
        Material::Oil => stripes(u, v, px, 2.0, 3.0, 0.012),
        // Planks with grain.
        Material::SolidTimber => bricks(u, v, px, 4.0, 2.0).max(0.5 * stripes(u, v, px, 0.0, 16.0, 0.008)),
        // Beams: a frame with one diagonal brace per panel.
        Material::HalfTimbered => {
            let frame = stripes(u, v, px, 2.0, 0.0, 0.03).max(stripes(u, v, px, 0.0, 2.0, 0.03));
            frame.max(stripes(u, v, px, 2.0, -2.0, 0.02))
        }
    }
}

/// The tile for `material`, repeating (its sampler wraps).
pub fn tile(material: Material) -> Image {
    let n = TILE_PX as f32;
    let mut data = Vec::with_capacity((TILE_PX * TILE_PX * 4) as usize);
    for y in 0..TILE_PX {
        for x in 0..TILE_PX {
            let (u, v) = ((x as f32 + 0.5) / n, (y as f32 + 0.5) / n);
            let shade = 1.0 - (1.0 - MARK) * ink(material, u, v, 1.0 / n).clamp(0.0, 1.0);
            let byte = (shade * 255.0).round() as u8;
            data.extend([byte, byte, byte, 255]);
        }
    }
    // Smaller copies for zoomed-out views, so fine marks blend instead of shimmering.
    let mut image = mipmapped_image(data, TILE_PX);
    let mut sampler = ImageSamplerDescriptor::linear();
    sampler.set_address_mode(ImageAddressMode::Repeat);
    image.sampler = ImageSampler::Descriptor(sampler);
    image
}

/// An sRGB image of the RGBA picture `data`, `px` pixels square (a power of two), with its
/// smaller copies down to one pixel as mip levels, sampled linearly.
pub(super) fn mipmapped_image(mut data: Vec<u8>, px: u32) -> Image {
    let mut levels = 1;
    let mut level = data.clone();
    let mut size = px as usize;
    while size > 1 {
        level = half_size(&level, size);
        size /= 2;
        data.extend_from_slice(&level);
        levels += 1;
    }
    let mut image = Image::new_uninit(
        Extent3d { width: px, height: px, depth_or_array_layers: 1 },
        TextureDimension::D2,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.texture_descriptor.mip_level_count = levels;
    image.data = Some(data);
    image.sampler = ImageSampler::linear();
    image
}

/// An RGBA picture `size` pixels square at half the size, each pixel the mean of four.
fn half_size(pixels: &[u8], size: usize) -> Vec<u8> {
    let half = size / 2;
    let mut out = Vec::with_capacity(half * half * 4);
    for y in 0..half {
        for x in 0..half {
            for c in 0..4 {
                let at = |dx: usize, dy: usize| u32::from(pixels[((2 * y + dy) * size + 2 * x + dx) * 4 + c]);
                out.push(((at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1) + 2) / 4) as u8);
            }
        }
    }
    out
}

/// Ink for a distance `d` from a mark's centre line of half-width `w`, soft over a pixel.
fn line_ink(d: f32, w: f32, px: f32) -> f32 {
    ((w - d) / px + 0.5).clamp(0.0, 1.0)
}

/// Distance from `x` to the nearest whole number.
fn to_whole(x: f32) -> f32 {
    (x - x.round()).abs()
}

/// Straight lines `a·u + b·v = k` (whole `a`, `b` keep the tile seamless).
fn stripes(u: f32, v: f32, px: f32, a: f32, b: f32, w: f32) -> f32 {
    let scale = (a * a + b * b).sqrt().max(1e-6);
    line_ink(to_whole(a * u + b * v) / scale, w, px)
}

/// Round dots of radius `r` (of a cell) on an `n`×`n` grid; `stagger` shifts every other
/// row by half a cell.
fn dots(u: f32, v: f32, px: f32, n: f32, r: f32, stagger: bool) -> f32 {
    let row = (v * n).floor();
    let shift = if stagger && row.rem_euclid(2.0) == 1.0 { 0.5 } else { 0.0 };
    let cu = (u * n + shift).rem_euclid(1.0) - 0.5;
    let cv = (v * n).rem_euclid(1.0) - 0.5;
    line_ink((cu * cu + cv * cv).sqrt() / n, r / n, px)
}

/// Short upright strokes, staggered.
fn tufts(u: f32, v: f32, px: f32, n: f32) -> f32 {
    let row = (v * n).floor();
    let shift = if row.rem_euclid(2.0) == 1.0 { 0.5 } else { 0.0 };
    let cu = ((u * n + shift).rem_euclid(1.0) - 0.5) / n;
    let cv = ((v * n).rem_euclid(1.0) - 0.5) / n;
    let height = 0.28 / n;
    // Two blades leaning apart.
    let blade = |lean: f32| {
        let t = (cv / height).clamp(-1.0, 1.0);
        let x = cu - lean * (t + 1.0) * 0.5 * height;
        if cv.abs() <= height { line_ink(x.abs(), 0.012, px) } else { 0.0 }
    };
    blade(-0.5).max(blade(0.5))
}

/// Courses of bricks, slabs or planks: `rows` courses, `per_row` joints a course, alternate
/// courses offset by half (`rows` even, so the stagger repeats across tiles).
fn bricks(u: f32, v: f32, px: f32, rows: f32, per_row: f32) -> f32 {
    // Off the inch grid by a quarter inch, so joints do not hide under grid lines.
    let (u, v) = (u + 0.125, v + 0.125);
    let course = (v * rows).floor();
    let shift = if course.rem_euclid(2.0) == 1.0 { 0.5 } else { 0.0 };
    let bed = line_ink(to_whole(v * rows) / rows, 0.012, px);
    let joint = line_ink(to_whole(u * per_row + shift) / per_row, 0.012, px);
    bed.max(joint)
}

/// Rippled lines across: `n` lines, `k` ripples along each.
fn waves(u: f32, v: f32, px: f32, n: f32, k: f32) -> f32 {
    let y = v * n + 0.18 * (TAU * k * u).sin();
    line_ink(to_whole(y) / n, 0.014, px)
}

/// A ring of radius `r` (of a cell) in each of `n`×`n` cells, staggered.
fn rings(u: f32, v: f32, px: f32, n: f32, r: f32, w: f32) -> f32 {
    let row = (v * n).floor();
    let shift = if row.rem_euclid(2.0) == 1.0 { 0.5 } else { 0.0 };
    let cu = (u * n + shift).rem_euclid(1.0) - 0.5;
    let cv = (v * n).rem_euclid(1.0) - 0.5;
    line_ink(((cu * cu + cv * cv).sqrt() - r).abs() / n, w / n, px)
}

/// A woven cloth: alternate squares shaded.
fn weave(u: f32, v: f32, n: f32) -> f32 {
    if ((u * n).floor() + (v * n).floor()).rem_euclid(2.0) == 0.0 { 0.45 } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Material; 18] = Material::ALL;

    /// The full-size level's grey values.
    fn shades(m: Material) -> Vec<u8> {
        let n = (TILE_PX * TILE_PX) as usize;
        tile(m).data.expect("pixels")[..n * 4].chunks(4).map(|p| p[0]).collect()
    }

    #[test]
    fn tiles_carry_every_smaller_level() {
        let image = tile(Material::Paved);
        assert_eq!(image.texture_descriptor.mip_level_count, 7);
        // 64² + 32² + … + 1² pixels.
        let pixels: usize = (0..7).map(|k| (64usize >> k).pow(2)).sum();
        assert_eq!(image.data.as_ref().map(Vec::len), Some(pixels * 4));
        assert_eq!(
            half_size(&[0, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255], 2),
            [128, 128, 128, 255]
        );
    }

    #[test]
    fn every_material_has_marks_and_bare_ground() {
        for m in ALL {
            let s = shades(m);
            let marked = s.iter().filter(|&&b| b < 230).count();
            let bare = s.iter().filter(|&&b| b == 255).count();
            assert!(marked > 20, "{m:?}: {marked} marked pixels");
            assert!(bare > s.len() / 3, "{m:?}: only {bare} bare pixels");
        }
    }

    #[test]
    fn materials_look_different() {
        let tiles: Vec<Vec<u8>> = ALL.iter().map(|&m| shades(m)).collect();
        for i in 0..tiles.len() {
            for j in i + 1..tiles.len() {
                assert_ne!(tiles[i], tiles[j], "{:?} and {:?} share a pattern", ALL[i], ALL[j]);
            }
        }
    }

    #[test]
    fn tiles_are_seamless() {
        // Seamless means periodic: the pattern one tile over is the same pattern.
        let px = 1.0 / 64.0;
        for m in ALL {
            for k in 0..97 {
                let (u, v) = ((k as f32 * 0.37).fract(), (k as f32 * 0.61).fract());
                let here = ink(m, u, v, px);
                for (du, dv) in [(1.0, 0.0), (0.0, 1.0), (-1.0, 2.0)] {
                    let there = ink(m, u + du, v + dv, px);
                    assert!((here - there).abs() < 0.02, "{m:?} at ({u}, {v}) + ({du}, {dv}): {here} vs {there}");
                }
            }
        }
    }
}
