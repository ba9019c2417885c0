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
    /// The round within the move (1-based) in which it was made: a sleeper it wakes starts
    /// dressing the round after (000 "Dressing & Undressing").
    pub round: u8,
}

/// The round of a move (1-based) by which `fraction` of the move has passed: round `r` of `n`
/// covers the fractions above (r − 1)/n up to r/n; the very start counts as round 1.
pub fn round_in_move(fraction: f32, rounds_per_move: u8) -> u8 {
    let rounds = rounds_per_move.max(1);
    // A negative or NaN product casts to 0, and the clamp makes it round 1.
    ((fraction * f32::from(rounds)).ceil() as u8).clamp(1, rounds)
}

/// Write a noise and log it.
pub fn make_noise(writer: &mut MessageWriter<NoiseMade>, log: &mut EventLog, clock: &MoveClock, noise: NoiseMade) {
    log.push(clock, noise_event(&noise));
    writer.write(noise);
}

/// [`make_noise`] for a noise that the house-rule setting at `path` chose: its event says so.
pub fn make_house_rule_noise(
    writer: &mut MessageWriter<NoiseMade>,
    log: &mut EventLog,
    clock: &MoveClock,
    noise: NoiseMade,
    path: &'static str,
) {
    log.push(clock, noise_event(&noise).house_rule(path));
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
        .field("round", noise.round)
}

/// Drop the noises of the move just resolved (called at its end).
pub(super) fn clear_noises(world: &mut World) {
    if let Some(mut messages) = world.get_resource_mut::<Messages<NoiseMade>>() {
        messages.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::round_in_move;

    #[test]
    fn the_round_a_fraction_of_the_move_falls_in() {
        // Two rounds a move: round 1 up to half the move, round 2 after; the start is round 1.
        let two: Vec<u8> = [0.0, 0.25, 0.5, 0.51, 1.0].iter().map(|&f| round_in_move(f, 2)).collect();
        assert_eq!(two, [1, 1, 1, 2, 2]);
        assert_eq!(round_in_move(0.7, 3), 3);
        assert_eq!(round_in_move(0.6, 3), 2);
        // Out of range, or no rounds given: clamped to a round of the move.
        assert_eq!(round_in_move(-0.5, 2), 1);
        assert_eq!(round_in_move(1.5, 2), 2);
        assert_eq!(round_in_move(f32::NAN, 2), 1);
        assert_eq!(round_in_move(0.9, 0), 1);
    }
}
