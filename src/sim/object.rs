//! Kubernetes objects as the simulated apiserver stores them.
//!
//! Only what the labs and the mechanisms around them need is modelled: kind,
//! namespace, name, uid, resourceVersion, generation, labels, ownerReferences,
//! finalizers, a deletionTimestamp, a kind-specific spec and a ReplicaSet's
//! status. An object
//! is immutable once committed; every write commits a new version, so stores
//! share versions behind an `Rc` and cloning a store for a checkpoint is cheap.

pub use super::name::Name;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::hash::Hash;
use std::rc::Rc;

/// The kinds the simulator knows: four built in, and those a scenario
/// declares (`kinds`), each a [`KindDecl`] row.
///
/// Serialized by name (`"Pod"`, `"RayCluster"`); a declared name reads back
/// only while its scenario's declarations are in scope ([`declared_scope`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// The lab's custom resource: `spec.voices` ConfigMap children.
    Ensemble,
    ConfigMap,
    ReplicaSet,
    Pod,
    /// A kind a scenario declares (a custom resource such as `RayCluster`, or
    /// a built-in resource the simulator does not model, such as `Job`).
    Declared(&'static KindDecl),
}

/// A declared kind, as its scenario's `kinds` entry says: its name, its
/// resource, the spec field that holds its desired count of children (an
/// owner kind) and which children those are. Compared, ordered and hashed
/// by content, so a run's trace does not depend on the order rows were
/// interned in. Rows are interned for the process's life ([`declare`]): one
/// per distinct declaration ever read, a few dozen bytes each.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KindDecl {
    /// Its place in the scenario's `kinds` (per-kind arrays index `BUILT_IN + slot`).
    pub slot: u8,
    pub name: &'static str,
    /// The lower-case plural resource (`rayclusters.ray.io`), as the apiserver's messages name it.
    pub resource: &'static str,
    /// The owner's spec field with its desired count of children (`workers`).
    pub desired: Option<&'static str>,
    /// Its children: their kind and the label that names their owner.
    pub children: Option<(Kind, &'static str)>,
}

/// The built-in kinds.
pub const BUILT_IN: usize = 4;
/// The most kinds a scenario may declare (the limits table's `kinds` row).
pub const MAX_DECLARED: usize = 4;
/// The size of a per-kind array: the built-ins, then the declared kinds by slot.
pub const MAX_KINDS: usize = BUILT_IN + MAX_DECLARED;

impl Kind {
    /// The built-in kinds, in display order.
    pub const ALL: [Kind; BUILT_IN] = [Kind::Ensemble, Kind::ConfigMap, Kind::ReplicaSet, Kind::Pod];

    /// A dense index, for per-kind arrays (`< MAX_KINDS`).
    pub fn index(self) -> usize {
        match self {
            Kind::Ensemble => 0,
            Kind::ConfigMap => 1,
            Kind::ReplicaSet => 2,
            Kind::Pod => 3,
            Kind::Declared(d) => BUILT_IN + usize::from(d.slot),
        }
    }

    /// The lower-case plural resource name, as the apiserver's messages use it.
    pub fn resource(self) -> &'static str {
        match self {
            Kind::Ensemble => "ensembles.academy.k3ii.dev",
            Kind::ConfigMap => "configmaps",
            Kind::ReplicaSet => "replicasets.apps",
            Kind::Pod => "pods",
            Kind::Declared(d) => d.resource,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Ensemble => "Ensemble",
            Kind::ConfigMap => "ConfigMap",
            Kind::ReplicaSet => "ReplicaSet",
            Kind::Pod => "Pod",
            Kind::Declared(d) => d.name,
        }
    }

    /// The spec field that holds an owner kind's desired count of children.
    pub fn desired_field(self) -> Option<&'static str> {
        match self {
            Kind::Ensemble => Some("voices"),
            Kind::ReplicaSet => Some("replicas"),
            Kind::ConfigMap | Kind::Pod => None,
            Kind::Declared(d) => d.desired,
        }
    }

    /// A built-in kind by name.
    pub fn built_in(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// A kind by name: a built-in one, or one the scenario being read declares.
    pub fn named(name: &str) -> Option<Kind> {
        Kind::built_in(name).or_else(|| in_scope(name))
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Kind::built_in(&name).or_else(|| in_scope(&name)).ok_or_else(|| {
            let declared: Vec<String> = DECLARED.with(|s| s.borrow().iter().map(|k| format!("`{k}`")).collect());
            let tail =
                if declared.is_empty() { String::from(", or a kind `kinds` declares") } else { format!(", {}", declared.join(", ")) };
            serde::de::Error::custom(format!("unknown kind `{name}`, expected one of `Ensemble`, `ConfigMap`, `ReplicaSet`, `Pod`{tail}"))
        })
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl schemars::JsonSchema for Kind {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Kind".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A built-in kind (`Ensemble`, `ConfigMap`, `ReplicaSet`, `Pod`) or one the scenario's `kinds` declares.",
            "type": "string",
            "minLength": 1
        })
    }
}

thread_local! {
    /// The declared kinds a parse may name (see [`declared_scope`]).
    static DECLARED: std::cell::RefCell<Vec<Kind>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn in_scope(name: &str) -> Option<Kind> {
    DECLARED.with(|s| s.borrow().iter().copied().find(|k| k.as_str() == name))
}

/// Run `f` (a parse) with `kinds` nameable by their names: serde has no
/// context to hand a deserializer, and a scenario's kinds are known only
/// once its `kinds` are read, so its parse is two passes with this between.
pub fn declared_scope<T>(kinds: &[Kind], f: impl FnOnce() -> T) -> T {
    let previous = DECLARED.with(|s| s.replace(kinds.to_vec()));
    let out = f();
    DECLARED.with(|s| *s.borrow_mut() = previous);
    out
}

/// The one `&'static` row for a declaration: the same row for the same
/// declaration, whichever scenario read it first.
pub fn declare(decl: KindDecl) -> Kind {
    static INTERNED: std::sync::Mutex<Vec<&'static KindDecl>> = std::sync::Mutex::new(Vec::new());
    let mut rows = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(row) = rows.iter().find(|r| ***r == decl) {
        return Kind::Declared(row);
    }
    let row: &'static KindDecl = Box::leak(Box::new(decl));
    rows.push(row);
    Kind::Declared(row)
}

/// A name, interned as [`declare`] interns rows (each distinct name once).
pub fn intern(name: &str) -> &'static str {
    static NAMES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.iter().find(|n| **n == name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.push(n);
    n
}

/// `namespace/name`, the key client-go's `MetaNamespaceKeyFunc` produces.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ObjectKey {
    pub namespace: Name,
    pub name: Name,
}

impl ObjectKey {
    pub fn new(namespace: impl Into<Name>, name: impl Into<Name>) -> Self {
        ObjectKey { namespace: namespace.into(), name: name.into() }
    }
}

impl fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.namespace, self.name)
    }
}

/// A kind and a key: enough to name any object in a caption or a trace.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ObjectRef {
    pub kind: Kind,
    pub namespace: Name,
    pub name: Name,
}

impl ObjectRef {
    pub fn key(&self) -> ObjectKey {
        ObjectKey::new(self.namespace.clone(), self.name.clone())
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}/{}", self.kind, self.namespace, self.name)
    }
}

/// A `metadata.ownerReferences` entry. `controller: true` makes it the controllerRef.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct OwnerReference {
    pub kind: Kind,
    pub name: Name,
    pub uid: u64,
    pub controller: bool,
}

/// What differs between kinds. ConfigMaps and Pods carry nothing the labs need.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Spec {
    Ensemble {
        voices: u32,
    },
    ReplicaSet {
        replicas: u32,
    },
    ConfigMap,
    Pod,
    /// A declared kind's: its desired count, if it is an owner kind (0 otherwise).
    Declared {
        kind: Kind,
        desired: u32,
    },
}

impl Spec {
    pub fn kind(&self) -> Kind {
        match self {
            Spec::Ensemble { .. } => Kind::Ensemble,
            Spec::ReplicaSet { .. } => Kind::ReplicaSet,
            Spec::ConfigMap => Kind::ConfigMap,
            Spec::Pod => Kind::Pod,
            Spec::Declared { kind, .. } => *kind,
        }
    }

    /// A child kind's spec, which holds nothing (a recipe's creates); an
    /// owner kind's asks for none.
    pub fn empty(kind: Kind) -> Spec {
        match kind {
            Kind::Ensemble => Spec::Ensemble { voices: 0 },
            Kind::ReplicaSet => Spec::ReplicaSet { replicas: 0 },
            Kind::ConfigMap => Spec::ConfigMap,
            Kind::Pod => Spec::Pod,
            Kind::Declared(_) => Spec::Declared { kind, desired: 0 },
        }
    }

    /// An owner kind's spec asking for `desired` children; any other kind's.
    pub fn with_desired(kind: Kind, desired: u32) -> Spec {
        match kind {
            Kind::Ensemble => Spec::Ensemble { voices: desired },
            Kind::ReplicaSet => Spec::ReplicaSet { replicas: desired },
            Kind::ConfigMap | Kind::Pod => Spec::empty(kind),
            Kind::Declared(_) => Spec::Declared { kind, desired },
        }
    }

    /// The number of children the object asks for, if it is an owner kind.
    pub fn desired(&self) -> Option<u32> {
        match *self {
            Spec::Ensemble { voices } => Some(voices),
            Spec::ReplicaSet { replicas } => Some(replicas),
            Spec::ConfigMap | Spec::Pod => None,
            Spec::Declared { kind, desired } => kind.desired_field().map(|_| desired),
        }
    }
}

/// `metadata.labels`, shared: an object's versions, the request that made
/// it and the template it came from hold one map (a clone is a count, not
/// a copy; serialized, hashed and compared as the map itself).
pub type Labels = Rc<BTreeMap<String, String>>;

/// `metadata.ownerReferences`, shared as [`Labels`] are.
pub type OwnerReferences = Rc<Vec<OwnerReference>>;

/// One committed version of an object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct Object {
    pub namespace: Name,
    pub name: Name,
    /// Set by the apiserver at creation; a re-created object gets a new one.
    pub uid: u64,
    /// The etcd revision of this version. Compared for equality only.
    pub resource_version: u64,
    /// The resourceVersion at creation, which orders objects by age.
    pub creation_rv: u64,
    /// The `generateName` prefix the client sent, if the server picked the name.
    pub generate_name: Option<Name>,
    pub labels: Labels,
    /// `metadata.annotations`, written only by a recipe's `label_owner`
    /// (and a scenario's objects). None when there are none: no allocation,
    /// nothing in the trace (which keeps every hash), next to nothing to
    /// hash or clone in the simulation's hot paths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Annotations,
    pub owner_references: OwnerReferences,
    /// `metadata.finalizers`: a delete only marks the object while any remain.
    pub finalizers: Vec<String>,
    /// `metadata.generation`: 1 at creation, one more at each change of the spec.
    pub generation: u64,
    /// `metadata.deletionTimestamp` (simulated ms): the object is Terminating,
    /// gone when its grace period is over and its finalizers are removed.
    pub deletion_timestamp_ms: Option<u64>,
    /// `metadata.deletionGracePeriodSeconds`, in ms, while Terminating.
    pub deletion_grace_period_ms: Option<u64>,
    pub spec: Spec,
    /// A ReplicaSet's `status`, as its controller last wrote it (`None` for other kinds).
    pub status: Option<ReplicaSetStatus>,
}

/// The part of a ReplicaSet's status the simulation writes (`calculateStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Hash)]
pub struct ReplicaSetStatus {
    /// `status.replicas`: the pods the controller counted in its cache.
    pub replicas: u32,
    /// `status.observedGeneration`: the generation that count answered.
    pub observed_generation: u64,
}

/// The finalizer foreground deletion puts on an owner (`metav1.FinalizerDeleteDependents`).
pub(crate) const FINALIZER_FOREGROUND: &str = "foregroundDeletion";
/// The finalizer orphan deletion puts on an owner (`metav1.FinalizerOrphanDependents`).
pub(crate) const FINALIZER_ORPHAN: &str = "orphan";

/// A committed object version, shared between the apiserver, informers,
/// events in flight and checkpoints. A version never changes once committed,
/// so its hash is taken once, the first time it is asked for: the explorer's
/// fingerprint hashes every store at every frame, and then writes one word
/// per object; a plain run never asks, and hashes nothing.
#[derive(Debug, Clone)]
pub struct ObjectRc(Rc<(Object, std::cell::OnceCell<u64>)>);

impl ObjectRc {
    pub fn new(object: Object) -> ObjectRc {
        ObjectRc(Rc::new((object, std::cell::OnceCell::new())))
    }
}

impl std::ops::Deref for ObjectRc {
    type Target = Object;
    fn deref(&self) -> &Object {
        &self.0 .0
    }
}

impl Hash for ObjectRc {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        let (object, hash) = &*self.0;
        h.write_u64(*hash.get_or_init(|| {
            let mut fx = rustc_hash::FxHasher::default();
            object.hash(&mut fx);
            std::hash::Hasher::finish(&fx)
        }));
    }
}

impl PartialEq for ObjectRc {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0 .0 == other.0 .0
    }
}

impl Eq for ObjectRc {}

impl Serialize for ObjectRc {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0 .0.serialize(s)
    }
}

impl Object {
    pub fn kind(&self) -> Kind {
        self.spec.kind()
    }

    pub fn key(&self) -> ObjectKey {
        ObjectKey::new(self.namespace.clone(), self.name.clone())
    }

    pub(crate) fn object_ref(&self) -> ObjectRef {
        ObjectRef { kind: self.kind(), namespace: self.namespace.clone(), name: self.name.clone() }
    }

    /// The ownerReference with `controller: true`, as `metav1.GetControllerOf` finds it.
    pub fn controller_ref(&self) -> Option<&OwnerReference> {
        self.owner_references.iter().find(|r| r.controller)
    }

    /// `DeletionTimestamp != nil`: Terminating, on its way out.
    pub fn is_terminating(&self) -> bool {
        self.deletion_timestamp_ms.is_some()
    }
}

#[cfg(test)]
impl Object {
    /// For unit tests: `namespace/name`, its uid and resourceVersions all
    /// `rv`, generation 1, no labels, owners or finalizers.
    pub(crate) fn bare(namespace: &str, name: &str, rv: u64, spec: Spec) -> Object {
        Object {
            namespace: namespace.into(),
            name: name.into(),
            uid: rv,
            resource_version: rv,
            creation_rv: rv,
            generate_name: None,
            labels: Default::default(),
            annotations: Default::default(),
            owner_references: Default::default(),
            finalizers: vec![],
            generation: 1,
            deletion_timestamp_ms: None,
            deletion_grace_period_ms: None,
            spec,
            status: None,
        }
    }
}

/// What a client sends to create an object: a name or a `generateName` prefix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct ObjectTemplate {
    pub namespace: Name,
    pub name: Option<Name>,
    pub generate_name: Option<Name>,
    pub labels: Labels,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Annotations,
    pub owner_references: OwnerReferences,
    pub finalizers: Vec<String>,
    pub spec: Spec,
}

/// `metadata.annotations`: none, or some, shared as [`Labels`] are.
pub type Annotations = Option<Labels>;

/// Annotations from a map: none when it is empty.
pub fn annotations(map: BTreeMap<String, String>) -> Annotations {
    (!map.is_empty()).then(|| Rc::new(map))
}

/// The body of an update that writes the object back as it is (a caller
/// changes the fields it writes: `ObjectTemplate { finalizers, ..o.into() }`).
impl From<&Object> for ObjectTemplate {
    fn from(o: &Object) -> ObjectTemplate {
        ObjectTemplate {
            namespace: o.namespace.clone(),
            name: Some(o.name.clone()),
            generate_name: None,
            labels: o.labels.clone(),
            annotations: o.annotations.clone(),
            owner_references: o.owner_references.clone(),
            finalizers: o.finalizers.clone(),
            spec: o.spec.clone(),
        }
    }
}

impl ObjectTemplate {
    pub fn kind(&self) -> Kind {
        self.spec.kind()
    }

    /// The name, or `prefix*` while the server has not picked one yet.
    pub(crate) fn display_name(&self) -> String {
        match (&self.name, &self.generate_name) {
            (Some(n), _) => n.to_string(),
            (None, Some(p)) => format!("{p}*"),
            (None, None) => "<unnamed>".to_string(),
        }
    }
}

/// The label the Ensemble controller puts on its children (the lab's teardown selects on it).
pub const ENSEMBLE_LABEL: &str = "academy.k3ii.dev/ensemble";
/// The label a ReplicaSet's selector matches on its pods.
pub const REPLICASET_LABEL: &str = "app";

/// The label that ties a child of `owner_kind` to its owner, for counting and invariants.
pub fn child_label(owner_kind: Kind) -> Option<&'static str> {
    match owner_kind {
        Kind::Ensemble => Some(ENSEMBLE_LABEL),
        Kind::ReplicaSet => Some(REPLICASET_LABEL),
        Kind::ConfigMap | Kind::Pod => None,
        Kind::Declared(d) => d.children.map(|(_, label)| label),
    }
}

/// The kind of children an owner kind has.
pub fn child_kind(owner_kind: Kind) -> Option<Kind> {
    match owner_kind {
        Kind::Ensemble => Some(Kind::ConfigMap),
        Kind::ReplicaSet => Some(Kind::Pod),
        Kind::ConfigMap | Kind::Pod => None,
        Kind::Declared(d) => d.children.map(|(kind, _)| kind),
    }
}

/// Split a workqueue key (`namespace/name`) back into namespace and name.
pub fn split_key(key: &str) -> ObjectKey {
    match key.split_once('/') {
        Some((ns, name)) => ObjectKey::new(ns, name),
        None => ObjectKey::new("", key),
    }
}

/// `metav1.DeletionPropagation`: what becomes of an owner's dependents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
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

    /// As a Go client writes it: `client.PropagationPolicy(metav1.DeletePropagationOrphan)`.
    pub fn go(self) -> String {
        format!("client.PropagationPolicy(metav1.DeletePropagation{})", self.as_str())
    }
}
