//! Un-playing moves for the retrograde solver (docs/egdb.md, "Build"):
//! the positions from which Black's quiet, non-promoting move leads to a
//! placement, and (for the test) Black's §6 states before such a move.

#[cfg(test)]
use crate::board::Restriction;
use crate::board::bitboard::{Dir, free_ray, step};
use crate::board::{Color, Position, Square, movegen, squares};
use crate::variant::Variant;

/// Calls `f(prev, from, to, king)` with every position `prev` (Black to
/// move, no §6 state) from which Black's quiet, non-promoting move
/// `from`-`to` (of a king if `king`) reaches the placement of `pos` (White
/// to move): a black piece is un-played, and `prev` must have no capture
/// (§5.1; captures do not depend on the §6 states).
pub(super) fn predecessor_moves<V: Variant>(
    pos: &Position,
    mut f: impl FnMut(&Position, Square, Square, bool),
) {
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
        let prev = Position::new(white, moved, k, Color::Black);
        // Compulsory capture (§5.1): no quiet move from a position with one.
        if !movegen::has_capture::<V>(&prev) {
            f(&prev, from, to, king);
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

/// Calls `f` with Black's §6 states before its quiet move `from`-`to` (a
/// king move if `king`) that lead to the state `after`, Black having men
/// and the kings `kings` before the move (docs/rules.md §6, as
/// `Position::play` applies it): a king move starts or extends the count
/// of that king (a king at three may not move), a man move clears the
/// state whatever it was.
#[cfg(test)]
fn black_states(
    after: Restriction,
    from: Square,
    to: Square,
    king: bool,
    kings: crate::board::Bitboard,
    f: &mut impl FnMut(Restriction),
) {
    let mut any_of = |skip: crate::board::Bitboard| {
        f(Restriction::NONE);
        for kk in squares(kings & !skip) {
            for c in 1..=3 {
                if let Some(r) = Restriction::new(kk, c) {
                    f(r);
                }
            }
        }
    };
    if !king {
        if after == Restriction::NONE {
            any_of(0);
        }
        return;
    }
    if after.king() != Some(to) {
        return;
    }
    match after.count() {
        1 => any_of(from.mask()),
        c @ (2 | 3) => {
            if let Some(r) = Restriction::new(from, c - 1) {
                f(r);
            }
        }
        _ => {}
    }
}

/// Every predecessor of `pos` with its §6 states (for the test below).
#[cfg(test)]
fn predecessors<V: Variant>(pos: &Position, mut f: impl FnMut(&Position)) {
    let black = pos.pieces(Color::Black);
    predecessor_moves::<V>(pos, |prev, from, to, king| {
        let base = prev.with_restriction(Color::White, pos.restriction(Color::White));
        let after = pos.restriction(Color::Black);
        if !V::KING_RESTRICTION || black & !pos.kings() == 0 {
            if after == Restriction::NONE {
                f(&base);
            }
            return;
        }
        let kings = prev.pieces(Color::Black) & prev.kings();
        black_states(after, from, to, king, kings, &mut |r| {
            f(&base.with_restriction(Color::Black, r))
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::MoveList;
    use crate::egdb::index::{Layout, Material, normalise};
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
