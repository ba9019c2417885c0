//! What the rules read off a figure: armour, sex, gait, load. Shared by every rule topic.

use serde::{Deserialize, Serialize};

crate::rules::named_enum! {
    /// Armour class, lightest first. The Morval texts name unclothed, clothed, light, medium,
    /// heavy and plate (000 "Agility", "Dressing & Undressing").
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Armour {
        Unclothed => "unclothed",
        #[default]
        Clothed => "clothed",
        Light => "light",
        Medium => "medium",
        Heavy => "heavy",
        Plate => "plate",
    }
}

impl Armour {
    /// Metal armour (medium, heavy, plate): leydonic traps strike harder (RULES-NOTES).
    pub fn is_metal(self) -> bool {
        matches!(self, Armour::Medium | Armour::Heavy | Armour::Plate)
    }

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

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sex {
    #[default]
    Male,
    Female,
}

/// How a figure moves this move (000 "Spotting Traps"; RULES-NOTES "Time and movement").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gait {
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
    pub armour: Armour,
    pub sex: Sex,
    pub adventurer: bool,
    pub shield: bool,
    /// Carrying a load (agility −1; "encumbered" for spotting and treadles).
    pub load: bool,
    pub mounted: bool,
}
