//! `match --resume`: the games a killed match already wrote to its PDN file
//! are read back, checked against this match (round, players, opening) and
//! counted, so only the missing games are played: a long match can span
//! several runs (README.md, `molkwar match`).

use super::openings::Opening;
use super::pdn;
use super::referee::{GameRecord, GameResult, SideStats, Termination};
use crate::board::{Color, fen, notation};
use crate::game::Game;
use crate::pdn::read::{PdnGame, read_games};
use crate::variant::VariantKind;
use std::collections::BTreeMap;
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

/// The games found, by game index (round − 1), and whether the file's last
/// game was cut off (it is dropped and played again).
pub struct Found {
    pub games: BTreeMap<u32, GameRecord>,
    pub dropped_tail: bool,
}

/// Reads `path` (a missing file is an empty match). Every game must belong
/// to this match; only the last may be broken (a run killed while writing).
pub fn read(path: &Path, expect: &Expect) -> Result<Found, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read '{}': {e}", path.display())),
    };
    let read = read_games(&text, expect.variant);
    let n = read.len();
    let mut found = Found {
        games: BTreeMap::new(),
        dropped_tail: false,
    };
    for (i, r) in read.into_iter().enumerate() {
        let last = i + 1 == n;
        let g = match r {
            Ok(g) if !last || GameResult::parse(&g.result).is_some() => g,
            Ok(g) => {
                log::warn!("resume: dropping game {} of the PDN (no result)", g.number);
                found.dropped_tail = true;
                break;
            }
            Err(e) if last => {
                log::warn!("resume: dropping the last game of the PDN ({e})");
                found.dropped_tail = true;
                break;
            }
            Err(e) => return Err(format!("cannot resume from '{}': {e}", path.display())),
        };
        let (index, rec) = check(&g, expect).map_err(|e| {
            format!(
                "cannot resume from '{}': game {}: {e}",
                path.display(),
                g.number
            )
        })?;
        if found.games.insert(index, rec).is_some() {
            return Err(format!(
                "cannot resume from '{}': round {} is there twice",
                path.display(),
                index + 1
            ));
        }
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
    let (white, black) = if index.is_multiple_of(2) {
        (expect.names[0], expect.names[1])
    } else {
        (expect.names[1], expect.names[0])
    };
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

/// The kept games as PDN text, in file order, to replace a file whose
/// broken last game was dropped.
pub fn rewrite(found: &Found, expect: &Expect) -> String {
    found
        .games
        .iter()
        .map(|(&g, rec)| {
            let (white, black) = if g.is_multiple_of(2) {
                (expect.names[0], expect.names[1])
            } else {
                (expect.names[1], expect.names[0])
            };
            let h = pdn::Header {
                event: expect.event,
                round: g + 1,
                white,
                black,
                variant: expect.variant,
            };
            pdn::write_game(&h, rec)
        })
        .collect()
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

    #[test]
    fn reads_back_what_the_match_wrote() {
        let ops = openings();
        let ab = expect(4, ["a", "b"], ops.iter().collect());
        let mut found = Found {
            games: BTreeMap::new(),
            dropped_tail: false,
        };
        let draw = Termination::AdjudicatedDraw;
        let moves = ["32-28", "19-23", "28x19"];
        found
            .games
            .insert(0, record(ops[0].pos, &moves, GameResult::Draw, draw));
        let flag = Termination::Time;
        found.games.insert(
            3,
            record(ops[1].pos, &["21-26"], GameResult::BlackWins, flag),
        );
        let text = rewrite(&found, &ab);
        let dir = std::env::temp_dir().join(format!("molkwar-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.pdn");
        // A cut-off last game is dropped; the others come back as written.
        std::fs::write(
            &path,
            format!("{text}[Event \"e\"]\n[Round \"2\"]\n\n1. 32-2"),
        )
        .unwrap();
        let back = read(&path, &ab).unwrap();
        assert!(back.dropped_tail);
        assert_eq!(back.games.keys().copied().collect::<Vec<_>>(), vec![0, 3]);
        assert_eq!(back.games[&0].moves, found.games[&0].moves);
        assert_eq!(back.games[&3].offender, Some(Color::White));
        assert_eq!(back.games[&0].offender, None);
        assert_eq!(rewrite(&back, &ab), text);

        // Another match's games are refused, with the reason.
        std::fs::write(&path, &text).unwrap();
        let refused = |e: Expect, why: &str| {
            let err = read(&path, &e).err().unwrap();
            assert!(err.contains(why), "{err}");
        };
        refused(
            expect(4, ["b", "a"], ops.iter().collect()),
            "engines or names changed",
        );
        refused(
            expect(2, ["a", "b"], ops.iter().collect()),
            "round 4 is not one of this match's 2 games",
        );
        refused(
            expect(4, ["a", "b"], ops.iter().rev().collect()),
            "another opening",
        );
        std::fs::write(&path, format!("{text}{text}")).unwrap();
        refused(
            expect(4, ["a", "b"], ops.iter().collect()),
            "round 1 is there twice",
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_file_is_an_empty_match() {
        let ops = openings();
        let e = expect(2, ["a", "b"], ops.iter().collect());
        let found = read(Path::new("/nonexistent/molkwar/m.pdn"), &e).unwrap();
        assert!(found.games.is_empty() && !found.dropped_tail);
    }
}
