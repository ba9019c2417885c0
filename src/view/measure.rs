//! `--measure-frames N`: time the main world's work each frame (everything from `First` to
//! `Last`, not the render world) as a Bevy diagnostic, print its mean, 95th percentile and
//! worst with the whole frame time from Bevy's `FrameTimeDiagnosticsPlugin`, and exit.

use bevy::app::{First, Last};
use bevy::diagnostic::{
    Diagnostic, DiagnosticPath, Diagnostics, DiagnosticsStore, FrameTimeDiagnosticsPlugin, RegisterDiagnostic,
};
use bevy::prelude::*;
use std::time::Instant;

/// Milliseconds of main-world work per frame.
pub const MAIN_WORLD_MS: DiagnosticPath = DiagnosticPath::const_new("tabula/main_world_ms");

pub(super) fn plugin(app: &mut App) {
    app.add_systems(First, start_frame.run_if(resource_exists::<FrameTimes>));
    app.add_systems(Last, end_frame.run_if(resource_exists::<FrameTimes>));
}

/// Turn measuring on for `frames` frames.
pub fn enable(app: &mut App, frames: u32) {
    let frames = frames.max(1);
    app.add_plugins(FrameTimeDiagnosticsPlugin { max_history_length: frames as usize, smoothing_factor: 0.0 })
        .register_diagnostic(Diagnostic::new(MAIN_WORLD_MS).with_suffix(" ms").with_max_history_length(frames as usize))
        .insert_resource(FrameTimes::new(frames));
}

/// Frames to render before measuring (shaders, first uploads).
const WARM_UP: u32 = 30;

#[derive(Resource, Debug)]
pub struct FrameTimes {
    frames: u32,
    wanted: u32,
    measured: u32,
    started: Option<Instant>,
    /// Times of frames that resolved a move, and of the others (animating or still).
    stepping: Vec<f64>,
    other: Vec<f64>,
}

impl FrameTimes {
    pub fn new(wanted: u32) -> Self {
        Self { frames: 0, wanted, measured: 0, started: None, stepping: Vec::new(), other: Vec::new() }
    }
}

fn start_frame(mut times: ResMut<FrameTimes>) {
    times.started = Some(Instant::now());
}

fn end_frame(
    mut times: ResMut<FrameTimes>,
    clock: Res<crate::sim::MoveClock>,
    mut diagnostics: Diagnostics,
    store: Res<DiagnosticsStore>,
    mut exit: MessageWriter<AppExit>,
) {
    times.frames += 1;
    if let Some(start) = times.started.take()
        && times.frames > WARM_UP
    {
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        diagnostics.add_measurement(&MAIN_WORLD_MS, || ms);
        times.measured += 1;
        if times.measured <= times.wanted {
            if clock.is_changed() { times.stepping.push(ms) } else { times.other.push(ms) }
        }
    }
    // Measurements are stored at the end of the system: the last one is read a frame later.
    if times.measured <= times.wanted {
        return;
    }
    let Some(main) = store.get(&MAIN_WORLD_MS) else { return };
    let mut s: Vec<f64> = main.values().copied().collect();
    if s.is_empty() {
        return;
    }
    s.sort_by(f64::total_cmp);
    let mean = s.iter().sum::<f64>() / s.len() as f64;
    let p95 = s[((s.len() - 1) as f64 * 0.95) as usize];
    let worst = s[s.len() - 1];
    println!("main-world frame time over {} frames: mean {mean:.2} ms, p95 {p95:.2} ms, worst {worst:.2} ms", s.len());
    for (what, samples) in [("resolving a move", &times.stepping), ("not resolving a move", &times.other)] {
        if let Some((mean, p95, worst)) = summary(samples) {
            println!("  {} frames {what}: mean {mean:.2} ms, p95 {p95:.2} ms, worst {worst:.2} ms", samples.len());
        }
    }
    if let Some(frame) = store.get(&FrameTimeDiagnosticsPlugin::FRAME_TIME).and_then(|d| d.average()) {
        println!("whole frame (main and render worlds, Bevy's FrameTimeDiagnosticsPlugin): mean {frame:.2} ms");
    }
    exit.write(AppExit::Success);
}

/// Mean, 95th percentile and worst of `samples`, if any.
fn summary(samples: &[f64]) -> Option<(f64, f64, f64)> {
    if samples.is_empty() {
        return None;
    }
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let mean = s.iter().sum::<f64>() / s.len() as f64;
    Some((mean, s[((s.len() - 1) as f64 * 0.95) as usize], s[s.len() - 1]))
}
