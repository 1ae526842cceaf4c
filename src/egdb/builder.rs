//! The builder: every table of at most N pieces, one material and its
//! colour-swapped twin at a time, smallest first so that captures and
//! promotions lead to finished tables (docs/egdb.md, "Build"); finished
//! files are kept (resumable). The solving itself is in `retro.rs`.

use super::Value;
use super::index::{Layout, Material};
use super::probe::Tables;
use super::storage::{self, Table};
use super::{counted, retro};
use crate::variant::Variant;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

/// What to build.
#[derive(Clone, Debug)]
pub struct Options {
    /// Table directory (one subdirectory per variant).
    pub dir: PathBuf,
    /// Most pieces of a table.
    pub pieces: u32,
    /// Worker threads.
    pub threads: usize,
    /// Progress lines on stderr.
    pub progress: bool,
}

/// Figures of one table.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    pub material: Material,
    /// Wins, draws, losses for the side to move.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Index values that are not positions.
    pub holes: u64,
    /// Retrograde waves the build needed (0: read from its file).
    pub waves: u32,
    pub seconds: f64,
    pub bytes: u64,
}

/// Builds (or loads, when their files exist and check) every table of at
/// most `opts.pieces` pieces; returns the tables and their figures.
pub fn build<V: Variant>(opts: &Options) -> Result<(Tables, Vec<Stats>), String> {
    let start = Instant::now();
    let mut tables = Tables::new(V::KIND);
    let mut stats = Vec::new();
    let all = Material::all_up_to(opts.pieces);
    let total_work: u64 = all.iter().map(|m| Layout::new::<V>(*m).len()).sum();
    let mut done_work = 0u64;
    let mut built_work = 0u64;
    for &m in &all {
        if tables.table(m).is_some() {
            continue;
        }
        let pair: Vec<Material> = if m == m.swapped() {
            vec![m]
        } else {
            vec![m, m.swapped()]
        };
        let layouts: Vec<Layout> = pair.iter().map(|&m| Layout::new::<V>(m)).collect();
        let work: u64 = layouts.iter().map(|l| l.len()).sum();
        // Resumable: tables whose files read back are kept.
        let found: Vec<Result<Table, String>> = pair
            .iter()
            .map(|&m| storage::read::<V>(&opts.dir, m))
            .collect();
        if found.iter().all(|r| r.is_ok()) {
            for t in found.into_iter().flatten() {
                stats.push(count(&t, 0, 0.0));
                tables.insert(t);
            }
            done_work += work;
            if opts.progress {
                eprintln!("egdb {}: {} kept (file exists)", V::KIND, names(&pair));
            }
            continue;
        }
        let t0 = Instant::now();
        counted::ensure_entries::<V>(&mut tables, opts.pieces, opts.threads)?;
        let (built, waves) = build_pair::<V>(&tables, &layouts, opts)?;
        let secs = t0.elapsed().as_secs_f64();
        for t in built {
            storage::write::<V>(&opts.dir, &t)?;
            stats.push(count(&t, waves, secs));
            tables.insert(t);
        }
        done_work += work;
        built_work += work;
        if opts.progress {
            let elapsed = start.elapsed().as_secs_f64();
            let left = total_work - done_work;
            // By positions: the tables left are bigger, so this is rough.
            let eta = elapsed / built_work.max(1) as f64 * left as f64;
            eprintln!(
                "egdb {}: {} built: {} positions, {waves} waves, {secs:.1} s; {:.0}% done, {:.0} s elapsed, ETA {:.0} s",
                V::KIND,
                names(&pair),
                work,
                100.0 * done_work as f64 / total_work.max(1) as f64,
                elapsed,
                eta
            );
        }
    }
    counted::ensure_entries::<V>(&mut tables, opts.pieces, opts.threads)?;
    Ok((tables, stats))
}

fn names(pair: &[Material]) -> String {
    pair.iter().map(|m| m.name()).collect::<Vec<_>>().join("+")
}

fn count(t: &Table, waves: u32, seconds: f64) -> Stats {
    let mut s = Stats {
        material: t.layout.material,
        wins: 0,
        draws: 0,
        losses: 0,
        holes: 0,
        waves,
        seconds,
        bytes: t.bytes() as u64,
    };
    for i in 0..t.layout.len() {
        match t.get(i) {
            Value::Win => s.wins += 1,
            Value::Draw => s.draws += 1,
            Value::Loss => s.losses += 1,
            Value::Invalid => s.holes += 1,
        }
    }
    s
}

/// Solves the positions of `layouts` (a material and its twin) with the
/// retrograde solver, showing the waves on a terminal.
fn build_pair<V: Variant>(
    done: &Tables,
    layouts: &[Layout],
    opts: &Options,
) -> Result<(Vec<Table>, u32), String> {
    let tty = opts.progress && std::io::stderr().is_terminal();
    let m = layouts[0].material;
    let out = retro::solve_pair::<V>(done, layouts, opts.threads, |wave, decided| {
        if tty {
            eprint!(
                "\regdb {}: {m} wave {wave}: {decided} positions decided      ",
                V::KIND
            );
        }
    });
    if tty {
        eprint!("\r{:70}\r", "");
    }
    out
}
