//! What the controller process does: it starts (or restarts: a new epoch,
//! an empty cache, queue and expectations), its informers LIST, and a worker
//! takes a key, runs a reconcile beat by beat and returns.

use super::client::TokenBucket;
use super::in_flight::Origin;
use super::runtime::{Busy, TrackedWrite};
use super::state::World;
use super::timer::{Start, Timer};
use crate::sim::apiserver::{ApiServer, Verb};
use crate::sim::controller_runtime::{self, Outcome};
use crate::sim::controllers::{self, Beat, Creates, Cx, Input, Note, Owned, ReconcileState, Tally};
use crate::sim::frame::{Event, QueuedBy, Requeue};
use crate::sim::invariants::SentWith;
use crate::sim::object::{Kind, ObjectKey, MAX_KINDS};
use crate::sim::reflector::ExponentialBackoff;
use crate::sim::settings::RuntimeKind;

/// The run key of the one-shot pruner: its namespace.
fn pruner_key(namespace: &str) -> String {
    namespace.to_string()
}

impl World {
    /// The controller process starts (or restarts): with one replica it
    /// runs at once; with two, it is a candidate for the lease first.
    pub(super) fn start_controller(&mut self, start: Start) -> Event {
        let dropped = self.reset_process();
        if self.peer.is_some() {
            return self.start_candidate(start);
        }
        let mut started = self.begin(start);
        if let Event::ControllerStarted { abandoned, .. } = &mut started {
            *abandoned = dropped;
        }
        started
    }

    /// A new process: a new epoch (timers and answers of the old one are
    /// ignored), an empty cache, queue, expectations and consistency store.
    /// Returns how many of the old process's requests died unsent.
    pub(super) fn reset_process(&mut self) -> u64 {
        // A request still waiting for the client-side rate limiter is a
        // goroutine of the old process (client-go v0.36.3 rest/request.go,
        // (*Request).request: tryThrottle before client.Do) and dies with it;
        // one already on the wire may still commit.
        let (old, now) = (self.ctl.epoch, self.now_ms);
        let before = self.timers.len();
        self.timers.retain(|s| !matches!(&s.timer, Timer::Request(r) if r.waits_for_limiter_of(old, now)));
        let dropped = before - self.timers.len();
        self.requests_in_flight -= dropped;
        self.next_epoch += 1;
        let ctl = &mut self.ctl;
        ctl.epoch = self.next_epoch;
        ctl.paused_until = None;
        ctl.leading = false;
        ctl.observed = None;
        ctl.renew_deadline_at = None;
        for inf in &mut ctl.caches.informers {
            inf.reset();
        }
        ctl.queue.clear();
        ctl.expectations.clear();
        for w in &mut ctl.workers {
            w.busy = None;
        }
        ctl.running = false;
        ctl.exited = None;
        ctl.double_enqueued.clear();
        ctl.queued_by.clear();
        ctl.consistency.reset();
        ctl.ryw.reset();
        let (qps, burst) = self.cluster.client_limit(ctl.kind);
        ctl.limiter = TokenBucket::new(qps, burst, self.now_ms);
        ctl.backoff = vec![ExponentialBackoff::reflector(self.now_ms); MAX_KINDS];
        dropped as u64
    }

    /// Run the controller: its informers LIST, and its workers start (after
    /// `WaitForCacheSync`, if it waits).
    pub(super) fn begin(&mut self, start: Start) -> Event {
        self.ctl.leading = true;
        let epoch = self.ctl.epoch;
        let ctl = &mut self.ctl;
        let kinds: Vec<Kind> = ctl.caches.informers.iter().map(|i| i.kind).collect();
        for kind in kinds {
            self.ctl.caches.informer_mut(kind).expect("watched kind").start_list(self.now_ms);
            let req = self.reflector_request(kind);
            self.send(req, Origin::Informer { kind, epoch }, SentWith::UNSYNCED);
        }
        if !self.spec.loops() {
            // A one-shot program has no events to queue it: it runs once, when it starts.
            self.ctl.enqueue(pruner_key(&self.controller.namespace).into(), || QueuedBy::ProgramStart);
        }
        let wait = self.controller.wait_for_cache_sync;
        if wait {
            // PollImmediateUntil: check now, then every 100 ms.
            self.set_timer(self.now_ms, Timer::SyncPoll { epoch, since_ms: self.now_ms });
        } else {
            self.ctl.running = true;
        }
        let watch_list = self.controller.watch_list();
        Event::ControllerStarted { restart: start == Start::Again, wait_for_cache_sync: wait, abandoned: 0, watch_list }
    }

    pub(super) fn pick_up(&mut self, w: usize) -> Event {
        let (key, priority) = self.ctl.queue.get_with_priority().expect("a queued key");
        self.keys_taken += 1;
        self.ctl.reconciles += 1;
        let n = self.ctl.reconciles;
        let double_enqueued = self.ctl.double_enqueued.remove(&key);
        let queued_by = self.ctl.queued_by.remove(&key);
        let step = self.spec.first_step;
        self.ctl.workers[w].busy = Some(Busy {
            key: key.clone(),
            n,
            step,
            double_enqueued,
            reconcile: None,
            responses: Vec::new(),
            awaiting: 0,
            priority,
            blocked: None,
            writes: Vec::new(),
        });
        self.set_timer(self.now_ms, Timer::Resume { worker: w, epoch: self.ctl.epoch });
        Event::ReconcileStarted { worker: w as u32, key, n, double_enqueued, queued_by }
    }

    /// Run a worker's reconcile up to its next beat.
    pub(super) fn resume(&mut self, w: usize) -> Option<Event> {
        let now = self.now_ms;
        let lag_ms = self.cluster.watch_lag_ms;
        let synced = self.ctl.caches.all_synced();
        let ctl = &mut self.ctl;
        let busy = ctl.workers[w].busy.as_mut()?;
        let mut cx = Cx {
            now_ms: now,
            settings: &self.controller,
            caches: &ctl.caches,
            expectations: &mut ctl.expectations,
            lag_ms,
            rng: &mut self.rng,
            consistency: &mut ctl.consistency,
            ryw: &ctl.ryw,
            deletes_seen: &mut ctl.deletes_seen,
        };
        let beat = match busy.reconcile.as_mut() {
            None => {
                let (r, beat) = ReconcileState::start(&busy.key, &mut cx);
                busy.reconcile = Some(r);
                beat
            }
            Some(r) => {
                let input = if busy.responses.is_empty() {
                    Input::Resume
                } else {
                    Input::Responses(std::mem::take(&mut busy.responses).into_iter().map(|r| r.expect("every response in")).collect())
                };
                r.resume(input, &mut cx)
            }
        };
        let (key, n) = (busy.key.clone(), busy.n);
        // A count's cluster figures, for the narration: the world's to add, from the apiserver.
        let beat = match beat {
            Beat::Counted { mut note, then_ms, tally } => {
                match &mut note {
                    Note::Counted { in_cluster, cluster_after, .. } => (*in_cluster, *cluster_after) = tally_of(&self.api, &tally),
                    Note::Listed { in_cluster, .. } => *in_cluster = tally_of(&self.api, &tally).0,
                    _ => {}
                }
                Beat::Note { note, then_ms }
            }
            other => other,
        };
        match beat {
            Beat::Note { note, then_ms } => {
                if matches!(note, Note::StaleSkip { .. }) {
                    ctl.stale_sync_skips += 1;
                }
                let step = controllers::note_step(&note);
                busy.step = step;
                let epoch = ctl.epoch;
                self.set_timer(now + then_ms, Timer::Resume { worker: w, epoch });
                Some(Event::ReconcileNote { worker: w as u32, key, n, note, step })
            }
            Beat::Wait { note, hold } => {
                // The worker resumes when what it waits for holds (`Due::Unblocked`).
                let step = controllers::note_step(&note);
                busy.step = step;
                busy.blocked = Some((hold, now));
                Some(Event::ReconcileNote { worker: w as u32, key, n, note, step })
            }
            Beat::Call { requests, step } => {
                busy.step = step;
                busy.awaiting = requests.len();
                busy.responses = vec![None; requests.len()];
                busy.writes = vec![None; requests.len()];
                if self.controller.runtime() == RuntimeKind::ControllerRuntime {
                    for (slot, req) in requests.iter().enumerate() {
                        if matches!(req.verb, Verb::Create | Verb::Update | Verb::Delete) {
                            let key = ObjectKey::new(req.namespace.clone(), req.name.clone().unwrap_or_default());
                            // `uidForDelete`: the precondition's, else the object's, as the cache has it.
                            let deletes_uid = (req.verb == Verb::Delete)
                                .then(|| req.options.uid.or_else(|| ctl.caches.get(req.kind, &key).map(|o| o.uid)))
                                .flatten();
                            let seq = ctl.ryw.begin(req.kind, &key, deletes_uid);
                            busy.writes[slot] = Some(TrackedWrite { kind: req.kind, key, seq, deletes_uid });
                        }
                    }
                }
                let epoch = ctl.epoch;
                if requests.is_empty() {
                    self.set_timer(now, Timer::Resume { worker: w, epoch });
                }
                for (slot, req) in requests.into_iter().enumerate() {
                    let uncached = req.verb == Verb::Delete
                        && req.name.as_ref().is_some_and(|name| {
                            let key = ObjectKey::new(req.namespace.clone(), name.clone());
                            self.ctl.caches.get(req.kind, &key).is_none()
                        });
                    self.send(req, Origin::Worker { worker: w, epoch, slot }, SentWith { synced, uncached });
                }
                None
            }
            Beat::Return(outcome) => Some(self.finish(w, outcome)),
            Beat::Counted { .. } => unreachable!("a count is a note once the world has tallied it, above"),
        }
    }

    /// The read-your-writes client lets a held read through: the reconcile goes on.
    pub(super) fn unblock(&mut self, w: usize) -> Option<Event> {
        self.ctl.workers[w].busy.as_mut()?.blocked = None;
        self.resume(w)
    }

    /// A reconcile returned `outcome`: what it does to its key, as the
    /// controller's runtime handles it (a one-shot program exits with it).
    pub(super) fn finish(&mut self, w: usize, outcome: Outcome) -> Event {
        let busy = self.ctl.workers[w].busy.take().expect("a busy worker");
        let key = busy.key;
        let error = outcome.error().cloned();
        if !self.spec.loops() {
            // A one-shot program: it exits, nothing requeues.
            self.ctl.queue.done(&key);
            self.ctl.running = false;
            let code = if error.is_none() { 0 } else { 1 };
            self.ctl.exited = Some(code);
            let deleted = match busy.reconcile {
                Some(ReconcileState::Pruner(r)) => r.deleted(),
                _ => 0,
            };
            return Event::ControllerExited { code, error, deleted };
        }
        let controller_runtime = self.controller.runtime() == RuntimeKind::ControllerRuntime;
        let requeue = match &outcome {
            Outcome::Done => {
                self.ctl.queue.forget(&key);
                if self.controller.double_enqueue && !busy.double_enqueued {
                    self.ctl.enqueue(key.clone(), || QueuedBy::DoubleEnqueue);
                    self.ctl.double_enqueued.insert(key.clone());
                    Requeue::DoubleEnqueue
                } else {
                    Requeue::No
                }
            }
            // controller-runtime's `reconcileHandler`: a requeue goes back at
            // the priority the key was handed out with.
            _ if controller_runtime => {
                if matches!(outcome, Outcome::Error(_) | Outcome::Requeue) {
                    self.ctl.requeues += 1;
                }
                if matches!(outcome, Outcome::RequeueAfter(_)) {
                    self.ctl.waiting_after.insert(key.clone());
                }
                controller_runtime::reconcile_handler(&mut self.ctl.queue, &key, &outcome, busy.priority, self.now_ms)
            }
            // client-go's worker: an error (or a requeue asked for) is `AddRateLimited`.
            Outcome::Error(_) | Outcome::Requeue => {
                // What queues the retry is recorded when its delay is over (World::run, QueueReady).
                let delay_ms = self.ctl.queue.add_rate_limited(key.clone(), self.now_ms);
                self.ctl.requeues += 1;
                Requeue::RateLimited { delay_ms }
            }
            Outcome::RequeueAfter(delay_ms) => {
                self.ctl.queue.forget(&key);
                self.ctl.queue.add_after(key.clone(), *delay_ms, self.now_ms);
                self.ctl.waiting_after.insert(key.clone());
                Requeue::After { delay_ms: *delay_ms }
            }
            // client-go has no terminal error: the worker logs it and forgets the key.
            Outcome::TerminalError(_) => {
                self.ctl.queue.forget(&key);
                Requeue::No
            }
        };
        self.ctl.queue.done(&key);
        Event::ReconcileFinished { worker: w as u32, key, n: busy.n, error, requeue }
    }
}

/// A reconcile's children in the cluster now, and after its plan's requests
/// land: a create of a name that exists adds nothing, a delete of an object
/// already gone takes nothing away. The world's to count, from the
/// apiserver's indexes (no scan), for the narration: the reconcile never reads them.
fn tally_of(api: &ApiServer, t: &Tally) -> (u32, u32) {
    let now = match &t.of {
        Owned::Label { label, value, active: false } => api.count_labelled(t.child, &t.namespace, label, value),
        // No index counts these: a scan of the kind, for the recipes that select so.
        Owned::Label { label, value, active: true } => api
            .objects_of(t.child)
            .filter(|o| !o.is_terminating() && o.namespace == t.namespace && o.labels.get(&**label) == Some(value))
            .count() as u32,
        Owned::Controlled { uid } => api.controlled_by(t.child, *uid).0,
        Owned::Namespace => api.objects_of(t.child).filter(|o| o.namespace == t.namespace).count() as u32,
    };
    let exists = |key: &ObjectKey| api.get(t.child, key).is_some();
    let added = match &t.creates {
        Creates::Nothing => 0,
        Creates::Generated(n) => *n,
        Creates::Named(names) => names.iter().filter(|name| !exists(&ObjectKey::new(t.namespace.clone(), (*name).clone()))).count() as u32,
    };
    let gone = t.deletes.iter().filter(|k| exists(k)).count() as u32;
    (now, (now + added).saturating_sub(gone))
}
