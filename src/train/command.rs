//! The `molkwar train` command: options, loading, the epoch report and
//! the weight file.

use super::{Model, TrainConfig, data, fit_scale, mean_loss, train};
use crate::eval::features::FeatureSet;
use crate::eval::weights::{Family, Weights};
use crate::variant::VariantKind;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Options of `molkwar train`.
#[derive(Args, Debug, Clone)]
pub struct TrainArgs {
    #[arg(long, default_value = "normal", help = crate::arena::variant_help("Variant of the data (a reading uses its variant's weights)"))]
    pub variant: String,
    /// Self-play files (`<fen> | <score> | <result>` lines).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// The weight file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Start from these weights (default: material values only); a file
    /// of an older feature set can start a model of a newer one (the
    /// features it lacks start at 0).
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Feature set to learn: 1 (8-square regions), 2 (and 12-square
    /// windows) or 3 (and the centre band), see docs/training.md.
    #[arg(long, default_value = "2")]
    pub features: FeatureSet,
    #[arg(long, default_value_t = 20)]
    pub epochs: u32,
    /// Adam step size at the first epoch, centi-men; it decays
    /// geometrically to a tenth by the last epoch.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f32,
    /// L2 penalty per weight (all but material). Generation 3 measured the
    /// default: weaker or none lets rare pattern weights run wild, stronger
    /// holds every pattern weight back (docs/training.md).
    #[arg(long, default_value_t = 3e-8)]
    pub l2: f32,
    /// Seed of the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Share of the positions held out for validation.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Weight of the game result in the target; the rest is the search
    /// score of the record.
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f32,
    /// Centi-men per logistic unit (default: fitted to the data's search
    /// scores and results).
    #[arg(long)]
    pub scale: Option<f32>,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// A weight is learnt only if its feature occurs, weighted by the
    /// weight's phase share, in at least this many training positions;
    /// rarer ones keep their start value (material is always learnt).
    #[arg(long, default_value_t = 0.0)]
    pub min_count: f32,
}

/// `molkwar train`.
pub fn run(a: &TrainArgs) -> Result<(), String> {
    let kind: VariantKind = a.variant.parse().map_err(|e| format!("{e}"))?;
    let family = Family::of(kind);
    let bad = |what: &str| Err(format!("--{what} is out of range"));
    if a.epochs == 0 || a.epochs > 100_000 {
        return bad("epochs");
    }
    if !(a.lr > 0.0 && a.lr.is_finite()) {
        return bad("lr");
    }
    if !(a.min_count >= 0.0 && a.min_count.is_finite()) {
        return bad("min-count");
    }
    if !(a.l2 >= 0.0 && a.l2.is_finite()) {
        return bad("l2");
    }
    if !(0.0..=0.9).contains(&a.validation) {
        return bad("validation");
    }
    if !(0.0..=1.0).contains(&a.lambda) {
        return bad("lambda");
    }
    if a.threads == 0 || a.threads > 64 {
        return bad("threads");
    }
    if a.batch == 0 {
        return bad("batch");
    }
    if a.scale.is_some_and(|s| !(s > 0.0 && s.is_finite())) {
        return bad("scale");
    }
    let t0 = std::time::Instant::now();
    let d = data::load(kind, a.features, &a.data, a.threads)?;
    eprintln!(
        "train: {} lines, {} positions, {} malformed, {} rule endings left out, {} features ({:.1} s)",
        d.lines,
        d.len(),
        d.bad_lines,
        d.rule_endings,
        d.idx.len(),
        t0.elapsed().as_secs_f64()
    );
    if d.len() < 10 {
        return Err("train: too few positions".into());
    }
    let fitted = fit_scale(&d);
    let scale = a.scale.unwrap_or(fitted);
    eprintln!("train: scale {scale:.1} (fitted to the search scores: {fitted:.1})");
    let cfg = TrainConfig {
        epochs: a.epochs,
        lr: a.lr,
        l2: a.l2,
        seed: a.seed,
        threads: a.threads,
        validation: a.validation,
        lambda: a.lambda,
        scale,
        batch: a.batch,
        min_count: a.min_count,
    };
    let mut m = match &a.init {
        Some(p) => Model::from_weights(
            &Weights::load(p, family).map_err(|e| e.to_string())?,
            a.features,
        )?,
        None => Model::material(kind, a.features),
    };
    let mut last_pct = -1i64;
    let (_, val) = train(
        &mut m,
        &d,
        &cfg,
        |r| {
            eprintln!(
                "\repoch {:3}/{}  train loss {:.5}  validation loss {:.5}  {:.1} s",
                r.epoch, cfg.epochs, r.train, r.validation, r.seconds
            );
        },
        |epoch, done| {
            let pct = (done * 100.0) as i64;
            if pct / 5 != last_pct / 5 {
                last_pct = pct;
                let bar = "#".repeat((pct / 5) as usize);
                eprint!("\repoch {epoch:3} [{bar:<20}] {pct:3}%");
                let _ = std::io::stderr().flush();
            }
        },
    );
    eprintln!(
        "train: validation loss of the hand-written static eval {:.5}, of the data's own search scores {:.5}",
        mean_loss(&d, &val, &cfg, |i| d.classic[i]),
        mean_loss(&d, &val, &cfg, |i| d.score[i])
    );
    m.to_weights(family).save(&a.out)?;
    eprintln!("train: wrote {}", a.out.display());
    Ok(())
}
