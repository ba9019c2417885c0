//! What moment of play the table shows. The rules resolve a whole move at once; the GM may
//! still reveal it a round at a time, and every step is animated: tokens walk the ground they
//! swept, beasts drift to where they wandered, the fire creeps (fire.rs).
//!
//! The world (what is saved, edited and inspected) is always at the end of the last move; only
//! the picture and the dice log lag behind it while a move is being revealed. How many rounds
//! are revealed is the document's bookkeeping (crate::document::Reveal); the playhead animates
//! the picture to them.

use super::SceneGeneration;
use crate::sim::herds::{Beasts, Herd};
use crate::sim::world::{Facing, Figure, Swept, TablePosition};
use bevy::prelude::*;
use std::collections::HashMap;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Playhead>().init_resource::<BeforeMove>();
    app.add_systems(
        Update,
        (finish_on_rebuild, animate, place_figures, place_herds)
            .chain()
            .in_set(PlayheadSystems)
            .after(super::history::apply_requests),
    );
}

/// Systems that decide where things are shown this frame; drawing runs after them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PlayheadSystems;

/// How long the picture takes to catch up with a step, in seconds.
pub const ANIMATION_SECS: f32 = 0.8;

/// How much of the last resolved move the table shows, from 0 (the world before it) to 1
/// (its end).
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Playhead {
    /// What the controls revealed: a whole number of rounds, as a fraction of the move.
    revealed: f32,
    /// What the picture shows now, on its way from `from` to `revealed`.
    shown: f32,
    from: f32,
    elapsed: f32,
    duration: f32,
}

impl Default for Playhead {
    fn default() -> Self {
        Self { revealed: 1.0, shown: 1.0, from: 1.0, elapsed: 0.0, duration: 0.0 }
    }
}

impl Playhead {
    /// The fraction of the last move the picture shows now.
    pub fn shown(&self) -> f32 {
        self.shown
    }

    /// The fraction of the last move the controls have revealed (the picture's destination).
    pub fn revealed(&self) -> f32 {
        self.revealed
    }

    /// True while only some rounds of the last move are revealed.
    pub fn mid_move(&self) -> bool {
        self.revealed < 1.0
    }

    /// Rounds of the last move revealed so far (the tests check the playhead against the
    /// document's reveal bookkeeping).
    #[cfg(test)]
    pub fn revealed_rounds(&self, rounds_per_move: u8) -> u8 {
        (self.revealed * f32::from(rounds_per_move.max(1))).round() as u8
    }

    /// A move was just resolved: show it from its start, up to `rounds` of its rounds.
    pub fn new_move(&mut self, rounds: u8, rounds_per_move: u8, duration: f32) {
        self.shown = 0.0;
        self.reveal(rounds, rounds_per_move, duration);
    }

    /// Reveal the last move up to the end of round `rounds`.
    pub fn reveal(&mut self, rounds: u8, rounds_per_move: u8, duration: f32) {
        let per_move = rounds_per_move.max(1);
        self.from = self.shown;
        self.revealed = f32::from(rounds.min(per_move)) / f32::from(per_move);
        self.elapsed = 0.0;
        self.duration = duration.max(0.0);
        self.advance(0.0);
    }

    /// Show the end of the last move at once (after a rewind, a reload or an edit).
    pub fn finish(&mut self) {
        *self = Self::default();
    }

    /// Move the animation on by `seconds`.
    pub fn advance(&mut self, seconds: f32) {
        self.elapsed += seconds;
        let t = if self.duration > 0.0 { (self.elapsed / self.duration).clamp(0.0, 1.0) } else { 1.0 };
        // Ease out: quick to start, gentle to settle.
        let eased = 1.0 - (1.0 - t) * (1.0 - t);
        // Land exactly: `from + (revealed - from)` need not equal `revealed` in floats.
        self.shown = if t >= 1.0 { self.revealed } else { self.from + (self.revealed - self.from) * eased };
    }

    /// True while the picture is still catching up.
    pub fn animating(&self) -> bool {
        self.shown != self.revealed
    }
}

/// A herd as it was before the last move.
#[derive(Debug, Clone)]
pub struct HerdBefore {
    centre: Vec2,
    positions: Vec<Vec2>,
    /// What players may see of it until the move is shown whole: its temper, tether and
    /// heading, and which beasts a grid held.
    pub herd: Herd,
    pub facing: f32,
    pub held: Vec<Option<crate::scene::GridHoldState>>,
}

/// Where herds stood before the last move, to show them on their way, and which traps were
/// still hidden then.
#[derive(Resource, Debug, Default, Clone)]
pub struct BeforeMove {
    herds: HashMap<Entity, HerdBefore>,
    hidden_traps: std::collections::HashSet<Entity>,
}

impl BeforeMove {
    /// Note where every herd stands now, just before a move is resolved.
    pub fn capture(world: &mut World) {
        let mut herds = HashMap::new();
        let mut query = world.query::<(Entity, &TablePosition, &Beasts, &Herd, &Facing)>();
        for (entity, centre, beasts, herd, facing) in query.iter(world) {
            let before = HerdBefore {
                centre: centre.0,
                positions: beasts.positions.clone(),
                herd: herd.clone(),
                facing: facing.0,
                held: beasts.held.clone(),
            };
            herds.insert(entity, before);
        }
        let mut traps = world.query::<(Entity, &crate::sim::traps::Trap)>();
        let hidden_traps = traps.iter(world).filter(|(_, t)| !t.0.revealed).map(|(e, _)| e).collect();
        world.insert_resource(BeforeMove { herds, hidden_traps });
    }

    /// The herd as it was before the move, while the move is being shown round by round: what
    /// happened to it during the move (a grid holding a beast, a temper turning) shows with
    /// the move's end.
    pub fn herd_while_shown(&self, herd: Entity, playhead: &Playhead) -> Option<&HerdBefore> {
        if playhead.mid_move() { self.herds.get(&herd) } else { None }
    }

    /// Whether the players may see `trap` as revealed now: a trap found during a move shown
    /// round by round stays hidden from them until the whole move is shown, so the projector
    /// never runs ahead of the rounds the GM has shown.
    pub fn trap_revealed_to_players(&self, trap: Entity, revealed: bool, playhead: &Playhead) -> bool {
        revealed && !(playhead.mid_move() && self.hidden_traps.contains(&trap))
    }
}

/// Where a figure or a herd is shown this frame, and which way it faces (degrees).
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Shown {
    pub at: Vec2,
    pub facing: f32,
}

/// Where each beast of a herd is shown this frame.
#[derive(Component, Debug, Clone, Default, PartialEq)]
pub struct ShownBeasts(pub Vec<Vec2>);

/// The world was rebuilt (rewind, reload, edit): show it as it is. Not on the first frame, so
/// a view opened part-way through a move (`open --rounds`) stays there.
fn finish_on_rebuild(
    generation: Res<SceneGeneration>,
    mut seen: Local<Option<SceneGeneration>>,
    mut playhead: ResMut<Playhead>,
    mut before: ResMut<BeforeMove>,
) {
    if seen.replace(*generation).is_some_and(|was| was != *generation) {
        playhead.finish();
        before.herds.clear();
        before.hidden_traps.clear();
    }
}

fn animate(time: Res<Time>, mut playhead: ResMut<Playhead>) {
    if playhead.animating() {
        playhead.advance(time.delta_secs());
    }
}

/// Where a figure is `progress` of the way through its move: along the ground it swept at its
/// speed, then where the move left it (which a trap may have changed: a pit's floor).
pub fn along_swept(swept: &Swept, progress: f32, end: Vec2, facing: f32) -> Shown {
    if progress < 1.0 {
        let mut left = progress.max(0.0) * swept.speed;
        for &(a, b) in &swept.segments {
            let len = a.distance(b);
            if left <= len {
                let at = if len > 0.0 { a + (b - a) * (left / len) } else { a };
                let facing = if len > 0.0 { (b - a).to_angle().to_degrees() } else { facing };
                return Shown { at, facing };
            }
            left -= len;
        }
    }
    Shown { at: end, facing }
}

/// The rest of a figure's walk this move from where it is shown: corners still to pass.
pub fn swept_ahead(swept: &Swept, progress: f32) -> Vec<Vec2> {
    if progress >= 1.0 {
        return Vec::new();
    }
    let mut left = progress.max(0.0) * swept.speed;
    let mut out = Vec::new();
    for &(a, b) in &swept.segments {
        let len = a.distance(b);
        if left < len {
            out.push(b);
        }
        left = (left - len).max(0.0);
    }
    out
}

fn place_figures(
    mut commands: Commands,
    playhead: Res<Playhead>,
    mut figures: Query<(Entity, &TablePosition, &Facing, Option<&Swept>, Option<&mut Shown>), With<Figure>>,
) {
    for (entity, position, facing, swept, shown) in &mut figures {
        let now = match swept {
            Some(swept) => along_swept(swept, playhead.shown(), position.0, facing.0),
            None => Shown { at: position.0, facing: facing.0 },
        };
        match shown {
            Some(mut shown) => {
                shown.set_if_neq(now);
            }
            None => {
                commands.entity(entity).try_insert(now);
            }
        }
    }
}

fn place_herds(
    mut commands: Commands,
    playhead: Res<Playhead>,
    before: Res<BeforeMove>,
    mut herds: Query<
        (Entity, &TablePosition, &Facing, &Beasts, Option<&mut Shown>, Option<&mut ShownBeasts>),
        With<Herd>,
    >,
) {
    let t = playhead.shown();
    for (entity, centre, facing, beasts, shown, shown_beasts) in &mut herds {
        let (at, positions) = match before.herds.get(&entity) {
            Some(was) if t < 1.0 && was.positions.len() == beasts.positions.len() => (
                was.centre.lerp(centre.0, t),
                was.positions.iter().zip(&beasts.positions).map(|(a, b)| a.lerp(*b, t)).collect(),
            ),
            _ => (centre.0, beasts.positions.clone()),
        };
        let now = Shown { at, facing: facing.0 };
        match (shown, shown_beasts) {
            (Some(mut shown), Some(mut shown_beasts)) => {
                shown.set_if_neq(now);
                if shown_beasts.0 != positions {
                    shown_beasts.0 = positions;
                }
            }
            _ => {
                commands.entity(entity).try_insert((now, ShownBeasts(positions)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swept() -> Swept {
        // 4" east, then 4" north, at 10" a move (the walk ended after 8").
        Swept {
            segments: vec![(Vec2::ZERO, Vec2::new(4.0, 0.0)), (Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0))],
            speed: 10.0,
            popped: 2,
        }
    }

    #[test]
    fn a_figure_is_shown_along_its_walk_at_its_speed() {
        let s = swept();
        let end = Vec2::new(4.0, 4.0);
        assert_eq!(along_swept(&s, 0.0, end, 0.0).at, Vec2::ZERO);
        assert_eq!(along_swept(&s, 0.2, end, 0.0).at, Vec2::new(2.0, 0.0));
        assert_eq!(along_swept(&s, 0.2, end, 90.0).facing, 0.0);
        let half = along_swept(&s, 0.5, end, 0.0);
        assert!((half.at - Vec2::new(4.0, 1.0)).length() < 1e-5);
        assert!((half.facing - 90.0).abs() < 1e-4);
        // Past the end of its walk (it stopped after 8" of its 10"), and at the end of the move.
        assert_eq!(along_swept(&s, 0.9, end, 90.0).at, end);
        assert_eq!(along_swept(&s, 1.0, Vec2::new(9.0, 9.0), 45.0), Shown { at: Vec2::new(9.0, 9.0), facing: 45.0 });
    }

    #[test]
    fn a_figure_put_elsewhere_by_a_trap_is_shown_there_once_its_walk_is_over() {
        let s = Swept { segments: vec![(Vec2::ZERO, Vec2::new(2.0, 0.0))], speed: 8.0, popped: 0 };
        let pit_floor = Vec2::new(2.5, 0.0);
        assert_eq!(along_swept(&s, 0.125, pit_floor, 0.0).at, Vec2::new(1.0, 0.0));
        assert_eq!(along_swept(&s, 0.5, pit_floor, 0.0).at, pit_floor);
    }

    #[test]
    fn corners_ahead_are_those_not_yet_passed() {
        let s = swept();
        assert_eq!(swept_ahead(&s, 0.0), vec![Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0)]);
        assert_eq!(swept_ahead(&s, 0.5), vec![Vec2::new(4.0, 4.0)]);
        assert!(swept_ahead(&s, 0.9).is_empty());
        assert!(swept_ahead(&s, 1.0).is_empty());
    }

    #[test]
    fn a_trap_found_mid_move_reaches_the_players_with_the_move_end() {
        let mut world = World::new();
        let trap = |revealed| {
            crate::sim::traps::Trap(crate::scene::Trap {
                revealed,
                ..crate::sim::testing::scene_from_str(
                    "(version: 1, table: (width: 10, height: 10), traps: [(name: \"t\", kind: pit(depth: 1, bottom: spiked), position: (5, 5))])",
                )
                .traps[0]
                .clone()
            })
        };
        let hidden = world.spawn(trap(false)).id();
        let known = world.spawn(trap(true)).id();
        BeforeMove::capture(&mut world);
        let before = world.resource::<BeforeMove>().clone();
        let mut playhead = Playhead::default();
        playhead.new_move(1, 2, 0.0);
        // Found during this move: not on the projector until the move is shown whole.
        assert!(!before.trap_revealed_to_players(hidden, true, &playhead));
        assert!(before.trap_revealed_to_players(known, true, &playhead));
        assert!(!before.trap_revealed_to_players(known, false, &playhead));
        playhead.reveal(2, 2, 0.0);
        assert!(before.trap_revealed_to_players(hidden, true, &playhead));
    }

    #[test]
    fn revealing_round_by_round_animates_to_each_round_end() {
        let mut p = Playhead::default();
        assert!(!p.mid_move());
        p.new_move(1, 2, 0.8);
        assert_eq!(p.shown(), 0.0);
        assert!(p.mid_move());
        assert_eq!(p.revealed_rounds(2), 1);
        p.advance(0.4);
        assert!(p.shown() > 0.0 && p.shown() < 0.5);
        p.advance(0.4);
        assert_eq!(p.shown(), 0.5);
        assert!(!p.animating());
        p.reveal(2, 2, 0.8);
        assert_eq!(p.shown(), 0.5);
        p.advance(1.0);
        assert_eq!(p.shown(), 1.0);
        assert!(!p.mid_move());
        assert_eq!(p.revealed_rounds(2), 2);
        p.new_move(2, 2, 0.0);
        assert_eq!(p.shown(), 1.0, "no animation: the end at once");
        // Any number of rounds a move lands exactly on the round's end, and stops animating.
        for per_move in 1..=12 {
            for rounds in 1..=per_move {
                p.new_move(1, per_move, 0.8);
                p.reveal(rounds, per_move, 0.8);
                p.advance(1.0);
                assert!(!p.animating(), "{rounds} of {per_move}");
                assert_eq!(p.revealed_rounds(per_move), rounds);
            }
        }
        p.new_move(1, 3, 0.8);
        p.finish();
        assert_eq!((p.shown(), p.mid_move()), (1.0, false));
    }
}
