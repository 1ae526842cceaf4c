//! Static evaluation of quiet positions (the side to move has no capture;
//! the search resolves captures first), in centi-men for the side to move.
//!
//! Two evaluators compute White's score: the trained one (`features` ×
//! learned `weights`, interpolated between opening and ending by the number
//! of men) and the hand-written `classic` one it was trained from. The
//! draw-rule knowledge is applied on top of either: endings that the §8
//! rules make drawn in practice (International lone king against at most
//! three pieces with a king, Frisian two kings against one, equal-ish
//! kings-only endings) are scaled toward 0, and so is every score as a
//! counter-based draw comes near.

mod classic;
pub mod features;
mod geometry;
pub mod weights;
pub mod windows;

use crate::board::{Color, Position};
use crate::game::DrawState;
use crate::score::{MATE, Score};
use crate::variant::{Variant, VariantKind};
use std::sync::Arc;
use weights::{Family, UNIT, Weights};

/// The value of a man.
pub const MAN: Score = 100;

/// The value of a king in the hand-written evaluator.
pub const fn king_value(kind: VariantKind) -> Score {
    match kind {
        VariantKind::International => 300,
        VariantKind::Frisian | VariantKind::FrisianSeed => 450,
    }
}

/// Largest magnitude a static evaluation may have (well below wins).
pub const MAX_EVAL: Score = MATE / 2;

/// The evaluation asked for on the command line or by Hub parameters:
/// the hand-written one, or trained weights (a file for its variant family,
/// the embedded ones for the other family and by default).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalChoice {
    pub classic: bool,
    pub file: Option<std::path::PathBuf>,
}

impl EvalChoice {
    /// Reads `classic` or `trained` (the default).
    pub fn parse_kind(s: &str) -> Result<bool, String> {
        match s {
            "classic" => Ok(true),
            "trained" => Ok(false),
            _ => Err(format!("unknown evaluation '{s}' (classic or trained)")),
        }
    }

    /// The evaluators of the two families (International, Frisian).
    pub fn evaluators(&self) -> Result<[Evaluator; 2], String> {
        let mut e = Evaluator::embedded_all();
        if let Some(path) = &self.file {
            let b = std::fs::read(path)
                .map_err(|err| format!("cannot read {}: {err}", path.display()))?;
            let w = Weights::from_bytes(&b).map_err(|err| format!("{}: {err}", path.display()))?;
            let family = w.family() as usize;
            e[family] = Evaluator::Trained(Arc::new(w));
        }
        if self.classic {
            e = [Evaluator::Classic, Evaluator::Classic];
        }
        Ok(e)
    }
}

/// Which evaluation the search uses.
#[derive(Clone, Debug, PartialEq)]
pub enum Evaluator {
    /// The hand-written evaluator.
    Classic,
    /// Learned weights (for the variant family the search plays).
    Trained(Arc<Weights>),
}

impl Evaluator {
    /// The default: the weights built into the binary for `kind`.
    pub fn embedded(kind: VariantKind) -> Evaluator {
        Evaluator::Trained(weights::embedded(Family::of(kind)))
    }

    /// The embedded weights of both families (International, Frisian).
    pub fn embedded_all() -> [Evaluator; 2] {
        [
            Evaluator::embedded(VariantKind::International),
            Evaluator::embedded(VariantKind::Frisian),
        ]
    }

    /// White's score of a quiet position before the draw rules, centi-men.
    #[inline]
    pub fn white_score<V: Variant>(&self, pos: &Position) -> Score {
        match self {
            Evaluator::Classic => classic::white_score::<V>(pos),
            Evaluator::Trained(w) => trained_white_score(w, pos),
        }
    }

    /// Tells evaluations apart: 0 for the hand-written one, else the
    /// weights' fingerprint.
    pub fn fingerprint(&self) -> u64 {
        match self {
            Evaluator::Classic => 0,
            Evaluator::Trained(w) => w.fingerprint(),
        }
    }

    /// Evaluates a quiet position for the side to move (centi-men).
    #[inline]
    pub fn evaluate<V: Variant>(&self, pos: &Position, draw: &DrawState) -> Score {
        Self::finish::<V>(self.white_score::<V>(pos), pos, draw)
    }

    /// [`Evaluator::evaluate`] from White's score before the draw rules
    /// (`white_score`, possibly remembered).
    #[inline]
    pub fn finish<V: Variant>(white: Score, pos: &Position, draw: &DrawState) -> Score {
        let score = scale_for_draws::<V>(white, pos, draw);
        let score = score.clamp(-MAX_EVAL, MAX_EVAL);
        match pos.side() {
            Color::White => score,
            Color::Black => -score,
        }
    }
}

/// The dot product of the features with the weights, interpolated by phase.
#[inline]
fn trained_white_score(w: &Weights, pos: &Position) -> Score {
    let (mut opening, mut ending) = (0i32, 0i32);
    w.feature_set().visit(pos, |i, x| {
        let [o, e] = w.get(i);
        opening += o as i32 * x;
        ending += e as i32 * x;
    });
    let p = features::phase(pos);
    let total = opening * p + ending * (features::PHASE_MAX - p);
    let div = features::PHASE_MAX * UNIT;
    // Round to nearest, symmetric around 0 (colour-flip symmetry).
    let s = (total.abs() + div / 2) / div;
    if total < 0 { -s } else { s }
}

/// Pulls White's score toward 0 in endings the draw rules make hard to win.
fn scale_for_draws<V: Variant>(score: Score, pos: &Position, draw: &DrawState) -> Score {
    let mut score = score;
    // 16-/5-move endings (International), 2 kings v 1 king (Frisian): a
    // draw unless won by force within the counter, which the search sees.
    if V::material_rule(pos).is_some() {
        score /= 8;
    } else if pos.men() == 0 {
        let kings = |c: Color| pos.pieces(c).count_ones() as i32;
        if (kings(Color::White) - kings(Color::Black)).abs() <= 1 {
            // Kings only, at most one king up: drawn in practice.
            score /= 4;
        }
    }
    // A counter rule fires soon: fade the score out over its last 20 plies.
    let left = draw.plies_to_draw::<V>(pos) as Score;
    if left < 20 {
        score = score * left / 20;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::fen::parse_fen;
    use crate::variant::{Frisian, International};

    fn eval<V: Variant>(e: &Evaluator, fen: &str) -> Score {
        let pos = parse_fen(fen).unwrap();
        e.evaluate::<V>(&pos, &DrawState::new::<V>(&pos))
    }

    #[test]
    fn trained_scores_are_colour_symmetric() {
        for (kind, a, b) in [
            (
                VariantKind::International,
                "W:W31,32,33,K40:B1,2,14",
                "B:W37,49,50:B18,19,20,K11",
            ),
            (
                VariantKind::Frisian,
                "W:W28,33,K45:B12,17",
                "B:W34,39:B18,23,K6",
            ),
        ] {
            let e = Evaluator::embedded(kind);
            match kind {
                VariantKind::International => {
                    assert_eq!(eval::<International>(&e, a), eval::<International>(&e, b))
                }
                _ => assert_eq!(eval::<Frisian>(&e, a), eval::<Frisian>(&e, b)),
            }
        }
    }
}
