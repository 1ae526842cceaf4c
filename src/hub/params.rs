//! The engine parameters declared to the client (`param` lines), their
//! validation (`set-param`) and the variant they select.

use super::line::Writer;
use crate::book::{self, Book};
use crate::eval::{EvalChoice, Evaluator};
use crate::search::Engine;
use crate::search::skill;
use crate::variant::VariantKind;

/// Highest accepted `threads`.
pub const MAX_THREADS: usize = 64;
/// Accepted `tt-size` range (log2 of the transposition-table entries).
pub const TT_MIN: u32 = 16;
/// See [`TT_MIN`].
pub const TT_MAX: u32 = 30;

/// Default `egdb-pieces`: the tables built on first use (docs/egdb.md).
pub const DEFAULT_EGDB_PIECES: u32 = crate::search::EGDB_AUTO_PIECES;

/// The parameter values in force.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// `variant`: one of [`VariantKind::listed`] (a reading such as
    /// `frisian-seed` is stored as its variant plus the flag below).
    pub variant: VariantKind,
    /// `frisian-king-rows`: play the variant's reading with kings moving
    /// along rows and columns (docs/rules.md D1), where it has one. Kept
    /// apart from `variant` because a GUI may send the two in any order.
    pub frisian_king_rows: bool,
    pub threads: usize,
    pub tt_size: u32,
    /// Only tells the GUI that the engine can ponder.
    pub ponder: bool,
    /// `eval` (trained or classic) and `eval-file` (a weight file of one
    /// variant family; empty: the embedded weights).
    pub eval: EvalChoice,
    /// What `eval` loaded (a file is read once, at `set-param`), per family.
    pub evaluators: [Evaluator; 2],
    /// Endgame table directory (empty: [`crate::egdb::default_dir`]).
    pub egdb_path: String,
    /// Most pieces probed in the endgame tables (0: off).
    pub egdb_pieces: u32,
    /// Strength level, 1 to [`skill::FULL`] (full strength, the default).
    pub level: u8,
    /// `book`: play book moves at `go think`.
    pub book: bool,
    /// `book-margin`: book moves this many centi-men below the best are
    /// played too.
    pub book_margin: i32,
    /// `book-file`: a book to use instead of the built-in one (empty: the
    /// built-in book), and the book it holds, read at `set-param`.
    pub book_file: String,
    pub book_loaded: Option<std::sync::Arc<Book>>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            variant: VariantKind::default(),
            frisian_king_rows: false,
            threads: 1,
            tt_size: Engine::DEFAULT_TT_LOG2,
            ponder: false,
            eval: EvalChoice::default(),
            evaluators: Evaluator::embedded_all(),
            egdb_path: String::new(),
            egdb_pieces: DEFAULT_EGDB_PIECES,
            level: skill::FULL,
            book: true,
            book_margin: book::DEFAULT_MARGIN,
            book_file: String::new(),
            book_loaded: None,
        }
    }
}

/// What a successful `set-param` changed, so the session can react.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    Nothing,
    Variant,
    Threads,
    TtSize,
    /// The evaluation (already checked: files are readable and valid).
    Eval,
    /// `egdb-path` or `egdb-pieces`.
    Egdb,
    /// How moves are chosen (`level`): read by the next `go`.
    Play,
    /// A parameter the engine does not know (e.g. `initial-time`): ignored.
    Unknown,
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

fn parse_int<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    name: &str,
    v: &str,
    min: T,
    max: T,
) -> Result<T, String> {
    let n: T = v
        .trim()
        .trim_start_matches('+')
        .parse()
        .map_err(|_| format!("{name}: '{v}' is not an integer"))?;
    if n < min || n > max {
        return Err(format!("{name}: {v} is outside {min}..{max}"));
    }
    Ok(n)
}

impl Params {
    /// The variant the rules core should play.
    pub fn variant(&self) -> VariantKind {
        match self.variant.king_rows_reading() {
            Some(reading) if self.frisian_king_rows => reading,
            _ => self.variant,
        }
    }

    /// The `param` lines of the `hub` reply. The variants come from the
    /// registry ([`VariantKind::listed`]), so a new one is offered at once.
    pub fn declarations(&self) -> Vec<String> {
        let param = |name: &str, value: &dyn std::fmt::Display, kind: &str| {
            Writer::new("param")
                .pair("name", name)
                .pair("value", value)
                .pair("type", kind)
        };
        let variants: Vec<&str> = VariantKind::listed().map(VariantKind::name).collect();
        let evals = ["trained", "classic"];
        let eval_file = self
            .eval
            .file
            .as_ref()
            .map_or(String::new(), |p| p.display().to_string());
        vec![
            param("variant", &self.variant, "enum").pair("values", variants.join(" ")),
            param("threads", &self.threads, "int")
                .pair("min", 1)
                .pair("max", MAX_THREADS),
            param("tt-size", &self.tt_size, "int")
                .pair("min", TT_MIN)
                .pair("max", TT_MAX),
            param("ponder", &self.ponder, "bool"),
            param("frisian-king-rows", &self.frisian_king_rows, "bool"),
            param("eval", &evals[usize::from(self.eval.classic)], "enum")
                .pair("values", evals.join(" ")),
            // A string value is quoted even when bare would do (Scan's GUI
            // shows it as typed).
            Writer::new("param")
                .pair("name", "eval-file")
                .quoted("value", eval_file)
                .pair("type", "string"),
            Writer::new("param")
                .pair("name", "egdb-path")
                .quoted("value", &self.egdb_path)
                .pair("type", "string"),
            param("egdb-pieces", &self.egdb_pieces, "int")
                .pair("min", 0)
                .pair("max", crate::egdb::index::MAX_PIECES),
            param("level", &self.level, "int")
                .pair("min", 1)
                .pair("max", skill::FULL),
            param("book", &self.book, "bool"),
            param("book-margin", &self.book_margin, "int")
                .pair("min", 0)
                .pair("max", book::MAX_MARGIN),
            Writer::new("param")
                .pair("name", "book-file")
                .quoted("value", &self.book_file)
                .pair("type", "string"),
        ]
        .into_iter()
        .map(Writer::finish)
        .collect()
    }

    /// The endgame table directory in force.
    pub fn egdb_dir(&self) -> std::path::PathBuf {
        if self.egdb_path.trim().is_empty() {
            crate::egdb::default_dir()
        } else {
            self.egdb_path.trim().into()
        }
    }

    /// Validates and applies one parameter; on error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Changed, String> {
        let bool_of =
            |v: &str| parse_bool(v).ok_or_else(|| format!("{name}: '{v}' is not true or false"));
        let before = self.clone();
        let changed = match name.to_ascii_lowercase().as_str() {
            "variant" => {
                let kind: VariantKind = value.parse().map_err(|e| format!("{e}"))?;
                match kind.reading_of() {
                    // Naming a reading names its variant and the reading.
                    Some(variant) => {
                        self.variant = variant;
                        self.frisian_king_rows = true;
                    }
                    None => self.variant = kind,
                }
                Changed::Variant
            }
            "frisian-king-rows" => {
                self.frisian_king_rows = bool_of(value)?;
                Changed::Variant
            }
            "threads" => {
                self.threads = parse_int(name, value, 1, MAX_THREADS)?;
                Changed::Threads
            }
            "tt-size" => {
                self.tt_size = parse_int(name, value, TT_MIN, TT_MAX)?;
                Changed::TtSize
            }
            "ponder" => {
                self.ponder = bool_of(value)?;
                Changed::Nothing
            }
            "eval" | "eval-file" => {
                let mut next = self.eval.clone();
                let v = value.trim();
                if name.eq_ignore_ascii_case("eval") {
                    next.classic = EvalChoice::parse_kind(v).map_err(|e| format!("{name}: {e}"))?;
                } else {
                    next.file = (!v.is_empty()).then(|| v.into());
                }
                // Read and check the file now: a bad one is refused and the
                // weights in use stay.
                self.evaluators = next.evaluators().map_err(|e| format!("{name}: {e}"))?;
                self.eval = next;
                Changed::Eval
            }
            "egdb-path" => {
                self.egdb_path = value.trim().to_string();
                Changed::Egdb
            }
            "egdb-pieces" => {
                self.egdb_pieces = parse_int(name, value, 0, crate::egdb::index::MAX_PIECES)?;
                Changed::Egdb
            }
            "book" => {
                self.book = bool_of(value)?;
                Changed::Play
            }
            "book-margin" => {
                self.book_margin = parse_int(name, value, 0, book::MAX_MARGIN)?;
                Changed::Play
            }
            "book-file" => {
                let v = value.trim();
                // Read and check the file now, with the rules of the variant
                // in force (after a variant change, a move the rules no
                // longer allow is never played: each pick checks legality).
                self.book_loaded = if v.is_empty() {
                    None
                } else {
                    let b = Book::load(std::path::Path::new(v), self.variant())
                        .map_err(|e| format!("book-file: {e}"))?;
                    Some(std::sync::Arc::new(b))
                };
                self.book_file = v.to_string();
                Changed::Play
            }
            "level" => {
                self.level = skill::parse_level(value)?;
                Changed::Play
            }
            _ => return Ok(Changed::Unknown),
        };
        Ok(if before == *self {
            Changed::Nothing
        } else {
            changed
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_validates_and_keeps_old_values() {
        let mut p = Params::default();
        assert_eq!(p.set("variant", "frysk!"), Ok(Changed::Variant));
        assert_eq!(p.variant(), VariantKind::Frisian);
        assert_eq!(p.set("frisian-king-rows", "true"), Ok(Changed::Variant));
        assert_eq!(p.variant(), VariantKind::FrisianSeed);
        assert!(p.set("variant", "killer").is_err());
        assert_eq!(p.variant(), VariantKind::FrisianSeed);
        assert_eq!(p.set("variant", "standard"), Ok(Changed::Variant));
        assert_eq!(p.variant(), VariantKind::International);
        assert_eq!(p.set("threads", "2"), Ok(Changed::Threads));
        assert!(p.set("threads", "0").is_err());
        assert!(p.set("threads", "two").is_err());
        assert!(p.set("tt-size", "99").is_err());
        assert_eq!(p.threads, 2);
        assert_eq!(p.set("initial-time", "60"), Ok(Changed::Unknown));
        assert_eq!(p.set("ponder", "maybe").map_err(|_| ()), Err(()));
        assert_eq!(p.set("threads", "2"), Ok(Changed::Nothing));
    }

    /// The `values=` list of `variant` is the registry's, and every name in
    /// it is accepted back by `set-param`.
    #[test]
    fn variant_param_lists_the_registry() {
        use crate::hub::line::parse_line;
        let mut p = Params::default();
        let decl = p.declarations();
        assert_eq!(
            decl[0],
            "param name=variant value=normal type=enum values=\"normal frisian\""
        );
        let line = parse_line(&decl[0]).unwrap();
        let values: Vec<&str> = line.value("values").unwrap().split(' ').collect();
        let listed: Vec<&str> = VariantKind::listed().map(VariantKind::name).collect();
        assert_eq!(values, listed);
        for v in VariantKind::listed() {
            assert!(p.set("variant", v.name()).is_ok());
            assert_eq!(p.variant(), v);
            let decl = p.declarations();
            let line = parse_line(&decl[0]).unwrap();
            assert_eq!(line.value("value"), Some(v.name()));
        }
        // A reading is offered through its flag, not in the list.
        for v in VariantKind::ALL
            .into_iter()
            .filter(|v| v.reading_of().is_some())
        {
            assert!(!values.contains(&v.name()));
            let mut p = Params::default();
            p.set("variant", v.name()).unwrap();
            assert_eq!(p.variant(), v);
            assert!(
                p.declarations()
                    .contains(&"param name=frisian-king-rows value=true type=bool".to_string())
            );
        }
    }

    #[test]
    fn declarations_keep_their_shape() {
        let mut p = Params::default();
        p.set("eval", "classic").unwrap();
        let d = p.declarations();
        assert_eq!(d[1], "param name=threads value=1 type=int min=1 max=64");
        assert_eq!(d[2], "param name=tt-size value=22 type=int min=16 max=30");
        assert_eq!(d[3], "param name=ponder value=false type=bool");
        assert_eq!(d[4], "param name=frisian-king-rows value=false type=bool");
        assert_eq!(
            d[5],
            "param name=eval value=classic type=enum values=\"trained classic\""
        );
        assert_eq!(d[6], "param name=eval-file value=\"\" type=string");
        assert_eq!(d[9], "param name=level value=10 type=int min=1 max=10");
    }

    #[test]
    fn level_takes_numbers_and_presets() {
        let mut p = Params::default();
        assert_eq!(p.set("level", "3"), Ok(Changed::Play));
        assert_eq!(p.level, 3);
        assert_eq!(p.set("level", "hard"), Ok(Changed::Play));
        assert_eq!(p.level, 8);
        assert!(p.set("level", "11").is_err());
        assert!(p.set("level", "expert").is_err());
        assert_eq!(p.level, 8);
        assert_eq!(p.set("level", "8"), Ok(Changed::Nothing));
        assert!(p.declarations()[9].contains("value=8"));
    }
}
