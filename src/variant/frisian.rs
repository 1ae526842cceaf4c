//! Frisian draughts: captures along diagonals, rows and columns (docs/rules.md
//! §1.2, §3, §4.3), the value rule (§5.6), the three-move king restriction
//! (§6) and the draw rules of §8.2. [`FrisianSeed`] is the seed's literal
//! reading (D1), where kings also make quiet moves along rows and columns.

use super::{DrawRule, Variant, VariantKind, a_side_has_one_piece, counts};
use crate::board::{Color, Position};

/// Frisian draughts, king quiet moves diagonal only (docs/rules.md D1).
#[derive(Clone, Copy, Default, Debug)]
pub struct Frisian;

/// Frisian draughts with the seed's king quiet moves along rows and columns.
#[derive(Clone, Copy, Default, Debug)]
pub struct FrisianSeed;

/// §5.6 as Scan scores it: `64*M + 126*K + W`, which orders sequences by
/// men + 2*kings, then fewer kings, then made by a king.
#[inline(always)]
fn value(men: u32, kings: u32, by_king: bool) -> u32 {
    64 * men + 126 * kings + by_king as u32
}

/// §8.2.2: counts plies without capture while no man is on the board.
#[inline]
fn kings_only_counter(before: u16, capture: bool, after: &Position) -> u16 {
    if capture || after.men() != 0 {
        0
    } else {
        before.saturating_add(1)
    }
}

/// §8.2.3: exactly two kings against exactly one king, 14 plies.
#[inline]
fn two_kings_vs_king(pos: &Position) -> Option<(DrawRule, u16)> {
    if !a_side_has_one_piece(pos) {
        return None;
    }
    let w = counts(pos.pieces(Color::White), pos.kings());
    let b = counts(pos.pieces(Color::Black), pos.kings());
    if (w == (0, 2) && b == (0, 1)) || (w == (0, 1) && b == (0, 2)) {
        Some((DrawRule::TwoKingsVsKing, 14))
    } else {
        None
    }
}

macro_rules! frisian_variant {
    ($ty:ty, $kind:expr, $ortho_moves:expr) => {
        impl Variant for $ty {
            const KIND: VariantKind = $kind;
            const ORTHOGONAL_CAPTURES: bool = true;
            const ORTHOGONAL_KING_MOVES: bool = $ortho_moves;
            const KING_RESTRICTION: bool = true;

            #[inline(always)]
            fn capture_score(men: u32, kings: u32, by_king: bool) -> u32 {
                value(men, kings, by_king)
            }

            #[inline]
            fn quiet_counter(
                before: u16,
                capture: bool,
                _king_moved: bool,
                after: &Position,
            ) -> u16 {
                kings_only_counter(before, capture, after)
            }
            const QUIET_LIMIT: (u16, DrawRule) = (100, DrawRule::KingsOnly50);

            fn material_rule(pos: &Position) -> Option<(DrawRule, u16)> {
                two_kings_vs_king(pos)
            }
        }
    };
}

frisian_variant!(Frisian, VariantKind::Frisian, false);
frisian_variant!(FrisianSeed, VariantKind::FrisianSeed, true);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_rule_orders_like_rules_table() {
        // docs/rules.md §5.6 table: (men, kings) pairs, winner first.
        let v = |m, k| value(m, k, false);
        assert!(v(0, 1) > v(1, 0));
        assert!(v(2, 0) > v(0, 1));
        assert!(v(1, 1) > v(2, 0));
        assert!(v(3, 0) > v(1, 1));
        assert!(v(0, 2) > v(3, 0));
        assert!(v(2, 1) > v(0, 2));
        assert!(v(0, 3) > v(5, 0));
        assert!(value(1, 0, true) > value(1, 0, false));
        assert!(value(2, 0, false) > value(0, 1, true));
    }
}
