//! The controllers' code: the one interpreter of reconcile recipes
//! (`interpreter.rs`), the two recipes cachescope ships (`bundled.rs`), the
//! lab's one-shot pruner (`pruner.rs`), and each controller's event handlers
//! and pseudo-code (`ensemble.rs`, `replicaset.rs`). A reconcile reads its
//! caches and returns the API requests it wants (effects as data); the
//! world sends them with latency and resumes it with the responses.
//!
//! A reconcile is written as `start` then `resume` calls, each returning one
//! [`Beat`]: a [`Note`] (something it read or decided, shown as a frame), a
//! batch of requests to send concurrently, or its return value.

pub mod bundled;
pub mod ensemble;
pub mod handlers;
pub mod interpreter;
pub mod pruner;
pub mod replicaset;

use super::apiserver::{ControllerKind, EventType};
use super::consistency::{ConsistencyError, ConsistencyStore};
use super::controller_runtime::ReadYourWrites;
use super::expectations::Expectations;
use super::informer::{Fifo, Informer};
use super::object::{Kind, Name, ObjectKey, ObjectRc};
use super::rng::Rng;
use std::borrow::Cow;
use std::cell::RefCell;

use super::reconcile::Read;
pub use super::reconcile::{
    Beat, Creates, HandlerEffects, HandlerEvent, Hold, Input, MissAction, Note, Outcome, Owned, Plan, ReconcileError, Step, Tally,
};
use super::settings::RuntimeKind;
pub use super::settings::{ControllerSettings, ListOrder, Naming};

/// The caches a controller reads: one informer per watched kind.
#[derive(Debug, Clone, Hash)]
pub struct Caches {
    pub informers: Vec<Informer>,
}

impl Caches {
    pub fn new(kinds: &[Kind]) -> Self {
        Caches { informers: kinds.iter().map(|k| Informer::new(*k)).collect() }
    }

    pub fn informer(&self, kind: Kind) -> Option<&Informer> {
        self.informers.iter().find(|i| i.kind == kind)
    }

    pub(crate) fn informer_mut(&mut self, kind: Kind) -> Option<&mut Informer> {
        self.informers.iter_mut().find(|i| i.kind == kind)
    }

    /// The lister: `Get(key)` on the cache of `kind`.
    pub fn get(&self, kind: Kind, key: &ObjectKey) -> Option<&ObjectRc> {
        self.informer(kind).and_then(|i| i.get(key))
    }

    /// `HasSynced` of every informer.
    pub(crate) fn all_synced(&self) -> bool {
        self.informers.iter().all(|i| i.has_synced())
    }
}

/// What a reconcile sees: its caches, its expectations, the clock and its settings.
pub struct Cx<'a> {
    pub now_ms: u64,
    pub settings: &'a ControllerSettings,
    pub caches: &'a Caches,
    pub expectations: &'a mut Expectations,
    /// The watch lag, so a note can say how far away a missing event is.
    pub lag_ms: u64,
    /// The world's one RNG: the order a Go map iterates in.
    pub rng: &'a mut Rng,
    /// The controller's consistency store (used when `settings.consistency_store`).
    pub consistency: &'a mut ConsistencyStore,
    /// controller-runtime's read-your-writes client (used when `settings.reads_own_writes()`).
    pub ryw: &'a ReadYourWrites,
    /// The owners whose child's DELETED the handler saw (nfd-master's `pendingDeletes`).
    pub deletes_seen: &'a mut crate::sim::sorted::SortedSet<String>,
}

impl Cx<'_> {
    /// `EnsureReady(key)`, when the consistency store is on: the error that
    /// skips this sync, if a cache has not read the controller's own writes.
    pub(crate) fn ensure_ready(&mut self, key: &str) -> Result<(), ConsistencyError> {
        if !self.settings.consistency_store() {
            return Ok(());
        }
        let caches = self.caches;
        // Only AtomicFIFO's store keeps a progress mark: on DeltaFIFO,
        // `LastStoreSyncResourceVersion()` is "" and `EnsureReady` fails open
        // (client-go v0.36 `tools/cache/thread_safe_store.go`; kubernetes v1.36
        // `pkg/controller/util/consistency/consistency.go`, `EnsureReady`).
        self.consistency.ensure_ready(key, |kind| caches.informer(kind).filter(|i| i.fifo == Fifo::Atomic).map(|i| i.last_sync_rv()))
    }

    /// `WroteAt(key, ownerUID, resource, rv)` for a write this reconcile made.
    pub(crate) fn wrote_at(&mut self, key: &str, owner_uid: u64, resource: Kind, rv: Option<u64>) {
        if let (true, Some(rv)) = (self.settings.consistency_store(), rv) {
            self.consistency.wrote_at(key, owner_uid, resource, rv);
        }
    }

    /// `WroteAt` for a delete this reconcile made: from Kubernetes v1.38 a
    /// DELETE answers with the deletion's resourceVersion (kubernetes
    /// #138724); before, a typed Delete returned only an error, and there
    /// was none to record (#138400).
    pub(crate) fn deleted_at(&mut self, key: &str, owner_uid: u64, resource: Kind, rv: Option<u64>) {
        if self.settings.store_records_deletes() {
            self.wrote_at(key, owner_uid, resource, rv);
        }
    }

    /// The owner is gone: `Clear(key, "")` and `DeleteExpectations(key)`.
    pub(crate) fn forget_owner(&mut self, key: &str) {
        self.consistency.clear(key, None);
        self.expectations.delete(key);
    }
}

impl Cx<'_> {
    /// How far the next event for `key` is from reaching the cache, if one is on the wire.
    pub fn eta(&self, kind: Kind, key: &ObjectKey) -> Option<(EventType, u64)> {
        self.caches.informer(kind)?.pending_for(key, self.lag_ms).map(|(t, at)| (t, at.saturating_sub(self.now_ms)))
    }
}

/// The step a note belongs to.
pub(crate) fn note_step(note: &Note) -> Step {
    match note {
        Note::OwnerNotInCache { .. } | Note::OwnerTerminating { .. } => Step::GetOwner,
        Note::Finalizer { .. } => Step::Finalizer,
        Note::Labels { .. } | Note::LabelsKept { .. } => Step::LabelOwner,
        Note::Listed { .. } => Step::ListChildren,
        Note::StaleSkip { .. } => Step::EnsureReady,
        Note::ReadWaits { read: Read::Get { .. }, .. } => Step::GetOwner,
        Note::ReadWaits { read: Read::List { .. }, .. } => Step::ListChildren,
        Note::ExpectationsPending { .. } | Note::ExpectationsExpired { .. } => Step::CheckExpectations,
        Note::Counted { .. } => Step::ListChildren,
        Note::LiveListed { .. } => Step::LiveList,
        Note::CacheMiss { then: MissAction::Delete, .. } => Step::LookUp,
        Note::CacheMiss { then: MissAction::CreateAgain, .. } | Note::CacheHit { .. } => Step::Reread,
        Note::WaitsForCache { .. } => Step::WaitForCache,
        Note::Returned { .. } => Step::ReturnIf,
        Note::Picked { .. } => Step::ForEach,
    }
}

/// The pseudo-code of a controller as its settings write it: each step
/// with its line (the operator's in the library it is written with, its
/// reads as its client makes them).
pub fn pseudo_code(settings: &ControllerSettings) -> Vec<(Step, Cow<'static, str>)> {
    if let Some(recipe) = &settings.recipe {
        let desired = settings.spec().desired_field.unwrap_or("desired");
        return recipe.code(desired).into_iter().map(|(step, text)| (step, Cow::Owned(text))).collect();
    }
    let mut lines = match (settings.kind, settings.runtime()) {
        (ControllerKind::Ensemble, RuntimeKind::ClientGo) => ensemble::PSEUDO_CODE.to_vec(),
        (ControllerKind::Ensemble, RuntimeKind::ControllerRuntime) => ensemble::PSEUDO_CODE_CONTROLLER_RUNTIME.to_vec(),
        (ControllerKind::ReplicaSet, _) => replicaset::PSEUDO_CODE.to_vec(),
        (ControllerKind::Pruner, _) => pruner::PSEUDO_CODE.to_vec(),
    };
    let reads = if settings.kind != ControllerKind::Ensemble || settings.runtime() != RuntimeKind::ControllerRuntime {
        None
    } else if settings.live_reads {
        Some(ensemble::LIVE_READS)
    } else if settings.read_your_writes {
        Some(ensemble::READS_OWN_WRITES)
    } else {
        None
    };
    for (step, text) in reads.into_iter().flatten() {
        if let Some(line) = lines.iter_mut().find(|(s, _)| *s == step) {
            line.1 = text;
        }
    }
    lines.into_iter().map(|(step, text)| (step, Cow::Borrowed(text))).collect()
}

/// Whether a step of the pseudo-code runs at all with these settings: a
/// guard the controller does not keep (ControllerExpectations, the
/// consistency store), a write it is not written to make (surplus deletes,
/// status updates, the read-your-write create), is drawn off.
pub fn step_applies(settings: &ControllerSettings, step: Step) -> bool {
    match compiled(settings) {
        // The store's check of a recipe of one's own is off with the store (a live switch).
        Some(recipe) => recipe.has(step) && (step != Step::EnsureReady || settings.consistency_store()),
        // The pruner: its read-your-write lines are its switch's.
        None => settings.reread_after_create || !matches!(step, Step::CreateOnce | Step::Reread | Step::CreateAgain),
    }
}

thread_local! {
    /// The last settings a recipe was written from, and the recipe: a run's
    /// settings change only when a knob turns, and a reconcile starts often.
    static COMPILED: RefCell<Option<(ControllerSettings, interpreter::Shared)>> = const { RefCell::new(None) };
}

/// The recipe these settings write, shared (memoized on the settings).
fn compiled(settings: &ControllerSettings) -> Option<interpreter::Shared> {
    COMPILED.with_borrow_mut(|last| {
        if let Some((_, recipe)) = last.as_ref().filter(|(seen, _)| seen == settings) {
            return Some(recipe.clone());
        }
        let recipe = interpreter::Shared::new(bundled::recipe(settings)?);
        *last = Some((settings.clone(), recipe.clone()));
        Some(recipe)
    })
}

/// A reconcile in progress: a recipe's, or the one-shot program's. The
/// recipe's is not boxed, though larger than the pruner's: the explorer
/// clones every state it keeps, and a box is one more allocation for each busy worker.
#[derive(Debug, Clone, Hash)]
#[allow(clippy::large_enum_variant)]
pub enum ReconcileState {
    Recipe(interpreter::RecipeRun),
    Pruner(pruner::Prune),
}

impl ReconcileState {
    /// Begin reconciling `key`, with the recipe the settings write now (a
    /// switch changed mid-reconcile applies from the next).
    pub fn start(key: &Name, cx: &mut Cx) -> (ReconcileState, Beat) {
        match compiled(cx.settings) {
            Some(recipe) => {
                let (r, b) = interpreter::RecipeRun::start(recipe, key, cx);
                (ReconcileState::Recipe(r), b)
            }
            None => {
                let (r, b) = pruner::Prune::start(key, cx);
                (ReconcileState::Pruner(r), b)
            }
        }
    }

    pub fn resume(&mut self, input: Input, cx: &mut Cx) -> Beat {
        match self {
            ReconcileState::Recipe(r) => r.resume(input, cx),
            ReconcileState::Pruner(r) => r.resume(input, cx),
        }
    }
}

pub use handlers::handle;

/// `ns/name`, the workqueue key. Built by hand, not by `format!`: every
/// watch event builds one, and the formatter's machinery was a tenth of the
/// simulation's time.
pub(crate) fn queue_key(namespace: &str, name: &str) -> Name {
    // Written into one buffer kept for the next key, and the last key made
    // kept beside it: a child's every event names its owner's key, so the
    // same key is asked for again and again (every event of a
    // ReplicaSet's thousand pods), and is then one count raised, not an
    // allocation (a String turned into a Name is copied).
    thread_local!(static LAST: std::cell::RefCell<(String, Name)> = std::cell::RefCell::new((String::new(), Name::default())));
    LAST.with_borrow_mut(|(buffer, last)| {
        buffer.clear();
        buffer.push_str(namespace);
        buffer.push('/');
        buffer.push_str(name);
        if **last != **buffer {
            *last = Name::from(buffer.as_str());
        }
        last.clone()
    })
}

pub use super::object::split_key;

/// Shuffle `items` as a Go map's iteration would, with the world's RNG
/// (Fisher-Yates), when the lister's order is [`ListOrder::Random`].
pub(crate) fn lister_order<T>(items: &mut [T], order: ListOrder, rng: &mut Rng) {
    if order == ListOrder::Random {
        for i in (1..items.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Children of `owner` (by its child label) in a cache, and how many of their
/// events are still on the wire to it.
pub(crate) fn count_children(informer: &Informer, label: &str, owner: &ObjectKey) -> (Vec<ObjectRc>, u32) {
    let children: Vec<ObjectRc> = informer
        .list()
        .filter(|o| o.namespace == owner.namespace && o.labels.get(label).map(String::as_str) == Some(owner.name.as_str()))
        .cloned()
        .collect();
    (children, unseen_children(informer, label, owner))
}

/// How many ADDED events of `owner`'s children (by its child label) are on
/// the wire to a cache.
pub(crate) fn unseen_children(informer: &Informer, label: &str, owner: &ObjectKey) -> u32 {
    informer
        .on_the_wire()
        .filter(|e| {
            !e.dropped
                && e.event_type == EventType::Added
                && e.object.namespace == owner.namespace
                && e.object.labels.get(label).map(String::as_str) == Some(owner.name.as_str())
        })
        .count() as u32
}
