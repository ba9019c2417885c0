//! Fires in the scene file.

use super::format::Point;
use serde::{Deserialize, Serialize};

fn half_inch() -> f32 {
    0.5
}

/// A fire burning at the start of the scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fire {
    pub name: String,
    pub position: Point,
    /// Across, in inches.
    #[serde(default = "half_inch")]
    pub diameter: f32,
}


impl Fire {
    /// The checks the parser cannot make.
    pub(crate) fn check<'a>(&'a self, c: &mut super::load::Checker<'a>) {
        let e = c.name("fire", &self.name);
        c.on_table(&e, "position", self.position);
        c.positive(&e, "diameter", self.diameter, super::load::MAX_TABLE_INCHES);
    }
}
