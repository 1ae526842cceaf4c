//! Legal move generation (docs/rules.md §3–§6), generic over the variant.
//!
//! Quiet men moves and the "who can capture" tests are bit-parallel shifts;
//! capture sequences are followed by a depth-first search per capturing
//! piece that keeps only the best sequences by the variant's precedence
//! (§5.6) and merges duplicates (§5.5) as they are found.

use super::bitboard::{BOARD, Bitboard, Dir, free_ray, nearest, ray, shift, squares};
use super::moves::{Move, MoveList};
use super::position::{Color, Position};
use super::square::Square;
use crate::variant::Variant;

/// Runs `$body` once per direction with `$d` bound to a constant direction,
/// so that the compiler folds every step into a shift: the four diagonals,
/// then the four orthogonals if `$orthogonal` (a constant) holds.
macro_rules! for_dirs {
    ($orthogonal:expr, |$d:ident| $body:block) => {{
        {
            let $d = Dir::NW;
            $body
        }
        {
            let $d = Dir::NE;
            $body
        }
        {
            let $d = Dir::SW;
            $body
        }
        {
            let $d = Dir::SE;
            $body
        }
        if $orthogonal {
            {
                let $d = Dir::W;
                $body
            }
            {
                let $d = Dir::E;
                $body
            }
            {
                let $d = Dir::N;
                $body
            }
            {
                let $d = Dir::S;
                $body
            }
        }
    }};
}

/// [`for_dirs`] over the directions a piece of `$V` captures in: 4
/// diagonals, plus 4 orthogonals in Frisian.
macro_rules! for_capture_dirs {
    ($V:ty, |$d:ident| $body:block) => {
        for_dirs!(<$V>::ORTHOGONAL_CAPTURES, |$d| $body)
    };
}

/// [`for_dirs`] over the directions a king of `$V` makes quiet moves in.
macro_rules! for_king_move_dirs {
    ($V:ty, |$d:ident| $body:block) => {
        for_dirs!(<$V>::ORTHOGONAL_KING_MOVES, |$d| $body)
    };
}

/// The squares `men` of `side` can step to: forward left and forward right.
#[inline(always)]
fn men_targets(side: Color, men: Bitboard, empty: Bitboard) -> [Bitboard; 2] {
    match side {
        Color::White => [shift(men, Dir::NW) & empty, shift(men, Dir::NE) & empty],
        Color::Black => [shift(men, Dir::SW) & empty, shift(men, Dir::SE) & empty],
    }
}

/// All legal moves of the side to move, written into `list` (cleared first).
pub fn generate<V: Variant>(pos: &Position, list: &mut MoveList) {
    list.clear();
    let scan = scan_jumps::<V>(pos);
    if scan.jumpers != 0 || kings_can_capture::<V>(pos, pos.own() & pos.kings(), pos.opponent()) {
        generate_captures::<V>(pos, &scan, list);
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
    count_with::<V>(pos, &mut MoveList::new())
}

/// [`count`] with a caller-provided scratch list (used only when a capture
/// must be generated), so hot loops need no fresh list.
pub fn count_with<V: Variant>(pos: &Position, scratch: &mut MoveList) -> usize {
    let scan = scan_jumps::<V>(pos);
    if scan.jumpers != 0 || kings_can_capture::<V>(pos, pos.own() & pos.kings(), pos.opponent()) {
        if scan.continuing == 0 && pos.own() & pos.kings() == 0 {
            let mut n = 0;
            for_capture_dirs!(V, |d| {
                n += scan.best_landings(d).count_ones();
            });
            return n as usize;
        }
        scratch.clear();
        generate_captures::<V>(pos, &scan, scratch);
        return scratch.len();
    }
    let side = pos.side();
    let empty = BOARD & !pos.occupied();
    let men = pos.own() & !pos.kings();
    let [a, b] = men_targets(side, men, empty);
    let mut n = a.count_ones() + b.count_ones();
    let kings = pos.own() & pos.kings() & !pos.restriction(side).blocked_king();
    let occ = pos.occupied();
    for k in squares(kings) {
        for_king_move_dirs!(V, |d| {
            n += free_ray(d, k, occ).count_ones();
        });
    }
    n as usize
}

/// True if the side to move has any legal move (no list is built): the
/// loss test of docs/rules.md §7 at the cost of a few shifts in most positions.
pub fn has_move<V: Variant>(pos: &Position) -> bool {
    let side = pos.side();
    let empty = BOARD & !pos.occupied();
    let men = pos.own() & !pos.kings();
    let [a, b] = men_targets(side, men, empty);
    if a | b != 0 {
        return true;
    }
    let occ = pos.occupied();
    let kings = pos.own() & pos.kings() & !pos.restriction(side).blocked_king();
    for k in squares(kings) {
        for_king_move_dirs!(V, |d| {
            if free_ray(d, k, occ) != 0 {
                return true;
            }
        });
    }
    has_capture::<V>(pos)
}

/// The squares from which a man of `V` could jump a piece of `prey` onto
/// `empty`, in any of its capture directions.
#[inline(always)]
fn capture_sources<V: Variant>(prey: Bitboard, empty: Bitboard) -> Bitboard {
    let mut sources = 0;
    for_capture_dirs!(V, |d| {
        sources |= jump_sources(d, prey, empty);
    });
    sources
}

/// The landing squares of the jumps of a man on the square `m` over a piece
/// of `prey` onto `empty` (one per direction at most), without a branch.
#[inline(always)]
fn man_landings<V: Variant>(m: Bitboard, prey: Bitboard, empty: Bitboard) -> Bitboard {
    let mut lands = 0;
    for_capture_dirs!(V, |d| {
        lands |= shift(shift(m, d) & prey, d) & empty;
    });
    lands
}

/// True if the side to move has a capture (and so must capture, §5.1).
pub fn has_capture<V: Variant>(pos: &Position) -> bool {
    can_capture::<V>(pos, pos.own(), pos.opponent())
}

/// True if the side not to move could capture were it its turn: a capture
/// threat (the Frisian restriction only limits quiet moves, so it plays no
/// part).
pub fn opponent_has_capture<V: Variant>(pos: &Position) -> bool {
    can_capture::<V>(pos, pos.opponent(), pos.own())
}

/// True if the pieces `me` can capture a piece of `them`.
#[inline]
fn can_capture<V: Variant>(pos: &Position, me: Bitboard, them: Bitboard) -> bool {
    let empty = BOARD & !pos.occupied();
    me & !pos.kings() & capture_sources::<V>(them, empty) != 0
        || kings_can_capture::<V>(pos, me & pos.kings(), them)
}

/// True if one of `kings` can capture a piece of `them`.
#[inline(always)]
fn kings_can_capture<V: Variant>(pos: &Position, kings: Bitboard, them: Bitboard) -> bool {
    let occ = pos.occupied();
    let empty = BOARD & !occ;
    for k in squares(kings) {
        // The nearest piece along each direction, if it is theirs, with an
        // empty square behind it: no branch per direction.
        let mut hit = 0;
        for_capture_dirs!(V, |d| {
            hit |= shift(nearest(d, ray(d, k) & occ) & them, d) & empty;
        });
        if hit != 0 {
            return true;
        }
    }
    false
}

/// The quiet moves of `men` one step along `d` onto `empty`.
#[inline(always)]
fn push_men_steps(list: &mut MoveList, men: Bitboard, empty: Bitboard, d: Dir) {
    list.extend(squares(shift(men, d) & empty).map(|to| {
        let from = Square::from_bit_unchecked((to.bit() as i32 - d.offset()) as u32);
        Move::quiet(from, to)
    }));
}

/// Quiet moves (no capture exists).
fn generate_quiet<V: Variant>(pos: &Position, list: &mut MoveList) {
    let side = pos.side();
    let occ = pos.occupied();
    let empty = BOARD & !occ;
    let men = pos.own() & !pos.kings();
    // One branch on the side, then constant directions in each arm.
    match side {
        Color::White => {
            push_men_steps(list, men, empty, Dir::NW);
            push_men_steps(list, men, empty, Dir::NE);
        }
        Color::Black => {
            push_men_steps(list, men, empty, Dir::SW);
            push_men_steps(list, men, empty, Dir::SE);
        }
    }
    // §6: the tracked king may not make a fourth quiet move in a row.
    let kings = pos.own() & pos.kings() & !pos.restriction(side).blocked_king();
    for k in squares(kings) {
        for_king_move_dirs!(V, |d| {
            list.extend(squares(free_ray(d, k, occ)).map(|to| Move::quiet(k, to)));
        });
    }
}

/// State of the capture search of one side.
struct Captures<'a> {
    /// Opponent pieces (captured ones stay here: they block, §5.3).
    opp: Bitboard,
    /// Opponent kings, for the Frisian value.
    opp_kings: Bitboard,
    /// Every occupied square.
    all: Bitboard,
    /// Occupied squares without the capturing piece's start square (§5.2.1).
    occ: Bitboard,
    /// The complement of `occ` on the board.
    empty: Bitboard,
    from: Square,
    by_king: bool,
    best: u32,
    list: &'a mut MoveList,
}

impl Captures<'_> {
    /// Prepares the search of the piece on `from`, which lifts off (§5.2.1).
    #[inline(always)]
    fn start(&mut self, from: Square) {
        self.from = from;
        self.occ = self.all & !from.mask();
        self.empty = BOARD & !self.occ;
    }

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
        } else if captured.count_ones() >= 3 && self.list.contains(&mv) {
            // With one or two pieces captured two routes cannot share their
            // end square (docs/rules.md §5.5), so only longer captures are checked.
            return;
        }
        self.list.push(mv);
    }

    /// Man on `sq` having captured `captured`, with `lands` (not empty) the
    /// landing squares of its next jumps.
    fn man<V: Variant>(&mut self, sq: Square, captured: Bitboard, lands: Bitboard) {
        debug_assert!(lands != 0);
        if lands & (lands - 1) == 0 {
            // One way on, the usual case: no direction order to keep.
            self.jump::<V>(sq, captured, lands);
            return;
        }
        // Several ways on: in direction order, which the move order follows.
        let m = sq.mask();
        for_capture_dirs!(V, |d| {
            let land = lands & shift(shift(m, d), d);
            if land != 0 {
                self.jump::<V>(sq, captured, land);
            }
        });
    }

    /// The man on `sq` jumps onto the square `land`. The landing squares of
    /// the jump after it are found here, before any call, so that a
    /// sequence that ends (most do) is recorded without one.
    #[inline(always)]
    fn jump<V: Variant>(&mut self, sq: Square, captured: Bitboard, land: Bitboard) {
        let to = land.trailing_zeros();
        // A jump is two steps along one direction: the jumped square is the
        // midpoint in the bit layout too.
        let captured = captured | 1 << ((sq.bit() + to) / 2);
        let to = Square::from_bit_unchecked(to);
        // Captured pieces are no prey: that also rules out jumping back.
        let next = man_landings::<V>(land, self.opp & !captured, self.empty);
        if next == 0 {
            self.record::<V>(to, captured);
        } else {
            self.man::<V>(to, captured, next);
        }
    }

    /// King on `sq` having captured `captured`; `banned` is a piece it may
    /// not capture from here (see [`Self::king_lands`]).
    fn king<V: Variant>(&mut self, sq: Square, captured: Bitboard, banned: Bitboard) {
        // Captured pieces are no prey: that also keeps the king from going
        // back the way it came.
        let prey = self.opp & !captured & !banned;
        let mut found = false;
        // Unrolled over constant directions, like the men's search, with one
        // branch per direction.
        for_capture_dirs!(V, |d| {
            let x = nearest(d, ray(d, sq) & self.occ);
            if x & prey != 0 {
                let x = Square::from_bit_unchecked(x.trailing_zeros());
                let lands = free_ray(d, x, self.occ);
                if lands != 0 {
                    found = true;
                    self.king_lands::<V>(d, x, captured | x.mask(), lands);
                }
            }
        });
        if !found {
            self.record::<V>(sq, captured);
        }
    }

    /// The king has jumped `x` along `d` and may stop on any of `lands`.
    /// From a landing square past the first, going on straight would only
    /// repeat the first square's sequences (docs/rules.md §5.5 convention):
    /// there the piece ahead, which no other direction reaches, is banned.
    #[inline(always)]
    fn king_lands<V: Variant>(&mut self, d: Dir, x: Square, captured: Bitboard, lands: Bitboard) {
        let first = nearest(d, lands);
        let ahead = nearest(d, ray(d, x) & self.occ);
        for l in squares(lands) {
            let banned = if l.mask() == first { 0 } else { ahead };
            self.king::<V>(l, captured, banned);
        }
    }
}

/// The jumps by men, found for all men at once (bit-parallel).
#[derive(Clone, Copy)]
struct JumpScan {
    /// Per direction, the landing squares of the men's jumps that way;
    /// once the scan is done, of the best single jumps only.
    landings: [Bitboard; 8],
    /// The men that can capture: empty when no man can.
    jumpers: Bitboard,
    /// Men with a jump that can be continued. A continued sequence
    /// captures at least two pieces and so beats every single jump in both
    /// variants (§5.6): when this is not empty, only these men and the kings
    /// need the full search.
    continuing: Bitboard,
}

impl JumpScan {
    /// The landing squares of the best single jumps along `d`: those over a
    /// king only, when a king is worth more (Frisian) and one can be taken.
    #[inline(always)]
    fn best_landings(&self, d: Dir) -> Bitboard {
        self.landings[d.0 as usize]
    }
}

/// The squares from which a piece could jump a piece of `prey` along `d`
/// onto `empty`.
#[inline(always)]
fn jump_sources(d: Dir, prey: Bitboard, empty: Bitboard) -> Bitboard {
    let r = d.reverse();
    shift(prey & shift(empty, r), r)
}

#[inline(always)]
fn scan_jumps<V: Variant>(pos: &Position) -> JumpScan {
    let men = pos.own() & !pos.kings();
    let opp = pos.opponent();
    let empty = BOARD & !pos.occupied();
    // Most positions have no man capture: one union over the directions
    // says so before any per-direction work.
    let sources = capture_sources::<V>(opp, empty);
    let mut scan = JumpScan {
        landings: [0; 8],
        jumpers: men & sources,
        continuing: 0,
    };
    if scan.jumpers == 0 {
        return scan;
    }
    // A man that has landed can jump on if its landing square is a source.
    // The way back needs no exclusion: behind the jumped piece stands the
    // jumping man, so that square is never empty.
    for_capture_dirs!(V, |d| {
        // No branch on `land`: it is as often empty as not.
        let land = shift(shift(men, d) & opp, d) & empty;
        scan.landings[d.0 as usize] = land;
        let back = d.reverse();
        scan.continuing |= shift(shift(land & sources, back), back);
    });
    let king_first = V::capture_score(0, 1, false) > V::capture_score(1, 0, false);
    let opp_kings = opp & pos.kings();
    if king_first && opp_kings != 0 {
        // Single jumps over a king beat those over a man: keep only them,
        // if there are any.
        let mut over_kings = 0;
        for_capture_dirs!(V, |d| {
            over_kings |= scan.landings[d.0 as usize] & shift(opp_kings, d);
        });
        if over_kings != 0 {
            for_capture_dirs!(V, |d| {
                scan.landings[d.0 as usize] &= shift(opp_kings, d);
            });
        }
    }
    scan
}

/// All best capture moves (a capture exists).
fn generate_captures<V: Variant>(pos: &Position, scan: &JumpScan, list: &mut MoveList) {
    let kings = pos.own() & pos.kings();
    if kings == 0 && scan.continuing == 0 {
        // Every capture is a single jump by a man.
        for_capture_dirs!(V, |d| {
            let back = d.reverse();
            list.extend(squares(scan.best_landings(d)).map(|to| {
                let over = shift(to.mask(), back);
                let from = Square::from_bit_unchecked(shift(over, back).trailing_zeros());
                Move::capture(from, to, over)
            }));
        });
        return;
    }
    let own = pos.own();
    let opp = pos.opponent();
    let occ_all = pos.occupied();
    let empty = BOARD & !occ_all;
    let jumpers = if scan.continuing != 0 {
        scan.continuing
    } else {
        scan.jumpers
    };
    let mut c = Captures {
        opp,
        opp_kings: opp & pos.kings(),
        all: occ_all,
        occ: occ_all,
        empty,
        from: Square::from_bit_unchecked(0),
        by_king: false,
        best: 0,
        list,
    };
    for from in squares(jumpers) {
        c.start(from);
        let lands = man_landings::<V>(from.mask(), opp, c.empty);
        c.man::<V>(from, 0, lands);
    }
    c.by_king = true;
    for from in squares(own & pos.kings()) {
        c.start(from);
        c.king::<V>(from, 0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen::parse_fen;
    use crate::variant::{Frisian, International};

    #[test]
    fn opponent_capture_is_a_capture_with_sides_swapped() {
        for f in [
            "W:W31-50:B1-20",
            "W:W28,33:B19,23",
            "B:W28,33:B19,23",
            "W:W27,K45:B22,K1,12",
            "B:WK46,30:B24,K14",
            "W:W38:B28",
            "B:W38:B28",
        ] {
            let p = parse_fen(f).unwrap();
            let flipped = Position::new(
                p.pieces(Color::White),
                p.pieces(Color::Black),
                p.kings(),
                p.side().other(),
            );
            assert_eq!(
                opponent_has_capture::<International>(&p),
                has_capture::<International>(&flipped),
                "{f}"
            );
            assert_eq!(
                opponent_has_capture::<Frisian>(&p),
                has_capture::<Frisian>(&flipped),
                "{f}"
            );
        }
    }

    #[test]
    fn has_move_agrees_with_generation() {
        // Blocked men (I30-like), a lone blocked king, start, captures only.
        for fen in [
            "W:W31-50:B1-20",
            "W:W46:B41,37",
            "W:W6:B1",
            "B:W28,K5:B1,2,3",
            "W:W28:B23,19,14",
            "B:W:B13",
        ] {
            let p = parse_fen(fen).unwrap();
            assert_eq!(
                has_move::<International>(&p),
                !legal_moves::<International>(&p).is_empty(),
                "{fen}"
            );
            assert_eq!(
                has_move::<Frisian>(&p),
                !legal_moves::<Frisian>(&p).is_empty(),
                "{fen}"
            );
        }
    }
}
