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
    hashes
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

#[cfg(target_arch = "wasm32")]
mod wasm {
    use wasm_bindgen_test::*;
    wasm_bindgen_test_configure!(run_in_browser);

    #[wasm_bindgen_test]
    fn wasm_trace_hashes_match_the_golden_file() {
        assert_eq!(super::measured(), super::golden());
    }
}
