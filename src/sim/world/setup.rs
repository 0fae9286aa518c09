//! The settings glue: a world built from its [`WorldInit`], and a knob
//! turned during the run, written into the settings field its path names.

use super::collector::GarbageCollector;
use super::input::WorldInit;
use super::runtime::Runtime;
use super::state::{Beside, World};
use super::timer::{Start, Timer};
use crate::sim::apiserver::{Actor, ApiServer, Request};
use crate::sim::controllers::Caches;
use crate::sim::invariants::Invariants;
use crate::sim::object::{ObjectKey, MAX_KINDS};
use crate::sim::rng::Rng;
use crate::sim::settings::Knob;
use std::collections::BinaryHeap;
use std::rc::Rc;

impl World {
    pub fn new(init: WorldInit) -> World {
        let mut world = World {
            seed: init.seed,
            until_ms: init.until_ms,
            frame_limit: init.frame_limit,
            object_limit: init.object_limit,
            now_ms: 0,
            frames: 0,
            rng: Rng::new(init.seed),
            api: ApiServer::new(),
            ctl: Runtime::new(&init.controller, &init.cluster),
            gc: GarbageCollector::new(Caches::new(&init.kinds)),
            timers: BinaryHeap::new(),
            timer_seq: 0,
            requests_in_flight: 0,
            actions: Rc::new(init.actions),
            counts: Vec::new(),
            invariants: Invariants::with(&init.invariants),
            violations: Vec::new(),
            faults: Vec::new(),
            schedule: Rc::new(init.schedule),
            events_sent: [0; MAX_KINDS],
            takes: Rc::new(init.takes),
            keys_taken: 0,
            peer: None,
            lease: None,
            next_epoch: 0,
            frame_replica: None,
            promote: false,
            beside: (0..init.controller.alongside.len())
                .map(|i| {
                    let controller = init.controller.beside(i);
                    Beside { spec: controller.spec(), ctl: Runtime::new(&controller, &init.cluster), controller }
                })
                .collect(),
            frame_beside: None,
            cluster: init.cluster,
            spec: init.controller.spec(),
            kinds: init.kinds.into(),
            controller: init.controller,
        };
        world.api.pod_grace_period_ms = world.cluster.pod_grace_period_ms;
        // A recipe that counts against a number of its own: the invariants count against it too.
        let recipes = world.controller.recipe.iter().chain(&world.controller.alongside);
        world.invariants.counted_against = recipes
            .filter_map(|r| {
                r.ops.iter().find_map(|op| match op {
                    crate::sim::recipe::Op::Count { desired: Some(n), .. } => Some((r.owner, *n)),
                    _ => None,
                })
            })
            .collect();
        // The objects that were there before: committed silently.
        for t in &init.objects {
            let mut t = t.clone();
            // A seed's ownerReference names an object created before it: its UID now.
            for r in Rc::make_mut(&mut t.owner_references) {
                if r.uid == 0 {
                    r.uid = world.api.get(r.kind, &ObjectKey::new(t.namespace.clone(), r.name.clone())).map_or(0, |o| o.uid);
                }
            }
            world.api.handle(&Request::create(Actor::Kubectl, t), 0, &mut world.rng);
        }
        // The garbage collector has been running all along: its caches are synced.
        for inf in &mut world.gc.caches.informers {
            inf.start_list(0);
            inf.listed(world.api.list_all(inf.kind), world.api.resource_version(), 0, 0);
            inf.fill(0);
        }
        if world.controller.instances >= 2 {
            let mut b = world.ctl.clone();
            b.replica = 1;
            world.peer = Some(b);
        }
        world.set_timer(0, Timer::Start(Start::First));
        if world.cluster.bookmark_ms > 0 {
            let at = world.next_bookmark_ms();
            world.set_timer(at, Timer::Bookmark);
        }
        if world.peer.is_some() {
            world.set_timer(0, Timer::StartPeer);
        }
        for i in 0..world.beside.len() {
            world.set_timer(0, Timer::StartBeside(i as u8));
        }
        for (i, a) in world.actions.clone().iter().enumerate() {
            world.set_timer(a.at_ms, Timer::Action(i));
        }
        let times: Vec<(usize, u64)> = world.invariants.liveness_times().collect();
        for (i, by_ms) in times {
            world.set_timer(by_ms, Timer::Liveness(i));
        }
        world
    }

    /// Change a knob now: its value goes into the settings field its path
    /// names. The watch lag moves events already on the wire too (a delivery
    /// time is computed from the current lag); the controller's switches
    /// apply from its next reconcile.
    pub fn set_knob(&mut self, knob: Knob) {
        let set = match knob.path.split_once('.') {
            Some(("cluster", field)) => self.cluster.set(field, knob.value),
            Some(("controller", field)) => self.controller.set(field, knob.value),
            _ => false,
        };
        debug_assert!(set, "{knob:?} names no setting of its type");
    }

    /// From one BOOKMARK to the next: the beat, and a seeded delay up to
    /// `bookmark_jitter_ms` (none drawn when it is 0, so a run without it
    /// makes the same draws as before it existed).
    pub(super) fn next_bookmark_ms(&mut self) -> u64 {
        let jitter = self.cluster.bookmark_jitter_ms;
        self.cluster.bookmark_ms + if jitter > 0 { self.rng.up_to(jitter) } else { 0 }
    }
}
