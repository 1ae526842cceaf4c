//! Time controls and the referee's clocks. The Hub `level` line is built
//! here, and so is the deadline after which a side has lost on time.
//!
//! Forms of `--tc`: `depth=N`, `nodes=N`, `move-time=S` (or `movetime=S`),
//! `T+I` (T seconds for the game, I added before every move, Hub style),
//! `M/T` or `M/T+I` (M moves in T seconds, repeating).
//!
//! Every number of seconds a user gives goes through [`seconds`]: at most
//! [`MAX_SECONDS`], so that no clock sum overflows a `Duration` (which
//! panics) and no deadline overflows an `Instant`.

use crate::hub::line::Writer;
use std::time::Duration;

/// The largest number of seconds accepted anywhere on the command line
/// (11.6 days; the Hub `level` command has the same bound).
pub const MAX_SECONDS: f64 = 1e6;

/// Checks a number of seconds given by the user: finite, not negative, at
/// most [`MAX_SECONDS`]. `what` names it in the message.
pub fn seconds(what: &str, x: f64) -> Result<f64, String> {
    // The messages leave the value out: 1e300 would print 301 digits.
    if !x.is_finite() || x < 0.0 {
        Err(format!(
            "{what}: not a number of seconds (finite, not negative)"
        ))
    } else if x > MAX_SECONDS {
        Err(format!("{what}: more than {MAX_SECONDS} seconds"))
    } else {
        Ok(x)
    }
}

/// Seconds as a `Duration` that an `Instant` can always be advanced by:
/// negative and NaN give zero, and sums of checked values (a repeating
/// control adds its period time again and again) are capped far away.
fn duration(secs: f64) -> Duration {
    const CAP: f64 = 1e9;
    if secs > 0.0 {
        Duration::from_secs_f64(secs.min(CAP))
    } else {
        Duration::ZERO
    }
}

/// A time control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    Depth(u32),
    Nodes(u64),
    MoveTime(f64),
    /// Game time, increment, and moves per period (`None`: sudden death).
    Clock {
        time: f64,
        inc: f64,
        moves: Option<u32>,
    },
}

impl TimeControl {
    /// Reads one of the forms in the module header.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let t = text.trim();
        let bad = |what: &str| format!("time control '{t}': {what}");
        let num = |s: &str| -> Result<f64, String> {
            let x: f64 = s.trim().parse().map_err(|_| bad("not a number"))?;
            seconds(&format!("time control '{t}'"), x)
        };
        if let Some((k, v)) = t.split_once('=') {
            return match k.trim() {
                "depth" => match v.trim().parse::<u32>() {
                    Ok(d) if d > 0 => Ok(TimeControl::Depth(d)),
                    _ => Err(bad("depth must be a positive integer")),
                },
                "nodes" => match v.trim().parse::<u64>() {
                    Ok(n) if n > 0 => Ok(TimeControl::Nodes(n)),
                    _ => Err(bad("nodes must be a positive integer")),
                },
                "move-time" | "movetime" | "st" => match num(v)? {
                    x if x > 0.0 => Ok(TimeControl::MoveTime(x)),
                    _ => Err(bad("move time must be positive")),
                },
                _ => Err(bad("expected depth=, nodes=, move-time=, T+I or M/T+I")),
            };
        }
        let (moves, rest) = match t.split_once('/') {
            Some((m, r)) => match m.trim().parse::<u32>() {
                Ok(m) if m > 0 => (Some(m), r),
                _ => return Err(bad("moves per period must be a positive integer")),
            },
            None => (None, t),
        };
        let (time, inc) = match rest.split_once('+') {
            Some((a, b)) => (num(a)?, num(b)?),
            None => (num(rest)?, 0.0),
        };
        if time <= 0.0 && inc <= 0.0 {
            return Err(bad("no time at all"));
        }
        Ok(TimeControl::Clock { time, inc, moves })
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::MoveTime(s) => write!(f, "move-time={s}"),
            TimeControl::Clock { time, inc, moves } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{time}")?;
                if inc > 0.0 {
                    write!(f, "+{inc}")?;
                }
                Ok(())
            }
        }
    }
}

/// One side's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Remaining time before this move's increment (clock controls).
    remaining: f64,
    /// Moves this side has made.
    moves_made: u32,
}

impl Clock {
    pub fn new(tc: TimeControl) -> Clock {
        let remaining = match tc {
            TimeControl::Clock { time, .. } => time,
            _ => 0.0,
        };
        Clock {
            tc,
            remaining,
            moves_made: 0,
        }
    }

    /// The Hub `level` line for the next move.
    pub fn level_line(&self) -> String {
        let level = Writer::new("level");
        match self.tc {
            TimeControl::Depth(d) => level.pair("depth", d),
            TimeControl::Nodes(n) => level.pair("nodes", n),
            TimeControl::MoveTime(s) => level.pair("move-time", format_args!("{s:.3}")),
            TimeControl::Clock { inc, moves, .. } => {
                let level = match moves {
                    Some(m) => level.pair("moves", m - self.moves_made % m),
                    None => level,
                };
                let level = level.pair("time", format_args!("{:.3}", self.remaining));
                if inc > 0.0 {
                    level.pair("inc", format_args!("{inc:.3}"))
                } else {
                    level
                }
            }
        }
        .finish()
    }

    /// The time this move may take before the flag falls (`None` for
    /// depth and node controls: only the no-`done` timeout applies).
    pub fn allowance(&self, margin: f64) -> Option<Duration> {
        let secs = match self.tc {
            TimeControl::Depth(_) | TimeControl::Nodes(_) => return None,
            TimeControl::MoveTime(s) => s,
            TimeControl::Clock { inc, .. } => self.remaining + inc,
        };
        Some(duration(secs + margin))
    }

    /// Charges a move that took `used`; false when the flag fell.
    pub fn charge(&mut self, used: Duration, margin: f64) -> bool {
        if let Some(a) = self.allowance(margin)
            && used > a
        {
            return false;
        }
        self.moves_made += 1;
        if let TimeControl::Clock { time, inc, moves } = self.tc {
            self.remaining += inc - used.as_secs_f64();
            if let Some(m) = moves
                && self.moves_made.is_multiple_of(m)
            {
                self.remaining += time;
            }
        }
        true
    }

    /// Remaining time (clock controls), for PDN comments and tests.
    pub fn remaining(&self) -> f64 {
        self.remaining
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(TimeControl::parse("depth=4"), Ok(TimeControl::Depth(4)));
        assert_eq!(
            TimeControl::parse("nodes=5000"),
            Ok(TimeControl::Nodes(5000))
        );
        assert_eq!(
            TimeControl::parse("movetime=0.5"),
            Ok(TimeControl::MoveTime(0.5))
        );
        assert_eq!(
            TimeControl::parse("10+0.1"),
            Ok(TimeControl::Clock {
                time: 10.0,
                inc: 0.1,
                moves: None
            })
        );
        assert_eq!(
            TimeControl::parse("40/60"),
            Ok(TimeControl::Clock {
                time: 60.0,
                inc: 0.0,
                moves: Some(40)
            })
        );
        for bad in [
            "",
            "depth=0",
            "depth=x",
            "nodes=-1",
            "move-time=0",
            "0/5",
            "x+1",
            "-3",
            "0",
            "nan+1",
            "inf",
            "1e300+0",
            "10+1e300",
            "40/1e300",
            "move-time=1e300",
            "move-time=inf",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn increment_clock_and_flag() {
        let mut c = Clock::new(TimeControl::parse("1+0.5").unwrap());
        assert_eq!(c.level_line(), "level time=1.000 inc=0.500");
        assert_eq!(c.allowance(0.0), Some(Duration::from_secs_f64(1.5)));
        assert!(c.charge(Duration::from_secs_f64(1.2), 0.0));
        assert!((c.remaining() - 0.3).abs() < 1e-9);
        assert!(!c.charge(Duration::from_secs_f64(0.81), 0.0));
        assert!(c.charge(Duration::from_secs_f64(0.81), 0.05));
    }

    #[test]
    fn repeating_control_adds_time_each_period() {
        let mut c = Clock::new(TimeControl::parse("2/10").unwrap());
        assert_eq!(c.level_line(), "level moves=2 time=10.000");
        assert!(c.charge(Duration::from_secs(3), 0.0));
        assert_eq!(c.level_line(), "level moves=1 time=7.000");
        assert!(c.charge(Duration::from_secs(3), 0.0));
        assert_eq!(c.level_line(), "level moves=2 time=14.000");
    }

    #[test]
    fn huge_clocks_give_a_duration() {
        // The largest accepted control, repeating: the sums grow past the
        // limit of one value, and the allowance must still be a Duration.
        let tc = TimeControl::parse("1/1000000+1000000").unwrap();
        let mut c = Clock::new(tc);
        for _ in 0..100 {
            assert!(c.allowance(MAX_SECONDS).is_some());
            assert!(c.charge(Duration::from_millis(1), MAX_SECONDS));
        }
        assert!(c.remaining() > 1e8);
        assert!(super::duration(1e300) > Duration::from_secs(1_000_000));
        assert_eq!(super::duration(f64::NAN), Duration::ZERO);
        assert_eq!(super::duration(-1.0), Duration::ZERO);
    }

    #[test]
    fn fixed_limits() {
        let c = Clock::new(TimeControl::Depth(3));
        assert_eq!(c.level_line(), "level depth=3");
        assert_eq!(c.allowance(0.1), None);
        let c = Clock::new(TimeControl::MoveTime(0.25));
        assert_eq!(c.level_line(), "level move-time=0.250");
    }
}
