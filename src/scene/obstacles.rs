//! Obstacles in the scene file: lines of sharpened stakes, ropes hanging from walls with the
//! climbers on them, grapnel throws, orders to cut ropes, glass-topped walls, planks to lay over
//! cattle grids, horse-drawn vehicles, and the items a figure carries (its `inventory`) (000
//! "Sharpened Stakes", "Grapnels, Ropes, and cords"; 001 "Cattle Grids", "Climbing over High
//! broken glass topped walls"). docs/obstacles.md "In a scene" says how the simulation reads them.

use super::format::{Point, Scene, Wall};
use super::load::{Checker, MAX_MOVES_PLAYED, MAX_POINTS, shown};
use crate::rules::morval_traps::PitBottom;
use crate::rules::obstacles::{
    ItemWeights, ObstacleItem, ObstaclesSettings, RopeKind, STAKE_FELLING_MOVES, STAKE_POSITIONING_MOVES, VehicleKind,
    inventory_weight_quabits, quabits_to_pounds,
};
use serde::{Deserialize, Serialize};

/// Most entries of each obstacle list.
pub const MAX_OBSTACLES_PER_KIND: usize = 500;
/// Most climbers on one rope.
pub const MAX_CLIMBERS: usize = 50;
/// Heaviest climber, in quabits (a steed would be some 30).
pub const MAX_CLIMBER_QUABITS: f32 = 100.0;
/// Longest rope, in hets.
pub const MAX_ROPE_HETS: f32 = 1000.0;
/// Highest wall or climber, in inches.
pub const MAX_HEIGHT_IN: f32 = 100.0;
/// Fastest vehicle, inches a move.
pub const MAX_VEHICLE_RATE_IN: f32 = 100.0;
/// Most layers on one plank order.
pub const MAX_LAYERS: usize = 20;
/// Most rounds a rope climb may take (`rules.obstacles.rope_climb_rounds`), and a climber's
/// `rounds_climbed`.
pub const MAX_ROPE_CLIMB_ROUNDS: u32 = 100;
/// Most items in one figure's inventory.
pub const MAX_INVENTORY_ITEMS: usize = 100;
/// Heaviest item, in quabits (1600 kilos).
pub const MAX_ITEM_QUABITS: f32 = 100.0;
/// Largest weapon strike a cut order may give, either way.
pub const MAX_WEAPON_STRIKE: i32 = 20;

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}

fn is_zero_f32(v: &f32) -> bool {
    *v == 0.0
}

fn earth() -> PitBottom {
    PitBottom::Earth
}

fn is_earth(g: &PitBottom) -> bool {
    *g == PitBottom::Earth
}

/// The obstacles of a scene.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ObstaclesSection {
    /// Lines of sharpened stakes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stake_lines: Vec<StakeLine>,
    /// Ropes hanging from walls, with their climbers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ropes: Vec<SceneRope>,
    /// The GM's grapnel throws.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub grapnels: Vec<GrapnelOrder>,
    /// High broken-glass-topped walls and who climbs them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub glass_walls: Vec<GlassWall>,
    /// Planks to lay over cattle grids.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub planks: Vec<PlankOrder>,
    /// Wagons, carts and handcarts moving along their paths.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vehicles: Vec<Vehicle>,
    /// The GM's orders to cut ropes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cuts: Vec<CutOrder>,
}

impl ObstaclesSection {
    /// Nothing in it: left out when saved.
    pub fn is_empty(&self) -> bool {
        *self == ObstaclesSection::default()
    }
}

/// A line of sharpened stakes (000 "Sharpened Stakes").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StakeLine {
    /// The line's name, unique in the scene.
    pub name: String,
    /// One end of the line.
    pub from: Point,
    /// The other end.
    pub to: Point,
    /// Any point on the sharp side (the side the points face).
    pub sharp_side: Point,
    /// Moves of work done on it: 2 to fell, 3 more to position and sharpen; none: ready.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_worked: Option<u32>,
    /// The figure making it, one move of work each move he stands within 1" of the line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub builder: Option<String>,
}

impl StakeLine {
    /// Moves of work done, a ready line counting the full 5.
    pub fn work_done(&self) -> u32 {
        self.moves_worked.unwrap_or(STAKE_FELLING_MOVES + STAKE_POSITIONING_MOVES)
    }
}

/// A figure on a rope.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RopeClimber {
    /// The figure climbing.
    pub figure: String,
    /// How high he is, inches (0: at the foot).
    #[serde(default, skip_serializing_if = "is_zero_f32")]
    pub height_in: f32,
    /// His weight with his kit in quabits; none: an average person (4 quabits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_quabits: Option<f32>,
    /// Where he comes down on the far side of the wall once up: he climbs, a round at a time
    /// (`rules.obstacles.rope_climb_rounds`). None: he stays where the scene puts him. Written
    /// by the simulation for a figure whose path the wall stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Point>,
    /// Rounds climbed so far (written by the simulation).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub rounds_climbed: u32,
}

/// A rope hanging from a wall point (000 "Grapnels, Ropes, and cords").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SceneRope {
    /// The rope's name, unique in the scene.
    pub name: String,
    /// Light, permanent, ship's grapnel, mooring, or cord.
    #[serde(default)]
    pub kind: RopeKind,
    /// Where it hangs from (a point on a wall).
    pub anchor: Point,
    /// The height of the point it hangs from, inches.
    pub height_in: f32,
    /// Length in hets; none: "six het lengths".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length_hets: Option<f32>,
    /// Strength now in quabits; none: its kind's (written by the simulation after a weakening).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength_quabits: Option<u32>,
    /// The ground below, for a fall's strike.
    #[serde(default = "earth", skip_serializing_if = "is_earth")]
    pub ground: PitBottom,
    /// The figures on it, bottom first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub climbers: Vec<RopeClimber>,
    /// Broken or cut (written by the simulation).
    #[serde(default, skip_serializing_if = "is_false")]
    pub parted: bool,
    /// Down: its grapnel was thrown down (written by the simulation).
    #[serde(default, skip_serializing_if = "is_false")]
    pub down: bool,
    /// Excess quabits when its overload was last rolled (written by the simulation).
    #[serde(default, skip_serializing_if = "is_zero_f32")]
    pub excess_rolled: f32,
}

/// A grapnel throw the GM orders, and the grapnel's state after.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrapnelOrder {
    /// The throw's name, unique in the scene.
    pub name: String,
    /// The figure throwing.
    pub thrower: String,
    /// The purchase point on the wall.
    pub target: Point,
    /// The move it is thrown in (1 is the first played).
    pub at_move: u32,
    /// The scene rope on the grapnel (its climbers fall if it is thrown down).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rope: Option<String>,
    /// Thrown (written by the simulation).
    #[serde(default, skip_serializing_if = "is_false")]
    pub thrown: bool,
    /// Lodged and not thrown down (written by the simulation).
    #[serde(default, skip_serializing_if = "is_false")]
    pub lodged: bool,
    /// Opponents within 1" at their last chance to throw it down (written by the simulation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defenders_within: Vec<String>,
}

/// A figure climbing a glass-topped wall.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WallClimber {
    /// The figure climbing; he tries while he stands within 1" of the wall.
    pub figure: String,
    /// Where he comes down on the other side.
    pub to: Point,
    /// Uses cloth or newspaper: +1.
    #[serde(default, skip_serializing_if = "is_false")]
    pub cloth: bool,
    /// Rounds spent on the try under way (written by the simulation).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub rounds_spent: u32,
}

/// The climbers at a high broken-glass-topped wall (001 "Climbing over High broken glass
/// topped walls"): the wall is a scene wall with `glass_topped: true`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GlassWall {
    /// The scene wall topped with glass.
    pub wall: String,
    /// Its height, inches, where it differs from the wall's `height_in`; none: the wall's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height_in: Option<f32>,
    /// Who climbs it (one climbed over is taken off the list by the simulation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub climbers: Vec<WallClimber>,
}

impl GlassWall {
    /// No climbers yet at the glass-topped wall `wall`, of the wall's own height.
    pub fn at(wall: &str) -> Self {
        Self { wall: wall.to_string(), height_in: None, climbers: Vec::new() }
    }

    /// Its height: its own `height_in`, else its wall's; none where neither gives one.
    pub fn height(&self, walls: &[Wall]) -> Option<f32> {
        self.height_in.or_else(|| walls.iter().find(|w| w.name == self.wall).and_then(|w| w.height_in))
    }

    /// Nothing the scene needs to keep: no climbers, and the wall's own height.
    pub fn is_bare(&self) -> bool {
        self.height_in.is_none() && self.climbers.is_empty()
    }
}

/// Planks to lay over a cattle grid (001 "Cattle Grids").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlankOrder {
    /// The cattle grid.
    pub grid: String,
    /// Where the planks lie ("usually left beside Grid").
    pub planks_at: Point,
    /// The men laying them; each works while within 1" of the planks or the grid.
    pub layers: Vec<String>,
    /// Rounds of laying done (written by the simulation); 3 or more: laid.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub rounds_worked: u32,
}

/// A wagon, cart or handcart (001 "Cattle Grids": "Planks needed to allow horse drawn vehicles to cross").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vehicle {
    /// The vehicle's name, unique in the scene.
    pub name: String,
    /// Wagon, cart or handcart.
    #[serde(default)]
    pub kind: VehicleKind,
    /// Where it stands.
    pub position: Point,
    /// Waypoints still to go, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<Point>,
    /// Inches it goes a move (the text gives none).
    pub move_rate: f32,
}

/// The GM's order to cut a rope (000 "Grapnels, Ropes, and cords": "Cutting ropes & cords with
/// sharp edged weapons. Try each round").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CutOrder {
    /// The figure cutting; he tries each round he stands within 1" of the rope's anchor.
    pub cutter: String,
    /// The scene rope.
    pub rope: String,
    /// His weapon's strike factor ("Weapon strike"), −20 to 20.
    #[serde(default, skip_serializing_if = "is_zero_i32")]
    pub weapon_strike: i32,
    /// The weapon is sharp edged: only these cut (default true).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub sharp_edged: bool,
    /// The move he begins in (1 is the first played).
    pub from_move: u32,
    /// The round of that move he begins in (default 1).
    #[serde(default = "first_round", skip_serializing_if = "is_first_round")]
    pub from_round: u32,
    /// Done: the weapon would not cut, so no more tries (written by the simulation).
    #[serde(default, skip_serializing_if = "is_false")]
    pub done: bool,
}

fn is_zero_i32(v: &i32) -> bool {
    *v == 0
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn first_round() -> u32 {
    1
}

fn is_first_round(r: &u32) -> bool {
    *r == 1
}

crate::rules::named_enum! {
    /// What an item a figure carries is: one of the obstacle items the rules weigh and charge
    /// fatigue endurance for (the same ids as [`ObstacleItem`]), cloth or newspaper for a
    /// glass-topped wall, or anything else.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum ItemKind {
        /// A light rope, six hets.
        LightRope => "light_rope",
        /// A permanent rope, six hets.
        PermanentRope => "permanent_rope",
        /// A ship's grapnel rope, six hets.
        ShipsGrapnelRope => "ships_grapnel_rope",
        /// A vessel's mooring rope, six hets.
        MooringRope => "mooring_rope",
        /// A six-het ball of cord.
        CordBall => "cord_ball",
        /// A grapnel.
        Grapnel => "grapnel",
        /// Cloth or newspaper: +1 climbing a glass-topped wall (001). Its weight must be given.
        ClothOrNewspaper => "cloth_or_newspaper",
        /// Anything else. Its weight must be given.
        Other => "other",
    }
}

impl ItemKind {
    /// The obstacle item it is, if it is one.
    pub fn obstacle_item(self) -> Option<ObstacleItem> {
        match self {
            ItemKind::LightRope => Some(ObstacleItem::LightRope),
            ItemKind::PermanentRope => Some(ObstacleItem::PermanentRope),
            ItemKind::ShipsGrapnelRope => Some(ObstacleItem::ShipsGrapnelRope),
            ItemKind::MooringRope => Some(ObstacleItem::MooringRope),
            ItemKind::CordBall => Some(ObstacleItem::CordBall),
            ItemKind::Grapnel => Some(ObstacleItem::Grapnel),
            ItemKind::ClothOrNewspaper | ItemKind::Other => None,
        }
    }
}

/// One thing a figure carries, weighed in quabits (1 quabit = 16 kilos; pounds for the OSR
/// encumbrance table by [`quabits_to_pounds`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    /// What the GM calls it.
    pub name: String,
    /// What it is.
    pub kind: ItemKind,
    /// Its weight in quabits, 0 to 100; none: an obstacle item's weight from
    /// `rules.obstacles.weights` (a house rule). Needed for `cloth_or_newspaper` and `other`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_quabits: Option<f32>,
}

impl Item {
    /// Its weight in quabits: its own, else its kind's under `weights` (0 when it has neither,
    /// which validation refuses).
    pub fn quabits(&self, weights: &ItemWeights) -> f32 {
        match (self.weight_quabits, self.kind.obstacle_item()) {
            (Some(w), _) => w,
            (None, Some(item)) => item.weight_quabits(weights),
            (None, None) => 0.0,
        }
    }
}

/// What `items` weigh in all, in quabits: the given weights, and the obstacle items without one
/// by [`inventory_weight_quabits`].
pub fn inventory_quabits(items: &[Item], weights: &ItemWeights) -> f32 {
    let given: f32 = items.iter().filter_map(|i| i.weight_quabits).sum();
    let weighed: Vec<ObstacleItem> =
        items.iter().filter(|i| i.weight_quabits.is_none()).filter_map(|i| i.kind.obstacle_item()).collect();
    given + inventory_weight_quabits(&weighed, weights)
}

/// What `items` weigh in all, in pounds (for the OSR encumbrance table, which weighs in lbs).
pub fn inventory_pounds(items: &[Item], weights: &ItemWeights) -> f32 {
    quabits_to_pounds(inventory_quabits(items, weights))
}

/// The obstacle items among `items`, for [`crate::rules::obstacles::carrying_endurance_cost`].
pub fn obstacle_items(items: &[Item]) -> Vec<ObstacleItem> {
    items.iter().filter_map(|i| i.kind.obstacle_item()).collect()
}

/// The checks on `rules.obstacles`.
pub(crate) fn check_settings(s: &ObstaclesSettings, c: &mut Checker) {
    if c.finite("rules", "obstacles inches_per_het", s.inches_per_het)
        && !(s.inches_per_het > 0.0 && s.inches_per_het <= 100.0)
    {
        c.problem(
            "rules",
            format!("obstacles inches_per_het: {} must be more than 0 and at most 100", s.inches_per_het),
        );
    }
    if !(-20..=20).contains(&s.glass_wall_target) {
        c.problem("rules", format!("obstacles glass_wall_target: {} must be -20 to 20", s.glass_wall_target));
    }
    if !(1..=100).contains(&s.glass_wall_rounds_per_try) {
        c.problem(
            "rules",
            format!("obstacles glass_wall_rounds_per_try: {} must be 1 to 100", s.glass_wall_rounds_per_try),
        );
    }
    if !(1..=MAX_ROPE_CLIMB_ROUNDS).contains(&s.rope_climb_rounds) {
        c.problem(
            "rules",
            format!("obstacles rope_climb_rounds: {} must be 1 to {MAX_ROPE_CLIMB_ROUNDS}", s.rope_climb_rounds),
        );
    }
    let w = &s.weights;
    for (field, v) in [
        ("light_rope", w.light_rope),
        ("permanent_rope", w.permanent_rope),
        ("ships_grapnel_rope", w.ships_grapnel_rope),
        ("mooring_rope", w.mooring_rope),
        ("cord_ball", w.cord_ball),
        ("grapnel", w.grapnel),
    ] {
        if c.finite("rules", &format!("obstacles weights {field}"), v) && !(0.0..=100.0).contains(&v) {
            c.problem("rules", format!("obstacles weights {field}: {v} must be 0 to 100 quabits"));
        }
    }
}

/// A problem unless a figure is named `name`.
fn figure_named(scene: &Scene, c: &mut Checker, entity: &str, field: &str, name: &str) {
    if !scene.figures.iter().any(|f| f.name == name) {
        c.problem(entity, format!("{field}: no figure is named \"{}\"", shown(name)));
    }
}

/// The checks on a figure's `inventory`: its count, names and weights.
fn check_inventory(f: &super::format::Figure, c: &mut Checker) {
    if f.inventory.is_empty() {
        return;
    }
    let e = format!("figure \"{}\"", shown(&f.name));
    if f.inventory.len() > MAX_INVENTORY_ITEMS {
        c.problem(&e, format!("inventory: {} items, more than {MAX_INVENTORY_ITEMS}", f.inventory.len()));
        return;
    }
    for (i, item) in f.inventory.iter().enumerate() {
        if item.name.trim().is_empty() {
            c.problem(&e, format!("inventory[{i}] name: must not be empty"));
        } else if item.name.chars().count() > super::load::MAX_NAME_CHARS {
            c.problem(&e, format!("inventory[{i}] name: longer than {} characters", super::load::MAX_NAME_CHARS));
        }
        match item.weight_quabits {
            Some(w) => {
                let field = format!("inventory[{i}] weight_quabits");
                if c.finite(&e, &field, w) && !(0.0..=MAX_ITEM_QUABITS).contains(&w) {
                    c.problem(&e, format!("{field}: {w} must be 0 to {MAX_ITEM_QUABITS}"));
                }
            }
            None if item.kind.obstacle_item().is_none() => c.problem(
                &e,
                format!("inventory[{i}] weight_quabits: needed for kind {} (its weight in quabits)", item.kind.id()),
            ),
            None => {}
        }
    }
}

/// The checks on the scene's `obstacles` section: counts, names, references and bounds.
pub(crate) fn check_scene<'a>(scene: &'a Scene, c: &mut Checker<'a>) {
    check_settings(&scene.rules.obstacles, c);
    let o = &scene.obstacles;
    for (field, len) in [
        ("stake_lines", o.stake_lines.len()),
        ("ropes", o.ropes.len()),
        ("grapnels", o.grapnels.len()),
        ("glass_walls", o.glass_walls.len()),
        ("planks", o.planks.len()),
        ("vehicles", o.vehicles.len()),
        ("cuts", o.cuts.len()),
    ] {
        if len > MAX_OBSTACLES_PER_KIND {
            c.problem(
                "scene",
                format!("obstacles {field}: {len} entries, more than the {MAX_OBSTACLES_PER_KIND} allowed"),
            );
            return;
        }
    }
    for s in &o.stake_lines {
        let e = c.name("stake line", &s.name);
        c.on_table(&e, "from", s.from);
        c.on_table(&e, "to", s.to);
        c.on_table(&e, "sharp_side", s.sharp_side);
        if s.from == s.to {
            c.problem(&e, "to: the line's ends must differ".into());
        }
        let (a, b, p) = (s.from, s.to, s.sharp_side);
        let side = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
        if side == 0.0 {
            c.problem(&e, "sharp_side: the point lies on the line, not on one side of it".into());
        }
        if let Some(m) = s.moves_worked
            && m > STAKE_FELLING_MOVES + STAKE_POSITIONING_MOVES
        {
            c.problem(&e, format!("moves_worked: {m} must be 0 to {}", STAKE_FELLING_MOVES + STAKE_POSITIONING_MOVES));
        }
        if let Some(b) = &s.builder {
            figure_named(scene, c, &e, "builder", b);
        }
    }
    for r in &o.ropes {
        let e = c.name("rope", &r.name);
        c.on_table(&e, "anchor", r.anchor);
        if c.finite(&e, "height_in", r.height_in) && !(0.0..=MAX_HEIGHT_IN).contains(&r.height_in) {
            c.problem(&e, format!("height_in: {} must be 0 to {MAX_HEIGHT_IN}", r.height_in));
        }
        if let Some(l) = r.length_hets {
            c.positive(&e, "length_hets", l, MAX_ROPE_HETS);
        }
        if let Some(q) = r.strength_quabits
            && q > r.kind.strength_quabits()
        {
            c.problem(
                &e,
                format!("strength_quabits: {q} is more than a {} rope's {}", r.kind.id(), r.kind.strength_quabits()),
            );
        }
        if c.finite(&e, "excess_rolled", r.excess_rolled)
            && !(0.0..=MAX_CLIMBERS as f32 * MAX_CLIMBER_QUABITS).contains(&r.excess_rolled)
        {
            c.problem(&e, format!("excess_rolled: {} is out of range", r.excess_rolled));
        }
        if r.climbers.len() > MAX_CLIMBERS {
            c.problem(&e, format!("climbers: {} entries, more than {MAX_CLIMBERS}", r.climbers.len()));
            continue;
        }
        for (i, cl) in r.climbers.iter().enumerate() {
            figure_named(scene, c, &e, &format!("climbers[{i}] figure"), &cl.figure);
            if r.climbers[..i].iter().any(|o| o.figure == cl.figure) {
                c.problem(&e, format!("climbers[{i}]: \"{}\" is listed twice", shown(&cl.figure)));
            }
            if c.finite(&e, "climber height_in", cl.height_in) && !(0.0..=r.height_in.max(0.0)).contains(&cl.height_in)
            {
                c.problem(&e, format!("climbers[{i}] height_in: {} must be 0 to the rope's height", cl.height_in));
            }
            if let Some(w) = cl.weight_quabits {
                c.positive(&e, &format!("climbers[{i}] weight_quabits"), w, MAX_CLIMBER_QUABITS);
            }
            if let Some(to) = cl.to {
                c.on_table(&e, &format!("climbers[{i}] to"), to);
            }
            if cl.rounds_climbed > MAX_ROPE_CLIMB_ROUNDS {
                c.problem(
                    &e,
                    format!("climbers[{i}] rounds_climbed: {} must be 0 to {MAX_ROPE_CLIMB_ROUNDS}", cl.rounds_climbed),
                );
            }
        }
    }
    for (i, k) in o.cuts.iter().enumerate() {
        let e = format!("cut order {i} (of \"{}\")", shown(&k.rope));
        figure_named(scene, c, &e, "cutter", &k.cutter);
        if !o.ropes.iter().any(|r| r.name == k.rope) {
            c.problem(&e, format!("rope: no rope is named \"{}\"", shown(&k.rope)));
        }
        if k.weapon_strike.abs() > MAX_WEAPON_STRIKE {
            c.problem(
                &e,
                format!("weapon_strike: {} must be -{MAX_WEAPON_STRIKE} to {MAX_WEAPON_STRIKE}", k.weapon_strike),
            );
        }
        if !(1..=MAX_MOVES_PLAYED).contains(&k.from_move) {
            c.problem(&e, format!("from_move: {} must be 1 to {MAX_MOVES_PLAYED}", k.from_move));
        }
        let rounds = u32::from(scene.rules.rounds_per_move);
        if !(1..=rounds.max(1)).contains(&k.from_round) {
            c.problem(&e, format!("from_round: {} must be 1 to {rounds} (rules.rounds_per_move)", k.from_round));
        }
    }
    for f in &scene.figures {
        check_inventory(f, c);
    }
    for g in &o.grapnels {
        let e = c.name("grapnel", &g.name);
        figure_named(scene, c, &e, "thrower", &g.thrower);
        c.on_table(&e, "target", g.target);
        if !(1..=MAX_MOVES_PLAYED).contains(&g.at_move) {
            c.problem(&e, format!("at_move: {} must be 1 to {MAX_MOVES_PLAYED}", g.at_move));
        }
        if let Some(r) = &g.rope {
            if !o.ropes.iter().any(|x| x.name == *r) {
                c.problem(&e, format!("rope: no rope is named \"{}\"", shown(r)));
            } else if o.grapnels.iter().filter(|x| x.rope.as_ref() == Some(r)).count() > 1 {
                c.problem(&e, format!("rope: \"{}\" is on another grapnel too", shown(r)));
            }
        }
        if g.lodged && !g.thrown {
            c.problem(&e, "lodged: a grapnel not thrown cannot be lodged".into());
        }
        if g.defenders_within.len() > super::load::MAX_FIGURES {
            c.problem(&e, format!("defenders_within: {} entries, too many", g.defenders_within.len()));
        }
        for (i, d) in g.defenders_within.iter().enumerate() {
            figure_named(scene, c, &e, &format!("defenders_within[{i}]"), d);
        }
    }
    for (i, w) in o.glass_walls.iter().enumerate() {
        let e = format!("glass wall \"{}\"", shown(&w.wall));
        match scene.walls.iter().find(|x| x.name == w.wall) {
            None => c.problem(&e, format!("wall: no wall is named \"{}\"", shown(&w.wall))),
            Some(wall) if !wall.glass_topped => c.problem(
                &e,
                format!("wall: \"{}\" is not glass topped (give the wall `glass_topped: true`)", shown(&w.wall)),
            ),
            Some(_) if o.glass_walls[..i].iter().any(|x| x.wall == w.wall) => {
                c.problem(&e, "wall: listed twice among the glass walls".into())
            }
            Some(_) => {}
        }
        if let Some(h) = w.height_in
            && c.finite(&e, "height_in", h)
            && !(h > 0.0 && h <= MAX_HEIGHT_IN)
        {
            c.problem(&e, format!("height_in: {h} must be more than 0 and at most {MAX_HEIGHT_IN}"));
        }
        if w.climbers.len() > MAX_CLIMBERS {
            c.problem(&e, format!("climbers: {} entries, more than {MAX_CLIMBERS}", w.climbers.len()));
            continue;
        }
        for (k, cl) in w.climbers.iter().enumerate() {
            figure_named(scene, c, &e, &format!("climbers[{k}] figure"), &cl.figure);
            c.on_table(&e, &format!("climbers[{k}] to"), cl.to);
            if cl.rounds_spent > 100 {
                c.problem(&e, format!("climbers[{k}] rounds_spent: {} must be 0 to 100", cl.rounds_spent));
            }
        }
    }
    for (i, p) in o.planks.iter().enumerate() {
        let e = format!("planks for \"{}\"", shown(&p.grid));
        if !scene.cattle_grids.iter().any(|g| g.name == p.grid) {
            c.problem(&e, format!("grid: no cattle grid is named \"{}\"", shown(&p.grid)));
        } else if o.planks[..i].iter().any(|x| x.grid == p.grid) {
            c.problem(&e, "grid: another plank order names this grid".into());
        }
        c.on_table(&e, "planks_at", p.planks_at);
        if p.layers.is_empty() || p.layers.len() > MAX_LAYERS {
            c.problem(&e, format!("layers: {} must be 1 to {MAX_LAYERS}", p.layers.len()));
        }
        for (k, l) in p.layers.iter().enumerate() {
            figure_named(scene, c, &e, &format!("layers[{k}]"), l);
        }
        if p.rounds_worked > MAX_MOVES_PLAYED {
            c.problem(&e, format!("rounds_worked: {} is more than {MAX_MOVES_PLAYED}", p.rounds_worked));
        }
    }
    let mut points = 0usize;
    for v in &o.vehicles {
        let e = c.name("vehicle", &v.name);
        c.on_table(&e, "position", v.position);
        c.points(&e, "path", &v.path, 0);
        points += v.path.len();
        if c.finite(&e, "move_rate", v.move_rate) && !(0.0..=MAX_VEHICLE_RATE_IN).contains(&v.move_rate) {
            c.problem(&e, format!("move_rate: {} must be 0 to {MAX_VEHICLE_RATE_IN} inches", v.move_rate));
        }
    }
    if points > MAX_POINTS {
        c.problem("scene", format!("obstacles vehicles: {points} path points in all, more than {MAX_POINTS}"));
    }
}

#[cfg(test)]
mod tests {
    use crate::scene::load::validate;
    use crate::scene::{Scene, scene_to_ron};

    fn scene(obstacles: &str) -> Scene {
        let text = format!(
            "(version: 1, table: (width: 40, height: 20),
              walls: [(name: \"Curtain\", kind: outer, points: [(20, 0), (20, 20)], height_in: 4, glass_topped: true),
                      (name: \"Hedge\", kind: low, points: [(10, 0), (10, 20)])],
              cattle_grids: [(name: \"Grid\", from: (30, 8), to: (30, 12))],
              figures: [(name: \"Ann\", position: (18, 5)), (name: \"Bo\", side: \"keep\", position: (21, 5))],
              obstacles: ({obstacles}))"
        );
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        match options.from_str(&text) {
            Ok(s) => s,
            Err(e) => panic!("{e}: {text}"),
        }
    }

    fn problems(s: &Scene) -> Vec<String> {
        validate(s).into_iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn a_valid_section_round_trips() {
        let s = scene(
            "stake_lines: [(name: \"Stakes\", from: (5, 2), to: (5, 18), sharp_side: (2, 10), moves_worked: 3, builder: \"Ann\")],
             ropes: [(name: \"Rope\", kind: light, anchor: (20, 5), height_in: 4,
                      climbers: [(figure: \"Ann\", height_in: 2, weight_quabits: 4.5)])],
             grapnels: [(name: \"Hook\", thrower: \"Ann\", target: (20, 5), at_move: 1, rope: \"Rope\")],
             glass_walls: [(wall: \"Curtain\", climbers: [(figure: \"Ann\", to: (21, 6), cloth: true)])],
             planks: [(grid: \"Grid\", planks_at: (29, 7), layers: [\"Bo\"])],
             vehicles: [(name: \"Wagon\", kind: wagon, position: (25, 10), path: [(38, 10)], move_rate: 4)]",
        );
        assert_eq!(problems(&s), Vec::<String>::new());
        let text = scene_to_ron(&s).expect("saves");
        let again: Scene = ron::from_str(&text).expect("loads");
        assert_eq!(again, s);
        let plain = scene("");
        let text = scene_to_ron(&plain).expect("saves");
        assert!(!text.contains("obstacles"), "an empty section and default settings are left out: {text}");
    }

    #[test]
    fn errors_name_the_entity_and_field() {
        let s = scene(
            "stake_lines: [(name: \"Stakes\", from: (5, 2), to: (5, 18), sharp_side: (5, 10), moves_worked: 9)],
             ropes: [(name: \"Rope\", anchor: (20, 5), height_in: 4, strength_quabits: 11,
                      climbers: [(figure: \"Nobody\", height_in: 9)])],
             grapnels: [(name: \"Hook\", thrower: \"Ann\", target: (50, 5), at_move: 0, rope: \"None\")],
             glass_walls: [(wall: \"No wall\", height_in: 0), (wall: \"Hedge\")],
             planks: [(grid: \"No grid\", planks_at: (29, 7), layers: [])],
             vehicles: [(name: \"Wagon\", position: (25, 10), move_rate: -1)]",
        );
        let p = problems(&s);
        for wanted in [
            "stake line \"Stakes\": sharp_side",
            "stake line \"Stakes\": moves_worked",
            "rope \"Rope\": strength_quabits",
            "rope \"Rope\": climbers[0] figure",
            "rope \"Rope\": climbers[0] height_in",
            "grapnel \"Hook\": target",
            "grapnel \"Hook\": at_move",
            "grapnel \"Hook\": rope",
            "glass wall \"No wall\": wall",
            "glass wall \"No wall\": height_in",
            "glass wall \"Hedge\": wall: \"Hedge\" is not glass topped",
            "planks for \"No grid\": grid",
            "planks for \"No grid\": layers",
            "vehicle \"Wagon\": move_rate",
        ] {
            assert!(p.iter().any(|m| m.starts_with(wanted)), "{wanted}: {p:?}");
        }
    }

    #[test]
    fn a_wall_height_is_checked() {
        let mut s = scene("");
        for (height, ok) in
            [(Some(0.0), false), (Some(0.01), true), (Some(100.0), true), (Some(100.5), false), (None, true)]
        {
            s.walls[0].height_in = height;
            let p = problems(&s);
            assert_eq!(p.iter().any(|m| m.starts_with("wall \"Curtain\": height_in")), !ok, "{height:?}: {p:?}");
        }
        s.walls[0].height_in = Some(f32::NAN);
        assert!(problems(&s).iter().any(|m| m.starts_with("wall \"Curtain\": height_in")));
    }

    #[test]
    fn cut_orders_and_rope_climbs_round_trip_and_are_checked() {
        let s = scene(
            "ropes: [(name: \"Rope\", anchor: (20, 5), height_in: 4,
                      climbers: [(figure: \"Ann\", height_in: 2, to: (20.05, 5), rounds_climbed: 1)])],
             cuts: [(cutter: \"Bo\", rope: \"Rope\", weapon_strike: 1, from_move: 2, from_round: 2),
                    (cutter: \"Bo\", rope: \"Rope\", sharp_edged: false, from_move: 1, done: true)]",
        );
        assert_eq!(problems(&s), Vec::<String>::new());
        assert!(s.obstacles.cuts[0].sharp_edged, "sharp edged unless said otherwise");
        assert_eq!(s.obstacles.cuts[1].from_round, 1, "the first round unless said otherwise");
        let text = scene_to_ron(&s).expect("saves");
        let again: Scene = ron::from_str(&text).expect("loads");
        assert_eq!(again, s);

        let bad = scene(
            "ropes: [(name: \"Rope\", anchor: (20, 5), height_in: 4,
                      climbers: [(figure: \"Ann\", to: (50, 5), rounds_climbed: 101)])],
             cuts: [(cutter: \"Nobody\", rope: \"No rope\", weapon_strike: 21, from_move: 0, from_round: 3)]",
        );
        let p = problems(&bad);
        for wanted in [
            "rope \"Rope\": climbers[0] to",
            "rope \"Rope\": climbers[0] rounds_climbed",
            "cut order 0 (of \"No rope\"): cutter",
            "cut order 0 (of \"No rope\"): rope",
            "cut order 0 (of \"No rope\"): weapon_strike",
            "cut order 0 (of \"No rope\"): from_move",
            "cut order 0 (of \"No rope\"): from_round",
        ] {
            assert!(p.iter().any(|m| m.starts_with(wanted)), "{wanted}: {p:?}");
        }
    }

    fn with_inventory(items: &str) -> Scene {
        let text = format!(
            "(version: 1, table: (width: 40, height: 20),
              figures: [(name: \"Ann\", position: (18, 5), inventory: [{items}])])"
        );
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        match options.from_str(&text) {
            Ok(s) => s,
            Err(e) => panic!("{e}: {text}"),
        }
    }

    #[test]
    fn inventories_are_weighed_and_checked() {
        use super::{ItemKind, inventory_pounds, inventory_quabits, obstacle_items};
        use crate::rules::obstacles::{ItemWeights, ObstacleItem, POUNDS_PER_KILOGRAM};
        let s = with_inventory(
            "(name: \"grapnel\", kind: grapnel), (name: \"rope\", kind: light_rope),
             (name: \"pack\", kind: other, weight_quabits: 1.5), (name: \"iron hook\", kind: grapnel, weight_quabits: 0.5)",
        );
        assert_eq!(problems(&s), Vec::<String>::new());
        let text = scene_to_ron(&s).expect("saves");
        let again: Scene = ron::from_str(&text).expect("loads");
        assert_eq!(again, s);
        let items = &s.figures[0].inventory;
        let w = ItemWeights::default();
        // The grapnel and the rope by the house-rule weights (¼ each), the pack's and the hook's own.
        assert_eq!(inventory_quabits(items, &w), 0.25 + 0.25 + 1.5 + 0.5);
        assert!((inventory_pounds(items, &w) - 2.5 * 16.0 * POUNDS_PER_KILOGRAM).abs() < 1e-3);
        let each: Vec<f32> = items.iter().map(|i| i.quabits(&w)).collect();
        assert_eq!(each, vec![0.25, 0.25, 1.5, 0.5], "a weight given overrides the kind's");
        assert_eq!(obstacle_items(items), vec![ObstacleItem::Grapnel, ObstacleItem::LightRope, ObstacleItem::Grapnel]);
        let plain = with_inventory("");
        assert!(!scene_to_ron(&plain).expect("saves").contains("inventory"), "an empty inventory is left out");
        // Every obstacle item is a kind with the same id; the others are not obstacle items.
        for item in ObstacleItem::ALL {
            assert!(ItemKind::ALL.iter().any(|k| k.obstacle_item() == Some(item) && k.id() == item.id()), "{item:?}");
        }
        for kind in ItemKind::ALL {
            assert_eq!(ron::to_string(&kind).expect("writes"), kind.id(), "the id is the serde name");
        }
        assert_eq!(ItemKind::Other.obstacle_item(), None);
        assert_eq!(ItemKind::ClothOrNewspaper.obstacle_item(), None);

        let bad = with_inventory(
            "(name: \" \", kind: grapnel), (name: \"cloak\", kind: cloth_or_newspaper),
             (name: \"anvil\", kind: other, weight_quabits: -1), (name: \"boulder\", kind: other, weight_quabits: 101)",
        );
        let p = problems(&bad);
        for wanted in [
            "figure \"Ann\": inventory[0] name",
            "figure \"Ann\": inventory[1] weight_quabits: needed for kind cloth_or_newspaper",
            "figure \"Ann\": inventory[2] weight_quabits",
            "figure \"Ann\": inventory[3] weight_quabits",
        ] {
            assert!(p.iter().any(|m| m.starts_with(wanted)), "{wanted}: {p:?}");
        }
        let stones = |n: usize| vec!["(name: \"stone\", kind: other, weight_quabits: 0.1)"; n].join(", ");
        let p = problems(&with_inventory(&stones(101)));
        assert!(p.iter().any(|m| m.starts_with("figure \"Ann\": inventory: 101 items, more than 100")), "{p:?}");
        assert_eq!(problems(&with_inventory(&stones(100))), Vec::<String>::new(), "100 items are allowed");
    }
}
