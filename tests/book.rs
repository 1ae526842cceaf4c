//! `molkwar book build | probe` on the built binary: a small build, its
//! resumption after a loss, the probe's report, the built-in books, and
//! errors for bad files and arguments.

mod common;

use molkwar::board::Position;
use molkwar::book::Book;
use molkwar::game::Game;
use molkwar::variant::VariantKind;
use std::path::PathBuf;
use std::process::Output;

fn molkwar(args: &[&str]) -> Output {
    common::run_molkwar(args)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("book-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn build(variant: &str, out: &std::path::Path) -> Output {
    let o = molkwar(&[
        "book",
        "build",
        "--variant",
        variant,
        "--out",
        out.to_str().unwrap(),
        "--plies",
        "3",
        "--width",
        "3",
        "--margin",
        "15",
        "--depth",
        "4",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    o
}

#[test]
fn a_build_covers_its_plies_and_resumes_to_the_same_book() {
    for (variant, kind) in [
        ("normal", VariantKind::International),
        ("frisian", VariantKind::Frisian),
    ] {
        let path = temp(&format!("{variant}.book"));
        let first = build(variant, &path);
        let whole = std::fs::read_to_string(&path).unwrap();
        let book = Book::parse(&whole, kind).unwrap();
        // The start, its moves, their replies: each position's moves are
        // legal, best first, within the margin, at most the width.
        let start = Game::new(kind, Position::start());
        let entries = book
            .probe(start.position())
            .expect("the start is in the book");
        assert!((1..=3).contains(&entries.len()));
        for e in entries {
            let mut g = start.clone();
            g.play(&e.mv);
            let replies = book.probe(g.position()).expect("ply 1 is in the book");
            assert!(replies.windows(2).all(|w| w[0].score >= w[1].score));
            assert!(replies[0].score - replies.last().unwrap().score <= 15);
            for r in replies {
                let mut g2 = g.clone();
                g2.play(&r.mv);
                assert!(book.probe(g2.position()).is_some(), "ply 2 is in the book");
            }
        }
        assert!(text(&first.stdout).contains(&format!("{} positions", book.len())));
        // Lose the last two positions (a build killed midway): the rerun
        // searches just those and writes the same file.
        let lines: Vec<&str> = whole.lines().collect();
        std::fs::write(&path, lines[..lines.len() - 2].join("\n") + "\n").unwrap();
        let again = build(variant, &path);
        assert!(
            text(&again.stdout).contains("(2 searched now)"),
            "{}",
            text(&again.stdout)
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), whole);
    }
}

/// A book file with one line, the start position's `moves`, after a
/// comment line (so the start is on line 2).
fn start_book(name: &str, moves: &str) -> PathBuf {
    let path = temp(name);
    let start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    std::fs::write(&path, format!("# a test book\n{start} {moves}\n")).unwrap();
    path
}

#[test]
fn probe_reports_the_moves_a_margin_plays() {
    let path = start_book("probe.book", "32-28:12 33-28:10 31-26:2");
    let o = molkwar(&[
        "book",
        "probe",
        "--book",
        path.to_str().unwrap(),
        "--margin",
        "3",
    ]);
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("32-28") && lines[0].ends_with("played"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("33-28") && lines[1].ends_with("played"),
        "{out}"
    );
    assert!(
        lines[2].starts_with("31-26") && !lines[2].contains("played"),
        "{out}"
    );
    let o = molkwar(&[
        "book",
        "probe",
        "--book",
        path.to_str().unwrap(),
        "--moves",
        "32-28",
    ]);
    assert!(text(&o.stdout).starts_with("not in the book (1 positions)"));
    // The built-in books know the start of both variants.
    for v in ["normal", "frisian"] {
        let o = molkwar(&["book", "probe", "--variant", v]);
        assert!(o.status.success());
        assert!(
            text(&o.stdout).contains("played"),
            "{v}: {}",
            text(&o.stdout)
        );
    }
}

#[test]
fn bad_books_and_arguments_fail_cleanly() {
    let bad = start_book("bad.book", "31-25:0");
    let out = temp("out.book");
    let cases: Vec<Vec<&str>> = vec![
        vec!["book", "probe", "--book", bad.to_str().unwrap()],
        vec!["book", "probe", "--book", "/no/such/file"],
        vec!["book", "probe", "--moves", "31-25"],
        vec![
            "book",
            "build",
            "--out",
            bad.to_str().unwrap(),
            "--plies",
            "1",
            "--depth",
            "2",
        ],
        vec![
            "book",
            "build",
            "--out",
            out.to_str().unwrap(),
            "--plies",
            "0",
        ],
        vec![
            "book",
            "build",
            "--out",
            out.to_str().unwrap(),
            "--depth",
            "0",
        ],
        vec![
            "book",
            "build",
            "--out",
            out.to_str().unwrap(),
            "--variant",
            "chess",
        ],
        vec![
            "book",
            "build",
            "--out",
            "/no/such/dir/x.book",
            "--plies",
            "1",
            "--depth",
            "2",
        ],
    ];
    for args in cases {
        let o = molkwar(&args);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert!(
            !err.trim().is_empty() && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    let e = text(&molkwar(&["book", "probe", "--book", bad.to_str().unwrap()]).stderr);
    assert!(e.contains("bad.book: line 2: move '31-25'"), "{e}");
}
