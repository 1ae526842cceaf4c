//! Perft: counts the leaves of the legal move tree, to prove the move
//! generator against the tables of rules/perft.md and to time it.

use crate::board::{Move, MoveList, Position, movegen};
use crate::variant::Variant;

/// Leaves at `depth` plies. `bulk` counts the moves of the last ply without
/// playing them; otherwise every leaf move is played (copy-make).
pub fn perft<V: Variant>(pos: &Position, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if bulk && depth == 1 {
        return movegen::count::<V>(pos) as u64;
    }
    let mut list = MoveList::new();
    movegen::generate::<V>(pos, &mut list);
    let mut n = 0;
    for mv in &list {
        let child = pos.play::<V>(mv);
        n += if depth == 1 {
            1
        } else {
            perft::<V>(&child, depth - 1, bulk)
        };
    }
    n
}

/// Leaves at `depth` below each legal move (`depth` ≥ 1).
pub fn divide<V: Variant>(pos: &Position, depth: u32, bulk: bool) -> Vec<(Move, u64)> {
    movegen::legal_moves::<V>(pos)
        .iter()
        .map(|mv| {
            (
                *mv,
                perft::<V>(&pos.play::<V>(mv), depth.saturating_sub(1), bulk),
            )
        })
        .collect()
}
