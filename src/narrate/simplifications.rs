//! How the simulation differs from a real cluster, in words: the page's help
//! lists them, `docs/scenarios.md` carries them word for word (a test
//! checks), and each panel notes, in one line, those that affect it. Prose,
//! so it lives on the narration floor, not in `sim`.

/// Where a simplification shows: the panel that carries its one-line note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Panel {
    Cluster,
    Watch,
    Cache,
    Workqueue,
    Expectations,
    Reconcile,
}

/// One way the simulation differs from a real cluster.
#[derive(Debug, Clone, Copy, Hash)]
pub struct Simplification {
    /// The whole of it, for the help and the docs.
    pub text: &'static str,
    /// The panel it affects, the few words that panel shows, and the runs
    /// whose panel shows them (a note on pods says nothing to a run without one).
    pub note: Option<(Panel, &'static str, When)>,
}

/// The runs a panel's note applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum When {
    Always,
    /// The run has pods.
    Pods,
    /// The controller runs with `--double-enqueue`.
    DoubleEnqueue,
    /// The controller deletes surplus children (where the lister's order decides which).
    SurplusDeletes,
    /// The controller keeps v1.36's consistency store.
    ConsistencyStore,
}

/// What a run has, that a panel's note may depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RunTraits {
    pub pods: bool,
    pub double_enqueue: bool,
    pub surplus_deletes: bool,
    pub consistency_store: bool,
}

impl When {
    fn holds(self, run: &RunTraits) -> bool {
        match self {
            When::Always => true,
            When::Pods => run.pods,
            When::DoubleEnqueue => run.double_enqueue,
            When::SurplusDeletes => run.surplus_deletes,
            When::ConsistencyStore => run.consistency_store,
        }
    }
}

const fn s(text: &'static str, note: Option<(Panel, &'static str, When)>) -> Simplification {
    Simplification { text, note }
}

/// How this simulation differs from a real cluster, one sentence each: the
/// page's help lists them, `docs/scenarios.md` carries them word for word (a
/// test checks), and each panel notes, in one line, those that affect it.
pub const SIMPLIFICATIONS: &[Simplification] = &[
    s(
        "A pod's grace period (cluster.pod_grace_period_ms) is the kubelet's only work: it removes the pod when the period is over; pods are always Running and ready. Other kinds are deleted at once unless a finalizer holds them.",
        Some((Panel::Cluster, "pods are always Running and ready", When::Pods)),
    ),
    s(
        "The garbage collector removes references and finalizers with updates, not patches; every controllerRef, and no other reference, blocks a foreground deletion; a job is retried only when its delete meets a changed object (409), and then at once, not after the queue's backoff.",
        None,
    ),
    s(
        "An informer's LIST reaches its store in one step, as v1.36's AtomicFIFO replaces it (HasSynced at that frame); controller.fifo=delta pops it one item at a time as v1.28's DeltaFIFO, spread evenly over initial_list_ms. The garbage collector's informers are always atomic, and always LIST.",
        None,
    ),
    s(
        "With controller.watch_list, the initial state's ADDED events are sent evenly over initial_list_ms and each travels the watch's lag, so the first sync comes a lag later than a LIST's; a watch-list whose watch ends before its initial-events-end bookmark is opened again at once, as client-go's watchList loop does, without the reflector's backoff. The apiserver serves watch-list in every release here, 1.28's included, so the fall-back to a LIST that client-go makes where a server refuses it is not modelled.",
        None,
    ),
    s(
        "Watch events reach an informer one by one and in order, as v1.36's RealFIFO delivers them, and the handlers run as the store takes each one (client-go runs them a little later).",
        Some((Panel::Cache, "handlers run as the store takes each event", When::Always)),
    ),
    s(
        "A watch ends only when cluster.watch_timeout_ms (0 by default: never; every real watch request carries a 5 to 10 minute timeout) or the relist action says, and always with 410 Expired and a LIST, or a new watch-list with controller.watch_list (a real reflector re-watches after an ordinary timeout without one); it carries bookmarks only when cluster.bookmark_ms is set, on that beat (each up to cluster.bookmark_jitter_ms late, seeded), where the watch cache sends one about a minute apart. A dropped event is a fault you inject, lost silently, which a real watch cannot do (a gap ends it with 410 Expired and a relist); a cache behind it reads on only with the next event of its kind.",
        Some((Panel::Watch, "a dropped event is a fault you inject", When::Always)),
    ),
    s(
        "Every object lives in a namespace, the controller's unless it says another: a cluster-scoped kind a scenario declares (a Node) is drawn as a namespaced one. A recipe's label_owner step writes labels with an Update of the owner as it read it, unconditional unless the step asks a precondition, where node-feature-discovery sends a patch of the labels alone; in its scenario nothing else writes a Node, so the two do the same.",
        None,
    ),
    s(
        "A change of the watch lag moves the events already on the wire, as if the network had changed under them.",
        Some((Panel::Watch, "a lag change moves events already on the wire", When::Always)),
    ),
    s(
        "--double-enqueue adds a key again once after each successful reconcile, not after the reconcile that re-add causes.",
        Some((Panel::Workqueue, "--double-enqueue re-adds once per chain", When::DoubleEnqueue)),
    ),
    s(
        "A lister returns children in a Go map's order, shuffled with the run's seed, drawn only when a surplus delete depends on it.",
        Some((Panel::Reconcile, "a lister's Go-map order is drawn only for a surplus delete", When::SurplusDeletes)),
    ),
    s(
        "Only the controller's client waits for a client-side rate limit; kubectl, the garbage collector and kube-controller-manager's shared informers are not limited. A request still waiting for it when the controller restarts dies with the process, unsent; one already sent may still commit.",
        None,
    ),
    s(
        "Requests fail with 409 AlreadyExists, 409 Conflict, 404 NotFound, and the 500s, timeouts and Conflicts a scenario injects (fail_next); nothing is rejected by admission or validation.",
        None,
    ),
    s(
        "The ReplicaSet controller adopts no orphans, and its status (controller.update_status) has replicas and observedGeneration only; every pod is Running and ready, so surplus victims are ranked by age alone, newest first (upstream ranks pods in the same power-of-two age bucket by UID, a pseudorandom order: ActivePodsWithRanks with LogarithmicScaleDown).",
        None,
    ),
    s(
        "The consistency store records the controller's creates and status writes, and its deletes only from controller.kubernetes 1.38 (before, a typed Delete returns no resourceVersion; a for_each step's deletes are never recorded), and resourceVersions are always comparable.",
        Some((Panel::Expectations, "resourceVersions always compare", When::ConsistencyStore)),
    ),
    s(
        "Two replicas (controller.instances) elect a leader as kube-controller-manager does (a 2 s retry period with jitter, a 10 s renew deadline), but the Lease is not an object in the cluster (reading and writing it take no time), and a leader that is not frozen always renews in time.",
        None,
    ),
    s(
        "A recipe's wait_for_cache is woken when the cache holds what its creates made, or at its timeout, not every 100 ms as wait.PollUntilContextTimeout polls; a recipe's random victims are drawn with the run's seed.",
        None,
    ),
    s("A liveness invariant of the scenario's own (invariants) is checked once, at its by_ms, not when the controller settles.", None),
    s(
        "A kind of the scenario's own (kinds) has one spec field, its desired count, and its children are found by their label; a recipe over it runs with its controller kind's wiring (ensemble: a controller-runtime operator whose child events reach the owner named by that label; replicaset: a client-go controller mapping them by controllerRef), and its informer's first LIST takes initial_list_ms.",
        None,
    ),
    s(
        "Controllers beside a recipe (controller.alongside) each have their own caches and client, with the same lag, list times and rate limit, where controller-runtime's manager shares one cache and one client among its controllers; a restart restarts only the recipe's own.",
        None,
    ),
    s("While playing, quiet stretches with nothing in flight are skipped.", None),
];

/// The one-line note of `panel` in a run with these traits: the
/// simplifications that affect what it shows there.
pub fn panel_note(panel: Panel, run: &RunTraits) -> Option<String> {
    let notes: Vec<&str> =
        SIMPLIFICATIONS.iter().filter_map(|s| s.note.filter(|(p, _, when)| *p == panel && when.holds(run)).map(|(_, n, _)| n)).collect();
    (!notes.is_empty()).then(|| format!("Simplified: {}.", notes.join("; ")))
}
