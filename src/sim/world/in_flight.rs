//! A request on its way to the apiserver, and who waits for its answer. A
//! leaf: it imports nothing of the world but the other leaves.

use super::collector::Attempt;
use crate::sim::apiserver::Request;
use crate::sim::invariants::SentWith;
use crate::sim::object::Kind;

/// Who waits for a response.
#[derive(Debug, Clone, Hash)]
pub(super) enum Origin {
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
    Gc(Box<Attempt>),
    /// The garbage collector's delete or update: nobody waits for it.
    GcWrite,
    /// The kubelet's final delete of a pod: nobody waits for it.
    Kubelet,
}

/// Who sent a request, as the audit log's tallies split them: the
/// controller under study, or anyone else (kubectl, the garbage collector,
/// the kubelet).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SentBy {
    Controller,
    Others,
}

/// A request on its way to the apiserver.
#[derive(Debug, Clone, Hash)]
pub struct InFlightRequest {
    pub request: Request,
    pub sent_at_ms: u64,
    pub arrives_at_ms: u64,
    pub(super) origin: Origin,
    /// How its sender stood when it sent it: its caches synced, a delete's
    /// target absent from them.
    pub sent_with: SentWith,
    /// How long it waited for the client-side rate limiter before it left.
    pub throttled_ms: u64,
}

impl InFlightRequest {
    /// Sent by the controller process of `epoch`, and at `now_ms` still
    /// waiting for its client-side rate limiter: it has not left the process.
    pub(super) fn waits_for_limiter_of(&self, epoch: u32, now_ms: u64) -> bool {
        let of_process = match self.origin {
            Origin::Worker { epoch: e, .. } | Origin::Informer { epoch: e, .. } => e == epoch,
            _ => false,
        };
        of_process && self.sent_at_ms + self.throttled_ms > now_ms
    }
}
