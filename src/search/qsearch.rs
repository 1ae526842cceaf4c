//! The quiescence search: resolves captures (compulsory, so never a stand
//! pat while one exists), capture threats one ply deep, and the exchanges
//! the side to move can offer in a quiet position.

use super::node::{Node, win_in};
use super::tune::P;
use super::worker::Worker;
use super::{MATE, MAX_PLY, Score};
use crate::board::{exchange, movegen};
use crate::variant::{Variant, VariantKind};

/// Whether quiescence searches exchange offers, by variant (docs/search.md,
/// "Quiescence"): on in both, whose SPRTs passed. The seed's Frisian
/// differs only in king moves, and offers are searched only without kings.
const fn exchanges_on(kind: VariantKind) -> bool {
    match kind {
        VariantKind::International | VariantKind::Frisian | VariantKind::FrisianSeed => true,
    }
}

impl<V: Variant> Worker<'_, V> {
    /// Quiescence. All captures are searched (they are compulsory, so
    /// there is no standing pat). At the first quiescence ply (`qply` 0),
    /// when the opponent threatens a capture, all quiet moves are searched.
    /// Any other quiet position stands pat on its evaluation; below beta,
    /// with no king on the board and no threat, the side to move may also
    /// offer an exchange ([`exchange::exchange_offers`]) — at the first
    /// quiescence ply only, by default: searching offers at every ply
    /// tripled the nodes to a depth and gained nothing.
    pub fn qsearch(&mut self, node: &Node, mut alpha: Score, beta: Score, qply: u32) -> Score {
        let ply = node.ply;
        let pos = &node.pos;
        self.frames[ply].pv_len = 0;
        self.visit();
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.leaf_eval(node);
        }
        if self.drawn(node) {
            return 0;
        }
        let mut best = -MATE;
        if movegen::has_capture::<V>(pos) {
            movegen::generate::<V>(pos, &mut self.frames[ply].list);
        } else {
            if !movegen::has_move::<V>(pos) {
                return -win_in(ply);
            }
            // The threat test only matters where it changes what is
            // searched: at the first ply, or where offers are allowed.
            let offers = self.exchanges(qply) && pos.kings() == 0;
            let threat = (qply == 0 || offers) && movegen::opponent_has_capture::<V>(pos);
            if qply == 0 && threat {
                movegen::generate::<V>(pos, &mut self.frames[ply].list);
            } else {
                let stand = self.leaf_eval(node);
                if stand >= beta || threat || !offers {
                    return stand;
                }
                let list = &mut self.frames[ply].list;
                list.clear();
                exchange::exchange_offers::<V>(pos, list);
                best = stand;
                alpha = alpha.max(stand);
            }
        }
        let n = self.frames[ply].list.len();
        for i in 0..n {
            let mv = self.frames[ply].list.as_slice()[i];
            let child = self.child(node, &mv);
            let score = -self.qsearch(&child, -beta, -alpha, qply + 1);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.frames.split_at_mut(ply + 1);
                    head[ply].set_pv(mv, &tail[0]);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// True if quiescence searches exchange offers in this variant.
    #[inline(always)]
    fn exchanges(&self, qply: u32) -> bool {
        let on = match P.qs_exchanges {
            -1 => const { exchanges_on(V::KIND) },
            x => x != 0,
        };
        on && (qply as i32) < P.qs_exchange_plies
    }
}
