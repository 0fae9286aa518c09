//! `cachescope export go`: every incident preset's export is `gofmt`-clean
//! and matches its golden file (`tests/golden/export/<preset>.go`; after a
//! change on purpose, `UPDATE_GOLDEN=1 cargo test --test export`, then
//! review the diff), and a change to one step of a recipe changes the export
//! where the replayed reconciles are written, and nowhere else.

use cachescope::export::go_test;
use cachescope::scenario::{preset, presets, Scenario};
use std::path::PathBuf;
use std::process::Command;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/export")
}

/// Every preset that reproduces a real incident, with its export.
fn incidents() -> Vec<(String, String)> {
    presets()
        .into_iter()
        .filter(|s| s.incident.is_some())
        .map(|s| {
            let text = go_test(&s, None).unwrap_or_else(|e| panic!("{}: {e}", s.name)).text;
            (s.name.clone(), text)
        })
        .collect()
}

#[test]
fn every_incident_exports_a_go_test_that_matches_its_golden_file() {
    let all = incidents();
    assert!(all.len() >= 15, "the incident presets: {}", all.len());
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    for (name, text) in &all {
        let path = golden_dir().join(format!("{name}.go"));
        if update {
            std::fs::write(&path, text).unwrap();
            continue;
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
        assert_eq!(text, &golden, "{name}: the export changed: if on purpose, UPDATE_GOLDEN=1 cargo test --test export");
        // It replays at least one reconcile and checks something.
        assert!(text.contains("\t\t{key: types.NamespacedName{"), "{name}");
        assert!(
            text.contains("run.atMost(")
                || text.contains("run.deletes(")
                || text.contains("run.hasLabel(")
                || text.contains("run.atLeastAfterDeletes(")
                || text.contains("run.converged("),
            "{name}: checks nothing"
        );
    }
}

/// `gofmt -l` lists nothing: each export is formatted as gofmt would write
/// it. gofmt is Debian's `golang-go`, which `scripts/setup.sh` installs.
#[test]
fn gofmt_lists_no_export() {
    let dir = std::env::temp_dir().join(format!("cachescope-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in incidents() {
        std::fs::write(dir.join(format!("{}.go", name.replace('-', "_"))), text).unwrap();
    }
    let out = Command::new("gofmt").arg("-l").arg(&dir).output().expect("gofmt runs: scripts/setup.sh installs it (Debian's golang-go)");
    assert!(out.status.success(), "gofmt: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "", "gofmt would rewrite these");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The block of the replayed reconciles, and the rest of the file.
fn split(text: &str) -> (String, String) {
    let start = text.find("\tsteps := []step{\n").expect("a steps block");
    let end = start + text[start..].find("\n\t}\n").expect("its end");
    (text[start..end].to_string(), format!("{}{}", &text[..start], &text[end..]))
}

#[test]
fn one_step_of_a_recipe_changed_changes_the_replayed_reconciles_only() {
    let s = preset("eck-random-names").unwrap();
    let mut doc = s.to_value();
    let steps = doc["controller"]["recipe"]["steps"].as_array_mut().unwrap();
    let count = steps.iter_mut().find(|st| st.get("count").is_some()).unwrap();
    count["count"]["burst"] = serde_json::json!(1);
    let changed = Scenario::from_json(&doc.to_string()).unwrap();
    // At the same frame, so only the recipe differs between the two runs.
    let frame = Some(14);
    let (before, after) = (go_test(&s, frame).unwrap().text, go_test(&changed, frame).unwrap().text);
    let ((steps_before, rest_before), (steps_after, rest_after)) = (split(&before), split(&after));
    assert_ne!(steps_before, steps_after, "creating one pod a reconcile (burst 1) changes what the later reconciles' caches held");
    let header = |t: &str| {
        t.lines().filter(|l| !l.starts_with("// No invariant broke") && !l.starts_with("// The run broke")).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(header(&rest_before), header(&rest_after), "nothing else in the file changes");
}

#[test]
fn a_frame_past_the_run_s_end_is_refused_naming_the_flag() {
    let s = preset("over-create-surplus").unwrap();
    let e = go_test(&s, Some(1_000_000)).unwrap_err();
    assert_eq!((e.field.as_str(), e.value.as_deref()), ("--frame", Some("1000000")));
    assert!(e.message.starts_with("the run ends at frame "), "{e}");
    let out = Command::new(env!("CARGO_BIN_EXE_cachescope"))
        .args(["export", "go", "over-create-surplus", "--frame", "1000000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--frame"), "{}", String::from_utf8_lossy(&out.stderr));
    let e = go_test(&s, Some(0)).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.value.as_deref(), e.message.as_str()),
        ("--frame", Some("0"), "no reconcile has started by then: there is nothing to replay")
    );
    let out = Command::new(env!("CARGO_BIN_EXE_cachescope")).args(["export", "rust", "over-create-surplus"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"rust\""), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The invariant the run broke is the one the test checks, with the
/// reconciles up to the frame that broke it.
#[test]
fn the_export_checks_the_invariant_the_run_broke() {
    let text = go_test(&preset("over-create-surplus").unwrap(), None).unwrap().text;
    assert!(text.contains("// The run broke children_within_desired at frame 19,"), "{}", &text[..400]);
    assert!(text.contains("run.atMost(at, \"children_within_desired\", \"academy.k3ii.dev/v1\", \"Ensemble\", \"v1\", \"ConfigMap\""));
    assert_eq!(text.matches("\t\t{key: types.NamespacedName{").count(), 2, "two reconciles before frame 19");
    assert_eq!(go_test(&preset("over-create-surplus").unwrap(), None).unwrap().reconciles, 2, "and it says so");
    let empty = go_test(&preset("empty-cache").unwrap(), None).unwrap().text;
    assert!(empty.contains("run.deletes(at, true, false)"), "the empty cache's delete before sync");
    assert!(empty.contains("synced: false"));
}

/// docs/exporting.md shows over-create-surplus's export as it is: its head
/// and its test function, word for word from the golden file, and the
/// figures it states are the run's (two reconciles on a cache without the
/// first one's four creates).
#[test]
fn the_docs_show_the_export_as_it_is() {
    let docs = include_str!("../docs/exporting.md");
    let text = go_test(&preset("over-create-surplus").unwrap(), None).unwrap().text;
    let head: String = text.lines().take(30).map(|l| format!("{l}\n")).collect();
    let func = &text[text.find("func TestOverCreateSurplus").unwrap()..];
    assert!(docs.contains(head.trim_end()), "docs/exporting.md: the head differs from the export's");
    assert!(docs.contains(func.trim_end()), "docs/exporting.md: the test differs from the export's");
    assert_eq!(text.matches("caches: map[string]cached{\"ConfigMap\": {}, ").count(), 2, "both reconciles read no ConfigMap");
    assert!(text.contains("map[string]any{\"voices\": int64(4)}") && docs.contains("8 ConfigMaps for an Ensemble that wants 4"));
}

/// A chaos matrix cell taken home: `--cell` exports the run the cell ran,
/// up to where it broke; a cell without a site is refused naming `--cell`.
#[test]
fn export_go_cell_takes_a_matrix_cell_home() {
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_cachescope")).args(args).output().unwrap();
    let out = run(&["export", "go", "over-create", "--set", "controller.naming=generate", "--cell", "CacheSyncLag", "--row", "none"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("// The run broke children_within_desired at frame 19,"), "{}", &text[..300]);
    // Under expectations the scenario holds; the ExpectationsTimeout cell breaks it, a frame later.
    let out = run(&[
        "export",
        "go",
        "over-create",
        "--set",
        "controller.naming=generate",
        "--cell",
        "ExpectationsTimeout",
        "--row",
        "expectations",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("// The run broke children_within_desired at frame 20,"), "{}", &text[..300.min(text.len())]);
    let out = run(&["export", "go", "over-create", "--set", "controller.naming=generate", "--cell", "WriteConflicts"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--cell") && err.contains("no site"), "{err}");
    let out = run(&["export", "go", "over-create", "--cell", "Nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"Nope\""));
}

/// `cachescope export robustness`: a skeleton for upstream's robustness
/// framework, for each incident preset whose controller has a root object,
/// gofmt-clean and held to `tests/golden/export/robustness/<preset>.go`; its
/// header says what cachescope's own run of each cell found; a controller
/// with no owner kind is refused naming the controller.
#[test]
fn every_incident_with_a_root_exports_a_robustness_skeleton() {
    use cachescope::export::robustness;
    let dir = golden_dir().join("robustness");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let tmp = std::env::temp_dir().join(format!("cachescope-robustness-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut made = 0;
    for s in presets().into_iter().filter(|s| s.incident.is_some()) {
        let text = match robustness(&s) {
            Ok(go) => go.text,
            Err(e) => {
                assert_eq!(e.field, "controller", "{}: {e}", s.name);
                continue;
            }
        };
        made += 1;
        assert!(text.contains("\tsuite := robustness.NewTestSuite(t, profile)\n") && text.contains("\tsuite.Run()\n"), "{}", s.name);
        assert!(text.contains("robustness.CountAtMost(") || text.contains("robustness.ObjectSatisfies("), "{}: no invariant", s.name);
        for cell in ["BaselineNoFaults", "WriteConflicts", "CacheSyncLag", "FlakyAPIServer", "CombinedChaos", "ExpectationsTimeout"] {
            assert!(text.contains(&format!("//   - {cell}: ")), "{}: says what {cell} did here", s.name);
        }
        std::fs::write(tmp.join(format!("{}.go", s.name.replace('-', "_"))), &text).unwrap();
        let path = dir.join(format!("{}.go", s.name));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
        assert!(text == golden, "{}: the skeleton changed: if on purpose, UPDATE_GOLDEN=1 cargo test --test export", s.name);
    }
    assert!(made >= 12, "skeletons: {made}");
    let out = Command::new("gofmt").arg("-l").arg(&tmp).output().expect("gofmt runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "", "gofmt would rewrite these");
    std::fs::remove_dir_all(&tmp).unwrap();
    // The over-create with generated names breaks under CacheSyncLag, and the header says so.
    let s = preset("over-create").unwrap().with_settings([("controller.naming", "generate")]).unwrap();
    let text = robustness(&s).unwrap().text;
    assert!(
        text.contains("//   - CacheSyncLag: Cache sync lag × As written: broke children_within_desired at frame 19"),
        "{}",
        &text[..900]
    );
    assert!(text.contains("robustness.CountAtMost(4, \"ConfigMap\", countChildren)"));
    let e = robustness(&preset("empty-cache").unwrap()).unwrap_err();
    assert_eq!(e.field, "controller");
}
