//! The quiescence search: resolves captures (compulsory, so never a stand
//! pat while one exists) and, one ply deep, capture threats.

use super::pvs::{Worker, win_in};
use super::{MATE, MAX_PLY, Score};
use crate::board::{Position, movegen};
use crate::game::DrawState;
use crate::variant::Variant;

impl<V: Variant> Worker<'_, V> {
    /// Quiescence: all captures are searched (they are compulsory, so there
    /// is no standing pat); a quiet position is evaluated, except at the
    /// first quiescence ply where the opponent threatens a capture: then all
    /// quiet moves are searched one ply deeper.
    #[allow(clippy::too_many_arguments)]
    pub fn qsearch(
        &mut self,
        fi: usize,
        pos: &Position,
        draw: &DrawState,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        qply: u32,
        rep_start: usize,
    ) -> Score {
        self.frames[fi].pv_len = 0;
        self.visit();
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 1 || fi + 1 >= self.frames.len() {
            return self.leaf_eval(pos, draw, ply);
        }
        if self.drawn(pos, draw, rep_start) {
            return 0;
        }
        let capture = movegen::has_capture::<V>(pos);
        if !capture {
            if !movegen::has_move::<V>(pos) {
                return -win_in(ply);
            }
            if qply > 0 || !movegen::opponent_has_capture::<V>(pos) {
                return self.leaf_eval(pos, draw, ply);
            }
        }
        movegen::generate::<V>(pos, &mut self.frames[fi].list);
        let n = self.frames[fi].list.len();
        if n == 0 {
            return -win_in(ply);
        }
        let mut best = -MATE;
        for i in 0..n {
            let mv = self.frames[fi].list.as_slice()[i];
            let (child, cdraw, crep) = self.make(pos, draw, &mv, rep_start);
            let score = -self.qsearch(
                fi + 1,
                &child,
                &cdraw,
                -beta,
                -alpha,
                ply + 1,
                qply + 1,
                crep,
            );
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.frames.split_at_mut(fi + 1);
                    head[fi].set_pv(mv, &tail[0]);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
