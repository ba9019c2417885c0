//! Terrain patterns: each material gets a small seamless tile of marks (tufts of grass,
//! flagstone joints, ripples, planks…) that is repeated across its ground, so materials of
//! similar colour still read apart on the table and on a projector.
//!
//! A tile is grey-scale: white where the material's colour shows as it is, darker where a mark
//! is. The material's colour tints it (`ColorMaterial::color`).
//!
//! The tiles drawn here are written to `assets/tiles/` ([`write_tiles`], `cargo run --example
//! make_tiles`), where the view reads them (tiles.rs) so a GM can replace one; the code's own
//! tile stands in for a file that is missing or cannot be read.

use crate::scene::Material;
use bevy::asset::RenderAssetUsages;
use bevy::image::{ImageAddressMode, ImageSampler, ImageSamplerDescriptor};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use std::f32::consts::TAU;
use std::path::{Path, PathBuf};

/// Table inches one tile covers.
pub const TILE_INCHES: f32 = 2.0;
/// Pixels across a tile: 32 a table inch, the view's scale at zoom 1.
pub const TILE_PX: u32 = 64;
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

/// The folder under `assets/` holding one tile a material, as [`tile_png`] writes them.
pub const TILE_FOLDER: &str = "tiles";

/// Where `material`'s tile file is under `assets/`: `tiles/<its snake_case name>.png`.
pub fn tile_path(material: Material) -> String {
    format!("{TILE_FOLDER}/{}.png", material.id())
}

/// The grey RGBA pixels of `material`'s tile, [`TILE_PX`] square, rows from the top.
pub fn tile_pixels(material: Material) -> Vec<u8> {
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
    data
}

/// The tile for `material` as drawn in code (the fallback when its file cannot be read),
/// repeating (its sampler wraps).
pub fn tile(material: Material) -> Image {
    repeating_tile(tile_pixels(material), TILE_PX, TILE_PX)
}

/// A repeating tile of the RGBA picture `data`, `width` by `height`: a square power of two
/// gets its smaller copies, so fine marks blend instead of shimmering when zoomed out; any
/// other size is drawn as it is.
pub(super) fn repeating_tile(data: Vec<u8>, width: u32, height: u32) -> Image {
    let mut image = if width == height && width.is_power_of_two() {
        mipmapped_image(data, width)
    } else {
        Image::new(
            Extent3d { width, height, depth_or_array_layers: 1 },
            TextureDimension::D2,
            data,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::default(),
        )
    };
    let mut sampler = ImageSamplerDescriptor::linear();
    sampler.set_address_mode(ImageAddressMode::Repeat);
    image.sampler = ImageSampler::Descriptor(sampler);
    image
}

/// `material`'s tile as the bytes of an 8-bit RGBA PNG file (what `assets/tiles/` holds).
pub fn tile_png(material: Material) -> Result<Vec<u8>, png::EncodingError> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, TILE_PX, TILE_PX);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&tile_pixels(material))?;
    writer.finish()?;
    Ok(bytes)
}

/// Write every material's tile under `assets` (`tiles/<material>.png`), each atomically; the files
/// written, in the order of [`Material::ALL`]. `cargo run --example make_tiles` runs it.
pub fn write_tiles(assets: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(assets.join(TILE_FOLDER))?;
    let mut written = Vec::new();
    for material in Material::ALL {
        let bytes = tile_png(material).map_err(std::io::Error::other)?;
        let path = assets.join(tile_path(material));
        crate::scene::save::write_atomic(&path, &bytes)?;
        written.push(path);
    }
    Ok(written)
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

    /// The project's `assets/tiles/` folder.
    fn tile_folder() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join(TILE_FOLDER)
    }

    /// Width, height and pixels of an 8-bit RGBA PNG; a PNG of any other kind is an error.
    fn decode_rgba_png(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
        let mut buffer = vec![0; reader.output_buffer_size().ok_or("no size")?];
        let info = reader.next_frame(&mut buffer).map_err(|e| e.to_string())?;
        if (info.color_type, info.bit_depth) != (png::ColorType::Rgba, png::BitDepth::Eight) {
            return Err(format!("{:?} {:?}, not 8-bit RGBA", info.color_type, info.bit_depth));
        }
        buffer.truncate(info.buffer_size());
        Ok((info.width, info.height, buffer))
    }

    const REMAKE: &str = "write them again with `cargo run --example make_tiles`";

    #[test]
    fn every_material_has_a_tile_file() {
        assert_eq!(tile_path(Material::StandingCorn), "tiles/standing_corn.png", "named in snake_case");
        for m in ALL {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets").join(tile_path(m));
            assert!(path.is_file(), "{m:?}: {} is missing; {REMAKE}", path.display());
        }
    }

    /// The files and the code cannot drift apart: each file is a material's tile, pixel for
    /// pixel as [`tile_pixels`] draws it (and as [`tile_png`] encodes it).
    #[test]
    fn the_tile_files_are_the_tiles_the_code_draws() {
        let entries = std::fs::read_dir(tile_folder()).unwrap_or_else(|e| panic!("assets/tiles: {e}; {REMAKE}"));
        let mut seen = Vec::new();
        for entry in entries {
            let path = entry.expect("a folder entry").path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let Some(m) = ALL.into_iter().find(|m| name == format!("{}.png", m.id())) else {
                panic!("assets/tiles/{name} is no material's tile");
            };
            let bytes = std::fs::read(&path).expect("readable");
            let (width, height, pixels) = decode_rgba_png(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!((width, height), (TILE_PX, TILE_PX), "{name}");
            // Within one step a byte: another libm may round a sine the other way.
            let drawn = tile_pixels(m);
            let same = pixels.len() == drawn.len() && pixels.iter().zip(&drawn).all(|(a, b)| a.abs_diff(*b) <= 1);
            assert!(same, "{name} differs from the code's {m:?} tile; {REMAKE}");
            seen.push(m);
        }
        assert_eq!(seen.len(), ALL.len(), "one file a material");
        let encoded = tile_png(Material::Water).expect("encoded");
        assert_eq!(decode_rgba_png(&encoded), Ok((TILE_PX, TILE_PX, tile_pixels(Material::Water))));
    }

    #[test]
    fn a_tile_not_a_square_power_of_two_repeats_without_smaller_copies() {
        let image = repeating_tile(vec![200; 48 * 32 * 4], 48, 32);
        assert_eq!(image.texture_descriptor.mip_level_count, 1);
        assert_eq!((image.width(), image.height()), (48, 32));
        let ImageSampler::Descriptor(sampler) = &image.sampler else { panic!("its own sampler") };
        assert_eq!(sampler.address_mode_u, ImageAddressMode::Repeat);
        assert_eq!(sampler.address_mode_v, ImageAddressMode::Repeat);
        let square = repeating_tile(tile_pixels(Material::Hay), TILE_PX, TILE_PX);
        assert_eq!(square.data, tile(Material::Hay).data, "the code's tile is a repeating tile of its pixels");
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
