//! The world: the apiserver, the controller under study (its informers,
//! workqueue, expectations and workers), the garbage collector, the scenario's
//! actions and the invariants, advanced by one [`World::step`] that produces
//! exactly one [`Frame`] per change.
//!
//! Time is an integer of milliseconds. Everything that will happen is either a
//! timer (ordered by time, then by the order it was set) or computed from state
//! (the head of a watch, a ready key on the queue, an idle worker). When several
//! things are due at the same millisecond they run in a fixed order: timers,
//! then watch deliveries (controller first, then the garbage collector), then
//! queue promotions, then idle workers. That order, the one seeded RNG and
//! ordered maps make a run a pure function of its inputs.
//!
//! This file is the scheduler, and nothing else: the step loop, the timers
//! it sets and the requests it sends. The rest is in files of its own under
//! `world/`: the leaves (`input`, `timer`, `in_flight`, `lease`, `client`,
//! `collector`, `runtime`, and `state`, which defines `World` and imports
//! only leaves), and the files that add to `World` (`setup`, `observe`,
//! `workers`, `wire`, `reflectors`, `gc`, `election`, `actions`), which
//! import `state` and the leaves, never this file.

mod actions;
mod client;
mod collector;
mod election;
mod gc;
mod in_flight;
mod input;
mod lease;
mod observe;
mod reflectors;
mod runtime;
mod setup;
mod state;
mod timer;
mod wire;
mod workers;

pub use super::settings::{ClusterSettings, Knob};
pub use crate::sim::spec::{DEFAULT_CLIENT_BURST, DEFAULT_CLIENT_QPS};
pub use client::{TokenBucket, LONG_THROTTLE_LATENCY_MS};
pub use collector::GarbageCollector;
pub use in_flight::SentBy;
pub use input::{Action, ActionKind, Deviation, WorldInit, FRAME_LIMIT};
pub use lease::{Lease, MAX_RETRY_JITTER_MS, RENEW_DEADLINE_MS, RETRY_PERIOD_MS};
pub use observe::ObjectLimitStop;
pub use runtime::{Busy, Runtime, Worker};
pub use state::World;

use super::apiserver::{Actor, Options, Request};
use super::frame::{Event, Frame, QueuedBy, Watcher};
use super::invariants::SentWith;
use super::object::Kind;
use super::settings::RuntimeKind;
use in_flight::{InFlightRequest, Origin};
use timer::{Due, Scheduled, Source, Start, Timer};

impl World {
    /// The worker the schedule's `takes` choose for the next key taken, if any.
    fn chosen_worker(&self) -> Option<usize> {
        self.takes.iter().find(|(k, _)| *k == self.keys_taken + 1).map(|(_, w)| *w as usize)
    }

    fn set_timer(&mut self, at_ms: u64, timer: Timer) {
        self.timer_seq += 1;
        self.timers.push(Scheduled { at_ms, seq: self.timer_seq, timer });
    }

    /// Put `request` on its way to the apiserver, noting how its sender stood
    /// (`sent_with`: its caches synced, a delete's target absent from them).
    fn send(&mut self, request: Request, origin: Origin, sent_with: SentWith) {
        // The controller's own client waits for its rate limiter, and so do
        // its informers' LISTs where they share it; kubectl, the garbage
        // collector and kube-controller-manager's shared informers have
        // clients of their own, not modelled as limited.
        let throttled_ms = match origin {
            Origin::Worker { .. } => self.ctl.limiter.reserve(self.now_ms),
            Origin::Informer { .. } if self.spec.informers_share_client => self.ctl.limiter.reserve(self.now_ms),
            Origin::Informer { .. } => 0,
            Origin::Kubectl | Origin::Gc(_) | Origin::GcWrite | Origin::Kubelet => 0,
        };
        let arrives_at_ms = self.now_ms + throttled_ms + self.cluster.api_latency_ms;
        self.requests_in_flight += 1;
        let inflight = InFlightRequest { request, sent_at_ms: self.now_ms, arrives_at_ms, origin, sent_with, throttled_ms };
        self.set_timer(arrives_at_ms, Timer::Request(Box::new(inflight)));
    }

    /// When the next change is due, and what it is.
    fn next_due(&self) -> Option<(u64, Source)> {
        let mut best: Option<(u64, Source)> = None;
        let mut consider = |at: u64, s: Source| {
            if best.as_ref().is_none_or(|(b, _)| at < *b) {
                best = Some((at, s));
            }
        };
        if let Some(t) = self.timers.peek() {
            consider(t.at_ms, Source::Timer);
        }
        // A paused replica does nothing; what reaches it waits on the wire.
        let ctl = Some(&self.ctl).filter(|c| c.paused_until.is_none());
        let peer = self.peer.as_ref().filter(|p| p.paused_until.is_none());
        let lag = self.cluster.watch_lag_ms;
        if let Some(c) = ctl {
            c.informers_due(lag, &mut |at, d| consider(at, Source::Here(d)));
        }
        if let Some(p) = peer {
            p.informers_due(lag, &mut |at, d| consider(at, Source::Peer(d)));
        }
        for (i, b) in self.beside.iter().enumerate() {
            b.ctl.informers_due(lag, &mut |at, d| consider(at, Source::Beside(i as u8, d)));
        }
        for (i, inf) in self.gc.caches.informers.iter().enumerate() {
            if let Some(at) = inf.next_due(self.cluster.gc_watch_lag_ms()) {
                consider(at, Source::Here(Due::Informer(Watcher::GarbageCollector, i)));
            }
        }
        let chosen = self.chosen_worker();
        if let Some(c) = ctl {
            c.work_due(self.now_ms, chosen, &mut |at, d| consider(at, Source::Here(d)));
        }
        if let Some(p) = peer {
            p.work_due(self.now_ms, None, &mut |at, d| consider(at, Source::Peer(d)));
        }
        for (i, b) in self.beside.iter().enumerate() {
            b.ctl.work_due(self.now_ms, None, &mut |at, d| consider(at, Source::Beside(i as u8, d)));
        }
        best
    }

    /// Advance to the next change and return its frame, or `None` when nothing
    /// is left to happen before `until_ms`.
    pub fn step(&mut self) -> Option<Frame> {
        if self.frames >= self.frame_limit || self.live_objects() > self.object_limit {
            return None;
        }
        loop {
            let (at, source) = self.next_due()?;
            if at > self.until_ms {
                return None;
            }
            self.now_ms = self.now_ms.max(at);
            self.frame_replica = None;
            self.frame_beside = None;
            if let Some(event) = self.run(source) {
                self.frames += 1;
                let mut broke = std::mem::take(&mut self.violations);
                broke.extend(self.invariants.check_event(&event));
                for v in &mut broke {
                    v.first = self.invariants.record(v, self.frames);
                }
                let replica = self.frame_replica.take().unwrap_or(self.ctl.replica);
                let replica = (self.peer.is_some() && event.is_the_controllers()).then_some((b'A' + replica) as char);
                let beside = self.frame_beside.take().filter(|_| event.is_the_controllers());
                let by = (!self.beside.is_empty() && event.is_the_controllers())
                    .then(|| beside.map_or(self.spec, |i| self.beside[usize::from(i)].spec).name());
                return Some(Frame { n: self.frames, at_ms: self.now_ms, event, broke, replica, beside, by });
            }
        }
    }

    fn run(&mut self, source: Source) -> Option<Event> {
        match source {
            Source::Timer => {
                let due = self.timers.pop().expect("a due timer");
                self.fire(due.timer)
            }
            Source::Here(due) => self.run_here(due),
            Source::Peer(due) => self.as_peer(|w| w.run_here(due)),
            Source::Beside(i, due) => self.as_beside(i, |w| w.run_here(due)),
        }
    }

    /// Run what the state of the process in `ctl`'s place made due.
    fn run_here(&mut self, due: Due) -> Option<Event> {
        match due {
            Due::Informer(watcher, i) => Some(self.deliver(watcher, i)),
            Due::QueueReady => {
                let keys = self.ctl.queue.promote_ready(self.now_ms);
                // The delay of `AddRateLimited` (or of the reconcile's own
                // `AddAfter`) is over: the retry is what queued the key,
                // unless something else did meanwhile (a reconcile of the key
                // since the error took the cause recorded then).
                let mut after = !keys.is_empty();
                for key in &keys {
                    let asked = self.ctl.waiting_after.remove(key);
                    after &= asked;
                    if self.ctl.queued_by.get(key).is_none() {
                        let cause = if asked { QueuedBy::RequeueAfter } else { QueuedBy::RateLimitedRetry };
                        self.ctl.queued_by.insert(key.clone(), cause);
                    }
                }
                Some(Event::Requeued { keys, after })
            }
            Due::Worker(w) => Some(self.pick_up(w)),
            Due::Unblocked(w) => self.unblock(w),
        }
    }

    /// Run a timer in the process it belongs to: the leader's, the peer's
    /// (as if it were `ctl`), or none (an old process's). A paused process's
    /// timers wait for it to thaw.
    fn fire(&mut self, timer: Timer) -> Option<Event> {
        let Some(epoch) = timer.epoch() else { return self.fire_here(timer) };
        let thaw = |rt: &Runtime| rt.paused_until.filter(|_| !matches!(timer, Timer::Thaw { .. }));
        if self.ctl.epoch == epoch {
            if let Some(at) = thaw(&self.ctl) {
                self.set_timer(at, timer);
                return None;
            }
            let out = self.fire_here(timer);
            self.promote = false;
            return out;
        }
        if let Some(i) = self.beside.iter().position(|b| b.ctl.epoch == epoch) {
            return self.as_beside(i as u8, |w| w.fire_here(timer));
        }
        match self.peer.as_ref().filter(|p| p.epoch == epoch) {
            Some(p) => {
                if let Some(at) = thaw(p) {
                    self.set_timer(at, timer);
                    return None;
                }
                let out = self.as_peer(|w| w.fire_here(timer));
                if std::mem::take(&mut self.promote) {
                    // The peer took the lease: it is the controller the page shows now.
                    let peer = self.peer.as_mut().expect("the peer");
                    std::mem::swap(&mut self.ctl, peer);
                }
                out
            }
            None => None,
        }
    }

    /// Run `f` with the peer in `ctl`'s place (and `ctl` in the peer's), so
    /// the controller's code serves either replica.
    fn as_peer<R>(&mut self, f: impl FnOnce(&mut World) -> R) -> R {
        let Some(mut peer) = self.peer.take() else { panic!("as_peer without a peer") };
        std::mem::swap(&mut self.ctl, &mut peer);
        self.peer = Some(peer);
        let out = f(self);
        self.frame_replica = Some(self.ctl.replica);
        let mut peer = self.peer.take().expect("the swapped replica");
        std::mem::swap(&mut self.ctl, &mut peer);
        self.peer = Some(peer);
        out
    }

    /// Run `f` with the `i`th controller beside the recipe in `ctl`'s place
    /// (its settings and wiring in the world's), so the controller's code
    /// serves it; the frame it makes is its.
    pub(super) fn as_beside<R>(&mut self, i: u8, f: impl FnOnce(&mut World) -> R) -> R {
        let swap = |w: &mut World| {
            let b = &mut w.beside[usize::from(i)];
            std::mem::swap(&mut w.ctl, &mut b.ctl);
            std::mem::swap(&mut w.controller, &mut b.controller);
            std::mem::swap(&mut w.spec, &mut b.spec);
        };
        swap(self);
        let out = f(self);
        swap(self);
        self.frame_beside = Some(i);
        out
    }

    fn fire_here(&mut self, timer: Timer) -> Option<Event> {
        match timer {
            Timer::Start(start) => Some(self.start_controller(start)),
            Timer::StartPeer => Some(self.as_peer(|w| w.start_controller(Start::First))),
            Timer::StartBeside(i) => Some(self.as_beside(i, |w| w.start_controller(Start::First))),
            Timer::Request(r) => self.arrive(*r),
            Timer::Resume { worker, epoch } => {
                if epoch != self.ctl.epoch {
                    return None;
                }
                self.resume(worker)
            }
            Timer::Action(i) => self.act(i),
            Timer::DeletePod { action, left } => {
                self.delete_random_pod(action, left);
                None
            }
            Timer::SyncPoll { epoch, since_ms } => {
                if epoch != self.ctl.epoch {
                    return None;
                }
                let waited_ms = self.now_ms - since_ms;
                if self.ctl.caches.all_synced() {
                    self.ctl.running = true;
                    Some(Event::WorkersStarted { waited_for_sync: true, waited_ms })
                } else if self.controller.runtime() == RuntimeKind::ControllerRuntime && waited_ms >= self.controller.cache_sync_timeout_ms
                {
                    // controller-runtime v0.24.1 pkg/internal/controller/controller.go,
                    // `Start`: "failed to wait for caches to sync: timed out waiting
                    // for cache to be synced"; the manager's Start returns it and the
                    // process exits. The kubelet restarts the container as
                    // CrashLoopBackOff says: a first crash at once, then 10, 20 … 300 s.
                    let restart_in_ms = self.ctl.crash_loop.exited(self.now_ms);
                    self.reset_process();
                    let epoch = self.ctl.epoch;
                    self.set_timer(self.now_ms + restart_in_ms, Timer::Restart { epoch });
                    Some(Event::CacheSyncTimedOut { waited_ms, restart_in_ms })
                } else {
                    self.set_timer(self.now_ms + 100, Timer::SyncPoll { epoch, since_ms });
                    None
                }
            }
            Timer::OrphanDeadline { owner, uid, deleted_at_ms } => self.orphan_deadline(owner, uid, deleted_at_ms),
            Timer::Liveness(i) => {
                let declared = self.invariants.declared().nth(i)?;
                let super::invariants::Rule::Converged { owner, .. } = declared.rule else { return None };
                let (owners, short) = self.invariants.check_converged(owner, &self.api);
                Some(Event::LivenessChecked { invariant: declared.name, kind: owner, owners, short })
            }
            Timer::WatchExpires { kind, epoch, gen } => self.watch_expired(kind, epoch, gen),
            Timer::Relist { kind, epoch, gen, backoff_ms } => self.relist_after_backoff(kind, epoch, gen, backoff_ms),
            Timer::Resync { kind, epoch } => self.resync(kind, epoch),
            Timer::Renew { epoch } => self.renew(epoch),
            Timer::TryAcquire { epoch } => self.try_acquire(epoch),
            Timer::LeaseLost { epoch } => self.lease_lost(epoch),
            Timer::Thaw { epoch } => self.thaw(epoch),
            // Routed by epoch: a process restarted meanwhile has another.
            Timer::Restart { epoch } => (epoch == self.ctl.epoch).then(|| self.start_controller(Start::Again)),
            Timer::Bookmark => {
                let (rv, now) = (self.api.resource_version(), self.now_ms);
                let peer = self.peer.iter_mut().flat_map(|p| p.caches.informers.iter_mut());
                let beside = self.beside.iter_mut().flat_map(|b| b.ctl.caches.informers.iter_mut());
                for inf in self.ctl.caches.informers.iter_mut().chain(peer).chain(beside) {
                    inf.offer_bookmark(rv, now);
                }
                let at = now + self.next_bookmark_ms();
                self.set_timer(at, Timer::Bookmark);
                None
            }
            Timer::Kubelet { key, uid } => {
                let options = Options { grace_period_ms: Some(0), uid: Some(uid), ..Options::default() };
                self.send(Request::delete(Actor::Kubelet, Kind::Pod, &key).with(options), Origin::Kubelet, SentWith::SYNCED);
                None
            }
        }
    }
}

/// The world is a [`Model`](super::history::Model) the history seeks over
/// (the history itself knows nothing of Kubernetes).
impl super::history::Model for World {
    type Frame = Frame;
    fn step(&mut self) -> Option<Frame> {
        World::step(self)
    }
    fn weight(&self) -> usize {
        World::weight(self)
    }
}
