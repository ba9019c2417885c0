//! Statistics for the tests of dice-driven rules (test builds only): Pearson's chi-square.
//!
//! The one copy: the unit tests use it as `crate::rules::stats`, and the integration tests
//! include this same file by path from `tests/common/mod.rs`, so it must need nothing but `std`.

use std::fmt::Debug;

/// Pearson's chi-square statistic of observed counts against the probabilities of the same
/// outcomes, the expected counts taken from the observed total. An outcome of probability 0 is
/// left out of the sum, and must not have been observed: the rules say it cannot happen.
pub fn chi_square<C: Copy + Into<u64> + Debug>(observed: &[C], probabilities: &[f64]) -> f64 {
    assert_eq!(observed.len(), probabilities.len(), "one probability for each outcome counted");
    let trials: u64 = observed.iter().map(|&o| o.into()).sum();
    let mut chi = 0.0;
    for (&o, &p) in observed.iter().zip(probabilities) {
        let o: u64 = o.into();
        let expected = p * trials as f64;
        if expected == 0.0 {
            assert_eq!(o, 0, "an outcome the rules make impossible happened: {observed:?}");
            continue;
        }
        let d = o as f64 - expected;
        chi += d * d / expected;
    }
    chi
}
