//! The Watch lane: every event on the controller's wires, placed along its
//! trip at the animation clock.

use crate::sim::frame::Watcher;
use crate::sim::informer::{Informer, ListState};
use crate::sim::object::Kind;
use crate::sim::world::World;

/// An event on the wire, placed along the Watch lane.
#[derive(Debug, Clone, PartialEq)]
pub struct Wire {
    /// Stable across frames.
    pub id: String,
    pub watcher: Watcher,
    pub label: String,
    pub kind: Kind,
    pub name: String,
    pub sent_at_ms: u64,
    pub deliver_at_ms: u64,
    /// 0 at the apiserver, 1 at the cache.
    pub progress: f64,
    pub dropped: bool,
    /// How long the run's schedule holds it back beyond the lag (0: not at all).
    pub held_ms: u64,
    /// Its ordinal among the events of its kind (0: a LIST or a BOOKMARK, not a choice's target).
    pub nth: u32,
    /// Held until the learner releases it.
    pub on_hold: bool,
}

/// Everything on the controller's wires (watch events and pending LISTs), head
/// first, placed as they are at `at_ms` (the animation clock, which runs ahead
/// of the last frame while playing; never behind it).
pub fn wires(world: &World, include_gc: bool, at_ms: u64) -> Vec<Wire> {
    let now = at_ms.max(world.now_ms());
    let mut out = Vec::new();
    let mut add = |watcher: Watcher, inf: &Informer, lag: u64| {
        if let ListState::Listed { items, started_at_ms, fill_at_ms, .. } = inf.state() {
            let span = fill_at_ms.saturating_sub(*started_at_ms).max(1) as f64;
            out.push(Wire {
                id: format!("{watcher:?}/LIST/{}", inf.kind),
                watcher,
                label: "LIST".into(),
                kind: inf.kind,
                name: format!("{} items", items.len()),
                sent_at_ms: *started_at_ms,
                deliver_at_ms: *fill_at_ms,
                progress: (now.saturating_sub(*started_at_ms) as f64 / span).clamp(0.0, 1.0),
                dropped: false,
                held_ms: 0,
                nth: 0,
                on_hold: false,
            });
        }
        for (e, at) in inf.in_flight(lag) {
            let span = at.saturating_sub(e.sent_at_ms).max(1) as f64;
            let (label, name) = if e.bookmark && e.initial {
                ("BOOKMARK".to_string(), format!("initial-events-end, rv {}", e.object.resource_version))
            } else if e.bookmark {
                ("BOOKMARK".to_string(), format!("rv {}", e.object.resource_version))
            } else if e.initial {
                // Of a watch-list's initial state: to the temporary store, not the cache.
                ("INITIAL".to_string(), e.object.name.clone())
            } else {
                (e.event_type.as_str().to_string(), e.object.name.clone())
            };
            out.push(Wire {
                id: format!("{watcher:?}/{label}/{}/{name}/{}", inf.kind, e.object.resource_version),
                watcher,
                label,
                kind: inf.kind,
                name,
                sent_at_ms: e.sent_at_ms,
                deliver_at_ms: at,
                progress: (now.saturating_sub(e.sent_at_ms) as f64 / span).clamp(0.0, 1.0),
                dropped: e.dropped || e.drop_on_arrival,
                held_ms: e.held_ms,
                nth: if e.bookmark { 0 } else { e.nth },
                on_hold: e.due_ms == Some(u64::MAX),
            });
        }
    };
    for inf in &world.ctl.caches.informers {
        add(Watcher::Controller, inf, world.cluster.watch_lag_ms);
    }
    if include_gc {
        for inf in &world.gc.caches.informers {
            add(Watcher::GarbageCollector, inf, world.cluster.gc_watch_lag_ms());
        }
    }
    // By arrival; a LIST goes before the watch events queued behind it.
    out.sort_by(|a, b| {
        a.deliver_at_ms.cmp(&b.deliver_at_ms).then((a.label != "LIST").cmp(&(b.label != "LIST"))).then(a.sent_at_ms.cmp(&b.sent_at_ms))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::super::testing::at_reconcile_2;
    use super::*;

    #[test]
    fn wires_carry_their_progress() {
        let s = at_reconcile_2("generate");
        let w = wires(s.world(), false, 0);
        assert_eq!(w.len(), 4);
        assert!(w.iter().all(|w| w.label == "ADDED" && w.progress < 1.0));
        assert!(w[0].progress > 0.0, "the first create's event has been travelling");
        assert_eq!(w[3].progress, 0.0, "the last was sent this very millisecond");
        assert!(w.windows(2).all(|p| p[0].deliver_at_ms <= p[1].deliver_at_ms));
        // A longer lag moves them back along the lane.
        let mut world = s.world().clone();
        world.set_knob(crate::scenario::settings::knob("cluster.watch_lag_ms", crate::sim::settings::Val::Int(5000)));
        let slower = wires(&world, false, 0);
        assert!(slower[0].progress < w[0].progress);
        // The animation clock slides them along between frames.
        let later = wires(s.world(), false, s.world().now_ms() + 500);
        assert!(later[0].progress > w[0].progress);
    }
}
