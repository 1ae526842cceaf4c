//! The draw counters of rules.md §8 as the search needs them, with the
//! same results as [`DrawState::after`], [`DrawState::verdict`] and
//! [`DrawState::plies_to_draw`] but cheaper: every material rule needs one
//! side reduced to a single piece, so the piece counts are only looked at
//! when a side has exactly one piece left.

use crate::board::{Color, Move, Position};
use crate::game::DrawState;
use crate::variant::{DrawRule, Variant};

/// `V::material_rule(pos)`, skipped when no side has a single piece.
#[inline(always)]
pub fn material_rule<V: Variant>(pos: &Position) -> Option<(DrawRule, u16)> {
    let w = pos.pieces(Color::White);
    let b = pos.pieces(Color::Black);
    if w.is_power_of_two() || b.is_power_of_two() {
        V::material_rule(pos)
    } else {
        None
    }
}

/// [`DrawState::after`].
#[inline(always)]
pub fn after<V: Variant>(
    draw: &DrawState,
    before: &Position,
    mv: &Move,
    after: &Position,
) -> DrawState {
    let quiet_plies = V::quiet_counter(
        draw.quiet_plies,
        mv.is_capture(),
        before.is_king_move(mv),
        after,
    );
    let material = material_rule::<V>(after).map(|(r, _)| r);
    let material_plies = match material {
        Some(_) if material == draw.material => draw.material_plies.saturating_add(1),
        _ => 0,
    };
    DrawState {
        quiet_plies,
        material,
        material_plies,
    }
}

/// True if a counter rule has fired ([`DrawState::verdict`] is `Some`).
#[inline(always)]
pub fn fired<V: Variant>(draw: &DrawState, pos: &Position) -> bool {
    let (limit, _) = V::QUIET_LIMIT;
    if draw.quiet_plies >= limit {
        return true;
    }
    matches!(material_rule::<V>(pos),
        Some((rule, limit)) if draw.material == Some(rule) && draw.material_plies >= limit)
}

/// [`DrawState::plies_to_draw`].
#[inline(always)]
pub fn plies_to_draw<V: Variant>(draw: &DrawState, pos: &Position) -> u16 {
    let (limit, _) = V::QUIET_LIMIT;
    let mut left = limit.saturating_sub(draw.quiet_plies);
    if let Some((_, l)) = material_rule::<V>(pos) {
        left = left.min(l.saturating_sub(draw.material_plies));
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{fen, movegen};
    use crate::variant::{Frisian, International};

    fn walk<V: Variant>(f: &str, plies: usize, seed: u64) {
        let mut pos = fen::parse_fen(f).unwrap();
        let mut draw = DrawState::new::<V>(&pos);
        let mut r = seed;
        for _ in 0..plies {
            let legal = movegen::legal_moves::<V>(&pos);
            if legal.is_empty() {
                return;
            }
            r = r
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = legal.as_slice()[(r >> 33) as usize % legal.len()];
            let child = pos.play::<V>(&mv);
            let a = draw.after::<V>(&pos, &mv, &child);
            assert_eq!(a, after::<V>(&draw, &pos, &mv, &child), "{f}");
            assert_eq!(a.verdict::<V>(&child).is_some(), fired::<V>(&a, &child));
            assert_eq!(a.plies_to_draw::<V>(&child), plies_to_draw::<V>(&a, &child));
            pos = child;
            draw = a;
        }
    }

    #[test]
    fn agrees_with_the_game_counters() {
        for seed in 0..40 {
            walk::<International>("W:W31-50:B1-20", 300, seed);
            walk::<International>("W:WK28,33,38:BK3", 120, seed);
            walk::<International>("W:WK28,33:BK3", 60, seed);
            walk::<Frisian>("W:W31-50:B1-20", 300, seed);
            walk::<Frisian>("W:WK28,K33:BK3", 60, seed);
        }
    }
}
