//! What the history's checkpoints cost: `World::weight`, the estimate the
//! history bounds them by, against what a clone of a world really allocates
//! (counted by the benchmark's allocator, installed in this test binary).

use cachescope::bench::{live_bytes, CountingAllocator};
use cachescope::scenario::preset;
use cachescope::sim::world::World;

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Bytes allocated by a clone of `world` (other tests' threads may add a
/// little; the bounds below are loose enough for that).
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
