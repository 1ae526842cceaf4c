//! The hand-written evaluator (the engine's first, kept as the baseline the
//! trained one is measured against and as the source of the first training
//! games): a sum of documented terms from White's point of view, centi-men.
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
//!
//! The draw-rule scaling on top is shared with the trained evaluator
//! (`eval/mod.rs`).

use super::geometry::{ROW_OF_BIT, ROWS, mask_of, stopped};
use super::{MAN, king_value};
use crate::board::bitboard::free_ray;
use crate::board::{Bitboard, Color, Dir, Position, squares};
use crate::score::Score;
use crate::variant::Variant;

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

struct Side {
    men: Bitboard,
    kings: Bitboard,
}

/// The hand-written score of a quiet position, White's point of view,
/// before the draw-rule scaling.
pub fn white_score<V: Variant>(pos: &Position) -> Score {
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

    score
}

/// `Σ 2^k · |men ∩ planes[k]|`.
#[inline(always)]
fn weighted(men: Bitboard, planes: &[Bitboard; 4]) -> i32 {
    ((men & planes[0]).count_ones()
        + 2 * (men & planes[1]).count_ones()
        + 4 * (men & planes[2]).count_ones()
        + 8 * (men & planes[3]).count_ones()) as i32
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

#[cfg(test)]
mod tests {
    use super::super::Evaluator;
    use crate::board::fen::parse_fen;
    use crate::game::DrawState;
    use crate::score::Score;
    use crate::variant::{Frisian, International, Variant};

    fn eval_fen<V: Variant>(fen: &str) -> Score {
        let pos = parse_fen(fen).unwrap();
        Evaluator::Classic.evaluate::<V>(&pos, &DrawState::new::<V>(&pos))
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
    fn a_king_is_worth_more_than_a_man() {
        assert!(eval_fen::<International>("W:WK28:B1") > 0);
        // Black to move, a king and a man against three men: Black is worse.
        assert!(eval_fen::<Frisian>("B:WK28,31:B1,2,3") < 0);
    }
}
