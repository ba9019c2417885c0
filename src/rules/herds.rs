//! Untethered steeds, wandering herds and flocks, herding, riders and animal trainers,
//! neuserks, okserks and chuserks (000), and cattle grids (001).
//!
//! Distances, move rates and move penalties are inches as `f32`. A heading is a compass
//! bearing in degrees, clockwise from north, in `0.0..360.0`. A turn is signed: **positive
//! turns right (clockwise), negative turns left (anticlockwise)**.

use serde::{Deserialize, Serialize};

use super::character::Sex;
use super::dice::{Dice, DiceSource, Roll};

/// 000 "Untethered Steeds and ruminants & herding": beasts "spread out to 1" between each beast".
pub const HERD_SPACING_IN: f32 = 1.0;
/// 000 "Untethered Steeds and ruminants & herding": "wander off at D10 -3" per move".
pub const WANDER_DISTANCE_MODIFIER: i32 = -3;
/// 000 "Untethered Steeds and ruminants & herding": "D10 x 20 degrees".
pub const TURN_DEGREES_PER_PIP: i32 = 20;
/// 000 "Untethered Steeds and ruminants & herding": "D6 4+ right, 3- left".
pub const TURN_RIGHT_FROM: i32 = 4;
/// 000 "Untethered Steeds and ruminants & herding": catching is tried "Within 6"".
pub const CATCH_REACH_IN: f32 = 6.0;
/// 000 "Untethered Steeds and ruminants & herding": "D6 +F 6+ = caught".
pub const CATCH_TARGET: i32 = 6;
/// 000 "Untethered Steeds and ruminants & herding" > "Herding": "Animal trainers, shepherds
/// etc add 3 animals to number herded".
pub const TRAINER_EXTRA_ANIMALS: u32 = 3;
/// 000 "Neuserks, Okserks & Chuserks": an okserk attacks on "3-".
pub const OKSERK_ATTACK_AT_MOST: i32 = 3;
/// 000 "Neuserks, Okserks & Chuserks": "D10 +2 per additional stranger".
pub const OKSERK_PER_ADDITIONAL_STRANGER: i32 = 2;
/// 001 "Cattle Grids": running across, "D6 3+ OK".
pub const RUNNING_GRID_TARGET: i32 = 3;
/// 001 "Cattle Grids": a trapped beast escapes on "D6 5+".
pub const GRID_ESCAPE_TARGET: i32 = 5;
/// 001 "Cattle Grids": planks take "one man 3 rounds to emplace".
pub const PLANK_EMPLACE_ROUNDS: u32 = 3;

crate::rules::named_enum! {
    /// The beasts these rules speak of. The bull is the text's okserk example, the wolf its
    /// chuserk example; the horse is the steed.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Beast {
        /// A cow (cattle).
        Cow => "cow",
        /// A bull: herded as cattle; the text's okserk (zone 3").
        Bull => "bull",
        /// A sheep.
        Sheep => "sheep",
        /// A goat.
        Goat => "goat",
        /// A pig.
        Pig => "pig",
        /// A steed.
        Horse => "horse",
        /// A wolf: the text's chuserk (a pack of 5, zone 5"); not livestock.
        Wolf => "wolf",
    }
}

impl Beast {
    /// 001 "Cattle Grids": "normal livestock" is read as cattle (bulls included), sheep, goats,
    /// pigs and horses; the wolf is not livestock.
    pub fn is_livestock(self) -> bool {
        !matches!(self, Beast::Wolf)
    }

    /// 000 "Untethered Steeds and ruminants & herding": the horse is the steed that wanders
    /// off and is caught again.
    pub fn is_steed(self) -> bool {
        matches!(self, Beast::Horse)
    }

    /// 000 "Untethered Steeds and ruminants & herding" > "Herding": which herding row the beast
    /// uses. A bull is herded as cattle; horses and wolves have no herding row.
    pub fn herd_kind(self) -> Option<HerdKind> {
        match self {
            Beast::Cow | Beast::Bull => Some(HerdKind::Cattle),
            Beast::Sheep | Beast::Goat => Some(HerdKind::SheepAndGoats),
            Beast::Pig => Some(HerdKind::Pigs),
            Beast::Horse | Beast::Wolf => None,
        }
    }

    /// 000 "Neuserks, Okserks & Chuserks": the text's suggested zones (bull okserk 3", pack of
    /// 5 wolves chuserk 5"). Other beasts have no zone unless the scene gives one.
    pub fn zone_creature(self) -> Option<ZoneCreature> {
        match self {
            Beast::Bull => Some(ZoneCreature::bull()),
            Beast::Wolf => Some(ZoneCreature::wolf_pack()),
            Beast::Cow | Beast::Sheep | Beast::Goat | Beast::Pig | Beast::Horse => None,
        }
    }
}

/// Where the text is silent (RULES-NOTES "Where a source is silent"); each field is a setting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HerdSettings {
    /// House rule: a non-rider catching a steed takes −1. The text says catching "depends on
    /// rider's skill" and that non-riders deduct 1 from stampeding and falling dice.
    pub non_rider_catch_modifier: i32,
    /// House rule: a 2nd-level animal trainer (who "can break in wild horses") catching a steed
    /// takes +1; a rider (a 1st-level trainer) takes nothing.
    pub second_level_trainer_catch_bonus: i32,
    /// House rule: the stampede factor on a cattle grid for a beast the text does not list
    /// (horses, wolves): 0.
    pub unlisted_stampede_factor: i32,
    /// House rule: laid planks bridge the grid for livestock too. The text only says planks
    /// are needed "to allow horse drawn vehicles to cross".
    pub planks_let_livestock_cross: bool,
    /// House rule: how many moves a cattle-grid hurt ("-1" to all moves") lasts. The text gives
    /// no duration; `None` keeps it for the rest of the scene.
    pub grid_hurt_lasts_moves: Option<u32>,
    /// House rule: a trapped beast's escape attempts ("D6 5+ to escape") per move: 1.
    pub grid_escape_attempts_per_move: u32,
    /// House rule: a herder herds only while within this many inches of the nearest beast of
    /// the herd: 6". The text gives no reach.
    pub herding_reach_in: f32,
    /// House rule: how far a stampeding herd runs each move: 10". The text names stampedes
    /// (on cattle grids) but gives no speed.
    pub stampede_move_in: f32,
    /// House rule: a beast stuck on a grid ("need help to be freed") is freed by any figure
    /// that ends its move within this many inches of it: 1".
    pub free_stuck_reach_in: f32,
    /// House rule when true: creatures with a zone (bulls, wolves, a scene `zone`) wander like
    /// herds. The text has "herds & flocks" and untethered steeds wander; zone creatures hold
    /// "their zone" (000 "Neuserks, Okserks & Chuserks"), so by default they keep their place.
    pub zone_creatures_wander: bool,
    /// House rule: the least fright value (001 "Fire Strike -3 = Fright Value of fire (0 or less
    /// not used.)") at which a fire turns livestock: 1, every fright value the text uses. The
    /// text gives the value but not what it does to a herd.
    pub fire_fright_threshold: i32,
    /// House rule: which way a non-rider's "1 from ... falling dice" goes on a fall from a
    /// steed (000 "Riders & Animal Trainers"). The text says "deduct 1"; a lower fall strike is
    /// softer, so the literal reading helps the non-rider. Default: the literal `deduct`.
    pub non_rider_falling_dice: NonRiderFallingDice,
}

/// How a non-rider's "deduct ... 1 from stampeding & falling dice" (000 "Riders & Animal
/// Trainers") is read on the strike of a fall from a steed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NonRiderFallingDice {
    /// As written: −1 on the fall's strike roll (a softer fall).
    #[default]
    Deduct,
    /// House rule: +1 on the fall's strike, so the non-rider fares worse.
    AddToStrike,
}

impl Default for HerdSettings {
    fn default() -> Self {
        Self {
            non_rider_catch_modifier: -1,
            second_level_trainer_catch_bonus: 1,
            unlisted_stampede_factor: 0,
            planks_let_livestock_cross: true,
            grid_hurt_lasts_moves: None,
            grid_escape_attempts_per_move: 1,
            herding_reach_in: 6.0,
            stampede_move_in: 10.0,
            free_stuck_reach_in: 1.0,
            non_rider_falling_dice: NonRiderFallingDice::Deduct,
            zone_creatures_wander: false,
            fire_fright_threshold: 1,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Riders & animal trainers
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// A figure's riding skill (000 "Riders & Animal Trainers"): riders are 1st-level animal
    /// trainers; 2nd-level trainers can break in wild horses and control dogs and other animals.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Horsemanship {
        /// Not a rider: −1" to moves when mounted, −1 to stampeding and falling dice.
        NonRider => "non_rider",
        /// A rider: a 1st-level animal trainer.
        Rider => "rider",
        /// A 2nd-level animal trainer: can break in wild horses and control dogs and other animals.
        SecondLevelTrainer => "second_level_trainer",
    }
}

impl Horsemanship {
    /// 000 "Riders & Animal Trainers": "Non riders deduct 1" from moves" (when mounted).
    pub fn mounted_move_penalty_in(self) -> f32 {
        match self {
            Horsemanship::NonRider => 1.0,
            Horsemanship::Rider | Horsemanship::SecondLevelTrainer => 0.0,
        }
    }

    /// 000 "Riders & Animal Trainers": non-riders deduct 1 "from stampeding & falling dice".
    pub fn stampede_and_fall_modifier(self) -> i32 {
        match self {
            Horsemanship::NonRider => -1,
            Horsemanship::Rider | Horsemanship::SecondLevelTrainer => 0,
        }
    }

    /// 000 "Riders & Animal Trainers": "riders are rated as 1st level animal trainers" (so herd 3 more, 000 "Herding").
    pub fn is_animal_trainer(self) -> bool {
        !matches!(self, Horsemanship::NonRider)
    }

    /// 000 "Riders & Animal Trainers": "2nd level animal trainers can break in wild horses".
    pub fn can_break_in_wild_horses(self) -> bool {
        matches!(self, Horsemanship::SecondLevelTrainer)
    }

    /// 000 "Untethered Steeds and ruminants & herding": the catcher's skill factor (house rule).
    pub fn catch_modifier(self, settings: &HerdSettings) -> i32 {
        match self {
            Horsemanship::NonRider => settings.non_rider_catch_modifier,
            Horsemanship::Rider => 0,
            Horsemanship::SecondLevelTrainer => settings.second_level_trainer_catch_bonus,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Wandering herds and untethered steeds
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// Which way a wandering herd turns.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum TurnSide {
        /// Right (clockwise): D6 4+.
        Right => "right",
        /// Left (anticlockwise): D6 3−.
        Left => "left",
    }
}

impl TurnSide {
    /// The sign of a turn to this side: right is clockwise, positive.
    pub fn sign(self) -> i32 {
        match self {
            TurnSide::Right => 1,
            TurnSide::Left => -1,
        }
    }
}

/// 000 "Untethered Steeds and ruminants & herding": "D6 4+ right, 3- left".
pub fn turn_side_band(total: i32) -> TurnSide {
    if total >= TURN_RIGHT_FROM { TurnSide::Right } else { TurnSide::Left }
}

crate::rules::named_enum! {
    /// Whether a wandering herd went anywhere this move.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum WanderStep {
        /// "If result a minus, has not moved."
        NotMoved => "not_moved",
        /// D10 − 3 was 0 or more: the herd goes that many inches (0" on a face of 3).
        Moved => "moved",
    }
}

/// 000 "Untethered Steeds and ruminants & herding": "D10 -3" per move. If result a minus, has not moved."
pub fn wander_step_band(total: i32) -> WanderStep {
    if total < 0 { WanderStep::NotMoved } else { WanderStep::Moved }
}

/// One move of a wandering herd, flock or untethered steed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Wander {
    /// D10 − 3 (Morval D10: −3..=6).
    pub distance_roll: Roll,
    /// D6: 4+ right, 3− left. Rolled and logged even when the turn is 0°.
    pub direction_roll: Roll,
    /// D10, times 20 degrees (0..=180).
    pub turn_roll: Roll,
    /// Whether the herd moved.
    pub step: WanderStep,
    /// Which way it turned.
    pub side: TurnSide,
    /// Inches gone: the D10 − 3 total, 0 on a minus.
    pub distance_in: f32,
    /// Signed turn: positive right (clockwise), negative left.
    pub turn_degrees: i32,
    /// The heading after the turn, in `0.0..360.0`; the herd goes `distance_in` along it.
    pub new_heading: f32,
}

/// A bearing brought into `0.0..360.0` (a non-finite bearing becomes 0).
pub fn normalize_heading(degrees: f32) -> f32 {
    if !degrees.is_finite() {
        return 0.0;
    }
    let wrapped = degrees.rem_euclid(360.0);
    // rem_euclid may round a tiny negative up to exactly 360.
    if wrapped >= 360.0 { 0.0 } else { wrapped }
}

/// 000 "Untethered Steeds and ruminants & herding": loose herds, flocks and steeds wander; zone creatures only by setting.
pub fn wanders(has_zone: bool, settings: &HerdSettings) -> bool {
    !has_zone || settings.zone_creatures_wander
}

/// 000 "Untethered Steeds and ruminants & herding" (RULES-NOTES "Herd heading"): turn from the
/// current heading by D10×20°, right on D6 4+, left on 3−, then go D10−3" (nothing on a minus).
///
/// Dice are rolled in the text's order: distance D10, side D6, turn D10.
pub fn resolve_wander(heading_deg: f32, src: &mut impl DiceSource) -> Wander {
    let distance_roll = Roll::new(Dice::D10, src).modifier("wander D10 -3\"", WANDER_DISTANCE_MODIFIER);
    let direction_roll = Roll::new(Dice::D6, src);
    let turn_roll = Roll::new(Dice::D10, src);
    let step = wander_step_band(distance_roll.total);
    let side = turn_side_band(direction_roll.total);
    let distance_in = match step {
        WanderStep::NotMoved => 0.0,
        WanderStep::Moved => distance_roll.total as f32,
    };
    let turn_degrees = side.sign() * turn_roll.total * TURN_DEGREES_PER_PIP;
    let new_heading = normalize_heading(heading_deg + turn_degrees as f32);
    Wander { distance_roll, direction_roll, turn_roll, step, side, distance_in, turn_degrees, new_heading }
}

crate::rules::named_enum! {
    /// How a steed stands to the one catching it (000 "Untethered Steeds and ruminants & herding").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum MountBond {
        /// A faithful mount (+4).
        Faithful => "faithful",
        /// A usual mount (+2).
        Usual => "usual",
        /// A trained mount (+1).
        Trained => "trained",
        /// A raw mount (0).
        Raw => "raw",
    }
}

impl MountBond {
    /// 000 "Untethered Steeds and ruminants & herding" (RULES-NOTES "Catching steeds"): F is
    /// +4 faithful, +2 usual, +1 trained, 0 raw.
    pub fn factor(self) -> i32 {
        match self {
            MountBond::Faithful => 4,
            MountBond::Usual => 2,
            MountBond::Trained => 1,
            MountBond::Raw => 0,
        }
    }

    /// The reason logged with the factor.
    pub fn reason(self) -> &'static str {
        match self {
            MountBond::Faithful => "faithful mount",
            MountBond::Usual => "usual mount",
            MountBond::Trained => "trained mount",
            MountBond::Raw => "raw mount",
        }
    }
}

crate::rules::named_enum! {
    /// The result of trying to catch a wandered steed.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum CatchOutcome {
        /// 6+: caught.
        Caught => "caught",
        /// Under 6: not caught.
        NotCaught => "not_caught",
        /// Farther than 6": no attempt may be made.
        OutOfReach => "out_of_reach",
    }
}

/// 000 "Untethered Steeds and ruminants & herding": "D6 +F 6+ = caught".
pub fn catch_band(total: i32) -> CatchOutcome {
    if total >= CATCH_TARGET { CatchOutcome::Caught } else { CatchOutcome::NotCaught }
}

/// One try at catching a wandered steed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CatchAttempt {
    /// `None` when the steed was out of reach and nothing was rolled.
    pub roll: Option<Roll>,
    /// Caught, not caught, or out of reach.
    pub outcome: CatchOutcome,
}

/// 000 "Untethered Steeds and ruminants & herding": "Within 6", D6 +F 6+ = caught", F by the
/// mount's bond (RULES-NOTES "Catching steeds") and the catcher's skill (house rule).
pub fn resolve_catch(
    distance_in: f32,
    bond: MountBond,
    catcher: Horsemanship,
    settings: &HerdSettings,
    src: &mut impl DiceSource,
) -> CatchAttempt {
    if distance_in.is_nan() || distance_in > CATCH_REACH_IN {
        return CatchAttempt { roll: None, outcome: CatchOutcome::OutOfReach };
    }
    let skill_reason = match catcher {
        Horsemanship::NonRider => "non-rider (house rule)",
        Horsemanship::Rider => "rider",
        Horsemanship::SecondLevelTrainer => "2nd-level animal trainer (house rule)",
    };
    let roll = Roll::new(Dice::D6, src)
        .modifier(bond.reason(), bond.factor())
        .modifier(skill_reason, catcher.catch_modifier(settings))
        .at_least(CATCH_TARGET);
    let outcome = catch_band(roll.total);
    CatchAttempt { roll: Some(roll), outcome }
}

// ---------------------------------------------------------------------------------------------
// Herding
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// The herding rows (000 "Untethered Steeds and ruminants & herding" > "Herding").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum HerdKind {
        /// Cows (bulls too): 5" a move, 4 per herder.
        Cattle => "cattle",
        /// Sheep and goats: 4" a move, 6 per herder (8 with a dog).
        SheepAndGoats => "sheep_and_goats",
        /// Pigs: 3" a move, 5 per herder.
        Pigs => "pigs",
    }
}

impl HerdKind {
    /// 000 "Herding": "Cows 5"", "Sheep & goats 4"", "Pigs 3"", read as the rate a herded
    /// herd moves, in inches a move.
    pub fn herded_move_rate_in(self) -> f32 {
        match self {
            HerdKind::Cattle => 5.0,
            HerdKind::SheepAndGoats => 4.0,
            HerdKind::Pigs => 3.0,
        }
    }

    /// 000 "Herding": "4 per herder", "6 per herder (dog 8)", "5 per herder". The dog counts
    /// only for sheep and goats, the only row that names it.
    pub fn per_herder(self, has_dog: bool) -> u32 {
        match self {
            HerdKind::Cattle => 4,
            HerdKind::SheepAndGoats => {
                if has_dog {
                    8
                } else {
                    6
                }
            }
            HerdKind::Pigs => 5,
        }
    }
}

/// One person herding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Herder {
    /// An animal trainer, shepherd or the like: 3 more animals. A rider counts: riders "are
    /// rated as 1st level animal trainers" (000 "Riders & Animal Trainers").
    pub trainer_or_shepherd: bool,
    /// Has a dog: 8 sheep or goats per herder rather than 6.
    pub has_dog: bool,
}

/// 000 "Untethered Steeds and ruminants & herding" > "Herding": how many beasts these herders
/// can herd. `None` for a beast with no herding row (horse, wolf).
pub fn herd_capacity(beast: Beast, herders: &[Herder]) -> Option<u32> {
    let kind = beast.herd_kind()?;
    let total = herders
        .iter()
        .map(|h| kind.per_herder(h.has_dog) + if h.trainer_or_shepherd { TRAINER_EXTRA_ANIMALS } else { 0 })
        .sum::<u32>();
    Some(total)
}

/// 000 "Untethered Steeds and ruminants & herding" > "Herding": the herded move rate in inches
/// (cows 5", sheep and goats 4", pigs 3"). `None` for a beast with no herding row.
pub fn herded_move_rate(beast: Beast) -> Option<f32> {
    beast.herd_kind().map(HerdKind::herded_move_rate_in)
}

// ---------------------------------------------------------------------------------------------
// Neuserks, okserks and chuserks
// ---------------------------------------------------------------------------------------------

/// How a creature treats strangers in its zone (000 "Neuserks, Okserks & Chuserks").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Temper {
    /// Always attacks strangers within its zone.
    Neuserk,
    /// May attack: D10 + 2 per additional stranger, 3− attacks.
    Okserk,
    /// Attacks when the odds favour it: `max_strangers` or fewer within its zone.
    Chuserk {
        /// Attacks when this many strangers or fewer are within its zone (the wolf pack: 2).
        max_strangers: u32,
    },
}

impl Temper {
    /// The stable snake_case id the log writes.
    pub fn id(self) -> &'static str {
        match self {
            Temper::Neuserk => "neuserk",
            Temper::Okserk => "okserk",
            Temper::Chuserk { .. } => "chuserk",
        }
    }
}

/// A creature (or pack) with a zone in inches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneCreature {
    /// How it treats strangers in its zone.
    pub temper: Temper,
    /// Radius of its zone, in inches.
    pub zone_in: f32,
    /// How many act together (the text's wolves: 5). The chuserk odds are set by
    /// `max_strangers`; a pack that has lost members needs a new figure from the scene.
    pub pack_size: u32,
}

/// 000 "Neuserks, Okserks & Chuserks": "Move distance -1" is a suggested neuserk radius zone".
pub fn neuserk_zone_in(move_in: f32) -> f32 {
    (move_in - 1.0).max(0.0)
}

impl ZoneCreature {
    /// 000 "Neuserks, Okserks & Chuserks": a neuserk with the suggested zone, its move − 1".
    pub fn neuserk(move_in: f32) -> Self {
        Self { temper: Temper::Neuserk, zone_in: neuserk_zone_in(move_in), pack_size: 1 }
    }

    /// 000 "Neuserks, Okserks & Chuserks": "Bulls suggested Okserk distance 3"".
    pub fn bull() -> Self {
        Self { temper: Temper::Okserk, zone_in: 3.0, pack_size: 1 }
    }

    /// 000 "Neuserks, Okserks & Chuserks": "Pack of 5 wolves Chuserk 5", will attack two or
    /// less strangers".
    pub fn wolf_pack() -> Self {
        Self { temper: Temper::Chuserk { max_strangers: 2 }, zone_in: 5.0, pack_size: 5 }
    }
}

crate::rules::named_enum! {
    /// Whether a zone creature attacks.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ZoneResponse {
        /// Attacks the strangers in its zone.
        Attacks => "attacks",
        /// Does not attack (no stranger in the zone, the okserk's roll was high, or the odds are
        /// against the chuserk).
        Holds => "holds",
    }
}

/// 000 "Neuserks, Okserks & Chuserks": an okserk attacks on "3-".
pub fn okserk_band(total: i32) -> ZoneResponse {
    if total <= OKSERK_ATTACK_AT_MOST { ZoneResponse::Attacks } else { ZoneResponse::Holds }
}

/// 000 "Neuserks, Okserks & Chuserks": a chuserk attacks when there are strangers and no more
/// than `max_strangers` ("will attack two or less strangers").
pub fn chuserk_band(strangers_in_zone: u32, max_strangers: u32) -> ZoneResponse {
    if (1..=max_strangers).contains(&strangers_in_zone) { ZoneResponse::Attacks } else { ZoneResponse::Holds }
}

/// How many strangers are within the zone (a stranger exactly on the edge is within).
pub fn strangers_within(zone_in: f32, stranger_distances_in: &[f32]) -> u32 {
    stranger_distances_in.iter().filter(|&&d| d <= zone_in).count() as u32
}

/// A zone creature's decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ZoneDecision {
    /// The creature's temper.
    pub temper: Temper,
    /// How many strangers are within its zone.
    pub strangers_in_zone: u32,
    /// The okserk's D10; `None` for neuserks, chuserks and an empty zone.
    pub roll: Option<Roll>,
    /// Whether it attacks.
    pub response: ZoneResponse,
}

/// 000 "Neuserks, Okserks & Chuserks": whether the creature attacks the strangers within its
/// zone. An okserk rolls each time this is asked (the sim asks once a move while strangers
/// are in the zone).
pub fn resolve_zone_strangers(
    creature: &ZoneCreature,
    strangers_in_zone: u32,
    src: &mut impl DiceSource,
) -> ZoneDecision {
    let temper = creature.temper;
    let (roll, response) = match temper {
        Temper::Neuserk => {
            let response = if strangers_in_zone > 0 { ZoneResponse::Attacks } else { ZoneResponse::Holds };
            (None, response)
        }
        Temper::Okserk => {
            if strangers_in_zone == 0 {
                (None, ZoneResponse::Holds)
            } else {
                // Capped only so an absurd count cannot overflow; 1000 strangers is already 3-proof.
                let additional = (strangers_in_zone - 1).min(1000) as i32;
                let roll = Roll::new(Dice::D10, src)
                    .modifier("+2 per additional stranger", OKSERK_PER_ADDITIONAL_STRANGER * additional)
                    .at_most(OKSERK_ATTACK_AT_MOST);
                let response = okserk_band(roll.total);
                (Some(roll), response)
            }
        }
        Temper::Chuserk { max_strangers } => (None, chuserk_band(strangers_in_zone, max_strangers)),
    };
    ZoneDecision { temper, strangers_in_zone, roll, response }
}

/// 000 "Neuserks, Okserks & Chuserks": as [`resolve_zone_strangers`], counting the strangers
/// whose distances lie within the zone.
pub fn resolve_zone(creature: &ZoneCreature, stranger_distances_in: &[f32], src: &mut impl DiceSource) -> ZoneDecision {
    let strangers = strangers_within(creature.zone_in, stranger_distances_in);
    resolve_zone_strangers(creature, strangers, src)
}

// ---------------------------------------------------------------------------------------------
// Cattle grids
// ---------------------------------------------------------------------------------------------

/// 001 "Cattle Grids": walking across costs "men -1" women -2"" of the move.
pub fn walking_grid_loss_in(sex: Sex) -> f32 {
    match sex {
        Sex::Male => 1.0,
        Sex::Female => 2.0,
    }
}

crate::rules::named_enum! {
    /// Running across a cattle grid.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum RunningGridOutcome {
        /// 3+: OK.
        Crossed => "crossed",
        /// 2: hurt, −1" to all moves.
        HurtOneInch => "hurt_one_inch",
        /// 1: hurt, −2" to all moves.
        HurtTwoInches => "hurt_two_inches",
    }
}

impl RunningGridOutcome {
    /// The lasting penalty "to all moves", in inches.
    pub fn move_penalty_in(self) -> f32 {
        match self {
            RunningGridOutcome::Crossed => 0.0,
            RunningGridOutcome::HurtOneInch => 1.0,
            RunningGridOutcome::HurtTwoInches => 2.0,
        }
    }
}

/// 001 "Cattle Grids": "Running D6 3+ OK, 2 hurt -1" to all moves 1 -2" to all moves".
pub fn running_grid_band(total: i32) -> RunningGridOutcome {
    if total >= RUNNING_GRID_TARGET {
        RunningGridOutcome::Crossed
    } else if total == 2 {
        RunningGridOutcome::HurtOneInch
    } else {
        RunningGridOutcome::HurtTwoInches
    }
}

/// A run across a cattle grid.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunningGridResult {
    /// The D6 (3+ OK).
    pub roll: Roll,
    /// The band the roll falls in.
    pub outcome: RunningGridOutcome,
    /// Inches off all moves (0 when crossed safely).
    pub move_penalty_in: f32,
    /// How long the penalty lasts, in moves (house rule setting; `None`: rest of the scene).
    pub lasts_moves: Option<u32>,
}

/// 001 "Cattle Grids": a figure running across rolls D6, 3+ OK, 2 hurt −1", 1 hurt −2".
pub fn resolve_running_grid(settings: &HerdSettings, src: &mut impl DiceSource) -> RunningGridResult {
    running_grid_result(Roll::new(Dice::D6, src).at_least(RUNNING_GRID_TARGET), settings)
}

/// 001 "Cattle Grids": what a running figure's D6 does, read from its total as it stands (a
/// later factor, such as 001's evil eye, included): the row, the inches off all moves and how
/// long they last.
pub fn running_grid_result(roll: Roll, settings: &HerdSettings) -> RunningGridResult {
    let outcome = running_grid_band(roll.total);
    let move_penalty_in = outcome.move_penalty_in();
    let lasts_moves = match outcome {
        RunningGridOutcome::Crossed => None,
        RunningGridOutcome::HurtOneInch | RunningGridOutcome::HurtTwoInches => settings.grid_hurt_lasts_moves,
    };
    RunningGridResult { roll, outcome, move_penalty_in, lasts_moves }
}

/// 001 "Cattle Grids": "Impassable to normal livestock" (with no planks laid).
pub fn livestock_may_cross(beast: Beast) -> bool {
    !beast.is_livestock()
}

/// 001 "Cattle Grids": whether a beast may walk over the grid, planks laid or not (planks for
/// livestock are a house rule setting).
pub fn may_cross_grid(beast: Beast, planks_laid: bool, settings: &HerdSettings) -> bool {
    livestock_may_cross(beast) || (planks_laid && settings.planks_let_livestock_cross)
}

/// 001 "Cattle Grids": "Planks needed to allow horse drawn vehicles to cross".
pub fn vehicle_may_cross_grid(planks_laid: bool) -> bool {
    planks_laid
}

/// 001 "Cattle Grids": the stampede factor F with its logged reason: cows −1, sheep −2,
/// goats −2, pigs −3. A bull counts as cattle; horses and wolves are unlisted (house rule).
pub fn stampede_factor(beast: Beast, settings: &HerdSettings) -> (&'static str, i32) {
    match beast {
        Beast::Cow => ("cows", -1),
        Beast::Bull => ("cows (bull)", -1),
        Beast::Sheep => ("sheep", -2),
        Beast::Goat => ("goats", -2),
        Beast::Pig => ("pigs", -3),
        Beast::Horse => ("horse, not listed (house rule)", settings.unlisted_stampede_factor),
        Beast::Wolf => ("wolf, not listed (house rule)", settings.unlisted_stampede_factor),
    }
}

crate::rules::named_enum! {
    /// A stampeding beast on a cattle grid.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum StampedeGridOutcome {
        /// 2+: OK.
        Crossed => "crossed",
        /// 1: trapped; D6 5+ to escape, one roll per attempt.
        Trapped => "trapped",
        /// 0−: stuck, needs help to be freed.
        Stuck => "stuck",
    }
}

/// 001 "Cattle Grids": "= 2+ OK 1 trapped D6 5+ to escape 0- stuck need help to be freed".
pub fn stampede_grid_band(total: i32) -> StampedeGridOutcome {
    if total >= 2 {
        StampedeGridOutcome::Crossed
    } else if total == 1 {
        StampedeGridOutcome::Trapped
    } else {
        StampedeGridOutcome::Stuck
    }
}

/// A stampeding beast's roll on a cattle grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StampedeGridResult {
    /// The stampeding beast.
    pub beast: Beast,
    /// D6 + F (the beast's factor; −1 for a non-rider on it), 2+ OK.
    pub roll: Roll,
    /// The band the total falls in.
    pub outcome: StampedeGridOutcome,
}

/// 001 "Cattle Grids": "Stampeding beasts D6 +F"; a non-rider on the beast deducts 1 (000
/// "Riders & Animal Trainers"). `rider` is `None` for a beast nobody rides.
pub fn resolve_stampede_grid(
    beast: Beast,
    rider: Option<Horsemanship>,
    settings: &HerdSettings,
    src: &mut impl DiceSource,
) -> StampedeGridResult {
    let (reason, factor) = stampede_factor(beast, settings);
    let rider_modifier = rider.map_or(0, Horsemanship::stampede_and_fall_modifier);
    let roll =
        Roll::new(Dice::D6, src).modifier(reason, factor).modifier("non-rider mounted", rider_modifier).at_least(2);
    let outcome = stampede_grid_band(roll.total);
    StampedeGridResult { beast, roll, outcome }
}

crate::rules::named_enum! {
    /// A trapped beast's try to get free.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum GridEscapeOutcome {
        /// 5+: free of the grid.
        Escaped => "escaped",
        /// 4 or less: still trapped.
        StillTrapped => "still_trapped",
    }
}

/// 001 "Cattle Grids": a trapped beast escapes on "D6 5+".
pub fn grid_escape_band(total: i32) -> GridEscapeOutcome {
    if total >= GRID_ESCAPE_TARGET { GridEscapeOutcome::Escaped } else { GridEscapeOutcome::StillTrapped }
}

/// One escape attempt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GridEscapeResult {
    /// The D6 (5+ escapes).
    pub roll: Roll,
    /// The band the roll falls in.
    pub outcome: GridEscapeOutcome,
}

/// 001 "Cattle Grids": one try by a trapped beast, D6 5+ to escape.
pub fn resolve_grid_escape(src: &mut impl DiceSource) -> GridEscapeResult {
    let roll = Roll::new(Dice::D6, src).at_least(GRID_ESCAPE_TARGET);
    let outcome = grid_escape_band(roll.total);
    GridEscapeResult { roll, outcome }
}

/// 001 "Cattle Grids": a trapped beast's tries this move (house rule count per move), stopping
/// at the first escape.
pub fn resolve_grid_escapes_this_move(settings: &HerdSettings, src: &mut impl DiceSource) -> Vec<GridEscapeResult> {
    let mut attempts = Vec::new();
    for _ in 0..settings.grid_escape_attempts_per_move {
        let attempt = resolve_grid_escape(src);
        let escaped = attempt.outcome == GridEscapeOutcome::Escaped;
        attempts.push(attempt);
        if escaped {
            break;
        }
    }
    attempts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::{ScriptedDice, SeededDice};
    use crate::rules::stats::chi_square;

    // Chi-square critical values at p = 1e-6 by degrees of freedom: a fixed seed passing by
    // luck is not the risk; a shifted band moves whole tenths or sixths and lands far above.
    const CHI2_DF1: f64 = 23.93;
    const CHI2_DF2: f64 = 27.63;
    const CHI2_DF6: f64 = 38.26;
    const CHI2_DF9: f64 = 44.81;

    fn is_snake_case(id: &str) -> bool {
        !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c == '_')
    }

    #[test]
    fn ids_are_snake_case_and_distinct() {
        let groups: Vec<Vec<&str>> = vec![
            Beast::ALL.iter().map(|b| b.id()).collect(),
            Horsemanship::ALL.iter().map(|h| h.id()).collect(),
            TurnSide::ALL.iter().map(|s| s.id()).collect(),
            WanderStep::ALL.iter().map(|s| s.id()).collect(),
            MountBond::ALL.iter().map(|b| b.id()).collect(),
            CatchOutcome::ALL.iter().map(|o| o.id()).collect(),
            HerdKind::ALL.iter().map(|k| k.id()).collect(),
            ZoneResponse::ALL.iter().map(|r| r.id()).collect(),
            RunningGridOutcome::ALL.iter().map(|o| o.id()).collect(),
            StampedeGridOutcome::ALL.iter().map(|o| o.id()).collect(),
            GridEscapeOutcome::ALL.iter().map(|o| o.id()).collect(),
            vec![Temper::Neuserk.id(), Temper::Okserk.id(), Temper::Chuserk { max_strangers: 2 }.id()],
        ];
        for ids in groups {
            for (i, id) in ids.iter().enumerate() {
                assert!(is_snake_case(id), "{id} is not snake_case");
                assert!(!ids[i + 1..].contains(id), "{id} repeated");
            }
        }
    }

    #[test]
    fn settings_defaults_and_serde() {
        let s = HerdSettings::default();
        assert_eq!(s.non_rider_catch_modifier, -1);
        assert_eq!(s.second_level_trainer_catch_bonus, 1);
        assert_eq!(s.unlisted_stampede_factor, 0);
        assert!(s.planks_let_livestock_cross);
        assert_eq!(s.grid_hurt_lasts_moves, None);
        assert_eq!(s.grid_escape_attempts_per_move, 1);
        assert_eq!((s.herding_reach_in, s.stampede_move_in, s.free_stuck_reach_in), (6.0, 10.0, 1.0));
        let json = serde_json::to_string(&s).unwrap();
        let back: HerdSettings = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        let partial: HerdSettings = serde_json::from_str(r#"{"unlisted_stampede_factor": -1}"#).unwrap();
        assert_eq!(partial.unlisted_stampede_factor, -1);
        assert_eq!(partial.non_rider_catch_modifier, -1);
        assert!(serde_json::from_str::<HerdSettings>(r#"{"no_such_rule": 1}"#).is_err());
    }

    // ----- riders -----

    #[test]
    fn riders_and_trainers() {
        assert_eq!(Horsemanship::NonRider.mounted_move_penalty_in(), 1.0);
        assert_eq!(Horsemanship::Rider.mounted_move_penalty_in(), 0.0);
        assert_eq!(Horsemanship::SecondLevelTrainer.mounted_move_penalty_in(), 0.0);
        assert_eq!(Horsemanship::NonRider.stampede_and_fall_modifier(), -1);
        assert_eq!(Horsemanship::Rider.stampede_and_fall_modifier(), 0);
        assert_eq!(Horsemanship::SecondLevelTrainer.stampede_and_fall_modifier(), 0);
        assert!(!Horsemanship::NonRider.can_break_in_wild_horses());
        assert!(!Horsemanship::Rider.can_break_in_wild_horses());
        assert!(Horsemanship::SecondLevelTrainer.can_break_in_wild_horses());
        let s = HerdSettings::default();
        assert_eq!(Horsemanship::NonRider.catch_modifier(&s), -1);
        assert_eq!(Horsemanship::Rider.catch_modifier(&s), 0);
        assert_eq!(Horsemanship::SecondLevelTrainer.catch_modifier(&s), 1);
    }

    #[test]
    fn beasts_classified() {
        for beast in Beast::ALL {
            assert_eq!(beast.is_livestock(), beast != Beast::Wolf, "{}", beast.id());
            assert_eq!(beast.is_steed(), beast == Beast::Horse, "{}", beast.id());
        }
        assert_eq!(Beast::Cow.herd_kind(), Some(HerdKind::Cattle));
        assert_eq!(Beast::Bull.herd_kind(), Some(HerdKind::Cattle));
        assert_eq!(Beast::Sheep.herd_kind(), Some(HerdKind::SheepAndGoats));
        assert_eq!(Beast::Goat.herd_kind(), Some(HerdKind::SheepAndGoats));
        assert_eq!(Beast::Pig.herd_kind(), Some(HerdKind::Pigs));
        assert_eq!(Beast::Horse.herd_kind(), None);
        assert_eq!(Beast::Wolf.herd_kind(), None);
        assert_eq!(Beast::Bull.zone_creature(), Some(ZoneCreature::bull()));
        assert_eq!(Beast::Wolf.zone_creature(), Some(ZoneCreature::wolf_pack()));
        for beast in [Beast::Cow, Beast::Sheep, Beast::Goat, Beast::Pig, Beast::Horse] {
            assert_eq!(beast.zone_creature(), None);
        }
    }

    // ----- wandering -----

    #[test]
    fn wander_side_band_rows() {
        for total in 1..=3 {
            assert_eq!(turn_side_band(total), TurnSide::Left, "{total}");
        }
        for total in 4..=6 {
            assert_eq!(turn_side_band(total), TurnSide::Right, "{total}");
        }
    }

    #[test]
    fn wander_step_band_rows() {
        for total in -3..=-1 {
            assert_eq!(wander_step_band(total), WanderStep::NotMoved, "{total}");
        }
        for total in 0..=6 {
            assert_eq!(wander_step_band(total), WanderStep::Moved, "{total}");
        }
    }

    #[test]
    fn wander_distance_every_face() {
        // Faces: distance D10, side D6, turn D10.
        for face in 0..=9u32 {
            let mut dice = ScriptedDice::faces([face, 4, 1]);
            let w = resolve_wander(0.0, &mut dice);
            assert!(dice.is_empty());
            let d = face as i32 - 3;
            assert_eq!(w.distance_roll.total, d);
            assert_eq!(w.distance_roll.modifiers.len(), 1);
            assert_eq!(w.distance_roll.modifiers[0].value, -3);
            if d < 0 {
                assert_eq!(w.step, WanderStep::NotMoved);
                assert_eq!(w.distance_in, 0.0);
            } else {
                assert_eq!(w.step, WanderStep::Moved);
                assert_eq!(w.distance_in, d as f32);
            }
        }
    }

    #[test]
    fn wander_turns_and_heading() {
        // Zero turn: the side is still rolled and logged; heading unchanged.
        let w = resolve_wander(90.0, &mut ScriptedDice::faces([5, 4, 0]));
        assert_eq!(w.direction_roll.faces, vec![4]);
        assert_eq!(w.side, TurnSide::Right);
        assert_eq!(w.turn_degrees, 0);
        assert_eq!(w.new_heading, 90.0);
        let w = resolve_wander(90.0, &mut ScriptedDice::faces([5, 3, 0]));
        assert_eq!(w.direction_roll.faces, vec![3]);
        assert_eq!(w.side, TurnSide::Left);
        assert_eq!(w.turn_degrees, 0);
        // Side boundary 3/4 and the largest turn, 9 × 20 = 180.
        let w = resolve_wander(0.0, &mut ScriptedDice::faces([5, 4, 9]));
        assert_eq!(w.turn_degrees, 180);
        assert_eq!(w.new_heading, 180.0);
        let w = resolve_wander(0.0, &mut ScriptedDice::faces([5, 3, 9]));
        assert_eq!(w.turn_degrees, -180);
        assert_eq!(w.new_heading, 180.0);
        // Right is clockwise and wraps past north; left wraps below 0.
        let w = resolve_wander(350.0, &mut ScriptedDice::faces([5, 6, 2]));
        assert_eq!(w.turn_degrees, 40);
        assert_eq!(w.new_heading, 30.0);
        let w = resolve_wander(10.0, &mut ScriptedDice::faces([5, 1, 3]));
        assert_eq!(w.turn_degrees, -60);
        assert_eq!(w.new_heading, 310.0);
        // The turn roll carries no modifiers: ×20 is a scale, not a factor.
        assert!(w.turn_roll.modifiers.is_empty());
        assert_eq!(w.turn_roll.total, 3);
    }

    #[test]
    fn headings_normalise() {
        assert_eq!(normalize_heading(0.0), 0.0);
        assert_eq!(normalize_heading(360.0), 0.0);
        assert_eq!(normalize_heading(-20.0), 340.0);
        assert_eq!(normalize_heading(725.0), 5.0);
        assert_eq!(normalize_heading(f32::NAN), 0.0);
        assert_eq!(normalize_heading(f32::INFINITY), 0.0);
        let tiny = normalize_heading(-1e-9);
        assert!((0.0..360.0).contains(&tiny));
    }

    #[test]
    fn wander_distance_distribution_matches_the_text() {
        // The text, from the Morval D10 faces 0..=9: D10 − 3 gives −3..=6. "A minus" (faces
        // 0, 1, 2) means not moved: 3 in 10. Face 3 gives 0", which also covers no ground, so
        // 4 in 10 moves leave the herd where it stood; each of 1"..6" is 1 in 10.
        let mut expected_count = [0u32; 7];
        let mut expected_minus = 0u32;
        for face in 0..=9i32 {
            let total = face - 3;
            if total < 0 {
                expected_minus += 1;
                expected_count[0] += 1;
            } else {
                expected_count[total as usize] += 1;
            }
        }
        assert_eq!(expected_minus, 3);
        assert_eq!(expected_count[0], 4);
        let expected: Vec<f64> = expected_count.iter().map(|&c| f64::from(c) / 10.0).collect();

        let trials = 20_000u32;
        let mut src = SeededDice::new(0x4E5D_0001);
        let mut observed = [0u32; 7];
        let mut minus = 0u32;
        for _ in 0..trials {
            let w = resolve_wander(0.0, &mut src);
            if w.step == WanderStep::NotMoved {
                minus += 1;
            }
            assert_eq!(w.distance_in, w.distance_in.round());
            observed[w.distance_in.round() as usize] += 1;
        }
        let minus_share = f64::from(minus) / f64::from(trials);
        let zero_share = f64::from(observed[0]) / f64::from(trials);
        assert!((minus_share - 0.3).abs() < 0.02, "minus share {minus_share}");
        assert!((zero_share - 0.4).abs() < 0.02, "zero-distance share {zero_share}");
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI2_DF6, "chi-square {chi} for {observed:?}");
    }

    #[test]
    fn wander_turn_distribution_matches_the_text() {
        // Magnitude: D10 (0..=9) × 20 degrees, each of 0, 20, ..., 180 one in ten.
        let mut expected_magnitude = [0u32; 10];
        for face in 0..=9usize {
            let degrees = face * 20;
            expected_magnitude[degrees / 20] += 1;
        }
        let expected_magnitude: Vec<f64> = expected_magnitude.iter().map(|&c| f64::from(c) / 10.0).collect();
        // Side: D6 faces 1..=6, right on 4+.
        let right_faces = (1..=6).filter(|&f| f >= 4).count() as f64;
        let expected_side = [right_faces / 6.0, 1.0 - right_faces / 6.0];

        let trials = 20_000u32;
        let mut src = SeededDice::new(0x4E5D_0002);
        let mut magnitude = [0u32; 10];
        let mut sides = [0u32; 2];
        for _ in 0..trials {
            let w = resolve_wander(90.0, &mut src);
            let m = w.turn_degrees.abs();
            assert_eq!(m % 20, 0);
            magnitude[(m / 20) as usize] += 1;
            let right = w.direction_roll.total >= 4;
            assert_eq!(w.side == TurnSide::Right, right);
            if right {
                sides[0] += 1;
                assert!(w.turn_degrees >= 0);
            } else {
                sides[1] += 1;
                assert!(w.turn_degrees <= 0);
            }
            assert_eq!(w.new_heading, (90 + w.turn_degrees).rem_euclid(360) as f32);
        }
        let chi = chi_square(&magnitude, &expected_magnitude);
        assert!(chi < CHI2_DF9, "turn magnitude chi-square {chi} for {magnitude:?}");
        let chi = chi_square(&sides, &expected_side);
        assert!(chi < CHI2_DF1, "side chi-square {chi} for {sides:?}");
        let right_share = f64::from(sides[0]) / f64::from(trials);
        assert!((right_share - 0.5).abs() < 0.02, "right share {right_share}");
    }

    // ----- catching steeds -----

    #[test]
    fn catch_band_boundary() {
        assert_eq!(catch_band(5), CatchOutcome::NotCaught);
        assert_eq!(catch_band(6), CatchOutcome::Caught);
        assert_eq!(catch_band(10), CatchOutcome::Caught);
        assert_eq!(catch_band(0), CatchOutcome::NotCaught);
    }

    #[test]
    fn catch_targets_by_bond_for_a_rider() {
        let s = HerdSettings::default();
        // (bond, F, lowest face that catches): 6 − F.
        for (bond, factor, lowest) in [
            (MountBond::Faithful, 4, 2u32),
            (MountBond::Usual, 2, 4),
            (MountBond::Trained, 1, 5),
            (MountBond::Raw, 0, 6),
        ] {
            assert_eq!(bond.factor(), factor);
            let hit = resolve_catch(3.0, bond, Horsemanship::Rider, &s, &mut ScriptedDice::faces([lowest]));
            assert_eq!(hit.outcome, CatchOutcome::Caught, "{}", bond.id());
            let roll = hit.roll.as_ref().unwrap();
            assert_eq!(roll.total, 6);
            assert_eq!(roll.passed(), Some(true));
            if factor != 0 {
                assert_eq!(roll.modifiers[0].reason, bond.reason());
                assert_eq!(roll.modifiers[0].value, factor);
            } else {
                assert!(roll.modifiers.is_empty());
            }
            if lowest > 1 {
                let miss = resolve_catch(3.0, bond, Horsemanship::Rider, &s, &mut ScriptedDice::faces([lowest - 1]));
                assert_eq!(miss.outcome, CatchOutcome::NotCaught, "{}", bond.id());
                assert_eq!(miss.roll.as_ref().unwrap().total, 5);
            }
        }
    }

    #[test]
    fn catch_skill_modifiers() {
        let s = HerdSettings::default();
        // Non-rider −1: faithful needs 3, raw can never be caught.
        let a = resolve_catch(1.0, MountBond::Faithful, Horsemanship::NonRider, &s, &mut ScriptedDice::faces([3]));
        assert_eq!(a.outcome, CatchOutcome::Caught);
        let roll = a.roll.as_ref().unwrap();
        assert_eq!(roll.modifiers.len(), 2);
        assert_eq!(roll.modifiers[1].value, -1);
        assert_eq!(roll.modifiers[1].reason, "non-rider (house rule)");
        let a = resolve_catch(1.0, MountBond::Faithful, Horsemanship::NonRider, &s, &mut ScriptedDice::faces([2]));
        assert_eq!(a.outcome, CatchOutcome::NotCaught);
        let a = resolve_catch(1.0, MountBond::Raw, Horsemanship::NonRider, &s, &mut ScriptedDice::faces([6]));
        assert_eq!(a.outcome, CatchOutcome::NotCaught);
        assert_eq!(a.roll.as_ref().unwrap().total, 5);
        // 2nd-level trainer +1: raw needs 5.
        let a = resolve_catch(1.0, MountBond::Raw, Horsemanship::SecondLevelTrainer, &s, &mut ScriptedDice::faces([5]));
        assert_eq!(a.outcome, CatchOutcome::Caught);
        assert_eq!(a.roll.as_ref().unwrap().modifiers[0].reason, "2nd-level animal trainer (house rule)");
        let a = resolve_catch(1.0, MountBond::Raw, Horsemanship::SecondLevelTrainer, &s, &mut ScriptedDice::faces([4]));
        assert_eq!(a.outcome, CatchOutcome::NotCaught);
        // The settings are honoured.
        let strict = HerdSettings { non_rider_catch_modifier: -2, ..HerdSettings::default() };
        let a = resolve_catch(1.0, MountBond::Faithful, Horsemanship::NonRider, &strict, &mut ScriptedDice::faces([3]));
        assert_eq!(a.outcome, CatchOutcome::NotCaught);
    }

    #[test]
    fn catch_reach_is_six_inches() {
        let s = HerdSettings::default();
        let a = resolve_catch(6.0, MountBond::Faithful, Horsemanship::Rider, &s, &mut ScriptedDice::faces([6]));
        assert_eq!(a.outcome, CatchOutcome::Caught);
        // Beyond 6" nothing is rolled: an empty script would panic if it were.
        let mut none = ScriptedDice::faces(Vec::<u32>::new());
        let a = resolve_catch(6.01, MountBond::Faithful, Horsemanship::Rider, &s, &mut none);
        assert_eq!(a, CatchAttempt { roll: None, outcome: CatchOutcome::OutOfReach });
        let a = resolve_catch(f32::NAN, MountBond::Faithful, Horsemanship::Rider, &s, &mut none);
        assert_eq!(a.outcome, CatchOutcome::OutOfReach);
    }

    #[test]
    fn catch_distribution_usual_mount() {
        // D6 + 2 for a usual mount, 6+: faces 4, 5, 6 → 3 in 6.
        let caught_faces = (1..=6).filter(|&f| f + 2 >= 6).count() as f64;
        let p = caught_faces / 6.0;
        let trials = 12_000u32;
        let mut src = SeededDice::new(0x4E5D_0003);
        let s = HerdSettings::default();
        let mut counts = [0u32; 2];
        for _ in 0..trials {
            match resolve_catch(2.0, MountBond::Usual, Horsemanship::Rider, &s, &mut src).outcome {
                CatchOutcome::Caught => counts[0] += 1,
                CatchOutcome::NotCaught => counts[1] += 1,
                CatchOutcome::OutOfReach => panic!("within reach"),
            }
        }
        let chi = chi_square(&counts, &[p, 1.0 - p]);
        assert!(chi < CHI2_DF1, "chi-square {chi} for {counts:?}");
    }

    #[test]
    fn zone_creatures_keep_their_place_unless_set() {
        let s = HerdSettings::default();
        assert!(!s.zone_creatures_wander);
        assert!(wanders(false, &s), "herds, flocks and steeds wander");
        assert!(!wanders(true, &s), "a bull or wolf pack holds its zone");
        let set = HerdSettings { zone_creatures_wander: true, ..HerdSettings::default() };
        assert!(wanders(true, &set));
    }

    // ----- herding -----

    #[test]
    fn herding_rows() {
        let plain = Herder::default();
        let trainer = Herder { trainer_or_shepherd: true, has_dog: false };
        let dog = Herder { trainer_or_shepherd: false, has_dog: true };
        let shepherd_and_dog = Herder { trainer_or_shepherd: true, has_dog: true };
        // Cows 4 per herder.
        assert_eq!(herd_capacity(Beast::Cow, &[plain]), Some(4));
        assert_eq!(herd_capacity(Beast::Cow, &[plain, plain]), Some(8));
        assert_eq!(herd_capacity(Beast::Cow, &[trainer]), Some(7));
        assert_eq!(herd_capacity(Beast::Cow, &[dog]), Some(4));
        assert_eq!(herd_capacity(Beast::Bull, &[plain]), Some(4));
        // Sheep & goats 6 per herder, 8 with a dog, +3 for a shepherd.
        for beast in [Beast::Sheep, Beast::Goat] {
            assert_eq!(herd_capacity(beast, &[plain]), Some(6));
            assert_eq!(herd_capacity(beast, &[dog]), Some(8));
            assert_eq!(herd_capacity(beast, &[trainer]), Some(9));
            assert_eq!(herd_capacity(beast, &[shepherd_and_dog]), Some(11));
            assert_eq!(herd_capacity(beast, &[plain, dog, shepherd_and_dog]), Some(25));
        }
        // Pigs 5 per herder.
        assert_eq!(herd_capacity(Beast::Pig, &[plain]), Some(5));
        assert_eq!(herd_capacity(Beast::Pig, &[trainer]), Some(8));
        assert_eq!(herd_capacity(Beast::Pig, &[dog]), Some(5));
        // Nobody herding, and beasts without a row.
        assert_eq!(herd_capacity(Beast::Cow, &[]), Some(0));
        assert_eq!(herd_capacity(Beast::Horse, &[plain]), None);
        assert_eq!(herd_capacity(Beast::Wolf, &[plain]), None);
    }

    #[test]
    fn a_rider_herds_three_more() {
        // Riders are 1st-level animal trainers; trainers "add 3 animals to number herded".
        assert!(!Horsemanship::NonRider.is_animal_trainer());
        assert!(Horsemanship::Rider.is_animal_trainer());
        assert!(Horsemanship::SecondLevelTrainer.is_animal_trainer());
        let rider = Herder { trainer_or_shepherd: Horsemanship::Rider.is_animal_trainer(), has_dog: false };
        let rider_with_dog = Herder { has_dog: true, ..rider };
        assert_eq!(herd_capacity(Beast::Cow, &[rider]), Some(4 + 3));
        assert_eq!(herd_capacity(Beast::Sheep, &[rider_with_dog]), Some(8 + 3));
        assert_eq!(herd_capacity(Beast::Pig, &[rider]), Some(5 + 3));
    }

    #[test]
    fn herded_move_rates() {
        assert_eq!(herded_move_rate(Beast::Cow), Some(5.0));
        assert_eq!(herded_move_rate(Beast::Bull), Some(5.0));
        assert_eq!(herded_move_rate(Beast::Sheep), Some(4.0));
        assert_eq!(herded_move_rate(Beast::Goat), Some(4.0));
        assert_eq!(herded_move_rate(Beast::Pig), Some(3.0));
        assert_eq!(herded_move_rate(Beast::Horse), None);
        assert_eq!(herded_move_rate(Beast::Wolf), None);
    }

    // ----- zone creatures -----

    #[test]
    fn neuserk_always_attacks_within_its_zone() {
        assert_eq!(neuserk_zone_in(6.0), 5.0);
        assert_eq!(neuserk_zone_in(0.5), 0.0);
        let dog = ZoneCreature::neuserk(6.0);
        assert_eq!(dog.zone_in, 5.0);
        let mut none = ScriptedDice::faces(Vec::<u32>::new());
        let d = resolve_zone(&dog, &[5.0], &mut none);
        assert_eq!(d.response, ZoneResponse::Attacks);
        assert_eq!(d.roll, None);
        let d = resolve_zone(&dog, &[5.1, 9.0], &mut none);
        assert_eq!(d.strangers_in_zone, 0);
        assert_eq!(d.response, ZoneResponse::Holds);
        let d = resolve_zone(&dog, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], &mut none);
        assert_eq!(d.strangers_in_zone, 5);
        assert_eq!(d.response, ZoneResponse::Attacks);
    }

    #[test]
    fn okserk_band_boundary() {
        assert_eq!(okserk_band(3), ZoneResponse::Attacks);
        assert_eq!(okserk_band(4), ZoneResponse::Holds);
        assert_eq!(okserk_band(0), ZoneResponse::Attacks);
    }

    #[test]
    fn okserk_with_one_two_three_strangers() {
        let bull = ZoneCreature::bull();
        assert_eq!(bull.zone_in, 3.0);
        // One stranger: D10, attack on 3−.
        let d = resolve_zone_strangers(&bull, 1, &mut ScriptedDice::faces([3]));
        assert_eq!(d.response, ZoneResponse::Attacks);
        assert!(d.roll.as_ref().unwrap().modifiers.is_empty());
        let d = resolve_zone_strangers(&bull, 1, &mut ScriptedDice::faces([4]));
        assert_eq!(d.response, ZoneResponse::Holds);
        // Two strangers: +2, attack on faces 0, 1.
        let d = resolve_zone_strangers(&bull, 2, &mut ScriptedDice::faces([1]));
        assert_eq!(d.response, ZoneResponse::Attacks);
        let roll = d.roll.as_ref().unwrap();
        assert_eq!(roll.total, 3);
        assert_eq!(roll.modifiers[0].reason, "+2 per additional stranger");
        assert_eq!(roll.modifiers[0].value, 2);
        let d = resolve_zone_strangers(&bull, 2, &mut ScriptedDice::faces([2]));
        assert_eq!(d.response, ZoneResponse::Holds);
        // Three strangers: +4, even a 0 gives 4: never attacks.
        let d = resolve_zone_strangers(&bull, 3, &mut ScriptedDice::faces([0]));
        assert_eq!(d.response, ZoneResponse::Holds);
        assert_eq!(d.roll.as_ref().unwrap().modifiers[0].value, 4);
        // Nobody in the zone: no roll.
        let d = resolve_zone_strangers(&bull, 0, &mut ScriptedDice::faces(Vec::<u32>::new()));
        assert_eq!(d.response, ZoneResponse::Holds);
        assert_eq!(d.roll, None);
        // Zone edge at 3".
        let d = resolve_zone(&bull, &[3.0, 3.5], &mut ScriptedDice::faces([0]));
        assert_eq!(d.strangers_in_zone, 1);
        assert_eq!(d.response, ZoneResponse::Attacks);
        // An absurd crowd does not overflow.
        let d = resolve_zone_strangers(&bull, u32::MAX, &mut ScriptedDice::faces([0]));
        assert_eq!(d.response, ZoneResponse::Holds);
    }

    #[test]
    fn okserk_attack_rates() {
        // D10 faces 0..=9, + 2 per additional stranger, attack on 3−.
        let trials = 20_000u32;
        let mut src = SeededDice::new(0x4E5D_0004);
        let bull = ZoneCreature::bull();
        for strangers in 1..=3u32 {
            let attack_faces = (0..=9).filter(|&f| f + 2 * (strangers as i32 - 1) <= 3).count();
            let expected = attack_faces as f64 / 10.0;
            let attacks = (0..trials)
                .filter(|_| resolve_zone_strangers(&bull, strangers, &mut src).response == ZoneResponse::Attacks)
                .count();
            let share = attacks as f64 / f64::from(trials);
            assert!((share - expected).abs() < 0.02, "{strangers} strangers: {share} vs {expected}");
        }
    }

    #[test]
    fn chuserk_wolves_two_or_fewer() {
        let wolves = ZoneCreature::wolf_pack();
        assert_eq!(wolves.zone_in, 5.0);
        assert_eq!(wolves.pack_size, 5);
        assert_eq!(wolves.temper, Temper::Chuserk { max_strangers: 2 });
        assert_eq!(chuserk_band(0, 2), ZoneResponse::Holds);
        assert_eq!(chuserk_band(1, 2), ZoneResponse::Attacks);
        assert_eq!(chuserk_band(2, 2), ZoneResponse::Attacks);
        assert_eq!(chuserk_band(3, 2), ZoneResponse::Holds);
        let mut none = ScriptedDice::faces(Vec::<u32>::new());
        let d = resolve_zone(&wolves, &[5.0, 4.0, 5.5], &mut none);
        assert_eq!(d.strangers_in_zone, 2);
        assert_eq!(d.response, ZoneResponse::Attacks);
        assert_eq!(d.roll, None);
        let d = resolve_zone(&wolves, &[5.0, 4.0, 1.0], &mut none);
        assert_eq!(d.strangers_in_zone, 3);
        assert_eq!(d.response, ZoneResponse::Holds);
        let d = resolve_zone(&wolves, &[], &mut none);
        assert_eq!(d.response, ZoneResponse::Holds);
    }

    // ----- cattle grids -----

    #[test]
    fn walking_over_a_grid() {
        assert_eq!(walking_grid_loss_in(Sex::Male), 1.0);
        assert_eq!(walking_grid_loss_in(Sex::Female), 2.0);
    }

    #[test]
    fn running_grid_rows() {
        for total in 3..=6 {
            assert_eq!(running_grid_band(total), RunningGridOutcome::Crossed, "{total}");
        }
        assert_eq!(running_grid_band(2), RunningGridOutcome::HurtOneInch);
        assert_eq!(running_grid_band(1), RunningGridOutcome::HurtTwoInches);
        let s = HerdSettings::default();
        let r = resolve_running_grid(&s, &mut ScriptedDice::faces([3]));
        assert_eq!((r.outcome, r.move_penalty_in, r.lasts_moves), (RunningGridOutcome::Crossed, 0.0, None));
        assert_eq!(r.roll.passed(), Some(true));
        let r = resolve_running_grid(&s, &mut ScriptedDice::faces([2]));
        assert_eq!((r.outcome, r.move_penalty_in), (RunningGridOutcome::HurtOneInch, 1.0));
        assert_eq!(r.roll.passed(), Some(false));
        let r = resolve_running_grid(&s, &mut ScriptedDice::faces([1]));
        assert_eq!((r.outcome, r.move_penalty_in), (RunningGridOutcome::HurtTwoInches, 2.0));
        let timed = HerdSettings { grid_hurt_lasts_moves: Some(20), ..HerdSettings::default() };
        let r = resolve_running_grid(&timed, &mut ScriptedDice::faces([1]));
        assert_eq!(r.lasts_moves, Some(20));
        let r = resolve_running_grid(&timed, &mut ScriptedDice::faces([6]));
        assert_eq!(r.lasts_moves, None);
        // A factor added after the roll (001's evil eye, −1) moves a 3 to "2 hurt −1"".
        let mut roll = resolve_running_grid(&timed, &mut ScriptedDice::faces([3])).roll;
        roll.add("evil eye curse", -1);
        let r = running_grid_result(roll, &timed);
        assert_eq!((r.outcome, r.move_penalty_in, r.lasts_moves), (RunningGridOutcome::HurtOneInch, 1.0, Some(20)));
        assert_eq!(r.roll.passed(), Some(false));
    }

    #[test]
    fn grid_passability() {
        let s = HerdSettings::default();
        for beast in [Beast::Cow, Beast::Bull, Beast::Sheep, Beast::Goat, Beast::Pig, Beast::Horse] {
            assert!(!livestock_may_cross(beast), "{}", beast.id());
            assert!(!may_cross_grid(beast, false, &s), "{}", beast.id());
            assert!(may_cross_grid(beast, true, &s), "{}", beast.id());
        }
        assert!(livestock_may_cross(Beast::Wolf));
        assert!(may_cross_grid(Beast::Wolf, false, &s));
        let vehicles_only = HerdSettings { planks_let_livestock_cross: false, ..HerdSettings::default() };
        assert!(!may_cross_grid(Beast::Cow, true, &vehicles_only));
        assert!(vehicle_may_cross_grid(true));
        assert!(!vehicle_may_cross_grid(false));
    }

    #[test]
    fn stampede_factors() {
        let s = HerdSettings::default();
        assert_eq!(stampede_factor(Beast::Cow, &s).1, -1);
        assert_eq!(stampede_factor(Beast::Bull, &s).1, -1);
        assert_eq!(stampede_factor(Beast::Sheep, &s).1, -2);
        assert_eq!(stampede_factor(Beast::Goat, &s).1, -2);
        assert_eq!(stampede_factor(Beast::Pig, &s).1, -3);
        assert_eq!(stampede_factor(Beast::Horse, &s).1, 0);
        assert_eq!(stampede_factor(Beast::Wolf, &s).1, 0);
        let other = HerdSettings { unlisted_stampede_factor: -1, ..HerdSettings::default() };
        assert_eq!(stampede_factor(Beast::Horse, &other).1, -1);
    }

    #[test]
    fn stampede_band_rows() {
        assert_eq!(stampede_grid_band(6), StampedeGridOutcome::Crossed);
        assert_eq!(stampede_grid_band(2), StampedeGridOutcome::Crossed);
        assert_eq!(stampede_grid_band(1), StampedeGridOutcome::Trapped);
        assert_eq!(stampede_grid_band(0), StampedeGridOutcome::Stuck);
        assert_eq!(stampede_grid_band(-3), StampedeGridOutcome::Stuck);
    }

    #[test]
    fn stampede_each_beast_at_its_boundaries() {
        let s = HerdSettings::default();
        // (beast, face giving exactly 2): 2 − F.
        for (beast, crossing_face) in [
            (Beast::Cow, 3u32),
            (Beast::Bull, 3),
            (Beast::Sheep, 4),
            (Beast::Goat, 4),
            (Beast::Pig, 5),
            (Beast::Horse, 2),
        ] {
            let r = resolve_stampede_grid(beast, None, &s, &mut ScriptedDice::faces([crossing_face]));
            assert_eq!((r.roll.total, r.outcome), (2, StampedeGridOutcome::Crossed), "{}", beast.id());
            let r = resolve_stampede_grid(beast, None, &s, &mut ScriptedDice::faces([crossing_face - 1]));
            assert_eq!((r.roll.total, r.outcome), (1, StampedeGridOutcome::Trapped), "{}", beast.id());
            if crossing_face >= 3 {
                let r = resolve_stampede_grid(beast, None, &s, &mut ScriptedDice::faces([crossing_face - 2]));
                assert_eq!((r.roll.total, r.outcome), (0, StampedeGridOutcome::Stuck), "{}", beast.id());
            }
        }
        let r = resolve_stampede_grid(Beast::Pig, None, &s, &mut ScriptedDice::faces([3]));
        assert_eq!(r.roll.modifiers[0].reason, "pigs");
        assert_eq!(r.roll.modifiers[0].value, -3);
    }

    #[test]
    fn stampede_non_rider_mounted() {
        let s = HerdSettings::default();
        // An unridden or well-ridden horse (F 0) can never be stuck; a non-rider's −1 makes a 1 stuck.
        let r = resolve_stampede_grid(Beast::Horse, Some(Horsemanship::Rider), &s, &mut ScriptedDice::faces([1]));
        assert_eq!(r.outcome, StampedeGridOutcome::Trapped);
        assert!(r.roll.modifiers.is_empty());
        let r = resolve_stampede_grid(Beast::Horse, Some(Horsemanship::NonRider), &s, &mut ScriptedDice::faces([1]));
        assert_eq!(r.outcome, StampedeGridOutcome::Stuck);
        assert_eq!(r.roll.modifiers.len(), 1);
        assert_eq!(r.roll.modifiers[0].reason, "non-rider mounted");
        assert_eq!(r.roll.modifiers[0].value, -1);
        let r = resolve_stampede_grid(Beast::Horse, Some(Horsemanship::NonRider), &s, &mut ScriptedDice::faces([2]));
        assert_eq!(r.outcome, StampedeGridOutcome::Trapped);
        let r = resolve_stampede_grid(Beast::Horse, Some(Horsemanship::NonRider), &s, &mut ScriptedDice::faces([3]));
        assert_eq!(r.outcome, StampedeGridOutcome::Crossed);
        let r = resolve_stampede_grid(Beast::Cow, Some(Horsemanship::NonRider), &s, &mut ScriptedDice::faces([4]));
        assert_eq!((r.roll.total, r.outcome), (2, StampedeGridOutcome::Crossed));
        let r = resolve_stampede_grid(
            Beast::Cow,
            Some(Horsemanship::SecondLevelTrainer),
            &s,
            &mut ScriptedDice::faces([3]),
        );
        assert_eq!((r.roll.total, r.outcome), (2, StampedeGridOutcome::Crossed));
    }

    #[test]
    fn stampede_distribution_pigs() {
        // D6 faces 1..=6 − 3 for pigs: 2+ crossed (5, 6), 1 trapped (4), 0− stuck (1, 2, 3).
        let mut expected = [0u32; 3];
        for face in 1..=6i32 {
            let total = face - 3;
            let row = if total >= 2 {
                0
            } else if total == 1 {
                1
            } else {
                2
            };
            expected[row] += 1;
        }
        let expected: Vec<f64> = expected.iter().map(|&c| f64::from(c) / 6.0).collect();
        let trials = 12_000u32;
        let mut src = SeededDice::new(0x4E5D_0005);
        let s = HerdSettings::default();
        let mut observed = [0u32; 3];
        for _ in 0..trials {
            let row = match resolve_stampede_grid(Beast::Pig, None, &s, &mut src).outcome {
                StampedeGridOutcome::Crossed => 0,
                StampedeGridOutcome::Trapped => 1,
                StampedeGridOutcome::Stuck => 2,
            };
            observed[row] += 1;
        }
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI2_DF2, "chi-square {chi} for {observed:?}");
    }

    #[test]
    fn trapped_beast_escapes_on_five() {
        assert_eq!(grid_escape_band(4), GridEscapeOutcome::StillTrapped);
        assert_eq!(grid_escape_band(5), GridEscapeOutcome::Escaped);
        assert_eq!(grid_escape_band(6), GridEscapeOutcome::Escaped);
        let r = resolve_grid_escape(&mut ScriptedDice::faces([5]));
        assert_eq!(r.outcome, GridEscapeOutcome::Escaped);
        assert_eq!(r.roll.passed(), Some(true));
        let r = resolve_grid_escape(&mut ScriptedDice::faces([4]));
        assert_eq!(r.outcome, GridEscapeOutcome::StillTrapped);
        // One try a move by default; each later try is its own roll.
        let s = HerdSettings::default();
        let tries = resolve_grid_escapes_this_move(&s, &mut ScriptedDice::faces([2]));
        assert_eq!(tries.len(), 1);
        assert_eq!(tries[0].outcome, GridEscapeOutcome::StillTrapped);
        let three = HerdSettings { grid_escape_attempts_per_move: 3, ..HerdSettings::default() };
        let tries = resolve_grid_escapes_this_move(&three, &mut ScriptedDice::faces([2, 6]));
        assert_eq!(tries.len(), 2);
        assert_eq!(tries[1].outcome, GridEscapeOutcome::Escaped);
        let tries = resolve_grid_escapes_this_move(&three, &mut ScriptedDice::faces([1, 2, 3]));
        assert_eq!(tries.len(), 3);
        assert!(tries.iter().all(|t| t.outcome == GridEscapeOutcome::StillTrapped));
    }
}
