//! The builder: iterative retrograde analysis, one material and its
//! colour-swapped twin at a time, smallest first (docs/egdb.md, "Build").
//!
//! Every position of the pair starts unknown. A sweep looks at each unknown
//! position's legal moves: a move to a position lost for the opponent makes
//! it a win; when every move leads to a win for the opponent (or there is
//! no move, §7) it is a loss. Captures and promotions lead to other
//! materials, already finished. Sweeps repeat until one changes nothing;
//! what is still unknown is a draw (neither side can force a result, so
//! play goes on for ever, i.e. repetition). Threads share the sweep through
//! atomics: a value, once written, is final, so the order does not matter.

use super::Value;
use super::index::{Layout, Material, normalise};
use super::probe::Tables;
use super::storage::{self, Table};
use crate::board::{MoveList, Position, movegen};
use crate::variant::Variant;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

const UNKNOWN: u8 = 0;
const INVALID: u8 = 4;
/// Positions a thread takes at a time.
const CHUNK: u64 = 4096;

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
    /// Sweeps the build needed (0: read from its file).
    pub sweeps: u32,
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
        let (built, sweeps) = build_pair::<V>(&tables, &layouts, opts)?;
        let secs = t0.elapsed().as_secs_f64();
        for t in built {
            storage::write::<V>(&opts.dir, &t)?;
            stats.push(count(&t, sweeps, secs));
            tables.insert(t);
        }
        done_work += work;
        built_work += work;
        if opts.progress {
            let elapsed = start.elapsed().as_secs_f64();
            let left = total_work - done_work;
            // Rough: bigger tables need more sweeps, so this is a floor.
            let eta = elapsed / built_work.max(1) as f64 * left as f64;
            eprintln!(
                "egdb {}: {} built: {} positions, {sweeps} sweeps, {secs:.1} s; {:.0}% done, {:.0} s elapsed, ETA {:.0} s",
                V::KIND,
                names(&pair),
                work,
                100.0 * done_work as f64 / total_work.max(1) as f64,
                elapsed,
                eta
            );
        }
    }
    Ok((tables, stats))
}

fn names(pair: &[Material]) -> String {
    pair.iter().map(|m| m.name()).collect::<Vec<_>>().join("+")
}

fn count(t: &Table, sweeps: u32, seconds: f64) -> Stats {
    let mut s = Stats {
        material: t.layout.material,
        wins: 0,
        draws: 0,
        losses: 0,
        holes: 0,
        sweeps,
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

/// The value of `child` (the opponent to move) from the tables finished or
/// in progress; `None` when no table holds it (a bug of the build order).
#[inline]
fn child_value(
    child: &Position,
    done: &Tables,
    layouts: &[Layout],
    offsets: &[u64],
    values: &[AtomicU8],
) -> Option<u8> {
    if child.own() == 0 {
        return Some(Value::Loss as u8);
    }
    let n = normalise(child);
    let m = Material::of(&n);
    for (l, &off) in layouts.iter().zip(offsets) {
        if l.material == m {
            let i = l.index(&n)?;
            return Some(values[(off + i) as usize].load(Ordering::Relaxed));
        }
    }
    let t = done.table(m)?;
    Some(t.get(t.layout.index(&n)?) as u8)
}

/// Solves the positions of `layouts` (a material and its twin).
fn build_pair<V: Variant>(
    done: &Tables,
    layouts: &[Layout],
    opts: &Options,
) -> Result<(Vec<Table>, u32), String> {
    let mut offsets = Vec::new();
    let mut total = 0u64;
    for l in layouts {
        offsets.push(total);
        total += l.len();
    }
    let values: Vec<AtomicU8> = (0..total).map(|_| AtomicU8::new(UNKNOWN)).collect();
    let missing = AtomicU64::new(0);
    let tty = opts.progress && std::io::stderr().is_terminal();
    let mut sweeps = 0;
    loop {
        sweeps += 1;
        let next = AtomicU64::new(0);
        let changed = AtomicU64::new(0);
        let work = || {
            let mut list = MoveList::new();
            loop {
                let lo = next.fetch_add(CHUNK, Ordering::Relaxed);
                if lo >= total {
                    break;
                }
                let mut n_changed = 0;
                for g in lo..(lo + CHUNK).min(total) {
                    if values[g as usize].load(Ordering::Relaxed) != UNKNOWN {
                        continue;
                    }
                    let t = offsets.iter().rposition(|&o| o <= g).unwrap_or(0);
                    let Some(pos) = layouts[t].position(g - offsets[t]) else {
                        values[g as usize].store(INVALID, Ordering::Relaxed);
                        continue;
                    };
                    let v = solve::<V>(&pos, &mut list, |c| {
                        let v = child_value(c, done, layouts, &offsets, &values);
                        if v.is_none() {
                            missing.fetch_add(1, Ordering::Relaxed);
                        }
                        v.unwrap_or(UNKNOWN)
                    });
                    if v != UNKNOWN {
                        values[g as usize].store(v, Ordering::Relaxed);
                        n_changed += 1;
                    }
                }
                changed.fetch_add(n_changed, Ordering::Relaxed);
            }
        };
        std::thread::scope(|s| {
            for _ in 1..opts.threads.max(1) {
                s.spawn(work);
            }
            work();
        });
        if missing.load(Ordering::Relaxed) > 0 {
            return Err(format!(
                "building {}: a move leads to a table that is not built (build order bug)",
                layouts[0].material
            ));
        }
        let c = changed.load(Ordering::Relaxed);
        if tty {
            eprint!(
                "\regdb {}: {} sweep {sweeps}: {c} positions solved      ",
                V::KIND,
                layouts[0].material
            );
        }
        if c == 0 {
            break;
        }
    }
    if tty {
        eprint!("\r{:70}\r", "");
    }
    let tables = layouts
        .iter()
        .zip(&offsets)
        .map(|(l, &off)| {
            let vals = values[off as usize..(off + l.len()) as usize]
                .iter()
                .map(|a| match a.load(Ordering::Relaxed) {
                    UNKNOWN => Value::Draw,
                    INVALID => Value::Invalid,
                    v => Value::from_bits(v),
                });
            Table::from_values(*l, vals)
        })
        .collect();
    Ok((tables, sweeps))
}

/// One position's step of a sweep: `Win` if a move reaches a position lost
/// for the opponent, `Loss` if every move reaches a win for the opponent
/// (or there is none), else still unknown.
#[inline]
fn solve<V: Variant>(
    pos: &Position,
    list: &mut MoveList,
    mut child: impl FnMut(&Position) -> u8,
) -> u8 {
    movegen::generate::<V>(pos, list);
    let mut all_win = true;
    for mv in list.iter() {
        match child(&pos.play::<V>(mv)) {
            v if v == Value::Loss as u8 => return Value::Win as u8,
            v if v == Value::Win as u8 => {}
            _ => all_win = false,
        }
    }
    if all_win { Value::Loss as u8 } else { UNKNOWN }
}
