//! The transposition table: one table shared by every search thread,
//! lock-free without `unsafe`. Each entry is two `AtomicU64`: the data word
//! and the key xor the data word, so a torn write (two threads storing into
//! the same entry at once) reads back as a miss instead of as wrong data.
//! The words come from a zeroed allocation (`calloc`): the pages are not
//! touched until the search writes them, so a table of any size is ready at
//! once and the first search does not pay for clearing it.

use super::Score;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score means.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true score is at least the stored one (fail high).
    Lower = 1,
    /// The true score is at most the stored one (fail low).
    Upper = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub score: Score,
    pub depth: i32,
    pub bound: Bound,
    /// Index of the best move in the node's generation order, if known.
    pub move_index: Option<usize>,
}

/// Entries probed per key: one bucket of four neighbours (one cache line).
const BUCKET: usize = 4;
/// Words in a 64-byte cache line (one bucket).
const LINE_WORDS: usize = 2 * BUCKET;
/// Move index value meaning "no move".
const NO_MOVE: u64 = 0xFF;

/// The shared table. Sizes are powers of two (Scan's `tt-size` = log2 of
/// the number of entries).
pub struct Tt {
    /// Entry `i` is the words `base + 2i` (key xor data) and
    /// `base + 2i + 1` (data).
    words: Box<[AtomicU64]>,
    /// First word of entry 0: the allocation is only 8-byte aligned, so
    /// up to seven words are skipped to start every bucket on a 64-byte
    /// cache line (a bucket across two lines costs two misses a probe).
    base: usize,
    mask: usize,
    generation: AtomicU8,
    /// Entries written under another epoch count as empty: `clear` is a
    /// bump of the epoch (instant, whatever the size), never 0.
    epoch: AtomicU8,
}

// Data word layout: score 0..16 (i16), depth 16..24 (u8), bound 24..26,
// generation 26..32 (6 bits), move index 32..40 (0xFF = none), epoch 40..48.
fn pack(
    score: Score,
    depth: i32,
    bound: Bound,
    generation: u8,
    mv: Option<usize>,
    epoch: u8,
) -> u64 {
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let d = depth.clamp(0, 255) as u64;
    let m = match mv {
        Some(i) if (i as u64) < NO_MOVE => i as u64,
        _ => NO_MOVE,
    };
    s | d << 16
        | (bound as u64) << 24
        | ((generation & 63) as u64) << 26
        | m << 32
        | (epoch as u64) << 40
}

fn unpack(data: u64) -> Option<Hit> {
    let bound = match (data >> 24) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        3 => Bound::Exact,
        _ => return None,
    };
    let m = (data >> 32) & 0xFF;
    Some(Hit {
        score: data as u16 as i16 as Score,
        depth: ((data >> 16) & 0xFF) as i32,
        bound,
        move_index: (m != NO_MOVE).then_some(m as usize),
    })
}

fn epoch_of(data: u64) -> u8 {
    (data >> 40) as u8
}

fn generation_of(data: u64) -> u8 {
    ((data >> 26) & 63) as u8
}

impl Tt {
    /// A cleared table of 2^log2 entries (log2 clamped to 16..=30). If the
    /// memory cannot be had, smaller sizes are tried down to 2^16: a big
    /// `tt-size` must never abort the engine.
    pub fn new(log2: u32) -> Tt {
        let mut log2 = log2.clamp(16, 30);
        loop {
            let n = 1usize << log2;
            if let Ok(words) =
                bytemuck::allocation::try_zeroed_slice_box::<AtomicU64>(2 * n + LINE_WORDS)
            {
                let misalign = (words.as_ptr() as usize / 8) % LINE_WORDS;
                return Tt {
                    words,
                    base: (LINE_WORDS - misalign) % LINE_WORDS,
                    mask: n - 1,
                    generation: AtomicU8::new(0),
                    epoch: AtomicU8::new(1),
                };
            }
            if log2 == 16 {
                // 1 MiB could not be allocated: nothing sensible is left.
                log::error!("cannot allocate the transposition table");
                return Tt {
                    words: Box::new([]),
                    base: 0,
                    mask: 0,
                    generation: AtomicU8::new(0),
                    epoch: AtomicU8::new(1),
                };
            }
            log::warn!(
                "transposition table 2^{log2} too big, trying 2^{}",
                log2 - 1
            );
            log2 -= 1;
        }
    }

    /// log2 of the number of entries actually allocated.
    pub fn log2(&self) -> u32 {
        (self.mask + 1).trailing_zeros()
    }

    /// Forgets every entry, at once: the entries of older epochs are
    /// misses and free slots (so Hub `new-game` costs nothing, and the
    /// table behaves exactly like a fresh one).
    pub fn clear(&self) {
        let e = self.epoch.load(Ordering::Relaxed).wrapping_add(1).max(1);
        self.epoch.store(e, Ordering::Relaxed);
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Writes zeros over the whole table, mapping every page of a fresh
    /// allocation (a benchmark calls this so it measures the search, not
    /// the kernel's first touch of the memory).
    pub fn wipe(&self) {
        for w in self.words.iter() {
            w.store(0, Ordering::Relaxed);
        }
        self.clear();
    }

    /// Starts a new search: entries of older searches become preferred
    /// victims for replacement (aging).
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The words of the bucket of `key`: (check, data) pairs.
    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        if self.words.is_empty() {
            return &[];
        }
        let start = self.base + 2 * ((key as usize) & self.mask & !(BUCKET - 1));
        &self.words[start..start + 2 * BUCKET]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let epoch = self.epoch.load(Ordering::Relaxed);
        for e in self.bucket(key).chunks_exact(2) {
            let data = e[1].load(Ordering::Relaxed);
            if e[0].load(Ordering::Relaxed) ^ data == key && epoch_of(data) == epoch {
                return unpack(data);
            }
        }
        None
    }

    /// Stores a search result. The victim is the entry with the same key,
    /// else the shallowest entry, entries of older searches counting as
    /// shallower.
    #[inline]
    pub fn store(&self, key: u64, score: Score, depth: i32, bound: Bound, mv: Option<usize>) {
        let bucket = self.bucket(key);
        if bucket.is_empty() {
            return;
        }
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let epoch = self.epoch.load(Ordering::Relaxed);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in bucket.chunks_exact(2).enumerate() {
            let data = e[1].load(Ordering::Relaxed);
            let live = epoch_of(data) == epoch;
            if live && e[0].load(Ordering::Relaxed) ^ data == key {
                // Keep a known best move when the new result has none.
                let mv = mv.or_else(|| unpack(data).and_then(|h| h.move_index));
                let old_depth = ((data >> 16) & 0xFF) as i32;
                if bound != Bound::Exact
                    && generation_of(data) == generation
                    && old_depth > depth + 2
                {
                    return;
                }
                write(e, key, pack(score, depth, bound, generation, mv, epoch));
                return;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & 63) as i32;
            let value = if !live {
                i32::MIN
            } else {
                ((data >> 16) & 0xFF) as i32 - 8 * age
            };
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        write(
            &bucket[2 * victim..2 * victim + 2],
            key,
            pack(score, depth, bound, generation, mv, epoch),
        );
    }
}

/// Writes one entry (`e` = its check and data words).
#[inline]
fn write(e: &[AtomicU64], key: u64, data: u64) {
    e[1].store(data, Ordering::Relaxed);
    e[0].store(key ^ data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = Tt::new(16);
        tt.store(0x1234_5678_9abc_def0, -9990, 7, Bound::Lower, Some(3));
        let h = tt.probe(0x1234_5678_9abc_def0).unwrap();
        assert_eq!(
            (h.score, h.depth, h.bound, h.move_index),
            (-9990, 7, Bound::Lower, Some(3))
        );
        assert!(tt.probe(0x1234_5678_9abc_def1).is_none());
        tt.clear();
        assert!(tt.probe(0x1234_5678_9abc_def0).is_none());
        // The slot is free again, and new entries live.
        tt.store(0x1234_5678_9abc_def0, 5, 2, Bound::Exact, None);
        assert_eq!(tt.probe(0x1234_5678_9abc_def0).unwrap().score, 5);
        // The epoch wraps around but never to 0, the epoch of a zeroed word.
        for _ in 0..300 {
            tt.clear();
            assert_ne!(tt.epoch.load(Ordering::Relaxed), 0);
        }
    }

    #[test]
    fn buckets_start_on_cache_lines() {
        let tt = Tt::new(16);
        for key in [0u64, 1, 5, 0xFFFF, 0x1234_5678_9abc_def0] {
            assert_eq!(tt.bucket(key).as_ptr() as usize % 64, 0);
            assert_eq!(tt.bucket(key).len(), LINE_WORDS);
        }
    }

    #[test]
    fn sizes_are_clamped() {
        assert_eq!(Tt::new(3).log2(), 16);
    }
}
