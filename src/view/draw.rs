//! Drawing the table: grid, terrain, walls, doors, figures with their paths, traps.

use super::layers::{GM_LAYER, PUBLIC_LAYER, Retained, gm_only};
use super::playhead::{BeforeMove, Playhead, PlayheadSystems, along_swept, swept_ahead};
use super::tokens::side_color;
use super::{PX_PER_INCH, SceneGeneration, to_world};
use crate::scene::{DoorKind, Material, Shape, WallKind};
use crate::sim::traps::Trap;
use crate::sim::world::{Figure, SceneOrder, Swept, TablePosition, TableSize, Terrain, Walls, Waypoints};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, (spawn_terrain, spawn_labels));
    app.add_systems(
        Update,
        (
            rebuild.run_if(resource_changed::<SceneGeneration>),
            (draw_grid, draw_walls, draw_lights, draw_paths, draw_traps, reveal_trap_labels, reveal_being_labels),
        )
            .chain()
            .after(PlayheadSystems),
    );
}

/// A name label of an entity; labels.rs places it by its entity's token.
#[derive(Component)]
pub(super) struct Label(pub(super) Entity);

/// Drawn from the scene, rebuilt when the world is rebuilt.
#[derive(Component)]
struct SceneDrawing;

/// The world was rebuilt from a scene: rebuild what mirrors it.
fn rebuild(mut commands: Commands, old: Query<Entity, Or<(With<SceneDrawing>, With<Label>)>>) {
    for e in &old {
        commands.entity(e).despawn();
    }
    commands.run_system_cached(spawn_terrain);
    commands.run_system_cached(spawn_labels);
}

/// Fill colour of a material.
pub fn material_color(m: Material) -> Color {
    match m {
        Material::Grass => Color::srgb(0.33, 0.52, 0.27),
        Material::Earth => Color::srgb(0.45, 0.36, 0.25),
        Material::StoneFloor => Color::srgb(0.42, 0.42, 0.44),
        Material::Paved => Color::srgb(0.55, 0.53, 0.50),
        Material::BadGround => Color::srgb(0.40, 0.33, 0.22),
        Material::Rock => Color::srgb(0.35, 0.34, 0.33),
        Material::Water => Color::srgb(0.18, 0.33, 0.58),
        Material::Thatch => Color::srgb(0.80, 0.68, 0.36),
        Material::Hay => Color::srgb(0.90, 0.80, 0.40),
        Material::StandingCorn => Color::srgb(0.85, 0.74, 0.30),
        Material::LooseTimber => Color::srgb(0.55, 0.38, 0.20),
        Material::Brushwood => Color::srgb(0.47, 0.40, 0.23),
        Material::Bushes => Color::srgb(0.22, 0.45, 0.22),
        Material::Trees => Color::srgb(0.12, 0.35, 0.15),
        Material::Cloth => Color::srgb(0.70, 0.30, 0.30),
        Material::Oil => Color::srgb(0.15, 0.12, 0.10),
        Material::SolidTimber => Color::srgb(0.50, 0.32, 0.16),
        Material::HalfTimbered => Color::srgb(0.75, 0.70, 0.60),
    }
}

/// Decode the background image the document holds or finds beside its file.
fn background_image(
    scene: &crate::scene::Scene,
    document: &crate::document::Document,
) -> Result<Option<Image>, String> {
    use bevy::asset::RenderAssetUsages;
    use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
    let Some(bg) = &scene.background else { return Ok(None) };
    let Some((bytes, ext)) = document.background_bytes(scene)? else { return Ok(None) };
    Image::from_buffer(
        &bytes,
        ImageType::Extension(&ext),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::linear(),
        RenderAssetUsages::default(),
    )
    .map(Some)
    .map_err(|e| format!("background {}: {e}", bg.image))
}

fn spawn_terrain(
    mut commands: Commands,
    table: Res<TableSize>,
    terrain: Res<Terrain>,
    loaded: Res<crate::sim::world::LoadedScene>,
    mut document: ResMut<crate::document::Document>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    mut tiles: super::tiles::TileLoader,
) {
    // The bare table.
    let size = to_world(table.0);
    commands.spawn((
        Sprite { color: Color::srgb(0.26, 0.36, 0.22), custom_size: Some(size), ..default() },
        Transform::from_translation((size / 2.0).extend(-10.0)),
        SceneDrawing,
    ));
    // Edge labels every 6": along the bottom and the left, outside the table.
    let label_font = TextFont { font_size: FontSize::Px(0.5 * PX_PER_INCH), ..default() };
    let step = if table.0.max_element() > 200.0 { 24 } else { 6 };
    for x in (0..=table.0.x.floor() as u32).step_by(step) {
        commands.spawn((
            Text2d::new(format!("{x}\"")),
            label_font.clone(),
            TextColor(Color::srgb(0.8, 0.8, 0.8)),
            Transform::from_translation(to_world(Vec2::new(x as f32, -0.6)).extend(5.0)),
            SceneDrawing,
        ));
    }
    for y in (step as u32..=table.0.y.floor() as u32).step_by(step) {
        commands.spawn((
            Text2d::new(format!("{y}\"")),
            label_font.clone(),
            TextColor(Color::srgb(0.8, 0.8, 0.8)),
            Transform::from_translation(to_world(Vec2::new(-0.9, y as f32)).extend(5.0)),
            SceneDrawing,
        ));
    }
    match background_image(&loaded.0, &document) {
        Ok(Some(image)) => {
            if let Some(bg) = &loaded.0.background {
                let origin = to_world(Vec2::new(bg.origin.0, bg.origin.1));
                let size = to_world(Vec2::new(bg.size.0, bg.size.1));
                commands.spawn((
                    Sprite { image: images.add(image), custom_size: Some(size), ..default() },
                    Transform::from_translation((origin + size / 2.0).extend(-9.5)),
                    SceneDrawing,
                ));
            }
        }
        Ok(None) => {}
        Err(e) => document.message = Some(e),
    }
    // One patterned material per kind of ground, shared by its regions so they batch; its
    // tile comes from assets/tiles/ and changes in place when the file does (tiles.rs).
    let mut looks: std::collections::HashMap<Material, Handle<ColorMaterial>> = Default::default();
    for (i, region) in terrain.0.iter().enumerate() {
        let look = looks
            .entry(region.material)
            .or_insert_with(|| {
                materials.add(ColorMaterial {
                    color: material_color(region.material),
                    texture: Some(tiles.tile(&mut images, region.material)),
                    ..default()
                })
            })
            .clone();
        let z = -9.0 + i as f32 * 1e-3;
        let outline: Vec<Vec2> = match &region.shape {
            Shape::Rect { min, max } => {
                vec![Vec2::new(min.0, min.1), Vec2::new(max.0, min.1), Vec2::new(max.0, max.1), Vec2::new(min.0, max.1)]
            }
            Shape::Circle { center, radius } => {
                // Segments about a quarter inch long: round at any zoom a table allows.
                let segments = ((std::f32::consts::TAU * radius / 0.25).ceil() as usize).clamp(24, 256);
                (0..segments)
                    .map(|k| {
                        let a = std::f32::consts::TAU * k as f32 / segments as f32;
                        Vec2::new(center.0, center.1) + Vec2::from_angle(a) * *radius
                    })
                    .collect()
            }
            Shape::Polygon { points } => points.iter().map(|p| Vec2::new(p.0, p.1)).collect(),
        };
        commands.spawn((
            Mesh2d(meshes.add(polygon_mesh(&outline))),
            MeshMaterial2d(look),
            Transform::from_xyz(0.0, 0.0, z),
            SceneDrawing,
        ));
    }
}

/// A filled simple polygon (convex or not, points in table inches), by ear clipping. Its UVs
/// are table inches over the pattern tile's size, so patterns line up across regions.
fn polygon_mesh(points: &[Vec2]) -> Mesh {
    use bevy::asset::RenderAssetUsages;
    use bevy::mesh::{Indices, PrimitiveTopology};
    let positions: Vec<[f32; 3]> = points.iter().map(|p| to_world(*p).extend(0.0).to_array()).collect();
    let uvs: Vec<[f32; 2]> =
        points.iter().map(|p| [p.x / super::patterns::TILE_INCHES, -p.y / super::patterns::TILE_INCHES]).collect();
    let indices = ear_clip(points);
    let mut mesh = Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::default());
    mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, positions);
    mesh.insert_attribute(Mesh::ATTRIBUTE_NORMAL, vec![[0.0, 0.0, 1.0]; points.len()]);
    mesh.insert_attribute(Mesh::ATTRIBUTE_UV_0, uvs);
    mesh.insert_indices(Indices::U32(indices));
    mesh
}

fn ear_clip(points: &[Vec2]) -> Vec<u32> {
    let n = points.len();
    if n < 3 {
        return Vec::new();
    }
    let area: f32 = (0..n).map(|i| points[i].perp_dot(points[(i + 1) % n])).sum();
    let mut idx: Vec<usize> = if area >= 0.0 { (0..n).collect() } else { (0..n).rev().collect() };
    let mut out = Vec::with_capacity((n - 2) * 3);
    let mut guard = 0;
    while idx.len() > 3 && guard < n * n {
        guard += 1;
        let m = idx.len();
        let mut clipped = false;
        for k in 0..m {
            let (a, b, c) = (idx[(k + m - 1) % m], idx[k], idx[(k + 1) % m]);
            let (pa, pb, pc) = (points[a], points[b], points[c]);
            if (pb - pa).perp_dot(pc - pb) <= 0.0 {
                continue;
            }
            let inside = idx.iter().any(|&j| {
                j != a && j != b && j != c && {
                    let p = points[j];
                    (pb - pa).perp_dot(p - pa) >= 0.0
                        && (pc - pb).perp_dot(p - pb) >= 0.0
                        && (pa - pc).perp_dot(p - pc) >= 0.0
                }
            });
            if !inside {
                out.extend([a as u32, b as u32, c as u32]);
                idx.remove(k);
                clipped = true;
                break;
            }
        }
        if !clipped {
            break;
        }
    }
    if idx.len() == 3 {
        out.extend([idx[0] as u32, idx[1] as u32, idx[2] as u32]);
    }
    out
}

/// True when the world was rebuilt this frame or any of `changed` matched.
fn redraw_needed<F: bevy::ecs::query::QueryFilter>(generation: &Res<SceneGeneration>, changed: &Query<(), F>) -> bool {
    generation.is_changed() || !changed.is_empty()
}

fn draw_grid(mut lines: Retained, table: Res<TableSize>, generation: Res<SceneGeneration>) {
    if !table.is_changed() && !generation.is_changed() {
        return;
    }
    let size = table.0;
    lines.redraw("grid", PUBLIC_LAYER, |gizmos| {
        let minor = Color::srgba(1.0, 1.0, 1.0, 0.10);
        let major = Color::srgba(1.0, 1.0, 1.0, 0.28);
        for x in 0..=size.x.floor() as u32 {
            let c = if x % 6 == 0 { major } else { minor };
            gizmos.line_2d(to_world(Vec2::new(x as f32, 0.0)), to_world(Vec2::new(x as f32, size.y)), c);
        }
        for y in 0..=size.y.floor() as u32 {
            let c = if y % 6 == 0 { major } else { minor };
            gizmos.line_2d(to_world(Vec2::new(0.0, y as f32)), to_world(Vec2::new(size.x, y as f32)), c);
        }
        gizmos.rect_2d(Isometry2d::from_translation(to_world(size / 2.0)), to_world(size), Color::WHITE);
    });
}

fn draw_walls(mut lines: Retained, walls: Res<Walls>, generation: Res<SceneGeneration>) {
    if !walls.is_changed() && !generation.is_changed() {
        return;
    }
    lines.redraw("walls", PUBLIC_LAYER, |gizmos| {
        for wall in walls.walls() {
            let color = match wall.kind {
                WallKind::Outer => Color::srgb(0.95, 0.95, 0.95),
                WallKind::Inner => Color::srgb(0.75, 0.75, 0.78),
                WallKind::Low => Color::srgb(0.60, 0.50, 0.35),
            };
            let pts: Vec<Vec2> = wall.points.iter().map(|p| to_world(Vec2::new(p.0, p.1))).collect();
            // Two offset strokes make a visibly thick wall.
            for off in [Vec2::ZERO, Vec2::new(1.5, 1.5), Vec2::new(-1.5, -1.5)] {
                gizmos.linestrip_2d(pts.iter().map(|p| *p + off), color);
            }
        }
        for door in walls.doors() {
            let color = match (door.kind, door.open) {
                (DoorKind::Door, false) => Color::srgb(0.70, 0.45, 0.20),
                (DoorKind::Door, true) => Color::srgb(0.95, 0.75, 0.40),
                (DoorKind::Window, _) => Color::srgb(0.50, 0.80, 0.95),
            };
            let (a, b) = (to_world(Vec2::new(door.from.0, door.from.1)), to_world(Vec2::new(door.to.0, door.to.1)));
            for off in [Vec2::ZERO, Vec2::new(2.0, 2.0), Vec2::new(-2.0, -2.0)] {
                gizmos.line_2d(a + off, b + off, color);
            }
        }
    });
}

/// Light sources: a faint ring at their reach in their colour, a small sun at their centre.
fn draw_lights(mut gizmos: Gizmos, lights: Res<crate::sim::world::Lights>) {
    for light in &lights.0 {
        let hex = light.color.trim_start_matches('#');
        let color = Srgba::hex(hex).map(Color::from).unwrap_or(Color::WHITE);
        let at = to_world(Vec2::new(light.position.0, light.position.1));
        gizmos.circle_2d(Isometry2d::from_translation(at), light.range * PX_PER_INCH, color.with_alpha(0.35));
        gizmos.circle_2d(Isometry2d::from_translation(at), 0.2 * PX_PER_INCH, color);
    }
}

/// Planned paths, for the GM only: from where the figure will be when the revealed rounds end,
/// along what is left of this move's walk, then through the waypoints still ahead. Redrawn
/// when a step or an edit changes them, not on every frame of an animation; tokens themselves
/// are sprites (tokens.rs).
fn draw_paths(
    mut lines: Retained,
    generation: Res<SceneGeneration>,
    playhead: Res<Playhead>,
    mut drawn_for: Local<Option<f32>>,
    changed: Query<(), (With<Figure>, Or<(Changed<TablePosition>, Changed<Waypoints>, Changed<Swept>)>)>,
    figures: Query<(&TablePosition, &crate::sim::world::Facing, &Figure, &Waypoints, Option<&Swept>)>,
) {
    let revealed = playhead.revealed();
    if !redraw_needed(&generation, &changed) && *drawn_for == Some(revealed) {
        return;
    }
    *drawn_for = Some(revealed);
    lines.redraw("paths", GM_LAYER, |gizmos| {
        for (position, facing, figure, waypoints, swept) in &figures {
            let color = side_color(&figure.0.side).with_alpha(0.6);
            let (from, ahead) = match swept {
                Some(s) => (along_swept(s, revealed, position.0, facing.0).at, swept_ahead(s, revealed)),
                None => (position.0, Vec::new()),
            };
            let mut prev = to_world(from);
            for p in ahead.iter().chain(&waypoints.0) {
                let next = to_world(*p);
                gizmos.line_2d(prev, next, color);
                prev = next;
            }
            for wp in &waypoints.0 {
                gizmos.circle_2d(Isometry2d::from_translation(to_world(*wp)), 0.1 * PX_PER_INCH, color).resolution(6);
            }
        }
    });
}

/// Hidden traps are GM-only markers (amber); revealed ones are drawn for everyone (red).
fn draw_traps(
    mut lines: Retained,
    generation: Res<SceneGeneration>,
    playhead: Res<Playhead>,
    before: Res<BeforeMove>,
    mut drawn_mid_move: Local<Option<bool>>,
    changed: Query<(), (With<Trap>, Or<(Changed<Trap>, Changed<TablePosition>)>)>,
    traps: Query<(Entity, &TablePosition, &Trap)>,
) {
    // A new move (or the end of one being shown) changes what the players may see.
    if !redraw_needed(&generation, &changed) && !before.is_changed() && *drawn_mid_move == Some(playhead.mid_move()) {
        return;
    }
    *drawn_mid_move = Some(playhead.mid_move());
    let public = |e: Entity, t: &Trap| trap_shown_to_players(&before, &playhead, e, t);
    let marker = |gizmos: &mut GizmoAsset, pos: &TablePosition, trap: &Trap, color: Color| {
        let at = to_world(pos.0);
        let r = trap.0.radius * PX_PER_INCH;
        gizmos.line_2d(at + Vec2::new(-r, -r), at + Vec2::new(r, r), color);
        gizmos.line_2d(at + Vec2::new(-r, r), at + Vec2::new(r, -r), color);
        if let crate::scene::TrapKind::TripCord { to } = trap.0.kind {
            gizmos.line_2d(at, to_world(Vec2::new(to.0, to.1)), color);
        }
        gizmos.rect_2d(Isometry2d::from_translation(at), Vec2::splat(2.0 * r), color);
    };
    lines.redraw("revealed traps", PUBLIC_LAYER, |gizmos| {
        for (_, pos, trap) in traps.iter().filter(|(e, _, t)| public(*e, t)) {
            marker(gizmos, pos, trap, Color::srgb(0.95, 0.2, 0.2));
        }
    });
    lines.redraw("hidden traps", GM_LAYER, |gizmos| {
        for (_, pos, trap) in traps.iter().filter(|(e, _, t)| !public(*e, t)) {
            marker(gizmos, pos, trap, Color::srgb(1.0, 0.75, 0.1));
        }
    });
}

/// Whether the players see `trap` (entity `e`) on the projector: the GM's `show_players` when
/// set, otherwise once it is revealed ([`BeforeMove::trap_revealed_to_players`]).
pub(super) fn trap_shown_to_players(before: &BeforeMove, playhead: &Playhead, e: Entity, trap: &Trap) -> bool {
    crate::scene::players_see(trap.0.show_players, before.trap_revealed_to_players(e, trap.0.revealed, playhead))
}

/// Names under tokens, placed by labels.rs. Trap names start GM-only (`reveal_trap_labels`
/// shows a revealed trap's to the players), sleepers' are always GM-only, a fire's is GM-only
/// when the GM never shows it to the players (`show_players: Some(false)`); everything else
/// starts public (fog.rs hides figures and herds the players do not see).
pub(super) fn spawn_labels(
    mut commands: Commands,
    named: Query<
        (
            Entity,
            &Name,
            Option<&Trap>,
            Has<crate::sim::sleepers::SleepingGroup>,
            Option<&crate::sim::magic::OccultBeing>,
            Option<&crate::sim::fire::Fire>,
        ),
        With<SceneOrder>,
    >,
) {
    for (entity, name, trap, asleep, being, fire) in &named {
        let mut label = commands.spawn((
            Text2d::new(name.as_str()),
            TextFont { font_size: FontSize::Px(super::labels::NAME_FONT_PX), ..default() },
            TextColor(Color::WHITE),
            Transform::from_xyz(0.0, 0.0, 5.0),
            Label(entity),
            super::labels::PlacedLabel::name(entity),
        ));
        // An occult being's name is the GM's until a spell reveals it.
        let hidden_fire = fire.is_some_and(|f| !crate::scene::players_see(f.0.show_players, true));
        if asleep || trap.is_some() || being.is_some_and(|b| !b.0.revealed) || hidden_fire {
            label.insert(gm_only());
        }
    }
}

/// An occult being revealed in play shows its name to the players from then on.
fn reveal_being_labels(
    mut commands: Commands,
    labels: Query<(Entity, &Label), With<bevy::camera::visibility::RenderLayers>>,
    beings: Query<&crate::sim::magic::OccultBeing>,
) {
    for (entity, label) in &labels {
        if beings.get(label.0).is_ok_and(|b| b.0.revealed) {
            commands.entity(entity).remove::<bevy::camera::visibility::RenderLayers>();
        }
    }
}

/// A trap revealed in play, or one the GM shows the players, shows its name to the players from
/// then on ([`trap_shown_to_players`]).
pub(super) fn reveal_trap_labels(
    mut commands: Commands,
    playhead: Res<Playhead>,
    before: Res<BeforeMove>,
    labels: Query<(Entity, &Label), With<bevy::camera::visibility::RenderLayers>>,
    traps: Query<&Trap>,
) {
    for (entity, label) in &labels {
        if traps.get(label.0).is_ok_and(|t| trap_shown_to_players(&before, &playhead, label.0, t)) {
            commands.entity(entity).remove::<bevy::camera::visibility::RenderLayers>();
        }
    }
}
