//! Training records read from self-play files and turned into sparse
//! feature vectors, kept in flat arrays (a few dozen features a position).

use crate::board::fen;
use crate::eval::Evaluator;
use crate::eval::features::{self, FeatureSet};
use crate::variant::{Variant, VariantKind};
use crate::with_variant;
use std::io::BufRead;

/// Every position of a data set, as sparse features.
#[derive(Default, Debug)]
pub struct DataSet {
    /// Features of position i: `idx[start[i]..start[i + 1]]`, `val[…]`.
    pub start: Vec<u32>,
    pub idx: Vec<u32>,
    pub val: Vec<i16>,
    /// Phase of each position, 0..=`PHASE_MAX`.
    pub phase: Vec<u8>,
    /// Game result from White's side: 0, 0.5, 1.
    pub result: Vec<f32>,
    /// Search score from White's side, centi-men.
    pub score: Vec<f32>,
    /// The hand-written evaluator's static score, White's side (the
    /// baseline a trained weight set must beat).
    pub classic: Vec<f32>,
    /// Lines read and positions left out (by reason).
    pub lines: u64,
    pub bad_lines: u64,
    pub rule_endings: u64,
}

impl DataSet {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.phase.len()
    }

    /// True when there is no position.
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// The features of position `i`.
    pub fn features(&self, i: usize) -> (&[u32], &[i16]) {
        let (a, b) = (self.start[i] as usize, self.start[i + 1] as usize);
        (&self.idx[a..b], &self.val[a..b])
    }

    fn push_line<V: Variant>(&mut self, set: FeatureSet, line: &str) {
        self.lines += 1;
        let mut parts = line.split('|').map(str::trim);
        let (Some(f), Some(s), Some(r), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            self.bad_lines += 1;
            return;
        };
        let (Ok(pos), Ok(score), Ok(result)) =
            (fen::parse_fen(f), s.parse::<f32>(), r.parse::<f32>())
        else {
            self.bad_lines += 1;
            return;
        };
        if !(0.0..=1.0).contains(&result) {
            self.bad_lines += 1;
            return;
        }
        // Endings the draw rules decide are scaled toward 0 on top of the
        // learned score: they teach the weights nothing.
        if V::material_rule(&pos).is_some() || pos.men() == 0 {
            self.rule_endings += 1;
            return;
        }
        if self.start.is_empty() {
            self.start.push(0);
        }
        set.visit(&pos, |i, x| {
            self.idx.push(i as u32);
            self.val.push(x as i16);
        });
        self.start.push(self.idx.len() as u32);
        self.phase.push(features::phase(&pos) as u8);
        self.result.push(result);
        self.score.push(score);
        self.classic
            .push(Evaluator::Classic.white_score::<V>(&pos) as f32);
    }

    fn append(&mut self, mut other: DataSet) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        let base = self.idx.len() as u32;
        self.start
            .extend(other.start.iter().skip(1).map(|s| s + base));
        self.idx.append(&mut other.idx);
        self.val.append(&mut other.val);
        self.phase.append(&mut other.phase);
        self.result.append(&mut other.result);
        self.score.append(&mut other.score);
        self.classic.append(&mut other.classic);
        self.lines += other.lines;
        self.bad_lines += other.bad_lines;
        self.rule_endings += other.rule_endings;
    }
}

/// Reads `<fen> | <score> | <result>` lines from the files, in order,
/// into the features of `set`, converting on `threads` threads. Malformed
/// lines are counted, skipped.
pub fn load(
    kind: VariantKind,
    set: FeatureSet,
    files: &[std::path::PathBuf],
    threads: usize,
) -> Result<DataSet, String> {
    let mut lines = Vec::new();
    for p in files {
        let f = std::fs::File::open(p).map_err(|e| format!("cannot open {}: {e}", p.display()))?;
        for l in std::io::BufReader::new(f).lines() {
            let l = l.map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            if !l.trim().is_empty() {
                lines.push(l);
            }
        }
    }
    let threads = threads.max(1);
    let chunk = lines.len().div_ceil(threads).max(1);
    let parts: Vec<DataSet> = std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .map(|c| {
                scope.spawn(move || {
                    let mut d = DataSet::default();
                    for l in c {
                        with_variant!(kind, V => d.push_line::<V>(set, l));
                    }
                    d
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut all = DataSet::default();
    all.start.push(0);
    for p in parts {
        all.append(p);
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_become_positions_and_bad_lines_are_counted() {
        let mut d = DataSet::default();
        d.push_line::<crate::variant::International>(
            FeatureSet::Regions,
            "W:W31-50:B1-20 | 12 | 0.5",
        );
        d.push_line::<crate::variant::International>(FeatureSet::Regions, "garbage");
        d.push_line::<crate::variant::International>(
            FeatureSet::Regions,
            "W:W31-50:B1-20 | x | 0.5",
        );
        d.push_line::<crate::variant::International>(
            FeatureSet::Regions,
            "W:W31-50:B1-20 | 3 | 2.0",
        );
        d.push_line::<crate::variant::International>(FeatureSet::Regions, "W:WK1:BK50 | 0 | 0.5");
        assert_eq!(d.len(), 1);
        assert_eq!((d.lines, d.bad_lines, d.rule_endings), (5, 3, 1));
        assert_eq!(d.result, vec![0.5]);
        assert_eq!(d.phase, vec![40]);
        let (idx, _) = d.features(0);
        assert!(!idx.is_empty());
    }
}
