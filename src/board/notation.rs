//! Move notation: Hub (`28x19x23`, rules.md §9.2) is printed by `Display`
//! on [`Move`]; this module reads moves leniently against the legal moves
//! (`../shared/hub-clients.md`) and writes standard PDN notation (§9.1).

use super::bitboard::Bitboard;
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

/// Does `mv` fit the written squares? Either as Hub (`from x to x captured…`,
/// the captured squares any subset of the move's) or as a path of landing
/// squares (`from x l1 x … x to`, the intermediate squares not captured and
/// empty before the move).
fn fits(pos: &Position, mv: &Move, w: &Written) -> bool {
    let s = &w.squares;
    if mv.from() != s[0] {
        return false;
    }
    if s.len() == 2 {
        return mv.to() == s[1];
    }
    if !mv.is_capture() {
        return false;
    }
    let given: Bitboard = s[2..].iter().fold(0, |b, q| b | q.mask());
    let hub = mv.to() == s[1] && given & !mv.captured() == 0;
    let path_squares: Bitboard = s[1..s.len() - 1].iter().fold(0, |b, q| b | q.mask());
    let free = !pos.occupied() | mv.from().mask();
    let path =
        mv.to() == s[s.len() - 1] && path_squares & mv.captured() == 0 && path_squares & !free == 0;
    hub || path
}

/// Reads a move leniently: matches it against `legal` (the legal moves of
/// `pos`) and accepts it when exactly one legal move fits.
pub fn parse_move(pos: &Position, legal: &MoveList, text: &str) -> Result<Move, MoveError> {
    let w = split(text)?;
    let mut found: Option<Move> = None;
    for mv in legal {
        if fits(pos, mv, &w) {
            if found.is_some() {
                return Err(MoveError::Ambiguous(text.trim().to_string()));
            }
            found = Some(*mv);
        }
    }
    found.ok_or_else(|| MoveError::Illegal(text.trim().to_string()))
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
