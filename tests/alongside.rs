//! Two levels of ownership (`controller.alongside`): Cluster API's
//! MachineDeployment controller creates a MachineSet and waits for its cache;
//! the MachineSet controller beside it creates its Machines. A cache slower
//! than the wait makes the retry create another MachineSet, whose Machines
//! are made too (kubernetes-sigs/cluster-api #13649).

use cachescope::report::Report;
use cachescope::scenario::Scenario;
use serde_json::{json, Value};

fn capi() -> Value {
    json!({
        "name": "capi-two-levels",
        "until_ms": 60000,
        "cluster": {"watch_lag_ms": 500},
        // The MachineSet watch runs late: its first ADDED (and every one behind it) lands at 36.5 s.
        "schedule": [{"kind": "MachineSet", "nth": 1, "at_ms": 36500}],
        "kinds": [
            {"name": "Machine", "resource": "machines.cluster.x-k8s.io"},
            {"name": "MachineSet", "resource": "machinesets.cluster.x-k8s.io", "desired": "replicas",
             "children": {"kind": "Machine", "label": "cluster.x-k8s.io/set-name"}},
            {"name": "MachineDeployment", "resource": "machinedeployments.cluster.x-k8s.io", "desired": "replicas",
             "children": {"kind": "MachineSet", "label": "cluster.x-k8s.io/deployment-name"}}
        ],
        "objects": [{"kind": "MachineDeployment", "name": "md-0", "spec": {"replicas": 2}}],
        "invariants": [{"name": "one-machineset", "at_most": {"count": 1, "owner": "MachineDeployment"}}],
        "controller": {
            "kind": "ensemble",
            "recipe": {
                "name": "machinedeployment-controller", "owner": "MachineDeployment", "child": "MachineSet",
                "steps": [
                    {"get_owner": {}},
                    {"count": {"select": "active_controlled", "desired": 1}},
                    {"create": {"naming": {"generate": "-"}, "label": "cluster.x-k8s.io/deployment-name", "copy_desired": true}},
                    {"wait_for_cache": {"timeout_ms": 10000}},
                    "return"
                ]
            },
            "alongside": [{
                "name": "machineset-controller", "owner": "MachineSet", "child": "Machine",
                "steps": [
                    {"get_owner": {}},
                    {"count": {"select": "active_controlled"}},
                    {"create": {"naming": {"generate": "-"}, "label": "cluster.x-k8s.io/set-name"}},
                    {"wait_for_cache": {"timeout_ms": 10000}},
                    "return"
                ]
            }]
        }
    })
}

#[test]
fn a_controller_beside_the_recipe_makes_the_second_level_and_a_slow_cache_duplicates_both() {
    let s = Scenario::from_value(capi()).unwrap_or_else(|e| panic!("{e}"));
    let run = Report::run(&s);
    let sets = run.peak_live.get("MachineSet").copied().unwrap_or(0);
    let machines = run.peak_live.get("Machine").copied().unwrap_or(0);
    eprintln!("{}", serde_json::to_string(&run).unwrap());
    assert!(sets >= 2, "the retry after each timeout creates another MachineSet: {sets}");
    assert_eq!(machines, 2 * sets, "each MachineSet is given 2 Machines by the controller beside: {machines}");
    assert!(!run.invariants["one-machineset"].held, "the invariant names the duplicate");
    // The built-in invariant counts against what the controller counts against: one MachineSet, not the replicas.
    assert_eq!(run.invariants["children_within_desired"].first_broken_frame, run.invariants["one-machineset"].first_broken_frame);
}

#[test]
fn the_consistency_store_keeps_the_retry_from_creating_another_machineset() {
    let mut v = capi();
    v["controller"]["consistency_store"] = true.into();
    v["controller"]["recipe"]["steps"].as_array_mut().unwrap().insert(0, json!("ensure_ready"));
    let run = Report::run(&Scenario::from_value(v).unwrap_or_else(|e| panic!("{e}")));
    eprintln!("{}", serde_json::to_string(&run).unwrap());
    assert_eq!(run.peak_live.get("MachineSet"), Some(&1), "one MachineSet");
    assert_eq!(run.peak_live.get("Machine"), Some(&2), "its two Machines");
    assert!(run.invariants["one-machineset"].held && run.invariants["children_within_desired"].held);
    assert!(run.metrics["machinedeployment-controller"].stale_sync_skips > 0, "the retries were skipped, not run");
}

#[test]
fn deleting_the_machinedeployment_takes_both_levels_with_it() {
    let mut v = capi();
    v["until_ms"] = 90000.into();
    v["actions"] = json!([{"at_ms": 45000, "delete": {"kind": "MachineDeployment", "name": "md-0"}}]);
    let run = Report::run(&Scenario::from_value(v).unwrap_or_else(|e| panic!("{e}")));
    assert_eq!(run.peak_live.get("Machine"), Some(&8), "both levels were made");
    for kind in ["MachineDeployment", "MachineSet", "Machine"] {
        assert_eq!(run.live.get(kind).copied().unwrap_or(0), 0, "the garbage collector took every {kind}: {:?}", run.live);
    }
}

#[test]
fn a_controller_beside_the_recipe_that_breaks_a_rule_is_refused_naming_its_field() {
    type Break = fn(&mut Value);
    let cases: [(&str, Break, &str, &str); 8] = [
        (
            "its owner is a built-in kind",
            |v| v["controller"]["alongside"][0]["owner"] = "Pod".into(),
            "controller.alongside[0].owner",
            "Pod",
        ),
        (
            "its owner is what no controller here creates",
            |v| v["controller"]["alongside"][0]["owner"] = "MachineDeployment".into(),
            "controller.alongside[0].owner",
            "MachineDeployment",
        ),
        ("a second replica", |v| v["controller"]["instances"] = 2.into(), "controller.instances", "2"),
        (
            "a misspelt step",
            |v| v["controller"]["alongside"][0]["steps"][0] = json!({"get_ownr": {}}),
            "controller.alongside[0].steps[0]",
            "get_ownr",
        ),
        (
            "a step out of place",
            |v| {
                v["controller"]["alongside"][0]["steps"].as_array_mut().unwrap().remove(0);
            },
            "controller.alongside[0].steps[0].count",
            "",
        ),
        ("no recipe beside it", |v| v["controller"]["recipe"] = Value::Null, "controller.alongside", ""),
        (
            "a count against too many",
            |v| v["controller"]["recipe"]["steps"][1]["count"]["desired"] = 101.into(),
            "controller.recipe.steps[1].count.desired",
            "101",
        ),
        (
            "a desired count copied to a kind without one",
            |v| v["controller"]["alongside"][0]["steps"][2]["create"]["copy_desired"] = true.into(),
            "controller.alongside[0].steps[2].create.copy_desired",
            "true",
        ),
    ];
    assert!(Scenario::from_value(capi()).is_ok());
    for (what, break_it, field, value) in cases {
        let mut v = capi();
        break_it(&mut v);
        let e = Scenario::from_value(v).expect_err(what);
        let said = e.to_string();
        assert!(said.starts_with(field), "{what}: {said}");
        assert!(said.contains(value), "{what}: {said} does not quote {value:?}");
    }
}

#[test]
fn the_reconcile_and_workqueue_panels_follow_the_frames_controller() {
    use cachescope::sim::frame::Event;
    use cachescope::view::session::Session;
    use cachescope::view::snapshot::snapshot;
    let mut s = Session::new(Scenario::from_value(capi()).unwrap());
    s.seek(usize::MAX);
    let frames = s.frames().to_vec();
    // The MachineSet controller's first count, and the MachineDeployment controller's.
    let first = |beside: Option<u8>| {
        frames.iter().position(|f| f.beside == beside && matches!(f.event, Event::ReconcileNote { .. })).expect("a reconcile note") + 1
    };
    for (beside, name, code) in [
        (Some(0), "machineset-controller", "cluster.x-k8s.io/set-name: owner.Name"),
        (None, "machinedeployment-controller", "Spec.replicas: owner.Spec.replicas"),
    ] {
        s.seek(first(beside));
        let snap = snapshot(&s);
        assert_eq!(snap.reconcile.controller, Some(name), "the panel names whose code it is");
        assert!(snap.reconcile.lines.iter().any(|l| l.text.contains(code)), "{name}'s code: {:?}", snap.reconcile.lines);
        assert_eq!(snap.reconcile.lines.iter().filter(|l| l.lit).count(), 1, "its step lit");
        assert_eq!(snap.queue.controller, Some(name), "the Workqueue panel follows it too");
        assert!(snap.queue.workers.iter().any(|w| w.busy.is_some()), "{name}'s worker is busy with the reconcile");
    }
    // Without controllers beside it, the panels name no one.
    let mut plain = capi();
    plain["controller"]["alongside"] = json!([]);
    let one = Session::new(Scenario::from_value(plain).unwrap());
    assert_eq!((snapshot(&one).reconcile.controller, snapshot(&one).queue.controller), (None, None));
}

#[test]
fn the_cache_panel_shows_each_kind_from_a_controller_that_watches_it() {
    let mut s = cachescope::view::session::Session::new(Scenario::from_value(capi()).unwrap());
    s.seek(usize::MAX);
    let w = s.world();
    let machines = *w.kinds.iter().find(|k| k.to_string() == "Machine").expect("a declared kind");
    // The recipe's own controller does not watch Machines; the MachineSet controller beside it does, and holds all 8.
    assert!(w.ctl.caches.informer(machines).is_none());
    assert_eq!(w.controller_informer(machines).map(|i| i.len()), Some(8));
}
