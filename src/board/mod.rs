//! The board: squares, bitboards, positions, moves, legal move generation
//! and the text forms (Hub, FEN, move notation) they are read and written in.

pub mod bitboard;
pub mod exchange;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod position;
pub mod square;
mod zobrist;

pub use bitboard::{BOARD, Bitboard, Dir, squares};
pub use fen::PositionError;
pub use moves::{Move, MoveList};
pub use notation::MoveError;
pub use position::{Color, Position, Restriction};
pub use square::Square;
