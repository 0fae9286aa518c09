//! The ReplicaSet controller's `syncReplicaSet` and `manageReplicas`
//! (`pkg/controller/replicaset/replica_set.go`, v1.28.0), as a state machine.
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

use super::{
    split_key, Beat, Caches, Creates, Cx, HandlerEffects, HandlerEvent, Input, Note, Outcome, Owned, Plan, ReconcileError, Step, Tally,
};
use crate::sim::apiserver::{Actor, ControllerKind, EventType, Request, Status};
use crate::sim::consistency::ConsistencyStore;
use crate::sim::expectations::{Expectations, Satisfied};
use crate::sim::object::{Kind, ObjectKey, ObjectRc, ObjectTemplate, OwnerReference, ReplicaSetStatus, Spec, REPLICASET_LABEL};
use std::collections::BTreeMap;
use std::rc::Rc;

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

const ACTOR: Actor = Actor::Controller(ControllerKind::ReplicaSet);

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

/// One `syncReplicaSet` in progress.
#[derive(Debug, Clone, Hash)]
pub struct SyncReplicaSet {
    key: String,
    owner: ObjectKey,
    /// The ReplicaSet's UID as this sync read it: its writes are recorded under it.
    owner_uid: u64,
    /// The ReplicaSet and its active pods as this sync counted them: what
    /// `calculateStatus` reports.
    counted: Option<(ObjectRc, u32)>,
    stage: Stage,
}

/// `statusUpdateRetries`: one GET and one more try after a failed UpdateStatus.
pub(crate) const STATUS_UPDATE_RETRIES: u32 = 1;

#[derive(Debug, Clone, Hash)]
enum Stage {
    Returning,
    /// `EnsureReady` failed: return this error next (the key is requeued rate-limited).
    Failing(ReconcileError),
    /// Expectations expired (logged); count next.
    Count {
        needs_sync: bool,
    },
    /// Counted; act next.
    Act {
        plan: Plan,
        rs: ObjectRc,
        victims: Vec<ObjectKey>,
    },
    /// Slow-start creates: `remaining` not yet sent, the last batch was `batch` big.
    Creating {
        rs: ObjectRc,
        total: u32,
        remaining: u32,
        batch: u32,
        successes: u32,
    },
    /// Deletes sent concurrently; waiting for all.
    Deleting,
    /// `UpdateStatus` sent (try `attempt`, from 0); `manage` is manageReplicas' result.
    UpdatingStatus {
        status: ReplicaSetStatus,
        attempt: u32,
        manage: Result<(), ReconcileError>,
    },
    /// The GET after a failed `UpdateStatus`, for the latest resourceVersion.
    RereadingStatus {
        status: ReplicaSetStatus,
        attempt: u32,
        manage: Result<(), ReconcileError>,
        update_error: ReconcileError,
    },
}

impl SyncReplicaSet {
    pub fn start(key: &str, cx: &mut Cx) -> (SyncReplicaSet, Beat) {
        let owner = split_key(key);
        let mut r = SyncReplicaSet { key: key.to_string(), owner, owner_uid: 0, counted: None, stage: Stage::Returning };
        // v1.36 (KEP-5647, PR #137212): the check runs first, before the lister
        // Get and before SatisfiedExpectations; its error requeues the key.
        if let Err(error) = cx.ensure_ready(key) {
            r.stage = Stage::Failing(ReconcileError::Stale(error));
            return (r, Beat::Note { note: Note::StaleSkip { owner: key.to_string(), error }, then_ms: 0 });
        }
        let Some(rs) = cx.caches.get(Kind::ReplicaSet, &r.owner) else {
            // NotFound: Clear(key, "") and DeleteExpectations.
            cx.forget_owner(key);
            return (
                r,
                Beat::Note {
                    note: Note::OwnerNotInCache { owner: key.to_string(), forgets_expectations: cx.settings.expectations(), live: false },
                    then_ms: 0,
                },
            );
        };
        r.owner_uid = rs.uid;
        // l.693: read expectations before listing pods.
        let satisfied = if cx.settings.expectations() { cx.expectations.satisfied(key, cx.now_ms) } else { Satisfied::NoRecord };
        if let Satisfied::Expired { age_ms } = satisfied {
            r.stage = Stage::Count { needs_sync: true };
            return (r, Beat::Note { note: Note::ExpectationsExpired { owner: key.to_string(), age_ms }, then_ms: 0 });
        }
        if let Satisfied::Pending { add, del } = satisfied {
            let age_ms = cx.expectations.get(key).map(|rec| cx.now_ms - rec.timestamp_ms).unwrap_or(0);
            // Upstream lists the pods anyway, for the status; without the
            // status write that list changes nothing, and is not shown.
            if cx.settings.update_status {
                r.stage = Stage::Count { needs_sync: false };
            }
            return (r, Beat::Note { note: Note::ExpectationsPending { owner: key.to_string(), add, del, age_ms }, then_ms: 0 });
        }
        let beat = r.count(true, cx);
        (r, beat)
    }

    fn count(&mut self, needs_sync: bool, cx: &mut Cx) -> Beat {
        let Some(rs) = cx.caches.get(Kind::ReplicaSet, &self.owner).cloned() else {
            self.stage = Stage::Returning;
            return Beat::Note {
                note: Note::OwnerNotInCache { owner: self.key.clone(), forgets_expectations: cx.settings.expectations(), live: false },
                then_ms: 0,
            };
        };
        let informer = cx.caches.informer(Kind::Pod).expect("the ReplicaSet controller watches pods");
        // FilterActivePods: a Terminating pod is already gone, to the controller.
        // Counted as the store changes (Informer::active_controlled_by); listed when some are to go.
        let active = informer.active_controlled_by(rs.uid);
        let unseen = informer
            .wire()
            .filter(|e| !e.dropped && e.event_type == EventType::Added && e.object.controller_ref().is_some_and(|r| r.uid == rs.uid))
            .count() as u32;
        let desired = rs.spec.desired().unwrap_or(0);
        let burst = cx.settings.burst_replicas.max(1);
        // `rsNeedsSync && rs.DeletionTimestamp == nil`: a ReplicaSet being
        // deleted manages no pods (its status is still written).
        let plan = if !needs_sync || rs.is_terminating() || active == desired {
            Plan::Nothing
        } else if active < desired {
            Plan::Create((desired - active).min(burst))
        } else {
            Plan::Delete((active - desired).min(burst))
        };
        // getPodsToDelete: with every pod Running and ready, the newest go
        // first. A simplification: upstream's ActivePodsWithRanks (with
        // LogarithmicScaleDown) compares ages in power-of-two buckets and
        // breaks a tie by UID, a pseudorandom order; here, by age alone.
        let victims = if let Plan::Delete(n) = plan {
            let mut sorted: Vec<&ObjectRc> =
                informer.list().filter(|p| !p.is_terminating() && p.controller_ref().is_some_and(|r| r.uid == rs.uid)).collect();
            sorted.sort_by(|a, b| b.creation_rv.cmp(&a.creation_rv).then(a.name.cmp(&b.name)));
            sorted.iter().take(n as usize).map(|p| p.key()).collect()
        } else {
            Vec::new()
        };
        // What the cluster holds and will hold, the world counts: the apiserver's index, not a scan.
        let tally = Tally {
            child: Kind::Pod,
            namespace: rs.namespace.clone(),
            of: Owned::Controlled { uid: rs.uid },
            creates: if let Plan::Create(n) = plan { Creates::Generated(n) } else { Creates::Nothing },
            deletes: victims.clone(),
        };
        let note = Note::Counted {
            owner: self.key.clone(),
            child_kind: Kind::Pod,
            in_cache: active,
            in_cluster: 0,
            cluster_after: 0,
            desired,
            unseen,
            plan,
            expect: cx.settings.expectations() && plan != Plan::Nothing,
            live: false,
        };
        self.counted = Some((rs.clone(), active));
        self.stage = Stage::Act { plan, rs, victims };
        Beat::Counted { note, then_ms: cx.settings.reconcile_ms, tally }
    }

    fn template(&self, rs: &ObjectRc) -> ObjectTemplate {
        let labels: BTreeMap<String, String> = [(REPLICASET_LABEL.to_string(), rs.name.clone())].into();
        ObjectTemplate {
            namespace: rs.namespace.clone(),
            name: None,
            generate_name: Some(format!("{}-", rs.name)),
            labels: Rc::new(labels),
            owner_references: Rc::new(vec![OwnerReference {
                kind: Kind::ReplicaSet,
                name: rs.name.clone(),
                uid: rs.uid,
                controller: true,
            }]),
            finalizers: vec![],
            spec: Spec::Pod,
        }
    }

    fn send_batch(&mut self, rs: ObjectRc, total: u32, remaining: u32, previous: u32, successes: u32, cx: &Cx) -> Beat {
        let batch = next_batch(previous, remaining);
        if batch == 0 {
            return self.finish(Ok(()), cx);
        }
        // One template for the batch: its pods' labels and ownerReferences are one shared map and list.
        let template = self.template(&rs);
        let requests = (0..batch).map(|_| Request::create(ACTOR, template.clone())).collect();
        self.stage = Stage::Creating { rs, total, remaining: remaining - batch, batch, successes };
        Beat::Call { requests, step: Step::Create }
    }

    /// manageReplicas is done with `manage`: write the status, or return.
    /// `updateReplicaSetStatus` writes nothing when the status already says
    /// what was counted, for the generation counted.
    fn finish(&mut self, manage: Result<(), ReconcileError>, cx: &Cx) -> Beat {
        let Some((rs, active)) = self.counted.clone().filter(|_| cx.settings.update_status) else {
            return Beat::Return(manage.clone().into());
        };
        let status = ReplicaSetStatus { replicas: active, observed_generation: rs.generation };
        if rs.status == Some(status) {
            return Beat::Return(manage.clone().into());
        }
        self.update_status(&rs, status, 0, manage)
    }

    fn update_status(&mut self, rs: &ObjectRc, status: ReplicaSetStatus, attempt: u32, manage: Result<(), ReconcileError>) -> Beat {
        self.stage = Stage::UpdatingStatus { status, attempt, manage };
        Beat::Call { requests: vec![Request::update_status(ACTOR, rs, status)], step: Step::UpdateStatus }
    }

    pub fn resume(&mut self, input: Input, cx: &mut Cx) -> Beat {
        match std::mem::replace(&mut self.stage, Stage::Returning) {
            Stage::Returning => Beat::Return(Outcome::Done),
            Stage::Failing(error) => Beat::Return(Outcome::Error(error)),
            Stage::Count { needs_sync } => self.count(needs_sync, cx),
            Stage::Act { plan: Plan::Nothing, .. } => self.finish(Ok(()), cx),
            Stage::Act { plan: Plan::Create(n), rs, .. } => {
                if cx.settings.expectations() {
                    // l.584: before any API call.
                    cx.expectations.expect_creations(&self.key, n, cx.now_ms);
                }
                self.send_batch(rs, n, n, 0, 0, cx)
            }
            Stage::Act { plan: Plan::Delete(_), victims, .. } => {
                if cx.settings.expectations() {
                    let keys = victims.iter().map(|k| k.to_string()).collect();
                    cx.expectations.expect_deletions(&self.key, keys, cx.now_ms);
                }
                self.stage = Stage::Deleting;
                let requests = victims.iter().map(|k| Request::delete(ACTOR, Kind::Pod, k)).collect();
                Beat::Call { requests, step: Step::Delete }
            }
            Stage::Creating { rs, total, remaining, batch, successes } => {
                let Input::Responses(rs_) = input else { return Beat::Return(Outcome::Done) };
                let ok = rs_.iter().filter(|(r, _)| r.status == Status::CREATED).count() as u32;
                for (_, audit) in rs_.iter().filter(|(r, _)| r.status == Status::CREATED) {
                    cx.wrote_at(&self.key, self.owner_uid, Kind::Pod, audit.resource_version);
                }
                let successes = successes + ok;
                if ok == batch {
                    return self.send_batch(rs, total, remaining, batch, successes, cx);
                }
                // l.610-615: the creates that failed or were never sent produce no event.
                let skipped = total - successes;
                if cx.settings.expectations() {
                    for _ in 0..skipped {
                        cx.expectations.creation_observed(&self.key);
                    }
                }
                let err = rs_
                    .iter()
                    .find(|(r, _)| r.status != Status::CREATED)
                    .map(|(_, a)| ReconcileError::of(a))
                    .expect("fewer created than sent: one answer is not 201");
                self.finish(Err(err), cx)
            }
            Stage::Deleting => {
                let Input::Responses(rs_) = input else { return Beat::Return(Outcome::Done) };
                let mut err = None;
                for (response, audit) in &rs_ {
                    // A delete is not recorded in the consistency store: v1.36's
                    // typed Delete returns only an error (client-go v0.36.3
                    // gentype/type.go, (*Client[T]).Delete), so there is no
                    // resourceVersion to record (kubernetes #138400).
                    if !response.status.is_success() {
                        if cx.settings.expectations() {
                            let key = ObjectKey::new(audit.namespace.clone(), audit.name.clone()).to_string();
                            cx.expectations.deletion_observed(&self.key, &key);
                        }
                        if response.status != Status::NOT_FOUND {
                            err.get_or_insert(ReconcileError::of(audit));
                        }
                    }
                }
                self.finish(err.map_or(Ok(()), Err), cx)
            }
            Stage::UpdatingStatus { status, attempt, manage } => {
                let Input::Responses(answers) = input else { return Beat::Return(manage.clone().into()) };
                let Some((response, audit)) = answers.into_iter().next() else { return Beat::Return(manage.clone().into()) };
                if response.status.is_success() {
                    cx.wrote_at(&self.key, self.owner_uid, Kind::ReplicaSet, audit.resource_version);
                    return Beat::Return(manage.clone().into());
                }
                // A failed status write is the sync's error: the key is requeued rate-limited.
                let update_error = ReconcileError::of(&audit);
                if attempt >= STATUS_UPDATE_RETRIES {
                    return Beat::Return(Outcome::Error(update_error));
                }
                self.stage = Stage::RereadingStatus { status, attempt, manage, update_error };
                Beat::Call { requests: vec![Request::get(ACTOR, Kind::ReplicaSet, &self.owner)], step: Step::UpdateStatus }
            }
            Stage::RereadingStatus { status, attempt, manage, update_error } => {
                let Input::Responses(answers) = input else { return Beat::Return(Outcome::Error(update_error)) };
                match answers.into_iter().next() {
                    Some((response, _)) if response.object.is_some() => {
                        let latest = response.object.expect("a GET's object");
                        self.update_status(&latest, status, attempt + 1, manage)
                    }
                    // "If the GET fails we can't trust status.Replicas anymore."
                    Some((_, audit)) => Beat::Return(Outcome::Error(ReconcileError::of(&audit))),
                    None => Beat::Return(Outcome::Error(update_error)),
                }
            }
        }
    }
}

/// `resolveControllerRef`: the ReplicaSet a pod's controllerRef names, from
/// the lister, if it is the very object (same UID). A pod of a deleted
/// ReplicaSet names its successor's name but not its UID, and so belongs to
/// nobody: it must not lower the successor's expectations.
fn resolve_controller_ref<'a>(caches: &'a Caches, pod: &ObjectRc) -> Option<&'a ObjectRc> {
    let r = pod.controller_ref().filter(|r| r.kind == Kind::ReplicaSet)?;
    caches.get(Kind::ReplicaSet, &ObjectKey::new(pod.namespace.clone(), r.name.clone())).filter(|rs| rs.uid == r.uid)
}

/// `addRS`/`updateRS`/`deleteRS` and `addPod`/`updatePod`/`deletePod`. They
/// run after the store took the event (`caches` already holds it).
pub fn handle(
    informer_kind: Kind,
    ev: &HandlerEvent,
    caches: &Caches,
    expectations: &mut Expectations,
    consistency: &mut ConsistencyStore,
) -> HandlerEffects {
    let mut fx = HandlerEffects::default();
    match informer_kind {
        Kind::ReplicaSet => {
            let key = super::queue_key(&ev.object.namespace, &ev.object.name);
            // updateRS: an object with a new UID under the old name was
            // deleted and re-created unseen (client-go hands an ADDED for a
            // key its store holds to OnUpdate): treat the old as deleted,
            // `deleteRS`, whose expectations go with it. v1.36's deleteRS
            // also clears the consistency store's record of the deleted
            // ReplicaSet, by its UID (`consistencyStore.Clear(key, rs.UID)`),
            // so a successor under its name is not held back by it.
            let recreated = ev.old.filter(|old| old.uid != ev.object.uid);
            if ev.event_type == EventType::Deleted || recreated.is_some() {
                expectations.delete(&key);
                consistency.clear(&key, Some(recreated.unwrap_or(ev.object).uid));
            }
            fx.enqueued.push(key);
        }
        Kind::Pod => {
            // A pod's DELETED (or its tombstone) is resolved against the lister
            // as it is: the owner is still there unless it went first.
            let Some(owner) = resolve_controller_ref(caches, ev.object) else {
                // An orphan, or a pod of a ReplicaSet that is gone or re-created
                // (another UID): adoption would enqueue matching ReplicaSets; none is modelled.
                return fx;
            };
            let key = super::queue_key(&ev.object.namespace, &owner.name);
            // A resync (same resourceVersion) is ignored.
            if ev.event_type == EventType::Modified && ev.old.is_some_and(|o| o.resource_version == ev.object.resource_version) {
                return fx;
            }
            // addPod and updatePod hand a Terminating pod to deletePod: the
            // controller replaces it now, not when the kubelet removes it.
            let seen_as = if ev.object.is_terminating() { EventType::Deleted } else { ev.event_type };
            match seen_as {
                EventType::Added => {
                    if expectations.creation_observed(&key) {
                        fx.observed.push((key.clone(), "add"));
                    }
                }
                EventType::Modified => {}
                EventType::Deleted => {
                    // Tombstones are unwrapped to the last known pod; same handling.
                    if expectations.deletion_observed(&key, &super::queue_key(&ev.object.namespace, &ev.object.name)) {
                        fx.observed.push((key.clone(), "del"));
                    }
                }
            }
            fx.enqueued.push(key);
        }
        Kind::Ensemble | Kind::ConfigMap => {}
    }
    fx
}

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
