//! DXP (DamExchange) play against other programs over TCP (`molkwar dxp`,
//! protocol/dxp.md): the layer-2 messages ([`message`]) with their move and
//! position notation ([`notation`]), the NUL-framed socket layer
//! ([`link`]), the engine as a player ([`player`]), one game ([`game`]),
//! and the two roles: the follower that listens ([`follower`]) and the
//! initiator that connects and plays a series ([`initiator`]).
//! International draughts only: DXP carries no variant.
//!
//! Examples:
//!
//! ```text
//! molkwar dxp --listen 27531
//! molkwar dxp --connect 192.0.2.7:27531 --games 20 --time 5 --pdn dxp.pdn
//! ```

pub mod follower;
pub mod game;
pub mod initiator;
pub mod link;
pub mod message;
pub mod notation;
pub mod player;

use clap::Args;
use link::DEFAULT_PORT;
use std::io::Write;
use std::path::PathBuf;

/// Options of `molkwar dxp`.
#[derive(Args, Debug, Clone)]
pub struct DxpArgs {
    /// Follow: listen on `[ADDR:]PORT` (a bare port listens on every IPv4
    /// address) and play the games the initiators ask for.
    #[arg(long, value_name = "[ADDR:]PORT", conflicts_with = "connect")]
    pub listen: Option<String>,
    /// Initiate: connect to `HOST[:PORT]` (port 27531 by default) and play
    /// a series of games.
    #[arg(long, value_name = "HOST[:PORT]", required_unless_present = "listen")]
    pub connect: Option<String>,
    /// The name sent to the other program.
    #[arg(long, default_value = "molkwar")]
    pub name: String,
    /// Initiator: number of games (each opening twice, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Initiator: thinking time of each side for the whole game, minutes
    /// (GAMEREQ; 0: no game clock).
    #[arg(long, default_value_t = 5)]
    pub time: u16,
    /// Initiator: moves of each side after which the game ends (GAMEREQ;
    /// 0: no limit).
    #[arg(long, default_value_t = 0)]
    pub moves: u16,
    /// Initiator: opening file (one FEN or Hub position a line); default:
    /// the shipped International set.
    #[arg(long)]
    pub openings: Option<String>,
    /// Initiator: seed of the opening order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Follower: exit after serving this many connections.
    #[arg(long)]
    pub connections: Option<u32>,
    /// Seconds the opponent may run past its game time before molkwar ends
    /// the game (a time forfeit).
    #[arg(long, default_value_t = 5.0)]
    pub margin: f64,
    /// Write the games to this PDN file.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// PDN Event tag.
    #[arg(long, default_value = "molkwar dxp")]
    pub event: String,
    /// Cap every search at this depth (besides the game clock).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Cap every search at this many nodes (besides the game clock).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size, log2 of the entry count (16..30).
    #[arg(long, default_value_t = crate::search::Engine::DEFAULT_TT_LOG2)]
    pub tt_size: u32,
    #[command(flatten)]
    pub eval: crate::arena::EvalArgs,
    /// Play no book moves (by default the built-in opening book answers
    /// the positions it knows, docs/book.md).
    #[arg(long)]
    pub no_book: bool,
    /// Book moves this many centi-men below the best are played too.
    #[arg(long, default_value_t = crate::book::DEFAULT_MARGIN)]
    pub book_margin: i32,
}

/// The address to listen on: a bare port means every IPv4 address.
pub fn listen_address(s: &str) -> String {
    match s.trim().parse::<u16>() {
        Ok(p) => format!("0.0.0.0:{p}"),
        Err(_) => s.trim().to_string(),
    }
}

/// The address to connect to: the default port when none is given.
pub fn connect_address(s: &str) -> String {
    let s = s.trim();
    let has_port = match s.rsplit_once(':') {
        // `[::1]:27531`, `host:27531`; a bare IPv6 address has several colons.
        Some((h, p)) => p.parse::<u16>().is_ok() && (h.ends_with(']') || !h.contains(':')),
        None => false,
    };
    if has_port {
        s.to_string()
    } else if s.contains(':') && !s.starts_with('[') {
        format!("[{s}]:{DEFAULT_PORT}")
    } else {
        format!("{s}:{DEFAULT_PORT}")
    }
}

fn player_config(a: &DxpArgs) -> Result<player::PlayerConfig, String> {
    let name = a.name.trim();
    if name.is_empty() || !name.chars().all(|c| (' '..='~').contains(&c)) {
        return Err("--name: give printable ASCII characters".into());
    }
    if a.depth == Some(0) || a.nodes == Some(0) {
        return Err("--depth and --nodes must be positive".into());
    }
    if a.threads == 0 || a.threads > 256 {
        return Err("--threads must be in 1..256".into());
    }
    Ok(player::PlayerConfig {
        name: name.chars().take(message::NAME_WIDTH).collect(),
        depth: a.depth,
        nodes: a.nodes,
        threads: a.threads,
        tt_size: a.tt_size.clamp(16, 30),
        eval: a.eval.choice()?,
        book: (!a.no_book).then_some(a.book_margin.clamp(0, crate::book::MAX_MARGIN)),
    })
}

/// `molkwar dxp`.
pub fn run(a: &DxpArgs) -> Result<(), String> {
    let margin = crate::arena::clock::seconds("--margin", a.margin)?;
    if a.time > 999 || a.moves > 999 {
        return Err("--time and --moves must be at most 999".into());
    }
    let config = player_config(a)?;
    let mut plan = None;
    if a.listen.is_none() {
        if a.games == 0 {
            return Err("--games must be at least 1".into());
        }
        plan = Some(crate::arena::openings::load(
            a.openings.as_deref(),
            crate::variant::VariantKind::International,
        )?);
    }
    crate::arena::init_match_logging();
    let mut player = player::Player::new(config)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let mut out = std::io::stdout().lock();
    match (&a.listen, &a.connect, plan) {
        (Some(l), _, _) => {
            let cfg = follower::FollowerConfig {
                addr: listen_address(l),
                connections: a.connections,
                margin,
                pdn: a.pdn.clone(),
                event: a.event.clone(),
            };
            rt.block_on(follower::listen(&cfg, &mut player, &mut out))
        }
        (None, Some(c), Some(openings)) => {
            let cfg = initiator::InitiatorConfig {
                addr: connect_address(c),
                games: a.games,
                minutes: a.time,
                moves: a.moves,
                openings,
                seed: a.seed,
                margin,
                pdn: a.pdn.clone(),
                event: a.event.clone(),
            };
            let _ = writeln!(
                out,
                "DXP series {} vs {}: {} games, {} min{}, {} openings",
                player.config.name,
                cfg.addr,
                cfg.games,
                cfg.minutes,
                if cfg.moves > 0 {
                    format!(" for {} moves", cfg.moves)
                } else {
                    String::new()
                },
                cfg.openings.len()
            );
            let s = rt.block_on(initiator::connect(&cfg, &mut player, &mut out))?;
            let _ = write!(out, "{}", initiator::report(&player.config.name, &s));
            let _ = out.flush();
            match s.stopped {
                Some(why) if s.tally.games() + s.unfinished + s.declined < cfg.games => {
                    Err(format!("the series stopped early: {why}"))
                }
                _ => Ok(()),
            }
        }
        _ => Err("give --listen [ADDR:]PORT or --connect HOST[:PORT]".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(listen_address("27531"), "0.0.0.0:27531");
        assert_eq!(listen_address("127.0.0.1:0"), "127.0.0.1:0");
        assert_eq!(connect_address("localhost"), "localhost:27531");
        assert_eq!(connect_address("10.0.0.2:4000"), "10.0.0.2:4000");
        assert_eq!(connect_address("[::1]:4000"), "[::1]:4000");
        assert_eq!(connect_address("::1"), "[::1]:27531");
    }
}
