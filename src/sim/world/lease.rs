//! The leader-election lease between two replicas, as data. A leaf.

/// `RetryPeriod` of kube-controller-manager's leader election.
pub const RETRY_PERIOD_MS: u64 = 2_000;

/// A `coordination.k8s.io` Lease as leader election reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lease {
    /// The process holding it (its epoch: a restarted process is a new identity).
    pub holder_epoch: u32,
    pub renewed_at_ms: u64,
}
