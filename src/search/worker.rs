//! One search thread's state: counters and stop conditions, the path's
//! position keys (repetitions), the per-ply frames, the move-ordering
//! tables; and the two operations every node uses: make a child, decide a
//! rule draw.

use super::MAX_PLY;
use super::evalcache::EvalCache;
use super::iterate::Job;
use super::node::Node;
use super::ordering::Ordering;
use super::threads::Shared;
use super::time::Clock;
use super::tt::Tt;
use crate::board::{Move, MoveList, Square, movegen};
use crate::egdb::Tables;
use crate::eval::Evaluator;
use crate::variant::Variant;
use std::marker::PhantomData;
use std::sync::atomic::Ordering as AtomicOrdering;

/// Nodes between two looks at the stop flag and the clock.
const CHECK_INTERVAL: u64 = 1024;

/// Per-ply scratch space: the move list, its sort keys and the PV from here.
pub struct Frame {
    pub list: MoveList,
    pub keys: [i64; crate::board::moves::CAPACITY],
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

/// Frame stacks and evaluation caches kept from one search to the next: a
/// stack is about 1 MB, and allocating and faulting it in for every search
/// cost self-play (thousands of tiny searches a second) a third of its
/// time; a cache keeps the scores of the positions the next move's search
/// meets again.
#[derive(Default)]
pub struct FramePool(std::sync::Mutex<Vec<(Vec<Frame>, EvalCache)>>);

impl FramePool {
    /// A stack and a cache from the pool, or new ones.
    fn take(&self) -> (Vec<Frame>, EvalCache) {
        let kept = self.0.lock().ok().and_then(|mut v| v.pop());
        kept.unwrap_or_else(|| (Frame::boxed_stack(), EvalCache::default()))
    }

    /// Gives a stack and a cache back.
    fn put(&self, frames: Vec<Frame>, cache: EvalCache) {
        if let Ok(mut v) = self.0.lock() {
            v.push((frames, cache));
        }
    }
}

impl<V: Variant> Drop for Worker<'_, V> {
    fn drop(&mut self) {
        let frames = std::mem::take(&mut self.frames);
        let cache = std::mem::take(&mut self.eval_cache);
        self.shared.frames.put(frames, cache);
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
    /// Nodes settled by the endgame tables.
    pub tb_hits: u64,
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
    /// Static scores met before (this variant, this evaluation).
    eval_cache: EvalCache,
    /// Sum and count of leaf plies in the current iteration (mean depth).
    pub leaf_plies: u64,
    pub leaves: u64,
    pub root_depth: i32,
    /// Late move reductions by depth and move number.
    pub(super) lmr: &'static [[u8; 64]; 64],
    /// Endgame tables and the most pieces probed (docs/egdb.md).
    pub egdb: Option<(&'a Tables, u32)>,
    _variant: PhantomData<V>,
}

/// The reduction table, computed once per process.
static LMR: std::sync::LazyLock<[[u8; 64]; 64]> = std::sync::LazyLock::new(lmr_table);

/// The reduction table: `1 + ln(depth)·ln(move number) / 2.25` plies
/// (the divisor is `tune::P.lmr_divisor`).
fn lmr_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            let x = 1.0 + (d as f64).ln() * (i as f64).ln() / super::tune::P.lmr_divisor;
            *r = x.floor().clamp(0.0, 15.0) as u8;
        }
    }
    t
}

impl<'a, V: Variant> Worker<'a, V> {
    /// A worker for thread `id` of the search `job`: its evaluation, game
    /// history and endgame tables.
    pub fn new(id: usize, shared: &'a Shared, tt: &'a Tt, job: &'a Job) -> Self {
        let mut k = Vec::with_capacity(job.history.len() + MAX_PLY + 2);
        k.extend_from_slice(&job.history);
        let (frames, mut eval_cache) = shared.frames.take();
        eval_cache.serve(V::KIND, &job.eval);
        Worker {
            id,
            shared,
            tt,
            eval: &job.eval,
            nodes: 0,
            tb_hits: 0,
            node_limit: None,
            clock: None,
            stopped: false,
            keys: k,
            ordering: Ordering::new(),
            frames,
            eval_cache,
            leaf_plies: 0,
            leaves: 0,
            root_depth: 1,
            lmr: &LMR,
            egdb: job.egdb.as_ref().map(|(t, n)| (&**t, *n)),
            _variant: PhantomData,
        }
    }

    /// Counts a node and looks at the stop conditions now and then.
    #[inline]
    pub(super) fn visit(&mut self) {
        self.nodes += 1;
        if let Some(limit) = self.node_limit
            && self.nodes >= limit
            && self.shared.limit_armed.load(AtomicOrdering::Relaxed)
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
        self.shared.publish(self.id, self.nodes, self.tb_hits);
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
                && self.shared.limit_armed.load(AtomicOrdering::Relaxed)
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
    pub(super) fn drawn(&self, node: &Node) -> bool {
        (self.repeated(node.rep_start) || node.draw.verdict::<V>(&node.pos).is_some())
            && movegen::has_move::<V>(&node.pos)
    }

    /// The static evaluation of a leaf, counted for the mean depth.
    #[inline]
    pub(super) fn leaf_eval(&mut self, node: &Node) -> super::Score {
        self.leaf_plies += node.ply as u64;
        self.leaves += 1;
        self.static_eval(node)
    }

    /// The static evaluation of a quiet node, from the cache when the
    /// position was evaluated before.
    #[inline]
    pub(super) fn static_eval(&mut self, node: &Node) -> super::Score {
        let key = node.pos.key();
        let white = match self.eval_cache.get(key) {
            Some(s) => s,
            None => {
                let s = self.eval.white_score::<V>(&node.pos);
                self.eval_cache.put(key, s);
                s
            }
        };
        Evaluator::finish::<V>(white, &node.pos, &node.draw)
    }

    /// The table score of `node`, if it has few enough pieces, its table
    /// is loaded and the draw rules let the search trust it.
    #[inline]
    pub(super) fn egdb_score(&mut self, node: &Node) -> Option<super::Score> {
        let (db, n) = self.egdb?;
        // Quiet positions only: a capture is searched (it may end the game
        // at once, a win the band would understate).
        if node.pos.occupied().count_ones() > n || movegen::has_capture::<V>(&node.pos) {
            return None;
        }
        self.egdb_probe(db, node)
    }

    #[inline(never)]
    fn egdb_probe(&mut self, db: &Tables, node: &Node) -> Option<super::Score> {
        let v = db.probe::<V>(&node.pos)?;
        let eval = self.eval;
        let (pos, draw) = (&node.pos, &node.draw);
        let s = crate::egdb::probe::search_score::<V>(v, pos, draw, node.ply, || {
            eval.evaluate::<V>(pos, draw)
        })?;
        self.tb_hits += 1;
        Some(s)
    }

    /// Plays `mv` from `node`: the child node, whose key is pushed on
    /// `keys` (the caller pops it when done with the child).
    #[inline]
    pub fn child(&mut self, node: &Node, mv: &Move) -> Node {
        let pos = node.pos.play::<V>(mv);
        let draw = node.draw.after::<V>(&node.pos, mv, &pos);
        let irreversible = mv.is_capture() || !node.pos.is_king_move(mv);
        self.keys.push(pos.key());
        let rep_start = if irreversible {
            self.keys.len() - 1
        } else {
            node.rep_start
        };
        Node {
            pos,
            draw,
            ply: node.ply + 1,
            rep_start,
            probcut: node.probcut,
        }
    }
}
