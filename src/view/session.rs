//! A learner's session: the scenario, its history, the changes made along the
//! way, and the children-count series for the plot. The page keeps one
//! `Session` in one signal; everything it draws is computed from it.

use crate::scenario::{expect, settings, Scenario, ScenarioError, Verdict};
use crate::sim::apiserver::{FailMode, Propagation, Verb};
use crate::sim::frame::Frame;
use crate::sim::history::History;
use crate::sim::informer::DropNext;
use crate::sim::object::{Kind, ObjectKey};
use crate::sim::world::{ActionKind, Knob, World};
use std::cell::RefCell;
use std::fmt;

pub use crate::scenario::owner_of;

/// A button's action, done at the current frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UiAction {
    /// Delete one pod of the ReplicaSet, chosen by the seeded RNG.
    DeletePod,
    /// Delete the owner (the Ensemble or the ReplicaSet), with this propagation.
    DeleteOwner(Propagation),
    /// Drop the next event on the controller's watch of its children.
    DropNextEvent,
    /// Make the controller's next create of its children fail this way.
    FailNextCreate(FailMode),
    RestartController,
    /// Set the owner's voices or replicas.
    Scale(u32),
    /// Freeze the controller's leader for this many ms.
    PauseController(u64),
}

/// A change made at some frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    Knob(Knob),
    Action(UiAction),
}

/// A change and the frame it was made at (0 = before anything happened).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Edit {
    pub frame: usize,
    pub change: Change,
}

impl fmt::Display for Edit {
    /// The URL form: `37:cluster.watch_lag_ms=800`, `40:do=delete_pod`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.frame;
        match self.change {
            Change::Knob(k) => write!(f, "{n}:{}={}", k.path, k.value),
            Change::Action(a) => match a {
                UiAction::DeletePod => write!(f, "{n}:do=delete_pod"),
                UiAction::DeleteOwner(Propagation::Background) => write!(f, "{n}:do=delete_owner"),
                UiAction::DeleteOwner(p) => write!(f, "{n}:do=delete_owner:{}", p.as_str().to_lowercase()),
                UiAction::DropNextEvent => write!(f, "{n}:do=drop_next_event"),
                UiAction::FailNextCreate(mode) => write!(f, "{n}:do=fail_next_create:{}", mode.as_str()),
                UiAction::RestartController => write!(f, "{n}:do=restart_controller"),
                UiAction::Scale(to) => write!(f, "{n}:do=scale:{to}"),
                UiAction::PauseController(ms) => write!(f, "{n}:do=pause_controller:{ms}"),
            },
        }
    }
}

impl Edit {
    /// Parse the URL form; errors name the edit and what is wrong with it.
    /// A setting's path, limits and whether it may change during a run come
    /// from its one declaration ([`settings::SETTINGS`]).
    pub fn parse(text: &str) -> Result<Edit, ScenarioError> {
        let err = |msg: &str| {
            ScenarioError::new(
                "edit",
                Some(format!("{text:?}")),
                format!("{msg} (expected FRAME:PATH=VALUE, like 37:cluster.watch_lag_ms=800)"),
            )
        };
        let (frame, rest) = text.split_once(':').ok_or_else(|| err("no frame number"))?;
        let frame: usize = frame.parse().map_err(|_| err("the frame is not a number"))?;
        let (path, value) = rest.split_once('=').ok_or_else(|| err("no '='"))?;
        let change = if path == "do" {
            Change::Action(match value.split_once(':') {
                None if value == "delete_pod" => UiAction::DeletePod,
                None if value == "delete_owner" => UiAction::DeleteOwner(Propagation::Background),
                Some(("delete_owner", p)) => UiAction::DeleteOwner(match p {
                    "background" => Propagation::Background,
                    "foreground" => Propagation::Foreground,
                    "orphan" => Propagation::Orphan,
                    _ => return Err(err("delete_owner takes background, foreground or orphan")),
                }),
                None if value == "drop_next_event" => UiAction::DropNextEvent,
                Some(("fail_next_create", mode)) => UiAction::FailNextCreate(match mode {
                    "500" => FailMode::InternalError,
                    "timeout" => FailMode::Timeout,
                    "timeout_committed" => FailMode::TimeoutCommitted,
                    _ => return Err(err("fail_next_create takes 500, timeout or timeout_committed")),
                }),
                None if value == "restart_controller" => UiAction::RestartController,
                Some(("pause_controller", ms)) => UiAction::PauseController(
                    ms.parse::<u64>()
                        .ok()
                        .filter(|ms| (1..=3_600_000).contains(ms))
                        .ok_or_else(|| err("pause_controller takes 1 to 3600000 (ms)"))?,
                ),
                Some(("scale", n)) => {
                    let max = settings::desired_max(Kind::ReplicaSet).max(settings::desired_max(Kind::Ensemble));
                    UiAction::Scale(
                        n.parse::<u32>().ok().filter(|n| u64::from(*n) <= max).ok_or_else(|| err(&format!("scale takes 0 to {max}")))?,
                    )
                }
                _ => return Err(err(
                    "unknown action; known: delete_pod, delete_owner[:foreground|orphan], drop_next_event, restart_controller, scale:N, fail_next_create:MODE, pause_controller:MS",
                )),
            })
        } else {
            let setting = settings::setting(path).ok_or_else(|| err("no such setting"))?;
            if !setting.live {
                return Err(err("this setting cannot change during a run"));
            }
            Change::Knob(setting.knob(setting.parse(value).map_err(|m| err(&m))?).expect("a live setting"))
        };
        Ok(Edit { frame, change })
    }
}

/// Children counted at one frame, for the plot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    pub at_ms: u64,
    pub cluster: u32,
    pub cache: u32,
}

/// The most frames a session computes: the world's own limit.
pub const MAX_FRAMES: usize = crate::sim::world::FRAME_LIMIT as usize;

/// A setting the learner moved off the lab's: from the URL or a control.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Departure {
    /// The setting's dotted path (`cluster.watch_lag_ms`), or the action (`scale`).
    pub what: String,
    /// Its value in the lab's scenario, if it is a setting.
    pub lab: Option<String>,
    pub now: String,
    /// The frame it changed at (`None`: from the start, a URL setting).
    pub frame: Option<usize>,
}

/// A scenario being explored.
#[derive(Debug, Clone)]
pub struct Session {
    /// The scenario as its author wrote it (the preset, the imported file).
    base: Scenario,
    /// The scenario this run plays: `base` with the URL's settings.
    scenario: Scenario,
    history: History<World>,
    edits: Vec<Edit>,
    /// `samples[n]` is the state after frame n (0 = the initial state).
    samples: Vec<Sample>,
    /// The scenario's checks against the whole run, once its end is known.
    outcomes: Option<Vec<Verdict>>,
    /// Stepping skips the garbage collector's own cache deliveries.
    hide_gc: bool,
    /// Edits from a URL asked for a frame past the run's end: each, and the
    /// last frame, where it was made instead.
    moved_edits: Vec<(Edit, usize)>,
    /// The trace hash of the first `hashed` frames (advanced in slices, so
    /// "About this run" never hashes a long run in one go).
    hasher: crate::report::TraceHasher,
    hashed: usize,
    /// Which of the scenario's checks apply, and the settings they were
    /// found for: finding them writes the whole scenario out as JSON, and
    /// the page asks at every frame drawn, where the settings rarely move
    /// (the scenario itself never does: another one is another session).
    applicable: RefCell<Option<Applicable>>,
}

/// The checks that apply (their places in the scenario's `expect`) to a
/// world's settings.
#[derive(Debug, Clone)]
struct Applicable {
    cluster: crate::sim::settings::ClusterSettings,
    controller: crate::sim::settings::ControllerSettings,
    checks: Vec<usize>,
}

impl Session {
    pub fn new(scenario: Scenario) -> Session {
        let world = World::new(scenario.world_init());
        let first = sample(&world);
        let hide_gc = !gc_is_the_point(&scenario);
        Session {
            base: scenario.clone(),
            scenario,
            history: History::new(world),
            edits: Vec::new(),
            samples: vec![first],
            outcomes: None,
            hide_gc,
            moved_edits: Vec::new(),
            hasher: crate::report::TraceHasher::default(),
            hashed: 0,
            applicable: RefCell::new(None),
        }
    }

    /// The same session, saying `base` is the scenario the lab wrote (before the URL's settings).
    pub fn with_base(mut self, base: Scenario) -> Session {
        self.base = base;
        self
    }

    /// The same session over a changed scenario (a start-time setting moved):
    /// its base, its edits and its stepping preference are kept; the run is recomputed.
    pub fn rebuilt(&self, scenario: Scenario) -> Session {
        let mut s = Session::with_edits(scenario, &self.edits);
        s.base = self.base.clone();
        s.hide_gc = self.hide_gc;
        s
    }

    /// The scenario as its author wrote it.
    pub fn base(&self) -> &Scenario {
        &self.base
    }

    /// Build a session and replay `edits` (from a URL) in frame order.
    pub fn with_edits(scenario: Scenario, edits: &[Edit]) -> Session {
        let mut s = Session::new(scenario);
        let mut sorted = edits.to_vec();
        sorted.sort_by_key(|e| e.frame);
        let mut moved = Vec::new();
        for e in sorted {
            let at = s.seek(e.frame);
            if at < e.frame {
                moved.push((e, at));
            }
            s.apply(e.change);
        }
        s.seek(0);
        s.moved_edits = moved;
        s
    }

    /// The URL's edits that asked for a frame past the run's end, each with
    /// the last frame, where it was made instead.
    pub fn moved_edits(&self) -> &[(Edit, usize)] {
        &self.moved_edits
    }

    /// The run stopped at its frame limit (the work budget's), with more
    /// still to happen: known once its last frame has been computed.
    pub fn stopped_at_frame_limit(&self) -> bool {
        self.frames().len() as u64 >= self.world().frame_limit
    }

    /// The run's end is known: its last frame has been computed, however the
    /// learner got there (played, stepped, sought, or computed ahead).
    pub fn end_known(&self) -> bool {
        self.history.ended() || self.stopped_at_frame_limit()
    }

    /// The run stopped after the frame that passed its object limit: the
    /// facts, and the sentence saying why (known once its end is).
    pub fn stopped_at_object_limit(&self) -> Option<(crate::sim::world::ObjectLimitStop, String)> {
        let end = self.history.end_model()?;
        let stop = end.stopped_at_object_limit()?;
        let words = crate::report::object_limit_words(end, &stop);
        Some((stop, words))
    }

    /// Compute frames ahead of the last known one, without moving the
    /// position, while `more(frames added so far)` says so: the page's
    /// look-ahead, in slices it times itself. Each new frame gets its
    /// sample; at the run's end, the checks are measured. Returns the frames added.
    pub fn look_ahead(&mut self, more: &mut dyn FnMut(usize) -> bool) -> usize {
        let mut samples = std::mem::take(&mut self.samples);
        let known = self.history.frames().len();
        // A sample per frame: after a fork the list may be short of the frames known.
        let complete = samples.len() == known + 1;
        let mut n = 0;
        let added = self.history.extend(|world, _| {
            if complete {
                samples.push(sample(world));
            }
            n += 1;
            more(n)
        });
        self.samples = samples;
        self.measure_at_end();
        added
    }

    /// Hash more of the frames known, while `more(frames hashed so far)` says so.
    pub fn advance_hash(&mut self, more: &mut dyn FnMut(usize) -> bool) {
        let frames = self.history.frames();
        let mut n = 0;
        while self.hashed < frames.len() {
            self.hasher.add(&frames[self.hashed]);
            self.hashed += 1;
            n += 1;
            if !more(n) {
                break;
            }
        }
    }

    /// The trace hash of the whole run (what `cachescope run` prints), once
    /// its end is known and every frame is hashed.
    pub fn trace_hash(&self) -> Option<String> {
        (self.end_known() && self.hashed == self.frames().len()).then(|| self.hasher.hex())
    }

    /// Once the position is at the last frame known, learn whether the run
    /// ends there: compute one frame ahead (or find there is none). The page
    /// does it after every seek, so a run's end is known where it is reached.
    pub fn probe_end(&mut self) {
        if self.position() == self.frames().len() && !self.end_known() {
            self.look_ahead(&mut |_| false);
        }
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    pub fn world(&self) -> &World {
        self.history.current()
    }

    pub fn position(&self) -> usize {
        self.history.position()
    }

    /// Frames computed so far (the future beyond `position` included).
    pub fn frames(&self) -> &[Frame] {
        self.history.frames()
    }

    /// The frame that led here.
    pub fn last_frame(&self) -> Option<&Frame> {
        self.history.last_frame()
    }

    pub fn edits(&self) -> &[Edit] {
        &self.edits
    }

    pub fn samples(&self) -> &[Sample] {
        &self.samples[..=self.position().min(self.samples.len() - 1)]
    }

    /// Nothing more will ever happen after this frame.
    pub fn at_end(&self) -> bool {
        self.history.at_end() || self.history.position() as u64 >= self.world().frame_limit
    }

    fn record(&mut self) {
        let n = self.history.position();
        if n == self.samples.len() {
            self.samples.push(sample(self.history.current()));
        }
    }

    /// The run's last frame is known: measure the scenario's checks on the
    /// world as it ended.
    fn measure_at_end(&mut self) {
        if self.outcomes.is_some() || !self.end_known() {
            return;
        }
        let end = match self.history.end_model() {
            Some(m) => m,
            // Stopped at the frame limit, and here.
            None if self.position() == self.frames().len() => self.history.current(),
            None => return,
        };
        self.outcomes = Some(expect::outcomes(&self.scenario, end, self.history.frames()));
    }

    /// One frame forward; false at the end.
    pub fn step_forward(&mut self) -> bool {
        if self.at_end() {
            self.measure_at_end();
            return false;
        }
        let moved = self.history.step_forward().is_some();
        if moved {
            self.record();
        }
        self.measure_at_end();
        moved
    }

    pub fn step_back(&mut self) -> bool {
        self.history.step_back()
    }

    /// Whether stepping skips the garbage collector's own cache deliveries
    /// (hidden by default unless the scenario deletes an owner: then they are the point).
    pub fn hide_gc(&self) -> bool {
        self.hide_gc
    }

    pub fn set_hide_gc(&mut self, hide: bool) {
        self.hide_gc = hide;
    }

    /// Whether this scenario hides them unless told otherwise.
    pub fn hides_gc_by_default(&self) -> bool {
        !gc_is_the_point(&self.scenario)
    }

    /// The current frame is one of the garbage collector's own cache
    /// deliveries, which this session hides (playback or a seek can still stop on one).
    pub fn hidden(&self) -> bool {
        self.hide_gc && self.last_frame().is_some_and(|f| f.event.is_gc_bookkeeping())
    }

    /// The last frame at or before the position that this session shows (a
    /// hidden one stands for the frame before it), `None` at frame 0.
    pub fn last_shown_frame(&self) -> Option<&Frame> {
        let so_far = &self.frames()[..self.position()];
        so_far.iter().rev().find(|f| !(self.hide_gc && f.event.is_gc_bookkeeping()))
    }

    /// One step forward as the learner steps: past frames that are hidden.
    pub fn step_forward_shown(&mut self) -> bool {
        let mut moved = false;
        while self.step_forward() {
            moved = true;
            if !self.hidden() {
                break;
            }
        }
        moved
    }

    /// One step back as the learner steps: past frames that are hidden.
    pub fn step_back_shown(&mut self) -> bool {
        let mut moved = false;
        while self.step_back() {
            moved = true;
            if !self.hidden() {
                break;
            }
        }
        moved
    }

    /// The scenario's checks against the whole run; `None` until its end is known.
    pub fn outcomes(&self) -> Option<&[Verdict]> {
        self.outcomes.as_deref()
    }

    /// The checks that apply to this run's settings (as they stand at the current frame).
    pub fn applicable_checks(&self) -> Vec<&crate::scenario::Check> {
        let world = self.world();
        let mut cached = self.applicable.borrow_mut();
        if cached.as_ref().is_none_or(|a| a.cluster != world.cluster || a.controller != world.controller) {
            let effective = expect::effective_settings(&self.scenario, world);
            let checks = self.scenario.expect.iter().enumerate().filter(|(_, c)| c.applies(&effective)).map(|(i, _)| i).collect();
            *cached = Some(Applicable { cluster: world.cluster.clone(), controller: world.controller.clone(), checks });
        }
        cached.as_ref().map_or_else(Vec::new, |a| a.checks.iter().map(|&i| &self.scenario.expect[i]).collect())
    }

    /// Where this run departs from the lab's: settings the URL changed, and
    /// changes made at a frame.
    pub fn departures(&self) -> Vec<Departure> {
        let base = self.base.to_value();
        let mut out = Vec::new();
        leaf_differences(&base, &self.scenario.to_value(), &mut String::new(), &mut out);
        for e in &self.edits {
            let text = e.to_string();
            let (_, rest) = text.split_once(':').unwrap_or(("", &text));
            let (path, value) = rest.split_once('=').unwrap_or((rest, ""));
            let lab = if path == "do" { None } else { crate::scenario::get_path(&base, path).map(value_text) };
            out.push(Departure { what: path.to_string(), lab, now: value.to_string(), frame: Some(e.frame) });
        }
        out
    }

    /// Forward to the start of the next reconcile (inclusive); false if none comes.
    pub fn step_to_next_reconcile(&mut self) -> bool {
        while self.step_forward() {
            if self.last_frame().is_some_and(|f| f.event.is_reconcile_start()) {
                return true;
            }
        }
        false
    }

    /// Go to frame `n` (clamped to the end).
    pub fn seek(&mut self, n: usize) -> usize {
        let target = n.min(MAX_FRAMES);
        let known = self.history.frames().len();
        self.history.seek(target.min(known));
        // Beyond what is known, step so each new frame gets its sample.
        while self.position() < target && self.step_forward() {}
        self.measure_at_end();
        self.position()
    }

    /// [`Session::seek`] within the frames known, in slices: towards frame
    /// `n`, replaying while `more()` says so. Returns whether it is there.
    pub fn seek_toward(&mut self, n: usize, more: &mut dyn FnMut() -> bool) -> bool {
        let there = self.history.seek_toward(n, more);
        if there {
            self.measure_at_end();
        }
        there
    }

    /// The frame one step back as the learner steps (past the frames that are
    /// hidden), read from the frames known: one seek goes there.
    pub fn back_shown_target(&self) -> usize {
        let frames = self.frames();
        let mut at = self.position().saturating_sub(1);
        while at > 0 && self.hide_gc && frames[at - 1].event.is_gc_bookkeeping() {
            at -= 1;
        }
        at
    }

    /// Make a change at the current frame: the future after it is recomputed.
    pub fn apply(&mut self, change: Change) {
        let frame = self.position();
        let owner = self.owner_key();
        let spec = self.scenario.controller.spec();
        self.history.fork(|w| match change {
            Change::Knob(k) => w.set_knob(k),
            Change::Action(a) => {
                if let Some(action) = resolve(a, spec, owner) {
                    w.inject(action);
                }
            }
        });
        // The future is recomputed, so changes made after this frame go; changes
        // made at this very frame stay, unless this one sets the same knob again.
        self.edits.retain(|e| e.frame < frame || (e.frame == frame && !same_knob(e.change, change)));
        self.edits.push(Edit { frame, change });
        self.samples.truncate(frame + 1);
        self.outcomes = None;
        if self.hashed > frame {
            self.hasher = crate::report::TraceHasher::default();
            self.hashed = 0;
        }
    }

    /// The same run with its knob changes made from frame 0 instead of at
    /// the frames they were made at (`only`: that setting's changes alone):
    /// each setting takes the value it was last given, its edits go, the
    /// buttons' edits stay. The page does this with a change made where it
    /// can no longer make a difference (at the run's end), with "Apply from
    /// the start", and on Reset (the learner's settings, from frame 0).
    /// Returns the new session, at frame 0, and the settings moved to the
    /// start as `(path, value)`, in the order they were last set.
    pub fn knobs_from_start(&self, only: Option<&str>) -> Result<(Session, Vec<(String, String)>), ScenarioError> {
        let mut moved: Vec<(String, String)> = Vec::new();
        let mut kept = Vec::new();
        let mut in_order = self.edits.clone();
        in_order.sort_by_key(|e| e.frame);
        for e in in_order {
            if let Change::Knob(k) = e.change {
                if only.is_none_or(|p| p == k.path) {
                    moved.retain(|(p, _)| p != k.path);
                    moved.push((k.path.to_string(), k.value.to_string()));
                    continue;
                }
            }
            kept.push(e);
        }
        let scenario = self.scenario.with_settings(moved.iter().map(|(p, v)| (p.as_str(), v.as_str())))?;
        let mut s = Session::with_edits(scenario, &kept);
        s.base = self.base.clone();
        s.hide_gc = self.hide_gc;
        Ok((s, moved))
    }

    /// The knob changes made at a frame after the start: what "Apply from the start" offers.
    pub fn knob_edits(&self) -> impl Iterator<Item = (usize, &'static str, String)> + '_ {
        self.edits.iter().filter_map(|e| match e.change {
            Change::Knob(k) => Some((e.frame, k.path, k.value.to_string())),
            Change::Action(_) => None,
        })
    }

    /// The owner the buttons act on: the scenario's first Ensemble or ReplicaSet.
    pub fn owner_key(&self) -> Option<(Kind, ObjectKey)> {
        owner_of(&self.scenario)
    }

    /// Which buttons make sense for this controller.
    pub fn supports(&self, a: UiAction) -> bool {
        let spec = self.scenario.controller.spec();
        match a {
            UiAction::DeletePod => spec.has_pods(),
            UiAction::DeleteOwner(_) | UiAction::Scale(_) => self.owner_key().is_some(),
            UiAction::DropNextEvent | UiAction::RestartController | UiAction::FailNextCreate(_) => true,
            UiAction::PauseController(_) => spec.loops(),
        }
    }
}

/// The garbage collector's own cache is the point of a scenario that deletes an owner.
fn gc_is_the_point(scenario: &Scenario) -> bool {
    scenario.actions.iter().any(|a| a.delete.as_ref().is_some_and(|d| d.kind.desired_field().is_some()))
}

/// A JSON value as a learner reads it: strings without quotes.
fn value_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The settings (leaves) where `now` differs from `lab`, by dotted path.
fn leaf_differences(lab: &serde_json::Value, now: &serde_json::Value, path: &mut String, out: &mut Vec<Departure>) {
    use serde_json::Value;
    match (lab, now) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                match a.get(k) {
                    Some(old) => leaf_differences(old, v, path, out),
                    None => out.push(Departure { what: path.clone(), lab: None, now: value_text(v), frame: None }),
                }
                path.truncate(len);
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                leaf_differences(x, y, path, out);
                path.truncate(len);
            }
        }
        (a, b) if a != b => out.push(Departure { what: path.clone(), lab: Some(value_text(a)), now: value_text(b), frame: None }),
        _ => {}
    }
}

/// Two changes of the same setting (the later replaces the earlier); buttons never are.
fn same_knob(a: Change, b: Change) -> bool {
    match (a, b) {
        (Change::Knob(x), Change::Knob(y)) => x.path == y.path,
        _ => false,
    }
}

fn resolve(a: UiAction, spec: &crate::sim::spec::ControllerSpec, owner: Option<(Kind, ObjectKey)>) -> Option<ActionKind> {
    Some(match a {
        UiAction::DeletePod => ActionKind::DeletePods { owner: owner?.1, count: 1, interval_ms: 1 },
        UiAction::DeleteOwner(p) => {
            let (k, key) = owner?;
            let propagation = (p != Propagation::Background).then_some(p);
            ActionKind::Delete { kind: k, key, propagation }
        }
        UiAction::Scale(to) => {
            let (k, key) = owner?;
            ActionKind::Scale { kind: k, key, to }
        }
        UiAction::DropNextEvent => ActionKind::DropNextEvent { kind: spec.child, what: DropNext::Event(None) },
        UiAction::FailNextCreate(mode) => ActionKind::FailNext { verb: Verb::Create, kind: spec.child, mode, nth: 1 },
        UiAction::RestartController => ActionKind::RestartController,
        UiAction::PauseController(for_ms) => ActionKind::PauseController { for_ms },
    })
}

fn sample(world: &World) -> Sample {
    let kind = world.controller.spec().child;
    let cluster = world.api.live_count(kind) as u32;
    let cache = world.controller_informer(kind).map_or(0, |i| i.len()) as u32;
    Sample { at_ms: world.now_ms(), cluster, cache }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;
    use crate::sim::settings::Val;

    #[test]
    fn edits_round_trip_through_their_url_form() {
        for text in [
            "37:cluster.watch_lag_ms=800",
            "0:controller.naming=generate",
            "5:controller.expectations=false",
            "40:do=delete_pod",
            "41:do=scale:6",
            "42:do=fail_next_create:timeout_committed",
            "43:do=fail_next_create:500",
        ] {
            assert_eq!(Edit::parse(text).unwrap().to_string(), text);
        }
        for bad in [
            "x:cluster.watch_lag_ms=1",
            "3:cluster.watch_lag_ms=fast",
            "3:controller.workers=2",
            "3:do=explode",
            "3:cluster.watch_lag_ms=9999999",
            "nothing",
        ] {
            let e = Edit::parse(bad).unwrap_err();
            assert_eq!(e.field, "edit");
            assert!(e.to_string().contains(bad), "{e}");
        }
    }

    #[test]
    fn a_change_in_the_past_forks_the_future() {
        let mut s = Session::new(preset("over-create").unwrap());
        s.seek(usize::MAX);
        let end_default = s.world().api.live()[&Kind::ConfigMap];
        assert_eq!(end_default, 4);
        // Go back to just after the Ensemble exists, switch to generateName.
        s.seek(8);
        s.apply(Change::Knob(settings::knob("controller.naming", Val::Word("generate"))));
        assert_eq!(s.frames().len(), 8, "the old future is gone");
        s.seek(usize::MAX);
        assert!(s.world().api.live()[&Kind::ConfigMap] >= 8);
        // Stepping back across the edit and forward again keeps it.
        s.seek(3);
        s.seek(usize::MAX);
        assert!(s.world().api.live()[&Kind::ConfigMap] >= 8);
        // The same edits from a URL give the same frames.
        let replay = Session::with_edits(preset("over-create").unwrap(), s.edits());
        let mut replay = replay;
        replay.seek(usize::MAX);
        assert_eq!(replay.frames(), s.frames());
    }

    #[test]
    fn a_change_at_the_end_moved_to_the_start_is_the_next_run() {
        // Lab 1: play over-create to its end, then change one line and run it again.
        let mut s = Session::new(preset("over-create").unwrap());
        s.seek(usize::MAX);
        assert!(s.at_end());
        s.apply(Change::Knob(settings::knob("controller.naming", Val::Word("generate"))));
        s.seek(usize::MAX);
        assert_eq!(s.world().api.live()[&Kind::ConfigMap], 4, "made at the end, the change cannot act");
        let (mut next, moved) = s.knobs_from_start(Some("controller.naming")).unwrap();
        assert_eq!(moved, vec![("controller.naming".to_string(), "generate".to_string())]);
        assert_eq!((next.position(), next.edits().len()), (0, 0));
        assert_eq!(next.scenario().controller.naming, crate::sim::controllers::Naming::Generate);
        next.seek(usize::MAX);
        assert_eq!(next.world().api.live()[&Kind::ConfigMap], 11);
        // The lab's settings are still the base: the departure is from the start.
        let d = next.departures();
        assert_eq!((d.len(), d[0].what.as_str(), d[0].frame), (1, "controller.naming", None), "{d:?}");
    }

    #[test]
    fn moving_knobs_to_the_start_keeps_the_buttons_and_the_last_value() {
        let mut s = Session::new(preset("replicaset-pressure").unwrap());
        s.seek(20);
        s.apply(Change::Knob(settings::knob("cluster.watch_lag_ms", Val::Int(700))));
        s.apply(Change::Action(UiAction::DeletePod));
        s.seek(40);
        s.apply(Change::Knob(settings::knob("cluster.watch_lag_ms", Val::Int(900))));
        s.apply(Change::Knob(settings::knob("controller.expectations", Val::Flag(false))));
        // Only the lag: the expectations edit stays at its frame, with the button's.
        let (lag_only, moved) = s.knobs_from_start(Some("cluster.watch_lag_ms")).unwrap();
        assert_eq!(moved, vec![("cluster.watch_lag_ms".to_string(), "900".to_string())]);
        assert_eq!(lag_only.scenario().cluster.watch_lag_ms, 900);
        let kept: Vec<String> = lag_only.edits().iter().map(ToString::to_string).collect();
        assert_eq!(kept, vec!["20:do=delete_pod".to_string(), "40:controller.expectations=false".to_string()]);
        // Everything (Reset with the learner's settings).
        let (all, moved) = s.knobs_from_start(None).unwrap();
        assert_eq!(moved.len(), 2);
        assert!(!all.scenario().expectations());
        assert_eq!(all.edits().iter().map(ToString::to_string).collect::<Vec<_>>(), vec!["20:do=delete_pod".to_string()]);
        assert_eq!(
            s.knob_edits().map(|(f, p, _)| (f, p)).collect::<Vec<_>>(),
            vec![(20, "cluster.watch_lag_ms"), (40, "cluster.watch_lag_ms"), (40, "controller.expectations")]
        );
    }

    #[test]
    fn several_changes_at_one_frame_all_survive_a_replay() {
        let mut s = Session::new(preset("over-create").unwrap());
        s.apply(Change::Knob(settings::knob("controller.naming", Val::Word("generate"))));
        s.apply(Change::Knob(settings::knob("cluster.watch_lag_ms", Val::Int(1500))));
        s.apply(Change::Knob(settings::knob("cluster.watch_lag_ms", Val::Int(2100))));
        let texts: Vec<String> = s.edits().iter().map(|e| e.to_string()).collect();
        assert_eq!(texts, ["0:controller.naming=generate", "0:cluster.watch_lag_ms=2100"]);
        let mut replay = Session::with_edits(preset("over-create").unwrap(), s.edits());
        replay.seek(usize::MAX);
        s.seek(usize::MAX);
        assert_eq!(replay.frames(), s.frames());
        assert!(s.world().api.live_count(Kind::ConfigMap) > 4);
    }

    #[test]
    fn step_back_returns_exactly_to_the_previous_frame() {
        let mut s = Session::new(preset("replicaset-pressure").unwrap());
        s.seek(120);
        let before = (s.position(), s.world().now_ms(), s.world().api.live().clone());
        s.step_forward();
        s.step_back();
        assert_eq!((s.position(), s.world().now_ms(), s.world().api.live().clone()), before);
    }

    #[test]
    fn buttons_act_at_the_current_frame() {
        let mut s = Session::new(preset("replicaset-pressure").unwrap());
        s.seek(60);
        let t = s.world().now_ms();
        s.apply(Change::Action(UiAction::RestartController));
        s.step_forward();
        assert!(matches!(s.last_frame().unwrap().event, crate::sim::frame::Event::ControllerStarted { restart: true, .. }));
        assert_eq!(s.last_frame().unwrap().at_ms, t);
        assert!(s.supports(UiAction::DeletePod));
        assert!(!Session::new(preset("over-create").unwrap()).supports(UiAction::DeletePod));
    }

    /// A run longer than the page's look-ahead: computed ahead to 50,000
    /// frames, then sought to its last frame, its end is known there (not
    /// after one more step), with its trace hash and its checks.
    #[test]
    fn the_end_is_known_where_a_seek_reaches_it() {
        let scenario = preset("over-create").unwrap().with_settings([("until_ms", "7200000"), ("cluster.resync_ms", "1000")]).unwrap();
        let report = crate::report::Report::run(&scenario);
        let last = report.frames as usize;
        assert!(last > 50_000, "{last} frames");
        let mut s = Session::new(scenario);
        s.look_ahead(&mut |n| n < 50_000);
        assert_eq!((s.frames().len(), s.position(), s.end_known()), (50_000, 0, false));
        assert_eq!(s.seek(last), last);
        s.probe_end();
        assert_eq!(s.frames().len(), last, "nothing after it");
        assert!(s.end_known() && s.at_end(), "known at the last frame itself");
        assert!(s.outcomes().is_some(), "the checks are measured");
        assert_eq!(s.trace_hash(), None, "not until every frame is hashed");
        s.advance_hash(&mut |_| true);
        assert_eq!(s.trace_hash().as_deref(), Some(report.trace_hash.as_str()));
        // Back and forth, the frames are the same ones.
        s.seek(12_345);
        s.seek(last);
        assert_eq!(s.trace_hash().as_deref(), Some(report.trace_hash.as_str()));
        assert_eq!(s.samples().len(), last + 1);
    }

    #[test]
    fn computing_ahead_keeps_the_position_and_the_frames_are_those_stepping_makes() {
        let scenario = preset("replicaset-pressure").unwrap();
        let mut ahead = Session::new(scenario.clone());
        ahead.seek(40);
        let added = ahead.look_ahead(&mut |n| n < 300);
        assert_eq!((added, ahead.position()), (300, 40));
        let mut stepped = Session::new(scenario);
        stepped.seek(340);
        assert_eq!(ahead.frames(), stepped.frames());
        ahead.seek(340);
        assert_eq!(ahead.samples(), stepped.samples());
        assert_eq!(ahead.world().now_ms(), stepped.world().now_ms());
        // A change forks the computed future away, and it is recomputed from the change.
        ahead.seek(100);
        ahead.apply(Change::Action(UiAction::RestartController));
        assert_eq!(ahead.frames().len(), 100);
        ahead.look_ahead(&mut |n| n < 50);
        assert_eq!(ahead.frames().len(), 150);
        let mut stepped = Session::new(preset("replicaset-pressure").unwrap());
        stepped.seek(100);
        stepped.apply(Change::Action(UiAction::RestartController));
        stepped.seek(150);
        assert_eq!(ahead.frames(), stepped.frames());
        assert!(ahead.frames()[100..].iter().any(|f| matches!(f.event, crate::sim::frame::Event::ControllerStarted { restart: true, .. })));
    }

    #[test]
    fn one_seek_goes_where_stepping_back_goes() {
        let mut s = Session::new(preset("teardown").unwrap());
        s.set_hide_gc(true);
        s.seek(usize::MAX);
        let mut seeking = s.clone();
        for _ in 0..40 {
            let target = seeking.back_shown_target();
            while !seeking.seek_toward(target, &mut || true) {}
            s.step_back_shown();
            assert_eq!(seeking.position(), s.position());
        }
        // In slices of one replayed frame each, it gets there too.
        let mut sliced = s.clone();
        sliced.seek(0);
        let mut calls = 0;
        while !sliced.seek_toward(s.frames().len(), &mut || {
            calls += 1;
            calls % 2 == 0
        }) {}
        assert_eq!(
            (sliced.position(), sliced.world().now_ms()),
            (s.frames().len(), {
                s.seek(usize::MAX);
                s.world().now_ms()
            })
        );
    }

    #[test]
    fn samples_follow_the_position() {
        let mut s = Session::new(preset("empty-cache").unwrap());
        s.seek(usize::MAX);
        let last = *s.samples().last().unwrap();
        assert_eq!(last.cluster, 0, "the pruner deleted all 50");
        s.seek(0);
        assert_eq!(s.samples().len(), 1);
        assert_eq!(s.samples()[0].cluster, 50);
    }
}
