//! Searches that end by their own limits always answer: node and depth
//! limits on trees so small that the iterations run out first (few-piece
//! endings, proven wins, a single legal move), in every mode, with one and
//! two threads. Only a search with nothing but `stop` to end it may wait.

use molkwar::board::fen;
use molkwar::game::Game;
use molkwar::search::{Engine, Event, Limits, Mode};
use molkwar::variant::VariantKind;
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// Far longer than any of these searches needs: a hang, not a timing.
const HANG: Duration = Duration::from_secs(60);

/// Tiny trees: (variant, FEN, what it is).
const TINY: &[(VariantKind, &str, &str)] = &[
    (VariantKind::International, "W:WK46:BK5", "king v king"),
    (VariantKind::International, "W:W6:B45", "both men promote"),
    (
        VariantKind::International,
        "W:W38:B33,22,23",
        "single legal move",
    ),
    (VariantKind::International, "W:WK1:B45", "king v man"),
    (VariantKind::International, "W:W32,33:B28", "win in one"),
    (VariantKind::Frisian, "W:WK46:BK5", "king v king"),
    (VariantKind::Frisian, "W:W38:B33,22,23", "single legal move"),
    (VariantKind::Frisian, "W:W32,33:B28", "win in one"),
];

/// Runs one search and returns its best move, failing on a hang.
fn answer(g: &Game, limits: Limits, mode: Mode, threads: usize, what: &str) -> molkwar::Move {
    let mut e = Engine::new();
    e.set_threads(threads);
    let (tx, rx) = channel();
    let handle = e.start(g, limits.clone(), mode, tx);
    let best = loop {
        match rx.recv_timeout(HANG) {
            Ok(Event::Info(_)) => {}
            Ok(Event::Done { best, .. }) => break best,
            Err(RecvTimeoutError::Timeout) => {
                handle.stop();
                panic!("{what}: {mode:?} {limits:?} with {threads} threads never answered");
            }
            Err(RecvTimeoutError::Disconnected) => panic!("{what}: no Done"),
        }
    };
    handle.join();
    let best = best.unwrap_or_else(|| panic!("{what}: no move"));
    assert!(g.legal_moves().contains(&best), "{what}: illegal {best}");
    best
}

fn game(v: VariantKind, f: &str) -> Game {
    Game::new(v, fen::parse_fen(f).unwrap())
}

#[test]
fn node_and_depth_limits_answer_when_the_tree_runs_out() {
    // More nodes, and more plies, than the whole tree to the deepest
    // iteration.
    let limits = [
        Limits {
            nodes: Some(50_000_000),
            ..Limits::default()
        },
        Limits {
            depth: Some(1000),
            ..Limits::default()
        },
    ];
    for &(v, f, what) in TINY {
        let g = game(v, f);
        for l in &limits {
            for mode in [Mode::Think, Mode::Analyze] {
                for threads in [1, 2] {
                    answer(&g, l.clone(), mode, threads, what);
                }
            }
        }
    }
}

#[test]
fn a_think_search_without_limits_answers_when_the_tree_runs_out() {
    for &(v, f, what) in TINY {
        answer(&game(v, f), Limits::default(), Mode::Think, 1, what);
    }
    // A proven Frisian win (2 kings v 1 within the 7-move rule, §8).
    let g = game(VariantKind::Frisian, "W:WK1,K2:BK50");
    for threads in [1, 2] {
        answer(&g, Limits::default(), Mode::Think, threads, "2 kings v 1");
    }
}

#[test]
fn an_unlimited_analysis_waits_for_stop_even_when_exhausted() {
    let g = game(VariantKind::International, "W:WK46:BK5");
    for limits in [
        Limits::default(),
        Limits {
            infinite: true,
            ..Limits::default()
        },
    ] {
        let mut e = Engine::new();
        let (tx, rx) = channel();
        let handle = e.start(&g, limits, Mode::Analyze, tx);
        // The tree is exhausted in milliseconds; the search keeps waiting.
        std::thread::sleep(Duration::from_millis(300));
        let early = rx.try_iter().any(|ev| matches!(ev, Event::Done { .. }));
        assert!(!early, "an analysis answered without stop");
        handle.stop();
        let done = rx
            .iter()
            .any(|ev| matches!(ev, Event::Done { best: Some(_), .. }));
        assert!(done);
        handle.join();
    }
}

#[test]
fn an_infinite_think_waits_for_stop_even_when_exhausted() {
    let g = game(VariantKind::Frisian, "W:WK46:BK5");
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut e = Engine::new();
    let (tx, rx) = channel();
    let handle = e.start(&g, limits, Mode::Think, tx);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!rx.try_iter().any(|ev| matches!(ev, Event::Done { .. })));
    handle.stop();
    assert!(rx.iter().any(|ev| matches!(ev, Event::Done { .. })));
    handle.join();
}

#[test]
fn a_proven_win_is_played_and_scored() {
    // Either capture takes Black's last piece (§7: no move, lost).
    let g = game(VariantKind::International, "W:W32,33:B28");
    let limits = Limits {
        nodes: Some(1_000_000),
        ..Limits::default()
    };
    for mode in [Mode::Think, Mode::Analyze] {
        let out = Engine::new().search_blocking(&g, limits.clone(), mode);
        assert!(out.best.is_some());
        let score = out.last().unwrap().score;
        assert_eq!(score, molkwar::search::MATE - 1, "{mode:?}");
    }
}
