//! The opening book: positions near the start with the moves molkwar's own
//! search found best there and their scores. `hub` and `dxp` play a book
//! move at once, drawn among the moves within a margin of the best; the
//! book is built by [`build`] (`molkwar book build`).
//!
//! File format (text, one position a line, `#` comments):
//! `<Hub position> <move>:<centi-men> <move>:<centi-men> …`, moves in Hub
//! notation, scores from the mover's view, best first.

pub mod build;
pub mod command;

use crate::arena::rng::Rng;
use crate::board::{Move, Position, fen, notation};
use crate::eval::weights::Family;
use crate::game::Game;
use crate::score::Score;
use crate::variant::VariantKind;
use std::collections::HashMap;
use std::sync::LazyLock;

/// Default `book-margin`, centi-men: moves this close to the best are all
/// played, for variety at a cost the search cannot tell apart.
pub const DEFAULT_MARGIN: Score = 4;

/// Highest accepted margin (Hub `book-margin`, `dxp --book-margin`).
pub const MAX_MARGIN: Score = 100;

/// The lowest score a book move may have to be played: `margin` centi-men
/// below the best of `scores` (`None`: no scores).
pub fn floor(scores: impl Iterator<Item = Score>, margin: Score) -> Option<Score> {
    scores.max().map(|best| best.saturating_sub(margin.max(0)))
}

/// One book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub mv: Move,
    /// The search's score of the move, centi-men, the mover's view.
    pub score: Score,
}

/// A book of one variant family.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Book {
    /// By position key; the position itself guards against key collisions.
    entries: HashMap<u64, (Position, Vec<Entry>)>,
}

/// The texts of the books built into the binary (`books/`), by variant
/// family.
const TEXTS: [&str; 2] = [
    include_str!("../../books/international.book"),
    include_str!("../../books/frisian.book"),
];

/// The built-in books, read at their first use.
static EMBEDDED: [LazyLock<Book>; 2] = [
    LazyLock::new(|| embedded_book(VariantKind::International)),
    LazyLock::new(|| embedded_book(VariantKind::Frisian)),
];

fn embedded_book(kind: VariantKind) -> Book {
    // The shipped files are read by the tests; an error here is a build
    // mistake, reported and answered with an empty book.
    Book::parse(TEXTS[Family::of(kind) as usize], kind).unwrap_or_else(|e| {
        log::error!("the embedded {} book: {e}", Family::of(kind).name());
        Book::default()
    })
}

impl Book {
    /// The built-in book of `kind`'s family.
    pub fn embedded(kind: VariantKind) -> &'static Book {
        &EMBEDDED[Family::of(kind) as usize]
    }

    /// Reads a book file of `kind`. Every move must be legal in its
    /// position; errors name the line.
    pub fn parse(text: &str, kind: VariantKind) -> Result<Book, String> {
        let mut book = Book::default();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (pos, entries) =
                parse_line(line, kind).map_err(|e| format!("line {}: {e}", i + 1))?;
            book.insert(pos, entries);
        }
        Ok(book)
    }

    /// Reads a book file from disk.
    pub fn load(path: &std::path::Path, kind: VariantKind) -> Result<Book, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Book::parse(&text, kind).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Adds (or replaces) a position's moves.
    pub fn insert(&mut self, pos: Position, entries: Vec<Entry>) {
        self.entries.insert(pos.key(), (pos, entries));
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for a book without positions.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The moves of `pos`, best first, if it is in the book.
    pub fn probe(&self, pos: &Position) -> Option<&[Entry]> {
        self.entries
            .get(&pos.key())
            .filter(|(p, _)| p == pos)
            .map(|(_, e)| e.as_slice())
    }

    /// A book move for the game's position: one drawn evenly, by `seed`,
    /// among the moves within `margin` centi-men of the best; `None` when
    /// the position is not in the book or its move is not legal here.
    pub fn choose(&self, game: &Game, margin: Score, seed: u64) -> Option<Move> {
        let entries = self.probe(game.position())?;
        let legal = game.legal_moves();
        let floor = floor(entries.iter().map(|e| e.score), margin)?;
        let near: Vec<Move> = entries
            .iter()
            .filter(|e| e.score >= floor && legal.contains(&e.mv))
            .map(|e| e.mv)
            .collect();
        if near.is_empty() {
            return None;
        }
        Some(near[Rng::for_index(seed, 2).below(near.len())])
    }
}

/// One book line: the position and its moves.
fn parse_line(line: &str, kind: VariantKind) -> Result<(Position, Vec<Entry>), String> {
    let mut words = line.split_whitespace();
    let pos_text = words.next().ok_or("empty line")?;
    let pos = fen::parse_hub(pos_text).map_err(|e| format!("position '{pos_text}': {e}"))?;
    let game = Game::new(kind, pos);
    let legal = game.legal_moves();
    let mut entries = Vec::new();
    for w in words {
        let (m, s) = w
            .split_once(':')
            .ok_or_else(|| format!("'{w}' is not <move>:<score>"))?;
        let mv = notation::parse_move(&pos, &legal, m).map_err(|e| format!("move '{m}': {e}"))?;
        let score: Score = s
            .parse()
            .map_err(|_| format!("score '{s}' of {m} is not an integer"))?;
        if entries.iter().any(|e: &Entry| e.mv == mv) {
            return Err(format!("move {m} twice"));
        }
        entries.push(Entry { mv, score });
    }
    if entries.is_empty() {
        return Err(format!("position '{pos_text}' without moves"));
    }
    Ok((pos, entries))
}

/// A book line for `pos` (the inverse of the reader).
pub fn format_line(pos: &Position, entries: &[Entry]) -> String {
    let mut s = fen::to_hub(pos);
    for e in entries {
        s.push_str(&format!(" {}:{}", e.mv, e.score));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_errors_name_the_line() {
        let game = Game::new(VariantKind::International, Position::start());
        let legal: Vec<Move> = game.legal_moves().iter().copied().collect();
        let entries = vec![
            Entry {
                mv: legal[0],
                score: 5,
            },
            Entry {
                mv: legal[3],
                score: -2,
            },
        ];
        let line = format_line(&Position::start(), &entries);
        let book = Book::parse(
            &format!("# comment\n\n{line}\n"),
            VariantKind::International,
        )
        .unwrap();
        assert_eq!(book.len(), 1);
        assert_eq!(book.probe(&Position::start()), Some(entries.as_slice()));
        let start = fen::to_hub(&Position::start());
        for (bad, what) in [
            (
                format!("{start} 31-26"),
                "line 2: '31-26' is not <move>:<score>",
            ),
            (format!("{start} 31-25:3"), "line 2: move '31-25'"),
            (format!("{start} 31-26:x"), "line 2: score 'x' of 31-26"),
            (
                format!("{start} 31-26:1 31-26:2"),
                "line 2: move 31-26 twice",
            ),
            (start.clone(), "line 2: position"),
            ("Wxyz 31-26:1".to_string(), "line 2: position 'Wxyz'"),
        ] {
            let e = Book::parse(&format!("\n{bad}\n"), VariantKind::International).unwrap_err();
            assert!(e.starts_with(what), "{e} / {what}");
        }
    }

    #[test]
    fn choose_stays_within_the_margin_and_varies() {
        let game = Game::new(VariantKind::International, Position::start());
        let legal: Vec<Move> = game.legal_moves().iter().copied().collect();
        let mut book = Book::default();
        let scores = [10, 8, 7, -20];
        book.insert(
            Position::start(),
            legal
                .iter()
                .zip(scores)
                .map(|(&mv, score)| Entry { mv, score })
                .collect(),
        );
        let picks: std::collections::HashSet<Move> = (0..200)
            .map(|s| book.choose(&game, 3, s).unwrap())
            .collect();
        assert_eq!(picks, legal[..3].iter().copied().collect());
        assert_eq!(book.choose(&game, 0, 9), Some(legal[0]));
        let mut other = game.clone();
        other.play(&legal[0]);
        assert_eq!(book.choose(&other, 3, 1), None);
    }

    /// The shipped books read without error and start at the start.
    #[test]
    fn embedded_books_cover_the_start() {
        for kind in [VariantKind::International, VariantKind::Frisian] {
            let text = TEXTS[Family::of(kind) as usize];
            let book = Book::parse(text, kind).unwrap();
            assert!(book.len() >= 20, "{kind:?}: {} positions", book.len());
            assert!(Book::embedded(kind).probe(&Position::start()).is_some());
        }
    }
}
