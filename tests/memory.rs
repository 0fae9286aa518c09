//! What the history's checkpoints cost: `World::weight`, the estimate the
//! history bounds them by, against what a clone of a world really allocates
//! (counted by this test binary's allocator).

use cachescope::scenario::preset;
use cachescope::sim::world::World;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes allocated by a clone of `world` (other tests' threads may add a
/// little; the bounds below are loose enough for that).
fn clone_bytes(world: &World) -> usize {
    let before = ALLOCATED.load(Ordering::Relaxed);
    let copy = world.clone();
    let after = ALLOCATED.load(Ordering::Relaxed);
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
