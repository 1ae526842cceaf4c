//! The follower (`molkwar dxp --listen`): accepts connections one after
//! the other and, on each, answers game requests: a request it can play
//! (protocol version 1, an International position with a game to play) is
//! accepted and played with the requested colour, time and position;
//! anything else is declined with GAMEACC's refusal codes. A connection
//! that drops ends its game; the listener then waits for the next one.

use super::game::{self, GameReport, GameSpec};
use super::link::{Incoming, Link};
use super::message::{Acceptance, GameReq, Message};
use super::player::{Player, aside};
use crate::arena::pdn;
use crate::board::{Color, Position};
use crate::game::{Game, Outcome};
use crate::variant::VariantKind;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// What the follower needs besides the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct FollowerConfig {
    /// The address to listen on (`host:port`).
    pub addr: String,
    /// Stop after serving this many connections (`None`: never).
    pub connections: Option<u32>,
    /// Seconds past the opponent's game time before molkwar ends the game.
    pub margin: f64,
    /// Write the games to this PDN file.
    pub pdn: Option<PathBuf>,
    /// PDN `Event` tag.
    pub event: String,
}

/// Whether molkwar plays the game a request asks for, and why not.
pub fn judge(r: &GameReq) -> (Acceptance, Option<String>) {
    if r.version != super::message::VERSION {
        return (
            Acceptance::WrongVersion,
            Some(format!("protocol version {:02}", r.version)),
        );
    }
    let pos = r.start.unwrap_or_else(Position::start);
    for c in [Color::White, Color::Black] {
        let n = pos.pieces(c).count_ones();
        if n > 20 {
            return (
                Acceptance::DeclineGame,
                Some(format!("{n} {c:?} pieces: not an International position")),
            );
        }
    }
    let g = Game::new(VariantKind::International, pos);
    if g.outcome() != Outcome::Ongoing {
        return (
            Acceptance::DeclineGame,
            Some(format!(
                "the game is over in the start position ({})",
                g.outcome()
            )),
        );
    }
    (Acceptance::Accept, None)
}

/// Listens and serves connections until `connections` have been served.
pub async fn listen(
    cfg: &FollowerConfig,
    player: &mut Player,
    out: &mut dyn Write,
) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(&cfg.addr)
        .await
        .map_err(|e| format!("cannot listen on '{}': {e}", cfg.addr))?;
    let local = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on '{}': {e}", cfg.addr))?;
    let _ = writeln!(
        out,
        "DXP follower {} listening on {local}",
        player.config.name
    );
    let _ = out.flush();
    let mut pdn_file = match &cfg.pdn {
        Some(p) => Some(
            std::fs::File::create(p)
                .map_err(|e| format!("cannot create PDN '{}': {e}", p.display()))?,
        ),
        None => None,
    };
    let mut served = 0u32;
    let mut games = 0u32;
    while cfg.connections.is_none_or(|n| served < n) {
        let (stream, addr) = match listener.accept().await {
            Ok(x) => x,
            Err(e) => {
                log::warn!("dxp: accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        served += 1;
        log::info!("dxp: connection from {addr}");
        let mut link = Link::tcp(stream);
        let mut sink = Sink {
            cfg,
            out: &mut *out,
            pdn: pdn_file.as_mut(),
            games: &mut games,
        };
        serve(&mut link, player, &mut sink).await;
        link.shutdown().await;
        log::info!("dxp: connection from {addr} ended");
    }
    Ok(())
}

/// Where the follower's games are reported.
struct Sink<'a> {
    cfg: &'a FollowerConfig,
    out: &'a mut dyn Write,
    pdn: Option<&'a mut std::fs::File>,
    games: &'a mut u32,
}

impl Sink<'_> {
    fn report(&mut self, ours: &str, theirs: &str, spec: &GameSpec, rep: &GameReport) {
        *self.games += 1;
        let (white, black) = match spec.ours {
            Color::White => (ours, theirs),
            Color::Black => (theirs, ours),
        };
        let _ = writeln!(
            self.out,
            "game {}: {white} - {black} {} ({}), {} plies",
            self.games,
            rep.pdn_result(),
            rep.termination,
            rep.moves.len()
        );
        let _ = self.out.flush();
        if let Some(f) = self.pdn.as_mut() {
            let h = pdn::Header {
                event: &self.cfg.event,
                round: *self.games,
                white,
                black,
                variant: VariantKind::International,
            };
            let text = pdn::write(
                &h,
                &rep.start,
                &rep.moves,
                rep.pdn_result(),
                &rep.termination,
            );
            if let Err(e) = f.write_all(text.as_bytes()) {
                log::error!("cannot write the PDN: {e}");
            }
        }
    }
}

/// Serves one connection until it ends or the peer asks to stop.
async fn serve(link: &mut Link, player: &mut Player, sink: &mut Sink<'_>) {
    let mut pending: Option<Incoming> = None;
    loop {
        let inc = match pending.take() {
            Some(i) => i,
            None => link.recv().await,
        };
        let req = match inc {
            Incoming::Bad(bytes, e) if e.header() == Some('R') => {
                let code = if bytes.get(1..3) == Some(b"01".as_slice()) {
                    Acceptance::DeclineGame
                } else {
                    Acceptance::WrongVersion
                };
                log::warn!("dxp {}: unreadable game request: {e}", link.peer);
                if !accept_answer(link, player, code).await {
                    return;
                }
                continue;
            }
            inc => match aside(link, inc, "between games").await {
                None => continue,
                Some(Incoming::Msg(Message::GameReq(r))) => r,
                Some(Incoming::Closed(_)) => return,
                Some(Incoming::Msg(m)) => {
                    log::warn!(
                        "dxp {}: '{}' outside a game, ignored",
                        link.peer,
                        m.format()
                    );
                    continue;
                }
                Some(Incoming::Bad(..)) => continue,
            },
        };
        let (code, why) = judge(&req);
        if let Some(why) = &why {
            log::warn!("dxp {}: game request declined: {why}", link.peer);
        }
        if !accept_answer(link, player, code).await || code != Acceptance::Accept {
            continue;
        }
        log::info!(
            "dxp {}: game against {} ({} min, {} moves), molkwar plays {:?}",
            link.peer,
            req.name,
            req.minutes,
            req.moves,
            req.follower
        );
        let spec = GameSpec::from_request(&req, sink.cfg.margin);
        let rep = game::play(link, player, &spec).await;
        let ours = player.config.name.clone();
        sink.report(&ours, &req.name, &spec, &rep);
        if rep.closed {
            return;
        }
        if rep.peer_stop {
            log::info!("dxp {}: the initiator wants no more games", link.peer);
            return;
        }
        pending = rep.next.map(|r| Incoming::Msg(Message::GameReq(r)));
    }
}

/// Sends GAMEACC; false when the connection failed.
async fn accept_answer(link: &mut Link, player: &Player, code: Acceptance) -> bool {
    let m = Message::GameAcc {
        name: player.config.name.clone(),
        code,
    };
    match link.send(&m).await {
        Ok(()) => true,
        Err(e) => {
            log::warn!("dxp {}: cannot send GAMEACC: {e}", link.peer);
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen;

    fn req(start: Option<Position>) -> GameReq {
        GameReq {
            version: 1,
            name: "x".into(),
            follower: Color::Black,
            minutes: 1,
            moves: 0,
            start,
        }
    }

    #[test]
    fn requests_are_judged() {
        assert_eq!(judge(&req(None)).0, Acceptance::Accept);
        let mut r = req(None);
        r.version = 2;
        assert_eq!(judge(&r).0, Acceptance::WrongVersion);
        // Black to move without pieces: the game is over.
        let over = fen::parse_fen("B:W31").unwrap();
        assert_eq!(judge(&req(Some(over))).0, Acceptance::DeclineGame);
        let crowded = fen::parse_fen("W:W6-50:B1-5").unwrap();
        assert_eq!(judge(&req(Some(crowded))).0, Acceptance::DeclineGame);
    }
}
