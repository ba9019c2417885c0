//! Helpers shared by the integration tests (`mod common;` in each file that uses them).

// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

// The same file the unit tests use as `crate::rules::stats`: one chi-square for every test.
#[path = "../../src/rules/stats.rs"]
mod stats;

pub use stats::chi_square;
