//! The controller's reflectors over time: a watch that ends on its own with
//! `410 Expired` (`cluster.watch_timeout_ms`), the backoff before the LIST
//! that follows (`sim::reflector`), and the informers' resync
//! (`cluster.resync_ms`), which hands every cached object to the update
//! handlers again, unchanged.

use super::in_flight::Origin;
use super::state::World;
use super::timer::Timer;
use super::wire::merge;
use crate::sim::apiserver::{Actor, EventType, Request};
use crate::sim::controllers::{HandlerEffects, HandlerEvent};
use crate::sim::frame::{Event, QueuedBy, Watcher};
use crate::sim::invariants::SentWith;
use crate::sim::object::{Kind, ObjectRc};

impl World {
    /// A controller informer's store was just filled by a LIST: its watch
    /// begins, and with it the watch's timeout ([`Self::start_resync`]
    /// follows the first fill).
    pub(super) fn watch_started(&mut self, kind: Kind) {
        let epoch = self.ctl.epoch;
        let gen = {
            let g = &mut self.ctl.watch_gen[kind.index()];
            *g += 1;
            *g
        };
        if self.cluster.watch_timeout_ms > 0 {
            self.set_timer(self.now_ms + self.cluster.watch_timeout_ms, Timer::WatchExpires { kind, epoch, gen });
        }
    }

    /// A controller informer's first fill starts its resync clock.
    pub(super) fn start_resync(&mut self, kind: Kind) {
        if self.cluster.resync_ms > 0 {
            let epoch = self.ctl.epoch;
            self.set_timer(self.now_ms + self.cluster.resync_ms, Timer::Resync { kind, epoch });
        }
    }

    /// The watch's time is up: 410 Expired, and `ListAndWatch` returns; the
    /// reflector's backoff manager says how long until the next LIST. A
    /// watch-list still streaming its initial events (its bookmark not yet
    /// seen) is opened again at once: client-go v0.36.3 `reflector.go`
    /// `watchList` loops on a stream that ends or answers 410 before the
    /// bookmark, with no delay and no word to the backoff manager.
    pub(super) fn watch_expired(&mut self, kind: Kind, epoch: u32, gen: u32) -> Option<Event> {
        if epoch != self.ctl.epoch || gen != self.ctl.watch_gen[kind.index()] {
            return None;
        }
        let inf = self.ctl.caches.informer_mut(kind)?;
        if !inf.is_watching() && !inf.is_streaming() {
            return None;
        }
        let streaming = inf.is_streaming();
        inf.close_watch();
        let backoff_ms = if streaming { 0 } else { self.ctl.backoff[kind.index()].next(self.now_ms, &mut self.rng) };
        self.set_timer(self.now_ms + backoff_ms, Timer::Relist { kind, epoch, gen, backoff_ms });
        Some(Event::WatchExpired { kind, after_ms: self.cluster.watch_timeout_ms, backoff_ms })
    }

    /// The backoff is over: `ListAndWatch` again, from a LIST.
    pub(super) fn relist_after_backoff(&mut self, kind: Kind, epoch: u32, gen: u32, backoff_ms: u64) -> Option<Event> {
        if epoch != self.ctl.epoch || gen != self.ctl.watch_gen[kind.index()] {
            return None;
        }
        self.ctl.caches.informer_mut(kind)?.start_list(self.now_ms);
        let req = self.reflector_request(kind);
        self.send(req, Origin::Informer { kind, epoch }, SentWith::SYNCED);
        Some(Event::Relisting { kind, backoff_ms })
    }

    /// What the reflector of `kind` sends for its state: a LIST, or with
    /// watch-list a WATCH with `sendInitialEvents=true`, which the apiserver
    /// answers with the same snapshot, streamed.
    pub(super) fn reflector_request(&self, kind: Kind) -> Request {
        let actor = Actor::Informer(self.spec.agent());
        let streams = self.ctl.caches.informer(kind).is_some_and(|i| i.watch_list);
        if streams {
            Request::watch_list(actor, kind, "")
        } else {
            Request::list(actor, kind, "")
        }
    }

    /// The resync period is up: every cached object goes to the update
    /// handlers as an update with the same resourceVersion (client-go's
    /// `processorListener` resync), and the next resync is scheduled. A
    /// reflector between watches resyncs what its store holds all the same.
    pub(super) fn resync(&mut self, kind: Kind, epoch: u32) -> Option<Event> {
        if epoch != self.ctl.epoch || self.cluster.resync_ms == 0 {
            return None;
        }
        self.set_timer(self.now_ms + self.cluster.resync_ms, Timer::Resync { kind, epoch });
        let objects: Vec<ObjectRc> = self.ctl.caches.informer(kind)?.list().cloned().collect();
        let mut effects = HandlerEffects::default();
        let cause = QueuedBy::Resync { kind };
        for o in &objects {
            let ev = HandlerEvent { event_type: EventType::Modified, object: o, old: Some(o), tombstone: false };
            merge(&mut effects, self.handle(Watcher::Controller, kind, &ev, &cause, false));
        }
        Some(Event::Resynced { kind, n_objects: objects.len() as u32, effects })
    }
}
