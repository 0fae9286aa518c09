//! Everything the page draws for one frame, computed in one pass. The page
//! keeps a single memo of this (plus the wires, which also move with the
//! animation clock): one reactive computation instead of one per panel, which
//! keeps the wasm small and the redraw cheap.

use super::panels::{
    self as pv, ChecksView, ConsistencyView, ExpectationsView, Observations, QueueView, ReconcileView, Row, TimelineEntry,
};
use super::session::{Session, UiAction};
use crate::sim::apiserver::ControllerKind;
use crate::sim::controllers::Naming;
use crate::sim::invariants::Invariant;

/// How many audit lines and log lines the Timeline shows.
pub const TIMELINE_LINES: usize = 14;

/// One frame, as every panel shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    pub position: usize,
    pub now_ms: u64,
    pub resource_version: u64,
    pub synced: bool,
    /// Its informers take their first state by watch-list.
    pub watch_list: bool,
    /// An informer whose watch-list waits for a lost `initial-events-end` bookmark.
    pub stalled: Option<crate::sim::object::Kind>,
    /// The controller process is down until the kubelet restarts it then.
    pub restart_at: Option<u64>,
    pub caption: String,
    /// A lesson's question is open (asked, or the run plays to its answer):
    /// the caption is [`crate::view::lesson::asking_caption`], and the lab's
    /// checks wait until the learner has answered.
    pub asking: bool,
    /// The frame is a stale read the learner should notice.
    pub stale: bool,
    pub rows: Vec<Row>,
    pub queue: QueueView,
    pub expectations: ExpectationsView,
    pub consistency: ConsistencyView,
    pub reconcile: ReconcileView,
    pub observations: Observations,
    pub checks: ChecksView,
    pub invariants: Vec<Invariant>,
    pub audit: Vec<TimelineEntry>,
    pub logs: Vec<TimelineEntry>,
    /// Polyline points of children in the cluster and in the cache.
    pub plot: (String, String),
    pub controls: ControlsView,
    /// Frames where the learner changed something.
    pub forks: Vec<usize>,
    /// Frames where an event the run's schedule held back arrives (with how
    /// long it was held), among those computed: a counterexample's moments.
    pub held: Vec<(usize, u64)>,
    /// Frames where a fault the scenario injected happens (a request made to
    /// fail, an event or a bookmark lost), each with its mark's words: a
    /// chaos matrix cell's faults, among those computed.
    pub faults: Vec<(usize, String)>,
    /// The current frame broke an invariant (its caption says which).
    pub broke: bool,
    /// At frame 0: the real incident this scenario mirrors (title, link).
    pub incident: Option<(String, String)>,
    /// Objects the cache holds, and objects the cluster has that it lacks.
    pub cache_holds: usize,
    pub cache_lacks: usize,
    /// Objects the cluster holds, and objects gone from it the cache still has.
    pub cluster_holds: usize,
    pub cluster_lacks: usize,
    /// What each side holds, by kind (in `Kind::ALL`'s order, kinds held only):
    /// the panels' headers count as the labs do, "1 Ensemble · 11 ConfigMaps".
    pub cluster_kinds: Vec<(crate::sim::object::Kind, usize)>,
    pub cache_kinds: Vec<(crate::sim::object::Kind, usize)>,
    /// With two replicas: whose cache the page shows, and where each stands.
    pub replicas: Option<String>,
    /// Successful deletes by kind so far, counted only when both panels are
    /// empty (what [`pv::empty_note`] says went); empty otherwise.
    pub deleted: Vec<(crate::sim::object::Kind, u64)>,
}

/// The controls' current values (they follow the frame: stepping back before
/// a change shows the setting as it was).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControlsView {
    pub kind: ControllerKind,
    /// The controller, as data: its kind's, over a recipe's own kinds.
    pub spec: &'static crate::sim::spec::ControllerSpec,
    pub lag_ms: u64,
    /// The informer's first LIST, `cluster.initial_list_ms`.
    pub first_list_ms: u64,
    pub naming: Naming,
    pub double_enqueue: bool,
    pub expectations: bool,
    pub wait_for_cache_sync: bool,
    pub delete_surplus: bool,
    pub owner_references: bool,
    pub consistency_store: bool,
    pub update_status: bool,
    /// Stepping skips the garbage collector's own cache deliveries.
    pub hide_gc: bool,
    /// Which controls act on this scenario; the others are not shown.
    pub shown: Shown,
    /// What the scenario's story uses (its `controls`), in its order: setting
    /// paths (`controller.naming`) and action words (`scale`, `delete_pod`);
    /// empty when it declares nothing. See [`ControlsView::is_declared`].
    pub declared: Vec<&'static str>,
    /// The owner's voices or replicas: live if it exists, else what it will be applied with.
    pub desired: Option<u32>,
    /// The owner exists in the cluster now (a change is a `kubectl scale`); if
    /// not, the scenario field that creates it (a change recomputes the run).
    pub owner_exists: bool,
    pub desired_path: Option<String>,
    pub can_delete_pod: bool,
    pub can_delete_owner: bool,
    pub description: String,
    pub incident: Option<(String, String)>,
}

impl ControlsView {
    /// Whether the page shows this control among the lesson's own (the rest
    /// go under "More settings"): `what` is a setting path from
    /// `scenario::settings::SETTINGS` or an action word from
    /// [`crate::scenario::CONTROL_ACTIONS`]. A scenario that declares
    /// nothing declares everything.
    pub fn is_declared(&self, what: &str) -> bool {
        self.declared.is_empty() || self.declared.contains(&what)
    }
}

/// The controls that act on a scenario's controller: a pruner has no children
/// to name twice, a ReplicaSet's pods always have generated names, and so on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shown {
    pub naming: bool,
    pub double_enqueue: bool,
    pub expectations: bool,
    pub delete_surplus: bool,
    pub owner_references: bool,
    /// v1.36's consistency store: the controllers it ships for (here, the ReplicaSet and the Ensemble).
    pub consistency_store: bool,
    /// The ReplicaSet's status write (`updateReplicaSetStatus`).
    pub update_status: bool,
    /// The informer's first-LIST time: where acting before it lands is the lesson.
    pub first_list: bool,
    /// Drop next watch event, Restart controller: the long-running controllers.
    pub faults: bool,
    /// The scenario gives its own reconcile: the switches that write the
    /// built-in's lines (`scenario::recipe::WRITTEN_BY_RECIPE`) are not offered.
    pub recipe: bool,
    /// It is written with client-go, whose WaitForCacheSync a program may
    /// skip; controller-runtime never reconciles before its caches sync, so
    /// "Wait for cache sync" is not offered for it.
    pub client_go: bool,
}

impl Shown {
    /// Whether the page offers the setting at `path` anywhere (the bar or More settings).
    pub fn offers(&self, path: &str) -> bool {
        let written = self.recipe && crate::scenario::recipe::WRITTEN_BY_RECIPE.iter().any(|(p, _)| *p == path);
        !written && (self.client_go || path != "controller.wait_for_cache_sync")
    }
}

impl Shown {
    pub fn of(s: &crate::scenario::Scenario) -> Shown {
        // What the controller can be set to do (its spec), and what its own story shows.
        let spec = s.controller.spec();
        let one_shot = !spec.loops();
        // A recipe of the scenario's own says what some switches would: those are not offered.
        let recipe = s.controller.recipe.is_some();
        let client_go = s.controller.runtime() == crate::sim::settings::RuntimeKind::ClientGo;
        let offered = |path: &str| Shown { recipe, client_go, ..Shown::default() }.offers(path);
        Shown {
            // A one-shot program names only what it creates when it re-reads its own write.
            naming: offered("controller.naming") && spec.can.naming && (!one_shot || s.controller.reread_after_create),
            double_enqueue: spec.can.double_enqueue,
            expectations: offered("controller.expectations") && spec.can.expectations,
            delete_surplus: offered("controller.delete_surplus") && spec.can.delete_surplus,
            owner_references: offered("controller.owner_references") && spec.can.owner_references,
            consistency_store: spec.can.consistency_store,
            update_status: offered("controller.update_status") && spec.can.update_status,
            recipe,
            client_go,
            // Acting before the first LIST lands is a one-shot program's whole story.
            first_list: one_shot,
            faults: !one_shot,
        }
    }
}

impl ControlsView {
    /// What the run has that a panel's note on the simulation's
    /// simplifications depends on: a note on pods says nothing to a run of ConfigMaps.
    pub fn traits(&self) -> crate::narrate::simplifications::RunTraits {
        let pods = self.spec.has_pods();
        crate::narrate::simplifications::RunTraits {
            pods,
            double_enqueue: self.double_enqueue,
            // The ReplicaSet controller deletes its surplus, always; an operator when set to.
            surplus_deletes: pods || self.delete_surplus,
            consistency_store: self.consistency_store,
        }
    }
}

/// A setting's number field on the page, and its slider if it has one: the
/// settings table's limits, which the page's controls take from here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldLimits {
    pub min: u64,
    /// The field's top (`None`: no top, for `seed`).
    pub max: Option<u64>,
    /// The slider's step and end (within `max`); a setting with no slider: 1 and `max`.
    pub step: u64,
    pub drag_max: u64,
}

/// The limits of the whole-number setting at `path` (`None` for another kind of setting).
pub fn field_limits(path: &str) -> Option<FieldLimits> {
    let setting = crate::scenario::settings::setting(path)?;
    let crate::scenario::settings::Domain::Int { min, max, .. } = setting.domain else { return None };
    let (step, drag_max) = setting.slider.map_or((1, max), |s| (s.step, s.drag_max.min(max)));
    Some(FieldLimits { min, max: (max < u64::MAX).then_some(max), step, drag_max })
}

pub fn snapshot(s: &Session) -> Snapshot {
    snapshot_in(s, false)
}

/// The snapshot while a lesson's question is open (`asking`), or not.
pub fn snapshot_in(s: &Session, asking: bool) -> Snapshot {
    let w = s.world();
    let frames = &s.frames()[..s.position()];
    let (audit, logs) = pv::timeline(frames, TIMELINE_LINES);
    let c = &w.controller;
    let owner_exists = s.owner_key().is_some_and(|(k, key)| w.api.get(k, &key).is_some());
    let desired_path = desired_path(s);
    let desired = s.owner_key().and_then(|(k, key)| {
        w.api.get(k, &key).and_then(|o| o.spec.desired()).or_else(|| {
            s.scenario().actions.iter().filter_map(|a| a.apply.as_ref()).find(|o| o.name == key.name).and_then(|o| o.voices.or(o.replicas))
        })
    });
    Snapshot {
        position: s.position(),
        now_ms: w.now_ms(),
        resource_version: w.api.resource_version(),
        synced: w.controller_synced(),
        watch_list: w.controller.watch_list(),
        stalled: w.stalled_watch_list(),
        restart_at: w.restart_at(),
        caption: if asking { crate::view::lesson::asking_caption(s) } else { pv::session_caption(s) },
        asking,
        stale: s.last_frame().is_some_and(pv::is_stale_read),
        rows: {
            let mut rows = pv::object_rows(w);
            pv::mark_touched(&mut rows, &s.last_frame().map(|f| f.event.touched()).unwrap_or_default());
            rows
        },
        queue: pv::queue(w, s.last_frame().and_then(|f| f.beside)),
        expectations: pv::expectations(w),
        consistency: pv::consistency(w),
        reconcile: pv::reconcile(w, s.last_frame()),
        observations: pv::observations(w),
        checks: pv::checks(s),
        // The scenario's own first: they are what it is about, and the badges in view without scrolling.
        invariants: {
            let spec = c.spec();
            let applying = w.invariants.list.iter().filter(|i| crate::sim::invariants::applies(i.name, spec));
            let (own, built_in): (Vec<_>, Vec<_>) = applying.cloned().partition(|i| i.rule.is_some());
            own.into_iter().chain(built_in).collect()
        },
        audit,
        logs,
        plot: plot(s),
        controls: ControlsView {
            kind: c.kind,
            spec: c.spec(),
            lag_ms: w.cluster.watch_lag_ms,
            first_list_ms: w.cluster.initial_list_ms,
            naming: c.naming,
            double_enqueue: c.double_enqueue,
            expectations: c.expectations(),
            wait_for_cache_sync: c.wait_for_cache_sync,
            delete_surplus: c.delete_surplus,
            owner_references: c.owner_references,
            consistency_store: c.consistency_store(),
            update_status: c.update_status,
            hide_gc: s.hide_gc(),
            shown: Shown::of(s.scenario()),
            declared: s.scenario().controls.iter().filter_map(|c| crate::scenario::controls::known(c)).collect(),
            desired,
            owner_exists,
            desired_path,
            can_delete_pod: s.supports(UiAction::DeletePod),
            can_delete_owner: s.supports(UiAction::DeleteOwner(crate::sim::apiserver::Propagation::Background)),
            description: s.scenario().description.clone(),
            incident: s.scenario().incident.as_ref().map(|i| (i.title.clone(), i.url.clone())),
        },
        forks: s.edits().iter().map(|e| e.frame).collect(),
        held: if s.scenario().schedule.is_empty() {
            Vec::new()
        } else {
            s.frames()
                .iter()
                .filter_map(|f| match f.event {
                    crate::sim::frame::Event::WatchDelivered { held_ms, .. } if held_ms > 0 => Some((f.n as usize, held_ms)),
                    _ => None,
                })
                .collect()
        },
        // Looked for only where the scenario injects some.
        faults: if s.scenario().injects_faults() {
            s.frames().iter().filter_map(|f| crate::narrate::panels::fault_mark(f).map(|w| (f.n as usize, w))).collect()
        } else {
            Vec::new()
        },
        broke: s.last_frame().is_some_and(|f| !f.broke.is_empty()),
        incident: s.last_frame().is_none().then(|| s.scenario().incident.as_ref().map(|i| (i.title.clone(), i.url.clone()))).flatten(),
        cache_holds: 0,
        cache_lacks: 0,
        cluster_holds: 0,
        cluster_lacks: 0,
        cluster_kinds: Vec::new(),
        cache_kinds: Vec::new(),
        replicas: pv::replicas(w),
        deleted: Vec::new(),
    }
    .with_gaps()
    .with_deleted(frames)
}

impl Snapshot {
    /// Count what each side holds and lacks, from the rows.
    fn with_gaps(mut self) -> Self {
        self.cluster_holds = self.rows.iter().filter(|r| r.cluster_rv.is_some()).count();
        self.cluster_lacks = self.rows.len() - self.cluster_holds;
        self.cache_holds = self.rows.iter().filter(|r| r.cache_rv.is_some()).count();
        self.cache_lacks = self.rows.len() - self.cache_holds;
        // By `Kind::index`: the built-ins in display order, then the scenario's own.
        let mut by_kind = [(None, 0, 0); crate::sim::object::MAX_KINDS];
        for r in &self.rows {
            let k = &mut by_kind[r.kind.index()];
            k.0 = Some(r.kind);
            k.1 += usize::from(r.cluster_rv.is_some());
            k.2 += usize::from(r.cache_rv.is_some());
        }
        let held = |side: fn(&(Option<crate::sim::object::Kind>, usize, usize)) -> usize| {
            by_kind.iter().filter_map(|n| Some((n.0?, side(n)))).filter(|(_, n)| *n > 0).collect()
        };
        self.cluster_kinds = held(|n| n.1);
        self.cache_kinds = held(|n| n.2);
        self
    }

    /// With both panels empty, what was deleted to empty them (a scan of the
    /// frames, so only then).
    fn with_deleted(mut self, frames: &[crate::sim::frame::Frame]) -> Self {
        if self.rows.is_empty() {
            self.deleted = pv::deleted_by_kind(frames);
        }
        self
    }
}

/// The scenario field holding the owner's voices or replicas: the first
/// object or `apply` action that makes an Ensemble or a ReplicaSet.
fn desired_path(s: &Session) -> Option<String> {
    let sc = s.scenario();
    // A declared kind's count is under `spec` (`objects.0.spec.workers`).
    let field = |k: crate::sim::object::Kind| match (k, k.desired_field()) {
        (crate::sim::object::Kind::Declared(_), Some(f)) => format!("spec.{f}"),
        (_, f) => f.unwrap_or("replicas").to_string(),
    };
    let owner = |k: crate::sim::object::Kind| k.desired_field().is_some();
    if let Some(i) = sc.objects.iter().position(|o| owner(o.kind)) {
        return Some(format!("objects.{i}.{}", field(sc.objects[i].kind)));
    }
    sc.actions
        .iter()
        .enumerate()
        .find_map(|(i, a)| a.apply.as_ref().filter(|o| owner(o.kind)).map(|o| format!("actions.{i}.apply.{}", field(o.kind))))
}

/// Children in the cluster and in the cache over time, as two polylines in a
/// 3000×640 box (integer coordinates), at most ~240 points each.
fn plot(s: &Session) -> (String, String) {
    let samples = s.samples();
    let t_max = samples.last().map_or(1, |x| x.at_ms).max(1) as f64;
    let peak = samples.iter().map(|x| x.cluster.max(x.cache)).max().unwrap_or(1).max(1) as f64;
    let step = (samples.len() / 240).max(1);
    // Each point written into the line itself: a `format!` a point was two
    // allocations for each of ~500 points, at every frame drawn.
    let line = |pick: fn(&super::session::Sample) -> u32| {
        use std::fmt::Write;
        let mut out = String::with_capacity(10 * (samples.len() / step + 1));
        for x in samples.iter().step_by(step).chain(samples.last()) {
            if !out.is_empty() {
                out.push(' ');
            }
            let px = (3000.0 * x.at_ms as f64 / t_max) as u32;
            let py = (620.0 - 580.0 * f64::from(pick(x)) / peak) as u32;
            let _ = write!(out, "{px},{py}");
        }
        out
    };
    (line(|x| x.cluster), line(|x| x.cache))
}

impl Snapshot {
    /// What an empty Cluster or Cache panel says instead of rows (`cache_side`:
    /// the Cache's); `None` when that side holds something.
    pub fn empty_note(&self, cache_side: bool) -> Option<String> {
        let facts = crate::narrate::panels::EmptyFacts {
            rows: self.rows.len(),
            cluster_holds: self.cluster_holds,
            cache_holds: self.cache_holds,
            synced: self.synced,
            watch_list: self.watch_list,
            restart_at: self.restart_at,
            deleted: &self.deleted,
        };
        crate::narrate::panels::empty_note(&facts, cache_side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;
    use crate::sim::object::Kind;

    #[test]
    fn the_headers_count_by_kind_as_the_lab_does() {
        let generate = preset("over-create").unwrap().with_settings([("controller.naming", "generate")]).unwrap();
        let mut s = Session::new(generate);
        s.seek(usize::MAX);
        let end = snapshot(&s);
        assert_eq!(end.cluster_kinds, vec![(Kind::Ensemble, 1), (Kind::ConfigMap, 11)]);
        assert_eq!(pv::holds_words(&end.cluster_kinds), "1 Ensemble · 11 ConfigMaps");
        assert_eq!(end.cluster_holds, 12, "the objects, the Ensemble among them");
        let start = snapshot(&Session::new(preset("over-create").unwrap()));
        assert_eq!(pv::holds_words(&start.cache_kinds), "0 objects");
        // An empty cache before its first LIST does not "have every change".
        let note = crate::narrate::panels::empty_wire_note(start.stalled, start.restart_at, start.synced);
        assert!(!start.synced && note.starts_with("Nothing on the wire yet: the reflector watches from its first LIST"), "{note}");
        assert_eq!(crate::narrate::panels::empty_wire_note(None, None, true), "Nothing on the wire: the cache has every change.");
    }

    #[test]
    fn a_snapshot_follows_the_frame() {
        let mut s = Session::new(preset("replicaset-pressure").unwrap());
        let first = snapshot(&s);
        assert_eq!(first.position, 0);
        assert_eq!(first.controls.desired, Some(10), "the replicas it will be applied with");
        assert!(!first.controls.owner_exists);
        assert_eq!(first.controls.desired_path.as_deref(), Some("actions.0.apply.replicas"));
        assert!(first.controls.can_delete_pod);
        s.seek(200);
        let later = snapshot(&s);
        assert_eq!(later.position, 200);
        assert!(later.rows.iter().any(|r| r.kind == crate::sim::object::Kind::Pod));
        assert!(later.plot.0.split(' ').count() >= 2);
        s.seek(0);
        assert_eq!(snapshot(&s), first, "stepping back gives the same picture exactly");
    }

    #[test]
    fn the_declared_controls_come_from_the_scenario_in_its_order() {
        let s = Session::new(preset("over-create").unwrap());
        let c = snapshot(&s).controls;
        assert_eq!(c.declared, ["controller.naming", "cluster.watch_lag_ms", "controller.double_enqueue"]);
        assert!(c.is_declared("controller.naming") && c.is_declared("cluster.watch_lag_ms"));
        assert!(!c.is_declared("controller.expectations"), "over-create's story does not use Expectations");
        assert!(!c.is_declared("scale") && !c.is_declared("restart_controller"));
        let rs = snapshot(&Session::new(preset("replicaset-pressure").unwrap())).controls;
        assert!(rs.is_declared("delete_pod") && !rs.is_declared("controller.naming"));
        // A scenario that declares nothing shows everything, as the page did before.
        let mut bare = preset("over-create").unwrap();
        bare.controls.clear();
        let c = snapshot(&Session::new(bare)).controls;
        assert!(c.declared.is_empty());
        for what in ["controller.naming", "controller.expectations", "scale", "restart_controller", "cluster.api_latency_ms"] {
            assert!(c.is_declared(what), "{what}");
        }
    }

    /// Frames of `name` (with `sets`) to the first whose snapshot satisfies `pred`.
    fn snapshot_where(name: &str, sets: &[(&str, &str)], pred: impl Fn(&Snapshot) -> bool) -> Snapshot {
        let mut s = Session::new(preset(name).unwrap().with_settings(sets.iter().copied()).unwrap());
        loop {
            let snap = snapshot(&s);
            if pred(&snap) {
                return snap;
            }
            assert!(s.step_forward(), "{name}: no frame matched");
        }
    }

    #[test]
    fn an_empty_panel_says_why_it_is_empty() {
        // Before anything exists.
        let first = snapshot(&Session::new(preset("over-create").unwrap()));
        assert_eq!(first.empty_note(false).as_deref(), Some("No objects yet."));
        assert_eq!(first.empty_note(true).as_deref(), Some("No objects yet."));
        // empty-cache, just after the 50th DELETED reaches the cache: nothing on either side.
        let swept = snapshot_where("empty-cache", &[], |s| s.position > 1 && s.rows.is_empty());
        assert_eq!(swept.deleted, vec![(crate::sim::object::Kind::ConfigMap, 50)]);
        assert_eq!(swept.empty_note(false).as_deref(), Some("Empty: all 50 ConfigMaps were deleted."));
        assert_eq!(swept.empty_note(true).as_deref(), Some("Empty, as the cluster is: all 50 ConfigMaps were deleted."));
        // While the first LIST is on its way, the cache is empty and says why.
        let listing = snapshot_where("empty-cache", &[], |s| s.position > 0 && !s.synced);
        assert!(listing.empty_note(false).is_none(), "the cluster holds the seeds");
        let note = listing.empty_note(true).unwrap();
        assert!(
            note.starts_with("Empty. The first LIST has not reached this store") && note.ends_with("while the cluster holds 50."),
            "{note}"
        );
        // A watch-list's stream fills a temporary store: the cache waits for its bookmark.
        let streaming = snapshot_where("empty-cache", &[("controller.watch_list", "true")], |s| s.position > 0 && !s.synced);
        let note = streaming.empty_note(true).unwrap();
        assert_eq!(note, "Empty until the watch-list's initial-events-end BOOKMARK: its stream goes to a temporary store, so HasSynced is false while the cluster holds 50.");
        assert_eq!(streaming.stalled, None, "streaming, not stalled");
        // lost-bookmark: once the ConfigMap stream is in and its bookmark lost, that informer is stalled.
        let lost = snapshot_where("lost-bookmark", &[], |s| s.stalled.is_some());
        assert_eq!(lost.stalled, Some(crate::sim::object::Kind::ConfigMap));
        assert!(!lost.synced && lost.caption.contains("is lost on the wire"), "{}", lost.caption);
        assert!(crate::narrate::panels::empty_wire_note(lost.stalled, lost.restart_at, lost.synced)
            .contains("ConfigMap watch-list's initial-events-end BOOKMARK never came"));
        // CacheSyncTimeout: the process is down until the kubelet restarts it, a first crash at once.
        let down = snapshot_where("lost-bookmark", &[], |s| s.restart_at.is_some());
        assert_eq!((down.now_ms, down.restart_at), (120_000, Some(120_000)));
        assert_eq!(
            down.empty_note(true).as_deref(),
            Some("Empty: the process exited, and the kubelet restarts it at 120.0 s, with a new, empty cache. The cluster holds 21.")
        );
        assert_eq!(
            crate::narrate::panels::empty_wire_note(down.stalled, down.restart_at, down.synced),
            "Nothing on the wire: the process exited, and has no watch until the kubelet restarts it at 120.0 s."
        );
        // Teardown's end: the Ensemble and its 11 ConfigMaps, all deleted.
        let mut s = Session::new(preset("teardown").unwrap());
        s.seek(usize::MAX);
        let end = snapshot(&s);
        assert_eq!(end.empty_note(false).as_deref(), Some("Empty: every object was deleted (1 Ensemble, 11 ConfigMaps)."));
        // A side holding something says nothing.
        let mut s = Session::new(preset("over-create").unwrap());
        s.seek(usize::MAX);
        let full = snapshot(&s);
        assert!(full.deleted.is_empty(), "counted only when both panels are empty");
        assert_eq!((full.empty_note(false), full.empty_note(true)), (None, None));
    }
}
