//! Endgame tables and the §8 material rules (docs/egdb.md, "Draw rules"):
//! a move into an ending that a rule governs reads that ending's entry
//! values, won only where the win fits in the count. Built here for ≤ 3
//! pieces; Frisian two kings against one is the rule that changes them.

use molkwar::board::movegen;
use molkwar::egdb::builder::{self, Options};
use molkwar::egdb::counted::rule_of;
use molkwar::egdb::{Material, Tables, Value, storage};
use molkwar::game::Game;
use molkwar::search::{Engine, Limits, Mode};
use molkwar::variant::{Frisian, International, Variant, VariantKind};
use std::path::PathBuf;
use std::sync::OnceLock;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("egdb-rules-{}", std::process::id()))
}

fn build<V: Variant>() -> Tables {
    let opts = Options {
        dir: dir(),
        pieces: 3,
        threads: 2,
        progress: false,
    };
    let _ = std::fs::remove_dir_all(opts.dir.join(V::KIND.name()));
    builder::build::<V>(&opts).expect("build").0
}

fn frisian() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build::<Frisian>)
}

/// (entry value, table value) counts over the governed materials.
fn entry_against_table<V: Variant>(t: &Tables) -> Vec<((Value, Value), u64)> {
    let mut counts: Vec<((Value, Value), u64)> = Vec::new();
    for m in Material::all_up_to(3) {
        if rule_of::<V>(m).is_none() {
            continue;
        }
        let (e, table) = (t.entry(m).expect("entry values"), t.table(m).unwrap());
        for i in 0..table.layout.len() {
            let k = (e.get(i), table.get(i));
            match counts.iter_mut().find(|c| c.0 == k) {
                Some(c) => c.1 += 1,
                None => counts.push((k, 1)),
            }
        }
    }
    counts
}

#[test]
fn entry_values_only_take_wins_away() {
    let f = entry_against_table::<Frisian>(frisian());
    let i = entry_against_table::<International>(&build::<International>());
    for (e, t) in f.iter().chain(&i).map(|c| c.0) {
        assert!(
            e == t || e == Value::Draw,
            "entry {e:?} where the table says {t:?}"
        );
    }
    // Two kings against one: most table wins take longer than seven moves.
    let taken = |c: &[((Value, Value), u64)]| {
        c.iter()
            .filter(|c| c.0 == (Value::Draw, Value::Win))
            .map(|c| c.1)
            .sum::<u64>()
    };
    let kept = f
        .iter()
        .find(|c| c.0 == (Value::Win, Value::Win))
        .map_or(0, |c| c.1);
    assert!(taken(&f) > 0 && kept > 0, "{f:?}");
}

/// Positions of `m` whose table value is a draw while their moves, read in
/// the tables without entry values, say win: wins the count takes away.
fn wins_taken<V: Variant>(t: &Tables, m: &str) -> Vec<molkwar::Position> {
    let table = t.table(Material::parse(m).unwrap()).unwrap();
    (0..table.layout.len())
        .filter(|&i| table.get(i) == Value::Draw)
        .filter_map(|i| table.layout.position(i))
        .filter(|p| {
            movegen::legal_moves::<V>(p)
                .iter()
                .any(|mv| t.probe::<V>(&p.play::<V>(mv)) == Some(Value::Loss))
        })
        .collect()
}

#[test]
fn a_win_only_through_a_long_two_kings_ending_is_a_draw() {
    // A king and a man against a king: crowning makes two kings against
    // one, which the table wins but docs/rules.md §8.2.3 draws after seven
    // moves. Where that is the only way to win, the position is a draw.
    type V = Frisian;
    let t = frisian();
    let taken = wins_taken::<V>(t, "1101");
    assert!(!taken.is_empty());
    for p in &taken {
        for mv in movegen::legal_moves::<V>(p).iter() {
            let c = p.play::<V>(mv);
            if t.probe::<V>(&c) == Some(Value::Loss) {
                let m = Material::of(&c);
                assert!(
                    rule_of::<V>(m).is_some(),
                    "{m}: the winning move enters 2 kings v 1"
                );
                assert_eq!(
                    t.entry(m)
                        .unwrap()
                        .get(t.table(m).unwrap().layout.index(&c).unwrap()),
                    Value::Draw
                );
            }
        }
    }
    // The engine with these tables does not report such a position as won.
    let mut e = Engine::with_tt_size(16);
    e.set_egdb(dir(), 3);
    for p in taken
        .iter()
        .filter(|p| !movegen::has_capture::<V>(p))
        .take(5)
    {
        e.clear();
        let g = Game::new(VariantKind::Frisian, *p);
        let limits = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        let o = e.search_blocking(&g, limits, Mode::Analyze);
        let s = o.last().unwrap().score;
        let f = molkwar::board::fen::to_fen(p);
        assert!(s.abs() < molkwar::eval::MAX_EVAL, "{f}: {s}");
    }
}

#[test]
fn files_of_the_older_format_are_rebuilt() {
    // Version 1 files hold values without the entry rule: refused on
    // reading, not counted as present, and built again.
    let d = dir().join("old");
    let opts = Options {
        dir: d.clone(),
        pieces: 2,
        threads: 1,
        progress: false,
    };
    builder::build::<Frisian>(&opts).unwrap();
    let m = Material::parse("0101").unwrap();
    let file = storage::path(&d, VariantKind::Frisian, m);
    assert!(storage::is_current(&d, VariantKind::Frisian, m));
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
    std::fs::write(&file, &bytes).unwrap();
    assert!(!storage::is_current(&d, VariantKind::Frisian, m));
    let err = storage::read::<Frisian>(&d, m).unwrap_err();
    assert!(err.contains("format version 1"), "{err}");
    builder::build::<Frisian>(&opts).unwrap();
    assert!(storage::is_current(&d, VariantKind::Frisian, m));
    assert!(storage::read::<Frisian>(&d, m).is_ok());
}
