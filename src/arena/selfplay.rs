//! Self-play training data: fast games of molkwar against itself in
//! process, a fixed depth or node count per move, openings randomized from
//! a seed (a random position of the shipped set, then random plies).
//!
//! Output, one line per quiet searched position (the side to move has no
//! capture; the evaluator only ever sees such positions):
//! `<fen> | <score> | <result>` — the position as a PDN FEN (side to move
//! first), the search score in centi-men from White's side (wins are
//! ±(10000 − plies)), and the game result from White's side: `1.0`, `0.5`
//! or `0.0`. Game `i` depends only on the seed, `i` and the settings, so a
//! run is deterministic for its seed, and runs with different seeds (the
//! shards) can be split over processes or machines and concatenated. The
//! format is documented in `docs/training.md`.

use super::openings::{self, Opening};
use super::rng::Rng;
use crate::board::{Color, fen};
use crate::eval::EvalChoice;
use crate::game::{Game, Outcome};
use crate::search::{Engine, Limits, Mode, SEARCH_STACK};
use crate::variant::VariantKind;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::channel;

/// Settings of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfplayConfig {
    pub variant: VariantKind,
    pub games: u32,
    pub seed: u64,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Random plies played after the opening position.
    pub random_plies: u32,
    /// Each move's node limit is drawn from `nodes · (1 ± nodes_spread)`.
    pub nodes_spread: f64,
    /// Games longer than this are drawn (and written as draws).
    pub max_plies: u32,
    pub concurrency: usize,
    /// log2 of the transposition-table entries per game thread.
    pub tt_size: u32,
    /// The evaluation the engine plays with.
    pub eval: EvalChoice,
}

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelfplayTotals {
    pub games: u32,
    pub positions: u64,
    pub white_wins: u32,
    pub draws: u32,
    pub black_wins: u32,
}

/// Plays game `index` and returns its lines and White's result.
/// `book` is the opening set (may be empty: the start position).
pub fn play_game(
    cfg: &SelfplayConfig,
    book: &[Opening],
    engine: &mut Engine,
    index: u32,
) -> (Vec<String>, f64) {
    let mut rng = Rng::for_index(cfg.seed, index as u64);
    let start = if book.is_empty() {
        crate::Position::start()
    } else {
        book[rng.below(book.len())].pos
    };
    let mut game = Game::new(cfg.variant, start);
    for _ in 0..cfg.random_plies {
        let legal = game.legal_moves();
        if game.outcome() != Outcome::Ongoing {
            break;
        }
        game.play(&legal.as_slice()[rng.below(legal.len())]);
    }
    engine.clear();
    let limits = Limits {
        depth: cfg.depth,
        nodes: cfg.nodes,
        ..Limits::default()
    };
    let mut records: Vec<(String, i32)> = Vec::new();
    let mut plies = 0;
    let result = loop {
        match game.outcome() {
            Outcome::Loss => {
                break if game.position().side() == Color::White {
                    0.0
                } else {
                    1.0
                };
            }
            Outcome::Draw(_) => break 0.5,
            Outcome::Ongoing if plies >= cfg.max_plies => break 0.5,
            Outcome::Ongoing => {}
        }
        let mut limits = limits.clone();
        if let Some(n) = cfg.nodes
            && cfg.nodes_spread > 0.0
        {
            // Uniform in n · (1 ± spread), from the game's own generator.
            let u = rng.next_u64() as f64 / u64::MAX as f64;
            let f = 1.0 + cfg.nodes_spread * (2.0 * u - 1.0);
            limits.nodes = Some(((n as f64 * f).round() as u64).max(1));
        }
        let r = engine.search_here(&game, limits, Mode::Analyze);
        let Some(best) = r.best else { break 0.5 };
        let score = r.last().map_or(0, |i| i.score);
        let white = if game.position().side() == Color::White {
            score
        } else {
            -score
        };
        let quiet = !game.legal_moves().iter().any(|m| m.is_capture());
        if quiet {
            records.push((fen::to_fen(game.position()), white));
        }
        game.play(&best);
        plies += 1;
    };
    let lines = records
        .into_iter()
        .map(|(f, s)| format!("{f} | {s} | {result:.1}"))
        .collect();
    (lines, result)
}

/// Runs the games on `concurrency` threads and writes them in game order.
pub fn run(
    cfg: &SelfplayConfig,
    out: &mut dyn Write,
    mut progress: impl FnMut(&SelfplayTotals),
) -> Result<SelfplayTotals, String> {
    if cfg.depth.is_none() && cfg.nodes.is_none() {
        return Err("selfplay needs --depth or --nodes".into());
    }
    let evals = cfg.eval.evaluators()?;
    let evals = &evals;
    let book = openings::load(None, cfg.variant)?;
    let book = &book;
    let next = AtomicU32::new(0);
    let (tx, rx) = channel();
    let mut totals = SelfplayTotals::default();
    let mut pending = BTreeMap::new();
    let mut write_err = None;
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1) {
            let tx = tx.clone();
            let next = &next;
            let spawned = std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, move || {
                    // Loaded once for all threads: each engine shares the weights.
                    let mut engine = Engine::with_tt_size(cfg.tt_size);
                    engine.set_evaluators(evals.clone());
                    loop {
                        let i = next.fetch_add(1, Ordering::AcqRel);
                        if i >= cfg.games {
                            break;
                        }
                        if tx.send((i, play_game(cfg, book, &mut engine, i))).is_err() {
                            break;
                        }
                    }
                });
            if let Err(e) = spawned {
                log::error!("cannot start a self-play thread: {e}");
            }
        }
        drop(tx);
        let mut written = 0u32;
        for (i, g) in rx.iter() {
            pending.insert(i, g);
            while let Some((lines, result)) = pending.remove(&written) {
                written += 1;
                totals.games += 1;
                totals.positions += lines.len() as u64;
                match result {
                    r if r > 0.75 => totals.white_wins += 1,
                    r if r < 0.25 => totals.black_wins += 1,
                    _ => totals.draws += 1,
                }
                for l in &lines {
                    if let Err(e) = writeln!(out, "{l}") {
                        write_err.get_or_insert(format!("cannot write: {e}"));
                        next.store(cfg.games, Ordering::Release);
                    }
                }
                progress(&totals);
            }
        }
    });
    out.flush().map_err(|e| format!("cannot write: {e}"))?;
    match write_err {
        Some(e) => Err(e),
        None if totals.games < cfg.games => Err(format!(
            "only {} of {} games were played (no thread could start)",
            totals.games, cfg.games
        )),
        None => Ok(totals),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(spread: f64) -> SelfplayConfig {
        SelfplayConfig {
            variant: VariantKind::International,
            games: 4,
            seed: 5,
            depth: None,
            nodes: Some(300),
            random_plies: 0,
            nodes_spread: spread,
            max_plies: 40,
            concurrency: 2,
            tt_size: 16,
            eval: EvalChoice::default(),
        }
    }

    #[test]
    fn a_node_spread_varies_games_from_one_start() {
        // From the start position, no random plies: without a spread every
        // game is the same game; with one, games differ.
        let mut engine = Engine::with_tt_size(16);
        let games = |cfg: &SelfplayConfig, engine: &mut Engine| -> Vec<Vec<String>> {
            (0..3).map(|i| play_game(cfg, &[], engine, i).0).collect()
        };
        let plain = games(&config(0.0), &mut engine);
        assert!(plain.iter().all(|g| g == &plain[0] && !g.is_empty()));
        let spread = games(&config(0.5), &mut engine);
        assert!(spread[0] != spread[1] || spread[1] != spread[2]);
        // Still a function of the seed and the game number.
        assert_eq!(spread, games(&config(0.5), &mut engine));
    }

    #[test]
    fn a_run_with_a_spread_is_deterministic() {
        let run_lines = |cfg: &SelfplayConfig| {
            let mut out = Vec::new();
            run(cfg, &mut out, |_| {}).unwrap();
            out
        };
        let a = run_lines(&config(0.5));
        assert!(!a.is_empty());
        assert_eq!(a, run_lines(&config(0.5)));
    }
}
