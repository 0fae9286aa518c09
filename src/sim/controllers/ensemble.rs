//! The lab's operator: an `Ensemble` with `spec.voices` ConfigMap children.
//!
//! The reconcile has the shape most operators have: read the owner from the
//! cache, count its children in the cache, create the missing ones (or delete
//! the surplus), return. It counts in a cache it has just written to, which is
//! the whole of lab 1. With `expectations` on it guards the count the way the
//! ReplicaSet controller does.
//!
//! With `delete_surplus` it deletes `children[voices:]` in the order its
//! lister returned them: a Go map's order, random from call to call (see
//! [`super::ListOrder`]), so two reconciles on the same stale cache can pick
//! different victims and delete below the desired count.

use super::{
    count_children, lister_order, split_key, Beat, Creates, Cx, HandlerEffects, HandlerEvent, Input, Note, Outcome, Owned, Plan,
    ReconcileError, Step, Tally,
};
use crate::sim::apiserver::{Actor, ControllerKind, EventType, Request, Status};
use crate::sim::controller_runtime::Read;
use crate::sim::expectations::Satisfied;
use crate::sim::object::{Kind, Labels, ObjectKey, ObjectRc, ObjectTemplate, OwnerReference, Spec, ENSEMBLE_LABEL};
use std::collections::{BTreeSet, VecDeque};
use std::rc::Rc;

/// The pseudo-code the Reconcile panel shows, a line per step.
pub(crate) const PSEUDO_CODE: &[(Step, &str)] = &[
    (Step::Dequeue, "key := queue.Get()"),
    (Step::EnsureReady, "if err := consistencyStore.EnsureReady(key); err != nil { return err }   // KEP-5647, ported, when on"),
    (Step::GetOwner, "ensemble, err := lister.Get(key)   // NotFound: forget expectations; DeletionTimestamp set: return"),
    (Step::CheckExpectations, "if !expectations.SatisfiedExpectations(key) { return nil }"),
    (Step::ListChildren, "children := cmLister.List(ensemble=key)   // the cache, not the cluster"),
    (Step::Create, "for i := len(children); i < spec.voices; i++ { client.Create(voice) }"),
    (Step::Delete, "for _, c := range children[spec.voices:] { client.Delete(c) }   // --delete-surplus"),
    (Step::Return, "return nil   // --double-enqueue: queue.Add(key)"),
];

/// The same reconcile written with controller-runtime, the operator's
/// default: its client reads the cache, `Reconcile` returns a `ctrl.Result`.
pub(crate) const PSEUDO_CODE_CONTROLLER_RUNTIME: &[(Step, &str)] = &[
    (Step::Dequeue, "req := queue.GetWithPriority()   // controller-runtime's priority queue: the initial list's events last"),
    (
        Step::EnsureReady,
        "if err := consistencyStore.EnsureReady(key); err != nil { return ctrl.Result{}, err }   // KEP-5647, ported, when on",
    ),
    (
        Step::GetOwner,
        "err := r.Get(ctx, req.NamespacedName, &ensemble)   // the cache; NotFound: forget expectations; DeletionTimestamp set: return",
    ),
    (Step::CheckExpectations, "if !expectations.SatisfiedExpectations(key) { return ctrl.Result{}, nil }"),
    (Step::ListChildren, "r.List(ctx, &children, client.MatchingLabels{ensemble: req.Name})   // the cache, not the cluster"),
    (Step::Create, "for i := len(children.Items); i < spec.voices; i++ { r.Create(ctx, voice) }"),
    (Step::Delete, "for _, c := range children.Items[spec.voices:] { r.Delete(ctx, &c) }   // --delete-surplus"),
    (
        Step::Return,
        "return ctrl.Result{}, err   // err: AddRateLimited; nil: Forget; --double-enqueue: the key again, as a second event would",
    ),
];

/// The two reads, live through the API reader (`controller.live_reads`).
pub(crate) const LIVE_READS: [(Step, &str); 2] = [
    (Step::GetOwner, "err := r.apiReader.Get(ctx, req.NamespacedName, &ensemble)   // live: a GET to the apiserver"),
    (Step::ListChildren, "r.apiReader.List(ctx, &children, client.MatchingLabels{ensemble: req.Name})   // live: a LIST to the apiserver"),
];

/// The two reads through v0.25's read-your-writes client (`controller.read_your_writes`).
pub(crate) const READS_OWN_WRITES: [(Step, &str); 2] = [
    (Step::GetOwner, "err := r.Get(ctx, req.NamespacedName, &ensemble)   // read-your-writes: waits for this client's writes of it"),
    (Step::ListChildren, "r.List(ctx, &children, client.MatchingLabels{ensemble: req.Name})   // read-your-writes: waits until the cache has seen every ConfigMap this client wrote"),
];

const ACTOR: Actor = Actor::Controller(ControllerKind::Ensemble);

/// One Ensemble reconcile in progress.
#[derive(Debug, Clone, Hash)]
pub struct SyncEnsemble {
    key: String,
    owner: ObjectKey,
    /// The owner's UID as this reconcile read it: its writes are recorded under it.
    owner_uid: u64,
    /// The owner as a live GET returned it (controller-runtime's API reader).
    live_owner: Option<ObjectRc>,
    stage: Stage,
}

#[derive(Debug, Clone, Hash)]
enum Stage {
    /// The owner is gone; return next.
    Returning,
    /// The consistency store said the cache is behind: return this error next.
    Failing(ReconcileError),
    /// Expectations expired: count next.
    Count,
    /// The live GET of the owner is on its way.
    GettingOwner,
    /// The read-your-writes client holds the owner's Get.
    WaitingToGet,
    /// The live LIST of the children is on its way.
    Listing { owner: ObjectRc },
    /// The read-your-writes client holds the children's List.
    WaitingToList,
    /// Counted; act on the plan next.
    Act { plan: Plan, owner: ObjectRc, present: BTreeSet<String> },
    /// Sending creates one at a time, as a Go loop does.
    Creating { todo: VecDeque<ObjectTemplate> },
    /// Sending deletes one at a time.
    Deleting { todo: VecDeque<ObjectKey> },
}

impl SyncEnsemble {
    pub fn start(key: &str, cx: &mut Cx) -> (SyncEnsemble, Beat) {
        let owner = split_key(key);
        let mut r = SyncEnsemble { key: key.to_string(), owner, owner_uid: 0, live_owner: None, stage: Stage::Returning };
        // v1.36: before anything else, the caches must have read this key's own writes.
        if let Err(error) = cx.ensure_ready(key) {
            r.stage = Stage::Failing(ReconcileError::Stale(error));
            return (r, Beat::Note { note: Note::StaleSkip { owner: key.to_string(), error }, then_ms: 0 });
        }
        let beat = r.get_owner(cx);
        (r, beat)
    }

    /// `r.Get(ctx, req.NamespacedName, &ensemble)`: from the cache, through
    /// the read-your-writes client if it is on, or live through the API reader.
    fn get_owner(&mut self, cx: &mut Cx) -> Beat {
        if cx.settings.live_reads {
            self.stage = Stage::GettingOwner;
            return Beat::Call { requests: vec![Request::get(ACTOR, Kind::Ensemble, &self.owner)], step: Step::GetOwner };
        }
        if cx.settings.reads_own_writes() {
            let read = Read::Get { kind: Kind::Ensemble, key: self.owner.clone() };
            if let Err(behind) = cx.ryw.ready(&read) {
                self.stage = Stage::WaitingToGet;
                return Beat::Wait { note: Note::ReadWaits { read: read.clone(), behind }, read };
            }
        }
        let owner = cx.caches.get(Kind::Ensemble, &self.owner).cloned();
        self.with_owner(owner, false, cx)
    }

    fn with_owner(&mut self, owner: Option<ObjectRc>, live: bool, cx: &mut Cx) -> Beat {
        let key = self.key.clone();
        let Some(owner) = owner else {
            cx.forget_owner(&key);
            self.stage = Stage::Returning;
            return Beat::Note {
                note: Note::OwnerNotInCache { owner: key, forgets_expectations: cx.settings.expectations(), live },
                then_ms: 0,
            };
        };
        self.owner_uid = owner.uid;
        // Being deleted (a finalizer holds it, or the garbage collector is
        // taking its children first): make nothing more, or it would fight the collector.
        if owner.is_terminating() {
            self.stage = Stage::Returning;
            return Beat::Note { note: Note::OwnerTerminating { owner: key }, then_ms: 0 };
        }
        if live {
            self.live_owner = Some(owner);
        }
        if cx.settings.expectations() {
            match cx.expectations.satisfied(&key, cx.now_ms) {
                Satisfied::Pending { add, del } => {
                    let age_ms = cx.expectations.get(&key).map(|rec| cx.now_ms - rec.timestamp_ms).unwrap_or(0);
                    self.stage = Stage::Returning;
                    return Beat::Note { note: Note::ExpectationsPending { owner: key, add, del, age_ms }, then_ms: 0 };
                }
                Satisfied::Expired { age_ms } => {
                    self.stage = Stage::Count;
                    return Beat::Note { note: Note::ExpectationsExpired { owner: key, age_ms }, then_ms: 0 };
                }
                Satisfied::NoRecord | Satisfied::Fulfilled => {}
            }
        }
        self.count(cx)
    }

    /// `r.List(ctx, &children, client.MatchingLabels{ensemble: name})`: as `get_owner` reads.
    fn count(&mut self, cx: &mut Cx) -> Beat {
        if let Some(owner) = self.live_owner.clone() {
            self.stage = Stage::Listing { owner };
            return Beat::Call { requests: vec![Request::list(ACTOR, Kind::ConfigMap, &self.owner.namespace)], step: Step::ListChildren };
        }
        if cx.settings.reads_own_writes() {
            let read = Read::List { kind: Kind::ConfigMap };
            if let Err(behind) = cx.ryw.ready(&read) {
                self.stage = Stage::WaitingToList;
                return Beat::Wait { note: Note::ReadWaits { read: read.clone(), behind }, read };
            }
        }
        let Some(owner) = cx.caches.get(Kind::Ensemble, &self.owner).cloned() else {
            self.stage = Stage::Returning;
            return Beat::Note {
                note: Note::OwnerNotInCache { owner: self.key.clone(), forgets_expectations: cx.settings.expectations(), live: false },
                then_ms: 0,
            };
        };
        let informer = cx.caches.informer(Kind::ConfigMap).expect("the Ensemble controller watches ConfigMaps");
        let (children, unseen) = count_children(informer, ENSEMBLE_LABEL, &self.owner, cx.lag_ms);
        self.counted(owner, children, unseen, false, cx)
    }

    /// The children are read: plan, and say what was counted.
    fn counted(&mut self, owner: ObjectRc, children: Vec<ObjectRc>, unseen: u32, live: bool, cx: &mut Cx) -> Beat {
        let desired = owner.spec.desired().unwrap_or(0);
        let in_cache = children.len() as u32;
        let plan = if in_cache < desired {
            Plan::Create(desired - in_cache)
        } else if in_cache > desired && cx.settings.delete_surplus {
            Plan::Delete(in_cache - desired)
        } else {
            Plan::Nothing
        };
        let present: BTreeSet<String> = children.iter().map(|c| c.name.clone()).collect();
        // Surplus victims are chosen now, from what this reconcile read:
        // `children[voices:]` in the lister's order. The store iterates in key
        // order; a Go map would not, so the order is shuffled here, only when
        // it matters (the RNG is drawn only for a delete).
        let victims: VecDeque<ObjectKey> = if let Plan::Delete(_) = plan {
            let mut listed: Vec<&ObjectRc> = children.iter().collect();
            lister_order(&mut listed, cx.settings.list_order, cx.rng);
            listed.iter().skip(desired as usize).map(|o| o.key()).collect()
        } else {
            VecDeque::new()
        };
        // What the cluster will hold after the plan, the world counts (the reconcile never reads it).
        let tally = Tally {
            child: Kind::ConfigMap,
            namespace: self.owner.namespace.clone(),
            of: Owned::Label { label: ENSEMBLE_LABEL, value: self.owner.name.clone() },
            creates: match (plan, cx.settings.naming) {
                (Plan::Create(n), super::Naming::Generate) => Creates::Generated(n),
                (Plan::Create(n), super::Naming::Deterministic) => {
                    Creates::Named(missing_names(&owner, &present).take(n as usize).collect())
                }
                _ => Creates::Nothing,
            },
            deletes: victims.iter().cloned().collect(),
        };
        let note = Note::Counted {
            owner: self.key.clone(),
            child_kind: Kind::ConfigMap,
            in_cache,
            in_cluster: 0,
            cluster_after: 0,
            desired,
            unseen,
            plan,
            expect: cx.settings.expectations() && plan != Plan::Nothing,
            live,
        };
        if let Plan::Delete(_) = plan {
            if cx.settings.expectations() {
                let keys = victims.iter().map(|k| k.to_string()).collect();
                cx.expectations.expect_deletions(&self.key, keys, cx.now_ms);
            }
            self.stage = Stage::Deleting { todo: victims };
        } else {
            self.stage = Stage::Act { plan, owner, present };
        }
        Beat::Counted { note, then_ms: cx.settings.reconcile_ms, tally }
    }

    fn templates(&self, owner: &ObjectRc, n: u32, present: &BTreeSet<String>, cx: &Cx) -> VecDeque<ObjectTemplate> {
        let labels: Labels = Rc::new([(ENSEMBLE_LABEL.to_string(), owner.name.clone())].into());
        let owner_references = if cx.settings.owner_references {
            Rc::new(vec![OwnerReference { kind: Kind::Ensemble, name: owner.name.clone(), uid: owner.uid, controller: true }])
        } else {
            Default::default()
        };
        let prefix = format!("{}-voice-", owner.name);
        let template = |name: Option<String>, generate_name: Option<String>| ObjectTemplate {
            namespace: owner.namespace.clone(),
            name,
            generate_name,
            labels: labels.clone(),
            owner_references: owner_references.clone(),
            finalizers: Vec::new(),
            spec: Spec::ConfigMap,
        };
        match cx.settings.naming {
            // The names this reconcile believes are missing: beta-voice-i not in its cache.
            super::Naming::Deterministic => missing_names(owner, present).take(n as usize).map(|name| template(Some(name), None)).collect(),
            super::Naming::Generate => (0..n).map(|_| template(None, Some(prefix.clone()))).collect(),
        }
    }

    pub fn resume(&mut self, input: Input, cx: &mut Cx) -> Beat {
        match std::mem::replace(&mut self.stage, Stage::Returning) {
            Stage::Returning => Beat::Return(Outcome::Done),
            Stage::Failing(error) => Beat::Return(Outcome::Error(error)),
            Stage::Count | Stage::WaitingToList => self.count(cx),
            Stage::WaitingToGet => self.get_owner(cx),
            Stage::GettingOwner => {
                let Input::Responses(rs) = input else { return Beat::Return(Outcome::Done) };
                let (response, audit) = &rs[0];
                match response.status {
                    Status::OK => self.with_owner(response.object.clone(), true, cx),
                    Status::NOT_FOUND => self.with_owner(None, true, cx),
                    _ => Beat::Return(Outcome::Error(ReconcileError::of(audit))),
                }
            }
            Stage::Listing { owner } => {
                let Input::Responses(rs) = input else { return Beat::Return(Outcome::Done) };
                let (response, audit) = &rs[0];
                if !response.status.is_success() {
                    return Beat::Return(Outcome::Error(ReconcileError::of(audit)));
                }
                let label = Some(self.owner.name.as_str());
                let children =
                    response.items.iter().filter(|o| o.labels.get(ENSEMBLE_LABEL).map(String::as_str) == label).cloned().collect();
                self.counted(owner, children, 0, true, cx)
            }
            Stage::Act { plan: Plan::Create(n), owner, present } => {
                if cx.settings.expectations() {
                    cx.expectations.expect_creations(&self.key, n, cx.now_ms);
                }
                let todo = self.templates(&owner, n, &present, cx);
                self.next_create(todo)
            }
            Stage::Act { .. } => Beat::Return(Outcome::Done),
            Stage::Creating { todo } => {
                let Input::Responses(rs) = input else { return Beat::Return(Outcome::Done) };
                let (response, audit) = &rs[0];
                if response.status == Status::CREATED {
                    cx.wrote_at(&self.key, self.owner_uid, Kind::ConfigMap, audit.resource_version);
                    return self.next_create(todo);
                }
                if cx.settings.expectations() {
                    // The failed create and the ones never sent will produce no event.
                    cx.expectations.lower(&self.key, 1 + todo.len() as i64, 0);
                }
                Beat::Return(Outcome::Error(ReconcileError::of(audit)))
            }
            Stage::Deleting { todo } => {
                if let Input::Responses(rs) = input {
                    let (response, audit) = &rs[0];
                    // Not recorded in the consistency store: controller-runtime's
                    // Delete (pkg/client/typed_client.go) returns only an error,
                    // so there is no resourceVersion to record (kubernetes #138400).
                    if !response.status.is_success() {
                        if cx.settings.expectations() {
                            let key = ObjectKey::new(audit.namespace.clone(), audit.name.clone());
                            cx.expectations.deletion_observed(&self.key, &key.to_string());
                        }
                        // client.IgnoreNotFound: someone else already deleted it.
                        if response.status != Status::NOT_FOUND {
                            return Beat::Return(Outcome::Error(ReconcileError::of(audit)));
                        }
                    }
                }
                self.next_delete(todo)
            }
        }
    }

    fn next_create(&mut self, mut todo: VecDeque<ObjectTemplate>) -> Beat {
        match todo.pop_front() {
            None => Beat::Return(Outcome::Done),
            Some(t) => {
                self.stage = Stage::Creating { todo };
                Beat::Call { requests: vec![Request::create(ACTOR, t)], step: Step::Create }
            }
        }
    }

    fn next_delete(&mut self, mut todo: VecDeque<ObjectKey>) -> Beat {
        match todo.pop_front() {
            None => Beat::Return(Outcome::Done),
            Some(k) => {
                self.stage = Stage::Deleting { todo };
                Beat::Call { requests: vec![Request::delete(ACTOR, Kind::ConfigMap, &k)], step: Step::Delete }
            }
        }
    }
}

/// The deterministic names `beta-voice-0 .. beta-voice-(voices-1)` absent from `present`.
fn missing_names<'a>(owner: &ObjectRc, present: &'a BTreeSet<String>) -> impl Iterator<Item = String> + 'a {
    let prefix = format!("{}-voice-", owner.name);
    (0..owner.spec.desired().unwrap_or(0)).map(move |i| format!("{prefix}{i}")).filter(|name| !present.contains(name))
}

/// The handlers: `For(Ensemble)` enqueues the Ensemble; ConfigMaps map to their
/// Ensemble by the `academy.k3ii.dev/ensemble` label (so it works with
/// ownerReferences off too) and lower its expectations.
pub fn handle(informer_kind: Kind, ev: &HandlerEvent, expectations: &mut crate::sim::expectations::Expectations) -> HandlerEffects {
    let mut fx = HandlerEffects::default();
    match informer_kind {
        Kind::Ensemble => fx.enqueued.push(super::queue_key(&ev.object.namespace, &ev.object.name)),
        Kind::ConfigMap => {
            let Some(owner) = ev.object.labels.get(ENSEMBLE_LABEL) else { return fx };
            let key = super::queue_key(&ev.object.namespace, owner);
            match ev.event_type {
                EventType::Added => {
                    if expectations.creation_observed(&key) {
                        fx.observed.push((key.clone(), "add"));
                    }
                }
                EventType::Deleted => {
                    if expectations.deletion_observed(&key, &super::queue_key(&ev.object.namespace, &ev.object.name)) {
                        fx.observed.push((key.clone(), "del"));
                    }
                }
                EventType::Modified => {}
            }
            fx.enqueued.push(key);
        }
        Kind::ReplicaSet | Kind::Pod => {}
    }
    fx
}
