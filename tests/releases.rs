//! Releases as profiles (`controller.kubernetes`, `controller.controller_runtime`)
//! and watch-list's initial sync (issue 21, items 3 and 4): each profile sets
//! the settings it governs, a scenario may still set them, and the run says
//! which; a watch-list streams the first state and syncs only at its
//! `k8s.io/initial-events-end` BOOKMARK, and a lost one leaves the workers
//! waiting.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use cachescope::report::Profile;
use cachescope::scenario::{preset, Scenario};
use cachescope::sim::apiserver::{Actor, Verb};
use cachescope::sim::frame::Event;
use cachescope::sim::informer::Fifo;
use cachescope::sim::object::Kind;
use support::{check, run_scenario, Run};

/// The informers' requests for their state, by verb.
fn reflector_requests(run: &Run, verb: Verb) -> usize {
    run.frames
        .iter()
        .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == verb && matches!(entry.actor, Actor::Informer(_))))
        .count()
}

fn popped(run: &Run) -> usize {
    run.frames.iter().filter(|f| matches!(f.event, Event::ListItemPopped { .. })).count()
}

fn streamed(run: &Run) -> usize {
    run.frames.iter().filter(|f| matches!(f.event, Event::InitialEventDelivered { initial: true, .. })).count()
}

fn workers_started(run: &Run) -> Option<u64> {
    run.frames.iter().find(|f| matches!(f.event, Event::WorkersStarted { .. })).map(|f| f.at_ms)
}

/// The same over-create with a watch-list: the Ensemble informer's first
/// state is one ADDED per object and the `initial-events-end` BOOKMARK; the
/// workers start only after it, and the run makes the same 11 ConfigMaps.
#[test]
fn a_watch_list_streams_the_first_state_and_syncs_at_its_initial_events_end_bookmark() {
    let list = check("over-create", &[("controller.naming", "generate")]);
    let stream = check("over-create", &[("controller.naming", "generate"), ("controller.watch_list", "true")]);
    assert_eq!(reflector_requests(&list, Verb::Watch), 0);
    assert_eq!(reflector_requests(&stream, Verb::List), 0, "no LIST at all");
    assert_eq!(reflector_requests(&stream, Verb::Watch), 2, "one watch-list per informer: Ensemble and ConfigMap");
    let end = stream
        .frames
        .iter()
        .position(|f| matches!(f.event, Event::BookmarkDelivered { initial_events_end: true, .. }))
        .expect("the initial-events-end bookmark arrives");
    // Nothing reaches a cache, and no worker starts, before the bookmark.
    let before = &stream.frames[..end];
    assert!(!before.iter().any(|f| matches!(f.event, Event::CacheFilled { .. } | Event::WorkersStarted { .. })));
    let filled = stream.frames[end..].iter().find(|f| matches!(f.event, Event::CacheFilled { first_sync: true, .. })).unwrap();
    assert_eq!(filled.at_ms, stream.frames[end].at_ms, "Replace at the bookmark");
    // The stream travels the watch: the first sync comes a watch lag later than the LIST's.
    let lag = stream.scenario.cluster.watch_lag_ms;
    assert!(lag > 0);
    assert_eq!(workers_started(&stream).unwrap(), workers_started(&list).unwrap() + lag, "{}", stream.captions(1, 12));
    assert_eq!((list.report.live("ConfigMap"), stream.report.live("ConfigMap")), (11, 11));
}

/// The bookmark lost on the wire, as a proxy that drops nameless objects
/// lost it (gravitational/teleport#64188): the informer streams on, never
/// synced, and WaitForCacheSync holds the workers for the whole run.
#[test]
fn a_lost_initial_events_end_bookmark_leaves_the_informer_never_synced_and_the_workers_waiting() {
    let lost = |sets: &[(&str, &str)]| {
        let mut doc = preset("over-create").unwrap().with_settings(sets.iter().copied()).unwrap().to_value();
        doc["actions"]
            .as_array_mut()
            .unwrap()
            .insert(0, serde_json::json!({"at_ms": 0, "drop_next_event": {"kind": "Ensemble", "bookmark": true}}));
        run_scenario(Scenario::from_value(doc).unwrap())
    };
    let run = lost(&[("controller.watch_list", "true")]);
    assert!(run.frames.iter().any(|f| matches!(f.event, Event::BookmarkDropped { kind: Kind::Ensemble, initial_events_end: true, .. })));
    assert_eq!(workers_started(&run), None, "{}", run.captions(1, 30));
    assert_eq!(run.report.metrics["ensemble-controller"].reconciles, 0);
    assert_eq!(run.report.live("ConfigMap"), 0, "nothing reconciled, nothing created");
    assert!(!run.world.controller_synced());
    // The Ensemble beta was applied after the stream began: it reached the temporary store, not the cache.
    assert!(run
        .frames
        .iter()
        .any(|f| matches!(&f.event, Event::InitialEventDelivered { initial: false, object, .. } if object.name == "beta")));
    assert_eq!(run.world.ctl.caches.informer(Kind::Ensemble).unwrap().len(), 0);

    // `TestWatchList`, "check if stopping a watcher before sync results in
    // creating a new watch-list request": when the watch times out, the
    // reflector opens a new watch-list, whose bookmark gets through.
    let retried = lost(&[("controller.watch_list", "true"), ("cluster.watch_timeout_ms", "10000")]);
    let started = workers_started(&retried).expect("the second watch-list syncs");
    assert!(started > 10_000, "{started}");
    let ensemble_watches = retried
        .frames
        .iter()
        .filter(|f| f.at_ms <= started)
        .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == Verb::Watch && entry.kind == Kind::Ensemble))
        .count();
    assert_eq!(ensemble_watches, 2, "{}", retried.captions(1, 40));
    assert_eq!(reflector_requests(&retried, Verb::List), 0, "no fall-back to LIST");
    assert!(retried.report.metrics["ensemble-controller"].reconciles > 0 && retried.report.live("ConfigMap") >= 4, "then it reconciles");

    // With a LIST there is no such bookmark: the same fault waits for a periodic one that never comes.
    let listed = lost(&[]);
    assert!(workers_started(&listed).is_some());
    assert_eq!(listed.report.live("ConfigMap"), 4, "deterministic names: the lab's 4");
}

/// A profile sets what it governs: 1.28 is a DeltaFIFO and a LIST, 1.36 an
/// AtomicFIFO and a watch-list with the ReplicaSet's consistency store on.
#[test]
fn the_kubernetes_profile_sets_the_fifo_the_watch_list_and_the_replicaset_s_store() {
    let old = check("staleness-mitigation-replicaset", &[("controller.consistency_store", "null"), ("controller.kubernetes", "1.28")]);
    let c = &old.scenario.world_init().controller;
    assert_eq!((c.fifo(), c.watch_list(), c.consistency_store()), (Fifo::Delta, false, false));
    assert_eq!(streamed(&old), 0);
    assert!(reflector_requests(&old, Verb::List) >= 2 && reflector_requests(&old, Verb::Watch) == 0);
    assert_eq!(old.report.metrics["replicaset-controller"].stale_sync_skips, 0, "no store in 1.28");
    assert_eq!(old.report.peak_live["Pod"], 11, "#129795 as it was: {:?}", old.report);

    for release in ["1.36", "1.37", "1.38"] {
        let new = check("staleness-mitigation-replicaset", &[("controller.consistency_store", "null"), ("controller.kubernetes", release)]);
        let c = &new.scenario.world_init().controller;
        assert_eq!((c.fifo(), c.watch_list(), c.consistency_store()), (Fifo::Atomic, true, true), "{release}");
        assert!(reflector_requests(&new, Verb::Watch) >= 2 && reflector_requests(&new, Verb::List) == 0, "{release}");
        assert!(new.report.metrics["replicaset-controller"].stale_sync_skips >= 1, "{release}: the store is on");
        assert_eq!(new.report.peak_live["Pod"], 6, "{release}: {:?}", new.report);
        let p = new.report.profile.as_ref().unwrap();
        assert_eq!((p.kubernetes, p.controller_runtime, p.overrides.len()), (Some(release), None, 0));
    }
}

/// With the v1.36 profile the store protects creates and not deletes: a
/// ReplicaSet relying on the store alone (expectations off, and no status
/// write whose record would cover the ReplicaSet cache), scaled to 2 and
/// then to 3 under a 2 s lag, syncs on a cache that still shows the pods it
/// deleted, and deletes them again: 404 NotFound. Its creates were never doubled.
#[test]
fn under_the_1_36_profile_the_store_protects_creates_and_not_deletes() {
    let scenario: Scenario = serde_json::from_value(serde_json::json!({
        "name": "scale-down", "seed": 1, "until_ms": 40000,
        "cluster": {"watch_lag_ms": 2000, "api_latency_ms": 20, "initial_list_ms": 300},
        "controller": {"kind": "replicaset", "kubernetes": "1.36", "expectations": false, "update_status": false},
        "actions": [
            {"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 8}},
            {"at_ms": 15000, "scale": {"kind": "ReplicaSet", "name": "web", "to": 2}},
            {"at_ms": 15500, "scale": {"kind": "ReplicaSet", "name": "web", "to": 3}}
        ]
    }))
    .unwrap();
    assert!(scenario.world_init().controller.consistency_store(), "the profile turns it on");
    let run = run_scenario(scenario);
    let r = &run.report;
    assert_eq!(r.peak_live["Pod"], 8, "creates protected: {r:?}");
    assert!(r.metrics["replicaset-controller"].stale_sync_skips >= 1, "{r:?}");
    assert_eq!(r.live("Pod"), 3);
    assert!(r.api_count("delete", 404) >= 1, "deletes are not: {:?}\n{}", r.api, run.captions(110, 160));
}

/// "with fifo=delta it never skips": the profile's store on top of a
/// DeltaFIFO reads no progress mark and fails open; the run names the override.
#[test]
fn under_a_profile_a_set_fifo_is_an_override_and_on_delta_the_store_never_skips() {
    let run = check(
        "staleness-mitigation-replicaset",
        &[("controller.consistency_store", "null"), ("controller.kubernetes", "1.36"), ("controller.fifo", "delta")],
    );
    assert_eq!(run.report.metrics["replicaset-controller"].stale_sync_skips, 0);
    assert_eq!(run.report.peak_live["Pod"], 11);
    assert_eq!(
        run.report.profile,
        Some(Profile { kubernetes: Some("1.36"), controller_runtime: None, overrides: vec!["controller.fifo=delta".into()] })
    );
    let summary = cachescope::narrate::run::end_summary(&run.scenario, &run.world, &run.frames);
    assert!(summary.ends_with(" It follows Kubernetes 1.36, with controller.fifo=delta set over it."), "{summary}");
    let json = serde_json::to_value(&run.report).unwrap();
    assert_eq!(json["profile"]["overrides"][0], "controller.fifo=delta");
    // Without a profile the run says none.
    assert!(check("staleness-mitigation-replicaset", &[]).report.profile.is_none());
}

/// An operator's informers are its own client-go's, pinned by its
/// controller-runtime release: upgrading the cluster changes nothing in it.
#[test]
fn a_cluster_upgrade_changes_nothing_in_an_operator_its_controller_runtime_release_does() {
    let plain = check("over-create", &[("controller.naming", "generate")]);
    for release in ["1.28", "1.36", "1.37", "1.38"] {
        let upgraded = check("over-create", &[("controller.naming", "generate"), ("controller.kubernetes", release)]);
        assert_eq!(upgraded.report.trace_hash, plain.report.trace_hash, "kubernetes {release}");
    }
    let world = |cr: &str| {
        let s = preset("over-create").unwrap().with_settings([("controller.controller_runtime", cr)]).unwrap();
        s.world_init().controller
    };
    // 0.22 pins client-go v0.34: a FIFO that pops, a LIST, and no priority queue yet.
    let c = world("0.22");
    assert_eq!((c.fifo(), c.watch_list(), c.priority_queue()), (Fifo::Delta, false, false));
    let c = world("0.23");
    assert_eq!((c.fifo(), c.watch_list(), c.priority_queue()), (Fifo::Delta, true, true));
    for cr in ["0.24", "0.25"] {
        let c = world(cr);
        assert_eq!((c.fifo(), c.watch_list(), c.priority_queue()), (Fifo::Atomic, true, true), "{cr}");
    }
    let run = check("over-create", &[("controller.naming", "generate"), ("controller.controller_runtime", "0.22")]);
    assert!(popped(&run) == 0 || reflector_requests(&run, Verb::List) == 2);
    assert_eq!(reflector_requests(&run, Verb::Watch), 0);
    let run = check("over-create", &[("controller.naming", "generate"), ("controller.controller_runtime", "0.24")]);
    assert_eq!((reflector_requests(&run, Verb::Watch), reflector_requests(&run, Verb::List)), (2, 0));
}

/// What a release does not have is refused, naming the field.
#[test]
fn a_release_without_the_feature_is_refused_naming_the_field() {
    let err = |sets: &[(&str, &str)]| preset("over-create").unwrap().with_settings(sets.iter().copied()).unwrap_err();
    let e = err(&[("controller.controller_runtime", "0.24"), ("controller.read_your_writes", "true")]);
    assert_eq!(e.field, "controller.read_your_writes");
    assert!(e.message.contains("0.24") && e.message.contains("0.25"), "{}", e.message);
    let e = preset("staleness-mitigation-replicaset").unwrap().with_settings([("controller.controller_runtime", "0.24")]).unwrap_err();
    assert_eq!((e.field.as_str(), e.value.as_deref()), ("controller.controller_runtime", Some("\"0.24\"")));
    let e = err(&[("controller.kubernetes", "1.29")]);
    assert_eq!(e.field, "controller.kubernetes");
    let mut doc = preset("over-create").unwrap().to_value();
    doc["actions"]
        .as_array_mut()
        .unwrap()
        .insert(0, serde_json::json!({"at_ms": 0, "drop_next_event": {"kind": "Ensemble", "type": "ADDED", "bookmark": true}}));
    let e = Scenario::from_value(doc).unwrap_err();
    assert_eq!(e.field, "actions[0].drop_next_event.type", "{e:?}");
}

/// controller-runtime gives up where client-go waits: its `CacheSyncTimeout`
/// (two minutes) ends a Start whose caches never synced, the manager exits,
/// and the restarted process's new watch-list gets its bookmark through.
#[test]
fn under_controller_runtime_a_cache_that_never_syncs_times_out_and_the_process_restarts() {
    let lost = |runtime: &str| {
        let sets =
            [("controller.naming", "generate"), ("controller.watch_list", "true"), ("controller.runtime", runtime), ("until_ms", "200000")];
        let mut doc = preset("over-create").unwrap().with_settings(sets).unwrap().to_value();
        doc["actions"]
            .as_array_mut()
            .unwrap()
            .insert(0, serde_json::json!({"at_ms": 0, "drop_next_event": {"kind": "Ensemble", "bookmark": true}}));
        run_scenario(Scenario::from_value(doc).unwrap())
    };
    let run = lost("controller-runtime");
    let timed_out = run.frames.iter().find(|f| matches!(f.event, Event::CacheSyncTimedOut { .. })).expect("it times out");
    // A first crash: the kubelet's doBackOff restarts it at once.
    assert!(matches!(timed_out.event, Event::CacheSyncTimedOut { waited_ms: 120_000, restart_in_ms: 0 }), "{:?}", timed_out.event);
    let restart = run.frames.iter().find(|f| matches!(f.event, Event::ControllerStarted { restart: true, .. })).unwrap();
    assert_eq!(restart.at_ms, timed_out.at_ms);
    assert!(workers_started(&run).unwrap() > restart.at_ms);
    assert!(run.report.metrics["ensemble-controller"].reconciles > 0 && run.report.live("ConfigMap") >= 4, "{:?}", run.report);
    // A client-go program's WaitForCacheSync has no timeout: it waits for ever.
    let waits = lost("client-go");
    assert!(!waits
        .frames
        .iter()
        .any(|f| matches!(f.event, Event::CacheSyncTimedOut { .. } | Event::ControllerStarted { restart: true, .. })));
    assert_eq!(workers_started(&waits), None);
}

/// A relist sent while the first watch-list is still unanswered: only the
/// request the reflector waits for streams; the overtaken answer is dropped,
/// so no second stream lands on a DeltaFIFO that is not waiting for one.
#[test]
fn a_relist_before_the_watch_list_is_answered_streams_once() {
    let mut doc =
        preset("over-create").unwrap().with_settings([("controller.watch_list", "true"), ("controller.fifo", "delta")]).unwrap().to_value();
    doc["actions"].as_array_mut().unwrap().insert(0, serde_json::json!({"at_ms": 0, "relist": {"kind": "Ensemble"}}));
    let run = run_scenario(Scenario::from_value(doc).unwrap());
    let ends = run
        .frames
        .iter()
        .filter(|f| matches!(f.event, Event::BookmarkDelivered { kind: Kind::Ensemble, initial_events_end: true, .. }))
        .count();
    assert_eq!(ends, 1, "{}", run.captions(1, 20));
    assert!(workers_started(&run).is_some());
    assert_eq!(run.report.live("ConfigMap"), 4);
}

/// A proxy that loses every bookmark: each restarted process times out
/// again, and the kubelet's CrashLoopBackOff (`doBackOff`) restarts the
/// first crash at once and waits 10 s, then 20 s, from the second.
fn crash_looping(until_ms: u64, extra: &[serde_json::Value]) -> Run {
    let mut doc = preset("lost-bookmark").unwrap().to_value();
    doc["until_ms"] = until_ms.into();
    let actions = doc["actions"].as_array_mut().unwrap();
    // Each restarted process's watch-list loses its bookmark too (a fault is armed for the process running).
    for at_ms in [120_001, 250_001].into_iter().filter(|at| *at < until_ms) {
        actions.push(serde_json::json!({"at_ms": at_ms, "drop_next_event": {"kind": "ConfigMap", "bookmark": true}}));
    }
    actions.extend(extra.iter().cloned());
    run_scenario(Scenario::from_value(doc).unwrap())
}

#[test]
fn do_back_off_restarts_a_first_crash_at_once_and_waits_from_the_second() {
    let run = crash_looping(500_000, &[]);
    let crashes: Vec<(u64, u64)> = run
        .frames
        .iter()
        .filter_map(|f| match f.event {
            Event::CacheSyncTimedOut { restart_in_ms, .. } => Some((f.at_ms, restart_in_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(crashes, [(120_000, 0), (240_000, 10_000), (370_000, 20_000)], "{}", run.captions(1, 60));
    let restarts: Vec<u64> =
        run.frames.iter().filter(|f| matches!(f.event, Event::ControllerStarted { restart: true, .. })).map(|f| f.at_ms).collect();
    assert_eq!(restarts, [120_000, 250_000, 390_000]);
}

/// The kubelet's restart after CacheSyncTimeout belongs to the process that
/// exited: restarted by hand before it fires, that process is not restarted again.
#[test]
fn a_restart_by_hand_before_the_kubelet_s_is_the_only_one() {
    let run = crash_looping(300_000, &[serde_json::json!({"at_ms": 245000, "restart_controller": {}})]);
    let restarts: Vec<u64> =
        run.frames.iter().filter(|f| matches!(f.event, Event::ControllerStarted { restart: true, .. })).map(|f| f.at_ms).collect();
    assert_eq!(restarts, [120_000, 245_000], "{}", run.captions(1, 60));
    // The process started by hand is the one that runs: its watch-list syncs and beta gets its 4.
    assert!(workers_started(&run).is_some_and(|at| at > 245_000));
    assert_eq!(run.report.live("ConfigMap"), 24);
}

/// From v1.38 a DELETE answers with a resourceVersion (kubernetes #138724),
/// and the ReplicaSet controller's consistency store records it as it does
/// a create's (`WroteAt`): `EnsureReady` holds the next sync until the
/// cache has seen the DELETEDs. Before, the sync a double enqueue adds
/// reads the pods it has just deleted and deletes them again: 404s.
#[test]
fn wrote_at_records_a_delete_from_1_38_so_ensure_ready_holds_the_next_sync() {
    let doc = serde_json::json!({
        "name": "rs-scale-down", "until_ms": 20000, "cluster": {"watch_lag_ms": 1000},
        "controller": {"kind": "replicaset", "expectations": false, "update_status": false, "double_enqueue": true},
        "objects": [{"kind": "ReplicaSet", "name": "web", "replicas": 5}],
        "actions": [{"at_ms": 5000, "scale": {"kind": "ReplicaSet", "name": "web", "to": 1}}]
    });
    let run = |release: &str| {
        let s = Scenario::from_value(doc.clone()).unwrap().with_settings([("controller.kubernetes", release)]).unwrap();
        assert!(s.controller.consistency_store(), "{release}: the ReplicaSet's store is on");
        run_scenario(s)
    };
    let deletes = |r: &Run, status: u16| {
        r.frames
            .iter()
            .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == Verb::Delete && entry.status.code == status))
            .count()
    };
    let before = run("1.37");
    assert_eq!((deletes(&before, 200), deletes(&before, 404)), (4, 4), "1.37: the retry deletes its own deletes again");
    let after = run("1.38");
    assert_eq!((deletes(&after, 200), deletes(&after, 404)), (4, 0), "1.38: the store waits for the DELETEDs");
    assert!(
        after.report.metrics["replicaset-controller"].stale_sync_skips > before.report.metrics["replicaset-controller"].stale_sync_skips
    );
    assert_eq!(after.report.live("Pod"), 1);
}

/// client-go's `watchList` loops on a stream that ends (or answers 410)
/// before its initial-events-end bookmark: the next watch-list request
/// goes out at once, with no word to the reflector's backoff manager.
#[test]
fn watch_list_reopens_at_once_a_stream_that_ends_before_its_bookmark() {
    let mut doc = preset("over-create")
        .unwrap()
        .with_settings([("controller.watch_list", "true"), ("cluster.watch_timeout_ms", "10000")])
        .unwrap()
        .to_value();
    doc["actions"]
        .as_array_mut()
        .unwrap()
        .insert(0, serde_json::json!({"at_ms": 0, "drop_next_event": {"kind": "Ensemble", "bookmark": true}}));
    let run = run_scenario(Scenario::from_value(doc).unwrap());
    let ended = run
        .frames
        .iter()
        .find(|f| matches!(f.event, Event::WatchExpired { kind: Kind::Ensemble, .. }))
        .expect("the first watch-list's stream ends");
    assert!(matches!(ended.event, Event::WatchExpired { backoff_ms: 0, .. }), "{:?}", ended.event);
    let watches: Vec<u64> = run
        .frames
        .iter()
        .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == Verb::Watch && entry.kind == Kind::Ensemble))
        .map(|f| f.at_ms)
        .collect();
    assert!(watches.len() >= 2, "{watches:?}");
    // Sent at the expiry; its answer is the api latency later.
    let latency = run.scenario.cluster.api_latency_ms;
    assert!(watches[1] <= ended.at_ms + latency, "reopened at once: {watches:?}, the stream ended at {}", ended.at_ms);
}
