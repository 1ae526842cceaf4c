//! Variants: each rule set is a zero-sized type implementing [`Variant`], so
//! hot code is monomorphised per variant and carries no variant branches.
//! Adding a variant = one file here + its entry in [`VariantKind`] (tag,
//! [`VariantKind::ALL`], name, aliases): the Hub `param` line, the name
//! parser and the command-line options all read that registry.

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
    /// Every rule, for reading a name back.
    pub const ALL: [DrawRule; 6] = [
        DrawRule::Repetition,
        DrawRule::TwentyFiveMove,
        DrawRule::SixteenMove,
        DrawRule::FiveMove,
        DrawRule::KingsOnly50,
        DrawRule::TwoKingsVsKing,
    ];

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

/// Runtime choice of variant, for the command line and the protocol: the
/// registry of variants and their names.
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
    /// Every variant, in registry order (the order of Hub's `values=`).
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

    /// Other names accepted for it (besides [`name`](Self::name); any case).
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            VariantKind::International => &["international", "standard", "intl", "fmjd"],
            VariantKind::Frisian => &["frysk", "frysk!"],
            VariantKind::FrisianSeed => &[],
        }
    }

    /// The variant this one is a reading of, chosen by a rule parameter
    /// rather than by name in Hub's `values=` (`frisian-seed` is `frisian`
    /// with `frisian-king-rows`, docs/rules.md D1); `None` for a variant in
    /// its own right.
    pub fn reading_of(self) -> Option<VariantKind> {
        match self {
            VariantKind::FrisianSeed => Some(VariantKind::Frisian),
            VariantKind::International | VariantKind::Frisian => None,
        }
    }

    /// This variant's reading with kings moving along rows and columns
    /// (docs/rules.md D1), if it has one.
    pub fn king_rows_reading(self) -> Option<VariantKind> {
        Self::ALL.into_iter().find(|v| v.reading_of() == Some(self))
    }

    /// The variants in their own right (not readings), in registry order:
    /// the ones a Hub client or a match names.
    pub fn listed() -> impl Iterator<Item = VariantKind> {
        Self::ALL.into_iter().filter(|v| v.reading_of().is_none())
    }

    /// The names of [`listed`](Self::listed) variants for a message:
    /// `normal or frisian` with `conjunction` "or" (a comma before the
    /// others when there are more).
    pub fn listed_names(conjunction: &str) -> String {
        let names: Vec<&str> = Self::listed().map(VariantKind::name).collect();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => {
                format!("{} {conjunction} {last}", rest.join(", "))
            }
            _ => names.concat(),
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
            "unknown variant '{}' (expected {})",
            self.0,
            VariantKind::listed_names("or")
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for VariantKind {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let want = s.trim();
        Self::ALL
            .into_iter()
            .find(|v| {
                std::iter::once(v.name())
                    .chain(v.aliases().iter().copied())
                    .any(|n| n.eq_ignore_ascii_case(want))
            })
            .ok_or_else(|| UnknownVariant(s.to_string()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_read_back() {
        for v in VariantKind::ALL {
            assert_eq!(v.name().parse(), Ok(v));
            assert_eq!(v.name().to_uppercase().parse(), Ok(v));
            for a in v.aliases() {
                assert_eq!(a.parse(), Ok(v), "{a}");
            }
        }
        assert_eq!(" Frysk! ".parse(), Ok(VariantKind::Frisian));
        let e = "killer".parse::<VariantKind>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown variant 'killer' (expected normal or frisian)"
        );
    }

    #[test]
    fn readings_are_not_listed() {
        let listed: Vec<_> = VariantKind::listed().collect();
        assert_eq!(listed, [VariantKind::International, VariantKind::Frisian]);
        assert_eq!(
            VariantKind::Frisian.king_rows_reading(),
            Some(VariantKind::FrisianSeed)
        );
        assert_eq!(VariantKind::International.king_rows_reading(), None);
        assert_eq!(VariantKind::listed_names("and"), "normal and frisian");
    }
}
