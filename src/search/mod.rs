//! The search: what the protocol loop and the command line see of it.
//! A search runs on plain threads, is steered through atomics (stop,
//! ponder-hit) and reports [`Event`]s over a channel; exactly one
//! [`Event::Done`] ends every search.
//!
//! INTERFACE CONTRACT (shared by the hub and the search implementation):
//! the types and `Engine` methods below are what `src/hub/` and `src/cli.rs`
//! use. The implementation behind them may change freely.

mod evalcache;
mod extend;
mod iterate;
mod node;
mod ordering;
mod prune;
mod pvs;
mod qsearch;
pub mod skill;
mod tables;
mod threads;
pub mod time;
pub mod tt;
pub mod tune;
mod worker;

use crate::board::Move;
use crate::egdb::Tables;
use crate::eval::Evaluator;
use crate::eval::weights::Family;
use crate::game::{DrawState, Game};
use crate::variant::VariantKind;
use crate::with_variant;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub use crate::score::{MATE, Score};
/// Deepest ply the tree search reaches (extensions included).
pub const MAX_PLY: usize = 128;

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
    /// Best lines to find and report (multi-PV; 0 and 1: the best move
    /// only). Line k is the best line among the moves that no line before
    /// it starts with.
    pub multipv: usize,
    /// A strength level below full: caps the nodes from the second
    /// iteration on and picks the move among the best lines (`skill.rs`);
    /// not applied to analysis.
    pub skill: Option<skill::Skill>,
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
    /// Nominal depth of the iteration, plies.
    pub depth: u32,
    /// Mean ply of the positions evaluated in the iteration.
    pub mean_depth: f64,
    /// Score of the best move, centi-men, side to move's view.
    pub score: Score,
    /// Nodes searched so far by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Principal variation, legal from the root.
    pub pv: Vec<Move>,
    /// Nodes settled by the endgame tables so far (`None`: no tables).
    pub tb_hits: Option<u64>,
    /// Which line of a multi-PV search this is, from 1 (the best).
    pub line: usize,
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
    tt: Arc<tt::Tt>,
    /// The evaluation per variant family (International, Frisian).
    evals: [Evaluator; 2],
    /// Endgame tables: where, up to how many pieces (0: off), and the
    /// tables loaded so far, per variant (loaded at the first search).
    egdb_dir: std::path::PathBuf,
    egdb_pieces: u32,
    egdb: Vec<Arc<Tables>>,
    /// Build missing small tables in the background on first use.
    egdb_auto: bool,
    /// Background builds (at most one per variant, ever).
    egdb_building: Vec<tables::Build>,
    /// Search frame stacks reused across searches.
    frames: Arc<worker::FramePool>,
}

pub use node::WIN_BOUND;
pub use tables::EGDB_AUTO_PIECES;

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

/// What [`Engine::search_blocking`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The best move (`None` only without legal moves).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The reports of the search, in order.
    pub infos: Vec<Info>,
}

impl Outcome {
    /// The last report of the best line, if any.
    pub fn last(&self) -> Option<&Info> {
        self.infos.iter().rev().find(|i| i.line == 1)
    }

    /// The lines of the deepest iteration whose every line was reported
    /// (a multi-PV search stopped midway leaves the last iteration
    /// incomplete), best first; the best line alone for a single-PV search.
    pub fn lines(&self) -> Vec<&Info> {
        let count = self.infos.iter().map(|i| i.line).max().unwrap_or(0);
        let mut lines: Vec<Option<&Info>> = vec![None; count];
        let mut complete = Vec::new();
        for i in &self.infos {
            if i.line == 1 {
                lines.iter_mut().for_each(|l| *l = None);
            }
            lines[i.line - 1] = Some(i);
            if lines.iter().all(Option::is_some) {
                complete = lines.iter().flatten().copied().collect();
            }
        }
        complete
    }
}

impl Engine {
    /// Default transposition-table size, log2 of the entry count.
    pub const DEFAULT_TT_LOG2: u32 = 22;

    /// A new engine with one thread and the default table.
    pub fn new() -> Engine {
        Engine::with_tt_size(Self::DEFAULT_TT_LOG2)
    }

    /// A new engine with one thread and a table of 2^log2 entries.
    pub fn with_tt_size(log2: u32) -> Engine {
        Engine {
            threads: 1,
            tt: Arc::new(tt::Tt::new(log2)),
            evals: Evaluator::embedded_all(),
            egdb_dir: std::path::PathBuf::new(),
            egdb_pieces: 0,
            egdb: Vec::new(),
            egdb_auto: false,
            egdb_building: Vec::new(),
            frames: Arc::default(),
        }
    }

    /// Sets the evaluations of both families; on error nothing changes.
    pub fn set_eval_choice(&mut self, c: &crate::eval::EvalChoice) -> Result<(), String> {
        self.set_evaluators(c.evaluators()?);
        Ok(())
    }

    /// Sets the evaluations of both families (International, Frisian), as
    /// [`crate::eval::EvalChoice::evaluators`] loaded them.
    pub fn set_evaluators(&mut self, evals: [Evaluator; 2]) {
        self.evals = evals;
    }

    /// The evaluation used for `kind`.
    pub fn evaluator(&self, kind: VariantKind) -> &Evaluator {
        &self.evals[Family::of(kind) as usize]
    }

    /// Number of search threads (≥ 1).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, 1024);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Resizes the transposition table to 2^log2 entries (16..=30); its
    /// contents are lost. A size that cannot be allocated falls back to
    /// the largest smaller one that can.
    pub fn set_tt_size(&mut self, log2: u32) {
        let log2 = log2.clamp(16, 30);
        if log2 != self.tt.log2() {
            // Free the old table first so both never coexist in memory
            // (a running search keeps its own reference alive).
            self.tt = Arc::new(tt::Tt::new(16));
            self.tt = Arc::new(tt::Tt::new(log2));
        }
    }

    /// log2 of the table's entry count.
    pub fn tt_size(&self) -> u32 {
        self.tt.log2()
    }

    /// Forgets everything learnt (Hub `new-game`).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Writes the whole table once, so that the operating system maps its
    /// memory now rather than during the next searches (benchmarks).
    pub fn prefault(&mut self) {
        self.tt.wipe();
    }

    /// Starts a search of the game's current position; events go to `tx`.
    pub fn start(
        &mut self,
        game: &Game,
        limits: Limits,
        mode: Mode,
        tx: Sender<Event>,
    ) -> SearchHandle {
        let stop = Arc::new(AtomicBool::new(false));
        let ponder_hit = Arc::new(AtomicBool::new(false));
        let thread = match self.prepare(game, limits, mode, &stop, &ponder_hit) {
            // Lost (§7): nothing to search, but still exactly one Done.
            None => std::thread::Builder::new()
                .name("search".into())
                .spawn(move || {
                    let _ = tx.send(Event::Done {
                        best: None,
                        ponder: None,
                    });
                }),
            Some((job, shared)) => {
                let tt = self.tt.clone();
                let n = self.threads;
                let kind = game.variant();
                std::thread::Builder::new()
                    .name("search".into())
                    .stack_size(SEARCH_STACK)
                    .spawn(
                        move || with_variant!(kind, V => threads::run::<V>(job, tt, shared, n, tx)),
                    )
            }
        };
        let thread = match thread {
            Ok(t) => Some(t),
            Err(e) => {
                log::error!("cannot start the search thread: {e}");
                None
            }
        };
        SearchHandle {
            stop,
            ponder_hit,
            thread,
        }
    }

    /// The job and shared state of a search of the game's position, or
    /// `None` when there is no move to search.
    fn prepare(
        &mut self,
        game: &Game,
        limits: Limits,
        mode: Mode,
        stop: &Arc<AtomicBool>,
        ponder_hit: &Arc<AtomicBool>,
    ) -> Option<(iterate::Job, threads::Shared)> {
        let legal = game.legal_moves();
        let mut moves: Vec<Move> = legal.iter().copied().collect();
        let pieces = game.position().occupied().count_ones();
        let egdb = self.egdb(game.variant(), pieces);
        if let Some(t) = &egdb
            && pieces <= self.egdb_pieces
        {
            // docs/egdb.md: at the root only the moves that keep the value.
            moves = with_variant!(game.variant(), V => t.root_moves::<V>(game.position(), &moves));
        }
        if moves.is_empty() {
            return None;
        }
        let mut limits = limits;
        if let Some(s) = limits
            .skill
            .filter(|s| !s.is_full() && mode != Mode::Analyze)
        {
            let cap = s.node_cap().unwrap_or(u64::MAX);
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
            limits.multipv = limits.multipv.max(skill::LINES);
        } else {
            limits.skill = None;
        }
        self.tt.new_search();
        let job = iterate::Job {
            root: *game.position(),
            draw: game.draw_state(),
            history: game.history().to_vec(),
            moves,
            plan: time::Plan::new(&limits),
            limits,
            mode,
            start: Instant::now(),
            eval: self.evaluator(game.variant()).clone(),
            egdb: egdb.map(|t| (t, self.egdb_pieces)),
        };
        let shared = threads::Shared::new(
            stop.clone(),
            ponder_hit.clone(),
            self.threads,
            job.limits.nodes,
            job.limits.skill.is_none(),
            self.frames.clone(),
        );
        Some((job, shared))
    }

    /// Runs a search to its end on the calling thread (helpers, if any,
    /// on their own) and returns its best move and last report. For many
    /// tiny searches (self-play): no thread is started for the main
    /// search. The calling thread needs a stack of [`SEARCH_STACK`]
    /// bytes, and the limits must end the search as for
    /// [`Engine::search_blocking`].
    pub fn search_here(&mut self, game: &Game, limits: Limits, mode: Mode) -> Outcome {
        let stop = Arc::new(AtomicBool::new(false));
        let ponder_hit = Arc::new(AtomicBool::new(false));
        let (tx, rx) = channel();
        match self.prepare(game, limits, mode, &stop, &ponder_hit) {
            None => {
                let _ = tx.send(Event::Done {
                    best: None,
                    ponder: None,
                });
            }
            Some((job, shared)) => {
                let n = self.threads;
                with_variant!(game.variant(), V => threads::run::<V>(job, self.tt.clone(), shared, n, tx))
            }
        }
        collect(rx)
    }

    /// Runs a search to its end and returns everything it reported. The
    /// limits must end the search (an Analyze search without a depth or
    /// node limit would wait for a stop that never comes).
    pub fn search_blocking(&mut self, game: &Game, limits: Limits, mode: Mode) -> Outcome {
        let (tx, rx) = channel();
        let handle = self.start(game, limits, mode, tx);
        let out = collect(rx);
        handle.join();
        out
    }
}

/// Stack size of a thread that runs a search.
pub const SEARCH_STACK: usize = 8 << 20;

/// The events of one search up to its `Done`.
fn collect(rx: std::sync::mpsc::Receiver<Event>) -> Outcome {
    let mut out = Outcome {
        best: None,
        ponder: None,
        infos: Vec::new(),
    };
    for ev in rx.iter() {
        match ev {
            Event::Info(i) => out.infos.push(i),
            Event::Done { best, ponder } => {
                out.best = best;
                out.ponder = ponder;
                break;
            }
        }
    }
    out
}

/// Evaluation of the game's current position as the search sees its leaves
/// with the default evaluation (for tools and tests).
pub fn static_eval(game: &Game) -> Score {
    let d: DrawState = game.draw_state();
    let e = Evaluator::embedded(game.variant());
    with_variant!(game.variant(), V => e.evaluate::<V>(game.position(), &d))
}
