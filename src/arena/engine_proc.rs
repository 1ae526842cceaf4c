//! A Hub engine as a child process, seen from the client side: piped
//! stdin/stdout, a reader thread per engine that forwards stdout lines over
//! a channel (so every wait has a timeout), the start-up handshake
//! (`hub` → `wait` → `set-param`… → `init` → `ready`), `new-game`, and one
//! search (`pos`, `level`, `go think` → `info`… `done`), and pondering
//! (`go ponder`, then `ponder-hit` or `stop`).
//!
//! Lines both ways go through the one Hub grammar of [`crate::hub::line`]:
//! what is sent is written by its [`Writer`], what the engine prints is read
//! by [`parse_line`]. Strict about what the engine prints (the grammar, and
//! a known first word), except between `init` and `ready`: Scan 3.1 prints
//! `init book`, `init eval` there, and Hub GUI ignores them
//! (docs/hub-clients.md), so any line is accepted and logged at info level.
//! Every line both ways goes through the engine's [`Tap`] (the game logs of
//! `--log`). stderr is read by a thread into the tap's stderr file when
//! there is one, else discarded (an engine that writes much to an unread
//! pipe would block).

use super::clock::TimeControl;
use super::transcript::{GameLog, Tap};
use crate::hub::line::{Line as HubLine, ParseError, Writer, command_word, parse_line};
use crate::variant::VariantKind;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `hub` or `ping`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(30);

/// How long an engine may take from `set-param` to `ready`: an engine reads
/// its endgame tables there (molkwar's Frisian ≤ 5-piece tables, 3.9 GB,
/// take 15–40 s, more with two engines loading at once).
pub const INIT_TIMEOUT: Duration = Duration::from_secs(300);

/// The first words of the lines a Hub engine may print.
const HUB_WORDS: [&str; 8] = [
    "id", "param", "wait", "ready", "info", "done", "pong", "error",
];

/// An engine's line read as Hub: it must follow the grammar and start with
/// one of [`HUB_WORDS`]; anything else is a protocol violation.
fn hub_line(text: &str) -> Result<HubLine<'_>, Fault> {
    match parse_line(text) {
        Ok(l) if HUB_WORDS.contains(&l.command) => Ok(l),
        _ => Err(Fault::Protocol(text.to_string())),
    }
}

/// True for a line with nothing on it (skipped, as Hub GUI does).
fn is_blank(text: &str) -> bool {
    parse_line(text) == Err(ParseError::Empty)
}

/// How to run one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Name for the PDN and the summary.
    pub name: String,
    pub program: String,
    pub args: Vec<String>,
    /// Working directory of the process.
    pub dir: Option<PathBuf>,
    /// `set-param` values, sent in this order after the variant (checked
    /// with [`crate::hub::line::check_value`]: they go over unchanged).
    pub params: Vec<(String, String)>,
    pub tc: TimeControl,
}

/// Splits a command line into words: whitespace separates, single and double
/// quotes group, a backslash escapes the next character.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '\\') => {
                cur.push(chars.next().unwrap_or('\\'));
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unterminated quote in command '{text}'"));
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// Why talking to an engine failed during a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process exited or closed its output.
    Crash,
    /// No `done` before the deadline.
    Timeout,
    /// A stdout line that is not Hub, or a `done` without a move.
    Protocol(String),
}

/// The last `info` of a search, as far as the summary needs it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InfoSummary {
    pub depth: Option<u32>,
    /// Men, side to move's view.
    pub score: Option<f64>,
    pub nodes: Option<u64>,
    /// Millions of nodes per second.
    pub nps: Option<f64>,
}

/// One search's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move as the engine wrote it.
    pub mv: String,
    pub elapsed: Duration,
    pub info: InfoSummary,
    /// `error` lines the engine printed meanwhile.
    pub errors: Vec<String>,
    /// The reply the engine expects (`done … ponder=`), as written.
    pub ponder: Option<String>,
}

/// What the reader thread forwards.
enum Output {
    Text(String),
    Eof,
}

/// A running engine.
pub struct EngineProc {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Output>,
    params: Vec<String>,
    tap: Tap,
}

/// Calls `each` for every line of `from` (end of line and a `\r` removed),
/// then `end` once at the end of the stream or on a read error. Bytes that
/// are not UTF-8 are replaced rather than ending the stream.
fn read_lines(from: impl Read, mut each: impl FnMut(String) -> bool, end: impl FnOnce()) {
    let mut r = BufReader::new(from);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match r.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let l = String::from_utf8_lossy(&buf);
                if !each(l.trim_end_matches(['\n', '\r']).to_string()) {
                    return;
                }
            }
        }
    }
    end();
}

impl EngineProc {
    /// Starts the engine and completes the handshake for `variant`; its
    /// traffic goes to `tap`. Errors here are configuration errors: they
    /// stop the match.
    pub fn start(spec: &EngineSpec, variant: VariantKind, tap: Tap) -> Result<EngineProc, String> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if tap.keeps_stderr() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        if let Some(d) = &spec.dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn().map_err(|e| {
            format!(
                "cannot start engine '{}' ({}): {e}",
                spec.name, spec.program
            )
        })?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => return Err(format!("engine '{}': no pipes", spec.name)),
        };
        if let Some(stderr) = child.stderr.take() {
            let t = tap.clone();
            std::thread::Builder::new()
                .name("engine-stderr".into())
                .spawn(move || {
                    read_lines(
                        stderr,
                        |l| {
                            t.stderr_line(&l);
                            true
                        },
                        || {},
                    )
                })
                .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        }
        let (tx, rx) = channel();
        let t = tap.clone();
        std::thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || {
                // Logged here, when the line arrives, so that the game log's
                // times are the engine's and not the referee's.
                let eof = tx.clone();
                read_lines(
                    stdout,
                    |l| {
                        t.received(&l);
                        tx.send(Output::Text(l)).is_ok()
                    },
                    || {
                        t.closed();
                        let _ = eof.send(Output::Eof);
                    },
                )
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let mut e = EngineProc {
            name: spec.name.clone(),
            child,
            stdin,
            lines: rx,
            params: Vec::new(),
            tap,
        };
        e.handshake(spec, variant)?;
        Ok(e)
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends this engine's traffic to `log` from now on (the next game's).
    pub fn set_game_log(&self, log: Option<Arc<GameLog>>) {
        self.tap.set_game(log);
    }

    fn setup_err(&self, what: &str, f: Fault) -> String {
        self.setup_err_within(what, f, HANDSHAKE_TIMEOUT)
    }

    /// [`EngineProc::setup_err`] of a step allowed `limit`.
    fn setup_err_within(&self, what: &str, f: Fault, limit: Duration) -> String {
        let why = match f {
            Fault::Crash => "it exited".to_string(),
            Fault::Timeout => format!("no answer within {} s", limit.as_secs()),
            Fault::Protocol(l) => format!("it printed a non-Hub line: '{l}'"),
        };
        format!("engine '{}' failed at {what}: {why}", self.name)
    }

    fn handshake(&mut self, spec: &EngineSpec, variant: VariantKind) -> Result<(), String> {
        self.send("hub").map_err(|f| self.setup_err("hub", f))?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let l = self
                .recv(deadline)
                .map_err(|f| self.setup_err("hub (waiting for wait)", f))?;
            let line = hub_line(&l).map_err(|f| self.setup_err("hub (waiting for wait)", f))?;
            match line.command {
                "wait" => break,
                "param" => {
                    if let Some(n) = line.value("name") {
                        self.params.push(n.to_string());
                    }
                }
                _ => {}
            }
        }
        let mut sets = Vec::new();
        if variant.reading_of().is_some() {
            return Err(only_listed_variants());
        }
        // An engine without a `variant` parameter plays the default one.
        if variant != VariantKind::default() || self.declares("variant") {
            if !self.declares("variant") {
                return Err(format!(
                    "engine '{}' declares no 'variant' parameter, so it cannot play {variant}",
                    self.name
                ));
            }
            sets.push(("variant".to_string(), variant.name().to_string()));
        }
        sets.extend(spec.params.iter().cloned());
        for (k, v) in &sets {
            let line = Writer::new("set-param").pair("name", k).pair("value", v);
            self.send(&line.finish())
                .map_err(|f| self.setup_err("set-param", f))?;
        }
        self.send("init")
            .map_err(|f| self.setup_err_within("init", f, INIT_TIMEOUT))?;
        let deadline = Instant::now() + INIT_TIMEOUT;
        loop {
            // Any line may come before `ready` (Scan: `init book`).
            let l = self
                .recv_any(deadline)
                .map_err(|f| self.setup_err_within("init (waiting for ready)", f, INIT_TIMEOUT))?;
            let word = command_word(&l).unwrap_or("");
            if word == "ready" {
                return Ok(());
            }
            if !HUB_WORDS.contains(&word) {
                log::info!("engine '{}' before ready: {l}", self.name);
            }
            if word == "error" {
                return Err(format!(
                    "engine '{}' refused its set-up ({}): {l}",
                    self.name,
                    sets.iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
        }
    }

    /// True if the engine declared a `param` of that name.
    pub fn declares(&self, name: &str) -> bool {
        self.params.iter().any(|p| p == name)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.tap.sent(line);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| Fault::Crash)
    }

    /// The next non-empty stdout line before `deadline`, whatever it says.
    fn recv_any(&self, deadline: Instant) -> Result<String, Fault> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(Output::Text(l)) if is_blank(&l) => continue,
                Ok(Output::Text(l)) => return Ok(l),
                Ok(Output::Eof) | Err(RecvTimeoutError::Disconnected) => return Err(Fault::Crash),
                Err(RecvTimeoutError::Timeout) => return Err(Fault::Timeout),
            }
        }
    }

    /// The next non-empty stdout line before `deadline`; non-Hub lines fail.
    fn recv(&self, deadline: Instant) -> Result<String, Fault> {
        let l = self.recv_any(deadline)?;
        hub_line(&l)?;
        Ok(l)
    }

    /// Starts a new game (`new-game`, then `ping` until `pong`).
    pub fn new_game(&mut self) -> Result<(), Fault> {
        self.send("new-game")?;
        self.send("ping")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        while hub_line(&self.recv(deadline)?)?.command != "pong" {}
        Ok(())
    }

    /// One search: `pos pos=<start> moves="<moves>"`, the `level` line
    /// (from [`super::clock::Clock::level_line`]), `go think`; waits for
    /// `done` at most `timeout` after the `go`.
    pub fn think(
        &mut self,
        start: &str,
        moves: &str,
        level: &str,
        timeout: Duration,
    ) -> Result<Reply, Fault> {
        self.position(start, moves, level)?;
        self.send("go think")?;
        self.await_done(timeout)
    }

    /// Starts pondering: the position with the expected reply played,
    /// the `level` line, `go ponder`. The engine searches until
    /// [`EngineProc::ponder_hit`] or [`EngineProc::stop_ponder`].
    pub fn ponder(&mut self, start: &str, moves: &str, level: &str) -> Result<(), Fault> {
        self.position(start, moves, level)?;
        self.send("go ponder")
    }

    /// The expected reply came: `ponder-hit` (the engine's clock starts
    /// now); waits for `done` at most `timeout`.
    pub fn ponder_hit(&mut self, timeout: Duration) -> Result<Reply, Fault> {
        self.send("ponder-hit")?;
        self.await_done(timeout)
    }

    /// Another reply came (or the game ended): `stop`, and the pondering
    /// search's `done` within `timeout`, discarded.
    pub fn stop_ponder(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send("stop")?;
        self.await_done(timeout).map(|_| ())
    }

    /// Sends `pos` and `level` after checking the lines printed since the
    /// last search (they must still be Hub lines).
    fn position(&mut self, start: &str, moves: &str, level: &str) -> Result<(), Fault> {
        while let Ok(l) = self.lines.try_recv() {
            match l {
                Output::Eof => return Err(Fault::Crash),
                Output::Text(t) if is_blank(&t) => {}
                Output::Text(t) => {
                    hub_line(&t)?;
                }
            }
        }
        let pos = Writer::new("pos").pair("pos", start);
        // Moves are quoted even when there is one (as Hub GUI sends them).
        let pos = if moves.is_empty() {
            pos
        } else {
            pos.quoted("moves", moves)
        };
        self.send(&pos.finish())?;
        self.send(level)
    }

    /// Reads the search's lines up to its `done`, at most `timeout` from now
    /// (the reply's time is measured from now too).
    fn await_done(&mut self, timeout: Duration) -> Result<Reply, Fault> {
        let t0 = Instant::now();
        let deadline = t0 + timeout;
        let mut info = InfoSummary::default();
        let mut errors = Vec::new();
        loop {
            let l = self.recv(deadline)?;
            let line = hub_line(&l)?;
            let get = |k: &str| line.value(k);
            match line.command {
                "info" => {
                    let mut i = info;
                    if let Some(d) = get("depth").and_then(|v| v.parse().ok()) {
                        i.depth = Some(d);
                    }
                    if let Some(s) = get("score").and_then(|v| v.parse().ok()) {
                        i.score = Some(s);
                    }
                    if let Some(n) = get("nodes").and_then(|v| v.parse().ok()) {
                        i.nodes = Some(n);
                    }
                    if let Some(n) = get("nps").and_then(|v| v.parse().ok()) {
                        i.nps = Some(n);
                    }
                    info = i;
                }
                "done" => {
                    let elapsed = t0.elapsed();
                    return match get("move") {
                        Some(m) if !m.is_empty() => Ok(Reply {
                            mv: m.to_string(),
                            elapsed,
                            info,
                            errors,
                            ponder: get("ponder").filter(|p| !p.is_empty()).map(str::to_string),
                        }),
                        _ => Err(Fault::Protocol(l)),
                    };
                }
                "error" => errors.push(l),
                _ => {}
            }
        }
    }

    /// Ends the process: `quit`, a short wait, then kill.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let end = Instant::now() + Duration::from_millis(500);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The refusal for a variant that is a reading of another (chosen by a
/// rule parameter the match does not set).
pub fn only_listed_variants() -> String {
    format!(
        "matches are played in the variants {}",
        VariantKind::listed_names("and")
    )
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(split_command("a b  c").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            split_command("'/x y/molkwar' hub --k=\"1 2\"").unwrap(),
            ["/x y/molkwar", "hub", "--k=1 2"]
        );
        assert_eq!(split_command(r"a\ b").unwrap(), ["a b"]);
        assert_eq!(split_command("''").unwrap(), [""]);
        assert!(split_command("a 'b").is_err());
        assert!(split_command("   ").unwrap().is_empty());
    }

    #[test]
    fn engine_lines_are_read_with_the_hub_grammar() {
        let l = hub_line("info depth=3 score=-0.25 pv=\"32-28 19-23\" nps=1.5").unwrap();
        assert_eq!(l.command, "info");
        assert_eq!(l.value("score"), Some("-0.25"));
        assert_eq!(l.value("pv"), Some("32-28 19-23"));
        assert_eq!(l.value("nps"), Some("1.5"));
        assert_eq!(
            hub_line("done move=28x19x23").unwrap().value("move"),
            Some("28x19x23")
        );
        for bad in [
            "thinking hard...",
            "done move=",
            "info pv=\"32-28",
            "=",
            "done\u{7}",
        ] {
            assert_eq!(
                hub_line(bad).err(),
                Some(Fault::Protocol(bad.to_string())),
                "{bad}"
            );
        }
        assert!(is_blank(" \t "));
        assert!(!is_blank("="));
    }

    #[test]
    fn only_listed_variants_are_matched() {
        assert_eq!(
            only_listed_variants(),
            "matches are played in the variants normal and frisian"
        );
    }
}
