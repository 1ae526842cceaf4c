//! Strength levels (`Limits::skill`): a level caps the nodes after its
//! first iteration, plays one of its best lines, varies with the seed,
//! never plays a line far below the best, and leaves analysis and full
//! strength alone.

use molkwar::board::fen;
use molkwar::game::Game;
use molkwar::search::skill::{FULL, Skill};
use molkwar::search::{Engine, Limits, Mode, Outcome};
use molkwar::variant::VariantKind;
use std::collections::HashSet;

/// White to move with five moves; 28-23 gives a man away (19x28).
const BLUNDER: &str = "W:W28,46,47:B12,19";
const START: &str = "W:W31-50:B1-20";

fn search(f: &str, limits: Limits, mode: Mode) -> Outcome {
    let game = Game::new(VariantKind::International, fen::parse_fen(f).unwrap());
    Engine::new().search_blocking(&game, limits, mode)
}

fn at(level: u8, seed: u64) -> Limits {
    Limits {
        skill: Some(Skill { level, seed }),
        ..Limits::default()
    }
}

#[test]
fn a_level_caps_the_nodes_and_searches_its_lines() {
    for level in [1, 4] {
        let cap = Skill { level, seed: 0 }.node_cap().unwrap();
        let out = search(START, at(level, 5), Mode::Think);
        // Depth 1 is exempt from the cap and always has its four lines.
        assert!(
            out.infos.iter().any(|i| i.depth == 1 && i.line == 4),
            "level {level}: four lines"
        );
        let first = out.infos.iter().filter(|i| i.depth == 1);
        let first = first.map(|i| i.nodes).max().unwrap();
        for i in out.infos.iter().filter(|i| i.depth > 1) {
            assert!(
                i.nodes <= cap,
                "level {level}: {} nodes, cap {cap}",
                i.nodes
            );
        }
        if first < cap {
            assert!(out.infos.iter().any(|i| i.depth > 1), "level {level}");
        }
        let best = out.best.unwrap();
        assert!(out.infos.iter().any(|i| i.pv.first() == Some(&best)));
    }
}

#[test]
fn low_levels_vary_and_high_levels_keep_the_man() {
    let moves = |f: &str, level: u8| -> HashSet<String> {
        (0..24)
            .map(|seed| {
                search(f, at(level, seed), Mode::Think)
                    .best
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    let low = moves(START, 1);
    assert!(low.len() >= 3, "level 1 from the start: {low:?}");
    for level in [5, 9] {
        let played = moves(BLUNDER, level);
        assert!(!played.contains("28-23"), "level {level}: {played:?}");
    }
    // The same seed, the same move.
    let a = search(START, at(2, 9), Mode::Think).best;
    assert_eq!(a, search(START, at(2, 9), Mode::Think).best);
}

#[test]
fn analysis_and_full_strength_ignore_the_level() {
    let depth = |skill| Limits {
        depth: Some(5),
        skill,
        ..Limits::default()
    };
    let plain = search(BLUNDER, depth(None), Mode::Think);
    let full = search(
        BLUNDER,
        depth(Some(Skill {
            level: FULL,
            seed: 3,
        })),
        Mode::Think,
    );
    let lines = |o: &Outcome| -> Vec<_> {
        o.infos
            .iter()
            .map(|i| (i.depth, i.score, i.nodes, i.pv.clone(), i.line))
            .collect()
    };
    assert_eq!(lines(&plain), lines(&full));
    assert_eq!(plain.best, full.best);
    let analysed = search(
        BLUNDER,
        depth(Some(Skill { level: 1, seed: 3 })),
        Mode::Analyze,
    );
    assert!(analysed.infos.iter().all(|i| i.line == 1));
    assert_eq!(analysed.best, plain.best);
}
