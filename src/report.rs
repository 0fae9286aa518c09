//! A run's summary: what the runner prints and the tests assert on.

use crate::scenario::{expect, lesson, Scenario, StepOutcome, Verdict};
use crate::sim::frame::Frame;
use crate::sim::hash::Fnv64;
use crate::sim::world::{ObjectLimitStop, World};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;

/// Hashes the frame sequence: each frame's JSON, in order.
#[derive(Debug, Clone, Default)]
pub struct TraceHasher(Fnv64);

impl TraceHasher {
    pub fn add(&mut self, frame: &Frame) {
        serde_json::to_writer(&mut self.0, frame).expect("frames serialize");
        self.0.write_all(b"\n").expect("hashing cannot fail");
    }

    /// 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", std::hash::Hasher::finish(&self.0))
    }
}

/// One line of `cachescope trace`, and of the page's "Export trace": a frame
/// as one JSON object (number, time, kind, caption, the objects it touched).
/// The caption is words ([`crate::narrate::caption`]), outside the trace
/// hash, which covers the frame's facts only ([`TraceHasher`]).
pub fn trace_line(frame: &Frame) -> String {
    trace_line_with(frame, crate::narrate::caption)
}

/// [`trace_line`] with the caption said by `caption`: a rewording shows
/// in the line and in no hash.
pub fn trace_line_with(frame: &Frame, caption: impl Fn(&Frame) -> String) -> String {
    serde_json::json!({
        "n": frame.n,
        "at_ms": frame.at_ms,
        "kind": frame.event.name(),
        "caption": caption(frame),
        "touched": frame.event.touched().iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
    .to_string()
}

/// [`trace_line`] with what the Reconcile panel draws at the frame, where it
/// lights a line (`lit`: the line's number in the code, from 0, its text,
/// and the value shown on it), computed by the panel's own view: what
/// `cachescope trace` and the page's Export trace print, so the page's lit
/// line and values can be checked against the runner's, a user's recipe as
/// a built-in's. `world` is the run's at any frame: the line depends only on
/// the frame and the run's controllers as `world` has them (a live switch
/// that rewrites a line, flipped mid-run by the page's `edit=`, shows
/// `world`'s code for every frame: the runner's trace has no such edits).
pub fn trace_line_drawn(frame: &Frame, world: &World) -> String {
    let mut line: serde_json::Value = serde_json::from_str(&trace_line(frame)).expect("a trace line is JSON");
    let drawn = crate::view::panels::reconcile(world, Some(frame));
    if let Some((i, l)) = drawn.lines.iter().enumerate().find(|(_, l)| l.lit) {
        line["lit"] = serde_json::json!({ "line": i, "code": l.text, "value": l.value });
    }
    line.to_string()
}

/// Frames as `cachescope trace` prints them: one [`trace_line`] each, newline-terminated.
pub fn trace_text<'a>(frames: impl IntoIterator<Item = &'a Frame>, world: &World) -> String {
    let mut out = String::new();
    for f in frames {
        out.push_str(&trace_line_drawn(f, world));
        out.push('\n');
    }
    out
}

/// One invariant's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InvariantOutcome {
    pub held: bool,
    pub first_broken_frame: Option<u64>,
}

/// The runner's one JSON object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub scenario: String,
    pub seed: u64,
    /// The releases the run follows and the settings it sets over them
    /// (absent without a profile: each setting at its own default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<Profile>,
    pub sim_time_ms: u64,
    pub frames: u64,
    pub trace_hash: String,
    /// Live objects by kind at the end.
    pub live: BTreeMap<String, u64>,
    /// The most objects of each kind alive at any instant.
    pub peak_live: BTreeMap<String, u64>,
    /// The audit log: verb -> HTTP status -> requests.
    pub api: BTreeMap<String, BTreeMap<String, u64>>,
    pub invariants: BTreeMap<String, InvariantOutcome>,
    /// The scenario's checks that apply to this run's settings, against it.
    pub expectations: Vec<Verdict>,
    /// The controller's own counters, by its name (`replicaset-controller`).
    pub metrics: BTreeMap<String, Metrics>,
    /// The run stopped at the frame limit with more still to happen before
    /// `until_ms` (absent when it ran to its end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_at_frame_limit: Option<u64>,
    /// The run stopped after the frame that left the cluster holding more
    /// objects than the work budget (absent when it did not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_at_object_limit: Option<ObjectLimitReport>,
    /// The scenario's lesson, as the learner will meet it: each step's
    /// frame, answer and filled-in reveal ([`Report::with_lesson`]; absent
    /// without a lesson).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lesson: Vec<StepOutcome>,
    /// Why the run contradicts the lesson, naming the step (`lesson[2]: …`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lesson_error: Option<String>,
}

/// The releases a run follows (`controller.kubernetes`,
/// `controller.controller_runtime`) and the governed settings it overrides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Profile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kubernetes: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub controller_runtime: Option<&'static str>,
    /// `path=value` for each setting the profile governs that the scenario sets itself.
    pub overrides: Vec<String>,
}

impl Profile {
    /// The profile of a controller's settings, if it names a release.
    pub fn of(c: &crate::sim::settings::ControllerSettings) -> Option<Profile> {
        use crate::sim::settings::word;
        (c.kubernetes.is_some() || c.controller_runtime.is_some()).then(|| Profile {
            kubernetes: c.kubernetes.map(word),
            controller_runtime: c.controller_runtime.map(word),
            overrides: c.overrides(),
        })
    }
}

/// Where and why a run stopped at its object limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ObjectLimitReport {
    /// The last frame, the one that passed the limit.
    pub frame: u64,
    /// Objects the cluster held then, and the limit.
    pub objects: u64,
    pub limit: u64,
    /// The counts and the likely cause, in a sentence ([`object_limit_words`]).
    pub why: String,
}

impl ObjectLimitReport {
    pub fn of(world: &World, stop: &ObjectLimitStop) -> ObjectLimitReport {
        ObjectLimitReport { frame: stop.frame, objects: stop.live, limit: stop.limit, why: object_limit_words(world, stop) }
    }
}

pub use crate::narrate::units::thousands;

pub use crate::narrate::run::object_limit_words;

/// A controller's counters, as its metrics would show them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Metrics {
    /// Reconciles started (syncs).
    pub reconciles: u64,
    /// `*_controller_stale_sync_skips_total`: syncs the consistency store skipped.
    pub stale_sync_skips: u64,
    /// Keys re-added with `AddRateLimited` after an error.
    pub requeues: u64,
}

impl Report {
    /// Run a scenario to its end and summarise it.
    pub fn run(scenario: &Scenario) -> Report {
        let mut world = World::new(scenario.world_init());
        let mut hasher = TraceHasher::default();
        let mut frames = Vec::new();
        while let Some(frame) = world.step() {
            hasher.add(&frame);
            frames.push(frame);
        }
        Report::of(scenario, &world, &frames, &hasher)
    }

    /// Summarise a world that has run through `frames`.
    pub fn of(scenario: &Scenario, world: &World, frames: &[Frame], hasher: &TraceHasher) -> Report {
        let name = &scenario.name;
        let kinds = |m: &BTreeMap<crate::sim::object::Kind, u64>| m.iter().map(|(k, n)| (k.to_string(), *n)).collect();
        Report {
            scenario: name.to_string(),
            seed: world.seed,
            profile: Profile::of(&scenario.controller),
            sim_time_ms: world.now_ms(),
            frames: world.frames(),
            trace_hash: hasher.hex(),
            live: kinds(&world.api.live()),
            peak_live: kinds(&world.api.peak_live()),
            api: world
                .api_counts()
                .iter()
                .map(|(verb, by)| (verb.as_str().to_string(), by.iter().map(|(code, n)| (code.to_string(), *n)).collect()))
                .collect(),
            invariants: world
                .invariants
                .list
                .iter()
                .map(|i| (i.name.to_string(), InvariantOutcome { held: i.held(), first_broken_frame: i.first_broken_frame }))
                .collect(),
            expectations: expect::outcomes(scenario, world, frames),
            // Both replicas' counts, when there are two: one controller, as its metrics add up.
            metrics: [(world.spec.name().to_string(), {
                let replicas = std::iter::once(&world.ctl).chain(world.peer.as_ref());
                replicas.fold(Metrics::default(), |m, r| Metrics {
                    reconciles: m.reconciles + r.reconciles,
                    stale_sync_skips: m.stale_sync_skips + r.stale_sync_skips,
                    requeues: m.requeues + r.requeues,
                })
            })]
            .into_iter()
            // Each controller beside the recipe, under its own name.
            .chain(world.beside.iter().map(|b| {
                let m = Metrics { reconciles: b.ctl.reconciles, stale_sync_skips: b.ctl.stale_sync_skips, requeues: b.ctl.requeues };
                (b.spec.name().to_string(), m)
            }))
            .collect(),
            stopped_at_frame_limit: world.stopped_at_frame_limit().then_some(world.frame_limit),
            stopped_at_object_limit: world.stopped_at_object_limit().map(|stop| ObjectLimitReport::of(world, &stop)),
            lesson: Vec::new(),
            lesson_error: None,
        }
    }

    /// With the scenario's lesson as played apart from this run, from the
    /// scenario's start (`crate::view::lesson::verify`, which the runner
    /// calls: the floor above this one holds the page's words a lesson is
    /// checked against), or why the run contradicts it.
    pub fn with_lesson(mut self, played: Result<Vec<StepOutcome>, lesson::LessonFailure>) -> Report {
        match played {
            Ok(steps) => self.lesson = steps,
            Err(e) => self.lesson_error = Some(e.to_string()),
        }
        self
    }

    /// Requests of `verb` answered with `status`.
    pub fn api_count(&self, verb: &str, status: u16) -> u64 {
        self.api.get(verb).and_then(|m| m.get(&status.to_string())).copied().unwrap_or(0)
    }

    /// Live objects of `kind` at the end.
    pub fn live(&self, kind: &str) -> u64 {
        self.live.get(kind).copied().unwrap_or(0)
    }
}
