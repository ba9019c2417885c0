//! Editing the table with the mouse: select and drag tokens, place entities from the palette,
//! draw a figure's path by clicking waypoints. The edits themselves are the document's
//! (crate::document::edit): made through the scene, so each domain's entities are rebuilt by
//! its own spawn code.

use super::camera::CursorTable;
use super::layers::GmGizmos;
use super::{PX_PER_INCH, to_world};
use crate::document::{Document, Placeable, Reveal};
use crate::sim::herds::Beasts;
use crate::sim::world::{SceneOrder, TablePosition};
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;

pub use crate::document::Edit;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Tool>().init_resource::<Selected>().init_resource::<Drag>().init_resource::<EditRequest>();
    app.add_systems(
        Update,
        (
            (mouse_edit.run_if(super::script::pointer_on_table), keys.run_if(not(egui_wants_any_keyboard_input)))
                .run_if(super::is_gm_view),
            apply_edits,
            draw_selection.run_if(super::is_gm_view),
        )
            .chain(),
    );
}

/// What a left click on the table does.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Tool {
    /// Select and drag tokens.
    #[default]
    Select,
    PlaceFigure,
    PlaceTrap,
    PlaceFire,
    PlaceHerd,
    PlaceSleepers,
    /// Each click adds a waypoint to the selected figure's path; Enter or Esc ends.
    DrawPath,
    /// The Fog panel's brush or rectangle (fog.rs): clicks reveal or hide the fog of war.
    Fog,
    /// Drag to measure, Shift-drag for a radius (ruler.rs); M picks it and puts it down.
    Ruler,
}

impl Tool {
    pub const PALETTE: [(Tool, &'static str); 8] = [
        (Tool::Select, "Select / drag"),
        (Tool::PlaceFigure, "Figure"),
        (Tool::PlaceTrap, "Trap"),
        (Tool::PlaceFire, "Fire"),
        (Tool::PlaceHerd, "Herd"),
        (Tool::PlaceSleepers, "Sleepers"),
        (Tool::DrawPath, "Draw path"),
        (Tool::Ruler, "Ruler  M"),
    ];

    /// What a click places, for the placing tools.
    pub fn placeable(self) -> Option<Placeable> {
        match self {
            Tool::PlaceFigure => Some(Placeable::Figure),
            Tool::PlaceTrap => Some(Placeable::Trap),
            Tool::PlaceFire => Some(Placeable::Fire),
            Tool::PlaceHerd => Some(Placeable::Herd),
            Tool::PlaceSleepers => Some(Placeable::Sleepers),
            Tool::Select | Tool::DrawPath | Tool::Fog | Tool::Ruler => None,
        }
    }
}

/// The selected entity, by its scene name (names are stable across rebuilds).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Selected(pub Option<String>);

/// A token being dragged. The world is put back as it was when the drag ends, and the move is
/// made as an edit (so a herd's beasts move with it, the document's way).
#[derive(Resource, Debug, Default)]
struct Drag {
    entity: Option<Entity>,
    moved: bool,
    /// Where the token and, for a herd, its beasts stood when the drag began.
    from: Vec2,
    beasts_from: Vec<Vec2>,
}

/// An edit to make to the scene this frame.
#[derive(Resource, Debug, Default)]
pub struct EditRequest(pub Vec<Edit>);

const PICK_RADIUS: f32 = 0.7;

fn mouse_edit(
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorTable>,
    tool: Res<Tool>,
    mut selected: ResMut<Selected>,
    mut drag: ResMut<Drag>,
    mut edits: ResMut<EditRequest>,
    mut playhead: ResMut<super::playhead::Playhead>,
    mut reveal: ResMut<Reveal>,
    mut tokens: Query<(Entity, &Name, &mut TablePosition, Option<&mut Beasts>), With<SceneOrder>>,
) {
    let Some(at) = cursor.0 else { return };
    if buttons.just_pressed(MouseButton::Left) {
        match *tool {
            Tool::Select => {
                let nearest = tokens
                    .iter()
                    .map(|(e, n, p, _)| (e, n.as_str().to_string(), p.0.distance(at)))
                    .filter(|(_, _, d)| *d <= PICK_RADIUS)
                    .min_by(|a, b| a.2.total_cmp(&b.2));
                selected.0 = nearest.as_ref().map(|(_, n, _)| n.clone());
                let picked = nearest.map(|(e, _, _)| e);
                drag.entity = picked;
                drag.moved = false;
                if let Some(e) = picked
                    && let Ok((_, _, p, beasts)) = tokens.get(e)
                {
                    drag.from = p.0;
                    drag.beasts_from = beasts.map(|b| b.positions.clone()).unwrap_or_default();
                }
            }
            Tool::DrawPath => {
                if let Some(name) = &selected.0 {
                    edits.0.push(Edit::AddWaypoint(name.clone(), at));
                }
            }
            place => {
                if let Some(kind) = place.placeable() {
                    edits.0.push(Edit::Place(kind, at));
                }
            }
        }
    }
    if buttons.pressed(MouseButton::Left)
        && let Some(e) = drag.entity
        && let Ok((_, _, mut p, beasts)) = tokens.get_mut(e)
        && p.0.distance(at) > 0.01
    {
        if !drag.moved {
            // Tokens are dragged where the world is, at the end of the last move: show that.
            playhead.finish();
            reveal.finish();
        }
        p.0 = at;
        // A herd's beasts follow it (the edit moves them so too, kept on the table).
        if let Some(mut beasts) = beasts
            && beasts.positions.len() == drag.beasts_from.len()
        {
            let offset = at - drag.from;
            for (b, from) in beasts.positions.iter_mut().zip(&drag.beasts_from) {
                *b = *from + offset;
            }
        }
        drag.moved = true;
    }
    if buttons.just_released(MouseButton::Left)
        && let Some(e) = drag.entity.take()
        && drag.moved
        && let Ok((_, name, mut p, beasts)) = tokens.get_mut(e)
    {
        // Put the world back as it was: the document makes the move, from there.
        let to = p.0;
        p.0 = drag.from;
        if let Some(mut beasts) = beasts
            && beasts.positions.len() == drag.beasts_from.len()
        {
            beasts.positions.clone_from(&drag.beasts_from);
        }
        edits.0.push(Edit::Move(name.as_str().to_string(), to));
    }
}

fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut tool: ResMut<Tool>,
    selected: Res<Selected>,
    mut edits: ResMut<EditRequest>,
) {
    if keys.just_pressed(KeyCode::Escape) || keys.just_pressed(KeyCode::Enter) {
        *tool = Tool::Select;
    }
    if keys.just_pressed(KeyCode::Delete)
        && let Some(name) = &selected.0
    {
        edits.0.push(Edit::Delete(name.clone()));
    }
    if keys.just_pressed(KeyCode::KeyG) && selected.0.is_some() {
        *tool = Tool::DrawPath;
    }
    if keys.just_pressed(KeyCode::KeyM) {
        *tool = if *tool == Tool::Ruler { Tool::Select } else { Tool::Ruler };
    }
}

/// Hand this frame's edits to the document; a problem is shown until dismissed.
fn apply_edits(world: &mut World) {
    let edits = std::mem::take(&mut world.resource_mut::<EditRequest>().0);
    if edits.is_empty() {
        return;
    }
    let result = crate::document::apply_edits(world, &edits);
    world.resource_mut::<Document>().message = result.err();
}

fn draw_selection(selected: Res<Selected>, tokens: Query<(&Name, &TablePosition)>, mut gizmos: Gizmos<GmGizmos>) {
    let Some(name) = &selected.0 else { return };
    for (n, p) in &tokens {
        if n.as_str() == name {
            gizmos.circle_2d(
                Isometry2d::from_translation(to_world(p.0)),
                0.6 * PX_PER_INCH,
                Color::srgb(1.0, 1.0, 0.2),
            );
        }
    }
}
