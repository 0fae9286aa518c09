//! One home per knob: every setting is declared once (`scenario::settings`),
//! and `--set`, the page's URL and `edit=` accept exactly the same paths and
//! limits, because they read that declaration.
#![cfg(not(target_arch = "wasm32"))]

use cachescope::scenario::settings::{Domain, SETTINGS};
use cachescope::scenario::{preset, Scenario};
use cachescope::sim::world::World;
use cachescope::view::session::{Change, Edit};
use cachescope::view::snapshot::field_limits;
use cachescope::view::url::parse_query_lenient;

/// The values worth trying for a setting: its edges, and one step past each.
fn samples(domain: Domain) -> Vec<(String, bool)> {
    match domain {
        Domain::Int { min, max, .. } => {
            let mut v = vec![(min.to_string(), true), (max.to_string(), true)];
            if min > 0 {
                v.push(((min - 1).to_string(), false));
            }
            if max < u64::MAX {
                v.push(((max + 1).to_string(), false));
            }
            v
        }
        Domain::Flag { .. } => vec![("true".into(), true), ("false".into(), true), ("maybe".into(), false)],
        Domain::Choice(words) => words.iter().map(|w| (w.to_string(), true)).chain([("bogus".to_string(), false)]).collect(),
        Domain::Name => vec![("academy-lab".into(), true), ("Not_A_Name".into(), false)],
    }
}

/// The preset a setting is tried on: read-your-write (no action a short
/// `until_ms` would leave behind), or, for the replicas, which a one-shot
/// program cannot have, and controller-runtime's, which only the operator
/// is written with, over-create.
fn base_name(path: &str) -> &'static str {
    if matches!(
        path,
        "controller.instances"
            | "controller.runtime"
            | "controller.live_reads"
            | "controller.read_your_writes"
            | "controller.controller_runtime"
            | "controller.priority_queue"
    ) {
        "over-create"
    } else {
        "read-your-write"
    }
}

/// The base a setting is tried on, with the one cross-field rule (a bucket
/// of 0 tokens needs no rate limit) satisfied.
fn base(path: &str) -> Scenario {
    let s = preset(base_name(path)).unwrap();
    if path == "cluster.client_burst" {
        s.with_settings([("cluster.client_qps", "0")]).unwrap()
    } else {
        s
    }
}

#[test]
fn set_the_url_and_edit_accept_exactly_the_same_paths_and_limits() {
    let mut tried = 0;
    for s in SETTINGS {
        for (value, in_domain) in samples(s.domain) {
            let scenario = base(s.path);
            let by_set = scenario.with_settings([(s.path, value.as_str())]);
            assert_eq!(by_set.is_ok(), in_domain, "--set {}={value}: {:?}", s.path, by_set.err());
            if let Err(e) = &by_set {
                assert_eq!(e.field, s.path, "the error names the setting: {e}");
            }
            // The URL reads the same setting through the same rules.
            let mut query = format!("s={}", base_name(s.path));
            if s.path == "cluster.client_burst" {
                query.push_str("&cluster.client_qps=0");
            }
            query.push_str(&format!("&{}={}", s.path, value));
            let url = parse_query_lenient(&query, "over-create");
            assert_eq!(url.problems.is_empty(), in_domain, "?{query}: {:?}", url.problems);
            if in_domain {
                assert_eq!(url.state.scenario, by_set.unwrap(), "?{query} gives the scenario --set gives");
            } else {
                assert!(url.problems.iter().any(|p| p.field == s.path), "?{query} names {}: {:?}", s.path, url.problems);
            }
            // edit= takes the settings that may change during a run, with the same limits.
            let edit = Edit::parse(&format!("3:{}={value}", s.path));
            match s.live {
                true => {
                    assert_eq!(edit.is_ok(), in_domain, "edit 3:{}={value}: {:?}", s.path, edit.err());
                    if let Ok(e) = edit {
                        assert_eq!(e.to_string(), format!("3:{}={value}", s.path), "edit= writes what it reads");
                    }
                }
                false => {
                    let e = edit.unwrap_err();
                    assert!(e.message.contains("cannot change during a run"), "{}: {e}", s.path);
                }
            }
            tried += 1;
        }
    }
    assert!(tried >= 70, "{tried} values tried");
}

#[test]
fn an_unknown_setting_is_refused_alike_everywhere() {
    let set = preset("over-create").unwrap().with_settings([("cluster.watch_lagms", "1")]).unwrap_err();
    assert!(set.message.contains("unknown setting"), "{set}");
    let url = parse_query_lenient("s=over-create&cluster.watch_lagms=1", "over-create");
    assert_eq!(url.problems.len(), 1);
    assert!(url.problems[0].message.contains("unknown setting"), "{}", url.problems[0]);
    let edit = Edit::parse("3:cluster.watch_lagms=1").unwrap_err();
    assert!(edit.message.contains("no such setting"), "{edit}");
}

#[test]
fn an_owner_scales_within_its_kind_and_the_budget() {
    // Validation, a scale action, the page's edit= and the URL all hold an
    // Ensemble to 1,000 voices, and any owner to the work budget.
    let ensemble = preset("over-create").unwrap();
    assert!(ensemble.with_settings([("actions.0.apply.voices", "1000")]).is_ok());
    assert_eq!(ensemble.with_settings([("actions.0.apply.voices", "1001")]).unwrap_err().field, "actions[0].apply.voices");
    let url = parse_query_lenient("s=over-create&edit=5:do=scale:1500", "over-create");
    assert_eq!(url.problems.len(), 1, "{:?}", url.problems);
    assert!(url.problems[0].to_string().contains("Ensemble scales to 0 to 1000"), "{}", url.problems[0]);
    assert!(url.state.edits.is_empty());
    let url = parse_query_lenient("s=replicaset-pressure&edit=5:do=scale:1500", "over-create");
    assert!(url.problems.is_empty(), "{:?}", url.problems);
    // A ReplicaSet's own limit is the budget; with its owner, 2,000 replicas is one over.
    let url = parse_query_lenient("s=replicaset-pressure&edit=5:do=scale:2000", "over-create");
    assert_eq!(url.problems.len(), 1, "{:?}", url.problems);
    assert!(url.problems[0].to_string().contains("work budget is 2000"), "{}", url.problems[0]);
    assert!(url.state.edits.is_empty());
    let mut with_scale = ensemble.to_value();
    with_scale["actions"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({"at_ms": 1000, "scale": {"kind": "Ensemble", "name": "beta", "to": 1500}}));
    let e = Scenario::from_value(with_scale).unwrap_err();
    assert_eq!(e.field, "actions[1].scale.to");
    assert!(e.message.contains("0..=1000"), "{e}");
}

/// Adding a knob is its field, its entry in `SETTINGS` and its use
/// (ARCHITECTURE.md): every other reader takes the entry from the table.
/// This walks the table and holds each of them to it.
#[test]
fn every_reader_of_the_table_agrees_with_it() {
    let schema = cachescope::scenario::settings::schema();
    let docs = include_str!("../docs/scenarios.md");
    for s in SETTINGS {
        let (section, field) = s.path.split_once('.').unwrap_or(("", s.path));
        // The docs (`cachescope settings`, in docs/scenarios.md) list it in its section's table.
        let table = cachescope::scenario::settings::markdown_table(section);
        let row =
            table.lines().find(|l| l.starts_with(&format!("| `{field}` |"))).unwrap_or_else(|| panic!("{} is in the docs' table", s.path));
        assert!(row.contains(s.help) && row.contains(&s.range_text()), "{row}");
        assert_eq!(row.contains("| yes |"), s.live, "{row}: the docs say whether it may change during a run");
        assert!(docs.contains(row), "docs/scenarios.md carries {row}");
        let Domain::Int { min, max, .. } = s.domain else { continue };
        // Validation accepts its limits and refuses one past them, naming it.
        let scenario = base(s.path);
        for (v, ok) in [(Some(min), true), (Some(max), true), (min.checked_sub(1), false), (max.checked_add(1), false)] {
            let Some(v) = v else { continue };
            let mut doc = scenario.to_value();
            *s.path.split('.').fold(&mut doc, |d, k| &mut d[k]) = serde_json::Value::from(v);
            match Scenario::from_value(doc) {
                Ok(_) => assert!(ok, "{}={v} is refused", s.path),
                Err(e) => {
                    assert!(!ok, "{}={v}: {e}", s.path);
                    assert_eq!(e.field, s.path, "{e}");
                    assert!(e.message.contains(&format!("{min}..={max}")), "{e}");
                }
            }
        }
        // The schema's minimum and maximum are the table's.
        let pointer =
            cachescope::scenario::settings::schema_pointer(&schema, s.path).unwrap_or_else(|| panic!("{} is in the schema", s.path));
        let node = schema.pointer(&pointer).unwrap();
        assert_eq!(node["minimum"], min, "{}", s.path);
        if max < u64::MAX {
            assert_eq!(node["maximum"], max, "{}", s.path);
        }
        // The page's field (and slider) take their limits from the table.
        let limits = field_limits(s.path).unwrap();
        assert_eq!((limits.min, limits.max), (min, (max < u64::MAX).then_some(max)), "{}", s.path);
        assert!(limits.drag_max <= max && limits.drag_max > min && limits.step >= 1, "{}: {limits:?}", s.path);
    }
}

/// A live setting changed during a run lands in the world's settings, in the
/// field its path names, and `edit=` writes it back as it read it.
#[test]
fn a_live_change_writes_the_field_its_path_names() {
    let mut tried = 0;
    for s in SETTINGS.iter().filter(|s| s.live) {
        for (raw, ok) in samples(s.domain) {
            if !ok {
                continue;
            }
            let edit = Edit::parse(&format!("0:{}={raw}", s.path)).unwrap();
            let Change::Knob(knob) = edit.change else { panic!("{}: a knob", s.path) };
            let mut world = World::new(base(s.path).world_init());
            world.set_knob(knob);
            let (section, field) = s.path.split_once('.').unwrap();
            let settings = match section {
                "cluster" => serde_json::to_value(&world.cluster).unwrap(),
                _ => serde_json::to_value(&world.controller).unwrap(),
            };
            let written = cachescope::scenario::get_path(&settings, field).unwrap_or_else(|| panic!("{} is a field", s.path));
            let written = match written {
                serde_json::Value::String(w) => w.clone(),
                v => v.to_string(),
            };
            assert_eq!(written, raw, "{}", s.path);
            assert_eq!(edit.to_string(), format!("0:{}={raw}", s.path));
            tried += 1;
        }
    }
    assert!(tried >= 24, "{tried}");
}
