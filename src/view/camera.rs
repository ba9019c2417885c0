//! Cameras: the GM's (pan and zoom), and the projector's (calibrated so one grid square is one
//! real inch, its frame shown and moved on the GM view, a blackout key).

use super::layers::{GM_LAYER, GmGizmos, PUBLIC_LAYER};
use super::settings::ViewSettings;
use super::{PX_PER_INCH, ViewKind, to_table, to_world};
use crate::sim::world::TableSize;
use bevy::camera::RenderTarget;
use bevy::camera::visibility::RenderLayers;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll, MouseScrollUnit};
use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryWindow, WindowMode, WindowRef};
use bevy_egui::PrimaryEguiContext;
use bevy_egui::input::{egui_wants_any_keyboard_input, egui_wants_any_pointer_input};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Projector>().init_resource::<CursorTable>();
    app.add_systems(Startup, spawn_main_camera);
    app.add_systems(
        Update,
        (
            track_cursor,
            (pan_and_zoom, keyboard_camera).run_if(super::is_gm_view),
            pan_and_zoom_pointer.run_if(super::is_gm_view).run_if(not(egui_wants_any_pointer_input)),
            projector_keys.run_if(super::is_gm_view).run_if(not(egui_wants_any_keyboard_input)),
            sync_projector_window,
            place_projector_camera,
            draw_projector_frame.run_if(super::is_gm_view),
        )
            .chain(),
    );
}

/// The GM's camera.
#[derive(Component)]
pub struct GmCamera;

/// The camera whose picture the players see.
#[derive(Component)]
pub struct ProjectorCamera;

/// The projector's own window, when open.
#[derive(Component)]
pub struct ProjectorWindow;

/// The projector: whether its window is open, where on the table it looks, blackout.
#[derive(Resource, Debug, Clone)]
pub struct Projector {
    pub open: bool,
    /// Centre of the projected area on the table, in inches.
    pub centre: Vec2,
    /// Hide the table from the players while the GM rearranges it.
    pub blackout: bool,
    /// Show a 10" ruler on the projector, to check the calibration against a real one.
    pub ruler: bool,
}

impl Default for Projector {
    fn default() -> Self {
        Self { open: false, centre: Vec2::new(36.0, 24.0), blackout: false, ruler: false }
    }
}

/// Where the mouse points on the table, in inches (GM window).
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct CursorTable(pub Option<Vec2>);

/// Camera scale that fits the table in a window of `size` logical pixels, leaving room for
/// the panels on the right in the GM view.
fn fit_scale(table: Vec2, size: Vec2, panels: f32) -> f32 {
    let usable = (size - Vec2::new(panels, 40.0)).max(Vec2::splat(100.0));
    (table.x * PX_PER_INCH / usable.x).max(table.y * PX_PER_INCH / usable.y).max(0.02)
}

fn fitted(table: Vec2, window: Vec2, panels: f32) -> (Transform, f32) {
    let scale = fit_scale(table, window, panels);
    let centre = to_world(table / 2.0) + Vec2::new(panels / 2.0 * scale, 0.0);
    (Transform::from_translation(centre.extend(0.0)), scale)
}

fn spawn_main_camera(
    mut commands: Commands,
    table: Res<TableSize>,
    kind: Res<ViewKind>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut projector: ResMut<Projector>,
) {
    projector.centre = table.0 / 2.0;
    let size = window.size();
    match *kind {
        ViewKind::Gm => {
            let (transform, scale) = fitted(table.0, size, 440.0);
            commands.spawn((
                Camera2d,
                GmCamera,
                PrimaryEguiContext,
                RenderLayers::from_layers(&[PUBLIC_LAYER, GM_LAYER]),
                Projection::Orthographic(OrthographicProjection { scale, ..OrthographicProjection::default_2d() }),
                transform,
            ));
        }
        ViewKind::Projector => {
            // The projector picture in the main window (for screenshots): the table fitted.
            let (transform, scale) = fitted(table.0, size, 0.0);
            commands.spawn((
                Camera2d,
                ProjectorCamera,
                RenderLayers::layer(PUBLIC_LAYER),
                Projection::Orthographic(OrthographicProjection { scale, ..OrthographicProjection::default_2d() }),
                transform,
            ));
        }
    }
}

fn track_cursor(
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<GmCamera>>,
    script: Option<Res<super::script::ScriptPlayer>>,
    mut cursor: ResMut<CursorTable>,
) {
    // A script (`open --script`) puts the cursor on the table itself.
    if script.is_some() {
        return;
    }
    cursor.0 = None;
    let Ok((camera, transform)) = camera.single() else { return };
    if let Some(p) = window.cursor_position()
        && let Ok(world) = camera.viewport_to_world_2d(transform, p)
    {
        cursor.0 = Some(to_table(world));
    }
}

/// Home fits the table; bound by the keyboard handler.
pub fn fit_gm_camera(
    table: Vec2,
    window: &Window,
    camera: &mut impl std::ops::DerefMut<Target = Transform>,
    projection: &mut Projection,
) {
    let (transform, scale) = fitted(table, window.size(), 440.0);
    **camera = transform;
    if let Projection::Orthographic(o) = projection {
        o.scale = scale;
    }
}

/// Drag with the right or middle mouse button to pan.
fn pan_and_zoom(
    buttons: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    mut camera: Query<(&mut Transform, &Projection), With<GmCamera>>,
) {
    let Ok((mut transform, projection)) = camera.single_mut() else { return };
    let Projection::Orthographic(o) = projection else { return };
    if buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle) {
        transform.translation.x -= motion.delta.x * o.scale;
        transform.translation.y += motion.delta.y * o.scale;
    }
}

/// The wheel zooms about the cursor.
fn pan_and_zoom_pointer(
    scroll: Res<AccumulatedMouseScroll>,
    cursor: Res<CursorTable>,
    mut camera: Query<(&mut Transform, &mut Projection), With<GmCamera>>,
) {
    if scroll.delta.y == 0.0 {
        return;
    }
    let Ok((mut transform, mut projection)) = camera.single_mut() else { return };
    let Projection::Orthographic(o) = projection.as_mut() else { return };
    let steps = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 40.0,
    };
    let factor = 0.9f32.powf(steps);
    let new_scale = (o.scale * factor).clamp(0.02, 50.0);
    if let Some(c) = cursor.0 {
        // Keep the point under the cursor where it is.
        let c = to_world(c).extend(0.0);
        transform.translation = c + (transform.translation - c) * (new_scale / o.scale);
    }
    o.scale = new_scale;
}

fn keyboard_camera(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    table: Res<TableSize>,
    window: Single<&Window, With<PrimaryWindow>>,
    egui_keys: Res<bevy_egui::input::EguiWantsInput>,
    mut camera: Query<(&mut Transform, &mut Projection), With<GmCamera>>,
) {
    if egui_keys.wants_any_keyboard_input() {
        return;
    }
    let Ok((mut transform, mut projection)) = camera.single_mut() else { return };
    if keys.just_pressed(KeyCode::Home) {
        fit_gm_camera(table.0, &window, &mut transform, &mut projection);
        return;
    }
    let Projection::Orthographic(o) = projection.as_mut() else { return };
    // Shift moves the projector frame instead (projector_keys).
    if keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight) {
        return;
    }
    let mut dir = Vec2::ZERO;
    for (key, d) in [
        (KeyCode::ArrowLeft, -Vec2::X),
        (KeyCode::ArrowRight, Vec2::X),
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::ArrowDown, -Vec2::Y),
    ] {
        if keys.pressed(key) {
            dir += d;
        }
    }
    let speed = 700.0 * o.scale * time.delta_secs();
    transform.translation += (dir * speed).extend(0.0);
    if keys.pressed(KeyCode::Equal) || keys.pressed(KeyCode::NumpadAdd) {
        o.scale = (o.scale * (1.0 - 1.5 * time.delta_secs())).max(0.02);
    }
    if keys.pressed(KeyCode::Minus) || keys.pressed(KeyCode::NumpadSubtract) {
        o.scale = (o.scale * (1.0 + 1.5 * time.delta_secs())).min(50.0);
    }
}

/// Shift+arrows move the projected area an inch; B blacks the projector out.
fn projector_keys(keys: Res<ButtonInput<KeyCode>>, mut projector: ResMut<Projector>) {
    let shift = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
    if shift {
        for (key, d) in [
            (KeyCode::ArrowLeft, -Vec2::X),
            (KeyCode::ArrowRight, Vec2::X),
            (KeyCode::ArrowUp, Vec2::Y),
            (KeyCode::ArrowDown, -Vec2::Y),
        ] {
            if keys.just_pressed(key) {
                projector.centre += d;
            }
        }
    }
    if keys.just_pressed(KeyCode::KeyB) {
        projector.blackout = !projector.blackout;
    }
}

/// Open or close the projector window to match `Projector::open`.
fn sync_projector_window(
    mut commands: Commands,
    projector: Res<Projector>,
    settings: Res<ViewSettings>,
    kind: Res<ViewKind>,
    windows: Query<Entity, With<ProjectorWindow>>,
    cameras: Query<Entity, (With<ProjectorCamera>, Without<GmCamera>)>,
) {
    if *kind != ViewKind::Gm {
        return;
    }
    let is_open = !windows.is_empty();
    if projector.open && !is_open {
        let mode = if settings.projector_fullscreen {
            WindowMode::BorderlessFullscreen(MonitorSelection::Index(settings.projector_monitor))
        } else {
            WindowMode::Windowed
        };
        let window = commands
            .spawn((
                Window { title: "Tabula — Projector".into(), mode, resolution: (1280, 800).into(), ..default() },
                ProjectorWindow,
            ))
            .id();
        commands.spawn((
            Camera2d,
            Camera { order: 1, clear_color: ClearColorConfig::Custom(Color::BLACK), ..default() },
            RenderTarget::Window(WindowRef::Entity(window)),
            RenderLayers::layer(PUBLIC_LAYER),
            ProjectorCamera,
        ));
    } else if !projector.open && is_open {
        for e in windows.iter().chain(cameras.iter()) {
            commands.entity(e).despawn();
        }
    }
}

/// Pixels per real inch on the projector window, from the calibration.
pub fn projector_pixels_per_inch(window_width_px: f32, settings: &ViewSettings) -> f32 {
    window_width_px / settings.projector_width_inches.max(1.0)
}

/// Put the projector camera where the frame is, at the calibrated scale; blackout hides all.
fn place_projector_camera(
    projector: Res<Projector>,
    settings: Res<ViewSettings>,
    kind: Res<ViewKind>,
    windows: Query<&Window, With<ProjectorWindow>>,
    mut cameras: Query<(&mut Transform, &mut Projection, &mut RenderLayers), With<ProjectorCamera>>,
) {
    for (mut transform, mut projection, mut layers) in &mut cameras {
        *layers = if projector.blackout { RenderLayers::none() } else { RenderLayers::layer(PUBLIC_LAYER) };
        if *kind != ViewKind::Gm {
            continue;
        }
        let Ok(window) = windows.single() else { continue };
        let ppi = projector_pixels_per_inch(window.width(), &settings);
        if let Projection::Orthographic(o) = projection.as_mut() {
            o.scale = PX_PER_INCH / ppi;
        }
        transform.translation = to_world(projector.centre).extend(0.0);
    }
}

/// The projected area drawn on the GM view, and the calibration ruler.
fn draw_projector_frame(
    projector: Res<Projector>,
    settings: Res<ViewSettings>,
    windows: Query<&Window, With<ProjectorWindow>>,
    mut gizmos: Gizmos<GmGizmos>,
    mut public: Gizmos,
) {
    let Ok(window) = windows.single() else { return };
    let ppi = projector_pixels_per_inch(window.width(), &settings);
    let size_in = Vec2::new(window.width(), window.height()) / ppi;
    let color = if projector.blackout { Color::srgb(0.3, 0.3, 0.3) } else { Color::srgb(0.2, 0.9, 0.9) };
    gizmos.rect_2d(Isometry2d::from_translation(to_world(projector.centre)), to_world(size_in), color);
    if projector.ruler {
        let start = projector.centre - Vec2::new(5.0, 0.0);
        public.line_2d(to_world(start), to_world(start + Vec2::new(10.0, 0.0)), Color::WHITE);
        for i in 0..=10 {
            let x = to_world(start + Vec2::new(i as f32, 0.0));
            let h = if i % 5 == 0 { 0.4 } else { 0.2 } * PX_PER_INCH;
            public.line_2d(x, x + Vec2::new(0.0, h), Color::WHITE);
        }
    }
}
