//! Sequential probability ratio test on opening pairs, as Fishtest runs it:
//! the generalized SPRT under the pentanomial model with hypotheses in
//! normalized Elo (M. Van den Bergh, "Normalized Elo", §4.1). The LLR is
//! `N · Σ p̂ᵢ ln(p₁ᵢ / p₀ᵢ)` where p₀, p₁ are the maximum-likelihood pair
//! distributions whose t-value `(μ − ½)/σ_pair` equals `√2 · nElo / (800 / ln 10)`.
//! Wald's bounds: `ln(β / (1 − α))` and `ln((1 − β) / α)`.

use super::stats::{PENTA_SCORES, mean_var};

/// `800 / ln 10`: normalized Elo per unit of per-game t-value.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Counts of zero are replaced by this, as Fishtest does, so the MLE exists.
const REGULARIZE: f64 = 1e-3;

/// An SPRT: hypotheses `nelo0` (H0) and `nelo1` (H1), error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Continue,
    /// LLR at or below the lower bound: H0 (no gain of `elo1`).
    AcceptH0,
    /// LLR at or above the upper bound: H1.
    AcceptH1,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order, each optional:
    /// defaults 0, 5, 0.05, 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for tok in text.split([' ', ',']).filter(|t| !t.is_empty()) {
            let (k, v) = tok
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{tok}' is not name=value"))?;
            let x: f64 = v
                .parse()
                .map_err(|_| format!("--sprt: '{v}' is not a number"))?;
            match k {
                "elo0" => s.elo0 = x,
                "elo1" => s.elo1 = x,
                "alpha" => s.alpha = x,
                "beta" => s.beta = x,
                _ => return Err(format!("--sprt: unknown '{k}' (elo0, elo1, alpha, beta)")),
            }
        }
        if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
            return Err("--sprt: alpha and beta must be in (0, 0.5)".into());
        }
        if s.elo1 <= s.elo0 {
            return Err("--sprt: elo1 must be greater than elo0".into());
        }
        Ok(s)
    }

    /// `(lower, upper)` LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for the pair counts
    /// (0, ½, 1, 1½, 2 points of the first engine per pair).
    pub fn llr(&self, penta: &[u32; 5]) -> f64 {
        if penta.iter().sum::<u32>() == 0 {
            return 0.0;
        }
        let counts = penta.map(|c| if c == 0 { REGULARIZE } else { c as f64 });
        let n: f64 = counts.iter().sum();
        let phat = counts.map(|c| c / n);
        let t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
        let p0 = mle_t_value(&phat, 0.5, t(self.elo0));
        let p1 = mle_t_value(&phat, 0.5, t(self.elo1));
        n * (0..5).map(|i| phat[i] * (p1[i] / p0[i]).ln()).sum::<f64>()
    }

    /// Records the LLR after a game in `state` (the last LLR and verdict)
    /// and returns the verdict that stands. A decision, once taken, stays:
    /// the games still being played when the match stops are scored, but
    /// their LLR moves must not turn an accepted hypothesis back into "no
    /// decision" in the summary.
    pub fn record(&self, state: &mut Option<(f64, Verdict)>, llr: f64) -> Verdict {
        match *state {
            Some((_, v)) if v != Verdict::Continue => v,
            _ => {
                let v = self.verdict(llr);
                *state = Some((llr, v));
                v
            }
        }
    }

    /// The decision for an LLR.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::AcceptH1
        } else if llr <= lo {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }
}

/// Van den Bergh's quick approximation (§4.2) of the same LLR, for checks:
/// `N/2 · ln((1 + (t̂ − t₀)²) / (1 + (t̂ − t₁)²))` with pair t-values.
pub fn llr_approx(sprt: &Sprt, penta: &[u32; 5]) -> f64 {
    let counts = penta.map(|c| c as f64);
    let Some((n, mean, var)) = mean_var(&counts, &PENTA_SCORES) else {
        return 0.0;
    };
    let t_hat = (mean - 0.5) / var.sqrt();
    let t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
    let (t0, t1) = (t(sprt.elo0), t(sprt.elo1));
    n / 2.0 * ((1.0 + (t_hat - t0).powi(2)) / (1.0 + (t_hat - t1).powi(2))).ln()
}

/// The distribution closest to `phat` (maximum likelihood) among those with
/// `(μ − reference) / σ = t`: iterate `pᵢ = p̂ᵢ / (1 + x φᵢ)` where φ is the
/// gradient of the constraint at the current estimate and x solves
/// `Σ p̂ᵢ φᵢ / (1 + x φᵢ) = 0`.
fn mle_t_value(phat: &[f64; 5], reference: f64, t: f64) -> [f64; 5] {
    let a = PENTA_SCORES;
    let mut p = [0.2; 5];
    for _ in 0..50 {
        let mu: f64 = (0..5).map(|i| p[i] * a[i]).sum();
        let var: f64 = (0..5).map(|i| p[i] * (a[i] - mu).powi(2)).sum();
        let sigma = var.sqrt().max(1e-12);
        let phi =
            a.map(|ai| ai - reference - t * (sigma * sigma + (ai - mu).powi(2)) / (2.0 * sigma));
        let x = secular(phat, &phi);
        let next: [f64; 5] = std::array::from_fn(|i| phat[i] / (1.0 + x * phi[i]));
        let done = (0..5).all(|i| (next[i] - p[i]).abs() < 1e-12);
        p = next;
        if done {
            break;
        }
    }
    p
}

/// Solves `Σ wᵢ φᵢ / (1 + x φᵢ) = 0` for x with every `1 + x φᵢ > 0`
/// (the left side decreases in x: bisection).
fn secular(w: &[f64; 5], phi: &[f64; 5]) -> f64 {
    let max = phi.iter().cloned().fold(f64::MIN, f64::max);
    let min = phi.iter().cloned().fold(f64::MAX, f64::min);
    if max <= 0.0 || min >= 0.0 {
        return 0.0;
    }
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    let f = |x: f64| {
        (0..5)
            .map(|i| w[i] * phi[i] / (1.0 + x * phi[i]))
            .sum::<f64>()
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} vs {b}");
    }

    #[test]
    fn a_decision_stands_after_the_games_in_flight() {
        let s = Sprt::parse("elo0=0 elo1=15 alpha=0.05 beta=0.05").unwrap();
        let mut state = None;
        assert_eq!(s.record(&mut state, -1.0), Verdict::Continue);
        assert_eq!(state, Some((-1.0, Verdict::Continue)));
        assert_eq!(s.record(&mut state, -2.96), Verdict::AcceptH0);
        // A game that was being played moves the LLR back inside the bounds.
        assert_eq!(s.record(&mut state, -2.90), Verdict::AcceptH0);
        assert_eq!(state, Some((-2.96, Verdict::AcceptH0)));
        let mut up = None;
        s.record(&mut up, 3.0);
        assert_eq!(s.record(&mut up, 2.5), Verdict::AcceptH1);
    }

    #[test]
    fn wald_bounds() {
        let s = Sprt::parse("elo0=0 elo1=5 alpha=0.05 beta=0.05").unwrap();
        let (lo, hi) = s.bounds();
        // ln(0.05/0.95) = −2.944 439.
        close(lo, -2.944_438_979, 1e-8);
        close(hi, 2.944_438_979, 1e-8);
        let s = Sprt::parse("alpha=0.05,beta=0.1").unwrap();
        close(s.bounds().0, (0.1f64 / 0.95).ln(), 1e-12);
        close(s.bounds().1, 18f64.ln(), 1e-12);
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert!(Sprt::parse("elo0=5 elo1=0").is_err());
        assert!(Sprt::parse("alpha=0").is_err());
        assert!(Sprt::parse("gamma=1").is_err());
        assert!(Sprt::parse("elo0=x").is_err());
    }

    #[test]
    fn symmetric_results_and_symmetric_hypotheses_give_zero() {
        let s = Sprt::parse("elo0=-5 elo1=5").unwrap();
        close(s.llr(&[10, 30, 50, 30, 10]), 0.0, 1e-9);
        assert_eq!(s.llr(&[0; 5]), 0.0);
    }

    #[test]
    fn exact_llr_matches_reference_values() {
        // Reference values from an independent Python transcription of
        // Fishtest's LLRcalc (MLE_t_value + secular, results regularized with
        // 1e-3), nElo hypotheses 0 and 5 (pentanomial t = nElo·√2/347.4356).
        let s = Sprt::parse("elo0=0 elo1=5").unwrap();
        close(s.llr(&[20, 100, 200, 120, 30]), 0.764_462, 1e-4);
        close(s.llr(&[30, 120, 200, 100, 20]), -0.958_448, 1e-4);
        close(s.llr(&[0, 3, 10, 6, 1]), 0.129_362, 1e-4);
        let s = Sprt::parse("elo0=0 elo1=10").unwrap();
        close(s.llr(&[20, 100, 200, 120, 30]), 1.334_892, 1e-4);
    }

    #[test]
    fn exact_and_approximate_llr_agree_on_large_samples() {
        let s = Sprt::parse("elo0=0 elo1=5").unwrap();
        for penta in [[200, 1000, 2000, 1200, 300], [300, 1200, 2000, 1000, 200]] {
            let (e, a) = (s.llr(&penta), llr_approx(&s, &penta));
            assert!((e - a).abs() < 0.05 * e.abs().max(1.0), "{e} vs {a}");
        }
    }

    #[test]
    fn verdicts() {
        let s = Sprt::parse("").unwrap();
        assert_eq!(s.verdict(0.0), Verdict::Continue);
        assert_eq!(s.verdict(3.0), Verdict::AcceptH1);
        assert_eq!(s.verdict(-3.0), Verdict::AcceptH0);
    }
}
