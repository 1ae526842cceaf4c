//! What the engine prints: every reply line of docs/hub-clients.md, built here so
//! that the shapes (field order, quoting, number formats) live in one place.

use crate::board::Move;
use crate::search::{Info, Score};

/// The `id` line.
pub fn id() -> String {
    format!(
        "id name=molkwar version={} author=\"the molkwar developers\" country=NL",
        env!("CARGO_PKG_VERSION")
    )
}

/// A value as Hub expects it: quoted when empty or holding a space or `=`.
pub fn value(v: &str) -> String {
    if v.is_empty() || v.contains([' ', '\t', '=']) {
        format!("\"{v}\"")
    } else {
        v.to_string()
    }
}

/// `error message="…"`; quotes and control characters in the text are
/// replaced so that the line stays parseable.
pub fn error(msg: &str) -> String {
    let clean: String = msg
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => '?',
            c => c,
        })
        .take(200)
        .collect();
    format!("error message=\"{clean}\"")
}

/// A score in men with two decimals (centi-men / 100), exact.
pub fn score(s: Score) -> String {
    let sign = if s < 0 { "-" } else { "" };
    let a = s.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

/// The `info` line: depth, mean-depth, score, nodes, time, nps, pv.
pub fn info(i: &Info) -> String {
    let secs = i.time.as_secs_f64();
    let nps = if secs > 0.0 {
        i.nodes as f64 / secs / 1e6
    } else {
        0.0
    };
    let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth={} mean-depth={:.1} score={} nodes={} time={:.3} nps={:.1} pv=\"{}\"",
        i.depth,
        i.mean_depth,
        score(i.score),
        i.nodes,
        secs,
        nps,
        pv.join(" ")
    )
}

/// The `done` line.
pub fn done(best: &Move, ponder: Option<&Move>) -> String {
    match ponder {
        Some(p) => format!("done move={best} ponder={p}"),
        None => format!("done move={best}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::search::MATE;
    use std::time::Duration;

    #[test]
    fn shapes() {
        assert_eq!(score(15), "0.15");
        assert_eq!(score(-7), "-0.07");
        assert_eq!(score(-250), "-2.50");
        assert_eq!(score(0), "0.00");
        assert_eq!(score(MATE - 3), "99.97");
        assert_eq!(score(-(MATE - 12)), "-99.88");
        assert_eq!(value("a b"), "\"a b\"");
        assert_eq!(value(""), "\"\"");
        assert_eq!(value("x"), "x");
        assert_eq!(error("bad \"x\"\n"), "error message=\"bad 'x'?\"");
        let sq = |n| Square::from_number(n).unwrap();
        let m = Move::quiet(sq(32), sq(28));
        let c = Move::capture(sq(28), sq(19), sq(23).mask() | sq(13).mask());
        assert_eq!(done(&m, Some(&c)), "done move=32-28 ponder=28x19x13x23");
        let i = Info {
            depth: 12,
            mean_depth: 11.83,
            score: 15,
            nodes: 1_234_567,
            time: Duration::from_millis(1234),
            pv: vec![m],
        };
        assert_eq!(
            info(&i),
            "info depth=12 mean-depth=11.8 score=0.15 nodes=1234567 time=1.234 nps=1.0 pv=\"32-28\""
        );
    }
}
