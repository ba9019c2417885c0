//! Obstacles in the view (issue 20). Players see what stands on the table: each line of
//! sharpened stakes with its teeth pointing to the sharp side (fainter while it is still being
//! made), a wagon, cart or handcart where it stands, planks across a cattle grid or stacked
//! beside it, and every rope hanging from a wall (a line out from the lodgement point, a hook
//! where a grapnel holds it, a stub when it parted, a heap at the foot when it was thrown down).
//! The GM also sees, on the GM layer: each rope's load against its strength ("8.5/5 q", red when
//! overloaded), each grapnel's state (in hand, lodged, thrown down, not lodged), the stakes'
//! work (moves worked of those needed), the glass on glass-topped walls with their height, the
//! planks' rounds of laying, and each vehicle's path. The Obstacles panel, toggled from the menu
//! or opened with `open --obstacles`, lists them all with their states.

use super::layers::{GmGizmos, gm_only};
use super::panels::PanelState;
use super::playhead::PlayheadSystems;
use super::{PX_PER_INCH, SceneGeneration, to_world};
use crate::rules::obstacles::{
    AVERAGE_PERSON_QUABITS, GLASS_WALL_FACTOR, ObstaclesSettings, PLANK_LAYING_ROUNDS, STAKE_FELLING_MOVES,
    STAKE_POSITIONING_MOVES, STANDARD_LENGTH_HETS, VehicleKind, plank_work, raw_excess_quabits, stake_work,
    vehicle_can_cross,
};
use crate::scene::obstacles::{
    GlassWall, GrapnelOrder, ObstaclesSection, PlankOrder, SceneRope, StakeLine, Vehicle, WallClimber,
};
use crate::scene::{CattleGrid, Point};
use crate::sim::geometry::{point_segment_distance, segments_cross};
use crate::sim::herds::CattleGrids;
use crate::sim::obstacles::{ObstacleBook, VEHICLE_STANDOFF_IN};
use crate::sim::world::{Figure, TablePosition, Walls, vec2};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (draw_public, draw_gm, update_labels).after(PlayheadSystems));
    app.add_systems(EguiPrimaryContextPass, obstacles_panel.run_if(super::is_gm_view));
}

/// Stakes: a raw wood.
const STAKE_COLOUR: Color = Color::srgb(0.8, 0.6, 0.35);
/// Ropes: a hemp.
const ROPE_COLOUR: Color = Color::srgb(0.9, 0.82, 0.6);
/// Grapnels: iron grey.
const GRAPNEL_COLOUR: Color = Color::srgb(0.7, 0.72, 0.78);
/// Vehicles: a dark wood.
const VEHICLE_COLOUR: Color = Color::srgb(0.6, 0.4, 0.22);
/// Planks: a pale deal.
const PLANK_COLOUR: Color = Color::srgb(0.85, 0.7, 0.5);
/// Glass on a wall: a glint of pale cyan.
const GLASS_COLOUR: Color = Color::srgb(0.6, 0.95, 1.0);
/// The GM's labels.
const LABEL_COLOUR: Color = Color::srgb(0.9, 0.88, 0.8);
/// A rope carrying more than it holds.
const OVERLOAD_COLOUR: Color = Color::srgb(1.0, 0.3, 0.3);

/// Room between two stake teeth, inches.
const TOOTH_SPACING_IN: f32 = 0.5;
/// How far a ready stake's tooth reaches out to the sharp side, inches.
const TOOTH_LENGTH_IN: f32 = 0.45;
/// How far a hanging rope is drawn out from its wall, inches (a rope hangs down; seen from
/// above it is a short line on the climbers' side).
const ROPE_DRAWN_IN: f32 = 1.2;
/// Most teeth drawn on one line (a long line is drawn with wider gaps).
const MAX_TEETH: usize = 400;

/// The teeth of a stake line from `a` to `b`: for each, its base on the line and its tip, one
/// every `spacing` inches, `length` inches out towards the side `sharp` lies on (table inches).
fn stake_teeth(a: Vec2, b: Vec2, sharp: Vec2, spacing: f32, length: f32) -> Vec<(Vec2, Vec2)> {
    let along = b - a;
    let len = along.length();
    if len <= f32::EPSILON || spacing <= 0.0 {
        return Vec::new();
    }
    let mut out = along.perp() / len;
    if out.dot(sharp - a) < 0.0 {
        out = -out;
    }
    let count = ((len / spacing).floor() as usize).clamp(1, MAX_TEETH);
    (0..count)
        .map(|k| {
            let base = a + along * ((k as f32 + 0.5) / count as f32);
            (base, base + out * length)
        })
        .collect()
}

/// The unit direction out from the wall nearest `at` (among `walls`' polylines), towards the
/// side `toward` lies on; with no wall near, towards `toward`, else down the table.
fn out_from_wall(walls: &[crate::scene::Wall], at: Vec2, toward: Option<Vec2>) -> Vec2 {
    let mut best: Option<(f32, Vec2)> = None;
    for w in walls {
        for s in w.points.windows(2) {
            let (p, q) = (vec2(s[0]), vec2(s[1]));
            let d = point_segment_distance(at, p, q);
            if d <= 0.5 && best.is_none_or(|(bd, _)| d < bd) && p.distance(q) > f32::EPSILON {
                best = Some((d, (q - p).perp().normalize()));
            }
        }
    }
    let fallback = toward.map(|t| (t - at).normalize_or_zero()).filter(|d| *d != Vec2::ZERO).unwrap_or(Vec2::NEG_Y);
    match best {
        Some((_, normal)) => match toward {
            Some(t) if normal.dot(t - at) < 0.0 => -normal,
            _ => normal,
        },
        None => fallback,
    }
}

/// A point as the panel writes it: "(30.0, 22.5)".
fn at_text(p: Point) -> String {
    format!("({:.1}, {:.1})", p.0, p.1)
}

/// The stakes' work: "ready", or the stage with the moves worked of those needed
/// ("positioning, 3 of 5 moves").
fn stake_work_text(line: &StakeLine) -> String {
    let done = line.work_done();
    let work = stake_work(done);
    if work.moves_left == 0 {
        "ready".to_string()
    } else {
        format!("{}, {done} of {} moves", work.stage.id(), STAKE_FELLING_MOVES + STAKE_POSITIONING_MOVES)
    }
}

/// A stake line's line: "Gate stakes: ready; sharp side towards (20.0, 20.0)".
fn stake_text(line: &StakeLine) -> String {
    let mut s = format!("{}: {}; sharp side towards {}", line.name, stake_work_text(line), at_text(line.sharp_side));
    if let Some(b) = &line.builder
        && stake_work(line.work_done()).moves_left > 0
    {
        s.push_str(&format!("; made by {b}"));
    }
    s
}

/// The load on a rope in quabits (each climber his own weight, else an average person's) and
/// the quabits it holds now.
fn rope_load(r: &SceneRope) -> (f32, u32) {
    let load = r.climbers.iter().map(|c| c.weight_quabits.unwrap_or(AVERAGE_PERSON_QUABITS)).sum();
    (load, r.strength_quabits.unwrap_or(r.kind.strength_quabits()))
}

/// A rope's load against its strength: "8.5/5 q".
fn rope_load_text(r: &SceneRope) -> String {
    let (load, strength) = rope_load(r);
    // An empty rope's sum can be -0.0: show it as 0.
    let load = load + 0.0;
    format!("{load:.1}/{strength} q")
}

/// Whether a rope carries more than it holds now.
fn overloaded(r: &SceneRope) -> bool {
    let (load, strength) = rope_load(r);
    raw_excess_quabits(load, strength) > 0.0
}

/// The grapnel a rope is on, if any.
fn grapnel_of<'a>(section: &'a ObstaclesSection, rope: &str) -> Option<&'a GrapnelOrder> {
    section.grapnels.iter().find(|g| g.rope.as_deref() == Some(rope))
}

/// Where a rope is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RopeState {
    /// Hanging from its lodgement, as the simulation reads it: not parted, not down, its
    /// grapnel (if any) lodged.
    Hangs,
    /// Broken or cut.
    Parted,
    /// Its grapnel was thrown down: it lies at the foot of the wall.
    ThrownDown,
    /// On a grapnel not thrown yet.
    GrapnelInHand,
    /// On a grapnel thrown that did not lodge.
    GrapnelNotLodged,
}

impl RopeState {
    /// In words, for the labels and the panel.
    fn text(self) -> &'static str {
        match self {
            RopeState::Hangs => "hangs",
            RopeState::Parted => "parted",
            RopeState::ThrownDown => "thrown down",
            RopeState::GrapnelInHand => "on a grapnel in hand",
            RopeState::GrapnelNotLodged => "grapnel not lodged",
        }
    }
}

/// Where a rope is now.
fn rope_state(section: &ObstaclesSection, r: &SceneRope) -> RopeState {
    if r.parted {
        return RopeState::Parted;
    }
    if r.down {
        return RopeState::ThrownDown;
    }
    match grapnel_of(section, &r.name) {
        Some(g) if !g.thrown => RopeState::GrapnelInHand,
        Some(g) if !g.lodged => RopeState::GrapnelNotLodged,
        _ => RopeState::Hangs,
    }
}

/// A rope's line: "Osric's rope (light, 6 hets) at (30.0, 30.0), 4" up: hangs; 8.5/5 q,
/// overloaded; on it Raider Wulf at 1", Raider Grim at 2.5"".
fn rope_text(section: &ObstaclesSection, r: &SceneRope) -> String {
    let hets = r.length_hets.unwrap_or(STANDARD_LENGTH_HETS);
    let mut s = format!(
        "{} ({}, {hets} hets) at {}, {}\" up: {}; {}",
        r.name,
        r.kind.id(),
        at_text(r.anchor),
        r.height_in,
        rope_state(section, r).text(),
        rope_load_text(r)
    );
    if overloaded(r) {
        s.push_str(", overloaded");
    }
    if !r.climbers.is_empty() {
        let on: Vec<String> = r.climbers.iter().map(|c| format!("{} at {}\"", c.figure, c.height_in)).collect();
        s.push_str(&format!("; on it {}", on.join(", ")));
    }
    s
}

/// A grapnel's state: "in hand", "lodged", "thrown down" (its rope went down with it), or "not
/// lodged" (the throw missed, or it was thrown down with no rope on it).
fn grapnel_state(section: &ObstaclesSection, g: &GrapnelOrder) -> &'static str {
    if !g.thrown {
        return "in hand";
    }
    if g.lodged {
        return "lodged";
    }
    let rope_down = g.rope.as_ref().is_some_and(|r| section.ropes.iter().any(|x| x.name == *r && x.down));
    if rope_down { "thrown down" } else { "not lodged" }
}

/// A grapnel's line: "Osric's grapnel (Raider Osric, move 1) at (30.0, 30.0): lodged; rope
/// Osric's rope; defenders within 1": Warder Ivo".
fn grapnel_text(section: &ObstaclesSection, g: &GrapnelOrder) -> String {
    let mut s = format!(
        "{} ({}, move {}) at {}: {}",
        g.name,
        g.thrower,
        g.at_move,
        at_text(g.target),
        grapnel_state(section, g)
    );
    if let Some(r) = &g.rope {
        s.push_str(&format!("; rope {r}"));
    }
    if g.lodged && !g.defenders_within.is_empty() {
        s.push_str(&format!("; defenders within 1\": {}", g.defenders_within.join(", ")));
    }
    s
}

/// A glass-topped wall's line: "North curtain: 4" high; Pst AvD D6 -2 (+1 cloth), 3+, a house
/// rule (the die and the target)".
fn glass_wall_text(w: &GlassWall, height_in: Option<f32>, settings: &ObstaclesSettings) -> String {
    let height = height_in.map_or_else(|| "height not given".to_string(), |h| format!("{h}\" high"));
    format!(
        "{}: {height}; Pst AvD {} {GLASS_WALL_FACTOR} (+1 cloth), {}+, a house rule",
        w.wall, settings.glass_wall_dice, settings.glass_wall_target
    )
}

/// A climber's line: "Raider Edda to (31.0, 35.0), cloth: 1 of 2 rounds of the try".
fn wall_climber_text(c: &WallClimber, settings: &ObstaclesSettings) -> String {
    format!(
        "{} to {}{}: {} of {} rounds of the try",
        c.figure,
        at_text(c.to),
        if c.cloth { ", cloth" } else { "" },
        c.rounds_spent,
        settings.glass_wall_rounds_per_try
    )
}

/// The planks' laying: "laid", or "1 of 3 rounds".
fn plank_work_text(p: &PlankOrder) -> String {
    let work = plank_work(p.rounds_worked);
    if work.laid { "laid".to_string() } else { format!("{} of {PLANK_LAYING_ROUNDS} rounds", work.rounds_worked) }
}

/// A plank order's line: "Lane grid: planks at (44.0, 4.0), Carter Tom laying; 1 of 3 rounds".
fn plank_text(p: &PlankOrder) -> String {
    format!("{}: planks at {}, {} laying; {}", p.grid, at_text(p.planks_at), p.layers.join(", "), plank_work_text(p))
}

/// The grid a vehicle waits at: the first leg of its path crosses a grid it may not cross, and
/// it stands within a hair of the stopping point short of it.
fn waiting_at<'a>(v: &Vehicle, grids: &'a [CattleGrid]) -> Option<&'a str> {
    let at = vec2(v.position);
    let next = vec2(*v.path.first()?);
    grids
        .iter()
        .filter(|g| !vehicle_can_cross(v.kind, g.planks))
        .filter_map(|g| {
            let t = segments_cross(at, next, vec2(g.from), vec2(g.to))?;
            let gap = at.distance(next) * t;
            (gap <= VEHICLE_STANDOFF_IN + 0.05).then_some((gap, g.name.as_str()))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}

/// A vehicle's line: "Supply wagon (wagon) at (41.8, 7.5), 4" a move: 1 waypoint to go; waits at
/// Lane grid for planks".
fn vehicle_text(v: &Vehicle, grids: &[CattleGrid]) -> String {
    let left = match v.path.len() {
        0 => "no path".to_string(),
        1 => "1 waypoint to go".to_string(),
        n => format!("{n} waypoints to go"),
    };
    let mut s = format!("{} ({}) at {}, {}\" a move: {left}", v.name, v.kind.id(), at_text(v.position), v.move_rate);
    if let Some(grid) = waiting_at(v, grids) {
        s.push_str(&format!("; waits at {grid} for planks"));
    }
    s
}

/// A vehicle's length and width, inches.
fn vehicle_size(kind: VehicleKind) -> Vec2 {
    match kind {
        VehicleKind::Wagon => Vec2::new(2.0, 1.0),
        VehicleKind::Cart => Vec2::new(1.5, 0.8),
        VehicleKind::Handcart => Vec2::new(1.0, 0.6),
    }
}

/// The corners of a vehicle (table inches), closed: its length along its heading (to its next
/// waypoint, else along the table), and its heading.
fn vehicle_outline(v: &Vehicle) -> ([Vec2; 5], Vec2) {
    let at = vec2(v.position);
    let heading =
        v.path.first().map(|p| (vec2(*p) - at).normalize_or_zero()).filter(|d| *d != Vec2::ZERO).unwrap_or(Vec2::X);
    let half = vehicle_size(v.kind) / 2.0;
    let (l, w) = (heading * half.x, heading.perp() * half.y);
    ([at + l + w, at + l - w, at - l - w, at - l + w, at + l + w], heading)
}

/// Two planks across a grid, in table inches: each a line along the way over it, either side
/// of the grid's middle.
fn planks_across(g: &CattleGrid) -> Vec<(Vec2, Vec2)> {
    let (a, b) = (vec2(g.from), vec2(g.to));
    let len = a.distance(b);
    if len <= f32::EPSILON {
        return Vec::new();
    }
    let u = (b - a) / len;
    let n = u.perp();
    let mid = (a + b) / 2.0;
    [-0.35, 0.35].iter().map(|k| (mid + u * *k - n * 0.8, mid + u * *k + n * 0.8)).collect()
}

/// Public layer: stake lines, ropes and grapnels on walls, vehicles, planks.
fn draw_public(
    mut gizmos: Gizmos,
    book: Res<ObstacleBook>,
    grids: Res<CattleGrids>,
    walls: Res<Walls>,
    figures: Query<(&TablePosition, &Figure)>,
) {
    let section = &book.section;
    for line in &section.stake_lines {
        let (a, b) = (vec2(line.from), vec2(line.to));
        let done = line.work_done();
        let total = STAKE_FELLING_MOVES + STAKE_POSITIONING_MOVES;
        let ready = stake_work(done).moves_left == 0;
        // A line still being made is fainter, its teeth growing with the work.
        let colour = if ready { STAKE_COLOUR } else { STAKE_COLOUR.with_alpha(0.45) };
        gizmos.line_2d(to_world(a), to_world(b), colour);
        let length = TOOTH_LENGTH_IN * (done.min(total) as f32 / total as f32);
        if length > 0.0 {
            for (base, tip) in stake_teeth(a, b, vec2(line.sharp_side), TOOTH_SPACING_IN, length) {
                let side = (b - a).normalize_or_zero() * 0.12;
                gizmos.linestrip_2d([to_world(base - side), to_world(tip), to_world(base + side)], colour);
            }
        }
    }
    let figure_at = |name: &str| figures.iter().find(|(_, f)| f.0.name == name).map(|(p, _)| p.0);
    for r in &section.ropes {
        let at = vec2(r.anchor);
        let grapnel = grapnel_of(section, &r.name);
        let toward = grapnel
            .and_then(|g| figure_at(g.thrower.as_str()))
            .or_else(|| r.climbers.first().and_then(|c| figure_at(c.figure.as_str())));
        let out = out_from_wall(walls.walls(), at, toward);
        match rope_state(section, r) {
            RopeState::Hangs => {
                gizmos.line_2d(to_world(at), to_world(at + out * ROPE_DRAWN_IN), ROPE_COLOUR);
            }
            RopeState::Parted => {
                // What is left hanging from the lodgement, and the rest fallen at the foot.
                gizmos.line_2d(to_world(at), to_world(at + out * 0.3), ROPE_COLOUR);
                let foot = at + out * (ROPE_DRAWN_IN + 0.3);
                gizmos.cross_2d(Isometry2d::from_translation(to_world(foot)), 0.15 * PX_PER_INCH, ROPE_COLOUR);
            }
            RopeState::ThrownDown => {
                // A heap at the foot of the wall: a zigzag.
                let along = out.perp() * 0.2;
                let foot = at + out * 0.5;
                let heap = (0..5).map(|k| {
                    let up = if k % 2 == 0 { 0.0 } else { 0.2 };
                    to_world(foot + along * (k as f32 - 2.0) + out * up)
                });
                gizmos.linestrip_2d(heap, ROPE_COLOUR);
            }
            RopeState::GrapnelInHand | RopeState::GrapnelNotLodged => {}
        }
    }
    for g in section.grapnels.iter().filter(|g| g.lodged) {
        // A lodged grapnel's hook: three prongs about the purchase point.
        let at = vec2(g.target);
        for k in 0..3 {
            let dir = Vec2::from_angle(std::f32::consts::TAU * k as f32 / 3.0 + std::f32::consts::FRAC_PI_2);
            gizmos.line_2d(to_world(at), to_world(at + dir * 0.22), GRAPNEL_COLOUR);
        }
    }
    for v in &section.vehicles {
        let (outline, heading) = vehicle_outline(v);
        gizmos.linestrip_2d(outline.map(to_world), VEHICLE_COLOUR);
        if v.kind.horse_drawn() {
            // The shafts, out in front.
            let front = vec2(v.position) + heading * vehicle_size(v.kind).x / 2.0;
            gizmos.line_2d(to_world(front), to_world(front + heading * 0.6), VEHICLE_COLOUR);
        }
    }
    for g in grids.0.iter().filter(|g| g.planks) {
        for (a, b) in planks_across(g) {
            gizmos.line_2d(to_world(a), to_world(b), PLANK_COLOUR);
        }
    }
    // Planks not laid yet lie where the scene puts them, a small stack.
    for p in &section.planks {
        let laid = grids.0.iter().any(|g| g.name == p.grid && g.planks) || plank_work(p.rounds_worked).laid;
        if laid {
            continue;
        }
        let at = vec2(p.planks_at);
        for k in 0..3 {
            let (off, half) = (Vec2::new(0.0, (k as f32 - 1.0) * 0.15), Vec2::new(0.7, 0.0));
            gizmos.line_2d(to_world(at + off - half), to_world(at + off + half), PLANK_COLOUR);
        }
    }
}

/// GM layer: the glass on glass-topped walls, and each vehicle's path still to go.
fn draw_gm(mut gizmos: Gizmos<GmGizmos>, book: Res<ObstacleBook>, walls: Res<Walls>) {
    let section = &book.section;
    for gw in &section.glass_walls {
        let Some(wall) = walls.walls().iter().find(|x| x.name == gw.wall) else { continue };
        // Glints along the top: a small cross every half inch.
        for s in wall.points.windows(2) {
            let (a, b) = (vec2(s[0]), vec2(s[1]));
            let len = a.distance(b);
            let count = ((len / 0.5).floor() as usize).clamp(1, 2000);
            for k in 0..count {
                let p = a + (b - a) * ((k as f32 + 0.5) / count as f32);
                let glint = Isometry2d::from_translation(to_world(p));
                gizmos.cross_2d(glint, 0.1 * PX_PER_INCH, GLASS_COLOUR.with_alpha(0.8));
            }
        }
    }
    for v in section.vehicles.iter().filter(|v| !v.path.is_empty()) {
        let points = std::iter::once(v.position).chain(v.path.iter().copied()).map(|p| to_world(vec2(p)));
        gizmos.linestrip_2d(points, VEHICLE_COLOUR.with_alpha(0.6));
        for p in &v.path {
            let at = Isometry2d::from_translation(to_world(vec2(*p)));
            gizmos.circle_2d(at, 0.1 * PX_PER_INCH, VEHICLE_COLOUR.with_alpha(0.6));
        }
    }
}

/// A GM label of the obstacles (rebuilt whenever they change).
#[derive(Component)]
struct ObstacleLabel;

/// Rebuild the GM's labels when the obstacles or the world change: the stakes' work, each
/// rope's load (red when overloaded), each grapnel's state, each glass wall's height, planks
/// being laid, and a vehicle waiting at a grid.
#[allow(clippy::too_many_arguments)]
fn update_labels(
    mut commands: Commands,
    generation: Res<SceneGeneration>,
    book: Res<ObstacleBook>,
    grids: Res<CattleGrids>,
    walls: Res<Walls>,
    labels: Query<Entity, With<ObstacleLabel>>,
    figures: Query<(&TablePosition, &Figure)>,
    moved: Query<(), (With<Figure>, Changed<TablePosition>)>,
) {
    if !(generation.is_changed() || book.is_changed() || grids.is_changed() || walls.is_changed() || !moved.is_empty())
    {
        return;
    }
    for e in &labels {
        commands.entity(e).despawn();
    }
    let section = &book.section;
    let mut label = |at: Vec2, text: String, colour: Color| {
        commands.spawn((
            Text2d::new(text),
            TextFont { font_size: FontSize::Px(11.0), ..default() },
            TextColor(colour),
            Transform::from_translation(to_world(at).extend(6.0)),
            ObstacleLabel,
            super::labels::FixedLabel { font_px: 11.0 },
            gm_only(),
        ));
    };
    for line in &section.stake_lines {
        let (a, b) = (vec2(line.from), vec2(line.to));
        let mid = (a + b) / 2.0;
        // On the side behind the stakes, out of the teeth's way.
        let behind = match (b - a).try_normalize() {
            Some(u) if u.perp().dot(vec2(line.sharp_side) - a) > 0.0 => -u.perp(),
            Some(u) => u.perp(),
            None => Vec2::NEG_Y,
        };
        label(mid + behind * 0.8, format!("{}: {}", line.name, stake_work_text(line)), STAKE_COLOUR);
    }
    let figure_at = |name: &str| figures.iter().find(|(_, f)| f.0.name == name).map(|(p, _)| p.0);
    let mut rope_label_at: Vec<(String, Vec2)> = Vec::new();
    for r in &section.ropes {
        let at = vec2(r.anchor);
        let toward = grapnel_of(section, &r.name)
            .and_then(|g| figure_at(g.thrower.as_str()))
            .or_else(|| r.climbers.first().and_then(|c| figure_at(c.figure.as_str())));
        let out = out_from_wall(walls.walls(), at, toward);
        let spot = at + out * (ROPE_DRAWN_IN + 0.8);
        let colour = if overloaded(r) { OVERLOAD_COLOUR } else { LABEL_COLOUR };
        label(spot, format!("{}: {}", rope_state(section, r).text(), rope_load_text(r)), colour);
        rope_label_at.push((r.name.clone(), spot));
    }
    for g in &section.grapnels {
        let below_rope = g.rope.as_ref().and_then(|r| rope_label_at.iter().find(|(n, _)| n == r)).map(|(_, p)| *p);
        let spot = below_rope.map_or(vec2(g.target) + Vec2::new(0.0, 0.6), |p| p - Vec2::new(0.0, 0.45));
        label(spot, format!("grapnel {}", grapnel_state(section, g)), GRAPNEL_COLOUR);
    }
    for gw in &section.glass_walls {
        let Some(wall) = walls.walls().iter().find(|x| x.name == gw.wall) else { continue };
        let n = wall.points.len();
        if n < 2 {
            continue;
        }
        let (a, b) = (vec2(wall.points[(n - 1) / 2]), vec2(wall.points[(n - 1) / 2 + 1]));
        let mid = (a + b) / 2.0;
        let side = (b - a).try_normalize().map_or(Vec2::Y, |u| u.perp());
        let climbers = if gw.climbers.is_empty() { String::new() } else { format!(", {} climbing", gw.climbers.len()) };
        let height = gw.height(walls.walls()).map_or_else(String::new, |h| format!(" {h}\""));
        label(mid + side * 0.7, format!("glass-topped{height}{climbers}"), GLASS_COLOUR);
    }
    for p in &section.planks {
        let laid = grids.0.iter().any(|g| g.name == p.grid && g.planks) || plank_work(p.rounds_worked).laid;
        if !laid {
            label(vec2(p.planks_at) - Vec2::new(0.0, 0.5), format!("planks: {}", plank_work_text(p)), PLANK_COLOUR);
        }
    }
    for v in &section.vehicles {
        if let Some(grid) = waiting_at(v, &grids.0) {
            label(vec2(v.position) + Vec2::new(0.0, 0.9), format!("waits at {grid}"), VEHICLE_COLOUR);
        }
    }
}

/// The Obstacles panel: stake lines, ropes, grapnels, glass walls and their climbers, planks,
/// vehicles.
fn obstacles_panel(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    book: Res<ObstacleBook>,
    grids: Res<CattleGrids>,
    walls: Res<Walls>,
) -> Result {
    if !panels.show_obstacles {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let section = &book.section;
    let settings = &book.settings;
    let mut open = true;
    egui::Window::new("Obstacles").open(&mut open).default_pos([8.0, 168.0]).default_width(560.0).show(ctx, |ui| {
        if section.is_empty() {
            ui.label("No obstacles in this scene.");
            return;
        }
        egui::ScrollArea::vertical().max_height(480.0).show(ui, |ui| {
            let heading = |ui: &mut egui::Ui, title: &str, empty: bool| {
                ui.strong(title);
                if empty {
                    ui.weak("none");
                }
            };
            heading(ui, "Stake lines", section.stake_lines.is_empty());
            for line in &section.stake_lines {
                ui.label(stake_text(line));
            }
            ui.separator();
            heading(ui, "Ropes", section.ropes.is_empty());
            for r in &section.ropes {
                let text = rope_text(section, r);
                if overloaded(r) {
                    ui.colored_label(egui::Color32::from_rgb(255, 110, 110), text);
                } else {
                    ui.label(text);
                }
            }
            ui.separator();
            heading(ui, "Grapnels", section.grapnels.is_empty());
            for g in &section.grapnels {
                ui.label(grapnel_text(section, g));
            }
            ui.separator();
            heading(ui, "Glass-topped walls", section.glass_walls.is_empty());
            for gw in &section.glass_walls {
                ui.label(glass_wall_text(gw, gw.height(walls.walls()), settings));
                for c in &gw.climbers {
                    ui.weak(format!("   {}", wall_climber_text(c, settings)));
                }
            }
            ui.separator();
            heading(ui, "Planks", section.planks.is_empty());
            for p in &section.planks {
                ui.label(plank_text(p));
            }
            ui.separator();
            heading(ui, "Vehicles", section.vehicles.is_empty());
            for v in &section.vehicles {
                ui.label(vehicle_text(v, &grids.0));
            }
        });
    });
    if !open {
        panels.show_obstacles = false;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENE: &str = "(version: 1, table: (width: 60, height: 40),
      walls: [(name: \"North curtain\", kind: outer, points: [(30, 22), (30, 40)], height_in: 4, glass_topped: true)],
      cattle_grids: [(name: \"Lane grid\", from: (45, 5), to: (45, 10))],
      figures: [(name: \"Osric\", position: (27, 30)), (name: \"Wulf\", position: (29.5, 31)),
                (name: \"Grim\", position: (29.5, 29)),
                (name: \"Edda\", position: (29.5, 35), sex: female),
                (name: \"Ivo\", side: \"keep\", position: (30.5, 30.5)),
                (name: \"Tom\", side: \"keep\", position: (44, 4.5))],
      obstacles: (
        stake_lines: [(name: \"Gate stakes\", from: (26, 16), to: (26, 24), sharp_side: (20, 20)),
                      (name: \"New stakes\", from: (10, 2), to: (10, 8), sharp_side: (5, 5),
                       moves_worked: 3, builder: \"Tom\")],
        ropes: [(name: \"Osric's rope\", kind: light, anchor: (30, 30), height_in: 4,
                 climbers: [(figure: \"Wulf\", height_in: 1, weight_quabits: 4.5), (figure: \"Grim\", height_in: 2.5)]),
                (name: \"Spare\", kind: permanent, anchor: (30, 25), height_in: 4, length_hets: 8,
                 climbers: [(figure: \"Edda\", height_in: 0)])],
        grapnels: [(name: \"Osric's grapnel\", thrower: \"Osric\", target: (30, 30), at_move: 1,
                    rope: \"Osric's rope\")],
        glass_walls: [(wall: \"North curtain\",
                       climbers: [(figure: \"Edda\", to: (31, 35), cloth: true)])],
        planks: [(grid: \"Lane grid\", planks_at: (44, 4), layers: [\"Tom\"], rounds_worked: 1)],
        vehicles: [(name: \"Supply wagon\", kind: wagon, position: (44.8, 7.5), path: [(58, 7.5)],
                    move_rate: 4),
                   (name: \"Barrow\", kind: handcart, position: (44.8, 8), path: [(50, 8), (55, 8)],
                    move_rate: 3)]))";

    fn section() -> (ObstaclesSection, Vec<CattleGrid>) {
        let scene = crate::sim::testing::scene_from_str(SCENE);
        (scene.obstacles, scene.cattle_grids)
    }

    #[test]
    fn stakes_read_their_work_and_their_teeth_point_to_the_sharp_side() {
        let (s, _) = section();
        assert_eq!(stake_text(&s.stake_lines[0]), "Gate stakes: ready; sharp side towards (20.0, 20.0)");
        assert_eq!(
            stake_text(&s.stake_lines[1]),
            "New stakes: positioning, 3 of 5 moves; sharp side towards (5.0, 5.0); made by Tom"
        );
        let mut felling = s.stake_lines[1].clone();
        felling.moves_worked = Some(1);
        assert_eq!(stake_work_text(&felling), "felling, 1 of 5 moves");
        felling.moves_worked = Some(5);
        assert_eq!(stake_work_text(&felling), "ready");
        let teeth = stake_teeth(Vec2::new(26.0, 16.0), Vec2::new(26.0, 24.0), Vec2::new(20.0, 20.0), 0.5, 0.45);
        assert_eq!(teeth.len(), 16);
        assert!(teeth.iter().all(|(base, tip)| base.x == 26.0 && (tip.x - 25.55).abs() < 1e-4), "{teeth:?}");
        // The other side, and a line with no length.
        let teeth = stake_teeth(Vec2::new(26.0, 16.0), Vec2::new(26.0, 24.0), Vec2::new(30.0, 0.0), 0.5, 0.45);
        assert!(teeth.iter().all(|(_, tip)| tip.x > 26.0));
        assert!(stake_teeth(Vec2::ONE, Vec2::ONE, Vec2::ZERO, 0.5, 0.45).is_empty());
    }

    #[test]
    fn ropes_read_their_load_against_their_strength() {
        let (s, _) = section();
        let rope = &s.ropes[0];
        assert_eq!(rope_load_text(rope), "8.5/5 q");
        assert!(overloaded(rope));
        assert_eq!(rope_state(&s, rope), RopeState::GrapnelInHand);
        assert_eq!(
            rope_text(&s, rope),
            "Osric's rope (light, 6 hets) at (30.0, 30.0), 4\" up: on a grapnel in hand; 8.5/5 q, overloaded; \
             on it Wulf at 1\", Grim at 2.5\""
        );
        // One average person on a permanent rope: 4 of 10, not overloaded.
        let spare = &s.ropes[1];
        assert_eq!(rope_load_text(spare), "4.0/10 q");
        assert!(!overloaded(spare));
        assert_eq!(rope_state(&s, spare), RopeState::Hangs);
        // A rope exactly at its strength is not overloaded; weakened below it, it is.
        let mut at_strength = spare.clone();
        at_strength.climbers[0].weight_quabits = Some(10.0);
        assert!(!overloaded(&at_strength));
        at_strength.strength_quabits = Some(8);
        assert!(overloaded(&at_strength));
        assert_eq!(rope_load_text(&at_strength), "10.0/8 q");
        let mut empty = spare.clone();
        empty.climbers.clear();
        assert_eq!(rope_load_text(&empty), "0.0/10 q");
        let mut parted = spare.clone();
        parted.parted = true;
        assert_eq!(rope_state(&s, &parted), RopeState::Parted);
    }

    #[test]
    fn grapnels_read_in_hand_lodged_thrown_down_or_not_lodged() {
        let (mut s, _) = section();
        let g = s.grapnels[0].clone();
        assert_eq!(grapnel_state(&s, &g), "in hand");
        let lodged = GrapnelOrder { thrown: true, lodged: true, defenders_within: vec!["Ivo".into()], ..g.clone() };
        assert_eq!(grapnel_state(&s, &lodged), "lodged");
        assert_eq!(
            grapnel_text(&s, &lodged),
            "Osric's grapnel (Osric, move 1) at (30.0, 30.0): lodged; rope Osric's rope; defenders within 1\": Ivo"
        );
        let missed = GrapnelOrder { thrown: true, lodged: false, ..g.clone() };
        assert_eq!(grapnel_state(&s, &missed), "not lodged");
        s.ropes[0].down = true;
        assert_eq!(grapnel_state(&s, &missed), "thrown down");
        assert_eq!(rope_state(&s, &s.ropes[0]), RopeState::ThrownDown);
    }

    #[test]
    fn glass_walls_planks_and_vehicles_read_their_state() {
        let (s, grids) = section();
        let settings = ObstaclesSettings::default();
        assert_eq!(
            glass_wall_text(&s.glass_walls[0], Some(4.0), &settings),
            "North curtain: 4\" high; Pst AvD D6 -2 (+1 cloth), 3+, a house rule"
        );
        assert_eq!(
            glass_wall_text(&s.glass_walls[0], None, &settings),
            "North curtain: height not given; Pst AvD D6 -2 (+1 cloth), 3+, a house rule"
        );
        assert_eq!(
            wall_climber_text(&s.glass_walls[0].climbers[0], &settings),
            "Edda to (31.0, 35.0), cloth: 0 of 2 rounds of the try"
        );
        assert_eq!(plank_text(&s.planks[0]), "Lane grid: planks at (44.0, 4.0), Tom laying; 1 of 3 rounds");
        let mut laid = s.planks[0].clone();
        laid.rounds_worked = 3;
        assert_eq!(plank_work_text(&laid), "laid");
        // The wagon stands just short of the grid without planks: it waits; the handcart does not.
        assert_eq!(
            vehicle_text(&s.vehicles[0], &grids),
            "Supply wagon (wagon) at (44.8, 7.5), 4\" a move: 1 waypoint to go; waits at Lane grid for planks"
        );
        assert_eq!(
            vehicle_text(&s.vehicles[1], &grids),
            "Barrow (handcart) at (44.8, 8.0), 3\" a move: 2 waypoints to go"
        );
        let mut planked = grids.clone();
        planked[0].planks = true;
        assert_eq!(waiting_at(&s.vehicles[0], &planked), None);
        let mut far = s.vehicles[0].clone();
        far.position = (40.0, 7.5);
        assert_eq!(waiting_at(&far, &grids), None, "still on its way to the grid");
        // A wagon is drawn along its heading, two inches by one.
        let (outline, heading) = vehicle_outline(&s.vehicles[0]);
        assert_eq!(heading, Vec2::X);
        assert!((outline[0] - Vec2::new(45.8, 8.0)).length() < 1e-4, "{outline:?}");
        assert_eq!(outline[0], outline[4]);
        assert_eq!(planks_across(&grids[0]).len(), 2);
    }

    #[test]
    fn a_rope_hangs_out_from_its_wall_on_the_climbers_side() {
        let scene = crate::sim::testing::scene_from_str(SCENE);
        let out = out_from_wall(&scene.walls, Vec2::new(30.0, 30.0), Some(Vec2::new(27.0, 30.0)));
        assert!((out - Vec2::NEG_X).length() < 1e-4, "{out:?}");
        let out = out_from_wall(&scene.walls, Vec2::new(30.0, 30.0), Some(Vec2::new(33.0, 30.0)));
        assert!((out - Vec2::X).length() < 1e-4, "{out:?}");
        // No wall near: towards the climbers, else down the table.
        let out = out_from_wall(&scene.walls, Vec2::new(10.0, 10.0), Some(Vec2::new(10.0, 12.0)));
        assert!((out - Vec2::Y).length() < 1e-4, "{out:?}");
        assert_eq!(out_from_wall(&scene.walls, Vec2::new(10.0, 10.0), None), Vec2::NEG_Y);
    }
}
