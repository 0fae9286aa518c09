//! What each panel shows, as plain values computed from the world and the
//! frames so far. Cluster and Cache share one row list, so the two panels line
//! up row for row and the eye compares them.

pub use crate::narrate::invariants::label as invariant_label;
pub use crate::narrate::panels::{arrival_words, current_caption, replicas, status_label, step_value, HANDS_HINT};
use crate::sim::apiserver::{AuditEntry, ControllerKind, EventType, Verb};
use crate::sim::controllers::{self, Note, Step};
use crate::sim::expectations::Satisfied;
use crate::sim::frame::{Event, Frame, Watcher};
use crate::sim::informer::ListState;
use crate::sim::object::{child_label, Kind, ObjectRc, ObjectRef};
use crate::sim::world::{SentBy, World};

/// How an object's row stands between the cluster and the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowState {
    /// The cache has the version the cluster has.
    Synced,
    /// In the cluster, not yet in the cache: a dashed ghost in the Cache panel.
    NotInCache,
    /// Gone from the cluster, still in the cache: struck through in the Cluster panel.
    GoneFromCluster,
    /// Both have it, at different resourceVersions.
    Stale,
}

/// One object, as both panels show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Stable across frames: `Kind/namespace/name`.
    pub id: String,
    pub kind: Kind,
    pub namespace: String,
    pub name: String,
    /// The server picked the name (`generateName`).
    pub generated: bool,
    pub cluster_rv: Option<u64>,
    pub cache_rv: Option<u64>,
    /// The event on its way to the cache for this object, and how far away it is.
    pub pending: Option<(EventType, u64)>,
    /// 0 for owners and loose objects, 1 for children listed under their owner.
    pub depth: u8,
    /// The current frame acted on this object (see [`mark_touched`]).
    pub touched: bool,
    /// (cluster, cache): the version each side holds is Terminating (deletionTimestamp set).
    pub terminating: (bool, bool),
    /// (cluster, cache): a ReplicaSet's `status.replicas`, once its controller has written it.
    pub status_replicas: (Option<u32>, Option<u32>),
}

impl Row {
    pub fn state(&self) -> RowState {
        match (self.cluster_rv, self.cache_rv) {
            (Some(a), Some(b)) if a == b => RowState::Synced,
            (Some(_), Some(_)) => RowState::Stale,
            (Some(_), None) => RowState::NotInCache,
            (None, _) => RowState::GoneFromCluster,
        }
    }
}

/// The union of what the cluster and the controller's cache hold, grouped by owner.
pub fn object_rows(world: &World) -> Vec<Row> {
    let lag = world.cluster.watch_lag_ms;
    let now = world.now_ms();
    // (cluster version, cache version) per object: both sides iterate in key
    // order per kind, so a merge pairs them in linear time.
    let mut all: Vec<(Option<ObjectRc>, Option<ObjectRc>)> = Vec::new();
    for kind in Kind::ALL {
        let mut cluster = world.api.objects_of(kind).peekable();
        let mut cache = world.controller_informer(kind).into_iter().flat_map(|i| i.list()).peekable();
        loop {
            let order = match (cluster.peek(), cache.peek()) {
                (None, None) => break,
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (Some(a), Some(b)) => (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)),
            };
            all.push(match order {
                std::cmp::Ordering::Less => (cluster.next().cloned(), None),
                std::cmp::Ordering::Greater => (None, cache.next().cloned()),
                std::cmp::Ordering::Equal => (cluster.next().cloned(), cache.next().cloned()),
            });
        }
    }
    let any = |v: &(Option<ObjectRc>, Option<ObjectRc>)| v.0.clone().or_else(|| v.1.clone()).expect("one side has it");
    all.sort_by(|a, b| {
        let (x, y) = (any(a), any(b));
        (x.creation_rv, x.kind(), &x.namespace, &x.name).cmp(&(y.creation_rv, y.kind(), &y.namespace, &y.name))
    });
    let written = |o: &Option<ObjectRc>| o.as_ref().and_then(|o| o.status).filter(|s| s.observed_generation > 0).map(|s| s.replicas);
    let make = |v: &(Option<ObjectRc>, Option<ObjectRc>), depth: u8| {
        let o = any(v);
        let pending =
            world.controller_informer(o.kind()).and_then(|i| i.pending_for(&o.key(), lag)).map(|(t, at)| (t, at.saturating_sub(now)));
        Row {
            id: format!("{}/{}/{}", o.kind(), o.namespace, o.name),
            kind: o.kind(),
            namespace: o.namespace.clone(),
            name: o.name.clone(),
            generated: o.generate_name.is_some(),
            cluster_rv: v.0.as_ref().map(|o| o.resource_version),
            cache_rv: v.1.as_ref().map(|o| o.resource_version),
            pending,
            depth,
            touched: false,
            terminating: (v.0.as_ref().is_some_and(|o| o.is_terminating()), v.1.as_ref().is_some_and(|o| o.is_terminating())),
            status_replicas: (written(&v.0), written(&v.1)),
        }
    };
    // Children: objects whose child label names an owner of the right kind.
    let owner_of = |o: &ObjectRc| -> Option<(Kind, String)> {
        [Kind::Ensemble, Kind::ReplicaSet].into_iter().find_map(|owner_kind| {
            if crate::sim::object::child_kind(owner_kind) != Some(o.kind()) {
                return None;
            }
            child_label(owner_kind).and_then(|l| o.labels.get(l)).map(|n| (owner_kind, n.clone()))
        })
    };
    let mut rows = Vec::with_capacity(all.len());
    let mut children: Vec<((Kind, String), Row)> = Vec::new();
    let mut top: Vec<(Kind, String, Row)> = Vec::new();
    for v in &all {
        let o = any(v);
        match owner_of(&o) {
            Some(owner) => children.push((owner, make(v, 1))),
            None => top.push((o.kind(), o.name.clone(), make(v, 0))),
        }
    }
    for (kind, name, row) in top {
        rows.push(row);
        // An owner's children follow it, oldest first (their order in `children`).
        let (own, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut children).into_iter().partition(|((k, n), _)| *k == kind && *n == name);
        children = rest;
        rows.extend(own.into_iter().map(|(_, r)| r));
    }
    // Children whose owner is gone from both sides: still shown, at the end.
    rows.extend(children.into_iter().map(|(_, r)| r));
    rows
}

/// Marks the rows of the objects a frame acted on ([`Event::touched`]), so
/// the panels can light them and keep them in view.
pub fn mark_touched(rows: &mut [Row], touched: &[ObjectRef]) {
    for t in touched {
        if let Some(r) = rows.iter_mut().find(|r| r.kind == t.kind && r.namespace == t.namespace && r.name == t.name) {
            r.touched = true;
        }
    }
}

/// An event on the wire, placed along the Watch lane.
#[derive(Debug, Clone, PartialEq)]
pub struct Wire {
    /// Stable across frames.
    pub id: String,
    pub watcher: Watcher,
    pub label: String,
    pub kind: Kind,
    pub name: String,
    pub sent_at_ms: u64,
    pub deliver_at_ms: u64,
    /// 0 at the apiserver, 1 at the cache.
    pub progress: f64,
    pub dropped: bool,
    /// How long the run's schedule holds it back beyond the lag (0: not at all).
    pub held_ms: u64,
    /// Its ordinal among the events of its kind (0: a LIST or a BOOKMARK, not a choice's target).
    pub nth: u32,
    /// Held until the learner releases it.
    pub on_hold: bool,
}

/// Everything on the controller's wires (watch events and pending LISTs), head
/// first, placed as they are at `at_ms` (the animation clock, which runs ahead
/// of the last frame while playing; never behind it).
pub fn wires(world: &World, include_gc: bool, at_ms: u64) -> Vec<Wire> {
    let now = at_ms.max(world.now_ms());
    let mut out = Vec::new();
    let mut add = |watcher: Watcher, inf: &crate::sim::informer::Informer, lag: u64| {
        if let ListState::Listed { items, started_at_ms, fill_at_ms, .. } = inf.state() {
            let span = fill_at_ms.saturating_sub(*started_at_ms).max(1) as f64;
            out.push(Wire {
                id: format!("{watcher:?}/LIST/{}", inf.kind),
                watcher,
                label: "LIST".into(),
                kind: inf.kind,
                name: format!("{} items", items.len()),
                sent_at_ms: *started_at_ms,
                deliver_at_ms: *fill_at_ms,
                progress: (now.saturating_sub(*started_at_ms) as f64 / span).clamp(0.0, 1.0),
                dropped: false,
                held_ms: 0,
                nth: 0,
                on_hold: false,
            });
        }
        for (e, at) in inf.in_flight(lag) {
            let span = at.saturating_sub(e.sent_at_ms).max(1) as f64;
            let (label, name) = if e.bookmark {
                ("BOOKMARK".to_string(), format!("rv {}", e.object.resource_version))
            } else {
                (e.event_type.as_str().to_string(), e.object.name.clone())
            };
            out.push(Wire {
                id: format!("{watcher:?}/{label}/{}/{name}/{}", inf.kind, e.object.resource_version),
                watcher,
                label,
                kind: inf.kind,
                name,
                sent_at_ms: e.sent_at_ms,
                deliver_at_ms: at,
                progress: (now.saturating_sub(e.sent_at_ms) as f64 / span).clamp(0.0, 1.0),
                dropped: e.dropped || e.drop_on_arrival,
                held_ms: e.held_ms,
                nth: if e.bookmark { 0 } else { e.nth },
                on_hold: e.due_ms == Some(u64::MAX),
            });
        }
    };
    for inf in &world.ctl.caches.informers {
        add(Watcher::Controller, inf, world.cluster.watch_lag_ms);
    }
    if include_gc {
        for inf in &world.gc.caches.informers {
            add(Watcher::GarbageCollector, inf, world.cluster.gc_watch_lag_ms());
        }
    }
    // By arrival; a LIST goes before the watch events queued behind it.
    out.sort_by(|a, b| {
        a.deliver_at_ms.cmp(&b.deliver_at_ms).then((a.label != "LIST").cmp(&(b.label != "LIST"))).then(a.sent_at_ms.cmp(&b.sent_at_ms))
    });
    out
}

/// A worker and what it is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerView {
    pub worker: u32,
    /// The key and the reconcile's number, if busy.
    pub busy: Option<(String, u64)>,
}

/// The workqueue's three structures and the waiting room.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueView {
    pub queued: Vec<String>,
    pub workers: Vec<WorkerView>,
    pub dirty_while_processing: Vec<String>,
    /// Rate-limited keys and when each is ready.
    pub waiting: Vec<(String, u64)>,
    pub running: bool,
    /// The key the next idle worker takes, and the worker that will (the
    /// schedule's choice, or the lowest idle one), when one is about to.
    pub next_take: Option<(String, u32)>,
    /// The idle workers (the learner may choose among them when two or more are).
    pub idle: Vec<u32>,
}

pub fn queue(world: &World) -> QueueView {
    let q = &world.ctl.queue;
    QueueView {
        queued: q.queued().cloned().collect(),
        workers: world
            .ctl
            .workers
            .iter()
            .enumerate()
            .map(|(i, w)| WorkerView { worker: i as u32, busy: w.busy.as_ref().map(|b| (b.key.clone(), b.n)) })
            .collect(),
        dirty_while_processing: q.dirty_while_processing().cloned().collect(),
        waiting: q.waiting().map(|(k, at)| (k.clone(), at)).collect(),
        running: world.ctl.running,
        next_take: world.next_take(),
        idle: world.ctl.workers.iter().enumerate().filter(|(_, w)| w.busy.is_none()).map(|(i, _)| i as u32).collect(),
    }
}

/// One expectations record.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectationView {
    pub key: String,
    pub add: i64,
    pub del: i64,
    pub age_ms: u64,
    pub timeout_ms: u64,
    /// 1 when just set, 0 at the timeout.
    pub fraction_left: f64,
    pub satisfied: bool,
    pub why: Satisfied,
}

/// The Expectations panel: records, or why there are none.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectationsView {
    pub enabled: bool,
    pub records: Vec<ExpectationView>,
}

pub fn expectations(world: &World) -> ExpectationsView {
    let now = world.now_ms();
    let e = &world.ctl.expectations;
    ExpectationsView {
        enabled: world.controller.expectations(),
        records: e
            .records()
            .map(|(key, r)| {
                let age_ms = now.saturating_sub(r.timestamp_ms);
                let why = e.satisfied(key, now);
                ExpectationView {
                    key: key.clone(),
                    add: r.add,
                    del: r.del,
                    age_ms,
                    timeout_ms: e.timeout_ms,
                    fraction_left: 1.0 - (age_ms as f64 / e.timeout_ms.max(1) as f64).min(1.0),
                    satisfied: why.is_satisfied(),
                    why,
                }
            })
            .collect(),
    }
}

/// One line of pseudo-code as the Reconcile panel draws it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeLine {
    pub step: Step,
    pub text: &'static str,
    /// The current frame is this step of a reconcile: the line is lit.
    pub lit: bool,
    /// What the step just read or did, on the lit line: `len(children) = 0 · the cache has 0, the cluster 4`.
    pub value: Option<String>,
    /// Busy workers paused on this line (waiting for a response or a timer).
    pub waiting: Vec<u32>,
}

/// One owner's record in v1.36's consistency store, against its caches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsistencyRecord {
    pub key: String,
    /// Per resource: (kind, the resourceVersion the controller wrote, how far its cache has read).
    pub resources: Vec<(Kind, u64, u64)>,
    /// Some cache has not read what was written: the next sync of this key is skipped.
    pub behind: bool,
    /// The key waits out its rate-limited backoff: ready in this many ms.
    pub retry_in_ms: Option<u64>,
    /// Its failures so far (the per-item backoff's exponent).
    pub failures: u32,
}

/// The consistency store, as the Expectations panel shows it below the expectations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsistencyView {
    pub enabled: bool,
    pub records: Vec<ConsistencyRecord>,
    /// `stale_sync_skips` so far.
    pub skips: u64,
}

pub fn consistency(world: &World) -> ConsistencyView {
    let now = world.now_ms();
    let q = &world.ctl.queue;
    let records = world
        .ctl
        .consistency
        .records()
        .map(|(key, r)| {
            let resources: Vec<(Kind, u64, u64)> = r
                .versions
                .iter()
                .map(|(kind, wrote)| (*kind, *wrote, world.controller_informer(*kind).map_or(0, |i| i.last_sync_rv())))
                .collect();
            ConsistencyRecord {
                key: key.clone(),
                behind: resources.iter().any(|(_, wrote, read)| wrote > read),
                resources,
                retry_in_ms: q.waiting().find(|(k, _)| *k == key).map(|(_, at)| at.saturating_sub(now)),
                failures: q.num_requeues(key),
            }
        })
        .collect();
    ConsistencyView { enabled: world.controller.consistency_store, records, skips: world.ctl.stale_sync_skips }
}

/// The Reconcile panel: the controller's pseudo-code, the line the current
/// frame acted on lit with the values it read, and where other workers wait.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReconcileView {
    pub lines: Vec<CodeLine>,
    /// The worker and reconcile number the lit line belongs to.
    pub lit_by: Option<(u32, u64)>,
}

/// The step of a reconcile the frame is, with the worker and reconcile number, if it is one.
pub fn frame_step(kind: ControllerKind, frame: &Frame) -> Option<(Step, Option<(u32, u64)>)> {
    match &frame.event {
        Event::ReconcileStarted { worker, n, .. } => Some((controllers::first_step(kind), Some((*worker, *n)))),
        Event::ReconcileNote { worker, n, step, .. } => Some((*step, Some((*worker, *n)))),
        Event::ApiRequest { step: Some(step), .. } => Some((*step, None)),
        Event::ReconcileFinished { worker, n, .. } => Some((controllers::last_step(kind), Some((*worker, *n)))),
        Event::ControllerExited { .. } => Some((Step::Exit, None)),
        _ => None,
    }
}

pub fn reconcile(world: &World, frame: Option<&Frame>) -> ReconcileView {
    let kind = world.controller.kind;
    let current = frame.and_then(|f| frame_step(kind, f));
    let value = frame.and_then(|f| step_value(kind, f));
    let lines = controllers::pseudo_code(kind)
        .iter()
        .map(|(step, text)| {
            let lit = current.is_some_and(|(s, _)| s == *step);
            CodeLine {
                step: *step,
                text,
                lit,
                value: if lit { value.clone() } else { None },
                waiting: world
                    .ctl
                    .workers
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| w.busy.as_ref().is_some_and(|b| b.step == *step))
                    .map(|(i, _)| i as u32)
                    .collect(),
            }
        })
        .collect();
    ReconcileView { lines, lit_by: current.and_then(|(_, by)| by) }
}

/// One line of the Timeline: an audit entry or a controller log line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimelineEntry {
    Audit { frame: u64, entry: AuditEntry },
    Log { frame: u64, at_ms: u64, text: String },
}

/// How far back the Timeline looks for lines: it is redrawn on every played
/// frame, so it must not scan a long run from the start.
pub const TIMELINE_LOOKBACK: usize = crate::narrate::run::LOOKBACK;

/// The last `limit` audit entries and log lines up to the current frame (within
/// the last [`TIMELINE_LOOKBACK`] frames), newest last.
pub fn timeline(frames: &[Frame], limit: usize) -> (Vec<TimelineEntry>, Vec<TimelineEntry>) {
    let mut audit = Vec::new();
    let mut logs = Vec::new();
    for f in frames.iter().rev().take(TIMELINE_LOOKBACK) {
        if audit.len() >= limit && logs.len() >= limit {
            break;
        }
        match &f.event {
            Event::ApiRequest { entry, .. } if audit.len() < limit => audit.push(TimelineEntry::Audit { frame: f.n, entry: entry.clone() }),
            Event::ReconcileNote { note, .. } if logs.len() < limit => {
                if let Some(text) = crate::narrate::frame::log_line(note) {
                    logs.push(TimelineEntry::Log { frame: f.n, at_ms: f.at_ms, text });
                }
            }
            Event::ReconcileFinished { key, error: Some(e), .. } if logs.len() < limit => logs.push(TimelineEntry::Log {
                frame: f.n,
                at_ms: f.at_ms,
                text: format!("error reconciling {key}: {}", crate::narrate::frame::error_words(e)),
            }),
            Event::ControllerExited { code, error, .. } if logs.len() < limit => logs.push(TimelineEntry::Log {
                frame: f.n,
                at_ms: f.at_ms,
                text: match error {
                    Some(e) => format!("{}\nexit status {code}", crate::narrate::frame::error_words(e)),
                    None => format!("exit status {code}"),
                },
            }),
            _ => {}
        }
    }
    audit.reverse();
    logs.reverse();
    (audit, logs)
}

/// The observations strip: the lab's "Observe" numbers, live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observations {
    pub kind: Kind,
    pub in_cluster: u64,
    pub in_cache: u64,
    pub peak_in_cluster: u64,
    /// (status, count), by status: the controller's creates, and every delete, up to this frame.
    pub creates: Vec<(u16, u64)>,
    pub deletes: Vec<(u16, u64)>,
}

impl Observations {
    /// A count of `(status, n)` pairs as the strip prints it: `4 × 201 Created, 10 × 409 AlreadyExists`.
    pub fn counts(m: &[(u16, u64)], verb: Verb) -> String {
        if m.is_empty() {
            return "none".to_string();
        }
        m.iter().map(|(c, n)| format!("{n} × {}", status_label(*c, verb))).collect::<Vec<_>>().join(", ")
    }
}

pub fn observations(world: &World) -> Observations {
    let kind = crate::sim::controllers::tracked_kind(world.controller.kind);
    // Deletes count whoever sent them (the pruner, kubectl's pressure, the GC); creates, the controller's.
    let mut deletes = world.kind_counts(kind, Verb::Delete, SentBy::Controller);
    for (code, n) in world.kind_counts(kind, Verb::Delete, SentBy::Others) {
        match deletes.iter_mut().find(|(c, _)| *c == code) {
            Some((_, m)) => *m += n,
            None => deletes.push((code, n)),
        }
    }
    deletes.sort_unstable();
    Observations {
        kind,
        in_cluster: world.api.live_count(kind),
        in_cache: world.controller_informer(kind).map_or(0, |i| i.len() as u64),
        peak_in_cluster: world.api.peak_count(kind),
        creates: world.kind_counts(kind, Verb::Create, SentBy::Controller),
        deletes,
    }
}

/// The caption at the session's position. At frame 0 it is the lab's own
/// text, which speaks of the lab's settings: when the link set others, it says
/// which, so no sentence stands that this run contradicts unremarked. At the
/// run's last frame, once the session knows it is the last, it says what the
/// run came to ([`crate::narrate::run::end_summary`]); a reconcile's return says
/// what it sent ([`crate::narrate::run::reconcile_finished`]).
pub fn session_caption(s: &super::session::Session) -> String {
    if s.at_end() && s.position() > 0 {
        let summary = crate::narrate::run::end_summary(s.scenario(), s.world(), &s.frames()[..s.position()]);
        // A run stopped by its object limit says why it ended there.
        return match s.stopped_at_object_limit().filter(|(stop, _)| stop.frame as usize == s.position()) {
            Some((_, why)) => format!("{summary} {why}"),
            None => summary,
        };
    }
    if let Some(said) = s.last_frame().and_then(|_| crate::narrate::run::reconcile_finished(&s.frames()[..s.position()])) {
        return said;
    }
    let caption = current_caption(s.last_frame(), s.scenario());
    if s.last_frame().is_some() {
        // The last frame of a run stopped by its object limit says why it is the last.
        if let Some((_, why)) = s.stopped_at_object_limit().filter(|(stop, _)| stop.frame as usize == s.position()) {
            return format!("{caption} {why}");
        }
        return match first_events_in_flight(s) {
            true => format!("{caption} {HANDS_HINT}"),
            false => caption,
        };
    }
    let moved: Vec<String> = s
        .departures()
        .into_iter()
        .filter(|d| d.frame.is_none())
        .map(|d| match d.lab {
            Some(lab) => format!("{} is {} (the lab's: {lab})", d.what, d.now),
            None => format!("{} is {}", d.what, d.now),
        })
        .collect();
    if moved.is_empty() {
        caption
    } else {
        format!(
            "{caption} This run is not the lab's: {}; where the text above says otherwise, the run shows what these settings do.",
            moved.join(", ")
        )
    }
}

/// The run's first stretch with watch events on their way to the controller
/// and none delivered yet: where the caption points to the Watch panel's buttons.
pub fn first_events_in_flight(s: &super::session::Session) -> bool {
    let so_far = &s.frames()[..s.position()];
    !so_far.iter().any(|f| matches!(f.event, Event::WatchDelivered { .. }))
        && wires(s.world(), false, s.world().now_ms()).iter().any(|w| w.nth > 0 && !w.dropped)
}

/// One of the scenario's checks, as the Observations panel shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckView {
    pub text: String,
    pub expected: String,
    /// Measured over the whole run; `None` until its end is known (or if unmeasurable).
    pub measured: Option<u64>,
    /// `None` until the run's end is known.
    pub held: Option<bool>,
}

/// The scenario's checks for this run: what the lab expects, what the run
/// gives, and why they differ when a setting moved the run off the lab's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChecksView {
    pub checks: Vec<CheckView>,
    /// Checks the scenario has for other settings than these.
    pub other_settings: usize,
    /// One sentence, when a check does not hold.
    pub why: Option<String>,
}

pub fn checks(s: &super::session::Session) -> ChecksView {
    let total = s.scenario().expect.len();
    let checks: Vec<CheckView> = match s.outcomes() {
        Some(outcomes) => outcomes
            .iter()
            .map(|o| CheckView { text: o.text.clone(), expected: o.expected.clone(), measured: o.measured, held: Some(o.held) })
            .collect(),
        None => s
            .applicable_checks()
            .into_iter()
            .map(|c| CheckView { text: c.text.clone(), expected: c.expected(), measured: None, held: None })
            .collect(),
    };
    let why = checks.iter().any(|c| c.held == Some(false)).then(|| {
        let departures = s.departures();
        if departures.is_empty() {
            "This run does not do what its scenario expects, at the scenario's own settings.".to_string()
        } else {
            let parts: Vec<String> = departures
                .iter()
                .map(|d| {
                    let when = d.frame.map(|f| format!(" at frame {f}")).unwrap_or_default();
                    match &d.lab {
                        Some(lab) => format!("{} {} (the lab: {lab}){when}", d.what, d.now),
                        None => format!("{} {}{when}", d.what, d.now),
                    }
                })
                .collect();
            format!("The lab's figures are for its own settings; this run changed {}.", parts.join(", "))
        }
    });
    ChecksView { other_settings: total - checks.len().min(total), checks, why }
}

/// Successful deletes by kind over `frames`, the kubelet's excepted (it
/// finishes a graceful delete someone else asked for): what an empty panel
/// says went.
pub fn deleted_by_kind(frames: &[Frame]) -> Vec<(Kind, u64)> {
    let mut out: Vec<(Kind, u64)> = Vec::new();
    for f in frames {
        if let Event::ApiRequest { entry, .. } = &f.event {
            if entry.verb == Verb::Delete && entry.status.is_success() && entry.actor != crate::sim::apiserver::Actor::Kubelet {
                match out.iter_mut().find(|(k, _)| *k == entry.kind) {
                    Some((_, n)) => *n += 1,
                    None => out.push((entry.kind, 1)),
                }
            }
        }
    }
    out.sort_by_key(|(k, _)| k.index());
    out
}

/// Is this frame's note one of the stale reads the learner should notice?
pub fn is_stale_read(frame: &Frame) -> bool {
    matches!(&frame.event, Event::ReconcileNote { note: Note::Counted { unseen, .. }, .. } if *unseen > 0)
        || matches!(&frame.event, Event::ReconcileNote { note: Note::CacheMiss { .. }, .. })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    #[test]
    fn the_first_events_in_flight_point_to_the_hands_on_them_once() {
        let mut s = crate::view::session::Session::new(preset("over-create").unwrap());
        let mut hinted = Vec::new();
        while s.step_forward() {
            if session_caption(&s).ends_with(HANDS_HINT) {
                hinted.push(s.position());
            }
        }
        assert!(!hinted.is_empty(), "over-create's first events in flight are pointed to");
        // One stretch, before the first delivery, and only where an event is on its way.
        let first_delivery = s.frames().iter().position(|f| matches!(f.event, Event::WatchDelivered { .. })).unwrap() + 1;
        assert!(hinted.iter().all(|&n| n < first_delivery), "{hinted:?} vs first delivery at {first_delivery}");
        assert!(hinted.windows(2).all(|w| w[1] == w[0] + 1), "one stretch: {hinted:?}");
    }
    use crate::view::session::Session;

    fn at_reconcile_2(naming: &str) -> Session {
        let s = preset("over-create").unwrap().with_settings([("controller.naming", naming)]).unwrap();
        let mut session = Session::new(s);
        let mut starts = 0;
        while session.step_forward() {
            if let Some(Frame { event: Event::ReconcileNote { note: Note::Counted { .. }, .. }, .. }) = session.last_frame() {
                starts += 1;
                if starts == 2 {
                    break;
                }
            }
        }
        session
    }

    #[test]
    fn the_row_a_frame_acts_on_is_marked_touched() {
        let mut session = Session::new(preset("read-your-write").unwrap());
        while session.step_forward() {
            if let Some(Frame { event: Event::ApiRequest { entry, .. }, .. }) = session.last_frame() {
                if entry.status.code == 409 {
                    break;
                }
            }
        }
        let mut rows = object_rows(session.world());
        mark_touched(&mut rows, &session.last_frame().unwrap().event.touched());
        let touched: Vec<&str> = rows.iter().filter(|r| r.touched).map(|r| r.name.as_str()).collect();
        assert_eq!(touched, ["seed-99"]);
        // Another object marks its own row; a name that is only a prefix, or
        // another kind of the same name, marks none.
        let object = |kind, name: &str| ObjectRef { kind, namespace: "academy-lab".into(), name: name.into() };
        mark_touched(&mut rows, &[object(Kind::ConfigMap, "seed-9")]);
        assert_eq!(rows.iter().filter(|r| r.touched).count(), 2);
        let mut fresh = object_rows(session.world());
        mark_touched(&mut fresh, &[object(Kind::ConfigMap, "seed"), object(Kind::Pod, "seed-1")]);
        assert!(fresh.iter().all(|r| !r.touched));
    }

    #[test]
    fn cluster_and_cache_rows_line_up_and_show_the_gap() {
        let s = at_reconcile_2("generate");
        let rows = object_rows(s.world());
        assert_eq!(rows[0].kind, Kind::Ensemble);
        assert_eq!(rows[0].state(), RowState::Synced);
        let children: Vec<&Row> = rows.iter().filter(|r| r.depth == 1).collect();
        assert_eq!(children.len(), 4, "four in the cluster, under their owner");
        for c in &children {
            assert_eq!(c.state(), RowState::NotInCache);
            assert!(c.generated);
            let (t, eta) = c.pending.expect("its ADDED is on the wire");
            assert_eq!(t, EventType::Added);
            assert!(eta > 0 && eta <= 2000);
        }
    }

    #[test]
    fn wires_carry_their_progress() {
        let s = at_reconcile_2("generate");
        let w = wires(s.world(), false, 0);
        assert_eq!(w.len(), 4);
        assert!(w.iter().all(|w| w.label == "ADDED" && w.progress < 1.0));
        assert!(w[0].progress > 0.0, "the first create's event has been travelling");
        assert_eq!(w[3].progress, 0.0, "the last was sent this very millisecond");
        assert!(w.windows(2).all(|p| p[0].deliver_at_ms <= p[1].deliver_at_ms));
        // A longer lag moves them back along the lane.
        let mut world = s.world().clone();
        world.set_knob(crate::scenario::settings::knob("cluster.watch_lag_ms", crate::sim::settings::Val::Int(5000)));
        let slower = wires(&world, false, 0);
        assert!(slower[0].progress < w[0].progress);
        // The animation clock slides them along between frames.
        let later = wires(s.world(), false, s.world().now_ms() + 500);
        assert!(later[0].progress > w[0].progress);
    }

    #[test]
    fn queue_view_shows_the_key_being_processed() {
        let s = at_reconcile_2("deterministic");
        let q = queue(s.world());
        assert!(q.running);
        assert_eq!(q.workers[0].busy.as_ref().map(|b| b.0.as_str()), Some("academy-lab/beta"));
    }

    #[test]
    fn expectations_view_counts_and_shrinks() {
        let mut s = Session::new(preset("replicaset-pressure").unwrap());
        let mut seen_pending = false;
        while s.step_forward() {
            let e = expectations(s.world());
            assert!(e.enabled);
            if let Some(r) = e.records.first() {
                if r.add > 0 {
                    seen_pending = true;
                    assert!(!r.satisfied);
                    assert!(r.fraction_left > 0.99);
                    break;
                }
            }
        }
        assert!(seen_pending);
        let off = Session::new(preset("over-create").unwrap());
        assert!(!expectations(off.world()).enabled);
    }

    #[test]
    fn timeline_has_audit_and_logs() {
        let mut s = Session::new(preset("empty-cache").unwrap());
        s.seek(usize::MAX);
        let (audit, logs) = timeline(&s.frames()[..s.position()], 10);
        assert_eq!(audit.len(), 10);
        assert!(matches!(&audit[8], TimelineEntry::Audit { entry, .. } if entry.verb == Verb::Delete && entry.status.code == 200));
        // Then late-1 is applied, after the pruner has exited.
        assert!(matches!(&audit[9], TimelineEntry::Audit { entry, .. } if entry.verb == Verb::Create && entry.name == "late-1"));
        assert!(logs.iter().any(|l| matches!(l, TimelineEntry::Log { text, .. } if text.starts_with("DELETE (not in cache)"))));
        assert!(matches!(logs.last(), Some(TimelineEntry::Log { text, .. }) if text == "exit status 0"));
        let o = observations(s.world());
        assert_eq!((o.in_cluster, o.peak_in_cluster), (1, 50));
        assert_eq!(o.deletes, vec![(200, 50)]);
    }

    #[test]
    fn checks_say_which_setting_moved_the_run_off_the_labs_figure() {
        use crate::view::session::Change;
        let generate = preset("over-create").unwrap().with_settings([("controller.naming", "generate")]).unwrap();
        let mut s = Session::new(generate).with_base(preset("over-create").unwrap());
        // Before the run's end is known, the checks for these settings are listed, unmeasured.
        let pending = checks(&s);
        assert!(pending.checks.iter().all(|c| c.held.is_none() && c.measured.is_none()));
        assert_eq!(pending.checks.len() + pending.other_settings, s.scenario().expect.len());
        s.apply(Change::Knob(crate::scenario::settings::knob("cluster.watch_lag_ms", crate::sim::settings::Val::Int(0))));
        s.seek(usize::MAX);
        s.step_forward();
        let v = checks(&s);
        let eleven = v.checks.iter().find(|c| c.text.contains("11 ConfigMaps")).expect("the GenerateName figure applies");
        assert_eq!((eleven.measured, eleven.held), (Some(4), Some(false)), "at lag 0 there is no duplicate");
        let why = v.why.expect("a failed check says why");
        assert!(why.contains("controller.naming generate (the lab: deterministic)"), "{why}");
        assert!(why.contains("cluster.watch_lag_ms 0 (the lab: 2000) at frame 0"), "{why}");
        // At the lab's own settings every check holds and nothing needs explaining.
        let mut lab = Session::new(preset("over-create").unwrap());
        lab.seek(usize::MAX);
        lab.step_forward();
        let v = checks(&lab);
        assert!(v.checks.iter().all(|c| c.held == Some(true)), "{:?}", v.checks);
        assert_eq!(v.why, None);
    }

    #[test]
    fn reconcile_view_lights_the_stale_read_with_what_it_read() {
        let s = at_reconcile_2("generate");
        let r = reconcile(s.world(), s.last_frame());
        let lit: Vec<&CodeLine> = r.lines.iter().filter(|l| l.lit).collect();
        assert_eq!(lit.len(), 1);
        assert_eq!(lit[0].step, Step::ListChildren);
        assert!(lit[0].text.contains("cmLister.List"));
        assert_eq!(lit[0].value.as_deref(), Some("len(children) = 0 · the cache has 0, the cluster 4"));
        assert_eq!(r.lit_by, Some((0, 2)));
        assert_eq!(lit[0].waiting, vec![0], "the worker is paused on the line it read");
    }

    #[test]
    fn the_first_caption_says_which_settings_are_not_the_labs() {
        let lab = crate::scenario::preset("over-create").unwrap();
        let moved = lab.with_settings([("cluster.watch_lag_ms", "0")]).unwrap();
        let s = Session::new(moved).with_base(lab.clone());
        let caption = session_caption(&s);
        // The preset's start line, not its whole description (that stays under "About this scenario").
        assert!(!lab.start.is_empty());
        assert!(caption.starts_with(lab.start.trim()), "{caption}");
        assert!(!caption.contains(lab.description.trim()), "{caption}");
        assert!(caption.contains("This run is not the lab's: cluster.watch_lag_ms is 0 (the lab's: 2000)"), "{caption}");
        assert_eq!(session_caption(&Session::new(lab.clone())), lab.start);
        // Without a start line, the description is the first caption, with how to begin.
        let mut plain = lab.clone();
        plain.start.clear();
        let caption = session_caption(&Session::new(plain));
        assert_eq!(caption, format!("{} Press Play, or → to step one frame.", lab.description.trim()));
    }

    /// A run that passes its object limit ends there, and the session says why.
    #[test]
    fn a_run_over_the_object_limit_ends_and_says_why() {
        let (_, held) = crate::scenario::limits::OVER_AT_RUN_TIME[2];
        let mut s = Session::new(crate::scenario::Scenario::from_json(held).unwrap());
        s.look_ahead(&mut |_| true);
        assert!(s.end_known());
        let (stop, why) = s.stopped_at_object_limit().expect("stopped at the object limit");
        assert_eq!((stop.live, stop.frame as usize), (2_001, s.frames().len()));
        assert!(why.contains("the 1st Pod event is held"), "{why}");
        assert_eq!(s.position(), 0, "computed ahead; the learner is where they were");
        s.seek(usize::MAX);
        assert!(s.at_end());
        assert!(session_caption(&s).contains("the cluster holds 2,001 objects"), "the caption at the last frame says so");
    }
}
