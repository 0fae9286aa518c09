//! What the history's checkpoints cost: `World::weight`, the estimate the
//! history bounds them by, against what a clone of a world really allocates
//! (counted by the benchmark's allocator, installed in this test binary).

use cachescope::bench::{live_bytes, CountingAllocator};
use cachescope::scenario::preset;
use cachescope::sim::world::World;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Bytes allocated by a clone of `world`. The allocator counts each
/// thread's own allocations, and each test runs on a thread of its own: what
/// the other tests allocate meanwhile is not counted here.
fn clone_bytes(world: &World) -> usize {
    let before = live_bytes();
    let copy = world.clone();
    let after = live_bytes();
    drop(copy);
    after - before
}

#[test]
fn a_worlds_weight_is_what_its_clone_allocates_within_a_factor_of_two() {
    for (name, settings) in [
        ("over-create", vec![]),
        ("empty-cache", vec![]),
        ("replicaset-pressure", vec![("actions.0.apply.replicas", "1000"), ("cluster.client_qps", "0")]),
    ] {
        let s = preset(name).unwrap().with_settings(settings).unwrap();
        let mut world = World::new(s.world_init());
        for checkpoint in 0..6 {
            for _ in 0..2_000 {
                if world.step().is_none() {
                    break;
                }
            }
            let (estimate, real) = (world.weight(), clone_bytes(&world));
            println!("{name} at checkpoint {checkpoint}: weight {estimate} B, clone {real} B");
            assert!(estimate * 2 >= real && estimate <= real * 2, "{name}: weight {estimate} B against {real} B allocated");
        }
    }
}

/// The schedule search holds at most `BYTES_PER_STATE` per state of its
/// budget (plus its worlds), however many `--late` choices it has: the
/// frontier is never a queue of every choice. Before, with a queue, 50 late
/// values on replicaset-pressure peaked at 0.6 GB and 200 aborted.
#[test]
fn the_search_holds_at_most_its_bytes_per_state_whatever_the_late_values() {
    use cachescope::bench::{peak_bytes, reset_peak};
    use cachescope::explore::{explore, Options, BYTES_PER_STATE};
    use cachescope::scenario::limits;
    let s = preset("replicaset-pressure").unwrap();
    let most = limits::get("--late").max;
    let late_ms: Vec<u64> = (0..most).map(|i| 500 + 700 * i).collect();
    let budget = 400_000;
    let o = Options { max_deviations: 2, budget, late_ms, ..Options::default() };
    o.check(&s).expect("the most late values the table allows");
    let before = live_bytes();
    reset_peak();
    let found = explore(&s, &o);
    let peak = peak_bytes() - before;
    // What one run of the scenario holds at once (its world, its frames' passing allocations).
    let world = 16 << 20;
    let ceiling = BYTES_PER_STATE as usize * budget as usize + world;
    println!("explore with {most} late values, budget {budget}: {} states, peak {peak} B, ceiling {ceiling} B", found.states);
    assert_eq!(found.states, budget, "the budget, not the queue, ends it");
    assert!(peak <= ceiling, "peak {peak} B over the ceiling {ceiling} B");
}
