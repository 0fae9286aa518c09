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
    assert!(cachescope::view::editor::step_names().contains(&"for_each"));
    assert_eq!(cachescope::view::editor::steps_in(&with_create), Some(4), "an invalid recipe's steps, counted");
    assert_eq!(cachescope::view::editor::steps_in("[1]"), None);
}
