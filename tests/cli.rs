//! The command-line runner, as an author uses it: output shapes, and bad input
//! answered with exit code 2 and one message naming the field and the value.
#![cfg(not(target_arch = "wasm32"))]

use std::process::{Command, Output};

fn cachescope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cachescope")).args(args).output().expect("the runner starts")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn bad(args: &[&str]) -> String {
    let o = cachescope(args);
    assert_eq!(o.status.code(), Some(2), "{args:?} should exit 2; stderr: {}", stderr(&o));
    assert!(o.stdout.is_empty(), "nothing on stdout for bad input");
    let e = stderr(&o);
    assert!(!e.contains("panicked"), "{e}");
    assert_eq!(e.trim().lines().count(), 1, "one message: {e}");
    e
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cachescope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn run_prints_one_json_object_with_every_field() {
    let o = cachescope(&["run", "over-create"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.trim().lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "api",
            "expectations",
            "frames",
            "invariants",
            "lesson",
            "live",
            "metrics",
            "peak_live",
            "scenario",
            "seed",
            "sim_time_ms",
            "trace_hash"
        ]
    );
    let m = &v["metrics"]["ensemble-controller"];
    assert!(m["reconciles"].as_u64().unwrap() >= 3, "{m}");
    assert_eq!(m["stale_sync_skips"], 0, "the consistency store is off in the lab presets");
    assert!(m["requeues"].as_u64().unwrap() >= 1, "a failed create requeues: {m}");
    assert_eq!(v["scenario"], "over-create");
    assert_eq!(v["live"]["ConfigMap"], 4);
    assert!(v["api"]["create"]["409"].as_u64().unwrap() >= 1);
    assert_eq!(v["invariants"]["children_within_desired"], serde_json::json!({"held": true, "first_broken_frame": null}));
    assert_eq!(v["trace_hash"].as_str().unwrap().len(), 16);
    // The preset's checks for deterministic names, each with what it measured.
    let first = &v["expectations"][0];
    assert_eq!(
        first,
        &serde_json::json!({"text": "exactly 4 ConfigMaps, as the lab expects", "expected": "4", "measured": 4, "held": true})
    );
    assert_eq!(v["expectations"].as_array().unwrap().len(), 3, "only the checks for these settings: {}", v["expectations"]);
}

#[test]
fn check_passes_every_preset_and_fails_a_check_the_run_breaks() {
    let mut args = vec!["check"];
    args.extend(cachescope::scenario::preset_names());
    let all = cachescope(&args);
    let out = String::from_utf8(all.stdout).unwrap();
    assert_eq!(all.status.code(), Some(0), "{out}");
    assert!(out.lines().last().unwrap().ends_with("held, 0 failed"), "{out}");
    assert!(!out.contains('✗'), "{out}");
    // At a watch lag of 0 the generateName run makes no duplicates, so the lab's figure fails.
    let lag0 = cachescope(&["check", "over-create", "--set", "controller.naming=generate", "--set", "cluster.watch_lag_ms=0"]);
    let out = String::from_utf8(lag0.stdout).unwrap();
    assert_eq!(lag0.status.code(), Some(1), "{out}");
    assert!(out.contains("✗ over-create: with GenerateName, 11 ConfigMaps that nothing cleans up (expected 11, measured 4)"), "{out}");
    // A scenario file's own checks, and a bad check named by its field.
    let file = temp_file(
        "checked.json",
        r#"{"name": "mine", "controller": {"kind": "ensemble"}, "until_ms": 20000,
            "actions": [{"at_ms": 0, "apply": {"kind": "Ensemble", "name": "a", "voices": 3}}],
            "expect": [{"text": "three voices", "measure": "live", "kind": "ConfigMap", "equals": 3}]}"#,
    );
    let o = cachescope(&["check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    let broken = temp_file(
        "broken-check.json",
        r#"{"name": "mine", "controller": {"kind": "ensemble"}, "expect": [{"text": "x", "measure": "live", "equals": 3}]}"#,
    );
    let e = bad(&["check", broken.to_str().unwrap()]);
    assert!(e.contains("expect[0].kind: measure live needs kind"), "{e}");
    let unknown = temp_file(
        "unknown-when.json",
        r#"{"name": "mine", "controller": {"kind": "ensemble"}, "expect": [{"text": "x", "measure": "errors", "equals": 0, "when": {"controller.nameing": "generate"}}]}"#,
    );
    let e = bad(&["check", unknown.to_str().unwrap()]);
    assert!(e.contains("expect[0].when") && e.contains("controller.nameing"), "{e}");
}

/// A lesson on three voices: the first reconcile's cache read, then the end.
fn lesson_file(name: &str, reveal: &str, at: &str) -> std::path::PathBuf {
    let doc = serde_json::json!({
        "name": "mine", "controller": {"kind": "ensemble", "double_enqueue": true}, "until_ms": 20000,
        "cluster": {"watch_lag_ms": 2000},
        "actions": [{"at_ms": 0, "apply": {"kind": "Ensemble", "name": "a", "voices": 3}}],
        "lesson": [
            {"at": {"reconcile": {"n": 2, "step": "list_children"}}, "ask": "How many does reconcile 2 see?",
             "answer": {"measure": "cached", "kind": "ConfigMap"}, "figures": {"live": {"measure": "live", "kind": "ConfigMap"}},
             "reveal": reveal, "write": "reconcile 2's count"},
            {"at": serde_json::from_str::<serde_json::Value>(at).unwrap(), "ask": "How many at the end?",
             "answer": {"measure": "live", "kind": "ConfigMap"}, "reveal": "{answer}."},
        ],
    });
    temp_file(name, &doc.to_string())
}

#[test]
fn lessons_are_checked_against_the_run_and_reported() {
    // Every preset's lesson holds.
    let mut args = vec!["check"];
    args.extend(cachescope::scenario::preset_names());
    let out = String::from_utf8(cachescope(&args).stdout).unwrap();
    assert!(out.contains("✓ over-create: lesson step 3 of 4, asked at frame 0, answered at frame 66: 11"), "{out}");
    // A lesson whose figures are the run's: each step's frame, answer and filled-in reveal.
    let good = lesson_file("lesson.json", "It sees {answer} of the {live} there are; 3 voices.", r#"{"end": true}"#);
    let o = cachescope(&["check", good.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("✓ mine: lesson step 1 of 2, asked at frame 0, answered at frame "), "{out}");
    assert!(out.contains("✓ mine: lesson step 2 of 2, asked at frame "), "{out}");
    let run: serde_json::Value = serde_json::from_slice(&cachescope(&["run", good.to_str().unwrap()]).stdout).unwrap();
    assert_eq!(run["lesson"][0]["answer"], 0, "{run}");
    assert_eq!(run["lesson"][0]["figures"]["live"], 3, "{run}");
    assert_eq!(run["lesson"][0]["reveal"], "It sees 0 of the 3 there are; 3 voices.");
    assert_eq!(run["lesson"][1]["answer"], 3);
    assert_eq!(run["lesson"][1]["frame"], run["frames"], "the end is the last frame");
    assert!(run["lesson"][0]["frame"].as_u64().unwrap() < run["frames"].as_u64().unwrap());
    // A reveal stating a figure the run contradicts: exit 1, naming the step.
    let wrong = lesson_file("wrong.json", "It sees 13 of them.", r#"{"end": true}"#);
    let o = cachescope(&["check", wrong.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("✗ mine: lesson[0]: the reveal states 13, which the run does not give: the answer is 0, live is 3"), "{out}");
    let run: serde_json::Value = serde_json::from_slice(&cachescope(&["run", wrong.to_str().unwrap()]).stdout).unwrap();
    assert!(run["lesson_error"].as_str().unwrap().starts_with("lesson[0]: the reveal states 13"), "{run}");
    // A step the run never reaches: exit 1, naming it.
    let never = lesson_file("never.json", "{answer}", r#"{"broken": "no_orphans"}"#);
    let out = String::from_utf8(cachescope(&["check", never.to_str().unwrap()]).stdout).unwrap();
    assert!(out.contains("✗ mine: lesson[1]: the run ("), "{out}");
    // Malformed: exit 2, naming the field.
    let e = bad(&["check", lesson_file("bad-at.json", "{answer}", r#"{"soon": true}"#).to_str().unwrap()]);
    assert!(e.contains("lesson[1].at") && e.contains("soon"), "{e}");
    let e = bad(&["check", lesson_file("two-at.json", "{answer}", r#"{"end": true, "time_ms": 5}"#).to_str().unwrap()]);
    assert!(e.contains("lesson[1].at: give exactly one of start, end,") && e.contains("2 given"), "{e}");
    let e = bad(&["check", lesson_file("bad-invariant.json", "{answer}", r#"{"broken": "nope"}"#).to_str().unwrap()]);
    assert!(e.contains("lesson[1].at.broken") && e.contains("\"nope\""), "{e}");
    let e = bad(&["check", lesson_file("bad-placeholder.json", "{creates}", r#"{"end": true}"#).to_str().unwrap()]);
    assert!(e.contains("lesson[0].reveal") && e.contains("{creates}"), "{e}");
}

/// A lesson on three voices with generated names, its steps given whole.
fn steps_file(name: &str, steps: serde_json::Value) -> std::path::PathBuf {
    let doc = serde_json::json!({
        "name": "mine", "controller": {"kind": "ensemble", "double_enqueue": true, "naming": "generate"}, "until_ms": 20000,
        "cluster": {"watch_lag_ms": 2000},
        "actions": [{"at_ms": 0, "apply": {"kind": "Ensemble", "name": "a", "voices": 3}}],
        "lesson": steps,
    });
    temp_file(name, &doc.to_string())
}

#[test]
fn a_question_is_asked_before_the_screen_answers_it() {
    let at_end = serde_json::json!({"at": {"end": true}, "ask": "How many at the end?", "answer": {"measure": "live", "kind": "ConfigMap"}, "reveal": "{answer}."});
    let creates_of_2 = serde_json::json!({"measure": "requests", "verb": "create", "status": 201});
    // Asked where it is answered (the step before ends the run): the panels
    // and the end summary show the answer while the question is open.
    let same = steps_file("same-frame.json", serde_json::json!([at_end.clone(), at_end.clone()]));
    let o = cachescope(&["check", same.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("✗ mine: lesson[1]: at picks frame ") && out.contains("not after the frame it is asked at"), "{out}");
    // The same question asked back at the moment it is about holds.
    let back = steps_file(
        "ask-at.json",
        serde_json::json!([at_end.clone(), {
            "ask_at": {"reconcile": {"n": 2}}, "at": {"reconcile": {"n": 2, "step": "return"}},
            "ask": "Back to reconcile 2: how many creates will have been answered 201 when it returns?",
            "answer": creates_of_2, "reveal": "{answer}."
        }]),
    );
    let o = cachescope(&["check", back.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    let run: serde_json::Value = serde_json::from_slice(&cachescope(&["run", back.to_str().unwrap()]).stdout).unwrap();
    let (ask, at) = (run["lesson"][1]["ask_frame"].as_u64().unwrap(), run["lesson"][1]["frame"].as_u64().unwrap());
    assert!(ask < at && at < run["lesson"][0]["frame"].as_u64().unwrap(), "it goes back: {run}");
    assert_eq!(run["lesson"][1]["answer"], 6, "reconcile 1's 3 and reconcile 2's 3");
    // Asked where the caption states the answer to come: reconcile 2's read
    // says "It creates 3: the cluster will hold 6", and the question is the 6.
    let told = steps_file(
        "told.json",
        serde_json::json!([{
            "ask_at": {"reconcile": {"n": 2, "step": "list_children"}}, "at": {"reconcile": {"n": 2, "step": "return"}},
            "ask": "How many ConfigMaps will the cluster hold when reconcile 2 returns?",
            "answer": {"measure": "live", "kind": "ConfigMap"}, "reveal": "{answer}."
        }]),
    );
    let o = cachescope(&["check", told.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(
            "✗ mine: lesson[0]: while the question is open, the caption already states the answer, 6: \"Reconcile 2 reads the cache"
        ),
        "{out}"
    );
    let run: serde_json::Value = serde_json::from_slice(&cachescope(&["run", told.to_str().unwrap()]).stdout).unwrap();
    assert!(run["lesson_error"].as_str().unwrap().contains("the caption already states the answer, 6"), "{run}");
    // Answered at frame 0, which no question comes before: refused as written.
    let e = bad(&[
        "check",
        steps_file("at-start.json", serde_json::json!([{"at": {"start": true}, "ask": "?", "answer": creates_of_2, "reveal": "{answer}"}]))
            .to_str()
            .unwrap(),
    ]);
    assert!(e.contains("lesson[0].at") && e.contains("a step answers after it asks"), "{e}");
    // Asked at the run's end: refused as written, naming the field.
    let e = bad(&[
        "check",
        steps_file(
            "ask-at-end.json",
            serde_json::json!([{"ask_at": {"end": true}, "at": {"end": true}, "ask": "?", "answer": creates_of_2, "reveal": "{answer}"}]),
        )
        .to_str()
        .unwrap(),
    ]);
    assert!(e.contains("lesson[0].ask_at") && e.contains("ask it before the moment it is about"), "{e}");
}

#[test]
fn a_lessons_lists_and_texts_have_limits() {
    let step = |extra: serde_json::Value| {
        let mut s = serde_json::json!({"at": {"end": true}, "ask": "How many?", "answer": {"measure": "live", "kind": "ConfigMap"}, "reveal": "{answer}."});
        s.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        serde_json::json!([s])
    };
    let choices: Vec<serde_json::Value> = (0..9).map(|i| serde_json::json!({"text": format!("choice {i}"), "equals": i})).collect();
    let e = bad(&["check", steps_file("many-choices.json", step(serde_json::json!({"choices": choices}))).to_str().unwrap()]);
    assert!(e.contains("lesson[0].choices") && e.contains("9 entries; at most 8"), "{e}");
    let figures: serde_json::Map<String, serde_json::Value> =
        (0..17).map(|i| (format!("f{}", "x".repeat(i + 1)), serde_json::json!({"measure": "errors"}))).collect();
    let e = bad(&["check", steps_file("many-figures.json", step(serde_json::json!({"figures": figures}))).to_str().unwrap()]);
    assert!(e.contains("lesson[0].figures") && e.contains("17 entries; at most 16"), "{e}");
    let table = serde_json::json!({"columns": ["x".repeat(121), "b"], "rows": [["1", "2"]]});
    let e = bad(&["check", steps_file("wide-heading.json", step(serde_json::json!({"table": table}))).to_str().unwrap()]);
    assert!(e.contains("lesson[0].table.columns[0]") && e.contains("121 characters; at most 120"), "{e}");
    let e = bad(&["check", steps_file("long-prompt.json", step(serde_json::json!({"prompt": "y".repeat(301)}))).to_str().unwrap()]);
    assert!(e.contains("lesson[0].prompt") && e.contains("301 characters; at most 300"), "{e}");
}

#[test]
fn compare_prints_both_runs_and_where_their_audit_logs_part() {
    let o = cachescope(&["compare", "over-create", "--vs", "controller.naming=generate"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((&v["a"]["live"]["ConfigMap"], &v["b"]["live"]["ConfigMap"]), (&serde_json::json!(4), &serde_json::json!(11)));
    assert_eq!(v["vs"], serde_json::json!({"controller.naming": "generate"}));
    let d = &v["first_divergence"];
    assert_eq!((&d["a"]["status"]["code"], &d["b"]["status"]["code"]), (&serde_json::json!(409), &serde_json::json!(201)), "{d}");
    assert_eq!(d["frame_a"], d["frame_b"]);
    // The same run twice does not part.
    let same: serde_json::Value =
        serde_json::from_slice(&cachescope(&["compare", "over-create", "--vs", "controller.naming=deterministic"]).stdout).unwrap();
    assert_eq!(same["first_divergence"], serde_json::Value::Null);
    assert_eq!(same["a"]["trace_hash"], same["b"]["trace_hash"]);
    // Bad input names the field.
    let e = bad(&["compare", "over-create", "--vs", "controller.naming=sometimes"]);
    assert!(e.contains("controller.naming") && e.contains("sometimes"), "{e}");
    let e = bad(&["compare", "over-create", "--vs", "naming"]);
    assert!(e.contains("--vs") && e.contains("PATH=VALUE"), "{e}");
}

#[test]
fn set_and_seed_change_the_run() {
    let o = cachescope(&["run", "over-create", "--set", "controller.naming=generate", "--set", "cluster.watch_lag_ms=2000", "--seed", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["seed"], 5);
    assert!(v["live"]["ConfigMap"].as_u64().unwrap() >= 8);
}

#[test]
fn a_scenario_file_runs_like_a_preset() {
    let p = temp_file("mine.json", include_str!("../scenarios/empty-cache.json"));
    let o = cachescope(&["run", p.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["live"]["ConfigMap"], 0, "the pruner deleted all 50");
    assert_eq!(v["api"]["delete"]["200"], 50);
}

#[test]
fn trace_prints_one_json_line_per_frame() {
    let o = cachescope(&["trace", "read-your-write"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let run: serde_json::Value = serde_json::from_slice(&cachescope(&["run", "read-your-write"]).stdout).unwrap();
    assert_eq!(lines.len() as u64, run["frames"].as_u64().unwrap());
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["n"], i as u64 + 1);
        assert!(l["at_ms"].is_u64() && l["kind"].is_string() && l["touched"].is_array());
        assert!(l["caption"].as_str().unwrap().ends_with('.'), "{l}");
    }
    assert!(lines.iter().any(|l| l["caption"].as_str().unwrap().contains("409 AlreadyExists, configmaps \"seed-99\" already exists")));
}

#[test]
fn presets_lists_every_preset_with_a_line() {
    let o = cachescope(&["presets"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let names = cachescope::scenario::preset_names();
    assert_eq!(text.lines().count(), names.len());
    assert!(names.len() >= 9, "the labs' seven and v1.36's two");
    for name in names {
        assert!(text.lines().any(|l| l.starts_with(name) && l.len() > name.len() + 10), "{name} in {text}");
    }
}

#[test]
fn the_docs_list_every_setting_as_its_declaration_says() {
    let o = cachescope(&["settings"]);
    assert!(o.status.success());
    let generated = String::from_utf8(o.stdout).unwrap();
    let docs = include_str!("../docs/scenarios.md");
    let begin =
        docs.find("<!-- settings:begin -->\n").expect("docs/scenarios.md has the settings tables") + "<!-- settings:begin -->\n".len();
    let end = docs.find("<!-- settings:end -->").unwrap();
    assert_eq!(&docs[begin..end], generated, "run `cargo run -q -- settings` and paste it between the markers");
    for path in ["watch_lag_ms", "client_qps", "list_order", "burst_replicas"] {
        assert!(generated.contains(&format!("| `{path}` |")), "{path}");
    }
}

#[test]
fn the_docs_say_how_the_simulation_differs_from_a_cluster_as_the_help_does() {
    let docs = include_str!("../docs/scenarios.md");
    for s in cachescope::narrate::simplifications::SIMPLIFICATIONS {
        assert!(docs.contains(&format!("- {}\n", s.text)), "docs/scenarios.md lists: {}", s.text);
    }
}

#[test]
fn the_docs_table_of_presets_has_a_row_for_each_preset() {
    let docs = include_str!("../docs/scenarios.md");
    let table = &docs[docs.find("## The presets").expect("docs/scenarios.md has a presets section")..];
    for name in cachescope::scenario::preset_names() {
        assert!(table.contains(&format!("\n| `{name}` |")), "docs/scenarios.md's presets table lists {name}");
    }
}

#[test]
fn the_committed_schema_is_the_generated_one() {
    let o = cachescope(&["schema"]);
    assert!(o.status.success());
    let committed = include_str!("../docs/scenario.schema.json");
    assert_eq!(String::from_utf8(o.stdout).unwrap().trim(), committed.trim(), "run `cargo run -q -- schema > docs/scenario.schema.json`");
    // The settings' limits are in it, from their one declaration.
    let schema: serde_json::Value = serde_json::from_str(committed).unwrap();
    assert_eq!(schema["properties"]["until_ms"]["minimum"], 1);
    assert_eq!(schema["$defs"]["ClusterSection"]["properties"]["watch_lag_ms"]["maximum"], 600_000);
    assert_eq!(schema["$defs"]["ControllerSection"]["properties"]["workers"]["minimum"], 1);
    assert_eq!(schema["$defs"]["ObjectSpec"]["properties"]["voices"]["maximum"], 1_000);
}

#[test]
fn unknown_preset_names_it_and_lists_the_choices() {
    let e = bad(&["run", "over-creat"]);
    assert!(e.contains("\"over-creat\"") && e.contains("over-create, over-create-surplus"), "{e}");
}

#[test]
fn malformed_json_gives_line_and_column() {
    let p = temp_file("broken.json", "{\n  \"name\": \"x\",\n  \"controller\": {\"kind\": \"ensemble\",}\n}\n");
    let e = bad(&["run", p.to_str().unwrap()]);
    assert!(e.contains("line 3"), "{e}");
    assert!(e.contains("column"), "{e}");
}

#[test]
fn unknown_field_in_a_file_is_named() {
    let p = temp_file("unknown.json", r#"{"name": "x", "controller": {"kind": "ensemble", "nameing": "generate"}}"#);
    let e = bad(&["run", p.to_str().unwrap()]);
    assert!(e.contains("controller") && e.contains("nameing"), "{e}");
}

#[test]
fn wrong_variant_names_the_field_and_the_value() {
    let e = bad(&["run", "over-create", "--set", "controller.naming=gen"]);
    assert!(e.contains("controller.naming") && e.contains("gen"), "{e}");
}

#[test]
fn wrong_type_names_the_field_and_the_value() {
    let e = bad(&["run", "over-create", "--set", "cluster.watch_lag_ms=slow"]);
    assert!(e.contains("cluster.watch_lag_ms") && e.contains("slow"), "{e}");
}

#[test]
fn out_of_range_names_the_field_and_the_value() {
    let e = bad(&["run", "over-create", "--set", "cluster.watch_lag_ms=9999999"]);
    assert!(e.contains("cluster.watch_lag_ms") && e.contains("9999999"), "{e}");
    let e = bad(&["run", "over-create", "--set", "controller.workers=0"]);
    assert!(e.contains("controller.workers") && e.contains('0'), "{e}");
}

#[test]
fn unknown_set_path_is_named() {
    let e = bad(&["run", "over-create", "--set", "cluster.lag=5"]);
    assert!(e.contains("cluster.lag") && e.contains("watch_lag_ms"), "{e}");
    let e = bad(&["run", "over-create", "--set", "controller.naming"]);
    assert!(e.contains("PATH=VALUE"), "{e}");
}

#[test]
fn cross_field_rules_are_named() {
    let e = bad(&["run", "over-create", "--set", "actions.0.apply.replicas=3"]);
    assert!(e.contains("actions[0].apply.replicas") && e.contains("Ensemble"), "{e}");
    let e = bad(&["run", "over-create", "--set", "actions.0.at_ms=999999"]);
    assert!(e.contains("actions[0].at_ms") && e.contains("999999"), "{e}");
}

#[test]
fn missing_file_and_bad_usage_exit_2() {
    bad(&["run", "/nonexistent/scenario.json"]);
    let o = cachescope(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn explore_exits_1_with_a_counterexample_0_when_clean_2_on_bad_input() {
    let out = std::env::temp_dir().join(format!("cachescope-cx-{}.json", std::process::id()));
    let o = cachescope(&[
        "explore",
        "over-create",
        "--set",
        "controller.naming=generate",
        "--set",
        "cluster.watch_lag_ms=0",
        "--invariant",
        "children_within_desired",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let frame = v["violation"]["frame"].as_u64().unwrap();
    assert_eq!(v["violation"]["deviations"], 1);
    // The counterexample replays to the same invariant at the same frame.
    let r = cachescope(&["run", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", stderr(&r));
    let rv: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(rv["invariants"]["children_within_desired"]["first_broken_frame"].as_u64(), Some(frame));
    std::fs::remove_file(&out).ok();
    // With the consistency store on: nothing within the bound.
    let o = cachescope(&["explore", "staleness-mitigation", "--set", "cluster.watch_lag_ms=0", "--invariant", "children_within_desired"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["violation"].is_null() && v["complete"] == true, "{v}");
    let o = cachescope(&["explore", "over-create", "--invariant", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--invariant"), "{}", stderr(&o));
}

/// `--exhaustive` searches without pruning by state, says so, and finds the
/// same shortest violation as the pruned search, after at least as many states.
#[test]
fn explore_exhaustive_finds_what_the_pruned_search_finds() {
    let args =
        ["explore", "over-create", "--set", "controller.naming=generate", "--set", "cluster.watch_lag_ms=0", "--max-deviations", "1"];
    let json = |o: &std::process::Output| serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap();
    let pruned = cachescope(&args);
    let exhaustive = cachescope(&[&args[..], &["--exhaustive"]].concat());
    assert_eq!((pruned.status.code(), exhaustive.status.code()), (Some(1), Some(1)), "{}", stderr(&exhaustive));
    let (p, e) = (json(&pruned), json(&exhaustive));
    assert_eq!((p["pruned"].as_bool(), e["pruned"].as_bool()), (Some(true), Some(false)));
    assert_eq!(p["violation"]["deviations"], 1);
    assert_eq!(e["violation"]["deviations"], p["violation"]["deviations"]);
    assert!(e["states"].as_u64() >= p["states"].as_u64(), "{e}\n{p}");
}

/// `controls` and `start` are checked like every other field: a name that is
/// neither a setting nor an action, a second listing, an action the
/// controller cannot take, a start line over its limit: one line on stderr
/// naming the field and the value, exit 2.
#[test]
fn bad_controls_and_start_lines_exit_2_naming_the_field_and_the_value() {
    let doc = |extra: &str| {
        format!(
            r#"{{"name": "mine", "controller": {{"kind": "ensemble"}}, "until_ms": 20000, {extra}
                "actions": [{{"at_ms": 0, "apply": {{"kind": "Ensemble", "name": "a", "voices": 3}}}}]}}"#
        )
    };
    let typo = temp_file("typo-controls.json", &doc(r#""controls": ["scale", "controller.nmaing"],"#));
    let e = bad(&["run", typo.to_str().unwrap()]);
    assert!(
        e.starts_with("cachescope: controls[1]: \"controller.nmaing\" is neither a setting nor an action; did you mean controller.naming?"),
        "{e}"
    );
    let twice = temp_file("twice-controls.json", &doc(r#""controls": ["scale", "controller.naming", "scale"],"#));
    assert!(bad(&["check", twice.to_str().unwrap()]).contains("controls[2]: \"scale\" is listed twice (first at controls[0])"));
    let pods = temp_file("pods-controls.json", &doc(r#""controls": ["delete_pod"],"#));
    assert!(bad(&["run", pods.to_str().unwrap()]).contains("controls[0]: \"delete_pod\": an ensemble has no pods to delete"));
    let long = temp_file("long-start.json", &doc(&format!(r#""start": "{}","#, "Press ▶. ".repeat(20))));
    assert!(bad(&["run", long.to_str().unwrap()]).contains("start: 180 characters; at most 160"));
    // From --set too, and a good one runs.
    let e = bad(&["run", "over-create", "--set", "controls=[\"restart\"]"]);
    assert!(e.contains("controls[0]: \"restart\" is neither a setting nor an action; did you mean restart_controller?"), "{e}");
    let ok = temp_file("good-controls.json", &doc(r#""start": "Press ▶.", "controls": ["scale", "controller.naming"],"#));
    assert_eq!(cachescope(&["run", ok.to_str().unwrap()]).status.code(), Some(0));
}

/// Each of explore's own arguments has a limit in the one table; over it, exit 2
/// naming the flag and the value, never a clamp (nor, with 200 `--late`
/// values, an abort out of memory as before).
#[test]
fn explore_refuses_arguments_over_their_limits_naming_the_flag() {
    let late: Vec<String> = (0..200).map(|i| (1_000 + i).to_string()).collect();
    let mut args = vec!["explore", "replicaset-pressure"];
    for l in &late {
        args.extend(["--late", l.as_str()]);
    }
    let e = bad(&args);
    assert!(e.contains("--late") && e.contains("200 values") && e.contains("at most 16"), "{e}");
    let e = bad(&["explore", "over-create", "--max-deviations", "9"]);
    assert!(e.contains("--max-deviations") && e.contains('9'), "{e}");
    let e = bad(&["explore", "over-create", "--max-deviations", "8", "--budget", "18446744073709551615"]);
    assert!(e.contains("--budget") && e.contains("18446744073709551615") && e.contains("10000000"), "{e}");
    let e = bad(&["explore", "over-create", "--budget", "0"]);
    assert!(e.contains("--budget"), "{e}");
    let e = bad(&["explore", "over-create", "--late", "0"]);
    assert!(e.contains("--late") && e.contains('0'), "{e}");
    let e = bad(&["explore", "over-create", "--late", "1000", "--late", "1000"]);
    assert!(e.contains("--late") && e.contains("twice"), "{e}");
    // At the limits, accepted.
    let sixteen: Vec<String> = (0..16).map(|i| (1_000 + i).to_string()).collect();
    let mut args = vec!["explore", "over-create", "--max-deviations", "1", "--budget", "20000"];
    for l in &sixteen {
        args.extend(["--late", l.as_str()]);
    }
    let o = cachescope(&args);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
}

/// `explore --out` then `run`: the counterexample of a scenario at its limits
/// is a scenario `run` accepts, breaking at the same frame.
fn counterexample_replays(name: &str, doc: serde_json::Value) -> serde_json::Value {
    let file = temp_file(&format!("{name}.json"), &doc.to_string());
    let out = file.with_file_name(format!("{name}-ce.json"));
    let o = cachescope(&["explore", file.to_str().unwrap(), "--invariant", "no_delete_of_uncached", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "a violation found: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let frame = v["violation"]["frame"].as_u64().unwrap();
    let r = cachescope(&["run", out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0), "run accepts the counterexample: {}", stderr(&r));
    let rv: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(rv["invariants"]["no_delete_of_uncached"]["first_broken_frame"].as_u64(), Some(frame));
    serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap()
}

fn empty_cache_at_lag_0() -> serde_json::Value {
    let mut v = cachescope::scenario::preset("absent-from-cache").unwrap().to_value();
    v["cluster"]["watch_lag_ms"] = 0.into();
    v
}

#[test]
fn a_counterexample_of_a_3900_character_description_stays_within_the_limit() {
    let mut v = empty_cache_at_lag_0();
    let words = "The pruner lists its cache and deletes what it does not know. ";
    v["description"] = words.repeat(3_900 / words.len() + 1).chars().take(3_900).collect::<String>().trim().into();
    let c = counterexample_replays("long-description", v);
    let d = c["description"].as_str().unwrap();
    assert!(d.chars().count() <= 4_000, "{} characters", d.chars().count());
    assert!(d.contains("Found by cachescope explore: no_delete_of_uncached breaks at frame"), "{d}");
    assert!(d.starts_with("The pruner lists its cache"), "the author's text comes first, shortened: {d}");
}

#[test]
fn a_counterexample_of_a_100_entry_schedule_stays_within_the_limit() {
    let mut v = empty_cache_at_lag_0();
    // A hundred entries for events this run never sends: they change nothing.
    v["schedule"] = (0..100).map(|i| serde_json::json!({"kind": "ConfigMap", "nth": 900_000 + i, "hold": true})).collect();
    let c = counterexample_replays("long-schedule", v);
    let schedule = c["schedule"].as_array().unwrap();
    assert!(schedule.len() <= 100, "{} entries", schedule.len());
    assert!(schedule.iter().any(|d| d["nth"].as_u64().unwrap() < 900_000), "the held-back event that breaks it is kept: {schedule:?}");
}

#[test]
fn a_schedule_entry_names_its_bad_field_and_value() {
    let with = |entry: serde_json::Value| {
        let mut v = cachescope::scenario::preset("replicaset-pressure").unwrap().to_value();
        v["schedule"] = serde_json::json!([entry]);
        cachescope::scenario::Scenario::from_value(v).unwrap_err()
    };
    // late_ms ranges 1-600,000: 0 is out of range, with hold or alone.
    for entry in [
        serde_json::json!({"kind": "Pod", "nth": 1, "late_ms": 0, "hold": true}),
        serde_json::json!({"kind": "Pod", "nth": 1, "late_ms": 0}),
    ] {
        let e = with(entry.clone());
        assert_eq!((e.field.as_str(), e.value.as_deref()), ("schedule[0].late_ms", Some("0")), "{entry}: {e}");
    }
    let e = with(serde_json::json!({"kind": "Pod", "nth": 1, "hold": true, "drop": true}));
    assert_eq!((e.field.as_str(), e.value.as_deref()), ("schedule[0]", Some("hold and drop")), "{e}");
    let e = with(serde_json::json!({"kind": "Pod", "nth": 1}));
    assert!(e.to_string().contains("none of them"), "{e}");
    // The controller's name once, and a worker in the singular.
    let mut v = cachescope::scenario::preset("over-create").unwrap().to_value();
    v["schedule"] = serde_json::json!([{"kind": "Pod", "nth": 1, "hold": true}]);
    let e = cachescope::scenario::Scenario::from_value(v.clone()).unwrap_err();
    assert!(e.to_string().contains("ensemble-controller does not watch Pod") && !e.to_string().contains("controller controller"), "{e}");
    v["schedule"] = serde_json::json!([]);
    v["controller"]["workers"] = 1.into();
    v["takes"] = serde_json::json!([{"take": 1, "worker": 3}]);
    let e = cachescope::scenario::Scenario::from_value(v).unwrap_err();
    assert!(e.to_string().contains("the controller has 1 worker, numbered 0"), "{e}");
}

/// controller-runtime's `Controller.Start` waits for every source's
/// `WaitForSync` before a worker runs (pkg/internal/controller/controller.go,
/// `startEventSourcesAndQueueLocked`): an operator written with it cannot
/// skip the wait. Refused with exit 2, naming both fields; a client-go
/// program may, whichever order the two settings come in.
#[test]
fn start_event_sources_and_queue_locked_waits_so_no_controller_runtime_operator_skips_wait_for_cache_sync() {
    let e = bad(&["run", "over-create", "--set", "controller.controller_runtime=0.24", "--set", "controller.wait_for_cache_sync=false"]);
    assert!(e.contains("controller.wait_for_cache_sync") && e.contains("controller.controller_runtime 0.24"), "{e}");
    let e = bad(&["run", "over-create", "--set", "controller.wait_for_cache_sync=false"]);
    assert!(
        e.contains("controller.wait_for_cache_sync") && e.contains("controller.runtime controller-runtime") && e.contains("false"),
        "{e}"
    );
    for order in [
        ["controller.runtime=client-go", "controller.wait_for_cache_sync=false"],
        ["controller.wait_for_cache_sync=false", "controller.runtime=client-go"],
    ] {
        let o = cachescope(&["run", "over-create", "--set", order[0], "--set", order[1]]);
        assert!(o.status.success(), "{order:?}: {}", stderr(&o));
    }
}
