//! The engine side of a DXP program: molkwar's search run in process (as
//! `arena::selfplay` does), its limits for a move taken from the game clock
//! of the GAMEREQ plus optional depth and node caps. A search runs on its
//! own thread while the game loop keeps reading the connection, so a CHAT
//! is logged and a GAMEEND stops the search at once.

use super::link::{Incoming, Link};
use crate::board::Move;
use crate::book::Book;
use crate::eval::EvalChoice;
use crate::game::Game;
use crate::search::{Engine, Event, Limits, Mode};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Seconds per move when the GAMEREQ gives no game time (`000` minutes)
/// and no depth or node cap is set.
pub const DEFAULT_MOVE_TIME: f64 = 1.0;

/// How the engine is set up.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerConfig {
    /// The name sent in GAMEREQ or GAMEACC.
    pub name: String,
    /// Caps on every search (besides the clock).
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub threads: usize,
    /// Transposition table, log2 of the entries.
    pub tt_size: u32,
    pub eval: EvalChoice,
    /// The margin of book moves, centi-men (`None`: no book).
    pub book: Option<i32>,
}

/// molkwar as a DXP player.
pub struct Player {
    pub config: PlayerConfig,
    engine: Engine,
    /// Seed of the book's choices: new in every process, so that series
    /// vary; each move mixes in its count.
    seed: u64,
    moves: u64,
}

/// How a search ended.
pub enum Thought {
    /// The move to play.
    Move(Move),
    /// The search found no move (only without legal moves).
    NoMove,
    /// The peer sent something that ends or replaces the game; the search
    /// was stopped.
    Interrupted(Incoming),
}

impl Player {
    /// Builds the engine (loads the evaluation).
    pub fn new(config: PlayerConfig) -> Result<Player, String> {
        let mut engine = Engine::with_tt_size(config.tt_size);
        engine.set_threads(config.threads.max(1));
        engine.set_eval_choice(&config.eval)?;
        Ok(Player {
            config,
            engine,
            seed: crate::arena::rng::Rng::clock_seed(),
            moves: 0,
        })
    }

    /// Forgets the previous game (transposition table).
    pub fn new_game(&mut self) {
        self.engine.clear();
    }

    /// The limits of one move: `remaining` seconds of game time (`None`:
    /// no game clock) for `moves_left` moves (`None`: the rest of the game),
    /// and the caps.
    pub fn limits(&self, remaining: Option<f64>, moves_left: Option<u32>) -> Limits {
        let c = &self.config;
        let capped = c.depth.is_some() || c.nodes.is_some();
        Limits {
            depth: c.depth,
            nodes: c.nodes,
            time: remaining,
            moves: moves_left,
            move_time: (remaining.is_none() && !capped).then_some(DEFAULT_MOVE_TIME),
            ..Limits::default()
        }
    }

    /// Searches the game's position. Meanwhile the messages that do not
    /// touch the game (CHAT, BACKREQ, malformed ones) are answered by
    /// `aside`; anything else stops the search and is returned.
    pub async fn think(&mut self, link: &mut Link, game: &Game, limits: Limits) -> Thought {
        self.moves += 1;
        if let Some(margin) = self.config.book
            && let Some(mv) =
                Book::embedded(game.variant()).choose(game, margin, self.seed ^ self.moves)
        {
            return Thought::Move(mv);
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let handle = self.engine.start(game, limits, Mode::Think, tx);
        let abort = Arc::new(AtomicBool::new(false));
        let flag = abort.clone();
        let mut waiter = tokio::task::spawn_blocking(move || {
            let mut best = None;
            loop {
                match rx.recv_timeout(Duration::from_millis(10)) {
                    Ok(Event::Done { best: b, .. }) => {
                        best = b;
                        break;
                    }
                    Ok(Event::Info(_)) => {}
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                        if flag.load(Ordering::Acquire) {
                            handle.stop();
                        }
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
            handle.join();
            best
        });
        loop {
            tokio::select! {
                r = &mut waiter => {
                    return match r {
                        Ok(Some(m)) => Thought::Move(m),
                        Ok(None) => Thought::NoMove,
                        Err(e) => {
                            log::error!("the search task failed: {e}");
                            Thought::NoMove
                        }
                    };
                }
                inc = link.recv() => {
                    if let Some(inc) = aside(link, inc, "while thinking").await {
                        abort.store(true, Ordering::Release);
                        let _ = (&mut waiter).await;
                        return Thought::Interrupted(inc);
                    }
                }
            }
        }
    }
}

/// Answers what needs no change to the game: a CHAT is logged, a BACKREQ
/// answered `K1` (not supported), a malformed message logged and answered
/// with a CHAT saying what was wrong, a GAMEACC or BACKACC nobody asked
/// for logged. Returns everything else (moves, GAMEEND, GAMEREQ, the end
/// of the connection) to the caller. `when` says where in the game this
/// happened, for the logs.
pub async fn aside(link: &mut Link, inc: Incoming, when: &str) -> Option<Incoming> {
    use super::message::{BackAcceptance, Message};
    match inc {
        Incoming::Msg(Message::Chat(t)) => {
            log::info!("chat from {}: {t}", link.peer);
            None
        }
        Incoming::Msg(Message::BackReq { move_number, side }) => {
            log::info!(
                "{} asks to take back to move {move_number} ({side:?} to move): not supported",
                link.peer
            );
            if let Err(e) = link
                .send(&Message::BackAcc(BackAcceptance::NotSupported))
                .await
            {
                log::warn!("dxp {}: cannot answer BACKREQ: {e}", link.peer);
            }
            None
        }
        Incoming::Bad(bytes, e) => {
            let shown = String::from_utf8_lossy(&bytes).into_owned();
            log::warn!("dxp {}: malformed message '{shown}' {when}: {e}", link.peer);
            link.chat(&format!("molkwar: cannot read your message: {e}"))
                .await;
            None
        }
        Incoming::Msg(m @ (Message::GameAcc { .. } | Message::BackAcc(_))) => {
            log::warn!(
                "dxp {}: unexpected message '{}' {when}, ignored",
                link.peer,
                m.format()
            );
            None
        }
        other => Some(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(depth: Option<u32>, nodes: Option<u64>) -> Player {
        Player::new(PlayerConfig {
            name: "t".into(),
            depth,
            nodes,
            threads: 1,
            tt_size: 16,
            eval: EvalChoice::default(),
            book: None,
        })
        .unwrap()
    }

    #[test]
    fn limits_follow_the_clock_and_the_caps() {
        let p = player(None, None);
        let l = p.limits(Some(60.0), Some(40));
        assert_eq!((l.time, l.moves, l.move_time), (Some(60.0), Some(40), None));
        let l = p.limits(None, None);
        assert_eq!(l.move_time, Some(DEFAULT_MOVE_TIME));
        let p = player(Some(3), Some(100));
        let l = p.limits(None, None);
        assert_eq!((l.depth, l.nodes, l.move_time), (Some(3), Some(100), None));
        let l = p.limits(Some(1.5), None);
        assert_eq!((l.depth, l.time), (Some(3), Some(1.5)));
    }
}
