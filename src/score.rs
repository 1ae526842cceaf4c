//! Scores: the unit the evaluation produces and the search compares.

/// A score in centi-men from the side to move's point of view. Wins and
/// losses are `±(MATE - plies)`.
pub type Score = i32;
/// Score of a win in 0 plies; a win in n plies scores `MATE - n`.
pub const MATE: Score = 10_000;
