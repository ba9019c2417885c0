//! `--measure-frames N`: time the main world's work each frame (everything from `First` to
//! `Last`, not the render world), print mean, 95th percentile and worst, and exit.

use bevy::app::{First, Last};
use bevy::prelude::*;
use std::time::Instant;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(First, start_frame.run_if(resource_exists::<FrameTimes>));
    app.add_systems(Last, end_frame.run_if(resource_exists::<FrameTimes>));
}

/// Frames to render before measuring (shaders, first uploads).
const WARM_UP: u32 = 30;

#[derive(Resource, Debug)]
pub struct FrameTimes {
    frames: u32,
    wanted: u32,
    started: Option<Instant>,
    samples: Vec<f64>,
}

impl FrameTimes {
    pub fn new(wanted: u32) -> Self {
        Self { frames: 0, wanted, started: None, samples: Vec::new() }
    }
}

fn start_frame(mut times: ResMut<FrameTimes>) {
    times.started = Some(Instant::now());
}

fn end_frame(mut times: ResMut<FrameTimes>, mut exit: MessageWriter<AppExit>) {
    times.frames += 1;
    if let Some(start) = times.started.take()
        && times.frames > WARM_UP
    {
        times.samples.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    if times.samples.len() as u32 >= times.wanted {
        let mut s = times.samples.clone();
        s.sort_by(f64::total_cmp);
        let mean = s.iter().sum::<f64>() / s.len() as f64;
        let p95 = s[((s.len() - 1) as f64 * 0.95) as usize];
        let worst = s[s.len() - 1];
        println!(
            "main-world frame time over {} frames: mean {mean:.2} ms, p95 {p95:.2} ms, worst {worst:.2} ms",
            s.len()
        );
        exit.write(AppExit::Success);
    }
}
