//! Match statistics from the first engine's point of view: W/D/L, score,
//! logistic Elo with a 95% interval (trinomial, per game; and pentanomial,
//! per opening pair), normalized Elo, and the likelihood of superiority.

use std::collections::HashMap;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The pair score categories: 0, ½, 1, 1½, 2 points out of 2 games.
pub const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Game and pair counts, first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Opening pairs by the first engine's points in the pair (0, ½ … 2).
    pub penta: [u32; 5],
}

/// Logistic Elo difference of a score fraction (`None` at 0 or 1).
pub fn elo(score: f64) -> Option<f64> {
    if score <= 0.0 || score >= 1.0 || score.is_nan() {
        return None;
    }
    Some(-400.0 * (1.0 / score - 1.0).log10())
}

/// The error function (W. J. Cody's rational approximations are overkill
/// here: Abramowitz–Stegun 7.1.26 has an absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let s = x.signum();
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    s * y
}

/// Total count, mean and variance of a discrete distribution given by
/// counts of `values`.
pub fn mean_var(counts: &[f64], values: &[f64]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let mean = counts.iter().zip(values).map(|(c, v)| c * v).sum::<f64>() / n;
    let var = counts
        .iter()
        .zip(values)
        .map(|(c, v)| c * (v - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// An Elo estimate with its 95% interval (ends `None` when unbounded).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloInterval {
    pub elo: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

impl EloInterval {
    fn from(mean: f64, se: f64) -> EloInterval {
        EloInterval {
            elo: elo(mean),
            low: elo(mean - Z95 * se),
            high: elo(mean + Z95 * se),
        }
    }
}

fn fmt_elo(e: Option<f64>, inf: &str) -> String {
    e.map_or(inf.to_string(), |e| format!("{e:+.1}"))
}

impl std::fmt::Display for EloInterval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mid = match (self.elo, self.low, self.high) {
            (Some(e), Some(lo), Some(hi)) => return write!(f, "{e:+.1} ± {:.1}", (hi - lo) / 2.0),
            (e, _, _) => fmt_elo(e, "n/a"),
        };
        write!(
            f,
            "{mid} [{}, {}]",
            fmt_elo(self.low, "-inf"),
            fmt_elo(self.high, "+inf")
        )
    }
}

impl Tally {
    /// Counts game `g`, which scored `score` (1, ½ or 0) for the first
    /// engine; games 2k and 2k + 1 form opening pair k, whose first half
    /// waits in `pending` until the second arrives.
    pub fn record(&mut self, g: u32, score: f64, pending: &mut HashMap<u32, f64>) {
        if score > 0.75 {
            self.wins += 1;
        } else if score > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
        if let Some(other) = pending.remove(&(g / 2)) {
            self.penta[((score + other) * 2.0) as usize] += 1;
        } else {
            pending.insert(g / 2, score);
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Complete opening pairs counted.
    pub fn pairs(&self) -> u32 {
        self.penta.iter().sum()
    }

    /// Score fraction (draw = ½).
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// Elo and 95% interval from the per-game (trinomial) variance.
    pub fn elo_trinomial(&self) -> Option<EloInterval> {
        let counts = [self.losses as f64, self.draws as f64, self.wins as f64];
        let (n, mean, var) = mean_var(&counts, &[0.0, 0.5, 1.0])?;
        Some(EloInterval::from(mean, (var / n).sqrt()))
    }

    /// Elo and 95% interval from the per-pair (pentanomial) variance: the
    /// right one when every opening is played with both colours.
    pub fn elo_pentanomial(&self) -> Option<EloInterval> {
        let counts = self.penta.map(|c| c as f64);
        let (n, mean, var) = mean_var(&counts, &PENTA_SCORES)?;
        Some(EloInterval::from(mean, (var / n).sqrt()))
    }

    /// Normalized Elo (Fishtest): `(μ − ½) / σ · 800 / ln 10` with σ the
    /// per-game standard deviation estimated from the pairs (√2 σ_pair).
    pub fn normalized_elo(&self) -> Option<f64> {
        let counts = self.penta.map(|c| c as f64);
        let (_, mean, var) = mean_var(&counts, &PENTA_SCORES)?;
        (var > 0.0).then(|| (mean - 0.5) / (2.0 * var).sqrt() * 800.0 / std::f64::consts::LN_10)
    }

    /// Likelihood of superiority: `½ (1 + erf((W − L) / √(2 (W + L))))`.
    pub fn los(&self) -> Option<f64> {
        let (w, l) = (self.wins as f64, self.losses as f64);
        (w + l > 0.0).then(|| 0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} vs {b}");
    }

    #[test]
    fn elo_of_known_scores() {
        close(elo(0.5).unwrap(), 0.0, 1e-12);
        // 75%: 400·log10(3).
        close(elo(0.75).unwrap(), 190.848_501_887_865, 1e-9);
        close(elo(0.25).unwrap(), -190.848_501_887_865, 1e-9);
        // The chess rule of thumb: 64% ≈ +100.
        close(elo(0.64).unwrap(), 99.96, 0.01);
        assert_eq!(elo(1.0), None);
        assert_eq!(elo(0.0), None);
    }

    #[test]
    fn erf_matches_tables() {
        close(erf(0.0), 0.0, 1e-7);
        close(erf(0.5), 0.520_499_877_8, 2e-7);
        close(erf(1.0), 0.842_700_792_9, 2e-7);
        close(erf(2.0), 0.995_322_265_0, 2e-7);
        close(erf(-1.0), -0.842_700_792_9, 2e-7);
    }

    #[test]
    fn trinomial_interval_by_hand() {
        // 60 W, 20 D, 20 L: s = 0.7, per-game variance
        // (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16, se = 0.04,
        // s ± 1.96·0.04 = 0.62160..0.77840.
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
            penta: [0; 5],
        };
        let e = t.elo_trinomial().unwrap();
        close(e.elo.unwrap(), 147.190_714_1, 1e-6);
        close(e.low.unwrap(), elo(0.7 - Z95 * 0.04).unwrap(), 1e-9);
        close(e.low.unwrap(), 86.225, 0.001);
        close(e.high.unwrap(), 218.252, 0.001);
        close(t.score().unwrap(), 0.7, 1e-12);
    }

    #[test]
    fn pentanomial_interval_and_normalized_elo_by_hand() {
        // Pairs 0/½/1/1½/2 points: 1, 2, 4, 2, 1 → mean ½, variance
        // (2·0.25 + 4·0.0625)/10 = 0.075: Elo 0, nElo 0, symmetric interval.
        let t = Tally {
            penta: [1, 2, 4, 2, 1],
            ..Tally::default()
        };
        let e = t.elo_pentanomial().unwrap();
        close(e.elo.unwrap(), 0.0, 1e-9);
        let se = (0.075f64 / 10.0).sqrt();
        close(e.high.unwrap(), elo(0.5 + Z95 * se).unwrap(), 1e-9);
        close(e.low.unwrap(), -e.high.unwrap(), 1e-9);
        close(t.normalized_elo().unwrap(), 0.0, 1e-9);
        // Pairs 0, 0, 6, 3, 1: mean (3 + 2.25 + 1)/10 = 0.625, variance
        // (6·0.015625 + 3·0.015625 + 0.140625)/10 = 0.028125;
        // nElo = 0.125/√0.05625 · 347.4355855 = 183.115.
        let t = Tally {
            penta: [0, 0, 6, 3, 1],
            ..Tally::default()
        };
        close(t.normalized_elo().unwrap(), 183.114_6, 1e-3);
    }

    #[test]
    fn los_by_hand() {
        let t = |w, l| Tally {
            wins: w,
            losses: l,
            draws: 7,
            penta: [0; 5],
        };
        close(t(5, 5).los().unwrap(), 0.5, 1e-9);
        // ½(1 + erf(5/√10)) = 0.987 326.
        close(t(5, 0).los().unwrap(), 0.987_326, 1e-5);
        assert_eq!(t(0, 0).los(), None);
    }
}
