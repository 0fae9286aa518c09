//! A reconcile as data: a [`Recipe`] is a list of [`Op`]s, each one thing a
//! reconcile does (a read, a guard, a count, one verb's requests), and each a
//! point where the world may interleave (Anvil's rule: at most one kind of API
//! call per step; a batch of creates sent at once, as `slowStartBatch` sends
//! them, is one step). One interpreter runs every recipe
//! (`controllers::interpreter`): the Ensemble operator and the ReplicaSet
//! controller are recipes its settings write (`controllers::bundled`), so a
//! switch of the settings bar is a line of the recipe changed, and the
//! Reconcile panel lights the op a frame belongs to.
//!
//! A leaf: facts only. It imports the object vocabulary and the reconcile's
//! [`Step`]s, the lines a frame lights.

use super::object::Kind;
use super::reconcile::Step;
use std::rc::Rc;

/// Where a read goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReadFrom {
    /// The informer's lister: what the watch has delivered so far.
    Cache,
    /// The apiserver, through the client (controller-runtime's API reader): a request.
    Live,
    /// controller-runtime v0.25's read-your-writes client: the cache, once it
    /// has seen this client's own writes (the read waits until then).
    ReadYourWrites,
}

/// Which of the owner's children a count sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Select {
    /// Every child whose label `label` holds the owner's name (ownerReferences
    /// on or off), Terminating ones included.
    Label(&'static str),
    /// The active children (`FilterActivePods`: not Terminating) whose
    /// controllerRef carries the owner's UID.
    ActiveControlled,
}

/// Which children a surplus deletes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Victims {
    /// A surplus is left alone.
    Keep,
    /// `children[desired:]` in the order the lister returned them (a Go map's
    /// when `controller.list_order` is `random`).
    PastDesired,
    /// The newest first (`getPodsToDelete` with every pod Running and ready).
    Newest,
}

/// How a create names its object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Naming {
    /// `{owner}{infix}{i}` for each index below the desired count absent from the cache.
    Indexed { infix: &'static str },
    /// `generateName: {owner}{infix}`: the apiserver adds five random letters.
    Generate { infix: &'static str },
}

/// How a create step sends its requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Batches {
    /// One at a time, as a Go `for` loop does: the first failure stops it.
    OneByOne,
    /// `slowStartBatch`: batches of 1, 2, 4, … sent at once; a batch with a failure stops it.
    SlowStart,
}

/// What `SatisfiedExpectations` being false does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OnPending {
    /// Return at once.
    Return,
    /// Count anyway, creating and deleting nothing (`rsNeedsSync` false: the
    /// ReplicaSet still writes its status from the count).
    CountOnly,
}

/// One step of a reconcile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    /// v1.36's `consistencyStore.EnsureReady(key)`: an error skips the sync
    /// and returns it (the key is requeued rate-limited).
    EnsureReady,
    /// The owner by the key's name. Absent: `Clear`, `DeleteExpectations`,
    /// return. With `stop_if_terminating`, a deletionTimestamp returns too.
    GetOwner { from: ReadFrom, stop_if_terminating: bool },
    /// `SatisfiedExpectations(key)`; an expired record is logged and counted as satisfied.
    CheckExpectations { on_pending: OnPending },
    /// Count the owner's children against its desired count and plan: create
    /// the missing, at most `burst` (none: no limit), or delete a surplus.
    Count { from: ReadFrom, select: Select, victims: Victims, burst: Option<u32> },
    /// Create what the plan is missing (`ExpectCreations` first, when kept).
    Create { naming: Naming, label: &'static str, owner_reference: bool, batches: Batches },
    /// Delete the plan's victims (`ExpectDeletions` first, when kept), one at a
    /// time or all at once; a NotFound is someone else's delete, not an error.
    Delete { at_once: bool },
    /// `updateReplicaSetStatus`: write what was counted, unless the status
    /// says it already; a failure is retried `retries` times after a GET.
    UpdateStatus { retries: u32 },
    /// Return the first error the sync met, or nil.
    Return,
}

impl Op {
    /// The line of the pseudo-code this step is.
    pub fn step(&self) -> Step {
        match self {
            Op::EnsureReady => Step::EnsureReady,
            Op::GetOwner { .. } => Step::GetOwner,
            Op::CheckExpectations { .. } => Step::CheckExpectations,
            Op::Count { .. } => Step::ListChildren,
            Op::Create { .. } => Step::Create,
            Op::Delete { .. } => Step::Delete,
            Op::UpdateStatus { .. } => Step::UpdateStatus,
            Op::Return => Step::Return,
        }
    }
}

/// A reconcile loop as data.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Recipe {
    /// The kind it reconciles; each object's spec holds its desired count.
    pub owner: Kind,
    /// The kind it counts, creates and deletes.
    pub child: Kind,
    /// Keeps ControllerExpectations: the guard, and the bookkeeping of every
    /// create and delete (`ExpectCreations`, `CreationObserved` for a create
    /// that failed, `DeleteExpectations` when the owner is gone).
    pub expectations: bool,
    pub ops: Rc<[Op]>,
}

impl Recipe {
    /// Whether the recipe has a step on this line: a line it lacks is drawn off.
    pub fn has(&self, step: Step) -> bool {
        step == Step::Dequeue || self.ops.iter().any(|op| op.step() == step)
    }
}
