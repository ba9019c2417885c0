//! Lighting levels (001 "Lighting").

use serde::{Deserialize, Serialize};

/// 001 "Lighting": "DDD pitch black (2" sight)".
pub const PITCH_BLACK_SIGHT_INCHES: f32 = 2.0;

/// The lighting numbers the text does not give. Every field is a house rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LightingSettings {
    /// House rule: how far one sees in DDL, inches. 001 "DDL Dark range of vision limited" gives
    /// no number; default 4", twice DDD's 2".
    pub dark_sight_in: f32,
    /// House rule: a light of at least this intensity (0 to 1) lifts the lighting
    /// `strong_light_steps`, a weaker one `weak_light_steps`. 001 "Lighting" gives levels, not
    /// lights; default 0.5.
    pub strong_light_from: f32,
    /// House rule: steps a strong light lifts the lighting (default 2: a lantern makes DDD D/L).
    pub strong_light_steps: u8,
    /// House rule: steps a weak light lifts the lighting (default 1).
    pub weak_light_steps: u8,
}

impl Default for LightingSettings {
    fn default() -> Self {
        Self { dark_sight_in: 4.0, strong_light_from: 0.5, strong_light_steps: 2, weak_light_steps: 1 }
    }
}

impl LightingSettings {
    /// Steps a light of `intensity` lifts the lighting (house rule; none at 0 or below).
    pub fn light_steps(&self, intensity: f32) -> u8 {
        if intensity >= self.strong_light_from {
            self.strong_light_steps
        } else if intensity > 0.0 {
            self.weak_light_steps
        } else {
            0
        }
    }
}

/// SUN bright sunlight, LLL normal daylight, DLL overcast daylight, D/L gloomy half-light or
/// moonlight, DDL dark (vision limited), DDD pitch black (2" sight).
///
/// Written in scene files as the source's code in a string: `"SUN"`, `"LLL"`, `"DLL"`,
/// `"D/L"`, `"DDL"`, `"DDD"` (a `/` cannot stand in a RON identifier).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Lighting {
    /// SUN: bright sunlight.
    Sun,
    /// LLL: normal daylight.
    #[default]
    Daylight,
    /// DLL: overcast daylight.
    Overcast,
    /// D/L: gloomy half-light, moonlight and the like.
    Gloom,
    /// DDL: dark, range of vision limited.
    Dark,
    /// DDD: pitch black, 2" sight.
    PitchBlack,
}

impl TryFrom<String> for Lighting {
    type Error = String;
    fn try_from(code: String) -> Result<Self, Self::Error> {
        Lighting::ALL.into_iter().find(|l| l.code() == code).ok_or_else(|| {
            format!("unknown lighting \"{code}\", expected one of \"SUN\", \"LLL\", \"DLL\", \"D/L\", \"DDL\", \"DDD\"")
        })
    }
}

impl From<Lighting> for String {
    fn from(l: Lighting) -> String {
        l.code().to_string()
    }
}

impl Lighting {
    /// Every level, brightest first.
    pub const ALL: [Lighting; 6] =
        [Lighting::Sun, Lighting::Daylight, Lighting::Overcast, Lighting::Gloom, Lighting::Dark, Lighting::PitchBlack];

    /// The code the source uses.
    pub fn code(self) -> &'static str {
        match self {
            Lighting::Sun => "SUN",
            Lighting::Daylight => "LLL",
            Lighting::Overcast => "DLL",
            Lighting::Gloom => "D/L",
            Lighting::Dark => "DDL",
            Lighting::PitchBlack => "DDD",
        }
    }

    /// 001 "Lighting": how far one can see, in inches: DDD "pitch black (2" sight)", DDL "range of
    /// vision limited" (house rule `dark_sight_in`); `None` in better light.
    pub fn sight_limit(self, settings: &LightingSettings) -> Option<f32> {
        match self {
            Lighting::PitchBlack => Some(PITCH_BLACK_SIGHT_INCHES),
            Lighting::Dark => Some(settings.dark_sight_in),
            Lighting::Sun | Lighting::Daylight | Lighting::Overcast | Lighting::Gloom => None,
        }
    }

    /// One step brighter (a light source lifts its area by steps), never past SUN.
    pub fn brighter(self, steps: u8) -> Lighting {
        let i = Lighting::ALL.iter().position(|&l| l == self).unwrap_or(1);
        Lighting::ALL[i.saturating_sub(steps as usize)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for l in Lighting::ALL {
            assert_eq!(Lighting::try_from(l.code().to_string()), Ok(l));
        }
        assert!(Lighting::try_from("DUSK".to_string()).is_err());
    }

    #[test]
    fn sight_and_light_steps_follow_settings() {
        let s = LightingSettings::default();
        assert_eq!(Lighting::PitchBlack.sight_limit(&s), Some(2.0));
        assert_eq!(Lighting::Dark.sight_limit(&s), Some(4.0));
        for l in [Lighting::Sun, Lighting::Daylight, Lighting::Overcast, Lighting::Gloom] {
            assert_eq!(l.sight_limit(&s), None, "{l:?}");
        }
        let short = LightingSettings { dark_sight_in: 1.5, ..LightingSettings::default() };
        assert_eq!(Lighting::Dark.sight_limit(&short), Some(1.5));
        assert_eq!(Lighting::PitchBlack.sight_limit(&short), Some(2.0), "DDD is the text's 2\"");
        // Light steps: 0.5 and above two, above 0 one, 0 none.
        assert_eq!([1.0, 0.5, 0.49, 0.01, 0.0, -1.0].map(|i| s.light_steps(i)), [2, 2, 1, 1, 0, 0]);
        let other = LightingSettings { strong_light_from: 0.8, strong_light_steps: 3, weak_light_steps: 2, ..s };
        assert_eq!([1.0, 0.8, 0.5, 0.0].map(|i| other.light_steps(i)), [3, 3, 2, 0]);
        let parsed: LightingSettings = serde_json::from_str(r#"{"dark_sight_in": 3}"#).expect("parse");
        assert_eq!(parsed, LightingSettings { dark_sight_in: 3.0, ..LightingSettings::default() });
        assert!(serde_json::from_str::<LightingSettings>(r#"{"dark_sight": 3}"#).is_err());
    }

    #[test]
    fn brighter_steps_stop_at_sun() {
        assert_eq!(Lighting::PitchBlack.brighter(2), Lighting::Gloom);
        assert_eq!(Lighting::Overcast.brighter(5), Lighting::Sun);
        assert_eq!(Lighting::Dark.brighter(0), Lighting::Dark);
    }
}
