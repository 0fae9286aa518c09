//! What a scenario promises, as data. Each [`Check`] is one figure a learner
//! reads beside the run ("exactly 4 ConfigMaps"): what is measured, the value
//! or range expected, the settings it holds under, and the sentence shown.
//! The page draws each as expected · measured · ✓/✗ for the run on screen;
//! `cachescope run` reports them and `cachescope check` fails when one does
//! not hold, so a figure in a lesson is a figure a test has seen.

use super::ScenarioError;
use crate::sim::apiserver::{Actor, Verb};
use crate::sim::controllers::Note;
use crate::sim::frame::{Event, Frame};
use crate::sim::object::Kind;
use crate::sim::world::World;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

#[cfg(not(target_arch = "wasm32"))]
use schemars::JsonSchema;

/// What a check measures, over the whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Objects of `kind` alive when the run ends.
    Live,
    /// The most objects of `kind` alive at any instant.
    Peak,
    /// The controller's own requests with `verb` answered `status`, sent
    /// within `from_ms`..`to_ms` when given (by the time the apiserver handled them).
    Requests,
    /// Requests from anyone answered 400 or above.
    Errors,
    /// The one-shot program's exit status (unmeasured if it never exits).
    ExitCode,
    /// 1 if `invariant` broke during the run, 0 if it held.
    Broken,
    /// The controller's creates answered 201 after its first delete answered
    /// 200: a delete went below the desired count and the controller made it good.
    CreatesAfterDelete,
    /// Syncs v1.36's consistency store skipped (`*_controller_stale_sync_skips_total`).
    StaleSyncSkips,
    /// Objects of `kind` in the controller's cache (its informer's store).
    Cached,
    /// Reconciles started (syncs).
    Reconciles,
    /// ControllerExpectations: creations expected and not yet observed, over every key.
    ExpectedAdds,
    /// ControllerExpectations: deletions expected and not yet observed, over every key.
    ExpectedDeletes,
    /// Keys requeued with backoff after a reconcile's error (a skipped sync included).
    Requeues,
    /// Reads controller-runtime's read-your-writes client held until the cache caught up.
    HeldReads,
    /// Reconciles that returned controller-runtime's `reconcile.TerminalError`
    /// (`controller_runtime_terminal_reconcile_errors_total`): never requeued.
    TerminalErrors,
    /// When the controller last changed the cluster, in ms: its last create,
    /// update or delete answered 2xx (0 if none). How long it took to converge.
    LastWriteMs,
}

impl Measure {
    /// The fields this measure takes (besides `text`, the expected value and `when`).
    fn takes(self) -> &'static [&'static str] {
        match self {
            Measure::Live | Measure::Peak | Measure::Cached => &["kind"],
            Measure::Requests => &["verb", "status", "from_ms", "to_ms"],
            Measure::Broken => &["invariant"],
            Measure::Errors
            | Measure::ExitCode
            | Measure::CreatesAfterDelete
            | Measure::StaleSyncSkips
            | Measure::Reconciles
            | Measure::ExpectedAdds
            | Measure::ExpectedDeletes
            | Measure::Requeues
            | Measure::HeldReads
            | Measure::TerminalErrors
            | Measure::LastWriteMs => &[],
        }
    }

    fn name(self) -> &'static str {
        match self {
            Measure::Live => "live",
            Measure::Peak => "peak",
            Measure::Requests => "requests",
            Measure::Errors => "errors",
            Measure::ExitCode => "exit_code",
            Measure::Broken => "broken",
            Measure::CreatesAfterDelete => "creates_after_delete",
            Measure::StaleSyncSkips => "stale_sync_skips",
            Measure::Cached => "cached",
            Measure::Reconciles => "reconciles",
            Measure::ExpectedAdds => "expected_adds",
            Measure::ExpectedDeletes => "expected_deletes",
            Measure::Requeues => "requeues",
            Measure::HeldReads => "held_reads",
            Measure::TerminalErrors => "terminal_errors",
            Measure::LastWriteMs => "last_write_ms",
        }
    }
}

/// What is measured, without what is expected of it: a [`Check`]'s measure
/// and the fields it takes, and what a lesson asks for (`answer`,
/// `figures`). Measured on a world and the frames that led to it, so at any
/// frame of a run as well as at its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Gauge {
    pub measure: Measure,
    /// `live`, `peak`, `cached`: the kind of object counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
    /// `requests`: the verb.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verb: Option<Verb>,
    /// `requests`: the HTTP status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// `requests`: count only those handled at or after this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_ms: Option<u64>,
    /// `requests`: count only those handled before this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_ms: Option<u64>,
    /// `broken`: the invariant's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invariant: Option<String>,
}

impl Gauge {
    /// Check the fields against the measure; `at` is the gauge's path (`expect[2]`, `lesson[0].answer`).
    pub fn validate(&self, at: &str, known: &[&str]) -> Result<(), ScenarioError> {
        let given: [(&str, bool); 6] = [
            ("kind", self.kind.is_some()),
            ("verb", self.verb.is_some()),
            ("status", self.status.is_some()),
            ("from_ms", self.from_ms.is_some()),
            ("to_ms", self.to_ms.is_some()),
            ("invariant", self.invariant.is_some()),
        ];
        let takes = self.measure.takes();
        for (field, present) in given {
            if present && !takes.contains(&field) {
                return Err(ScenarioError::new(format!("{at}.{field}"), None, format!("measure {} takes no {field}", self.measure.name())));
            }
        }
        let need = |field: &str, present: bool| {
            if present {
                Ok(())
            } else {
                Err(ScenarioError::new(format!("{at}.{field}"), None, format!("measure {} needs {field}", self.measure.name())))
            }
        };
        match self.measure {
            Measure::Live | Measure::Peak | Measure::Cached => need("kind", self.kind.is_some())?,
            Measure::Requests => {
                need("verb", self.verb.is_some())?;
                need("status", self.status.is_some())?;
                if let Some(s) = self.status {
                    super::range(&format!("{at}.status"), u64::from(s), 100, 599)?;
                }
                if let (Some(from), Some(to)) = (self.from_ms, self.to_ms) {
                    if from >= to {
                        return Err(ScenarioError::new(
                            format!("{at}.to_ms"),
                            Some(to.to_string()),
                            format!("{to} is not after from_ms {from}"),
                        ));
                    }
                }
            }
            Measure::Broken => known_invariant(&format!("{at}.invariant"), self.invariant.as_deref(), known)?,
            _ => {}
        }
        Ok(())
    }

    /// Measure it on a world that has run through `frames` (the whole run,
    /// or the run up to a frame); `None` when there is nothing to measure
    /// (a program that has not exited).
    pub fn measure(&self, world: &World, frames: &[Frame]) -> Option<u64> {
        let own = |actor: Actor| matches!(actor, Actor::Controller(_));
        let replicas = || std::iter::once(&world.ctl).chain(world.peer.as_ref());
        Some(match self.measure {
            Measure::Live => world.api.live_count(self.kind?),
            Measure::Peak => world.api.peak_count(self.kind?),
            Measure::Cached => world.controller_informer(self.kind?).map_or(0, |i| i.len() as u64),
            Measure::Requests => {
                let (verb, status) = (self.verb?, self.status?);
                let from = self.from_ms.unwrap_or(0);
                let to = self.to_ms.unwrap_or(u64::MAX);
                frames
                    .iter()
                    .filter(|f| {
                        matches!(&f.event, Event::ApiRequest { entry, .. }
                            if own(entry.actor) && entry.verb == verb && entry.status.code == status && (from..to).contains(&entry.at_ms))
                    })
                    .count() as u64
            }
            Measure::Errors => {
                frames.iter().filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.status.code >= 400)).count() as u64
            }
            Measure::ExitCode => {
                let code = frames.iter().rev().find_map(|f| match &f.event {
                    Event::ControllerExited { code, .. } => Some(*code),
                    _ => None,
                })?;
                u64::try_from(code).ok()?
            }
            Measure::Broken => u64::from(world.invariants.get(self.invariant.as_deref()?)?.first_broken_frame.is_some()),
            Measure::StaleSyncSkips => replicas().map(|r| r.stale_sync_skips).sum(),
            Measure::Reconciles => replicas().map(|r| r.reconciles).sum(),
            Measure::Requeues => replicas().map(|r| r.requeues).sum(),
            Measure::TerminalErrors => frames
                .iter()
                .filter(|f| matches!(&f.event, Event::ReconcileFinished { requeue: crate::sim::reconcile::Requeue::Terminal, .. }))
                .count() as u64,
            Measure::HeldReads => {
                frames.iter().filter(|f| matches!(&f.event, Event::ReconcileNote { note: Note::ReadWaits { .. }, .. })).count() as u64
            }
            Measure::LastWriteMs => frames
                .iter()
                .rev()
                .find_map(|f| match &f.event {
                    Event::ApiRequest { entry, .. }
                        if own(entry.actor)
                            && matches!(entry.verb, Verb::Create | Verb::Update | Verb::Delete)
                            && entry.status.is_success() =>
                    {
                        Some(entry.at_ms)
                    }
                    _ => None,
                })
                .unwrap_or(0),
            Measure::ExpectedAdds => world.ctl.expectations.records().map(|(_, r)| r.add.max(0) as u64).sum(),
            Measure::ExpectedDeletes => world.ctl.expectations.records().map(|(_, r)| r.del.max(0) as u64).sum(),
            Measure::CreatesAfterDelete => {
                let mut deleted = false;
                let mut n = 0;
                for f in frames {
                    if let Event::ApiRequest { entry, .. } = &f.event {
                        if !own(entry.actor) {
                            continue;
                        }
                        match (entry.verb, entry.status.code) {
                            (Verb::Delete, 200) => deleted = true,
                            (Verb::Create, 201) if deleted => n += 1,
                            _ => {}
                        }
                    }
                }
                n
            }
        })
    }
}

/// `name` is one of the invariants the world checks (`known`: the built-in
/// ones, then the scenario's own); `at` names the field.
pub(super) fn known_invariant(at: &str, name: Option<&str>, known: &[&str]) -> Result<(), ScenarioError> {
    let name = name.unwrap_or_default();
    if known.contains(&name) {
        return Ok(());
    }
    Err(ScenarioError::new(at, Some(format!("{name:?}")), format!("unknown invariant {name:?}; known: {}", known.join(", "))))
}

/// An expected value or range: `equals`, or `min` and/or `max`.
pub(super) fn validate_range(at: &str, equals: Option<u64>, min: Option<u64>, max: Option<u64>) -> Result<(), ScenarioError> {
    match (equals, min, max) {
        (None, None, None) => Err(ScenarioError::new(at, None, "needs the expected value: equals, or min and/or max")),
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            Err(ScenarioError::new(format!("{at}.equals"), None, "give equals, or min and/or max, not both"))
        }
        (None, Some(lo), Some(hi)) if lo > hi => {
            Err(ScenarioError::new(format!("{at}.min"), Some(lo.to_string()), format!("{lo} is above max {hi}")))
        }
        _ => Ok(()),
    }
}

/// Does `v` satisfy `equals`, `min` and `max`?
pub(super) fn in_range(v: u64, equals: Option<u64>, min: Option<u64>, max: Option<u64>) -> bool {
    equals.is_none_or(|e| v == e) && min.is_none_or(|lo| v >= lo) && max.is_none_or(|hi| v <= hi)
}

/// One figure a scenario promises: `{"text": "exactly 4 ConfigMaps", "measure":
/// "live", "kind": "ConfigMap", "equals": 4, "when": {"controller.naming": "deterministic"}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// The sentence a learner reads beside the measured figure.
    pub text: String,
    pub measure: Measure,
    /// `live`, `peak`: the kind of object counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
    /// `requests`: the verb.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verb: Option<Verb>,
    /// `requests`: the HTTP status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// `requests`: count only those handled at or after this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_ms: Option<u64>,
    /// `requests`: count only those handled before this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_ms: Option<u64>,
    /// `broken`: the invariant's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invariant: Option<String>,
    /// The value expected exactly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<u64>,
    /// The least value expected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u64>,
    /// The most value expected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
    /// The settings this figure holds under, by dotted path
    /// (`{"controller.naming": "generate"}`); empty: always.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub when: BTreeMap<String, Value>,
}

/// A check against one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub text: String,
    /// The expected value or range in words: `4`, `at least 1`, `8 to 12`.
    pub expected: String,
    /// What the run gave; `None` when there is nothing to measure (a program that never exited).
    pub measured: Option<u64>,
    pub held: bool,
}

impl Check {
    /// The expected value or range in words.
    pub fn expected(&self) -> String {
        match (self.equals, self.min, self.max) {
            (Some(v), _, _) => v.to_string(),
            (None, Some(lo), Some(hi)) => format!("{lo} to {hi}"),
            (None, Some(lo), None) => format!("at least {lo}"),
            (None, None, Some(hi)) => format!("at most {hi}"),
            (None, None, None) => "?".to_string(),
        }
    }

    /// Does `v` satisfy the expectation?
    pub fn accepts(&self, v: u64) -> bool {
        in_range(v, self.equals, self.min, self.max)
    }

    /// What it measures.
    pub fn gauge(&self) -> Gauge {
        Gauge {
            measure: self.measure,
            kind: self.kind,
            verb: self.verb,
            status: self.status,
            from_ms: self.from_ms,
            to_ms: self.to_ms,
            invariant: self.invariant.clone(),
        }
    }

    /// The figures this check names: its expected values (for the test that
    /// every figure in a description is pinned by a check).
    pub fn figures(&self) -> impl Iterator<Item = u64> {
        [self.equals, self.min, self.max].into_iter().flatten()
    }

    /// Does it apply to a run with these effective settings ([`effective_settings`])?
    pub fn applies(&self, effective: &Value) -> bool {
        self.when.iter().all(|(path, want)| super::get_path(effective, path) == Some(want))
    }

    /// Check the fields against the measure; `at` is the check's path (`expect[2]`),
    /// `doc` the scenario's JSON with every field present (for `when` paths).
    pub fn validate(&self, at: &str, doc: &Value, known: &[&str]) -> Result<(), ScenarioError> {
        if self.text.trim().is_empty() {
            return Err(ScenarioError::new(format!("{at}.text"), Some("\"\"".into()), "must not be empty: it is what the learner reads"));
        }
        self.gauge().validate(at, known)?;
        validate_range(at, self.equals, self.min, self.max)?;
        for path in self.when.keys() {
            if super::get_path(doc, path).is_none_or(|v| v.is_object()) || path.starts_with("expect") {
                return Err(ScenarioError::new(
                    format!("{at}.when"),
                    Some(format!("{path:?}")),
                    format!("{path:?} is not a scenario setting (for example controller.naming or cluster.watch_lag_ms)"),
                ));
            }
        }
        Ok(())
    }

    /// Measure this check on a finished run.
    pub fn measure(&self, world: &World, frames: &[Frame]) -> Option<u64> {
        self.gauge().measure(world, frames)
    }

    /// This check against a finished run.
    pub fn outcome(&self, world: &World, frames: &[Frame]) -> Verdict {
        let measured = self.measure(world, frames);
        Verdict { text: self.text.clone(), expected: self.expected(), measured, held: measured.is_some_and(|v| self.accepts(v)) }
    }
}

/// The scenario's settings as the run ended: its document with the cluster
/// and controller sections as the world last had them (so a switch flipped
/// during the run counts), for [`Check::applies`].
pub fn effective_settings(scenario: &super::Scenario, world: &World) -> Value {
    let mut doc = scenario.to_value();
    for (section, now) in [("cluster", serde_json::to_value(&world.cluster)), ("controller", serde_json::to_value(&world.controller))] {
        let (Some(Value::Object(into)), Ok(Value::Object(now))) = (doc.get_mut(section), now) else { continue };
        for (k, v) in now {
            if let Some(slot) = into.get_mut(&k) {
                *slot = v;
            }
        }
    }
    // What a profile governs, as it resolved: a check `when` the store is
    // off applies to a 1.28 run that never names it.
    if let Some(Value::Object(c)) = doc.get_mut("controller") {
        for g in world.controller.governed() {
            let value = match g.resolved {
                crate::sim::settings::Val::Flag(b) => Value::Bool(b),
                crate::sim::settings::Val::Word(w) => Value::from(w),
                crate::sim::settings::Val::Int(n) => Value::from(n),
            };
            c.insert(g.path.trim_start_matches("controller.").into(), value);
        }
    }
    doc
}

/// The checks that apply to a finished run, against it.
pub fn outcomes(scenario: &super::Scenario, world: &World, frames: &[Frame]) -> Vec<Verdict> {
    let effective = effective_settings(scenario, world);
    scenario.expect.iter().filter(|c| c.applies(&effective)).map(|c| c.outcome(world, frames)).collect()
}
