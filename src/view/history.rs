//! Stepping and rewinding from the controls: the document (crate::document) keeps the history,
//! resolves moves and rewinds; here the play timer asks for steps, and each step is handed to
//! the playhead to animate.

use super::playhead::{ANIMATION_SECS, BeforeMove, Playhead};
use crate::document::{self, Revealed};
use crate::sim::MoveClock;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Playback>().init_resource::<StepRequest>();
    app.add_systems(Update, (play, apply_requests).chain());
}

/// Play: step a move every `1 / moves_per_second` seconds, or, by rounds, a round every
/// `1 / (moves_per_second × rounds a move)` seconds (the same pace, shown round by round).
#[derive(Resource, Debug)]
pub struct Playback {
    pub playing: bool,
    pub moves_per_second: f32,
    pub by_rounds: bool,
    since: f32,
}

impl Playback {
    /// Playing from the start, at `moves_per_second`.
    pub fn playing_at(moves_per_second: f32) -> Self {
        Self { playing: true, moves_per_second: moves_per_second.clamp(0.1, 10.0), by_rounds: false, since: 0.0 }
    }
}

impl Default for Playback {
    fn default() -> Self {
        Self { playing: false, moves_per_second: 1.0, by_rounds: false, since: 0.0 }
    }
}

/// What the controls asked for this frame.
#[derive(Resource, Debug, Default)]
pub struct StepRequest {
    pub moves: u32,
    /// Rounds to reveal: the rest of the move shown, or the next move resolved and its first
    /// round shown.
    pub rounds: u32,
    /// Go back to the world as it was before this move number.
    pub rewind_to_move: Option<u32>,
    pub reseed: Option<u64>,
}

/// Note where herds stand for the animation, then save the world and resolve the next move.
pub fn step(world: &mut World) {
    BeforeMove::capture(world);
    document::step(world);
}

impl Playback {
    /// Steps per second: moves, or rounds when playing by rounds.
    fn steps_per_second(&self, rounds_per_move: u8) -> f32 {
        let moves = self.moves_per_second.clamp(0.1, 60.0);
        if self.by_rounds { moves * f32::from(rounds_per_move.max(1)) } else { moves }
    }

    /// Steps due after `seconds` more of play.
    fn due(&mut self, seconds: f32, rounds_per_move: u8) -> u32 {
        if !self.playing {
            self.since = 0.0;
            return 0;
        }
        self.since += seconds;
        let period = 1.0 / self.steps_per_second(rounds_per_move);
        let mut steps = 0;
        while self.since >= period {
            self.since -= period;
            steps += 1;
        }
        steps
    }
}

fn play(time: Res<Time>, clock: Res<MoveClock>, mut playback: ResMut<Playback>, mut request: ResMut<StepRequest>) {
    let steps = playback.due(time.delta_secs(), clock.rounds_per_move);
    if playback.by_rounds {
        request.rounds += steps;
    } else {
        request.moves += steps;
    }
}

pub(super) fn apply_requests(world: &mut World) {
    let (moves, rounds, rewind_to, reseed) = {
        let mut r = world.resource_mut::<StepRequest>();
        (std::mem::take(&mut r.moves), std::mem::take(&mut r.rounds), r.rewind_to_move.take(), r.reseed.take())
    };
    if let Some(m) = rewind_to {
        document::rewind(world, m);
    }
    if let Some(seed) = reseed {
        document::reseed(world, seed);
    }
    // Playing fast shortens the animation so each move is seen to its end.
    let playback = world.resource::<Playback>();
    let per_move = world.resource::<MoveClock>().rounds_per_move;
    let duration =
        if playback.playing { ANIMATION_SECS.min(0.9 / playback.steps_per_second(per_move)) } else { ANIMATION_SECS };
    step_moves(world, moves.min(100), duration);
    step_rounds(world, rounds.min(100), duration);
}

/// Show the rest of a move being revealed round by round, or resolve and show the next move;
/// `moves` times. Returns whether any move was resolved.
pub fn step_moves(world: &mut World, moves: u32, duration: f32) -> bool {
    show_more(world, moves, false, duration)
}

/// Show one more round, `rounds` times: the next round of a move being revealed, or the first
/// of the next move (resolved whole, as the rules resolve it). Returns whether any move was
/// resolved.
pub fn step_rounds(world: &mut World, rounds: u32, duration: f32) -> bool {
    show_more(world, rounds, true, duration)
}

/// Have the document reveal more (document::show_more), and animate the playhead to each step.
fn show_more(world: &mut World, steps: u32, by_round: bool, duration: f32) -> bool {
    if steps == 0 {
        return false;
    }
    let shown = document::show_more(world, steps, by_round, BeforeMove::capture);
    let per_move = world.resource::<MoveClock>().rounds_per_move;
    let mut playhead = world.resource_mut::<Playhead>();
    let mut stepped = false;
    for s in shown {
        match s {
            Revealed::More { rounds } => playhead.reveal(rounds, per_move, duration),
            Revealed::NewMove { rounds } => {
                playhead.new_move(rounds, per_move, duration);
                stepped = true;
            }
        }
    }
    stepped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::EventLog;
    use crate::sim::world::TablePosition;

    fn app() -> App {
        let mut app = crate::document::walker_app();
        app.init_resource::<Playhead>().init_resource::<BeforeMove>();
        app
    }

    #[test]
    fn stepping_a_round_resolves_the_move_and_shows_its_first_round() {
        let mut app = app();
        let world = app.world_mut();
        assert!(step_rounds(world, 1, 0.0), "the first round needs the move resolved");
        assert_eq!(world.resource::<MoveClock>().move_number, 1);
        let playhead = world.resource::<Playhead>().clone();
        assert!(playhead.mid_move());
        assert_eq!(playhead.revealed_rounds(2), 1);
        assert_eq!(playhead.shown(), 0.5);
        assert!(world.resource::<document::Reveal>().mid_move(), "the document agrees");
        // The world is at the end of the move; the figure is shown half-way along its walk.
        let mut q = world.query::<(&TablePosition, &crate::sim::world::Swept, &crate::sim::world::Facing)>();
        let (end, swept, facing) = q.single(world).unwrap();
        assert!((end.0.x - 7.0).abs() < 1e-4);
        let shown = super::super::playhead::along_swept(swept, playhead.shown(), end.0, facing.0);
        assert!((shown.at.x - 4.0).abs() < 1e-4, "half of a 6\" walk from 1\": {shown:?}");

        // The second round shows the rest of the same move; nothing is rolled again.
        let log_len = world.resource::<EventLog>().events.len();
        assert!(!step_rounds(world, 1, 0.0));
        assert_eq!(world.resource::<MoveClock>().move_number, 1);
        assert!(!world.resource::<Playhead>().mid_move());
        assert_eq!(world.resource::<EventLog>().events.len(), log_len);

        // A move step part-way through a move finishes it first, then resolves the next.
        assert!(step_rounds(world, 1, 0.0));
        assert!(!step_moves(world, 1, 0.0));
        assert_eq!(world.resource::<MoveClock>().move_number, 2);
        assert!(step_moves(world, 1, 0.0));
        assert_eq!(world.resource::<MoveClock>().move_number, 3);
        assert_eq!(world.resource::<Playhead>().shown(), 1.0);
    }

    #[test]
    fn playing_by_rounds_keeps_the_pace_in_moves() {
        let mut by_moves = Playback::playing_at(2.0);
        let mut by_rounds = Playback { by_rounds: true, ..Playback::playing_at(2.0) };
        // Two moves a second for 1.2 s: two moves, or four rounds (two rounds a move)...
        assert_eq!((0..12).map(|_| by_moves.due(0.1, 2)).sum::<u32>(), 2);
        assert_eq!((0..12).map(|_| by_rounds.due(0.1, 2)).sum::<u32>(), 4);
        // ...and nothing while paused.
        by_moves.playing = false;
        assert_eq!(by_moves.due(5.0, 2), 0);
    }
}
