//! The engine's endgame tables: where they are, reading them at the first
//! search of a variant, and the one-time build of the small tables in the
//! Hub default directory (docs/egdb.md, "Default").

use super::Engine;
use crate::egdb::storage;
use crate::egdb::{Material, Tables};
use crate::variant::VariantKind;
use crate::with_variant;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Tables built on first use: at most this many pieces (about 1 s of one
/// core for International, 3 s for Frisian; docs/egdb.md).
pub const EGDB_AUTO_PIECES: u32 = 3;
/// "First use": a search of a position with at most this many pieces.
const EGDB_AUTO_TRIGGER: u32 = 10;

/// True if every table of at most [`EGDB_AUTO_PIECES`] pieces of `kind`
/// has its file of the current format version under `dir` (whether it
/// reads back is checked at loading).
fn has_small_tables(dir: &Path, kind: VariantKind) -> bool {
    Material::all_up_to(EGDB_AUTO_PIECES)
        .into_iter()
        .all(|m| storage::is_current(dir, kind, m))
}

/// A background build of one variant's small tables.
pub(super) struct Build {
    kind: VariantKind,
    /// Set by the build thread when it ends.
    done: Arc<AtomicBool>,
    /// The tables were read again since it ended.
    reread: bool,
}

impl Engine {
    /// Allows the build of the tables of at most [`EGDB_AUTO_PIECES`]
    /// pieces, in the background, at the first search of an ending — only
    /// if one of their files is missing (nothing built yet, or a first
    /// build cut short); the files there are kept (Hub mode with
    /// `egdb-path` unset; docs/egdb.md). Searches use them once built.
    pub fn set_egdb_auto(&mut self, on: bool) {
        self.egdb_auto = on;
    }

    fn start_auto_build(&mut self, kind: VariantKind) {
        if self.egdb_building.iter().any(|b| b.kind == kind) {
            return;
        }
        let done = Arc::new(AtomicBool::new(false));
        let flag = done.clone();
        let dir = self.egdb_dir.clone();
        let note = format!(
            "molkwar: building the {kind} endgame tables of at most {EGDB_AUTO_PIECES} pieces in {} (once, in the background; docs/egdb.md)",
            dir.display()
        );
        log::info!("{note}");
        // stderr only on a terminal: on a pipe it stays silent (some
        // clients never read it, protocol/hub.md).
        if std::io::stderr().is_terminal() {
            eprintln!("{note}");
        }
        let spawned = std::thread::Builder::new()
            .name("egdb-build".into())
            .spawn(move || {
                let opts = crate::egdb::builder::Options {
                    dir,
                    pieces: EGDB_AUTO_PIECES,
                    threads: 1,
                    progress: false,
                };
                match with_variant!(kind, V => crate::egdb::builder::build::<V>(&opts)) {
                    Ok((t, _)) => log::info!("egdb: {} {kind} tables ready", t.len()),
                    Err(e) => log::error!("egdb: building the {kind} tables: {e}"),
                }
                flag.store(true, Ordering::Release);
            });
        match spawned {
            Ok(_) => self.egdb_building.push(Build {
                kind,
                done,
                reread: false,
            }),
            Err(e) => log::error!("egdb: cannot start the build thread: {e}"),
        }
    }

    /// Probe the endgame tables under `dir` with at most `pieces` pieces
    /// (0: no tables). They are read at the next search of each variant.
    pub fn set_egdb(&mut self, dir: PathBuf, pieces: u32) {
        if dir != self.egdb_dir || pieces != self.egdb_pieces {
            self.egdb_dir = dir;
            self.egdb_pieces = pieces;
            self.egdb.clear();
        }
    }

    /// Reads the tables of `kind` now. The error lists the missing or
    /// damaged files; the tables that did load are used all the same. A
    /// directory that the engine will complete itself is no error.
    pub fn load_egdb(&mut self, kind: VariantKind) -> Result<usize, String> {
        self.egdb.retain(|t| t.variant() != kind);
        if self.egdb_pieces == 0 || (self.egdb_auto && !has_small_tables(&self.egdb_dir, kind)) {
            return Ok(0);
        }
        let (t, errors) = Tables::load(kind, &self.egdb_dir, self.egdb_pieces);
        let n = t.len();
        log::info!(
            "egdb: {n} {kind} tables ({} bytes) of at most {} pieces from {}",
            t.bytes(),
            self.egdb_pieces,
            self.egdb_dir.display()
        );
        self.egdb.push(Arc::new(t));
        if errors.is_empty() {
            return Ok(n);
        }
        for e in &errors {
            log::error!("egdb: {e}");
        }
        Err(format!(
            "egdb: {} {kind} tables of at most {} pieces are missing or damaged under {} (first: {}); playing on with the {n} that loaded",
            errors.len(),
            self.egdb_pieces,
            self.egdb_dir.display(),
            errors[0]
        ))
    }

    /// The loaded tables of `kind`, read on first use (`None`: none), for
    /// a search of a position with `pieces` pieces.
    pub fn egdb(&mut self, kind: VariantKind, pieces: u32) -> Option<Arc<Tables>> {
        if self.egdb_pieces == 0 {
            return None;
        }
        // A background build: nothing until it is done, then read again.
        if let Some(b) = self.egdb_building.iter_mut().find(|b| b.kind == kind) {
            if !b.done.load(Ordering::Acquire) {
                return None;
            }
            if !b.reread {
                b.reread = true;
                self.egdb.retain(|t| t.variant() != kind);
            }
        }
        if !self.egdb.iter().any(|t| t.variant() == kind) {
            // With automatic builds, "first use" is the first search of an
            // ending: until then nothing is read (or logged).
            if self.egdb_auto && pieces > EGDB_AUTO_TRIGGER {
                return None;
            }
            if self.egdb_auto && !has_small_tables(&self.egdb_dir, kind) {
                self.start_auto_build(kind);
                return None;
            }
            // Errors were logged; the tables that loaded are used.
            let _ = self.load_egdb(kind);
        }
        self.egdb
            .iter()
            .find(|t| t.variant() == kind && !t.is_empty())
            .cloned()
    }
}
