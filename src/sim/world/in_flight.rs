//! A request on its way to the apiserver, and who waits for its answer. A
//! leaf: it imports nothing of the world but the other leaves.

use super::collector::Attempt;
use crate::sim::apiserver::Request;
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

/// A request on its way to the apiserver.
#[derive(Debug, Clone, Hash)]
pub struct InFlightRequest {
    pub request: Request,
    pub sent_at_ms: u64,
    pub arrives_at_ms: u64,
    pub(super) origin: Origin,
    /// The sender's caches had synced when it sent this.
    pub synced_at_send: bool,
    /// A controller's delete of an object its cache did not hold when it sent it.
    pub uncached_at_send: bool,
    /// How long it waited for the client-side rate limiter before it left.
    pub throttled_ms: u64,
}
