//! What a client sends the apiserver: a `Request` (verb, kind, name, body),
//! who sent it (`Actor`, `ControllerKind`), and the options it carries
//! (`Options`: preconditions, the status subresource, a delete's grace and
//! `Propagation`).

pub use crate::sim::object::Propagation;
use crate::sim::object::{Kind, Name, Object, ObjectKey, ObjectTemplate, ReplicaSetStatus};
use serde::Serialize;
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
    /// A watch-list: a WATCH with `sendInitialEvents=true`, answered with the
    /// state at its resourceVersion, streamed (what an informer sends for
    /// its first state under client-go's `WatchListClient`).
    Watch,
}

impl Verb {
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Create => "create",
            Verb::Get => "get",
            Verb::List => "list",
            Verb::Update => "update",
            Verb::Delete => "delete",
            Verb::Watch => "watch",
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
    pub const fn actor_name(self) -> &'static str {
        match self {
            ControllerKind::Ensemble => "ensemble-controller",
            ControllerKind::ReplicaSet => "replicaset-controller",
            ControllerKind::Pruner => "pruner",
        }
    }
}

/// A controller as its requests name it: its kind, and the name it goes
/// by in the audit log's user field (its kind's, or a recipe's own:
/// `kuberay-operator`). Serialized, compared by hash, as its kind alone:
/// the name is a word, and a trace's hash covers facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Agent {
    pub kind: ControllerKind,
    pub name: &'static str,
}

impl Agent {
    /// A built-in controller, under its kind's name.
    pub const fn of(kind: ControllerKind) -> Agent {
        Agent { kind, name: kind.actor_name() }
    }
}

impl std::hash::Hash for Agent {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.kind.hash(h);
    }
}

impl Serialize for Agent {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.kind.serialize(s)
    }
}

/// Who sent a request: the audit log's `user` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "actor", content = "of")]
pub enum Actor {
    /// The scenario's own actions, as a person with kubectl.
    Kubectl,
    /// A controller's reconcile.
    Controller(Agent),
    /// A controller's informer (its LIST).
    Informer(Agent),
    /// The garbage collector, and its informer's LIST.
    GarbageCollector,
    /// The kubelet: the final delete of a pod whose grace period is over.
    Kubelet,
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Kubectl => f.write_str("kubectl"),
            Actor::Controller(c) => f.write_str(c.name),
            Actor::Informer(c) => write!(f, "{} (informer)", c.name),
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
    pub namespace: Name,
    /// The object's name; `None` for a list, or for a create that uses `generateName`.
    pub name: Option<Name>,
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
        Request { verb: Verb::List, kind, namespace: namespace.into(), name: None, body: None, actor, options: Options::default() }
    }

    /// A reflector's watch-list: `sendInitialEvents=true`,
    /// `resourceVersionMatch=NotOlderThan`, `allowWatchBookmarks=true`
    /// (client-go v0.36.3 `tools/cache/reflector.go`, `watchList`).
    pub fn watch_list(actor: Actor, kind: Kind, namespace: &str) -> Self {
        Request { verb: Verb::Watch, ..Request::list(actor, kind, namespace) }
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
    pub(crate) fn display_name(&self) -> String {
        match (&self.name, &self.body) {
            (Some(n), _) => n.to_string(),
            (None, Some(b)) => b.display_name(),
            (None, None) => String::new(),
        }
    }
}
