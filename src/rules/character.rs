//! What the rules read off a figure: armour, sex, gait, load. Shared by every rule topic.

use serde::{Deserialize, Serialize};

crate::rules::named_enum! {
    /// Armour class, lightest first. The Morval texts name unclothed, clothed, light, medium,
    /// heavy and plate (000 "Agility", "Dressing & Undressing").
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Armour {
        /// No clothes at all (agility +2).
        Unclothed => "unclothed",
        /// Ordinary clothes, no armour; the text gives no agility for it (a house setting).
        #[default]
        Clothed => "clothed",
        /// Light armour (agility +1).
        Light => "light",
        /// Medium armour (agility 0); metal.
        Medium => "medium",
        /// Heavy armour (agility −1); metal.
        Heavy => "heavy",
        /// Plate armour (agility −2); metal.
        Plate => "plate",
    }
}

impl Armour {
    /// Metal armour (medium, heavy, plate): leydonic traps strike harder (RULES-NOTES).
    pub fn is_metal(self) -> bool {
        matches!(self, Armour::Medium | Armour::Heavy | Armour::Plate)
    }

    /// How the log and the view name it, e.g. "light armour".
    pub fn label(self) -> &'static str {
        match self {
            Armour::Unclothed => "unclothed",
            Armour::Clothed => "clothed",
            Armour::Light => "light armour",
            Armour::Medium => "medium armour",
            Armour::Heavy => "heavy armour",
            Armour::Plate => "plate armour",
        }
    }
}

/// A figure's sex: Morval women move 1" less and have agility −1 (000 "Agility").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sex {
    /// Male: basic move 6".
    #[default]
    Male,
    /// Female: agility −1, basic move 5" rather than 6".
    Female,
}

/// How a figure moves this move (000 "Spotting Traps"; RULES-NOTES "Time and movement").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gait {
    /// Ordinary walking pace.
    #[default]
    Normal,
    /// Walking cautiously: −1" to the move, +1 to spot.
    Cautious,
    /// Searching: only 2" a move, +2 to spot.
    Searching,
    /// Furtive: half rate, quietest.
    Furtive,
    /// Running: double move, a fatigue point.
    Running,
}

impl Gait {
    /// How the log and the view name it, e.g. "cautious".
    pub fn label(self) -> &'static str {
        match self {
            Gait::Normal => "normal",
            Gait::Cautious => "cautious",
            Gait::Searching => "searching",
            Gait::Furtive => "furtive",
            Gait::Running => "running",
        }
    }
}

/// The facts about a figure that rules read. Built from the scene's figure by the sim.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traits {
    /// Armour worn.
    pub armour: Armour,
    /// Male or female.
    pub sex: Sex,
    /// An adventurer (agility +1).
    pub adventurer: bool,
    /// Carrying a shield (agility −1).
    pub shield: bool,
    /// Carrying a load (agility −1; "encumbered" for spotting and treadles).
    pub load: bool,
    /// Riding a steed (−1 to spot traps).
    pub mounted: bool,
}
