//! Table files: a 40-byte header (magic, version, variant, material,
//! position count, checksum) and the values packed four to a byte
//! (docs/egdb.md, "Files"). Files are written to a temporary name and
//! renamed, so a file that exists is complete.

use super::Value;
use super::index::{Layout, Material};
use crate::variant::{Variant, VariantKind};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first eight bytes of every table file.
const MAGIC: &[u8; 8] = b"MOLKEGDB";
/// Format version; a file of another version is refused. Version 2: moves
/// into an ending governed by a §8 material rule read its entry values
/// (docs/egdb.md, "Draw rules"), so version 1 files hold other values.
pub const VERSION: u32 = 2;
const HEADER: usize = 40;

/// One finished table in memory: 2 bits a position.
#[derive(Clone, Debug)]
pub struct Table {
    pub layout: Layout,
    data: Vec<u8>,
}

impl Table {
    /// A table of `layout` from one value per index.
    pub fn from_values(layout: Layout, values: impl Iterator<Item = Value>) -> Table {
        let mut data = vec![0u8; layout.len().div_ceil(4) as usize];
        for (i, v) in values.enumerate().take(layout.len() as usize) {
            data[i / 4] |= (v as u8) << (2 * (i % 4));
        }
        Table { layout, data }
    }

    /// The value stored at `i` (`Value::Invalid` past the end).
    #[inline]
    pub fn get(&self, i: u64) -> Value {
        match self.data.get((i / 4) as usize) {
            Some(b) => Value::from_bits(b >> (2 * (i % 4))),
            None => Value::Invalid,
        }
    }

    /// Bytes of packed values.
    pub fn bytes(&self) -> usize {
        self.data.len()
    }
}

/// FNV-1a, 64 bits: enough to notice a truncated or damaged file.
pub fn checksum(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn variant_code(kind: VariantKind) -> u8 {
    match kind {
        VariantKind::International => 0,
        VariantKind::Frisian => 1,
        VariantKind::FrisianSeed => 2,
    }
}

/// The file of material `m` for variant `kind` under `dir`.
pub fn path(dir: &Path, kind: VariantKind, m: Material) -> PathBuf {
    dir.join(kind.name()).join(format!("{}.egdb", m.name()))
}

/// True when the file of `m` exists and is of this format version (a look
/// at its header only; [`read`] checks the rest).
pub fn is_current(dir: &Path, kind: VariantKind, m: Material) -> bool {
    use std::io::Read;
    let mut h = [0u8; 12];
    std::fs::File::open(path(dir, kind, m))
        .and_then(|mut f| f.read_exact(&mut h))
        .is_ok()
        && &h[..8] == MAGIC
        && h[8..12] == VERSION.to_le_bytes()
}

/// Writes `t` to its file under `dir` (via a temporary file and a rename).
pub fn write<V: Variant>(dir: &Path, t: &Table) -> Result<PathBuf, String> {
    let m = t.layout.material;
    let file = path(dir, V::KIND, m);
    let parent = file.parent().unwrap_or(dir);
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    // One temporary name per process: two builds into one directory never
    // write the same file.
    let tmp = file.with_extension(format!("tmp{}", std::process::id()));
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.push(variant_code(V::KIND));
    h.extend_from_slice(&[m.us_men, m.us_kings, m.them_men, m.them_kings]);
    h.extend_from_slice(&[0; 3]);
    h.extend_from_slice(&t.layout.len().to_le_bytes());
    h.extend_from_slice(&checksum(&t.data).to_le_bytes());
    h.extend_from_slice(&[0; 4]);
    debug_assert_eq!(h.len(), HEADER);
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&h)?;
        f.write_all(&t.data)?;
        f.sync_all()?;
        std::fs::rename(&tmp, &file)
    };
    write().map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    Ok(file)
}

/// Reads and checks the table of material `m` (header, size, checksum).
pub fn read<V: Variant>(dir: &Path, m: Material) -> Result<Table, String> {
    let file = path(dir, V::KIND, m);
    let mut bytes =
        std::fs::read(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let bad = |what: &str| format!("{}: {what}", file.display());
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(bad("not a molkwar endgame table"));
    }
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap_or([0; 4]));
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap_or([0; 8]));
    if u32_at(8) != VERSION {
        return Err(bad(&format!(
            "format version {} (expected {VERSION})",
            u32_at(8)
        )));
    }
    if bytes[12] != variant_code(V::KIND) {
        return Err(bad(&format!("not a {} table", V::KIND)));
    }
    let found = Material {
        us_men: bytes[13],
        us_kings: bytes[14],
        them_men: bytes[15],
        them_kings: bytes[16],
    };
    if found != m {
        return Err(bad(&format!("holds material {found}, expected {m}")));
    }
    let layout = Layout::new::<V>(m);
    if u64_at(20) != layout.len() {
        return Err(bad(
            "wrong position count (built by another index version?)",
        ));
    }
    let data = &bytes[HEADER..];
    if data.len() as u64 != layout.len().div_ceil(4) {
        return Err(bad("truncated"));
    }
    if checksum(data) != u64_at(28) {
        return Err(bad("checksum mismatch (damaged file)"));
    }
    // The header is dropped in place: a copy would need a second buffer
    // as large as the table (up to 0.74 GB in Frisian ≤ 5) and its page faults.
    bytes.drain(..HEADER);
    Ok(Table {
        layout,
        data: bytes,
    })
}
