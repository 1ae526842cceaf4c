//! Zobrist keys: fixed pseudo-random numbers, generated at compile time, for
//! every (piece, square), the side to move and the Frisian restriction state.

use super::square::BITS;

/// Tables are 64 wide (not [`BITS`]) so that indexing by a bit masked with
/// 63 needs no bounds check.
const W: usize = 64;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Index into [`PIECE`]: white man, black man, white king, black king.
pub const WHITE_MAN: usize = 0;
pub const BLACK_MAN: usize = 1;
pub const WHITE_KING: usize = 2;
pub const BLACK_KING: usize = 3;

pub(crate) struct Keys {
    pub piece: [[u64; W]; 4],
    pub side: u64,
    /// `[colour][king bit][count 0..=3]`, index 0 unused (count 0 = no state).
    pub restriction: [[[u64; 4]; W]; 2],
}

const fn build() -> Keys {
    let mut k = Keys {
        piece: [[0; W]; 4],
        side: 0,
        restriction: [[[0; 4]; W]; 2],
    };
    let mut st = 0x6D6F_6C6B_7761_7221u64;
    let mut p = 0;
    while p < 4 {
        let mut b = 0;
        while b < BITS {
            let (s, z) = splitmix(st);
            st = s;
            k.piece[p][b] = z;
            b += 1;
        }
        p += 1;
    }
    let (s, z) = splitmix(st);
    st = s;
    k.side = z;
    let mut c = 0;
    while c < 2 {
        let mut b = 0;
        while b < BITS {
            let mut n = 1;
            while n < 4 {
                let (s, z) = splitmix(st);
                st = s;
                k.restriction[c][b][n] = z;
                n += 1;
            }
            b += 1;
        }
        c += 1;
    }
    k
}

pub(crate) static KEYS: Keys = build();
