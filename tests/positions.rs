//! The test positions of the rules specification (rules/positions/*.txt,
//! copied verbatim to `tests/data/`), checked entry by entry: position
//! strings, moves played through `Game`, the position reached, the Frisian
//! king counters, the exact legal move set and count, the size/value of the
//! compulsory capture and the game result. Every failure of every entry is
//! collected and reported in one assertion message.

mod common;

use common::{Entry, positions};
use molkwar::board::fen::{parse_fen, parse_hub, to_fen, to_hub};
use molkwar::board::movegen;
use molkwar::game::{Game, Outcome};
use molkwar::variant::VariantKind;
use molkwar::{Color, Move, Position, with_variant};
use std::collections::BTreeSet;

/// Parses `W=41/3` style counters: (king square or 0, count).
fn parse_counter(s: &str, side: char) -> Option<(u32, u8)> {
    let tok = s
        .split_whitespace()
        .find(|t| t.starts_with(side) && t.as_bytes().get(1) == Some(&b'='))?;
    let (k, n) = tok[2..].split_once('/')?;
    Some((k.parse().ok()?, n.parse().ok()?))
}

/// What `expect-result` says.
#[derive(Debug, PartialEq)]
enum Expected {
    Loss,
    Draw { rule: String, ply: usize },
}

fn parse_result(s: &str) -> Option<Expected> {
    if s.starts_with("side to move has no legal move") {
        return Some(Expected::Loss);
    }
    let rest = s.strip_prefix("draw:")?;
    let (rule, after) = rest.split_once(" after ply ")?;
    let ply: String = after.chars().take_while(char::is_ascii_digit).collect();
    Some(Expected::Draw {
        rule: rule.trim().to_string(),
        ply: ply.parse().ok()?,
    })
}

/// The expected capture: (pieces, men, kings, by king?) or None for "none".
type CaptureSpec = Option<(u32, u32, u32, Option<bool>)>;

fn parse_max_capture(s: &str) -> Result<CaptureSpec, String> {
    if s.starts_with("none") {
        return Ok(None);
    }
    let nums: Vec<u32> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .take(3)
        .filter_map(|t| t.parse().ok())
        .collect();
    if nums.len() != 3 || !s.contains("piece(s)") {
        return Err(format!("cannot read expect-max-capture '{s}'"));
    }
    let by_king = if s.contains("captured with a king") {
        Some(true)
    } else if s.contains("captured with a man") {
        Some(false)
    } else {
        None
    };
    Ok(Some((nums[0], nums[1], nums[2], by_king)))
}

fn outcome_text(o: Outcome) -> String {
    match o {
        Outcome::Draw(r) => format!("Draw({})", r.name()),
        other => format!("{other:?}"),
    }
}

/// Checks one entry; returns its problems.
fn check_entry(variant: VariantKind, e: &Entry) -> Vec<String> {
    let mut errs = Vec::new();
    let hub = e.req("hub");
    let fen = e.req("fen");
    let pos_hub = parse_hub(hub);
    let pos_fen = parse_fen(fen);
    let start: Position = match (&pos_hub, &pos_fen) {
        (Ok(a), Ok(b)) => {
            if a != b {
                errs.push(format!(
                    "hub and fen give different positions: {a:?} vs {b:?}"
                ));
            }
            *a
        }
        (Err(x), _) => {
            errs.push(format!("hub '{hub}' refused: {x}"));
            return errs;
        }
        (_, Err(x)) => {
            errs.push(format!("fen '{fen}' refused: {x}"));
            return errs;
        }
    };
    if to_hub(&start) != hub {
        errs.push(format!("to_hub gives {} expected {hub}", to_hub(&start)));
    }
    if to_fen(&start) != fen {
        errs.push(format!("to_fen gives {} expected {fen}", to_fen(&start)));
    }

    // Play the moves, checking there is no verdict before the last ply.
    let expected_result = e.get("expect-result").map(|r| {
        parse_result(r).unwrap_or_else(|| panic!("{}: cannot read expect-result '{r}'", e.id()))
    });
    let moves = e.moves();
    let mut game = Game::new(variant, start);
    for (i, text) in moves.iter().enumerate() {
        let before = game.outcome();
        if before != Outcome::Ongoing {
            errs.push(format!(
                "before ply {} ({text}): outcome {} (no verdict expected before the last ply)",
                i + 1,
                outcome_text(before)
            ));
            break;
        }
        let legal = game.legal_moves();
        let Some(mv) = legal.iter().find(|m| m.to_string() == *text).copied() else {
            errs.push(format!(
                "ply {}: {text} is not among the legal moves {:?}",
                i + 1,
                legal
            ));
            return errs;
        };
        game.play(&mv);
        let after = game.outcome();
        let last = i + 1 == moves.len();
        if !last && after != Outcome::Ongoing {
            errs.push(format!(
                "after ply {} ({text}): outcome {} before the last ply {}",
                i + 1,
                outcome_text(after),
                moves.len()
            ));
        }
    }
    let pos = *game.position();

    if let Some(h) = e.get("hub-after")
        && to_hub(&pos) != h
    {
        errs.push(format!(
            "position after the moves: hub {} expected {h}",
            to_hub(&pos)
        ));
    }
    if let Some(f) = e.get("fen-after") {
        if to_fen(&pos) != f {
            errs.push(format!(
                "position after the moves: fen {} expected {f}",
                to_fen(&pos)
            ));
        }
        match parse_fen(f) {
            Ok(p) if to_hub(&p) == to_hub(&pos) => {}
            Ok(p) => errs.push(format!(
                "fen-after parses to {} not {}",
                to_hub(&p),
                to_hub(&pos)
            )),
            Err(x) => errs.push(format!("fen-after refused: {x}")),
        }
    }
    if let Some(kc) = e.get("king-counter-after") {
        for (side, color) in [('W', Color::White), ('B', Color::Black)] {
            let Some((sq, n)) = parse_counter(kc, side) else {
                panic!("{}: cannot read king-counter-after '{kc}'", e.id());
            };
            let r = pos.restriction(color);
            let got = (r.king().map_or(0, |k| k.number()), r.count());
            if got != (sq, n) {
                errs.push(format!(
                    "king counter of {side}: expected {sq}/{n} got {}/{}",
                    got.0, got.1
                ));
            }
        }
    }
    if pos.key() != pos.compute_key() {
        errs.push("incremental key differs from compute_key()".to_string());
    }

    // The legal moves.
    let legal = game.legal_moves();
    let got: Vec<String> = legal.iter().map(Move::to_string).collect();
    let got_set: BTreeSet<String> = got.iter().cloned().collect();
    let want: BTreeSet<String> = e.expect_moves().into_iter().collect();
    if got_set.len() != got.len() {
        errs.push(format!("legal move list has duplicates: {got:?}"));
    }
    if got_set != want {
        let missing: Vec<&String> = want.difference(&got_set).collect();
        let extra: Vec<&String> = got_set.difference(&want).collect();
        errs.push(format!("legal moves: missing {missing:?}, extra {extra:?}"));
    }
    let count = e.expect_count();
    if legal.len() != count {
        errs.push(format!("expect-count {count}, generated {}", legal.len()));
    }
    let bulk = with_variant!(variant, V => movegen::count::<V>(&pos));
    if bulk != count {
        errs.push(format!("expect-count {count}, movegen::count gives {bulk}"));
    }
    let has_capture = with_variant!(variant, V => movegen::has_capture::<V>(&pos));

    // The compulsory capture.
    match parse_max_capture(e.req("expect-max-capture")) {
        Err(x) => panic!("{}: {x}", e.id()),
        Ok(None) => {
            if has_capture || legal.iter().any(Move::is_capture) {
                errs.push("a capture is generated, the spec says none is available".to_string());
            }
        }
        Ok(Some((n, men, kings, by_king))) => {
            if !has_capture {
                errs.push("has_capture() is false but a capture is compulsory".to_string());
            }
            for mv in &legal {
                let c = mv.captured();
                let got = (
                    c.count_ones(),
                    (c & !pos.kings()).count_ones(),
                    (c & pos.kings()).count_ones(),
                );
                // International: only the number of pieces is prescribed
                // (majority rule, a king counts as one piece; the file's
                // men/kings split describes one of the maximal captures).
                // Frisian: the value rule fixes men and kings exactly.
                let mismatch = if variant.is_frisian() {
                    got != (n, men, kings)
                } else {
                    got.0 != n
                };
                if mismatch {
                    errs.push(format!(
                        "{mv} captures {} piece(s) ({} men, {} kings), expected {n} ({men} men, {kings} kings)",
                        got.0, got.1, got.2
                    ));
                }
                if let Some(k) = by_king
                    && pos.is_king_move(mv) != k
                {
                    errs.push(format!(
                        "{mv} is made by a {}, the spec says by a {}",
                        if k { "man" } else { "king" },
                        if k { "king" } else { "man" }
                    ));
                }
            }
        }
    }

    // The result.
    let outcome = game.outcome();
    let generator_only = e
        .get("note")
        .is_some_and(|n| n.contains("generator-only") || n.contains("only as a generator test"));
    match &expected_result {
        Some(Expected::Loss) => {
            if outcome != Outcome::Loss {
                errs.push(format!(
                    "result: expected Loss got {}",
                    outcome_text(outcome)
                ));
            }
        }
        Some(Expected::Draw { rule, ply }) => {
            if *ply != moves.len() {
                errs.push(format!(
                    "data: draw expected after ply {ply} but {} moves are given",
                    moves.len()
                ));
            }
            match outcome {
                Outcome::Draw(r) if r.name() == rule => {}
                other => errs.push(format!(
                    "result after ply {ply}: expected Draw({rule}) got {}",
                    outcome_text(other)
                )),
            }
        }
        None => {
            // No verdict in the file: the game goes on (the side to move has
            // moves and no draw rule applies). Generator-only entries (the
            // side not to move has no piece) are checked for consistency only.
            if !generator_only && outcome != Outcome::Ongoing {
                errs.push(format!(
                    "result: file gives none, engine says {}",
                    outcome_text(outcome)
                ));
            }
            if generator_only && (outcome == Outcome::Loss) != legal.is_empty() {
                errs.push(format!(
                    "result {} inconsistent with {} legal moves",
                    outcome_text(outcome),
                    legal.len()
                ));
            }
        }
    }
    errs
}

fn check_file(name: &str, variant: VariantKind, expected_entries: usize) {
    let text = common::read_data(name);
    let entries = positions(name);
    let ids = text.lines().filter(|l| l.starts_with("id:")).count();
    assert_eq!(entries.len(), ids, "{name}: every block must be one entry");
    assert_eq!(entries.len(), expected_entries, "{name}: number of entries");
    let mut report = Vec::new();
    for e in &entries {
        for err in check_entry(variant, e) {
            report.push(format!("{} {}: {err}", name, e.id()));
        }
    }
    assert!(
        report.is_empty(),
        "{} problem(s) in {name}:\n{}",
        report.len(),
        report.join("\n")
    );
}

#[test]
fn international_positions() {
    check_file("international.txt", VariantKind::International, 32);
}

#[test]
fn frisian_positions() {
    check_file("frisian.txt", VariantKind::Frisian, 27);
}

#[test]
fn readers_of_the_file_format() {
    assert_eq!(
        parse_counter("W=41/3 B=0/0  (square ...)", 'W'),
        Some((41, 3))
    );
    assert_eq!(
        parse_counter("W=41/3 B=0/0  (square ...)", 'B'),
        Some((0, 0))
    );
    assert_eq!(
        parse_result("draw:repetition after ply 8 (no earlier verdict: yes)"),
        Some(Expected::Draw {
            rule: "repetition".into(),
            ply: 8
        })
    );
    assert_eq!(
        parse_result("side to move has no legal move -> it loses"),
        Some(Expected::Loss)
    );
    assert_eq!(
        parse_max_capture(
            "2 piece(s) (1 man/men, 1 king(s)), Frisian value = 1*64 + 1*126 = 190 (Scan units), captured with a man"
        ),
        Ok(Some((2, 1, 1, Some(false))))
    );
    assert_eq!(parse_max_capture("none (no capture available)"), Ok(None));
}
