//! The apiserver: the cluster's truth, one global resourceVersion,
//! `generateName`, and the watch events each write produces.
//!
//! What it does, each after upstream:
//! - optimistic concurrency: an update or a delete that names a
//!   resourceVersion other than the stored one is 409 Conflict; so is one
//!   whose UID precondition names another object (`(*Preconditions).Check`
//!   checks the UID first);
//! - `UpdateStatus` writes the status alone; a write that changes nothing is
//!   a 200 with no new resourceVersion and no event (`GuaranteedUpdate`'s
//!   short-circuit);
//! - graceful deletion: a pod with a grace period (`cluster.pod_grace_period_ms`)
//!   or an object with finalizers is only marked Terminating (deletionTimestamp,
//!   a MODIFIED event); foreground and orphan propagation add their finalizer
//!   first; deleting a Terminating object again changes nothing unless it
//!   shortens the grace to 0; anything else is removed at once;
//! - status codes and messages in apimachinery's words, with the facts a
//!   message needs (`Cause`): a failed precondition's UIDs or
//!   resourceVersions, AlreadyExists on an object being deleted, or on a
//!   name `generateName` could not make unique;
//! - an index of each controller's children (`controlled_by`), so an
//!   invariant counts them after every write without a scan.
//!
//! A simplification of the real apiserver: no admission, no validation
//! beyond what the labs touch, and no watches of its own. The watch, its
//! lag and its `410 Expired` (`cluster.watch_timeout_ms`) are the world's
//! (`world/reflectors.rs`). An injected failure's 500 says "an injected
//! fault", words upstream never uses.
//!
//! The vocabulary beside the server, one file a job: `request.rs` (what a
//! client sends), `status.rs` (what it is answered), `audit.rs` (the audit
//! log's line), `watch.rs` (the event a write produces), `names.rs`
//! (`generateName`).

mod audit;
mod names;
mod request;
mod status;
mod watch;

pub use audit::AuditEntry;
pub use names::{generate_name, GENERATED_SUFFIX_LEN, GENERATE_NAME_ALPHABET, GENERATE_NAME_ATTEMPTS, MAX_GENERATED_PREFIX};
pub use request::{Actor, Agent, ControllerKind, Options, Propagation, Request, Verb};
pub use status::{status_message, Cause, FailMode, Reason, Response, Status};
pub use watch::{EventType, WatchEvent};

use crate::sim::object::{Kind, Name, Object, ObjectKey, ObjectRc, ReplicaSetStatus, MAX_KINDS};
use crate::sim::rng::Rng;
use crate::sim::shelves::Shelves;
use crate::sim::sorted::SortedMap;
use std::collections::BTreeMap;

/// The store, its resourceVersion counter, and the counts the report needs.
///
/// One map per kind, keyed like an informer's store (fewer distinct map types
/// is less code in the page's wasm).
#[derive(Debug, Clone, Default, Hash)]
pub struct ApiServer {
    objects: [Shelves; MAX_KINDS],
    resource_version: u64,
    next_uid: u64,
    live: [u64; MAX_KINDS],
    peak_live: [u64; MAX_KINDS],
    /// Kinds that have ever had an object (the report lists those).
    seen: [Option<Kind>; MAX_KINDS],
    /// (kind, namespace, label, value) -> live objects carrying it.
    label_counts: SortedMap<LabelKey, u32>,
    /// (kind, controller UID) -> its live children of that kind: [active, Terminating].
    /// What an invariant counts after every create, without a scan of the kind.
    by_controller: SortedMap<(Kind, u64), [u32; 2]>,
    /// Live objects of each kind without a controllerRef.
    uncontrolled: [u64; MAX_KINDS],
    /// A pod's `terminationGracePeriodSeconds`, in ms: 0, a delete removes it at once.
    pub pod_grace_period_ms: u64,
}

/// A label of the objects of one kind in one namespace: (kind, namespace, label, value).
type LabelKey = (Kind, Name, String, String);

/// How a stored label key sorts against one given by parts: a lookup that
/// builds no key (every pod of a ReplicaSet carries the same labels, so
/// almost every create and delete finds its label's entry there already).
fn label_order(stored: &LabelKey, kind: Kind, namespace: &str, label: &str, value: &str) -> std::cmp::Ordering {
    (stored.0, stored.1.as_str(), stored.2.as_str(), stored.3.as_str()).cmp(&(kind, namespace, label, value))
}

/// What one request did.
#[derive(Debug, Clone, Hash)]
pub struct Handled {
    pub response: Response,
    pub audit: AuditEntry,
    pub event: Option<WatchEvent>,
}

impl ApiServer {
    pub fn new() -> Self {
        ApiServer::default()
    }

    /// The current resourceVersion (the last committed write).
    pub fn resource_version(&self) -> u64 {
        self.resource_version
    }

    pub fn get(&self, kind: Kind, key: &ObjectKey) -> Option<&ObjectRc> {
        self.objects[kind.index()].get(key)
    }

    /// `get`, by the key's parts (no key built).
    pub fn get_named(&self, kind: Kind, namespace: &str, name: &str) -> Option<&ObjectRc> {
        self.objects[kind.index()].get_named(namespace, name)
    }

    /// Every live object, by kind then key.
    pub fn objects(&self) -> impl Iterator<Item = &ObjectRc> {
        self.objects.iter().flat_map(|m| m.values())
    }

    /// Live objects of one kind in one namespace, by name.
    pub fn list(&self, kind: Kind, namespace: &str) -> Vec<ObjectRc> {
        self.objects[kind.index()].in_namespace(namespace).cloned().collect()
    }

    /// How many objects of one kind exist (Terminating ones too).
    pub fn count(&self, kind: Kind) -> usize {
        self.objects[kind.index()].len()
    }

    /// Live objects of one kind, without cloning anything.
    pub fn objects_of(&self, kind: Kind) -> impl Iterator<Item = &ObjectRc> {
        self.objects[kind.index()].values()
    }

    /// The `n`th live object of one kind in key order (from 0), found
    /// without walking the ones before it.
    pub fn nth_of(&self, kind: Kind, n: usize) -> Option<&ObjectRc> {
        self.objects[kind.index()].nth(n)
    }

    /// Live objects of one kind in every namespace.
    pub(crate) fn list_all(&self, kind: Kind) -> Vec<ObjectRc> {
        self.objects_of(kind).cloned().collect()
    }

    /// Live objects of `kind` whose controllerRef is `uid`: (active, Terminating).
    pub fn controlled_by(&self, kind: Kind, uid: u64) -> (u32, u32) {
        self.by_controller.get(&(kind, uid)).map_or((0, 0), |[active, terminating]| (*active, *terminating))
    }

    /// Live objects of `kind` without a controllerRef.
    pub fn uncontrolled_count(&self, kind: Kind) -> u64 {
        self.uncontrolled[kind.index()]
    }

    /// Live objects of `kind` now.
    pub fn live_count(&self, kind: Kind) -> u64 {
        self.live[kind.index()]
    }

    /// The most objects of `kind` alive at any instant so far.
    pub fn peak_count(&self, kind: Kind) -> u64 {
        self.peak_live[kind.index()]
    }

    /// Every kind that ever had an object, by `Kind::index`.
    pub fn kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        self.seen.iter().flatten().copied()
    }

    /// Live counts of every kind that ever had an object.
    pub fn live(&self) -> BTreeMap<Kind, u64> {
        self.seen.iter().flatten().map(|k| (*k, self.live_count(*k))).collect()
    }

    /// Peak counts of every kind that ever had an object.
    pub fn peak_live(&self) -> BTreeMap<Kind, u64> {
        self.seen.iter().flatten().map(|k| (*k, self.peak_count(*k))).collect()
    }

    /// How many live objects of `kind` in `namespace` carry `label=value`.
    pub fn count_labelled(&self, kind: Kind, namespace: &str, label: &str, value: &str) -> u32 {
        self.label_counts.get_by(|l| label_order(l, kind, namespace, label, value)).copied().unwrap_or(0)
    }

    /// Handle one request at `now_ms`.
    pub fn handle(&mut self, req: &Request, now_ms: u64, rng: &mut Rng) -> Handled {
        match req.verb {
            Verb::Create => self.create(req, now_ms, rng),
            Verb::Get => self.read(req, now_ms),
            // A watch-list's initial state is the same snapshot a LIST reads.
            Verb::List | Verb::Watch => self.list_request(req, now_ms),
            Verb::Update => self.update(req, now_ms),
            Verb::Delete => self.delete(req, now_ms),
        }
    }

    fn audit(&self, req: &Request, now_ms: u64, name: Name, status: Status) -> AuditEntry {
        AuditEntry {
            at_ms: now_ms,
            actor: req.actor,
            verb: req.verb,
            kind: req.kind,
            namespace: req.namespace.clone(),
            name,
            status,
            generate_name: None,
            resource_version: None,
            items: None,
            client_status: None,
            cause: None,
            status_write: req.options.status,
            injected: false,
        }
    }

    /// An injected failure of `req` (`fail_next`): a 500 or a timeout writes
    /// nothing; a committed timeout writes, and the client sees 504 Timeout.
    pub(crate) fn handle_failing(&mut self, req: &Request, now_ms: u64, rng: &mut Rng, mode: FailMode) -> Handled {
        let mut handled = self.fail(req, now_ms, rng, mode);
        handled.audit.injected = true;
        handled
    }

    fn fail(&mut self, req: &Request, now_ms: u64, rng: &mut Rng, mode: FailMode) -> Handled {
        match mode {
            FailMode::InternalError | FailMode::Timeout | FailMode::Conflict => {
                let status = match mode {
                    FailMode::Timeout => Status::TIMEOUT,
                    FailMode::Conflict => Status::CONFLICT,
                    _ => Status::INTERNAL_ERROR,
                };
                self.failed(req, now_ms, req.display_name().into(), status)
            }
            FailMode::TimeoutCommitted => {
                let mut outcome = self.handle(req, now_ms, rng);
                if outcome.audit.status.is_success() {
                    outcome.audit.client_status = Some(Status::TIMEOUT);
                    outcome.response.status = Status::TIMEOUT;
                }
                outcome
            }
        }
    }

    fn failed(&self, req: &Request, now_ms: u64, name: Name, status: Status) -> Handled {
        Handled {
            response: Response { status, object: None, items: Vec::new(), list_rv: 0 },
            audit: self.audit(req, now_ms, name, status),
            event: None,
        }
    }

    fn create(&mut self, req: &Request, now_ms: u64, rng: &mut Rng) -> Handled {
        let body = req.body.as_ref().expect("a create carries a body");
        let (name, generated) = match (&body.name, &body.generate_name) {
            (Some(n), _) => (n.clone(), None),
            (None, Some(prefix)) => {
                // Since 1.32 the server retries a colliding generated name itself.
                let mut name = generate_name(prefix, rng);
                for _ in 1..GENERATE_NAME_ATTEMPTS {
                    if self.get_named(body.kind(), &body.namespace, &name).is_none() {
                        break;
                    }
                    name = generate_name(prefix, rng);
                }
                (name, Some(prefix.clone()))
            }
            (None, None) => (Name::default(), None),
        };
        if let Some(existing) = self.get_named(body.kind(), &body.namespace, &name) {
            let (being_deleted, generated_name) = (existing.is_terminating(), generated.is_some());
            let mut out = self.failed(req, now_ms, name, Status::ALREADY_EXISTS);
            out.audit.cause =
                (being_deleted || generated_name).then_some(Cause::AlreadyExists { being_deleted, generated: generated_name });
            out.audit.generate_name = generated;
            return out;
        }
        self.resource_version += 1;
        self.next_uid += 1;
        let object = ObjectRc::new(Object {
            namespace: body.namespace.clone(),
            name: name.clone(),
            uid: self.next_uid,
            resource_version: self.resource_version,
            creation_rv: self.resource_version,
            generate_name: generated.clone(),
            labels: body.labels.clone(),
            annotations: body.annotations.clone(),
            owner_references: body.owner_references.clone(),
            finalizers: body.finalizers.clone(),
            generation: 1,
            deletion_timestamp_ms: None,
            deletion_grace_period_ms: None,
            spec: body.spec.clone(),
            status: (body.kind() == Kind::ReplicaSet).then(ReplicaSetStatus::default),
        });
        self.insert(object.clone());
        let mut out = self.committed(req, now_ms, Status::CREATED, object, EventType::Added);
        out.audit.generate_name = generated;
        out
    }

    /// The outcome of a write that committed at the current resourceVersion:
    /// the answer, the audit line, and the event every watch will carry.
    fn committed(&self, req: &Request, now_ms: u64, status: Status, object: ObjectRc, event_type: EventType) -> Handled {
        let mut audit = self.audit(req, now_ms, object.name.clone(), status);
        audit.resource_version = Some(self.resource_version);
        Handled {
            response: Response { status, object: Some(object.clone()), items: Vec::new(), list_rv: 0 },
            audit,
            event: Some(WatchEvent { event_type, object }),
        }
    }

    fn read(&self, req: &Request, now_ms: u64) -> Handled {
        let name = req.name.clone().unwrap_or_default();
        match self.get_named(req.kind, &req.namespace, &name) {
            None => self.failed(req, now_ms, name, Status::NOT_FOUND),
            Some(o) => {
                let mut audit = self.audit(req, now_ms, name, Status::OK);
                audit.resource_version = Some(o.resource_version);
                Handled {
                    response: Response { status: Status::OK, object: Some(o.clone()), items: Vec::new(), list_rv: 0 },
                    audit,
                    event: None,
                }
            }
        }
    }

    fn list_request(&self, req: &Request, now_ms: u64) -> Handled {
        // An empty namespace lists every namespace, as an informer's LIST does.
        let items = if req.namespace.is_empty() { self.list_all(req.kind) } else { self.list(req.kind, &req.namespace) };
        let mut audit = self.audit(req, now_ms, Name::default(), Status::OK);
        audit.resource_version = Some(self.resource_version);
        audit.items = Some(items.len() as u32);
        Handled { response: Response { status: Status::OK, object: None, items, list_rv: self.resource_version }, audit, event: None }
    }

    /// The named object, if the request's preconditions hold: else the 404
    /// or 409 outcome.
    fn current(&self, req: &Request, now_ms: u64) -> Result<ObjectRc, Box<Handled>> {
        let name = req.name.as_deref().unwrap_or_default();
        let Some(old) = self.get_named(req.kind, &req.namespace, name).cloned() else {
            return Err(Box::new(self.failed(req, now_ms, name.into(), Status::NOT_FOUND)));
        };
        // `(*Preconditions).Check`: the UID first, then the resourceVersion;
        // an update's stale resourceVersion is the optimistic lock's conflict.
        let cause = match (req.options.uid, req.options.resource_version) {
            (Some(asked), _) if asked != old.uid => Some(Cause::UidPrecondition { asked, found: old.uid }),
            (_, Some(asked)) if asked != old.resource_version => {
                (req.verb == Verb::Delete).then_some(Cause::ResourceVersionPrecondition { asked, found: old.resource_version })
            }
            _ => return Ok(old),
        };
        let mut out = self.failed(req, now_ms, name.into(), Status::CONFLICT);
        out.audit.cause = cause;
        Err(Box::new(out))
    }

    /// Commit `object` as the new version of `old` at the next resourceVersion.
    fn replace(&mut self, req: &Request, now_ms: u64, old: &Object, object: Object) -> Handled {
        self.resource_version += 1;
        let object = ObjectRc::new(Object { resource_version: self.resource_version, ..object });
        // The same key: the new version takes the old one's place on its shelf.
        self.index(old, false);
        self.index(&object, true);
        self.objects[object.kind().index()].insert(object.clone());
        self.committed(req, now_ms, Status::OK, object, EventType::Modified)
    }

    /// Take `old` out of the store for good, at the next resourceVersion.
    fn erase(&mut self, req: &Request, now_ms: u64, old: &Object) -> Handled {
        self.remove(old);
        self.resource_version += 1;
        let last = ObjectRc::new(Object { resource_version: self.resource_version, ..old.clone() });
        self.committed(req, now_ms, Status::OK, last, EventType::Deleted)
    }

    /// An update, or `UpdateStatus` (`options.status`): the spec, labels,
    /// ownerReferences and finalizers of the body, or the status alone. A
    /// Terminating object whose last finalizer goes, with no grace left, is gone.
    fn update(&mut self, req: &Request, now_ms: u64) -> Handled {
        let old = match self.current(req, now_ms) {
            Ok(old) => old,
            Err(out) => return *out,
        };
        if let Some(status) = req.options.status {
            let object = Object { status: Some(status), ..(*old).clone() };
            if object == *old {
                return self.unchanged(req, now_ms, old);
            }
            return self.replace(req, now_ms, &old, object);
        }
        let body = req.body.as_ref().expect("an update carries a body");
        let generation = if body.spec != old.spec { old.generation + 1 } else { old.generation };
        let object = Object {
            labels: body.labels.clone(),
            annotations: body.annotations.clone(),
            owner_references: body.owner_references.clone(),
            finalizers: body.finalizers.clone(),
            spec: body.spec.clone(),
            generation,
            ..(*old).clone()
        };
        if object == *old {
            return self.unchanged(req, now_ms, old);
        }
        if object.is_terminating() && object.finalizers.is_empty() && object.deletion_grace_period_ms == Some(0) {
            return self.erase(req, now_ms, &object);
        }
        self.replace(req, now_ms, &old, object)
    }

    /// A write that changes nothing: 200 with the object as it is, no new
    /// resourceVersion and no watch event. `(*store).GuaranteedUpdate`
    /// (k8s.io/apiserver v0.36.3 pkg/storage/etcd3/store.go) short-circuits
    /// when the new encoding equals the stored one.
    fn unchanged(&self, req: &Request, now_ms: u64, old: ObjectRc) -> Handled {
        let mut audit = self.audit(req, now_ms, old.name.clone(), Status::OK);
        audit.resource_version = Some(old.resource_version);
        Handled { response: Response { status: Status::OK, object: Some(old), items: Vec::new(), list_rv: 0 }, audit, event: None }
    }

    /// A delete. An object with finalizers, or a pod with a grace period, is
    /// only marked: `deletionTimestamp` set, a MODIFIED event, and it stays
    /// (Terminating) until the kubelet's delete with no grace and the
    /// finalizers' removal. Foreground and orphan propagation add their
    /// finalizer first. Deleting a Terminating object again changes nothing,
    /// unless it shortens the grace to 0.
    fn delete(&mut self, req: &Request, now_ms: u64) -> Handled {
        let old = match self.current(req, now_ms) {
            Ok(old) => old,
            Err(out) => return *out,
        };
        let default_grace = if old.kind() == crate::sim::object::Kind::Pod { self.pod_grace_period_ms } else { 0 };
        let grace = req.options.grace_period_ms.unwrap_or(default_grace);
        if old.is_terminating() {
            if grace == 0 && old.deletion_grace_period_ms != Some(0) {
                if old.finalizers.is_empty() {
                    return self.erase(req, now_ms, &old);
                }
                let object = Object { deletion_grace_period_ms: Some(0), ..(*old).clone() };
                return self.replace(req, now_ms, &old, object);
            }
            return self.unchanged(req, now_ms, old);
        }
        let mut finalizers = old.finalizers.clone();
        let added = match req.options.propagation {
            Some(Propagation::Foreground) => Some(crate::sim::object::FINALIZER_FOREGROUND),
            Some(Propagation::Orphan) => Some(crate::sim::object::FINALIZER_ORPHAN),
            Some(Propagation::Background) | None => None,
        };
        if let Some(f) = added.filter(|f| !finalizers.iter().any(|x| x == f)) {
            finalizers.push(f.to_string());
        }
        if grace == 0 && finalizers.is_empty() {
            return self.erase(req, now_ms, &old);
        }
        let object =
            Object { finalizers, deletion_timestamp_ms: Some(now_ms + grace), deletion_grace_period_ms: Some(grace), ..(*old).clone() };
        self.replace(req, now_ms, &old, object)
    }

    fn insert(&mut self, object: ObjectRc) {
        self.index(&object, true);
        let kind = object.kind();
        let i = kind.index();
        if self.objects[i].insert(object).is_none() {
            self.live[i] += 1;
            self.peak_live[i] = self.peak_live[i].max(self.live[i]);
            self.seen[i] = Some(kind);
        }
    }

    fn remove(&mut self, object: &Object) {
        self.index(object, false);
        let i = object.kind().index();
        if self.objects[i].remove(&object.namespace, &object.name).is_some() {
            self.live[i] -= 1;
        }
    }

    /// Count `object` in (`add`) or out of the indexes beside the store:
    /// its labels, its controller's children, the kind's uncontrolled objects.
    fn index(&mut self, object: &Object, add: bool) {
        let kind = object.kind();
        for (k, v) in object.labels.iter() {
            let at = |l: &LabelKey| label_order(l, kind, &object.namespace, k, v);
            match (self.label_counts.get_mut_by(at), add) {
                (Some(n), true) => *n += 1,
                (None, true) => self.label_counts.insert((kind, object.namespace.clone(), k.clone(), v.clone()), 1),
                (Some(n), false) => {
                    *n -= 1;
                    if *n == 0 {
                        self.label_counts.remove_by(at);
                    }
                }
                (None, false) => {}
            }
        }
        match object.controller_ref() {
            Some(r) => {
                let key = (kind, r.uid);
                let slot = usize::from(object.is_terminating());
                match (self.by_controller.get_mut(&key), add) {
                    (Some(n), true) => n[slot] += 1,
                    (None, true) => self.by_controller.insert(key, if slot == 0 { [1, 0] } else { [0, 1] }),
                    (Some(n), false) => {
                        n[slot] -= 1;
                        if *n == [0, 0] {
                            self.by_controller.remove(&key);
                        }
                    }
                    (None, false) => {}
                }
            }
            None if add => self.uncontrolled[kind.index()] += 1,
            None => self.uncontrolled[kind.index()] -= 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::object::{ObjectTemplate, Spec};

    fn cm(name: Option<&str>, generate: Option<&str>) -> ObjectTemplate {
        ObjectTemplate {
            namespace: "academy-lab".into(),
            name: name.map(Into::into),
            generate_name: generate.map(Into::into),
            labels: Default::default(),
            annotations: Default::default(),
            owner_references: Default::default(),
            finalizers: Vec::new(),
            spec: Spec::ConfigMap,
        }
    }

    #[test]
    fn create_twice_is_409_already_exists_with_the_real_message() {
        let mut api = ApiServer::new();
        let mut rng = Rng::new(1);
        let first = api.handle(&Request::create(Actor::Kubectl, cm(Some("beta-voice-0"), None)), 10, &mut rng);
        assert_eq!(first.response.status, Status::CREATED);
        assert_eq!(first.audit.resource_version, Some(1));
        assert!(first.event.is_some());
        let second = api.handle(&Request::create(Actor::Kubectl, cm(Some("beta-voice-0"), None)), 20, &mut rng);
        assert_eq!(second.response.status.code, 409);
        assert_eq!(second.response.status.reason, Some(Reason::AlreadyExists));
        assert_eq!(second.audit.message(), "configmaps \"beta-voice-0\" already exists");
        assert!(second.event.is_none());
        assert_eq!(api.resource_version(), 1, "a failed write commits nothing");
    }

    #[test]
    fn delete_missing_is_404_not_found_with_the_real_message() {
        let mut api = ApiServer::new();
        let mut rng = Rng::new(1);
        let out = api.handle(&Request::delete(Actor::Kubectl, Kind::ConfigMap, &ObjectKey::new("academy-lab", "x")), 0, &mut rng);
        assert_eq!(out.response.status, Status::NOT_FOUND);
        assert_eq!(out.audit.message(), "configmaps \"x\" not found");
    }

    #[test]
    fn generate_name_uses_the_real_alphabet_and_length() {
        let mut api = ApiServer::new();
        let mut rng = Rng::new(42);
        let mut names = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let out = api.handle(&Request::create(Actor::Kubectl, cm(None, Some("beta-voice-"))), 0, &mut rng);
            assert_eq!(out.response.status, Status::CREATED, "two creates with one generateName are two objects");
            let name = out.response.object.unwrap().name.clone();
            let suffix = name.strip_prefix("beta-voice-").unwrap();
            assert_eq!(suffix.len(), 5);
            assert!(suffix.bytes().all(|b| GENERATE_NAME_ALPHABET.contains(&b)), "{name}");
            names.insert(name);
        }
        assert_eq!(names.len(), 200);
        assert_eq!(api.live()[&Kind::ConfigMap], 200);
    }

    #[test]
    fn generate_name_cuts_the_prefix_to_58() {
        let mut rng = Rng::new(3);
        let long = "x".repeat(80);
        let name = generate_name(&long, &mut rng);
        assert_eq!(name.len(), 63);
        assert!(name.starts_with(&"x".repeat(58)));
        // Characters, not bytes: a prefix of two-byte letters keeps 58 of them.
        let wide = generate_name(&"é".repeat(80), &mut rng);
        assert_eq!(wide.chars().count(), 63);
        assert!(wide.starts_with(&"é".repeat(58)) && !wide[116..].contains('é'));
    }

    #[test]
    fn every_write_bumps_the_global_resource_version() {
        let mut api = ApiServer::new();
        let mut rng = Rng::new(1);
        api.handle(&Request::create(Actor::Kubectl, cm(Some("a"), None)), 0, &mut rng);
        api.handle(&Request::create(Actor::Kubectl, cm(Some("b"), None)), 0, &mut rng);
        // A write that changes the object (one that does not is `test_guaranteed_update_same_data`).
        let labelled =
            ObjectTemplate { labels: std::rc::Rc::new(BTreeMap::from([("tier".to_string(), "web".to_string())])), ..cm(Some("a"), None) };
        let up = api.handle(&Request::update(Actor::Kubectl, labelled), 0, &mut rng);
        assert_eq!(up.audit.resource_version, Some(3));
        assert_eq!(up.event.unwrap().event_type, EventType::Modified);
        let del = api.handle(&Request::delete(Actor::Kubectl, Kind::ConfigMap, &ObjectKey::new("academy-lab", "b")), 0, &mut rng);
        assert_eq!(del.event.unwrap().object.resource_version, 4);
        let list = api.handle(&Request::list(Actor::Kubectl, Kind::ConfigMap, "academy-lab"), 0, &mut rng);
        assert_eq!(list.response.list_rv, 4);
        assert_eq!(list.response.items.len(), 1);
        assert_eq!(api.peak_live()[&Kind::ConfigMap], 2);
        assert_eq!(api.live()[&Kind::ConfigMap], 1);
    }
    fn rs_template(replicas: u32) -> ObjectTemplate {
        ObjectTemplate { spec: Spec::ReplicaSet { replicas }, ..cm(Some("web"), None) }
    }

    /// An update or an `UpdateStatus` from a stale read is `409 Conflict`
    /// with `OptimisticLockErrorMsg`; from the current one it commits, and a
    /// status write leaves the spec and the generation alone.
    #[test]
    fn a_write_from_a_stale_read_is_409_conflict() {
        let mut api = ApiServer::new();
        let mut rng = Rng::new(1);
        let created = api.handle(&Request::create(Actor::Kubectl, rs_template(3)), 0, &mut rng).response.object.unwrap();
        assert_eq!((created.generation, created.status), (1, Some(ReplicaSetStatus::default())));
        let status = ReplicaSetStatus { replicas: 3, observed_generation: 1 };
        let ok = api.handle(&Request::update_status(Actor::Kubectl, &created, status), 0, &mut rng);
        assert_eq!(ok.response.status, Status::OK);
        let written = ok.response.object.unwrap();
        assert_eq!((written.status, written.generation, &written.spec), (Some(status), 1, &Spec::ReplicaSet { replicas: 3 }));
        let stale = api.handle(&Request::update_status(Actor::Kubectl, &created, status), 0, &mut rng);
        assert_eq!(stale.response.status, Status::CONFLICT);
        assert_eq!(stale.response.status.label(), "409 Conflict");
        assert_eq!(
            stale.audit.message(),
            "Operation cannot be fulfilled on replicasets.apps \"web\": the object has been modified; please apply your changes to the latest version and try again"
        );
        assert!(stale.event.is_none());
        let scaled = api.handle(&Request::update(Actor::Kubectl, rs_template(5)), 0, &mut rng).response.object.unwrap();
        assert_eq!((scaled.generation, scaled.status), (2, Some(status)), "a spec change bumps the generation, keeps the status");
    }

    /// `Preconditions.UID`: a delete aimed at an object that was replaced
    /// under its name is a 409 naming both UIDs, and deletes nothing.
    #[test]
    fn a_delete_with_another_uid_is_409_precondition_failed() {
        let mut api = ApiServer::new();
        let mut rng = Rng::new(1);
        let a = api.handle(&Request::create(Actor::Kubectl, cm(Some("a"), None)), 0, &mut rng).response.object.unwrap();
        let key = a.key();
        let req =
            Request::delete(Actor::GarbageCollector, Kind::ConfigMap, &key).with(Options { uid: Some(a.uid + 7), ..Options::default() });
        let out = api.handle(&req, 0, &mut rng);
        assert_eq!(out.response.status, Status::CONFLICT);
        assert_eq!(
            out.audit.message(),
            format!(
                "Operation cannot be fulfilled on configmaps \"a\": Precondition failed: UID in precondition: {}, UID in object meta: {}",
                a.uid + 7,
                a.uid
            )
        );
        assert!(api.get(Kind::ConfigMap, &key).is_some());
        let req = Request::delete(Actor::GarbageCollector, Kind::ConfigMap, &key).with(Options { uid: Some(a.uid), ..Options::default() });
        assert_eq!(api.handle(&req, 0, &mut rng).event.unwrap().event_type, EventType::Deleted);
    }

    /// `(*Preconditions).Check` checks the UID before the resourceVersion,
    /// and a delete's stale resourceVersion is a precondition's 409 in its
    /// own words, not the optimistic lock's (k8s.io/apiserver v0.36.3
    /// pkg/storage/interfaces.go); an update's stale resourceVersion keeps
    /// `OptimisticLockErrorMsg`.
    #[test]
    fn preconditions_check_the_uid_then_the_resource_version() {
        let mut api = ApiServer::new();
        let mut rng = Rng::new(1);
        let a = api.handle(&Request::create(Actor::Kubectl, cm(Some("a"), None)), 0, &mut rng).response.object.unwrap();
        let key = a.key();
        let delete = |uid, rv| {
            Request::delete(Actor::GarbageCollector, Kind::ConfigMap, &key).with(Options {
                uid,
                resource_version: rv,
                ..Options::default()
            })
        };
        let both = api.handle(&delete(Some(a.uid + 1), Some(a.resource_version + 1)), 0, &mut rng);
        assert_eq!(both.response.status, Status::CONFLICT);
        assert_eq!(both.audit.cause, Some(Cause::UidPrecondition { asked: a.uid + 1, found: a.uid }), "the UID is checked first");
        let rv = api.handle(&delete(Some(a.uid), Some(a.resource_version + 1)), 0, &mut rng);
        assert_eq!(
            rv.audit.message(),
            format!(
                "Operation cannot be fulfilled on configmaps \"a\": Precondition failed: ResourceVersion in precondition: {}, ResourceVersion in object meta: {}",
                a.resource_version + 1,
                a.resource_version
            )
        );
        assert!(api.get(Kind::ConfigMap, &key).is_some(), "a failed precondition deletes nothing");
        let update = Request::update(Actor::Kubectl, cm(Some("a"), None))
            .with(Options { resource_version: Some(a.resource_version + 1), ..Options::default() });
        let stale = api.handle(&update, 0, &mut rng);
        assert_eq!((stale.response.status, stale.audit.cause), (Status::CONFLICT, None));
        assert!(stale
            .audit
            .message()
            .ends_with("the object has been modified; please apply your changes to the latest version and try again"));
        let fresh = api.handle(&delete(Some(a.uid), Some(a.resource_version)), 0, &mut rng);
        assert_eq!(fresh.event.unwrap().event_type, EventType::Deleted);
    }

    /// Ported from k8s.io/apiserver v0.36.3 `TestGuaranteedUpdate`
    /// (pkg/storage/testing/store_tests.go, `RunTestGuaranteedUpdate`), its
    /// case "same data" (`expectNoUpdate`): a write of what is stored is a
    /// 200 that keeps the resourceVersion and sends no event; a write that
    /// changes it does both. The same for `UpdateStatus`.
    #[test]
    fn test_guaranteed_update_same_data() {
        let mut api = ApiServer::new();
        let mut rng = Rng::new(1);
        let rs = api.handle(&Request::create(Actor::Kubectl, rs_template(3)), 0, &mut rng).response.object.unwrap();
        let same = api.handle(&Request::update(Actor::Kubectl, rs_template(3)), 10, &mut rng);
        assert_eq!(same.response.status, Status::OK);
        assert_eq!((same.audit.resource_version, same.event.is_none()), (Some(rs.resource_version), true));
        assert_eq!(api.resource_version(), rs.resource_version, "nothing committed");
        let status = ReplicaSetStatus { replicas: 3, observed_generation: 1 };
        let write = |api: &mut ApiServer, rng: &mut Rng| {
            let req = Request::update(Actor::Kubectl, rs_template(3)).with(Options { status: Some(status), ..Options::default() });
            api.handle(&req, 20, rng)
        };
        let first = write(&mut api, &mut rng);
        assert_eq!(first.audit.resource_version, Some(rs.resource_version + 1));
        assert!(first.event.is_some(), "a status that changes is written");
        let second = write(&mut api, &mut rng);
        assert_eq!(
            (second.response.status, second.audit.resource_version, second.event.is_none()),
            (Status::OK, Some(rs.resource_version + 1), true)
        );
        let scaled = api.handle(&Request::update(Actor::Kubectl, rs_template(4)), 30, &mut rng);
        assert_eq!(scaled.audit.resource_version, Some(rs.resource_version + 2));
        assert!(scaled.event.is_some());
    }

    /// Ported from k8s.io/apiserver v0.36.3 pkg/registry/generic/registry/store_test.go
    /// `TestStoreCreate`: a create of a name that exists is AlreadyExists;
    /// while that object is being deleted (its grace period running), the
    /// message says so ("object is being deleted: ", `(*Store).create`).
    #[test]
    fn test_store_create() {
        let mut api = ApiServer::new();
        api.pod_grace_period_ms = 50_000;
        let mut rng = Rng::new(1);
        let pod = ObjectTemplate { namespace: "test".into(), spec: Spec::Pod, ..cm(Some("foo"), None) };
        assert_eq!(api.handle(&Request::create(Actor::Kubectl, pod.clone()), 0, &mut rng).response.status, Status::CREATED);
        let again = api.handle(&Request::create(Actor::Kubectl, pod.clone()), 10, &mut rng);
        assert_eq!(again.response.status.reason, Some(Reason::AlreadyExists));
        assert_eq!(again.audit.message(), "pods \"foo\" already exists");
        let deleted = api.handle(&Request::delete(Actor::Kubectl, Kind::Pod, &ObjectKey::new("test", "foo")), 20, &mut rng);
        assert_eq!(deleted.event.unwrap().event_type, EventType::Modified, "deleted gracefully");
        let before_grace = api.handle(&Request::create(Actor::Kubectl, pod), 30, &mut rng);
        assert_eq!(before_grace.response.status.reason, Some(Reason::AlreadyExists));
        assert_eq!(before_grace.audit.message(), "object is being deleted: pods \"foo\" already exists");
    }

    /// A generated name that meets an existing object on every attempt is
    /// AlreadyExists in `NewGenerateNameConflict`'s words (apimachinery
    /// v0.36.3 pkg/api/errors/errors.go, by `rest.CheckGeneratedNameError`).
    #[test]
    fn an_exhausted_generate_name_says_the_server_could_not_make_a_unique_name() {
        let mut api = ApiServer::new();
        let mut taken = Rng::new(9);
        // Take every name the server will try with this seed.
        for _ in 0..GENERATE_NAME_ATTEMPTS {
            let name = generate_name("x-", &mut taken);
            api.handle(&Request::create(Actor::Kubectl, cm(Some(&name), None)), 0, &mut Rng::new(1));
        }
        let out = api.handle(&Request::create(Actor::Kubectl, cm(None, Some("x-"))), 0, &mut Rng::new(9));
        assert_eq!(out.response.status.reason, Some(Reason::AlreadyExists));
        let name = &out.audit.name;
        assert_eq!(
            out.audit.message(),
            format!("configmaps \"{name}\" already exists, the server was not able to generate a unique name for the object")
        );
    }

    /// A pod with a grace period is marked, not removed: MODIFIED with a
    /// deletionTimestamp; a second delete changes nothing; the kubelet's
    /// delete with no grace removes it.
    #[test]
    fn a_graceful_delete_marks_the_pod_terminating() {
        let mut api = ApiServer::new();
        api.pod_grace_period_ms = 30_000;
        let mut rng = Rng::new(1);
        let pod = ObjectTemplate { spec: Spec::Pod, ..cm(Some("p"), None) };
        api.handle(&Request::create(Actor::Kubectl, pod), 0, &mut rng);
        let key = ObjectKey::new("academy-lab", "p");
        let first = api.handle(&Request::delete(Actor::Kubectl, Kind::Pod, &key), 1_000, &mut rng);
        let ev = first.event.unwrap();
        assert_eq!(ev.event_type, EventType::Modified);
        assert_eq!((ev.object.deletion_timestamp_ms, ev.object.deletion_grace_period_ms), (Some(31_000), Some(30_000)));
        assert_eq!(api.live_count(Kind::Pod), 1, "Terminating pods are still in the cluster");
        let again = api.handle(&Request::delete(Actor::Kubectl, Kind::Pod, &key), 2_000, &mut rng);
        assert_eq!((again.response.status, again.event.is_none()), (Status::OK, true));
        let kubelet = Request::delete(Actor::Kubelet, Kind::Pod, &key).with(Options { grace_period_ms: Some(0), ..Options::default() });
        assert_eq!(api.handle(&kubelet, 31_000, &mut rng).event.unwrap().event_type, EventType::Deleted);
        assert_eq!(api.live_count(Kind::Pod), 0);
    }

    /// Foreground propagation adds `foregroundDeletion` and leaves the owner
    /// Terminating; removing the finalizer by update removes the owner.
    #[test]
    fn a_finalizer_holds_an_owner_until_it_is_removed() {
        let mut api = ApiServer::new();
        let mut rng = Rng::new(1);
        api.handle(&Request::create(Actor::Kubectl, rs_template(2)), 0, &mut rng);
        let key = ObjectKey::new("academy-lab", "web");
        let fg = Options { propagation: Some(Propagation::Foreground), ..Options::default() };
        let marked = api.handle(&Request::delete(Actor::Kubectl, Kind::ReplicaSet, &key).with(fg), 5, &mut rng).event.unwrap().object;
        assert_eq!(marked.finalizers, vec![crate::sim::object::FINALIZER_FOREGROUND.to_string()]);
        assert_eq!(marked.deletion_timestamp_ms, Some(5));
        let mut body = rs_template(2);
        body.finalizers.clear();
        let out = api.handle(&Request::update(Actor::GarbageCollector, body), 9, &mut rng);
        assert_eq!(out.event.unwrap().event_type, EventType::Deleted);
        assert!(api.get(Kind::ReplicaSet, &key).is_none());
    }
}
