//! Noises: what figures, traps and alarms make, for sleepers to hear. A noise is a
//! [`Message`] written during the move and read by the Sleepers set of the same move.

use super::clock::MoveClock;
use super::log::{EventLog, LogEvent};
use crate::rules::sleepers::Noise;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<NoiseMade>();
}

/// Something made a noise at a place.
#[derive(Message, Debug, Clone, PartialEq)]
pub struct NoiseMade {
    /// The scene name of whoever or whatever made it.
    pub source: String,
    /// Where it was made, in table inches.
    pub position: Vec2,
    /// What kind of noise.
    pub noise: Noise,
    /// How far it carries where the text says (cursing 8", screaming 18"); `None` leaves it
    /// to each listener's earshot.
    pub heard_to: Option<f32>,
}

/// Write a noise and log it.
pub fn make_noise(writer: &mut MessageWriter<NoiseMade>, log: &mut EventLog, clock: &MoveClock, noise: NoiseMade) {
    log.push(clock, noise_event(&noise));
    writer.write(noise);
}

/// Write a noise straight into the move's messages and log it: for a system that also reads
/// the move's noises (a `MessageWriter` beside a reader of the same messages would conflict).
pub fn make_noise_in(messages: &mut Messages<NoiseMade>, log: &mut EventLog, clock: &MoveClock, noise: NoiseMade) {
    log.push(clock, noise_event(&noise));
    messages.write(noise);
}

fn noise_event(noise: &NoiseMade) -> LogEvent {
    LogEvent::new("noise", "noise_made", noise.source.clone())
        .outcome(noise.noise)
        .field("noise", noise.noise.id())
        .field("position", (noise.position.x, noise.position.y))
        .field("heard_to", noise.heard_to)
}

/// Drop the noises of the move just resolved (called at its end).
pub(super) fn clear_noises(world: &mut World) {
    if let Some(mut messages) = world.get_resource_mut::<Messages<NoiseMade>>() {
        messages.clear();
    }
}
