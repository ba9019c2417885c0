//! The `tabula` binary: exit codes, located errors, identical event files.

use std::path::{Path, PathBuf};
use std::process::Command;

fn tabula() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
}

fn scenes() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn check_accepts_every_example() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(scenes()).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let out = tabula().arg("check").args(&files).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn check_reports_a_located_error_and_exits_1() {
    let bad = tmp("broken.ron");
    std::fs::write(
        &bad,
        "(version: 1,\n  table: (width: 72, height: 48),\n  figures: [(name: \"X\", position: (1, 1), speed: 3)],\n)",
    )
    .unwrap();
    let out = tabula().arg("check").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with(&format!("{}:3:", bad.display())), "{err}");
    assert!(err.contains("speed"), "{err}");
}

#[test]
fn check_of_a_missing_file_exits_2() {
    let out = tabula().args(["check", "/nonexistent/x.ron"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn usage_errors_exit_2() {
    let out = tabula().args(["sim", "scenes/tomb.ron"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = tabula().arg("frobnicate").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_has_examples() {
    let subcommands =
        [&["--help"][..], &["check", "--help"], &["sim", "--help"], &["open", "--help"], &["rest", "--help"]];
    for sub in subcommands.into_iter().chain([&["record", "--help"][..]]) {
        let out = tabula().args(sub).output().unwrap();
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).contains("Examples:"), "{sub:?}");
    }
}

#[test]
fn two_sims_with_one_seed_write_identical_events() {
    let (a, b) = (tmp("a.jsonl"), tmp("b.jsonl"));
    for out in [&a, &b] {
        let status = tabula()
            .args(["sim", "--moves", "8", "--seed", "5", "--events"])
            .arg(out)
            .arg(scenes().join("tomb.ron"))
            .status()
            .unwrap();
        assert!(status.success());
    }
    let (ta, tb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert!(!ta.is_empty());
    assert_eq!(ta, tb);
}

#[test]
fn events_to_stdout_and_final_scene_that_loads() {
    let end = tmp("end.ron");
    let out = tabula()
        .args(["sim", "--moves", "3", "--events", "-", "--final"])
        .arg(&end)
        .arg(scenes().join("night-camp.ron"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    for line in stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["move"].as_u64().is_some());
    }
    let check = tabula().arg("check").arg(&end).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    let text = std::fs::read_to_string(&end).unwrap();
    assert!(text.contains("moves_played: 3"), "{text}");
}

#[test]
fn two_rests_with_one_seed_write_identical_events_and_a_final_scene_that_loads() {
    let (a, b, end) = (tmp("rest-a.jsonl"), tmp("rest-b.jsonl"), tmp("rested.ron"));
    for out in [&a, &b] {
        let run = tabula()
            .args(["rest", "--days", "10", "--seed", "3", "--events"])
            .arg(out)
            .arg("--final")
            .arg(&end)
            .arg(scenes().join("infirmary.ron"))
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(stdout.contains("10 days with seed 3"), "{stdout}");
    }
    let (ta, tb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert!(!ta.is_empty());
    assert_eq!(ta, tb);
    for line in String::from_utf8(ta).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["system"], "injuries", "{line}");
        assert!(v["day"].as_u64().is_some_and(|d| (1..=10).contains(&d)), "{line}");
    }
    let check = tabula().arg("check").arg(&end).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    assert!(std::fs::read_to_string(&end).unwrap().contains(&format!("moves_played: {}", 10 * 480)));
}

#[test]
fn rest_refuses_days_out_of_range_a_full_clock_and_writing_over_its_scene() {
    let infirmary = scenes().join("infirmary.ron");
    for days in ["0", "3651", "many"] {
        let out = tabula().args(["rest", "--days", days]).arg(&infirmary).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "--days {days}");
    }
    let near = tmp("near-full-rest.ron");
    std::fs::write(&near, "(version: 1, table: (width: 10, height: 10), clock: (moves_played: 999999))").unwrap();
    let end = tmp("never-rested.ron");
    let out = tabula().args(["rest", "--days", "1", "--final"]).arg(&end).arg(&near).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the most moves a scene may play") && !stderr.contains("panicked"), "{stderr}");
    assert!(!end.exists());
    let path = tmp("rest-read-and-written.ron");
    std::fs::copy(&infirmary, &path).unwrap();
    let original = std::fs::read(&path).unwrap();
    for flag in ["--events", "--final"] {
        let out = tabula().arg("rest").arg(&path).args(["--days", "1", flag]).arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--force"), "{flag}");
        assert_eq!(std::fs::read(&path).unwrap(), original, "{flag}: the scene is untouched");
    }
    let out =
        tabula().arg("rest").arg(&path).args(["--days", "1", "--final"]).arg(&path).arg("--force").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = tabula().arg("check").arg(&path).output().unwrap();
    assert!(out.status.success(), "the forced save loads");
}

#[test]
fn sim_of_a_broken_scene_exits_1() {
    let bad = tmp("bad-sim.ron");
    std::fs::write(&bad, "(version: 1, table: (width: 5000, height: 48))").unwrap();
    let out = tabula().args(["sim", "--moves", "1"]).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("table: width"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn import_writes_a_scene_and_its_image() {
    let map = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/uvtt/cave-20x20.dd2vtt");
    if !map.exists() {
        eprintln!("skipping: {} is not here", map.display());
        return;
    }
    let out = tmp("cave.ron");
    let run = tabula().arg("import").arg(&map).arg("-o").arg(&out).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(out.with_file_name("cave.png").exists());
    let check = tabula().arg("check").arg(&out).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    assert!(std::fs::read_to_string(&out).unwrap().contains("image: \"cave.png\""));
}

#[test]
fn a_broken_map_names_the_field_and_exits_1() {
    let bad = tmp("broken.dd2vtt");
    std::fs::write(&bad, r#"{"format": 0.3, "resolution": {"map_origin": {"x": 0, "y": 0}, "map_size": {"x": "wide", "y": 10}, "pixels_per_grid": 64}, "line_of_sight": []}"#).unwrap();
    let out = tabula().arg("import").arg(&bad).arg("-o").arg(tmp("never.ron")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("resolution.map_size.x"), "{err}");
    assert!(!tmp("never.ron").exists());
}

/// The sample cave map beside the clone, or None (with a note) where it is not there.
fn cave_map() -> Option<PathBuf> {
    let map = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/uvtt/cave-20x20.dd2vtt");
    if map.exists() {
        Some(map)
    } else {
        eprintln!("skipping the map: {} is not here", map.display());
        None
    }
}

/// Every subcommand that prints to standard output: `check`, `sim` and `rest` (their summary
/// lines and `--events -`), `playtest` (its report) and `import` (its summary line, after the
/// scene is written to a file named for `test`, so tests running at once do not share it).
fn printing_commands(test: &str) -> Vec<Vec<String>> {
    let tomb = scenes().join("tomb.ron").display().to_string();
    let farmstead = scenes().join("farmstead.ron").display().to_string();
    let infirmary = scenes().join("infirmary.ron").display().to_string();
    let mut commands = vec![
        vec!["check".into(), tomb.clone(), farmstead.clone()],
        vec!["sim".into(), tomb.clone(), "--moves".into(), "2".into()],
        vec!["sim".into(), farmstead, "--moves".into(), "3".into(), "--events".into(), "-".into()],
        vec!["rest".into(), infirmary.clone(), "--days".into(), "2".into()],
        vec!["rest".into(), infirmary, "--days".into(), "2".into(), "--events".into(), "-".into()],
        vec!["playtest".into(), tomb, "--runs".into(), "5".into(), "--moves".into(), "2".into()],
    ];
    if let Some(map) = cave_map() {
        let out = tmp(&format!("printed-{test}.ron")).display().to_string();
        commands.push(vec!["import".into(), map.display().to_string(), "-o".into(), out]);
    }
    commands
}

#[test]
fn a_closed_pipe_ends_a_command_quietly_with_exit_0() {
    // `tabula check scenes/*.ron | head -1`: the reader goes away before tabula writes.
    for args in printing_commands("closed-pipe") {
        let mut child = tabula()
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_device_is_a_write_error_with_exit_2() {
    for args in printing_commands("full-device") {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = tabula().args(&args).stdout(full).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("No space left"), "{args:?}: {stderr}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn devices_are_read_only_up_to_the_size_limit() {
    // /dev/zero and /dev/urandom never end: the read stops at the limit, so `check` answers
    // at once, too large, instead of filling memory or hanging.
    for device in ["/dev/zero", "/dev/urandom"] {
        let out = tabula().args(["check", device]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        // Too large is a file that is wrong: exit 1, as for any invalid scene.
        assert_eq!(out.status.code(), Some(1), "{device}: {stderr}");
        assert!(stderr.contains("larger than") && !stderr.contains("panicked"), "{device}: {stderr}");
    }
}

#[cfg(unix)]
#[test]
fn events_to_dev_null_discard_and_leave_the_device() {
    use std::os::unix::fs::FileTypeExt;
    let tomb = scenes().join("tomb.ron");
    let out = tabula().arg("sim").arg(&tomb).args(["--moves", "2", "--events", "/dev/null"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
}

#[test]
fn outputs_refuse_to_overwrite_the_file_being_read_unless_forced() {
    let path = tmp("read-and-written.ron");
    std::fs::copy(scenes().join("tomb.ron"), &path).unwrap();
    let original = std::fs::read(&path).unwrap();
    for flag in ["--events", "--final"] {
        let out = tabula().arg("sim").arg(&path).args(["--moves", "1", flag]).arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--force"), "{flag}");
        assert_eq!(std::fs::read(&path).unwrap(), original, "{flag}: the scene is untouched");
    }
    let out =
        tabula().arg("sim").arg(&path).args(["--moves", "1", "--final"]).arg(&path).arg("--force").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = tabula().arg("check").arg(&path).output().unwrap();
    assert!(out.status.success(), "the forced save loads");
}

#[test]
fn a_clock_that_would_wrap_is_refused_with_a_clear_error() {
    // On load: a clock past the most moves a scene may play (here about to wrap a u32).
    let wrapping = tmp("wrapping-clock.ron");
    std::fs::write(&wrapping, "(version: 1, table: (width: 10, height: 10), clock: (moves_played: 4294967295))")
        .unwrap();
    let out = tabula().arg("check").arg(&wrapping).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("clock: moves_played: 4294967295 is more than 1000000"), "{stderr}");
    // Adding moves: a clock near the maximum refuses the moves that would pass it, no panic,
    // and nothing is written.
    let near = tmp("near-full-clock.ron");
    std::fs::write(&near, "(version: 1, table: (width: 10, height: 10), clock: (moves_played: 999999))").unwrap();
    let end = tmp("never-written-end.ron");
    for args in [&["sim", "--moves", "2", "--final"][..], &["playtest", "--runs", "1", "--moves", "2", "--json"]] {
        let out = tabula().args(args).arg(&end).arg(&near).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("the most moves a scene may play") && !stderr.contains("panicked"), "{stderr}");
        assert!(!end.exists(), "{args:?}");
    }
    // The last move there is: played, and the end loads.
    let out = tabula().args(["sim", "--moves", "1", "--final"]).arg(&end).arg(&near).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let check = tabula().arg("check").arg(&end).output().unwrap();
    assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
    assert!(std::fs::read_to_string(&end).unwrap().contains("moves_played: 1000000"));
}

#[test]
fn an_import_that_cannot_write_its_scene_leaves_no_image() {
    let map = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/uvtt/cave-20x20.dd2vtt");
    if !map.exists() {
        eprintln!("skipping: {} is not here", map.display());
        return;
    }
    let dir = tmp("import-blocked");
    let _ = std::fs::remove_dir_all(&dir);
    // A folder where the scene would go: the scene cannot be written.
    std::fs::create_dir_all(dir.join("cave.ron")).unwrap();
    let run = tabula().arg("import").arg(&map).arg("-o").arg(dir.join("cave.ron")).output().unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", String::from_utf8_lossy(&run.stderr));
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["cave.ron"], "no image (nor temporary file) without its scene");
    // A folder that is not there: nothing is written.
    let out = dir.join("no-such-folder").join("cave.ron");
    let run = tabula().arg("import").arg(&map).arg("-o").arg(&out).output().unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

/// `tabula import MAP -o MAP`: the map being read is not written over unless `--force`, however
/// the path names it, and nothing else is written (no image beside it).
#[test]
fn import_refuses_to_write_its_scene_over_the_map_being_read_unless_forced() {
    let Some(cave) = cave_map() else { return };
    let dir = tmp("import-over-its-map");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let map = dir.join("cave.dd2vtt");
    std::fs::copy(&cave, &map).unwrap();
    let original = std::fs::read(&map).unwrap();
    for output in [map.clone(), dir.join(".").join("cave.dd2vtt")] {
        let out = tabula().arg("import").arg(&map).arg("-o").arg(&output).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", output.display());
        assert!(stderr.contains("is the file being read") && stderr.contains("--force"), "{stderr}");
        assert_eq!(std::fs::read(&map).unwrap(), original, "{}: the map is untouched", output.display());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no image written beside it");
    }
    let out = tabula().arg("import").arg(&map).arg("-o").arg(&map).arg("--force").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let check = tabula().arg("check").arg(&map).output().unwrap();
    assert!(check.status.success(), "the forced scene loads: {}", String::from_utf8_lossy(&check.stderr));
}

#[test]
fn record_refuses_an_unknown_kind_of_clip_or_an_option_out_of_bounds_before_opening_a_window() {
    let farmstead = scenes().join("farmstead.ron");
    for (args, says) in [
        (&["--moves", "2", "-o", "x.jpg"][..], ".gif, .png"),
        (&["--moves", "0", "-o", "x.gif"][..], "--moves"),
        (&["--moves", "2", "--fps", "61", "-o", "x.gif"][..], "--fps"),
        (&["--moves", "2", "--width", "99", "-o", "x.gif"][..], "--width"),
    ] {
        let out = tabula().arg("record").arg(&farmstead).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        // Without the `gui` feature a good command line is refused for want of a window instead.
        if cfg!(feature = "gui") || says.starts_with("--") {
            assert!(err.contains(says), "{args:?}: {err}");
        }
    }
}
