//! Multi-PV: the lines of an iteration start with distinct moves, cover
//! every legal move when asked for as many, come best first, and the best
//! line is the move played.

use molkwar::board::fen;
use molkwar::game::Game;
use molkwar::search::{Engine, Limits, Mode, Outcome};
use molkwar::variant::VariantKind;
use std::collections::HashSet;

/// White to move with five moves; 28-23 gives a man away (19x28).
const BLUNDER: &str = "W:W28,46,47:B12,19";

fn search(f: &str, variant: VariantKind, multipv: usize, threads: usize) -> Outcome {
    let game = Game::new(variant, fen::parse_fen(f).unwrap());
    let mut engine = Engine::new();
    engine.set_threads(threads);
    let limits = Limits {
        depth: Some(6),
        multipv,
        ..Limits::default()
    };
    engine.search_blocking(&game, limits, Mode::Think)
}

#[test]
fn lines_cover_the_legal_moves_best_first() {
    // More lines asked for than there are moves: one line per move.
    let out = search(BLUNDER, VariantKind::International, 8, 1);
    let lines = out.lines();
    assert_eq!(lines.len(), 5);
    let firsts: HashSet<String> = lines.iter().map(|l| l.pv[0].to_string()).collect();
    let legal: HashSet<String> = ["46-41", "47-41", "47-42", "28-22", "28-23"]
        .map(String::from)
        .into();
    assert_eq!(firsts, legal);
    for (k, l) in lines.iter().enumerate() {
        assert_eq!(l.line, k + 1);
        assert_eq!(l.depth, 6);
    }
    assert_eq!(out.best, Some(lines[0].pv[0]));
    let last = lines.last().unwrap();
    assert_eq!(last.pv[0].to_string(), "28-23");
    assert!(
        last.score <= lines[0].score - 100,
        "the man given away shows: {} against {}",
        last.score,
        lines[0].score
    );
}

#[test]
fn every_iteration_reports_every_line_in_order() {
    let out = search("W:W31-50:B1-20", VariantKind::International, 3, 1);
    // Per depth, lines 1, 2, 3 follow each other (a new best move found
    // within an iteration may add an earlier report of line 1).
    let mut expect = 1;
    for i in &out.infos {
        if i.line == 1 {
            expect = 2;
        } else {
            assert_eq!(i.line, expect, "line order at depth {}", i.depth);
            expect += 1;
        }
    }
    let lines = out.lines();
    assert_eq!(lines.len(), 3);
    let firsts: HashSet<_> = lines.iter().map(|l| l.pv[0]).collect();
    assert_eq!(firsts.len(), 3, "three distinct first moves");
}

#[test]
fn single_pv_is_one_line_and_multi_pv_is_deterministic() {
    let one = search(BLUNDER, VariantKind::International, 1, 1);
    assert_eq!(one.lines().len(), 1);
    assert!(one.infos.iter().all(|i| i.line == 1));
    let a = search("W:W31-50:B1-20", VariantKind::Frisian, 4, 1);
    let b = search("W:W31-50:B1-20", VariantKind::Frisian, 4, 1);
    let moves =
        |o: &Outcome| -> Vec<_> { o.lines().iter().map(|l| (l.pv.clone(), l.score)).collect() };
    assert_eq!(moves(&a), moves(&b));
    assert_eq!(a.lines().len(), 4);
}

#[test]
fn helper_threads_leave_the_lines_whole() {
    let out = search(BLUNDER, VariantKind::International, 5, 2);
    let lines = out.lines();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines.last().unwrap().pv[0].to_string(), "28-23");
}
