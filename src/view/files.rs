//! The scene menu: new, open (a scene or a map), save (atomic), save as, reload; the work is
//! the document's (crate::document::file). Unsaved changes are never lost silently: closing,
//! opening or reloading over them asks first. The file is watched; a change on disk offers to
//! reload.

use crate::document::{self, Document};
use bevy::prelude::*;
use bevy::window::WindowCloseRequested;
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FileRequest>();
    app.add_systems(Update, (watch_file, close_requests, apply_file_requests).chain());
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

/// Once a second, have the document look at its file on disk.
fn watch_file(time: Res<Time>, mut since_poll: Local<f32>, mut document: ResMut<Document>) {
    *since_poll += time.delta_secs();
    if *since_poll < 1.0 {
        return;
    }
    *since_poll = 0.0;
    if document.path.is_some() && !document.changed_on_disk {
        document.poll_disk();
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
        if destroys_changes(&action) && world.resource::<Document>().dirty && !confirmed {
            world.resource_mut::<FileRequest>().awaiting_confirmation = Some(action);
            return;
        }
        action
    };
    // Cleared first: an action may leave a note of its own (what Save as could not copy).
    world.resource_mut::<Document>().message = None;
    let result = match action {
        FileAction::Save => document::save(world, None),
        FileAction::SaveAs(path) => document::save(world, Some(path)),
        FileAction::Open(path) => document::open(world, &path),
        FileAction::Reload => document::reload(world),
        FileAction::New { width, height } => document::new_scene(world, width, height),
        FileAction::Quit => {
            world.write_message(AppExit::Success);
            Ok(())
        }
    };
    if let Err(e) = result {
        world.resource_mut::<Document>().message = Some(e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{EventLog, MoveClock};

    fn app() -> App {
        let mut app = crate::document::walker_app();
        app.init_resource::<FileRequest>();
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
        document::step(world);
        assert!(world.resource::<Document>().dirty);
        request(world, FileAction::SaveAs(path.clone()));
        assert_eq!(world.resource::<Document>().message, None);
        assert!(!world.resource::<Document>().dirty);
        let saved = std::fs::read_to_string(&path).unwrap();
        assert!(saved.contains("moves_played: 1"), "{saved}");
        // Play on, then reload without saving: the GM is asked first.
        document::step(world);
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
        assert!(!world.resource::<Document>().dirty);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn saving_without_a_path_says_so_and_quit_with_changes_asks() {
        let mut app = app();
        let world = app.world_mut();
        request(world, FileAction::Save);
        assert!(world.resource::<Document>().message.as_deref().unwrap_or("").contains("Save as"));
        world.resource_mut::<Document>().dirty = true;
        request(world, FileAction::Quit);
        assert_eq!(world.resource::<FileRequest>().awaiting_confirmation, Some(FileAction::Quit));
    }
}
