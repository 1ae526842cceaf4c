//! Selective pruning before a non-PV node's move loop: the rules that cut
//! a node without searching its moves, each in one place with its margin.

use super::Score;
use super::node::{Node, WIN_BOUND};
use super::tune::P;
use super::worker::Worker;
use crate::board::movegen;
use crate::eval::MAX_EVAL;
use crate::variant::{Variant, VariantKind};

/// Shallowest node where ProbCut is tried.
const PROBCUT_DEPTH: i32 = 3;

/// ProbCut's margin per ply of depth in centi-men, by variant, or `None`
/// where it is off. Each setting is an SPRT result (docs/search.md,
/// "Experiments"): Frisian gained with 5; in International neither 5 nor 10
/// gained anything measurable, so it stays off there.
const fn probcut_per_ply(kind: VariantKind) -> Option<Score> {
    match kind {
        VariantKind::International => None,
        VariantKind::Frisian | VariantKind::FrisianSeed => Some(5),
    }
}

/// Reverse futility's margin per ply of depth in centi-men, by variant.
/// Both are SPRT results with the generation-6 weights (docs/search.md,
/// "Retuning to the trained evaluation"): International gained with 40
/// (from 60); Frisian showed no measurable change, so it keeps 60.
const fn rfp_per_ply(kind: VariantKind) -> Score {
    match kind {
        VariantKind::International => 40,
        VariantKind::Frisian | VariantKind::FrisianSeed => 60,
    }
}

/// Reverse futility margin at `depth` (plies ≤ `rfp_depth`).
#[inline]
fn rfp_margin<V: Variant>(depth: i32) -> Score {
    let per_ply = match P.rfp_margin {
        -1 => const { rfp_per_ply(V::KIND) },
        m => m,
    };
    per_ply * depth
}

impl<V: Variant> Worker<'_, V> {
    /// A score that cuts the non-PV `node` (window beta − 1, beta) at
    /// `depth` without a search, if a pruning rule applies.
    #[inline]
    pub(super) fn prune(&mut self, node: &Node, beta: Score, depth: i32) -> Option<Score> {
        self.reverse_futility(node, beta, depth)
            .or_else(|| self.probcut(node, beta, depth))
    }

    /// ProbCut: when a shallow null-window search (40% of the depth)
    /// already beats beta by a margin growing with the depth, the full
    /// search is assumed to beat beta too. The shallow search runs on the
    /// same node without nested ProbCut; its fail-soft score, less the
    /// margin, is returned (beta for a score beyond the evaluations).
    #[inline]
    fn probcut(&mut self, node: &Node, beta: Score, depth: i32) -> Option<Score> {
        let per_ply = match P.probcut {
            -1 => const { probcut_per_ply(V::KIND) },
            0 => None,
            m => Some(m),
        }?;
        let margin = per_ply * depth;
        let high = beta + margin;
        // Only between evaluations: table-band and forced scores are exact
        // enough not to be guessed from a shallow search.
        if !node.probcut || depth < PROBCUT_DEPTH || beta.abs() >= MAX_EVAL || high >= MAX_EVAL {
            return None;
        }
        let shallow = Node {
            probcut: false,
            ..*node
        };
        let s = self.search(&shallow, high - 1, high, depth * 2 / 5);
        if self.stopped || s < high {
            return None;
        }
        Some(if s >= MAX_EVAL { beta } else { s - margin })
    }

    /// Reverse futility: a quiet position (no capture for either side)
    /// whose static score is far above beta is cut at low depth.
    #[inline]
    fn reverse_futility(&mut self, node: &Node, beta: Score, depth: i32) -> Option<Score> {
        let pos = &node.pos;
        if depth > P.rfp_depth
            || beta.abs() >= WIN_BOUND
            || movegen::has_capture::<V>(pos)
            || movegen::opponent_has_capture::<V>(pos)
        {
            return None;
        }
        let eval = self.static_eval(node);
        (eval - rfp_margin::<V>(depth) >= beta && movegen::has_move::<V>(pos)).then_some(eval)
    }
}
