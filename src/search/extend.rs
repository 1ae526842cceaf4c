//! Extensions: where the search looks a ply deeper than its depth says.

use super::Score;
use super::node::{Node, WIN_BOUND};
use super::tt::{Bound, Hit};
use super::tune::P;
use super::worker::Worker;
use crate::variant::{Variant, VariantKind};

/// Shallowest PV node where the table move is tested for singularity.
const SINGULAR_DEPTH: i32 = 8;

/// Whether the singular extension is on, by variant. Each setting is an
/// SPRT result (docs/search.md, "Experiments"): International gained;
/// Frisian did not, so it stays off there.
const fn singular_on(kind: VariantKind) -> bool {
    matches!(kind, VariantKind::International)
}

/// How far below the table score the other moves must stay, at `depth`.
#[inline]
fn singular_margin(depth: i32) -> Score {
    P.singular_margin * depth
}

impl<V: Variant> Worker<'_, V> {
    /// Extra depth for a node at `ply` with `n` legal moves: a forced move
    /// costs nothing to look past (bounded so forced sequences cannot run
    /// away).
    #[inline]
    pub(super) fn extension(&self, ply: usize, n: usize) -> i32 {
        (n == 1 && (ply as i32) < 2 * self.root_depth + 8) as i32
    }

    /// Singular extension test of the table move (index `tt_move` in the
    /// node's list) in a PV node: when the entry is a lower bound searched
    /// nearly as deep and every other move, searched at half depth, stays
    /// below its score less a margin, the table move is the only one that
    /// holds the score, and it is searched a ply deeper.
    pub(super) fn singular(&mut self, node: &Node, hit: &Hit, tt_move: usize, depth: i32) -> bool {
        let on = match P.singular {
            -1 => const { singular_on(V::KIND) },
            s => s != 0,
        };
        if !on
            || depth < SINGULAR_DEPTH
            || hit.bound == Bound::Upper
            || hit.depth < depth - 3
            || hit.score.abs() >= WIN_BOUND
        {
            return false;
        }
        let ply = node.ply;
        let n = self.frames[ply].list.len();
        if n < 2 {
            return false;
        }
        let bar = hit.score - singular_margin(depth);
        for j in (0..n).filter(|&j| j != tt_move) {
            let mv = self.frames[ply].list.as_slice()[j];
            let child = self.child(node, &mv);
            let s = -self.search(&child, -bar, -bar + 1, depth / 2 - 1);
            self.keys.pop();
            if self.stopped || s >= bar {
                return false;
            }
        }
        true
    }
}
