//! The panels: one file each. Each is a labelled region laying out one view
//! from [`crate::view::panels`]; none computes anything the views do not.
//! Cluster and Cache are one component, [`StorePanel`], seen from a [`Side`].
//!
//! Cluster, Cache and Watch recycle their rows' and wires' elements
//! ([`crate::ui::recycle`]), so a frame that moves 250 rows creates none;
//! Space-time paints on a canvas; the other panels redraw as one piece when
//! the frame changes: one reactive computation each, which keeps the wasm
//! small; tachys updates their text in place rather than rebuilding the
//! elements.

mod about;
mod expectations;
mod invariants;
mod layout;
mod observations;
mod reconcile;
mod spacetime;
mod store;
mod timeline;
mod watch;
mod workqueue;

pub use about::{AboutRun, AboutScenario};
pub use expectations::ExpectationsPanel;
pub use invariants::InvariantsPanel;
pub(super) use layout::percent;
pub use observations::Observations;
pub use reconcile::ReconcilePanel;
pub use spacetime::SpaceTimePanel;
pub use store::{Side, StorePanel};
pub use timeline::TimelinePanel;
pub use watch::WatchPanel;
pub use workqueue::WorkqueuePanel;
