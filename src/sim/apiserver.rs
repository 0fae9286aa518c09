//! The apiserver: the cluster's truth, one global resourceVersion, the real
//! status codes and messages, `generateName`, and the watch events each write
//! produces.
//!
//! A simplification of the real apiserver: no admission, no validation beyond
//! what the labs touch, no graceful deletion (a delete removes the object at
//! once, as it does for ConfigMaps and for pods with a zero grace period), and
//! no watch-cache compaction, so a watch never sees `410 Expired` unless a
//! scenario asks for a relist.

use super::object::{Kind, Object, ObjectKey, ObjectRc, ObjectTemplate, ReplicaSetStatus};
use super::rng::Rng;
use super::sorted::SortedMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

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

impl super::settings::Choice for ControllerKind {
    const ALL: &'static [Self] = &[ControllerKind::Ensemble, ControllerKind::ReplicaSet, ControllerKind::Pruner];
    const WORDS: &'static [&'static str] = &["ensemble", "replicaset", "pruner"];
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
    /// The kubelet: the final delete of a pod whose grace period is over.
    Kubelet,
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Kubectl => f.write_str("kubectl"),
            Actor::Controller(c) => f.write_str(c.actor_name()),
            Actor::Informer(c) => write!(f, "{} (informer)", c.actor_name()),
            Actor::GarbageCollector => f.write_str("garbage-collector"),
            Actor::Kubelet => f.write_str("kubelet"),
        }
    }
}

/// A request to the apiserver, as data: controllers return these, the world sends them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct Request {
    pub verb: Verb,
    pub kind: Kind,
    pub namespace: String,
    /// The object's name; `None` for a list, or for a create that uses `generateName`.
    pub name: Option<String>,
    /// The body of a create or an update.
    pub body: Option<ObjectTemplate>,
    pub actor: Actor,
    /// Preconditions, the status subresource, a delete's options.
    #[serde(skip_serializing_if = "Options::is_default")]
    pub options: Options,
}

/// What a request asks beyond its verb and body: `metav1.UpdateOptions`'s
/// and `DeleteOptions`'s fields the simulation honours, and the status
/// subresource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Hash)]
pub struct Options {
    /// An update's `metadata.resourceVersion`: the version the client read.
    /// If the object has moved on, the update is `409 Conflict`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<u64>,
    /// A delete's `Preconditions.UID`: delete only this very object.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uid: Option<u64>,
    /// A delete's `GracePeriodSeconds`, in ms; `None`: the object's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grace_period_ms: Option<u64>,
    /// A delete's `PropagationPolicy`; `None`: the resource's default (background).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub propagation: Option<Propagation>,
    /// `UpdateStatus`: write only the status, this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<ReplicaSetStatus>,
}

impl Options {
    fn is_default(&self) -> bool {
        *self == Options::default()
    }
}

/// `metav1.DeletionPropagation`: what becomes of an owner's dependents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, Hash)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub enum Propagation {
    /// The owner goes at once; the garbage collector deletes the dependents after.
    Background,
    /// The owner stays (finalizer `foregroundDeletion`) until the collector
    /// has deleted its dependents.
    Foreground,
    /// The owner stays (finalizer `orphan`) until the collector has removed
    /// the ownerReferences from its dependents, which live on.
    Orphan,
}

impl Propagation {
    /// As kubectl's `--cascade` and a scenario write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Propagation::Background => "Background",
            Propagation::Foreground => "Foreground",
            Propagation::Orphan => "Orphan",
        }
    }
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
            options: Options::default(),
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
            options: Options::default(),
        }
    }

    pub fn get(actor: Actor, kind: Kind, key: &ObjectKey) -> Self {
        Request {
            verb: Verb::Get,
            kind,
            namespace: key.namespace.clone(),
            name: Some(key.name.clone()),
            body: None,
            actor,
            options: Options::default(),
        }
    }

    pub fn delete(actor: Actor, kind: Kind, key: &ObjectKey) -> Self {
        Request {
            verb: Verb::Delete,
            kind,
            namespace: key.namespace.clone(),
            name: Some(key.name.clone()),
            body: None,
            actor,
            options: Options::default(),
        }
    }

    pub fn list(actor: Actor, kind: Kind, namespace: &str) -> Self {
        Request { verb: Verb::List, kind, namespace: namespace.to_string(), name: None, body: None, actor, options: Options::default() }
    }

    /// `UpdateStatus`: `object`'s status becomes `status`, if the object is
    /// still at the resourceVersion the client read it at.
    pub fn update_status(actor: Actor, object: &Object, status: ReplicaSetStatus) -> Self {
        let mut req = Request::get(actor, object.kind(), &object.key());
        req.verb = Verb::Update;
        req.options = Options { resource_version: Some(object.resource_version), status: Some(status), ..Options::default() };
        req
    }

    /// The same request with these options.
    pub fn with(mut self, options: Options) -> Self {
        self.options = options;
        self
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
pub enum Reason {
    AlreadyExists,
    NotFound,
    /// 409: the object moved on since the client read it (a stale
    /// resourceVersion), or is not the one a UID precondition names.
    Conflict,
    /// 500: a failure on the server, nothing written.
    InternalError,
    /// 504: no answer in time; the write may or may not have happened.
    Timeout,
}

/// How an injected request failure goes (the `fail_next` action).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, Hash)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
pub struct Status {
    pub code: u16,
    pub reason: Option<Reason>,
}

impl Status {
    pub const OK: Status = Status { code: 200, reason: None };
    pub const CREATED: Status = Status { code: 201, reason: None };
    pub const NOT_FOUND: Status = Status { code: 404, reason: Some(Reason::NotFound) };
    pub const ALREADY_EXISTS: Status = Status { code: 409, reason: Some(Reason::AlreadyExists) };
    pub const CONFLICT: Status = Status { code: 409, reason: Some(Reason::Conflict) };
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
            (409, Some(Reason::Conflict)) => "409 Conflict",
            (409, _) => "409 AlreadyExists",
            (500, _) => "500 InternalError",
            (504, _) => "504 Timeout",
            _ => "error",
        }
    }
}

/// The apiserver's answer.
#[derive(Debug, Clone, Hash)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
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
    /// A UID precondition that failed: (the UID asked for, the object's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uid_mismatch: Option<(u64, u64)>,
    /// `UpdateStatus`: the status the client sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_write: Option<ReplicaSetStatus>,
}

impl AuditEntry {
    /// The message the apiserver returns (`apimachinery/pkg/api/errors/errors.go`).
    pub fn message(&self) -> String {
        self.message_for(self.status)
    }

    fn message_for(&self, status: Status) -> String {
        status_message(status, self.kind, &self.name, self.uid_mismatch)
    }

    /// The status the client saw: what it acts on.
    pub fn seen_status(&self) -> Status {
        self.client_status.unwrap_or(self.status)
    }

    /// The message the client saw: a lost answer's timeout, or the apiserver's own.
    pub fn seen_message(&self) -> String {
        self.message_for(self.seen_status())
    }
}

/// The message the apiserver returns with `status` for a request on `kind`
/// `name` (with the UIDs of a failed precondition, if one failed): upstream's
/// words verbatim, data the real API returns, not the simulation's prose.
pub fn status_message(status: Status, kind: Kind, name: &str, uid_mismatch: Option<(u64, u64)>) -> String {
    match (status.reason, uid_mismatch) {
        // `storage.NewInvalidObjError` from `checkPreconditions`, as `NewConflict` wraps it.
        (Some(Reason::Conflict), Some((asked, found))) => format!(
            "Operation cannot be fulfilled on {} \"{}\": Precondition failed: UID in precondition: {asked}, UID in object meta: {found}",
            kind.resource(),
            name
        ),
        _ => message(status, kind, name),
    }
}

/// A status's message, in apimachinery's words (`errors.go`: `NewAlreadyExists`,
/// `NewNotFound`, `NewInternalError`, `NewTimeoutError`).
fn message(status: Status, kind: Kind, name: &str) -> String {
    let resource = kind.resource();
    match status.reason {
        Some(Reason::AlreadyExists) => format!("{resource} \"{name}\" already exists"),
        Some(Reason::NotFound) => format!("{resource} \"{name}\" not found"),
        // `OptimisticLockErrorMsg` in `NewConflict`'s words.
        Some(Reason::Conflict) => format!(
            "Operation cannot be fulfilled on {resource} \"{name}\": the object has been modified; please apply your changes to the latest version and try again"
        ),
        Some(Reason::InternalError) => "Internal error occurred: an injected fault".to_string(),
        Some(Reason::Timeout) => "Timeout: request did not complete within requested timeout - context deadline exceeded".to_string(),
        None => String::new(),
    }
}

/// ADDED / MODIFIED / DELETED, as a watch stream spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize, Hash)]
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
#[derive(Debug, Clone, Hash)]
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
#[derive(Debug, Clone, Default, Hash)]
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
    /// (kind, controller UID) -> its live children of that kind: [active, Terminating].
    /// What an invariant counts after every create, without a scan of the kind.
    by_controller: SortedMap<(Kind, u64), [u32; 2]>,
    /// Live objects of each kind without a controllerRef.
    uncontrolled: [u64; 4],
    /// A pod's `terminationGracePeriodSeconds`, in ms: 0, a delete removes it at once.
    pub pod_grace_period_ms: u64,
}

fn label_key(kind: Kind, namespace: &str, label: &str, value: &str) -> String {
    format!("{kind}/{namespace}/{label}={value}")
}

/// What one request did.
#[derive(Debug, Clone, Hash)]
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

    /// How many objects of one kind exist (Terminating ones too).
    pub fn count(&self, kind: Kind) -> usize {
        self.objects[kind.index()].len()
    }

    /// Live objects of one kind, without cloning anything.
    pub fn objects_of(&self, kind: Kind) -> impl Iterator<Item = &ObjectRc> {
        self.objects[kind.index()].values()
    }

    /// Live objects of one kind in every namespace.
    pub fn list_all(&self, kind: Kind) -> Vec<ObjectRc> {
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
            uid_mismatch: None,
            status_write: req.options.status,
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
        let object = ObjectRc::new(Object {
            namespace: body.namespace.clone(),
            name: name.clone(),
            uid: self.next_uid,
            resource_version: self.resource_version,
            creation_rv: self.resource_version,
            generate_name: generated.clone(),
            labels: body.labels.clone(),
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

    /// The named object, if the request's preconditions hold: else the 404
    /// or 409 outcome.
    fn current(&self, req: &Request, now_ms: u64) -> Result<ObjectRc, Box<Outcome>> {
        let name = req.name.clone().unwrap_or_default();
        let Some(old) = self.get(req.kind, &ObjectKey::new(req.namespace.clone(), name.clone())).cloned() else {
            return Err(Box::new(self.failed(req, now_ms, name, Status::NOT_FOUND)));
        };
        if req.options.resource_version.is_some_and(|rv| rv != old.resource_version) {
            return Err(Box::new(self.failed(req, now_ms, name, Status::CONFLICT)));
        }
        if let Some(uid) = req.options.uid.filter(|uid| *uid != old.uid) {
            let mut out = self.failed(req, now_ms, name, Status::CONFLICT);
            out.audit.uid_mismatch = Some((uid, old.uid));
            return Err(Box::new(out));
        }
        Ok(old)
    }

    /// Commit `object` as the new version of `old` at the next resourceVersion.
    fn replace(&mut self, req: &Request, now_ms: u64, old: &Object, object: Object) -> Outcome {
        self.remove(old);
        self.resource_version += 1;
        let object = ObjectRc::new(Object { resource_version: self.resource_version, ..object });
        self.insert(object.clone());
        self.committed(req, now_ms, Status::OK, object, EventType::Modified)
    }

    /// Take `old` out of the store for good, at the next resourceVersion.
    fn erase(&mut self, req: &Request, now_ms: u64, old: &Object) -> Outcome {
        self.remove(old);
        self.resource_version += 1;
        let last = ObjectRc::new(Object { resource_version: self.resource_version, ..old.clone() });
        self.committed(req, now_ms, Status::OK, last, EventType::Deleted)
    }

    /// An update, or `UpdateStatus` (`options.status`): the spec, labels,
    /// ownerReferences and finalizers of the body, or the status alone. A
    /// Terminating object whose last finalizer goes, with no grace left, is gone.
    fn update(&mut self, req: &Request, now_ms: u64) -> Outcome {
        let old = match self.current(req, now_ms) {
            Ok(old) => old,
            Err(out) => return *out,
        };
        if let Some(status) = req.options.status {
            let object = Object { status: Some(status), ..(*old).clone() };
            return self.replace(req, now_ms, &old, object);
        }
        let body = req.body.as_ref().expect("an update carries a body");
        let generation = if body.spec != old.spec { old.generation + 1 } else { old.generation };
        let object = Object {
            labels: body.labels.clone(),
            owner_references: body.owner_references.clone(),
            finalizers: body.finalizers.clone(),
            spec: body.spec.clone(),
            generation,
            ..(*old).clone()
        };
        if object.is_terminating() && object.finalizers.is_empty() && object.deletion_grace_period_ms == Some(0) {
            return self.erase(req, now_ms, &object);
        }
        self.replace(req, now_ms, &old, object)
    }

    /// A delete. An object with finalizers, or a pod with a grace period, is
    /// only marked: `deletionTimestamp` set, a MODIFIED event, and it stays
    /// (Terminating) until the kubelet's delete with no grace and the
    /// finalizers' removal. Foreground and orphan propagation add their
    /// finalizer first. Deleting a Terminating object again changes nothing,
    /// unless it shortens the grace to 0.
    fn delete(&mut self, req: &Request, now_ms: u64) -> Outcome {
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
            let mut audit = self.audit(req, now_ms, old.name.clone(), Status::OK);
            audit.resource_version = Some(old.resource_version);
            return Outcome {
                response: Response { status: Status::OK, object: Some(old.clone()), items: Vec::new(), list_rv: 0 },
                audit,
                event: None,
            };
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
        let kind = object.kind();
        for (k, v) in &object.labels {
            let lk = label_key(kind, &object.namespace, k, v);
            match self.label_counts.get_mut(&lk) {
                Some(n) => *n += 1,
                None => self.label_counts.insert(lk, 1),
            }
        }
        match object.controller_ref() {
            Some(r) => {
                let slot = usize::from(object.is_terminating());
                match self.by_controller.get_mut(&(kind, r.uid)) {
                    Some(n) => n[slot] += 1,
                    None => self.by_controller.insert((kind, r.uid), if slot == 0 { [1, 0] } else { [0, 1] }),
                }
            }
            None => self.uncontrolled[kind.index()] += 1,
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
        match object.controller_ref() {
            Some(r) => {
                let key = (kind, r.uid);
                if let Some(n) = self.by_controller.get_mut(&key) {
                    n[usize::from(object.is_terminating())] -= 1;
                    if *n == [0, 0] {
                        self.by_controller.remove(&key);
                    }
                }
            }
            None => self.uncontrolled[kind.index()] -= 1,
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
