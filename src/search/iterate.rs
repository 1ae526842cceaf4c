//! Iterative deepening at the root: aspiration windows around the last
//! score, the root move loop, the per-iteration reports, the decision to
//! start another iteration (limits, time, single reply, proven win), and
//! the final best move with its expected reply.

use super::node::{Node, WIN_BOUND, tt_key};
use super::threads::Completed;
use super::time::Plan;
use super::tune::P;
use super::worker::Worker;
use super::{Event, Info, Limits, MATE, MAX_PLY, Mode, Score};
use crate::board::{Move, Position, movegen};
use crate::eval::Evaluator;
use crate::game::DrawState;
use crate::variant::Variant;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

/// Deepest iteration ever started.
pub const MAX_DEPTH: u32 = (MAX_PLY as u32) - 28;

/// Everything a search thread needs to know about its task.
pub struct Job {
    pub root: Position,
    pub draw: DrawState,
    /// Game history keys since the last irreversible move, the root last.
    pub history: Vec<u64>,
    /// The legal moves of the root (not empty).
    pub moves: Vec<Move>,
    pub limits: Limits,
    pub mode: Mode,
    pub plan: Plan,
    pub start: Instant,
    /// The static evaluation for the variant searched.
    pub eval: Evaluator,
    /// The endgame tables of the variant and the most pieces probed.
    pub egdb: Option<(std::sync::Arc<crate::egdb::Tables>, u32)>,
}

/// Why the iteration loop ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum End {
    /// Stopped from outside (stop, or the main thread's end for helpers).
    Stopped,
    /// A limit of the search was reached: depth, nodes, time.
    Limit,
    /// Nothing more to learn: a single reply or a proven result (Think).
    Early,
    /// Every iteration up to [`MAX_DEPTH`] is done.
    Exhausted,
}

/// The result of the root search so far.
struct RootState {
    moves: Vec<Move>,
    best: Move,
    score: Score,
    pv: Vec<Move>,
}

impl<V: Variant> Worker<'_, V> {
    /// Searches the root moves with window (alpha, beta). Moves that
    /// improve alpha go to the front of the list (searched first next
    /// time) and become the best move.
    fn root_search(
        &mut self,
        job: &Job,
        st: &mut RootState,
        mut alpha: Score,
        beta: Score,
        depth: i32,
        tx: Option<&Sender<Event>>,
    ) -> Score {
        let mut best = -MATE;
        let root = Node {
            pos: job.root,
            draw: job.draw,
            ply: 0,
            rep_start: 0,
            probcut: true,
        };
        for i in 0..st.moves.len() {
            let mv = st.moves[i];
            let child = self.child(&root, &mv);
            let mut score;
            if i == 0 {
                score = -self.search(&child, -beta, -alpha, depth - 1);
            } else {
                score = -self.search(&child, -alpha - 1, -alpha, depth - 1);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search(&child, -beta, -alpha, depth - 1);
                }
            }
            self.keys.pop();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                st.best = mv;
                st.score = score;
                st.pv.clear();
                st.pv.push(mv);
                let child_pv = &self.frames[1];
                st.pv.extend_from_slice(&child_pv.pv[..child_pv.pv_len]);
                st.moves[..=i].rotate_right(1);
                if score >= beta {
                    break;
                }
                // A new best move inside the window, searched in full: the
                // GUI hears of it now, not only at the end of the iteration.
                if i > 0
                    && let Some(tx) = tx
                {
                    st.pv = legal_prefix::<V>(&job.root, &st.pv);
                    let _ = tx.send(Event::Info(info(self, job, st, depth as u32, 1)));
                }
            }
        }
        best
    }

    /// One iteration of `depth` over `st.moves` with aspiration windows
    /// around the last score, widened on each fail.
    fn aspirate(&mut self, job: &Job, st: &mut RootState, depth: u32, tx: Option<&Sender<Event>>) {
        let mut delta: Score = P.aspiration.max(1);
        let (mut alpha, mut beta) = if depth >= 4 && st.score.abs() < WIN_BOUND {
            (st.score - delta, st.score + delta)
        } else {
            (-MATE, MATE)
        };
        loop {
            let s = self.root_search(job, st, alpha, beta, depth as i32, tx);
            if self.stopped {
                return;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-MATE);
            } else if s >= beta {
                beta = (s + delta).min(MATE);
            } else {
                return;
            }
            delta = delta.saturating_mul(2);
            if delta > 400 {
                (alpha, beta) = (-MATE, MATE);
            }
        }
    }

    /// Multi-PV: lines 2..=`scores.len()` of iteration `depth`, line k the best
    /// among the moves after the first k − 1 of `st.moves`, which it puts
    /// at place k. Each line is reported as it completes.
    fn other_lines(
        &mut self,
        job: &Job,
        st: &mut RootState,
        scores: &mut [Score],
        depth: u32,
        tx: Option<&Sender<Event>>,
    ) {
        let best = st.score;
        for (k, score) in scores.iter_mut().enumerate().skip(1) {
            let mut line = RootState {
                moves: st.moves[k..].to_vec(),
                best: st.moves[k],
                score: if depth > 1 { *score } else { best },
                pv: vec![st.moves[k]],
            };
            self.aspirate(job, &mut line, depth, None);
            if self.stopped {
                return;
            }
            st.moves[k..].copy_from_slice(&line.moves);
            *score = line.score;
            line.pv = legal_prefix::<V>(&job.root, &line.pv);
            if let Some(tx) = tx {
                let _ = tx.send(Event::Info(info(self, job, &line, depth, k + 1)));
            }
        }
    }
}

/// The moves of `pv` that are legal one after the other from `root`.
fn legal_prefix<V: Variant>(root: &Position, pv: &[Move]) -> Vec<Move> {
    let mut pos = *root;
    let mut out = Vec::new();
    for mv in pv {
        if !movegen::legal_moves::<V>(&pos).contains(mv) {
            break;
        }
        out.push(*mv);
        pos = pos.play::<V>(mv);
    }
    out
}

/// Runs the iterations of one thread. The main thread (`tx` given) sends
/// an [`Info`] per completed iteration, decides when the search ends and
/// returns the best move and the expected reply.
pub fn iterate<V: Variant>(
    w: &mut Worker<'_, V>,
    job: &Job,
    tx: Option<&Sender<Event>>,
) -> (Option<Move>, Option<Move>) {
    let main = tx.is_some();
    let mut st = RootState {
        moves: job.moves.clone(),
        best: job.moves[0],
        score: 0,
        pv: vec![job.moves[0]],
    };
    let max_depth = match (job.plan.minimal, job.limits.depth) {
        (true, _) => 1,
        (false, Some(d)) => d.clamp(1, MAX_DEPTH),
        (false, None) => MAX_DEPTH,
    };
    let first = if main { 1 } else { 1 + (w.id as u32 % 2) };
    let mut end = End::Exhausted;
    let mut last_best = st.best;
    let mut unstable = 0.0f64;
    let mut depth = first;
    // Multi-PV: the lines searched (main thread only) and each line's
    // score at the last iteration, the centre of its aspiration window.
    let lines = if main {
        job.limits.multipv.clamp(1, job.moves.len())
    } else {
        1
    };
    // (-MATE: not searched yet, so never picked by a level.)
    let mut scores: Vec<Score> = vec![-MATE; lines];
    while depth <= max_depth {
        // Lazy SMP: a helper stays one iteration ahead of the deepest one
        // completed; the main thread takes over a helper's deeper result
        // when it completes its own iteration (below).
        if !main {
            depth = depth.max(w.shared.completed.load(Ordering::Acquire) + 2);
            if depth > max_depth {
                break;
            }
        }
        w.root_depth = depth as i32;
        w.leaf_plies = 0;
        w.leaves = 0;
        w.aspirate(job, &mut st, depth, tx);
        if w.stopped {
            end = End::Stopped;
            // A move that beat the previous best in the unfinished
            // iteration was searched in full: report it.
            if let Some(tx) = tx
                && st.best != last_best
            {
                st.pv = legal_prefix::<V>(&job.root, &st.pv);
                let _ = tx.send(Event::Info(info(w, job, &st, depth, 1)));
            }
            break;
        }
        w.shared.complete(depth);
        if !main {
            w.shared.offer(Completed {
                depth,
                best: st.best,
                score: st.score,
                pv: st.pv.clone(),
            });
            depth += 1;
            continue;
        }
        // A helper got further: take its result (its move goes first).
        // Not in multi-PV, whose other lines the helpers do not search.
        if lines == 1
            && let Some(c) = w.shared.deeper_than(depth)
        {
            depth = c.depth;
            st.best = c.best;
            st.score = c.score;
            st.pv = c.pv;
            if let Some(i) = st.moves.iter().position(|m| *m == c.best) {
                st.moves[..=i].rotate_right(1);
            }
        }
        w.poll();
        st.pv = legal_prefix::<V>(&job.root, &st.pv);
        if let Some(tx) = tx {
            let _ = tx.send(Event::Info(info(w, job, &st, depth, 1)));
        }
        if lines > 1 {
            w.other_lines(job, &mut st, &mut scores, depth, tx);
            if w.stopped {
                end = End::Stopped;
                break;
            }
        }
        // A level's node cap counts from here (docs/levels.md).
        w.shared.limit_armed.store(true, Ordering::Relaxed);
        // Time: a changed best move asks for more time, which decays.
        unstable *= 0.5;
        if st.best != last_best {
            unstable += 1.0;
            last_best = st.best;
        }
        if depth >= max_depth {
            end = if depth == MAX_DEPTH {
                End::Exhausted
            } else {
                End::Limit
            };
            break;
        }
        if let Some(clock) = &w.clock
            && clock.soft_expired(1.0 + unstable.min(1.5))
        {
            end = End::Limit;
            break;
        }
        if job.mode != Mode::Analyze {
            // Think (and ponder, which waits for ponder-hit below).
            let proven =
                st.score.abs() >= WIN_BOUND && (depth as Score) >= MATE - st.score.abs() + 2;
            if job.moves.len() == 1 || proven {
                end = End::Early;
                break;
            }
        }
        depth += 1;
    }
    if !main {
        return (None, None);
    }
    if w.stopped && end == End::Stopped {
        // The main thread stops itself on its limits: tell them apart.
        let external = job
            .limits
            .nodes
            .is_none_or(|n| w.shared.total_nodes().max(w.nodes) < n)
            && !w.clock.as_ref().is_some_and(|c| c.hard_expired());
        if !external {
            end = End::Limit;
        }
    }
    wait_if_needed(w, job, end);
    let mut best = st.best;
    if let Some(skill) = job.limits.skill {
        // A weaker level plays one of its lines (scores of the last
        // iteration that reached each line).
        scores[0] = st.score;
        let lines: Vec<(Move, Score)> = st.moves.iter().copied().zip(scores).collect();
        best = skill.pick(&lines);
        if best != st.best {
            st.pv.clear();
        }
    }
    let ponder = st
        .pv
        .get(1)
        .copied()
        .or_else(|| expected_reply::<V>(w, job, &best));
    (Some(best), ponder)
}

/// A ponder search waits for ponder-hit or stop. A search that ended by
/// itself (out of iterations, or a proven result) waits for stop only when
/// nothing but a stop may end it: an analysis or `infinite` search without
/// depth, node or time limits. Every other search (a node limit without a
/// clock included) answers at once.
fn wait_if_needed<V: Variant>(w: &mut Worker<'_, V>, job: &Job, end: End) {
    let shared = w.shared;
    let unbounded = (job.mode == Mode::Analyze || job.limits.infinite)
        && job.limits.depth.is_none()
        && job.limits.nodes.is_none()
        && job.plan.soft.is_none()
        && job.plan.hard.is_none()
        && !job.plan.minimal;
    loop {
        if shared.stop.load(Ordering::Acquire) {
            return;
        }
        let pondering = job.mode == Mode::Ponder && !shared.ponder_hit.load(Ordering::Acquire);
        let wait = pondering || (end != End::Stopped && unbounded);
        if !wait {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The reply to `best` stored in the table, if it is legal.
fn expected_reply<V: Variant>(w: &Worker<'_, V>, job: &Job, best: &Move) -> Option<Move> {
    let child = job.root.play::<V>(best);
    let legal = movegen::legal_moves::<V>(&child);
    if legal.len() == 1 {
        return legal.iter().next().copied();
    }
    let draw = job.draw.after::<V>(&job.root, best, &child);
    w.tt.probe(tt_key::<V>(&child, &draw))
        .and_then(|h| h.move_index)
        .and_then(|i| legal.as_slice().get(i).copied())
}

fn info<V: Variant>(w: &Worker<'_, V>, job: &Job, st: &RootState, depth: u32, line: usize) -> Info {
    let nodes = w.shared.total_nodes().max(w.nodes);
    let mean_depth = if w.leaves > 0 {
        w.leaf_plies as f64 / w.leaves as f64
    } else {
        depth as f64
    };
    Info {
        depth,
        mean_depth,
        score: st.score,
        nodes,
        time: job.start.elapsed(),
        pv: st.pv.clone(),
        tb_hits: job
            .egdb
            .as_ref()
            .map(|_| w.shared.total_tb_hits().max(w.tb_hits)),
        line,
    }
}
