//! Importing Universal VTT maps (`.dd2vtt`, `.uvtt`, `.df2vtt`: JSON written by Dungeondraft,
//! DungeonFog and others) into a [`Scene`].
//!
//! What the file holds and how it lands on the table:
//!
//! - Points are in grid squares on the *uncropped* canvas, y running down the image. Each point
//!   first has `resolution.map_origin` taken off (a cropped export has a non-zero origin), then
//!   y is flipped so the table's y runs up from the lower-left corner:
//!   `table_x = (x - origin.x) * inches_per_square`,
//!   `table_y = (map_size.y - (y - origin.y)) * inches_per_square`.
//! - The table is `map_size * inches_per_square` (1" a square unless set); it must fit the scene
//!   limit of 1 to [`MAX_TABLE_INCHES`] a side.
//! - `line_of_sight` polylines become walls of the kind in [`ImportSettings::wall_kind`]. House
//!   rule: UVTT does not say whether a wall is inner or outer, so the default is
//!   [`WallKind::Inner`], the milder waking modifier, as most lines in a dungeon map are
//!   partitions between rooms; a GM importing a building's shell can ask for `Outer`.
//!   `objects_line_of_sight` (furniture, rubble, pillars) become [`WallKind::Low`].
//! - `portals` become doors: `closed: true` a closed door, `closed: false` an open window,
//!   spanning `bounds[0]` to `bounds[1]`. `position`, `rotation` and `freestanding` are not used.
//! - `lights` keep their position and range (squares to inches); intensity is clamped to 0..=1;
//!   the colour `AARRGGBB` (alpha first) becomes `#rrggbb` and its alpha is dropped.
//! - Lighting (house rule): the luminance of `environment.ambient_light`,
//!   `alpha * (0.2126 r + 0.7152 g + 0.0722 b)` on 0..1, picks the scene lighting: at least 0.9
//!   LLL, 0.6 DLL, 0.35 D/L, 0.1 DDL, below that DDD. SUN is never chosen: a map cannot say the
//!   sun is glaring. `baked_lighting` only says the lights are painted into the image; the rules
//!   still need the light sources, so they are imported either way and the flag changes
//!   nothing. No `environment` (or no `ambient_light`) means the scene default, LLL.
//! - `image` (base64 PNG or WebP) is returned as bytes for the caller to write beside the scene
//!   as `<file stem>.png` or `.webp`; the scene's background names that file and covers the
//!   whole table. Only the header is read (for the pixel size); the image is never decoded.
//!
//! Geometry outside the map (a cropped export can keep walls beyond the crop): points within
//! [`EDGE_SNAP_SQUARES`] of the edge are moved onto it (rounding in the exporter); walls, obstacles
//! and doors are cut at the edge, so a wall that leaves the map and comes back becomes two
//! walls; a light beyond the edge moves to the nearest point of the edge with its range cut by
//! the distance moved (it then lights no more of the table than before) and is left out when
//! nothing of the table is in reach. Polylines of fewer than two points block nothing and are
//! skipped. Names are numbered in the order written: `wall 1`, `obstacle 1`, `door 1`,
//! `window 1`, `light 1`.
//!
//! Unknown fields are ignored (exporters add their own). Anything malformed is an error naming
//! the field as a path into the JSON, e.g. `line_of_sight[12][3].x`; nothing in the file can
//! make the import panic or allocate without bound.

use super::format::{Background, Door, DoorKind, FORMAT_VERSION, Light, Point, Scene, Table, Wall, WallKind};
use super::load::{MAX_ENTITIES_PER_KIND, MAX_POINTS, MAX_TABLE_INCHES, validate};
use crate::rules::lighting::Lighting;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;
use std::fmt;
use std::path::Path;

/// Largest map file read, in bytes (256 MiB: the image is most of it).
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;
/// Largest map image, in bytes once decoded from base64 (128 MiB).
pub const MAX_IMAGE_BYTES: usize = 128 * 1024 * 1024;
/// Largest map image side, in pixels.
pub const MAX_IMAGE_SIDE_PX: u32 = 16384;
/// Most wall and obstacle points in one map, all polylines together: more would not fit the
/// 16 MiB a scene file may have.
pub const MAX_TOTAL_POINTS: usize = 500_000;
/// Points this close to the map's edge, in squares, are moved onto it.
pub const EDGE_SNAP_SQUARES: f64 = 0.01;
/// Largest number accepted anywhere in the file; beyond this it is garbage, not a map.
const MAX_NUMBER: f64 = 1e9;
/// The Universal VTT versions read.
const FORMATS: [f64; 2] = [0.2, 0.3];

/// How a map is laid on the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImportSettings {
    /// Inches of table for one grid square (1.0: one square is one inch).
    pub inches_per_square: f32,
    /// The kind given to `line_of_sight` walls (house rule: [`WallKind::Inner`], see the module
    /// documentation).
    pub wall_kind: WallKind,
}

impl Default for ImportSettings {
    fn default() -> Self {
        Self { inches_per_square: 1.0, wall_kind: WallKind::Inner }
    }
}

/// The map image carried in the file, to be written beside the scene.
#[derive(Clone, PartialEq, Eq)]
pub struct MapImage {
    /// The file as it was embedded (PNG or WebP).
    pub bytes: Vec<u8>,
    /// `png` or `webp`, without the dot.
    pub extension: &'static str,
    pub width_px: u32,
    pub height_px: u32,
}

impl fmt::Debug for MapImage {
    // The bytes are megabytes: show their count only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapImage")
            .field("bytes", &format_args!("<{} bytes>", self.bytes.len()))
            .field("extension", &self.extension)
            .field("width_px", &self.width_px)
            .field("height_px", &self.height_px)
            .finish()
    }
}

/// An imported map: the scene, and the image its background names (none when the file has none).
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub scene: Scene,
    pub image: Option<MapImage>,
}

/// What is wrong with a map file, and where: `cave.dd2vtt: lights[3].color: "zz" is not 8 hex
/// digits (AARRGGBB)`.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {field}: {message}")]
pub struct UvttError {
    /// The file, as named by the caller.
    pub file: String,
    /// A path into the JSON (`line_of_sight[12][3].x`), or `file`, `settings...`, `scene`, or
    /// `line L column C` for JSON syntax.
    pub field: String,
    pub message: String,
    io: bool,
}

impl UvttError {
    /// Exit code class: the file could not be read (2), as against a bad file (1).
    pub fn is_io(&self) -> bool {
        self.io
    }
}

/// Read and import a map file from disk. The file's size is checked before it is read.
pub fn read_uvtt(path: &Path, settings: &ImportSettings) -> Result<Imported, UvttError> {
    let file = path.display().to_string();
    let io =
        |e: std::io::Error| UvttError { file: file.clone(), field: "file".into(), message: e.to_string(), io: true };
    let size = std::fs::metadata(path).map_err(io)?.len();
    if let Err(f) = check_file_size(size) {
        return Err(f.into_error(&file));
    }
    let bytes = std::fs::read(path).map_err(io)?;
    import_uvtt(&bytes, &file, settings)
}

/// Import a Universal VTT map. `file_name` names the file in errors, and its stem becomes the
/// scene's title and the image's file name.
pub fn import_uvtt(bytes: &[u8], file_name: &str, settings: &ImportSettings) -> Result<Imported, UvttError> {
    import(bytes, file_name, settings).map_err(|f| f.into_error(file_name))
}

/// An error before the file name is attached.
#[derive(Debug)]
struct Fail {
    field: String,
    message: String,
}

impl Fail {
    fn new(field: &str, message: impl Into<String>) -> Self {
        Self { field: field.to_string(), message: message.into() }
    }

    fn into_error(self, file: &str) -> UvttError {
        UvttError { file: file.to_string(), field: self.field, message: self.message, io: false }
    }
}

fn check_file_size(size: u64) -> Result<(), Fail> {
    if size > MAX_FILE_BYTES {
        return Err(Fail::new(
            "file",
            format!("{size} bytes, larger than the {MAX_FILE_BYTES}-byte limit for map files"),
        ));
    }
    Ok(())
}

fn import(bytes: &[u8], file_name: &str, settings: &ImportSettings) -> Result<Imported, Fail> {
    check_file_size(bytes.len() as u64)?;
    let ips = settings.inches_per_square;
    if !(ips.is_finite() && ips > 0.0 && ips <= MAX_TABLE_INCHES) {
        return Err(Fail::new(
            "settings.inches_per_square",
            format!("{ips} must be more than 0 and at most {MAX_TABLE_INCHES}"),
        ));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(bytes);
    let doc: Json = serde_json::from_slice(bytes).map_err(json_error)?;
    let root = At::ROOT;
    let top = object(&doc, &root)?;

    let format_at = root.key("format");
    let format = number(field(top, &root, "format", "a number")?, &format_at)?;
    if !FORMATS.iter().any(|v| (format - v).abs() < 1e-9) {
        return Err(fail(
            &format_at,
            format!("{format} is not a Universal VTT version this build reads (0.2 and 0.3)"),
        ));
    }

    // The frame: where the map lies on the canvas, and its size.
    let res_at = root.key("resolution");
    let res = object(field(top, &root, "resolution", "an object")?, &res_at)?;
    let origin = match optional(res, "map_origin") {
        Some(v) => point(v, &res_at.key("map_origin"))?,
        None => (0.0, 0.0),
    };
    let size_at = res_at.key("map_size");
    let size = point(field(res, &res_at, "map_size", "a point {x, y}")?, &size_at)?;
    if let Some(v) = optional(res, "pixels_per_grid") {
        let at = res_at.key("pixels_per_grid");
        let ppg = number(v, &at)?;
        if ppg <= 0.0 {
            return Err(fail(&at, format!("{ppg} must be more than 0")));
        }
    }
    let scale = ips as f64;
    let mut table_sides = [0.0f32; 2];
    for (side, (axis, squares)) in table_sides.iter_mut().zip([("x", size.0), ("y", size.1)]) {
        let inches = (squares * scale) as f32;
        if !(squares > 0.0 && (1.0..=MAX_TABLE_INCHES).contains(&inches)) {
            return Err(fail(
                &size_at.key(axis),
                format!(
                    "{squares} squares at {ips}\" a square make a {inches}\" table side; a side must be 1 to {MAX_TABLE_INCHES} inches"
                ),
            ));
        }
        *side = inches;
    }
    let table = Table { width: table_sides[0], height: table_sides[1] };
    let map = MapFrame { origin, size, scale };

    // Walls and obstacles.
    let los_at = root.key("line_of_sight");
    let los = array(field(top, &root, "line_of_sight", "a list of polylines")?, &los_at)?;
    let objects_at = root.key("objects_line_of_sight");
    let objects = match optional(top, "objects_line_of_sight") {
        Some(v) => array(v, &objects_at)?,
        None => &[],
    };
    if los.len() + objects.len() > MAX_ENTITIES_PER_KIND {
        return Err(fail(
            &los_at,
            format!(
                "{} walls and {} obstacles, more than the {MAX_ENTITIES_PER_KIND} walls a scene may have",
                los.len(),
                objects.len()
            ),
        ));
    }
    let mut walls = Vec::new();
    let mut total_points = 0usize;
    for (lines, lines_at, kind, stem) in
        [(los, &los_at, settings.wall_kind, "wall"), (objects, &objects_at, WallKind::Low, "obstacle")]
    {
        let mut count = 0;
        for (i, line) in lines.iter().enumerate() {
            let at = lines_at.index(i);
            let raw = array(line, &at)?;
            if raw.len() > MAX_POINTS {
                return Err(fail(&at, format!("{} points, more than the {MAX_POINTS} a wall may have", raw.len())));
            }
            total_points += raw.len();
            if total_points > MAX_TOTAL_POINTS {
                return Err(fail(&at, format!("more than {MAX_TOTAL_POINTS} wall and obstacle points in all")));
            }
            let mut squares = Vec::with_capacity(raw.len());
            for (j, p) in raw.iter().enumerate() {
                squares.push(point(p, &at.index(j))?);
            }
            for points in map.clip_polyline(&squares) {
                count += 1;
                walls.push(Wall { name: format!("{stem} {count}"), kind, points });
            }
        }
    }
    if walls.len() > MAX_ENTITIES_PER_KIND {
        return Err(fail(
            &los_at,
            format!(
                "{} walls once cut at the map's edge, more than the {MAX_ENTITIES_PER_KIND} a scene may have",
                walls.len()
            ),
        ));
    }

    // Doors and windows.
    let mut doors = Vec::new();
    if let Some(v) = optional(top, "portals") {
        let at = root.key("portals");
        let portals = array(v, &at)?;
        if portals.len() > MAX_ENTITIES_PER_KIND {
            return Err(fail(
                &at,
                format!("{} portals, more than the {MAX_ENTITIES_PER_KIND} a scene may have", portals.len()),
            ));
        }
        let (mut door_count, mut window_count) = (0, 0);
        for (i, portal) in portals.iter().enumerate() {
            let at = at.index(i);
            let portal = object(portal, &at)?;
            let bounds_at = at.key("bounds");
            let bounds = array(field(portal, &at, "bounds", "a list of two points")?, &bounds_at)?;
            let [a, b] = bounds else {
                return Err(fail(&bounds_at, format!("expected two points, found {}", bounds.len())));
            };
            let a = point(a, &bounds_at.index(0))?;
            let b = point(b, &bounds_at.index(1))?;
            let closed = boolean(field(portal, &at, "closed", "true or false")?, &at.key("closed"))?;
            let Some((from, to)) = map.clip_segment(map.local(a), map.local(b)) else {
                continue; // wholly off the map
            };
            let (kind, name) = if closed {
                door_count += 1;
                (DoorKind::Door, format!("door {door_count}"))
            } else {
                window_count += 1;
                (DoorKind::Window, format!("window {window_count}"))
            };
            doors.push(Door { name, kind, from: map.table(from), to: map.table(to), open: !closed });
        }
    }

    // Light sources.
    let mut lights = Vec::new();
    if let Some(v) = optional(top, "lights") {
        let at = root.key("lights");
        let list = array(v, &at)?;
        if list.len() > MAX_ENTITIES_PER_KIND {
            return Err(fail(
                &at,
                format!("{} lights, more than the {MAX_ENTITIES_PER_KIND} a scene may have", list.len()),
            ));
        }
        for (i, light) in list.iter().enumerate() {
            let at = at.index(i);
            let light = object(light, &at)?;
            let position = point(field(light, &at, "position", "a point {x, y}")?, &at.key("position"))?;
            let range_at = at.key("range");
            let range = number(field(light, &at, "range", "a number")?, &range_at)?;
            if range <= 0.0 {
                return Err(fail(&range_at, format!("{range} must be more than 0 squares")));
            }
            let intensity = match optional(light, "intensity") {
                Some(v) => number(v, &at.key("intensity"))?.clamp(0.0, 1.0),
                None => 1.0,
            };
            let color = match optional(light, "color") {
                Some(v) => {
                    let color_at = at.key("color");
                    let [_alpha, r, g, b] = argb(string(v, &color_at)?, &color_at)?;
                    format!("#{r:02x}{g:02x}{b:02x}")
                }
                None => "#ffffff".to_string(),
            };
            let here = map.local(position);
            let edge = map.clamp(here);
            let moved = (here.0 - edge.0).hypot(here.1 - edge.1);
            let reach = (((range - moved) * scale).min(MAX_TABLE_INCHES as f64)) as f32;
            if reach <= 0.0 {
                continue; // nothing of the table within reach
            }
            lights.push(Light {
                name: format!("light {}", lights.len() + 1),
                position: map.table(edge),
                range: reach,
                intensity: intensity as f32,
                color,
            });
        }
    }

    // Ambient lighting.
    let mut lighting = Lighting::default();
    if let Some(v) = optional(top, "environment") {
        let at = root.key("environment");
        let env = object(v, &at)?;
        if let Some(v) = optional(env, "baked_lighting") {
            // Read only to reject garbage: see the module documentation.
            boolean(v, &at.key("baked_lighting"))?;
        }
        if let Some(v) = optional(env, "ambient_light") {
            let ambient_at = at.key("ambient_light");
            lighting = ambient_lighting(argb(string(v, &ambient_at)?, &ambient_at)?);
        }
    }

    let stem =
        Path::new(file_name).file_stem().and_then(|s| s.to_str()).filter(|s| !s.trim().is_empty()).unwrap_or("map");
    let image = match optional(top, "image") {
        Some(v) => {
            let at = root.key("image");
            let text = string(v, &at)?;
            if text.trim().is_empty() { None } else { Some(decode_image(text).map_err(|m| fail(&at, m))?) }
        }
        None => None,
    };
    let background = image.as_ref().map(|img| Background {
        image: format!("{stem}.{}", img.extension),
        origin: (0.0, 0.0),
        size: (table.width, table.height),
    });

    let scene = Scene {
        version: FORMAT_VERSION,
        title: stem.to_string(),
        table,
        seed: 0,
        lighting,
        clock: Default::default(),
        rules: Default::default(),
        background,
        terrain: Vec::new(),
        walls,
        doors,
        lights,
        figures: Vec::new(),
        traps: Vec::new(),
        fires: Vec::new(),
        herds: Vec::new(),
        sleepers: Vec::new(),
        ignitions: Vec::new(),
        cattle_grids: Vec::new(),
    };
    let problems = validate(&scene);
    if !problems.is_empty() {
        let list = problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; ");
        return Err(Fail::new("scene", format!("the imported scene fails the scene checks: {list}")));
    }
    Ok(Imported { scene, image })
}

/// The house rule from ambient colour to lighting (module documentation).
fn ambient_lighting([a, r, g, b]: [u8; 4]) -> Lighting {
    let channel = |c: u8| c as f64 / 255.0;
    let luminance = channel(a) * (0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b));
    if luminance >= 0.9 {
        Lighting::Daylight
    } else if luminance >= 0.6 {
        Lighting::Overcast
    } else if luminance >= 0.35 {
        Lighting::Gloom
    } else if luminance >= 0.1 {
        Lighting::Dark
    } else {
        Lighting::PitchBlack
    }
}

/// `AARRGGBB` (a leading `#` allowed) as [alpha, red, green, blue].
fn argb(text: &str, at: &At) -> Result<[u8; 4], Fail> {
    let hex = text.strip_prefix('#').unwrap_or(text).as_bytes();
    if hex.len() != 8 || !hex.iter().all(u8::is_ascii_hexdigit) {
        return Err(fail(at, format!("{} is not 8 hex digits (AARRGGBB)", shown(text))));
    }
    let nibble = |c: u8| match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => 0,
    };
    let byte = |i: usize| (nibble(hex[2 * i]) << 4) | nibble(hex[2 * i + 1]);
    Ok([byte(0), byte(1), byte(2), byte(3)])
}

/// A string for an error message, cut short: a hostile file's strings can be megabytes.
fn shown(text: &str) -> String {
    const LONGEST: usize = 24;
    if text.chars().count() <= LONGEST {
        format!("{text:?}")
    } else {
        format!("{:?}...", text.chars().take(LONGEST).collect::<String>())
    }
}

// ---------------------------------------------------------------------------------------------
// Coordinates.

/// A point in squares: on the canvas as read, or on the map (origin taken off), y down.
type Squares = (f64, f64);

/// Where the map lies on the exporter's canvas, and how big a square is on the table.
#[derive(Clone, Copy, Debug)]
struct MapFrame {
    origin: Squares,
    size: Squares,
    /// Inches per square.
    scale: f64,
}

impl MapFrame {
    /// Canvas squares to map squares: the origin taken off, points a hair beyond the edge
    /// moved onto it.
    fn local(&self, p: Squares) -> Squares {
        let snap = |v: f64, max: f64| {
            if v < 0.0 && v > -EDGE_SNAP_SQUARES {
                0.0
            } else if v > max && v < max + EDGE_SNAP_SQUARES {
                max
            } else {
                v
            }
        };
        (snap(p.0 - self.origin.0, self.size.0), snap(p.1 - self.origin.1, self.size.1))
    }

    /// The nearest point on the map.
    fn clamp(&self, q: Squares) -> Squares {
        (q.0.clamp(0.0, self.size.0), q.1.clamp(0.0, self.size.1))
    }

    /// Map squares (y down) to table inches (y up).
    fn table(&self, q: Squares) -> Point {
        ((q.0 * self.scale) as f32, ((self.size.1 - q.1) * self.scale) as f32)
    }

    /// The part of the segment `a`-`b` (map squares) on the map, if any (Liang-Barsky).
    fn clip_segment(&self, a: Squares, b: Squares) -> Option<(Squares, Squares)> {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [(-dx, a.0), (dx, self.size.0 - a.0), (-dy, a.1), (dy, self.size.1 - a.1)] {
            if p == 0.0 {
                if q < 0.0 {
                    return None; // parallel to this edge and beyond it
                }
            } else {
                let r = q / p;
                if p < 0.0 {
                    if r > t1 {
                        return None;
                    }
                    t0 = t0.max(r);
                } else {
                    if r < t0 {
                        return None;
                    }
                    t1 = t1.min(r);
                }
            }
        }
        // Ends on the map are kept exactly, so consecutive segments still join.
        let at = |t: f64| {
            if t == 0.0 {
                a
            } else if t == 1.0 {
                b
            } else {
                self.clamp((a.0 + t * dx, a.1 + t * dy))
            }
        };
        Some((at(t0), at(t1)))
    }

    /// A polyline in canvas squares as the table polylines of its parts on the map.
    fn clip_polyline(&self, points: &[Squares]) -> Vec<Vec<Point>> {
        let local: Vec<Squares> = points.iter().map(|&p| self.local(p)).collect();
        let mut pieces: Vec<Vec<Squares>> = Vec::new();
        for pair in local.windows(2) {
            let Some((p, q)) = self.clip_segment(pair[0], pair[1]) else { continue };
            match pieces.last_mut() {
                Some(piece) if piece.last() == Some(&p) => piece.push(q),
                _ => pieces.push(vec![p, q]),
            }
        }
        pieces
            .into_iter()
            // A piece that only touches the map at one point blocks nothing.
            .filter(|piece| piece.iter().any(|q| *q != piece[0]))
            .map(|piece| piece.into_iter().map(|q| self.table(q)).collect())
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// The image.

/// Decode the base64 image (a `data:` URL prefix allowed) and read its header.
fn decode_image(text: &str) -> Result<MapImage, String> {
    let text = match text.strip_prefix("data:") {
        Some(rest) => match rest.split_once(',') {
            Some((kind, data)) if kind.ends_with(";base64") => data,
            _ => return Err("a data: URL that does not hold base64".into()),
        },
        None => text,
    };
    let bytes = decode_base64(text, MAX_IMAGE_BYTES)?;
    let (extension, width_px, height_px) = image_header(&bytes)?;
    if width_px == 0 || height_px == 0 {
        return Err(format!("the {extension} image is {width_px}x{height_px} pixels: empty"));
    }
    if width_px > MAX_IMAGE_SIDE_PX || height_px > MAX_IMAGE_SIDE_PX {
        return Err(format!(
            "the {extension} image is {width_px}x{height_px} pixels, larger than the {MAX_IMAGE_SIDE_PX}-pixel limit a side"
        ));
    }
    Ok(MapImage { bytes, extension, width_px, height_px })
}

/// Standard base64 (the URL-safe `-` and `_` accepted too), whitespace ignored, `=` padding
/// optional but, when present, exactly what the last group needs. At most `max_bytes` decoded.
fn decode_base64(text: &str, max_bytes: usize) -> Result<Vec<u8>, String> {
    let is_space = |c: u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    let digits = text.bytes().filter(|&c| !is_space(c) && c != b'=').count();
    let decoded = digits / 4 * 3 + (digits % 4).saturating_sub(1);
    if decoded > max_bytes {
        return Err(format!("{decoded} bytes once decoded, larger than the {max_bytes}-byte limit for map images"));
    }
    let mut out = Vec::with_capacity(decoded);
    let (mut acc, mut held, mut padding) = (0u32, 0u32, 0usize);
    for (offset, c) in text.bytes().enumerate() {
        if is_space(c) {
            continue;
        }
        if c == b'=' {
            padding += 1;
            continue;
        }
        if padding > 0 {
            return Err(format!("base64 goes on after its '=' padding, at offset {offset}"));
        }
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => {
                let what = if c.is_ascii_graphic() { format!("'{}'", c as char) } else { format!("byte 0x{c:02x}") };
                return Err(format!("{what} at offset {offset} is not a base64 character"));
            }
        };
        acc = (acc << 6) | value as u32;
        held += 1;
        if held == 4 {
            out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
            (acc, held) = (0, 0);
        }
    }
    match held {
        0 => {}
        2 => out.push((acc >> 4) as u8),
        3 => out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]),
        _ => return Err("base64 ends part-way through a byte (truncated?)".into()),
    }
    let needed = if held == 0 { 0 } else { 4 - held as usize };
    if padding != 0 && padding != needed {
        return Err(format!("base64 ends with {padding} '=' where {needed} belong"));
    }
    Ok(out)
}

/// The format and pixel size from a PNG (IHDR) or WebP (VP8, VP8L or VP8X) header.
fn image_header(bytes: &[u8]) -> Result<(&'static str, u32, u32), String> {
    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
    let be32 = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let le16 = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]) as u32;
    let le24 = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], 0]);
    let le32 = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    if bytes.starts_with(PNG) {
        // The first chunk must be IHDR, 13 bytes long, starting with width and height.
        if bytes.len() < 24 || be32(8) != 13 || &bytes[12..16] != b"IHDR" {
            return Err("a PNG image without its IHDR header (truncated?)".into());
        }
        return Ok(("png", be32(16), be32(20)));
    }
    if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        if bytes.len() < 30 {
            return Err("a WebP image too short for its header (truncated?)".into());
        }
        let (width, height) = match &bytes[12..16] {
            // Lossy: a key frame's 3-byte tag, the start code 9d 01 2a, 14-bit width and height.
            b"VP8 " => {
                if bytes[20] & 1 != 0 || bytes[23..26] != [0x9d, 0x01, 0x2a] {
                    return Err("a lossy WebP image whose header is not a key frame".into());
                }
                (le16(26) & 0x3fff, le16(28) & 0x3fff)
            }
            // Lossless: signature 0x2f, then width-1 and height-1 in 14 bits each, a 3-bit version 0.
            b"VP8L" => {
                let bits = le32(21);
                if bytes[20] != 0x2f || bits >> 29 != 0 {
                    return Err("a lossless WebP image with a bad header".into());
                }
                ((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1)
            }
            // Extended: flags, 3 reserved bytes, canvas width-1 and height-1 in 24 bits each.
            b"VP8X" => (le24(24) + 1, le24(27) + 1),
            other => {
                let name = String::from_utf8_lossy(other).into_owned();
                return Err(format!("a WebP image with an unknown first chunk {}", shown(&name)));
            }
        };
        return Ok(("webp", width, height));
    }
    let what = if bytes.starts_with(b"\xFF\xD8\xFF") {
        "a JPEG"
    } else if bytes.starts_with(b"GIF8") {
        "a GIF"
    } else {
        "not an image this build knows"
    };
    Err(format!("the image is {what}: only PNG and WebP are read"))
}

// ---------------------------------------------------------------------------------------------
// JSON: a compact tree, and reading it with a path for every error.

/// A parsed JSON value. Strings borrow from the file where they can (the image is most of it);
/// `{x, y}` points, by far the most common value, are kept inline.
#[derive(Debug, PartialEq)]
enum Json<'a> {
    Null,
    Bool(bool),
    Number(f64),
    String(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
    /// An object of exactly the numbers `x` and `y`.
    Xy(f64, f64),
}

/// A string that borrows from the input when it has no escapes.
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(TextVisitor)
    }
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Json::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Json::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        Json::deserialize(deserializer)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Json::Number(v as f64))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Json::Number(v as f64))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Json::Number(v))
    }
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Json::String(Cow::Borrowed(v)))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Json::String(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Json::String(Cow::Owned(v)))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Json<'de>>()? {
            items.push(item);
        }
        items.shrink_to_fit();
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries: Vec<(Cow<'de, str>, Json<'de>)> = Vec::new();
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            let value = map.next_value::<Json<'de>>()?;
            entries.push((key, value));
        }
        if let [(k1, Json::Number(v1)), (k2, Json::Number(v2))] = entries.as_slice() {
            match (&**k1, &**k2) {
                ("x", "y") => return Ok(Json::Xy(*v1, *v2)),
                ("y", "x") => return Ok(Json::Xy(*v2, *v1)),
                _ => {}
            }
        }
        entries.shrink_to_fit();
        Ok(Json::Object(entries))
    }
}

fn json_error(e: serde_json::Error) -> Fail {
    let text = e.to_string();
    let place = format!(" at line {} column {}", e.line(), e.column());
    let message = text.strip_suffix(&place).unwrap_or(&text);
    let message = if e.is_eof() {
        format!("the file ends too soon (truncated?): {message}")
    } else {
        format!("not valid JSON: {message}")
    };
    Fail { field: format!("line {} column {}", e.line(), e.column()), message }
}

/// Where a value sits in the document, as a chain back to the root; rendered only for errors.
#[derive(Clone, Copy)]
struct At<'p> {
    parent: Option<&'p At<'p>>,
    step: Step<'p>,
}

#[derive(Clone, Copy)]
enum Step<'p> {
    Root,
    Key(&'p str),
    Index(usize),
}

impl<'p> At<'p> {
    const ROOT: At<'static> = At { parent: None, step: Step::Root };

    fn key<'q>(&'q self, key: &'q str) -> At<'q> {
        At { parent: Some(self), step: Step::Key(key) }
    }

    fn index(&self, index: usize) -> At<'_> {
        At { parent: Some(self), step: Step::Index(index) }
    }

    fn render(&self) -> String {
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(a) = at {
            steps.push(a.step);
            at = a.parent;
        }
        let mut out = String::new();
        for step in steps.iter().rev() {
            match step {
                Step::Root => {}
                Step::Key(k) if out.is_empty() => out.push_str(k),
                Step::Key(k) => {
                    out.push('.');
                    out.push_str(k);
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        if out.is_empty() { "(document)".to_string() } else { out }
    }
}

fn fail(at: &At, message: impl Into<String>) -> Fail {
    Fail { field: at.render(), message: message.into() }
}

fn kind(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "true or false",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "a list",
        Json::Object(_) | Json::Xy(..) => "an object",
    }
}

type Entries<'j, 'a> = &'j [(Cow<'a, str>, Json<'a>)];

fn object<'j, 'a>(v: &'j Json<'a>, at: &At) -> Result<Entries<'j, 'a>, Fail> {
    match v {
        Json::Object(entries) => Ok(entries),
        // An object of only x and y has none of the keys an object is read for.
        Json::Xy(..) => Ok(&[]),
        other => Err(fail(at, format!("expected an object, found {}", kind(other)))),
    }
}

/// A field that may be absent; `null` counts as absent. The last of repeated keys wins.
fn optional<'j, 'a>(entries: Entries<'j, 'a>, key: &str) -> Option<&'j Json<'a>> {
    entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v).filter(|v| **v != Json::Null)
}

fn field<'j, 'a>(entries: Entries<'j, 'a>, at: &At, key: &str, expected: &str) -> Result<&'j Json<'a>, Fail> {
    optional(entries, key).ok_or_else(|| fail(&at.key(key), format!("missing (expected {expected})")))
}

fn array<'j, 'a>(v: &'j Json<'a>, at: &At) -> Result<&'j [Json<'a>], Fail> {
    match v {
        Json::Array(items) => Ok(items),
        other => Err(fail(at, format!("expected a list, found {}", kind(other)))),
    }
}

fn string<'j>(v: &'j Json, at: &At) -> Result<&'j str, Fail> {
    match v {
        Json::String(s) => Ok(s),
        other => Err(fail(at, format!("expected a string, found {}", kind(other)))),
    }
}

fn boolean(v: &Json, at: &At) -> Result<bool, Fail> {
    match v {
        Json::Bool(b) => Ok(*b),
        other => Err(fail(at, format!("expected true or false, found {}", kind(other)))),
    }
}

fn in_range(n: f64, at: &At) -> Result<f64, Fail> {
    if n.is_finite() && n.abs() <= MAX_NUMBER {
        Ok(n)
    } else {
        Err(fail(at, format!("{n} is out of range (beyond {MAX_NUMBER:e})")))
    }
}

fn number(v: &Json, at: &At) -> Result<f64, Fail> {
    match v {
        Json::Number(n) => in_range(*n, at),
        other => Err(fail(at, format!("expected a number, found {}", kind(other)))),
    }
}

/// A `{x, y}` point.
fn point(v: &Json, at: &At) -> Result<Squares, Fail> {
    match v {
        Json::Xy(x, y) => Ok((in_range(*x, &at.key("x"))?, in_range(*y, &at.key("y"))?)),
        Json::Object(entries) => {
            let x = number(field(entries, at, "x", "a number")?, &at.key("x"))?;
            let y = number(field(entries, at, "y", "a number")?, &at.key("y"))?;
            Ok((x, y))
        }
        other => Err(fail(at, format!("expected a point {{x, y}}, found {}", kind(other)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn encode_base64(bytes: &[u8]) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
            let n = ((b[0] as u32) << 16) | ((b[1] as u32) << 8) | b[2] as u32;
            for i in 0..4 {
                if i <= chunk.len() {
                    out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
                } else {
                    out.push('=');
                }
            }
        }
        out
    }

    /// The first 33 bytes of a PNG: signature and IHDR. Only the header is ever read.
    fn png_header(width: u32, height: u32) -> Vec<u8> {
        let mut b = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
        b.extend_from_slice(&width.to_be_bytes());
        b.extend_from_slice(&height.to_be_bytes());
        b.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
        b
    }

    fn riff(chunk: &[u8; 4], payload: &[u8]) -> Vec<u8> {
        let mut b = b"RIFF".to_vec();
        b.extend_from_slice(&(4 + 8 + payload.len() as u32).to_le_bytes());
        b.extend_from_slice(b"WEBP");
        b.extend_from_slice(chunk);
        b.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        b.extend_from_slice(payload);
        b
    }

    /// A small valid map: 10x8 squares, canvas origin (2, 1).
    fn minimal() -> Value {
        json!({
            "format": 0.3,
            "resolution": {
                "map_origin": {"x": 2, "y": 1},
                "map_size": {"x": 10, "y": 8},
                "pixels_per_grid": 2
            },
            "line_of_sight": [[{"x": 3, "y": 2}, {"x": 7, "y": 2}, {"x": 7, "y": 5}]],
            "objects_line_of_sight": [[{"x": 4, "y": 4}, {"x": 5, "y": 4}]],
            "portals": [
                {"position": {"x": 8, "y": 2}, "bounds": [{"x": 7.5, "y": 2}, {"x": 8.5, "y": 2}],
                 "rotation": 0, "closed": true, "freestanding": false},
                {"position": {"x": 7, "y": 6}, "bounds": [{"x": 7, "y": 5.5}, {"x": 7, "y": 6.5}],
                 "rotation": 1.5, "closed": false, "freestanding": false}
            ],
            "environment": {"baked_lighting": false, "ambient_light": "ffffffff"},
            "lights": [{"position": {"x": 4, "y": 3}, "range": 3, "intensity": 1.5,
                        "color": "80eccd8b", "shadows": true}],
            "image": encode_base64(&png_header(20, 16))
        })
    }

    fn import_value(v: &Value) -> Result<Imported, UvttError> {
        import_uvtt(&serde_json::to_vec(v).unwrap(), "test.dd2vtt", &ImportSettings::default())
    }

    /// The error's field and message for a map changed by `edit`.
    fn error_for(edit: impl FnOnce(&mut Value)) -> (String, String) {
        let mut v = minimal();
        edit(&mut v);
        match import_value(&v) {
            Ok(_) => panic!("expected an error for {v}"),
            Err(e) => {
                assert_eq!(e.file, "test.dd2vtt");
                assert!(!e.is_io());
                (e.field, e.message)
            }
        }
    }

    fn close(a: Point, b: Point) -> bool {
        (a.0 - b.0).abs() < 1e-4 && (a.1 - b.1).abs() < 1e-4
    }

    // --- base64 -------------------------------------------------------------------------------

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(decode_base64("TWFu", 100).unwrap(), b"Man");
        assert_eq!(decode_base64("TWE=", 100).unwrap(), b"Ma");
        assert_eq!(decode_base64("TQ==", 100).unwrap(), b"M");
        assert_eq!(decode_base64("TWE", 100).unwrap(), b"Ma");
        assert_eq!(decode_base64("TQ", 100).unwrap(), b"M");
        assert_eq!(decode_base64("", 100).unwrap(), b"");
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(decode_base64(&encode_base64(&all), 1000).unwrap(), all);
    }

    #[test]
    fn base64_skips_whitespace_and_takes_the_url_safe_alphabet() {
        assert_eq!(decode_base64(" TW\r\nFu\tTW E=\n", 100).unwrap(), b"ManMa");
        assert_eq!(decode_base64("-_-_", 100).unwrap(), decode_base64("+/+/", 100).unwrap());
    }

    #[test]
    fn base64_rejects_bad_characters_padding_and_length() {
        let e = decode_base64("TW!u", 100).unwrap_err();
        assert!(e.contains("'!' at offset 2"), "{e}");
        let e = decode_base64("TW\u{e9}u", 100).unwrap_err();
        assert!(e.contains("byte 0xc3 at offset 2"), "{e}");
        assert!(decode_base64("TQ==TWFu", 100).unwrap_err().contains("after its '=' padding"));
        assert!(decode_base64("TWFuT", 100).unwrap_err().contains("part-way"));
        assert!(decode_base64("TQ=", 100).unwrap_err().contains("1 '=' where 2 belong"));
        assert!(decode_base64("TWFu=", 100).unwrap_err().contains("1 '=' where 0 belong"));
        assert!(decode_base64("TWFuTWFu", 5).unwrap_err().contains("6 bytes once decoded"));
        assert_eq!(decode_base64("TWFuTWE", 5).unwrap(), b"ManMa");
    }

    // --- image headers -------------------------------------------------------------------------

    #[test]
    fn png_header_gives_the_pixel_size() {
        assert_eq!(image_header(&png_header(1280, 720)).unwrap(), ("png", 1280, 720));
        assert!(image_header(&png_header(1, 1)[..20]).unwrap_err().contains("IHDR"));
        let mut bad = png_header(1, 1);
        bad[12..16].copy_from_slice(b"IDAT");
        assert!(image_header(&bad).is_err());
    }

    #[test]
    fn webp_headers_give_the_pixel_size() {
        // Lossy: key frame tag, start code, 14-bit sizes with scale bits above them.
        let mut vp8 = vec![0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a];
        vp8.extend_from_slice(&(640u16 | 0x4000).to_le_bytes());
        vp8.extend_from_slice(&480u16.to_le_bytes());
        assert_eq!(image_header(&riff(b"VP8 ", &vp8)).unwrap(), ("webp", 640, 480));
        let mut not_key = vp8.clone();
        not_key[0] |= 1;
        assert!(image_header(&riff(b"VP8 ", &not_key)).is_err());

        // Lossless: width-1 in bits 0..14, height-1 in 14..28.
        let bits: u32 = (1000 - 1) | ((300 - 1) << 14) | (1 << 28);
        let mut vp8l = vec![0x2f];
        vp8l.extend_from_slice(&bits.to_le_bytes());
        vp8l.extend_from_slice(&[0; 5]);
        assert_eq!(image_header(&riff(b"VP8L", &vp8l)).unwrap(), ("webp", 1000, 300));
        let mut bad_version = vp8l.clone();
        bad_version[4] |= 0x20;
        assert!(image_header(&riff(b"VP8L", &bad_version)).is_err());

        // Extended: 24-bit width-1 and height-1 after flags and 3 reserved bytes.
        let mut vp8x = vec![0x10, 0, 0, 0];
        vp8x.extend_from_slice(&(20000u32 - 1).to_le_bytes()[..3]);
        vp8x.extend_from_slice(&(3u32 - 1).to_le_bytes()[..3]);
        assert_eq!(image_header(&riff(b"VP8X", &vp8x)).unwrap(), ("webp", 20000, 3));

        assert!(image_header(&riff(b"ALPH", &[0; 10])).unwrap_err().contains("ALPH"));
        assert!(image_header(&riff(b"VP8X", &[0; 2])).unwrap_err().contains("truncated"));
    }

    #[test]
    fn other_formats_are_refused_by_name() {
        assert!(image_header(b"\xFF\xD8\xFF\xE0rest").unwrap_err().contains("JPEG"));
        assert!(image_header(b"GIF89a.....").unwrap_err().contains("GIF"));
        assert!(image_header(b"").unwrap_err().contains("only PNG and WebP"));
    }

    #[test]
    fn image_size_limits() {
        assert!(decode_image(&encode_base64(&png_header(16385, 10))).unwrap_err().contains("16384-pixel limit"));
        assert!(decode_image(&encode_base64(&png_header(0, 10))).unwrap_err().contains("empty"));
        let ok = decode_image(&encode_base64(&png_header(16384, 16384))).unwrap();
        assert_eq!((ok.extension, ok.width_px, ok.height_px), ("png", 16384, 16384));
        let url = format!("data:image/png;base64,{}", encode_base64(&png_header(4, 5)));
        assert_eq!(decode_image(&url).unwrap().height_px, 5);
        assert!(decode_image("data:image/png,abc").is_err());
    }

    // --- coordinates ---------------------------------------------------------------------------

    #[test]
    fn points_lose_the_origin_and_flip_y() {
        let map = MapFrame { origin: (2.0, 1.0), size: (10.0, 8.0), scale: 1.0 };
        // Canvas (3, 2) is one square in from the map's top-left: (1, 8 - 1) on the table.
        assert_eq!(map.table(map.local((3.0, 2.0))), (1.0, 7.0));
        // The canvas origin itself is the map's top-left corner: the table's (0, height).
        assert_eq!(map.table(map.local((2.0, 1.0))), (0.0, 8.0));
        // The map's far corner is the table's lower-right.
        assert_eq!(map.table(map.local((12.0, 9.0))), (10.0, 0.0));
        let doubled = MapFrame { scale: 2.0, ..map };
        assert_eq!(doubled.table(doubled.local((3.0, 2.0))), (2.0, 14.0));
        // Within the snap distance of an edge: onto it.
        assert_eq!(map.local((1.995, 9.004)), (0.0, 8.0));
        assert_eq!(map.local((1.9, 9.1)).0, 1.9 - 2.0);
    }

    #[test]
    fn walls_are_cut_at_the_map_edge() {
        let map = MapFrame { origin: (0.0, 0.0), size: (10.0, 10.0), scale: 1.0 };
        // Out through the right edge and back in: two walls.
        let pieces = map.clip_polyline(&[(5.0, 5.0), (15.0, 5.0), (15.0, 7.0), (5.0, 7.0)]);
        assert_eq!(pieces, vec![vec![(5.0, 5.0), (10.0, 5.0)], vec![(10.0, 3.0), (5.0, 3.0)]]);
        // Wholly off the map, or only touching a corner: nothing.
        assert!(map.clip_polyline(&[(11.0, 1.0), (12.0, 9.0)]).is_empty());
        assert!(map.clip_polyline(&[(9.0, 11.0), (11.0, 9.0)]).is_empty());
        // Inside: unchanged, one wall, however many points.
        let inside = map.clip_polyline(&[(1.0, 1.0), (2.0, 1.0), (2.0, 2.0)]);
        assert_eq!(inside, vec![vec![(1.0, 9.0), (2.0, 9.0), (2.0, 8.0)]]);
        // Along an edge: kept.
        assert_eq!(map.clip_polyline(&[(0.0, 0.0), (10.0, 0.0)]), vec![vec![(0.0, 10.0), (10.0, 10.0)]]);
        // Fewer than two points: nothing.
        assert!(map.clip_polyline(&[(1.0, 1.0)]).is_empty());
    }

    #[test]
    fn ambient_light_maps_to_lighting() {
        assert_eq!(ambient_lighting([0xff, 0xff, 0xff, 0xff]), Lighting::Daylight);
        assert_eq!(ambient_lighting([0xff, 0xe6, 0xe6, 0xe6]), Lighting::Daylight); // 0.902
        assert_eq!(ambient_lighting([0xff, 0xe5, 0xe5, 0xe5]), Lighting::Overcast); // 0.898
        assert_eq!(ambient_lighting([0xff, 0x9a, 0x9a, 0x9a]), Lighting::Overcast); // 0.604
        assert_eq!(ambient_lighting([0xff, 0x98, 0x98, 0x98]), Lighting::Gloom); // 0.596
        assert_eq!(ambient_lighting([0xff, 0x5a, 0x5a, 0x5a]), Lighting::Gloom); // 0.353
        assert_eq!(ambient_lighting([0xff, 0x59, 0x59, 0x59]), Lighting::Dark); // 0.349
        assert_eq!(ambient_lighting([0xff, 0x1a, 0x1a, 0x1a]), Lighting::Dark); // 0.102
        assert_eq!(ambient_lighting([0xff, 0x19, 0x19, 0x19]), Lighting::PitchBlack); // 0.098
        // Alpha dims: white at half alpha is D/L.
        assert_eq!(ambient_lighting([0x80, 0xff, 0xff, 0xff]), Lighting::Gloom);
        // Green counts for most of the luminance, blue for least.
        assert_eq!(ambient_lighting([0xff, 0x00, 0xff, 0x00]), Lighting::Overcast);
        assert_eq!(ambient_lighting([0xff, 0x00, 0x00, 0xff]), Lighting::PitchBlack);
    }

    #[test]
    fn hex_colours_are_alpha_first() {
        let at = At::ROOT;
        assert_eq!(argb("80eccd8b", &at).unwrap(), [0x80, 0xec, 0xcd, 0x8b]);
        assert_eq!(argb("#FF4DD569", &at).unwrap(), [0xff, 0x4d, 0xd5, 0x69]);
        assert!(argb("eccd8b", &at).is_err());
        assert!(argb("gg000000", &at).is_err());
        let long = "f".repeat(1000);
        assert!(argb(&long, &at).unwrap_err().message.len() < 80);
    }

    // --- a whole map ---------------------------------------------------------------------------

    #[test]
    fn a_small_map_imports() {
        let imported = import_value(&minimal()).unwrap_or_else(|e| panic!("{e}"));
        let s = &imported.scene;
        assert_eq!(s.version, FORMAT_VERSION);
        assert_eq!(s.title, "test");
        assert_eq!(s.table, Table { width: 10.0, height: 8.0 });
        assert_eq!(s.lighting, Lighting::Daylight);
        // Wall: canvas (3,2) (7,2) (7,5) less origin (2,1) is (1,1) (5,1) (5,4); y flipped on 8.
        assert_eq!(
            s.walls[0],
            Wall { name: "wall 1".into(), kind: WallKind::Inner, points: vec![(1.0, 7.0), (5.0, 7.0), (5.0, 4.0)] }
        );
        assert_eq!(
            s.walls[1],
            Wall { name: "obstacle 1".into(), kind: WallKind::Low, points: vec![(2.0, 5.0), (3.0, 5.0)] }
        );
        assert_eq!(s.walls.len(), 2);
        assert_eq!(s.doors.len(), 2);
        assert_eq!((s.doors[0].name.as_str(), s.doors[0].kind, s.doors[0].open), ("door 1", DoorKind::Door, false));
        assert!(close(s.doors[0].from, (5.5, 7.0)) && close(s.doors[0].to, (6.5, 7.0)));
        assert_eq!((s.doors[1].name.as_str(), s.doors[1].kind, s.doors[1].open), ("window 1", DoorKind::Window, true));
        assert!(close(s.doors[1].from, (5.0, 3.5)) && close(s.doors[1].to, (5.0, 2.5)));
        let light = &s.lights[0];
        assert_eq!(light.name, "light 1");
        assert!(close(light.position, (2.0, 6.0)));
        assert_eq!((light.range, light.intensity, light.color.as_str()), (3.0, 1.0, "#eccd8b"));
        let image = imported.image.as_ref().unwrap();
        assert_eq!((image.extension, image.width_px, image.height_px), ("png", 20, 16));
        assert_eq!(image.bytes, png_header(20, 16));
        let bg = s.background.as_ref().unwrap();
        assert_eq!((bg.image.as_str(), bg.origin, bg.size), ("test.png", (0.0, 0.0), (10.0, 8.0)));
        assert!(validate(s).is_empty());
    }

    #[test]
    fn settings_scale_the_table_and_choose_the_wall_kind() {
        let settings = ImportSettings { inches_per_square: 2.0, wall_kind: WallKind::Outer };
        let bytes = serde_json::to_vec(&minimal()).unwrap();
        let s = import_uvtt(&bytes, "maps/keep.uvtt", &settings).unwrap().scene;
        assert_eq!(s.table, Table { width: 20.0, height: 16.0 });
        assert_eq!(s.walls[0].points, vec![(2.0, 14.0), (10.0, 14.0), (10.0, 8.0)]);
        assert_eq!((s.walls[0].kind, s.walls[1].kind), (WallKind::Outer, WallKind::Low));
        assert_eq!(s.lights[0].range, 6.0);
        assert_eq!(s.title, "keep");
        assert_eq!(s.background.unwrap().image, "keep.png");
    }

    #[test]
    fn optional_parts_may_be_absent() {
        let mut v = minimal();
        let top = v.as_object_mut().unwrap();
        for key in ["objects_line_of_sight", "portals", "environment", "lights", "image"] {
            top.remove(key);
        }
        top["resolution"].as_object_mut().unwrap().remove("map_origin");
        top["format"] = json!(0.2);
        let imported = import_value(&v).unwrap();
        assert!(imported.image.is_none() && imported.scene.background.is_none());
        assert_eq!(imported.scene.lighting, Lighting::default());
        // No origin: canvas (3, 2) is map (3, 2).
        assert_eq!(imported.scene.walls[0].points[0], (3.0, 6.0));
        assert_eq!(imported.scene.walls.len(), 1);
    }

    #[test]
    fn names_count_each_kind_and_short_lines_are_skipped() {
        let mut v = minimal();
        v["line_of_sight"] = json!([
            [{"x": 3, "y": 2}, {"x": 4, "y": 2}],
            [],
            [{"x": 3, "y": 3}],
            [{"x": 3, "y": 4}, {"x": 4, "y": 4}]
        ]);
        v["portals"][1]["closed"] = json!(true);
        let s = import_value(&v).unwrap().scene;
        let names: Vec<&str> = s.walls.iter().map(|w| w.name.as_str()).collect();
        assert_eq!(names, ["wall 1", "wall 2", "obstacle 1"]);
        let names: Vec<&str> = s.doors.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["door 1", "door 2"]);
    }

    #[test]
    fn off_map_geometry_is_cut_or_moved() {
        let mut v = minimal();
        // The map spans canvas x 2..12, y 1..9.
        v["line_of_sight"] = json!([[{"x": 10, "y": 2}, {"x": 14, "y": 2}, {"x": 14, "y": 4}, {"x": 10, "y": 4}]]);
        v["portals"] = json!([
            {"bounds": [{"x": 11, "y": 3}, {"x": 13, "y": 3}], "closed": true},
            {"bounds": [{"x": 20, "y": 3}, {"x": 21, "y": 3}], "closed": true}
        ]);
        v["lights"] = json!([
            {"position": {"x": 14, "y": 5}, "range": 3},
            {"position": {"x": 30, "y": 5}, "range": 3}
        ]);
        let s = import_value(&v).unwrap().scene;
        assert_eq!(s.walls[0].points, vec![(8.0, 7.0), (10.0, 7.0)]);
        assert_eq!(s.walls[1].points, vec![(10.0, 5.0), (8.0, 5.0)]);
        assert_eq!(s.walls[1].name, "wall 2");
        assert_eq!(s.doors.len(), 1);
        assert_eq!((s.doors[0].from, s.doors[0].to), ((9.0, 6.0), (10.0, 6.0)));
        assert_eq!(s.lights.len(), 1);
        assert_eq!((s.lights[0].position, s.lights[0].range), ((10.0, 4.0), 1.0));
        assert_eq!((s.lights[0].intensity, s.lights[0].color.as_str()), (1.0, "#ffffff"));
    }

    // --- every class of error ------------------------------------------------------------------

    fn import_text(text: &str) -> UvttError {
        import_uvtt(text.as_bytes(), "cave.dd2vtt", &ImportSettings::default()).unwrap_err()
    }

    #[test]
    fn not_json_or_truncated() {
        let e = import_text("{\"format\": 0.3,\n \"resolution\": oops}");
        assert_eq!(e.field, "line 2 column 16"); // the `o` of `oops`
        assert!(e.message.starts_with("not valid JSON"), "{e}");
        let whole = serde_json::to_string(&minimal()).unwrap();
        let e = import_text(&whole[..whole.len() / 2]);
        assert!(e.message.contains("truncated"), "{e}");
        assert!(import_text("").message.contains("truncated"));
        let deep = "[".repeat(10_000);
        assert!(import_text(&deep).message.contains("not valid JSON"));
        assert_eq!(import_text("[1, 2]").to_string(), "cave.dd2vtt: (document): expected an object, found a list");
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend(serde_json::to_vec(&minimal()).unwrap());
        assert!(import_uvtt(&bytes, "bom.dd2vtt", &ImportSettings::default()).is_ok());
    }

    #[test]
    fn wrong_types_name_the_field() {
        let e =
            import_text(r#"{"format": 0.3, "resolution": {"map_size": {"x": "ten", "y": 8}}, "line_of_sight": []}"#);
        assert_eq!(e.to_string(), "cave.dd2vtt: resolution.map_size.x: expected a number, found a string");
        let (f, m) = error_for(|v| v["line_of_sight"][0][1]["x"] = json!(true));
        assert_eq!((f.as_str(), m.as_str()), ("line_of_sight[0][1].x", "expected a number, found true or false"));
        let (f, m) = error_for(|v| v["line_of_sight"][0][2] = json!([7, 5]));
        assert_eq!((f.as_str(), m.as_str()), ("line_of_sight[0][2]", "expected a point {x, y}, found a list"));
        let (f, _) = error_for(|v| v["objects_line_of_sight"][0] = json!({"x": 1, "y": 2}));
        assert_eq!(f, "objects_line_of_sight[0]");
        let (f, _) = error_for(|v| v["line_of_sight"] = json!("walls"));
        assert_eq!(f, "line_of_sight");
        let (f, _) = error_for(|v| v["portals"][1]["closed"] = json!("no"));
        assert_eq!(f, "portals[1].closed");
        let (f, _) = error_for(|v| v["environment"]["baked_lighting"] = json!(1));
        assert_eq!(f, "environment.baked_lighting");
        let (f, _) = error_for(|v| v["environment"]["ambient_light"] = json!(16777215));
        assert_eq!(f, "environment.ambient_light");
        let (f, _) = error_for(|v| v["image"] = json!(["iVBOR"]));
        assert_eq!(f, "image");
        let (f, _) = error_for(|v| v["resolution"]["pixels_per_grid"] = json!(0));
        assert_eq!(f, "resolution.pixels_per_grid");
    }

    #[test]
    fn missing_fields_name_the_field() {
        let (f, m) = error_for(|v| {
            v.as_object_mut().unwrap().remove("format");
        });
        assert_eq!((f.as_str(), m.as_str()), ("format", "missing (expected a number)"));
        let (f, _) = error_for(|v| {
            v["resolution"].as_object_mut().unwrap().remove("map_size");
        });
        assert_eq!(f, "resolution.map_size");
        let (f, _) = error_for(|v| v["resolution"]["map_size"] = json!({"x": 10}));
        assert_eq!(f, "resolution.map_size.y");
        let (f, _) = error_for(|v| {
            v.as_object_mut().unwrap().remove("line_of_sight");
        });
        assert_eq!(f, "line_of_sight");
        let (f, _) = error_for(|v| {
            v["portals"][0].as_object_mut().unwrap().remove("closed");
        });
        assert_eq!(f, "portals[0].closed");
        let (f, _) = error_for(|v| {
            v["lights"][0].as_object_mut().unwrap().remove("range");
        });
        assert_eq!(f, "lights[0].range");
    }

    #[test]
    fn unsupported_versions_are_refused() {
        let (f, m) = error_for(|v| v["format"] = json!(1.0));
        assert_eq!(f, "format");
        assert!(m.contains("0.2 and 0.3"), "{m}");
    }

    #[test]
    fn absurd_numbers_and_sizes_are_refused() {
        let (f, m) = error_for(|v| v["line_of_sight"][0][0]["y"] = json!(1e300));
        assert_eq!(f, "line_of_sight[0][0].y");
        assert!(m.contains("out of range"), "{m}");
        let e = import_text(r#"{"format": 0.3, "resolution": {"map_size": {"x": 1e999, "y": 8}}}"#);
        assert!(e.message.contains("not valid JSON"), "{e}");
        let (f, m) = error_for(|v| v["resolution"]["map_size"]["x"] = json!(2000));
        assert_eq!(f, "resolution.map_size.x");
        assert!(m.contains("1 to 1000 inches"), "{m}");
        let (f, _) = error_for(|v| v["resolution"]["map_size"]["y"] = json!(-3));
        assert_eq!(f, "resolution.map_size.y");
        let (f, _) = error_for(|v| v["resolution"]["map_size"]["y"] = json!(0.5));
        assert_eq!(f, "resolution.map_size.y");
        let (f, m) = error_for(|v| v["lights"][0]["range"] = json!(0));
        assert_eq!((f.as_str(), m.as_str()), ("lights[0].range", "0 must be more than 0 squares"));
        let (f, m) = error_for(|v| v["portals"][0]["bounds"] = json!([{"x": 1, "y": 1}]));
        assert_eq!((f.as_str(), m.as_str()), ("portals[0].bounds", "expected two points, found 1"));
        let bad = ImportSettings { inches_per_square: f32::NAN, ..Default::default() };
        let e = import_uvtt(b"{}", "x.dd2vtt", &bad).unwrap_err();
        assert_eq!(e.field, "settings.inches_per_square");
        assert_eq!(check_file_size(MAX_FILE_BYTES + 1).unwrap_err().field, "file");
        assert!(check_file_size(MAX_FILE_BYTES).is_ok());
    }

    #[test]
    fn bad_colours_name_the_light() {
        let mut v = minimal();
        let light = v["lights"][0].clone();
        v["lights"] = json!([light.clone(), light.clone(), light.clone(), light]);
        v["lights"][3]["color"] = json!("zz");
        let e = import_value(&v).unwrap_err();
        assert_eq!(e.to_string(), "test.dd2vtt: lights[3].color: \"zz\" is not 8 hex digits (AARRGGBB)");
        let (f, _) = error_for(|v| v["environment"]["ambient_light"] = json!("ffffff"));
        assert_eq!(f, "environment.ambient_light");
    }

    #[test]
    fn too_many_things_are_refused() {
        let (f, m) = error_for(|v| {
            let p = json!({"x": 3, "y": 3});
            v["line_of_sight"][0] = Value::Array(vec![p; MAX_POINTS + 1]);
        });
        assert_eq!(f, "line_of_sight[0]");
        assert!(m.contains("more than the 10000"), "{m}");
        let (f, m) = error_for(|v| v["objects_line_of_sight"] = Value::Array(vec![json!([]); MAX_ENTITIES_PER_KIND]));
        assert_eq!(f, "line_of_sight");
        assert!(m.contains("1 walls and 10000 obstacles"), "{m}");
        let (f, _) = error_for(|v| v["lights"] = Value::Array(vec![json!({}); MAX_ENTITIES_PER_KIND + 1]));
        assert_eq!(f, "lights");
        let (f, _) = error_for(|v| v["portals"] = Value::Array(vec![json!({}); MAX_ENTITIES_PER_KIND + 1]));
        assert_eq!(f, "portals");
    }

    #[test]
    fn bad_images_are_refused() {
        let (f, m) = error_for(|v| v["image"] = json!("iVBORw0KGgo*"));
        assert_eq!(f, "image");
        assert!(m.contains("'*' at offset 11"), "{m}");
        let (_, m) = error_for(|v| v["image"] = json!(encode_base64(b"\xFF\xD8\xFF\xE0 a jpeg")));
        assert!(m.contains("JPEG"), "{m}");
        let (_, m) = error_for(|v| v["image"] = json!(encode_base64(&png_header(20000, 100))));
        assert!(m.contains("20000x100"), "{m}");
        let (_, m) = error_for(|v| v["image"] = json!(encode_base64(&png_header(20, 16)[..18])));
        assert!(m.contains("IHDR"), "{m}");
        // An empty image is no image.
        let mut v = minimal();
        v["image"] = json!("");
        assert!(import_value(&v).unwrap().image.is_none());
    }

    #[test]
    fn webp_images_name_a_webp_background() {
        let mut vp8x = vec![0u8; 4];
        vp8x.extend_from_slice(&[19, 0, 0, 15, 0, 0]);
        let mut v = minimal();
        v["image"] = json!(encode_base64(&riff(b"VP8X", &vp8x)));
        let imported = import_value(&v).unwrap();
        let image = imported.image.unwrap();
        assert_eq!((image.extension, image.width_px, image.height_px), ("webp", 20, 16));
        assert_eq!(imported.scene.background.unwrap().image, "test.webp");
    }

    #[test]
    fn escaped_strings_and_repeated_keys_are_read() {
        // An escape in the string (here \u0069 for its first letter, 'i') makes serde_json hand
        // over an unescaped copy instead of a borrow.
        let image = encode_base64(&png_header(20, 16));
        assert!(image.starts_with('i'));
        let image = format!("\\u0069{}", &image[1..]);
        let mut text = serde_json::to_string(&minimal()).unwrap();
        let start = text.find("\"image\":\"").unwrap() + 9;
        let end = start + text[start..].find('"').unwrap();
        text.replace_range(start..end, &image);
        let imported = import_uvtt(text.as_bytes(), "e.dd2vtt", &ImportSettings::default()).unwrap();
        assert_eq!(imported.image.unwrap().width_px, 20);
        // The last of repeated keys wins, as in most JSON readers.
        let doc: Json = serde_json::from_str(r#"{"a": 1, "a": 2}"#).unwrap();
        assert_eq!(optional(object(&doc, &At::ROOT).unwrap(), "a"), Some(&Json::Number(2.0)));
        let doc: Json = serde_json::from_str(r#"{"y": 1, "x": 2}"#).unwrap();
        assert_eq!(doc, Json::Xy(2.0, 1.0));
    }

    #[test]
    fn io_errors_are_marked() {
        let e = read_uvtt(Path::new("/nonexistent/dir/map.dd2vtt"), &ImportSettings::default()).unwrap_err();
        assert!(e.is_io());
        assert_eq!((e.file.as_str(), e.field.as_str()), ("/nonexistent/dir/map.dd2vtt", "file"));
    }
}
