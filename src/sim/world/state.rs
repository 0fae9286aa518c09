//! The world's state: every field of [`World`], and what is computed from
//! all of it (the explorer's fingerprint, a clone's weight). A leaf: it
//! imports only the world's other leaves, and every file that adds to
//! `World` imports it.

use super::collector::GarbageCollector;
use super::in_flight::SentBy;
use super::input::{Action, Armed, Deviation};
use super::lease::Lease;
use super::runtime::Runtime;
use super::timer::Scheduled;
use crate::sim::apiserver::{ApiServer, Verb};
use crate::sim::frame::Violation;
use crate::sim::invariants::Invariants;
use crate::sim::object::{Kind, MAX_KINDS};
use crate::sim::rng::Rng;
use crate::sim::settings::{ClusterSettings, ControllerSettings};
use crate::sim::spec::ControllerSpec;
use std::collections::BinaryHeap;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// The simulated cluster and controller.
#[derive(Debug, Clone)]
pub struct World {
    pub cluster: ClusterSettings,
    pub controller: ControllerSettings,
    /// The controller, as data (`controller.spec()`, kept: a recipe over kinds of the scenario's own asks a table for it).
    pub spec: &'static ControllerSpec,
    /// Every kind of the run: the built-ins, then the scenario's own.
    pub kinds: Rc<[Kind]>,
    pub seed: u64,
    pub until_ms: u64,
    pub frame_limit: u64,
    pub object_limit: u64,
    pub(super) now_ms: u64,
    pub(super) frames: u64,
    pub(super) rng: Rng,
    pub api: ApiServer,
    pub ctl: Runtime,
    pub gc: GarbageCollector,
    /// What is due, earliest first, ties in the order they were set.
    pub(super) timers: BinaryHeap<Scheduled>,
    pub(super) timer_seq: u64,
    /// Requests on their way (they ride in the timers).
    pub(super) requests_in_flight: usize,
    pub(super) actions: Rc<Vec<Action>>,
    /// Requests by (kind, verb, status, sent by the controller): a short list, searched linearly.
    pub(super) counts: Vec<((Kind, Verb, u16, SentBy), u64)>,
    pub invariants: Invariants,
    /// Violations found since the last frame: the next frame carries them.
    pub(super) violations: Vec<Violation>,
    /// Failures armed for the controller's next requests (`fail_next`), each used once.
    pub(super) faults: Vec<Armed>,
    /// The schedule's deviations, and the watch events sent so far by kind (`Kind::index`).
    pub(super) schedule: Rc<Vec<Deviation>>,
    pub events_sent: [u32; MAX_KINDS],
    /// The schedule's worker choices, and the keys taken from the workqueue so far.
    pub(super) takes: Rc<Vec<(u32, u32)>>,
    pub keys_taken: u32,
    /// The second replica of the controller (`controller.instances: 2`): a
    /// standby, or a former leader that has not noticed yet. `ctl` is the
    /// replica that last acquired the lease.
    pub peer: Option<Runtime>,
    /// The leader-election lease, when there are two replicas.
    pub lease: Option<Lease>,
    /// Epochs are unique across replicas and restarts: a timer or a response
    /// names its process by epoch.
    pub(super) next_epoch: u32,
    /// The replica whose code made the frame being stepped, if not `ctl`.
    pub(super) frame_replica: Option<u8>,
    /// The replica running as `ctl` just took the lease: it stays `ctl`.
    pub(super) promote: bool,
    /// The controllers beside the recipe (`controller.alongside`), each a
    /// process of its own, run as `ctl` while its code runs (`as_beside`).
    pub beside: Vec<Beside>,
    /// The controller beside the recipe whose code made the frame being stepped (its index), if not `ctl`'s.
    pub(super) frame_beside: Option<u8>,
}

/// A controller beside the recipe: its settings (its recipe in place of
/// the primary's), its wiring and its process.
#[derive(Debug, Clone, Hash)]
pub struct Beside {
    pub controller: ControllerSettings,
    pub spec: &'static ControllerSpec,
    pub ctl: Runtime,
}

impl World {
    /// A fingerprint of the world's state, for the schedule explorer's
    /// pruning: the hash of every field of its state ([`Hash for World`](#impl-Hash-for-World)
    /// names the few it skips, and why). Two runs of one scenario at the same
    /// fingerprint, with the same deviations still ahead, have the same future.
    pub fn fingerprint(&self) -> u64 {
        let mut h = rustc_hash::FxHasher::default();
        self.hash(&mut h);
        h.finish()
    }

    /// About how many bytes a clone of the world holds: what a checkpoint of
    /// it costs ([`super::history::Model::weight`]). Objects are shared, so a
    /// stored object costs a pointer on a shelf (the apiserver's store and
    /// each informer's, with a shelf's spare room), an event in flight its
    /// record on the wire; the rest is a few kilobytes. `tests/memory.rs`
    /// holds it to what a clone allocates.
    pub fn weight(&self) -> usize {
        const BASE: usize = 3 << 10;
        const PER_STORED: usize = std::mem::size_of::<crate::sim::object::ObjectRc>() * 3 / 2;
        const PER_IN_FLIGHT: usize = std::mem::size_of::<crate::sim::informer::InFlight>() * 3 / 2;
        let api: usize = self.kinds.iter().map(|k| self.api.count(*k)).sum();
        let caches = [Some(&self.ctl.caches), self.peer.as_ref().map(|p| &p.caches), Some(&self.gc.caches)];
        let beside = self.beside.iter().map(|b| &b.ctl.caches);
        let informers = caches.into_iter().flatten().chain(beside).flat_map(|c| &c.informers);
        // A count by label: its entry and its two short strings.
        const PER_LABEL_COUNT: usize = std::mem::size_of::<(String, String, u32, u32)>() + 32;
        let (stored, in_flight, counted) =
            informers.fold((0, 0, 0), |(s, f, c), i| (s + i.len(), f + i.in_flight_len(), c + i.labels_counted()));
        BASE + PER_STORED * (api + stored) + PER_IN_FLIGHT * in_flight + PER_LABEL_COUNT * counted
    }
}

/// The world's state, as the explorer's fingerprint sees it. Every field is
/// named (no `..`), so a new one does not compile until it is hashed or
/// skipped here with its reason; the types below derive `Hash` whole.
impl Hash for World {
    fn hash<H: Hasher>(&self, h: &mut H) {
        let World {
            cluster,
            controller,
            spec: _,  // `controller.spec()`: hashed as `controller`.
            kinds: _, // The scenario's, the same in every run the explorer compares.
            seed,
            until_ms,
            frame_limit,
            object_limit,
            now_ms,
            frames,
            rng,
            api,
            ctl,
            gc,
            timers,
            timer_seq: _, // How many timers were ever set: the pending ones' order, hashed below, is what it decides.
            requests_in_flight,
            actions: _, // The scenario's, the same in every run the explorer compares.
            counts: _,  // The audit log's tallies, for the report: what was sent, not what will be.
            invariants,
            violations,
            faults,
            schedule: _, // The explorer varies it: `explore` hashes the deviations still ahead beside this.
            events_sent,
            takes,
            keys_taken,
            peer,
            lease,
            next_epoch,
            frame_replica,
            promote,
            beside,
            frame_beside,
        } = self;
        (cluster, controller, seed, until_ms, frame_limit, object_limit, now_ms).hash(h);
        // With the frame count: two states a frame apart are never one.
        (frames, rng, api, ctl, gc).hash(h);
        // A heap's layout depends on the order of its pushes: hash the pending
        // timers in the order they will fire.
        let mut pending: Vec<&Scheduled> = timers.iter().collect();
        pending.sort_unstable_by(|a, b| b.cmp(a));
        h.write_usize(pending.len());
        for t in pending {
            (t.at_ms, &t.timer).hash(h);
        }
        (requests_in_flight, invariants, violations, faults, events_sent, takes, keys_taken).hash(h);
        (peer, lease, next_epoch, frame_replica, promote).hash(h);
        (beside, frame_beside).hash(h);
    }
}
