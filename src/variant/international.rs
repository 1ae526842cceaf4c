//! International draughts (FMJD 10x10): diagonal captures, flying kings,
//! majority rule (docs/rules.md §5.6), and the draw rules of §8.1.

use super::{DrawRule, Variant, VariantKind, a_side_has_one_piece, counts};
use crate::board::{Color, Position};

/// International draughts.
#[derive(Clone, Copy, Default, Debug)]
pub struct International;

impl Variant for International {
    const KIND: VariantKind = VariantKind::International;
    const ORTHOGONAL_CAPTURES: bool = false;
    const ORTHOGONAL_KING_MOVES: bool = false;
    const KING_RESTRICTION: bool = false;

    /// Majority rule: the number of pieces captured, kings counting as men.
    #[inline(always)]
    fn capture_score(men: u32, kings: u32, _by_king: bool) -> u32 {
        men + kings
    }

    /// §8.1.2: +1 after a quiet king move, 0 after a man move or a capture.
    #[inline]
    fn quiet_counter(before: u16, capture: bool, king_moved: bool, _after: &Position) -> u16 {
        if capture || !king_moved {
            0
        } else {
            before.saturating_add(1)
        }
    }
    const QUIET_LIMIT: (u16, DrawRule) = (50, DrawRule::TwentyFiveMove);

    /// §8.1.3 and §8.1.4: one side a lone king, the other three pieces with a
    /// king (16 moves each = 32 plies) or at most two with a king (10 plies).
    #[inline]
    fn material_rule(pos: &Position) -> Option<(DrawRule, u16)> {
        if !a_side_has_one_piece(pos) {
            return None;
        }
        let w = counts(pos.pieces(Color::White), pos.kings());
        let b = counts(pos.pieces(Color::Black), pos.kings());
        for (lone, other) in [(w, b), (b, w)] {
            if lone == (0, 1) && other.1 >= 1 {
                match other.0 + other.1 {
                    3 => return Some((DrawRule::SixteenMove, 32)),
                    1 | 2 => return Some((DrawRule::FiveMove, 10)),
                    _ => {}
                }
            }
        }
        None
    }
}
