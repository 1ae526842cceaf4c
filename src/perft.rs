//! Perft: counts the leaves of the legal move tree, to prove the move
//! generator against the tables of docs/perft.md and to time it.

use crate::board::{Move, MoveList, Position, movegen};
use crate::variant::Variant;

/// Leaves at `depth` plies. `bulk` counts the moves of the last ply without
/// playing them; otherwise every leaf move is played (copy-make).
pub fn perft<V: Variant>(pos: &Position, depth: u32, bulk: bool) -> u64 {
    // One move list per ply, made once: a fresh list per node would cost
    // more than generating its moves.
    let mut lists = vec![MoveList::new(); depth as usize + 1];
    perft_with::<V>(pos, depth, bulk, &mut lists)
}

fn perft_with<V: Variant>(pos: &Position, depth: u32, bulk: bool, lists: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((list, rest)) = lists.split_first_mut() else {
        return 0;
    };
    if bulk && depth == 1 {
        return movegen::count_with::<V>(pos, list) as u64;
    }
    movegen::generate::<V>(pos, list);
    if depth == 1 {
        for mv in list.iter() {
            std::hint::black_box(pos.play::<V>(mv));
        }
        return list.len() as u64;
    }
    let mut n = 0;
    for mv in list.iter() {
        n += perft_with::<V>(&pos.play::<V>(mv), depth - 1, bulk, rest);
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
