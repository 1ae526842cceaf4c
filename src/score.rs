//! Scores: the unit the evaluation produces and the search compares, and
//! the one way they are written (Hub `info`, `analyze`, opening files).

use std::fmt;

/// A score in centi-men from the side to move's point of view. Wins and
/// losses are `±(MATE - plies)`.
pub type Score = i32;
/// Score of a win in 0 plies; a win in n plies scores `MATE - n`.
pub const MATE: Score = 10_000;

/// A score written in men with two decimals, as Hub prints it: a win in n
/// plies is `100.00 - n/100` (so `99.97`), a loss its negation. Integer
/// arithmetic, so exact; `{:+}` adds a plus sign and widths pad like a
/// number's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Men(pub Score);

impl fmt::Display for Men {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = self.0.unsigned_abs();
        f.pad_integral(self.0 >= 0, "", &format!("{}.{:02}", a / 100, a % 100))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn men_with_two_decimals() {
        let s = |x| Men(x).to_string();
        assert_eq!(s(15), "0.15");
        assert_eq!(s(-7), "-0.07");
        assert_eq!(s(-250), "-2.50");
        assert_eq!(s(0), "0.00");
        assert_eq!(s(MATE - 3), "99.97");
        assert_eq!(s(-(MATE - 12)), "-99.88");
        assert_eq!(s(i32::MIN), "-21474836.48");
        assert_eq!(format!("{:+}", Men(0)), "+0.00");
        assert_eq!(format!("{:+}", Men(31)), "+0.31");
        assert_eq!(format!("{:+}", Men(-31)), "-0.31");
        assert_eq!(format!("{:>7}|{:<6}|", Men(-31), Men(5)), "  -0.31|0.05  |");
    }

    /// The float formatting the tools used before gives the same text.
    #[test]
    fn same_as_rounded_floats() {
        for x in (-20_000..20_000).chain([i32::MAX / 3, -1_234_567]) {
            assert_eq!(Men(x).to_string(), format!("{:.2}", x as f64 / 100.0));
            assert_eq!(format!("{:+}", Men(x)), format!("{:+.2}", x as f64 / 100.0));
        }
    }
}
