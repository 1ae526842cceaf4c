//! molkwar against molkwar over DXP on loopback: one process follows
//! (`dxp --listen`), the other initiates (`dxp --connect`), and whole games
//! are played with tiny node limits. Both sides' PDN files must tell the
//! same games, every move legal by molkwar's rules. A follower killed in
//! the middle of a game ends the initiator's series cleanly.

mod common;

use molkwar::board::fen;
use molkwar::game::{Game, Outcome};
use molkwar::variant::VariantKind;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// A failure guard for a loaded machine, not a measurement.
const TIMEOUT: Duration = Duration::from_secs(300);

fn molkwar(args: &[&str]) -> (Child, Receiver<String>, Receiver<String>) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_molkwar"))
        // Tables built on first use go to the build tree, never to $HOME.
        .env(
            "MOLKWAR_EGDB",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/egdb"),
        )
        .arg("dxp")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start molkwar");
    let out = common::lines_of(c.stdout.take().unwrap());
    let err = common::lines_of(c.stderr.take().unwrap());
    (c, out, err)
}

/// Waits for a line containing `needle`; returns every line seen.
fn wait_for(rx: &Receiver<String>, needle: &str) -> Vec<String> {
    let t = Instant::now();
    let mut seen = Vec::new();
    while t.elapsed() < TIMEOUT {
        match rx.recv_timeout(Duration::from_secs(1)) {
            Ok(l) => {
                let hit = l.contains(needle);
                seen.push(l);
                if hit {
                    return seen;
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(_) => break,
        }
    }
    panic!("no line with '{needle}'; seen:\n{}", seen.join("\n"));
}

fn wait_exit(c: &mut Child) -> i32 {
    let t = Instant::now();
    while t.elapsed() < TIMEOUT {
        if let Some(st) = c.try_wait().unwrap() {
            return st.code().unwrap_or(-1);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = c.kill();
    panic!("molkwar did not exit in time");
}

fn port_of(line: &str) -> String {
    line.rsplit_once(':').unwrap().1.trim().to_string()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("molkwar-dxp-{}-{name}", std::process::id()))
}

/// A PDN game: its tags' values by name and its move tokens.
struct PdnGame {
    fen: String,
    result: String,
    termination: String,
    moves: Vec<String>,
}

fn read_pdn(path: &PathBuf) -> Vec<PdnGame> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut games = Vec::new();
    for block in text.split("[Event ").skip(1) {
        let tag = |k: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(&format!("[{k} \"")))
                .map(|v| v.trim_end_matches("\"]").to_string())
                .unwrap_or_default()
        };
        let body: Vec<&str> = block
            .lines()
            .filter(|l| !l.starts_with('[') && !l.starts_with('"'))
            .collect();
        let result = tag("Result");
        let moves = body
            .join(" ")
            .split_whitespace()
            .filter(|t| !t.ends_with('.') && *t != result)
            .map(String::from)
            .collect();
        games.push(PdnGame {
            fen: tag("FEN"),
            result,
            termination: tag("Termination"),
            moves,
        });
    }
    games
}

#[test]
fn two_processes_play_a_series() {
    let (fp, ip) = (temp("follower.pdn"), temp("initiator.pdn"));
    let (mut follower, fout, _ferr) = molkwar(&[
        "--listen",
        "127.0.0.1:0",
        "--connections",
        "1",
        "--nodes",
        "400",
        "--name",
        "follower",
        "--pdn",
        fp.to_str().unwrap(),
    ]);
    let first = wait_for(&fout, "listening on");
    let port = port_of(first.last().unwrap());
    let (mut initiator, iout, _ierr) = molkwar(&[
        "--connect",
        &format!("127.0.0.1:{port}"),
        "--games",
        "2",
        "--time",
        "1",
        "--nodes",
        "400",
        "--seed",
        "7",
        "--name",
        "initiator",
        "--pdn",
        ip.to_str().unwrap(),
    ]);
    assert_eq!(wait_exit(&mut initiator), 0, "initiator failed");
    assert_eq!(wait_exit(&mut follower), 0, "follower failed");
    // The processes have exited: read their output to its end (a
    // non-blocking read could miss lines still in the reader threads).
    let lines: Vec<String> = iout.iter().collect();
    let text = lines.join("\n");
    assert!(text.contains("[1/2] game 1 initiator - follower"), "{text}");
    assert!(text.contains("[2/2] game 2 follower - initiator"), "{text}");
    let score = lines
        .iter()
        .find(|l| l.starts_with("Score of initiator vs follower: "))
        .unwrap_or_else(|| panic!("no score line:\n{text}"));
    assert!(score.ends_with("2 games"), "{score}");
    let flines: Vec<String> = fout.iter().collect();
    assert_eq!(flines.len(), 2, "{flines:?}");

    let (a, b) = (read_pdn(&ip), read_pdn(&fp));
    assert_eq!(a.len(), 2);
    assert_eq!(b.len(), 2);
    for (x, y) in a.iter().zip(&b) {
        // Both sides saw the same game and the same result.
        assert_eq!(x.fen, y.fen);
        assert_eq!(x.moves, y.moves);
        assert_eq!(x.result, y.result);
        assert!(
            ["2-0", "0-2", "1-1"].contains(&x.result.as_str()),
            "{}",
            x.result
        );
        // Every move is legal, and the game is over where it stopped.
        let mut g = Game::new(VariantKind::International, fen::parse_fen(&x.fen).unwrap());
        for m in &x.moves {
            g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        assert_ne!(g.outcome(), Outcome::Ongoing, "{}", x.termination);
    }
    // The same opening, colours swapped.
    assert_eq!(a[0].fen, a[1].fen);
    let _ = std::fs::remove_file(fp);
    let _ = std::fs::remove_file(ip);
}

#[test]
fn a_follower_killed_in_a_game_ends_the_series_cleanly() {
    // The follower has a 999-minute clock and no cap: it thinks long on
    // its first move, when it is killed.
    let (mut follower, fout, ferr) = molkwar(&["--listen", "127.0.0.1:0", "--connections", "1"]);
    let first = wait_for(&fout, "listening on");
    let port = port_of(first.last().unwrap());
    let (mut initiator, iout, _ierr) = molkwar(&[
        "--connect",
        &format!("127.0.0.1:{port}"),
        "--games",
        "2",
        "--time",
        "999",
        "--nodes",
        "200",
    ]);
    wait_for(&ferr, "game against molkwar");
    follower.kill().unwrap();
    let _ = follower.wait();
    let code = wait_exit(&mut initiator);
    let text: Vec<String> = iout.iter().collect();
    let text = text.join("\n");
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("* (connection lost)"), "{text}");
    assert!(
        text.contains("Stopped early: connection lost during game 1"),
        "{text}"
    );
}
