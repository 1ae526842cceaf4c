//! Lazy SMP: the main thread and its helpers search the same root on
//! their own, sharing only the transposition table, the stop flag and the
//! node counters. The main thread decides when to stop, reports, and sends
//! the one `Done` of the search.

use super::Score;
use super::iterate::{self, Job};
use super::time::Clock;
use super::tt::Tt;
use super::worker::{FramePool, Worker};
use super::{Event, Mode};
use crate::board::Move;
use crate::variant::Variant;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

/// What the threads of one search share.
pub struct Shared {
    /// Set by the handle (stop) or by the main thread when it is done.
    pub stop: Arc<AtomicBool>,
    /// Set by the handle on ponder-hit.
    pub ponder_hit: Arc<AtomicBool>,
    /// Node count of each thread, published every few thousand nodes.
    nodes: Vec<AtomicU64>,
    /// Endgame table hits of each thread, published with the nodes.
    tb_hits: Vec<AtomicU64>,
    /// Node limit over all threads (checked by the main thread).
    pub node_limit: Option<u64>,
    /// False while the node limit waits for the first iteration: a
    /// level's first iteration always scores all its lines.
    pub limit_armed: AtomicBool,
    /// Deepest iteration completed by any thread.
    pub completed: AtomicU32,
    /// The result of the deepest iteration a helper completed.
    pub helper_result: Mutex<Option<Completed>>,
    /// The engine's frame stacks, lent to the workers.
    pub frames: Arc<FramePool>,
}

/// A completed root iteration of a helper thread.
#[derive(Clone, Debug)]
pub struct Completed {
    pub depth: u32,
    pub best: Move,
    pub score: Score,
    pub pv: Vec<Move>,
}

impl Shared {
    /// Controls for `threads` threads.
    pub fn new(
        stop: Arc<AtomicBool>,
        ponder_hit: Arc<AtomicBool>,
        threads: usize,
        node_limit: Option<u64>,
        limit_from_start: bool,
        frames: Arc<FramePool>,
    ) -> Shared {
        Shared {
            stop,
            ponder_hit,
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            tb_hits: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            node_limit,
            limit_armed: AtomicBool::new(limit_from_start),
            completed: AtomicU32::new(0),
            helper_result: Mutex::new(None),
            frames,
        }
    }

    /// Records that a thread completed the iteration `depth`.
    #[inline]
    pub fn complete(&self, depth: u32) {
        self.completed.fetch_max(depth, Ordering::AcqRel);
    }

    /// Offers a helper's completed iteration to the main thread.
    pub fn offer(&self, c: Completed) {
        if let Ok(mut r) = self.helper_result.lock()
            && r.as_ref().is_none_or(|old| old.depth < c.depth)
        {
            *r = Some(c);
        }
    }

    /// A helper's result deeper than `depth`, if any.
    pub fn deeper_than(&self, depth: u32) -> Option<Completed> {
        if self.completed.load(Ordering::Acquire) <= depth {
            return None;
        }
        let r = self.helper_result.lock().ok()?;
        r.as_ref().filter(|c| c.depth > depth).cloned()
    }

    /// Publishes thread `id`'s node count and endgame table hits.
    #[inline]
    pub fn publish(&self, id: usize, nodes: u64, tb_hits: u64) {
        for (counters, n) in [(&self.nodes, nodes), (&self.tb_hits, tb_hits)] {
            if let Some(c) = counters.get(id) {
                c.store(n, Ordering::Relaxed);
            }
        }
    }

    /// Nodes of all threads as last published.
    pub fn total_nodes(&self) -> u64 {
        total(&self.nodes)
    }

    /// Endgame table hits of all threads as last published.
    pub fn total_tb_hits(&self) -> u64 {
        total(&self.tb_hits)
    }
}

/// The sum of per-thread counters.
fn total(counters: &[AtomicU64]) -> u64 {
    counters.iter().map(|c| c.load(Ordering::Relaxed)).sum()
}

/// Runs a whole search on the calling thread plus `threads - 1` helpers and
/// sends its events (the last one `Done`) to `tx`.
pub fn run<V: Variant>(job: Job, tt: Arc<Tt>, shared: Shared, threads: usize, tx: Sender<Event>) {
    let threads = threads.max(1);
    let tt = &*tt;
    let shared = &shared;
    let job = &job;
    let (best, ponder) = std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for id in 1..threads {
            let spawned = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(8 << 20)
                .spawn_scoped(scope, move || {
                    let mut w = Worker::<V>::new(id, shared, tt, job);
                    iterate::iterate(&mut w, job, None);
                });
            match spawned {
                Ok(h) => helpers.push(h),
                Err(e) => log::warn!("cannot start search thread {id}: {e}"),
            }
        }
        let mut w = Worker::<V>::new(0, shared, tt, job);
        w.clock = Some(Clock::new(job.plan, job.mode == Mode::Ponder));
        if threads == 1 {
            w.node_limit = job.limits.nodes;
        }
        let result = iterate::iterate(&mut w, job, Some(&tx));
        shared.stop.store(true, Ordering::Release);
        for h in helpers {
            let _ = h.join();
        }
        result
    });
    let _ = tx.send(Event::Done { best, ponder });
}
