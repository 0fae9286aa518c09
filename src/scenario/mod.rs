//! Scenario documents: what a course author writes, what a preset is, and what
//! the URL and the runner's `--set` change. A scenario is parsed strictly
//! (unknown fields are errors), validated (every range checked), and resolved
//! into the world's [`WorldInit`]. Every error names the field and the value.

pub mod controls;
pub mod expect;
pub mod limits;
mod path;
mod presets;
pub mod settings;

pub use controls::CONTROL_ACTIONS;
pub use expect::{Check, Measure, Outcome};
pub use path::{get_path, set_path, split_path};
pub use presets::{preset, preset_names, presets, PRESETS};

use crate::sim::apiserver::{ControllerKind, EventType, FailMode, Verb};
use crate::sim::object::{Kind, ObjectKey, ObjectTemplate, OwnerReference, Spec, ENSEMBLE_LABEL, REPLICASET_LABEL};
use crate::sim::settings::{ClusterSettings, ControllerSettings};
use crate::sim::world::{Action, ActionKind, Deviation, WorldInit};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

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
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
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

/// Drop the next event on the controller's watch of `kind` (of `type`, if given).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DropSpec {
    pub kind: Kind,
    #[serde(rename = "type", default)]
    pub event_type: Option<EventType>,
}

/// Make the controller's next request with `verb` on `kind` fail: `as` is
/// `500` (nothing written), `timeout` (nothing written) or `timeout_committed`
/// (written, but the controller sees a timeout).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FailNextSpec {
    pub verb: Verb,
    pub kind: Kind,
    #[serde(rename = "as")]
    pub mode: FailMode,
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
    /// Freeze the controller's leader (a long GC pause, a suspended VM):
    /// with two replicas, the other takes the lease once it lapses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause_controller: Option<PauseSpec>,
}

/// A bad scenario: which field, what value, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioError {
    /// The dotted path of the field (`controller.naming`, `actions[2].at_ms`), or
    /// what was looked up (`preset`).
    pub field: String,
    /// The offending value as written, when there is one.
    pub value: Option<String>,
    pub message: String,
    /// Where in the JSON text, when the error came from parsing it.
    pub line_col: Option<(usize, usize)>,
}

impl ScenarioError {
    pub fn new(field: impl Into<String>, value: Option<String>, message: impl Into<String>) -> Self {
        ScenarioError { field: field.into(), value, message: message.into(), line_col: None }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}", self.message)?;
        } else {
            write!(f, "{}: {}", self.field, self.message)?;
        }
        if let Some(v) = &self.value {
            if !self.message.contains(v.as_str()) {
                write!(f, " (got {v})")?;
            }
        }
        if let Some((line, col)) = self.line_col {
            write!(f, " at line {line}, column {col}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ScenarioError {}

/// serde_path_to_error writes `.` for the root and `?` where a syntax error
/// stopped it; keep the known part of the path.
#[cfg(not(target_arch = "wasm32"))]
fn clean_path(path: &str) -> String {
    let known: Vec<&str> = path.split('.').take_while(|s| *s != "?").filter(|s| !s.is_empty()).collect();
    known.join(".")
}

/// A serde_json error's message without its " at line L column C" (we print
/// the position ourselves), and the position.
fn split_json_error(e: &serde_json::Error) -> (String, Option<(usize, usize)>) {
    let line_col = if e.line() > 0 { Some((e.line(), e.column())) } else { None };
    let mut message = e.to_string();
    if let Some(i) = message.rfind(" at line ") {
        message.truncate(i);
    }
    (message, line_col)
}

/// Parse with the full dotted path of a failing field (`controller.naming`).
/// The runner uses this: course authors debug their files there.
#[cfg(not(target_arch = "wasm32"))]
fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    let text = without_bom(text);
    let de = &mut serde_json::Deserializer::from_str(text);
    let scenario = serde_path_to_error::deserialize(&mut *de).map_err(|e| {
        let path = e.path().to_string();
        let (message, line_col) = split_json_error(e.inner());
        ScenarioError { field: clean_path(&path), value: None, message, line_col }
    })?;
    // Nothing but whitespace after the document, as `serde_json::from_str` (the page's parser) requires.
    de.end().map_err(|e| {
        let (message, line_col) = split_json_error(&e);
        ScenarioError { field: String::new(), value: None, message, line_col }
    })?;
    Ok(scenario)
}

/// A file saved with a UTF-8 byte-order mark reads as the same document.
fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{FEFF}').unwrap_or(text)
}

/// Parse naming the failing field by the JSON path at the error's position
/// ([`path_at_offset`]), which names it exactly as the runner's path-tracking
/// deserializer does (`controller.naming`, `actions[2].at_ms`). The page uses
/// this: path tracking would double the size of the deserializer in the wasm.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn parse_plain(text: &str) -> Result<Scenario, ScenarioError> {
    let text = without_bom(text);
    serde_json::from_str(text).map_err(|e| {
        let (message, line_col) = split_json_error(&e);
        let mut field = line_col
            .map(|(l, c)| {
                let offset = byte_offset(text, l, c);
                // A list or a map where a plain value belongs is reported before
                // it is read: the value at fault is the one that starts next.
                let peeked = message.starts_with("invalid type: sequence") || message.starts_with("invalid type: map");
                path_at_offset(text, if peeked { next_token(text, offset) } else { offset })
            })
            .unwrap_or_default();
        // An enum written as a map (`{"bogus": 1}`) is named by its field, not
        // by the variant key inside it, as the runner names it.
        if let Some(variant) = message.strip_prefix("unknown variant `").and_then(|m| m.split('`').next()) {
            if let Some(outer) = field.strip_suffix(variant).and_then(|f| f.strip_suffix('.')) {
                field = outer.to_string();
            }
        }
        ScenarioError { field, value: None, message, line_col }
    })
}

#[cfg(target_arch = "wasm32")]
fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    parse_plain(text)
}

/// The end of line `line`, column `col` (1-based) as a byte count into `text`.
fn byte_offset(text: &str, line: usize, col: usize) -> usize {
    text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum::<usize>() + col
}

/// The offset that takes in the next character after `offset` that is not white space.
fn next_token(text: &str, offset: usize) -> usize {
    let rest = text.get(offset..).unwrap_or("");
    let skipped = rest.len() - rest.trim_start().len();
    (offset + skipped + 1).min(text.len())
}

/// The path of the value being read at byte `offset` of a JSON text (the
/// end of the error's line and column): the keys and indices of the objects
/// and arrays open there, as `a.b[2].c`. A scan that only follows nesting, strings and commas; the
/// text's validity is serde_json's business.
fn path_at_offset(text: &str, offset: usize) -> String {
    enum Open {
        Object {
            key: Option<String>,
            expect_key: bool,
        },
        /// `started`: the element at `index` has begun (an empty `[]` has none).
        Array {
            index: usize,
            started: bool,
        },
    }
    let mut stack: Vec<Open> = Vec::new();
    let mut chars = text.char_indices().take_while(|(i, _)| *i < offset);
    while let Some((_, c)) = chars.next() {
        if let Some(Open::Array { started, .. }) = stack.last_mut() {
            if !c.is_whitespace() && c != ',' && c != ']' {
                *started = true;
            }
        }
        match c {
            '"' => {
                let mut s = String::new();
                while let Some((_, c)) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => {
                            if let Some((_, e)) = chars.next() {
                                s.push(match e {
                                    'n' => '\n',
                                    't' => '\t',
                                    other => other,
                                });
                            }
                        }
                        c => s.push(c),
                    }
                }
                if let Some(Open::Object { key, expect_key }) = stack.last_mut() {
                    if *expect_key {
                        *key = Some(s);
                        *expect_key = false;
                    }
                }
            }
            '{' => stack.push(Open::Object { key: None, expect_key: true }),
            '[' => stack.push(Open::Array { index: 0, started: false }),
            '}' | ']' => {
                stack.pop();
            }
            ',' => match stack.last_mut() {
                Some(Open::Object { expect_key, .. }) => *expect_key = true,
                Some(Open::Array { index, started }) => {
                    *index += 1;
                    *started = false;
                }
                None => {}
            },
            _ => {}
        }
    }
    let mut path = String::new();
    for open in &stack {
        match open {
            // After a comma, before the next key: the old key is done with.
            Open::Object { key: Some(k), expect_key: false } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Open::Object { .. } => {}
            Open::Array { index, started: true } => path.push_str(&format!("[{index}]")),
            Open::Array { .. } => {}
        }
    }
    path
}

impl Scenario {
    /// Parse and validate a scenario from JSON text.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let scenario = parse(text)?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// Build and validate a scenario from a JSON value (after `--set` edits).
    ///
    /// It goes through the JSON text rather than deserializing the value
    /// directly: one deserializer instantiation for the whole scenario tree
    /// instead of two, which is a sizeable share of the page's wasm.
    pub fn from_value(value: serde_json::Value) -> Result<Scenario, ScenarioError> {
        Scenario::from_json(&value.to_string()).map_err(|mut e| {
            // A position in generated text means nothing to the author.
            e.line_col = None;
            e
        })
    }

    /// The scenario as a JSON value with every field present (defaults filled in).
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("a scenario always serializes")
    }

    /// Apply `path=value` edits, as the runner's `--set` and the page's URL do.
    pub fn with_settings<'a>(&self, edits: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Scenario, ScenarioError> {
        let mut value = self.to_value();
        let mut scenario = self.clone();
        // One edit at a time, so a failure is named by the setting that caused it.
        for (path, raw) in edits {
            set_path(&mut value, path, raw)?;
            scenario = Scenario::from_value(value.clone()).map_err(|mut e| {
                let leaf = path.rsplit(['.', '[']).next().unwrap_or(path);
                if e.field.is_empty() || e.field == leaf {
                    e.field = path.to_string();
                }
                if e.field == path && e.value.is_none() {
                    e.value = Some(raw.to_string());
                }
                e
            })?;
        }
        Ok(scenario)
    }

    /// Expectations on or off, with the per-controller default resolved.
    pub fn expectations(&self) -> bool {
        self.controller.expectations()
    }

    /// Worker count, with the per-controller default resolved.
    pub fn workers(&self) -> u32 {
        self.controller.workers()
    }

    /// Check every range and cross-field rule.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        // Every setting's limits, from its one declaration.
        let doc = self.to_value();
        for setting in settings::SETTINGS {
            if let Some(value) = get_path(&doc, setting.path) {
                setting.check(value)?;
            }
        }
        if self.controller.instances == 2 && self.controller.kind == ControllerKind::Pruner {
            return Err(ScenarioError::new(
                "controller.instances",
                Some("2".into()),
                "the pruner is a one-shot program; two replicas are for the long-running controllers (ensemble, replicaset)",
            ));
        }
        let c = &self.cluster;
        if c.client_qps > 0 && c.client_burst == 0 {
            return Err(ScenarioError::new(
                "cluster.client_burst",
                Some("0".into()),
                "must be at least 1 when cluster.client_qps is set: a bucket of 0 tokens never lets a request through",
            ));
        }
        if self.name.trim().is_empty() {
            return Err(ScenarioError::new("name", Some("\"\"".into()), "must not be empty"));
        }
        limits::get("name").check_text("name", &self.name, false)?;
        limits::get("description").check_text("description", &self.description, true)?;
        limits::get("start").check_text("start", &self.start, false)?;
        controls::validate(self)?;
        if let Some(i) = &self.incident {
            limits::get("incident.title").check_text("incident.title", &i.title, false)?;
            limits::get("incident.url").check_text("incident.url", &i.url, false)?;
        }
        limits::get("objects").check("objects", self.objects.len() as u64)?;
        limits::get("actions").check("actions", self.actions.len() as u64)?;
        limits::get("expect").check("expect", self.expect.len() as u64)?;
        // The page links it: only web links, never `javascript:` or `data:`.
        if let Some(i) = &self.incident {
            if !(i.url.starts_with("https://") || i.url.starts_with("http://")) {
                return Err(ScenarioError::new("incident.url", Some(format!("{:?}", i.url)), "must be an http:// or https:// link"));
            }
        }
        let mut total = 0u64;
        for (i, o) in self.objects.iter().enumerate() {
            total += u64::from(o.count.unwrap_or(1));
            o.validate(&format!("objects[{i}]"))?;
            let ns = o.namespace.as_deref().unwrap_or(&self.controller.namespace);
            for (j, r) in o.owner_references.iter().enumerate() {
                let listed_before = self.objects[..i].iter().any(|p| {
                    p.kind == r.kind
                        && p.namespace.as_deref().unwrap_or(&self.controller.namespace) == ns
                        && p.templates(ns).iter().any(|t| t.name.as_deref() == Some(r.name.as_str()))
                });
                if !listed_before {
                    return Err(ScenarioError::new(
                        format!("objects[{i}].owner_references[{j}].name"),
                        Some(format!("{:?}", r.name)),
                        format!("no {} of that name is listed before this object in its namespace", r.kind),
                    ));
                }
            }
        }
        if total > limits::MAX_OBJECTS_AT_PEAK {
            return Err(ScenarioError::new(
                "objects",
                Some(format!("{total} objects")),
                format!("{total} seed objects in all; the work budget is {} objects at once", limits::MAX_OBJECTS_AT_PEAK),
            ));
        }
        for (i, a) in self.actions.iter().enumerate() {
            self.validate_action(&format!("actions[{i}]"), a)?;
        }
        limits::get("schedule").check("schedule", self.schedule.len() as u64)?;
        limits::get("takes").check("takes", self.takes.len() as u64)?;
        for (i, t) in self.takes.iter().enumerate() {
            limits::get("takes[].take").check(&format!("takes[{i}].take"), u64::from(t.take))?;
            if t.worker >= self.workers() {
                return Err(ScenarioError::new(
                    format!("takes[{i}].worker"),
                    Some(t.worker.to_string()),
                    match self.workers() {
                        1 => "the controller has 1 worker, numbered 0".to_string(),
                        n => format!("the controller has {n} workers, numbered from 0"),
                    },
                ));
            }
            if self.takes[..i].iter().any(|o| o.take == t.take) {
                return Err(ScenarioError::new(format!("takes[{i}].take"), Some(t.take.to_string()), "is chosen twice".to_string()));
            }
        }
        let watched = crate::sim::controllers::watched_kinds(self.controller.kind);
        for (i, d) in self.schedule.iter().enumerate() {
            if !watched.contains(&d.kind) {
                return Err(ScenarioError::new(
                    format!("schedule[{i}].kind"),
                    Some(d.kind.to_string()),
                    format!("{} does not watch {}", self.controller.kind.actor_name(), d.kind),
                ));
            }
            limits::get("schedule[].nth").check(&format!("schedule[{i}].nth"), u64::from(d.nth))?;
            // Each value in its range first: `late_ms: 0` is out of range, not "no way".
            if let Some(late) = d.late_ms {
                limits::get("schedule[].late_ms").check(&format!("schedule[{i}].late_ms"), late)?;
            }
            if let Some(at) = d.at_ms {
                limits::get("schedule[].at_ms").check(&format!("schedule[{i}].at_ms"), at)?;
            }
            let given: Vec<&str> = [("late_ms", d.late_ms.is_some()), ("at_ms", d.at_ms.is_some()), ("hold", d.hold), ("drop", d.drop)]
                .into_iter()
                .filter_map(|(name, set)| set.then_some(name))
                .collect();
            if given.len() != 1 {
                let said = if given.is_empty() { "none of them".to_string() } else { given.join(" and ") };
                return Err(ScenarioError::new(
                    format!("schedule[{i}]"),
                    Some(said.clone()),
                    format!("gives {said}; give exactly one of late_ms, at_ms, hold, drop (the one way this event leaves its timing)"),
                ));
            }
        }
        if !self.expect.is_empty() {
            for (i, c) in self.expect.iter().enumerate() {
                limits::get("expect[].text").check_text(&format!("expect[{i}].text"), &c.text, false)?;
                c.validate(&format!("expect[{i}]"), &doc)?;
            }
        }
        limits::check_budget(self, None)
    }

    /// The budget, with a scale of the scenario's owner made from outside it
    /// (the page's field, `edit=…do=scale:N`).
    pub fn check_budget_with_scale(&self, kind: Kind, name: &str, to: u32) -> Result<(), ScenarioError> {
        limits::check_budget(self, Some((kind, name.to_string(), to)))
    }

    fn validate_action(&self, at: &str, a: &ActionSpec) -> Result<(), ScenarioError> {
        let set = [
            a.apply.is_some(),
            a.delete.is_some(),
            a.scale.is_some(),
            a.delete_pods.is_some(),
            a.drop_next_event.is_some(),
            a.restart_controller.is_some(),
            a.relist.is_some(),
            a.fail_next.is_some(),
            a.pause_controller.is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count();
        if set != 1 {
            return Err(ScenarioError::new(
                at,
                Some(format!("{set} actions")),
                "needs exactly one of apply, delete, scale, delete_pods, drop_next_event, restart_controller, relist, fail_next, pause_controller",
            ));
        }
        if a.at_ms > self.until_ms {
            return Err(ScenarioError::new(
                format!("{at}.at_ms"),
                Some(a.at_ms.to_string()),
                format!("{} is after until_ms {}", a.at_ms, self.until_ms),
            ));
        }
        if let Some(o) = &a.apply {
            o.validate(&format!("{at}.apply"))?;
            if !o.owner_references.is_empty() {
                return Err(ScenarioError::new(
                    format!("{at}.apply.owner_references"),
                    None,
                    "ownerReferences are for the objects listed in objects, whose owners exist before the run",
                ));
            }
            if o.count.is_some_and(|n| n != 1) {
                return Err(ScenarioError::new(format!("{at}.apply.count"), o.count.map(|n| n.to_string()), "apply takes one object"));
            }
        }
        if let Some(t) = &a.delete {
            dns_name(&format!("{at}.delete.name"), &t.name)?;
            if let Some(ns) = &t.namespace {
                dns_name(&format!("{at}.delete.namespace"), ns)?;
            }
        }
        if let Some(s) = &a.scale {
            if !matches!(s.kind, Kind::Ensemble | Kind::ReplicaSet) {
                return Err(ScenarioError::new(
                    format!("{at}.scale.kind"),
                    Some(s.kind.to_string()),
                    format!("{} cannot be scaled: only Ensemble and ReplicaSet", s.kind),
                ));
            }
            dns_name(&format!("{at}.scale.name"), &s.name)?;
            if let Some(ns) = &s.namespace {
                dns_name(&format!("{at}.scale.namespace"), ns)?;
            }
            limits::get("actions[].scale.to").check(&format!("{at}.scale.to"), u64::from(s.to))?;
            range(&format!("{at}.scale.to"), u64::from(s.to), 0, settings::desired_max(s.kind))?;
        }
        if let Some(p) = &a.pause_controller {
            limits::get("actions[].pause_controller.for_ms").check(&format!("{at}.pause_controller.for_ms"), p.for_ms)?;
            if self.controller.kind == ControllerKind::Pruner {
                return Err(ScenarioError::new(
                    format!("{at}.pause_controller"),
                    None,
                    "the pruner is a one-shot program; pausing is for the long-running controllers (ensemble, replicaset)",
                ));
            }
        }
        if let Some(d) = &a.delete_pods {
            dns_name(&format!("{at}.delete_pods.owner"), &d.owner)?;
            limits::get("actions[].delete_pods.count").check(&format!("{at}.delete_pods.count"), u64::from(d.count))?;
            limits::get("actions[].delete_pods.interval_ms").check(&format!("{at}.delete_pods.interval_ms"), d.interval_ms)?;
        }
        let watched = crate::sim::controllers::watched_kinds(self.controller.kind);
        for (field, kind) in
            [("drop_next_event", a.drop_next_event.as_ref().map(|d| d.kind)), ("relist", a.relist.as_ref().map(|r| r.kind))]
        {
            if let Some(kind) = kind {
                if !watched.contains(&kind) {
                    return Err(ScenarioError::new(
                        format!("{at}.{field}.kind"),
                        Some(kind.to_string()),
                        format!("{} does not watch {kind}", self.controller.kind.actor_name()),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Resolve into what the world is built from.
    pub fn world_init(&self) -> WorldInit {
        // The defaults that depend on another setting are resolved now, at
        // the start: the collector's lag stays what it was when the
        // controller's changes during the run.
        let mut cluster = self.cluster.clone();
        cluster.gc_watch_lag_ms = Some(cluster.gc_watch_lag_ms());
        let mut controller = self.controller.clone();
        controller.expectations = Some(controller.expectations());
        controller.workers = Some(controller.workers());
        let k = &self.controller;
        let ns = &k.namespace;
        let objects = self.objects.iter().flat_map(|o| o.templates(ns)).collect();
        let key = |namespace: &Option<String>, name: &str| ObjectKey::new(namespace.clone().unwrap_or_else(|| ns.clone()), name);
        let actions = self
            .actions
            .iter()
            .map(|a| {
                let kind = if let Some(o) = &a.apply {
                    ActionKind::Apply(o.templates(ns).remove(0))
                } else if let Some(t) = &a.delete {
                    ActionKind::Delete { kind: t.kind, key: key(&t.namespace, &t.name), propagation: t.propagation }
                } else if let Some(s) = &a.scale {
                    ActionKind::Scale { kind: s.kind, key: key(&s.namespace, &s.name), to: s.to }
                } else if let Some(d) = &a.delete_pods {
                    ActionKind::DeletePods {
                        owner: ObjectKey::new(ns.clone(), d.owner.clone()),
                        count: d.count,
                        interval_ms: d.interval_ms,
                    }
                } else if let Some(d) = &a.drop_next_event {
                    ActionKind::DropNextEvent { kind: d.kind, event_type: d.event_type }
                } else if let Some(r) = &a.relist {
                    ActionKind::Relist { kind: r.kind }
                } else if let Some(f) = &a.fail_next {
                    ActionKind::FailNext { verb: f.verb, kind: f.kind, mode: f.mode }
                } else if let Some(p) = &a.pause_controller {
                    ActionKind::PauseController { for_ms: p.for_ms }
                } else {
                    ActionKind::RestartController
                };
                Action { at_ms: a.at_ms, kind }
            })
            .collect();
        let frame_limit = limits::frame_limit(limits::objects_at_peak(self, None).0);
        let takes = self.takes.iter().map(|t| (t.take, t.worker)).collect();
        WorldInit {
            seed: self.seed,
            until_ms: self.until_ms,
            frame_limit,
            object_limit: limits::MAX_OBJECTS_AT_PEAK,
            cluster,
            controller,
            objects,
            actions,
            schedule: self.schedule.clone(),
            takes,
        }
    }
}

impl ObjectSpec {
    fn validate(&self, at: &str) -> Result<(), ScenarioError> {
        if let Some(ns) = &self.namespace {
            dns_name(&format!("{at}.namespace"), ns)?;
        }
        let count = self.count.unwrap_or(1);
        limits::get("objects[].count").check(&format!("{at}.count"), u64::from(count))?;
        limits::get("objects[].labels").check(&format!("{at}.labels"), self.labels.len() as u64)?;
        limits::get("objects[].finalizers").check(&format!("{at}.finalizers"), self.finalizers.len() as u64)?;
        limits::get("objects[].owner_references").check(&format!("{at}.owner_references"), self.owner_references.len() as u64)?;
        for (key, value) in &self.labels {
            label_part(&format!("{at}.labels"), key, true)?;
            label_part(&format!("{at}.labels.{key}"), value, false)?;
        }
        if count > 1 && !self.name.contains("{i}") {
            return Err(ScenarioError::new(
                format!("{at}.name"),
                Some(format!("{:?}", self.name)),
                "with count > 1 the name needs {i} (for example \"seed-{i}\")",
            ));
        }
        // The longest name the entry makes is the one with the largest {i}.
        dns_name(&format!("{at}.name"), &self.name.replace("{i}", &count.to_string()))?;
        match (self.kind, self.voices, self.replicas) {
            (Kind::Ensemble, None, _) => return Err(ScenarioError::new(format!("{at}.voices"), None, "an Ensemble needs voices")),
            (Kind::ReplicaSet, _, None) => return Err(ScenarioError::new(format!("{at}.replicas"), None, "a ReplicaSet needs replicas")),
            (k, Some(v), _) if k != Kind::Ensemble => {
                return Err(ScenarioError::new(
                    format!("{at}.voices"),
                    Some(v.to_string()),
                    format!("only an Ensemble has voices; this object's kind is {k}"),
                ))
            }
            (k, _, Some(r)) if k != Kind::ReplicaSet => {
                return Err(ScenarioError::new(
                    format!("{at}.replicas"),
                    Some(r.to_string()),
                    format!("only a ReplicaSet has replicas; this object's kind is {k}"),
                ))
            }
            _ => {}
        }
        if let Some(v) = self.voices {
            limits::get("objects[].voices").check(&format!("{at}.voices"), u64::from(v))?;
        }
        if let Some(r) = self.replicas {
            limits::get("objects[].replicas").check(&format!("{at}.replicas"), u64::from(r))?;
        }
        if self.kind == Kind::Pod {
            return Err(ScenarioError::new(
                format!("{at}.kind"),
                Some("Pod".into()),
                "pods are made by a ReplicaSet, not listed as objects",
            ));
        }
        for (j, f) in self.finalizers.iter().enumerate() {
            let ok =
                !f.is_empty() && f.len() <= 253 && f.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-./".contains(&b));
            if !ok {
                return Err(ScenarioError::new(
                    format!("{at}.finalizers[{j}]"),
                    Some(format!("{f:?}")),
                    "a finalizer is a qualified name: lower-case letters, digits, '-', '.' and '/' (like example.com/hold)",
                ));
            }
        }
        Ok(())
    }

    fn templates(&self, default_ns: &str) -> Vec<ObjectTemplate> {
        let namespace = self.namespace.clone().unwrap_or_else(|| default_ns.to_string());
        let spec = match self.kind {
            Kind::Ensemble => Spec::Ensemble { voices: self.voices.unwrap_or(0) },
            Kind::ReplicaSet => Spec::ReplicaSet { replicas: self.replicas.unwrap_or(0) },
            Kind::ConfigMap => Spec::ConfigMap,
            Kind::Pod => Spec::Pod,
        };
        let count = self.count.unwrap_or(1);
        (1..=count)
            .map(|i| ObjectTemplate {
                namespace: namespace.clone(),
                name: Some(if count > 1 || self.name.contains("{i}") {
                    self.name.replace("{i}", &i.to_string())
                } else {
                    self.name.clone()
                }),
                generate_name: None,
                labels: self.labels.clone(),
                // The UID is the owner's at creation: 0 until the world resolves it.
                owner_references: self
                    .owner_references
                    .iter()
                    .map(|r| OwnerReference { kind: r.kind, name: r.name.clone(), uid: 0, controller: r.controller })
                    .collect(),
                finalizers: self.finalizers.clone(),
                spec: spec.clone(),
            })
            .collect()
    }
}

/// The kinds of the owners a scenario makes (Ensembles and ReplicaSets, in
/// `objects` or an `apply`): what the page's owner buttons act on.
fn owner_kinds(s: &Scenario) -> impl Iterator<Item = Kind> + '_ {
    let seeded = s.objects.iter().map(|o| o.kind);
    let applied = s.actions.iter().filter_map(|a| a.apply.as_ref()).map(|o| o.kind);
    seeded.chain(applied).filter(|k| matches!(k, Kind::Ensemble | Kind::ReplicaSet))
}

fn range(field: &str, v: u64, lo: u64, hi: u64) -> Result<(), ScenarioError> {
    if v < lo || v > hi {
        return Err(ScenarioError::new(field, Some(v.to_string()), format!("{v} is out of range {lo}..={hi}")));
    }
    Ok(())
}

/// A DNS-1123 label, as Kubernetes requires of names and namespaces (simplified: 63 characters).
fn dns_name(field: &str, name: &str) -> Result<(), ScenarioError> {
    let ok = !name.is_empty()
        && name.len() <= 63
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
        && name.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
        && name.bytes().last().is_some_and(|b| b.is_ascii_alphanumeric());
    if ok {
        Ok(())
    } else {
        Err(ScenarioError::new(
            field,
            Some(shown(name)),
            format!("{} is not a valid name (lower-case letters, digits and '-', at most 63)", shown(name)),
        ))
    }
}

/// A text as an error quotes it: escaped, and cut after 60 characters.
fn shown(text: &str) -> String {
    if text.chars().count() <= 60 {
        format!("{text:?}")
    } else {
        format!("{:?}…", text.chars().take(60).collect::<String>())
    }
}

/// A label's key (a qualified name, with an optional `prefix/`) or value, as
/// Kubernetes allows them (simplified: at most 63 characters each part).
fn label_part(field: &str, text: &str, key: bool) -> Result<(), ScenarioError> {
    let part_ok = |p: &str| {
        p.len() <= 63
            && p.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
            && p.bytes().next().is_none_or(|b| b.is_ascii_alphanumeric())
            && p.bytes().last().is_none_or(|b| b.is_ascii_alphanumeric())
    };
    let ok = if key {
        let (prefix, name) = text.rsplit_once('/').unwrap_or(("", text));
        !name.is_empty()
            && part_ok(name)
            && (prefix.is_empty() || dns_name(field, prefix).is_ok() || prefix.len() <= 253 && part_ok(prefix))
    } else {
        part_ok(text)
    };
    if ok {
        return Ok(());
    }
    Err(ScenarioError::new(
        field,
        Some(shown(text)),
        format!(
            "not a valid label {}: letters, digits, '-', '_' and '.', at most 63, beginning and ending with a letter or digit",
            if key { "key" } else { "value" }
        ),
    ))
}

/// The labels that tie children to owners, re-exported for views.
pub const CHILD_LABELS: [&str; 2] = [ENSEMBLE_LABEL, REPLICASET_LABEL];

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's parser (no path tracking) and the runner's (serde_path_to_error)
    /// must say the same thing about the same file.
    #[test]
    fn the_page_parser_names_fields_as_the_runner_does() {
        let docs = [
            "{\n  \"name\": \"x\",\n  \"cluster\": {\"watch_lag_ms\": \"slow\"},\n  \"controller\": {\"kind\": \"ensemble\"}\n}",
            r#"{"name": "x", "controller": {"kind": "ensemble", "naming": "gen"}}"#,
            r#"{"name":"x","controler":{}}"#,
            r#"{"name":"x","controller":{"kind":"pruner","workers":"two"}}"#,
            r#"{"name":"x","controller":{"kind":"pruner"},"actions":[{"at_ms":5,"scale":3},{"at_ms":"x"}]}"#,
            r#"{"name":"x","controller":{"kind":"pruner"},"actions":[{"at_ms":5,"delete_pods":{"count":1}},{"at_ms":"x"}]}"#,
            r#"{"name":"x","controller":{"kind":"pruner"},"objects":[{"kind":"ConfigMap","name":"a","count":1,"bogus":1}]}"#,
            r#"{"name":"x","controller":{"kind":"pruner"},"cluster":{"watch_lag_ms":-1}}"#,
            r#"{"name":"x","controller":{"kind":"pruner"},"objects":[{"kind":"ConfigMap","name":"a","count":1,"labels":{"a\"b":1}}]}"#,
            r#"{"name":"x","controller":{"kind":"pruner"},"objects":[{"name":"a"}]}"#,
            r#"{"name":"x", "controller":{"kind":"pruner"},"#,
            r#"{"name":"x","controller":{"kind":"pruner"},"objects":[],"actions":[{"at_ms":1,"apply":{"kind":"Ensemble","name":"b","voices":"4"}}]}"#,
            // Trailing data: one rule for both.
            r#"{"name":"x","controller":{"kind":"pruner"}} garbage"#,
            r#"{"name":"x","controller":{"kind":"pruner"}}{"name":"y","controller":{"kind":"pruner"}}"#,
            "{\"name\":\"x\",\"controller\":{\"kind\":\"pruner\"}}\0",
        ];
        for text in docs {
            let runner = parse(text).unwrap_err();
            let page = parse_plain(text).unwrap_err();
            assert_eq!(page.to_string(), runner.to_string(), "{text}");
        }
        assert_eq!(parse_plain(docs[4]).unwrap_err().field, "actions[0].scale");
        assert!(parse(docs[12]).unwrap_err().message.contains("trailing characters"));
        // A byte-order mark is not an error, in either.
        let bom = "\u{FEFF}{\"name\":\"x\",\"controller\":{\"kind\":\"pruner\"}}";
        assert_eq!(parse(bom).unwrap().name, "x");
        assert_eq!(parse_plain(bom).unwrap().name, "x");
    }

    #[test]
    fn an_incident_link_must_be_a_web_link() {
        for url in ["javascript:alert(1)", "data:text/html,hi", "//evil.example", "ftp://x"] {
            let text = format!(r#"{{"name":"x","controller":{{"kind":"pruner"}},"incident":{{"title":"t","url":"{url}"}}}}"#);
            let e = Scenario::from_json(&text).unwrap_err();
            assert_eq!(e.field, "incident.url", "{url}");
            assert!(e.to_string().contains(url), "{e}");
        }
        let ok = r#"{"name":"x","controller":{"kind":"pruner"},"incident":{"title":"t","url":"https://github.com/x/y/issues/1"}}"#;
        assert!(Scenario::from_json(ok).is_ok());
    }

    #[test]
    fn a_list_or_a_map_where_a_word_belongs_is_named_by_its_index_in_the_page_too() {
        // The page finds the field from the error's position, which serde_json
        // gives just before such a value: the field is the one that starts there.
        for (text, field) in [
            (r#"{"name": "x", "controller": {"kind": "pruner"}, "objects": [{"kind": "ConfigMap", "name": "a", "finalizers": [[], "x"]}]}"#, "objects[0].finalizers[0]"),
            ("{\"name\": \"x\", \"controller\": {\"kind\": \"pruner\"}, \"objects\": [{\"kind\": \"ConfigMap\", \"name\": \"a\",\n  \"finalizers\": [\"a\",\n   {\"b\": 1}]}]}", "objects[0].finalizers[1]"),
            (r#"{"name": [], "controller": {"kind": "ensemble"}}"#, "name"),
            (r#"{"name": {"b": 1}, "controller": {"kind": "ensemble"}}"#, "name"),
        ] {
            let (runner, page) = (parse(text).unwrap_err(), parse_plain(text).unwrap_err());
            assert_eq!((runner.field.as_str(), page.field.as_str()), (field, field), "{text}");
            assert_eq!(page.to_string(), runner.to_string());
        }
    }

    #[test]
    fn settings_are_named_by_their_full_path() {
        let s = presets::preset("over-create").unwrap();
        let e = s.with_settings([("controller.workers", "2"), ("cluster.watch_lag_ms", "slow")]).unwrap_err();
        assert_eq!(e.field, "cluster.watch_lag_ms");
        assert!(e.to_string().contains("slow"));
    }
}

/// The page's parser against the runner's, on thousands of broken documents:
/// every preset with one value replaced by a wrong one, or one unknown key
/// added, written compact or pretty. Both must fail alike, word for word.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod parity {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    /// Every value's location in a document: a list of object keys / array indices.
    fn locations(v: &Value, here: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    here.push(Value::String(k.clone()));
                    out.push(here.clone());
                    locations(x, here, out);
                    here.pop();
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    here.push(Value::from(i));
                    out.push(here.clone());
                    locations(x, here, out);
                    here.pop();
                }
            }
            _ => {}
        }
    }

    fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
        path.iter().fold(v, |v, p| match p {
            Value::String(k) => &mut v[k.as_str()],
            Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
            _ => unreachable!(),
        })
    }

    fn wrong() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::String("x".into())),
            Just(Value::from(-1)),
            Just(Value::from(1.5)),
            Just(Value::Bool(true)),
            Just(Value::Null),
            Just(Value::Array(vec![])),
            Just(serde_json::json!({ "bogus": 1 })),
            Just(Value::from(u64::MAX)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn the_page_and_the_runner_name_every_error_alike(
            preset_index in 0usize..16,
            location in any::<prop::sample::Index>(),
            replacement in wrong(),
            add_unknown_key in any::<bool>(),
            pretty in any::<bool>(),
        ) {
            let names = presets::preset_names();
            let mut doc = presets::preset(names[preset_index % names.len()]).unwrap().to_value();
            let mut all = Vec::new();
            locations(&doc, &mut Vec::new(), &mut all);
            let path = location.get(&all).clone();
            if add_unknown_key {
                // An unknown key in the object that holds this location (or the root).
                let parent = at(&mut doc, &path[..path.len() - 1]);
                if let Value::Object(m) = parent {
                    m.insert("unknwn".into(), Value::from(1));
                }
            } else {
                *at(&mut doc, &path) = replacement;
            }
            let text = if pretty { serde_json::to_string_pretty(&doc).unwrap() } else { doc.to_string() };
            match (parse(&text), parse_plain(&text)) {
                (Err(runner), Err(page)) => prop_assert_eq!(page.to_string(), runner.to_string(), "{}", text),
                (Ok(_), Ok(_)) => {}
                (a, b) => prop_assert!(false, "one parser failed alone: runner {:?}, page {:?}", a.err(), b.err()),
            }
        }
    }
}
