//! The map image: reading the embedded PNG or WebP's format and pixel size from its header (it
//! is never decoded), and the scene background that names it.

use super::json::{At, Entries, fail, optional, string};
use super::{Fail, MAX_IMAGE_BYTES, MAX_IMAGE_SIDE_PX, MapImage, shown};
use crate::scene::base64::decode_base64;
use crate::scene::format::{Background, Table};

/// The `image` field, if the file has one that is not empty.
pub(super) fn read_image(top: Entries<'_, '_>) -> Result<Option<MapImage>, Fail> {
    let root = At::ROOT;
    let image = match optional(top, "image") {
        Some(v) => {
            let at = root.key("image");
            let text = string(v, &at)?;
            if text.trim().is_empty() { None } else { Some(decode_image(text).map_err(|m| fail(&at, m))?) }
        }
        None => None,
    };
    Ok(image)
}

/// The background for the image written beside the scene as `<stem>.<extension>`, covering the
/// whole table.
pub(super) fn background(image: Option<&MapImage>, stem: &str, table: &Table) -> Option<Background> {
    image.map(|img| Background {
        image: format!("{stem}.{}", img.extension),
        origin: (0.0, 0.0),
        size: (table.width, table.height),
    })
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::uvtt::fixtures::{encode_base64, error_for, import_value, minimal, png_header, riff};
    use serde_json::json;

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
}
