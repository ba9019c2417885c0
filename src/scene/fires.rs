//! Fires in the scene file: fires burning at the start, igniters held, dropped or thrown, and
//! the ignitions that have already happened (the burning state a saved scene carries on).
//!
//! Time on the fire front is counted in rounds on the scene clock: round `R` (1-based, counted
//! from the first move) runs from time `R − 1` to `R`, so move `m` of `n` rounds holds rounds
//! `(m − 1)·n + 1 ..= m·n`. See `docs/fire.md`.

use super::format::Point;
use crate::rules::fire::{FireSettings, HeldIgniter, ThrownIgniter};
use serde::{Deserialize, Serialize};

fn half_inch() -> f32 {
    0.5
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Most area the scene's fires and listed ignitions may cover together (each counted at most as
/// the whole table), in tables: each disc is flooded cell by cell when it catches, so this bounds
/// that work to about two passes over the fire grid.
pub const MAX_IGNITION_AREA_TABLES: f32 = 2.0;

/// A saved fire state must fit the grid this table and cell size give, and its times the clock.
fn check_fire_state(scene: &super::format::Scene, rounds_played: f32, c: &mut super::load::Checker<'_>) {
    let Some(state) = &scene.fire_state else { return };
    let (w, h, cs) = (scene.table.width, scene.table.height, scene.rules.fire.cell_size);
    if !(w.is_finite() && h.is_finite() && cs.is_finite() && w > 0.0 && h > 0.0 && cs > 0.0) {
        return; // reported by the table and settings checks
    }
    let cell = crate::sim::fire_front::fitting_cell_size(w, h, cs);
    match crate::sim::fire_front::grid_dimensions(w, h, cell) {
        Ok((width, height)) if (width, height, cell) != (state.width, state.height, state.cell_size) => c.problem(
            "fire_state",
            format!(
                "saved for a {}×{} grid of {}\" cells, but this table and fire cell_size give {width}×{height} of {cell}\": remove fire_state to start the fire again from `ignitions`",
                state.width, state.height, state.cell_size
            ),
        ),
        Ok(_) => {}
        Err(e) => c.problem("fire_state", e.to_string()),
    }
    if !(state.settled_until.is_finite() && (0.0..=rounds_played).contains(&state.settled_until)) {
        c.problem("fire_state", format!("settled_until: {} must be 0 to {rounds_played}", state.settled_until));
    }
    if let Err(e) = state.decode() {
        c.problem("fire_state", e.to_string());
    }
}

/// Most ignitions a scene may list (saves carry the fire state instead of ignitions).
pub const MAX_IGNITIONS: usize = 10_000;

/// A fire, or an igniter about to start one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fire {
    /// The fire's name, unique in the scene.
    pub name: String,
    /// Where it burns, or where the igniter is put to the material.
    pub position: Point,
    /// Across, in inches, for a fire already burning (no `igniter`).
    #[serde(default = "half_inch")]
    pub diameter: f32,
    /// What starts it; none for a fire already burning at `position`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub igniter: Option<Igniter>,
    /// The round (scene clock) in which it set the material alight; written by the simulation.
    /// A lit fire rolls no more: its fire is in the scene's `ignitions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lit_round: Option<u32>,
    /// It will never light anything: a thrown igniter that failed, or nothing to burn there.
    #[serde(default, skip_serializing_if = "is_false")]
    pub out: bool,
    /// Whether the projector shows its name, whatever the automatic rules say: none (the default)
    /// leaves it to them, `Some(true)` always shows it, `Some(false)` never ([`players_see`](super::players_see)).
    /// The GM's toggle in the inspector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub show_players: Option<bool>,
}

/// An igniter put to the material (001 "Fire Starting Rules").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Igniter {
    /// Held by a figure at its position: rolled every round, +1 per two rounds held in one place.
    Held {
        /// What is held.
        kind: HeldIgniter,
        /// The figure holding it.
        by: String,
        /// The round it was first held there; none: from the scene's next round.
        #[serde(default)]
        since_round: Option<u32>,
    },
    /// Left lying against the material at `position`: rolled every round like a held igniter.
    Dropped {
        /// What was dropped.
        kind: HeldIgniter,
        /// The round it was dropped there; none: from the scene's next round.
        #[serde(default)]
        since_round: Option<u32>,
    },
    /// Thrown to `position`: one roll, in the scene's next round.
    Thrown {
        /// What is thrown.
        kind: ThrownIgniter,
    },
}

/// A fire that caught: replayed into the fire front when the scene loads, so a saved scene
/// burns on exactly as it would have. Written by the simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireIgnition {
    /// When it caught, in rounds on the scene clock (0 = the start of move 1).
    pub time: f32,
    /// Where it caught.
    pub position: Point,
    /// Radius of material that caught at once, inches ("up to 0.5"" across: 0.25).
    #[serde(default)]
    pub radius: f32,
    /// What set it: a fire's name, or `"from region → to region"` for fire crossing materials.
    pub source: String,
}

impl Fire {
    /// The checks the parser cannot make.
    pub(crate) fn check<'a>(&'a self, c: &mut super::load::Checker<'a>) {
        let e = c.name("fire", &self.name);
        c.on_table(&e, "position", self.position);
        c.positive(&e, "diameter", self.diameter, super::load::MAX_TABLE_INCHES);
    }
}

impl FireIgnition {
    /// The checks the parser cannot make; `now` is the scene clock in rounds.
    fn check(&self, index: usize, now: f32, c: &mut super::load::Checker<'_>) {
        let e = format!("ignition {} (\"{}\")", index + 1, self.source.chars().take(100).collect::<String>());
        c.on_table(&e, "position", self.position);
        if c.finite(&e, "time", self.time) && !(0.0..=now).contains(&self.time) {
            c.problem(&e, format!("time: {} must be 0 to {now}, the rounds the clock has played", self.time));
        }
        if c.finite(&e, "radius", self.radius) && !(0.0..=super::load::MAX_TABLE_INCHES).contains(&self.radius) {
            c.problem(&e, format!("radius: {} must be 0 to {}", self.radius, super::load::MAX_TABLE_INCHES));
        }
    }
}

/// The finest fire-front cell a scene may ask for, in inches. (A table too large for its cells
/// gets coarser ones: see `docs/fire.md`.)
pub const MIN_FIRE_CELL_INCHES: f32 = 0.01;

/// The checks on the `rules.fire` settings.
fn check_settings(s: &FireSettings, c: &mut super::load::Checker<'_>) {
    let e = "rules";
    if c.finite(e, "fire cell_size", s.cell_size) && !(MIN_FIRE_CELL_INCHES..=1.0).contains(&s.cell_size) {
        c.problem(e, format!("fire cell_size: {} must be {MIN_FIRE_CELL_INCHES} to 1 inch", s.cell_size));
    }
    for (field, rate) in [
        ("fire heaped_loose_timber_spread_rate", s.heaped_loose_timber_spread_rate),
        ("fire half_timbered_building_spread_rate", s.half_timbered_building_spread_rate),
    ] {
        if c.finite(e, field, rate) && !(rate > 0.0 && rate <= 100.0) {
            c.problem(e, format!("{field}: {rate} must be more than 0 and at most 100 inches a round"));
        }
    }
    for (field, area) in [("fire house_area", s.house_area), ("fire large_building_area", s.large_building_area)] {
        if c.finite(e, field, area) && area < 0.0 {
            c.problem(e, format!("{field}: {area} must not be negative"));
        }
    }
    for fuel in crate::rules::fire::Fuel::ALL {
        let rounds = s.burn_out.rounds(fuel);
        if !(1..=100_000).contains(&rounds) {
            c.problem(e, format!("fire burn_out {}: {rounds} must be 1 to 100000 rounds", fuel.id()));
        }
    }
}

/// Fire checks across the scene: settings, igniters' holders, recorded ignitions.
pub(crate) fn check_scene(scene: &super::format::Scene, c: &mut super::load::Checker<'_>) {
    check_settings(&scene.rules.fire, c);
    let rounds_played = scene.clock.moves_played as f32 * f32::from(scene.rules.rounds_per_move);
    for fire in &scene.fires {
        let e = format!("fire \"{}\"", fire.name.chars().take(super::load::MAX_NAME_CHARS).collect::<String>());
        if let Some(Igniter::Held { by, .. }) = &fire.igniter
            && !scene.figures.iter().any(|f| &f.name == by)
        {
            c.problem(&e, format!("igniter by: no figure is named \"{}\"", super::load::shown(by)));
        }
    }
    let table_area = scene.table.width * scene.table.height;
    // A disc larger than the table floods the table, no more.
    let area: f32 = scene
        .fires
        .iter()
        .map(|f| f.diameter / 2.0)
        .chain(scene.ignitions.iter().map(|i| i.radius))
        .map(|r| if r.is_finite() { (std::f32::consts::PI * r * r).min(table_area) } else { 0.0 })
        .sum();
    if area > MAX_IGNITION_AREA_TABLES * table_area {
        c.problem(
            "scene",
            format!(
                "fires and ignitions would set {area:.0} square inches alight at once, more than {MAX_IGNITION_AREA_TABLES} × the table's {table_area:.0}"
            ),
        );
    }
    check_fire_state(scene, rounds_played, c);
    if scene.ignitions.len() > MAX_IGNITIONS {
        c.problem(
            "scene",
            format!("ignitions: {} entries, more than the {MAX_IGNITIONS} allowed", scene.ignitions.len()),
        );
        return;
    }
    for (i, ignition) in scene.ignitions.iter().enumerate() {
        ignition.check(i, rounds_played, c);
    }
}
