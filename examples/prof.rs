use cachescope::sim::world::World;
fn main() {
    let s = cachescope::bench::pressure_scenario();
    let mut best = f64::MAX;
    let mut frames = 0;
    for _ in 0..3 {
        let mut w = World::new(s.world_init());
        let t = std::time::Instant::now();
        let mut n = 0u64;
        while w.step().is_some() {
            n += 1;
        }
        best = best.min(t.elapsed().as_secs_f64());
        frames = n;
    }
    println!("{frames} frames, {:.0} ev/s", frames as f64 / best);
}
