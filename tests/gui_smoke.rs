//! GUI smoke test: open every example scene under Xvfb with Mesa's software renderer, step
//! moves, save the GM and projector pictures, and check them: not blank, and a hidden trap
//! that the GM sees is not on the players' picture. Reported as *ignored*, with the reason,
//! where `xvfb-run` is not installed or the `gui` feature is off; `.ci/run` installs Xvfb.
//! A harness of its own (libtest-mimic) so the decision to ignore is made at run time.

use libtest_mimic::{Arguments, Trial};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let why_not = if !cfg!(feature = "gui") {
        Some("built without the `gui` feature")
    } else if !have("xvfb-run") {
        Some("xvfb-run is not installed (apt-get install xvfb mesa-vulkan-drivers)")
    } else {
        None
    };
    if let Some(why) = why_not {
        eprintln!("GUI smoke tests ignored: {why}");
    }
    let trials = vec![
        Trial::test("every_scene_renders_and_the_projector_hides_secrets", || {
            every_scene_renders_and_the_projector_hides_secrets();
            Ok(())
        }),
        Trial::test("a_move_can_be_shown_a_round_at_a_time", || {
            a_move_can_be_shown_a_round_at_a_time();
            Ok(())
        }),
    ];
    let trials = trials.into_iter().map(|t| t.with_ignored_flag(why_not.is_some())).collect();
    libtest_mimic::run(&args, trials).exit_code()
}

fn have(tool: &str) -> bool {
    Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().is_ok_and(|o| o.status.success())
}

/// The binary under test; `TABULA_BIN` may name another build of it.
fn tabula_binary() -> PathBuf {
    std::env::var_os("TABULA_BIN").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_tabula")))
}

fn screenshot(scene: &Path, view: &str, out: &Path) {
    screenshot_after(scene, view, &["--moves", "2"], out);
}

fn screenshot_after(scene: &Path, view: &str, steps: &[&str], out: &Path) {
    let status = Command::new("timeout")
        .arg("180")
        .arg("xvfb-run")
        .args(["-a", "-s", "-screen 0 1600x1000x24"])
        .arg(tabula_binary())
        .arg("open")
        .arg(scene)
        .args(steps)
        .args(["--view", view, "--screenshot"])
        .arg(out)
        .env("RUST_LOG", "error")
        // winit tries Wayland first; a private runtime dir keeps libwayland from complaining.
        .env("XDG_RUNTIME_DIR", runtime_dir())
        .status()
        .expect("xvfb-run runs");
    assert!(status.success(), "{} --view {view} exited with {status}", scene.display());
}

fn runtime_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-xdg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    dir
}

/// RGB pixels of a PNG.
fn pixels(path: &Path) -> (u32, u32, Vec<[u8; 3]>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let px = buf[..info.buffer_size()].chunks(channels).map(|c| [c[0], c[1], c[2]]).collect();
    (info.width, info.height, px)
}

/// Pixels close to the hidden-trap marker colour (srgb 1.0, 0.75, 0.1).
fn hidden_trap_pixels(px: &[[u8; 3]]) -> usize {
    px.iter().filter(|p| (p[0] as i32 - 255).abs() + (p[1] as i32 - 191).abs() + (p[2] as i32 - 25).abs() < 40).count()
}

fn distinct_colours(px: &[[u8; 3]]) -> usize {
    let mut seen = std::collections::HashSet::new();
    for p in px.iter().step_by(7) {
        seen.insert(*p);
    }
    seen.len()
}

fn every_scene_renders_and_the_projector_hides_secrets() {
    let dir = std::env::temp_dir().join(format!("tabula-gui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut scenes: Vec<PathBuf> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron") && !p.ends_with("demo.ron"))
        .collect();
    scenes.sort();
    assert!(!scenes.is_empty());
    for scene in &scenes {
        let stem = scene.file_stem().unwrap().to_string_lossy().to_string();
        let (gm, pj) = (dir.join(format!("{stem}-gm.png")), dir.join(format!("{stem}-projector.png")));
        screenshot(scene, "gm", &gm);
        screenshot(scene, "projector", &pj);
        let (w, h, gm_px) = pixels(&gm);
        assert!(w >= 800 && h >= 600, "{stem}: {w}x{h}");
        let (_, _, pj_px) = pixels(&pj);
        assert!(distinct_colours(&gm_px) > 20, "{stem}: the GM picture looks blank");
        assert!(distinct_colours(&pj_px) > 10, "{stem}: the projector picture looks blank");
        let text = std::fs::read_to_string(scene).unwrap();
        if stem == "tomb" {
            assert!(text.contains("khemri"), "the tomb scene holds hidden trap counters");
            assert!(hidden_trap_pixels(&gm_px) > 50, "tomb: hidden traps not drawn for the GM");
        }
        assert_eq!(hidden_trap_pixels(&pj_px), 0, "{stem}: a hidden trap shows on the projector");
    }
    std::fs::remove_dir_all(&dir).ok();
}

fn a_move_can_be_shown_a_round_at_a_time() {
    let dir = std::env::temp_dir().join(format!("tabula-gui-rounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/farmstead.ron");
    let shots = [
        ("before", vec!["--moves", "5"]),
        ("round", vec!["--moves", "5", "--rounds", "1"]),
        ("after", vec!["--moves", "6"]),
    ];
    let mut pictures = Vec::new();
    for (name, steps) in &shots {
        let out = dir.join(format!("{name}.png"));
        screenshot_after(&scene, "projector", steps, &out);
        pictures.push(pixels(&out).2);
    }
    // The first round of move 6 is neither move 5's end nor move 6's: the fire and the farmer
    // are part-way.
    assert_ne!(pictures[1], pictures[0], "round 1 of move 6 looks like the end of move 5");
    assert_ne!(pictures[1], pictures[2], "round 1 of move 6 looks like the end of move 6");
    std::fs::remove_dir_all(&dir).ok();
}
