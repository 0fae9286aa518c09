//! The vocabulary between a reconcile and the world, a leaf of `sim`: what
//! a reconcile asks for and says ([`Beat`]: a [`Note`], the requests of a
//! [`Step`], a read to wait for, its return), what it resumes with
//! ([`Input`]), why it fails ([`ReconcileError`]), and what its key's
//! return does to the workqueue ([`Requeue`]); what an event handler sees
//! and does ([`HandlerEvent`], [`HandlerEffects`]); the reads
//! controller-runtime's read-your-writes client may hold ([`Read`],
//! [`Behind`]). Facts only, as every frame holds; `crate::narrate` words them.
//!
//! It imports only leaves (`apiserver`'s vocabulary, `consistency`,
//! `object`), so the controllers, the frames and controller-runtime's
//! client all read it without importing one another.

use super::apiserver::{AuditEntry, EventType, Request, Response, Status, Verb};
use super::consistency::ConsistencyError;
use super::object::{Kind, Name, ObjectKey, ObjectRc};
use serde::Serialize;

/// What a reconcile resumes with.
#[derive(Debug, Clone, Hash)]
pub enum Input {
    /// Carry on after a note.
    Resume,
    /// The answers to the last batch of requests, in the order they were sent.
    Responses(Vec<(Response, AuditEntry)>),
}

/// What a reconcile does next.
#[derive(Debug, Clone, Hash)]
pub enum Beat {
    /// Something it read or decided: one frame. It resumes `then_ms` later.
    Note { note: Note, then_ms: u64 },
    /// A [`Note::Counted`] whose cluster figures (`in_cluster`,
    /// `cluster_after`) the world fills in from `tally` before it becomes a
    /// frame: the narration says what the cluster holds, and a reconcile
    /// never reads the apiserver's truth. Then as a `Note`.
    Counted { note: Note, then_ms: u64, tally: Tally },
    /// The reconcile waits (the note says for what): for
    /// controller-runtime's read-your-writes client to let a read through,
    /// or for its cache to show what it wrote; resume when it may go on.
    Wait { note: Note, hold: Hold },
    /// Send these requests at once; resume when the last has answered.
    Call { requests: Vec<Request>, step: Step },
    /// Return from `Reconcile`: `Ok` forgets the key's failures, `Err` requeues it rate-limited.
    Return(Outcome),
}

/// What the cluster holds of a reconcile's children, for the world to count
/// after the step (the figures a [`Note::Counted`] says beside the cache's).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tally {
    pub child: Kind,
    pub namespace: Name,
    /// Whose children.
    pub of: Owned,
    /// What the plan creates: these names (one the cluster holds already adds
    /// nothing), or this many the server names.
    pub creates: Creates,
    /// What the plan deletes (one already gone takes nothing away).
    pub deletes: Vec<ObjectKey>,
}

/// How children are tied to their owner, as the world counts them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Owned {
    /// By a label's value (the Ensemble's, which holds with ownerReferences
    /// off too); `active`: the Terminating ones left out.
    Label { label: std::sync::Arc<str>, value: String, active: bool },
    /// By controllerRef: the owner's UID (the apiserver's index, active children).
    Controlled { uid: u64 },
    /// Every object of the kind in the owner's namespace.
    Namespace,
}

/// What a plan creates.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Creates {
    Nothing,
    Named(Vec<String>),
    Generated(u32),
}

/// What a reconcile returned: controller-runtime's `(ctrl.Result, error)`,
/// of which a client-go controller's `error` is the two cases `Done` and
/// `Error`. What each does to the key: `world/workers.rs` (client-go) and
/// [`crate::sim::controller_runtime::reconcile_handler`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `nil` (`ctrl.Result{}, nil`): the key's failures are forgotten.
    Done,
    /// `ctrl.Result{Requeue: true}, nil` (deprecated upstream, still honoured): rate-limited again.
    Requeue,
    /// `ctrl.Result{RequeueAfter: d}, nil`, with `d` > 0 ms: forgotten, then added after `d`.
    RequeueAfter(u64),
    /// A non-nil error: requeued rate-limited.
    Error(ReconcileError),
    /// `reconcile.TerminalError(err)`: counted, never retried.
    TerminalError(ReconcileError),
}

impl Outcome {
    /// The error it returned, if any.
    pub fn error(&self) -> Option<&ReconcileError> {
        match self {
            Outcome::Error(e) | Outcome::TerminalError(e) => Some(e),
            Outcome::Done | Outcome::Requeue | Outcome::RequeueAfter(_) => None,
        }
    }
}

/// A client-go reconcile's `error`: `nil` is `Done`.
impl From<Result<(), ReconcileError>> for Outcome {
    fn from(r: Result<(), ReconcileError>) -> Outcome {
        match r {
            Ok(()) => Outcome::Done,
            Err(e) => Outcome::Error(e),
        }
    }
}

/// Why a reconcile returned an error, as facts: `crate::narrate` words it.
///
/// A failed request keeps what it asked and the status the client saw; the
/// apiserver's message for it (upstream's words, verbatim: `configmaps "x"
/// already exists`) is what the real API returns, so it stays data the
/// apiserver computes ([`crate::sim::apiserver::status_message`]) and the
/// narration quotes it as `err.Error()` would print it. A skipped sync keeps
/// the consistency store's own error, whose text is upstream's too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case", tag = "error")]
pub enum ReconcileError {
    /// A request the reconcile sent failed.
    Request {
        verb: Verb,
        kind: Kind,
        name: String,
        /// What the client saw (a lost answer's `504 Timeout`, not what committed).
        status: Status,
        /// Why it failed, where the message says more than the status.
        #[serde(skip_serializing_if = "Option::is_none")]
        cause: Option<crate::sim::apiserver::Cause>,
    },
    /// `EnsureReady` failed: a cache has not read the controller's own writes.
    Stale(ConsistencyError),
    /// Its wait for the cache to show what it created timed out.
    CacheTimeout { kind: Kind, waiting: u32, waited_ms: u64 },
    /// A `return_if` that returns an error held (`found`, `desired`: what it read).
    Guard { found: u32, desired: u32 },
}

impl ReconcileError {
    /// The error a failed request returns to the reconcile, as the client saw it.
    pub fn of(audit: &AuditEntry) -> ReconcileError {
        ReconcileError::Request {
            verb: audit.verb,
            kind: audit.kind,
            name: audit.name.to_string(),
            status: audit.seen_status(),
            cause: audit.cause,
        }
    }
}

/// What to do about surplus or missing children.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case", tag = "plan", content = "n")]
pub enum Plan {
    Nothing,
    Create(u32),
    Delete(u32),
}

/// The closed set of things a reconcile reports. Each becomes one frame, has a
/// pseudo-code line, a caption, and (some) a log line the controller prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case", tag = "note")]
pub enum Note {
    /// The owner is not in the cache: return (a controller that keeps
    /// expectations forgets its record first: `DeleteExpectations`).
    OwnerNotInCache {
        owner: Name,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        forgets_expectations: bool,
        /// Read live (controller-runtime's API reader): the apiserver said NotFound.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        live: bool,
    },
    /// The owner has a deletionTimestamp: no creates or deletes for it.
    OwnerTerminating { owner: Name },
    /// The finalizer step's decision over the owner as read (at
    /// `read_rv`): `adding` the finalizer `name` it lacks, or taking it off
    /// a Terminating owner; an `Update` at `read_rv` follows.
    Finalizer { owner: Name, name: String, adding: bool, read_rv: u64 },
    /// `EnsureReady` failed (v1.36's consistency store): a cache has not read
    /// the controller's own writes; the sync is skipped and retried after backoff.
    StaleSkip { owner: Name, error: ConsistencyError },
    /// `SatisfiedExpectations` is false: skip creates and deletes, return.
    /// `inherited`: set by a sync of an earlier object under the owner's
    /// name (another UID), which this one now waits on.
    ExpectationsPending {
        owner: Name,
        add: i64,
        del: i64,
        age_ms: u64,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        inherited: bool,
    },
    /// The record is older than the timeout: counted as satisfied, with a log line.
    ExpectationsExpired { owner: Name, age_ms: u64 },
    /// The children counted in the cache, and the plan. `in_cluster` is the
    /// truth at that instant, for the narration (the reconcile never sees it).
    /// `cluster_after` is what the cluster will hold once the plan's requests
    /// have landed (a create of a name that exists or a delete of an object
    /// already gone changes nothing), also for the narration.
    Counted {
        owner: Name,
        child_kind: Kind,
        in_cache: u32,
        in_cluster: u32,
        cluster_after: u32,
        desired: u32,
        unseen: u32,
        plan: Plan,
        expect: bool,
        /// Counted in a live LIST (controller-runtime's API reader), not the cache.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        live: bool,
        /// A `return_if` stands between the count and the step that carries
        /// out its plan: the plan is what it will do unless the guard returns first.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        guarded: bool,
    },
    /// The owner's children listed, without a desired count (what a
    /// `label_owner` acts on); `in_cluster` is the truth at that instant,
    /// for the narration, as a count's is.
    Listed {
        owner: Name,
        child_kind: Kind,
        in_cache: u32,
        in_cluster: u32,
        unseen: u32,
        /// Listed live (controller-runtime's API reader), not from the cache.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        live: bool,
    },
    /// The labels step's decision over the owner as read (at `read_rv`):
    /// set `keys` labels and `annotations` annotations it lacks (children
    /// were listed), or take them off (`removing`: none were); an `Update` follows.
    Labels {
        owner: Name,
        child_kind: Kind,
        removing: bool,
        keys: u32,
        #[serde(skip_serializing_if = "is_zero")]
        annotations: u32,
        read_rv: u64,
    },
    /// None were listed and no DELETED of a child was seen: a cache miss,
    /// not a delete; the owner keeps its labels (node-feature-discovery #2415).
    LabelsKept { owner: Name, child_kind: Kind },
    /// A `for_each` picked `acting` of the `matched` objects its condition
    /// holds of, of the `of` its read returned (at most its `max` a sync);
    /// one request each follows.
    Picked {
        owner: Name,
        child_kind: Kind,
        of: u32,
        matched: u32,
        acting: u32,
        /// It looped over a LIST of its own (`over: live`), not what the sync's read returned.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        live: bool,
    },
    /// A `return_if` held over what the reconcile read (`found`, `desired`):
    /// it returns, an error (requeued with backoff) when `error`, a
    /// `reconcile.TerminalError` (never requeued) when `terminal` too.
    Returned {
        owner: Name,
        found: u32,
        desired: u32,
        error: bool,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        terminal: bool,
    },
    /// controller-runtime's read-your-writes client holds a read: the cache
    /// has not yet seen this client's own writes.
    ReadWaits { read: Read, behind: Behind },
    /// A lister `Get` for `name` found nothing; `eta_ms` is when its event arrives, if one is on the wire.
    CacheMiss { name: String, kind: Kind, event: Option<EventType>, eta_ms: Option<u64>, then: MissAction },
    /// A lister `Get` found the object.
    CacheHit { name: String, kind: Kind },
    /// It polls its cache for the objects it just created, `waiting` of them
    /// not there yet, for up to `timeout_ms` (Cluster API's wait after creating a MachineSet).
    WaitsForCache { kind: Kind, waiting: u32, timeout_ms: u64 },
    /// The live list from the apiserver arrived.
    LiveListed { kind: Kind, n_live: u32, n_cached: u32 },
}

/// What a reconcile does after a cache miss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum MissAction {
    /// The pruner: absent from the cache means absent from the cluster; delete it.
    Delete,
    /// Read-your-write: the create "did not happen"; create it again.
    CreateAgain,
}

/// An event as a handler sees it, after the store took it.
#[derive(Debug, Clone, Hash)]
pub struct HandlerEvent<'a> {
    pub event_type: EventType,
    pub object: &'a ObjectRc,
    pub old: Option<&'a ObjectRc>,
    /// The delete came from a relist: `DeletedFinalStateUnknown`.
    pub tombstone: bool,
}

/// What handlers did to the controller's in-memory state, for the frame.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Hash)]
pub struct HandlerEffects {
    /// Keys added to the workqueue.
    pub enqueued: Vec<Name>,
    /// Expectation counters lowered: (controller key, "add" | "del").
    pub observed: Vec<(Name, &'static str)>,
    /// Dependents the garbage collector will check (`attemptToDelete`).
    pub attempt_to_delete: Vec<Name>,
    /// Owners one of whose children's DELETED the handler saw, kept for a
    /// recipe that acts only on an observed delete (`Removal::OnObservedDelete`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deleted: Vec<Name>,
}

/// A named line of a controller's pseudo-code: the line a frame lights in the
/// Reconcile panel. Each controller's `PSEUDO_CODE` pairs the steps it has
/// with their text, so no line is ever numbered by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, Hash)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Step {
    /// `key := queue.Get()`: a worker takes a key off the workqueue.
    Dequeue,
    /// v1.36: `consistencyStore.EnsureReady(key)`.
    EnsureReady,
    /// The owner from its lister.
    GetOwner,
    /// `SatisfiedExpectations(key)`.
    CheckExpectations,
    /// The children from the lister: the read that can be stale.
    ListChildren,
    /// Create the missing children.
    Create,
    /// Delete children: the surplus, or (the pruner) what the cache lacks.
    Delete,
    /// The ReplicaSet: `updateReplicaSetStatus`, and its GET after a conflict.
    UpdateStatus,
    /// Return: `Forget`, or `AddRateLimited`; `--double-enqueue` adds the key again.
    Return,
    /// The pruner: the live LIST from the apiserver.
    LiveList,
    /// The pruner: `lister.Get(cm.Name)` for each live ConfigMap.
    LookUp,
    /// The pruner: create seed-99.
    CreateOnce,
    /// The pruner: re-read seed-99 from the lister.
    Reread,
    /// The pruner: create seed-99 again.
    CreateAgain,
    /// The pruner: the program exits.
    Exit,
    /// Poll the cache for what this reconcile created, with a timeout.
    WaitForCache,
    /// The owner's finalizer: added with an `Update` while it lives,
    /// removed with one once it is Terminating.
    Finalizer,
    /// The owner's labels, written from what the list found.
    LabelOwner,
    /// A guard of the recipe's own: `if when { return }`.
    ReturnIf,
    /// A bounded loop over what the read returned, one request an object.
    ForEach,
}

/// What happens to a key after its reconcile returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case", tag = "requeue")]
pub enum Requeue {
    /// `Forget` and `Done`: nothing more unless an event adds it.
    No,
    /// `--double-enqueue`: added again at once, as a second event arriving during the reconcile would.
    DoubleEnqueue,
    /// The reconcile failed: `AddRateLimited`, ready after `delay_ms`.
    RateLimited { delay_ms: u64 },
    /// controller-runtime's `Result{RequeueAfter}`: `Forget`, then `AddAfter(delay_ms)`.
    After { delay_ms: u64 },
    /// controller-runtime's `reconcile.TerminalError(err)`: counted
    /// (`terminal_reconcile_errors`), neither requeued nor forgotten; only an
    /// event brings the key back.
    Terminal,
}

/// A read through the client, as the read-your-writes client gates it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case", tag = "read")]
pub enum Read {
    /// `client.Get(key)`.
    Get { kind: Kind, key: ObjectKey },
    /// `client.List` of a kind (every namespace: upstream does not narrow it yet).
    List { kind: Kind },
}

impl Read {
    pub fn kind(&self) -> Kind {
        match self {
            Read::Get { kind, .. } | Read::List { kind } => *kind,
        }
    }
}

/// What a waiting reconcile waits for; the world resumes it when it holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Hold {
    /// controller-runtime's read-your-writes client holds this read until the cache has caught up.
    Read(Read),
    /// Its cache to hold every one of these objects, or the deadline, whichever comes first.
    Cached { kind: Kind, keys: Vec<ObjectKey>, deadline_ms: u64 },
}

/// Why a read waits, as facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
pub struct Behind {
    /// The resourceVersion the cache must reach: this client's last write of
    /// the object (a Get) or of the kind (a List); none if only a delete or a
    /// write in flight holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wants_rv: Option<u64>,
    /// The highest resourceVersion the kind's informer has handed its handlers.
    pub seen_rv: u64,
    /// Deletes this client made whose DELETED event the cache has not seen.
    #[serde(skip_serializing_if = "is_zero")]
    pub deletes: u32,
    /// Writes of this client still in flight, which the read waits out first (the write barrier).
    #[serde(skip_serializing_if = "is_zero")]
    pub writes: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
