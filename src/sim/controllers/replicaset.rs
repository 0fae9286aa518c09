//! The ReplicaSet controller (`pkg/controller/replicaset/replica_set.go`,
//! v1.28.0): its event handlers, its pseudo-code, and `slowStartBatch`. Its
//! `syncReplicaSet` and `manageReplicas` are the recipe `bundled.rs` writes,
//! which the interpreter runs.
//!
//! Faithful points: expectations are read *before* the pods are listed (l.693);
//! `ExpectCreations` is set before any create (l.584) and `ExpectDeletions`
//! before any delete; creates go out in slow-start batches 1, 2, 4, ... clamped
//! to `burstReplicas`; creates that never happened are `CreationObserved` at
//! once (l.610-615); a failed delete is `DeletionObserved` at once; pods have
//! generated names and a controllerRef. With `expectations` off, the check is
//! skipped and nothing is expected: the switch that shows what they prevent.
//!
//! A Terminating pod (deletionTimestamp set) is not active: `FilterActivePods`
//! drops it and `updatePod` hands it to `deletePod` at once, so the ReplicaSet
//! replaces it before the kubelet has removed it. With `update_status`, the
//! sync ends as upstream's does: `updateReplicaSetStatus` writes
//! `status.replicas` (the active pods it counted in its cache) with the
//! resourceVersion it read; a `409 Conflict` is retried once after a GET, and
//! a second failure is the sync's error.
//!
//! Simplifications: no adoption or release of orphans (pods are matched by
//! controllerRef), every pod is Running and ready (so victims are simply the
//! newest, and the status has `replicas` and `observedGeneration` only).

use super::Step;

/// The pseudo-code the Reconcile panel shows, a line per step.
pub(crate) const PSEUDO_CODE: &[(Step, &str)] = &[
    (Step::Dequeue, "key := queue.Get()"),
    (Step::EnsureReady, "if err := consistencyStore.EnsureReady(key); err != nil { return err }   // v1.36, when on"),
    (Step::GetOwner, "rs, err := rsLister.Get(key)   // NotFound: Clear, DeleteExpectations, return"),
    (Step::CheckExpectations, "rsNeedsSync := expectations.SatisfiedExpectations(key)"),
    (Step::ListChildren, "pods := podLister.List(selector)   // active pods rs controls, from the cache"),
    (Step::Create, "diff < 0 && rsNeedsSync: ExpectCreations(key, n); slowStartBatch(n, create)"),
    (Step::Delete, "diff > 0 && rsNeedsSync: ExpectDeletions(key, victims); delete victims"),
    (Step::UpdateStatus, "updateReplicaSetStatus(rs, calculateStatus(rs, pods))   // when on: 409 Conflict: Get, retry once"),
    (Step::Return, "return err   // nil: Forget; an error: AddRateLimited"),
];

/// `controller.SlowStartInitialBatchSize`.
pub(crate) const SLOW_START_INITIAL_BATCH: u32 = 1;

/// The size of the next slow-start batch: `min(2 * previous, remaining)`.
pub(crate) fn next_batch(previous: u32, remaining: u32) -> u32 {
    if previous == 0 {
        SLOW_START_INITIAL_BATCH.min(remaining)
    } else {
        (2 * previous).min(remaining)
    }
}

/// `slowStartBatch(count, initialBatchSize, fn)`: call `f` in batches of
/// 1, 2, 4, ... and stop after the first batch with a failure. Returns the
/// successes. The reconcile runs the same batches asynchronously; this
/// synchronous form is the reference the upstream test pins.
pub fn slow_start_batch(count: u32, initial: u32, mut f: impl FnMut() -> Result<(), String>) -> (u32, Option<String>) {
    let mut remaining = count;
    let mut successes = 0;
    let mut batch = initial.min(remaining);
    while batch > 0 {
        let mut first_error = None;
        for _ in 0..batch {
            match f() {
                Ok(()) => successes += 1,
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        if first_error.is_some() {
            return (successes, first_error);
        }
        remaining -= batch;
        batch = (2 * batch).min(remaining);
    }
    (successes, None)
}

/// `statusUpdateRetries`: one GET and one more try after a failed UpdateStatus.
pub(crate) const STATUS_UPDATE_RETRIES: u32 = 1;

#[cfg(test)]
mod tests {
    use super::*;

    /// `TestSlowStartBatch` (controller_utils_test.go), count 10, initial batch 1.
    #[test]
    #[allow(non_snake_case)]
    fn TestSlowStartBatch() {
        let run = |fail_after: Option<u32>| {
            let mut calls = 0;
            let (ok, err) = slow_start_batch(10, 1, || {
                calls += 1;
                match fail_after {
                    Some(n) if calls > n => Err("fake error".to_string()),
                    _ => Ok(()),
                }
            });
            (ok, calls, err.is_some())
        };
        assert_eq!(run(Some(0)), (0, 1, true), "everything fails: one call");
        assert_eq!(run(None), (10, 10, false), "nothing fails");
        assert_eq!(run(Some(5)), (5, 7, true), "fails after 5: batches 1, 2, 4");
    }

    #[test]
    fn batches_double_and_clamp() {
        let mut sizes = Vec::new();
        let (mut prev, mut remaining) = (0, 10);
        loop {
            let b = next_batch(prev, remaining);
            if b == 0 {
                break;
            }
            sizes.push(b);
            remaining -= b;
            prev = b;
        }
        assert_eq!(sizes, vec![1, 2, 4, 3]);
    }
}
