//! A game: the current position, the repetition history since the last
//! irreversible move and the draw counters of docs/rules.md §8, and the outcome.

use crate::board::{Move, MoveError, MoveList, Position, movegen, notation};
use crate::variant::{DrawRule, Variant, VariantKind};
use crate::with_variant;
use std::fmt;

/// The draw counters of docs/rules.md §8 that travel with a position (the search
/// carries them in every node; the repetition history is kept apart).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct DrawState {
    /// Plies counted by the variant's quiet rule (25-move or kings-only).
    pub quiet_plies: u16,
    /// The material rule in force (16-, 5-move, 2 kings v 1 king), if any.
    pub material: Option<DrawRule>,
    /// Plies since that material situation arose.
    pub material_plies: u16,
}

impl DrawState {
    /// Counters at the start of a game or test position: material counting
    /// starts at the given position (docs/rules.md §8.1).
    pub fn new<V: Variant>(pos: &Position) -> DrawState {
        DrawState {
            quiet_plies: 0,
            material: V::material_rule(pos).map(|(r, _)| r),
            material_plies: 0,
        }
    }

    /// The counters after `mv` took `before` to `after`.
    #[inline]
    pub fn after<V: Variant>(&self, before: &Position, mv: &Move, after: &Position) -> DrawState {
        let quiet_plies = V::quiet_counter(
            self.quiet_plies,
            mv.is_capture(),
            before.is_king_move(mv),
            after,
        );
        let material = V::material_rule(after).map(|(r, _)| r);
        let material_plies = match material {
            Some(_) if material == self.material => self.material_plies.saturating_add(1),
            _ => 0,
        };
        DrawState {
            quiet_plies,
            material,
            material_plies,
        }
    }

    /// The counter-based draw rule that has fired, if any (repetition apart).
    #[inline]
    pub fn verdict<V: Variant>(&self, pos: &Position) -> Option<DrawRule> {
        let (limit, rule) = V::QUIET_LIMIT;
        if self.quiet_plies >= limit {
            return Some(rule);
        }
        match V::material_rule(pos) {
            Some((rule, limit)) if self.material == Some(rule) && self.material_plies >= limit => {
                Some(rule)
            }
            _ => None,
        }
    }

    /// Plies left before a counter rule draws the game (for the evaluator).
    #[inline]
    pub fn plies_to_draw<V: Variant>(&self, pos: &Position) -> u16 {
        let (limit, _) = V::QUIET_LIMIT;
        let mut left = limit.saturating_sub(self.quiet_plies);
        if let Some((_, l)) = V::material_rule(pos) {
            left = left.min(l.saturating_sub(self.material_plies));
        }
        left
    }
}

/// How a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// The side to move has no legal move and has lost (§7).
    Loss,
    /// Drawn by a rule of §8.
    Draw(DrawRule),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("ongoing"),
            Outcome::Loss => f.write_str("loss (no legal move)"),
            Outcome::Draw(r) => write!(f, "draw ({r})"),
        }
    }
}

/// A game in progress, for any variant chosen at runtime.
#[derive(Clone, Debug)]
pub struct Game {
    variant: VariantKind,
    start: Position,
    pos: Position,
    draw: DrawState,
    /// Keys of the positions since the last irreversible move, current last.
    history: Vec<u64>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from `start` (counters and history start there).
    pub fn new(variant: VariantKind, start: Position) -> Game {
        Game {
            variant,
            start,
            pos: start,
            draw: with_variant!(variant, V => DrawState::new::<V>(&start)),
            history: vec![start.key()],
            moves: Vec::new(),
        }
    }

    /// A game as the command line gives it: a start as a Hub position
    /// string or else a FEN (neither: the start position), then `moves`
    /// (space separated, Hub or PDN notation) played from it.
    pub fn set_up(
        variant: VariantKind,
        hub: Option<&str>,
        fen: Option<&str>,
        moves: Option<&str>,
    ) -> Result<Game, String> {
        let start = match (hub, fen) {
            (Some(p), _) => crate::board::fen::parse_hub(p).map_err(|e| e.to_string())?,
            (None, Some(f)) => crate::board::fen::parse_fen(f).map_err(|e| e.to_string())?,
            (None, None) => Position::start(),
        };
        let mut game = Game::new(variant, start);
        if let Some(m) = moves {
            game.play_all(m).map_err(|e| e.to_string())?;
        }
        Ok(game)
    }

    /// The variant.
    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The draw counters.
    pub fn draw_state(&self) -> DrawState {
        self.draw
    }

    /// Keys since the last irreversible move, the current position last.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The legal moves in the current position.
    pub fn legal_moves(&self) -> MoveList {
        with_variant!(self.variant, V => movegen::legal_moves::<V>(&self.pos))
    }

    /// Plays a legal move (the caller took it from [`Game::legal_moves`]).
    pub fn play(&mut self, mv: &Move) {
        with_variant!(self.variant, V => {
            let next = self.pos.play::<V>(mv);
            self.draw = self.draw.after::<V>(&self.pos, mv, &next);
            if mv.is_capture() || !self.pos.is_king_move(mv) {
                self.history.clear();
            }
            self.history.push(next.key());
            self.pos = next;
        });
        self.moves.push(*mv);
    }

    /// Reads a move leniently (see [`notation::parse_move`]) and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let legal = self.legal_moves();
        let mv = notation::parse_move(&self.pos, &legal, text)?;
        self.play(&mv);
        Ok(mv)
    }

    /// Plays a space-separated list of moves; on error nothing is played.
    pub fn play_all(&mut self, text: &str) -> Result<(), MoveError> {
        let mut copy = self.clone();
        for m in text.split_whitespace() {
            copy.play_text(m)?;
        }
        *self = copy;
        Ok(())
    }

    /// How many times the current position has occurred (§8.1.1).
    pub fn repetitions(&self) -> usize {
        let k = self.pos.key();
        self.history.iter().filter(|&&h| h == k).count()
    }

    /// The outcome: a loss when there is no legal move (checked first, §7),
    /// else a draw when a rule of §8 has fired, else ongoing.
    pub fn outcome(&self) -> Outcome {
        if self.legal_moves().is_empty() {
            return Outcome::Loss;
        }
        if self.repetitions() >= 3 {
            return Outcome::Draw(DrawRule::Repetition);
        }
        match with_variant!(self.variant, V => self.draw.verdict::<V>(&self.pos)) {
            Some(rule) => Outcome::Draw(rule),
            None => Outcome::Ongoing,
        }
    }
}
