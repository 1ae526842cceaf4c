//! Endings a material draw rule governs (docs/rules.md §8: International
//! 16- and 5-move rules, Frisian two kings against one), valued as they
//! stand when the rule's count starts: a win only where it fits in the
//! count. The builder and the verifier read these "entry values" for a
//! move that enters such an ending from outside it (docs/egdb.md, "Draw
//! rules"), so a table win never rests on a win the count takes away.

use super::Value;
use super::index::{Layout, Material};
use super::probe::Tables;
use crate::board::{MoveList, movegen};
use crate::variant::{DrawRule, Variant};

/// The §8 material rule of a material and its limit in plies, if any.
pub fn rule_of<V: Variant>(m: Material) -> Option<(DrawRule, u16)> {
    let l = Layout::new::<V>(m);
    (0..l.len())
        .find_map(|i| l.position(i))
        .and_then(|p| V::material_rule(&p))
}

/// Computes the entry values of every governed material of at most
/// `pieces` pieces whose table can be valued now, and adds them to `t`.
///
/// Inside a governed ending the count goes on through a crowning and
/// through a capture that keeps the same rule (docs/rules.md §8.1), and
/// such moves lower the number of pieces or of men; so the materials of one
/// rule are valued together up to the first (pieces, men) level that is
/// not built, and again when more levels are (the builder calls this
/// before every pair). Returns an error when a needed table is missing.
pub fn ensure_entries<V: Variant>(
    t: &mut Tables,
    pieces: u32,
    threads: usize,
) -> Result<(), String> {
    let mut groups: Vec<(DrawRule, u16, Vec<Material>)> = Vec::new();
    for m in Material::all_up_to(pieces) {
        if let Some((r, limit)) = rule_of::<V>(m) {
            t.set_rule(m, r);
            match groups.iter_mut().find(|g| g.0 == r) {
                Some(g) => g.2.push(m),
                None => groups.push((r, limit, vec![m])),
            }
        }
    }
    // A rule whose endings are left by a capture into another rule's
    // (16-move to 5-move) comes after it: fewer pieces first.
    groups.sort_by_key(|g| g.2.iter().map(|m| m.pieces()).max());
    for (_, limit, members) in groups {
        // The members up to the first (pieces, men) level not built yet:
        // the moves that keep the count go to fewer pieces or fewer men.
        let mut ready: Vec<Material> = Vec::new();
        let mut levels: Vec<(u32, u32)> = members.iter().map(|m| (m.pieces(), m.men())).collect();
        levels.sort_unstable();
        levels.dedup();
        for level in levels {
            let at: Vec<Material> = members
                .iter()
                .copied()
                .filter(|m| (m.pieces(), m.men()) == level)
                .collect();
            if at.iter().any(|m| t.table(*m).is_none()) {
                break;
            }
            ready.extend(at);
        }
        if ready.is_empty() || ready.iter().all(|m| t.entry(*m).is_some()) {
            continue;
        }
        for (m, values) in ready.iter().zip(solve::<V>(t, &ready, limit, threads)?) {
            t.insert_entry(*m, values);
        }
    }
    Ok(())
}

/// The entry values of the materials `group` (one rule, closed under the
/// moves that keep the count) with `limit` plies left: the values after
/// `limit` rounds of "a win needs a move to a loss, a loss has only moves
/// to wins", starting from the end of the count, where every position is
/// a draw unless the side to move has no move (§7 comes before §8).
fn solve<V: Variant>(
    t: &Tables,
    group: &[Material],
    limit: u16,
    threads: usize,
) -> Result<Vec<Vec<Value>>, String> {
    let layouts: Vec<Layout> = group.iter().map(|&m| Layout::new::<V>(m)).collect();
    let mut cur: Option<Vec<Vec<Value>>> = None;
    for _ in 0..=limit {
        let r = Round {
            t,
            layouts: &layouts,
            prev: cur.as_deref(),
        };
        let next = layouts
            .iter()
            .map(|l| r.layout::<V>(l, threads))
            .collect::<Result<Vec<_>, _>>()?;
        if cur.as_ref() == Some(&next) {
            break; // nothing changes any more
        }
        cur = Some(next);
    }
    Ok(cur.unwrap_or_default())
}

/// One round of [`solve`]: the group's values with one more ply of the
/// count left than `prev` (`None`: the count is over).
struct Round<'a> {
    t: &'a Tables,
    layouts: &'a [Layout],
    prev: Option<&'a [Vec<Value>]>,
}

impl Round<'_> {
    /// The round over the positions of `l`, split among threads.
    fn layout<V: Variant>(&self, l: &Layout, threads: usize) -> Result<Vec<Value>, String> {
        let n = l.len();
        let chunk = n.div_ceil(threads.max(1) as u64).max(1);
        let parts: Vec<Result<Vec<Value>, String>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..n)
                .step_by(chunk as usize)
                .map(|lo| {
                    let hi = (lo + chunk).min(n);
                    s.spawn(move || {
                        let mut list = MoveList::default();
                        (lo..hi).map(|i| self.value::<V>(l, i, &mut list)).collect()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err("a worker thread panicked".into()))
                })
                .collect()
        });
        let mut out = Vec::with_capacity(n as usize);
        for p in parts {
            out.extend(p?);
        }
        Ok(out)
    }

    /// The value of position `i` of `l` in this round.
    fn value<V: Variant>(&self, l: &Layout, i: u64, list: &mut MoveList) -> Result<Value, String> {
        let (t, layouts) = (self.t, self.layouts);
        let Some(pos) = l.position(i) else {
            return Ok(Value::Invalid);
        };
        movegen::generate::<V>(&pos, list);
        if list.is_empty() {
            return Ok(Value::Loss);
        }
        let Some(prev) = self.prev else {
            return Ok(Value::Draw);
        };
        let mut all_win = true;
        for mv in list.iter() {
            let child = pos.play::<V>(mv);
            if child.own() == 0 {
                return Ok(Value::Win);
            }
            let cm = Material::of(&child);
            let missing = || format!("{}: no table for {cm}", l.material);
            let v = match layouts.iter().position(|g| g.material == cm) {
                Some(s) => prev[s][layouts[s].index(&child).ok_or_else(missing)? as usize],
                None => {
                    let ct = t.child_table(l.material, cm).ok_or_else(missing)?;
                    ct.get(ct.layout.index(&child).ok_or_else(missing)?)
                }
            };
            match v {
                Value::Loss => return Ok(Value::Win),
                Value::Win => {}
                Value::Draw => all_win = false,
                Value::Invalid => return Err(missing()),
            }
        }
        Ok(if all_win { Value::Loss } else { Value::Draw })
    }
}
