//! Universal VTT import on real exports (../shared/uvtt, see its README): counts, positions
//! worked out here from the raw JSON, the cropped map's origin, and the embedded image.
//!
//! The samples live beside the clone, not in it; where they are missing the tests say so and pass.

use serde_json::Value;
use std::path::Path;
use tabula::rules::lighting::Lighting;
use tabula::scene::uvtt::{ImportSettings, Imported, import_uvtt, read_uvtt};
use tabula::scene::{DoorKind, Point, Wall, WallKind, scene_to_ron};

const CAVE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/uvtt/cave-20x20.dd2vtt");
const CROPPED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/uvtt/cropped-origin-10x10.dd2vtt");

/// The file's bytes and its JSON, or `None` (with a note) when the sample is not there.
fn sample(path: &str) -> Option<(Vec<u8>, Value)> {
    match std::fs::read(path) {
        Ok(bytes) => {
            let json = serde_json::from_slice(&bytes).expect("the sample is JSON");
            Some((bytes, json))
        }
        Err(e) => {
            eprintln!("note: skipping, sample map {path} not readable ({e}); it sits in ../shared beside the clone");
            None
        }
    }
}

fn import(bytes: &[u8], name: &str, settings: &ImportSettings) -> Imported {
    import_uvtt(bytes, name, settings).unwrap_or_else(|e| panic!("{e}"))
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("expected a number, found {v}"))
}

/// The frame from the raw JSON: origin (x, y) and map height, in squares.
fn frame(json: &Value) -> ((f64, f64), f64) {
    let res = &json["resolution"];
    ((num(&res["map_origin"]["x"]), num(&res["map_origin"]["y"])), num(&res["map_size"]["y"]))
}

/// The transform written out again: take off the origin, flip y (image rows run down, the
/// table's y runs up from the lower-left corner), scale squares to inches.
fn expected(p: &Value, origin: (f64, f64), map_height: f64, inches_per_square: f64) -> Point {
    let x = (num(&p["x"]) - origin.0) * inches_per_square;
    let y = (map_height - (num(&p["y"]) - origin.1)) * inches_per_square;
    (x as f32, y as f32)
}

fn assert_close(got: Point, want: Point, what: &str) {
    assert!((got.0 - want.0).abs() < 1e-4 && (got.1 - want.1).abs() < 1e-4, "{what}: got {got:?}, want {want:?}");
}

fn list(json: &Value, key: &str) -> Vec<Value> {
    json.get(key).and_then(Value::as_array).cloned().unwrap_or_default()
}

fn of_kind(walls: &[Wall], kind: WallKind) -> Vec<&Wall> {
    walls.iter().filter(|w| w.kind == kind).collect()
}

/// Every count, wall point, door and light of an import against the raw JSON.
fn check_against_json(imported: &Imported, json: &Value, inches_per_square: f64) {
    let scene = &imported.scene;
    let (origin, map_height) = frame(json);
    let portals = list(json, "portals");
    let closed = portals.iter().filter(|p| p["closed"] == Value::Bool(true)).count();

    let walls = of_kind(&scene.walls, WallKind::Inner);
    let obstacles = of_kind(&scene.walls, WallKind::Low);
    let doors: Vec<_> = scene.doors.iter().filter(|d| d.kind == DoorKind::Door).collect();
    let windows: Vec<_> = scene.doors.iter().filter(|d| d.kind == DoorKind::Window).collect();
    assert_eq!(walls.len(), list(json, "line_of_sight").len(), "walls");
    assert_eq!(obstacles.len(), list(json, "objects_line_of_sight").len(), "obstacles");
    assert_eq!(scene.walls.len(), walls.len() + obstacles.len(), "no other wall kinds");
    assert_eq!(doors.len(), closed, "doors");
    assert_eq!(windows.len(), portals.len() - closed, "windows");
    assert_eq!(scene.lights.len(), list(json, "lights").len(), "lights");

    // Every wall and obstacle point, in order.
    for (key, imported_walls, stem) in
        [("line_of_sight", &walls, "wall"), ("objects_line_of_sight", &obstacles, "obstacle")]
    {
        for (i, (raw, wall)) in list(json, key).iter().zip(imported_walls.iter()).enumerate() {
            assert_eq!(wall.name, format!("{stem} {}", i + 1));
            let raw = raw.as_array().expect("a polyline");
            assert_eq!(wall.points.len(), raw.len(), "{key}[{i}] point count");
            for (j, (p, &got)) in raw.iter().zip(&wall.points).enumerate() {
                assert_close(got, expected(p, origin, map_height, inches_per_square), &format!("{key}[{i}][{j}]"));
            }
        }
    }

    // Portals, in order: closed ones are shut doors, open ones open windows.
    let (mut door_n, mut window_n) = (0, 0);
    for (i, (raw, door)) in portals.iter().zip(&scene.doors).enumerate() {
        if raw["closed"] == Value::Bool(true) {
            door_n += 1;
            assert_eq!((door.name.clone(), door.kind, door.open), (format!("door {door_n}"), DoorKind::Door, false));
        } else {
            window_n += 1;
            assert_eq!(
                (door.name.clone(), door.kind, door.open),
                (format!("window {window_n}"), DoorKind::Window, true)
            );
        }
        assert_close(
            door.from,
            expected(&raw["bounds"][0], origin, map_height, inches_per_square),
            &format!("portals[{i}] from"),
        );
        assert_close(
            door.to,
            expected(&raw["bounds"][1], origin, map_height, inches_per_square),
            &format!("portals[{i}] to"),
        );
    }

    for (i, (raw, light)) in list(json, "lights").iter().zip(&scene.lights).enumerate() {
        assert_eq!(light.name, format!("light {}", i + 1));
        assert_close(
            light.position,
            expected(&raw["position"], origin, map_height, inches_per_square),
            &format!("lights[{i}]"),
        );
        assert!((light.range as f64 - num(&raw["range"]) * inches_per_square).abs() < 1e-4, "lights[{i}] range");
        assert!((light.intensity as f64 - num(&raw["intensity"]).clamp(0.0, 1.0)).abs() < 1e-6);
        // AARRGGBB: the colour is the last six digits.
        let argb = raw["color"].as_str().expect("a colour string");
        assert_eq!(light.color, format!("#{}", &argb[2..]).to_lowercase(), "lights[{i}] colour");
    }
}

/// The table, background and image against the raw JSON.
fn check_frame_and_image(imported: &Imported, json: &Value, stem: &str, inches_per_square: f64) {
    let scene = &imported.scene;
    let res = &json["resolution"];
    let (squares_x, squares_y) = (num(&res["map_size"]["x"]), num(&res["map_size"]["y"]));
    let table = ((squares_x * inches_per_square) as f32, (squares_y * inches_per_square) as f32);
    assert_eq!((scene.table.width, scene.table.height), table);
    assert_eq!(scene.title, stem);

    let image = imported.image.as_ref().expect("the sample embeds its image");
    assert_eq!(image.extension, "png");
    assert!(image.bytes.starts_with(b"\x89PNG"));
    let ppg = num(&res["pixels_per_grid"]);
    assert_eq!(image.width_px as f64, ppg * squares_x, "image width");
    assert_eq!(image.height_px as f64, ppg * squares_y, "image height");

    let bg = scene.background.as_ref().expect("a background");
    assert_eq!(bg.image, format!("{stem}.png"));
    assert_eq!((bg.origin, bg.size), ((0.0, 0.0), table));
}

/// The imported scene saves and loads back unchanged.
fn round_trips(imported: &Imported) {
    let text = scene_to_ron(&imported.scene).expect("the scene writes");
    let back = tabula::scene::parse_scene(&text, Path::new("imported.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, imported.scene);
}

#[test]
fn cave_imports_with_every_wall_door_and_light() {
    let Some((bytes, json)) = sample(CAVE) else { return };
    // What the README says the sample holds, so a changed file is noticed.
    assert_eq!(json["format"], serde_json::json!(0.3));
    assert_eq!(list(&json, "portals").len(), 3);
    assert_eq!(list(&json, "lights").len(), 1);
    assert_eq!(list(&json, "objects_line_of_sight").len(), 2);

    let imported = import(&bytes, "cave-20x20.dd2vtt", &ImportSettings::default());
    check_against_json(&imported, &json, 1.0);
    check_frame_and_image(&imported, &json, "cave-20x20", 1.0);
    let s = &imported.scene;
    assert_eq!((s.table.width, s.table.height), (20.0, 20.0));
    assert_eq!(s.walls.len(), 11);
    assert!(s.doors.iter().all(|d| d.kind == DoorKind::Door && !d.open));
    // Ambient ffffffff: full light. Baked lighting changes nothing for the rules.
    assert_eq!(json["environment"]["ambient_light"], "ffffffff");
    assert_eq!(s.lighting, Lighting::Daylight);

    // Spot checks written out by hand. line_of_sight[0][0] is canvas (7.359375, 5), origin
    // (0, 0), 20 squares high: table (7.359375, 15).
    assert_eq!(s.walls[0].points[0], (7.359375, 15.0));
    // portals[1] bounds (12, 15.5)-(12, 14.5): table (12, 4.5)-(12, 5.5).
    assert_eq!((s.doors[1].from, s.doors[1].to), ((12.0, 4.5), (12.0, 5.5)));
    // The light at canvas (6.132305, 7.212773), range 9.900001, colour ffeccd8b.
    assert_close(s.lights[0].position, (6.132305, 20.0 - 7.212773), "light");
    assert_eq!(s.lights[0].color, "#eccd8b");
    round_trips(&imported);
}

#[test]
fn cave_at_two_inches_a_square_with_outer_walls() {
    let Some((bytes, json)) = sample(CAVE) else { return };
    let settings = ImportSettings { inches_per_square: 2.0, wall_kind: WallKind::Outer };
    let imported = import(&bytes, "cave-20x20.dd2vtt", &settings);
    let s = &imported.scene;
    assert_eq!((s.table.width, s.table.height), (40.0, 40.0));
    assert_eq!(of_kind(&s.walls, WallKind::Outer).len(), list(&json, "line_of_sight").len());
    assert_eq!(of_kind(&s.walls, WallKind::Low).len(), list(&json, "objects_line_of_sight").len());
    assert_eq!(s.walls[0].points[0], (2.0 * 7.359375, 30.0));
    assert!((s.lights[0].range - 19.800002).abs() < 1e-4);
    check_frame_and_image(&imported, &json, "cave-20x20", 2.0);
}

#[test]
fn cropped_map_subtracts_its_origin() {
    let Some((bytes, json)) = sample(CROPPED) else { return };
    let (origin, map_height) = frame(&json);
    assert_eq!(origin, (2.0, 1.0), "the sample is a cropped export");

    let imported = import(&bytes, "cropped-origin-10x10.dd2vtt", &ImportSettings::default());
    check_against_json(&imported, &json, 1.0);
    check_frame_and_image(&imported, &json, "cropped-origin-10x10", 1.0);
    let s = &imported.scene;
    assert_eq!((s.table.width, s.table.height), (10.0, 10.0));
    assert_eq!(s.doors.iter().filter(|d| d.kind == DoorKind::Window && d.open).count(), 1);
    assert_eq!(s.doors.iter().filter(|d| d.kind == DoorKind::Door && !d.open).count(), 1);

    // The room's outline, line_of_sight[3], starts at canvas (11, 10). Less the origin it is
    // map (9, 9); flipped on the 10-square height it is table (9, 1), inside the table. Without
    // the origin taken off it would be x = 11, off the 10" table.
    let outline = &json["line_of_sight"][3];
    let raw = (num(&outline[0]["x"]), num(&outline[0]["y"]));
    assert_eq!(raw, (11.0, 10.0));
    assert!(raw.0 > s.table.width as f64, "uncorrected, the point would be off the table");
    let want = ((raw.0 - origin.0) as f32, (map_height - (raw.1 - origin.1)) as f32);
    assert_eq!(want, (9.0, 1.0));
    assert_eq!(s.walls[3].points[0], want);
    // Every wall point is on the table.
    for w in &s.walls {
        for &(x, y) in &w.points {
            assert!(
                (0.0..=s.table.width).contains(&x) && (0.0..=s.table.height).contains(&y),
                "{} at ({x}, {y})",
                w.name
            );
        }
    }
    // The two lights: canvas (8.570312, 9) and (8.007812, 2.984375).
    assert_close(s.lights[0].position, (6.570312, 10.0 - 8.0), "light 1");
    assert_close(s.lights[1].position, (6.007812, 10.0 - 1.984375), "light 2");
    assert_eq!((s.lights[0].color.as_str(), s.lights[1].color.as_str()), ("#eccd8b", "#4dd569"));
    round_trips(&imported);
}

#[test]
fn read_from_disk_names_the_file() {
    if sample(CROPPED).is_none() {
        return;
    }
    let imported = read_uvtt(Path::new(CROPPED), &ImportSettings::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(imported.scene.title, "cropped-origin-10x10");
}

#[test]
fn a_truncated_real_export_is_an_error_not_a_panic() {
    let Some((bytes, _)) = sample(CAVE) else { return };
    for cut in [0, 1, 100, bytes.len() / 3, bytes.len() - 2] {
        let e = import_uvtt(&bytes[..cut], "cave-20x20.dd2vtt", &ImportSettings::default())
            .expect_err("a cut file is not a map");
        assert!(e.to_string().starts_with("cave-20x20.dd2vtt: "), "{e}");
        assert!(!e.is_io());
    }
}
