//! `match --resume`: the games a killed match already wrote to its PDN file
//! are read back, checked against this match (round, players, opening) and
//! counted, so only the missing games are played: a long match can span
//! several runs (README.md, `molkwar match`).

use super::openings::Opening;
use super::referee::{GameRecord, GameResult, SideStats, Termination};
use super::runner::seats;
use crate::board::{Color, fen, notation};
use crate::game::Game;
use crate::pdn::read::{PdnGame, read_games};
use crate::variant::VariantKind;
use std::path::Path;

/// What the match needs to know to check a game read back.
pub struct Expect<'a> {
    pub games: u32,
    /// Engine names, first engine first (White in even games).
    pub names: [&'a str; 2],
    /// The opening of each game pair, in match order.
    pub openings: Vec<&'a Opening>,
    pub variant: VariantKind,
    pub event: &'a str,
}

/// The games found, in file order (the order they ended in), each with
/// its index in the match (round − 1); and where the file's complete games
/// end when a game after them was cut off (the file is cut back there).
pub struct Found {
    pub games: Vec<(u32, GameRecord)>,
    pub cut_at: Option<u64>,
}

/// The length of `text`'s complete games: up to the last result token
/// (`2-0`, `0-2`, `1-1` after a space or a line break) followed by the
/// blank line that ends every game the match writes. No move reads like a
/// result (there is no square 0, and no move goes from 1 to 1).
fn complete_len(text: &str) -> usize {
    ["2-0", "0-2", "1-1"]
        .iter()
        .flat_map(|r| {
            [' ', '\n'].map(|before| {
                let end = format!("{before}{r}\n\n");
                text.rfind(&end).map_or(0, |i| i + end.len())
            })
        })
        .max()
        .unwrap_or(0)
}

/// Reads `path` (a missing file is an empty match). Every complete game
/// must belong to this match; an incomplete one at the end (a run killed
/// while writing) is left out and will be played again.
pub fn read(path: &Path, expect: &Expect) -> Result<Found, String> {
    if expect.openings.is_empty() {
        return Err("no openings".into());
    }
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read '{}': {e}", path.display())),
    };
    let len = complete_len(&text);
    let cut_at = (!text[len..].trim().is_empty()).then_some(len as u64);
    if cut_at.is_some() {
        log::warn!(
            "resume: the last game of '{}' is incomplete; it is dropped and played again",
            path.display()
        );
    }
    let cannot = |e: String| format!("cannot resume from '{}': {e}", path.display());
    let mut found = Found {
        games: Vec::new(),
        cut_at,
    };
    let mut seen = std::collections::HashSet::new();
    for r in read_games(&text[..len], expect.variant) {
        let g = r.map_err(|e| cannot(e.to_string()))?;
        let (index, rec) =
            check(&g, expect).map_err(|e| cannot(format!("game {}: {e}", g.number)))?;
        if !seen.insert(index) {
            return Err(cannot(format!("round {} is there twice", index + 1)));
        }
        found.games.push((index, rec));
    }
    Ok(found)
}

/// The game's index in the match and its record (no statistics: the PDN
/// has none), if it is one of this match's games.
fn check(g: &PdnGame, expect: &Expect) -> Result<(u32, GameRecord), String> {
    let tag = |k: &str| g.tag(k).ok_or(format!("no {k} tag"));
    let round: u32 = tag("Round")?
        .parse()
        .map_err(|_| "Round is not a number".to_string())?;
    if round == 0 || round > expect.games {
        return Err(format!(
            "round {round} is not one of this match's {} games",
            expect.games
        ));
    }
    let index = round - 1;
    if tag("Event")? != expect.event {
        return Err(format!(
            "event '{}' is not '{}'",
            tag("Event")?,
            expect.event
        ));
    }
    let [white, black] = seats(index).map(|e| expect.names[e]);
    if (tag("White")?, tag("Black")?) != (white, black) {
        return Err(format!(
            "round {round} was {} against {}, this match has {white} against {black} (engines or names changed)",
            tag("White")?,
            tag("Black")?
        ));
    }
    if g.variant.is_frisian() != expect.variant.is_frisian() {
        return Err(format!("variant {} is not {}", g.variant, expect.variant));
    }
    let opening = expect.openings[(index / 2) as usize % expect.openings.len()];
    if fen::to_fen(&g.start) != fen::to_fen(&opening.pos) {
        return Err(format!(
            "round {round} started from another opening (seed, openings or variant changed)"
        ));
    }
    let result = GameResult::parse(&g.result)
        .ok_or(format!("result '{}' is not a finished game's", g.result))?;
    let termination =
        Termination::parse(tag("Termination")?).ok_or("unknown Termination".to_string())?;
    // Faults lose the game: the offender is the loser.
    let offender = match (termination.is_fault(), result) {
        (true, GameResult::WhiteWins) => Some(Color::Black),
        (true, GameResult::BlackWins) => Some(Color::White),
        _ => None,
    };
    let mut game = Game::new(g.variant, g.start);
    let mut moves = Vec::with_capacity(g.moves.len());
    for mv in &g.moves {
        moves.push(notation::to_pdn(mv, &game.legal_moves()));
        game.play(mv);
    }
    Ok((
        index,
        GameRecord {
            start: g.start,
            moves,
            result,
            termination,
            offender,
            stats: [SideStats::default(); 2],
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::variant::DrawRule;

    #[test]
    fn terminations_and_results_read_back() {
        let mut all = vec![
            Termination::NoMoves,
            Termination::Illegal("32-28".into()),
            Termination::Time,
            Termination::Crash,
            Termination::NoDone,
            Termination::Protocol("info nonsense 'x'".into()),
            Termination::AdjudicatedWin,
            Termination::AdjudicatedDraw,
            Termination::MaxLength,
        ];
        all.extend(DrawRule::ALL.map(Termination::Draw));
        for t in all {
            assert_eq!(
                Termination::parse(&t.name()),
                Some(t.clone()),
                "{}",
                t.name()
            );
        }
        assert_eq!(Termination::parse("draw by boredom"), None);
        assert_eq!(Termination::parse("illegal move 32-28"), None);
        for r in [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ] {
            assert_eq!(GameResult::parse(r.pdn()), Some(r));
        }
        assert_eq!(GameResult::parse("*"), None);
    }

    fn openings() -> Vec<Opening> {
        ["W:W31-50:B1-20", "B:W31-50:B1-19,21"]
            .iter()
            .map(|f| Opening {
                pos: fen::parse_fen(f).unwrap(),
                label: f.to_string(),
            })
            .collect()
    }

    fn expect<'a>(games: u32, names: [&'a str; 2], ops: Vec<&'a Opening>) -> Expect<'a> {
        Expect {
            games,
            names,
            openings: ops,
            variant: VariantKind::International,
            event: "e",
        }
    }

    fn record(start: Position, moves: &[&str], result: GameResult, t: Termination) -> GameRecord {
        GameRecord {
            start,
            moves: moves.iter().map(|m| m.to_string()).collect(),
            result,
            termination: t,
            offender: None,
            stats: [SideStats::default(); 2],
        }
    }

    /// The games as the match writes them.
    fn write(games: &[(u32, GameRecord)], e: &Expect) -> String {
        let mut text = String::new();
        for (g, rec) in games {
            let [white, black] = seats(*g).map(|i| e.names[i]);
            let h = crate::arena::pdn::Header {
                event: e.event,
                round: g + 1,
                white,
                black,
                variant: e.variant,
            };
            text.push_str(&crate::arena::pdn::write_game(&h, rec));
        }
        text
    }

    fn two_games(ops: &[Opening]) -> Vec<(u32, GameRecord)> {
        let draw = Termination::AdjudicatedDraw;
        let moves = ["32-28", "19-23", "28x19", "14x23"];
        vec![
            (
                3,
                record(
                    ops[1].pos,
                    &["21-26"],
                    GameResult::BlackWins,
                    Termination::Time,
                ),
            ),
            (0, record(ops[0].pos, &moves, GameResult::Draw, draw)),
        ]
    }

    fn tmp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("molkwar-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn reads_back_what_the_match_wrote_in_file_order() {
        let ops = openings();
        let ab = expect(4, ["a", "b"], ops.iter().collect());
        let games = two_games(&ops);
        let text = write(&games, &ab);
        let path = tmp("whole.pdn");
        std::fs::write(&path, &text).unwrap();
        let back = read(&path, &ab).unwrap();
        assert_eq!(back.cut_at, None);
        assert_eq!(back.games.iter().map(|g| g.0).collect::<Vec<_>>(), [3, 0]);
        assert_eq!(back.games[1].1.moves, games[1].1.moves);
        // A fault loses: its offender is the loser; a draw has none.
        assert_eq!(back.games[0].1.offender, Some(Color::White));
        assert_eq!(back.games[1].1.offender, None);
        assert_eq!(write(&back.games, &ab), text);
    }

    /// Cut anywhere (a run killed while writing), the file gives back the
    /// games completed before the cut, unchanged, and where to cut it.
    #[test]
    fn a_cut_off_last_game_is_dropped_wherever_the_cut() {
        let ops = openings();
        let ab = expect(4, ["a", "b"], ops.iter().collect());
        let games = two_games(&ops);
        let text = write(&games, &ab);
        let first_len = write(&games[..1], &ab).len();
        let path = tmp("cut.pdn");
        for cut in 0..=text.len() {
            std::fs::write(&path, &text[..cut]).unwrap();
            let back = read(&path, &ab).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
            let whole = if cut == text.len() {
                2
            } else if cut >= first_len {
                1
            } else {
                0
            };
            assert_eq!(back.games.len(), whole, "cut at {cut}");
            assert_eq!(
                write(&back.games, &ab),
                write(&games[..whole], &ab),
                "cut at {cut}"
            );
            let clean = cut == text.len() || cut == first_len || cut == 0;
            assert_eq!(back.cut_at.is_none(), clean, "cut at {cut}");
        }
    }

    #[test]
    fn another_matchs_games_are_refused_with_the_reason() {
        let ops = openings();
        let ab = expect(4, ["a", "b"], ops.iter().collect());
        let text = write(&two_games(&ops), &ab);
        let path = tmp("other.pdn");
        std::fs::write(&path, &text).unwrap();
        let refused = |e: Expect, why: &str| {
            let err = read(&path, &e).err().unwrap();
            assert!(err.contains(why), "{err}");
        };
        refused(
            expect(4, ["b", "a"], ops.iter().collect()),
            "engines or names changed",
        );
        let why = "round 4 is not one of this match's 2 games";
        refused(expect(2, ["a", "b"], ops.iter().collect()), why);
        refused(
            expect(4, ["a", "b"], ops.iter().rev().collect()),
            "another opening",
        );
        refused(expect(4, ["a", "b"], Vec::new()), "no openings");
        std::fs::write(&path, format!("{text}{text}")).unwrap();
        refused(
            expect(4, ["a", "b"], ops.iter().collect()),
            "round 4 is there twice",
        );
    }

    #[test]
    fn a_missing_file_is_an_empty_match() {
        let ops = openings();
        let e = expect(2, ["a", "b"], ops.iter().collect());
        let found = read(Path::new("/nonexistent/molkwar/m.pdn"), &e).unwrap();
        assert!(found.games.is_empty() && found.cut_at.is_none());
    }
}
