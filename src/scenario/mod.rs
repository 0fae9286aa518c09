//! Scenario documents: what a course author writes, what a preset is, and what
//! the URL and the runner's `--set` change. A scenario is parsed strictly
//! (unknown fields are errors; `parse`), validated (every range checked;
//! `validate`), and resolved into the world's [`WorldInit`] (`resolve`).
//! Every error names the field and the value.

pub mod chaos;
pub mod controls;
mod document;
mod error;
pub mod expect;
mod invariants;
mod kinds;
pub mod lesson;
pub mod limits;
mod parse;
mod path;
mod presets;
pub mod recipe;
mod resolve;
pub mod settings;
mod validate;

pub use controls::CONTROL_ACTIONS;
pub use document::*;
pub use error::ScenarioError;
pub use expect::{Check, Gauge, Measure, Verdict};
pub use invariants::{Bound, Eventually, InvariantSpec, RuleField, RULES};
pub use kinds::{declared_in, Children, DeclaredKind};
pub use lesson::{At, LessonStep, Selector, StepOutcome};
pub use path::{get_path, set_path, split_path};
pub use presets::{preset, preset_names, presets, PRESETS};
pub use resolve::owner_of;
use validate::{dns_name, owner_kinds, range};

#[cfg(doc)]
use crate::sim::world::WorldInit;
