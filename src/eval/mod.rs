//! The baseline evaluator: a hand-written sum of documented terms, computed
//! from White's point of view and returned for the side to move, in
//! centi-men. It is only called on quiet positions (the side to move has no
//! capture; the search resolves captures first).
//!
//! Terms (each for White minus the same for Black):
//! * material: a man is 100; a king [`king_value`] (International 300,
//!   Frisian 450: its orthogonal captures make it far stronger);
//! * tempo: advancement of the men row by row, weighted more as men leave
//!   the board (in the opening it is a small tie-break, in the endgame it is
//!   the race to promote);
//! * centre and flank: men on the centre squares are worth a little more,
//!   men on the edge columns a little less (while many men are on the board);
//! * back-rank guard: men on the own back row (squares 47–49 for White)
//!   guard against break-throughs while the opponent has no king;
//! * runaway men: a man with no opponent piece in the cone in front of it
//!   (and the opponent without kings) will promote; it earns part of a king's
//!   value, more the closer it is;
//! * king activity: kings are worth a little more on the long diagonal and
//!   per free square they see (mobility);
//! * draw-rule awareness: endings that the §8 rules make drawn in practice
//!   (International lone king against at most three pieces with a king,
//!   Frisian two kings against one, equal-ish kings-only endings) are scaled
//!   toward 0, and so is every score as a counter-based draw comes near.

use crate::board::bitboard::{free_ray, step};
use crate::board::{BOARD, Bitboard, Color, Dir, Position, Square, squares};
use crate::game::DrawState;
use crate::search::{MATE, Score};
use crate::variant::{Variant, VariantKind};

/// The value of a man.
pub const MAN: Score = 100;

/// The value of a king in `V`.
pub const fn king_value(kind: VariantKind) -> Score {
    match kind {
        VariantKind::International => 300,
        VariantKind::Frisian | VariantKind::FrisianSeed => 450,
    }
}

/// Largest magnitude a static evaluation may have (well below wins).
pub const MAX_EVAL: Score = MATE / 2;

const fn sq_mask(n: u32) -> Bitboard {
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
const ROWS: [Bitboard; 10] = {
    let mut t = [0; 10];
    let mut r = 0;
    while r < 10 {
        t[r] = row_mask(r as u32);
        r += 1;
    }
    t
};

const fn mask_of(list: &[u32]) -> Bitboard {
    let mut b = 0;
    let mut i = 0;
    while i < list.len() {
        b |= sq_mask(list[i]);
        i += 1;
    }
    b
}

/// Centre squares (the four middle rows, columns b–i), symmetric under the
/// 180° turn n ↔ 51 − n.
const CENTRE: Bitboard = mask_of(&[17, 18, 19, 22, 23, 24, 27, 28, 29, 32, 33, 34]);
/// Edge columns a and j.
const EDGE: Bitboard = mask_of(&[6, 16, 26, 36, 46, 5, 15, 25, 35, 45]);
/// White's back-rank guards; Black's are the mirrored 2, 3, 4.
const GUARD_WHITE: Bitboard = mask_of(&[47, 48, 49]);
const GUARD_BLACK: Bitboard = mask_of(&[2, 3, 4]);
/// The long diagonal 46–5.
const LONG_DIAGONAL: Bitboard = mask_of(&[46, 41, 37, 32, 28, 23, 19, 14, 10, 5]);

/// Tempo weight planes: bit k of a man's tempo weight (White: 9 − row,
/// Black: row) is set on the rows of `TEMPO_PLANES[colour][k]`, so the
/// weighted count is four popcounts per side.
const TEMPO_PLANES: [[Bitboard; 4]; 2] = {
    let mut t = [[0; 4]; 2];
    let mut r = 0;
    while r < 10 {
        let mut k = 0;
        while k < 4 {
            if (9 - r) >> k & 1 != 0 {
                t[0][k] |= ROWS[r];
            }
            if r >> k & 1 != 0 {
                t[1][k] |= ROWS[r];
            }
            k += 1;
        }
        r += 1;
    }
    t
};

/// Row 0..=9 of each bit of the layout (0 for ghost bits).
const ROW_OF_BIT: [u8; 64] = {
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
struct Side {
    men: Bitboard,
    kings: Bitboard,
}

/// Evaluates a quiet position for the side to move (centi-men).
pub fn evaluate<V: Variant>(pos: &Position, draw: &DrawState) -> Score {
    let white = Side {
        men: pos.pieces(Color::White) & !pos.kings(),
        kings: pos.pieces(Color::White) & pos.kings(),
    };
    let black = Side {
        men: pos.pieces(Color::Black) & !pos.kings(),
        kings: pos.pieces(Color::Black) & pos.kings(),
    };
    let (wm, wk) = (
        white.men.count_ones() as i32,
        white.kings.count_ones() as i32,
    );
    let (bm, bk) = (
        black.men.count_ones() as i32,
        black.kings.count_ones() as i32,
    );
    let men_total = wm + bm;
    let king = king_value(V::KIND);

    // Material.
    let mut score = (wm - bm) * MAN + (wk - bk) * king;

    // Tempo: advancement in rows, weight 1 (full board) .. 5 (no men left).
    let weight = 1 + (40 - men_total).max(0) / 10;
    score +=
        (weighted(white.men, &TEMPO_PLANES[0]) - weighted(black.men, &TEMPO_PLANES[1])) * weight;

    // Centre and flank, a middlegame notion.
    if men_total > 12 {
        score += 4
            * ((white.men & CENTRE).count_ones() as i32 - (black.men & CENTRE).count_ones() as i32);
        score -=
            3 * ((white.men & EDGE).count_ones() as i32 - (black.men & EDGE).count_ones() as i32);
    }

    // Back-rank guard, useful only while the opponent has men to break
    // through and no king yet.
    if bk == 0 && bm > 0 {
        score += 5 * (white.men & GUARD_WHITE).count_ones() as i32;
    }
    if wk == 0 && wm > 0 {
        score -= 5 * (black.men & GUARD_BLACK).count_ones() as i32;
    }

    // Runaway men (only against an opponent without kings, who could catch
    // them from anywhere).
    let occ = pos.occupied();
    if bk == 0 {
        score += runaway(white.men, pos.pieces(Color::Black), 0, king);
    }
    if wk == 0 {
        score -= runaway(black.men, pos.pieces(Color::White), 1, king);
    }

    // King activity.
    if wk + bk > 0 {
        score += king_activity(white.kings, occ) - king_activity(black.kings, occ);
    }

    score = scale_for_draws::<V>(score, pos, draw, (wm, wk, bm, bk));
    let score = score.clamp(-MAX_EVAL, MAX_EVAL);
    match pos.side() {
        Color::White => score,
        Color::Black => -score,
    }
}

/// `Σ 2^k · |men ∩ planes[k]|`.
#[inline(always)]
fn weighted(men: Bitboard, planes: &[Bitboard; 4]) -> i32 {
    ((men & planes[0]).count_ones()
        + 2 * (men & planes[1]).count_ones()
        + 4 * (men & planes[2]).count_ones()
        + 8 * (men & planes[3]).count_ones()) as i32
}

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
fn stopped(opp: Bitboard, color: usize) -> Bitboard {
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

/// Bonus of the men of one colour (index 0 White, 1 Black) with a free run.
fn runaway(men: Bitboard, opp: Bitboard, color: usize, king: Score) -> Score {
    let mut bonus = 0;
    for s in squares(men & !stopped(opp, color)) {
        let row = ROW_OF_BIT[s.bit() as usize & 63] as Score;
        let dist = if color == 0 { row } else { 9 - row };
        // One step from promotion ≈ 3/4 of the king's surplus value.
        bonus += (king - MAN) * (10 - dist) / 12;
    }
    bonus
}

/// Kings: long-diagonal bonus and mobility along the diagonals.
fn king_activity(kings: Bitboard, occ: Bitboard) -> Score {
    let mut s = 0;
    for k in squares(kings) {
        if k.mask() & LONG_DIAGONAL != 0 {
            s += 10;
        }
        let mut free = 0;
        for d in Dir::DIAGONAL {
            free += free_ray(d, k, occ).count_ones() as Score;
        }
        s += 2 * free;
    }
    s
}

/// Pulls the score toward 0 in endings the draw rules make hard to win.
fn scale_for_draws<V: Variant>(
    score: Score,
    pos: &Position,
    draw: &DrawState,
    (wm, wk, bm, bk): (i32, i32, i32, i32),
) -> Score {
    let mut score = score;
    // 16-/5-move endings (International), 2 kings v 1 king (Frisian): a
    // draw unless won by force within the counter, which the search sees.
    if V::material_rule(pos).is_some() {
        score /= 8;
    } else if wm + bm == 0 && (wk - bk).abs() <= 1 {
        // Kings only, at most one king up: drawn in practice.
        score /= 4;
    }
    // A counter rule fires soon: fade the score out over its last 20 plies.
    let left = draw.plies_to_draw::<V>(pos) as Score;
    if left < 20 {
        score = score * left / 20;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen::parse_fen;
    use crate::variant::{Frisian, International};

    fn eval_fen<V: Variant>(fen: &str) -> Score {
        let pos = parse_fen(fen).unwrap();
        evaluate::<V>(&pos, &DrawState::new::<V>(&pos))
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(eval_fen::<International>("W:W31-50:B1-20"), 0);
        assert_eq!(eval_fen::<Frisian>("W:W31-50:B1-20"), 0);
    }

    #[test]
    fn colours_are_symmetric() {
        // Mirror: square n <-> 51 - n, colours and side to move swapped.
        let c = eval_fen::<International>("W:W31,32,33:B1,2");
        let d = eval_fen::<International>("B:W49,50:B18,19,20");
        assert_eq!(c, d);
        let e = eval_fen::<Frisian>("W:W28,33,K45:B12,17");
        let f = eval_fen::<Frisian>("B:W34,39:B18,23,K6");
        assert_eq!(e, f);
    }

    #[test]
    fn stopped_men_match_the_cone_table() {
        let mut r = 0x1234_5678u64;
        for _ in 0..2000 {
            r = r
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let opp = (r ^ (r >> 29)) & crate::board::BOARD & (r >> 7 | r << 3);
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

    #[test]
    fn a_king_is_worth_more_than_a_man() {
        assert!(eval_fen::<International>("W:WK28:B1") > 0);
        // Black to move, a king and a man against three men: Black is worse.
        assert!(eval_fen::<Frisian>("B:WK28,31:B1,2,3") < 0);
    }
}
