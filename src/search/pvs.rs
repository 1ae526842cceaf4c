//! The tree search of one thread: principal variation search of a node, in
//! named steps — rule draws and mate distance, the table probe, internal
//! iterative reduction, pruning (`prune.rs`), move generation and
//! extensions (`extend.rs`), the move loop with late move reductions, the
//! table store. The quiescence search is in `qsearch.rs`.

use super::node::{Node, from_tt, to_tt, win_in};
use super::ordering::pick;
use super::tt::{Bound, Hit};
use super::tune::P;
use super::worker::Worker;
use super::{MATE, MAX_PLY, Score};
use crate::board::{Move, movegen};
use crate::variant::Variant;

/// What the table says about a node before its search.
enum Probe {
    /// The stored bound settles the node.
    Cut(Score),
    /// Search on; the entry, if any (its score seen from the root), names
    /// the move to try first.
    Go(Option<Hit>),
}

/// The outcome of a node's move loop.
struct Searched {
    best: Score,
    /// The move that raised alpha last, if any did.
    best_index: Option<usize>,
}

impl<V: Variant> Worker<'_, V> {
    /// Principal variation search of `node` (ply ≥ 1) in the window
    /// (alpha, beta), `depth` plies deep before quiescence.
    pub fn search(&mut self, node: &Node, mut alpha: Score, mut beta: Score, depth: i32) -> Score {
        let ply = node.ply;
        let pv_node = beta - alpha > 1;
        self.frames[ply].pv_len = 0;
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.qsearch(node, alpha, beta, 0);
        }
        self.visit();
        if self.stopped || self.drawn(node) {
            return 0;
        }
        // Mate-distance pruning: nothing here beats a quicker win.
        alpha = alpha.max(-win_in(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let key = node.key::<V>();
        let hit = match self.probe(key, ply, alpha, beta, depth, pv_node) {
            Probe::Cut(s) => return s,
            Probe::Go(h) => h,
        };
        let tt_move = hit.and_then(|h| h.move_index);
        // Internal iterative reduction: without a table move the ordering
        // is a guess, so the node costs less and the next visit has one.
        let depth = if P.iir_depth >= 2 && tt_move.is_none() && depth >= P.iir_depth {
            depth - 1
        } else {
            depth
        };
        // Endgame tables, at nodes with few pieces (docs/egdb.md, "Probing").
        if let Some(s) = self.egdb_score(node) {
            return s;
        }
        if !pv_node && let Some(s) = self.prune(node, beta, depth) {
            return s;
        }

        movegen::generate::<V>(&node.pos, &mut self.frames[ply].list);
        let n = self.frames[ply].list.len();
        if n == 0 {
            return -win_in(ply);
        }
        let depth = depth + self.extension(ply, n);
        let tt_move = tt_move.filter(|&i| i < n);
        {
            let f = &mut self.frames[ply];
            self.ordering
                .score(&node.pos, &f.list, tt_move, ply, &mut f.keys[..n]);
        }

        let singular = match (hit, tt_move) {
            (Some(h), Some(i)) if pv_node && self.singular(node, &h, i, depth) => Some(i),
            _ => None,
        };
        let Some(s) = self.move_loop(node, alpha, beta, depth, tt_move, singular) else {
            return 0;
        };
        let bound = if s.best >= beta {
            Bound::Lower
        } else if s.best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            to_tt(s.best, ply),
            depth,
            bound,
            s.best_index.or(tt_move),
        );
        s.best
    }

    /// The table probe: a deep enough bound that settles the window cuts
    /// (never in PV nodes, whose line must be searched); otherwise the
    /// stored move is tried first.
    #[inline]
    fn probe(
        &self,
        key: u64,
        ply: usize,
        alpha: Score,
        beta: Score,
        depth: i32,
        pv_node: bool,
    ) -> Probe {
        let Some(h) = self.tt.probe(key) else {
            return Probe::Go(None);
        };
        let s = from_tt(h.score, ply);
        let h = Hit { score: s, ..h };
        if !pv_node && h.depth >= depth {
            let cut = match h.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return Probe::Cut(s);
            }
        }
        Probe::Go(Some(h))
    }

    /// Searches the ordered moves of `node` until one fails high, the
    /// `extended` one a ply deeper; `None` if the search was stopped
    /// meanwhile.
    fn move_loop(
        &mut self,
        node: &Node,
        mut alpha: Score,
        beta: Score,
        depth: i32,
        tt_move: Option<usize>,
        extended: Option<usize>,
    ) -> Option<Searched> {
        let ply = node.ply;
        let pv_node = beta - alpha > 1;
        let n = self.frames[ply].list.len();
        let capture_node = self.frames[ply].list.as_slice()[0].is_capture();
        let mut out = Searched {
            best: -MATE,
            best_index: None,
        };
        for i in 0..n {
            let idx = pick(&mut self.frames[ply].keys[..n], i);
            let mv = self.frames[ply].list.as_slice()[idx];
            let killer_kept = (pv_node || P.lmr_killers == 0) && self.ordering.is_killer(&mv, ply);
            let quiet = !capture_node && !killer_kept && Some(idx) != tt_move;
            // Killers are never late, even where LMR may reduce them.
            let late = quiet
                && !pv_node
                && depth <= P.lmp_depth
                && i as i32 >= P.lmp_base + depth * depth
                && !self.ordering.is_killer(&mv, ply);
            if late && (P.lmp_keep_offers == 0 || !self.offers_capture(node, &mv)) {
                continue;
            }
            let r = if i > 0 && quiet {
                self.reduction(node, &mv, i, depth, pv_node)
            } else {
                0
            };
            let child = self.child(node, &mv);
            let d = depth + (Some(idx) == extended) as i32;
            let score = self.search_move(&child, i, alpha, beta, d, r);
            self.keys.pop();
            if self.stopped {
                return None;
            }
            if score > out.best {
                out.best = score;
                if score > alpha {
                    out.best_index = Some(idx);
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.frames.split_at_mut(ply + 1);
                        head[ply].set_pv(mv, &tail[0]);
                    }
                    if score >= beta {
                        let f = &self.frames[ply];
                        self.ordering
                            .cutoff(&node.pos, &mv, ply, depth, &f.list, &f.keys[..i]);
                        break;
                    }
                }
            }
        }
        Some(out)
    }

    /// True if the quiet move `mv` leaves the opponent a capture: a
    /// sacrifice or an exchange offer, which late move pruning keeps (and
    /// `lmr_offers` reduces less).
    #[inline]
    fn offers_capture(&self, node: &Node, mv: &Move) -> bool {
        movegen::has_capture::<V>(&node.pos.play::<V>(mv))
    }

    /// Late move reduction of the quiet move `mv`, tried at index `i` (0 is
    /// the first): from index 2 (3 in PV nodes) at depth ≥ 3 (the `lmr_*`
    /// tune parameters), by the table, one ply less in PV nodes, one more
    /// for a move with a bad history; `lmr_offers` plies less (off by
    /// default) for a move that offers a capture.
    #[inline]
    fn reduction(&self, node: &Node, mv: &Move, i: usize, depth: i32, pv_node: bool) -> i32 {
        let first = if pv_node { P.lmr_first_pv } else { P.lmr_first };
        // Depth 2 at the least: the reduction leaves at least one ply.
        if depth < P.lmr_depth.max(2) || (i as i32) < first {
            return 0;
        }
        let mut r = self.lmr[(depth as usize).min(63)][i.min(63)] as i32;
        if pv_node {
            r -= 1;
        } else if self.ordering.history_of(&node.pos, mv) < 0 {
            r += 1;
        }
        let r = r.clamp(1, depth - 1);
        if P.lmr_offers > 0 && self.offers_capture(node, mv) {
            (r - P.lmr_offers).max(0)
        } else {
            r
        }
    }

    /// The search of the `i`-th move's `child`: the first in the full
    /// window; a later one with a null window at the reduced depth, again
    /// at full depth if it beats alpha, and in the full window if it lands
    /// inside it.
    #[inline]
    fn search_move(
        &mut self,
        child: &Node,
        i: usize,
        alpha: Score,
        beta: Score,
        depth: i32,
        r: i32,
    ) -> Score {
        if i == 0 {
            return -self.search(child, -beta, -alpha, depth - 1);
        }
        let mut score = -self.search(child, -alpha - 1, -alpha, depth - 1 - r);
        if score > alpha && r > 0 {
            score = -self.search(child, -alpha - 1, -alpha, depth - 1);
        }
        if score > alpha && score < beta {
            score = -self.search(child, -beta, -alpha, depth - 1);
        }
        score
    }
}
