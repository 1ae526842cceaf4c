//! One DXP game, the same for both roles: MOVE messages alternate from the
//! GAMEREQ's position; each received move is checked against molkwar's
//! International rules; the side to move ends a game that is over by the
//! rules (or reached the GAMEREQ's move limit) with a GAMEEND and waits for
//! the acknowledgement; a GAMEEND from the peer is acknowledged at once.
//! An illegal move, or an opponent past its game time plus a margin, ends
//! the game too. A lost connection ends it unfinished.

use super::link::{Incoming, Link};
use super::message::{EndReason, GameReq, Message};
use super::notation::DxpMove;
use super::player::{Player, Thought, aside};
use crate::arena::pdn;
use crate::arena::referee::GameResult;
use crate::board::{Color, Position, notation};
use crate::game::{Game, Outcome};
use crate::variant::VariantKind;
use std::time::Duration;
use tokio::time::Instant;

/// How long to wait for the acknowledgement of our GAMEEND.
pub const ACK_TIMEOUT: Duration = Duration::from_secs(10);

/// What a game is played with (from the GAMEREQ).
#[derive(Clone, Debug, PartialEq)]
pub struct GameSpec {
    /// The colour molkwar plays.
    pub ours: Color,
    pub start: Position,
    /// Thinking time of each side for the game, minutes (0: no clock).
    pub minutes: u16,
    /// Moves each side makes before the game ends (0: no limit).
    pub moves: u16,
    /// Seconds past the opponent's game time before molkwar ends the game.
    pub margin: f64,
}

impl GameSpec {
    /// The game a request asks the follower to play.
    pub fn from_request(r: &GameReq, margin: f64) -> GameSpec {
        GameSpec {
            ours: r.follower,
            start: r.start.unwrap_or_else(Position::start),
            minutes: r.minutes,
            moves: r.moves,
            margin,
        }
    }
}

/// How a game went.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReport {
    pub start: Position,
    /// The moves in standard PDN notation.
    pub moves: Vec<String>,
    /// `None`: unfinished (no result can be given).
    pub result: Option<GameResult>,
    /// How it ended, for the PDN `Termination` tag and the summary.
    pub termination: String,
    /// The peer wants no further game (stop code 1).
    pub peer_stop: bool,
    /// The connection ended.
    pub closed: bool,
    /// A GAMEREQ that arrived during the game (it replaces the game).
    pub next: Option<GameReq>,
}

impl GameReport {
    /// The PDN result: `2-0`, `0-2`, `1-1` or `*`.
    pub fn pdn_result(&self) -> &'static str {
        self.result.map_or("*", |r| r.pdn())
    }

    /// The game as PDN text: round `round` of `event`, between `white`
    /// and `black`.
    pub fn pdn(&self, event: &str, round: u32, white: &str, black: &str) -> String {
        let h = pdn::Header {
            event,
            round,
            white,
            black,
            variant: VariantKind::International,
        };
        pdn::write(
            &h,
            &self.start,
            &self.moves,
            self.pdn_result(),
            &self.termination,
        )
    }
}

fn win_for(c: Color) -> GameResult {
    match c {
        Color::White => GameResult::WhiteWins,
        Color::Black => GameResult::BlackWins,
    }
}

struct State {
    game: Game,
    /// molkwar's colour.
    ours: Color,
    report: GameReport,
}

impl State {
    fn end(mut self, result: Option<GameResult>, termination: impl Into<String>) -> GameReport {
        self.report.result = result;
        self.report.termination = termination.into();
        self.report
    }

    /// The result by molkwar's rules when the game is over on the board.
    fn by_rules(&self) -> Option<(GameResult, String)> {
        match self.game.outcome() {
            Outcome::Ongoing => None,
            Outcome::Loss => Some((
                win_for(self.game.position().side().other()),
                "no legal move".into(),
            )),
            Outcome::Draw(rule) => Some((GameResult::Draw, format!("draw by {rule}"))),
        }
    }
}

/// Plays one game on `link` (the GAMEREQ/GAMEACC exchange is done).
pub async fn play(link: &mut Link, player: &mut Player, spec: &GameSpec) -> GameReport {
    player.new_game();
    let mut st = State {
        game: Game::new(VariantKind::International, spec.start),
        ours: spec.ours,
        report: GameReport {
            start: spec.start,
            moves: Vec::new(),
            result: None,
            termination: String::new(),
            peer_stop: false,
            closed: false,
            next: None,
        },
    };
    let clock = (spec.minutes > 0).then_some(spec.minutes as f64 * 60.0);
    let (mut ours_used, mut theirs_used) = (0.0f64, 0.0f64);
    let mut our_moves = 0u32;
    loop {
        let side = st.game.position().side();
        if side == spec.ours {
            if let Some((result, why)) = st.by_rules() {
                let reason = match result {
                    GameResult::Draw => EndReason::Draw,
                    _ => EndReason::Resign,
                };
                return end_ours(link, st, reason, Some(result), why).await;
            }
            if spec.moves > 0 && our_moves >= spec.moves as u32 {
                let why = format!("move limit ({} moves)", spec.moves);
                return end_ours(link, st, EndReason::Unknown, Some(GameResult::Draw), why).await;
            }
            let moves_left = (spec.moves > 0).then(|| spec.moves as u32 - our_moves);
            let limits = player.limits(clock.map(|c| c - ours_used), moves_left);
            let t0 = Instant::now();
            let mv = match player.think(link, &st.game, limits).await {
                Thought::Move(m) => m,
                Thought::NoMove => {
                    return end_ours(link, st, EndReason::Resign, None, "no move found").await;
                }
                Thought::Interrupted(inc) => return interrupted(link, st, inc).await,
            };
            let secs = t0.elapsed().as_secs_f64();
            ours_used += secs;
            let legal = st.game.legal_moves();
            st.report.moves.push(notation::to_pdn(&mv, &legal));
            st.game.play(&mv);
            our_moves += 1;
            let msg = Message::Move(DxpMove::from_move(&mv, secs.round().min(9999.0) as u16));
            if let Err(e) = link.send(&msg).await {
                log::warn!("dxp {}: cannot send the move: {e}", link.peer);
                st.report.closed = true;
                return st.end(None, "connection lost");
            }
        } else {
            let t0 = Instant::now();
            let deadline = clock.map(|c| {
                let left = (c - theirs_used + spec.margin).clamp(0.0, 1e7);
                t0 + Duration::from_secs_f64(left)
            });
            let received = loop {
                let inc = match deadline {
                    Some(d) => match tokio::time::timeout_at(d, link.recv()).await {
                        Ok(i) => i,
                        Err(_) => break None,
                    },
                    None => link.recv().await,
                };
                if let Some(inc) = aside(link, inc, "waiting for a move").await {
                    break Some(inc);
                }
            };
            let d = match received {
                None => {
                    log::warn!(
                        "dxp {}: the opponent's game time ({} min) is over",
                        link.peer,
                        spec.minutes
                    );
                    let r = Some(win_for(spec.ours));
                    return end_ours(link, st, EndReason::Win, r, "time forfeit").await;
                }
                Some(Incoming::Msg(Message::Move(d))) => d,
                Some(inc) => return interrupted(link, st, inc).await,
            };
            theirs_used += t0.elapsed().as_secs_f64();
            let legal = st.game.legal_moves();
            match d.resolve(&legal) {
                Ok(mv) => {
                    st.report.moves.push(notation::to_pdn(&mv, &legal));
                    st.game.play(&mv);
                }
                Err(why) => {
                    log::warn!("dxp {}: {why}", link.peer);
                    link.chat(&format!("molkwar: {why}; the game ends")).await;
                    let r = Some(win_for(spec.ours));
                    let t = format!("illegal move '{}'", d.text());
                    return end_ours(link, st, EndReason::Win, r, t).await;
                }
            }
        }
    }
}

/// The peer's message that ends the game outside the move exchange: a
/// GAMEEND (acknowledged), a new GAMEREQ, the end of the connection, or a
/// move sent while molkwar was to move (the game ends: the peer loses).
async fn interrupted(link: &mut Link, mut st: State, inc: Incoming) -> GameReport {
    match inc {
        Incoming::Msg(Message::GameEnd { reason, stop }) => {
            st.report.peer_stop = stop;
            let ack = Message::GameEnd {
                reason: EndReason::Unknown,
                stop: false,
            };
            if let Err(e) = link.send(&ack).await {
                log::warn!("dxp {}: cannot acknowledge GAMEEND: {e}", link.peer);
            }
            let sender = st.ours.other();
            if let Some((r, why)) = st.by_rules() {
                return st.end(Some(r), why);
            }
            let (r, why) = match reason {
                EndReason::Resign => (Some(win_for(sender.other())), "opponent resigned"),
                EndReason::Draw => (Some(GameResult::Draw), "draw claimed by opponent"),
                EndReason::Win => (Some(win_for(sender)), "win claimed by opponent"),
                EndReason::Unknown => (None, "ended by opponent"),
            };
            st.end(r, why)
        }
        Incoming::Msg(Message::GameReq(r)) => {
            log::warn!(
                "dxp {}: a new GAMEREQ during the game; the game is abandoned",
                link.peer
            );
            st.report.next = Some(r);
            st.end(None, "replaced by a new game request")
        }
        Incoming::Closed(e) => {
            match e {
                Some(e) => log::warn!("dxp {}: connection lost during the game: {e}", link.peer),
                None => log::warn!("dxp {}: connection closed during the game", link.peer),
            }
            st.report.closed = true;
            st.end(None, "connection lost")
        }
        other => {
            log::warn!("dxp {}: unexpected {other:?} during the game", link.peer);
            link.chat("molkwar: a move out of turn; the game ends")
                .await;
            let r = Some(win_for(st.ours));
            end_ours(link, st, EndReason::Win, r, "move out of turn").await
        }
    }
}

/// Ends the game with our GAMEEND and waits for the acknowledgement.
async fn end_ours(
    link: &mut Link,
    mut st: State,
    reason: EndReason,
    result: Option<GameResult>,
    why: impl Into<String>,
) -> GameReport {
    let why = why.into();
    log::info!("dxp {}: ending the game: {why}", link.peer);
    let msg = Message::GameEnd {
        reason,
        stop: false,
    };
    if let Err(e) = link.send(&msg).await {
        log::warn!("dxp {}: cannot send GAMEEND: {e}", link.peer);
        st.report.closed = true;
        return st.end(result, why);
    }
    let deadline = Instant::now() + ACK_TIMEOUT;
    loop {
        let inc = match tokio::time::timeout_at(deadline, link.recv()).await {
            Ok(i) => i,
            Err(_) => {
                log::warn!("dxp {}: GAMEEND not acknowledged", link.peer);
                return st.end(result, why);
            }
        };
        let Some(inc) = aside(link, inc, "waiting for the GAMEEND acknowledgement").await else {
            continue;
        };
        match inc {
            Incoming::Msg(Message::GameEnd { stop, .. }) => {
                st.report.peer_stop = stop;
                return st.end(result, why);
            }
            Incoming::Msg(Message::GameReq(r)) => {
                log::warn!("dxp {}: GAMEREQ before acknowledging GAMEEND", link.peer);
                st.report.next = Some(r);
                return st.end(result, why);
            }
            Incoming::Closed(_) => {
                st.report.closed = true;
                return st.end(result, why);
            }
            Incoming::Msg(m) => {
                log::info!(
                    "dxp {}: '{}' crossed our GAMEEND, ignored",
                    link.peer,
                    m.format()
                );
            }
            Incoming::Bad(..) => {}
        }
    }
}
