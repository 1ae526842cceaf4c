//! The default engine's endgame tables (docs/egdb.md, "Default"): a Hub
//! engine with `egdb-path` unset builds the ≤ 3-piece tables into
//! `$MOLKWAR_EGDB` at its first search of an ending, keeps stdout to the
//! protocol and stderr silent on a pipe, and then reports `tbhits`.

use molkwar::VariantKind;
use molkwar::egdb::{Material, storage};
use molkwar::search::EGDB_AUTO_PIECES;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn complete(dir: &Path) -> bool {
    Material::all_up_to(EGDB_AUTO_PIECES)
        .into_iter()
        .all(|m| storage::path(dir, VariantKind::International, m).is_file())
}

#[test]
fn hub_builds_the_small_tables_on_first_use_and_reports_hits() {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("egdb-default-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_molkwar"))
        .arg("hub")
        .env("MOLKWAR_EGDB", &dir)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut send = |s: &str| writeln!(stdin, "{s}").unwrap();
    send("hub");
    send("init");
    for l in lines.by_ref() {
        if l.unwrap() == "ready" {
            break;
        }
    }
    // One search of a king against a king; returns its info lines.
    let mut search = |send: &mut dyn FnMut(&str)| {
        send("pos pos=\"W:WK31:BK20\"");
        send("level depth=6");
        send("go think");
        let mut infos = Vec::new();
        for l in lines.by_ref() {
            let l = l.unwrap();
            if l.starts_with("done ") {
                return infos;
            }
            assert!(l.starts_with("info "), "unexpected line {l}");
            infos.push(l);
        }
        panic!("no done");
    };
    let first = search(&mut send);
    assert!(!first.is_empty());
    // The build runs in the background; wait for its files (bounded).
    let start = Instant::now();
    while !complete(&dir) {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no tables in {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let second = search(&mut send);
    let last = second.last().unwrap();
    let hits: u64 = last
        .rsplit_once(" tbhits=")
        .map(|(_, n)| n.parse().unwrap())
        .unwrap_or_else(|| panic!("no tbhits in {last}"));
    assert!(hits > 0, "{last}");
    // A table draw is scored 0 at once.
    assert!(last.contains(" score=0.00 "), "{last}");
    send("quit");
    assert!(child.wait().unwrap().success());
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(err.is_empty(), "stderr on a pipe: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}
