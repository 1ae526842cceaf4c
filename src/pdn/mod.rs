//! PDN game collections (docs/rules.md §9.4): [`read`] turns a file's text
//! into games whose every move was checked against the rules; [`write`]
//! lays one game out (used by match games and annotated games).

pub mod read;
pub mod write;

pub use read::{PdnError, PdnGame, read_games};
pub use write::GameWriter;
