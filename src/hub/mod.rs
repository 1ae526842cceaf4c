//! Hub mode: the protocol loop (protocol/hub.md describes what it speaks).
//!
//! A tokio current-thread runtime runs one loop that owns stdout. A reader
//! task turns stdin into lines (capped in length, bytes not yet checked for
//! UTF-8); each search reports over a `std::sync::mpsc` channel whose events
//! a small forwarding thread moves into the loop's tokio channel. The loop
//! `select!`s between the two, hands everything to the synchronous
//! [`session::Session`] and writes every reply line with a flush.

pub mod command;
pub mod line;
pub mod params;
pub mod reply;
pub mod session;

use session::{Flow, Msg, Session, Sink, keeps_search};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, BufReader};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// Longest accepted input line in bytes (a long game's move list is a few
/// kilobytes); longer lines are answered with an `error` and skipped.
pub const MAX_LINE: usize = 1 << 20;

/// How long a search may take to send its `done` after being told to stop
/// before the loop answers for it.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// Command-line options of `molkwar hub`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    /// `--log <file>`: write the log (debug level unless RUST_LOG says
    /// otherwise) to this file.
    pub log: Option<PathBuf>,
    /// `--name=value` pairs, applied as parameters before the first line.
    pub params: Vec<(String, String)>,
}

impl Options {
    /// Reads the arguments after `hub`: `--log <file>`, `--log=<file>`,
    /// `--egdb <dir>` (= `--egdb-path=<dir>`), `--name=value`, `--name`
    /// (= true); anything else is ignored.
    pub fn parse(args: &[String]) -> Options {
        let mut o = Options::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some(body) = a.strip_prefix("--") else {
                log::info!("ignoring argument {a}");
                continue;
            };
            match body.split_once('=') {
                Some(("log", f)) => o.log = Some(PathBuf::from(f)),
                // `--egdb DIR`: the endgame table directory (docs/egdb.md).
                Some(("egdb", d)) => o.params.push(("egdb-path".into(), d.to_string())),
                None if body == "egdb" => {
                    if let Some(d) = it.next() {
                        o.params.push(("egdb-path".into(), d.clone()));
                    }
                }
                Some((n, v)) => o.params.push((n.to_string(), v.to_string())),
                None if body == "log" => o.log = it.next().map(PathBuf::from),
                None => o.params.push((body.to_string(), "true".to_string())),
            }
        }
        o
    }
}

fn init_logging(file: Option<&PathBuf>) {
    let from_env = std::env::var_os("RUST_LOG").is_some();
    if file.is_none() && !from_env {
        return;
    }
    let mut b = env_logger::Builder::from_default_env();
    if !from_env {
        b.filter_level(log::LevelFilter::Debug);
    }
    if let Some(path) = file {
        match std::fs::File::create(path) {
            Ok(f) => {
                b.target(env_logger::Target::Pipe(Box::new(f)));
            }
            Err(e) => eprintln!("molkwar: cannot open log file {}: {e}", path.display()),
        }
    }
    let _ = b.try_init();
    // Panics are logged instead of printed: stderr stays quiet by default.
    std::panic::set_hook(Box::new(|info| log::error!("{info}")));
}

/// Runs Hub mode until `quit` or the end of stdin; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let opts = Options::parse(args);
    init_logging(opts.log.as_ref());
    if log::max_level() == log::LevelFilter::Off {
        std::panic::set_hook(Box::new(|_| {}));
    }
    if std::io::stdin().is_terminal() {
        eprintln!(
            "molkwar {}: Hub protocol on stdin/stdout; type 'hub', then 'init' ('quit' leaves)",
            env!("CARGO_PKG_VERSION")
        );
    }
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("molkwar: cannot start the runtime: {e}");
            return 1;
        }
    };
    let code = rt.block_on(hub_loop(opts));
    // The stdin reader blocks in a read that cannot be cancelled.
    rt.shutdown_background();
    code
}

/// The loop's stdout: every line written and flushed; a closed pipe ends
/// the loop.
struct Stdout {
    broken: bool,
}

impl Sink for Stdout {
    fn line(&mut self, s: &str) {
        log::debug!("> {s}");
        if self.broken {
            return;
        }
        let mut out = std::io::stdout().lock();
        if writeln!(out, "{s}").and_then(|_| out.flush()).is_err() {
            self.broken = true;
        }
    }
}

/// One read from stdin.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    Line(Vec<u8>),
    /// A line longer than [`MAX_LINE`] (its length), already skipped.
    TooLong(usize),
    Eof,
}

/// Reads the next line without its `\n`, never holding more than `max`
/// bytes; a last line without `\n` counts as a line.
pub async fn next_line<R: AsyncBufRead + Unpin>(r: &mut R, max: usize) -> std::io::Result<Input> {
    let mut line = Vec::new();
    let mut len = 0usize;
    loop {
        let buf = r.fill_buf().await?;
        if buf.is_empty() {
            return Ok(match len {
                0 => Input::Eof,
                n if n > max => Input::TooLong(n),
                _ => Input::Line(line),
            });
        }
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        len = len.saturating_add(chunk.len());
        if len <= max {
            line.extend_from_slice(chunk);
        } else {
            line = Vec::new();
        }
        let used = end.unwrap_or(buf.len());
        r.consume(used);
        if end.is_some() {
            return Ok(if len > max {
                Input::TooLong(len)
            } else {
                Input::Line(line)
            });
        }
    }
}

async fn read_stdin(tx: UnboundedSender<Input>) {
    let mut r = BufReader::with_capacity(1 << 16, tokio::io::stdin());
    loop {
        let input = match next_line(&mut r, MAX_LINE).await {
            Ok(i) => i,
            Err(e) => {
                log::error!("stdin: {e}");
                Input::Eof
            }
        };
        let eof = input == Input::Eof;
        if tx.send(input).is_err() || eof {
            return;
        }
    }
}

/// Does this line interrupt a running search? Commands do, except `ping`,
/// `ponder-hit` and `stop`; lines that are not commands (empty, malformed,
/// not UTF-8) do not.
fn interrupts(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes)
        .ok()
        .and_then(|s| line::parse_line(s.trim_end_matches('\r')).ok())
        .is_some_and(|l| !keeps_search(l.command))
}

/// Waits for the running search's `done` (after a stop was requested),
/// answering for the search if it does not stop within [`STOP_GRACE`].
async fn wait_done(session: &mut Session, events: &mut UnboundedReceiver<Msg>, out: &mut Stdout) {
    let deadline = tokio::time::sleep(STOP_GRACE);
    tokio::pin!(deadline);
    while session.searching() {
        tokio::select! {
            msg = events.recv() => match msg {
                Some(m) => {
                    session.on_message(m, out);
                }
                None => session.abandon(out),
            },
            _ = &mut deadline => {
                log::error!("the search did not stop within {STOP_GRACE:?}");
                session.abandon(out);
            }
        }
    }
}

async fn hub_loop(opts: Options) -> i32 {
    let (ev_tx, mut events) = unbounded_channel();
    let (in_tx, mut input) = unbounded_channel();
    tokio::spawn(read_stdin(in_tx));
    let mut session = Session::new(ev_tx);
    for (name, value) in &opts.params {
        if let Err(e) = session.set_param(name, value) {
            log::warn!("command line --{name}={value}: {e}");
        }
    }
    let mut out = Stdout { broken: false };
    let far = || tokio::time::Instant::now() + Duration::from_secs(86_400 * 365);
    // Set when `stop` was sent to a search: its `done` is due by then.
    let mut stop_deadline: Option<tokio::time::Instant> = None;
    loop {
        if !session.searching() {
            stop_deadline = None;
        }
        tokio::select! {
            biased;
            Some(msg) = events.recv() => {
                session.on_message(msg, &mut out);
            }
            _ = tokio::time::sleep_until(stop_deadline.unwrap_or_else(far)), if stop_deadline.is_some() => {
                log::error!("the search did not stop within {STOP_GRACE:?}");
                session.abandon(&mut out);
            }
            line = input.recv() => match line.unwrap_or(Input::Eof) {
                Input::Eof => {
                    // As for `stop`, then `quit`: a script that pipes its
                    // commands in still gets the search's move.
                    log::info!("end of input");
                    if session.searching() {
                        session.request_stop();
                        wait_done(&mut session, &mut events, &mut out).await;
                    }
                    break;
                }
                Input::TooLong(n) => out.line(&reply::error(&format!(
                    "line too long ({n} bytes, at most {MAX_LINE})"
                ))),
                Input::Line(bytes) => {
                    log::debug!("< {}", String::from_utf8_lossy(&bytes));
                    if session.searching() && interrupts(&bytes) {
                        session.request_stop();
                        wait_done(&mut session, &mut events, &mut out).await;
                    }
                    if session.handle_bytes(&bytes, &mut out) == Flow::Quit {
                        break;
                    }
                    if session.searching() && stop_deadline.is_none() && is_stop(&bytes) {
                        stop_deadline = Some(tokio::time::Instant::now() + STOP_GRACE);
                    }
                }
            }
        }
        if out.broken {
            log::info!("stdout closed");
            break;
        }
    }
    session.request_stop();
    0
}

fn is_stop(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes)
        .ok()
        .and_then(|s| line::parse_line(s.trim_end_matches('\r')).ok())
        .is_some_and(|l| l.command == "stop")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options() {
        let a: Vec<String> = ["--threads=2", "--log", "x.log", "--ponder", "junk", "--=1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let o = Options::parse(&a);
        assert_eq!(o.log, Some(PathBuf::from("x.log")));
        assert_eq!(o.params[0], ("threads".to_string(), "2".to_string()));
        assert_eq!(o.params[1], ("ponder".to_string(), "true".to_string()));
    }

    #[tokio::test]
    async fn lines_are_capped() {
        let data = b"ping\r\nxxxxxxxxxx\nlast".to_vec();
        let mut r = BufReader::with_capacity(3, &data[..]);
        assert_eq!(
            next_line(&mut r, 8).await.unwrap(),
            Input::Line(b"ping\r".to_vec())
        );
        assert_eq!(next_line(&mut r, 8).await.unwrap(), Input::TooLong(10));
        assert_eq!(
            next_line(&mut r, 8).await.unwrap(),
            Input::Line(b"last".to_vec())
        );
        assert_eq!(next_line(&mut r, 8).await.unwrap(), Input::Eof);
    }
}
