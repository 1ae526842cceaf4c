//! The search: what the protocol loop and the command line see of it.
//! A search runs on plain threads, is steered through atomics (stop,
//! ponder-hit) and reports [`Event`]s over a channel; exactly one
//! [`Event::Done`] ends every search.
//!
//! INTERFACE CONTRACT (shared by the hub and the search implementation):
//! the types and `Engine` methods below are what `src/hub/` and `src/cli.rs`
//! use. The implementation behind them may change freely.

use crate::board::Move;
use crate::game::Game;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::Duration;

/// A score in centi-men from the side to move's point of view. Wins and
/// losses are `±(MATE - plies)`.
pub type Score = i32;
/// Score of a win in 0 plies; a win in n plies scores `MATE - n`.
pub const MATE: Score = 10_000;

/// What the search may spend (all `None`/false: think until stopped).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move, seconds.
    pub move_time: Option<f64>,
    /// Remaining clock time of the side to move, seconds (may be ≤ 0).
    pub time: Option<f64>,
    /// Increment per move, seconds (Hub: added before the move).
    pub inc: f64,
    /// Moves to the next time control (x/y), if any.
    pub moves: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
}

/// How the search was started (Hub `go think | ponder | analyze`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Play a move: a single legal move is answered at once.
    Think,
    /// Think on the opponent's time: the clock starts at ponder-hit; never
    /// ends by itself before ponder-hit or stop.
    Ponder,
    /// Analyse: never ends by itself except at its depth/nodes limit.
    Analyze,
}

/// One report of a completed iteration or a new best move.
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    pub depth: u32,
    pub mean_depth: f64,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// What a search sends back.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Info(Info),
    /// The final answer: `best` is `None` only when there is no legal move.
    Done {
        best: Option<Move>,
        ponder: Option<Move>,
    },
}

/// Engine-wide search state that survives between searches (the
/// transposition table, thread count).
pub struct Engine {
    threads: usize,
    tt_log2: u32,
}

/// The running search's controls.
pub struct SearchHandle {
    stop: Arc<AtomicBool>,
    ponder_hit: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl SearchHandle {
    /// Asks the search to finish now; its `Done` follows within milliseconds.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    /// Switches a ponder search to a normal one (its clock starts now).
    pub fn ponder_hit(&self) {
        self.ponder_hit.store(true, Ordering::Release);
    }

    /// Waits until the search thread has ended (after its `Done` was sent).
    pub fn join(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// Default transposition-table size, log2 of the entry count.
    pub const DEFAULT_TT_LOG2: u32 = 22;

    /// A new engine with one thread and the default table.
    pub fn new() -> Engine {
        Engine {
            threads: 1,
            tt_log2: Self::DEFAULT_TT_LOG2,
        }
    }

    /// Number of search threads (≥ 1).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Resizes the transposition table to 2^log2 entries (16..=30).
    pub fn set_tt_size(&mut self, log2: u32) {
        self.tt_log2 = log2.clamp(16, 30);
    }

    /// Forgets everything learnt (Hub `new-game`).
    pub fn clear(&mut self) {}

    /// Starts a search of the game's current position; events go to `tx`.
    /// PLACEHOLDER implementation: answers the first legal move at once.
    pub fn start(
        &mut self,
        game: &Game,
        _limits: Limits,
        _mode: Mode,
        tx: Sender<Event>,
    ) -> SearchHandle {
        let _ = (self.threads, self.tt_log2);
        let stop = Arc::new(AtomicBool::new(false));
        let ponder_hit = Arc::new(AtomicBool::new(false));
        let legal = game.legal_moves();
        let best = legal.iter().next().copied();
        let thread = std::thread::spawn(move || {
            let _ = tx.send(Event::Done { best, ponder: None });
        });
        SearchHandle {
            stop,
            ponder_hit,
            thread: Some(thread),
        }
    }
}
