//! The PDN reader (`molkwar::pdn`): tags, movetext, what it skips, variants
//! and set-up positions, several games, errors naming game and line, and
//! games written by the match writer (`arena::pdn`) read back unchanged.

use molkwar::arena::pdn::{Header, write};
use molkwar::arena::rng::Rng;
use molkwar::board::{fen, notation};
use molkwar::pdn::{PdnError, PdnGame, read_games};
use molkwar::{Color, Game, Position, VariantKind};

const INTL: VariantKind = VariantKind::International;

/// The games of `text`, all of which must read.
fn games(text: &str, default: VariantKind) -> Vec<PdnGame> {
    read_games(text, default)
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}\n{text}")))
        .collect()
}

fn one(text: &str) -> PdnGame {
    let mut g = games(text, INTL);
    assert_eq!(g.len(), 1, "{text}");
    g.remove(0)
}

/// The moves in Hub notation (unambiguous, so comparisons are exact).
fn hub(g: &PdnGame) -> Vec<String> {
    g.moves.iter().map(|m| m.to_string()).collect()
}

/// The single error of the `index`-th game (from 0).
fn error(text: &str, index: usize) -> PdnError {
    match &read_games(text, INTL)[index] {
        Err(e) => e.clone(),
        Ok(g) => panic!("game {} read without error: {g:?}", index + 1),
    }
}

#[test]
fn tags_with_escapes_in_order() {
    let g = one(concat!(
        "[Event \"Club \\\"Noord\\\" 2024\"]\n",
        "[ White   \"a\\\\b\" ]\n",
        "[Black \"back\\slash kept\"]\n",
        "[Site \"\"]\n",
        "\n1. 32-28 *\n"
    ));
    assert_eq!(
        g.tags,
        [
            ("Event", "Club \"Noord\" 2024"),
            ("White", "a\\b"),
            ("Black", "back\\slash kept"),
            ("Site", ""),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()))
    );
    assert_eq!(g.tag("White"), Some("a\\b"));
    assert_eq!(g.tag("Round"), None);
    assert_eq!(hub(&g), ["32-28"]);
    assert_eq!(g.result, "*");
    assert_eq!(g.variant, INTL);
    assert_eq!(g.start, Position::start());
    assert_eq!((g.number, g.line), (1, 1));
}

#[test]
fn comments_variations_nags_and_numbers_are_skipped() {
    let g = one(concat!(
        "% an escape line, ignored\n",
        "[Event \"e\"]\n",
        "{ a comment\n  over (two) lines }\n",
        "1. 32-28 $1 19-23! 2.28x19?! 14x23 ; the rest of this line: 33-29\n",
        "(2... 13x24 (2... 13x24 {nested, with a ) inside} 3. 34-30) 3. 40-34)\n",
        "3.37-32 {} 3...10-14 4. 41-37!! 5-10?? 2-0\n",
    ));
    assert_eq!(
        hub(&g),
        [
            "32-28", "19-23", "28x19x23", "14x23x19", "37-32", "10-14", "41-37", "5-10"
        ]
    );
    assert_eq!(g.result, "2-0");
}

#[test]
fn fen_start_with_black_to_move() {
    let g = one(concat!(
        "[GameType \"20\"]\n",
        "[FEN \"B:W31-50:B1-20\"]\n",
        "1... 19-23 2. 32-28 23x32 3. 37x28 0-2\n"
    ));
    assert_eq!(g.start, fen::parse_fen("B:W31-50:B1-20").unwrap());
    assert_eq!(g.start.side(), Color::Black);
    assert_eq!(hub(&g), ["19-23", "32-28", "23x32x28", "37x28x32"]);
    assert_eq!(g.result, "0-2");
}

#[test]
fn game_types_choose_the_variant() {
    let text = |t: &str| format!("[GameType \"{t}\"]\n1. 32-28 *\n");
    let fr = VariantKind::Frisian;
    let seed = VariantKind::FrisianSeed;
    assert_eq!(games(&text("20"), fr)[0].variant, INTL);
    assert_eq!(games(&text("40"), INTL)[0].variant, fr);
    // PDN 3's long form: only the type number counts.
    assert_eq!(games(&text("40,W,10,10,N2,0"), INTL)[0].variant, fr);
    // A Frisian default keeps its reading of the rules.
    assert_eq!(games(&text("40"), seed)[0].variant, seed);
    // No GameType: the caller's default.
    assert_eq!(games("1. 32-28 *", fr)[0].variant, fr);
    assert_eq!(games("1. 32-28 *", INTL)[0].variant, INTL);
    // A Frisian-only move: 46x6 takes 26 up the column (docs/rules.md
    // §1.2, §4.3), which International does not allow.
    let rows = "[GameType \"40\"]\n[FEN \"W:WK46:B26\"]\n1. 46x6 *\n";
    assert_eq!(hub(&games(rows, INTL)[0]), ["46x6x26"]);
    let e = error(&rows.replace("\"40\"", "\"20\""), 0);
    assert_eq!((e.game, e.line), (1, 3), "{e}");
}

#[test]
fn several_games_with_and_without_results() {
    let text = concat!(
        "[Event \"one\"]\n",
        "1. 32-28 19-23 2-0\n",
        "\n",
        "[Event \"two\"]\n",
        "[Result \"1-1\"]\n",
        "1. 31-27\n",
        "[Event \"three\"]\n", // no result before it: a new game all the same
        "1. 33-29 1/2-1/2\n",
        "[Event \"four\"]\n",
        "[Result \"0-2\"]\n",
        "\n",
        "[Event \"five\"]\n",
        "[Event \"six\"]\n", // a tag given again starts a game
        "1-0\n",
        "1. 34-30 *",
    );
    let g = games(text, INTL);
    let events: Vec<_> = g.iter().map(|g| g.tag("Event")).collect();
    assert_eq!(
        events,
        [
            Some("one"),
            Some("two"),
            Some("three"),
            Some("four"),
            Some("five"),
            Some("six"),
            None
        ]
    );
    let results: Vec<&str> = g.iter().map(|g| g.result.as_str()).collect();
    assert_eq!(results, ["2-0", "1-1", "1/2-1/2", "0-2", "*", "1-0", "*"]);
    assert_eq!(hub(&g[1]), ["31-27"]);
    assert!(g[3].moves.is_empty() && g[4].moves.is_empty());
    let numbers: Vec<(usize, usize)> = g.iter().map(|g| (g.number, g.line)).collect();
    assert_eq!(
        numbers,
        [(1, 1), (2, 4), (3, 7), (4, 9), (5, 12), (6, 13), (7, 15)]
    );
}

#[test]
fn empty_input_has_no_games() {
    assert!(read_games("", INTL).is_empty());
    assert!(read_games("\u{feff}\n  { only a comment }\n% escape\n", INTL).is_empty());
}

#[test]
fn illegal_move_names_game_line_and_move_and_the_rest_is_read() {
    let text = concat!(
        "[Event \"good\"]\n",
        "1. 32-28 19-23 *\n",
        "\n",
        "[Event \"bad\"]\n",
        "1. 32-28 19-23\n",
        "2. 32-27 23x32 *\n",
        "\n",
        "[Event \"good again\"]\n",
        "1. 34-30 *\n",
    );
    let all = read_games(text, INTL);
    assert_eq!(all.len(), 3);
    assert!(all[0].is_ok() && all[2].is_ok());
    assert_eq!(all[2].as_ref().unwrap().number, 3);
    let e = error(text, 1);
    assert_eq!((e.game, e.line), (2, 6), "{e}");
    assert_eq!(
        e.to_string(),
        "game 2, line 6: illegal move 32-27 (White's move 2)"
    );
}

#[test]
fn ambiguous_and_malformed_moves() {
    // Two captures from 3 to 1 (tests/properties.rs works them out).
    let amb = "[FEN \"W:WK3:B12,14,24,30\"]\n1. 3x1 *\n";
    let e = error(amb, 0);
    assert!(
        e.to_string()
            .starts_with("game 1, line 2: ambiguous move 3x1"),
        "{e}"
    );
    assert_eq!(hub(&one(&amb.replace("3x1", "3x1x24"))), ["3x1x12x14x24"]);
    let e = error("1. 32-28\n19-23-28 *", 0);
    assert!(
        e.to_string()
            .starts_with("game 1, line 2: bad move: '19-23-28'"),
        "{e}"
    );
    let e = error("1. 32-28 e5 *", 0);
    assert_eq!(
        e.to_string(),
        "game 1, line 1: unexpected 'e5' (not a move, move number, result or NAG)"
    );
    // Moves after the end of the game.
    let e = error("[FEN \"B:W28:B\"]\n1... 1-7 *", 0);
    assert!(e.to_string().contains("has no legal move"), "{e}");
}

#[test]
fn bad_fen_names_its_tag_line() {
    let text = concat!(
        "[Event \"good\"]\n",
        "1. 32-28 *\n",
        "[Event \"bad fen\"]\n",
        "[FEN \"W:W31-55:B1-20\"]\n",
        "1. 32-28 *\n",
    );
    let e = error(text, 1);
    assert_eq!((e.game, e.line), (2, 4), "{e}");
    assert!(
        e.message
            .starts_with("FEN \"W:W31-55:B1-20\": bad position"),
        "{e}"
    );
    // A game without moves is checked all the same.
    let e = error("[FEN \"X\"]\n*", 0);
    assert_eq!((e.game, e.line), (1, 1), "{e}");
}

#[test]
fn unknown_game_type_names_its_tag_line() {
    let text = concat!(
        "[Event \"bad\"]\n",
        "[Result \"*\"]\n",
        "[GameType \"21\"]\n",
        "1. 32-28 *\n",
        "[Event \"good\"]\n",
        "1. 32-28 *\n",
    );
    let e = error(text, 0);
    assert_eq!(
        e.to_string(),
        "game 1, line 3: GameType \"21\" is not supported (20 = International, 40 = Frisian)"
    );
    assert!(read_games(text, INTL)[1].is_ok());
}

#[test]
fn unclosed_comment_and_variation_name_where_they_open() {
    let text = concat!(
        "[Event \"good\"]\n",
        "1. 32-28 *\n",
        "\n",
        "[Event \"bad\"]\n",
        "1. 32-28 {this comment\n",
        "never ends 19-23\n",
        "[Event \"swallowed\"]\n",
        "1. 32-28 *\n",
    );
    let all = read_games(text, INTL);
    assert_eq!(all.len(), 2, "the rest of the file is inside the comment");
    let e = error(text, 1);
    assert_eq!(e.to_string(), "game 2, line 5: comment '{' is never closed");
    let e = error("1. 32-28\n(1... 19-23 (1... 18-23)\n*\n", 0);
    assert_eq!(
        e.to_string(),
        "game 1, line 2: variation '(' is never closed"
    );
    let e = error("1. 32-28 19-23 ) *", 0);
    assert_eq!(
        e.to_string(),
        "game 1, line 1: unexpected ')' (nothing to close)"
    );
}

#[test]
fn broken_tags_name_their_line_and_spare_the_next_game() {
    let text = concat!(
        "[Event \"one\"]\n",
        "[White \"no closing quote]\n",
        "1. 32-28 *\n",
        "[Event \"two\"]\n",
        "1. 32-28 *\n",
        "[Event \"three\" \n",
        "1. 32-28 *\n",
        "[ \"nameless\"]\n",
        "*\n",
    );
    let all = read_games(text, INTL);
    assert_eq!(all.len(), 4);
    assert_eq!(
        error(text, 0).to_string(),
        "game 1, line 2: tag White: the value's quote is never closed"
    );
    assert!(all[1].is_ok());
    assert_eq!(
        error(text, 2).to_string(),
        "game 3, line 6: tag Event: expected ']' after the value"
    );
    assert_eq!(
        error(text, 3).to_string(),
        "game 4, line 8: tag without a name (expected [Name \"value\"])"
    );
}

/// A random game: from the start or a random early position, with Black
/// to move or not, up to `plies` or the end of the game.
fn random_game(variant: VariantKind, rng: &mut Rng, plies: usize) -> (Position, Vec<String>) {
    let mut game = Game::new(variant, Position::start());
    // A few plies first, so that some games start with Black to move.
    for _ in 0..rng.below(4) {
        let legal = game.legal_moves();
        let mv = legal.as_slice()[rng.below(legal.len())];
        game.play(&mv);
    }
    let start = *game.position();
    let mut game = Game::new(variant, start);
    let mut moves = Vec::new();
    while moves.len() < plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal.as_slice()[rng.below(legal.len())];
        moves.push(notation::to_pdn(&mv, &legal));
        game.play(&mv);
    }
    (start, moves)
}

#[test]
fn the_match_writer_s_games_read_back_unchanged() {
    let mut rng = Rng::new(21);
    let mut text = String::new();
    let mut expected = Vec::new();
    let variants = [INTL, VariantKind::Frisian];
    for round in 1..=40 {
        let variant = variants[round as usize % 2];
        let plies = 20 + rng.below(300);
        let (start, moves) = random_game(variant, &mut rng, plies);
        let white = format!("engine \"{round}\" \\ x");
        let h = Header {
            event: "round trip",
            round,
            white: &white,
            black: "b",
            variant,
        };
        let result = ["2-0", "0-2", "1-1", "*"][rng.below(4)];
        text.push_str(&write(&h, &start, &moves, result, "adjudication"));
        expected.push((variant, start, moves, result, white));
    }
    // Every game has its GameType, so the default does not matter.
    let read = games(&text, VariantKind::Frisian);
    assert_eq!(read.len(), expected.len());
    for (g, (variant, start, moves, result, white)) in read.iter().zip(&expected) {
        assert_eq!(g.variant, *variant, "game {}", g.number);
        assert_eq!(g.start, *start, "game {}", g.number);
        assert_eq!(g.result, *result, "game {}", g.number);
        assert_eq!(g.tag("White"), Some(white.as_str()));
        assert_eq!(g.tag("Round"), Some(g.number.to_string().as_str()));
        assert_eq!(g.tag("Termination"), Some("adjudication"));
        // The same moves, written again the same way.
        let mut replay = Game::new(g.variant, g.start);
        let again: Vec<String> = g
            .moves
            .iter()
            .map(|m| {
                let s = notation::to_pdn(m, &replay.legal_moves());
                replay.play(m);
                s
            })
            .collect();
        assert_eq!(&again, moves, "game {}", g.number);
    }
}

#[test]
fn no_input_makes_the_reader_panic() {
    let sample = concat!(
        "[Event \"é \\\"x\\\" \\\\\"]\n[GameType \"40\"]\n[FEN \"B:W31-50:B1-20\"]\n",
        "% escape\n1... 19-23 {c} 2. 32-28 $2 (2. 33-29 {v} (2. 34-30)) 23x32! ; r\n",
        "3. 37x28 * [Event \"2\"] 1.32-28 1/2-1/2\n",
    );
    let chars: Vec<char> = sample.chars().collect();
    // Every prefix: unclosed comments, variations, tags and strings.
    for n in 0..=chars.len() {
        let text: String = chars[..n].iter().collect();
        let _ = read_games(&text, VariantKind::Frisian);
    }
    // Random damage with the characters the reader gives a meaning.
    let alphabet: Vec<char> = "{}()[]\"\\$!?.-x:0123456789 \n%;*éK/W".chars().collect();
    let mut rng = Rng::new(4);
    for _ in 0..3000 {
        let mut c = chars.clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(c.len());
            c[i] = alphabet[rng.below(alphabet.len())];
        }
        let text: String = c.iter().collect();
        for g in read_games(&text, INTL).into_iter().flatten() {
            // What was read is legal: it replays.
            let mut replay = Game::new(g.variant, g.start);
            for m in &g.moves {
                assert!(replay.legal_moves().as_slice().contains(m), "{text}");
                replay.play(m);
            }
        }
    }
}
