//! Endgame databases: the ≤ 3-piece tables of both variants are built in
//! the suite, checked for consistency and against known results, against a
//! search without tables, and read back (resume, damaged and missing files).

use molkwar::board::{fen, movegen};
use molkwar::egdb::builder::{self, Options};
use molkwar::egdb::verify::{self, Report};
use molkwar::egdb::{Material, Tables, Value, storage};
use molkwar::variant::{Frisian, International, Variant, VariantKind};
use std::path::PathBuf;
use std::sync::OnceLock;

const PIECES: u32 = 3;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("egdb-{}", std::process::id()))
}

fn build<V: Variant>() -> Tables {
    let d = dir();
    let _ = std::fs::remove_dir_all(d.join(V::KIND.name()));
    let opts = Options {
        dir: d,
        pieces: PIECES,
        threads: 2,
        progress: false,
    };
    let (t, stats) = builder::build::<V>(&opts).expect("build");
    assert!(stats.iter().all(|s| s.waves > 0), "every table was built");
    t
}

fn international() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build::<International>)
}

fn frisian() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build::<Frisian>)
}

fn value<V: Variant>(t: &Tables, f: &str) -> Value {
    t.probe::<V>(&fen::parse_fen(f).unwrap()).expect(f)
}

/// Share of wins among the positions of a material.
fn win_share(t: &Tables, m: &str) -> f64 {
    let table = t.table(Material::parse(m).unwrap()).unwrap();
    let (mut w, mut n) = (0u64, 0u64);
    for i in 0..table.layout.len() {
        match table.get(i) {
            Value::Invalid => {}
            v => {
                n += 1;
                w += (v == Value::Win) as u64;
            }
        }
    }
    w as f64 / n as f64
}

#[test]
fn international_known_results() {
    let t = international();
    assert_eq!(t.len(), Material::all_up_to(PIECES).len());
    type V = International;
    // 1 king v 1 king: a king in the corner of the long diagonal, to move,
    // against the king in the other corner must step onto the diagonal and
    // is taken; with the other king to move it is the same.
    assert_eq!(value::<V>(t, "W:WK46:BK5"), Value::Loss);
    assert_eq!(value::<V>(t, "B:WK46:BK5"), Value::Loss);
    // A king that can take the other wins; otherwise a draw.
    assert_eq!(value::<V>(t, "W:WK28:BK23"), Value::Win);
    assert_eq!(value::<V>(t, "W:WK28:BK3"), Value::Draw);
    // The corner trap: 23-5 leaves the king on 46 only moves into capture.
    assert_eq!(value::<V>(t, "W:WK23:BK46"), Value::Win);
    // 2 kings v 1 king on the long diagonal: a draw, whoever moves.
    assert_eq!(value::<V>(t, "W:WK3,K45:BK28"), Value::Draw);
    assert_eq!(value::<V>(t, "B:WK1,K45:BK28"), Value::Draw);
    assert_eq!(value::<V>(t, "W:WK3,K45:BK46"), Value::Draw);
    // 2 kings v 1 king is a draw in general (docs/egdb.md): the wins are
    // immediate captures and tactics, a minority.
    assert!(win_share(t, "0201") < 0.5, "{}", win_share(t, "0201"));
}

#[test]
fn frisian_known_results() {
    let t = frisian();
    assert_eq!(t.len(), Material::all_up_to(PIECES).len());
    type V = Frisian;
    assert_eq!(value::<V>(t, "W:WK46:BK5"), Value::Loss);
    // Orthogonal capture: 26 takes 28 along the row (docs/rules.md §4.3).
    assert_eq!(value::<V>(t, "W:WK26:BK28"), Value::Win);
    // 2 kings against 1 king is won in general in Frisian (hence the seven
    // moves of docs/rules.md §8.2.3), unlike International.
    assert!(win_share(t, "0201") > 0.95, "{}", win_share(t, "0201"));
    assert!(win_share(t, "0201") > win_share(international(), "0201") + 0.5);
}

/// The §6 state is part of a Frisian position: a king that has made three
/// quiet moves in a row may not move again while its side has a man.
#[test]
fn frisian_restriction_is_part_of_the_position() {
    type V = Frisian;
    let t = frisian();
    // White: king 28 and a man; every count of the king's quiet moves is a
    // position of its own in the table, consistent with its moves.
    let base = fen::parse_fen("W:WK28,45:BK3").unwrap();
    let free = t.probe::<V>(&base).unwrap();
    for c in 1..=3 {
        let r =
            molkwar::board::Restriction::new(molkwar::Square::from_number(28).unwrap(), c).unwrap();
        let p = base.with_restriction(molkwar::Color::White, r);
        let v = t.probe::<V>(&p).unwrap();
        assert_eq!(Some(v), verify::expected::<V>(t, &p));
        let (n, n0) = (
            movegen::legal_moves::<V>(&p).len(),
            movegen::legal_moves::<V>(&base).len(),
        );
        if c < 3 {
            assert_eq!(n, n0);
        } else {
            assert!(n < n0, "the king may not move a fourth time");
        }
    }
    assert_ne!(free, Value::Invalid);
}

fn consistent<V: Variant>(t: &Tables) {
    let mut r = Report::default();
    verify::consistency::<V>(t, PIECES, 1, &mut r);
    assert!(r.ok(), "{:?}", r.errors);
    assert_eq!(r.tables, Material::all_up_to(PIECES).len());
    // Threads share the placements: every position is still checked once.
    let mut shared = Report::default();
    verify::consistency::<V>(t, PIECES, 3, &mut shared);
    assert_eq!(shared, r);
    assert!(r.positions > 0);
    verify::spot_check::<V>(t, PIECES, 40, 6, &mut r);
    assert!(r.ok(), "{:?}", r.errors);
    assert!(r.confirmed > 0, "{r:?}");
}

#[test]
fn international_tables_are_consistent() {
    consistent::<International>(international());
}

#[test]
fn frisian_tables_are_consistent() {
    consistent::<Frisian>(frisian());
}

#[test]
fn files_resume_and_refuse_damage() {
    type V = International;
    let _ = international();
    let d = dir();
    // A second build keeps every file.
    let opts = Options {
        dir: d.clone(),
        pieces: 2,
        threads: 1,
        progress: false,
    };
    let (_, stats) = builder::build::<V>(&opts).unwrap();
    assert!(stats.iter().all(|s| s.waves == 0));
    // A damaged copy is refused with a clear message.
    let other = d.join("damaged");
    let m = Material::parse("0101").unwrap();
    let src = storage::path(&d, VariantKind::International, m);
    let dst = storage::path(&other, VariantKind::International, m);
    std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
    let mut bytes = std::fs::read(&src).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&dst, &bytes).unwrap();
    let e = storage::read::<V>(&other, m).unwrap_err();
    assert!(e.contains("checksum"), "{e}");
    std::fs::write(&dst, &bytes[..20]).unwrap();
    assert!(storage::read::<V>(&other, m).is_err());
    // Missing files: errors, and the tables that loaded still answer.
    let (t, errors) = Tables::load(VariantKind::International, &other, 2);
    assert_eq!(t.len(), 0);
    assert_eq!(errors.len(), Material::all_up_to(2).len());
    assert!(
        errors
            .iter()
            .all(|e| e.contains(&other.display().to_string()))
    );
    // A Frisian file is not read as International.
    let fr = storage::path(&d, VariantKind::Frisian, m);
    let _ = frisian();
    std::fs::copy(fr, &dst).unwrap();
    let e = storage::read::<V>(&other, m).unwrap_err();
    assert!(e.contains("not a normal table"), "{e}");
}

// ---------------------------------------------------------------------------
// Probing in the search (docs/egdb.md, "Probing" and "Draw rules").

use molkwar::game::Game;
use molkwar::search::{Engine, Limits, MATE, MAX_PLY, Mode, Score};

const MAX_EVAL: Score = molkwar::eval::MAX_EVAL;
const FORCED: Score = MATE - MAX_PLY as Score - 2;

fn engine_with_tables() -> Engine {
    let _ = (international(), frisian());
    let mut e = Engine::with_tt_size(16);
    e.set_egdb(dir(), PIECES);
    e
}

fn search(e: &mut Engine, g: &Game, depth: u32) -> (molkwar::Move, Score, Vec<molkwar::Move>) {
    e.clear();
    let o = e.search_blocking(
        g,
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        Mode::Analyze,
    );
    let last = o.last().unwrap();
    (o.best.unwrap(), last.score, last.pv.clone())
}

/// The first position of a table with the given value where the side to
/// move has no capture.
fn first_quiet<V: Variant>(t: &Tables, m: &str, v: Value) -> molkwar::Position {
    let table = t.table(Material::parse(m).unwrap()).unwrap();
    (0..table.layout.len())
        .filter(|&i| table.get(i) == v)
        .filter_map(|i| table.layout.position(i))
        .find(|p| !movegen::has_capture::<V>(p))
        .unwrap()
}

#[test]
fn root_keeps_the_table_value() {
    type V = International;
    let mut e = engine_with_tables();
    // 23-5 is the only win (the corner trap); other moves draw or lose.
    let g = Game::new(
        VariantKind::International,
        fen::parse_fen("W:WK23:BK46").unwrap(),
    );
    let (best, _, _) = search(&mut e, &g, 2);
    let child = g.position().play::<V>(&best);
    assert_eq!(
        international().probe::<V>(&child),
        Some(Value::Loss),
        "{best}"
    );
}

#[test]
fn trusted_win_scores_in_the_band_with_a_legal_pv() {
    // A king and a man against a man: no counter rule governs it.
    type V = International;
    let t = international();
    let pos = first_quiet::<V>(t, "1110", Value::Win);
    let g = Game::new(VariantKind::International, pos);
    let mut e = engine_with_tables();
    let (_, s, pv) = search(&mut e, &g, 4);
    assert!(s > MAX_EVAL && s < FORCED, "{s} {}", fen::to_fen(&pos));
    let mut p = pos;
    for mv in &pv {
        assert!(movegen::legal_moves::<V>(&p).contains(mv), "pv {pv:?}");
        p = p.play::<V>(mv);
    }
}

#[test]
fn capture_nodes_are_searched_not_probed() {
    // White's only move 46-41 lets the black king take the last man
    // (37x46): the node after it is a table win for Black, but a capture
    // node, so the search finds the forced loss instead of a band score.
    type V = International;
    let pos = fen::parse_fen("W:W46:BK37").unwrap();
    let only = *movegen::legal_moves::<V>(&pos).iter().next().unwrap();
    assert_eq!(
        international().probe::<V>(&pos.play::<V>(&only)),
        Some(Value::Win)
    );
    let g = Game::new(VariantKind::International, pos);
    let (_, s, _) = search(&mut engine_with_tables(), &g, 3);
    assert!(s <= -FORCED, "a forced loss, not a band score: {s}");
}

#[test]
fn table_draw_scores_zero() {
    type V = International;
    let pos = first_quiet::<V>(international(), "1010", Value::Draw);
    let g = Game::new(VariantKind::International, pos);
    let (_, s, _) = search(&mut engine_with_tables(), &g, 5);
    assert_eq!(s, 0, "{}", fen::to_fen(&pos));
}

/// Plays `plies` quiet moves that leave no capture to either side and
/// repeat no position.
fn shuffle<V: Variant>(g: &mut Game, plies: usize) {
    for _ in 0..plies {
        let mv = g
            .legal_moves()
            .iter()
            .copied()
            .find(|m| {
                let c = g.position().play::<V>(m);
                !m.is_capture()
                    && !movegen::has_capture::<V>(&c)
                    && !movegen::opponent_has_capture::<V>(&c)
                    && !g.history().contains(&c.key())
            })
            .expect("a quiet move");
        g.play(&mv);
    }
}

#[test]
fn table_win_that_a_counter_draws_is_not_a_win() {
    // Frisian 2 kings v 1 king: won for the kings in the table, but the
    // seven-move rule (docs/rules.md §8.2.3) draws it at 14 plies.
    type V = Frisian;
    let t = frisian();
    let mut g = Game::new(
        VariantKind::Frisian,
        fen::parse_fen("W:WK6,K45:BK3").unwrap(),
    );
    shuffle::<V>(&mut g, 12);
    let pos = *g.position();
    assert_eq!(g.draw_state().material_plies, 12);
    assert_eq!(
        t.probe::<V>(&pos),
        Some(Value::Win),
        "{}",
        fen::to_fen(&pos)
    );
    let mut e = engine_with_tables();
    let (_, s, _) = search(&mut e, &g, 6);
    assert!(s < MAX_EVAL, "two plies left: not a win ({s})");
    // The same position with the count fresh: the table win is still not
    // reported as a forced win or a band score (the rule governs it), but
    // the search sees the win it can force in time.
    let fresh = Game::new(VariantKind::Frisian, pos);
    let (_, s1, _) = search(&mut e, &fresh, 6);
    assert!(!(MAX_EVAL..FORCED).contains(&s1), "no band score: {s1}");
}
