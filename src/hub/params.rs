//! The engine parameters declared to the client (`param` lines), their
//! validation (`set-param`) and the variant they select.

use crate::eval::{EvalChoice, Evaluator};
use crate::search::Engine;
use crate::variant::VariantKind;

/// Highest accepted `threads`.
pub const MAX_THREADS: usize = 64;
/// Accepted `tt-size` range (log2 of the transposition-table entries).
pub const TT_MIN: u32 = 16;
/// See [`TT_MIN`].
pub const TT_MAX: u32 = 30;

/// Default `egdb-pieces`: the tables built on first use (docs/egdb.md).
pub const DEFAULT_EGDB_PIECES: u32 = 4;

/// The parameter values in force.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// `normal` or `frisian` (the Hub names).
    pub frisian: bool,
    /// Frisian kings also move along rows and columns (docs/rules.md D1).
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
}

impl Default for Params {
    fn default() -> Self {
        Params {
            frisian: false,
            frisian_king_rows: false,
            threads: 1,
            tt_size: Engine::DEFAULT_TT_LOG2,
            ponder: false,
            eval: EvalChoice::default(),
            evaluators: Evaluator::embedded_all(),
            egdb_path: String::new(),
            egdb_pieces: DEFAULT_EGDB_PIECES,
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
        match (self.frisian, self.frisian_king_rows) {
            (false, _) => VariantKind::International,
            (true, false) => VariantKind::Frisian,
            (true, true) => VariantKind::FrisianSeed,
        }
    }

    /// The `param` lines of the `hub` reply (without the `param ` prefix).
    pub fn declarations(&self) -> Vec<String> {
        vec![
            format!(
                "name=variant value={} type=enum values=\"normal frisian\"",
                if self.frisian { "frisian" } else { "normal" }
            ),
            format!(
                "name=threads value={} type=int min=1 max={MAX_THREADS}",
                self.threads
            ),
            format!(
                "name=tt-size value={} type=int min={TT_MIN} max={TT_MAX}",
                self.tt_size
            ),
            format!("name=ponder value={} type=bool", self.ponder),
            format!(
                "name=frisian-king-rows value={} type=bool",
                self.frisian_king_rows
            ),
            format!(
                "name=eval value={} type=enum values=\"trained classic\"",
                if self.eval.classic {
                    "classic"
                } else {
                    "trained"
                }
            ),
            format!(
                "name=eval-file value=\"{}\" type=string",
                self.eval
                    .file
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string())
            ),
            format!("name=egdb-path value=\"{}\" type=string", self.egdb_path),
            format!(
                "name=egdb-pieces value={} type=int min=0 max={}",
                self.egdb_pieces,
                crate::egdb::index::MAX_PIECES
            ),
        ]
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
                match kind {
                    VariantKind::International => self.frisian = false,
                    VariantKind::Frisian => self.frisian = true,
                    VariantKind::FrisianSeed => {
                        self.frisian = true;
                        self.frisian_king_rows = true;
                    }
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
}
