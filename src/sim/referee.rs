//! What every system that rolls dice needs: the clock, the move's dice and the log, as one
//! system parameter.

use super::clock::{MoveClock, SimDice};
use super::log::{EventLog, LogEvent};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

/// The clock, the dice and the log: a system takes `Referee` instead of the three resources.
#[derive(SystemParam)]
pub struct Referee<'w> {
    /// Which move (and round) is being resolved.
    pub clock: Res<'w, MoveClock>,
    /// The move's dice, seeded from the run seed and the move number.
    pub dice: ResMut<'w, SimDice>,
    /// Where every event goes.
    pub log: ResMut<'w, EventLog>,
}

impl Referee<'_> {
    /// Stamp `event` with the clock and log it.
    pub fn record(&mut self, event: LogEvent) {
        self.log.push(&self.clock, event);
    }
}
