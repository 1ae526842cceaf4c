//! The `perft`, `show` and `analyze` subcommands of the built binary, and
//! their error handling. Expected values come from docs/perft.md and the
//! spec position files.

mod common;

use common::positions;
use std::process::Output;

fn molkwar(args: &[&str]) -> Output {
    common::run_molkwar(args)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn success(args: &[&str]) -> String {
    let o = molkwar(args);
    assert!(
        o.status.success(),
        "molkwar {args:?} failed ({}): {}",
        o.status,
        stderr(&o)
    );
    stdout(&o)
}

/// The value of a `key: value` line of `show` output.
fn field<'a>(out: &'a str, key: &str) -> Option<&'a str> {
    out.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .map(str::trim)
}

fn entry(file: &str, id: &str) -> common::Entry {
    positions(file)
        .into_iter()
        .find(|e| e.id() == id)
        .unwrap_or_else(|| panic!("{file} has no {id}"))
}

/// Checks a `depth <d> leaves <n> time <s> s speed <x> M/s` line.
fn check_depth_line(line: &str, depth: u32, leaves: u64) {
    let t: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(t.len(), 10, "line shape: {line}");
    assert_eq!(
        (t[0], t[2], t[4], t[6], t[7], t[9]),
        ("depth", "leaves", "time", "s", "speed", "M/s"),
        "line shape: {line}"
    );
    assert_eq!(t[1].parse::<u32>().ok(), Some(depth), "{line}");
    assert_eq!(t[3].parse::<u64>().ok(), Some(leaves), "{line}");
    let secs: f64 = t[5].parse().unwrap_or_else(|_| panic!("time in {line}"));
    let speed: f64 = t[8].parse().unwrap_or_else(|_| panic!("speed in {line}"));
    assert!(secs >= 0.0 && speed >= 0.0, "{line}");
}

#[test]
fn perft_prints_one_line_per_depth() {
    // docs/perft.md §1: 9, 81, 658.
    let out = success(&["perft", "3"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    for (i, n) in [9u64, 81, 658].into_iter().enumerate() {
        check_depth_line(lines[i], i as u32 + 1, n);
    }
    // docs/perft.md §2 (Frisian differs from depth 4 on: 3,874) and the
    // non-bulk path; a start position given as FEN.
    let out = success(&[
        "perft",
        "--variant",
        "frisian",
        "--no-bulk",
        "--fen",
        "W:W31-50:B1-20",
        "4",
    ]);
    let last = out.lines().last().unwrap_or("");
    check_depth_line(last, 4, 3874);
    // docs/perft.md §3.3, given as a Hub position: W:W45,K46:B3,4,5 = 9, 38, 377.
    let out = success(&[
        "perft",
        "--variant",
        "frisian",
        "--pos",
        "WeebbbeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeewWeeee",
        "3",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    for (i, n) in [9u64, 38, 377].into_iter().enumerate() {
        check_depth_line(lines[i], i as u32 + 1, n);
    }
}

#[test]
fn perft_divide_lists_every_legal_move() {
    let out = success(&["perft", "--divide", "2"]);
    let lines: Vec<&str> = out.lines().collect();
    // Two depth lines, nine moves (I01), the total (docs/perft.md §1: 81).
    assert_eq!(lines.len(), 2 + 9 + 1, "{out}");
    check_depth_line(lines[0], 1, 9);
    check_depth_line(lines[1], 2, 81);
    let want: std::collections::BTreeSet<String> = entry("international.txt", "I01")
        .expect_moves()
        .into_iter()
        .collect();
    let mut got = std::collections::BTreeSet::new();
    let mut sum = 0;
    for l in &lines[2..11] {
        let t: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(t.len(), 2, "divide line: {l}");
        let n: u64 = t[1].parse().unwrap_or_else(|_| panic!("divide line: {l}"));
        // No contact yet: Black always has its nine replies 16..20 -> 21..25.
        assert_eq!(n, 9, "divide line: {l}");
        sum += n;
        got.insert(t[0].to_string());
    }
    assert_eq!(got, want);
    assert_eq!(sum, 81);
    assert_eq!(lines[11], "total 81");
}

#[test]
fn show_prints_the_position_and_its_moves() {
    // I07.
    let e = entry("international.txt", "I07");
    let out = success(&["show", "--fen", e.req("fen")]);
    assert_eq!(field(&out, "hub"), Some(e.req("hub")), "{out}");
    assert_eq!(field(&out, "fen"), Some(e.req("fen")), "{out}");
    assert_eq!(field(&out, "moves"), Some("28x19x23"), "{out}");
    assert!(field(&out, "state").is_some(), "{out}");
    assert_eq!(field(&out, "result"), Some("ongoing"), "{out}");

    // I30: no legal move, White loses.
    let e = entry("international.txt", "I30");
    let out = success(&["show", "--pos", e.req("hub")]);
    assert_eq!(field(&out, "moves"), Some(""), "{out}");
    let result = field(&out, "result").unwrap_or_default();
    assert!(result.contains("loss"), "{out}");

    // I37: threefold repetition after the moves.
    let e = entry("international.txt", "I37");
    let out = success(&["show", "--fen", e.req("fen"), "--moves", e.req("moves")]);
    assert_eq!(field(&out, "hub"), Some(e.req("hub-after")), "{out}");
    let result = field(&out, "result").unwrap_or_default();
    assert!(
        result.contains("draw") && result.contains("repetition"),
        "{out}"
    );
    let mut moves: Vec<&str> = field(&out, "moves")
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    moves.sort();
    let mut want = e.expect_moves();
    want.sort();
    assert_eq!(moves, want);
}

#[test]
fn show_frisian_king_restriction() {
    // F25: after 46-41 3-8 41-37 8-12 37-41 12-18 only 45-40 is legal.
    let e = entry("frisian.txt", "F25");
    let out = success(&[
        "show",
        "--variant",
        "frisian",
        "--fen",
        "W:W45,K46:B3,4,5",
        "--moves",
        "46-41 3-8 41-37 8-12 37-41 12-18",
    ]);
    assert_eq!(field(&out, "moves"), Some("45-40"), "{out}");
    assert_eq!(field(&out, "hub"), Some(e.req("hub-after")), "{out}");
    assert_eq!(field(&out, "fen"), Some(e.req("fen-after")), "{out}");
    let state = field(&out, "state").unwrap_or_default();
    assert!(state.contains("W=41/3") && state.contains("B=0/0"), "{out}");
    assert_eq!(field(&out, "result"), Some("ongoing"), "{out}");
    // Under International rules the king may move again: no restriction.
    let out = success(&[
        "show",
        "--fen",
        "W:W45,K46:B3,4,5",
        "--moves",
        "46-41 3-8 41-37 8-12 37-41 12-18",
    ]);
    let n = field(&out, "moves")
        .unwrap_or_default()
        .split_whitespace()
        .count();
    assert!(n > 1, "{out}");
}

#[test]
fn bad_arguments_fail_cleanly() {
    let cases: &[&[&str]] = &[
        &["show", "--fen", "W:W51:B1"],
        &["show", "--fen", "not a fen"],
        &["show", "--fen", "W:W28:B28"],
        &["show", "--pos", "Wbbbb"],
        &["perft", "--fen", "X:W31-50:B1-20", "2"],
        &["show", "--variant", "checkers"],
        &["perft", "--variant", "checkers", "2"],
        &["show", "--moves", "31-25"],
        &["show", "--moves", "32-28 32-28"],
        &["show", "--moves", "32-28 hello"],
        &["perft", "--moves", "31-36", "1"],
        &["perft"],
        &["perft", "--divide"],
        &["perft", "deep"],
        &["perft", "-3"],
        &["show", "--no-such-option"],
        &["analyze", "--depth", "2", "--eval", "neural"],
        &["analyze", "--depth", "2", "--multipv", "0"],
        &["analyze", "--depth", "2", "--multipv", "many"],
        &[
            "analyze",
            "--depth",
            "2",
            "--eval-file",
            "/no/such/file.mkw",
        ],
        &["analyze", "--depth", "2", "--eval-file", "Cargo.toml"],
        &["bench", "--depth", "1", "--eval-file", "README.md"],
        &[
            "selfplay",
            "--nodes",
            "100",
            "--eval-file",
            "/no/such/file.mkw",
        ],
        &["selfplay", "--nodes", "100", "--nodes-spread", "1.5"],
        &["selfplay", "--nodes", "100", "--nodes-spread", "-0.1"],
        &[
            "train",
            "--data",
            "/no/such/data.txt",
            "--out",
            "/tmp/x.mkw",
        ],
        &["train", "--data", "Cargo.toml", "--out", "/tmp/x.mkw"],
        &[
            "train",
            "--data",
            "Cargo.toml",
            "--out",
            "/tmp/x.mkw",
            "--lr",
            "-1",
        ],
    ];
    let mut problems = Vec::new();
    for args in cases {
        let o = molkwar(args);
        let err = stderr(&o);
        if o.status.success() {
            problems.push(format!("{args:?}: exit status 0"));
        }
        if err.trim().is_empty() {
            problems.push(format!("{args:?}: nothing on stderr"));
        }
        if err.contains("panicked") || o.status.code().is_none() {
            problems.push(format!("{args:?}: panicked or killed: {err}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn analyze_multipv_prints_each_line_of_each_iteration() {
    let out = success(&["analyze", "--depth", "3", "--multipv", "2"]);
    let lines: Vec<&str> = out.lines().collect();
    for d in 1..=3 {
        for k in 1..=2 {
            let head = format!("line {k:2} depth {d:2} ");
            assert!(lines.iter().any(|l| l.starts_with(&head)), "{head}: {out}");
        }
    }
    // Line 1's move at the last depth is the move played.
    let first = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("line  1 depth  3 "))
        .unwrap();
    let pv_move = first
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next();
    let best = lines.last().unwrap().split_whitespace().nth(1);
    assert_eq!(pv_move, best, "{out}");
}

#[test]
fn analyze_searches_and_ends_by_itself() {
    let out = success(&["analyze", "--depth", "4"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 2, "{out}");
    assert!(lines[0].starts_with("depth  1 "), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("depth  4 ")), "{out}");
    let best = lines.last().unwrap();
    let mv = best.split_whitespace().nth(1).unwrap();
    let start = entry("international.txt", "I01");
    assert!(
        start
            .req("expect-moves")
            .split_whitespace()
            .any(|m| m == mv),
        "{out}"
    );
}

#[test]
fn analyze_refuses_unusable_times() {
    // 1e300 s overflows a Duration; NaN, infinity and negative times are no
    // limit at all. Each is a clean error, never a panic or an endless search.
    for t in ["1e300", "nan", "inf", "-1"] {
        let o = molkwar(&["analyze", &format!("--time={t}")]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "--time {t}: {err}");
        assert!(err.starts_with("molkwar: --time"), "--time {t}: {err}");
    }
}
