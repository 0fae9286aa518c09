//! The benchmark's simulated-events figure alone, to profile it:
//! `cargo build --profile bench-native --example prof && perf record -g target/bench-native/examples/prof 20`.
//! It installs the runner's counting allocator, as `cachescope bench` runs
//! under it, so the figure is the one `make bench` prints.

#[global_allocator]
static ALLOCATOR: cachescope::bench::CountingAllocator = cachescope::bench::CountingAllocator;

use cachescope::sim::world::World;

fn main() {
    let runs: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let scenario = cachescope::bench::pressure_scenario();
    let mut best = f64::MAX;
    let mut frames = 0u64;
    for _ in 0..runs {
        let mut world = World::new(scenario.world_init());
        let t = std::time::Instant::now();
        frames = 0;
        while world.step().is_some() {
            frames += 1;
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{frames} frames, best of {runs}: {:.1} ms, {:.0} events/s", best * 1e3, frames as f64 / best);
}
