//! Move ordering: the transposition-table move first, then captures (the
//! bigger first), promotions, the two killer moves of the ply, and the
//! remaining quiet moves by their history score. Moves stay in generation
//! order in the list (the table stores that index); ordering works on a
//! parallel array of sort keys `score << 8 | index`.

use super::MAX_PLY;
use crate::board::{Move, MoveList, Position};

const TT_MOVE: i64 = 1 << 40;
const CAPTURE: i64 = 1 << 36;
const PROMOTION: i64 = 1 << 34;
const KILLER_1: i64 = 1 << 32;
const KILLER_2: i64 = 1 << 31;
/// History scores saturate here (well below the killer keys).
const HISTORY_MAX: i32 = 1 << 20;

/// Killer moves per ply and the history table of one search thread.
pub struct Ordering {
    killers: Vec<[Option<Move>; 2]>,
    /// `history[side][from][to]`, bit indices, kept in ±HISTORY_MAX.
    history: Vec<i32>,
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering::new()
    }
}

fn history_index(pos: &Position, mv: &Move) -> usize {
    (pos.side().index() * 64 + mv.from().bit() as usize) * 64 + mv.to().bit() as usize
}

impl Ordering {
    /// Empty tables.
    pub fn new() -> Ordering {
        Ordering {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 64 * 64],
        }
    }

    /// Fills `keys[i]` with the sort key of `list[i]`.
    pub fn score(
        &self,
        pos: &Position,
        list: &MoveList,
        tt_move: Option<usize>,
        ply: usize,
        keys: &mut [i64],
    ) {
        let killers = self.killers.get(ply).copied().unwrap_or([None; 2]);
        let promo_row = pos.side().promotion_row();
        for (i, mv) in list.iter().enumerate() {
            let s = if Some(i) == tt_move {
                TT_MOVE
            } else if mv.is_capture() {
                CAPTURE + mv.captured().count_ones() as i64
            } else if !pos.is_king_move(mv) && mv.to().mask() & promo_row != 0 {
                PROMOTION
            } else if killers[0] == Some(*mv) {
                KILLER_1
            } else if killers[1] == Some(*mv) {
                KILLER_2
            } else {
                self.history[history_index(pos, mv)] as i64
            };
            keys[i] = s << 8 | i as i64;
        }
    }

    /// The history score of a quiet move.
    #[inline]
    pub fn history_of(&self, pos: &Position, mv: &Move) -> i32 {
        self.history[history_index(pos, mv)]
    }

    /// True if `mv` is one of the killers of `ply`.
    pub fn is_killer(&self, mv: &Move, ply: usize) -> bool {
        self.killers
            .get(ply)
            .is_some_and(|k| k[0] == Some(*mv) || k[1] == Some(*mv))
    }

    /// Records a quiet move that caused a beta cut-off, and penalises the
    /// quiet moves tried before it (`tried`: their sort keys).
    pub fn cutoff(
        &mut self,
        pos: &Position,
        mv: &Move,
        ply: usize,
        depth: i32,
        list: &MoveList,
        tried: &[i64],
    ) {
        if mv.is_capture() {
            return;
        }
        if let Some(k) = self.killers.get_mut(ply)
            && k[0] != Some(*mv)
        {
            k[1] = k[0];
            k[0] = Some(*mv);
        }
        let bonus = (depth * depth).min(400);
        self.update(pos, mv, bonus);
        for &k in tried {
            let t = list.as_slice()[(k & 0xFF) as usize];
            if !t.is_capture() && t != *mv {
                self.update(pos, &t, -bonus);
            }
        }
    }

    /// History "gravity" update: bounded, recent results weigh more.
    fn update(&mut self, pos: &Position, mv: &Move, bonus: i32) {
        let h = &mut self.history[history_index(pos, mv)];
        *h += 32 * bonus - (*h as i64 * bonus.abs() as i64 / 512) as i32;
        *h = (*h).clamp(-HISTORY_MAX, HISTORY_MAX);
    }
}

/// Swaps the best remaining key into position `i` and returns the index of
/// its move in the list.
#[inline]
pub fn pick(keys: &mut [i64], i: usize) -> usize {
    let mut best = i;
    for j in i + 1..keys.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    keys.swap(i, best);
    (keys[i] & 0xFF) as usize
}
