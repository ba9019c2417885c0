//! A long local fuzzing run of the scene loader and the map importer (docs/fuzzing.md):
//!
//! ```sh
//! cargo run --release --no-default-features --example fuzz -- --minutes 30 [--seed N] [--out DIR]
//! ```
//!
//! Cases are made from `scenes/*.ron` and `../shared/uvtt/*` (three scenes to one map) until
//! the time is up, with `CheckOptions::LOCAL`: every accepted scene is simulated whatever its
//! size, a step slower than `--slow-ms` (5000) or a case over two minutes is huge work, and an
//! error line over 2000 characters is a finding. Each kind of finding is written once to the
//! output folder (`target/fuzz-findings/`, or `$CARGO_TARGET_DIR/fuzz-findings/`) with a note
//! beside it, and counted. Exit 0 with no findings, 1 with some, 2 on a usage error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tabula::fuzz::{CaseKind, CaseOutcome, CheckOptions, Corpus};

const USAGE: &str = "usage: fuzz [--minutes M] [--seed N] [--out DIR] [--moves N] [--slow-ms MS]\n  \
                     --minutes M   how long to run (10)\n  \
                     --seed N      the pass's seed, decimal or 0x hex (from the clock)\n  \
                     --out DIR     where findings are written (target/fuzz-findings)\n  \
                     --moves N     moves simulated for each accepted scene (3)\n  \
                     --slow-ms MS  a step slower than this is a finding (5000)";

struct Args {
    minutes: f64,
    seed: u64,
    out: PathBuf,
    moves: u32,
    slow_ms: u64,
}

fn parse_args() -> Result<Args, String> {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from);
    let mut args =
        Args { minutes: 10.0, seed: clock_seed(), out: target.join("fuzz-findings"), moves: 3, slow_ms: 5_000 };
    let mut words = std::env::args().skip(1);
    while let Some(flag) = words.next() {
        let mut value = || words.next().ok_or_else(|| format!("{flag} needs a value\n{USAGE}"));
        match flag.as_str() {
            "--minutes" => args.minutes = value()?.parse::<f64>().map_err(|e| format!("--minutes: {e}"))?,
            "--seed" => args.seed = parse_seed(&value()?)?,
            "--out" => args.out = PathBuf::from(value()?),
            "--moves" => args.moves = value()?.parse::<u32>().map_err(|e| format!("--moves: {e}"))?,
            "--slow-ms" => args.slow_ms = value()?.parse::<u64>().map_err(|e| format!("--slow-ms: {e}"))?,
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    if !(args.minutes.is_finite() && args.minutes > 0.0) {
        return Err(format!("--minutes: {} must be more than 0", args.minutes));
    }
    Ok(args)
}

fn parse_seed(text: &str) -> Result<u64, String> {
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|e| format!("--seed {text}: {e}"))
}

/// A seed from the clock, so each run explores new cases (it is printed, to run them again).
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    now.map_or(1, |d| d.as_nanos() as u64)
}

/// What makes two findings the same kind: the first line with every number replaced by `N`.
fn finding_kind(finding: &str) -> String {
    let mut kind = String::new();
    let mut in_number = false;
    for c in finding.lines().next().unwrap_or("").chars().take(160) {
        if c.is_ascii_digit() {
            if !in_number {
                kind.push('N');
            }
            in_number = true;
        } else {
            kind.push(c);
            in_number = false;
        }
    }
    kind
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut corpus = Corpus::default();
    if let Err(e) = corpus.add_folder(&root.join("scenes"), CaseKind::Scene) {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    corpus.add_finals(6, 7);
    if let Err(e) = corpus.add_folder(&root.join("../shared/uvtt"), CaseKind::Map) {
        eprintln!("note: no sample maps ({e})");
    }
    let options =
        CheckOptions { moves: args.moves, slow: Some(Duration::from_millis(args.slow_ms)), ..CheckOptions::LOCAL };
    let limit = Duration::from_secs_f64(args.minutes * 60.0);
    eprintln!(
        "fuzzing for {} minutes from seed {:#x}: {} scenes and {} maps as sources; findings go to {}",
        args.minutes,
        args.seed,
        corpus.scene_sources(),
        corpus.map_sources(),
        args.out.display()
    );

    let started = Instant::now();
    let mut last_report = started;
    let (mut cases, mut rejected, mut accepted, mut simulated, mut found) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let (mut scene_index, mut map_index) = (0u64, 0u64);
    // Each kind of finding: how many times, and where its first input was written.
    let mut kinds: BTreeMap<String, (u64, String)> = BTreeMap::new();
    while started.elapsed() < limit {
        let case = if corpus.map_sources() > 0 && cases % 4 == 3 {
            map_index += 1;
            corpus.map_case(map_index - 1, args.seed)
        } else {
            scene_index += 1;
            corpus.scene_case(scene_index - 1, args.seed)
        };
        let Some(case) = case else { break };
        cases += 1;
        match case.check(&options) {
            Ok(CaseOutcome::Rejected) => rejected += 1,
            Ok(CaseOutcome::Accepted { simulated: ran }) => {
                accepted += 1;
                simulated += u64::from(ran);
            }
            Err(finding) => {
                found += 1;
                let entry = kinds.entry(finding_kind(&finding)).or_insert((0, String::new()));
                entry.0 += 1;
                if entry.0 == 1 {
                    entry.1 = match case.write(&args.out, &finding) {
                        Ok(file) => file.display().to_string(),
                        Err(e) => format!("(not written: {e})"),
                    };
                    eprintln!("finding: {} seed {:#x}: {finding}\n  input: {}", case.source, case.seed, entry.1);
                }
            }
        }
        if last_report.elapsed() > Duration::from_secs(30) {
            last_report = Instant::now();
            eprintln!(
                "{:.1} min: {cases} cases, {rejected} refused, {accepted} accepted ({simulated} simulated), {found} findings of {} kinds",
                started.elapsed().as_secs_f64() / 60.0,
                kinds.len()
            );
        }
    }

    println!(
        "{cases} cases in {:.1} min from seed {:#x}: {rejected} refused, {accepted} accepted ({simulated} simulated), {found} findings of {} kinds",
        started.elapsed().as_secs_f64() / 60.0,
        args.seed,
        kinds.len()
    );
    for (kind, (count, file)) in &kinds {
        println!("{count:>6} x {kind}\n         first input: {file}");
    }
    if kinds.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
