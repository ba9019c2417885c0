//! The rules as pure functions: inputs and a dice source in, an outcome with every roll out.
//! One file per source topic; no ECS types here. Each rule function cites its source.

/// Declares a fieldless enum whose variants each carry their id: the name serde writes (the
/// enum's `#[serde(rename_all = "snake_case")]`, or a variant's own `#[serde(rename)]`), which
/// the log, the report and the view use too. The enum comes out as written, its attributes and
/// doc comments kept, with `ALL` (every variant, in order) and `id()` generated from the same
/// list, so neither can miss a variant. `tests::ids_are_serde_names` checks each id against
/// serde.
///
/// ```ignore
/// crate::rules::named_enum! {
///     #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
///     #[serde(rename_all = "snake_case")]
///     pub enum Shelter {
///         Open => "open",
///         /// Under canvas.
///         Tent => "tent",
///     }
/// }
/// ```
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $id:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$vmeta])* $variant, )+
        }

        #[allow(dead_code)]
        impl $name {
            /// Every variant, in the order of the enum.
            pub const ALL: [$name; [$(stringify!($variant)),+].len()] = [$($name::$variant),+];

            /// The stable snake_case id (equals the serde name).
            pub const fn id(self) -> &'static str {
                match self {
                    $( $name::$variant => $id, )+
                }
            }
        }
    };
}
pub(crate) use named_enum;

pub mod character;
pub mod decisions;
pub mod dice;
pub mod fire;
pub mod herds;
pub mod house_rules;
pub mod injuries;
pub mod khemri_traps;
pub mod lighting;
pub mod magic;
pub mod morval_traps;
pub mod movement;
pub mod obstacles;
pub mod osr;
pub mod outcome;
pub mod prisoners;
pub mod sight;
pub mod sleepers;
#[cfg(test)]
pub(crate) mod stats;
pub mod tracking;

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::fmt::Debug;

    use serde::Serialize;

    use super::character::Armour;
    use super::decisions::{
        DecisionOutcome, FencingBands, GmFactor, LeaveOutcome, Lured, OutvoteOutcome, Quality, Relevance,
        TemptationKind, TemptationOutcome, Weakness, WeaknessOutcome, WeaknessRoll,
    };
    use super::fire::{
        BurnStacking, BurningBuilding, Fuel, HeldIgniter, IgnitionOutcome, PersonFireRolls, PersonInFireOutcome,
        ThrownIgniter,
    };
    use super::herds::{
        Beast, CatchOutcome, GridEscapeOutcome, HerdKind, Horsemanship, MountBond, RunningGridOutcome,
        StampedeGridOutcome, TurnSide, WanderStep, ZoneResponse,
    };
    use super::injuries::{
        ApparentDeathCause, ApparentDeathText, DayOutcome, FesterOutcome, HealerLevel, HealingStage, InfectionOutcome,
        LocationOutcome, OutOfAction, Recoverability, SagaRecovery, Salve, UnconsciousOutcome, WoundKind,
        WoundRecovery,
    };
    use super::khemri_traps::{
        ArrowResult, ComplexTableDice, ComplexTrap, CrossingOutcome, DisarmOutcome, HitOutcome, KhemriTrap,
        SetTrapOutcome, SkillDice, TrapReuse, TrapStatus,
    };
    use super::magic::{
        CastCost, CastPower, FrightOutcome, ListedSpellCost, Mesmerism, MoveActivity, PeopleBeyondFive, Spell,
        SpellOutcome, VictimDistance, WardKind, WardOutcome, WardedBeing,
    };
    use super::morval_traps::{
        Concealment, DurationUnit, InjuryKind, LifterAction, LoopOutcome, NoiseKind, PayloadKind, PitBottom,
        PitOutcome, SafetyLock, TrapKind, TripCordOutcome, VictimStatus,
    };
    use super::obstacles::{
        CutOutcome, ExcessRounding, GlassWallOutcome, HalfStrengthRounding, LodgementOutcome, ObstacleItem,
        OverloadOutcome, OverloadRolls, RopeFallStrike, RopeKind, SlowRiderStrike, StakeSide, StakeSpeed, StakeStage,
        ThrowDownOutcome, ThrowDownTries, Troop, VehicleKind,
    };
    use super::osr::{
        CombatEnd, CombatPhase, DistanceUnit, EncumbranceRow, EntryKind, Hours, InitiativeTies, ItemKind,
        MonsterAwareness, MoraleKind, MoraleOutcome, MoraleRecheck, MoraleTrigger, PossibleAction, Reaction,
        SpeedLimit, SurpriseCase, SurpriseOutcome, Terrain, WanderingOutcome,
    };
    use super::prisoners::{
        BerserkOutcome, BerserkState, BerserkWithoutEnemy, Binding, BondsOutcome, ChaseOutcome, DiceAgain,
        EscapeOutcome, MeanRounding, MixedEscort, PrisonerRank, RunnerChoice, StruggleOutcome, UndoOrder,
    };
    use super::sight::CarriedLight;
    use super::sleepers::{Dresser, Hearing, Noise, Rank, ResponseOutcome, Shelter, WakingOutcome};
    use super::tracking::{
        CrossingChoice, CrossingTrails, GuessedDirection, PepperOutcome, Rain, ScentAge, ScentOutcome, SearchAgain,
        SightAge, SightOutcome, Snow, UncertainMove, Wind,
    };
    use crate::scene::{ConditionKind, CurseKind, Material, RunStatus};
    use crate::sim::fire_front::CellState;

    fn check<T: Copy + Serialize + Debug>(all: &[T], id: fn(T) -> &'static str) {
        assert!(!all.is_empty());
        let mut seen = HashSet::new();
        for &v in all {
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::Value::from(id(v)), "{v:?}");
            assert!(seen.insert(id(v)), "{v:?}: id {} repeated", id(v));
        }
    }

    /// Every enum declared with [`named_enum!`]: each id is the name serde writes, once.
    #[test]
    fn ids_are_serde_names() {
        macro_rules! check_all {
            ($($t:ty),+ $(,)?) => { $( check(&<$t>::ALL, <$t>::id); )+ };
        }
        check_all!(
            Armour,
            CarriedLight,
            Fuel,
            HeldIgniter,
            ThrownIgniter,
            IgnitionOutcome,
            BurningBuilding,
            PersonInFireOutcome,
            PersonFireRolls,
            BurnStacking,
            Beast,
            Horsemanship,
            MountBond,
            HerdKind,
            TurnSide,
            WanderStep,
            CatchOutcome,
            ZoneResponse,
            RunningGridOutcome,
            StampedeGridOutcome,
            GridEscapeOutcome,
            ComplexTableDice,
            SkillDice,
            KhemriTrap,
            TrapStatus,
            HitOutcome,
            ComplexTrap,
            TrapReuse,
            ArrowResult,
            CrossingOutcome,
            DisarmOutcome,
            SetTrapOutcome,
            Concealment,
            TrapKind,
            VictimStatus,
            DurationUnit,
            InjuryKind,
            NoiseKind,
            TripCordOutcome,
            PayloadKind,
            SafetyLock,
            LifterAction,
            PitBottom,
            PitOutcome,
            LoopOutcome,
            Noise,
            Shelter,
            Hearing,
            Rank,
            Dresser,
            WakingOutcome,
            ResponseOutcome,
            Material,
            ConditionKind,
            CellState,
            WoundKind,
            Salve,
            UnconsciousOutcome,
            ApparentDeathCause,
            ApparentDeathText,
            Recoverability,
            WoundRecovery,
            SagaRecovery,
            HealerLevel,
            InfectionOutcome,
            FesterOutcome,
            LocationOutcome,
            HealingStage,
            DayOutcome,
            OutOfAction,
            PrisonerRank,
            MixedEscort,
            DiceAgain,
            RunnerChoice,
            UndoOrder,
            MeanRounding,
            BerserkWithoutEnemy,
            EscapeOutcome,
            Binding,
            BondsOutcome,
            ChaseOutcome,
            StruggleOutcome,
            BerserkState,
            BerserkOutcome,
            RunStatus,
            Quality,
            Relevance,
            DecisionOutcome,
            TemptationKind,
            Lured,
            GmFactor,
            FencingBands,
            TemptationOutcome,
            LeaveOutcome,
            OutvoteOutcome,
            Weakness,
            WeaknessRoll,
            WeaknessOutcome,
            Rain,
            Snow,
            Wind,
            SightAge,
            ScentAge,
            GuessedDirection,
            UncertainMove,
            SearchAgain,
            CrossingTrails,
            SightOutcome,
            ScentOutcome,
            CrossingChoice,
            PepperOutcome,
            CastPower,
            CastCost,
            ListedSpellCost,
            PeopleBeyondFive,
            MoveActivity,
            SpellOutcome,
            Spell,
            VictimDistance,
            Mesmerism,
            WardedBeing,
            WardKind,
            WardOutcome,
            CurseKind,
            FrightOutcome,
            EncumbranceRow,
            ItemKind,
            SpeedLimit,
            Terrain,
            DistanceUnit,
            EntryKind,
            WanderingOutcome,
            Hours,
            SurpriseCase,
            MonsterAwareness,
            SurpriseOutcome,
            Reaction,
            PossibleAction,
            CombatPhase,
            CombatEnd,
            InitiativeTies,
            MoraleKind,
            MoraleTrigger,
            MoraleRecheck,
            MoraleOutcome,
            SlowRiderStrike,
            ExcessRounding,
            OverloadRolls,
            ThrowDownTries,
            HalfStrengthRounding,
            RopeFallStrike,
            StakeStage,
            Troop,
            StakeSide,
            StakeSpeed,
            RopeKind,
            OverloadOutcome,
            ObstacleItem,
            LodgementOutcome,
            ThrowDownOutcome,
            CutOutcome,
            GlassWallOutcome,
            VehicleKind,
        );
    }
}
