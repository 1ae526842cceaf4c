//! `molkwar match` between two molkwar configurations: the match completes,
//! the PDN replays legally under molkwar's rules and agrees with the
//! recorded results; `molkwar selfplay` is deterministic and well formed;
//! bad options fail cleanly.

use molkwar::board::fen;
use molkwar::game::{Game, Outcome};
use molkwar::variant::VariantKind;
use std::process::Command;

fn molkwar() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_molkwar"));
    // Tables built on first use go to the build tree, never to $HOME.
    c.env(
        "MOLKWAR_EGDB",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/egdb"),
    );
    c
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("molkwar-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A quick match (depth 2 against depth 1, at most 60 plies) written to
/// `pdn`, with `args` added: whether it succeeded, and stdout then stderr.
fn quick_match(pdn: &std::path::Path, args: &[&str]) -> (bool, String) {
    let out = molkwar()
        .args(["match", "--tc1", "depth=2", "--tc2", "depth=1"])
        .args(["--max-plies", "60", "--pdn"])
        .arg(pdn)
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// The Round tags of a PDN text, sorted.
fn rounds_of(pdn: &str) -> Vec<&str> {
    let mut r: Vec<&str> = pdn
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \"")?.strip_suffix("\"]"))
        .collect();
    r.sort();
    r
}

/// Replays every game of a PDN file; returns (result, termination) pairs.
fn replay_pdn(text: &str, variant: VariantKind) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for block in text.split("\n\n[").filter(|b| !b.trim().is_empty()) {
        let tag = |k: &str| {
            let key = format!("{k} \"");
            let i = block
                .find(&key)
                .unwrap_or_else(|| panic!("no {k} in {block}"))
                + key.len();
            block[i..i + block[i..].find("\"]").unwrap()].to_string()
        };
        let game_type = tag("GameType");
        assert_eq!(game_type, if variant.is_frisian() { "40" } else { "20" });
        let mut game = Game::new(variant, fen::parse_fen(&tag("FEN")).unwrap());
        let result = tag("Result");
        let termination = tag("Termination");
        let movetext: String = block
            .lines()
            .filter(|l| !l.ends_with("\"]") && !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let mut last = "";
        for tok in movetext.split_whitespace() {
            last = tok;
            if tok.ends_with('.') || ["2-0", "0-2", "1-1"].contains(&tok) {
                continue;
            }
            game.play_text(tok)
                .unwrap_or_else(|e| panic!("{e} in {block}"));
        }
        assert_eq!(last, result, "movetext ends with the result");
        match termination.as_str() {
            "no legal move" => {
                assert_eq!(game.outcome(), Outcome::Loss);
                let white_lost = game.position().side() == molkwar::Color::White;
                assert_eq!(result, if white_lost { "0-2" } else { "2-0" });
            }
            t if t.starts_with("draw by") => {
                assert!(matches!(game.outcome(), Outcome::Draw(_)), "{t}");
                assert_eq!(result, "1-1");
            }
            "maximum length" => {
                assert_eq!(game.outcome(), Outcome::Ongoing);
                assert_eq!(result, "1-1");
            }
            t => panic!("unexpected termination {t}"),
        }
        out.push((result, termination));
    }
    out
}

#[test]
fn short_match_completes_with_valid_pdn_in_both_variants() {
    for variant in [VariantKind::International, VariantKind::Frisian] {
        let pdn = tmp(&format!("{variant}.pdn"));
        let out = molkwar()
            .args([
                "match",
                "--variant",
                variant.name(),
                "--tc1",
                "depth=3",
                "--tc2",
            ])
            .args([
                "depth=1",
                "--games",
                "4",
                "--concurrency",
                "2",
                "--seed",
                "7",
            ])
            .args(["--sprt", "elo0=0", "elo1=20", "--pdn"])
            .arg(&pdn)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("[4/4] game"), "{stdout}");
        assert!(stdout.contains("4 games"), "{stdout}");
        assert!(stdout.contains("LLR"), "{stdout}");
        assert!(stdout.contains("faults: none"), "{stdout}");
        assert!(stdout.contains("Pairs by"), "{stdout}");
        let games = replay_pdn(&std::fs::read_to_string(&pdn).unwrap(), variant);
        assert_eq!(games.len(), 4);
    }
}

/// A stopped match resumes from its PDN: the games there are counted, not
/// played again; the others are played and appended; another match's
/// file is refused and left as it was.
#[test]
fn resume_plays_only_the_missing_games() {
    let pdn = tmp("resume.pdn");
    let run = |games: &str, seed: &str, resume: bool| {
        let mut args = vec!["--games", games, "--seed", seed];
        if resume {
            args.push("--resume");
        }
        quick_match(&pdn, &args)
    };
    let (ok, first) = run("2", "5", false);
    assert!(ok, "{first}");
    let two = std::fs::read_to_string(&pdn).unwrap();
    let (ok, second) = run("4", "5", true);
    assert!(ok, "{second}");
    assert!(second.contains("Resumed 2 games from"), "{second}");
    assert!(
        second.contains("[3/4] game") && second.contains("[4/4] game"),
        "{second}"
    );
    assert!(!second.contains("[1/4] game"), "{second}");
    assert!(second.contains("Resumed: 2 games read back"), "{second}");
    let four = std::fs::read_to_string(&pdn).unwrap();
    assert!(
        four.starts_with(&two),
        "the first games are kept as written"
    );
    let games = replay_pdn(&four, VariantKind::International);
    assert_eq!(games.len(), 4);
    assert_eq!(rounds_of(&four), ["1", "2", "3", "4"]);
    // The final score counts all four games, as the PDN has them.
    let first_points: f64 = four
        .split("[Event")
        .skip(1)
        .map(|g| {
            let white_first = g.contains("[White \"molkwar depth=2\"]");
            match (
                g.contains("[Result \"2-0\"]"),
                g.contains("[Result \"0-2\"]"),
            ) {
                (true, _) => {
                    if white_first {
                        1.0
                    } else {
                        0.0
                    }
                }
                (_, true) => {
                    if white_first {
                        0.0
                    } else {
                        1.0
                    }
                }
                _ => 0.5,
            }
        })
        .sum();
    assert!(
        second.contains(&format!("[{:.1}%] 4 games", first_points * 25.0)),
        "{first_points} points: {second}"
    );
    // Nothing left to play: the match only reports.
    let (ok, third) = run("4", "5", true);
    assert!(
        ok && third.contains("Resumed 4 games") && !third.contains("] game "),
        "{third}"
    );
    // Another seed means other openings: refused, the file untouched.
    let (ok, other) = run("4", "6", true);
    assert!(!ok && other.contains("another opening"), "{other}");
    assert_eq!(std::fs::read_to_string(&pdn).unwrap(), four);
    let out = molkwar().args(["match", "--resume"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--resume needs --pdn"));
}

/// `--rounds` plays one slice of a match: two runs on two PDN files play
/// rounds 1-2 and 3-4, and their concatenation resumes as the whole
/// 4-game match with nothing left to play (the resume check also proves
/// each slice started from its rounds' openings).
#[test]
fn rounds_split_a_match_into_slices() {
    let run = |pdn: &std::path::Path, rounds: Option<&str>, resume: bool| {
        let mut args = vec!["--games", "4", "--seed", "5"];
        if let Some(r) = rounds {
            args.extend(["--rounds", r]);
        }
        if resume {
            args.push("--resume");
        }
        quick_match(pdn, &args)
    };
    let (a, b, all) = (tmp("slice-a.pdn"), tmp("slice-b.pdn"), tmp("slice-all.pdn"));
    let (ok, out) = run(&b, Some("3-4"), false);
    assert!(ok, "{out}");
    assert!(out.contains("2 games"), "{out}");
    let b_text = std::fs::read_to_string(&b).unwrap();
    assert_eq!(rounds_of(&b_text), ["3", "4"]);
    let (ok, out) = run(&a, Some("1-2"), false);
    assert!(ok, "{out}");
    let a_text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(rounds_of(&a_text), ["1", "2"]);
    std::fs::write(&all, format!("{b_text}{a_text}")).unwrap();
    let (ok, out) = run(&all, None, true);
    assert!(ok, "{out}");
    assert!(
        out.contains("Resumed 4 games") && !out.contains("] game ") && out.contains("4 games"),
        "{out}"
    );
    for bad in ["0-2", "3-2", "1-5", "2", "a-b"] {
        let (ok, out) = run(&tmp("slice-bad.pdn"), Some(bad), false);
        assert!(!ok && out.contains("--rounds"), "{bad}: {out}");
    }
}

/// An SPRT decided before the stop stays decided on resume, at the same
/// LLR, even when games finished after the decision are in the file.
#[test]
fn a_decided_sprt_stays_decided_on_resume() {
    let pdn = tmp("sprt.pdn");
    let run = || {
        let out = molkwar()
            .args([
                "match", "--tc1", "depth=4", "--tc2", "depth=1", "--games", "40",
            ])
            .args(["--concurrency", "2", "--seed", "3", "--resume", "--pdn"])
            .arg(&pdn)
            .args(["--sprt", "elo0=0", "elo1=100", "alpha=0.1", "beta=0.1"])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let sprt_line = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("SPRT"))
            .map(str::to_string)
    };
    let first = run();
    assert!(first.contains("H1 accepted"), "{first}");
    assert!(!first.contains("[40/40]"), "{first}");
    let second = run();
    assert!(second.contains("Resumed"), "{second}");
    assert!(!second.contains("] game "), "no game is played: {second}");
    assert_eq!(sprt_line(&first), sprt_line(&second), "{first}{second}");
}

#[test]
fn restart_mode_and_clock_control_work() {
    let out = molkwar()
        .args([
            "match",
            "--tc",
            "2+0.05",
            "--games",
            "2",
            "--restart",
            "--max-plies",
            "30",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("faults: none"), "{stdout}");
    assert!(!stdout.contains("time forfeit"), "{stdout}");
}

/// Pondering under a Fischer clock and under moves-in-time: the engines
/// ponder after their moves, the opponents often play the expected reply
/// (ponder hits), the games replay legally, and nobody faults. The time
/// per move is reported by game phase.
#[test]
fn pondering_under_a_clock() {
    for (tc, variant, kind) in [
        ("2+0.05", "normal", VariantKind::International),
        ("20/2", "frisian", VariantKind::Frisian),
    ] {
        let pdn = tmp(&format!("ponder-{variant}.pdn"));
        let out = molkwar()
            .args([
                "match",
                "--tc",
                tc,
                "--variant",
                variant,
                "--games",
                "2",
                "--ponder",
            ])
            .args(["--max-plies", "60", "--pdn", pdn.to_str().unwrap()])
            .args(["--param1", "book=false", "--param2", "book=false"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        assert_eq!(stdout.matches("faults: none").count(), 2, "{stdout}");
        let hits: Vec<(u32, u32)> = stdout
            .lines()
            .filter_map(|l| l.split("ponder hits ").nth(1))
            .map(|h| {
                let (a, b) = h.trim().split_once('/').unwrap();
                (a.parse().unwrap(), b.parse().unwrap())
            })
            .collect();
        assert_eq!(hits.len(), 2, "{stdout}");
        for (hit, pondered) in &hits {
            assert!(*pondered >= 10 && hit <= pondered, "{stdout}");
        }
        assert!(
            hits.iter().map(|h| h.0).sum::<u32>() > 0,
            "no ponder hit: {stdout}"
        );
        assert!(stdout.contains("time per move: opening"), "{stdout}");
        // The games replay legally (the PDN reader checks every move).
        let games = molkwar::pdn::read_games(&std::fs::read_to_string(&pdn).unwrap(), kind);
        assert_eq!(games.len(), 2);
        for g in games {
            let g = g.unwrap();
            assert_eq!(g.variant, kind);
            assert!(g.moves.len() >= 40, "{} plies", g.moves.len());
        }
    }
}

#[test]
fn bad_options_fail_with_a_message() {
    let cases: &[&[&str]] = &[
        &["match", "--engine1", "/no/such/engine"],
        &["match", "--tc", "fast"],
        &["match", "--variant", "chess"],
        &["match", "--sprt", "elo0=5", "elo1=0"],
        &["match", "--param1", "novalue"],
        &["match", "--games", "0"],
        &["match", "--engine2", "'unterminated"],
        &["match", "--openings", "/no/such/file"],
        &["match", "--dir1", "/no/such/dir"],
        // Seconds that no clock can hold (these panicked in Duration).
        &["match", "--tc", "1e300+0"],
        &["match", "--tc", "10+1e300"],
        &["match", "--tc1", "40/1e300"],
        &["match", "--tc2", "move-time=1e300"],
        &["match", "--move-timeout", "1e300"],
        &["match", "--margin", "1e300"],
        &["match", "--margin", "nan"],
        &["match", "--resign-score", "inf"],
        &["selfplay", "--games", "1"],
        &["openings", "--plies", "0"],
    ];
    for args in cases {
        let out = molkwar().args(*args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with("molkwar: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn selfplay_is_deterministic_and_well_formed() {
    let run = |seed: &str| {
        let out = molkwar()
            .args([
                "selfplay",
                "--variant",
                "frisian",
                "--games",
                "3",
                "--depth",
                "2",
            ])
            .args(["--seed", seed, "--concurrency", "2", "--max-plies", "80"])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let a = run("5");
    assert_eq!(a, run("5"));
    assert_ne!(a, run("6"));
    assert!(a.lines().count() > 10);
    for line in a.lines() {
        let f: Vec<&str> = line.split(" | ").collect();
        assert_eq!(f.len(), 3, "{line}");
        let pos = fen::parse_fen(f[0]).unwrap();
        // Training data holds quiet positions only.
        let g = Game::new(VariantKind::Frisian, pos);
        assert!(!g.legal_moves().iter().any(|m| m.is_capture()), "{line}");
        f[1].parse::<i32>().unwrap();
        assert!(["1.0", "0.5", "0.0"].contains(&f[2]), "{line}");
    }
}

#[test]
fn selfplay_with_a_node_limit_plays_its_games_to_the_end() {
    // Endings exhaust the tree long before the node limit: every move must
    // still be answered (this hung when a node limit without a clock was
    // taken for an infinite search).
    for variant in ["normal", "frisian"] {
        let mut child = molkwar()
            .args(["selfplay", "--variant", variant, "--games", "4"])
            .args(["--nodes", "5000", "--seed", "3", "--concurrency", "2"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let t0 = std::time::Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if t0.elapsed() > std::time::Duration::from_secs(120) {
                let _ = child.kill();
                panic!("{variant}: selfplay --nodes never finished");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert!(status.success());
    }
}
