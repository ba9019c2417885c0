//! Herds, steeds and beasts in the scene file.

use super::format::Point;
use serde::{Deserialize, Serialize};

fn is_false(b: &bool) -> bool {
    !*b
}

/// A herd or flock that wanders together.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Herd {
    pub name: String,
    pub beast: String,
    pub count: u32,
    pub position: Point,
    /// Heading in degrees, 0 = along +x, counter-clockwise.
    #[serde(default)]
    pub heading: f32,
    #[serde(default, skip_serializing_if = "is_false")]
    pub tethered: bool,
    /// Names of the figures herding it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub herders: Vec<String>,
}


impl Herd {
    /// The checks the parser cannot make.
    pub(crate) fn check<'a>(&'a self, c: &mut super::load::Checker<'a>) {
        let e = c.name("herd", &self.name);
        c.on_table(&e, "position", self.position);
        c.finite(&e, "heading", self.heading);
        if !(1..=super::load::MAX_HERD_SIZE).contains(&self.count) {
            c.problem(&e, format!("count: {} must be 1 to {}", self.count, super::load::MAX_HERD_SIZE));
        }
    }
}
