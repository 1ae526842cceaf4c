//! The initiator (`molkwar dxp --connect`): connects to a follower and
//! plays a series of games, like `molkwar match`: opening k (the shipped
//! set, or a file, in an order shuffled by the seed) is played by games 2k
//! (molkwar White) and 2k+1 (colours swapped), each with the same time and
//! move limit in its GAMEREQ. Every game is printed as it ends, written to
//! the PDN, and counted for the final score and Elo.

use super::game::{self, GameReport, GameSpec};
use super::link::{Incoming, Link};
use super::message::{Acceptance, GameReq, Message};
use super::player::{Player, aside};
use crate::arena::openings::Opening;
use crate::arena::pdn;
use crate::arena::referee::GameResult;
use crate::arena::rng::Rng;
use crate::arena::stats::Tally;
use crate::board::{Color, Position};
use crate::variant::VariantKind;
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// How long the follower may take to answer a GAMEREQ.
pub const ACCEPT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long connecting may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);

/// The series to play.
#[derive(Clone, Debug, PartialEq)]
pub struct InitiatorConfig {
    /// The follower's address (`host:port`).
    pub addr: String,
    pub games: u32,
    /// GAMEREQ thinking time per side, minutes (0: none).
    pub minutes: u16,
    /// GAMEREQ number of moves (0: no limit).
    pub moves: u16,
    pub openings: Vec<Opening>,
    /// Shuffles the order of the openings.
    pub seed: u64,
    /// Seconds past the opponent's game time before molkwar ends the game.
    pub margin: f64,
    pub pdn: Option<PathBuf>,
    pub event: String,
}

/// The outcome of a series, from molkwar's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeriesSummary {
    pub tally: Tally,
    /// The follower's name (from GAMEACC).
    pub opponent: String,
    /// Games played to the end without a result (`*`).
    pub unfinished: u32,
    /// Requests the follower declined with code 2.
    pub declined: u32,
    /// Why the series stopped early, if it did.
    pub stopped: Option<String>,
}

/// Plays the series; progress lines go to `out`.
pub async fn connect(
    cfg: &InitiatorConfig,
    player: &mut Player,
    out: &mut dyn Write,
) -> Result<SeriesSummary, String> {
    if cfg.openings.is_empty() {
        return Err("no openings".into());
    }
    let stream = tokio::time::timeout(CONNECT_TIMEOUT, tokio::net::TcpStream::connect(&cfg.addr))
        .await
        .map_err(|_| format!("cannot connect to '{}': timed out", cfg.addr))?
        .map_err(|e| format!("cannot connect to '{}': {e}", cfg.addr))?;
    let mut link = Link::tcp(stream);
    log::info!("dxp: connected to {}", link.peer);
    let mut pdn_file = match &cfg.pdn {
        Some(p) => Some(
            std::fs::File::create(p)
                .map_err(|e| format!("cannot create PDN '{}': {e}", p.display()))?,
        ),
        None => None,
    };
    let mut order: Vec<usize> = (0..cfg.openings.len()).collect();
    Rng::new(cfg.seed).shuffle(&mut order);
    let mut s = SeriesSummary::default();
    let mut pairs: HashMap<u32, f64> = HashMap::new();
    let ours = player.config.name.clone();
    for g in 0..cfg.games {
        let start = cfg.openings[order[(g / 2) as usize % order.len()]].pos;
        let our_color = if g.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let req = GameReq {
            version: super::message::VERSION,
            name: ours.clone(),
            follower: our_color.other(),
            minutes: cfg.minutes,
            moves: cfg.moves,
            start: (start != Position::start()).then_some(start),
        };
        match request(&mut link, req).await {
            Ok((name, Acceptance::Accept)) => s.opponent = name,
            Ok((name, Acceptance::DeclineGame)) => {
                s.opponent = name;
                s.declined += 1;
                let _ = writeln!(out, "game {}: declined by the follower", g + 1);
                continue;
            }
            Ok((name, code)) => {
                s.opponent = name;
                s.stopped = Some(match code {
                    Acceptance::WrongVersion => {
                        "the follower does not speak protocol version 01 (code 1)".into()
                    }
                    _ => "the follower declines all games (code 3)".into(),
                });
                break;
            }
            Err(e) => {
                s.stopped = Some(e);
                break;
            }
        }
        let spec = GameSpec {
            ours: our_color,
            start,
            minutes: cfg.minutes,
            moves: cfg.moves,
            margin: cfg.margin,
        };
        let rep = game::play(&mut link, player, &spec).await;
        let (white, black) = match our_color {
            Color::White => (ours.as_str(), s.opponent.as_str()),
            Color::Black => (s.opponent.as_str(), ours.as_str()),
        };
        if let Some(f) = pdn_file.as_mut() {
            let h = pdn::Header {
                event: &cfg.event,
                round: g + 1,
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
            f.write_all(text.as_bytes())
                .map_err(|e| format!("cannot write the PDN: {e}"))?;
        }
        let line = format!(
            "[{}/{}] game {} {white} - {black} {} ({}), {} plies",
            g + 1,
            cfg.games,
            g + 1,
            rep.pdn_result(),
            rep.termination,
            rep.moves.len()
        );
        count(&mut s, &mut pairs, g, our_color, &rep);
        let _ = writeln!(out, "{line} | {}", score_line(&s.tally));
        let _ = out.flush();
        if rep.closed {
            s.stopped = Some(format!("connection lost during game {}", g + 1));
            break;
        }
        if rep.peer_stop {
            s.stopped = Some("the follower wants no more games".into());
            break;
        }
    }
    link.shutdown().await;
    Ok(s)
}

/// Sends the GAMEREQ and waits for the GAMEACC: the follower's name and code.
async fn request(link: &mut Link, req: GameReq) -> Result<(String, Acceptance), String> {
    link.send(&Message::GameReq(req))
        .await
        .map_err(|e| format!("cannot send GAMEREQ: {e}"))?;
    let deadline = tokio::time::Instant::now() + ACCEPT_TIMEOUT;
    loop {
        let inc = tokio::time::timeout_at(deadline, link.recv())
            .await
            .map_err(|_| "no GAMEACC in time".to_string())?;
        let inc = match inc {
            Incoming::Msg(Message::GameAcc { name, code }) => return Ok((name, code)),
            inc => aside(link, inc, "waiting for GAMEACC").await,
        };
        match inc {
            None => {}
            Some(Incoming::Closed(_)) => return Err("the follower closed the connection".into()),
            Some(Incoming::Msg(m)) => {
                log::warn!(
                    "dxp {}: '{}' instead of GAMEACC, ignored",
                    link.peer,
                    m.format()
                );
            }
            Some(Incoming::Bad(..)) => {}
        }
    }
}

/// Adds a game to the tally (molkwar's view); games 2k and 2k+1 form a pair.
fn count(
    s: &mut SeriesSummary,
    pairs: &mut HashMap<u32, f64>,
    g: u32,
    ours: Color,
    rep: &GameReport,
) {
    let Some(result) = rep.result else {
        s.unfinished += 1;
        return;
    };
    let white = match result {
        GameResult::WhiteWins => 1.0,
        GameResult::Draw => 0.5,
        GameResult::BlackWins => 0.0,
    };
    let score = if ours == Color::White {
        white
    } else {
        1.0 - white
    };
    let t = &mut s.tally;
    if score > 0.75 {
        t.wins += 1;
    } else if score > 0.25 {
        t.draws += 1;
    } else {
        t.losses += 1;
    }
    if let Some(other) = pairs.remove(&(g / 2)) {
        t.penta[((score + other) * 2.0) as usize] += 1;
    } else {
        pairs.insert(g / 2, score);
    }
}

fn score_line(t: &Tally) -> String {
    format!(
        "+{} ={} -{} score {:.1}%",
        t.wins,
        t.draws,
        t.losses,
        t.score().unwrap_or(0.5) * 100.0
    )
}

/// The final report of a series.
pub fn report(ours: &str, s: &SeriesSummary) -> String {
    let t = &s.tally;
    let mut r = format!(
        "Score of {ours} vs {}: {} - {} - {} (W-L-D) [{:.1}%] {} games\n",
        if s.opponent.is_empty() {
            "?"
        } else {
            &s.opponent
        },
        t.wins,
        t.losses,
        t.draws,
        t.score().unwrap_or(0.5) * 100.0,
        t.games()
    );
    let elo = t
        .elo_trinomial()
        .map_or("n/a".to_string(), |e| e.to_string());
    r.push_str(&format!("Elo difference: {elo} (95%, per game)\n"));
    if s.unfinished > 0 || s.declined > 0 {
        r.push_str(&format!(
            "Unfinished games: {}, declined requests: {}\n",
            s.unfinished, s.declined
        ));
    }
    if let Some(why) = &s.stopped {
        r.push_str(&format!("Stopped early: {why}\n"));
    }
    r
}
