//! The outcomes the simulation logs that no rule reports: each system's own, typed, with what
//! each means for the play-test report (see [`crate::rules::outcome`]).

use crate::rules::named_enum;
use crate::rules::outcome::{Mark, Meaning, impl_outcome};

named_enum! {
    /// A figure's move (`moved` events).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum MoveOutcome {
        /// An immobile condition held it where it stood.
        Held => "held",
        /// A wall stopped it short.
        BlockedByWall => "blocked_by_wall",
        /// It stopped at the edge of a pit it walks round, a wall blocking the way round.
        BlockedByPit => "blocked_by_pit",
        /// It had no distance to walk this move.
        HeldUp => "held_up",
        /// It reached its last waypoint.
        Arrived => "arrived",
        /// It moved and has waypoints left.
        Moved => "moved",
    }
}

named_enum! {
    /// OSR encounter events that are not a rule's own outcome (docs/osr.md "In a scene").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum EncounterEventOutcome {
        /// `osr_turn`: a turn spent exploring.
        Exploring => "exploring",
        /// `osr_turn`: a turn of rest (it does not count towards the wandering check).
        Resting => "resting",
        /// `encounter_drawn`: a row of the encounter table came.
        Drawn => "drawn",
        /// `encounter_drawn`: the scene has no encounter table; nothing comes.
        EmptyTable => "empty_table",
        /// `monsters_arrive`: at the point of entry (within the rolled distance).
        AtEntry => "at_entry",
        /// `monsters_arrive`: the rolled distance from the party, on the way in from the entry.
        NearerThanEntry => "nearer_than_entry",
        /// `monsters_arrive`: no route is logical: the rolled distance ahead of the party.
        NoLogicalEntry => "no_logical_entry",
        /// `combat`: the reaction was at or below `rules.osr.fights_at`.
        CombatBegins => "combat_begins",
        /// `combat`: no combat; the GM plays the encounter.
        NoCombat => "no_combat",
        /// `combat`: under `rules_family: morval` the reaction was at or below `rules.osr.fights_at`,
        /// but Morval combat is outside the sources: not stepped, the GM plays it.
        CombatNotStepped => "combat_not_stepped",
        /// `hit`: the GM's hit landed.
        Hit => "hit",
        /// `hit`: it took the figure to 0 hit points or fewer.
        Killed => "killed",
        /// `hit`: no figure with a sheet has the name.
        NoSuchFigure => "no_such_figure",
        /// `combat_ordered`: the GM ordered a hit or the combat's end from the GM view, for the next round.
        Ordered => "ordered",
    }
}

named_enum! {
    /// Trap events that are not a rule's own outcome.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum TrapOutcome {
        /// `spot_check`: the trap was seen.
        Spotted => "spotted",
        /// `spot_check`: the trap was not seen.
        NotSpotted => "not_spotted",
        /// `spot_check`: a wall or a closed door hid the trap; no roll (issue #17).
        NotInSight => "not_in_sight",
        /// `treadle`: it did not go off.
        LockedSafe => "locked_safe",
        /// `treadle`: a friend worked the safety lever.
        SafetyLever => "safety_lever",
        /// `treadle`: the creature was too light to set it off.
        TooLight => "too_light",
        /// `treadle`, `lifter`: it went off.
        Sprung => "sprung",
        /// `payload`: a silent alarm, noticed or not.
        VictimRealises => "victim_realises",
        /// `payload`: the victim did not notice the silent alarm.
        Unnoticed => "unnoticed",
        /// `falling_floor`.
        GivesWay => "gives_way",
        /// `falling_floor`: it holds.
        Holds => "holds",
        /// `injury_starts`: a loop's sprain starts when the victim is let down.
        ReleasedFromLoop => "released_from_loop",
        /// `leydonic`.
        NotCharged => "not_charged",
        /// `leydonic`: the charge struck.
        Discharged => "discharged",
        /// `trap_flame`: a trap's flame handed to the fire.
        Flame => "flame",
        /// `khemri_deal`.
        Dealt => "dealt",
        /// `khemri_deal`: a side set more counters than it may place; the rest stay off the table.
        CountersLeftOut => "counters_left_out",
        /// Khemri blades and boulders.
        Struck => "struck",
        /// Khemri blades and boulders: the model passed its I test.
        Dodged => "dodged",
        /// `khemri_trap`: a dud or a simple trap (a complex one logs its [`ComplexTrap`] id).
        ///
        /// [`ComplexTrap`]: crate::rules::khemri_traps::ComplexTrap
        Dud => "dud",
        /// `khemri_trap`: a simple trap.
        Simple => "simple",
        /// `khemri_pit_edge`.
        FellIn => "fell_in",
        /// `khemri_pit_edge`: the model passed its I test and did not fall in.
        KeptFooting => "kept_footing",
        /// `khemri_stray_arrows`.
        Missed => "missed",
        /// `khemri_stray_arrows`: at least one stray arrow hit.
        Hit => "hit",
        /// `khemri_gas`.
        Immune => "immune",
        /// `khemri_gas`: a model within 2" takes its S4 hit.
        Gassed => "gassed",
        /// `khemri_fire_nearby`.
        OnFire => "on_fire",
        /// `khemri_fire_nearby`: the model's D6 was under 4.
        NotOnFire => "not_on_fire",
        /// `khemri_boulder_rolls`.
        Clear => "clear",
        /// `khemri_boulder_rolls`: models lie in the boulder's path.
        ModelsInWay => "models_in_way",
        /// `khemri_step_aside`.
        SteppedAside => "stepped_aside",
        /// `khemri_step_aside`: walls block both sides, so the model stays put.
        WallsBothSides => "walls_both_sides",
        /// `pit_climb`: passed its Initiative test and is on the pit's edge (house rule).
        ClimbedOut => "climbed_out",
        /// `pit_climb`: failed its Initiative test and is still in the pit.
        StillInPit => "still_in_pit",
    }
}

named_enum! {
    /// Herd events that are not a rule's own outcome.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum HerdOutcome {
        /// `cattle_grid`: crossed on planks laid over the grid.
        CrossedOnPlanks => "crossed_on_planks",
        /// `cattle_grid`: walked across, losing 1" (men) or 2" (women) of the move.
        Walked => "walked",
        /// `cattle_grid`: a mounted figure stops at a grid without planks (001: "Impassable to
        /// normal livestock"; the steed is livestock).
        ImpassableToSteed => "impassable_to_steed",
        /// `grid_freed`: a figure freed a beast stuck on a grid.
        Freed => "freed",
        /// `wandered`: the herd is tethered and stays.
        Tethered => "tethered",
        /// `wandered`: a creature with a zone keeps its place (`herds.zone_creatures_wander` off).
        KeepsPlace => "keeps_place",
        /// `spread_out`: beasts pushed apart to their spacing.
        SpreadOut => "spread_out",
        /// `herded`: no herder is within reach of the herd.
        HerdersOutOfReach => "herders_out_of_reach",
        /// `herded`: every free beast was herded.
        Herded => "herded",
        /// `herded`: more beasts than the herders can take; the rest straggle.
        PartlyHerded => "partly_herded",
        /// A stampede that nothing stopped.
        Ran => "ran",
    }
}

named_enum! {
    /// Fire events that are not a rule's own outcome.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum FireOutcome {
        /// `fire_lit`, `fire_burning`: the fire burns.
        Burning => "burning",
        /// `fire_lit`, `ignition`: nothing there burns.
        NothingToBurn => "nothing_to_burn",
        /// `ignition`: the spot is already burning.
        AlreadyBurning => "already_burning",
        /// `region_burning`.
        Caught => "caught",
        /// `region_burning`: nothing is left burning in the region.
        BurntOut => "burnt_out",
        /// `region_burning`: still burning, cells catching or burning out.
        Spreading => "spreading",
        /// `fires_out`.
        Out => "out",
    }
}

named_enum! {
    /// Sleeper events that are not a rule's own outcome.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum SleeperOutcome {
        /// `investigator_moved`.
        FoundIntruder => "found_intruder",
        /// `investigator_moved`: reached the noise and found nothing; heading back.
        FoundNothing => "found_nothing",
        /// `investigator_moved`, `listening_ended`: back to sleep.
        BackToSleep => "back_to_sleep",
        /// `investigator_moved`: still on the way.
        Walking => "walking",
        /// `response`: a watch kept in the group stays awake.
        StaysAwake => "stays_awake",
        /// `alarm_raised`.
        Alarm => "alarm",
        /// `noise_heard`.
        Heard => "heard",
        /// `dressing`.
        Dressed => "dressed",
        /// `dressing`: still dressing.
        Dressing => "dressing",
    }
}

named_enum! {
    /// Temptation and decision events that are not a rule's own outcome.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum TemptationEventOutcome {
        /// `qualities_diced`: the qualities not given were diced (and are kept).
        QualitiesDiced => "qualities_diced",
        /// `weakness_reminder`: a weakness without dice shown to the GM at a site.
        Reminder => "reminder",
        /// `time_inside`: a timed site holds the figure another move.
        StillInside => "still_inside",
        /// `time_inside`: its time is up; it walks on next move.
        TimeUp => "time_up",
        /// `decision`: the order could not be diced.
        Refused => "refused",
        /// `outvote`: the figure is not inside a site; there is nothing to outvote it out of.
        NotInside => "not_inside",
        /// `weakness_check` `friend_in_melee`: no friend stands within 1", so nothing is rolled.
        NoFriendNear => "no_friend_near",
    }
}

named_enum! {
    /// Prisoner, chase and berserker events that are not a rule's own outcome.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum PrisonerEventOutcome {
        /// `escort`: the guards hold every prisoner; no escape dice.
        Secure => "secure",
        /// `escort`: prisoners in excess; the escape dice follow.
        InExcess => "in_excess",
        /// `ran_off`: a prisoner ran off from his escort.
        RanOff => "ran_off",
        /// `fugitive_ran`: a runaway ran on this round.
        Running => "running",
        /// `fugitive_ran`: a wall, water or the table held him where he stood.
        Blocked => "blocked",
        /// `escaped`: he reached the table edge or his refuge and is out of play.
        Escaped => "escaped",
        /// `pursuit`: a free guard runs him down.
        Pursues => "pursues",
        /// `pursuit`: none of his guards is free to run him down.
        NoGuardFree => "no_guard_free",
        /// `recaptured`: the guard tied his hands and gained control.
        Recaptured => "recaptured",
        /// `binding_undone`: a prisoner with free hands undid a binding this round.
        Undone => "undone",
        /// `fatigue`: running (or a rage) cost fatigue points this move.
        Tired => "tired",
    }
}

named_enum! {
    /// Tracking events that are not a rule's own outcome (`sim::trails`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum TrackingEventOutcome {
        /// `cast_to_trail`: more than 1" from its quarry's trail, the tracker goes to it (no roll).
        CastToTrail => "cast_to_trail",
        /// `guessed_move`: the guessed 3" of a sight tracker.
        Guessed => "guessed",
        /// `search`: a scent tracker on its way to search again.
        Searching => "searching",
        /// `search`: at the search point; it dices again next move.
        AtSearchPoint => "at_search_point",
        /// `search`: no point of the trail ahead will do; it stays and dices again next move.
        NoSearchPoint => "no_search_point",
        /// `backtracked`: a sight tracker went back the way he came.
        Backtracked => "backtracked",
        /// `trail_lost`.
        Lost => "lost",
        /// `trail_found`: following again after a loss, a guess or a search.
        Found => "found",
        /// `switched_trail`: a fresher crossing trail taken (`tracking.crossing_trails`).
        Switched => "switched",
        /// `caught_up`: the tracker ended its move within 1" of its quarry.
        CaughtUp => "caught_up",
        /// `gave_up`: the trail is too old to follow.
        GaveUp => "gave_up",
        /// `trail_not_in_sight`: a sight tracker cannot see the trail (a wall or a closed door
        /// between, or beyond the sight the light gives); it stays (issue #17).
        NotInSight => "not_in_sight",
    }
}

named_enum! {
    /// Magic events that are not a rule's own outcome.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum MagicEventOutcome {
        /// `being_moved`: walked and has waypoints left.
        Moved => "moved",
        /// `being_moved`: reached its last waypoint.
        Arrived => "arrived",
        /// `being_moved`: a wall stopped it short (a ghost passes walls).
        BlockedByWall => "blocked_by_wall",
        /// `revealed`: a spell revealed the being to the players.
        Revealed => "revealed",
        /// `curse_laid`.
        CurseLaid => "curse_laid",
        /// `magic_power`: Magic Power recovered this move.
        Recovered => "recovered",
        /// `cast_ordered`: the GM ordered a spell from the GM view, for the next move.
        Ordered => "ordered",
    }
}

named_enum! {
    /// Obstacle events that are not a rule's own outcome (`sim::obstacles`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum ObstacleEventOutcome {
        /// `stake_work`: a move of work done, the line not ready yet.
        StakesBuilding => "stakes_building",
        /// `stake_work`: the line is positioned and sharp.
        StakesReady => "stakes_ready",
        /// `stake_strike`: the stakes strike the charging rider's steed (value reported).
        Struck => "struck",
        /// `stake_strike`: too slow for any row of the text: nothing strikes.
        NoStrike => "no_strike",
        /// `stakes_crossed`: foot, or a figure advancing from behind: the inches the text takes
        /// off are reported.
        MoveLoss => "move_loss",
        /// `planks`: a round of laying done, not laid yet.
        Laying => "laying",
        /// `planks`: the planks are across the grid.
        Laid => "laid",
        /// `vehicle_moved`: went on and has waypoints left.
        Moved => "moved",
        /// `vehicle_moved`: reached its last waypoint.
        Arrived => "arrived",
        /// `vehicle_moved`: stopped at a cattle grid without planks.
        StoppedAtGrid => "stopped_at_grid",
        /// `vehicle_moved`: a wall stopped it short.
        BlockedByWall => "blocked_by_wall",
        /// `carrying`: what the figure carries costs fatigue endurance (reported, not applied:
        /// the sources give no fatigue endurance to take it from).
        EnduranceCost => "endurance_cost",
        /// `rope_climb`: a figure the wall stopped takes a hanging rope and climbs a round.
        TakesRope => "takes_rope",
        /// `rope_climb`: a round further up the rope.
        Climbing => "climbing",
        /// `rope_climb`: up the rope and down on the far side of the wall.
        OverTheWall => "over_the_wall",
        /// `glass_wall_reached`: a figure the wall stopped sets about climbing a glass-topped wall.
        AtGlassWall => "at_glass_wall",
    }
}

named_enum! {
    /// Bookkeeping events.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum BookkeepingOutcome {
        /// `condition_expired`: a condition's moves ran out.
        Expired => "expired",
    }
}

named_enum! {
    /// Rest events that are not a rule's own outcome (`tabula rest`, [`super::rest()`]).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum RestOutcome {
        /// `came_round`: an unconscious figure's moves ran out during the days of rest.
        CameRound => "came_round",
        /// `condition_expired`: a condition's moves ran out during the days of rest.
        Expired => "expired",
    }
}

impl_outcome! {
    MoveOutcome => |o| match o {
        MoveOutcome::Held => Meaning::NONE.mark(Mark::Held),
        MoveOutcome::Arrived => Meaning::NONE.mark(Mark::Arrived),
        MoveOutcome::BlockedByWall | MoveOutcome::BlockedByPit | MoveOutcome::HeldUp | MoveOutcome::Moved => {
            Meaning::NONE
        }
    };
    TrapOutcome => |o| match o {
        // Not a trap going off at a figure (docs/playtest.md).
        TrapOutcome::Spotted => Meaning::NONE.mark(Mark::Spotted),
        TrapOutcome::NotSpotted
        | TrapOutcome::NotInSight
        | TrapOutcome::ReleasedFromLoop
        | TrapOutcome::Flame
        | TrapOutcome::Dealt
        | TrapOutcome::CountersLeftOut
        | TrapOutcome::ClimbedOut
        | TrapOutcome::StillInPit => Meaning::NONE,
        // A trigger that did not go off (docs/traps.md).
        TrapOutcome::LockedSafe
        | TrapOutcome::SafetyLever
        | TrapOutcome::TooLight
        | TrapOutcome::Holds
        | TrapOutcome::NotCharged => Meaning::NOT_SPRUNG,
        TrapOutcome::Sprung
        | TrapOutcome::VictimRealises
        | TrapOutcome::Unnoticed
        | TrapOutcome::GivesWay
        | TrapOutcome::Discharged
        | TrapOutcome::Struck
        | TrapOutcome::Dodged
        | TrapOutcome::Dud
        | TrapOutcome::Simple
        | TrapOutcome::FellIn
        | TrapOutcome::KeptFooting
        | TrapOutcome::Missed
        | TrapOutcome::Hit
        | TrapOutcome::Immune
        | TrapOutcome::Gassed
        | TrapOutcome::OnFire
        | TrapOutcome::NotOnFire
        | TrapOutcome::Clear
        | TrapOutcome::ModelsInWay
        | TrapOutcome::SteppedAside
        | TrapOutcome::WallsBothSides => Meaning::SPRUNG,
    };
    HerdOutcome => |o| Meaning::NONE;
    FireOutcome => |o| Meaning::NONE;
    SleeperOutcome => |o| Meaning::NONE;
    TemptationEventOutcome => |o| Meaning::NONE;
    PrisonerEventOutcome => |o| match o {
        PrisonerEventOutcome::RanOff => Meaning::NONE.mark(Mark::RanOff),
        PrisonerEventOutcome::Recaptured => Meaning::NONE.mark(Mark::Recaptured),
        PrisonerEventOutcome::Escaped => Meaning::NONE.mark(Mark::Escaped),
        _ => Meaning::NONE,
    };
    TrackingEventOutcome => |o| match o {
        TrackingEventOutcome::CaughtUp => Meaning::NONE.mark(Mark::CaughtUp),
        _ => Meaning::NONE,
    };
    MagicEventOutcome => |o| Meaning::NONE;
    EncounterEventOutcome => |o| Meaning::NONE;
    ObstacleEventOutcome => |o| Meaning::NONE;
    BookkeepingOutcome => |o| Meaning::NONE;
    RestOutcome => |o| Meaning::NONE;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::decisions::{DecisionOutcome, LeaveOutcome, OutvoteOutcome, TemptationOutcome, WeaknessOutcome};
    use crate::rules::fire::{IgnitionOutcome, PersonInFireOutcome};
    use crate::rules::herds::{
        CatchOutcome, GridEscapeOutcome, RunningGridOutcome, StampedeGridOutcome, WanderStep, ZoneResponse,
    };
    use crate::rules::injuries::{
        DayOutcome, LocationOutcome, Recoverability, SagaRecovery, UnconsciousOutcome, WoundRecovery,
    };
    use crate::rules::khemri_traps::{ComplexTrap, CrossingOutcome, DisarmOutcome, SetTrapOutcome};
    use crate::rules::morval_traps::{LoopOutcome, PayloadKind, PitOutcome, TripCordOutcome};
    use crate::rules::outcome::{Classified, Harm, Outcome, Sprung};
    use crate::rules::prisoners::{BerserkOutcome, BondsOutcome, ChaseOutcome, EscapeOutcome, StruggleOutcome};
    use crate::rules::sleepers::{Noise, ResponseOutcome, WakingOutcome};
    use std::any::type_name;
    use std::collections::{BTreeMap, HashSet};

    /// The play-test's classification as it was written before outcomes were typed: string
    /// lists of events and outcome ids (docs/playtest.md, docs/traps.md).
    fn expected(system: &str, event: &str, id: &str) -> Meaning {
        const NOT_TRIGGERS: &[&str] = &[
            "spot_check",
            "khemri_disarm",
            "khemri_set_trap",
            "khemri_deal",
            "injury_starts",
            "trap_flame",
            "pit_climb",
        ];
        const NOT_SPRUNG: &[&str] = &[
            "avoided",
            "inactive",
            "spotted",
            "missed_not_sprung",
            "holds",
            "not_charged",
            "locked_safe",
            "safety_lever",
            "too_light",
        ];
        let sprung = if system != "traps" || NOT_TRIGGERS.contains(&event) {
            Sprung::NotATrigger
        } else if NOT_SPRUNG.contains(&id) {
            Sprung::NotSprung
        } else {
            Sprung::Sprung
        };
        let harm = match (system, id) {
            (_, "retarded_fall_minus_two" | "retarded_fall_minus_one" | "fall_unimpeded") => Harm::Fall,
            (_, "minor_burns" | "bad_burns" | "severe_burns" | "crippled_in_agony") => Harm::Burn,
            (_, "apparently_dead") => Harm::ApparentlyDead,
            (_, "definitely_dead") => Harm::DefinitelyDead,
            // Rest (docs/injuries.md "Outcome ids"): a death after the fight.
            ("injuries", "dead_as_first_thought" | "dead" | "died") => Harm::DefinitelyDead,
            _ => Harm::None,
        };
        let mark = match (system, event, id) {
            ("movement", _, "arrived") => Mark::Arrived,
            ("movement", _, "held") => Mark::Held,
            ("traps", "spot_check" | "khemri_crossing", "spotted") => Mark::Spotted,
            ("traps", "khemri_disarm", id) if id.contains("disarmed") => Mark::Disarmed,
            ("sleepers", "response", "raise_alarm") => Mark::RaisesAlarm,
            ("prisoners", "ran_off", "ran_off") => Mark::RanOff,
            ("prisoners", "recaptured", "recaptured") => Mark::Recaptured,
            ("prisoners", "escaped", "escaped") => Mark::Escaped,
            ("tracking", "caught_up", "caught_up") => Mark::CaughtUp,
            ("encounters", "wandering_check", "encounter") => Mark::Encounter,
            ("encounters", "surprise", "party_surprised") => Mark::PartySurprised,
            ("encounters", "surprise", "monsters_surprised") => Mark::MonstersSurprised,
            ("encounters", "surprise", "both_surprised") => Mark::BothSurprised,
            ("encounters", "morale_check" | "loyalty_check", "flees" | "surrenders") => Mark::Routed,
            _ => Mark::None,
        };
        Meaning { sprung, harm, mark }
    }

    /// Which outcomes each event logs.
    #[derive(Default)]
    struct Table {
        rows: Vec<(&'static str, &'static str, Vec<Classified>)>,
        listed: HashSet<(&'static str, &'static str)>,
    }

    impl Table {
        fn add<O: Outcome>(&mut self, system: &'static str, event: &'static str, outcomes: &[O]) {
            for &o in outcomes {
                self.listed.insert((type_name::<O>(), o.id()));
            }
            self.rows.push((system, event, outcomes.iter().map(|&o| o.classified()).collect()));
        }

        fn covers<O: Outcome>(&self, all: &[O]) {
            for &o in all {
                assert!(
                    self.listed.contains(&(type_name::<O>(), o.id())),
                    "{} {} is logged by no event",
                    type_name::<O>(),
                    o.id()
                );
            }
        }
    }

    /// Every outcome the simulation logs, by event: each is classified as the string lists
    /// classified it, and no event logs two outcomes with one id.
    #[test]
    fn every_outcome_is_classified_as_before() {
        use TrapOutcome as T;
        let mut t = Table::default();
        t.add("movement", "moved", &MoveOutcome::ALL);
        t.add("traps", "spot_check", &[T::Spotted, T::NotSpotted, T::NotInSight]);
        t.add("traps", "trip_cord", &TripCordOutcome::ALL);
        t.add("traps", "treadle", &[T::LockedSafe, T::SafetyLever, T::TooLight, T::Sprung]);
        t.add("traps", "lifter", &[T::Sprung]);
        t.add("traps", "payload", &[T::VictimRealises, T::Unnoticed]);
        t.add("traps", "payload", &PayloadKind::ALL);
        t.add("traps", "pit", &PitOutcome::ALL);
        t.add("traps", "falling_floor", &[T::GivesWay, T::Holds]);
        t.add("traps", "loop", &LoopOutcome::ALL);
        t.add("traps", "injury_starts", &[T::ReleasedFromLoop]);
        t.add("traps", "leydonic", &[T::NotCharged, T::Discharged]);
        t.add("traps", "trap_flame", &[T::Flame]);
        t.add("traps", "khemri_deal", &[T::Dealt, T::CountersLeftOut]);
        t.add("traps", "khemri_crossing", &CrossingOutcome::ALL);
        t.add("traps", "khemri_disarm", &DisarmOutcome::ALL);
        t.add("traps", "khemri_set_trap", &SetTrapOutcome::ALL);
        t.add("traps", "khemri_swinging_blades_again", &[T::Struck, T::Dodged]);
        t.add("traps", "khemri_trap", &[T::Dud, T::Simple]);
        t.add("traps", "khemri_trap", &ComplexTrap::ALL);
        t.add("traps", "khemri_pit_edge", &[T::FellIn, T::KeptFooting]);
        t.add("traps", "khemri_open_pit", &[T::FellIn, T::KeptFooting]);
        t.add("traps", "khemri_stray_arrows", &[T::Missed, T::Hit]);
        t.add("traps", "khemri_gas", &[T::Immune, T::Gassed]);
        t.add("traps", "khemri_fire_nearby", &[T::OnFire, T::NotOnFire]);
        t.add("traps", "khemri_boulder_rolls", &[T::Clear, T::ModelsInWay]);
        t.add("traps", "khemri_boulder_path", &[T::Struck, T::Dodged]);
        t.add("traps", "khemri_step_aside", &[T::SteppedAside, T::WallsBothSides]);
        t.add("traps", "pit_climb", &[T::ClimbedOut, T::StillInPit]);
        t.add(
            "herds",
            "cattle_grid",
            &[HerdOutcome::CrossedOnPlanks, HerdOutcome::Walked, HerdOutcome::ImpassableToSteed],
        );
        t.add("herds", "cattle_grid", &RunningGridOutcome::ALL);
        t.add("herds", "grid_escape", &GridEscapeOutcome::ALL);
        t.add("herds", "grid_freed", &[HerdOutcome::Freed]);
        t.add("herds", "catch_attempt", &CatchOutcome::ALL);
        // A wander a wall, edge, grid or fire stopped logs the blocker's id (sim::herds).
        t.add("herds", "wandered", &[HerdOutcome::Tethered, HerdOutcome::KeepsPlace]);
        t.add("herds", "wandered", &WanderStep::ALL);
        t.add("herds", "spread_out", &[HerdOutcome::SpreadOut]);
        t.add("herds", "herded", &[HerdOutcome::HerdersOutOfReach, HerdOutcome::Herded, HerdOutcome::PartlyHerded]);
        t.add("herds", "grid_stampede", &StampedeGridOutcome::ALL);
        t.add("herds", "stampeded", &[HerdOutcome::Ran]);
        t.add("herds", "zone", &ZoneResponse::ALL);
        t.add("fire", "fire_lit", &[FireOutcome::Burning, FireOutcome::NothingToBurn]);
        t.add("fire", "person_in_fire", &PersonInFireOutcome::ALL);
        t.add("fire", "region_burning", &[FireOutcome::Caught, FireOutcome::BurntOut, FireOutcome::Spreading]);
        t.add("fire", "fire_burning", &[FireOutcome::Burning]);
        t.add("fire", "fires_out", &[FireOutcome::Out]);
        t.add("fire", "ignition", &[FireOutcome::AlreadyBurning, FireOutcome::NothingToBurn]);
        t.add("fire", "ignition", &IgnitionOutcome::ALL);
        use SleeperOutcome as S;
        t.add("sleepers", "investigator_moved", &[S::FoundIntruder, S::FoundNothing, S::BackToSleep, S::Walking]);
        t.add("sleepers", "alarm_raised", &[S::Alarm]);
        t.add("sleepers", "noise_heard", &[S::Heard]);
        t.add("sleepers", "waking_roll", &WakingOutcome::ALL);
        t.add("sleepers", "response", &[S::StaysAwake]);
        t.add("sleepers", "response", &ResponseOutcome::ALL);
        t.add("sleepers", "listening_ended", &[S::BackToSleep]);
        t.add("sleepers", "dressing", &[S::Dressed, S::Dressing]);
        use TemptationEventOutcome as E;
        t.add("temptations", "qualities_diced", &[E::QualitiesDiced]);
        t.add("temptations", "weakness_reminder", &[E::Reminder]);
        t.add("temptations", "temptation", &TemptationOutcome::ALL);
        t.add("temptations", "leave_roll", &LeaveOutcome::ALL);
        t.add("temptations", "time_inside", &[E::StillInside, E::TimeUp]);
        t.add("temptations", "outvote", &[E::NotInside]);
        t.add("temptations", "outvote", &OutvoteOutcome::ALL);
        t.add("temptations", "weakness_check", &WeaknessOutcome::ALL);
        t.add("temptations", "weakness_check", &[E::NoFriendNear]);
        t.add("decisions", "decision", &[E::Refused]);
        t.add("decisions", "decision", &DecisionOutcome::ALL);
        use PrisonerEventOutcome as P;
        t.add("prisoners", "escort", &[P::Secure, P::InExcess]);
        t.add("prisoners", "escape_roll", &EscapeOutcome::ALL);
        t.add("prisoners", "ran_off", &[P::RanOff]);
        t.add("prisoners", "fugitive_ran", &[P::Running, P::Blocked]);
        t.add("prisoners", "escaped", &[P::Escaped]);
        t.add("prisoners", "pursuit", &[P::Pursues, P::NoGuardFree]);
        t.add("prisoners", "catch", &ChaseOutcome::ALL);
        t.add("prisoners", "struggle", &StruggleOutcome::ALL);
        t.add("prisoners", "recaptured", &[P::Recaptured]);
        t.add("prisoners", "bonds_roll", &BondsOutcome::ALL);
        t.add("prisoners", "binding_undone", &[P::Undone]);
        t.add("prisoners", "berserk", &BerserkOutcome::ALL);
        t.add("prisoners", "fatigue", &[P::Tired]);
        {
            use crate::rules::tracking::{PepperOutcome, ScentOutcome, SightOutcome};
            use TrackingEventOutcome as K;
            t.add("tracking", "sight_tracking", &SightOutcome::ALL);
            t.add("tracking", "scent_tracking", &ScentOutcome::ALL);
            t.add("tracking", "pepper", &PepperOutcome::ALL);
            t.add("tracking", "cast_to_trail", &[K::CastToTrail]);
            t.add("tracking", "guessed_move", &[K::Guessed]);
            t.add("tracking", "search", &[K::Searching, K::AtSearchPoint, K::NoSearchPoint]);
            t.add("tracking", "backtracked", &[K::Backtracked]);
            t.add("tracking", "trail_lost", &[K::Lost]);
            t.add("tracking", "trail_found", &[K::Found]);
            t.add("tracking", "switched_trail", &[K::Switched]);
            t.add("tracking", "caught_up", &[K::CaughtUp]);
            t.add("tracking", "gave_up", &[K::GaveUp]);
            t.add("tracking", "trail_not_in_sight", &[K::NotInSight]);
        }
        t.add("bookkeeping", "condition_expired", &BookkeepingOutcome::ALL);
        use MagicEventOutcome as M;
        t.add("magic", "being_moved", &[M::Moved, M::Arrived, M::BlockedByWall]);
        t.add("magic", "cast", &crate::rules::magic::SpellOutcome::ALL);
        t.add("magic", "revealed", &[M::Revealed]);
        t.add("magic", "curse_laid", &[M::CurseLaid]);
        t.add("magic", "occult_fright", &crate::rules::magic::FrightOutcome::ALL);
        t.add("magic", "ward_check", &crate::rules::magic::WardOutcome::ALL);
        t.add("magic", "magic_power", &[M::Recovered]);
        t.add("magic", "cast_ordered", &[M::Ordered]);
        {
            use crate::rules::obstacles::{
                CutOutcome, GlassWallOutcome, LodgementOutcome, OverloadOutcome, ThrowDownOutcome,
            };
            use ObstacleEventOutcome as B;
            t.add("obstacles", "stake_work", &[B::StakesBuilding, B::StakesReady]);
            t.add("obstacles", "stake_strike", &[B::Struck, B::NoStrike]);
            t.add("obstacles", "stakes_crossed", &[B::MoveLoss]);
            t.add("obstacles", "grapnel_throw", &LodgementOutcome::ALL);
            t.add("obstacles", "throw_down", &ThrowDownOutcome::ALL);
            t.add("obstacles", "rope_overload", &OverloadOutcome::ALL);
            t.add("obstacles", "glass_wall_climb", &GlassWallOutcome::ALL);
            t.add("obstacles", "planks", &[B::Laying, B::Laid]);
            t.add("obstacles", "vehicle_moved", &[B::Moved, B::Arrived, B::StoppedAtGrid, B::BlockedByWall]);
            t.add("obstacles", "carrying", &[B::EnduranceCost]);
            t.add("obstacles", "cut_rope", &[CutOutcome::NotSharpEdged, CutOutcome::Fail]);
            t.add("obstacles", "cut_rope", &[CutOutcome::Weakened, CutOutcome::Cut]);
            t.add("obstacles", "rope_climb", &[B::TakesRope, B::Climbing, B::OverTheWall]);
            t.add("obstacles", "glass_wall_reached", &[B::AtGlassWall]);
        }
        {
            use crate::rules::osr::{
                AttackOutcome, CombatEnd, CombatPhase, MoraleOutcome, Reaction, SurpriseOutcome, WanderingOutcome,
            };
            use EncounterEventOutcome as N;
            t.add("encounters", "osr_turn", &[N::Exploring, N::Resting]);
            t.add("encounters", "wandering_check", &WanderingOutcome::ALL);
            t.add("encounters", "encounter_drawn", &[N::Drawn, N::EmptyTable]);
            t.add("encounters", "monsters_arrive", &[N::AtEntry, N::NearerThanEntry, N::NoLogicalEntry]);
            t.add("encounters", "surprise", &SurpriseOutcome::ALL);
            t.add("encounters", "reaction", &Reaction::ALL);
            t.add("encounters", "combat", &[N::CombatBegins, N::NoCombat, N::CombatNotStepped]);
            t.add("encounters", "combat_phase", &CombatPhase::ALL);
            t.add("encounters", "attack", &AttackOutcome::ALL);
            t.add("encounters", "hit", &[N::Hit, N::Killed, N::NoSuchFigure]);
            t.add("encounters", "morale_check", &MoraleOutcome::ALL);
            t.add("encounters", "loyalty_check", &MoraleOutcome::ALL);
            t.add("encounters", "combat_ended", &CombatEnd::ALL);
            t.add("encounters", "combat_ordered", &[N::Ordered]);
        }
        t.add("noise", "noise_made", &Noise::ALL);
        t.add("injuries", "location", &LocationOutcome::ALL);
        t.add("injuries", "wound_recovery", &WoundRecovery::ALL);
        t.add("injuries", "unconscious", &UnconsciousOutcome::ALL);
        t.add("injuries", "apparently_dead", &Recoverability::ALL);
        t.add("injuries", "apparently_dead", &SagaRecovery::ALL);
        t.add("injuries", "healing_day", &DayOutcome::ALL);
        t.add("injuries", "came_round", &[RestOutcome::CameRound]);
        t.add("injuries", "condition_expired", &[RestOutcome::Expired]);

        t.covers(&MoveOutcome::ALL);
        t.covers(&TrapOutcome::ALL);
        t.covers(&HerdOutcome::ALL);
        t.covers(&FireOutcome::ALL);
        t.covers(&SleeperOutcome::ALL);
        t.covers(&TemptationEventOutcome::ALL);
        t.covers(&TrackingEventOutcome::ALL);
        t.covers(&MagicEventOutcome::ALL);
        t.covers(&ObstacleEventOutcome::ALL);
        t.covers(&RestOutcome::ALL);
        t.covers(&PrisonerEventOutcome::ALL);
        t.covers(&EncounterEventOutcome::ALL);

        let mut ids: BTreeMap<(&str, &str), HashSet<&str>> = BTreeMap::new();
        for (system, event, outcomes) in &t.rows {
            let (system, event) = (*system, *event);
            for o in outcomes {
                assert!(ids.entry((system, event)).or_default().insert(o.id()), "{system} {event}: {} twice", o.id());
                assert_eq!(o.meaning(), expected(system, event, o.id()), "{system} {event} {}", o.id());
            }
        }
    }
}
