//! Building a book from the start position by molkwar's own search: each
//! position gets a multi-PV search, its moves within a margin of the best
//! enter the book, and their positions are searched in turn, breadth
//! first, up to a number of plies. Every searched position is appended to
//! the file at once, so a stopped build resumes where it was.

use super::{Book, Entry, format_line};
use crate::board::Position;
use crate::eval::EvalChoice;
use crate::game::Game;
use crate::search::{Engine, Limits, Mode};
use crate::variant::VariantKind;
use std::collections::{HashSet, VecDeque};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// What to build.
#[derive(Clone, Debug)]
pub struct Options {
    pub variant: VariantKind,
    /// Plies from the start that get book moves.
    pub plies: u32,
    /// Lines searched per position (the most book moves it can get).
    pub width: usize,
    /// Moves more than this many centi-men below the best stay out.
    pub margin: i32,
    /// Depth of each search, plies.
    pub depth: u32,
    pub threads: usize,
    pub eval: EvalChoice,
    /// The book file: read first (resume), then appended to.
    pub out: PathBuf,
}

/// What a build did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Positions in the finished book.
    pub positions: usize,
    /// Of them, searched by this run (the rest came from the file).
    pub searched: usize,
}

/// Builds (or completes) the book; `progress` gets a line per position.
pub fn build(o: &Options, mut progress: impl FnMut(&str)) -> Result<Stats, String> {
    let fresh = !o.out.exists();
    let mut book = if fresh {
        Book::default()
    } else {
        Book::load(&o.out, o.variant)?
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&o.out)
        .map_err(|e| format!("{}: {e}", o.out.display()))?;
    let write = |file: &mut std::fs::File, s: &str| {
        writeln!(file, "{s}")
            .and_then(|_| file.flush())
            .map_err(|e| format!("{}: {e}", o.out.display()))
    };
    if fresh {
        write(
            &mut file,
            &format!(
                "# molkwar opening book, {}: molkwar book build --plies {} --width {} --margin {} --depth {}",
                o.variant.name(),
                o.plies,
                o.width,
                o.margin,
                o.depth
            ),
        )?;
    }
    let mut engine = Engine::new();
    engine.set_threads(o.threads);
    engine.set_eval_choice(&o.eval)?;
    let t0 = Instant::now();
    let mut searched = 0;
    let mut seen: HashSet<Position> = HashSet::new();
    let mut queue: VecDeque<(Game, u32)> = VecDeque::new();
    let start = Game::new(o.variant, Position::start());
    seen.insert(*start.position());
    queue.push_back((start, 0));
    while let Some((game, ply)) = queue.pop_front() {
        let entries = match book.probe(game.position()) {
            Some(e) => e.to_vec(),
            None => {
                let Some(entries) = search(&mut engine, &game, o) else {
                    continue;
                };
                write(&mut file, &format_line(game.position(), &entries))?;
                book.insert(*game.position(), entries.clone());
                searched += 1;
                progress(&format!(
                    "book: ply {ply}, {searched} searched, {} in the book, {} queued, {:.0} s",
                    book.len(),
                    queue.len(),
                    t0.elapsed().as_secs_f64()
                ));
                entries
            }
        };
        if ply + 1 >= o.plies {
            continue;
        }
        for e in entries {
            let mut child = game.clone();
            child.play(&e.mv);
            if seen.insert(*child.position()) {
                queue.push_back((child, ply + 1));
            }
        }
    }
    Ok(Stats {
        positions: book.len(),
        searched,
    })
}

/// The book moves of one position: its lines within the margin of the best
/// (`None` without legal moves).
fn search(engine: &mut Engine, game: &Game, o: &Options) -> Option<Vec<Entry>> {
    if game.legal_moves().is_empty() {
        return None;
    }
    // A fresh table for every position: the book does not depend on the
    // order positions were searched in, so a resumed build makes the same.
    engine.clear();
    let limits = Limits {
        depth: Some(o.depth),
        multipv: o.width.max(1),
        ..Limits::default()
    };
    let out = engine.search_blocking(game, limits, Mode::Analyze);
    let lines = out.lines();
    let floor = super::floor(lines.iter().map(|l| l.score), o.margin)?;
    let mut entries: Vec<Entry> = lines
        .iter()
        .filter(|l| l.score >= floor)
        .filter_map(|l| l.pv.first().map(|&mv| Entry { mv, score: l.score }))
        .collect();
    // Lines searched later can score above earlier ones (each has its own
    // window): best first in the file.
    entries.sort_by_key(|e| std::cmp::Reverse(e.score));
    Some(entries)
}
