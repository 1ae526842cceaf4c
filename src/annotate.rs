//! `molkwar annotate`: searches every position of a PDN file's games and
//! writes the games back with the evaluation after each move and, where
//! the move played loses against the engine's choice, that choice.

use crate::board::notation;
use crate::game::{Game, Outcome as GameOutcome};
use crate::pdn::{GameWriter, PdnGame, read_games};
use crate::score::{MATE, Men, Score};
use crate::search::{Engine, Limits, Mode, WIN_BOUND};
use crate::{Color, VariantKind};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// Seconds per position when neither a depth nor a time is given.
pub const DEFAULT_TIME: f64 = 1.0;

/// How to annotate.
#[derive(Clone, Debug)]
pub struct Options {
    /// Depth limit of each search, plies.
    pub depth: Option<u32>,
    /// Time limit of each search, seconds ([`DEFAULT_TIME`] when neither
    /// limit is given).
    pub time: Option<f64>,
    /// Loss in centi-men from which the engine's choice is written.
    pub blunder: Score,
    /// Variant of the games without a `GameType` tag.
    pub variant: VariantKind,
}

impl Options {
    /// The limits of one search (always finite).
    pub fn limits(&self) -> Limits {
        let time = match (self.depth, self.time) {
            (None, None) => Some(DEFAULT_TIME),
            (_, t) => t,
        };
        Limits {
            depth: self.depth,
            move_time: time,
            ..Limits::default()
        }
    }
}

/// The engine's view of one move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// The side that played it.
    pub mover: Color,
    /// The engine's choice in that position, PDN notation.
    pub best: String,
    /// The engine's choice is the move played.
    pub best_is_played: bool,
    /// The score of the engine's choice, centi-men, the mover's view.
    pub best_score: Score,
    /// The score after the move played, centi-men, the mover's view.
    pub played_score: Score,
}

impl Note {
    /// What the move played costs against the engine's choice, centi-men.
    pub fn loss(&self) -> Score {
        self.best_score.saturating_sub(self.played_score)
    }

    /// The comment for the PDN: the score after the move, then, when the
    /// loss reaches `blunder`, the engine's choice and its score; both from
    /// White's view, so that all the comments of a game read alike.
    pub fn comment(&self, blunder: Score) -> String {
        let white = |s: Score| if self.mover == Color::White { s } else { -s };
        let mut c = format!("{:+}", Men(white(self.played_score)));
        if !self.best_is_played && self.loss() >= blunder {
            let _ = write!(
                c,
                "; better {} {:+}",
                self.best,
                Men(white(self.best_score))
            );
        }
        c
    }
}

/// The score of the game's position for its side to move: the last
/// report of a search, or the rules' verdict where the game is over.
fn score(engine: &mut Engine, game: &Game, limits: &Limits) -> Score {
    match game.outcome() {
        GameOutcome::Loss => -MATE,
        GameOutcome::Draw(_) => 0,
        GameOutcome::Ongoing => engine
            .search_blocking(game, limits.clone(), Mode::Analyze)
            .last()
            .map_or(0, |i| i.score),
    }
}

/// Searches the position before every move of `pdn` (the table cleared
/// first) and, where the engine prefers another move, the position after
/// the move played. `progress` is told each ply's index before its search.
pub fn annotate_game(
    engine: &mut Engine,
    pdn: &PdnGame,
    limits: &Limits,
    mut progress: impl FnMut(usize),
) -> Vec<Note> {
    engine.clear();
    let mut game = Game::new(pdn.variant, pdn.start);
    let mut notes = Vec::with_capacity(pdn.moves.len());
    for (ply, mv) in pdn.moves.iter().enumerate() {
        progress(ply);
        let legal = game.legal_moves();
        // Analyze rather than Think: a forced move is searched to the
        // limits too, instead of being answered at depth 1.
        let out = engine.search_blocking(&game, limits.clone(), Mode::Analyze);
        let best = out.best.unwrap_or(*mv);
        let best_score = out.last().map_or(0, |i| i.score);
        let mut child = game.clone();
        child.play(mv);
        let played_score = if best == *mv {
            best_score
        } else {
            // The child's score is the opponent's, one ply further from
            // any win or loss it finds.
            match -score(engine, &child, limits) {
                s if s >= WIN_BOUND => s - 1,
                s if s <= -WIN_BOUND => s + 1,
                s => s,
            }
        };
        notes.push(Note {
            mover: game.position().side(),
            best: notation::to_pdn(&best, &legal),
            best_is_played: best == *mv,
            best_score,
            played_score,
        });
        game = child;
    }
    notes
}

/// The game as PDN: its tags (an `Annotator` tag set to molkwar, a
/// `GameType` tag added when it had none), its moves in standard notation
/// each followed by its comment (none where the comment is empty), its
/// result, a blank line.
pub fn write_game(pdn: &PdnGame, comments: &[String]) -> String {
    let mut tags = pdn.tags.clone();
    if !tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("GameType")) {
        let t = if pdn.variant.is_frisian() { "40" } else { "20" };
        tags.push(("GameType".into(), t.into()));
    }
    let annotator = format!("molkwar {}", env!("CARGO_PKG_VERSION"));
    match tags
        .iter_mut()
        .find(|(k, _)| k.eq_ignore_ascii_case("Annotator"))
    {
        Some(t) => t.1 = annotator,
        None => tags.push(("Annotator".into(), annotator)),
    }
    let mut w = GameWriter::new(
        tags.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        pdn.start.side(),
    );
    let mut game = Game::new(pdn.variant, pdn.start);
    for (i, mv) in pdn.moves.iter().enumerate() {
        w.push_move(&notation::to_pdn(mv, &game.legal_moves()));
        game.play(mv);
        if let Some(c) = comments.get(i).filter(|c| !c.is_empty()) {
            w.push_comment(c);
        }
    }
    w.finish(&pdn.result)
}

/// A PDN file's text: UTF-8, else Latin-1 (older PDN files), byte for
/// character.
fn decode(bytes: Vec<u8>) -> String {
    match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => e.into_bytes().iter().map(|&b| char::from(b)).collect(),
    }
}

/// Annotates every game of `input` into `out` (stdout when `None`),
/// progress on stderr. A game that cannot be read is reported on stderr
/// (`molkwar: FILE: game N, line L: …`) and skipped, the others are
/// annotated; then the error is that games were skipped.
pub fn run(
    input: &Path,
    out: Option<&Path>,
    engine: &mut Engine,
    opts: &Options,
) -> Result<(), String> {
    let name = input.display();
    let bytes = std::fs::read(input).map_err(|e| format!("cannot read '{name}': {e}"))?;
    let games = read_games(&decode(bytes), opts.variant);
    if games.is_empty() {
        return Err(format!("{name}: no games"));
    }
    let total = games.len();
    let mut skipped = 0;
    for e in games.iter().filter_map(|g| g.as_ref().err()) {
        eprintln!("molkwar: {name}: {e}");
        skipped += 1;
    }
    let mut sink: Box<dyn std::io::Write> = match out {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("cannot write '{}': {e}", p.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    let written = |e: std::io::Error| match out {
        Some(p) => format!("cannot write '{}': {e}", p.display()),
        None => format!("cannot write the output: {e}"),
    };
    let limits = opts.limits();
    for g in games.iter().flatten() {
        let notes = annotate_game(engine, g, &limits, |ply| {
            let plies = usize::from(g.start.side() == Color::Black) + ply;
            eprintln!(
                "annotate: game {}/{total}, move {} (ply {} of {})",
                g.number,
                plies / 2 + 1,
                ply + 1,
                g.moves.len()
            );
        });
        let comments: Vec<String> = notes.iter().map(|n| n.comment(opts.blunder)).collect();
        sink.write_all(write_game(g, &comments).as_bytes())
            .and_then(|()| sink.flush())
            .map_err(written)?;
    }
    if skipped > 0 {
        return Err(format!(
            "{name}: {skipped} of {total} games not annotated (errors above)"
        ));
    }
    Ok(())
}
