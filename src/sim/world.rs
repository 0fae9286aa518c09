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

use super::apiserver::{Actor, ApiServer, FailMode, Options, Request, Verb};
use super::controllers::{Caches, ControllerSettings};
use super::frame::{Event, Frame, Violation, Watcher};
use super::informer::Informer;
use super::invariants::Invariants;
use super::object::{Kind, ObjectKey, ObjectRef, ObjectTemplate};
use super::rng::Rng;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BinaryHeap};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

mod actions;
mod client;
mod election;
mod gc;
pub use election::RETRY_PERIOD_MS;
mod reflectors;
mod runtime;
mod wire;
use wire::merge;

pub use actions::{Action, ActionKind};
pub use client::{TokenBucket, DEFAULT_CLIENT_BURST, DEFAULT_CLIENT_QPS, LONG_THROTTLE_LATENCY_MS};
pub use gc::GarbageCollector;
pub use runtime::{Busy, Runtime, Worker};

/// The most frames a run makes, natively and in the page alike: a run stops
/// here however much is still to happen. A big world's frames cost more (a
/// sync lists every child), so `scenario::limits::frame_limit` lowers it for
/// a scenario of many objects; this is the ceiling.
pub const FRAME_LIMIT: u64 = 200_000;

/// Where a run stopped because the cluster held more objects than its limit:
/// the facts a report and the page put in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
pub struct ObjectLimitStop {
    /// The last frame: the one that passed the limit.
    pub frame: u64,
    pub at_ms: u64,
    /// Objects the cluster held then, and the limit.
    pub live: u64,
    pub limit: u64,
    /// Of them, by kind (`Kind::index`).
    #[serde(skip)]
    pub by_kind: [u64; 4],
}

pub use super::settings::{ClusterSettings, Knob};

/// Everything a world is built from.
#[derive(Debug, Clone, Hash)]
pub struct WorldInit {
    pub seed: u64,
    pub until_ms: u64,
    /// The run stops after this many frames (a scenario gives at most
    /// [`FRAME_LIMIT`]; the benchmark asks for more).
    pub frame_limit: u64,
    /// The run stops after the frame that leaves the cluster holding more
    /// objects than this (a scenario gives its work budget's, 2,000): what a
    /// controller creates while an event is held counts too, not only what
    /// the scenario asks for.
    pub object_limit: u64,
    pub cluster: ClusterSettings,
    pub controller: ControllerSettings,
    /// Objects that exist before the scenario starts (no requests, no events).
    pub objects: Vec<ObjectTemplate>,
    pub actions: Vec<Action>,
    /// Where this run departs from the default schedule: watch events held back.
    pub schedule: Vec<Deviation>,
    /// Which idle worker takes a key: `(k, w)`, the `k`th key taken from the
    /// workqueue over the run goes to worker `w` if it is idle (the lowest idle
    /// one otherwise, the default).
    pub takes: Vec<(u32, u32)>,
}

/// One choice a run makes differently from the default schedule, as a
/// scenario's `schedule` writes it: the `nth` watch event of `kind` the
/// apiserver sends (1-based, over the whole run), on its way to the
/// controller's informer, taken off its default timing in one of four ways
/// (exactly one): it arrives `late_ms` later than the lag says (the
/// explorer's choice), or `at_ms` into the run (the page's Deliver now and
/// Release), or is `hold`-ed (never arrives within the run), or is
/// `drop`-ped (lost on the wire). A watch is a stream: what is behind an
/// event never overtakes it. What the schedule explorer varies, and what a
/// counterexample carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Deviation {
    pub kind: Kind,
    pub nth: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(with = "u64"))]
    pub late_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub hold: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub drop: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Deviation {
    /// The `nth` event of `kind`, on its default timing (no way chosen yet).
    pub fn on_time(kind: Kind, nth: u32) -> Deviation {
        Deviation { kind, nth, late_ms: None, at_ms: None, hold: false, drop: false }
    }

    /// The explorer's kind: the `nth` event of `kind`, `late_ms` late.
    pub fn late(kind: Kind, nth: u32, late_ms: u64) -> Deviation {
        Deviation { kind, nth, late_ms: Some(late_ms), at_ms: None, hold: false, drop: false }
    }
}

#[derive(Debug, Clone, Hash)]
enum Timer {
    /// The controller process starts.
    Start { restart: bool },
    /// The second replica's process starts (a candidate for the lease).
    StartPeer,
    /// A request reaches the apiserver.
    Request(Box<InFlightRequest>),
    /// A worker's reconcile carries on.
    Resume { worker: usize, epoch: u32 },
    /// A scenario action fires.
    Action(usize),
    /// The next pod deletion of a `DeletePods` action.
    DeletePod { action: usize, left: u32 },
    /// `WaitForCacheSync` polls `HasSynced` every 100 ms.
    SyncPoll { epoch: u32, since_ms: u64 },
    /// An owner's grace period for its children ends.
    OrphanDeadline { owner: ObjectRef, uid: u64, deleted_at_ms: u64 },
    /// A Terminating pod's grace period is over: the kubelet deletes it for good.
    Kubelet { key: ObjectKey, uid: u64 },
    /// The controller's watch of `kind` (its `gen`-th) ends with 410 Expired.
    WatchExpires { kind: Kind, epoch: u32, gen: u32 },
    /// The reflector's backoff is over: LIST `kind` again.
    Relist { kind: Kind, epoch: u32, gen: u32, backoff_ms: u64 },
    /// The controller's informer of `kind` resyncs.
    Resync { kind: Kind, epoch: u32 },
    /// Leader election: the leader renews its lease (every retry period).
    Renew { epoch: u32 },
    /// Leader election: a standby tries to acquire the lease (every retry period).
    TryAcquire { epoch: u32 },
    /// The leader's GET of the lease after a pause finds another holder.
    LeaseLost { epoch: u32 },
    /// A paused replica runs again.
    Thaw { epoch: u32 },
    /// The apiserver sends a BOOKMARK on each of the controller's watches.
    Bookmark,
}

impl Timer {
    /// The controller process a timer belongs to, by its epoch.
    fn epoch(&self) -> Option<u32> {
        match self {
            Timer::Resume { epoch, .. }
            | Timer::SyncPoll { epoch, .. }
            | Timer::WatchExpires { epoch, .. }
            | Timer::Relist { epoch, .. }
            | Timer::Resync { epoch, .. }
            | Timer::Renew { epoch }
            | Timer::TryAcquire { epoch }
            | Timer::LeaseLost { epoch }
            | Timer::Thaw { epoch } => Some(*epoch),
            Timer::Start { .. }
            | Timer::StartPeer
            | Timer::Request(_)
            | Timer::Action(_)
            | Timer::DeletePod { .. }
            | Timer::OrphanDeadline { .. }
            | Timer::Bookmark
            | Timer::Kubelet { .. } => None,
        }
    }
}

/// Who waits for a response.
#[derive(Debug, Clone, Hash)]
enum Origin {
    Kubectl,
    Worker {
        worker: usize,
        epoch: u32,
        slot: usize,
    },
    Informer {
        kind: Kind,
        epoch: u32,
    },
    /// An `attemptToDeleteItem` waiting for one of its GETs.
    Gc(Box<gc::Attempt>),
    /// The garbage collector's delete or update: nobody waits for it.
    GcWrite,
    /// The kubelet's final delete of a pod: nobody waits for it.
    Kubelet,
}

/// A request on its way to the apiserver.
#[derive(Debug, Clone, Hash)]
pub struct InFlightRequest {
    pub request: Request,
    pub sent_at_ms: u64,
    pub arrives_at_ms: u64,
    origin: Origin,
    /// The sender's caches had synced when it sent this.
    pub synced_at_send: bool,
    /// A controller's delete of an object its cache did not hold when it sent it.
    pub uncached_at_send: bool,
    /// How long it waited for the client-side rate limiter before it left.
    pub throttled_ms: u64,
}

/// The simulated cluster and controller.
#[derive(Debug, Clone)]
pub struct World {
    pub cluster: ClusterSettings,
    pub controller: ControllerSettings,
    pub seed: u64,
    pub until_ms: u64,
    pub frame_limit: u64,
    pub object_limit: u64,
    now_ms: u64,
    frames: u64,
    rng: Rng,
    pub api: ApiServer,
    pub ctl: Runtime,
    pub gc: GarbageCollector,
    /// What is due, earliest first, ties in the order they were set.
    timers: BinaryHeap<Scheduled>,
    timer_seq: u64,
    /// Requests on their way (they ride in the timers).
    requests_in_flight: usize,
    actions: Rc<Vec<Action>>,
    /// Requests by (kind, verb, status, sent by the controller): a short list, searched linearly.
    counts: Vec<((Kind, Verb, u16, bool), u64)>,
    pub invariants: Invariants,
    /// Violations found since the last frame: the next frame carries them.
    violations: Vec<Violation>,
    /// Failures armed for the controller's next requests (`fail_next`), each used once.
    faults: Vec<(Verb, Kind, FailMode)>,
    /// The schedule's deviations, and the watch events sent so far by kind (`Kind::index`).
    schedule: Rc<Vec<Deviation>>,
    pub events_sent: [u32; 4],
    /// The schedule's worker choices, and the keys taken from the workqueue so far.
    takes: Rc<Vec<(u32, u32)>>,
    pub keys_taken: u32,
    /// The second replica of the controller (`controller.instances: 2`): a
    /// standby, or a former leader that has not noticed yet. `ctl` is the
    /// replica that last acquired the lease.
    pub peer: Option<Runtime>,
    /// The leader-election lease, when there are two replicas.
    pub lease: Option<Lease>,
    /// Epochs are unique across replicas and restarts: a timer or a response
    /// names its process by epoch.
    next_epoch: u32,
    /// The replica whose code made the frame being stepped, if not `ctl`.
    frame_replica: Option<u8>,
    /// The replica running as `ctl` just took the lease: it stays `ctl`.
    promote: bool,
}

/// A `coordination.k8s.io` Lease as leader election reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lease {
    /// The process holding it (its epoch: a restarted process is a new identity).
    pub holder_epoch: u32,
    pub renewed_at_ms: u64,
}

/// The run key of the one-shot pruner: its namespace.
fn pruner_key(namespace: &str) -> String {
    namespace.to_string()
}

impl World {
    pub fn new(init: WorldInit) -> World {
        let kind = init.controller.kind;
        let mut world = World {
            seed: init.seed,
            until_ms: init.until_ms,
            frame_limit: init.frame_limit,
            object_limit: init.object_limit,
            now_ms: 0,
            frames: 0,
            rng: Rng::new(init.seed),
            api: ApiServer::new(),
            ctl: Runtime::new(kind, init.controller.workers(), init.controller.fifo, &init.cluster),
            gc: GarbageCollector::new(Caches::new(&Kind::ALL)),
            timers: BinaryHeap::new(),
            timer_seq: 0,
            requests_in_flight: 0,
            actions: Rc::new(init.actions),
            counts: Vec::new(),
            invariants: Invariants::new(),
            violations: Vec::new(),
            faults: Vec::new(),
            schedule: Rc::new(init.schedule),
            events_sent: [0; 4],
            takes: Rc::new(init.takes),
            keys_taken: 0,
            peer: None,
            lease: None,
            next_epoch: 0,
            frame_replica: None,
            promote: false,
            cluster: init.cluster,
            controller: init.controller,
        };
        world.api.pod_grace_period_ms = world.cluster.pod_grace_period_ms;
        // The objects that were there before: committed silently.
        for t in &init.objects {
            let mut t = t.clone();
            // A seed's ownerReference names an object created before it: its UID now.
            for r in &mut t.owner_references {
                if r.uid == 0 {
                    r.uid = world.api.get(r.kind, &ObjectKey::new(t.namespace.clone(), r.name.clone())).map_or(0, |o| o.uid);
                }
            }
            world.api.handle(&Request::create(Actor::Kubectl, t), 0, &mut world.rng);
        }
        // The garbage collector has been running all along: its caches are synced.
        for inf in &mut world.gc.caches.informers {
            inf.start_list(0);
            inf.listed(world.api.list_all(inf.kind), world.api.resource_version(), 0, 0);
            inf.fill(0);
        }
        if world.controller.instances >= 2 {
            let mut b = world.ctl.clone();
            b.replica = 1;
            world.peer = Some(b);
        }
        world.set_timer(0, Timer::Start { restart: false });
        if world.cluster.bookmark_ms > 0 {
            let at = world.next_bookmark_ms();
            world.set_timer(at, Timer::Bookmark);
        }
        if world.peer.is_some() {
            world.set_timer(0, Timer::StartPeer);
        }
        for (i, a) in world.actions.clone().iter().enumerate() {
            world.set_timer(a.at_ms, Timer::Action(i));
        }
        world
    }

    /// Simulated time now.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// Frames produced so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// A fingerprint of the world's state, for the schedule explorer's
    /// pruning: the hash of every field of its state ([`Hash for World`](#impl-Hash-for-World)
    /// names the few it skips, and why). Two runs of one scenario at the same
    /// fingerprint, with the same deviations still ahead, have the same future.
    pub fn fingerprint(&self) -> u64 {
        let mut h = rustc_hash::FxHasher::default();
        self.hash(&mut h);
        h.finish()
    }

    /// About how many bytes a clone of the world holds: what a checkpoint of
    /// it costs ([`super::history::Model::weight`]). Objects are shared, so an
    /// entry costs its map node and its key's two strings, wherever it is kept
    /// (the apiserver, each informer's store, each event in flight); the rest
    /// is a few kilobytes. `tests/memory.rs` holds it to what a clone allocates.
    pub fn weight(&self) -> usize {
        const BASE: usize = 2 << 10;
        const PER_ENTRY: usize = 120;
        let api: usize = Kind::ALL.iter().map(|k| self.api.count(*k)).sum();
        let caches = |c: &crate::sim::controllers::Caches| c.informers.iter().map(|i| i.len() + i.in_flight_len()).sum::<usize>();
        let informers = caches(&self.ctl.caches) + self.peer.as_ref().map_or(0, |p| caches(&p.caches)) + caches(&self.gc.caches);
        BASE + PER_ENTRY * (api + informers)
    }

    /// The worker the schedule's `takes` choose for the next key taken, if any.
    fn chosen_worker(&self) -> Option<usize> {
        self.takes.iter().find(|(k, _)| *k == self.keys_taken + 1).map(|(_, w)| *w as usize)
    }

    /// The key the controller's next pick-up takes, and the worker that will
    /// take it (the schedule's choice if it is idle, else the lowest idle one),
    /// when its workers run, a key is ready and a worker is idle.
    pub fn next_take(&self) -> Option<(String, u32)> {
        let key = self.ctl.queue.queued().next()?.clone();
        let chosen = self.chosen_worker();
        let worker = self.ctl.work_due(self.now_ms, chosen).into_iter().find_map(|(_, s)| match s {
            Source::Worker(w) => Some(w as u32),
            _ => None,
        })?;
        Some((key, worker))
    }

    /// The run stopped at its frame limit, with more still to happen before `until_ms`.
    pub fn stopped_at_frame_limit(&self) -> bool {
        self.frames >= self.frame_limit && self.next_due().is_some_and(|(at, _)| at <= self.until_ms)
    }

    /// Objects the cluster holds now, of every kind (Terminating ones too).
    pub fn live_objects(&self) -> u64 {
        Kind::ALL.iter().map(|k| self.api.live_count(*k)).sum()
    }

    /// The run stopped at its object limit: the last frame left the cluster
    /// holding more objects than [`World::object_limit`]. What it held, by kind.
    pub fn stopped_at_object_limit(&self) -> Option<ObjectLimitStop> {
        let live = self.live_objects();
        (live > self.object_limit).then(|| ObjectLimitStop {
            frame: self.frames,
            at_ms: self.now_ms,
            live,
            limit: self.object_limit,
            by_kind: Kind::ALL.map(|k| self.api.live_count(k)),
        })
    }

    /// Audit log counts: verb -> HTTP status -> requests.
    pub fn api_counts(&self) -> BTreeMap<Verb, BTreeMap<u16, u64>> {
        let mut out: BTreeMap<Verb, BTreeMap<u16, u64>> = BTreeMap::new();
        for ((_, verb, code, _), n) in &self.counts {
            *out.entry(*verb).or_default().entry(*code).or_insert(0) += n;
        }
        out
    }

    /// Requests for `kind` with `verb`, by status; `by_controller` picks the
    /// controller's own requests or everyone else's.
    pub fn kind_counts(&self, kind: Kind, verb: Verb, by_controller: bool) -> Vec<(u16, u64)> {
        let mut out: Vec<(u16, u64)> = self
            .counts
            .iter()
            .filter(|((k, v, _, c), _)| *k == kind && *v == verb && *c == by_controller)
            .map(|((_, _, code, _), n)| (*code, *n))
            .collect();
        out.sort_unstable();
        out
    }

    /// Nothing is moving: no event on any watch or LIST waiting, no request in
    /// flight, no reconcile running. (The page skips such quiet stretches.)
    pub fn is_quiet(&self) -> bool {
        let idle = |inf: &Informer| {
            matches!(
                inf.state(),
                super::informer::ListState::Watching { .. } | super::informer::ListState::Idle | super::informer::ListState::Closed
            ) && inf.in_flight_len() == 0
        };
        self.requests_in_flight == 0 && self.ctl.workers.iter().all(|w| w.busy.is_none()) && self.ctl.caches.informers.iter().all(idle)
    }

    /// Requests on their way to the apiserver.
    pub fn requests_in_flight(&self) -> impl Iterator<Item = &InFlightRequest> {
        self.timers.iter().filter_map(|t| match &t.timer {
            Timer::Request(r) => Some(&**r),
            _ => None,
        })
    }

    fn set_timer(&mut self, at_ms: u64, timer: Timer) {
        self.timer_seq += 1;
        self.timers.push(Scheduled { at_ms, seq: self.timer_seq, timer });
    }

    fn send(&mut self, request: Request, origin: Origin, synced_at_send: bool) {
        self.send_noting(request, origin, synced_at_send, false);
    }

    /// [`Self::send`], noting whether a delete's target was absent from the sender's cache.
    fn send_noting(&mut self, request: Request, origin: Origin, synced_at_send: bool, uncached_at_send: bool) {
        // The controller's own client waits for its rate limiter; kubectl and
        // the garbage collector have clients of their own, not modelled as limited.
        let throttled_ms = match origin {
            Origin::Worker { .. } | Origin::Informer { .. } => self.ctl.limiter.reserve(self.now_ms),
            Origin::Kubectl | Origin::Gc(_) | Origin::GcWrite | Origin::Kubelet => 0,
        };
        let arrives_at_ms = self.now_ms + throttled_ms + self.cluster.api_latency_ms;
        self.requests_in_flight += 1;
        let inflight =
            InFlightRequest { request, sent_at_ms: self.now_ms, arrives_at_ms, origin, synced_at_send, uncached_at_send, throttled_ms };
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
        for (at, s) in ctl.map(|c| c.informers_due(lag)).unwrap_or_default() {
            consider(at, s);
        }
        for (at, s) in peer.map(|p| p.informers_due(lag)).unwrap_or_default() {
            consider(at, Source::Peer(Box::new(s)));
        }
        for (i, inf) in self.gc.caches.informers.iter().enumerate() {
            if let Some(at) = inf.next_due(self.cluster.gc_watch_lag_ms()) {
                consider(at, Source::Informer(Watcher::GarbageCollector, i));
            }
        }
        let chosen = self.chosen_worker();
        for (at, s) in ctl.map(|c| c.work_due(self.now_ms, chosen)).unwrap_or_default() {
            consider(at, s);
        }
        for (at, s) in peer.map(|p| p.work_due(self.now_ms, None)).unwrap_or_default() {
            consider(at, Source::Peer(Box::new(s)));
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
            if let Some(event) = self.run(source) {
                self.frames += 1;
                let mut broke = std::mem::take(&mut self.violations);
                broke.extend(self.invariants.check_event(&event));
                for v in &mut broke {
                    v.first = self.invariants.record(v, self.frames);
                }
                let replica = self.frame_replica.take().unwrap_or(self.ctl.replica);
                let replica = (self.peer.is_some() && event.is_the_controllers()).then_some((b'A' + replica) as char);
                return Some(Frame { n: self.frames, at_ms: self.now_ms, event, broke, replica });
            }
        }
    }

    fn run(&mut self, source: Source) -> Option<Event> {
        match source {
            Source::Timer => {
                let due = self.timers.pop().expect("a due timer");
                self.fire(due.timer)
            }
            Source::Informer(watcher, i) => Some(self.deliver(watcher, i)),
            Source::QueueReady => {
                let keys = self.ctl.queue.promote_ready(self.now_ms);
                Some(Event::Requeued { keys })
            }
            Source::Worker(w) => Some(self.pick_up(w)),
            Source::Peer(inner) => self.as_peer(|w| w.run(*inner)),
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

    fn fire_here(&mut self, timer: Timer) -> Option<Event> {
        match timer {
            Timer::Start { restart } => Some(self.start_controller(restart)),
            Timer::StartPeer => Some(self.as_peer(|w| w.start_controller(false))),
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
                if self.ctl.caches.all_synced() {
                    self.ctl.running = true;
                    Some(Event::WorkersStarted { waited_for_sync: true, waited_ms: self.now_ms - since_ms })
                } else {
                    self.set_timer(self.now_ms + 100, Timer::SyncPoll { epoch, since_ms });
                    None
                }
            }
            Timer::OrphanDeadline { owner, uid, deleted_at_ms } => self.orphan_deadline(owner, uid, deleted_at_ms),
            Timer::WatchExpires { kind, epoch, gen } => self.watch_expired(kind, epoch, gen),
            Timer::Relist { kind, epoch, gen, backoff_ms } => self.relist_after_backoff(kind, epoch, gen, backoff_ms),
            Timer::Resync { kind, epoch } => self.resync(kind, epoch),
            Timer::Renew { epoch } => self.renew(epoch),
            Timer::TryAcquire { epoch } => self.try_acquire(epoch),
            Timer::LeaseLost { epoch } => self.lease_lost(epoch),
            Timer::Thaw { epoch } => self.thaw(epoch),
            Timer::Bookmark => {
                let (rv, now) = (self.api.resource_version(), self.now_ms);
                let peer = self.peer.iter_mut().flat_map(|p| p.caches.informers.iter_mut());
                for inf in self.ctl.caches.informers.iter_mut().chain(peer) {
                    inf.offer_bookmark(rv, now);
                }
                let at = now + self.next_bookmark_ms();
                self.set_timer(at, Timer::Bookmark);
                None
            }
            Timer::Kubelet { key, uid } => {
                let options = Options { grace_period_ms: Some(0), uid: Some(uid), ..Options::default() };
                self.send(Request::delete(Actor::Kubelet, Kind::Pod, &key).with(options), Origin::Kubelet, true);
                None
            }
        }
    }

    /// Change a knob now: its value goes into the settings field its path
    /// names. The watch lag moves events already on the wire too (a delivery
    /// time is computed from the current lag); the controller's switches
    /// apply from its next reconcile; the start-time ones
    /// (`wait_for_cache_sync`) from its next (re)start.
    pub fn set_knob(&mut self, knob: Knob) {
        let set = match knob.path.split_once('.') {
            Some(("cluster", field)) => self.cluster.set(field, knob.value),
            Some(("controller", field)) => self.controller.set(field, knob.value),
            _ => false,
        };
        debug_assert!(set, "{knob:?} names no setting of its type");
    }

    /// From one BOOKMARK to the next: the beat, and a seeded delay up to
    /// `bookmark_jitter_ms` (none drawn when it is 0, so a run without it
    /// makes the same draws as before it existed).
    fn next_bookmark_ms(&mut self) -> u64 {
        let jitter = self.cluster.bookmark_jitter_ms;
        self.cluster.bookmark_ms + if jitter > 0 { self.rng.up_to(jitter) } else { 0 }
    }

    /// When the next change is due, if anything is left before `until_ms`.
    pub fn next_at_ms(&self) -> Option<u64> {
        self.next_due().map(|(at, _)| at).filter(|at| *at <= self.until_ms)
    }

    /// Whether every informer of the controller has synced.
    pub fn controller_synced(&self) -> bool {
        self.ctl.caches.all_synced()
    }

    /// The controller's informer for `kind`.
    pub fn controller_informer(&self, kind: Kind) -> Option<&Informer> {
        self.ctl.caches.informer(kind)
    }

    /// The run's schedule: the watch events it takes off their default timing.
    pub fn schedule(&self) -> &[Deviation] {
        &self.schedule
    }
}

/// The world's state, as the explorer's fingerprint sees it. Every field is
/// named (no `..`), so a new one does not compile until it is hashed or
/// skipped here with its reason; the types below derive `Hash` whole.
impl Hash for World {
    fn hash<H: Hasher>(&self, h: &mut H) {
        let World {
            cluster,
            controller,
            seed,
            until_ms,
            frame_limit,
            object_limit,
            now_ms,
            frames,
            rng,
            api,
            ctl,
            gc,
            timers,
            timer_seq: _, // How many timers were ever set: the pending ones' order, hashed below, is what it decides.
            requests_in_flight,
            actions: _, // The scenario's, the same in every run the explorer compares.
            counts: _,  // The audit log's tallies, for the report: what was sent, not what will be.
            invariants,
            violations,
            faults,
            schedule: _, // The explorer varies it: `explore` hashes the deviations still ahead beside this.
            events_sent,
            takes,
            keys_taken,
            peer,
            lease,
            next_epoch,
            frame_replica,
            promote,
        } = self;
        (cluster, controller, seed, until_ms, frame_limit, object_limit, now_ms).hash(h);
        // With the frame count: two states a frame apart are never one.
        (frames, rng, api, ctl, gc).hash(h);
        // A heap's layout depends on the order of its pushes: hash the pending
        // timers in the order they will fire.
        let mut pending: Vec<&Scheduled> = timers.iter().collect();
        pending.sort_unstable_by(|a, b| b.cmp(a));
        h.write_usize(pending.len());
        for t in pending {
            (t.at_ms, &t.timer).hash(h);
        }
        (requests_in_flight, invariants, violations, faults, events_sent, takes, keys_taken).hash(h);
        (peer, lease, next_epoch, frame_replica, promote).hash(h);
    }
}

/// A timer and when it is due. Ordered for a max-heap so that the earliest
/// time, then the lowest sequence number, comes out first.
#[derive(Debug, Clone)]
struct Scheduled {
    at_ms: u64,
    seq: u64,
    timer: Timer,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        (self.at_ms, self.seq) == (other.at_ms, other.seq)
    }
}

impl Eq for Scheduled {}

impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Scheduled {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (other.at_ms, other.seq).cmp(&(self.at_ms, self.seq))
    }
}

#[derive(Debug, Clone, Hash)]
enum Source {
    Timer,
    Informer(Watcher, usize),
    QueueReady,
    Worker(usize),
    /// The other replica's informer, queue or worker.
    Peer(Box<Source>),
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
