//! Undo and redo in the GM view: Ctrl+Z takes back the last edit, Ctrl+Shift+Z or Ctrl+Y
//! makes it again (not while a text field has the keyboard), and the menu bar's Undo and Redo
//! buttons show how many steps there are. The steps are the document's
//! (crate::document::undo): every edit made through it, apart from the moves, which have their
//! own rewind. Whatever the left mouse button does while held down (a drag, a brush stroke) is
//! one step.

use super::editing::Selected;
use super::panels::PanelState;
use super::playhead::Playhead;
use crate::document::{self, EditHistory};
use crate::sim::world::SceneOrder;
use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<UndoRequest>();
    app.add_systems(PreUpdate, begin_gesture.after(bevy::input::InputSystems).run_if(super::is_gm_view));
    app.add_systems(
        Update,
        (undo_keys.run_if(super::is_gm_view).run_if(not(egui_wants_any_keyboard_input)), apply_undo_requests).chain(),
    );
    app.add_systems(Last, end_gesture);
}

/// Undo and redo steps asked for this frame (the keys, the menu bar's buttons).
#[derive(Resource, Debug, Default)]
pub struct UndoRequest {
    /// Edits to take back.
    pub undo: u32,
    /// Edits taken back to make again.
    pub redo: u32,
}

/// Most steps taken in one frame.
const MAX_STEPS_A_FRAME: u32 = 20;

/// The left button went down: what it does until it is let go is one step.
pub(super) fn begin_gesture(buttons: Res<ButtonInput<MouseButton>>, mut edits: ResMut<EditHistory>) {
    if buttons.just_pressed(MouseButton::Left) && !edits.grouping() {
        edits.begin_group();
    }
}

/// After the frame's edits: the button is up, so the gesture's changes become one step.
fn end_gesture(world: &mut World) {
    let held = world.get_resource::<ButtonInput<MouseButton>>().is_some_and(|b| b.pressed(MouseButton::Left));
    if !held && world.get_resource::<EditHistory>().is_some_and(|h| h.grouping()) {
        document::end_group(world);
    }
}

fn undo_keys(keys: Res<ButtonInput<KeyCode>>, mut request: ResMut<UndoRequest>) {
    if !keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]) {
        return;
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if keys.just_pressed(KeyCode::KeyZ) {
        if shift {
            request.redo += 1;
        } else {
            request.undo += 1;
        }
    }
    if keys.just_pressed(KeyCode::KeyY) {
        request.redo += 1;
    }
}

/// Have the document take the steps asked for; the picture shows the world at once, and the
/// inspector reads its entity again (or lets go of one that is gone).
fn apply_undo_requests(world: &mut World) {
    let (undo, redo) = {
        let Some(mut request) = world.get_resource_mut::<UndoRequest>() else { return };
        if request.undo == 0 && request.redo == 0 {
            return;
        }
        (std::mem::take(&mut request.undo), std::mem::take(&mut request.redo))
    };
    let mut changed = false;
    for _ in 0..undo.min(MAX_STEPS_A_FRAME) {
        if !document::undo(world) {
            break;
        }
        changed = true;
    }
    for _ in 0..redo.min(MAX_STEPS_A_FRAME) {
        if !document::redo(world) {
            break;
        }
        changed = true;
    }
    if !changed {
        return;
    }
    if let Some(mut playhead) = world.get_resource_mut::<Playhead>() {
        playhead.finish();
    }
    if let Some(mut panels) = world.get_resource_mut::<PanelState>() {
        panels.refresh_inspector();
    }
    let selected = world.get_resource::<Selected>().and_then(|s| s.0.clone());
    if let Some(name) = selected {
        let kept = world.query_filtered::<&Name, With<SceneOrder>>().iter(world).any(|n| n.as_str() == name);
        if !kept {
            world.resource_mut::<Selected>().0 = None;
        }
    }
}
