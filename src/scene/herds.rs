//! Herds, steeds and beasts with tempers, and cattle grids, in the scene file.

use super::format::{Point, Scene};
use super::load::{Checker, MAX_HERD_SIZE, fmt_point};
use crate::rules::herds::{Beast, HERD_SPACING_IN, MountBond, Temper, ZoneCreature, neuserk_zone_in};
use serde::{Deserialize, Serialize};

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn default_spacing() -> f32 {
    HERD_SPACING_IN
}

fn is_default_spacing(s: &f32) -> bool {
    *s == HERD_SPACING_IN
}

fn default_side() -> String {
    "beasts".to_string()
}

fn is_default_side(s: &String) -> bool {
    s == "beasts"
}

fn is_usual(b: &MountBond) -> bool {
    *b == MountBond::Usual
}

/// Most moves a herd may be left stampeding.
pub const MAX_STAMPEDE_MOVES: u32 = 10_000;
/// Widest herd spacing, in inches.
pub const MAX_SPACING_IN: f32 = 12.0;

/// A herd or flock that wanders together, a string of steeds, or a beast with a temper.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Herd {
    /// The herd's name, unique in the scene.
    pub name: String,
    /// What kind of beast.
    pub beast: Beast,
    /// How many beasts, 1 to 1000.
    pub count: u32,
    /// The herd's centre.
    pub position: Point,
    /// Heading in degrees, 0 = along +x, counter-clockwise (the scene's convention; the rules
    /// use a compass bearing and the sim converts in one place).
    #[serde(default)]
    pub heading: f32,
    /// How far apart the beasts stand, in inches (000: "spread out to 1" between each beast").
    #[serde(default = "default_spacing", skip_serializing_if = "is_default_spacing")]
    pub spacing: f32,
    /// Tethered (or caught and held) steeds do not wander.
    #[serde(default, skip_serializing_if = "is_false")]
    pub tethered: bool,
    /// Names of the figures herding it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub herders: Vec<String>,
    /// A sheepdog works with the first herder (sheep and goats: 8 per herder instead of 6).
    #[serde(default, skip_serializing_if = "is_false")]
    pub dog: bool,
    /// Who the beasts belong to: figures of this side may catch its steeds; figures of any
    /// other side are strangers to its zone.
    #[serde(default = "default_side", skip_serializing_if = "is_default_side")]
    pub side: String,
    /// A steed's relationship with the riders of its side (000: faithful, usual, trained, raw).
    #[serde(default = "usual", skip_serializing_if = "is_usual")]
    pub bond: MountBond,
    /// A zone the beasts defend (neuserk, okserk, chuserk). Bulls and wolves have the text's
    /// suggested zones when this is absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<Zone>,
    /// The beast's own move in inches, for a neuserk's suggested zone (move − 1").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_rate: Option<f32>,
    /// Moves left stampeding (0: calm).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stampede: u32,
    /// Where each beast stands; empty lays them out 1" (`spacing`) apart around `position`.
    /// Written by `--final` so a saved run continues where it stopped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub beasts: Vec<Point>,
    /// Beasts caught on a cattle grid, by their index in `beasts`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_grid: Vec<GridHold>,
    /// Whether the projector shows it, whatever the automatic rules say: none (the default)
    /// leaves it to them, `Some(true)` always shows it, `Some(false)` never ([`players_see`](super::players_see)).
    /// The GM's toggle in the inspector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show_players: Option<bool>,
    /// A picture for each beast's token: a PNG or WebP file beside the scene file or under
    /// `assets/` ([`super::pictures`]), ringed in the herd's side's colour; none: the default face
    /// in the beast's colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
}

fn usual() -> MountBond {
    MountBond::Usual
}

/// A herd's zone: how it treats strangers within `radius` inches of any of its beasts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    /// How it treats strangers in its zone.
    pub temper: Temper,
    /// Inches. A neuserk without one takes its move − 1" (needs the herd's `move_rate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f32>,
}

/// A beast held by a cattle grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridHold {
    /// Index of the beast in the herd.
    pub beast: u32,
    /// Trapped or stuck.
    pub state: GridHoldState,
}

/// 001 "Cattle Grids": a trapped beast may escape (D6 5+); a stuck one needs help.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GridHoldState {
    /// Trapped: it tries each move to escape (D6 5+).
    Trapped,
    /// Stuck: it stays until a figure ending its move beside it frees it.
    Stuck,
}

/// A cattle grid across a gateway, from `from` to `to`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CattleGrid {
    /// The grid's name, unique in the scene.
    pub name: String,
    /// One end of the grid across its gateway.
    pub from: Point,
    /// The other end.
    pub to: Point,
    /// Planks laid over it (001: "Planks needed to allow horse drawn vehicles to cross").
    #[serde(default, skip_serializing_if = "is_false")]
    pub planks: bool,
}

impl Herd {
    /// The zone the herd defends, if any: the scene's, else the text's suggestion for its beast.
    pub fn zone_creature(&self) -> Option<ZoneCreature> {
        let pack_size = self.count;
        match self.zone {
            Some(zone) => {
                let zone_in = match (zone.radius, zone.temper) {
                    (Some(r), _) => r,
                    (None, Temper::Neuserk) => neuserk_zone_in(self.move_rate.unwrap_or(1.0)),
                    // Validation refuses these; a zero zone holds nobody.
                    (None, _) => 0.0,
                };
                Some(ZoneCreature { temper: zone.temper, zone_in, pack_size })
            }
            None => self.beast.zone_creature().map(|z| ZoneCreature { pack_size, ..z }),
        }
    }

    /// Where each beast stands at the start: the scene's `beasts`, or the laid-out herd.
    pub fn beast_positions(&self) -> Vec<Point> {
        if self.beasts.is_empty() {
            layout_beasts(self.position, self.count, self.spacing)
        } else {
            self.beasts.clone()
        }
    }

    /// The checks the parser cannot make.
    pub(crate) fn check<'a>(&'a self, c: &mut Checker<'a>) {
        let e = c.name("herd", &self.name);
        c.on_table(&e, "position", self.position);
        c.finite(&e, "heading", self.heading);
        c.picture(&e, self.picture.as_deref());
        if !(1..=MAX_HERD_SIZE).contains(&self.count) {
            c.problem(&e, format!("count: {} must be 1 to {MAX_HERD_SIZE}", self.count));
            return;
        }
        c.positive(&e, "spacing", self.spacing, MAX_SPACING_IN);
        if self.side.trim().is_empty() {
            c.problem(&e, "side: must not be empty".into());
        }
        if let Some(rate) = self.move_rate
            && c.finite(&e, "move_rate", rate)
            && !(0.0..=100.0).contains(&rate)
        {
            c.problem(&e, format!("move_rate: {rate} must be 0 to 100 inches"));
        }
        if let Some(zone) = self.zone {
            match zone.radius {
                Some(r) if c.finite(&e, "zone radius", r) && !(0.0..=100.0).contains(&r) => {
                    c.problem(&e, format!("zone radius: {r} must be 0 to 100 inches"));
                }
                Some(_) => {}
                None if zone.temper == Temper::Neuserk && self.move_rate.is_none() => c.problem(
                    &e,
                    "zone radius: a neuserk needs a radius or the herd's move_rate (zone = move − 1\")".into(),
                ),
                None if zone.temper != Temper::Neuserk => {
                    c.problem(&e, format!("zone radius: an {} needs a radius in inches", zone.temper.id()))
                }
                None => {}
            }
        }
        if !self.herders.is_empty() && self.beast.herd_kind().is_none() {
            c.problem(
                &e,
                format!(
                    "herders: {}s cannot be herded (000 \"Herding\" lists cows, sheep, goats and pigs)",
                    self.beast.id()
                ),
            );
        }
        if self.dog && self.herders.is_empty() {
            c.problem(&e, "dog: a dog works with a herder; list the herders".into());
        }
        if self.stampede > MAX_STAMPEDE_MOVES {
            c.problem(&e, format!("stampede: {} must be at most {MAX_STAMPEDE_MOVES} moves", self.stampede));
        }
        if self.beasts.is_empty() {
            // The laid-out herd must fit on the table.
            if self.spacing.is_finite() && self.spacing > 0.0 && self.spacing <= MAX_SPACING_IN {
                let (w, h) = c.table_size();
                if let Some(off) =
                    self.beast_positions().into_iter().find(|p| p.0 < 0.0 || p.1 < 0.0 || p.0 > w || p.1 > h)
                {
                    c.problem(
                        &e,
                        format!(
                            "position: {} {}s laid out {}\" apart around {} reach off the table at {}; move the herd or list `beasts`",
                            self.count,
                            self.beast.id(),
                            self.spacing,
                            fmt_point(self.position),
                            fmt_point(off)
                        ),
                    );
                }
            }
        } else if self.beasts.len() != self.count as usize {
            c.problem(&e, format!("beasts: {} positions listed for a count of {}", self.beasts.len(), self.count));
        } else {
            for &p in &self.beasts {
                c.on_table(&e, "beasts point", p);
            }
        }
        let mut seen = std::collections::HashSet::new();
        for hold in &self.on_grid {
            if hold.beast >= self.count {
                c.problem(&e, format!("on_grid: beast {} does not exist (count {})", hold.beast, self.count));
            } else if !seen.insert(hold.beast) {
                c.problem(&e, format!("on_grid: beast {} is listed twice", hold.beast));
            }
        }
    }
}

impl CattleGrid {
    /// The checks the parser cannot make.
    pub(crate) fn check<'a>(&'a self, c: &mut Checker<'a>) {
        let e = c.name("cattle grid", &self.name);
        c.on_table(&e, "from", self.from);
        c.on_table(&e, "to", self.to);
        if self.from == self.to {
            c.problem(&e, "to: must differ from `from` (a grid is a segment)".into());
        }
    }
}

/// The herd checks that are not per herd: cattle grids and the `rules.herds` settings.
pub(crate) fn check_scene<'a>(scene: &'a Scene, c: &mut Checker<'a>) {
    if scene.cattle_grids.len() > super::load::MAX_ENTITIES_PER_KIND {
        c.problem("scene", format!("cattle_grids: more than {} entries", super::load::MAX_ENTITIES_PER_KIND));
    } else {
        for g in &scene.cattle_grids {
            g.check(c);
        }
    }
    let s = &scene.rules.herds;
    for (field, v) in [
        ("herding_reach_in", s.herding_reach_in),
        ("stampede_move_in", s.stampede_move_in),
        ("free_stuck_reach_in", s.free_stuck_reach_in),
    ] {
        if c.finite("rules", &format!("herds {field}"), v) && !(0.0..=100.0).contains(&v) {
            c.problem("rules", format!("herds {field}: {v} must be 0 to 100 inches"));
        }
    }
    if s.grid_escape_attempts_per_move > 100 {
        c.problem(
            "rules",
            format!("herds grid_escape_attempts_per_move: {} must be 0 to 100", s.grid_escape_attempts_per_move),
        );
    }
    for (field, v) in [
        ("non_rider_catch_modifier", s.non_rider_catch_modifier),
        ("second_level_trainer_catch_bonus", s.second_level_trainer_catch_bonus),
        ("unlisted_stampede_factor", s.unlisted_stampede_factor),
        ("fire_fright_threshold", s.fire_fright_threshold),
    ] {
        if !(-10..=10).contains(&v) {
            c.problem("rules", format!("herds {field}: {v} must be -10 to 10"));
        }
    }
    if s.grid_hurt_lasts_moves.is_some_and(|m| m > 1_000_000) {
        c.problem("rules", "herds grid_hurt_lasts_moves: must be at most 1000000".into());
    }
}

/// Beasts laid out on a hexagonal lattice `spacing` apart, the first at `centre`, then ring
/// by ring outwards: every beast is at least `spacing` from every other and the herd is as
/// round as a lattice allows.
pub fn layout_beasts(centre: Point, count: u32, spacing: f32) -> Vec<Point> {
    let mut out = Vec::with_capacity(count as usize);
    if count == 0 {
        return out;
    }
    out.push(centre);
    let corner = |k: usize, ring: f32| {
        let a = (k as f32) * std::f32::consts::FRAC_PI_3;
        (ring * spacing * a.cos(), ring * spacing * a.sin())
    };
    let mut ring = 1usize;
    while out.len() < count as usize {
        for side in 0..6 {
            let (ax, ay) = corner(side, ring as f32);
            let (bx, by) = corner(side + 1, ring as f32);
            for step in 0..ring {
                if out.len() == count as usize {
                    break;
                }
                let t = step as f32 / ring as f32;
                out.push((centre.0 + ax + (bx - ax) * t, centre.1 + ay + (by - ay) * t));
            }
        }
        ring += 1;
    }
    out
}

/// How far the laid-out herd reaches from its centre, in inches.
pub fn layout_radius(count: u32, spacing: f32) -> f32 {
    // Ring r holds 6r beasts; the herd fills rings 1..=r after the centre one.
    let mut rings = 0u32;
    let mut placed = 1u32;
    while placed < count {
        rings += 1;
        placed += 6 * rings;
    }
    rings as f32 * spacing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_keeps_spacing_and_is_round() {
        for count in [1u32, 2, 7, 8, 19, 50, 200] {
            let pts = layout_beasts((50.0, 50.0), count, 1.0);
            assert_eq!(pts.len(), count as usize);
            assert_eq!(pts[0], (50.0, 50.0));
            for i in 0..pts.len() {
                for j in i + 1..pts.len() {
                    let d = ((pts[i].0 - pts[j].0).powi(2) + (pts[i].1 - pts[j].1).powi(2)).sqrt();
                    assert!(d >= 1.0 - 1e-4, "{count}: beasts {i} and {j} are {d} apart");
                }
            }
            let r = layout_radius(count, 1.0);
            for p in &pts {
                let d = ((p.0 - 50.0).powi(2) + (p.1 - 50.0).powi(2)).sqrt();
                assert!(d <= r + 1e-4, "{count}: {d} beyond {r}");
            }
        }
        assert_eq!(layout_radius(1, 1.0), 0.0);
        assert_eq!(layout_radius(7, 1.0), 1.0);
        assert_eq!(layout_radius(8, 2.0), 4.0);
    }
}
