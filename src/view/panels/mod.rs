//! What each panel shows, as plain values computed from the world and the
//! frames so far: one file a panel. Cluster and Cache share one row list
//! ([`rows`]), so the two panels line up row for row and the eye compares them.

mod caption;
mod expectations;
mod observations;
mod queue;
mod reconcile;
mod rows;
mod timeline;
mod wires;

pub use crate::narrate::invariants::label as invariant_label;
pub use crate::narrate::panels::{arrival_words, holds_parts, holds_words, replicas, status_label};
pub use caption::session_caption;
pub use expectations::{
    consistency, drawn as expectations_drawn, expectations, ConsistencyRecord, ConsistencyView, ExpectationView, ExpectationsView,
};
pub(crate) use observations::deleted_by_kind;
pub use observations::{checks, observations, CheckView, ChecksView, Observations};
pub use queue::{queue, QueueView, WorkerView};
pub(crate) use reconcile::is_stale_read;
pub use reconcile::{frame_step, reconcile, CodeLine, ReconcileView};
pub(crate) use rows::mark_touched;
pub use rows::{follow_every_ms, follow_words, object_rows, scroll_to_show, visible_rows, Row, RowState};
pub use timeline::{timeline, TimelineEntry};
pub use wires::{lane_room, wires, wires_head, Wire, LANE_WIRES};

#[cfg(test)]
mod testing {
    use crate::scenario::preset;
    use crate::sim::controllers::Note;
    use crate::sim::frame::{Event, Frame};
    use crate::view::session::Session;

    /// over-create at its second reconcile's count of the cache (`naming`: its `controller.naming`).
    pub(super) fn at_reconcile_2(naming: &str) -> Session {
        let s = preset("over-create").unwrap().with_settings([("controller.naming", naming)]).unwrap();
        let mut session = Session::new(s);
        let mut starts = 0;
        while session.step_forward() {
            if let Some(Frame { event: Event::ReconcileNote { note: Note::Counted { .. }, .. }, .. }) = session.last_frame() {
                starts += 1;
                if starts == 2 {
                    break;
                }
            }
        }
        session
    }
}
