//! Lighting levels (001 "Lighting").

use serde::{Deserialize, Serialize};

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

    /// How far one can see, in inches, where the text says (DDD: 2").
    pub fn sight_limit(self) -> Option<f32> {
        (self == Lighting::PitchBlack).then_some(2.0)
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
    fn brighter_steps_stop_at_sun() {
        assert_eq!(Lighting::PitchBlack.brighter(2), Lighting::Gloom);
        assert_eq!(Lighting::Overcast.brighter(5), Lighting::Sun);
        assert_eq!(Lighting::Dark.brighter(0), Lighting::Dark);
    }
}
