//! How far a figure goes in a move (RULES-NOTES "Time and movement", from 000 and the Morval
//! basic rules): 6" men, 5" women; +1" paved, −1" bad ground; heavy armour −1"; cautious −1";
//! searching 2" a move; furtive half rate; running double.

use super::character::{Armour, Gait, Sex};
use serde::{Deserialize, Serialize};

/// The going underfoot, as movement reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Going {
    /// Paved road or floor: +1".
    Paved,
    /// Good cross-country: the basic move.
    #[default]
    Good,
    /// Bad ground: −1".
    Bad,
    /// Cannot be walked (deep water).
    Impassable,
}

/// One step in working out a move, for the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveFactor {
    /// What changed the move, e.g. "paved" or "heavy armour".
    pub reason: String,
    /// Inches added (negative to take away).
    pub inches: f32,
}

/// A figure's move this move, in inches, with every factor that made it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveAllowance {
    /// The move, in inches (never below 0).
    pub inches: f32,
    /// Each step that made it, in order.
    pub factors: Vec<MoveFactor>,
}

/// A lasting penalty "to moves" (a strained ankle: 2.0).
#[derive(Clone, Debug, PartialEq)]
pub struct MovePenalty<'a> {
    /// What causes it, as the log shows it.
    pub reason: &'a str,
    /// Inches taken off every move.
    pub inches: f32,
}

/// RULES-NOTES "Time and movement": the Morval basic move with going, armour, gait and injuries.
///
/// Order: basic move by sex, then going, armour and lasting penalties, then the gait
/// (cautious −1", searching at most 2", furtive half, running double). Never below 0.
pub fn move_allowance(sex: Sex, armour: Armour, going: Going, gait: Gait, penalties: &[MovePenalty]) -> MoveAllowance {
    let mut factors = Vec::new();
    let push = |reason: &str, inches: f32, factors: &mut Vec<MoveFactor>| {
        factors.push(MoveFactor { reason: reason.to_string(), inches });
    };
    let basic = match sex {
        Sex::Male => 6.0,
        Sex::Female => 5.0,
    };
    push(if sex == Sex::Male { "basic move (man)" } else { "basic move (woman)" }, basic, &mut factors);
    let mut inches: f32 = basic;
    match going {
        Going::Paved => {
            inches += 1.0;
            push("paved", 1.0, &mut factors);
        }
        Going::Bad => {
            inches -= 1.0;
            push("bad ground", -1.0, &mut factors);
        }
        Going::Good => {}
        Going::Impassable => {
            push("impassable ground", -inches, &mut factors);
            return MoveAllowance { inches: 0.0, factors };
        }
    }
    // Plate is at least as heavy as heavy armour: house reading of "heavy armour −1"".
    if matches!(armour, Armour::Heavy | Armour::Plate) {
        inches -= 1.0;
        push("heavy armour", -1.0, &mut factors);
    }
    for p in penalties {
        inches -= p.inches;
        push(p.reason, -p.inches, &mut factors);
    }
    inches = inches.max(0.0);
    let before_gait = inches;
    inches = match gait {
        Gait::Normal => inches,
        Gait::Cautious => (inches - 1.0).max(0.0),
        Gait::Searching => inches.min(2.0),
        Gait::Furtive => inches / 2.0,
        Gait::Running => inches * 2.0,
    };
    if inches != before_gait {
        push(gait.label(), inches - before_gait, &mut factors);
    }
    MoveAllowance { inches, factors }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allow(sex: Sex, armour: Armour, going: Going, gait: Gait) -> f32 {
        move_allowance(sex, armour, going, gait, &[]).inches
    }

    #[test]
    fn basic_moves() {
        assert_eq!(allow(Sex::Male, Armour::Clothed, Going::Good, Gait::Normal), 6.0);
        assert_eq!(allow(Sex::Female, Armour::Clothed, Going::Good, Gait::Normal), 5.0);
    }

    #[test]
    fn going() {
        assert_eq!(allow(Sex::Male, Armour::Clothed, Going::Paved, Gait::Normal), 7.0);
        assert_eq!(allow(Sex::Male, Armour::Clothed, Going::Bad, Gait::Normal), 5.0);
        assert_eq!(allow(Sex::Male, Armour::Clothed, Going::Impassable, Gait::Running), 0.0);
    }

    #[test]
    fn armour() {
        assert_eq!(allow(Sex::Male, Armour::Medium, Going::Good, Gait::Normal), 6.0);
        assert_eq!(allow(Sex::Male, Armour::Heavy, Going::Good, Gait::Normal), 5.0);
        assert_eq!(allow(Sex::Male, Armour::Plate, Going::Good, Gait::Normal), 5.0);
    }

    #[test]
    fn gaits() {
        assert_eq!(allow(Sex::Male, Armour::Clothed, Going::Good, Gait::Cautious), 5.0);
        assert_eq!(allow(Sex::Male, Armour::Clothed, Going::Good, Gait::Searching), 2.0);
        assert_eq!(allow(Sex::Male, Armour::Clothed, Going::Good, Gait::Furtive), 3.0);
        assert_eq!(allow(Sex::Male, Armour::Clothed, Going::Good, Gait::Running), 12.0);
        assert_eq!(allow(Sex::Female, Armour::Clothed, Going::Good, Gait::Furtive), 2.5);
        assert_eq!(allow(Sex::Female, Armour::Plate, Going::Paved, Gait::Running), 10.0);
    }

    #[test]
    fn injuries_apply_before_gait_and_never_go_negative() {
        let strained = [MovePenalty { reason: "strained ankle", inches: 2.0 }];
        let a = move_allowance(Sex::Male, Armour::Clothed, Going::Good, Gait::Running, &strained);
        assert_eq!(a.inches, 8.0);
        assert!(a.factors.iter().any(|f| f.reason == "strained ankle" && f.inches == -2.0));
        let broken = [MovePenalty { reason: "broken leg", inches: 5.0 }, MovePenalty { reason: "sprain", inches: 3.0 }];
        assert_eq!(move_allowance(Sex::Male, Armour::Clothed, Going::Good, Gait::Normal, &broken).inches, 0.0);
    }
}
