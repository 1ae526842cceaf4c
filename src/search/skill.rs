//! Strength levels, for people and bots that want a weaker opponent. Below
//! full strength a level caps the nodes of a search and plays one of its
//! best few lines: a worse line is the less likely the more it gives away,
//! and a line far worse than the best is never played. The engine so
//! misjudges like a weaker player rather than dropping random blunders.

use super::Score;
use crate::arena::rng::Rng;
use crate::board::Move;

/// Full strength: no cap and the best move (the default).
pub const FULL: u8 = 10;
/// Lines searched below full strength, the candidates of the pick.
pub const LINES: usize = 4;

/// The named presets (the seed's site offers three levels) and their level.
pub const PRESETS: [(&str, u8); 3] = [("easy", 2), ("medium", 5), ("hard", 8)];

/// What a level below [`FULL`] may spend and how freely it picks.
struct Step {
    /// Most nodes a move.
    nodes: u64,
    /// Centi-men of loss that make a line e times less likely.
    temperature: f64,
    /// Lines more than this many centi-men below the best are never played.
    margin: Score,
}

/// Levels 1 to 9; docs/levels.md has their measured ladder.
const STEPS: [Step; 9] = [
    Step {
        nodes: 50,
        temperature: 80.0,
        margin: 250,
    },
    Step {
        nodes: 100,
        temperature: 60.0,
        margin: 200,
    },
    Step {
        nodes: 250,
        temperature: 45.0,
        margin: 150,
    },
    Step {
        nodes: 700,
        temperature: 35.0,
        margin: 120,
    },
    Step {
        nodes: 2_000,
        temperature: 25.0,
        margin: 90,
    },
    Step {
        nodes: 6_000,
        temperature: 18.0,
        margin: 70,
    },
    Step {
        nodes: 20_000,
        temperature: 12.0,
        margin: 50,
    },
    Step {
        nodes: 60_000,
        temperature: 8.0,
        margin: 35,
    },
    Step {
        nodes: 200_000,
        temperature: 4.0,
        margin: 20,
    },
];

/// A strength level and the seed of its choices for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// 1 (weakest) to [`FULL`].
    pub level: u8,
    /// Seed of the pick; the same seed and lines give the same move.
    pub seed: u64,
}

/// Reads a level: a number from 1 to [`FULL`] or a preset name.
pub fn parse_level(text: &str) -> Result<u8, String> {
    let t = text.trim().to_ascii_lowercase();
    if let Some((_, level)) = PRESETS.iter().find(|(name, _)| *name == t) {
        return Ok(*level);
    }
    match t.trim_start_matches('+').parse::<u8>() {
        Ok(n) if (1..=FULL).contains(&n) => Ok(n),
        _ => Err(format!(
            "level: '{text}' is not 1..{FULL}, easy, medium or hard"
        )),
    }
}

impl Skill {
    fn step(&self) -> Option<&'static Step> {
        STEPS.get(usize::from(self.level.max(1)) - 1)
    }

    /// True when the level changes nothing.
    pub fn is_full(&self) -> bool {
        self.step().is_none()
    }

    /// The most nodes a move at this level (`None`: no cap).
    pub fn node_cap(&self) -> Option<u64> {
        self.step().map(|s| s.nodes)
    }

    /// The move to play among `lines` (first moves and scores, best first;
    /// not empty). Each line within the margin of the best is drawn with a
    /// weight falling exponentially with its loss.
    pub fn pick(&self, lines: &[(Move, Score)]) -> Move {
        let Some(step) = self.step() else {
            return lines[0].0;
        };
        let best = lines.iter().map(|l| l.1).max().unwrap_or(0);
        let weights: Vec<f64> = lines
            .iter()
            .map(|&(_, s)| {
                let loss = best.saturating_sub(s);
                if loss > step.margin {
                    0.0
                } else {
                    (-f64::from(loss) / step.temperature).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = (Rng::for_index(self.seed, 1).next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        x *= total;
        for (line, w) in lines.iter().zip(&weights) {
            if x < *w {
                return line.0;
            }
            x -= w;
        }
        // Rounding: the last line with a weight.
        lines
            .iter()
            .zip(&weights)
            .rev()
            .find(|(_, w)| **w > 0.0)
            .map_or(lines[0].0, |(l, _)| l.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    fn mv(from: u32, to: u32) -> Move {
        Move::quiet(
            Square::from_number(from).unwrap(),
            Square::from_number(to).unwrap(),
        )
    }

    #[test]
    fn levels_and_presets_parse() {
        assert_eq!(parse_level("1"), Ok(1));
        assert_eq!(parse_level(" 10 "), Ok(10));
        assert_eq!(parse_level("Easy"), Ok(2));
        assert_eq!(parse_level("medium"), Ok(5));
        assert_eq!(parse_level("hard"), Ok(8));
        for bad in ["0", "11", "-1", "", "expert", "5.5", "99999999999"] {
            assert!(parse_level(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn full_strength_changes_nothing() {
        let s = Skill {
            level: FULL,
            seed: 1,
        };
        assert!(s.is_full());
        assert_eq!(s.node_cap(), None);
        let lines = [(mv(32, 28), 10), (mv(31, 27), 9)];
        assert_eq!(s.pick(&lines), mv(32, 28));
    }

    #[test]
    fn caps_grow_with_the_level() {
        let caps: Vec<u64> = (1..FULL)
            .map(|level| Skill { level, seed: 0 }.node_cap().unwrap())
            .collect();
        assert!(caps.windows(2).all(|w| w[0] < w[1]), "{caps:?}");
    }

    /// Frequencies over many seeds: near-equal lines share the games, a
    /// line beyond the margin is never played, a lower level strays more.
    #[test]
    fn picks_follow_the_scores() {
        let lines = [
            (mv(32, 28), 20),
            (mv(31, 27), 15),
            (mv(33, 29), -10),
            (mv(34, 30), -300),
        ];
        let count = |level: u8| {
            let mut n = [0u32; 4];
            for seed in 0..4000 {
                let m = Skill { level, seed }.pick(&lines);
                n[lines.iter().position(|l| l.0 == m).unwrap()] += 1;
            }
            n
        };
        let low = count(1);
        let high = count(9);
        assert_eq!(low[3] + high[3], 0, "beyond the margin: {low:?} {high:?}");
        assert!(low[1] > 1000 && low[2] > 300, "{low:?}");
        assert!(high[0] > high[1] && high[2] == 0, "{high:?}");
        assert!(low[0] < high[0]);
        // The same seed gives the same move.
        let s = Skill { level: 3, seed: 77 };
        assert_eq!(s.pick(&lines), s.pick(&lines));
    }
}
