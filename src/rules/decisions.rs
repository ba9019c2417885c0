//! Characters who decide: the EIMGILD qualities, the decision dice, the temptations a street
//! holds and the weaknesses that make a figure succumb (000 "Character Qualities for
//! decision-making (EIMGILD ratings)", "To arrive at a decision using card characters",
//! "Temptations and Weaknesses", "Weaknesses").
//!
//! Dice follow RULES-NOTES "Dice": a Morval D10 shows 0–9 and a D6 1–6. Every temptation row is
//! a D10 plus or minus one quality with the row's factors, against the row's target; a higher
//! total resists ("need 7+ to ignore"), so a weakness's −2 makes a figure succumb more often. A
//! figure inside a site dices each move to leave "applying only weakness factors"; the rows that
//! take a time instead ("taking D6 + 2 moves") roll that time when the figure succumbs.
//!
//! Where the text is terse, the reading applied is marked "Reading:" where it is applied, and
//! listed in docs/decisions.md and docs/house-rules.md ("Decisions and temptations"). The choices
//! a table might read otherwise are fields of [`TemptationReadings`], each with the most literal
//! default.

use super::character::Sex;
use super::dice::{Dice, DiceSource, Roll, Rolls};
use super::magic::apply_evil_eye;
use super::outcome::Meaning;
use super::sleepers::Rank;
use serde::{Deserialize, Serialize};

/// 000 "Character Qualities for decision-making (EIMGILD ratings)": "the full range is from 1 to 7": the lowest.
pub const QUALITY_MIN: u8 = 1;
/// 000 "Character Qualities for decision-making (EIMGILD ratings)": "the full range is from 1 to 7": the highest.
pub const QUALITY_MAX: u8 = 7;
/// 000 "Character Qualities for decision-making (EIMGILD ratings)": "with 4 being the average norm".
pub const QUALITY_NORM: u8 = 4;
/// 000 "To arrive at a decision using card characters": "causation factors according to likely-hood, 0 > 5": the highest.
pub const CAUSATION_MAX: u8 = 5;
/// 000 "Weaknesses": "Alcohol -2 to temptation" (likewise tobacco, gambling, lechery, vanity).
pub const WEAKNESS_TEMPTATION_FACTOR: i32 = -2;
/// 000 "Temptations and Weaknesses": "can be outvoted by two others of equal or higher rank".
pub const OUTVOTE_VOTERS: usize = 2;

/// The sign of a quality a row adds ("D10 + Iy").
const ADDS: i32 = 1;
/// The sign of a quality a row takes away ("D10 - Ey").
const TAKES: i32 = -1;

// ---------------------------------------------------------------------------------------------
// The EIMGILD qualities
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// One of the seven EIMGILD qualities, in the text's order.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Quality {
        /// ENERGY (Ey): "Bone idle to hyperactivity".
        Energy => "energy",
        /// INTELLIGENCE (Ie): "Idiot to genius".
        Intelligence => "intelligence",
        /// MORALS (Ms): "Debauched philanderer to prudish paragon".
        Morals => "morals",
        /// GENEROSITY (Gy): "Mean miser to benevolent profligate".
        Generosity => "generosity",
        /// INTEGRITY (Iy): "Cowardly ditherer to determined hero".
        Integrity => "integrity",
        /// LOYALTY (Ly): "Incurably treacherous to fanatical adherence".
        Loyalty => "loyalty",
        /// DIPLOMACY (Dy): "Tactlessly antagonistic to silver tongued statesmanship".
        Diplomacy => "diplomacy",
    }
}

impl Quality {
    /// 000 "Character Qualities for decision-making (EIMGILD ratings)": the text's abbreviation ("Ey", "Ie", "Ms", "Gy", "Iy", "Ly", "Dy").
    pub fn abbreviation(self) -> &'static str {
        match self {
            Quality::Energy => "Ey",
            Quality::Intelligence => "Ie",
            Quality::Morals => "Ms",
            Quality::Generosity => "Gy",
            Quality::Integrity => "Iy",
            Quality::Loyalty => "Ly",
            Quality::Diplomacy => "Dy",
        }
    }

    /// How the log names it as a modifier's reason, e.g. "integrity (Iy)".
    pub fn reason(self) -> &'static str {
        match self {
            Quality::Energy => "energy (Ey)",
            Quality::Intelligence => "intelligence (Ie)",
            Quality::Morals => "morals (Ms)",
            Quality::Generosity => "generosity (Gy)",
            Quality::Integrity => "integrity (Iy)",
            Quality::Loyalty => "loyalty (Ly)",
            Quality::Diplomacy => "diplomacy (Dy)",
        }
    }

    /// 000 "Character Qualities for decision-making (EIMGILD ratings)": "The Integrity value can be used to influence the Terror Resistance factor and the Intelligence value the Spell Resistance factor" (no numbers: a reminder).
    pub fn influences(self) -> Option<&'static str> {
        match self {
            Quality::Integrity => Some("can be used to influence the Terror Resistance factor"),
            Quality::Intelligence => Some("can be used to influence the Spell Resistance factor"),
            Quality::Energy | Quality::Morals | Quality::Generosity | Quality::Loyalty | Quality::Diplomacy => None,
        }
    }
}

impl std::fmt::Display for Quality {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.reason())
    }
}

/// A quality outside 1–7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum QualityError {
    /// The quality's value is outside the text's "full range ... from 1 to 7".
    #[error("{quality} is {value}: EIMGILD qualities run from 1 to 7")]
    OutOfRange {
        /// The quality.
        quality: Quality,
        /// Its value.
        value: u8,
    },
}

/// 000 "Character Qualities for decision-making (EIMGILD ratings)": whether `value` is in "the full range ... from 1 to 7".
pub fn check_quality(quality: Quality, value: u8) -> Result<(), QualityError> {
    if (QUALITY_MIN..=QUALITY_MAX).contains(&value) { Ok(()) } else { Err(QualityError::OutOfRange { quality, value }) }
}

/// A figure's seven EIMGILD qualities, each 1–7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Qualities {
    /// Energy (Ey).
    pub energy: u8,
    /// Intelligence (Ie).
    pub intelligence: u8,
    /// Morals (Ms).
    pub morals: u8,
    /// Generosity (Gy).
    pub generosity: u8,
    /// Integrity (Iy).
    pub integrity: u8,
    /// Loyalty (Ly).
    pub loyalty: u8,
    /// Diplomacy (Dy).
    pub diplomacy: u8,
}

impl Qualities {
    /// Every quality at the text's "average norm", 4.
    pub const NORM: Qualities = Qualities {
        energy: QUALITY_NORM,
        intelligence: QUALITY_NORM,
        morals: QUALITY_NORM,
        generosity: QUALITY_NORM,
        integrity: QUALITY_NORM,
        loyalty: QUALITY_NORM,
        diplomacy: QUALITY_NORM,
    };

    /// The value of one quality.
    pub const fn get(&self, quality: Quality) -> u8 {
        match quality {
            Quality::Energy => self.energy,
            Quality::Intelligence => self.intelligence,
            Quality::Morals => self.morals,
            Quality::Generosity => self.generosity,
            Quality::Integrity => self.integrity,
            Quality::Loyalty => self.loyalty,
            Quality::Diplomacy => self.diplomacy,
        }
    }

    /// The same qualities with one set to `value`.
    pub fn with(mut self, quality: Quality, value: u8) -> Qualities {
        let slot = match quality {
            Quality::Energy => &mut self.energy,
            Quality::Intelligence => &mut self.intelligence,
            Quality::Morals => &mut self.morals,
            Quality::Generosity => &mut self.generosity,
            Quality::Integrity => &mut self.integrity,
            Quality::Loyalty => &mut self.loyalty,
            Quality::Diplomacy => &mut self.diplomacy,
        };
        *slot = value;
        self
    }

    /// 000 "Character Qualities for decision-making (EIMGILD ratings)": every quality within "the full range ... from 1 to 7".
    pub fn validate(&self) -> Result<(), QualityError> {
        Quality::ALL.iter().try_for_each(|&q| check_quality(q, self.get(q)))
    }
}

impl Default for Qualities {
    /// [`Qualities::NORM`]: 4 each, "the average norm".
    fn default() -> Self {
        Qualities::NORM
    }
}

/// The qualities the GM has given a figure; the rest are diced "only when needed".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct KnownQualities {
    /// Energy (Ey), if given.
    pub energy: Option<u8>,
    /// Intelligence (Ie), if given.
    pub intelligence: Option<u8>,
    /// Morals (Ms), if given.
    pub morals: Option<u8>,
    /// Generosity (Gy), if given.
    pub generosity: Option<u8>,
    /// Integrity (Iy), if given.
    pub integrity: Option<u8>,
    /// Loyalty (Ly), if given.
    pub loyalty: Option<u8>,
    /// Diplomacy (Dy), if given.
    pub diplomacy: Option<u8>,
}

impl KnownQualities {
    /// The value of one quality, if given.
    pub const fn get(&self, quality: Quality) -> Option<u8> {
        match quality {
            Quality::Energy => self.energy,
            Quality::Intelligence => self.intelligence,
            Quality::Morals => self.morals,
            Quality::Generosity => self.generosity,
            Quality::Integrity => self.integrity,
            Quality::Loyalty => self.loyalty,
            Quality::Diplomacy => self.diplomacy,
        }
    }

    /// 000 "Character Qualities for decision-making (EIMGILD ratings)": every given quality within "the full range ... from 1 to 7".
    pub fn validate(&self) -> Result<(), QualityError> {
        Quality::ALL.iter().try_for_each(|&q| self.get(q).map_or(Ok(()), |v| check_quality(q, v)))
    }

    /// 000 "Character Qualities for decision-making (EIMGILD ratings)": "dice for the characteristics only when needed": each quality not given is diced, in EIMGILD order.
    pub fn complete(&self, src: &mut impl DiceSource) -> DicedQualities {
        let mut qualities = Qualities::NORM;
        let mut rolls = Vec::new();
        for quality in Quality::ALL {
            let value = match self.get(quality) {
                Some(v) => v,
                None => {
                    let rolled = roll_quality(quality, src);
                    let v = rolled.value;
                    rolls.push(rolled);
                    v
                }
            };
            qualities = qualities.with(quality, value);
        }
        DicedQualities { qualities, rolls }
    }
}

impl From<Qualities> for KnownQualities {
    fn from(q: Qualities) -> Self {
        KnownQualities {
            energy: Some(q.energy),
            intelligence: Some(q.intelligence),
            morals: Some(q.morals),
            generosity: Some(q.generosity),
            integrity: Some(q.integrity),
            loyalty: Some(q.loyalty),
            diplomacy: Some(q.diplomacy),
        }
    }
}

/// One quality diced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QualityRoll {
    /// The quality diced.
    pub quality: Quality,
    /// The D6, with "1 read as a second 4" (+3) when it showed 1: its total is the value.
    pub roll: Roll,
    /// The value: 2–6, 4 twice as often as the others.
    pub value: u8,
}

/// Every quality of a figure, the unknown ones diced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DicedQualities {
    /// The qualities, given or diced.
    pub qualities: Qualities,
    /// The dice for those not given, in EIMGILD order.
    pub rolls: Vec<QualityRoll>,
}

/// 000 "Character Qualities for decision-making (EIMGILD ratings)": "To dice for these randomly use D6, reading the 1 as a second 4".
pub fn roll_quality(quality: Quality, src: &mut impl DiceSource) -> QualityRoll {
    let mut roll = Roll::new(Dice::D6, src);
    if roll.natural() == 1 {
        roll.add("1 read as a second 4", i32::from(QUALITY_NORM) - 1);
    }
    let value = u8::try_from(roll.total).unwrap_or(QUALITY_NORM);
    QualityRoll { quality, roll, value }
}

// ---------------------------------------------------------------------------------------------
// Decisions
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// How much a quality counts toward an option (step 3 of a decision).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Relevance {
        /// The most relevant quality: "double the character's qualities score".
        Doubled => "doubled",
        /// "Use the other characteristic qualities as they are".
        #[default]
        AsIs => "as_is",
        /// "or halved according to relevance".
        Halved => "halved",
    }
}

impl Relevance {
    /// 000 "To arrive at a decision using card characters": step 3, a quality's score counted in half-points (doubled ×4, as it is ×2, halved ×1), so a halved 5 counts 2½ exactly.
    pub fn half_points(self, score: u8) -> u32 {
        let times = match self {
            Relevance::Doubled => 4,
            Relevance::AsIs => 2,
            Relevance::Halved => 1,
        };
        u32::from(score) * times
    }
}

/// A quality that favours an option, and how much it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QualityWeight {
    /// The decider's quality that counts.
    pub quality: Quality,
    /// Doubled (the most relevant), as it is, or halved.
    #[serde(default)]
    pub relevance: Relevance,
}

/// One possible outcome of a decision, weighted (step 2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionOption {
    /// What the option is, in the GM's words.
    pub name: String,
    /// The causation factor "according to likely-hood, 0 > 5".
    pub causation: u8,
    /// A Charmer influencing the decision toward this option "adds her rating to the causation
    /// factor". Reading: the text does not say which rating; the caller gives it (0: none).
    #[serde(default)]
    pub charmer_rating: u8,
    /// The decider's qualities that favour this option, each doubled, as it is or halved.
    /// Reading: the text adds "the values ... for each possibility", so each option lists the
    /// qualities that count toward it.
    #[serde(default)]
    pub qualities: Vec<QualityWeight>,
}

/// The D10 faces an option takes: `low..=high`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct FaceRange {
    /// The lowest face (0–9).
    pub low: u8,
    /// The highest face (0–9).
    pub high: u8,
}

impl FaceRange {
    /// Whether the D10's `face` falls in the range.
    pub fn contains(self, face: i32) -> bool {
        (i32::from(self.low)..=i32::from(self.high)).contains(&face)
    }

    /// How many faces the range holds.
    pub fn count(self) -> u8 {
        self.high - self.low + 1
    }
}

/// One option scored, step by step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OptionScore {
    /// The option's name.
    pub name: String,
    /// Step 2: the causation factor with any Charmer's rating added.
    pub causation: u32,
    /// Step 3: each quality that counts, in half-points (see [`Relevance::half_points`]).
    pub quality_half_points: Vec<(Quality, u32)>,
    /// Step 4: the causation factor and the qualities added, in half-points.
    pub half_points: u32,
    /// Step 5: the D10 faces the option takes; `None` when its share rounds to no face.
    pub faces: Option<FaceRange>,
}

impl OptionScore {
    /// Step 4's total in points (half-points halved: 9.5 for 19).
    pub fn total(&self) -> f64 {
        f64::from(self.half_points) / 2.0
    }
}

/// Why a decision cannot be diced.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecisionError {
    /// There are no options to choose from.
    #[error("a decision needs at least one option")]
    NoOptions,
    /// The decider's qualities are out of range.
    #[error(transparent)]
    Qualities(#[from] QualityError),
    /// A causation factor above 5.
    #[error("option \"{option}\": causation factor {value} is outside 0-5")]
    CausationOutOfRange {
        /// The option's name.
        option: String,
        /// The factor given.
        value: u8,
    },
    /// One option lists the same quality twice.
    #[error("option \"{option}\": {quality} is listed twice")]
    QualityRepeated {
        /// The option's name.
        option: String,
        /// The quality listed twice.
        quality: Quality,
    },
    /// No quality is doubled: step 3 picks the most relevant one and doubles it.
    #[error("no quality is doubled: pick the most relevant one")]
    NoQualityDoubled,
    /// Two different qualities are doubled: the text doubles only the most relevant.
    #[error("{first} and {second} are both doubled: only the most relevant quality is")]
    SeveralQualitiesDoubled {
        /// The first quality doubled.
        first: Quality,
        /// Another quality doubled.
        second: Quality,
    },
}

crate::rules::named_enum! {
    /// A decision diced.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum DecisionOutcome {
        /// The D10 chose an option (the result's `chosen`).
        Decided => "decided",
    }
}

/// A decision as logged: every option's score, the D10 and the option chosen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DecisionResult {
    /// Steps 2–5 for each option, in the order given.
    pub scores: Vec<OptionScore>,
    /// The D10 (0–9).
    pub roll: Roll,
    /// The index of the option whose faces the D10 showed.
    pub chosen: usize,
    /// Always [`DecisionOutcome::Decided`].
    pub outcome: DecisionOutcome,
}

impl DecisionResult {
    /// The chosen option's name.
    pub fn chosen_name(&self) -> &str {
        self.scores.get(self.chosen).map_or("", |s| s.name.as_str())
    }
}

/// 000 "To arrive at a decision using card characters": step 2, the causation factor "0 > 5" plus any Charmer's rating.
pub fn option_causation(option: &DecisionOption) -> u32 {
    u32::from(option.causation) + u32::from(option.charmer_rating)
}

/// 000 "To arrive at a decision using card characters": step 5, "Reduce the totals in proportion to the number 0 > 9": the D10 faces each total takes.
///
/// Reading: the ten faces are shared in proportion to the totals, each option taking the whole
/// faces its share holds and the faces left over going to the largest remainders (ties to the
/// earlier option); the options take consecutive faces from 0 in the order given. An option whose
/// share rounds to no face gets none (`None`); so does every option when all totals are 0.
pub fn share_faces(totals: &[u32]) -> Vec<Option<FaceRange>> {
    const SIDES: u64 = 10;
    let sum: u64 = totals.iter().map(|&t| u64::from(t)).sum();
    if sum == 0 {
        return vec![None; totals.len()];
    }
    let mut counts: Vec<u64> = totals.iter().map(|&t| u64::from(t) * SIDES / sum).collect();
    let mut left = SIDES - counts.iter().sum::<u64>();
    let mut order: Vec<usize> = (0..totals.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(u64::from(totals[i]) * SIDES % sum));
    for i in order {
        if left == 0 {
            break;
        }
        counts[i] += 1;
        left -= 1;
    }
    let mut next = 0u8;
    counts
        .into_iter()
        .map(|count| {
            let count = u8::try_from(count).unwrap_or(0);
            if count == 0 {
                return None;
            }
            let range = FaceRange { low: next, high: next + count - 1 };
            next += count;
            Some(range)
        })
        .collect()
}

/// 000 "To arrive at a decision using card characters": steps 2 to 5 for the decider's `qualities` (step 1: the caller picks the decider).
pub fn score_options(qualities: &Qualities, options: &[DecisionOption]) -> Result<Vec<OptionScore>, DecisionError> {
    if options.is_empty() {
        return Err(DecisionError::NoOptions);
    }
    qualities.validate()?;
    let mut doubled: Option<Quality> = None;
    for option in options {
        if option.causation > CAUSATION_MAX {
            return Err(DecisionError::CausationOutOfRange { option: option.name.clone(), value: option.causation });
        }
        for (i, weight) in option.qualities.iter().enumerate() {
            if option.qualities[..i].iter().any(|w| w.quality == weight.quality) {
                return Err(DecisionError::QualityRepeated { option: option.name.clone(), quality: weight.quality });
            }
            if weight.relevance == Relevance::Doubled {
                match doubled {
                    Some(first) if first != weight.quality => {
                        return Err(DecisionError::SeveralQualitiesDoubled { first, second: weight.quality });
                    }
                    _ => doubled = Some(weight.quality),
                }
            }
        }
    }
    if doubled.is_none() {
        return Err(DecisionError::NoQualityDoubled);
    }
    let mut scores: Vec<OptionScore> = options
        .iter()
        .map(|option| {
            let causation = option_causation(option);
            let quality_half_points: Vec<(Quality, u32)> = option
                .qualities
                .iter()
                .map(|w| (w.quality, w.relevance.half_points(qualities.get(w.quality))))
                .collect();
            let half_points = causation * 2 + quality_half_points.iter().map(|&(_, p)| p).sum::<u32>();
            OptionScore { name: option.name.clone(), causation, quality_half_points, half_points, faces: None }
        })
        .collect();
    let totals: Vec<u32> = scores.iter().map(|s| s.half_points).collect();
    for (score, faces) in scores.iter_mut().zip(share_faces(&totals)) {
        score.faces = faces;
    }
    Ok(scores)
}

/// 000 "To arrive at a decision using card characters": the five steps, then "use a D10 to achieve the result".
pub fn decide(
    qualities: &Qualities,
    options: &[DecisionOption],
    src: &mut impl DiceSource,
) -> Result<DecisionResult, DecisionError> {
    let scores = score_options(qualities, options)?;
    let roll = Roll::new(Dice::D10, src);
    let chosen = chosen_option(&scores, roll.total);
    Ok(DecisionResult { scores, roll, chosen, outcome: DecisionOutcome::Decided })
}

/// 000 "To arrive at a decision using card characters": "use a D10 to achieve the result": the option whose faces hold `total`.
///
/// The faces cover 0–9 whole (a doubled quality, at least 1, makes the sum positive). Reading:
/// a total off the die (001's evil eye takes a 0 to −1) counts as the nearest face, 0 or 9.
pub fn chosen_option(scores: &[OptionScore], total: i32) -> usize {
    let face = total.clamp(0, 9);
    scores.iter().position(|s| s.faces.is_some_and(|f| f.contains(face))).unwrap_or(0)
}

// ---------------------------------------------------------------------------------------------
// Temptations
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// One row of 000's list of temptations, in the text's order.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum TemptationKind {
        /// "Low Drinking Tavern, D10 + Iy + Females +2 + thirst? = need 7+ to ignore. 8+ to leave."
        LowDrinkingTavern => "low_drinking_tavern",
        /// "Bakery/Pie shop, D10 + Iy + hunger? = need 7+ to ignore. 6+ to leave."
        Bakery => "bakery",
        /// "Musician playing D10 + Iy + quality of music + Females -1 = need 8+ to ignore. 8+ to leave."
        Musician => "musician",
        /// "Storyteller D10 + Ly = need 7+ to ignore. 9+ to leave."
        Storyteller => "storyteller",
        /// "Puppet show D10 + Ie = need 6+ to ignore. 8+ to leave."
        PuppetShow => "puppet_show",
        /// "Archery butts D10 + Iy + Females +1 = need 6+ not to watch. 8+ to leave."
        ArcheryButts => "archery_butts",
        /// "Wrestling competition D10 - Ey + Females -2, = -2+ not to watch. 8+ to leave."
        Wrestling => "wrestling",
        /// "Fencing school challenge D10 - Ey + non-fighter +3 + female +1 = -1- fight, -3- watch, 8+ to leave."
        FencingSchool => "fencing_school",
        /// "Public baths D10 - Dy + females -1 + dirtiness? = -2+ not to have a bath taking D6 + 2 moves."
        PublicBaths => "public_baths",
        /// "Ancient Monument D10 - Ie = need -2+ not to spend D6 moves examining."
        AncientMonument => "ancient_monument",
        /// "Enthralling Book Readers only D10 - Ie = need -1+ not to browse, need 8+ to stop."
        EnthrallingBook => "enthralling_book",
        /// "Red Light Premises Males only D10 + Ms + LR (0-1) = need 5+ not to enter taking D6 + 3 moves."
        RedLightPremises => "red_light_premises",
        /// "Street harlot Males only D10 + Ms + LR (1-3) = need 3+ not to employ taking D6 + 2 moves."
        StreetHarlot => "street_harlot",
        /// "Gambling Casino D10 - Gy = need -1+ not to enter, needing 9+ to leave."
        GamblingCasino => "gambling_casino",
        /// "Dicing Game D10 - Gy = need -2+ to ignore. 8+ to leave."
        DicingGame => "dicing_game",
        /// "Smoking Den D10 - Ly + non-smokers +2 = need -2 + not to enter, 7+ to leave."
        SmokingDen => "smoking_den",
        /// "Tumbling display D10 + Ie Females -1 = 7+ to ignore, 7+ to leave."
        TumblingDisplay => "tumbling_display",
        /// "Conjurers performance D10 + Ly = need 6+ to ignore. 8+ to leave."
        Conjurer => "conjurer",
        /// "Clothing shop D10 - Dy + Females -2 = need -2+ to ignore. 9+ to leave."
        ClothingShop => "clothing_shop",
        /// "Jewellery shop D10 - Dy + Females -2 = need -2+ to ignore. 8+ to leave."
        JewelleryShop => "jewellery_shop",
        /// "Beggars Tale D10 - Gy + Females -1 = need -2+ to ignore. 8+ to leave."
        BeggarsTale => "beggars_tale",
        /// "Striptease show Males only D10 + Ms = need 6+ to ignore. 8+ to leave."
        StripteaseShow => "striptease_show",
        /// "Skittle game D10 - Ey = need -2+ to ignore. 8+ to leave."
        SkittleGame => "skittle_game",
        /// "Mirror D10 + Dy +Females -2 = need 8+ to ignore. D6 -2 moves admiring self."
        Mirror => "mirror",
    }
}

crate::rules::named_enum! {
    /// Who a temptation lures.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Lured {
        /// Every figure.
        Anyone => "anyone",
        /// "Males only": red-light premises, street harlot, striptease show.
        MalesOnly => "males_only",
        /// "Readers only": the enthralling book.
        ReadersOnly => "readers_only",
    }
}

impl Lured {
    /// 000 "Temptations and Weaknesses": whether the row lures this figure at all ("Males only", "Readers only").
    pub fn lures(self, sex: Sex, reader: bool) -> bool {
        match self {
            Lured::Anyone => true,
            Lured::MalesOnly => sex == Sex::Male,
            Lured::ReadersOnly => reader,
        }
    }
}

crate::rules::named_enum! {
    /// A factor the GM judges for a site or a figure; the rows add it as given.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum GmFactor {
        /// The tavern's "+ thirst?".
        Thirst => "thirst",
        /// The bakery's "+ hunger?".
        Hunger => "hunger",
        /// The musician's "+ quality of music".
        QualityOfMusic => "quality_of_music",
        /// The public baths' "+ dirtiness?".
        Dirtiness => "dirtiness",
        /// "LR (0-1)" at red-light premises, "LR (1-3)" for a street harlot.
        Lr => "lr",
    }
}

impl GmFactor {
    /// How the log names it as a modifier's reason.
    pub fn label(self) -> &'static str {
        match self {
            GmFactor::Thirst => "thirst",
            GmFactor::Hunger => "hunger",
            GmFactor::QualityOfMusic => "quality of music",
            GmFactor::Dirtiness => "dirtiness",
            GmFactor::Lr => "LR",
        }
    }
}

impl std::fmt::Display for GmFactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

crate::rules::named_enum! {
    /// How the fencing school's "-1- fight, -3- watch" bands nest.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum FencingBands {
        /// Both bands as written, the narrower deciding where they overlap: −3 or less watches,
        /// −2 and −1 fight, 0 or more neither. The one reading in which all three outcomes happen.
        #[default]
        NarrowerFirst => "narrower_first",
        /// The bands swapped, the most tempted taking up the challenge: −3 or less fights, −2
        /// and −1 watch.
        FightBelowWatch => "fight_below_watch",
    }
}

/// The time a timed row takes instead of a roll to leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Stay {
    /// The die rolled: a D6 in every timed row.
    pub dice: Dice,
    /// Moves added to the die (−2 for the mirror).
    pub plus: i32,
    /// The addend's reason in the log.
    pub reason: &'static str,
}

/// One row of the list of temptations, as the text gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TemptationRow {
    /// The text's name for it.
    pub label: &'static str,
    /// The die: a Morval D10 (0–9) in every row.
    pub dice: Dice,
    /// The quality the row adds or takes away.
    pub quality: Quality,
    /// +1 where the row adds the quality ("D10 + Iy"), −1 where it takes it away ("D10 - Ey").
    pub quality_sign: i32,
    /// The factor for a female figure ("Females +2"); 0 where the row has none.
    pub female_factor: i32,
    /// The fencing school's "non-fighter +3"; 0 elsewhere.
    pub non_fighter_factor: i32,
    /// The smoking den's "non-smokers +2"; 0 elsewhere.
    pub non_smoker_factor: i32,
    /// The GM-judged factor, with its range where the text gives one ("LR (1-3)").
    pub gm_factor: Option<(GmFactor, Option<(i32, i32)>)>,
    /// Who it lures.
    pub lured: Lured,
    /// The figure resists at this total or more ("need 7+ to ignore").
    pub resist_target: i32,
    /// The text's words for resisting: "to ignore", "not to watch", "not to enter", ...
    pub resist_words: &'static str,
    /// The fencing school only: the "-3-" band (watch) inside the "-1-" band (fight).
    pub watch_at_most: Option<i32>,
    /// A figure inside leaves at this total or more ("8+ to leave"); `None` for timed rows.
    pub leave_target: Option<i32>,
    /// The text's words for leaving: "to leave", or "to stop" for the book.
    pub leave_words: &'static str,
    /// The time a timed row takes ("taking D6 + 2 moves"); `None` for rows left by a roll.
    pub stay: Option<Stay>,
}

/// A row with only its quality and resist target; the rest added by struct update.
const fn base_row(
    label: &'static str,
    quality: Quality,
    quality_sign: i32,
    resist_target: i32,
    resist_words: &'static str,
) -> TemptationRow {
    TemptationRow {
        label,
        dice: Dice::D10,
        quality,
        quality_sign,
        female_factor: 0,
        non_fighter_factor: 0,
        non_smoker_factor: 0,
        gm_factor: None,
        lured: Lured::Anyone,
        resist_target,
        resist_words,
        watch_at_most: None,
        leave_target: None,
        leave_words: "to leave",
        stay: None,
    }
}

impl TemptationKind {
    /// 000 "Temptations and Weaknesses": the row of the list: die, quality, factors, targets and time.
    pub fn row(self) -> TemptationRow {
        use Quality::{Diplomacy, Energy, Generosity, Integrity, Intelligence, Loyalty, Morals};
        match self {
            TemptationKind::LowDrinkingTavern => TemptationRow {
                female_factor: 2,
                gm_factor: Some((GmFactor::Thirst, None)),
                leave_target: Some(8),
                ..base_row("Low Drinking Tavern", Integrity, ADDS, 7, "to ignore")
            },
            TemptationKind::Bakery => TemptationRow {
                gm_factor: Some((GmFactor::Hunger, None)),
                leave_target: Some(6),
                ..base_row("Bakery/Pie shop", Integrity, ADDS, 7, "to ignore")
            },
            TemptationKind::Musician => TemptationRow {
                female_factor: -1,
                gm_factor: Some((GmFactor::QualityOfMusic, None)),
                leave_target: Some(8),
                ..base_row("Musician playing", Integrity, ADDS, 8, "to ignore")
            },
            TemptationKind::Storyteller => {
                TemptationRow { leave_target: Some(9), ..base_row("Storyteller", Loyalty, ADDS, 7, "to ignore") }
            }
            TemptationKind::PuppetShow => {
                TemptationRow { leave_target: Some(8), ..base_row("Puppet show", Intelligence, ADDS, 6, "to ignore") }
            }
            TemptationKind::ArcheryButts => TemptationRow {
                female_factor: 1,
                leave_target: Some(8),
                ..base_row("Archery butts", Integrity, ADDS, 6, "not to watch")
            },
            TemptationKind::Wrestling => TemptationRow {
                female_factor: -2,
                leave_target: Some(8),
                ..base_row("Wrestling competition", Energy, TAKES, -2, "not to watch")
            },
            TemptationKind::FencingSchool => TemptationRow {
                female_factor: 1,
                non_fighter_factor: 3,
                watch_at_most: Some(-3),
                leave_target: Some(8),
                ..base_row("Fencing school challenge", Energy, TAKES, 0, "neither to fight nor to watch")
            },
            TemptationKind::PublicBaths => TemptationRow {
                female_factor: -1,
                gm_factor: Some((GmFactor::Dirtiness, None)),
                stay: Some(Stay { dice: Dice::D6, plus: 2, reason: "bath +2 moves" }),
                ..base_row("Public baths", Diplomacy, TAKES, -2, "not to have a bath")
            },
            TemptationKind::AncientMonument => TemptationRow {
                stay: Some(Stay { dice: Dice::D6, plus: 0, reason: "examining" }),
                ..base_row("Ancient Monument", Intelligence, TAKES, -2, "not to spend D6 moves examining")
            },
            TemptationKind::EnthrallingBook => TemptationRow {
                lured: Lured::ReadersOnly,
                leave_target: Some(8),
                leave_words: "to stop",
                ..base_row("Enthralling Book", Intelligence, TAKES, -1, "not to browse")
            },
            TemptationKind::RedLightPremises => TemptationRow {
                lured: Lured::MalesOnly,
                gm_factor: Some((GmFactor::Lr, Some((0, 1)))),
                stay: Some(Stay { dice: Dice::D6, plus: 3, reason: "red light premises +3 moves" }),
                ..base_row("Red Light Premises", Morals, ADDS, 5, "not to enter")
            },
            TemptationKind::StreetHarlot => TemptationRow {
                lured: Lured::MalesOnly,
                gm_factor: Some((GmFactor::Lr, Some((1, 3)))),
                stay: Some(Stay { dice: Dice::D6, plus: 2, reason: "street harlot +2 moves" }),
                ..base_row("Street harlot", Morals, ADDS, 3, "not to employ")
            },
            TemptationKind::GamblingCasino => TemptationRow {
                leave_target: Some(9),
                ..base_row("Gambling Casino", Generosity, TAKES, -1, "not to enter")
            },
            TemptationKind::DicingGame => {
                TemptationRow { leave_target: Some(8), ..base_row("Dicing Game", Generosity, TAKES, -2, "to ignore") }
            }
            TemptationKind::SmokingDen => TemptationRow {
                non_smoker_factor: 2,
                leave_target: Some(7),
                ..base_row("Smoking Den", Loyalty, TAKES, -2, "not to enter")
            },
            TemptationKind::TumblingDisplay => TemptationRow {
                female_factor: -1,
                leave_target: Some(7),
                ..base_row("Tumbling display", Intelligence, ADDS, 7, "to ignore")
            },
            TemptationKind::Conjurer => TemptationRow {
                leave_target: Some(8),
                ..base_row("Conjurers performance", Loyalty, ADDS, 6, "to ignore")
            },
            TemptationKind::ClothingShop => TemptationRow {
                female_factor: -2,
                leave_target: Some(9),
                ..base_row("Clothing shop", Diplomacy, TAKES, -2, "to ignore")
            },
            TemptationKind::JewelleryShop => TemptationRow {
                female_factor: -2,
                leave_target: Some(8),
                ..base_row("Jewellery shop", Diplomacy, TAKES, -2, "to ignore")
            },
            TemptationKind::BeggarsTale => TemptationRow {
                female_factor: -1,
                leave_target: Some(8),
                ..base_row("Beggars Tale", Generosity, TAKES, -2, "to ignore")
            },
            TemptationKind::StripteaseShow => TemptationRow {
                lured: Lured::MalesOnly,
                leave_target: Some(8),
                ..base_row("Striptease show", Morals, ADDS, 6, "to ignore")
            },
            TemptationKind::SkittleGame => {
                TemptationRow { leave_target: Some(8), ..base_row("Skittle game", Energy, TAKES, -2, "to ignore") }
            }
            TemptationKind::Mirror => TemptationRow {
                female_factor: -2,
                stay: Some(Stay { dice: Dice::D6, plus: -2, reason: "admiring self -2 moves" }),
                ..base_row("Mirror", Diplomacy, ADDS, 8, "to ignore")
            },
        }
    }

    /// The text's name for it, e.g. "Low Drinking Tavern".
    pub fn label(self) -> &'static str {
        self.row().label
    }
}

impl std::fmt::Display for TemptationKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// Readings of the temptation rules where the text can be read more than one way: the scene's
/// `rules.temptations` house rules ([`TemptationSettings::readings`]); each field's default is
/// the most literal reading, listed in docs/house-rules.md "Decisions and temptations".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TemptationReadings {
    /// How the fencing school's "-1- fight, -3- watch" nest (default: the narrower band first).
    pub fencing_bands: FencingBands,
    /// "dice each move to leave, applying only weakness factors": the weakness's −2 counts on the
    /// roll to leave (default true, the literal words); false leaves the roll bare.
    pub weakness_factors_on_leave: bool,
    /// Lechery's "-2 to harlots and striptease lures" counts at red-light premises too, where the
    /// harlots are (default true); false keeps it to the street harlot and the striptease show.
    pub lechery_at_red_light: bool,
    /// Vanity's "-2 to temptations. (Mirror, clothes etc:)" counts at the jewellery shop, the
    /// "etc" of appearance (default true); false keeps it to the mirror and the clothing shop.
    pub vanity_at_jewellery: bool,
}

impl Default for TemptationReadings {
    fn default() -> Self {
        TemptationReadings {
            fencing_bands: FencingBands::NarrowerFirst,
            weakness_factors_on_leave: true,
            lechery_at_red_light: true,
            vanity_at_jewellery: true,
        }
    }
}

/// The scene's `rules.temptations` block: the house rules of the temptation list, every one a
/// reading where 000 "Temptations and Weaknesses" is silent or ambiguous (docs/house-rules.md
/// "Decisions and temptations"), each default the most literal reading.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TemptationSettings {
    /// How far a site pulls at figures passing it when the site gives no `reach`, in inches
    /// (000 gives no reach; default 3").
    pub reach_in: f32,
    /// [`TemptationReadings::fencing_bands`].
    pub fencing_bands: FencingBands,
    /// [`TemptationReadings::weakness_factors_on_leave`].
    pub weakness_factors_on_leave: bool,
    /// [`TemptationReadings::lechery_at_red_light`].
    pub lechery_at_red_light: bool,
    /// [`TemptationReadings::vanity_at_jewellery`].
    pub vanity_at_jewellery: bool,
}

/// The default reach of a temptation site, in inches (house rule `temptations.reach_in`).
pub const DEFAULT_REACH_IN: f32 = 3.0;

impl Default for TemptationSettings {
    fn default() -> Self {
        let r = TemptationReadings::default();
        TemptationSettings {
            reach_in: DEFAULT_REACH_IN,
            fencing_bands: r.fencing_bands,
            weakness_factors_on_leave: r.weakness_factors_on_leave,
            lechery_at_red_light: r.lechery_at_red_light,
            vanity_at_jewellery: r.vanity_at_jewellery,
        }
    }
}

impl TemptationSettings {
    /// The readings the rules take.
    pub fn readings(&self) -> TemptationReadings {
        TemptationReadings {
            fencing_bands: self.fencing_bands,
            weakness_factors_on_leave: self.weakness_factors_on_leave,
            lechery_at_red_light: self.lechery_at_red_light,
            vanity_at_jewellery: self.vanity_at_jewellery,
        }
    }

    /// The house rules that decide a roll at a site of `kind` for a figure with `weaknesses`,
    /// `leaving` (a roll to leave) or not: the paths the event is tagged with. A roll to leave
    /// is decided by `weakness_factors_on_leave` only when one of the weaknesses counts there.
    pub fn deciding(&self, kind: TemptationKind, weaknesses: &[Weakness], leaving: bool) -> Vec<&'static str> {
        let mut paths = Vec::new();
        if kind == TemptationKind::FencingSchool && !leaving {
            paths.push("temptations.fencing_bands");
        }
        if leaving && weaknesses.iter().any(|w| w.applies_to(kind, &self.readings())) {
            paths.push("temptations.weakness_factors_on_leave");
        }
        if kind == TemptationKind::RedLightPremises && weaknesses.contains(&Weakness::Lechery) {
            paths.push("temptations.lechery_at_red_light");
        }
        if kind == TemptationKind::JewelleryShop && weaknesses.contains(&Weakness::Vanity) {
            paths.push("temptations.vanity_at_jewellery");
        }
        paths
    }
}

/// The figure a temptation pulls at: what the rows read off it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tempted<'a> {
    /// Its EIMGILD qualities (diced where not given, [`KnownQualities::complete`]).
    pub qualities: Qualities,
    /// "Females" factors and "Males only" rows.
    pub sex: Sex,
    /// Can read: "Readers only" (the enthralling book).
    pub reader: bool,
    /// Not a fighter: the fencing school's "non-fighter +3".
    pub non_fighter: bool,
    /// Does not smoke: the smoking den's "non-smokers +2". Reading: an input of its own, not
    /// the tobacco weakness (which also covers snuff-taking).
    pub non_smoker: bool,
    /// Its weaknesses (each counts once however often listed).
    pub weaknesses: &'a [Weakness],
    /// Under the evil eye (001 "Lay an evil eye Curse"): −1 on the temptation roll.
    pub evil_eye: bool,
}

/// Why a temptation cannot be diced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TemptationError {
    /// A GM factor outside the range the row gives ("LR (0-1)", "LR (1-3)").
    #[error("{kind}: {factor} is {value}, outside {low}-{high}")]
    GmFactorOutOfRange {
        /// The row.
        kind: TemptationKind,
        /// The factor.
        factor: GmFactor,
        /// The value given.
        value: i32,
        /// The lowest the text allows.
        low: i32,
        /// The highest the text allows.
        high: i32,
    },
    /// A GM factor given for a row that has none.
    #[error("{kind} has no GM factor, but {value} was given")]
    NoGmFactor {
        /// The row.
        kind: TemptationKind,
        /// The value given.
        value: i32,
    },
    /// A roll to leave asked of a row that takes a time instead.
    #[error("{kind} has no roll to leave: the figure stays the moves it rolled")]
    NoLeaveRoll {
        /// The row.
        kind: TemptationKind,
    },
}

/// 000 "Temptations and Weaknesses": whether a GM-judged factor fits its row ("LR (0-1)", "LR (1-3)"; thirst, hunger, quality of music and dirtiness have no range).
pub fn check_gm_factor(kind: TemptationKind, value: i32) -> Result<(), TemptationError> {
    match kind.row().gm_factor {
        None if value != 0 => Err(TemptationError::NoGmFactor { kind, value }),
        Some((factor, Some((low, high)))) if !(low..=high).contains(&value) => {
            Err(TemptationError::GmFactorOutOfRange { kind, factor, value, low, high })
        }
        _ => Ok(()),
    }
}

crate::rules::named_enum! {
    /// What a figure does when a temptation pulls at it.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum TemptationOutcome {
        /// The row does not lure this figure ("Males only", "Readers only"): no roll.
        NotTempted => "not_tempted",
        /// The total reached the target: ignores, does not watch, does not enter, ...
        Resisted => "resisted",
        /// Below the target: goes in, watches, browses, enters, employs.
        Succumbed => "succumbed",
        /// The fencing school: takes up the challenge ("-1- fight").
        Fights => "fights",
        /// The fencing school: watches ("-3- watch").
        Watches => "watches",
    }
}

impl TemptationOutcome {
    /// Whether the figure is drawn in (succumbed, fights or watches).
    pub fn drawn_in(self) -> bool {
        matches!(self, TemptationOutcome::Succumbed | TemptationOutcome::Fights | TemptationOutcome::Watches)
    }
}

/// 000 "Temptations and Weaknesses": the row's outcome for a temptation roll's `total` ("need 7+ to ignore"; the fencing school's "-1- fight, -3- watch").
pub fn temptation_band(kind: TemptationKind, total: i32, fencing: FencingBands) -> TemptationOutcome {
    let row = kind.row();
    if total >= row.resist_target {
        return TemptationOutcome::Resisted;
    }
    match (row.watch_at_most, fencing) {
        (None, _) => TemptationOutcome::Succumbed,
        (Some(watch), FencingBands::NarrowerFirst) if total <= watch => TemptationOutcome::Watches,
        (Some(_), FencingBands::NarrowerFirst) => TemptationOutcome::Fights,
        (Some(watch), FencingBands::FightBelowWatch) if total <= watch => TemptationOutcome::Fights,
        (Some(_), FencingBands::FightBelowWatch) => TemptationOutcome::Watches,
    }
}

/// The moves a timed row took.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StayResult {
    /// The D6 with the row's addend.
    pub roll: Roll,
    /// The moves spent: the total, never below 0.
    pub moves: u32,
}

/// 000 "Temptations and Weaknesses": the moves a timed row takes ("taking D6 + 2 moves", "D6 moves examining", "D6 -2 moves admiring self"), never below 0.
///
/// Reading: the mirror's D6 − 2 below 1 (a 1 or a 2) is a glance that costs no move.
pub fn roll_stay(stay: Stay, src: &mut impl DiceSource) -> StayResult {
    let roll = Roll::new(stay.dice, src).modifier(stay.reason, stay.plus);
    let moves = u32::try_from(roll.total.max(0)).unwrap_or(0);
    StayResult { roll, moves }
}

/// A temptation diced, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TemptationResult {
    /// The row.
    pub kind: TemptationKind,
    /// The D10 with every factor, against the row's target; `None` when not tempted.
    pub roll: Option<Roll>,
    /// What the figure does.
    pub outcome: TemptationOutcome,
    /// The time a timed row takes, rolled when the figure is drawn in.
    pub stay: Option<StayResult>,
}

/// 000 "Temptations and Weaknesses": the D10 + or − the row's quality with its factors and the figure's weaknesses, against "need N+ to ignore".
///
/// `gm_factor` is the row's GM-judged factor (thirst, hunger, quality of music, dirtiness, LR),
/// added as given: a higher total resists, so a parched figure's thirst is negative. 0 for rows
/// without one. Reading: the "?" after thirst, hunger and dirtiness marks the GM's judgement,
/// and the text gives no scale but LR's.
pub fn roll_temptation(
    kind: TemptationKind,
    gm_factor: i32,
    figure: &Tempted<'_>,
    readings: &TemptationReadings,
    src: &mut impl DiceSource,
) -> Result<TemptationResult, TemptationError> {
    check_gm_factor(kind, gm_factor)?;
    let row = kind.row();
    if !row.lured.lures(figure.sex, figure.reader) {
        return Ok(TemptationResult { kind, roll: None, outcome: TemptationOutcome::NotTempted, stay: None });
    }
    let mut roll = Roll::new(row.dice, src);
    roll.add(row.quality.reason(), row.quality_sign * i32::from(figure.qualities.get(row.quality)));
    if figure.sex == Sex::Female {
        roll.add("female", row.female_factor);
    }
    if figure.non_fighter {
        roll.add("non-fighter", row.non_fighter_factor);
    }
    if figure.non_smoker {
        roll.add("non-smoker", row.non_smoker_factor);
    }
    if let Some((factor, _)) = row.gm_factor {
        roll.add(factor.label(), gm_factor);
    }
    for weakness in Weakness::ALL.into_iter().filter(|w| figure.weaknesses.contains(w)) {
        roll.add(weakness.label(), weakness.temptation_factor(kind, readings));
    }
    apply_evil_eye(&mut roll, figure.evil_eye);
    let roll = roll.at_least(row.resist_target);
    let outcome = temptation_band(kind, roll.total, readings.fencing_bands);
    let stay = if outcome.drawn_in() { row.stay.map(|stay| roll_stay(stay, src)) } else { None };
    Ok(TemptationResult { kind, roll: Some(roll), outcome, stay })
}

crate::rules::named_enum! {
    /// A figure inside a site, diced each move.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum LeaveOutcome {
        /// Reached the row's target ("8+ to leave", the book's "8+ to stop").
        Leaves => "leaves",
        /// Below the target: stays another move.
        Stays => "stays",
        /// A gambler whose money has run out leaves without a roll ("8+ to stop or when money has run out").
        OutOfMoney => "out_of_money",
    }
}

/// A roll to leave, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeaveResult {
    /// The row.
    pub kind: TemptationKind,
    /// The D10 with the weakness factors only; `None` when the gambler's money ran out.
    pub roll: Option<Roll>,
    /// Leaves or stays.
    pub outcome: LeaveOutcome,
}

/// 000 "Temptations and Weaknesses": "For some, dice each move to leave, applying only weakness factors": the D10 against the row's "N+ to leave".
///
/// Where a weakness gives its own "8+ to stop" at the same site (alcohol at the tavern, gambling
/// at the casino and the dicing game), both texts hold: the higher target counts. A gambler at a
/// gambling site whose money has run out leaves without a roll.
pub fn roll_leave(
    kind: TemptationKind,
    weaknesses: &[Weakness],
    out_of_money: bool,
    readings: &TemptationReadings,
    src: &mut impl DiceSource,
) -> Result<LeaveResult, TemptationError> {
    let row = kind.row();
    let Some(row_target) = row.leave_target else {
        return Err(TemptationError::NoLeaveRoll { kind });
    };
    let held: Vec<Weakness> = Weakness::ALL.into_iter().filter(|w| weaknesses.contains(w)).collect();
    if out_of_money && held.contains(&Weakness::Gambling) && Weakness::Gambling.applies_to(kind, readings) {
        return Ok(LeaveResult { kind, roll: None, outcome: LeaveOutcome::OutOfMoney });
    }
    let target = held.iter().filter_map(|w| w.stop_target(kind)).fold(row_target, i32::max);
    let mut roll = Roll::new(row.dice, src);
    if readings.weakness_factors_on_leave {
        for weakness in &held {
            roll.add(weakness.label(), weakness.temptation_factor(kind, readings));
        }
    }
    let roll = roll.at_least(target);
    let outcome = leave_outcome(roll.passed() == Some(true));
    Ok(LeaveResult { kind, roll: Some(roll), outcome })
}

/// 000 "Temptations and Weaknesses": a roll to leave that reached its "N+ to leave" leaves; one below stays.
pub fn leave_outcome(reached_target: bool) -> LeaveOutcome {
    if reached_target { LeaveOutcome::Leaves } else { LeaveOutcome::Stays }
}

/// Money a figure paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct MoneySpent {
    /// What was paid: the cost, or all there was.
    pub spent: u32,
    /// What is left.
    pub left: u32,
    /// Nothing is left after a cost: the gambler's "when money has run out".
    pub ran_out: bool,
}

/// 000 "Temptations and Weaknesses": "Money expenditure will often need to be catered for": pay `cost` from `purse`, as much as there is.
///
/// Reading: the text gives no prices; the cost (per move inside, or per visit) is the caller's
/// input, in whatever coin the scene counts.
pub fn spend_money(purse: u32, cost: u32) -> MoneySpent {
    let spent = cost.min(purse);
    let left = purse - spent;
    MoneySpent { spent, left, ran_out: cost > 0 && left == 0 }
}

crate::rules::named_enum! {
    /// Whether others talk a figure out of a temptation.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum OutvoteOutcome {
        /// Two or more others of equal or higher rank: the figure is outvoted.
        Outvoted => "outvoted",
        /// Fewer than two: the figure is not.
        NotOutvoted => "not_outvoted",
    }
}

/// 000 "Temptations and Weaknesses": how many of `others` are of "equal or higher rank" than the figure who succumbed (ranks as 000 "Woken sleepers response" lists them: officer, independent, follower, nidderling).
pub fn outvoters(succumbed: Rank, others: &[Rank]) -> usize {
    others.iter().filter(|r| r.factor() >= succumbed.factor()).count()
}

/// 000 "Temptations and Weaknesses": "A character who succumbs can be outvoted by two others of equal or higher rank".
///
/// Reading: `others` are the figures who vote; the caller passes those free to (not inside a
/// site themselves). No dice: the GM gives the order.
pub fn outvote(succumbed: Rank, others: &[Rank]) -> OutvoteOutcome {
    if outvoters(succumbed, others) >= OUTVOTE_VOTERS { OutvoteOutcome::Outvoted } else { OutvoteOutcome::NotOutvoted }
}

// ---------------------------------------------------------------------------------------------
// Weaknesses
// ---------------------------------------------------------------------------------------------

crate::rules::named_enum! {
    /// One of 000's weaknesses, in the text's order.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Weakness {
        /// "Alcohol -2 to temptation. Once started need 8+ to stop".
        Alcohol => "alcohol",
        /// "Tobacco Smoking or snuff-taking -2 to temptation".
        Tobacco => "tobacco",
        /// "Gambling -2 to temptation 8+ to stop or when money has run out."
        Gambling => "gambling",
        /// "Dalliance Chatting up the opposite sex, 8+ to stop."
        Dalliance => "dalliance",
        /// "Lechery -2 to harlots and striptease lures."
        Lechery => "lechery",
        /// "Vanity in appearance -2 to temptations. (Mirror, clothes etc:)"
        Vanity => "vanity",
        /// "Idleness If left to self will neglect duties."
        Idleness => "idleness",
        /// "Bullying Will torment prisoners or any persons or creatures under their control."
        Bullying => "bullying",
        /// "Kleptomania Dice not to steal unguarded objects or pick pockets 3+ not to."
        Kleptomania => "kleptomania",
        /// "Pyromania Will set fire to any enemy property."
        Pyromania => "pyromania",
        /// "Clumsy D10 3+ not to fell likely objects. In melee any friend within 1" D10 2- hit!"
        Clumsy => "clumsy",
        /// "Over-talkative Needs 7+ to stop talking once started to a new acquaintance."
        OverTalkative => "over_talkative",
        /// "Collectors Needs 7+ not to be distracted into searching for a desired object."
        Collector => "collector",
        /// "Hates opposite Sex Reluctant to speak to or perform any service for them."
        HatesOppositeSex => "hates_opposite_sex",
        /// "Hates a particular Race or alignment Will attack them at least verbally when encountered."
        HatesRaceOrAlignment => "hates_race_or_alignment",
    }
}

impl Weakness {
    /// How the log names it; also the modifier's reason on temptation rolls.
    pub fn label(self) -> &'static str {
        match self {
            Weakness::Alcohol => "alcohol",
            Weakness::Tobacco => "tobacco",
            Weakness::Gambling => "gambling",
            Weakness::Dalliance => "dalliance",
            Weakness::Lechery => "lechery",
            Weakness::Vanity => "vanity",
            Weakness::Idleness => "idleness",
            Weakness::Bullying => "bullying",
            Weakness::Kleptomania => "kleptomania",
            Weakness::Pyromania => "pyromania",
            Weakness::Clumsy => "clumsy",
            Weakness::OverTalkative => "over-talkative",
            Weakness::Collector => "collector",
            Weakness::HatesOppositeSex => "hates the opposite sex",
            Weakness::HatesRaceOrAlignment => "hates a race or alignment",
        }
    }

    /// 000 "Weaknesses": whether the weakness's −2 counts against this temptation.
    ///
    /// Alcohol: the tavern. Tobacco: the smoking den. Gambling: the casino and the dicing game.
    /// Lechery ("harlots and striptease lures"): the street harlot, the striptease show and, by
    /// the reading `lechery_at_red_light`, the red-light premises. Vanity ("Mirror, clothes
    /// etc:"): the mirror, the clothing shop and, by `vanity_at_jewellery`, the jewellery shop.
    pub fn applies_to(self, kind: TemptationKind, readings: &TemptationReadings) -> bool {
        use TemptationKind as T;
        match self {
            Weakness::Alcohol => kind == T::LowDrinkingTavern,
            Weakness::Tobacco => kind == T::SmokingDen,
            Weakness::Gambling => matches!(kind, T::GamblingCasino | T::DicingGame),
            Weakness::Lechery => {
                matches!(kind, T::StreetHarlot | T::StripteaseShow)
                    || (kind == T::RedLightPremises && readings.lechery_at_red_light)
            }
            Weakness::Vanity => {
                matches!(kind, T::Mirror | T::ClothingShop)
                    || (kind == T::JewelleryShop && readings.vanity_at_jewellery)
            }
            Weakness::Dalliance
            | Weakness::Idleness
            | Weakness::Bullying
            | Weakness::Kleptomania
            | Weakness::Pyromania
            | Weakness::Clumsy
            | Weakness::OverTalkative
            | Weakness::Collector
            | Weakness::HatesOppositeSex
            | Weakness::HatesRaceOrAlignment => false,
        }
    }

    /// 000 "Weaknesses": the factor the weakness gives a temptation roll (and, by default, the roll to leave): "-2 to temptation", or 0.
    pub fn temptation_factor(self, kind: TemptationKind, readings: &TemptationReadings) -> i32 {
        if self.applies_to(kind, readings) { WEAKNESS_TEMPTATION_FACTOR } else { 0 }
    }

    /// 000 "Weaknesses": the weakness's own target to stop at a site ("Alcohol ... Once started need 8+ to stop", "Gambling ... 8+ to stop").
    pub fn stop_target(self, kind: TemptationKind) -> Option<i32> {
        match (self, kind) {
            (Weakness::Alcohol, TemptationKind::LowDrinkingTavern) => Some(WeaknessRoll::StopDrinking.target()),
            (Weakness::Gambling, TemptationKind::GamblingCasino | TemptationKind::DicingGame) => {
                Some(WeaknessRoll::StopGambling.target())
            }
            _ => None,
        }
    }

    /// 000 "Weaknesses": the rolls the weakness has of its own (not counting its temptation factor).
    pub fn rolls(self) -> &'static [WeaknessRoll] {
        match self {
            Weakness::Alcohol => &[WeaknessRoll::StopDrinking],
            Weakness::Gambling => &[WeaknessRoll::StopGambling],
            Weakness::Dalliance => &[WeaknessRoll::StopDallying],
            Weakness::Kleptomania => &[WeaknessRoll::NotSteal],
            Weakness::Clumsy => &[WeaknessRoll::NotFell, WeaknessRoll::FriendInMelee],
            Weakness::OverTalkative => &[WeaknessRoll::StopTalking],
            Weakness::Collector => &[WeaknessRoll::NotDistracted],
            Weakness::Tobacco
            | Weakness::Lechery
            | Weakness::Vanity
            | Weakness::Idleness
            | Weakness::Bullying
            | Weakness::Pyromania
            | Weakness::HatesOppositeSex
            | Weakness::HatesRaceOrAlignment => &[],
        }
    }

    /// 000 "Weaknesses": what the GM is reminded of for a weakness with no dice at all (no roll, no temptation factor); `None` for the others.
    pub fn reminder(self) -> Option<&'static str> {
        match self {
            Weakness::Idleness => Some("idleness: if left to self will neglect duties"),
            Weakness::Bullying => {
                Some("bullying: will torment prisoners or any persons or creatures under their control")
            }
            Weakness::Pyromania => Some("pyromania: will set fire to any enemy property"),
            Weakness::HatesOppositeSex => {
                Some("hates the opposite sex: reluctant to speak to or perform any service for them")
            }
            Weakness::HatesRaceOrAlignment => {
                Some("hates a race or alignment: will attack them at least verbally when encountered")
            }
            Weakness::Alcohol
            | Weakness::Tobacco
            | Weakness::Gambling
            | Weakness::Dalliance
            | Weakness::Lechery
            | Weakness::Vanity
            | Weakness::Kleptomania
            | Weakness::Clumsy
            | Weakness::OverTalkative
            | Weakness::Collector => None,
        }
    }
}

crate::rules::named_enum! {
    /// A roll a weakness has of its own. Reading: where the text names no die ("8+ to stop",
    /// "3+ not to", "7+ to stop talking") it is a Morval D10, as clumsiness's "D10 3+" is
    /// (RULES-NOTES "Dice": "Dice used are D10s").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum WeaknessRoll {
        /// Alcohol: "Once started need 8+ to stop".
        StopDrinking => "stop_drinking",
        /// Gambling: "8+ to stop" (or when money has run out: no roll).
        StopGambling => "stop_gambling",
        /// Dalliance: "Chatting up the opposite sex, 8+ to stop".
        StopDallying => "stop_dallying",
        /// Kleptomania: "Dice not to steal unguarded objects or pick pockets 3+ not to".
        NotSteal => "not_steal",
        /// Clumsy: "D10 3+ not to fell likely objects".
        NotFell => "not_fell",
        /// Clumsy: "In melee any friend within 1" D10 2- hit!" (one roll for each such friend).
        FriendInMelee => "friend_in_melee",
        /// Over-talkative: "Needs 7+ to stop talking once started to a new acquaintance".
        StopTalking => "stop_talking",
        /// Collector: "Needs 7+ not to be distracted into searching for a desired object".
        NotDistracted => "not_distracted",
    }
}

impl WeaknessRoll {
    /// 000 "Weaknesses": the weakness the roll belongs to.
    pub fn weakness(self) -> Weakness {
        match self {
            WeaknessRoll::StopDrinking => Weakness::Alcohol,
            WeaknessRoll::StopGambling => Weakness::Gambling,
            WeaknessRoll::StopDallying => Weakness::Dalliance,
            WeaknessRoll::NotSteal => Weakness::Kleptomania,
            WeaknessRoll::NotFell | WeaknessRoll::FriendInMelee => Weakness::Clumsy,
            WeaknessRoll::StopTalking => Weakness::OverTalkative,
            WeaknessRoll::NotDistracted => Weakness::Collector,
        }
    }

    /// 000 "Weaknesses": the target: "8+", "3+", "7+", or the friend's "2-" (at most).
    pub fn target(self) -> i32 {
        match self {
            WeaknessRoll::StopDrinking | WeaknessRoll::StopGambling | WeaknessRoll::StopDallying => 8,
            WeaknessRoll::NotSteal | WeaknessRoll::NotFell => 3,
            WeaknessRoll::FriendInMelee => 2,
            WeaknessRoll::StopTalking | WeaknessRoll::NotDistracted => 7,
        }
    }
}

crate::rules::named_enum! {
    /// What a weakness roll gives.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum WeaknessOutcome {
        /// Stops drinking, gambling, dallying or talking.
        Stops => "stops",
        /// Carries on.
        CarriesOn => "carries_on",
        /// Does not steal, does not fell the object, is not distracted.
        Resists => "resists",
        /// Steals, fells the object, is distracted.
        GivesIn => "gives_in",
        /// The clumsy figure hits the friend within 1".
        FriendHit => "friend_hit",
        /// The friend is spared.
        FriendSpared => "friend_spared",
    }
}

/// A weakness roll, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WeaknessResult {
    /// Which roll.
    pub kind: WeaknessRoll,
    /// The D10 against its target.
    pub roll: Roll,
    /// What it gives.
    pub outcome: WeaknessOutcome,
}

/// 000 "Weaknesses": a weakness's own D10 ("8+ to stop", "3+ not to", "D10 2- hit!").
pub fn roll_weakness(kind: WeaknessRoll, src: &mut impl DiceSource) -> WeaknessResult {
    let roll = Roll::new(Dice::D10, src);
    let roll =
        if kind == WeaknessRoll::FriendInMelee { roll.at_most(kind.target()) } else { roll.at_least(kind.target()) };
    let outcome = weakness_outcome(kind, roll.passed() == Some(true));
    WeaknessResult { kind, roll, outcome }
}

/// 000 "Weaknesses": what a weakness roll gives, from whether it met its target (read again
/// when another rule, the evil eye's −1, changes the total).
pub fn weakness_outcome(kind: WeaknessRoll, passed: bool) -> WeaknessOutcome {
    match kind {
        WeaknessRoll::StopDrinking
        | WeaknessRoll::StopGambling
        | WeaknessRoll::StopDallying
        | WeaknessRoll::StopTalking => {
            if passed {
                WeaknessOutcome::Stops
            } else {
                WeaknessOutcome::CarriesOn
            }
        }
        WeaknessRoll::NotSteal | WeaknessRoll::NotFell | WeaknessRoll::NotDistracted => {
            if passed {
                WeaknessOutcome::Resists
            } else {
                WeaknessOutcome::GivesIn
            }
        }
        WeaknessRoll::FriendInMelee => {
            if passed {
                WeaknessOutcome::FriendHit
            } else {
                WeaknessOutcome::FriendSpared
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Outcomes and rolls
// ---------------------------------------------------------------------------------------------

crate::rules::outcome::impl_outcome! {
    DecisionOutcome => |o| Meaning::NONE;
    TemptationOutcome => |o| Meaning::NONE;
    LeaveOutcome => |o| Meaning::NONE;
    OutvoteOutcome => |o| Meaning::NONE;
    WeaknessOutcome => |o| Meaning::NONE;
}

// The rolls of each report in the order they were rolled (new events: no earlier log to keep).

impl Rolls for QualityRoll {
    /// The D6.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for DicedQualities {
    /// Each quality diced, in EIMGILD order.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.rolls.push_rolls(out);
    }
}

impl Rolls for DecisionResult {
    /// The D10.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for StayResult {
    /// The D6.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for TemptationResult {
    /// `roll`, then `stay`.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
        self.stay.push_rolls(out);
    }
}

impl Rolls for LeaveResult {
    /// The D10, if rolled.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

impl Rolls for WeaknessResult {
    /// The D10.
    fn push_rolls(&self, out: &mut Vec<Roll>) {
        self.roll.push_rolls(out);
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::Quality as Q;
    use super::TemptationKind as T;
    use super::Weakness as W;
    use super::*;
    use crate::rules::dice::{PassIf, ScriptedDice, ScriptedFaces, SeededDice};
    use crate::rules::stats::chi_square;

    /// Chi-square 99.9% critical values by degrees of freedom.
    const CHI_SQUARE_4_DF_999: f64 = 18.467;
    const CHI_SQUARE_6_DF_999: f64 = 22.458;

    /// Every temptation row as the text writes it: (row, quality, +1 adds / −1 takes away,
    /// female factor, target to resist, target to leave, the timed rows' "D6 + n moves" n).
    const TEXT: [(TemptationKind, Quality, i32, i32, i32, Option<i32>, Option<i32>); 24] = [
        (T::LowDrinkingTavern, Q::Integrity, 1, 2, 7, Some(8), None),
        (T::Bakery, Q::Integrity, 1, 0, 7, Some(6), None),
        (T::Musician, Q::Integrity, 1, -1, 8, Some(8), None),
        (T::Storyteller, Q::Loyalty, 1, 0, 7, Some(9), None),
        (T::PuppetShow, Q::Intelligence, 1, 0, 6, Some(8), None),
        (T::ArcheryButts, Q::Integrity, 1, 1, 6, Some(8), None),
        (T::Wrestling, Q::Energy, -1, -2, -2, Some(8), None),
        (T::FencingSchool, Q::Energy, -1, 1, 0, Some(8), None),
        (T::PublicBaths, Q::Diplomacy, -1, -1, -2, None, Some(2)),
        (T::AncientMonument, Q::Intelligence, -1, 0, -2, None, Some(0)),
        (T::EnthrallingBook, Q::Intelligence, -1, 0, -1, Some(8), None),
        (T::RedLightPremises, Q::Morals, 1, 0, 5, None, Some(3)),
        (T::StreetHarlot, Q::Morals, 1, 0, 3, None, Some(2)),
        (T::GamblingCasino, Q::Generosity, -1, 0, -1, Some(9), None),
        (T::DicingGame, Q::Generosity, -1, 0, -2, Some(8), None),
        (T::SmokingDen, Q::Loyalty, -1, 0, -2, Some(7), None),
        (T::TumblingDisplay, Q::Intelligence, 1, -1, 7, Some(7), None),
        (T::Conjurer, Q::Loyalty, 1, 0, 6, Some(8), None),
        (T::ClothingShop, Q::Diplomacy, -1, -2, -2, Some(9), None),
        (T::JewelleryShop, Q::Diplomacy, -1, -2, -2, Some(8), None),
        (T::BeggarsTale, Q::Generosity, -1, -1, -2, Some(8), None),
        (T::StripteaseShow, Q::Morals, 1, 0, 6, Some(8), None),
        (T::SkittleGame, Q::Energy, -1, 0, -2, Some(8), None),
        (T::Mirror, Q::Diplomacy, 1, -2, 8, None, Some(-2)),
    ];

    fn faces(f: &[u32]) -> ScriptedFaces {
        ScriptedDice::faces(f.iter().copied())
    }

    fn mods(roll: &Roll) -> Vec<(&str, i32)> {
        roll.modifiers.iter().map(|m| (&*m.reason, m.value)).collect()
    }

    /// The lowest GM factor the row accepts: the low end of LR's range, else 0.
    fn lowest_gm(kind: TemptationKind) -> i32 {
        match kind {
            T::StreetHarlot => 1,
            _ => 0,
        }
    }

    fn tempt_with(
        kind: TemptationKind,
        gm: i32,
        figure: &Tempted<'_>,
        readings: &TemptationReadings,
        f: &[u32],
    ) -> TemptationResult {
        let mut src = faces(f);
        let result = roll_temptation(kind, gm, figure, readings, &mut src).expect("a valid temptation");
        assert!(src.is_empty(), "{kind}: not every scripted face was used");
        result
    }

    fn tempt(kind: TemptationKind, gm: i32, figure: &Tempted<'_>, f: &[u32]) -> TemptationResult {
        tempt_with(kind, gm, figure, &TemptationReadings::default(), f)
    }

    fn leave_with(
        kind: TemptationKind,
        weaknesses: &[Weakness],
        out_of_money: bool,
        readings: &TemptationReadings,
        f: &[u32],
    ) -> LeaveResult {
        let mut src = faces(f);
        let result = roll_leave(kind, weaknesses, out_of_money, readings, &mut src).expect("a row with a leave roll");
        assert!(src.is_empty(), "{kind}: not every scripted face was used");
        result
    }

    fn leave(kind: TemptationKind, weaknesses: &[Weakness], f: &[u32]) -> LeaveResult {
        leave_with(kind, weaknesses, false, &TemptationReadings::default(), f)
    }

    // --- EIMGILD qualities ---------------------------------------------------------------------

    #[test]
    fn qualities_are_named_as_the_text_names_them() {
        let abbreviations: Vec<&str> = Quality::ALL.iter().map(|q| q.abbreviation()).collect();
        assert_eq!(abbreviations, ["Ey", "Ie", "Ms", "Gy", "Iy", "Ly", "Dy"]);
        assert_eq!(Q::Integrity.reason(), "integrity (Iy)");
        assert!(Q::Integrity.influences().is_some_and(|s| s.contains("Terror Resistance")));
        assert!(Q::Intelligence.influences().is_some_and(|s| s.contains("Spell Resistance")));
        for q in [Q::Energy, Q::Morals, Q::Generosity, Q::Loyalty, Q::Diplomacy] {
            assert_eq!(q.influences(), None, "{q}");
        }
        assert_eq!(Qualities::default(), Qualities::NORM);
        assert!(Quality::ALL.iter().all(|&q| Qualities::NORM.get(q) == 4));
    }

    /// 000: "To dice for these randomly use D6, reading the 1 as a second 4".
    #[test]
    fn quality_dice_read_a_one_as_a_second_four() {
        for (face, value) in [(1, 4), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)] {
            let mut src = faces(&[face]);
            let rolled = roll_quality(Q::Loyalty, &mut src);
            assert!(src.is_empty());
            assert_eq!(rolled.quality, Q::Loyalty);
            assert_eq!(rolled.roll.dice, Dice::D6);
            assert_eq!(rolled.roll.faces, [u8::try_from(face).unwrap()]);
            assert_eq!(rolled.value, value, "face {face}");
            assert_eq!(rolled.roll.total, i32::from(value));
            let expect: &[(&str, i32)] = if face == 1 { &[("1 read as a second 4", 3)] } else { &[] };
            assert_eq!(mods(&rolled.roll), expect, "face {face}");
        }
    }

    #[test]
    fn quality_dice_distribution_matches_the_text() {
        // D6 with the 1 read as a 4: 2, 3, 5, 6 one face each, 4 two faces.
        let expected = [1.0 / 6.0, 1.0 / 6.0, 2.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0];
        let mut observed = [0u32; 5];
        let mut src = SeededDice::new(0xE1A6);
        for _ in 0..30_000 {
            let value = roll_quality(Q::Energy, &mut src).value;
            assert!((2..=6).contains(&value), "{value}");
            observed[usize::from(value - 2)] += 1;
        }
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI_SQUARE_4_DF_999, "chi-square {chi}: observed {observed:?}");
    }

    /// 000: "the full range is from 1 to 7".
    #[test]
    fn qualities_run_from_one_to_seven() {
        for q in Quality::ALL {
            for ok in [1, 4, 7] {
                assert_eq!(Qualities::NORM.with(q, ok).validate(), Ok(()), "{q} {ok}");
                assert_eq!(Qualities::NORM.with(q, ok).get(q), ok);
            }
            for bad in [0, 8] {
                assert_eq!(
                    Qualities::NORM.with(q, bad).validate(),
                    Err(QualityError::OutOfRange { quality: q, value: bad }),
                    "{q} {bad}"
                );
            }
        }
        let err = Qualities::NORM.with(Q::Loyalty, 8).validate().unwrap_err();
        assert_eq!(err.to_string(), "loyalty (Ly) is 8: EIMGILD qualities run from 1 to 7");
        let known = KnownQualities { morals: Some(0), ..KnownQualities::default() };
        assert_eq!(known.validate(), Err(QualityError::OutOfRange { quality: Q::Morals, value: 0 }));
        assert_eq!(KnownQualities::default().validate(), Ok(()));
    }

    /// 000: "it is wise to dice for the characteristics only when needed".
    #[test]
    fn known_qualities_dice_only_the_unknown() {
        let known = KnownQualities { energy: Some(6), loyalty: Some(2), ..KnownQualities::default() };
        let mut src = faces(&[1, 2, 3, 4, 5]);
        let diced = known.complete(&mut src);
        assert!(src.is_empty());
        assert_eq!(
            diced.qualities,
            Qualities { energy: 6, intelligence: 4, morals: 2, generosity: 3, integrity: 4, loyalty: 2, diplomacy: 5 }
        );
        let diced_qualities: Vec<Quality> = diced.rolls.iter().map(|r| r.quality).collect();
        assert_eq!(diced_qualities, [Q::Intelligence, Q::Morals, Q::Generosity, Q::Integrity, Q::Diplomacy]);
        assert_eq!(diced.rolls().len(), 5);
        let all = KnownQualities::from(Qualities::NORM.with(Q::Morals, 7));
        let mut none = faces(&[]);
        assert_eq!(all.complete(&mut none).qualities, Qualities::NORM.with(Q::Morals, 7));
    }

    // --- Decisions -----------------------------------------------------------------------------

    fn weight(quality: Quality, relevance: Relevance) -> QualityWeight {
        QualityWeight { quality, relevance }
    }

    /// Step 1 of the constructed example: Old Brann the innkeeper decides.
    fn brann() -> Qualities {
        Qualities { energy: 3, intelligence: 4, morals: 5, generosity: 2, integrity: 4, loyalty: 6, diplomacy: 5 }
    }

    /// Step 2 and 3 of the constructed example: a fugitive asks Brann to hide him; the
    /// fugitive's sister, a Charmer of rating 3, pleads for him.
    fn fugitive_options() -> Vec<DecisionOption> {
        vec![
            DecisionOption {
                name: "hide the fugitive".into(),
                causation: 2,
                charmer_rating: 3,
                qualities: vec![weight(Q::Generosity, Relevance::AsIs), weight(Q::Morals, Relevance::Halved)],
            },
            DecisionOption {
                name: "turn him away".into(),
                causation: 3,
                charmer_rating: 0,
                qualities: vec![weight(Q::Integrity, Relevance::Halved)],
            },
            DecisionOption {
                name: "report him to the watch".into(),
                causation: 1,
                charmer_rating: 0,
                qualities: vec![weight(Q::Loyalty, Relevance::Doubled)],
            },
        ]
    }

    #[test]
    fn relevance_counts_in_half_points() {
        assert_eq!(Relevance::Doubled.half_points(5), 20);
        assert_eq!(Relevance::AsIs.half_points(5), 10);
        assert_eq!(Relevance::Halved.half_points(5), 5);
        assert_eq!(Relevance::Halved.half_points(1), 1);
    }

    /// 000 "To arrive at a decision using card characters" has no worked example; this one is
    /// constructed and followed step by step.
    #[test]
    fn worked_example_step_by_step() {
        // 1) Brann decides (his qualities).
        let qualities = brann();
        let options = fugitive_options();
        // 2) Causation factors: hide 2 + the Charmer's 3 = 5; turn away 3; report 1.
        let causation: Vec<u32> = options.iter().map(option_causation).collect();
        assert_eq!(causation, [5, 3, 1]);
        let scores = score_options(&qualities, &options).expect("a valid decision");
        assert_eq!(scores.iter().map(|s| s.causation).collect::<Vec<_>>(), [5, 3, 1]);
        // 3) Loyalty, the most relevant, doubled: 6 → 12; generosity as it is: 2; morals halved:
        //    5 → 2½; integrity halved: 4 → 2. In half-points: 24; 4; 5; 4.
        assert_eq!(scores[0].quality_half_points, [(Q::Generosity, 4), (Q::Morals, 5)]);
        assert_eq!(scores[1].quality_half_points, [(Q::Integrity, 4)]);
        assert_eq!(scores[2].quality_half_points, [(Q::Loyalty, 24)]);
        // 4) Totals: hide 5 + 2 + 2½ = 9½; turn away 3 + 2 = 5; report 1 + 12 = 13 (27½ in all).
        assert_eq!(scores.iter().map(|s| s.half_points).collect::<Vec<_>>(), [19, 10, 26]);
        for (score, total) in scores.iter().zip([9.5, 5.0, 13.0]) {
            assert!((score.total() - total).abs() < 1e-9, "{}: {}", score.name, score.total());
        }
        // 5) In proportion to ten faces: 3.45, 1.82, 4.73 → 3, 1, 4 whole faces; the two left
        //    go to the largest remainders (.82 turn away, .73 report): 3, 2, 5 faces.
        let ranges: Vec<Option<FaceRange>> = scores.iter().map(|s| s.faces).collect();
        assert_eq!(
            ranges,
            [
                Some(FaceRange { low: 0, high: 2 }),
                Some(FaceRange { low: 3, high: 4 }),
                Some(FaceRange { low: 5, high: 9 })
            ]
        );
        assert_eq!(ranges.iter().map(|r| r.map_or(0, FaceRange::count)).sum::<u8>(), 10);
    }

    /// Step 5, "use a D10 to achieve the result": each face on both sides of each edge.
    #[test]
    fn worked_example_d10_on_both_sides_of_each_edge() {
        for (face, chosen, name) in [
            (0, 0, "hide the fugitive"),
            (2, 0, "hide the fugitive"),
            (3, 1, "turn him away"),
            (4, 1, "turn him away"),
            (5, 2, "report him to the watch"),
            (9, 2, "report him to the watch"),
        ] {
            let mut src = faces(&[face]);
            let result = decide(&brann(), &fugitive_options(), &mut src).expect("a valid decision");
            assert!(src.is_empty());
            assert_eq!(result.roll.dice, Dice::D10);
            assert_eq!(result.roll.total, i32::try_from(face).unwrap());
            assert_eq!(result.chosen, chosen, "face {face}");
            assert_eq!(result.chosen_name(), name);
            assert_eq!(result.outcome, DecisionOutcome::Decided);
            assert_eq!(result.rolls(), std::slice::from_ref(&result.roll));
        }
    }

    /// 001 "Lay an evil eye Curse": −1 on the temptation roll, read at its edge; the roll to
    /// leave and the decision's D10 are read again by [`leave_outcome`] and [`chosen_option`],
    /// where a cursed 0 (−1) still takes the lowest face.
    #[test]
    fn the_evil_eye_moves_temptations_leaving_and_decisions_at_their_edges() {
        // Storyteller, D10 + Ly (4) "need 7+ to ignore": a 3 ignores; cursed, 6 succumbs.
        let plain = tempt(T::Storyteller, 0, &Tempted::default(), &[3]);
        let cursed = tempt(T::Storyteller, 0, &Tempted { evil_eye: true, ..Tempted::default() }, &[3]);
        assert_eq!((plain.roll.as_ref().map(|r| r.total), plain.outcome), (Some(7), TemptationOutcome::Resisted));
        assert_eq!((cursed.roll.as_ref().map(|r| r.total), cursed.outcome), (Some(6), TemptationOutcome::Succumbed));
        let last = cursed.roll.as_ref().and_then(|r| r.modifiers.last()).map(|m| (m.reason.as_ref(), m.value));
        assert_eq!(last, Some((crate::rules::magic::EVIL_EYE_REASON, -1)));
        assert_eq!(leave_outcome(true), LeaveOutcome::Leaves);
        assert_eq!(leave_outcome(false), LeaveOutcome::Stays);
        // "9+ to leave": 9 leaves, the same 9 cursed stays.
        let mut at_edge = leave(T::Storyteller, &[], &[9]);
        assert_eq!(at_edge.outcome, LeaveOutcome::Leaves);
        let roll = at_edge.roll.as_mut().expect("a roll to leave");
        crate::rules::magic::apply_evil_eye(roll, true);
        assert_eq!(leave_outcome(roll.passed() == Some(true)), LeaveOutcome::Stays);
        // The worked example's faces: 0–2 hide, 3–4 turn away, 5–9 report.
        let result = decide(&brann(), &fugitive_options(), &mut faces(&[0])).expect("a valid decision");
        for (total, chosen) in [(-1, 0), (0, 0), (2, 0), (3, 1), (4, 1), (5, 2), (9, 2), (10, 2)] {
            assert_eq!(chosen_option(&result.scores, total), chosen, "total {total}");
        }
    }

    #[test]
    fn faces_are_shared_in_proportion() {
        let r = |low, high| Some(FaceRange { low, high });
        assert_eq!(share_faces(&[1, 1, 1]), [r(0, 3), r(4, 6), r(7, 9)], "a tie goes to the earlier option");
        assert_eq!(share_faces(&[1, 0, 1]), [r(0, 4), None, r(5, 9)]);
        assert_eq!(share_faces(&[0, 0, 5]), [None, None, r(0, 9)]);
        assert_eq!(share_faces(&[2, 1]), [r(0, 6), r(7, 9)]);
        assert_eq!(share_faces(&[1, 99]), [None, r(0, 9)], "a share of 0.1 rounds to no face");
        assert_eq!(share_faces(&[0, 0]), [None::<FaceRange>; 2]);
        assert!(share_faces(&[]).is_empty());
        for totals in [&[3, 7, 11][..], &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], &[5; 13], &[97, 1, 1, 1]] {
            let shared = share_faces(totals);
            let mut next = 0;
            for range in shared.iter().flatten() {
                assert_eq!(range.low, next, "{totals:?}: consecutive faces");
                next = range.high + 1;
            }
            assert_eq!(next, 10, "{totals:?}: every face 0-9 is taken once");
        }
        let range = FaceRange { low: 3, high: 4 };
        assert!(!range.contains(2) && range.contains(3) && range.contains(4) && !range.contains(5));
    }

    #[test]
    fn decisions_follow_the_steps_or_say_why_not() {
        let q = brann();
        assert_eq!(score_options(&q, &[]), Err(DecisionError::NoOptions));
        assert_eq!(
            score_options(&q.with(Q::Loyalty, 8), &fugitive_options()),
            Err(DecisionError::Qualities(QualityError::OutOfRange { quality: Q::Loyalty, value: 8 }))
        );
        let mut options = fugitive_options();
        options[1].causation = 6;
        assert_eq!(
            score_options(&q, &options),
            Err(DecisionError::CausationOutOfRange { option: "turn him away".into(), value: 6 })
        );
        options[1].causation = 5;
        assert!(score_options(&q, &options).is_ok(), "0 > 5 includes 5");
        options[1].causation = 0;
        assert!(score_options(&q, &options).is_ok(), "0 > 5 includes 0");
        let mut options = fugitive_options();
        options[0].qualities.push(weight(Q::Generosity, Relevance::Halved));
        assert_eq!(
            score_options(&q, &options),
            Err(DecisionError::QualityRepeated { option: "hide the fugitive".into(), quality: Q::Generosity })
        );
        let mut options = fugitive_options();
        options[2].qualities[0].relevance = Relevance::AsIs;
        assert_eq!(score_options(&q, &options), Err(DecisionError::NoQualityDoubled));
        let mut options = fugitive_options();
        options[1].qualities[0].relevance = Relevance::Doubled;
        assert_eq!(
            score_options(&q, &options),
            Err(DecisionError::SeveralQualitiesDoubled { first: Q::Integrity, second: Q::Loyalty })
        );
        let mut options = fugitive_options();
        options[1].qualities = vec![weight(Q::Loyalty, Relevance::Doubled)];
        assert!(score_options(&q, &options).is_ok(), "the one most relevant quality may count for two options");
        let mut src = faces(&[]);
        assert_eq!(decide(&q, &[], &mut src), Err(DecisionError::NoOptions));
        assert_eq!(
            DecisionError::CausationOutOfRange { option: "x".into(), value: 6 }.to_string(),
            "option \"x\": causation factor 6 is outside 0-5"
        );
    }

    // --- Temptations ---------------------------------------------------------------------------

    #[test]
    fn temptation_rows_are_the_text() {
        assert_eq!(TEXT.map(|t| t.0), TemptationKind::ALL, "one row for each kind, in the text's order");
        for (kind, quality, sign, female, resist, leave, stay) in TEXT {
            let row = kind.row();
            assert_eq!(row.dice, Dice::D10, "{kind}");
            assert_eq!(row.quality, quality, "{kind}");
            assert_eq!(row.quality_sign, sign, "{kind}");
            assert_eq!(row.female_factor, female, "{kind}");
            assert_eq!(row.resist_target, resist, "{kind}");
            assert_eq!(row.leave_target, leave, "{kind}");
            assert_eq!(row.stay.map(|s| s.plus), stay, "{kind}");
            assert!(row.stay.is_none_or(|s| s.dice == Dice::D6), "{kind}: timed rows roll a D6");
            assert!(row.leave_target.is_some() != row.stay.is_some(), "{kind}: a roll to leave or a time");
            let fencing = kind == T::FencingSchool;
            assert_eq!(row.non_fighter_factor, if fencing { 3 } else { 0 }, "{kind}");
            assert_eq!(row.watch_at_most, fencing.then_some(-3), "{kind}");
            assert_eq!(row.non_smoker_factor, if kind == T::SmokingDen { 2 } else { 0 }, "{kind}");
            let lured = match kind {
                T::RedLightPremises | T::StreetHarlot | T::StripteaseShow => Lured::MalesOnly,
                T::EnthrallingBook => Lured::ReadersOnly,
                _ => Lured::Anyone,
            };
            assert_eq!(row.lured, lured, "{kind}");
            let gm = match kind {
                T::LowDrinkingTavern => Some((GmFactor::Thirst, None)),
                T::Bakery => Some((GmFactor::Hunger, None)),
                T::Musician => Some((GmFactor::QualityOfMusic, None)),
                T::PublicBaths => Some((GmFactor::Dirtiness, None)),
                T::RedLightPremises => Some((GmFactor::Lr, Some((0, 1)))),
                T::StreetHarlot => Some((GmFactor::Lr, Some((1, 3)))),
                _ => None,
            };
            assert_eq!(row.gm_factor, gm, "{kind}");
            assert_eq!(row.leave_words, if kind == T::EnthrallingBook { "to stop" } else { "to leave" });
        }
        assert_eq!(T::LowDrinkingTavern.to_string(), "Low Drinking Tavern");
        assert_eq!(T::ArcheryButts.row().resist_words, "not to watch");
        assert_eq!(T::StreetHarlot.row().resist_words, "not to employ");
    }

    /// Every row at its target (resists) and one below (drawn in), a male reader with one quality
    /// set so the edge falls on the die.
    #[test]
    fn every_temptation_row_on_both_sides_of_its_target() {
        for (kind, quality, sign, _, resist, _, stay) in TEXT {
            let gm = lowest_gm(kind);
            let (q, face) = (1..=7)
                .find_map(|q: i32| {
                    let face = resist - sign * q - gm;
                    (1..=9).contains(&face).then_some((q, face))
                })
                .expect("a quality that puts the edge on the die");
            let figure = Tempted {
                qualities: Qualities::NORM.with(quality, u8::try_from(q).unwrap()),
                reader: true,
                ..Tempted::default()
            };
            let face = u32::try_from(face).unwrap();

            let at = tempt(kind, gm, &figure, &[face]);
            let roll = at.roll.as_ref().expect("rolled");
            assert_eq!(roll.total, resist, "{kind}");
            assert_eq!(roll.target, Some(resist), "{kind}");
            assert_eq!(roll.passed(), Some(true), "{kind}");
            assert_eq!(mods(roll)[0], (quality.reason(), sign * q), "{kind}");
            assert_eq!(at.outcome, TemptationOutcome::Resisted, "{kind}");
            assert_eq!(at.stay, None, "{kind}");

            let below_faces = [face - 1, 3];
            let script = if stay.is_some() { &below_faces[..] } else { &below_faces[..1] };
            let below = tempt(kind, gm, &figure, script);
            let roll = below.roll.as_ref().expect("rolled");
            assert_eq!(roll.total, resist - 1, "{kind}");
            assert_eq!(roll.passed(), Some(false), "{kind}");
            let drawn = if kind == T::FencingSchool { TemptationOutcome::Fights } else { TemptationOutcome::Succumbed };
            assert_eq!(below.outcome, drawn, "{kind}");
            assert!(below.outcome.drawn_in());
            assert_eq!(below.stay.is_some(), stay.is_some(), "{kind}");
        }
    }

    #[test]
    fn female_factors_shift_the_total() {
        for (kind, _, _, female, _, _, _) in TEXT {
            if kind.row().lured == Lured::MalesOnly {
                continue;
            }
            let total = |sex: Sex| {
                let figure = Tempted { sex, reader: true, ..Tempted::default() };
                let mut src = faces(&[5, 3]);
                let result = roll_temptation(kind, 0, &figure, &TemptationReadings::default(), &mut src).unwrap();
                result.roll.expect("rolled")
            };
            let (man, woman) = (total(Sex::Male), total(Sex::Female));
            assert_eq!(woman.total - man.total, female, "{kind}");
            assert_eq!(woman.modifiers.iter().any(|m| m.reason == "female"), female != 0, "{kind}");
            assert!(man.modifiers.iter().all(|m| m.reason != "female"), "{kind}");
        }
    }

    #[test]
    fn gm_factors_are_added_as_judged() {
        let figure = Tempted { qualities: Qualities::NORM.with(Q::Integrity, 1), ..Tempted::default() };
        // Tavern: D10 + Iy 1 + thirst −3: 9 → 7 ignores; 8 → 6 goes in.
        let at = tempt(T::LowDrinkingTavern, -3, &figure, &[9]);
        assert_eq!(at.outcome, TemptationOutcome::Resisted);
        assert_eq!(mods(at.roll.as_ref().unwrap()), [("integrity (Iy)", 1), ("thirst", -3)]);
        assert_eq!(tempt(T::LowDrinkingTavern, -3, &figure, &[8]).outcome, TemptationOutcome::Succumbed);
        for (kind, label) in [(T::Bakery, "hunger"), (T::Musician, "quality of music"), (T::PublicBaths, "dirtiness")] {
            let result =
                roll_temptation(kind, 2, &figure, &TemptationReadings::default(), &mut faces(&[9, 1])).unwrap();
            assert!(mods(result.roll.as_ref().unwrap()).contains(&(label, 2)), "{kind}");
        }
        let man = Tempted { qualities: Qualities::NORM.with(Q::Morals, 1), ..Tempted::default() };
        // Street harlot: D10 + Ms 1 + LR 1: 1 → 3 does not employ; 0 → 2 employs.
        let at = tempt(T::StreetHarlot, 1, &man, &[1]);
        assert_eq!(mods(at.roll.as_ref().unwrap()), [("morals (Ms)", 1), ("LR", 1)]);
        assert_eq!(at.outcome, TemptationOutcome::Resisted);
        assert_eq!(tempt(T::StreetHarlot, 1, &man, &[0, 1]).outcome, TemptationOutcome::Succumbed);
        assert_eq!(tempt(T::StreetHarlot, 3, &man, &[0]).outcome, TemptationOutcome::Resisted);
        // Red light: D10 + Ms 1 + LR (0-1) 5+: 3 + 1 + 1 = 5 stays out; 3 + 1 + 0 = 4 enters.
        assert_eq!(tempt(T::RedLightPremises, 1, &man, &[3]).outcome, TemptationOutcome::Resisted);
        assert_eq!(tempt(T::RedLightPremises, 0, &man, &[3, 1]).outcome, TemptationOutcome::Succumbed);
    }

    #[test]
    fn gm_factor_ranges_are_the_texts() {
        for (kind, ok, bad) in [(T::RedLightPremises, [0, 1], [-1, 2]), (T::StreetHarlot, [1, 3], [0, 4])] {
            for value in ok {
                assert_eq!(check_gm_factor(kind, value), Ok(()), "{kind} {value}");
            }
            for value in bad {
                let [low, high] = ok;
                assert_eq!(
                    check_gm_factor(kind, value),
                    Err(TemptationError::GmFactorOutOfRange { kind, factor: GmFactor::Lr, value, low, high })
                );
                let mut src = faces(&[]);
                assert!(
                    roll_temptation(kind, value, &Tempted::default(), &TemptationReadings::default(), &mut src)
                        .is_err()
                );
            }
        }
        assert_eq!(check_gm_factor(T::LowDrinkingTavern, -9), Ok(()), "thirst has no scale");
        assert_eq!(check_gm_factor(T::Storyteller, 0), Ok(()));
        assert_eq!(
            check_gm_factor(T::Storyteller, 1),
            Err(TemptationError::NoGmFactor { kind: T::Storyteller, value: 1 })
        );
        assert_eq!(check_gm_factor(T::StreetHarlot, 4).unwrap_err().to_string(), "Street harlot: LR is 4, outside 1-3");
    }

    #[test]
    fn non_fighters_and_non_smokers() {
        let figure = Tempted { non_fighter: true, non_smoker: true, ..Tempted::default() };
        // Fencing: D10 − Ey 4 + non-fighter 3: 1 → 0 neither; 0 → −1 fights.
        let at = tempt(T::FencingSchool, 0, &figure, &[1]);
        assert_eq!(mods(at.roll.as_ref().unwrap()), [("energy (Ey)", -4), ("non-fighter", 3)]);
        assert_eq!(at.outcome, TemptationOutcome::Resisted);
        assert_eq!(tempt(T::FencingSchool, 0, &figure, &[0]).outcome, TemptationOutcome::Fights);
        // Smoking den: D10 − Ly 4 + non-smoker 2: 0 → −2 stays out; a smoker's 0 → −4 enters.
        let at = tempt(T::SmokingDen, 0, &figure, &[0]);
        assert_eq!(mods(at.roll.as_ref().unwrap()), [("loyalty (Ly)", -4), ("non-smoker", 2)]);
        assert_eq!(at.outcome, TemptationOutcome::Resisted);
        assert_eq!(tempt(T::SmokingDen, 0, &Tempted::default(), &[1]).outcome, TemptationOutcome::Succumbed);
        // Nowhere else.
        let at = tempt(T::Wrestling, 0, &figure, &[5]);
        assert_eq!(mods(at.roll.as_ref().unwrap()), [("energy (Ey)", -4)]);
    }

    #[test]
    fn males_only_and_readers_only() {
        let woman = Tempted { sex: Sex::Female, reader: true, ..Tempted::default() };
        for kind in [T::RedLightPremises, T::StreetHarlot, T::StripteaseShow] {
            let gm = lowest_gm(kind);
            let result = tempt(kind, gm, &woman, &[]);
            assert_eq!(result.outcome, TemptationOutcome::NotTempted, "{kind}");
            assert_eq!(result.roll, None);
            assert!(result.rolls().is_empty());
            assert!(tempt(kind, gm, &Tempted::default(), &[9]).roll.is_some(), "{kind}: a man is tempted");
        }
        let illiterate = Tempted { reader: false, ..Tempted::default() };
        assert_eq!(tempt(T::EnthrallingBook, 0, &illiterate, &[]).outcome, TemptationOutcome::NotTempted);
        assert!(tempt(T::EnthrallingBook, 0, &woman, &[9]).roll.is_some(), "a woman who reads is tempted");
        assert!(tempt(T::LowDrinkingTavern, 0, &illiterate, &[9]).roll.is_some(), "reading matters only for the book");
        assert!(Lured::Anyone.lures(Sex::Female, false));
        assert!(!Lured::MalesOnly.lures(Sex::Female, true) && Lured::MalesOnly.lures(Sex::Male, false));
        assert!(!Lured::ReadersOnly.lures(Sex::Male, false) && Lured::ReadersOnly.lures(Sex::Female, true));
    }

    /// "-1- fight, -3- watch": both readings, each band at its edges.
    #[test]
    fn fencing_school_three_outcomes() {
        use super::TemptationOutcome::{Fights, Resisted, Watches};
        let figure = Tempted::default(); // Ey 4, a fighter, male: the total is the face − 4.
        let swapped =
            TemptationReadings { fencing_bands: FencingBands::FightBelowWatch, ..TemptationReadings::default() };
        for (face, literal, other) in [
            (5, Resisted, Resisted),
            (4, Resisted, Resisted),
            (3, Fights, Watches),
            (2, Fights, Watches),
            (1, Watches, Fights),
            (0, Watches, Fights),
        ] {
            let at = tempt(T::FencingSchool, 0, &figure, &[face]);
            assert_eq!(at.roll.as_ref().unwrap().total, i32::try_from(face).unwrap() - 4);
            assert_eq!(at.outcome, literal, "face {face}");
            assert_eq!(tempt_with(T::FencingSchool, 0, &figure, &swapped, &[face]).outcome, other, "face {face}");
        }
        assert_eq!(temptation_band(T::FencingSchool, 0, FencingBands::NarrowerFirst), Resisted);
        assert_eq!(temptation_band(T::FencingSchool, -1, FencingBands::NarrowerFirst), Fights);
        assert_eq!(temptation_band(T::FencingSchool, -2, FencingBands::NarrowerFirst), Fights);
        assert_eq!(temptation_band(T::FencingSchool, -3, FencingBands::NarrowerFirst), Watches);
        assert_eq!(temptation_band(T::FencingSchool, -9, FencingBands::NarrowerFirst), Watches);
        assert_eq!(temptation_band(T::FencingSchool, -3, FencingBands::FightBelowWatch), Fights);
        assert_eq!(temptation_band(T::FencingSchool, -2, FencingBands::FightBelowWatch), Watches);
        assert_eq!(temptation_band(T::Wrestling, -3, FencingBands::FightBelowWatch), TemptationOutcome::Succumbed);
    }

    /// "taking D6 + 2 moves", "D6 moves examining", "taking D6 + 3 moves", "taking D6 + 2 moves",
    /// "D6 -2 moves admiring self": the D6's faces 1 and 6, and the mirror's 1 to 3.
    #[test]
    fn timed_rows_roll_their_moves() {
        // Ms 1 so even the harlot (3+, LR 1) is employed on a 0.
        let figure = Tempted { qualities: Qualities::NORM.with(Q::Morals, 1), ..Tempted::default() };
        for (kind, one, six) in [
            (T::PublicBaths, 3, 8),
            (T::AncientMonument, 1, 6),
            (T::RedLightPremises, 4, 9),
            (T::StreetHarlot, 3, 8),
            (T::Mirror, 0, 4),
        ] {
            for (d6, moves) in [(1, one), (6, six)] {
                let result = tempt(kind, lowest_gm(kind), &figure, &[0, d6]);
                assert_eq!(result.outcome, TemptationOutcome::Succumbed, "{kind}");
                let stay = result.stay.as_ref().expect("a timed row rolls its moves");
                assert_eq!(stay.roll.dice, Dice::D6);
                assert_eq!(stay.moves, moves, "{kind} D6 {d6}");
                assert_eq!(result.rolls().len(), 2, "the temptation roll, then the time");
                assert_eq!(result.rolls()[1], stay.roll);
            }
        }
        let mirror = |d6| roll_stay(T::Mirror.row().stay.unwrap(), &mut faces(&[d6]));
        assert_eq!(mirror(1).roll.total, -1);
        assert_eq!(mirror(1).moves, 0, "D6 − 2 below 0 costs no move");
        assert_eq!(mirror(2).moves, 0);
        assert_eq!(mirror(3).moves, 1);
        assert_eq!(mods(&mirror(3).roll), [("admiring self -2 moves", -2)]);
        assert!(mods(&roll_stay(T::AncientMonument.row().stay.unwrap(), &mut faces(&[4])).roll).is_empty());
    }

    /// "8+ to leave", "6+ to leave", "9+ to leave", the book's "8+ to stop", ...: each at its
    /// target and one below, with no weakness.
    #[test]
    fn every_leave_roll_on_both_sides_of_its_target() {
        for (kind, _, _, _, _, leave_target, _) in TEXT {
            let Some(target) = leave_target else { continue };
            let face = u32::try_from(target).unwrap();
            let out = leave(kind, &[], &[face]);
            let roll = out.roll.as_ref().expect("rolled");
            assert_eq!(
                (roll.total, roll.target, roll.pass_if),
                (target, Some(target), Some(PassIf::AtLeast)),
                "{kind}"
            );
            assert!(roll.modifiers.is_empty(), "{kind}: no factors but weaknesses");
            assert_eq!(out.outcome, LeaveOutcome::Leaves, "{kind}");
            assert_eq!(leave(kind, &[], &[face - 1]).outcome, LeaveOutcome::Stays, "{kind}");
        }
    }

    #[test]
    fn timed_rows_have_no_leave_roll() {
        for (kind, _, _, _, _, leave_target, _) in TEXT {
            if leave_target.is_some() {
                continue;
            }
            let mut src = faces(&[]);
            let result = roll_leave(kind, &[], false, &TemptationReadings::default(), &mut src);
            assert_eq!(result, Err(TemptationError::NoLeaveRoll { kind }));
        }
    }

    // --- Weaknesses ----------------------------------------------------------------------------

    /// Which lures each weakness's −2 counts against (default readings).
    #[test]
    fn weakness_factors_apply_to_their_lures() {
        let lures: &[(Weakness, &[TemptationKind])] = &[
            (W::Alcohol, &[T::LowDrinkingTavern]),
            (W::Tobacco, &[T::SmokingDen]),
            (W::Gambling, &[T::GamblingCasino, T::DicingGame]),
            (W::Lechery, &[T::RedLightPremises, T::StreetHarlot, T::StripteaseShow]),
            (W::Vanity, &[T::ClothingShop, T::JewelleryShop, T::Mirror]),
        ];
        let readings = TemptationReadings::default();
        for weakness in Weakness::ALL {
            let listed = lures.iter().find(|(w, _)| *w == weakness).map_or(&[][..], |(_, kinds)| *kinds);
            for kind in TemptationKind::ALL {
                let expect = if listed.contains(&kind) { -2 } else { 0 };
                assert_eq!(weakness.temptation_factor(kind, &readings), expect, "{} at {kind}", weakness.id());
                assert_eq!(weakness.applies_to(kind, &readings), expect != 0);
            }
        }
        let narrow = TemptationReadings {
            lechery_at_red_light: false,
            vanity_at_jewellery: false,
            ..TemptationReadings::default()
        };
        assert_eq!(W::Lechery.temptation_factor(T::RedLightPremises, &narrow), 0);
        assert_eq!(W::Lechery.temptation_factor(T::StreetHarlot, &narrow), -2);
        assert_eq!(W::Vanity.temptation_factor(T::JewelleryShop, &narrow), 0);
        assert_eq!(W::Vanity.temptation_factor(T::ClothingShop, &narrow), -2);
    }

    #[test]
    fn a_weakness_moves_the_temptation_edge() {
        // Tavern, Iy 4: 7+ ignores on a 3; an alcoholic needs a 5.
        let drinker = [W::Alcohol, W::Alcohol];
        let figure = Tempted { weaknesses: &drinker, ..Tempted::default() };
        assert_eq!(tempt(T::LowDrinkingTavern, 0, &Tempted::default(), &[3]).outcome, TemptationOutcome::Resisted);
        let at = tempt(T::LowDrinkingTavern, 0, &figure, &[5]);
        assert_eq!(mods(at.roll.as_ref().unwrap()), [("integrity (Iy)", 4), ("alcohol", -2)], "counted once");
        assert_eq!(at.outcome, TemptationOutcome::Resisted);
        assert_eq!(tempt(T::LowDrinkingTavern, 0, &figure, &[4]).outcome, TemptationOutcome::Succumbed);
        // A weakness for another lure changes nothing.
        assert!(mods(tempt(T::Bakery, 0, &figure, &[5]).roll.as_ref().unwrap()).iter().all(|m| m.0 != "alcohol"));
        // Tobacco and non-smoker together at the smoking den: +2 − 2.
        let snuff = [W::Tobacco];
        let taker = Tempted { non_smoker: true, weaknesses: &snuff, ..Tempted::default() };
        let at = tempt(T::SmokingDen, 0, &taker, &[2]);
        assert_eq!(mods(at.roll.as_ref().unwrap()), [("loyalty (Ly)", -4), ("non-smoker", 2), ("tobacco", -2)]);
        assert_eq!(at.outcome, TemptationOutcome::Resisted);
    }

    /// "dice each move to leave, applying only weakness factors".
    #[test]
    fn leave_rolls_apply_weakness_factors_only() {
        let readings = TemptationReadings::default();
        // An alcoholic in the tavern: D10 − 2 never reaches 8.
        let out = leave(T::LowDrinkingTavern, &[W::Alcohol], &[9]);
        assert_eq!(mods(out.roll.as_ref().unwrap()), [("alcohol", -2)]);
        assert_eq!(out.roll.as_ref().unwrap().total, 7);
        assert_eq!(out.outcome, LeaveOutcome::Stays);
        // A lecher at the striptease show likewise; a vain woman in the jewellery shop leaves on a 0-9 + −2 ≥ 8: never.
        assert_eq!(leave(T::StripteaseShow, &[W::Lechery], &[9]).outcome, LeaveOutcome::Stays);
        assert_eq!(leave(T::JewelleryShop, &[W::Vanity], &[9]).outcome, LeaveOutcome::Stays);
        // A weakness for another lure is not counted.
        assert_eq!(leave(T::Bakery, &[W::Alcohol], &[6]).outcome, LeaveOutcome::Leaves);
        // Read the other way, the roll is bare.
        let bare = TemptationReadings { weakness_factors_on_leave: false, ..readings };
        let out = leave_with(T::LowDrinkingTavern, &[W::Alcohol], false, &bare, &[8]);
        assert!(out.roll.as_ref().unwrap().modifiers.is_empty());
        assert_eq!(out.outcome, LeaveOutcome::Leaves);
        assert_eq!(leave_with(T::LowDrinkingTavern, &[W::Alcohol], false, &bare, &[7]).outcome, LeaveOutcome::Stays);
    }

    /// Alcohol's and gambling's own "8+ to stop" hold beside the rows' targets: the higher counts.
    #[test]
    fn weakness_stop_targets_hold_with_the_rows() {
        for weakness in Weakness::ALL {
            for kind in TemptationKind::ALL {
                let expect = match (weakness, kind) {
                    (W::Alcohol, T::LowDrinkingTavern) | (W::Gambling, T::GamblingCasino | T::DicingGame) => Some(8),
                    _ => None,
                };
                assert_eq!(weakness.stop_target(kind), expect, "{} at {kind}", weakness.id());
            }
        }
        let bare = TemptationReadings { weakness_factors_on_leave: false, ..TemptationReadings::default() };
        // Casino: "9+ to leave" and the gambler's "8+ to stop": 9 it is.
        let out = leave_with(T::GamblingCasino, &[W::Gambling], false, &bare, &[8]);
        assert_eq!((out.roll.as_ref().unwrap().target, out.outcome), (Some(9), LeaveOutcome::Stays));
        assert_eq!(leave_with(T::GamblingCasino, &[W::Gambling], false, &bare, &[9]).outcome, LeaveOutcome::Leaves);
        let out = leave_with(T::DicingGame, &[W::Gambling], false, &bare, &[8]);
        assert_eq!((out.roll.as_ref().unwrap().target, out.outcome), (Some(8), LeaveOutcome::Leaves));
    }

    /// Gambling: "8+ to stop or when money has run out".
    #[test]
    fn a_gambler_out_of_money_leaves_without_a_roll() {
        let readings = TemptationReadings::default();
        for kind in [T::GamblingCasino, T::DicingGame] {
            let out = leave_with(kind, &[W::Gambling], true, &readings, &[]);
            assert_eq!((out.roll, out.outcome), (None, LeaveOutcome::OutOfMoney), "{kind}");
            let out = leave_with(kind, &[W::Gambling], false, &readings, &[9]);
            assert_eq!(out.outcome, LeaveOutcome::Stays, "{kind}: D10 − 2 with money left");
        }
        // Money matters only to the gambling weakness at a gambling site.
        assert_eq!(leave_with(T::GamblingCasino, &[], true, &readings, &[9]).outcome, LeaveOutcome::Leaves);
        assert_eq!(
            leave_with(T::LowDrinkingTavern, &[W::Gambling], true, &readings, &[8]).outcome,
            LeaveOutcome::Leaves
        );
    }

    #[test]
    fn money_is_spent_as_far_as_it_goes() {
        assert_eq!(spend_money(10, 3), MoneySpent { spent: 3, left: 7, ran_out: false });
        assert_eq!(spend_money(3, 3), MoneySpent { spent: 3, left: 0, ran_out: true });
        assert_eq!(spend_money(2, 5), MoneySpent { spent: 2, left: 0, ran_out: true });
        assert_eq!(spend_money(0, 0), MoneySpent { spent: 0, left: 0, ran_out: false });
        assert_eq!(spend_money(5, 0), MoneySpent { spent: 0, left: 5, ran_out: false });
    }

    /// "A character who succumbs can be outvoted by two others of equal or higher rank."
    #[test]
    fn outvoting_needs_two_of_equal_or_higher_rank() {
        use super::OutvoteOutcome::{NotOutvoted, Outvoted};
        for (succumbed, others, count, outcome) in [
            (Rank::Follower, &[Rank::Follower, Rank::Officer][..], 2, Outvoted),
            (Rank::Follower, &[Rank::Follower, Rank::Nidderling][..], 1, NotOutvoted),
            (Rank::Officer, &[Rank::Independent, Rank::Independent, Rank::Follower][..], 0, NotOutvoted),
            (Rank::Officer, &[Rank::Officer, Rank::Officer][..], 2, Outvoted),
            (Rank::Independent, &[Rank::Officer, Rank::Independent, Rank::Follower][..], 2, Outvoted),
            (Rank::Nidderling, &[Rank::Nidderling, Rank::Nidderling][..], 2, Outvoted),
            (Rank::Independent, &[Rank::Officer][..], 1, NotOutvoted),
            (Rank::Independent, &[][..], 0, NotOutvoted),
        ] {
            assert_eq!(outvoters(succumbed, others), count, "{succumbed:?} {others:?}");
            assert_eq!(outvote(succumbed, others), outcome, "{succumbed:?} {others:?}");
        }
    }

    /// Each weakness roll at its target and one past it.
    #[test]
    fn weakness_rolls_on_both_sides_of_their_targets() {
        use super::WeaknessOutcome::{CarriesOn, FriendHit, FriendSpared, GivesIn, Resists, Stops};
        for (kind, weakness, pass, fail, passed, failed) in [
            (WeaknessRoll::StopDrinking, W::Alcohol, 8, 7, Stops, CarriesOn),
            (WeaknessRoll::StopGambling, W::Gambling, 8, 7, Stops, CarriesOn),
            (WeaknessRoll::StopDallying, W::Dalliance, 8, 7, Stops, CarriesOn),
            (WeaknessRoll::NotSteal, W::Kleptomania, 3, 2, Resists, GivesIn),
            (WeaknessRoll::NotFell, W::Clumsy, 3, 2, Resists, GivesIn),
            (WeaknessRoll::FriendInMelee, W::Clumsy, 2, 3, FriendHit, FriendSpared),
            (WeaknessRoll::StopTalking, W::OverTalkative, 7, 6, Stops, CarriesOn),
            (WeaknessRoll::NotDistracted, W::Collector, 7, 6, Resists, GivesIn),
        ] {
            assert_eq!(kind.weakness(), weakness);
            assert!(weakness.rolls().contains(&kind), "{}", kind.id());
            let at = roll_weakness(kind, &mut faces(&[pass]));
            assert_eq!(at.roll.dice, Dice::D10);
            assert_eq!(at.roll.target, Some(i32::try_from(pass).unwrap()), "{}", kind.id());
            assert_eq!(at.outcome, passed, "{}", kind.id());
            assert_eq!(roll_weakness(kind, &mut faces(&[fail])).outcome, failed, "{}", kind.id());
            assert_eq!(at.rolls(), std::slice::from_ref(&at.roll));
        }
        let pass_if = roll_weakness(WeaknessRoll::FriendInMelee, &mut faces(&[0])).roll.pass_if;
        assert_eq!(pass_if, Some(PassIf::AtMost), "\"D10 2- hit!\"");
        assert_eq!(roll_weakness(WeaknessRoll::FriendInMelee, &mut faces(&[0])).outcome, FriendHit);
        assert_eq!(roll_weakness(WeaknessRoll::FriendInMelee, &mut faces(&[9])).outcome, FriendSpared);
        assert_eq!(roll_weakness(WeaknessRoll::NotSteal, &mut faces(&[0])).outcome, GivesIn);
        assert_eq!(roll_weakness(WeaknessRoll::StopDrinking, &mut faces(&[9])).outcome, Stops);
        for weakness in Weakness::ALL {
            assert!(weakness.rolls().iter().all(|r| r.weakness() == weakness), "{}", weakness.id());
        }
    }

    /// Those without dice are reminders for the GM.
    #[test]
    fn weaknesses_without_dice_give_reminders() {
        let readings = TemptationReadings::default();
        for weakness in Weakness::ALL {
            let diceless =
                weakness.rolls().is_empty() && TemptationKind::ALL.iter().all(|&k| !weakness.applies_to(k, &readings));
            assert_eq!(weakness.reminder().is_some(), diceless, "{}", weakness.id());
        }
        for weakness in [W::Idleness, W::Bullying, W::Pyromania, W::HatesOppositeSex, W::HatesRaceOrAlignment] {
            assert!(weakness.reminder().is_some_and(|r| r.starts_with(weakness.label())), "{}", weakness.id());
        }
        assert_eq!(W::Pyromania.reminder(), Some("pyromania: will set fire to any enemy property"));
    }

    // --- Distribution --------------------------------------------------------------------------

    /// The tavern for a man of Iy 4 with no thirst: from the text, D10 (0–9) + 4 ignores on 7+
    /// (faces 3–9, 7 in 10); inside, D10 8+ leaves (faces 8 and 9, 2 in 10) each move. The
    /// moves spent inside (0 for one who ignored it, 6 for six or more) against that.
    #[test]
    fn tavern_ignore_and_leave_rates_match_the_text() {
        let ignore = (0..10).filter(|&f| f + 4 >= 7).count() as f64 / 10.0;
        let go = (0..10).filter(|&f| f >= 8).count() as f64 / 10.0;
        let mut expected = [0.0f64; 7];
        expected[0] = ignore;
        for (k, slot) in expected.iter_mut().enumerate().take(6).skip(1) {
            *slot = (1.0 - ignore) * (1.0 - go).powi(i32::try_from(k).unwrap() - 1) * go;
        }
        expected[6] = (1.0 - ignore) * (1.0 - go).powi(5);
        let figure = Tempted::default();
        let readings = TemptationReadings::default();
        let mut src = SeededDice::new(0xDEC1DE);
        let mut observed = [0u32; 7];
        for _ in 0..50_000 {
            let tempted = roll_temptation(T::LowDrinkingTavern, 0, &figure, &readings, &mut src).unwrap();
            if tempted.outcome == TemptationOutcome::Resisted {
                observed[0] += 1;
                continue;
            }
            let mut moves = 1;
            while moves < 6
                && roll_leave(T::LowDrinkingTavern, &[], false, &readings, &mut src).unwrap().outcome
                    == LeaveOutcome::Stays
            {
                moves += 1;
            }
            observed[moves] += 1;
        }
        let chi = chi_square(&observed, &expected);
        assert!(chi < CHI_SQUARE_6_DF_999, "chi-square {chi}: observed {observed:?}, expected {expected:?}");
    }

    /// The house rules that decide a temptation roll: the fencing bands at the fencing school,
    /// weakness factors on a roll to leave only where a weakness counts, lechery at red-light
    /// premises and vanity at the jewellery shop only for those who have them.
    #[test]
    fn the_house_rules_deciding_a_roll_are_the_ones_that_count_there() {
        let s = TemptationSettings::default();
        assert_eq!(s.readings(), TemptationReadings::default());
        assert_eq!(s.reach_in, DEFAULT_REACH_IN);
        let t = TemptationKind::LowDrinkingTavern;
        assert_eq!(s.deciding(t, &[Weakness::Alcohol], true), ["temptations.weakness_factors_on_leave"]);
        assert!(s.deciding(t, &[Weakness::OverTalkative], true).is_empty());
        assert!(s.deciding(t, &[Weakness::Alcohol], false).is_empty());
        assert_eq!(s.deciding(TemptationKind::FencingSchool, &[], false), ["temptations.fencing_bands"]);
        assert!(s.deciding(TemptationKind::FencingSchool, &[], true).is_empty());
        assert_eq!(
            s.deciding(TemptationKind::RedLightPremises, &[Weakness::Lechery], false),
            ["temptations.lechery_at_red_light"]
        );
        assert!(s.deciding(TemptationKind::RedLightPremises, &[], false).is_empty());
        assert_eq!(
            s.deciding(TemptationKind::JewelleryShop, &[Weakness::Vanity], false),
            ["temptations.vanity_at_jewellery"]
        );
        assert!(s.deciding(TemptationKind::JewelleryShop, &[Weakness::Lechery], false).is_empty());
    }
}
