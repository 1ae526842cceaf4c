//! Reads a PDN file (docs/rules.md §9.4) into games: tag pairs, moves
//! checked against the legal moves, results; comments, NAGs and variations
//! are skipped. A bad game becomes an error naming its number and line,
//! and reading goes on with the next game.

use crate::board::{MoveError, Position, fen, notation};
use crate::game::Game;
use crate::variant::VariantKind;
use crate::{Color, Move};
use std::fmt;

/// One game of a PDN file, its moves legal from its start position.
#[derive(Clone, Debug, PartialEq)]
pub struct PdnGame {
    /// Its number in the file, from 1 (bad games are counted too).
    pub number: usize,
    /// The line where it begins.
    pub line: usize,
    /// The tag pairs in file order, values unescaped.
    pub tags: Vec<(String, String)>,
    /// From `GameType` (20, 40), else the reader's default.
    pub variant: VariantKind,
    /// From the `FEN` tag, else the start position.
    pub start: Position,
    /// The moves played, in order.
    pub moves: Vec<Move>,
    /// The result after the moves (`2-0`, `0-2`, `1-1`, `*`, …) as written;
    /// without one, the `Result` tag's value, else `*`.
    pub result: String,
}

impl PdnGame {
    /// The value of the first tag named `key` (case as written).
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a game was refused: where, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The line of the offending tag, move or token, from 1.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}: {}",
            self.game, self.line, self.message
        )
    }
}

impl std::error::Error for PdnError {}

/// Reads every game of `text`, in order. `default` is the variant of games
/// without a `GameType` tag; `GameType 40` keeps a Frisian default (such as
/// `frisian-seed`) and otherwise means Frisian.
pub fn read_games(text: &str, default: VariantKind) -> Vec<Result<PdnGame, PdnError>> {
    let mut out = Vec::new();
    let mut lexer = Lexer::new(text);
    let mut current: Option<Pending> = None;
    let mut count = 0;
    while let Some(item) = lexer.next_token() {
        // Without a result between them, a tag after moves or a tag given
        // again is taken as the next game's; so is a broken tag after moves.
        let next_game = match &item {
            Ok((Token::Tag(key, _), _)) => current
                .as_ref()
                .is_some_and(|p| p.movetext || p.tags.iter().any(|t| &t.0 == key)),
            Err(e) => e.in_tag && current.as_ref().is_some_and(|p| p.movetext),
            Ok(_) => false,
        };
        if next_game && let Some(p) = current.take() {
            out.push(p.finish(None, default));
        }
        let line = match &item {
            Ok((_, line)) => *line,
            Err(e) => e.line,
        };
        let p = current.get_or_insert_with(|| {
            count += 1;
            Pending::new(count, line)
        });
        match item {
            Err(e) => {
                p.fail(e.line, e.message);
                // Garbage in the movetext: the next tag starts a new game.
                p.movetext |= !e.in_tag;
            }
            Ok((Token::Tag(key, value), line)) => p.tags.push((key, value, line)),
            Ok((Token::Move(text), line)) => p.play(&text, line, default),
            Ok((Token::Result(r), _)) => {
                if let Some(p) = current.take() {
                    out.push(p.finish(Some(r), default));
                }
            }
        }
    }
    if let Some(p) = current {
        out.push(p.finish(None, default));
    }
    out
}

/// A game being read.
struct Pending {
    number: usize,
    line: usize,
    /// Tags with the line each was on (for errors).
    tags: Vec<(String, String, usize)>,
    /// Set up at the first move, from the tags.
    game: Option<Game>,
    /// Some movetext was seen (a later tag belongs to the next game).
    movetext: bool,
    /// The first error; the rest of the game is skipped.
    error: Option<PdnError>,
}

impl Pending {
    fn new(number: usize, line: usize) -> Pending {
        Pending {
            number,
            line,
            tags: Vec::new(),
            game: None,
            movetext: false,
            error: None,
        }
    }

    fn fail(&mut self, line: usize, message: String) {
        if self.error.is_none() {
            self.error = Some(PdnError {
                game: self.number,
                line,
                message,
            });
        }
    }

    fn tag(&self, key: &str) -> Option<(&str, usize)> {
        self.tags
            .iter()
            .find(|t| t.0.eq_ignore_ascii_case(key))
            .map(|t| (t.1.as_str(), t.2))
    }

    /// The game as the tags set it up; on error, the tag's line and why.
    fn set_up(&self, default: VariantKind) -> Result<Game, (usize, String)> {
        let variant = match self.tag("GameType") {
            None => default,
            // PDN 3 allows `20,W,10,10,N2,0`: only the type number counts.
            Some((v, line)) => match v.split(',').next().unwrap_or("").trim() {
                "20" => VariantKind::International,
                "40" if default.is_frisian() => default,
                "40" => VariantKind::Frisian,
                _ => {
                    return Err((
                        line,
                        format!(
                            "GameType \"{v}\" is not supported (20 = International, 40 = Frisian)"
                        ),
                    ));
                }
            },
        };
        let start = match self.tag("FEN") {
            None => Position::start(),
            Some((f, line)) => {
                fen::parse_fen(f).map_err(|e| (line, format!("FEN \"{f}\": {e}")))?
            }
        };
        Ok(Game::new(variant, start))
    }

    fn play(&mut self, text: &str, line: usize, default: VariantKind) {
        self.movetext = true;
        if self.error.is_some() {
            return;
        }
        if self.game.is_none() {
            match self.set_up(default) {
                Ok(g) => self.game = Some(g),
                Err((l, m)) => return self.fail(l, m),
            }
        }
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let legal = game.legal_moves();
        match notation::parse_move(game.position(), &legal, text) {
            Ok(mv) => game.play(&mv),
            Err(e) => {
                let plies = game.moves().len() + usize::from(game.start().side() == Color::Black);
                let (number, side) = (plies / 2 + 1, game.position().side());
                let whose = if side == Color::White {
                    "White"
                } else {
                    "Black"
                };
                let message = match e {
                    MoveError::Illegal(m) if legal.is_empty() => {
                        format!("illegal move {m}: {whose} has no legal move (the game is over)")
                    }
                    MoveError::Illegal(m) => format!("illegal move {m} ({whose}'s move {number})"),
                    MoveError::Ambiguous(m) => format!(
                        "ambiguous move {m} ({whose}'s move {number}): more than one legal capture fits"
                    ),
                    MoveError::Syntax(_) => format!("{e} ({whose}'s move {number})"),
                };
                self.fail(line, message);
            }
        }
    }

    fn finish(self, result: Option<String>, default: VariantKind) -> Result<PdnGame, PdnError> {
        let fail = |line, message| PdnError {
            game: self.number,
            line,
            message,
        };
        if let Some(e) = self.error {
            return Err(e);
        }
        let result = result
            .or_else(|| self.tag("Result").map(|(r, _)| r.trim().to_string()))
            .unwrap_or_else(|| "*".to_string());
        let game = match self.game {
            Some(g) => g,
            None => self.set_up(default).map_err(|(l, m)| fail(l, m))?,
        };
        Ok(PdnGame {
            number: self.number,
            line: self.line,
            tags: self.tags.into_iter().map(|(k, v, _)| (k, v)).collect(),
            variant: game.variant(),
            start: *game.start(),
            moves: game.moves().to_vec(),
            result,
        })
    }
}

/// What the lexer hands on; move numbers, NAGs, comments and variations
/// never leave it.
enum Token {
    Tag(String, String),
    Move(String),
    Result(String),
}

/// A lexical error. After an unclosed comment or variation the lexer has
/// consumed the rest of the input and returns nothing more.
struct LexError {
    line: usize,
    message: String,
    /// Found inside a tag pair (so not movetext).
    in_tag: bool,
}

/// Results as written after the moves: PDN's, and chess-style ones some
/// programs write.
const RESULTS: [&str; 8] = ["2-0", "0-2", "1-1", "0-0", "*", "1-0", "0-1", "1/2-1/2"];

/// Characters that end a word of movetext.
const DELIMITERS: &[u8] = b"{}()[];";

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            // A byte-order mark some editors write is not movetext.
            text: text.strip_prefix('\u{feff}').unwrap_or(text),
            pos: 0,
            line: 1,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.pos += 1;
        if c == b'\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == b'\n' {
                break;
            }
        }
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(|c| c == b' ' || c == b'\t') {
            self.bump();
        }
    }

    fn error(&self, line: usize, message: String, in_tag: bool) -> LexError {
        LexError {
            line,
            message,
            in_tag,
        }
    }

    /// The next token with its line; `None` at the end of the input.
    fn next_token(&mut self) -> Option<Result<(Token, usize), LexError>> {
        loop {
            while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
                self.bump();
            }
            let c = self.peek()?;
            let line = self.line;
            let line_start = self.pos == 0 || self.text.as_bytes()[self.pos - 1] == b'\n';
            match c {
                // PDN escape line and rest-of-line comment.
                b'%' if line_start => self.skip_line(),
                b';' => self.skip_line(),
                b'{' => {
                    if let Err(e) = self.skip_comment() {
                        return Some(Err(e));
                    }
                }
                b'(' => {
                    if let Err(e) = self.skip_variation() {
                        return Some(Err(e));
                    }
                }
                b'[' => return Some(self.tag().map(|t| (t, line))),
                b')' | b']' | b'}' => {
                    self.bump();
                    let m = format!("unexpected '{}' (nothing to close)", c as char);
                    return Some(Err(self.error(line, m, false)));
                }
                _ => {
                    let start = self.pos;
                    while self
                        .peek()
                        .is_some_and(|c| !c.is_ascii_whitespace() && !DELIMITERS.contains(&c))
                    {
                        self.bump();
                    }
                    match classify(&self.text[start..self.pos]) {
                        Ok(Some(t)) => return Some(Ok((t, line))),
                        Ok(None) => {}
                        Err(m) => return Some(Err(self.error(line, m, false))),
                    }
                }
            }
        }
    }

    /// Skips `{…}`, which may span lines.
    fn skip_comment(&mut self) -> Result<(), LexError> {
        let line = self.line;
        self.bump();
        loop {
            match self.bump() {
                Some(b'}') => return Ok(()),
                Some(_) => {}
                None => {
                    let m = "comment '{' is never closed".to_string();
                    return Err(self.error(line, m, false));
                }
            }
        }
    }

    /// Skips `(…)`, nested variations and comments included.
    fn skip_variation(&mut self) -> Result<(), LexError> {
        let line = self.line;
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Some(b'{') => self.skip_comment()?,
                Some(c) => {
                    self.bump();
                    if c == b'(' {
                        depth += 1;
                    } else if c == b')' {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(());
                        }
                    }
                }
                None => {
                    let m = "variation '(' is never closed".to_string();
                    return Err(self.error(line, m, false));
                }
            }
        }
    }

    /// `[Key "value"]` with `\"` and `\\` escapes, on one line.
    fn tag(&mut self) -> Result<Token, LexError> {
        let line = self.line;
        self.bump();
        self.skip_blanks();
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.bump();
        }
        let key = self.text[start..self.pos].to_string();
        let bad = |me: &mut Self, what: String| {
            // Resynchronise at the next line.
            if me.line == line {
                me.skip_line();
            }
            Err(me.error(line, what, true))
        };
        if key.is_empty() {
            return bad(
                self,
                "tag without a name (expected [Name \"value\"])".into(),
            );
        }
        self.skip_blanks();
        if self.peek() != Some(b'"') {
            return bad(self, format!("tag {key}: expected a value in quotes"));
        }
        self.bump();
        let mut value = String::new();
        let mut from = self.pos;
        loop {
            match self.peek() {
                Some(b'"') => {
                    value.push_str(&self.text[from..self.pos]);
                    self.bump();
                    break;
                }
                Some(b'\\') => {
                    value.push_str(&self.text[from..self.pos]);
                    self.bump();
                    match self.peek() {
                        Some(c @ (b'"' | b'\\')) => {
                            value.push(c as char);
                            self.bump();
                        }
                        // Not an escape PDN knows: kept as written.
                        _ => value.push('\\'),
                    }
                    from = self.pos;
                }
                Some(b'\n') | None => {
                    return bad(
                        self,
                        format!("tag {key}: the value's quote is never closed"),
                    );
                }
                Some(_) => {
                    self.bump();
                }
            }
        }
        self.skip_blanks();
        if self.peek() != Some(b']') {
            return bad(self, format!("tag {key}: expected ']' after the value"));
        }
        self.bump();
        Ok(Token::Tag(key, value))
    }
}

/// A word of movetext: a move, a result, or nothing to hand on (a move
/// number, a NAG, an annotation mark).
fn classify(word: &str) -> Result<Option<Token>, String> {
    if RESULTS.contains(&word) {
        return Ok(Some(Token::Result(word.to_string())));
    }
    if let Some(n) = word.strip_prefix('$')
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
    {
        return Ok(None);
    }
    // A move number may be glued to its move (`1.32-28`, `1...21-26`).
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let rest = if word[digits..].starts_with('.') {
        &word[digits..]
    } else {
        word
    };
    let rest = rest.trim_start_matches('.').trim_end_matches(['!', '?']);
    if rest.is_empty() {
        return Ok(None);
    }
    if rest.starts_with(|c: char| c.is_ascii_digit())
        && rest
            .bytes()
            .all(|b| b.is_ascii_digit() || b"-xX:".contains(&b))
    {
        return Ok(Some(Token::Move(rest.to_string())));
    }
    Err(format!(
        "unexpected '{word}' (not a move, move number, result or NAG)"
    ))
}
