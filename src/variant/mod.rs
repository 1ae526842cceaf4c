//! Variants: each rule set is a zero-sized type implementing [`Variant`], so
//! hot code is monomorphised per variant and carries no variant branches.
//! Adding a variant = one file here + one line in [`VariantKind`].

mod frisian;
mod international;

pub use frisian::{Frisian, FrisianSeed};
pub use international::International;

use crate::board::{Bitboard, Color, Position};
use std::fmt;
use std::str::FromStr;

/// A draw rule that can end a game (docs/rules.md §8).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum DrawRule {
    /// Same position, same side to move, third time (§8.1.1, §8.2.1).
    Repetition,
    /// International: 25 moves each of only king moves (§8.1.2).
    TwentyFiveMove,
    /// International: lone king against three pieces with a king (§8.1.3).
    SixteenMove,
    /// International: lone king against at most two pieces with a king (§8.1.4).
    FiveMove,
    /// Frisian: 50 moves each with only kings on the board (§8.2.2).
    KingsOnly50,
    /// Frisian: two kings against one king, seven moves (§8.2.3).
    TwoKingsVsKing,
}

impl DrawRule {
    /// Short name used in `show` output and tests.
    pub fn name(self) -> &'static str {
        match self {
            DrawRule::Repetition => "repetition",
            DrawRule::TwentyFiveMove => "25-move",
            DrawRule::SixteenMove => "16-move",
            DrawRule::FiveMove => "5-move",
            DrawRule::KingsOnly50 => "kings-only-50",
            DrawRule::TwoKingsVsKing => "2-kings-v-1-king",
        }
    }
}

impl fmt::Display for DrawRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule set. All items are compile-time constants or tiny inline hooks.
pub trait Variant: Copy + Default + Send + Sync + fmt::Debug + 'static {
    /// The runtime tag of this variant.
    const KIND: VariantKind;
    /// Men and kings also capture along rows and columns (Frisian §1.2, §3, §4.3).
    const ORTHOGONAL_CAPTURES: bool;
    /// Kings also make quiet moves along rows and columns (the literal seed
    /// reading of Frisian, docs/rules.md D1; off in every standard variant).
    const ORTHOGONAL_KING_MOVES: bool;
    /// The three-move king restriction of docs/rules.md §6.
    const KING_RESTRICTION: bool;

    /// Precedence score of a complete capture sequence (docs/rules.md §5.6):
    /// only the sequences with the highest score are legal.
    fn capture_score(men: u32, kings: u32, by_king: bool) -> u32;

    /// The quiet-play counter after a move (25-move rule or kings-only rule).
    fn quiet_counter(before: u16, capture: bool, king_moved: bool, after: &Position) -> u16;
    /// The quiet-play counter value at which the game is drawn, and the rule.
    const QUIET_LIMIT: (u16, DrawRule);

    /// The material category of §8 that carries a move limit, if any:
    /// the rule and its limit in plies.
    fn material_rule(pos: &Position) -> Option<(DrawRule, u16)>;
}

/// Runtime choice of variant, for the command line and the protocol.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum VariantKind {
    /// International draughts (FMJD), Hub name `normal`.
    #[default]
    International,
    /// Frisian draughts, Hub name `frisian`.
    Frisian,
    /// Frisian with the seed's literal king moves along rows and columns.
    FrisianSeed,
}

impl VariantKind {
    /// Every variant, in registry order.
    pub const ALL: [VariantKind; 3] = [
        VariantKind::International,
        VariantKind::Frisian,
        VariantKind::FrisianSeed,
    ];

    /// The Hub protocol name.
    pub fn name(self) -> &'static str {
        match self {
            VariantKind::International => "normal",
            VariantKind::Frisian => "frisian",
            VariantKind::FrisianSeed => "frisian-seed",
        }
    }

    /// True for the Frisian family (PDN game type 40).
    pub fn is_frisian(self) -> bool {
        !matches!(self, VariantKind::International)
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected normal or frisian)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for VariantKind {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "normal" | "international" | "standard" | "intl" | "fmjd" => {
                Ok(VariantKind::International)
            }
            "frisian" | "frysk" | "frysk!" => Ok(VariantKind::Frisian),
            "frisian-seed" => Ok(VariantKind::FrisianSeed),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// Calls a generic function with the concrete variant type chosen at runtime:
/// `with_variant!(kind, V => expr)` where `expr` may use `V`.
#[macro_export]
macro_rules! with_variant {
    ($kind:expr, $v:ident => $body:expr) => {
        match $kind {
            $crate::variant::VariantKind::International => {
                type $v = $crate::variant::International;
                $body
            }
            $crate::variant::VariantKind::Frisian => {
                type $v = $crate::variant::Frisian;
                $body
            }
            $crate::variant::VariantKind::FrisianSeed => {
                type $v = $crate::variant::FrisianSeed;
                $body
            }
        }
    };
}

/// True if a side has exactly one piece: every material rule of §8 needs
/// it, so this cheap test spares counting in all other positions.
#[inline(always)]
pub(crate) fn a_side_has_one_piece(pos: &Position) -> bool {
    pos.pieces(Color::White).is_power_of_two() || pos.pieces(Color::Black).is_power_of_two()
}

/// Counts of one side's pieces, for the material rules of §8.
#[inline]
pub(crate) fn counts(pieces: Bitboard, kings: Bitboard) -> (u32, u32) {
    (
        (pieces & !kings).count_ones(),
        (pieces & kings).count_ones(),
    )
}
