//! The tree search of one thread: principal variation search with the
//! transposition table, late move reductions and single-reply extensions,
//! and the draw rules applied in every node. The quiescence search is in
//! `qsearch.rs`.

use super::ordering::{Ordering, pick};
use super::threads::Shared;
use super::time::Clock;
use super::tt::{Bound, Tt};
use super::{MATE, MAX_PLY, Score};
use crate::board::{Move, MoveList, Position, Square, movegen};
use crate::egdb::Tables;
use crate::eval::Evaluator;
use crate::game::DrawState;
use crate::variant::Variant;
use std::marker::PhantomData;
use std::sync::atomic::Ordering as AtomicOrdering;

/// Scores at least this big are wins (or losses) with a distance.
pub const WIN_BOUND: Score = MATE - MAX_PLY as Score - 1;
/// Nodes between two looks at the stop flag and the clock.
const CHECK_INTERVAL: u64 = 1024;

/// Per-ply scratch space: the move list, its sort keys and the PV from here.
pub struct Frame {
    pub list: MoveList,
    keys: [i64; crate::board::moves::CAPACITY],
    pub pv: [Move; MAX_PLY],
    pub pv_len: usize,
}

const NULL_MOVE: Move = {
    let s = match Square::from_number(1) {
        Some(s) => s,
        None => unreachable!(),
    };
    Move::quiet(s, s)
};

impl Frame {
    fn boxed_stack() -> Vec<Frame> {
        (0..MAX_PLY + 2)
            .map(|_| Frame {
                list: MoveList::new(),
                keys: [0; crate::board::moves::CAPACITY],
                pv: [NULL_MOVE; MAX_PLY],
                pv_len: 0,
            })
            .collect()
    }

    /// Sets this frame's PV to `mv` followed by the child's PV.
    pub(super) fn set_pv(&mut self, mv: Move, child: &Frame) {
        self.pv[0] = mv;
        let n = child.pv_len.min(MAX_PLY - 1);
        self.pv[1..=n].copy_from_slice(&child.pv[..n]);
        self.pv_len = n + 1;
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

/// Score to the table (distance from this node) and back (from the root).
fn to_tt(s: Score, ply: usize) -> Score {
    if s >= WIN_BOUND {
        s + ply as Score
    } else if s <= -WIN_BOUND {
        s - ply as Score
    } else {
        s
    }
}

fn from_tt(s: Score, ply: usize) -> Score {
    if s >= WIN_BOUND {
        s - ply as Score
    } else if s <= -WIN_BOUND {
        s + ply as Score
    } else {
        s
    }
}

/// One search thread.
pub struct Worker<'a, V: Variant> {
    pub id: usize,
    pub shared: &'a Shared,
    pub tt: &'a Tt,
    /// The static evaluation.
    pub eval: &'a Evaluator,
    pub nodes: u64,
    /// Node limit for this thread (one thread: the exact limit).
    pub node_limit: Option<u64>,
    /// The clock; only the main thread (id 0) has one.
    pub clock: Option<Clock>,
    pub stopped: bool,
    /// Keys of the game history (since the last irreversible move) followed
    /// by the keys of the current path.
    pub keys: Vec<u64>,
    pub ordering: Ordering,
    pub frames: Vec<Frame>,
    /// Sum and count of leaf plies in the current iteration (mean depth).
    pub leaf_plies: u64,
    pub leaves: u64,
    pub root_depth: i32,
    /// Late move reductions by depth and move number (non-PV nodes).
    lmr: [[u8; 64]; 64],
    /// Endgame tables and the most pieces probed (docs/egdb.md).
    pub egdb: Option<(&'a Tables, u32)>,
    _variant: PhantomData<V>,
}

/// The reduction table: `1 + ln(depth)·ln(move number) / 2.25` plies.
fn lmr_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            let x = 1.0 + (d as f64).ln() * (i as f64).ln() / 2.25;
            *r = x.floor().clamp(0.0, 15.0) as u8;
        }
    }
    t
}

/// Reverse futility margin at `depth` (plies ≤ [`RFP_DEPTH`]).
#[inline]
fn rfp_margin(depth: i32) -> Score {
    60 * depth
}
/// Deepest node where a static evaluation far above beta cuts.
const RFP_DEPTH: i32 = 3;

impl<'a, V: Variant> Worker<'a, V> {
    /// A worker for thread `id` over the game history `keys`.
    pub fn new(
        id: usize,
        shared: &'a Shared,
        tt: &'a Tt,
        eval: &'a Evaluator,
        keys: &[u64],
    ) -> Self {
        let mut k = Vec::with_capacity(keys.len() + MAX_PLY + 2);
        k.extend_from_slice(keys);
        Worker {
            id,
            shared,
            tt,
            eval,
            nodes: 0,
            node_limit: None,
            clock: None,
            stopped: false,
            keys: k,
            ordering: Ordering::new(),
            frames: Frame::boxed_stack(),
            leaf_plies: 0,
            leaves: 0,
            root_depth: 1,
            lmr: lmr_table(),
            egdb: None,
            _variant: PhantomData,
        }
    }

    /// Counts a node and looks at the stop conditions now and then.
    #[inline]
    pub(super) fn visit(&mut self) {
        self.nodes += 1;
        if let Some(limit) = self.node_limit
            && self.nodes >= limit
        {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            self.poll();
        }
    }

    /// Publishes the node count and checks the stop flag, ponder-hit and
    /// the hard deadline.
    pub fn poll(&mut self) {
        self.shared.publish_nodes(self.id, self.nodes);
        if self.shared.stop.load(AtomicOrdering::Relaxed) {
            self.stopped = true;
        }
        if let Some(clock) = &mut self.clock {
            if self.shared.ponder_hit.load(AtomicOrdering::Relaxed) {
                clock.start();
            }
            if clock.hard_expired() {
                self.stopped = true;
            }
            if let Some(limit) = self.shared.node_limit
                && self.shared.total_nodes() >= limit
            {
                self.stopped = true;
            }
            if self.stopped {
                self.shared.stop.store(true, AtomicOrdering::Relaxed);
            }
        }
    }

    /// True if the current node (key on top of `keys`) repeats a position
    /// since `rep_start`; only every other ply can hold the same side to
    /// move, and a repetition needs at least four plies.
    #[inline]
    fn repeated(&self, rep_start: usize) -> bool {
        let n = self.keys.len() - 1;
        if n < rep_start + 4 {
            return false;
        }
        let key = self.keys[n];
        let mut j = n - 4;
        loop {
            if self.keys[j] == key {
                return true;
            }
            if j < rep_start + 2 {
                return false;
            }
            j -= 2;
        }
    }

    /// Draw by a rule of §8 in a node that is not the root: repetition or a
    /// counter. The loss check (no legal move) comes first (§7).
    #[inline]
    pub(super) fn drawn(&self, pos: &Position, draw: &DrawState, rep_start: usize) -> bool {
        (self.repeated(rep_start) || draw.verdict::<V>(pos).is_some())
            && movegen::has_move::<V>(pos)
    }

    #[inline]
    pub(super) fn leaf_eval(&mut self, pos: &Position, draw: &DrawState, ply: usize) -> Score {
        self.leaf_plies += ply as u64;
        self.leaves += 1;
        self.eval.evaluate::<V>(pos, draw)
    }

    /// The table score of `pos`, if its table is loaded and the draw rules
    /// let the search trust it.
    #[inline(never)]
    fn egdb_score(
        &mut self,
        db: &Tables,
        pos: &Position,
        draw: &DrawState,
        ply: usize,
    ) -> Option<Score> {
        let v = db.probe::<V>(pos)?;
        let eval = self.eval;
        crate::egdb::probe::search_score::<V>(v, pos, draw, ply, || eval.evaluate::<V>(pos, draw))
    }

    /// Plays `mv` from `pos`: the child, its counters and the start of its
    /// repetition window; the child's key is pushed on `keys`.
    #[inline]
    pub fn make(
        &mut self,
        pos: &Position,
        draw: &DrawState,
        mv: &Move,
        rep_start: usize,
    ) -> (Position, DrawState, usize) {
        let child = pos.play::<V>(mv);
        let cdraw = draw.after::<V>(pos, mv, &child);
        let irreversible = mv.is_capture() || !pos.is_king_move(mv);
        self.keys.push(child.key());
        let crep = if irreversible {
            self.keys.len() - 1
        } else {
            rep_start
        };
        (child, cdraw, crep)
    }

    /// Principal variation search of a node at `ply` ≥ 1.
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        &mut self,
        fi: usize,
        pos: &Position,
        draw: &DrawState,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
        rep_start: usize,
    ) -> Score {
        let pv_node = beta - alpha > 1;
        self.frames[fi].pv_len = 0;
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.qsearch(fi, pos, draw, alpha, beta, ply, 0, rep_start);
        }
        self.visit();
        if self.stopped {
            return 0;
        }
        if self.drawn(pos, draw, rep_start) {
            return 0;
        }
        // Mate-distance pruning: nothing here beats a quicker win.
        alpha = alpha.max(-win_in(ply));
        beta = beta.min(win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        let key = tt_key::<V>(pos, draw);
        let hit = self.tt.probe(key);
        let mut tt_move = None;
        if let Some(h) = hit {
            tt_move = h.move_index;
            let s = from_tt(h.score, ply);
            if !pv_node && h.depth >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        // Endgame tables, at nodes with few pieces (docs/egdb.md, "Probing").
        if let Some((db, n)) = self.egdb
            && pos.occupied().count_ones() <= n
            && let Some(s) = self.egdb_score(db, pos, draw, ply)
        {
            return s;
        }

        // Reverse futility: a quiet position (no capture for either side)
        // whose static score is far above beta is cut at low depth.
        if !pv_node
            && depth <= RFP_DEPTH
            && beta.abs() < WIN_BOUND
            && !movegen::has_capture::<V>(pos)
            && !movegen::opponent_has_capture::<V>(pos)
        {
            let eval = self.eval.evaluate::<V>(pos, draw);
            if eval - rfp_margin(depth) >= beta && movegen::has_move::<V>(pos) {
                return eval;
            }
        }

        movegen::generate::<V>(pos, &mut self.frames[fi].list);
        let n = self.frames[fi].list.len();
        if n == 0 {
            return -win_in(ply);
        }
        // A forced move costs nothing to look past: extend it.
        if n == 1 && (ply as i32) < 2 * self.root_depth + 8 {
            depth += 1;
        }
        let tt_move = tt_move.filter(|&i| i < n);
        {
            let f = &mut self.frames[fi];
            self.ordering
                .score(pos, &f.list, tt_move, ply, &mut f.keys[..n]);
        }
        let capture_node = self.frames[fi].list.as_slice()[0].is_capture();

        let old_alpha = alpha;
        let mut best = -MATE;
        let mut best_index = None;
        for i in 0..n {
            let idx = pick(&mut self.frames[fi].keys[..n], i);
            let mv = self.frames[fi].list.as_slice()[idx];
            let (child, cdraw, crep) = self.make(pos, draw, &mv, rep_start);

            let quiet = !capture_node && !self.ordering.is_killer(&mv, ply) && Some(idx) != tt_move;
            let mut score;
            if i == 0 {
                score = -self.search(
                    fi + 1,
                    &child,
                    &cdraw,
                    -beta,
                    -alpha,
                    depth - 1,
                    ply + 1,
                    crep,
                );
            } else {
                // Late move reductions for quiet late moves.
                let mut r = 0;
                if depth >= 3 && quiet && i >= if pv_node { 3 } else { 2 } {
                    r = self.lmr[(depth as usize).min(63)][i.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    } else if self.ordering.history_of(pos, &mv) < 0 {
                        r += 1;
                    }
                    r = r.clamp(1, depth - 1);
                }
                score = -self.search(
                    fi + 1,
                    &child,
                    &cdraw,
                    -alpha - 1,
                    -alpha,
                    depth - 1 - r,
                    ply + 1,
                    crep,
                );
                if score > alpha && r > 0 {
                    score = -self.search(
                        fi + 1,
                        &child,
                        &cdraw,
                        -alpha - 1,
                        -alpha,
                        depth - 1,
                        ply + 1,
                        crep,
                    );
                }
                if score > alpha && score < beta {
                    score = -self.search(
                        fi + 1,
                        &child,
                        &cdraw,
                        -beta,
                        -alpha,
                        depth - 1,
                        ply + 1,
                        crep,
                    );
                }
            }
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_index = Some(idx);
                    alpha = score;
                    if pv_node {
                        let (head, tail) = self.frames.split_at_mut(fi + 1);
                        head[fi].set_pv(mv, &tail[0]);
                    }
                    if score >= beta {
                        let f = &self.frames[fi];
                        self.ordering
                            .cutoff(pos, &mv, ply, depth, &f.list, &f.keys[..i]);
                        break;
                    }
                }
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, to_tt(best, ply), depth, bound, best_index.or(tt_move));
        best
    }
}
