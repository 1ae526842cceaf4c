//! `molkwar egdb build | verify | probe`: the command-line tools of the
//! endgame databases. Progress goes to stderr, results to stdout.

use super::builder::{self, Options};
use super::probe::Tables;
use super::verify::{self, Report};
use crate::board::fen;
use crate::variant::{Variant, VariantKind};
use crate::with_variant;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Instant;

/// The `egdb` subcommands.
#[derive(Subcommand, Debug)]
pub enum EgdbCommand {
    /// Build the tables of at most N pieces (resumable: finished files are
    /// kept).
    Build(BuildArgs),
    /// Check the tables: every position against its moves, and a sample
    /// against a search without tables.
    Verify(VerifyArgs),
    /// Print the table value of a position.
    Probe(ProbeArgs),
}

/// Where the tables are.
#[derive(Args, Debug, Clone)]
pub struct TableArgs {
    #[arg(long, default_value = "normal", help = crate::arena::variant_help("Variant"))]
    pub variant: String,
    /// Most pieces on the board.
    #[arg(long, default_value_t = 4)]
    pub pieces: u32,
    /// Table directory (default: $MOLKWAR_EGDB or ~/.cache/molkwar/egdb).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

impl TableArgs {
    fn variant(&self) -> Result<VariantKind, String> {
        self.variant.parse().map_err(|e| format!("{e}"))
    }

    fn dir(&self) -> PathBuf {
        self.dir.clone().unwrap_or_else(super::default_dir)
    }

    fn pieces(&self) -> Result<u32, String> {
        if (2..=super::index::MAX_PIECES).contains(&self.pieces) {
            Ok(self.pieces)
        } else {
            Err(format!(
                "--pieces {} is outside 2..{}",
                self.pieces,
                super::index::MAX_PIECES
            ))
        }
    }
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    /// Positions spot-checked against a search.
    #[arg(long, default_value_t = 100)]
    pub samples: u64,
    /// Depth of the spot-check searches, plies.
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// Threads checking the positions (the spot checks use one).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

#[derive(Args, Debug)]
pub struct ProbeArgs {
    #[command(flatten)]
    pub tables: TableArgs,
    /// The position, as a FEN or a Hub string.
    pub position: String,
}

/// Runs an `egdb` subcommand.
pub fn run(cmd: &EgdbCommand) -> Result<(), String> {
    match cmd {
        EgdbCommand::Build(a) => build(a),
        EgdbCommand::Verify(a) => verify(a),
        EgdbCommand::Probe(a) => probe(a),
    }
}

fn build(a: &BuildArgs) -> Result<(), String> {
    let kind = a.tables.variant()?;
    let opts = Options {
        dir: a.tables.dir(),
        pieces: a.tables.pieces()?,
        threads: a.threads.clamp(1, 256),
        progress: true,
    };
    let t = Instant::now();
    let (tables, stats) = with_variant!(kind, V => builder::build::<V>(&opts))?;
    let mut built = 0.0;
    for s in &stats {
        println!(
            "table {} {} wins {} draws {} losses {} holes {} waves {} bytes {} time {:.2}",
            kind, s.material, s.wins, s.draws, s.losses, s.holes, s.waves, s.bytes, s.seconds
        );
        built += s.seconds;
    }
    println!(
        "built {} tables ({} bytes) of at most {} pieces for {} in {:.1} s (tables built now: {:.1} s) under {}",
        tables.len(),
        tables.bytes(),
        opts.pieces,
        kind,
        t.elapsed().as_secs_f64(),
        built,
        opts.dir.display()
    );
    Ok(())
}

fn load(a: &TableArgs) -> Result<(VariantKind, Tables, u32), String> {
    let kind = a.variant()?;
    let pieces = a.pieces()?;
    let (t, errors) = Tables::load(kind, &a.dir(), pieces);
    for e in &errors {
        log::error!("{e}");
    }
    if !errors.is_empty() {
        return Err(format!(
            "{} of the tables of at most {pieces} pieces are missing or damaged (molkwar egdb build --variant {kind} --pieces {pieces})",
            errors.len()
        ));
    }
    Ok((kind, t, pieces))
}

fn verify(a: &VerifyArgs) -> Result<(), String> {
    let (kind, mut t, pieces) = load(&a.tables)?;
    let mut r = Report::default();
    let t0 = Instant::now();
    let threads = a.threads.clamp(1, 256);
    with_variant!(kind, V => {
        // The tables read the entry values where a move enters a governed
        // ending (docs/egdb.md, "Draw rules"): recomputed here, as the builder did.
        super::counted::ensure_entries::<V>(&mut t, pieces, threads)?;
        verify::consistency::<V>(&t, pieces, threads, &mut r);
        eprintln!("egdb verify: consistency checked in {:.1} s", t0.elapsed().as_secs_f64());
        verify::spot_check::<V>(&t, pieces, a.samples, a.depth, &mut r);
    });
    for e in &r.errors {
        println!("error {e}");
    }
    println!(
        "verified {} tables, {} positions: {} inconsistent; spot checks: {} confirmed, {} unproven, {} contradicted",
        r.tables, r.positions, r.inconsistent, r.confirmed, r.unproven, r.contradicted
    );
    if r.ok() {
        Ok(())
    } else {
        Err("verification failed".into())
    }
}

fn probe(a: &ProbeArgs) -> Result<(), String> {
    let pos = fen::parse_any(&a.position).map_err(|e| e.to_string())?;
    let (kind, t, _) = load(&a.tables)?;
    let v = with_variant!(kind, V => probe_in::<V>(&t, &pos));
    println!("{}", v.map_or("unknown", |v| v.name()));
    Ok(())
}

fn probe_in<V: Variant>(t: &Tables, pos: &crate::board::Position) -> Option<super::Value> {
    t.probe::<V>(pos)
}
