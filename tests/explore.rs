//! The schedule explorer (`cachescope explore`): it finds the shortest
//! schedules that break an invariant where the default schedule is clean,
//! its counterexamples replay exactly, and where it finds nothing it says so
//! for a bounded search.

use cachescope::explore::{counterexample, explore, Options};
use cachescope::report::Report;
use cachescope::scenario::{preset, Scenario};
use proptest::prelude::*;

fn over_create_at_lag_0() -> Scenario {
    preset("over-create").unwrap().with_settings([("controller.naming", "generate"), ("cluster.watch_lag_ms", "0")]).unwrap()
}

fn children_within_desired(max_deviations: usize) -> Options {
    Options { invariant: Some("children_within_desired".into()), max_deviations, ..Options::default() }
}

#[test]
fn a_generate_name_over_create_at_lag_0_is_one_late_event_away() {
    let s = over_create_at_lag_0();
    let clean = Report::run(&s);
    assert!(clean.invariants["children_within_desired"].held, "the default schedule is clean at lag 0");
    let found = explore(&s, &children_within_desired(2));
    let v = found.violation.expect("a violation");
    assert_eq!(v.deviations, 1, "one late event is enough, and breadth-first finds the shortest");
    assert_eq!(v.schedule.len(), 1);
    assert_eq!(v.schedule[0].kind.to_string(), "ConfigMap");
    // The counterexample, written as a scenario, replays to the same invariant at the same frame.
    let c = counterexample(&s, &v).unwrap();
    // Its first caption is what was found, in one line within the start line's limit.
    assert_eq!(
        c.start,
        format!("Press ▶: children_within_desired breaks at frame {} when the 1st ConfigMap event arrives 1.0 s late.", v.frame)
    );
    let replayed = Report::run(&Scenario::from_json(&c.to_value().to_string()).unwrap());
    assert_eq!(replayed.invariants["children_within_desired"].first_broken_frame, Some(v.frame));
    assert!(replayed.peak_live["ConfigMap"] > 4, "{:?}", replayed.peak_live);
    // The held-back event says so when it arrives, by how much.
    let mut world = cachescope::sim::world::World::new(c.world_init());
    let held: Vec<String> = std::iter::from_fn(|| world.step())
        .filter(
            |f| matches!(f.event, cachescope::sim::frame::Event::WatchDelivered { held_ms, .. } if Some(held_ms) == v.schedule[0].late_ms),
        )
        .map(|f| cachescope::narrate::caption(&f))
        .collect();
    assert_eq!(held.len(), 1, "{held:?}");
    assert!(held[0].contains("held back by this run's schedule"), "{}", held[0]);
}

#[test]
fn a_search_reports_progress_and_stops_when_told() {
    let s = preset("replicaset-pressure").unwrap();
    let mut calls = Vec::new();
    let found =
        cachescope::explore::explore_with(&s, &Options { max_deviations: 2, budget: 10_000_000, ..children_within_desired(2) }, &mut |e| {
            calls.push(e.states);
            calls.len() < 5
        });
    assert_eq!(calls.len(), 5);
    assert!(calls.windows(2).all(|w| w[1] - w[0] == cachescope::explore::PROGRESS_EVERY), "{calls:?}");
    assert!(found.stopped && !found.complete);
    assert_eq!(found.states, 5 * cachescope::explore::PROGRESS_EVERY);
}

#[test]
fn the_replicaset_with_expectations_never_over_creates_within_the_bound() {
    let s = preset("replicaset-pressure").unwrap();
    let found = explore(&s, &Options { max_deviations: 1, budget: 3_000_000, ..children_within_desired(1) });
    assert_eq!(found.violation, None);
    assert!(found.complete, "every schedule within the bound was searched");
    assert!(found.explored > 50, "{} schedules", found.explored);
}

#[test]
fn the_consistency_store_holds_where_its_absence_breaks() {
    let on = preset("staleness-mitigation").unwrap().with_settings([("cluster.watch_lag_ms", "0")]).unwrap();
    let found = explore(&on, &children_within_desired(2));
    assert_eq!(found.violation, None, "no over-create with the store on");
    assert!(found.complete);
    let off = on.with_settings([("controller.consistency_store", "false")]).unwrap();
    assert!(explore(&off, &children_within_desired(2)).violation.is_some(), "the same search breaks it with the store off");
}

#[test]
fn a_lost_event_fools_the_consistency_store() {
    // The store compares resourceVersions: a later event moves the cache's past
    // the controller's write, so a lost ADDED before it goes unnoticed. A real
    // watch never loses one silently (it ends, and the relist repairs the cache),
    // which is what KEP-5647 relies on; the explorer shows it only when asked.
    let on = preset("staleness-mitigation").unwrap().with_settings([("cluster.watch_lag_ms", "0")]).unwrap();
    let found = explore(&on, &Options { drops: true, ..children_within_desired(1) });
    let v = found.violation.expect("a lost event breaks it");
    assert_eq!((v.deviations, v.schedule.len()), (1, 1));
    assert!(v.schedule[0].drop, "{:?}", v.schedule);
    let replayed = Report::run(&counterexample(&on, &v).unwrap());
    assert_eq!(replayed.invariants["children_within_desired"].first_broken_frame, Some(v.frame));
    assert_eq!(replayed.peak_live["ConfigMap"], 5);
}

#[test]
fn a_bad_schedule_is_refused_naming_the_field() {
    let mut v = over_create_at_lag_0().to_value();
    v["schedule"] = serde_json::json!([{"kind": "Pod", "nth": 1, "late_ms": 5}]);
    assert_eq!(Scenario::from_value(v.clone()).unwrap_err().field, "schedule[0].kind");
    v["schedule"] = serde_json::json!([{"kind": "ConfigMap", "nth": 0, "late_ms": 5}]);
    assert_eq!(Scenario::from_value(v).unwrap_err().field, "schedule[0].nth");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// A run with a schedule replays exactly: the same trace hash twice (the
    /// wasm goldens hold the same for the page, tests/determinism.rs).
    #[test]
    fn a_random_schedule_replays_to_the_same_trace(entries in proptest::collection::vec((1u32..12, 0u8..4, 1u64..8_000), 0..4)) {
        let mut s = over_create_at_lag_0();
        let kind = cachescope::sim::object::Kind::ConfigMap;
        s.schedule = entries.iter().map(|&(nth, form, ms)| {
            let late = cachescope::sim::world::Deviation::late(kind, nth, ms);
            match form {
                0 => late,
                1 => cachescope::sim::world::Deviation { late_ms: None, at_ms: Some(ms), ..late },
                2 => cachescope::sim::world::Deviation { late_ms: None, hold: true, ..late },
                _ => cachescope::sim::world::Deviation { late_ms: None, drop: true, ..late },
            }
        }).collect();
        s.schedule.sort_by_key(|d| d.nth);
        s.schedule.dedup_by_key(|d| d.nth);
        let a = Report::run(&s);
        let b = Report::run(&Scenario::from_json(&s.to_value().to_string()).unwrap());
        prop_assert_eq!(a.trace_hash, b.trace_hash);
    }
}

#[test]
fn with_wait_for_cache_sync_the_pruner_still_deletes_a_create_whose_added_is_late() {
    // Lab 2's second rule: absent from the cache is not absent from the cluster.
    let s = preset("absent-from-cache").unwrap().with_settings([("cluster.watch_lag_ms", "0")]).unwrap();
    let clean = Report::run(&s);
    assert!(clean.invariants["no_delete_of_uncached"].held, "with no lag, the default schedule deletes nothing");
    assert_eq!(clean.api_count("delete", 200), 0);
    let found = explore(&s, &Options { invariant: Some("no_delete_of_uncached".into()), ..Options::default() });
    let v = found.violation.expect("a violation");
    assert_eq!(v.deviations, 1);
    let replayed = Report::run(&counterexample(&s, &v).unwrap());
    assert_eq!(replayed.invariants["no_delete_of_uncached"].first_broken_frame, Some(v.frame));
    assert_eq!(replayed.api_count("delete", 200), 1, "late-1, and only it");
}

/// The pruning is sound: a search that stops each run at a state already
/// explored (`World::fingerprint`, derived from the whole state) finds what
/// the search without pruning finds, at the same number of deviations, on
/// every preset, as written and with no lag (where the default schedule is
/// mostly clean), with and without lost events. Small bounds (one deviation,
/// one lateness), so both searches complete or find.
#[test]
fn the_pruned_search_agrees_with_the_exhaustive_one_on_every_preset() {
    let (mut found, mut one_away, mut searched) = (0, 0, 0);
    for (name, _) in cachescope::scenario::PRESETS {
        let as_written = preset(name).unwrap();
        let no_lag = as_written.clone().with_settings([("cluster.watch_lag_ms", "0")]).unwrap();
        for (variant, s) in [("as written", as_written), ("lag 0", no_lag)] {
            for drops in [false, true] {
                let o = Options { max_deviations: 1, budget: 400_000, late_ms: vec![2_000], drops, ..Options::default() };
                let pruned = explore(&s, &o);
                let exhaustive = explore(&s, &Options { exhaustive: true, ..o.clone() });
                let case = format!("{name} ({variant}, drops: {drops})");
                for (search, e) in [("pruned", &pruned), ("exhaustive", &exhaustive)] {
                    assert!(e.complete || e.violation.is_some(), "{case}: the {search} search ran out of budget at {} states", e.states);
                }
                let verdict = |e: &cachescope::explore::Exploration| e.violation.as_ref().map(|v| (v.invariant.clone(), v.deviations));
                assert_eq!(verdict(&pruned), verdict(&exhaustive), "{case}");
                assert!(exhaustive.states >= pruned.states, "{case}: pruning never searches more");
                found += usize::from(pruned.violation.is_some());
                one_away += usize::from(pruned.violation.as_ref().is_some_and(|v| v.deviations == 1));
                searched += 1;
            }
        }
    }
    assert_eq!(searched, 4 * cachescope::scenario::PRESETS.len());
    assert!(found > 0 && found < searched, "some searches find a violation and some do not ({found} of {searched})");
    assert!(one_away > 0, "some need a deviation, so the two searches differ in what they run");
}

/// What the hand-picked fingerprint once left out, each changed alone, makes
/// another state: the derived one leaves out only what it names (`impl Hash
/// for World`, where a new field does not compile until it is hashed or skipped).
#[test]
fn the_fingerprint_sees_expectations_the_queue_and_the_lease() {
    use cachescope::sim::world::{Lease, World};
    let world = World::new(preset("replicaset-pressure").unwrap().world_init());
    let base = world.fingerprint();
    assert_eq!(base, world.clone().fingerprint(), "a clone is the same state");
    type Change = (&'static str, fn(&mut World));
    let changes: [Change; 3] = [
        ("an expectation", |w| w.ctl.expectations.expect_creations("default/web", 3, 0)),
        ("a queued key", |w| {
            w.ctl.queue.add("default/web".into());
        }),
        ("a lease", |w| w.lease = Some(Lease { holder_epoch: 1, renewed_at_ms: 0 })),
    ];
    for (what, change) in changes {
        let mut changed = world.clone();
        change(&mut changed);
        assert_ne!(changed.fingerprint(), base, "{what}");
    }
}

/// A counterexample keeps of its scenario's words only what its own run
/// holds to: the checks that apply and hold, the lesson if it holds whole.
/// Written for the run without the schedule, they were kept as they were
/// (`check` failed on a third of a campaign's counterexamples).
#[test]
fn a_counterexample_says_only_what_its_run_holds_to() {
    let (mut written, mut dropped) = (0, 0);
    for (name, _) in cachescope::scenario::PRESETS {
        let as_written = preset(name).unwrap();
        let no_lag = as_written.clone().with_settings([("cluster.watch_lag_ms", "0")]).unwrap();
        for s in [as_written, no_lag] {
            let o = Options { max_deviations: 1, budget: 400_000, late_ms: vec![2_000], ..Options::default() };
            let Some(v) = explore(&s, &o).violation else { continue };
            let Ok(c) = cachescope::view::lesson::counterexample(&s, &v) else { continue };
            written += 1;
            let report = Report::run(&c).with_lesson(cachescope::view::lesson::verify(&c));
            for e in &report.expectations {
                assert!(e.held, "{name}'s counterexample keeps a check its run contradicts: {} ({e:?})", e.text);
            }
            assert_eq!(report.lesson_error, None, "{name}'s counterexample keeps a lesson its run contradicts");
            assert_eq!(report.invariants[&v.invariant].first_broken_frame, Some(v.frame), "{name}: it still replays the break");
            assert!(c.expect.len() <= s.expect.len() && (c.lesson.is_empty() || c.lesson == s.lesson));
            dropped += s.expect.len() - c.expect.len() + usize::from(c.lesson.len() < s.lesson.len());
        }
    }
    assert!(written >= 6, "{written} counterexamples written");
    assert!(dropped > 0, "some preset's words do not hold of its counterexample, and are left out");
}
