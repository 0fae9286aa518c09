//! The short values the panels show beside their rows and lines: a status's
//! label, when an event in flight arrives, what a pseudo-code line read, an
//! empty panel's note, the caption before anything happened.

use super::units::kind_noun;
use super::units::{plural, secs};
use crate::scenario::Scenario;
use crate::sim::apiserver::{ControllerKind, Status, Verb};
use crate::sim::controller_runtime::{Behind, Read};
use crate::sim::controllers::Note;
use crate::sim::frame::{Event, Frame, Requeue};
use crate::sim::object::Kind;
use crate::sim::world::{Runtime, World};

/// What an empty Cluster or Cache panel's note is computed from.
#[derive(Debug, Clone, Copy)]
pub struct EmptyFacts<'a> {
    /// Rows the panels show.
    pub rows: usize,
    /// Objects the cluster and the controller's cache hold.
    pub cluster_holds: usize,
    pub cache_holds: usize,
    /// The controller's cache has synced.
    pub synced: bool,
    /// Its informers take their first state by watch-list.
    pub watch_list: bool,
    /// The controller process is down until the kubelet restarts it then.
    pub restart_at: Option<u64>,
    /// Successful deletes by kind so far.
    pub deleted: &'a [(Kind, u64)],
}

/// A short label for an HTTP status of a `verb`, as kubectl users read it: a
/// create's 409 is AlreadyExists, an update's or a delete's is Conflict.
pub fn status_label(code: u16, verb: Verb) -> &'static str {
    match (code, verb) {
        (200, _) => Status::OK.label(),
        (201, _) => Status::CREATED.label(),
        (404, _) => Status::NOT_FOUND.label(),
        (409, Verb::Create) => Status::ALREADY_EXISTS.label(),
        (409, _) => Status::CONFLICT.label(),
        (500, _) => Status::INTERNAL_ERROR.label(),
        (504, _) => Status::TIMEOUT.label(),
        _ => "error",
    }
}

/// When an event in flight arrives, in words: "in 1.9 s", or "held" for one
/// the learner holds (its time is the end of time).
pub fn arrival_words(eta_ms: u64) -> String {
    if eta_ms >= 1 << 62 {
        "held".to_string()
    } else {
        format!("in {}", secs(eta_ms))
    }
}

/// How the Cluster and Cache lists keep the lit row in view while playing:
/// at most every `min_ms`, and every `max_ms` from ×`from_speed`.
pub fn following_words(min_ms: u64, max_ms: u64, from_speed: &str) -> String {
    format!(
        "While playing, Cluster and Cache scroll to the row the frame acts on at most every {}, and less often the faster the run plays: every {} from ×{from_speed}, where a long list would jump too often to read. Paused or stepped, they scroll to it at once.",
        secs(min_ms),
        secs(max_ms)
    )
}

/// What the lit line just read or did, in the code's own terms.
pub fn step_value(kind: ControllerKind, frame: &Frame) -> Option<String> {
    let children = if kind.spec().has_pods() { "pods" } else { "children" };
    Some(match &frame.event {
        Event::ReconcileStarted { key, n, double_enqueued, .. } => {
            let why = if *double_enqueued { " · the --double-enqueue re-add" } else { "" };
            if !kind.spec().loops() {
                "the program's one pass begins".to_string()
            } else {
                format!("key = {key} · reconcile {n}{why}")
            }
        }
        Event::ReconcileNote { note, .. } => match note {
            Note::OwnerNotInCache { forgets_expectations, live, .. } => {
                let from = if *live { " from the apiserver" } else { "" };
                let then = if *forgets_expectations { "expectations forgotten" } else { "nothing to manage" };
                format!("err = NotFound{from} · {then}, return")
            }
            Note::OwnerTerminating { .. } => "DeletionTimestamp != nil · nothing to manage, return".to_string(),
            Note::Finalizer { adding: true, read_rv, .. } => format!("finalizer missing · Update(owner) at rv {read_rv}"),
            Note::Finalizer { adding: false, read_rv, .. } => format!("deleting · RemoveFinalizer, Update(owner) at rv {read_rv}"),
            Note::Listed { in_cache, live: true, .. } => format!("len(children) = {in_cache} · a live LIST: the apiserver's count"),
            Note::Listed { in_cache, in_cluster, .. } => {
                format!("len(children) = {in_cache} · the cache has {in_cache}, the cluster {in_cluster}")
            }
            Note::Labels { removing: true, keys, annotations, .. } => {
                format!("len(children) = 0 · {} removed, Update(owner)", keys + annotations)
            }
            Note::Labels { removing: false, keys, annotations, .. } => format!("{} to set · Update(owner)", keys + annotations),
            Note::LabelsKept { .. } => "len(children) = 0, no delete seen · labels kept".to_string(),
            Note::StaleSkip { error, .. } => {
                format!("err: the {} cache read rv {} < written rv {} · return err", error.resource, error.read_rv, error.wrote_rv)
            }
            Note::ExpectationsPending { add, del, inherited: false, .. } => {
                format!("false · add {add}, del {del} still expected · return nil")
            }
            Note::ExpectationsPending { add, del, inherited: true, .. } => {
                format!("false · add {add}, del {del}, set by an earlier object of this name · return nil")
            }
            Note::ExpectationsExpired { age_ms, .. } => format!("true · the record expired after {}", secs(*age_ms)),
            Note::Counted { in_cache, live: true, .. } => format!("len({children}) = {in_cache} · a live LIST: the apiserver's count"),
            Note::Counted { in_cache, in_cluster, .. } => {
                format!("len({children}) = {in_cache} · the cache has {in_cache}, the cluster {in_cluster}")
            }
            Note::ReadWaits { read, behind } => {
                let call = match read {
                    Read::Get { .. } => "r.Get",
                    Read::List { .. } => "r.List",
                };
                format!("{call} waits · {}", behind_words(behind))
            }
            Note::LiveListed { n_live, n_cached, .. } => format!("len(live.Items) = {n_live} · the cache holds {n_cached}"),
            Note::CacheMiss { name, eta_ms, .. } => match eta_ms {
                Some(eta) => format!("lister.Get({name}) = NotFound · its event is {} away", secs(*eta)),
                None => format!("lister.Get({name}) = NotFound · the cache has not listed it"),
            },
            Note::CacheHit { name, .. } => format!("lister.Get({name}) = found"),
            Note::Returned { found, desired, error, terminal, .. } => {
                let returns = match (*error, *terminal) {
                    (true, true) => "TerminalError",
                    (true, false) => "err",
                    _ => "nil",
                };
                format!("found {found}, desired {desired} · true · return {returns}")
            }
            Note::Picked { of, matched, acting, .. } => format!("{matched} of {of} match · Delete {acting}"),
            Note::WaitsForCache { waiting, timeout_ms, .. } => {
                format!("{waiting} not in the cache yet · polls for up to {}", secs(*timeout_ms))
            }
        },
        Event::ApiRequest { entry, .. } => {
            let name = if entry.name.is_empty() { format!("{}s", entry.kind) } else { entry.name.to_string() };
            format!("{} {name} · {}", entry.verb.as_str(), entry.status.label())
        }
        Event::ReconcileFinished { error, requeue, .. } => match (error, requeue) {
            (Some(_), Requeue::RateLimited { delay_ms }) => {
                format!("return err · AddRateLimited: again in {}", secs(*delay_ms))
            }
            (_, Requeue::DoubleEnqueue) => "return nil · queue.Add(key): one more reconcile".to_string(),
            (_, Requeue::After { delay_ms }) => format!("RequeueAfter · Forget, again in {}", secs(*delay_ms)),
            (_, Requeue::Terminal) => "return TerminalError · not requeued".to_string(),
            (Some(_), _) => "return err".to_string(),
            (None, _) => "return nil · Forget(key)".to_string(),
        },
        Event::ControllerExited { code, deleted, .. } => format!("exit status {code} · {deleted} deleted"),
        _ => return None,
    })
}

/// With two replicas: whose store the Cache panel shows (the replica that
/// last took the lease) and where each stands: `replica B's store · B leads;
/// A waits for the lease`.
pub fn replicas(world: &World) -> Option<String> {
    let peer = world.peer.as_ref()?;
    let state = |r: &Runtime| {
        let holds = r.holds(world.lease) && r.leading;
        match (r.paused_until.is_some(), holds, r.leading) {
            (true, true, _) => "leads, frozen",
            (true, false, _) => "is frozen, and believes it leads",
            (false, true, _) => "leads",
            (false, false, true) => "acts, not knowing it lost the lease",
            (false, false, false) => "waits for the lease",
        }
    };
    let (a, b) = (world.ctl.replica_name(), peer.replica_name());
    Some(format!("replica {a}'s store · {a} {}; {b} {}", state(&world.ctl), state(peer)))
}

/// The caption for the current position. Frame 0, before anything happened,
/// says how to begin: the scenario's start line, or, without one, its story
/// (its description) and how to start.
pub fn current_caption(frame: Option<&Frame>, scenario: &Scenario) -> String {
    let (start, description) = (scenario.start.trim(), scenario.description.trim());
    match frame {
        None if !start.is_empty() => start.to_string(),
        None if description.is_empty() => "Nothing has happened yet. Press Play, or → to step one frame.".to_string(),
        None => format!("{description} Press Play, or → to step one frame."),
        Some(f) => super::caption(f),
    }
}

/// What a Cluster or Cache panel holds, by kind, as the labs count:
/// "1 Ensemble · 11 ConfigMaps"; "0 objects" when it holds nothing.
pub fn holds_words(by_kind: &[(Kind, usize)]) -> String {
    holds_parts(by_kind).join(" · ")
}

/// [`holds_words`]' parts, a kind each, for a header that wraps between kinds.
pub fn holds_parts(by_kind: &[(Kind, usize)]) -> Vec<String> {
    if by_kind.is_empty() {
        return vec!["0 objects".to_string()];
    }
    by_kind.iter().map(|(k, n)| kind_noun(*k, *n as u64)).collect()
}

/// Said with the first events on their way, where a learner first can lay hands on them.
pub const HANDS_HINT: &str = "Each event on its way has three buttons in the Watch panel: ⇥ deliver it now, ‖ hold it back, ✕ drop it.";

/// What an empty Cluster or Cache panel says instead of rows (`cache_side`:
/// the Cache's), from a snapshot's facts; `None` when the side holds
/// something. Nothing there at all is "No objects yet." only if nothing was
/// ever deleted: after a mass delete it says what went ("Empty: all 50
/// ConfigMaps were deleted.").
pub fn empty_note(facts: &EmptyFacts, cache_side: bool) -> Option<String> {
    let (holds, other) = if cache_side { (facts.cache_holds, facts.cluster_holds) } else { (facts.cluster_holds, facts.cache_holds) };
    if facts.rows > 0 && holds > 0 {
        return None;
    }
    if facts.rows == 0 {
        let noun = kind_noun;
        let gone = match facts.deleted {
            [] => return Some("No objects yet.".to_string()),
            [(kind, 1)] => format!("the one {kind} was deleted"),
            [(kind, n)] => format!("all {} were deleted", noun(*kind, *n)),
            many => {
                let parts: Vec<String> = many.iter().map(|(k, n)| noun(*k, *n)).collect();
                format!("every object was deleted ({})", parts.join(", "))
            }
        };
        return Some(if cache_side { format!("Empty, as the cluster is: {gone}.") } else { format!("Empty: {gone}.") });
    }
    Some(match cache_side {
        true if facts.restart_at.is_some() => format!(
            "Empty: the process exited, and the kubelet restarts it at {}, with a new, empty cache. The cluster holds {other}.",
            secs(facts.restart_at.unwrap_or(0))
        ),
        true if !facts.synced && facts.watch_list => format!(
            "Empty until the watch-list's initial-events-end BOOKMARK: its stream goes to a temporary store, so HasSynced is false while the cluster holds {other}."
        ),
        true if !facts.synced => format!(
            "Empty. The first LIST has not reached this store, so HasSynced is false: a lister finds nothing here, while the cluster holds {other}."
        ),
        true => format!("Empty, though the cluster holds {other}: their events are still on the wire."),
        false => format!("Empty: every object is gone from the cluster, while the cache still holds {other}."),
    })
}

/// What the Watch panel says with nothing on the wire: that the cache has
/// every change, unless it has not synced yet (its reflector watches from
/// its first LIST's resourceVersion, so nothing flows before that LIST
/// lands), or a watch-list waits for a bookmark that was lost.
pub fn empty_wire_note(stalled: Option<Kind>, restart_at: Option<u64>, synced: bool) -> String {
    match (stalled, restart_at) {
        (_, Some(at)) => format!("Nothing on the wire: the process exited, and has no watch until the kubelet restarts it at {}.", secs(at)),
        (None, None) if !synced => {
            "Nothing on the wire yet: the reflector watches from its first LIST's resourceVersion, and that LIST has not reached the cache."
                .to_string()
        }
        (None, None) => "Nothing on the wire: the cache has every change.".to_string(),
        (Some(kind), None) => format!(
            "Nothing on the wire, yet the {kind} watch-list's initial-events-end BOOKMARK never came: it was lost, and what the watch-list streamed waits in a temporary store, not the cache."
        ),
    }
}

/// What a held read waits for: `the cache has seen rv 12 · this client wrote rv 15`.
pub fn behind_words(b: &Behind) -> String {
    let mut parts = vec![format!("the cache has seen rv {}", b.seen_rv)];
    if let Some(rv) = b.wants_rv {
        parts.push(format!("this client wrote rv {rv}"));
    }
    if b.deletes > 0 {
        parts.push(format!("{} not yet seen", plural(b.deletes, "delete", "deletes")));
    }
    if b.writes > 0 {
        parts.push(format!("{} in flight", plural(b.writes, "write", "writes")));
    }
    parts.join(" · ")
}

/// A fault the scenario injected, as its mark on the scrubber says it: a
/// request made to fail (`fail_next`), or an event lost on the wire. `None`
/// for any other frame.
pub fn fault_mark(f: &Frame) -> Option<String> {
    let what = match &f.event {
        Event::ApiRequest { entry, .. } if entry.injected => {
            let name = if entry.name.is_empty() { format!("{}s", entry.kind) } else { format!("{} {}", entry.kind, entry.name) };
            format!("the {} of {name} made to fail: {}", entry.verb.as_str(), entry.status.label())
        }
        Event::WatchDropped { event_type, object, .. } => {
            format!("the {} event of {} {} lost on the wire", event_type.as_str(), object.kind, object.name)
        }
        Event::BookmarkDropped { kind, initial_events_end: true, .. } => {
            format!("the {kind} watch-list's initial-events-end bookmark lost")
        }
        Event::BookmarkDropped { kind, .. } => format!("a {kind} bookmark lost"),
        _ => return None,
    };
    Some(format!("Frame {}: {what}", f.n))
}
