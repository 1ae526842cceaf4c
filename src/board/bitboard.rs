//! Bitboards over the ghost-square layout of [`super::square`]: the board
//! mask, the eight step directions, per-square ray tables and bit iteration.

use super::square::{SQUARES, Square};

/// A set of squares, one bit per square in the ghost-square layout.
pub type Bitboard = u64;

/// Every playable square.
pub const BOARD: Bitboard = {
    let mut b = 0u64;
    let mut n = 1;
    while n <= SQUARES {
        b |= 1u64 << ((n - 1) + (n - 1) / 10);
        n += 1;
    }
    b
};

/// A step direction. The four diagonals come first: International uses
/// only those; Frisian captures also use the four orthogonal ones (§1.2).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Dir(pub u8);

impl Dir {
    pub const NW: Dir = Dir(0);
    pub const NE: Dir = Dir(1);
    pub const SW: Dir = Dir(2);
    pub const SE: Dir = Dir(3);
    pub const W: Dir = Dir(4);
    pub const E: Dir = Dir(5);
    pub const N: Dir = Dir(6);
    pub const S: Dir = Dir(7);

    /// The four diagonal directions.
    pub const DIAGONAL: [Dir; 4] = [Dir::NW, Dir::NE, Dir::SW, Dir::SE];
    /// All eight directions (Frisian captures).
    pub const ALL: [Dir; 8] = [
        Dir::NW,
        Dir::NE,
        Dir::SW,
        Dir::SE,
        Dir::W,
        Dir::E,
        Dir::N,
        Dir::S,
    ];

    /// Bit offset of one step in this direction.
    pub const fn offset(self) -> i32 {
        [-6, -5, 5, 6, -1, 1, -11, 11][self.0 as usize]
    }

    /// Geometric step (rows, columns) on the 10x10 board.
    const fn delta(self) -> (i32, i32) {
        [
            (-1, -1),
            (-1, 1),
            (1, -1),
            (1, 1),
            (0, -2),
            (0, 2),
            (-2, 0),
            (2, 0),
        ][self.0 as usize]
    }

    /// True when a step goes to a higher bit index.
    #[inline(always)]
    pub const fn increasing(self) -> bool {
        self.offset() > 0
    }

    /// The opposite direction.
    pub const fn reverse(self) -> Dir {
        if self.0 < 4 {
            Dir(3 - self.0)
        } else {
            Dir(self.0 ^ 1)
        }
    }
}

const fn build_rays() -> [[Bitboard; 64]; 8] {
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (dr, dc) = Dir(d as u8).delta();
        let mut n = 1;
        while n <= SQUARES {
            let s = match Square::from_number(n as u32) {
                Some(s) => s,
                None => unreachable!(),
            };
            let (mut r, mut c) = (s.row() as i32 + dr, s.column() as i32 + dc);
            let mut ray = 0u64;
            while let Some(t) = Square::from_row_column(r, c) {
                ray |= t.mask();
                r += dr;
                c += dc;
            }
            rays[d][s.bit() as usize] = ray;
            n += 1;
        }
        d += 1;
    }
    rays
}

/// `RAYS[dir][bit]`: every square reached by repeating the step from `bit`
/// (64 wide so that a masked index needs no bounds check).
static RAYS: [[Bitboard; 64]; 8] = build_rays();

/// The squares along `dir` from `sq`, nearest first in bit order.
#[inline(always)]
pub fn ray(dir: Dir, sq: Square) -> Bitboard {
    RAYS[dir.0 as usize & 7][sq.bit() as usize & 63]
}

/// The squares one step from any square of `bb` in direction `dir`.
#[inline(always)]
pub fn step(bb: Bitboard, dir: Dir) -> Bitboard {
    shift(bb, dir) & BOARD
}

/// Like [`step`] but without clearing the bits past the board: for callers
/// that intersect the result with a set of squares anyway.
#[inline(always)]
pub fn shift(bb: Bitboard, dir: Dir) -> Bitboard {
    let o = dir.offset();
    // Row steps need their source masked: the layout has no ghost between
    // two squares of consecutive rows.
    let bb = match dir {
        Dir::W => bb & !COLUMN_EDGE_LEFT,
        Dir::E => bb & !COLUMN_EDGE_RIGHT,
        _ => bb,
    };
    if o > 0 { bb << o } else { bb >> -o }
}

/// Squares with index-in-row 0 (6, 16, 26, ... and 1, 11, ...): no W neighbour.
const COLUMN_EDGE_LEFT: Bitboard = row_index_mask(0);
/// Squares with index-in-row 4: no E neighbour.
const COLUMN_EDGE_RIGHT: Bitboard = row_index_mask(4);

const fn row_index_mask(k: usize) -> Bitboard {
    let mut b = 0u64;
    let mut n = 1 + k;
    while n <= SQUARES {
        b |= 1u64 << ((n - 1) + (n - 1) / 10);
        n += 5;
    }
    b
}

/// The square of `bb` that comes first along `dir` (its lowest bit for an
/// increasing direction, its highest otherwise), or 0 when `bb` is empty.
/// Branch-free: in the capture search whether a ray holds a piece is a coin
/// toss for the branch predictor.
#[inline(always)]
pub fn nearest(dir: Dir, bb: Bitboard) -> Bitboard {
    if dir.increasing() {
        bb & bb.wrapping_neg()
    } else {
        // With `bb` empty the shift count is 64, which wraps to 0: bit 63,
        // cleared again by the mask.
        (1u64 << 63).wrapping_shr(bb.leading_zeros()) & bb
    }
}

/// The squares along `dir` from `sq` before the first square of `occ`.
/// Branch-free, like [`nearest`].
#[inline(always)]
pub fn free_ray(dir: Dir, sq: Square, occ: Bitboard) -> Bitboard {
    let r = ray(dir, sq);
    let b = r & occ;
    if dir.increasing() {
        // Below the lowest blocker; all of the ray when there is none.
        r & nearest(dir, b).wrapping_sub(1)
    } else {
        // Above the highest blocker; with none the shift is 0, keeping all.
        // Board bits are below 54, so the shift never reaches 64.
        r & u64::MAX << (64 - b.leading_zeros())
    }
}

/// Iterator over the squares of a bitboard, lowest bit (lowest number) first.
#[derive(Clone, Copy)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = Square::from_bit_unchecked(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}

/// The board turned by 180° (square n goes to 51 − n): in the ghost-square
/// layout, a reversal of the 54 bits.
#[inline]
pub fn turned(bb: Bitboard) -> Bitboard {
    bb.reverse_bits() >> 10
}

/// The squares of `bb`.
#[inline(always)]
pub fn squares(bb: Bitboard) -> Squares {
    Squares(bb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_has_fifty_squares_and_no_ghosts() {
        assert_eq!(BOARD.count_ones(), 50);
        for ghost in [10, 21, 32, 43] {
            assert_eq!(BOARD & (1 << ghost), 0);
        }
    }

    #[test]
    fn turning_maps_square_n_to_51_minus_n() {
        for s in Square::all() {
            let t = turned(s.mask());
            assert_eq!(t.count_ones(), 1);
            assert_eq!(s.turned().number(), 51 - s.number());
            assert_eq!(t, s.turned().mask());
        }
    }

    #[test]
    fn shifts_agree_with_geometry() {
        for s in Square::all() {
            for d in Dir::ALL {
                let first = ray(d, s) & {
                    // the nearest square of the geometric ray
                    let r = ray(d, s);
                    if r == 0 {
                        0
                    } else if d.increasing() {
                        r & r.wrapping_neg()
                    } else {
                        1 << (63 - r.leading_zeros())
                    }
                };
                assert_eq!(step(s.mask(), d), first, "square {s} dir {d:?}");
            }
        }
    }

    #[test]
    fn rules_examples_of_steps() {
        let sq = |n| Square::from_number(n).unwrap();
        // §1.1: from 33 (even row) NW 28, NE 29, SW 38, SE 39.
        assert_eq!(step(sq(33).mask(), Dir::NW), sq(28).mask());
        assert_eq!(step(sq(33).mask(), Dir::NE), sq(29).mask());
        assert_eq!(step(sq(33).mask(), Dir::SW), sq(38).mask());
        assert_eq!(step(sq(33).mask(), Dir::SE), sq(39).mask());
        // §1.2: 28 over 27 to 26, over 18 to 8; 27 cannot jump 26 westwards.
        assert_eq!(step(step(sq(28).mask(), Dir::W), Dir::W), sq(26).mask());
        assert_eq!(step(step(sq(28).mask(), Dir::N), Dir::N), sq(8).mask());
        assert_eq!(step(step(sq(27).mask(), Dir::W), Dir::W), 0);
        assert_eq!(step(sq(5).mask(), Dir::E), 0);
        assert_eq!(step(sq(6).mask(), Dir::W), 0);
        // The long diagonal.
        let long: Bitboard = [41, 37, 32, 28, 23, 19, 14, 10, 5]
            .iter()
            .map(|&n| sq(n).mask())
            .sum();
        assert_eq!(ray(Dir::NE, sq(46)), long);
    }

    #[test]
    fn reverse_directions() {
        assert_eq!(Dir::NW.reverse(), Dir::SE);
        assert_eq!(Dir::NE.reverse(), Dir::SW);
        assert_eq!(Dir::W.reverse(), Dir::E);
        assert_eq!(Dir::N.reverse(), Dir::S);
        for d in Dir::ALL {
            assert_eq!(d.reverse().offset(), -d.offset());
        }
    }

    #[test]
    fn nearest_is_the_first_square_along_the_direction() {
        let sq = |n| Square::from_number(n).unwrap();
        let two = sq(19).mask() | sq(37).mask();
        for d in Dir::ALL {
            assert_eq!(nearest(d, 0), 0);
            let first = if d.increasing() { sq(19) } else { sq(37) };
            assert_eq!(nearest(d, two), first.mask(), "{d:?}");
        }
    }

    #[test]
    fn free_ray_and_blocker() {
        let sq = |n| Square::from_number(n).unwrap();
        let occ = sq(19).mask() | sq(37).mask();
        assert_eq!(nearest(Dir::NE, ray(Dir::NE, sq(28)) & occ), sq(19).mask());
        assert_eq!(free_ray(Dir::NE, sq(28), occ), sq(23).mask());
        assert_eq!(nearest(Dir::SW, ray(Dir::SW, sq(28)) & occ), sq(37).mask());
        assert_eq!(free_ray(Dir::SW, sq(28), occ), sq(32).mask());
        assert_eq!(
            free_ray(Dir::NW, sq(28), occ),
            sq(22).mask() | sq(17).mask() | sq(11).mask() | sq(6).mask()
        );
    }
}
