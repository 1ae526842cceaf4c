//! The trained evaluator's features: a sparse vector whose dot product
//! with the learned weights, interpolated between an opening and an ending
//! weight set, is the score. One function, [`FeatureSet::visit`], lists the
//! features of a position; the search sums weights through it and the
//! trainer collects them through it, so both always agree.
//!
//! Feature set 1 ([`FeatureSet::Regions`]) is described below; feature set
//! 2 ([`FeatureSet::Windows`]) is set 1 plus four tables of 12-square
//! windows (`super::windows`), and set 3 ([`FeatureSet::Centre`]) is set 2
//! plus four more for windows over the middle six rows.
//!
//! Every feature is "White's minus Black's": Black's pieces are read on the
//! board turned 180° (square n ↔ 51 − n) with the colours swapped, so a
//! position and its colour-flipped twin score exactly opposite.
//!
//! Board-region patterns: 16 regions of 4 rows × 2 squares (rows 2k..2k+3,
//! squares j, j+1 of each row counted from the left, k, j in 0..4), each
//! read as 8 balanced ternary digits (+1 White, −1 Black, 0 empty): index
//! `Σ 3^d · digit_d` in −3280..=3280. Turning the board maps region (k, j)
//! onto (3 − k, 3 − j) with the digit order reversed, so Black's view of a
//! region is the negated, reversed index of its turned twin.

use super::geometry::{ROW_OF_BIT, stopped};
use super::windows::{self, AHEAD, CENTRE as BAND};
use crate::board::bitboard::free_ray;
use crate::board::{Bitboard, Color, Dir, Position, squares};

/// A feature set: which features a weight file holds weights for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// Set 1: material, king and runaway terms and the 16 regions of 8
    /// squares ([`COUNT`] features).
    Regions = 1,
    /// Set 2: set 1 and the 12-square window tables after it.
    Windows = 2,
    /// Set 3: set 2 and the centre band's window tables after it.
    Centre = 3,
}

impl FeatureSet {
    /// Every set, oldest first.
    pub const ALL: [FeatureSet; 3] = [FeatureSet::Regions, FeatureSet::Windows, FeatureSet::Centre];

    /// The id written in weight files.
    pub const fn id(self) -> u16 {
        self as u16
    }

    /// The set with this id.
    pub fn from_id(id: u16) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Number of features.
    pub const fn count(self) -> usize {
        match self {
            FeatureSet::Regions => COUNT,
            FeatureSet::Windows => windows::END,
            FeatureSet::Centre => windows::END_CENTRE,
        }
    }

    /// Calls `f(index, value)` for every non-zero feature of `pos` in this
    /// set (White's point of view). Indices may repeat.
    #[inline(always)]
    pub fn visit(self, pos: &Position, f: impl FnMut(usize, i32)) {
        match self {
            FeatureSet::Regions => visit::<false, false>(pos, f),
            FeatureSet::Windows => visit::<true, false>(pos, f),
            FeatureSet::Centre => visit::<true, true>(pos, f),
        }
    }
}

impl std::str::FromStr for FeatureSet {
    type Err = String;
    fn from_str(s: &str) -> Result<FeatureSet, String> {
        s.parse::<u16>()
            .ok()
            .and_then(FeatureSet::from_id)
            .ok_or_else(|| format!("unknown feature set '{s}' (1, 2 or 3)"))
    }
}

/// Men, White minus Black.
pub const MEN: usize = 0;
/// Having at least one king.
pub const FIRST_KING: usize = 1;
/// Kings beyond the first.
pub const MORE_KINGS: usize = 2;
/// +1 when White is to move, −1 when Black is.
pub const TURN: usize = 3;
/// Free squares the kings see along the diagonals.
pub const KING_MOBILITY: usize = 4;
/// Left/right imbalance of the men: |skew of Black| − |skew of White|.
pub const BALANCE: usize = 5;
/// Runaway men (no opponent king, nothing in the cone in front) by rows
/// left to promotion (1..=9).
pub const RUNAWAY: usize = 6;
/// King on square n (White's view), 50 entries.
pub const KING_SQUARE: usize = 16;
/// First pattern table; table t holds [`TABLE`] weights.
pub const PATTERN: usize = 66;
/// Pattern regions (and tables).
pub const REGIONS: usize = 16;
/// Weights per pattern table: 3^8.
pub const TABLE: usize = 6561;
/// Offset of index 0 in a table.
const MIDDLE: i32 = 3280;
/// Number of features of set 1.
pub const COUNT: usize = PATTERN + REGIONS * TABLE;
/// The phase runs from 0 (no men) to this (every man on the board).
pub const PHASE_MAX: i32 = 40;

/// The game phase of `pos`: the number of men, at most [`PHASE_MAX`].
#[inline]
pub fn phase(pos: &Position) -> i32 {
    (pos.men().count_ones() as i32).min(PHASE_MAX)
}

/// Squares in the left half of the board (columns a–e).
const LEFT: Bitboard = {
    let mut b = 0;
    let mut n = 1;
    while n <= 50 {
        if let Some(s) = crate::board::Square::from_number(n)
            && s.column() < 5
        {
            b |= s.mask();
        }
        n += 1;
    }
    b
};

/// Region digits of one two-row field, for the four region columns at
/// once. For a 10-bit field f (row 2k in bits 0..5, row 2k + 1 in bits
/// 5..10), 16-bit lane j of `FWD[f]` is `Σ 3^e` and of `REV[f]` is
/// `Σ 3^(3−e)`, over the squares e = 0..4 of region column j present in f:
/// (row 2k, j), (row 2k, j + 1), (row 2k + 1, j), (row 2k + 1, j + 1).
const fn lanes(reverse: bool) -> [u64; 1024] {
    let mut t = [0u64; 1024];
    let mut f = 0;
    while f < 1024 {
        let mut v = 0u64;
        let mut j = 0;
        while j < 4 {
            let bits = [j, j + 1, 5 + j, 6 + j];
            let pow = [1u64, 3, 9, 27];
            let mut x = 0u64;
            let mut e = 0;
            while e < 4 {
                if f >> bits[e] & 1 != 0 {
                    x += pow[if reverse { 3 - e } else { e }];
                }
                e += 1;
            }
            v |= x << (16 * j);
            j += 1;
        }
        t[f] = v;
        f += 1;
    }
    t
}
static FWD: [u64; 1024] = lanes(false);
static REV: [u64; 1024] = lanes(true);

/// Lane values are at most 40: this bias keeps the lanewise difference of
/// two of them positive (no borrow between lanes), and 81 times a biased
/// difference plus another still fits a lane (81 · 168 + 168 < 2^16).
const BIAS: u64 = 0x0080_0080_0080_0080;
/// What the bias adds to a two-field index (`82 · 0x80`).
pub(super) const BIASED_ZERO: i32 = 82 * 0x80;
/// What the bias adds to a one-field lane.
pub(super) const FIELD_ZERO: i32 = 0x80;

/// The two-row field `k` (rows 2k, 2k + 1) of a bitboard.
#[inline(always)]
fn field(b: Bitboard, k: usize) -> usize {
    ((b >> (11 * k)) & 0x3FF) as usize
}

/// Lane `j` of `x`.
#[inline(always)]
pub(super) fn lane(x: u64, j: usize) -> i32 {
    ((x >> (16 * j)) & 0xFFFF) as i32
}

/// Calls `f(index, value)` for every non-zero feature of `pos` (White's
/// point of view), of set 1 and, with `WINDOWS`, of set 2's windows and,
/// with `CENTRE` too, of set 3's centre band. Indices may repeat.
#[inline(always)]
fn visit<const WINDOWS: bool, const CENTRE: bool>(pos: &Position, mut f: impl FnMut(usize, i32)) {
    let white = pos.pieces(Color::White);
    let black = pos.pieces(Color::Black);
    let kings = pos.kings();
    let (wm, bm) = (white & !kings, black & !kings);
    let (wk, bk) = (white & kings, black & kings);
    let (nwm, nbm) = (wm.count_ones() as i32, bm.count_ones() as i32);
    let (nwk, nbk) = (wk.count_ones() as i32, bk.count_ones() as i32);

    f(MEN, nwm - nbm);
    f(FIRST_KING, (nwk > 0) as i32 - (nbk > 0) as i32);
    f(MORE_KINGS, (nwk - 1).max(0) - (nbk - 1).max(0));
    f(
        TURN,
        match pos.side() {
            Color::White => 1,
            Color::Black => -1,
        },
    );
    let skew = |m: Bitboard| 2 * (m & LEFT).count_ones() as i32 - m.count_ones() as i32;
    f(BALANCE, skew(bm).abs() - skew(wm).abs());

    if nwk + nbk > 0 {
        let occ = white | black;
        let mut mobility = 0;
        for k in squares(wk) {
            f(KING_SQUARE + k.number() as usize - 1, 1);
            for d in Dir::DIAGONAL {
                mobility += free_ray(d, k, occ).count_ones() as i32;
            }
        }
        for k in squares(bk) {
            f(KING_SQUARE + 50 - k.number() as usize, -1);
            for d in Dir::DIAGONAL {
                mobility -= free_ray(d, k, occ).count_ones() as i32;
            }
        }
        f(KING_MOBILITY, mobility);
    }

    // Runaway men, only against an opponent without kings.
    if nbk == 0 {
        for s in squares(wm & !stopped(black, 0)) {
            f(RUNAWAY + ROW_OF_BIT[s.bit() as usize & 63] as usize, 1);
        }
    }
    if nwk == 0 {
        for s in squares(bm & !stopped(white, 1)) {
            f(RUNAWAY + 9 - ROW_OF_BIT[s.bit() as usize & 63] as usize, -1);
        }
    }

    // Patterns: per two-row field, the digits of the four region columns
    // (lanes), White minus Black, forwards and reversed; a region joins
    // two fields: its index is `lo + 81 · hi` (reversed: `81 · lo + hi`).
    let mut fwd = [0u64; 5];
    let mut rev = [0u64; 5];
    for k in 0..5 {
        let (w, b) = (field(white, k), field(black, k));
        fwd[k] = (FWD[w] | BIAS) - FWD[b];
        rev[k] = (REV[w] | BIAS) - REV[b];
    }
    for k in 0..4 {
        let fk = fwd[k] + 81 * fwd[k + 1];
        let rk = 81 * rev[k] + rev[k + 1];
        for j in 0..4 {
            let t = 4 * k + j;
            let fi = lane(fk, j) - BIASED_ZERO;
            let ri = lane(rk, j) - BIASED_ZERO;
            f(PATTERN + TABLE * t + (MIDDLE + fi) as usize, 1);
            f(PATTERN + TABLE * (15 - t) + (MIDDLE - ri) as usize, -1);
        }
        if WINDOWS && k == 0 {
            windows::white::<AHEAD>(fk, fwd[2], &mut f);
        }
        if WINDOWS && k == 3 {
            windows::black::<AHEAD>(rk, rev[2], &mut f);
        }
        // The centre band: rows 2–7 are fields 1–3 from either side.
        if CENTRE && k == 1 {
            windows::white::<BAND>(fk, fwd[3], &mut f);
        }
        if CENTRE && k == 2 {
            windows::black::<BAND>(rk, rev[1], &mut f);
        }
    }
}

#[cfg(test)]
pub(crate) mod reference {
    //! A slow, square-by-square statement of the same features, for tests.
    use super::*;
    use crate::board::Square;

    /// The features as (index, value) pairs, summed per index, zeros
    /// dropped, sorted.
    pub fn features(pos: &Position) -> Vec<(usize, i32)> {
        let mut v = vec![0i32; COUNT];
        let piece = |n: u32| pos.piece_at(Square::from_number(n).unwrap());
        let mut counts = [[0i32; 2]; 2]; // [colour][king]
        for n in 1..=50 {
            if let Some((c, k)) = piece(n) {
                counts[c.index()][k as usize] += 1;
            }
        }
        v[MEN] = counts[0][0] - counts[1][0];
        v[FIRST_KING] = (counts[0][1] > 0) as i32 - (counts[1][1] > 0) as i32;
        v[MORE_KINGS] = (counts[0][1] - 1).max(0) - (counts[1][1] - 1).max(0);
        v[TURN] = if pos.side() == Color::White { 1 } else { -1 };
        let mut skew = [0i32; 2];
        for n in 1..=50 {
            if let Some((c, false)) = piece(n) {
                let col = Square::from_number(n).unwrap().column();
                skew[c.index()] += if col < 5 { 1 } else { -1 };
            }
        }
        v[BALANCE] = skew[1].abs() - skew[0].abs();
        let occ = pos.occupied();
        for n in 1..=50 {
            let s = Square::from_number(n).unwrap();
            match piece(n) {
                Some((Color::White, true)) => {
                    v[KING_SQUARE + n as usize - 1] += 1;
                    for d in Dir::DIAGONAL {
                        v[KING_MOBILITY] += free_ray(d, s, occ).count_ones() as i32;
                    }
                }
                Some((Color::Black, true)) => {
                    v[KING_SQUARE + (51 - n) as usize - 1] -= 1;
                    for d in Dir::DIAGONAL {
                        v[KING_MOBILITY] -= free_ray(d, s, occ).count_ones() as i32;
                    }
                }
                _ => {}
            }
        }
        // Runaway men by the cone definition: no opponent piece within
        // the forward triangle or two columns beside on the own row.
        for n in 1..=50 {
            let s = Square::from_number(n).unwrap();
            let Some((c, false)) = piece(n) else { continue };
            if counts[1 - c.index()][1] > 0 {
                continue;
            }
            let (r, col) = (s.row() as i32, s.column() as i32);
            let blocked = (1..=50).any(|m| {
                let t = Square::from_number(m).unwrap();
                if !matches!(piece(m), Some((o, _)) if o != c) {
                    return false;
                }
                let (rr, cc) = (t.row() as i32, t.column() as i32);
                let dist = if c == Color::White { r - rr } else { rr - r };
                let width = if dist == 0 { 2 } else { dist + 1 };
                dist >= 0 && (cc - col).abs() <= width
            });
            if !blocked {
                let togo = if c == Color::White { r } else { 9 - r };
                v[RUNAWAY + togo as usize] += if c == Color::White { 1 } else { -1 };
            }
        }
        // Patterns, digit by digit.
        let digit = |row: u32, p: u32, turned: bool| -> i32 {
            let n = 5 * row + p + 1;
            let n = if turned { 51 - n } else { n };
            match piece(n) {
                Some((Color::White, _)) => {
                    if turned {
                        -1
                    } else {
                        1
                    }
                }
                Some((Color::Black, _)) => {
                    if turned {
                        1
                    } else {
                        -1
                    }
                }
                None => 0,
            }
        };
        for k in 0..4u32 {
            for j in 0..4u32 {
                let t = (4 * k + j) as usize;
                for turned in [false, true] {
                    let mut idx = 0i32;
                    for dd in (0..8u32).rev() {
                        idx = 3 * idx + digit(2 * k + dd / 2, j + dd % 2, turned);
                    }
                    let sign = if turned { -1 } else { 1 };
                    v[PATTERN + TABLE * t + (MIDDLE + idx) as usize] += sign;
                }
            }
        }
        v.iter()
            .enumerate()
            .filter(|(_, x)| **x != 0)
            .map(|(i, x)| (i, *x))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::rng::Rng;
    use crate::board::bitboard::turned;
    use crate::board::fen::parse_fen;
    use crate::board::movegen;
    use crate::variant::{Frisian, International, Variant};

    fn fast(pos: &Position) -> Vec<(usize, i32)> {
        fast_set(FeatureSet::Regions, pos)
    }

    fn fast_set(set: FeatureSet, pos: &Position) -> Vec<(usize, i32)> {
        let mut v = Vec::new();
        set.visit(pos, |i, x| v.push((i, x)));
        sparse(v)
    }

    /// (index, value) pairs summed per index, zeros dropped, sorted (the
    /// sets have millions of features, too many for a dense vector per
    /// position).
    fn sparse(mut v: Vec<(usize, i32)>) -> Vec<(usize, i32)> {
        v.sort_unstable();
        let mut out: Vec<(usize, i32)> = Vec::new();
        for (i, x) in v {
            match out.last_mut() {
                Some((j, y)) if *j == i => *y += x,
                _ => out.push((i, x)),
            }
        }
        out.retain(|(_, x)| *x != 0);
        out
    }

    /// A set by the slow references: set 1's and the windows'.
    fn slow(set: FeatureSet, pos: &Position) -> Vec<(usize, i32)> {
        use crate::eval::windows::reference as windows;
        let extra = match set {
            FeatureSet::Regions => vec![],
            FeatureSet::Windows => windows::features(pos),
            FeatureSet::Centre => windows::features_centre(pos),
        };
        sparse(reference::features(pos).into_iter().chain(extra).collect())
    }

    /// The colour-flipped twin: turned 180°, colours and turn swapped.
    fn flipped(pos: &Position) -> Position {
        Position::new(
            turned(pos.pieces(Color::Black)),
            turned(pos.pieces(Color::White)),
            turned(pos.kings()),
            pos.side().other(),
        )
    }

    fn random_positions<V: Variant>(seed: u64, games: usize) -> Vec<Position> {
        let mut rng = Rng::for_index(seed, 0);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = parse_fen("W:W31-50:B1-20").unwrap();
            for _ in 0..150 {
                let moves = movegen::legal_moves::<V>(&pos);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play::<V>(&moves.as_slice()[rng.below(moves.len())]);
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn features_match_the_reference_on_random_positions() {
        for pos in random_positions::<International>(1, 30)
            .into_iter()
            .chain(random_positions::<Frisian>(2, 30))
        {
            assert_eq!(fast(&pos), reference::features(&pos), "{pos:?}");
            for set in FeatureSet::ALL {
                assert_eq!(fast_set(set, &pos), slow(set, &pos), "{set:?} {pos:?}");
            }
        }
    }

    #[test]
    fn every_window_square_has_its_digit() {
        // One king at a time on every square, each colour: the window
        // indices agree with the reference, so no digit is misplaced.
        for n in 1..=50u32 {
            for white in [true, false] {
                let fen = if white {
                    format!("W:WK{n}:B")
                } else {
                    format!("W:W:BK{n}")
                };
                let pos = parse_fen(&fen).unwrap();
                for set in [FeatureSet::Windows, FeatureSet::Centre] {
                    assert_eq!(fast_set(set, &pos), slow(set, &pos), "{set:?} {fen}");
                }
            }
        }
    }

    #[test]
    fn feature_set_ids_round_trip() {
        for set in FeatureSet::ALL {
            assert_eq!(FeatureSet::from_id(set.id()), Some(set));
            assert_eq!(set.id().to_string().parse::<FeatureSet>(), Ok(set));
        }
        assert_eq!(FeatureSet::from_id(0), None);
        assert!("4".parse::<FeatureSet>().is_err());
        assert!(FeatureSet::Windows.count() > FeatureSet::Regions.count());
        assert!(FeatureSet::Centre.count() > FeatureSet::Windows.count());
    }

    #[test]
    fn a_flipped_position_has_the_opposite_features() {
        for pos in random_positions::<International>(3, 20)
            .into_iter()
            .chain(random_positions::<Frisian>(4, 20))
        {
            for set in FeatureSet::ALL {
                let a = fast_set(set, &pos);
                let b: Vec<(usize, i32)> = fast_set(set, &flipped(&pos))
                    .into_iter()
                    .map(|(i, x)| (i, -x))
                    .collect();
                assert_eq!(a, b, "{set:?} {pos:?}");
            }
            assert_eq!(phase(&pos), phase(&flipped(&pos)));
        }
    }

    #[test]
    fn the_start_position_has_balanced_patterns() {
        let pos = parse_fen("W:W31-50:B1-20").unwrap();
        // Symmetric under the colour flip: everything cancels but the turn.
        for set in FeatureSet::ALL {
            assert_eq!(fast_set(set, &pos), vec![(TURN, 1)]);
        }
    }
}
