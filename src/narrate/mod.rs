//! The narration floor: every sentence the run is told in.
//!
//! **No sentence below this line.** The simulation (`sim`) and the scenario
//! model below it emit facts (ids, kinds, counts, times, statuses:
//! [`Frame`](crate::sim::frame::Frame), its `Violation`s, the world's
//! records); this floor words them, and everything above it (the explorer,
//! the report, the views, the page) asks it for words rather than writing
//! its own. So a caption can be reworded without moving a trace hash, and a
//! figure is said one way everywhere ([`units`]).
//!
//! - [`units`]: the one `secs`, `go_duration`, `plural`, `ordinal`, `thousands`.
//! - [`frame`]: one sentence per frame ([`caption`]), a key's cause, a
//!   reconcile's error, the controller's log lines.
//! - [`run`]: sentences about a run as a whole (a reconcile's requests, the
//!   end summary), and [`run::figure`]: a measure at a frame and how it is said.
//! - [`invariants`]: what each invariant promises and what broke it.
//! - [`explore`]: schedules in words, and what a counterexample found.
//! - [`lesson`]: a lesson's step, verdict and score in words.
//! - [`matrix`]: the chaos matrix's cells, rows and verdicts.
//! - [`compare`]: where two runs side by side part.
//! - [`gallery`]: the real incidents the presets reproduce, as the gallery lists them.
//! - [`panels`]: the short values the panels show beside their rows.
//! - [`simplifications`]: how the simulation differs from a cluster, and
//!   each panel's one-line note of it.

pub mod compare;
pub mod explore;
pub mod frame;
pub mod gallery;
pub mod invariants;
pub mod lesson;
pub mod matrix;
pub mod panels;
pub mod run;
pub mod simplifications;
pub mod units;

pub use frame::caption;
