//! Moves as docs/rules.md §5.4 defines them — (from, to, captured set), exactly
//! the Hub notation — and a fixed-capacity move list that never allocates.

use super::bitboard::{Bitboard, squares};
use super::square::Square;
use std::fmt;

/// A move: the square the piece leaves, the square it ends on, and the set of
/// captured squares (empty for a quiet move). Path and order are not part of
/// the move (docs/rules.md §5.4, §5.5).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    captured: Bitboard,
    from: Square,
    to: Square,
}

impl Move {
    /// A quiet move.
    #[inline(always)]
    pub const fn quiet(from: Square, to: Square) -> Move {
        Move {
            captured: 0,
            from,
            to,
        }
    }

    /// A capture of the pieces on `captured`.
    #[inline(always)]
    pub const fn capture(from: Square, to: Square, captured: Bitboard) -> Move {
        Move { captured, from, to }
    }

    /// The start square.
    #[inline(always)]
    pub const fn from(&self) -> Square {
        self.from
    }

    /// The final square.
    #[inline(always)]
    pub const fn to(&self) -> Square {
        self.to
    }

    /// The captured squares.
    #[inline(always)]
    pub const fn captured(&self) -> Bitboard {
        self.captured
    }

    /// True for a capture.
    #[inline(always)]
    pub const fn is_capture(&self) -> bool {
        self.captured != 0
    }
}

/// Hub notation: `32-28`, or `28x19x23` with every captured square ascending.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.captured == 0 {
            write!(f, "{}-{}", self.from, self.to)
        } else {
            write!(f, "{}x{}", self.from, self.to)?;
            for s in squares(self.captured) {
                write!(f, "x{s}")?;
            }
            Ok(())
        }
    }
}

/// Capacity of a [`MoveList`]. Legal move counts in practice stay far below;
/// a list that would overflow keeps its first `CAPACITY` moves and reports it.
pub const CAPACITY: usize = 256;

/// A fixed-capacity list of moves.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: usize,
    overflowed: bool,
}

const NULL: Move = Move::quiet(Square::from_bit_unchecked(0), Square::from_bit_unchecked(0));

impl Default for MoveList {
    fn default() -> Self {
        MoveList {
            moves: [NULL; CAPACITY],
            len: 0,
            overflowed: false,
        }
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList::default()
    }

    /// Appends a move (dropped, with `overflowed` set, when full).
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        if self.len < CAPACITY {
            self.moves[self.len] = mv;
            self.len += 1;
        } else {
            self.overflowed = true;
        }
    }

    /// Appends `moves` in order, as [`push`](Self::push) would. The length
    /// stays in a register for the whole run, where one push at a time
    /// would store and reload it per move.
    #[inline(always)]
    pub fn extend(&mut self, moves: impl IntoIterator<Item = Move>) {
        let mut len = self.len;
        for mv in moves {
            if len < CAPACITY {
                self.moves[len] = mv;
                len += 1;
            } else {
                self.overflowed = true;
            }
        }
        self.len = len;
    }

    /// Removes every move and forgets an earlier overflow (the list is
    /// reused, e.g. when a better capture replaces the moves found so far).
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
        self.overflowed = false;
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True if a move was dropped because the list was full.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// True if an identical move is already in the list.
    #[inline]
    pub fn contains(&self, mv: &Move) -> bool {
        self.as_slice().contains(mv)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|m| m.to_string()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extend_is_push_in_order() {
        let sq = |n| Square::from_number(n).unwrap();
        let moves: Vec<Move> = (1..=CAPACITY as u32 + 3)
            .map(|i| Move::quiet(sq(i % 50 + 1), sq((i + 7) % 50 + 1)))
            .collect();
        let (mut pushed, mut extended) = (MoveList::new(), MoveList::new());
        pushed.push(moves[0]);
        extended.push(moves[0]);
        for &mv in &moves[1..] {
            pushed.push(mv);
        }
        extended.extend(moves[1..].iter().copied());
        assert_eq!(pushed.as_slice(), extended.as_slice());
        assert!(extended.overflowed());
    }

    #[test]
    fn clear_forgets_an_overflow() {
        // Move generation reuses one list and clears it when a better capture
        // turns up: an overflow of the discarded moves must not stick.
        let mv = Move::quiet(
            Square::from_number(32).unwrap(),
            Square::from_number(28).unwrap(),
        );
        let mut list = MoveList::new();
        for _ in 0..=CAPACITY {
            list.push(mv);
        }
        assert!(list.overflowed());
        assert_eq!(list.len(), CAPACITY);
        list.clear();
        assert!(list.is_empty());
        assert!(!list.overflowed());
        list.push(mv);
        assert_eq!(list.as_slice(), &[mv]);
        assert!(!list.overflowed());
    }
}
