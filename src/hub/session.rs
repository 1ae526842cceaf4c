//! The protocol state machine: parameters, engine, game, level and the
//! running search. It is synchronous; the loop in `mod.rs` feeds it input
//! lines and search messages and hands it a [`Sink`] for the replies.

use super::command::{Level, go_mode, read_wolf};
use super::line::{Line, ParseError, parse_line};
use super::params::{Changed, Params};
use super::reply;
use crate::board::{Move, Position, Restriction, fen};
use crate::book::Book;
use crate::game::Game;
use crate::search::skill::{self, Skill};
use crate::search::{Engine, Event, Limits, Mode, SearchHandle};
use std::sync::mpsc;
use std::time::Instant;
use tokio::sync::mpsc::UnboundedSender;

/// Where reply lines go (the loop writes and flushes them).
pub trait Sink {
    fn line(&mut self, s: &str);
}

impl Sink for Vec<String> {
    fn line(&mut self, s: &str) {
        self.push(s.to_string());
    }
}

/// What a search thread reports to the loop, tagged with the search id.
#[derive(Debug)]
pub enum Msg {
    Event(u64, Event),
    /// The search dropped its sender (normally just after its `Done`).
    Ended(u64),
}

/// Whether the loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

struct Running {
    id: u64,
    handle: SearchHandle,
    game: Game,
    /// First move of the latest pv, the fallback answer.
    pv_move: Option<Move>,
    started: Instant,
}

/// The engine as the protocol sees it.
pub struct Session {
    params: Params,
    /// Created at `init` (or at the first `go` of a client that skips it);
    /// its table is a zeroed allocation, so `ready` still comes at once.
    engine: Option<Engine>,
    game: Option<Game>,
    limits: Limits,
    /// The next `level` line starts a new level (set by `go`).
    level_fresh: bool,
    search: Option<Running>,
    next_id: u64,
    events: UnboundedSender<Msg>,
    /// Seed of a weaker level's choices and of book moves, new in every
    /// process (each `go` mixes in its number), so games vary.
    skill_seed: u64,
}

/// Commands that do not interrupt a running search (`quit` ends the
/// process without waiting for it).
pub fn keeps_search(command: &str) -> bool {
    matches!(command, "ping" | "ponder-hit" | "stop" | "quit")
}

impl Session {
    /// A session whose searches report to `events`.
    pub fn new(events: UnboundedSender<Msg>) -> Session {
        Session {
            params: Params::default(),
            engine: None,
            game: None,
            limits: Limits::default(),
            level_fresh: false,
            search: None,
            next_id: 0,
            events,
            skill_seed: crate::arena::rng::Rng::clock_seed(),
        }
    }

    /// The engine, created with the current parameters if need be.
    fn engine(&mut self) -> &mut Engine {
        let params = &self.params;
        self.engine.get_or_insert_with(|| {
            let mut e = Engine::with_tt_size(params.tt_size);
            e.set_threads(params.threads);
            e.set_evaluators(params.evaluators.clone());
            e.set_egdb(params.egdb_dir(), params.egdb_pieces);
            e.set_egdb_auto(params.egdb_path.trim().is_empty());
            e
        })
    }

    /// True while a search runs (its `done` not yet sent).
    pub fn searching(&self) -> bool {
        self.search.is_some()
    }

    /// Asks the running search to stop (its `done` arrives as a message).
    pub fn request_stop(&self) {
        if let Some(r) = &self.search {
            r.handle.stop();
        }
    }

    /// Sets a parameter (from `set-param` or the command line).
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        match self.params.set(name, value)? {
            Changed::Variant => self.rebuild_game(),
            Changed::Threads => {
                if let Some(e) = self.engine.as_mut() {
                    e.set_threads(self.params.threads);
                }
            }
            Changed::TtSize => {
                if let Some(e) = self.engine.as_mut() {
                    e.set_tt_size(self.params.tt_size);
                }
            }
            Changed::Eval => {
                if let Some(e) = self.engine.as_mut() {
                    e.set_evaluators(self.params.evaluators.clone());
                }
            }
            Changed::Egdb => {
                // Read the tables now so that a missing or damaged file is
                // reported to the client; the engine plays on without it.
                let (dir, n, kind) = (
                    self.params.egdb_dir(),
                    self.params.egdb_pieces,
                    self.params.variant(),
                );
                let auto = self.params.egdb_path.trim().is_empty();
                let e = self.engine();
                e.set_egdb(dir, n);
                e.set_egdb_auto(auto);
                e.load_egdb(kind)?;
            }
            Changed::Unknown => log::info!("ignoring unknown parameter {name}"),
            Changed::Nothing | Changed::Play => {}
        }
        Ok(())
    }

    /// Replays the current game under the (new) variant; drops it when a
    /// move is no longer legal.
    fn rebuild_game(&mut self) {
        let Some(old) = self.game.take() else {
            return;
        };
        let variant = self.params.variant();
        let mut start = *old.start();
        if !variant.is_frisian() {
            for c in [crate::Color::White, crate::Color::Black] {
                start = start.with_restriction(c, Restriction::NONE);
            }
        }
        let mut g = Game::new(variant, start);
        for m in old.moves() {
            if !g.legal_moves().contains(m) {
                log::warn!("position dropped: {m} is not legal in {variant}");
                return;
            }
            g.play(m);
        }
        self.game = Some(g);
    }

    /// Handles one input line (bytes without the line end).
    pub fn handle_bytes(&mut self, bytes: &[u8], out: &mut dyn Sink) -> Flow {
        match std::str::from_utf8(bytes) {
            Ok(s) => self.handle_line(s.trim_end_matches('\r'), out),
            Err(e) => {
                out.line(&reply::error(&format!(
                    "line is not UTF-8 (bad byte at {})",
                    e.valid_up_to() + 1
                )));
                Flow::Continue
            }
        }
    }

    /// Handles one input line; a panic inside becomes an `error` reply.
    pub fn handle_line(&mut self, text: &str, out: &mut dyn Sink) -> Flow {
        let line = match parse_line(text) {
            Ok(l) => l,
            Err(ParseError::Empty) => return Flow::Continue,
            Err(e) => {
                out.line(&reply::error(&e.to_string()));
                return Flow::Continue;
            }
        };
        let run =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.command(&line, out)));
        run.unwrap_or_else(|_| {
            out.line(&reply::error(&format!(
                "internal error in {}",
                line.command
            )));
            Flow::Continue
        })
    }

    fn command(&mut self, line: &Line<'_>, out: &mut dyn Sink) -> Flow {
        let result = match line.command {
            "hub" => {
                out.line(&reply::id());
                for p in self.params.declarations() {
                    out.line(&p);
                }
                out.line("wait");
                Ok(())
            }
            "init" => {
                self.engine();
                out.line("ready");
                Ok(())
            }
            "set-param" => self.set_param_line(line),
            "pos" => self.pos(line),
            "level" => self.level(line),
            "go" => self.go(line, out),
            "ponder-hit" => {
                if let Some(r) = &self.search {
                    r.handle.ponder_hit();
                }
                Ok(())
            }
            "stop" => {
                self.request_stop();
                Ok(())
            }
            "ping" => {
                out.line("pong");
                Ok(())
            }
            "new-game" => {
                if let Some(e) = self.engine.as_mut() {
                    e.clear();
                }
                Ok(())
            }
            "quit" => return Flow::Quit,
            c => Err(format!("unknown command '{c}'")),
        };
        if let Err(e) = result {
            out.line(&reply::error(&e));
        }
        Flow::Continue
    }

    fn set_param_line(&mut self, line: &Line<'_>) -> Result<(), String> {
        let name = line
            .value("name")
            .ok_or("set-param: missing name=<parameter>")?;
        let value = line
            .value("value")
            .ok_or_else(|| format!("set-param: missing value=<v> for {name}"))?;
        self.set_param(name, value)
    }

    fn pos(&mut self, line: &Line<'_>) -> Result<(), String> {
        let variant = self.params.variant();
        let mut start = match line.value("pos") {
            Some(p) => fen::parse_any(p).map_err(|e| e.to_string())?,
            None => Position::start(),
        };
        if let Some(w) = line.value("wolf") {
            for w in read_wolf(w)? {
                let Some(r) = Restriction::new(w.square, w.count) else {
                    continue;
                };
                if start.piece_at(w.square) != Some((w.color, true)) {
                    return Err(format!(
                        "bad wolf: no {} king on {}",
                        if w.color == crate::Color::White {
                            "white"
                        } else {
                            "black"
                        },
                        w.square
                    ));
                }
                let has_man = start.pieces(w.color) & start.men() != 0;
                if variant.is_frisian() && has_man {
                    start = start.with_restriction(w.color, r);
                }
            }
        }
        let mut game = Game::new(variant, start);
        if let Some(m) = line.value("moves") {
            game.play_all(m).map_err(|e| e.to_string())?;
        }
        self.game = Some(game);
        Ok(())
    }

    fn level(&mut self, line: &Line<'_>) -> Result<(), String> {
        let level = Level::read(line)?;
        if self.level_fresh {
            self.limits = Limits::default();
            self.level_fresh = false;
        }
        level.apply(&mut self.limits);
        Ok(())
    }

    fn go(&mut self, line: &Line<'_>, out: &mut dyn Sink) -> Result<(), String> {
        let mode = go_mode(line);
        let game = self
            .game
            .as_ref()
            .ok_or("go: no position (send pos first)")?;
        if game.legal_moves().is_empty() {
            return Err("go: no legal move in this position".to_string());
        }
        let game = game.clone();
        self.level_fresh = true;
        self.next_id += 1;
        let id = self.next_id;
        if mode == Mode::Think
            && let Some(mv) = self.book_move(&game, id)
        {
            // A book move is the whole answer: its done, no search.
            out.line(&reply::done(&mv, None));
            return Ok(());
        }
        let (tx, rx) = mpsc::channel();
        let events = self.events.clone();
        std::thread::Builder::new()
            .name(format!("hub-forward-{id}"))
            .spawn(move || {
                for ev in rx {
                    if events.send(Msg::Event(id, ev)).is_err() {
                        return;
                    }
                }
                let _ = events.send(Msg::Ended(id));
            })
            .map_err(|e| format!("go: cannot start a thread: {e}"))?;
        log::debug!("go {mode:?} limits {:?}", self.limits);
        let mut limits = self.limits.clone();
        if self.params.level < skill::FULL {
            limits.skill = Some(Skill {
                level: self.params.level,
                seed: self.skill_seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            });
        }
        let handle = self.engine().start(&game, limits, mode, tx);
        self.search = Some(Running {
            id,
            handle,
            game,
            pv_move: None,
            started: Instant::now(),
        });
        Ok(())
    }

    /// The book's move for the game's position, if `book` is on and the
    /// position is in the book in use.
    fn book_move(&self, game: &Game, id: u64) -> Option<Move> {
        let p = &self.params;
        if !p.book {
            return None;
        }
        let book = match &p.book_loaded {
            Some(b) => b.as_ref(),
            None => Book::embedded(game.variant()),
        };
        book.choose(game, p.book_margin, self.skill_seed ^ id.rotate_left(17))
    }

    /// Handles a message from a search; returns true when it ended the
    /// running search (its `done` was sent).
    pub fn on_message(&mut self, msg: Msg, out: &mut dyn Sink) -> bool {
        let (id, event) = match msg {
            Msg::Event(id, ev) => (id, Some(ev)),
            Msg::Ended(id) => (id, None),
        };
        let Some(r) = self.search.as_mut().filter(|r| r.id == id) else {
            return false;
        };
        match event {
            Some(Event::Info(info)) => {
                if let Some(m) = info.pv.first() {
                    r.pv_move = Some(*m);
                }
                out.line(&reply::info(&info));
                false
            }
            Some(Event::Done { best, ponder }) => {
                self.finish(best, ponder, true, out);
                true
            }
            None => {
                log::error!("search {id} ended without done");
                self.finish(None, None, true, out);
                true
            }
        }
    }

    /// Sends the `done` of a search that does not answer any more (the
    /// fallback move: the latest pv move, else the first legal move).
    pub fn abandon(&mut self, out: &mut dyn Sink) {
        if self.search.is_some() {
            self.finish(None, None, false, out);
        }
    }

    fn finish(&mut self, best: Option<Move>, ponder: Option<Move>, join: bool, out: &mut dyn Sink) {
        let Some(r) = self.search.take() else {
            return;
        };
        let legal = r.game.legal_moves();
        let best = best
            .filter(|m| legal.contains(m))
            .or(r.pv_move.filter(|m| legal.contains(m)))
            .or(legal.iter().next().copied());
        let Some(best) = best else {
            out.line(&reply::error("go: no legal move in this position"));
            return;
        };
        let ponder = ponder.filter(|p| {
            let mut g = r.game.clone();
            g.play(&best);
            g.legal_moves().contains(p)
        });
        log::debug!(
            "search {} done after {:.3} s",
            r.id,
            r.started.elapsed().as_secs_f64()
        );
        out.line(&reply::done(&best, ponder.as_ref()));
        // The thread ends right after sending Done; joining keeps the
        // engine free for the next search. An abandoned search is detached.
        if join {
            r.handle.join();
        }
    }
}
