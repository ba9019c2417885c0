//! The scene file: a versioned RON document. Every field is documented in
//! `docs/scene-format.md`; unknown fields are errors.

use crate::rules::character::{Armour, Gait, Sex};
use crate::rules::lighting::Lighting;
use crate::rules::movement::Going;
use serde::{Deserialize, Serialize};

/// The scene format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// A point on the table in inches, x to the right, y up, (0, 0) the lower-left corner.
pub type Point = (f32, f32);

fn is_false(b: &bool) -> bool {
    !*b
}

/// A scene: the table and everything on it, as the scene file holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// Must be 1.
    pub version: u32,
    /// A title for the GM.
    #[serde(default)]
    pub title: String,
    /// The table's size.
    pub table: Table,
    /// The seed used when none is given on the command line.
    #[serde(default)]
    pub seed: u64,
    /// The lighting on the table (001 "Lighting").
    #[serde(default)]
    pub lighting: Lighting,
    /// Where the clock stands: a saved scene continues from here.
    #[serde(default)]
    pub clock: Clock,
    /// Which rules time and run the scene: `morval` (the default) or `osr` ([`super::osr`]).
    #[serde(default, skip_serializing_if = "super::osr::is_morval")]
    pub rules_family: super::osr::RulesFamily,
    /// Settings and house defaults.
    #[serde(default)]
    pub rules: RulesSettings,
    /// A map image drawn under the grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<Background>,
    /// Materials on the table; where regions overlap, the later one lies on top.
    #[serde(default)]
    pub terrain: Vec<Region>,
    /// Wall polylines.
    #[serde(default)]
    pub walls: Vec<Wall>,
    /// Doors and windows.
    #[serde(default)]
    pub doors: Vec<Door>,
    /// Light sources.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lights: Vec<Light>,
    /// Figures on the table.
    #[serde(default)]
    pub figures: Vec<Figure>,
    /// Traps.
    #[serde(default)]
    pub traps: Vec<Trap>,
    /// Fires burning at the start, and igniters.
    #[serde(default)]
    pub fires: Vec<Fire>,
    /// Fires that have caught (written by the simulation; replayed on load).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignitions: Vec<FireIgnition>,
    /// The fire as it was when the scene was saved (written by the simulation; loading puts it
    /// back, then replays `ignitions` on top).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fire_state: Option<super::fire_state::FireState>,
    /// Herds, flocks and loose steeds.
    #[serde(default)]
    pub herds: Vec<Herd>,
    /// Groups asleep.
    #[serde(default)]
    pub sleepers: Vec<SleepingGroup>,
    /// Cattle grids across gateways: impassable to livestock (001 "Cattle Grids").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cattle_grids: Vec<CattleGrid>,
    /// The scene's own D% location tables for wounds, cripplings, burns and cripple burns (000
    /// gives none): at most one of each kind ([`super::injuries`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub location_tables: Vec<crate::rules::injuries::LocationTable>,
    /// Treatment orders for the days of rest: who treats whom, with what, resting or not
    /// ([`super::injuries::Treatment`], `tabula rest`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub treatments: Vec<super::injuries::Treatment>,
    /// Temptation sites: taverns, bakeries, dicing games, mirrors, ... ([`super::temptations`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub temptations: Vec<super::temptations::TemptationSite>,
    /// The GM's `decide` orders: a figure dices between options at a move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<super::temptations::DecisionOrder>,
    /// The GM's outvote orders: two others of equal or higher rank talk a figure out of a site.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outvotes: Vec<super::temptations::OutvoteOrder>,
    /// The GM's weakness checks: a figure dices its weakness's own roll at a move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weakness_checks: Vec<super::temptations::WeaknessCheck>,
    /// Trails, trackers, draughts of pepper and the weather ([`super::trails`]); trails laid
    /// in play and the trackers' state are written back by the simulation.
    #[serde(default, skip_serializing_if = "super::trails::TrailsSection::is_empty")]
    pub trails: super::trails::TrailsSection,
    /// Goals a play-test counts: a side all inside an area by a move ([`Objective`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objectives: Vec<Objective>,
    /// Magicians, spell orders, wards, occult beings, curses and mesmerisms ([`super::magic`]).
    #[serde(default, skip_serializing_if = "super::magic::MagicSection::is_empty")]
    pub magic: super::magic::MagicSection,
    /// Stake lines, ropes, grapnel throws, glass-topped walls, planks and vehicles
    /// ([`super::obstacles`]); their state is written back by the simulation.
    #[serde(default, skip_serializing_if = "super::obstacles::ObstaclesSection::is_empty")]
    pub obstacles: super::obstacles::ObstaclesSection,
    /// OSR sheets, the encounter table, points of entry, the GM's hits, the OSR clock and the
    /// encounter in progress ([`super::osr`]); read under `rules_family: osr`.
    #[serde(default, skip_serializing_if = "super::osr::OsrSection::is_empty")]
    pub osr: super::osr::OsrSection,
    /// The fog of war: the cells the players' side has explored (written by the simulation;
    /// [`super::fog`], docs/sight.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fog: Option<super::fog::FogState>,
}

/// A goal the play-test report counts (docs/playtest.md "Objectives"): it is met in a run when
/// every figure of `side` stands inside `area` at the end of move `by_move`. The simulation
/// does not act on it; it only measures the layout.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Objective {
    /// The objective's name, unique in the scene.
    pub name: String,
    /// Whose figures: every figure with this `side` must be inside the area.
    pub side: String,
    /// Where they must stand, as a terrain region's shape (edges count as inside).
    pub area: Shape,
    /// The move (counted as the clock counts, from 1) at whose end the figures must be there.
    pub by_move: u32,
}

impl Objective {
    /// Whether every figure of the objective's side in `figures` stands inside its area, each
    /// where `positions` puts it by name (a figure missing there is not inside). A side with no
    /// figure is not met (a checked scene has none).
    pub fn met_by(&self, figures: &[Figure], positions: &std::collections::BTreeMap<String, Point>) -> bool {
        let mut side = figures.iter().filter(|f| f.side == self.side).peekable();
        side.peek().is_some() && side.all(|f| positions.get(&f.name).is_some_and(|&p| self.area.contains(p)))
    }
}

/// The table, in inches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// Width in inches, 1 to 1000.
    pub width: f32,
    /// Height in inches, 1 to 1000.
    pub height: f32,
}

/// Where the clock stands: how many moves have been played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// Moves already played (the next move is `moves_played + 1`).
    #[serde(default)]
    pub moves_played: u32,
}

/// Settings and house defaults (RULES-NOTES "Where a source is silent").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RulesSettings {
    /// Rounds in a move (RULES-NOTES "Time and movement": 2).
    pub rounds_per_move: u8,
    /// Moves in a day, for injuries that heal in days (a move is about 3 minutes: 480).
    pub moves_per_day: u32,
    /// Sleepers' dice and house rules (000 "Awaking groups asleep", docs/sleepers.md).
    pub sleepers: crate::rules::sleepers::SleepersSettings,
    /// Trap rules and house defaults (docs/traps.md).
    #[serde(skip_serializing_if = "is_default_traps")]
    pub traps: super::traps::TrapSettings,
    /// Herds, steeds, zones and cattle grids: the house rules where 000/001 are silent.
    pub herds: crate::rules::herds::HerdSettings,
    /// Fire house rules and the fire-front cell size (`docs/fire.md`).
    #[serde(skip_serializing_if = "is_default_fire")]
    pub fire: crate::rules::fire::FireSettings,
    /// Lighting house rules: light steps and DDL sight (001 "Lighting").
    #[serde(skip_serializing_if = "is_default_lighting")]
    pub lighting: crate::rules::lighting::LightingSettings,
    /// Injuries after the fight: which apparent-death text applies, and their house rules
    /// (docs/injuries.md).
    #[serde(skip_serializing_if = "is_default_injuries")]
    pub injuries: crate::rules::injuries::InjurySettings,
    /// Temptation house rules: a site's default reach and the readings of the list
    /// (docs/decisions.md).
    #[serde(skip_serializing_if = "is_default_temptations")]
    pub temptations: crate::rules::decisions::TemptationSettings,
    /// Prisoners, runaways and berserkers: the readings where 000 is silent (docs/prisoners.md).
    #[serde(skip_serializing_if = "is_default_prisoners")]
    pub prisoners: crate::rules::prisoners::PrisonersSettings,
    /// Tracking house rules: the guessed direction, searching again, crossing trails, the
    /// pepper (docs/tracking.md).
    #[serde(skip_serializing_if = "is_default_tracking")]
    pub tracking: crate::rules::tracking::TrackingSettings,
    /// Magic house rules and readings (docs/magic.md).
    #[serde(skip_serializing_if = "is_default_magic")]
    pub magic: crate::rules::magic::MagicSettings,
    /// Obstacles and climbing: readings and house rules (docs/obstacles.md).
    #[serde(skip_serializing_if = "is_default_obstacles")]
    pub obstacles: crate::rules::obstacles::ObstaclesSettings,
    /// OSR exploration and encounters: the scale and the readings (docs/osr.md).
    #[serde(skip_serializing_if = "is_default_osr")]
    pub osr: crate::rules::osr::OsrSettings,
    /// Sight: how far one sees in D/L, how far carried lights light (docs/sight.md).
    #[serde(skip_serializing_if = "is_default_sight")]
    pub sight: crate::rules::sight::SightSettings,
}

fn is_default_sight(s: &crate::rules::sight::SightSettings) -> bool {
    *s == crate::rules::sight::SightSettings::default()
}

fn is_default_osr(s: &crate::rules::osr::OsrSettings) -> bool {
    *s == crate::rules::osr::OsrSettings::default()
}

fn is_default_obstacles(s: &crate::rules::obstacles::ObstaclesSettings) -> bool {
    *s == crate::rules::obstacles::ObstaclesSettings::default()
}

fn is_default_prisoners(s: &crate::rules::prisoners::PrisonersSettings) -> bool {
    *s == crate::rules::prisoners::PrisonersSettings::default()
}

fn is_default_tracking(s: &crate::rules::tracking::TrackingSettings) -> bool {
    *s == crate::rules::tracking::TrackingSettings::default()
}

fn is_default_magic(s: &crate::rules::magic::MagicSettings) -> bool {
    *s == crate::rules::magic::MagicSettings::default()
}

fn is_default_temptations(s: &crate::rules::decisions::TemptationSettings) -> bool {
    *s == crate::rules::decisions::TemptationSettings::default()
}

fn is_default_injuries(s: &crate::rules::injuries::InjurySettings) -> bool {
    *s == crate::rules::injuries::InjurySettings::default()
}

fn is_default_lighting(s: &crate::rules::lighting::LightingSettings) -> bool {
    *s == crate::rules::lighting::LightingSettings::default()
}

fn is_default_traps(t: &super::traps::TrapSettings) -> bool {
    *t == super::traps::TrapSettings::default()
}

fn is_default_fire(s: &crate::rules::fire::FireSettings) -> bool {
    *s == crate::rules::fire::FireSettings::default()
}

impl Default for RulesSettings {
    fn default() -> Self {
        Self {
            rounds_per_move: 2,
            moves_per_day: 480,
            sleepers: Default::default(),
            traps: Default::default(),
            fire: Default::default(),
            herds: Default::default(),
            lighting: Default::default(),
            injuries: Default::default(),
            temptations: Default::default(),
            prisoners: Default::default(),
            tracking: Default::default(),
            magic: Default::default(),
            obstacles: Default::default(),
            osr: Default::default(),
            sight: Default::default(),
        }
    }
}

crate::rules::named_enum! {
    /// What the ground is made of. It sets the going for movement and, for the fuels, how fire
    /// takes and spreads.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Material {
        /// Grass: good going; does not burn.
        Grass => "grass",
        /// Bare earth: good going; does not burn.
        Earth => "earth",
        /// A stone floor: good going; does not burn.
        StoneFloor => "stone_floor",
        /// A paved road or floor: +1" going; does not burn.
        Paved => "paved",
        /// Bad ground: −1" going; does not burn.
        BadGround => "bad_ground",
        /// Rock: bad going; does not burn.
        Rock => "rock",
        /// Water: impassable; does not burn.
        Water => "water",
        /// Thatch: good going; burns.
        Thatch => "thatch",
        /// Hay: good going; burns.
        Hay => "hay",
        /// Standing corn: bad going; burns.
        StandingCorn => "standing_corn",
        /// Heaped loose timber: bad going; burns.
        LooseTimber => "loose_timber",
        /// Brushwood: bad going; burns.
        Brushwood => "brushwood",
        /// Bushes and foliage: bad going; burn.
        Bushes => "bushes",
        /// Trees: bad going; burn.
        Trees => "trees",
        /// Cloth: good going; burns.
        Cloth => "cloth",
        /// Oil: good going; burns.
        Oil => "oil",
        /// Solid timber (huts, wagons, boats, shingles): good going; burns.
        SolidTimber => "solid_timber",
        /// A half-timbered building: good going; burns.
        HalfTimbered => "half_timbered",
    }
}

impl Material {
    /// The going underfoot. House rule: undergrowth, trees and corn are bad ground; a paved
    /// road is paved; a dungeon's stone floor is good going like open grass.
    pub fn going(self) -> Going {
        match self {
            Material::Paved => Going::Paved,
            Material::Grass | Material::Earth | Material::StoneFloor | Material::Hay | Material::Cloth => Going::Good,
            Material::Oil | Material::Thatch | Material::SolidTimber | Material::HalfTimbered => Going::Good,
            Material::BadGround
            | Material::Rock
            | Material::StandingCorn
            | Material::LooseTimber
            | Material::Brushwood
            | Material::Bushes
            | Material::Trees => Going::Bad,
            Material::Water => Going::Impassable,
        }
    }
}

/// An area of the table with one material.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Region {
    /// The region's name, unique in the scene.
    pub name: String,
    /// What the ground is made of.
    pub material: Material,
    /// Where the region lies.
    pub shape: Shape,
    /// Wet material resists fire (+2, 001 "Fire Starting Rules").
    #[serde(default, skip_serializing_if = "is_false")]
    pub wet: bool,
    /// A building (a roof, a hut, a house): burning, it frightens as a burning building, sized by
    /// its burning area (001 "Small Burning building FV2, House burning FV3, Large building
    /// burning FV 4").
    #[serde(default, skip_serializing_if = "is_false")]
    pub building: bool,
}

/// The outline of a region.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// A rectangle with its sides along the axes.
    Rect {
        /// The lower-left corner.
        min: Point,
        /// The upper-right corner.
        max: Point,
    },
    /// A circle.
    Circle {
        /// The centre.
        center: Point,
        /// The radius in inches.
        radius: f32,
    },
    /// A polygon, by the even-odd rule.
    Polygon {
        /// Its corners in order, 3 to 10000.
        points: Vec<Point>,
    },
}

impl Shape {
    /// Whether the point lies in the shape.
    pub fn contains(&self, p: Point) -> bool {
        match self {
            Shape::Rect { min, max } => p.0 >= min.0 && p.0 <= max.0 && p.1 >= min.1 && p.1 <= max.1,
            Shape::Circle { center, radius } => {
                let (dx, dy) = (p.0 - center.0, p.1 - center.1);
                dx * dx + dy * dy <= radius * radius
            }
            Shape::Polygon { points } => point_in_polygon(p, points),
        }
    }

    /// Every point that defines the shape (for bounds checks).
    pub fn points(&self) -> Vec<Point> {
        match self {
            Shape::Rect { min, max } => vec![*min, *max],
            Shape::Circle { center, radius } => {
                vec![(center.0 - radius, center.1 - radius), (center.0 + radius, center.1 + radius)]
            }
            Shape::Polygon { points } => points.clone(),
        }
    }
}

/// Even-odd rule.
fn point_in_polygon(p: Point, poly: &[Point]) -> bool {
    let mut inside = false;
    let n = poly.len();
    if n < 3 {
        return false;
    }
    let mut j = n - 1;
    for i in 0..n {
        let (xi, yi) = poly[i];
        let (xj, yj) = poly[j];
        if (yi > p.1) != (yj > p.1) && p.0 < (xj - xi) * (p.1 - yi) / (yj - yi) + xi {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// What a wall is, for movement and sound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WallKind {
    /// An inner wall or partition (waking checks −1 through it).
    #[default]
    Inner,
    /// An outer wall (waking checks −2 through it).
    Outer,
    /// A low obstacle (furniture, rubble): blocks movement, not sound.
    Low,
}

/// A map image under the grid: a PNG or WebP file, relative to the scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Background {
    /// The image file (PNG or WebP), relative to the scene file.
    pub image: String,
    /// Where the image's lower-left corner lies on the table.
    #[serde(default)]
    pub origin: Point,
    /// How many inches the image covers, width and height.
    pub size: Point,
}

/// A light source: brightens the lighting within its range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Light {
    /// The light's name, unique in the scene.
    pub name: String,
    /// Where the light stands.
    pub position: Point,
    /// Reach in inches.
    pub range: f32,
    /// 0 to 1: strong (at least `rules.lighting.strong_light_from`, 0.5) lifts the lighting
    /// `strong_light_steps` (2), weaker `weak_light_steps` (1).
    #[serde(default = "full")]
    pub intensity: f32,
    /// `#rrggbb`, for drawing.
    #[serde(default = "white")]
    pub color: String,
}

fn full() -> f32 {
    1.0
}
fn white() -> String {
    "#ffffff".to_string()
}

/// A wall as a polyline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wall {
    /// The wall's name, unique in the scene.
    pub name: String,
    /// Inner, outer or low.
    #[serde(default)]
    pub kind: WallKind,
    /// The polyline's points, 2 to 10000.
    pub points: Vec<Point>,
    /// Its height in inches, more than 0 and at most 100, where a climb needs it; none: not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height_in: Option<f32>,
    /// Topped with broken glass (001 "Climbing over High broken glass topped walls"): a figure
    /// whose path it stops, with no rope at hand, sets about climbing it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub glass_topped: bool,
}

impl Wall {
    /// A plain wall: no height given, not glass topped.
    pub fn new(name: impl Into<String>, kind: WallKind, points: Vec<Point>) -> Self {
        Self { name: name.into(), kind, points, height_in: None, glass_topped: false }
    }
}

/// Whether a gap is a door or a window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DoorKind {
    /// A door.
    #[default]
    Door,
    /// A window.
    Window,
}

/// A door or window spanning the gap from `from` to `to`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Door {
    /// The door's name, unique in the scene.
    pub name: String,
    /// Door or window.
    #[serde(default)]
    pub kind: DoorKind,
    /// One end of the gap it fills.
    pub from: Point,
    /// The other end of the gap it fills.
    pub to: Point,
    /// The door or window stands open.
    #[serde(default, skip_serializing_if = "is_false")]
    pub open: bool,
}

/// A skill the rules read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Skill {
    /// Tracker in the wild (spots traps outdoors).
    Tracker,
    /// Engineer (spots traps in buildings).
    Engineer,
    /// Thief (spots traps in buildings).
    Thief,
    /// Khemri Spot/Disarm, taken 1 to 4 times.
    SpotDisarm(u8),
    /// Khemri Set Trap, taken 1 to 4 times.
    SetTrap(u8),
    /// A rider (a 1st level animal trainer).
    Rider,
    /// An animal trainer of level 1 or 2.
    AnimalTrainer(u8),
    /// A shepherd (herds 3 more beasts, 000 "Herding").
    Shepherd,
}

/// A Mordheim profile, for Khemri trap hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MordheimProfile {
    /// Weapon skill.
    pub ws: u8,
    /// Strength.
    pub s: u8,
    /// Toughness.
    pub t: u8,
    /// Wounds left, 0 to 10: traps take them off.
    pub w: u8,
    /// Initiative.
    pub i: u8,
    /// Armour save, e.g. 5 for 5+; none when absent.
    #[serde(default)]
    pub sv: Option<u8>,
}

/// A lasting effect on a figure: an injury that slows it, a status.
///
/// The file may leave `kind` out: it is then the kind the name implies
/// ([`ConditionKind::implied_by`], `other` for any name the simulator never gave), and it is
/// written only where the name does not imply it. So scene files from before kinds load with
/// the kinds their conditions always acted as, and a condition the GM renames keeps its kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "ConditionText", into = "ConditionText")]
pub struct Condition {
    /// What it is, e.g. "strained ankle". The GM's to change: the rules read `kind`.
    pub name: String,
    /// What the simulator acts on.
    pub kind: ConditionKind,
    /// Inches off every move while it lasts.
    pub move_penalty: f32,
    /// Moves left before it ends; none when it lasts until removed.
    pub moves_left: Option<u32>,
    /// The figure cannot move while it lasts (caught in a loop, down a pit).
    pub immobile: bool,
    /// Off Me and Mo while it lasts (burns, 001 "Fire Against people and animals").
    pub me_and_mo: i32,
    /// How the injury heals, day by day (000 "Adventurers injuries optional rules", 001 "Wound
    /// Recoveries"): given by `tabula rest`, or written by the GM; none for a condition that
    /// does not heal in days, or whose healing has not been rolled yet.
    pub healing: Option<crate::rules::injuries::HealingState>,
}

impl Condition {
    /// Whether `other` is this condition again, so that the two can be held as one entry: the
    /// same name, kind, moves left and immobility, neither off Me and Mo and neither healing in
    /// days (each injury heals on its own). Held as one, their move penalties add up, as
    /// movement adds up the penalties of separate entries, and they end together, so the figure
    /// fares exactly as with both.
    pub fn merges_with(&self, other: &Condition) -> bool {
        self.name == other.name
            && self.kind == other.kind
            && self.moves_left == other.moves_left
            && self.immobile == other.immobile
            && self.me_and_mo == 0
            && other.me_and_mo == 0
            && self.healing.is_none()
            && other.healing.is_none()
    }

    /// Fold `other`, a condition that [merges with](Self::merges_with) this one, into it: the
    /// move penalties add up, to at most [`MAX_MOVE_PENALTY`](super::load::MAX_MOVE_PENALTY),
    /// which already takes any move to nothing.
    fn absorb(&mut self, other: &Condition) {
        self.move_penalty = (self.move_penalty + other.move_penalty).min(super::load::MAX_MOVE_PENALTY);
    }
}

/// What [`put_condition`] did with a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConditionPut {
    /// Added as an entry of its own.
    Added,
    /// The list was full: folded into the same condition already on it (its penalty added).
    Merged,
    /// The list was full of conditions that do not merge: left off.
    Dropped,
}

impl ConditionPut {
    /// How the log writes a condition that did not get an entry of its own (`merged`,
    /// `dropped`); `None` for one added.
    pub fn logged(self) -> Option<&'static str> {
        match self {
            ConditionPut::Added => None,
            ConditionPut::Merged => Some("merged"),
            ConditionPut::Dropped => Some("dropped"),
        }
    }
}

/// Put a condition on a figure's (or a sleeper's) list, which so never holds more than
/// [`MAX_CONDITIONS`](super::load::MAX_CONDITIONS), the most the scene check accepts.
///
/// Below the cap the condition is added as it is. At the cap it is folded into the same
/// condition already there ([`Condition::merges_with`]: the penalties add up, so nothing is
/// lost); failing that, the first two entries that merge are folded together to make room for
/// it; failing that (a full list of conditions all different), it is dropped.
pub fn put_condition(conditions: &mut Vec<Condition>, new: Condition) -> ConditionPut {
    let max = super::load::MAX_CONDITIONS;
    if conditions.len() < max {
        conditions.push(new);
        return ConditionPut::Added;
    }
    if let Some(same) = conditions.iter_mut().find(|c| c.merges_with(&new)) {
        same.absorb(&new);
        return ConditionPut::Merged;
    }
    while conditions.len() >= max {
        let Some((i, j)) = first_merging_pair(conditions) else { return ConditionPut::Dropped };
        let later = conditions.remove(j);
        conditions[i].absorb(&later);
    }
    conditions.push(new);
    ConditionPut::Added
}

/// The first two entries (`i < j`) that [merge](Condition::merges_with).
fn first_merging_pair(conditions: &[Condition]) -> Option<(usize, usize)> {
    (0..conditions.len())
        .find_map(|i| (i + 1..conditions.len()).find(|&j| conditions[i].merges_with(&conditions[j])).map(|j| (i, j)))
}

crate::rules::named_enum! {
    /// What a condition is for the simulator. Conditions it gives carry their kind; one the GM
    /// writes is `other` unless the file says otherwise.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ConditionKind {
        /// Nothing acts on it beyond its own fields (the GM's "strained ankle").
        #[default]
        Other => "other",
        /// A trip-cord victim's status: demoralised, dazed, fainted (000 "Trip cords").
        Status => "status",
        /// A lasting injury that slows the figure: a trip cord's or a loop's, hurt on a cattle grid.
        Injury => "injury",
        /// A loop injury that starts when the figure is let down (000 "Loop Traps": sprained
        /// on release). Its countdown waits while the figure is `hanging_in_loop`; on release it
        /// becomes an `injury`.
        InjuryOnRelease => "injury_on_release",
        /// Caught by a loop, hanging by one foot.
        HangingInLoop => "hanging_in_loop",
        /// Hanging on a pit's near or far edge.
        HangingOnEdge => "hanging_on_edge",
        /// Down a pit (Morval or Khemri).
        InPit => "in_pit",
        /// Stopped on a Khemri Swinging Blades counter: they strike again at the start of its
        /// next move (002 "7 - Swinging Blades").
        UnderBlades => "under_blades",
        /// Brought to 0 wounds by a Khemri trap (house rule): given once.
        OutOfAction => "out_of_action",
        /// Minor, bad or severe burns: off Me and Mo (001 "Persons").
        Burns => "burns",
        /// Crippled in agony by fire.
        Crippled => "crippled",
        /// Apparently dead (fire).
        ApparentlyDead => "apparently_dead",
        /// Definitely dead: fire rolls no more for the figure.
        Dead => "dead",
        /// A wound (000 "Adventurers Wounding"): rest rolls its location and healing time on the
        /// scene's `wound` location table.
        Wound => "wound",
        /// A crippling (000 "Adventurers Crippling"): located on the scene's `crippling` table.
        Crippling => "crippling",
        /// A crippling struck with a blunt weapon, "a club, staff or ball mace": −5 to the D%.
        BluntCrippling => "blunt_crippling",
        /// 001 "Wound Recoveries": "Sore wounded (-3) D20 + 10 total days".
        SoreWounded => "sore_wounded",
        /// 001 "Wound Recoveries": "Wounded D10+2 days".
        Wounded => "wounded",
        /// 001 "Wound Recoveries": "Flesh wounded D6 days at –1".
        FleshWounded => "flesh_wounded",
        /// Unconscious (000 "Adventurers Crippling" > "Ucon"): without `moves_left`, rest rolls
        /// how long; the figure comes round when the moves run out.
        Unconscious => "unconscious",
        /// Left for dead after wounds, a fall or a trap (000 "Adventurers Apparent 'Death'
        /// dicing", cause wounds); `apparently_dead` is fire's.
        LeftForDead => "left_for_dead",
        /// Regaining the fitness possible after an apparent death: "6xD10 +5 days" (000).
        RegainingFitness => "regaining_fitness",
        /// 001 "Saga Apparently Dead Recovery Dicing": "4 mortally wounded D6 days to die".
        MortallyWounded => "mortally_wounded",
    }
}

impl ConditionKind {
    /// The kind a condition without one in the file takes from its name: the names the
    /// simulator gave before conditions had kinds (and still gives) for the kinds it acts on;
    /// `other` for any other name.
    pub fn implied_by(name: &str) -> Self {
        if name == "definitely dead (fire)" {
            ConditionKind::Dead
        } else if name == "out of action" {
            ConditionKind::OutOfAction
        } else if name.starts_with("under swinging blades") {
            ConditionKind::UnderBlades
        } else if name.starts_with("hanging in loop") {
            ConditionKind::HangingInLoop
        } else if name.ends_with(" (on release)") {
            ConditionKind::InjuryOnRelease
        } else {
            ConditionKind::Other
        }
    }
}

/// [`Condition`] as the file writes it: `kind` left out where the name implies it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename = "Condition", deny_unknown_fields)]
struct ConditionText {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "written_kind")]
    kind: Option<ConditionKind>,
    #[serde(default)]
    move_penalty: f32,
    #[serde(default)]
    moves_left: Option<u32>,
    #[serde(default, skip_serializing_if = "is_false")]
    immobile: bool,
    #[serde(default, skip_serializing_if = "is_zero")]
    me_and_mo: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    healing: Option<crate::rules::injuries::HealingState>,
}

impl From<ConditionText> for Condition {
    fn from(c: ConditionText) -> Self {
        let kind = c.kind.unwrap_or_else(|| ConditionKind::implied_by(&c.name));
        Self {
            name: c.name,
            kind,
            move_penalty: c.move_penalty,
            moves_left: c.moves_left,
            immobile: c.immobile,
            me_and_mo: c.me_and_mo,
            healing: c.healing,
        }
    }
}

impl From<Condition> for ConditionText {
    fn from(c: Condition) -> Self {
        let kind = (c.kind != ConditionKind::implied_by(&c.name)).then_some(c.kind);
        Self {
            name: c.name,
            kind,
            move_penalty: c.move_penalty,
            moves_left: c.moves_left,
            immobile: c.immobile,
            me_and_mo: c.me_and_mo,
            healing: c.healing,
        }
    }
}

/// A written `kind` is the bare kind (`kind: dead`), whatever the RON extensions.
mod written_kind {
    use super::ConditionKind;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(kind: &Option<ConditionKind>, s: S) -> Result<S::Ok, S::Error> {
        match kind {
            Some(k) => k.serialize(s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ConditionKind>, D::Error> {
        ConditionKind::deserialize(d).map(Some)
    }
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// A figure on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figure {
    /// The figure's name, unique in the scene.
    pub name: String,
    /// Who the figure is with: a treadle's lever lets friends pass; with the house rule
    /// `own_side_exempt` Morval traps spare their own side.
    #[serde(default = "default_side")]
    pub side: String,
    /// Where the figure stands.
    pub position: Point,
    /// Facing in degrees, 0 = along +x, counter-clockwise.
    #[serde(default)]
    pub facing: f32,
    /// A fixed move in inches per move, replacing the worked-out basic move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_rate: Option<f32>,
    /// Waypoints still to walk, in order.
    #[serde(default)]
    pub path: Vec<Point>,
    /// How the figure walks: normal, cautious, searching, furtive or running.
    #[serde(default)]
    pub gait: Gait,
    /// What the figure wears.
    #[serde(default)]
    pub armour: Armour,
    /// Male or female: basic move 6" men, 5" women.
    #[serde(default)]
    pub sex: Sex,
    /// An adventurer (agility +1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub adventurer: bool,
    /// Carries a shield (agility −1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub shield: bool,
    /// Carries a load (agility −1; encumbered for spotting and treadles).
    #[serde(default, skip_serializing_if = "is_false")]
    pub load: bool,
    /// Mounted (spotting and the silent alarm −1; a trip cord may throw the rider).
    #[serde(default, skip_serializing_if = "is_false")]
    pub mounted: bool,
    /// Overrides the agility worked out from armour, sex and so on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agility: Option<i32>,
    /// 000 "Spotting Traps": the figure's own "Personal Bonuses and handicaps" (F), added to its
    /// trap-spotting rolls and its silent-alarm check; −10 to 10.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub spot_factor: i32,
    /// Skills the rules read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<Skill>,
    /// A Mordheim profile, for Khemri trap hits; none without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mordheim: Option<MordheimProfile>,
    /// Lasting effects: injuries, statuses; at most 100.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Weight for treadles and falling floors; none: `rules.traps.table.figure_weight`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f32>,
    /// The EIMGILD qualities the GM has given (each 1 to 7); the others are diced when first
    /// needed, logged, and kept from then on.
    #[serde(default, skip_serializing_if = "super::temptations::is_unknown")]
    pub qualities: crate::rules::decisions::KnownQualities,
    /// 000 "Weaknesses": alcohol, gambling, vanity, ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weaknesses: Vec<crate::rules::decisions::Weakness>,
    /// Officer, independent, follower or nidderling: who can outvote whom.
    #[serde(default, skip_serializing_if = "is_independent")]
    pub rank: crate::rules::sleepers::Rank,
    /// The money the figure carries, in the scene's coin; sites with a `cost_per_move` take from
    /// it. None: not counted (nothing is charged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub money: Option<u32>,
    /// Can read: the enthralling book tempts readers only.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub reader: bool,
    /// Not a fighter: the fencing school's "non-fighter +3".
    #[serde(default, skip_serializing_if = "is_false")]
    pub non_fighter: bool,
    /// Does not smoke: the smoking den's "non-smokers +2".
    #[serde(default, skip_serializing_if = "is_false")]
    pub non_smoker: bool,
    /// Where the figure stands with the temptations: inside a site, passing, reminded (written
    /// by the simulation).
    #[serde(default, skip_serializing_if = "super::temptations::TemptationState::is_empty")]
    pub temptation: super::temptations::TemptationState,
    /// What is bound: hands, feet, gag (000 "Guarding prisoners"); a figure bound, or with a
    /// `prisoner_rank`, is a prisoner.
    #[serde(default, skip_serializing_if = "super::prisoners::is_unbound")]
    pub bound: crate::rules::prisoners::Bonds,
    /// A prisoner's standing: leader, officer, independent or follower (the escape factors, and
    /// who works his bonds). None on a bound figure: a follower.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prisoner_rank: Option<crate::rules::prisoners::PrisonerRank>,
    /// The figure's basic Me (melee) factor, −10 to 10: a catch's and a struggle's "basic Me factors".
    #[serde(default, skip_serializing_if = "is_zero")]
    pub melee_factor: i32,
    /// Carries and uses a whip: "Guard using whip + 2" in a catch or a struggle.
    #[serde(default, skip_serializing_if = "is_false")]
    pub whip: bool,
    /// A guard: the prisoners he escorts, expert or not, sides of the way blocked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<super::prisoners::GuardRole>,
    /// Where this prisoner runs for if he runs off; none: the nearest table edge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refuge: Option<Point>,
    /// A berserker: trained or not, the move he begins his rage, his exhaustion point, his state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub berserker: Option<super::prisoners::BerserkerSheet>,
    /// Fatigue points: running costs one a move, building a rage one (RULES-NOTES "Time and movement").
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub fatigue: u32,
    /// Where a prisoner stands with his bonds and escapes: loosenings, given up, on the run
    /// (written by the simulation).
    #[serde(default, skip_serializing_if = "super::prisoners::PrisonerState::is_empty")]
    pub prisoner: super::prisoners::PrisonerState,
    /// What the figure carries, weighed in quabits (ropes, grapnels, cord, cloth, anything
    /// else); at most 100 items ([`super::obstacles::Item`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inventory: Vec<super::obstacles::Item>,
    /// A light the figure carries, `torch` or `lantern`: it lights `rules.sight.torch_radius_in`
    /// or `lantern_radius_in` round it for sight (docs/sight.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub light: Option<crate::rules::sight::CarriedLight>,
    /// Whether the projector shows it, whatever the automatic rules say: none (the default)
    /// leaves it to them, `Some(true)` always shows it, `Some(false)` never ([`players_see`]).
    /// The GM's toggle in the inspector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show_players: Option<bool>,
    /// A picture for its token: a PNG or WebP file beside the scene file or under `assets/`
    /// ([`super::pictures`]), drawn on the round base ringed in the side's colour; none: the
    /// default face.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
}

/// Whether the players see an entity on the projector, given the GM's `show_players` setting
/// (on figures, traps, fires and herds) and what the automatic rules decided (`automatic`: a
/// trap revealed, a figure of another side on a cell the party sees, ...): the setting where
/// there is one, the rules' answer otherwise.
pub fn players_see(show_players: Option<bool>, automatic: bool) -> bool {
    show_players.unwrap_or(automatic)
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_independent(r: &crate::rules::sleepers::Rank) -> bool {
    *r == crate::rules::sleepers::Rank::Independent
}

fn default_side() -> String {
    "party".to_string()
}

pub use super::fires::{Fire, FireIgnition, Igniter};
pub use super::herds::{CattleGrid, GridHold, GridHoldState, Herd, Zone};
pub use super::injuries::Treatment;
pub use super::magic::{CastOrder, Curse, CurseKind, MagicSection, MagicianEntry, Mesmerised, OccultBeing, Ward};
pub use super::prisoners::{BerserkerSheet, GuardRole, PrisonerState, RunStatus, Runaway};
pub use super::sleepers::{Shelter, SleepingGroup};
pub use super::temptations::{DecisionOrder, Inside, OutvoteOrder, TemptationSite, TemptationState, WeaknessCheck};
pub use super::trails::{
    CounterScent, PepperDraught, SceneTrail, TrackerFields, TrackerMode, TrackerSense, TrackerState, TrailPoint,
    TrailsSection, WeatherChange,
};
pub use super::traps::{Concealment, Trap, TrapKind};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::load::MAX_CONDITIONS;

    fn hurt(name: &str, move_penalty: f32, moves_left: Option<u32>) -> Condition {
        Condition {
            name: name.into(),
            kind: ConditionKind::Injury,
            move_penalty,
            moves_left,
            immobile: false,
            me_and_mo: 0,
            healing: None,
        }
    }

    /// Repeated conditions never take a list past the cap the scene check enforces: at the cap
    /// a repeat is merged into its twin, its penalty added, so movement loses nothing.
    #[test]
    fn a_full_list_merges_repeats_and_never_passes_the_cap() {
        let mut list = Vec::new();
        for _ in 0..MAX_CONDITIONS {
            assert_eq!(put_condition(&mut list, hurt("hurt on cattle grid \"g\"", 1.0, None)), ConditionPut::Added);
        }
        assert_eq!(put_condition(&mut list, hurt("hurt on cattle grid \"g\"", 2.0, None)), ConditionPut::Merged);
        assert_eq!(list.len(), MAX_CONDITIONS);
        assert_eq!(list.iter().map(|c| c.move_penalty).sum::<f32>(), MAX_CONDITIONS as f32 + 2.0);
        // The merged penalty stops at the most the check accepts (already more than any move).
        for _ in 0..200 {
            put_condition(&mut list, hurt("hurt on cattle grid \"g\"", 2.0, None));
        }
        assert_eq!(list.len(), MAX_CONDITIONS);
        assert_eq!(list[0].move_penalty, crate::scene::load::MAX_MOVE_PENALTY);
        // Another condition at the cap: two twins already on the list make room for it.
        assert_eq!(put_condition(&mut list, hurt("strained ankle", 1.0, Some(3))), ConditionPut::Added);
        assert_eq!(list.len(), MAX_CONDITIONS);
        assert_eq!(list.last().map(|c| c.name.as_str()), Some("strained ankle"));
        // A full list of conditions all different: a new one is dropped.
        let mut distinct: Vec<Condition> =
            (0..MAX_CONDITIONS).map(|i| hurt(&format!("wound {i}"), 1.0, Some(5))).collect();
        assert_eq!(put_condition(&mut distinct, hurt("one more", 1.0, None)), ConditionPut::Dropped);
        assert_eq!(distinct.len(), MAX_CONDITIONS);
        // Burns (off Me and Mo) are never merged: two burns are not one worse burn.
        let burn = Condition { kind: ConditionKind::Burns, me_and_mo: -1, ..hurt("minor burns", 0.0, None) };
        assert!(!burn.merges_with(&burn));
        assert!(hurt("a", 1.0, Some(2)).merges_with(&hurt("a", 2.0, Some(2))));
        assert!(!hurt("a", 1.0, Some(2)).merges_with(&hurt("a", 1.0, Some(3))), "they would end apart");
    }

    /// The GM's `show_players` on figures, traps, fires and herds: read, written only when set,
    /// read back the same; a value that is not a bool is a located error.
    #[test]
    fn show_players_round_trips_and_is_written_only_when_set() {
        let text = "(version: 1, table: (width: 20, height: 10),
            figures: [(name: \"Spy\", side: \"raiders\", position: (1, 1), show_players: Some(true)),
                      (name: \"Ann\", position: (2, 2))],
            traps: [(name: \"Pit\", kind: pit(depth: 1, bottom: spiked), position: (5, 5), show_players: false)],
            fires: [(name: \"Camp\", position: (8, 8), show_players: Some(false))],
            herds: [(name: \"Cows\", beast: cow, count: 2, position: (12, 5), show_players: Some(true))])";
        let path = std::path::Path::new("show.ron");
        let scene = crate::scene::parse_scene(text, path).expect("valid");
        assert_eq!(scene.figures[0].show_players, Some(true));
        assert_eq!(scene.figures[1].show_players, None, "automatic by default");
        assert_eq!(scene.traps[0].show_players, Some(false), "a bare bool is Some");
        assert_eq!(scene.fires[0].show_players, Some(false));
        assert_eq!(scene.herds[0].show_players, Some(true));
        let saved = crate::scene::scene_to_ron(&scene).expect("serialises");
        assert_eq!(saved.matches("show_players").count(), 4, "{saved}");
        let back = crate::scene::parse_scene(&saved, path).expect("reads back");
        let settings = |s: &Scene| {
            let mut v: Vec<Option<bool>> = s.figures.iter().map(|f| f.show_players).collect();
            v.extend(s.traps.iter().map(|t| t.show_players));
            v.extend(s.fires.iter().map(|f| f.show_players));
            v.extend(s.herds.iter().map(|h| h.show_players));
            v
        };
        assert_eq!(settings(&back), vec![Some(true), None, Some(false), Some(false), Some(true)]);
        assert_eq!(crate::scene::scene_to_ron(&back).expect("serialises"), saved, "saved again the same");
        let wrong = text.replace("show_players: false", "show_players: \"yes\"");
        let err = crate::scene::parse_scene(&wrong, path).unwrap_err().to_string();
        assert!(err.starts_with("show.ron:4:"), "{err}");
    }

    #[test]
    fn the_gms_setting_decides_before_the_rules() {
        for automatic in [false, true] {
            assert_eq!(players_see(None, automatic), automatic);
            assert!(players_see(Some(true), automatic));
            assert!(!players_see(Some(false), automatic));
        }
    }
}
