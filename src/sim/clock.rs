//! The clock (a move is `rounds_per_move` rounds, RULES-NOTES "Time and movement") and the
//! seeded dice, reseeded each move from the scene seed so any move can be replayed alone.

use crate::rules::dice::{DiceSource, SeededDice};
use crate::scene::load::MAX_MOVES_PLAYED;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MoveClock>().init_resource::<SimDice>();
}

/// Where the run stands.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveClock {
    /// The move being resolved, or the last one resolved (0 before the first).
    pub move_number: u32,
    /// The round within the move while per-round systems run.
    pub round: Option<u8>,
    /// Rounds in a move (the scene's `rules.rounds_per_move`).
    pub rounds_per_move: u8,
}

impl Default for MoveClock {
    fn default() -> Self {
        Self { move_number: 0, round: None, rounds_per_move: 2 }
    }
}

/// Moves cannot be played on: the clock would pass [`MAX_MOVES_PLAYED`], the most moves a scene
/// may have played (and so the most a saved scene can load with).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the clock stands at move {played}: {moves} more moves would pass {MAX_MOVES_PLAYED}, the most moves a scene may play"
)]
pub struct ClockFull {
    /// Moves already played.
    pub played: u32,
    /// Moves asked for.
    pub moves: u32,
}

/// Where the clock stands after `moves` more moves from `played`, or why it cannot get there:
/// past [`MAX_MOVES_PLAYED`] (the sum never wraps).
pub fn moves_after(played: u32, moves: u32) -> Result<u32, ClockFull> {
    played.checked_add(moves).filter(|&end| end <= MAX_MOVES_PLAYED).ok_or(ClockFull { played, moves })
}

/// The dice for the run. The seed for move `m` is derived from the run seed and `m`, so a
/// scene saved after move `k` and run on with the same seed rolls exactly what an
/// uninterrupted run would have rolled.
#[derive(Resource, Debug, Clone)]
pub struct SimDice {
    /// The run seed, from which each move's seed is derived.
    pub seed: u64,
    dice: SeededDice,
}

impl Default for SimDice {
    fn default() -> Self {
        Self::new(0)
    }
}

impl SimDice {
    /// Dice for a run with this seed.
    pub fn new(seed: u64) -> Self {
        Self { seed, dice: SeededDice::new(seed) }
    }

    /// Start the dice for move `move_number`.
    pub fn start_move(&mut self, move_number: u32) {
        self.dice = SeededDice::new(move_seed(self.seed, move_number));
    }
}

/// SplitMix64's finaliser over the run seed and the move number.
pub fn move_seed(seed: u64, move_number: u32) -> u64 {
    let mut z = seed ^ u64::from(move_number).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl DiceSource for SimDice {
    fn below(&mut self, n: u32) -> u32 {
        self.dice.below(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_never_passes_its_maximum_nor_wraps() {
        assert_eq!(moves_after(3, 4), Ok(7));
        assert_eq!(moves_after(MAX_MOVES_PLAYED - 1, 1), Ok(MAX_MOVES_PLAYED));
        assert_eq!(moves_after(MAX_MOVES_PLAYED, 1), Err(ClockFull { played: MAX_MOVES_PLAYED, moves: 1 }));
        // Near u32::MAX the sum would wrap: refused, not a panic.
        let err = moves_after(u32::MAX - 1, 5).unwrap_err();
        assert_eq!(err, ClockFull { played: u32::MAX - 1, moves: 5 });
        assert!(err.to_string().contains("1000000"), "{err}");
    }
}
