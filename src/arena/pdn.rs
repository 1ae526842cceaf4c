//! PDN output of a finished game (docs/rules.md §9.4): `GameType` 20 or 40, the
//! opening as `[FEN]`, players, result `2-0`/`0-2`/`1-1`, a `Termination`
//! tag, and the moves in standard notation.

use super::referee::GameRecord;
use crate::board::{Position, fen};
use crate::pdn::GameWriter;
use crate::variant::VariantKind;

/// The tags that are not derived from the record.
pub struct Header<'a> {
    pub event: &'a str,
    pub round: u32,
    pub white: &'a str,
    pub black: &'a str,
    pub variant: VariantKind,
}

/// One game as PDN text, ending with a blank line.
pub fn write_game(h: &Header, g: &GameRecord) -> String {
    write(h, &g.start, &g.moves, g.result.pdn(), &g.termination.name())
}

/// A game from its parts: `result` is the PDN result (`2-0`, `0-2`, `1-1`,
/// or `*` for an unfinished game), `moves` are in standard notation.
pub fn write(
    h: &Header,
    start: &Position,
    moves: &[String],
    result: &str,
    termination: &str,
) -> String {
    let round = h.round.to_string();
    let game_type = if h.variant.is_frisian() { "40" } else { "20" };
    let fen = fen::to_fen(start);
    let tags = [
        ("Event", h.event),
        ("Round", &round),
        ("White", h.white),
        ("Black", h.black),
        ("Result", result),
        ("GameType", game_type),
        ("FEN", &fen),
        ("Termination", termination),
    ];
    let mut w = GameWriter::new(tags, start.side());
    for m in moves {
        w.push_move(m);
    }
    w.finish(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::{GameResult, SideStats, Termination};
    use crate::board::Color;

    #[test]
    fn black_to_move_opening_and_tags() {
        let start = fen::parse_fen("B:W31-50:B1-20").unwrap();
        let g = GameRecord {
            start,
            moves: vec!["19-23".into(), "32-28".into(), "23x32".into()],
            result: GameResult::BlackWins,
            termination: Termination::Time,
            offender: Some(Color::White),
            stats: [SideStats::default(); 2],
        };
        let h = Header {
            event: "test",
            round: 3,
            white: "a \"b\"",
            black: "c",
            variant: VariantKind::Frisian,
        };
        let t = write_game(&h, &g);
        assert!(t.contains("[GameType \"40\"]\n"), "{t}");
        assert!(t.contains("[White \"a \\\"b\\\"\"]\n"), "{t}");
        assert!(t.contains("[Termination \"time forfeit\"]\n"), "{t}");
        assert!(t.contains("[FEN \"B:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20\"]"), "{t}");
        assert!(t.ends_with("\n1... 19-23 2. 32-28 23x32 0-2\n\n"), "{t}");
    }

    #[test]
    fn long_games_wrap_lines() {
        let g = GameRecord {
            start: Position::start(),
            moves: vec!["32-28".into(); 60],
            result: GameResult::Draw,
            termination: Termination::MaxLength,
            offender: None,
            stats: [SideStats::default(); 2],
        };
        let h = Header {
            event: "e",
            round: 1,
            white: "w",
            black: "b",
            variant: VariantKind::International,
        };
        let t = write_game(&h, &g);
        assert!(t.contains("[GameType \"20\"]"));
        assert!(
            t.lines()
                .filter(|l| !l.starts_with('['))
                .all(|l| l.len() <= 80),
            "{t}"
        );
        assert!(t.trim_end().ends_with("1-1"));
    }
}
