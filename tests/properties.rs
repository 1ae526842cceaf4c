//! Properties checked along random playouts (deterministic PRNG), for
//! International, Frisian and FrisianSeed, from the start position and from
//! some of the spec test positions; plus fixed cases of lenient move parsing.

mod common;

use common::positions;
use molkwar::arena::rng::Rng;
use molkwar::board::fen::{parse_fen, parse_hub, to_fen, to_hub};
use molkwar::board::notation::{parse_move, to_pdn};
use molkwar::board::{MoveError, Restriction, movegen};
use molkwar::game::{Game, Outcome};
use molkwar::variant::{Frisian, FrisianSeed, International, Variant, VariantKind};
use molkwar::{Color, Move, Position};
use std::collections::HashSet;

/// Hub strings of the start positions used for playouts (by entry id).
fn start_hubs() -> Vec<(String, String)> {
    let mut out = vec![(
        "start".to_string(),
        "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww".to_string(),
    )];
    let wanted = ["I33", "I34", "I36", "I38", "I12", "F25", "F28", "F17"];
    for file in ["international.txt", "frisian.txt"] {
        for e in positions(file) {
            if wanted.contains(&e.id()) {
                out.push((e.id().to_string(), e.req("hub").to_string()));
            }
        }
    }
    assert_eq!(out.len(), wanted.len() + 1, "playout start positions");
    out
}

/// The §6 restriction state of one side as docs/rules.md defines it:
/// (square of the tracked king or 0, consecutive quiet moves).
type Track = (u32, u8);

/// docs/rules.md §6: the state of both sides after `mv` (played in `before`,
/// giving `after`), from the state before.
fn model_restriction(before: &Position, mv: &Move, after: &Position, st: [Track; 2]) -> [Track; 2] {
    let s = before.side();
    let o = s.other();
    let has_man = |c: Color| after.pieces(c) & !after.kings() != 0;
    let mut next = st;
    let (ks, ns) = st[s.index()];
    next[s.index()] = if has_man(s) && !mv.is_capture() && before.is_king_move(mv) {
        if ns > 0 && mv.from().number() == ks {
            (mv.to().number(), ns + 1)
        } else {
            (mv.to().number(), 1)
        }
    } else {
        (0, 0)
    };
    let (ko, no) = st[o.index()];
    let captured_tracked =
        ko != 0 && mv.captured() & molkwar::Square::from_number(ko).unwrap().mask() != 0;
    next[o.index()] = if no > 0 && !captured_tracked && has_man(o) {
        (ko, no)
    } else {
        (0, 0)
    };
    next
}

fn track_of(r: Restriction) -> Track {
    (r.king().map_or(0, |k| k.number()), r.count())
}

/// How often the playouts met the situations the checks are about.
#[derive(Default, Debug)]
struct Stats {
    positions: usize,
    captures: usize,
    restricted: usize,
    ambiguous: usize,
    losses: usize,
    draws: usize,
}

/// Checks everything about one position; `errs` collects the problems.
fn check_position<V: Variant>(
    pos: &Position,
    game: &Game,
    where_: &str,
    errs: &mut Vec<String>,
    stats: &mut Stats,
) {
    stats.positions += 1;
    let mut err = |m: String| errs.push(format!("{where_} [{}]: {m}", to_hub(pos)));
    if pos.key() != pos.compute_key() {
        err(format!(
            "key {:#x} != compute_key {:#x}",
            pos.key(),
            pos.compute_key()
        ));
    }
    // Hub and FEN round trips (pieces and side; the restriction state is
    // not part of either string).
    let hub = to_hub(pos);
    match parse_hub(&hub) {
        Ok(p) => {
            if to_hub(&p) != hub {
                err(format!("hub round trip gives {}", to_hub(&p)));
            }
            if p.key() != p.compute_key() {
                err("parsed hub position has a stale key".into());
            }
            let plain = pos.restriction(Color::White) == Restriction::NONE
                && pos.restriction(Color::Black) == Restriction::NONE;
            if plain && p != *pos {
                err("parse_hub(to_hub(p)) != p (no restriction state)".into());
            }
        }
        Err(e) => err(format!("own hub string refused: {e}")),
    }
    let fen = to_fen(pos);
    match parse_fen(&fen) {
        Ok(p) if to_hub(&p) == hub => {}
        Ok(p) => err(format!("fen {fen} parses to {}", to_hub(&p))),
        Err(e) => err(format!("own fen {fen} refused: {e}")),
    }

    let legal = movegen::legal_moves::<V>(pos);
    if legal.overflowed() {
        err("move list overflowed".into());
    }
    let n = movegen::count::<V>(pos);
    if n != legal.len() {
        err(format!("count {n} != legal_moves().len() {}", legal.len()));
    }
    if movegen::has_move::<V>(pos) == legal.is_empty() {
        err(format!(
            "has_move disagrees with {} legal moves",
            legal.len()
        ));
    }
    let set: HashSet<Move> = legal.iter().copied().collect();
    if set.len() != legal.len() {
        err(format!("duplicate moves in {legal:?}"));
    }
    let any_capture = legal.iter().any(Move::is_capture);
    if any_capture && legal.iter().any(|m| !m.is_capture()) {
        err(format!("captures and quiet moves mixed: {legal:?}"));
    }
    if any_capture != movegen::has_capture::<V>(pos) {
        err(format!("has_capture() disagrees with {legal:?}"));
    }
    // The §6 restriction: a king with three quiet moves has no quiet move.
    let r = pos.restriction(pos.side());
    if r.count() >= 3 {
        stats.restricted += 1;
        let k = r.king().unwrap();
        if let Some(m) = legal.iter().find(|m| m.from() == k && !m.is_capture()) {
            err(format!("restricted king {k} may still play {m}"));
        }
    }
    if V::KIND == VariantKind::International
        && (pos.restriction(Color::White) != Restriction::NONE
            || pos.restriction(Color::Black) != Restriction::NONE)
    {
        err("International position carries a king restriction".into());
    }

    for mv in &legal {
        let text = mv.to_string();
        // Display: Hub notation, captured squares ascending.
        let caps: Vec<u32> = molkwar::board::squares(mv.captured())
            .map(|s| s.number())
            .collect();
        let want = if mv.is_capture() {
            let mut s = format!("{}x{}", mv.from().number(), mv.to().number());
            for c in &caps {
                s.push_str(&format!("x{c}"));
            }
            s
        } else {
            format!("{}-{}", mv.from().number(), mv.to().number())
        };
        if text != want || caps.windows(2).any(|w| w[0] >= w[1]) {
            err(format!("Display gives {text}, expected {want}"));
        }
        match parse_move(pos, &legal, &text) {
            Ok(m) if m == *mv => {}
            other => err(format!("parse_move({text}) = {other:?}")),
        }
        let pdn = to_pdn(mv, &legal);
        match parse_move(pos, &legal, &pdn) {
            Ok(m) if m == *mv => {}
            other => err(format!("pdn {pdn} of {text} re-parses to {other:?}")),
        }
        if mv.is_capture() {
            // Captured squares in descending order: still the same move.
            let mut rev = format!("{}x{}", mv.from(), mv.to());
            for c in caps.iter().rev() {
                rev.push_str(&format!("x{c}"));
            }
            match parse_move(pos, &legal, &rev) {
                Ok(m) if m == *mv => {}
                other => err(format!("parse_move({rev}) = {other:?}")),
            }
            // Only from and to: unique unless another capture shares them.
            let short = format!("{}x{}", mv.from(), mv.to());
            let twins = legal
                .iter()
                .filter(|m| m.from() == mv.from() && m.to() == mv.to())
                .count();
            stats.captures += 1;
            if twins > 1 {
                stats.ambiguous += 1;
            }
            match (twins, parse_move(pos, &legal, &short)) {
                (1, Ok(m)) if m == *mv => {}
                (t, Err(MoveError::Ambiguous(_))) if t > 1 => {}
                (t, other) => err(format!(
                    "parse_move({short}) with {t} candidate(s) = {other:?}"
                )),
            }
        }
    }

    let outcome = game.outcome();
    if (outcome == Outcome::Loss) != legal.is_empty() {
        err(format!(
            "outcome {outcome:?} with {} legal moves",
            legal.len()
        ));
    }
    if game.legal_moves().as_slice() != legal.as_slice() {
        err("Game::legal_moves differs from movegen::legal_moves".into());
    }
}

/// Plays `games` random games from `start`; returns the problems found.
fn playouts<V: Variant>(
    label: &str,
    start: &Position,
    games: usize,
    seed: u64,
    stats: &mut Stats,
) -> Vec<String> {
    const MAX_PLIES: usize = 250;
    let mut errs = Vec::new();
    let mut rng = Rng::new(seed);
    for g in 0..games {
        let mut game = Game::new(V::KIND, *start);
        let mut pos = *start;
        let mut track: [Track; 2] = [
            track_of(pos.restriction(Color::White)),
            track_of(pos.restriction(Color::Black)),
        ];
        for ply in 0..MAX_PLIES {
            let where_ = format!("{} {label} game {g} ply {ply}", V::KIND);
            let before = errs.len();
            check_position::<V>(&pos, &game, &where_, &mut errs, stats);
            if V::KING_RESTRICTION {
                let got = [
                    track_of(pos.restriction(Color::White)),
                    track_of(pos.restriction(Color::Black)),
                ];
                if got != track {
                    errs.push(format!(
                        "{where_} [{}]: restriction state {got:?}, docs/rules.md §6 gives {track:?} (moves {})",
                        to_hub(&pos),
                        game.moves()
                            .iter()
                            .map(|m| m.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    ));
                    track = got;
                }
            }
            if errs.len() > before + 20 || errs.len() > 200 {
                return errs;
            }
            match game.outcome() {
                Outcome::Ongoing => {}
                Outcome::Loss => {
                    stats.losses += 1;
                    break;
                }
                Outcome::Draw(_) => {
                    stats.draws += 1;
                    break;
                }
            }
            let legal = game.legal_moves();
            let mv = legal.as_slice()[rng.below(legal.len())];
            let next = pos.play::<V>(&mv);
            game.play(&mv);
            if *game.position() != next {
                errs.push(format!(
                    "{where_}: Game::play and Position::play differ after {mv}"
                ));
            }
            if V::KING_RESTRICTION {
                track = model_restriction(&pos, &mv, &next, track);
            }
            pos = next;
        }
    }
    errs
}

fn run_variant<V: Variant>(seed: u64) -> Stats {
    let mut errs = Vec::new();
    let mut stats = Stats::default();
    for (i, (label, hub)) in start_hubs().iter().enumerate() {
        let start = parse_hub(hub).unwrap();
        let games = if label == "start" { 200 } else { 30 };
        errs.extend(playouts::<V>(
            label,
            &start,
            games,
            seed + i as u64,
            &mut stats,
        ));
    }
    eprintln!("{}: {stats:?}", V::KIND);
    assert!(
        errs.is_empty(),
        "{} problem(s) in {} playouts:\n{}",
        errs.len(),
        V::KIND,
        errs.join("\n")
    );
    // The playouts reach what they are meant to check.
    assert!(stats.positions > 10_000 && stats.captures > 1_000 && stats.losses > 50);
    stats
}

#[test]
fn playouts_international() {
    run_variant::<International>(0x1111);
}

#[test]
fn playouts_frisian() {
    let stats = run_variant::<Frisian>(0x2222);
    assert!(stats.restricted > 0, "no restricted king met: {stats:?}");
}

#[test]
fn playouts_frisian_seed() {
    let stats = run_variant::<FrisianSeed>(0x3333);
    assert!(stats.restricted > 0, "no restricted king met: {stats:?}");
}

// ---------------------------------------------------------------------
// Lenient move parsing (docs/rules.md §9.1, §9.2) on fixed positions.

/// The legal moves of a spec position, and the one whose Hub text is `hub`.
fn setup<V: Variant>(fen: &str) -> (Position, molkwar::MoveList) {
    let pos = parse_fen(fen).unwrap();
    let legal = movegen::legal_moves::<V>(&pos);
    (pos, legal)
}

fn expect_ok<V: Variant>(fen: &str, input: &str, hub: &str, errs: &mut Vec<String>) {
    let (pos, legal) = setup::<V>(fen);
    match parse_move(&pos, &legal, input) {
        Ok(m) if m.to_string() == hub => {}
        other => errs.push(format!(
            "{fen}: '{input}' should read as {hub}, got {other:?}"
        )),
    }
}

fn expect_err<V: Variant>(fen: &str, input: &str, want: &str, errs: &mut Vec<String>) {
    let (pos, legal) = setup::<V>(fen);
    let got = parse_move(&pos, &legal, input);
    let ok = matches!(
        (&got, want),
        (Err(MoveError::Ambiguous(_)), "ambiguous")
            | (Err(MoveError::Illegal(_)), "illegal")
            | (Err(MoveError::Syntax(_)), "syntax")
    );
    if !ok {
        errs.push(format!("{fen}: '{input}' should be {want}, got {got:?}"));
    }
}

#[test]
fn lenient_move_parsing() {
    let mut e = Vec::new();
    // I33 (Random178): the black king's 14-piece capture to 12.
    let i33 = "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24";
    let full = "24x12x9x10x11x20x21x22x23x30x31x33x41x42x43x44";
    expect_ok::<International>(i33, full, full, &mut e);
    // Captured squares in any order.
    expect_ok::<International>(
        i33,
        "24x12x44x43x42x41x33x31x30x23x22x21x20x11x10x9",
        full,
        &mut e,
    );
    expect_ok::<International>(
        i33,
        "24x12x30x9x44x21x10x43x11x42x20x41x22x33x23x31",
        full,
        &mut e,
    );
    // A subset of the captured squares, and none at all.
    expect_ok::<International>(i33, "24x12x31", full, &mut e);
    expect_ok::<International>(i33, "24x12", full, &mut e);
    expect_ok::<International>(i33, "24x24", &full.replacen("24x12", "24x24", 1), &mut e);
    // I07: 28x19 is the only capture.
    expect_ok::<International>("W:W28,32:B23", "28x19", "28x19x23", &mut e);
    expect_ok::<International>("W:W28,32:B23", "28x19x23", "28x19x23", &mut e);
    // Landing-square path form (FMJD style). I11: 41x14 (19), 14x3 (9),
    // 3x21 (12), 21x43 (38), as the spec entry describes it.
    let i11 = "W:WK41,49:B9,10,12,19,38";
    expect_ok::<International>(i11, "41x14x3x21x43", "41x43x9x12x19x38", &mut e);
    expect_ok::<International>(i11, "41x43", "41x43x9x12x19x38", &mut e);
    // I09: the man 15 jumps 20 (to 24), 19 (to 13), 8 (to 2).
    expect_ok::<International>("W:W15:B8,19,20", "15x24x13x2", "15x2x8x19x20", &mut e);
    // Leading zeros are accepted on input (docs/rules.md §9.1). I04.
    expect_ok::<International>("W:W8:B", "08-02", "8-2", &mut e);
    expect_ok::<International>("W:W8:B", "8-3", "8-3", &mut e);
    // Frisian: F02 horizontal capture, F21 two captures by the same man.
    expect_ok::<Frisian>("W:W28:B27", "28x26", "28x26x27", &mut e);
    expect_ok::<Frisian>("W:W13:B3,7,8", "13x4", "13x4x3x8", &mut e);
    expect_ok::<Frisian>("W:W13:B3,7,8", "13x11x8", "13x11x7x8", &mut e);

    // Illegal moves.
    expect_err::<International>("W:W28,32:B23", "32-27", "illegal", &mut e); // capture is compulsory
    expect_err::<International>("W:W28,32:B23", "28x17", "illegal", &mut e);
    expect_err::<International>("W:W28,32:B23", "28x19x22", "illegal", &mut e); // 22 not captured
    expect_err::<International>("W:W28,32:B23", "32x23x28", "illegal", &mut e);
    expect_err::<International>("W:W31-50:B1-20", "31-25", "illegal", &mut e);
    expect_err::<International>("W:W31-50:B1-20", "31-36", "illegal", &mut e); // backwards
    expect_err::<International>("W:W31-50:B1-20", "20-25", "illegal", &mut e); // not White's man
    expect_err::<International>(i33, "24x12x32", "illegal", &mut e);
    // Syntax errors.
    expect_err::<International>("W:W31-50:B1-20", "hello", "syntax", &mut e);
    expect_err::<International>("W:W31-50:B1-20", "32", "syntax", &mut e);
    expect_err::<International>("W:W31-50:B1-20", "32-51", "syntax", &mut e);
    expect_err::<International>("W:W31-50:B1-20", "32-28-23", "syntax", &mut e);

    // Two captures sharing from and to. White king on 3, black men 12, 14,
    // 24, 30 (worked out by hand from docs/rules.md §4.3, §5.2, §5.6): the king
    // takes 14 (landing 20 or 25), then 24 from 20 (landing 29) or 30 from
    // 25 (landing 34), then 12 along the 29/34 diagonal landing on 7 or 1;
    // taking 12 first gives only one piece. The maximum is 3 pieces and the
    // legal moves are exactly 3x1 and 3x7 with {12,14,24} or {12,14,30}.
    let amb = "W:WK3:B12,14,24,30";
    {
        let (_, legal) = setup::<International>(amb);
        let mut got: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
        got.sort();
        let want = [
            "3x1x12x14x24",
            "3x1x12x14x30",
            "3x7x12x14x24",
            "3x7x12x14x30",
        ];
        if got != want {
            e.push(format!(
                "{amb}: legal moves {got:?}, worked out by hand {want:?}"
            ));
        }
    }
    expect_err::<International>(amb, "3x1", "ambiguous", &mut e);
    expect_err::<International>(amb, "3x7x12", "ambiguous", &mut e);
    expect_err::<International>(amb, "3x7x14x12", "ambiguous", &mut e);
    expect_ok::<International>(amb, "3x1x24", "3x1x12x14x24", &mut e);
    expect_ok::<International>(amb, "3x7x30", "3x7x12x14x30", &mut e);
    expect_ok::<International>(amb, "3x1x30x12x14", "3x1x12x14x30", &mut e);
    expect_err::<International>(amb, "3x1x24x30", "illegal", &mut e);
    // The FMJD landing-square form names the route and so the move
    // (docs/rules.md §9.1: write the intermediate landing squares).
    expect_ok::<International>(amb, "3x20x29x1", "3x1x12x14x24", &mut e);
    expect_ok::<International>(amb, "3x25x34x7", "3x7x12x14x30", &mut e);
    // PDN notation disambiguates with the captured squares that differ.
    {
        let (pos, legal) = setup::<International>(amb);
        for mv in &legal {
            let pdn = to_pdn(mv, &legal);
            if pdn == format!("{}x{}", mv.from(), mv.to()) {
                e.push(format!("{amb}: to_pdn({mv}) = {pdn} is ambiguous"));
            }
            match parse_move(&pos, &legal, &pdn) {
                Ok(m) if m == *mv => {}
                other => e.push(format!("{amb}: pdn {pdn} re-parses to {other:?}")),
            }
        }
    }
    // The game-level reader plays nothing when one move of a list is bad.
    {
        let mut g = Game::new(
            VariantKind::International,
            parse_fen("W:W31-50:B1-20").unwrap(),
        );
        let before = to_hub(g.position());
        match g.play_all("32-28 19-23 28x19 31-25") {
            Err(MoveError::Illegal(_)) => {}
            other => e.push(format!("play_all with an illegal 4th move: {other:?}")),
        }
        if to_hub(g.position()) != before || !g.moves().is_empty() {
            e.push("play_all changed the game although a move was illegal".into());
        }
    }
    assert!(
        e.is_empty(),
        "{} parsing problem(s):\n{}",
        e.len(),
        e.join("\n")
    );
}
