//! Material signatures and the dense index of a table: a position with
//! the side to move normalised to White (docs/egdb.md, "Index").
//!
//! Every table holds the positions of one [`Material`] with **White to
//! move**; a position with Black to move is turned by 180° and its colours
//! swapped first ([`normalise`]), which both rule sets allow (the board,
//! the men's directions and the promotion rows map onto each other).
//!
//! The index ranks, in this order: the mover's men among the 45 squares
//! 6..50 (a white man never stands on its promotion row 1..5, docs/rules.md
//! D12), the other side's men among 1..45, the mover's kings among the
//! squares the men leave free, the other side's kings among the rest, then
//! (Frisian only) the §6 restriction state of each side that has men and
//! kings. Men of both sides on one square are the only holes of the index.

use crate::board::bitboard::turned;
use crate::board::{BOARD, Bitboard, Color, Position, Restriction, squares};
use crate::variant::Variant;
use std::fmt;

/// Most pieces a table may hold (the index and the codes are sized for it).
pub const MAX_PIECES: u32 = 7;

/// The material of a table: men and kings of the side to move (`us`) and
/// of the other side (`them`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    pub us_men: u8,
    pub us_kings: u8,
    pub them_men: u8,
    pub them_kings: u8,
}

impl Material {
    /// The material of a (normalised or not) position, side to move first.
    pub fn of(pos: &Position) -> Material {
        let (us, them) = (pos.own(), pos.opponent());
        let k = pos.kings();
        Material {
            us_men: (us & !k).count_ones() as u8,
            us_kings: (us & k).count_ones() as u8,
            them_men: (them & !k).count_ones() as u8,
            them_kings: (them & k).count_ones() as u8,
        }
    }

    /// Number of pieces on the board.
    pub fn pieces(self) -> u32 {
        (self.us_men + self.us_kings + self.them_men + self.them_kings) as u32
    }

    /// Number of men on the board.
    pub fn men(self) -> u32 {
        (self.us_men + self.them_men) as u32
    }

    /// The same material with the other side to move.
    pub fn swapped(self) -> Material {
        Material {
            us_men: self.them_men,
            us_kings: self.them_kings,
            them_men: self.us_men,
            them_kings: self.us_kings,
        }
    }

    /// A small dense code (each count below 8), for lookup arrays.
    pub fn code(self) -> usize {
        (self.us_men as usize & 7) << 9
            | (self.us_kings as usize & 7) << 6
            | (self.them_men as usize & 7) << 3
            | (self.them_kings as usize & 7)
    }

    /// Every material with both sides on the board and at most `n` pieces,
    /// in build order: fewer pieces first, then fewer men, so that captures
    /// (fewer pieces) and promotions (fewer men) lead to finished tables.
    pub fn all_up_to(n: u32) -> Vec<Material> {
        let n = n.min(MAX_PIECES) as u8;
        let mut v = Vec::new();
        for um in 0..=n {
            for uk in 0..=n - um {
                for tm in 0..=n - um - uk {
                    for tk in 0..=n - um - uk - tm {
                        let m = Material {
                            us_men: um,
                            us_kings: uk,
                            them_men: tm,
                            them_kings: tk,
                        };
                        if um + uk > 0 && tm + tk > 0 {
                            v.push(m);
                        }
                    }
                }
            }
        }
        v.sort_by_key(|m| (m.pieces(), m.men(), *m));
        v
    }

    /// The file stem: four digits, mover's men and kings then the other
    /// side's (`0201` is 2 kings to move against 1 king).
    pub fn name(self) -> String {
        format!(
            "{}{}{}{}",
            self.us_men, self.us_kings, self.them_men, self.them_kings
        )
    }

    /// Reads [`Material::name`].
    pub fn parse(s: &str) -> Option<Material> {
        let d: Vec<u8> = s
            .chars()
            .map(|c| c.to_digit(10).map(|d| d as u8))
            .collect::<Option<_>>()?;
        match d[..] {
            [a, b, c, e] => Some(Material {
                us_men: a,
                us_kings: b,
                them_men: c,
                them_kings: e,
            }),
            _ => None,
        }
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

fn flip_restriction(r: Restriction) -> Restriction {
    match r.king() {
        Some(k) => Restriction::new(k.turned(), r.count()).unwrap_or(Restriction::NONE),
        None => Restriction::NONE,
    }
}

/// The position with White to move: unchanged if White moves, else turned
/// by 180° with the colours (and the §6 states) swapped.
pub fn normalise(pos: &Position) -> Position {
    if pos.side() == Color::White {
        return *pos;
    }
    Position::new(
        turned(pos.pieces(Color::Black)),
        turned(pos.pieces(Color::White)),
        turned(pos.kings()),
        Color::White,
    )
    .with_restriction(
        Color::White,
        flip_restriction(pos.restriction(Color::Black)),
    )
    .with_restriction(
        Color::Black,
        flip_restriction(pos.restriction(Color::White)),
    )
}

/// Binomial coefficients C(n, k) for n ≤ 50, k ≤ MAX_PIECES.
const BINOM: [[u64; 8]; 51] = {
    let mut t = [[0u64; 8]; 51];
    let mut n = 0;
    while n <= 50 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

#[inline]
fn binom(n: u32, k: u32) -> u64 {
    BINOM[n as usize][k as usize]
}

/// The ascending places of rank `r` among `n` for `k` elements.
#[inline]
fn unrank(mut r: u64, k: u32, n: u32, out: &mut [u32]) {
    let mut hi = n;
    for i in (1..=k).rev() {
        if i == 1 {
            out[0] = r as u32;
            break;
        }
        // The largest p < hi with C(p, i) ≤ r.
        let mut p = hi - 1;
        while binom(p, i) > r {
            p -= 1;
        }
        r -= binom(p, i);
        out[i as usize - 1] = p;
        hi = p;
    }
}

/// Square number minus one of the square on bit `bit` (the ghost squares
/// follow every tenth square: bit = n + n / 10 for n = number − 1).
#[inline(always)]
fn number0(bit: u32) -> u32 {
    bit - bit / 11
}

/// The bit of the square numbered `n + 1`.
#[inline(always)]
fn bit_of(n: u32) -> u32 {
    n + n / 10
}

/// The rank of the squares of `bb` (their numbers minus one minus `shift`,
/// minus the squares of `taken` below each): the places among the squares
/// not taken, counted by popcount rather than by scanning.
#[inline(always)]
fn rank_among(bb: Bitboard, taken: Bitboard, shift: u32) -> u64 {
    let mut r = 0;
    for (i, s) in squares(bb).enumerate() {
        let below = (taken & (s.mask() - 1)).count_ones();
        r += binom(number0(s.bit()) - shift - below, i as u32 + 1);
    }
    r
}

/// The squares of the ascending `places` (k of them) among the free squares `free`.
#[inline(always)]
fn select(free: Bitboard, places: &[u32]) -> Bitboard {
    let (mut f, mut at, mut out) = (free, 0, 0);
    for &p in places {
        while at < p {
            f &= f - 1;
            at += 1;
        }
        out |= f & f.wrapping_neg();
    }
    out
}

/// The table layout of one material in one variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub material: Material,
    /// Number of §6 restriction states of the mover and of the other side.
    restr: [u64; 2],
    /// Sizes of the factors: us men, them men, us kings, them kings.
    sizes: [u64; 4],
    len: u64,
}

impl Layout {
    /// The layout of `m` under the rules of `V`.
    pub fn new<V: Variant>(m: Material) -> Layout {
        let men = m.us_men as u32 + m.them_men as u32;
        let free = 50 - men;
        let sizes = [
            binom(45, m.us_men as u32),
            binom(45, m.them_men as u32),
            binom(free, m.us_kings as u32),
            binom(free - m.us_kings as u32, m.them_kings as u32),
        ];
        // §6: a side with men and kings carries (none | king j, count 1..3).
        let states = |men: u8, kings: u8| {
            if V::KING_RESTRICTION && men > 0 && kings > 0 {
                1 + 3 * kings as u64
            } else {
                1
            }
        };
        let restr = [
            states(m.us_men, m.us_kings),
            states(m.them_men, m.them_kings),
        ];
        let len = sizes.iter().product::<u64>() * restr[0] * restr[1];
        Layout {
            material: m,
            restr,
            sizes,
            len,
        }
    }

    /// Number of index values (positions plus holes).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True for an empty layout (never for a real material).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of §6 state combinations of one piece placement: they are the
    /// innermost part of the index, so the states of a placement are the
    /// `states()` consecutive indices from `placement · states()`.
    #[inline]
    pub fn states(&self) -> u64 {
        self.restr[0] * self.restr[1]
    }

    /// Number of §6 states of the mover (0) or the other side (1).
    #[inline]
    pub fn side_states(&self, side: usize) -> u64 {
        self.restr[side]
    }

    /// Index of a position with White to move and this material; `None`
    /// if it does not fit (other material, impossible §6 state). A position
    /// with Black to move gets the index of its normalised form.
    #[inline]
    pub fn index(&self, pos: &Position) -> Option<u64> {
        Some(self.placement(pos)? * self.states() + self.state_offset(pos)?)
    }

    /// The placement number of the pieces of `pos` (side to move first,
    /// turned when Black moves, as [`normalise`] would), the §6 states
    /// left out: `index = placement · states() + state_offset`.
    #[inline]
    pub fn placement(&self, pos: &Position) -> Option<u64> {
        let m = self.material;
        let k = pos.kings();
        let (mut us, mut them) = (pos.own(), pos.opponent());
        if pos.side() == Color::Black {
            (us, them) = (turned(us), turned(them));
        }
        let k = if pos.side() == Color::Black {
            turned(k)
        } else {
            k
        };
        let (um, tm, uk, tk) = (us & !k, them & !k, us & k, them & k);
        // The mover's men never stand on squares 1..5, the other side's
        // never on 46..50 (their promotion rows).
        if um.count_ones() != m.us_men as u32
            || tm.count_ones() != m.them_men as u32
            || uk.count_ones() != m.us_kings as u32
            || tk.count_ones() != m.them_kings as u32
            || um & FIRST_ROW != 0
            || tm & LAST_ROW != 0
        {
            return None;
        }
        let men = um | tm;
        let mut i = rank_among(um, 0, 5);
        i = i * self.sizes[1] + rank_among(tm, 0, 0);
        i = i * self.sizes[2] + rank_among(uk, men, 0);
        i = i * self.sizes[3] + rank_among(tk, men | uk, 0);
        Some(i)
    }

    /// The §6 part of the index of `pos` (either side to move, as
    /// [`Layout::placement`]); `None` for a state the table cannot hold.
    #[inline]
    pub fn state_offset(&self, pos: &Position) -> Option<u64> {
        let (us, them) = (pos.side(), pos.side().other());
        let k = pos.kings();
        let turn = us == Color::Black;
        let a = state_rank(pos.restriction(us), pos.pieces(us) & k, self.restr[0], turn)?;
        let b = state_rank(
            pos.restriction(them),
            pos.pieces(them) & k,
            self.restr[1],
            turn,
        )?;
        Some(a * self.restr[1] + b)
    }

    /// The position (White to move) of an index, `None` for a hole.
    pub fn position(&self, i: u64) -> Option<Position> {
        if i >= self.len {
            return None;
        }
        let pos = self.placement_position(i / self.states())?;
        Some(self.with_states(&pos, i % self.states()))
    }

    /// The position (White to move, no §6 state) of placement `p`, `None`
    /// for a hole.
    pub fn placement_position(&self, mut p: u64) -> Option<Position> {
        let m = self.material;
        let r_bk = p % self.sizes[3];
        p /= self.sizes[3];
        let r_wk = p % self.sizes[2];
        p /= self.sizes[2];
        let r_bm = p % self.sizes[1];
        let r_wm = p / self.sizes[1];
        let mut q = [0u32; 8];
        unrank(r_wm, m.us_men as u32, 45, &mut q);
        let wm: Bitboard = q[..m.us_men as usize]
            .iter()
            .fold(0, |b, &x| b | 1 << bit_of(x + 5));
        unrank(r_bm, m.them_men as u32, 45, &mut q);
        let bm: Bitboard = q[..m.them_men as usize]
            .iter()
            .fold(0, |b, &x| b | 1 << bit_of(x));
        if wm & bm != 0 {
            return None;
        }
        let free = BOARD & !(wm | bm);
        unrank(r_wk, m.us_kings as u32, free.count_ones(), &mut q);
        let wk = select(free, &q[..m.us_kings as usize]);
        unrank(r_bk, m.them_kings as u32, (free & !wk).count_ones(), &mut q);
        let bk = select(free & !wk, &q[..m.them_kings as usize]);
        Some(Position::new(wm | wk, bm | bk, wk | bk, Color::White))
    }

    /// `pos` (White to move, a placement of this layout) with the §6 states
    /// of state combination `s` (0..states()).
    pub fn with_states(&self, pos: &Position, s: u64) -> Position {
        let k = pos.kings();
        pos.with_restriction(
            Color::White,
            restriction_of(s / self.restr[1], pos.pieces(Color::White) & k),
        )
        .with_restriction(
            Color::Black,
            restriction_of(s % self.restr[1], pos.pieces(Color::Black) & k),
        )
    }
}

/// Squares 1..5 and 46..50.
const FIRST_ROW: Bitboard = 0b11111;
const LAST_ROW: Bitboard = 0b11111 << 49;

/// 0 for no state, else 1 + 3·(place of the king among `kings`) + count - 1,
/// the places counted on the board turned by 180° when `turn` (the
/// position is normalised from Black to move: the order of the kings is
/// reversed).
#[inline(always)]
fn state_rank(r: Restriction, kings: Bitboard, states: u64, turn: bool) -> Option<u64> {
    match r.king() {
        None => Some(0),
        Some(_) if states == 1 => None,
        Some(k) if kings & k.mask() == 0 => None,
        Some(k) => {
            let below = (kings & (k.mask() - 1)).count_ones() as u64;
            let j = if turn {
                kings.count_ones() as u64 - 1 - below
            } else {
                below
            };
            Some(3 * j + r.count() as u64)
        }
    }
}

/// The restriction of state rank `rank` (see [`state_rank`]) among `kings`.
pub fn restriction_of(rank: u64, kings: Bitboard) -> Restriction {
    if rank == 0 {
        return Restriction::NONE;
    }
    let j = (rank - 1) / 3;
    let count = ((rank - 1) % 3 + 1) as u8;
    squares(kings)
        .nth(j as usize)
        .and_then(|k| Restriction::new(k, count))
        .unwrap_or(Restriction::NONE)
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Frisian, International};

    fn round_trip<V: Variant>(m: Material) {
        let l = Layout::new::<V>(m);
        let mut holes = 0;
        for i in 0..l.len() {
            match l.position(i) {
                Some(p) => assert_eq!(l.index(&p), Some(i), "{m} {i}"),
                None => holes += 1,
            }
        }
        assert!(holes * 10 < l.len().max(10), "{m}: {holes} holes");
    }

    #[test]
    fn index_round_trips() {
        for m in ["0101", "1001", "1010", "0201", "1110", "0011"] {
            round_trip::<International>(Material::parse(m).unwrap());
        }
        for m in ["1101", "1110", "0111", "1011"] {
            round_trip::<Frisian>(Material::parse(m).unwrap());
        }
    }

    #[test]
    fn build_order_puts_captures_and_promotions_first() {
        let all = Material::all_up_to(4);
        let at = |s: &str| all.iter().position(|m| m.name() == s).unwrap();
        assert!(at("0101") < at("1001"));
        assert!(at("0201") < at("1101"));
        assert!(at("1101") < at("2001"));
        assert_eq!(
            all.len(),
            all.iter().collect::<std::collections::HashSet<_>>().len()
        );
    }
}
