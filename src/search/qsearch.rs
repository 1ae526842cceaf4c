//! The quiescence search: resolves captures (compulsory, so never a stand
//! pat while one exists) and, one ply deep, capture threats.

use super::node::{Node, win_in};
use super::worker::Worker;
use super::{MATE, MAX_PLY, Score};
use crate::board::movegen;
use crate::variant::Variant;

impl<V: Variant> Worker<'_, V> {
    /// Quiescence: all captures are searched (they are compulsory, so there
    /// is no standing pat); a quiet position is evaluated, except at the
    /// first quiescence ply (`qply` 0) where the opponent threatens a
    /// capture: then all quiet moves are searched one ply deeper.
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
        let capture = movegen::has_capture::<V>(pos);
        if !capture {
            if !movegen::has_move::<V>(pos) {
                return -win_in(ply);
            }
            if qply > 0 || !movegen::opponent_has_capture::<V>(pos) {
                return self.leaf_eval(node);
            }
        }
        movegen::generate::<V>(pos, &mut self.frames[ply].list);
        let n = self.frames[ply].list.len();
        if n == 0 {
            return -win_in(ply);
        }
        let mut best = -MATE;
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
}
