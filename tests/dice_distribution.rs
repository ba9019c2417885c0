//! Chi-square tests of every dice kind on a fixed seed, against the distribution the rule
//! conventions give (RULES-NOTES "Dice"): uniform faces, 2D6 and 2D10 triangular, D% 00–99.

mod common;

use common::chi_square;
use tabula::rules::dice::{Dice, SeededDice};

/// The probability of each value `lo..=hi`, worked out from the dice themselves.
fn expected(dice: Dice) -> (i32, Vec<f64>) {
    let uniform = |lo: i32, n: i32| (lo, vec![1.0 / n as f64; n as usize]);
    match dice {
        Dice::D10 => uniform(0, 10),
        Dice::Percent => uniform(0, 100),
        Dice::D6 | Dice::Mystic => uniform(1, 6),
        Dice::D3 => uniform(1, 3),
        Dice::D12 => uniform(1, 12),
        Dice::D20 => uniform(1, 20),
        Dice::D4 => uniform(1, 4),
        Dice::D8 => uniform(1, 8),
        Dice::TwoD6 => {
            let mut p = vec![0.0; 11];
            for a in 1..=6 {
                for b in 1..=6 {
                    p[a + b - 2] += 1.0 / 36.0;
                }
            }
            (2, p)
        }
        Dice::TwoD10 => {
            let mut p = vec![0.0; 19];
            for a in 1..=10 {
                for b in 1..=10 {
                    p[a + b - 2] += 1.0 / 100.0;
                }
            }
            (2, p)
        }
    }
}

/// Critical chi-square at p = 0.001 for `dof` degrees of freedom (Wilson–Hilferty).
fn chi2_critical(dof: usize) -> f64 {
    let k = dof as f64;
    let z = 3.090; // upper 0.001 normal quantile
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

#[test]
fn every_dice_kind_matches_its_distribution() {
    for (i, dice) in Dice::ALL.into_iter().enumerate() {
        let mut src = SeededDice::new(1000 + i as u64);
        let (lo, p) = expected(dice);
        let n = 200_000;
        let mut counts = vec![0u64; p.len()];
        for _ in 0..n {
            let v = dice.roll_value(&mut src);
            let idx = (v - lo) as usize;
            assert!(idx < counts.len(), "{dice} rolled {v}, outside its range");
            counts[idx] += 1;
        }
        let chi2 = chi_square(&counts, &p);
        let critical = chi2_critical(p.len() - 1);
        assert!(chi2 < critical, "{dice}: chi-square {chi2:.1} over {critical:.1}");
    }
}

#[test]
fn a_biased_die_would_fail_the_test() {
    // The check must be able to fail: a D6 that never shows 6 is caught.
    let n = 60_000u64;
    let counts = [n / 5, n / 5, n / 5, n / 5, n / 5, 0];
    let chi2 = chi_square(&counts, &[1.0 / 6.0; 6]);
    assert!(chi2 > chi2_critical(5));
}

#[test]
fn morval_d10_shows_zero_to_nine() {
    let mut src = SeededDice::new(3);
    let faces: Vec<i32> = (0..1000).map(|_| Dice::D10.roll_value(&mut src)).collect();
    assert_eq!(faces.iter().min(), Some(&0));
    assert_eq!(faces.iter().max(), Some(&9));
}
