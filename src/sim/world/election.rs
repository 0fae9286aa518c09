//! Two replicas of the controller and the lease between them
//! (`controller.instances: 2`, `cluster.lease_ms`): client-go's leader
//! election as kube-controller-manager runs it (client-go v0.36.3
//! tools/leaderelection/leaderelection.go). A replica starts as a candidate
//! and tries for the lease at once, then every retry period (2 s) plus up to
//! 1.2 of it in jitter; it times the lease from when it saw the record
//! change, so a lease left unrenewed is free `lease_ms` after the candidate
//! first saw its last renewal. The one that holds it runs the controller
//! (informers, workers) and renews it every retry period. A restarted
//! process is a new identity, and waits like the other replica.
//!
//! The other real way to over-create with expectations on: a leader frozen
//! (SIGSTOP, a suspended VM, a starved CPU) stops renewing; the standby takes
//! the lease, lists, and acts; the old leader thaws, finds the lease another's,
//! and goes on trying to renew, and leading, for its renew deadline (10 s)
//! before "leaderelection lost": meanwhile its workers send what they had
//! decided, and decide more. Each replica has its own cache and its own
//! expectations.
//!
//! Simplifications: the Lease is not an object in the cluster (its reads and
//! writes are not requests, and take no time); a leader that is not frozen
//! always renews in time.

use super::lease::{try_acquire_or_renew, MAX_RETRY_JITTER_MS, RENEW_DEADLINE_MS, RETRY_PERIOD_MS};
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

    /// A candidate's `tryAcquireOrRenew`: it takes the lease if nobody holds
    /// it, or if the record has not changed for `lease_ms` since it first
    /// saw it. Else it tries again a retry period later, plus jitter.
    pub(super) fn try_acquire(&mut self, epoch: u32) -> Option<Event> {
        if self.ctl.leading {
            return None;
        }
        let now = self.now_ms;
        let held_since = self.lease.map(|l| l.renewed_at_ms);
        if !try_acquire_or_renew(epoch, &mut self.lease, &mut self.ctl.observed, now, self.cluster.lease_ms) {
            let jitter = self.rng.up_to(MAX_RETRY_JITTER_MS);
            self.set_timer(now + RETRY_PERIOD_MS + jitter, Timer::TryAcquire { epoch });
            return None;
        }
        self.set_timer(now + RETRY_PERIOD_MS, Timer::Renew { epoch });
        // The leader is `ctl` from now on.
        self.promote = true;
        self.begin(Start::First);
        Some(Event::LeaderElected { replica: self.ctl.replica_name(), expired_after_ms: held_since.map(|at| now - at) })
    }

    /// The leader renews every retry period. One that fails (thawed after
    /// another took the lease) goes on trying every retry period, and
    /// leading, until `RenewDeadline` after its first failed try
    /// (`renew`: `wait.PollUntilContextTimeout(RetryPeriod, RenewDeadline)`);
    /// then it stops leading.
    pub(super) fn renew(&mut self, epoch: u32) -> Option<Event> {
        let now = self.now_ms;
        if try_acquire_or_renew(epoch, &mut self.lease, &mut self.ctl.observed, now, self.cluster.lease_ms) {
            self.ctl.renew_deadline_at = None;
            self.set_timer(now + RETRY_PERIOD_MS, Timer::Renew { epoch });
            return None;
        }
        let deadline = *self.ctl.renew_deadline_at.get_or_insert(now + RENEW_DEADLINE_MS);
        if now + RETRY_PERIOD_MS < deadline {
            self.set_timer(now + RETRY_PERIOD_MS, Timer::Renew { epoch });
        } else {
            self.set_timer(deadline, Timer::LeaseLost { epoch });
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
