//! Typed readings of the arguments that carry numbers or structure: the
//! `level` fields, the `go` mode and lidraughts' Frisian `wolf` extension.
//! Each reader validates everything before anything is applied.

use super::line::Line;
use crate::board::{Color, Square};
use crate::search::{Limits, Mode};

/// Largest accepted time value in seconds (about 11.6 days).
const MAX_SECONDS: f64 = 1.0e6;

fn seconds(name: &str, v: &str) -> Result<f64, String> {
    let x: f64 = v
        .trim()
        .parse()
        .map_err(|_| format!("level: {name}={v} is not a number"))?;
    if !x.is_finite() || x.abs() > MAX_SECONDS {
        return Err(format!("level: {name}={v} is out of range"));
    }
    Ok(x)
}

fn count<T: std::str::FromStr>(name: &str, v: &str) -> Result<T, String> {
    v.trim()
        .trim_start_matches('+')
        .parse()
        .map_err(|_| format!("level: {name}={v} is not a non-negative integer"))
}

/// The fields one `level` line sets.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Level {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<f64>,
    time: Option<f64>,
    moves: Option<u32>,
    inc: Option<f64>,
    infinite: bool,
}

impl Level {
    /// Reads `level [depth=D] [nodes=N] [move-time=S] [time=S [moves=M]
    /// [inc=S]] [infinite]`; a bad number refuses the whole line.
    pub fn read(line: &Line<'_>) -> Result<Level, String> {
        let mut l = Level::default();
        let val = |n: &str| line.value(n);
        if let Some(v) = val("depth") {
            l.depth = Some(count("depth", v)?);
        }
        if let Some(v) = val("nodes") {
            l.nodes = Some(count("nodes", v)?);
        }
        if let Some(v) = val("move-time") {
            l.move_time = Some(seconds("move-time", v)?);
        }
        if let Some(v) = val("time") {
            l.time = Some(seconds("time", v)?);
        }
        if let Some(v) = val("moves") {
            l.moves = Some(count("moves", v)?);
        }
        if let Some(v) = val("inc") {
            l.inc = Some(seconds("inc", v)?);
        }
        l.infinite = line.has("infinite");
        Ok(l)
    }

    /// Adds these fields to `limits` (fields not given stay as they are).
    pub fn apply(&self, limits: &mut Limits) {
        if let Some(d) = self.depth {
            limits.depth = Some(d.max(1));
        }
        if let Some(n) = self.nodes {
            limits.nodes = Some(n.max(1));
        }
        if let Some(t) = self.move_time {
            limits.move_time = Some(t.max(0.0));
        }
        if let Some(t) = self.time {
            limits.time = Some(t);
        }
        if let Some(m) = self.moves {
            limits.moves = (m > 0).then_some(m);
        }
        if let Some(i) = self.inc {
            limits.inc = i.max(0.0);
        }
        if self.infinite {
            limits.infinite = true;
        }
    }
}

/// The mode of `go think | ponder | analyze` (no or unknown mode: think).
pub fn go_mode(line: &Line<'_>) -> Mode {
    for a in &line.args {
        match a.name {
            "think" => return Mode::Think,
            "ponder" => return Mode::Ponder,
            "analyze" | "analyse" => return Mode::Analyze,
            _ => {}
        }
    }
    Mode::Think
}

/// One entry of `wolf="W<sq>=<n> B<sq>=<n>"`: the side's tracked king and
/// its count of consecutive quiet moves (0 = none tracked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wolf {
    pub color: Color,
    pub square: Square,
    pub count: u8,
}

/// Reads the `wolf` value: entries separated by spaces or commas.
pub fn read_wolf(v: &str) -> Result<Vec<Wolf>, String> {
    let bad = |e: &str| format!("bad wolf entry '{e}' (expected like W23=2)");
    let mut out = Vec::new();
    for e in v.split([' ', ',', '\t']).filter(|e| !e.is_empty()) {
        let mut chars = e.chars();
        let color = match chars.next() {
            Some('W' | 'w') => Color::White,
            Some('B' | 'b') => Color::Black,
            _ => return Err(bad(e)),
        };
        let (sq, n) = chars.as_str().split_once('=').ok_or_else(|| bad(e))?;
        let count: u8 = n.trim().parse().map_err(|_| bad(e))?;
        if count > 3 {
            return Err(format!("bad wolf entry '{e}': count above 3"));
        }
        let sq: u32 = sq.trim().parse().map_err(|_| bad(e))?;
        if count == 0 {
            // Nothing tracked: the square does not matter (may be 0).
            continue;
        }
        let square = Square::from_number(sq).ok_or_else(|| bad(e))?;
        if out.iter().any(|w: &Wolf| w.color == color) {
            continue;
        }
        out.push(Wolf {
            color,
            square,
            count,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::line::parse_line;

    #[test]
    fn levels_combine_and_refuse_bad_numbers() {
        let mut lim = Limits::default();
        let l = parse_line("level moves=40 time=-1.5 inc=0.25").unwrap();
        Level::read(&l).unwrap().apply(&mut lim);
        let l = parse_line("level depth=7").unwrap();
        Level::read(&l).unwrap().apply(&mut lim);
        assert_eq!(lim.time, Some(-1.5));
        assert_eq!(lim.moves, Some(40));
        assert_eq!(lim.inc, 0.25);
        assert_eq!(lim.depth, Some(7));
        for bad in [
            "level depth=x",
            "level depth=-1",
            "level time=nan",
            "level move-time=1e400",
            "level nodes=1.5",
        ] {
            assert!(Level::read(&parse_line(bad).unwrap()).is_err(), "{bad}");
        }
        let l = parse_line("level infinite").unwrap();
        Level::read(&l).unwrap().apply(&mut lim);
        assert!(lim.infinite);
    }

    #[test]
    fn wolf_and_modes() {
        let w = read_wolf("W23=2 B0=0").unwrap();
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].square.number(), 23);
        assert_eq!(w[0].count, 2);
        assert!(read_wolf("X1=1").is_err());
        assert!(read_wolf("W51=1").is_err());
        assert!(read_wolf("W51=0").is_ok());
        assert!(read_wolf("W1=4").is_err());
        assert!(read_wolf("W1").is_err());
        assert_eq!(go_mode(&parse_line("go ponder").unwrap()), Mode::Ponder);
        assert_eq!(go_mode(&parse_line("go").unwrap()), Mode::Think);
        assert_eq!(go_mode(&parse_line("go analyze").unwrap()), Mode::Analyze);
    }
}
