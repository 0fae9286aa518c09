//! The Watch lane: every event on the controller's wires, placed along its
//! trip at the animation clock.

use crate::sim::frame::Watcher;
use crate::sim::informer::{InFlight, ListState};
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

/// Wires the Watch lane shows at most; the rest are counted.
pub const LANE_WIRES: usize = 40;

/// Wires the lane draws below the last one in view: a scroll or a Tab into
/// the lane's end finds them drawn, and they make room for the next.
pub const LANE_OVERSCAN: usize = 3;

/// How many wires the Watch lane draws, from its head: those in view in a
/// lane `height` px tall scrolled `top` px down, its wires `pitch` px apart,
/// and [`LANE_OVERSCAN`] more; up to [`LANE_WIRES`]. A lane whose content
/// is not clipped (`clipped` false) may grow to hold more: it draws all it
/// may, and is measured again once it is clipped. At 500 replicas a lane of
/// one wire's height drew 40, each moved and relabelled as events came and
/// went, off screen.
pub fn lane_room(clipped: bool, top: f64, height: f64, pitch: f64) -> usize {
    if !clipped || pitch <= 0.0 || !(top + height).is_finite() {
        return LANE_WIRES;
    }
    let in_view = ((top.max(0.0) + height.max(0.0)) / pitch).ceil() as usize;
    in_view.saturating_add(LANE_OVERSCAN).clamp(1, LANE_WIRES)
}

/// Everything on the controller's wires (watch events and pending LISTs), head
/// first, placed as they are at `at_ms` (the animation clock, which runs ahead
/// of the last frame while playing; never behind it).
pub fn wires(world: &World, include_gc: bool, at_ms: u64) -> Vec<Wire> {
    wires_head(world, include_gc, at_ms, usize::MAX).0
}

/// The first `max` of [`wires`], and how many there are in all: what the
/// Watch lane draws. What is sorted is a reference each, and only those `max`
/// are placed and named, so the strings a frame builds do not grow with what
/// is in flight.
pub fn wires_head(world: &World, include_gc: bool, at_ms: u64, max: usize) -> (Vec<Wire>, usize) {
    let mut on = on_the_wires(world, include_gc);
    on.sort_unstable_by(arrival);
    let now = at_ms.max(world.now_ms());
    (on.iter().take(max).map(|o| o.wire(now)).collect(), on.len())
}

/// One thing on a wire, before it is placed and named.
struct OnTheWire<'a> {
    watcher: Watcher,
    kind: Kind,
    what: OnWire<'a>,
    sent_at_ms: u64,
    deliver_at_ms: u64,
    /// Its place among everything gathered: the last tie-break, so the order
    /// is total, and the same sorted stably or not, whole or its head.
    seq: usize,
}

enum OnWire<'a> {
    /// The informer's LIST, and how many items it carries.
    List {
        items: usize,
    },
    Event(&'a InFlight),
}

/// By arrival; a LIST goes before the watch events queued behind it.
fn arrival(a: &OnTheWire, b: &OnTheWire) -> std::cmp::Ordering {
    let event = |o: &OnTheWire| matches!(o.what, OnWire::Event(_));
    (a.deliver_at_ms, event(a), a.sent_at_ms, a.seq).cmp(&(b.deliver_at_ms, event(b), b.sent_at_ms, b.seq))
}

fn on_the_wires(world: &World, include_gc: bool) -> Vec<OnTheWire<'_>> {
    let mut out = Vec::new();
    let controller = world.ctl.caches.informers.iter().map(|i| (Watcher::Controller, i, world.cluster.watch_lag_ms));
    let gc =
        world.gc.caches.informers.iter().filter(|_| include_gc).map(|i| (Watcher::GarbageCollector, i, world.cluster.gc_watch_lag_ms()));
    for (watcher, informer, lag) in controller.chain(gc) {
        let kind = informer.kind;
        if let ListState::Listed { items, started_at_ms, fill_at_ms, .. } = informer.state() {
            let (what, seq) = (OnWire::List { items: items.len() }, out.len());
            out.push(OnTheWire { watcher, kind, what, sent_at_ms: *started_at_ms, deliver_at_ms: *fill_at_ms, seq });
        }
        for (e, at) in informer.in_flight(lag) {
            let seq = out.len();
            out.push(OnTheWire { watcher, kind, what: OnWire::Event(e), sent_at_ms: e.sent_at_ms, deliver_at_ms: at, seq });
        }
    }
    out
}

impl OnTheWire<'_> {
    /// Placed along the lane at `now`, and named.
    fn wire(&self, now: u64) -> Wire {
        let (watcher, kind) = (self.watcher, self.kind);
        let span = self.deliver_at_ms.saturating_sub(self.sent_at_ms).max(1) as f64;
        let progress = (now.saturating_sub(self.sent_at_ms) as f64 / span).clamp(0.0, 1.0);
        let e = match self.what {
            OnWire::Event(e) => e,
            OnWire::List { items } => {
                return Wire {
                    id: format!("{watcher:?}/LIST/{kind}"),
                    watcher,
                    label: "LIST".into(),
                    kind,
                    name: format!("{items} items"),
                    sent_at_ms: self.sent_at_ms,
                    deliver_at_ms: self.deliver_at_ms,
                    progress,
                    dropped: false,
                    held_ms: 0,
                    nth: 0,
                    on_hold: false,
                }
            }
        };
        let (label, name) = if e.bookmark && e.initial {
            ("BOOKMARK".to_string(), format!("initial-events-end, rv {}", e.object.resource_version))
        } else if e.bookmark {
            ("BOOKMARK".to_string(), format!("rv {}", e.object.resource_version))
        } else if e.initial {
            // Of a watch-list's initial state: to the temporary store, not the cache.
            ("INITIAL".to_string(), e.object.name.to_string())
        } else {
            (e.event_type.as_str().to_string(), e.object.name.to_string())
        };
        Wire {
            id: format!("{watcher:?}/{label}/{kind}/{name}/{}", e.object.resource_version),
            watcher,
            label,
            kind,
            name,
            sent_at_ms: self.sent_at_ms,
            deliver_at_ms: self.deliver_at_ms,
            progress,
            dropped: e.dropped || e.drop_on_arrival,
            held_ms: e.held_ms,
            nth: if e.bookmark { 0 } else { e.nth },
            on_hold: e.due_ms == Some(u64::MAX),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::at_reconcile_2;
    use super::*;

    /// The Watch lane's head is the whole list's first `max`, in its order,
    /// with the whole list's count: at a frame with far more than a lane in
    /// flight (ties in arrival included), and at one with four.
    #[test]
    fn the_lanes_head_is_the_first_of_all_the_wires() {
        let scenario = crate::scenario::preset("replicaset-pressure")
            .unwrap()
            .with_settings([("actions.0.apply.replicas", "500"), ("cluster.client_qps", "0")])
            .unwrap();
        let mut s = crate::view::session::Session::new(scenario);
        while wires(s.world(), true, s.world().now_ms()).len() <= 3 * LANE_WIRES {
            assert!(s.step_forward(), "500 replicas put more than three lanes of events in flight");
        }
        let small = at_reconcile_2("generate");
        for (world, at) in [(s.world(), s.world().now_ms() + 7), (small.world(), 0)] {
            for gc in [false, true] {
                let all = wires(world, gc, at);
                assert!(all.windows(2).any(|p| p[0].deliver_at_ms == p[1].deliver_at_ms) || all.len() < LANE_WIRES, "ties to break");
                for max in [0, 1, 3, LANE_WIRES, all.len(), all.len() + 1] {
                    let (head, count) = wires_head(world, gc, at, max);
                    assert_eq!(count, all.len());
                    assert_eq!(head, all[..max.min(all.len())], "max {max}, gc {gc}");
                }
            }
        }
    }

    /// A clipped lane draws what is in view and LANE_OVERSCAN more; one that
    /// is not, or not measured, all it may.
    #[test]
    fn the_lane_draws_what_is_in_view_and_a_few_more() {
        // One wire and a half in view, at the top: two, and three more.
        assert_eq!(lane_room(true, 0.0, 66.0, 44.0), 2 + LANE_OVERSCAN);
        // Scrolled down by ten wires: the ten above stay drawn (drawn from the head).
        assert_eq!(lane_room(true, 440.0, 66.0, 44.0), 12 + LANE_OVERSCAN);
        // Exactly four in view.
        assert_eq!(lane_room(true, 0.0, 176.0, 44.0), 4 + LANE_OVERSCAN);
        // Never past the lane's most, never none.
        assert_eq!(lane_room(true, 10_000.0, 500.0, 44.0), LANE_WIRES);
        assert_eq!(lane_room(true, 0.0, 0.0, 44.0), LANE_OVERSCAN);
        // Not clipped, or no wire to measure: all it may.
        assert_eq!(lane_room(false, 0.0, 66.0, 44.0), LANE_WIRES);
        assert_eq!(lane_room(true, 0.0, 66.0, 0.0), LANE_WIRES);
        assert_eq!(lane_room(true, f64::NAN, 66.0, 44.0), LANE_WIRES);
    }

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
