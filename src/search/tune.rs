//! The search's and the clock's tunable numbers in one place. A normal build
//! has them as constants; a build with `--features tune` reads each from
//! the environment (`MOLKWAR_TUNE_<NAME>`, once, defaulting to the value
//! here), so one binary can play an SPRT of two settings against each other
//! (docs/search.md, "Experiments").

/// Declares the parameters: a field of [`Params`] each, its default, and
/// [`P`], the values in force.
macro_rules! params {
    ($($(#[doc = $doc:literal])* $name:ident: $t:ty = $default:expr;)*) => {
        /// The tunable numbers (see the module documentation).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: $t,)*
        }

        /// The defaults: the values a normal build runs with.
        pub const DEFAULTS: Params = Params { $($name: $default,)* };

        /// The values in force: the defaults.
        #[cfg(not(feature = "tune"))]
        pub const P: Params = DEFAULTS;

        /// The values in force: the defaults, each overridden by its
        /// environment variable `MOLKWAR_TUNE_<NAME>` where set.
        #[cfg(feature = "tune")]
        pub static P: std::sync::LazyLock<Params> = std::sync::LazyLock::new(|| {
            let p = Params {
                $($name: from_env(stringify!($name), DEFAULTS.$name),)*
            };
            log::info!("tune: {p:?}");
            p
        });
    };
}

params! {
    /// Reverse futility margin per ply of depth, centi-men: −1 for the
    /// variant's setting (`prune.rs`).
    rfp_margin: i32 = -1;
    /// Deepest node where reverse futility cuts.
    rfp_depth: i32 = 3;
    /// ProbCut margin per ply, centi-men: −1 for the variant's setting
    /// (`prune.rs`), 0 for off.
    probcut: i32 = -1;
    /// Late move reductions: `1 + ln(depth)·ln(move number) / lmr_divisor`.
    lmr_divisor: f64 = 2.25;
    /// Late move reductions: the shallowest depth that reduces (2 at the
    /// least, so that a reduction leaves a ply).
    lmr_depth: i32 = 3;
    /// Late move reductions: the first reducible move's index (0 = the
    /// first move tried) at a null-window node.
    lmr_first: i32 = 2;
    /// Late move reductions: the same at a PV node.
    lmr_first_pv: i32 = 3;
    /// Late move reductions of killer moves at null-window nodes: 0 off
    /// (killers are searched at full depth), 1 on.
    lmr_killers: i32 = 0;
    /// Late move reductions: a quiet move that offers the opponent a
    /// capture (an exchange offer or a sacrifice) is reduced this many
    /// plies less (0: like any quiet move).
    lmr_offers: i32 = 0;
    /// Late move pruning: deepest remaining depth at which a null-window
    /// node skips its late quiet moves (0 off).
    lmp_depth: i32 = 0;
    /// Late move pruning: a move is late from index `lmp_base + depth²`.
    lmp_base: i32 = 3;
    /// Late move pruning: 1 keeps the quiet moves that offer the opponent a
    /// capture (sacrifices, exchanges), 0 prunes them too.
    lmp_keep_offers: i32 = 1;
    /// Internal iterative reduction: a node at least this deep with no
    /// table move is searched a ply shallower (below 2: off).
    iir_depth: i32 = 4;
    /// The root's first aspiration half-window, centi-men.
    aspiration: i32 = 20;
    /// Singular extension: the margin per ply below the table score.
    singular_margin: i32 = 2;
    /// Singular extension: −1 for the variant's setting (`extend.rs`), 0
    /// off, 1 on.
    singular: i32 = -1;
    /// Exchange offers in quiescence: −1 for the variant's setting
    /// (`qsearch.rs`), 0 off, 1 on.
    qs_exchanges: i32 = -1;
    /// Exchange offers only at quiescence plies below this one: 1, the
    /// first quiet node after the main search, passed its SPRT in
    /// International; no limit was flat.
    qs_exchange_plies: i32 = 1;
    /// Moves assumed left in a sudden-death game (`time.rs`).
    tm_moves: f64 = 35.0;
    /// Share of the move's target time after which no iteration starts.
    tm_soft: f64 = 0.6;
    /// The hard deadline as a multiple of the move's target time.
    tm_hard: f64 = 4.0;
    /// Share of the increment added to the move's target time.
    tm_inc: f64 = 0.8;
}

/// A parameter's type: how a value from the environment is read, and
/// which values make sense (no margin below −1, no factor ≤ 0, nothing
/// infinite), so that a typo cannot crash or silently wreck a match.
#[cfg(feature = "tune")]
trait Tunable: std::str::FromStr + std::fmt::Display + Copy {
    fn sane(self) -> bool;
}

#[cfg(feature = "tune")]
impl Tunable for i32 {
    fn sane(self) -> bool {
        (-1..=10_000).contains(&self)
    }
}

#[cfg(feature = "tune")]
impl Tunable for f64 {
    fn sane(self) -> bool {
        self.is_finite() && self > 0.0 && self <= 1e4
    }
}

/// `MOLKWAR_TUNE_<NAME>` parsed, else `default`; a value that cannot be
/// read or makes no sense is reported and the default kept.
#[cfg(feature = "tune")]
fn from_env<T: Tunable>(name: &str, default: T) -> T {
    let key = format!("MOLKWAR_TUNE_{}", name.to_uppercase());
    let Ok(v) = std::env::var(&key) else {
        return default;
    };
    match v.parse::<T>() {
        Ok(x) if x.sane() => x,
        _ => {
            log::warn!("tune: {key}={v} is not a sensible value; {default} kept");
            default
        }
    }
}
