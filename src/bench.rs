//! `bench`: a fixed search over a fixed set of positions of both variants
//! (one thread, cleared table, fixed depth). The total node count is the
//! search's signature: it changes exactly when the search or the
//! evaluation changes behaviour.

use crate::board::fen;
use crate::eval::EvalChoice;
use crate::game::Game;
use crate::search::{Engine, Limits, Mode};
use crate::variant::VariantKind;
use std::time::Instant;

/// Default depth of `molkwar bench`.
pub const DEFAULT_DEPTH: u32 = 11;

/// The bench positions: variant, FEN, moves played from it. Openings are
/// written as moves from the start so they are legal by construction.
pub const POSITIONS: &[(VariantKind, &str, &str)] = &[
    (VariantKind::International, "W:W31-50:B1-20", ""),
    (
        VariantKind::International,
        "W:W31-50:B1-20",
        "32-28 19-23 28x19 14x23 37-32 10-14 41-37 5-10",
    ),
    (
        VariantKind::International,
        "W:W31-50:B1-20",
        "33-29 17-21 39-33 21-26 31-27 11-17 36-31 7-11 44-39 1-7",
    ),
    (
        VariantKind::International,
        "W:W25,27,28,30,32,33,34,35,37,38,39,40,42,43,44:B3,7,8,9,11,12,13,14,16,17,18,19,21,22,24",
        "",
    ),
    (
        VariantKind::International,
        "B:W26,29,31,33,36,38,39,43,44,48:B8,9,12,13,16,18,19,22,23,24",
        "",
    ),
    (
        VariantKind::International,
        "W:W31,32,38,39,43:B8,12,13,18,19",
        "",
    ),
    (VariantKind::International, "W:W28,33,K46:B9,14,K3", ""),
    (VariantKind::Frisian, "W:W31-50:B1-20", ""),
    (
        VariantKind::Frisian,
        "W:W31-50:B1-20",
        "32-28 19-23 28x19 14x23 37-32 10-14",
    ),
    (
        VariantKind::Frisian,
        "W:W25,27,28,30,32,33,34,35,37,38,39,40,42,43,44:B3,7,8,9,11,12,13,14,16,17,18,19,21,22,24",
        "",
    ),
    (
        VariantKind::Frisian,
        "B:W29,34,38,39,K47:B7,12,13,17,K4",
        "",
    ),
    (VariantKind::Frisian, "W:WK28,K33:BK3", ""),
];

/// The game of bench position `i`.
pub fn game(i: usize) -> Result<Game, String> {
    let (variant, f, moves) = POSITIONS.get(i).ok_or("no such bench position")?;
    let pos = fen::parse_fen(f).map_err(|e| format!("bench position {i}: {e}"))?;
    let mut g = Game::new(*variant, pos);
    g.play_all(moves)
        .map_err(|e| format!("bench position {i}: {e}"))?;
    Ok(g)
}

/// Searches every bench position to `depth` with one thread and a cleared
/// table of the default size (Analyze mode: no early answers); prints a
/// line per position and returns the total nodes and the search seconds
/// (table clearing excluded).
pub fn run(depth: u32, eval: &EvalChoice, mut out: impl FnMut(&str)) -> Result<(u64, f64), String> {
    let mut engine = Engine::new();
    engine.set_eval_choice(eval)?;
    engine.prefault();
    engine.set_threads(1);
    let mut total = 0;
    let mut searching = 0.0;
    let start = Instant::now();
    for i in 0..POSITIONS.len() {
        let g = game(i)?;
        engine.clear();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let t = Instant::now();
        let o = engine.search_blocking(&g, limits, Mode::Analyze);
        let secs = t.elapsed().as_secs_f64();
        searching += secs;
        let nodes = o.last().map_or(0, |inf| inf.nodes);
        total += nodes;
        out(&format!(
            "{:2} {:8} {:>7} score {:6} nodes {:10} time {:7.3} s",
            i + 1,
            g.variant().name(),
            o.best.map_or("-".to_string(), |m| m.to_string()),
            o.last().map_or(0, |inf| inf.score),
            nodes,
            secs
        ));
    }
    log::debug!("bench wall time {:.3} s", start.elapsed().as_secs_f64());
    Ok((total, searching))
}
