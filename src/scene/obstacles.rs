//! Obstacles in the scene file: lines of sharpened stakes, ropes hanging from walls with the
//! climbers on them, grapnel throws, glass-topped walls, planks to lay over cattle grids, and
//! horse-drawn vehicles (000 "Sharpened Stakes", "Grapnels, Ropes, and cords"; 001 "Cattle
//! Grids", "Climbing over High broken glass topped walls"). docs/obstacles.md "In a scene" says
//! how the simulation reads them.

use super::format::{Point, Scene};
use super::load::{Checker, MAX_MOVES_PLAYED, MAX_POINTS, shown};
use crate::rules::morval_traps::PitBottom;
use crate::rules::obstacles::{ObstaclesSettings, RopeKind, STAKE_FELLING_MOVES, STAKE_POSITIONING_MOVES, VehicleKind};
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

/// A high broken-glass-topped wall (001 "Climbing over High broken glass topped walls").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GlassWall {
    /// The scene wall topped with glass.
    pub wall: String,
    /// Its height, inches.
    pub height_in: f32,
    /// Who climbs it (one climbed over is taken off the list by the simulation).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub climbers: Vec<WallClimber>,
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
        }
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
        if !scene.walls.iter().any(|x| x.name == w.wall) {
            c.problem(&e, format!("wall: no wall is named \"{}\"", shown(&w.wall)));
        } else if o.glass_walls[..i].iter().any(|x| x.wall == w.wall) {
            c.problem(&e, "wall: listed twice among the glass walls".into());
        }
        if c.finite(&e, "height_in", w.height_in) && !(w.height_in > 0.0 && w.height_in <= MAX_HEIGHT_IN) {
            c.problem(&e, format!("height_in: {} must be more than 0 and at most {MAX_HEIGHT_IN}", w.height_in));
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
              walls: [(name: \"Curtain\", kind: outer, points: [(20, 0), (20, 20)])],
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
             glass_walls: [(wall: \"Curtain\", height_in: 4, climbers: [(figure: \"Ann\", to: (21, 6), cloth: true)])],
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
             glass_walls: [(wall: \"No wall\", height_in: 0)],
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
            "planks for \"No grid\": grid",
            "planks for \"No grid\": layers",
            "vehicle \"Wagon\": move_rate",
        ] {
            assert!(p.iter().any(|m| m.starts_with(wanted)), "{wanted}: {p:?}");
        }
    }
}
