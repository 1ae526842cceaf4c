//! The search engine's contract: one `Done` per start with a legal move,
//! stop and ponder behaviour, time limits, determinism, table resizing.
//!
//! Time limits are checked by behaviour, so that a loaded machine cannot
//! fail them: the search answered, exactly once, after using at least part
//! of its time, and an answer due at once came within [`PROMPT`]. How fast
//! the answers really are is measured by benchmarks, not here
//! (`tests/clients/measure.py` times the answer to `stop`, for one).

use molkwar::board::fen;
use molkwar::eval::EvalChoice;
use molkwar::game::Game;
use molkwar::search::{Engine, Event, Info, Limits, Mode};
use molkwar::variant::VariantKind;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// The bound for an answer due at once (typically a few milliseconds):
/// generous enough for a machine busy with other jobs.
const PROMPT: Duration = Duration::from_secs(5);

fn game(variant: VariantKind, f: &str) -> Game {
    Game::new(variant, fen::parse_fen(f).unwrap())
}

fn start(v: VariantKind) -> Game {
    game(v, "W:W31-50:B1-20")
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Collects every event until the channel closes; asserts exactly one Done,
/// last, and returns it with the time it arrived and the reports before it.
fn drain(rx: Receiver<Event>, t0: Instant) -> (Option<molkwar::Move>, Duration, Vec<Info>) {
    let mut done = Vec::new();
    let mut infos = Vec::new();
    for ev in rx.iter() {
        match ev {
            Event::Info(i) => {
                assert!(done.is_empty(), "Info after Done");
                infos.push(i);
            }
            Event::Done { best, .. } => done.push((best, t0.elapsed())),
        }
    }
    assert_eq!(done.len(), 1, "exactly one Done");
    (done[0].0, done[0].1, infos)
}

/// Asserts that no `Done` came yet (the search is still running).
fn still_searching(rx: &Receiver<Event>, what: &str) {
    assert!(
        rx.try_iter().all(|ev| matches!(ev, Event::Info(_))),
        "{what}: the search answered before it was told to"
    );
}

/// The deepest iteration reported.
fn deepest(infos: &[Info]) -> u32 {
    infos.iter().map(|i| i.depth).max().unwrap_or(0)
}

/// The reports without their timings.
fn summary(infos: &[molkwar::search::Info]) -> Vec<(u32, i32, u64, Vec<molkwar::Move>)> {
    infos
        .iter()
        .map(|i| (i.depth, i.score, i.nodes, i.pv.clone()))
        .collect()
}

#[test]
fn fixed_depth_is_deterministic_with_one_thread() {
    for v in [VariantKind::International, VariantKind::Frisian] {
        let g = start(v);
        let mut e = Engine::new();
        let a = e.search_blocking(&g, depth(9), Mode::Think);
        e.clear();
        let b = e.search_blocking(&g, depth(9), Mode::Think);
        let mut fresh = Engine::new();
        let c = fresh.search_blocking(&g, depth(9), Mode::Think);
        assert_eq!(a.best, b.best);
        assert_eq!(summary(&a.infos), summary(&b.infos));
        assert_eq!(summary(&a.infos), summary(&c.infos));
        assert!(g.legal_moves().contains(&a.best.unwrap()));
    }
}

#[test]
fn node_limit_is_deterministic() {
    let g = start(VariantKind::International);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let a = Engine::new().search_blocking(&g, limits.clone(), Mode::Think);
    let b = Engine::new().search_blocking(&g, limits, Mode::Think);
    assert_eq!(a.best, b.best);
    assert_eq!(summary(&a.infos), summary(&b.infos));
}

#[test]
fn stop_during_infinite_search_answers_quickly() {
    for (v, mode) in [
        (VariantKind::International, Mode::Analyze),
        (VariantKind::Frisian, Mode::Think),
        (VariantKind::International, Mode::Ponder),
    ] {
        let g = start(v);
        let mut e = Engine::new();
        e.set_threads(2);
        let (tx, rx) = channel();
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let h = e.start(&g, limits, mode, tx);
        std::thread::sleep(Duration::from_millis(300));
        still_searching(&rx, "infinite search");
        let t0 = Instant::now();
        h.stop();
        let (best, after_stop, _) = drain(rx, t0);
        h.join();
        assert!(g.legal_moves().contains(&best.unwrap()));
        assert!(after_stop < PROMPT, "{after_stop:?}");
    }
}

#[test]
fn ponder_waits_for_ponder_hit_then_obeys_the_clock() {
    let g = start(VariantKind::International);
    let mut e = Engine::new();
    let (tx, rx) = channel();
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let h = e.start(&g, limits, Mode::Ponder, tx);
    std::thread::sleep(Duration::from_millis(200));
    // The depth is long reached, but a ponder search does not end itself.
    still_searching(&rx, "ponder at depth 3");
    let t0 = Instant::now();
    h.ponder_hit();
    let (best, t, _) = drain(rx, t0);
    h.join();
    assert!(best.is_some());
    assert!(t < PROMPT, "{t:?}");

    // Clock time only runs from ponder-hit.
    let (tx, rx) = channel();
    let limits = Limits {
        move_time: Some(0.2),
        ..Limits::default()
    };
    let h = e.start(&g, limits, Mode::Ponder, tx);
    std::thread::sleep(Duration::from_millis(400));
    still_searching(&rx, "ponder with a move time");
    let t0 = Instant::now();
    h.ponder_hit();
    let (best, t, _) = drain(rx, t0);
    h.join();
    assert!(best.is_some());
    // Had the 0.2 s run while pondering (0.4 s), the answer would come at
    // once; a busy machine can only make it later, so half is a safe floor.
    assert!(t >= Duration::from_millis(100) && t < PROMPT, "{t:?}");
}

#[test]
fn move_time_is_kept() {
    let g = start(VariantKind::Frisian);
    let mut e = Engine::new();
    let (tx, rx) = channel();
    let t0 = Instant::now();
    let limits = Limits {
        move_time: Some(0.3),
        ..Limits::default()
    };
    let h = e.start(&g, limits, Mode::Think, tx);
    let (best, t, infos) = drain(rx, t0);
    h.join();
    assert!(best.is_some() && !infos.is_empty());
    // A fixed move time is used in full, so at least half of it has passed
    // however fast the machine; the upper bound only catches a lost clock.
    assert!(t >= Duration::from_millis(150) && t < PROMPT, "{t:?}");
}

#[test]
fn no_time_left_moves_at_once() {
    let g = start(VariantKind::International);
    let mut e = Engine::new();
    for time in [0.0, -1.5] {
        let (tx, rx) = channel();
        let t0 = Instant::now();
        let limits = Limits {
            time: Some(time),
            ..Limits::default()
        };
        let h = e.start(&g, limits, Mode::Think, tx);
        let (best, t, infos) = drain(rx, t0);
        h.join();
        assert!(best.is_some());
        // No time: one iteration, then the answer.
        assert_eq!(deepest(&infos), 1, "time {time}");
        assert!(t < PROMPT, "{t:?}");
    }
}

#[test]
fn clock_budget_is_a_fraction_of_the_clock() {
    let g = start(VariantKind::International);
    let mut e = Engine::new();
    let (tx, rx) = channel();
    let t0 = Instant::now();
    let limits = Limits {
        time: Some(20.0),
        inc: 0.0,
        ..Limits::default()
    };
    let h = e.start(&g, limits, Mode::Think, tx);
    let (best, t, _) = drain(rx, t0);
    h.join();
    assert!(best.is_some());
    // A sudden-death game is long: the first move gets a small share of the
    // clock (about 1/35), far less than half of it, but not nothing.
    assert!(
        t >= Duration::from_millis(100) && t < Duration::from_secs(10),
        "{t:?}"
    );
}

#[test]
fn single_legal_move_is_played_at_once_when_thinking() {
    // Black must capture 19x28 (the only legal move).
    let g = game(VariantKind::International, "B:W23,45:B19,5");
    assert_eq!(g.legal_moves().len(), 1);
    let mut e = Engine::new();
    let (tx, rx) = channel();
    let t0 = Instant::now();
    let limits = Limits {
        time: Some(1000.0),
        ..Limits::default()
    };
    let h = e.start(&g, limits, Mode::Think, tx);
    let (best, t, infos) = drain(rx, t0);
    h.join();
    assert_eq!(best, g.legal_moves().iter().next().copied());
    // One iteration, and far less than the ~28 s this clock would allow.
    assert!(deepest(&infos) <= 1, "{infos:?}");
    assert!(t < PROMPT, "{t:?}");
}

#[test]
fn no_legal_move_gives_done_without_move() {
    // White's only man is blocked: White has lost.
    let g = game(VariantKind::International, "W:W46:B41,37");
    assert!(g.legal_moves().is_empty());
    let mut e = Engine::new();
    for mode in [Mode::Think, Mode::Analyze] {
        let (tx, rx) = channel();
        let h = e.start(&g, depth(5), mode, tx);
        let (best, _, _) = drain(rx, Instant::now());
        h.join();
        assert_eq!(best, None);
    }
}

#[test]
fn table_resize_and_clear_keep_the_engine_working() {
    let g = start(VariantKind::Frisian);
    let mut e = Engine::new();
    for (log2, want) in [(16, 16), (12, 16), (18, 18), (22, 22)] {
        e.set_tt_size(log2);
        assert_eq!(e.tt_size(), want);
        let o = e.search_blocking(&g, depth(6), Mode::Think);
        assert!(g.legal_moves().contains(&o.best.unwrap()));
        e.clear();
    }
}

#[test]
fn every_mode_sends_exactly_one_done() {
    let g = start(VariantKind::International);
    let mut e = Engine::new();
    e.set_threads(3);
    for mode in [Mode::Think, Mode::Analyze] {
        for limits in [
            depth(4),
            Limits {
                nodes: Some(5000),
                ..Limits::default()
            },
            Limits {
                move_time: Some(0.05),
                ..Limits::default()
            },
        ] {
            let (tx, rx) = channel();
            let h = e.start(&g, limits, mode, tx);
            let (best, _, infos) = drain(rx, Instant::now());
            h.join();
            assert!(best.is_some() && !infos.is_empty());
        }
    }
}

#[test]
fn pv_is_legal_and_starts_with_the_best_move() {
    for v in [VariantKind::International, VariantKind::Frisian] {
        let g = start(v);
        let o = Engine::new().search_blocking(&g, depth(8), Mode::Think);
        for info in &o.infos {
            let mut gg = g.clone();
            for mv in &info.pv {
                assert!(gg.legal_moves().contains(mv));
                gg.play(mv);
            }
        }
        assert_eq!(o.last().unwrap().pv.first(), o.best.as_ref());
    }
}

#[test]
fn a_new_best_move_is_reported_before_its_iteration_ends() {
    // Reports come in iteration order; a report followed by another of the
    // same depth is a new best move found during that iteration, so it must
    // differ from the move reported before it. Across these searches at least one such
    // mid-iteration report must occur.
    let mut mid_iteration = 0;
    let evals = [
        EvalChoice::default(),
        EvalChoice {
            classic: true,
            file: None,
        },
    ];
    for ((v, f), eval) in [
        (VariantKind::International, "W:W31-50:B1-20"),
        (VariantKind::Frisian, "W:W31-50:B1-20"),
        (VariantKind::International, "B:W31-50:B1-20"),
        (VariantKind::Frisian, "B:W31-50:B1-20"),
    ]
    .into_iter()
    .flat_map(|p| evals.iter().map(move |e| (p, e)))
    {
        let g = game(v, f);
        let mut e = Engine::new();
        e.set_eval_choice(eval).unwrap();
        let out = e.search_blocking(&g, depth(12), Mode::Think);
        let infos = &out.infos;
        for i in 1..infos.len() {
            assert!(infos[i - 1].depth <= infos[i].depth, "depths go down: {f}");
            // infos[i] is mid-iteration when the next report has its depth.
            if i + 1 < infos.len() && infos[i].depth == infos[i + 1].depth {
                assert_ne!(infos[i].pv.first(), infos[i - 1].pv.first(), "{f}");
                mid_iteration += 1;
            }
        }
    }
    assert!(
        mid_iteration > 0,
        "no new best move was reported mid-iteration"
    );
}
