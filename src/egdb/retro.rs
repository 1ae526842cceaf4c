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
//! Both passes work by **piece placement**: the Frisian §6 states of a
//! placement are the innermost part of the index (consecutive bytes), so
//! the placement is unranked, its moves or predecessor moves generated and
//! their placements indexed once, and each state's children or
//! predecessors follow by index arithmetic. A bit per placement and parity
//! marks the placements with a fresh decision, so a wave skips the rest.
//!
//! Threads share each pass by chunks of placements; the bytes are atomic
//! and the counter updates compare-and-swap, so the result does not depend
//! on the order.

use super::Value;
use super::index::{Layout, Material, restriction_of};
use super::probe::Tables;
use super::storage::Table;
use super::unmove::predecessor_moves;
use crate::board::{Color, MoveList, Position, movegen};
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
/// Piece placements a thread takes at a time (each with all its §6 states).
const CHUNK: u64 = 512;
/// Most §6 state combinations of one placement (7 pieces: 7 × 10).
const MAX_STATES: usize = 72;
/// Most §6 states of one side (one man and six kings).
const MAX_SIDE_STATES: usize = 19;

/// The positions of a pair being solved.
struct Pair<'a> {
    done: &'a Tables,
    layouts: &'a [Layout],
    offsets: Vec<u64>,
    values: Vec<AtomicU8>,
    /// By parity and layout, a bit per placement that has a position
    /// decided in a wave of that parity and not told yet: a wave looks only
    /// at those placements instead of scanning every byte.
    marks: [Vec<Vec<AtomicU64>>; 2],
}

/// What a pass reports.
#[derive(Default)]
struct Tally {
    decided: AtomicU64,
    error: AtomicBool,
}

impl Pair<'_> {
    /// The layout number and the placement of `prev` (Black to move; its
    /// normalised form is in the pair).
    #[inline]
    fn block_of(&self, prev: &Position) -> Option<(usize, u64)> {
        let m = Material::of(prev);
        let t = if self.layouts[0].material == m {
            0
        } else if self.layouts.len() > 1 && self.layouts[1].material == m {
            1
        } else {
            return None;
        };
        Some((t, self.layouts[t].placement(prev)?))
    }

    /// Notes that placement `p` of layout `t` has a position decided in a
    /// wave of parity `q`.
    #[inline]
    fn mark(&self, q: usize, t: usize, p: u64) {
        self.marks[q][t][(p / 64) as usize].fetch_or(1 << (p % 64), Ordering::Relaxed);
    }

    /// The forward pass over placements `lo..hi` of layout `t`: the moves of
    /// a placement are generated once for all its §6 states.
    fn forward<V: Variant>(&self, t: usize, lo: u64, hi: u64, list: &mut MoveList, tally: &Tally) {
        let l = &self.layouts[t];
        let s = l.states();
        let mut codes = [0u8; MAX_STATES];
        let mut decided = 0;
        for p in lo..hi {
            let g = (self.offsets[t] + p * s) as usize;
            let cells = &self.values[g..g + s as usize];
            let Some(pos) = l.placement_position(p) else {
                cells
                    .iter()
                    .for_each(|c| c.store(INVALID, Ordering::Relaxed));
                continue;
            };
            let codes = &mut codes[..s as usize];
            if self.first_look::<V>(l, &pos, list, codes).is_none() {
                tally.error.store(true, Ordering::Relaxed);
                codes.fill(INVALID);
            }
            let before = decided;
            for (c, &code) in cells.iter().zip(codes.iter()) {
                decided += u64::from(code > MAX_OPEN);
                c.store(code, Ordering::Relaxed);
            }
            if decided > before {
                self.mark(0, t, p);
            }
        }
        tally.decided.fetch_add(decided, Ordering::Relaxed);
    }

    /// The codes after the forward pass of every §6 state of placement
    /// `pos` (no state), into `codes` in index order (`None`: a move leads
    /// to a table that is not built, or too many open moves).
    ///
    /// The states only change two things (docs/rules.md §6): White's state
    /// at count 3 forbids that king's quiet moves, and Black's state goes
    /// on into the children of White's captures and promotions (White's own
    /// is cleared by them). So the moves are generated once, the quiet ones
    /// counted per king, and a leaving move is played once per Black state.
    #[inline]
    fn first_look<V: Variant>(
        &self,
        l: &Layout,
        pos: &Position,
        list: &mut MoveList,
        codes: &mut [u8],
    ) -> Option<()> {
        let (r0, r1) = (l.side_states(0) as usize, l.side_states(1) as usize);
        movegen::generate::<V>(pos, list);
        let (kings, black) = (pos.kings(), pos.pieces(Color::Black));
        let white_kings = pos.pieces(Color::White) & kings;
        let mut quiet = 0u32;
        // Quiet moves of each white king, by its place among the kings.
        let mut by_king = [0u32; 8];
        let mut win = [false; MAX_SIDE_STATES];
        let mut open = [0u32; MAX_SIDE_STATES];
        let promotion = Color::White.promotion_row();
        for mv in list.iter() {
            let king = pos.is_king_move(mv);
            // A quiet move without promotion stays in the pair.
            if !mv.is_capture() && (king || mv.to().mask() & promotion == 0) {
                quiet += 1;
                if king {
                    by_king[(white_kings & (mv.from().mask() - 1)).count_ones() as usize & 7] += 1;
                }
                continue;
            }
            let child = pos.play::<V>(mv);
            if child.own() == 0 {
                win.fill(true);
                break;
            }
            let table = self.done.child_table(l.material, Material::of(&child))?;
            let base = table.layout.placement(&child)? * table.layout.states();
            for b in 0..r1 {
                if win[b] {
                    continue;
                }
                let child = if b == 0 {
                    child
                } else {
                    pos.with_restriction(Color::Black, restriction_of(b as u64, black & kings))
                        .play::<V>(mv)
                };
                match table.get(base + table.layout.state_offset(&child)?) {
                    Value::Loss => win[b] = true,
                    Value::Win => {}
                    Value::Draw => open[b] += 1,
                    Value::Invalid => return None,
                }
            }
        }
        for a in 0..r0 {
            // State a: king (a - 1) / 3 at count (a - 1) % 3 + 1; at 3 it
            // has no quiet move.
            let blocked = if a > 0 && (a - 1) % 3 == 2 {
                by_king[(a - 1) / 3]
            } else {
                0
            };
            for b in 0..r1 {
                codes[a * r1 + b] = if win[b] {
                    WIN_NEW[0]
                } else {
                    match quiet - blocked + open[b] {
                        0 => LOSS_NEW[0],
                        n if n <= MAX_OPEN as u32 => n as u8,
                        _ => return None,
                    }
                };
            }
        }
        Some(())
    }

    /// One wave over placements `lo..hi` of layout `t`: tells the
    /// predecessors of the positions decided in the wave of parity `p`
    /// (the marked placements). The predecessor moves of a placement are
    /// found once for all its states.
    fn wave<V: Variant>(&self, p: usize, t: usize, lo: u64, hi: u64, tally: &Tally) {
        let mut decided = 0;
        let words = &self.marks[p][t];
        let mut w = lo / 64;
        while w * 64 < hi {
            // Only the bits of lo..hi: a word may be shared with another chunk.
            let from = lo.max(w * 64) - w * 64;
            let to = hi.min(w * 64 + 64) - w * 64;
            let mask = if to - from == 64 {
                !0
            } else {
                ((1u64 << (to - from)) - 1) << from
            };
            let mut bits = words[w as usize].fetch_and(!mask, Ordering::Relaxed) & mask;
            while bits != 0 {
                let q = w * 64 + u64::from(bits.trailing_zeros());
                bits &= bits - 1;
                decided += self.tell_placement::<V>(p, t, q);
            }
            w += 1;
        }
        tally.decided.fetch_add(decided, Ordering::Relaxed);
    }

    /// Tells the predecessors of the positions of placement `q` of layout
    /// `t` decided in the wave of parity `p`; returns how many it decided.
    ///
    /// The §6 states are handled as index arithmetic (docs/rules.md §6, as
    /// `Position::play` applies it; the tables are those of a builder that
    /// played every state): White's state is unchanged by Black's move;
    /// Black's state before a man move can be any (the move clears it),
    /// before a king move that leaves king `to` at count 1 any but one of
    /// that king, and at count 2 or 3 only that king at one less.
    fn tell_placement<V: Variant>(&self, p: usize, t: usize, q: u64) -> u64 {
        let l = &self.layouts[t];
        let s = l.states();
        let r1 = l.side_states(1);
        let g = (self.offsets[t] + q * s) as usize;
        let cells = &self.values[g..g + s as usize];
        // (Black's state rank, White's rank in the turned board, lost).
        let mut fresh = [(0u64, 0u64, false); MAX_STATES];
        let mut n = 0;
        let Some(pos) = l.placement_position(q) else {
            return 0;
        };
        let kings = pos.kings();
        let (white, black) = (pos.pieces(Color::White), pos.pieces(Color::Black));
        let nw = u64::from((white & kings).count_ones());
        for (k, c) in cells.iter().enumerate() {
            let code = c.load(Ordering::Relaxed);
            if code == LOSS_NEW[p] || code == WIN_NEW[p] {
                let (a, b) = (k as u64 / r1, k as u64 % r1);
                fresh[n] = (b, turned_rank(a, nw), code == LOSS_NEW[p]);
                n += 1;
            }
        }
        let fresh = &fresh[..n];
        let black_kings = black & kings;
        let restricted = V::KING_RESTRICTION && black & !kings != 0;
        let mut decided = 0;
        predecessor_moves::<V>(&pos, |prev, from, to, king| {
            let Some((tp, pp)) = self.block_of(prev) else {
                return;
            };
            let pl = &self.layouts[tp];
            let base = self.offsets[tp] + pp * pl.states();
            let (rb, rw) = (pl.side_states(0), pl.side_states(1));
            // Places of `to` among Black's kings after the move, and of
            // `from` among them before it, on the turned board.
            let to_j = (black_kings & (to.mask() - 1)).count_ones() as u64;
            let before = prev.pieces(Color::Black) & prev.kings();
            let from_j = if king {
                u64::from(before.count_ones() - 1 - (before & (from.mask() - 1)).count_ones())
            } else {
                0
            };
            for &(b, white_rank, lost) in fresh {
                let mut tell = |r: u64| {
                    if self.tell(base + r * rw + white_rank, lost, 1 - p) {
                        self.mark(1 - p, tp, pp);
                        decided += 1;
                    }
                };
                if !restricted || !king {
                    // A man move clears the state; no state without men.
                    if b == 0 {
                        let any = if restricted { rb } else { 1 };
                        (0..any).for_each(&mut tell);
                    }
                } else if b > 0 && (b - 1) / 3 == to_j {
                    match (b - 1) % 3 {
                        0 => (0..rb)
                            .filter(|&r| r == 0 || (r - 1) / 3 != from_j)
                            .for_each(&mut tell),
                        c => tell(1 + 3 * from_j + c - 1),
                    }
                }
            }
        });
        for c in cells {
            let code = c.load(Ordering::Relaxed);
            if code == LOSS_NEW[p] {
                c.store(LOSS, Ordering::Relaxed);
            } else if code == WIN_NEW[p] {
                c.store(WIN, Ordering::Relaxed);
            }
        }
        decided
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

/// The rank of §6 state `a` of a side with `kings` kings on the board
/// turned by 180° (the order of the kings reversed; the count is kept).
#[inline]
fn turned_rank(a: u64, kings: u64) -> u64 {
    if a == 0 {
        0
    } else {
        1 + 3 * (kings - 1 - (a - 1) / 3) + (a - 1) % 3
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
        marks: [0, 1].map(|_| {
            layouts
                .iter()
                .map(|l| {
                    (0..(l.len() / l.states()).div_ceil(64))
                        .map(|_| AtomicU64::new(0))
                        .collect()
                })
                .collect()
        }),
    };
    // Work is counted in placements, over the layouts one after the other.
    let mut starts = Vec::new();
    let mut placements = 0u64;
    for l in layouts {
        starts.push(placements);
        placements += l.len() / l.states();
    }
    type Pass<'p> = dyn Fn(usize, u64, u64, &mut MoveList, &Tally) + Sync + 'p;
    let run = |pass: &Pass| -> Tally {
        let tally = Tally::default();
        let next = AtomicU64::new(0);
        let work = || {
            let mut list = MoveList::new();
            loop {
                let lo = next.fetch_add(CHUNK, Ordering::Relaxed);
                if lo >= placements {
                    break;
                }
                let hi = (lo + CHUNK).min(placements);
                // A chunk may straddle the two layouts.
                for (t, &start) in starts.iter().enumerate() {
                    let end = starts.get(t + 1).copied().unwrap_or(placements);
                    let (a, b) = (lo.max(start), hi.min(end));
                    if a < b {
                        pass(t, a - start, b - start, &mut list, &tally);
                    }
                }
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
    let first = run(&|t, lo, hi, list, tally| pair.forward::<V>(t, lo, hi, list, tally));
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
        let t = run(&|t, lo, hi, _, tally| pair.wave::<V>(p, t, lo, hi, tally));
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
