//! Hands-on delivery: the learner takes a watch event in flight off its
//! default timing, by its Watch panel row's buttons. Each choice becomes an
//! entry of the scenario's `schedule` (the same list the explorer's
//! counterexamples carry), so the run is recomputed from frame 0 on it, the
//! link and an exported scenario carry it, and `cachescope run` replays it.
//! Every frame before the choice is the same (a choice only moves the event's
//! arrival, which is still ahead), so the page goes back to the same frame.

use crate::scenario::{Scenario, ScenarioError};
use crate::sim::object::Kind;
use crate::sim::world::{Deviation, World};

/// What the learner can do to an event in flight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireChoice {
    /// It arrives at the next millisecond, and so does every event ahead of
    /// it on the stream (a watch never reorders).
    DeliverNow,
    /// It does not arrive until released; what is behind it waits too.
    Hold,
    /// A held event goes on: at its own time, or now if that has passed.
    Release,
    /// It is lost on the wire: the cache never sees it.
    Drop,
}

impl WireChoice {
    /// The button's words (its accessible name begins with them).
    pub fn label(self) -> &'static str {
        match self {
            WireChoice::DeliverNow => "Deliver now",
            WireChoice::Hold => "Hold",
            WireChoice::Release => "Release",
            WireChoice::Drop => "Drop",
        }
    }

    /// What the notice says it did to `what` ("ADDED ConfigMap beta-voice-0").
    pub fn done(self, what: &str) -> String {
        match self {
            WireChoice::DeliverNow => format!("Delivered {what} now, with every event ahead of it on this watch"),
            WireChoice::Hold => format!("Holding {what}: it, and every event behind it on this watch, waits until you release it"),
            WireChoice::Release => format!("Released {what}"),
            WireChoice::Drop => format!("Dropped {what}: the cache will never see it"),
        }
    }
}

/// `scenario` with the learner's `choice` for the `nth` event of `kind` now
/// in flight to the controller's informer in `world` (the scenario's world at
/// some frame). The event must still be in flight.
pub fn choose(scenario: &Scenario, world: &World, kind: Kind, nth: u32, choice: WireChoice) -> Result<Scenario, ScenarioError> {
    let gone = || ScenarioError::new("schedule", None, format!("{kind} event {nth} is no longer in flight"));
    let informer = world.ctl.caches.informers.iter().find(|i| i.kind == kind).ok_or_else(gone)?;
    let lag = world.cluster.watch_lag_ms;
    let wire = informer.in_flight(lag);
    let at = wire.iter().position(|(e, _)| e.nth == nth && !e.bookmark).ok_or_else(gone)?;
    // After every frame so far, those at this millisecond included.
    let next_ms = world.now_ms() + 1;
    let mut schedule = scenario.schedule.clone();
    let mut set = |nth: u32, spec: Deviation| {
        schedule.retain(|d| (d.kind, d.nth) != (kind, nth));
        schedule.push(Deviation { kind, nth, ..spec });
    };
    let none = Deviation::on_time(kind, nth);
    match choice {
        WireChoice::DeliverNow => {
            for (e, due) in &wire[..=at] {
                if *due > next_ms && e.nth > 0 {
                    set(e.nth, Deviation { at_ms: Some(next_ms), ..none });
                }
            }
        }
        WireChoice::Hold => set(nth, Deviation { hold: true, ..none }),
        WireChoice::Release => {
            let e = wire[at].0;
            let own = e.sent_at_ms + lag + e.jitter_ms + e.held_ms;
            set(nth, Deviation { at_ms: Some(own.max(next_ms)), ..none });
        }
        WireChoice::Drop => set(nth, Deviation { drop: true, ..none }),
    }
    schedule.sort_by_key(|d| (d.kind, d.nth));
    let mut out = scenario.clone();
    out.schedule = schedule;
    // Through the validator, as any scenario: the schedule's limits hold.
    Scenario::from_json(&out.to_value().to_string())
}

/// `scenario` with the next key taken from the workqueue going to `worker`
/// (which must be idle in `world`, as the page offers it).
pub fn choose_worker(scenario: &Scenario, world: &World, worker: u32) -> Result<Scenario, ScenarioError> {
    if world.ctl.workers.get(worker as usize).is_none_or(|w| w.busy.is_some()) {
        return Err(ScenarioError::new("takes", None, format!("worker {worker} is not idle")));
    }
    let take = world.keys_taken + 1;
    let mut out = scenario.clone();
    out.takes.retain(|t| t.take != take);
    out.takes.push(crate::scenario::TakeSpec { take, worker });
    out.takes.sort_by_key(|t| t.take);
    Scenario::from_json(&out.to_value().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;
    use crate::sim::frame::Event;
    use crate::view::session::Session;

    /// The over-create run at frame 23: the first reconcile's four creates are on the wire.
    fn at_23() -> Session {
        let mut s = Session::new(preset("over-create").unwrap());
        s.seek(23);
        s
    }

    fn wire_nths(s: &Session) -> Vec<u32> {
        let w = s.world();
        let inf = w.ctl.caches.informers.iter().find(|i| i.kind == Kind::ConfigMap).unwrap();
        inf.in_flight(w.cluster.watch_lag_ms).iter().map(|(e, _)| e.nth).collect()
    }

    /// The session rebuilt on `choice` for the `i`th event on the wire, back at its frame.
    fn after(s: &Session, i: usize, choice: WireChoice) -> Session {
        let nth = wire_nths(s)[i];
        let sc = choose(s.scenario(), s.world(), Kind::ConfigMap, nth, choice).unwrap();
        let mut r = Session::new(sc);
        r.seek(s.position());
        r
    }

    fn cached(s: &Session, name: &str) -> bool {
        let inf = s.world().ctl.caches.informers.iter().find(|i| i.kind == Kind::ConfigMap).unwrap();
        inf.list().any(|o| o.name == name)
    }

    #[test]
    fn every_frame_before_a_choice_is_the_same() {
        let s = at_23();
        assert!(wire_nths(&s).len() >= 4, "{:?}", wire_nths(&s));
        for choice in [WireChoice::DeliverNow, WireChoice::Hold, WireChoice::Drop] {
            let r = after(&s, 2, choice);
            assert_eq!(r.frames()[..23], s.frames()[..23], "{choice:?}");
        }
    }

    #[test]
    fn deliver_now_brings_it_and_those_ahead_at_the_next_frames() {
        let s = at_23();
        let mut r = after(&s, 1, WireChoice::DeliverNow);
        let name = "beta-voice-1";
        assert!(!cached(&r, name));
        r.step_forward();
        r.step_forward();
        assert!(cached(&r, name), "two frames on: the head, then it");
        assert!(cached(&r, "beta-voice-0"), "the one ahead of it came first");
        assert!(!cached(&r, "beta-voice-2"), "the one behind it keeps its time");
    }

    #[test]
    fn hold_keeps_it_and_those_behind_until_released_and_drop_loses_it() {
        let s = at_23();
        let mut held = after(&s, 0, WireChoice::Hold);
        held.seek(200);
        assert!(!cached(&held, "beta-voice-0") && !cached(&held, "beta-voice-1"), "it and those behind it wait");
        let mut released = {
            let mut h = after(&s, 0, WireChoice::Hold);
            h.seek(40);
            after(&h, 0, WireChoice::Release)
        };
        released.seek(200);
        assert!(cached(&released, "beta-voice-0"));
        let mut dropped = after(&s, 0, WireChoice::Drop);
        let end = dropped.seek(usize::MAX);
        assert!(!cached(&dropped, "beta-voice-0"), "lost at frame {end}");
        assert!(cached(&dropped, "beta-voice-1"), "the rest arrive");
        assert!(dropped.frames().iter().any(|f| matches!(&f.event, Event::WatchDropped { object, .. } if object.name == "beta-voice-0")));
        // The schedule says it in the scenario's own words, and the runner replays it.
        let sc = choose(s.scenario(), s.world(), Kind::ConfigMap, wire_nths(&s)[0], WireChoice::Drop).unwrap();
        let json = sc.to_value().to_string();
        assert!(json.contains(r#""schedule":[{"drop":true,"kind":"ConfigMap","nth":"#), "{json}");
        let replayed = crate::report::Report::run(&Scenario::from_json(&json).unwrap());
        assert_eq!(replayed.trace_hash, crate::report::Report::run(&sc).trace_hash);
    }

    #[test]
    fn the_learner_chooses_which_idle_worker_takes_the_next_key() {
        // A ReplicaSet's five workers, all idle when its key is first queued.
        let mut s = Session::new(preset("replicaset-pressure").unwrap());
        while s.world().next_take().is_none() {
            assert!(s.step_forward());
        }
        let (key, default) = s.world().next_take().unwrap();
        assert_eq!(default, 0, "the lowest idle worker, by default");
        let sc = choose_worker(s.scenario(), s.world(), 3).unwrap();
        assert_eq!(sc.takes, vec![crate::scenario::TakeSpec { take: 1, worker: 3 }]);
        let mut r = Session::new(sc);
        r.seek(s.position());
        assert_eq!(r.frames(), &s.frames()[..s.position()], "the frames so far are the same");
        assert_eq!(r.world().next_take(), Some((key.clone(), 3)));
        while !matches!(r.last_frame().unwrap().event, Event::ReconcileStarted { .. }) {
            assert!(r.step_forward());
        }
        assert!(matches!(&r.last_frame().unwrap().event, Event::ReconcileStarted { worker: 3, key: k, .. } if *k == key));
        assert!(choose_worker(r.scenario(), r.world(), 3).is_err(), "worker 3 is busy now");
    }

    #[test]
    fn an_event_no_longer_in_flight_is_refused() {
        let s = at_23();
        let e = choose(s.scenario(), s.world(), Kind::ConfigMap, 999, WireChoice::Hold).unwrap_err();
        assert_eq!(e.to_string(), "schedule: ConfigMap event 999 is no longer in flight");
    }
}
