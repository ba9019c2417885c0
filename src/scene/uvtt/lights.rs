//! Light sources: `lights` keep their position and range (squares to inches), intensity
//! clamped to 0..=1, the colour `AARRGGBB` as `#rrggbb`; a light beyond the edge moves onto it
//! with its range cut by the distance moved.

use super::frame::MapFrame;
use super::json::{At, Entries, array, fail, field, number, object, optional, point, string};
use super::{Fail, shown};
use crate::scene::format::Light;
use crate::scene::load::{MAX_ENTITIES_PER_KIND, MAX_TABLE_INCHES};

/// The lights (`light 1`...) that reach the table.
pub(super) fn read_lights(top: Entries<'_, '_>, map: &MapFrame) -> Result<Vec<Light>, Fail> {
    let root = At::ROOT;
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
            let reach = (((range - moved) * map.scale).min(MAX_TABLE_INCHES as f64)) as f32;
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
    Ok(lights)
}

/// `AARRGGBB` (a leading `#` allowed) as [alpha, red, green, blue].
pub(super) fn argb(text: &str, at: &At) -> Result<[u8; 4], Fail> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::uvtt::fixtures::{error_for, import_value, minimal};
    use serde_json::json;

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
}
