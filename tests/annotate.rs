//! `molkwar annotate` as built: the annotated PDN reads back to the same
//! games, every move carries a score, a deliberate blunder gets the
//! engine's better move, and bad input is reported without a panic.

mod common;

use molkwar::VariantKind;
use molkwar::pdn::{PdnGame, read_games};
use std::path::{Path, PathBuf};
use std::process::Output;

/// One International game (White's 7th move, 28-22, leaves a man to be
/// taken for nothing) and one Frisian game from a set-up position.
const GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/annotate.pdn");

fn molkwar(args: &[&str]) -> Output {
    common::run_molkwar(args)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn read(text: &str) -> Vec<PdnGame> {
    read_games(text, VariantKind::International)
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}\n{text}")))
        .collect()
}

/// A scratch file under the build tree with `content`.
fn scratch(name: &str, content: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("annotate");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p
}

/// The movetext of each game of `pdn` as (move, comment) pairs, in order:
/// every move must be followed by exactly one comment.
fn moves_and_comments(pdn: &str) -> Vec<Vec<(String, String)>> {
    let mut games = Vec::new();
    let mut current: Vec<(String, String)> = Vec::new();
    let mut pending: Option<String> = None;
    let mut rest = pdn;
    while let Some(c) = rest.chars().next() {
        if c == '{' {
            let end = rest.find('}').expect("comment without '}'");
            let mv = pending.take().expect("a comment that follows no move");
            current.push((mv, rest[1..end].to_string()));
            rest = &rest[end + 1..];
        } else if c == '[' {
            rest = &rest[rest.find('\n').unwrap_or(rest.len())..];
        } else if c.is_whitespace() {
            rest = &rest[c.len_utf8()..];
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let word = &rest[..end];
            rest = &rest[end..];
            if ["2-0", "0-2", "1-1", "0-0", "*"].contains(&word) {
                assert!(pending.is_none(), "{pending:?} has no comment");
                games.push(std::mem::take(&mut current));
            } else if !word.ends_with('.') {
                assert!(pending.is_none(), "{pending:?} has no comment");
                pending = Some(word.to_string());
            }
        }
    }
    assert!(pending.is_none() && current.is_empty(), "unfinished game");
    games
}

/// A comment's score in centi-men (the text before any `;`).
fn score(comment: &str) -> i32 {
    let s = comment.split(';').next().unwrap().trim();
    let men: f64 = s
        .parse()
        .unwrap_or_else(|_| panic!("comment {comment:?}: no score"));
    assert!(s.starts_with(['+', '-']), "score without sign: {comment:?}");
    (men * 100.0).round() as i32
}

#[test]
fn annotated_games_read_back_with_a_score_after_every_move() {
    let out = molkwar(&["annotate", "--depth", "4", GAMES]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("annotate: game 2/2, move 12 (ply 23 of 23)"),
        "{stderr}"
    );
    let pdn = text(&out.stdout);
    let original = read(&std::fs::read_to_string(GAMES).unwrap());
    let annotated = read(&pdn);
    assert_eq!(annotated.len(), 2);
    for (a, o) in annotated.iter().zip(&original) {
        assert_eq!(a.variant, o.variant);
        assert_eq!(a.start, o.start);
        assert_eq!(a.moves, o.moves);
        assert_eq!(a.result, o.result);
        // The original tags, in order, then the annotator.
        assert_eq!(&a.tags[..o.tags.len()], &o.tags[..]);
        assert_eq!(a.tags.len(), o.tags.len() + 1);
        assert_eq!(a.tag("Annotator"), Some("molkwar 0.1.0"));
    }
    assert_eq!(annotated[1].variant, VariantKind::Frisian);
    let games = moves_and_comments(&pdn);
    assert_eq!(games.len(), 2);
    for (g, a) in games.iter().zip(&annotated) {
        assert_eq!(g.len(), a.moves.len());
        for (_, c) in g {
            score(c);
        }
    }

    // The blunder: White's 7th move, the 13th ply of the first game.
    let (mv, comment) = &games[0][12];
    assert_eq!(mv, "28-22");
    let (played, better) = comment
        .split_once("; better ")
        .unwrap_or_else(|| panic!("no better move after 28-22: {comment:?}"));
    let (better_move, better_score) = better.split_once(' ').unwrap();
    assert_ne!(better_move, "28-22");
    // Scores are White's view and White moved: the loss is better − played.
    let loss = score(better_score) - score(played);
    assert!(loss >= 30, "{comment:?}");
    // Once the man is lost, White stays more than a man down.
    assert!(
        games[0][13..].iter().all(|(_, c)| score(c) < -80),
        "{games:?}"
    );
    // Every comment with a better move is a loss of at least 0.3.
    for (_, c) in games.iter().flatten() {
        if let Some((p, b)) = c.split_once("; better ") {
            let b = b.split_once(' ').unwrap().1;
            assert!((score(b) - score(p)).abs() >= 30, "{c:?}");
        }
    }
    // At depth 4 the result is the same every time.
    let again = molkwar(&["annotate", "--depth", "4", GAMES]);
    assert_eq!(text(&again.stdout), pdn);
}

#[test]
fn blunder_threshold_and_output_file() {
    let out_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("annotate-out.pdn");
    let _ = std::fs::remove_file(&out_path);
    let out = molkwar(&[
        "annotate",
        "--depth",
        "4",
        "--blunder",
        "5",
        "--out",
        out_path.to_str().unwrap(),
        GAMES,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "stdout: {}", text(&out.stdout));
    let pdn = std::fs::read_to_string(&out_path).unwrap();
    // No move here loses 5 men: scores only.
    assert!(!pdn.contains("better"), "{pdn}");
    assert_eq!(read(&pdn).len(), 2);
}

#[test]
fn a_time_limit_and_a_default_variant() {
    // No GameType: the Frisian game is read as Frisian only when asked.
    let full = std::fs::read_to_string(GAMES).unwrap();
    let frisian = &full[full.rfind("[Event").unwrap()..].replace("[GameType \"40\"]\n", "");
    let p = scratch("frisian.pdn", frisian);
    let out = molkwar(&["annotate", "--time", "0.01", p.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("game 1, line 8: illegal move 35x15 (White's move 3)"),
        "{}",
        text(&out.stderr)
    );
    let out = molkwar(&[
        "annotate",
        "--time",
        "0.01",
        "--variant",
        "frisian",
        p.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pdn = text(&out.stdout);
    let g = read(&pdn);
    assert_eq!(g.len(), 1);
    // The variant used is written down.
    assert_eq!(g[0].tag("GameType"), Some("40"));
    assert_eq!(moves_and_comments(&pdn)[0].len(), 23);
}

#[test]
fn bad_games_are_reported_skipped_and_fail_the_run() {
    let bad = concat!(
        "[Event \"good\"]\n",
        "1. 32-28 19-23 *\n",
        "\n",
        "[Event \"illegal\"]\n",
        "1. 32-28 19-23\n",
        "2. 32-27 23x32 *\n",
        "\n",
        "[Event \"unknown type\"]\n",
        "[GameType \"30\"]\n",
        "1. 32-28 *\n",
        "\n",
        "[Event \"also good\"]\n",
        "1. 34-30 *\n",
    );
    let p = scratch("bad.pdn", bad);
    let name = p.display();
    let out = molkwar(&["annotate", "--depth", "2", p.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for line in [
        format!("molkwar: {name}: game 2, line 6: illegal move 32-27 (White's move 2)"),
        format!(
            "molkwar: {name}: game 3, line 9: GameType \"30\" is not supported (20 = International, 40 = Frisian)"
        ),
        format!("molkwar: {name}: 2 of 4 games not annotated (errors above)"),
    ] {
        assert!(
            stderr.lines().any(|l| l == line),
            "want {line:?} in\n{stderr}"
        );
    }
    // The good games are annotated all the same.
    let games = read(&text(&out.stdout));
    let events: Vec<_> = games.iter().map(|g| g.tag("Event").unwrap()).collect();
    assert_eq!(events, ["good", "also good"]);

    let p = scratch("comment.pdn", "1. 32-28 {never closed\n19-23 *\n");
    let out = molkwar(&["annotate", "--depth", "2", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(": game 1, line 1: comment '{' is never closed"),
        "{}",
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty());

    let out = molkwar(&["annotate", "/nonexistent/games.pdn"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("molkwar: cannot read '/nonexistent/games.pdn'"),
        "{}",
        text(&out.stderr)
    );
    for arg in ["--depth=0", "--time=-1", "--blunder=nan", "--variant=chess"] {
        let out = molkwar(&["annotate", arg, GAMES]);
        assert_eq!(out.status.code(), Some(1), "{arg}");
        assert!(out.stdout.is_empty());
        assert!(!text(&out.stderr).contains("panicked"), "{arg}");
    }
}
