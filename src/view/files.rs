//! The scene menu: new, open, save (atomic), save as, reload. Unsaved changes are never lost
//! silently: closing, opening or reloading over them asks first. The scene file is watched;
//! an edit on disk offers to reload.

use crate::scene::{self, Scene};
use crate::sim::world::snapshot_scene;
use bevy::prelude::*;
use bevy::window::WindowCloseRequested;
use std::path::PathBuf;
use std::time::SystemTime;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CurrentFile>().init_resource::<FileRequest>();
    app.add_systems(Update, (watch_file, close_requests, apply_file_requests).chain());
}

/// The file the GM is working on.
#[derive(Resource, Debug, Default)]
pub struct CurrentFile {
    pub path: Option<PathBuf>,
    /// The world differs from the file (edits, moves stepped, rewinds).
    pub dirty: bool,
    /// The file's modification time when last read or written.
    mtime: Option<SystemTime>,
    /// The file changed on disk since; the GM is offered a reload.
    pub changed_on_disk: bool,
    since_poll: f32,
    /// The last save, open or reload problem, shown until dismissed.
    pub message: Option<String>,
}

impl CurrentFile {
    pub fn new(path: Option<PathBuf>) -> Self {
        let mtime = path.as_ref().and_then(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
        Self { path, mtime, ..default() }
    }
}

/// Something the GM asked of the scene menu.
#[derive(Debug, Clone, PartialEq)]
pub enum FileAction {
    Save,
    SaveAs(PathBuf),
    Open(PathBuf),
    Reload,
    New { width: f32, height: f32 },
    Quit,
}

/// Actions asked for, and one waiting for the GM to confirm discarding changes.
#[derive(Resource, Debug, Default)]
pub struct FileRequest {
    pub action: Option<FileAction>,
    /// Asked while there were unsaved changes: shown as "save, discard or cancel".
    pub awaiting_confirmation: Option<FileAction>,
    /// Confirmed: go ahead even though changes will be lost.
    pub confirmed: bool,
}

fn destroys_changes(action: &FileAction) -> bool {
    matches!(action, FileAction::Open(_) | FileAction::Reload | FileAction::New { .. } | FileAction::Quit)
}

fn watch_file(time: Res<Time>, mut file: ResMut<CurrentFile>) {
    file.since_poll += time.delta_secs();
    if file.since_poll < 1.0 {
        return;
    }
    file.since_poll = 0.0;
    let Some(path) = &file.path else { return };
    let now = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    if now.is_some() && now != file.mtime {
        file.changed_on_disk = true;
    }
}

fn close_requests(
    mut closes: MessageReader<WindowCloseRequested>,
    primary: Query<Entity, With<bevy::window::PrimaryWindow>>,
    mut request: ResMut<FileRequest>,
    mut projector: ResMut<super::camera::Projector>,
) {
    for close in closes.read() {
        if primary.contains(close.window) {
            request.action = Some(FileAction::Quit);
        } else {
            // The projector window: just close it.
            projector.open = false;
        }
    }
}

fn apply_file_requests(world: &mut World) {
    let action = {
        let mut r = world.resource_mut::<FileRequest>();
        let Some(action) = r.action.take() else { return };
        let confirmed = std::mem::take(&mut r.confirmed);
        if destroys_changes(&action) && world.resource::<CurrentFile>().dirty && !confirmed {
            world.resource_mut::<FileRequest>().awaiting_confirmation = Some(action);
            return;
        }
        action
    };
    let result = match action {
        FileAction::Save => match world.resource::<CurrentFile>().path.clone() {
            Some(path) => save_to(world, path),
            None => Err("this scene has no file yet: use Save as".into()),
        },
        FileAction::SaveAs(path) => save_to(world, path),
        FileAction::Open(path) => open(world, path),
        FileAction::Reload => match world.resource::<CurrentFile>().path.clone() {
            Some(path) => open(world, path),
            None => Err("this scene has no file to reload".into()),
        },
        FileAction::New { width, height } => {
            let text = format!("(version: 1, table: (width: {width}, height: {height}))");
            match scene::parse_scene(&text, std::path::Path::new("<new scene>")) {
                Ok(s) => {
                    replace_world(world, &s, None);
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            }
        }
        FileAction::Quit => {
            world.write_message(AppExit::Success);
            Ok(())
        }
    };
    world.resource_mut::<CurrentFile>().message = result.err();
}

fn save_to(world: &mut World, path: PathBuf) -> Result<(), String> {
    let scene = snapshot_scene(world).ok_or("nothing to save")?;
    scene::save_scene(&scene, &path).map_err(|e| e.to_string())?;
    let mut file = world.resource_mut::<CurrentFile>();
    file.mtime = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
    file.path = Some(path);
    file.dirty = false;
    file.changed_on_disk = false;
    Ok(())
}

fn open(world: &mut World, path: PathBuf) -> Result<(), String> {
    let scene = scene::load_scene(&path).map_err(|e| e.to_string())?;
    replace_world(world, &scene, Some(path));
    Ok(())
}

/// Put a new scene in the world: fresh log, fresh history.
fn replace_world(world: &mut World, scene: &Scene, path: Option<PathBuf>) {
    super::respawn(world, scene, scene.seed, None);
    world.resource_mut::<super::history::History>().snapshots.clear();
    *world.resource_mut::<CurrentFile>() = CurrentFile::new(path);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::testing::{app_with_scene, scene_from_str};
    use crate::sim::{EventLog, MoveClock};

    fn app() -> App {
        let scene = scene_from_str(
            "(version: 1, table: (width: 40, height: 10), figures: [(name: \"Walker\", position: (1, 5), path: [(39, 5)])])",
        );
        let mut app = app_with_scene(&scene, 3);
        app.init_resource::<super::super::history::History>()
            .init_resource::<super::super::SceneGeneration>()
            .init_resource::<FileRequest>()
            .insert_resource(CurrentFile::default());
        app
    }

    fn request(world: &mut World, action: FileAction) {
        world.resource_mut::<FileRequest>().action = Some(action);
        apply_file_requests(world);
    }

    #[test]
    fn save_then_reload_gives_back_the_saved_world() {
        let dir = std::env::temp_dir().join(format!("tabula-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("saved.ron");
        let mut app = app();
        let world = app.world_mut();
        super::super::history::step(world);
        world.resource_mut::<CurrentFile>().dirty = true;
        request(world, FileAction::SaveAs(path.clone()));
        assert_eq!(world.resource::<CurrentFile>().message, None);
        assert!(!world.resource::<CurrentFile>().dirty);
        let saved = std::fs::read_to_string(&path).unwrap();
        assert!(saved.contains("moves_played: 1"), "{saved}");
        // Play on, then reload without saving: the GM is asked first.
        super::super::history::step(world);
        world.resource_mut::<CurrentFile>().dirty = true;
        request(world, FileAction::Reload);
        assert_eq!(world.resource::<FileRequest>().awaiting_confirmation, Some(FileAction::Reload));
        assert_eq!(world.resource::<MoveClock>().move_number, 2, "nothing was lost while asking");
        // Discard: the saved world comes back.
        {
            let mut r = world.resource_mut::<FileRequest>();
            r.awaiting_confirmation = None;
            r.confirmed = true;
        }
        request(world, FileAction::Reload);
        assert_eq!(world.resource::<MoveClock>().move_number, 1);
        assert!(world.resource::<EventLog>().events.is_empty(), "a reloaded scene starts a fresh log");
        assert!(!world.resource::<CurrentFile>().dirty);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn saving_without_a_path_says_so_and_quit_with_changes_asks() {
        let mut app = app();
        let world = app.world_mut();
        request(world, FileAction::Save);
        assert!(world.resource::<CurrentFile>().message.as_deref().unwrap_or("").contains("Save as"));
        world.resource_mut::<CurrentFile>().dirty = true;
        request(world, FileAction::Quit);
        assert_eq!(world.resource::<FileRequest>().awaiting_confirmation, Some(FileAction::Quit));
    }
}
