//! Sentences about a run as a whole, computed from its frames and its world:
//! what a reconcile did, counted from the requests it sent, and what the run
//! came to, at its end. A frame's caption cannot know either; every figure
//! in them is read from the run. (This was `view::narration`.)

use super::frame::error_words;
use super::panels::status_label;
use super::units::{and_list, kind_noun, kind_plural, plural, secs, thousands};
use crate::scenario::{expect, owner_of, Check, Gauge, Measure, Scenario};
use crate::sim::apiserver::{Actor, Verb};
use crate::sim::frame::{Event, Frame, Requeue};
use crate::sim::object::{child_label, Kind};
use crate::sim::world::{ObjectLimitStop, World};

/// How far back the Timeline and [`reconcile_finished`] look (frames).
pub const LOOKBACK: usize = 5_000;

/// What a reconcile sent, by verb in the order first sent: each verb with
/// `(status code, how many)` as the client saw them.
pub type RequestsByVerb = Vec<(Verb, Vec<(u16, u64)>)>;

fn verb_noun(verb: Verb) -> (&'static str, &'static str) {
    match verb {
        Verb::Create => ("create", "creates"),
        Verb::Get => ("get", "gets"),
        Verb::List => ("list", "lists"),
        Verb::Update => ("update", "updates"),
        Verb::Delete => ("delete", "deletes"),
        Verb::Watch => ("watch", "watches"),
    }
}

/// What a reconcile sent, counted from the audit frames between its start
/// and its return: by verb in the order first sent, then by the status the
/// client saw, with how many. `frames` ends with its
/// [`Event::ReconcileFinished`] frame. `None` where its requests cannot be
/// told apart: another reconcile of the same process ran meanwhile, or the
/// start lies beyond the lookback.
pub fn reconcile_requests(frames: &[Frame]) -> Option<RequestsByVerb> {
    let last = frames.last()?;
    let Event::ReconcileFinished { n, .. } = &last.event else { return None };
    // The requests it sent (verb, the status the client saw), newest first.
    let mut sent: Vec<(Verb, u16)> = Vec::new();
    let mut started = false;
    for f in frames[..frames.len() - 1].iter().rev().take(LOOKBACK) {
        // Another process's (a replica, a controller beside the recipe) runs its own reconciles.
        if f.replica != last.replica || f.beside != last.beside {
            continue;
        }
        match &f.event {
            Event::ReconcileStarted { n: m, .. } if m == n => {
                started = true;
                break;
            }
            Event::ReconcileNote { n: m, .. } if m == n => {}
            // Another reconcile ran meanwhile: its requests and ours look alike.
            Event::ReconcileStarted { .. } | Event::ReconcileNote { .. } | Event::ReconcileFinished { .. } => return None,
            Event::ApiRequest { entry, step: Some(_), .. } if matches!(entry.actor, Actor::Controller(_)) => {
                sent.push((entry.verb, entry.seen_status().code));
            }
            _ => {}
        }
    }
    if !started {
        return None;
    }
    let mut by_verb: RequestsByVerb = Vec::new();
    for (verb, code) in sent.into_iter().rev() {
        let at = match by_verb.iter().position(|(v, _)| *v == verb) {
            Some(i) => i,
            None => {
                by_verb.push((verb, Vec::new()));
                by_verb.len() - 1
            }
        };
        let codes = &mut by_verb[at].1;
        match codes.iter_mut().find(|(c, _)| *c == code) {
            Some((_, k)) => *k += 1,
            None => codes.push((code, 1)),
        }
    }
    Some(by_verb)
}

/// The caption of a reconcile's last frame, with what it sent
/// ([`reconcile_requests`]): "Reconcile 2 of academy-lab/beta sent 1 create
/// (409 AlreadyExists) and fails: it returns the error (…), so the key is
/// requeued with backoff, again in 5 ms." `None` where the requests cannot
/// be told apart, or the frame broke an invariant: the core's caption says it then.
pub fn reconcile_finished(frames: &[Frame]) -> Option<String> {
    let last = frames.last()?;
    let Event::ReconcileFinished { key, n, error, requeue, .. } = &last.event else { return None };
    if !last.broke.is_empty() {
        return None;
    }
    let by_verb = reconcile_requests(frames)?;
    let tally: Vec<String> = by_verb
        .iter()
        .map(|(verb, codes)| {
            let total: u64 = codes.iter().map(|(_, k)| k).sum();
            let (one, many) = verb_noun(*verb);
            let answers = match codes.as_slice() {
                [(code, _)] => status_label(*code, *verb).to_string(),
                _ => codes.iter().map(|(c, k)| format!("{k} × {}", status_label(*c, *verb))).collect::<Vec<_>>().join(", "),
            };
            let answers = if total > 1 && codes.len() == 1 { format!("each {answers}") } else { answers };
            format!("{} ({answers})", plural(total, one, many))
        })
        .collect();
    let head = if tally.is_empty() {
        format!("Reconcile {n} of {key} sent no request")
    } else {
        format!("Reconcile {n} of {key} sent {}", and_list(&tally))
    };
    let s = match (error, requeue) {
        (Some(e), Requeue::RateLimited { delay_ms }) => {
            format!(
                "{head} and fails: it returns the error ({}), so the key is requeued with backoff, again in {}.",
                error_words(e),
                secs(*delay_ms)
            )
        }
        (Some(e), Requeue::Terminal) => format!(
            "{head} and fails for good: it returns reconcile.TerminalError ({}), which is counted and not retried; the key waits for a new event.",
            error_words(e)
        ),
        (Some(e), _) => format!("{head} and fails: it returns the error ({}).", error_words(e)),
        (None, Requeue::DoubleEnqueue) => format!("{head} and succeeds; --double-enqueue adds the key again at once."),
        (_, Requeue::After { delay_ms }) => format!("{head} and asks to be requeued in {}.", secs(*delay_ms)),
        (None, _) => format!("{head} and succeeds."),
    };
    Some(match last.replica {
        Some(r) => format!("Replica {r}: {s}"),
        None => s,
    })
}

/// What the run came to, said at its last frame: the children against what
/// their owner wants (or the program's exit), then the figure each of the
/// scenario's applicable checks measures, then every invariant it broke
/// ("Broken: children_within_desired at frame 19.") and those its checks
/// expect to hold that did ("Held: …").
/// `world` is the world after `frames`, the whole run.
pub fn end_summary(scenario: &Scenario, world: &World, frames: &[Frame]) -> String {
    let effective = expect::effective_settings(scenario, world);
    let checks: Vec<&Check> = scenario.expect.iter().filter(|c| c.applies(&effective)).collect();
    let at = secs(world.now_ms());
    let end =
        if world.stopped_at_frame_limit() { format!("The run stops at its frame limit, at {at}") } else { format!("End of run at {at}") };
    let (lead, stated_live) = lead(scenario, world, frames);
    let mut figures: Vec<String> = Vec::new();
    let mut held: Vec<&str> = Vec::new();
    for c in &checks {
        let Some(v) = c.measure(world, frames) else { continue };
        match c.measure {
            // The lead states this count already.
            Measure::Live if stated_live == Some((c.kind.unwrap_or(Kind::ConfigMap), v)) => continue,
            // The lead names a program's exit; say it here only if it did not.
            Measure::ExitCode if lead.contains(&format!("exits with status {v}")) => continue,
            Measure::Broken => {
                // Said with every invariant below.
                if v == 0 {
                    held.extend(c.invariant.as_deref());
                }
                continue;
            }
            _ => {}
        }
        // A count over a window of time is the author's to place ("reconcile
        // 3 creates 3"): a window in seconds means nothing to a learner. Said
        // in the check's own words where it holds, in the figure's where not.
        let windowed = c.from_ms.is_some() || c.to_ms.is_some();
        let phrase = if windowed && c.accepts(v) { Some(c.text.clone()) } else { figure_words(&c.gauge(), v) };
        let Some(phrase) = phrase else { continue };
        if !figures.contains(&phrase) {
            figures.push(phrase);
        }
    }
    // One broken at the last frame is said in full: the summary covers that frame's own caption.
    let last = frames.last().map(|f| f.n);
    let broken: Vec<String> = world
        .invariants
        .list
        .iter()
        .filter_map(|i| {
            let f = i.first_broken_frame?;
            Some(match (&i.facts, Some(f) == last) {
                (Some(facts), true) => format!("{} at frame {f}, the last ({})", i.name, super::invariants::violation_words(facts)),
                _ => format!("{} at frame {f}", i.name),
            })
        })
        .collect();
    held.dedup();
    let mut s = format!("{end}: {lead}.");
    if !figures.is_empty() {
        s.push_str(&format!(" {}.", figures.join("; ")));
    }
    if !broken.is_empty() {
        s.push_str(&format!(" Broken: {}.", broken.join(", ")));
    }
    if !held.is_empty() {
        s.push_str(&format!(" Held: {}.", held.join(", ")));
    }
    if let Some(p) = profile_words(&scenario.controller) {
        s.push_str(&format!(" {p}"));
    }
    s
}

/// The releases a run follows and what it set over them: "It follows
/// Kubernetes 1.36, with controller.fifo=delta set over it." `None` without a profile.
pub fn profile_words(c: &crate::sim::settings::ControllerSettings) -> Option<String> {
    use crate::sim::settings::word;
    let releases: Vec<String> =
        [c.kubernetes.map(|k| format!("Kubernetes {}", word(k))), c.controller_runtime.map(|v| format!("controller-runtime {}", word(v)))]
            .into_iter()
            .flatten()
            .collect();
    if releases.is_empty() {
        return None;
    }
    let overrides = c.overrides();
    Some(if overrides.is_empty() {
        format!("It follows {}.", releases.join(" and "))
    } else {
        format!("It follows {}, with {} set over it.", releases.join(" and "), overrides.join(", "))
    })
}

/// A check's measure as a figure in words: "12 ConfigMaps in the cluster",
/// "10 of its creates answered 409 AlreadyExists". `None` for a measure
/// that is no figure (`broken`, said as Held/Broken) or a check that names
/// too little to say it.
pub fn figure_words(check: &Gauge, value: u64) -> Option<String> {
    let v = value;
    Some(match check.measure {
        Measure::Live => format!("{} in the cluster", kind_noun(check.kind.unwrap_or(Kind::ConfigMap), v)),
        Measure::Peak => format!("{} at the peak", kind_noun(check.kind.unwrap_or(Kind::ConfigMap), v)),
        Measure::Requests => {
            let (Some(verb), Some(status)) = (check.verb, check.status) else { return None };
            let window = match (check.from_ms, check.to_ms) {
                (Some(a), Some(b)) => format!(" between {} and {}", secs(a), secs(b)),
                (Some(a), None) => format!(" from {} on", secs(a)),
                (None, Some(b)) => format!(" before {}", secs(b)),
                (None, None) => String::new(),
            };
            format!("{v} of its {} answered {}{window}", verb_noun(verb).1, status_label(status, verb))
        }
        Measure::Errors => format!("{} in the audit log", plural(v, "error", "errors")),
        Measure::ExitCode => format!("{v}, its exit status"),
        Measure::Broken => return None,
        Measure::CreatesAfterDelete => format!("{v} of its creates after its first delete"),
        Measure::StaleSyncSkips => format!("{} skipped by the consistency store", plural(v, "sync", "syncs")),
        Measure::Cached => format!("{} in the cache", kind_noun(check.kind.unwrap_or(Kind::ConfigMap), v)),
        Measure::Reconciles => plural(v, "reconcile", "reconciles"),
        Measure::ExpectedAdds => format!("{} expected and not yet seen", plural(v, "creation", "creations")),
        Measure::ExpectedDeletes => format!("{} expected and not yet seen", plural(v, "deletion", "deletions")),
        Measure::Requeues => format!("{} with backoff", plural(v, "requeue", "requeues")),
        Measure::HeldReads => format!("{} held until the cache caught up", plural(v, "read", "reads")),
        Measure::TerminalErrors => format!("{} (reconcile.TerminalError), never requeued", plural(v, "terminal error", "terminal errors")),
        Measure::LastWriteMs => format!("its last write at {v} ms"),
    })
}

/// What a gauge measures at a frame, and how it is said: the value over
/// `frames` (the run up to that frame, `world` the world after them) and
/// its [`figure_words`]. What a lesson asks of a run at any frame.
pub fn figure(check: &Gauge, world: &World, frames: &[Frame]) -> Option<(u64, String)> {
    let value = check.measure(world, frames)?;
    Some((value, figure_words(check, value)?))
}

/// The run's outcome in a clause, and the live count of a kind it states.
fn lead(scenario: &Scenario, world: &World, frames: &[Frame]) -> (String, Option<(Kind, u64)>) {
    let kind = world.controller.spec().child;
    let live = world.api.live_count(kind);
    if !world.controller.spec().loops() {
        let exit = frames.iter().rev().find_map(|f| match &f.event {
            Event::ControllerExited { code, error, deleted } => Some((*code, error.clone(), *deleted)),
            _ => None,
        });
        let left = world.api.objects_of(kind).map(|o| o.name.clone()).collect::<Vec<_>>();
        let left = match left.len() {
            0 => format!("no {kind} is left"),
            n @ 1..=3 => format!("{} left ({})", kind_noun(kind, n as u64), left.join(", ")),
            n => format!("{} left", kind_noun(kind, n as u64)),
        };
        let done = match exit {
            Some((code, Some(e), deleted)) => {
                let e = error_words(&e);
                format!("the pruner exits with status {code} ({e}), having deleted {}; {left}", kind_noun(kind, u64::from(deleted)))
            }
            Some((code, None, deleted)) => {
                format!("the pruner exits with status {code}, having deleted {}; {left}", kind_noun(kind, u64::from(deleted)))
            }
            None => format!("the pruner has not exited; {left}"),
        };
        return (done, Some((kind, live)));
    }
    let Some((owner_kind, key)) = owner_of(scenario) else {
        return (format!("{} in the cluster", kind_noun(kind, live)), Some((kind, live)));
    };
    let unit = owner_kind.desired_field().unwrap_or("replicas");
    match world.api.get(owner_kind, &key) {
        Some(o) if !o.is_terminating() => {
            let desired = u64::from(o.spec.desired().unwrap_or(0));
            let children = match owner_kind {
                Kind::ReplicaSet => u64::from(world.api.controlled_by(kind, o.uid).0),
                _ => child_label(owner_kind).map_or(live, |l| u64::from(world.api.count_labelled(kind, &key.namespace, l, &key.name))),
            };
            let mut s = format!("{} for {desired} {unit}", kind_noun(kind, children));
            if children > desired {
                s.push_str(&format!(", {} more than it wants", children - desired));
                if owner_kind == Kind::Ensemble && !world.controller.delete_surplus {
                    s.push_str("; nothing will clean them up");
                }
            } else if children < desired {
                s.push_str(&format!(", {} fewer than it wants", desired - children));
            } else {
                s.push_str(", as it wants");
            }
            (s, (children == live).then_some((kind, live)))
        }
        _ => {
            let collected = frames
                .iter()
                .filter(|f| {
                    matches!(&f.event, Event::ApiRequest { entry, .. }
                        if entry.actor == Actor::GarbageCollector && entry.verb == Verb::Delete && entry.kind == kind && entry.status.code == 200)
                })
                .count() as u64;
            let gone = format!("{owner_kind} {} is deleted", key.name);
            let s = match (live, collected) {
                (0, 0) => format!("{gone}, and no {kind} is left"),
                (0, c) => format!("{gone}, and the garbage collector deleted all {c} of its {}: 0 are left", kind_plural(kind)),
                (n, 0) => format!("{gone}, and {} remain, nothing deleting them", kind_noun(kind, n)),
                (n, c) => format!("{gone}; the garbage collector deleted {}, and {} remain", kind_noun(kind, c), kind_noun(kind, n)),
            };
            (s, Some((kind, live)))
        }
    }
}

/// Why a run stopped at its object limit, in words: the counts, then the
/// likely cause, read from the world where it stopped (the controller's
/// cache against the cluster, and what the schedule holds back).
pub fn object_limit_words(world: &World, stop: &ObjectLimitStop) -> String {
    let head = format!(
        "The run stops here: the cluster holds {} objects; the limit is {} (the work budget's), so the run goes no further.",
        thousands(stop.live),
        thousands(stop.limit)
    );
    let kinds = world.controller.spec().watches;
    let Some(&kind) = kinds.last() else { return head };
    let cluster = stop.by_kind.iter().find(|(k, _)| *k == kind).map_or(0, |(_, n)| *n);
    let cache = world.controller_informer(kind).map_or(0, |i| i.len() as u64);
    let actor = world.spec.name();
    let sent = world.events_sent[kind.index()];
    let held: Vec<_> = world.schedule().iter().filter(|d| d.kind == kind && d.nth <= sent).copied().collect();
    let cache_says = format!("{actor}'s cache holds {} of the {} {kind}s", thousands(cache), thousands(cluster));
    let cause = if !held.is_empty() && cache < cluster {
        format!(
            "{cache_says}: {} by this run's schedule, and a watch lets no event overtake one held back, so the controller \
             keeps creating {kind}s it never sees.",
            super::explore::schedule_words(&held[..1])
        )
    } else if cache < cluster {
        format!("{cache_says}: it keeps creating against a cache that lags the cluster.")
    } else {
        format!("{cache_says}: the controller created more than its owners ask for.")
    };
    format!("{head} {cause}")
}
