//! Legal move generation (rules.md §3–§6), generic over the variant.
//!
//! Quiet men moves and the "who can capture" tests are bit-parallel shifts;
//! capture sequences are followed by a depth-first search per capturing
//! piece that keeps only the best sequences by the variant's precedence
//! (§5.6) and merges duplicates (§5.5) as they are found.

use super::bitboard::{BOARD, Bitboard, Dir, first_blocker, free_ray, squares, step};
use super::moves::{Move, MoveList};
use super::position::{Color, Position};
use super::square::Square;
use crate::variant::Variant;

/// Directions a piece captures in: 4 diagonals, plus 4 orthogonals in Frisian.
#[inline(always)]
fn capture_dirs<V: Variant>() -> &'static [Dir] {
    if V::ORTHOGONAL_CAPTURES {
        &Dir::ALL
    } else {
        &Dir::DIAGONAL
    }
}

/// Directions a king makes quiet moves in.
#[inline(always)]
fn king_move_dirs<V: Variant>() -> &'static [Dir] {
    if V::ORTHOGONAL_KING_MOVES {
        &Dir::ALL
    } else {
        &Dir::DIAGONAL
    }
}

/// The forward directions of a man of `side`.
#[inline(always)]
fn forward(side: Color) -> [Dir; 2] {
    match side {
        Color::White => [Dir::NW, Dir::NE],
        Color::Black => [Dir::SW, Dir::SE],
    }
}

/// All legal moves of the side to move, written into `list` (cleared first).
pub fn generate<V: Variant>(pos: &Position, list: &mut MoveList) {
    list.clear();
    if has_capture::<V>(pos) {
        generate_captures::<V>(pos, list);
    } else {
        generate_quiet::<V>(pos, list);
    }
}

/// The legal moves of the side to move as a new list.
pub fn legal_moves<V: Variant>(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate::<V>(pos, &mut list);
    list
}

/// The number of legal moves, without building the list when there is no
/// capture (bulk counting for perft).
pub fn count<V: Variant>(pos: &Position) -> usize {
    if has_capture::<V>(pos) {
        let mut list = MoveList::new();
        generate_captures::<V>(pos, &mut list);
        return list.len();
    }
    let side = pos.side();
    let empty = BOARD & !pos.occupied();
    let men = pos.own() & !pos.kings();
    let mut n = 0;
    for d in forward(side) {
        n += (step(men, d) & empty).count_ones();
    }
    let kings = pos.own() & pos.kings() & !pos.restriction(side).blocked_king();
    let occ = pos.occupied();
    for k in squares(kings) {
        for &d in king_move_dirs::<V>() {
            n += free_ray(d, k, occ).count_ones();
        }
    }
    n as usize
}

/// The men of `men` that can jump an `opp` piece in direction `d` onto `empty`.
#[inline(always)]
fn men_jumping(men: Bitboard, opp: Bitboard, empty: Bitboard, d: Dir) -> Bitboard {
    let r = d.reverse();
    men & step(opp & step(empty, r), r)
}

/// True if the side to move has a capture (and so must capture, §5.1).
pub fn has_capture<V: Variant>(pos: &Position) -> bool {
    let own = pos.own();
    let opp = pos.opponent();
    let empty = BOARD & !pos.occupied();
    let men = own & !pos.kings();
    for &d in capture_dirs::<V>() {
        if men_jumping(men, opp, empty, d) != 0 {
            return true;
        }
    }
    let occ = pos.occupied();
    for k in squares(own & pos.kings()) {
        for &d in capture_dirs::<V>() {
            if let Some(x) = first_blocker(d, k, occ)
                && x.mask() & opp != 0
                && step(x.mask(), d) & empty != 0
            {
                return true;
            }
        }
    }
    false
}

/// Quiet moves (no capture exists).
fn generate_quiet<V: Variant>(pos: &Position, list: &mut MoveList) {
    let side = pos.side();
    let occ = pos.occupied();
    let empty = BOARD & !occ;
    let men = pos.own() & !pos.kings();
    for d in forward(side) {
        let back = d.reverse();
        for to in squares(step(men, d) & empty) {
            let from = Square::from_bit_unchecked(step(to.mask(), back).trailing_zeros());
            list.push(Move::quiet(from, to));
        }
    }
    // §6: the tracked king may not make a fourth quiet move in a row.
    let kings = pos.own() & pos.kings() & !pos.restriction(side).blocked_king();
    for k in squares(kings) {
        for &d in king_move_dirs::<V>() {
            for to in squares(free_ray(d, k, occ)) {
                list.push(Move::quiet(k, to));
            }
        }
    }
}

/// State of the capture search of one side.
struct Captures<'a> {
    /// Opponent pieces (captured ones stay here: they block, §5.3).
    opp: Bitboard,
    /// Opponent kings, for the Frisian value.
    opp_kings: Bitboard,
    /// Occupied squares without the capturing piece's start square (§5.2.1).
    occ: Bitboard,
    from: Square,
    by_king: bool,
    best: u32,
    list: &'a mut MoveList,
}

impl Captures<'_> {
    /// A complete sequence ending on `to` with `captured`: keep it if it is
    /// among the best (§5.6), once (§5.5).
    #[inline]
    fn record<V: Variant>(&mut self, to: Square, captured: Bitboard) {
        if captured == 0 {
            return; // a king at the root without a capture
        }
        let kings = (captured & self.opp_kings).count_ones();
        let men = captured.count_ones() - kings;
        let score = V::capture_score(men, kings, self.by_king);
        if score < self.best {
            return;
        }
        let mv = Move::capture(self.from, to, captured);
        if score > self.best {
            self.best = score;
            self.list.clear();
        } else if captured.count_ones() >= 2 && self.list.contains(&mv) {
            return;
        }
        self.list.push(mv);
    }

    /// Man on `sq` having captured `captured` so far.
    fn man<V: Variant>(&mut self, sq: Square, captured: Bitboard) {
        let empty = BOARD & !self.occ;
        let prey = self.opp & !captured;
        let mut found = false;
        for &d in capture_dirs::<V>() {
            let over = step(sq.mask(), d);
            if over & prey == 0 {
                continue;
            }
            let land = step(over, d);
            if land & empty == 0 {
                continue;
            }
            found = true;
            self.man::<V>(
                Square::from_bit_unchecked(land.trailing_zeros()),
                captured | over,
            );
        }
        if !found {
            self.record::<V>(sq, captured);
        }
    }

    /// King on `sq` having captured `captured`, arrived along `arrival`;
    /// `straight` is false on landing squares past the first, where going on
    /// in the arrival direction would only repeat the first square's
    /// sequences (rules.md §5.5 convention).
    fn king<V: Variant>(
        &mut self,
        sq: Square,
        captured: Bitboard,
        arrival: Option<Dir>,
        straight: bool,
    ) {
        let prey = self.opp & !captured;
        let mut found = false;
        for &d in capture_dirs::<V>() {
            if let Some(a) = arrival
                && (d == a.reverse() || (d == a && !straight))
            {
                continue;
            }
            let Some(x) = first_blocker(d, sq, self.occ) else {
                continue;
            };
            if x.mask() & prey == 0 {
                continue;
            }
            let lands = free_ray(d, x, self.occ);
            if lands == 0 {
                continue;
            }
            found = true;
            let first = if d.increasing() {
                lands.trailing_zeros()
            } else {
                63 - lands.leading_zeros()
            };
            for l in squares(lands) {
                self.king::<V>(l, captured | x.mask(), Some(d), l.bit() == first);
            }
        }
        if !found {
            self.record::<V>(sq, captured);
        }
    }
}

/// All best capture moves (a capture exists).
fn generate_captures<V: Variant>(pos: &Position, list: &mut MoveList) {
    let own = pos.own();
    let opp = pos.opponent();
    let occ_all = pos.occupied();
    let empty = BOARD & !occ_all;
    let men = own & !pos.kings();
    let mut jumpers = 0;
    for &d in capture_dirs::<V>() {
        jumpers |= men_jumping(men, opp, empty, d);
    }
    let mut best = 0;
    for from in squares(jumpers) {
        let mut c = Captures {
            opp,
            opp_kings: opp & pos.kings(),
            occ: occ_all & !from.mask(),
            from,
            by_king: false,
            best,
            list,
        };
        c.man::<V>(from, 0);
        best = c.best;
    }
    for from in squares(own & pos.kings()) {
        let mut c = Captures {
            opp,
            opp_kings: opp & pos.kings(),
            occ: occ_all & !from.mask(),
            from,
            by_king: true,
            best,
            list,
        };
        c.king::<V>(from, 0, None, true);
        best = c.best;
    }
}
