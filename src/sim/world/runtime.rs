//! The controller process under study: its caches (one informer per watched
//! kind), its workqueue, its expectations and its workers, and how a worker
//! takes a key, runs a reconcile beat by beat and returns. A restart bumps its
//! epoch: responses and timers of the old process are ignored.

use super::{pruner_key, ClusterSettings, Origin, Source, Timer, TokenBucket, Watcher, World};
use crate::sim::apiserver::{Actor, AuditEntry, ControllerKind, Request, Response, Verb};
use crate::sim::consistency::ConsistencyStore;
use crate::sim::controllers::{self, Beat, Caches, Cx, Input, Note, Reconcile, ReconcileError, Step};
use crate::sim::expectations::Expectations;
use crate::sim::frame::{Event, QueuedBy, Requeue};
use crate::sim::informer::Fifo;
use crate::sim::object::{Kind, ObjectKey};
use crate::sim::reflector::ExponentialBackoff;
use crate::sim::sorted::{SortedMap, SortedSet};
use crate::sim::workqueue::WorkQueue;

/// A worker and the reconcile it runs, if any.
#[derive(Debug, Clone, Default, Hash)]
pub struct Worker {
    pub busy: Option<Busy>,
}

/// A reconcile in progress on a worker.
#[derive(Debug, Clone, Hash)]
pub struct Busy {
    pub key: String,
    pub n: u64,
    /// The pseudo-code step it is on.
    pub step: Step,
    pub(super) double_enqueued: bool,
    pub(super) reconcile: Option<Reconcile>,
    pub(super) responses: Vec<Option<(Response, AuditEntry)>>,
    pub(super) awaiting: usize,
}

/// The controller process: caches, queue, expectations, workers.
#[derive(Debug, Clone, Hash)]
pub struct Runtime {
    pub kind: ControllerKind,
    pub caches: Caches,
    pub queue: WorkQueue<String>,
    pub expectations: Expectations,
    pub workers: Vec<Worker>,
    /// Bumped by a restart: responses and timers of the old process are ignored.
    pub(super) epoch: u32,
    /// The workers run (after `WaitForCacheSync`, or at once without it).
    pub running: bool,
    /// The one-shot program exited with this code.
    pub exited: Option<i32>,
    /// Keys whose queued reconcile was caused by `--double-enqueue`.
    pub(super) double_enqueued: SortedSet<String>,
    /// What added each dirty key (an `ADDED` of ConfigMap `beta-voice-x`): the first
    /// `Add` that made it dirty, which the reconcile it starts is "queued by".
    pub(super) queued_by: SortedMap<String, QueuedBy>,
    pub reconciles: u64,
    /// `*_controller_stale_sync_skips_total`: syncs the consistency store skipped.
    pub stale_sync_skips: u64,
    /// Keys requeued with `AddRateLimited` after an error (a skip included).
    pub requeues: u64,
    /// v1.36's consistency store: memory only, so a restart empties it.
    pub consistency: ConsistencyStore,
    /// The client's rate limiter: a new process starts with a full bucket.
    pub(super) limiter: TokenBucket,
    /// Each reflector's backoff manager, by `Kind::index`.
    pub(super) backoff: Vec<ExponentialBackoff>,
    /// Each reflector's watch count, by `Kind::index`: a timer for an older watch is ignored.
    pub(super) watch_gen: [u32; 4],
    /// Which replica this is (0: A, 1: B), when there are two.
    pub replica: u8,
    /// Frozen (a long GC pause, a suspended VM) until then: nothing runs.
    pub paused_until: Option<u64>,
    /// It holds the lease and runs its controller (always, with one replica).
    pub leading: bool,
}

impl Runtime {
    /// A controller process that has not started yet: `workers` idle workers,
    /// an empty cache per watched kind, a full token bucket.
    pub(super) fn new(kind: ControllerKind, workers: u32, fifo: Fifo, cluster: &ClusterSettings) -> Runtime {
        let mut caches = Caches::new(controllers::watched_kinds(kind));
        for inf in &mut caches.informers {
            inf.fifo = fifo;
        }
        Runtime {
            kind,
            caches,
            queue: WorkQueue::default(),
            expectations: Expectations::new(cluster.expectations_timeout_ms),
            workers: vec![Worker::default(); workers.max(1) as usize],
            epoch: 0,
            running: false,
            exited: None,
            double_enqueued: SortedSet::new(),
            queued_by: SortedMap::new(),
            reconciles: 0,
            stale_sync_skips: 0,
            requeues: 0,
            consistency: ConsistencyStore::default(),
            limiter: TokenBucket::new(cluster.client_qps, cluster.client_burst, 0),
            backoff: vec![ExponentialBackoff::reflector(0); 4],
            watch_gen: [0; 4],
            replica: 0,
            paused_until: None,
            leading: false,
        }
    }

    /// When its informers next have something, and what.
    pub(super) fn informers_due(&self, lag_ms: u64) -> Vec<(u64, Source)> {
        self.caches
            .informers
            .iter()
            .enumerate()
            .filter_map(|(i, inf)| inf.next_due(lag_ms).map(|at| (at, Source::Informer(Watcher::Controller, i))))
            .collect()
    }

    /// When its queue or an idle worker next has something, and what.
    /// `chosen`: the worker the schedule says takes the next key, if it is idle.
    pub(super) fn work_due(&self, now_ms: u64, chosen: Option<usize>) -> Vec<(u64, Source)> {
        let mut out = Vec::new();
        if let Some(at) = self.queue.next_ready_at() {
            out.push((at.max(now_ms), Source::QueueReady));
        }
        if self.running && !self.queue.is_empty() {
            let idle = |w: &usize| self.workers.get(*w).is_some_and(|w| w.busy.is_none());
            if let Some(w) = chosen.filter(idle).or_else(|| self.workers.iter().position(|w| w.busy.is_none())) {
                out.push((now_ms, Source::Worker(w)));
            }
        }
        out
    }

    /// It holds `lease` (it may not know it lost it: see `leading`).
    pub fn holds(&self, lease: Option<super::Lease>) -> bool {
        lease.is_some_and(|l| l.holder_epoch == self.epoch)
    }

    /// Its letter, as captions name it.
    pub fn replica_name(&self) -> char {
        (b'A' + self.replica) as char
    }

    /// `queue.Add(key)`, remembering what added it if this `Add` makes it dirty.
    pub(super) fn enqueue(&mut self, key: String, cause: impl FnOnce() -> QueuedBy) {
        if !self.queue.is_dirty(&key) {
            self.queued_by.insert(key.clone(), cause());
        }
        self.queue.add(key);
    }
}

impl World {
    /// The controller process starts (or restarts): with one replica it
    /// runs at once; with two, it is a candidate for the lease first.
    pub(super) fn start_controller(&mut self, restart: bool) -> Event {
        self.reset_process();
        if self.peer.is_some() {
            return self.start_candidate(restart);
        }
        self.begin(restart)
    }

    /// A new process: a new epoch (timers and answers of the old one are
    /// ignored), an empty cache, queue, expectations and consistency store.
    pub(super) fn reset_process(&mut self) {
        self.next_epoch += 1;
        let ctl = &mut self.ctl;
        ctl.epoch = self.next_epoch;
        ctl.paused_until = None;
        ctl.leading = false;
        for inf in &mut ctl.caches.informers {
            inf.reset();
        }
        ctl.queue.clear();
        ctl.expectations.clear();
        for w in &mut ctl.workers {
            w.busy = None;
        }
        ctl.running = false;
        ctl.exited = None;
        ctl.double_enqueued.clear();
        ctl.queued_by.clear();
        ctl.consistency.reset();
        ctl.limiter = TokenBucket::new(self.cluster.client_qps, self.cluster.client_burst, self.now_ms);
        ctl.backoff = vec![ExponentialBackoff::reflector(self.now_ms); 4];
    }

    /// Run the controller: its informers LIST, and its workers start (after
    /// `WaitForCacheSync`, if it waits).
    pub(super) fn begin(&mut self, restart: bool) -> Event {
        self.ctl.leading = true;
        let epoch = self.ctl.epoch;
        let ctl = &mut self.ctl;
        let kinds: Vec<Kind> = ctl.caches.informers.iter().map(|i| i.kind).collect();
        for kind in kinds {
            self.ctl.caches.informer_mut(kind).expect("watched kind").start_list(self.now_ms);
            let req = Request::list(Actor::Informer(self.ctl.kind), kind, "");
            self.send(req, Origin::Informer { kind, epoch }, false);
        }
        if self.ctl.kind == ControllerKind::Pruner {
            self.ctl.enqueue(pruner_key(&self.controller.namespace), || QueuedBy::ProgramStart);
        }
        let wait = self.controller.wait_for_cache_sync;
        if wait {
            // PollImmediateUntil: check now, then every 100 ms.
            self.set_timer(self.now_ms, Timer::SyncPoll { epoch, since_ms: self.now_ms });
        } else {
            self.ctl.running = true;
        }
        Event::ControllerStarted { restart, wait_for_cache_sync: wait }
    }

    pub(super) fn pick_up(&mut self, w: usize) -> Event {
        let key = self.ctl.queue.get().expect("a queued key");
        self.keys_taken += 1;
        self.ctl.reconciles += 1;
        let n = self.ctl.reconciles;
        let double_enqueued = self.ctl.double_enqueued.remove(&key);
        let queued_by = self.ctl.queued_by.remove(&key);
        let step = controllers::first_step(self.ctl.kind);
        self.ctl.workers[w].busy =
            Some(Busy { key: key.clone(), n, step, double_enqueued, reconcile: None, responses: Vec::new(), awaiting: 0 });
        self.set_timer(self.now_ms, Timer::Resume { worker: w, epoch: self.ctl.epoch });
        Event::ReconcileStarted { worker: w as u32, key, n, double_enqueued, queued_by }
    }

    /// Run a worker's reconcile up to its next beat.
    pub(super) fn resume(&mut self, w: usize) -> Option<Event> {
        let now = self.now_ms;
        let lag_ms = self.cluster.watch_lag_ms;
        let synced = self.ctl.caches.all_synced();
        let ctl = &mut self.ctl;
        let busy = ctl.workers[w].busy.as_mut()?;
        let mut cx = Cx {
            now_ms: now,
            settings: &self.controller,
            caches: &ctl.caches,
            expectations: &mut ctl.expectations,
            lag_ms,
            truth: &self.api,
            rng: &mut self.rng,
            consistency: &mut ctl.consistency,
        };
        let beat = match busy.reconcile.as_mut() {
            None => {
                let (r, beat) = Reconcile::start(&busy.key, &mut cx);
                busy.reconcile = Some(r);
                beat
            }
            Some(r) => {
                let input = if busy.responses.is_empty() {
                    Input::Resume
                } else {
                    Input::Responses(std::mem::take(&mut busy.responses).into_iter().map(|r| r.expect("every response in")).collect())
                };
                r.resume(input, &mut cx)
            }
        };
        let (key, n) = (busy.key.clone(), busy.n);
        match beat {
            Beat::Note { note, then_ms } => {
                if matches!(note, Note::StaleSkip { .. }) {
                    ctl.stale_sync_skips += 1;
                }
                let step = controllers::note_step(&note);
                busy.step = step;
                let epoch = ctl.epoch;
                self.set_timer(now + then_ms, Timer::Resume { worker: w, epoch });
                Some(Event::Reconcile { worker: w as u32, key, n, note, step })
            }
            Beat::Call { requests, step } => {
                busy.step = step;
                busy.awaiting = requests.len();
                busy.responses = vec![None; requests.len()];
                let epoch = ctl.epoch;
                if requests.is_empty() {
                    self.set_timer(now, Timer::Resume { worker: w, epoch });
                }
                for (slot, req) in requests.into_iter().enumerate() {
                    let uncached = req.verb == Verb::Delete
                        && req.name.as_ref().is_some_and(|name| {
                            let key = ObjectKey::new(req.namespace.clone(), name.clone());
                            self.ctl.caches.get(req.kind, &key).is_none()
                        });
                    self.send_noting(req, Origin::Worker { worker: w, epoch, slot }, synced, uncached);
                }
                None
            }
            Beat::Return(result) => Some(self.finish(w, result)),
        }
    }

    pub(super) fn finish(&mut self, w: usize, result: Result<(), ReconcileError>) -> Event {
        let busy = self.ctl.workers[w].busy.take().expect("a busy worker");
        let key = busy.key;
        if self.ctl.kind == ControllerKind::Pruner {
            // A one-shot program: it exits, nothing requeues.
            self.ctl.queue.done(&key);
            self.ctl.running = false;
            let code = if result.is_ok() { 0 } else { 1 };
            self.ctl.exited = Some(code);
            let deleted = match busy.reconcile {
                Some(Reconcile::Pruner(r)) => r.deleted(),
                _ => 0,
            };
            return Event::ControllerExited { code, error: result.err(), deleted };
        }
        let requeue = match &result {
            Ok(()) => {
                self.ctl.queue.forget(&key);
                if self.controller.double_enqueue && !busy.double_enqueued {
                    self.ctl.enqueue(key.clone(), || QueuedBy::DoubleEnqueue);
                    self.ctl.double_enqueued.insert(key.clone());
                    Requeue::DoubleEnqueue
                } else {
                    Requeue::No
                }
            }
            Err(_) => {
                if !self.ctl.queue.is_dirty(&key) {
                    self.ctl.queued_by.insert(key.clone(), QueuedBy::RateLimitedRetry);
                }
                let delay_ms = self.ctl.queue.add_rate_limited(key.clone(), self.now_ms);
                self.ctl.requeues += 1;
                Requeue::RateLimited { delay_ms }
            }
        };
        self.ctl.queue.done(&key);
        Event::ReconcileFinished { worker: w as u32, key, n: busy.n, error: result.err(), requeue }
    }
}
