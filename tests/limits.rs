//! The work budget: whatever the validator accepts plays to its end, and
//! whatever it refuses is refused alike by the runner and the page, naming
//! the field.

use cachescope::report::Report;
use cachescope::scenario::limits::{self, frame_limit, MAX_OBJECTS_AT_PEAK};
use cachescope::scenario::Scenario;
use cachescope::view::url::{pack, parse_query_lenient};
use std::process::Command;

/// The issue's 165-character link: 20,000 Ensembles of 1,000 voices for a day.
const HUGE: &str = r#"{"name":"x","until_ms":86400000,"controller":{"kind":"ensemble"},"objects":[{"kind":"Ensemble","name":"e-{i}","voices":1000,"count":20000}]}"#;

fn scenario(text: &str) -> Result<Scenario, cachescope::scenario::ScenarioError> {
    Scenario::from_json(text)
}

#[test]
fn a_link_over_the_budget_opens_to_a_banner_naming_the_field() {
    let query = format!("z={}&frame=200000", pack(HUGE));
    let parsed = parse_query_lenient(&query, "over-create");
    assert_eq!(parsed.problems.len(), 1, "{:?}", parsed.problems);
    let p = parsed.problems[0].to_string();
    assert!(p.contains("objects[0].count") && p.contains("20000"), "{p}");
    // The page falls back to a preset it can play, not the huge scenario.
    assert!(parsed.state.custom.is_none());
}

#[test]
fn each_knob_within_its_limit_but_their_product_over_is_refused() {
    // 3 Ensembles × 1,000 voices: each number within its own limit.
    let text = r#"{"name":"x","controller":{"kind":"ensemble"},"objects":[{"kind":"Ensemble","name":"e-{i}","voices":1000,"count":3}]}"#;
    let e = scenario(text).unwrap_err();
    assert_eq!(e.field, "objects[0]");
    assert!(e.message.contains("3003 objects") && e.message.contains("2000"), "{e}");
    // Two owners that are each fine, together over: the larger is named.
    let text = r#"{"name":"x","controller":{"kind":"replicaset"},"objects":[{"kind":"ReplicaSet","name":"a","replicas":900}],
        "actions":[{"at_ms":5,"apply":{"kind":"ReplicaSet","name":"b","replicas":1200}}]}"#;
    let e = scenario(text).unwrap_err();
    assert_eq!(e.field, "actions[0].apply", "{e}");
    // Repeated scales of one owner count once, at their largest.
    let text = r#"{"name":"x","controller":{"kind":"replicaset"},"objects":[{"kind":"ReplicaSet","name":"a","replicas":900}],
        "actions":[{"at_ms":5,"scale":{"kind":"ReplicaSet","name":"a","to":1500}},{"at_ms":6,"scale":{"kind":"ReplicaSet","name":"a","to":1900}}]}"#;
    assert_eq!(limits::objects_at_peak(&scenario(text).unwrap(), None).0, 1901);
}

#[test]
fn limits_that_leaked_are_closed() {
    let cases: &[(&str, &str)] = &[
        // name: control characters and a right-to-left override
        (r#"{"name":"a\u0007b","controller":{"kind":"ensemble"}}"#, "name"),
        (r#"{"name":"a\u202eb","controller":{"kind":"ensemble"}}"#, "name"),
        // strings that name objects are names
        (
            r#"{"name":"x","controller":{"kind":"ensemble"},"actions":[{"at_ms":1,"scale":{"kind":"Ensemble","name":"<b>","to":1}}]}"#,
            "actions[0].scale.name",
        ),
        (
            r#"{"name":"x","controller":{"kind":"ensemble"},"actions":[{"at_ms":1,"scale":{"kind":"Ensemble","name":"a","namespace":"A B","to":1}}]}"#,
            "actions[0].scale.namespace",
        ),
        (
            r#"{"name":"x","controller":{"kind":"ensemble"},"actions":[{"at_ms":1,"delete":{"kind":"Ensemble","name":"a","namespace":"<i>"}}]}"#,
            "actions[0].delete.namespace",
        ),
        (
            r#"{"name":"x","controller":{"kind":"replicaset"},"actions":[{"at_ms":1,"delete_pods":{"owner":"<script>","count":1,"interval_ms":1}}]}"#,
            "actions[0].delete_pods.owner",
        ),
        // {i} is checked at its largest value: 62 letters + "-1000" is 67
        (
            &format!(
                r#"{{"name":"x","controller":{{"kind":"pruner"}},"objects":[{{"kind":"ConfigMap","name":"{}-{{i}}","count":1000}}]}}"#,
                "a".repeat(62)
            ),
            "objects[0].name",
        ),
        (
            r#"{"name":"x","controller":{"kind":"pruner"},"objects":[{"kind":"ConfigMap","name":"a","labels":{"a b":"c"}}]}"#,
            "objects[0].labels",
        ),
    ];
    for (text, field) in cases {
        let e = scenario(text).unwrap_err();
        assert_eq!(e.field, *field, "{text}: {e}");
    }
    // A thousand and one actions.
    let actions: Vec<String> = (0..1001).map(|i| format!(r#"{{"at_ms":{i},"restart_controller":{{}}}}"#)).collect();
    let text = format!(r#"{{"name":"x","until_ms":5000,"controller":{{"kind":"ensemble"}},"actions":[{}]}}"#, actions.join(","));
    let e = scenario(&text).unwrap_err();
    assert_eq!((e.field.as_str(), e.value.as_deref()), ("actions", Some("1001 entries")), "{e}");
}

/// The largest scenarios the budget accepts, by what they multiply: they run
/// to their end (or the frame limit), and that limit is the budget's.
#[test]
fn the_largest_accepted_scenarios_run_to_their_end() {
    for (_, text) in limits::LARGEST_ACCEPTED {
        let s = scenario(text).expect("within the budget");
        assert_eq!(limits::objects_at_peak(&s, None).0, MAX_OBJECTS_AT_PEAK);
        let r = Report::run(&s);
        assert_eq!(r.frames, frame_limit(MAX_OBJECTS_AT_PEAK), "{}", s.name);
        assert_eq!(r.stopped_at_frame_limit, Some(frame_limit(MAX_OBJECTS_AT_PEAK)));
        assert_eq!(r.stopped_at_object_limit, None, "{}: within the budget as it runs, too", s.name);
        assert!(r.peak_live.values().sum::<u64>() <= MAX_OBJECTS_AT_PEAK, "{}: {:?}", s.name, r.peak_live);
    }
}

/// What a controller creates counts against the budget as the run goes: a
/// scenario within it as written, whose controller creates past it, stops
/// after the frame that passes it, and the report says where and why.
#[test]
fn a_run_that_passes_the_object_budget_stops_there_and_says_why() {
    for (name, text) in limits::OVER_AT_RUN_TIME {
        let s = scenario(text).expect("within the budget as written");
        let r = Report::run(&s);
        let stop = r.stopped_at_object_limit.as_ref().unwrap_or_else(|| panic!("{name}: {:?}", r.peak_live));
        assert_eq!((stop.objects, stop.limit), (MAX_OBJECTS_AT_PEAK + 1, MAX_OBJECTS_AT_PEAK), "{name}: one create past it");
        assert_eq!(stop.frame, r.frames, "{name}: the frame that passed it is the last");
        assert_eq!(r.live.values().sum::<u64>(), MAX_OBJECTS_AT_PEAK + 1, "{name}");
        assert!(r.frames < frame_limit(MAX_OBJECTS_AT_PEAK), "{name}: before the frame limit");
        assert_eq!(r.stopped_at_frame_limit, None);
        assert!(stop.why.contains("the cluster holds 2,001 objects; the limit is 2,000"), "{name}: {}", stop.why);
    }
    // The held Pod event: the cache saw none of the pods, and the words say it was the hold.
    let (_, held) = limits::OVER_AT_RUN_TIME[2];
    let r = Report::run(&scenario(held).unwrap());
    let why = &r.stopped_at_object_limit.unwrap().why;
    assert!(why.contains("cache holds 0 of the 2,000 Pods") && why.contains("the 1st Pod event is held by this run's schedule"), "{why}");
    assert_eq!(r.live["Pod"], 2_000, "no 30,000 pods: the budget held");
    // The runner prints it.
    let dir = std::env::temp_dir().join(format!("cachescope-held-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("held.json");
    std::fs::write(&file, held).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cachescope")).args(["run", file.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["stopped_at_object_limit"]["objects"], 2_001, "{v}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_runner_refuses_over_the_budget_with_exit_2() {
    let dir = std::env::temp_dir().join(format!("cachescope-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("huge.json");
    std::fs::write(&file, HUGE).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cachescope")).args(["run", file.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("objects[0].count"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_edit_past_the_end_is_reported_where_it_was_made() {
    use cachescope::view::session::{Edit, Session};
    let s = cachescope::scenario::preset("over-create").unwrap();
    let session = Session::with_edits(s, &[Edit::parse("999999:cluster.watch_lag_ms=5").unwrap()]);
    let moved = session.moved_edits();
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0].0.frame, 999_999);
    assert!(moved[0].1 > 0 && moved[0].1 < 999_999, "made at the last frame, {}", moved[0].1);
}

/// Every parameter the page drops or overrides says so, under its own name.
#[test]
fn every_banner_names_its_parameter() {
    let problems = |q: &str| parse_query_lenient(q, "over-create").problems.iter().map(|p| p.to_string()).collect::<Vec<_>>();
    let one = |q: &str| {
        let p = problems(q);
        assert_eq!(p.len(), 1, "{q}: {p:?}");
        p[0].clone()
    };
    // A z= whose document is bad is blamed on z.
    let bad = pack(r#"{"name":"x","controller":{"kind":"nope"}}"#);
    assert!(one(&format!("z={bad}")).contains("URL parameter z: controller.kind"));
    // z and scenario together, or a parameter twice: said, the last is used.
    let good = pack(r#"{"name":"x","controller":{"kind":"pruner"}}"#);
    let both = format!("z={good}&scenario=%7B%22name%22%3A%22y%22%2C%22controller%22%3A%7B%22kind%22%3A%22pruner%22%7D%7D");
    let p = parse_query_lenient(&both, "over-create");
    assert!(p.problems.iter().any(|e| e.to_string().contains("either z or scenario")), "{:?}", p.problems);
    assert!(one("s=over-create&s=empty-cache").contains("s is given more than once"));
    let twice = parse_query_lenient("s=over-create&s=empty-cache", "over-create");
    assert_eq!(twice.state.preset.as_deref(), Some("empty-cache"));
    // A packed scenario that inflates past 1 MiB is too large, not "not deflated".
    let huge = pack(&format!(r#"{{"name":"x","description":"{}","controller":{{"kind":"pruner"}}}}"#, " ".repeat(2 << 20)));
    assert!(one(&format!("z={huge}")).contains("too large"));
    // A dotted path with an empty part is named as written.
    assert!(one("s=over-create&controller.=1").contains("controller.: a dotted path with an empty part"));
    // panels= naming no known panel shows them all, and says so.
    let p = parse_query_lenient("s=over-create&panels=nope", "over-create");
    assert!(p.state.layout.panels.is_none());
    assert!(p.problems.iter().any(|e| e.to_string().contains("all are shown")), "{:?}", p.problems);
}
