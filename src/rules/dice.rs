//! Dice as the sources use them, and the roll record every rule returns.
//!
//! Conventions from `shared/RULES-NOTES.md` "Dice": a Morval D10 shows 0–9, D% is two D10
//! (tens and units) showing 00–99, every other die is 1-based. MD (Mystic Dice) is a D6 whose
//! face the players must not learn.

use rand::{Rng, SeedableRng, rngs::Xoshiro256PlusPlus};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Where die faces come from. Rules take `&mut impl DiceSource`, so tests can script the faces.
pub trait DiceSource {
    /// A uniformly distributed integer in `0..n` (`n >= 1`).
    fn below(&mut self, n: u32) -> u32;

    /// One die's face: `low..low + sides`, uniformly. [`Dice::roll_faces`] rolls every physical
    /// die through this. The default is `low + below(sides)`, one `below` call per die, so the
    /// seeded generators give the same faces (and logs) as they always have; scripted test
    /// dice override it, because only here is the die's lowest face known.
    fn face(&mut self, low: u32, sides: u32) -> u32 {
        low + self.below(sides)
    }
}

/// The seeded, portable generator: xoshiro256++ seeded through SplitMix64, with unbiased
/// bounded sampling done here (not by `rand`'s range code, whose output may change between
/// versions). Same seed, same faces, on every platform and build.
#[derive(Clone, Debug)]
pub struct SeededDice {
    rng: Xoshiro256PlusPlus,
}

impl SeededDice {
    /// A generator seeded with `seed`: the same seed gives the same faces.
    pub fn new(seed: u64) -> Self {
        Self { rng: Xoshiro256PlusPlus::seed_from_u64(seed) }
    }
}

impl DiceSource for SeededDice {
    fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n >= 1);
        // Lemire's nearly-divisionless method, exact (rejection removes the bias).
        let n = n.max(1);
        let mut m = u64::from(self.rng.next_u32()) * u64::from(n);
        let mut low = m as u32;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u64::from(self.rng.next_u32()) * u64::from(n);
                low = m as u32;
            }
        }
        (m >> 32) as u32
    }
}

#[cfg(test)]
/// Faces given in advance, for tests of table rows. Each call takes the next face *value*
/// as the die would show it is not known here, so scripts hold raw `0..n` indices.
#[derive(Clone, Debug, Default)]
pub struct ScriptedDice {
    indices: std::collections::VecDeque<u32>,
}

#[cfg(test)]
impl ScriptedDice {
    /// Raw indices in `0..n` for each successive `below(n)` call.
    pub fn new(indices: impl IntoIterator<Item = u32>) -> Self {
        Self { indices: indices.into_iter().collect() }
    }

    /// Faces as the dice show them, in order: each value is the face of the die it meets
    /// (a Morval D10 or a D% digit shows 0–9, a 2D10 die 1–10, every other die is 1-based).
    pub fn faces(faces: impl IntoIterator<Item = u32>) -> ScriptedFaces {
        ScriptedFaces { faces: faces.into_iter().collect() }
    }

    /// Whether every scripted index has been used.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }
}

#[cfg(test)]
impl DiceSource for ScriptedDice {
    fn below(&mut self, n: u32) -> u32 {
        let i = self.indices.pop_front().expect("scripted dice ran out");
        assert!(i < n, "scripted index {i} out of range 0..{n}");
        i
    }
}

#[cfg(test)]
/// Scripted faces as shown on the dice; see [`ScriptedDice::faces`].
#[derive(Clone, Debug, Default)]
pub struct ScriptedFaces {
    faces: std::collections::VecDeque<u32>,
}

#[cfg(test)]
impl ScriptedFaces {
    /// Whether every scripted face has been used.
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }
}

#[cfg(test)]
impl DiceSource for ScriptedFaces {
    /// A draw that is not a die (a shuffle): the scripted value read as a face of a die with
    /// `n` sides, 0-based when `n` is 10 (as a Morval D10), 1-based otherwise.
    fn below(&mut self, n: u32) -> u32 {
        let face = self.faces.pop_front().expect("scripted dice ran out");
        let index = if n == 10 { face } else { face.wrapping_sub(1) };
        assert!(index < n, "scripted face {face} impossible on a {n}-sided die");
        index
    }

    /// A die: the scripted face itself, which must be one the die shows
    /// (`low..low + sides`: 0–9 on a Morval D10, 1–10 on each die of 2D10).
    fn face(&mut self, low: u32, sides: u32) -> u32 {
        let face = self.faces.pop_front().expect("scripted dice ran out");
        assert!(
            low <= face && face < low + sides,
            "scripted face {face} impossible on a die showing {low}..={}",
            low + sides - 1
        );
        face
    }
}

/// Every kind of dice the sources roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dice {
    /// Morval D10: 0–9.
    #[serde(rename = "D10")]
    D10,
    /// Percentage dice: a tens D10 and a units D10, 00–99.
    #[serde(rename = "D%")]
    Percent,
    /// Ordinary D6: 1–6.
    #[serde(rename = "D6")]
    D6,
    /// Mystic Dice: rolled as a D6, its face hidden from the players.
    #[serde(rename = "MD")]
    Mystic,
    /// D3: 1–3.
    #[serde(rename = "D3")]
    D3,
    /// D12: 1–12.
    #[serde(rename = "D12")]
    D12,
    /// D20: 1–20 (001 wound recoveries).
    #[serde(rename = "D20")]
    D20,
    /// Two 1-based D6 added: 2–12.
    #[serde(rename = "2D6")]
    TwoD6,
    /// Two 1-based D10 added (OSR text): 2–20.
    #[serde(rename = "2D10")]
    TwoD10,
    /// D4: 1–4 (a scene's OSR attack table; no source rolls one).
    #[serde(rename = "D4")]
    D4,
    /// D8: 1–8 (a scene's OSR attack table; no source rolls one).
    #[serde(rename = "D8")]
    D8,
}

impl Dice {
    /// Every kind of dice, in the order of the enum.
    pub const ALL: [Dice; 11] = [
        Dice::D10,
        Dice::Percent,
        Dice::D6,
        Dice::Mystic,
        Dice::D3,
        Dice::D12,
        Dice::D20,
        Dice::TwoD6,
        Dice::TwoD10,
        Dice::D4,
        Dice::D8,
    ];

    /// How the dice are written in the sources and the log.
    pub fn label(self) -> &'static str {
        match self {
            Dice::D10 => "D10",
            Dice::Percent => "D%",
            Dice::D6 => "D6",
            Dice::Mystic => "MD",
            Dice::D3 => "D3",
            Dice::D12 => "D12",
            Dice::D20 => "D20",
            Dice::TwoD6 => "2D6",
            Dice::TwoD10 => "2D10",
            Dice::D4 => "D4",
            Dice::D8 => "D8",
        }
    }

    /// Each physical die: (lowest face, number of sides).
    fn dice(self) -> &'static [(u32, u32)] {
        match self {
            Dice::D10 => &[(0, 10)],
            Dice::Percent => &[(0, 10), (0, 10)],
            Dice::D6 | Dice::Mystic => &[(1, 6)],
            Dice::D3 => &[(1, 3)],
            Dice::D12 => &[(1, 12)],
            Dice::D20 => &[(1, 20)],
            Dice::TwoD6 => &[(1, 6), (1, 6)],
            Dice::TwoD10 => &[(1, 10), (1, 10)],
            Dice::D4 => &[(1, 4)],
            Dice::D8 => &[(1, 8)],
        }
    }

    /// The lowest and highest value the dice can show.
    pub fn range(self) -> (i32, i32) {
        match self {
            Dice::Percent => (0, 99),
            _ => {
                let (lo, hi) =
                    self.dice().iter().fold((0, 0), |(lo, hi), &(low, sides)| (lo + low, hi + low + sides - 1));
                (lo as i32, hi as i32)
            }
        }
    }

    /// Only MD is secret: shown to the GM, never on the projector.
    pub fn is_secret(self) -> bool {
        self == Dice::Mystic
    }

    /// Roll the physical dice, returning each face.
    pub fn roll_faces(self, src: &mut impl DiceSource) -> Vec<u8> {
        self.dice().iter().map(|&(low, sides)| src.face(low, sides) as u8).collect()
    }

    /// The value the faces show: D% reads tens then units; other dice add up.
    pub fn value(self, faces: &[u8]) -> i32 {
        match self {
            Dice::Percent => faces.iter().fold(0, |acc, &f| acc * 10 + i32::from(f)),
            _ => faces.iter().map(|&f| i32::from(f)).sum(),
        }
    }

    /// Roll and return the value alone (for amounts: D6 moves, D3 hits).
    pub fn roll_value(self, src: &mut impl DiceSource) -> i32 {
        self.value(&self.roll_faces(src))
    }
}

impl std::fmt::Display for Dice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// One factor added to a roll, with the reason the rule gives for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    /// Why the factor applies, in the rule's words.
    pub reason: Cow<'static, str>,
    /// Amount added to the total (negative to take away).
    pub value: i32,
}

/// How a roll with a target passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PassIf {
    /// Total ≥ target ("6+").
    AtLeast,
    /// Total ≤ target (Khemri Initiative tests).
    AtMost,
}

/// A roll as logged: dice, faces, each modifier with its reason, the total and the target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// The dice rolled.
    pub dice: Dice,
    /// Faces shown, in the order rolled.
    pub faces: Vec<u8>,
    /// Factors added, in the order applied (zero factors are left out).
    pub modifiers: Vec<Modifier>,
    /// The dice's value plus every modifier.
    pub total: i32,
    /// The number the total is tested against, if the roll has one.
    pub target: Option<i32>,
    /// Whether the total must reach the target or stay at or under it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pass_if: Option<PassIf>,
    /// True for MD: the face is for the GM's eyes only.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
}

impl Roll {
    /// Roll `dice` now; add modifiers and a target with the builder methods.
    pub fn new(dice: Dice, src: &mut impl DiceSource) -> Self {
        Self::from_faces(dice, dice.roll_faces(src))
    }

    /// A roll whose faces are already known (tests, replays).
    pub fn from_faces(dice: Dice, faces: Vec<u8>) -> Self {
        let total = dice.value(&faces);
        Self { dice, faces, modifiers: Vec::new(), total, target: None, pass_if: None, secret: dice.is_secret() }
    }

    /// The dice's own value, before modifiers.
    pub fn natural(&self) -> i32 {
        self.dice.value(&self.faces)
    }

    /// Add a factor. Zero factors are kept out of the log: they changed nothing.
    pub fn modifier(mut self, reason: impl Into<Cow<'static, str>>, value: i32) -> Self {
        self.add(reason, value);
        self
    }

    /// Add a factor in place (zero factors are not recorded).
    pub fn add(&mut self, reason: impl Into<Cow<'static, str>>, value: i32) {
        if value != 0 {
            self.total += value;
            self.modifiers.push(Modifier { reason: reason.into(), value });
        }
    }

    /// Passes on `target` or more.
    pub fn at_least(mut self, target: i32) -> Self {
        self.target = Some(target);
        self.pass_if = Some(PassIf::AtLeast);
        self
    }

    /// Passes on `target` or less.
    pub fn at_most(mut self, target: i32) -> Self {
        self.target = Some(target);
        self.pass_if = Some(PassIf::AtMost);
        self
    }

    /// Whether the roll met its target; `None` when it has none (a banded table).
    pub fn passed(&self) -> Option<bool> {
        match (self.target, self.pass_if) {
            (Some(t), Some(PassIf::AtLeast)) => Some(self.total >= t),
            (Some(t), Some(PassIf::AtMost)) => Some(self.total <= t),
            _ => None,
        }
    }
}

/// Every roll inside a value (a rules report or part of one), in the order the event log
/// lists them. Reports implement it by hand, field by field, next to their types.
///
/// The order is the one the log has always had: it was found by walking the report's JSON,
/// whose objects list their keys alphabetically (serde_json without `preserve_order`), with
/// arrays and tuples in order. So within a struct the fields holding rolls come in the
/// alphabetical order of their names, not their declaration order; each impl says its order.
pub trait Rolls {
    /// Push this value's rolls onto `out`, in log order.
    fn push_rolls(&self, out: &mut Vec<Roll>);

    /// This value's rolls, in log order.
    fn rolls(&self) -> Vec<Roll> {
        let mut out = Vec::new();
        self.push_rolls(&mut out);
        out
    }
}

impl Rolls for Roll {
    /// A roll is taken whole: nothing inside it is a roll.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        out.push(self.clone());
    }
}

impl<T: Rolls + ?Sized> Rolls for &T {
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        (**self).push_rolls(out);
    }
}

impl<T: Rolls + ?Sized> Rolls for Box<T> {
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        (**self).push_rolls(out);
    }
}

impl<T: Rolls> Rolls for Option<T> {
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        if let Some(v) = self {
            v.push_rolls(out);
        }
    }
}

impl<T: Rolls> Rolls for [T] {
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        for v in self {
            v.push_rolls(out);
        }
    }
}

impl<T: Rolls> Rolls for Vec<T> {
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.as_slice().push_rolls(out);
    }
}

impl<T: Rolls, const N: usize> Rolls for [T; N] {
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.as_slice().push_rolls(out);
    }
}

/// Tuples are JSON arrays: their parts in order.
macro_rules! tuple_rolls {
    ($($name:ident . $index:tt),+) => {
        impl<$($name: Rolls),+> Rolls for ($($name,)+) {
            fn push_rolls(&self, out: &mut Vec<Roll>) {
                $(self.$index.push_rolls(out);)+
            }
        }
    };
}

tuple_rolls!(A.0, B.1);
tuple_rolls!(A.0, B.1, C.2);
tuple_rolls!(A.0, B.1, C.2, D.3);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_follow_rules_notes() {
        assert_eq!(Dice::D10.range(), (0, 9));
        assert_eq!(Dice::Percent.range(), (0, 99));
        assert_eq!(Dice::D6.range(), (1, 6));
        assert_eq!(Dice::Mystic.range(), (1, 6));
        assert_eq!(Dice::D3.range(), (1, 3));
        assert_eq!(Dice::D12.range(), (1, 12));
        assert_eq!(Dice::D20.range(), (1, 20));
        assert_eq!(Dice::TwoD6.range(), (2, 12));
        assert_eq!(Dice::TwoD10.range(), (2, 20));
        assert_eq!(Dice::D4.range(), (1, 4));
        assert_eq!(Dice::D8.range(), (1, 8));
    }

    #[test]
    fn every_face_appears_and_none_outside_the_range() {
        let mut src = SeededDice::new(7);
        for dice in Dice::ALL {
            let (lo, hi) = dice.range();
            let mut seen = vec![false; (hi - lo + 1) as usize];
            for _ in 0..20_000 {
                let v = dice.roll_value(&mut src);
                assert!((lo..=hi).contains(&v), "{dice} gave {v}");
                seen[(v - lo) as usize] = true;
            }
            assert!(seen.iter().all(|&s| s), "{dice} never showed some value");
        }
    }

    #[test]
    fn percent_reads_tens_then_units() {
        assert_eq!(Dice::Percent.value(&[0, 0]), 0);
        assert_eq!(Dice::Percent.value(&[0, 7]), 7);
        assert_eq!(Dice::Percent.value(&[4, 2]), 42);
        assert_eq!(Dice::Percent.value(&[9, 9]), 99);
    }

    #[test]
    fn same_seed_same_faces() {
        let a: Vec<i32> = {
            let mut s = SeededDice::new(42);
            (0..100).map(|_| Dice::D6.roll_value(&mut s)).collect()
        };
        let mut s = SeededDice::new(42);
        let b: Vec<i32> = (0..100).map(|_| Dice::D6.roll_value(&mut s)).collect();
        assert_eq!(a, b);
        // The generator is fixed by name: xoshiro256++ from SplitMix64. Pin its first faces
        // for seed 1 so a silent change of algorithm fails here.
        let mut s = SeededDice::new(1);
        let first: Vec<u32> = (0..4).map(|_| s.below(u32::MAX)).collect();
        let mut reference = Xoshiro256PlusPlus::seed_from_u64(1);
        let expect: Vec<u32> = (0..4)
            .map(|_| {
                let mut m = u64::from(reference.next_u32()) * u64::from(u32::MAX);
                while (m as u32) < u32::MAX.wrapping_neg() % u32::MAX {
                    m = u64::from(reference.next_u32()) * u64::from(u32::MAX);
                }
                (m >> 32) as u32
            })
            .collect();
        assert_eq!(first, expect);
    }

    #[test]
    fn modifiers_and_targets() {
        let r = Roll::from_faces(Dice::D6, vec![4]).modifier("cautious", 1).modifier("nothing", 0).at_least(6);
        assert_eq!(r.total, 5);
        assert_eq!(r.modifiers.len(), 1);
        assert_eq!(r.passed(), Some(false));
        let r = Roll::from_faces(Dice::D6, vec![3]).at_most(3);
        assert_eq!(r.passed(), Some(true));
        let r = Roll::from_faces(Dice::D6, vec![4]).at_most(3);
        assert_eq!(r.passed(), Some(false));
        assert!(Roll::from_faces(Dice::Mystic, vec![2]).secret);
    }

    #[test]
    fn scripted_faces_map_to_dice() {
        let mut s = ScriptedDice::faces([0, 9, 1, 6, 4, 2]);
        assert_eq!(Dice::D10.roll_value(&mut s), 0);
        assert_eq!(Dice::D10.roll_value(&mut s), 9);
        assert_eq!(Dice::D6.roll_value(&mut s), 1);
        assert_eq!(Dice::D6.roll_value(&mut s), 6);
        assert_eq!(Dice::Percent.roll_value(&mut s), 42);
        assert!(s.is_empty());
    }

    /// 003 "Morale & Loyalty": "roll 2d10". Each die of 2D10 shows 1–10, unlike a Morval D10.
    #[test]
    fn scripted_faces_know_one_based_two_d10() {
        let mut s = ScriptedDice::faces([10, 1, 1, 1, 0, 4, 2]);
        let r = Roll::new(Dice::TwoD10, &mut s);
        assert_eq!(r.faces, vec![10, 1]);
        assert_eq!(r.total, 11);
        assert_eq!(Dice::TwoD10.roll_value(&mut s), 2);
        assert_eq!(Dice::D10.roll_value(&mut s), 0);
        assert_eq!(Dice::Percent.roll_value(&mut s), 42);
        assert!(s.is_empty());
        let zero = std::panic::catch_unwind(|| Dice::TwoD10.roll_value(&mut ScriptedDice::faces([0, 1])));
        assert!(zero.is_err(), "a 2D10 die has no 0");
        let ten = std::panic::catch_unwind(|| Dice::D10.roll_value(&mut ScriptedDice::faces([10])));
        assert!(ten.is_err(), "a Morval D10 has no 10");
    }

    /// The default `face` is `low + below(sides)`: the seeded stream, and so every log, is
    /// what it was before dice rolled through `face`.
    #[test]
    fn seeded_faces_are_the_below_stream() {
        for dice in Dice::ALL {
            let mut a = SeededDice::new(11);
            let mut b = SeededDice::new(11);
            for _ in 0..200 {
                let faces = dice.roll_faces(&mut a);
                let expect: Vec<u8> = dice.dice().iter().map(|&(low, sides)| (low + b.below(sides)) as u8).collect();
                assert_eq!(faces, expect, "{dice}");
            }
        }
    }
}
