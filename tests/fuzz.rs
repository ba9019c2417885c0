//! A fixed-seed fuzz pass over the scene loader and the Universal VTT importer
//! (docs/fuzzing.md): every example scene and sample map as it is, then cases mutated from them.
//! Every case must hold the properties `tabula::fuzz` checks: no panic, a clear located error or
//! a scene that saves and loads again unchanged, and a `--final` scene that loads.
//!
//! `TABULA_FUZZ_CASES=N` runs N scene cases and N/2 map cases instead of 200 and 100;
//! `TABULA_FUZZ_SEED=S` (decimal or 0x hex) starts from another seed. Each finding names its
//! source and seed, and its input is written to the target folder's `tmp/fuzz-findings/`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tabula::fuzz::{Case, CaseKind, CaseOutcome, CheckOptions, Corpus};

/// Scene cases in a default pass.
const SCENE_CASES: u64 = 200;
/// Map cases in a default pass.
const MAP_CASES: u64 = 100;
/// The pass's seed: fixed, so every `cargo test` checks the same cases.
const SEED: u64 = 0x7AB0_1A5E_ED00_0016;
/// After this long a pass still loads and saves its cases but simulates no more, so a slow
/// debug build ends in about a minute whatever the machine.
const SIM_TIME: Duration = Duration::from_secs(40);

fn corpus() -> Corpus {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut corpus = Corpus::default();
    let scenes = corpus.add_folder(&root.join("scenes"), CaseKind::Scene).unwrap_or_else(|e| panic!("{e}"));
    assert!(scenes >= 5, "expected the example scenes, found {scenes}");
    // The sample maps sit beside the clone, not in it (as tests/uvtt.rs finds them).
    if let Err(e) = corpus.add_folder(&root.join("../shared/uvtt"), CaseKind::Map) {
        eprintln!("note: no sample maps ({e}); they sit in ../shared/uvtt beside the clone");
    }
    corpus
}

/// A number from the environment, decimal or `0x` hex; None when the variable is not set.
fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    let text = text.trim();
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    Some(parsed.unwrap_or_else(|e| panic!("{name}={text}: not a number ({e})")))
}

fn findings_folder() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-findings")
}

/// Check every case, simulating until `SIM_TIME` is spent, and fail listing every finding.
fn run(what: &str, cases: impl Iterator<Item = Case>, options: CheckOptions) {
    let started = Instant::now();
    let (mut total, mut rejected, mut accepted, mut simulated) = (0usize, 0usize, 0usize, 0usize);
    let mut findings = Vec::new();
    for case in cases {
        total += 1;
        let mut options = options;
        if started.elapsed() > SIM_TIME {
            options.moves = 0;
        }
        match case.check(&options) {
            Ok(CaseOutcome::Rejected) => rejected += 1,
            Ok(CaseOutcome::Accepted { simulated: ran }) => {
                accepted += 1;
                simulated += usize::from(ran);
            }
            Err(finding) => {
                let file = match case.write(&findings_folder(), &finding) {
                    Ok(file) => file.display().to_string(),
                    Err(e) => format!("(not written: {e})"),
                };
                findings.push(format!("{} seed {:#x}: {finding}\n    input: {file}", case.source, case.seed));
            }
        }
    }
    eprintln!(
        "{what}: {total} cases in {:.1} s: {rejected} refused, {accepted} accepted ({simulated} simulated), {} findings",
        started.elapsed().as_secs_f64(),
        findings.len()
    );
    assert!(
        findings.is_empty(),
        "{what}: {} findings (docs/fuzzing.md says how to reproduce one):\n{}",
        findings.len(),
        findings.join("\n")
    );
}

#[test]
fn the_example_scenes_and_maps_run_save_and_load_again() {
    let corpus = corpus();
    let options = CheckOptions { sim_one_in: 1, ..CheckOptions::TEST };
    run("originals", corpus.originals().into_iter(), options);
}

#[test]
fn mutated_scenes_load_or_fail_clearly_and_what_they_save_loads() {
    let mut corpus = corpus();
    // The examples after a few moves too: what only the simulation writes (fire state, ignitions,
    // conditions, sleepers' states) is mutated as well.
    corpus.add_finals(4, 7);
    let cases = env_number("TABULA_FUZZ_CASES").unwrap_or(SCENE_CASES);
    let seed = env_number("TABULA_FUZZ_SEED").unwrap_or(SEED);
    run("scene cases", (0..cases).filter_map(|i| corpus.scene_case(i, seed)), CheckOptions::TEST);
}

#[test]
fn mutated_maps_import_or_fail_clearly_and_what_they_save_loads() {
    let corpus = corpus();
    if corpus.map_sources() == 0 {
        eprintln!("note: skipping, no sample maps");
        return;
    }
    let cases = env_number("TABULA_FUZZ_CASES").map_or(MAP_CASES, |n| n.div_ceil(2));
    let seed = env_number("TABULA_FUZZ_SEED").unwrap_or(SEED);
    run("map cases", (0..cases).filter_map(|i| corpus.map_case(i, seed)), CheckOptions::TEST);
}
