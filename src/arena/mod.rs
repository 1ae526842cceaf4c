//! Engine-vs-engine matches and self-play (`molkwar match`, `molkwar
//! openings`, `molkwar selfplay`): Hub engines as child processes
//! ([`engine_proc`]), clocks ([`clock`]), molkwar's rules as referee
//! ([`referee`]), opening sets ([`openings`]), PDN ([`pdn`]), Elo and LOS
//! ([`stats`]), the pentanomial SPRT ([`sprt`]), the match loop
//! ([`runner`]), the game logs of `--log` ([`transcript`]) and self-play
//! data ([`selfplay`]). This file holds the command-line options of the
//! three commands and their entry points.
//!
//! Examples:
//!
//! ```text
//! molkwar match --tc1 depth=6 --tc2 depth=4 --games 200 --pdn out.pdn
//! molkwar match --engine1 "./new hub" --engine2 "./old hub" --tc 10+0.1 \
//!     --concurrency 2 --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05
//! molkwar match --variant frisian --engine2 "scan hub" --dir2 /opt/scan \
//!     --param2 threads=1 --tc 40/60 --log logs/
//! molkwar openings --variant normal --plies 2,3 --max-score 0.3 --depth 10
//! molkwar selfplay --nodes 20000 --games 1000 --seed 17 --out data.txt
//! ```

pub mod clock;
pub mod engine_proc;
pub mod openings;
pub mod pdn;
pub mod referee;
pub mod resume;
pub mod rng;
pub mod runner;
pub mod selfplay;
pub mod sprt;
pub mod stats;
pub mod transcript;

use crate::hub::line::check_value;
use crate::variant::VariantKind;
use clap::Args;
use clock::TimeControl;
use engine_proc::{EngineSpec, split_command};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Options of `molkwar match`.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// First engine's command line (program and arguments); default: this
    /// molkwar in Hub mode. Scores and Elo are the first engine's.
    #[arg(long)]
    pub engine1: Option<String>,
    /// Second engine's command line; default: this molkwar in Hub mode.
    #[arg(long)]
    pub engine2: Option<String>,
    /// Names for the PDN and the report (default: program name).
    #[arg(long)]
    pub name1: Option<String>,
    #[arg(long)]
    pub name2: Option<String>,
    /// Working directories of the engine processes.
    #[arg(long)]
    pub dir1: Option<PathBuf>,
    #[arg(long)]
    pub dir2: Option<PathBuf>,
    /// `set-param` for the first engine, `name=value`; repeatable.
    #[arg(long, value_name = "NAME=VALUE")]
    pub param1: Vec<String>,
    /// `set-param` for the second engine, `name=value`; repeatable.
    #[arg(long, value_name = "NAME=VALUE")]
    pub param2: Vec<String>,
    /// Time control of both engines: depth=N, nodes=N, move-time=S, T+I
    /// (game time + increment) or M/T[+I] (M moves in T seconds, repeating).
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// Time control of the first engine only (overrides --tc).
    #[arg(long)]
    pub tc1: Option<String>,
    /// Time control of the second engine only (overrides --tc).
    #[arg(long)]
    pub tc2: Option<String>,
    #[arg(long, default_value = "normal", help = variant_help("Variant"))]
    pub variant: String,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Games played at the same time (each with its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seconds added to every allowance before a flag falls.
    #[arg(long, default_value_t = 0.1)]
    pub margin: f64,
    /// Seconds to wait for `done` under depth and node controls.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Opening file (one FEN or Hub position a line, `#` comments);
    /// default: the shipped set of the variant.
    #[arg(long)]
    pub openings: Option<String>,
    /// Write the games to this PDN file.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Resume a stopped match: the games already in the --pdn file are
    /// counted, not played again; the rest are played and appended. Give
    /// the same command: a game whose players' names, event, variant or
    /// opening (from the seed and the openings) differ is refused, but the
    /// engines' settings and time controls are not in the PDN to check.
    #[arg(long)]
    pub resume: bool,
    /// Play only rounds FIRST to LAST (1-based, both included) of the
    /// --games: a long match split over several runs or machines, each
    /// with its own PDN file. Games of other rounds found by --resume are
    /// still counted, so the concatenated files give the whole match's
    /// report (`--resume` with the full range).
    #[arg(long, value_name = "FIRST-LAST")]
    pub rounds: Option<String>,
    /// Write logs to this directory (created if needed): each game's whole
    /// conversation with both engines (`game-0001.log`, …) and each engine's
    /// stderr (`engine1-stderr.log`, `engine2-stderr.log`).
    #[arg(long, value_name = "DIR")]
    pub log: Option<PathBuf>,
    /// Seed of the opening order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start new engine processes for every game instead of `new-game`.
    #[arg(long)]
    pub restart: bool,
    /// Both engines ponder: after its move an engine searches the reply it
    /// expects (`go ponder`) until that reply comes (`ponder-hit`, its
    /// clock starts) or another does (`stop`, then a new search).
    #[arg(long)]
    pub ponder: bool,
    /// Stop early by a pentanomial SPRT in normalized Elo:
    /// `--sprt elo0=0 elo1=5 alpha=0.05 beta=0.05`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Adjudicate a win when both engines' scores agree on at least this
    /// many men for the same side for --resign-moves moves each.
    #[arg(long)]
    pub resign_score: Option<f64>,
    #[arg(long, default_value_t = 3)]
    pub resign_moves: u32,
    /// Adjudicate a draw when both engines' scores stay within ± this many
    /// men for --draw-moves moves each, from ply --draw-after on.
    #[arg(long)]
    pub draw_score: Option<f64>,
    #[arg(long, default_value_t = 10)]
    pub draw_moves: u32,
    #[arg(long, default_value_t = 40)]
    pub draw_after: u32,
    /// Declare a draw when a game reaches this many plies.
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// PDN Event tag.
    #[arg(long, default_value = "molkwar match")]
    pub event: String,
}

fn engine_spec(
    i: usize,
    cmd: &Option<String>,
    name: &Option<String>,
    dir: &Option<PathBuf>,
    params: &[String],
    tc: TimeControl,
) -> Result<EngineSpec, String> {
    let words = match cmd {
        Some(c) => split_command(c)?,
        None => {
            let me = std::env::current_exe()
                .map_err(|e| format!("cannot find the molkwar executable: {e}"))?;
            vec![me.to_string_lossy().into_owned(), "hub".into()]
        }
    };
    let Some((program, args)) = words.split_first() else {
        return Err(format!("--engine{i}: empty command"));
    };
    let params = params
        .iter()
        .map(|p| {
            let (k, v) = p
                .split_once('=')
                .filter(|(k, _)| !k.trim().is_empty())
                .ok_or_else(|| format!("--param{i}: '{p}' is not name=value"))?;
            // Refused here rather than sent altered.
            check_value(k)
                .and_then(|_| check_value(v))
                .map_err(|e| format!("--param{i}: '{p}': {e}"))?;
            Ok((k.trim().to_string(), v.to_string()))
        })
        .collect::<Result<Vec<_>, String>>()?;
    if let Some(d) = dir
        && !d.is_dir()
    {
        return Err(format!("--dir{i}: '{}' is not a directory", d.display()));
    }
    let stem = std::path::Path::new(program)
        .file_stem()
        .map_or(program.clone(), |s| s.to_string_lossy().into_owned());
    Ok(EngineSpec {
        name: name.clone().unwrap_or(stem),
        program: program.clone(),
        args: args.to_vec(),
        dir: dir.clone(),
        params,
        tc,
    })
}

fn positive(name: &str, x: f64) -> Result<f64, String> {
    if x.is_finite() && x >= 0.0 {
        Ok(x)
    } else {
        Err(format!("{name}: {x} must be a non-negative number"))
    }
}

/// An optional score in men: any finite number (NaN would silently switch
/// the adjudication off).
fn score(name: &str, x: Option<f64>) -> Result<Option<f64>, String> {
    match x {
        Some(s) if !s.is_finite() => Err(format!("{name}: {s} is not a score in men")),
        _ => Ok(x.map(f64::abs)),
    }
}

/// Builds the match configuration from the options.
pub fn match_config(a: &MatchArgs) -> Result<runner::MatchConfig, String> {
    let variant: VariantKind = a.variant.parse().map_err(|e| format!("{e}"))?;
    if variant.reading_of().is_some() {
        return Err(engine_proc::only_listed_variants());
    }
    let tc = |s: &Option<String>| TimeControl::parse(s.as_deref().unwrap_or(&a.tc));
    let mut e1 = engine_spec(1, &a.engine1, &a.name1, &a.dir1, &a.param1, tc(&a.tc1)?)?;
    let mut e2 = engine_spec(2, &a.engine2, &a.name2, &a.dir2, &a.param2, tc(&a.tc2)?)?;
    if e1.name == e2.name {
        if e1.tc != e2.tc {
            e1.name = format!("{} {}", e1.name, e1.tc);
            e2.name = format!("{} {}", e2.name, e2.tc);
        } else {
            e1.name.push_str("-1");
            e2.name.push_str("-2");
        }
    }
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if a.concurrency == 0 || a.concurrency > 256 {
        return Err("--concurrency must be in 1..256".into());
    }
    let rounds = match &a.rounds {
        Some(r) => parse_rounds(r, a.games)?,
        None => 0..a.games,
    };
    let sprt = match &a.sprt {
        Some(words) => Some(sprt::Sprt::parse(&words.join(" "))?),
        None => None,
    };
    let move_timeout = clock::seconds("--move-timeout", a.move_timeout)?;
    if move_timeout == 0.0 {
        return Err("--move-timeout must be positive".into());
    }
    Ok(runner::MatchConfig {
        engines: [e1, e2],
        games: a.games,
        concurrency: a.concurrency,
        openings: openings::load(a.openings.as_deref(), variant)?,
        seed: a.seed,
        pdn: a.pdn.clone(),
        log: a.log.clone(),
        settings: referee::Settings {
            variant,
            margin: clock::seconds("--margin", a.margin)?,
            move_timeout: Duration::from_secs_f64(move_timeout),
            adjudication: referee::Adjudication {
                resign_score: score("--resign-score", a.resign_score)?,
                resign_moves: a.resign_moves,
                draw_score: score("--draw-score", a.draw_score)?,
                draw_moves: a.draw_moves,
                draw_after: a.draw_after,
                max_plies: a.max_plies,
            },
            ponder: a.ponder,
        },
        sprt,
        reuse: !a.restart,
        event: a.event.clone(),
        resume: a.resume,
        rounds,
    })
}

/// `FIRST-LAST`, 1-based and inclusive, as the 0-based range of game
/// indices it names; it must lie within the match's `games`.
fn parse_rounds(s: &str, games: u32) -> Result<std::ops::Range<u32>, String> {
    let bad = || format!("--rounds '{s}': expected FIRST-LAST with 1 <= FIRST <= LAST <= {games}");
    let (first, last) = s.split_once('-').ok_or_else(bad)?;
    let first: u32 = first.trim().parse().map_err(|_| bad())?;
    let last: u32 = last.trim().parse().map_err(|_| bad())?;
    if first == 0 || first > last || last > games {
        return Err(bad());
    }
    Ok(first - 1..last)
}

/// Log messages of `molkwar match` (such as the lines an engine prints
/// before `ready`) and `molkwar dxp` go to stderr at info level, or as
/// `RUST_LOG` says.
pub(crate) fn init_match_logging() {
    let env = env_logger::Env::default().default_filter_or("info");
    let _ = env_logger::Builder::from_env(env)
        .format(|buf, r| {
            writeln!(
                buf,
                "molkwar: {}: {}",
                r.level().as_str().to_lowercase(),
                r.args()
            )
        })
        .try_init();
}

/// `molkwar match`.
pub fn run_match(a: &MatchArgs) -> Result<(), String> {
    let cfg = match_config(a)?;
    init_match_logging();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "Match {} ({}) vs {} ({}), {} games of {}, {} openings, concurrency {}",
        cfg.engines[0].name,
        cfg.engines[0].tc,
        cfg.engines[1].name,
        cfg.engines[1].tc,
        cfg.games,
        cfg.settings.variant,
        cfg.openings.len(),
        cfg.concurrency
    );
    let summary = runner::run(&cfg, &mut out)?;
    let _ = write!(out, "{}", runner::report(&cfg, &summary));
    Ok(())
}

/// Options of `molkwar openings`.
#[derive(Args, Debug, Clone)]
pub struct OpeningsArgs {
    #[arg(long, default_value = "normal", help = variant_help("Variant"))]
    pub variant: String,
    /// Plies from the start; every distinct position after each is a candidate.
    #[arg(long, value_delimiter = ',', default_value = "2,3")]
    pub plies: Vec<u32>,
    /// Keep positions a search scores within ± this many men.
    #[arg(long, default_value_t = 0.3)]
    pub max_score: f64,
    /// Search depth of that check.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Output file (default: standard output). It is written as
    /// `<out>.part` and renamed when the run is complete, so an existing
    /// `<out>` is always a whole shard.
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub eval: EvalArgs,
}

/// `molkwar openings`.
pub fn run_openings(a: &OpeningsArgs) -> Result<(), String> {
    let variant: VariantKind = a.variant.parse().map_err(|e| format!("{e}"))?;
    if a.plies.is_empty() || a.plies.iter().any(|&p| p == 0 || p > 6) {
        return Err("--plies: give plies in 1..6, e.g. 2,3".into());
    }
    if a.depth == 0 || a.depth > 30 {
        return Err("--depth must be in 1..30".into());
    }
    let max = positive("--max-score", a.max_score)?;
    let found = openings::generate(
        variant,
        &a.plies,
        (max * 100.0).round() as i32,
        a.depth,
        |d, t| {
            eprintln!("openings: {d}/{t} positions searched");
        },
    );
    let plies: Vec<String> = a.plies.iter().map(|p| p.to_string()).collect();
    let header = vec![
        format!(
            "molkwar openings, {variant}: distinct positions after {} plies whose depth-{} score is within ±{max:.2} men ({} positions)",
            plies.join(" and "),
            a.depth,
            found.len()
        ),
        format!(
            "regenerate: molkwar openings --variant {variant} --plies {} --max-score {max} --depth {}",
            plies.join(","),
            a.depth
        ),
        "format: FEN # moves from the start, score in men from White's side".into(),
    ];
    let text = openings::format_file(&header, &found);
    match &a.out {
        Some(p) => {
            std::fs::write(p, text).map_err(|e| format!("cannot write '{}': {e}", p.display()))
        }
        None => {
            let mut o = std::io::stdout().lock();
            o.write_all(text.as_bytes())
                .map_err(|e| format!("cannot write: {e}"))
        }
    }
}

/// The `--help` text of a `--variant` option: `what`, then the names of the
/// variant registry, so that a new variant is listed everywhere. (The value
/// stays a string read with `VariantKind::from_str`, so that a bad name
/// fails like every other bad option: `molkwar: …`, status 1.)
pub fn variant_help(what: &str) -> String {
    let names: Vec<String> = VariantKind::ALL
        .iter()
        .map(|v| match v.reading_of() {
            Some(of) => format!("{v} (= {of} with frisian-king-rows, docs/rules.md D1)"),
            None => v.to_string(),
        })
        .collect();
    format!("{what}: {}", names.join(", "))
}

/// The evaluation options of `analyze`, `bench`, `selfplay` and `train`.
#[derive(Args, Debug, Clone, Default)]
pub struct EvalArgs {
    /// Evaluation: trained (the default, embedded weights) or classic (the
    /// hand-written evaluator the first training data came from).
    #[arg(long, default_value = "trained")]
    pub eval: String,
    /// A weight file to use instead of the embedded weights of its variant
    /// family.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

impl EvalArgs {
    /// The evaluation asked for.
    pub fn choice(&self) -> Result<crate::eval::EvalChoice, String> {
        Ok(crate::eval::EvalChoice {
            classic: crate::eval::EvalChoice::parse_kind(&self.eval)?,
            file: self.eval_file.clone(),
        })
    }
}

/// Options of `molkwar selfplay`.
#[derive(Args, Debug, Clone)]
pub struct SelfplayArgs {
    #[arg(long, default_value = "normal", help = variant_help("Variant"))]
    pub variant: String,
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Seed of the openings; a run is deterministic for its seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Nodes per move.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Random plies after the (random) shipped opening.
    #[arg(long, default_value_t = 2)]
    pub random_plies: u32,
    /// Each move's node limit is drawn uniformly from nodes · (1 ± this),
    /// 0 ≤ F < 1, from the game's seed. Without it a game is fixed by its
    /// start: with a few hundred openings and two random plies, large runs
    /// repeat the same games (docs/training.md, "Diversity").
    #[arg(long, default_value_t = 0.0)]
    pub nodes_spread: f64,
    /// Games reaching this many plies count as draws.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Transposition table per game thread, log2 of the entries (16..30).
    #[arg(long, default_value_t = 20)]
    pub tt_size: u32,
    /// Output file (default: standard output). It is written as
    /// `<out>.part` and renamed when the run is complete, so an existing
    /// `<out>` is always a whole shard.
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub eval: EvalArgs,
}

/// `molkwar selfplay`.
pub fn run_selfplay(a: &SelfplayArgs) -> Result<(), String> {
    let variant: VariantKind = a.variant.parse().map_err(|e| format!("{e}"))?;
    if a.depth == Some(0) || a.nodes == Some(0) {
        return Err("--depth and --nodes must be positive".into());
    }
    if !(0.0..1.0).contains(&a.nodes_spread) {
        return Err("--nodes-spread must be in 0..1".into());
    }
    if a.concurrency == 0 || a.concurrency > 256 {
        return Err("--concurrency must be in 1..256".into());
    }
    let cfg = selfplay::SelfplayConfig {
        variant,
        games: a.games,
        seed: a.seed,
        depth: a.depth,
        nodes: a.nodes,
        random_plies: a.random_plies,
        nodes_spread: a.nodes_spread,
        max_plies: a.max_plies,
        concurrency: a.concurrency,
        tt_size: a.tt_size.clamp(16, 30),
        eval: a.eval.choice()?,
    };
    let started = std::time::Instant::now();
    let mut last = 0.0f64;
    let progress = |t: &selfplay::SelfplayTotals| {
        let secs = started.elapsed().as_secs_f64();
        if secs - last >= 5.0 || t.games == a.games {
            last = secs;
            let rate = t.games as f64 / secs.max(1e-9);
            let eta = (a.games - t.games) as f64 / rate.max(1e-9);
            eprintln!(
                "selfplay: {}/{} games, {} positions ({:.0}/s), {:.0} s, ETA {:.0} s",
                t.games,
                a.games,
                t.positions,
                t.positions as f64 / secs.max(1e-9),
                secs,
                eta
            );
        }
    };
    let t = match &a.out {
        Some(p) => {
            let mut part = p.clone().into_os_string();
            part.push(".part");
            let part = PathBuf::from(part);
            let f = std::fs::File::create(&part)
                .map_err(|e| format!("cannot create '{}': {e}", part.display()))?;
            let t = selfplay::run(&cfg, &mut std::io::BufWriter::new(f), progress)?;
            std::fs::rename(&part, p)
                .map_err(|e| format!("cannot rename '{}': {e}", part.display()))?;
            t
        }
        None => selfplay::run(&cfg, &mut std::io::stdout().lock(), progress)?,
    };
    eprintln!(
        "selfplay: {} games (White {} / draws {} / Black {}), {} positions",
        t.games, t.white_wins, t.draws, t.black_wins, t.positions
    );
    Ok(())
}
