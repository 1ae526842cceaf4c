//! Replays the golden DXP conversations of `protocol/dxp/*.dxp` against the
//! built binary over loopback TCP, byte for byte: every message molkwar
//! sends must be exactly the expected text followed by one NUL (field
//! widths and padding included; `*` and `?` are wildcards for what depends
//! on the search or the clock). The format is described in
//! `protocol/dxp/README.md`.

mod common;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long any expected message, connection or exit may take (a failure
/// guard for a loaded machine, not a measurement).
const TIMEOUT: Duration = Duration::from_secs(30);

/// `*` matches any run of characters, `?` any one character.
fn glob(p: &[u8], t: &[u8]) -> bool {
    match (p.first(), t.first()) {
        (None, None) => true,
        (Some(b'*'), _) => glob(&p[1..], t) || (!t.is_empty() && glob(p, &t[1..])),
        (Some(b'?'), Some(_)) => glob(&p[1..], &t[1..]),
        (Some(a), Some(b)) if a == b => glob(&p[1..], &t[1..]),
        _ => false,
    }
}

/// What the reader thread saw on the connection.
enum Frame {
    /// The bytes before a NUL.
    Message(Vec<u8>),
    /// Bytes with no NUL before the end of the stream.
    Unterminated(Vec<u8>),
    Eof,
}

fn read_frames(mut s: TcpStream) -> Receiver<Frame> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut cur = Vec::new();
        let mut buf = [0u8; 512];
        loop {
            let n = match s.read(&mut buf) {
                Ok(0) | Err(_) => {
                    if !cur.is_empty() {
                        let _ = tx.send(Frame::Unterminated(std::mem::take(&mut cur)));
                    }
                    let _ = tx.send(Frame::Eof);
                    return;
                }
                Ok(n) => n,
            };
            for &b in &buf[..n] {
                if b == 0 {
                    if tx.send(Frame::Message(std::mem::take(&mut cur))).is_err() {
                        return;
                    }
                } else {
                    cur.push(b);
                }
            }
        }
    });
    rx
}

struct Conn {
    stream: TcpStream,
    frames: Receiver<Frame>,
    peeked: Option<Frame>,
}

impl Conn {
    fn new(stream: TcpStream) -> Conn {
        let frames = read_frames(stream.try_clone().expect("clone the stream"));
        Conn {
            stream,
            frames,
            peeked: None,
        }
    }

    fn next(&mut self) -> Option<Frame> {
        if let Some(f) = self.peeked.take() {
            return Some(f);
        }
        match self.frames.recv_timeout(TIMEOUT) {
            Ok(f) => Some(f),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Frame::Eof),
        }
    }
}

struct Run {
    name: String,
    child: Child,
    stdout: Receiver<String>,
    stdout_seen: Vec<String>,
    /// stderr, drained on its own thread so that the pipe never fills.
    stderr: Receiver<String>,
    log: Vec<String>,
    conn: Option<Conn>,
    port: u16,
}

impl Run {
    fn fail(&mut self, msg: &str) -> ! {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let err = self.stderr_text();
        panic!(
            "{}: {msg}\n--- conversation so far ---\n{}\n--- stderr ---\n{err}",
            self.name,
            self.log.join("\n")
        );
    }

    fn stderr_text(&self) -> String {
        let mut s = String::new();
        while let Ok(l) = self.stderr.recv_timeout(Duration::from_millis(200)) {
            s.push_str(&l);
            s.push('\n');
        }
        s
    }

    fn conn(&mut self) -> &mut Conn {
        if self.conn.is_none() {
            self.fail("no connection");
        }
        self.conn.as_mut().unwrap()
    }

    fn send(&mut self, bytes: &[u8]) {
        let shown = String::from_utf8_lossy(bytes).replace('\0', "\\0");
        self.log.push(format!("> {shown}"));
        let r = self.conn().stream.write_all(bytes);
        if let Err(e) = r {
            self.fail(&format!("cannot send: {e}"));
        }
    }

    /// Checks the next frame against `pattern`; an optional expectation
    /// leaves a frame that does not match for the next step.
    fn expect(&mut self, pattern: &str, optional: bool) {
        let frame = self.conn().next();
        match frame {
            Some(Frame::Message(m)) if glob(pattern.as_bytes(), &m) => {
                self.log.push(format!("< {}", String::from_utf8_lossy(&m)));
            }
            Some(f) if optional => self.conn().peeked = Some(f),
            Some(Frame::Message(m)) => self.fail(&format!(
                "expected '{pattern}', got '{}' ({:?})",
                String::from_utf8_lossy(&m),
                m
            )),
            Some(Frame::Unterminated(m)) => self.fail(&format!(
                "expected '{pattern}', got bytes without a NUL: {m:?}"
            )),
            Some(Frame::Eof) => self.fail(&format!("expected '{pattern}', got end of stream")),
            None => self.fail(&format!("expected '{pattern}', got nothing in time")),
        }
    }

    fn expect_closed(&mut self) {
        match self.conn().next() {
            Some(Frame::Eof) => self.log.push("!closed".into()),
            Some(Frame::Message(m)) | Some(Frame::Unterminated(m)) => self.fail(&format!(
                "expected the end of the stream, got '{}'",
                String::from_utf8_lossy(&m)
            )),
            None => self.fail("expected the end of the stream, got nothing in time"),
        }
    }

    fn close(&mut self) {
        if let Some(c) = self.conn.take() {
            let _ = c.stream.shutdown(Shutdown::Both);
        }
        self.log.push("!close".into());
    }

    fn wait_exit(&mut self, code: i32) {
        let t = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(st)) => {
                    if st.code() != Some(code) {
                        self.fail(&format!("exit status {st}, expected {code}"));
                    }
                    return;
                }
                Ok(None) if t.elapsed() < TIMEOUT => std::thread::sleep(Duration::from_millis(20)),
                _ => self.fail(&format!("no exit (expected {code}) in time")),
            }
        }
    }
}

fn hex_bytes(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|h| u8::from_str_radix(h, 16).expect("hex byte"))
        .collect()
}

fn replay(path: &Path) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let mut role = "follower";
    let mut args: Vec<String> = Vec::new();
    let mut openings = None;
    let mut reconnects = 0;
    for l in text.lines() {
        if let Some(r) = l.strip_prefix("!role ") {
            role = if r.trim() == "initiator" {
                "initiator"
            } else {
                "follower"
            };
        } else if let Some(a) = l.strip_prefix("!args ") {
            args.extend(a.split_whitespace().map(String::from));
        } else if let Some(o) = l.strip_prefix("!openings ") {
            openings = Some(o.trim().to_string());
        } else if l.trim() == "!reconnect" {
            reconnects += 1;
        }
    }
    let dir = std::env::temp_dir().join(format!("molkwar-dxp-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    if let Some(o) = &openings {
        let f = dir.join("openings.txt");
        std::fs::write(&f, format!("{o}\n")).unwrap();
        args.push("--openings".into());
        args.push(f.to_string_lossy().into_owned());
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_molkwar"));
    // Tables built on first use go to the build tree, never to $HOME.
    cmd.env(
        "MOLKWAR_EGDB",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/egdb"),
    );
    cmd.arg("dxp")
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("RUST_LOG", "debug");
    let listener = if role == "initiator" {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        cmd.arg("--connect")
            .arg(l.local_addr().unwrap().to_string());
        Some(l)
    } else {
        cmd.args(["--listen", "127.0.0.1:0", "--connections"])
            .arg((1 + reconnects).to_string());
        None
    };
    let mut child = cmd.spawn().expect("start molkwar");
    let stdout = common::lines_of(child.stdout.take().unwrap());
    let stderr = common::lines_of(child.stderr.take().unwrap());
    let mut run = Run {
        name: name.clone(),
        child,
        stdout,
        stdout_seen: Vec::new(),
        stderr,
        log: Vec::new(),
        conn: None,
        port: 0,
    };
    match listener {
        Some(l) => {
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                let _ = tx.send(l.accept().map(|(s, _)| s));
            });
            match rx.recv_timeout(TIMEOUT) {
                Ok(Ok(s)) => run.conn = Some(Conn::new(s)),
                _ => run.fail("molkwar did not connect"),
            }
        }
        None => {
            let first = run.stdout.recv_timeout(TIMEOUT).unwrap_or_default();
            let Some(port) = first
                .rsplit_once(':')
                .and_then(|(_, p)| p.trim().parse::<u16>().ok())
            else {
                run.fail(&format!("no 'listening on' line: '{first}'"));
            };
            run.port = port;
            run.conn = Some(Conn::new(TcpStream::connect(("127.0.0.1", port)).unwrap()));
        }
    }
    let mut exited = false;
    let mut stdout_patterns = Vec::new();
    for l in text.lines() {
        if l.starts_with('#') || l.trim().is_empty() {
            continue;
        }
        if let Some(hex) = l.strip_prefix(">bytes ") {
            run.send(&hex_bytes(hex));
        } else if let Some(m) = l.strip_prefix("> ") {
            let mut b = m.as_bytes().to_vec();
            b.push(0);
            run.send(&b);
        } else if let Some(p) = l.strip_prefix("<? ") {
            run.expect(p, true);
        } else if let Some(p) = l.strip_prefix("< ") {
            run.expect(p, false);
        } else if l == "!close" {
            run.close();
        } else if l == "!closed" {
            run.expect_closed();
        } else if l == "!reconnect" {
            let s = TcpStream::connect(("127.0.0.1", run.port)).unwrap();
            run.conn = Some(Conn::new(s));
            run.log.push("!reconnect".into());
        } else if let Some(c) = l.strip_prefix("!exit ") {
            run.close();
            run.wait_exit(c.trim().parse().unwrap());
            exited = true;
        } else if let Some(p) = l.strip_prefix("!stdout ") {
            stdout_patterns.push(p.to_string());
        } else if !l.starts_with("!role") && !l.starts_with("!args") && !l.starts_with("!openings")
        {
            panic!("{name}: bad transcript line '{l}'");
        }
    }
    if !exited {
        if run.conn.is_some() {
            // Nothing unexpected may be waiting before we close.
            run.close();
        }
        run.wait_exit(0);
    }
    while let Ok(l) = run.stdout.recv_timeout(Duration::from_secs(1)) {
        run.stdout_seen.push(l);
    }
    for p in &stdout_patterns {
        if !run
            .stdout_seen
            .iter()
            .any(|l| glob(p.as_bytes(), l.as_bytes()))
        {
            let seen = run.stdout_seen.join("\n");
            run.fail(&format!("no stdout line matches '{p}'; stdout:\n{seen}"));
        }
    }
    let err = run.stderr_text();
    assert!(!err.contains("panicked"), "{name}: a panic:\n{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn transcripts() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("protocol/dxp");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dxp"))
        .collect();
    v.sort();
    v
}

#[test]
fn glob_matches() {
    assert!(glob(b"M????3827", b"M00003827"));
    assert!(!glob(b"M????3827", b"M0003827"));
    assert!(glob(b"<*>", b"<abc>"));
    assert!(glob(b"*", b""));
    assert!(!glob(b"E00", b"E00\n"));
}

#[test]
fn golden_transcripts() {
    let all = transcripts();
    assert!(all.len() >= 8, "transcripts missing: {all:?}");
    for t in all {
        replay(&t);
    }
}
