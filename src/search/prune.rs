//! Selective pruning before a non-PV node's move loop: the rules that cut
//! a node without searching its moves, each in one place with its margin.

use super::Score;
use super::node::{Node, WIN_BOUND};
use super::worker::Worker;
use crate::board::movegen;
use crate::variant::Variant;

/// Deepest node where a static evaluation far above beta cuts.
const RFP_DEPTH: i32 = 3;

/// Reverse futility margin at `depth` (plies ≤ [`RFP_DEPTH`]).
#[inline]
fn rfp_margin(depth: i32) -> Score {
    60 * depth
}

impl<V: Variant> Worker<'_, V> {
    /// A score that cuts the non-PV `node` (window beta − 1, beta) at
    /// `depth` without a search, if a pruning rule applies.
    #[inline]
    pub(super) fn prune(&mut self, node: &Node, beta: Score, depth: i32) -> Option<Score> {
        self.reverse_futility(node, beta, depth)
    }

    /// Reverse futility: a quiet position (no capture for either side)
    /// whose static score is far above beta is cut at low depth.
    #[inline]
    fn reverse_futility(&mut self, node: &Node, beta: Score, depth: i32) -> Option<Score> {
        let pos = &node.pos;
        if depth > RFP_DEPTH
            || beta.abs() >= WIN_BOUND
            || movegen::has_capture::<V>(pos)
            || movegen::opponent_has_capture::<V>(pos)
        {
            return None;
        }
        let eval = self.eval.evaluate::<V>(pos, &node.draw);
        (eval - rfp_margin(depth) >= beta && movegen::has_move::<V>(pos)).then_some(eval)
    }
}
