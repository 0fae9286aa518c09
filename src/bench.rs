//! Benchmark figures for `make bench`, one `name: value unit` per line.
//!
//! Native only: it reads the wall clock, which the simulation never does.

use crate::scenario::{preset, Scenario};
use crate::sim::history::History;
use crate::sim::world::World;
use std::io::Write;
use std::time::Instant;

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

/// Print every figure.
pub fn run(out: &mut dyn Write) {
    let scenario = pressure_scenario();

    // Simulated events per second: best of three full runs.
    let mut best = f64::MAX;
    let mut frames = 0;
    for _ in 0..3 {
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
    let _ = writeln!(out, "sim_events_per_s: {:.0} events/s", frames as f64 / best);

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
}
