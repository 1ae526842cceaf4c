//! Endgame databases: win/draw/loss tables of every position with few
//! pieces, built here by retrograde analysis, verified, and probed by the
//! search (docs/egdb.md describes the design and the draw-rule policy).
//!
//! * `index`: material signatures and the dense index of a table;
//! * `storage`: the table files (2 bits a position, checksummed);
//! * `builder`: the build order, resumption and progress;
//! * `retro`: the retrograde solver of one material pair (work list by waves);
//! * `unmove`: the predecessor moves the solver's waves un-play;
//! * `counted`: the endings a §8 material rule governs, valued as their
//!   count starts (the entry values a move into them reads);
//! * `probe`: the loaded tables, the probe, and the scores the search uses;
//! * `verify`: self-consistency and spot checks against the search;
//! * `command`: `molkwar egdb build | verify`.

pub mod builder;
pub mod command;
pub mod counted;
pub mod index;
pub mod probe;
pub mod retro;
pub mod storage;
mod unmove;
pub mod verify;

pub use index::{Layout, Material};
pub use probe::Tables;

/// The value of a position for the side to move, with perfect play and
/// without the counter rules of docs/rules.md §8 (repetition is a draw).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Value {
    /// A hole of the index (not a position).
    Invalid = 0,
    Loss = 1,
    Draw = 2,
    Win = 3,
}

impl Value {
    /// The value of the 2-bit code in the low bits of `b`.
    #[inline]
    pub fn from_bits(b: u8) -> Value {
        match b & 3 {
            1 => Value::Loss,
            2 => Value::Draw,
            3 => Value::Win,
            _ => Value::Invalid,
        }
    }

    /// The value for the other side.
    pub fn negate(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            v => v,
        }
    }

    /// `win`, `draw`, `loss` or `invalid`.
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
            Value::Invalid => "invalid",
        }
    }
}

/// The default table directory: `$MOLKWAR_EGDB`, else the user's cache
/// directory (`$XDG_CACHE_HOME/molkwar/egdb` or `~/.cache/molkwar/egdb`),
/// else `molkwar-egdb` in the working directory.
pub fn default_dir() -> std::path::PathBuf {
    if let Some(d) = std::env::var_os("MOLKWAR_EGDB").filter(|d| !d.is_empty()) {
        return d.into();
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return std::path::PathBuf::from(d).join("molkwar").join("egdb");
    }
    if let Some(h) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return std::path::PathBuf::from(h)
            .join(".cache")
            .join("molkwar")
            .join("egdb");
    }
    "molkwar-egdb".into()
}
