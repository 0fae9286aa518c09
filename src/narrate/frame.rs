//! One plain sentence per frame, present tense, naming the object and the
//! number that matters. Pure functions of the frame, so the page, the runner's
//! trace and the tests all say the same thing. (This was `sim::caption`: the
//! frame carries the facts, and the words live here.)

use super::invariants::violation_words;
use super::units::{go_duration, ordinal, plural, secs};
use crate::sim::apiserver::{status_message, Actor, FailMode, Verb};
use crate::sim::controller_runtime::Read;
use crate::sim::controllers::{MissAction, Note, Plan, ReconcileError};
use crate::sim::frame::{Event, Frame, QueuedBy, Requeue, Watcher};
use crate::sim::object::Kind;

fn who(w: Watcher) -> &'static str {
    match w {
        Watcher::Controller => "the controller's cache",
        Watcher::GarbageCollector => "the garbage collector's cache",
    }
}

/// The caption of one frame: what happened, then what it broke, if anything.
/// With two replicas, the controller's own frames say whose they are.
pub fn caption(frame: &Frame) -> String {
    use crate::sim::invariants::{ALL_PODS_WITHIN_REPLICAS, CHILDREN_WITHIN_DESIRED};
    let mut s = event_caption(frame);
    if let Some(r) = frame.replica {
        s = format!("Replica {r}: {s}");
    }
    // With controllers beside the recipe, whose work it is (unless the sentence begins with it).
    if let Some(name) = frame.by.filter(|name| !s.starts_with(name)) {
        s = format!("{name}: {s}");
    }
    // Active children over the count means all of them are too: one sentence, both names.
    let both = frame.broke.iter().any(|v| v.invariant == CHILDREN_WITHIN_DESIRED);
    for v in &frame.broke {
        if both && v.invariant == ALL_PODS_WITHIN_REPLICAS {
            continue;
        }
        let also = if both && v.invariant == CHILDREN_WITHIN_DESIRED && frame.broke.iter().any(|w| w.invariant == ALL_PODS_WITHIN_REPLICAS)
        {
            format!(" (and {ALL_PODS_WITHIN_REPLICAS})")
        } else {
            String::new()
        };
        if v.first {
            s.push_str(&format!(" ⚠ This breaks {}{also}: {}.", v.invariant, violation_words(&v.facts)));
        } else {
            s.push_str(&format!(" ⚠ {} again{also}: {}.", v.invariant, violation_words(&v.facts)));
        }
    }
    s
}

fn event_caption(frame: &Frame) -> String {
    match &frame.event {
        Event::ControllerStarted { restart, wait_for_cache_sync, abandoned, watch_list } => {
            let start = match (*restart, *abandoned) {
                (false, _) => "The controller starts with an empty cache".to_string(),
                (true, 0) => "The controller restarts with an empty cache".to_string(),
                (true, n) => format!(
                    "The controller restarts with an empty cache; the old process's {} still waiting for its client-side rate limit died with it, unsent",
                    plural(n, "request", "requests")
                ),
            };
            let list = if *watch_list { "open a watch-list (sendInitialEvents=true)" } else { "LIST" };
            if *wait_for_cache_sync {
                format!("{start}; its informers {list}, and WaitForCacheSync holds the workers until HasSynced.")
            } else {
                format!("{start}; its informers {list}, and it does not wait for the cache: the workers run now.")
            }
        }
        Event::FaultArmed { kind, bookmark: true, .. } => {
            format!("A fault is armed: the next BOOKMARK on the controller's {kind} watch will be lost, as a proxy that filters objects without a name loses it.")
        }
        Event::FaultArmed { kind, event_type, .. } => match event_type {
            Some(t) => format!("A fault is armed: the next {t} event for a {kind} on the controller's watch will be lost.", t = t.as_str()),
            None => format!("A fault is armed: the next event for a {kind} on the controller's watch will be lost."),
        },
        Event::FailureArmed { verb, kind, mode, nth } => {
            let how = match mode {
                FailMode::InternalError => "fail with 500 InternalError, writing nothing",
                FailMode::Timeout => "time out (504 Timeout), writing nothing",
                FailMode::TimeoutCommitted => "time out (504 Timeout) although the apiserver commits it: the controller cannot tell",
                FailMode::Conflict => "fail with 409 Conflict, as if another writer had changed it first, writing nothing",
            };
            let (which, from_now) = if *nth == 1 { ("next".to_string(), "") } else { (ordinal(*nth), ", counted from now,") };
            format!("A fault is armed: the controller's {which} {} of a {kind}{from_now} will {how}.", verb.as_str())
        }
        Event::RelistStarted { kind } => {
            format!(
                "The controller's {kind} watch expires (410 Expired: too old resource version): the informer re-lists, and keys the new list lacks become tombstones."
            )
        }
        // No backoff: a watch-list that ended before its initial-events-end bookmark (client-go's watchList loop).
        Event::WatchExpired { kind, after_ms, backoff_ms: 0 } => format!(
            "The controller's {kind} watch-list ends after {} before its initial-events-end BOOKMARK came: client-go's watchList opens a new one at once, without the reflector's backoff, and streams the state again.",
            secs(*after_ms)
        ),
        Event::WatchExpired { kind, after_ms, backoff_ms } => format!(
            "The controller's {kind} watch ends after {} with 410 Expired (too old resource version): the reflector backs off {} before it lists again, and until then nothing new reaches this cache.",
            secs(*after_ms),
            secs(*backoff_ms)
        ),
        Event::Relisting { kind, backoff_ms: 0 } => format!("The {kind} reflector asks for the state again at once."),
        Event::Relisting { kind, backoff_ms } => format!(
            "After {} of backoff the {kind} reflector lists again; keys the new list lacks will reach the delete handler as tombstones.",
            secs(*backoff_ms)
        ),
        Event::Resynced { kind, n_objects, effects } => {
            let mut s = format!(
                "The {kind} informer's resync period is up: its {} go to the update handlers again, unchanged (same resourceVersion)",
                plural(*n_objects, "cached object", "cached objects")
            );
            if !effects.enqueued.is_empty() {
                s.push_str(&format!("; {} queued", effects.enqueued.join(", ")));
            }
            s.push('.');
            s
        }
        Event::CandidateStarted { replica, restart } => format!(
            "Replica {replica} {} as a candidate: it runs nothing until it holds the lease, and tries for it now and then every {} to {} (a retry period, plus jitter).",
            if *restart { "comes back" } else { "starts" },
            secs(crate::sim::world::RETRY_PERIOD_MS),
            secs(crate::sim::world::RETRY_PERIOD_MS + crate::sim::world::MAX_RETRY_JITTER_MS)
        ),
        Event::LeaderElected { replica, expired_after_ms } => match expired_after_ms {
            Some(ms) => format!(
                "Replica {replica} takes the lease, unrenewed for {}: it becomes the leader and starts the controller with an empty cache; its informers LIST.",
                secs(*ms)
            ),
            None => format!("Replica {replica} takes the lease: it becomes the leader and starts the controller; its informers LIST."),
        },
        Event::ReplicaPaused { replica, for_ms } => format!(
            "Replica {replica}, the leader, freezes for {} (SIGSTOP, a suspended VM, a starved CPU): it renews nothing, reads nothing, sends nothing, and does not know it.",
            secs(*for_ms)
        ),
        Event::ReplicaResumed { replica, leading: true } => format!("Replica {replica} runs again, still the leader."),
        Event::ReplicaResumed { replica, leading: false } => format!(
            "Replica {replica} runs again, from where it stopped: its workers carry on with what they had read and decided, though another replica holds the lease now. Its renewal finds the lease another's; it goes on trying, and leading, for its renew deadline ({}).",
            secs(crate::sim::world::RENEW_DEADLINE_MS)
        ),
        Event::LeadershipLost { replica } => format!(
            "Replica {replica} has failed to renew the lease for its renew deadline ({}): \"leaderelection lost\". It exits, and comes back as a candidate with an empty cache.",
            secs(crate::sim::world::RENEW_DEADLINE_MS)
        ),
        Event::ApiRequest { entry, throttled_ms, .. } => {
            let name = if entry.name.is_empty() { String::new() } else { format!(" {}", entry.name) };
            let generated = match &entry.generate_name {
                Some(p) if entry.status.is_success() => format!(" (generateName {p}: the server picked the name)"),
                _ => String::new(),
            };
            let verb = match entry.verb {
                Verb::Create => "creates",
                Verb::Get => "gets",
                Verb::List => "lists",
                Verb::Update => "updates",
                Verb::Delete => "deletes",
                Verb::Watch => "watches",
            };
            let what = match entry.verb {
                Verb::Watch => format!(
                    "opens a watch-list of {}s in {} (sendInitialEvents=true)",
                    entry.kind,
                    if entry.namespace.is_empty() { "all namespaces" } else { &entry.namespace }
                ),
                Verb::List => {
                    format!("lists {}s in {}", entry.kind, if entry.namespace.is_empty() { "all namespaces" } else { &entry.namespace })
                }
                Verb::Update if entry.status_write.is_some() => {
                    let st = entry.status_write.unwrap_or_default();
                    format!("writes the status of {}{name} (status.replicas {}, from its cache)", entry.kind, st.replicas)
                }
                _ => format!("{verb} {}{}", entry.kind, name),
            };
            let outcome = match (entry.verb, entry.status.code) {
                (Verb::Watch, _) => format!(
                    ": the apiserver streams {} as ADDED events, then the k8s.io/initial-events-end BOOKMARK at resourceVersion {}.",
                    plural(entry.items.unwrap_or(0), "object", "objects"),
                    entry.resource_version.unwrap_or(0)
                ),
                (Verb::List, _) => format!(
                    ": {} at resourceVersion {}.",
                    plural(entry.items.unwrap_or(0), "item", "items"),
                    entry.resource_version.unwrap_or(0)
                ),
                (_, 409) => format!(": {}, {}.", entry.status.label(), entry.message()),
                (_, 404) => format!(": 404 NotFound, {}.", entry.message()),
                (_, 500) => format!(": 500 InternalError, {}.", entry.message()),
                (_, 504) => format!(": 504 Timeout, {}; nothing was written.", entry.message()),
                (_, _) if entry.client_status.is_some() => format!(
                    ": {} at resourceVersion {}, but the answer is lost: the client sees {} ({}), and cannot tell the write happened.",
                    entry.status.label(),
                    entry.resource_version.unwrap_or(0),
                    entry.seen_status().label(),
                    entry.seen_message()
                ),
                (Verb::Delete, _) if entry.actor == Actor::Kubectl => ": 200 OK.".to_string(),
                (Verb::Delete, _) => ": 200 OK. To the apiserver this is an ordinary, intentional delete.".to_string(),
                _ => format!(": {}{} at resourceVersion {}.", entry.status.label(), generated, entry.resource_version.unwrap_or(0)),
            };
            let waited = if *throttled_ms >= crate::sim::world::LONG_THROTTLE_LATENCY_MS {
                format!(" It had waited {} for its client-side rate limit.", secs(*throttled_ms))
            } else {
                String::new()
            };
            // Actor names are identifiers (kubectl, pruner): kept lower-case, as logs print them.
            format!("{} {what}{outcome}{waited}", entry.actor)
        }
        Event::CacheFilled { watcher, kind, n_objects, first_sync, tombstones, effects, streamed } => {
            let what = if *streamed { "watch-list's streamed state" } else { "LIST" };
            let mut s = format!("The {kind} {what} reaches {}: {} in the store", who(*watcher), plural(*n_objects, "object", "objects"));
            if *first_sync {
                s.push_str(", and HasSynced turns true");
            }
            if !tombstones.is_empty() {
                s.push_str(&format!(
                    "; {} handed to the delete handler as DeletedFinalStateUnknown",
                    plural(tombstones.len() as u64, "tombstone", "tombstones")
                ));
            }
            if !effects.enqueued.is_empty() {
                s.push_str(&format!("; {} queued", effects.enqueued.join(", ")));
            }
            s.push('.');
            s
        }
        Event::WatchDelivered { watcher, event_type, object, sent_at_ms, held_ms, effects, .. } => {
            let mut s = format!(
                "{} {} {} reaches {} after {}",
                event_type.as_str(),
                object.kind,
                object.name,
                who(*watcher),
                secs(frame.at_ms.saturating_sub(*sent_at_ms))
            );
            if *held_ms > 0 {
                s.push_str(&format!(
                    ", {} of it held back by this run's schedule (a deviation from the default timing)",
                    secs(*held_ms)
                ));
            }
            for (key, which) in &effects.observed {
                s.push_str(&format!("; the {which} expectation of {key} drops by one"));
            }
            if !effects.enqueued.is_empty() {
                s.push_str(&format!("; {} queued", effects.enqueued.join(", ")));
            }
            if !effects.attempt_to_delete.is_empty() {
                s.push_str(&format!(
                    "; {} sent to attemptToDelete",
                    plural(effects.attempt_to_delete.len() as u64, "dependent", "dependents")
                ));
            }
            s.push('.');
            s
        }
        Event::ListItemPopped { kind, object, tombstone, n, of, first_sync, effects } => {
            let what = if *tombstone {
                format!("the tombstone of {} (the list lacks it) leaves", object.name)
            } else {
                format!("{} enters", object.name)
            };
            let mut s = format!("v1.28's DeltaFIFO pops entry {n} of {of} of the {kind} LIST: {what} the controller's store");
            if *first_sync {
                s.push_str(", and HasSynced turns true");
            } else if n < of {
                s.push_str(&format!(", {} still to pop, so HasSynced is false and a lister sees part of the list", of - n));
            }
            if !effects.enqueued.is_empty() {
                s.push_str(&format!("; {} queued", effects.enqueued.join(", ")));
            }
            s.push('.');
            s
        }
        Event::BookmarkDelivered { kind, resource_version, initial_events_end: true } => format!(
            "The k8s.io/initial-events-end BOOKMARK reaches the controller's {kind} reflector at resourceVersion {resource_version}: the initial state is complete, and what was streamed goes to the FIFO's Replace."
        ),
        Event::BookmarkDelivered { kind, resource_version, .. } => format!(
            "A BOOKMARK reaches the controller's {kind} cache: no object changes, but its store has now read the cluster up to resourceVersion {resource_version}, the mark v1.36's consistency store compares."
        ),
        Event::BookmarkDropped { kind, resource_version, initial_events_end: true, synced } => format!(
            "The k8s.io/initial-events-end BOOKMARK of the controller's {kind} watch-list (resourceVersion {resource_version}) is lost on the wire: the reflector keeps streaming into its temporary store and never calls Replace, {}.",
            if *synced { "so the cache keeps the state it had" } else { "so the informer does not sync until this watch ends and a new watch-list gets through" }
        ),
        Event::BookmarkDropped { kind, resource_version, .. } => format!(
            "A BOOKMARK on the controller's {kind} watch (resourceVersion {resource_version}) is lost on the wire: its store's progress mark stays where it was."
        ),
        Event::InitialEventDelivered { kind, event_type, object, n, of, initial, synced, .. } => {
            if *initial {
                let until = if *synced { "nothing reaches the cache" } else { "HasSynced stays false" };
                format!(
                    "{} {} {} of the watch-list's initial state reaches the reflector: it goes to the temporary store ({n} of {of}), not the cache; no handler runs, and {until} until the k8s.io/initial-events-end BOOKMARK.",
                    event_type.as_str(),
                    kind,
                    object.name
                )
            } else {
                format!(
                    "{} {} {} reaches the reflector, still waiting for the k8s.io/initial-events-end BOOKMARK: it goes to the temporary store ({n} objects), not the cache.",
                    event_type.as_str(),
                    kind,
                    object.name
                )
            }
        }
        Event::WatchDropped { event_type, object, .. } => format!(
            "{} {} {} is lost on the wire: the cache will never see it, and nothing will observe it.",
            event_type.as_str(),
            object.kind,
            object.name
        ),
        Event::CacheSyncTimedOut { waited_ms, restart_in_ms } => format!(
            "CacheSyncTimeout: after {} the caches have still not synced, so controller-runtime's Start fails (\"timed out waiting for cache to be synced\"), the manager exits, and the kubelet restarts it {}.",
            secs(*waited_ms),
            match restart_in_ms {
                0 => "at once (a first crash: CrashLoopBackOff waits from the second)".to_string(),
                ms => format!("in {} (CrashLoopBackOff: 10 s after the second crash, doubling to 5 minutes)", secs(*ms)),
            }
        ),
        Event::WorkersStarted { waited_for_sync, waited_ms } => {
            if *waited_for_sync {
                format!("WaitForCacheSync returns after {}: every informer has synced, the workers start.", secs(*waited_ms))
            } else {
                "The workers start.".to_string()
            }
        }
        Event::Requeued { keys, after: false } => format!("The rate-limit delay is over: {} back on the queue.", keys.join(", ")),
        Event::Requeued { keys, after: true } => {
            format!("The delay its RequeueAfter asked for is over: {} back on the queue.", keys.join(", "))
        }
        Event::ReconcileStarted { worker, key, n, double_enqueued, queued_by } => {
            let why = match (double_enqueued, queued_by) {
                (true, _) => " (the double-enqueue re-add)".to_string(),
                (false, Some(cause)) => format!(", queued by {}", queued_by_words(cause)),
                (false, None) => String::new(),
            };
            format!("Worker {worker} takes {key} off the queue: reconcile {n}{why}.")
        }
        Event::ReconcileNote { n, note, .. } => note_caption(*n, note),
        Event::ReconcileFinished { key, n, error, requeue, .. } => {
            let how = match (error, requeue) {
                (Some(e), Requeue::RateLimited { delay_ms }) => {
                    format!("fails ({}) and is requeued in {}", error_words(e), secs(*delay_ms))
                }
                (_, Requeue::DoubleEnqueue) => "succeeds, and --double-enqueue adds the key again at once".to_string(),
                (_, Requeue::After { delay_ms }) => format!("asks to be requeued after {}", secs(*delay_ms)),
                (Some(e), Requeue::Terminal) => format!(
                    "returns reconcile.TerminalError ({}): controller-runtime counts it in terminal_reconcile_errors and does not requeue the key; only a new event brings it back",
                    error_words(e)
                ),
                (Some(e), _) => format!("fails ({})", error_words(e)),
                (None, _) => "succeeds".to_string(),
            };
            format!("Reconcile {n} of {key} {how}.")
        }
        Event::ControllerExited { code, error, deleted } => match error {
            Some(e) => format!(
                "The program exits with status {code}: {}. It deleted {}.",
                error_words(e),
                plural(*deleted, "ConfigMap", "ConfigMaps")
            ),
            None => format!(
                "The program exits with status {code}, no error anywhere. It deleted {}.",
                plural(*deleted, "ConfigMap", "ConfigMaps")
            ),
        },
        Event::OrphansRemain { owner, children, since_ms } => format!(
            "{} {} was deleted {} ago and {} naming it remain: orphans nothing will collect.",
            owner.kind,
            owner.name,
            secs(frame.at_ms.saturating_sub(*since_ms)),
            plural(*children, "child", "children")
        ),
        Event::LivenessChecked { invariant, kind, owners, short } => {
            let children = super::units::children_of(*kind);
            let at = secs(frame.at_ms);
            match (short, owners) {
                // The violation's words, which follow, say what it found.
                (Some(_), _) => format!("{at}: the liveness invariant {invariant} is checked."),
                (None, 0) => format!("{at}: the liveness invariant {invariant} is checked. No {kind} is left to want any: it holds."),
                (None, 1) => format!("{at}: the liveness invariant {invariant} is checked. The {kind} has the {children} it wants: it holds."),
                (None, n) => format!("{at}: the liveness invariant {invariant} is checked. Each of the {n} {} has the {children} it wants: it holds.", super::units::kind_plural(*kind)),
            }
        }
    }
}

fn note_caption(n: u64, note: &Note) -> String {
    match note {
        Note::OwnerNotInCache { owner, forgets_expectations, live } => {
            let place = if *live { "the apiserver (a live GET)" } else { "the cache" };
            let then = if *forgets_expectations { "it forgets its expectations and returns" } else { "nothing to manage, it returns" };
            format!("Reconcile {n} finds no {owner} in {place}: {then}.")
        }
        Note::Returned { owner, found, desired, error, terminal } => format!(
            "Reconcile {n} of {owner}: its guard holds over what it read (found {found}, desired {desired}), so it returns here and does nothing after it: {}.",
            match (*error, *terminal) {
                (true, true) => "a terminal error, which nothing retries",
                (true, false) => "an error, which brings the key back after a rate-limited delay",
                _ => "nil, and the key waits for its next event",
            }
        ),
        Note::Picked { owner, child_kind, of, matched, acting, live } => {
            let kinds = format!("{child_kind}s");
            let read = plural(*of, &child_kind.to_string(), &kinds);
            let (them, how) = if *acting == 1 { ("it", "") } else { ("them", " one at a time,") };
            let which = if acting < matched { format!("the first {acting} ({acting} a sync at most: the rest wait for the next)") } else { them.to_string() };
            let source = if *live { "listed live, not the ones its count read," } else { "read" };
            format!("Reconcile {n} loops over the {read} it {source} for {owner}: {matched} match, and it deletes {which},{how} as it read {them}.")
        }
        Note::WaitsForCache { kind, waiting, timeout_ms } => format!(
            "Reconcile {n} waits for its cache to show the {} it just created, polling for up to {}: until then it neither returns nor lets go of its key.",
            plural(*waiting, &kind.to_string(), &format!("{kind}s")),
            secs(*timeout_ms)
        ),
        Note::ReadWaits { read, behind } => {
            let what = match read {
                Read::Get { kind, key } => format!("Get of {kind} {}", key.name),
                Read::List { kind } => format!("List of {kind}s"),
            };
            format!(
                "Reconcile {n}'s {what} waits: controller-runtime's read-your-writes client holds it until the cache has seen this client's own writes ({}).",
                crate::narrate::panels::behind_words(behind)
            )
        }
        Note::OwnerTerminating { owner } => {
            format!("Reconcile {n}: {owner} has a deletionTimestamp, it is being deleted, so it creates and deletes nothing for it.")
        }
        Note::Finalizer { owner, name, adding: true, read_rv } => format!(
            "Reconcile {n}: {owner}, as read at resourceVersion {read_rv}, lacks the finalizer {name}: it adds it with an Update at that resourceVersion (409 Conflict if the owner has changed since)."
        ),
        Note::Finalizer { owner, name, adding: false, read_rv } => format!(
            "Reconcile {n}: {owner} is being deleted and holds the finalizer {name}: it takes it off with an Update at resourceVersion {read_rv}, and the apiserver can finish the delete."
        ),
        Note::Listed { owner, child_kind, in_cache, in_cluster, unseen, live } => {
            let place = if *live { "lists live through the API reader" } else { "reads the cache" };
            let mut s = format!("Reconcile {n} {place}: {} for {owner}", plural(*in_cache, &child_kind.to_string(), &format!("{child_kind}s")));
            if in_cluster != in_cache {
                s.push_str(&format!(", while the cluster holds {in_cluster}"));
                if *unseen > 0 {
                    s.push_str(&format!(" ({} still on the wire)", plural(*unseen, "ADDED event", "ADDED events")));
                } else if in_cache < in_cluster {
                    s.push_str(" (its cache has not listed them yet)");
                }
            }
            s.push('.');
            s
        }
        Note::Labels { owner, child_kind, removing: true, keys, annotations, .. } => format!(
            "Reconcile {n} listed no {child_kind} for {owner}, so it takes its {} off with an Update: to this controller, none listed means none there.",
            marks(*keys, *annotations, "", "")
        ),
        Note::Labels { owner, child_kind, removing: false, keys, annotations, .. } => format!(
            "Reconcile {n}: {owner} lacks {} its {child_kind}s give it, so it sets {} with an Update.",
            marks(*keys, *annotations, "a ", "an "),
            if keys + annotations == 1 { "it" } else { "them" }
        ),
        Note::LabelsKept { owner, child_kind } => format!(
            "Reconcile {n} listed no {child_kind} for {owner}, but its handler has seen none deleted: a miss in the cache, not a delete, so {owner} keeps its labels (node-feature-discovery #2415)."
        ),
        Note::StaleSkip { owner, error } => format!(
            "Reconcile {n} of {owner} is skipped by the consistency store (KEP-5647): its {} cache has read up to resourceVersion {}, but it wrote {} ({error}). It returns the error, so the key comes back after a rate-limited delay.",
            error.resource, error.read_rv, error.wrote_rv
        ),
        Note::ExpectationsPending { owner, add, del, age_ms, inherited: false } => format!(
            "Reconcile {n}: expectations for {owner} are not satisfied (add {add}, del {del}, set {} ago), so it skips every create and delete and waits for its own events.",
            secs(*age_ms)
        ),
        Note::ExpectationsPending { owner, add, del, age_ms, inherited: true } => format!(
            "Reconcile {n}: expectations for {owner} are not satisfied (add {add}, del {del}): a sync of the earlier object under this name, another UID, set them {} ago. This one skips every create and delete and waits for events that were never its own.",
            secs(*age_ms)
        ),
        Note::ExpectationsExpired { owner, age_ms } => format!(
            "Reconcile {n}: the expectations for {owner} are {} old, past the timeout, so they count as satisfied and it acts on its cache.",
            secs(*age_ms)
        ),
        Note::Counted { in_cache, in_cluster, cluster_after, desired, unseen, plan, child_kind, expect, live, guarded, .. } => {
            let kinds = format!("{child_kind}s");
            let place = if *live { "lists live through the API reader" } else { "reads the cache" };
            let mut s = format!("Reconcile {n} {place}: {in_cache} of {desired} {kinds}");
            if in_cluster != in_cache {
                s.push_str(&format!(", while the cluster holds {in_cluster}"));
            }
            if *unseen > 0 {
                s.push_str(&format!(" ({} still on the wire)", plural(*unseen, "ADDED event", "ADDED events")));
            }
            let expect_s = if *expect { ", setting its expectations first" } else { "" };
            let (after, desired) = (*cluster_after, *desired);
            // A guard between the count and its writes may return first: the plan is conditional.
            let (it, will) = if *guarded { ("Unless its guard returns first, it", "would") } else { ("It", "will") };
            s.push_str(&match plan {
                Plan::Nothing => ". Nothing to do.".to_string(),
                Plan::Create(k) if after > desired => {
                    format!(". {it} creates {k}{expect_s}: the cluster {will} hold {after}, {} more than it wants.", after - desired)
                }
                Plan::Create(k) if after < in_cluster + k => {
                    // What the creates get is for their own frames to say: a loop
                    // may stop at its first error, and the reconcile's return counts them.
                    let taken = in_cluster + k - after;
                    format!(". {it} sets out to create the {k} it lacks{expect_s}, though the cluster already holds {taken} of those names.")
                }
                Plan::Create(k) => format!(". {it} creates {k}{expect_s}."),
                Plan::Delete(k) if after < desired => {
                    format!(". {it} deletes {k}{expect_s}: the cluster {will} hold {after}, {} fewer than it wants.", desired - after)
                }
                Plan::Delete(k) if in_cluster - after < *k => {
                    let gone = k - (in_cluster - after);
                    let deletes = match (gone, *guarded) {
                        (_, true) => if gone == 1 { "that delete would get" } else { "those deletes would get" },
                        (1, false) => "that delete gets",
                        _ => "those deletes get",
                    };
                    format!(". {it} deletes {k}{expect_s}; {} already gone, so {deletes} 404 NotFound.", plural(gone, "victim is", "victims are"))
                }
                Plan::Delete(k) => format!(". {it} deletes {k}{expect_s}."),
            });
            s
        }
        Note::CacheMiss { name, event, eta_ms, then, .. } => {
            let why = match (event, eta_ms) {
                (Some(t), Some(eta)) => format!("its {} event is still {} away", t.as_str(), secs(*eta)),
                _ => "the cache has not listed it".to_string(),
            };
            match then {
                MissAction::Delete => format!("The lister has no {name} ({why}), so the pruner deletes it."),
                MissAction::CreateAgain => format!("The cache does not contain {name} yet: {why}. The reconcile concludes its create did not happen and creates it again."),
            }
        }
        Note::CacheHit { name, .. } => format!("The lister has {name}: nothing to do."),
        Note::LiveListed { n_live, n_cached, .. } => {
            format!("The pruner has {} live from the apiserver; its cache holds {n_cached}. It looks each one up in its lister, and deletes the ones the lister cannot find.", plural(*n_live, "ConfigMap", "ConfigMaps"))
        }
    }
}

/// What queued a key, in words: "ADDED ConfigMap beta-voice-x", "the
/// ConfigMap LIST", "AddRateLimited after the error".
pub fn queued_by_words(cause: &QueuedBy) -> String {
    match cause {
        QueuedBy::Watch { event_type, kind, name } => format!("{} {kind} {name}", event_type.as_str()),
        QueuedBy::List { kind } => format!("the {kind} LIST"),
        QueuedBy::Tombstone { kind, name } => format!("the tombstone of {kind} {name}"),
        QueuedBy::ListPop { kind, name } => format!("the {kind} LIST's pop of {name}"),
        QueuedBy::Resync { kind } => format!("the {kind} resync"),
        QueuedBy::ProgramStart => "the program's start".to_string(),
        QueuedBy::DoubleEnqueue => "--double-enqueue".to_string(),
        QueuedBy::RateLimitedRetry => "AddRateLimited after the error".to_string(),
        QueuedBy::RequeueAfter => "its own RequeueAfter".to_string(),
    }
}

/// A reconcile's error as its `err.Error()` prints it: the apiserver's
/// message for a failed request, the consistency store's for a skipped sync.
pub fn error_words(error: &ReconcileError) -> String {
    match error {
        ReconcileError::Request { kind, name, status, cause, .. } => status_message(*status, *kind, name, *cause),
        ReconcileError::Stale(e) => e.to_string(),
        ReconcileError::CacheTimeout { kind, waiting, waited_ms } => format!(
            "timed out after {} waiting for the cache to show the {} it created",
            secs(*waited_ms),
            plural(*waiting, &kind.to_string(), &format!("{kind}s"))
        ),
        ReconcileError::Guard { found, desired } => format!("its guard held: found {found}, desired {desired}"),
    }
}

/// The controller's own log line, as it would print it (the Timeline's
/// right column): the ReplicaSet controller's in upstream's words
/// (`controller_utils.go`, `replica_set.go`), klog's key="value" form.
pub fn log_line(note: &Note) -> Option<String> {
    match note {
        Note::ExpectationsExpired { owner, age_ms } => {
            Some(format!("\"Controller expectations expired\" controller=\"{owner}\" age=\"{}\"", go_duration(*age_ms)))
        }
        Note::ExpectationsPending { owner, add, del, .. } => {
            Some(format!("\"Controller still waiting on expectations\" controller=\"{owner}\" add={add} del={del}"))
        }
        Note::Counted { owner, child_kind: Kind::Pod, desired, plan: Plan::Create(n), .. } => {
            Some(format!("\"Too few replicas\" replicaSet=\"{owner}\" need={desired} creating={n}"))
        }
        Note::Counted { owner, child_kind: Kind::Pod, desired, plan: Plan::Delete(n), .. } => {
            Some(format!("\"Too many replicas\" replicaSet=\"{owner}\" need={desired} deleting={n}"))
        }
        Note::CacheMiss { name, then: MissAction::Delete, .. } => Some(format!("DELETE (not in cache) {name}")),
        Note::CacheMiss { name, then: MissAction::CreateAgain, .. } => Some(format!("{name} not in cache after create: creating again")),
        Note::Counted { owner, plan: Plan::Create(n), .. } => Some(format!("{owner}: creating {n}")),
        Note::Counted { owner, plan: Plan::Delete(n), .. } => Some(format!("{owner}: deleting {n} surplus")),
        _ => None,
    }
}

/// Labels and annotations counted, one alone with its article (`a label`,
/// `label` with none), more with their number: `2 labels and an annotation`.
fn marks(labels: u32, annotations: u32, a: &str, an: &str) -> String {
    let one = |n: u32, article: &str, noun: &str| match n {
        0 => None,
        1 => Some(format!("{article}{noun}")),
        n => Some(format!("{n} {noun}s")),
    };
    let parts: Vec<String> = [one(labels, a, "label"), one(annotations, an, "annotation")].into_iter().flatten().collect();
    super::units::and_list(&parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_queued_a_key_in_words() {
        use crate::sim::apiserver::EventType;
        let added = QueuedBy::Watch { event_type: EventType::Added, kind: Kind::ConfigMap, name: "beta-voice-x".into() };
        assert_eq!(queued_by_words(&added), "ADDED ConfigMap beta-voice-x");
        assert_eq!(queued_by_words(&QueuedBy::RateLimitedRetry), "AddRateLimited after the error");
        assert_eq!(queued_by_words(&QueuedBy::List { kind: Kind::Pod }), "the Pod LIST");
    }
}
