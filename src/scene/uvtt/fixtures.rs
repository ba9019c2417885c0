//! Test fixtures shared by the importer's unit tests: a small valid map, and the image
//! headers and base64 to build one.

use super::{ImportSettings, Imported, UvttError, import_uvtt};
pub(super) use crate::scene::base64::encode_base64;
use serde_json::{Value, json};

/// The first 33 bytes of a PNG: signature and IHDR. Only the header is ever read.
pub(super) fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    b.extend_from_slice(&width.to_be_bytes());
    b.extend_from_slice(&height.to_be_bytes());
    b.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
    b
}

pub(super) fn riff(chunk: &[u8; 4], payload: &[u8]) -> Vec<u8> {
    let mut b = b"RIFF".to_vec();
    b.extend_from_slice(&(4 + 8 + payload.len() as u32).to_le_bytes());
    b.extend_from_slice(b"WEBP");
    b.extend_from_slice(chunk);
    b.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    b.extend_from_slice(payload);
    b
}

/// A small valid map: 10x8 squares, canvas origin (2, 1).
pub(super) fn minimal() -> Value {
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

pub(super) fn import_value(v: &Value) -> Result<Imported, UvttError> {
    import_uvtt(&serde_json::to_vec(v).unwrap(), "test.dd2vtt", &ImportSettings::default())
}

/// The error's field and message for a map changed by `edit`.
pub(super) fn error_for(edit: impl FnOnce(&mut Value)) -> (String, String) {
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

/// The error for a map given as text.
pub(super) fn import_text(text: &str) -> UvttError {
    import_uvtt(text.as_bytes(), "cave.dd2vtt", &ImportSettings::default()).unwrap_err()
}
