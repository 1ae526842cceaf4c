//! The writing half of the Hub grammar: [`Writer`] puts a line together
//! with the quoting the reader in the parent module expects, so that what
//! one side writes the other reads back.

use super::{is_banned_control, is_name};
use std::borrow::Cow;
use std::fmt;

/// Why a value cannot be sent unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// Quoted values have no escape for `"`.
    Quote,
    /// A control character other than tab: no line may hold one.
    ControlCharacter(u32),
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::Quote => f.write_str("a Hub value cannot hold '\"'"),
            ValueError::ControlCharacter(c) => {
                write!(f, "a Hub value cannot hold the control character U+{c:04X}")
            }
        }
    }
}

impl std::error::Error for ValueError {}

/// Checks that [`Writer`] sends `v` unchanged (it reads back as `v`).
pub fn check_value(v: &str) -> Result<(), ValueError> {
    match v.chars().find(|&c| c == '"' || is_banned_control(c)) {
        None => Ok(()),
        Some('"') => Err(ValueError::Quote),
        Some(c) => Err(ValueError::ControlCharacter(c as u32)),
    }
}

/// `v` with what no value can hold replaced: `"` by `'`, control characters
/// other than tab by `?`.
fn clean(v: &str) -> Cow<'_, str> {
    if check_value(v).is_ok() {
        return Cow::Borrowed(v);
    }
    Cow::Owned(
        v.chars()
            .map(|c| match c {
                '"' => '\'',
                c if is_banned_control(c) => '?',
                c => c,
            })
            .collect(),
    )
}

/// True when a (clean) value must be quoted: empty, or holding whitespace
/// or `=` (our reader takes a bare `a=b`, Scan's does not).
fn needs_quotes(v: &str) -> bool {
    v.is_empty() || v.contains([' ', '\t', '='])
}

/// Writes one Hub line: the command, then arguments in the order added.
///
/// ```
/// use molkwar::hub::line::Writer;
/// let l = Writer::new("param").pair("name", "eval-file").pair("value", "").flag("x");
/// assert_eq!(l.finish(), "param name=eval-file value=\"\" x");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Writer(String);

impl Writer {
    /// A line holding only `command` (a name of the grammar).
    pub fn new(command: &str) -> Writer {
        debug_assert!(is_name(command), "bad command {command:?}");
        Writer(command.to_string())
    }

    /// Adds a flag: ` name`.
    pub fn flag(mut self, name: &str) -> Writer {
        debug_assert!(is_name(name), "bad name {name:?}");
        self.0.push(' ');
        self.0.push_str(name);
        self
    }

    /// Adds ` name=value`, the value quoted only when the grammar needs it.
    pub fn pair(self, name: &str, value: impl fmt::Display) -> Writer {
        self.push(name, &value.to_string(), false)
    }

    /// Adds ` name="value"`, quoted even when it need not be: for fields
    /// that clients may expect quoted whatever they hold (`pv`, `moves`,
    /// `message`).
    pub fn quoted(self, name: &str, value: impl fmt::Display) -> Writer {
        self.push(name, &value.to_string(), true)
    }

    fn push(mut self, name: &str, value: &str, quote: bool) -> Writer {
        debug_assert!(is_name(name), "bad name {name:?}");
        let v = clean(value);
        self.0.push(' ');
        self.0.push_str(name);
        self.0.push('=');
        if quote || needs_quotes(&v) {
            self.0.push('"');
            self.0.push_str(&v);
            self.0.push('"');
        } else {
            self.0.push_str(&v);
        }
        self
    }

    /// The line, without its line end.
    pub fn finish(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_line;
    use super::*;

    #[test]
    fn values_round_trip() {
        for v in [
            "x",
            "",
            "a b",
            "  both ends  ",
            "a=b",
            "=",
            "W12=2 B0=0",
            "C:\\dir with space\\w.mkw",
            "p\u{e9}rez \u{2014} \u{1F600}",
            "'single'",
            "tab\there",
        ] {
            assert_eq!(check_value(v), Ok(()));
            let text = Writer::new("set-param")
                .pair("name", "eval-file")
                .pair("value", v)
                .flag("now")
                .finish();
            let l = parse_line(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(l.command, "set-param");
            assert_eq!(l.value("value"), Some(v), "{text}");
            assert!(l.has("now"));
            let q = Writer::new("info").quoted("pv", v).finish();
            assert_eq!(parse_line(&q).unwrap().value("pv"), Some(v));
        }
        assert_eq!(Writer::new("id").pair("n", "x").finish(), "id n=x");
        assert_eq!(Writer::new("id").pair("n", "a b").finish(), "id n=\"a b\"");
        assert_eq!(Writer::new("id").pair("n", "a=b").finish(), "id n=\"a=b\"");
        assert_eq!(Writer::new("id").pair("n", 1.5).finish(), "id n=1.5");
        assert_eq!(Writer::new("id").quoted("n", "x").finish(), "id n=\"x\"");
    }

    #[test]
    fn quotes_and_control_characters_are_replaced_never_sent() {
        assert_eq!(check_value("say \"hi\""), Err(ValueError::Quote));
        assert_eq!(check_value("a\nb"), Err(ValueError::ControlCharacter(10)));
        for (v, read) in [
            ("say \"hi\"", "say 'hi'"),
            ("\"", "'"),
            ("a\tb\n", "a\tb?"),
            ("x\"=\r", "x'=?"),
        ] {
            let text = Writer::new("error").quoted("message", v).finish();
            assert_eq!(parse_line(&text).unwrap().value("message"), Some(read));
            let text = Writer::new("error").pair("message", v).finish();
            assert_eq!(parse_line(&text).unwrap().value("message"), Some(read));
        }
    }
}
