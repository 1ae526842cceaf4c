//! The match: games on worker threads (each with its own engine
//! processes), results gathered on the calling thread, which keeps the
//! tally, writes the PDN, prints the progress line and runs the SPRT.
//! Opening k is played by games 2k (first engine White) and 2k+1 (colours
//! swapped); their two results form one pentanomial pair.

use super::engine_proc::{EngineProc, EngineSpec};
use super::openings::Opening;
use super::pdn;
use super::referee::{self, GameRecord, GameResult, Settings, SideStats, Termination};
use super::resume;
use super::rng::Rng;
use super::sprt::{Sprt, Verdict};
use super::stats::Tally;
use super::transcript::{self, GameLog, LogDir, Tap};
use crate::board::Color;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::channel;
use std::time::Instant;

/// Everything a match needs.
pub struct MatchConfig {
    /// The first engine (whose score and Elo are reported) and the second.
    pub engines: [EngineSpec; 2],
    pub games: u32,
    pub concurrency: usize,
    pub openings: Vec<Opening>,
    /// Shuffles the order of the openings.
    pub seed: u64,
    pub pdn: Option<PathBuf>,
    /// Directory for the game logs and engine stderr (`--log`).
    pub log: Option<PathBuf>,
    pub settings: Settings,
    pub sprt: Option<Sprt>,
    /// Keep the processes between games (`new-game`) instead of restarting.
    pub reuse: bool,
    pub event: String,
    /// Keep the games already in the PDN file and play only the others
    /// (`--resume`).
    pub resume: bool,
    /// The game indices this run may play (`--rounds`; all by default).
    pub rounds: std::ops::Range<u32>,
}

/// Per-engine totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineTotals {
    pub stats: SideStats,
    /// Games lost by a fault, by reason.
    pub faults: BTreeMap<String, u32>,
}

/// The outcome of a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// First engine's view.
    pub tally: Tally,
    pub engines: [EngineTotals; 2],
    /// Games by how they ended.
    pub terminations: BTreeMap<String, u32>,
    pub seconds: f64,
    /// The LLR and verdict, if an SPRT ran: at the decision once one is
    /// taken (later games are scored but do not undo it), else the last.
    pub sprt: Option<(f64, Verdict)>,
    /// Games read back from the PDN (`--resume`): counted in the tally,
    /// but without statistics of depth, speed or time.
    pub resumed: u32,
}

/// The summary key of a termination (without the move or line).
pub fn termination_kind(t: &Termination) -> String {
    match t {
        Termination::Draw(r) => format!("draw: {r}"),
        Termination::Illegal(_) => "illegal move".into(),
        Termination::Protocol(_) => "protocol violation".into(),
        t => t.name(),
    }
}

enum Msg {
    Game(u32, Box<GameRecord>),
    Fatal(String),
}

/// Runs the match, printing progress to `out`.
pub fn run(cfg: &MatchConfig, out: &mut dyn Write) -> Result<Summary, String> {
    if cfg.openings.is_empty() {
        return Err("no openings".into());
    }
    let mut order: Vec<usize> = (0..cfg.openings.len()).collect();
    Rng::new(cfg.seed).shuffle(&mut order);
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    let resumed = match (&cfg.pdn, cfg.resume) {
        (Some(p), true) => resume_from(cfg, &order, p)?,
        (None, true) => return Err("--resume needs --pdn, the file to resume".into()),
        _ => Vec::new(),
    };
    let mut pdn_file = match &cfg.pdn {
        Some(p) => Some(
            transcript::open_for_writing(p, cfg.resume)
                .map_err(|e| format!("cannot open PDN '{}': {e}", p.display()))?,
        ),
        None => None,
    };
    let logs = match &cfg.log {
        Some(d) => Some(LogDir::create(d, cfg.resume)?),
        None => None,
    };
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let (tx, rx) = channel::<Msg>();
    let mut summary = Summary::default();
    let mut pairs: HashMap<u32, f64> = HashMap::new();
    // Counted in the order they ended, as they were when played, so that
    // an SPRT decided before the stop is decided again at the same game.
    for (g, rec) in &resumed {
        count(&mut summary, &mut pairs, *g, rec);
        if let Some(s) = &cfg.sprt
            && s.record(&mut summary.sprt, s.llr(&summary.tally.penta)) != Verdict::Continue
        {
            stop.store(true, Ordering::Release);
        }
    }
    let mut done = resumed.len() as u32;
    summary.resumed = done;
    if done > 0 {
        let pdn = cfg
            .pdn
            .as_ref()
            .map_or(String::new(), |p| p.display().to_string());
        let mut line = format!(
            "Resumed {done} games from {pdn} | {}",
            progress(&summary.tally)
        );
        if let (Some(s), Some((llr, _))) = (&cfg.sprt, summary.sprt) {
            let (lo, hi) = s.bounds();
            line.push_str(&format!(" | LLR {llr:.2} [{lo:.2}, {hi:.2}]"));
        }
        let _ = writeln!(out, "{line}");
    }
    let played: std::collections::HashSet<u32> = resumed.iter().map(|r| r.0).collect();
    let todo: Vec<u32> = if stop.load(Ordering::Acquire) {
        Vec::new()
    } else {
        cfg.rounds.clone().filter(|g| !played.contains(g)).collect()
    };
    let mut fatal = None;
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1).min(todo.len()) {
            let tx = tx.clone();
            let (next, stop, order, logs, todo) = (&next, &stop, &order, logs.as_ref(), &todo);
            scope.spawn(move || worker(cfg, order, todo, logs, next, stop, tx));
        }
        drop(tx);
        for msg in rx.iter() {
            let (g, rec) = match msg {
                Msg::Fatal(e) => {
                    stop.store(true, Ordering::Release);
                    fatal.get_or_insert(e);
                    continue;
                }
                Msg::Game(g, rec) => (g, rec),
            };
            done += 1;
            count(&mut summary, &mut pairs, g, &rec);
            let [white, black] = seats(g);
            if let Some(f) = pdn_file.as_mut() {
                let h = pdn::Header {
                    event: &cfg.event,
                    round: g + 1,
                    white: names[white],
                    black: names[black],
                    variant: cfg.settings.variant,
                };
                if let Err(e) = f.write_all(pdn::write_game(&h, &rec).as_bytes()) {
                    fatal.get_or_insert(format!("cannot write the PDN: {e}"));
                    stop.store(true, Ordering::Release);
                }
            }
            let mut line = format!(
                "[{done}/{}] game {} {} - {} {} ({}) | {}",
                cfg.games,
                g + 1,
                names[white],
                names[black],
                rec.result,
                rec.termination.name(),
                progress(&summary.tally)
            );
            if let Some(s) = &cfg.sprt {
                let llr = s.llr(&summary.tally.penta);
                let (lo, hi) = s.bounds();
                line.push_str(&format!(" | LLR {llr:.2} [{lo:.2}, {hi:.2}]"));
                if s.record(&mut summary.sprt, llr) != Verdict::Continue {
                    stop.store(true, Ordering::Release);
                }
            }
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
    });
    summary.seconds = started.elapsed().as_secs_f64();
    match fatal {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// The engines (0 the first, 1 the second) playing White and Black in
/// game `g`: the first engine has White in even games.
pub(super) fn seats(g: u32) -> [usize; 2] {
    if g.is_multiple_of(2) { [0, 1] } else { [1, 0] }
}

/// Adds game `g` to the tally, the terminations, faults and statistics.
fn count(summary: &mut Summary, pairs: &mut HashMap<u32, f64>, g: u32, rec: &GameRecord) {
    let [white, black] = seats(g);
    let white_score = match rec.result {
        GameResult::WhiteWins => 1.0,
        GameResult::Draw => 0.5,
        GameResult::BlackWins => 0.0,
    };
    let score_first = if white == 0 {
        white_score
    } else {
        1.0 - white_score
    };
    summary.tally.record(g, score_first, pairs);
    summary.engines[white].stats.merge(&rec.stats[0]);
    summary.engines[black].stats.merge(&rec.stats[1]);
    let kind = termination_kind(&rec.termination);
    *summary.terminations.entry(kind.clone()).or_default() += 1;
    if let Some(c) = rec.offender {
        let e = if c == Color::White { white } else { black };
        *summary.engines[e].faults.entry(kind).or_default() += 1;
    }
}

/// The games of `pdn` that belong to this match (`--resume`), in the order
/// they ended; a cut-off last game is cut from the file, to be played again.
fn resume_from(
    cfg: &MatchConfig,
    order: &[usize],
    pdn: &std::path::Path,
) -> Result<Vec<(u32, GameRecord)>, String> {
    let expect = resume::Expect {
        games: cfg.games,
        names: [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()],
        openings: order.iter().map(|&i| &cfg.openings[i]).collect(),
        variant: cfg.settings.variant,
        event: &cfg.event,
    };
    let found = resume::read(pdn, &expect)?;
    if let Some(len) = found.cut_at {
        std::fs::OpenOptions::new()
            .write(true)
            .open(pdn)
            .and_then(|f| f.set_len(len))
            .map_err(|e| format!("cannot cut the PDN '{}': {e}", pdn.display()))?;
    }
    Ok(found.games)
}

/// The score part of the progress line.
fn progress(t: &Tally) -> String {
    let elo = t
        .elo_trinomial()
        .map_or("n/a".to_string(), |e| e.to_string());
    format!(
        "+{} ={} -{} score {:.1}% Elo {elo}",
        t.wins,
        t.draws,
        t.losses,
        t.score().unwrap_or(0.5) * 100.0
    )
}

/// Opens game `g`'s log (`--log`) and notes who plays it from where.
fn open_game_log(
    cfg: &MatchConfig,
    logs: Option<&LogDir>,
    g: u32,
    start: &crate::board::Position,
) -> Result<Option<Arc<GameLog>>, String> {
    let Some(logs) = logs else {
        return Ok(None);
    };
    let log = logs.game(g + 1)?;
    let [white, black] = seats(g);
    log.note(&format!(
        "game {}: White {} ({}), Black {} ({}), {}, from {}",
        g + 1,
        cfg.engines[white].name,
        cfg.engines[white].tc,
        cfg.engines[black].name,
        cfg.engines[black].tc,
        cfg.settings.variant,
        crate::board::fen::to_fen(start)
    ));
    Ok(Some(log))
}

fn worker(
    cfg: &MatchConfig,
    order: &[usize],
    todo: &[u32],
    logs: Option<&LogDir>,
    next: &AtomicU32,
    stop: &AtomicBool,
    tx: std::sync::mpsc::Sender<Msg>,
) {
    let mut procs: [Option<EngineProc>; 2] = [None, None];
    let variant = cfg.settings.variant;
    let fatal = |e: String| {
        let _ = tx.send(Msg::Fatal(e));
        stop.store(true, Ordering::Release);
    };
    while !stop.load(Ordering::Acquire) {
        let Some(&g) = todo.get(next.fetch_add(1, Ordering::AcqRel) as usize) else {
            break;
        };
        let opening = &cfg.openings[order[(g / 2) as usize % order.len()]];
        // Opened before the engines start, so the handshake is in the log.
        let game_log = match open_game_log(cfg, logs, g, &opening.pos) {
            Ok(l) => l,
            Err(e) => return fatal(e),
        };
        for (i, (slot, spec)) in procs.iter_mut().zip(&cfg.engines).enumerate() {
            // Reuse a process when it answers new-game, else (re)start it.
            if let Some(p) = slot.as_mut() {
                p.set_game_log(game_log.clone());
                if p.new_game().is_ok() {
                    continue;
                }
            }
            *slot = None;
            let tap = logs.map_or_else(Tap::none, |l| l.tap(i, &spec.name));
            tap.set_game(game_log.clone());
            match EngineProc::start(spec, variant, tap) {
                Ok(p) => *slot = Some(p),
                Err(e) => return fatal(e),
            }
        }
        let [Some(a), Some(b)] = &mut procs else {
            return;
        };
        let first_white = g.is_multiple_of(2);
        let (tc_a, tc_b) = (cfg.engines[0].tc, cfg.engines[1].tc);
        let rec = if first_white {
            referee::play([a, b], [tc_a, tc_b], opening.pos, &cfg.settings)
        } else {
            referee::play([b, a], [tc_b, tc_a], opening.pos, &cfg.settings)
        };
        if let Some(log) = &game_log {
            log.note(&format!(
                "result {} ({}) after {} plies",
                rec.result,
                rec.termination.name(),
                rec.moves.len()
            ));
        }
        // A faulty engine may still be searching or be broken: restart it.
        if let Some(c) = rec.offender {
            let e = if (c == Color::White) == first_white {
                0
            } else {
                1
            };
            procs[e] = None;
        }
        if !cfg.reuse {
            for p in procs.iter_mut() {
                if let Some(p) = p.take() {
                    p.quit();
                }
            }
        }
        if tx.send(Msg::Game(g, Box::new(rec))).is_err() {
            break;
        }
    }
    for p in procs.into_iter().flatten() {
        p.quit();
    }
}

/// The final report.
pub fn report(cfg: &MatchConfig, s: &Summary) -> String {
    let t = &s.tally;
    let n = t.games();
    let mut r = String::new();
    let names = [&cfg.engines[0].name, &cfg.engines[1].name];
    r.push_str(&format!(
        "Score of {} vs {}: {} - {} - {} (W-L-D) [{:.1}%] {} games\n",
        names[0],
        names[1],
        t.wins,
        t.losses,
        t.draws,
        t.score().unwrap_or(0.5) * 100.0,
        n
    ));
    let show = |e: Option<super::stats::EloInterval>| e.map_or("n/a".into(), |e| e.to_string());
    r.push_str(&format!(
        "Elo difference: {} (95%, per game); {} (95%, per opening pair)\n",
        show(t.elo_trinomial()),
        show(t.elo_pentanomial())
    ));
    r.push_str(&format!(
        "Normalized Elo: {}   LOS: {}\n",
        t.normalized_elo()
            .map_or("n/a".into(), |e| format!("{e:+.1}")),
        t.los()
            .map_or("n/a".into(), |l| format!("{:.1}%", l * 100.0))
    ));
    r.push_str(&format!(
        "Pairs by {}'s points (0, 1/2, 1, 3/2, 2): {:?} ({} pairs)\n",
        names[0],
        t.penta,
        t.pairs()
    ));
    for (i, e) in s.engines.iter().enumerate() {
        let st = &e.stats;
        let avg = |sum: f64, c: u32| {
            if c > 0 {
                format!("{:.2}", sum / c as f64)
            } else {
                "n/a".into()
            }
        };
        let faults: Vec<String> = e.faults.iter().map(|(k, v)| format!("{k} {v}")).collect();
        r.push_str(&format!(
            "{}: {} moves, average depth {}, average speed {} Mnodes/s, error lines {}, faults: {}\n",
            names[i],
            st.moves,
            avg(st.depth_sum, st.depth_count),
            avg(st.nps_sum, st.nps_count),
            st.errors,
            if faults.is_empty() {
                "none".into()
            } else {
                faults.join(", ")
            }
        ));
    }
    for (i, e) in s.engines.iter().enumerate() {
        let st = &e.stats;
        let phases: Vec<String> = (0..3)
            .map(|k| {
                let n = st.phase_moves[k];
                let avg = if n > 0 {
                    st.phase_secs[k] / n as f64
                } else {
                    0.0
                };
                format!("{} {avg:.3} s ({n})", super::referee::PHASES[k])
            })
            .collect();
        let ponder = if cfg.settings.ponder {
            format!(", ponder hits {}/{}", st.ponder_hits, st.ponders)
        } else {
            String::new()
        };
        r.push_str(&format!(
            "{}: time per move: {}{ponder}\n",
            names[i],
            phases.join(", ")
        ));
    }
    let ends: Vec<String> = s
        .terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    r.push_str(&format!("Game ends: {}\n", ends.join(", ")));
    let played = n - s.resumed;
    r.push_str(&format!(
        "Time: {:.1} s, {:.2} games per minute (concurrency {})\n",
        s.seconds,
        played as f64 * 60.0 / s.seconds.max(1e-9),
        cfg.concurrency
    ));
    if s.resumed > 0 {
        r.push_str(&format!(
            "Resumed: {} games read back from the PDN count in the score; moves, depths, speeds, error lines, times and ponder hits above are of the {played} games of this run\n",
            s.resumed
        ));
    }
    if let (Some(sp), Some((llr, v))) = (&cfg.sprt, s.sprt) {
        let (lo, hi) = sp.bounds();
        let verdict = match v {
            Verdict::Continue => "no decision yet",
            Verdict::AcceptH0 => "H0 accepted",
            Verdict::AcceptH1 => "H1 accepted",
        };
        r.push_str(&format!(
            "SPRT (nElo {} vs {}, alpha {}, beta {}): LLR {llr:.3} [{lo:.3}, {hi:.3}]: {verdict}\n",
            sp.elo0, sp.elo1, sp.alpha, sp.beta
        ));
    }
    r
}
