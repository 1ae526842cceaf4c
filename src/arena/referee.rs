//! The referee: plays one game between two running engines with molkwar's
//! own rules. Moves are read leniently against the legal moves (captured
//! squares in any order, partial forms); the game ends when the side to move
//! has no legal move, by any draw rule of the variant (`Game::outcome`), by
//! a fault (illegal move, crash, missing `done`, non-Hub line, flag fall:
//! the faulty side loses), or by optional adjudication on the engines' scores
//! or the game length.

use super::clock::{Clock, TimeControl};
use super::engine_proc::{EngineProc, Fault, Reply};
use crate::board::{Color, Position, fen, notation};
use crate::game::{Game, Outcome};
use crate::variant::{DrawRule, VariantKind};
use std::fmt;
use std::time::Duration;

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Termination {
    /// The side to move had no legal move.
    NoMoves,
    Draw(DrawRule),
    /// The loser wrote this move, which is not legal (or ambiguous).
    Illegal(String),
    /// The loser's flag fell.
    Time,
    /// The loser's process exited.
    Crash,
    /// The loser sent no `done` in time (depth and node controls).
    NoDone,
    /// The loser printed a line that is not Hub.
    Protocol(String),
    /// Both engines' scores agreed that one side is winning.
    AdjudicatedWin,
    /// Both engines' scores stayed near zero.
    AdjudicatedDraw,
    /// The game reached the maximum length.
    MaxLength,
}

impl Termination {
    /// A short name for the PDN `Termination` tag and the summary.
    pub fn name(&self) -> String {
        match self {
            Termination::NoMoves => "no legal move".into(),
            Termination::Draw(r) => format!("draw by {r}"),
            Termination::Illegal(m) => format!("illegal move '{m}'"),
            Termination::Time => "time forfeit".into(),
            Termination::Crash => "engine crash".into(),
            Termination::NoDone => "no done".into(),
            Termination::Protocol(l) => format!("protocol violation '{l}'"),
            Termination::AdjudicatedWin => "adjudication (scores)".into(),
            Termination::AdjudicatedDraw => "adjudication (draw)".into(),
            Termination::MaxLength => "maximum length".into(),
        }
    }

    /// Reads back a [`Termination::name`] (from a PDN `Termination` tag).
    pub fn parse(name: &str) -> Option<Termination> {
        let quoted = |prefix: &str| {
            name.strip_prefix(prefix)?
                .strip_prefix('\'')?
                .strip_suffix('\'')
                .map(str::to_string)
        };
        if let Some(rule) = name.strip_prefix("draw by ") {
            return DrawRule::ALL
                .into_iter()
                .find(|r| r.name() == rule)
                .map(Termination::Draw);
        }
        if let Some(m) = quoted("illegal move ") {
            return Some(Termination::Illegal(m));
        }
        if let Some(l) = quoted("protocol violation ") {
            return Some(Termination::Protocol(l));
        }
        [
            Termination::NoMoves,
            Termination::Time,
            Termination::Crash,
            Termination::NoDone,
            Termination::AdjudicatedWin,
            Termination::AdjudicatedDraw,
            Termination::MaxLength,
        ]
        .into_iter()
        .find(|t| t.name() == name)
    }

    /// True for the faults that lose a game.
    pub fn is_fault(&self) -> bool {
        matches!(
            self,
            Termination::Illegal(_)
                | Termination::Time
                | Termination::Crash
                | Termination::NoDone
                | Termination::Protocol(_)
        )
    }
}

/// The result from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// PDN result: `2-0`, `0-2`, `1-1`.
    pub fn pdn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "2-0",
            GameResult::BlackWins => "0-2",
            GameResult::Draw => "1-1",
        }
    }

    /// Reads back a [`GameResult::pdn`] result.
    pub fn parse(pdn: &str) -> Option<GameResult> {
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ]
        .into_iter()
        .find(|r| r.pdn() == pdn)
    }

    fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Optional adjudication (all off by default).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// Both engines report at least this score (men) for the same side…
    pub resign_score: Option<f64>,
    /// …for this many moves each.
    pub resign_moves: u32,
    /// Both engines report at most this absolute score…
    pub draw_score: Option<f64>,
    /// …for this many moves each…
    pub draw_moves: u32,
    /// …once the game has this many plies.
    pub draw_after: u32,
    /// A draw when the game reaches this many plies.
    pub max_plies: Option<u32>,
}

/// What the referee needs beyond the engines.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub variant: VariantKind,
    /// Extra seconds granted before a flag falls (process latency).
    pub margin: f64,
    /// How long to wait for `done` under depth and node controls.
    pub move_timeout: Duration,
    pub adjudication: Adjudication,
    /// Each engine ponders on the opponent's time: after its move it
    /// searches the reply it expects (`go ponder`), and gets `ponder-hit`
    /// when that reply is played, else `stop` and a new search.
    pub ponder: bool,
}

/// What each side's engine reported over the game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideStats {
    pub moves: u32,
    pub depth_sum: f64,
    pub depth_count: u32,
    pub nps_sum: f64,
    pub nps_count: u32,
    /// `error` lines printed during searches.
    pub errors: u32,
    /// Moves after which the engine pondered, and how many of those the
    /// opponent answered as it expected.
    pub ponders: u32,
    pub ponder_hits: u32,
    /// Seconds spent and moves made per game phase ([`phase`]).
    pub phase_secs: [f64; 3],
    pub phase_moves: [u32; 3],
}

/// Names of the game phases of [`SideStats::phase_secs`].
pub const PHASES: [&str; 3] = ["opening", "middlegame", "endgame"];

/// The phase of a position by its pieces: opening from 30 on the board,
/// endgame up to 15, middlegame between.
pub fn phase(pieces: u32) -> usize {
    match pieces {
        30.. => 0,
        16..=29 => 1,
        _ => 2,
    }
}

impl SideStats {
    fn add(&mut self, r: &Reply) {
        self.moves += 1;
        if let Some(d) = r.info.depth {
            self.depth_sum += d as f64;
            self.depth_count += 1;
        }
        if let Some(n) = r.info.nps {
            self.nps_sum += n;
            self.nps_count += 1;
        }
        self.errors += r.errors.len() as u32;
    }

    /// Adds another record's figures.
    pub fn merge(&mut self, o: &SideStats) {
        self.moves += o.moves;
        self.depth_sum += o.depth_sum;
        self.depth_count += o.depth_count;
        self.nps_sum += o.nps_sum;
        self.nps_count += o.nps_count;
        self.errors += o.errors;
        self.ponders += o.ponders;
        self.ponder_hits += o.ponder_hits;
        for k in 0..3 {
            self.phase_secs[k] += o.phase_secs[k];
            self.phase_moves[k] += o.phase_moves[k];
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub start: Position,
    /// Moves in standard PDN notation.
    pub moves: Vec<String>,
    pub result: GameResult,
    pub termination: Termination,
    /// The side that committed a fault, if the game ended by one.
    pub offender: Option<Color>,
    /// Indexed by colour: White, Black.
    pub stats: [SideStats; 2],
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// How long a pondering engine may take to answer `stop`.
const STOP_TIMEOUT: Duration = Duration::from_secs(5);

/// Plays one game from `start`; `engines` and `tcs` are White's then Black's.
pub fn play(
    mut engines: [&mut EngineProc; 2],
    tcs: [TimeControl; 2],
    start: Position,
    s: &Settings,
) -> GameRecord {
    let mut expected = [None, None];
    let record = play_moves(&mut engines, &mut expected, tcs, start, s);
    // An engine still pondering when the game ends is stopped, so that
    // its next game starts quiet (its answer is of no use any more).
    for (e, x) in engines.iter_mut().zip(expected) {
        if x.is_some() {
            let _ = e.stop_ponder(STOP_TIMEOUT);
        }
    }
    record
}

/// The game proper; `expected[i]` is the reply engine i ponders on.
fn play_moves(
    engines: &mut [&mut EngineProc; 2],
    expected: &mut [Option<crate::board::Move>; 2],
    tcs: [TimeControl; 2],
    start: Position,
    s: &Settings,
) -> GameRecord {
    let mut clocks = tcs.map(Clock::new);
    let mut game = Game::new(s.variant, start);
    let start_hub = fen::to_hub(&start);
    let mut hub_moves: Vec<String> = Vec::new();
    let mut pdn_moves: Vec<String> = Vec::new();
    let mut stats = [SideStats::default(); 2];
    // Last score each engine reported, White's view, and the agreement streaks.
    let mut scores: [Option<f64>; 2] = [None, None];
    let (mut resign_streak, mut draw_streak) = (0u32, 0u32);
    let adj = s.adjudication;
    let end = |result, termination, offender, pdn: Vec<String>, stats| GameRecord {
        start,
        moves: pdn,
        result,
        termination,
        offender,
        stats,
    };
    loop {
        let side = game.position().side();
        match game.outcome() {
            Outcome::Ongoing => {}
            Outcome::Loss => {
                let r = GameResult::win_for(side.other());
                return end(r, Termination::NoMoves, None, pdn_moves, stats);
            }
            Outcome::Draw(rule) => {
                return end(
                    GameResult::Draw,
                    Termination::Draw(rule),
                    None,
                    pdn_moves,
                    stats,
                );
            }
        }
        if adj.max_plies.is_some_and(|m| hub_moves.len() as u32 >= m) {
            return end(
                GameResult::Draw,
                Termination::MaxLength,
                None,
                pdn_moves,
                stats,
            );
        }
        let i = idx(side);
        let clock = &mut clocks[i];
        let allowance = clock.allowance(s.margin);
        let lose = |t: Termination, pdn, stats| {
            end(GameResult::win_for(side.other()), t, Some(side), pdn, stats)
        };
        let fault = |f: Fault| match f {
            Fault::Crash => Termination::Crash,
            Fault::Protocol(l) => Termination::Protocol(l),
            Fault::Timeout if allowance.is_some() => Termination::Time,
            Fault::Timeout => Termination::NoDone,
        };
        let timeout = allowance.unwrap_or(s.move_timeout);
        let reply = match expected[i].take() {
            Some(x) if game.moves().last() == Some(&x) => {
                stats[i].ponder_hits += 1;
                engines[i].ponder_hit(timeout)
            }
            pondered => {
                if pondered.is_some()
                    && let Err(f) = engines[i].stop_ponder(STOP_TIMEOUT)
                {
                    let t = match f {
                        Fault::Timeout => Termination::NoDone,
                        f => fault(f),
                    };
                    return lose(t, pdn_moves, stats);
                }
                engines[i].think(
                    &start_hub,
                    &hub_moves.join(" "),
                    &clock.level_line(),
                    timeout,
                )
            }
        };
        let reply = match reply {
            Ok(r) => r,
            Err(f) => return lose(fault(f), pdn_moves, stats),
        };
        stats[i].add(&reply);
        let ph = phase(game.position().occupied().count_ones());
        stats[i].phase_secs[ph] += reply.elapsed.as_secs_f64();
        stats[i].phase_moves[ph] += 1;
        if !clock.charge(reply.elapsed, s.margin) {
            return lose(Termination::Time, pdn_moves, stats);
        }
        let legal = game.legal_moves();
        let mv = match notation::parse_move(game.position(), &legal, &reply.mv) {
            Ok(m) => m,
            Err(_) => return lose(Termination::Illegal(reply.mv), pdn_moves, stats),
        };
        pdn_moves.push(notation::to_pdn(&mv, &legal));
        hub_moves.push(mv.to_string());
        game.play(&mv);
        if s.ponder
            && game.outcome() == Outcome::Ongoing
            && let Some(p) = reply
                .ponder
                .as_deref()
                .and_then(|p| notation::parse_move(game.position(), &game.legal_moves(), p).ok())
        {
            let moves = format!("{} {p}", hub_moves.join(" "));
            if let Err(f) = engines[i].ponder(&start_hub, &moves, &clocks[i].level_line()) {
                return lose(fault(f), pdn_moves, stats);
            }
            stats[i].ponders += 1;
            expected[i] = Some(p);
        }

        if let Some(sc) = reply.info.score {
            scores[i] = Some(if side == Color::White { sc } else { -sc });
        }
        if let ([Some(a), Some(b)], Some(t)) = (scores, adj.resign_score) {
            resign_streak = if (a >= t && b >= t) || (a <= -t && b <= -t) {
                resign_streak + 1
            } else {
                0
            };
            if resign_streak >= 2 * adj.resign_moves.max(1) {
                let r = if a > 0.0 {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                };
                return end(r, Termination::AdjudicatedWin, None, pdn_moves, stats);
            }
        }
        if let ([Some(a), Some(b)], Some(t)) = (scores, adj.draw_score) {
            draw_streak = if a.abs() <= t && b.abs() <= t {
                draw_streak + 1
            } else {
                0
            };
            if draw_streak >= 2 * adj.draw_moves.max(1) && hub_moves.len() as u32 >= adj.draw_after
            {
                return end(
                    GameResult::Draw,
                    Termination::AdjudicatedDraw,
                    None,
                    pdn_moves,
                    stats,
                );
            }
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pdn())
    }
}
