//! Same scenario and seed, same trace, on every platform: each preset's trace
//! hash is pinned in `tests/golden/trace_hashes.json`, and both the native
//! build and the wasm build (in headless Chromium) must reproduce it.
//!
//! A change to the simulation that changes traces on purpose updates the file:
//! `UPDATE_GOLDEN=1 cargo test --test determinism`, then review the diff.

use cachescope::report::Report;
use cachescope::scenario::{preset, preset_names};
use std::collections::BTreeMap;

const GOLDEN: &str = include_str!("golden/trace_hashes.json");

fn golden() -> BTreeMap<String, String> {
    serde_json::from_str(GOLDEN).expect("the golden file is JSON")
}

fn measured() -> BTreeMap<String, String> {
    let mut hashes: BTreeMap<String, String> =
        preset_names().into_iter().map(|n| (n.to_string(), Report::run(&preset(n).unwrap()).trace_hash)).collect();
    // A schedule (watch events held back, as the explorer writes them) replays alike too.
    let mut v = preset("over-create").unwrap().to_value();
    v["cluster"]["watch_lag_ms"] = 0.into();
    v["controller"]["naming"] = "generate".into();
    v["schedule"] = serde_json::json!([{"kind": "ConfigMap", "nth": 1, "late_ms": 1000}, {"kind": "ConfigMap", "nth": 3, "late_ms": 2500}]);
    let scheduled = cachescope::scenario::Scenario::from_value(v).expect("a valid schedule");
    hashes.insert("over-create+schedule".to_string(), Report::run(&scheduled).trace_hash);
    // Random schedules of every form (late, at, hold, drop), from a fixed
    // stream: the page replays what the explorer and the learner's hands write.
    for (i, schedule) in random_schedules(12).into_iter().enumerate() {
        let mut v = preset("over-create").unwrap().to_value();
        v["controller"]["naming"] = "generate".into();
        v["cluster"]["watch_lag_ms"] = if i % 2 == 0 { 0 } else { 2000 }.into();
        v["schedule"] = schedule;
        let s = cachescope::scenario::Scenario::from_value(v).expect("a valid schedule");
        hashes.insert(format!("random-schedule-{i:02}"), Report::run(&s).trace_hash);
    }
    // Arbitrary recipes (`controller.recipe`), a sample of what the property
    // tests run (seed 9 draws a for_each).
    for seed in 0..10u64 {
        use cachescope::scenario::recipe::{arbitrary, draws, sample};
        let kind = if seed % 2 == 0 {
            cachescope::sim::apiserver::ControllerKind::Ensemble
        } else {
            cachescope::sim::apiserver::ControllerKind::ReplicaSet
        };
        let s = sample(&arbitrary(kind, false, &mut draws(seed)), 1000 * (seed % 3));
        hashes.insert(format!("recipe-{seed:02}"), Report::run(&s).trace_hash);
    }
    hashes
}

/// `n` schedules of one to four entries, each of a random form, from a fixed LCG.
fn random_schedules(n: usize) -> Vec<serde_json::Value> {
    let mut x: u64 = 0x853c_49e6_748f_ea9b;
    let mut next = move |below: u64| {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) % below
    };
    (0..n)
        .map(|_| {
            let len = 1 + next(4);
            let mut nths: Vec<u64> = (0..len).map(|_| 1 + next(12)).collect();
            nths.sort_unstable();
            nths.dedup();
            let entries: Vec<serde_json::Value> = nths
                .into_iter()
                .map(|nth| match next(4) {
                    0 => serde_json::json!({"kind": "ConfigMap", "nth": nth, "late_ms": 1 + next(5_000)}),
                    1 => serde_json::json!({"kind": "ConfigMap", "nth": nth, "at_ms": next(8_000)}),
                    2 => serde_json::json!({"kind": "ConfigMap", "nth": nth, "hold": true}),
                    _ => serde_json::json!({"kind": "ConfigMap", "nth": nth, "drop": true}),
                })
                .collect();
            serde_json::Value::Array(entries)
        })
        .collect()
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn native_trace_hashes_match_the_golden_file() {
    let got = measured();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/trace_hashes.json");
        std::fs::write(path, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
        return;
    }
    assert_eq!(got, golden(), "traces changed: if on purpose, UPDATE_GOLDEN=1 cargo test --test determinism");
}

/// Every string in `v` (a frame's JSON), with the path it sits at.
#[cfg(not(target_arch = "wasm32"))]
fn strings<'a>(v: &'a serde_json::Value, path: String, out: &mut Vec<(String, &'a str)>) {
    match v {
        serde_json::Value::String(s) => out.push((path, s)),
        serde_json::Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| strings(x, format!("{path}.{i}"), out)),
        serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| strings(x, format!("{path}.{k}"), out)),
        _ => {}
    }
}

/// The hash covers facts, not words: no frame of any preset holds a
/// sentence (a string with a space in it), and
/// a caption reworded changes the runner's trace lines and no trace hash.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn trace_hashes_cover_facts_not_words() {
    use cachescope::report::{trace_line, trace_line_with, TraceHasher};
    use cachescope::sim::world::World;
    for name in preset_names() {
        let scenario = preset(name).unwrap();
        let mut world = World::new(scenario.world_init());
        let mut hasher = TraceHasher::default();
        let (mut said, mut reworded) = (String::new(), String::new());
        while let Some(frame) = world.step() {
            let json = serde_json::to_value(&frame).unwrap();
            let mut found = Vec::new();
            strings(&json, format!("frame {}", frame.n), &mut found);
            for (path, s) in found {
                assert!(!s.contains(' '), "{name}: a sentence in the facts at {path}: {s:?}");
            }
            hasher.add(&frame);
            said.push_str(&trace_line(&frame));
            reworded.push_str(&trace_line_with(&frame, |f| format!("Frame {} in other words.", f.n)));
        }
        assert_ne!(said, reworded, "{name}: the trace lines carry the caption");
        assert_eq!(hasher.hex(), golden()[name], "{name}: the hash is the golden one, whatever the captions say");
        assert_eq!(hasher.hex(), Report::run(&scenario).trace_hash);
    }
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use wasm_bindgen_test::*;
    wasm_bindgen_test_configure!(run_in_browser);

    #[wasm_bindgen_test]
    fn wasm_trace_hashes_match_the_golden_file() {
        assert_eq!(super::measured(), super::golden());
    }
}
