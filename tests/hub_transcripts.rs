//! Replays the golden conversations of `protocol/transcripts/*.hub` against
//! the built binary. The format is described in
//! `protocol/transcripts/README.md`: `>` lines are sent, `<` lines are
//! expected (with `*` wildcards), `<?` lines are optional, consecutive `<|`
//! lines may come in any order, `~` patterns are skipped from then on, and
//! `!eof`, `!exit`, `!sleep S` steer the process. After the last step the
//! harness closes stdin and requires a prompt exit, no unexpected stdout
//! line and an empty stderr.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any expected line may take (generous for a loaded CI machine).
const LINE_TIMEOUT: Duration = Duration::from_secs(20);
/// How long the process may take to exit after EOF or `quit`.
const EXIT_TIMEOUT: Duration = Duration::from_secs(3);

/// `*` matches any run of characters; everything else literally.
fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for p in &parts[1..parts.len() - 1] {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => return false,
        }
    }
    true
}

struct Run {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    ignore: Vec<String>,
    /// A line read but not consumed by an optional expectation.
    peeked: Option<String>,
    log: Vec<String>,
}

impl Run {
    fn start(name: &str) -> Run {
        let mut child = Command::new(env!("CARGO_BIN_EXE_molkwar"))
            // Tables built on first use go to the build tree, never to $HOME.
            .env(
                "MOLKWAR_EGDB",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/egdb"),
            )
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start molkwar");
        let stdout = child.stdout.take().unwrap();
        let rx = common::lines_of(stdout);
        Run {
            name: name.to_string(),
            stdin: child.stdin.take(),
            child,
            lines: rx,
            ignore: Vec::new(),
            peeked: None,
            log: Vec::new(),
        }
    }

    fn fail(&self, msg: &str) -> String {
        format!(
            "{}: {msg}\n--- conversation so far ---\n{}",
            self.name,
            self.log.join("\n")
        )
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        let shown: String = String::from_utf8_lossy(bytes).chars().take(200).collect();
        self.log.push(format!("> {shown}"));
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.fail("stdin already closed"));
        };
        let mut data = bytes.to_vec();
        data.push(b'\n');
        stdin
            .write_all(&data)
            .and_then(|_| stdin.flush())
            .map_err(|e| self.fail(&format!("write failed: {e}")))
    }

    /// The next stdout line that is not ignored; `None` at end of output.
    fn next(&mut self, timeout: Duration) -> Result<Option<String>, String> {
        if let Some(l) = self.peeked.take() {
            return Ok(Some(l));
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.log.push(format!("< {l}"));
                    if !self.ignore.iter().any(|p| glob(p, &l)) {
                        return Ok(Some(l));
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.fail(&format!("no output line within {timeout:?}")));
                }
            }
        }
    }

    fn expect(&mut self, pattern: &str) -> Result<(), String> {
        match self.next(LINE_TIMEOUT)? {
            Some(l) if glob(pattern, &l) => Ok(()),
            Some(l) => Err(self.fail(&format!("expected '{pattern}', got '{l}'"))),
            None => Err(self.fail(&format!("expected '{pattern}', got end of output"))),
        }
    }

    fn optional(&mut self, pattern: &str) -> Result<(), String> {
        match self.next(Duration::from_millis(300)) {
            Ok(Some(l)) if glob(pattern, &l) => Ok(()),
            Ok(other) => {
                self.peeked = other;
                Ok(())
            }
            Err(_) => Ok(()),
        }
    }

    fn unordered(&mut self, patterns: &[String]) -> Result<(), String> {
        let mut left: Vec<&String> = patterns.iter().collect();
        while !left.is_empty() {
            let l = self.next(LINE_TIMEOUT)?.ok_or_else(|| {
                self.fail(&format!("expected one of {left:?}, got end of output"))
            })?;
            match left.iter().position(|p| glob(p, &l)) {
                Some(i) => {
                    left.remove(i);
                }
                None => return Err(self.fail(&format!("expected one of {left:?}, got '{l}'"))),
            }
        }
        Ok(())
    }

    /// Closes stdin (if open) and waits for a clean exit with nothing more
    /// on stdout (ignored lines apart) and nothing on stderr.
    fn finish(&mut self) -> Result<(), String> {
        self.stdin = None;
        let deadline = Instant::now() + EXIT_TIMEOUT;
        let status = loop {
            if let Some(s) = self.child.try_wait().map_err(|e| e.to_string())? {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                return Err(self.fail(&format!("no exit within {EXIT_TIMEOUT:?}")));
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        if let Some(l) = self.next(Duration::from_secs(2))? {
            return Err(self.fail(&format!("unexpected line '{l}'")));
        }
        if !status.success() {
            return Err(self.fail(&format!("exit status {status}")));
        }
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        if !err.is_empty() {
            return Err(self.fail(&format!("stderr not empty: {err}")));
        }
        Ok(())
    }
}

fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
        .collect()
}

fn replay(path: &Path) -> Result<(), String> {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
    let mut run = Run::start(&name);
    let mut group: Vec<String> = Vec::new();
    let mut finished = false;
    for raw in text.lines() {
        let line = raw.trim_end();
        if !line.starts_with("<|") && !group.is_empty() {
            let g = std::mem::take(&mut group);
            run.unordered(&g)?;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(p) = line.strip_prefix("<| ") {
            group.push(p.to_string());
        } else if let Some(p) = line.strip_prefix("<? ") {
            run.optional(p)?;
        } else if let Some(p) = line.strip_prefix("< ") {
            run.expect(p)?;
        } else if let Some(p) = line.strip_prefix("~ ") {
            run.ignore.push(p.to_string());
        } else if let Some(h) = line.strip_prefix(">hex ") {
            run.send(&hex(h))?;
        } else if let Some(spec) = line.strip_prefix(">long ") {
            let (n, prefix) = spec.split_once(' ').unwrap_or((spec, ""));
            let n: usize = n.parse().expect(">long N PREFIX");
            let mut data = prefix.as_bytes().to_vec();
            data.resize(n.max(data.len()), b'x');
            run.send(&data)?;
        } else if let Some(p) = line.strip_prefix("> ") {
            run.send(p.as_bytes())?;
        } else if line == ">" {
            run.send(b"")?;
        } else if line == "!eof" {
            run.log.push("(stdin closed)".to_string());
            run.stdin = None;
        } else if line == "!exit" {
            run.finish()?;
            finished = true;
        } else if let Some(s) = line.strip_prefix("!sleep ") {
            let s: f64 = s.parse().expect("!sleep seconds");
            std::thread::sleep(Duration::from_secs_f64(s));
        } else {
            return Err(format!("{name}: cannot read transcript line '{line}'"));
        }
    }
    if !group.is_empty() {
        run.unordered(&group)?;
    }
    if !finished {
        run.finish()?;
    }
    Ok(())
}

fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol/transcripts");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("protocol/transcripts")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hub"))
        .collect();
    files.sort();
    files
}

#[test]
fn glob_matches() {
    assert!(glob("done move=*", "done move=32-28"));
    assert!(glob("a*b*c", "axxbyyc"));
    assert!(!glob("a*b*c", "axxbyy"));
    assert!(glob("*", ""));
    assert!(!glob("ab*ba", "aba"));
    assert!(glob("pong", "pong"));
}

#[test]
fn golden_transcripts() {
    let files = transcripts();
    assert!(files.len() >= 10, "transcripts missing: {files:?}");
    let handles: Vec<_> = files
        .into_iter()
        .map(|f| std::thread::spawn(move || replay(&f)))
        .collect();
    let failures: Vec<String> = handles
        .into_iter()
        .filter_map(|h| h.join().unwrap_or_else(|_| Err("panic".into())).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
