//! Shared helpers of the integration tests: readers for the spec data files
//! in `tests/data/`, a line reader for a child process's output, and a run
//! of the built binary.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs the built binary with `args` and no stdin. Endgame tables built on
/// first use go to the build tree, never to $HOME.
pub fn run_molkwar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_molkwar"))
        .env(
            "MOLKWAR_EGDB",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/egdb"),
        )
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("cannot run the molkwar binary")
}
use std::sync::mpsc::{Receiver, channel};

/// The lines of `out` (a child's stdout), read on their own thread so that
/// a test can wait for them with a timeout.
pub fn lines_of(out: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for l in BufReader::new(out).lines() {
            let Ok(l) = l else { break };
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    rx
}

/// Path of a file in `tests/data/`.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

/// The text of a file in `tests/data/`.
pub fn read_data(name: &str) -> String {
    let path = data_path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// One entry of a positions file (`international.txt`, `frisian.txt`):
/// its `key: value` lines in file order.
#[derive(Clone, Debug)]
pub struct Entry {
    pub fields: Vec<(String, String)>,
}

impl Entry {
    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of a key every entry must have.
    pub fn req(&self, key: &str) -> &str {
        self.get(key)
            .unwrap_or_else(|| panic!("entry {} has no '{key}' line", self.id()))
    }

    /// The entry id (`I01`, `F25`, ...).
    pub fn id(&self) -> &str {
        self.get("id").unwrap_or("<no id>")
    }

    /// The moves to play first (Hub notation), possibly none.
    pub fn moves(&self) -> Vec<String> {
        self.get("moves")
            .map(|m| m.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default()
    }

    /// The expected legal moves as written (`(none)` = empty).
    pub fn expect_moves(&self) -> Vec<String> {
        let v = self.req("expect-moves").trim();
        if v == "(none)" {
            Vec::new()
        } else {
            v.split_whitespace().map(str::to_string).collect()
        }
    }

    /// The expected number of legal moves (the leading integer of
    /// `expect-count`, e.g. `1 (raw sequences incl. duplicates: 2)`).
    pub fn expect_count(&self) -> usize {
        let v = self.req("expect-count");
        let digits: String = v.trim().chars().take_while(char::is_ascii_digit).collect();
        digits
            .parse()
            .unwrap_or_else(|_| panic!("entry {}: bad expect-count '{v}'", self.id()))
    }
}

/// Reads a positions file: blocks separated by blank lines, `#` comments.
pub fn parse_positions(text: &str) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut cur: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        if line.starts_with('#') {
            continue;
        }
        if line.trim().is_empty() {
            if !cur.is_empty() {
                entries.push(Entry {
                    fields: std::mem::take(&mut cur),
                });
            }
            continue;
        }
        let (k, v) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("positions file: line without ':' : {line}"));
        cur.push((k.trim().to_string(), v.trim().to_string()));
    }
    if !cur.is_empty() {
        entries.push(Entry { fields: cur });
    }
    entries
}

/// The entries of `tests/data/<name>`.
pub fn positions(name: &str) -> Vec<Entry> {
    parse_positions(&read_data(name))
}

/// One line of `tests/data/perft.txt`.
#[derive(Clone, Debug)]
pub struct PerftCase {
    pub variant: String,
    pub name: String,
    pub fen: String,
    pub depth: u32,
    pub leaves: u64,
}

/// Reads `tests/data/perft.txt`.
pub fn perft_cases() -> Vec<PerftCase> {
    let text = read_data("perft.txt");
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f.len(), 5, "perft.txt line {}: 5 fields expected", i + 1);
        cases.push(PerftCase {
            variant: f[0].to_string(),
            name: f[1].to_string(),
            fen: f[2].to_string(),
            depth: f[3]
                .parse()
                .unwrap_or_else(|_| panic!("perft.txt line {}: bad depth", i + 1)),
            leaves: f[4]
                .parse()
                .unwrap_or_else(|_| panic!("perft.txt line {}: bad count", i + 1)),
        });
    }
    cases
}
