//! Move notation: Hub (`28x19x23`, docs/rules.md §9.2) is printed by `Display`
//! on [`Move`]; this module reads moves leniently against the legal moves
//! (`docs/hub-clients.md`) and writes standard PDN notation (§9.1).

use super::bitboard::{Bitboard, Dir, ray};
use super::moves::{Move, MoveList};
use super::position::Position;
use super::square::Square;
use std::fmt;

/// Why a move string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `a-b`, `axb`, `axbxc…`.
    Syntax(String),
    /// No legal move fits.
    Illegal(String),
    /// More than one legal move fits.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "bad move: {s}"),
            MoveError::Illegal(s) => write!(f, "illegal move: {s}"),
            MoveError::Ambiguous(s) => write!(f, "ambiguous move: {s}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A move as written: its squares in order.
struct Written {
    squares: Vec<Square>,
}

fn split(text: &str) -> Result<Written, MoveError> {
    let bad = || {
        MoveError::Syntax(format!(
            "'{text}' is not a move (expected like 32-28 or 28x19x23)"
        ))
    };
    let t = text.trim();
    let capture = t.contains(['x', 'X', ':']);
    let mut squares = Vec::new();
    for part in t.split(['-', 'x', 'X', ':']) {
        let n: u32 = part.trim().parse().map_err(|_| bad())?;
        let sq = Square::from_number(n)
            .ok_or_else(|| MoveError::Syntax(format!("'{text}': square {n} is not in 1..50")))?;
        squares.push(sq);
    }
    if squares.len() < 2 || squares.len() > 22 {
        return Err(bad());
    }
    if !capture && squares.len() != 2 {
        return Err(bad());
    }
    Ok(Written { squares })
}

/// How well a legal move fits what was written.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fit {
    No,
    /// Only as a partial path: the named intermediate squares are empty and
    /// not captured, but the legs were not checked jump by jump.
    Loose,
    /// As Hub (`from x to x captured…`, captured squares a subset of the
    /// move's), as `from-to`/`fromxto`, or as a full path of landing squares
    /// whose every leg jumps exactly one captured piece.
    Exact,
}

/// Is the leg `a`→`b` one jump along a line over exactly one square of
/// `captured`, every other square between being empty?
fn single_jump(a: Square, b: Square, captured: Bitboard, free: Bitboard) -> Option<Bitboard> {
    for d in Dir::ALL {
        let r = ray(d, a);
        if r & b.mask() == 0 {
            continue;
        }
        let between = r & !ray(d, b) & !b.mask();
        let jumped = between & captured;
        return (jumped.count_ones() == 1 && between & !jumped & !free == 0).then_some(jumped);
    }
    None
}

fn fits(pos: &Position, mv: &Move, w: &Written) -> Fit {
    let s = &w.squares;
    if mv.from() != s[0] {
        return Fit::No;
    }
    if s.len() == 2 {
        return if mv.to() == s[1] { Fit::Exact } else { Fit::No };
    }
    if !mv.is_capture() {
        return Fit::No;
    }
    let given: Bitboard = s[2..].iter().fold(0, |b, q| b | q.mask());
    if mv.to() == s[1] && given & !mv.captured() == 0 {
        return Fit::Exact;
    }
    if mv.to() != s[s.len() - 1] {
        return Fit::No;
    }
    let free = !pos.occupied() | mv.from().mask();
    let mut jumped = 0;
    let full = s.windows(2).all(
        |leg| match single_jump(leg[0], leg[1], mv.captured(), free) {
            Some(j) if j & jumped == 0 => {
                jumped |= j;
                true
            }
            _ => false,
        },
    );
    if full && jumped == mv.captured() {
        return Fit::Exact;
    }
    let path: Bitboard = s[1..s.len() - 1].iter().fold(0, |b, q| b | q.mask());
    if path & mv.captured() == 0 && path & !free == 0 {
        Fit::Loose
    } else {
        Fit::No
    }
}

/// Reads a move leniently: matches it against `legal` (the legal moves of
/// `pos`) and accepts it when exactly one legal move fits — an exact fit
/// first, else a loose (partial path) one.
pub fn parse_move(pos: &Position, legal: &MoveList, text: &str) -> Result<Move, MoveError> {
    let w = split(text)?;
    for level in [Fit::Exact, Fit::Loose] {
        let mut found: Option<Move> = None;
        for mv in legal {
            if fits(pos, mv, &w) == level {
                if found.is_some() {
                    return Err(MoveError::Ambiguous(text.trim().to_string()));
                }
                found = Some(*mv);
            }
        }
        if let Some(mv) = found {
            return Ok(mv);
        }
    }
    Err(MoveError::Illegal(text.trim().to_string()))
}

/// Standard PDN notation (§9.1): `32-28` or `28x19`; when another legal
/// capture shares start and end, the captured squares that are not common
/// to all such captures are appended (`28x19x23`), as Scan does.
pub fn to_pdn(mv: &Move, legal: &MoveList) -> String {
    if !mv.is_capture() {
        return mv.to_string();
    }
    let mut s = format!("{}x{}", mv.from(), mv.to());
    let twins = legal
        .iter()
        .filter(|m| m.from() == mv.from() && m.to() == mv.to() && m.captured() != mv.captured());
    let mut common = mv.captured();
    let mut ambiguous = false;
    for t in twins {
        common &= t.captured();
        ambiguous = true;
    }
    if ambiguous {
        for q in super::bitboard::squares(mv.captured() & !common) {
            s.push_str(&format!("x{q}"));
        }
    }
    s
}
