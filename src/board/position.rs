//! The position: an immutable value (pieces, side to move, Frisian king
//! restriction state, Zobrist key). [`Position::play`] returns the child.

use super::bitboard::{Bitboard, squares};
use super::moves::Move;
use super::square::Square;
use super::zobrist::{self, KEYS};
use crate::variant::Variant;

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The row on which this side's men promote (docs/rules.md §4.1).
    #[inline(always)]
    pub const fn promotion_row(self) -> Bitboard {
        match self {
            Color::White => PROMO_WHITE,
            Color::Black => PROMO_BLACK,
        }
    }
}

/// Squares 1..5 (White promotes there).
const PROMO_WHITE: Bitboard = 0b11111;
/// Squares 46..50 (Black promotes there): bits 49..53.
const PROMO_BLACK: Bitboard = 0b11111 << 49;

/// Frisian three-move restriction state of one side (docs/rules.md §6): the king
/// that made the side's latest quiet king moves and how many in a row.
///
/// Packed in one byte, 0 for no tracked king, else the king's bit times 4
/// plus the count (1..=3): every move copies the state of both sides, and
/// two bytes copy and compare at once.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Restriction(u8);

impl Restriction {
    /// No tracked king.
    pub const NONE: Restriction = Restriction(0);

    /// A tracked king and its count of consecutive quiet moves (1..=3).
    pub fn new(king: Square, count: u8) -> Option<Restriction> {
        (1..=3)
            .contains(&count)
            .then_some(Restriction::tracking(king, count))
    }

    /// `king` with `count` (1..=3) consecutive quiet moves.
    #[inline(always)]
    const fn tracking(king: Square, count: u8) -> Restriction {
        Restriction((king.bit() as u8) << 2 | count)
    }

    /// The tracked king, if any.
    #[inline(always)]
    pub fn king(self) -> Option<Square> {
        (self.0 != 0).then(|| Square::from_bit_unchecked(u32::from(self.0 >> 2)))
    }

    /// The number of consecutive quiet moves of the tracked king.
    #[inline(always)]
    pub fn count(self) -> u8 {
        self.0 & 3
    }

    /// The king that may not make another quiet move, if any.
    #[inline(always)]
    pub fn blocked_king(self) -> Bitboard {
        if self.count() == 3 {
            1 << (self.0 >> 2)
        } else {
            0
        }
    }

    #[inline(always)]
    fn key(self, color: Color) -> u64 {
        match self.king() {
            Some(k) => {
                KEYS.restriction[color.index()][k.bit() as usize & 63][self.count() as usize & 3]
            }
            None => 0,
        }
    }
}

/// Shows the king and the count, as the fields of an unpacked struct would.
impl std::fmt::Debug for Restriction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Restriction")
            .field("king", &self.king())
            .field("count", &self.count())
            .finish()
    }
}

/// A position: where the pieces stand, who moves, and the Frisian state.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Position {
    /// Pieces per side, indexed by [`Color::index`].
    sides: [Bitboard; 2],
    kings: Bitboard,
    side: Color,
    restriction: [Restriction; 2],
    key: u64,
}

impl Position {
    /// The start position of both variants (docs/rules.md §2).
    pub fn start() -> Position {
        let black: Bitboard = squares_mask(1..=20);
        let white: Bitboard = squares_mask(31..=50);
        Position::new(white, black, 0, Color::White)
    }

    /// A position from piece sets (bitboards in the layout of [`Square`]).
    /// The caller guarantees the sets are disjoint and kings ⊆ white ∪ black.
    pub fn new(white: Bitboard, black: Bitboard, kings: Bitboard, side: Color) -> Position {
        let mut p = Position {
            sides: [white, black],
            kings,
            side,
            restriction: [Restriction::NONE; 2],
            key: 0,
        };
        p.key = p.compute_key();
        p
    }

    /// The same position with the given Frisian restriction state of `color`.
    pub fn with_restriction(mut self, color: Color, r: Restriction) -> Position {
        self.key ^= self.restriction[color.index()].key(color) ^ r.key(color);
        self.restriction[color.index()] = r;
        self
    }

    /// The Zobrist key computed from scratch (for checking the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for (set, idx) in [
            (self.sides[0] & !self.kings, zobrist::WHITE_MAN),
            (self.sides[1] & !self.kings, zobrist::BLACK_MAN),
            (self.sides[0] & self.kings, zobrist::WHITE_KING),
            (self.sides[1] & self.kings, zobrist::BLACK_KING),
        ] {
            for s in squares(set) {
                k ^= KEYS.piece[idx][s.bit() as usize & 63];
            }
        }
        if self.side == Color::Black {
            k ^= KEYS.side;
        }
        k ^ self.restriction[0].key(Color::White) ^ self.restriction[1].key(Color::Black)
    }

    /// The Zobrist key (covers everything that decides the legal moves).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.sides[color.index()]
    }

    /// All kings of both sides.
    #[inline(always)]
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// All men of both sides.
    #[inline(always)]
    pub fn men(&self) -> Bitboard {
        (self.sides[0] | self.sides[1]) & !self.kings
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.sides[0] | self.sides[1]
    }

    /// The pieces of the side to move.
    #[inline(always)]
    pub fn own(&self) -> Bitboard {
        self.pieces(self.side)
    }

    /// The pieces of the side not to move.
    #[inline(always)]
    pub fn opponent(&self) -> Bitboard {
        self.pieces(self.side.other())
    }

    /// The Frisian restriction state of `color` (always none in International).
    #[inline(always)]
    pub fn restriction(&self, color: Color) -> Restriction {
        self.restriction[color.index()]
    }

    /// What stands on `sq`: `None` if empty, else (colour, is king).
    pub fn piece_at(&self, sq: Square) -> Option<(Color, bool)> {
        let m = sq.mask();
        let king = self.kings & m != 0;
        if self.sides[0] & m != 0 {
            Some((Color::White, king))
        } else if self.sides[1] & m != 0 {
            Some((Color::Black, king))
        } else {
            None
        }
    }

    /// True if the move's piece is a king.
    #[inline(always)]
    pub fn is_king_move(&self, mv: &Move) -> bool {
        self.kings & mv.from().mask() != 0
    }

    /// The position after `mv`, which must be legal here (copy-make).
    #[inline(always)]
    pub fn play<V: Variant>(&self, mv: &Move) -> Position {
        let me = self.side;
        let from = mv.from().mask();
        let to = mv.to().mask();
        let captured = mv.captured();
        let was_king = self.kings & from != 0;
        let (mut own, mut opp) = (self.own(), self.opponent());
        let mut kings = self.kings;
        let mut key = self.key ^ KEYS.side;

        // from == to is possible for a capture round trip: the xor is then 0.
        own ^= from ^ to;
        let (man_idx, king_idx) = piece_indices(me);
        if was_king {
            kings ^= from ^ to;
            key ^= KEYS.piece[king_idx][mv.from().bit() as usize & 63]
                ^ KEYS.piece[king_idx][mv.to().bit() as usize & 63];
        } else if to & me.promotion_row() != 0 {
            kings |= to;
            key ^= KEYS.piece[man_idx][mv.from().bit() as usize & 63]
                ^ KEYS.piece[king_idx][mv.to().bit() as usize & 63];
        } else {
            key ^= KEYS.piece[man_idx][mv.from().bit() as usize & 63]
                ^ KEYS.piece[man_idx][mv.to().bit() as usize & 63];
        }
        if captured != 0 {
            let (o_man, o_king) = piece_indices(me.other());
            for s in squares(captured & !kings) {
                key ^= KEYS.piece[o_man][s.bit() as usize & 63];
            }
            for s in squares(captured & kings) {
                key ^= KEYS.piece[o_king][s.bit() as usize & 63];
            }
            opp &= !captured;
            kings &= !captured;
        }

        let mut restriction = self.restriction;
        // Nothing to track in the usual case: no king is followed and this
        // is not a quiet king move.
        if V::KING_RESTRICTION
            && (self.restriction != [Restriction::NONE; 2] || (captured == 0 && was_king))
        {
            // docs/rules.md §6, rule 1 for the mover, rule 2 for the opponent.
            let old = restriction;
            let mine = &mut restriction[me.index()];
            *mine = if captured == 0 && was_king && own & !kings != 0 {
                let count = if mine.king() == Some(mv.from()) {
                    (mine.count() + 1).min(3)
                } else {
                    1
                };
                Restriction::tracking(mv.to(), count)
            } else {
                Restriction::NONE
            };
            let theirs = &mut restriction[me.other().index()];
            if let Some(k) = theirs.king()
                && (captured & k.mask() != 0 || opp & !kings == 0)
            {
                *theirs = Restriction::NONE;
            }
            for c in [Color::White, Color::Black] {
                key ^= old[c.index()].key(c) ^ restriction[c.index()].key(c);
            }
        }

        let mut sides = [0; 2];
        sides[me.index()] = own;
        sides[me.other().index()] = opp;
        Position {
            sides,
            kings,
            side: me.other(),
            restriction,
            key,
        }
    }
}

#[inline(always)]
const fn piece_indices(c: Color) -> (usize, usize) {
    match c {
        Color::White => (zobrist::WHITE_MAN, zobrist::WHITE_KING),
        Color::Black => (zobrist::BLACK_MAN, zobrist::BLACK_KING),
    }
}

/// The bitboard of the squares numbered in `range`.
pub fn squares_mask(range: impl IntoIterator<Item = u32>) -> Bitboard {
    range
        .into_iter()
        .filter_map(Square::from_number)
        .fold(0, |b, s| b | s.mask())
}
