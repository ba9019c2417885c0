//! Drawing herds in the GM view: every beast, each herd's heading, zone rings, beasts held by
//! grids, and the cattle grids themselves.

use super::fog::{FogOfWar, PlayersSight, shown_to_players};
use super::layers::GmGizmos;
use super::playhead::{BeforeMove, Playhead, PlayheadSystems, Shown, ShownBeasts};
use super::tokens::beast_color;
use super::{PX_PER_INCH, to_world};
use crate::scene::GridHoldState;
use crate::sim::herds::{Beasts, CattleGrids, FireHazards, Herd, scene_direction};
use crate::sim::world::{Facing, vec2};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (draw_cattle_grids, draw_herds, draw_fire_hazards).after(PlayheadSystems));
}

/// Beasts themselves are sprites (tokens.rs); here are what marks them: held crosses, the
/// herd's heading and zone rings, all where the beasts are shown this frame. Under the fog of
/// war a herd of another side than the players' is marked for the GM only while the players do
/// not see its centre (fog.rs).
fn draw_herds(
    mut gizmos: Gizmos,
    mut gm_gizmos: Gizmos<GmGizmos>,
    playhead: Res<Playhead>,
    before: Res<BeforeMove>,
    fog: Res<FogOfWar>,
    sight: Res<PlayersSight>,
    herds: Query<(Entity, &Herd, &Beasts, &Facing, &Shown, &ShownBeasts)>,
) {
    for (entity, herd, beasts, facing, centre, shown) in &herds {
        // Part-way through a move, its markers are as the move found them.
        let was = before.herd_while_shown(entity, &playhead);
        let (herd, held, facing) = match was {
            Some(w) => (&w.herd, &w.held, w.facing),
            None => (herd, &beasts.held, facing.0),
        };
        if shown_to_players(&fog, &sight, &herd.0.side, centre.at, herd.0.show_players) {
            draw_herd_marks(&mut gizmos, herd, held, facing, centre, shown);
        } else {
            draw_herd_marks(&mut gm_gizmos, herd, held, facing, centre, shown);
        }
    }
}

/// One herd's marks, facing `facing`, its beasts held by grids as `held`.
fn draw_herd_marks<C: GizmoConfigGroup>(
    gizmos: &mut Gizmos<C>,
    herd: &Herd,
    held: &[Option<GridHoldState>],
    facing: f32,
    centre: &Shown,
    shown: &ShownBeasts,
) {
    let h = &herd.0;
    let color = beast_color(h.beast);
    let r = 0.35 * h.spacing.min(1.0) * PX_PER_INCH;
    for (p, held) in shown.0.iter().zip(held) {
        let at = to_world(*p);
        // A trapped beast gets an orange cross, a stuck one a red cross (amber is the GM-only
        // hidden-trap colour).
        if let Some(state) = held {
            let c =
                if *state == GridHoldState::Trapped { Color::srgb(1.0, 0.45, 0.0) } else { Color::srgb(1.0, 0.2, 0.2) };
            gizmos.line_2d(at + Vec2::new(-r, -r), at + Vec2::new(r, r), c);
            gizmos.line_2d(at + Vec2::new(-r, r), at + Vec2::new(r, -r), c);
        }
    }
    // The heading: an arrow from the centre, shorter for a tethered herd.
    let start = to_world(centre.at);
    let length = if h.tethered { 0.8 } else { 1.6 } * PX_PER_INCH;
    let tip = start + scene_direction(facing) * length;
    gizmos.arrow_2d(start, tip, color.with_alpha(0.9));
    // Zone rings around each beast, in the zone's colour by temper.
    if let Some(zone) = h.zone_creature().filter(|z| z.zone_in > 0.0) {
        let ring = match zone.temper {
            crate::rules::herds::Temper::Neuserk => Color::srgba(1.0, 0.15, 0.15, 0.6),
            crate::rules::herds::Temper::Okserk => Color::srgba(1.0, 0.55, 0.1, 0.6),
            crate::rules::herds::Temper::Chuserk { .. } => Color::srgba(0.85, 0.3, 0.9, 0.6),
        };
        for p in &shown.0 {
            gizmos.circle_2d(Isometry2d::from_translation(to_world(*p)), zone.zone_in * PX_PER_INCH, ring);
        }
    }
}

fn draw_cattle_grids(mut gizmos: Gizmos, grids: Res<CattleGrids>) {
    for grid in &grids.0 {
        let (a, b) = (vec2(grid.from), vec2(grid.to));
        let along = b - a;
        let len = along.length();
        if len <= 0.0 {
            continue;
        }
        let u = along / len;
        let n = Vec2::new(-u.y, u.x) * 0.5;
        let color = if grid.planks { Color::srgb(0.75, 0.55, 0.30) } else { Color::srgb(0.80, 0.82, 0.86) };
        // Rails across the gateway every quarter inch, between two side bars.
        gizmos.line_2d(to_world(a + n), to_world(b + n), color);
        gizmos.line_2d(to_world(a - n), to_world(b - n), color);
        let rails = (len * 4.0).ceil() as u32;
        for k in 0..=rails.min(4000) {
            let p = a + u * (k as f32 / 4.0).min(len);
            gizmos.line_2d(to_world(p - n), to_world(p + n), color);
        }
    }
}

fn draw_fire_hazards(mut gizmos: Gizmos, fires: Res<FireHazards>) {
    for fire in &fires.0 {
        gizmos.circle_2d(
            Isometry2d::from_translation(to_world(fire.position)),
            fire.radius * PX_PER_INCH,
            Color::srgba(1.0, 0.4, 0.0, 0.5),
        );
    }
}
