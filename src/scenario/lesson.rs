//! Lessons: a scenario's steps that ask before they show. Each step pauses
//! the run at a frame ([`At`]), asks a question whose answer is a [`Gauge`]
//! measured at that frame (a number, or the one of its `choices` whose range
//! holds it), then reveals why; a step may first ask the learner to change a
//! setting (`set`: the lab's "change one line and run it again"), and may
//! write a row of the learner's notes (`write`). Nothing a learner is told
//! is typed by hand: [`play`] computes every answer from the run, and refuses
//! a lesson whose reveal states a figure the run contradicts.

use super::expect::{in_range, known_invariant, validate_range, Gauge};
use super::{limits, Scenario, ScenarioError};
use crate::sim::apiserver::{EventType, Verb};
use crate::sim::controllers::Step;
use crate::sim::frame::{Event, Frame, Watcher};
use crate::sim::object::Kind;
use crate::sim::world::World;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

#[cfg(not(target_arch = "wasm32"))]
use schemars::JsonSchema;

/// One step of a lesson.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct LessonStep {
    /// Where the run pauses for the answer: the frame the reveal speaks at,
    /// strictly after the frame the question is asked at.
    pub at: At,
    /// Where the question is asked, when not where the learner stands (the
    /// previous step's frame; frame 0 for the first step and after a `set`):
    /// the moment the question is about, searched from the run's start, so a
    /// step may go back to it (`{"reconcile": {"n": 3}}` after a step at the end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask_at: Option<At>,
    /// The question.
    pub ask: String,
    /// The answer: a measure at the step's frame (`{"measure": "cached", "kind": "ConfigMap"}`).
    pub answer: Gauge,
    /// Answered by choosing: the one whose range holds the answer is right
    /// (exactly one must); empty, the learner predicts the number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<LessonChoice>,
    /// What the learner reads once they have answered. `{answer}` is the
    /// answer, `{NAME}` a figure of `figures`; any other figure it states
    /// must be one of those, or one of the scenario's settings.
    pub reveal: String,
    /// More measures at the step's frame, for the reveal (`{"creates": {…}}`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub figures: BTreeMap<String, Gauge>,
    /// Settings the learner changes with the page's own controls before
    /// the step (`{"controller.naming": "generate"}`); the run is made
    /// again from its start with them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<String, Value>,
    /// A row of the learner's notes: its label; the value is the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write: Option<String>,
    /// What the learner writes in their own words once the step is revealed
    /// (the lab's "one sentence … phrased as the incident it causes"): a
    /// field in their notes, copied into the Markdown under this prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    /// A table the reveal shows (the lab's comparison), also copied into the
    /// learner's notes; its cells take `{answer}` and `{NAME}` as the reveal
    /// does, and their figures are checked as the reveal's are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<LessonTable>,
}

/// A small table: its column headings, and rows of cells, one per column.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct LessonTable {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// A choice: what the learner reads, and the answers it stands for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct LessonChoice {
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
}

impl LessonChoice {
    pub fn accepts(&self, v: u64) -> bool {
        in_range(v, self.equals, self.min, self.max)
    }
}

/// Where a step pauses, exactly one of these: the first frame that matches,
/// after the previous step's (in the run made again, after a `set`).
/// `{"end": true}`, `{"time_ms": 4000}`, `{"reconcile": {"n": 2, "step": "list_children"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct At {
    /// Frame 0: before anything happens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<bool>,
    /// The run's last frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<bool>,
    /// The first frame at or after this simulated time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// The frame that first breaks this invariant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broken: Option<String>,
    /// The `nth` request of the controller's with `verb` (answered `status`, if given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<RequestAt>,
    /// The `n`th reconcile: its note at `step` (its return at `return`), or its start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconcile: Option<ReconcileAt>,
    /// The `nth` watch event to reach the controller's cache (of `kind` and `type`, if given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivered: Option<DeliveredAt>,
    /// `WaitForCacheSync` returned, or was skipped: the workers start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workers_started: Option<bool>,
    /// The one-shot program exits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exited: Option<bool>,
}

/// What an [`At`] selects, read once ([`At::selector`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selector<'a> {
    Start,
    End,
    TimeMs(u64),
    Broken(&'a str),
    Request(&'a RequestAt),
    Reconcile(&'a ReconcileAt),
    Delivered(&'a DeliveredAt),
    WorkersStarted,
    Exited,
}

impl At {
    /// The one selector given, or how many were given instead (validation
    /// refuses any other count than one, naming the step). A flag given
    /// `false` selects nothing.
    pub fn selector(&self) -> Result<Selector<'_>, usize> {
        let flag = |f: Option<bool>, s: Selector<'static>| f.filter(|v| *v).map(|_| s);
        let given = [
            flag(self.start, Selector::Start),
            flag(self.end, Selector::End),
            self.time_ms.map(Selector::TimeMs),
            self.broken.as_deref().map(Selector::Broken),
            self.request.as_ref().map(Selector::Request),
            self.reconcile.as_ref().map(Selector::Reconcile),
            self.delivered.as_ref().map(Selector::Delivered),
            flag(self.workers_started, Selector::WorkersStarted),
            flag(self.exited, Selector::Exited),
        ];
        let mut given = given.into_iter().flatten();
        match (given.next(), given.count()) {
            (Some(one), 0) => Ok(one),
            (first, more) => Err(usize::from(first.is_some()) + more),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RequestAt {
    pub verb: Verb,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    #[serde(default = "first")]
    pub nth: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ReconcileAt {
    pub n: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<Step>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DeliveredAt {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub event_type: Option<EventType>,
    #[serde(default = "first")]
    pub nth: u32,
}

fn first() -> u32 {
    1
}

/// Counts what a selector counts, frame by frame.
#[derive(Default)]
struct Seen {
    requests: u32,
    delivered: u32,
}

impl Selector<'_> {
    /// Does `frame` match, given what came before it (`seen`, updated here)?
    fn matches(&self, frame: &Frame, seen: &mut Seen) -> bool {
        match (*self, &frame.event) {
            (Selector::TimeMs(t), _) => frame.at_ms >= t,
            (Selector::Broken(name), _) => frame.broke.iter().any(|v| v.first && v.invariant == name),
            (Selector::Request(r), Event::ApiRequest { entry, .. })
                if matches!(entry.actor, crate::sim::apiserver::Actor::Controller(_))
                    && entry.verb == r.verb
                    && r.status.is_none_or(|s| s == entry.status.code) =>
            {
                seen.requests += 1;
                seen.requests == r.nth
            }
            (Selector::Reconcile(r), Event::ReconcileStarted { n, .. }) => r.step.is_none() && *n == r.n,
            (Selector::Reconcile(r), Event::ReconcileNote { n, step, .. }) => r.step == Some(*step) && *n == r.n,
            // Its return is a frame of its own, where the Reconcile panel lights `return`.
            (Selector::Reconcile(r), Event::ReconcileFinished { n, .. }) => r.step == Some(Step::Return) && *n == r.n,
            (Selector::Delivered(d), Event::WatchDelivered { watcher: Watcher::Controller, event_type, object, .. })
                if d.kind.is_none_or(|k| k == object.kind) && d.event_type.is_none_or(|t| t == *event_type) =>
            {
                seen.delivered += 1;
                seen.delivered == d.nth
            }
            (Selector::WorkersStarted, Event::WorkersStarted { .. }) => true,
            (Selector::Exited, Event::ControllerExited { .. }) => true,
            _ => false,
        }
    }
}

/// What a step gives a learner, computed from the run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepOutcome {
    /// The frame the question is asked at: before `frame`, always.
    pub ask_frame: u64,
    /// The frame the run pauses at for the answer, and its time.
    pub frame: u64,
    pub at_ms: u64,
    /// The settings the step's run is made with, the lesson's `set`s so far
    /// (`controller.naming=generate`).
    pub settings: BTreeMap<String, String>,
    /// The measured answer; for choices, also the right one (0-based).
    pub answer: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<usize>,
    /// The `figures`, measured.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub figures: BTreeMap<String, u64>,
    /// The reveal with its `{…}` filled in.
    pub reveal: String,
    /// The step's table, its cells filled in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<LessonTable>,
}

/// A lesson the run contradicts (`cachescope check` exits 1 on it), naming
/// the step (`lesson[2]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonFailure {
    pub step: String,
    pub message: String,
}

impl std::fmt::Display for LessonFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.step, self.message)
    }
}

/// A `set` value as `--set` writes it.
pub fn raw(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Check a lesson's fields; `doc` is the scenario's JSON with every field present.
pub(super) fn validate(lesson: &[LessonStep], doc: &Value, known: &[&str]) -> Result<(), ScenarioError> {
    limits::get("lesson").check("lesson", lesson.len() as u64)?;
    for (i, step) in lesson.iter().enumerate() {
        let at = format!("lesson[{i}]");
        limits::get("lesson[].ask").check_text(&format!("{at}.ask"), &step.ask, false)?;
        limits::get("lesson[].reveal").check_text(&format!("{at}.reveal"), &step.reveal, false)?;
        for (field, text) in [("ask", &step.ask), ("reveal", &step.reveal)] {
            if text.trim().is_empty() {
                return Err(ScenarioError::new(
                    format!("{at}.{field}"),
                    Some("\"\"".into()),
                    "must not be empty: it is what the learner reads",
                ));
            }
        }
        validate_at(&format!("{at}.at"), &step.at, known)?;
        if matches!(step.at.selector(), Ok(Selector::Start)) {
            return Err(ScenarioError::new(
                format!("{at}.at"),
                Some("{\"start\": true}".into()),
                "a step answers after it asks, and frame 0 is before any: pause at a later frame",
            ));
        }
        if let Some(ask_at) = &step.ask_at {
            validate_at(&format!("{at}.ask_at"), ask_at, known)?;
            if matches!(ask_at.selector(), Ok(Selector::End)) {
                return Err(ScenarioError::new(
                    format!("{at}.ask_at"),
                    Some("{\"end\": true}".into()),
                    "a question asked at the run's end has its answer on screen: ask it before the moment it is about",
                ));
            }
        }
        step.answer.validate(&format!("{at}.answer"), known)?;
        limits::get("lesson[].figures").check(&format!("{at}.figures"), step.figures.len() as u64)?;
        limits::get("lesson[].choices").check(&format!("{at}.choices"), step.choices.len() as u64)?;
        for (name, g) in &step.figures {
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_lowercase() || c == '_') || name == "answer" {
                return Err(ScenarioError::new(
                    format!("{at}.figures"),
                    Some(format!("{name:?}")),
                    "a figure's name is lower-case letters and _, and not \"answer\"",
                ));
            }
            g.validate(&format!("{at}.figures.{name}"), known)?;
        }
        if step.choices.len() == 1 {
            return Err(ScenarioError::new(
                format!("{at}.choices"),
                None,
                "give at least two choices, or none (the learner predicts the number)",
            ));
        }
        for (j, c) in step.choices.iter().enumerate() {
            let at = format!("{at}.choices[{j}]");
            if c.text.trim().is_empty() {
                return Err(ScenarioError::new(format!("{at}.text"), Some("\"\"".into()), "must not be empty"));
            }
            limits::get("lesson[].ask").check_text(&format!("{at}.text"), &c.text, false)?;
            validate_range(&at, c.equals, c.min, c.max)?;
        }
        for name in placeholders(&step.reveal) {
            if name != "answer" && !step.figures.contains_key(name) {
                return Err(ScenarioError::new(
                    format!("{at}.reveal"),
                    Some(format!("{{{name}}}")),
                    format!("{{{name}}} is neither {{answer}} nor one of this step's figures"),
                ));
            }
        }
        for (path, value) in &step.set {
            // A setting, or a field of the recipe's own (`controller.recipe.steps[2].label_owner.remove`):
            // the one-line fix a learner makes in "Your controller".
            // A setting is a scalar; a field of the recipe may be a whole part of it (its steps, a step added).
            let known = super::settings::setting(path).is_some() || is_recipe_field(path);
            let whole = |v: &Value| (v.is_object() || v.is_array()) && !is_recipe_field(path);
            if super::get_path(doc, path).is_none_or(whole) || !known {
                return Err(ScenarioError::new(
                    format!("{at}.set"),
                    Some(format!("{path:?}")),
                    format!(
                        "{path:?} is neither a scenario setting (for example controller.naming or cluster.watch_lag_ms) nor a field of controller.recipe the scenario writes"
                    ),
                ));
            }
            if value.is_null() || ((value.is_object() || value.is_array()) && !is_recipe_field(path)) {
                return Err(ScenarioError::new(
                    format!("{at}.set.{path}"),
                    Some(value.to_string()),
                    "must be a string, a number or a boolean (only a field of controller.recipe may be set to a list or an object)",
                ));
            }
        }
        if let Some(w) = &step.write {
            limits::get("lesson[].write").check_text(&format!("{at}.write"), w, false)?;
        }
        if let Some(p) = &step.prompt {
            limits::get("lesson[].prompt").check_text(&format!("{at}.prompt"), p, false)?;
            if p.trim().is_empty() {
                return Err(ScenarioError::new(
                    format!("{at}.prompt"),
                    Some("\"\"".into()),
                    "must not be empty: it is what the learner answers in their notes",
                ));
            }
        }
        if let Some(t) = &step.table {
            let at = format!("{at}.table");
            limits::get("lesson[].table.rows").check(&format!("{at}.rows"), t.rows.len() as u64)?;
            if t.columns.len() < 2 || t.columns.len() > 4 {
                return Err(ScenarioError::new(format!("{at}.columns"), Some(t.columns.len().to_string()), "a table has 2 to 4 columns"));
            }
            for (c, heading) in t.columns.iter().enumerate() {
                limits::get("lesson[].table.columns[]").check_text(&format!("{at}.columns[{c}]"), heading, false)?;
            }
            for (r, row) in t.rows.iter().enumerate() {
                if row.len() != t.columns.len() {
                    return Err(ScenarioError::new(
                        format!("{at}.rows[{r}]"),
                        Some(row.len().to_string()),
                        format!("has {} cells for {} columns", row.len(), t.columns.len()),
                    ));
                }
                for (c, cell) in row.iter().enumerate() {
                    limits::get("lesson[].table.rows[][]").check_text(&format!("{at}.rows[{r}][{c}]"), cell, true)?;
                    for name in placeholders(cell) {
                        if name != "answer" && !step.figures.contains_key(name) {
                            return Err(ScenarioError::new(
                                format!("{at}.rows[{r}][{c}]"),
                                Some(format!("{{{name}}}")),
                                format!("{{{name}}} is neither {{answer}} nor one of this step's figures"),
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// Check one frame selector (`lesson[2].at`, `lesson[2].ask_at`): exactly
/// one given, each within its range.
fn validate_at(field: &str, at: &At, known: &[&str]) -> Result<(), ScenarioError> {
    let selector = at.selector().map_err(|n| {
        ScenarioError::new(
            field,
            None,
            format!(
                "give exactly one of start, end, time_ms, broken, request, reconcile, delivered, workers_started, exited (a flag as true); {n} given"
            ),
        )
    })?;
    match selector {
        Selector::Broken(name) => known_invariant(&format!("{field}.broken"), Some(name), known),
        Selector::Request(r) => {
            if let Some(s) = r.status {
                super::range(&format!("{field}.request.status"), u64::from(s), 100, 599)?;
            }
            super::range(&format!("{field}.request.nth"), u64::from(r.nth), 1, u64::from(u32::MAX))
        }
        Selector::Reconcile(r) => super::range(&format!("{field}.reconcile.n"), r.n, 1, u64::MAX),
        Selector::Delivered(d) => super::range(&format!("{field}.delivered.nth"), u64::from(d.nth), 1, u64::from(u32::MAX)),
        Selector::Start | Selector::End | Selector::TimeMs(_) | Selector::WorkersStarted | Selector::Exited => Ok(()),
    }
}

/// The `{name}`s in a reveal.
fn placeholders(text: &str) -> impl Iterator<Item = &str> {
    text.split('{').skip(1).filter_map(|rest| rest.split_once('}').map(|(name, _)| name))
}

/// One run of a lesson's stretch (the steps between two `set`s), computed
/// as far as its steps need: its frames so far and the world after the
/// last of them. A step may go back (`ask_at`): the world at an earlier
/// frame is the same run made again from its start, which is deterministic.
struct Cursor {
    init: crate::sim::world::WorldInit,
    world: World,
    frames: Vec<Frame>,
    finished: bool,
}

impl Cursor {
    fn new(init: crate::sim::world::WorldInit) -> Cursor {
        Cursor { world: World::new(init.clone()), init, frames: Vec::new(), finished: false }
    }

    /// One frame more, or `false` at the run's end.
    fn advance(&mut self) -> bool {
        match (!self.finished).then(|| self.world.step()).flatten() {
            Some(frame) => {
                self.frames.push(frame);
                true
            }
            None => {
                self.finished = true;
                false
            }
        }
    }

    /// The frame a selector picks: the first that matches, counted from the
    /// run's start (0 for `start`, the last for `end`); `None` if the run
    /// never reaches it.
    fn find(&mut self, selector: Selector<'_>) -> Option<u64> {
        match selector {
            Selector::Start => return Some(0),
            Selector::End => {
                while self.advance() {}
                return Some(self.frames.len() as u64);
            }
            _ => {}
        }
        let mut seen = Seen::default();
        if let Some(f) = self.frames.iter().find(|f| selector.matches(f, &mut seen)) {
            return Some(f.n);
        }
        while self.advance() {
            let frame = self.frames.last().expect("a frame was just pushed");
            if selector.matches(frame, &mut seen) {
                return Some(frame.n);
            }
        }
        None
    }

    /// The world at frame `n` (one this cursor has reached) and the frames up to it.
    fn at(&self, n: u64) -> (std::borrow::Cow<'_, World>, &[Frame]) {
        let n = n as usize;
        let world = if n == self.frames.len() {
            std::borrow::Cow::Borrowed(&self.world)
        } else {
            let mut again = World::new(self.init.clone());
            for _ in 0..n {
                again.step();
            }
            std::borrow::Cow::Owned(again)
        };
        (world, &self.frames[..n])
    }
}

/// A field of the scenario's recipe (`controller.recipe.…`): a step's
/// `set` there is a change the learner makes in the recipe editor.
pub fn is_recipe_field(path: &str) -> bool {
    path.starts_with("controller.recipe.")
}

/// Play the lesson against its scenario: each step's frames (where it asks,
/// where it answers), answer and reveal, from the runs it makes (the
/// scenario as given, then made again from its start after each step's
/// `set`). Fails naming the step when the run never reaches a step's frame,
/// a step would answer at or before the frame it asks at (the screen would
/// show the answer while the question is open), no choice or two choices
/// hold the answer, or the reveal states a figure the run does not give.
pub fn play(scenario: &Scenario) -> Result<Vec<StepOutcome>, LessonFailure> {
    let mut out = Vec::new();
    let mut settings: BTreeMap<String, String> = BTreeMap::new();
    let mut i = 0;
    while i < scenario.lesson.len() {
        // One run per stretch of steps between two `set`s.
        for (path, v) in &scenario.lesson[i].set {
            settings.insert(path.clone(), raw(v));
        }
        let fail = |step: usize, message: String| LessonFailure { step: format!("lesson[{step}]"), message };
        let run = scenario.with_settings(settings.iter().map(|(p, v)| (p.as_str(), v.as_str()))).map_err(|e| fail(i, e.to_string()))?;
        let end = (i + 1..scenario.lesson.len()).find(|&j| !scenario.lesson[j].set.is_empty()).unwrap_or(scenario.lesson.len());
        let mut cursor = Cursor::new(run.world_init());
        // Where the learner stands: frame 0 at the stretch's start, then each step's frame.
        let mut stands = 0;
        for j in i..end {
            let step = &scenario.lesson[j];
            let select = |at: &At, field: &str, cursor: &mut Cursor| {
                let selector = at.selector().map_err(|_| fail(j, format!("{field}: give exactly one selector")))?;
                cursor
                    .find(selector)
                    .ok_or_else(|| fail(j, format!("the run ({} frames) never reaches the frame {field} says", cursor.frames.len())))
            };
            let ask_frame = match &step.ask_at {
                Some(at) => select(at, "ask_at", &mut cursor)?,
                None => stands,
            };
            let frame = select(&step.at, "at", &mut cursor)?;
            if frame <= ask_frame {
                let asked = if step.ask_at.is_some() {
                    "its ask_at"
                } else if j == i {
                    "frame 0"
                } else {
                    "the previous step's frame"
                };
                let why = if frame == ask_frame {
                    "the screen would show the answer while the question is open: ask before the moment (ask_at), or pause after it (at)"
                } else {
                    "a step answers after it asks"
                };
                return Err(fail(j, format!("at picks frame {frame}, not after the frame it is asked at ({ask_frame}, {asked}): {why}")));
            }
            let (world, frames) = cursor.at(frame);
            let answer = step.answer.measure(&world, frames).ok_or_else(|| fail(j, "nothing to measure at this frame".into()))?;
            let choice = if step.choices.is_empty() {
                None
            } else {
                let holding: Vec<usize> = (0..step.choices.len()).filter(|&c| step.choices[c].accepts(answer)).collect();
                match holding[..] {
                    [one] => Some(one),
                    [] => return Err(fail(j, format!("the run's answer is {answer}, which no choice stands for"))),
                    _ => return Err(fail(j, format!("the run's answer is {answer}, which choices {holding:?} all stand for"))),
                }
            };
            let mut figures = BTreeMap::new();
            for (name, g) in &step.figures {
                let v = g.measure(&world, frames).ok_or_else(|| fail(j, format!("figure {name}: nothing to measure at this frame")))?;
                figures.insert(name.clone(), v);
            }
            let reveal = fill(&step.reveal, answer, &figures);
            let mut allowed: Vec<u64> = figures.values().copied().chain([answer]).collect();
            numbers_in(&settings_of(&run), &mut allowed);
            let cells = step.table.iter().flat_map(|t| t.columns.iter().chain(t.rows.iter().flatten()));
            for (what, text) in std::iter::once(("the reveal", &step.reveal)).chain(cells.map(|c| ("its table", c))) {
                for n in stated_figures(text) {
                    if !allowed.contains(&n) {
                        return Err(fail(
                            j,
                            format!("{what} states {n}, which the run does not give: the answer is {answer}{}", figure_list(&figures)),
                        ));
                    }
                }
            }
            let table = step.table.as_ref().map(|t| LessonTable {
                columns: t.columns.clone(),
                rows: t.rows.iter().map(|row| row.iter().map(|c| fill(c, answer, &figures)).collect()).collect(),
            });
            let at_ms = frames.last().map_or(0, |f| f.at_ms);
            out.push(StepOutcome { ask_frame, frame, at_ms, settings: settings.clone(), answer, choice, figures, reveal, table });
            stands = frame;
        }
        i = end;
    }
    Ok(out)
}

/// The scenario without its words: the settings and objects a reveal may state.
fn settings_of(scenario: &Scenario) -> Value {
    let mut v = scenario.to_value();
    if let Some(m) = v.as_object_mut() {
        m.retain(|k, _| !matches!(k.as_str(), "description" | "start" | "controls" | "expect" | "name" | "incident" | "lesson"));
    }
    v
}

fn figure_list(figures: &BTreeMap<String, u64>) -> String {
    figures.iter().map(|(k, v)| format!(", {k} is {v}")).collect()
}

/// A reveal with `{answer}` and each `{figure}` written in.
pub fn fill(text: &str, answer: u64, figures: &BTreeMap<String, u64>) -> String {
    let mut s = text.replace("{answer}", &answer.to_string());
    for (name, v) in figures {
        s = s.replace(&format!("{{{name}}}"), &v.to_string());
    }
    s
}

/// Numbers in a JSON value, milliseconds also as seconds.
fn numbers_in(v: &Value, out: &mut Vec<u64>) {
    match v {
        Value::Number(n) => {
            if let Some(n) = n.as_u64() {
                out.extend([n, n / 1000]);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| numbers_in(x, out)),
        Value::Object(m) => m.values().for_each(|x| numbers_in(x, out)),
        _ => {}
    }
}

/// The figures a sentence states in digits: standalone numbers, not the
/// ones in names (`seed-99`), versions (`v1.36`), placeholders, citations
/// (`Lab 2`, `step 4`, `reconcile 3`, `frame 12`, `#1936`) or HTTP status
/// labels (`409 AlreadyExists`).
pub fn stated_figures(text: &str) -> Vec<u64> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || (bytes[i] == b',' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))) {
            i += 1;
        }
        let glued = start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || matches!(bytes[start - 1], b'-' | b'#' | b'_' | b'.' | b'{'));
        let glued_after =
            bytes.get(i).is_some_and(|b| b.is_ascii_alphabetic() || *b == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit));
        let before = text[..start].trim_end();
        let word = before.rsplit(|c: char| !c.is_alphanumeric()).next().unwrap_or("").to_lowercase();
        let citation = matches!(word.as_str(), "lab" | "step" | "steps" | "reconcile" | "frame" | "line");
        let after = &text[i..];
        let status = ["NotFound", "AlreadyExists", "Created", "OK", "Conflict"].iter().any(|l| after.starts_with(&format!(" {l}")));
        if !glued && !glued_after && !citation && !status {
            if let Ok(n) = text[start..i].replace(',', "").parse() {
                out.push(n);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stated_figures_skip_names_versions_citations_and_statuses() {
        let said = stated_figures(
            "It counted 1 of 4 at frame 12 (reconcile 3): 409 AlreadyExists for beta-voice-2 on v1.36, and 1,000 ms; {answer}",
        );
        assert_eq!(said, vec![1, 4, 1000]);
    }

    #[test]
    fn fill_writes_the_answer_and_the_figures() {
        let figures = BTreeMap::from([("creates".to_string(), 3)]);
        assert_eq!(fill("{answer} then {creates}", 11, &figures), "11 then 3");
    }
}
