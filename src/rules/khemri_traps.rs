//! Khemri tomb traps (002 "Traps") and the trap skills (002 "SKILLS"): the trap deck and its
//! placement, crossing a counter, every complex trap, Mordheim hits, Spot/Disarm and Set Trap.
//!
//! Geometry lives with the caller: it passes the models near a trap with their distances
//! ([`TrapSurroundings`]), and calls [`boulder_path_model`] for each model a rolling boulder
//! reaches. Dice are 1-based (RULES-NOTES "Dice").

use super::dice::{Dice, DiceSource, Roll, Rolls};
use super::magic::apply_evil_eye;
use serde::{Deserialize, Serialize};

/// 002 "Traps": "no trap can be 2" or closer to another one".
pub const TRAP_SPACING: f64 = 2.0;
/// 002 "Pit": "Any other models 1" or closer to the pit".
pub const PIT_EDGE_RANGE: f64 = 1.0;
/// 002 "Arrows", "Poison Gas", "Fire Trap": models "within 2"".
pub const NEARBY_RANGE: f64 = 2.0;
/// Distances come from floating-point geometry: a measured 2.000000000001" is still 2".
pub const DISTANCE_TOLERANCE: f64 = 1e-9;

fn within(distance: f64, range: f64) -> bool {
    // NaN compares false, so a broken distance counts as out of range.
    distance <= range + DISTANCE_TOLERANCE
}

fn passed(roll: &Roll) -> bool {
    roll.passed() == Some(true)
}

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// How the complex-trap table is rolled (RULES-NOTES "Dice": the table runs 2–12).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ComplexTableDice {
        /// 2D6, whose 2–12 range is the table's (RULES-NOTES default).
        #[default]
        TwoD6 => "two_d6",
        /// The D12 the text names, a 1 (no row) rolled again.
        D12RerollOne => "d12_reroll_one",
    }
}

impl ComplexTableDice {
    /// The dice to roll for the table.
    pub fn dice(self) -> Dice {
        match self {
            ComplexTableDice::TwoD6 => Dice::TwoD6,
            ComplexTableDice::D12RerollOne => Dice::D12,
        }
    }
}

/// How many traps each player places (002 "Traps").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrapsPerPlayer {
    /// Each player rolls a D6 (the text's default).
    #[default]
    RollD6,
    /// "one D6 roll that applied to everyone": the deal rolls [`trap_count`] once and every
    /// player places that many.
    RollD6Once,
    /// "a set number included in the scenario".
    Fixed(u32),
}

crate::rules::named_enum! {
    /// Dice for the Spot/Disarm and Set Trap tests. House rule: the text gives targets of 6+ and 8+
    /// without naming dice; an 8+ needs more than a D6, so 2D6 (the Mordheim convention) by default.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SkillDice {
        /// 2D6 (the default).
        #[default]
        TwoD6 => "two_d6",
        /// A single D6.
        D6 => "d6",
    }
}

impl SkillDice {
    /// The dice to roll for the test.
    pub fn dice(self) -> Dice {
        match self {
            SkillDice::TwoD6 => Dice::TwoD6,
            SkillDice::D6 => Dice::D6,
        }
    }
}

crate::rules::named_enum! {
    /// 002 "SKILLS": how taking Spot/Disarm or Set Trap lowers the score. The sentence says
    /// "reduce your roll by 1 each time", its example ("a Simple trap would disarm on a 2+, a
    /// Complex on a 4+" at the limit of 4) needs all four takes to count. Both are readings of
    /// the text, not house rules.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SkillReduction {
        /// Every take lowers the score by 1, the first included: the worked example's reading
        /// (4 takes: 6 − 4 = 2+, 8 − 4 = 4+). The default.
        #[default]
        EveryTake => "every_take",
        /// The sentence read alone: 6+ and 8+ with the skill taken once, 1 less for each
        /// further take (4 takes: 3+ and 5+).
        TakesAfterFirst => "takes_after_first",
    }
}

impl SkillReduction {
    /// How much a skill taken `levels` times (1 to 4) lowers the score.
    pub fn reduction(self, levels: i32) -> i32 {
        match self {
            SkillReduction::EveryTake => levels,
            SkillReduction::TakesAfterFirst => (levels - 1).max(0),
        }
    }
}

/// The scene's choices for Khemri traps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct KhemriSettings {
    /// RULES-NOTES: 2D6 by default; a scene may choose the D12 with a 1 rolled again.
    pub complex_table_dice: ComplexTableDice,
    /// 002 "a Simple trap causes an automatic S3 (4?) hit": 3 by default; a scene may choose 4.
    pub simple_trap_strength: i32,
    /// 002: a D6 per player by default, or a set number.
    pub traps_per_player: TrapsPerPlayer,
    /// 002 "modifier to the # of traps as designated by the scenario"; 0 by default.
    pub traps_modifier: i32,
    /// House rule: the deck is this many sets of 5 counters (3 Simple, 1 Complex, 1 Dud),
    /// drawn without replacement and replaced by a freshly shuffled deck when it runs out.
    /// Default 4 (20 counters): two players at six traps each fit in one deck.
    pub deck_sets: u32,
    /// House rule: the text does not say whether a Simple trap works again. Default false: a
    /// jury-rigged trap is spent once it has gone off.
    pub simple_trap_rearms: bool,
    /// House rule: the text does not say whether Poison Gas works again. Default true: only
    /// the traps the text calls once-only (Boulder, Pit) are spent.
    pub poison_gas_rearms: bool,
    /// House rule: the text does not say whether the Fire Trap works again. Default true, as
    /// for Poison Gas.
    pub fire_trap_rearms: bool,
    /// House rule: the text removes armour saves for the model beneath the boulder only; the
    /// S5 hit on a model in its path takes saves as usual (Mordheim default). Default true.
    pub boulder_path_saves: bool,
    /// House rule: dice for Spot/Disarm and Set Trap tests (default 2D6).
    pub skill_dice: SkillDice,
    /// 002 "SKILLS": whether every take of Spot/Disarm or Set Trap lowers the score (default,
    /// the worked example) or only the takes after the first (the sentence alone).
    pub skill_reduction: SkillReduction,
    /// House rule when true: a Fire Trap's flame also lights the ground under the counter
    /// through the fire rules. 002 "10-11 – Fire Trap" sets models on fire and says nothing of
    /// the ground, so the default is false.
    pub fire_trap_ignites_ground: bool,
}

impl Default for KhemriSettings {
    fn default() -> Self {
        Self {
            complex_table_dice: ComplexTableDice::TwoD6,
            simple_trap_strength: 3,
            traps_per_player: TrapsPerPlayer::RollD6,
            traps_modifier: 0,
            deck_sets: 4,
            simple_trap_rearms: false,
            poison_gas_rearms: true,
            fire_trap_rearms: true,
            boulder_path_saves: true,
            skill_dice: SkillDice::TwoD6,
            skill_reduction: SkillReduction::EveryTake,
            fire_trap_ignites_ground: false,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Trap types, the deck, counters and placement
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// 002 "Traps": the three divisions of trap.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum KhemriTrap {
        /// One S3 hit on the model that trips it.
        Simple => "simple",
        /// A roll on the complex-trap table.
        Complex => "complex",
        /// Useless with age: harmless.
        Dud => "dud",
    }
}

impl KhemriTrap {
    /// 002 "Traps": "The ratio of Simple:Complex:Dud traps is 3:1:1".
    pub fn deck_share(self) -> u32 {
        match self {
            KhemriTrap::Simple => 3,
            KhemriTrap::Complex => 1,
            KhemriTrap::Dud => 1,
        }
    }
}

/// Fisher–Yates with the scene's dice, so a seeded scene deals the same deck.
pub fn shuffle<T>(items: &mut [T], src: &mut impl DiceSource) {
    for i in (1..items.len()).rev() {
        let j = src.below((i + 1) as u32) as usize;
        items.swap(i, j);
    }
}

/// 002 "Traps": a "deck" of trap counters in the ratio 3:1:1, drawn face down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TrapDeck {
    cards: Vec<KhemriTrap>,
    sets: u32,
    refills: u32,
}

impl TrapDeck {
    /// 002 "Traps": `sets` × (3 Simple, 1 Complex, 1 Dud), unshuffled; at least one set.
    pub fn fresh_cards(sets: u32) -> Vec<KhemriTrap> {
        let sets = sets.max(1);
        let mut cards = Vec::with_capacity(5 * sets as usize);
        for _ in 0..sets {
            for trap in KhemriTrap::ALL {
                for _ in 0..trap.deck_share() {
                    cards.push(trap);
                }
            }
        }
        cards
    }

    /// 002 "Traps": a shuffled deck of `sets` sets (house rule size: [`KhemriSettings::deck_sets`]).
    pub fn new(sets: u32, src: &mut impl DiceSource) -> Self {
        let mut cards = Self::fresh_cards(sets);
        shuffle(&mut cards, src);
        Self { cards, sets: sets.max(1), refills: 0 }
    }

    /// Counters left before the deck is replaced.
    pub fn remaining(&self) -> usize {
        self.cards.len()
    }

    /// How many times the deck ran out and a fresh one was shuffled.
    pub fn refills(&self) -> u32 {
        self.refills
    }

    /// 002 "Traps": draw one counter unseen. House rule: an empty deck is replaced by a freshly
    /// shuffled one of the same size, so the 3:1:1 ratio holds however many traps are dealt.
    pub fn draw(&mut self, src: &mut impl DiceSource) -> KhemriTrap {
        if self.cards.is_empty() {
            self.cards = Self::fresh_cards(self.sets);
            shuffle(&mut self.cards, src);
            self.refills += 1;
        }
        // A fresh deck holds at least five counters, so the fallback is never taken.
        self.cards.pop().unwrap_or(KhemriTrap::Dud)
    }
}

crate::rules::named_enum! {
    /// Whether a counter can still go off.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum TrapStatus {
        /// In play (a dud is in play but harmless).
        Active => "active",
        /// A once-only trap that has gone off (a spent Pit leaves its pit).
        Spent => "spent",
        /// Disarmed with Spot/Disarm; Set Trap can restore it.
        Disarmed => "disarmed",
    }
}

/// A trap counter on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrapCounter {
    /// The counter's number.
    pub id: u32,
    /// Simple, Complex or Dud, as drawn.
    pub trap: KhemriTrap,
    /// Turned over (revealed) once triggered or worked on.
    pub face_up: bool,
    /// Which complex trap, fixed by the table roll the first time it goes off.
    pub complex: Option<ComplexTrap>,
    /// Whether it can still go off.
    pub status: TrapStatus,
    /// A Pit's depth in inches, kept after it is spent: "there will be a pit (depth determined
    /// by the original roll)".
    pub pit_depth: Option<i32>,
}

impl TrapCounter {
    /// 002 "Traps": "The traps are placed on the board face down."
    pub fn face_down(id: u32, trap: KhemriTrap) -> Self {
        Self { id, trap, face_up: false, complex: None, status: TrapStatus::Active, pit_depth: None }
    }
}

/// A number of traps and the roll that set it, if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TrapCount {
    /// The D6 with the scenario modifier; `None` for a set number.
    pub roll: Option<Roll>,
    /// How many traps (never below 0).
    pub count: u32,
}

/// 002 "Traps": each player rolls a D6 for the traps he places (or one roll applies to
/// everyone: the caller rolls once), or the scenario sets a number; the scenario modifier
/// applies to either.
pub fn trap_count(settings: &KhemriSettings, src: &mut impl DiceSource) -> TrapCount {
    match settings.traps_per_player {
        TrapsPerPlayer::RollD6 | TrapsPerPlayer::RollD6Once => {
            let roll = Roll::new(Dice::D6, src).modifier("scenario modifier", settings.traps_modifier);
            let count = roll.total.max(0) as u32;
            TrapCount { roll: Some(roll), count }
        }
        TrapsPerPlayer::Fixed(n) => {
            let count = (i64::from(n) + i64::from(settings.traps_modifier)).clamp(0, i64::from(u32::MAX)) as u32;
            TrapCount { roll: None, count }
        }
    }
}

/// One player's traps: the count and the counters drawn face down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerTraps {
    /// How many, and the roll that set it.
    pub count: TrapCount,
    /// The counters drawn, face down.
    pub counters: Vec<TrapCounter>,
}

/// 002 "Traps": roll (or set) a player's number of traps and draw them face down from the
/// deck; counters are numbered from `first_id`.
pub fn deal_player_traps(
    deck: &mut TrapDeck,
    first_id: u32,
    settings: &KhemriSettings,
    src: &mut impl DiceSource,
) -> PlayerTraps {
    let count = trap_count(settings, src);
    let mut counters = Vec::new();
    for i in 0..count.count {
        let trap = deck.draw(src);
        counters.push(TrapCounter::face_down(first_id.wrapping_add(i), trap));
    }
    PlayerTraps { count, counters }
}

/// Where a counter stands, in inches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrapPosition {
    /// The counter's number.
    pub id: u32,
    /// Board x, in inches.
    pub x: f64,
    /// Board y, in inches.
    pub y: f64,
}

impl TrapPosition {
    /// Straight-line distance to `other`, in inches.
    pub fn distance_to(&self, other: &TrapPosition) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }
}

/// A counter placed 2" or closer to another.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PlacementError {
    /// The counter being placed (or the later one in a layout).
    pub placed: u32,
    /// The counter it is too close to.
    pub other: u32,
    /// How far apart they are, in inches.
    pub distance: f64,
}

impl std::fmt::Display for PlacementError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "trap {} is {:.2}\" from trap {}: no trap can be 2\" or closer to another",
            self.placed, self.distance, self.other
        )
    }
}

impl std::error::Error for PlacementError {}

/// 002 "Traps": "no trap can be 2" or closer to another one".
pub fn check_trap_placement(existing: &[TrapPosition], new: &TrapPosition) -> Result<(), PlacementError> {
    for other in existing {
        let distance = new.distance_to(other);
        // NaN (a broken position) is rejected too: it cannot be shown to be clear.
        if within(distance, TRAP_SPACING) || distance.is_nan() {
            return Err(PlacementError { placed: new.id, other: other.id, distance });
        }
    }
    Ok(())
}

/// 002 "Traps": the spacing rule over a whole layout, reporting the first pair too close.
pub fn check_trap_layout(traps: &[TrapPosition]) -> Result<(), PlacementError> {
    for (i, trap) in traps.iter().enumerate() {
        check_trap_placement(&traps[..i], trap)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Initiative tests and Mordheim hits
// ---------------------------------------------------------------------------------------------

/// RULES-NOTES "Dice": a Khemri Initiative test, D6 equal to or under I passes.
pub fn initiative_test(initiative: i32, src: &mut impl DiceSource) -> Roll {
    Roll::new(Dice::D6, src).at_most(initiative)
}

/// The Mordheim profile figures the trap rules read (RULES-NOTES "Dice": WS, S, T, W, I, Sv).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MordheimProfile {
    /// Weapon Skill (WS).
    pub weapon_skill: i32,
    /// Strength (S).
    pub strength: i32,
    /// Toughness (T): sets the score to wound.
    pub toughness: i32,
    /// Wounds left now.
    pub wounds: i32,
    /// Initiative (I): a test passes on a D6 equal to or under it.
    pub initiative: i32,
    /// Armour save as the score needed (4 = 4+); None without armour.
    pub save: Option<i32>,
}

/// RULES-NOTES "Dice" (Mordheim to-wound chart): the D6 score `strength` needs to wound
/// `toughness`: 4+ at equal values, one better or worse per point of difference, never better
/// than 2+, 6+ down to T three above S, and no chance at four or more above.
pub fn to_wound_target(strength: i32, toughness: i32) -> Option<i32> {
    let gap = toughness - strength;
    if gap >= 4 { None } else { Some((4 + gap).clamp(2, 6)) }
}

/// RULES-NOTES "Dice": the armour save after the hit's strength, worsened by 1 per point of S
/// above 3; None when the figure has no save or none is left (7+).
pub fn save_target(save: Option<i32>, strength: i32) -> Option<i32> {
    let target = save? + (strength - 3).max(0);
    if target > 6 { None } else { Some(target) }
}

crate::rules::named_enum! {
    /// How one hit ended.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum HitOutcome {
        /// The figure has no Mordheim profile: the hit is reported with its strength.
        NoProfile => "no_profile",
        /// The to-wound roll failed, or the chart allows no roll (T four or more above S).
        NoWound => "no_wound",
        /// Wounded, but the armour save held.
        Saved => "saved",
        /// One wound.
        Wounded => "wounded",
    }
}

/// One hit, its rolls and its outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HitResult {
    /// Strength of the hit (Khemri S).
    pub strength: i32,
    /// Whether armour saves are allowed against it.
    pub saves_allowed: bool,
    /// The D6 to wound; `None` without a profile or when the chart allows no roll.
    pub to_wound: Option<Roll>,
    /// The armour save; `None` when there was none to roll.
    pub save: Option<Roll>,
    /// How the hit ended.
    pub outcome: HitOutcome,
}

/// RULES-NOTES "Dice": one S hit, rolled to wound on the Mordheim chart, then saved with the
/// armour save worsened by 1 per point of S above 3 (when saves are allowed).
pub fn resolve_hit(
    strength: i32,
    profile: Option<&MordheimProfile>,
    saves_allowed: bool,
    src: &mut impl DiceSource,
) -> HitResult {
    let mut result = HitResult { strength, saves_allowed, to_wound: None, save: None, outcome: HitOutcome::NoProfile };
    let Some(profile) = profile else {
        return result;
    };
    let Some(wound_target) = to_wound_target(strength, profile.toughness) else {
        result.outcome = HitOutcome::NoWound;
        return result;
    };
    let to_wound = Roll::new(Dice::D6, src).at_least(wound_target);
    let wounds = passed(&to_wound);
    result.to_wound = Some(to_wound);
    if !wounds {
        result.outcome = HitOutcome::NoWound;
        return result;
    }
    let base_save = if saves_allowed { profile.save } else { None };
    result.outcome = match (base_save, save_target(base_save, strength)) {
        (Some(base), Some(_)) => {
            let save =
                Roll::new(Dice::D6, src).modifier(format!("S{strength} hit"), -(strength - 3).max(0)).at_least(base);
            let saved = passed(&save);
            result.save = Some(save);
            if saved { HitOutcome::Saved } else { HitOutcome::Wounded }
        }
        // No armour, no saves allowed, or the strength leaves no save.
        _ => HitOutcome::Wounded,
    };
    result
}

/// Several hits on one figure and what they left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HitsReport {
    /// Strength of each hit.
    pub strength: i32,
    /// Each hit, in order.
    pub hits: Vec<HitResult>,
    /// Wounds the hits did.
    pub wounds: i32,
    /// W left after these hits; None without a profile.
    pub wounds_left: Option<i32>,
    /// Brought to 0 W by these hits. What follows (the Mordheim injury roll) is not in the
    /// sources: reported only.
    pub out_of_wounds: bool,
}

/// RULES-NOTES "Dice": `count` hits at `strength`, each resolved with [`resolve_hit`]; wounds
/// come off the profile's W.
pub fn resolve_hits(
    count: i32,
    strength: i32,
    profile: Option<&MordheimProfile>,
    saves_allowed: bool,
    src: &mut impl DiceSource,
) -> HitsReport {
    let mut hits = Vec::new();
    for _ in 0..count.max(0) {
        hits.push(resolve_hit(strength, profile, saves_allowed, src));
    }
    let wounds = hits.iter().filter(|h| h.outcome == HitOutcome::Wounded).count() as i32;
    let wounds_left = profile.map(|p| (p.wounds - wounds).max(0));
    let out_of_wounds = wounds > 0 && wounds_left == Some(0);
    HitsReport { strength, hits, wounds, wounds_left, out_of_wounds }
}

/// The figure a trap acts on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TrapVictim {
    /// I for Initiative tests (the profile's I when built with [`TrapVictim::from_profile`]).
    pub initiative: i32,
    /// The Mordheim profile, if it has one; without it hits are reported with their strength.
    pub profile: Option<MordheimProfile>,
    /// 002 "Poison Gas": "Any models immune to poison will receive no effect."
    pub immune_to_poison: bool,
    /// Times the figure has taken Spot/Disarm trap (0 = not at all; the limit is 4).
    pub spot_disarm: u8,
    /// Under the evil eye (001 "Lay an evil eye Curse"): −1 on its Initiative tests and skill
    /// rolls (a trap's hits are the trap's throws).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub evil_eye: bool,
}

impl TrapVictim {
    /// A figure without a Mordheim profile: hits are reported with their strength.
    pub fn with_initiative(initiative: i32) -> Self {
        Self { initiative, ..Self::default() }
    }

    /// A figure with a Mordheim profile; its I is the profile's.
    pub fn from_profile(profile: MordheimProfile) -> Self {
        Self { initiative: profile.initiative, profile: Some(profile), ..Self::default() }
    }

    fn hits(&self, count: i32, strength: i32, saves_allowed: bool, src: &mut impl DiceSource) -> HitsReport {
        resolve_hits(count, strength, self.profile.as_ref(), saves_allowed, src)
    }

    /// The figure's Initiative test ([`initiative_test`]), with 001's evil-eye −1 when it is
    /// cursed ("deducts 1 from every dice throw for character").
    pub fn initiative_test(&self, src: &mut impl DiceSource) -> Roll {
        let mut roll = initiative_test(self.initiative, src);
        apply_evil_eye(&mut roll, self.evil_eye);
        roll
    }
}

/// Another model near a trap, with its distance in inches as the text measures it (from the
/// triggering model; for a Pit, from the pit).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bystander {
    /// The model's id.
    pub id: u32,
    /// How far off, in inches.
    pub distance: f64,
    /// The model as the trap reads it.
    pub victim: TrapVictim,
}

/// What the caller's geometry says about a trap going off.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TrapSurroundings {
    /// The trap lies in a narrow hall: a boulder rolls 50/50 along it.
    pub narrow_hall: bool,
    /// Other models near the trap (the triggering model excluded), any distance from the
    /// triggering model ("the model"): each trap picks those in its range.
    pub nearby: Vec<Bystander>,
    /// The same models with their distance from the counter's edge, for the Pit ("1" or closer
    /// to the pit"); `None`: the pit uses `nearby`.
    #[serde(default)]
    pub pit_edge: Option<Vec<Bystander>>,
}

/// A bystander's test (if any) and hits (if any).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BystanderHit {
    /// The model's id.
    pub id: u32,
    /// Its I test, where the trap calls for one.
    pub test: Option<Roll>,
    /// Immune to poison: no effect.
    pub immune: bool,
    /// The hits it took, if any.
    pub hits: Option<HitsReport>,
}

// ---------------------------------------------------------------------------------------------
// The complex-trap table
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// 002 "Traps": the complex-trap table.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ComplexTrap {
        /// 2
        Boulder => "boulder",
        /// 3–4
        Pit => "pit",
        /// 5–6
        Arrows => "arrows",
        /// 7
        SwingingBlades => "swinging_blades",
        /// 8–9
        PoisonGas => "poison_gas",
        /// 10–11
        FireTrap => "fire_trap",
        /// 12
        CollapsingWalls => "collapsing_walls",
    }
}

crate::rules::named_enum! {
    /// Whether a trap works once or each time it is triggered.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum TrapReuse {
        /// Works once, then is spent.
        OnceOnly => "once_only",
        /// Works each time it is triggered.
        EveryTime => "every_time",
    }
}

impl ComplexTrap {
    /// 002 complex table: Boulder "will only work once"; Pit "will work only once" (the pit
    /// remains); Arrows "will work multiple times"; Swinging Blades "will strike any model that
    /// passes over it"; Collapsing Walls "immediately open up again". Poison Gas and Fire Trap:
    /// the text is silent, house rule settings.
    pub fn reuse(self, settings: &KhemriSettings) -> TrapReuse {
        let rearms = |yes: bool| if yes { TrapReuse::EveryTime } else { TrapReuse::OnceOnly };
        match self {
            ComplexTrap::Boulder | ComplexTrap::Pit => TrapReuse::OnceOnly,
            ComplexTrap::Arrows | ComplexTrap::SwingingBlades | ComplexTrap::CollapsingWalls => TrapReuse::EveryTime,
            ComplexTrap::PoisonGas => rearms(settings.poison_gas_rearms),
            ComplexTrap::FireTrap => rearms(settings.fire_trap_rearms),
        }
    }
}

/// 002 "Traps": the complex-trap table, 2 Boulder, 3–4 Pit, 5–6 Arrows, 7 Swinging Blades,
/// 8–9 Poison Gas, 10–11 Fire Trap, 12 Collapsing Walls; None off the table (a D12's 1).
pub fn complex_trap_band(total: i32) -> Option<ComplexTrap> {
    match total {
        2 => Some(ComplexTrap::Boulder),
        3..=4 => Some(ComplexTrap::Pit),
        5..=6 => Some(ComplexTrap::Arrows),
        7 => Some(ComplexTrap::SwingingBlades),
        8..=9 => Some(ComplexTrap::PoisonGas),
        10..=11 => Some(ComplexTrap::FireTrap),
        12 => Some(ComplexTrap::CollapsingWalls),
        _ => None,
    }
}

/// The table roll (more than one when a D12 shows 1) and the trap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ComplexTrapRoll {
    /// Every table roll, in order (a D12's 1 is rolled again).
    pub rolls: Vec<Roll>,
    /// The trap the table gave.
    pub trap: ComplexTrap,
}

/// 002 "Traps" complex table, rolled as RULES-NOTES says: 2D6, or a D12 with a 1 rolled again.
pub fn roll_complex_trap(settings: &KhemriSettings, src: &mut impl DiceSource) -> ComplexTrapRoll {
    let dice = settings.complex_table_dice.dice();
    let mut rolls = Vec::new();
    loop {
        let roll = Roll::new(dice, src);
        let band = complex_trap_band(roll.total);
        rolls.push(roll);
        if let Some(trap) = band {
            return ComplexTrapRoll { rolls, trap };
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Each trap
// ---------------------------------------------------------------------------------------------

/// 002 "Traps" > Simple: "an automatic S3 (4?) hit ... armour saves as normal" (strength from
/// the settings).
pub fn resolve_simple_trap(victim: &TrapVictim, settings: &KhemriSettings, src: &mut impl DiceSource) -> HitsReport {
    victim.hits(1, settings.simple_trap_strength, true, src)
}

/// Where the boulder rolls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoulderDirection {
    /// House rule for "use a scatter dice": a D12 read as a clock face, 12 o'clock being the
    /// direction the caller calls north; `degrees` clockwise from it (hour × 30, 12 = 0).
    Clock {
        /// The D12 as rolled: the hour, 1–12.
        hour: i32,
        /// Degrees clockwise from the caller's north.
        degrees: i32,
    },
    /// "down a narrow hall, 50/50": D6 1–3 toward the end the caller calls forward, 4–6 back.
    Hall {
        /// D6 1–3: toward the end the caller calls forward; 4–6: back.
        forward: bool,
    },
}

impl BoulderDirection {
    /// The stable snake_case id the log writes.
    pub fn id(self) -> &'static str {
        match self {
            BoulderDirection::Clock { .. } => "clock",
            BoulderDirection::Hall { forward: true } => "hall_forward",
            BoulderDirection::Hall { forward: false } => "hall_back",
        }
    }
}

/// 002 "Boulder": the direction die read as a direction (D6 in a hall, D12 clock otherwise).
pub fn boulder_direction_band(narrow_hall: bool, total: i32) -> BoulderDirection {
    if narrow_hall {
        BoulderDirection::Hall { forward: total <= 3 }
    } else {
        BoulderDirection::Clock { hour: total, degrees: total.rem_euclid(12) * 30 }
    }
}

/// The boulder's roll: D6" in a random direction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoulderRoll {
    /// The D6: inches it rolls.
    pub distance: Roll,
    /// D6 in a narrow hall, D12 otherwise.
    pub direction_roll: Roll,
    /// The direction read from it.
    pub direction: BoulderDirection,
}

/// 002 "Boulder": "The boulder will roll D6" in a random direction (down a narrow hall, 50/50,
/// otherwise use a scatter dice)."
pub fn boulder_roll(narrow_hall: bool, src: &mut impl DiceSource) -> BoulderRoll {
    let distance = Roll::new(Dice::D6, src);
    let direction_roll = Roll::new(if narrow_hall { Dice::D6 } else { Dice::D12 }, src);
    let direction = boulder_direction_band(narrow_hall, direction_roll.total);
    BoulderRoll { distance, direction_roll, direction }
}

/// The model beneath the boulder, and where the boulder goes. Models in its path are resolved
/// by the caller with [`boulder_path_model`]. The boulder works once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoulderReport {
    /// The model's I test.
    pub dodge: Roll,
    /// The D3 for the number of hits, when the test failed.
    pub hit_count: Option<Roll>,
    /// The S5 hits, no armour saves, when the test failed.
    pub hits: Option<HitsReport>,
    /// Where the boulder rolls.
    pub rolling: BoulderRoll,
}

/// 002 "2 - Boulder": another I test; failed, D3 S5 hits with no armour saves; then the boulder
/// rolls D6".
pub fn resolve_boulder(victim: &TrapVictim, narrow_hall: bool, src: &mut impl DiceSource) -> BoulderReport {
    let dodge = victim.initiative_test(src);
    let (hit_count, hits) = if passed(&dodge) {
        (None, None)
    } else {
        let count = Roll::new(Dice::D3, src);
        let hits = victim.hits(count.total, 5, false, src);
        (Some(count), Some(hits))
    };
    let rolling = boulder_roll(narrow_hall, src);
    BoulderReport { dodge, hit_count, hits, rolling }
}

/// 002 "2 - Boulder": a model in the boulder's path tests I; failing, one S5 hit (saves per
/// [`KhemriSettings::boulder_path_saves`], house rule).
pub fn boulder_path_model(bystander: &Bystander, settings: &KhemriSettings, src: &mut impl DiceSource) -> BystanderHit {
    let test = bystander.victim.initiative_test(src);
    let hits = if passed(&test) { None } else { Some(bystander.victim.hits(1, 5, settings.boulder_path_saves, src)) };
    BystanderHit { id: bystander.id, test: Some(test), immune: false, hits }
}

/// A fall and its hits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FallReport {
    /// Inches fallen, which is also the hits' strength.
    pub depth: i32,
    /// The D3 for the number of hits.
    pub hit_count: Roll,
    /// The hits, no armour saves.
    pub hits: HitsReport,
}

/// 002 "3-4 - Pit": "Use the MH rules for falling" — the Mordheim rulebook, not in the sources;
/// the log labels the fall with this.
pub const FALL_RULE: &str = "Mordheim rulebook falling (not in the sources): D3 hits at S = depth, no saves";

/// 002 "3-4 - Pit": "Use the MH rules for falling": D3 hits at a Strength equal to the inches
/// fallen, no armour saves (Mordheim's rule, [`FALL_RULE`]).
pub fn resolve_fall(depth: i32, victim: &TrapVictim, src: &mut impl DiceSource) -> FallReport {
    let hit_count = Roll::new(Dice::D3, src);
    let hits = victim.hits(hit_count.total, depth, false, src);
    FallReport { depth, hit_count, hits }
}

/// A model at the pit's edge: its I test, and its fall if it failed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PitEdgeModel {
    /// The model's id.
    pub id: u32,
    /// Its I test.
    pub test: Roll,
    /// Its fall, if it failed.
    pub fall: Option<FallReport>,
}

/// 002 "3-4 - Pit": a model 1" or closer to the pit tests I; failing, it falls in too.
pub fn pit_edge_model(bystander: &Bystander, depth: i32, src: &mut impl DiceSource) -> PitEdgeModel {
    let test = bystander.victim.initiative_test(src);
    let fall = if passed(&test) { None } else { Some(resolve_fall(depth, &bystander.victim, src)) };
    PitEdgeModel { id: bystander.id, test, fall }
}

/// A model entering a pit that is already open: its I test (only where the table asks for
/// one) and its fall, if it fell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpenPitEntry {
    /// The I test, when one is taken.
    pub test: Option<Roll>,
    /// The fall, unless the test was passed.
    pub fall: Option<FallReport>,
}

/// 002 "3-4 - Pit": "This trap will work only once, but there will be a pit (depth determined by
/// the original roll) in the tunnel": a model entering it falls `depth`" ("Use the MH rules for
/// falling"); with `entry_test` it first tests I, and passing keeps its footing.
pub fn fall_into_open_pit(
    depth: i32,
    victim: &TrapVictim,
    entry_test: bool,
    src: &mut impl DiceSource,
) -> OpenPitEntry {
    let test = entry_test.then(|| victim.initiative_test(src));
    let fall = if test.as_ref().is_some_and(passed) { None } else { Some(resolve_fall(depth, victim, src)) };
    OpenPitEntry { test, fall }
}

/// The pit: its depth, the fall, and the models at its edge. Survivors must climb out
/// (Mordheim climbing, not in the sources). Works once; the pit stays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PitReport {
    /// The D6: the pit's depth in inches.
    pub depth: Roll,
    /// The triggering model's fall.
    pub fall: FallReport,
    /// Each model 1" or closer to the pit.
    pub edge: Vec<PitEdgeModel>,
}

/// 002 "3-4 - Pit": the model drops D6" into a pit; models 1" or closer test I or fall too.
pub fn resolve_pit(victim: &TrapVictim, nearby: &[Bystander], src: &mut impl DiceSource) -> PitReport {
    let depth = Roll::new(Dice::D6, src);
    let fall = resolve_fall(depth.total, victim, src);
    let mut edge = Vec::new();
    for bystander in nearby.iter().filter(|b| within(b.distance, PIT_EDGE_RANGE)) {
        edge.push(pit_edge_model(bystander, depth.total, src));
    }
    PitReport { depth, fall, edge }
}

crate::rules::named_enum! {
    /// One arrow's D6.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ArrowResult {
        /// 1–3: hit.
        Hit => "hit",
        /// 4–6: miss.
        Miss => "miss",
    }
}

/// 002 "5-6 - Arrows": "1-3 Hit, 4-6 Miss".
pub fn arrow_band(total: i32) -> ArrowResult {
    if total <= 3 { ArrowResult::Hit } else { ArrowResult::Miss }
}

/// Arrows at one model: a D6 each, and the S3 hits (armour saves as usual).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArrowVolley {
    /// A D6 per arrow (1–3 hit).
    pub rolls: Vec<Roll>,
    /// Arrows that missed.
    pub misses: u32,
    /// The S3 hits, armour saves as usual.
    pub hits: HitsReport,
}

/// 002 "5-6 - Arrows": roll a D6 per arrow on the Hit/Miss chart; hits are S3.
pub fn arrow_volley(arrows: u32, victim: &TrapVictim, src: &mut impl DiceSource) -> ArrowVolley {
    let mut rolls = Vec::with_capacity(arrows as usize);
    let mut hit_count = 0;
    for _ in 0..arrows {
        let roll = Roll::new(Dice::D6, src).at_most(3);
        if arrow_band(roll.total) == ArrowResult::Hit {
            hit_count += 1;
        }
        rolls.push(roll);
    }
    let misses = arrows - hit_count as u32;
    let hits = victim.hits(hit_count, 3, true, src);
    ArrowVolley { rolls, misses, hits }
}

/// 002 "5-6 - Arrows": "divide the misses among them (starting with the closest, and continuing
/// outwards)": dealt round the targets nearest first, so the closest gets any odd arrow.
pub fn share_missed_arrows(misses: u32, targets: usize) -> Vec<u32> {
    let mut shares = vec![0; targets];
    if targets == 0 {
        return shares;
    }
    for arrow in 0..misses as usize {
        shares[arrow % targets] += 1;
    }
    shares
}

/// Missed arrows at one nearby model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StrayArrows {
    /// The model's id.
    pub id: u32,
    /// The missed arrows rolled at it.
    pub volley: ArrowVolley,
}

/// The hail of arrows. Works every time the counter is triggered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ArrowsReport {
    /// The D6: how many arrows.
    pub arrow_count: Roll,
    /// The arrows at the model that set it off.
    pub victim: ArrowVolley,
    /// Missed arrows at models within 2", nearest first.
    pub strays: Vec<StrayArrows>,
    /// Arrows that hit the opposite wall.
    pub into_wall: u32,
}

/// 002 "5-6 - Arrows": D6 arrows at S3; misses go to models within 2" (one model rolls for every
/// miss; several share them nearest first); a stray that misses again, or a miss with nobody
/// near, hits the opposite wall.
pub fn resolve_arrows(victim: &TrapVictim, nearby: &[Bystander], src: &mut impl DiceSource) -> ArrowsReport {
    let arrow_count = Roll::new(Dice::D6, src);
    let volley = arrow_volley(arrow_count.total.max(0) as u32, victim, src);
    let mut targets: Vec<&Bystander> = nearby.iter().filter(|b| within(b.distance, NEARBY_RANGE)).collect();
    // Stable: equally distant models keep the caller's order.
    targets.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    let shares = share_missed_arrows(volley.misses, targets.len());
    let mut strays = Vec::new();
    let mut into_wall = if targets.is_empty() { volley.misses } else { 0 };
    for (target, &share) in targets.iter().zip(shares.iter()) {
        if share == 0 {
            continue;
        }
        let stray = arrow_volley(share, &target.victim, src);
        into_wall += stray.misses;
        strays.push(StrayArrows { id: target.id, volley: stray });
    }
    ArrowsReport { arrow_count, victim: volley, strays, into_wall }
}

/// The blades' swing at one model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BladesReport {
    /// The model's I test.
    pub dodge: Roll,
    /// The 2 S5 hits, when the test failed.
    pub hits: Option<HitsReport>,
    /// The model stopped on the counter: call [`resolve_swinging_blades`] again at the start of
    /// its next turn.
    pub test_again_next_turn: bool,
}

/// 002 "7 - Swinging Blades": another I test or 2 S5 hits (armour saves as usual); a model that
/// stopped on the counter tests again at the start of its next turn. Works every time.
pub fn resolve_swinging_blades(
    victim: &TrapVictim,
    stopped_on_counter: bool,
    src: &mut impl DiceSource,
) -> BladesReport {
    let dodge = victim.initiative_test(src);
    let hits = if passed(&dodge) { None } else { Some(victim.hits(2, 5, true, src)) };
    BladesReport { dodge, hits, test_again_next_turn: stopped_on_counter }
}

/// The gas on the model that set it off, and on those within 2".
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GasReport {
    /// The model is immune to poison: no effect.
    pub immune: bool,
    /// The D3 for the number of S4 hits.
    pub hit_count: Option<Roll>,
    /// The S4 hits.
    pub hits: Option<HitsReport>,
    /// Models within 2": one S4 hit each.
    pub nearby: Vec<BystanderHit>,
}

/// 002 "8-9 - Poison Gas": one S4 hit on a model within 2"; none if immune to poison.
pub fn poison_gas_bystander(bystander: &Bystander, src: &mut impl DiceSource) -> BystanderHit {
    let immune = bystander.victim.immune_to_poison;
    let hits = if immune { None } else { Some(bystander.victim.hits(1, 4, true, src)) };
    BystanderHit { id: bystander.id, test: None, immune, hits }
}

/// 002 "8-9 - Poison Gas": D3 S4 hits; other models within 2" one S4 hit; immune to poison, no
/// effect. Armour saves as usual (the text does not remove them).
pub fn resolve_poison_gas(victim: &TrapVictim, nearby: &[Bystander], src: &mut impl DiceSource) -> GasReport {
    let immune = victim.immune_to_poison;
    let (hit_count, hits) = if immune {
        (None, None)
    } else {
        let count = Roll::new(Dice::D3, src);
        let hits = victim.hits(count.total, 4, true, src);
        (Some(count), Some(hits))
    };
    let mut gassed = Vec::new();
    for bystander in nearby.iter().filter(|b| within(b.distance, NEARBY_RANGE)) {
        gassed.push(poison_gas_bystander(bystander, src));
    }
    GasReport { immune, hit_count, hits, nearby: gassed }
}

/// 002 "10-11 - Fire Trap": a D6, 4+ on fire.
pub fn on_fire_band(total: i32) -> bool {
    total >= 4
}

/// A model within 2" of the fire trap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FireBystander {
    /// The model's id.
    pub id: u32,
    /// The D6: 4+ on fire.
    pub fire_roll: Roll,
    /// On fire: the fire rules (TC #7) are not in the sources, so this is reported only.
    pub on_fire: bool,
}

/// 002 "10-11 - Fire Trap": a model within 2" rolls a D6, on 4+ it is on fire.
pub fn fire_trap_bystander(bystander: &Bystander, src: &mut impl DiceSource) -> FireBystander {
    let fire_roll = Roll::new(Dice::D6, src).at_least(4);
    let on_fire = on_fire_band(fire_roll.total);
    FireBystander { id: bystander.id, fire_roll, on_fire }
}

/// The fire trap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FireReport {
    /// The S5 hit.
    pub hits: HitsReport,
    /// The D6: 4+ on fire.
    pub fire_roll: Roll,
    /// On fire (TC #7 fire rules not in the sources: reported only).
    pub on_fire: bool,
    /// Models within 2", each rolling a D6 for fire.
    pub nearby: Vec<FireBystander>,
}

/// 002 "10-11 - Fire Trap": one S5 hit (armour saves as usual), on fire on 4+; models within 2"
/// are on fire on a D6 4+.
pub fn resolve_fire_trap(victim: &TrapVictim, nearby: &[Bystander], src: &mut impl DiceSource) -> FireReport {
    let hits = victim.hits(1, 5, true, src);
    let fire_roll = Roll::new(Dice::D6, src).at_least(4);
    let on_fire = on_fire_band(fire_roll.total);
    let mut burning = Vec::new();
    for bystander in nearby.iter().filter(|b| within(b.distance, NEARBY_RANGE)) {
        burning.push(fire_trap_bystander(bystander, src));
    }
    FireReport { hits, fire_roll, on_fire, nearby: burning }
}

/// The walls closing in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WallsReport {
    /// The model's I test.
    pub dodge: Roll,
    /// Dodged while stopped on the counter: move the model 1" to either side.
    pub step_aside: bool,
    /// The S8 hit, when the test failed.
    pub hits: Option<HitsReport>,
}

/// 002 "12 - Collapsing walls": an additional I test; passed, dodged (moved 1" aside if it had
/// stopped on the counter); failed, 1 S8 hit (armour saves as usual). The walls reopen.
pub fn resolve_collapsing_walls(
    victim: &TrapVictim,
    stopped_on_counter: bool,
    src: &mut impl DiceSource,
) -> WallsReport {
    let dodge = victim.initiative_test(src);
    let dodged = passed(&dodge);
    let hits = if dodged { None } else { Some(victim.hits(1, 8, true, src)) };
    WallsReport { dodge, step_aside: dodged && stopped_on_counter, hits }
}

/// What a complex trap did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ComplexEffect {
    /// Boulder (2).
    Boulder(BoulderReport),
    /// Pit (3–4).
    Pit(PitReport),
    /// Arrows (5–6).
    Arrows(ArrowsReport),
    /// Swinging Blades (7).
    SwingingBlades(BladesReport),
    /// Poison Gas (8–9).
    PoisonGas(GasReport),
    /// Fire Trap (10–11).
    FireTrap(FireReport),
    /// Collapsing Walls (12).
    CollapsingWalls(WallsReport),
}

impl ComplexEffect {
    /// Which complex trap this was.
    pub fn trap(&self) -> ComplexTrap {
        match self {
            ComplexEffect::Boulder(_) => ComplexTrap::Boulder,
            ComplexEffect::Pit(_) => ComplexTrap::Pit,
            ComplexEffect::Arrows(_) => ComplexTrap::Arrows,
            ComplexEffect::SwingingBlades(_) => ComplexTrap::SwingingBlades,
            ComplexEffect::PoisonGas(_) => ComplexTrap::PoisonGas,
            ComplexEffect::FireTrap(_) => ComplexTrap::FireTrap,
            ComplexEffect::CollapsingWalls(_) => ComplexTrap::CollapsingWalls,
        }
    }
}

/// What a triggered counter did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TrapEffect {
    /// "no ill effect comes to the model".
    Dud,
    /// A Simple trap's hit.
    Simple(HitsReport),
    /// A complex trap: the table roll and what the trap did.
    Complex {
        /// The table roll, made the first time the counter goes off; later triggers reuse it.
        table: Option<ComplexTrapRoll>,
        /// Boxed: a complex report is several times the size of the other variants.
        effect: Box<ComplexEffect>,
    },
}

/// 002 "Traps": the counter is turned over and its trap goes off on `victim`; once-only traps
/// are spent.
pub fn trigger_trap(
    counter: &mut TrapCounter,
    victim: &TrapVictim,
    stopped_on_counter: bool,
    surroundings: &TrapSurroundings,
    settings: &KhemriSettings,
    src: &mut impl DiceSource,
) -> TrapEffect {
    counter.face_up = true;
    match counter.trap {
        KhemriTrap::Dud => TrapEffect::Dud,
        KhemriTrap::Simple => {
            let hits = resolve_simple_trap(victim, settings, src);
            if !settings.simple_trap_rearms {
                counter.status = TrapStatus::Spent;
            }
            TrapEffect::Simple(hits)
        }
        KhemriTrap::Complex => {
            let (table, trap) = match counter.complex {
                Some(trap) => (None, trap),
                None => {
                    let table = roll_complex_trap(settings, src);
                    let trap = table.trap;
                    (Some(table), trap)
                }
            };
            counter.complex = Some(trap);
            let nearby = surroundings.nearby.as_slice();
            let effect = match trap {
                ComplexTrap::Boulder => ComplexEffect::Boulder(resolve_boulder(victim, surroundings.narrow_hall, src)),
                ComplexTrap::Pit => {
                    let edge = surroundings.pit_edge.as_deref().unwrap_or(nearby);
                    let pit = resolve_pit(victim, edge, src);
                    counter.pit_depth = Some(pit.depth.total);
                    ComplexEffect::Pit(pit)
                }
                ComplexTrap::Arrows => ComplexEffect::Arrows(resolve_arrows(victim, nearby, src)),
                ComplexTrap::SwingingBlades => {
                    ComplexEffect::SwingingBlades(resolve_swinging_blades(victim, stopped_on_counter, src))
                }
                ComplexTrap::PoisonGas => ComplexEffect::PoisonGas(resolve_poison_gas(victim, nearby, src)),
                ComplexTrap::FireTrap => ComplexEffect::FireTrap(resolve_fire_trap(victim, nearby, src)),
                ComplexTrap::CollapsingWalls => {
                    ComplexEffect::CollapsingWalls(resolve_collapsing_walls(victim, stopped_on_counter, src))
                }
            };
            if trap.reuse(settings) == TrapReuse::OnceOnly {
                counter.status = TrapStatus::Spent;
            }
            TrapEffect::Complex { table, effect: Box::new(effect) }
        }
    }
}

crate::rules::named_enum! {
    /// A model moving over a counter.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CrossingOutcome {
        /// Spent, disarmed, or a revealed dud: nothing to test.
        Inactive => "inactive",
        /// The model has Spot/Disarm trap: it "will never set off traps himself".
        Spotted => "spotted",
        /// Passed its I test.
        Avoided => "avoided",
        /// Failed its I test: the counter is turned over.
        Triggered => "triggered",
    }
}

/// A model moving over a counter: its I test, the outcome and what the trap did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CrossingReport {
    /// The counter's number.
    pub counter: u32,
    /// The I test; `None` when inactive or spotted.
    pub test: Option<Roll>,
    /// How the crossing went.
    pub outcome: CrossingOutcome,
    /// What the trap did, when triggered.
    pub effect: Option<TrapEffect>,
}

/// 002 "Traps": a model moving over a counter tests I; passed, it avoids the trap; failed, the
/// trap goes off. A model with Spot/Disarm never sets one off.
pub fn cross_trap(
    counter: &mut TrapCounter,
    victim: &TrapVictim,
    stopped_on_counter: bool,
    surroundings: &TrapSurroundings,
    settings: &KhemriSettings,
    src: &mut impl DiceSource,
) -> CrossingReport {
    let id = counter.id;
    let known_dud = counter.face_up && counter.trap == KhemriTrap::Dud;
    if counter.status != TrapStatus::Active || known_dud {
        return CrossingReport { counter: id, test: None, outcome: CrossingOutcome::Inactive, effect: None };
    }
    if victim.spot_disarm > 0 {
        return CrossingReport { counter: id, test: None, outcome: CrossingOutcome::Spotted, effect: None };
    }
    let test = victim.initiative_test(src);
    if passed(&test) {
        return CrossingReport { counter: id, test: Some(test), outcome: CrossingOutcome::Avoided, effect: None };
    }
    let effect = trigger_trap(counter, victim, stopped_on_counter, surroundings, settings, src);
    CrossingReport { counter: id, test: Some(test), outcome: CrossingOutcome::Triggered, effect: Some(effect) }
}

// ---------------------------------------------------------------------------------------------
// Skills
// ---------------------------------------------------------------------------------------------

/// 002 "SKILLS": "You can take this skill multiple times (limit 4)".
pub const SKILL_LIMIT: u8 = 4;

/// A skill used without having it, or beyond its limit, or on the wrong counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SkillError {
    /// The figure does not have the skill.
    NotTaken,
    /// Taken more times than the limit of 4.
    OverLimit {
        /// Times taken.
        times: u8,
    },
    /// Set Trap works on duds and disarmed traps only.
    NothingToSet {
        /// The counter's number.
        counter: u32,
    },
}

impl std::fmt::Display for SkillError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkillError::NotTaken => write!(f, "the figure does not have this skill"),
            SkillError::OverLimit { times } => {
                write!(f, "skill taken {times} times: the limit is {SKILL_LIMIT}")
            }
            SkillError::NothingToSet { counter } => {
                write!(f, "trap {counter} is neither a dud nor disarmed: nothing to set")
            }
        }
    }
}

impl std::error::Error for SkillError {}

/// 002 "SKILLS": the times a skill was taken, 1 to 4.
pub fn skill_levels(times: u8) -> Result<i32, SkillError> {
    match times {
        0 => Err(SkillError::NotTaken),
        1..=SKILL_LIMIT => Ok(i32::from(times)),
        _ => Err(SkillError::OverLimit { times }),
    }
}

/// 002 "SKILLS": the base score, Simple 6+, Complex 8+; a dud has none.
pub fn trap_difficulty(trap: KhemriTrap) -> Option<i32> {
    match trap {
        KhemriTrap::Simple => Some(6),
        KhemriTrap::Complex => Some(8),
        KhemriTrap::Dud => None,
    }
}

/// 002 "SKILLS" > Spot/Disarm (and Set Trap): the score needed, less 1 for each time the skill
/// was taken as `reduction` reads it: every take (the example: taken 4 times, Simple 2+ and
/// Complex 4+, 6 − 4 and 8 − 4) or the takes after the first.
pub fn skill_target(trap: KhemriTrap, times: u8, reduction: SkillReduction) -> Result<Option<i32>, SkillError> {
    let levels = skill_levels(times)?;
    Ok(trap_difficulty(trap).map(|d| d - reduction.reduction(levels)))
}

fn skill_roll(
    trap_base: i32,
    levels: i32,
    skill: &'static str,
    evil_eye: bool,
    settings: &KhemriSettings,
    src: &mut impl DiceSource,
) -> Roll {
    // The reduction is logged as a bonus against the text's base score: same pass, and the
    // log shows why (value N with every take counting, N − 1 with the takes after the first).
    let mut roll = Roll::new(settings.skill_dice.dice(), src)
        .modifier(format!("{skill} taken {levels} times"), settings.skill_reduction.reduction(levels))
        .at_least(trap_base);
    apply_evil_eye(&mut roll, evil_eye);
    roll
}

crate::rules::named_enum! {
    /// How a disarm attempt ended.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum DisarmOutcome {
        /// Spent, already disarmed, or a dud: no roll.
        NothingToDisarm => "nothing_to_disarm",
        /// The roll passed: the trap is disarmed.
        Disarmed => "disarmed",
        /// Failed, but passed the I test: nothing happens.
        Failed => "failed",
        /// Failed and failed the I test: "he has inadvertently set off the trap himself".
        SetOff => "set_off",
    }
}

/// A Spot/Disarm attempt: the rolls, the outcome and what the trap did if set off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DisarmReport {
    /// The counter's number.
    pub counter: u32,
    /// The skill roll; `None` when there was nothing to disarm.
    pub roll: Option<Roll>,
    /// The I test after a failed roll.
    pub initiative_test: Option<Roll>,
    /// How the attempt ended.
    pub outcome: DisarmOutcome,
    /// What the trap did, when set off.
    pub effect: Option<TrapEffect>,
}

/// 002 "SKILLS" > Spot/Disarm trap: stopped at the counter, the hero rolls Simple 6+ / Complex
/// 8+ (less 1 per time taken); failing, he tests I and on a failure sets the trap off himself.
/// He turns the counter over to work on it (he must know which score he needs); a dud needs no
/// roll.
pub fn attempt_disarm(
    counter: &mut TrapCounter,
    disarmer: &TrapVictim,
    surroundings: &TrapSurroundings,
    settings: &KhemriSettings,
    src: &mut impl DiceSource,
) -> Result<DisarmReport, SkillError> {
    let levels = skill_levels(disarmer.spot_disarm)?;
    let id = counter.id;
    let nothing = DisarmReport {
        counter: id,
        roll: None,
        initiative_test: None,
        outcome: DisarmOutcome::NothingToDisarm,
        effect: None,
    };
    if counter.status != TrapStatus::Active {
        return Ok(nothing);
    }
    counter.face_up = true;
    let Some(base) = trap_difficulty(counter.trap) else {
        return Ok(nothing);
    };
    let roll = skill_roll(base, levels, "Spot/Disarm trap", disarmer.evil_eye, settings, src);
    if passed(&roll) {
        counter.status = TrapStatus::Disarmed;
        return Ok(DisarmReport {
            counter: id,
            roll: Some(roll),
            initiative_test: None,
            outcome: DisarmOutcome::Disarmed,
            effect: None,
        });
    }
    let test = disarmer.initiative_test(src);
    if passed(&test) {
        return Ok(DisarmReport {
            counter: id,
            roll: Some(roll),
            initiative_test: Some(test),
            outcome: DisarmOutcome::Failed,
            effect: None,
        });
    }
    // He "must stop at the trap", so he stands on the counter when it goes off.
    let effect = trigger_trap(counter, disarmer, true, surroundings, settings, src);
    Ok(DisarmReport {
        counter: id,
        roll: Some(roll),
        initiative_test: Some(test),
        outcome: DisarmOutcome::SetOff,
        effect: Some(effect),
    })
}

/// 002 "SKILLS" > Set Trap: what a dud becomes, D6 1–4 Simple, 5–6 Complex.
pub fn dud_restore_band(total: i32) -> KhemriTrap {
    if total <= 4 { KhemriTrap::Simple } else { KhemriTrap::Complex }
}

crate::rules::named_enum! {
    /// How a Set Trap attempt ended.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum SetTrapOutcome {
        /// "a success means that it will work".
        Armed => "armed",
        /// "the trap has failed to activate": the counter stays as it was.
        Failed => "failed",
    }
}

/// A Set Trap attempt: the dud's roll, the test and the outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SetTrapReport {
    /// The counter's number.
    pub counter: u32,
    /// A dud's D6 for what it becomes.
    pub dud_roll: Option<Roll>,
    /// The trap the hero tried to set.
    pub becomes: KhemriTrap,
    /// The skill roll against Simple 6 / Complex 8, less 1 per time taken.
    pub roll: Roll,
    /// Armed or failed.
    pub outcome: SetTrapOutcome,
}

/// 002 "SKILLS" > Set Trap: restore a dud (D6 1–4 Simple, 5–6 Complex) or a disarmed trap (back
/// to what it was), testing against Simple 6 / Complex 8, less 1 per time taken (as Spot/Disarm).
/// `evil_eye`: the setter is cursed (001), −1 on the skill roll; the dud's D6 is the trap's.
pub fn attempt_set_trap(
    counter: &mut TrapCounter,
    times_taken: u8,
    evil_eye: bool,
    settings: &KhemriSettings,
    src: &mut impl DiceSource,
) -> Result<SetTrapReport, SkillError> {
    let levels = skill_levels(times_taken)?;
    let restoring_dud = counter.trap == KhemriTrap::Dud && counter.status == TrapStatus::Active;
    if !restoring_dud && counter.status != TrapStatus::Disarmed {
        return Err(SkillError::NothingToSet { counter: counter.id });
    }
    let (dud_roll, becomes) = if counter.trap == KhemriTrap::Dud {
        let roll = Roll::new(Dice::D6, src);
        let becomes = dud_restore_band(roll.total);
        (Some(roll), becomes)
    } else {
        (None, counter.trap)
    };
    // `becomes` is Simple or Complex here, both with a difficulty.
    let base = trap_difficulty(becomes).unwrap_or(8);
    let roll = skill_roll(base, levels, "Set Trap", evil_eye, settings, src);
    let outcome = if passed(&roll) {
        if counter.trap != becomes {
            counter.trap = becomes;
            counter.complex = None;
        }
        counter.status = TrapStatus::Active;
        SetTrapOutcome::Armed
    } else {
        SetTrapOutcome::Failed
    };
    Ok(SetTrapReport { counter: counter.id, dud_roll, becomes, roll, outcome })
}

// ---------------------------------------------------------------------------------------------
// Rolls, in log order
// ---------------------------------------------------------------------------------------------
//
// The order each event has always logged: fields holding rolls in the alphabetical order of
// their names (see [`Rolls`]). Keep it when a field is added or renamed, or the log changes.

impl Rolls for HitResult {
    /// `save` before `to_wound`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.save.push_rolls(out);
        self.to_wound.push_rolls(out);
    }
}

impl Rolls for HitsReport {
    /// Each hit in turn.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.hits.push_rolls(out);
    }
}

impl Rolls for BystanderHit {
    /// `hits` before `test`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.hits.push_rolls(out);
        self.test.push_rolls(out);
    }
}

impl Rolls for FallReport {
    /// `hit_count` before `hits`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.hit_count.push_rolls(out);
        self.hits.push_rolls(out);
    }
}

impl Rolls for PitEdgeModel {
    /// `fall` before `test`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.fall.push_rolls(out);
        self.test.push_rolls(out);
    }
}

impl Rolls for ArrowVolley {
    /// `hits` before `rolls`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.hits.push_rolls(out);
        self.rolls.push_rolls(out);
    }
}

impl Rolls for BladesReport {
    /// `dodge` before `hits`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.dodge.push_rolls(out);
        self.hits.push_rolls(out);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_open_pit_is_fallen_into() {
        // Depth 3, no entry test: D3 hits at S3, no saves. I 3 with the test: a D6 of 3 passes
        // and there is no fall; a 4 fails and the model falls.
        let victim = TrapVictim::with_initiative(3);
        let mut dice = ScriptedDice::faces([2]);
        let entry = fall_into_open_pit(3, &victim, false, &mut dice);
        assert!(entry.test.is_none());
        let fall = entry.fall.expect("falls in");
        assert_eq!((fall.depth, fall.hit_count.total), (3, 2));
        let mut dice = ScriptedDice::faces([3]);
        let entry = fall_into_open_pit(3, &victim, true, &mut dice);
        assert!(entry.fall.is_none() && dice.is_empty());
        let mut dice = ScriptedDice::faces([4, 1]);
        let entry = fall_into_open_pit(3, &victim, true, &mut dice);
        assert_eq!(entry.fall.map(|f| f.hit_count.total), Some(1));
    }

    use super::super::dice::{ScriptedDice, ScriptedFaces, SeededDice};
    use super::*;
    use crate::rules::stats::chi_square;

    fn profile(toughness: i32, wounds: i32, save: Option<i32>) -> MordheimProfile {
        MordheimProfile { weapon_skill: 3, strength: 3, toughness, wounds, initiative: 3, save }
    }

    fn faces(list: &[u32]) -> ScriptedFaces {
        ScriptedDice::faces(list.iter().copied())
    }

    fn bystander(id: u32, distance: f64, initiative: i32) -> Bystander {
        Bystander { id, distance, victim: TrapVictim::with_initiative(initiative) }
    }

    // --- Complex table -----------------------------------------------------------------------

    #[test]
    fn complex_table_every_row_and_boundary() {
        assert_eq!(complex_trap_band(1), None);
        assert_eq!(complex_trap_band(2), Some(ComplexTrap::Boulder));
        assert_eq!(complex_trap_band(3), Some(ComplexTrap::Pit));
        assert_eq!(complex_trap_band(4), Some(ComplexTrap::Pit));
        assert_eq!(complex_trap_band(5), Some(ComplexTrap::Arrows));
        assert_eq!(complex_trap_band(6), Some(ComplexTrap::Arrows));
        assert_eq!(complex_trap_band(7), Some(ComplexTrap::SwingingBlades));
        assert_eq!(complex_trap_band(8), Some(ComplexTrap::PoisonGas));
        assert_eq!(complex_trap_band(9), Some(ComplexTrap::PoisonGas));
        assert_eq!(complex_trap_band(10), Some(ComplexTrap::FireTrap));
        assert_eq!(complex_trap_band(11), Some(ComplexTrap::FireTrap));
        assert_eq!(complex_trap_band(12), Some(ComplexTrap::CollapsingWalls));
        assert_eq!(complex_trap_band(13), None);
    }

    #[test]
    fn complex_table_rolled_on_2d6() {
        let settings = KhemriSettings::default();
        let cases: [([u32; 2], ComplexTrap); 11] = [
            ([1, 1], ComplexTrap::Boulder),
            ([1, 2], ComplexTrap::Pit),
            ([2, 2], ComplexTrap::Pit),
            ([2, 3], ComplexTrap::Arrows),
            ([3, 3], ComplexTrap::Arrows),
            ([3, 4], ComplexTrap::SwingingBlades),
            ([4, 4], ComplexTrap::PoisonGas),
            ([4, 5], ComplexTrap::PoisonGas),
            ([5, 5], ComplexTrap::FireTrap),
            ([5, 6], ComplexTrap::FireTrap),
            ([6, 6], ComplexTrap::CollapsingWalls),
        ];
        for (dice, expected) in cases {
            let mut src = faces(&dice);
            let roll = roll_complex_trap(&settings, &mut src);
            assert_eq!(roll.trap, expected, "{dice:?}");
            assert_eq!(roll.rolls.len(), 1);
            assert_eq!(roll.rolls[0].dice, Dice::TwoD6);
            assert!(src.is_empty());
        }
    }

    #[test]
    fn complex_table_d12_rerolls_a_one() {
        let settings =
            KhemriSettings { complex_table_dice: ComplexTableDice::D12RerollOne, ..KhemriSettings::default() };
        let mut src = faces(&[1, 1, 7]);
        let roll = roll_complex_trap(&settings, &mut src);
        assert_eq!(roll.trap, ComplexTrap::SwingingBlades);
        assert_eq!(roll.rolls.len(), 3);
        assert!(roll.rolls.iter().all(|r| r.dice == Dice::D12));
        assert_eq!(roll.rolls[0].total, 1);
        let mut src = faces(&[2]);
        assert_eq!(roll_complex_trap(&settings, &mut src).trap, ComplexTrap::Boulder);
        let mut src = faces(&[12]);
        assert_eq!(roll_complex_trap(&settings, &mut src).trap, ComplexTrap::CollapsingWalls);
    }

    /// Category index by the text's rows, written out again here.
    fn table_row(total: u32) -> usize {
        match total {
            2 => 0,
            3 | 4 => 1,
            5 | 6 => 2,
            7 => 3,
            8 | 9 => 4,
            10 | 11 => 5,
            12 => 6,
            _ => panic!("off the table: {total}"),
        }
    }

    fn row_of(trap: ComplexTrap) -> usize {
        ComplexTrap::ALL.iter().position(|&t| t == trap).unwrap_or(usize::MAX)
    }

    #[test]
    fn complex_table_2d6_frequencies() {
        // The distribution from the 36 faces of two D6.
        let mut ways = [0u32; 7];
        for a in 1..=6u32 {
            for b in 1..=6u32 {
                ways[table_row(a + b)] += 1;
            }
        }
        assert_eq!(ways, [1, 5, 9, 6, 9, 5, 1]);
        let probabilities: Vec<f64> = ways.iter().map(|&w| f64::from(w) / 36.0).collect();
        let settings = KhemriSettings::default();
        let mut src = SeededDice::new(0x2d6);
        let mut observed = [0u64; 7];
        for _ in 0..36_000 {
            observed[row_of(roll_complex_trap(&settings, &mut src).trap)] += 1;
        }
        // 6 degrees of freedom, p = 0.0001.
        let chi = chi_square(&observed, &probabilities);
        assert!(chi < 27.86, "chi-square {chi}, observed {observed:?}");
    }

    #[test]
    fn complex_table_d12_frequencies() {
        // A D12 with the 1 rolled again: faces 2..=12 equally likely.
        let mut ways = [0u32; 7];
        for face in 2..=12u32 {
            ways[table_row(face)] += 1;
        }
        let probabilities: Vec<f64> = ways.iter().map(|&w| f64::from(w) / 11.0).collect();
        let settings =
            KhemriSettings { complex_table_dice: ComplexTableDice::D12RerollOne, ..KhemriSettings::default() };
        let mut src = SeededDice::new(12);
        let mut observed = [0u64; 7];
        for _ in 0..22_000 {
            observed[row_of(roll_complex_trap(&settings, &mut src).trap)] += 1;
        }
        let chi = chi_square(&observed, &probabilities);
        assert!(chi < 27.86, "chi-square {chi}, observed {observed:?}");
    }

    // --- Initiative, to-wound, saves ---------------------------------------------------------

    #[test]
    fn initiative_test_passes_on_equal_or_under() {
        for (initiative, face, pass) in [
            (3, 3, true),
            (3, 4, false),
            (3, 1, true),
            (1, 1, true),
            (1, 2, false),
            (6, 6, true),
            (5, 6, false),
            (0, 1, false),
        ] {
            let roll = initiative_test(initiative, &mut faces(&[face]));
            assert_eq!(roll.passed(), Some(pass), "I{initiative} rolling {face}");
        }
    }

    #[test]
    fn to_wound_chart_every_strength_and_toughness() {
        // The Mordheim chart, rows S1..S10, columns T1..T10; 0 = cannot wound.
        let chart: [[i32; 10]; 10] = [
            [4, 5, 6, 6, 0, 0, 0, 0, 0, 0],
            [3, 4, 5, 6, 6, 0, 0, 0, 0, 0],
            [2, 3, 4, 5, 6, 6, 0, 0, 0, 0],
            [2, 2, 3, 4, 5, 6, 6, 0, 0, 0],
            [2, 2, 2, 3, 4, 5, 6, 6, 0, 0],
            [2, 2, 2, 2, 3, 4, 5, 6, 6, 0],
            [2, 2, 2, 2, 2, 3, 4, 5, 6, 6],
            [2, 2, 2, 2, 2, 2, 3, 4, 5, 6],
            [2, 2, 2, 2, 2, 2, 2, 3, 4, 5],
            [2, 2, 2, 2, 2, 2, 2, 2, 3, 4],
        ];
        for (s, row) in chart.iter().enumerate() {
            for (t, &needed) in row.iter().enumerate() {
                let expected = if needed == 0 { None } else { Some(needed) };
                assert_eq!(to_wound_target(s as i32 + 1, t as i32 + 1), expected, "S{} T{}", s + 1, t + 1);
            }
        }
    }

    #[test]
    fn save_worsens_by_strength_above_three() {
        assert_eq!(save_target(Some(4), 1), Some(4));
        assert_eq!(save_target(Some(4), 3), Some(4));
        assert_eq!(save_target(Some(4), 4), Some(5));
        assert_eq!(save_target(Some(4), 5), Some(6));
        assert_eq!(save_target(Some(4), 6), None);
        assert_eq!(save_target(Some(2), 7), Some(6));
        assert_eq!(save_target(Some(2), 8), None);
        assert_eq!(save_target(None, 3), None);
    }

    #[test]
    fn resolve_hit_rolls_wound_then_save() {
        let p = profile(3, 1, Some(4));
        // S5 vs T3: 2+ to wound. Save 4+ at -2: a 6 holds, a 5 does not.
        let hit = resolve_hit(5, Some(&p), true, &mut faces(&[2, 6]));
        assert_eq!(hit.outcome, HitOutcome::Saved);
        let save = hit.save.as_ref().map(|s| (s.total, s.target, s.modifiers.len()));
        assert_eq!(save, Some((4, Some(4), 1)));
        let hit = resolve_hit(5, Some(&p), true, &mut faces(&[2, 5]));
        assert_eq!(hit.outcome, HitOutcome::Wounded);
        // Failed to-wound: S3 vs T3 needs 4+.
        let hit = resolve_hit(3, Some(&p), true, &mut faces(&[3]));
        assert_eq!(hit.outcome, HitOutcome::NoWound);
        // S3 vs T3 wounds on 4; save unmodified at S3 (no modifier logged).
        let hit = resolve_hit(3, Some(&p), true, &mut faces(&[4, 4]));
        assert_eq!(hit.outcome, HitOutcome::Saved);
        assert_eq!(hit.save.map(|s| s.modifiers.len()), Some(0));
        // No saves allowed: no save roll.
        let mut src = faces(&[2]);
        let hit = resolve_hit(5, Some(&p), false, &mut src);
        assert_eq!(hit.outcome, HitOutcome::Wounded);
        assert!(hit.save.is_none());
        assert!(src.is_empty());
        // S6 leaves a 4+ save nothing: no roll.
        let mut src = faces(&[2]);
        assert_eq!(resolve_hit(6, Some(&p), true, &mut src).outcome, HitOutcome::Wounded);
        assert!(src.is_empty());
        // T four above S: no roll, no wound.
        let tough = profile(7, 1, None);
        let mut src = faces(&[]);
        let hit = resolve_hit(3, Some(&tough), true, &mut src);
        assert_eq!(hit.outcome, HitOutcome::NoWound);
        assert!(hit.to_wound.is_none());
        // No profile: reported with strength, no dice.
        let hit = resolve_hit(8, None, true, &mut src);
        assert_eq!((hit.outcome, hit.strength), (HitOutcome::NoProfile, 8));
        assert_eq!(HitOutcome::NoProfile.id(), "no_profile");
    }

    #[test]
    fn wounds_come_off_w() {
        let p = profile(3, 2, None);
        let report = resolve_hits(1, 3, Some(&p), true, &mut faces(&[4]));
        assert_eq!((report.wounds, report.wounds_left, report.out_of_wounds), (1, Some(1), false));
        let report = resolve_hits(3, 3, Some(&p), true, &mut faces(&[4, 6, 5]));
        assert_eq!((report.wounds, report.wounds_left, report.out_of_wounds), (3, Some(0), true));
        let report = resolve_hits(2, 3, None, true, &mut faces(&[]));
        assert_eq!((report.hits.len(), report.wounds_left), (2, None));
    }

    // --- Deck, counts, placement ------------------------------------------------------------

    #[test]
    fn fresh_deck_holds_three_one_one() {
        let cards = TrapDeck::fresh_cards(4);
        let count = |t: KhemriTrap| cards.iter().filter(|&&c| c == t).count();
        assert_eq!((count(KhemriTrap::Simple), count(KhemriTrap::Complex), count(KhemriTrap::Dud)), (12, 4, 4));
        assert_eq!(TrapDeck::fresh_cards(0).len(), 5);
    }

    #[test]
    fn deck_refills_keep_the_ratio() {
        let mut src = SeededDice::new(5);
        let mut deck = TrapDeck::new(2, &mut src);
        let mut counts = [0u32; 3];
        for _ in 0..30 {
            let card = deck.draw(&mut src);
            counts[KhemriTrap::ALL.iter().position(|&t| t == card).unwrap_or(0)] += 1;
        }
        // Three whole decks of ten.
        assert_eq!(counts, [18, 6, 6]);
        assert_eq!(deck.refills(), 2);
        assert_eq!(deck.remaining(), 0);
    }

    #[test]
    fn deck_draws_at_three_one_one() {
        let shares = [3.0, 1.0, 1.0];
        let probabilities: Vec<f64> = shares.iter().map(|s| s / 5.0).collect();
        let mut src = SeededDice::new(311);
        let mut observed = [0u64; 3];
        for _ in 0..6_000 {
            let mut deck = TrapDeck::new(4, &mut src);
            let card = deck.draw(&mut src);
            let index = match card {
                KhemriTrap::Simple => 0,
                KhemriTrap::Complex => 1,
                KhemriTrap::Dud => 2,
            };
            observed[index] += 1;
        }
        // 2 degrees of freedom, p = 0.0001.
        let chi = chi_square(&observed, &probabilities);
        assert!(chi < 18.42, "chi-square {chi}, observed {observed:?}");
    }

    #[test]
    fn traps_per_player_roll_fixed_and_modifier() {
        let settings = KhemriSettings { traps_modifier: -2, ..KhemriSettings::default() };
        let count = trap_count(&settings, &mut faces(&[1]));
        assert_eq!(count.count, 0);
        assert_eq!(count.roll.as_ref().map(|r| r.modifiers.len()), Some(1));
        let count = trap_count(&KhemriSettings::default(), &mut faces(&[6]));
        assert_eq!(count.count, 6);
        let fixed = KhemriSettings {
            traps_per_player: TrapsPerPlayer::Fixed(3),
            traps_modifier: 1,
            ..KhemriSettings::default()
        };
        let count = trap_count(&fixed, &mut faces(&[]));
        assert_eq!((count.count, count.roll), (4, None));
        let mut src = SeededDice::new(9);
        let mut deck = TrapDeck::new(1, &mut src);
        let dealt = deal_player_traps(&mut deck, 10, &fixed, &mut src);
        assert_eq!(dealt.counters.len(), 4);
        assert_eq!(dealt.counters[3].id, 13);
        assert!(dealt.counters.iter().all(|c| !c.face_up && c.status == TrapStatus::Active));
    }

    #[test]
    fn placement_rejects_two_inches_accepts_just_over() {
        let existing = [TrapPosition { id: 1, x: 0.0, y: 0.0 }, TrapPosition { id: 2, x: 10.0, y: 0.0 }];
        let at_two = TrapPosition { id: 7, x: 12.0, y: 0.0 };
        let err = check_trap_placement(&existing, &at_two);
        assert_eq!(err, Err(PlacementError { placed: 7, other: 2, distance: 2.0 }));
        let message = err.map_err(|e| e.to_string()).err().unwrap_or_default();
        assert!(message.contains("trap 7") && message.contains("trap 2") && message.contains("2.00"), "{message}");
        let just_over = TrapPosition { id: 7, x: 0.0, y: -2.01 };
        assert_eq!(check_trap_placement(&existing, &just_over), Ok(()));
        let closer = TrapPosition { id: 8, x: 1.0, y: 1.0 };
        assert!(check_trap_placement(&existing, &closer).is_err());
        assert!(check_trap_layout(&[existing[0], existing[1], just_over]).is_ok());
        assert_eq!(
            check_trap_layout(&[existing[0], existing[1], at_two]).map_err(|e| (e.placed, e.other)),
            Err((7, 2))
        );
    }

    // --- Crossing and each trap ---------------------------------------------------------------

    #[test]
    fn crossing_passed_avoids_failed_triggers() {
        let settings = KhemriSettings::default();
        let around = TrapSurroundings::default();
        let victim = TrapVictim::with_initiative(3);
        let mut counter = TrapCounter::face_down(1, KhemriTrap::Simple);
        let report = cross_trap(&mut counter, &victim, false, &around, &settings, &mut faces(&[3]));
        assert_eq!(report.outcome, CrossingOutcome::Avoided);
        assert!(!counter.face_up);
        // Failed (4 > I3): a simple trap, one S3 hit reported without a profile; then spent.
        let report = cross_trap(&mut counter, &victim, false, &around, &settings, &mut faces(&[4]));
        assert_eq!(report.outcome, CrossingOutcome::Triggered);
        match report.effect {
            Some(TrapEffect::Simple(hits)) => assert_eq!((hits.strength, hits.hits.len()), (3, 1)),
            other => panic!("{other:?}"),
        }
        assert!(counter.face_up);
        assert_eq!(counter.status, TrapStatus::Spent);
        let report = cross_trap(&mut counter, &victim, false, &around, &settings, &mut faces(&[]));
        assert_eq!(report.outcome, CrossingOutcome::Inactive);
        // The S4 setting.
        let s4 = KhemriSettings { simple_trap_strength: 4, ..KhemriSettings::default() };
        assert_eq!(resolve_simple_trap(&victim, &s4, &mut faces(&[])).strength, 4);
        // A dud: nothing, and once revealed no further tests.
        let mut dud = TrapCounter::face_down(2, KhemriTrap::Dud);
        let report = cross_trap(&mut dud, &victim, false, &around, &settings, &mut faces(&[6]));
        assert_eq!(report.effect, Some(TrapEffect::Dud));
        let report = cross_trap(&mut dud, &victim, false, &around, &settings, &mut faces(&[]));
        assert_eq!(report.outcome, CrossingOutcome::Inactive);
        // Spot/Disarm: never sets a trap off, no roll.
        let spotter = TrapVictim { spot_disarm: 1, ..victim };
        let mut counter = TrapCounter::face_down(3, KhemriTrap::Complex);
        let report = cross_trap(&mut counter, &spotter, false, &around, &settings, &mut faces(&[]));
        assert_eq!(report.outcome, CrossingOutcome::Spotted);
    }

    #[test]
    fn boulder_hits_without_saves_and_rolls_once() {
        let settings = KhemriSettings::default();
        let victim = TrapVictim::from_profile(profile(3, 3, Some(4)));
        // Crossing I test 4 fails; 2D6 [1,1] boulder; dodge 5 fails; D3 2; two to-wound 2s
        // (no save rolls); boulder D6 4", D12 3 o'clock.
        let mut src = faces(&[4, 1, 1, 5, 2, 2, 2, 4, 3]);
        let mut counter = TrapCounter::face_down(1, KhemriTrap::Complex);
        let report = cross_trap(&mut counter, &victim, false, &TrapSurroundings::default(), &settings, &mut src);
        assert!(src.is_empty());
        let Some(TrapEffect::Complex { table: Some(table), effect }) = report.effect else {
            panic!("expected a complex trap with its table roll");
        };
        let ComplexEffect::Boulder(boulder) = *effect else {
            panic!("expected a boulder");
        };
        assert_eq!(table.trap, ComplexTrap::Boulder);
        let hits = boulder.hits.as_ref().map(|h| (h.hits.len(), h.strength, h.wounds, h.wounds_left));
        assert_eq!(hits, Some((2, 5, 2, Some(1))));
        assert_eq!(boulder.rolling.distance.total, 4);
        assert_eq!(boulder.rolling.direction, BoulderDirection::Clock { hour: 3, degrees: 90 });
        assert_eq!(counter.status, TrapStatus::Spent);
        // Passed dodge: no hits, but the boulder still rolls; in a hall, 50/50.
        let report = resolve_boulder(&victim, true, &mut faces(&[3, 6, 3]));
        assert!(report.hits.is_none());
        assert_eq!(report.rolling.direction, BoulderDirection::Hall { forward: true });
        assert_eq!(boulder_direction_band(true, 4), BoulderDirection::Hall { forward: false });
        assert_eq!(boulder_direction_band(false, 12), BoulderDirection::Clock { hour: 12, degrees: 0 });
        // A model in its path: passes on I, or one S5 hit.
        let in_path = bystander(9, 3.0, 2);
        assert!(boulder_path_model(&in_path, &settings, &mut faces(&[2])).hits.is_none());
        let hit = boulder_path_model(&in_path, &settings, &mut faces(&[3]));
        assert_eq!(hit.hits.map(|h| (h.hits.len(), h.strength)), Some((1, 5)));
    }

    #[test]
    fn pit_falls_use_depth_as_strength_without_saves() {
        let victim = TrapVictim::from_profile(profile(3, 3, Some(4)));
        let nearby = [bystander(5, 1.0, 3), bystander(6, 1.5, 1)];
        // Depth 4; D3 1 hit, S4 v T3 wounds on 3+: a 3 wounds, no save rolled. Edge model 5
        // (1") tests I3: 4 fails, it falls: D3 2 hits (no profile, no dice). Model 6 at 1.5" is clear.
        let report = resolve_pit(&victim, &nearby, &mut faces(&[4, 1, 3, 4, 2]));
        assert_eq!(report.depth.total, 4);
        assert_eq!((report.fall.hits.strength, report.fall.hits.wounds), (4, 1));
        assert!(report.fall.hits.hits[0].save.is_none());
        assert_eq!(report.edge.len(), 1);
        assert_eq!(report.edge[0].id, 5);
        assert_eq!(report.edge[0].fall.as_ref().map(|f| (f.depth, f.hits.hits.len())), Some((4, 2)));
        assert!(pit_edge_model(&nearby[0], 4, &mut faces(&[3])).fall.is_none());
        // Through the counter: spent, the pit's depth kept.
        let mut counter = TrapCounter::face_down(1, KhemriTrap::Complex);
        let around = TrapSurroundings::default();
        let plain = TrapVictim::with_initiative(1);
        cross_trap(&mut counter, &plain, false, &around, &KhemriSettings::default(), &mut faces(&[2, 1, 2, 6, 3]));
        assert_eq!(
            (counter.complex, counter.status, counter.pit_depth),
            (Some(ComplexTrap::Pit), TrapStatus::Spent, Some(6))
        );
    }

    #[test]
    fn arrows_hit_on_one_to_three_and_share_misses_nearest_first() {
        assert_eq!(arrow_band(1), ArrowResult::Hit);
        assert_eq!(arrow_band(3), ArrowResult::Hit);
        assert_eq!(arrow_band(4), ArrowResult::Miss);
        assert_eq!(arrow_band(6), ArrowResult::Miss);
        assert_eq!(share_missed_arrows(5, 2), vec![3, 2]);
        assert_eq!(share_missed_arrows(1, 3), vec![1, 0, 0]);
        assert_eq!(share_missed_arrows(4, 1), vec![4]);
        assert_eq!(share_missed_arrows(3, 0), Vec::<u32>::new());
        let victim = TrapVictim::with_initiative(3);
        // No one near: 5 arrows, faces 1 3 4 5 6 -> 2 hits, 3 into the wall.
        let report = resolve_arrows(&victim, &[], &mut faces(&[5, 1, 3, 4, 5, 6]));
        assert_eq!((report.victim.hits.hits.len(), report.victim.misses, report.into_wall), (2, 3, 3));
        // One model within 2" (another at 2.5" is out of range): it rolls for each of the 3 misses.
        let nearby = [bystander(8, 2.5, 3), bystander(7, 2.0, 3)];
        let report = resolve_arrows(&victim, &nearby, &mut faces(&[3, 4, 5, 6, 1, 2, 6]));
        assert_eq!(report.strays.len(), 1);
        assert_eq!((report.strays[0].id, report.strays[0].volley.rolls.len()), (7, 3));
        assert_eq!((report.strays[0].volley.hits.hits.len(), report.into_wall), (2, 1));
        // Two within 2": 3 misses, the closer (id 4 at 0.5") gets 2, the other 1.
        let nearby = [bystander(3, 1.5, 3), bystander(4, 0.5, 3)];
        let report = resolve_arrows(&victim, &nearby, &mut faces(&[3, 6, 6, 6, 1, 4, 6]));
        let shares: Vec<(u32, usize)> = report.strays.iter().map(|s| (s.id, s.volley.rolls.len())).collect();
        assert_eq!(shares, vec![(4, 2), (3, 1)]);
        assert_eq!(report.into_wall, 2);
    }

    #[test]
    fn arrow_hit_rate_is_one_half() {
        // From the text: faces 1..=6, 1-3 hit.
        let hit_faces = (1..=6).filter(|&f| f <= 3).count() as f64;
        let p_hit = hit_faces / 6.0;
        let victim = TrapVictim::with_initiative(3);
        let mut src = SeededDice::new(56);
        let mut observed = [0u64; 2];
        let mut arrow_counts = [0u64; 6];
        for _ in 0..4_000 {
            let report = resolve_arrows(&victim, &[], &mut src);
            let arrows = report.victim.rolls.len() as u64;
            let hits = report.victim.hits.hits.len() as u64;
            observed[0] += hits;
            observed[1] += arrows - hits;
            assert_eq!(u64::from(report.into_wall), arrows - hits);
            arrow_counts[(arrows - 1) as usize] += 1;
        }
        let chi = chi_square(&observed, &[p_hit, 1.0 - p_hit]);
        assert!(chi < 15.14, "chi-square {chi}, observed {observed:?}");
        // D6 arrows: uniform 1..=6; 5 degrees of freedom, p = 0.0001.
        let chi = chi_square(&arrow_counts, &[1.0 / 6.0; 6]);
        assert!(chi < 25.74, "chi-square {chi}, counts {arrow_counts:?}");
    }

    #[test]
    fn swinging_blades_two_hits_and_retest_when_stopped() {
        let victim = TrapVictim::with_initiative(4);
        let report = resolve_swinging_blades(&victim, false, &mut faces(&[4]));
        assert!(report.hits.is_none() && !report.test_again_next_turn);
        let report = resolve_swinging_blades(&victim, true, &mut faces(&[5]));
        assert_eq!(report.hits.map(|h| (h.hits.len(), h.strength)), Some((2, 5)));
        assert!(report.test_again_next_turn);
        // Saves as usual: T3, 3+ save at S5 is 5+.
        let armoured = TrapVictim::from_profile(profile(3, 2, Some(3)));
        let report = resolve_swinging_blades(&armoured, false, &mut faces(&[6, 2, 5, 2, 4]));
        let outcomes: Vec<HitOutcome> =
            report.hits.map(|h| h.hits.iter().map(|x| x.outcome).collect()).unwrap_or_default();
        assert_eq!(outcomes, vec![HitOutcome::Saved, HitOutcome::Wounded]);
    }

    #[test]
    fn poison_gas_d3_hits_nearby_one_and_immunity() {
        let victim = TrapVictim::with_initiative(3);
        let nearby = [
            bystander(2, 2.0, 3),
            bystander(3, 2.1, 3),
            Bystander { id: 4, distance: 1.0, victim: TrapVictim { immune_to_poison: true, ..victim } },
        ];
        let report = resolve_poison_gas(&victim, &nearby, &mut faces(&[3]));
        assert_eq!(report.hits.map(|h| (h.hits.len(), h.strength)), Some((3, 4)));
        let ids: Vec<(u32, bool, usize)> =
            report.nearby.iter().map(|b| (b.id, b.immune, b.hits.as_ref().map_or(0, |h| h.hits.len()))).collect();
        assert_eq!(ids, vec![(2, false, 1), (4, true, 0)]);
        let immune = TrapVictim { immune_to_poison: true, ..victim };
        let report = resolve_poison_gas(&immune, &[], &mut faces(&[]));
        assert!(report.immune && report.hits.is_none() && report.hit_count.is_none());
    }

    #[test]
    fn fire_trap_s5_hit_and_on_fire_at_four() {
        assert!(!on_fire_band(3));
        assert!(on_fire_band(4));
        let victim = TrapVictim::with_initiative(3);
        let nearby = [bystander(2, 1.0, 3), bystander(3, 3.0, 3)];
        let report = resolve_fire_trap(&victim, &nearby, &mut faces(&[4, 3]));
        assert_eq!((report.hits.strength, report.hits.hits.len()), (5, 1));
        assert!(report.on_fire);
        assert_eq!(report.nearby.len(), 1);
        assert!(!report.nearby[0].on_fire);
        let report = resolve_fire_trap(&victim, &[], &mut faces(&[3]));
        assert!(!report.on_fire);
    }

    #[test]
    fn collapsing_walls_dodge_or_one_s8_hit() {
        let victim = TrapVictim::with_initiative(2);
        let report = resolve_collapsing_walls(&victim, true, &mut faces(&[2]));
        assert!(report.step_aside && report.hits.is_none());
        let report = resolve_collapsing_walls(&victim, false, &mut faces(&[2]));
        assert!(!report.step_aside);
        let report = resolve_collapsing_walls(&victim, true, &mut faces(&[3]));
        assert!(!report.step_aside);
        assert_eq!(report.hits.map(|h| (h.hits.len(), h.strength)), Some((1, 8)));
    }

    #[test]
    fn which_traps_work_again() {
        let settings = KhemriSettings::default();
        let reuse: Vec<TrapReuse> = ComplexTrap::ALL.iter().map(|t| t.reuse(&settings)).collect();
        use TrapReuse::{EveryTime, OnceOnly};
        assert_eq!(reuse, vec![OnceOnly, OnceOnly, EveryTime, EveryTime, EveryTime, EveryTime, EveryTime]);
        let once = KhemriSettings { poison_gas_rearms: false, fire_trap_rearms: false, ..settings.clone() };
        assert_eq!(ComplexTrap::PoisonGas.reuse(&once), OnceOnly);
        assert_eq!(ComplexTrap::FireTrap.reuse(&once), OnceOnly);
        // Arrows stay active and keep their kind: the second trigger rolls no table.
        let victim = TrapVictim::with_initiative(1);
        let around = TrapSurroundings::default();
        let mut counter = TrapCounter::face_down(1, KhemriTrap::Complex);
        cross_trap(&mut counter, &victim, false, &around, &settings, &mut faces(&[2, 2, 3, 1, 4]));
        assert_eq!((counter.complex, counter.status), (Some(ComplexTrap::Arrows), TrapStatus::Active));
        let report = cross_trap(&mut counter, &victim, false, &around, &settings, &mut faces(&[2, 1, 6]));
        match report.effect {
            Some(TrapEffect::Complex { table: None, effect }) => assert_eq!(effect.trap(), ComplexTrap::Arrows),
            other => panic!("{other:?}"),
        }
        // Simple traps: spent by default, re-usable by setting.
        let rearm = KhemriSettings { simple_trap_rearms: true, ..settings };
        let mut simple = TrapCounter::face_down(2, KhemriTrap::Simple);
        cross_trap(&mut simple, &victim, false, &around, &rearm, &mut faces(&[2]));
        assert_eq!(simple.status, TrapStatus::Active);
    }

    // --- Skills -------------------------------------------------------------------------------

    #[test]
    fn disarm_targets_by_level_match_the_example() {
        let simple: Vec<Option<i32>> =
            (1..=4).map(|l| skill_target(KhemriTrap::Simple, l, SkillReduction::EveryTake).ok().flatten()).collect();
        let complex: Vec<Option<i32>> =
            (1..=4).map(|l| skill_target(KhemriTrap::Complex, l, SkillReduction::EveryTake).ok().flatten()).collect();
        assert_eq!(simple, vec![Some(5), Some(4), Some(3), Some(2)]);
        assert_eq!(complex, vec![Some(7), Some(6), Some(5), Some(4)]);
        // "so a Simple trap would disarm on a 2+, a Complex on a 4+".
        assert_eq!(skill_target(KhemriTrap::Simple, 4, SkillReduction::EveryTake), Ok(Some(2)));
        assert_eq!(skill_target(KhemriTrap::Complex, 4, SkillReduction::EveryTake), Ok(Some(4)));
        assert_eq!(skill_target(KhemriTrap::Dud, 1, SkillReduction::EveryTake), Ok(None));
        assert_eq!(skill_target(KhemriTrap::Simple, 0, SkillReduction::EveryTake), Err(SkillError::NotTaken));
        assert_eq!(
            skill_target(KhemriTrap::Simple, 5, SkillReduction::EveryTake),
            Err(SkillError::OverLimit { times: 5 })
        );
    }

    #[test]
    fn skill_targets_under_both_readings() {
        use SkillReduction::{EveryTake, TakesAfterFirst};
        let targets = |trap, reduction| -> Vec<Option<i32>> {
            (1..=4).map(|l| skill_target(trap, l, reduction).ok().flatten()).collect()
        };
        // 002 "SKILLS": Simple 6+, Complex 8+, "reduce your roll by 1 each time".
        assert_eq!(targets(KhemriTrap::Simple, EveryTake), [Some(5), Some(4), Some(3), Some(2)]);
        assert_eq!(targets(KhemriTrap::Complex, EveryTake), [Some(7), Some(6), Some(5), Some(4)]);
        assert_eq!(targets(KhemriTrap::Simple, TakesAfterFirst), [Some(6), Some(5), Some(4), Some(3)]);
        assert_eq!(targets(KhemriTrap::Complex, TakesAfterFirst), [Some(8), Some(7), Some(6), Some(5)]);
        assert_eq!(KhemriSettings::default().skill_reduction, EveryTake, "the worked example's reading");

        // 2D6 (2, 3) = 5 at a Simple trap, skill taken once: 5 + 1 = 6 ≥ 6 under every-take;
        // 5 + 0 < 6 with only the takes after the first (the I test, D6 1 ≤ 3, then passes).
        let around = TrapSurroundings::default();
        let once = TrapVictim { spot_disarm: 1, ..TrapVictim::with_initiative(3) };
        let every = KhemriSettings::default();
        let after = KhemriSettings { skill_reduction: TakesAfterFirst, ..KhemriSettings::default() };
        let mut counter = TrapCounter::face_down(1, KhemriTrap::Simple);
        let report = attempt_disarm(&mut counter, &once, &around, &every, &mut faces(&[2, 3]));
        assert_eq!(report.map(|r| r.outcome), Ok(DisarmOutcome::Disarmed));
        let mut counter = TrapCounter::face_down(1, KhemriTrap::Simple);
        let report = attempt_disarm(&mut counter, &once, &around, &after, &mut faces(&[2, 3, 1]));
        assert_eq!(report.map(|r| r.outcome), Ok(DisarmOutcome::Failed));
        // Set Trap reads the same: a disarmed Simple, taken once, 2D6 (2, 3).
        let disarmed = TrapCounter { status: TrapStatus::Disarmed, ..TrapCounter::face_down(2, KhemriTrap::Simple) };
        let mut c = disarmed;
        let report = attempt_set_trap(&mut c, 1, false, &every, &mut faces(&[2, 3]));
        assert_eq!(report.map(|r| r.outcome), Ok(SetTrapOutcome::Armed));
        let mut c = disarmed;
        let report = attempt_set_trap(&mut c, 1, false, &after, &mut faces(&[2, 3]));
        assert_eq!(report.map(|r| r.outcome), Ok(SetTrapOutcome::Failed));

        // Seeded: P(2D6 ≥ k) = 35, 33, 30, 26, 21, 15 /36 for k = 3..8. Taken once: Simple 5+
        // (every take) 30/36, 6+ 26/36; Complex 7+ 21/36, 8+ 15/36.
        for (trap, settings, p) in [
            (KhemriTrap::Simple, &every, 30.0 / 36.0),
            (KhemriTrap::Simple, &after, 26.0 / 36.0),
            (KhemriTrap::Complex, &every, 21.0 / 36.0),
            (KhemriTrap::Complex, &after, 15.0 / 36.0),
        ] {
            let mut src = SeededDice::new(13);
            let mut observed = [0u32; 2];
            for _ in 0..3600 {
                let mut counter = TrapCounter::face_down(1, trap);
                let disarmed = attempt_disarm(&mut counter, &once, &around, settings, &mut src)
                    .is_ok_and(|r| r.outcome == DisarmOutcome::Disarmed);
                observed[usize::from(!disarmed)] += 1;
            }
            let chi = chi_square(&observed, &[p, 1.0 - p]);
            // 99.9% critical value of chi-square with one degree of freedom.
            assert!(chi < 10.828, "{trap:?} {:?}: chi-square {chi} for {observed:?}", settings.skill_reduction);
        }
    }

    #[test]
    fn disarm_rolls_against_the_reduced_score() {
        let settings = KhemriSettings::default();
        let around = TrapSurroundings::default();
        let level_four = TrapVictim { spot_disarm: 4, ..TrapVictim::with_initiative(3) };
        // Simple at 4 levels: 2D6 [1,1] = 2 passes.
        let mut counter = TrapCounter::face_down(1, KhemriTrap::Simple);
        let report = attempt_disarm(&mut counter, &level_four, &around, &settings, &mut faces(&[1, 1]));
        assert_eq!(report.map(|r| r.outcome), Ok(DisarmOutcome::Disarmed));
        assert_eq!(counter.status, TrapStatus::Disarmed);
        // Complex at level 1 needs 7 on 2D6: 6 fails, I test 3 passes.
        let level_one = TrapVictim { spot_disarm: 1, ..level_four };
        let mut counter = TrapCounter::face_down(2, KhemriTrap::Complex);
        let report = attempt_disarm(&mut counter, &level_one, &around, &settings, &mut faces(&[3, 3, 3]));
        assert_eq!(report.as_ref().map(|r| r.outcome), Ok(DisarmOutcome::Failed));
        let mut counter = TrapCounter::face_down(2, KhemriTrap::Complex);
        let report = attempt_disarm(&mut counter, &level_one, &around, &settings, &mut faces(&[3, 4]));
        assert_eq!(report.map(|r| r.outcome), Ok(DisarmOutcome::Disarmed));
        // Failed, I test failed: he sets off a simple trap himself.
        let mut counter = TrapCounter::face_down(3, KhemriTrap::Simple);
        let report = attempt_disarm(&mut counter, &level_one, &around, &settings, &mut faces(&[2, 2, 4]));
        match report {
            Ok(DisarmReport { outcome: DisarmOutcome::SetOff, effect: Some(TrapEffect::Simple(_)), .. }) => {}
            other => panic!("{other:?}"),
        }
        // A dud needs no roll; no skill is an error.
        let mut dud = TrapCounter::face_down(4, KhemriTrap::Dud);
        let report = attempt_disarm(&mut dud, &level_one, &around, &settings, &mut faces(&[]));
        assert_eq!(report.map(|r| r.outcome), Ok(DisarmOutcome::NothingToDisarm));
        let untrained = TrapVictim::with_initiative(3);
        assert_eq!(
            attempt_disarm(&mut dud, &untrained, &around, &settings, &mut faces(&[])),
            Err(SkillError::NotTaken)
        );
        // On a D6 (setting): Simple level 1 needs 5.
        let d6 = KhemriSettings { skill_dice: SkillDice::D6, ..settings };
        let mut counter = TrapCounter::face_down(5, KhemriTrap::Simple);
        let report = attempt_disarm(&mut counter, &level_one, &around, &d6, &mut faces(&[5]));
        assert_eq!(report.map(|r| r.outcome), Ok(DisarmOutcome::Disarmed));
    }

    /// 001 "Lay an evil eye Curse": a cursed figure's Initiative tests and skill rolls are 1
    /// less and pass or fail on the new total (D6 ≤ I, so a cursed 4 passes I3: the text deducts,
    /// whichever way that goes); the dud's D6, the trap's, is not touched.
    #[test]
    fn the_evil_eye_takes_one_off_initiative_tests_and_skill_rolls() {
        let cursed = TrapVictim { evil_eye: true, ..TrapVictim::with_initiative(3) };
        let plain = TrapVictim::with_initiative(3).initiative_test(&mut faces(&[4]));
        let test = cursed.initiative_test(&mut faces(&[4]));
        assert_eq!((plain.total, plain.passed()), (4, Some(false)));
        assert_eq!((test.total, test.passed()), (3, Some(true)));
        let last = test.modifiers.last().map(|m| (m.reason.as_ref(), m.value));
        assert_eq!(last, Some((crate::rules::magic::EVIL_EYE_REASON, -1)));
        let around = TrapSurroundings::default();
        let settings = KhemriSettings::default();
        let mut counter = TrapCounter::face_down(1, KhemriTrap::Dud);
        let crossing = cross_trap(&mut counter, &cursed, false, &around, &settings, &mut faces(&[4]));
        assert_eq!(crossing.outcome, CrossingOutcome::Avoided);
        // Set Trap on a disarmed Simple, taken once: 2D6 (2, 3) + 1 = 6 arms it; cursed, 5 fails.
        let disarmed = TrapCounter { status: TrapStatus::Disarmed, ..TrapCounter::face_down(2, KhemriTrap::Simple) };
        let mut c = disarmed;
        let report = attempt_set_trap(&mut c, 1, true, &settings, &mut faces(&[2, 3]));
        assert_eq!(report.map(|r| (r.roll.total, r.outcome)), Ok((5, SetTrapOutcome::Failed)));
        let mut c = disarmed;
        let report = attempt_set_trap(&mut c, 1, true, &settings, &mut faces(&[3, 3]));
        assert_eq!(report.map(|r| (r.roll.total, r.outcome)), Ok((6, SetTrapOutcome::Armed)));
        // Disarming, taken once: 5 + 1 − 1 fails; the I test's 4 − 1 passes I3: nothing happens.
        let once = TrapVictim { spot_disarm: 1, ..cursed };
        let mut counter = TrapCounter::face_down(3, KhemriTrap::Simple);
        let report = attempt_disarm(&mut counter, &once, &around, &settings, &mut faces(&[2, 3, 4]));
        let report = report.expect("a Simple trap to disarm");
        assert_eq!(report.outcome, DisarmOutcome::Failed);
        assert_eq!(report.roll.map(|r| r.total), Some(5));
        assert_eq!(report.initiative_test.map(|t| t.total), Some(3));
    }

    #[test]
    fn set_trap_restores_duds_and_disarmed_traps() {
        assert_eq!(dud_restore_band(1), KhemriTrap::Simple);
        assert_eq!(dud_restore_band(4), KhemriTrap::Simple);
        assert_eq!(dud_restore_band(5), KhemriTrap::Complex);
        assert_eq!(dud_restore_band(6), KhemriTrap::Complex);
        let settings = KhemriSettings::default();
        // A dud rolls 5: Complex, difficulty 8 less 2 = 6 on 2D6: [3,3] arms it.
        let mut dud = TrapCounter::face_down(1, KhemriTrap::Dud);
        let report = attempt_set_trap(&mut dud, 2, false, &settings, &mut faces(&[5, 3, 3]));
        assert_eq!(report.as_ref().map(|r| (r.becomes, r.outcome)), Ok((KhemriTrap::Complex, SetTrapOutcome::Armed)));
        assert_eq!((dud.trap, dud.status), (KhemriTrap::Complex, TrapStatus::Active));
        // A dud rolls 4: Simple 6 less 1 = 5 on 2D6: [2,2] fails, the counter stays a dud.
        let mut dud = TrapCounter::face_down(2, KhemriTrap::Dud);
        let report = attempt_set_trap(&mut dud, 1, false, &settings, &mut faces(&[4, 2, 2]));
        assert_eq!(report.map(|r| (r.becomes, r.outcome)), Ok((KhemriTrap::Simple, SetTrapOutcome::Failed)));
        assert_eq!(dud.trap, KhemriTrap::Dud);
        // A disarmed complex reverts to what it was, kind kept.
        let mut counter = TrapCounter {
            complex: Some(ComplexTrap::Arrows),
            status: TrapStatus::Disarmed,
            ..TrapCounter::face_down(3, KhemriTrap::Complex)
        };
        let report = attempt_set_trap(&mut counter, 4, false, &settings, &mut faces(&[2, 2]));
        assert_eq!(report.map(|r| (r.dud_roll.is_none(), r.outcome)), Ok((true, SetTrapOutcome::Armed)));
        assert_eq!((counter.complex, counter.status), (Some(ComplexTrap::Arrows), TrapStatus::Active));
        // An active simple trap: nothing to set.
        let mut active = TrapCounter::face_down(4, KhemriTrap::Simple);
        assert_eq!(
            attempt_set_trap(&mut active, 1, false, &settings, &mut faces(&[])),
            Err(SkillError::NothingToSet { counter: 4 })
        );
    }

    #[test]
    fn settings_defaults_and_ids() {
        let parsed: Result<KhemriSettings, _> = serde_json::from_str("{}");
        assert_eq!(parsed.ok(), Some(KhemriSettings::default()));
        assert!(serde_json::from_str::<KhemriSettings>("{\"nonsense\": 1}").is_err());
        let fixed: Result<KhemriSettings, _> =
            serde_json::from_str("{\"traps_per_player\": {\"fixed\": 3}, \"complex_table_dice\": \"d12_reroll_one\"}");
        let fixed = fixed.ok().unwrap_or_default();
        assert_eq!(fixed.traps_per_player, TrapsPerPlayer::Fixed(3));
        assert_eq!(fixed.complex_table_dice, ComplexTableDice::D12RerollOne);
        let ids: Vec<&str> = ComplexTrap::ALL.iter().map(|t| t.id()).collect();
        assert_eq!(ids, ["boulder", "pit", "arrows", "swinging_blades", "poison_gas", "fire_trap", "collapsing_walls"]);
        assert_eq!(KhemriTrap::Dud.id(), "dud");
        assert_eq!(serde_json::to_string(&ComplexTrap::SwingingBlades).ok().as_deref(), Some("\"swinging_blades\""));
    }

    // --- Rolls in log order -------------------------------------------------------------------

    /// The walk the log's rolls came from before [`Rolls`], kept as the reference: the value's
    /// JSON depth first (objects by sorted key, arrays in order), each object with `dice`,
    /// `faces` and `total` that reads as a roll taken whole.
    fn rolls_by_json(report: &impl Serialize) -> Vec<Roll> {
        fn walk(v: &serde_json::Value, out: &mut Vec<Roll>) {
            match v {
                serde_json::Value::Object(map) => {
                    if map.contains_key("dice")
                        && map.contains_key("faces")
                        && map.contains_key("total")
                        && let Ok(r) = serde_json::from_value::<Roll>(v.clone())
                    {
                        out.push(r);
                        return;
                    }
                    for value in map.values() {
                        walk(value, out);
                    }
                }
                serde_json::Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        if let Ok(v) = serde_json::to_value(report) {
            walk(&v, &mut out);
        }
        out
    }

    /// The typed rolls match the JSON walk; returns how many there were.
    fn same_rolls(report: &(impl Rolls + Serialize)) -> usize {
        let typed = report.rolls();
        assert_eq!(typed, rolls_by_json(report));
        typed.len()
    }

    #[test]
    fn typed_rolls_keep_the_json_walk_order() {
        let settings = KhemriSettings::default();
        // What the seeds reached, so the comparison is not vacuous.
        let (mut saves, mut edge_falls, mut strays, mut bystander_hits, mut rolls) = (0, 0, 0, 0, 0);
        for seed in 0..300u64 {
            let mut src = SeededDice::new(seed);
            let victim = match seed % 3 {
                0 => TrapVictim::from_profile(profile(3, 2, Some(4))),
                1 => TrapVictim::from_profile(profile(4, 1, Some(5))),
                _ => TrapVictim::with_initiative(3),
            };
            let nearby: Vec<Bystander> =
                (0..3u32).map(|i| Bystander { id: 10 + i, distance: 0.5 * f64::from(i + 1), victim }).collect();

            let simple = resolve_simple_trap(&victim, &settings, &mut src);
            rolls += same_rolls(&simple);
            saves += simple.hits.iter().filter(|h| h.save.is_some() && h.to_wound.is_some()).count();
            for hit in &simple.hits {
                rolls += same_rolls(hit);
            }

            let blades = resolve_swinging_blades(&victim, seed % 2 == 0, &mut src);
            rolls += same_rolls(&blades);

            let boulder = resolve_boulder(&victim, seed % 2 == 1, &mut src);
            rolls += same_rolls(&(&boulder.dodge, &boulder.hit_count, &boulder.hits));

            let pit = resolve_pit(&victim, &nearby, &mut src);
            rolls += same_rolls(&(&pit.depth, &pit.fall));
            for edge in &pit.edge {
                rolls += same_rolls(edge);
                edge_falls += usize::from(edge.fall.is_some());
            }

            let arrows = resolve_arrows(&victim, &nearby, &mut src);
            rolls += same_rolls(&(&arrows.arrow_count, &arrows.victim));
            for stray in &arrows.strays {
                rolls += same_rolls(&stray.volley);
                strays += 1;
            }

            let gas = resolve_poison_gas(&victim, &nearby, &mut src);
            rolls += same_rolls(&(&gas.hit_count, &gas.hits));
            for b in &gas.nearby {
                rolls += same_rolls(b);
            }

            let fire = resolve_fire_trap(&victim, &nearby, &mut src);
            rolls += same_rolls(&(&fire.hits, &fire.fire_roll));

            let walls = resolve_collapsing_walls(&victim, true, &mut src);
            rolls += same_rolls(&(&walls.dodge, &walls.hits));

            for b in &nearby {
                let hit = boulder_path_model(b, &settings, &mut src);
                rolls += same_rolls(&hit);
                bystander_hits += usize::from(hit.hits.as_ref().is_some_and(|h| !h.hits.is_empty()));
            }
        }
        assert!(saves > 0 && edge_falls > 0 && strays > 0 && bystander_hits > 0 && rolls > 1000);
        // The order is the sorted keys', not the fields': a save comes before its to-wound roll.
        let hit = HitResult {
            strength: 5,
            saves_allowed: true,
            to_wound: Some(Roll::from_faces(Dice::D6, vec![5])),
            save: Some(Roll::from_faces(Dice::D6, vec![2])),
            outcome: HitOutcome::Wounded,
        };
        let faces: Vec<Vec<u8>> = hit.rolls().into_iter().map(|r| r.faces).collect();
        assert_eq!(faces, vec![vec![2], vec![5]]);
        assert_eq!(same_rolls(&[hit.clone(), hit]), 4);
    }
}
