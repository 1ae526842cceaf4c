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

/// Plays one game from `start`; `engines` and `tcs` are White's then Black's.
pub fn play(
    engines: [&mut EngineProc; 2],
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
        let reply = engines[i].think(
            &start_hub,
            &hub_moves.join(" "),
            &clock.level_line(),
            allowance.unwrap_or(s.move_timeout),
        );
        let reply = match reply {
            Ok(r) => r,
            Err(Fault::Crash) => return lose(Termination::Crash, pdn_moves, stats),
            Err(Fault::Protocol(l)) => return lose(Termination::Protocol(l), pdn_moves, stats),
            Err(Fault::Timeout) if allowance.is_some() => {
                return lose(Termination::Time, pdn_moves, stats);
            }
            Err(Fault::Timeout) => return lose(Termination::NoDone, pdn_moves, stats),
        };
        stats[i].add(&reply);
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
