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
        BlockedByWall => "blocked_by_wall",
        /// It had no distance to walk this move.
        HeldUp => "held_up",
        /// It reached its last waypoint.
        Arrived => "arrived",
        Moved => "moved",
    }
}

named_enum! {
    /// Trap events that are not a rule's own outcome.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum TrapOutcome {
        /// `spot_check`: the trap was seen.
        Spotted => "spotted",
        NotSpotted => "not_spotted",
        /// `treadle`: it did not go off.
        LockedSafe => "locked_safe",
        SafetyLever => "safety_lever",
        TooLight => "too_light",
        /// `treadle`, `lifter`: it went off.
        Sprung => "sprung",
        /// `payload`: a silent alarm, noticed or not.
        VictimRealises => "victim_realises",
        Unnoticed => "unnoticed",
        /// `falling_floor`.
        GivesWay => "gives_way",
        Holds => "holds",
        /// `injury_starts`: a loop's sprain starts when the victim is let down.
        ReleasedFromLoop => "released_from_loop",
        /// `leydonic`.
        NotCharged => "not_charged",
        Discharged => "discharged",
        /// `trap_flame`: a trap's flame handed to the fire.
        Flame => "flame",
        /// `khemri_deal`.
        Dealt => "dealt",
        CountersLeftOut => "counters_left_out",
        /// Khemri blades and boulders.
        Struck => "struck",
        Dodged => "dodged",
        /// `khemri_trap`: a dud or a simple trap (a complex one logs its [`ComplexTrap`] id).
        ///
        /// [`ComplexTrap`]: crate::rules::khemri_traps::ComplexTrap
        Dud => "dud",
        Simple => "simple",
        /// `khemri_pit_edge`.
        FellIn => "fell_in",
        KeptFooting => "kept_footing",
        /// `khemri_stray_arrows`.
        Missed => "missed",
        Hit => "hit",
        /// `khemri_gas`.
        Immune => "immune",
        Gassed => "gassed",
        /// `khemri_fire_nearby`.
        OnFire => "on_fire",
        NotOnFire => "not_on_fire",
        /// `khemri_boulder_rolls`.
        Clear => "clear",
        ModelsInWay => "models_in_way",
        /// `khemri_step_aside`.
        SteppedAside => "stepped_aside",
        WallsBothSides => "walls_both_sides",
    }
}

named_enum! {
    /// Herd events that are not a rule's own outcome.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum HerdOutcome {
        CrossedOnPlanks => "crossed_on_planks",
        Walked => "walked",
        Freed => "freed",
        Tethered => "tethered",
        SpreadOut => "spread_out",
        HerdersOutOfReach => "herders_out_of_reach",
        Herded => "herded",
        PartlyHerded => "partly_herded",
        /// A stampede that nothing stopped.
        Ran => "ran",
    }
}

named_enum! {
    /// Fire events that are not a rule's own outcome.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum FireOutcome {
        Burning => "burning",
        NothingToBurn => "nothing_to_burn",
        AlreadyBurning => "already_burning",
        /// `region_burning`.
        Caught => "caught",
        BurntOut => "burnt_out",
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
        FoundNothing => "found_nothing",
        BackToSleep => "back_to_sleep",
        Walking => "walking",
        /// `response`: a watch kept in the group stays awake.
        StaysAwake => "stays_awake",
        /// `alarm_raised`.
        Alarm => "alarm",
        /// `noise_heard`.
        Heard => "heard",
        /// `dressing`.
        Dressed => "dressed",
        Dressing => "dressing",
    }
}

named_enum! {
    /// Bookkeeping events.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum BookkeepingOutcome {
        Expired => "expired",
    }
}

impl_outcome! {
    MoveOutcome => |o| match o {
        MoveOutcome::Held => Meaning::NONE.mark(Mark::Held),
        MoveOutcome::Arrived => Meaning::NONE.mark(Mark::Arrived),
        MoveOutcome::BlockedByWall | MoveOutcome::HeldUp | MoveOutcome::Moved => Meaning::NONE,
    };
    TrapOutcome => |o| match o {
        // Not a trap going off at a figure (docs/playtest.md).
        TrapOutcome::Spotted => Meaning::NONE.mark(Mark::Spotted),
        TrapOutcome::NotSpotted
        | TrapOutcome::ReleasedFromLoop
        | TrapOutcome::Flame
        | TrapOutcome::Dealt
        | TrapOutcome::CountersLeftOut => Meaning::NONE,
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
    BookkeepingOutcome => |o| Meaning::NONE;
}
