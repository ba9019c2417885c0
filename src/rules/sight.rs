//! How far a figure sees by the light there is (001 "Lighting") and how far carried lights and
//! burning fires light (house rules), for sight on the table (`docs/sight.md`). The geometry
//! (what blocks sight, what is in line of sight) is `crate::sim::geometry::visibility`.
//!
//! House rules, at `rules.sight.*` in the scene's `rules` block (`docs/house-rules.md`).

use super::lighting::{Lighting, LightingSettings, PITCH_BLACK_SIGHT_INCHES};
use serde::{Deserialize, Serialize};

/// House default (issue #17): how far one sees in D/L, inches. 001 "Lighting" gives "D/L
/// gloomy half light" no sight number.
pub const GLOOM_SIGHT_INCHES: f32 = 12.0;
/// House default (issue #17): how far a torch lights round it, inches; the texts give none.
pub const TORCH_RADIUS_INCHES: f32 = 6.0;
/// House default (issue #17): how far a lantern lights round it, inches; the texts give none.
pub const LANTERN_RADIUS_INCHES: f32 = 9.0;
/// House default (issue #17, "fires light their burning area plus a margin"): how far beyond
/// burning ground a fire lights, inches; neither the issue nor the texts give a number. The
/// product's: half a torch's 6" (a torch is a small flame held up, burning ground a low one).
pub const FIRE_LIGHT_MARGIN_INCHES: f32 = 3.0;

/// The sight numbers the texts do not give. Every field is a house rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SightSettings {
    /// House rule: how far one sees in D/L, inches. 001 "Lighting": "D/L gloomy half light or
    /// moonlight", no number; default 12" (issue #17), well beyond DDL's and short of daylight.
    pub gloom_sight_in: f32,
    /// House rule: how far a carried torch lights, inches (default 6").
    pub torch_radius_in: f32,
    /// House rule: how far a carried lantern lights, inches (default 9").
    pub lantern_radius_in: f32,
    /// House rule: how far beyond its burning ground a fire lights, inches (default 3"). Issue
    /// #17: "fires light their burning area plus a margin", no number.
    pub fire_light_margin_in: f32,
}

impl Default for SightSettings {
    fn default() -> Self {
        Self {
            gloom_sight_in: GLOOM_SIGHT_INCHES,
            torch_radius_in: TORCH_RADIUS_INCHES,
            lantern_radius_in: LANTERN_RADIUS_INCHES,
            fire_light_margin_in: FIRE_LIGHT_MARGIN_INCHES,
        }
    }
}

crate::rules::named_enum! {
    /// A light a figure carries.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CarriedLight {
        /// A torch: `torch_radius_in`.
        Torch => "torch",
        /// A lantern: `lantern_radius_in`.
        Lantern => "lantern",
    }
}

impl SightSettings {
    /// House rule: how far `light` lights round its bearer, inches.
    pub fn light_radius_in(&self, light: CarriedLight) -> f32 {
        match light {
            CarriedLight::Torch => self.torch_radius_in,
            CarriedLight::Lantern => self.lantern_radius_in,
        }
    }
}

/// 001 "Lighting": how far a figure sees by its own eyes, inches; `None` is unlimited (the
/// whole table). SUN, LLL and DLL unlimited; D/L `gloom_sight_in` (house rule); DDL "range of
/// vision limited", the existing house rule `rules.lighting.dark_sight_in`; DDD "pitch black
/// (2" sight)".
pub fn sight_range_in(lighting: Lighting, lighting_settings: &LightingSettings, sight: &SightSettings) -> Option<f32> {
    match lighting {
        Lighting::Sun | Lighting::Daylight | Lighting::Overcast => None,
        Lighting::Gloom => Some(sight.gloom_sight_in),
        Lighting::Dark => Some(lighting_settings.dark_sight_in),
        Lighting::PitchBlack => Some(PITCH_BLACK_SIGHT_INCHES),
    }
}

/// Issue #17: a point is seen when it is in line of sight and either within the viewer's own
/// range (`None`: unlimited) or lit by a light that itself sees it within its radius.
pub fn point_seen(in_line_of_sight: bool, distance_in: f32, own_range_in: Option<f32>, lit: bool) -> bool {
    in_line_of_sight && (own_range_in.is_none_or(|r| distance_in <= r) || lit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sight_range_for_every_lighting_level() {
        let (light, sight) = (LightingSettings::default(), SightSettings::default());
        let ranges = Lighting::ALL.map(|l| sight_range_in(l, &light, &sight));
        // SUN, LLL, DLL unlimited; D/L 12"; DDL the lighting house rule (4"); DDD the text's 2".
        assert_eq!(ranges, [None, None, None, Some(12.0), Some(light.dark_sight_in), Some(2.0)]);
        let other = SightSettings { gloom_sight_in: 20.0, ..SightSettings::default() };
        let dark = LightingSettings { dark_sight_in: 6.0, ..LightingSettings::default() };
        assert_eq!(sight_range_in(Lighting::Gloom, &dark, &other), Some(20.0));
        assert_eq!(sight_range_in(Lighting::Dark, &dark, &other), Some(6.0));
        assert_eq!(sight_range_in(Lighting::PitchBlack, &dark, &other), Some(2.0), "DDD is the text's 2\"");
        assert_eq!(sight_range_in(Lighting::Overcast, &dark, &other), None);
    }

    #[test]
    fn carried_lights_and_settings() {
        let s = SightSettings::default();
        assert_eq!(s.light_radius_in(CarriedLight::Torch), 6.0);
        assert_eq!(s.light_radius_in(CarriedLight::Lantern), 9.0);
        assert_eq!(s.fire_light_margin_in, 3.0, "the product's default");
        let parsed: SightSettings = serde_json::from_str(r#"{"fire_light_margin_in": 1.5}"#).expect("parse");
        assert_eq!(parsed, SightSettings { fire_light_margin_in: 1.5, ..SightSettings::default() });
        let parsed: SightSettings = serde_json::from_str(r#"{"torch_radius_in": 5}"#).expect("parse");
        assert_eq!(parsed, SightSettings { torch_radius_in: 5.0, ..SightSettings::default() });
        assert!(serde_json::from_str::<SightSettings>(r#"{"torch": 5}"#).is_err());
    }

    #[test]
    fn a_point_is_seen_in_sight_and_within_range_or_lit() {
        // Range edges on both sides.
        assert!(point_seen(true, 2.0, Some(2.0), false));
        assert!(!point_seen(true, 2.001, Some(2.0), false));
        assert!(point_seen(true, 2.001, Some(2.0), true), "lit beyond the own range");
        assert!(point_seen(true, 500.0, None, false), "unlimited");
        assert!(!point_seen(false, 1.0, Some(2.0), true), "never out of line of sight");
        assert!(!point_seen(false, 1.0, None, false));
    }
}
