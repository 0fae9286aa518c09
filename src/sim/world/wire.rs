//! What travels between the apiserver and the watchers: a request reaching
//! the apiserver (commit, audit, the event fanned out to every watch, the
//! answer handed back to whoever waits), and a watch event, a LIST or a
//! DeltaFIFO pop reaching an informer (the store first, then the handlers).

use super::in_flight::{InFlightRequest, Origin, SentBy};
use super::input::Armed;
use super::state::World;
use super::timer::Timer;
use crate::sim::apiserver::{Actor, EventType, FailMode, Handled, Verb};
use crate::sim::controllers::{self, HandlerEffects, HandlerEvent, Step};
use crate::sim::frame::{Event, QueuedBy, Watcher};
use crate::sim::informer::{Fifo, Pop, Replacement};
use crate::sim::object::{child_kind, Kind};
use crate::sim::settings::RuntimeKind;
use crate::sim::workqueue::LOW_PRIORITY;

impl World {
    /// The failure a controller's request with `verb` on `kind` meets, if one
    /// armed for it is due: the first due in the order they were armed (so
    /// two armed at once fail two requests in a row), each used once. Every
    /// other failure armed for it lets this request pass and counts it.
    fn take_fault(&mut self, verb: Verb, kind: Kind) -> Option<FailMode> {
        let matching = |a: &Armed| a.verb == verb && a.kind == kind;
        let due = self.faults.iter().position(|a| matching(a) && a.passes == 0);
        let mode = due.map(|i| self.faults.remove(i).mode);
        for a in self.faults.iter_mut().filter(|a| matching(a)) {
            a.passes = a.passes.saturating_sub(1);
        }
        mode
    }

    /// A request reaches the apiserver: commit, audit, fan the event out, answer.
    pub(super) fn arrive(&mut self, inflight: InFlightRequest) -> Option<Event> {
        self.requests_in_flight -= 1;
        let origin = inflight.origin.clone();
        if let Origin::Worker { epoch, .. } | Origin::Informer { epoch, .. } = origin {
            self.frame_replica = self.peer.as_ref().filter(|p| p.epoch == epoch).map(|p| p.replica);
            self.frame_beside = self.beside.iter().position(|b| b.ctl.epoch == epoch).map(|i| i as u8);
        }
        let by_controller = matches!(inflight.request.actor, Actor::Controller(_));
        let req = &inflight.request;
        let fault = if by_controller { self.take_fault(req.verb, req.kind) } else { None };
        let outcome = match fault {
            Some(mode) => self.api.handle_failing(req, self.now_ms, &mut self.rng, mode),
            None => self.api.handle(req, self.now_ms, &mut self.rng),
        };
        let sent_by = if by_controller { SentBy::Controller } else { SentBy::Others };
        let key = (inflight.request.kind, inflight.request.verb, outcome.audit.status.code, sent_by);
        match self.counts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, n)) => *n += 1,
            None => self.counts.push((key, 1)),
        }
        if let Some(ev) = &outcome.event {
            let lag_jitter = self.cluster.watch_jitter_ms;
            let kind = ev.object.kind();
            self.events_sent[kind.index()] += 1;
            let nth = self.events_sent[kind.index()];
            // A schedule may take this event off its default timing (the
            // explorer's choice, a counterexample's, the learner's hands).
            let mut timing = crate::sim::informer::Timing { nth, ..Default::default() };
            for d in self.schedule.iter().filter(|d| d.kind == kind && d.nth == nth) {
                timing.held_ms += d.late_ms.unwrap_or(0);
                timing.due_ms = if d.hold { Some(u64::MAX) } else { d.at_ms.or(timing.due_ms) };
                timing.drop |= d.drop;
            }
            let peer = self.peer.iter_mut().flat_map(|p| p.caches.informers.iter_mut());
            let beside = self.beside.iter_mut().flat_map(|b| b.ctl.caches.informers.iter_mut());
            for inf in self.ctl.caches.informers.iter_mut().chain(peer).chain(beside) {
                if inf.kind == kind {
                    let jitter = if lag_jitter > 0 { self.rng.up_to(lag_jitter) } else { 0 };
                    inf.offer_timed(ev, self.now_ms, jitter, timing);
                }
            }
            for inf in &mut self.gc.caches.informers {
                if inf.kind == ev.object.kind() {
                    inf.offer(ev, self.now_ms, 0);
                }
            }
            // Owners that go away start their children's grace period.
            if ev.event_type == EventType::Deleted && child_kind(ev.object.kind()).is_some() {
                let owner = ev.object.clone();
                self.start_orphan_grace(&owner);
            }
            // A pod just marked for a graceful delete: the kubelet stops it
            // and removes it when its grace period is over.
            let o = &ev.object;
            if req.verb == Verb::Delete && ev.event_type == EventType::Modified && o.kind() == Kind::Pod {
                if let (Some(at), Some(_)) = (o.deletion_timestamp_ms, o.deletion_grace_period_ms.filter(|g| *g > 0)) {
                    self.set_timer(at, Timer::Kubelet { key: o.key(), uid: o.uid });
                }
            }
        }
        let mut step = None;
        match origin {
            Origin::Kubectl | Origin::GcWrite | Origin::Kubelet => {}
            Origin::Worker { epoch, .. } | Origin::Informer { epoch, .. } => {
                if epoch == self.ctl.epoch {
                    step = self.answered(&origin, &outcome);
                } else if self.peer.as_ref().is_some_and(|p| p.epoch == epoch) {
                    step = self.as_peer(|w| w.answered(&origin, &outcome));
                } else if let Some(i) = self.beside.iter().position(|b| b.ctl.epoch == epoch) {
                    step = self.as_beside(i as u8, |w| w.answered(&origin, &outcome));
                }
            }
            Origin::Gc(attempt) => self.gc_answered(*attempt, &outcome),
        }
        self.violations.extend(self.invariants.check_request(inflight.sent_with, &outcome.audit, &self.api));
        Some(Event::ApiRequest { entry: outcome.audit, step, throttled_ms: inflight.throttled_ms })
    }

    /// The controller's request was answered: hand the answer to the worker
    /// that waits for it, or the LIST to its informer. The step that sent it.
    fn answered(&mut self, origin: &Origin, outcome: &Handled) -> Option<Step> {
        match *origin {
            Origin::Worker { worker, epoch, slot } => {
                let tracked = self.ctl.workers[worker].busy.as_ref()?.writes.get(slot).cloned().flatten();
                if let Some(w) = tracked {
                    let r = &outcome.response;
                    let ok = r.status.is_success();
                    // A delete that left the object (a finalizer holds it) answers with its new version.
                    let still_there = w.deletes_uid.is_none() || r.object.as_ref().is_some_and(|o| o.deletion_timestamp_ms.is_some());
                    let written = r.object.as_ref().filter(|_| ok && still_there).map(|o| (o.key(), o.resource_version));
                    self.ctl.ryw.answered(w.kind, &w.key, w.seq, ok, w.deletes_uid, written.as_ref().map(|(k, rv)| (k, *rv)));
                }
                let busy = self.ctl.workers[worker].busy.as_mut()?;
                let step = busy.step;
                busy.responses[slot] = Some((outcome.response.clone(), outcome.audit.clone()));
                busy.awaiting -= 1;
                if busy.awaiting == 0 {
                    self.set_timer(self.now_ms, Timer::Resume { worker, epoch });
                }
                Some(step)
            }
            Origin::Informer { kind, .. } => {
                let initial_list_ms = self.cluster.initial_list_for(kind);
                let (now, items, list_rv) = (self.now_ms, outcome.response.items.clone(), outcome.response.list_rv);
                let inf = self.ctl.caches.informer_mut(kind)?;
                if inf.watch_list && !matches!(inf.state(), crate::sim::informer::ListState::Requested { .. }) {
                    // An earlier request's stream, overtaken by a relist: that reflector has gone.
                    return None;
                }
                if inf.watch_list {
                    // The watch is open from now on: its timeout runs from here.
                    inf.streamed(items, list_rv, now, initial_list_ms);
                    self.watch_started(kind);
                } else {
                    inf.listed(items, list_rv, now, initial_list_ms);
                    self.queue_list(kind);
                }
                None
            }
            _ => None,
        }
    }

    /// A list waits for the controller's informer of `kind`: a DeltaFIFO
    /// queues its population now, to pop it item by item (an AtomicFIFO
    /// takes it whole at its fill time).
    fn queue_list(&mut self, kind: Kind) {
        let Some(inf) = self.ctl.caches.informer_mut(kind) else { return };
        if inf.fifo != Fifo::Delta {
            return;
        }
        let was_synced = inf.has_synced();
        inf.queue_population(self.now_ms);
        // Nothing to pop: `Replace` of nothing is synced at once.
        if !inf.is_popping() {
            self.list_done(kind, !was_synced);
        }
    }

    /// The controller's informer of `kind` has taken a whole list: a LIST's
    /// watch begins now (a watch-list's began with its stream), and the
    /// first sync starts the resync clock.
    fn list_done(&mut self, kind: Kind, first_sync: bool) {
        if !self.ctl.caches.informer(kind).is_some_and(|i| i.watch_list) {
            self.watch_started(kind);
        }
        if first_sync {
            self.start_resync(kind);
        }
    }

    /// The head of a watch (or a waiting LIST) reaches an informer.
    pub(super) fn deliver(&mut self, watcher: Watcher, i: usize) -> Event {
        let now = self.now_ms;
        let filling = {
            let inf = match watcher {
                Watcher::Controller => &self.ctl.caches.informers[i],
                Watcher::GarbageCollector => &self.gc.caches.informers[i],
            };
            matches!(inf.state(), crate::sim::informer::ListState::Listed { .. })
        };
        if filling {
            let (kind, replaced, n_objects) = {
                let inf = match watcher {
                    Watcher::Controller => &mut self.ctl.caches.informers[i],
                    Watcher::GarbageCollector => &mut self.gc.caches.informers[i],
                };
                let r = inf.fill(now);
                (inf.kind, r, inf.len() as u32)
            };
            let mut effects = HandlerEffects::default();
            let cause = QueuedBy::List { kind };
            for call in &replaced.calls {
                let fx = match call {
                    Replacement::Tombstone(o) => {
                        let ev = HandlerEvent { event_type: EventType::Deleted, object: o, old: Some(o), tombstone: true };
                        self.handle(watcher, kind, &ev, &QueuedBy::Tombstone { kind, name: o.name.clone() }, false)
                    }
                    Replacement::Added(o) => {
                        let ev = HandlerEvent { event_type: EventType::Added, object: o, old: None, tombstone: false };
                        self.handle(watcher, kind, &ev, &cause, replaced.first_sync)
                    }
                    Replacement::Updated(old, new) => {
                        let ev = HandlerEvent { event_type: EventType::Modified, object: new, old: Some(old), tombstone: false };
                        self.handle(watcher, kind, &ev, &cause, replaced.first_sync)
                    }
                };
                merge(&mut effects, fx);
            }
            if watcher == Watcher::Controller {
                self.list_done(kind, replaced.first_sync);
            }
            let tombstones = replaced.tombstones().map(|o| crate::sim::controllers::queue_key(&o.namespace, &o.name)).collect();
            let streamed = watcher == Watcher::Controller && self.ctl.caches.informers[i].watch_list;
            return Event::CacheFilled { watcher, kind, n_objects, first_sync: replaced.first_sync, tombstones, effects, streamed };
        }
        let popping = watcher == Watcher::Controller && self.ctl.caches.informers[i].is_popping();
        if popping {
            let (kind, p, initial) = {
                let inf = &mut self.ctl.caches.informers[i];
                // DeltaFIFO's Pop: `isInInitialList := !f.hasSynced_locked()`.
                let initial = !inf.has_synced();
                (inf.kind, inf.pop(now), initial)
            };
            let (object, tombstone) = match &p.pop {
                Pop::Item(o) => (o.clone(), false),
                Pop::Tombstone(o) => (o.clone(), true),
            };
            let ev = match (&p.pop, &p.old) {
                (Pop::Item(o), None) => HandlerEvent { event_type: EventType::Added, object: o, old: None, tombstone: false },
                (Pop::Item(o), Some(old)) => HandlerEvent { event_type: EventType::Modified, object: o, old: Some(old), tombstone: false },
                (Pop::Tombstone(o), _) => HandlerEvent { event_type: EventType::Deleted, object: o, old: Some(o), tombstone: true },
            };
            let cause = QueuedBy::ListPop { kind, name: object.name.clone() };
            let effects = self.handle(watcher, kind, &ev, &cause, initial);
            if p.first_sync || p.n == p.of {
                self.list_done(kind, p.first_sync);
            }
            return Event::ListItemPopped {
                kind,
                object: object.object_ref(),
                tombstone,
                n: p.n,
                of: p.of,
                first_sync: p.first_sync,
                effects,
            };
        }
        let (kind, delivered) = {
            let inf = match watcher {
                Watcher::Controller => &mut self.ctl.caches.informers[i],
                Watcher::GarbageCollector => &mut self.gc.caches.informers[i],
            };
            (inf.kind, inf.deliver(now))
        };
        let e = &delivered.event;
        let resource_version = e.object.resource_version;
        let synced = watcher == Watcher::Controller && self.ctl.caches.informers[i].has_synced();
        if e.bookmark && e.dropped {
            return Event::BookmarkDropped { kind, resource_version, initial_events_end: e.initial, synced };
        }
        if e.bookmark {
            let closed = matches!(self.ctl.caches.informers[i].state(), crate::sim::informer::ListState::Listed { .. });
            if e.initial && closed {
                // `k8s.io/initial-events-end`: what was streamed waits for the FIFO's `Replace`.
                self.queue_list(kind);
            }
            return Event::BookmarkDelivered { kind, resource_version, initial_events_end: e.initial };
        }
        if let (Some(n), false) = (delivered.streamed, e.dropped) {
            let of = match self.ctl.caches.informers[i].state() {
                crate::sim::informer::ListState::Streaming { of, .. } => *of,
                _ => n,
            };
            return Event::InitialEventDelivered {
                kind,
                event_type: e.event_type,
                object: e.object.object_ref(),
                resource_version,
                n,
                of,
                initial: e.initial,
                synced,
            };
        }
        if e.dropped {
            return Event::WatchDropped {
                watcher,
                event_type: e.event_type,
                object: e.object.object_ref(),
                resource_version: e.object.resource_version,
            };
        }
        let ev = HandlerEvent { event_type: e.event_type, object: &e.object, old: delivered.old.as_ref(), tombstone: false };
        let cause = QueuedBy::Watch { event_type: e.event_type, kind, name: e.object.name.clone() };
        let effects = self.handle(watcher, kind, &ev, &cause, false);
        Event::WatchDelivered {
            watcher,
            event_type: e.event_type,
            object: e.object.object_ref(),
            resource_version: e.object.resource_version,
            sent_at_ms: e.sent_at_ms,
            // Held back by a schedule: by `late_ms`, or (a time it chose) by however
            // far past the lag it arrives.
            held_ms: match e.due_ms {
                Some(_) if watcher == Watcher::Controller => {
                    self.now_ms.saturating_sub(e.sent_at_ms.saturating_add(self.cluster.watch_lag_ms + e.jitter_ms))
                }
                _ => e.held_ms,
            },
            effects,
        }
    }

    /// Run the handlers of `watcher` for one event (`cause`: what a key it
    /// queues is queued by; `initial`: it is of the informer's initial list,
    /// `isInInitialList`) and apply their effects.
    pub(super) fn handle(&mut self, watcher: Watcher, kind: Kind, ev: &HandlerEvent, cause: &QueuedBy, initial: bool) -> HandlerEffects {
        match watcher {
            Watcher::Controller => {
                let ctl = &mut self.ctl;
                let keyed_by = self.controller.recipe.as_ref().map_or_else(Default::default, |r| r.expectations_keyed_by);
                let mut fx = controllers::handle(self.spec, keyed_by, kind, ev, &ctl.caches, &mut ctl.expectations, &mut ctl.consistency);
                // An observed delete is kept only by a recipe that reads it (nfd-master's `pendingDeletes`).
                if self.controller.recipe.as_ref().is_some_and(|r| r.observes_deletes()) {
                    for key in &fx.deleted {
                        ctl.deletes_seen.insert(key.to_string());
                    }
                } else {
                    fx.deleted.clear();
                }
                // controller-runtime's handlers queue an initial list's create,
                // and an update that changed no resourceVersion (a resync), at
                // LowPriority (v0.24.1 pkg/handler/eventhandler.go,
                // `addToQueueCreate`, `addToQueueUpdate`).
                let unchanged =
                    ev.event_type == EventType::Modified && ev.old.is_some_and(|o| o.resource_version == ev.object.resource_version);
                let low = (initial && ev.event_type == EventType::Added) || unchanged;
                let priority = if low { LOW_PRIORITY } else { 0 };
                for key in &fx.enqueued {
                    ctl.enqueue_with_priority(key.clone(), priority, || cause.clone());
                }
                // Its read-your-writes client's handler sees every object the informer hands on.
                if self.controller.runtime() == RuntimeKind::ControllerRuntime {
                    let deleted = (ev.event_type == EventType::Deleted).then_some(ev.object.uid);
                    ctl.ryw.observe(kind, &ev.object.key(), ev.object.resource_version, deleted);
                }
                fx
            }
            Watcher::GarbageCollector => self.gc_handle(ev),
        }
    }
}

pub(super) fn merge(into: &mut HandlerEffects, from: HandlerEffects) {
    for k in from.enqueued {
        if !into.enqueued.contains(&k) {
            into.enqueued.push(k);
        }
    }
    into.observed.extend(from.observed);
    into.attempt_to_delete.extend(from.attempt_to_delete);
    into.deleted.extend(from.deleted);
}
