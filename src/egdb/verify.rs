//! Verification of loaded tables: every position agrees with its moves
//! (self-consistency), and sampled positions agree with a search that
//! knows nothing of the tables (docs/egdb.md, "Verification").

use super::Value;
use super::index::Material;
use super::probe::Tables;
use super::storage::Table;
use crate::board::{MoveList, Position, movegen};
use crate::game::Game;
use crate::search::{Engine, Limits, MATE, MAX_PLY, Mode};
use crate::variant::Variant;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a verification found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Tables and positions checked for consistency.
    pub tables: usize,
    pub positions: u64,
    /// Inconsistent positions (at most a few are described in `errors`).
    pub inconsistent: u64,
    pub errors: Vec<String>,
    /// Spot checks: the search proved a result that the table confirms.
    pub confirmed: u64,
    /// Spot checks where the search proved nothing (counters, depth).
    pub unproven: u64,
    /// Spot checks where a proven search result contradicts the table.
    pub contradicted: u64,
}

impl Report {
    /// True when nothing is wrong.
    pub fn ok(&self) -> bool {
        self.inconsistent == 0 && self.contradicted == 0
    }
}

const MAX_ERRORS: usize = 20;

/// What the moves of `pos` say its value must be, from the tables: `None`
/// when a child is not in the tables.
pub fn expected<V: Variant>(t: &Tables, pos: &Position) -> Option<Value> {
    let list = movegen::legal_moves::<V>(pos);
    let m = Material::of(pos);
    from_children(list.iter().map(|mv| t.probe_child(m, &pos.play::<V>(mv))))
}

/// The value a position must have, from the values of its children (each
/// for the side to move there, in move order): a win if one is lost, else
/// a draw if one is drawn, else a loss (also with no move at all, §7);
/// `None` at the first child whose value is unknown or a hole.
fn from_children(children: impl Iterator<Item = Option<Value>>) -> Option<Value> {
    let (mut any_loss, mut any_draw) = (false, false);
    for value in children {
        match value? {
            Value::Loss => any_loss = true,
            Value::Draw => any_draw = true,
            Value::Win => {}
            Value::Invalid => return None,
        }
    }
    Some(if any_loss {
        Value::Win
    } else if any_draw {
        Value::Draw
    } else {
        Value::Loss
    })
}

/// Where a move of a placement leads: the side to move there has no
/// piece left, or the first index of the child's placement in its table.
#[derive(Clone, Copy)]
enum Child<'a> {
    NoPiece,
    At(&'a Table, u64),
    Missing,
}

/// Placements a verifying thread takes at a time.
const CHUNK: u64 = 1024;

/// Checks every position of every table of at most `pieces` pieces, with
/// `threads` threads sharing each table by chunks of placements.
///
/// A placement's moves and their children's placements (the costly part:
/// normalising and indexing) are found once; each §6 state of the
/// placement then generates its own moves and plays them (so the §6 rules
/// are those of `movegen` and `Position::play`, not the builder's), and
/// only the state part of each child's index is computed anew.
pub fn consistency<V: Variant>(t: &Tables, pieces: u32, threads: usize, report: &mut Report) {
    for m in Material::all_up_to(pieces) {
        let Some(table) = t.table(m) else {
            report.errors.push(format!("table {m} is not loaded"));
            report.inconsistent += 1;
            continue;
        };
        report.tables += 1;
        let placements = table.layout.len() / table.layout.states();
        let next = AtomicU64::new(0);
        let work = || {
            let mut r = Report::default();
            let mut buf = Buffers::default();
            loop {
                let lo = next.fetch_add(CHUNK, Ordering::Relaxed);
                if lo >= placements {
                    return r;
                }
                for p in lo..(lo + CHUNK).min(placements) {
                    check_placement::<V>(t, table, p, &mut buf, &mut r);
                }
            }
        };
        let parts: Vec<Report> = std::thread::scope(|sc| {
            let helpers: Vec<_> = (1..threads.max(1)).map(|_| sc.spawn(work)).collect();
            let mut parts = vec![work()];
            // A verifying thread that panicked is a bug: pass it on.
            parts.extend(
                helpers
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))),
            );
            parts
        });
        for r in parts {
            report.positions += r.positions;
            report.inconsistent += r.inconsistent;
            for e in r.errors {
                note(report, e);
            }
        }
    }
}

/// Move lists and child placements reused from one placement to the next.
#[derive(Default)]
struct Buffers<'a> {
    all: MoveList,
    list: MoveList,
    children: Vec<Child<'a>>,
}

/// Checks the positions (every §6 state) of placement `p` of `table`.
fn check_placement<'a, V: Variant>(
    t: &'a Tables,
    table: &Table,
    p: u64,
    buf: &mut Buffers<'a>,
    report: &mut Report,
) {
    let l = &table.layout;
    let m = l.material;
    let s = l.states();
    let Some(pos) = l.placement_position(p) else {
        for i in p * s..(p + 1) * s {
            let v = table.get(i);
            if v != Value::Invalid {
                report.inconsistent += 1;
                note(report, format!("{m} index {i}: a hole holds {}", v.name()));
            }
        }
        return;
    };
    movegen::generate::<V>(&pos, &mut buf.all);
    buf.children.clear();
    buf.children.extend(buf.all.iter().map(|mv| {
        let child = pos.play::<V>(mv);
        if child.own() == 0 {
            return Child::NoPiece;
        }
        let Some(ct) = t.child_table(m, Material::of(&child)) else {
            return Child::Missing;
        };
        match ct.layout.placement(&child) {
            Some(c) => Child::At(ct, c * ct.layout.states()),
            None => Child::Missing,
        }
    }));
    for k in 0..s {
        let i = p * s + k;
        let v = table.get(i);
        let pos = l.with_states(&pos, k);
        report.positions += 1;
        movegen::generate::<V>(&pos, &mut buf.list);
        let e = judge::<V>(t, &pos, &buf.list, &buf.all, &buf.children);
        if e != Some(v) {
            report.inconsistent += 1;
            note(
                report,
                format!(
                    "{m} {}: table {}, moves say {}",
                    crate::board::fen::to_fen(&pos),
                    v.name(),
                    e.map_or("a missing table", |e| e.name())
                ),
            );
        }
    }
}

/// What the moves `list` of `pos` say its value must be (as [`expected`]):
/// a move found in `all` (the moves of the placement without state, in
/// the same order) takes its child's placement from `children`; any other
/// is probed in full.
fn judge<V: Variant>(
    t: &Tables,
    pos: &Position,
    list: &MoveList,
    all: &MoveList,
    children: &[Child],
) -> Option<Value> {
    let mut j = 0;
    from_children(list.iter().map(|mv| {
        while j < all.len() && all.as_slice()[j] != *mv {
            j += 1;
        }
        let child = pos.play::<V>(mv);
        match children.get(j) {
            Some(Child::NoPiece) => Some(Value::Loss),
            Some(Child::At(ct, base)) => Some(ct.get(base + ct.layout.state_offset(&child)?)),
            Some(Child::Missing) => None,
            None => t.probe_child(Material::of(pos), &child),
        }
    }))
}

fn note(report: &mut Report, s: String) {
    if report.errors.len() < MAX_ERRORS {
        report.errors.push(s);
    }
}

/// Searches `samples` positions (a fixed pseudo-random choice) to `depth`
/// plies without tables: a proven win or loss must be the table's value.
/// A search draw proves nothing (the counter rules add draws).
pub fn spot_check<V: Variant>(
    t: &Tables,
    pieces: u32,
    samples: u64,
    depth: u32,
    report: &mut Report,
) {
    let mats: Vec<Material> = Material::all_up_to(pieces)
        .into_iter()
        .filter(|m| t.table(*m).is_some())
        .collect();
    if mats.is_empty() {
        return;
    }
    let mut engine = Engine::with_tt_size(16);
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let proven = MATE - MAX_PLY as i32 - 2;
    let mut done = 0;
    let mut tries = 0;
    while done < samples && tries < samples * 20 {
        tries += 1;
        let m = mats[(next() % mats.len() as u64) as usize];
        let Some(table) = t.table(m) else { continue };
        let i = next() % table.layout.len();
        let (Some(pos), v) = (table.layout.position(i), table.get(i)) else {
            continue;
        };
        done += 1;
        let game = Game::new(V::KIND, pos);
        engine.clear();
        let out = engine.search_blocking(
            &game,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            Mode::Analyze,
        );
        let score = out.last().map_or(0, |i| i.score);
        let said = if out.best.is_none() {
            Some(Value::Loss)
        } else if score >= proven {
            Some(Value::Win)
        } else if score <= -proven {
            Some(Value::Loss)
        } else {
            None
        };
        match said {
            None => report.unproven += 1,
            Some(s) if s == v => report.confirmed += 1,
            Some(s) => {
                report.contradicted += 1;
                note(
                    report,
                    format!(
                        "{m} {}: table {}, search proves {}",
                        crate::board::fen::to_fen(&pos),
                        v.name(),
                        s.name()
                    ),
                );
            }
        }
    }
}
