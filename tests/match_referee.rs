//! The referee against broken engines (tests/fixtures/fake_hub.py): an
//! illegal move, a crash, a missing `done`, a non-Hub line and a flag fall
//! each lose the game and are counted by reason; a refused set-up and an
//! engine that cannot play the variant stop the match with an error. An
//! engine that talks like Scan 3.1 (non-Hub lines before `ready`) plays
//! whole games, and `--log` keeps every game's conversation and the
//! engines' stderr.

use std::process::Command;

fn fake(mode: &str) -> String {
    format!(
        "python3 {}/tests/fixtures/fake_hub.py {mode}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The fake engines are Python scripts. Without python3 the tests are
/// skipped on a developer machine, but CI (which installs it) must run them.
fn have_python() -> bool {
    let found = Command::new("python3").arg("--version").output().is_ok();
    assert!(
        found || std::env::var_os("CI").is_none(),
        "python3 is required in CI"
    );
    found
}

fn run(mode: &str, extra: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_molkwar"))
        // Tables built on first use go to the build tree, never to $HOME.
        .env(
            "MOLKWAR_EGDB",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/egdb"),
        )
        .args([
            "match",
            "--engine1",
            &fake(mode),
            "--name1",
            "fake",
            "--name2",
            "molkwar",
        ])
        .args(["--games", "2", "--tc2", "depth=1"])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn expect_faults(mode: &str, extra: &[&str], reason: &str) {
    if !have_python() {
        eprintln!("python3 not found: skipped");
        return;
    }
    let (ok, out, err) = run(mode, extra);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("Score of fake vs molkwar: 0 - 2 - 0"),
        "{mode}: {out}"
    );
    assert!(
        out.contains(&format!("faults: {reason} 2")),
        "{mode}: {out}"
    );
    assert!(
        out.contains("molkwar: ") && out.contains("faults: none"),
        "{out}"
    );
}

#[test]
fn illegal_move_loses() {
    expect_faults("illegal", &["--tc1", "depth=1"], "illegal move");
}

#[test]
fn crash_loses() {
    expect_faults("crash", &["--tc1", "depth=1"], "engine crash");
}

#[test]
fn missing_done_loses() {
    expect_faults(
        "nodone",
        &["--tc1", "depth=1", "--move-timeout", "0.5"],
        "no done",
    );
}

#[test]
fn non_hub_line_loses() {
    expect_faults("chatty", &["--tc1", "depth=1"], "protocol violation");
}

#[test]
fn flag_fall_loses() {
    expect_faults(
        "slow",
        &["--tc1", "move-time=0.2", "--margin", "0.1"],
        "time forfeit",
    );
    expect_faults(
        "slow",
        &["--tc1", "0.5+0.1", "--margin", "0.1"],
        "time forfeit",
    );
}

#[test]
fn refused_setup_and_missing_variant_stop_the_match() {
    if !have_python() {
        return;
    }
    let (ok, _, err) = run("refuse", &["--tc1", "depth=1"]);
    assert!(!ok);
    assert!(err.contains("refused its set-up"), "{err}");
    let (ok, _, err) = run("illegal", &["--variant", "frisian"]);
    assert!(!ok);
    assert!(err.contains("declares no 'variant'"), "{err}");
}

/// The Scan-like fake: molkwar itself behind a relay that prints `init book`
/// and `init eval` before `ready` and greets on stderr.
fn scanlike() -> String {
    format!("{} {}", fake("scanlike"), env!("CARGO_BIN_EXE_molkwar"))
}

#[test]
fn lines_before_ready_are_accepted_and_logged() {
    if !have_python() {
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_molkwar"))
        // Tables built on first use go to the build tree, never to $HOME.
        .env(
            "MOLKWAR_EGDB",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/egdb"),
        )
        .args(["match", "--engine1", &scanlike(), "--name1", "scanlike"])
        .args(["--name2", "molkwar", "--tc1", "depth=2", "--tc2", "depth=1"])
        .args(["--games", "2", "--concurrency", "2"])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("[2/2] game"), "{stdout}");
    assert!(
        stdout.contains("scanlike: ") && !stdout.contains("faults: protocol"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("faults: none").count(), 2, "{stdout}");
    // Logged at info level, once per line and process (two processes).
    assert_eq!(
        stderr
            .matches("molkwar: info: engine 'scanlike' before ready: init book")
            .count(),
        2,
        "{stderr}"
    );
    assert!(stderr.contains("before ready: init eval"), "{stderr}");
}

/// The non-empty lines of a log file.
fn log_lines(dir: &std::path::Path, file: &str) -> Vec<String> {
    std::fs::read_to_string(dir.join(file))
        .unwrap_or_else(|e| panic!("{file}: {e}"))
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn log_dir_keeps_every_conversation_and_stderr() {
    if !have_python() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("molkwar-match-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_molkwar"))
        // Tables built on first use go to the build tree, never to $HOME.
        .env(
            "MOLKWAR_EGDB",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/egdb"),
        )
        .args(["match", "--engine1", &scanlike(), "--name1", "scanlike"])
        .args(["--name2", "molkwar", "--tc1", "depth=2", "--tc2", "depth=1"])
        .args(["--games", "2", "--max-plies", "20", "--log"])
        .arg(dir.join("logs"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let logs = dir.join("logs");
    for (g, white, black) in [(1, "scanlike", "molkwar"), (2, "molkwar", "scanlike")] {
        let lines = log_lines(&logs, &format!("game-000{g}.log"));
        let text = lines.join("\n");
        assert!(
            lines[0].contains(&format!("# game {g}: White {white} (depth=")),
            "{text}"
        );
        assert!(
            lines[0].contains(&format!("Black {black} (depth=")),
            "{text}"
        );
        // Every line: seconds since the game began, then a direction or a note.
        let mut last = 0.0;
        for l in &lines {
            let (t, rest) = l.trim_start().split_once(' ').unwrap();
            let t: f64 = t.parse().unwrap_or_else(|_| panic!("time in {l}"));
            assert!((0.0..600.0).contains(&t), "{l}");
            assert!(t >= last - 0.05, "time goes back: {l}");
            last = last.max(t);
            assert!(
                rest.starts_with(">scanlike: ")
                    || rest.starts_with("<scanlike: ")
                    || rest.starts_with(">molkwar: ")
                    || rest.starts_with("<molkwar: ")
                    || rest.starts_with("# "),
                "{l}"
            );
        }
        assert!(
            lines.iter().any(|l| l.ends_with(" >scanlike: go think")),
            "{text}"
        );
        assert!(
            lines.iter().any(|l| l.contains(" <molkwar: done move=")),
            "{text}"
        );
        // The result follows the last move (only `quit` may come after it).
        let result = lines.iter().position(|l| l.contains("# result ")).unwrap();
        let last_done = lines
            .iter()
            .rposition(|l| l.contains(": done move="))
            .unwrap();
        assert!(result > last_done, "{text}");
        if g == 1 {
            // The first game holds both start-ups, Scan-like lines included.
            for want in [
                " >scanlike: hub",
                " <scanlike: init book",
                " <molkwar: ready",
            ] {
                assert!(lines.iter().any(|l| l.ends_with(want)), "{want}: {text}");
            }
        } else {
            // The processes were kept: the second game starts with new-game.
            assert!(
                lines.iter().any(|l| l.ends_with(" >molkwar: new-game")),
                "{text}"
            );
            assert!(
                !lines.iter().any(|l| l.ends_with(" >molkwar: hub")),
                "{text}"
            );
        }
    }
    let err = log_lines(&logs, "engine1-stderr.log");
    assert!(
        err.iter()
            .any(|l| l.starts_with("game 1 +") && l.contains(" scanlike: scanlike: relaying to")),
        "{err:?}"
    );
    assert!(logs.join("engine2-stderr.log").exists());

    // A crashing engine: its game log shows the last thing it was sent.
    let logs = dir.join("crash");
    let (ok, out, err) = run(
        "crash",
        &["--tc1", "depth=1", "--log", logs.to_str().unwrap()],
    );
    assert!(ok, "{out}{err}");
    let text = log_lines(&logs, "game-0001.log").join("\n");
    assert!(text.contains(" >fake: go think\n"), "{text}");
    assert!(text.contains("# fake closed its output"), "{text}");
    assert!(text.contains("# result 0-2 (engine crash)"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
