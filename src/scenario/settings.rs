//! Every setting of a scenario, declared once: its dotted path, its domain
//! and limits, its unit, whether it may change during a run, and the help a
//! reader sees. Validation, `--set`, the URL, `edit=`, the page's controls,
//! `cachescope schema` and the tables in `docs/scenarios.md` all read
//! [`SETTINGS`], so adding a knob is its field in `sim::settings` (with its
//! serde default), its entry here, and its use (ARCHITECTURE.md's recipe).
//!
//! (turmoil's `Config` and kube-runtime's `watcher::Config` keep each knob's
//! default and meaning beside it; this is the same idea for a document whose
//! fields also travel as URL parameters.)

use super::ScenarioError;
use crate::sim::apiserver::ControllerKind;
use crate::sim::controllers::{ListOrder, Naming};
use crate::sim::informer::Fifo;
use crate::sim::object::Kind;
pub use crate::sim::settings::Val;
use crate::sim::settings::{Choice, Knob};
use crate::sim::settings::{CrRelease, KubeRelease, RuntimeKind};
use serde_json::Value;

/// The values a setting takes. Types are serde's business; the limits are here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// A whole number from `min` to `max`; `optional`: `null` (absent) too.
    Int { min: u64, max: u64, optional: bool },
    /// `true` or `false`; `optional`: `null` (the controller's default) too.
    Flag { optional: bool },
    /// One of these words: a [`Choice`]'s own (`Naming::WORDS`), which serde reads.
    Choice(&'static [&'static str]),
    /// A DNS-1123 label (a namespace).
    Name,
}

/// One setting.
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    /// The dotted path, as `--set` and the URL write it.
    pub path: &'static str,
    pub domain: Domain,
    /// `ms`, `requests/s`, or empty.
    pub unit: &'static str,
    /// The default, when the document's own default does not say it (a default per controller).
    pub default_note: Option<&'static str>,
    /// What it does, in one line (the docs' table and the controls' hints).
    pub help: &'static str,
    /// The page draws it as a slider: its step, and how far it drags (the
    /// number field beside it goes to the domain's `max`).
    pub slider: Option<Slider>,
    /// It may change during a run (`edit=`, the page's controls): the world
    /// writes the new value into the field at `path` ([`Setting::knob`]);
    /// the help says when it takes effect.
    pub live: bool,
}

/// A setting's slider on the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slider {
    pub step: u64,
    /// The slider's end: what is worth dragging through, within the limits.
    pub drag_max: u64,
}

const fn int(min: u64, max: u64) -> Domain {
    Domain::Int { min, max, optional: false }
}

const MS: &str = "ms";

/// Every setting, in the order validation checks them (the first bad one is reported).
pub const SETTINGS: &[Setting] = &[
    Setting { path: "seed", domain: int(0, u64::MAX), unit: "", default_note: None, help: "seeds the one RNG: generated names, jitter, a lister's order, which pod is deleted", slider: None, live: false },
    Setting { path: "until_ms", domain: int(1, 86_400_000), unit: MS, default_note: None, help: "the run stops here (earlier if nothing is left to happen)", slider: None, live: false },
    Setting {
        path: "cluster.watch_lag_ms",
        domain: int(0, 600_000),
        unit: MS,
        default_note: None,
        help: "from the apiserver's commit to the controller's handler; a change moves events already in flight",
        slider: Some(Slider { step: 100, drag_max: 5_000 }),
        live: true,
    },
    Setting {
        path: "cluster.watch_jitter_ms",
        domain: int(0, 600_000),
        unit: MS,
        default_note: None,
        help: "extra seeded delay per event, up to this; events on one watch are still never reordered",
        slider: None,
        live: true,
    },
    Setting {
        path: "cluster.api_latency_ms",
        domain: int(0, 60_000),
        unit: MS,
        default_note: None,
        help: "every request, from send to commit and answer",
        slider: None,
        live: true,
    },
    Setting {
        path: "cluster.initial_list_ms",
        domain: int(0, 600_000),
        unit: MS,
        default_note: None,
        help: "from an informer's LIST to its items in the store (HasSynced); a cluster-wide informer lists every object of its kind, so on a big cluster, seconds",
        slider: Some(Slider { step: 500, drag_max: 20_000 }),
        live: false,
    },
    Setting {
        path: "cluster.initial_list_ms_by_kind.Ensemble",
        domain: Domain::Int { min: 0, max: 600_000, optional: true },
        unit: MS,
        default_note: Some("= `initial_list_ms`"),
        help: "the Ensemble informer's own first-LIST time",
        slider: None,
        live: false,
    },
    Setting {
        path: "cluster.initial_list_ms_by_kind.ConfigMap",
        domain: Domain::Int { min: 0, max: 600_000, optional: true },
        unit: MS,
        default_note: Some("= `initial_list_ms`"),
        help: "the ConfigMap informer's own first-LIST time",
        slider: None,
        live: false,
    },
    Setting {
        path: "cluster.initial_list_ms_by_kind.ReplicaSet",
        domain: Domain::Int { min: 0, max: 600_000, optional: true },
        unit: MS,
        default_note: Some("= `initial_list_ms`"),
        help: "the ReplicaSet informer's own first-LIST time",
        slider: None,
        live: false,
    },
    Setting {
        path: "cluster.initial_list_ms_by_kind.Pod",
        domain: Domain::Int { min: 0, max: 600_000, optional: true },
        unit: MS,
        default_note: Some("= `initial_list_ms`"),
        help: "the Pod informer's own first-LIST time: a slow pod LIST beside a fast ReplicaSet one, without WaitForCacheSync, acts on one synced cache while another is empty (node-feature-discovery #1936)",
        slider: None,
        live: false,
    },
    Setting { path: "cluster.expectations_timeout_ms", domain: int(1, 86_400_000), unit: MS, default_note: None, help: "ExpectationsTimeout, five minutes upstream", slider: None, live: false },
    Setting {
        path: "cluster.gc_watch_lag_ms",
        domain: Domain::Int { min: 0, max: 600_000, optional: true },
        unit: MS,
        default_note: Some("= `watch_lag_ms`"),
        help: "the garbage collector's own watch lag",
        slider: None,
        live: false,
    },
    Setting { path: "cluster.orphan_grace_ms", domain: int(1, 86_400_000), unit: MS, default_note: None, help: "how long children may outlive their deleted owner before the no_orphans invariant breaks", slider: None, live: false },
    Setting {
        path: "cluster.client_qps",
        domain: Domain::Int { min: 0, max: 10_000, optional: true },
        unit: "requests/s",
        default_note: Some("by kind: replicaset 20, ensemble off, pruner 5"),
        help: "the controller's client-side rate limit: each request waits for a token, and so do its informers' LISTs where they share its client; 0 turns it off. Absent, each kind runs with its program's own: kube-controller-manager's 20 for the ReplicaSet controller (its shared informers have a client of their own), none for the Ensemble operator (controller-runtime sets QPS -1), client-go's 5 for the pruner",
        slider: None,
        live: false,
    },
    Setting {
        path: "cluster.client_burst",
        domain: Domain::Int { min: 0, max: 10_000, optional: true },
        unit: "requests",
        default_note: Some("by kind: replicaset 30, otherwise 10"),
        help: "requests it may send at once before the limit bites (kube-controller-manager: 30; client-go's default: 10); at least 1 when there is a limit",
        slider: None,
        live: false,
    },
    Setting {
        path: "cluster.pod_grace_period_ms",
        domain: int(0, 600_000),
        unit: MS,
        default_note: None,
        help: "a pod's termination grace period: a delete marks it Terminating (deletionTimestamp) and the kubelet removes it this much later; 0 removes it at once",
        slider: None,
        live: false,
    },
    Setting {
        path: "cluster.watch_timeout_ms",
        domain: int(0, 86_400_000),
        unit: MS,
        default_note: None,
        help: "a controller's watch ends with 410 Expired this long after it began; the reflector lists again after its backoff (800 ms doubling to 30 s, reset after 2 min), or, a watch-list that ends before its initial-events-end bookmark, opens a new one at once (reflector.go watchList). 0: never, a simplification: every real watch request carries a timeout of 5 to 10 minutes (minWatchTimeout), so a watch-list that lost its bookmark is retried within 10 minutes",
        slider: None,
        live: false,
    },
    Setting {
        path: "cluster.resync_ms",
        domain: int(0, 86_400_000),
        unit: MS,
        default_note: None,
        help: "the controller's informers' resync period: every cached object goes to the update handlers again, unchanged; 0: none",
        slider: None,
        live: false,
    },
    Setting {
        path: "cluster.bookmark_ms",
        domain: int(0, 3_600_000),
        unit: MS,
        default_note: None,
        help: "the apiserver sends each controller watch a BOOKMARK this often (about once a minute upstream): no object, only a resourceVersion that moves the store's progress mark, which v1.36's consistency store reads; 0: none",
        slider: None,
        live: false,
    },
    Setting {
        path: "cluster.bookmark_jitter_ms",
        domain: int(0, 600_000),
        unit: MS,
        default_note: None,
        help: "a seeded extra delay before each BOOKMARK, up to this; the next is bookmark_ms after it (upstream's cacher finds bookmarks due on a tick of 1 s with 25% jitter, so each is up to 1.25 s late); 0: on the beat",
        slider: None,
        live: true,
    },
    Setting {
        path: "cluster.lease_ms",
        domain: int(1_000, 600_000),
        unit: MS,
        default_note: None,
        help: "leader election's LeaseDuration (kube-controller-manager: 15 s): with two replicas, how long a lease not renewed, from when a candidate saw it renewed, keeps it from taking it; more than the renew deadline (10 s)",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.kind",
        domain: Domain::Choice(ControllerKind::WORDS),
        unit: "",
        default_note: Some("required"),
        help: "ensemble (lab 1's operator), replicaset (the upstream controller) or pruner (lab 2's program)",
        slider: None,
        live: false,
    },
    Setting { path: "controller.namespace", domain: Domain::Name, unit: "", default_note: None, help: "where it works; objects default to it", slider: None, live: false },
    Setting {
        path: "controller.naming",
        domain: Domain::Choice(Naming::WORDS),
        unit: "",
        default_note: None,
        help: "children's names: deterministic (beta-voice-0) or generate (generateName: beta-voice-); the pruner's seed-99 follows it too",
        slider: None,
        live: true,
    },
    Setting {
        path: "controller.list_order",
        domain: Domain::Choice(ListOrder::WORDS),
        unit: "",
        default_note: None,
        help: "the order a lister returns children in: random, as a Go map iterates (client-go's store is one), or key (namespace/name)",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.kubernetes",
        domain: Domain::Choice(KubeRelease::WORDS),
        unit: "",
        default_note: Some("none: each setting at its own default, the labs' behaviour"),
        help: "the Kubernetes release the controller follows, a profile: kube-controller-manager's for the replicaset, client-go's for a client-go program. It sets fifo (1.28: delta; later: atomic), watch_list (1.28: off; later: on) and the replicaset's consistency_store (from 1.36: on); each can still be set. 1.37 changes nothing modelled here; from 1.38 a delete is answered with a resourceVersion (#138724), which the consistency store records as it does a create's. An operator's informers follow its controller_runtime instead: a cluster upgrade changes nothing in it",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.controller_runtime",
        domain: Domain::Choice(CrRelease::WORDS),
        unit: "",
        default_note: Some("none: each setting at its own default"),
        help: "controller-runtime only: the release the operator is built with, a profile: the client-go it pins (0.22: v0.34, 0.23: v0.35, 0.24: v0.36, 0.25: v0.37), and so its fifo and watch_list; priority_queue (off in 0.22); read_your_writes exists from 0.25",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.consistency_store",
        domain: Domain::Flag { optional: true },
        unit: "",
        default_note: Some("by `kubernetes`: `true` for `replicaset` from 1.36; else `false`"),
        help: "KEP-5647's consistency store: before each sync, EnsureReady checks that the caches have read the controller's own writes; if not, the sync is skipped and the key requeued with backoff. Kubernetes v1.36 runs it inside kube-controller-manager (the replicaset kind here); for the ensemble it is that store ported into the operator, which no release gives an operator (replicaset, ensemble)",
        slider: None,
        live: true,
    },
    Setting {
        path: "controller.update_status",
        domain: Domain::Flag { optional: false },
        unit: "",
        default_note: None,
        help: "replicaset: after each sync, UpdateStatus with status.replicas counted in the cache and the resourceVersion it read, as upstream always does; a 409 Conflict is retried once after a GET, then the key is requeued (updateReplicaSetStatus). Its MODIFIED events queue the ReplicaSet again. Off is a simplification",
        slider: None,
        live: true,
    },
    Setting {
        path: "controller.fifo",
        domain: Domain::Choice(Fifo::WORDS),
        unit: "",
        default_note: Some("by profile (client-go v0.36 on: `atomic`; before: `delta`); else `atomic`"),
        help: "how its informers take a LIST: atomic (v1.36's AtomicFIFO: the store is replaced at once, HasSynced then) or delta (client-go's FIFO before v0.36, DeltaFIFO or RealFIFO: one item popped at a time over initial_list_ms, then the tombstones, HasSynced at the last; its store keeps no progress mark, so the consistency store never skips a sync)",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.watch_list",
        domain: Domain::Flag { optional: true },
        unit: "",
        default_note: Some("by profile (client-go v0.35 on: `true`); else `false`"),
        help: "its reflectors take their first state (and each relist) by watch-list, client-go's WatchListClient: a WATCH with sendInitialEvents=true streams the state as ADDED events into a temporary store, over initial_list_ms and the watch's lag; only the k8s.io/initial-events-end BOOKMARK hands it to the FIFO's Replace and HasSynced. Lose that bookmark (drop_next_event with bookmark) and the informer does not sync until the watch ends (cluster.watch_timeout_ms: 0 here, never; 5 to 10 minutes upstream) and a new watch-list gets through. A server without watch-list, where client-go falls back to a LIST, is not modelled: the apiserver here serves it in every release",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.instances",
        domain: int(1, 2),
        unit: "",
        default_note: None,
        help: "replicas of the controller (ensemble, replicaset): with 2, leader election picks the one that runs; each has its own cache and expectations",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.double_enqueue",
        domain: Domain::Flag { optional: false },
        unit: "",
        default_note: None,
        help: "after a successful reconcile, add the key once more (the reconcile that re-add causes does not re-add again)",
        slider: None,
        live: true,
    },
    Setting {
        path: "controller.expectations",
        domain: Domain::Flag { optional: true },
        unit: "",
        default_note: Some("`true` for `replicaset`, else `false`"),
        help: "use ControllerExpectations",
        slider: None,
        live: true,
    },
    Setting {
        path: "controller.delete_surplus",
        domain: Domain::Flag { optional: false },
        unit: "",
        default_note: None,
        help: "Ensemble: delete children[voices:] in the lister's order",
        slider: None,
        live: true,
    },
    Setting {
        path: "controller.owner_references",
        domain: Domain::Flag { optional: false },
        unit: "",
        default_note: None,
        help: "Ensemble: children get an ownerReference, so the garbage collector deletes them with their owner",
        slider: None,
        live: true,
    },
    Setting {
        path: "controller.wait_for_cache_sync",
        domain: Domain::Flag { optional: false },
        unit: "",
        default_note: None,
        help: "start workers only after every informer HasSynced (polled every 100 ms); false only for a client-go program (controller-runtime's Controller.Start always waits for its sources): a change runs the scenario again from frame 0",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.reread_after_create",
        domain: Domain::Flag { optional: false },
        unit: "",
        default_note: None,
        help: "pruner: create seed-99, re-read it from the lister, create again if absent",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.workers",
        domain: Domain::Int { min: 1, max: 64, optional: true },
        unit: "",
        default_note: Some("5 for `replicaset`, else 1"),
        help: "worker goroutines; a key is never processed by two at once",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.reconcile_ms",
        domain: int(0, 600_000),
        unit: MS,
        default_note: None,
        help: "time between a reconcile's cache read and its first request",
        slider: None,
        live: true,
    },
    Setting {
        path: "controller.runtime",
        domain: Domain::Choice(RuntimeKind::WORDS),
        unit: "",
        default_note: Some("`controller-runtime` for `ensemble`, else `client-go`"),
        help: "the library it is written with: client-go (kube-controller-manager's controllers, the pruner) or controller-runtime (most operators; the ensemble only): its priority queue hands out the initial list's events and resyncs last, Reconcile's error requeues with per-item backoff, and its client reads from the cache",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.live_reads",
        domain: Domain::Flag { optional: false },
        unit: "",
        default_note: None,
        help: "controller-runtime: Get and List through the manager's API reader, live from the apiserver, not the cache: no stale read, a request per read",
        slider: None,
        live: true,
    },
    Setting {
        path: "controller.read_your_writes",
        domain: Domain::Flag { optional: false },
        unit: "",
        default_note: None,
        help: "controller-runtime v0.25's EnableReadYourWritesConsistency (experimental): a cached Get waits until the cache has seen this client's last write of that object, a List every write of that kind, deletes included; no timeout but the reconcile's context",
        slider: None,
        live: true,
    },
    Setting {
        path: "controller.priority_queue",
        domain: Domain::Flag { optional: true },
        unit: "",
        default_note: Some("by `controller_runtime` (0.22: `false`); else `true`"),
        help: "controller-runtime's UsePriorityQueue, on by default since 0.23: the initial list's events and resyncs are handed out last; off, client-go's rate-limiting queue with its default controller rate limiter (per-item backoff and the 10 qps / 100 bucket)",
        slider: None,
        live: false,
    },
    Setting {
        path: "controller.cache_sync_timeout_ms",
        domain: int(1, 86_400_000),
        unit: MS,
        default_note: None,
        help: "controller-runtime's CacheSyncTimeout: if its caches have not synced by then, the controller's Start fails, the manager exits, and the kubelet restarts it: a first crash at once, then after CrashLoopBackOff's 10, 20, 40 … 300 s (doBackOff); client-go's WaitForCacheSync waits for ever",
        slider: None,
        live: false,
    },
    Setting { path: "controller.burst_replicas", domain: int(1, 10_000), unit: "", default_note: None, help: "ReplicaSet burstReplicas: the most creates or deletes one sync issues", slider: None, live: false },
];

/// The most children an owner of `kind` may want (`voices`, `replicas`,
/// `scale.to`, the page's field and `edit=…do=scale:N`, all of them).
pub fn desired_max(kind: Kind) -> u64 {
    match kind {
        Kind::Ensemble => super::limits::get("objects[].voices").max,
        Kind::ReplicaSet => super::limits::get("objects[].replicas").max,
        Kind::ConfigMap | Kind::Pod => 0,
        Kind::Declared(d) => d.desired.map_or(0, |_| super::limits::get("objects[].spec").max),
    }
}

/// A setting by its path (`actions[0]…` and other list entries are not settings).
pub fn setting(path: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.path == path)
}

/// The change that sets the live setting at `path` to `value` (the page's
/// own controls name their settings by path, as the URL does).
///
/// # Panics
/// If no setting that may change during a run has that path: a page
/// control naming one is a bug the tests catch.
pub fn knob(path: &str, value: Val) -> Knob {
    setting(path).and_then(|s| s.knob(value)).unwrap_or_else(|| panic!("{path} is not a setting that may change during a run"))
}

impl Setting {
    /// Check a value of this setting in a scenario document: its limits. The
    /// value's type was serde's to check.
    pub fn check(&self, value: &Value) -> Result<(), ScenarioError> {
        match (self.domain, value) {
            (Domain::Int { min, max, .. }, Value::Number(n)) => super::range(self.path, n.as_u64().unwrap_or(u64::MAX), min, max),
            (Domain::Name, Value::String(s)) => super::dns_name(self.path, s),
            _ => Ok(()),
        }
    }

    /// Read a raw value as `edit=` writes it (`800`, `true`, `generate`).
    pub fn parse(&self, raw: &str) -> Result<Val, String> {
        match self.domain {
            Domain::Int { min, max, .. } => {
                let v: u64 = raw.parse().map_err(|_| "the value is not a whole number".to_string())?;
                if v < min || v > max {
                    return Err(format!("{v} is out of range {min}..={max}"));
                }
                Ok(Val::Int(v))
            }
            Domain::Flag { .. } => match raw {
                "true" => Ok(Val::Flag(true)),
                "false" => Ok(Val::Flag(false)),
                _ => Err("the value is not true or false".to_string()),
            },
            Domain::Choice(words) => {
                words.iter().find(|w| **w == raw).map(|w| Val::Word(w)).ok_or_else(|| format!("{} is {}", self.path, words.join(" or ")))
            }
            Domain::Name => Err("a name cannot change during a run".to_string()),
        }
    }

    /// The change that sets this setting to `value` during a run, if it may change then.
    pub fn knob(&'static self, value: Val) -> Option<Knob> {
        self.live.then_some(Knob { path: self.path, value })
    }

    /// The range in words for the docs: `0-600000`, `true or false`.
    pub fn range_text(&self) -> String {
        match self.domain {
            Domain::Int { min, max: u64::MAX, .. } => format!("{min} or more"),
            Domain::Int { min, max, .. } => format!("{min}-{max}"),
            Domain::Flag { .. } => "true or false".to_string(),
            Domain::Choice(words) => words.iter().map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", "),
            Domain::Name => "a DNS label".to_string(),
        }
    }
}

/// The docs' table of every setting under `section` (`cluster`, `controller`,
/// and what lies below them), or at the top level for `""`: what `docs/scenarios.md` carries, checked by a test.
pub fn markdown_table(section: &str) -> String {
    let defaults = super::Scenario::from_json(r#"{"name": "defaults", "controller": {"kind": "ensemble"}}"#)
        .expect("a minimal scenario is valid")
        .to_value();
    let mut out = String::from("| field | default | range | during a run | meaning |\n|---|---|---|---|---|\n");
    for s in SETTINGS {
        // A section's table lists what lies below it (`initial_list_ms_by_kind.Pod` under `cluster`).
        let field = match section {
            "" if !s.path.contains('.') => s.path,
            "" => continue,
            _ => match s.path.strip_prefix(section).and_then(|p| p.strip_prefix('.')) {
                Some(field) => field,
                None => continue,
            },
        };
        let default = match s.default_note {
            Some(note) => note.to_string(),
            None => match super::get_path(&defaults, s.path) {
                Some(Value::String(w)) => format!("`{w}`"),
                Some(v) => v.to_string(),
                None => String::new(),
            },
        };
        let unit = if s.unit.is_empty() { String::new() } else { format!(" {}", s.unit) };
        let live = if s.live { "yes" } else { "" };
        out.push_str(&format!("| `{field}` | {default} | {}{unit} | {live} | {} |\n", s.range_text(), s.help));
    }
    out
}

/// The scenario's JSON Schema, as `cachescope schema` prints it: serde's
/// types, with [`annotate_schema`]'s limits.
#[cfg(not(target_arch = "wasm32"))]
pub fn schema() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(super::Scenario)).expect("schemas serialize");
    annotate_schema(&mut schema);
    schema
}

/// Write each setting's limits, and the work budget's ([`super::limits::LIMITS`]),
/// into the scenario's JSON Schema (which serde's types alone cannot say):
/// `minimum`/`maximum`, `maxItems` (`maxProperties` for a map) and
/// `minLength`/`maxLength`.
#[cfg(not(target_arch = "wasm32"))]
fn annotate_schema(schema: &mut Value) {
    for s in SETTINGS {
        if let Domain::Int { min, max, .. } = s.domain {
            let Some(pointer) = schema_pointer(schema, s.path) else { continue };
            if let Some(Value::Object(node)) = schema.pointer_mut(&pointer) {
                node.insert("minimum".into(), Value::from(min));
                if max < u64::MAX {
                    node.insert("maximum".into(), Value::from(max));
                }
            }
        }
    }
    // A declared kind's first-LIST time (a map entry the table cannot name) keeps the built-in kinds' limits.
    if let Some(Domain::Int { min, max, .. }) = setting("cluster.initial_list_ms_by_kind.Pod").map(|s| s.domain) {
        if let Some(Value::Object(node)) = schema.pointer_mut("/$defs/ListTimes/additionalProperties") {
            node.insert("minimum".into(), Value::from(min));
            node.insert("maximum".into(), Value::from(max));
        }
    }
    use super::limits::{Of, LIMITS};
    for l in LIMITS {
        let Some(pointer) = schema_pointer(schema, &l.path.replace("[]", ".[]")) else { continue };
        let Some(Value::Object(node)) = schema.pointer_mut(&pointer) else { continue };
        let map = node.get("type").and_then(Value::as_str) == Some("object");
        let (lo, hi) = match l.of {
            Of::Value => ("minimum", "maximum"),
            Of::Items if map => ("minProperties", "maxProperties"),
            Of::Items | Of::Values => ("minItems", "maxItems"),
            Of::Chars => ("minLength", "maxLength"),
            // A JSON Schema cannot bound a nesting: validation does.
            Of::Levels => continue,
        };
        if l.min > 0 {
            node.insert(lo.into(), Value::from(l.min));
        }
        node.insert(hi.into(), Value::from(l.max));
    }
    // `controls` names settings and actions: an editor can offer them.
    if let Some(Value::Object(controls)) = schema.pointer_mut("/properties/controls") {
        controls.insert("uniqueItems".into(), Value::Bool(true));
        if let Some(Value::Object(items)) = controls.get_mut("items") {
            let names = SETTINGS.iter().map(|s| s.path).chain(super::CONTROL_ACTIONS.iter().copied());
            items.insert("enum".into(), Value::from(names.collect::<Vec<_>>()));
        }
    }
}

/// The JSON pointer of the schema of the property at a dotted path, following
/// `$ref`s; `$defs.Name.field` starts at a definition.
pub fn schema_pointer(schema: &Value, path: &str) -> Option<String> {
    let mut segments = path.split('.').peekable();
    let mut pointer = String::new();
    if segments.peek() == Some(&"$defs") {
        segments.next();
        pointer = format!("/$defs/{}", segments.next()?);
    }
    let follow = |pointer: &mut String| {
        let node = schema.pointer(pointer)?;
        // An optional field is `anyOf: [{$ref}, {type: null}]`.
        let node = node.get("anyOf").and_then(|a| a.get(0)).unwrap_or(node);
        if let Some(Value::String(r)) = node.get("$ref") {
            *pointer = r.trim_start_matches('#').to_string();
        }
        Some(())
    };
    for seg in segments {
        follow(&mut pointer)?;
        pointer = if seg == "[]" { format!("{pointer}/items") } else { format!("{pointer}/properties/{seg}") };
        schema.pointer(&pointer)?;
    }
    Some(pointer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_live_setting_round_trips_through_its_knob() {
        let mut tried = 0;
        for s in SETTINGS.iter().filter(|s| s.live) {
            let samples: Vec<&str> = match s.domain {
                Domain::Int { .. } => vec!["0", "1", "600"],
                Domain::Flag { .. } => vec!["true", "false"],
                Domain::Choice(words) => words.to_vec(),
                Domain::Name => vec![],
            };
            for raw in samples {
                let Ok(v) = s.parse(raw) else { continue };
                let knob = s.knob(v).unwrap();
                assert_eq!((knob.path, knob.value.to_string()), (s.path, raw.to_string()), "{}", s.path);
                tried += 1;
            }
        }
        assert!(tried > 20, "{tried}");
    }

    #[test]
    fn paths_name_fields_that_exist() {
        let doc = crate::scenario::preset("over-create").unwrap().to_value();
        for s in SETTINGS {
            assert!(crate::scenario::get_path(&doc, s.path).is_some(), "{} is a field of a scenario", s.path);
        }
    }
}
