//! The document a course author writes: a scenario's serde types, strict
//! (`deny_unknown_fields`), with their defaults. The `cluster` and
//! `controller` sections are the simulation's own settings types.

use super::expect::Check;
use super::lesson::LessonStep;
use crate::sim::apiserver::{EventType, FailMode, Verb};
use crate::sim::object::Kind;
use crate::sim::settings::{ClusterSettings, ControllerSettings};
use crate::sim::world::Deviation;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[cfg(not(target_arch = "wasm32"))]
use schemars::JsonSchema;

/// A complete scenario document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// A short identifier, shown in the page and the report.
    pub name: String,
    /// What the scenario shows and what the lab expects, in a few sentences.
    #[serde(default)]
    pub description: String,
    /// One line to begin with: what to press and what to watch ("Press ▶ and
    /// watch the Cache fall behind the Cluster"). The page's frame-0 caption
    /// shows it instead of the description, which stays under "About this
    /// scenario" (empty: the description is the first caption).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub start: String,
    /// The controls the story uses, in the order the page shows them:
    /// setting paths (`controller.naming`, `cluster.watch_lag_ms`) and page
    /// actions named as `edit=`'s `do=` words (`scale`, `delete_pod`). The
    /// page puts every other control under "More settings" (empty: it shows
    /// everything).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub controls: Vec<String>,
    /// The real incident this scenario mirrors.
    #[serde(default)]
    pub incident: Option<Incident>,
    /// What the run must show: each figure the description or the lab states,
    /// as a check the page draws beside the measured value and `cachescope
    /// check` enforces.
    #[serde(default)]
    pub expect: Vec<Check>,
    /// Steps that ask before they show: where the run pauses, the question,
    /// the answer measured there, what the learner reads after answering
    /// (`crate::scenario::lesson`). Empty: no lesson.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lesson: Vec<LessonStep>,
    /// Kinds of the scenario's own, beside the built-in ones (`RayCluster`,
    /// `Job`), each nameable wherever a kind is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<super::DeclaredKind>,
    /// What "broken" means for this scenario's controller, beside the
    /// built-in invariants (`crate::scenario::invariants`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invariants: Vec<super::InvariantSpec>,
    /// The declared kinds, read from `kinds` before the rest (the parse fills it in).
    #[serde(skip)]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(skip))]
    pub declared: Vec<Kind>,
    /// Seeds the one RNG: generated names, jitter, which pod gets deleted.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Simulated time at which the run stops (it stops earlier if nothing is left to happen).
    #[serde(default = "default_until_ms")]
    pub until_ms: u64,
    // The world reads these two as they are (`sim::settings`).
    #[serde(default)]
    pub cluster: ClusterSettings,
    pub controller: ControllerSettings,
    /// Objects that exist before the run starts.
    #[serde(default)]
    pub objects: Vec<ObjectSpec>,
    /// What happens during the run, by time.
    #[serde(default)]
    pub actions: Vec<ActionSpec>,
    /// Where the run departs from the default schedule: watch events held
    /// back (what `cachescope explore` writes for a counterexample).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedule: Vec<Deviation>,
    /// Which idle worker takes a key from the workqueue, where the run
    /// departs from the default (the lowest idle worker): the page's choice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub takes: Vec<TakeSpec>,
}

fn default_seed() -> u64 {
    1
}

fn default_until_ms() -> u64 {
    60_000
}

/// A real incident, for the "this happened" note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Incident {
    pub title: String,
    pub url: String,
}

/// An object: its kind, name and, for owners, the desired count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ObjectSpec {
    pub kind: Kind,
    /// The name; with `count`, `{i}` in it runs from 1 to `count` (`seed-{i}`).
    pub name: String,
    /// Default: the controller's namespace.
    #[serde(default)]
    pub namespace: Option<String>,
    /// Make this many objects, `{i}` = 1..=count (default 1).
    #[serde(default)]
    pub count: Option<u32>,
    /// Ensemble only: `spec.voices`.
    #[serde(default)]
    pub voices: Option<u32>,
    /// ReplicaSet only: `spec.replicas`.
    #[serde(default)]
    pub replicas: Option<u32>,
    /// A declared owner kind only: its desired-count field (`{"workers": 3}`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub spec: BTreeMap<String, u32>,
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// `metadata.annotations`: keys as labels' are; values any text.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: BTreeMap<String, String>,
    /// `metadata.finalizers`: a delete leaves the object Terminating until
    /// an update removes them (nothing in the simulation removes a finalizer
    /// it did not add: an `apply` without it does).
    #[serde(default)]
    pub finalizers: Vec<String>,
    /// `metadata.ownerReferences`, each naming an object listed before this
    /// one (in `objects`, same namespace); the garbage collector follows them.
    #[serde(default)]
    pub owner_references: Vec<OwnerRefSpec>,
}

/// An ownerReference of a seed object: the owner by kind and name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct OwnerRefSpec {
    pub kind: Kind,
    pub name: String,
    /// The controllerRef (`controller: true`, which also blocks a foreground deletion of the owner).
    #[serde(default)]
    pub controller: bool,
}

/// The `take`th key taken from the workqueue over the run (counted from 1)
/// goes to worker `worker` (counted from 0), if it is idle then.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TakeSpec {
    pub take: u32,
    pub worker: u32,
}

/// A reference to an existing object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    pub kind: Kind,
    pub name: String,
    #[serde(default)]
    pub namespace: Option<String>,
    /// `delete` only: `Background` (kubectl's default), `Foreground` (the owner
    /// stays until its dependents are gone) or `Orphan` (they lose their
    /// reference to it and stay).
    #[serde(default)]
    pub propagation: Option<crate::sim::apiserver::Propagation>,
}

/// `kubectl scale`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ScaleSpec {
    pub kind: Kind,
    pub name: String,
    #[serde(default)]
    pub namespace: Option<String>,
    /// The new `voices` or `replicas`.
    pub to: u32,
}

/// Delete pods of a ReplicaSet, chosen by the seeded RNG, one every `interval_ms`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DeletePodsSpec {
    /// The ReplicaSet's name.
    pub owner: String,
    pub count: u32,
    pub interval_ms: u64,
}

/// Drop the next event on the controller's watch of `kind` (of `type`, if
/// given), or with `bookmark` its next BOOKMARK: a watch-list's
/// `k8s.io/initial-events-end` among them, as a proxy that filters nameless
/// objects has lost it (gravitational/teleport#64188).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DropSpec {
    pub kind: Kind,
    #[serde(rename = "type", default)]
    pub event_type: Option<EventType>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bookmark: bool,
}

/// Make the controller's next request with `verb` on `kind` fail: `as` is
/// `500` (nothing written), `timeout` (nothing written), `timeout_committed`
/// (written, but the controller sees a timeout) or `409` (a Conflict, as if
/// another writer had changed the object first; nothing written).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FailNextSpec {
    pub verb: Verb,
    pub kind: Kind,
    #[serde(rename = "as")]
    pub mode: FailMode,
    /// Which such request fails, counted from this action: 1, the default,
    /// the next; 3, the third (the two before it pass).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nth: Option<u32>,
}

/// Freeze the controller's leader for `for_ms`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PauseSpec {
    pub for_ms: u64,
}

/// A watch to expire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct KindSpec {
    pub kind: Kind,
}

/// Nothing to say: `{}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// One timeline entry: `at_ms` and exactly one of the action fields.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ActionSpec {
    pub at_ms: u64,
    /// `kubectl apply`: create, or update if it exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apply: Option<ObjectSpec>,
    /// `kubectl delete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delete: Option<TargetSpec>,
    /// `kubectl scale`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<ScaleSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delete_pods: Option<DeletePodsSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drop_next_event: Option<DropSpec>,
    /// Kill and restart the controller process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_controller: Option<Empty>,
    /// The controller's watch of `kind` expires (410 Expired) and its informer re-lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relist: Option<KindSpec>,
    /// The controller's next request with this verb on this kind fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_next: Option<FailNextSpec>,
    /// Freeze the controller's leader (SIGSTOP, a suspended VM, a starved CPU):
    /// with two replicas, the other takes the lease once it lapses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause_controller: Option<PauseSpec>,
}

/// What a timeline entry does: its one action field, as one enum. The
/// document keeps the JSON shape (`{"at_ms": 5, "scale": {…}}`); validation
/// and resolution read the entry only through [`ActionSpec::act`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Act<'a> {
    Apply(&'a ObjectSpec),
    Delete(&'a TargetSpec),
    Scale(&'a ScaleSpec),
    DeletePods(&'a DeletePodsSpec),
    DropNextEvent(&'a DropSpec),
    RestartController,
    Relist(&'a KindSpec),
    FailNext(&'a FailNextSpec),
    PauseController(&'a PauseSpec),
}

impl ActionSpec {
    /// The one action this entry gives, or how many it gives instead
    /// (validation refuses any other count than one, naming the entry).
    pub fn act(&self) -> Result<Act<'_>, usize> {
        let given = [
            self.apply.as_ref().map(Act::Apply),
            self.delete.as_ref().map(Act::Delete),
            self.scale.as_ref().map(Act::Scale),
            self.delete_pods.as_ref().map(Act::DeletePods),
            self.drop_next_event.as_ref().map(Act::DropNextEvent),
            self.restart_controller.as_ref().map(|_| Act::RestartController),
            self.relist.as_ref().map(Act::Relist),
            self.fail_next.as_ref().map(Act::FailNext),
            self.pause_controller.as_ref().map(Act::PauseController),
        ];
        let mut given = given.into_iter().flatten();
        match (given.next(), given.count()) {
            (Some(act), 0) => Ok(act),
            (first, more) => Err(usize::from(first.is_some()) + more),
        }
    }
}
