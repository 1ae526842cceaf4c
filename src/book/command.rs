//! `molkwar book build | probe`: the command-line tools of the opening
//! book. Progress goes to stderr, results to stdout.

use super::build::{self, Options};
use super::{Book, DEFAULT_MARGIN};
use crate::board::notation;
use crate::game::Game;
use crate::score::Men;
use crate::variant::VariantKind;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Instant;

/// The `book` subcommands.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Build a book from the start position by multi-PV searches
    /// (resumable: the file is read first, then completed).
    Build(BuildArgs),
    /// Print a position's book moves and which a given margin plays.
    Probe(ProbeArgs),
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[arg(long, default_value = "normal", help = crate::arena::variant_help("Variant"))]
    pub variant: String,
    /// The book file (created, or completed when it exists).
    #[arg(long)]
    pub out: PathBuf,
    /// Plies from the start that get book moves.
    #[arg(long, default_value_t = 6)]
    pub plies: u32,
    /// Lines searched per position: the most moves a position keeps.
    #[arg(long, default_value_t = 3)]
    pub width: usize,
    /// Moves more than this many centi-men below the best stay out.
    #[arg(long, default_value_t = 10)]
    pub margin: i32,
    /// Search depth per position, plies.
    #[arg(long, default_value_t = 14)]
    pub depth: u32,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[command(flatten)]
    pub eval: crate::arena::EvalArgs,
}

#[derive(Args, Debug)]
pub struct ProbeArgs {
    #[arg(long, default_value = "normal", help = crate::arena::variant_help("Variant"))]
    pub variant: String,
    /// Start position as a 51-character Hub string (default: the start).
    #[arg(long)]
    pub pos: Option<String>,
    /// Start position as a PDN FEN.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, space separated.
    #[arg(long)]
    pub moves: Option<String>,
    /// A book file instead of the built-in book.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// Margin of the moves played, centi-men.
    #[arg(long, default_value_t = DEFAULT_MARGIN)]
    pub margin: i32,
}

/// Runs a `book` subcommand.
pub fn run(c: &BookCommand) -> Result<(), String> {
    match c {
        BookCommand::Build(a) => run_build(a),
        BookCommand::Probe(a) => run_probe(a),
    }
}

fn run_build(a: &BuildArgs) -> Result<(), String> {
    let variant: VariantKind = a.variant.parse().map_err(|e| format!("{e}"))?;
    if !(1..=40).contains(&a.plies) {
        return Err("--plies: 1..40".into());
    }
    if !(1..=64).contains(&a.width) {
        return Err("--width: 1..64".into());
    }
    if !(1..=60).contains(&a.depth) {
        return Err("--depth: 1..60".into());
    }
    let o = Options {
        variant,
        plies: a.plies,
        width: a.width,
        margin: a.margin.max(0),
        depth: a.depth,
        threads: a.threads.clamp(1, 64),
        eval: a.eval.choice()?,
        out: a.out.clone(),
    };
    let t = Instant::now();
    let s = build::build(&o, |line| eprintln!("{line}"))?;
    println!(
        "book {}: {} positions ({} searched now) in {:.1} s",
        a.out.display(),
        s.positions,
        s.searched,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_probe(a: &ProbeArgs) -> Result<(), String> {
    let variant: VariantKind = a.variant.parse().map_err(|e| format!("{e}"))?;
    let game = Game::set_up(
        variant,
        a.pos.as_deref(),
        a.fen.as_deref(),
        a.moves.as_deref(),
    )?;
    let loaded;
    let book = match &a.book {
        Some(path) => {
            loaded = Book::load(path, variant)?;
            &loaded
        }
        None => Book::embedded(variant),
    };
    let Some(entries) = book.probe(game.position()) else {
        println!("not in the book ({} positions)", book.len());
        return Ok(());
    };
    let legal = game.legal_moves();
    let floor = super::floor(entries.iter().map(|e| e.score), a.margin).unwrap_or(0);
    for e in entries {
        let played = if e.score >= floor { "played" } else { "" };
        println!(
            "{:<10} {:>7} {played}",
            notation::to_pdn(&e.mv, &legal),
            Men(e.score).to_string()
        );
    }
    Ok(())
}
