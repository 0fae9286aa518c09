//! The kubelet's restart of a controller's container that exited:
//! CrashLoopBackOff. `doBackOff` (kubernetes
//! `pkg/kubelet/kuberuntime/kuberuntime_manager.go`) starts the container
//! again unless `IsInBackOffSince(key, finishedAt)`, and calls
//! `Next(key, finishedAt)` when it does, on the `flowcontrol.Backoff`
//! (client-go `util/flowcontrol/backoff.go`, no jitter) that
//! `pkg/kubelet/kubelet.go` builds with `initialCrashLoopBackOff` 10 s,
//! `MaxContainerBackOff` 300 s, and an entry that expires 600 s after its
//! last update. So a first crash is restarted at once, and the waits from
//! the second are 10, 20, 40 … 300 s. Simplified: the restart comes the
//! moment the wait is over, where the kubelet notices it at its next sync of
//! the pod; the gates that shorten the waits (1.33's
//! `ReduceDefaultCrashLoopBackOffDecay`, `KubeletCrashLoopBackOffMax`) are off.
//!
//! A leaf of `sim`, pure data.

/// `initialCrashLoopBackOff`.
pub const INITIAL_MS: u64 = 10_000;
/// `MaxContainerBackOff`.
pub const MAX_MS: u64 = 300_000;
/// The kubelet's `HasExpiredFunc`: an entry last updated longer ago than this is forgotten.
pub const EXPIRES_AFTER_MS: u64 = 600_000;

/// One container's entry in the kubelet's backoff (none before its first restart).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CrashLoopBackOff {
    entry: Option<Entry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Entry {
    backoff_ms: u64,
    last_update_ms: u64,
}

impl CrashLoopBackOff {
    /// The container exited at `finished_ms`: how long until the kubelet
    /// starts it again (`IsInBackOffSince`: none for a first exit, or one
    /// long after the last restart), and the entry as `Next` leaves it then.
    pub fn exited(&mut self, finished_ms: u64) -> u64 {
        let live = self.entry.filter(|e| finished_ms.saturating_sub(e.last_update_ms) <= EXPIRES_AFTER_MS);
        let wait_ms = live.map_or(0, |e| e.backoff_ms);
        let backoff_ms = live.map_or(INITIAL_MS, |e| (e.backoff_ms * 2).min(MAX_MS));
        self.entry = Some(Entry { backoff_ms, last_update_ms: finished_ms + wait_ms });
        wait_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `doBackOff` over `flowcontrol.Backoff`: at once, then 10, 20, 40 … 300 s.
    #[test]
    fn do_back_off_restarts_a_first_crash_at_once_then_doubles_from_10_s_to_300_s() {
        let mut b = CrashLoopBackOff::default();
        let mut now = 0;
        let mut waits = Vec::new();
        for _ in 0..9 {
            now += 120_000; // each run fails its 2-minute CacheSyncTimeout
            let wait = b.exited(now);
            waits.push(wait / 1000);
            now += wait;
        }
        assert_eq!(waits, [0, 10, 20, 40, 80, 160, 300, 300, 300]);
    }

    /// `HasExpiredFunc`: a container that ran ten minutes since its last
    /// restart is restarted at once, and the waits start over.
    #[test]
    fn has_expired_func_forgets_an_entry_after_600_s() {
        let mut b = CrashLoopBackOff::default();
        assert_eq!(b.exited(1_000), 0);
        assert_eq!(b.exited(2_000), 10_000);
        assert_eq!(b.exited(12_000 + EXPIRES_AFTER_MS + 1), 0, "long after the last restart");
        assert_eq!(b.exited(12_000 + EXPIRES_AFTER_MS + 2), 10_000, "and from 10 s again");
    }
}
