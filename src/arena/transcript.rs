//! Match logs (`molkwar match --log DIR`), so that a failed game can be read
//! afterwards: for every game a file `game-0001.log` with both engines'
//! whole conversation, and for each of the two engines a file
//! `engine1-stderr.log` / `engine2-stderr.log` with what its processes wrote
//! on stderr.
//!
//! A conversation line is `  12.345 >name: text` (as in cutechess's debug
//! log): seconds since the game's log was opened (just before its engines
//! were started or sent `new-game`), `>` for a line molkwar sent and `<` for
//! a line the engine printed, the engine's name, the line. Lines with `#`
//! instead of a direction are notes: the players and opening, the result,
//! an engine closing its output. A stderr line is `game 3 +1.234 name: text`
//! (`game -` before the process's first game).
//!
//! Without `--log` an engine gets a [`Tap`] that writes nowhere.

use std::fs::File;
use std::io::{LineWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// One open log file, written a line at a time by several threads.
type Sink = Mutex<LineWriter<File>>;

/// Opens `path` for writing, created if missing: added to when `append`
/// (a resumed match), else emptied.
pub(super) fn open_for_writing(path: &Path, append: bool) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(path)
}

fn create(path: &Path, append: bool) -> Result<Sink, String> {
    open_for_writing(path, append)
        .map(|f| Mutex::new(LineWriter::new(f)))
        .map_err(|e| format!("--log: cannot create '{}': {e}", path.display()))
}

/// Writes one line; a full disk or a lost file must not stop the match, so
/// errors are dropped (the log is an aid, the PDN and summary are the
/// results).
fn write_line(sink: &Sink, line: std::fmt::Arguments) {
    if let Ok(mut w) = sink.lock() {
        let _ = writeln!(w, "{line}");
    }
}

/// The log directory of a match.
pub struct LogDir {
    dir: PathBuf,
    stderr: [Arc<Sink>; 2],
}

impl LogDir {
    /// Creates `dir` if needed and the two stderr files in it (added to
    /// when `append`, for a resumed match).
    pub fn create(dir: &Path, append: bool) -> Result<LogDir, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--log: cannot create '{}': {e}", dir.display()))?;
        let stderr =
            |i: usize| create(&dir.join(format!("engine{i}-stderr.log")), append).map(Arc::new);
        Ok(LogDir {
            dir: dir.to_path_buf(),
            stderr: [stderr(1)?, stderr(2)?],
        })
    }

    /// Opens the conversation log of game `number` (1-based); its clock
    /// starts now.
    pub fn game(&self, number: u32) -> Result<Arc<GameLog>, String> {
        let out = create(&self.dir.join(format!("game-{number:04}.log")), false)?;
        Ok(Arc::new(GameLog {
            number,
            t0: Instant::now(),
            out,
        }))
    }

    /// A tap for a process of engine `engine` (0 = first, 1 = second).
    pub fn tap(&self, engine: usize, name: &str) -> Tap {
        Tap {
            name: name.to_string(),
            game: Arc::default(),
            stderr: Some(self.stderr[engine].clone()),
        }
    }
}

/// The conversation log of one game.
pub struct GameLog {
    number: u32,
    t0: Instant,
    out: Sink,
}

impl GameLog {
    fn seconds(&self) -> f64 {
        self.t0.elapsed().as_secs_f64()
    }

    fn line(&self, mark: &str, name: &str, text: &str) {
        write_line(
            &self.out,
            format_args!("{:8.3} {mark}{name}: {text}", self.seconds()),
        );
    }

    /// A note of the referee (players, opening, result).
    pub fn note(&self, text: &str) {
        write_line(&self.out, format_args!("{:8.3} # {text}", self.seconds()));
    }
}

/// Where one engine process's traffic goes: the log of the game it is
/// playing (swapped when the process moves on to the next game; shared
/// with the threads that read its output) and its engine's stderr file.
#[derive(Clone, Default)]
pub struct Tap {
    name: String,
    game: Arc<Mutex<Option<Arc<GameLog>>>>,
    stderr: Option<Arc<Sink>>,
}

impl Tap {
    /// A tap that writes nowhere.
    pub fn none() -> Tap {
        Tap::default()
    }

    /// From now on, lines go to `log`.
    pub fn set_game(&self, log: Option<Arc<GameLog>>) {
        if let Ok(mut g) = self.game.lock() {
            *g = log;
        }
    }

    fn current(&self) -> Option<Arc<GameLog>> {
        self.game.lock().ok().and_then(|g| g.clone())
    }

    /// A line molkwar sent to the engine.
    pub fn sent(&self, line: &str) {
        if let Some(g) = self.current() {
            g.line(">", &self.name, line);
        }
    }

    /// A line the engine printed on stdout.
    pub fn received(&self, line: &str) {
        if let Some(g) = self.current() {
            g.line("<", &self.name, line);
        }
    }

    /// The engine closed its stdout (it exited or crashed).
    pub fn closed(&self) {
        if let Some(g) = self.current() {
            g.note(&format!("{} closed its output", self.name));
        }
    }

    /// True when the engine's stderr is to be kept (else it is discarded).
    pub fn keeps_stderr(&self) -> bool {
        self.stderr.is_some()
    }

    /// A line the engine wrote on stderr.
    pub fn stderr_line(&self, line: &str) {
        let Some(sink) = &self.stderr else {
            return;
        };
        match self.current() {
            Some(g) => write_line(
                sink,
                format_args!(
                    "game {} +{:.3} {}: {line}",
                    g.number,
                    g.seconds(),
                    self.name
                ),
            ),
            None => write_line(sink, format_args!("game - {}: {line}", self.name)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_go_to_the_current_game_and_stderr_file() {
        let dir = std::env::temp_dir().join(format!("molkwar-transcript-{}", std::process::id()));
        let logs = LogDir::create(&dir, false).unwrap();
        let tap = logs.tap(1, "eng");
        tap.stderr_line("before any game");
        tap.sent("lost: no game yet");
        let g1 = logs.game(1).unwrap();
        tap.set_game(Some(g1.clone()));
        g1.note("game 1");
        tap.sent("hub");
        tap.received("wait");
        tap.stderr_line("warming up");
        let g2 = logs.game(2).unwrap();
        tap.set_game(Some(g2));
        tap.received("pong");
        tap.closed();
        drop(logs);
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
        let one: Vec<String> = read("game-0001.log").lines().map(String::from).collect();
        assert_eq!(one.len(), 3, "{one:?}");
        assert!(one[0].ends_with(" # game 1"), "{one:?}");
        assert!(one[1].ends_with(" >eng: hub"), "{one:?}");
        assert!(one[2].ends_with(" <eng: wait"), "{one:?}");
        let secs: f64 = one[1].split_whitespace().next().unwrap().parse().unwrap();
        assert!((0.0..60.0).contains(&secs), "{one:?}");
        let two = read("game-0002.log");
        assert!(two.contains("<eng: pong") && two.contains("# eng closed its output"));
        let err = read("engine2-stderr.log");
        assert!(
            err.starts_with("game - eng: before any game\ngame 1 +"),
            "{err}"
        );
        assert!(err.contains(" eng: warming up\n"), "{err}");
        assert_eq!(read("engine1-stderr.log"), "");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
