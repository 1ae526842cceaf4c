//! Squares: the 50 playable squares, their numbers (1..50, docs/rules.md §1) and
//! their bit index in the ghost-square bitboard layout.
//!
//! Layout: square `n` (1-based) lives on bit `n - 1 + (n - 1) / 10`, so every
//! pair of rows takes 11 bits and bits 10, 21, 32 and 43 are "ghost" bits that
//! are never occupied. Diagonal steps are then constant shifts (NW -6, NE -5,
//! SW +5, SE +6) that fall onto a ghost bit or off the 54-bit board instead of
//! wrapping round an edge; a column step (Frisian, §1.2) is ±11.

use std::fmt;

/// Number of playable squares.
pub const SQUARES: usize = 50;
/// Number of bits the layout spans (ghost bits included).
pub const BITS: usize = 54;

/// A playable square, stored as its bit index in the layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Square(u8);

const fn bit_of_number(n: usize) -> u8 {
    ((n - 1) + (n - 1) / 10) as u8
}

const NUMBER_OF_BIT: [u8; BITS] = {
    let mut t = [0u8; BITS];
    let mut n = 1;
    while n <= SQUARES {
        t[bit_of_number(n) as usize] = n as u8;
        n += 1;
    }
    t
};

impl Square {
    /// The square with the given number 1..=50, if valid.
    pub const fn from_number(n: u32) -> Option<Square> {
        if n >= 1 && n <= SQUARES as u32 {
            Some(Square(bit_of_number(n as usize)))
        } else {
            None
        }
    }

    /// The square on bit `bit`, if that bit is a playable square.
    pub const fn from_bit(bit: u32) -> Option<Square> {
        if (bit as usize) < BITS && NUMBER_OF_BIT[bit as usize] != 0 {
            Some(Square(bit as u8))
        } else {
            None
        }
    }

    /// The square on a bit known to be playable (from a bitboard of squares).
    #[inline(always)]
    pub(crate) const fn from_bit_unchecked(bit: u32) -> Square {
        Square(bit as u8)
    }

    /// The square's number, 1..=50.
    #[inline]
    pub const fn number(self) -> u32 {
        NUMBER_OF_BIT[self.0 as usize] as u32
    }

    /// The square's bit index in the layout.
    #[inline(always)]
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    /// The square on the board turned by 180°: number n goes to 51 − n
    /// (the ghost-square layout is symmetric: bit b goes to 53 − b).
    #[inline]
    pub const fn turned(self) -> Square {
        Square(53 - self.0)
    }

    /// The one-bit mask of this square.
    #[inline(always)]
    pub const fn mask(self) -> u64 {
        1u64 << self.0
    }

    /// Row index 0..=9, 0 being Black's back row (squares 1..5).
    pub const fn row(self) -> u32 {
        (self.number() - 1) / 5
    }

    /// Column index 0..=9, 0 being file a.
    pub const fn column(self) -> u32 {
        let n = self.number() - 1;
        let k = n % 5;
        if (n / 5).is_multiple_of(2) {
            2 * k + 1
        } else {
            2 * k
        }
    }

    /// The square at row `r`, column `c` (0-based), if it is a dark square.
    pub const fn from_row_column(r: i32, c: i32) -> Option<Square> {
        if r < 0 || r > 9 || c < 0 || c > 9 || (r + c) % 2 == 0 {
            return None;
        }
        Square::from_number((5 * r + c / 2 + 1) as u32)
    }

    /// All squares in number order.
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=SQUARES as u32).filter_map(Square::from_number)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_bits_round_trip() {
        for n in 1..=50 {
            let s = Square::from_number(n).unwrap();
            assert_eq!(s.number(), n);
            assert_eq!(Square::from_bit(s.bit()), Some(s));
            assert_eq!(
                Square::from_row_column(s.row() as i32, s.column() as i32),
                Some(s)
            );
        }
        for ghost in [10, 21, 32, 43, 54, 63] {
            assert_eq!(Square::from_bit(ghost), None);
        }
        assert_eq!(Square::from_number(0), None);
        assert_eq!(Square::from_number(51), None);
    }

    #[test]
    fn coordinates_follow_rules_section_1() {
        // 1 = b10, 5 = j10, 6 = a9, 46 = a1, 50 = i1.
        let rc = |n| {
            let s = Square::from_number(n).unwrap();
            (s.row(), s.column())
        };
        assert_eq!(rc(1), (0, 1));
        assert_eq!(rc(5), (0, 9));
        assert_eq!(rc(6), (1, 0));
        assert_eq!(rc(46), (9, 0));
        assert_eq!(rc(50), (9, 8));
    }
}
