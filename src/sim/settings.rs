//! The settings of a run, one type for both ends: a scenario document embeds
//! [`ClusterSettings`] and [`ControllerSettings`] as its `cluster` and
//! `controller` sections (serde parses them, strictly, with their defaults),
//! and the world reads the same structs. A change during a run is a
//! [`Knob`]: a dotted path and a [`Val`], written into the field of that
//! name by [`ClusterSettings::set`] / [`ControllerSettings::set`], which are
//! generated from the struct's own field list, so a new live setting needs
//! no code of its own here.
//!
//! Limits, units, help and whether a setting may change during a run are
//! not here: `scenario::settings::SETTINGS` declares them, once per path.
//! (turmoil's `Config` and kube-runtime's `watcher::Config` keep each knob's
//! default beside it, as the fields below do.)

use super::apiserver::ControllerKind;
use super::informer::Fifo;
use super::object::Kind;
use super::recipe::Recipe;
use super::spec::ControllerSpec;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

#[cfg(not(target_arch = "wasm32"))]
use schemars::JsonSchema;

/// A value of a setting, as `edit=` carries it and a [`Knob`] writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Val {
    Int(u64),
    Flag(bool),
    /// One of a [`Choice`]'s words.
    Word(&'static str),
}

impl fmt::Display for Val {
    /// As `edit=` and `--set` write it: `800`, `true`, `generate`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Int(n) => write!(f, "{n}"),
            Val::Flag(b) => write!(f, "{b}"),
            Val::Word(w) => f.write_str(w),
        }
    }
}

/// A setting that changes while the world runs: the setting's dotted path
/// (`cluster.watch_lag_ms`) and its new value. The world writes it into the
/// field of that name ([`crate::sim::world::World::set_knob`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Knob {
    pub path: &'static str,
    pub value: Val,
}

/// An enum a setting chooses from: its variants and the words serde reads
/// and writes for them, in the same order (a test holds serde to the words).
/// `scenario::settings` offers the words; [`Field::set`] reads them.
pub trait Choice: Copy + 'static {
    const ALL: &'static [Self];
    const WORDS: &'static [&'static str];

    /// The variant a word names.
    fn from_word(word: &str) -> Option<Self> {
        Self::WORDS.iter().position(|w| *w == word).map(|i| Self::ALL[i])
    }
}

/// A field a [`Knob`] can write: `rest` is what is left of the path below
/// it (empty for a plain value). False when the path or the value's type
/// does not fit; validation has said so before a run ever gets here.
pub trait Field {
    fn set(&mut self, rest: &str, value: Val) -> bool;
}

impl Field for u64 {
    fn set(&mut self, rest: &str, value: Val) -> bool {
        match value {
            Val::Int(n) if rest.is_empty() => *self = n,
            _ => return false,
        }
        true
    }
}

impl Field for u32 {
    fn set(&mut self, rest: &str, value: Val) -> bool {
        match value {
            Val::Int(n) if rest.is_empty() && n <= u64::from(u32::MAX) => *self = n as u32,
            _ => return false,
        }
        true
    }
}

impl Field for bool {
    fn set(&mut self, rest: &str, value: Val) -> bool {
        match value {
            Val::Flag(b) if rest.is_empty() => *self = b,
            _ => return false,
        }
        true
    }
}

/// The word a [`Choice`] is written as.
pub fn word<T: Choice + PartialEq>(v: T) -> &'static str {
    T::ALL.iter().position(|x| *x == v).map_or("", |i| T::WORDS[i])
}

/// An optional setting (absent: its default) is set to a value.
impl<T: Field + Default> Field for Option<T> {
    fn set(&mut self, rest: &str, value: Val) -> bool {
        let mut v = T::default();
        let ok = v.set(rest, value);
        if ok {
            *self = Some(v);
        }
        ok
    }
}

/// A name never changes during a run.
impl Field for String {
    fn set(&mut self, _: &str, _: Val) -> bool {
        false
    }
}

impl<T: Choice> Field for T {
    fn set(&mut self, rest: &str, value: Val) -> bool {
        match value {
            Val::Word(w) if rest.is_empty() => match T::from_word(w) {
                Some(v) => *self = v,
                None => return false,
            },
            _ => return false,
        }
        true
    }
}

/// A settings struct and its `set(path, value)`, from one list of fields:
/// the struct's own. Each field is matched by its Rust name, which is its
/// serde name (no field here is renamed).
macro_rules! settings_struct {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl $name {
            /// Write `value` into the field at `path` (below this section:
            /// `watch_lag_ms`, `initial_list_ms_by_kind.Pod`). False if there
            /// is no such field or the value is not of its type.
            pub fn set(&mut self, path: &str, value: Val) -> bool {
                let (head, rest) = path.split_once('.').unwrap_or((path, ""));
                match head {
                    $( stringify!($field) => Field::set(&mut self.$field, rest, value), )*
                    _ => false,
                }
            }
        }
    };
}

settings_struct! {
    /// The cluster's timing. Every field has a default. Limits, units and help
    /// live in `scenario::settings::SETTINGS`, the one declaration of each setting.
    ///
    /// A scenario's `cluster` section, and what the world reads.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
    #[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
    // The document's name for it, which serde's messages say ("expected struct ClusterSection").
    #[serde(rename = "ClusterSection", deny_unknown_fields, default)]
    pub struct ClusterSettings {
        /// Commit to handler on the controller's watch.
        pub watch_lag_ms: u64,
        /// Extra seeded delay per event, up to this. Order is kept.
        pub watch_jitter_ms: u64,
        /// Latency of every API request.
        pub api_latency_ms: u64,
        /// From an informer's LIST to its items in the store.
        pub initial_list_ms: u64,
        /// `ExpectationsTimeout` (five minutes upstream).
        pub expectations_timeout_ms: u64,
        /// The garbage collector's watch lag (absent: the same as `watch_lag_ms`).
        pub gc_watch_lag_ms: Option<u64>,
        /// How long children may outlive a deleted owner before `no_orphans` breaks.
        pub orphan_grace_ms: u64,
        /// The controller's client-side rate limit in requests per second: every
        /// request it sends waits for a token (0: no limit; absent: its
        /// kind's default, [`ClusterSettings::client_limit`]).
        pub client_qps: Option<u32>,
        /// Requests the controller may send at once before the limit bites
        /// (absent: its kind's default).
        pub client_burst: Option<u32>,
        /// A pod's termination grace period (0: a delete removes it at once).
        pub pod_grace_period_ms: u64,
        /// A controller's watch ends with `410 Expired` this long after it began,
        /// and its reflector lists again after a backoff (0: never).
        pub watch_timeout_ms: u64,
        /// The controller's informers' resync period (0: none).
        pub resync_ms: u64,
        /// A first-LIST time for one kind's informer, over `initial_list_ms`.
        pub initial_list_ms_by_kind: ListTimes,
        /// Leader election's `LeaseDuration`, with two replicas.
        pub lease_ms: u64,
        /// How often the apiserver sends each controller watch a BOOKMARK (0: never).
        pub bookmark_ms: u64,
        /// A seeded extra delay before each BOOKMARK, up to this (0: on the beat).
        /// Upstream's cacher sends a watcher's bookmark when it is due
        /// (`defaultBookmarkFrequency = time.Minute` after the last), found
        /// on a jittered tick (`dispatchEvents`: `wait.Jitter(time.Second,
        /// 0.25)`, k8s.io/apiserver/pkg/storage/cacher/cacher.go), so each
        /// comes up to 1.25 s late and the next is a minute after it.
        pub bookmark_jitter_ms: u64,
    }
}

impl Default for ClusterSettings {
    /// The presets' baseline.
    fn default() -> Self {
        ClusterSettings {
            watch_lag_ms: 1000,
            watch_jitter_ms: 0,
            api_latency_ms: 20,
            initial_list_ms: 500,
            expectations_timeout_ms: super::expectations::DEFAULT_TIMEOUT_MS,
            gc_watch_lag_ms: None,
            orphan_grace_ms: 60_000,
            client_qps: None,
            client_burst: None,
            pod_grace_period_ms: 0,
            watch_timeout_ms: 0,
            resync_ms: 0,
            initial_list_ms_by_kind: ListTimes::default(),
            lease_ms: 15_000,
            bookmark_ms: 0,
            bookmark_jitter_ms: 0,
        }
    }
}

impl ClusterSettings {
    /// From a LIST of `kind` to its items in the store.
    pub(crate) fn initial_list_for(&self, kind: Kind) -> u64 {
        self.initial_list_ms_by_kind.get(kind).unwrap_or(self.initial_list_ms)
    }

    /// The controller's client-side limit, `(qps, burst)`, where a qps of 0 is
    /// no limit: what the scenario says, or what its kind's program runs with
    /// ([`crate::sim::spec::ControllerSpec::client_defaults`]).
    pub fn client_limit(&self, kind: ControllerKind) -> (u32, u32) {
        let (qps, burst) = kind.spec().client_defaults;
        (self.client_qps.unwrap_or(qps), self.client_burst.unwrap_or(burst))
    }

    /// The garbage collector's watch lag. A world built from a scenario has
    /// it resolved at the start (`Scenario::world_init`), so a change of the
    /// controller's lag during the run leaves the collector's alone.
    pub fn gc_watch_lag_ms(&self) -> u64 {
        self.gc_watch_lag_ms.unwrap_or(self.watch_lag_ms)
    }
}

/// A time per kind, by the kind's name, built in or declared (absent: the general setting).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(from = "PerKind", into = "PerKind")]
pub struct ListTimes(std::collections::BTreeMap<Kind, u64>);

/// [`ListTimes`] as a document writes it: every built-in kind (null when it
/// has no time of its own), then each declared kind given one.
type PerKind = std::collections::BTreeMap<Kind, Option<u64>>;

/// Each built-in kind's time a property, a declared kind's any other.
#[cfg(not(target_arch = "wasm32"))]
impl JsonSchema for ListTimes {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ListTimes".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let time = serde_json::json!({"type": ["integer", "null"], "format": "uint64", "minimum": 0, "default": null});
        let built_in: serde_json::Map<String, serde_json::Value> = Kind::ALL.iter().map(|k| (k.to_string(), time.clone())).collect();
        schemars::json_schema!({
            "description": "A time per kind, by the kind's name: a built-in kind's, or one the scenario's `kinds` declares (absent: the general setting).",
            "type": "object",
            "properties": built_in,
            "additionalProperties": time
        })
    }
}

impl ListTimes {
    /// The kinds with a time of their own, and the time.
    pub fn iter(&self) -> impl Iterator<Item = (Kind, u64)> + '_ {
        self.0.iter().map(|(k, v)| (*k, *v))
    }
}

impl From<PerKind> for ListTimes {
    fn from(m: PerKind) -> ListTimes {
        ListTimes(m.into_iter().filter_map(|(k, v)| Some((k, v?))).collect())
    }
}

impl From<ListTimes> for PerKind {
    fn from(t: ListTimes) -> PerKind {
        Kind::ALL.iter().map(|k| (*k, None)).chain(t.0.into_iter().map(|(k, v)| (k, Some(v)))).collect()
    }
}

impl ListTimes {
    /// The time for `kind`, if it has its own.
    pub(crate) fn get(&self, kind: Kind) -> Option<u64> {
        self.0.get(&kind).copied()
    }
}

impl Field for ListTimes {
    /// By the kind's name, as the document writes it (`initial_list_ms_by_kind.Pod`).
    fn set(&mut self, rest: &str, value: Val) -> bool {
        let (name, below) = rest.split_once('.').unwrap_or((rest, ""));
        let Some(kind) = Kind::named(name) else { return false };
        let mut time = self.get(kind);
        if !time.set(below, value) {
            return false;
        }
        match time {
            Some(ms) => self.0.insert(kind, ms),
            None => self.0.remove(&kind),
        };
        true
    }
}

settings_struct! {
    /// The controller under study and its switches.
    ///
    /// A scenario's `controller` section, and what the world reads. Every
    /// field but `kind` has a default; two are per controller
    /// (`ControllerSettings::expectations`, `ControllerSettings::workers`).
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Hash)]
    #[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
    #[serde(rename = "ControllerSection", deny_unknown_fields)]
    pub struct ControllerSettings {
        pub kind: ControllerKind,
        /// The namespace it works in.
        #[serde(default = "default_namespace")]
        pub namespace: String,
        /// Child names: `deterministic` (`beta-voice-0`) or `generate` (`generateName`).
        #[serde(default = "default_naming")]
        pub naming: Naming,
        /// The order its lister returns children in: `random`, as a Go map, or
        /// `key`. With `delete_surplus`, it decides which children go.
        #[serde(default)]
        pub list_order: ListOrder,
        /// The Kubernetes release it follows, a profile of the settings below
        /// that changed between releases (absent: each at its own default,
        /// the labs' behaviour). See [`KubeRelease`].
        #[serde(default)]
        pub kubernetes: Option<KubeRelease>,
        /// The controller-runtime release an operator is built with, a
        /// profile as `kubernetes` is for its client-go. See [`CrRelease`].
        #[serde(default)]
        pub controller_runtime: Option<CrRelease>,
        /// Kubernetes v1.36's consistency store (KEP-5647): skip a sync until the
        /// caches have read the controller's own writes back (`replicaset`, `ensemble`;
        /// absent: on for the ReplicaSet under the profiles from 1.36, else off).
        #[serde(default)]
        pub consistency_store: Option<bool>,
        /// ReplicaSet: write `status.replicas` after each sync, from the cache,
        /// with the resourceVersion it read (`updateReplicaSetStatus`), as
        /// upstream always does ("Always updates status as pods come up or
        /// die", `syncReplicaSet`). Off is a simplification.
        #[serde(default = "default_true")]
        pub update_status: bool,
        /// How its informers take a LIST: `atomic` (v1.36's AtomicFIFO, at once)
        /// or `delta` (v1.28's DeltaFIFO, one item at a time; absent: by profile, else atomic).
        #[serde(default)]
        pub fifo: Option<Fifo>,
        /// Its reflectors stream their first state with a watch-list instead of
        /// a LIST (client-go's `WatchListClient`, on by default since v0.35;
        /// absent: by profile, else off).
        #[serde(default)]
        pub watch_list: Option<bool>,
        /// Replicas of the controller: 1, or 2 with leader election.
        #[serde(default = "default_instances")]
        pub instances: u32,
        /// Re-add the key once after each successful reconcile.
        #[serde(default)]
        pub double_enqueue: bool,
        /// Use ControllerExpectations (absent: true for `replicaset`, false otherwise).
        #[serde(default)]
        pub expectations: Option<bool>,
        /// Delete children beyond the desired count.
        #[serde(default)]
        pub delete_surplus: bool,
        /// Give children an ownerReference to their owner.
        #[serde(default = "default_true")]
        pub owner_references: bool,
        /// Start workers only after `WaitForCacheSync`.
        #[serde(default = "default_true")]
        pub wait_for_cache_sync: bool,
        /// Pruner: create `seed-99`, re-read it from the cache, create again if absent.
        #[serde(default)]
        pub reread_after_create: bool,
        /// Worker goroutines (absent: 5 for `replicaset` as upstream, 1 otherwise).
        #[serde(default)]
        pub workers: Option<u32>,
        /// Time between a reconcile's cache read and its first request.
        #[serde(default = "default_reconcile_ms")]
        pub reconcile_ms: u64,
        /// `burstReplicas`, as upstream.
        #[serde(default = "default_burst")]
        pub burst_replicas: u32,
        /// The library it is written with (absent: controller-runtime for
        /// `ensemble`, client-go for the others).
        #[serde(default)]
        pub runtime: Option<RuntimeKind>,
        /// controller-runtime: `Get` and `List` through the manager's API
        /// reader (`mgr.GetAPIReader()`), live from the apiserver, not the cache.
        #[serde(default)]
        pub live_reads: bool,
        /// controller-runtime v0.25: `CacheOptions.EnableReadYourWritesConsistency`,
        /// a cached read blocks until the cache has seen this client's writes.
        #[serde(default)]
        pub read_your_writes: bool,
        /// controller-runtime: `UsePriorityQueue` (absent: on, as since v0.23;
        /// off under the 0.22 profile).
        #[serde(default)]
        pub priority_queue: Option<bool>,
        /// controller-runtime: `CacheSyncTimeout`, how long a controller's
        /// `Start` waits for its caches before it fails and the manager exits
        /// (two minutes, `pkg/config/controller.go`). client-go's
        /// `WaitForCacheSync` waits for ever.
        #[serde(default = "default_cache_sync_timeout")]
        pub cache_sync_timeout_ms: u64,
        /// Its reconcile, written as a recipe (`crate::sim::recipe`), in place
        /// of the one its switches write: the controller keeps its wiring
        /// (what it watches, how an event maps to a key), the recipe says
        /// what a reconcile does. Absent: the controller's own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub recipe: Option<Arc<Recipe>>,
        /// Controllers run beside it, each a recipe whose owner kind is a
        /// kind its recipe creates (Cluster API's MachineSet controller
        /// beside its MachineDeployment controller): two levels of
        /// ownership. Each has its own workqueue, workers and caches and
        /// the switches above. A simplification: controller-runtime's
        /// manager shares one cache and one client among its controllers.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub alongside: Vec<Arc<Recipe>>,
    }
}

/// Controllers beside it are written whole, never by one path.
impl Field for Vec<Arc<Recipe>> {
    fn set(&mut self, _: &str, _: Val) -> bool {
        false
    }
}

/// A recipe is written whole, never by one path.
impl Field for Option<Arc<Recipe>> {
    fn set(&mut self, _: &str, _: Val) -> bool {
        false
    }
}

fn default_namespace() -> String {
    "academy-lab".to_string()
}
fn default_naming() -> Naming {
    Naming::Deterministic
}
fn default_true() -> bool {
    true
}
fn default_instances() -> u32 {
    1
}
fn default_reconcile_ms() -> u64 {
    50
}
fn default_burst() -> u32 {
    500
}
fn default_cache_sync_timeout() -> u64 {
    120_000
}

impl ControllerSettings {
    /// `kind` with every other field at the default a document gives it.
    pub fn new(kind: ControllerKind) -> Self {
        ControllerSettings {
            kind,
            namespace: default_namespace(),
            naming: default_naming(),
            list_order: ListOrder::default(),
            kubernetes: None,
            controller_runtime: None,
            consistency_store: None,
            update_status: true,
            fifo: None,
            watch_list: None,
            instances: default_instances(),
            double_enqueue: false,
            expectations: None,
            delete_surplus: false,
            owner_references: default_true(),
            wait_for_cache_sync: default_true(),
            reread_after_create: false,
            workers: None,
            reconcile_ms: default_reconcile_ms(),
            burst_replicas: default_burst(),
            runtime: None,
            live_reads: false,
            read_your_writes: false,
            priority_queue: None,
            cache_sync_timeout_ms: default_cache_sync_timeout(),
            recipe: None,
            alongside: Vec::new(),
        }
    }

    /// The minor version of the client-go its informers run, if a profile
    /// names one: the `kubernetes` release's for a client-go program (and
    /// kube-controller-manager), the one its `controller_runtime` release
    /// pins for an operator, whose informers no cluster upgrade changes.
    pub fn client_go(&self) -> Option<u32> {
        match self.runtime() {
            RuntimeKind::ClientGo => self.kubernetes.map(KubeRelease::minor),
            RuntimeKind::ControllerRuntime => self.controller_runtime.map(CrRelease::client_go),
        }
    }

    /// How its informers take a list: as set, else its client-go's FIFO
    /// (AtomicFIFO from v0.36; before, the DeltaFIFO and from v0.33 the
    /// RealFIFO, which pop one item at a time alike), else atomic.
    pub fn fifo(&self) -> Fifo {
        self.fifo.or(self.client_go().map(|m| if m >= 36 { Fifo::Atomic } else { Fifo::Delta })).unwrap_or_default()
    }

    /// Whether its reflectors watch-list: as set, else its client-go's
    /// `WatchListClient` default (on from v0.35), else off.
    pub fn watch_list(&self) -> bool {
        self.watch_list.or(self.client_go().map(|m| m >= 35)).unwrap_or(false)
    }

    /// This controller, as data: its kind's, over a recipe's owner and
    /// child kinds where those are the scenario's own ([`spec::rewired`]).
    /// Its defaults (runtime, workers, expectations, the consistency store
    /// by release) are its kind's, which a rewiring keeps: those read
    /// `kind.spec()` and take no lock.
    /// The settings of the `i`th controller beside it: these, its recipe in place of this one's.
    pub fn beside(&self, i: usize) -> ControllerSettings {
        ControllerSettings { recipe: self.alongside.get(i).cloned(), alongside: Vec::new(), ..self.clone() }
    }

    pub fn spec(&self) -> &'static ControllerSpec {
        let base = self.kind.spec();
        match &self.recipe {
            Some(r)
                if base.owner.is_some()
                    && (matches!(r.owner, Kind::Declared(_)) || r.name.is_some() || r.delete_expectations_on_delete.is_some()) =>
            {
                super::spec::rewired(base, r.owner, r.child, r.name.as_deref(), r.delete_expectations_on_delete)
            }
            _ => base,
        }
    }

    /// Whether it runs the consistency store: as set, else, for
    /// kube-controller-manager's ReplicaSet controller, its release's
    /// `StaleControllerConsistencyReplicaSet` (beta, on, from v1.36), else off.
    pub fn consistency_store(&self) -> bool {
        let by_release = self.kind.spec().consistency_store_by_release.then(|| self.kubernetes.map(|k| k.minor() >= 36)).flatten();
        self.consistency_store.or(by_release).unwrap_or(false)
    }

    /// Whether its workqueue is controller-runtime's priority queue: as set,
    /// else its release's default (on from v0.23), else on.
    pub fn priority_queue(&self) -> bool {
        let by_release = self.controller_runtime.map(|v| v >= CrRelease::V0_23);
        self.runtime() == RuntimeKind::ControllerRuntime && self.priority_queue.or(by_release).unwrap_or(true)
    }

    /// The settings a profile governs that the scenario sets itself, as
    /// `path=value` (empty without a profile): what a run reports beside it.
    pub fn overrides(&self) -> Vec<String> {
        if self.kubernetes.is_none() && self.controller_runtime.is_none() {
            return Vec::new();
        }
        self.governed().into_iter().filter_map(|g| g.set.map(|v| format!("{}={v}", g.path))).collect()
    }

    /// Each setting a release's profile governs: its path, what the
    /// scenario set (if anything), and what it resolves to. The one list the
    /// run's overrides, the checks' `when` and the page's fields read.
    pub fn governed(&self) -> [Governed; 4] {
        let flag = |set: Option<bool>, resolved| Governed { path: "", set: set.map(Val::Flag), resolved: Val::Flag(resolved) };
        [
            Governed { path: "controller.fifo", set: self.fifo.map(|f| Val::Word(word(f))), resolved: Val::Word(word(self.fifo())) },
            Governed { path: "controller.watch_list", ..flag(self.watch_list, self.watch_list()) },
            Governed { path: "controller.consistency_store", ..flag(self.consistency_store, self.consistency_store()) },
            Governed { path: "controller.priority_queue", ..flag(self.priority_queue, self.priority_queue()) },
        ]
    }

    /// The library it is written with (absent: controller-runtime for the
    /// lab's operator, client-go for kube-controller-manager's ReplicaSet
    /// controller and the lab's one-shot pruner).
    pub fn runtime(&self) -> RuntimeKind {
        self.runtime.unwrap_or(if self.kind.spec().controller_runtime_by_default {
            RuntimeKind::ControllerRuntime
        } else {
            RuntimeKind::ClientGo
        })
    }

    /// Its deletes are answered with a resourceVersion, which its consistency
    /// store records as it does a create's (Kubernetes v1.38, #138724).
    pub fn store_records_deletes(&self) -> bool {
        self.kubernetes.is_some_and(|k| k.minor() >= 38)
    }

    /// Its reads go through controller-runtime's read-your-writes client.
    pub fn reads_own_writes(&self) -> bool {
        self.read_your_writes && self.runtime() == RuntimeKind::ControllerRuntime && !self.live_reads
    }

    /// Expectations on or off (absent: on for the ReplicaSet, as upstream).
    /// A recipe of the scenario's own says it (`controller.recipe.expectations`).
    pub fn expectations(&self) -> bool {
        match &self.recipe {
            Some(recipe) => recipe.expectations,
            None => self.expectations.unwrap_or(self.kind.spec().expectations_by_default),
        }
    }

    /// Worker goroutines (absent: 5 for the ReplicaSet, as upstream, else 1).
    pub fn workers(&self) -> u32 {
        self.workers.unwrap_or(self.kind.spec().default_workers)
    }
}

/// How a controller names the children it creates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Naming {
    /// `beta-voice-0 .. beta-voice-N-1`: a second create is a harmless 409.
    Deterministic,
    /// `generateName: beta-voice-`: the server picks a name, so a second create is a second child.
    Generate,
}

impl Choice for Naming {
    const ALL: &'static [Self] = &[Naming::Deterministic, Naming::Generate];
    const WORDS: &'static [&'static str] = &["deterministic", "generate"];
}

/// The library a controller is written with, which decides its workqueue,
/// what its `Reconcile` may return and how its client reads.
///
/// - `client-go`: informers, listers and `workqueue.TypedRateLimitingInterface`
///   by hand, as kube-controller-manager's controllers are (v0.36).
/// - `controller-runtime` (v0.24, v0.25 for read-your-writes): the manager's
///   client reads from the informer cache; `Reconcile` returns a
///   `ctrl.Result` and an error (`reconcileHandler`,
///   pkg/internal/controller/controller.go); the priority queue, on by default
///   since v0.23, hands out the initial list's events and resyncs last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Hash)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub enum RuntimeKind {
    #[default]
    #[serde(rename = "client-go")]
    ClientGo,
    #[serde(rename = "controller-runtime")]
    ControllerRuntime,
}

impl Choice for RuntimeKind {
    const ALL: &'static [Self] = &[RuntimeKind::ClientGo, RuntimeKind::ControllerRuntime];
    const WORDS: &'static [&'static str] = &["client-go", "controller-runtime"];
}

/// A setting a release's profile governs ([`ControllerSettings::governed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Governed {
    pub path: &'static str,
    /// What the scenario sets over the profile, if anything.
    pub set: Option<Val>,
    /// What the run uses.
    pub resolved: Val,
}

/// A Kubernetes release, as a profile: what the simulation models of it.
///
/// | | 1.28 | 1.36 | 1.37 | 1.38 |
/// |---|---|---|---|---|
/// | informers' FIFO | DeltaFIFO | AtomicFIFO (beta, on) | AtomicFIFO | AtomicFIFO |
/// | first state | LIST | watch-list (`WatchListClient` on since v0.35) | watch-list | watch-list |
/// | ReplicaSet's consistency store | none | on (`StaleControllerConsistencyReplicaSet`, beta) | on | on |
/// | a delete's resourceVersion, recorded by the store | – | – | – | yes |
///
/// 1.37 changes nothing modelled here. From v1.38 a DELETE answers with a
/// resourceVersion (kubernetes #138724, "Allow for ResourceVersion to be
/// passed on delete api calls", v1.38.0-alpha.1, ungated), so the
/// consistency store records a delete as it does a create or an update, and
/// `EnsureReady` holds the next sync until the cache has seen the DELETED.
/// Sources: client-go `features/known_features.go` at v0.28.0, v0.35.0 and
/// v0.36.0; the feature-gate docs of v1.36; kubernetes CHANGELOG-1.38.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize, Hash)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub enum KubeRelease {
    #[serde(rename = "1.28")]
    V1_28,
    #[default]
    #[serde(rename = "1.36")]
    V1_36,
    #[serde(rename = "1.37")]
    V1_37,
    #[serde(rename = "1.38")]
    V1_38,
}

impl KubeRelease {
    pub fn minor(self) -> u32 {
        match self {
            KubeRelease::V1_28 => 28,
            KubeRelease::V1_36 => 36,
            KubeRelease::V1_37 => 37,
            KubeRelease::V1_38 => 38,
        }
    }
}

impl Choice for KubeRelease {
    const ALL: &'static [Self] = &[KubeRelease::V1_28, KubeRelease::V1_36, KubeRelease::V1_37, KubeRelease::V1_38];
    const WORDS: &'static [&'static str] = &["1.28", "1.36", "1.37", "1.38"];
}

/// A controller-runtime release, as a profile: its workqueue, what its
/// client offers, and the client-go (and so the informers) it pins.
///
/// | | 0.22 | 0.23 | 0.24 | 0.25 |
/// |---|---|---|---|---|
/// | client-go | v0.34 | v0.35 | v0.36 | v0.37 |
/// | priority queue | off | on | on | on |
/// | `EnableReadYourWritesConsistency` | – | – | – | experimental |
///
/// Sources: controller-runtime `pkg/controller/controller.go` (`UsePriorityQueue`
/// defaults false at v0.22.0, true at v0.23.0), its go.mod at each tag, and
/// `pkg/client/client.go` `CacheOptions` at v0.25.0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize, Hash)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub enum CrRelease {
    #[serde(rename = "0.22")]
    V0_22,
    #[serde(rename = "0.23")]
    V0_23,
    #[default]
    #[serde(rename = "0.24")]
    V0_24,
    #[serde(rename = "0.25")]
    V0_25,
}

impl CrRelease {
    /// The minor version of the client-go it pins.
    pub fn client_go(self) -> u32 {
        match self {
            CrRelease::V0_22 => 34,
            CrRelease::V0_23 => 35,
            CrRelease::V0_24 => 36,
            CrRelease::V0_25 => 37,
        }
    }

    /// It has `EnableReadYourWritesConsistency`.
    pub fn reads_your_writes(self) -> bool {
        self >= CrRelease::V0_25
    }
}

impl Choice for CrRelease {
    const ALL: &'static [Self] = &[CrRelease::V0_22, CrRelease::V0_23, CrRelease::V0_24, CrRelease::V0_25];
    const WORDS: &'static [&'static str] = &["0.22", "0.23", "0.24", "0.25"];
}

/// The order a lister returns objects in.
///
/// client-go's `cache.Store` is a Go map (`threadSafeMap.items`), and Go
/// randomises map iteration, so `lister.List()` hands back the same objects in
/// a different order each call. An operator that deletes `children[desired:]`
/// therefore picks different victims from one reconcile to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, Hash)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ListOrder {
    /// As a Go map: a fresh, seeded shuffle each time the order matters (the default).
    #[default]
    Random,
    /// Sorted by namespace/name, as some operators sort before acting: repeated
    /// deletes then pick the same victims.
    Key,
}

impl Choice for ListOrder {
    const ALL: &'static [Self] = &[ListOrder::Random, ListOrder::Key];
    const WORDS: &'static [&'static str] = &["random", "key"];
}

impl Choice for Fifo {
    const ALL: &'static [Self] = &[Fifo::Atomic, Fifo::Delta];
    const WORDS: &'static [&'static str] = &["atomic", "delta"];
}

impl Choice for ControllerKind {
    const ALL: &'static [Self] = &[ControllerKind::Ensemble, ControllerKind::ReplicaSet, ControllerKind::Pruner];
    const WORDS: &'static [&'static str] = &["ensemble", "replicaset", "pruner"];
}

pub use super::spec::{DEFAULT_CLIENT_BURST, DEFAULT_CLIENT_QPS};

#[cfg(test)]
mod tests {
    use super::*;

    /// serde reads and writes exactly a [`Choice`]'s words, in its order.
    fn serde_agrees<T: Choice + Serialize + for<'de> Deserialize<'de> + PartialEq + fmt::Debug>() {
        assert_eq!(T::ALL.len(), T::WORDS.len());
        for (v, w) in T::ALL.iter().zip(T::WORDS) {
            assert_eq!(serde_json::to_value(v).unwrap(), serde_json::Value::from(*w));
            assert_eq!(serde_json::from_value::<T>(serde_json::Value::from(*w)).unwrap(), *v);
            assert_eq!(T::from_word(w), Some(*v));
        }
        assert!(T::from_word("bogus").is_none());
    }

    #[test]
    fn every_choice_says_the_words_serde_reads() {
        serde_agrees::<ControllerKind>();
        serde_agrees::<Naming>();
        serde_agrees::<ListOrder>();
        serde_agrees::<Fifo>();
        serde_agrees::<RuntimeKind>();
        serde_agrees::<KubeRelease>();
        serde_agrees::<CrRelease>();
    }

    #[test]
    fn a_knob_writes_the_field_its_path_names() {
        let mut c = ClusterSettings::default();
        assert!(c.set("watch_lag_ms", Val::Int(7)));
        assert!(c.set("initial_list_ms_by_kind.Pod", Val::Int(9)));
        assert!(c.set("gc_watch_lag_ms", Val::Int(3)));
        assert_eq!((c.watch_lag_ms, c.initial_list_for(Kind::Pod), c.gc_watch_lag_ms()), (7, 9, 3));
        assert!(!c.set("watch_lag_ms", Val::Flag(true)), "a flag is not a time");
        assert!(!c.set("watch_lagms", Val::Int(1)));
        let mut k = ControllerSettings::new(ControllerKind::Ensemble);
        assert!(k.set("naming", Val::Word("generate")));
        assert!(k.set("expectations", Val::Flag(true)));
        assert!(!k.set("naming", Val::Word("bogus")));
        assert!(!k.set("namespace", Val::Word("x")), "a name never changes during a run");
        assert_eq!((k.naming, k.expectations()), (Naming::Generate, true));
    }
}
