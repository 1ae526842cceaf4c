//! Time management: turns [`Limits`] into a soft deadline (do not start
//! another iteration after it) and a hard deadline (abort the search), both
//! measured from the moment the clock starts (search start, or ponder-hit).

use super::Limits;
use super::tune::P;
use std::time::{Duration, Instant};

/// Kept back from every clock budget for the answer to travel (process
/// wake-up, the protocol loop, the pipe).
const SAFETY: Duration = Duration::from_millis(15);

/// The deadlines derived from the limits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// After this, no new iteration is started.
    pub soft: Option<Duration>,
    /// After this, the search is aborted.
    pub hard: Option<Duration>,
    /// No time at all: search one iteration and answer.
    pub minimal: bool,
    /// Only a fixed move time: it is used in full (iterations go on until
    /// the hard deadline aborts one).
    pub fixed: bool,
}

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(s.clamp(0.0, 1e7))
}

impl Plan {
    /// The plan for a search under `limits`.
    pub fn new(limits: &Limits) -> Plan {
        if limits.infinite {
            return Plan {
                soft: None,
                hard: None,
                minimal: false,
                fixed: false,
            };
        }
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        let mut minimal = false;
        if let Some(mt) = limits.move_time.filter(|t| t.is_finite()) {
            if mt <= 0.0 {
                minimal = true;
            }
            // A fixed move time is used in full: soft = hard.
            let h = secs(mt)
                .saturating_sub(SAFETY / 3)
                .max(Duration::from_millis(1));
            soft = Some(h);
            hard = Some(h);
        }
        if let Some(t) = limits.time.filter(|t| t.is_finite()) {
            let inc = if limits.inc.is_finite() {
                limits.inc.max(0.0)
            } else {
                0.0
            };
            // Hub credits the increment before the move: it is ours now.
            let avail = t + inc;
            if t <= 0.0 || avail <= SAFETY.as_secs_f64() {
                minimal = true;
            }
            let mtg = match limits.moves {
                Some(m) if m > 0 => (m as f64).min(P.tm_moves),
                _ => P.tm_moves,
            };
            // Keep back the safety margin plus a share of the clock for
            // the moves after this one.
            let usable = (avail - SAFETY.as_secs_f64() - 0.02 * avail).max(0.001);
            let target = if mtg <= 1.0 {
                usable * 0.8
            } else {
                (t.max(0.0) / mtg + P.tm_inc * inc).min(usable)
            };
            let h = (target * P.tm_hard).min(usable).max(0.001);
            let s = target.min(h);
            soft = Some(soft.map_or(secs(s), |x| x.min(secs(s))));
            hard = Some(hard.map_or(secs(h), |x| x.min(secs(h))));
        }
        let fixed = limits.move_time.is_some_and(|t| t.is_finite())
            && !limits.time.is_some_and(|t| t.is_finite());
        Plan {
            soft,
            hard,
            minimal,
            fixed,
        }
    }
}

/// The running clock of one search.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    plan: Plan,
    /// When the clock started; `None` while pondering.
    start: Option<Instant>,
}

impl Clock {
    /// A clock following `plan`, running now unless `pondering`.
    pub fn new(plan: Plan, pondering: bool) -> Clock {
        Clock {
            plan,
            start: (!pondering).then(Instant::now),
        }
    }

    /// Starts the clock (ponder-hit); a running clock is left alone.
    pub fn start(&mut self) {
        if self.start.is_none() {
            self.start = Some(Instant::now());
        }
    }

    /// True while the clock runs (not pondering).
    pub fn running(&self) -> bool {
        self.start.is_some()
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    fn elapsed(&self) -> Option<Duration> {
        self.start.map(|s| s.elapsed())
    }

    /// True when the hard deadline has passed.
    pub fn hard_expired(&self) -> bool {
        matches!((self.elapsed(), self.plan.hard), (Some(e), Some(h)) if e >= h)
    }

    /// True when no new iteration should start. `factor` stretches the soft
    /// deadline (e.g. when the best move just changed); an iteration is not
    /// started past about half the soft time as it would rarely finish.
    pub fn soft_expired(&self, factor: f64) -> bool {
        match (self.elapsed(), self.plan.soft, self.plan.hard) {
            (Some(e), _, Some(h)) if self.plan.fixed => e >= h,
            (Some(e), Some(s), h) => {
                let mut limit = s.mul_f64(factor * P.tm_soft);
                if let Some(h) = h {
                    limit = limit.min(h);
                }
                e >= limit
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(l: Limits) -> Plan {
        Plan::new(&l)
    }

    #[test]
    fn no_time_means_minimal() {
        for t in [0.0, -3.0] {
            let p = plan(Limits {
                time: Some(t),
                ..Limits::default()
            });
            assert!(p.minimal);
        }
        assert!(
            plan(Limits {
                move_time: Some(0.0),
                ..Limits::default()
            })
            .minimal
        );
    }

    #[test]
    fn clock_budgets_stay_below_the_clock() {
        for (time, inc, moves) in [(60.0, 0.0, None), (1.0, 0.5, None), (10.0, 0.0, Some(1))] {
            let p = plan(Limits {
                time: Some(time),
                inc,
                moves,
                ..Limits::default()
            });
            let hard = p.hard.unwrap().as_secs_f64();
            assert!(hard < time + inc - 0.01, "{time} {inc} {moves:?}: {hard}");
            assert!(p.soft.unwrap() <= p.hard.unwrap());
            assert!(!p.minimal);
        }
    }

    #[test]
    fn infinite_has_no_deadline() {
        let p = plan(Limits {
            infinite: true,
            time: Some(5.0),
            ..Limits::default()
        });
        assert_eq!((p.soft, p.hard), (None, None));
    }
}
