//! Editing the table with the mouse: select and drag tokens, place entities from the palette,
//! draw a figure's path by clicking waypoints. Every edit goes through the scene (snapshot,
//! change, respawn), so each domain's entities are rebuilt by its own spawn code.

use super::camera::CursorTable;
use super::files::CurrentFile;
use super::layers::GmGizmos;
use super::{PX_PER_INCH, to_world};
use crate::scene::{Point, Scene};
use crate::sim::world::{SceneOrder, TablePosition, snapshot_scene};
use crate::sim::{EventLog, SimDice};
use bevy::prelude::*;
use bevy_egui::input::{egui_wants_any_keyboard_input, egui_wants_any_pointer_input};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Tool>().init_resource::<Selected>().init_resource::<Drag>().init_resource::<EditRequest>();
    app.add_systems(
        Update,
        (
            (mouse_edit.run_if(not(egui_wants_any_pointer_input)), keys.run_if(not(egui_wants_any_keyboard_input)))
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
}

impl Tool {
    pub const PALETTE: [(Tool, &'static str); 7] = [
        (Tool::Select, "Select / drag"),
        (Tool::PlaceFigure, "Figure"),
        (Tool::PlaceTrap, "Trap"),
        (Tool::PlaceFire, "Fire"),
        (Tool::PlaceHerd, "Herd"),
        (Tool::PlaceSleepers, "Sleepers"),
        (Tool::DrawPath, "Draw path"),
    ];
}

/// The selected entity, by its scene name (names are stable across rebuilds).
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Selected(pub Option<String>);

#[derive(Resource, Debug, Default)]
struct Drag {
    entity: Option<Entity>,
    moved: bool,
}

/// An edit to make to the scene this frame.
#[derive(Resource, Debug, Default)]
pub struct EditRequest(pub Vec<Edit>);

#[derive(Debug, Clone)]
pub enum Edit {
    Place(Tool, Vec2),
    Move(String, Vec2),
    AddWaypoint(String, Vec2),
    ClearPath(String),
    Delete(String),
    /// Replace the named entity with this RON text (the inspector's editor).
    ReplaceRon(String, String),
}

const PICK_RADIUS: f32 = 0.7;

#[allow(clippy::too_many_arguments)]
fn mouse_edit(
    buttons: Res<ButtonInput<MouseButton>>,
    cursor: Res<CursorTable>,
    tool: Res<Tool>,
    mut selected: ResMut<Selected>,
    mut drag: ResMut<Drag>,
    mut edits: ResMut<EditRequest>,
    mut playhead: ResMut<super::playhead::Playhead>,
    mut tokens: Query<(Entity, &Name, &mut TablePosition), With<SceneOrder>>,
) {
    let Some(at) = cursor.0 else { return };
    if buttons.just_pressed(MouseButton::Left) {
        match *tool {
            Tool::Select => {
                let nearest = tokens
                    .iter()
                    .map(|(e, n, p)| (e, n.as_str().to_string(), p.0.distance(at)))
                    .filter(|(_, _, d)| *d <= PICK_RADIUS)
                    .min_by(|a, b| a.2.total_cmp(&b.2));
                selected.0 = nearest.as_ref().map(|(_, n, _)| n.clone());
                drag.entity = nearest.map(|(e, _, _)| e);
                drag.moved = false;
            }
            Tool::DrawPath => {
                if let Some(name) = &selected.0 {
                    edits.0.push(Edit::AddWaypoint(name.clone(), at));
                }
            }
            place => edits.0.push(Edit::Place(place, at)),
        }
    }
    if buttons.pressed(MouseButton::Left)
        && let Some(e) = drag.entity
        && let Ok((_, _, mut p)) = tokens.get_mut(e)
        && p.0.distance(at) > 0.01
    {
        if !drag.moved {
            // Tokens are dragged where the world is, at the end of the last move: show that.
            playhead.finish();
        }
        p.0 = at;
        drag.moved = true;
    }
    if buttons.just_released(MouseButton::Left)
        && let Some(e) = drag.entity.take()
        && drag.moved
        && let Ok((_, name, p)) = tokens.get(e)
    {
        edits.0.push(Edit::Move(name.as_str().to_string(), p.0));
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
}

/// Apply this frame's edits through the scene, keeping the log and the seed.
fn apply_edits(world: &mut World) {
    let edits = std::mem::take(&mut world.resource_mut::<EditRequest>().0);
    if edits.is_empty() {
        return;
    }
    let Some(mut scene) = snapshot_scene(world) else { return };
    let mut problems = Vec::new();
    for edit in edits {
        if let Err(e) = edit_scene(&mut scene, &edit) {
            problems.push(e);
        }
    }
    let check = crate::scene::load::validate(&scene);
    if !check.is_empty() {
        problems.extend(check.iter().map(|p| p.to_string()));
        world.resource_mut::<CurrentFile>().message = Some(problems.join("\n"));
        return;
    }
    let log = world.resource::<EventLog>().clone();
    let seed = world.resource::<SimDice>().seed;
    super::respawn(world, &scene, seed, Some(log));
    let mut file = world.resource_mut::<CurrentFile>();
    file.dirty = true;
    file.message = (!problems.is_empty()).then(|| problems.join("\n"));
}

fn pt(v: Vec2) -> Point {
    ((v.x * 100.0).round() / 100.0, (v.y * 100.0).round() / 100.0)
}

/// A name not yet used in the scene: "Figure 1", "Figure 2", ...
pub fn fresh_name(scene: &Scene, base: &str) -> String {
    let taken = all_names(scene);
    (1..).map(|i| format!("{base} {i}")).find(|n| !taken.contains(n)).unwrap_or_else(|| base.to_string())
}

fn all_names(scene: &Scene) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    v.extend(scene.figures.iter().map(|e| e.name.clone()));
    v.extend(scene.traps.iter().map(|e| e.name.clone()));
    v.extend(scene.fires.iter().map(|e| e.name.clone()));
    v.extend(scene.herds.iter().map(|e| e.name.clone()));
    v.extend(scene.sleepers.iter().map(|e| e.name.clone()));
    v.extend(scene.terrain.iter().map(|e| e.name.clone()));
    v.extend(scene.walls.iter().map(|e| e.name.clone()));
    v.extend(scene.doors.iter().map(|e| e.name.clone()));
    v.extend(scene.lights.iter().map(|e| e.name.clone()));
    v
}

fn parse_ron<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .map_err(|e| format!("{}:{}: {}", e.span.start.line, e.span.start.col, e.code))
}

fn to_ron<T: serde::Serialize>(value: &T) -> String {
    let config =
        ron::ser::PrettyConfig::new().struct_names(false).extensions(ron::extensions::Extensions::IMPLICIT_SOME);
    ron::ser::to_string_pretty(value, config).unwrap_or_default()
}

/// The named entity as RON text, for the inspector.
pub fn entity_ron(scene: &Scene, name: &str) -> Option<String> {
    macro_rules! find {
        ($($list:ident),*) => {
            $(if let Some(e) = scene.$list.iter().find(|e| e.name == name) { return Some(to_ron(e)); })*
        };
    }
    find!(figures, traps, fires, herds, sleepers);
    None
}

/// Make one edit to the scene.
pub fn edit_scene(scene: &mut Scene, edit: &Edit) -> Result<(), String> {
    macro_rules! with_named {
        ($name:expr, |$e:ident| $body:expr, $($list:ident),*) => {{
            let mut found = false;
            $(if let Some($e) = scene.$list.iter_mut().find(|e| e.name == *$name) { $body; found = true; })*
            if found { Ok(()) } else { Err(format!("no entity is named \"{}\"", $name)) }
        }};
    }
    match edit {
        Edit::Move(name, at) => with_named!(name, |e| e.position = pt(*at), figures, traps, fires, herds, sleepers),
        Edit::AddWaypoint(name, at) => match scene.figures.iter_mut().find(|f| f.name == *name) {
            Some(f) => {
                f.path.push(pt(*at));
                Ok(())
            }
            None => Err(format!("\"{name}\" is not a figure: only figures walk paths")),
        },
        Edit::ClearPath(name) => match scene.figures.iter_mut().find(|f| f.name == *name) {
            Some(f) => {
                f.path.clear();
                Ok(())
            }
            None => Err(format!("\"{name}\" is not a figure")),
        },
        Edit::Delete(name) => {
            let before = all_names(scene).len();
            scene.figures.retain(|e| e.name != *name);
            scene.traps.retain(|e| e.name != *name);
            scene.fires.retain(|e| e.name != *name);
            scene.herds.retain(|e| e.name != *name);
            scene.sleepers.retain(|e| e.name != *name);
            if all_names(scene).len() < before { Ok(()) } else { Err(format!("no entity is named \"{name}\"")) }
        }
        Edit::Place(tool, at) => {
            let (x, y) = pt(*at);
            match tool {
                Tool::PlaceFigure => {
                    let name = fresh_name(scene, "Figure");
                    scene.figures.push(parse_ron(&format!("(name: \"{name}\", position: ({x}, {y}))"))?);
                }
                Tool::PlaceTrap => {
                    let name = fresh_name(scene, "Trap");
                    scene.traps.push(parse_ron(&format!(
                        "(name: \"{name}\", kind: loop, position: ({x}, {y}), side: \"GM\")"
                    ))?);
                }
                Tool::PlaceFire => {
                    let name = fresh_name(scene, "Fire");
                    scene.fires.push(parse_ron(&format!("(name: \"{name}\", position: ({x}, {y}))"))?);
                }
                Tool::PlaceHerd => {
                    let name = fresh_name(scene, "Herd");
                    scene.herds.push(parse_ron(&format!(
                        "(name: \"{name}\", beast: \"cow\", count: 5, position: ({x}, {y}))"
                    ))?);
                }
                Tool::PlaceSleepers => {
                    let name = fresh_name(scene, "Sleepers");
                    scene.sleepers.push(parse_ron(&format!(
                        "(name: \"{name}\", position: ({x}, {y}), members: [\"{name} A\", \"{name} B\"])"
                    ))?);
                }
                Tool::Select | Tool::DrawPath => {}
            }
            Ok(())
        }
        Edit::ReplaceRon(name, text) => {
            macro_rules! replace {
                ($($list:ident),*) => {
                    $(if let Some(i) = scene.$list.iter().position(|e| e.name == *name) {
                        scene.$list[i] = parse_ron(text)?;
                        return Ok(());
                    })*
                };
            }
            replace!(figures, traps, fires, herds, sleepers);
            Err(format!("no entity is named \"{name}\""))
        }
    }
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
