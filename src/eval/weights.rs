//! Weight files of the trained evaluator: a versioned little-endian binary
//! format, checked on load, and the embedded default files.
//!
//! Layout (all integers little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `MOLKEVAL` |
//! | 2 | format version (1 or 2) |
//! | 1 | variant family: 0 International, 1 Frisian |
//! | 1 | reserved, 0 |
//! | 2 | feature set id ([`FeatureSet::id`]: 1, 2 or 3) |
//! | 2 | phases (2: opening, ending) |
//! | 4 | features ([`FeatureSet::count`] of that set) |
//! | 2 | units per centi-man ([`UNIT`]) |
//! | 2 | reserved, 0 |
//! | body | the weights, i16, per feature its opening then its ending weight |
//! | 8 | FNV-1a 64 checksum of every byte before it |
//!
//! Version 1's body holds every pair. Version 2's, which this build
//! writes for every set, skips the pairs that are both 0 (most window
//! weights: a table entry no training position reached): it is a list of
//! runs, each a LEB128 count of zero pairs, a LEB128 count of stored
//! pairs and those pairs, until every feature is covered.

use super::features::FeatureSet;
use crate::variant::VariantKind;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// File magic.
pub const MAGIC: &[u8; 8] = b"MOLKEVAL";
/// Format version written; 1 is read too.
pub const VERSION: u16 = 2;
/// Weight units per centi-man.
pub const UNIT: i32 = 32;
const HEADER: usize = 24;
const PHASES: usize = 2;

/// The variants that share one weight set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    International = 0,
    /// Frisian and its seed reading.
    Frisian = 1,
}

impl Family {
    /// The family of a variant.
    pub const fn of(kind: VariantKind) -> Family {
        match kind {
            VariantKind::International => Family::International,
            VariantKind::Frisian | VariantKind::FrisianSeed => Family::Frisian,
        }
    }

    /// Name used in messages and file names.
    pub fn name(self) -> &'static str {
        match self {
            Family::International => "international",
            Family::Frisian => "frisian",
        }
    }

    fn from_byte(b: u8) -> Option<Family> {
        match b {
            0 => Some(Family::International),
            1 => Some(Family::Frisian),
            _ => None,
        }
    }
}

/// Why a weight file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    Io(String),
    Truncated {
        len: usize,
        expected: usize,
    },
    Magic,
    Version(u16),
    Family(u8),
    FeatureSet(u16),
    Dimensions {
        phases: u16,
        features: u32,
    },
    Checksum,
    /// A version 2 body whose runs do not add up to the feature count.
    Runs,
    WrongFamily {
        file: Family,
        wanted: Family,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Io(e) => write!(f, "{e}"),
            WeightsError::Truncated { len, expected } => {
                write!(
                    f,
                    "truncated weight file ({len} bytes, expected {expected})"
                )
            }
            WeightsError::Magic => write!(f, "not a molkwar weight file (bad magic)"),
            WeightsError::Version(v) => {
                write!(
                    f,
                    "weight file format {v} (this build reads 1 and {VERSION})"
                )
            }
            WeightsError::Family(b) => write!(f, "unknown variant family {b} in weight file"),
            WeightsError::FeatureSet(s) => {
                write!(f, "feature set {s} (this build reads 1, 2 and 3)")
            }
            WeightsError::Dimensions { phases, features } => write!(
                f,
                "weight file dimensions {phases}x{features} do not match its feature set"
            ),
            WeightsError::Checksum => write!(f, "weight file checksum mismatch (corrupt file)"),
            WeightsError::Runs => write!(f, "weight file runs do not match its feature count"),
            WeightsError::WrongFamily { file, wanted } => write!(
                f,
                "weight file is for {}, not {}",
                file.name(),
                wanted.name()
            ),
        }
    }
}

/// A loaded weight set: per feature, the opening and ending weights in
/// 1/[`UNIT`] centi-men.
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    family: Family,
    set: FeatureSet,
    w: Box<[[i16; 2]]>,
    /// A hash of the family, set and weights: tells weight sets apart
    /// (the search's evaluation cache, `search/evalcache.rs`).
    fingerprint: u64,
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Weights({}, set {}, {} features)",
            self.family.name(),
            self.set.id(),
            self.w.len()
        )
    }
}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Weights {
    /// Weights of feature set `set` from per-feature (opening, ending)
    /// pairs in units, one per feature of the set.
    pub fn new(family: Family, set: FeatureSet, w: Vec<[i16; 2]>) -> Weights {
        assert_eq!(w.len(), set.count());
        // FNV-1a over the weights as 32-bit words: a few milliseconds for
        // the largest set, once per load; equal weights, equal prints.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ (family as u64) << 8 ^ set.id() as u64;
        for [o, e] in &w {
            h ^= (*o as u16 as u64) << 16 | *e as u16 as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Weights {
            family,
            set,
            w: w.into_boxed_slice(),
            fingerprint: h.max(1),
        }
    }

    /// A hash of the family, feature set and weights (never 0).
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The family these weights are for.
    pub fn family(&self) -> Family {
        self.family
    }

    /// The feature set these weights are for.
    pub fn feature_set(&self) -> FeatureSet {
        self.set
    }

    /// The (opening, ending) weights of feature `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> [i16; 2] {
        self.w[i]
    }

    /// Every (opening, ending) pair, by feature.
    pub fn all(&self) -> &[[i16; 2]] {
        &self.w
    }

    /// The file image.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER + self.w.len() + 8);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.push(self.family as u8);
        b.push(0);
        b.extend_from_slice(&self.set.id().to_le_bytes());
        b.extend_from_slice(&(PHASES as u16).to_le_bytes());
        b.extend_from_slice(&(self.w.len() as u32).to_le_bytes());
        b.extend_from_slice(&(UNIT as u16).to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        let zero = |p: &[i16; 2]| *p == [0, 0];
        let mut rest = &self.w[..];
        while !rest.is_empty() {
            let zeros = rest.iter().take_while(|p| zero(p)).count();
            let stored = rest[zeros..].iter().take_while(|p| !zero(p)).count();
            leb128(&mut b, zeros);
            leb128(&mut b, stored);
            for p in &rest[zeros..zeros + stored] {
                put_pair(&mut b, p);
            }
            rest = &rest[zeros + stored..];
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Reads a file image, checking every header field and the checksum.
    pub fn from_bytes(b: &[u8]) -> Result<Weights, WeightsError> {
        if b.len() < HEADER {
            return Err(WeightsError::Truncated {
                len: b.len(),
                expected: HEADER,
            });
        }
        if &b[..8] != MAGIC {
            return Err(WeightsError::Magic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let version = u16_at(8);
        if version != 1 && version != VERSION {
            return Err(WeightsError::Version(version));
        }
        let family = Family::from_byte(b[10]).ok_or(WeightsError::Family(b[10]))?;
        let set = FeatureSet::from_id(u16_at(12)).ok_or(WeightsError::FeatureSet(u16_at(12)))?;
        let phases = u16_at(14);
        let features = u32::from_le_bytes([b[16], b[17], b[18], b[19]]);
        if phases as usize != PHASES
            || features as usize != set.count()
            || u16_at(20) as i32 != UNIT
        {
            return Err(WeightsError::Dimensions { phases, features });
        }
        let expected = if version == 1 {
            HEADER + 2 * PHASES * set.count() + 8
        } else {
            HEADER + 8
        };
        if b.len() < expected || version == 1 && b.len() != expected {
            return Err(WeightsError::Truncated {
                len: b.len(),
                expected,
            });
        }
        let (body, sum) = b.split_at(b.len() - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(WeightsError::Checksum);
        }
        let body = &body[HEADER..];
        let w = if version == 1 {
            body.chunks_exact(4).map(get_pair).collect()
        } else {
            runs(body, set.count())?
        };
        Ok(Weights::new(family, set, w))
    }

    /// Loads a weight file for `wanted`.
    pub fn load(path: &std::path::Path, wanted: Family) -> Result<Weights, WeightsError> {
        let b = std::fs::read(path)
            .map_err(|e| WeightsError::Io(format!("cannot read {}: {e}", path.display())))?;
        let w = Weights::from_bytes(&b)?;
        if w.family != wanted {
            return Err(WeightsError::WrongFamily {
                file: w.family,
                wanted,
            });
        }
        Ok(w)
    }

    /// Writes the weight file.
    pub fn save(&self, path: &std::path::Path) -> Result<(), String> {
        std::fs::write(path, self.to_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// Appends a weight pair: opening then ending, i16 little-endian.
fn put_pair(b: &mut Vec<u8>, [o, e]: &[i16; 2]) {
    b.extend_from_slice(&o.to_le_bytes());
    b.extend_from_slice(&e.to_le_bytes());
}

/// Reads the weight pair in the first four bytes of `c`.
fn get_pair(c: &[u8]) -> [i16; 2] {
    [
        i16::from_le_bytes([c[0], c[1]]),
        i16::from_le_bytes([c[2], c[3]]),
    ]
}

/// Appends `n` as LEB128 (seven bits a byte, low first).
fn leb128(b: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        b.push(n as u8 | 0x80);
        n >>= 7;
    }
    b.push(n as u8);
}

/// Reads a LEB128 number at `*at` (at most five bytes).
fn read_leb128(b: &[u8], at: &mut usize) -> Option<usize> {
    let mut n = 0usize;
    for shift in (0..35).step_by(7) {
        let byte = *b.get(*at)?;
        *at += 1;
        n |= ((byte & 0x7F) as usize) << shift;
        if byte < 0x80 {
            return Some(n);
        }
    }
    None
}

/// Decodes a version 2 body of `count` pairs.
fn runs(body: &[u8], count: usize) -> Result<Vec<[i16; 2]>, WeightsError> {
    let mut w = Vec::with_capacity(count);
    let mut at = 0;
    while at < body.len() {
        let zeros = read_leb128(body, &mut at).ok_or(WeightsError::Runs)?;
        let stored = read_leb128(body, &mut at).ok_or(WeightsError::Runs)?;
        let bytes = stored.checked_mul(4).ok_or(WeightsError::Runs)?;
        let run = zeros.checked_add(stored).ok_or(WeightsError::Runs)?;
        if run > count - w.len() || body.len() - at < bytes {
            return Err(WeightsError::Runs);
        }
        w.resize(w.len() + zeros, [0, 0]);
        w.extend(body[at..at + bytes].chunks_exact(4).map(get_pair));
        at += bytes;
    }
    if w.len() != count {
        return Err(WeightsError::Runs);
    }
    Ok(w)
}

/// The weight files built into the binary.
static EMBEDDED: [&[u8]; 2] = [
    include_bytes!("../../weights/international.mkw"),
    include_bytes!("../../weights/frisian.mkw"),
];

/// The embedded weights of `family` (parsed once).
pub fn embedded(family: Family) -> Arc<Weights> {
    static PARSED: [OnceLock<Arc<Weights>>; 2] = [OnceLock::new(), OnceLock::new()];
    PARSED[family as usize]
        .get_or_init(|| {
            // The files are checked by the tests; a bad one is a build bug.
            Arc::new(Weights::from_bytes(EMBEDDED[family as usize]).expect("embedded weights"))
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_of(set: FeatureSet) -> Weights {
        let w = (0..set.count())
            .map(|i| [(i % 977) as i16 - 400, -((i % 331) as i16)])
            .collect();
        Weights::new(Family::Frisian, set, w)
    }

    fn sample() -> Weights {
        sample_of(FeatureSet::Regions)
    }

    /// Mostly zero pairs, as trained window tables are: short runs
    /// scattered by a hash, a run of 300 zero pairs and one of 200 stored
    /// pairs (counts of more than one LEB128 byte), zeros at both ends.
    fn sparse_sample(set: FeatureSet) -> Weights {
        let mut w: Vec<_> = (0..set.count())
            .map(|i| {
                let x = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56;
                match x {
                    0..=9 => [x as i16 - 5, 7],
                    10..=14 => [0, -(x as i16)],
                    _ => [0, 0],
                }
            })
            .collect();
        w[1000..1300].fill([0, 0]);
        w[2000..2200].fill([3, -1]);
        w[0] = [0, 0];
        *w.last_mut().unwrap() = [0, 0];
        Weights::new(Family::International, set, w)
    }

    /// The version 1 image of `w`: every pair stored.
    fn version1(w: &Weights) -> Vec<u8> {
        let mut b = w.to_bytes()[..HEADER].to_vec();
        b[8..10].copy_from_slice(&1u16.to_le_bytes());
        for p in w.all() {
            put_pair(&mut b, p);
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Recomputes the checksum of a patched image.
    fn resum(b: &mut [u8]) {
        let n = b.len() - 8;
        let sum = fnv1a(&b[..n]);
        b[n..].copy_from_slice(&sum.to_le_bytes());
    }

    #[test]
    fn round_trip() {
        for set in FeatureSet::ALL {
            for w in [sample_of(set), sparse_sample(set)] {
                assert_eq!(Weights::from_bytes(&w.to_bytes()).unwrap(), w);
                assert_eq!(Weights::from_bytes(&version1(&w)).unwrap(), w);
            }
        }
    }

    #[test]
    fn zero_pairs_are_not_stored() {
        let w = sparse_sample(FeatureSet::Windows);
        let zeros = w.all().iter().filter(|p| **p == [0, 0]).count();
        assert!(zeros > w.all().len() / 2);
        let stored = 4 * (w.all().len() - zeros);
        let len = w.to_bytes().len();
        assert!(len > HEADER + stored + 8);
        assert!(len < version1(&w).len() / 4, "{len}");
    }

    #[test]
    fn a_file_whose_size_does_not_match_its_set_is_refused() {
        // A set 1 body under a set 2 header (and the count patched to
        // match): refused, not misread, in either version.
        let n = (FeatureSet::Windows.count() as u32).to_le_bytes();
        for (mut b, v1) in [(sample().to_bytes(), false), (version1(&sample()), true)] {
            b[12] = 2;
            b[16..20].copy_from_slice(&n);
            resum(&mut b);
            let e = Weights::from_bytes(&b);
            if v1 {
                assert!(matches!(e, Err(WeightsError::Truncated { .. })), "{e:?}");
            } else {
                assert_eq!(e, Err(WeightsError::Runs));
            }
        }
        // A set 2 header with set 1's count.
        let mut b = sample().to_bytes();
        b[12] = 2;
        assert!(matches!(
            Weights::from_bytes(&b),
            Err(WeightsError::Dimensions { .. })
        ));
    }

    #[test]
    fn runs_that_do_not_add_up_are_refused() {
        let good = sparse_sample(FeatureSet::Regions).to_bytes();
        let body = good.len() - 8;
        // One pair short: the last run dropped and the remainder not
        // covered.
        let mut b = good[..HEADER].to_vec();
        leb128(&mut b, FeatureSet::Regions.count() - 1);
        leb128(&mut b, 0);
        b.extend_from_slice(&[0; 8]);
        resum(&mut b);
        assert_eq!(Weights::from_bytes(&b), Err(WeightsError::Runs));
        // One pair too many.
        let mut b = good[..HEADER].to_vec();
        leb128(&mut b, FeatureSet::Regions.count() + 1);
        leb128(&mut b, 0);
        b.extend_from_slice(&[0; 8]);
        resum(&mut b);
        assert_eq!(Weights::from_bytes(&b), Err(WeightsError::Runs));
        // A run that claims two pairs and holds one.
        let mut b = good[..HEADER].to_vec();
        leb128(&mut b, 0);
        leb128(&mut b, 2);
        b.extend_from_slice(&[1, 0, 0, 0]);
        b.extend_from_slice(&[0; 8]);
        resum(&mut b);
        assert_eq!(Weights::from_bytes(&b), Err(WeightsError::Runs));
        // The last run dropped, and a count left open.
        for cut in [body - 2, HEADER + 1] {
            let mut b = good[..cut].to_vec();
            b.extend_from_slice(&[0; 8]);
            resum(&mut b);
            assert_eq!(Weights::from_bytes(&b), Err(WeightsError::Runs), "{cut}");
        }
        let mut b = good[..HEADER].to_vec();
        b.extend_from_slice(&[0xFF; 6]);
        b.extend_from_slice(&[0; 8]);
        resum(&mut b);
        assert_eq!(Weights::from_bytes(&b), Err(WeightsError::Runs));
    }

    #[test]
    fn corrupt_files_are_refused() {
        for good in [sample().to_bytes(), version1(&sample())] {
            let mut b = good.clone();
            b.truncate(good.len() - 1);
            assert!(matches!(
                Weights::from_bytes(&b),
                Err(WeightsError::Truncated { .. } | WeightsError::Checksum)
            ));
            assert!(matches!(
                Weights::from_bytes(&good[..10]),
                Err(WeightsError::Truncated { .. })
            ));
            let mut b = good.clone();
            b[0] = b'X';
            assert_eq!(Weights::from_bytes(&b), Err(WeightsError::Magic));
            let mut b = good.clone();
            b[8] = 9;
            assert_eq!(Weights::from_bytes(&b), Err(WeightsError::Version(9)));
            let mut b = good.clone();
            b[10] = 7;
            assert_eq!(Weights::from_bytes(&b), Err(WeightsError::Family(7)));
            let mut b = good.clone();
            b[12] = 99;
            assert!(matches!(
                Weights::from_bytes(&b),
                Err(WeightsError::FeatureSet(_))
            ));
            let mut b = good.clone();
            b[16] ^= 1;
            assert!(matches!(
                Weights::from_bytes(&b),
                Err(WeightsError::Dimensions { .. })
            ));
            let mut b = good.clone();
            b[HEADER + 5] ^= 0x10;
            assert_eq!(Weights::from_bytes(&b), Err(WeightsError::Checksum));
        }
        assert!(Weights::from_bytes(&[]).is_err());
    }

    #[test]
    fn the_embedded_files_load() {
        assert_eq!(
            embedded(Family::International).family(),
            Family::International
        );
        assert_eq!(embedded(Family::Frisian).family(), Family::Frisian);
    }

    #[test]
    fn a_file_for_the_other_family_is_refused() {
        let dir = std::env::temp_dir().join(format!("molkwar-w-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("f.mkw");
        sample().save(&p).unwrap();
        assert!(Weights::load(&p, Family::Frisian).is_ok());
        assert!(matches!(
            Weights::load(&p, Family::International),
            Err(WeightsError::WrongFamily { .. })
        ));
        assert!(matches!(
            Weights::load(&dir.join("missing"), Family::Frisian),
            Err(WeightsError::Io(_))
        ));
    }
}
