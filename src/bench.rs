//! Benchmark figures for `make bench`, one `name: value unit` per line.
//!
//! Native only: it reads the wall clock, which the simulation never does.

use crate::scenario::{preset, Scenario};
use crate::sim::history::History;
use crate::sim::world::World;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Write;
use std::time::Instant;

/// The system allocator, counting the bytes live: the runner installs it so
/// the benchmark can print what a history holds, and the fuzzer what a
/// search holds.
///
/// The counts are the allocating thread's own, in plain thread-locals: the
/// figures are read on the thread that made what they measure (the
/// benchmark and every harness run on the main thread; the fuzzer's
/// watchdog thread only sleeps). Shared atomics made every allocation and
/// every free a locked read-modify-write: 4 % of the simulation's time
/// (the benchmark's run read 1.91-1.93 M events/s under them, 1.99-2.01 M
/// under these counts or under the plain system allocator), a cost the
/// runner paid on every command, not only `bench`. A block freed on another
/// thread than the one that allocated it leaves both threads' counts off by
/// its size.
pub struct CountingAllocator;

thread_local! {
    static LIVE_BYTES: Cell<usize> = const { Cell::new(0) };
    static PEAK_BYTES: Cell<usize> = const { Cell::new(0) };
}

/// `n` more bytes live on this thread: the peak follows.
#[inline]
fn grew(n: usize) {
    let now = LIVE_BYTES.get().wrapping_add(n);
    LIVE_BYTES.set(now);
    if now > PEAK_BYTES.get() {
        PEAK_BYTES.set(now);
    }
}

#[inline]
fn shrank(n: usize) {
    LIVE_BYTES.set(LIVE_BYTES.get().wrapping_sub(n));
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrank(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Both blocks are live while the old one is copied into the new.
        grew(new_size);
        shrank(layout.size());
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Bytes live now, as this thread counts them (0 where the counting
/// allocator is not installed).
pub fn live_bytes() -> usize {
    LIVE_BYTES.get()
}

/// The most bytes live at once on this thread since the last [`reset_peak`]
/// (0 where the counting allocator is not installed).
pub fn peak_bytes() -> usize {
    PEAK_BYTES.get()
}

/// Start measuring a peak from the bytes live now.
pub fn reset_peak() {
    PEAK_BYTES.set(live_bytes());
}

/// The pressure benchmark: `replicaset-pressure` at 1,000 replicas, 20 pods
/// deleted per second, for 10 simulated minutes, with no client-side rate
/// limit (so the figures compare with those measured before it existed).
pub fn pressure_scenario() -> Scenario {
    preset("replicaset-pressure")
        .and_then(|s| {
            s.with_settings([
                ("until_ms", "600000"),
                ("cluster.client_qps", "0"),
                ("actions.0.apply.replicas", "1000"),
                ("actions.1.delete_pods.count", "12000"),
                ("actions.1.delete_pods.interval_ms", "50"),
            ])
        })
        .expect("the benchmark scenario is valid")
}

/// Simulated events per second, native, the built-in controllers running
/// as recipes: at least this (issue 37). The page's budgets are
/// tests/bench/page.mjs's `BUDGETS`.
pub const SIM_EVENTS_PER_S_BUDGET: f64 = 2_000_000.0;

/// Print every figure.
pub fn run(out: &mut dyn Write) {
    let scenario = pressure_scenario();

    // Simulated events per second: best of ten full runs. A run is about
    // 80 ms, and on a shared 2-core machine a neighbour's burst slows one
    // run by half: best of three read 1.17-1.49 M on a machine whose quiet
    // runs read 1.9 M, a minute apart. Ten runs, under a second, find a
    // quiet one.
    let mut best = f64::MAX;
    let mut frames = 0;
    for _ in 0..10 {
        let mut world = World::new(scenario.world_init());
        let t = Instant::now();
        let mut n = 0u64;
        while world.step().is_some() {
            n += 1;
        }
        best = best.min(t.elapsed().as_secs_f64());
        frames = n;
    }
    let _ = writeln!(out, "sim_frames: {frames} frames");
    let per_s = frames as f64 / best;
    let _ = writeln!(out, "sim_events_per_s: {per_s:.0} events/s");
    let _ = writeln!(out, "sim_events_per_s_budget: {SIM_EVENTS_PER_S_BUDGET:.0} events/s (at least)");
    if per_s < SIM_EVENTS_PER_S_BUDGET {
        eprintln!("bench: note: sim_events_per_s is {per_s:.0}, under its budget of {SIM_EVENTS_PER_S_BUDGET:.0}");
    }

    // Seek back from frame 100,000 to 99,999.
    let target = 100_000usize;
    let mut history = History::new(World::new(scenario.world_init()));
    let t = Instant::now();
    let reached = history.seek(target);
    let first_pass = t.elapsed().as_secs_f64();
    let _ = writeln!(out, "history_build_to_{reached}_ms: {:.1} ms", first_pass * 1000.0);
    let mut samples = Vec::new();
    for _ in 0..21 {
        history.seek(reached);
        let t = Instant::now();
        history.seek(reached - 1);
        samples.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    let _ = writeln!(out, "seek_back_ms: {:.3} ms", samples[samples.len() / 2]);
    let _ = writeln!(out, "seek_back_max_ms: {:.3} ms", samples[samples.len() - 1]);
    drop(history);

    million_frames(out, &scenario);
    budget(out);
    explorer(out);
}

/// The schedule explorer: how fast it searches, and how soon it finds the
/// generateName over-create at lag 0.
fn explorer(out: &mut dyn Write) {
    use crate::explore::{explore, Options};
    let over = preset("over-create")
        .and_then(|s| s.with_settings([("controller.naming", "generate"), ("cluster.watch_lag_ms", "0")]))
        .expect("valid settings");
    let options = Options { invariant: Some("children_within_desired".into()), ..Options::default() };
    let t = Instant::now();
    let found = explore(&over, &options);
    let _ = writeln!(
        out,
        "explore_first_violation_ms: {:.2} ms ({} schedules, {} states, violation: {})",
        t.elapsed().as_secs_f64() * 1000.0,
        found.explored,
        found.states,
        found.violation.is_some()
    );
    // A search that finds nothing, so its rate is the whole bound's.
    let rs = preset("replicaset-pressure").expect("a preset");
    let t = Instant::now();
    let clean = explore(&rs, &Options { max_deviations: 1, budget: 3_000_000, ..options });
    let secs = t.elapsed().as_secs_f64();
    let _ = writeln!(
        out,
        "explore_states_per_s: {:.0} states/s ({} schedules, {} states)",
        clean.states as f64 / secs,
        clean.explored,
        clean.states
    );
}

/// The work budget's figures: how fast an over-budget scenario is refused,
/// and how long the largest accepted ones take to run to their end.
fn budget(out: &mut dyn Write) {
    const HUGE: &str = r#"{"name":"x","until_ms":86400000,"controller":{"kind":"ensemble"},"objects":[{"kind":"Ensemble","name":"e-{i}","voices":1000,"count":20000}]}"#;
    let t = Instant::now();
    let refused = Scenario::from_json(HUGE).is_err();
    let _ = writeln!(out, "budget_refuse_over_budget_ms: {:.3} ms (refused: {refused})", t.elapsed().as_secs_f64() * 1000.0);
    for (name, text) in crate::scenario::limits::LARGEST_ACCEPTED {
        let s = Scenario::from_json(text).expect("within the budget");
        let t = Instant::now();
        let r = crate::report::Report::run(&s);
        let _ = writeln!(out, "budget_largest_{name}_run_s: {:.2} s ({} frames)", t.elapsed().as_secs_f64(), r.frames);
    }
    for (name, text) in crate::scenario::limits::OVER_AT_RUN_TIME {
        let s = Scenario::from_json(text).expect("within the budget as written");
        let t = Instant::now();
        let r = crate::report::Report::run(&s);
        let objects = r.stopped_at_object_limit.as_ref().map_or(0, |o| o.objects);
        let _ = writeln!(
            out,
            "budget_over_at_run_time_{name}_s: {:.3} s ({} frames, stopped at {objects} objects)",
            t.elapsed().as_secs_f64(),
            r.frames
        );
    }
}

/// A history of 1,000,000 frames of the thousand-pod ReplicaSet (the world's
/// frame limit raised for it): what it holds, and what seeking in it costs.
fn million_frames(out: &mut dyn Write, scenario: &Scenario) {
    const FRAMES: usize = 1_000_000;
    // Pods deleted every 25 ms keep the controller busy past a million
    // frames (at t = 3,210 s): 100,000 from t = 4 s, the most one
    // `delete_pods` takes (780,875 frames), then as many again from where
    // they end, by a copy of that action (the run stops at the millionth).
    let mut long = scenario
        .with_settings([("until_ms", "86400000"), ("actions.1.delete_pods.count", "100000"), ("actions.1.delete_pods.interval_ms", "25")])
        .expect("within the limits")
        .to_value();
    let mut more = long["actions"][1].clone();
    let first_at_ms = more["at_ms"].as_u64().expect("the deletions' start");
    more["at_ms"] = serde_json::json!(first_at_ms + 100_000 * 25);
    long["actions"].as_array_mut().expect("the preset's actions").push(more);
    let long = Scenario::from_json(&long.to_string()).expect("within the limits");
    let mut init = long.world_init();
    init.frame_limit = FRAMES as u64;
    let before = live_bytes();
    let t = Instant::now();
    let mut history = History::new(World::new(init));
    let reached = history.seek(FRAMES);
    let built = t.elapsed().as_secs_f64();
    let held = live_bytes().saturating_sub(before);
    let (checkpoints, weight) = history.checkpoints();
    let frame_bytes = std::mem::size_of_val(history.frames());
    let _ = writeln!(out, "history_frames: {reached} frames in {built:.1} s");
    let _ = writeln!(out, "history_bytes_at_1m_frames: {held} bytes");
    let _ = writeln!(
        out,
        "history_checkpoints_at_1m_frames: {checkpoints} checkpoints, {weight} bytes by weight, every {} frames",
        history.interval()
    );
    let _ = writeln!(out, "history_frame_vec_bytes_at_1m_frames: {frame_bytes} bytes (the frames' own heap besides)");
    // The ceiling docs/scenarios.md states: about 460 bytes a frame, plus the checkpoints' bound.
    let ceiling = reached * 460 + crate::sim::history::CHECKPOINT_BYTES;
    let _ = writeln!(out, "history_ceiling_at_1m_frames: {ceiling} bytes (460 B a frame + 192 MiB; held within it: {})", held <= ceiling);
    // Seeks to spread targets, as a learner dragging the timeline makes them.
    let mut samples = Vec::new();
    let mut target = 7_919usize;
    for _ in 0..64 {
        target = (target * 7_919 + 104_729) % reached.max(1);
        let t = Instant::now();
        history.seek(target);
        samples.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    let _ = writeln!(out, "seek_at_1m_frames_median_ms: {:.3} ms", samples[samples.len() / 2]);
    let _ = writeln!(out, "seek_at_1m_frames_max_ms: {:.3} ms", samples[samples.len() - 1]);
}
