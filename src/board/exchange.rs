//! Exchange offers: the quiet man moves after which the opponent can take
//! the moved man and one of our men can take the taker back. Quiescence
//! searches them (`search/qsearch.rs`, docs/search.md "Quiescence") so that
//! a leaf's score accounts for the one-for-one exchanges that draughts
//! play is made of.

use super::bitboard::{BOARD, Bitboard, Dir, shift, squares};
use super::moves::{Move, MoveList};
use super::position::{Color, Position};
use super::square::Square;
use crate::variant::Variant;

/// The directions a man of `V` captures in.
#[inline(always)]
fn capture_dirs<V: Variant>() -> &'static [Dir] {
    if V::ORTHOGONAL_CAPTURES {
        &Dir::ALL
    } else {
        &Dir::DIAGONAL
    }
}

/// Appends to `list` the exchange offers of the side to move: each quiet
/// man move after which an opponent man can jump the moved man, and one of
/// our men can then jump that man where it lands. Only men are looked at
/// (kings neither offer nor take); the test looks one jump deep each way,
/// so the offer is a candidate for the search, not a proven exchange.
pub fn exchange_offers<V: Variant>(pos: &Position, list: &mut MoveList) {
    let own = pos.own() & !pos.kings();
    let opp = pos.opponent() & !pos.kings();
    let empty = BOARD & !pos.occupied();
    // A man can only be taken next to an opponent man.
    let mut near = 0;
    for &d in capture_dirs::<V>() {
        near |= shift(opp, d);
    }
    let forward = match pos.side() {
        Color::White => [Dir::NW, Dir::NE],
        Color::Black => [Dir::SW, Dir::SE],
    };
    for d in forward {
        for to in squares(shift(own, d) & empty & near) {
            let to_bb = to.mask();
            let from_bb = shift(to_bb, d.reverse());
            if offers_exchange::<V>(from_bb, to_bb, own, opp, empty) {
                let from = Square::from_bit_unchecked(from_bb.trailing_zeros());
                list.push(Move::quiet(from, to));
            }
        }
    }
}

/// True if moving our man from `from` to `to` lets an opponent man jump it
/// and one of ours jump the taker back (one square each, single jumps).
#[inline]
fn offers_exchange<V: Variant>(
    from: Bitboard,
    to: Bitboard,
    own: Bitboard,
    opp: Bitboard,
    empty: Bitboard,
) -> bool {
    let own = own ^ from ^ to;
    let empty = empty ^ from ^ to;
    for &d in capture_dirs::<V>() {
        let taker = shift(to, d.reverse()) & opp;
        let land = shift(to, d) & empty;
        if taker == 0 || land == 0 {
            continue;
        }
        let own_after = own ^ to;
        let empty_after = empty ^ taker ^ to ^ land;
        for &e in capture_dirs::<V>() {
            if shift(land, e.reverse()) & own_after != 0 && shift(land, e) & empty_after != 0 {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen;
    use crate::variant::{Frisian, International};

    /// The reference: every quiet man move, played, after which some
    /// opponent capture takes the moved man and some reply captures the
    /// piece that took it (full move generation, any capture length).
    fn reference<V: Variant>(pos: &Position) -> Vec<Move> {
        let mut out = Vec::new();
        if pos.kings() != 0 || movegen::has_capture::<V>(pos) {
            return out;
        }
        for mv in movegen::legal_moves::<V>(pos).as_slice() {
            let child = pos.play::<V>(mv);
            let takes = movegen::legal_moves::<V>(&child);
            let exchange = takes.as_slice().iter().any(|t| {
                t.is_capture() && t.captured() & mv.to().mask() != 0 && {
                    let after = child.play::<V>(t);
                    movegen::legal_moves::<V>(&after)
                        .as_slice()
                        .iter()
                        .any(|r| r.captured() & t.to().mask() != 0)
                }
            });
            if exchange {
                out.push(*mv);
            }
        }
        out
    }

    /// The bit test's definition, square by square on rows and columns:
    /// quiet man moves after which an opponent man next to the landing
    /// square jumps it onto an empty square, and one of our men next to
    /// that square jumps it in turn onto an empty square.
    fn geometric<V: Variant>(pos: &Position) -> Vec<Move> {
        let mut steps = vec![(-1, -1), (-1, 1), (1, -1), (1, 1)];
        if V::ORTHOGONAL_CAPTURES {
            steps.extend([(0, -2), (0, 2), (-2, 0), (2, 0)]);
        }
        let me = pos.side();
        let mut out = Vec::new();
        for mv in movegen::legal_moves::<V>(pos).as_slice() {
            let mut board: std::collections::HashMap<(i32, i32), Option<Color>> = Square::all()
                .map(|s| {
                    (
                        (s.row() as i32, s.column() as i32),
                        pos.piece_at(s).map(|p| p.0),
                    )
                })
                .collect();
            let at = |s: Square| (s.row() as i32, s.column() as i32);
            board.insert(at(mv.from()), None);
            board.insert(at(mv.to()), Some(me));
            let (tr, tc) = at(mv.to());
            let mut offer = false;
            for &(dr, dc) in &steps {
                let taker = (tr - dr, tc - dc);
                let land = (tr + dr, tc + dc);
                if board.get(&taker) != Some(&Some(me.other())) || board.get(&land) != Some(&None) {
                    continue;
                }
                let mut after = board.clone();
                after.insert(taker, None);
                after.insert((tr, tc), None);
                after.insert(land, Some(me.other()));
                for &(er, ec) in &steps {
                    let jumper = (land.0 - er, land.1 - ec);
                    let beyond = (land.0 + er, land.1 + ec);
                    if after.get(&jumper) == Some(&Some(me)) && after.get(&beyond) == Some(&None) {
                        offer = true;
                    }
                }
            }
            if offer {
                out.push(*mv);
            }
        }
        out
    }

    fn offers<V: Variant>(pos: &Position) -> Vec<Move> {
        let mut list = MoveList::new();
        exchange_offers::<V>(pos, &mut list);
        list.as_slice().to_vec()
    }

    /// Single-jump exchanges found by the bit test are real exchanges by
    /// full move generation, and every real exchange whose jumps are single
    /// ones is found; checked over random men-only games.
    fn agrees_with_reference<V: Variant>(seed: u64) {
        let mut rng = seed;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut found = 0;
        for _game in 0..60 {
            let mut pos = Position::start();
            for _ply in 0..70 {
                let moves = movegen::legal_moves::<V>(&pos);
                if moves.is_empty() || pos.kings() != 0 {
                    break;
                }
                if !movegen::has_capture::<V>(&pos) {
                    let bits = offers::<V>(&pos);
                    let full = reference::<V>(&pos);
                    // Every offer is quiet and legal.
                    for mv in &bits {
                        assert!(moves.as_slice().contains(mv), "{mv} not legal");
                    }
                    // Exactly the offers of the square-by-square definition.
                    let mut sorted = bits.clone();
                    let mut slow = geometric::<V>(&pos);
                    sorted.sort_by_key(|m| (m.from().bit(), m.to().bit()));
                    slow.sort_by_key(|m| (m.from().bit(), m.to().bit()));
                    assert_eq!(sorted, slow);
                    // Every single-jump exchange of the reference is found.
                    for mv in &full {
                        if single_jump_exchange::<V>(&pos, mv) {
                            assert!(bits.contains(mv), "missed {mv}");
                        }
                    }
                    found += bits.len();
                }
                let i = (next() % moves.len() as u64) as usize;
                pos = pos.play::<V>(&moves.as_slice()[i]);
            }
        }
        assert!(found > 100, "too few offers seen: {found}");
    }

    /// True if `mv` is answered by a single jump over the moved man, which
    /// a single jump takes back.
    fn single_jump_exchange<V: Variant>(pos: &Position, mv: &Move) -> bool {
        let child = pos.play::<V>(mv);
        movegen::legal_moves::<V>(&child)
            .as_slice()
            .iter()
            .any(|t| {
                t.captured() == mv.to().mask() && {
                    let after = child.play::<V>(t);
                    movegen::legal_moves::<V>(&after)
                        .as_slice()
                        .iter()
                        .any(|r| r.captured() == t.to().mask())
                }
            })
    }

    #[test]
    fn international_offers_match_the_reference() {
        agrees_with_reference::<International>(0x9e37_79b9_7f4a_7c15);
    }

    #[test]
    fn frisian_offers_match_the_reference() {
        agrees_with_reference::<Frisian>(0x2545_f491_4f6c_dd1d);
    }

    #[test]
    fn a_known_exchange_is_offered() {
        // White 32, 37 and 38; Black 23 and 26. 32-28 offers 23x32, retaken
        // by 37x28 or 38x27; 32-27 is no offer (nothing can take on 27).
        let pos = crate::board::fen::parse_fen("W:W32,37,38:B23,26").unwrap();
        let list = offers::<International>(&pos);
        let hub: Vec<String> = list.as_slice().iter().map(|m| m.to_string()).collect();
        assert!(hub.contains(&"32-28".to_string()), "{hub:?}");
        assert!(!hub.contains(&"32-27".to_string()), "{hub:?}");
    }
}
