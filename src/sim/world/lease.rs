//! The leader-election lease between two replicas, as data, and
//! `tryAcquireOrRenew` over it. A leaf.
//!
//! kube-controller-manager's timings (component-base v0.36.3
//! `config/v1alpha1/defaults.go`, `RecommendedDefaultLeaderElectionConfiguration`):
//! LeaseDuration 15 s (`cluster.lease_ms`), RenewDeadline 10 s, RetryPeriod 2 s.

/// `RetryPeriod` of kube-controller-manager's leader election.
pub const RETRY_PERIOD_MS: u64 = 2_000;

/// `RenewDeadline`: how long a leader goes on trying to renew before it
/// stops leading.
pub const RENEW_DEADLINE_MS: u64 = 10_000;

/// A candidate's tries are `RetryPeriod` apart plus up to `JitterFactor`
/// (1.2) of it (`wait.JitterUntilWithContext` in `acquire`; apimachinery's
/// `wait.Jitter`: `d + rand·1.2·d`).
pub const MAX_RETRY_JITTER_MS: u64 = RETRY_PERIOD_MS * 12 / 10;

/// A `coordination.k8s.io` Lease as leader election reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lease {
    /// The process holding it (its epoch: a restarted process is a new identity).
    pub holder_epoch: u32,
    pub renewed_at_ms: u64,
}

/// What a process last saw of the lease, and when it first saw it so
/// (`observedRecord`, `observedTime`).
pub type Observed = Option<(Lease, u64)>;

/// `tryAcquireOrRenew` of process `me` (client-go v0.36.3
/// tools/leaderelection/leaderelection.go), against the lease as it stands:
/// true when `me` holds it afterwards, renewed at `now_ms`.
///
/// A process times the lease from when *it* saw the record change
/// (`setObservedRecord` sets `observedTime = now`), not from the holder's
/// renew time: `isLeaseValid` is `observedTime + LeaseDuration > now`. A
/// valid lease held by another is not taken; an expired one, or one this
/// process holds, is written. (The optimistic fast path of a leader gives
/// the same answer and is left out.)
pub fn try_acquire_or_renew(me: u32, lease: &mut Option<Lease>, observed: &mut Observed, now_ms: u64, lease_ms: u64) -> bool {
    if let Some(record) = *lease {
        if observed.map(|(l, _)| l) != Some(record) {
            *observed = Some((record, now_ms));
        }
        let (seen, at) = observed.expect("set above");
        if at + lease_ms > now_ms && seen.holder_epoch != me {
            return false;
        }
    }
    let renewed = Lease { holder_epoch: me, renewed_at_ms: now_ms };
    *lease = Some(renewed);
    *observed = Some((renewed, now_ms));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEASE: u64 = 15_000;

    /// Ported from leaderelection_test.go `TestTryAcquireOrRenewLeases`
    /// (`testTryAcquireOrRenew`), the cases the simulation has: "acquire
    /// from no object", "acquire from led, unacked object" (observed long
    /// ago), "don't acquire from led, acked object" (observed just now),
    /// "renew already acquired object".
    #[test]
    #[allow(non_snake_case)]
    fn TestTryAcquireOrRenewLeases() {
        let (baz, bing) = (1, 2);
        let now = 100_000_000;
        let bings = Lease { holder_epoch: bing, renewed_at_ms: 0 };

        let (mut lease, mut observed) = (None, None);
        assert!(try_acquire_or_renew(baz, &mut lease, &mut observed, now, LEASE), "acquire from no object");
        assert_eq!(lease, Some(Lease { holder_epoch: baz, renewed_at_ms: now }));

        let (mut lease, mut observed) = (Some(bings), Some((bings, now - 1_000 * LEASE)));
        assert!(try_acquire_or_renew(baz, &mut lease, &mut observed, now, LEASE), "acquire from led, unacked object");
        assert_eq!(lease.unwrap().holder_epoch, baz);

        let (mut lease, mut observed) = (Some(bings), None);
        assert!(!try_acquire_or_renew(baz, &mut lease, &mut observed, now, LEASE), "don't acquire from led, acked object");
        assert_eq!((lease, observed), (Some(bings), Some((bings, now))), "the record is observed now, and left alone");

        let bazs = Lease { holder_epoch: baz, renewed_at_ms: now - 1_000 * LEASE };
        let (mut lease, mut observed) = (Some(bazs), Some((bazs, now - 1_000 * LEASE)));
        assert!(try_acquire_or_renew(baz, &mut lease, &mut observed, now, LEASE), "renew already acquired object");
        assert_eq!(lease, Some(Lease { holder_epoch: baz, renewed_at_ms: now }));
    }

    /// A candidate that first sees a record late times it from then: the
    /// lease renewed at 0 and first seen at 4 s is not free until 19 s,
    /// though the holder stopped renewing at 0; each renewal it sees starts
    /// the count again.
    #[test]
    fn a_candidate_times_the_lease_from_when_it_saw_it_change() {
        let a = Lease { holder_epoch: 1, renewed_at_ms: 0 };
        let (mut lease, mut observed) = (Some(a), None);
        assert!(!try_acquire_or_renew(2, &mut lease, &mut observed, 4_000, LEASE));
        assert!(
            !try_acquire_or_renew(2, &mut lease, &mut observed, 18_999, LEASE),
            "15 s after the holder's renewal, not after it was seen"
        );
        assert!(try_acquire_or_renew(2, &mut lease, &mut observed, 19_000, LEASE));
        // The holder, unaware, finds the lease another's: the record changed, and it is valid.
        let mut a_observed = Some((a, 0));
        assert!(!try_acquire_or_renew(1, &mut lease, &mut a_observed, 41_000, LEASE));
        assert_eq!(a_observed, Some((lease.unwrap(), 41_000)));
    }
}
