//! Ambient lighting (house rule): the luminance of `environment.ambient_light` picks the
//! scene's lighting; `baked_lighting` is read only to reject garbage.

use super::Fail;
use super::json::{At, Entries, boolean, object, optional, string};
use super::lights::argb;
use crate::rules::lighting::Lighting;

/// The scene lighting from `environment`; the scene default when there is none.
pub(super) fn read_lighting(top: Entries<'_, '_>) -> Result<Lighting, Fail> {
    let root = At::ROOT;
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
    Ok(lighting)
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
