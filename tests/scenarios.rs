//! The labs' numbers, reproduced by the presets (issue: "What it must show").
#![cfg(not(target_arch = "wasm32"))]

mod support;

use cachescope::sim::apiserver::{Actor, ControllerKind, Verb};
use cachescope::sim::controllers::Note;
use cachescope::sim::frame::Event;
use cachescope::sim::invariants::{CHILDREN_WITHIN_DESIRED, NO_DELETE_BEFORE_SYNC, NO_ORPHANS};
use cachescope::sim::object::{Kind, ObjectKey};
use support::check;

#[test]
fn over_create_with_deterministic_names_makes_exactly_four_and_409s() {
    let run = check("over-create", &[]);
    assert_eq!(run.report.live("ConfigMap"), 4, "{:?}", run.report);
    assert_eq!(run.report.peak_live["ConfigMap"], 4);
    assert!(run.report.api_count("create", 409) >= 1, "{:?}", run.report.api);
    assert!(run.report.invariants[CHILDREN_WITHIN_DESIRED].held);
}

#[test]
fn over_create_with_generated_names_makes_eleven_at_every_lag_from_half_a_second() {
    for lag in ["500", "1000", "2000", "3500", "5000"] {
        for seed in ["1", "2", "3", "7"] {
            let run = check("over-create", &[("controller.naming", "generate"), ("cluster.watch_lag_ms", lag), ("seed", seed)]);
            assert_eq!(run.report.live("ConfigMap"), 11, "lag {lag}, seed {seed}: {:?}", run.report);
        }
    }
    let run = check("over-create", &[("controller.naming", "generate")]);
    assert_eq!(run.report.live("ConfigMap"), 11, "{:?}", run.report);
    assert_eq!(run.report.api_count("create", 409), 0, "generated names never collide here");
    let broken = run.report.invariants[CHILDREN_WITHIN_DESIRED].first_broken_frame.expect("over-creation is flagged");
    // The frame that broke it is a controller's 201 create.
    let f = &run.frames[broken as usize - 1];
    assert!(
        matches!(&f.event, Event::ApiRequest { entry, .. } if entry.status.code == 201 && entry.actor == Actor::Controller(cachescope::sim::apiserver::Agent::of(ControllerKind::Ensemble)))
    );
}

#[test]
fn over_create_at_lag_zero_makes_four_in_both_schemes() {
    for naming in ["deterministic", "generate"] {
        let run = check("over-create", &[("controller.naming", naming), ("cluster.watch_lag_ms", "0")]);
        assert_eq!(run.report.live("ConfigMap"), 4, "{naming}: {:?}", run.report);
        assert_eq!(run.report.peak_live["ConfigMap"], 4, "{naming}");
    }
}

#[test]
fn the_second_reconcile_reads_a_cache_without_its_own_creates() {
    let run = check("over-create", &[("controller.naming", "generate")]);
    let counted: Vec<(u32, u32)> = run
        .frames
        .iter()
        .filter_map(|f| match &f.event {
            Event::ReconcileNote { note: Note::Counted { in_cache, unseen, .. }, .. } => Some((*in_cache, *unseen)),
            _ => None,
        })
        .collect();
    assert_eq!(counted[0], (0, 0), "reconcile 1 sees nothing, nothing is on the wire");
    assert_eq!(counted[1], (0, 4), "reconcile 2 sees nothing while its 4 ADDED events are on the wire");
    // 4 + 4 + 3: reconcile 3, queued by the first ADDED event to arrive, reads 1 of 4.
    assert_eq!(counted[2], (1, 7), "reconcile 3 sees 1 while 7 are on the wire");
    let third = run.frames.iter().find(|f| matches!(&f.event, Event::ReconcileStarted { n: 3, .. })).unwrap();
    let caption = cachescope::narrate::caption(third);
    assert!(caption.contains("queued by ADDED ConfigMap beta-voice-"), "{caption}");
    let read = run.frames.iter().find(|f| matches!(&f.event, Event::ReconcileNote { n: 3, note: Note::Counted { .. }, .. })).unwrap();
    let caption = cachescope::narrate::caption(read);
    assert_eq!(
        caption,
        "Reconcile 3 reads the cache: 1 of 4 ConfigMaps, while the cluster holds 8 (7 ADDED events still on the wire). It creates 3: the cluster will hold 11, 7 more than it wants."
    );
}

#[test]
fn the_frame_that_over_creates_says_so() {
    let run = check("over-create", &[("controller.naming", "generate")]);
    let broken = run.report.invariants[CHILDREN_WITHIN_DESIRED].first_broken_frame.unwrap();
    let frame = &run.frames[broken as usize - 1];
    assert_eq!(frame.broke.len(), 1);
    assert!(frame.broke[0].first);
    let caption = cachescope::narrate::caption(frame);
    assert!(caption.contains("⚠ This breaks children_within_desired: Ensemble beta wants 4 and now has 5"), "{caption}");
    // Every later over-create is flagged too, as a repeat.
    let repeats = run.frames.iter().filter(|f| f.broke.iter().any(|v| !v.first)).count();
    assert_eq!(repeats, 11 - 5, "creates 6 to 11");
}

#[test]
fn over_create_surplus_creates_again_after_deleting_at_every_lag_and_seed() {
    // The lister is a Go map: two reconciles on one stale cache delete
    // different victims, the count falls below the desired one, and the
    // controller creates again.
    for lag in ["1000", "2000", "3000", "4000"] {
        for seed in 1..=5 {
            let run = check("over-create-surplus", &[("cluster.watch_lag_ms", lag), ("seed", &seed.to_string())]);
            let first_delete = run
                .frames
                .iter()
                .position(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == Verb::Delete && entry.status.code == 200))
                .unwrap_or_else(|| panic!("lag {lag} seed {seed}: no delete"));
            let creates_after = run.frames[first_delete..]
                .iter()
                .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == Verb::Create && entry.status.code == 201))
                .count();
            assert!(creates_after >= 1, "lag {lag} seed {seed}: no create after the first delete");
        }
    }
}

#[test]
fn over_create_surplus_in_key_order_deletes_the_same_victims_twice() {
    let random = check("over-create-surplus", &[]);
    let key = check("over-create-surplus", &[("controller.list_order", "key")]);
    assert!(key.report.api_count("delete", 404) >= 1, "{:?}", key.report.api);
    // In key order far fewer real deletes are needed to settle.
    assert!(
        key.report.api_count("delete", 200) * 4 < random.report.api_count("delete", 200),
        "{:?} vs {:?}",
        key.report.api,
        random.report.api
    );
    assert_eq!(key.report.live("ConfigMap"), 4, "{:?}", key.report);
}

#[test]
fn empty_cache_deletes_race_the_first_list() {
    // The deletes (5 a second after a burst of 10) race the informer's first LIST.
    let deleted = |list_ms: &str| check("empty-cache", &[("cluster.initial_list_ms", list_ms)]).report.api_count("delete", 200);
    let figures: Vec<u64> = ["20", "1000", "3000", "10000"].iter().map(|ms| deleted(ms)).collect();
    assert_eq!(figures[0], 0, "the LIST lands before the first delete");
    assert!(figures.windows(2).all(|w| w[0] < w[1]), "a slower LIST, more deletes: {figures:?}");
    assert_eq!(figures[3], 50);
    // Without the client-side limit every delete beats even a 3 s LIST.
    let unlimited = check("empty-cache", &[("cluster.initial_list_ms", "3000"), ("cluster.client_qps", "0")]);
    assert_eq!(unlimited.report.api_count("delete", 200), 50);
}

#[test]
fn every_preset_check_holds_at_its_defaults() {
    for name in cachescope::scenario::preset_names() {
        let run = check(name, &[]);
        assert!(!run.report.expectations.is_empty(), "{name} checks something at its defaults");
        for o in &run.report.expectations {
            assert!(o.held, "{name}: {} expected {}, measured {:?}", o.text, o.expected, o.measured);
        }
    }
}

/// Every figure a preset's description, its start line or a check's
/// sentence states is one the run is checked against, or one of the
/// scenario's own settings.
#[test]
fn presets_state_only_figures_the_run_is_checked_against() {
    for s in cachescope::scenario::presets() {
        assert!(!s.start.is_empty(), "{} has a start line", s.name);
        let mut pinned: Vec<u64> = s.expect.iter().flat_map(|c| c.figures()).collect();
        let mut settings = s.to_value();
        settings
            .as_object_mut()
            .unwrap()
            .retain(|k, _| !matches!(k.as_str(), "description" | "start" | "controls" | "expect" | "name" | "incident"));
        numbers_in(&settings, &mut pinned);
        for (what, text) in [("description", s.description.as_str()), ("start line", s.start.as_str())]
            .into_iter()
            .chain(s.expect.iter().map(|c| ("check", c.text.as_str())))
        {
            for n in stated_figures(text) {
                assert!(pinned.contains(&n), "{}: the {what} states {n}, which no check pins and no setting holds: {text:?}", s.name);
            }
        }
    }
}

/// Numbers in a JSON value, with milliseconds also as seconds and minutes.
fn numbers_in(v: &serde_json::Value, out: &mut Vec<u64>) {
    match v {
        serde_json::Value::Number(n) => {
            if let Some(n) = n.as_u64() {
                out.extend([n, n / 1000, n / 60_000]);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| numbers_in(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| numbers_in(x, out)),
        _ => {}
    }
}

/// The figures a sentence states: standalone numbers, not the ones in names
/// (`seed-99`), citations (`Lab 2`, `step 4`, `reconcile 3`, `#1936`) or
/// HTTP status labels (`409 AlreadyExists`).
fn stated_figures(text: &str) -> Vec<u64> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let before = text[..start].trim_end();
        let glued = start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || matches!(bytes[start - 1], b'-' | b'#' | b'_' | b'.'));
        let word = before.rsplit(|c: char| !c.is_alphanumeric()).next().unwrap_or("").to_lowercase();
        let citation = matches!(word.as_str(), "lab" | "step" | "steps" | "reconcile");
        let after = &text[i..];
        let status =
            ["NotFound", "AlreadyExists", "Created", "OK", "Conflict", "Expired"].iter().any(|l| after.starts_with(&format!(" {l}")));
        if !glued && !citation && !status {
            out.push(text[start..i].parse().unwrap());
        }
    }
    out
}

#[test]
fn empty_cache_without_the_wait_deletes_all_fifty_and_exits_zero() {
    let run = check("empty-cache", &[]);
    // Count what is left, as the lab says: nothing.
    assert_eq!(run.report.live("ConfigMap"), 0);
    assert_eq!(run.report.api_count("delete", 200), 50);
    // No error anywhere: every request succeeded.
    for (verb, by) in &run.report.api {
        for code in by.keys() {
            assert!(code.starts_with('2'), "{verb} answered {code}");
        }
    }
    let exit = run.frames.iter().find_map(|f| match &f.event {
        Event::ControllerExited { code, error, deleted } => Some((*code, error.clone(), *deleted)),
        _ => None,
    });
    assert_eq!(exit, Some((0, None, 50)));
    assert!(!run.report.invariants[NO_DELETE_BEFORE_SYNC].held, "the invariant names what went wrong");
}

#[test]
fn empty_cache_with_the_wait_deletes_none_as_the_lab_expects() {
    let run = check("empty-cache", &[("controller.wait_for_cache_sync", "true")]);
    assert_eq!((run.report.live("ConfigMap"), run.report.api_count("delete", 200)), (50, 0));
    assert!(run.report.invariants[NO_DELETE_BEFORE_SYNC].held);
    assert!(run.report.invariants["no_delete_of_uncached"].held);
}

#[test]
fn a_synced_cache_still_lacks_the_create_whose_added_is_on_the_wire() {
    let run = check("absent-from-cache", &[]);
    // The 50 seeds stay; late-1, created after the sync, is deleted while its ADDED is on the wire.
    assert_eq!(run.report.live("ConfigMap"), 50);
    assert_eq!(run.report.api_count("delete", 200), 1);
    assert!(run.world.api.get(Kind::ConfigMap, &ObjectKey::new("academy-lab", "late-1")).is_none());
    assert!(run.report.invariants[NO_DELETE_BEFORE_SYNC].held);
    assert!(!run.report.invariants["no_delete_of_uncached"].held, "the lab's second rule, broken");
    // With no lag its ADDED lands before the pruner looks: nothing is deleted.
    let run = check("absent-from-cache", &[("cluster.watch_lag_ms", "0")]);
    assert_eq!((run.report.live("ConfigMap"), run.report.api_count("delete", 200)), (51, 0));
}

#[test]
fn read_your_write_gets_exactly_one_409_and_one_seed_99() {
    let run = check("read-your-write", &[]);
    assert_eq!(run.report.api_count("create", 409), 1, "{:?}", run.report.api);
    assert_eq!(run.report.api_count("create", 201), 1);
    assert!(run.world.api.get(Kind::ConfigMap, &ObjectKey::new("academy-lab", "seed-99")).is_some());
    let seed_99s = run.world.api.list(Kind::ConfigMap, "academy-lab").iter().filter(|o| o.name.starts_with("seed-99")).count();
    assert_eq!(seed_99s, 1);
    assert_eq!(run.report.live("ConfigMap"), 51, "no seed deleted");
    let miss = run.frames.iter().find_map(|f| match &f.event {
        Event::ReconcileNote { note: Note::CacheMiss { name, eta_ms, .. }, .. } => Some((name.clone(), *eta_ms)),
        _ => None,
    });
    let (name, eta) = miss.expect("the re-read misses");
    assert_eq!(name, "seed-99");
    assert!(eta.is_some_and(|ms| ms > 0), "its ADDED event is still on the wire");
}

#[test]
fn read_your_write_with_generated_names_makes_a_duplicate() {
    let run = check("read-your-write", &[("controller.naming", "generate")]);
    assert_eq!(run.report.api_count("create", 201), 2);
    assert_eq!(run.report.api_count("create", 409), 0);
    assert_eq!(run.report.live("ConfigMap"), 52);
}

#[test]
fn replicaset_pressure_never_exceeds_ten_with_expectations() {
    let run = check("replicaset-pressure", &[]);
    assert!(run.report.peak_live["Pod"] <= 10, "{:?}", run.report);
    assert!(run.report.api_count("delete", 200) >= 20, "the pressure really deleted pods: {:?}", run.report.api);
    assert!(run.report.api_count("create", 201) > 10, "and the controller really replaced them");
    assert!(run.report.invariants[CHILDREN_WITHIN_DESIRED].held);
    // Expectations really gated syncs.
    assert!(run.frames.iter().any(|f| matches!(f.event, Event::ReconcileNote { note: Note::ExpectationsPending { .. }, .. })));
}

#[test]
fn replicaset_pressure_over_creates_without_expectations() {
    let run = check("replicaset-pressure", &[("controller.expectations", "false")]);
    assert!(run.report.peak_live["Pod"] > 10, "{:?}", run.report);
    assert!(!run.report.invariants[CHILDREN_WITHIN_DESIRED].held);
}

#[test]
fn expectations_timeout_wedges_the_replicaset_until_the_timeout() {
    let run = check("expectations-timeout", &[]);
    let dropped = run.frames.iter().find(|f| matches!(f.event, Event::WatchDropped { .. })).expect("the ADDED event is dropped");
    let expired = run
        .frames
        .iter()
        .find(|f| matches!(f.event, Event::ReconcileNote { note: Note::ExpectationsExpired { .. }, .. }))
        .expect("the timeout unwedges it");
    assert!(expired.at_ms >= 300_000, "not before five minutes: {}", expired.at_ms);
    let pending = run
        .frames
        .iter()
        .filter(|f| {
            f.n > dropped.n && f.n < expired.n && matches!(f.event, Event::ReconcileNote { note: Note::ExpectationsPending { .. }, .. })
        })
        .count();
    assert!(pending >= 1, "syncs in between were skipped");
    // Between the drop and the expiry the controller created nothing more.
    let creates_between = run
        .frames
        .iter()
        .filter(|f| f.n > dropped.n && f.n < expired.n)
        .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == cachescope::sim::apiserver::Verb::Create && entry.at_ms > dropped.at_ms + 1000))
        .count();
    assert_eq!(creates_between, 0);
    let creates_after = run
        .frames
        .iter()
        .filter(|f| f.n > expired.n)
        .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == cachescope::sim::apiserver::Verb::Create && entry.status.code == 201))
        .count();
    assert!(creates_after >= 1, "after the timeout it acts");
}

#[test]
fn teardown_collects_every_child() {
    let run = check("teardown", &[]);
    assert_eq!(run.report.peak_live["ConfigMap"], 11, "over-created first: {:?}", run.report);
    assert_eq!(run.report.live("ConfigMap"), 0);
    assert_eq!(run.report.live("Ensemble"), 0);
    assert!(run.report.invariants[NO_ORPHANS].held);
    let gc_deletes = run
        .frames
        .iter()
        .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.actor == Actor::GarbageCollector && entry.verb == cachescope::sim::apiserver::Verb::Delete && entry.status.code == 200))
        .count() as u64;
    assert_eq!(gc_deletes, run.report.peak_live["ConfigMap"], "the garbage collector deleted each one");
}

#[test]
fn teardown_without_owner_references_leaves_orphans() {
    let run = check("teardown", &[("controller.owner_references", "false")]);
    assert_eq!(run.report.live("ConfigMap"), 11, "{:?}", run.report);
    assert!(!run.report.invariants[NO_ORPHANS].held);
}

#[test]
fn a_restart_empties_the_cache_and_relists() {
    let mut s = cachescope::scenario::preset("over-create").unwrap();
    s.actions.push(cachescope::scenario::ActionSpec { at_ms: 10_000, restart_controller: Some(Default::default()), ..Default::default() });
    let run = support::run_scenario(s);
    let restart = run.frames.iter().position(|f| matches!(f.event, Event::ControllerStarted { restart: true, .. })).expect("restarted");
    let refill =
        run.frames[restart..].iter().find(|f| matches!(&f.event, Event::CacheFilled { kind: Kind::ConfigMap, first_sync: true, .. }));
    assert!(refill.is_some(), "the new process lists again and syncs again");
    assert_eq!(run.report.live("ConfigMap"), 4);
}

#[test]
fn a_relist_hands_tombstones_for_what_vanished_meanwhile() {
    // Drop the DELETED of one pod, then expire the watch: the relist finds it gone.
    let mut s = cachescope::scenario::preset("replicaset-pressure").unwrap();
    s.actions = serde_json::from_str(
        r#"[{"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}},
            {"at_ms": 3000, "drop_next_event": {"kind": "Pod", "type": "DELETED"}},
            {"at_ms": 4000, "delete_pods": {"owner": "web", "count": 1, "interval_ms": 1}},
            {"at_ms": 8000, "relist": {"kind": "Pod"}}]"#,
    )
    .unwrap();
    let run = support::run_scenario(s);
    let tombstones = run.frames.iter().find_map(|f| match &f.event {
        Event::CacheFilled { kind: Kind::Pod, first_sync: false, tombstones, .. } => Some(tombstones.clone()),
        _ => None,
    });
    assert_eq!(tombstones.map(|t| t.len()), Some(1));
    assert_eq!(run.report.live("Pod"), 3, "the tombstone woke the controller, which replaced the pod");
}

#[test]
fn a_key_is_never_reconciled_by_two_workers_at_once() {
    for (preset, sets) in [("replicaset-pressure", vec![("controller.workers", "8")]), ("over-create", vec![("controller.workers", "4")])] {
        let run = check(preset, &sets);
        let mut busy: std::collections::BTreeMap<String, u32> = Default::default();
        let mut workers_seen = std::collections::BTreeSet::new();
        for f in &run.frames {
            match &f.event {
                Event::ReconcileStarted { key, worker, .. } => {
                    assert!(
                        busy.insert(key.to_string(), *worker).is_none(),
                        "{preset}: {key} taken by worker {worker} while busy, frame {}",
                        f.n
                    );
                    workers_seen.insert(*worker);
                }
                Event::ReconcileFinished { key, .. } => {
                    busy.remove(key.as_str());
                }
                _ => {}
            }
        }
        assert!(!workers_seen.is_empty());
    }
}

/// A ReplicaSet deleted and re-created under its name before its pods' events
/// arrive: the old pods belong to nobody (their ControllerRef names the old
/// UID), so the successor creates its own three and deletes nothing, as
/// upstream does; and children are counted by ControllerRef, so the
/// predecessor's pods, still being collected, are no breach.
#[test]
fn a_recreated_replicaset_is_not_fooled_by_its_predecessors_pods() {
    let scenario: cachescope::scenario::Scenario = serde_json::from_value(serde_json::json!({
        "name": "recreate", "seed": 7, "until_ms": 30000,
        "cluster": {"watch_lag_ms": 800, "gc_watch_lag_ms": 5000, "client_qps": 20, "client_burst": 30},
        "controller": {"kind": "replicaset"},
        "actions": [
            {"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}},
            {"at_ms": 1000, "delete": {"kind": "ReplicaSet", "name": "web"}},
            {"at_ms": 1100, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}}
        ]
    }))
    .unwrap();
    let run = support::run_scenario(scenario);
    let by = |actor: Actor, verb: Verb| {
        run.frames
            .iter()
            .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.actor == actor && entry.verb == verb && entry.status.is_success() && entry.kind == Kind::Pod))
            .count()
    };
    let rs = Actor::Controller(cachescope::sim::apiserver::Agent::of(ControllerKind::ReplicaSet));
    assert_eq!(by(rs, Verb::Create), 6, "three pods for each ReplicaSet");
    assert_eq!(by(rs, Verb::Delete), 0, "the successor deletes nothing");
    assert_eq!(by(Actor::GarbageCollector, Verb::Delete), 3, "the collector takes the predecessor's three");
    assert_eq!(run.report.live("Pod"), 3);
    assert!(run.report.invariants[CHILDREN_WITHIN_DESIRED].held, "six pods labelled web for a while, three of them the successor's");
    assert_eq!(run.report.peak_live["Pod"], 6);
}

/// The delete of a ReplicaSet is lost on the controller's watch and it is
/// re-created: the controller's store sees the same name with a new UID, and
/// `updateRS` drops the predecessor's pending expectation (one of its pods'
/// ADDED was lost too), so the successor gets its pods at once, not after
/// the five-minute ExpectationsTimeout.
#[test]
fn a_replicaset_recreated_unseen_does_not_inherit_pending_expectations() {
    let scenario: cachescope::scenario::Scenario = serde_json::from_value(serde_json::json!({
        "name": "uid-change", "seed": 7, "until_ms": 60000,
        "cluster": {"watch_lag_ms": 800, "client_qps": 20, "client_burst": 30},
        "controller": {"kind": "replicaset"},
        "actions": [
            {"at_ms": 0, "drop_next_event": {"kind": "Pod", "type": "ADDED"}},
            {"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}},
            {"at_ms": 3000, "drop_next_event": {"kind": "ReplicaSet", "type": "DELETED"}},
            {"at_ms": 3500, "delete": {"kind": "ReplicaSet", "name": "web"}},
            {"at_ms": 4000, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}}
        ]
    }))
    .unwrap();
    let run = support::run_scenario(scenario);
    let uid = run.world.api.get(Kind::ReplicaSet, &ObjectKey::new("academy-lab", "web")).unwrap().uid;
    let owned: Vec<u64> = run
        .world
        .api
        .list(Kind::Pod, "academy-lab")
        .iter()
        .filter(|p| p.controller_ref().is_some_and(|r| r.uid == uid))
        .map(|p| p.creation_rv)
        .collect();
    assert_eq!(owned.len(), 3, "the successor has its three pods");
    let created_by_10s = run
        .frames
        .iter()
        .filter(|f| f.at_ms < 10_000)
        .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == Verb::Create && entry.kind == Kind::Pod && entry.status.code == 201))
        .count();
    assert_eq!(created_by_10s, 6, "within seconds, not after the five-minute timeout");
}

/// KEP-5647, v1.36: with the consistency store on, the GenerateName
/// over-create makes exactly 4 ConfigMaps at every lag, the re-added
/// reconciles skipped until the cache has read the controller's own creates.
#[test]
fn the_consistency_store_stops_the_generate_name_over_create_at_every_lag() {
    for lag in ["0", "500", "1000", "2000", "3000", "4000", "5000"] {
        let on = check(
            "over-create",
            &[("controller.naming", "generate"), ("controller.consistency_store", "true"), ("cluster.watch_lag_ms", lag)],
        );
        assert_eq!(on.report.live("ConfigMap"), 4, "lag {lag}: {:?}", on.report);
        assert_eq!(on.report.peak_live["ConfigMap"], 4, "lag {lag}");
        let skips = on.report.metrics["ensemble-controller"].stale_sync_skips;
        assert_eq!(skips > 0, lag != "0", "lag {lag}: {skips} skips (none needed when the cache is never behind)");
        let off = check("over-create", &[("controller.naming", "generate"), ("cluster.watch_lag_ms", lag)]);
        if lag != "0" {
            assert_eq!(off.report.live("ConfigMap"), 11, "lag {lag}, store off: as today");
        }
    }
    // The skip's words are upstream's, and the key is requeued rate-limited.
    let on = check("staleness-mitigation", &[]);
    let skip = on.frames.iter().find(|f| matches!(&f.event, Event::ReconcileNote { note: Note::StaleSkip { .. }, .. })).unwrap();
    let caption = cachescope::narrate::caption(skip);
    assert!(caption.contains("read version: 0 is not as new as written version: 5 for group resource configmaps"), "{caption}");
    let finished = on.frames.iter().find(|f| f.n > skip.n && matches!(f.event, Event::ReconcileFinished { .. })).unwrap();
    assert!(
        matches!(&finished.event, Event::ReconcileFinished { requeue: cachescope::sim::frame::Requeue::RateLimited { .. }, .. }),
        "{:?}",
        finished.event
    );
}

/// The consistency store reads AtomicFIFO's progress mark: on v1.28's
/// DeltaFIFO, `LastStoreSyncResourceVersion()` is "" and `EnsureReady` fails
/// open, so the store never skips a sync, and the over-create is back.
#[test]
fn on_delta_fifo_the_consistency_store_never_skips_a_sync() {
    for (preset, controller) in
        [("staleness-mitigation", "ensemble-controller"), ("staleness-mitigation-replicaset", "replicaset-controller")]
    {
        let atomic = check(preset, &[]);
        assert!(atomic.report.metrics[controller].stale_sync_skips > 0, "{preset}: the store skips on AtomicFIFO");
        let delta = check(preset, &[("controller.fifo", "delta")]);
        assert_eq!(delta.report.metrics[controller].stale_sync_skips, 0, "{preset}: {:?}", delta.report);
    }
    let delta = check("staleness-mitigation", &[("controller.fifo", "delta")]);
    assert!(delta.report.live("ConfigMap") > 4, "the GenerateName over-create, unprotected: {:?}", delta.report);
    assert!(!delta.report.invariants[CHILDREN_WITHIN_DESIRED].held);
}

/// kubernetes #129795: a watch that lags 310 s, longer than the five-minute
/// ExpectationsTimeout. Expectations alone over-create once they expire; the
/// consistency store never expires, so the ReplicaSet stays at its replicas.
#[test]
fn the_consistency_store_answers_kubernetes_129795() {
    // Created 5; scaled to 6 just after the expectations expire, before the pods' ADDED events.
    let on = check("staleness-mitigation-replicaset", &[]);
    assert_eq!(on.report.peak_live["Pod"], 6, "{:?}", on.report);
    assert!(on.report.metrics["replicaset-controller"].stale_sync_skips > 0);
    assert!(on.report.invariants[CHILDREN_WITHIN_DESIRED].held);
    let off = check("staleness-mitigation-replicaset", &[("controller.consistency_store", "false")]);
    assert_eq!(off.report.peak_live["Pod"], 11, "5, then 6 more on a cache that has none: {:?}", off.report);
    assert!(off.frames.iter().any(|f| matches!(f.event, Event::ReconcileNote { note: Note::ExpectationsExpired { .. }, .. })));
    // A restart empties the store (memory only): it is a record of this process's writes.
    let mut w = cachescope::sim::world::World::new(cachescope::scenario::preset("staleness-mitigation").unwrap().world_init());
    while w.step().is_some() && w.ctl.consistency.records().count() == 0 {}
    assert!(w.ctl.consistency.records().count() > 0, "a record exists once the controller has written");
    w.inject(cachescope::sim::world::ActionKind::RestartController);
    w.step();
    assert_eq!(w.ctl.consistency.records().count(), 0);
}

/// The ambiguous create: a create that times out although the apiserver
/// committed it. The ReplicaSet controller counts it as never made
/// (`CreationObserved` for the creates that failed), so even with
/// expectations it over-creates by one, then deletes the surplus.
#[test]
fn an_ambiguous_create_over_creates_a_replicaset_by_one_then_deletes_the_surplus() {
    let scenario: cachescope::scenario::Scenario = serde_json::from_value(serde_json::json!({
        "name": "ambiguous", "seed": 7, "until_ms": 30000,
        "cluster": {"watch_lag_ms": 800, "client_qps": 20, "client_burst": 30},
        "controller": {"kind": "replicaset"},
        "actions": [
            {"at_ms": 0, "fail_next": {"verb": "create", "kind": "Pod", "as": "timeout_committed"}},
            {"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}}
        ]
    }))
    .unwrap();
    let run = support::run_scenario(scenario);
    assert_eq!(run.report.peak_live["Pod"], 4, "one over");
    assert_eq!(run.report.live("Pod"), 3, "then the surplus is deleted");
    let lost = run.frames.iter().find(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.client_status.is_some())).unwrap();
    let caption = cachescope::narrate::caption(lost);
    assert!(caption.contains("201 Created at resourceVersion") && caption.contains("the client sees 504 Timeout"), "{caption}");
    let rs = Actor::Controller(cachescope::sim::apiserver::Agent::of(ControllerKind::ReplicaSet));
    let deletes = run
        .frames
        .iter()
        .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.actor == rs && entry.verb == Verb::Delete))
        .count();
    assert_eq!(deletes, 1);
    // A plain 500 or timeout writes nothing: no over-create.
    for mode in ["500", "timeout"] {
        let scenario: cachescope::scenario::Scenario = serde_json::from_value(serde_json::json!({
            "name": "failed", "seed": 7, "until_ms": 30000,
            "cluster": {"watch_lag_ms": 800, "client_qps": 20, "client_burst": 30},
            "controller": {"kind": "replicaset"},
            "actions": [
                {"at_ms": 0, "fail_next": {"verb": "create", "kind": "Pod", "as": mode}},
                {"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}}
            ]
        }))
        .unwrap();
        let run = support::run_scenario(scenario);
        assert_eq!(run.report.peak_live["Pod"], 3, "{mode}");
        assert_eq!(run.report.live("Pod"), 3, "{mode}: the retry makes them");
    }
}

/// `fail_next.nth` counts the controller's requests of its verb and kind
/// from the action: the third create fails, the two before it pass; two
/// armed at once fail two in a row; `409` is a Conflict that writes nothing.
#[test]
fn fail_next_fails_the_nth_such_request_and_409_is_a_conflict() {
    let statuses = |faults: serde_json::Value| {
        let mut actions = faults.as_array().unwrap().clone();
        actions.push(serde_json::json!({"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 5}}));
        let scenario: cachescope::scenario::Scenario = serde_json::from_value(serde_json::json!({
            "name": "nth", "seed": 7, "until_ms": 30000,
            "cluster": {"watch_lag_ms": 800, "client_qps": 20, "client_burst": 30},
            "controller": {"kind": "replicaset", "update_status": true},
            "actions": actions
        }))
        .unwrap();
        let run = support::run_scenario(scenario);
        let creates: Vec<u16> = run
            .frames
            .iter()
            .filter_map(|f| match &f.event {
                Event::ApiRequest { entry, .. } if entry.verb == Verb::Create && entry.kind == cachescope::sim::object::Kind::Pod => {
                    Some(entry.status.code)
                }
                _ => None,
            })
            .collect();
        (creates, run)
    };
    let (third, run) = statuses(serde_json::json!([{"at_ms": 0, "fail_next": {"verb": "create", "kind": "Pod", "as": "500", "nth": 3}}]));
    assert_eq!(third[..3], [201, 201, 500], "{third:?}");
    assert_eq!(run.report.live("Pod"), 5, "the retry makes the fifth");
    let armed = run.frames.iter().find(|f| matches!(f.event, Event::FailureArmed { .. })).unwrap();
    assert!(
        cachescope::narrate::caption(armed).contains("the controller's 3rd create of a Pod, counted from now, will fail"),
        "{}",
        cachescope::narrate::caption(armed)
    );
    let (two, _) = statuses(serde_json::json!([
        {"at_ms": 0, "fail_next": {"verb": "create", "kind": "Pod", "as": "500"}},
        {"at_ms": 0, "fail_next": {"verb": "create", "kind": "Pod", "as": "500"}}
    ]));
    assert_eq!(two[..3], [500, 500, 201], "{two:?}");
    let (_, run) = statuses(serde_json::json!([{"at_ms": 0, "fail_next": {"verb": "update", "kind": "ReplicaSet", "as": "409"}}]));
    let conflict = run
        .frames
        .iter()
        .find_map(|f| match &f.event {
            Event::ApiRequest { entry, .. } if entry.verb == Verb::Update => Some(entry.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(conflict.status.label(), "409 Conflict");
    assert!(conflict.message().contains("the object has been modified") && conflict.injected, "{conflict:?}");
    assert_eq!(run.report.live("Pod"), 5);
}

fn replicaset_scenario(extra: serde_json::Value) -> cachescope::scenario::Scenario {
    let mut doc = serde_json::json!({
        "name": "rs", "seed": 3, "until_ms": 60000,
        "cluster": {"watch_lag_ms": 2000},
        "controller": {"kind": "replicaset", "update_status": true},
        "actions": [{"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}}]
    });
    for (section, fields) in extra.as_object().unwrap() {
        match (doc.get_mut(section), fields) {
            (Some(serde_json::Value::Object(into)), serde_json::Value::Object(from)) => into.extend(from.clone()),
            _ => doc[section] = fields.clone(),
        }
    }
    serde_json::from_value(doc).unwrap()
}

/// `updateReplicaSetStatus` under a 2 s watch lag: the status written by one
/// sync has not reached the cache when the pods' events wake the next, so
/// that sync writes from a stale resourceVersion and meets 409 Conflict; the
/// GET and the retry set it right.
#[test]
fn a_status_update_under_a_two_second_lag_meets_409_conflict() {
    let run = support::run_scenario(replicaset_scenario(serde_json::json!({})));
    assert!(run.report.api_count("update", 409) >= 1, "{:?}", run.report.api);
    let conflict = run
        .frames
        .iter()
        .find(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == Verb::Update && entry.status.code == 409))
        .unwrap();
    let caption = cachescope::narrate::caption(conflict);
    assert!(
        caption.contains("409 Conflict, Operation cannot be fulfilled on replicasets.apps \"web\": the object has been modified"),
        "{caption}"
    );
    let rs = run.world.api.get(Kind::ReplicaSet, &ObjectKey::new("academy-lab", "web")).unwrap();
    assert_eq!(rs.status, Some(cachescope::sim::object::ReplicaSetStatus { replicas: 3, observed_generation: 1 }));
    assert_eq!(run.report.live("Pod"), 3);
    // Off, nothing writes the status and nothing conflicts.
    let off = support::run_scenario(replicaset_scenario(serde_json::json!({"controller": {"update_status": false}})));
    assert_eq!(off.report.api_count("update", 409) + off.report.api_count("update", 200), 0);
}

/// Graceful deletion: a deleted pod stays Terminating for its grace period;
/// the ReplicaSet counts it gone at once (`updatePod` → `deletePod`) and
/// replaces it, so the cluster holds 4 pods for a while, and says so
/// (`all_pods_within_replicas` breaks), while `status.replicas` never
/// passes 3 and `children_within_desired` holds.
#[test]
fn a_terminating_pod_is_replaced_before_it_is_gone() {
    let scenario = replicaset_scenario(serde_json::json!({
        "cluster": {"pod_grace_period_ms": 30000, "watch_lag_ms": 500},
        "actions": [
            {"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}},
            {"at_ms": 10000, "delete_pods": {"owner": "web", "count": 1, "interval_ms": 1}}
        ]
    }));
    let mut world = cachescope::sim::world::World::new(scenario.world_init());
    let key = ObjectKey::new("academy-lab", "web");
    let (mut peak_status, mut replaced_at, mut gone_at) = (0, None, None);
    while let Some(f) = world.step() {
        if let Some(s) = world.api.get(Kind::ReplicaSet, &key).and_then(|rs| rs.status) {
            peak_status = peak_status.max(s.replicas);
        }
        if let Event::ApiRequest { entry, .. } = &f.event {
            if entry.verb == Verb::Create && entry.kind == Kind::Pod && f.at_ms > 10_000 && replaced_at.is_none() {
                replaced_at = Some(f.at_ms);
            }
            if entry.actor == Actor::Kubelet {
                gone_at = Some(f.at_ms);
            }
        }
    }
    let (replaced_at, gone_at) = (replaced_at.expect("a replacement"), gone_at.expect("the kubelet's delete"));
    assert!(replaced_at < 10_000 + 1_000, "replaced within the lag, at {replaced_at} ms");
    assert!(gone_at >= 40_000, "the old pod is gone only after its 30 s grace, at {gone_at} ms");
    assert_eq!(world.api.peak_count(Kind::Pod), 4);
    assert_eq!(world.api.live_count(Kind::Pod), 3);
    assert_eq!(peak_status, 3, "status.replicas counts active pods only");
    assert!(world.invariants.get(CHILDREN_WITHIN_DESIRED).unwrap().held());
    let all = world.invariants.get(cachescope::sim::invariants::ALL_PODS_WITHIN_REPLICAS).unwrap();
    assert!(!all.held(), "4 pods, 1 Terminating");
    let detail = cachescope::narrate::invariants::violation_words(all.facts.as_ref().unwrap());
    assert!(detail.contains("1 of them Terminating"), "{detail:?}");
}

/// Watch expiry: every `watch_timeout_ms` the controller's watch ends with
/// 410 Expired, the reflector backs off (800 ms, doubling while expiries come
/// within two minutes of each other, with up to 100 % jitter), lists again,
/// and the cache ends equal to the cluster: what the closed watch lost, the
/// LIST brings.
#[test]
fn an_expired_watch_backs_off_then_relists() {
    let scenario = replicaset_scenario(serde_json::json!({
        "until_ms": 100000,
        "cluster": {"watch_timeout_ms": 20000, "watch_lag_ms": 500},
        "controller": {"update_status": false},
        "actions": [
            {"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}},
            {"at_ms": 30000, "delete_pods": {"owner": "web", "count": 20, "interval_ms": 3000}}
        ]
    }));
    let run = support::run_scenario(scenario);
    let backoffs: Vec<u64> = run
        .frames
        .iter()
        .filter_map(|f| match &f.event {
            Event::WatchExpired { kind: Kind::Pod, backoff_ms, after_ms } => {
                assert_eq!(*after_ms, 20000);
                Some(*backoff_ms)
            }
            _ => None,
        })
        .collect();
    assert!(backoffs.len() >= 3, "{backoffs:?}");
    for (i, b) in backoffs.iter().take(4).enumerate() {
        let base = 800 << i;
        assert!((base..2 * base).contains(b), "expiry {i}: {b} ms, not in {base}..{}", 2 * base);
    }
    let relists = run.frames.iter().filter(|f| matches!(f.event, Event::Relisting { kind: Kind::Pod, .. })).count();
    assert!(relists >= backoffs.len() - 1, "each backoff ends in a LIST: {relists} for {}", backoffs.len());
    let caption = cachescope::narrate::caption(run.frames.iter().find(|f| matches!(f.event, Event::WatchExpired { .. })).unwrap());
    assert!(caption.contains("410 Expired (too old resource version)") && caption.contains("backs off"), "{caption}");
    // Pods deleted meanwhile: the ReplicaSet made each good, and at the end the cache agrees with the cluster.
    assert_eq!(run.report.live("Pod"), 3);
    let cached: Vec<String> = run.world.ctl.caches.informer(Kind::Pod).unwrap().list().map(|p| p.name.to_string()).collect();
    let live: Vec<String> = run.world.api.objects_of(Kind::Pod).map(|p| p.name.to_string()).collect();
    assert_eq!(cached, live);
}

/// Resync: every `resync_ms` each cached object goes to the update handlers
/// again with the same resourceVersion. `updateRS` queues the ReplicaSet (a
/// reconcile that finds nothing to do); `updatePod` ignores a pod's resync.
#[test]
fn a_resync_hands_every_cached_object_to_the_handlers_again() {
    let scenario = replicaset_scenario(serde_json::json!({
        "until_ms": 40000,
        "cluster": {"resync_ms": 10000, "watch_lag_ms": 500},
        "controller": {"update_status": false}
    }));
    let run = support::run_scenario(scenario);
    let resyncs: Vec<(Kind, u32, usize)> = run
        .frames
        .iter()
        .filter_map(|f| match &f.event {
            Event::Resynced { kind, n_objects, effects } => Some((*kind, *n_objects, effects.enqueued.len())),
            _ => None,
        })
        .collect();
    let rs: Vec<_> = resyncs.iter().filter(|r| r.0 == Kind::ReplicaSet).collect();
    let pods: Vec<_> = resyncs.iter().filter(|r| r.0 == Kind::Pod).collect();
    assert_eq!(rs.len(), 3, "at 10.5, 20.5 and 30.5 s: {resyncs:?}");
    assert!(rs.iter().skip(1).all(|r| r.1 == 1 && r.2 == 1), "the ReplicaSet is queued: {rs:?}");
    assert!(pods.iter().skip(1).all(|r| r.1 == 3 && r.2 == 0), "a pod's resync queues nothing: {pods:?}");
    assert_eq!(run.report.live("Pod"), 3);
    let off = support::run_scenario(replicaset_scenario(serde_json::json!({"until_ms": 40000, "controller": {"update_status": false}})));
    assert!(run.world.ctl.reconciles >= off.world.ctl.reconciles + 2, "{} vs {}", run.world.ctl.reconciles, off.world.ctl.reconciles);
}

/// A first-LIST time per informer: after a restart without WaitForCacheSync,
/// a fast ReplicaSet LIST and a slow Pod LIST let the ReplicaSet act on an
/// empty pod cache (node-feature-discovery #1936's shape): it creates a
/// second set, then deletes the surplus once the pods arrive. With the wait,
/// nothing extra.
#[test]
fn a_slow_pod_list_beside_a_fast_replicaset_list_over_creates_without_the_wait() {
    let doc = |wait: bool| {
        replicaset_scenario(serde_json::json!({
            "until_ms": 40000,
            "cluster": {"watch_lag_ms": 500, "initial_list_ms_by_kind": {"ReplicaSet": 200, "Pod": 8000}},
            "controller": {"update_status": false, "wait_for_cache_sync": wait},
            "actions": [
                {"at_ms": 0, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}},
                {"at_ms": 15000, "restart_controller": {}}
            ]
        }))
    };
    let racy = support::run_scenario(doc(false));
    assert_eq!(racy.report.peak_live["Pod"], 6, "{:?}", racy.report);
    assert_eq!(racy.report.live("Pod"), 3, "the surplus goes once the pods are cached");
    let waited = support::run_scenario(doc(true));
    assert_eq!(waited.report.peak_live["Pod"], 3);
}

fn teardown_with(propagation: &str) -> support::Run {
    let mut s = cachescope::scenario::preset("teardown").unwrap();
    let delete = s.actions.iter_mut().find_map(|a| a.delete.as_mut()).unwrap();
    delete.propagation = Some(serde_json::from_value(serde_json::json!(propagation)).unwrap());
    support::run_scenario(s)
}

/// Foreground deletion: the Ensemble stays, Terminating with the
/// `foregroundDeletion` finalizer, while the garbage collector deletes its
/// children; it goes only after the last of them (the collector removes the
/// finalizer). Meanwhile its controller makes nothing for it.
#[test]
fn foreground_teardown_deletes_the_children_before_the_owner() {
    let run = teardown_with("Foreground");
    assert_eq!(run.report.live("ConfigMap"), 0);
    assert_eq!(run.report.live("Ensemble"), 0);
    let at = |pred: &dyn Fn(&cachescope::sim::apiserver::AuditEntry) -> bool| -> Vec<u64> {
        run.frames
            .iter()
            .filter_map(|f| match &f.event {
                Event::ApiRequest { entry, .. } if pred(entry) => Some(f.at_ms),
                _ => None,
            })
            .collect()
    };
    let child_deletes = at(&|e| e.kind == Kind::ConfigMap && e.verb == Verb::Delete && e.status.code == 200);
    let owner_gone =
        at(&|e| e.kind == Kind::Ensemble && e.actor == Actor::GarbageCollector && e.verb == Verb::Update && e.status.code == 200);
    assert_eq!(child_deletes.len(), 11);
    assert_eq!(owner_gone.len(), 1, "one finalizer removal");
    assert!(owner_gone[0] > *child_deletes.iter().max().unwrap(), "the owner goes last: {owner_gone:?} after {child_deletes:?}");
    assert!(run.frames.iter().any(|f| matches!(&f.event, Event::ReconcileNote { note: Note::OwnerTerminating { .. }, .. })));
    assert!(run.report.invariants[NO_ORPHANS].held);
}

/// Orphan deletion: the Ensemble goes; its children lose their reference to
/// it and stay, on purpose (no_orphans holds: nothing leaked).
#[test]
fn orphan_teardown_leaves_the_children_without_their_owner() {
    let run = teardown_with("Orphan");
    assert_eq!(run.report.live("Ensemble"), 0);
    assert_eq!(run.report.live("ConfigMap"), 11);
    assert!(run.world.api.objects_of(Kind::ConfigMap).all(|c| c.owner_references.is_empty()));
    assert!(run.report.invariants[NO_ORPHANS].held);
}

/// A finalizer holds its owner: the Ensemble, deleted, stays Terminating
/// and its children stay with it; an apply without the finalizer lets it go,
/// and the garbage collector collects them.
#[test]
fn a_finalizer_holds_the_owner_until_an_update_removes_it() {
    let scenario: cachescope::scenario::Scenario = serde_json::from_value(serde_json::json!({
        "name": "held", "until_ms": 40000,
        "cluster": {"watch_lag_ms": 500},
        "controller": {"kind": "ensemble"},
        "objects": [{"kind": "Ensemble", "name": "beta", "voices": 3, "finalizers": ["example.com/hold"]}],
        "actions": [
            {"at_ms": 5000, "delete": {"kind": "Ensemble", "name": "beta"}},
            {"at_ms": 20000, "apply": {"kind": "Ensemble", "name": "beta", "voices": 3}}
        ]
    }))
    .unwrap();
    let mut world = cachescope::sim::world::World::new(scenario.world_init());
    let key = ObjectKey::new("academy-lab", "beta");
    // The world as it stands before the apply's frame.
    let mut before = world.clone();
    while world.step().is_some_and(|f| f.at_ms < 20_000) {
        before = world.clone();
    }
    let held = before.api.get(Kind::Ensemble, &key).expect("held by its finalizer");
    assert!(held.is_terminating());
    assert_eq!(before.api.live_count(Kind::ConfigMap), 3);
    while world.step().is_some() {}
    assert!(world.api.get(Kind::Ensemble, &key).is_none());
    assert_eq!(world.api.live_count(Kind::ConfigMap), 0);
}

/// Seed objects may carry ownerReferences (to an object listed before them);
/// the garbage collector follows them. One naming nothing earlier is refused,
/// and the error names the field.
#[test]
fn seed_owner_references_are_followed_and_checked() {
    let doc = |owner: &str| {
        serde_json::json!({
            "name": "seeded", "until_ms": 20000,
            "cluster": {"watch_lag_ms": 500},
            "controller": {"kind": "pruner"},
            "objects": [
                {"kind": "Ensemble", "name": "alpha", "voices": 0},
                {"kind": "ConfigMap", "name": "alpha-part", "owner_references": [{"kind": "Ensemble", "name": owner, "controller": true}]}
            ],
            "actions": [{"at_ms": 2000, "delete": {"kind": "Ensemble", "name": "alpha"}}]
        })
    };
    let s = cachescope::scenario::Scenario::from_json(&doc("alpha").to_string()).unwrap();
    let run = support::run_scenario(s);
    assert_eq!(run.report.live("ConfigMap"), 0, "collected with its owner");
    assert!(run.world.gc.absent_owners.len() == 1, "the owner's UID is in the absent-owner cache");
    let err = cachescope::scenario::Scenario::from_json(&doc("nobody").to_string()).unwrap_err();
    assert_eq!(err.field, "objects[1].owner_references[0].name", "{err}");
}

/// `controller.fifo=delta`, v1.28's DeltaFIFO: the pruner's LIST reaches its
/// store one item at a time, `HasSynced` only at the last pop, and the
/// pruner, not waiting, reads a store that holds part of the list: it deletes
/// fewer than with the atomic store, every one of them before the sync.
#[test]
fn a_delta_fifo_fills_the_store_one_item_at_a_time() {
    let sets = [("cluster.initial_list_ms", "1500"), ("cluster.client_qps", "0")];
    let atomic = check("empty-cache", &sets);
    let mut delta_sets = sets.to_vec();
    delta_sets.push(("controller.fifo", "delta"));
    let delta = check("empty-cache", &delta_sets);
    let pops: Vec<(u32, u32, bool)> = delta
        .frames
        .iter()
        .filter_map(|f| match &f.event {
            Event::ListItemPopped { n, of, first_sync, .. } => Some((*n, *of, *first_sync)),
            _ => None,
        })
        .collect();
    assert_eq!(pops.len(), 50);
    assert!(pops.iter().all(|(n, of, synced)| *of == 50 && (*synced == (*n == 50))), "HasSynced at the last pop only");
    assert!(atomic.frames.iter().all(|f| !matches!(f.event, Event::ListItemPopped { .. })));
    let deletes = |r: &support::Run| r.report.api_count("delete", 200);
    assert!(deletes(&delta) < deletes(&atomic), "delta {} < atomic {}", deletes(&delta), deletes(&atomic));
    assert!(!delta.report.invariants[NO_DELETE_BEFORE_SYNC].held);
}

/// Two replicas, a lease between them (`two-replicas`): the leader freezes
/// after deciding to create; the standby takes the lease once it has seen it
/// go `lease_ms` unrenewed (timed from when it saw the last renewal, its
/// tries 2 to 4.4 s apart), lists, and creates; the old leader thaws, finds
/// the lease another's, and leads on until its renew deadline, 10 s after
/// its first failed renewal (client-go v0.36.3 leaderelection.go `renew`):
/// it sends the 3 creates it had decided, 9 pods, and both delete the
/// surplus. With one replica, the same freeze over-creates nothing.
#[test]
fn a_thawed_leader_works_until_its_renew_deadline() {
    let run = check("two-replicas", &[]);
    assert_eq!(run.report.peak_live["Pod"], 9, "{:?}", run.report);
    assert_eq!(run.report.live("Pod"), 6);
    let (freeze, thaw) = (11_200, 41_200);
    let elected: Vec<(char, u64, Option<u64>)> = run
        .frames
        .iter()
        .filter_map(|f| match &f.event {
            Event::LeaderElected { replica, expired_after_ms } => Some((*replica, f.at_ms, *expired_after_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(elected.len(), 2, "{elected:?}");
    assert_eq!((elected[0].0, elected[0].1), ('A', 0));
    // A renewed every 2 s from 0 until it froze: its last renewal R.
    let last_renewal = (freeze / 2_000) * 2_000;
    let (b, at, unrenewed) = elected[1];
    assert_eq!(b, 'B');
    assert_eq!(unrenewed, Some(at - last_renewal));
    let latest = last_renewal + 15_000 + 2 * (2_000 + 2_400);
    assert!(
        (last_renewal + 15_000..=latest).contains(&at),
        "B takes the lease within two jittered tries of its expiry as it saw it: {elected:?}"
    );
    let lost: Vec<(char, u64)> = run
        .frames
        .iter()
        .filter_map(|f| match f.event {
            Event::LeadershipLost { replica } => Some((replica, f.at_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(lost, [('A', thaw + 10_000)], "A stops leading at its renew deadline");
    // Meanwhile A works: its creates land after B's, in A's name.
    let creates: Vec<(u64, Option<char>)> = run
        .frames
        .iter()
        .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == Verb::Create && entry.status.code == 201 && f.at_ms > 10_000))
        .map(|f| (f.at_ms, f.replica))
        .collect();
    assert_eq!(creates.iter().filter(|c| c.1 == Some('B')).count(), 3, "{creates:?}");
    let by_a: Vec<u64> = creates.iter().filter(|c| c.1 == Some('A')).map(|c| c.0).collect();
    assert_eq!(by_a.len(), 3, "{creates:?}");
    assert!(by_a.iter().all(|t| (thaw..thaw + 10_000).contains(t)), "{by_a:?}");
    let a_frames = run.frames.iter().filter(|f| f.replica == Some('A') && f.at_ms > thaw && f.at_ms < thaw + 10_000).count();
    assert!(a_frames > 10, "A's workers go on between its thaw and its deadline: {a_frames} frames");
    let f = run.frames.iter().find(|f| f.at_ms == by_a[0] && f.replica == Some('A')).unwrap();
    assert!(cachescope::narrate::caption(f).starts_with("Replica A: replicaset-controller creates Pod"));
    assert!(!run.report.invariants[CHILDREN_WITHIN_DESIRED].held);

    let one = check("two-replicas", &[("controller.instances", "1")]);
    assert_eq!(one.report.peak_live["Pod"], 6);
    assert!(one.frames.iter().all(|f| f.replica.is_none() && !matches!(f.event, Event::LeaderElected { .. })));
}

/// With two replicas the lease must outlast the renew deadline, as client-go
/// requires ("leaseDuration must be greater than renewDeadline").
#[test]
fn two_replicas_need_a_lease_longer_than_the_renew_deadline() {
    let err = cachescope::scenario::preset("two-replicas").unwrap().with_settings([("cluster.lease_ms", "10000")]).unwrap_err();
    assert_eq!(err.field, "cluster.lease_ms", "{err}");
    assert!(err.to_string().contains("renew deadline"), "{err}");
    assert!(cachescope::scenario::preset("two-replicas").unwrap().with_settings([("cluster.lease_ms", "10001")]).is_ok());
}

/// A restart of the leader with two replicas: the restarted process is a new
/// identity, so both wait out the old lease; for that while no controller runs.
#[test]
fn a_restarted_leader_leaves_no_controller_until_the_lease_expires() {
    let mut s = cachescope::scenario::preset("two-replicas").unwrap().with_settings([("actions.1.pause_controller.for_ms", "1")]).unwrap();
    s.actions.push(cachescope::scenario::ActionSpec { at_ms: 20_000, restart_controller: Some(Default::default()), ..Default::default() });
    let run = support::run_scenario(s);
    let elected: Vec<u64> = run.frames.iter().filter(|f| matches!(f.event, Event::LeaderElected { .. })).map(|f| f.at_ms).collect();
    assert_eq!(elected.len(), 2, "{elected:?}");
    assert!(elected[1] >= 20_000 + 15_000 - 2_000, "the next leader waits out the lease: {elected:?}");
    assert_eq!(run.report.peak_live["Pod"], 6);
}

/// Bookmarks (`cluster.bookmark_ms`): each controller watch carries the
/// cluster's resourceVersion on a beat, after the lag like any event; the
/// store's progress mark moves to it though no object of that kind changed.
#[test]
fn a_bookmark_moves_a_quiet_informer_to_the_cluster_s_resource_version() {
    let run = check("over-create", &[("cluster.bookmark_ms", "10000")]);
    let bookmarks: Vec<(Kind, u64, u64)> = run
        .frames
        .iter()
        .filter_map(|f| match f.event {
            Event::BookmarkDelivered { kind, resource_version, .. } => Some((kind, resource_version, f.at_ms)),
            _ => None,
        })
        .collect();
    let ensemble: Vec<_> = bookmarks.iter().filter(|b| b.0 == Kind::Ensemble).collect();
    assert!(!ensemble.is_empty(), "{bookmarks:?}");
    // Sent at 10 s, after the lag (2 s): the ConfigMap writes moved the cluster's
    // resourceVersion past the Ensemble's own.
    let (_, rv, at) = *ensemble[0];
    assert_eq!(at, 10_000 + 2_000);
    let ens_rv = run.world.api.get(Kind::Ensemble, &ObjectKey::new("academy-lab", "beta")).unwrap().resource_version;
    assert!(rv > ens_rv, "the bookmark's rv {rv} is past the Ensemble's {ens_rv}");
    assert!(run.world.ctl.caches.informer(Kind::Ensemble).unwrap().last_sync_rv() >= rv);
    let f = run.frames.iter().find(|f| matches!(f.event, Event::BookmarkDelivered { .. })).unwrap();
    assert!(cachescope::narrate::caption(f).contains("no object changes"));
    // The lab's figures do not move.
    assert_eq!(run.report.live("ConfigMap"), check("over-create", &[]).report.live("ConfigMap"));
}

/// `cluster.bookmark_jitter_ms`: each BOOKMARK comes a seeded delay up to
/// the jitter after its beat, and the next a beat after it; 0 (the default)
/// draws nothing, so the run is the one without it, frame for frame.
#[test]
fn bookmark_jitter_delays_each_bookmark_within_its_bound() {
    let sent = |sets: &[(&str, &str)]| -> Vec<u64> {
        let run = check("over-create", sets);
        run.frames
            .iter()
            .filter_map(|f| match f.event {
                // Delivered after the lag (2 s) of the controller's watch of Ensembles.
                Event::BookmarkDelivered { kind: Kind::Ensemble, .. } => Some(f.at_ms - 2_000),
                _ => None,
            })
            .collect()
    };
    let beat = sent(&[("cluster.bookmark_ms", "10000")]);
    assert_eq!(beat, (1..=beat.len() as u64).map(|i| i * 10_000).collect::<Vec<_>>(), "on the beat");
    let zero = check("over-create", &[("cluster.bookmark_ms", "10000"), ("cluster.bookmark_jitter_ms", "0")]);
    assert_eq!(zero.report.trace_hash, check("over-create", &[("cluster.bookmark_ms", "10000")]).report.trace_hash);
    let jittered = sent(&[("cluster.bookmark_ms", "10000"), ("cluster.bookmark_jitter_ms", "3000")]);
    assert!(jittered.len() >= 2, "{jittered:?}");
    let gaps: Vec<u64> = std::iter::once(jittered[0]).chain(jittered.windows(2).map(|w| w[1] - w[0])).collect();
    assert!(gaps.iter().all(|g| (10_000..=13_000).contains(g)), "each a beat and at most 3 s: {gaps:?}");
    assert!(gaps.iter().any(|g| *g != 10_000), "some off the beat: {gaps:?}");
}

/// A request still waiting for the client-side rate limiter is a goroutine
/// of its process (client-go v0.36.3 `rest/request.go`, `(*Request).request`:
/// `tryThrottle` before `client.Do`), and dies with it; only one already on
/// the wire may still commit. A ReplicaSet of 20 under client-go's 5 QPS /
/// burst 10 and a 3 s watch lag, restarted while its creates queue at the
/// limiter: the new process LISTs the pods that exist and makes the rest, so
/// it ends at 20 and never more, at every restart time and seed. (Before,
/// the dead process's throttled creates were sent after the restart, and
/// the new one, whose LIST had not held them, made them again: 21 pods
/// with a restart at 4,000 ms.)
#[test]
fn a_restart_drops_requests_still_waiting_for_the_rate_limiter() {
    let (mut cut_short, mut said) = (0, 0);
    for seed in [1, 6] {
        for restart_at in (3_020..=6_100).step_by(40) {
            let scenario = replicaset_scenario(serde_json::json!({
                "seed": seed, "until_ms": 30000,
                "cluster": {"watch_lag_ms": 3000, "client_qps": 5, "client_burst": 10},
                "actions": [
                    {"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 20}},
                    {"at_ms": restart_at, "restart_controller": {}}
                ]
            }));
            let run = support::run_scenario(scenario);
            let at = format!("seed {seed}, restart at {restart_at} ms");
            assert_eq!(run.report.live("Pod"), 20, "{at}");
            assert_eq!(run.report.peak_live["Pod"], 20, "{at}: no pod made twice");
            assert!(run.report.invariants["children_within_desired"].held, "{at}");
            // The old process had creates waiting at its limiter: fewer than 20 of its own reached the apiserver.
            let before = run
                .frames
                .iter()
                .filter(|f| f.at_ms <= restart_at)
                .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == Verb::Create && entry.kind == Kind::Pod))
                .count();
            cut_short += usize::from(before < 20);
            // The restart says what died unsent.
            let restart = run.frames.iter().find(|f| matches!(f.event, Event::ControllerStarted { restart: true, .. })).unwrap();
            if let Event::ControllerStarted { abandoned: n @ 1.., .. } = restart.event {
                said += 1;
                let caption = cachescope::narrate::caption(restart);
                assert!(caption.contains(&format!("{n} request")) && caption.contains("died with it, unsent"), "{at}: {caption}");
            }
        }
    }
    assert!(cut_short > 10, "{cut_short} restarts came while creates were still being sent");
    assert!(said > 5, "{said} restarts left requests at the limiter");
}

/// v1.36's consistency store records the controller's creates and status
/// writes, not its deletes: client-go v0.36.3's typed `Delete`
/// (`gentype/type.go`, `(*Client[T]).Delete`) and controller-runtime's
/// (`pkg/client/typed_client.go`) return only an error, so there is no
/// resourceVersion to record (kubernetes #138400; #138724, which passes it,
/// came after v1.36). An Ensemble of 8 under GenerateName and
/// --double-enqueue is scaled to 2 at 10 s under a 2 s lag: the store keeps
/// the creates to 8 (the re-added reconciles are skipped), but the
/// reconcile re-added after the scale-down's deletes runs on a cache that
/// still holds the deleted ConfigMaps and deletes them again: 404 NotFound,
/// which nothing in the store prevented.
#[test]
fn the_consistency_store_protects_creates_not_deletes() {
    let scenario: cachescope::scenario::Scenario = serde_json::from_value(serde_json::json!({
        "name": "scale-down", "seed": 1, "until_ms": 30000,
        "cluster": {"watch_lag_ms": 2000, "api_latency_ms": 20, "initial_list_ms": 300},
        "controller": {"kind": "ensemble", "naming": "generate", "double_enqueue": true, "delete_surplus": true, "consistency_store": true},
        "actions": [
            {"at_ms": 500, "apply": {"kind": "Ensemble", "name": "beta", "voices": 8}},
            {"at_ms": 10000, "scale": {"kind": "Ensemble", "name": "beta", "to": 2}}
        ]
    }))
    .unwrap();
    let run = support::run_scenario(scenario.clone());
    assert_eq!(run.report.peak_live["ConfigMap"], 8, "the creates are protected: {:?}", run.report);
    assert!(run.report.metrics["ensemble-controller"].stale_sync_skips >= 1, "{:?}", run.report);
    assert_eq!(run.report.live("ConfigMap"), 2);
    assert!(run.report.api_count("delete", 404) >= 1, "the deletes are not: {:?}", run.report.api);
    // No delete is recorded: after each one, no record holds its resourceVersion.
    let mut world = cachescope::sim::world::World::new(scenario.world_init());
    let mut deletes = 0;
    while let Some(f) = world.step() {
        if let Event::ApiRequest { entry, .. } = &f.event {
            if entry.verb == Verb::Delete && entry.status.code == 200 {
                let rv = entry.resource_version.expect("a delete's resourceVersion");
                let recorded = world.ctl.consistency.records().any(|(_, r)| r.versions.iter().any(|(_, v)| *v == rv));
                assert!(!recorded, "frame {}: the delete at resourceVersion {rv} was recorded", f.n);
                deletes += 1;
            }
        }
    }
    assert!(deletes >= 6, "{deletes} deletes checked");
}

/// Each kind's program has its own client-side limit when the scenario sets
/// none. The ReplicaSet controller runs in kube-controller-manager: 20 QPS,
/// burst 30 (`SetDefaults_KubeControllerManagerConfiguration`), and its
/// shared informers' LISTs go through a client of their own. A ReplicaSet
/// of 700 is whole within 60 s (under client-go's 5 / 10 it had 304 pods),
/// and from its first request on it never sends more than 30 + 20·t.
#[test]
fn a_replicaset_defaults_to_kube_controller_manager_s_20_qps_burst_30() {
    let scenario = |cluster: serde_json::Value| {
        replicaset_scenario(serde_json::json!({
            "cluster": cluster,
            "actions": [{"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 700}}]
        }))
    };
    let default = support::run_scenario(scenario(serde_json::json!({"watch_lag_ms": 2000})));
    assert_eq!(default.report.live("Pod"), 700);
    let sent: Vec<(u64, u64, bool)> = default
        .frames
        .iter()
        .filter_map(|f| match &f.event {
            Event::ApiRequest { entry, throttled_ms, .. } if matches!(entry.actor, Actor::Controller(_) | Actor::Informer(_)) => Some((
                f.at_ms - default.scenario.cluster.api_latency_ms - throttled_ms,
                *throttled_ms,
                matches!(entry.actor, Actor::Informer(_)),
            )),
            _ => None,
        })
        .collect();
    assert!(sent.iter().filter(|s| s.2).all(|s| s.1 == 0), "the shared informers' LISTs wait for no token");
    let worker: Vec<u64> = sent.iter().filter(|s| !s.2).map(|s| s.0 + s.1).collect();
    let first = *worker.iter().min().unwrap();
    for (n, left) in {
        let mut w = worker.clone();
        w.sort();
        w
    }
    .iter()
    .enumerate()
    {
        let allowed = 30 + (left - first) * 20 / 1000;
        assert!((n as u64) < allowed, "request {} left at {left} ms, past 30 + 20/s from {first} ms", n + 1);
    }
    assert!(sent.iter().any(|s| s.1 > 0), "700 creates meet the limit");
    let client_go = support::run_scenario(scenario(serde_json::json!({"watch_lag_ms": 2000, "client_qps": 5, "client_burst": 10})));
    assert!(client_go.report.live("Pod") < 400, "client-go's 5 / 10: {}", client_go.report.live("Pod"));
}

/// The Ensemble operator is written with controller-runtime, whose
/// `GetConfigWithContext` sets QPS -1 when it is unset (v0.21+,
/// `pkg/client/config/config.go`; its test `Describe("GetConfigWithContext")`
/// expects `cfg.QPS == -1`): no client-side wait. With a qps set, the burst
/// is rest.Config's default, 10.
#[test]
fn an_ensemble_has_no_client_side_limit_by_default() {
    let throttled = |sets: &[(&str, &str)]| -> Vec<u64> {
        let run = check("over-create", &[&[("actions.0.apply.voices", "40")][..], sets].concat());
        run.frames
            .iter()
            .filter_map(|f| match &f.event {
                Event::ApiRequest { entry, throttled_ms, .. } if matches!(entry.actor, Actor::Controller(_) | Actor::Informer(_)) => {
                    Some(*throttled_ms)
                }
                _ => None,
            })
            .collect()
    };
    let default = throttled(&[]);
    assert!(default.len() > 40, "{} requests", default.len());
    assert!(default.iter().all(|t| *t == 0), "{default:?}");
    let limited = throttled(&[("cluster.client_qps", "5")]);
    assert!(limited.iter().filter(|t| **t > 0).count() >= 30, "at 5 QPS, burst 10, 40 creates wait: {limited:?}");
}

/// The garbage collector deletes a dependent with its UID and
/// resourceVersion as preconditions (kubernetes #132632, v1.34: "to ensure
/// that the object was properly classified for deletion"). alpha-part's
/// only owner is deleted; while the collector judges it, kubectl gives it a
/// live owner, gamma. The DELETE meets the changed object: 409, nothing
/// deleted; the attempt starts again, finds gamma solid, and leaves it.
/// (With the UID alone, the DELETE went through and took gamma's child.)
#[test]
fn the_garbage_collector_does_not_delete_a_dependent_that_changed_since_it_was_read() {
    let scenario = cachescope::scenario::Scenario::from_json(
        &serde_json::json!({
            "name": "adopted", "until_ms": 20000,
            "cluster": {"watch_lag_ms": 500},
            "controller": {"kind": "ensemble"},
            "objects": [
                {"kind": "Ensemble", "name": "alpha", "voices": 0},
                {"kind": "Ensemble", "name": "gamma", "voices": 0},
                {"kind": "ConfigMap", "name": "alpha-part", "owner_references": [{"kind": "Ensemble", "name": "alpha", "controller": true}]}
            ],
            "actions": [{"at_ms": 2000, "delete": {"kind": "Ensemble", "name": "alpha"}}]
        })
        .to_string(),
    )
    .unwrap();
    let mut world = cachescope::sim::world::World::new(scenario.world_init());
    let part = ObjectKey::new("academy-lab", "alpha-part");
    let is_gc = |f: &cachescope::sim::frame::Frame, verb: Verb| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.actor == Actor::GarbageCollector && entry.verb == verb && entry.name == "alpha-part");
    // Step to the answer of the collector's GET of alpha-part, then adopt it.
    while !world.step().is_some_and(|f| is_gc(&f, Verb::Get)) {}
    let gamma = world.api.get(Kind::Ensemble, &ObjectKey::new("academy-lab", "gamma")).unwrap().clone();
    let mut adopted = cachescope::sim::object::ObjectTemplate {
        namespace: "academy-lab".into(),
        name: Some("alpha-part".into()),
        generate_name: None,
        labels: Default::default(),
        annotations: Default::default(),
        owner_references: std::rc::Rc::new(vec![cachescope::sim::object::OwnerReference {
            kind: Kind::Ensemble,
            name: "gamma".into(),
            uid: gamma.uid,
            controller: true,
        }]),
        finalizers: Vec::new(),
        spec: cachescope::sim::object::Spec::ConfigMap,
    };
    adopted.labels = world.api.get(Kind::ConfigMap, &part).unwrap().labels.clone();
    world.inject(cachescope::sim::world::ActionKind::Apply(adopted));
    let mut deletes = Vec::new();
    let mut gets_after = 0;
    while let Some(f) = world.step() {
        if is_gc(&f, Verb::Delete) {
            let Event::ApiRequest { entry, .. } = &f.event else { unreachable!() };
            deletes.push((entry.status, entry.message()));
        } else if is_gc(&f, Verb::Get) && !deletes.is_empty() {
            gets_after += 1;
        }
    }
    assert_eq!(deletes.len(), 1, "{deletes:?}");
    assert_eq!(deletes[0].0, cachescope::sim::apiserver::Status::CONFLICT);
    assert!(deletes[0].1.contains("Precondition failed: ResourceVersion in precondition"), "{}", deletes[0].1);
    assert_eq!(gets_after, 1, "the attempt starts again with a live GET");
    let kept = world.api.get(Kind::ConfigMap, &part).expect("gamma's child stays");
    assert_eq!(kept.owner_references[0].uid, gamma.uid);
}

/// The ReplicaSet controller writes its status after every sync unless
/// nothing changed (`syncReplicaSet`: "Always updates status as pods come up
/// or die"), and so by default: under a 2 s lag its writes from a stale
/// lister meet 409 Conflict, and its own status writes come back through the
/// watch as MODIFIED events that queue it again. Off, none of that happens.
#[test]
fn the_replicaset_writes_status_by_default() {
    let scenario: cachescope::scenario::Scenario = serde_json::from_value(serde_json::json!({
        "name": "rs", "seed": 3, "until_ms": 30000,
        "cluster": {"watch_lag_ms": 2000},
        "controller": {"kind": "replicaset"},
        "actions": [{"at_ms": 500, "apply": {"kind": "ReplicaSet", "name": "web", "replicas": 3}}]
    }))
    .unwrap();
    assert!(scenario.controller.update_status, "on unless a scenario turns it off");
    let status_writes = |run: &support::Run, code: u16| {
        run.frames
            .iter()
            .filter(|f| matches!(&f.event, Event::ApiRequest { entry, .. } if entry.verb == Verb::Update && entry.status_write.is_some() && entry.status.code == code))
            .count()
    };
    let self_woken = |run: &support::Run| {
        run.frames.iter().any(|f| {
            matches!(
                &f.event,
                Event::ReconcileStarted {
                    queued_by: Some(cachescope::sim::frame::QueuedBy::Watch {
                        event_type: cachescope::sim::apiserver::EventType::Modified,
                        kind: Kind::ReplicaSet,
                        ..
                    }),
                    ..
                }
            )
        })
    };
    let on = support::run_scenario(scenario.clone());
    assert!(
        status_writes(&on, 200) >= 1 && status_writes(&on, 409) >= 1,
        "{} written, {} conflicts",
        status_writes(&on, 200),
        status_writes(&on, 409)
    );
    assert!(self_woken(&on), "a reconcile queued by the ReplicaSet's own MODIFIED");
    let off = support::run_scenario(scenario.with_settings([("controller.update_status", "false")]).unwrap());
    assert_eq!((status_writes(&off, 200), status_writes(&off, 409)), (0, 0));
    assert!(!self_woken(&off));
}
