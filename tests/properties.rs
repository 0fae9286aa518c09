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

proptest! {
    #![proptest_config(config(120))]

    /// The apiserver's count of each owner's children (what the invariants and
    /// kubectl's pod deletions read instead of a scan) agrees with a scan of
    /// the store at every frame: through creates, graceful deletes, orphaning
    /// and ownerReferences switched off.
    #[test]
    fn controlled_by_index_matches_a_scan(
        seed in any::<u64>(),
        which in 0usize..10,
        owner_references in any::<bool>(),
        grace_ms in prop_oneof![Just(0u64), 1u64..3_000],
    ) {
        use cachescope::sim::object::{child_kind, Kind};
        use cachescope::sim::world::World;
        let names = cachescope::scenario::preset_names();
        let name = names[which % names.len()];
        let mut s = preset(name).unwrap().with_settings([
            ("controller.owner_references", owner_references.to_string().as_str()),
            ("cluster.pod_grace_period_ms", grace_ms.to_string().as_str()),
        ]).unwrap();
        s.seed = seed;
        s.until_ms = s.until_ms.min(40_000);
        let mut world = World::new(s.world_init());
        let mut frame = 0;
        while world.step().is_some() {
            frame += 1;
            for owner_kind in [Kind::Ensemble, Kind::ReplicaSet] {
                let kind = child_kind(owner_kind).unwrap();
                for owner in world.api.objects_of(owner_kind) {
                    let (mut active, mut terminating) = (0, 0);
                    for c in world.api.objects_of(kind).filter(|c| c.controller_ref().is_some_and(|r| r.uid == owner.uid)) {
                        if c.is_terminating() { terminating += 1 } else { active += 1 }
                    }
                    prop_assert_eq!(world.api.controlled_by(kind, owner.uid), (active, terminating), "{} at frame {}", name, frame);
                }
                let uncontrolled = world.api.objects_of(kind).filter(|c| c.controller_ref().is_none()).count() as u64;
                prop_assert_eq!(world.api.uncontrolled_count(kind), uncontrolled, "{} at frame {}", name, frame);
            }
        }
    }
}

mod url_codec {
    use cachescope::scenario::preset_names;
    use cachescope::view::url::{encode, parse_query, speed_of_step, ControlsMode, PanelId, MAX_SPEED_STEP, MIN_SPEED_STEP};
    use proptest::prelude::*;

    fn setting() -> impl Strategy<Value = (String, String)> {
        prop_oneof![
            (0u64..=5_000).prop_map(|v| ("cluster.watch_lag_ms".to_string(), v.to_string())),
            (0u64..=500).prop_map(|v| ("cluster.watch_jitter_ms".to_string(), v.to_string())),
            prop::sample::select(vec!["deterministic", "generate"]).prop_map(|v| ("controller.naming".to_string(), v.to_string())),
            any::<bool>().prop_map(|v| ("controller.double_enqueue".to_string(), v.to_string())),
            any::<bool>().prop_map(|v| ("controller.wait_for_cache_sync".to_string(), v.to_string())),
            any::<u64>().prop_map(|v| ("seed".to_string(), v.to_string())),
        ]
    }

    proptest! {
        #![proptest_config(super::config(600))]

        /// Whatever state the page writes into its URL, it reads back the same,
        /// and writes the same URL again: one codec, no drift.
        #[test]
        fn every_page_state_survives_its_url(
            preset in prop::sample::select(preset_names()),
            settings in prop::collection::vec(setting(), 0..4),
            frame in 0usize..100_000,
            step in MIN_SPEED_STEP..=MAX_SPEED_STEP,
            embed in any::<bool>(),
            panels in prop::option::of(prop::sample::subsequence(PanelId::ALL.to_vec(), 0..=PanelId::ALL.len())),
            controls in prop::option::of(prop::sample::select(vec![ControlsMode::None, ControlsMode::Transport, ControlsMode::All])),
            autoplay in any::<bool>(),
            origin in prop::option::of(prop::sample::select(vec!["https://courses.example.org", "http://127.0.0.1:8080"])),
            whole in any::<bool>(),
            gc_steps in prop::option::of(any::<bool>()),
            lesson_step in prop::option::of(0usize..40),
        ) {
            // Later settings of the same path win, as in the page; keep the last of each.
            let mut unique: Vec<(String, String)> = Vec::new();
            for (k, v) in settings {
                unique.retain(|(k2, _)| *k2 != k);
                unique.push((k, v));
            }
            let mut base = parse_query(&format!("s={preset}"), "over-create").unwrap();
            // A preset with a recipe of its own: the page offers no switch that
            // writes a line of the built-in recipe, so its URL carries none.
            if base.scenario.controller.recipe.is_some() {
                unique.retain(|(k, _)| !cachescope::scenario::recipe::WRITTEN_BY_RECIPE.iter().any(|(w, _)| w == k));
            }
            // Nor "Wait for cache sync" for a controller-runtime operator, which always waits.
            if base.scenario.controller.runtime() == cachescope::sim::settings::RuntimeKind::ControllerRuntime {
                unique.retain(|(k, _)| k != "controller.wait_for_cache_sync");
            }
            if whole {
                // The scenario given whole, as an import leaves it: it travels packed (z=).
                base.custom = Some(base.scenario.to_value().to_string());
                base.preset = None;
            }
            let scenario = base.scenario.with_settings(unique.iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap();
            let speed = cachescope::view::url::parse_query(
                &format!("speed={}", cachescope::view::url::format_speed(speed_of_step(step))), "over-create"
            ).unwrap().speed;
            // The lesson and its step, where the scenario has one.
            let steps = scenario.lesson.len();
            let lesson = lesson_step.filter(|_| steps > 0).map(|n| n % steps.max(1));
            let layout = cachescope::view::url::Layout { panels, controls, autoplay, origin: origin.map(str::to_string), lesson, compare: None };
            let state = cachescope::view::url::PageState { scenario, settings: unique, frame, speed, embed, layout, gc_steps, ..base };
            let q = encode(&state);
            prop_assert_eq!(q.contains("z="), whole);
            let back = parse_query(&q, "over-create").map_err(|e| TestCaseError::fail(format!("{q}: {e}")))?;
            prop_assert_eq!(&back, &state, "{}", q);
            prop_assert_eq!(encode(&back), q);
        }
    }
}

proptest! {
    #![proptest_config(config(48))]

    /// The Pod informer's count of each ReplicaSet's active pods, kept as its
    /// store changes (events, a DeltaFIFO's pops, a LIST's Replace, pods going
    /// Terminating), is at every frame the scan `FilterActivePods` would make.
    #[test]
    fn the_informers_active_count_is_the_scan(
        seed in any::<u64>(),
        lag_ms in 0u64..3_000,
        grace_ms in prop_oneof![Just(0u64), 100u64..3_000],
        fifo in prop_oneof![Just("atomic"), Just("delta")],
        watch_timeout_ms in prop_oneof![Just(0u64), 1_500u64..6_000],
        replicas in 1u32..12,
    ) {
        use cachescope::sim::object::Kind;
        use cachescope::sim::world::World;
        let s = preset("replicaset-pressure").unwrap().with_settings([
            ("seed", seed.to_string().as_str()),
            ("cluster.watch_lag_ms", lag_ms.to_string().as_str()),
            ("cluster.pod_grace_period_ms", grace_ms.to_string().as_str()),
            ("cluster.watch_timeout_ms", watch_timeout_ms.to_string().as_str()),
            ("controller.fifo", fifo),
            ("actions.0.apply.replicas", replicas.to_string().as_str()),
            ("until_ms", "15000"),
        ]).unwrap();
        let mut world = World::new(s.world_init());
        let mut checked = 0;
        while let Some(frame) = world.step() {
            let Some(pods) = world.controller_informer(Kind::Pod) else { continue };
            let owners: Vec<u64> = world.controller_informer(Kind::ReplicaSet).into_iter().flat_map(|i| i.list().map(|rs| rs.uid)).collect();
            for uid in owners {
                let scanned = pods.list().filter(|p| !p.is_terminating() && p.controller_ref().is_some_and(|r| r.uid == uid)).count() as u32;
                prop_assert_eq!(pods.active_controlled_by(uid), scanned, "frame {}", frame.n);
                checked += 1;
            }
        }
        prop_assert!(checked > 0, "a ReplicaSet was cached at some frame");
    }
}

proptest! {
    #![proptest_config(config(32))]

    /// What each row's slot says is in flight for it (`Informer::pending`, one
    /// pass over the wire for every object) is, at every frame, what walking
    /// the wire for that one object finds: its newest event not lost, due at
    /// its delivery, or at the bookmark that ends a watch-list's stream.
    #[test]
    fn pending_for_every_object_is_the_walk_for_each(
        seed in any::<u64>(),
        lag_ms in 0u64..3_000,
        jitter_ms in 0u64..400,
        watch_list in any::<bool>(),
        lose_bookmark in any::<bool>(),
    ) {
        use cachescope::sim::informer::ListState;
        use cachescope::sim::object::Kind;
        use cachescope::sim::world::World;
        let name = if lose_bookmark { "lost-bookmark" } else { "replicaset-pressure" };
        let s = preset(name).unwrap().with_settings([
            ("seed", seed.to_string().as_str()),
            ("cluster.watch_lag_ms", lag_ms.to_string().as_str()),
            ("cluster.watch_jitter_ms", jitter_ms.to_string().as_str()),
            ("controller.watch_list", if watch_list || lose_bookmark { "true" } else { "false" }),
            ("until_ms", "20000"),
        ]).unwrap();
        let mut world = World::new(s.world_init());
        let mut pending_seen = 0;
        while let Some(frame) = world.step() {
            let lag = world.cluster.watch_lag_ms;
            for kind in Kind::ALL {
                let Some(inf) = world.controller_informer(kind) else { continue };
                let wire = inf.in_flight(lag);
                let streaming = matches!(inf.state(), ListState::Streaming { .. });
                let all = inf.pending(lag);
                for o in world.api.objects_of(kind) {
                    let walked = wire.iter().rev().find(|(e, _)| !e.dropped && !e.bookmark && e.object.namespace == o.namespace && e.object.name == o.name).and_then(|(e, at)| {
                        if !streaming {
                            return Some((e.event_type, *at));
                        }
                        wire.iter().find(|(e, _)| e.bookmark && e.initial && !e.dropped).map(|(_, end)| (e.event_type, *end))
                    });
                    pending_seen += usize::from(walked.is_some());
                    prop_assert_eq!(all.get(&o.namespace, &o.name), walked, "frame {}: {}", frame.n, o.name);
                    prop_assert_eq!(inf.pending_for(&o.key(), lag), walked);
                }
            }
        }
        prop_assert!(pending_seen > 0, "some object had an event in flight");
    }
}
