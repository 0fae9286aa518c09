//! controller-runtime as the lab's operator runs on it (issue 21, "What it
//! must show"): its two answers to the stale cache, read-your-writes and
//! live reads, each ending lab 1's GenerateName over-create at exactly 4;
//! the priority queue; and the rules the choice of library is held to.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use cachescope::scenario::{preset, Scenario};
use cachescope::sim::apiserver::{Actor, Verb};
use cachescope::sim::controller_runtime::Read;
use cachescope::sim::controllers::Note;
use cachescope::sim::frame::Event;
use cachescope::sim::invariants::CHILDREN_WITHIN_DESIRED;
use cachescope::sim::object::Kind;
use cachescope::sim::workqueue::LOW_PRIORITY;
use cachescope::sim::world::World;
use support::check;

const LAGS: [&str; 11] = ["0", "500", "1000", "1500", "2000", "2500", "3000", "3500", "4000", "4500", "5000"];

/// The reads of a run that a read-your-writes client held.
fn held_reads(run: &support::Run) -> Vec<(u64, Read)> {
    run.frames
        .iter()
        .filter_map(|f| match &f.event {
            Event::ReconcileNote { note: Note::ReadWaits { read, .. }, .. } => Some((f.at_ms, read.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn with_read_your_writes_the_generate_name_over_create_ends_at_exactly_4_at_every_lag() {
    for lag in LAGS {
        let sets = [("controller.naming", "generate"), ("cluster.watch_lag_ms", lag), ("controller.read_your_writes", "true")];
        let run = check("over-create", &sets);
        let r = &run.report;
        assert_eq!((r.live("ConfigMap"), r.peak_live["ConfigMap"]), (4, 4), "lag {lag}: {r:?}");
        assert!(r.invariants[CHILDREN_WITHIN_DESIRED].held, "lag {lag}");
        let m = &r.metrics["ensemble-controller"];
        assert_eq!((m.stale_sync_skips, m.requeues), (0, 0), "lag {lag}: it blocks, it never skips or requeues");
        // The answer is a wait: the double-enqueued reconcile's List is held
        // until the 4 ADDED events are in, a watch lag after its creates.
        let held = held_reads(&run);
        if lag == "0" {
            assert!(held.is_empty(), "nothing to wait for at lag 0: {held:?}");
        } else {
            assert!(held.iter().any(|(_, read)| *read == Read::List { kind: Kind::ConfigMap }), "lag {lag}: {held:?}");
        }
    }
}

#[test]
fn with_live_reads_the_generate_name_over_create_ends_at_exactly_4_at_every_lag() {
    for lag in LAGS {
        let sets = [("controller.naming", "generate"), ("cluster.watch_lag_ms", lag), ("controller.live_reads", "true")];
        let run = check("over-create", &sets);
        let r = &run.report;
        assert_eq!((r.live("ConfigMap"), r.peak_live["ConfigMap"]), (4, 4), "lag {lag}: {r:?}");
        let m = &r.metrics["ensemble-controller"];
        assert_eq!(m.stale_sync_skips, 0);
        // Every reconcile reads the apiserver: a GET of the Ensemble, a LIST of ConfigMaps.
        let by_controller = |verb: Verb, kind: Kind| {
            run.frames
                .iter()
                .filter(|f| {
                    matches!(&f.event, Event::ApiRequest { entry, .. }
                        if entry.verb == verb && entry.kind == kind && matches!(entry.actor, Actor::Controller(_)))
                })
                .count() as u64
        };
        assert_eq!(by_controller(Verb::Get, Kind::Ensemble), m.reconciles, "lag {lag}");
        assert_eq!(by_controller(Verb::List, Kind::ConfigMap), m.reconciles, "lag {lag}");
        assert!(held_reads(&run).is_empty(), "a live read never waits for the cache");
    }
}

#[test]
fn without_either_the_same_run_over_creates() {
    // The control: the same runtime, reading its cache as the lab's operator does.
    for lag in ["1000", "3000", "5000"] {
        let run = check("over-create", &[("controller.naming", "generate"), ("cluster.watch_lag_ms", lag)]);
        assert_eq!(run.report.live("ConfigMap"), 11, "lag {lag}");
        assert!(held_reads(&run).is_empty());
    }
}

#[test]
fn the_initial_list_is_queued_at_low_priority_under_controller_runtime_only() {
    // Beta exists before the operator starts: its ADDED comes in the initial LIST.
    let doc = |runtime: &str| {
        let mut v = preset("over-create").unwrap().to_value();
        v["actions"] = serde_json::json!([]);
        v["objects"] = serde_json::json!([{ "kind": "Ensemble", "name": "beta", "voices": 4 }]);
        v["controller"]["runtime"] = serde_json::json!(runtime);
        Scenario::from_json(&v.to_string()).unwrap()
    };
    for (runtime, priority) in [("controller-runtime", LOW_PRIORITY), ("client-go", 0)] {
        let s = doc(runtime);
        let mut world = World::new(s.world_init());
        let filled = loop {
            let f = world.step().expect("the Ensemble's cache fills");
            if matches!(f.event, Event::CacheFilled { kind: Kind::Ensemble, first_sync: true, .. }) {
                break f;
            }
        };
        assert!(world.ctl.queue.queued().any(|k| k == "academy-lab/beta"), "{runtime}: {filled:?}");
        assert_eq!(world.ctl.queue.priority(&"academy-lab/beta".into()), priority, "{runtime}");
        assert_eq!(world.ctl.queue.has_priorities(), runtime == "controller-runtime");
    }
}

#[test]
fn only_the_operator_is_written_with_controller_runtime_and_only_it_has_its_client() {
    for (name, sets, field) in [
        ("replicaset-pressure", vec![("controller.runtime", "controller-runtime")], "controller.runtime"),
        ("empty-cache", vec![("controller.runtime", "controller-runtime")], "controller.runtime"),
        ("replicaset-pressure", vec![("controller.read_your_writes", "true")], "controller.read_your_writes"),
        ("over-create", vec![("controller.runtime", "client-go"), ("controller.live_reads", "true")], "controller.live_reads"),
    ] {
        let err = preset(name).unwrap().with_settings(sets.iter().copied()).expect_err(name);
        assert_eq!(err.field, field, "{name}: {err}");
    }
    let ok = preset("over-create").unwrap().with_settings([("controller.runtime", "client-go")]).unwrap();
    assert_eq!(ok.controller.runtime(), cachescope::sim::settings::RuntimeKind::ClientGo);
}

/// `reconcileHandler` (pkg/internal/controller/controller.go): an error that
/// `errors.Is(err, reconcile.TerminalError(nil))` is counted and never
/// requeued; a `RequeueAfter` comes back after its delay with no event. The
/// result-handling preset's run, and the rules a recipe's `terminal` keeps.
#[test]
fn reconcile_handler_counts_a_terminal_error_and_never_requeues_it() {
    use cachescope::sim::reconcile::Requeue;
    let run = support::run_scenario(preset("result-handling").unwrap());
    let finished: Vec<(u64, Requeue)> = run
        .frames
        .iter()
        .filter_map(|f| match &f.event {
            Event::ReconcileFinished { requeue, .. } => Some((f.at_ms, *requeue)),
            _ => None,
        })
        .collect();
    let terminal: Vec<u64> = finished.iter().filter(|(_, r)| *r == Requeue::Terminal).map(|(at, _)| *at).collect();
    assert_eq!(terminal.len(), 1, "{finished:?}");
    // Nothing ran between the terminal error and the scale back at 24 s: no retry, no poll.
    let next = finished.iter().find(|(at, _)| *at > terminal[0]).unwrap().0;
    assert!(next > 24_000, "the next reconcile at {next} ms, after the owner's event at 24 s");
    assert!(finished.iter().any(|(_, r)| *r == Requeue::After { delay_ms: 5_000 }), "it polls with RequeueAfter");
    // terminal: true needs error: true, and controller-runtime.
    let mut doc = preset("result-handling").unwrap().to_value();
    doc["controller"]["recipe"]["steps"][2]["return_if"]["error"] = serde_json::json!(false);
    let e = Scenario::from_json(&doc.to_string()).unwrap_err();
    assert_eq!((e.field.as_str(), e.value.as_deref()), ("controller.recipe.steps[2].return_if.terminal", Some("true")), "{e}");
    let mut doc = preset("result-handling").unwrap().to_value();
    doc["controller"]["runtime"] = serde_json::json!("client-go");
    let e = Scenario::from_json(&doc.to_string()).unwrap_err();
    assert_eq!(e.field, "controller.recipe.steps[2].return_if.terminal", "{e}");
    assert!(e.to_string().contains("controller-runtime"), "{e}");
}
