//! "Your controller" (`view::editor`): a draft starts from the run, a blank
//! reconcile or any preset's, runs the very trace its start runs, and an
//! edit that breaks a rule is refused naming the step and field.

use cachescope::report::Report;
use cachescope::scenario::{preset, preset_names};
use cachescope::view::editor::{code, starts, Draft, Start};
use serde_json::Value;

#[test]
fn a_draft_from_a_preset_runs_the_presets_trace_and_a_blank_one_runs_too() {
    let current = preset("over-create").unwrap();
    let offered = starts(&current);
    assert_eq!(&offered[..2], [Start::Current, Start::Blank]);
    let mut from_presets = 0;
    for start in offered {
        assert_eq!(Start::from_key(&start.key()), Some(start));
        let draft = Draft::begin(start, &current).unwrap();
        let checked = draft.check(&draft.text);
        let s = checked.run.unwrap_or_else(|e| panic!("{start:?}: {e}"));
        assert!(s.lesson.is_empty(), "{start:?}: a lesson's figures are its preset's recipe's");
        assert!(checked.compact.is_some());
        // A line a step, after the dequeue's.
        let lines = code(&s);
        assert_eq!(lines.len(), s.controller.recipe.as_ref().unwrap().ops.len() + 1, "{start:?}");
        assert_eq!(lines[0], "key := queue.Get()");
        if let Start::Preset(name) = start {
            from_presets += 1;
            let shipped = preset(name).unwrap();
            assert_eq!(Report::run(&s).trace_hash, Report::run(&shipped).trace_hash, "{name}: its recipe written out runs its trace");
            if shipped.controller.recipe.is_some() {
                assert_eq!(code(&s), code(&shipped), "{name}: its own recipe, line for line");
            }
        }
    }
    let pruners =
        preset_names().iter().filter(|n| preset(n).unwrap().controller.kind == cachescope::sim::apiserver::ControllerKind::Pruner).count();
    assert_eq!(from_presets, preset_names().len() - pruners, "every preset but the pruner's is a start");
    // The pruner's run offers the presets, not itself.
    let pruning = preset("empty-cache").unwrap();
    assert!(Draft::begin(Start::Current, &pruning).is_none());
    assert!(!starts(&pruning).contains(&Start::Current));
}

#[test]
fn an_edit_that_breaks_a_rule_is_refused_naming_its_field_and_one_not_json_its_line() {
    let current = preset("over-create").unwrap();
    let draft = Draft::begin(Start::Current, &current).unwrap();
    let mut recipe: Value = serde_json::from_str(&draft.text).unwrap();
    recipe["steps"][0]["get_owner"]["from"] = "cahce".into();
    let checked = draft.check(&recipe.to_string());
    let e = checked.run.expect_err("a read source it does not know");
    assert!(e.starts_with("controller.recipe.steps[0].get_owner.from") && e.contains("cahce"), "{e}");
    assert!(checked.compact.is_none());
    let e = draft.check("{\n  \"owner\": ").run.expect_err("not JSON");
    assert!(e.contains("not JSON") && e.contains("line 2"), "{e}");
    // The blank reconcile's own steps, and a change of its read's source that the run follows.
    let blank = Draft::begin(Start::Blank, &current).unwrap();
    let mut recipe: Value = serde_json::from_str(&blank.text).unwrap();
    assert_eq!(recipe["steps"].as_array().unwrap().len(), 3);
    let before = code(&blank.check(&blank.text).run.unwrap());
    recipe["steps"][0]["get_owner"]["from"] = "live".into();
    recipe["steps"][1]["list"]["from"] = "live".into();
    let after = code(&blank.check(&recipe.to_string()).run.unwrap());
    assert_ne!(before[1], after[1], "the list's line says where it reads from");
}

/// A line's buttons move its step up or down or remove it; "Add a step"
/// puts the language's worked example before the return; each result is
/// checked as a typed edit is.
#[test]
fn steps_are_added_moved_and_removed_as_a_list() {
    use cachescope::view::editor::{added, moved, Move};
    let current = preset("over-create").unwrap();
    let blank = Draft::begin(Start::Blank, &current).unwrap();
    let names = |text: &str| -> Vec<String> {
        let v: Value = serde_json::from_str(text).unwrap();
        v["steps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().map(String::from).unwrap_or_else(|| s.as_object().unwrap().keys().next().unwrap().clone()))
            .collect()
    };
    assert_eq!(names(&blank.text), ["get_owner", "list", "return"]);
    let swapped = moved(&blank.text, 1, Move::Up).unwrap();
    assert_eq!(names(&swapped), ["list", "get_owner", "return"]);
    assert_eq!(moved(&swapped, 0, Move::Down).unwrap(), blank.text, "down undoes up");
    assert_eq!(moved(&blank.text, 0, Move::Up), None, "the first step has no place above it");
    assert_eq!(moved(&blank.text, 2, Move::Down), None);
    assert_eq!(moved("{", 0, Move::Remove), None, "not JSON: nothing to move");
    // A create, from its worked example, before the return: a valid recipe that creates.
    let with_create = added(&blank.text, "create").unwrap();
    assert_eq!(names(&with_create), ["get_owner", "list", "create", "return"]);
    // The list reads no plan: a create needs a count; as the typed edit would be, it is refused naming the step.
    let e = blank.check(&with_create).run.expect_err("a create after a list");
    assert!(e.starts_with("controller.recipe.steps[2]"), "{e}");
    let removed = moved(&with_create, 2, Move::Remove).unwrap();
    assert_eq!(removed, blank.text);
    assert_eq!(added(&blank.text, "no_such_step"), None);
    // The dialog's Add: where a step is valid nowhere (a create after a list), before the return, as `added` puts it.
    assert_eq!(blank.add(&blank.text, "create"), Some(with_create.clone()));
    assert_eq!(blank.add(&blank.text, "no_such_step"), None);
    assert!(cachescope::view::editor::step_names().contains(&"for_each"));
    assert_eq!(cachescope::view::editor::steps_in(&with_create), Some(4), "an invalid recipe's steps, counted");
    assert_eq!(cachescope::view::editor::steps_in("[1]"), None);
}

/// The form table holds every field of every step the language has, and
/// marks required exactly those serde requires: the scenario's JSON Schema,
/// which serde's own types write, is the other account of them.
#[test]
fn the_forms_offer_every_field_of_every_step_and_require_what_serde_does() {
    use cachescope::scenario::recipe::{fields, FIELDS};
    use std::collections::BTreeSet;
    let schema = cachescope::scenario::settings::schema();
    let variants = schema["$defs"]["Op"]["oneOf"].as_array().expect("Op is one of its steps");
    let mut from_schema = BTreeSet::new();
    let mut required = BTreeSet::new();
    for v in variants {
        let Some(props) = v["properties"].as_object() else { continue };
        let (step, body) = props.iter().next().unwrap();
        for field in body["properties"].as_object().map(|m| m.keys().cloned().collect::<Vec<_>>()).unwrap_or_default() {
            from_schema.insert((step.clone(), field));
        }
        for field in body["required"].as_array().into_iter().flatten() {
            required.insert((step.clone(), field.as_str().unwrap().to_string()));
        }
    }
    let table: BTreeSet<(String, String)> = FIELDS.iter().map(|f| (f.step.to_string(), f.field.to_string())).collect();
    assert_eq!(table, from_schema, "the form table and the steps' types name the same fields");
    assert_eq!(table.len(), FIELDS.len(), "one row a field");
    let needed: BTreeSet<(String, String)> =
        FIELDS.iter().filter(|f| f.required).map(|f| (f.step.to_string(), f.field.to_string())).collect();
    assert_eq!(needed, required);
    assert_eq!(fields("count").map(|f| f.field).collect::<Vec<_>>(), ["from", "select", "victims", "burst", "desired"]);
    // The recipe's own fields, all but its steps (the list above the forms).
    let recipe = schema["$defs"]["Recipe"]["properties"].as_object().expect("a recipe's fields");
    let mut own: BTreeSet<&str> = recipe.keys().map(String::as_str).collect();
    own.remove("steps");
    assert_eq!(fields("recipe").map(|f| f.field).collect::<BTreeSet<_>>(), own);
}

/// Each word a form's menu offers is one the step reads, and its default
/// is one of them; a form edit of each writes a step serde takes.
#[test]
fn every_word_a_form_offers_is_a_word_its_step_reads() {
    use cachescope::scenario::recipe::{FieldKind, FIELDS, STEPS};
    use cachescope::sim::recipe::Op;
    for f in FIELDS {
        let example: Value = serde_json::from_str(STEPS.iter().find(|s| s.name == f.step).unwrap().example).unwrap();
        let words: Vec<(&str, bool)> = match f.kind {
            FieldKind::Choice(words) => words.iter().map(|w| (*w, false)).collect(),
            FieldKind::Tagged(words) => words.to_vec(),
            _ => continue,
        };
        if let Some(d) = f.default {
            assert!(words.iter().any(|(w, _)| *w == d), "{}.{}: its default {d} is offered", f.step, f.field);
        }
        for (word, carries) in words {
            let mut step = example.clone();
            step[f.step][f.field] = if carries { serde_json::json!({ word: "x" }) } else { word.into() };
            serde_json::from_value::<Op>(step).unwrap_or_else(|e| panic!("{}.{} = {word}: {e}", f.step, f.field));
        }
    }
}

/// The recipe, written in the forms as a keyboard would: a blank
/// reconcile over a ReplicaSet of 3; its list replaced by a count by
/// controllerRef, a create with generateName; it over-creates from the
/// cache and keeps 3 once the count reads live. A number that is none and
/// JSON that is not are refused naming the field, the text left as it was.
#[test]
fn a_recipe_written_in_the_forms_over_creates_and_reading_live_mends_it() {
    use cachescope::scenario::Scenario;
    use cachescope::view::editor::{added, edited, moved, step_form, Edit, Move, Part, Shown};
    let current = Scenario::from_value(serde_json::json!({
        "name": "mine", "until_ms": 20000, "cluster": {"watch_lag_ms": 1000},
        "controller": {"kind": "replicaset", "expectations": false},
        "objects": [{"kind": "ReplicaSet", "name": "web", "replicas": 3}]
    }))
    .unwrap();
    let blank = Draft::begin(Start::Blank, &current).unwrap();
    let mut text = moved(&blank.text, 1, Move::Remove).unwrap();
    text = added(&text, "count").unwrap();
    let (name, form) = step_form(&text, 1).unwrap();
    assert_eq!(name, "count");
    assert_eq!(form.iter().find(|v| v.field.field == "from").unwrap().shown, Shown::Choice("cache".into()));
    text = edited(&text, Part::Step(1), "select", Edit::Tag("active_controlled".into())).unwrap();
    text = edited(&text, Part::Step(1), "victims", Edit::Word("keep".into())).unwrap();
    text = edited(&text, Part::Step(1), "burst", Edit::Number(String::new())).unwrap();
    text = added(&text, "create").unwrap();
    text = edited(&text, Part::Step(2), "naming", Edit::Tag("generate".into())).unwrap();
    assert_eq!(step_form(&text, 2).unwrap().1[0].shown, Shown::Tagged("generate".into(), "-voice-".into()), "a tag keeps its text");
    text = edited(&text, Part::Step(2), "naming", Edit::TagText("-".into())).unwrap();
    text = edited(&text, Part::Step(2), "label", Edit::Text("app".into())).unwrap();
    text = edited(&text, Part::Step(2), "batches", Edit::Word("one_by_one".into())).unwrap();
    let run = blank.check(&text).run.unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(run.controller.recipe.as_ref().unwrap().ops.len(), 4);
    let stale = Report::run(&run);
    assert!(stale.peak_live["Pod"] > 3, "from the cache it over-creates: {:?}", stale.peak_live);
    assert!(!stale.invariants["children_within_desired"].held);
    // The count read live (which reads the owner live first, as the check says): never more than 3.
    let e = blank.check(&edited(&text, Part::Step(1), "from", Edit::Word("live".into())).unwrap()).run.unwrap_err();
    assert!(e.starts_with("controller.recipe.steps[1].count.from") && e.contains("live get_owner"), "{e}");
    let live = edited(&text, Part::Step(0), "from", Edit::Word("live".into())).unwrap();
    let live = edited(&live, Part::Step(1), "from", Edit::Word("live".into())).unwrap();
    let fixed = Report::run(&blank.check(&live).run.unwrap());
    assert_eq!((fixed.peak_live["Pod"], fixed.live["Pod"]), (3, 3));
    assert!(fixed.invariants["children_within_desired"].held);
    // What the form cannot write is refused, naming the field and value.
    let e = edited(&text, Part::Step(1), "burst", Edit::Number("three".into())).unwrap_err();
    assert!(e.starts_with("controller.recipe.steps[1].count.burst") && e.contains("three"), "{e}");
    let e = edited(&text, Part::Step(1), "select", Edit::TagText("app".into())).unwrap_err();
    assert!(e.contains("steps[1].count.select"), "a bare word carries no text: {e}");
    // What JSON holds is written, and the check names what the rules refuse.
    let zero = edited(&text, Part::Step(1), "burst", Edit::Number("0".into())).unwrap();
    let e = blank.check(&zero).run.unwrap_err();
    assert!(e.starts_with("controller.recipe.steps[1].count.burst"), "{e}");
    // The recipe's own fields: expectations kept, by UID; left out again, as written before.
    let (name, own) = cachescope::view::editor::form(&text, Part::Recipe).unwrap();
    assert_eq!(name, "recipe");
    assert_eq!(own.iter().find(|v| v.field.field == "expectations").unwrap().shown, Shown::Choice(String::new()), "left out");
    let kept = edited(&text, Part::Recipe, "expectations", Edit::Word("true".into())).unwrap();
    let kept = edited(&kept, Part::Recipe, "expectations_keyed_by", Edit::Word("uid".into())).unwrap();
    let r = blank.check(&kept).run.unwrap();
    let r = r.controller.recipe.as_ref().unwrap();
    assert!(r.expectations && r.expectations_keyed_by == cachescope::sim::recipe::KeyedBy::Uid);
    let v: Value = serde_json::from_str(&edited(&kept, Part::Recipe, "expectations", Edit::Word(String::new())).unwrap()).unwrap();
    assert!(v.get("expectations").is_none());
    let e = blank.check(&edited(&text, Part::Recipe, "owner", Edit::Text("Ensemble".into())).unwrap()).run.unwrap_err();
    assert!(e.starts_with("controller.recipe"), "another owner than its controller's is named: {e}");
}

/// `cachescope trace` says, for each frame that lights a line of the
/// Reconcile panel, which line, its code and the value it shows: a recipe's
/// count of the cache is its own line, with the cache's and the cluster's
/// figures; a frame that is no step of a reconcile lights none.
#[test]
fn the_trace_says_which_line_the_reconcile_panel_lights_and_what_it_read() {
    use cachescope::report::trace_line_drawn;
    use cachescope::sim::world::World;
    let s = preset("kuberay-random-delete").unwrap();
    let lines = code(&s);
    let mut world = World::new(s.world_init());
    let mut seen = Vec::new();
    while let Some(frame) = world.step() {
        seen.push(serde_json::from_str::<Value>(&trace_line_drawn(&frame, &world)).unwrap());
    }
    assert!(seen[0]["lit"].is_null(), "the controller starting is no step of a reconcile: {}", seen[0]);
    let count = seen.iter().find(|f| f["kind"] == "reconcile").expect("a reconcile counts");
    assert_eq!(count["lit"]["line"], 2, "get_owner is line 1, the count line 2");
    assert_eq!(count["lit"]["code"], lines[2].as_str());
    assert!(count["lit"]["value"].as_str().unwrap().starts_with("len(children) = 0 · the cache has 0"), "{count}");
    let finished = seen.iter().find(|f| f["kind"] == "reconcile_finished").unwrap();
    assert_eq!(finished["lit"]["line"], lines.len() - 1, "a reconcile ends on its return");
}

/// A draft that changes only its recipe is that change as settings: a
/// field's new value by its path, or, where a step was added, the steps
/// whole; a lesson's `set` waits for it. The guard the KubeRay lesson asks
/// for is made as a learner makes it: added before the return, moved up to
/// step 2, each stage a valid recipe, so the move buttons stay enabled.
#[test]
fn a_draft_that_changes_only_its_recipe_is_that_change_as_settings() {
    use cachescope::view::editor::{added, edited, recipe_edits, step_form, Edit, Part};
    let current = preset("nfd-labels-stripped").unwrap();
    let draft = Draft::begin(Start::Current, &current).unwrap();
    let same = draft.check(&draft.text).run.unwrap();
    assert_eq!(recipe_edits(&current, &same), Some(vec![]), "unchanged: no edit");
    let fixed = edited(&draft.text, Part::Step(2), "remove", Edit::Word("on_observed_delete".into())).unwrap();
    let edits = recipe_edits(&current, &draft.check(&fixed).run.unwrap()).unwrap();
    assert_eq!(edits, [("controller.recipe.steps[2].label_owner.remove".to_string(), "on_observed_delete".to_string())]);
    let step = current.lesson.iter().find(|s| !s.set.is_empty()).expect("the lesson's fix");
    let session = |s: &cachescope::scenario::Scenario| cachescope::view::session::Session::new(s.clone());
    assert_eq!(cachescope::view::lesson::settings_missing(step, &session(&current)).len(), 1, "the step waits");
    let made = current.with_settings(edits.iter().map(|(p, v)| (p.as_str(), v.as_str()))).unwrap();
    assert!(
        cachescope::view::lesson::settings_missing(step, &session(&made)).is_empty(),
        "the change made in the editor is the one it waits for"
    );

    // KubeRay: a check_expectations step added goes where it can act, before the count (step 2);
    // before the return, where the worked example's `added` puts it, it is refused naming why.
    let current = preset("kuberay-random-delete").unwrap();
    let draft = Draft::begin(Start::Current, &current).unwrap();
    let e = draft.check(&added(&draft.text, "check_expectations").unwrap()).run.unwrap_err();
    assert!(e.contains("before the `count`"), "{e}");
    let text = draft.add(&draft.text, "check_expectations").unwrap();
    assert_eq!(step_form(&text, 1).unwrap().0, "check_expectations");
    let guarded = draft.check(&text).run.unwrap();
    assert!(guarded.controller.recipe.as_ref().unwrap().expectations, "a check step keeps them: the draft leaves `expectations` out");
    let edits = recipe_edits(&current, &guarded).unwrap();
    let paths: Vec<&str> = edits.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["controller.recipe.expectations", "controller.recipe.steps"]);
    let step = current.lesson.iter().find(|s| !s.set.is_empty()).expect("the lesson's fix");
    let made = current.with_settings(edits.iter().map(|(p, v)| (p.as_str(), v.as_str()))).unwrap();
    assert!(cachescope::view::lesson::settings_missing(step, &session(&made)).is_empty());
    assert_eq!(Report::run(&made).trace_hash, Report::run(&guarded).trace_hash);
    // The lesson's answers, measured on the page's run once the fix is made, are the lesson's own:
    // its recipe goes back to the lab's whole (expectations alone would be refused beside the guard).
    let page = cachescope::view::session::Session::new(current.clone()).rebuilt(made.clone());
    let lab = cachescope::view::lesson::lesson_scenario(&page);
    let outcomes =
        |s| cachescope::scenario::lesson::play(s).unwrap().into_iter().map(|o| (o.ask_frame, o.frame, o.answer)).collect::<Vec<_>>();
    assert_eq!(outcomes(&lab), outcomes(&current));
    // Another preset's start is more than a change of the recipe.
    let other = Draft::begin(Start::Preset("eck-random-names"), &current).unwrap();
    assert_eq!(recipe_edits(&current, &other.check(&other.text).run.unwrap()), None);
}

/// The scenario's own invariants are edited beside the recipe: shown as
/// written (OpenSearch's quorum), added (at most N of the owner's
/// children), renamed, bounded, given another rule, removed; a bound that
/// is no number is refused naming the field, and the run judges the recipe
/// by the invariant as it was written.
#[test]
fn invariants_are_edited_beside_the_recipe_and_judge_its_run() {
    use cachescope::scenario::Scenario;
    use cachescope::view::editor::InvariantField;
    let quorum = Draft::begin(Start::Current, &preset("opensearch-quorum").unwrap()).unwrap();
    let shown = quorum.invariants();
    assert_eq!((shown.len(), shown[0].name.as_str(), shown[0].rule.as_str()), (1, "quorum", "at_least"));
    assert_eq!(
        shown[0].fields.iter().map(|(f, v)| (f.field, v.as_str())).collect::<Vec<_>>(),
        [("count", "2"), ("owner", "OpenSearchCluster")]
    );

    let current = Scenario::from_value(serde_json::json!({
        "name": "mine", "until_ms": 20000, "cluster": {"watch_lag_ms": 1000},
        "controller": {"kind": "replicaset", "expectations": false},
        "objects": [{"kind": "ReplicaSet", "name": "web", "replicas": 3}]
    }))
    .unwrap();
    let mut draft = Draft::begin(Start::Current, &current).unwrap();
    assert!(draft.invariants().is_empty());
    draft.add_invariant();
    assert_eq!(draft.invariants()[0].name, "mine-1");
    draft.edit_invariant(0, InvariantField::Name, "at-most-three").unwrap();
    draft.edit_invariant(0, InvariantField::Of("count"), "3").unwrap();
    let e = draft.edit_invariant(0, InvariantField::Of("count"), "three").unwrap_err();
    assert!(e.starts_with("invariants[0].at_most.count") && e.contains("three"), "{e}");
    // The built-in ReplicaSet controller without expectations, over a lagging watch: its own bound breaks too.
    let run = draft.check(&draft.text).run.unwrap();
    let report = Report::run(&run);
    assert_eq!(report.invariants["at-most-three"].held, report.invariants["children_within_desired"].held);
    draft.edit_invariant(0, InvariantField::Of("count"), "100").unwrap();
    assert!(Report::run(&draft.check(&draft.text).run.unwrap()).invariants["at-most-three"].held, "a looser bound holds");
    // Another rule starts from the owner kind and the run's end.
    draft.edit_invariant(0, InvariantField::Rule, "eventually").unwrap();
    let v = &draft.invariants()[0];
    assert_eq!(v.fields.iter().map(|(f, v)| (f.field, v.as_str())).collect::<Vec<_>>(), [("converged", "ReplicaSet"), ("by_ms", "20000")]);
    draft.check(&draft.text).run.unwrap();
    // A name the scenario refuses is named by the check.
    draft.edit_invariant(0, InvariantField::Name, "Not A Name").unwrap();
    let e = draft.check(&draft.text).run.unwrap_err();
    assert!(e.starts_with("invariants[0].name"), "{e}");
    draft.remove_invariant(0);
    assert!(draft.invariants().is_empty());
    draft.check(&draft.text).run.unwrap();
}

/// What a review found, held: two steps swapped are a change of the recipe
/// made together (each alone would hold two deletes); a lesson's fix whose
/// step has moved away is not had; Add puts a step into an empty list; a
/// new invariant takes a name no other has; an optional text left empty is
/// left out.
#[test]
fn swaps_moved_fixes_empty_lists_and_names_left_out() {
    use cachescope::view::editor::{edited, moved, recipe_edits, Edit, Move, Part};
    let current = preset("kuberay-random-delete").unwrap();
    let draft = Draft::begin(Start::Current, &current).unwrap();
    let swapped = moved(&draft.text, 2, Move::Down).unwrap();
    let run = draft.check(&swapped).run.unwrap();
    let edits = recipe_edits(&current, &run).expect("a swap is a change of the recipe");
    assert_eq!(edits.len(), 2, "{edits:?}");
    // Alone, the first leaves two deletes: with_settings checks the recipe's fields together.
    let (first, value) = &edits[0];
    assert!(current.with_settings([(first.as_str(), value.as_str())]).is_err(), "the first alone leaves two deletes");
    let made = current.with_settings(edits.iter().map(|(p, v)| (p.as_str(), v.as_str()))).unwrap();
    assert_eq!(Report::run(&made).trace_hash, Report::run(&run).trace_hash);

    // nfd: the label step moved away from step 3, the fix's path names another step's field.
    let nfd = preset("nfd-labels-stripped").unwrap();
    let step = nfd.lesson.iter().find(|s| !s.set.is_empty()).unwrap();
    let nd = Draft::begin(Start::Current, &nfd).unwrap();
    let mut away: Value = serde_json::from_str(&nd.text).unwrap();
    away["steps"].as_array_mut().unwrap().insert(2, serde_json::json!({"return_if": {"when": {"lt": ["found", 0]}}}));
    let s = nd.check(&away.to_string()).run.unwrap();
    let missing = cachescope::view::lesson::settings_missing(step, &cachescope::view::session::Session::new(s));
    assert_eq!(missing.len(), 1, "the step still waits: its path names no label step now");
    let mut steps: Value = serde_json::from_str(&nd.text).unwrap();
    steps["steps"] = serde_json::json!([]);
    let added = nd.add(&steps.to_string(), "return").unwrap();
    assert_eq!(cachescope::view::editor::steps_in(&added), Some(1));

    let mut d = Draft::begin(Start::Current, &preset("opensearch-quorum").unwrap()).unwrap();
    d.add_invariant();
    d.add_invariant();
    d.remove_invariant(1);
    d.add_invariant();
    let names: Vec<String> = d.invariants().into_iter().map(|v| v.name).collect();
    assert_eq!(names, ["quorum", "mine-2", "mine-1"]);
    d.check(&d.text).run.unwrap();
    let named = edited(&d.text, Part::Recipe, "name", Edit::Text(String::new())).unwrap();
    assert!(serde_json::from_str::<Value>(&named).unwrap().get("name").is_none(), "an optional name left empty is left out");
    d.check(&named).run.unwrap();
}

#[test]
fn a_declared_kind_and_its_owners_counts_are_edited_and_a_bad_value_is_named() {
    use cachescope::view::editor::KindField;
    let current = preset("kuberay-random-delete").unwrap();
    let mut draft = Draft::begin(Start::Current, &current).unwrap();
    let kinds = draft.kinds();
    assert_eq!(kinds.len(), 1);
    assert_eq!(kinds[0].name, "RayCluster");
    let value = |d: &Draft, f: KindField| d.kinds()[0].fields.iter().find(|(g, _)| *g == f).unwrap().1.clone();
    assert_eq!(value(&draft, KindField::Resource), "rayclusters.ray.io");
    assert_eq!(value(&draft, KindField::Desired), "workers");
    assert_eq!(value(&draft, KindField::ChildrenKind), "Pod");
    assert_eq!(value(&draft, KindField::ChildrenLabel), "ray.io/cluster");
    let owners = draft.owners();
    assert_eq!(owners.len(), 1);
    assert_eq!(
        (owners[0].at.as_str(), owners[0].name.as_str(), owners[0].field.as_str(), owners[0].count.as_str()),
        ("objects[0]", "raycluster", "spec.workers", "3")
    );

    // A count changed: the run wants 5 workers.
    draft.edit_count(0, "5").unwrap();
    let s = draft.check(&draft.text).run.unwrap();
    assert_eq!(s.objects[0].spec.get("workers"), Some(&5));
    // The desired field renamed: the owner's count follows it, and the run is the same.
    draft.edit_kind(0, KindField::Desired, "size").unwrap();
    assert_eq!(draft.owners()[0].field, "spec.size");
    let renamed = draft.check(&draft.text).run.unwrap();
    assert_eq!(renamed.objects[0].spec.get("size"), Some(&5));
    assert_eq!(Report::run(&renamed).trace_hash, Report::run(&s).trace_hash, "a field's name is not what the run does");

    // Refused, each naming the field at fault.
    let e = draft.edit_count(0, "three").expect_err("not a number");
    assert!(e.starts_with("objects[0].spec.size") && e.contains("three"), "{e}");
    draft.edit_kind(0, KindField::ChildrenLabel, "ray io").unwrap();
    let e = draft.check(&draft.text).run.expect_err("a label with a space");
    assert!(e.contains("kinds[0].children.label"), "{e}");
    draft.edit_kind(0, KindField::ChildrenLabel, "ray.io/cluster").unwrap();
    draft.edit_kind(0, KindField::Resource, "").unwrap();
    assert!(draft.check(&draft.text).run.is_ok(), "a resource left out is derived from the name");
}

#[test]
fn a_built_in_owners_count_is_its_replicas_or_voices_whether_seeded_or_applied() {
    let replicaset = preset("replicaset-pressure").unwrap();
    let draft = Draft::begin(Start::Current, &replicaset).unwrap();
    assert!(draft.kinds().is_empty(), "no kind of its own");
    let owners = draft.owners();
    assert!(!owners.is_empty() && owners.iter().all(|o| o.kind == "ReplicaSet" && o.field == "replicas"), "{owners:?}");
    let current = preset("over-create").unwrap();
    let mut draft = Draft::begin(Start::Current, &current).unwrap();
    let owners = draft.owners();
    assert_eq!(owners.len(), 1, "{owners:?}");
    assert_eq!((owners[0].at.as_str(), owners[0].field.as_str(), owners[0].count.as_str()), ("actions[0].apply", "voices", "4"));
    draft.edit_count(0, "2").unwrap();
    let s = draft.check(&draft.text).run.unwrap();
    assert_eq!(Report::run(&current).live.get("ConfigMap"), Some(&4));
    assert_eq!(Report::run(&s).live.get("ConfigMap"), Some(&2), "deterministic names: the 2 it wants, however often it counts");
}
