//! molkwar: a draughts engine for International (FMJD) and Frisian draughts
//! speaking the Hub protocol.

pub mod annotate;
pub mod arena;
pub mod bench;
pub mod board;
pub mod book;
pub mod dxp;
pub mod egdb;
pub mod eval;
pub mod game;
pub mod hub;
pub mod pdn;
pub mod perft;
pub mod score;
pub mod search;
pub mod train;
pub mod variant;

pub use board::{Color, Move, MoveList, Position, Square};
pub use game::{Game, Outcome};
pub use variant::{DrawRule, Variant, VariantKind};
