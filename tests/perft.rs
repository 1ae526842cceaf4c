//! Perft against the tables of the rules specification (docs/perft.md),
//! data-driven from `tests/data/perft.txt`.
//!
//! Default suite: every case with fewer than `DEFAULT_LIMIT` leaves (this
//! includes both start positions to depth 8). The rest runs with
//! `cargo test --release -- --ignored`; set `MOLKWAR_PERFT_MAX_LEAVES` to
//! cap the ignored run (e.g. `2000000000` skips the deepest start-position
//! rows).

mod common;

use common::{PerftCase, perft_cases};
use molkwar::board::fen::{parse_fen, to_hub};
use molkwar::perft::{divide, perft};
use molkwar::variant::VariantKind;
use molkwar::with_variant;
use std::time::Instant;

/// Cases below this many leaves run in the default suite.
const DEFAULT_LIMIT: u64 = 10_000_000;
/// Cases up to this many leaves are also run without bulk counting.
const NON_BULK_LIMIT: u64 = 1_500_000;

fn kind(case: &PerftCase) -> VariantKind {
    case.variant
        .parse()
        .unwrap_or_else(|e| panic!("perft.txt: {e}"))
}

/// Runs the cases; returns one line per mismatch.
fn run(cases: &[&PerftCase], check_non_bulk: bool) -> Vec<String> {
    let mut failures = Vec::new();
    for case in cases {
        let pos = match parse_fen(&case.fen) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!(
                    "{} {}: FEN {} refused: {e}",
                    case.variant, case.name, case.fen
                ));
                continue;
            }
        };
        let v = kind(case);
        let t = Instant::now();
        let got = with_variant!(v, V => perft::<V>(&pos, case.depth, true));
        let secs = t.elapsed().as_secs_f64();
        if secs > 1.0 {
            eprintln!(
                "{} {} depth {}: {got} leaves in {secs:.1} s",
                case.variant, case.name, case.depth
            );
        }
        if got != case.leaves {
            failures.push(format!(
                "{} {} ({}) depth {}: expected {} got {} (bulk)",
                case.variant, case.name, case.fen, case.depth, case.leaves, got
            ));
        }
        if check_non_bulk && case.leaves <= NON_BULK_LIMIT {
            let slow = with_variant!(v, V => perft::<V>(&pos, case.depth, false));
            if slow != case.leaves {
                failures.push(format!(
                    "{} {} ({}) depth {}: expected {} got {} (bulk=false)",
                    case.variant, case.name, case.fen, case.depth, case.leaves, slow
                ));
            }
        }
    }
    failures
}

fn default_cases_of(variant: &str) -> Vec<PerftCase> {
    perft_cases()
        .into_iter()
        .filter(|c| c.variant == variant && c.leaves < DEFAULT_LIMIT)
        .collect()
}

fn assert_no_failures(failures: Vec<String>, ran: usize) {
    assert!(
        failures.is_empty(),
        "{} of {ran} perft checks failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn data_file_covers_the_spec_tables() {
    let cases = perft_cases();
    assert_eq!(cases.len(), 129, "perft.txt should hold 129 unique counts");
    for variant in ["international", "frisian"] {
        let start: Vec<u32> = cases
            .iter()
            .filter(|c| c.variant == variant && c.name == "start")
            .map(|c| c.depth)
            .collect();
        assert_eq!(start, (1..=12).collect::<Vec<_>>(), "{variant} start rows");
        // The start positions to depth 8 must be part of the default suite.
        assert!(cases.iter().any(|c| c.variant == variant
            && c.name == "start"
            && c.depth == 8
            && c.leaves < DEFAULT_LIMIT));
    }
    for c in &cases {
        kind(c);
        let p = parse_fen(&c.fen).unwrap_or_else(|e| panic!("{} {}: {e}", c.variant, c.name));
        assert_eq!(p.key(), p.compute_key());
    }
    // AllKings really is 20 white kings against 20 black kings.
    let all_kings = cases.iter().find(|c| c.name == "AllKings").unwrap();
    let hub = to_hub(&parse_fen(&all_kings.fen).unwrap());
    assert_eq!(
        hub,
        format!("W{}{}", "B".repeat(20), "e".repeat(10)) + &"W".repeat(20)
    );
}

#[test]
fn perft_international_default() {
    let cases = default_cases_of("international");
    let refs: Vec<&PerftCase> = cases.iter().collect();
    assert_no_failures(run(&refs, true), refs.len());
}

#[test]
fn perft_frisian_default() {
    let cases = default_cases_of("frisian");
    let refs: Vec<&PerftCase> = cases.iter().collect();
    assert_no_failures(run(&refs, true), refs.len());
}

/// The per-move counts of `divide` add up to the table value, and `divide`
/// lists each legal move once.
#[test]
fn divide_sums_to_perft() {
    let cases = perft_cases();
    let picks = [
        ("international", "start", 5),
        ("frisian", "start", 6),
        ("international", "Random178", 4),
        ("frisian", "Restrict2K", 5),
        ("frisian", "RestrictBlack", 5),
    ];
    let mut failures = Vec::new();
    for (variant, name, depth) in picks {
        let case = cases
            .iter()
            .find(|c| c.variant == variant && c.name == name && c.depth == depth)
            .unwrap_or_else(|| panic!("perft.txt has no {variant} {name} depth {depth}"));
        let first = cases
            .iter()
            .find(|c| c.variant == variant && c.name == name && c.depth == 1)
            .unwrap();
        let pos = parse_fen(&case.fen).unwrap();
        for bulk in [true, false] {
            let rows = with_variant!(kind(case), V => divide::<V>(&pos, depth, bulk));
            let total: u64 = rows.iter().map(|(_, n)| n).sum();
            if total != case.leaves || rows.len() as u64 != first.leaves {
                failures.push(format!(
                    "{variant} {name} divide {depth} (bulk={bulk}): {} moves summing to {total}, expected {} moves summing to {}",
                    rows.len(),
                    first.leaves,
                    case.leaves
                ));
            }
        }
    }
    assert_no_failures(failures, picks.len() * 2);
}

#[test]
#[ignore = "deep perft: run with cargo test --release -- --ignored"]
fn perft_deep() {
    let cap: u64 = std::env::var("MOLKWAR_PERFT_MAX_LEAVES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(u64::MAX);
    let mut cases: Vec<PerftCase> = perft_cases()
        .into_iter()
        .filter(|c| c.leaves >= DEFAULT_LIMIT && c.leaves <= cap)
        .collect();
    cases.sort_by_key(|c| c.leaves);
    let refs: Vec<&PerftCase> = cases.iter().collect();
    assert_no_failures(run(&refs, false), refs.len());
}
