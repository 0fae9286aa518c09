//! What the scheduler holds: a `Timer` (what will happen), `Scheduled` (when,
//! ordered for the heap) and `Source` (what is due next: a timer, or
//! something derived from state). A leaf: it imports nothing of the world but
//! the other leaves.

use super::in_flight::InFlightRequest;
use crate::sim::frame::Watcher;
use crate::sim::object::{Kind, ObjectKey, ObjectRef};

/// Whether a controller process starts for the first time or again (a
/// restart, or a replica back as a candidate after it lost the lease).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Start {
    First,
    Again,
}

/// One thing the world will do at a time it has set.
#[derive(Debug, Clone, Hash)]
pub(super) enum Timer {
    /// The controller process starts.
    Start(Start),
    /// The second replica's process starts (a candidate for the lease).
    StartPeer,
    /// A controller beside the recipe starts (its index in `World::beside`).
    StartBeside(u8),
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
    /// A declared liveness invariant's time (its index among the declared).
    Liveness(usize),
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
    /// The kubelet restarts the process that exited (its new, not yet
    /// started epoch): dropped if that process has started again meanwhile.
    Restart { epoch: u32 },
}

impl Timer {
    /// The controller process a timer belongs to, by its epoch.
    pub(super) fn epoch(&self) -> Option<u32> {
        match self {
            Timer::Resume { epoch, .. }
            | Timer::SyncPoll { epoch, .. }
            | Timer::WatchExpires { epoch, .. }
            | Timer::Relist { epoch, .. }
            | Timer::Resync { epoch, .. }
            | Timer::Renew { epoch }
            | Timer::TryAcquire { epoch }
            | Timer::LeaseLost { epoch }
            | Timer::Thaw { epoch }
            | Timer::Restart { epoch } => Some(*epoch),
            Timer::Start { .. }
            | Timer::StartPeer
            | Timer::StartBeside(_)
            | Timer::Request(_)
            | Timer::Action(_)
            | Timer::DeletePod { .. }
            | Timer::OrphanDeadline { .. }
            | Timer::Liveness(_)
            | Timer::Bookmark
            | Timer::Kubelet { .. } => None,
        }
    }
}

/// A timer and when it is due. Ordered for a max-heap so that the earliest
/// time, then the lowest sequence number, comes out first.
#[derive(Debug, Clone)]
pub(super) struct Scheduled {
    pub(super) at_ms: u64,
    pub(super) seq: u64,
    pub(super) timer: Timer,
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

/// What is due next: a timer, or a change derived from a process's state.
/// `Copy`, and no bigger than a few words: `next_due` weighs every
/// candidate each step and sets all but one aside (when the peer's and the
/// beside controllers' were boxed, that was a free each, 4.5 a step).
#[derive(Debug, Clone, Copy, Hash)]
pub(super) enum Source {
    Timer,
    /// The controller's own informer, queue or worker (or the garbage collector's informer).
    Here(Due),
    /// The other replica's informer, queue or worker.
    Peer(Due),
    /// A controller beside the recipe's informer, queue or worker (its index in `World::beside`).
    Beside(u8, Due),
}

/// A change a process's state makes due: its informer's next delivery, its
/// queue's next promotion, an idle worker's pick-up.
#[derive(Debug, Clone, Copy, Hash)]
pub(super) enum Due {
    Informer(Watcher, usize),
    QueueReady,
    Worker(usize),
    /// A worker whose read the read-your-writes client held may read now.
    Unblocked(usize),
}
