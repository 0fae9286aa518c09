//! Two replicas of the controller and the lease between them
//! (`controller.instances: 2`, `cluster.lease_ms`): client-go's leader
//! election as kube-controller-manager runs it. A replica starts as a
//! candidate and tries for the lease every retry period (2 s); the one that
//! holds it runs the controller (informers, workers) and renews it every
//! retry period. A restarted process is a new identity: it waits, like the
//! other replica, for the old lease to expire (`lease_ms` after its last
//! renewal).
//!
//! The other real way to over-create with expectations on: a leader frozen
//! (a long GC pause, a suspended VM) stops renewing; the standby takes the
//! lease, lists, and acts; the old leader thaws and, before its next renewal
//! finds the lease gone ("leaderelection lost"), its workers send what they
//! had decided. Each replica has its own cache and its own expectations.
//!
//! Simplifications: the Lease is not an object in the cluster (its reads and
//! writes are not requests); the renew deadline is not modelled apart from
//! the lease (a leader that is not frozen always renews).

use super::lease::{Lease, RETRY_PERIOD_MS};
use super::state::World;
use super::timer::{Start, Timer};
use crate::sim::frame::Event;

impl World {
    /// A replica's process starts as a candidate: it tries for the lease now.
    pub(super) fn start_candidate(&mut self, start: Start) -> Event {
        let epoch = self.ctl.epoch;
        self.set_timer(self.now_ms, Timer::TryAcquire { epoch });
        Event::CandidateStarted { replica: self.ctl.replica_name(), restart: start == Start::Again }
    }

    /// `tryAcquireOrRenew` of a candidate: free if nobody holds the lease or
    /// its holder has not renewed it for `lease_ms`.
    pub(super) fn try_acquire(&mut self, epoch: u32) -> Option<Event> {
        if self.ctl.leading {
            return None;
        }
        let now = self.now_ms;
        let free = self.lease.is_none_or(|l| now >= l.renewed_at_ms + self.cluster.lease_ms);
        if !free {
            self.set_timer(now + RETRY_PERIOD_MS, Timer::TryAcquire { epoch });
            return None;
        }
        let held_since = self.lease.map(|l| l.renewed_at_ms);
        self.lease = Some(Lease { holder_epoch: epoch, renewed_at_ms: now });
        self.set_timer(now + RETRY_PERIOD_MS, Timer::Renew { epoch });
        // The leader is `ctl` from now on.
        self.promote = true;
        self.begin(Start::First);
        Some(Event::LeaderElected { replica: self.ctl.replica_name(), expired_after_ms: held_since.map(|at| now - at) })
    }

    /// The leader renews, or, thawed after another took the lease, learns it
    /// lost it with its next GET of the lease.
    pub(super) fn renew(&mut self, epoch: u32) -> Option<Event> {
        let now = self.now_ms;
        match self.lease.as_mut() {
            Some(l) if l.holder_epoch == epoch => {
                l.renewed_at_ms = now;
                self.set_timer(now + RETRY_PERIOD_MS, Timer::Renew { epoch });
            }
            _ => self.set_timer(now + self.cluster.api_latency_ms, Timer::LeaseLost { epoch }),
        }
        None
    }

    /// "leaderelection lost": the process exits, and comes back as a candidate.
    pub(super) fn lease_lost(&mut self, _epoch: u32) -> Option<Event> {
        let replica = self.ctl.replica_name();
        // What the dying process had not sent dies with it (reset_process); the exit says no more.
        let _ = self.reset_process();
        self.start_candidate(Start::Again);
        Some(Event::LeadershipLost { replica })
    }

    /// Freeze the leader for `for_ms`: nothing of it runs, not even its renewals.
    pub(super) fn pause_leader(&mut self, for_ms: u64) -> Option<Event> {
        let until = self.now_ms + for_ms;
        self.ctl.paused_until = Some(until);
        let epoch = self.ctl.epoch;
        self.set_timer(until, Timer::Thaw { epoch });
        Some(Event::ReplicaPaused { replica: self.ctl.replica_name(), for_ms })
    }

    /// The frozen replica runs again, from where it stopped.
    pub(super) fn thaw(&mut self, _epoch: u32) -> Option<Event> {
        let since = self.ctl.paused_until.take()?;
        let _ = since;
        Some(Event::ReplicaResumed {
            replica: self.ctl.replica_name(),
            leading: self.lease.is_some_and(|l| l.holder_epoch == self.ctl.epoch),
        })
    }
}
