//! Writes one PDN game (docs/rules.md §9.4): tag pairs with their values
//! escaped, a blank line, numbered movetext with optional comments wrapped
//! to lines of at most 79 characters, the result, a blank line.

use crate::Color;
use std::fmt::Write;

/// Lines of movetext no longer than this.
const WIDTH: usize = 79;

/// A game being written, move by move.
pub struct GameWriter {
    text: String,
    line: String,
    number: u32,
    side: Color,
    /// Black's next move takes its number: at the start and after a comment.
    numbered: bool,
}

impl GameWriter {
    /// Starts a game with its tag pairs, in order; `side` moves first.
    pub fn new<'a>(tags: impl IntoIterator<Item = (&'a str, &'a str)>, side: Color) -> GameWriter {
        let mut text = String::new();
        for (k, v) in tags {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(text, "[{k} \"{v}\"]");
        }
        text.push('\n');
        GameWriter {
            text,
            line: String::new(),
            number: 1,
            side,
            numbered: true,
        }
    }

    /// The next move, in standard notation.
    pub fn push_move(&mut self, mv: &str) {
        let token = match self.side {
            Color::White => format!("{}. {mv}", self.number),
            Color::Black if self.numbered => format!("{}... {mv}", self.number),
            Color::Black => mv.to_string(),
        };
        self.token(&token);
        if self.side == Color::Black {
            self.number += 1;
        }
        self.side = self.side.other();
        self.numbered = false;
    }

    /// A `{comment}` after the last move.
    pub fn push_comment(&mut self, comment: &str) {
        self.token(&format!("{{{comment}}}"));
        self.numbered = true;
    }

    /// The game's text, ending with `result` and a blank line.
    pub fn finish(mut self, result: &str) -> String {
        self.token(result);
        self.text.push_str(&self.line);
        self.text.push_str("\n\n");
        self.text
    }

    fn token(&mut self, token: &str) {
        if !self.line.is_empty() && self.line.len() + 1 + token.len() > WIDTH {
            self.text.push_str(&self.line);
            self.text.push('\n');
            self.line.clear();
        }
        if !self.line.is_empty() {
            self.line.push(' ');
        }
        self.line.push_str(token);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_numbers_comments_and_wrapping() {
        let mut w = GameWriter::new([("White", "a \"b\" \\"), ("Result", "0-2")], Color::Black);
        w.push_move("19-23");
        w.push_move("32-28");
        w.push_comment("0.10");
        w.push_move("23x32");
        for _ in 0..40 {
            w.push_move("1-6");
        }
        let t = w.finish("0-2");
        assert!(
            t.starts_with("[White \"a \\\"b\\\" \\\\\"]\n[Result \"0-2\"]\n\n"),
            "{t}"
        );
        assert!(
            t.contains("1... 19-23 2. 32-28 {0.10} 2... 23x32 3. 1-6"),
            "{t}"
        );
        assert!(t.lines().all(|l| l.len() <= WIDTH), "{t}");
        assert!(t.lines().filter(|l| !l.is_empty()).count() > 4, "{t}");
        assert!(t.ends_with(" 0-2\n\n"), "{t}");
    }

    #[test]
    fn a_game_without_moves_is_its_result() {
        let t = GameWriter::new([("Result", "1-1")], Color::White).finish("1-1");
        assert_eq!(t, "[Result \"1-1\"]\n\n1-1\n\n");
    }
}
