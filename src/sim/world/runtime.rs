//! The controller process under study, as data: its caches (one informer per
//! watched kind), its workqueue, its expectations and its workers. A restart
//! bumps its epoch: responses and timers of the old process are ignored. A
//! leaf: what the process does is in `workers.rs`.

use super::client::TokenBucket;
use super::lease::{Lease, Observed};
use super::timer::Due;
use crate::sim::apiserver::{AuditEntry, ControllerKind, Response};
use crate::sim::consistency::ConsistencyStore;
use crate::sim::controller_runtime::ReadYourWrites;
use crate::sim::controllers::{Caches, ReconcileState, Step};
use crate::sim::expectations::Expectations;
use crate::sim::frame::{QueuedBy, Watcher};
use crate::sim::kubelet::CrashLoopBackOff;
use crate::sim::object::Name;
use crate::sim::object::MAX_KINDS;
use crate::sim::object::{Kind, ObjectKey};
use crate::sim::reconcile::Hold;
use crate::sim::reflector::ExponentialBackoff;
use crate::sim::settings::{ClusterSettings, ControllerSettings};
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
    pub key: Name,
    pub n: u64,
    /// The pseudo-code step it is on.
    pub step: Step,
    pub(super) double_enqueued: bool,
    pub(super) reconcile: Option<ReconcileState>,
    pub(super) responses: Vec<Option<(Response, AuditEntry)>>,
    pub(super) awaiting: usize,
    /// The priority its key was handed out with (controller-runtime's queue; 0 on client-go's).
    pub(super) priority: i32,
    /// controller-runtime's read-your-writes client holds its read until the
    /// cache has caught up: the read, and since when.
    pub blocked: Option<(Hold, u64)>,
    /// Per request slot, the write the read-your-writes client is tracking.
    pub(super) writes: Vec<Option<TrackedWrite>>,
}

/// A write of the controller-runtime client in flight, as its
/// read-your-writes bookkeeping knows it (`writeAndRecordRV`).
#[derive(Debug, Clone, Hash)]
pub(super) struct TrackedWrite {
    pub kind: Kind,
    /// The key the write barrier was begun with (a generated name's is empty).
    pub key: ObjectKey,
    pub seq: u64,
    /// A delete's UID, pending until its DELETED is seen.
    pub deletes_uid: Option<u64>,
}

/// The controller process: caches, queue, expectations, workers.
#[derive(Debug, Clone, Hash)]
pub struct Runtime {
    pub kind: ControllerKind,
    pub caches: Caches,
    pub queue: WorkQueue<Name>,
    pub expectations: Expectations,
    pub workers: Vec<Worker>,
    /// Bumped by a restart: responses and timers of the old process are ignored.
    pub(super) epoch: u32,
    /// The workers run (after `WaitForCacheSync`, or at once without it).
    pub running: bool,
    /// The one-shot program exited with this code.
    pub exited: Option<i32>,
    /// Keys whose queued reconcile was caused by `--double-enqueue`.
    pub(super) double_enqueued: SortedSet<Name>,
    /// What added each dirty key (an `ADDED` of ConfigMap `beta-voice-x`): the first
    /// `Add` that made it dirty, which the reconcile it starts is "queued by".
    pub(super) queued_by: SortedMap<Name, QueuedBy>,
    /// Keys put back with `AddAfter` (a `RequeueAfter`), until their delay
    /// is over: what queues them then is the reconcile's own request, not a retry.
    pub(super) waiting_after: SortedSet<Name>,
    pub reconciles: u64,
    /// Owners one of whose children's DELETED its handler saw, until a
    /// `label_owner` step acts on it (nfd-master's `pendingDeletes`).
    pub deletes_seen: SortedSet<String>,
    /// `*_controller_stale_sync_skips_total`: syncs the consistency store skipped.
    pub stale_sync_skips: u64,
    /// Keys requeued with `AddRateLimited` after an error (a skip included).
    pub requeues: u64,
    /// v1.36's consistency store: memory only, so a restart empties it.
    pub consistency: ConsistencyStore,
    /// The client's rate limiter: a new process starts with a full bucket.
    pub(super) limiter: TokenBucket,
    /// controller-runtime's read-your-writes client: what this process wrote
    /// and what its informers have handed their handlers since.
    pub(super) ryw: ReadYourWrites,
    /// Each reflector's backoff manager, by `Kind::index`.
    pub(super) backoff: Vec<ExponentialBackoff>,
    /// Each reflector's watch count, by `Kind::index`: a timer for an older watch is ignored.
    pub(super) watch_gen: [u32; MAX_KINDS],
    /// Which replica this is (0: A, 1: B), when there are two.
    pub replica: u8,
    /// Frozen (SIGSTOP, a suspended VM, a starved CPU) until then: nothing runs.
    pub paused_until: Option<u64>,
    /// It holds the lease and runs its controller (always, with one replica).
    pub leading: bool,
    /// Its leader elector's view of the lease: the record and when it saw it change.
    pub(super) observed: Observed,
    /// A leader failing to renew stops leading then (`RenewDeadline` after its first failed try).
    pub(super) renew_deadline_at: Option<u64>,
    /// The kubelet's CrashLoopBackOff for this replica's container: kept
    /// across its restarts, as the kubelet keeps it.
    pub(super) crash_loop: CrashLoopBackOff,
}

impl Runtime {
    /// A controller process that has not started yet: its idle workers, an
    /// empty cache per watched kind, a full token bucket, and the workqueue
    /// of the library it is written with.
    pub(super) fn new(controller: &ControllerSettings, cluster: &ClusterSettings) -> Runtime {
        let kind = controller.kind;
        let mut caches = Caches::new(controller.spec().watches);
        for inf in &mut caches.informers {
            inf.fifo = controller.fifo();
            inf.watch_list = controller.watch_list();
        }
        // A reconcile whose first read of its children selects them by
        // label (a count, or a list) has its cache count them by that label
        // (client-go's indexers; a list still reads them): at 2,000
        // objects, reading the label of every object at every count was a
        // sixth of the simulation.
        if let Some(recipe) = crate::sim::controllers::bundled::recipe(controller) {
            let child = caches.informers.iter_mut().find(|i| i.kind == recipe.child);
            if let (Some(inf), Some(label)) = (child, recipe.select().and_then(|s| s.label())) {
                inf.index_label(label.clone());
            }
        }
        Runtime {
            kind,
            caches,
            // controller-runtime without its priority queue (v0.22's default)
            // builds client-go's rate-limiting queue with its default
            // controller rate limiter, the overall bucket included.
            queue: if controller.priority_queue() { WorkQueue::priority_queue() } else { WorkQueue::default() },
            expectations: Expectations::new(cluster.expectations_timeout_ms),
            workers: vec![Worker::default(); controller.workers().max(1) as usize],
            epoch: 0,
            running: false,
            exited: None,
            double_enqueued: SortedSet::new(),
            queued_by: SortedMap::new(),
            waiting_after: SortedSet::new(),
            reconciles: 0,
            deletes_seen: SortedSet::new(),
            stale_sync_skips: 0,
            requeues: 0,
            consistency: ConsistencyStore::default(),
            ryw: ReadYourWrites::default(),
            limiter: {
                let (qps, burst) = cluster.client_limit(kind);
                TokenBucket::new(qps, burst, 0)
            },
            backoff: vec![ExponentialBackoff::reflector(0); MAX_KINDS],
            watch_gen: [0; MAX_KINDS],
            replica: 0,
            paused_until: None,
            leading: false,
            observed: None,
            renew_deadline_at: None,
            crash_loop: CrashLoopBackOff::default(),
        }
    }

    /// When its informers next have something, and what: each given to
    /// `consider`, in order (no list is made: this runs at every step).
    pub(super) fn informers_due(&self, lag_ms: u64, consider: &mut impl FnMut(u64, Due)) {
        for (i, inf) in self.caches.informers.iter().enumerate() {
            if let Some(at) = inf.next_due(lag_ms) {
                consider(at, Due::Informer(Watcher::Controller, i));
            }
        }
    }

    /// When its queue or an idle worker next has something, and what, each given to `consider`, in order.
    /// `chosen`: the worker the schedule says takes the next key, if it is idle.
    pub(super) fn work_due(&self, now_ms: u64, chosen: Option<usize>, consider: &mut impl FnMut(u64, Due)) {
        if let Some(at) = self.queue.next_ready_at() {
            consider(at.max(now_ms), Due::QueueReady);
        }
        // A read the read-your-writes client held is let through once the
        // cache has caught up; a wait for the cache ends when it holds what
        // was awaited, or at its deadline.
        for (w, worker) in self.workers.iter().enumerate() {
            match worker.busy.as_ref().and_then(|b| b.blocked.as_ref()) {
                Some((Hold::Read(read), _)) if self.ryw.ready(read).is_ok() => consider(now_ms, Due::Unblocked(w)),
                Some((Hold::Cached { kind, keys, deadline_ms }, _)) => {
                    let cached = keys.iter().all(|k| self.caches.get(*kind, k).is_some());
                    consider(if cached { now_ms } else { (*deadline_ms).max(now_ms) }, Due::Unblocked(w));
                }
                _ => {}
            }
        }
        if self.running && !self.queue.is_empty() {
            let idle = |w: &usize| self.workers.get(*w).is_some_and(|w| w.busy.is_none());
            if let Some(w) = chosen.filter(idle).or_else(|| self.workers.iter().position(|w| w.busy.is_none())) {
                consider(now_ms, Due::Worker(w));
            }
        }
    }

    /// It holds `lease` (it may not know it lost it: see `leading`).
    pub fn holds(&self, lease: Option<Lease>) -> bool {
        lease.is_some_and(|l| l.holder_epoch == self.epoch)
    }

    /// Its letter, as captions name it.
    pub fn replica_name(&self) -> char {
        (b'A' + self.replica) as char
    }

    /// `queue.Add(key)`, remembering what added it if this `Add` makes it dirty.
    pub(super) fn enqueue(&mut self, key: Name, cause: impl FnOnce() -> QueuedBy) {
        self.enqueue_with_priority(key, 0, cause);
    }

    /// `AddWithOpts(AddOpts{Priority: &priority}, key)`: the priority is
    /// controller-runtime's; client-go's queue has none and ignores it.
    pub(super) fn enqueue_with_priority(&mut self, key: Name, priority: i32, cause: impl FnOnce() -> QueuedBy) {
        if !self.queue.is_dirty(&key) {
            self.queued_by.insert(key.clone(), cause());
        }
        self.queue.add_with_priority(key, priority);
    }
}
