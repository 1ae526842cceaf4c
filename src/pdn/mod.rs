//! PDN game collections as input (docs/rules.md §9.4): [`read`] turns a
//! file's text into games whose every move was checked against the rules.
//! The PDN of match games is written by `crate::arena::pdn`.

pub mod read;

pub use read::{PdnError, PdnGame, read_games};
