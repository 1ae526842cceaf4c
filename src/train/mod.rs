//! `molkwar train`: fits the trained evaluator's weights to self-play
//! records by logistic regression. The predicted score s (centi-men,
//! White's side) is the phase-interpolated dot product of the features with
//! the weights; the model is P(White wins) = σ(s / scale); the target is the
//! game result blended with σ(search score / scale). Adam over shuffled
//! mini-batches, L2 on the weights, gradients computed on several threads
//! and summed in a fixed order, so a run is deterministic for its seed.

pub mod command;
pub mod data;

use crate::arena::rng::Rng;
use crate::eval::features::{self, FeatureSet, PHASE_MAX};
use crate::eval::king_value;
use crate::eval::weights::{Family, UNIT, Weights};
use crate::variant::VariantKind;
use data::DataSet;
use std::time::Instant;

/// The weights (opening and ending of each feature) of material: the
/// features before [`features::TURN`]. They are always learnt and never
/// penalised.
const MATERIAL_WEIGHTS: usize = 2 * features::TURN;

/// Which of the `2 · COUNT` weights (opening, ending per feature) the
/// training set `tr` shows often enough to learn: Adam moves every weight
/// by about the step size whatever its gradient's size, so a weight fitted
/// to a handful of positions (or to the phase share of a feature that only
/// occurs at the other end of the game) takes a large arbitrary value that
/// the search then meets in positions unlike the data.
fn learnt_weights(d: &DataSet, tr: &[u32], count: usize, min_count: f32) -> Vec<bool> {
    let mut seen = vec![0.0f32; 2 * count];
    if min_count > 0.0 {
        for &i in tr {
            let ph = d.phase[i as usize] as f32 / PHASE_MAX as f32;
            for &j in d.features(i as usize).0 {
                seen[2 * j as usize] += ph;
                seen[2 * j as usize + 1] += 1.0 - ph;
            }
        }
    }
    seen.iter()
        .enumerate()
        .map(|(k, &c)| k < MATERIAL_WEIGHTS || c >= min_count)
        .collect()
}

/// Settings of a training run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    pub epochs: u32,
    /// Adam step size at the first epoch, centi-men (decays to a tenth
    /// by the last).
    pub lr: f32,
    /// L2 penalty per weight.
    pub l2: f32,
    pub seed: u64,
    pub threads: usize,
    /// Share of the positions held out for validation.
    pub validation: f64,
    /// Weight of the game result in the target (the rest: search score).
    pub lambda: f32,
    /// Centi-men per logistic unit.
    pub scale: f32,
    pub batch: usize,
    /// Phase-weighted occurrences a weight needs in the training set to be
    /// learnt (0: every weight).
    pub min_count: f32,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 20,
            lr: 1.0,
            l2: 3e-8,
            seed: 1,
            threads: 2,
            validation: 0.05,
            lambda: 0.5,
            scale: 200.0,
            batch: 16384,
            min_count: 0.0,
        }
    }
}

/// Weights while training: per feature (opening, ending), centi-men.
pub struct Model {
    pub set: FeatureSet,
    pub w: Vec<[f32; 2]>,
}

impl Model {
    /// Material only: a man 100, a king its hand-written value.
    pub fn material(kind: VariantKind, set: FeatureSet) -> Model {
        let mut w = vec![[0.0; 2]; set.count()];
        let king = king_value(kind) as f32;
        w[features::MEN] = [100.0; 2];
        w[features::FIRST_KING] = [king; 2];
        w[features::MORE_KINGS] = [king; 2];
        Model { set, w }
    }

    /// Starts from a weight file (the previous generation) for `set`: a
    /// file of an older set gives its weights to the features the sets
    /// share (each set begins with the one before it) and 0 to the rest.
    pub fn from_weights(w: &Weights, set: FeatureSet) -> Result<Model, String> {
        if w.all().len() > set.count() {
            return Err(format!(
                "weights of feature set {} cannot start a model of set {}",
                w.feature_set().id(),
                set.id()
            ));
        }
        let mut m: Vec<[f32; 2]> = w
            .all()
            .iter()
            .map(|[o, e]| [*o as f32 / UNIT as f32, *e as f32 / UNIT as f32])
            .collect();
        m.resize(set.count(), [0.0; 2]);
        Ok(Model { set, w: m })
    }

    /// The weight file image.
    pub fn to_weights(&self, family: Family) -> Weights {
        let q = |x: f32| {
            (x * UNIT as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        Weights::new(
            family,
            self.set,
            self.w.iter().map(|[o, e]| [q(*o), q(*e)]).collect(),
        )
    }

    /// Predicted score of position `i`, centi-men, White's side.
    #[inline]
    fn predict(&self, d: &DataSet, i: usize) -> f32 {
        let (idx, val) = d.features(i);
        let (mut o, mut e) = (0.0f32, 0.0f32);
        for (&j, &v) in idx.iter().zip(val) {
            let [wo, we] = self.w[j as usize];
            o += wo * v as f32;
            e += we * v as f32;
        }
        let p = d.phase[i] as f32 / PHASE_MAX as f32;
        o * p + e * (1.0 - p)
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of prediction p against target y.
fn cross_entropy(y: f32, p: f32) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6) as f64;
    let y = y as f64;
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// The training target of position `i`.
#[inline]
fn target(d: &DataSet, i: usize, cfg: &TrainConfig) -> f32 {
    cfg.lambda * d.result[i] + (1.0 - cfg.lambda) * sigmoid(d.score[i] / cfg.scale)
}

/// Mean loss over `set` of the scores `score(i)` (centi-men, White's side).
pub fn mean_loss(d: &DataSet, set: &[u32], cfg: &TrainConfig, score: impl Fn(usize) -> f32) -> f64 {
    let total: f64 = set
        .iter()
        .map(|&i| {
            let i = i as usize;
            cross_entropy(target(d, i, cfg), sigmoid(score(i) / cfg.scale))
        })
        .sum();
    total / set.len().max(1) as f64
}

/// Mean loss of the model over `set`.
pub fn loss(m: &Model, d: &DataSet, set: &[u32], cfg: &TrainConfig) -> f64 {
    mean_loss(d, set, cfg, |i| m.predict(d, i))
}

/// The scale (centi-men per logistic unit) that best predicts the results
/// from the search scores: the natural unit of the data's engine.
pub fn fit_scale(d: &DataSet) -> f32 {
    let cost = |k: f32| -> f64 {
        (0..d.len())
            .map(|i| cross_entropy(d.result[i], sigmoid(d.score[i].clamp(-2000.0, 2000.0) / k)))
            .sum()
    };
    // Golden-section search on [20, 2000].
    let (mut a, mut b) = (20.0f32, 2000.0f32);
    let g = 0.618_034f32;
    for _ in 0..40 {
        let (c, e) = (b - g * (b - a), a + g * (b - a));
        if cost(c) < cost(e) {
            b = e;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// One thread's gradient of a batch: dense over the first `dense`
/// entries, and over the rest the entries it touched, listed once each.
struct Grad {
    g: Vec<f32>,
    dense: usize,
    /// The sparse entries with a gradient in this batch (each opening
    /// index `2j` stands for the pair `2j, 2j + 1`), and their marks.
    touched: Vec<u32>,
    mark: Vec<bool>,
}

impl Grad {
    fn new(n: usize, dense: usize) -> Grad {
        Grad {
            g: vec![0.0; n],
            dense,
            touched: Vec::new(),
            mark: vec![false; n - dense],
        }
    }

    /// Adds the opening and ending gradients of feature pair `k, k + 1`.
    #[inline]
    fn add(&mut self, k: usize, go: f32, ge: f32) {
        if k >= self.dense && !std::mem::replace(&mut self.mark[k - self.dense], true) {
            self.touched.extend([k as u32, k as u32 + 1]);
            self.mark[k + 1 - self.dense] = true;
        }
        self.g[k] += go;
        self.g[k + 1] += ge;
    }
}

/// One epoch line of the training report.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochReport {
    pub epoch: u32,
    pub train: f64,
    pub validation: f64,
    pub seconds: f64,
}

/// Trains `m` on `d`; calls `report` after every epoch. Returns the
/// training and validation position indices used.
pub fn train(
    m: &mut Model,
    d: &DataSet,
    cfg: &TrainConfig,
    mut report: impl FnMut(&EpochReport),
    mut progress: impl FnMut(u32, f64),
) -> (Vec<u32>, Vec<u32>) {
    let mut rng = Rng::for_index(cfg.seed, 0);
    let mut order: Vec<u32> = (0..d.len() as u32).collect();
    rng.shuffle(&mut order);
    let n_val = ((d.len() as f64) * cfg.validation.clamp(0.0, 0.9)).round() as usize;
    let val = order[..n_val].to_vec();
    let mut tr = order[n_val..].to_vec();
    let threads = cfg.threads.clamp(1, 64);
    let n = 2 * m.w.len();
    // Set 1's weights are updated densely every step (untouched weights
    // keep moving with their momentum); the large window tables of set 2
    // lazily, only where the batch has a gradient (sparse Adam), which
    // keeps a step's cost in proportion to the batch, not to the tables.
    let dense = (2 * features::COUNT).min(n);
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::new(n, dense)).collect();
    let mut done = vec![false; n - dense];
    let (mut am, mut av) = (vec![0.0f32; n], vec![0.0f32; n]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let learnt = learnt_weights(d, &tr, m.w.len(), cfg.min_count);
    let mut step = 0i32;
    let start = Instant::now();
    for epoch in 1..=cfg.epochs {
        rng.shuffle(&mut tr);
        // The step size decays geometrically to a tenth over the run.
        let lr = cfg.lr * 0.1f32.powf((epoch - 1) as f32 / (cfg.epochs.max(2) - 1) as f32);
        let mut train_loss = 0.0f64;
        let batches = tr.chunks(cfg.batch.max(1)).count();
        for (bi, batch) in tr.chunks(cfg.batch.max(1)).enumerate() {
            let per = batch.len().div_ceil(threads);
            let model = &*m;
            let losses: Vec<f64> = std::thread::scope(|scope| {
                let hs: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(per.max(1)))
                    .map(|(g, part)| {
                        scope.spawn(move || {
                            g.g[..dense].iter_mut().for_each(|x| *x = 0.0);
                            let mut l = 0.0f64;
                            for &i in part {
                                let i = i as usize;
                                let y = target(d, i, cfg);
                                let p = sigmoid(model.predict(d, i) / cfg.scale);
                                l += cross_entropy(y, p);
                                let gs = (p - y) / cfg.scale;
                                let ph = d.phase[i] as f32 / PHASE_MAX as f32;
                                let (go, ge) = (gs * ph, gs * (1.0 - ph));
                                let (idx, val) = d.features(i);
                                for (&j, &v) in idx.iter().zip(val) {
                                    g.add(2 * j as usize, go * v as f32, ge * v as f32);
                                }
                            }
                            l
                        })
                    })
                    .collect();
                hs.into_iter().map(|h| h.join().unwrap_or(0.0)).collect()
            });
            train_loss += losses.iter().sum::<f64>();
            // Sum the threads' gradients in a fixed order, then one Adam step.
            let used = batch.len().div_ceil(per.max(1)).min(threads);
            let grads = &mut grads[..used];
            let inv = 1.0 / batch.len() as f32;
            step += 1;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            let mut update = |k: usize, g: f32| {
                if !learnt[k] {
                    return;
                }
                let w = &mut m.w[k / 2][k % 2];
                let g = g * inv + cfg.l2 * *w * (k >= MATERIAL_WEIGHTS) as u8 as f32;
                am[k] = b1 * am[k] + (1.0 - b1) * g;
                av[k] = b2 * av[k] + (1.0 - b2) * g * g;
                let mh = am[k] / c1;
                let vh = av[k] / c2;
                *w -= lr * mh / (vh.sqrt() + eps);
            };
            for k in 0..dense {
                update(k, grads.iter().map(|t| t.g[k]).sum());
            }
            for t in 0..grads.len() {
                for x in 0..grads[t].touched.len() {
                    let k = grads[t].touched[x] as usize;
                    if !std::mem::replace(&mut done[k - dense], true) {
                        update(k, grads.iter().map(|t| t.g[k]).sum());
                    }
                }
            }
            for t in grads.iter_mut() {
                for k in t.touched.drain(..) {
                    let k = k as usize;
                    t.g[k] = 0.0;
                    t.mark[k - dense] = false;
                    done[k - dense] = false;
                }
            }
            progress(epoch, (bi + 1) as f64 / batches as f64);
        }
        let r = EpochReport {
            epoch,
            train: train_loss / tr.len().max(1) as f64,
            validation: loss(m, d, &val, cfg),
            seconds: start.elapsed().as_secs_f64(),
        };
        report(&r);
    }
    (tr, val)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::selfplay::{self, SelfplayConfig};
    use crate::eval::EvalChoice;

    #[test]
    fn training_on_a_small_generated_set_lowers_the_loss() {
        let cfg = SelfplayConfig {
            variant: VariantKind::International,
            games: 12,
            seed: 9,
            depth: Some(2),
            nodes: None,
            random_plies: 4,
            nodes_spread: 0.0,
            max_plies: 200,
            concurrency: 2,
            tt_size: 16,
            eval: EvalChoice {
                classic: true,
                file: None,
            },
        };
        let mut out = Vec::new();
        selfplay::run(&cfg, &mut out, |_| {}).unwrap();
        let dir = std::env::temp_dir().join(format!("molkwar-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("d.txt");
        std::fs::write(&file, &out).unwrap();
        let d = data::load(VariantKind::International, FeatureSet::Regions, &[file], 2).unwrap();
        assert!(d.len() > 200, "{}", d.len());
        let tc = TrainConfig {
            epochs: 8,
            batch: 256,
            validation: 0.0,
            ..TrainConfig::default()
        };
        let all: Vec<u32> = (0..d.len() as u32).collect();
        let mut m = Model::material(VariantKind::International, FeatureSet::Regions);
        let before = loss(&m, &d, &all, &tc);
        let mut reports = Vec::new();
        train(&mut m, &d, &tc, |r| reports.push(r.clone()), |_, _| {});
        let after = loss(&m, &d, &all, &tc);
        assert!(after < before * 0.97, "{before} -> {after}");
        assert!(reports.last().unwrap().train < reports[0].train);
        // Deterministic for its seed.
        let mut m2 = Model::material(VariantKind::International, FeatureSet::Regions);
        train(&mut m2, &d, &tc, |_| {}, |_, _| {});
        assert_eq!(m.w, m2.w);
        // Weights the data shows too rarely keep their start value.
        let rare = TrainConfig {
            epochs: 2,
            min_count: 50.0,
            ..tc.clone()
        };
        let mut m3 = Model::material(VariantKind::International, FeatureSet::Regions);
        train(&mut m3, &d, &rare, |_| {}, |_, _| {});
        let seen = learnt_weights(&d, &all, m3.w.len(), 50.0);
        let start = Model::material(VariantKind::International, FeatureSet::Regions);
        let (mut kept, mut moved) = (0, 0);
        for (k, &learnt) in seen.iter().enumerate().skip(MATERIAL_WEIGHTS) {
            let (a, b) = (m3.w[k / 2][k % 2], start.w[k / 2][k % 2]);
            if !learnt {
                assert_eq!(a, b, "weight {k} learnt from too few positions");
                kept += 1;
            } else if a != b {
                moved += 1;
            }
        }
        assert!(kept > 0 && moved > 0, "{kept} kept, {moved} moved");
        // The weight file round trip keeps the model (to its units).
        let w = m.to_weights(Family::International);
        let back = Model::from_weights(&w, FeatureSet::Regions).unwrap();
        for (a, b) in m.w.iter().zip(&back.w) {
            assert!((a[0] - b[0]).abs() <= 0.5 / UNIT as f32 + 1e-3);
        }
    }
}
