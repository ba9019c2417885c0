//! `--screenshot`: render a few frames, save the primary window as PNG, exit.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, take_screenshot.run_if(resource_exists::<ScreenshotPlan>));
}

/// Frames to wait for the first render, then the file to write.
#[derive(Resource, Debug)]
pub struct ScreenshotPlan {
    path: PathBuf,
    frame: u32,
}

impl ScreenshotPlan {
    pub fn new(path: PathBuf) -> Self {
        // A file left from an earlier run must not count as this run's picture.
        let _ = std::fs::remove_file(&path);
        Self { path, frame: 0 }
    }
}

/// Frames rendered before the capture (software rendering needs a few to settle).
const CAPTURE_AT: u32 = 30;
/// Frames allowed for the capture to be written before exiting.
const EXIT_AT: u32 = 60;

fn take_screenshot(mut commands: Commands, mut plan: ResMut<ScreenshotPlan>, mut exit: MessageWriter<AppExit>) {
    plan.frame += 1;
    if plan.frame == CAPTURE_AT {
        commands.spawn(Screenshot::primary_window()).observe(save_to_disk(plan.path.clone()));
    }
    if plan.frame >= EXIT_AT && plan.path.exists() {
        exit.write(AppExit::Success);
    }
    if plan.frame >= EXIT_AT * 10 {
        error!("screenshot {} was not written", plan.path.display());
        exit.write(AppExit::error());
    }
}
