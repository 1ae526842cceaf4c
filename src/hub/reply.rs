//! What the engine prints: every reply line of protocol/hub.md, built here
//! so that the shapes (field order, number formats) live in one place; the
//! quoting is [`Writer`]'s and the score format [`Men`]'s.

use super::line::Writer;
use crate::board::Move;
use crate::score::Men;
use crate::search::Info;

/// The `id` line.
pub fn id() -> String {
    Writer::new("id")
        .pair("name", "molkwar")
        .pair("version", env!("CARGO_PKG_VERSION"))
        .pair("author", "the molkwar developers")
        .pair("country", "NL")
        .finish()
}

/// `error message="…"`, at most 200 characters; tabs become `?` too, so
/// that a message stays one plain field.
pub fn error(msg: &str) -> String {
    let clean: String = msg
        .chars()
        .map(|c| if c == '\t' { '?' } else { c })
        .take(200)
        .collect();
    Writer::new("error").quoted("message", clean).finish()
}

/// The `info` line: depth, mean-depth, score, nodes, time, nps, pv, and
/// `tbhits` when endgame tables are in use.
pub fn info(i: &Info) -> String {
    let secs = i.time.as_secs_f64();
    let nps = if secs > 0.0 {
        i.nodes as f64 / secs / 1e6
    } else {
        0.0
    };
    let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
    let w = Writer::new("info")
        .pair("depth", i.depth)
        .pair("mean-depth", format_args!("{:.1}", i.mean_depth))
        .pair("score", Men(i.score))
        .pair("nodes", i.nodes)
        .pair("time", format_args!("{secs:.3}"))
        .pair("nps", format_args!("{nps:.1}"))
        .quoted("pv", pv.join(" "));
    match i.tb_hits {
        Some(n) => w.pair("tbhits", n),
        None => w,
    }
    .finish()
}

/// The `done` line.
pub fn done(best: &Move, ponder: Option<&Move>) -> String {
    let w = Writer::new("done").pair("move", best);
    match ponder {
        Some(p) => w.pair("ponder", p),
        None => w,
    }
    .finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::search::MATE;
    use std::time::Duration;

    #[test]
    fn shapes() {
        assert_eq!(
            id(),
            format!(
                "id name=molkwar version={} author=\"the molkwar developers\" country=NL",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(error("bad \"x\"\n\t"), "error message=\"bad 'x'??\"");
        assert_eq!(error("x"), "error message=\"x\"");
        assert_eq!(
            error(&"y".repeat(300)).len(),
            "error message=\"\"".len() + 200
        );
        let sq = |n| Square::from_number(n).unwrap();
        let m = Move::quiet(sq(32), sq(28));
        let c = Move::capture(sq(28), sq(19), sq(23).mask() | sq(13).mask());
        assert_eq!(done(&m, Some(&c)), "done move=32-28 ponder=28x19x13x23");
        let i = Info {
            depth: 12,
            mean_depth: 11.83,
            score: -(MATE - 3),
            nodes: 1_234_567,
            time: Duration::from_millis(1234),
            pv: vec![m],
            tb_hits: None,
            line: 1,
        };
        assert_eq!(
            info(&i),
            "info depth=12 mean-depth=11.8 score=-99.97 nodes=1234567 time=1.234 nps=1.0 pv=\"32-28\""
        );
        let t = Info {
            tb_hits: Some(42),
            ..i
        };
        assert!(info(&t).ends_with(" pv=\"32-28\" tbhits=42"));
    }
}
