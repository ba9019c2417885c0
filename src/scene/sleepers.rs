//! Sleeping groups in the scene file.

use super::format::Point;
use serde::{Deserialize, Serialize};

/// Where sleepers lie (000 "Awaking groups asleep").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Shelter {
    #[default]
    Open,
    Tent,
    Building,
}

/// A group asleep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SleepingGroup {
    pub name: String,
    pub position: Point,
    #[serde(default)]
    pub shelter: Shelter,
    /// Names of the sleepers.
    pub members: Vec<String>,
}

impl SleepingGroup {
    /// The checks the parser cannot make.
    pub(crate) fn check<'a>(&'a self, c: &mut super::load::Checker<'a>) {
        let e = c.name("sleeping group", &self.name);
        c.on_table(&e, "position", self.position);
        let max = super::load::MAX_GROUP_SIZE;
        if self.members.is_empty() || self.members.len() > max {
            c.problem(&e, format!("members: {} must be 1 to {max}", self.members.len()));
        }
    }
}
