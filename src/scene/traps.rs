//! Traps in the scene file.

use super::format::Point;
use serde::{Deserialize, Serialize};

fn is_false(b: &bool) -> bool {
    !*b
}
fn is_true(b: &bool) -> bool {
    *b
}
fn yes() -> bool {
    true
}

/// Concealment class for spotting (000 "Triggering Traps").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Concealment {
    /// Loosely concealed.
    #[serde(rename = "LC")]
    Loose,
    /// Normally concealed.
    #[serde(rename = "NC")]
    Normal,
    /// Well concealed.
    #[serde(rename = "WC")]
    Well,
}

/// What a trap is. The traps issue gives each kind its full rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrapKind {
    /// A cord stretched from the trap's position to `to`.
    TripCord { to: Point },
    Treadle { payload: String, #[serde(default)] locked: bool },
    Lifter { payload: String },
    Pit { depth: f32, bottom: String },
    Loop,
    Leydonic { strike: i32, recharge_moves: u32 },
    /// A Khemri trap counter; its type is hidden until drawn or revealed.
    Khemri { #[serde(default)] drawn: Option<String> },
}

/// A trap.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trap {
    pub name: String,
    pub kind: TrapKind,
    pub position: Point,
    /// Half-width of the area it covers (a loop covers one square inch).
    #[serde(default = "half_inch")]
    pub radius: f32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concealment: Option<Concealment>,
    /// The side that set it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub armed: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub reusable: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub revealed: bool,
}

fn half_inch() -> f32 {
    0.5
}


impl Trap {
    /// The checks the parser cannot make.
    pub(crate) fn check<'a>(&'a self, c: &mut super::load::Checker<'a>) {
        let e = c.name("trap", &self.name);
        c.on_table(&e, "position", self.position);
        c.positive(&e, "radius", self.radius, 12.0);
        match &self.kind {
            TrapKind::TripCord { to } => c.on_table(&e, "kind to", *to),
            TrapKind::Pit { depth, .. } => c.positive(&e, "kind depth", *depth, 100.0),
            _ => {}
        }
    }
}
