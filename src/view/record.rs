//! Recorded demonstrations: `tabula record` and the GM view's Record window play the table round
//! by round, tweened as the GM view tweens a step (playhead.rs), and write what a camera of
//! their own sees as an animated GIF, an animated PNG or, through ffmpeg, a video, each frame
//! with a caption bar (the scene's title, the move and the round).
//!
//! The recording camera renders the table alone (no panels) into a picture of the clip's shape,
//! at two or more times the clip's width when that is small, and is shrunk with a box filter.
//! Time runs by a fixed step a frame while recording, so the clip's pace is the GM view's
//! whatever the renderer's speed. Frames go to an encoder thread as the renderer hands them back;
//! each GIF or APNG frame after the first holds only the rectangle that changed, the pixels in
//! it that did not change left transparent, so a clip costs little more than its first frame.

use super::camera::ProjectorCamera;
use super::caption_font::{ADVANCE, GLYPH_HEIGHT, draw_text, text_width};
use super::history::{Playback, StepRequest};
use super::panels::PanelState;
use super::playhead::{ANIMATION_SECS, Playhead};
use super::{GM_LAYER, PUBLIC_LAYER, SceneGeneration, ViewKind, to_world};
use crate::document::{Document, Reveal};
use crate::sim::MoveClock;
use crate::sim::world::TableSize;
use bevy::camera::RenderTarget;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::time::{Real, TimeUpdateStrategy, Virtual};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use std::borrow::Cow;
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::io::IsTerminal;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::time::Duration;

/// Most moves one recording holds.
pub const MAX_RECORD_MOVES: u32 = 1_000;
/// The frame rates a recording may have, in frames a second.
pub const RECORD_FPS: RangeInclusive<u32> = 1..=60;
/// The widths a recording may have, in pixels (the height follows the table's shape).
pub const RECORD_WIDTH: RangeInclusive<u32> = 100..=4096;
/// The frame rate when none is asked for: nine frames a round's tween (see the frame schedule in docs/recording.md).
pub const DEFAULT_RECORD_FPS: u32 = 10;
/// The width when none is asked for.
pub const DEFAULT_RECORD_WIDTH: u32 = 800;

/// Table inches shown round the table's edge.
const VIEW_MARGIN_IN: f32 = 0.5;
/// Render small clips at least this wide, then shrink them: thin lines and small labels come
/// out smooth instead of jagged.
const SUPERSAMPLE_WIDTH: u32 = 1200;
/// Longest side of the picture the camera renders (wgpu's default texture limit).
const MAX_RENDER_SIDE: u32 = 8192;
/// Tallest the table part of a frame may be.
const MAX_TABLE_HEIGHT: u32 = 4096;
/// Frames rendered before the first capture: the picture's pipelines compile, a software
/// renderer settles (as for `--screenshot`, screenshot.rs).
const WARM_UP_FRAMES: u32 = 30;
/// Frames waited for the renderer to hand back a capture before giving up on it.
const STALL_FRAMES: u32 = 900;
/// How long the first frame is held, in hundredths of a second.
const START_HOLD_CS: u16 = 100;
/// How long the last frame is held before the clip loops, in hundredths of a second.
const END_HOLD_CS: u16 = 200;
/// Colours in a GIF frame's palette; one more index marks the pixels left as they were.
const GIF_COLOURS: usize = 255;
/// NeuQuant's sampling factor, 1 (best) to 30 (fastest): the speed the gif crate calls "a good
/// compromise" (`Frame::from_rgba_speed(.., 10)`). Only frames of more than 255 colours use it.
const GIF_QUANTIZER_SPEED: i32 = 10;

/// The caption bar's colours: the bar, the title, and the move and round.
const BAR: [u8; 4] = [24, 24, 28, 255];
const TITLE_INK: [u8; 4] = [236, 236, 236, 255];
const MOMENT_INK: [u8; 4] = [255, 200, 90, 255];

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RecordForm>();
    app.add_systems(Update, drive.before(super::history::apply_requests));
    app.add_systems(EguiPrimaryContextPass, record_window.run_if(super::is_gm_view));
}

/// Record as soon as the view is up, then exit: 0 once the clip is written, 2 when it cannot
/// be (`tabula record`).
pub fn record_on_launch(app: &mut App, options: RecordOptions) {
    app.insert_resource(LaunchRecording(options));
}

/// What kind of file a clip is written as, from its name's ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClipFormat {
    /// An animated GIF (`.gif`).
    Gif,
    /// An animated PNG (`.png`, `.apng`).
    Apng,
    /// An H.264 video made by ffmpeg (`.mp4`).
    Mp4,
    /// A VP9 video made by ffmpeg (`.webm`).
    Webm,
}

impl ClipFormat {
    /// The kind of clip `path` names by its ending.
    pub fn from_path(path: &Path) -> Result<Self, String> {
        let ending = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match ending.as_deref() {
            Some("gif") => Ok(Self::Gif),
            Some("png" | "apng") => Ok(Self::Apng),
            Some("mp4") => Ok(Self::Mp4),
            Some("webm") => Ok(Self::Webm),
            _ => Err(format!(
                "{}: a clip is written as .gif, .png (an animated PNG), .mp4 or .webm; the file's ending says which",
                path.display()
            )),
        }
    }

    /// Whether ffmpeg makes it.
    fn needs_ffmpeg(self) -> bool {
        matches!(self, Self::Mp4 | Self::Webm)
    }
}

/// What to record: checked by [`RecordOptions::new`].
#[derive(Debug, Clone, PartialEq)]
pub struct RecordOptions {
    /// The clip to write.
    pub path: PathBuf,
    /// Its kind, from the path's ending.
    pub format: ClipFormat,
    /// Moves to record after the one the table shows.
    pub moves: u32,
    /// Frames a second.
    pub fps: u32,
    /// The clip's width in pixels.
    pub width: u32,
}

impl RecordOptions {
    /// Check what was asked for: the bounds, the file's ending, and ffmpeg for a video.
    pub fn new(path: PathBuf, moves: u32, fps: u32, width: u32) -> Result<Self, String> {
        if !(1..=MAX_RECORD_MOVES).contains(&moves) {
            return Err(format!("moves: {moves} is not between 1 and {MAX_RECORD_MOVES}"));
        }
        if !RECORD_FPS.contains(&fps) {
            return Err(format!(
                "fps: {fps} is not between {} and {} frames a second",
                RECORD_FPS.start(),
                RECORD_FPS.end()
            ));
        }
        if !RECORD_WIDTH.contains(&width) {
            return Err(format!(
                "width: {width} is not between {} and {} pixels",
                RECORD_WIDTH.start(),
                RECORD_WIDTH.end()
            ));
        }
        let format = ClipFormat::from_path(&path)?;
        if format.needs_ffmpeg() && !ffmpeg_installed() {
            return Err(format!("{}: {FFMPEG_MISSING}", path.display()));
        }
        Ok(Self { path, format, moves, fps, width })
    }
}

/// Why a video cannot be made here.
const FFMPEG_MISSING: &str = ".mp4 and .webm clips are made by ffmpeg, which is not installed: install Debian's \
                              `ffmpeg` package (apt-get install ffmpeg), or write a .gif or a .png (animated PNG)";

fn ffmpeg_installed() -> bool {
    std::process::Command::new("ffmpeg")
        .arg("-version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The frames of a recording. Frame 0 shows the table as it stands; then, for each round, the
/// round is revealed (playhead.rs) and `frames_per_round` frames follow at `1 / fps` seconds
/// apart, the last of them at the round's end. So a clip has
/// `1 + moves × rounds_per_move × frames_per_round` frames, with
/// `frames_per_round = ⌊ANIMATION_SECS × fps⌋ + 1` (0.8 s: 4 frames at 4 fps, 9 at 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameSchedule {
    /// Moves recorded.
    pub moves: u32,
    /// Rounds in each.
    pub rounds_per_move: u8,
    /// Frames a second.
    pub fps: u32,
}

impl FrameSchedule {
    /// Frames showing one round: its tween, the last frame at the round's end.
    pub fn frames_per_round(&self) -> u32 {
        // In whole milliseconds, so no rounding of floats decides a frame more or less.
        let tween_ms = (ANIMATION_SECS * 1000.0).round() as u32;
        tween_ms * self.fps.max(1) / 1000 + 1
    }

    /// Frames in the clip.
    pub fn total_frames(&self) -> u32 {
        let rounds = self.moves.saturating_mul(u32::from(self.rounds_per_move.max(1)));
        rounds.saturating_mul(self.frames_per_round()).saturating_add(1)
    }

    /// Whether the next round is revealed on `frame` (the first frame of each round's tween).
    pub fn reveals_round_at(&self, frame: u32) -> bool {
        frame >= 1 && (frame - 1).is_multiple_of(self.frames_per_round())
    }

    /// How long a frame is shown, in hundredths of a second: `1 / fps`, the first frame held a
    /// second and the last two, so the loop starts and ends still.
    pub fn delay_cs(&self, frame: u32) -> u16 {
        let fps = self.fps.max(1);
        // Viewers show delays under 2 hundredths far slower than asked.
        let step = ((100 + fps / 2) / fps).max(2) as u16;
        if frame == 0 {
            step.max(START_HOLD_CS)
        } else if frame + 1 == self.total_frames() {
            step.max(END_HOLD_CS)
        } else {
            step
        }
    }

    /// How many times a video (a constant frame rate) repeats `frame` to hold it as long.
    pub fn video_repeats(&self, frame: u32) -> u32 {
        ((u32::from(self.delay_cs(frame)) * self.fps + 50) / 100).max(1)
    }
}

/// The moment of play a frame shows, for its caption.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// The table as it stood when recording began, after `move_number` moves.
    Start {
        /// Moves played then.
        move_number: u32,
    },
    /// Round `round` of `rounds_per_move` of move `move_number`.
    Round {
        /// The move.
        move_number: u32,
        /// The round, from 1.
        round: u8,
        /// Rounds in a move.
        rounds_per_move: u8,
    },
}

impl std::fmt::Display for Moment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Moment::Start { move_number: 0 } => write!(f, "start"),
            Moment::Start { move_number } => write!(f, "after move {move_number}"),
            Moment::Round { move_number, round, rounds_per_move } => {
                write!(f, "move {move_number}, round {round} of {rounds_per_move}")
            }
        }
    }
}

/// `text` in the caption font's characters: accented letters lose their accents, dashes and
/// quotes become ASCII ones, anything else a `?`.
pub fn ascii_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let plain = match c {
            ' '..='~' => {
                out.push(c);
                continue;
            }
            'À'..='Å' => "A",
            'à'..='å' => "a",
            'Æ' => "AE",
            'æ' => "ae",
            'Ç' => "C",
            'ç' => "c",
            'È'..='Ë' => "E",
            'è'..='ë' => "e",
            'Ì'..='Ï' => "I",
            'ì'..='ï' => "i",
            'Ñ' => "N",
            'ñ' => "n",
            'Ò'..='Ö' | 'Ø' => "O",
            'ò'..='ö' | 'ø' => "o",
            'Ù'..='Ü' => "U",
            'ù'..='ü' => "u",
            'Ý' => "Y",
            'ý' | 'ÿ' => "y",
            'ß' => "ss",
            '‐'..='―' | '−' => "-",
            '‘' | '’' => "'",
            '“' | '”' | '«' | '»' => "\"",
            '…' => "...",
            c if c.is_whitespace() => " ",
            _ => "?",
        };
        out.push_str(plain);
    }
    out
}

/// The caption's two parts, to fit `columns` characters: the title on the left (shortened with
/// `..` when it does not fit), the moment on the right.
pub fn caption_line(title: &str, moment: Moment, columns: usize) -> (String, String) {
    let right: String = moment.to_string().chars().take(columns).collect();
    let title = ascii_text(title);
    let room = columns.saturating_sub(right.chars().count() + 2);
    let left = if title.chars().count() <= room {
        title
    } else if room >= 3 {
        format!("{}..", title.chars().take(room - 2).collect::<String>())
    } else {
        String::new()
    };
    (left, right)
}

/// The name of the clip the Record window offers: beside the scene, `SCENE-moveM.gif` for a
/// recording from move `M`.
pub fn default_clip_path(scene: Option<&Path>, move_number: u32) -> PathBuf {
    let name = |stem: &str| format!("{stem}-move{move_number}.gif");
    match scene {
        Some(path) => {
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "scene".into());
            path.with_file_name(name(&stem))
        }
        None => PathBuf::from(name("scene")),
    }
}

/// How big a clip's frames are, and the picture the camera renders for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameLayout {
    /// The clip's width.
    pub width: u32,
    /// Height of the table part of a frame, below the caption bar.
    pub table_height: u32,
    /// The camera renders this many pixels for each pixel of the clip, each way.
    pub supersample: u32,
    /// Clip pixels a caption font pixel.
    pub font_scale: u32,
}

impl FrameLayout {
    /// The frames for a table of `table` inches in a clip `width` pixels wide: the table and a
    /// margin round it, its shape kept.
    pub fn new(table: Vec2, width: u32) -> Self {
        let view = table + Vec2::splat(2.0 * VIEW_MARGIN_IN);
        let aspect = view.y / view.x.max(0.01);
        let table_height = ((width as f32 * aspect).round() as u32).clamp(16, MAX_TABLE_HEIGHT);
        let mut supersample = SUPERSAMPLE_WIDTH.div_ceil(width.max(1)).clamp(1, 4);
        while supersample > 1 && width.max(table_height) * supersample > MAX_RENDER_SIDE {
            supersample -= 1;
        }
        Self { width, table_height, supersample, font_scale: (width / 400).clamp(1, 4) }
    }

    /// Height of the caption bar.
    pub fn caption_height(&self) -> u32 {
        (GLYPH_HEIGHT as u32 + 4) * self.font_scale
    }

    /// Height of a frame: the caption bar and the table.
    pub fn height(&self) -> u32 {
        self.caption_height() + self.table_height
    }

    /// Size of the picture the camera renders.
    pub fn render_size(&self) -> UVec2 {
        UVec2::new(self.width, self.table_height) * self.supersample
    }

    /// The camera's scale (world units a rendered pixel) that fits the table and its margin.
    pub fn camera_scale(&self, table: Vec2) -> f32 {
        let view = to_world(table + Vec2::splat(2.0 * VIEW_MARGIN_IN));
        let size = self.render_size().as_vec2().max(Vec2::ONE);
        (view.x / size.x).max(view.y / size.y)
    }

    /// Characters of caption that fit across the bar.
    pub fn caption_columns(&self) -> usize {
        let scale = self.font_scale as usize;
        (self.width as usize).saturating_sub(6 * scale) / (ADVANCE * scale)
    }
}

/// Shrink (or stretch) an RGBA picture to `to`, each pixel the mean of the pixels it covers;
/// the result is opaque.
pub fn shrink(rgba: &[u8], from: (u32, u32), to: (u32, u32)) -> Vec<u8> {
    let (sw, sh) = (from.0 as usize, from.1 as usize);
    let (dw, dh) = (to.0 as usize, to.1 as usize);
    let mut out = vec![0; dw * dh * 4];
    if sw == 0 || sh == 0 || rgba.len() < sw * sh * 4 {
        return out;
    }
    for y in 0..dh {
        let (y0, y1) = span(y, sh, dh);
        for x in 0..dw {
            let (x0, x1) = span(x, sw, dw);
            let mut sum = [0u32; 3];
            for sy in y0..y1 {
                for sx in x0..x1 {
                    let p = (sy * sw + sx) * 4;
                    for (c, s) in sum.iter_mut().enumerate() {
                        *s += u32::from(rgba[p + c]);
                    }
                }
            }
            let n = ((y1 - y0) * (x1 - x0)) as u32;
            let o = (y * dw + x) * 4;
            for (c, s) in sum.iter().enumerate() {
                out[o + c] = ((s + n / 2) / n) as u8;
            }
            out[o + 3] = 255;
        }
    }
    out
}

/// The source pixels `start..end` that pixel `i` of `to` covers, of `from`.
fn span(i: usize, from: usize, to: usize) -> (usize, usize) {
    let start = (i * from / to.max(1)).min(from - 1);
    let end = ((i + 1) * from / to.max(1)).clamp(start + 1, from);
    (start, end)
}

/// A frame of the clip: the caption bar on top (`left` and `right` its text), the table below.
pub fn compose_frame(table: &[u8], layout: &FrameLayout, left: &str, right: &str) -> Vec<u8> {
    let width = layout.width as usize;
    let bar = layout.caption_height() as usize;
    let table_bytes = width * layout.table_height as usize * 4;
    let mut frame = Vec::with_capacity(width * bar * 4 + table_bytes);
    for _ in 0..width * bar {
        frame.extend_from_slice(&BAR);
    }
    frame.extend_from_slice(&table[..table.len().min(table_bytes)]);
    frame.resize(width * bar * 4 + table_bytes, 0);
    let scale = layout.font_scale as usize;
    draw_text(&mut frame, width, (3 * scale, 2 * scale), left, scale, TITLE_INK);
    let right_x = width.saturating_sub(3 * scale + text_width(right, scale));
    draw_text(&mut frame, width, (right_x, 2 * scale), right, scale, MOMENT_INK);
    frame
}

/// A rectangle of pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixelRect {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// The smallest rectangle holding every pixel that differs between two RGBA pictures `width`
/// wide; none when they are the same.
pub fn changed_rect(before: &[u8], after: &[u8], width: u32) -> Option<PixelRect> {
    let w = width as usize;
    let row_bytes = w * 4;
    if row_bytes == 0 || after.is_empty() {
        return None;
    }
    let height = after.len() / row_bytes;
    if before.len() != after.len() {
        return Some(PixelRect { x: 0, y: 0, width, height: height as u32 });
    }
    let (mut x0, mut x1, mut y0, mut y1) = (usize::MAX, 0, usize::MAX, 0);
    for (y, (a, b)) in before.chunks_exact(row_bytes).zip(after.chunks_exact(row_bytes)).enumerate() {
        if a == b {
            continue;
        }
        let differs = |x: &usize| a[x * 4..x * 4 + 4] != b[x * 4..x * 4 + 4];
        let first = (0..w).find(differs).unwrap_or(0);
        let last = (0..w).rev().find(differs).unwrap_or(first);
        x0 = x0.min(first);
        x1 = x1.max(last + 1);
        y0 = y0.min(y);
        y1 = y + 1;
    }
    if y0 == usize::MAX {
        return None;
    }
    Some(PixelRect { x: x0 as u32, y: y0 as u32, width: (x1 - x0) as u32, height: (y1 - y0) as u32 })
}

/// The rectangle of a frame after the first: what changed, or a single pixel when nothing did
/// (every frame of the schedule is written, so the clip keeps its timing).
fn frame_rect(before: Option<&[u8]>, after: &[u8], width: u32, height: u32) -> PixelRect {
    match before {
        None => PixelRect { x: 0, y: 0, width, height },
        Some(before) => changed_rect(before, after, width).unwrap_or(PixelRect { x: 0, y: 0, width: 1, height: 1 }),
    }
}

/// The pixels of `rect` in `after`: the colour of each that changed since `before`, none for
/// each left as it was.
fn rect_pixels(before: Option<&[u8]>, after: &[u8], width: u32, rect: PixelRect) -> Vec<Option<[u8; 3]>> {
    let mut out = Vec::with_capacity(rect.width as usize * rect.height as usize);
    for y in rect.y..rect.y + rect.height {
        for x in rect.x..rect.x + rect.width {
            let at = (y as usize * width as usize + x as usize) * 4;
            let Some(now) = after.get(at..at + 4) else {
                out.push(None);
                continue;
            };
            let same = before.is_some_and(|b| b.get(at..at + 4) == Some(now));
            out.push(if same { None } else { Some([now[0], now[1], now[2]]) });
        }
    }
    out
}

/// Pixels as a palette (RGB, at most 255 colours, then one for the pixels left as they were),
/// an index a pixel, and the index of the pixels left as they were if there are any. Exact when
/// the pixels have 255 colours or fewer, else NeuQuant's choice (the gif crate's quantizer).
fn index_pixels(pixels: &[Option<[u8; 3]>]) -> (Vec<u8>, Vec<u8>, Option<u8>) {
    let keeps = pixels.iter().any(Option::is_none);
    let mut exact: HashMap<[u8; 3], u8> = HashMap::new();
    let mut palette = Vec::new();
    let mut too_many = false;
    for colour in pixels.iter().flatten() {
        let next = exact.len();
        if let Entry::Vacant(slot) = exact.entry(*colour) {
            if next == GIF_COLOURS {
                too_many = true;
                break;
            }
            slot.insert(next as u8);
            palette.extend_from_slice(colour);
        }
    }
    let (keep, indices) = if too_many {
        let rgba: Vec<u8> = pixels.iter().flatten().flat_map(|c| [c[0], c[1], c[2], 255]).collect();
        let quantizer = color_quant::NeuQuant::new(GIF_QUANTIZER_SPEED, GIF_COLOURS, &rgba);
        palette = quantizer.color_map_rgb();
        palette.resize(GIF_COLOURS * 3, 0);
        let keep = GIF_COLOURS as u8;
        let mut found: HashMap<[u8; 3], u8> = HashMap::new();
        let indices: Vec<u8> = pixels
            .iter()
            .map(|p| match p {
                Some(c) => *found
                    .entry(*c)
                    .or_insert_with(|| quantizer.index_of(&[c[0], c[1], c[2], 255]).min(GIF_COLOURS - 1) as u8),
                None => keep,
            })
            .collect();
        (keep, indices)
    } else {
        let keep = exact.len() as u8;
        let indices: Vec<u8> = pixels.iter().map(|p| p.and_then(|c| exact.get(&c).copied()).unwrap_or(keep)).collect();
        (keep, indices)
    };
    if keeps {
        palette.extend_from_slice(&[0, 0, 0]);
    }
    (palette, indices, keeps.then_some(keep))
}

/// A GIF frame of `after`: the rectangle that changed since `before`, the rest of the picture
/// kept from the frames before.
fn gif_frame(before: Option<&[u8]>, after: &[u8], (width, height): (u32, u32), delay: u16) -> gif::Frame<'static> {
    let rect = frame_rect(before, after, width, height);
    let (palette, indices, transparent) = index_pixels(&rect_pixels(before, after, width, rect));
    gif::Frame {
        delay,
        dispose: gif::DisposalMethod::Keep,
        transparent,
        left: rect.x as u16,
        top: rect.y as u16,
        width: rect.width as u16,
        height: rect.height as u16,
        palette: Some(palette),
        buffer: Cow::Owned(indices),
        ..gif::Frame::default()
    }
}

/// The RGBA of `rect` in `after` for an APNG frame blended over the one before: the pixels that
/// did not change transparent.
fn apng_pixels(before: Option<&[u8]>, after: &[u8], width: u32, rect: PixelRect) -> Vec<u8> {
    rect_pixels(before, after, width, rect)
        .into_iter()
        .flat_map(|p| match p {
            Some([r, g, b]) => [r, g, b, 255],
            None => [0, 0, 0, 0],
        })
        .collect()
}

/// The clip's finished frames (shrunk, captioned), in order, with their numbers.
trait FrameSource {
    /// The next frame; none after the last.
    fn next_frame(&mut self) -> Result<Option<(u32, Vec<u8>)>, String>;
}

/// What a recording writes: where, as what, and its frames' size and timing.
#[derive(Debug, Clone)]
struct EncodeJob {
    path: PathBuf,
    format: ClipFormat,
    layout: FrameLayout,
    schedule: FrameSchedule,
}

/// What was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ClipSummary {
    frames: u32,
    width: u32,
    height: u32,
    bytes: usize,
}

impl ClipSummary {
    fn describe(&self, path: &Path) -> String {
        let size = if self.bytes >= 1 << 20 {
            format!("{:.1} MB", self.bytes as f64 / f64::from(1u32 << 20))
        } else {
            format!("{} KB", self.bytes.div_ceil(1024))
        };
        format!("{}: {} frames, {}x{} pixels, {size}", path.display(), self.frames, self.width, self.height)
    }
}

fn encode_error(what: &str) -> impl Fn(String) -> String + '_ {
    move |e| format!("writing the {what}: {e}")
}

fn write_gif(job: &EncodeJob, frames: &mut impl FrameSource) -> Result<Vec<u8>, String> {
    let (width, height) = (job.layout.width, job.layout.height());
    let error = encode_error("GIF");
    let (w, h) = match (u16::try_from(width), u16::try_from(height)) {
        (Ok(w), Ok(h)) => (w, h),
        _ => return Err(error(format!("{width}x{height} is larger than a GIF may be"))),
    };
    let mut out = Vec::new();
    let mut encoder = gif::Encoder::new(&mut out, w, h, &[]).map_err(|e| error(e.to_string()))?;
    encoder.set_repeat(gif::Repeat::Infinite).map_err(|e| error(e.to_string()))?;
    let mut before: Option<Vec<u8>> = None;
    while let Some((index, frame)) = frames.next_frame()? {
        let delay = job.schedule.delay_cs(index);
        let picture = gif_frame(before.as_deref(), &frame, (width, height), delay);
        encoder.write_frame(&picture).map_err(|e| error(e.to_string()))?;
        before = Some(frame);
    }
    encoder.into_inner().map_err(|e| error(e.to_string()))?;
    Ok(out)
}

fn write_apng(job: &EncodeJob, frames: &mut impl FrameSource) -> Result<Vec<u8>, String> {
    let (width, height) = (job.layout.width, job.layout.height());
    let error = encode_error("animated PNG");
    let e = |failed: png::EncodingError| error(failed.to_string());
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_animated(job.schedule.total_frames(), 0).map_err(e)?;
    let mut writer = encoder.write_header().map_err(e)?;
    let mut before: Option<Vec<u8>> = None;
    while let Some((index, frame)) = frames.next_frame()? {
        let rect = frame_rect(before.as_deref(), &frame, width, height);
        let blend = if before.is_some() { png::BlendOp::Over } else { png::BlendOp::Source };
        writer.set_frame_delay(job.schedule.delay_cs(index), 100).map_err(e)?;
        writer.set_blend_op(blend).map_err(e)?;
        writer.set_dispose_op(png::DisposeOp::None).map_err(e)?;
        // Position last: each call checks the frame against the picture with the other's value.
        writer.reset_frame_position().map_err(e)?;
        writer.set_frame_dimension(rect.width, rect.height).map_err(e)?;
        writer.set_frame_position(rect.x, rect.y).map_err(e)?;
        writer.write_image_data(&apng_pixels(before.as_deref(), &frame, width, rect)).map_err(e)?;
        before = Some(frame);
    }
    writer.finish().map_err(e)?;
    Ok(out)
}

/// A video through ffmpeg: raw RGBA frames piped in at the clip's frame rate, each repeated to
/// hold it as long as the GIF would, the size padded to even for the codec.
fn write_video(job: &EncodeJob, frames: &mut impl FrameSource) -> Result<Vec<u8>, String> {
    use std::io::Write;
    static NEXT: AtomicU32 = AtomicU32::new(0);
    const MP4: &[&str] = &["-c:v", "libx264", "-crf", "23", "-movflags", "+faststart"];
    const WEBM: &[&str] = &["-c:v", "libvpx-vp9", "-crf", "32", "-b:v", "0"];
    let (codec, container) = match job.format {
        ClipFormat::Webm => (WEBM, "webm"),
        _ => (MP4, "mp4"),
    };
    let temp = std::env::temp_dir().join(format!(
        "tabula-record-{}-{}.{container}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let size = format!("{}x{}", job.layout.width, job.layout.height());
    let fps = job.schedule.fps.to_string();
    let mut child = std::process::Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pixel_format", "rgba"])
        .args(["-video_size", size.as_str(), "-framerate", fps.as_str(), "-i", "-"])
        .args(["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-pix_fmt", "yuv420p"])
        .args(codec)
        .args(["-f", container])
        .arg(&temp)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound { FFMPEG_MISSING.to_string() } else { format!("ffmpeg: {e}") }
        })?;
    let mut stdin = child.stdin.take();
    let mut fed: Result<(), String> = Ok(());
    let mut pipe_broke = false;
    'frames: loop {
        let (index, frame) = match frames.next_frame() {
            Ok(Some(next)) => next,
            Ok(None) => break,
            Err(e) => {
                fed = Err(e);
                break;
            }
        };
        let Some(pipe) = stdin.as_mut() else { break };
        for _ in 0..job.schedule.video_repeats(index) {
            if pipe.write_all(&frame).is_err() {
                // ffmpeg stopped reading: its own message says why.
                pipe_broke = true;
                break 'frames;
            }
        }
    }
    drop(stdin);
    if fed.is_err() {
        let _ = child.kill();
    }
    let finished = child.wait_with_output().map_err(|e| format!("ffmpeg: {e}"));
    let result = fed.and(finished).and_then(|finished| {
        if !finished.status.success() {
            Err(format!("ffmpeg failed ({}): {}", finished.status, String::from_utf8_lossy(&finished.stderr).trim()))
        } else if pipe_broke {
            Err("ffmpeg stopped reading the frames".into())
        } else {
            std::fs::read(&temp).map_err(|e| format!("{}: {e}", temp.display()))
        }
    });
    let _ = std::fs::remove_file(&temp);
    result
}

/// What the renderer hands back for a frame.
struct Shot {
    index: u32,
    /// The caption's title and moment.
    left: String,
    right: String,
    width: u32,
    height: u32,
    /// Whether the pixels are BGRA rather than RGBA; none for a format the recorder cannot read.
    bgra: Option<bool>,
    data: Option<Vec<u8>>,
}

/// What the view tells the encoder thread.
enum ToEncoder {
    Frame(Shot),
    /// Stop: the recording was cancelled or has failed.
    Abort,
}

/// The frames as the renderer hands them back (in any order), put in order and finished.
struct Captures<'a> {
    receiver: Receiver<ToEncoder>,
    pending: BTreeMap<u32, Shot>,
    next: u32,
    total: u32,
    layout: FrameLayout,
    /// Frames handed on so far, for the view's progress.
    encoded: &'a AtomicU32,
}

impl FrameSource for Captures<'_> {
    fn next_frame(&mut self) -> Result<Option<(u32, Vec<u8>)>, String> {
        self.encoded.store(self.next, Ordering::Relaxed);
        if self.next >= self.total {
            return Ok(None);
        }
        let shot = loop {
            if let Some(shot) = self.pending.remove(&self.next) {
                break shot;
            }
            match self.receiver.recv() {
                Ok(ToEncoder::Frame(shot)) => {
                    self.pending.insert(shot.index, shot);
                }
                Ok(ToEncoder::Abort) | Err(_) => return Err("recording stopped: no file written".into()),
            }
        };
        let index = self.next;
        self.next += 1;
        finish_frame(shot, &self.layout).map(|frame| Some((index, frame)))
    }
}

/// A capture shrunk to the clip's size, its caption bar drawn.
fn finish_frame(shot: Shot, layout: &FrameLayout) -> Result<Vec<u8>, String> {
    let number = shot.index + 1;
    let Some(bgra) = shot.bgra else {
        return Err(format!("frame {number} came back in a colour format the recorder does not read"));
    };
    let bytes = shot.width as usize * shot.height as usize * 4;
    let Some(mut data) = shot.data.filter(|d| bytes > 0 && d.len() >= bytes) else {
        return Err(format!("frame {number} came back empty"));
    };
    data.truncate(bytes);
    if bgra {
        for pixel in data.chunks_exact_mut(4) {
            pixel.swap(0, 2);
        }
    }
    let table = shrink(&data, (shot.width, shot.height), (layout.width, layout.table_height));
    Ok(compose_frame(&table, layout, &shot.left, &shot.right))
}

/// The encoder thread: the frames into the clip, the clip atomically into its file.
fn encode(job: EncodeJob, receiver: Receiver<ToEncoder>, encoded: &AtomicU32) -> Result<ClipSummary, String> {
    let total = job.schedule.total_frames();
    let mut captures = Captures { receiver, pending: BTreeMap::new(), next: 0, total, layout: job.layout, encoded };
    let bytes = match job.format {
        ClipFormat::Gif => write_gif(&job, &mut captures)?,
        ClipFormat::Apng => write_apng(&job, &mut captures)?,
        ClipFormat::Mp4 | ClipFormat::Webm => write_video(&job, &mut captures)?,
    };
    crate::scene::save::write_atomic(&job.path, &bytes).map_err(|e| format!("{}: {e}", job.path.display()))?;
    Ok(ClipSummary { frames: total, width: job.layout.width, height: job.layout.height(), bytes: bytes.len() })
}

/// A recording asked for on the command line, started on the first frame.
#[derive(Resource)]
struct LaunchRecording(RecordOptions);

/// The camera a recording renders through.
#[derive(Component)]
struct RecordCamera;

/// What a recording changed, to put back when it ends.
struct Restore {
    strategy: TimeUpdateStrategy,
    max_delta: Duration,
    playing: bool,
}

/// The recording under way.
#[derive(Resource)]
struct Recorder {
    schedule: FrameSchedule,
    layout: FrameLayout,
    title: String,
    path: PathBuf,
    image: Handle<Image>,
    camera: Entity,
    warm_up_left: u32,
    /// The next frame to capture.
    next_frame: u32,
    sender: Sender<ToEncoder>,
    encoder: Option<std::thread::JoinHandle<Result<ClipSummary, String>>>,
    encoded: Arc<AtomicU32>,
    /// The encoded count last seen, and the frames since it moved.
    seen_encoded: u32,
    stalled_frames: u32,
    /// The table as the recording left it last frame: anything else stepped, rewound or edited
    /// it since, and the clip would not be what the rules played.
    left_at: TableMoment,
    restore: Restore,
    /// Exit when done (`tabula record`), printing what was written; else report in the window.
    exit_when_done: bool,
    /// Print progress on standard error (`tabula record` on a terminal).
    print_progress: bool,
}

impl Recorder {
    /// Frames captured, frames encoded, frames in all.
    fn progress(&self) -> (u32, u32, u32) {
        (self.next_frame, self.encoded.load(Ordering::Relaxed), self.schedule.total_frames())
    }
}

/// The move shown, its rounds revealed, and the world's generation (rebuilt by rewinds and edits).
type TableMoment = (u32, u8, SceneGeneration);

fn table_moment(world: &World) -> TableMoment {
    let clock = world.resource::<MoveClock>();
    let revealed = world.resource::<Reveal>().revealed_rounds(clock.rounds_per_move.max(1));
    let generation = world.get_resource::<SceneGeneration>().copied().unwrap_or_default();
    (clock.move_number, revealed, generation)
}

/// The Record window's fields and what its buttons asked for.
#[derive(Resource, Debug)]
struct RecordForm {
    moves: u32,
    fps: u32,
    width: u32,
    path: String,
    /// The GM typed a path: stop offering the default.
    path_edited: bool,
    start: bool,
    cancel: bool,
    /// How the last recording ended: whether it was written, and what to say.
    outcome: Option<(bool, String)>,
}

impl Default for RecordForm {
    fn default() -> Self {
        Self {
            moves: 5,
            fps: DEFAULT_RECORD_FPS,
            width: DEFAULT_RECORD_WIDTH,
            path: String::new(),
            path_edited: false,
            start: false,
            cancel: false,
            outcome: None,
        }
    }
}

/// Start, step, capture and finish recordings, once a frame, before the controls' requests are
/// applied (the recording holds them back while it runs).
fn drive(world: &mut World) {
    if let Some(LaunchRecording(options)) = world.remove_resource::<LaunchRecording>()
        && let Err(e) = start(world, options, true)
    {
        eprintln!("{e}");
        world.write_message(AppExit::from_code(2));
        return;
    }
    let (start_asked, cancel_asked) = {
        let mut form = world.resource_mut::<RecordForm>();
        (std::mem::take(&mut form.start), std::mem::take(&mut form.cancel))
    };
    if start_asked && !world.contains_resource::<Recorder>() {
        let form = world.resource::<RecordForm>();
        let asked = RecordOptions::new(PathBuf::from(form.path.trim()), form.moves, form.fps, form.width);
        let started = asked.and_then(|options| start(world, options, false));
        world.resource_mut::<RecordForm>().outcome = started.err().map(|e| (false, e));
    }
    if !world.contains_resource::<Recorder>() {
        return;
    }
    if cancel_asked {
        stop(world, Err("recording cancelled: no file written".into()));
        return;
    }
    if table_moment(world) != world.resource::<Recorder>().left_at {
        let why = "the table was stepped, rewound or edited while recording: stopped, no file written";
        stop(world, Err(why.into()));
        return;
    }
    // The recording steps the table itself; the controls' steps and rewinds wait.
    *world.resource_mut::<StepRequest>() = StepRequest::default();
    let (warming, next, total) = {
        let mut recorder = world.resource_mut::<Recorder>();
        let warming = recorder.warm_up_left > 0;
        recorder.warm_up_left = recorder.warm_up_left.saturating_sub(1);
        (warming, recorder.next_frame, recorder.schedule.total_frames())
    };
    if warming {
        return;
    }
    if next < total {
        capture(world, next);
    } else {
        wait_for_encoder(world);
    }
}

/// Begin recording `options` from the moment the table shows: the camera, the encoder thread,
/// time by a fixed step a frame.
fn start(world: &mut World, options: RecordOptions, exit_when_done: bool) -> Result<(), String> {
    let clock = *world.resource::<MoveClock>();
    crate::sim::moves_after(clock.move_number, options.moves).map_err(|full| full.to_string())?;
    // A move shown part-way: show the rest at once, so the clip begins at the end of a move.
    if world.resource::<Reveal>().mid_move() {
        super::history::step_moves(world, 1, 0.0);
    }
    world.resource_mut::<Playhead>().finish();
    let rounds_per_move = clock.rounds_per_move.max(1);
    let schedule = FrameSchedule { moves: options.moves, rounds_per_move, fps: options.fps };
    let table = world.resource::<TableSize>().0;
    let layout = FrameLayout::new(table, options.width);

    let (sender, receiver) = std::sync::mpsc::channel();
    let encoded = Arc::new(AtomicU32::new(0));
    let job = EncodeJob { path: options.path.clone(), format: options.format, layout, schedule };
    let counter = Arc::clone(&encoded);
    let encoder = std::thread::Builder::new()
        .name("tabula-record".into())
        .spawn(move || encode(job, receiver, &counter))
        .map_err(|e| format!("could not start the recording's encoder: {e}"))?;

    let size = layout.render_size();
    let image = Image::new_target_texture(size.x, size.y, TextureFormat::Rgba8UnormSrgb, None);
    let image = world.resource_mut::<Assets<Image>>().add(image);
    let kind = *world.resource::<ViewKind>();
    let layers = match kind {
        ViewKind::Gm => RenderLayers::from_layers(&[PUBLIC_LAYER, GM_LAYER]),
        ViewKind::Projector => RenderLayers::layer(PUBLIC_LAYER),
    };
    let projection = Projection::Orthographic(OrthographicProjection {
        scale: layout.camera_scale(table),
        ..OrthographicProjection::default_2d()
    });
    let camera = {
        let mut camera = world.spawn((
            Camera2d,
            Camera { order: -1, ..default() },
            RenderTarget::Image(image.clone().into()),
            layers,
            projection,
            Transform::from_translation(to_world(table / 2.0).extend(0.0)),
            RecordCamera,
        ));
        if kind == ViewKind::Projector {
            // The players' picture: the fog of war follows projector cameras (fog.rs).
            camera.insert(ProjectorCamera);
        }
        camera.id()
    };

    let step = Duration::from_secs_f64(1.0 / f64::from(options.fps.max(1)));
    let max_delta = world.resource::<Time<Virtual>>().max_delta();
    world.resource_mut::<Time<Virtual>>().set_max_delta(max_delta.max(step * 2));
    let strategy = world.remove_resource::<TimeUpdateStrategy>().unwrap_or_default();
    world.insert_resource(TimeUpdateStrategy::ManualDuration(step));
    let playing = {
        let mut playback = world.resource_mut::<Playback>();
        std::mem::replace(&mut playback.playing, false)
    };
    let title = clip_title(world.get_resource::<Document>());
    let left_at = table_moment(world);
    world.insert_resource(Recorder {
        schedule,
        layout,
        title,
        path: options.path,
        image,
        camera,
        warm_up_left: WARM_UP_FRAMES,
        next_frame: 0,
        sender,
        encoder: Some(encoder),
        encoded,
        seen_encoded: 0,
        stalled_frames: 0,
        left_at,
        restore: Restore { strategy, max_delta, playing },
        exit_when_done,
        print_progress: exit_when_done && std::io::stderr().is_terminal(),
    });
    world.resource_mut::<RecordForm>().outcome = None;
    Ok(())
}

/// The scene's title for the caption: its own, else its file's name.
fn clip_title(document: Option<&Document>) -> String {
    let titled = document.and_then(|d| d.scene.as_ref()).map(|s| s.title.trim().to_string()).filter(|t| !t.is_empty());
    let file = || document?.path.as_ref()?.file_stem().map(|s| s.to_string_lossy().into_owned());
    titled.or_else(file).unwrap_or_else(|| "Tabula".into())
}

/// Frame `index`: reveal the next round if one begins here, then ask the renderer for what the
/// recording camera sees this frame.
fn capture(world: &mut World, index: u32) {
    let schedule = world.resource::<Recorder>().schedule;
    if schedule.reveals_round_at(index) {
        super::history::step_rounds(world, 1, ANIMATION_SECS);
    }
    let clock = *world.resource::<MoveClock>();
    let moment = if index == 0 {
        Moment::Start { move_number: clock.move_number }
    } else {
        let per_move = clock.rounds_per_move.max(1);
        Moment::Round {
            move_number: clock.move_number,
            round: world.resource::<Reveal>().revealed_rounds(per_move),
            rounds_per_move: per_move,
        }
    };
    let left_at = table_moment(world);
    let (image, sender, left, right) = {
        let mut recorder = world.resource_mut::<Recorder>();
        recorder.next_frame = index + 1;
        recorder.left_at = left_at;
        let (left, right) = caption_line(&recorder.title, moment, recorder.layout.caption_columns());
        if recorder.print_progress {
            let total = schedule.total_frames();
            eprint!("\rrecording: frame {} of {total}", index + 1);
            if index + 1 == total {
                eprintln!();
            }
        }
        (recorder.image.clone(), recorder.sender.clone(), left, right)
    };
    world.spawn(Screenshot::image(image)).observe(move |captured: On<ScreenshotCaptured>| {
        let picture = &captured.image;
        let bgra = match picture.texture_descriptor.format {
            TextureFormat::Rgba8UnormSrgb | TextureFormat::Rgba8Unorm => Some(false),
            TextureFormat::Bgra8UnormSrgb | TextureFormat::Bgra8Unorm => Some(true),
            _ => None,
        };
        let shot = Shot {
            index,
            left: left.clone(),
            right: right.clone(),
            width: picture.width(),
            height: picture.height(),
            bgra,
            data: picture.data.clone(),
        };
        // An encoder that has stopped (a cancelled recording) takes nothing more.
        let _ = sender.send(ToEncoder::Frame(shot));
    });
}

/// Every frame asked for: wait for the encoder to write the clip, or give up on a renderer that
/// does not hand a frame back.
fn wait_for_encoder(world: &mut World) {
    let ended = {
        let mut recorder = world.resource_mut::<Recorder>();
        if recorder.encoder.as_ref().is_none_or(|e| e.is_finished()) {
            Some(match recorder.encoder.take() {
                Some(encoder) => encoder.join().unwrap_or_else(|_| Err("the recording's encoder failed".into())),
                None => Err("the recording's encoder is gone".into()),
            })
        } else {
            let (_, encoded, total) = recorder.progress();
            if encoded != recorder.seen_encoded {
                recorder.seen_encoded = encoded;
                recorder.stalled_frames = 0;
            } else if encoded < total {
                recorder.stalled_frames += 1;
            }
            (recorder.stalled_frames > STALL_FRAMES).then(|| {
                Err(format!("frame {} of {total} never came back from the renderer: no file written", encoded + 1))
            })
        }
    };
    if let Some(result) = ended {
        stop(world, result);
    }
}

/// End the recording: the camera goes, time runs by the clock again, play resumes if it was on;
/// say what was written or why nothing was.
fn stop(world: &mut World, result: Result<ClipSummary, String>) {
    let Some(recorder) = world.remove_resource::<Recorder>() else { return };
    // An encoder still waiting for frames stops.
    let _ = recorder.sender.send(ToEncoder::Abort);
    world.despawn(recorder.camera);
    let Restore { strategy, max_delta, playing } = recorder.restore;
    world.insert_resource(strategy);
    world.resource_mut::<Time<Virtual>>().set_max_delta(max_delta);
    // The fixed steps may have run ahead of the wall clock: count from now again.
    world.resource_mut::<Time<Real>>().update_with_instant(std::time::Instant::now());
    world.resource_mut::<Playback>().playing = playing;
    let said = match &result {
        Ok(summary) => summary.describe(&recorder.path),
        Err(e) => e.clone(),
    };
    if recorder.exit_when_done {
        if result.is_ok() {
            println!("{said}");
            world.write_message(AppExit::Success);
        } else {
            eprintln!("{said}");
            world.write_message(AppExit::from_code(2));
        }
    } else {
        world.resource_mut::<RecordForm>().outcome = Some((result.is_ok(), said));
    }
}

fn record_window(
    mut contexts: EguiContexts,
    mut panels: ResMut<PanelState>,
    mut form: ResMut<RecordForm>,
    recorder: Option<Res<Recorder>>,
    clock: Res<MoveClock>,
    document: Res<Document>,
) -> Result {
    let progress = recorder.as_deref().map(Recorder::progress);
    if !panels.show_record && progress.is_none() {
        return Ok(());
    }
    if !form.path_edited {
        form.path = default_clip_path(document.path.as_deref(), clock.move_number).display().to_string();
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Record").open(&mut open).default_pos([40.0, 90.0]).default_width(440.0).show(ctx, |ui| {
        if let Some((captured, encoded, total)) = progress {
            let (text, done) = if captured < total {
                (format!("recording... frame {captured} of {total}"), captured)
            } else {
                (format!("writing... frame {encoded} of {total}"), encoded)
            };
            ui.label(text.as_str());
            ui.add(egui::ProgressBar::new(done as f32 / total.max(1) as f32).text(text));
            ui.label("The recording steps the table itself: steps and rewinds are ignored, an edit stops it.");
            if ui.button("Cancel").clicked() {
                form.cancel = true;
            }
            return;
        }
        ui.label(format!("From move {}, round by round, as the table shows them.", clock.move_number));
        ui.horizontal(|ui| {
            ui.label("Moves");
            ui.add(egui::DragValue::new(&mut form.moves).range(1..=MAX_RECORD_MOVES));
            ui.label("frames a second");
            ui.add(egui::DragValue::new(&mut form.fps).range(RECORD_FPS));
            ui.label("width");
            ui.add(egui::DragValue::new(&mut form.width).range(RECORD_WIDTH));
        });
        ui.horizontal(|ui| {
            ui.label("File");
            let field = ui.add(egui::TextEdit::singleline(&mut form.path).desired_width(340.0));
            if field.changed() {
                form.path_edited = true;
            }
        });
        ui.label(".gif or .png (animated PNG); .mp4 or .webm need ffmpeg.");
        if ui.button("Record").clicked() {
            form.start = true;
        }
        if let Some((written, said)) = &form.outcome {
            let colour =
                if *written { egui::Color32::from_rgb(140, 220, 140) } else { egui::Color32::from_rgb(255, 120, 100) };
            ui.colored_label(colour, said.as_str());
        }
    });
    panels.show_record = open || progress.is_some();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Frames for the encoders' tests, already finished.
    struct Given(std::vec::IntoIter<Vec<u8>>, u32);

    impl FrameSource for Given {
        fn next_frame(&mut self) -> Result<Option<(u32, Vec<u8>)>, String> {
            let index = self.1;
            self.1 += 1;
            Ok(self.0.next().map(|frame| (index, frame)))
        }
    }

    fn schedule(moves: u32, rounds_per_move: u8, fps: u32) -> FrameSchedule {
        FrameSchedule { moves, rounds_per_move, fps }
    }

    #[test]
    fn a_round_has_its_tween_in_frames_and_the_last_at_its_end() {
        // ⌊0.8 s × fps⌋ + 1.
        let per_round: Vec<u32> = [1, 4, 5, 10, 24, 60].iter().map(|&f| schedule(1, 2, f).frames_per_round()).collect();
        assert_eq!(per_round, [1, 4, 5, 9, 20, 49]);
        // The smoke test's clip: 2 moves of 2 rounds at 4 fps, 1 + 2 × 2 × 4 frames.
        assert_eq!(schedule(2, 2, 4).total_frames(), 17);
        // The README's: 20 moves at the default rate.
        assert_eq!(schedule(20, 2, DEFAULT_RECORD_FPS).total_frames(), 361);
        // Whatever the rate, the tween (playhead.rs) has settled by a round's last frame.
        for fps in RECORD_FPS {
            let frames = schedule(1, 2, fps).frames_per_round();
            let mut playhead = Playhead::default();
            playhead.new_move(1, 2, ANIMATION_SECS);
            for _ in 0..frames {
                playhead.advance(1.0 / fps as f32);
            }
            assert!(!playhead.animating(), "{fps} fps: still tweening after {frames} frames");
            assert_eq!(playhead.shown(), 0.5);
        }
    }

    #[test]
    fn a_round_is_revealed_on_the_first_frame_of_its_tween() {
        let s = schedule(2, 2, 4);
        let revealed: Vec<u32> = (0..s.total_frames()).filter(|&f| s.reveals_round_at(f)).collect();
        assert_eq!(revealed, [1, 5, 9, 13]);
    }

    #[test]
    fn frames_last_a_frame_each_and_the_first_and_last_are_held() {
        let s = schedule(2, 2, 10);
        let last = s.total_frames() - 1;
        assert_eq!((s.delay_cs(0), s.delay_cs(1), s.delay_cs(20), s.delay_cs(last)), (100, 10, 10, 200));
        assert_eq!(schedule(1, 2, 4).delay_cs(3), 25);
        assert_eq!(schedule(1, 2, 3).delay_cs(3), 33);
        assert_eq!(schedule(1, 2, 60).delay_cs(3), 2);
        assert_eq!((s.video_repeats(0), s.video_repeats(1), s.video_repeats(last)), (10, 1, 20));
        for fps in RECORD_FPS {
            assert_eq!(schedule(3, 2, fps).video_repeats(2), 1, "{fps} fps");
        }
    }

    #[test]
    fn the_caption_names_the_scene_the_move_and_the_round() {
        let round = Moment::Round { move_number: 3, round: 1, rounds_per_move: 2 };
        assert_eq!(
            caption_line("Farmstead at Grausbad", round, 66),
            ("Farmstead at Grausbad".to_string(), "move 3, round 1 of 2".to_string())
        );
        assert_eq!(Moment::Start { move_number: 0 }.to_string(), "start");
        assert_eq!(Moment::Start { move_number: 5 }.to_string(), "after move 5");
        // Too long: the title gives way, the moment stays whole.
        let (left, right) = caption_line("Farmstead at Grausbad", round, 32);
        assert_eq!((left.as_str(), right.as_str()), ("Farmstea..", "move 3, round 1 of 2"));
        assert!(left.len() + 2 + right.len() <= 32);
        assert_eq!(caption_line("Farmstead", round, 20).0, "");
        assert_eq!(ascii_text("Schloß Grünwald — «Galerie»…"), "Schloss Grunwald - \"Galerie\"...");
        assert_eq!(ascii_text("Zürich\t日本"), "Zurich ??");
    }

    #[test]
    fn the_default_clip_sits_beside_the_scene() {
        let beside = default_clip_path(Some(Path::new("scenes/farmstead.ron")), 3);
        assert_eq!(beside, Path::new("scenes/farmstead-move3.gif"));
        assert_eq!(default_clip_path(Some(Path::new("maps/cave.dd2vtt")), 0), Path::new("maps/cave-move0.gif"));
        assert_eq!(default_clip_path(None, 12), Path::new("scene-move12.gif"));
    }

    #[test]
    fn options_out_of_bounds_or_of_an_unknown_kind_are_refused() {
        let options = |path: &str, moves, fps, width| RecordOptions::new(PathBuf::from(path), moves, fps, width);
        let good = options("clip.GIF", 20, 10, 800).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(good.format, ClipFormat::Gif);
        assert_eq!(options("clip.png", 1, 1, 100).map(|o| o.format), Ok(ClipFormat::Apng));
        assert_eq!(options("clip.apng", 1, 60, 4096).map(|o| o.format), Ok(ClipFormat::Apng));
        for (bad, says) in [
            (options("clip.gif", 0, 10, 800), "moves: 0"),
            (options("clip.gif", MAX_RECORD_MOVES + 1, 10, 800), "moves: 1001"),
            (options("clip.gif", 2, 0, 800), "fps: 0"),
            (options("clip.gif", 2, 61, 800), "fps: 61"),
            (options("clip.gif", 2, 10, 99), "width: 99"),
            (options("clip.gif", 2, 10, 4097), "width: 4097"),
            (options("clip.jpg", 2, 10, 800), ".gif, .png"),
            (options("clip", 2, 10, 800), ".gif, .png"),
        ] {
            let e = bad.expect_err(says);
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn the_farmstead_at_800_wide_is_rendered_twice_as_big_and_shrunk() {
        // 72x48" and half an inch round: 73x49, so 800 x 537 (800 × 49 / 73 = 536.99).
        let layout = FrameLayout::new(Vec2::new(72.0, 48.0), 800);
        assert_eq!(layout, FrameLayout { width: 800, table_height: 537, supersample: 2, font_scale: 2 });
        assert_eq!(layout.render_size(), UVec2::new(1600, 1074));
        assert_eq!((layout.caption_height(), layout.height()), (22, 559));
        // 73" is 2336 world units across 1600 pixels.
        assert!((layout.camera_scale(Vec2::new(72.0, 48.0)) - 1.46).abs() < 1e-4);
        let small = FrameLayout::new(Vec2::new(72.0, 48.0), 400);
        assert_eq!((small.table_height, small.supersample, small.height()), (268, 3, 279));
        // A very tall table is capped, and the render stays within the texture limit.
        let tall = FrameLayout::new(Vec2::new(10.0, 400.0), 2000);
        assert_eq!(tall.table_height, MAX_TABLE_HEIGHT);
        assert!(tall.render_size().max_element() <= MAX_RENDER_SIDE);
        assert!(layout.caption_columns() >= 60);
    }

    #[test]
    fn shrinking_averages_the_pixels_each_covers() {
        // 4x2 → 2x1: each output pixel is the mean of a 2x2 block.
        let mut picture = Vec::new();
        for v in [0u8, 100, 200, 40, 0, 100, 200, 40] {
            picture.extend_from_slice(&[v, v / 2, 255 - v, 255]);
        }
        let out = shrink(&picture, (4, 2), (2, 1));
        assert_eq!(out, vec![50, 25, 205, 255, 120, 60, 135, 255]);
        // The same size is the same picture (made opaque).
        assert_eq!(shrink(&picture, (4, 2), (4, 2)), picture);
        // Nothing to shrink: a black picture, no panic.
        assert_eq!(shrink(&[], (0, 0), (2, 1)), vec![0; 8]);
    }

    #[test]
    fn a_frame_has_its_caption_bar_above_the_table() {
        let layout = FrameLayout { width: 200, table_height: 3, supersample: 1, font_scale: 1 };
        let table = vec![7; 200 * 3 * 4];
        let frame = compose_frame(&table, &layout, "Tomb", "move 1, round 2 of 2");
        assert_eq!(frame.len(), 200 * (11 + 3) * 4);
        assert_eq!(&frame[..4], &BAR);
        assert_eq!(&frame[200 * 11 * 4..], &table[..]);
        let bar = &frame[..200 * 11 * 4];
        let inked = |ink: [u8; 4]| bar.chunks(4).filter(|p| *p == ink).count();
        assert!(inked(TITLE_INK) > 20 && inked(MOMENT_INK) > 60);
        // The title on the left, the moment on the right.
        let columns_with = |ink: [u8; 4]| {
            bar.chunks(4).enumerate().filter(|(_, p)| *p == ink).map(|(i, _)| i % 200).collect::<Vec<_>>()
        };
        assert!(columns_with(TITLE_INK).iter().all(|&x| x < 40));
        assert!(columns_with(MOMENT_INK).iter().all(|&x| x > 60));
    }

    #[test]
    fn the_changed_rectangle_holds_every_changed_pixel() {
        let before = vec![0u8; 4 * 3 * 4];
        assert_eq!(changed_rect(&before, &before, 4), None);
        let mut after = before.clone();
        after[4] = 9; // (1, 0)
        after[(2 * 4 + 2) * 4 + 3] = 9; // (2, 2)
        assert_eq!(changed_rect(&before, &after, 4), Some(PixelRect { x: 1, y: 0, width: 2, height: 3 }));
    }

    /// Three frames 6x13 (the caption bar 11 high): a pattern, one pixel changed, nothing changed.
    fn three_frames() -> (FrameLayout, Vec<Vec<u8>>) {
        let layout = FrameLayout { width: 6, table_height: 2, supersample: 1, font_scale: 1 };
        let first: Vec<u8> = (0..6 * 13).flat_map(|i| [(i * 3) as u8, (i * 7 % 256) as u8, 40, 255]).collect();
        let mut second = first.clone();
        let at = (12 * 6 + 4) * 4; // (4, 12)
        second[at..at + 4].copy_from_slice(&[250, 10, 10, 255]);
        let third = second.clone();
        (layout, vec![first, second, third])
    }

    fn job(format: ClipFormat, layout: FrameLayout) -> EncodeJob {
        // 1 move of 2 rounds at 1 fps: 1 + 2 × 1 frames.
        EncodeJob { path: PathBuf::from("unused"), format, layout, schedule: schedule(1, 2, 1) }
    }

    #[test]
    fn a_gif_holds_each_frame_and_only_what_changed() {
        let (layout, frames) = three_frames();
        let bytes = write_gif(&job(ClipFormat::Gif, layout), &mut Given(frames.clone().into_iter(), 0))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(&bytes[..]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((decoder.width(), decoder.height()), (6, 13));
        let mut decoded = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap_or_else(|e| panic!("{e}")) {
            decoded.push(((frame.left, frame.top, frame.width, frame.height), frame.delay, frame.buffer.to_vec()));
        }
        assert_eq!(decoded.len(), 3);
        // The first frame whole, its colours exact (fewer than 256 of them).
        assert_eq!(decoded[0].0, (0, 0, 6, 13));
        assert_eq!(decoded[0].2, frames[0]);
        assert_eq!(decoded[0].1, 100);
        // Then the one pixel that changed, then a pixel left as it was.
        assert_eq!(decoded[1].0, (4, 12, 1, 1));
        assert_eq!(decoded[1].2, vec![250, 10, 10, 255]);
        assert_eq!(decoded[2].0, (0, 0, 1, 1));
        assert_eq!(decoded[2].2[3], 0, "the unchanged pixel is transparent");
        assert_eq!(decoded[2].1, 200);
    }

    #[test]
    fn a_frame_of_many_colours_is_quantized_to_a_full_palette() {
        let pixels: Vec<Option<[u8; 3]>> =
            (0..4096u32).map(|i| Some([(i % 64 * 4) as u8, (i / 64 * 4) as u8, (i % 7 * 30) as u8])).collect();
        let (palette, indices, transparent) = index_pixels(&pixels);
        assert_eq!((palette.len(), indices.len(), transparent), (GIF_COLOURS * 3, 4096, None));
        assert!(indices.iter().all(|&i| usize::from(i) < GIF_COLOURS));
        let mut some_kept = pixels.clone();
        some_kept[5] = None;
        let (palette, indices, transparent) = index_pixels(&some_kept);
        assert_eq!((palette.len(), transparent, indices[5]), (256 * 3, Some(255), 255));
    }

    #[test]
    fn an_animated_png_holds_each_frame_and_only_what_changed() {
        let (layout, frames) = three_frames();
        let bytes = write_apng(&job(ClipFormat::Apng, layout), &mut Given(frames.clone().into_iter(), 0))
            .unwrap_or_else(|e| panic!("{e}"));
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(reader.info().animation_control.map(|a| a.num_frames), Some(3));
        assert_eq!(reader.info().size(), (6, 13));
        let mut buffer = vec![0; reader.output_buffer_size().unwrap_or(0)];
        let mut placed = Vec::new();
        for _ in 0..3 {
            let info = reader.next_frame(&mut buffer).unwrap_or_else(|e| panic!("{e}"));
            let control = reader.info().frame_control.unwrap_or_else(|| panic!("a frame control"));
            placed.push((control.x_offset, control.y_offset, control.width, control.height, control.delay_num));
            if placed.len() == 1 {
                assert_eq!(&buffer[..info.buffer_size()], &frames[0][..]);
            }
        }
        // At 1 fps a frame lasts a second; the last is held two.
        assert_eq!(placed, [(0, 0, 6, 13, 100), (4, 12, 1, 1, 100), (0, 0, 1, 1, 200)]);
    }

    fn captures_of(receiver: Receiver<ToEncoder>, total: u32, encoded: &AtomicU32) -> Captures<'_> {
        let layout = FrameLayout { width: 4, table_height: 2, supersample: 1, font_scale: 1 };
        Captures { receiver, pending: BTreeMap::new(), next: 0, total, layout, encoded }
    }

    #[test]
    fn captures_arriving_out_of_order_come_out_in_order_with_their_captions() {
        let layout = FrameLayout { width: 4, table_height: 2, supersample: 1, font_scale: 1 };
        let (sender, receiver) = std::sync::mpsc::channel();
        let encoded = AtomicU32::new(0);
        let mut captures = captures_of(receiver, 2, &encoded);
        let shot = |index, colour: [u8; 4], bgra| Shot {
            index,
            left: "T".into(),
            right: String::new(),
            width: 4,
            height: 2,
            bgra: Some(bgra),
            data: Some(colour.repeat(8)),
        };
        // Frame 1 first, in BGRA; then frame 0 in RGBA.
        for s in [shot(1, [30, 20, 10, 255], true), shot(0, [1, 2, 3, 255], false)] {
            sender.send(ToEncoder::Frame(s)).unwrap_or_else(|_| panic!("the channel is open"));
        }
        let bar = layout.caption_height() as usize * 4 * 4;
        let mut next = || captures.next_frame().unwrap_or_else(|e| panic!("{e}"));
        let (index, frame) = next().unwrap_or_else(|| panic!("frame 0"));
        assert_eq!((index, &frame[bar..bar + 4]), (0, &[1, 2, 3, 255][..]));
        let (index, frame) = next().unwrap_or_else(|| panic!("frame 1"));
        assert_eq!((index, &frame[bar..bar + 4]), (1, &[10, 20, 30, 255][..]));
        assert_eq!(next(), None);
        assert_eq!(encoded.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn a_cancelled_or_broken_capture_is_an_error_not_a_clip() {
        let (sender, receiver) = std::sync::mpsc::channel();
        let encoded = AtomicU32::new(0);
        let mut captures = captures_of(receiver, 3, &encoded);
        let (left, right) = (String::new(), String::new());
        let empty = Shot { index: 0, left, right, width: 4, height: 2, bgra: Some(false), data: None };
        sender.send(ToEncoder::Frame(empty)).unwrap_or_else(|_| panic!("the channel is open"));
        assert_eq!(captures.next_frame(), Err("frame 1 came back empty".to_string()));
        sender.send(ToEncoder::Abort).unwrap_or_else(|_| panic!("the channel is open"));
        assert!(captures.next_frame().is_err_and(|e| e.contains("no file written")));
    }
}
