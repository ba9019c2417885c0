//! The simulation: ECS glue that turns the pure rules into a world stepped move by move.
//!
//! A move is resolved by the [`Move`] schedule, in the fixed order of [`MoveSystems`].
//! Per-round work (fire) runs in the [`Round`] schedule, which the `Fire` set runs once per
//! round. Nothing here needs a window or a GPU.

pub mod bookkeeping;
pub mod clock;
pub mod encounters;
pub mod fire;
pub mod fire_front;
pub mod geometry;
pub mod herds;
pub mod log;
pub mod magic;
pub mod movement;
pub mod noise;
pub mod obstacles;
pub mod outcome;
pub mod prisoners;
pub mod referee;
pub mod rest;
pub mod run;
pub mod sight;
pub mod sleepers;
pub mod temptations;
#[cfg(test)]
pub(crate) mod testing;
pub mod trails;
pub mod traps;
pub mod world;

use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use bevy::prelude::*;

pub use clock::{ClockFull, MoveClock, SimDice, moves_after};
pub use log::{EventLog, LogEvent};
pub use referee::Referee;
pub use rest::{MAX_REST_DAYS, RestError, RestRun, rest};
pub use run::{Run, Simulation, run, run_log};

/// One move: figure movement, prisoners, trails, traps, obstacles, temptations, fire (per round), herds, sleepers, bookkeeping.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Move;

/// One round within a move, run by the `Fire` set for each round.
#[derive(ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Round;

/// The order a move resolves in. Each domain adds its systems to its set.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveSystems {
    /// Figures walk their paths.
    Movement,
    /// Escorts dice for their prisoners in excess, runaways run and are run down round by
    /// round, bonds are worked, berserkers rage. After Movement (an escort that walked is a
    /// moving escort) and before Traps, which so see the ground runaways and berserkers ran over.
    Prisoners,
    /// Trails: each figure's path goes on its trail; trackers read their quarry's trail, dice
    /// and move (000 "Tracking", "Scent Tracking", "Pepper trap"). After Movement, so the
    /// quarry's move is on the trail, and before Traps, which so see a tracker's path too.
    Trails,
    /// Traps are spotted, disarmed and sprung on the paths walked.
    Traps,
    /// Obstacles: stake lines made and charged, grapnels thrown and thrown down, ropes cut,
    /// climbed and overloaded, glass-topped walls climbed, planks laid, vehicles moved, the
    /// endurance carrying costs reported (000 "Sharpened Stakes", "Grapnels, Ropes, and cords";
    /// 001 "Cattle Grids", "Climbing over High broken glass topped walls"). After Traps (a figure
    /// stopped in a pit crosses no stakes) and before Temptations.
    Obstacles,
    /// Temptations pull at the figures passing them; figures inside dice to leave; the GM's
    /// `decide` orders are diced. After Traps, which cut a path short first (a figure in a pit
    /// passes no tavern), and before Fire, Herds and Sleepers, which so see where a figure that
    /// went in really stopped (its move is cut short there, as a trap cuts it).
    Temptations,
    /// Magic: occult beings walk, spell orders are cast, wards dice, Magic Power recovers.
    /// After Temptations (a figure that went in is where it stopped) and before Fire.
    Magic,
    /// Fire: the move's rounds run, fires catch and spread.
    Fire,
    /// Herds wander, stampede and are herded.
    Herds,
    /// Sleepers hear noises, wake and respond.
    Sleepers,
    /// OSR encounters: under `rules_family: osr` the turn or round on the OSR clock, wandering
    /// checks, monsters arriving, surprise, reactions, combat rounds and morale, then the
    /// party's pace for the next step; under `morval`, only where the scene has an OSR encounter
    /// table, a wandering check every `rules.osr.moves_per_wandering_check` moves. After Sleepers (the turn has been walked and heard) and
    /// before Sight, which so sees the monsters that came.
    Encounters,
    /// What the players' side sees at the end of the move, added to the explored fog of war
    /// (docs/sight.md). After everything that moves figures.
    Sight,
    /// Lasting conditions count down and expire.
    Bookkeeping,
}

/// The simulation: clock, dice, log and every domain's systems.
pub fn plugin(app: &mut App) {
    app.init_schedule(Move).init_schedule(Round);
    // One thread: systems that share the log must not race, and a move is small work.
    app.edit_schedule(Move, |s| {
        s.set_executor(SingleThreadedExecutor::new());
    });
    app.edit_schedule(Round, |s| {
        s.set_executor(SingleThreadedExecutor::new());
    });
    app.configure_sets(
        Move,
        (
            MoveSystems::Movement,
            MoveSystems::Prisoners,
            MoveSystems::Trails,
            MoveSystems::Traps,
            MoveSystems::Obstacles,
            MoveSystems::Temptations,
            MoveSystems::Magic,
            MoveSystems::Fire,
            MoveSystems::Herds,
            MoveSystems::Sleepers,
            MoveSystems::Encounters,
            MoveSystems::Sight,
            MoveSystems::Bookkeeping,
        )
            .chain(),
    );
    app.add_systems(Move, run_rounds.in_set(MoveSystems::Fire));
    app.add_plugins((
        clock::plugin,
        log::plugin,
        noise::plugin,
        movement::plugin,
        prisoners::plugin,
        trails::plugin,
        traps::plugin,
        obstacles::plugin,
        temptations::plugin,
        magic::plugin,
        fire::plugin,
        herds::plugin,
        sleepers::plugin,
        bookkeeping::plugin,
    ));
    // Outside the tuple above, which holds at most 15 plugins.
    app.add_plugins(sight::plugin);
    app.add_plugins(encounters::plugin);
}

/// Run the [`Round`] schedule once per round of the move, with the clock showing the round.
fn run_rounds(world: &mut World) {
    let rounds = world.resource::<MoveClock>().rounds_per_move;
    // Taken out of the world's schedules once for all the rounds, not once a round.
    world.schedule_scope(Round, |world, schedule| {
        for round in 1..=rounds {
            world.resource_mut::<MoveClock>().round = Some(round);
            schedule.run(world);
        }
    });
    world.resource_mut::<MoveClock>().round = None;
}

/// Build the [`Move`] and [`Round`] schedules now, as a scene is loaded, rather than in its
/// first move: that move is then as quick as the ones after it (a GM stepping a freshly loaded
/// table, the stress benchmark's first move). A schedule that fails to build is left to fail,
/// with its message, where it first runs.
pub fn build_schedules(world: &mut World) {
    for label in [Move.intern(), Round.intern()] {
        if world.get_resource::<Schedules>().is_some_and(|s| s.contains(label)) {
            world.schedule_scope(label, |world, schedule| {
                let _ = schedule.initialize(world);
            });
        }
    }
}

/// Resolve the next move. Returns false, resolving nothing, when the clock stands at
/// [`MAX_MOVES_PLAYED`](crate::scene::load::MAX_MOVES_PLAYED): the move counter never passes
/// it, nor wraps.
pub fn step_move(world: &mut World) -> bool {
    let next = {
        let mut clock = world.resource_mut::<MoveClock>();
        let Ok(next) = moves_after(clock.move_number, 1) else { return false };
        clock.move_number = next;
        clock.round = None;
        next
    };
    world.resource_mut::<SimDice>().start_move(next);
    // Noises of the move before were heard then; the view may show them until now.
    noise::clear_noises(world);
    world.run_schedule(Move);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings};

    /// Systems that roll dice or write the log must run in a fixed order, never in whatever
    /// order an executor picks: any two that touch the same data are ordered, in `Move` and in
    /// `Round` alike.
    #[test]
    fn move_and_round_have_no_ambiguous_systems() {
        let scene = testing::scene_from_str(include_str!("../../scenes/farmstead.ron"));
        let mut app = crate::app::headless(&scene, 1);
        let strict = || ScheduleBuildSettings { ambiguity_detection: LogLevel::Error, ..Default::default() };
        app.edit_schedule(Move, |s| {
            s.set_build_settings(strict());
        });
        app.edit_schedule(Round, |s| {
            s.set_build_settings(strict());
        });
        let world = app.world_mut();
        world.schedule_scope(Move, |world, schedule| {
            if let Err(e) = schedule.initialize(world) {
                panic!("Move: {}", e.to_string(schedule.graph(), world));
            }
        });
        world.schedule_scope(Round, |world, schedule| {
            if let Err(e) = schedule.initialize(world) {
                panic!("Round: {}", e.to_string(schedule.graph(), world));
            }
        });
        // And a move still resolves with the checks on.
        step_move(world);
    }

    /// A scene whose clock stands at the most moves a scene may play: stepping resolves
    /// nothing and says so, where the counter used to pass the maximum (and near `u32::MAX`
    /// wrap, or panic in a debug build).
    #[test]
    fn a_full_clock_resolves_no_move() {
        use crate::scene::load::MAX_MOVES_PLAYED;
        let scene = testing::scene_from_str(&format!(
            "(version: 1, table: (width: 10, height: 10), clock: (moves_played: {}),
              figures: [(name: \"Walker\", position: (1, 1), path: [(9, 1)])])",
            MAX_MOVES_PLAYED - 1
        ));
        let mut sim = Simulation::new(&scene, 1);
        assert_eq!(sim.try_step_moves(2), Err(ClockFull { played: MAX_MOVES_PLAYED - 1, moves: 2 }));
        assert!(sim.log().events.is_empty(), "a refused step resolves nothing");
        assert_eq!(sim.try_step_moves(1), Ok(()));
        assert!(!sim.step_move(), "at the maximum no move is resolved");
        sim.step_moves(5);
        assert_eq!(sim.world().resource::<MoveClock>().move_number, MAX_MOVES_PLAYED);
        let end = sim.scene_now().expect("a scene");
        assert_eq!(end.clock.moves_played, MAX_MOVES_PLAYED);
        assert!(crate::scene::load::validate(&end).is_empty(), "the saved scene loads");
        // One past it does not load, with the clock named.
        let mut past = end;
        past.clock.moves_played = MAX_MOVES_PLAYED + 1;
        let problems = crate::scene::load::validate(&past);
        assert!(problems.iter().any(|p| p.entity == "clock" && p.message.contains("moves_played")), "{problems:?}");
        past.clock.moves_played = u32::MAX;
        assert!(!crate::scene::load::validate(&past).is_empty());
    }
}
