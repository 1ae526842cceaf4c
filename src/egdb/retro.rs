//! The retrograde solver of one material and its colour-swapped twin
//! (docs/egdb.md, "Build"): one forward pass, then waves that look only at
//! the predecessors of the positions the last wave decided.
//!
//! Every position keeps one byte: while undecided, the number of its moves
//! whose value is still open (moves inside the pair, plus one for a move to
//! a drawn position of a finished table, which never resolves); when
//! decided, its value, marked "new" until its predecessors have been told.
//!
//! * The forward pass generates each position's moves once: a capture or a
//!   promotion (another material, finished before) to a loss for the
//!   opponent makes it a win; no open move left makes it a loss (this
//!   includes no move at all, §7).
//! * A wave takes every position decided by the previous one and un-plays
//!   the opponent's last move (quiet, no promotion: the only moves that
//!   stay in the pair). A predecessor of a loss is a win; a predecessor of
//!   a win loses one open move, and is a loss when none is left.
//! * What is undecided when a wave decides nothing is a draw.
//!
//! Threads share each pass by chunks; the bytes are atomic and the counter
//! updates compare-and-swap, so the result does not depend on the order.

use super::Value;
use super::index::{Layout, Material, normalise};
use super::probe::Tables;
use super::storage::Table;
use crate::board::bitboard::{Dir, free_ray, step};
use crate::board::{Color, MoveList, Position, Restriction, Square, movegen, squares};
use crate::variant::Variant;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

/// Undecided positions hold their open-move count, at most this.
const MAX_OPEN: u8 = 239;
/// An index value that is not a position.
const INVALID: u8 = 240;
/// Decided, predecessors told.
const WIN: u8 = 241;
const LOSS: u8 = 242;
/// Decided in a wave of parity 0 or 1, predecessors not told yet.
const WIN_NEW: [u8; 2] = [243, 245];
const LOSS_NEW: [u8; 2] = [244, 246];
/// Positions a thread takes at a time.
const CHUNK: u64 = 4096;

/// The positions of a pair being solved.
struct Pair<'a> {
    done: &'a Tables,
    layouts: &'a [Layout],
    offsets: Vec<u64>,
    values: Vec<AtomicU8>,
}

/// What a pass reports.
#[derive(Default)]
struct Tally {
    decided: AtomicU64,
    error: AtomicBool,
}

impl Pair<'_> {
    /// The layout number and the index of global position `g`.
    #[inline]
    fn locate(&self, g: u64) -> (usize, u64) {
        let t = self.offsets.iter().rposition(|&o| o <= g).unwrap_or(0);
        (t, g - self.offsets[t])
    }

    /// The global index of `pos` (White to move) if it is in the pair.
    #[inline]
    fn global(&self, pos: &Position) -> Option<u64> {
        let m = Material::of(pos);
        let t = self.layouts.iter().position(|l| l.material == m)?;
        Some(self.offsets[t] + self.layouts[t].index(pos)?)
    }

    /// The forward pass over global positions `lo..hi`.
    fn forward<V: Variant>(&self, lo: u64, hi: u64, list: &mut MoveList, tally: &Tally) {
        let mut decided = 0;
        for g in lo..hi {
            let (t, i) = self.locate(g);
            let Some(pos) = self.layouts[t].position(i) else {
                self.values[g as usize].store(INVALID, Ordering::Relaxed);
                continue;
            };
            let code = match self.first_look::<V>(&pos, list) {
                Some(c) => c,
                None => {
                    tally.error.store(true, Ordering::Relaxed);
                    INVALID
                }
            };
            decided += u64::from(code > MAX_OPEN);
            self.values[g as usize].store(code, Ordering::Relaxed);
        }
        tally.decided.fetch_add(decided, Ordering::Relaxed);
    }

    /// A position's code after the forward pass (`None`: a move leads to a
    /// table that is not built, or too many open moves).
    #[inline]
    fn first_look<V: Variant>(&self, pos: &Position, list: &mut MoveList) -> Option<u8> {
        movegen::generate::<V>(pos, list);
        let mut open = 0u32;
        let promotion = pos.side().promotion_row();
        for mv in list.iter() {
            // A quiet move without promotion stays in the pair.
            if !mv.is_capture() && (pos.is_king_move(mv) || mv.to().mask() & promotion == 0) {
                open += 1;
                continue;
            }
            let child = pos.play::<V>(mv);
            if child.own() == 0 {
                return Some(WIN_NEW[0]);
            }
            let n = normalise(&child);
            let table = self.done.table(Material::of(&n))?;
            match table.get(table.layout.index(&n)?) {
                Value::Loss => return Some(WIN_NEW[0]),
                Value::Win => {}
                Value::Draw => open += 1,
                Value::Invalid => return None,
            }
        }
        match open {
            0 => Some(LOSS_NEW[0]),
            n if n <= MAX_OPEN as u32 => Some(n as u8),
            _ => None,
        }
    }

    /// One wave over `lo..hi`: tells the predecessors of the positions
    /// decided in the wave of parity `p`.
    fn wave<V: Variant>(&self, p: usize, lo: u64, hi: u64, tally: &Tally) {
        let mut decided = 0;
        for g in lo..hi {
            let code = self.values[g as usize].load(Ordering::Relaxed);
            let lost = if code == LOSS_NEW[p] {
                true
            } else if code == WIN_NEW[p] {
                false
            } else {
                continue;
            };
            let (t, i) = self.locate(g);
            let Some(pos) = self.layouts[t].position(i) else {
                continue;
            };
            predecessors::<V>(&pos, |prev| {
                let Some(j) = self.global(&normalise(prev)) else {
                    return;
                };
                decided += u64::from(self.tell(j, lost, 1 - p));
            });
            let fin = if lost { LOSS } else { WIN };
            self.values[g as usize].store(fin, Ordering::Relaxed);
        }
        tally.decided.fetch_add(decided, Ordering::Relaxed);
    }

    /// Position `j` has a move to a position just decided (`lost`: lost
    /// for its mover); true if that decides `j` (marked new, parity `q`).
    #[inline]
    fn tell(&self, j: u64, lost: bool, q: usize) -> bool {
        let cell = &self.values[j as usize];
        let mut x = cell.load(Ordering::Relaxed);
        loop {
            if x > MAX_OPEN || x == 0 {
                return false;
            }
            let new = if lost {
                WIN_NEW[q]
            } else if x == 1 {
                LOSS_NEW[q]
            } else {
                x - 1
            };
            match cell.compare_exchange_weak(x, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return new > MAX_OPEN,
                Err(now) => x = now,
            }
        }
    }
}

/// Calls `f` with every position (Black to move) from which Black's quiet,
/// non-promoting move reaches `pos` (White to move): a black piece is
/// un-played, the position must have no capture (§5.1), and Black's §6
/// state before the move is restored (every state that leads to the one
/// of `pos`; the test below checks this against forward generation).
fn predecessors<V: Variant>(pos: &Position, mut f: impl FnMut(&Position)) {
    let occ = pos.occupied();
    let (white, black, kings) = (
        pos.pieces(Color::White),
        pos.pieces(Color::Black),
        pos.kings(),
    );
    let king_dirs: &[Dir] = if V::ORTHOGONAL_KING_MOVES {
        &Dir::ALL
    } else {
        &Dir::DIAGONAL
    };
    let mut try_from = |from: Square, to: Square, king: bool| {
        let moved = black ^ from.mask() ^ to.mask();
        let k = if king {
            kings ^ from.mask() ^ to.mask()
        } else {
            kings
        };
        let base = Position::new(white, moved, k, Color::Black)
            .with_restriction(Color::White, pos.restriction(Color::White));
        // Compulsory capture (§5.1): no quiet move from a position with one.
        if movegen::has_capture::<V>(&base) {
            return;
        }
        if !V::KING_RESTRICTION || black & !kings == 0 {
            // No §6 state to restore (a side without men has none).
            if pos.restriction(Color::Black) == Restriction::NONE {
                f(&base);
            }
            return;
        }
        for r in black_states(pos.restriction(Color::Black), from, to, king, moved & k) {
            f(&base.with_restriction(Color::Black, r));
        }
    };
    for to in squares(black & kings) {
        for &d in king_dirs {
            for from in squares(free_ray(d, to, occ)) {
                try_from(from, to, true);
            }
        }
    }
    // Black men step SW and SE: they came from NE and NW.
    for to in squares(black & !kings) {
        for d in [Dir::NE, Dir::NW] {
            for from in squares(step(to.mask(), d) & !occ) {
                try_from(from, to, false);
            }
        }
    }
}

/// Black's §6 states before its quiet move `from`-`to` (a king move if
/// `king`) that lead to the state `after`, Black having men and the kings
/// `kings` before the move (docs/rules.md §6, as `Position::play` applies
/// it): a king move starts or extends the count of that king (a king at
/// three may not move), a man move clears the state whatever it was.
fn black_states(
    after: Restriction,
    from: Square,
    to: Square,
    king: bool,
    kings: crate::board::Bitboard,
) -> Vec<Restriction> {
    let any_of = |skip: crate::board::Bitboard| {
        let mut v = vec![Restriction::NONE];
        for kk in squares(kings & !skip) {
            for c in 1..=3 {
                v.extend(Restriction::new(kk, c));
            }
        }
        v
    };
    if !king {
        return if after == Restriction::NONE {
            any_of(0)
        } else {
            Vec::new()
        };
    }
    if after.king() != Some(to) {
        return Vec::new();
    }
    match after.count() {
        1 => any_of(from.mask()),
        c @ (2 | 3) => Restriction::new(from, c - 1).into_iter().collect(),
        _ => Vec::new(),
    }
}

/// Solves the positions of `layouts` (a material and its twin, or one
/// symmetric material) against the finished tables `done`; returns the
/// tables and the number of waves.
pub fn solve_pair<V: Variant>(
    done: &Tables,
    layouts: &[Layout],
    threads: usize,
    mut progress: impl FnMut(u32, u64),
) -> Result<(Vec<Table>, u32), String> {
    let mut offsets = Vec::new();
    let mut total = 0u64;
    for l in layouts {
        offsets.push(total);
        total += l.len();
    }
    let pair = Pair {
        done,
        layouts,
        offsets,
        values: (0..total).map(|_| AtomicU8::new(0)).collect(),
    };
    let run = |pass: &(dyn Fn(u64, u64, &mut MoveList, &Tally) + Sync)| -> Tally {
        let tally = Tally::default();
        let next = AtomicU64::new(0);
        let work = || {
            let mut list = MoveList::new();
            loop {
                let lo = next.fetch_add(CHUNK, Ordering::Relaxed);
                if lo >= total {
                    break;
                }
                pass(lo, (lo + CHUNK).min(total), &mut list, &tally);
            }
        };
        std::thread::scope(|s| {
            for _ in 1..threads.max(1) {
                s.spawn(work);
            }
            work();
        });
        tally
    };
    let first = run(&|lo, hi, list, tally| pair.forward::<V>(lo, hi, list, tally));
    if first.error.load(Ordering::Relaxed) {
        return Err(format!(
            "building {}: a move leads to a table that is not built (build order bug)",
            layouts[0].material
        ));
    }
    progress(0, first.decided.load(Ordering::Relaxed));
    let mut waves = 0;
    loop {
        let p = (waves % 2) as usize;
        waves += 1;
        let t = run(&|lo, hi, _, tally| pair.wave::<V>(p, lo, hi, tally));
        let decided = t.decided.load(Ordering::Relaxed);
        progress(waves, decided);
        if decided == 0 {
            break;
        }
    }
    let tables = layouts
        .iter()
        .zip(&pair.offsets)
        .map(|(l, &off)| {
            let vals = pair.values[off as usize..(off + l.len()) as usize]
                .iter()
                .map(|a| match a.load(Ordering::Relaxed) {
                    INVALID => Value::Invalid,
                    WIN => Value::Win,
                    LOSS => Value::Loss,
                    _ => Value::Draw,
                });
            Table::from_values(*l, vals)
        })
        .collect();
    Ok((tables, waves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{Frisian, International};

    /// Every position found backward has a move to the position it was
    /// found from, each once, and there are as many as moves forward.
    fn same_edges<V: Variant>(name: &str) {
        let m = Material::parse(name).unwrap();
        let mut layouts = vec![Layout::new::<V>(m), Layout::new::<V>(m.swapped())];
        layouts.dedup();
        let in_pair = |p: &Position| layouts.iter().any(|l| l.material == Material::of(p));
        let (mut fwd, mut back) = (0u64, 0u64);
        let mut list = MoveList::new();
        for l in &layouts {
            for i in 0..l.len() {
                let Some(x) = l.position(i) else { continue };
                movegen::generate::<V>(&x, &mut list);
                fwd += list.iter().filter(|mv| in_pair(&x.play::<V>(mv))).count() as u64;
                let mut seen = Vec::new();
                predecessors::<V>(&x, |prev| {
                    assert!(in_pair(&normalise(prev)) && !seen.contains(prev), "{name}");
                    let moves = movegen::legal_moves::<V>(prev);
                    let hits = moves.iter().filter(|mv| prev.play::<V>(mv) == x).count();
                    assert_eq!(hits, 1, "{name}: {prev:?} does not lead to {x:?}");
                    seen.push(*prev);
                    back += 1;
                });
            }
        }
        assert!(fwd > 0);
        assert_eq!(fwd, back, "{name}: moves forward and backward");
    }

    #[test]
    fn predecessors_match_forward_moves() {
        same_edges::<International>("0201");
        same_edges::<International>("1010");
        same_edges::<Frisian>("1101");
        same_edges::<Frisian>("1110");
    }
}
