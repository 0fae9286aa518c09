//! What the world says of itself, for the report, the page and the tests:
//! time and frame counts, where a run stopped and why, the audit log's
//! tallies, the requests in flight, the controller's informers. Reads only.

use super::in_flight::SentBy;
use super::input::Deviation;
use super::runtime::Runtime;
use super::state::World;
use super::timer::{Due, Timer};
use crate::sim::apiserver::Verb;
use crate::sim::informer::{Informer, ListState};
use crate::sim::object::Kind;
use crate::sim::settings::ControllerSettings;
use serde::Serialize;
use std::collections::BTreeMap;

/// Where a run stopped because the cluster held more objects than its limit:
/// the facts a report and the page put in words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct ObjectLimitStop {
    /// The last frame: the one that passed the limit.
    pub frame: u64,
    pub at_ms: u64,
    /// Objects the cluster held then, and the limit.
    pub live: u64,
    pub limit: u64,
    /// Of them, by kind.
    #[serde(skip)]
    pub by_kind: Vec<(Kind, u64)>,
}

impl World {
    /// Simulated time now.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// Frames produced so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// A controller's settings and process: the recipe's own (`None`), or
    /// the `i`th beside it (`controller.alongside`), as a frame names it.
    pub fn process(&self, which: Option<u8>) -> (&ControllerSettings, &Runtime) {
        match which.and_then(|i| self.beside.get(usize::from(i))) {
            Some(b) => (&b.controller, &b.ctl),
            None => (&self.controller, &self.ctl),
        }
    }

    /// The key the controller's next pick-up takes, and the worker that will
    /// take it (the schedule's choice if it is idle, else the lowest idle one),
    /// when its workers run, a key is ready and a worker is idle.
    pub fn next_take(&self) -> Option<(String, u32)> {
        let key = self.ctl.queue.queued().next()?.to_string();
        let chosen = self.chosen_worker();
        let mut worker = None;
        self.ctl.work_due(self.now_ms, chosen, &mut |_, s| {
            if let (None, Due::Worker(w)) = (worker, s) {
                worker = Some(w as u32);
            }
        });
        let worker = worker?;
        Some((key, worker))
    }

    /// The run stopped at its frame limit, with more still to happen before `until_ms`.
    pub fn stopped_at_frame_limit(&self) -> bool {
        self.frames >= self.frame_limit && self.next_due().is_some_and(|(at, _)| at <= self.until_ms)
    }

    /// Objects the cluster holds now, of every kind (Terminating ones too).
    pub(crate) fn live_objects(&self) -> u64 {
        self.kinds.iter().map(|k| self.api.live_count(*k)).sum()
    }

    /// The run stopped at its object limit: the last frame left the cluster
    /// holding more objects than [`World::object_limit`]. What it held, by kind.
    pub fn stopped_at_object_limit(&self) -> Option<ObjectLimitStop> {
        let live = self.live_objects();
        (live > self.object_limit).then(|| ObjectLimitStop {
            frame: self.frames,
            at_ms: self.now_ms,
            live,
            limit: self.object_limit,
            by_kind: self.kinds.iter().map(|k| (*k, self.api.live_count(*k))).collect(),
        })
    }

    /// Audit log counts: verb -> HTTP status -> requests.
    pub fn api_counts(&self) -> BTreeMap<Verb, BTreeMap<u16, u64>> {
        let mut out: BTreeMap<Verb, BTreeMap<u16, u64>> = BTreeMap::new();
        for ((_, verb, code, _), n) in &self.counts {
            *out.entry(*verb).or_default().entry(*code).or_insert(0) += n;
        }
        out
    }

    /// Requests for `kind` with `verb`, by status; `sent_by` picks the
    /// controller's own requests or everyone else's.
    pub fn kind_counts(&self, kind: Kind, verb: Verb, sent_by: SentBy) -> Vec<(u16, u64)> {
        let mut out: Vec<(u16, u64)> = self
            .counts
            .iter()
            .filter(|((k, v, _, c), _)| *k == kind && *v == verb && *c == sent_by)
            .map(|((_, _, code, _), n)| (*code, *n))
            .collect();
        out.sort_unstable();
        out
    }

    /// Nothing is moving: no event on any watch or LIST waiting, no request in
    /// flight, no reconcile running. (The page skips such quiet stretches.)
    pub fn is_quiet(&self) -> bool {
        let idle = |inf: &Informer| {
            // A watch-list whose closing bookmark was lost waits for nothing that will come.
            matches!(inf.state(), ListState::Watching { .. } | ListState::Streaming { .. } | ListState::Idle | ListState::Closed)
                && inf.in_flight_len() == 0
        };
        let still = |rt: &Runtime| rt.workers.iter().all(|w| w.busy.is_none()) && rt.caches.informers.iter().all(idle);
        self.requests_in_flight == 0 && still(&self.ctl) && self.beside.iter().all(|b| still(&b.ctl))
    }

    /// When the next change is due, if anything is left before `until_ms`.
    pub fn next_at_ms(&self) -> Option<u64> {
        self.next_due().map(|(at, _)| at).filter(|at| *at <= self.until_ms)
    }

    /// A controller informer whose watch-list has streamed all it will and
    /// waits for an `initial-events-end` bookmark that was lost: nothing on
    /// its wire, not synced while that watch lasts.
    pub fn stalled_watch_list(&self) -> Option<Kind> {
        self.ctl.caches.informers.iter().find(|i| i.is_streaming() && i.in_flight_len() == 0).map(|i| i.kind)
    }

    /// When the kubelet restarts a controller process that exited (after
    /// controller-runtime's CacheSyncTimeout), while it is down.
    pub fn restart_at(&self) -> Option<u64> {
        let epoch = self.ctl.epoch;
        self.timers.iter().find(|s| matches!(s.timer, Timer::Restart { epoch: e } if e == epoch)).map(|s| s.at_ms)
    }

    /// Whether every informer of the controller has synced.
    pub fn controller_synced(&self) -> bool {
        self.ctl.caches.all_synced()
    }

    /// The controller's informer for `kind`: the recipe's own, else that of
    /// the first controller beside it that watches the kind (the Cache
    /// panel's Machines are the MachineSet controller's).
    pub fn controller_informer(&self, kind: Kind) -> Option<&Informer> {
        self.ctl.caches.informer(kind).or_else(|| self.beside.iter().find_map(|b| b.ctl.caches.informer(kind)))
    }

    /// The run's schedule: the watch events it takes off their default timing.
    pub fn schedule(&self) -> &[Deviation] {
        &self.schedule
    }
}
