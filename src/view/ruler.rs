//! The ruler (issue #25): with the Ruler tool (M, or the palette) a drag on the table measures
//! from where it began to the cursor, in inches, and under the OSR rules in feet too (the
//! scene's `rules.osr.feet_per_inch`); Shift-drag measures a radius, drawn as a circle about
//! the start with its radius. A tick marks every inch. The GM sees it; with "Show on the
//! projector" ticked (the Ruler panel) it is drawn on the public layer, for the players too.
//! The last measurement stays until the next drag, and goes with the tool.

use super::camera::CursorTable;
use super::editing::Tool;
use super::layers::{GmGizmos, gm_only};
use super::{PX_PER_INCH, to_world};
use crate::sim::encounters::OsrBook;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Ruler>();
    app.add_systems(Startup, spawn_label);
    app.add_systems(
        Update,
        (ruler_mouse.run_if(super::script::pointer_on_table), draw_ruler).chain().run_if(super::is_gm_view),
    );
    app.add_systems(EguiPrimaryContextPass, ruler_panel.run_if(super::is_gm_view));
}

/// The ruler's colour, apart from the selection's yellow, the fog tool's green and grey, the
/// projector frame's cyan and the hidden traps' amber.
const RULER_COLOUR: Color = Color::srgb(1.0, 0.4, 0.8);
/// Half an inch tick's length across the line, inches.
const TICK_HALF_IN: f32 = 0.15;
/// Most inch ticks drawn along a measurement.
const MAX_TICKS: u32 = 1000;
/// The reading's height on the table, and how far it stands off the middle of the line, inches.
const LABEL_SIZE_IN: f32 = 0.6;
const LABEL_OFFSET_IN: f32 = 0.6;
/// In front of the tokens (2) and the name labels (5).
const LABEL_Z: f32 = 8.0;

/// The ruler: the last measurement, and whether the players see it.
#[derive(Resource, Debug, Clone, Default)]
pub(super) struct Ruler {
    /// Where the drag began, table inches (none: nothing measured yet).
    from: Option<Vec2>,
    /// Where it is, or ended.
    to: Vec2,
    /// Shift was held: the measurement is a radius about `from`.
    radius: bool,
    /// The left button is held down on the table.
    dragging: bool,
    /// The projector shows the ruler too.
    on_projector: bool,
    /// The reading shown; empty while nothing is measured.
    text: String,
}

impl Ruler {
    /// The reading shown (`5.0"`, `radius 3.0" (30 ft)`), empty while nothing is measured.
    pub(super) fn reading(&self) -> &str {
        &self.text
    }
}

/// The ruler's reading from `from` to `to` (table inches): the distance to a tenth of an inch
/// and, given the scene's feet to the inch (an OSR scene's `rules.osr.feet_per_inch`; none, or
/// not a positive number: inches only), the feet it stands for to the foot; `radius`: the
/// distance is a circle's radius.
pub fn ruler_text(from: Vec2, to: Vec2, feet_per_inch: Option<f32>, radius: bool) -> String {
    let inches = from.distance(to);
    let mut text = format!("{inches:.1}\"");
    if let Some(feet) = feet_per_inch.filter(|f| f.is_finite() && *f > 0.0) {
        text.push_str(&format!(" ({:.0} ft)", inches * feet));
    }
    if radius { format!("radius {text}") } else { text }
}

/// What the ruler draws, in table inches.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mark {
    Line(Vec2, Vec2),
    Circle(Vec2, f32),
}

/// The line (for a radius, the radius and its circle) and a tick across it every inch.
fn ruler_marks(from: Vec2, to: Vec2, radius: bool) -> Vec<Mark> {
    let length = from.distance(to);
    let mut marks = vec![Mark::Line(from, to)];
    if radius {
        marks.push(Mark::Circle(from, length));
    }
    if length > 0.0 {
        let along = (to - from) / length;
        let across = along.perp() * TICK_HALF_IN;
        let ticks = (length.floor() as u32).min(MAX_TICKS);
        for i in 1..=ticks {
            let at = from + along * i as f32;
            marks.push(Mark::Line(at - across, at + across));
        }
    }
    marks
}

/// Where the reading stands: off the middle of the line, on its upper side.
fn label_at(from: Vec2, to: Vec2) -> Vec2 {
    let middle = (from + to) / 2.0;
    let along = (to - from).normalize_or_zero();
    if along == Vec2::ZERO {
        return middle + Vec2::Y * LABEL_OFFSET_IN;
    }
    let across = along.perp();
    let up = if across.y < 0.0 || (across.y <= f32::EPSILON && across.x < 0.0) { -across } else { across };
    middle + up * LABEL_OFFSET_IN
}

fn draw_marks<C: GizmoConfigGroup>(gizmos: &mut Gizmos<'_, '_, C>, marks: &[Mark]) {
    for mark in marks {
        match *mark {
            Mark::Line(a, b) => gizmos.line_2d(to_world(a), to_world(b), RULER_COLOUR),
            Mark::Circle(centre, radius) => {
                gizmos
                    .circle_2d(Isometry2d::from_translation(to_world(centre)), radius * PX_PER_INCH, RULER_COLOUR)
                    .resolution(96);
            }
        }
    }
}

/// The ruler's reading on the table.
#[derive(Component)]
struct RulerLabel;

fn spawn_label(mut commands: Commands) {
    commands.spawn((
        Text2d::new(""),
        TextFont { font_size: FontSize::Px(LABEL_SIZE_IN * PX_PER_INCH), ..default() },
        TextColor(RULER_COLOUR),
        Transform::from_xyz(0.0, 0.0, LABEL_Z),
        Visibility::Hidden,
        RulerLabel,
        gm_only(),
    ));
}

/// With the Ruler tool: a press on the table starts a measurement, and it follows the cursor
/// while the button is held; Shift makes it a radius.
fn ruler_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    cursor: Res<CursorTable>,
    tool: Res<Tool>,
    mut ruler: ResMut<Ruler>,
) {
    if *tool != Tool::Ruler {
        return;
    }
    let Some(at) = cursor.0 else { return };
    if buttons.just_pressed(MouseButton::Left) {
        ruler.from = Some(at);
        ruler.to = at;
        ruler.dragging = true;
    }
    if !ruler.dragging {
        return;
    }
    if buttons.pressed(MouseButton::Left) {
        if ruler.to != at {
            ruler.to = at;
        }
        let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
        if ruler.radius != shift {
            ruler.radius = shift;
        }
    } else {
        ruler.dragging = false;
    }
}

/// Draw the measurement on the GM layer, or the public one when the players are shown it, with
/// its reading; nothing while another tool is picked.
fn draw_ruler(
    mut commands: Commands,
    tool: Res<Tool>,
    mut ruler: ResMut<Ruler>,
    osr: Option<Res<OsrBook>>,
    mut gm: Gizmos<GmGizmos>,
    mut public: Gizmos,
    mut label: Query<(Entity, &mut Text2d, &mut Transform, &mut Visibility, Has<RenderLayers>), With<RulerLabel>>,
) {
    let Ok((entity, mut text, mut transform, mut visibility, gm_layer)) = label.single_mut() else { return };
    let Some(from) = ruler.from.filter(|_| *tool == Tool::Ruler) else {
        visibility.set_if_neq(Visibility::Hidden);
        if !ruler.text.is_empty() {
            ruler.text.clear();
        }
        return;
    };
    let to = ruler.to;
    let feet_per_inch = osr.as_deref().filter(|book| book.is_osr()).map(|book| book.settings.feet_per_inch);
    let reading = ruler_text(from, to, feet_per_inch, ruler.radius);
    let marks = ruler_marks(from, to, ruler.radius);
    if ruler.on_projector {
        draw_marks(&mut public, &marks);
    } else {
        draw_marks(&mut gm, &marks);
    }
    let place = to_world(label_at(from, to)).extend(LABEL_Z);
    if transform.translation != place {
        transform.translation = place;
    }
    if text.0 != reading {
        text.0.clone_from(&reading);
    }
    if ruler.text != reading {
        ruler.text = reading;
    }
    visibility.set_if_neq(Visibility::Inherited);
    if ruler.on_projector && gm_layer {
        commands.entity(entity).remove::<RenderLayers>();
    } else if !ruler.on_projector && !gm_layer {
        commands.entity(entity).insert(gm_only());
    }
}

/// While the Ruler tool is picked: the reading, how to measure, and whether the projector shows it.
fn ruler_panel(mut contexts: EguiContexts, mut tool: ResMut<Tool>, mut ruler: ResMut<Ruler>) -> Result {
    if *tool != Tool::Ruler {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut on_projector = ruler.on_projector;
    let mut done = false;
    egui::Window::new("Ruler").default_pos([8.0, 420.0]).default_width(260.0).resizable(false).show(ctx, |ui| {
        let reading =
            if ruler.text.is_empty() { "Drag on the table to measure".to_string() } else { ruler.text.clone() };
        ui.heading(reading);
        ui.weak("Drag to measure in inches (feet too in an OSR scene); Shift-drag for a radius.");
        ui.checkbox(&mut on_projector, "Show on the projector")
            .on_hover_text("The players see the ruler and its reading too (where the fog of war is not black)");
        if ui.button("Done: back to select  M / Esc").clicked() {
            done = true;
        }
    });
    if on_projector != ruler.on_projector {
        ruler.on_projector = on_projector;
    }
    if done {
        *tool = Tool::Select;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ruler_reads_inches_and_the_osr_scale_in_feet() {
        // A 3-4-5 triangle.
        assert_eq!(ruler_text(Vec2::ZERO, Vec2::new(3.0, 4.0), None, false), "5.0\"");
        assert_eq!(ruler_text(Vec2::new(1.0, 1.0), Vec2::new(4.0, 5.0), Some(10.0), false), "5.0\" (50 ft)");
        assert_eq!(ruler_text(Vec2::new(2.0, 3.0), Vec2::new(14.5, 3.0), Some(10.0), false), "12.5\" (125 ft)");
        assert_eq!(ruler_text(Vec2::new(2.0, 2.0), Vec2::new(2.0, 5.0), Some(5.0), true), "radius 3.0\" (15 ft)");
        assert_eq!(ruler_text(Vec2::new(2.0, 2.0), Vec2::new(2.0, 5.0), None, true), "radius 3.0\"");
        assert_eq!(ruler_text(Vec2::ONE, Vec2::ONE, None, false), "0.0\"");
        // A scale that is not a positive number reads in inches only.
        assert_eq!(ruler_text(Vec2::ZERO, Vec2::new(3.0, 4.0), Some(0.0), false), "5.0\"");
        assert_eq!(ruler_text(Vec2::ZERO, Vec2::new(3.0, 4.0), Some(f32::NAN), false), "5.0\"");
    }

    #[test]
    fn the_ruler_ticks_every_inch_and_a_radius_draws_its_circle() {
        let marks = ruler_marks(Vec2::ZERO, Vec2::new(3.0, 4.0), false);
        assert_eq!(marks.len(), 1 + 5, "the line and a tick at each of the 5 inches");
        assert_eq!(marks[0], Mark::Line(Vec2::ZERO, Vec2::new(3.0, 4.0)));
        // The first tick crosses the line an inch along, square to it.
        let Mark::Line(a, b) = marks[1] else { panic!("a tick is a line") };
        assert!(((a + b) / 2.0 - Vec2::new(0.6, 0.8)).length() < 1e-5);
        assert!((a - b).dot(Vec2::new(3.0, 4.0)).abs() < 1e-4);
        let circle = ruler_marks(Vec2::ONE, Vec2::new(1.0, 3.5), true);
        assert_eq!(circle.len(), 1 + 1 + 2);
        assert_eq!(circle[1], Mark::Circle(Vec2::ONE, 2.5));
        assert_eq!(ruler_marks(Vec2::ONE, Vec2::ONE, false), vec![Mark::Line(Vec2::ONE, Vec2::ONE)]);
    }

    #[test]
    fn the_reading_stands_above_the_line() {
        let level = label_at(Vec2::ZERO, Vec2::new(4.0, 0.0));
        assert!((level - Vec2::new(2.0, LABEL_OFFSET_IN)).length() < 1e-5, "{level:?}");
        let backwards = label_at(Vec2::new(4.0, 0.0), Vec2::ZERO);
        assert!((backwards - Vec2::new(2.0, LABEL_OFFSET_IN)).length() < 1e-5, "{backwards:?}");
        let upright = label_at(Vec2::ZERO, Vec2::new(0.0, 4.0));
        assert!((upright - Vec2::new(LABEL_OFFSET_IN, 2.0)).length() < 1e-5, "{upright:?}");
    }
}
