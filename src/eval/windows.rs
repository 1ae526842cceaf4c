//! Feature set 2's windows: the board read through eight overlapping
//! windows of 6 rows × 4 columns (12 squares), each as 12 balanced ternary
//! digits (+1 White, −1 Black, 0 empty) indexing a table of 3^12 weights.
//!
//! Window (b, j) covers rows 4b..4b + 5 and squares j, j + 1 of each row
//! (counted from the left), b in 0..2, j in 0..4; digit d (weight 3^d) is
//! the square j + d % 2 of row 4b + d / 2. Each side reads the four
//! windows ahead of it, rows 0..5 as seen from its own side: White reads
//! windows (0, j) into table j; Black reads windows (1, 3 − j), turned 180°
//! with colours swapped, into the same table j with value −1. So every
//! window is read once, four tables serve eight windows, and a position
//! and its colour-flipped twin still score exactly opposite.
//!
//! The indices come from the two-row field lanes that the 8-square
//! regions already computed (`features`): a window is a region (two
//! fields) plus the third field below it.

use super::features::{BIASED_ZERO, COUNT, FIELD_ZERO, lane};

/// First window table.
pub const WINDOW: usize = COUNT;
/// Window tables.
pub const TABLES: usize = 4;
/// Weights per table: 3^12.
pub const TABLE: usize = 531_441;
/// Offset of index 0 in a table.
const MIDDLE: i32 = 265_720;
/// One past the last feature of set 2.
pub const END: usize = WINDOW + TABLES * TABLE;

/// White's windows (0, j): `f01` holds the lanes of region row 0 (fields
/// 0 and 1, `lo + 81 · hi`), `f2` the lanes of field 2, both biased.
#[inline(always)]
pub(super) fn white(f01: u64, f2: u64, f: &mut impl FnMut(usize, i32)) {
    for j in 0..TABLES {
        let idx = lane(f01, j) - BIASED_ZERO + 6561 * (lane(f2, j) - FIELD_ZERO);
        f(WINDOW + TABLE * j + (MIDDLE + idx) as usize, 1);
    }
}

/// Black's windows: (1, 3 − j) turned, into table j. `r34` holds the
/// reversed lanes of fields 3 and 4 (`81 · lo + hi`), `r2` the reversed
/// lanes of field 2; turning the board reverses the digit order and
/// swapping the colours negates the index.
#[inline(always)]
pub(super) fn black(r34: u64, r2: u64, f: &mut impl FnMut(usize, i32)) {
    for j in 0..TABLES {
        let g = TABLES - 1 - j;
        let idx = lane(r34, g) - BIASED_ZERO + 6561 * (lane(r2, g) - FIELD_ZERO);
        f(WINDOW + TABLE * j + (MIDDLE - idx) as usize, -1);
    }
}

#[cfg(test)]
pub(crate) mod reference {
    //! A slow, square-by-square statement of the windows, for tests.
    use super::*;
    use crate::board::{Color, Position, Square};

    /// The window features of `pos` as (index, value) pairs, unsorted.
    pub fn features(pos: &Position) -> Vec<(usize, i32)> {
        let mut out = Vec::new();
        for j in 0..TABLES {
            for (turned, sign) in [(false, 1), (true, -1)] {
                let mut idx = 0i32;
                for d in (0..12).rev() {
                    let (row, p) = (d / 2, j + d % 2);
                    let n = 5 * row + p + 1;
                    let n = if turned { 51 - n } else { n };
                    let digit = match pos.piece_at(Square::from_number(n as u32).unwrap()) {
                        Some((Color::White, _)) => 1,
                        Some((Color::Black, _)) => -1,
                        None => 0,
                    };
                    idx = 3 * idx + if turned { -digit } else { digit };
                }
                out.push((WINDOW + TABLE * j + (MIDDLE + idx) as usize, sign));
            }
        }
        out
    }
}
