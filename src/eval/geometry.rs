//! Board geometry the evaluators share: square and row masks, and the
//! cone in front of a man that an opponent piece must occupy to stop it
//! promoting (the runaway-man test, computed for all men at once).

use crate::board::bitboard::step;
use crate::board::{BOARD, Bitboard, Dir, Square};

pub const fn sq_mask(n: u32) -> Bitboard {
    match Square::from_number(n) {
        Some(s) => s.mask(),
        None => 0,
    }
}

const fn row_mask(r: u32) -> Bitboard {
    let mut b = 0;
    let mut k = 1;
    while k <= 5 {
        b |= sq_mask(5 * r + k);
        k += 1;
    }
    b
}

/// `ROWS[r]`: the squares of row r (0 = squares 1..5, Black's back row).
pub const ROWS: [Bitboard; 10] = {
    let mut t = [0; 10];
    let mut r = 0;
    while r < 10 {
        t[r] = row_mask(r as u32);
        r += 1;
    }
    t
};

pub const fn mask_of(list: &[u32]) -> Bitboard {
    let mut b = 0;
    let mut i = 0;
    while i < list.len() {
        b |= sq_mask(list[i]);
        i += 1;
    }
    b
}

/// Row 0..=9 of each bit of the layout (0 for ghost bits).
pub const ROW_OF_BIT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut r = 0;
    while r < 10 {
        let mut b = 0;
        while b < 64 {
            if ROWS[r] >> b & 1 != 0 {
                t[b] = r as u8;
            }
            b += 1;
        }
        r += 1;
    }
    t
};

/// `CONE[c][bit]`: squares an opponent piece must stand on to stop a man of
/// colour c on that square: the forward triangle widening one column per
/// row, plus the squares two columns either side on the man's own row
/// (Frisian sideways captures). On the dark squares the triangle is the
/// diagonal cone; [`stopped`] computes the same thing for all men at once.
#[cfg(test)]
static CONE: [[Bitboard; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut n = 1;
    while n <= 50 {
        let s = match Square::from_number(n) {
            Some(s) => s,
            None => unreachable!(),
        };
        let (r, c) = (s.row() as i32, s.column() as i32);
        let mut color = 0;
        while color < 2 {
            let mut b = 0u64;
            let mut rr = 0;
            while rr < 10 {
                let dist = if color == 0 { r - rr } else { rr - r };
                if dist >= 0 {
                    let width = if dist == 0 { 2 } else { dist + 1 };
                    let mut cc = 0;
                    while cc < 10 {
                        let dc = if cc > c { cc - c } else { c - cc };
                        if dc <= width
                            && !(rr == r && cc == c)
                            && let Some(t2) = Square::from_row_column(rr, cc)
                        {
                            b |= t2.mask();
                        }
                        cc += 1;
                    }
                }
                rr += 1;
            }
            t[color][s.bit() as usize] = b;
            color += 1;
        }
        n += 1;
    }
    t
};

/// Per-side counts and sums used by several terms.
/// Kogge-Stone propagators of an unoccluded fill along a step of `o` bits:
/// `[k]` holds the squares t such that t and the 2^k − 1 squares before it
/// (steps of `o` back) are on the board: a jump of 2^k steps onto t stays
/// on the board all the way (the ghost squares stop a fill at the edges).
const fn propagators(o: i32) -> [Bitboard; 3] {
    const fn shl(b: Bitboard, n: i32) -> Bitboard {
        if n > 0 { b << n } else { b >> -n }
    }
    let p2 = BOARD & shl(BOARD, o);
    let p4 = p2 & shl(p2, 2 * o);
    [BOARD, p2, p4]
}

/// `b` and every square reached from it by any number of steps of `o`.
#[inline(always)]
fn fill<const O: i32>(b: Bitboard, p: &[Bitboard; 3]) -> Bitboard {
    let shl = |b: Bitboard, n: i32| if n > 0 { b << n } else { b >> -n };
    let mut g = b;
    g |= p[0] & shl(g, O);
    g |= p[1] & shl(g, 2 * O);
    g |= p[2] & shl(g, 4 * O);
    g |= p[2] & shl(g, 4 * O);
    g
}

const PROP_SW: [Bitboard; 3] = propagators(Dir::SW.offset());
const PROP_SE: [Bitboard; 3] = propagators(Dir::SE.offset());
const PROP_NW: [Bitboard; 3] = propagators(Dir::NW.offset());
const PROP_NE: [Bitboard; 3] = propagators(Dir::NE.offset());

/// The squares where a man of `color` (0 White, 1 Black) has a piece of
/// `opp` in its cone (exact on the squares not in `opp`): the diagonal
/// cone behind each `opp` piece (from the man's view), widening one step
/// per row, and the squares two columns beside it on its row. The cone is
/// filled along one diagonal then the other, in both orders: one of the
/// two paths to a square of the cone always stays on the board.
#[inline(always)]
pub fn stopped(opp: Bitboard, color: usize) -> Bitboard {
    let side = step(opp, Dir::W) | step(opp, Dir::E);
    if color == 0 {
        const SW: i32 = Dir::SW.offset();
        const SE: i32 = Dir::SE.offset();
        fill::<SE>(fill::<SW>(opp, &PROP_SW), &PROP_SE)
            | fill::<SW>(fill::<SE>(opp, &PROP_SE), &PROP_SW)
            | side
    } else {
        const NW: i32 = Dir::NW.offset();
        const NE: i32 = Dir::NE.offset();
        fill::<NE>(fill::<NW>(opp, &PROP_NW), &PROP_NE)
            | fill::<NW>(fill::<NE>(opp, &PROP_NE), &PROP_NW)
            | side
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopped_men_match_the_cone_table() {
        let mut r = 0x1234_5678u64;
        for _ in 0..2000 {
            r = r
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let opp = (r ^ (r >> 29)) & BOARD & (r >> 7 | r << 3);
            for (color, cone) in CONE.iter().enumerate() {
                let fast = stopped(opp, color);
                for s in Square::all().filter(|s| s.mask() & opp == 0) {
                    let slow = cone[s.bit() as usize] & opp != 0;
                    assert_eq!(fast & s.mask() != 0, slow, "{opp:x} {color} {s}");
                }
            }
        }
        for s in Square::all() {
            assert_eq!(ROW_OF_BIT[s.bit() as usize] as u32, s.row());
        }
    }
}
