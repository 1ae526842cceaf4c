//! Tactical shots in both variants: a man sacrifice forces a capture that
//! opens a bigger capture (or a break-through) for the side to move. Each
//! position has exactly one winning move; every other move scores about
//! even. Found by a sweep over random positions and checked by hand
//! (the line after the key move is given).

use molkwar::board::fen;
use molkwar::game::Game;
use molkwar::search::{Engine, Limits, Mode};
use molkwar::variant::VariantKind;

/// (variant, position, key move, the forced line that follows).
const SHOTS: &[(VariantKind, &str, &str, &str)] = &[
    (
        VariantKind::International,
        "W:W28,29,33,39,43,50:B2,6,7,18,19,20",
        "28-23",
        "19x28 33x13",
    ),
    (
        VariantKind::International,
        "W:W25,27,33,34,38,42,49:B1,8,11,12,15,23,24",
        "33-29",
        "24x33 38x16",
    ),
    (
        VariantKind::International,
        "W:W21,25,26,27,35,39,44:B5,6,8,19,23,28,29",
        "27-22",
        "28x17 21x3",
    ),
    (
        VariantKind::International,
        "W:W24,28,29,30,32,44,50:B3,11,12,13,14,21,26",
        "24-20",
        "14x23 28x6",
    ),
    (
        VariantKind::Frisian,
        "W:W36,39,41,42,43,46,48:B2,12,16,24,25,27,28",
        "39-33",
        "28x39 43x14",
    ),
    (
        VariantKind::Frisian,
        "W:W28,29,30,31,33,37,38,39,44,48:B5,9,12,13,14,15,16,17,19,26",
        "28-23",
        "19x28 38x27",
    ),
    (
        VariantKind::Frisian,
        "W:W29,31,32,33,35,37,42,50:B3,9,10,12,16,18,20,22",
        "31-27",
        "22x31 37x6",
    ),
    (
        VariantKind::Frisian,
        "W:W26,35,41,42,44,49:B4,9,11,14,22,28",
        "26-21",
        "11x31 41x32",
    ),
];

#[test]
fn shots_are_found() {
    let mut engine = Engine::new();
    for (variant, f, key, line) in SHOTS {
        let mut g = Game::new(*variant, fen::parse_fen(f).unwrap());
        engine.clear();
        let o = engine.search_blocking(
            &g,
            Limits {
                depth: Some(8),
                ..Limits::default()
            },
            Mode::Analyze,
        );
        let best = o.best.unwrap().to_string();
        assert_eq!(&best, key, "{variant} {f}");
        let score = o.last().unwrap().score;
        assert!(score >= 100, "{f}: {score}");
        // The line is forced and legal (checks the data, and the notation).
        g.play_all(&format!("{key} {line}")).unwrap();
    }
}

/// Quiescence sees an exchange offer one ply past the horizon
/// (docs/search.md, "Quiescence"): in the first shot with Black to move,
/// a 1-ply search answers the quiet 6-11 with White's shot 28-23, and the
/// line scores the man Black loses; 19-24, which moves the man the shot
/// needs, keeps the balance.
#[test]
fn exchange_offers_reach_past_the_horizon() {
    let g = Game::new(
        VariantKind::International,
        fen::parse_fen("B:W28,29,33,39,43,50:B2,6,7,18,19,20").unwrap(),
    );
    let mut engine = Engine::new();
    let o = engine.search_blocking(
        &g,
        Limits {
            depth: Some(1),
            multipv: 20,
            ..Limits::default()
        },
        Mode::Analyze,
    );
    let lines = o.lines();
    let line = |first: &str| {
        lines
            .iter()
            .find(|l| l.pv[0].to_string() == first)
            .unwrap_or_else(|| panic!("no line for {first}"))
    };
    let quiet = line("6-11");
    let pv: Vec<String> = quiet.pv.iter().map(|m| m.to_string()).collect();
    assert_eq!(pv.get(1).map(String::as_str), Some("28-23"), "{pv:?}");
    assert!(quiet.score <= -60, "6-11 scores {}", quiet.score);
    assert!(line("19-24").score >= quiet.score + 60);
}
