//! Verification of loaded tables: every position agrees with its moves
//! (self-consistency), and sampled positions agree with a search that
//! knows nothing of the tables (docs/egdb.md, "Verification").

use super::Value;
use super::index::Material;
use super::probe::Tables;
use crate::board::{Position, movegen};
use crate::game::Game;
use crate::search::{Engine, Limits, MATE, MAX_PLY, Mode};
use crate::variant::Variant;

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
    let (mut any_loss, mut any_draw) = (false, false);
    for mv in list.iter() {
        match t.probe::<V>(&pos.play::<V>(mv))? {
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

/// Checks every position of every table of at most `pieces` pieces.
pub fn consistency<V: Variant>(t: &Tables, pieces: u32, report: &mut Report) {
    for m in Material::all_up_to(pieces) {
        let Some(table) = t.table(m) else {
            report.errors.push(format!("table {m} is not loaded"));
            report.inconsistent += 1;
            continue;
        };
        report.tables += 1;
        for i in 0..table.layout.len() {
            let v = table.get(i);
            let pos = table.layout.position(i);
            let Some(pos) = pos else {
                if v != Value::Invalid {
                    report.inconsistent += 1;
                    note(report, format!("{m} index {i}: a hole holds {}", v.name()));
                }
                continue;
            };
            report.positions += 1;
            let e = expected::<V>(t, &pos);
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
