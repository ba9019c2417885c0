//! What an outcome means for the play-test report (docs/playtest.md, docs/traps.md): whether a
//! trap went off, what harm it did, and the few marks the report counts (arrived, held,
//! spotted, disarmed, alarm raised, a prisoner run off, recaptured, escaped). Every outcome the log writes is a typed value that knows
//! its id and its meaning, so the report never matches outcome strings.

use super::fire::{IgnitionOutcome, PersonInFireOutcome};
use super::herds::{
    CatchOutcome, GridEscapeOutcome, RunningGridOutcome, StampedeGridOutcome, WanderStep, ZoneResponse,
};
use super::khemri_traps::{ComplexTrap, CrossingOutcome, DisarmOutcome, SetTrapOutcome};
use super::morval_traps::{LoopOutcome, PayloadKind, PitOutcome, TripCordOutcome};
use super::sleepers::{Noise, ResponseOutcome, WakingOutcome};

/// Whether a trap event is a trap going off at a figure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sprung {
    /// Not a trap going off at a figure: a spot check, a disarm or set-trap attempt, a deal,
    /// an injury starting, a trap's flame; and every event of the other systems.
    #[default]
    NotATrigger,
    /// A trigger that did not go off (avoided, locked, holds, too light, ...).
    NotSprung,
    /// The trap went off at its subject.
    Sprung,
}

/// Harm the outcome is in itself. Other harm (a Morval injury or strike, a Khemri wound) is
/// read from the event's fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Harm {
    /// No harm in the outcome itself.
    #[default]
    None,
    /// A fall into a pit.
    Fall,
    /// Burns (001 "Fire Against people and animals").
    Burn,
    /// Left apparently dead.
    ApparentlyDead,
    /// Definitely dead.
    DefinitelyDead,
}

/// What else the report counts an outcome for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Nothing else to count.
    #[default]
    None,
    /// A figure reached its last waypoint.
    Arrived,
    /// A figure was held where it stood for the whole move.
    Held,
    /// A trap was spotted.
    Spotted,
    /// A trap was disarmed.
    Disarmed,
    /// A sleeper raised the alarm.
    RaisesAlarm,
    /// A prisoner ran off from his escort (000 "Guarding prisoners").
    RanOff,
    /// A runaway's guard tied his hands and gained control (000 "Catching, runaways, and overpowering").
    Recaptured,
    /// A runaway got off the table or to his refuge.
    Escaped,
    /// A tracker came within 1" of its quarry.
    CaughtUp,
    /// An OSR wandering-monster check brought an encounter (003).
    Encounter,
    /// The party alone was surprised (003 "Surprise").
    PartySurprised,
    /// The monsters alone were surprised.
    MonstersSurprised,
    /// Both sides were surprised.
    BothSurprised,
    /// A monster or henchman failed morale or loyalty: fled or surrendered (003 "Morale & Loyalty").
    Routed,
}

/// An outcome's meaning, carried by the log event beside its id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Meaning {
    /// Whether it is a trap going off at a figure.
    pub sprung: Sprung,
    /// Harm the outcome is in itself.
    pub harm: Harm,
    /// What else the report counts it for.
    pub mark: Mark,
}

impl Meaning {
    /// Not a trigger, no harm, no mark.
    pub const NONE: Meaning = Meaning { sprung: Sprung::NotATrigger, harm: Harm::None, mark: Mark::None };
    /// A trap that went off at its subject, no harm or mark of its own.
    pub const SPRUNG: Meaning = Meaning { sprung: Sprung::Sprung, ..Meaning::NONE };
    /// A trigger that did not go off.
    pub const NOT_SPRUNG: Meaning = Meaning { sprung: Sprung::NotSprung, ..Meaning::NONE };

    /// The same meaning with `harm`.
    pub const fn harm(self, harm: Harm) -> Meaning {
        Meaning { harm, ..self }
    }

    /// The same meaning with `mark`.
    pub const fn mark(self, mark: Mark) -> Meaning {
        Meaning { mark, ..self }
    }
}

/// A typed outcome: its stable snake_case id for the log, and what it means.
pub trait Outcome: Copy {
    /// The stable snake_case id the log writes.
    fn id(self) -> &'static str;
    /// What the outcome means for the report.
    fn meaning(self) -> Meaning;

    /// The id and meaning alone, where one event picks its outcome from two types.
    fn classified(self) -> Classified {
        Classified { id: self.id(), meaning: self.meaning() }
    }
}

/// An outcome's id and meaning, taken from a typed outcome (see [`Outcome::classified`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classified {
    id: &'static str,
    meaning: Meaning,
}

impl Outcome for Classified {
    fn id(self) -> &'static str {
        self.id
    }
    fn meaning(self) -> Meaning {
        self.meaning
    }
}

/// `impl Outcome` for types with an inherent `id(self)`, each meaning given by an expression
/// over the value: `Type => |o| meaning;`.
macro_rules! impl_outcome {
    ($($t:ty => |$o:ident| $meaning:expr;)+) => {
        $(
            impl $crate::rules::outcome::Outcome for $t {
                fn id(self) -> &'static str {
                    <$t>::id(self)
                }
                #[allow(unused_variables)]
                fn meaning(self) -> $crate::rules::outcome::Meaning {
                    let $o = self;
                    $meaning
                }
            }
        )+
    };
}
pub(crate) use impl_outcome;

impl_outcome! {
    // Morval traps: each is a trigger that went off (docs/traps.md); pit falls are harm.
    TripCordOutcome => |o| Meaning::SPRUNG;
    PayloadKind => |o| Meaning::SPRUNG;
    LoopOutcome => |o| match o {
        LoopOutcome::MissedNotSprung => Meaning::NOT_SPRUNG,
        _ => Meaning::SPRUNG,
    };
    PitOutcome => |o| match o {
        PitOutcome::RetardedFallMinusTwo | PitOutcome::RetardedFallMinusOne | PitOutcome::FallUnimpeded => {
            Meaning::SPRUNG.harm(Harm::Fall)
        }
        _ => Meaning::SPRUNG,
    };
    // Khemri traps.
    CrossingOutcome => |o| match o {
        CrossingOutcome::Triggered => Meaning::SPRUNG,
        CrossingOutcome::Spotted => Meaning::NOT_SPRUNG.mark(Mark::Spotted),
        CrossingOutcome::Inactive | CrossingOutcome::Avoided => Meaning::NOT_SPRUNG,
    };
    DisarmOutcome => |o| match o {
        DisarmOutcome::Disarmed => Meaning::NONE.mark(Mark::Disarmed),
        _ => Meaning::NONE,
    };
    SetTrapOutcome => |o| Meaning::NONE;
    ComplexTrap => |o| Meaning::SPRUNG;
    // Fire.
    PersonInFireOutcome => |o| match o {
        PersonInFireOutcome::Unharmed | PersonInFireOutcome::SingedClothes => Meaning::NONE,
        PersonInFireOutcome::MinorBurns
        | PersonInFireOutcome::BadBurns
        | PersonInFireOutcome::SevereBurns
        | PersonInFireOutcome::CrippledInAgony => Meaning::NONE.harm(Harm::Burn),
        PersonInFireOutcome::ApparentlyDead => Meaning::NONE.harm(Harm::ApparentlyDead),
        PersonInFireOutcome::DefinitelyDead => Meaning::NONE.harm(Harm::DefinitelyDead),
    };
    IgnitionOutcome => |o| Meaning::NONE;
    // Herds: nothing the report counts.
    WanderStep => |o| Meaning::NONE;
    CatchOutcome => |o| Meaning::NONE;
    ZoneResponse => |o| Meaning::NONE;
    RunningGridOutcome => |o| Meaning::NONE;
    StampedeGridOutcome => |o| Meaning::NONE;
    GridEscapeOutcome => |o| Meaning::NONE;
    // Sleepers and noise.
    WakingOutcome => |o| Meaning::NONE;
    ResponseOutcome => |o| match o {
        ResponseOutcome::RaiseAlarm => Meaning::NONE.mark(Mark::RaisesAlarm),
        _ => Meaning::NONE,
    };
    Noise => |o| Meaning::NONE;
}
