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
//!
//! The import runs in steps, each in a file of its own and each reading one part of the
//! document, in this order (so the first error found is always the same one): the file's size
//! and the settings, the JSON tree (`json`, which also reads every value with its path), the
//! `format`, the frame on the canvas (`frame`), walls and obstacles (`walls`), doors and windows
//! (`portals`), lights (`lights`), the ambient lighting (`environment`), the image (`image`,
//! its base64 in `base64`), and last the checks every scene passes.

mod environment;
#[cfg(test)]
mod fixtures;
mod frame;
mod image;
mod json;
mod lights;
mod portals;
mod walls;

use self::json::{At, Entries, fail, field, number, object};
use super::format::{FORMAT_VERSION, Scene, WallKind};
use super::load::{MAX_TABLE_INCHES, validate};
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
    /// Width in pixels.
    pub width_px: u32,
    /// Height in pixels.
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
    /// The scene made from the map.
    pub scene: Scene,
    /// The map's image.
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
    /// What is wrong.
    pub message: String,
    io: bool,
}

impl UvttError {
    /// Exit code class: the file could not be read (2), as against a bad file (1).
    pub fn is_io(&self) -> bool {
        self.io
    }
}

/// Read and import a map file from disk. The read stops at [`MAX_FILE_BYTES`], so a device or
/// a huge file never fills memory.
pub fn read_uvtt(path: &Path, settings: &ImportSettings) -> Result<Imported, UvttError> {
    let file = path.display().to_string();
    let io =
        |e: std::io::Error| UvttError { file: file.clone(), field: "file".into(), message: e.to_string(), io: true };
    let bytes = match crate::scene::load::read_bounded(path, MAX_FILE_BYTES).map_err(io)? {
        Ok(bytes) => bytes,
        Err(size) => return Err(too_large(size).into_error(&file)),
    };
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
        return Err(too_large(size));
    }
    Ok(())
}

/// The error for a map file over [`MAX_FILE_BYTES`]; `size` is what was read or reported.
fn too_large(size: u64) -> Fail {
    Fail::new("file", format!("{size} bytes, larger than the {MAX_FILE_BYTES}-byte limit for map files"))
}

fn import(bytes: &[u8], file_name: &str, settings: &ImportSettings) -> Result<Imported, Fail> {
    check_file_size(bytes.len() as u64)?;
    check_settings(settings)?;
    let doc = json::parse(bytes)?;
    let root = At::ROOT;
    let top = object(&doc, &root)?;
    check_format(top)?;
    let (table, map) = frame::read_frame(top, settings.inches_per_square)?;
    let walls = walls::read_walls(top, settings.wall_kind, &map)?;
    let doors = portals::read_doors(top, &map)?;
    let lights = lights::read_lights(top, &map)?;
    let lighting = environment::read_lighting(top)?;
    let stem = title_stem(file_name);
    let image = image::read_image(top)?;
    let background = image::background(image.as_ref(), stem, &table);

    let scene = Scene {
        version: FORMAT_VERSION,
        title: stem.to_string(),
        table,
        seed: 0,
        lighting,
        clock: Default::default(),
        rules_family: Default::default(),
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
        fire_state: None,
        cattle_grids: Vec::new(),
        location_tables: Vec::new(),
        treatments: Vec::new(),
        temptations: Vec::new(),
        decisions: Vec::new(),
        outvotes: Vec::new(),
        weakness_checks: Vec::new(),
        trails: Default::default(),
        objectives: Vec::new(),
        magic: Default::default(),
        obstacles: Default::default(),
        osr: Default::default(),
        fog: None,
    };
    check_scene(&scene)?;
    check_saved_size(&scene)?;
    Ok(Imported { scene, image })
}

/// Inches per square: more than 0 and at most a table's largest side.
fn check_settings(settings: &ImportSettings) -> Result<(), Fail> {
    let ips = settings.inches_per_square;
    if !(ips.is_finite() && ips > 0.0 && ips <= MAX_TABLE_INCHES) {
        return Err(Fail::new(
            "settings.inches_per_square",
            format!("{ips} must be more than 0 and at most {MAX_TABLE_INCHES}"),
        ));
    }
    Ok(())
}

/// `format`: a Universal VTT version this build reads.
fn check_format(top: Entries<'_, '_>) -> Result<(), Fail> {
    let root = At::ROOT;
    let format_at = root.key("format");
    let format = number(field(top, &root, "format", "a number")?, &format_at)?;
    if !FORMATS.iter().any(|v| (format - v).abs() < 1e-9) {
        return Err(fail(
            &format_at,
            format!("{format} is not a Universal VTT version this build reads (0.2 and 0.3)"),
        ));
    }
    Ok(())
}

/// The file name's stem, for the scene's title and the image's file name; `map` when it has none.
fn title_stem(file_name: &str) -> &str {
    Path::new(file_name).file_stem().and_then(|s| s.to_str()).filter(|s| !s.trim().is_empty()).unwrap_or("map")
}

/// The imported scene must pass the checks every scene file passes.
fn check_scene(scene: &Scene) -> Result<(), Fail> {
    let problems = validate(scene);
    if !problems.is_empty() {
        let list = problems.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("; ");
        return Err(Fail::new("scene", format!("the imported scene fails the scene checks: {list}")));
    }
    Ok(())
}

/// The scene as `tabula import -o` and Save as write it must load again: no larger than a scene
/// file may be. Many points with long coordinates can pass [`MAX_TOTAL_POINTS`] and still not.
fn check_saved_size(scene: &Scene) -> Result<(), Fail> {
    let limit = super::load::MAX_FILE_BYTES;
    let text = super::save::scene_to_ron(scene)
        .map_err(|e| Fail::new("scene", format!("the imported scene cannot be written: {e}")))?;
    if text.len() as u64 > limit {
        let points: usize = scene.walls.iter().map(|w| w.points.len()).sum();
        return Err(Fail::new(
            "line_of_sight",
            format!(
                "the imported scene would be {} bytes ({points} wall points), larger than the {limit}-byte \
                 limit for scene files",
                text.len()
            ),
        ));
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::fixtures::{error_for, import_text, import_value, minimal, png_header};
    use super::*;
    use crate::rules::lighting::Lighting;
    use crate::scene::format::{DoorKind, Point, Table, Wall};
    use crate::scene::load::{MAX_ENTITIES_PER_KIND, MAX_POINTS};
    use serde_json::{Value, json};

    fn close(a: Point, b: Point) -> bool {
        (a.0 - b.0).abs() < 1e-4 && (a.1 - b.1).abs() < 1e-4
    }

    #[test]
    fn a_small_map_imports() {
        let imported = import_value(&minimal()).unwrap_or_else(|e| panic!("{e}"));
        let s = &imported.scene;
        assert_eq!(s.version, FORMAT_VERSION);
        assert_eq!(s.title, "test");
        assert_eq!(s.table, Table { width: 10.0, height: 8.0 });
        assert_eq!(s.lighting, Lighting::Daylight);
        // Wall: canvas (3,2) (7,2) (7,5) less origin (2,1) is (1,1) (5,1) (5,4); y flipped on 8.
        assert_eq!(s.walls[0], Wall::new("wall 1", WallKind::Inner, vec![(1.0, 7.0), (5.0, 7.0), (5.0, 4.0)]));
        assert_eq!(s.walls[1], Wall::new("obstacle 1", WallKind::Low, vec![(2.0, 5.0), (3.0, 5.0)]));
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

    /// Points within every cap whose scene would not load again (found by the fuzzer): refused.
    #[test]
    fn a_map_whose_scene_would_be_too_large_to_load_is_refused() {
        let (f, m) = error_for(|v| {
            let walls: Vec<Value> = (0..48)
                .map(|w| {
                    let points = (0..MAX_POINTS)
                        .map(|i| {
                            let t = (w * MAX_POINTS + i) as f64 * 1.234_567e-5;
                            json!({"x": 3.0 + t % 5.0, "y": 2.0 + (t * 7.0) % 4.0})
                        })
                        .collect();
                    Value::Array(points)
                })
                .collect();
            v["line_of_sight"] = Value::Array(walls);
        });
        assert_eq!(f, "line_of_sight");
        assert!(m.contains("larger than the 16777216-byte limit for scene files"), "{m}");
        // The same map with a tenth of the walls imports.
        let mut v = minimal();
        v["line_of_sight"] = Value::Array(vec![
            Value::Array(
                (0..MAX_POINTS).map(|i| json!({"x": 3.0 + i as f64 * 1e-4, "y": 2.5})).collect()
            );
            4
        ]);
        assert!(import_value(&v).is_ok());
    }

    #[test]
    fn io_errors_are_marked() {
        let e = read_uvtt(Path::new("/nonexistent/dir/map.dd2vtt"), &ImportSettings::default()).unwrap_err();
        assert!(e.is_io());
        assert_eq!((e.file.as_str(), e.field.as_str()), ("/nonexistent/dir/map.dd2vtt", "file"));
    }
}
