//! The apiserver: the cluster's truth, one global resourceVersion, the real
//! status codes and messages, `generateName`, and the watch events each write
//! produces.
//!
//! A simplification of the real apiserver: no admission, no validation beyond
//! what the labs touch, no graceful deletion (a delete removes the object at
//! once, as it does for ConfigMaps and for pods with a zero grace period), and
//! no watch-cache compaction, so a watch never sees `410 Expired` unless a
//! scenario asks for a relist.

use super::object::{Kind, Object, ObjectKey, ObjectRc, ObjectTemplate};
use super::rng::Rng;
use super::sorted::SortedMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

/// The HTTP verbs an audit log shows, in the CLI report's spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Verb {
    Create,
    Get,
    List,
    Update,
    Delete,
}

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Create => "create",
            Verb::Get => "get",
            Verb::List => "list",
            Verb::Update => "update",
            Verb::Delete => "delete",
        }
    }
}

/// Which controller a request or an informer belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ControllerKind {
    /// The lab's Ensemble operator (lab 1).
    Ensemble,
    /// The upstream ReplicaSet controller (lab 1, step 4).
    ReplicaSet,
    /// Lab 2's one-shot pruner.
    Pruner,
}

impl ControllerKind {
    /// The name the controller goes by in logs and the audit log's user field.
    pub fn actor_name(self) -> &'static str {
        match self {
            ControllerKind::Ensemble => "ensemble-controller",
            ControllerKind::ReplicaSet => "replicaset-controller",
            ControllerKind::Pruner => "pruner",
        }
    }
}

/// Who sent a request: the audit log's `user` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "actor", content = "of")]
pub enum Actor {
    /// The scenario's own actions, as a person with kubectl.
    Kubectl,
    /// A controller's reconcile.
    Controller(ControllerKind),
    /// A controller's informer (its LIST).
    Informer(ControllerKind),
    /// The garbage collector, and its informer's LIST.
    GarbageCollector,
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Kubectl => f.write_str("kubectl"),
            Actor::Controller(c) => f.write_str(c.actor_name()),
            Actor::Informer(c) => write!(f, "{} (informer)", c.actor_name()),
            Actor::GarbageCollector => f.write_str("garbage-collector"),
        }
    }
}

/// A request to the apiserver, as data: controllers return these, the world sends them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Request {
    pub verb: Verb,
    pub kind: Kind,
    pub namespace: String,
    /// The object's name; `None` for a list, or for a create that uses `generateName`.
    pub name: Option<String>,
    /// The body of a create or an update.
    pub body: Option<ObjectTemplate>,
    pub actor: Actor,
}

impl Request {
    pub fn create(actor: Actor, body: ObjectTemplate) -> Self {
        Request {
            verb: Verb::Create,
            kind: body.kind(),
            namespace: body.namespace.clone(),
            name: body.name.clone(),
            body: Some(body),
            actor,
        }
    }

    pub fn update(actor: Actor, body: ObjectTemplate) -> Self {
        Request {
            verb: Verb::Update,
            kind: body.kind(),
            namespace: body.namespace.clone(),
            name: body.name.clone(),
            body: Some(body),
            actor,
        }
    }

    pub fn get(actor: Actor, kind: Kind, key: &ObjectKey) -> Self {
        Request { verb: Verb::Get, kind, namespace: key.namespace.clone(), name: Some(key.name.clone()), body: None, actor }
    }

    pub fn delete(actor: Actor, kind: Kind, key: &ObjectKey) -> Self {
        Request { verb: Verb::Delete, kind, namespace: key.namespace.clone(), name: Some(key.name.clone()), body: None, actor }
    }

    pub fn list(actor: Actor, kind: Kind, namespace: &str) -> Self {
        Request { verb: Verb::List, kind, namespace: namespace.to_string(), name: None, body: None, actor }
    }

    /// The name as a person would read it in a log: `prefix*` for generateName.
    pub fn display_name(&self) -> String {
        match (&self.name, &self.body) {
            (Some(n), _) => n.clone(),
            (None, Some(b)) => b.display_name(),
            (None, None) => String::new(),
        }
    }
}

/// The `metav1.StatusReason` of a failed request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Reason {
    AlreadyExists,
    NotFound,
    /// 500: a failure on the server, nothing written.
    InternalError,
    /// 504: no answer in time; the write may or may not have happened.
    Timeout,
}

/// How an injected request failure goes (the `fail_next` action).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub enum FailMode {
    /// `500 InternalError`: nothing is written.
    #[serde(rename = "500")]
    InternalError,
    /// `504 Timeout`: nothing is written.
    #[serde(rename = "timeout")]
    Timeout,
    /// `504 Timeout`, but the write *was* committed: the ambiguous failure.
    #[serde(rename = "timeout_committed")]
    TimeoutCommitted,
}

impl FailMode {
    /// As a scenario writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            FailMode::InternalError => "500",
            FailMode::Timeout => "timeout",
            FailMode::TimeoutCommitted => "timeout_committed",
        }
    }
}

/// An HTTP status with its reason: what `apierrors.IsAlreadyExists` and friends test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Status {
    pub code: u16,
    pub reason: Option<Reason>,
}

impl Status {
    pub const OK: Status = Status { code: 200, reason: None };
    pub const CREATED: Status = Status { code: 201, reason: None };
    pub const NOT_FOUND: Status = Status { code: 404, reason: Some(Reason::NotFound) };
    pub const ALREADY_EXISTS: Status = Status { code: 409, reason: Some(Reason::AlreadyExists) };
    pub const INTERNAL_ERROR: Status = Status { code: 500, reason: Some(Reason::InternalError) };
    pub const TIMEOUT: Status = Status { code: 504, reason: Some(Reason::Timeout) };

    pub fn is_success(self) -> bool {
        self.code < 300
    }

    /// `201 Created`, `409 AlreadyExists`: as the Timeline panel shows a status.
    pub fn label(self) -> &'static str {
        match (self.code, self.reason) {
            (200, _) => "200 OK",
            (201, _) => "201 Created",
            (404, _) => "404 NotFound",
            (409, _) => "409 AlreadyExists",
            (500, _) => "500 InternalError",
            (504, _) => "504 Timeout",
            _ => "error",
        }
    }
}

/// The apiserver's answer.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: Status,
    /// The object created, read, updated or deleted.
    pub object: Option<ObjectRc>,
    /// A list's items, in key order.
    pub items: Vec<ObjectRc>,
    /// A list's collection resourceVersion: a watch from here misses nothing.
    pub list_rv: u64,
}

/// One line of the audit log: every request, whatever its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuditEntry {
    pub at_ms: u64,
    pub actor: Actor,
    pub verb: Verb,
    pub kind: Kind,
    pub namespace: String,
    /// The resolved name (the generated one, for generateName); empty for a list.
    pub name: String,
    pub status: Status,
    /// The name was generated by the server from this prefix.
    pub generate_name: Option<String>,
    /// The resourceVersion the write committed at, or the list's.
    pub resource_version: Option<u64>,
    /// How many items a list returned.
    pub items: Option<u32>,
    /// What the client was told, when it is not what happened: a committed
    /// write whose answer was lost (`504 Timeout`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_status: Option<Status>,
}

impl AuditEntry {
    /// The message the apiserver returns (`apimachinery/pkg/api/errors/errors.go`).
    pub fn message(&self) -> String {
        message(self.status, self.kind, &self.name)
    }

    /// The status the client saw: what it acts on.
    pub fn seen_status(&self) -> Status {
        self.client_status.unwrap_or(self.status)
    }

    /// The message the client saw: a lost answer's timeout, or the apiserver's own.
    pub fn seen_message(&self) -> String {
        message(self.seen_status(), self.kind, &self.name)
    }
}

/// A status's message, in apimachinery's words (`errors.go`: `NewAlreadyExists`,
/// `NewNotFound`, `NewInternalError`, `NewTimeoutError`).
fn message(status: Status, kind: Kind, name: &str) -> String {
    let resource = kind.resource();
    match status.reason {
        Some(Reason::AlreadyExists) => format!("{resource} \"{name}\" already exists"),
        Some(Reason::NotFound) => format!("{resource} \"{name}\" not found"),
        Some(Reason::InternalError) => "Internal error occurred: an injected fault".to_string(),
        Some(Reason::Timeout) => "Timeout: request did not complete within requested timeout - context deadline exceeded".to_string(),
        None => String::new(),
    }
}

/// ADDED / MODIFIED / DELETED, as a watch stream spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub enum EventType {
    #[serde(rename = "ADDED")]
    Added,
    #[serde(rename = "MODIFIED")]
    Modified,
    #[serde(rename = "DELETED")]
    Deleted,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Added => "ADDED",
            EventType::Modified => "MODIFIED",
            EventType::Deleted => "DELETED",
        }
    }
}

/// A change committed to the store, to be fanned out to every watch.
#[derive(Debug, Clone)]
pub struct WatchEvent {
    pub event_type: EventType,
    /// The new version; for DELETED, the last state at the deletion's resourceVersion.
    pub object: ObjectRc,
}

/// The alphabet of `utilrand.String` (apimachinery `util/rand/rand.go:83`): no vowels,
/// no confusable characters.
pub const GENERATE_NAME_ALPHABET: &[u8; 27] = b"bcdfghjklmnpqrstvwxz2456789";
/// `maxGeneratedNameLength` = 63 - 5 (`storage/names/generate.go`).
pub const MAX_GENERATED_PREFIX: usize = 58;
/// The random suffix length.
pub const GENERATED_SUFFIX_LEN: usize = 5;
/// Since 1.32 the server tries up to this many names before a 409.
pub const GENERATE_NAME_ATTEMPTS: usize = 8;

/// `names.SimpleNameGenerator.GenerateName`: the prefix cut to 58, plus 5 random characters.
pub fn generate_name(prefix: &str, rng: &mut Rng) -> String {
    let cut: String = prefix.chars().take(MAX_GENERATED_PREFIX).collect();
    let mut name = cut;
    for _ in 0..GENERATED_SUFFIX_LEN {
        let i = rng.below(GENERATE_NAME_ALPHABET.len() as u64) as usize;
        name.push(GENERATE_NAME_ALPHABET[i] as char);
    }
    name
}

/// The store, its resourceVersion counter, and the counts the report needs.
///
/// One map per kind, keyed like an informer's store (fewer distinct map types
/// is less code in the page's wasm).
#[derive(Debug, Clone, Default)]
pub struct ApiServer {
    objects: [BTreeMap<ObjectKey, ObjectRc>; 4],
    resource_version: u64,
    next_uid: u64,
    live: [u64; 4],
    peak_live: [u64; 4],
    /// Kinds that have ever had an object (the report lists those).
    seen: [bool; 4],
    /// "kind/namespace/label=value" -> live objects carrying it.
    label_counts: SortedMap<String, u32>,
}

fn label_key(kind: Kind, namespace: &str, label: &str, value: &str) -> String {
    format!("{kind}/{namespace}/{label}={value}")
}

/// What one request did.
#[derive(Debug, Clone)]
pub struct Outcome {
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

    /// Every live object, by kind then key.
    pub fn objects(&self) -> impl Iterator<Item = &ObjectRc> {
        self.objects.iter().flat_map(|m| m.values())
    }

    /// Live objects of one kind in one namespace, by name.
    pub fn list(&self, kind: Kind, namespace: &str) -> Vec<ObjectRc> {
        self.objects[kind.index()]
            .range(ObjectKey::new(namespace, "")..)
            .take_while(|(key, _)| key.namespace == namespace)
            .map(|(_, o)| o.clone())
            .collect()
    }

    /// Live objects of one kind, without cloning anything.
    pub fn objects_of(&self, kind: Kind) -> impl Iterator<Item = &ObjectRc> {
        self.objects[kind.index()].values()
    }

    /// Live objects of one kind in every namespace.
    pub fn list_all(&self, kind: Kind) -> Vec<ObjectRc> {
        self.objects_of(kind).cloned().collect()
    }

    /// Live objects of `kind` now.
    pub fn live_count(&self, kind: Kind) -> u64 {
        self.live[kind.index()]
    }

    /// The most objects of `kind` alive at any instant so far.
    pub fn peak_count(&self, kind: Kind) -> u64 {
        self.peak_live[kind.index()]
    }

    /// Live counts of every kind that ever had an object.
    pub fn live(&self) -> BTreeMap<Kind, u64> {
        Kind::ALL.into_iter().filter(|k| self.seen[k.index()]).map(|k| (k, self.live_count(k))).collect()
    }

    /// Peak counts of every kind that ever had an object.
    pub fn peak_live(&self) -> BTreeMap<Kind, u64> {
        Kind::ALL.into_iter().filter(|k| self.seen[k.index()]).map(|k| (k, self.peak_count(k))).collect()
    }

    /// How many live objects of `kind` in `namespace` carry `label=value`.
    pub fn count_labelled(&self, kind: Kind, namespace: &str, label: &str, value: &str) -> u32 {
        self.label_counts.get(&label_key(kind, namespace, label, value)).copied().unwrap_or(0)
    }

    /// Handle one request at `now_ms`.
    pub fn handle(&mut self, req: &Request, now_ms: u64, rng: &mut Rng) -> Outcome {
        match req.verb {
            Verb::Create => self.create(req, now_ms, rng),
            Verb::Get => self.read(req, now_ms),
            Verb::List => self.list_request(req, now_ms),
            Verb::Update => self.update(req, now_ms),
            Verb::Delete => self.delete(req, now_ms),
        }
    }

    fn audit(&self, req: &Request, now_ms: u64, name: String, status: Status) -> AuditEntry {
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
        }
    }

    /// An injected failure of `req` (`fail_next`): a 500 or a timeout writes
    /// nothing; a committed timeout writes, and the client sees 504 Timeout.
    pub fn handle_failing(&mut self, req: &Request, now_ms: u64, rng: &mut Rng, mode: FailMode) -> Outcome {
        match mode {
            FailMode::InternalError | FailMode::Timeout => {
                let status = if mode == FailMode::Timeout { Status::TIMEOUT } else { Status::INTERNAL_ERROR };
                self.failed(req, now_ms, req.display_name(), status)
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

    fn failed(&self, req: &Request, now_ms: u64, name: String, status: Status) -> Outcome {
        Outcome {
            response: Response { status, object: None, items: Vec::new(), list_rv: 0 },
            audit: self.audit(req, now_ms, name, status),
            event: None,
        }
    }

    fn create(&mut self, req: &Request, now_ms: u64, rng: &mut Rng) -> Outcome {
        let body = req.body.as_ref().expect("a create carries a body");
        let (name, generated) = match (&body.name, &body.generate_name) {
            (Some(n), _) => (n.clone(), None),
            (None, Some(prefix)) => {
                // Since 1.32 the server retries a colliding generated name itself.
                let mut name = generate_name(prefix, rng);
                for _ in 1..GENERATE_NAME_ATTEMPTS {
                    if self.get(body.kind(), &ObjectKey::new(body.namespace.clone(), name.clone())).is_none() {
                        break;
                    }
                    name = generate_name(prefix, rng);
                }
                (name, Some(prefix.clone()))
            }
            (None, None) => (String::new(), None),
        };
        let key = ObjectKey::new(body.namespace.clone(), name.clone());
        if self.get(body.kind(), &key).is_some() {
            let mut out = self.failed(req, now_ms, name, Status::ALREADY_EXISTS);
            out.audit.generate_name = generated;
            return out;
        }
        self.resource_version += 1;
        self.next_uid += 1;
        let object = Rc::new(Object {
            namespace: body.namespace.clone(),
            name: name.clone(),
            uid: self.next_uid,
            resource_version: self.resource_version,
            creation_rv: self.resource_version,
            generate_name: generated.clone(),
            labels: body.labels.clone(),
            owner_references: body.owner_references.clone(),
            spec: body.spec.clone(),
        });
        self.insert(object.clone());
        let mut out = self.committed(req, now_ms, Status::CREATED, object, EventType::Added);
        out.audit.generate_name = generated;
        out
    }

    /// The outcome of a write that committed at the current resourceVersion:
    /// the answer, the audit line, and the event every watch will carry.
    fn committed(&self, req: &Request, now_ms: u64, status: Status, object: ObjectRc, event_type: EventType) -> Outcome {
        let mut audit = self.audit(req, now_ms, object.name.clone(), status);
        audit.resource_version = Some(self.resource_version);
        Outcome {
            response: Response { status, object: Some(object.clone()), items: Vec::new(), list_rv: 0 },
            audit,
            event: Some(WatchEvent { event_type, object }),
        }
    }

    fn read(&self, req: &Request, now_ms: u64) -> Outcome {
        let name = req.name.clone().unwrap_or_default();
        match self.get(req.kind, &ObjectKey::new(req.namespace.clone(), name.clone())) {
            None => self.failed(req, now_ms, name, Status::NOT_FOUND),
            Some(o) => {
                let mut audit = self.audit(req, now_ms, name, Status::OK);
                audit.resource_version = Some(o.resource_version);
                Outcome {
                    response: Response { status: Status::OK, object: Some(o.clone()), items: Vec::new(), list_rv: 0 },
                    audit,
                    event: None,
                }
            }
        }
    }

    fn list_request(&self, req: &Request, now_ms: u64) -> Outcome {
        // An empty namespace lists every namespace, as an informer's LIST does.
        let items = if req.namespace.is_empty() { self.list_all(req.kind) } else { self.list(req.kind, &req.namespace) };
        let mut audit = self.audit(req, now_ms, String::new(), Status::OK);
        audit.resource_version = Some(self.resource_version);
        audit.items = Some(items.len() as u32);
        Outcome { response: Response { status: Status::OK, object: None, items, list_rv: self.resource_version }, audit, event: None }
    }

    /// The named object, taken out of the store for a write at the next
    /// resourceVersion; or the 404 outcome when there is none.
    fn take_for_write(&mut self, req: &Request, now_ms: u64) -> Result<ObjectRc, Outcome> {
        let name = req.name.clone().unwrap_or_default();
        let key = ObjectKey::new(req.namespace.clone(), name.clone());
        let Some(old) = self.get(req.kind, &key).cloned() else {
            return Err(self.failed(req, now_ms, name, Status::NOT_FOUND));
        };
        self.remove(&old);
        self.resource_version += 1;
        Ok(old)
    }

    fn update(&mut self, req: &Request, now_ms: u64) -> Outcome {
        let body = req.body.as_ref().expect("an update carries a body");
        let old = match self.take_for_write(req, now_ms) {
            Ok(old) => old,
            Err(not_found) => return not_found,
        };
        let object = Rc::new(Object {
            resource_version: self.resource_version,
            labels: body.labels.clone(),
            owner_references: body.owner_references.clone(),
            spec: body.spec.clone(),
            ..(*old).clone()
        });
        self.insert(object.clone());
        self.committed(req, now_ms, Status::OK, object, EventType::Modified)
    }

    fn delete(&mut self, req: &Request, now_ms: u64) -> Outcome {
        let old = match self.take_for_write(req, now_ms) {
            Ok(old) => old,
            Err(not_found) => return not_found,
        };
        let last = Rc::new(Object { resource_version: self.resource_version, ..(*old).clone() });
        self.committed(req, now_ms, Status::OK, last, EventType::Deleted)
    }

    fn insert(&mut self, object: ObjectRc) {
        let kind = object.kind();
        for (k, v) in &object.labels {
            let lk = label_key(kind, &object.namespace, k, v);
            match self.label_counts.get_mut(&lk) {
                Some(n) => *n += 1,
                None => self.label_counts.insert(lk, 1),
            }
        }
        let i = kind.index();
        if self.objects[i].insert(object.key(), object).is_none() {
            self.live[i] += 1;
            self.peak_live[i] = self.peak_live[i].max(self.live[i]);
            self.seen[i] = true;
        }
    }

    fn remove(&mut self, object: &Object) {
        let kind = object.kind();
        for (k, v) in &object.labels {
            let lk = label_key(kind, &object.namespace, k, v);
            if let Some(n) = self.label_counts.get_mut(&lk) {
                *n -= 1;
                if *n == 0 {
                    self.label_counts.remove(&lk);
                }
            }
        }
        if self.objects[kind.index()].remove(&object.key()).is_some() {
            self.live[kind.index()] -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::object::Spec;

    fn cm(name: Option<&str>, generate: Option<&str>) -> ObjectTemplate {
        ObjectTemplate {
            namespace: "academy-lab".into(),
            name: name.map(Into::into),
            generate_name: generate.map(Into::into),
            labels: BTreeMap::new(),
            owner_references: Vec::new(),
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
    }

    #[test]
    fn every_write_bumps_the_global_resource_version() {
        let mut api = ApiServer::new();
        let mut rng = Rng::new(1);
        api.handle(&Request::create(Actor::Kubectl, cm(Some("a"), None)), 0, &mut rng);
        api.handle(&Request::create(Actor::Kubectl, cm(Some("b"), None)), 0, &mut rng);
        let up = api.handle(&Request::update(Actor::Kubectl, cm(Some("a"), None)), 0, &mut rng);
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
}
