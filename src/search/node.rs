//! A node of the tree as the search passes it down: the position, its
//! draw counters, its distance from the root and where its repetition
//! window starts; with the score conventions that depend on that distance.

use super::{MATE, MAX_PLY, Score};
use crate::board::Position;
use crate::game::DrawState;
use crate::variant::Variant;

/// Scores at least this big are wins (or losses) with a distance.
pub const WIN_BOUND: Score = MATE - MAX_PLY as Score - 1;

/// One node: copy-made from its parent by `Worker::child`.
#[derive(Clone, Copy)]
pub struct Node {
    pub pos: Position,
    pub draw: DrawState,
    /// Distance from the root (the root's children are at ply 1); also the
    /// index of the node's frame.
    pub ply: usize,
    /// Index in `Worker::keys` of the first position a repetition may
    /// reach (the last irreversible move resets it).
    pub rep_start: usize,
    /// False inside a ProbCut verification search (and its subtree): no
    /// nested ProbCut there.
    pub probcut: bool,
}

impl Node {
    /// The table key of this node (see [`tt_key`]).
    #[inline]
    pub fn key<V: Variant>(&self) -> u64 {
        tt_key::<V>(&self.pos, &self.draw)
    }
}

/// A win in `ply` plies for the side to move at the root of the tree.
#[inline]
pub fn win_in(ply: usize) -> Score {
    MATE - ply as Score
}

/// Mixes the draw counters into the table key once a counter rule is near
/// enough to matter, so positions whose value depends on them do not share
/// an entry.
#[inline]
pub fn tt_key<V: Variant>(pos: &Position, draw: &DrawState) -> u64 {
    let left = draw.plies_to_draw::<V>(pos) as u64;
    if left <= 40 {
        pos.key() ^ (left + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    } else {
        pos.key()
    }
}

/// A score to the table: wins count from this node, not from the root.
#[inline]
pub fn to_tt(s: Score, ply: usize) -> Score {
    if s >= WIN_BOUND {
        s + ply as Score
    } else if s <= -WIN_BOUND {
        s - ply as Score
    } else {
        s
    }
}

/// A table score back to the root's point of view.
#[inline]
pub fn from_tt(s: Score, ply: usize) -> Score {
    if s >= WIN_BOUND {
        s - ply as Score
    } else if s <= -WIN_BOUND {
        s + ply as Score
    } else {
        s
    }
}
