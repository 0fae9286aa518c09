//! A reconcile as data: a [`Recipe`] is a list of [`Op`]s, each one thing a
//! reconcile does (a read, a guard, a count, one verb's requests), and each a
//! point where the world may interleave (Anvil's rule: at most one kind of API
//! call per step; a batch of creates sent at once, as `slowStartBatch` sends
//! them, is one step). One interpreter runs every recipe
//! (`controllers::interpreter`): the Ensemble operator and the ReplicaSet
//! controller are recipes its settings write (`controllers::bundled`), so a
//! switch of the settings bar is a line of the recipe changed, and the
//! Reconcile panel lights the op a frame belongs to.
//!
//! A leaf: facts only. It imports the object vocabulary and the reconcile's
//! [`Step`]s, the lines a frame lights.

use super::object::{Kind, Name, Object, Propagation};
use super::reconcile::Step;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

#[cfg(not(target_arch = "wasm32"))]
use schemars::JsonSchema;

/// Where a read goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReadFrom {
    /// The informer's lister: what the watch has delivered so far.
    #[default]
    Cache,
    /// The apiserver, through the client (controller-runtime's API reader): a request.
    Live,
    /// controller-runtime's client: the cache, and, while the client's
    /// read-your-writes (v0.25, `controller.read_your_writes`) is on, once it
    /// has seen this client's own writes (the read waits until then).
    ReadYourWrites,
}

/// Which of the owner's children a count sees.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Select {
    /// Every child whose label `label` holds the owner's name (ownerReferences
    /// on or off), Terminating ones included.
    Label(Arc<str>),
    /// The active children (`FilterActivePods`: not Terminating) whose
    /// controllerRef carries the owner's UID.
    ActiveControlled,
    /// The active children (not Terminating) whose label `label` holds the
    /// owner's name: a count of the healthy members, by a label selector.
    ActiveLabel(Arc<str>),
    /// Every object of the child kind in the owner's namespace, Terminating
    /// ones included, whatever its labels and owner
    /// (`client.List(ctx, &list, client.InNamespace(owner.Namespace))`): an
    /// operator that takes its namespace to be its own.
    Namespace,
}

impl Select {
    /// The label it selects by, if it selects by one.
    pub fn label(&self) -> Option<&Arc<str>> {
        match self {
            Select::Label(label) | Select::ActiveLabel(label) => Some(label),
            Select::ActiveControlled | Select::Namespace => None,
        }
    }
}

/// What a `for_each` loops over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Over {
    /// What the `list` or `count` before it returned: the snapshot the sync decided on.
    #[default]
    Read,
    /// A LIST of its own from the apiserver (controller-runtime's API
    /// reader), selected as the read before: fresher than the cache the
    /// sync's count read, and so not what it decided on.
    Live,
}

/// Which children a surplus deletes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Victims {
    /// A surplus is left alone.
    #[default]
    Keep,
    /// `children[desired:]` in the order the lister returned them (a Go map's
    /// when `controller.list_order` is `random`).
    PastDesired,
    /// The newest first (`getPodsToDelete` with every pod Running and ready).
    Newest,
    /// The oldest first.
    Oldest,
    /// Any of them, drawn with the run's seeded RNG (KubeRay #715 deleted a random worker pod).
    Random,
    /// By name: the highest ordinal first (the number after the name's last
    /// `-`, as `getOrdinal` reads it: `web-10` before `web-9`), as a StatefulSet scales down
    /// (`pkg/controller/statefulset/stateful_set_control.go`: the condemned,
    /// sorted by descending ordinal); names without one go last, by name.
    HighestOrdinal,
}

/// What a delete asks the apiserver to check first (`metav1.Preconditions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Precondition {
    /// Delete whatever holds the name now.
    #[default]
    None,
    /// Only the very object the reconcile read: another under its name is `409 Conflict`.
    Uid,
    /// Only the object as the reconcile read it: one changed since is `409 Conflict`.
    ResourceVersion,
}

impl Precondition {
    /// As Go writes it for the object `of` (a delete's `Preconditions`).
    pub fn go(self, of: &str) -> String {
        match self {
            Precondition::None => String::new(),
            Precondition::Uid => format!(", Preconditions{{UID: {of}.UID}}"),
            Precondition::ResourceVersion => format!(", Preconditions{{ResourceVersion: {of}.ResourceVersion}}"),
        }
    }
}

/// A delete's options as Go passes them after the object: `, Preconditions{UID: c.UID}, client.PropagationPolicy(…)`.
fn delete_options(precondition: Precondition, propagation: Option<Propagation>) -> String {
    let policy = propagation.map_or(String::new(), |p| format!(", {}", p.go()));
    format!("{}{policy}", precondition.go("c"))
}

/// How a create names its object.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Naming {
    /// The owner's name, this, and an index: `{owner}{this}{i}` for each
    /// index below the desired count absent from the cache (`-voice-`: `beta-voice-0`).
    Indexed(Arc<str>),
    /// `generateName: {owner}{this}`: the apiserver adds five random letters (`-`: `web-x7k2p`).
    Generate(Arc<str>),
}

/// How a create step sends its requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Batches {
    /// One at a time, as a Go `for` loop does: the first failure stops it.
    #[default]
    OneByOne,
    /// `slowStartBatch`: batches of 1, 2, 4, … sent at once; a batch with a failure stops it.
    SlowStart,
}

/// What `SatisfiedExpectations` being false does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OnPending {
    /// Return at once.
    #[default]
    Return,
    /// Count anyway, creating and deleting nothing (`rsNeedsSync` false: the
    /// ReplicaSet still writes its status from the count).
    CountOnly,
}

/// When a `label_owner` step takes its labels off an owner whose list found none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    /// Whenever the list found none: a cache that has not listed them yet
    /// reads as "no features" (node-feature-discovery #1802, #2408).
    #[default]
    WhenNoneListed,
    /// Only once the event handler has seen a DELETED of one of the owner's
    /// children: a miss in the cache is a miss, not a delete
    /// (node-feature-discovery #2415's `pendingDeletes`). A simplification:
    /// #2415 also strips the labels of a node it has synced before
    /// (`processedOnce`); here only an observed delete does.
    OnObservedDelete,
}

/// A number a condition compares: a fact the reconcile has read, or a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Term {
    /// `len(children)`: what the `count` or `list` before it found.
    Found,
    /// The owner's desired count, as read (`owner.Spec.Replicas`).
    Desired,
    /// A constant.
    Int(u32),
}

impl Serialize for Term {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Term::Found => s.serialize_str("found"),
            Term::Desired => s.serialize_str("desired"),
            Term::Int(n) => s.serialize_u32(*n),
        }
    }
}

/// A fact's name or a whole number; anything else is refused, named.
impl<'de> Deserialize<'de> for Term {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Term, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Term;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"found\", \"desired\" or a whole number")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Term, E> {
                match v {
                    "found" => Ok(Term::Found),
                    "desired" => Ok(Term::Desired),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Term, E> {
                u32::try_from(v).map(Term::Int).map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Term, E> {
                u32::try_from(v).map(Term::Int).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Term, E> {
                Err(E::invalid_value(serde::de::Unexpected::Float(v), &self))
            }
        }
        d.deserialize_any(Visit)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl JsonSchema for Term {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Term".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A number a condition compares: `found` (what the `count` or `list` before found), `desired` (the owner's desired count) or a constant.",
            "oneOf": [
                {"type": "string", "enum": ["found", "desired"]},
                {"type": "integer", "minimum": 0, "maximum": u32::MAX}
            ]
        })
    }
}

/// What a reconcile decides on (`return_if`'s `when`): a comparison of two
/// terms, a fact of the owner read, or `not`, `all` and `any` of conditions,
/// nested a few levels at most (`limits`). Not a language: a Go `if`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Cond {
    /// `a < b`
    Lt(Term, Term),
    /// `a <= b`
    Le(Term, Term),
    /// `a == b`
    Eq(Term, Term),
    /// `a != b`
    Ne(Term, Term),
    /// `a > b`
    Gt(Term, Term),
    /// `a >= b`
    Ge(Term, Term),
    /// The owner read has a deletionTimestamp (`get_owner` must not stop at one).
    OwnerTerminating,
    /// Not this.
    Not(Box<Cond>),
    /// Each of these.
    All(Vec<Cond>),
    /// One of these, at least.
    Any(Vec<Cond>),
}

/// What a condition reads, as the reconcile read it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Facts {
    pub found: u32,
    pub desired: u32,
    pub owner_terminating: bool,
}

impl Cond {
    /// How deep it nests: a comparison or a fact is one level; `not`, `all` and `any` add one.
    pub fn depth(&self) -> usize {
        match self {
            Cond::Not(c) => 1 + c.depth(),
            Cond::All(cs) | Cond::Any(cs) => 1 + cs.iter().map(Cond::depth).max().unwrap_or(0),
            _ => 1,
        }
    }

    /// Its terms and facts, each given to `each`, outermost first.
    pub fn walk<'a>(&'a self, each: &mut impl FnMut(&'a Cond)) {
        each(self);
        match self {
            Cond::Not(c) => c.walk(each),
            Cond::All(cs) | Cond::Any(cs) => cs.iter().for_each(|c| c.walk(each)),
            _ => {}
        }
    }

    /// The two terms a comparison compares.
    pub fn terms(&self) -> Option<[Term; 2]> {
        match *self {
            Cond::Lt(a, b) | Cond::Le(a, b) | Cond::Eq(a, b) | Cond::Ne(a, b) | Cond::Gt(a, b) | Cond::Ge(a, b) => Some([a, b]),
            _ => None,
        }
    }

    /// Whether it holds of `facts`.
    pub fn holds(&self, facts: &Facts) -> bool {
        let value = |t: Term| match t {
            Term::Found => facts.found,
            Term::Desired => facts.desired,
            Term::Int(n) => n,
        };
        match *self {
            Cond::Lt(a, b) => value(a) < value(b),
            Cond::Le(a, b) => value(a) <= value(b),
            Cond::Eq(a, b) => value(a) == value(b),
            Cond::Ne(a, b) => value(a) != value(b),
            Cond::Gt(a, b) => value(a) > value(b),
            Cond::Ge(a, b) => value(a) >= value(b),
            Cond::OwnerTerminating => facts.owner_terminating,
            Cond::Not(ref c) => !c.holds(facts),
            Cond::All(ref cs) => cs.iter().all(|c| c.holds(facts)),
            Cond::Any(ref cs) => cs.iter().any(|c| c.holds(facts)),
        }
    }

    /// Whether it reads `term` anywhere.
    pub fn reads(&self, term: Term) -> bool {
        let mut found = false;
        self.walk(&mut |c| found |= c.terms().is_some_and(|ts| ts.contains(&term)));
        found
    }

    /// As Go writes it, the desired count read from `desired_field`.
    pub fn go(&self, desired_field: &str) -> String {
        let term = |t: Term| match t {
            Term::Found => "len(children)".to_string(),
            Term::Desired => format!("owner.Spec.{desired_field}"),
            Term::Int(n) => n.to_string(),
        };
        let inner = |c: &Cond| match c {
            Cond::All(_) | Cond::Any(_) => format!("({})", c.go(desired_field)),
            _ => c.go(desired_field),
        };
        let join = |cs: &[Cond], op: &str| cs.iter().map(inner).collect::<Vec<_>>().join(op);
        match self {
            Cond::OwnerTerminating => "owner.DeletionTimestamp != nil".to_string(),
            Cond::Not(c) => match **c {
                Cond::OwnerTerminating => "owner.DeletionTimestamp == nil".to_string(),
                _ => format!("!({})", c.go(desired_field)),
            },
            Cond::All(cs) => join(cs, " && "),
            Cond::Any(cs) => join(cs, " || "),
            c => {
                let [a, b] = c.terms().expect("a comparison");
                let op = match c {
                    Cond::Lt(..) => "<",
                    Cond::Le(..) => "<=",
                    Cond::Eq(..) => "==",
                    Cond::Ne(..) => "!=",
                    Cond::Gt(..) => ">",
                    _ => ">=",
                };
                format!("{} {op} {}", term(a), term(b))
            }
        }
    }
}

/// What a `for_each` asks of each object its read returned, as read: a Go
/// `if` over one object's fields. Nested a few levels at most (`limits`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Is {
    /// It has a deletionTimestamp.
    Terminating,
    /// Its controllerRef carries the owner's UID, as the owner was read.
    Controlled,
    /// It has no controllerRef.
    Orphan,
    /// Its label `key` holds `value`: `["key", "value"]`.
    Labelled(Arc<str>, Arc<str>),
    /// Not this.
    Not(Box<Is>),
    /// Each of these.
    All(Vec<Is>),
    /// One of these, at least.
    Any(Vec<Is>),
}

impl Is {
    /// How deep it nests: a fact is one level; `not`, `all` and `any` add one.
    pub fn depth(&self) -> usize {
        match self {
            Is::Not(c) => 1 + c.depth(),
            Is::All(cs) | Is::Any(cs) => 1 + cs.iter().map(Is::depth).max().unwrap_or(0),
            _ => 1,
        }
    }

    /// Whether it holds of `o`, whose owner, as read, has UID `owner_uid`.
    pub fn holds(&self, o: &Object, owner_uid: u64) -> bool {
        match self {
            Is::Terminating => o.is_terminating(),
            Is::Controlled => o.controller_ref().is_some_and(|r| r.uid == owner_uid),
            Is::Orphan => o.controller_ref().is_none(),
            Is::Labelled(key, value) => o.labels.get(&**key).is_some_and(|v| **v == **value),
            Is::Not(c) => !c.holds(o, owner_uid),
            Is::All(cs) => cs.iter().all(|c| c.holds(o, owner_uid)),
            Is::Any(cs) => cs.iter().any(|c| c.holds(o, owner_uid)),
        }
    }

    /// As Go writes it of the object `c`.
    pub fn go(&self) -> String {
        let inner = |c: &Is| match c {
            Is::All(_) | Is::Any(_) => format!("({})", c.go()),
            _ => c.go(),
        };
        let join = |cs: &[Is], op: &str| cs.iter().map(inner).collect::<Vec<_>>().join(op);
        match self {
            Is::Terminating => "c.DeletionTimestamp != nil".to_string(),
            Is::Controlled => "metav1.IsControlledBy(c, owner)".to_string(),
            Is::Orphan => "metav1.GetControllerOf(c) == nil".to_string(),
            Is::Labelled(key, value) => format!("c.Labels[{key:?}] == {value:?}"),
            Is::Not(c) => match **c {
                Is::Terminating => "c.DeletionTimestamp == nil".to_string(),
                Is::Controlled => "!metav1.IsControlledBy(c, owner)".to_string(),
                Is::Orphan => "metav1.GetControllerOf(c) != nil".to_string(),
                Is::Labelled(ref key, ref value) => format!("c.Labels[{key:?}] != {value:?}"),
                _ => format!("!({})", c.go()),
            },
            Is::All(cs) => join(cs, " && "),
            Is::Any(cs) => join(cs, " || "),
        }
    }
}

/// What a `for_each` does to each object it picks: one request each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Act {
    /// `client.Delete(c)`, with a precondition and a propagation policy;
    /// NotFound is someone else's delete, not an error.
    Delete {
        #[serde(default)]
        precondition: Precondition,
        /// `PropagationPolicy`: what becomes of the object's own dependents
        /// (absent: the resource's default, background).
        #[serde(default)]
        propagation: Option<Propagation>,
    },
}

/// One step of a reconcile.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Op {
    /// v1.36's `consistencyStore.EnsureReady(key)`: an error skips the sync
    /// and returns it (the key is requeued rate-limited).
    EnsureReady,
    /// The owner by the key's name. Absent: `Clear`, `DeleteExpectations`,
    /// return. With `stop_if_terminating`, a deletionTimestamp returns too.
    GetOwner {
        #[serde(default)]
        from: ReadFrom,
        #[serde(default = "yes")]
        stop_if_terminating: bool,
    },
    /// `SatisfiedExpectations(key)`; an expired record is logged and counted as satisfied.
    CheckExpectations {
        #[serde(default)]
        on_pending: OnPending,
    },
    /// `if when { return err }`: end the sync where `when` holds, with an
    /// error (`error`: requeued rate-limited, with backoff) or nil (the key
    /// is forgotten until an event brings it back). A guard of the
    /// controller's own: a quorum, a phase, a count not yet reached. With
    /// `terminal`, the error is controller-runtime's
    /// `reconcile.TerminalError(err)`: counted, never retried (a spec the
    /// controller can never satisfy).
    ReturnIf {
        when: Cond,
        #[serde(default)]
        error: bool,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        terminal: bool,
    },
    /// Count the owner's children against its desired count and plan: create
    /// the missing, at most `burst` (none: no limit), or delete a surplus.
    Count {
        #[serde(default)]
        from: ReadFrom,
        select: Select,
        #[serde(default)]
        victims: Victims,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        burst: Option<u32>,
        /// Count against this many, not the owner's desired count: Cluster
        /// API's MachineDeployment controller wants one MachineSet for its
        /// template, and gives it the Machines it wants (`create`'s `copy_desired`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        desired: Option<u32>,
    },
    /// List the owner's children (or any objects of the child kind that
    /// name it, such as node-feature-discovery's NodeFeatures of a Node) and
    /// keep what was found, without a desired count to plan against: what
    /// a `label_owner` acts on.
    List {
        #[serde(default)]
        from: ReadFrom,
        select: Select,
    },
    /// Write `labels` (and `annotations`) on the owner when the list found some of its
    /// children, and take them off when it found none (`remove` says when),
    /// with an `Update` of the owner as read (node-feature-discovery's
    /// `nfd-master` labels each Node from its NodeFeatures). Without a
    /// `precondition` it is sent as a patch of the labels is, over whatever
    /// the owner holds now, and writes the rest of the owner back as read: a
    /// stale read undoes a change it has not seen. With one, an owner that
    /// has moved on since the read (or another under its name) is
    /// `409 Conflict`, the sync's error.
    LabelOwner {
        #[serde(default)]
        labels: BTreeMap<Arc<str>, Arc<str>>,
        /// Written and taken off with the labels, in the same `Update`.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        annotations: BTreeMap<Arc<str>, Arc<str>>,
        #[serde(default)]
        remove: Removal,
        #[serde(default)]
        precondition: Precondition,
    },
    /// Create what the plan is missing (`ExpectCreations` first, when kept).
    Create {
        naming: Naming,
        /// The label each child carries, set to the owner's name.
        label: Arc<str>,
        /// A controllerRef to the owner, with its UID.
        #[serde(default = "yes")]
        owner_reference: bool,
        #[serde(default)]
        batches: Batches,
        /// Each child asks for the owner's desired count (a MachineSet
        /// created with its MachineDeployment's replicas): the child kind's
        /// own desired field, set from the owner's.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        copy_desired: bool,
    },
    /// Delete the plan's victims (`ExpectDeletions` first, when kept), one at a
    /// time or all at once; a NotFound is someone else's delete, not an error.
    Delete {
        #[serde(default)]
        at_once: bool,
        #[serde(default)]
        precondition: Precondition,
        /// `PropagationPolicy` (absent: the resource's default, background).
        #[serde(default)]
        propagation: Option<Propagation>,
    },
    /// Poll the cache until it holds every object this reconcile created,
    /// or `timeout_ms` passes, and then return an error (Cluster API's
    /// `wait.PollUntilContextTimeout` after creating a MachineSet: a timeout
    /// returns, and the retry counts a cache that still lacks it). The world
    /// wakes it when the cache holds them, not every 100 ms.
    WaitForCache { timeout_ms: u64 },
    /// `updateReplicaSetStatus`: write what was counted, unless the status
    /// says it already; a failure is retried `retries` times after a GET.
    UpdateStatus {
        #[serde(default = "one")]
        retries: u32,
    },
    /// The finalizer pattern (`controllerutil.AddFinalizer` /
    /// `RemoveFinalizer`, then `client.Update(owner)` with the
    /// resourceVersion read: a stale owner is `409 Conflict`): added while
    /// the owner lives, removed once it is Terminating (its children are
    /// the garbage collector's, by their ownerReferences), and the sync
    /// returns. Needs `get_owner` with `stop_if_terminating: false`.
    Finalizer { name: Arc<str> },
    /// For each object the `list` or `count` before it read, in the order
    /// read, where `when` holds (absent: every one): `do` it, one request
    /// at a time, at most `max` objects a sync (the rest wait for the next);
    /// the first error ends the loop and is the sync's. A Go `for _, c :=
    /// range children { if when { … } }`, bounded. Its deletes raise no
    /// expectations.
    ForEach {
        #[serde(default)]
        over: Over,
        max: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        when: Option<Is>,
        #[serde(rename = "do")]
        act: Act,
    },
    /// Return the first error the sync met, or nil.
    Return,
    /// Return as `return` does, asking to be queued again `after_ms` later
    /// when there was no error (controller-runtime's
    /// `ctrl.Result{RequeueAfter: d}`, client-go's `queue.AddAfter`): a
    /// controller that polls, or waits on something no event announces.
    RequeueAfter { after_ms: u64 },
}

impl Op {
    /// The line of the pseudo-code this step is.
    pub fn step(&self) -> Step {
        match self {
            Op::EnsureReady => Step::EnsureReady,
            Op::GetOwner { .. } => Step::GetOwner,
            Op::CheckExpectations { .. } => Step::CheckExpectations,
            Op::Count { .. } | Op::List { .. } => Step::ListChildren,
            Op::LabelOwner { .. } => Step::LabelOwner,
            Op::ReturnIf { .. } => Step::ReturnIf,
            Op::ForEach { .. } => Step::ForEach,
            Op::Create { .. } => Step::Create,
            Op::Delete { .. } => Step::Delete,
            Op::WaitForCache { .. } => Step::WaitForCache,
            Op::UpdateStatus { .. } => Step::UpdateStatus,
            Op::Finalizer { .. } => Step::Finalizer,
            Op::Return | Op::RequeueAfter { .. } => Step::Return,
        }
    }
}

/// What a controller's expectations are kept under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum KeyedBy {
    /// The owner's `namespace/name`, the workqueue key: an owner deleted and
    /// re-created under its name before a sync sees it gone inherits the old
    /// one's pending record (kubernetes #142247, the Job controller).
    #[default]
    Name,
    /// The owner's UID: a re-created owner starts with no record. Children
    /// are traced to it by their controllerRef, which must then be set.
    Uid,
}

impl KeyedBy {
    /// The record's key for the owner with workqueue key `key` and `uid`.
    pub fn key(self, key: &Name, uid: u64) -> Name {
        match self {
            KeyedBy::Name => key.clone(),
            KeyedBy::Uid => Name::from(format!("{key}#{uid}")),
        }
    }
}

fn yes() -> bool {
    true
}
fn one() -> u32 {
    1
}

/// A reconcile loop as data.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields, from = "RecipeDoc")]
pub struct Recipe {
    /// The name the controller goes by in logs and the audit log's user
    /// field (`kuberay-operator`). Absent: its controller kind's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Arc<str>>,
    /// The kind it reconciles; each object's spec holds its desired count.
    pub owner: Kind,
    /// The kind it counts, creates and deletes.
    pub child: Kind,
    /// Keeps ControllerExpectations: the guard, and the bookkeeping of every
    /// create and delete (`ExpectCreations`, `CreationObserved` for a create
    /// that failed, `DeleteExpectations` when the owner is gone).
    #[serde(default)]
    pub expectations: bool,
    /// What its expectations are kept under: the owner's `name` (default) or its `uid`.
    #[serde(default)]
    pub expectations_keyed_by: KeyedBy,
    /// Whether the owner's delete handler calls `DeleteExpectations` (the
    /// ReplicaSet controller's `deleteRS` does; the Job controller's
    /// `deleteJob` did not, kubernetes #142142). Absent: its controller kind's wiring.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delete_expectations_on_delete: Option<bool>,
    /// Its steps, in order; the last is `return`.
    #[serde(rename = "steps")]
    pub ops: Arc<[Op]>,
}

/// A recipe as a document writes it: `expectations` may be left out, and
/// is then kept exactly when a step checks them, so the guard is one line
/// added (`{"check_expectations": {}}`), as it is one line of the code.
#[derive(Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
struct RecipeDoc {
    /// The name the controller goes by in logs and the audit log's user
    /// field (`kuberay-operator`). Absent: its controller kind's.
    #[serde(default)]
    name: Option<Arc<str>>,
    /// The kind it reconciles; each object's spec holds its desired count.
    owner: Kind,
    /// The kind it counts, creates and deletes.
    child: Kind,
    /// Keeps ControllerExpectations: the guard, and the bookkeeping of every
    /// create and delete (`ExpectCreations`, `CreationObserved` for a create
    /// that failed, `DeleteExpectations` when the owner is gone). Absent:
    /// kept when a `check_expectations` step reads them.
    #[serde(default)]
    expectations: Option<bool>,
    /// What its expectations are kept under: the owner's `name` (default) or its `uid`.
    #[serde(default)]
    expectations_keyed_by: KeyedBy,
    /// Whether the owner's delete handler calls `DeleteExpectations` (the
    /// ReplicaSet controller's `deleteRS` does; the Job controller's
    /// `deleteJob` did not, kubernetes #142142). Absent: its controller kind's wiring.
    #[serde(default)]
    delete_expectations_on_delete: Option<bool>,
    /// Its steps, in order; the last is `return`.
    steps: Arc<[Op]>,
}

impl From<RecipeDoc> for Recipe {
    fn from(d: RecipeDoc) -> Recipe {
        let checked = d.steps.iter().any(|op| matches!(op, Op::CheckExpectations { .. }));
        Recipe {
            name: d.name,
            owner: d.owner,
            child: d.child,
            expectations: d.expectations.unwrap_or(checked),
            expectations_keyed_by: d.expectations_keyed_by,
            delete_expectations_on_delete: d.delete_expectations_on_delete,
            ops: d.steps,
        }
    }
}

impl Recipe {
    /// The selector its `count` or `list` reads with.
    pub fn select(&self) -> Option<&Select> {
        self.ops.iter().find_map(|op| match op {
            Op::Count { select, .. } | Op::List { select, .. } => Some(select),
            _ => None,
        })
    }

    /// Whether the recipe has a step on this line: a line it lacks is drawn off.
    pub fn has(&self, step: Step) -> bool {
        step == Step::Dequeue || self.ops.iter().any(|op| op.step() == step)
    }

    /// Its event handler keeps the owners whose child's DELETED it saw
    /// (a `label_owner` that removes only on an observed delete reads them).
    pub fn observes_deletes(&self) -> bool {
        self.ops.iter().any(|op| matches!(op, Op::LabelOwner { remove: Removal::OnObservedDelete, .. }))
    }
}

impl Recipe {
    /// The recipe as the pseudo-code the Reconcile panel shows and
    /// `cachescope recipe` prints: a line per step, in Go as the controller
    /// would be written, the owner's desired count read from `desired_field`.
    pub fn code(&self, desired_field: &str) -> Vec<(Step, String)> {
        let reader = |from: ReadFrom| match from {
            ReadFrom::Cache => "lister",
            ReadFrom::Live => "apiReader",
            ReadFrom::ReadYourWrites => "client",
        };
        let whence = |from: ReadFrom| match from {
            ReadFrom::Cache => "the cache, not the cluster",
            ReadFrom::Live => "live: a request to the apiserver",
            ReadFrom::ReadYourWrites => "the cache; with read-your-writes, once it has seen this client's writes",
        };
        let mut lines = vec![(Step::Dequeue, "key := queue.Get()".to_string())];
        for op in self.ops.iter() {
            let text = match op {
                Op::EnsureReady => "if err := consistencyStore.EnsureReady(key); err != nil { return err }".to_string(),
                Op::GetOwner { from, stop_if_terminating } => format!(
                    "owner, err := {}.Get(key)   // NotFound: forget it, return{}",
                    reader(*from),
                    if *stop_if_terminating { "; DeletionTimestamp set: return" } else { "" }
                ),
                Op::CheckExpectations { on_pending: OnPending::Return } => {
                    "if !expectations.SatisfiedExpectations(key) { return nil }".to_string()
                }
                Op::CheckExpectations { on_pending: OnPending::CountOnly } => {
                    "needsSync := expectations.SatisfiedExpectations(key)   // false: count, but create and delete nothing".to_string()
                }
                Op::Count { from, select, victims, burst, desired } => {
                    let which = selector(select);
                    let surplus = match victims {
                        Victims::Keep => "",
                        Victims::PastDesired => "; surplus: children[desired:]",
                        Victims::Newest => "; surplus: the newest",
                        Victims::Oldest => "; surplus: the oldest",
                        Victims::Random => "; surplus: any, at random",
                        Victims::HighestOrdinal => "; surplus: the highest ordinal first",
                    };
                    let clamp = burst.map(|b| format!(", at most {b}")).unwrap_or_default();
                    let wanted = desired.map_or(format!("owner.Spec.{desired_field}"), |n| n.to_string());
                    format!("children := {}.List({which}); diff := {wanted} - len(children)   // {}{surplus}{clamp}", reader(*from), whence(*from))
                }
                Op::List { from, select } => {
                    format!("children := {}.List({})   // {}", reader(*from), selector(select), whence(*from))
                }
                Op::LabelOwner { labels, annotations, remove, precondition } => {
                    let keys: Vec<String> = labels
                        .keys()
                        .map(|k| k.to_string())
                        .chain(annotations.keys().map(|k| format!("annotation {k}")))
                        .collect();
                    let keys = keys.join(", ");
                    // The precondition's comment goes before the removal's.
                    let checked = match precondition {
                        Precondition::None => "",
                        Precondition::Uid => "metadata.uid as read: another under its name, 409 Conflict; ",
                        Precondition::ResourceVersion => "resourceVersion as read: moved on since, 409 Conflict; ",
                    };
                    match remove {
                        Removal::WhenNoneListed => format!(
                            "if len(children) > 0 {{ set [{keys}] }} else {{ remove [{keys}] }}; if changed: client.Update(owner)   // {checked}none listed: removed"
                        ),
                        Removal::OnObservedDelete => format!(
                            "if len(children) > 0 {{ set [{keys}] }} else if pendingDelete[key] {{ remove [{keys}] }}; if changed: client.Update(owner)   // {checked}none listed, no delete seen: kept"
                        ),
                    }
                }
                Op::ReturnIf { when, error, terminal } => {
                    let (returns, then) = match (*error, *terminal) {
                        (true, true) => ("reconcile.TerminalError(fmt.Errorf(…))", "counted, never requeued"),
                        (true, false) => ("fmt.Errorf(…)", "requeued with backoff"),
                        _ => ("nil", "Forget"),
                    };
                    format!("if {} {{ return {returns} }}   // {then}", when.go(desired_field))
                }
                Op::Create { naming, label, owner_reference, batches, copy_desired } => {
                    let name = match naming {
                        Naming::Indexed(infix) => format!("Name: owner.Name+\"{infix}\"+i"),
                        Naming::Generate(infix) => format!("GenerateName: owner.Name+\"{infix}\""),
                    };
                    let owner_ref = if *owner_reference { ", controllerRef: owner" } else { "" };
                    let how = match batches {
                        Batches::OneByOne => "one at a time",
                        Batches::SlowStart => "slowStartBatch: 1, 2, 4, … at once",
                    };
                    let spec = match (copy_desired, self.child.desired_field()) {
                        (true, Some(field)) => format!(", Spec.{field}: owner.Spec.{desired_field}"),
                        _ => String::new(),
                    };
                    format!("for each missing: client.Create({{{name}, {label}: owner.Name{owner_ref}{spec}}})   // {how}")
                }
                Op::Delete { at_once, precondition, propagation } => {
                    let how = if *at_once { "all at once" } else { "one at a time" };
                    format!("for _, c := range surplus {{ client.Delete(c{}) }}   // {how}", delete_options(*precondition, *propagation))
                }
                Op::WaitForCache { timeout_ms } => format!(
                    "err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, {}, …lister.Get(each created)…); if err != nil {{ return err }}",
                    go_constant(*timeout_ms)
                ),
                Op::UpdateStatus { retries } => {
                    match retries {
                        0 => "client.UpdateStatus(owner, len(children))   // a failure is the sync's error".to_string(),
                        n => format!("client.UpdateStatus(owner, len(children))   // a failure (a 409 Conflict): Get, try again, {n}× at most"),
                    }
                }
                Op::Finalizer { name } => format!(
                    "deleting: RemoveFinalizer(owner, {name:?}); else: AddFinalizer(owner, {name:?}); if changed: client.Update(owner)   // deleting: return"
                ),
                Op::ForEach { over, max, when, act } => {
                    let Act::Delete { precondition, propagation } = act;
                    let range = match over {
                        Over::Read => "children".to_string(),
                        Over::Live => format!("apiReader.List({}).Items", self.select().map_or(String::new(), selector)),
                    };
                    let body = format!("client.Delete(c{})", delete_options(*precondition, *propagation));
                    let body = match when {
                        Some(when) => format!("if {} {{ {body} }}", when.go()),
                        None => body,
                    };
                    format!("for _, c := range {range} {{ {body} }}   // {max} a sync at most; an error: return it")
                }
                Op::Return => "return err   // nil: Forget; an error: AddRateLimited".to_string(),
                Op::RequeueAfter { after_ms } => format!(
                    "return ctrl.Result{{RequeueAfter: {}}}, err   // nil: Forget, then added again after it; an error: AddRateLimited",
                    go_constant(*after_ms)
                ),
            };
            lines.push((op.step(), text));
        }
        lines
    }
}

/// The selector a list or count reads with, as the pseudo-code writes it.
fn selector(select: &Select) -> String {
    match select {
        Select::Label(label) => format!("{label}=owner.Name"),
        Select::ActiveControlled => "controlled by owner, active".to_string(),
        Select::ActiveLabel(label) => format!("{label}=owner.Name, active"),
        Select::Namespace => "client.InNamespace(owner.Namespace)".to_string(),
    }
}

/// A duration as Go writes a constant of it: `10*time.Second`, `1500*time.Millisecond`.
fn go_constant(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}*time.Second", ms / 1000)
    } else {
        format!("{ms}*time.Millisecond")
    }
}
