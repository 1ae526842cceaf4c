//! The Hub line grammar, shared by the engine (src/hub/, reading commands)
//! and the match referee (src/arena/, reading engine replies): nom reads a
//! line, [`Writer`] writes one with the quoting the reader expects.
//!
//! ```text
//! line  = ws* command (ws+ arg)* ws*
//! arg   = name [ "=" value ]
//! value = '"' any-but-quote* '"' | bare
//! name  = 1*(any but whitespace, '=' and '"')
//! bare  = 1*(any but whitespace and '"')
//! ws    = ' ' | '\t'
//! ```
//!
//! Every way a line can break the grammar has its own [`ParseError`], whose
//! `Display` is the text sent back in `error message="…"`.
//!
//! There is no escape inside quotes (Scan's reader has none either), so a
//! value cannot hold `"`: the writer turns it into `'`, and control
//! characters other than tab (which no line may hold) into `?`, so that
//! whatever it writes reads back. Values that must arrive intact are
//! checked first with [`check_value`]. The writer lives in `line/write.rs`.

mod write;

pub use write::{ValueError, Writer, check_value};

use nom::bytes::complete::{take_till, take_while, take_while1};
use nom::character::complete::char;
use nom::sequence::delimited;
use nom::{IResult, Parser};
use std::fmt;

/// One argument: `name`, `name=value` or `name="value"` (the quotes are
/// not part of `value`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg<'a> {
    pub name: &'a str,
    /// `None` for a flag; `Some("")` only from `name=""`.
    pub value: Option<&'a str>,
}

/// A line split into its command and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    pub command: &'a str,
    pub args: Vec<Arg<'a>>,
}

impl<'a> Line<'a> {
    /// The first argument called `name` (later duplicates are ignored).
    pub fn get(&self, name: &str) -> Option<&Arg<'a>> {
        self.args.iter().find(|a| a.name == name)
    }

    /// The value of the first argument called `name`, if it has one.
    pub fn value(&self, name: &str) -> Option<&'a str> {
        self.get(name).and_then(|a| a.value)
    }

    /// True when an argument called `name` is present (flag or not).
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }
}

/// Why a line does not follow the grammar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The line is empty or only whitespace.
    Empty,
    /// The line starts with `=` (no command).
    MissingCommand,
    /// An argument starts with `=`.
    MissingName,
    /// `name=` followed by a space or the end of the line.
    EmptyValue(String),
    /// A `"` without its closing partner.
    UnterminatedQuote(String),
    /// A `"` inside a name or a bare value, or text glued to a closing quote.
    StrayQuote(String),
    /// A control character other than tab.
    ControlCharacter(u32),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => f.write_str("empty line"),
            ParseError::MissingCommand => f.write_str("missing command"),
            ParseError::MissingName => f.write_str("missing name before '='"),
            ParseError::EmptyValue(n) => write!(f, "empty value for {n}"),
            ParseError::UnterminatedQuote(n) => write!(f, "unterminated quote in value of {n}"),
            ParseError::StrayQuote(n) => write!(f, "misplaced quote near {n}"),
            ParseError::ControlCharacter(c) => write!(f, "control character U+{c:04X} in line"),
        }
    }
}

impl std::error::Error for ParseError {}

/// The control characters no line may hold (tab is whitespace).
fn is_banned_control(c: char) -> bool {
    c.is_control() && c != '\t'
}

fn is_ws(c: char) -> bool {
    c == ' ' || c == '\t'
}

fn spaces(i: &str) -> IResult<&str, &str> {
    take_while(is_ws).parse(i)
}

fn name(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !is_ws(c) && c != '=' && c != '"').parse(i)
}

fn quoted(i: &str) -> IResult<&str, &str> {
    delimited(char('"'), take_till(|c| c == '"'), char('"')).parse(i)
}

fn bare(i: &str) -> IResult<&str, &str> {
    take_while1(|c: char| !is_ws(c) && c != '"').parse(i)
}

/// After a token: the end of the line or whitespace must follow.
fn at_boundary(i: &str) -> bool {
    i.is_empty() || i.starts_with(is_ws)
}

/// Reads one argument at the start of `i` (no leading whitespace).
fn arg(i: &str) -> Result<(&str, Arg<'_>), ParseError> {
    if i.starts_with('=') {
        return Err(ParseError::MissingName);
    }
    let (rest, n) = name(i).map_err(|_| ParseError::StrayQuote(i.chars().take(12).collect()))?;
    let Some(after_eq) = rest.strip_prefix('=') else {
        if !at_boundary(rest) {
            return Err(ParseError::StrayQuote(n.to_string()));
        }
        return Ok((
            rest,
            Arg {
                name: n,
                value: None,
            },
        ));
    };
    if at_boundary(after_eq) {
        return Err(ParseError::EmptyValue(n.to_string()));
    }
    let (rest, v) = if after_eq.starts_with('"') {
        quoted(after_eq).map_err(|_| ParseError::UnterminatedQuote(n.to_string()))?
    } else {
        bare(after_eq).map_err(|_| ParseError::StrayQuote(n.to_string()))?
    };
    if !at_boundary(rest) {
        return Err(ParseError::StrayQuote(n.to_string()));
    }
    Ok((
        rest,
        Arg {
            name: n,
            value: Some(v),
        },
    ))
}

/// Splits a line (without its line end) into command and arguments.
pub fn parse_line(line: &str) -> Result<Line<'_>, ParseError> {
    if let Some(c) = line.chars().find(|&c| is_banned_control(c)) {
        return Err(ParseError::ControlCharacter(c as u32));
    }
    let (i, _) = spaces(line).unwrap_or((line, ""));
    if i.is_empty() {
        return Err(ParseError::Empty);
    }
    if i.starts_with('=') {
        return Err(ParseError::MissingCommand);
    }
    let (mut i, command) =
        name(i).map_err(|_| ParseError::StrayQuote(i.chars().take(12).collect()))?;
    if !at_boundary(i) {
        return Err(if i.starts_with('=') {
            ParseError::MissingCommand
        } else {
            ParseError::StrayQuote(command.to_string())
        });
    }
    let mut args = Vec::new();
    loop {
        let (rest, _) = spaces(i).unwrap_or((i, ""));
        if rest.is_empty() {
            break;
        }
        let (rest, a) = arg(rest)?;
        args.push(a);
        i = rest;
    }
    Ok(Line { command, args })
}

/// The command word of a line even when its arguments break the grammar
/// (the referee logs, rather than refuses, what Scan prints before
/// `ready`); `None` for a blank line or one without a command.
pub fn command_word(line: &str) -> Option<&str> {
    let (i, _) = spaces(line).ok()?;
    name(i).ok().map(|(_, c)| c)
}

/// True for a non-empty name of the grammar.
fn is_name(s: &str) -> bool {
    matches!(name(s), Ok(("", _)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> Line<'_> {
        parse_line(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    #[test]
    fn commands_flags_and_values() {
        let l = ok("  pos\tpos=Wbbb  start moves=\"32-28 19-23\"  ");
        assert_eq!(l.command, "pos");
        assert_eq!(l.value("pos"), Some("Wbbb"));
        assert!(l.has("start"));
        assert_eq!(l.get("start").unwrap().value, None);
        assert_eq!(l.value("moves"), Some("32-28 19-23"));
        let l = ok("set-param name=threads value=2 value=3");
        assert_eq!(l.value("value"), Some("2"), "first duplicate wins");
        assert_eq!(ok("level moves=\"\"").value("moves"), Some(""));
        assert_eq!(ok("pos wolf=W12=2").value("wolf"), Some("W12=2"));
        assert_eq!(ok("quit").args.len(), 0);
    }

    #[test]
    fn malformed_lines() {
        use ParseError::*;
        let err = |s: &str| parse_line(s).unwrap_err();
        assert_eq!(err(""), Empty);
        assert_eq!(err("   "), Empty);
        assert_eq!(err("=x"), MissingCommand);
        assert_eq!(err("level=3"), MissingCommand);
        assert_eq!(err("level =3"), MissingName);
        assert_eq!(err("level depth="), EmptyValue("depth".into()));
        assert_eq!(err("level depth= x"), EmptyValue("depth".into()));
        assert_eq!(err("pos moves=\"32-28"), UnterminatedQuote("moves".into()));
        assert_eq!(err("pos moves=\"a\"b"), StrayQuote("moves".into()));
        assert_eq!(err("pos mo\"ves"), StrayQuote("mo".into()));
        assert_eq!(err("pos \"x\""), StrayQuote("\"x\"".into()));
        assert_eq!(err("po\"s"), StrayQuote("po".into()));
        assert_eq!(err("ping\u{1b}"), ControlCharacter(0x1b));
    }

    #[test]
    fn command_words() {
        assert_eq!(command_word("  init book"), Some("init"));
        assert_eq!(command_word("error message=\"no"), Some("error"));
        assert_eq!(command_word("ready"), Some("ready"));
        assert_eq!(command_word("   "), None);
        assert_eq!(command_word("=x"), None);
        assert_eq!(command_word("\"x\""), None);
    }

    /// Every prefix and every one-character change of some lines: an answer
    /// (a line or an error), never a panic, and what parses writes back to
    /// something that parses the same.
    #[test]
    fn mangled_lines_never_panic() {
        let seeds = [
            "pos pos=Wbbb moves=\"32-28 19-23\" start",
            "info depth=3 score=-0.25 pv=\"32-28\" nps=1.5",
            "set-param name=eval-file value=\"a b=c\"",
        ];
        let noise = ['"', '=', ' ', '\t', '\u{0}', 'x', '\u{e9}', '\\'];
        for seed in seeds {
            let chars: Vec<char> = seed.chars().collect();
            let mut lines = Vec::new();
            for n in 0..=chars.len() {
                lines.push(chars[..n].iter().collect::<String>());
                for c in noise {
                    let mut m = chars.clone();
                    if n < m.len() {
                        m[n] = c;
                    } else {
                        m.push(c);
                    }
                    lines.push(m.into_iter().collect());
                    let mut m = chars.clone();
                    m.insert(n, c);
                    lines.push(m.into_iter().collect());
                }
            }
            for text in &lines {
                let Ok(l) = parse_line(text) else { continue };
                let mut w = Writer::new(l.command);
                for a in &l.args {
                    w = match a.value {
                        Some(v) => w.pair(a.name, v),
                        None => w.flag(a.name),
                    };
                }
                let back = w.finish();
                assert_eq!(parse_line(&back).as_ref(), Ok(&l), "{text:?} -> {back:?}");
            }
        }
    }
}
