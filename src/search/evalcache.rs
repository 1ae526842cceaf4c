//! A small per-thread cache of static evaluations (White's score before the
//! draw rules), keyed by the position key. Iterative deepening and
//! re-searches evaluate the same leaves again and again; a hit costs one
//! read instead of the forty-odd weight-table reads of the trained
//! evaluation. The cache is exact up to 48-bit key collisions, like the
//! transposition table, so the search is unchanged (the bench's node count
//! shows it) and only faster.

use super::Score;
use crate::eval::Evaluator;
use crate::variant::VariantKind;

/// Slots: 2^16 of 8 bytes (512 kB, well inside the L2 cache).
const SLOTS: usize = 1 << 16;
/// The key bits a slot stores: the slot index is the low 16 bits, so the
/// two together check 48 bits of the key.
const CHECK: u64 = 0xFFFF_FFFF_0000_0000;

/// One thread's cache; kept between searches with the thread's frames.
pub struct EvalCache {
    /// Slot: the key's [`CHECK`] bits, the score in the low 32 bits.
    slots: Box<[u64]>,
    /// The variant and evaluation the stored scores belong to.
    owner: Option<(VariantKind, u64)>,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache {
            slots: vec![0; SLOTS].into_boxed_slice(),
            owner: None,
        }
    }
}

impl EvalCache {
    /// Makes the cache serve `kind` evaluated by `eval`: forgets every
    /// score if it served another variant or another evaluation.
    pub fn serve(&mut self, kind: VariantKind, eval: &Evaluator) {
        let owner = Some((kind, eval.fingerprint()));
        if self.owner != owner {
            self.slots.fill(0);
            self.owner = owner;
        }
    }

    /// The stored score of the position with `key`, if any.
    #[inline(always)]
    pub fn get(&self, key: u64) -> Option<Score> {
        let slot = self.slots[key as usize & (SLOTS - 1)];
        // A zero slot is empty; a key whose check bits are all zero is
        // simply never found (one key in 2^32).
        (slot != 0 && slot & CHECK == key & CHECK).then_some(slot as u32 as i32)
    }

    /// Stores the score of the position with `key`.
    #[inline(always)]
    pub fn put(&mut self, key: u64, score: Score) {
        self.slots[key as usize & (SLOTS - 1)] = (key & CHECK) | score as u32 as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_finds_and_forgets() {
        let e = Evaluator::Classic;
        let mut c = EvalCache::default();
        c.serve(VariantKind::International, &e);
        let key = 0xDEAD_BEEF_1234_5678;
        assert_eq!(c.get(key), None);
        c.put(key, -1234);
        assert_eq!(c.get(key), Some(-1234));
        // Same slot, other check bits: a miss, not the stored score.
        assert_eq!(c.get(key ^ 1 << 40), None);
        // Same variant and evaluation: kept.
        c.serve(VariantKind::International, &e);
        assert_eq!(c.get(key), Some(-1234));
        // Another variant: forgotten.
        c.serve(VariantKind::Frisian, &e);
        assert_eq!(c.get(key), None);
        // Another evaluation: forgotten.
        c.put(key, 7);
        c.serve(
            VariantKind::Frisian,
            &Evaluator::embedded(VariantKind::Frisian),
        );
        assert_eq!(c.get(key), None);
    }
}
