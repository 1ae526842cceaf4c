//! Command-line interface: argument parsing (clap) and the `perft` and
//! `show` tools. Every error is a message on stderr and a non-zero exit.

use clap::{Args, Parser, Subcommand};
use molkwar::board::{fen, notation};
use molkwar::game::Game;
use molkwar::variant::VariantKind;
use molkwar::{Color, Position, perft, with_variant};
use std::time::Instant;

/// molkwar — an International and Frisian draughts engine (Hub protocol).
#[derive(Parser, Debug)]
#[command(name = "molkwar", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the legal move tree (rules check and speed).
    Perft(PerftArgs),
    /// Print a position: board, Hub and FEN strings, legal moves, counters.
    Show(PositionArgs),
    /// Annotate the games of a PDN file: the engine's evaluation after
    /// every move, and its better move where the move played loses.
    Annotate(AnnotateArgs),
    /// Search a fixed set of positions to a fixed depth (speed, signature).
    Bench(BenchArgs),
    /// Search a position, one line per iteration, then the best move.
    Analyze(AnalyzeArgs),
    /// Play two Hub engines against each other (openings, clocks, referee,
    /// PDN, Elo, SPRT).
    Match(Box<molkwar::arena::MatchArgs>),
    /// Generate an opening set (distinct positions after a few plies,
    /// balanced by a short search).
    Openings(molkwar::arena::OpeningsArgs),
    /// Self-play games writing `<fen> | <score> | <result>` lines (training
    /// data: quiet positions only).
    Selfplay(molkwar::arena::SelfplayArgs),
    /// Fit the trained evaluator's weights to self-play data.
    Train(Box<molkwar::train::command::TrainArgs>),
    /// Opening book: build from molkwar's own search, probe (docs/book.md).
    #[command(subcommand)]
    Book(molkwar::book::command::BookCommand),
    /// Endgame databases: build, verify, probe (docs/egdb.md).
    #[command(subcommand)]
    Egdb(molkwar::egdb::command::EgdbCommand),
    /// Play other programs over DXP (DamExchange, TCP): `--listen` to
    /// follow, `--connect` to play a series (International only).
    Dxp(Box<molkwar::dxp::DxpArgs>),
    /// Hub protocol mode (also the default): `--log <file>`, and
    /// `--name=value` engine parameters (unknown ones are ignored).
    Hub(HubArgs),
}

/// Arguments of `hub`, read by the hub module itself so that any
/// `--name=value` is accepted.
#[derive(Args, Debug)]
struct HubArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    args: Vec<String>,
}

#[derive(Args, Debug)]
struct AnnotateArgs {
    /// The PDN file to annotate.
    input: std::path::PathBuf,
    /// Seconds of search per position (1 when --depth is not given).
    #[arg(long)]
    time: Option<f64>,
    /// Depth limit in plies.
    #[arg(long)]
    depth: Option<u32>,
    #[arg(long, default_value = "normal", help = molkwar::arena::variant_help("Variant of the games without a GameType tag"))]
    variant: String,
    /// Write the annotated games to this file instead of stdout.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Loss in men from which the engine's better move is added to a
    /// move's comment.
    #[arg(long, default_value_t = 0.3)]
    blunder: f64,
    #[command(flatten)]
    eval: molkwar::arena::EvalArgs,
}

/// Where the position comes from.
#[derive(Args, Debug, Clone)]
struct PositionArgs {
    #[arg(long, default_value = "normal", help = molkwar::arena::variant_help("Variant"))]
    variant: String,
    /// Start position as a 51-character Hub string.
    #[arg(long, conflicts_with = "fen")]
    pos: Option<String>,
    /// Start position as a PDN FEN (W:W31-50:B1-20).
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first, space separated (Hub or PDN notation).
    #[arg(long)]
    moves: Option<String>,
}

#[derive(Args, Debug)]
struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// For the last depth, print the leaf count below every legal move.
    #[arg(long)]
    divide: bool,
    /// Play every leaf move instead of counting the last ply's moves.
    #[arg(long)]
    no_bulk: bool,
    /// Depth in plies.
    depth: u32,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Depth in plies.
    #[arg(long, default_value_t = molkwar::bench::DEFAULT_DEPTH)]
    depth: u32,
    #[command(flatten)]
    eval: molkwar::arena::EvalArgs,
}

#[derive(Args, Debug)]
struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Depth limit in plies.
    #[arg(long)]
    depth: Option<u32>,
    /// Time limit in seconds (10 when no depth, time or node limit is given).
    #[arg(long)]
    time: Option<f64>,
    /// Node limit.
    #[arg(long)]
    nodes: Option<u64>,
    /// Best lines to show (multi-PV): line k is the best line among the
    /// moves the lines before it do not start with; each iteration prints
    /// its lines in order, `line k` in front.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    multipv: u16,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size, log2 of the entry count (16..30).
    #[arg(long, default_value_t = molkwar::search::Engine::DEFAULT_TT_LOG2)]
    tt_size: u32,
    #[command(flatten)]
    eval: molkwar::arena::EvalArgs,
    /// Endgame table directory (docs/egdb.md); without it, no tables.
    #[arg(long)]
    egdb: Option<std::path::PathBuf>,
    /// Most pieces probed in the endgame tables.
    #[arg(long, default_value_t = 4)]
    egdb_pieces: u32,
}

impl PositionArgs {
    fn game(&self) -> Result<Game, String> {
        let variant: VariantKind = self.variant.parse().map_err(|e| format!("{e}"))?;
        Game::set_up(
            variant,
            self.pos.as_deref(),
            self.fen.as_deref(),
            self.moves.as_deref(),
        )
    }
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let result = match cli.command {
        Some(Command::Perft(a)) => run_perft(&a),
        Some(Command::Show(a)) => run_show(&a),
        Some(Command::Annotate(a)) => run_annotate(&a),
        Some(Command::Bench(a)) => run_bench(&a),
        Some(Command::Analyze(a)) => run_analyze(&a),
        Some(Command::Match(a)) => molkwar::arena::run_match(&a),
        Some(Command::Openings(a)) => molkwar::arena::run_openings(&a),
        Some(Command::Selfplay(a)) => molkwar::arena::run_selfplay(&a),
        Some(Command::Train(a)) => molkwar::train::command::run(&a),
        Some(Command::Book(c)) => molkwar::book::command::run(&c),
        Some(Command::Egdb(c)) => molkwar::egdb::command::run(&c),
        Some(Command::Dxp(a)) => molkwar::dxp::run(&a),
        Some(Command::Hub(a)) => return molkwar::hub::run(&a.args),
        None => return molkwar::hub::run(&[]),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("molkwar: {e}");
            1
        }
    }
}

fn run_perft(a: &PerftArgs) -> Result<(), String> {
    let game = a.position.game()?;
    let pos = *game.position();
    let bulk = !a.no_bulk;
    with_variant!(game.variant(), V => {
        for d in 1..=a.depth {
            let t = Instant::now();
            let n = perft::perft::<V>(&pos, d, bulk);
            let s = t.elapsed().as_secs_f64();
            println!("depth {d} leaves {n} time {s:.3} s speed {:.1} M/s", n as f64 / s.max(1e-9) / 1e6);
        }
        if a.divide && a.depth > 0 {
            let mut total = 0;
            for (mv, n) in perft::divide::<V>(&pos, a.depth, bulk) {
                println!("{mv} {n}");
                total += n;
            }
            println!("total {total}");
        }
    });
    Ok(())
}

fn run_annotate(a: &AnnotateArgs) -> Result<(), String> {
    let variant: VariantKind = a.variant.parse().map_err(|e| format!("{e}"))?;
    if let Some(t) = a.time {
        molkwar::arena::clock::seconds("--time", t)?;
    }
    if a.depth == Some(0) {
        return Err("--depth must be at least 1".into());
    }
    if !(a.blunder.is_finite() && (0.0..=100.0).contains(&a.blunder)) {
        return Err("--blunder: a number of men in 0..100".into());
    }
    let mut engine = molkwar::search::Engine::new();
    engine.set_threads(a.threads);
    engine.set_eval_choice(&a.eval.choice()?)?;
    let opts = molkwar::annotate::Options {
        depth: a.depth,
        time: a.time,
        blunder: (a.blunder * 100.0).round() as molkwar::search::Score,
        variant,
    };
    molkwar::annotate::run(&a.input, a.out.as_deref(), &mut engine, &opts)
}

fn board_ascii(pos: &Position) -> String {
    let mut s = String::new();
    for r in 0..10 {
        s.push_str(&format!("{:>2} ", 10 - r));
        for c in 0..10 {
            let ch = match molkwar::Square::from_row_column(r, c) {
                None => ' ',
                Some(sq) => match pos.piece_at(sq) {
                    None => '.',
                    Some((Color::White, false)) => 'w',
                    Some((Color::Black, false)) => 'b',
                    Some((Color::White, true)) => 'W',
                    Some((Color::Black, true)) => 'B',
                },
            };
            s.push(' ');
            s.push(ch);
        }
        s.push('\n');
    }
    s.push_str("    a b c d e f g h i j\n");
    s
}

fn run_show(a: &PositionArgs) -> Result<(), String> {
    let game = a.game()?;
    let pos = game.position();
    print!("{}", board_ascii(pos));
    println!("hub: {}", fen::to_hub(pos));
    println!("fen: {}", fen::to_fen(pos));
    let legal = game.legal_moves();
    let moves: Vec<String> = legal.iter().map(|m| m.to_string()).collect();
    println!("moves: {}", moves.join(" "));
    let pdn: Vec<String> = legal.iter().map(|m| notation::to_pdn(m, &legal)).collect();
    println!("pdn: {}", pdn.join(" "));
    let d = game.draw_state();
    let restr = |c: Color| {
        let r = pos.restriction(c);
        match r.king() {
            Some(k) => format!("{k}/{}", r.count()),
            None => "0/0".to_string(),
        }
    };
    println!(
        "state: quiet-plies={} material={} material-plies={} repetitions={} king-counter W={} B={}",
        d.quiet_plies,
        d.material.map_or("none", |r| r.name()),
        d.material_plies,
        game.repetitions(),
        restr(Color::White),
        restr(Color::Black)
    );
    println!("result: {}", game.outcome());
    Ok(())
}

fn run_bench(a: &BenchArgs) -> Result<(), String> {
    let eval = a.eval.choice()?;
    let (nodes, secs) = molkwar::bench::run(a.depth.max(1), &eval, |line| println!("{line}"))?;
    println!("{nodes} nodes {:.0} nps", nodes as f64 / secs.max(1e-9));
    Ok(())
}

fn run_analyze(a: &AnalyzeArgs) -> Result<(), String> {
    use molkwar::search::{Engine, Event, Limits, Mode};
    let game = a.position.game()?;
    if let Some(t) = a.time {
        molkwar::arena::clock::seconds("--time", t)?;
    }
    let mut engine = Engine::new();
    engine.set_threads(a.threads);
    engine.set_tt_size(a.tt_size);
    engine.set_eval_choice(&a.eval.choice()?)?;
    if let Some(dir) = &a.egdb {
        engine.set_egdb(dir.clone(), a.egdb_pieces);
        // Missing or damaged tables: said on stderr, the search goes on.
        if let Err(e) = engine.load_egdb(game.variant()) {
            eprintln!("molkwar: {e}");
        }
    }
    let limits = Limits {
        depth: a.depth,
        nodes: a.nodes,
        move_time: a.time,
        multipv: a.multipv.into(),
        ..Limits::default()
    };
    let (tx, rx) = std::sync::mpsc::channel();
    // Without any limit the analysis would never end: 10 s by default.
    let unlimited = a.depth.is_none() && a.nodes.is_none() && a.time.is_none();
    let limits = if unlimited {
        Limits {
            move_time: Some(10.0),
            ..limits
        }
    } else {
        limits
    };
    let handle = engine.start(&game, limits, Mode::Think, tx);
    for ev in rx.iter() {
        match ev {
            Event::Info(i) => {
                let s = i.time.as_secs_f64();
                let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
                if a.multipv > 1 {
                    print!("line {:2} ", i.line);
                }
                println!(
                    "depth {:2} ({:.1}) score {:>7} nodes {:>11} time {:7.3} s speed {:5.2} Mn/s pv {}",
                    i.depth,
                    i.mean_depth,
                    molkwar::score::Men(i.score),
                    i.nodes,
                    s,
                    i.nodes as f64 / s.max(1e-9) / 1e6,
                    pv.join(" ")
                );
            }
            Event::Done { best, ponder } => {
                let m = |m: Option<molkwar::Move>| m.map_or("none".to_string(), |m| m.to_string());
                println!("best {} ponder {}", m(best), m(ponder));
                break;
            }
        }
    }
    handle.join();
    Ok(())
}
