//! Properties over thousands of random seeds, lags and worker counts. A failing
//! case prints its seed, its scenario and the frames up to the first break, so
//! it can be replayed with `cachescope trace` or in the page.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use cachescope::scenario::preset;
use cachescope::sim::invariants::CHILDREN_WITHIN_DESIRED;
use proptest::prelude::*;
use support::run_scenario;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config(600))]

    /// With expectations on, a ReplicaSet under pressure never has more pods than
    /// it asks for, while the watch lag stays under the expectations timeout.
    #[test]
    fn replicaset_with_expectations_never_exceeds_replicas(
        seed in any::<u64>(),
        lag_ms in 0u64..5_000,
        jitter_ms in 0u64..500,
        workers in 1u32..8,
        replicas in 1u32..15,
        interval_ms in 20u64..1_000,
        api_latency_ms in 0u64..100,
    ) {
        let s = preset("replicaset-pressure").unwrap().with_settings([
            ("cluster.watch_lag_ms", lag_ms.to_string().as_str()),
            ("cluster.watch_jitter_ms", jitter_ms.to_string().as_str()),
            ("cluster.api_latency_ms", api_latency_ms.to_string().as_str()),
            ("controller.workers", workers.to_string().as_str()),
            ("actions.0.apply.replicas", replicas.to_string().as_str()),
            ("actions.1.delete_pods.interval_ms", interval_ms.to_string().as_str()),
            ("until_ms", "20000"),
        ]).unwrap();
        let mut s = s;
        s.seed = seed;
        let run = run_scenario(s);
        let inv = &run.report.invariants[CHILDREN_WITHIN_DESIRED];
        prop_assert!(inv.held, "{}", run.replay_hint(inv.first_broken_frame.unwrap_or(0)));
        prop_assert!(run.report.peak_live.get("Pod").copied().unwrap_or(0) <= u64::from(replicas));
    }

    /// With deterministic names the Ensemble never exceeds its voices, whatever
    /// the lag, the workers or the switches.
    #[test]
    fn ensemble_with_deterministic_names_never_exceeds_voices(
        seed in any::<u64>(),
        lag_ms in 0u64..5_000,
        jitter_ms in 0u64..300,
        workers in 1u32..6,
        voices in 0u32..10,
        double_enqueue in any::<bool>(),
        delete_surplus in any::<bool>(),
        reconcile_ms in 0u64..300,
    ) {
        let mut s = preset("over-create").unwrap().with_settings([
            ("cluster.watch_lag_ms", lag_ms.to_string().as_str()),
            ("cluster.watch_jitter_ms", jitter_ms.to_string().as_str()),
            ("controller.workers", workers.to_string().as_str()),
            ("controller.double_enqueue", if double_enqueue { "true" } else { "false" }),
            ("controller.delete_surplus", if delete_surplus { "true" } else { "false" }),
            ("controller.reconcile_ms", reconcile_ms.to_string().as_str()),
            ("actions.0.apply.voices", voices.to_string().as_str()),
        ]).unwrap();
        s.seed = seed;
        let run = run_scenario(s);
        let inv = &run.report.invariants[CHILDREN_WITHIN_DESIRED];
        prop_assert!(inv.held, "{}", run.replay_hint(inv.first_broken_frame.unwrap_or(0)));
        prop_assert!(run.report.peak_live.get("ConfigMap").copied().unwrap_or(0) <= u64::from(voices));
    }

    /// With the wait on, the pruner never deletes a seed.
    #[test]
    fn pruner_that_waits_for_sync_never_deletes_a_seed(
        seed in any::<u64>(),
        lag_ms in 0u64..5_000,
        initial_list_ms in 0u64..10_000,
        api_latency_ms in 0u64..200,
        reread in any::<bool>(),
    ) {
        let mut s = preset("empty-cache").unwrap().with_settings([
            ("cluster.watch_lag_ms", lag_ms.to_string().as_str()),
            ("cluster.initial_list_ms", initial_list_ms.to_string().as_str()),
            ("cluster.api_latency_ms", api_latency_ms.to_string().as_str()),
            ("controller.wait_for_cache_sync", "true"),
            ("controller.reread_after_create", if reread { "true" } else { "false" }),
        ]).unwrap();
        s.seed = seed;
        let run = run_scenario(s);
        prop_assert_eq!(run.report.api_count("delete", 200), 0, "{}", run.replay_hint(run.report.frames));
        prop_assert!(run.report.live("ConfigMap") >= 50);
    }

    /// Same scenario and seed, same trace: twice in a row, from scratch.
    #[test]
    fn same_seed_same_trace_hash(
        seed in any::<u64>(),
        which in 0usize..7,
        lag_ms in 0u64..3_000,
        jitter_ms in 0u64..500,
    ) {
        let name = cachescope::scenario::preset_names()[which];
        let mut s = preset(name).unwrap().with_settings([
            ("cluster.watch_lag_ms", lag_ms.to_string().as_str()),
            ("cluster.watch_jitter_ms", jitter_ms.to_string().as_str()),
        ]).unwrap();
        s.seed = seed;
        if name == "expectations-timeout" {
            s.until_ms = 30_000;
            s.actions.retain(|a| a.at_ms <= 30_000);
        }
        let a = run_scenario(s.clone());
        let b = run_scenario(s);
        prop_assert_eq!(&a.report.trace_hash, &b.report.trace_hash);
        prop_assert_eq!(a.frames, b.frames);
    }
}
