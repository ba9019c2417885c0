//! Sleepers: whether a noise wakes a sleeping group, what each woken sleeper does, and how long
//! dressing takes (000 "Awaking groups asleep", "Woken sleepers response", "Dressing & Undressing").

use super::character::{Armour, Gait, Sex};
use super::dice::{Dice, DiceSource, Roll};
use super::house_rules::house_rule_reason;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// 000 "Awaking groups asleep": "Inner wall between −1".
pub const INNER_WALL_FACTOR: i32 = -1;
/// 000 "Awaking groups asleep": "outer wall between −2".
pub const OUTER_WALL_FACTOR: i32 = -2;
/// 000 "Woken sleepers response": "Noise ceased −1".
pub const NOISE_CEASED_FACTOR: i32 = -1;
/// 000 "Dressing & Undressing": "Fighting half dressed −1 in melee".
pub const HALF_DRESSED_MELEE_MODIFIER: i32 = -1;
/// 000 "Dressing & Undressing": "For full dressing add the following rounds, All +1".
pub const FULL_DRESSING_EXTRA_ROUNDS_FOR_ALL: u32 = 1;

/// The dice a rule that says "D6 or MD" rolls: the scene chooses (RULES-NOTES "Dice", default D6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum D6OrMd {
    /// An open D6, shown to the players.
    #[default]
    #[serde(rename = "D6")]
    D6,
    /// Mystic Dice: a D6 whose face only the GM sees.
    #[serde(rename = "MD")]
    Md,
}

impl D6OrMd {
    /// The dice to roll.
    pub fn dice(self) -> Dice {
        match self {
            D6OrMd::D6 => Dice::D6,
            D6OrMd::Md => Dice::Mystic,
        }
    }
}

crate::rules::named_enum! {
    /// A noise that may wake sleepers or that a woken sleeper hears. The two tables list mostly the
    /// same noises with different factors; where a table lacks a noise a house rule supplies it.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Noise {
        /// Furtive movement (waking −1; the response table omits it).
        FurtiveMovement => "furtive_movement",
        /// Movement (waking 0, response 0).
        #[default]
        Movement => "movement",
        /// Whispers (waking 0, response 0).
        Whispers => "whispers",
        /// Speech (waking +1, response +1).
        Speech => "speech",
        /// Movement in heavy armour.
        HeavyMovement => "heavy_movement",
        /// Movement in plate armour.
        PlateMovement => "plate_movement",
        /// Screeches (waking +2; the response table omits them).
        Screech => "screech",
        /// Clash of weapons (waking +2, response +2).
        ClashOfWeapons => "clash_of_weapons",
        /// Shouts (waking +4; the response table omits them).
        Shout => "shout",
        /// Screams (waking +4, response +3).
        Scream => "scream",
        /// The alarm called.
        Alarm => "alarm",
        /// Cursing (000 mentions wounded characters "screeching or cursing").
        Cursing => "cursing",
    }
}

impl Noise {
    /// The words the tables use; also the modifier's reason in the log.
    pub fn label(self) -> &'static str {
        match self {
            Noise::FurtiveMovement => "furtive movement",
            Noise::Movement => "movement",
            Noise::Whispers => "whispers",
            Noise::Speech => "speech",
            Noise::HeavyMovement => "heavy movement",
            Noise::PlateMovement => "plate movement",
            Noise::Screech => "screeches",
            Noise::ClashOfWeapons => "clash of weapons",
            Noise::Shout => "shouts",
            Noise::Scream => "screams",
            Noise::Alarm => "alarm called",
            Noise::Cursing => "cursing",
        }
    }

    /// 000 "Awaking groups asleep": the factor the text gives; `None` where it lists no such noise.
    pub fn text_waking_factor(self) -> Option<i32> {
        match self {
            Noise::FurtiveMovement => Some(-1),
            Noise::Movement | Noise::Whispers => Some(0),
            Noise::Speech | Noise::HeavyMovement | Noise::PlateMovement => Some(1),
            Noise::Screech | Noise::ClashOfWeapons => Some(2),
            Noise::Shout | Noise::Scream => Some(4),
            Noise::Alarm | Noise::Cursing => None,
        }
    }

    /// 000 "Awaking groups asleep": the noise factor, with house rules for alarm and cursing.
    pub fn waking_factor(self, settings: &SleepersSettings) -> i32 {
        match self {
            Noise::Alarm => settings.alarm_waking_factor,
            Noise::Cursing => settings.cursing_waking_factor,
            _ => self.text_waking_factor().unwrap_or(0),
        }
    }

    /// The modifier's reason on a waking roll: the noise's label, tagged where a house rule
    /// gives the factor (000 "Awaking groups asleep" lists no alarm or cursing).
    pub fn waking_reason(self) -> Cow<'static, str> {
        match self.text_waking_factor() {
            Some(_) => self.label().into(),
            None => house_rule_reason(&format!("{}, waking", self.label())).into(),
        }
    }

    /// The modifier's reason on a response roll: the noise's label, tagged where a house rule
    /// gives the factor (000 "Woken sleepers response" omits some noises).
    pub fn response_reason(self) -> Cow<'static, str> {
        match self.text_response_factor() {
            Some(_) => self.label().into(),
            None => house_rule_reason(&format!("{}, response", self.label())).into(),
        }
    }

    /// 000 "Woken sleepers response": the factor the text gives; `None` where it lists no such noise.
    pub fn text_response_factor(self) -> Option<i32> {
        match self {
            Noise::Movement | Noise::Whispers => Some(0),
            Noise::Speech | Noise::HeavyMovement => Some(1),
            Noise::ClashOfWeapons => Some(2),
            Noise::Scream | Noise::Alarm => Some(3),
            Noise::FurtiveMovement | Noise::PlateMovement | Noise::Screech | Noise::Shout | Noise::Cursing => None,
        }
    }

    /// 000 "Woken sleepers response": the noise factor, with house rules for the noises it omits.
    pub fn response_factor(self, settings: &SleepersSettings) -> i32 {
        match self {
            Noise::FurtiveMovement => settings.furtive_movement_response_factor,
            Noise::PlateMovement => settings.plate_movement_response_factor,
            Noise::Screech => settings.screech_response_factor,
            Noise::Shout => settings.shout_response_factor,
            Noise::Cursing => settings.cursing_response_factor,
            _ => self.text_response_factor().unwrap_or(0),
        }
    }
}

crate::rules::named_enum! {
    /// Where the sleepers lie, which sets how near a noise must be to be diced for.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Shelter {
        /// In the open: a noise within 6" is diced for.
        #[default]
        Open => "open",
        /// In a tent: within 4".
        Tent => "tent",
        /// Within a building, or the noise is in the next room.
        Building => "building",
    }
}

impl Shelter {
    /// 000 "Awaking groups asleep": "within 6" in the open, 4" in tent, 2" within building or next room".
    pub fn earshot_inches(self) -> f32 {
        match self {
            Shelter::Open => 6.0,
            Shelter::Tent => 4.0,
            Shelter::Building => 2.0,
        }
    }

    /// 000 "Awaking groups asleep": whether a noise this far off is diced for at all.
    pub fn within_earshot(self, distance_inches: f32) -> bool {
        distance_inches <= self.earshot_inches()
    }
}

crate::rules::named_enum! {
    /// How well the sleepers hear.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Hearing {
        /// An ordinary hearer (no factor).
        #[default]
        Normal => "normal",
        /// An acute hearer (+1).
        Acute => "acute",
        /// An obtuse hearer (−1).
        Obtuse => "obtuse",
    }
}

impl Hearing {
    /// How the log names it, e.g. "acute hearer"; also the modifier's reason.
    pub fn label(self) -> &'static str {
        match self {
            Hearing::Normal => "normal hearer",
            Hearing::Acute => "acute hearer",
            Hearing::Obtuse => "obtuse hearer",
        }
    }

    /// 000 "Awaking groups asleep": "Acute hearer +1, Obtuse hearer −1".
    pub fn factor(self) -> i32 {
        match self {
            Hearing::Normal => 0,
            Hearing::Acute => 1,
            Hearing::Obtuse => -1,
        }
    }
}

/// How several walls between the noise and the sleepers count. House rule: the text gives one
/// wall's factor only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WallStacking {
    /// Every wall counts: −1 per inner wall, −2 per outer wall.
    #[default]
    Sum,
    /// Only the most muffling wall counts: −2 if any outer wall, else −1 if any inner wall.
    Worst,
}

crate::rules::named_enum! {
    /// A woken sleeper's standing, which sets how readily they act.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Rank {
        /// An officer (+1).
        Officer => "officer",
        /// Independent (0).
        #[default]
        Independent => "independent",
        /// A follower (−1).
        Follower => "follower",
        /// A nidderling (−2).
        Nidderling => "nidderling",
    }
}

impl Rank {
    /// 000 "Woken sleepers response": "Officer +1, Independent 0, Follower −1, Nidderling −2".
    pub fn factor(self) -> i32 {
        match self {
            Rank::Officer => 1,
            Rank::Independent => 0,
            Rank::Follower => -1,
            Rank::Nidderling => -2,
        }
    }
}

crate::rules::named_enum! {
    /// Who is dressing, for the extra rounds of full dressing.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Dresser {
        /// Anyone not in a category below: only the "All +1".
        #[default]
        Ordinary => "ordinary",
        /// A woman: +2 rounds.
        Woman => "woman",
        /// A lady: +4 rounds.
        Lady => "lady",
        /// A child: +3 rounds.
        Child => "child",
        /// A merchant: +1 round.
        Merchant => "merchant",
        /// A courtier: +2 rounds.
        Courtier => "courtier",
    }
}

impl Dresser {
    /// 000 "Dressing & Undressing": "women +2, Ladies +4, children +3, Merchants +1, Courtiers +2"
    /// (on top of "All +1"; a person counts in one category, the caller picks it).
    pub fn category_extra_rounds(self) -> u32 {
        match self {
            Dresser::Ordinary => 0,
            Dresser::Woman => 2,
            Dresser::Lady => 4,
            Dresser::Child => 3,
            Dresser::Merchant => 1,
            Dresser::Courtier => 2,
        }
    }

    /// 000 "Dressing & Undressing": rounds full dressing adds to hasty dressing ("All +1" plus the category).
    pub fn full_dressing_extra_rounds(self) -> u32 {
        FULL_DRESSING_EXTRA_ROUNDS_FOR_ALL + self.category_extra_rounds()
    }
}

/// Numbers and choices the texts leave open. Each is a house rule unless it says otherwise.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SleepersSettings {
    /// "D6 or MD" for waking a group (RULES-NOTES: the scene chooses, default D6).
    pub waking_dice: D6OrMd,
    /// "MD or D6" for a woken sleeper's response (RULES-NOTES: the scene chooses, default D6).
    pub response_dice: D6OrMd,
    /// House rule: an alarm called wakes like "Shouts" (+4); the waking table has no alarm row.
    pub alarm_waking_factor: i32,
    /// House rule: cursing wakes like "speech" (+1).
    pub cursing_waking_factor: i32,
    /// House rule: the response table has no furtive row; it counts as "Movement" (0), the
    /// table's lowest noise still going on.
    pub furtive_movement_response_factor: i32,
    /// House rule: plate movement counts as "heavy movement" (+1), as the waking table groups them.
    pub plate_movement_response_factor: i32,
    /// House rule: a screech counts as "Clash of weapons" (+2), as the waking table groups them.
    pub screech_response_factor: i32,
    /// House rule: a shout counts as "Screams" (+3), as the waking table groups them.
    pub shout_response_factor: i32,
    /// House rule: cursing counts as "speech" (+1).
    pub cursing_response_factor: i32,
    /// House rule: the noise a running figure makes (the text does not rate running); default
    /// heavy movement (+1).
    pub running_noise: Noise,
    /// House rule: heavy or plate armour is heard even at a furtive gait (true), rather than the
    /// furtive gait silencing it (false).
    pub armour_heard_through_furtive_gait: bool,
    /// House rule: how several walls between count; default every wall counts.
    pub wall_stacking: WallStacking,
    /// House rule: rounds to dress or undress hastily in light armour, which the text does not
    /// list; default 3, as medium armour (worn over clothes and laced or buckled like mail).
    pub light_armour_hasty_rounds: u32,
    /// House rule: whose hearing counts for a group's roll, which the text makes for the group.
    pub group_hearing: GroupHearing,
    /// House rule: which noises a group dices for each move; default each source in earshot.
    pub waking_checks: WakingChecks,
    /// House rule: a member listening awake hears every noise in earshot without a waking roll
    /// and responds to it afresh (true), rather than only lying awake (false).
    pub listeners_respond: bool,
    /// House rule: an investigator who comes within this many inches of a figure of another side,
    /// with no wall between, raises the alarm; 0 never.
    pub investigator_spots_within: f32,
    /// House rule: the noise a fire within a group's earshot makes; 000 "Awaking groups asleep"
    /// has no row for fire. Default `shout` (+4, "Shouts or Screams"): a fire crackles and roars,
    /// and those who see it shout.
    pub fire_noise: Noise,
    /// House rule: how a shelter shortens a noise that carries a stated distance ("screaming heard
    /// to 18""); the text gives the distances and the shelter earshots but not how they combine.
    pub heard_to_in_shelter: ShelterScaling,
}

/// How a noise's own "heard to" distance is shortened by the sleepers' shelter. House rule: the
/// text gives "heard to" distances (cursing 8", screaming 18", a sneeze 9") and shelter earshots
/// (6" open, 4" tent, 2" building) but not how they combine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShelterScaling {
    /// Scaled as the earshot is: × earshot / 6 (a scream 18" open, 12" tent, 6" building).
    #[default]
    Proportional,
    /// Shortened by what the shelter takes off the open earshot: − (6 − earshot) (18, 16, 14).
    Subtract,
    /// Never beyond the shelter's earshot (a scream heard no further than a footstep).
    Earshot,
}

/// Whose hearing counts when a group dices to wake. House rule: the text gives the factor per
/// hearer and rolls for the group.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupHearing {
    /// The keenest hearer still asleep: one acute hearer gives +1; −1 only if all are obtuse.
    /// The keenest hearers wake first.
    #[default]
    Keenest,
    /// The dullest hearer still asleep.
    Dullest,
}

impl GroupHearing {
    /// The hearing that counts among `asleep` (none: normal).
    pub fn pick(self, asleep: impl IntoIterator<Item = Hearing>) -> Hearing {
        let rank = |h: Hearing| h.factor();
        let mut it = asleep.into_iter();
        let Some(first) = it.next() else { return Hearing::Normal };
        it.fold(first, |best, h| match self {
            GroupHearing::Keenest if rank(h) > rank(best) => h,
            GroupHearing::Dullest if rank(h) < rank(best) => h,
            _ => best,
        })
    }
}

/// Which noises a sleeping group dices for in a move. House rule: the text says "diced for
/// within 6"…" without saying how often.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WakingChecks {
    /// Once for each distinct noise source in earshot, loudest first, until all are awake: a
    /// party of four is four chances to wake the camp.
    #[default]
    EachSource,
    /// Once, for the loudest noise in earshot.
    Loudest,
}

impl Default for SleepersSettings {
    fn default() -> Self {
        Self {
            waking_dice: D6OrMd::D6,
            response_dice: D6OrMd::D6,
            alarm_waking_factor: 4,
            cursing_waking_factor: 1,
            furtive_movement_response_factor: 0,
            plate_movement_response_factor: 1,
            screech_response_factor: 2,
            shout_response_factor: 3,
            cursing_response_factor: 1,
            running_noise: Noise::HeavyMovement,
            armour_heard_through_furtive_gait: true,
            wall_stacking: WallStacking::Sum,
            light_armour_hasty_rounds: 3,
            group_hearing: GroupHearing::Keenest,
            waking_checks: WakingChecks::EachSource,
            listeners_respond: true,
            investigator_spots_within: 2.0,
            fire_noise: Noise::Shout,
            heard_to_in_shelter: ShelterScaling::Proportional,
        }
    }
}

/// 000 "Awaking groups asleep" ("Diced for within 6" in the open, 4" in tent, 2" within building"), "Loop Traps" ("heard to"): how far a group hears a noise.
pub fn noise_reach(shelter: Shelter, heard_to: Option<f32>, scaling: ShelterScaling) -> f32 {
    let earshot = shelter.earshot_inches();
    let open = Shelter::Open.earshot_inches();
    match heard_to {
        None => earshot,
        Some(h) => match scaling {
            ShelterScaling::Proportional => h * earshot / open,
            ShelterScaling::Subtract => (h - (open - earshot)).max(0.0),
            ShelterScaling::Earshot => h.min(earshot),
        },
    }
}

/// 000 "Awaking groups asleep": the noise a figure's own movement makes, from gait and armour.
///
/// Furtive → furtive movement; normal, cautious, searching → movement; running → the house
/// `running_noise`. Heavy or plate armour makes heavy or plate movement unless the gait is
/// louder; medium and lighter armour adds nothing (the text names only heavy and plate).
pub fn movement_noise(gait: Gait, armour: Armour, settings: &SleepersSettings) -> Noise {
    let gait_noise = match gait {
        Gait::Furtive => Noise::FurtiveMovement,
        Gait::Normal | Gait::Cautious | Gait::Searching => Noise::Movement,
        Gait::Running => settings.running_noise,
    };
    let armour_noise = match armour {
        Armour::Heavy => Some(Noise::HeavyMovement),
        Armour::Plate => Some(Noise::PlateMovement),
        Armour::Unclothed | Armour::Clothed | Armour::Light | Armour::Medium => None,
    };
    match armour_noise {
        None => gait_noise,
        Some(_) if gait == Gait::Furtive && !settings.armour_heard_through_furtive_gait => gait_noise,
        Some(armour_noise) => {
            if gait_noise.waking_factor(settings) > armour_noise.waking_factor(settings) {
                gait_noise
            } else {
                armour_noise
            }
        }
    }
}

/// 000 "Awaking groups asleep": the factor for walls between ("Inner wall −1, outer wall −2").
pub fn wall_factor(inner_walls: u8, outer_walls: u8, stacking: WallStacking) -> i32 {
    match stacking {
        WallStacking::Sum => INNER_WALL_FACTOR * i32::from(inner_walls) + OUTER_WALL_FACTOR * i32::from(outer_walls),
        WallStacking::Worst => {
            if outer_walls > 0 {
                OUTER_WALL_FACTOR
            } else if inner_walls > 0 {
                INNER_WALL_FACTOR
            } else {
                0
            }
        }
    }
}

fn walls_reason(kind: &str, count: u8) -> String {
    if count == 1 { format!("{kind} wall between") } else { format!("{count} {kind} walls between") }
}

/// The wall factors as named modifiers; their sum is [`wall_factor`].
fn add_wall_modifiers(roll: &mut Roll, inner_walls: u8, outer_walls: u8, stacking: WallStacking) {
    match stacking {
        WallStacking::Sum => {
            roll.add(walls_reason("inner", inner_walls), INNER_WALL_FACTOR * i32::from(inner_walls));
            roll.add(walls_reason("outer", outer_walls), OUTER_WALL_FACTOR * i32::from(outer_walls));
        }
        WallStacking::Worst => {
            if outer_walls > 0 {
                roll.add("outer wall between", OUTER_WALL_FACTOR);
            } else if inner_walls > 0 {
                roll.add("inner wall between", INNER_WALL_FACTOR);
            }
        }
    }
}

crate::rules::named_enum! {
    /// How many of a sleeping group wake.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum WakingOutcome {
        /// 4 or less.
        NoneWake => "none_wake",
        /// 5: one wakes.
        OneWakes => "one_wakes",
        /// 6: two wake.
        TwoWake => "two_wake",
        /// 7: three wake.
        ThreeWake => "three_wake",
        /// 8 or more: all wake.
        AllWake => "all_wake",
    }
}

impl WakingOutcome {
    /// 000 "Awaking groups asleep": how many of `asleep` sleepers wake (never more than are asleep).
    pub fn woken(self, asleep: u32) -> u32 {
        let wanted = match self {
            WakingOutcome::NoneWake => 0,
            WakingOutcome::OneWakes => 1,
            WakingOutcome::TwoWake => 2,
            WakingOutcome::ThreeWake => 3,
            WakingOutcome::AllWake => asleep,
        };
        wanted.min(asleep)
    }
}

/// 000 "Awaking groups asleep": "= 5 1 wakes, 6 2 wakes, 7 3 wakes, 8 all wake" (4 or less: none).
pub fn waking_band(total: i32) -> WakingOutcome {
    match total {
        i32::MIN..=4 => WakingOutcome::NoneWake,
        5 => WakingOutcome::OneWakes,
        6 => WakingOutcome::TwoWake,
        7 => WakingOutcome::ThreeWake,
        _ => WakingOutcome::AllWake,
    }
}

/// What the sleeping group and the noise are like, for one waking roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WakingConditions {
    /// The loudest noise this move within earshot (see [`Shelter::within_earshot`]).
    pub noise: Noise,
    /// The group's hearing.
    pub hearing: Hearing,
    /// The sleepers lie in a noisy area (−1).
    pub noisy_area: bool,
    /// How many of the group are asleep: how many can wake.
    pub asleep: u32,
    /// How many the group has, awake or asleep: a group of one is "One in group −1" (the last
    /// sleeper of a larger group is not).
    pub group_size: u32,
    /// Inner walls between the noise and the sleepers (−1 each; see [`WallStacking`]).
    pub inner_walls: u8,
    /// Outer walls between the noise and the sleepers (−2 each; see [`WallStacking`]).
    pub outer_walls: u8,
    /// The sleepers know of a threat.
    pub known_threat: bool,
}

/// A waking roll: the roll with every factor, the band and how many woke.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WakingResult {
    /// D6 or MD + F, with every factor.
    pub roll: Roll,
    /// The band the total falls in.
    pub outcome: WakingOutcome,
    /// How many woke (never more than were asleep).
    pub woken: u32,
}

/// 000 "Awaking groups asleep": D6 or MD + F for a group within earshot of a noise.
pub fn resolve_waking(
    conditions: &WakingConditions,
    settings: &SleepersSettings,
    src: &mut impl DiceSource,
) -> WakingResult {
    let mut roll = Roll::new(settings.waking_dice.dice(), src);
    roll.add(conditions.noise.waking_reason(), conditions.noise.waking_factor(settings));
    roll.add(conditions.hearing.label(), conditions.hearing.factor());
    if conditions.noisy_area {
        roll.add("noisy area", -1);
    }
    if conditions.group_size == 1 {
        roll.add("one in group", -1);
    }
    add_wall_modifiers(&mut roll, conditions.inner_walls, conditions.outer_walls, settings.wall_stacking);
    if conditions.known_threat {
        roll.add("known threat", 1);
    }
    let outcome = waking_band(roll.total);
    let woken = outcome.woken(conditions.asleep);
    WakingResult { roll, outcome, woken }
}

crate::rules::named_enum! {
    /// What one woken sleeper does.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ResponseOutcome {
        /// 2 or less.
        BackToSleep => "back_to_sleep",
        /// 3: listens awake for D6 moves.
        ListenAwake => "listen_awake",
        /// 4: investigates.
        Investigate => "investigate",
        /// 5 or more: raises the alarm.
        RaiseAlarm => "raise_alarm",
    }
}

/// 000 "Woken sleepers response": "5+ raise the Alarm, 4+ investigate, 3+ listen awake D6 moves,
/// 2- go back to sleep".
pub fn response_band(total: i32) -> ResponseOutcome {
    match total {
        i32::MIN..=2 => ResponseOutcome::BackToSleep,
        3 => ResponseOutcome::ListenAwake,
        4 => ResponseOutcome::Investigate,
        _ => ResponseOutcome::RaiseAlarm,
    }
}

/// What a woken sleeper hears now and who they are, for one response roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ResponseConditions {
    /// The noise going on now; `None` when it has ceased ("Noise ceased −1").
    pub noise_now: Option<Noise>,
    /// The sleeper's standing.
    pub rank: Rank,
    /// The sleeper is expecting trouble (+1).
    pub expecting_trouble: bool,
}

/// A response roll: the roll, the outcome, and the D6 moves spent listening when that is the outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResponseResult {
    /// MD or D6 + F, with every factor.
    pub roll: Roll,
    /// The band the total falls in.
    pub outcome: ResponseOutcome,
    /// The D6 for "listen awake D6 moves"; present only for [`ResponseOutcome::ListenAwake`].
    pub listen_moves: Option<Roll>,
}

/// 000 "Woken sleepers response": MD or D6 + F for a person woken by a suspicious noise.
pub fn resolve_response(
    conditions: &ResponseConditions,
    settings: &SleepersSettings,
    src: &mut impl DiceSource,
) -> ResponseResult {
    let mut roll = Roll::new(settings.response_dice.dice(), src);
    match conditions.noise_now {
        None => roll.add("noise ceased", NOISE_CEASED_FACTOR),
        Some(noise) => roll.add(noise.response_reason(), noise.response_factor(settings)),
    }
    roll.add(conditions.rank.id(), conditions.rank.factor());
    if conditions.expecting_trouble {
        roll.add("expecting trouble", 1);
    }
    let outcome = response_band(roll.total);
    let listen_moves = if outcome == ResponseOutcome::ListenAwake { Some(Roll::new(Dice::D6, src)) } else { None };
    ResponseResult { roll, outcome, listen_moves }
}

/// 000 "Dressing & Undressing": rounds to dress or undress hastily in `armour` ("unclothed take 1
/// round, clothed 2 rounds, medium 3 rounds, heavy 5 rounds, plate 7 rounds"; light: house rule).
pub fn hasty_rounds(armour: Armour, settings: &SleepersSettings) -> u32 {
    match armour {
        Armour::Unclothed => 1,
        Armour::Clothed => 2,
        Armour::Light => settings.light_armour_hasty_rounds,
        Armour::Medium => 3,
        Armour::Heavy => 5,
        Armour::Plate => 7,
    }
}

/// 000 "Dressing & Undressing" ("women +2, Ladies +4"): an ordinary dresser who is a woman dresses as a woman.
pub fn effective_dresser(dresser: Dresser, sex: Sex) -> Dresser {
    match (dresser, sex) {
        (Dresser::Ordinary, Sex::Female) => Dresser::Woman,
        (d, _) => d,
    }
}

/// 000 "Dressing & Undressing": rounds for full dressing: the hasty rounds plus "All +1" and the
/// dresser's category.
pub fn full_dressing_rounds(armour: Armour, dresser: Dresser, settings: &SleepersSettings) -> u32 {
    hasty_rounds(armour, settings) + dresser.full_dressing_extra_rounds()
}

/// 000 "Dressing & Undressing": "Incomplete Armour as for rounds actually taken dressing".
///
/// Read as: after `rounds_taken` rounds of dressing toward `target`, the figure wears the heaviest
/// class no heavier than the target whose hasty time has been spent (plate interrupted after 5
/// rounds is heavy armour, after 2 clothed). Before any class is reached the figure is unclothed.
pub fn armour_after_rounds(target: Armour, rounds_taken: u32, settings: &SleepersSettings) -> Armour {
    Armour::ALL
        .iter()
        .copied()
        .filter(|&a| a <= target && hasty_rounds(a, settings) <= rounds_taken)
        .max()
        .unwrap_or(Armour::Unclothed)
}

/// How far a figure has got with dressing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DressingProgress {
    /// The armour being put on.
    pub target: Armour,
    /// Rounds spent dressing so far.
    pub rounds_taken: u32,
    /// Rounds until the armour is on: the hasty time.
    pub armour_rounds: u32,
    /// Rounds until done: the hasty time, or for full dressing the hasty time plus the extras.
    pub rounds_needed: u32,
    /// The armour class that counts now.
    pub armour_worn: Armour,
    /// Short of the armour's rounds: fights half dressed.
    pub half_dressed: bool,
    /// All the rounds needed have been taken.
    pub done: bool,
    /// "Fighting half dressed −1 in melee" while half dressed, else 0.
    pub melee_modifier: i32,
}

fn dressing_progress(
    target: Armour,
    rounds_taken: u32,
    rounds_needed: u32,
    settings: &SleepersSettings,
) -> DressingProgress {
    let armour_rounds = hasty_rounds(target, settings);
    let half_dressed = rounds_taken < armour_rounds;
    DressingProgress {
        target,
        rounds_taken,
        armour_rounds,
        rounds_needed,
        armour_worn: armour_after_rounds(target, rounds_taken, settings),
        half_dressed,
        done: rounds_taken >= rounds_needed,
        melee_modifier: if half_dressed { HALF_DRESSED_MELEE_MODIFIER } else { 0 },
    }
}

/// 000 "Dressing & Undressing": hasty dressing toward `target`, `rounds_taken` rounds in.
pub fn hasty_dressing(target: Armour, rounds_taken: u32, settings: &SleepersSettings) -> DressingProgress {
    dressing_progress(target, rounds_taken, hasty_rounds(target, settings), settings)
}

/// 000 "Dressing & Undressing": full dressing toward `target`, `rounds_taken` rounds in. The armour
/// goes on in the hasty time; the extra rounds finish the dressing, not the armour, so the figure
/// is no longer half dressed once the hasty time is spent.
pub fn full_dressing(
    target: Armour,
    dresser: Dresser,
    rounds_taken: u32,
    settings: &SleepersSettings,
) -> DressingProgress {
    dressing_progress(target, rounds_taken, full_dressing_rounds(target, dresser, settings), settings)
}

#[cfg(test)]
mod tests {
    use super::super::dice::{ScriptedDice, SeededDice};
    use super::*;
    use crate::rules::stats::chi_square;

    fn settings() -> SleepersSettings {
        SleepersSettings::default()
    }

    fn has(roll: &Roll, reason: &str, value: i32) -> bool {
        roll.modifiers.iter().any(|m| m.reason == reason && m.value == value)
    }

    /// A plain group: movement, normal hearing, four asleep, nothing else.
    fn base_waking() -> WakingConditions {
        WakingConditions {
            noise: Noise::Movement,
            hearing: Hearing::Normal,
            noisy_area: false,
            asleep: 4,
            group_size: 4,
            inner_walls: 0,
            outer_walls: 0,
            known_threat: false,
        }
    }

    fn wake_with(conditions: &WakingConditions, settings: &SleepersSettings, face: u32) -> WakingResult {
        let mut src = ScriptedDice::faces([face]);
        let result = resolve_waking(conditions, settings, &mut src);
        assert!(src.is_empty());
        result
    }

    fn wake(conditions: &WakingConditions, face: u32) -> WakingResult {
        wake_with(conditions, &settings(), face)
    }

    fn base_response() -> ResponseConditions {
        ResponseConditions { noise_now: Some(Noise::Movement), rank: Rank::Independent, expecting_trouble: false }
    }

    fn respond(conditions: &ResponseConditions, faces: &[u32]) -> ResponseResult {
        let mut src = ScriptedDice::faces(faces.iter().copied());
        let result = resolve_response(conditions, &settings(), &mut src);
        assert!(src.is_empty(), "not every scripted face was used");
        result
    }

    // ---- noise factors ----

    #[test]
    fn waking_noise_factors_from_the_text() {
        assert_eq!(Noise::FurtiveMovement.text_waking_factor(), Some(-1));
        assert_eq!(Noise::Movement.text_waking_factor(), Some(0));
        assert_eq!(Noise::Whispers.text_waking_factor(), Some(0));
        assert_eq!(Noise::Speech.text_waking_factor(), Some(1));
        assert_eq!(Noise::HeavyMovement.text_waking_factor(), Some(1));
        assert_eq!(Noise::PlateMovement.text_waking_factor(), Some(1));
        assert_eq!(Noise::Screech.text_waking_factor(), Some(2));
        assert_eq!(Noise::ClashOfWeapons.text_waking_factor(), Some(2));
        assert_eq!(Noise::Shout.text_waking_factor(), Some(4));
        assert_eq!(Noise::Scream.text_waking_factor(), Some(4));
        assert_eq!(Noise::Alarm.text_waking_factor(), None);
        assert_eq!(Noise::Cursing.text_waking_factor(), None);
    }

    #[test]
    fn waking_noise_house_factors() {
        let s = settings();
        assert_eq!(Noise::Alarm.waking_factor(&s), 4);
        assert_eq!(Noise::Cursing.waking_factor(&s), 1);
        for noise in Noise::ALL {
            if let Some(f) = noise.text_waking_factor() {
                assert_eq!(noise.waking_factor(&s), f, "{}", noise.id());
            }
        }
        let custom = SleepersSettings { alarm_waking_factor: 3, cursing_waking_factor: 2, ..settings() };
        assert_eq!(Noise::Alarm.waking_factor(&custom), 3);
        assert_eq!(Noise::Cursing.waking_factor(&custom), 2);
    }

    #[test]
    fn response_noise_factors_from_the_text() {
        assert_eq!(Noise::Movement.text_response_factor(), Some(0));
        assert_eq!(Noise::Whispers.text_response_factor(), Some(0));
        assert_eq!(Noise::Speech.text_response_factor(), Some(1));
        assert_eq!(Noise::HeavyMovement.text_response_factor(), Some(1));
        assert_eq!(Noise::Scream.text_response_factor(), Some(3));
        assert_eq!(Noise::ClashOfWeapons.text_response_factor(), Some(2));
        assert_eq!(Noise::Alarm.text_response_factor(), Some(3));
        for noise in [Noise::FurtiveMovement, Noise::PlateMovement, Noise::Screech, Noise::Shout, Noise::Cursing] {
            assert_eq!(noise.text_response_factor(), None, "{}", noise.id());
        }
        assert_eq!(NOISE_CEASED_FACTOR, -1);
    }

    #[test]
    fn response_noise_house_factors() {
        let s = settings();
        assert_eq!(Noise::FurtiveMovement.response_factor(&s), 0);
        assert_eq!(Noise::PlateMovement.response_factor(&s), 1);
        assert_eq!(Noise::Screech.response_factor(&s), 2);
        assert_eq!(Noise::Shout.response_factor(&s), 3);
        assert_eq!(Noise::Cursing.response_factor(&s), 1);
        for noise in Noise::ALL {
            if let Some(f) = noise.text_response_factor() {
                assert_eq!(noise.response_factor(&s), f, "{}", noise.id());
            }
        }
        let custom = SleepersSettings {
            furtive_movement_response_factor: -1,
            plate_movement_response_factor: 2,
            screech_response_factor: 3,
            shout_response_factor: 4,
            cursing_response_factor: 0,
            ..settings()
        };
        assert_eq!(Noise::FurtiveMovement.response_factor(&custom), -1);
        assert_eq!(Noise::PlateMovement.response_factor(&custom), 2);
        assert_eq!(Noise::Screech.response_factor(&custom), 3);
        assert_eq!(Noise::Shout.response_factor(&custom), 4);
        assert_eq!(Noise::Cursing.response_factor(&custom), 0);
    }

    #[test]
    fn ids_are_distinct() {
        let ids: std::collections::HashSet<_> = Noise::ALL.iter().map(|n| n.id()).collect();
        assert_eq!(ids.len(), Noise::ALL.len());
        let ids: std::collections::HashSet<_> = Dresser::ALL.iter().map(|d| d.id()).collect();
        assert_eq!(ids.len(), Dresser::ALL.len());
        assert_eq!(WakingOutcome::AllWake.id(), "all_wake");
        assert_eq!(ResponseOutcome::ListenAwake.id(), "listen_awake");
    }

    // ---- movement noise ----

    #[test]
    fn movement_noise_by_gait_and_armour() {
        let s = settings();
        assert_eq!(movement_noise(Gait::Furtive, Armour::Clothed, &s), Noise::FurtiveMovement);
        for gait in [Gait::Normal, Gait::Cautious, Gait::Searching] {
            for armour in [Armour::Unclothed, Armour::Clothed, Armour::Light, Armour::Medium] {
                assert_eq!(movement_noise(gait, armour, &s), Noise::Movement);
            }
            assert_eq!(movement_noise(gait, Armour::Heavy, &s), Noise::HeavyMovement);
            assert_eq!(movement_noise(gait, Armour::Plate, &s), Noise::PlateMovement);
        }
        // House: running is heavy movement; in plate it is plate movement (same factor).
        assert_eq!(movement_noise(Gait::Running, Armour::Clothed, &s), Noise::HeavyMovement);
        assert_eq!(movement_noise(Gait::Running, Armour::Plate, &s), Noise::PlateMovement);
        // House: heavy armour is heard through a furtive gait, unless the setting says not.
        assert_eq!(movement_noise(Gait::Furtive, Armour::Heavy, &s), Noise::HeavyMovement);
        assert_eq!(movement_noise(Gait::Furtive, Armour::Plate, &s), Noise::PlateMovement);
        let quiet = SleepersSettings { armour_heard_through_furtive_gait: false, ..settings() };
        assert_eq!(movement_noise(Gait::Furtive, Armour::Plate, &quiet), Noise::FurtiveMovement);
        assert_eq!(movement_noise(Gait::Normal, Armour::Plate, &quiet), Noise::PlateMovement);
        // A louder running noise beats the armour's.
        let loud = SleepersSettings { running_noise: Noise::ClashOfWeapons, ..settings() };
        assert_eq!(movement_noise(Gait::Running, Armour::Heavy, &loud), Noise::ClashOfWeapons);
    }

    // ---- shelter and walls ----

    #[test]
    fn earshot_by_shelter() {
        assert_eq!(Shelter::Open.earshot_inches(), 6.0);
        assert_eq!(Shelter::Tent.earshot_inches(), 4.0);
        assert_eq!(Shelter::Building.earshot_inches(), 2.0);
        assert!(Shelter::Open.within_earshot(6.0));
        assert!(!Shelter::Open.within_earshot(6.1));
        assert!(Shelter::Tent.within_earshot(4.0));
        assert!(!Shelter::Tent.within_earshot(4.1));
        assert!(Shelter::Building.within_earshot(2.0));
        assert!(!Shelter::Building.within_earshot(2.1));
        assert!(Shelter::Building.within_earshot(0.0));
    }

    #[test]
    fn reach_scales_heard_to_by_shelter() {
        use Shelter::*;
        use ShelterScaling::*;
        let r = |shelter, heard_to, scaling| noise_reach(shelter, heard_to, scaling);
        // No "heard to": the shelter's earshot, whatever the setting.
        for scaling in [Proportional, Subtract, Earshot] {
            assert_eq!([r(Open, None, scaling), r(Tent, None, scaling), r(Building, None, scaling)], [6.0, 4.0, 2.0]);
        }
        // Proportional (× earshot / 6): screaming 18" → 18, 12, 6; cursing 8" → 8, 5.33, 2.67;
        // a sneeze 9" → 9, 6, 3.
        for (h, want) in [(18.0, [18.0, 12.0, 6.0]), (8.0, [8.0, 16.0 / 3.0, 8.0 / 3.0]), (9.0, [9.0, 6.0, 3.0])] {
            let got =
                [r(Open, Some(h), Proportional), r(Tent, Some(h), Proportional), r(Building, Some(h), Proportional)];
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() < 1e-4, "{h}: {got:?}");
            }
        }
        // Subtract (− (6 − earshot)): 18, 16, 14; never below 0.
        assert_eq!(
            [r(Open, Some(18.0), Subtract), r(Tent, Some(18.0), Subtract), r(Building, Some(18.0), Subtract)],
            [18.0, 16.0, 14.0]
        );
        assert_eq!(r(Building, Some(3.0), Subtract), 0.0);
        // Earshot (the earlier reading): never beyond 6, 4, 2; a shorter "heard to" bounds it.
        assert_eq!(
            [r(Open, Some(18.0), Earshot), r(Tent, Some(18.0), Earshot), r(Building, Some(18.0), Earshot)],
            [6.0, 4.0, 2.0]
        );
        assert_eq!(r(Open, Some(3.5), Earshot), 3.5);
        assert_eq!(SleepersSettings::default().heard_to_in_shelter, Proportional);
    }

    #[test]
    fn wall_factors() {
        for stacking in [WallStacking::Sum, WallStacking::Worst] {
            assert_eq!(wall_factor(0, 0, stacking), 0);
            assert_eq!(wall_factor(1, 0, stacking), -1);
            assert_eq!(wall_factor(0, 1, stacking), -2);
        }
        assert_eq!(wall_factor(1, 1, WallStacking::Sum), -3);
        assert_eq!(wall_factor(2, 0, WallStacking::Sum), -2);
        assert_eq!(wall_factor(2, 2, WallStacking::Sum), -6);
        assert_eq!(wall_factor(1, 1, WallStacking::Worst), -2);
        assert_eq!(wall_factor(3, 0, WallStacking::Worst), -1);
        assert_eq!(wall_factor(2, 2, WallStacking::Worst), -2);
    }

    #[test]
    fn wall_modifiers_in_the_roll() {
        let r = wake(&WakingConditions { inner_walls: 1, ..base_waking() }, 6);
        assert_eq!(r.roll.total, 5);
        assert!(has(&r.roll, "inner wall between", -1));
        let r = wake(&WakingConditions { outer_walls: 1, ..base_waking() }, 6);
        assert_eq!(r.roll.total, 4);
        assert!(has(&r.roll, "outer wall between", -2));
        let r = wake(&WakingConditions { inner_walls: 2, outer_walls: 1, ..base_waking() }, 6);
        assert_eq!(r.roll.total, 2);
        assert!(has(&r.roll, "2 inner walls between", -2));
        assert!(has(&r.roll, "outer wall between", -2));
        let worst = SleepersSettings { wall_stacking: WallStacking::Worst, ..settings() };
        let r = wake_with(&WakingConditions { inner_walls: 2, outer_walls: 1, ..base_waking() }, &worst, 6);
        assert_eq!(r.roll.total, 4);
        assert_eq!(r.roll.modifiers.len(), 1);
        assert!(has(&r.roll, "outer wall between", -2));
        let r = wake_with(&WakingConditions { inner_walls: 2, ..base_waking() }, &worst, 6);
        assert_eq!(r.roll.total, 5);
        assert!(has(&r.roll, "inner wall between", -1));
    }

    // ---- waking roll ----

    #[test]
    fn waking_base_roll_has_no_modifiers() {
        let r = wake(&base_waking(), 3);
        assert_eq!(r.roll.dice, Dice::D6);
        assert!(!r.roll.secret);
        assert_eq!(r.roll.total, 3);
        assert!(r.roll.modifiers.is_empty());
    }

    #[test]
    fn noise_factors_from_house_rules_are_tagged_and_registered() {
        use crate::rules::house_rules::{house_rule_path, is_house_rule_reason};
        for noise in Noise::ALL {
            let (waking, response) = (noise.waking_reason(), noise.response_reason());
            assert_eq!(noise.text_waking_factor().is_none(), is_house_rule_reason(&waking), "{waking}");
            assert_eq!(noise.text_response_factor().is_none(), is_house_rule_reason(&response), "{response}");
            for reason in [waking, response] {
                if is_house_rule_reason(&reason) {
                    assert!(house_rule_path(&reason).is_some(), "{reason} names no setting");
                }
            }
        }
    }

    #[test]
    fn waking_every_factor() {
        let face = 3;
        for noise in Noise::ALL {
            let r = wake(&WakingConditions { noise, ..base_waking() }, face);
            let f = noise.waking_factor(&settings());
            assert_eq!(r.roll.total, 3 + f, "{}", noise.id());
            if f != 0 {
                assert!(has(&r.roll, &noise.waking_reason(), f), "{}", noise.id());
            }
        }
        let r = wake(&WakingConditions { noise: Noise::FurtiveMovement, ..base_waking() }, face);
        assert!(has(&r.roll, "furtive movement", -1));
        let r = wake(&WakingConditions { noise: Noise::Shout, ..base_waking() }, face);
        assert!(has(&r.roll, "shouts", 4));
        let r = wake(&WakingConditions { hearing: Hearing::Acute, ..base_waking() }, face);
        assert_eq!(r.roll.total, 4);
        assert!(has(&r.roll, "acute hearer", 1));
        let r = wake(&WakingConditions { hearing: Hearing::Obtuse, ..base_waking() }, face);
        assert_eq!(r.roll.total, 2);
        assert!(has(&r.roll, "obtuse hearer", -1));
        let r = wake(&WakingConditions { noisy_area: true, ..base_waking() }, face);
        assert_eq!(r.roll.total, 2);
        assert!(has(&r.roll, "noisy area", -1));
        let r = wake(&WakingConditions { asleep: 1, group_size: 1, ..base_waking() }, face);
        assert_eq!(r.roll.total, 2);
        assert!(has(&r.roll, "one in group", -1));
        let r = wake(&WakingConditions { asleep: 2, ..base_waking() }, face);
        assert_eq!(r.roll.total, 3);
        let r = wake(&WakingConditions { known_threat: true, ..base_waking() }, face);
        assert_eq!(r.roll.total, 4);
        assert!(has(&r.roll, "known threat", 1));
        // All together: +4 screams +1 acute −1 noisy −1 alone −1 inner −2 outer +1 threat = +1.
        let all = WakingConditions {
            noise: Noise::Scream,
            hearing: Hearing::Acute,
            noisy_area: true,
            asleep: 1,
            group_size: 1,
            inner_walls: 1,
            outer_walls: 1,
            known_threat: true,
        };
        let r = wake(&all, face);
        assert_eq!(r.roll.total, 4);
        assert_eq!(r.roll.modifiers.len(), 7);
    }

    #[test]
    fn one_in_group_is_a_lone_sleeper() {
        // "One in group −1": a group of one. Face 5: D6 + 0 − 1 = 4, none wake.
        let lone = WakingConditions { asleep: 1, group_size: 1, ..base_waking() };
        let r = wake(&lone, 5);
        assert!(has(&r.roll, "one in group", -1));
        assert_eq!((r.roll.total, r.outcome), (4, WakingOutcome::NoneWake));
        // A group of 3 with 2 awake: the last sleeper is not alone, no −1: face 5 wakes one.
        let last = WakingConditions { asleep: 1, group_size: 3, ..base_waking() };
        let r = wake(&last, 5);
        assert!(r.roll.modifiers.is_empty());
        assert_eq!((r.roll.total, r.outcome, r.woken), (5, WakingOutcome::OneWakes, 1));
    }

    #[test]
    fn women_add_two_to_full_dressing() {
        let s = settings();
        let full = |armour, dresser, sex| full_dressing_rounds(armour, effective_dresser(dresser, sex), &s);
        // Clothed: 2 + all 1 = 3 for a man; + women 2 = 5 for a woman.
        assert_eq!(full(Armour::Clothed, Dresser::Ordinary, Sex::Male), 3);
        assert_eq!(full(Armour::Clothed, Dresser::Ordinary, Sex::Female), 5);
        // Plate: 7 + 1 + 2 = 10 for a woman; a lady 7 + 1 + 4 = 12 (not + 2 more).
        assert_eq!(full(Armour::Plate, Dresser::Ordinary, Sex::Female), 10);
        assert_eq!(full(Armour::Plate, Dresser::Lady, Sex::Female), 12);
        // Another category keeps its own rounds.
        assert_eq!(effective_dresser(Dresser::Courtier, Sex::Female), Dresser::Courtier);
        assert_eq!(effective_dresser(Dresser::Ordinary, Sex::Male), Dresser::Ordinary);
    }

    #[test]
    fn waking_with_mystic_dice_is_secret() {
        let md = SleepersSettings { waking_dice: D6OrMd::Md, ..settings() };
        let r = wake_with(&base_waking(), &md, 5);
        assert_eq!(r.roll.dice, Dice::Mystic);
        assert!(r.roll.secret);
        assert_eq!(r.outcome, WakingOutcome::OneWakes);
    }

    #[test]
    fn waking_bands_on_both_sides() {
        assert_eq!(waking_band(-5), WakingOutcome::NoneWake);
        assert_eq!(waking_band(4), WakingOutcome::NoneWake);
        assert_eq!(waking_band(5), WakingOutcome::OneWakes);
        assert_eq!(waking_band(6), WakingOutcome::TwoWake);
        assert_eq!(waking_band(7), WakingOutcome::ThreeWake);
        assert_eq!(waking_band(8), WakingOutcome::AllWake);
        assert_eq!(waking_band(12), WakingOutcome::AllWake);
        // Through the resolver: face + known threat (+1).
        let threat = WakingConditions { known_threat: true, asleep: 10, ..base_waking() };
        let cases = [(3, WakingOutcome::NoneWake, 0), (4, WakingOutcome::OneWakes, 1), (5, WakingOutcome::TwoWake, 2)];
        for (face, outcome, woken) in cases {
            let r = wake(&threat, face);
            assert_eq!((r.outcome, r.woken), (outcome, woken), "face {face}");
        }
        let r = wake(&threat, 6);
        assert_eq!((r.outcome, r.woken), (WakingOutcome::ThreeWake, 3));
        let shout = WakingConditions { noise: Noise::Shout, asleep: 10, ..base_waking() };
        let r = wake(&shout, 4);
        assert_eq!(r.roll.total, 8);
        assert_eq!((r.outcome, r.woken), (WakingOutcome::AllWake, 10));
    }

    #[test]
    fn woken_never_exceeds_those_asleep() {
        assert_eq!(WakingOutcome::NoneWake.woken(5), 0);
        assert_eq!(WakingOutcome::OneWakes.woken(5), 1);
        assert_eq!(WakingOutcome::TwoWake.woken(5), 2);
        assert_eq!(WakingOutcome::ThreeWake.woken(5), 3);
        assert_eq!(WakingOutcome::AllWake.woken(5), 5);
        assert_eq!(WakingOutcome::ThreeWake.woken(2), 2);
        assert_eq!(WakingOutcome::TwoWake.woken(1), 1);
        assert_eq!(WakingOutcome::OneWakes.woken(0), 0);
        assert_eq!(WakingOutcome::AllWake.woken(0), 0);
        // A pair woken by a scream with a known threat: 6 + 4 + 1 = 11, all (both) wake.
        let pair = WakingConditions { noise: Noise::Scream, asleep: 2, known_threat: true, ..base_waking() };
        let r = wake(&pair, 6);
        assert_eq!((r.outcome, r.woken), (WakingOutcome::AllWake, 2));
        // Three wake on 7, but only two are asleep.
        let pair = WakingConditions { noise: Noise::Speech, asleep: 2, ..base_waking() };
        let r = wake(&pair, 6);
        assert_eq!((r.outcome, r.woken), (WakingOutcome::ThreeWake, 2));
    }

    // ---- response roll ----

    #[test]
    fn response_every_factor() {
        let face = 3;
        let r = respond(&base_response(), &[face, 2]);
        assert!(r.roll.modifiers.is_empty());
        assert_eq!(r.roll.total, 3);
        let r = respond(&ResponseConditions { noise_now: None, ..base_response() }, &[face]);
        assert_eq!(r.roll.total, 2);
        assert!(has(&r.roll, "noise ceased", -1));
        for noise in Noise::ALL {
            let f = noise.response_factor(&settings());
            let mut faces = vec![face];
            if 3 + f == 3 {
                faces.push(1); // the listening D6
            }
            let r = respond(&ResponseConditions { noise_now: Some(noise), ..base_response() }, &faces);
            assert_eq!(r.roll.total, 3 + f, "{}", noise.id());
            if f != 0 {
                assert!(has(&r.roll, &noise.response_reason(), f), "{}", noise.id());
            }
        }
        let r = respond(&ResponseConditions { noise_now: Some(Noise::Scream), ..base_response() }, &[face]);
        assert!(has(&r.roll, "screams", 3));
        let r = respond(&ResponseConditions { noise_now: Some(Noise::Alarm), ..base_response() }, &[face]);
        assert!(has(&r.roll, "alarm called", 3));
        let r = respond(&ResponseConditions { noise_now: Some(Noise::ClashOfWeapons), ..base_response() }, &[face]);
        assert!(has(&r.roll, "clash of weapons", 2));
        let r = respond(&ResponseConditions { rank: Rank::Officer, ..base_response() }, &[face]);
        assert_eq!(r.roll.total, 4);
        assert!(has(&r.roll, "officer", 1));
        let r = respond(&ResponseConditions { rank: Rank::Follower, ..base_response() }, &[face]);
        assert_eq!(r.roll.total, 2);
        assert!(has(&r.roll, "follower", -1));
        let r = respond(&ResponseConditions { rank: Rank::Nidderling, ..base_response() }, &[face]);
        assert_eq!(r.roll.total, 1);
        assert!(has(&r.roll, "nidderling", -2));
        let r = respond(&ResponseConditions { expecting_trouble: true, ..base_response() }, &[face]);
        assert_eq!(r.roll.total, 4);
        assert!(has(&r.roll, "expecting trouble", 1));
        assert_eq!(Rank::ALL.map(|r| r.factor()), [1, 0, -1, -2]);
    }

    #[test]
    fn response_bands_on_both_sides() {
        assert_eq!(response_band(-3), ResponseOutcome::BackToSleep);
        assert_eq!(response_band(2), ResponseOutcome::BackToSleep);
        assert_eq!(response_band(3), ResponseOutcome::ListenAwake);
        assert_eq!(response_band(4), ResponseOutcome::Investigate);
        assert_eq!(response_band(5), ResponseOutcome::RaiseAlarm);
        assert_eq!(response_band(9), ResponseOutcome::RaiseAlarm);
        let r = respond(&base_response(), &[2]);
        assert_eq!((r.outcome, r.listen_moves.is_none()), (ResponseOutcome::BackToSleep, true));
        let r = respond(&base_response(), &[3, 4]);
        assert_eq!(r.outcome, ResponseOutcome::ListenAwake);
        let listen = r.listen_moves.as_ref().map(|m| (m.dice, m.total));
        assert_eq!(listen, Some((Dice::D6, 4)));
        let r = respond(&base_response(), &[4]);
        assert_eq!((r.outcome, r.listen_moves.is_none()), (ResponseOutcome::Investigate, true));
        let r = respond(&base_response(), &[5]);
        assert_eq!((r.outcome, r.listen_moves.is_none()), (ResponseOutcome::RaiseAlarm, true));
    }

    #[test]
    fn response_with_mystic_dice_is_secret() {
        let md = SleepersSettings { response_dice: D6OrMd::Md, ..settings() };
        let mut src = ScriptedDice::faces([6]);
        let r = resolve_response(&base_response(), &md, &mut src);
        assert_eq!(r.roll.dice, Dice::Mystic);
        assert!(r.roll.secret);
        assert_eq!(r.outcome, ResponseOutcome::RaiseAlarm);
    }

    // ---- dressing ----

    #[test]
    fn hasty_dressing_table() {
        let s = settings();
        assert_eq!(hasty_rounds(Armour::Unclothed, &s), 1);
        assert_eq!(hasty_rounds(Armour::Clothed, &s), 2);
        assert_eq!(hasty_rounds(Armour::Light, &s), 3);
        assert_eq!(hasty_rounds(Armour::Medium, &s), 3);
        assert_eq!(hasty_rounds(Armour::Heavy, &s), 5);
        assert_eq!(hasty_rounds(Armour::Plate, &s), 7);
        let light2 = SleepersSettings { light_armour_hasty_rounds: 2, ..settings() };
        assert_eq!(hasty_rounds(Armour::Light, &light2), 2);
    }

    #[test]
    fn full_dressing_table() {
        let s = settings();
        assert_eq!(Dresser::Ordinary.full_dressing_extra_rounds(), 1);
        assert_eq!(Dresser::Woman.full_dressing_extra_rounds(), 3);
        assert_eq!(Dresser::Lady.full_dressing_extra_rounds(), 5);
        assert_eq!(Dresser::Child.full_dressing_extra_rounds(), 4);
        assert_eq!(Dresser::Merchant.full_dressing_extra_rounds(), 2);
        assert_eq!(Dresser::Courtier.full_dressing_extra_rounds(), 3);
        assert_eq!(full_dressing_rounds(Armour::Clothed, Dresser::Ordinary, &s), 3);
        assert_eq!(full_dressing_rounds(Armour::Clothed, Dresser::Lady, &s), 7);
        assert_eq!(full_dressing_rounds(Armour::Plate, Dresser::Courtier, &s), 10);
        assert_eq!(full_dressing_rounds(Armour::Unclothed, Dresser::Child, &s), 5);
        assert_eq!(full_dressing_rounds(Armour::Medium, Dresser::Merchant, &s), 5);
        assert_eq!(full_dressing_rounds(Armour::Heavy, Dresser::Woman, &s), 8);
    }

    #[test]
    fn incomplete_armour_follows_rounds_taken() {
        let s = settings();
        let worn: Vec<Armour> = (0..=8).map(|k| armour_after_rounds(Armour::Plate, k, &s)).collect();
        assert_eq!(
            worn,
            [
                Armour::Unclothed,
                Armour::Unclothed,
                Armour::Clothed,
                Armour::Medium,
                Armour::Medium,
                Armour::Heavy,
                Armour::Heavy,
                Armour::Plate,
                Armour::Plate,
            ]
        );
        // Never past the target.
        assert_eq!(armour_after_rounds(Armour::Clothed, 7, &s), Armour::Clothed);
        assert_eq!(armour_after_rounds(Armour::Light, 2, &s), Armour::Clothed);
        assert_eq!(armour_after_rounds(Armour::Light, 3, &s), Armour::Light);
        let light2 = SleepersSettings { light_armour_hasty_rounds: 2, ..settings() };
        assert_eq!(armour_after_rounds(Armour::Heavy, 2, &light2), Armour::Light);
    }

    #[test]
    fn hasty_dressing_progress() {
        let s = settings();
        let p = hasty_dressing(Armour::Heavy, 4, &s);
        assert_eq!((p.armour_rounds, p.rounds_needed), (5, 5));
        assert_eq!(p.armour_worn, Armour::Medium);
        assert!(p.half_dressed && !p.done);
        assert_eq!(p.melee_modifier, -1);
        let p = hasty_dressing(Armour::Heavy, 5, &s);
        assert_eq!(p.armour_worn, Armour::Heavy);
        assert!(!p.half_dressed && p.done);
        assert_eq!(p.melee_modifier, 0);
        let p = hasty_dressing(Armour::Unclothed, 0, &s);
        assert!(p.half_dressed && !p.done);
        let p = hasty_dressing(Armour::Unclothed, 1, &s);
        assert!(!p.half_dressed && p.done);
    }

    #[test]
    fn full_dressing_progress() {
        let s = settings();
        // Medium (3) for a lady: 3 + 1 + 4 = 8 rounds.
        let p = full_dressing(Armour::Medium, Dresser::Lady, 2, &s);
        assert_eq!((p.armour_rounds, p.rounds_needed), (3, 8));
        assert_eq!(p.armour_worn, Armour::Clothed);
        assert!(p.half_dressed && !p.done);
        let p = full_dressing(Armour::Medium, Dresser::Lady, 3, &s);
        assert_eq!(p.armour_worn, Armour::Medium);
        assert!(!p.half_dressed && !p.done);
        assert_eq!(p.melee_modifier, 0);
        let p = full_dressing(Armour::Medium, Dresser::Lady, 7, &s);
        assert!(!p.done);
        let p = full_dressing(Armour::Medium, Dresser::Lady, 8, &s);
        assert!(p.done);
    }

    #[test]
    fn group_hearing_picks_the_keenest_or_the_dullest() {
        use Hearing::*;
        assert_eq!(GroupHearing::Keenest.pick([Obtuse, Acute, Normal]), Acute);
        assert_eq!(GroupHearing::Keenest.pick([Obtuse, Obtuse]), Obtuse);
        assert_eq!(GroupHearing::Keenest.pick([Normal, Obtuse]), Normal);
        assert_eq!(GroupHearing::Dullest.pick([Acute, Obtuse, Normal]), Obtuse);
        assert_eq!(GroupHearing::Dullest.pick([Acute, Acute]), Acute);
        assert_eq!(GroupHearing::Keenest.pick([]), Normal);
    }

    #[test]
    fn settings_round_trip_and_defaults() {
        let s = settings();
        let text = serde_json::to_string(&s).unwrap();
        let back: SleepersSettings = serde_json::from_str(&text).unwrap();
        assert_eq!(back, s);
        let empty: SleepersSettings = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, s);
        let md: SleepersSettings = serde_json::from_str(r#"{"waking_dice":"MD"}"#).unwrap();
        assert_eq!(md.waking_dice, D6OrMd::Md);
        assert!(serde_json::from_str::<SleepersSettings>(r#"{"no_such":1}"#).is_err());
    }

    // ---- statistics ----

    #[test]
    fn waking_frequencies_match_the_text() {
        // (conditions, F written out by hand from the text's factors)
        let configs = [
            (base_waking(), 0),
            // clash +2, acute +1, alone −1, inner wall −1
            (
                WakingConditions {
                    noise: Noise::ClashOfWeapons,
                    hearing: Hearing::Acute,
                    asleep: 1,
                    group_size: 1,
                    inner_walls: 1,
                    ..base_waking()
                },
                1,
            ),
            // shouts +4, noisy −1
            (WakingConditions { noise: Noise::Shout, noisy_area: true, ..base_waking() }, 3),
            // speech +1, known threat +1
            (WakingConditions { noise: Noise::Speech, known_threat: true, ..base_waking() }, 2),
            // furtive −1, outer wall −2, obtuse −1: never wakes anyone
            (
                WakingConditions {
                    noise: Noise::FurtiveMovement,
                    outer_walls: 1,
                    hearing: Hearing::Obtuse,
                    ..base_waking()
                },
                -4,
            ),
        ];
        let s = settings();
        let mut src = SeededDice::new(20_240_611);
        let trials = 12_000;
        for (conditions, f) in configs {
            // Bands from the text: 4- none, 5 one, 6 two, 7 three, 8+ all.
            let mut expected = [0.0f64; 5];
            for face in 1..=6 {
                let total = face + f;
                let band = if total <= 4 {
                    0
                } else if total == 5 {
                    1
                } else if total == 6 {
                    2
                } else if total == 7 {
                    3
                } else {
                    4
                };
                expected[band] += 1.0 / 6.0;
            }
            let mut observed = [0u32; 5];
            for _ in 0..trials {
                let r = resolve_waking(&conditions, &s, &mut src);
                let i = match r.outcome {
                    WakingOutcome::NoneWake => 0,
                    WakingOutcome::OneWakes => 1,
                    WakingOutcome::TwoWake => 2,
                    WakingOutcome::ThreeWake => 3,
                    WakingOutcome::AllWake => 4,
                };
                observed[i] += 1;
            }
            let chi = chi_square(&observed, &expected);
            // 4 degrees of freedom at most: 18.47 is p = 0.001.
            assert!(chi < 18.47, "F {f}: chi-square {chi}, observed {observed:?}, expected {expected:?}");
        }
    }

    #[test]
    fn response_frequencies_match_the_text() {
        let configs = [
            (base_response(), 0),
            (ResponseConditions { rank: Rank::Nidderling, ..base_response() }, -2),
            // noise ceased −1, officer +1, expecting trouble +1
            (ResponseConditions { noise_now: None, rank: Rank::Officer, expecting_trouble: true }, 1),
            // screams +3, follower −1
            (ResponseConditions { noise_now: Some(Noise::Scream), rank: Rank::Follower, ..base_response() }, 2),
        ];
        let s = settings();
        let mut src = SeededDice::new(77);
        let trials = 12_000;
        for (conditions, f) in configs {
            // Bands from the text: 2- sleep, 3 listen, 4 investigate, 5+ alarm.
            let mut expected = [0.0f64; 4];
            for face in 1..=6 {
                let total = face + f;
                let band = if total <= 2 {
                    0
                } else if total == 3 {
                    1
                } else if total == 4 {
                    2
                } else {
                    3
                };
                expected[band] += 1.0 / 6.0;
            }
            let mut observed = [0u32; 4];
            let mut listen_moves = [0u32; 6];
            for _ in 0..trials {
                let r = resolve_response(&conditions, &s, &mut src);
                let i = match r.outcome {
                    ResponseOutcome::BackToSleep => 0,
                    ResponseOutcome::ListenAwake => 1,
                    ResponseOutcome::Investigate => 2,
                    ResponseOutcome::RaiseAlarm => 3,
                };
                observed[i] += 1;
                assert_eq!(r.listen_moves.is_some(), r.outcome == ResponseOutcome::ListenAwake);
                if let Some(moves) = &r.listen_moves {
                    assert!((1..=6).contains(&moves.total));
                    listen_moves[(moves.total - 1) as usize] += 1;
                }
            }
            let chi = chi_square(&observed, &expected);
            // 3 degrees of freedom at most: 16.27 is p = 0.001.
            assert!(chi < 16.27, "F {f}: chi-square {chi}, observed {observed:?}, expected {expected:?}");
            let listened: u32 = listen_moves.iter().sum();
            if listened > 0 {
                let chi = chi_square(&listen_moves, &[1.0 / 6.0; 6]);
                // 5 degrees of freedom: 20.52 is p = 0.001.
                assert!(chi < 20.52, "listen moves {listen_moves:?}");
            }
        }
    }
}
