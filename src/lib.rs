//! cachescope: see what a Kubernetes controller sees.
//!
//! The crate is built in floors (see `ARCHITECTURE.md`): [`sim`] is the pure,
//! deterministic simulation; [`scenario`] holds the scenario documents, the
//! presets and the dotted-path codec; [`narrate`] words what the run's facts
//! say (no sentence below it); [`report`] summarises a run. None of them
//! imports a web crate. The Leptos face, `ui`, exists only on wasm32.

#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
pub mod explore;
pub mod export;
#[cfg(not(target_arch = "wasm32"))]
pub mod fuzz;
pub mod matrix;
pub mod narrate;
pub mod report;
pub mod scenario;
pub mod sim;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod ui;
