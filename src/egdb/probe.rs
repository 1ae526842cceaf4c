//! The loaded tables of one variant and what the search asks of them: the
//! value of a position, the root moves that keep it, and a score that
//! respects the draw rules of docs/rules.md §8 (docs/egdb.md, "Probing").

use super::Value;
use super::index::{Layout, MAX_PIECES, Material, normalise};
use super::storage::{self, Table};
use crate::board::{Move, Position};
use crate::game::DrawState;
use crate::score::Score;
use crate::variant::{DrawRule, Variant, VariantKind};
use crate::with_variant;
use std::path::Path;
use std::sync::Arc;

/// Centre of the band of table wins: above every evaluation
/// ([`crate::eval::MAX_EVAL`] = 5000) and below every forced win
/// (`MATE - MAX_PLY`), so a table win is never reported as a forced win.
pub const EGDB_WIN: Score = 7_500;
/// How far the evaluation moves a table win inside its band (progress:
/// among winning moves the search prefers the ones the evaluation likes).
const EVAL_SPREAD: Score = 1_000;
/// A table win or loss is trusted only while the quiet counter (25-move
/// rule, Frisian kings-only rule) leaves at least this many plies.
pub const TRUST_PLIES: u16 = 30;

/// The tables of one variant, by material.
#[derive(Clone, Debug)]
pub struct Tables {
    variant: VariantKind,
    by_code: Vec<Option<Arc<Table>>>,
    count: usize,
    bytes: usize,
    /// By material code: the §8 material rule that governs it (`None`:
    /// none, or not known yet).
    rule: Vec<Option<DrawRule>>,
    /// By material code: the entry values of a governed material
    /// (`counted.rs`), for the builder and the verifier.
    entry: Vec<Option<Arc<Table>>>,
}

impl Tables {
    /// No tables.
    pub fn new(variant: VariantKind) -> Tables {
        Tables {
            variant,
            by_code: vec![None; 1 << 12],
            count: 0,
            bytes: 0,
            rule: vec![None; 1 << 12],
            entry: vec![None; 1 << 12],
        }
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, t: Table) {
        let slot = &mut self.by_code[t.layout.material.code()];
        if slot.is_none() {
            self.count += 1;
        }
        self.bytes += t.bytes();
        *slot = Some(Arc::new(t));
    }

    /// The variant the tables belong to.
    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    /// Number of tables loaded.
    pub fn len(&self) -> usize {
        self.count
    }

    /// True when no table is loaded.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Bytes of table data in memory.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The table of a material, if loaded.
    pub fn table(&self, m: Material) -> Option<&Table> {
        self.by_code.get(m.code()).and_then(|t| t.as_deref())
    }

    /// Notes the §8 material rule that governs `m`.
    pub fn set_rule(&mut self, m: Material, r: DrawRule) {
        self.rule[m.code()] = Some(r);
    }

    /// Adds the entry values of a governed material (`counted.rs`).
    /// `m`'s own table must be loaded (the entry values share its layout).
    pub fn insert_entry(&mut self, m: Material, values: Vec<Value>) {
        if let Some(layout) = self.table(m).map(|t| t.layout) {
            let t = Table::from_values(layout, values.into_iter());
            self.entry[m.code()] = Some(Arc::new(t));
        }
    }

    /// The entry values of a governed material, if computed.
    pub fn entry(&self, m: Material) -> Option<&Table> {
        self.entry.get(m.code()).and_then(|t| t.as_deref())
    }

    /// The table a move from a position of material `parent` reads for its
    /// child of material `child`: the entry values when the move enters an
    /// ending of another §8 material rule (its count starts there), else the
    /// child's own table (docs/egdb.md, "Draw rules").
    #[inline]
    pub fn child_table(&self, parent: Material, child: Material) -> Option<&Table> {
        let r = self.rule[child.code()];
        if r.is_some() && r != self.rule[parent.code()] {
            self.entry(child)
        } else {
            self.table(child)
        }
    }

    /// [`Tables::probe`] of the child `pos` of a position of material
    /// `parent`, through [`Tables::child_table`].
    #[inline]
    pub fn probe_child(&self, parent: Material, pos: &Position) -> Option<Value> {
        self.read(pos, |m| self.child_table(parent, m))
    }

    /// The largest n such that every material of at most n pieces is loaded.
    pub fn complete_pieces(&self) -> u32 {
        (2..=MAX_PIECES)
            .take_while(|&n| {
                Material::all_up_to(n)
                    .iter()
                    .all(|m| self.table(*m).is_some())
            })
            .last()
            .unwrap_or(0)
    }

    /// Loads every table of at most `pieces` pieces found under `dir`; the
    /// errors (missing or damaged files) are returned, one line each, and
    /// the tables that did load are usable.
    pub fn load(kind: VariantKind, dir: &Path, pieces: u32) -> (Tables, Vec<String>) {
        with_variant!(kind, V => Self::load_variant::<V>(dir, pieces))
    }

    fn load_variant<V: Variant>(dir: &Path, pieces: u32) -> (Tables, Vec<String>) {
        let mut t = Tables::new(V::KIND);
        let mut errors = Vec::new();
        for m in Material::all_up_to(pieces) {
            match storage::read::<V>(dir, m) {
                Ok(table) => t.insert(table),
                Err(e) => errors.push(e),
            }
        }
        (t, errors)
    }

    /// The value of `pos` for the side to move, if its table is loaded.
    /// `V` must be the tables' variant. Any position is answered, quiet or
    /// not, with or without a §6 state.
    #[inline]
    pub fn probe<V: Variant>(&self, pos: &Position) -> Option<Value> {
        self.read(pos, |m| self.table(m))
    }

    /// The value of `pos` in the table `pick` gives for its material.
    #[inline]
    fn read<'a>(
        &'a self,
        pos: &Position,
        pick: impl FnOnce(Material) -> Option<&'a Table>,
    ) -> Option<Value> {
        if pos.own() == 0 {
            return Some(Value::Loss);
        }
        if pos.occupied().count_ones() > MAX_PIECES || pos.opponent() == 0 {
            return None;
        }
        let n = normalise(pos);
        let t = pick(Material::of(&n))?;
        let i = t.layout.index(&n)?;
        match t.get(i) {
            Value::Invalid => None,
            v => Some(v),
        }
    }

    /// The moves of `moves` that keep the table value of `pos` (every move
    /// when the position is lost or not in the tables).
    pub fn root_moves<V: Variant>(&self, pos: &Position, moves: &[Move]) -> Vec<Move> {
        let keep = match self.probe::<V>(pos) {
            Some(Value::Win) => Value::Loss,
            Some(Value::Draw) => Value::Draw,
            _ => return moves.to_vec(),
        };
        let kept: Vec<Move> = moves
            .iter()
            .filter(|m| self.probe::<V>(&pos.play::<V>(m)) == Some(keep))
            .copied()
            .collect();
        if kept.is_empty() {
            moves.to_vec()
        } else {
            kept
        }
    }

    /// Layout of a material in this variant (for tools).
    pub fn layout<V: Variant>(m: Material) -> Layout {
        Layout::new::<V>(m)
    }
}

/// The search score of a table value at `ply`, or `None` when the search
/// must go on instead (docs/egdb.md, "Draw rules"):
///
/// * a table draw is 0 at once: the counter rules only ever add draws;
/// * a win or loss is not trusted in an ending a material rule governs
///   (International 16- and 5-move rules, Frisian 2 kings v 1 king), nor
///   when the quiet counter has fewer than [`TRUST_PLIES`] plies left; the
///   search then plays the ending by its own rules-aware evaluation;
/// * otherwise a win scores in the band around [`EGDB_WIN`], moved by the
///   evaluation for progress and by the ply for the quicker conversion.
#[inline]
pub fn search_score<V: Variant>(
    value: Value,
    pos: &Position,
    draw: &DrawState,
    ply: usize,
    eval: impl FnOnce() -> Score,
) -> Option<Score> {
    let sign = match value {
        Value::Draw => return Some(0),
        Value::Win => 1,
        // A side without a move has lost by the rules (§7): the search
        // scores that as the forced loss it is.
        Value::Loss if !crate::board::movegen::has_move::<V>(pos) => return None,
        Value::Loss => -1,
        Value::Invalid => return None,
    };
    if V::material_rule(pos).is_some() || draw.plies_to_draw::<V>(pos) < TRUST_PLIES {
        return None;
    }
    let e = (sign * eval()).clamp(-EVAL_SPREAD, EVAL_SPREAD);
    Some(sign * (EGDB_WIN + e - ply as Score))
}
