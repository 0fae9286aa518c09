//! Frames: every change in the world is one value of the closed [`Event`] enum,
//! stamped with its number and simulated time. The UI steps frame by frame and
//! captions each one; the runner prints them; the trace hash covers them.
//!
//! A frame holds facts only (ids, kinds, counts, times, statuses), never a
//! sentence: `crate::narrate` words them, so a caption can be reworded
//! without moving a trace hash.

use super::apiserver::{AuditEntry, EventType, FailMode, Verb};
use super::object::{Kind, Name, ObjectRef};
pub use super::reconcile::Requeue;
use super::reconcile::{HandlerEffects, Note, ReconcileError, Step};
use serde::Serialize;

/// One violation of an invariant, carried by the frame that made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct Violation {
    /// The invariant's name (`children_within_desired`).
    pub invariant: &'static str,
    /// What broke it, as facts (`crate::narrate::invariants` words them).
    pub facts: ViolationFacts,
    /// The first violation of this invariant in the run.
    pub first: bool,
}

impl Violation {
    pub fn new(invariant: &'static str, facts: ViolationFacts) -> Self {
        Violation { invariant, facts, first: false }
    }
}

/// What broke an invariant: the figures a sentence about it needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case", tag = "what")]
pub enum ViolationFacts {
    /// A create took `owner`'s active children to `active`, over `desired`.
    OverDesired { owner: Kind, owner_name: String, desired: u32, active: u32, created: String },
    /// A create took a ReplicaSet's pods, `terminating` of them Terminating, to `total`, over `desired`.
    PodsOverReplicas { owner_name: String, desired: u32, total: u32, terminating: u32, created: String },
    /// A delete sent before the controller's cache synced.
    DeleteBeforeSync { kind: Kind, name: String },
    /// A delete, after the cache synced, of an object the cache did not hold.
    DeleteOfUncached { kind: Kind, name: String },
    /// `children` of the deleted `owner` remain past the grace period.
    Orphans { owner: ObjectRef, children: u32 },
    /// A create took `owner`'s active children to `active`, over a declared `count`.
    AboveBound { owner: Kind, owner_name: String, count: u32, active: u32, created: String },
    /// A controller's delete left `owner`'s active children at `active`, under a declared `count`.
    BelowBound { owner: Kind, owner_name: String, count: u32, active: u32, deleted: String },
    /// At a declared liveness invariant's time, `owner` had `active` of its `desired` children.
    NotConverged { owner: Kind, owner_name: String, desired: u32, active: u32 },
    /// A controller's write left `kind` `name` without the declared `label`.
    LabelMissing { kind: Kind, name: String, label: &'static str },
}

/// An owner short of its desired count when a liveness invariant is checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct Shortfall {
    pub name: String,
    pub desired: u32,
    pub active: u32,
}

/// What added a key to the workqueue: the first `Add` that made it dirty,
/// which the reconcile it starts is "queued by".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case", tag = "by")]
pub enum QueuedBy {
    /// A watch event's handler (`ADDED ConfigMap beta-voice-x`).
    Watch { event_type: EventType, kind: Kind, name: Name },
    /// A LIST reaching the store at once (`Replace`).
    List { kind: Kind },
    /// A relist's tombstone (`DeletedFinalStateUnknown`) for `name`.
    Tombstone { kind: Kind, name: Name },
    /// v1.28's DeltaFIFO popping `name` from a LIST.
    ListPop { kind: Kind, name: Name },
    /// The informer's resync.
    Resync { kind: Kind },
    /// The one-shot program's start (the pruner).
    ProgramStart,
    /// `--double-enqueue`'s re-add after a success.
    DoubleEnqueue,
    /// `AddRateLimited` after the reconcile returned an error.
    RateLimitedRetry,
    /// The reconcile's own `RequeueAfter` (`AddAfter`), its delay over.
    RequeueAfter,
}

/// Whose watch delivered an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Watcher {
    /// The controller under study.
    Controller,
    /// The garbage collector's own informers.
    GarbageCollector,
}

/// One change. Variants are listed in roughly the order a request travels.
#[derive(Debug, Clone, PartialEq, Serialize, Hash)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Event {
    /// The controller process starts (or restarts): empty cache, informers LIST.
    ControllerStarted {
        restart: bool,
        wait_for_cache_sync: bool,
        /// The old process's requests that were still waiting for its
        /// client-side rate limiter: they died with it, unsent.
        #[serde(skip_serializing_if = "is_zero")]
        abandoned: u64,
        /// Its reflectors start with a watch-list, not a LIST.
        #[serde(default, skip_serializing_if = "is_false")]
        watch_list: bool,
    },
    /// A scenario action armed a fault: the next matching event on the controller's watch is dropped.
    FaultArmed {
        kind: Kind,
        event_type: Option<EventType>,
        /// The next BOOKMARK is dropped instead (a watch-list's `k8s.io/initial-events-end` among them).
        #[serde(default, skip_serializing_if = "is_false")]
        bookmark: bool,
    },
    /// A failure is armed for the controller's `nth` request with `verb` on
    /// `kind` from now (1: the next).
    FailureArmed {
        verb: Verb,
        kind: Kind,
        mode: FailMode,
        #[serde(skip_serializing_if = "is_one")]
        nth: u32,
    },
    /// The controller's watch of `kind` expired (410, reason `Expired`): the informer re-lists.
    RelistStarted { kind: Kind },
    /// The controller's watch of `kind` ended on its own with `410 Expired`
    /// (`cluster.watch_timeout_ms` after it began): the reflector waits
    /// `backoff_ms` (its backoff manager's next step) before it lists again.
    WatchExpired { kind: Kind, after_ms: u64, backoff_ms: u64 },
    /// The reflector's backoff is over: it lists `kind` again.
    Relisting { kind: Kind, backoff_ms: u64 },
    /// The informer's resync period is up: every cached object of `kind`
    /// goes to the update handlers again, unchanged (`cluster.resync_ms`).
    Resynced { kind: Kind, n_objects: u32, effects: HandlerEffects },
    /// The apiserver handled a request (the audit log's line). `step` is the
    /// reconcile step that sent it, if a worker did; `throttled_ms`, how long
    /// it waited for the client-side rate limiter first.
    ApiRequest {
        entry: AuditEntry,
        step: Option<Step>,
        #[serde(skip_serializing_if = "is_zero")]
        throttled_ms: u64,
    },
    /// A LIST reached an informer's store (`Replace`): handlers ran, tombstones for vanished keys.
    CacheFilled {
        watcher: Watcher,
        kind: Kind,
        n_objects: u32,
        first_sync: bool,
        tombstones: Vec<Name>,
        effects: HandlerEffects,
        /// What a watch-list streamed, at its `initial-events-end` bookmark, not a LIST.
        #[serde(default, skip_serializing_if = "is_false")]
        streamed: bool,
    },
    /// v1.28's DeltaFIFO popped entry `n` of `of` of a LIST into the
    /// controller's store (a listed item, or a tombstone): the handlers ran.
    ListItemPopped { kind: Kind, object: ObjectRef, tombstone: bool, n: u32, of: u32, first_sync: bool, effects: HandlerEffects },
    /// A watch event reached an informer: the store took it, then the handlers ran.
    WatchDelivered {
        watcher: Watcher,
        event_type: EventType,
        object: ObjectRef,
        resource_version: u64,
        sent_at_ms: u64,
        /// How long the run's schedule held it back beyond the lag (a deviation).
        #[serde(default, skip_serializing_if = "is_zero")]
        held_ms: u64,
        effects: HandlerEffects,
    },
    /// A BOOKMARK reached the controller's informer of `kind`: no object
    /// changed, but its store has read the cluster up to `resource_version`.
    BookmarkDelivered {
        kind: Kind,
        resource_version: u64,
        /// It is a watch-list's `k8s.io/initial-events-end`: the streamed
        /// state goes to the FIFO's `Replace` now.
        #[serde(default, skip_serializing_if = "is_false")]
        initial_events_end: bool,
    },
    /// A BOOKMARK was lost on the wire; a watch-list's `k8s.io/initial-events-end`
    /// lost leaves the informer streaming, not synced while that watch lasts.
    BookmarkDropped {
        kind: Kind,
        resource_version: u64,
        initial_events_end: bool,
        /// The informer had synced before (a relist's stream): its cache keeps what it had.
        #[serde(default, skip_serializing_if = "is_false")]
        synced: bool,
    },
    /// A watch-list's event reached the controller's reflector while it
    /// streams the initial state: it goes to the temporary store (`n` objects
    /// there now, of the `of` in the snapshot), not the cache, and no handler
    /// runs. `initial`: an ADDED of the snapshot, not a later change queued
    /// behind a lost bookmark.
    InitialEventDelivered {
        kind: Kind,
        event_type: EventType,
        object: ObjectRef,
        resource_version: u64,
        n: u32,
        of: u32,
        initial: bool,
        /// The informer had synced before (a relist's stream).
        #[serde(default, skip_serializing_if = "is_false")]
        synced: bool,
    },
    /// A watch event was lost on the wire: the store never sees it.
    WatchDropped { watcher: Watcher, event_type: EventType, object: ObjectRef, resource_version: u64 },
    /// controller-runtime's `CacheSyncTimeout` ran out with a cache not synced:
    /// the controller's `Start` fails, the manager exits, and the kubelet
    /// restarts the process `restart_in_ms` later.
    CacheSyncTimedOut { waited_ms: u64, restart_in_ms: u64 },
    /// `WaitForCacheSync` returned (or was skipped): the workers start.
    WorkersStarted { waited_for_sync: bool, waited_ms: u64 },
    /// Rate-limited keys whose delay is over went back on the queue;
    /// `after`: each was a reconcile's own `RequeueAfter`, not a retry.
    Requeued {
        keys: Vec<Name>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        after: bool,
    },
    /// A worker took a key off the queue; `queued_by` is what added it (an `ADDED` of ConfigMap `beta-voice-x`).
    ReconcileStarted { worker: u32, key: Name, n: u64, double_enqueued: bool, queued_by: Option<QueuedBy> },
    /// The reconcile read or decided something (a trace names it `reconcile`).
    #[serde(rename = "reconcile")]
    ReconcileNote { worker: u32, key: Name, n: u64, note: Note, step: Step },
    /// The reconcile returned.
    ReconcileFinished { worker: u32, key: Name, n: u64, error: Option<ReconcileError>, requeue: Requeue },
    /// The one-shot program ended with this exit code.
    ControllerExited { code: i32, error: Option<ReconcileError>, deleted: u32 },
    /// An owner has been gone for the grace period and children that name it remain.
    OrphansRemain { owner: ObjectRef, children: u32, since_ms: u64 },
    /// A declared liveness invariant's time: each of the `owners` objects of
    /// `kind` has its desired count of active children, or `short` is the
    /// first that has not.
    LivenessChecked { invariant: &'static str, kind: Kind, owners: u32, short: Option<Shortfall> },
    /// A replica's process starts as a candidate for the lease (two replicas).
    CandidateStarted { replica: char, restart: bool },
    /// A replica took the lease and runs the controller; the lease had not
    /// been renewed for `expired_after_ms` (none: nobody held it).
    LeaderElected { replica: char, expired_after_ms: Option<u64> },
    /// The leader is frozen for `for_ms` (SIGSTOP, a suspended VM, a starved CPU).
    ReplicaPaused { replica: char, for_ms: u64 },
    /// The frozen replica runs again, `leading` still or not (it does not know yet).
    ReplicaResumed { replica: char, leading: bool },
    /// "leaderelection lost": the replica's renewal found another holder; it exits and restarts as a candidate.
    LeadershipLost { replica: char },
}

/// One step of the world.
#[derive(Debug, Clone, PartialEq, Serialize, Hash)]
pub struct Frame {
    /// 1-based: frame 0 is the initial state, before anything happened.
    pub n: u64,
    pub at_ms: u64,
    pub event: Event,
    /// The invariants this frame violated (each `first` when it is the first time).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub broke: Vec<Violation>,
    /// With two replicas of the controller: the one whose work this frame is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica: Option<char>,
    /// With controllers beside the recipe (`controller.alongside`): the one
    /// whose work this frame is, by its index there; none for the recipe's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beside: Option<u8>,
    /// With controllers beside the recipe: the name of the controller whose
    /// work this frame is (the recipe's own too), so every caption says whose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<&'static str>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Event {
    /// A frame of the controller process's own work (its informers, queue,
    /// workers and requests), which a replica's letter names when there are two.
    pub(crate) fn is_the_controllers(&self) -> bool {
        match self {
            Event::ApiRequest { entry, .. } => {
                matches!(entry.actor, super::apiserver::Actor::Controller(_) | super::apiserver::Actor::Informer(_))
            }
            Event::CacheFilled { watcher, .. } | Event::WatchDelivered { watcher, .. } | Event::WatchDropped { watcher, .. } => {
                *watcher == Watcher::Controller
            }
            Event::ControllerStarted { .. }
            | Event::FaultArmed { .. }
            | Event::FailureArmed { .. }
            | Event::RelistStarted { .. }
            | Event::WatchExpired { .. }
            | Event::Relisting { .. }
            | Event::Resynced { .. }
            | Event::ListItemPopped { .. }
            | Event::BookmarkDelivered { .. }
            | Event::BookmarkDropped { .. }
            | Event::InitialEventDelivered { .. }
            | Event::CacheSyncTimedOut { .. }
            | Event::WorkersStarted { .. }
            | Event::Requeued { .. }
            | Event::ReconcileStarted { .. }
            | Event::ReconcileNote { .. }
            | Event::ReconcileFinished { .. }
            | Event::ControllerExited { .. } => true,
            Event::OrphansRemain { .. }
            | Event::LivenessChecked { .. }
            | Event::CandidateStarted { .. }
            | Event::LeaderElected { .. }
            | Event::ReplicaPaused { .. }
            | Event::ReplicaResumed { .. }
            | Event::LeadershipLost { .. } => false,
        }
    }

    /// A short machine name for the kind of frame (the trace's `kind`).
    pub fn name(&self) -> &'static str {
        match self {
            Event::ControllerStarted { .. } => "controller_started",
            Event::FaultArmed { .. } => "fault_armed",
            Event::FailureArmed { .. } => "failure_armed",
            Event::RelistStarted { .. } => "relist_started",
            Event::WatchExpired { .. } => "watch_expired",
            Event::Relisting { .. } => "relisting",
            Event::Resynced { .. } => "resynced",
            Event::ApiRequest { .. } => "api_request",
            Event::CacheFilled { .. } => "cache_filled",
            Event::ListItemPopped { .. } => "list_item_popped",
            Event::WatchDelivered { .. } => "watch_delivered",
            Event::WatchDropped { .. } => "watch_dropped",
            Event::BookmarkDelivered { .. } => "bookmark_delivered",
            Event::BookmarkDropped { .. } => "bookmark_dropped",
            Event::CacheSyncTimedOut { .. } => "cache_sync_timed_out",
            Event::InitialEventDelivered { .. } => "initial_event_delivered",
            Event::WorkersStarted { .. } => "workers_started",
            Event::Requeued { .. } => "requeued",
            Event::ReconcileStarted { .. } => "reconcile_started",
            Event::ReconcileNote { .. } => "reconcile",
            Event::ReconcileFinished { .. } => "reconcile_finished",
            Event::ControllerExited { .. } => "controller_exited",
            Event::OrphansRemain { .. } => "orphans_remain",
            Event::LivenessChecked { .. } => "liveness_checked",
            Event::CandidateStarted { .. } => "candidate_started",
            Event::LeaderElected { .. } => "leader_elected",
            Event::ReplicaPaused { .. } => "replica_paused",
            Event::ReplicaResumed { .. } => "replica_resumed",
            Event::LeadershipLost { .. } => "leadership_lost",
        }
    }

    /// The objects this frame acted on.
    pub fn touched(&self) -> Vec<ObjectRef> {
        match self {
            Event::ApiRequest { entry, .. } if !entry.name.is_empty() => {
                vec![ObjectRef { kind: entry.kind, namespace: entry.namespace.clone(), name: entry.name.clone() }]
            }
            Event::WatchDelivered { object, .. } | Event::WatchDropped { object, .. } | Event::ListItemPopped { object, .. } => {
                vec![object.clone()]
            }
            Event::OrphansRemain { owner, .. } => vec![owner.clone()],
            Event::CacheFilled { kind, tombstones, .. } => tombstones
                .iter()
                .map(|t| {
                    let key = super::object::split_key(t);
                    ObjectRef { kind: *kind, namespace: key.namespace, name: key.name }
                })
                .collect(),
            Event::ReconcileNote { note: Note::CacheMiss { name, kind, .. } | Note::CacheHit { name, kind }, key, .. } => {
                let namespace = key.split('/').next().unwrap_or_default().into();
                vec![ObjectRef { kind: *kind, namespace, name: name.as_str().into() }]
            }
            _ => Vec::new(),
        }
    }

    /// The garbage collector's own cache taking an event that sends nothing to
    /// `attemptToDelete`: bookkeeping the page hides where the GC is not the point.
    pub fn is_gc_bookkeeping(&self) -> bool {
        match self {
            Event::WatchDelivered { watcher: Watcher::GarbageCollector, effects, .. }
            | Event::CacheFilled { watcher: Watcher::GarbageCollector, effects, .. } => effects.attempt_to_delete.is_empty(),
            Event::WatchDropped { watcher: Watcher::GarbageCollector, .. } => true,
            _ => false,
        }
    }

    /// Does this frame begin a reconcile (the UI's "Step to next reconcile")?
    pub fn is_reconcile_start(&self) -> bool {
        matches!(self, Event::ReconcileStarted { .. })
    }
}
