//! Edits to the scene: place, move, delete, draw a path, replace an entity's text, set its
//! picture. Every edit goes through the scene (snapshot, change, respawn), so each domain's
//! entities are rebuilt by its own spawn code, and the dice log and seed are kept. The GM's fog edits ([`edit_fog`])
//! change the world's explored fog and the fog's switch directly. Each is an undo step
//! ([`super::undo`](mod@super::undo)), whatever it changed.

use crate::scene::{Herd, Point, Scene, Table};
use crate::sim::sight::ExploredFog;
use crate::sim::world::snapshot_scene;
use crate::sim::{EventLog, SimDice};
use bevy::prelude::*;

/// What may be placed on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placeable {
    /// A figure.
    Figure,
    /// A trap.
    Trap,
    /// A fire.
    Fire,
    /// A herd.
    Herd,
    /// A group of sleepers.
    Sleepers,
}

/// One change to the scene.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// A new entity of this kind here, with a fresh name.
    Place(Placeable, Vec2),
    /// The named entity to here; a herd's beasts move with it.
    Move(String, Vec2),
    /// Add this point to the end of the named figure's path.
    AddWaypoint(String, Vec2),
    /// Clear the named figure's path.
    ClearPath(String),
    /// Remove the named entity (a figure, trap, fire, herd or sleepers).
    Delete(String),
    /// Replace the named entity with this RON text (the inspector's editor).
    ReplaceRon(String, String),
    /// Set whether the projector shows the named figure, trap, fire or herd: none leaves it to
    /// the automatic rules, `Some(true)` always, `Some(false)` never (its `show_players`).
    ShowPlayers(String, Option<bool>),
    /// Set the picture of the named figure, herd or trap (its `picture`, a file beside the
    /// scene or under `assets/`); none clears it (the default face, or no picture on a trap).
    SetPicture(String, Option<String>),
}

/// Make `edits` to the world's scene and rebuild the world once, keeping the dice log (moved
/// out and back, never copied) and the seed. An edit that cannot be made is skipped and named
/// in the error; if the edited scene would not load, nothing changes. What changed is one undo
/// step ([`super::undo()`]), or part of the gesture's under way.
pub fn apply_edits(world: &mut World, edits: &[Edit]) -> Result<(), String> {
    if edits.is_empty() {
        return Ok(());
    }
    let Some(mut scene) = snapshot_scene(world) else { return Ok(()) };
    let began = super::undo::note_before(world, Some(&scene));
    let mut problems = Vec::new();
    for edit in edits {
        if let Err(e) = edit_scene(&mut scene, edit) {
            problems.push(e);
        }
    }
    let check = crate::scene::load::validate(&scene);
    if !check.is_empty() {
        super::undo::note_after(world, began, false);
        problems.extend(check.iter().map(|p| p.to_string()));
        return Err(problems.join("\n"));
    }
    let log = world.remove_resource::<EventLog>();
    let seed = world.resource::<SimDice>().seed;
    super::respawn(world, &scene, seed, log);
    super::mark_dirty(world);
    super::undo::note_after(world, began, true);
    if problems.is_empty() { Ok(()) } else { Err(problems.join("\n")) }
}

/// A change the GM makes to the fog of war by hand (the Fog panel's switch, brush, rectangle
/// and reset).
#[derive(Debug, Clone, PartialEq)]
pub enum FogEdit {
    /// The fog of war switched on or off for the projector (saved in the scene's `fog`).
    Switch {
        /// On (the projector shows the fog) or off.
        on: bool,
    },
    /// The cells whose centre lies within `radius` inches of `centre` explored, or not.
    Disc {
        /// The brush's centre, table inches.
        centre: Vec2,
        /// The brush's radius, inches.
        radius: f32,
        /// Explored (revealed) or not (hidden).
        explored: bool,
    },
    /// The cells whose centre lies in the rectangle between two corners explored, or not.
    Rect {
        /// One corner, table inches.
        from: Vec2,
        /// The opposite corner.
        to: Vec2,
        /// Explored (revealed) or not (hidden).
        explored: bool,
    },
    /// Nothing explored any more.
    Reset,
}

/// Make `edit` to the world's explored fog or its switch ([`ExploredFog`]); whether anything
/// changed (the document is marked unsaved then). Unlike the edits above it rebuilds nothing:
/// only the Sight set and the view read the fog. It is kept as any change between moves is: the
/// world's fog is what the scene saves (`fog`, written by the snapshot) and what the edits above
/// rebuild from, and the history's snapshots before each move hold it, so rewinding to a move
/// before the edit undoes it (the switch too). A change is an undo step of its own too
/// ([`super::undo()`]; a brush stroke, one gesture, is one step).
pub fn edit_fog(world: &mut World, edit: &FogEdit) -> bool {
    if !world.contains_resource::<ExploredFog>() {
        return false;
    }
    let began = super::undo::note_before(world, None);
    let changed = change_fog(world, edit);
    if changed {
        super::mark_dirty(world);
    }
    super::undo::note_after(world, began, changed);
    changed
}

/// Make `edit` to the explored fog or its switch; whether anything changed.
fn change_fog(world: &mut World, edit: &FogEdit) -> bool {
    let Some(mut fog) = world.get_resource_mut::<ExploredFog>() else { return false };
    if let FogEdit::Switch { on } = *edit {
        let changed = fog.is_on() != on;
        if changed {
            fog.set_on(on);
        }
        changed
    } else {
        let before = fog.bits().to_vec();
        // Changed only if a cell changed: the projector's picture is redrawn on a change.
        let cells = fog.bypass_change_detection();
        match *edit {
            FogEdit::Disc { centre, radius, explored } => cells.set_disc(centre, radius, explored),
            FogEdit::Rect { from, to, explored } => cells.set_rect(from, to, explored),
            FogEdit::Reset => cells.clear(),
            FogEdit::Switch { .. } => {}
        }
        let changed = cells.bits() != before.as_slice();
        if changed {
            fog.set_changed();
        }
        changed
    }
}

/// A point rounded to a hundredth of an inch, as edits write them.
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
    v.extend(scene.objectives.iter().map(|e| e.name.clone()));
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

/// Move a herd's centre to `to` and every beast by the same offset, each kept on the table. A
/// herd still laid out around its centre stays so unless that would reach off the table.
fn move_herd(herd: &mut Herd, to: Point, table: Table) {
    let (dx, dy) = (to.0 - herd.position.0, to.1 - herd.position.1);
    let on_table = |p: Point| (p.0.clamp(0.0, table.width), p.1.clamp(0.0, table.height));
    let laid_out = herd.beasts.is_empty();
    let moved: Vec<Point> = herd.beast_positions().into_iter().map(|(x, y)| (x + dx, y + dy)).collect();
    let kept: Vec<Point> = moved.iter().copied().map(on_table).collect();
    herd.position = to;
    if !laid_out || kept != moved {
        herd.beasts = kept;
    }
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
        Edit::Move(name, at) => {
            let table = scene.table;
            if let Some(herd) = scene.herds.iter_mut().find(|h| h.name == *name) {
                move_herd(herd, pt(*at), table);
                return Ok(());
            }
            with_named!(name, |e| e.position = pt(*at), figures, traps, fires, sleepers)
        }
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
        Edit::Place(kind, at) => {
            let (x, y) = pt(*at);
            match kind {
                Placeable::Figure => {
                    let name = fresh_name(scene, "Figure");
                    scene.figures.push(parse_ron(&format!("(name: \"{name}\", position: ({x}, {y}))"))?);
                }
                Placeable::Trap => {
                    let name = fresh_name(scene, "Trap");
                    scene.traps.push(parse_ron(&format!(
                        "(name: \"{name}\", kind: loop, position: ({x}, {y}), side: \"GM\")"
                    ))?);
                }
                Placeable::Fire => {
                    let name = fresh_name(scene, "Fire");
                    scene.fires.push(parse_ron(&format!("(name: \"{name}\", position: ({x}, {y}))"))?);
                }
                Placeable::Herd => {
                    let name = fresh_name(scene, "Herd");
                    scene
                        .herds
                        .push(parse_ron(&format!("(name: \"{name}\", beast: cow, count: 5, position: ({x}, {y}))"))?);
                }
                Placeable::Sleepers => {
                    let name = fresh_name(scene, "Sleepers");
                    scene.sleepers.push(parse_ron(&format!(
                        "(name: \"{name}\", position: ({x}, {y}), members: [\"{name} A\", \"{name} B\"])"
                    ))?);
                }
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
        Edit::ShowPlayers(name, setting) => {
            if scene.sleepers.iter().any(|g| g.name == *name) {
                let kinds = "only figures, traps, fires and herds are shown or not";
                return Err(format!("\"{name}\" is a sleeping group: {kinds}"));
            }
            with_named!(name, |e| e.show_players = *setting, figures, traps, fires, herds)
        }
        Edit::SetPicture(name, picture) => {
            if scene.fires.iter().any(|e| e.name == *name) || scene.sleepers.iter().any(|e| e.name == *name) {
                return Err(format!("\"{name}\" has no picture: only figures, herds and traps show one"));
            }
            with_named!(name, |e| e.picture = picture.clone(), figures, traps, herds)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::{app_with_scene, scene_from_str};

    const HERD: &str = "(version: 1, table: (width: 20, height: 10), herds: [(name: \"Cows\", beast: cow, \
                        count: 3, position: (10, 5), beasts: [(10, 5), (11, 5), (12, 6)])])";

    #[test]
    fn dragging_a_herd_moves_its_beasts_and_keeps_them_on_the_table() {
        let mut scene = scene_from_str(HERD);
        edit_scene(&mut scene, &Edit::Move("Cows".into(), Vec2::new(5.0, 3.0))).unwrap();
        let herd = &scene.herds[0];
        assert_eq!(herd.position, (5.0, 3.0));
        assert_eq!(herd.beasts, vec![(5.0, 3.0), (6.0, 3.0), (7.0, 4.0)]);
        // To the table's edge: beasts that would go over it stay on it.
        edit_scene(&mut scene, &Edit::Move("Cows".into(), Vec2::new(19.0, 9.0))).unwrap();
        let herd = &scene.herds[0];
        assert_eq!(herd.beasts, vec![(19.0, 9.0), (20.0, 9.0), (20.0, 10.0)]);
        assert!(crate::scene::load::validate(&scene).is_empty());
        // A laid-out herd stays laid out around its new centre.
        let mut laid_out = scene_from_str(
            "(version: 1, table: (width: 20, height: 10), herds: [(name: \"Cows\", beast: cow, count: 3, position: (10, 5))])",
        );
        edit_scene(&mut laid_out, &Edit::Move("Cows".into(), Vec2::new(8.0, 5.0))).unwrap();
        assert!(laid_out.herds[0].beasts.is_empty());
        assert_eq!(laid_out.herds[0].position, (8.0, 5.0));
    }

    #[test]
    fn a_herd_dragged_in_the_world_takes_its_beasts_and_the_log_stays() {
        let scene = scene_from_str(
            "(version: 1, table: (width: 40, height: 20), figures: [(name: \"Walker\", position: (1, 2), \
             path: [(39, 2)])], herds: [(name: \"Cows\", beast: cow, count: 3, position: (20, 10), \
             beasts: [(20, 10), (21, 10), (22, 11)])])",
        );
        let mut app = app_with_scene(&scene, 3);
        app.add_plugins(super::super::plugin);
        let world = app.world_mut();
        super::super::step(world);
        let log = world.resource::<EventLog>().to_json_lines();
        let before = snapshot_scene(world).unwrap().herds[0].clone();
        let to = Vec2::new(before.position.0 - 2.0, before.position.1 + 1.0);
        apply_edits(world, &[Edit::Move("Cows".into(), to)]).unwrap();
        let after = snapshot_scene(world).unwrap().herds[0].clone();
        assert_eq!(after.position, pt(to));
        let (dx, dy) = (after.position.0 - before.position.0, after.position.1 - before.position.1);
        for (b, a) in before.beast_positions().iter().zip(after.beast_positions()) {
            assert!((b.0 + dx - a.0).abs() < 1e-4 && (b.1 + dy - a.1).abs() < 1e-4, "{b:?} moved to {a:?}");
        }
        assert_eq!(world.resource::<EventLog>().to_json_lines(), log, "an edit keeps the log");
        assert!(world.resource::<super::super::Document>().dirty);
        // An edit that would not load changes nothing.
        let err = apply_edits(world, &[Edit::Move("Walker".into(), Vec2::new(50.0, 5.0))]).unwrap_err();
        assert!(err.contains("off the"), "{err}");
        assert_eq!(snapshot_scene(world).unwrap().herds[0], after);
    }

    #[test]
    fn fog_edits_change_the_explored_cells_and_the_scene_keeps_them() {
        fn explored(world: &World) -> usize {
            world.resource::<ExploredFog>().explored_cells()
        }
        fn dirty(world: &World) -> bool {
            world.resource::<super::super::Document>().dirty
        }
        let mut app = super::super::walker_app();
        let world = app.world_mut();
        assert_eq!(explored(world), 0, "nothing explored before a move");
        assert!(!edit_fog(world, &FogEdit::Reset), "nothing to reset");
        assert!(!dirty(world), "an edit that changes nothing leaves the document as it was");
        // 0.5" cells: centres 20.25 to 24.75 across, 0.25 to 9.75 up.
        let rect = FogEdit::Rect { from: Vec2::new(25.0, 10.0), to: Vec2::new(20.0, 0.0), explored: true };
        assert!(edit_fog(world, &rect));
        assert_eq!(explored(world), 10 * 20);
        assert!(dirty(world));
        assert!(!edit_fog(world, &rect), "revealed already");
        assert!(snapshot_scene(world).unwrap().fog.is_some(), "the scene saves it");
        // An edit rebuilds the world from the scene: the fog stays.
        apply_edits(world, &[Edit::Move("Walker".into(), Vec2::new(2.0, 5.0))]).unwrap();
        assert_eq!(explored(world), 200);
        let hide = FogEdit::Disc { centre: Vec2::new(22.5, 5.0), radius: 0.5, explored: false };
        assert!(edit_fog(world, &hide));
        // Centres within 0.5" of (22.5, 5): (22.25 or 22.75, 4.75 or 5.25).
        assert_eq!(explored(world), 196);
        assert!(edit_fog(world, &FogEdit::Reset));
        assert_eq!(explored(world), 0);
        assert_eq!(snapshot_scene(world).unwrap().fog, None);
    }

    #[test]
    fn the_fog_switch_is_an_edit_the_scene_keeps() {
        fn on(world: &World) -> bool {
            world.resource::<ExploredFog>().is_on()
        }
        let mut app = super::super::walker_app();
        let world = app.world_mut();
        assert!(!on(world), "off by default");
        assert!(!edit_fog(world, &FogEdit::Switch { on: false }), "off already");
        assert!(!world.resource::<super::super::Document>().dirty);
        assert!(edit_fog(world, &FogEdit::Switch { on: true }));
        assert!(on(world) && world.resource::<super::super::Document>().dirty);
        let saved = snapshot_scene(world).unwrap().fog.expect("the switch is saved with nothing explored");
        assert!(saved.on);
        assert_eq!(world.resource::<ExploredFog>().explored_cells(), 0, "the switch reveals nothing");
        // An edit rebuilds the world from the scene: the switch stays; a reset leaves it on.
        apply_edits(world, &[Edit::Move("Walker".into(), Vec2::new(2.0, 5.0))]).unwrap();
        assert!(on(world));
        edit_fog(world, &FogEdit::Reset);
        assert!(on(world));
        assert!(edit_fog(world, &FogEdit::Switch { on: false }));
        assert!(!on(world));
        assert_eq!(snapshot_scene(world).unwrap().fog, None, "off and nothing explored: nothing saved");
    }

    #[test]
    fn the_gm_shows_or_hides_an_entity_from_the_players_and_the_scene_keeps_it() {
        let scene = scene_from_str(
            "(version: 1, table: (width: 20, height: 10), \
             figures: [(name: \"Ann\", position: (1, 1))], \
             traps: [(name: \"Pit\", kind: pit(depth: 1, bottom: spiked), position: (5, 5))], \
             fires: [(name: \"Camp\", position: (8, 8))], \
             herds: [(name: \"Cows\", beast: cow, count: 2, position: (12, 5))], \
             sleepers: [(name: \"Guards\", position: (15, 5), members: [\"G1\"])])",
        );
        let mut app = app_with_scene(&scene, 3);
        app.add_plugins(super::super::plugin);
        let world = app.world_mut();
        let edits = [
            Edit::ShowPlayers("Ann".into(), Some(false)),
            Edit::ShowPlayers("Pit".into(), Some(true)),
            Edit::ShowPlayers("Camp".into(), Some(false)),
            Edit::ShowPlayers("Cows".into(), Some(true)),
        ];
        apply_edits(world, &edits).unwrap();
        assert!(world.resource::<super::super::Document>().dirty);
        let saved = snapshot_scene(world).unwrap();
        assert_eq!(saved.figures[0].show_players, Some(false));
        assert_eq!(saved.traps[0].show_players, Some(true));
        assert_eq!(saved.fires[0].show_players, Some(false));
        assert_eq!(saved.herds[0].show_players, Some(true));
        // The world holds it too (the view reads it there).
        let mut figures = world.query::<&crate::sim::world::Figure>();
        assert_eq!(figures.iter(world).next().map(|f| f.0.show_players), Some(Some(false)));
        // Back to automatic: nothing is written for it.
        apply_edits(world, &[Edit::ShowPlayers("Ann".into(), None)]).unwrap();
        let saved = snapshot_scene(world).unwrap();
        assert_eq!(saved.figures[0].show_players, None);
        let text = crate::scene::scene_to_ron(&saved).unwrap();
        assert_eq!(text.matches("show_players").count(), 3, "{text}");
        // Sleepers and unknown names have nothing to set; nothing changes.
        let err = apply_edits(world, &[Edit::ShowPlayers("Guards".into(), Some(true))]).unwrap_err();
        assert!(err.contains("sleeping group"), "{err}");
        let err = apply_edits(world, &[Edit::ShowPlayers("Nobody".into(), Some(true))]).unwrap_err();
        assert!(err.contains("no entity is named"), "{err}");
        let settings = |s: &Scene| {
            (s.figures[0].show_players, s.traps[0].show_players, s.fires[0].show_players, s.herds[0].show_players)
        };
        assert_eq!(settings(&snapshot_scene(world).unwrap()), settings(&saved));
        assert_eq!(settings(&saved), (None, Some(true), Some(false), Some(true)));
    }

    /// A picture set on a figure, a herd and a trap is saved with the scene; an empty one is
    /// refused (nothing changes), a fire has none; each change is one undo step back.
    #[test]
    fn the_gm_sets_and_clears_a_picture_and_undo_takes_it_back() {
        let scene = scene_from_str(
            "(version: 1, table: (width: 20, height: 10), \
             figures: [(name: \"Ann\", position: (1, 1), picture: \"ann.png\")], \
             traps: [(name: \"Pit\", kind: pit(depth: 1, bottom: spiked), position: (5, 5))], \
             fires: [(name: \"Camp\", position: (8, 8))], \
             herds: [(name: \"Cows\", beast: cow, count: 2, position: (12, 5))])",
        );
        let mut app = app_with_scene(&scene, 3);
        app.add_plugins(super::super::plugin);
        let world = app.world_mut();
        let pictures = |world: &mut World| {
            let s = snapshot_scene(world).unwrap();
            (s.figures[0].picture.clone(), s.traps[0].picture.clone(), s.herds[0].picture.clone())
        };
        let set = |name: &str, picture: Option<&str>| Edit::SetPicture(name.into(), picture.map(str::to_string));
        apply_edits(world, &[set("Pit", Some("art/pit.webp"))]).unwrap();
        apply_edits(world, &[set("Cows", Some("tokens/default-beast.png"))]).unwrap();
        apply_edits(world, &[set("Ann", None)]).unwrap();
        assert!(world.resource::<super::super::Document>().dirty);
        let all_set = (None, Some("art/pit.webp".to_string()), Some("tokens/default-beast.png".to_string()));
        assert_eq!(pictures(world), all_set);
        // The world holds it too: the tokens read it there.
        let mut traps = world.query::<&crate::sim::traps::Trap>();
        assert_eq!(traps.iter(world).next().and_then(|t| t.0.picture.clone()).as_deref(), Some("art/pit.webp"));
        // A path the scene format refuses, or an entity with no picture: refused, nothing changes.
        let err = apply_edits(world, &[set("Ann", Some("../ann.png"))]).unwrap_err();
        assert!(err.contains("picture") && err.contains("climb out"), "{err}");
        let err = apply_edits(world, &[set("Camp", Some("fire.png"))]).unwrap_err();
        assert!(err.contains("has no picture"), "{err}");
        assert_eq!(pictures(world), all_set);
        // Undo, step by step: Ann's picture back, then the herd's and the trap's gone.
        assert!(super::super::undo(world));
        assert_eq!(pictures(world).0.as_deref(), Some("ann.png"));
        assert!(super::super::undo(world));
        assert_eq!(pictures(world).2, None);
        assert!(super::super::undo(world));
        assert_eq!(pictures(world), (Some("ann.png".to_string()), None, None));
        assert!(super::super::redo(world));
        assert_eq!(pictures(world).1.as_deref(), Some("art/pit.webp"));
    }

    #[test]
    fn placing_names_things_freshly() {
        let mut scene = scene_from_str(HERD);
        edit_scene(&mut scene, &Edit::Place(Placeable::Figure, Vec2::new(3.0, 3.0))).unwrap();
        edit_scene(&mut scene, &Edit::Place(Placeable::Figure, Vec2::new(4.0, 3.0))).unwrap();
        assert_eq!(fresh_name(&scene, "Figure"), "Figure 3");
        assert!(entity_ron(&scene, "Figure 2").unwrap().contains("\"Figure 2\""));
        assert!(edit_scene(&mut scene, &Edit::Delete("nobody".into())).is_err());
    }
}
