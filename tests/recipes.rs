//! A reconcile written as a recipe (`controller.recipe`) runs through the
//! same interpreter as the built-in controllers: each preset, with its own
//! reconcile written out as the recipe `cachescope recipe --json` prints,
//! gives the very trace it gives without; a recipe that breaks a rule is
//! refused naming the step and field, on the command line with exit 2.

use cachescope::report::Report;
use cachescope::scenario::{preset, preset_names, Scenario};
use cachescope::sim::controllers::bundled;
use serde_json::{json, Value};
use std::process::Command;

/// The preset with its reconcile written out as a recipe (the switches
/// that wrote it back at their defaults: a recipe says them itself).
fn as_recipe(name: &str) -> Option<Scenario> {
    let s = preset(name).unwrap();
    bundled::recipe(&s.controller)?;
    let v = cachescope::scenario::recipe::written_out(&s).unwrap();
    Some(Scenario::from_value(v).unwrap_or_else(|e| panic!("{name} as a recipe: {e}")))
}

#[test]
fn every_preset_written_as_its_recipe_runs_the_same_trace() {
    let mut compared = 0;
    for name in preset_names() {
        let Some(written) = as_recipe(name) else { continue };
        let built_in = Report::run(&preset(name).unwrap());
        let run = Report::run(&written);
        assert_eq!(run.trace_hash, built_in.trace_hash, "{name}: the recipe's run differs from the built-in's");
        compared += 1;
    }
    assert!(compared >= 8, "only {compared} presets have a reconcile loop");
}

#[test]
fn a_changed_line_of_the_recipe_changes_the_run() {
    // Lab 1's fix, as one line of the recipe: the create step's naming.
    let mut v = as_recipe("over-create").unwrap().to_value();
    let steps = v["controller"]["recipe"]["steps"].as_array_mut().unwrap();
    let create = steps.iter_mut().find(|s| s.get("create").is_some()).unwrap();
    create["create"]["naming"] = json!({"generate": "-voice-"});
    let generated = Report::run(&Scenario::from_value(v).unwrap());
    let mut v = preset("over-create").unwrap().to_value();
    v["controller"]["naming"] = "generate".into();
    let switched = Report::run(&Scenario::from_value(v).unwrap());
    assert_eq!(generated.trace_hash, switched.trace_hash, "the line and the switch are one change");
    assert_ne!(generated.trace_hash, Report::run(&preset("over-create").unwrap()).trace_hash);
}

/// A valid recipe document for the Ensemble, to break one field at a time.
fn base() -> Value {
    json!({
        "name": "mine",
        "objects": [{"kind": "Ensemble", "name": "beta", "voices": 3}],
        "controller": {"kind": "ensemble", "recipe": {
            "owner": "Ensemble", "child": "ConfigMap",
            "steps": [
                {"get_owner": {"from": "cache"}},
                {"count": {"select": {"label": "academy.k3ii.dev/ensemble"}, "victims": "past_desired"}},
                {"create": {"naming": {"generate": "-voice-"}, "label": "academy.k3ii.dev/ensemble"}},
                {"delete": {}},
                "return"
            ]
        }}
    })
}

/// Step `i` of the document's recipe.
fn step(i: usize) -> impl Fn(&mut Value) -> &mut Value {
    move |v| &mut v["controller"]["recipe"]["steps"][i]
}

/// Each broken field, and what its error must name: the field's path and, where there is one, its value.
/// What breaks a field of the document.
type Break = Box<dyn Fn(&mut Value)>;

fn broken() -> Vec<(&'static str, Break, &'static str, &'static str)> {
    vec![
        (
            "a read source",
            Box::new(move |v| step(0)(v)["get_owner"]["from"] = "cahce".into()),
            "controller.recipe.steps[0].get_owner.from",
            "cahce",
        ),
        (
            "a read through controller-runtime's client, in a client-go program",
            Box::new(move |v| {
                step(1)(v)["count"]["from"] = "read_your_writes".into();
                v["controller"]["runtime"] = "client-go".into();
            }),
            "controller.recipe.steps[1].count.from",
            "read_your_writes",
        ),
        (
            "a propagation policy",
            Box::new(move |v| step(3)(v)["delete"]["propagation"] = "orphan".into()),
            "controller.recipe.steps[3].delete.propagation",
            "orphan",
        ),
        (
            "an annotation's key",
            Box::new(move |v| *step(2)(v) = json!({"label_owner": {"annotations": {"team name": "storage"}}})),
            "controller.recipe.steps[2].label_owner.annotations",
            "team name",
        ),
        (
            "an annotation's value",
            Box::new(move |v| *step(2)(v) = json!({"label_owner": {"annotations": {"example.com/team": "storage\u{7}"}}})),
            "controller.recipe.steps[2].label_owner.annotations.example.com/team",
            "U+0007",
        ),
        (
            "a label step that writes nothing",
            Box::new(move |v| *step(2)(v) = json!({"label_owner": {"annotations": {}}})),
            "controller.recipe.steps[2].label_owner.labels",
            "{}",
        ),
        (
            "a victims order",
            Box::new(move |v| step(1)(v)["count"]["victims"] = "highest".into()),
            "controller.recipe.steps[1].count.victims",
            "highest",
        ),
        ("a step name", Box::new(move |v| *step(0)(v) = json!({"get_ownr": {}})), "controller.recipe.steps[0]", "get_ownr"),
        (
            "an unknown field",
            Box::new(move |v| step(0)(v)["get_owner"]["form"] = "cache".into()),
            "controller.recipe.steps[0].get_owner.form",
            "form",
        ),
        (
            "a selector",
            Box::new(move |v| step(1)(v)["count"]["select"] = "everything".into()),
            "controller.recipe.steps[1].count.select",
            "everything",
        ),
        (
            "a victim order",
            Box::new(move |v| step(1)(v)["count"]["victims"] = "eldest".into()),
            "controller.recipe.steps[1].count.victims",
            "eldest",
        ),
        ("a burst of 0", Box::new(move |v| step(1)(v)["count"]["burst"] = 0.into()), "controller.recipe.steps[1].count.burst", "0"),
        (
            "a count read live without a live owner",
            Box::new(move |v| step(1)(v)["count"]["from"] = "live".into()),
            "controller.recipe.steps[1].count.from",
            "live",
        ),
        (
            "a naming",
            Box::new(move |v| step(2)(v)["create"]["naming"] = json!({"random": "-"})),
            "controller.recipe.steps[2].create.naming",
            "random",
        ),
        (
            "a name with a capital",
            Box::new(move |v| step(2)(v)["create"]["naming"] = json!({"generate": "-Voice-"})),
            "controller.recipe.steps[2].create.naming.generate",
            "-Voice-",
        ),
        (
            "an empty label",
            Box::new(move |v| step(2)(v)["create"]["label"] = "".into()),
            "controller.recipe.steps[2].create.label",
            "0 characters",
        ),
        (
            "a batching",
            Box::new(move |v| step(2)(v)["create"]["batches"] = "all".into()),
            "controller.recipe.steps[2].create.batches",
            "all",
        ),
        (
            "a delete flag",
            Box::new(move |v| step(3)(v)["delete"]["at_once"] = "yes".into()),
            "controller.recipe.steps[3].delete.at_once",
            "yes",
        ),
        (
            "status retries",
            Box::new(move |v| {
                step(1)(v)["count"]["victims"] = "keep".into();
                *step(3)(v) = json!({"update_status": {"retries": 9}});
            }),
            "controller.recipe.steps[3].update_status.retries",
            "9",
        ),
        (
            "a pending policy",
            Box::new(move |v| {
                v["controller"]["recipe"]["expectations"] = true.into();
                *step(0)(v) = json!({"check_expectations": {"on_pending": "wait"}})
            }),
            "controller.recipe.steps[0].check_expectations.on_pending",
            "wait",
        ),
        (
            "expectations not kept",
            // Said outright: absent, `expectations` is kept when a step checks them.
            Box::new(move |v| {
                v["controller"]["recipe"]["expectations"] = false.into();
                *step(0)(v) = json!({"check_expectations": {}});
            }),
            "controller.recipe.steps[0].check_expectations",
            "",
        ),
        (
            "the consistency store off",
            Box::new(move |v| *step(0)(v) = json!("ensure_ready")),
            "controller.recipe.steps[0].ensure_ready",
            "",
        ),
        (
            "a write before the count",
            Box::new(move |v| {
                step(1)(v).take();
                let s = v["controller"]["recipe"]["steps"].as_array_mut().unwrap();
                s.remove(1);
            }),
            "controller.recipe.steps[1].create",
            "",
        ),
        (
            "a finalizer with no owner read",
            Box::new(move |v| *step(0)(v) = json!({"finalizer": {"name": "academy.k3ii.dev/cleanup"}})),
            "controller.recipe.steps[0].finalizer",
            "",
        ),
        (
            "a finalizer a Terminating owner never reaches",
            Box::new(move |v| {
                v["controller"]["recipe"]["steps"]
                    .as_array_mut()
                    .unwrap()
                    .insert(1, json!({"finalizer": {"name": "academy.k3ii.dev/cleanup"}}));
            }),
            "controller.recipe.steps[1].finalizer.name",
            "stop_if_terminating",
        ),
        (
            "a finalizer's name",
            Box::new(move |v| {
                step(0)(v)["get_owner"]["stop_if_terminating"] = false.into();
                v["controller"]["recipe"]["steps"].as_array_mut().unwrap().insert(1, json!({"finalizer": {"name": "clean up"}}));
            }),
            "controller.recipe.steps[1].finalizer.name",
            "clean up",
        ),
        (
            "a list from a misspelt source",
            Box::new(move |v| *step(1)(v) = json!({"list": {"from": "cahce", "select": {"label": "academy.k3ii.dev/ensemble"}}})),
            "controller.recipe.steps[1].list.from",
            "cahce",
        ),
        (
            "a label step with nothing read before it",
            Box::new(move |v| {
                v["controller"]["recipe"]["steps"].as_array_mut().unwrap().insert(1, json!({"label_owner": {"labels": {"a": "b"}}}));
            }),
            "controller.recipe.steps[1].label_owner",
            "",
        ),
        (
            "a label step with no labels",
            Box::new(move |v| {
                v["controller"]["recipe"]["steps"].as_array_mut().unwrap().insert(2, json!({"label_owner": {"labels": {}}}));
            }),
            "controller.recipe.steps[2].label_owner.labels",
            "{}",
        ),
        (
            "a label step's key",
            Box::new(move |v| {
                v["controller"]["recipe"]["steps"].as_array_mut().unwrap().insert(2, json!({"label_owner": {"labels": {"a b": "c"}}}));
            }),
            "controller.recipe.steps[2].label_owner.labels",
            "a b",
        ),
        (
            "a label step's value",
            Box::new(move |v| {
                v["controller"]["recipe"]["steps"].as_array_mut().unwrap().insert(2, json!({"label_owner": {"labels": {"a": "c d"}}}));
            }),
            "controller.recipe.steps[2].label_owner.labels.a",
            "c d",
        ),
        (
            "a label step's removal misspelt",
            Box::new(move |v| {
                v["controller"]["recipe"]["steps"]
                    .as_array_mut()
                    .unwrap()
                    .insert(2, json!({"label_owner": {"labels": {"a": "c"}, "remove": "sometimes"}}));
            }),
            "controller.recipe.steps[2].label_owner.remove",
            "sometimes",
        ),
        (
            "a label step's precondition it does not know",
            Box::new(move |v| insert(v, 2, json!({"label_owner": {"labels": {"a": "c"}, "precondition": "generation"}}))),
            "controller.recipe.steps[2].label_owner.precondition",
            "generation",
        ),
        (
            "a loop before any read",
            Box::new(move |v| insert(v, 1, json!({"for_each": {"max": 1, "do": {"delete": {}}}}))),
            "controller.recipe.steps[1].for_each",
            "list",
        ),
        (
            "a loop of no object",
            Box::new(move |v| insert(v, 2, json!({"for_each": {"max": 0, "do": {"delete": {}}}}))),
            "controller.recipe.steps[2].for_each.max",
            "0",
        ),
        (
            "an unbounded loop",
            Box::new(move |v| insert(v, 2, json!({"for_each": {"max": 1000, "do": {"delete": {}}}}))),
            "controller.recipe.steps[2].for_each.max",
            "1000",
        ),
        (
            "a loop's condition nested too deep",
            Box::new(move |v| {
                insert(v, 2, json!({"for_each": {"max": 1, "when": {"not": {"not": {"not": "orphan"}}}, "do": {"delete": {}}}}))
            }),
            "controller.recipe.steps[2].for_each.when.not.not.not",
            "4",
        ),
        (
            "a loop's label that is no label",
            Box::new(move |v| insert(v, 2, json!({"for_each": {"max": 1, "when": {"labelled": ["a b", "c"]}, "do": {"delete": {}}}}))),
            "controller.recipe.steps[2].for_each.when.labelled[0]",
            "a b",
        ),
        (
            "a loop's fact misspelt",
            Box::new(move |v| insert(v, 2, json!({"for_each": {"max": 1, "when": "orphaned", "do": {"delete": {}}}}))),
            "controller.recipe.steps[2].for_each.when",
            "orphaned",
        ),
        (
            "a loop that does what it cannot",
            Box::new(move |v| insert(v, 2, json!({"for_each": {"max": 1, "do": {"evict": {}}}}))),
            "controller.recipe.steps[2].for_each.do",
            "evict",
        ),
        (
            "a requeue of 0 ms",
            Box::new(move |v| *step(4)(v) = json!({"requeue_after": {"after_ms": 0}})),
            "controller.recipe.steps[4].requeue_after.after_ms",
            "0",
        ),
        (
            "a requeue with no delay",
            Box::new(move |v| *step(4)(v) = json!({"requeue_after": {}})),
            "controller.recipe.steps[4].requeue_after",
            "after_ms",
        ),
        (
            "a requeue not last",
            Box::new(move |v| {
                step(1)(v)["count"]["victims"] = "keep".into();
                *step(3)(v) = json!({"requeue_after": {"after_ms": 1000}});
            }),
            "controller.recipe.steps[3]",
            "requeue_after",
        ),
        (
            "return not last",
            Box::new(move |v| {
                step(1)(v)["count"]["victims"] = "keep".into();
                *step(3)(v) = json!("return");
            }),
            "controller.recipe.steps[3]",
            "return",
        ),
        (
            "a second count",
            Box::new(move |v| {
                step(1)(v)["count"]["victims"] = "keep".into();
                let c = step(1)(v).clone();
                *step(3)(v) = c;
            }),
            "controller.recipe.steps[3]",
            "count",
        ),
        (
            "too many steps",
            Box::new(move |v| {
                let s = v["controller"]["recipe"]["steps"].as_array_mut().unwrap();
                for _ in 0..8 {
                    s.insert(0, json!({"get_owner": {}}));
                }
            }),
            "controller.recipe.steps",
            "13 entries",
        ),
        ("the owner kind", Box::new(|v| v["controller"]["recipe"]["owner"] = "ReplicaSet".into()), "controller.recipe.owner", "ReplicaSet"),
        ("the child kind", Box::new(|v| v["controller"]["recipe"]["child"] = "Pod".into()), "controller.recipe.child", "Pod"),
        ("a switch beside it", Box::new(|v| v["controller"]["naming"] = "generate".into()), "controller.naming", ""),
        ("the pruner", Box::new(|v| v["controller"]["kind"] = "pruner".into()), "controller.recipe", ""),
        (
            "victims no step deletes",
            Box::new(move |v| {
                let steps = v["controller"]["recipe"]["steps"].as_array_mut().unwrap();
                steps.remove(3);
            }),
            "controller.recipe.steps[1].count.victims",
            "",
        ),
        (
            "a delete of a surplus kept",
            Box::new(move |v| step(1)(v)["count"]["victims"] = "keep".into()),
            "controller.recipe.steps[1].count.victims",
            "keep",
        ),
        (
            "a count before the owner is read",
            Box::new(move |v| {
                let steps = v["controller"]["recipe"]["steps"].as_array_mut().unwrap();
                steps.remove(0);
            }),
            "controller.recipe.steps[0].count",
            "",
        ),
        (
            "expectations checked after the count",
            Box::new(move |v| {
                v["controller"]["recipe"]["expectations"] = true.into();
                let steps = v["controller"]["recipe"]["steps"].as_array_mut().unwrap();
                steps.insert(2, json!({"check_expectations": {}}));
            }),
            "controller.recipe.steps[2].check_expectations",
            "",
        ),
        (
            "an empty selector label",
            Box::new(move |v| step(1)(v)["count"]["select"] = json!({"label": ""})),
            "controller.recipe.steps[1].count.select.label",
            "0 characters",
        ),
        ("a burst beside it", Box::new(|v| v["controller"]["burst_replicas"] = 10.into()), "controller.burst_replicas", ""),
        (
            "expectations kept by UID, not kept",
            Box::new(|v| v["controller"]["recipe"]["expectations_keyed_by"] = "uid".into()),
            "controller.recipe.expectations_keyed_by",
            "uid",
        ),
        (
            "by UID, a child without a controllerRef",
            Box::new(move |v| {
                v["controller"]["recipe"]["expectations"] = true.into();
                v["controller"]["recipe"]["expectations_keyed_by"] = "uid".into();
                step(2)(v)["create"]["owner_reference"] = false.into();
            }),
            "controller.recipe.steps[2].create.owner_reference",
            "false",
        ),
        (
            "by UID, checked before the owner is read",
            Box::new(move |v| {
                v["controller"]["recipe"]["expectations"] = true.into();
                v["controller"]["recipe"]["expectations_keyed_by"] = "uid".into();
                let steps = v["controller"]["recipe"]["steps"].as_array_mut().unwrap();
                steps.insert(0, json!({"check_expectations": {}}));
            }),
            "controller.recipe.steps[0].check_expectations",
            "",
        ),
        (
            "a key",
            Box::new(|v| v["controller"]["recipe"]["expectations_keyed_by"] = "label".into()),
            "controller.recipe.expectations_keyed_by",
            "label",
        ),
        (
            "a control beside it",
            Box::new(|v| v["controls"] = json!(["cluster.watch_lag_ms", "controller.delete_surplus"])),
            "controls[1]",
            "controller.delete_surplus",
        ),
        (
            "a guard's misspelt fact",
            Box::new(|v| insert(v, 2, json!({"return_if": {"when": {"lt": ["fuond", "desired"]}}}))),
            "controller.recipe.steps[2].return_if.when.lt[0]",
            "fuond",
        ),
        (
            "a guard's comparison of one term",
            Box::new(|v| insert(v, 2, json!({"return_if": {"when": {"ge": ["found"]}}}))),
            "controller.recipe.steps[2].return_if.when.ge",
            "1",
        ),
        (
            "a guard's unknown operator",
            Box::new(|v| insert(v, 2, json!({"return_if": {"when": {"lte": ["found", 2]}}}))),
            "controller.recipe.steps[2].return_if.when",
            "lte",
        ),
        (
            "a guard that reads what no count has found",
            Box::new(|v| insert(v, 1, json!({"return_if": {"when": {"lt": [2, "found"]}}}))),
            "controller.recipe.steps[1].return_if.when.lt[1]",
            "found",
        ),
        (
            "a guard nested four levels deep",
            Box::new(|v| insert(v, 2, json!({"return_if": {"when": {"not": {"all": [{"any": [{"not": "owner_terminating"}]}]}}}}))),
            "controller.recipe.steps[2].return_if.when.not.all[0].any[0]",
            "4 levels",
        ),
        (
            "a guard joining nothing",
            Box::new(|v| insert(v, 2, json!({"return_if": {"when": {"any": []}}}))),
            "controller.recipe.steps[2].return_if.when.any",
            "0 entries",
        ),
        (
            "a guard on a Terminating owner get_owner stops at",
            Box::new(|v| insert(v, 2, json!({"return_if": {"when": "owner_terminating"}}))),
            "controller.recipe.steps[2].return_if.when",
            "owner_terminating",
        ),
        (
            "a guard's error that is not a yes or no",
            Box::new(|v| insert(v, 2, json!({"return_if": {"when": {"eq": ["found", 0]}, "error": "yes"}}))),
            "controller.recipe.steps[2].return_if.error",
            "yes",
        ),
    ]
}

/// Insert `step` into the document's recipe at `at`.
fn insert(v: &mut Value, at: usize, step: Value) {
    v["controller"]["recipe"]["steps"].as_array_mut().unwrap().insert(at, step);
}

#[test]
fn a_broken_recipe_is_refused_naming_its_field() {
    assert!(Scenario::from_value(base()).is_ok(), "the base recipe is valid");
    for (what, break_it, field, value) in broken() {
        let mut v = base();
        break_it(&mut v);
        let e = Scenario::from_value(v).expect_err(what);
        let said = e.to_string();
        if std::env::var("SHOW").is_ok() {
            eprintln!("{what}: {said}");
        }
        assert!(e.field == field || said.starts_with(&format!("{field}:")), "{what}: {said} (field {:?})", e.field);
        assert!(said.contains(value), "{what}: {said} does not quote {value:?}");
    }
}

#[test]
fn the_command_line_refuses_a_broken_recipe_with_exit_2_and_prints_a_good_one() {
    let dir = std::env::temp_dir().join(format!("cachescope-recipes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = env!("CARGO_BIN_EXE_cachescope");
    let (what, break_it, field, _) = broken().into_iter().next().unwrap();
    let mut v = base();
    break_it(&mut v);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, v.to_string()).unwrap();
    for cmd in ["run", "check", "recipe"] {
        let out = Command::new(bin).args([cmd, bad.to_str().unwrap()]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{cmd} {what}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(field) && stderr.contains("cahce"), "{cmd}: {stderr}");
    }
    // The good one prints as the page's code: a line per step, the create as written.
    let good = dir.join("good.json");
    std::fs::write(&good, base().to_string()).unwrap();
    let out = Command::new(bin).args(["recipe", good.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 6, "{text}");
    assert!(text.contains("GenerateName: owner.Name+\"-voice-\""), "{text}");
    // `--json` gives back the recipe the document holds.
    let out = Command::new(bin).args(["recipe", "--json", good.to_str().unwrap()]).output().unwrap();
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let parsed = Scenario::from_value(base()).unwrap();
    assert_eq!(printed, serde_json::to_value(parsed.controller.recipe.unwrap()).unwrap());
    // A recipe alone, as `--json` printed it, prints the same code; a broken one names its own field.
    let alone = dir.join("alone.json");
    std::fs::write(&alone, &out.stdout).unwrap();
    let same = Command::new(bin).args(["recipe", alone.to_str().unwrap()]).output().unwrap();
    assert_eq!(String::from_utf8(same.stdout).unwrap(), text);
    std::fs::write(&alone, String::from_utf8(out.stdout).unwrap().replace("\"cache\"", "\"cahce\"")).unwrap();
    let broken = Command::new(bin).args(["recipe", alone.to_str().unwrap()]).output().unwrap();
    assert_eq!(broken.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&broken.stderr).starts_with("cachescope: steps[0].get_owner.from: unknown variant `cahce`"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_page_offers_no_switch_the_recipe_says() {
    use cachescope::view::snapshot::Shown;
    let built_in = Shown::of(&preset("over-create").unwrap());
    let mine = Shown::of(&as_recipe("over-create").unwrap());
    assert!(built_in.naming && built_in.delete_surplus && built_in.expectations && built_in.owner_references);
    assert!(!mine.naming && !mine.delete_surplus && !mine.expectations && !mine.owner_references);
    assert!(mine.double_enqueue && mine.consistency_store, "a switch of the wiring or the runtime stays");
    for (path, _) in cachescope::scenario::recipe::WRITTEN_BY_RECIPE {
        assert!(built_in.offers(path) && !mine.offers(path), "{path}");
    }
    assert!(mine.offers("cluster.watch_lag_ms") && mine.offers("controller.workers"));
}

/// `base()` at lag 0, where the default schedule is clean: without a guard,
/// or (`guarded`) with expectations kept and checked.
fn at_lag_0(guarded: bool) -> Scenario {
    let mut v = base();
    v["cluster"] = json!({"watch_lag_ms": 0});
    if guarded {
        v["controller"]["recipe"]["expectations"] = true.into();
        v["controller"]["recipe"]["steps"].as_array_mut().unwrap().insert(1, json!({"check_expectations": {}}));
    }
    Scenario::from_value(v).unwrap()
}

#[test]
fn explore_finds_a_recipes_bug_replays_it_and_finds_none_once_it_is_guarded() {
    use cachescope::explore::{counterexample, explore, Options};
    let options = Options { invariant: Some("children_within_desired".into()), max_deviations: 2, ..Options::default() };
    let bug = at_lag_0(false);
    assert!(Report::run(&bug).invariants["children_within_desired"].held, "the default schedule is clean at lag 0");
    let v = explore(&bug, &options).violation.expect("one late event breaks a count with no guard");
    assert_eq!(v.deviations, 1);
    let c = counterexample(&bug, &v).unwrap();
    assert!(c.controller.recipe.is_some(), "the counterexample keeps the recipe");
    let replayed = Report::run(&Scenario::from_json(&c.to_value().to_string()).unwrap());
    assert_eq!(replayed.invariants["children_within_desired"].first_broken_frame, Some(v.frame));
    let fixed = explore(&at_lag_0(true), &options);
    assert!(fixed.violation.is_none() && fixed.complete, "the guard holds over every schedule within two deviations");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

    /// Any recipe the rules accept runs to its end within the work budget,
    /// the same twice, with its code drawn a line a step.
    #[test]
    fn an_arbitrary_recipe_runs_to_its_end_within_the_budget(seed in 0u64..u64::MAX, replicaset in proptest::bool::ANY, lag_ms in 0u64..3000) {
        use cachescope::sim::apiserver::ControllerKind;
        let kind = if replicaset { ControllerKind::ReplicaSet } else { ControllerKind::Ensemble };
        let recipe = cachescope::scenario::recipe::arbitrary(kind, false, &mut cachescope::scenario::recipe::draws(seed));
        let s = cachescope::scenario::recipe::sample(&recipe, lag_ms);
        let lines = cachescope::sim::controllers::pseudo_code(&s.controller);
        proptest::prop_assert_eq!(lines.len(), recipe.ops.len() + 1, "a line a step, and the dequeue");
        let run = Report::run(&s);
        let budget = cachescope::scenario::limits::frame_limit(cachescope::scenario::limits::MAX_OBJECTS_AT_PEAK);
        // It ends before the frame limit: at its until_ms, when quiet, or stopped at the object limit (an over-create).
        proptest::prop_assert!(run.stopped_at_frame_limit.is_none(), "stopped at the frame limit after {} frames", run.frames);
        let objects: u64 = run.peak_live.values().sum();
        proptest::prop_assert!(
            objects <= cachescope::scenario::limits::MAX_OBJECTS_AT_PEAK + 600 || run.frames <= budget,
            "{objects} objects at the peak over {} frames", run.frames
        );
        proptest::prop_assert_eq!(Report::run(&s).trace_hash, run.trace_hash, "the same twice");
    }
}

#[test]
fn random_victims_are_drawn_from_the_seed_and_a_stale_cache_deletes_below_desired() {
    use cachescope::sim::apiserver::{Status, Verb};
    use cachescope::sim::frame::Event;
    // Five ConfigMaps scaled to one, the surplus chosen at random (KubeRay #715's delete).
    // Returns the one the first sync spared, and the fewest the cluster held after the scale.
    let run = |seed: u64| {
        let mut v = base();
        v["seed"] = seed.into();
        v["objects"][0]["voices"] = 5.into();
        v["actions"] = json!([{"at_ms": 3000, "scale": {"kind": "Ensemble", "name": "beta", "to": 1}}]);
        let steps = v["controller"]["recipe"]["steps"].as_array_mut().unwrap();
        steps[1]["count"]["victims"] = "random".into();
        steps[2]["create"]["naming"] = json!({"indexed": "-voice-"});
        let s = Scenario::from_value(v).unwrap();
        let mut world = cachescope::sim::world::World::new(s.world_init());
        let (mut deleted, mut fewest) = (Vec::new(), u32::MAX);
        while let Some(frame) = world.step() {
            if let Event::ApiRequest { entry, .. } = &frame.event {
                if entry.verb == Verb::Delete && entry.status == Status::OK {
                    deleted.push(entry.name.to_string());
                }
            }
            if frame.at_ms > 3000 {
                fewest = fewest.min(world.api.list(cachescope::sim::object::Kind::ConfigMap, "academy-lab").len() as u32);
            }
        }
        let spared: Vec<String> = (0..5).map(|i| format!("beta-voice-{i}")).filter(|n| !deleted[..4].contains(n)).collect();
        (spared, fewest)
    };
    let runs: Vec<(Vec<String>, u32)> = (1..=6).map(run).collect();
    assert_eq!(run(3), runs[2], "the same seed, the same victims");
    let spared: std::collections::BTreeSet<&Vec<String>> = runs.iter().map(|(s, _)| s).collect();
    assert!(spared.len() >= 2, "six seeds spare more than one ConfigMap between them: {runs:?}");
    // The second sync reads a cache that has not seen the first's deletes and
    // draws again: unless it draws only those already gone, the cluster falls
    // below the one it wants (4 of these 6 seeds).
    assert!(runs.iter().filter(|(_, fewest)| *fewest == 0).count() >= 3, "{runs:?}");
}

/// kubernetes #142247 (the Job controller): an owner deleted and re-created
/// under its name, the cache never seeing it go (its DELETED lost), inherits
/// the old one's pending expectations when they are kept by name; one of the
/// old children's ADDED lost too, they never come true, and the new owner is
/// never synced (within the 5-minute expectations timeout). Kept by UID, the
/// new owner starts with no record.
fn recreated_under_its_name(keyed_by: &str) -> Report {
    let v = json!({
        "name": "recreated", "until_ms": 30000,
        "cluster": {"watch_lag_ms": 2000},
        "objects": [{"kind": "Ensemble", "name": "beta", "voices": 3}],
        "actions": [
            {"at_ms": 500, "drop_next_event": {"kind": "ConfigMap", "type": "ADDED"}},
            {"at_ms": 1000, "drop_next_event": {"kind": "Ensemble", "type": "DELETED"}},
            {"at_ms": 1000, "delete": {"kind": "Ensemble", "name": "beta"}},
            {"at_ms": 1100, "apply": {"kind": "Ensemble", "name": "beta", "voices": 3}}
        ],
        "controller": {"kind": "ensemble", "recipe": {
            "owner": "Ensemble", "child": "ConfigMap", "expectations": true, "expectations_keyed_by": keyed_by,
            "steps": [
                {"get_owner": {}},
                {"check_expectations": {}},
                {"count": {"select": "active_controlled"}},
                {"create": {"naming": {"generate": "-voice-"}, "label": "academy.k3ii.dev/ensemble"}},
                "return"
            ]
        }}
    });
    Report::run(&Scenario::from_value(v).unwrap())
}

#[test]
fn a_recreated_owner_inherits_expectations_kept_by_name_and_not_by_uid() {
    let by_name = recreated_under_its_name("name");
    let by_uid = recreated_under_its_name("uid");
    // Both create the 3 the old beta wants, which the garbage collector takes
    // with it; only kept by UID does the new beta get 3 of its own. (The
    // creates counted include kubectl's of the new beta.)
    assert_eq!(by_name.api["create"]["201"], 1 + 3, "{:?}", by_name.api);
    assert_eq!(by_name.live.get("ConfigMap").copied().unwrap_or(0), 0, "never synced: {:?}", by_name.live);
    assert_eq!(by_uid.api["create"]["201"], 1 + 3 + 3, "{:?}", by_uid.api);
    assert_eq!(by_uid.live.get("ConfigMap").copied(), Some(3), "{:?}", by_uid.live);
}

/// Cluster API #13649, one level down: a reconcile creates its child with
/// generateName, waits for its cache to show it, times out (the watch lags
/// 2 s, the wait 1 s), returns the error, and the retry counts a cache that
/// still lacks the child: it creates another. With the consistency store's
/// `ensure_ready` first, the retry is skipped until the cache has read the
/// write, and one child is all it makes.
fn waits_then_retries(guarded: bool) -> Report {
    let mut steps = vec![
        json!({"get_owner": {}}),
        json!({"count": {"select": "active_controlled"}}),
        json!({"create": {"naming": {"generate": "-"}, "label": "academy.k3ii.dev/ensemble"}}),
        json!({"wait_for_cache": {"timeout_ms": 1000}}),
        json!("return"),
    ];
    if guarded {
        steps.insert(0, json!("ensure_ready"));
    }
    let v = json!({
        "name": "capi", "until_ms": 20000,
        "cluster": {"watch_lag_ms": 2000},
        "objects": [{"kind": "Ensemble", "name": "md", "voices": 1}],
        "controller": {"kind": "ensemble", "consistency_store": guarded, "recipe": {"owner": "Ensemble", "child": "ConfigMap", "steps": steps}}
    });
    Report::run(&Scenario::from_value(v).unwrap())
}

#[test]
fn a_wait_for_the_cache_that_times_out_makes_its_retry_create_again() {
    let bug = waits_then_retries(false);
    assert_eq!(bug.peak_live["ConfigMap"], 2, "two children for one: {:?}", bug.peak_live);
    assert!(!bug.invariants["children_within_desired"].held);
    let fixed = waits_then_retries(true);
    assert_eq!(fixed.peak_live["ConfigMap"], 1, "{:?}", fixed.peak_live);
    assert!(fixed.invariants["children_within_desired"].held);
    // The wait is a line of its own, lit while it waits, and its timeout the reconcile's error.
    let s = Scenario::from_value({
        let mut v = json!({"name": "w", "objects": [{"kind": "Ensemble", "name": "md", "voices": 1}], "cluster": {"watch_lag_ms": 2000}});
        v["controller"] = json!({"kind": "ensemble", "recipe": {"owner": "Ensemble", "child": "ConfigMap", "steps": [
            {"get_owner": {}}, {"count": {"select": "active_controlled"}},
            {"create": {"naming": {"generate": "-"}, "label": "academy.k3ii.dev/ensemble"}},
            {"wait_for_cache": {"timeout_ms": 1500}}, "return"]}});
        v
    })
    .unwrap();
    let code = cachescope::sim::controllers::pseudo_code(&s.controller);
    assert!(
        code.iter().any(|(_, line)| line.contains("wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 1500*time.Millisecond")),
        "{code:?}"
    );
    let mut world = cachescope::sim::world::World::new(s.world_init());
    let captions: Vec<String> = std::iter::from_fn(|| world.step()).map(|f| cachescope::narrate::caption(&f)).collect();
    assert!(captions.iter().any(|c| c.contains("waits for its cache to show the 1 ConfigMap it just created")), "{captions:#?}");
    assert!(captions.iter().any(|c| c.contains("timed out after 1.5 s waiting for the cache")), "{captions:#?}");
}

#[test]
fn change_one_line_of_the_recipe_and_run_it_again() {
    // Lab 1's shape, for a recipe: Run B is Run A with one step's field changed, by its path.
    let a = at_lag_0(false).with_settings([("cluster.watch_lag_ms", "1000")]).unwrap();
    let vs = vec![("controller.recipe.steps[2].create.naming".to_string(), r#"{"indexed": "-voice-"}"#.to_string())];
    let report = cachescope::view::compare::compare(&a, &vs).unwrap();
    assert!(report.a.peak_live["ConfigMap"] > 3, "generateName over-creates: {:?}", report.a.peak_live);
    assert_eq!(report.b.peak_live["ConfigMap"], 3, "indexed names make the second create a 409: {:?}", report.b.peak_live);
    assert!(report.first_divergence.is_some());
    // A path into the recipe is refused like any other, naming it.
    let e = a.with_settings([("controller.recipe.steps[1].count.victims", "eldest")]).unwrap_err();
    assert_eq!(e.field, "controller.recipe.steps[1].count.victims", "{e}");
}

#[test]
fn an_indexed_create_after_a_count_by_controller_ref_skips_the_names_the_cache_holds() {
    // Scaled 3 → 5: the missing indices are 3 and 4, not 0 and 1 (which would be 409s for ever).
    let v = json!({
        "name": "indexed", "until_ms": 20000,
        "objects": [{"kind": "Ensemble", "name": "beta", "voices": 3}],
        "actions": [{"at_ms": 5000, "scale": {"kind": "Ensemble", "name": "beta", "to": 5}}],
        "controller": {"kind": "ensemble", "recipe": {"owner": "Ensemble", "child": "ConfigMap", "steps": [
            {"get_owner": {}},
            {"count": {"select": "active_controlled"}},
            {"create": {"naming": {"indexed": "-voice-"}, "label": "academy.k3ii.dev/ensemble"}},
            "return"
        ]}}
    });
    let run = Report::run(&Scenario::from_value(v).unwrap());
    assert_eq!(run.live.get("ConfigMap").copied(), Some(5), "{:?}", run.api);
    // Three, then the two missing; a sync on a cache that has not seen them yet gets the harmless 409 of indexed names.
    assert_eq!(run.api["create"]["201"], 5, "{:?}", run.api);
}

#[test]
fn every_presets_recipe_printed_as_json_reads_back_alone() {
    // `cachescope recipe P --json` then `cachescope recipe FILE`: what the
    // steps need of the controller (the consistency store, read-your-writes) is set for them.
    let bin = env!("CARGO_BIN_EXE_cachescope");
    let dir = std::env::temp_dir().join(format!("cachescope-alone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in preset_names() {
        let s = preset(name).unwrap();
        if bundled::recipe(&s.controller).is_none() {
            continue;
        }
        let json = Command::new(bin).args(["recipe", name, "--json"]).output().unwrap();
        let file = dir.join(format!("{name}.json"));
        std::fs::write(&file, &json.stdout).unwrap();
        let out = Command::new(bin).args(["recipe", file.to_str().unwrap()]).output().unwrap();
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_live_switch_a_recipes_step_needs_turns_that_step_off_and_says_so() {
    // The consistency store switched off beside a recipe that asks it: its line is drawn off, and the check passes.
    let mut v = base();
    v["controller"]["consistency_store"] = true.into();
    v["controller"]["recipe"]["steps"].as_array_mut().unwrap().insert(0, json!("ensure_ready"));
    let mut s = Scenario::from_value(v).unwrap();
    assert!(cachescope::sim::controllers::step_applies(&s.controller, cachescope::sim::reconcile::Step::EnsureReady));
    s.controller.consistency_store = Some(false);
    assert!(!cachescope::sim::controllers::step_applies(&s.controller, cachescope::sim::reconcile::Step::EnsureReady));
}

/// The one line an incident's fix is, applied to the preset's file as shipped.
#[derive(Clone, Copy)]
enum Fix {
    /// The guard: a `check_expectations` step after `get_owner` (its recipe
    /// says nothing of expectations: the guard keeps them).
    Guard,
    /// A recipe field set to a value.
    Set(&'static str, &'static str),
    /// A field of one step set to a value: (step, its kind, field, value).
    Step(usize, &'static str, &'static str, &'static str),
    /// A controller setting set to a value (a switch a step's line waits on).
    Controller(&'static str, &'static str),
}

/// An incident preset with its fix. The lesson walks the run as shipped, so
/// the fixed variant goes without it.
fn fixed(name: &str, fix: Fix) -> Scenario {
    let text = cachescope::scenario::PRESETS.iter().find(|(n, _)| *n == name).unwrap().1;
    let mut v: Value = serde_json::from_str(text).unwrap();
    match fix {
        Fix::Guard => v["controller"]["recipe"]["steps"].as_array_mut().unwrap().insert(1, json!({"check_expectations": {}})),
        Fix::Set(field, value) => v["controller"]["recipe"][field] = serde_json::from_str(value).unwrap(),
        Fix::Step(i, op, field, value) => v["controller"]["recipe"]["steps"][i][op][field] = serde_json::from_str(value).unwrap(),
        Fix::Controller(field, value) => v["controller"][field] = serde_json::from_str(value).unwrap(),
    }
    v["lesson"] = json!([]);
    Scenario::from_value(v).unwrap()
}

/// Each incident preset, its fix, and the invariant its bug breaks.
const INCIDENTS: &[(&str, Fix, &str)] = &[
    ("kuberay-random-delete", Fix::Guard, "children_within_desired"),
    ("eck-random-names", Fix::Guard, "children_within_desired"),
    ("job-expectations-by-name", Fix::Set("expectations_keyed_by", "\"uid\""), "job-gets-its-pods"),
    ("nfd-labels-stripped", Fix::Step(2, "label_owner", "remove", "\"on_observed_delete\""), "nodes-keep-their-labels"),
    ("capi-duplicate-machinesets", Fix::Controller("consistency_store", "true"), "one-machineset"),
    ("opensearch-quorum", Fix::Controller("read_your_writes", "true"), "quorum"),
];

/// A kind without a desired count is listed, not counted; its own LIST time keeps the built-in kinds' limits.
#[test]
fn a_kind_without_a_desired_count_is_listed_and_its_list_time_is_bounded() {
    let mut v = preset("nfd-labels-stripped").unwrap().to_value();
    v["controller"]["recipe"]["steps"][1] = json!({"count": {"select": {"label": "nfd.node.kubernetes.io/node-name"}}});
    let e = Scenario::from_value(v).unwrap_err();
    assert_eq!(e.field, "controller.recipe.steps[1].count", "{e}");
    assert!(e.message.contains("Node declares none"), "{e}");
    let mut v = preset("nfd-labels-stripped").unwrap().to_value();
    v["cluster"]["initial_list_ms_by_kind"]["NodeFeature"] = 600_001.into();
    let e = Scenario::from_value(v).unwrap_err();
    assert_eq!(e.field, "cluster.initial_list_ms_by_kind.NodeFeature", "{e}");
    // The same time, set as --set sets it, lands where the document's does.
    let s = preset("nfd-labels-stripped").unwrap();
    let mut again = preset("nfd-labels-stripped").unwrap().to_value();
    again["cluster"]["initial_list_ms_by_kind"]["NodeFeature"] = Value::Null;
    let unset = Scenario::from_value(again).unwrap();
    let fast = Report::run(&unset);
    assert_ne!(fast.trace_hash, Report::run(&s).trace_hash, "the slow LIST is what breaks it");
    assert!(fast.invariants["nodes-keep-their-labels"].held, "with the NodeFeature LIST as fast as the Node one, no Node is stripped");
    let set = unset.with_settings([("cluster.initial_list_ms_by_kind.NodeFeature", "3000")]).unwrap();
    assert_eq!(Report::run(&set).trace_hash, Report::run(&s).trace_hash);
}

/// node-feature-discovery #2415's fix is not "never remove": a NodeFeature
/// deleted for good (its node's worker gone) is a DELETED the handler sees,
/// and the next sync of its Node takes the labels off; the others keep theirs.
#[test]
fn acting_only_on_an_observed_delete_still_removes_labels_after_a_real_delete() {
    let mut v = fixed("nfd-labels-stripped", Fix::Step(2, "label_owner", "remove", "\"on_observed_delete\"")).to_value();
    v["actions"] = json!([{"at_ms": 5000, "delete": {"kind": "NodeFeature", "name": "node-2"}}]);
    v["expect"] = json!([]);
    let s = Scenario::from_value(v).unwrap();
    use cachescope::sim::controllers::Note;
    use cachescope::sim::frame::Event;
    let mut world = cachescope::sim::world::World::new(s.world_init());
    let mut frames = Vec::new();
    while let Some(f) = world.step() {
        frames.push(f);
    }
    let kept = frames.iter().filter(|f| matches!(&f.event, Event::ReconcileNote { note: Note::LabelsKept { .. }, .. })).count();
    assert_eq!(kept, 3, "each Node's first sync, before the NodeFeature LIST, is a miss it does not act on");
    let removed: Vec<&str> = frames
        .iter()
        .filter_map(|f| match &f.event {
            Event::ReconcileNote { note: Note::Labels { owner, removing: true, .. }, .. } => Some(owner.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(removed, ["academy-lab/node-2"], "only the Node whose NodeFeature was deleted loses its labels");
    let report = Report::run(&s);
    assert!(!report.invariants["nodes-keep-their-labels"].held, "a removal the invariant sees: the fix still removes");
}

#[test]
fn each_incident_preset_shows_its_bug_and_its_fix_removes_it() {
    use cachescope::explore::{counterexample, explore, Options};
    use cachescope::sim::object::Kind;
    for &(name, fix, invariant) in INCIDENTS {
        let bug = preset(name).unwrap();
        assert!(matches!(bug.controller.recipe.as_ref().unwrap().owner, Kind::Declared(_)), "{name}: its owner is a kind of its own");
        let fixed = fixed(name, fix);
        for (s, variant) in [(&bug, "as shipped"), (&fixed, "fixed")] {
            let report = Report::run(s);
            assert!(!report.expectations.is_empty(), "{name} {variant}: checks apply");
            for v in &report.expectations {
                assert!(v.held, "{name} {variant}: {} (measured {:?})", v.text, v.measured);
            }
        }
        let options = Options { invariant: Some(invariant.into()), ..Options::default() };
        let found = explore(&bug, &options).violation.unwrap_or_else(|| panic!("{name}: the bug is found"));
        let c = counterexample(&bug, &found).unwrap();
        let replayed = Report::run(&Scenario::from_json(&c.to_value().to_string()).unwrap());
        assert_eq!(replayed.invariants[invariant].first_broken_frame, Some(found.frame), "{name}: replayed");
        let clean = explore(&fixed, &options);
        assert!(clean.violation.is_none() && clean.complete, "{name}: the fixed recipe is clean over every schedule searched");
        assert!(clean.explored > 1, "{name}: the search held events back");
    }
}

/// kubernetes #142247 forgets a deleted Job's expectations in its delete
/// handler. That mends the preset's timing, but not every one: a sync of the
/// old Job, its DELETED event late, raises expectations after the handler
/// ran, and the new Job inherits them. Keyed by UID, no timing breaks it.
#[test]
fn forgetting_a_jobs_expectations_on_delete_mends_the_timing_but_not_every_one() {
    use cachescope::explore::{explore, Options};
    let name = "job-expectations-by-name";
    let forgets = fixed(name, Fix::Set("delete_expectations_on_delete", "true"));
    let report = Report::run(&forgets);
    assert!(report.invariants["job-gets-its-pods"].held, "the preset's own timing is mended");
    assert_eq!(report.live.get("Pod"), Some(&4));
    let options = Options { invariant: Some("job-gets-its-pods".into()), ..Options::default() };
    let found = explore(&forgets, &options).violation.expect("a timing it does not mend");
    assert!(found.schedule.iter().any(|d| d.kind.as_str() == "Job"), "the Job's own event is the late one: {:?}", found.schedule);
}

#[test]
fn a_scenario_with_kinds_of_its_own_survives_its_json_and_names_a_bad_spec() {
    let s = preset("kuberay-random-delete").unwrap();
    let again = Scenario::from_json(&s.to_value().to_string()).unwrap();
    assert_eq!(again, s);
    assert_eq!(Report::run(&again).trace_hash, Report::run(&s).trace_hash);
    let mut v = s.to_value();
    v["objects"][0]["spec"] = json!({"replicas": 3});
    let e = Scenario::from_value(v).unwrap_err();
    assert_eq!(e.field, "objects[0].spec.replicas", "{e}");
    let mut v = s.to_value();
    v["objects"][0]["kind"] = "RayClustr".into();
    let e = Scenario::from_value(v).unwrap_err();
    assert!(e.field.starts_with("objects[0]") && e.message.contains("RayClustr"), "{e}");
    // A controller's own name is a DNS label.
    let mut v = s.to_value();
    v["controller"]["recipe"]["name"] = "KubeRay Operator".into();
    let e = Scenario::from_value(v).unwrap_err();
    assert_eq!(e.field, "controller.recipe.name", "{e}");
    // The declared kind and its children, in the report by name, and the controller by its own.
    let report = Report::run(&s);
    assert_eq!(report.live.get("RayCluster"), Some(&1));
    assert!(report.metrics.contains_key("kuberay-operator"), "{:?}", report.metrics.keys());
    let mut world = cachescope::sim::world::World::new(s.world_init());
    let mut said = Vec::new();
    while let Some(frame) = world.step() {
        said.push(cachescope::narrate::caption(&frame));
    }
    assert!(said.iter().any(|l| l.starts_with("kuberay-operator creates Pod")), "the captions name it");
}

/// `requeue_after` in place of `return`: every sync that ends without an
/// error queues its key again that much later (`ctrl.Result{RequeueAfter}`),
/// so a controller that polls reconciles on a beat with no event to wake it.
#[test]
fn a_requeue_after_reconciles_again_on_its_beat() {
    let runs = |last: Value| {
        let mut v = base();
        v["until_ms"] = 20_000.into();
        *step(4)(&mut v) = last;
        let s = Scenario::from_value(v).unwrap();
        let mut world = cachescope::sim::world::World::new(s.world_init());
        let mut finished = Vec::new();
        while let Some(f) = world.step() {
            if let cachescope::sim::frame::Event::ReconcileFinished { requeue, .. } = &f.event {
                finished.push((f.at_ms, *requeue));
            }
        }
        finished
    };
    let plain = runs(json!("return"));
    let polling = runs(json!({"requeue_after": {"after_ms": 5000}}));
    assert!(polling.len() > plain.len() + 2, "it reconciles again on its beat: {} against {}", polling.len(), plain.len());
    let last = polling.last().unwrap();
    assert!(matches!(last.1, cachescope::sim::reconcile::Requeue::After { delay_ms: 5000 }), "{last:?}");
    // The beat: once the events are over, a sync every 5 s.
    let tail: Vec<u64> = polling.iter().rev().take(3).map(|(at, _)| *at).collect();
    assert!(tail.windows(2).all(|w| w[0] - w[1] >= 5000), "{tail:?}");
    let code = cachescope::scenario::Scenario::from_value({
        let mut v = base();
        *step(4)(&mut v) = json!({"requeue_after": {"after_ms": 30000}});
        v
    })
    .unwrap()
    .controller
    .recipe
    .unwrap()
    .code("voices");
    assert!(code.last().unwrap().1.starts_with("return ctrl.Result{RequeueAfter: 30*time.Second}, err"), "{:?}", code.last());
}

/// The finalizer pattern: the operator adds its finalizer with an `Update`
/// at the resourceVersion it read; a sync that reads the owner before its
/// own update came back through the watch sends the old resourceVersion and
/// gets `409 Conflict`; once the owner is deleted it is Terminating until
/// the operator takes its finalizer off, and then it and its children go.
#[test]
fn a_finalizer_is_added_conflicts_on_a_stale_owner_and_is_taken_off_at_delete() {
    let mut v = base();
    v["until_ms"] = 30_000.into();
    step(0)(&mut v)["get_owner"]["stop_if_terminating"] = false.into();
    v["controller"]["recipe"]["steps"].as_array_mut().unwrap().insert(1, json!({"finalizer": {"name": "academy.k3ii.dev/cleanup"}}));
    v["actions"] = json!([{"at_ms": 10_000, "delete": {"kind": "Ensemble", "name": "beta"}}]);
    // Lab 1's re-add: a second sync at once, before the owner's MODIFIED is back.
    v["controller"]["double_enqueue"] = true.into();
    let s = Scenario::from_value(v).unwrap();
    let code = s.controller.recipe.as_ref().unwrap().code("voices");
    let line = code.iter().find(|(step, _)| *step == cachescope::sim::reconcile::Step::Finalizer).expect("a line for the step");
    assert!(line.1.contains("AddFinalizer(owner, \"academy.k3ii.dev/cleanup\")"), "{line:?}");
    let report = Report::run(&s);
    let updates = report.api.get("update").cloned().unwrap_or_default();
    assert!(updates.get("200").copied().unwrap_or(0) >= 2, "added, then taken off: {updates:?}");
    assert!(updates.get("409").copied().unwrap_or(0) >= 1, "a sync that read the owner before its own update: {updates:?}");
    assert_eq!(report.live.get("Ensemble").copied().unwrap_or(0), 0, "gone once its finalizer is off");
    assert_eq!(report.live.get("ConfigMap").copied().unwrap_or(0), 0, "its children collected");
    assert!(report.invariants["no_orphans"].held, "{:?}", report.invariants);
    // Each decision is said, at the resourceVersion read, on the step's own line.
    let mut world = cachescope::sim::world::World::new(s.world_init());
    let mut said = Vec::new();
    while let Some(frame) = world.step() {
        if let cachescope::sim::frame::Event::ReconcileNote { step, .. } = &frame.event {
            if *step == cachescope::sim::reconcile::Step::Finalizer {
                said.push(cachescope::narrate::caption(&frame));
            }
        }
    }
    assert!(said.iter().any(|c| c.contains("as read at resourceVersion 1, lacks the finalizer academy.k3ii.dev/cleanup")), "{said:?}");
    assert!(said.iter().any(|c| c.contains("is being deleted and holds the finalizer academy.k3ii.dev/cleanup")), "{said:?}");
}

#[test]
fn a_guard_that_holds_returns_before_the_create_and_one_that_does_not_makes_no_frame() {
    use cachescope::sim::apiserver::Verb;
    use cachescope::sim::frame::Event;
    use cachescope::sim::reconcile::{Note, ReconcileError, Requeue};
    /// A sync: what its guard read if it held, whether it created, and how it ended.
    type Sync = (Option<(u32, u32)>, bool, Option<(Option<ReconcileError>, Requeue)>);
    // Some of its children seen, not all: return instead of counting the rest missing.
    let run = |error: bool| {
        let mut v = base();
        v["cluster"] = json!({"watch_lag_ms": 1500});
        let when = json!({"all": [{"lt": ["found", "desired"]}, {"gt": ["found", 0]}]});
        insert(&mut v, 2, json!({"return_if": {"when": when, "error": error}}));
        let s = Scenario::from_value(v).unwrap();
        let mut world = cachescope::sim::world::World::new(s.world_init());
        let mut syncs: std::collections::BTreeMap<u64, Sync> = Default::default();
        let mut current = 0;
        while let Some(frame) = world.step() {
            match &frame.event {
                Event::ReconcileStarted { n, .. } => current = *n,
                Event::ReconcileNote { note: Note::Returned { found, desired, error: e, .. }, n, .. } => {
                    assert_eq!(*e, error);
                    syncs.entry(*n).or_default().0 = Some((*found, *desired));
                }
                Event::ApiRequest { entry, .. } if entry.verb == Verb::Create => syncs.entry(current).or_default().1 = true,
                Event::ReconcileFinished { n, error, requeue, .. } => syncs.entry(*n).or_default().2 = Some((error.clone(), *requeue)),
                _ => {}
            }
        }
        syncs
    };
    for error in [true, false] {
        let syncs = run(error);
        let held: Vec<_> = syncs.values().filter(|s| s.0.is_some()).collect();
        assert!(!held.is_empty(), "error {error}: a sync saw some of its children and not all: {syncs:?}");
        for (found_desired, created, end) in held {
            let (found, desired) = found_desired.unwrap();
            assert!(found > 0 && found < desired, "the guard holds only where its condition does: {found} of {desired}");
            assert!(!created, "a sync whose guard held creates nothing");
            let (e, requeue) = end.clone().expect("it returned");
            if error {
                assert_eq!(e, Some(ReconcileError::Guard { found, desired }));
                assert!(matches!(requeue, Requeue::RateLimited { .. }), "an error is requeued rate-limited: {requeue:?}");
            } else {
                assert_eq!((e, requeue), (None, Requeue::No), "nil: forgotten until an event");
            }
        }
        // The first sync found none: the guard did not hold, made no frame, and the sync created.
        let first = syncs.get(&1).expect("a first sync");
        assert!(first.0.is_none() && first.1, "the first sync passed the guard and created: {first:?}");
    }
}

/// An `Update` of an owner read from a stale cache: unconditional, it
/// writes back the desired count the cache still held and undoes a scale it
/// has not seen (a lost update, mended here only because a later sync reads
/// the scale and writes it again); at the resourceVersion read, it is
/// `409 Conflict`, and the retry waits for the cache to read the scale.
#[test]
fn a_labels_update_from_a_stale_read_undoes_a_scale_unless_it_asks_its_resource_version() {
    use cachescope::sim::object::{Kind, ObjectKey};
    let run = |precondition: Option<&str>| {
        let mut v = base();
        v["until_ms"] = 20_000.into();
        v["cluster"] = json!({"watch_lag_ms": 1000});
        let mut label = json!({"label_owner": {"labels": {"academy.k3ii.dev/counted": "true"}}});
        if let Some(p) = precondition {
            label["label_owner"]["precondition"] = p.into();
        }
        insert(&mut v, 2, label);
        // Names of its own, so the lag makes no surplus of its own.
        step(3)(&mut v)["create"]["naming"] = json!({"indexed": "-voice-"});
        // kubectl scales the Ensemble while the first sync's children are on the watch.
        v["actions"] = json!([{"at_ms": 1000, "scale": {"kind": "Ensemble", "name": "beta", "to": 5}}]);
        let s = Scenario::from_value(v).unwrap();
        // The desired count the cluster holds, each time it changes.
        let mut world = cachescope::sim::world::World::new(s.world_init());
        let key = ObjectKey { namespace: "academy-lab".into(), name: "beta".into() };
        let mut voices = Vec::new();
        while world.step().is_some() {
            let now = world.api.get(Kind::Ensemble, &key).and_then(|o| o.spec.desired());
            if voices.last() != Some(&now) {
                voices.push(now);
            }
        }
        (s.controller.recipe.as_ref().unwrap().code("voices"), Report::run(&s), voices)
    };
    let (code, unconditional, undone) = run(None);
    let (checked_code, checked, kept) = run(Some("resource_version"));
    let line = |code: &[(cachescope::sim::reconcile::Step, String)]| {
        code.iter().find(|(s, _)| *s == cachescope::sim::reconcile::Step::LabelOwner).unwrap().1.clone()
    };
    assert!(line(&code).ends_with("client.Update(owner)   // none listed: removed"), "{}", line(&code));
    assert!(
        line(&checked_code).contains("// resourceVersion as read: moved on since, 409 Conflict; none listed: removed"),
        "{}",
        line(&checked_code)
    );
    assert_eq!(undone[..3], [Some(3), Some(5), Some(3)], "the labels' Update wrote the stale 3 over the scale: {undone:?}");
    assert_eq!(kept, [Some(3), Some(5)], "{kept:?}");
    let updates = |r: &Report| r.api.get("update").cloned().unwrap_or_default();
    assert_eq!(updates(&unconditional).get("409"), None, "{:?}", updates(&unconditional));
    assert!(updates(&checked).get("409").copied().unwrap_or(0) >= 1, "{:?}", updates(&checked));
    assert_eq!(checked.live.get("ConfigMap").copied(), Some(5), "{:?}", checked.live);
}

/// A bounded loop over what a read returned: each orphan the list found is
/// deleted, at most `max` a sync; a sync that reads the cache before the
/// DELETED events are back loops over the same objects again, and its
/// deletes find them gone (404 NotFound: someone's delete, not an error),
/// which is why a stale read re-targets, rather than passes, what it
/// deleted (opensearch-k8s-operator #1494's finding).
#[test]
fn a_for_each_deletes_what_its_condition_picks_at_most_max_a_sync_and_a_stale_reread_finds_them_gone() {
    let mut v = json!({
        "name": "strays", "until_ms": 20_000,
        "cluster": {"watch_lag_ms": 1000},
        "objects": [
            {"kind": "Ensemble", "name": "beta", "voices": 2},
            {"kind": "ConfigMap", "name": "stray-{i}", "count": 3, "labels": {"academy.k3ii.dev/ensemble": "beta"}}
        ],
        "controller": {"kind": "ensemble", "double_enqueue": true, "recipe": {
            "owner": "Ensemble", "child": "ConfigMap",
            "steps": [
                {"get_owner": {"from": "cache"}},
                {"list": {"select": {"label": "academy.k3ii.dev/ensemble"}}},
                {"for_each": {"max": 2, "when": "orphan", "do": {"delete": {}}}},
                "return"
            ]
        }}
    });
    let s = Scenario::from_value(v.clone()).unwrap();
    let code = s.controller.recipe.as_ref().unwrap().code("voices");
    assert_eq!(
        code[3].1,
        "for _, c := range children { if metav1.GetControllerOf(c) == nil { client.Delete(c) } }   // 2 a sync at most; an error: return it"
    );
    let report = Report::run(&s);
    assert_eq!(report.live.get("ConfigMap").copied(), Some(0), "{:?}", report.live);
    let deletes = report.api.get("delete").cloned().unwrap_or_default();
    assert_eq!(deletes.get("200").copied(), Some(3), "each stray deleted once: {deletes:?}");
    assert!(deletes.get("404").copied().unwrap_or(0) >= 1, "a stale re-read loops over them again: {deletes:?}");
    assert_eq!(report.metrics["ensemble-controller"].requeues, 0, "a NotFound is not the sync's error");
    // At most 2 a sync, and the first says it leaves the third for the next.
    let mut world = cachescope::sim::world::World::new(s.world_init());
    let (mut per_sync, mut most, mut said) = (0, 0, Vec::new());
    while let Some(f) = world.step() {
        match &f.event {
            cachescope::sim::frame::Event::ReconcileStarted { .. } => per_sync = 0,
            cachescope::sim::frame::Event::ApiRequest { entry, .. } if entry.verb == cachescope::sim::apiserver::Verb::Delete => {
                per_sync += 1;
                most = most.max(per_sync);
            }
            cachescope::sim::frame::Event::ReconcileNote { step: cachescope::sim::reconcile::Step::ForEach, .. } => {
                said.push(cachescope::narrate::caption(&f))
            }
            _ => {}
        }
    }
    assert_eq!(most, 2, "max bounds each sync's deletes");
    assert!(said[0].contains("3 match, and it deletes the first 2 (2 a sync at most: the rest wait for the next)"), "{said:?}");
    // Only the orphans: a condition that holds of none deletes none, and makes no frame.
    v["controller"]["recipe"]["steps"][2]["for_each"]["when"] = json!("controlled");
    let none = Report::run(&Scenario::from_value(v).unwrap());
    assert_eq!(none.live.get("ConfigMap").copied(), Some(3), "{:?}", none.live);
    assert_eq!(none.api.get("delete"), None, "{:?}", none.api);
}

/// A guard and the loop it guards must read one snapshot. A rolling
/// restart that counts the healthy members in its cache (`active_label`:
/// Terminating ones left out) and picks the next one to restart from a LIST
/// of its own (`over: live`) takes the second down before the cache has seen
/// the first go: quorum breaks. Looping over what the count read, a stale
/// read re-targets the member it already deleted (404 NotFound) and quorum
/// holds, as opensearch-k8s-operator #1494 found of the operator.
#[test]
fn a_loop_over_a_fresher_list_than_its_guard_read_breaks_a_quorum_the_snapshot_keeps() {
    let run = |over: Option<&str>| {
        let mut v = json!({
            "name": "quorum", "until_ms": 60_000,
            "cluster": {"watch_lag_ms": 1000},
            "kinds": [
                {"name": "Member", "resource": "members"},
                {"name": "Quorum", "resource": "quorums", "desired": "members",
                 "children": {"kind": "Member", "label": "academy.k3ii.dev/quorum"}}
            ],
            "invariants": [{"name": "quorum", "at_least": {"count": 2, "owner": "Quorum"}}],
            "objects": [{"kind": "Quorum", "name": "q", "spec": {"members": 3}}],
            "controller": {"kind": "ensemble", "recipe": {
                "owner": "Quorum", "child": "Member",
                "steps": [
                    {"get_owner": {"from": "cache"}},
                    {"count": {"select": {"active_label": "academy.k3ii.dev/quorum"}}},
                    {"create": {"naming": {"indexed": "-m-"}, "label": "academy.k3ii.dev/quorum", "owner_reference": false}},
                    {"return_if": {"when": {"lt": ["found", "desired"]}}},
                    {"for_each": {"max": 1, "when": {"all": [{"labelled": ["academy.k3ii.dev/revision", "v1"]}, {"not": "terminating"}]}, "do": {"delete": {}}}},
                    {"requeue_after": {"after_ms": 500}}
                ]
            }}
        });
        let members = v["objects"].as_array_mut().unwrap();
        for i in 0..3 {
            members.push(json!({"kind": "Member", "name": format!("q-m-{i}"),
                "labels": {"academy.k3ii.dev/quorum": "q", "academy.k3ii.dev/revision": "v1"}}));
        }
        if let Some(over) = over {
            v["controller"]["recipe"]["steps"][4]["for_each"]["over"] = over.into();
        }
        let s = Scenario::from_value(v).unwrap();
        (s.controller.recipe.as_ref().unwrap().code("members"), Report::run(&s))
    };
    let (code, live) = run(Some("live"));
    assert!(code[5].1.starts_with("for _, c := range apiReader.List(academy.k3ii.dev/quorum=owner.Name, active).Items {"), "{}", code[5].1);
    assert!(code[2].1.contains("lister.List(academy.k3ii.dev/quorum=owner.Name, active)"), "{}", code[2].1);
    assert!(!live.invariants["quorum"].held, "the live list picks the second member: {:?}", live.invariants);
    let (_, snapshot) = run(None);
    assert!(snapshot.invariants["quorum"].held, "{:?}", snapshot.invariants);
    let deletes = snapshot.api.get("delete").cloned().unwrap_or_default();
    assert_eq!(deletes.get("200").copied(), Some(3), "the restart still replaces each member once: {deletes:?}");
    assert!(deletes.get("404").copied().unwrap_or(0) >= 1, "a stale read re-targets its own delete: {deletes:?}");
    assert_eq!(snapshot.live.get("Member").copied(), Some(3), "{:?}", snapshot.live);
}

/// A read `from: read_your_writes` goes through controller-runtime's client:
/// the cache, as `from: cache` reads it, while the client's read-your-writes
/// is off; on, the same count waits for the operator's own delete, and the
/// quorum the cache-counted guard broke holds.
#[test]
fn a_client_read_waits_for_its_own_delete_only_while_read_your_writes_is_on() {
    let shipped = preset("opensearch-quorum").unwrap();
    let mut v = shipped.to_value();
    assert_eq!(v["controller"]["recipe"]["steps"][1]["count"]["from"], "read_your_writes");
    v["controller"]["recipe"]["steps"][1]["count"]["from"] = "cache".into();
    v["lesson"] = json!([]);
    let cache = Report::run(&Scenario::from_value(v).unwrap());
    let off = Report::run(&shipped);
    assert_eq!(off.trace_hash, cache.trace_hash, "switch off, the client reads the cache as it is");
    assert!(!off.invariants["quorum"].held);
    let on = Report::run(&shipped.with_settings([("controller.read_your_writes", "true")]).unwrap());
    assert!(on.invariants["quorum"].held, "{:?}", on.invariants);
    assert_eq!(on.api["delete"].get("404"), None, "it never picks a Member it already deleted: {:?}", on.api["delete"]);
    let code = shipped.controller.recipe.as_ref().unwrap().code("replicas");
    assert!(code[2].1.starts_with("children := client.List("), "{}", code[2].1);
}

/// A MachineDeployment that wants one MachineSet, holding two (md-1, md-2,
/// each with its Machine), deletes the surplus picked by `victims`, under
/// `propagation`: what becomes of the deleted MachineSet's Machine.
fn surplus_machineset(propagation: Option<&str>, victims: &str) -> (Report, Vanished) {
    let mut objects = vec![json!({"kind": "MachineDeployment", "name": "md", "spec": {"replicas": 1}})];
    for i in [1, 2] {
        objects.push(json!({"kind": "MachineSet", "name": format!("md-{i}"), "spec": {"replicas": 1},
            "labels": {"cluster.x-k8s.io/deployment-name": "md"},
            "owner_references": [{"kind": "MachineDeployment", "name": "md", "controller": true}]}));
        objects.push(json!({"kind": "Machine", "name": format!("md-{i}-m"),
            "labels": {"cluster.x-k8s.io/set-name": format!("md-{i}")},
            "owner_references": [{"kind": "MachineSet", "name": format!("md-{i}"), "controller": true}]}));
    }
    let mut delete = json!({"delete": {}});
    if let Some(p) = propagation {
        delete["delete"]["propagation"] = p.into();
    }
    let v = json!({
        "name": "surplus", "until_ms": 20_000,
        "kinds": preset("capi-duplicate-machinesets").unwrap().to_value()["kinds"],
        "objects": objects,
        "controller": {"kind": "ensemble", "recipe": {
            "owner": "MachineDeployment", "child": "MachineSet",
            "steps": [{"get_owner": {}}, {"count": {"select": "active_controlled", "victims": victims}}, delete, "return"]
        }}
    });
    let s = Scenario::from_value(v).unwrap();
    (Report::run(&s), Vanished::watch(&s))
}

/// In what order objects left the apiserver, and which ever waited there,
/// Terminating, on `foregroundDeletion`; with what is left at the end.
struct Vanished {
    order: Vec<String>,
    held_in_foreground: Vec<String>,
    left: Vec<cachescope::sim::object::Object>,
}

impl Vanished {
    fn watch(s: &Scenario) -> Vanished {
        let mut world = cachescope::sim::world::World::new(s.world_init());
        let names = |w: &cachescope::sim::world::World| w.api.objects().map(|o| o.name.to_string()).collect::<Vec<_>>();
        let (mut was, mut order, mut held) = (names(&world), Vec::new(), Vec::new());
        while world.step().is_some() {
            let now = names(&world);
            order.extend(was.iter().filter(|n| !now.contains(n)).cloned());
            for o in world.api.objects().filter(|o| o.is_terminating() && o.finalizers.iter().any(|f| f == "foregroundDeletion")) {
                if !held.iter().any(|h| *h == o.name) {
                    held.push(o.name.to_string());
                }
            }
            was = now;
        }
        Vanished { order, held_in_foreground: held, left: world.api.objects().map(|o| (**o).clone()).collect() }
    }

    fn left(&self, name: &str) -> Option<&cachescope::sim::object::Object> {
        self.left.iter().find(|o| o.name == name)
    }
}

#[test]
fn a_delete_says_what_becomes_of_its_victims_dependents() {
    // Background, as absent: the MachineSet goes at once, and the garbage
    // collector takes its Machine after it.
    for propagation in [None, Some("Background")] {
        let (report, gone) = surplus_machineset(propagation, "highest_ordinal");
        assert_eq!(report.live.get("MachineSet"), Some(&1), "{propagation:?}: {:?}", report.live);
        assert_eq!(report.live.get("Machine"), Some(&1), "{propagation:?}: {:?}", report.live);
        assert_eq!(gone.order, ["md-2", "md-2-m"], "{propagation:?}: the highest ordinal went, then its Machine");
        assert!(gone.held_in_foreground.is_empty(), "{propagation:?}: {:?}", gone.held_in_foreground);
    }
    // Orphan: the Machine lives on with no owner.
    let (report, gone) = surplus_machineset(Some("Orphan"), "highest_ordinal");
    assert_eq!(report.live.get("MachineSet"), Some(&1));
    assert_eq!(report.live.get("Machine"), Some(&2), "{:?}", report.live);
    assert_eq!(gone.order, ["md-2"]);
    let orphan = gone.left("md-2-m").expect("orphaned, not deleted");
    assert!(orphan.owner_references.is_empty(), "its ownerReference is taken off: {:?}", orphan.owner_references);
    // Foreground: the MachineSet waits, Terminating, for its Machine to go; then it goes.
    let (report, gone) = surplus_machineset(Some("Foreground"), "highest_ordinal");
    assert_eq!((report.live.get("MachineSet"), report.live.get("Machine")), (Some(&1), Some(&1)), "{:?}", report.live);
    assert_eq!(gone.held_in_foreground, ["md-2"]);
    assert_eq!(gone.order, ["md-2-m", "md-2"], "the dependent first, the owner after");
    // The oldest first picks md-1 instead: the order is the victims' field, not the names'.
    let (_, gone) = surplus_machineset(None, "oldest");
    assert_eq!(gone.order, ["md-1", "md-1-m"]);
}

/// A `for_each` delete names its propagation too: an orphaned MachineSet
/// deleted with `Orphan` leaves its Machine, ownerless; in the background,
/// the collector takes it.
#[test]
fn a_for_each_delete_says_what_becomes_of_its_victims_dependents() {
    let run = |propagation: &str| {
        let v = json!({
            "name": "strays", "until_ms": 20_000,
            "kinds": preset("capi-duplicate-machinesets").unwrap().to_value()["kinds"],
            "objects": [
                {"kind": "MachineDeployment", "name": "md", "spec": {"replicas": 0}},
                {"kind": "MachineSet", "name": "stray", "spec": {"replicas": 1}, "labels": {"cluster.x-k8s.io/deployment-name": "md"}},
                {"kind": "Machine", "name": "stray-m", "labels": {"cluster.x-k8s.io/set-name": "stray"},
                    "owner_references": [{"kind": "MachineSet", "name": "stray", "controller": true}]}
            ],
            "controller": {"kind": "ensemble", "recipe": {
                "owner": "MachineDeployment", "child": "MachineSet",
                "steps": [
                    {"get_owner": {}},
                    {"list": {"select": {"label": "cluster.x-k8s.io/deployment-name"}}},
                    {"for_each": {"max": 5, "when": "orphan", "do": {"delete": {"propagation": propagation}}}},
                    "return"
                ]
            }}
        });
        let s = Scenario::from_value(v).unwrap();
        let code = s.controller.recipe.as_ref().unwrap().code("replicas");
        let each = code.into_iter().map(|(_, line)| line).find(|line| line.starts_with("for _, c := range")).expect("the loop's line");
        (each, Vanished::watch(&s))
    };
    let (code, gone) = run("Orphan");
    assert!(code.contains("client.Delete(c, client.PropagationPolicy(metav1.DeletePropagationOrphan))"), "{code}");
    assert_eq!(gone.order, ["stray"]);
    assert!(gone.left("stray-m").expect("orphaned").owner_references.is_empty());
    let (code, gone) = run("Background");
    assert!(code.contains("metav1.DeletePropagationBackground"), "{code}");
    assert_eq!(gone.order, ["stray", "stray-m"]);
}

/// StatefulSet's `getOrdinal` reads the number after the last `-`
/// (`(.*)-([0-9]+)$`); a name with none sorts below every number.
#[test]
fn the_highest_ordinal_reads_the_number_not_the_name() {
    let mut v = base();
    v["objects"] = json!([{"kind": "Ensemble", "name": "beta", "voices": 1}]);
    // Created in this order, so that the newest first would pick 9, 2 and the solo.
    for name in ["beta-voice-10", "beta-solo7", "beta-voice-2", "beta-voice-9"] {
        v["objects"].as_array_mut().unwrap().push(json!({"kind": "ConfigMap", "name": name,
            "labels": {"academy.k3ii.dev/ensemble": "beta"}}));
    }
    v["controller"]["recipe"]["steps"][1]["count"]["victims"] = "highest_ordinal".into();
    v["controller"]["recipe"]["steps"][2] = json!({"create": {"naming": {"indexed": "-voice-"}, "label": "academy.k3ii.dev/ensemble"}});
    let s = Scenario::from_value(v).unwrap();
    let gone = Vanished::watch(&s);
    assert_eq!(
        gone.order,
        ["beta-voice-10", "beta-voice-9", "beta-voice-2"],
        "by ordinal, though \"beta-voice-9\" sorts after \"beta-voice-10\"; \"solo7\" has none"
    );
    let left: Vec<&str> = gone.left.iter().filter(|o| o.kind() == cachescope::sim::object::Kind::ConfigMap).map(|o| &*o.name).collect();
    assert_eq!(left, ["beta-solo7"]);
}

/// `select: namespace` counts every object of the child kind in the owner's
/// namespace as its own, whatever its labels and owner: beside another
/// Ensemble, it takes that one's ConfigMaps for a surplus and deletes them
/// (the operator that takes its namespace to be its own); a label selector
/// counts its own. Another namespace's are no one's here.
#[test]
fn a_namespace_select_counts_the_neighbours_children_as_its_own() {
    let run = |select: Value| {
        let mut v = base();
        v["objects"] = json!([
            {"kind": "Ensemble", "name": "beta", "voices": 1},
            {"kind": "ConfigMap", "name": "alpha-voice-{i}", "count": 3, "labels": {"academy.k3ii.dev/ensemble": "alpha"}},
            {"kind": "ConfigMap", "name": "far", "namespace": "elsewhere", "labels": {"academy.k3ii.dev/ensemble": "beta"}}
        ]);
        v["controller"]["recipe"]["steps"][1]["count"]["select"] = select;
        v["controller"]["recipe"]["steps"][1]["count"]["victims"] = "oldest".into();
        let s = Scenario::from_value(v).unwrap();
        (s.controller.recipe.as_ref().unwrap().code("voices"), Vanished::watch(&s))
    };
    let (code, gone) = run(json!("namespace"));
    assert!(code.iter().any(|(_, line)| line.contains("client.InNamespace(owner.Namespace)")), "{code:?}");
    assert_eq!(gone.order, ["alpha-voice-1", "alpha-voice-2"], "the oldest two of three it counted go, though alpha's");
    assert!(gone.left("far").is_some() && gone.left("alpha-voice-3").is_some());
    let (_, gone) = run(json!({"label": "academy.k3ii.dev/ensemble"}));
    assert!(gone.order.is_empty(), "{:?}", gone.order);
    let mine = gone.left.iter().filter(|o| o.labels.get("academy.k3ii.dev/ensemble").map(String::as_str) == Some("beta")).count();
    assert_eq!(mine, 2, "its one voice is created, beside the one in another namespace");
}

/// A label step writes annotations beside its labels, in the same Update,
/// and takes them off with them (nfd-master notes in
/// `nfd.node.kubernetes.io/feature-labels` which labels it manages); the
/// owner's other annotations, seeded, ride along untouched.
#[test]
fn a_label_step_writes_and_removes_annotations_with_its_labels() {
    use cachescope::sim::controllers::Note;
    use cachescope::sim::frame::Event;
    let mut v = preset("nfd-labels-stripped").unwrap().to_value();
    v["controller"]["recipe"]["steps"][2]["label_owner"]["annotations"] =
        json!({"nfd.node.kubernetes.io/feature-labels": "cpu-model.vendor_id"});
    v["objects"][0]["annotations"] = json!({"example.com/team": "storage"});
    v["expect"] = json!([]);
    let s = Scenario::from_value(v).unwrap();
    let code = s.controller.recipe.as_ref().unwrap().code("");
    let line = &code.iter().find(|(_, line)| line.contains("set [")).expect("the label step's line").1;
    assert!(
        line.contains("set [feature.node.kubernetes.io/cpu-model.vendor_id, annotation nfd.node.kubernetes.io/feature-labels]"),
        "{line}"
    );
    let mut world = cachescope::sim::world::World::new(s.world_init());
    let mut notes = Vec::new();
    while let Some(f) = world.step() {
        if let Event::ReconcileNote { note: Note::Labels { owner, removing, keys, annotations, .. }, .. } = &f.event {
            notes.push((owner.clone(), *removing, *keys, *annotations, cachescope::narrate::caption(&f)));
        }
    }
    // Stripped with its label (it had no annotation to lose), then both written back.
    let node1: Vec<_> = notes.iter().filter(|n| n.0 == "academy-lab/node-1").collect();
    assert_eq!(node1.iter().map(|n| (n.1, n.2, n.3)).collect::<Vec<_>>(), [(true, 1, 0), (false, 1, 1)], "{notes:?}");
    assert!(node1[1].4.contains("lacks a label and an annotation"), "{}", node1[1].4);
    let node = world.api.objects().find(|o| o.name == "node-1" && o.kind().to_string() == "Node").cloned();
    let node = node.expect("node-1");
    let annotations = node.annotations.as_deref().expect("node-1 is annotated");
    assert_eq!(annotations.get("nfd.node.kubernetes.io/feature-labels").map(String::as_str), Some("cpu-model.vendor_id"));
    assert_eq!(annotations.get("example.com/team").map(String::as_str), Some("storage"), "{annotations:?}");
}
