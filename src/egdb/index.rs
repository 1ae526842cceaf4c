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
use crate::board::{Bitboard, Color, Position, Restriction, Square, squares};
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

/// Rank of an ascending list of distinct places (combinatorial number system).
#[inline]
fn rank(places: &[u32]) -> u64 {
    places
        .iter()
        .enumerate()
        .map(|(i, &p)| binom(p, i as u32 + 1))
        .sum()
}

/// The ascending places of rank `r` among `n` for `k` elements.
#[inline]
fn unrank(mut r: u64, k: u32, n: u32, out: &mut [u32]) {
    let mut hi = n;
    for i in (1..=k).rev() {
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

/// Square numbers 1..=50 minus one, of the set `bb`, ascending.
#[inline]
fn numbers(bb: Bitboard, out: &mut [u32; 8]) -> usize {
    let mut n = 0;
    for s in squares(bb) {
        if n < 8 {
            out[n] = s.number() - 1;
            n += 1;
        }
    }
    n
}

/// The places of `bb` among the squares not in `taken` (both as bitboards).
#[inline]
fn places_among_free(bb: Bitboard, taken: Bitboard, out: &mut [u32; 8]) -> usize {
    let mut t = [0u32; 8];
    let nt = numbers(taken, &mut t);
    let n = numbers(bb, out);
    for p in out.iter_mut().take(n) {
        let below = t[..nt].iter().filter(|&&x| x < *p).count() as u32;
        *p -= below;
    }
    n
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

    /// Index of a position with White to move and this material; `None`
    /// if it does not fit (other material, impossible §6 state).
    pub fn index(&self, pos: &Position) -> Option<u64> {
        let m = self.material;
        let (w, b, k) = (
            pos.pieces(Color::White),
            pos.pieces(Color::Black),
            pos.kings(),
        );
        let (wm, bm, wk, bk) = (w & !k, b & !k, w & k, b & k);
        let mut p = [0u32; 8];
        if numbers(wm, &mut p) != m.us_men as usize
            || p.iter().take(m.us_men as usize).any(|&x| x < 5)
        {
            return None;
        }
        for x in p.iter_mut().take(m.us_men as usize) {
            *x -= 5;
        }
        let r_wm = rank(&p[..m.us_men as usize]);
        if numbers(bm, &mut p) != m.them_men as usize
            || p.iter().take(m.them_men as usize).any(|&x| x >= 45)
        {
            return None;
        }
        let r_bm = rank(&p[..m.them_men as usize]);
        if places_among_free(wk, wm | bm, &mut p) != m.us_kings as usize {
            return None;
        }
        let r_wk = rank(&p[..m.us_kings as usize]);
        if places_among_free(bk, wm | bm | wk, &mut p) != m.them_kings as usize {
            return None;
        }
        let r_bk = rank(&p[..m.them_kings as usize]);
        let rs = [
            restriction_rank(pos.restriction(Color::White), wk, self.restr[0])?,
            restriction_rank(pos.restriction(Color::Black), bk, self.restr[1])?,
        ];
        let mut i = r_wm;
        i = i * self.sizes[1] + r_bm;
        i = i * self.sizes[2] + r_wk;
        i = i * self.sizes[3] + r_bk;
        i = i * self.restr[0] + rs[0];
        i = i * self.restr[1] + rs[1];
        Some(i)
    }

    /// The position (White to move) of an index, `None` for a hole.
    pub fn position(&self, mut i: u64) -> Option<Position> {
        if i >= self.len {
            return None;
        }
        let m = self.material;
        let rs1 = i % self.restr[1];
        i /= self.restr[1];
        let rs0 = i % self.restr[0];
        i /= self.restr[0];
        let r_bk = i % self.sizes[3];
        i /= self.sizes[3];
        let r_wk = i % self.sizes[2];
        i /= self.sizes[2];
        let r_bm = i % self.sizes[1];
        let r_wm = i / self.sizes[1];
        let sq = |n: u32| Square::from_number(n + 1).map_or(0, |s| s.mask());
        let mut p = [0u32; 8];
        unrank(r_wm, m.us_men as u32, 45, &mut p);
        let wm: Bitboard = p[..m.us_men as usize].iter().fold(0, |b, &x| b | sq(x + 5));
        unrank(r_bm, m.them_men as u32, 45, &mut p);
        let bm: Bitboard = p[..m.them_men as usize].iter().fold(0, |b, &x| b | sq(x));
        if wm & bm != 0 {
            return None;
        }
        let wk = place_in_free(r_wk, m.us_kings as u32, wm | bm);
        let bk = place_in_free(r_bk, m.them_kings as u32, wm | bm | wk);
        let pos = Position::new(wm | wk, bm | bk, wk | bk, Color::White);
        Some(
            pos.with_restriction(Color::White, restriction_of(rs0, wk))
                .with_restriction(Color::Black, restriction_of(rs1, bk)),
        )
    }
}

/// The squares of rank `r` (k of them) among the squares not in `taken`.
fn place_in_free(r: u64, k: u32, taken: Bitboard) -> Bitboard {
    let mut p = [0u32; 8];
    let free = 50 - taken.count_ones();
    unrank(r, k, free, &mut p);
    let mut out = 0;
    let mut it = 0u32; // place among the free squares
    let mut j = 0;
    for s in Square::all() {
        if j == k as usize {
            break;
        }
        if taken & s.mask() != 0 {
            continue;
        }
        if it == p[j] {
            out |= s.mask();
            j += 1;
        }
        it += 1;
    }
    out
}

/// 0 for no state, else 1 + 3·(place of the king among `kings`) + count - 1.
fn restriction_rank(r: Restriction, kings: Bitboard, states: u64) -> Option<u64> {
    match r.king() {
        None => Some(0),
        Some(_) if states == 1 => None,
        Some(k) if kings & k.mask() == 0 => None,
        Some(k) => {
            let j = (kings & (k.mask() - 1)).count_ones() as u64;
            Some(1 + 3 * j + r.count() as u64 - 1)
        }
    }
}

fn restriction_of(rank: u64, kings: Bitboard) -> Restriction {
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
