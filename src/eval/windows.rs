//! The 12-square windows of feature sets 2 and 3: the board read through
//! windows of 6 rows × 4 columns, each as 12 balanced ternary digits (+1
//! White, −1 Black, 0 empty) indexing a table of 3^12 weights.
//!
//! A window (r, j) covers rows r..r + 5 and squares j, j + 1 of each row
//! (counted from the left), j in 0..4; digit d (weight 3^d) is the square
//! j + d % 2 of row r + d / 2. A *band* is four such windows side by side
//! and four tables. Each side reads a band as seen from its own side:
//! White reads window (r, j) into table j; Black reads the window turned
//! 180° with colours swapped, (4 − r, 3 − j), into the same table j
//! with value −1. So a position and its colour-flipped twin score exactly
//! opposite.
//!
//! * Set 2's band, [`AHEAD`]: rows 0..5 as seen from each side, the half
//!   of the board ahead of it (White reads rows 0–5, Black rows 4–9), so
//!   its eight windows cover the board once, rows 4–5 twice.
//! * Set 3 adds [`CENTRE`]: rows 2..7, the middle six rows, which both
//!   sides read; it sees the front lines whole where set 2's band cuts
//!   them between rows 3 and 4 or 5 and 6.
//!
//! The indices come from the two-row field lanes that the 8-square
//! regions already computed (`features`): a window is a region (two
//! fields) plus the next field.

use super::features::{BIASED_ZERO, COUNT, FIELD_ZERO, lane};

/// Tables of a band.
pub const TABLES: usize = 4;
/// Weights per table: 3^12.
pub const TABLE: usize = 531_441;
/// Offset of index 0 in a table.
const MIDDLE: i32 = 265_720;
/// First table of set 2's band (rows 0–5 ahead of each side).
pub const AHEAD: usize = COUNT;
/// First table of set 3's band (rows 2–7).
pub const CENTRE: usize = AHEAD + TABLES * TABLE;
/// One past the last feature of set 2.
pub const END: usize = CENTRE;
/// One past the last feature of set 3.
pub const END_CENTRE: usize = CENTRE + TABLES * TABLE;

/// White's windows of the band whose first table is `BASE`: `near` holds
/// the lanes of the band's first region row (its first two fields,
/// `lo + 81 · hi`), `third` the lanes of its third field, both biased.
#[inline(always)]
pub(super) fn white<const BASE: usize>(near: u64, third: u64, f: &mut impl FnMut(usize, i32)) {
    for j in 0..TABLES {
        let idx = lane(near, j) - BIASED_ZERO + 6561 * (lane(third, j) - FIELD_ZERO);
        f(BASE + TABLE * j + (MIDDLE + idx) as usize, 1);
    }
}

/// Black's windows of the band whose first table is `BASE`, turned:
/// table j from lane 3 − j. `near` holds the reversed lanes of the two
/// fields nearest Black's side (`81 · lo + hi`), `third` the reversed
/// lanes of the next; turning the board reverses the digit order and
/// swapping the colours negates the index.
#[inline(always)]
pub(super) fn black<const BASE: usize>(near: u64, third: u64, f: &mut impl FnMut(usize, i32)) {
    for j in 0..TABLES {
        let g = TABLES - 1 - j;
        let idx = lane(near, g) - BIASED_ZERO + 6561 * (lane(third, g) - FIELD_ZERO);
        f(BASE + TABLE * j + (MIDDLE - idx) as usize, -1);
    }
}

#[cfg(test)]
pub(crate) mod reference {
    //! A slow, square-by-square statement of the windows, for tests.
    use super::*;
    use crate::board::{Color, Position, Square};

    /// The features of the band at `base` whose White windows start at
    /// row `first`, as (index, value) pairs, unsorted.
    pub fn band(pos: &Position, base: usize, first: usize) -> Vec<(usize, i32)> {
        let mut out = Vec::new();
        for j in 0..TABLES {
            for (turned, sign) in [(false, 1), (true, -1)] {
                let mut idx = 0i32;
                for d in (0..12).rev() {
                    let (row, p) = (first + d / 2, j + d % 2);
                    let n = 5 * row + p + 1;
                    let n = if turned { 51 - n } else { n };
                    let digit = match pos.piece_at(Square::from_number(n as u32).unwrap()) {
                        Some((Color::White, _)) => 1,
                        Some((Color::Black, _)) => -1,
                        None => 0,
                    };
                    idx = 3 * idx + if turned { -digit } else { digit };
                }
                out.push((base + TABLE * j + (MIDDLE + idx) as usize, sign));
            }
        }
        out
    }

    /// Set 2's windows.
    pub fn features(pos: &Position) -> Vec<(usize, i32)> {
        band(pos, AHEAD, 0)
    }

    /// Set 3's windows: set 2's and the centre band.
    pub fn features_centre(pos: &Position) -> Vec<(usize, i32)> {
        let mut v = features(pos);
        v.extend(band(pos, CENTRE, 2));
        v
    }
}
