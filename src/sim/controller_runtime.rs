//! What controller-runtime adds between an operator's `Reconcile` and
//! client-go, ported from its sources: what the controller does with
//! `Reconcile`'s result (v0.24.1 `pkg/internal/controller/controller.go`,
//! `reconcileHandler`), and v0.25's read-your-writes client
//! (`client.CacheOptions.EnableReadYourWritesConsistency`, #3472): the
//! client's side in `pkg/client/consistency.go` (`consistentClient`: a write
//! holds its key's lock and records the resourceVersion it got back,
//! `writeAndRecordRV`), the informer's in
//! `pkg/cache/internal/readerconsistency/readerconsistency.go`
//! (`ConsistencyHandler`: `WaitForGet`, `WaitForList`, `AddPendingDelete`),
//! registered on each informer by `pkg/cache/internal/informers.go`.
//! The priority queue it hands keys out of is [`crate::sim::workqueue`]'s
//! `WorkQueue::priority_queue`.
//!
//! A leaf of `sim`: the world calls these, they call nothing of the world's.

use super::object::{Kind, ObjectKey};
use super::reconcile::Requeue;
pub use super::reconcile::{Behind, Read};
use super::sorted::{SortedMap, SortedSet};
use super::workqueue::WorkQueue;

/// What `Reconcile(ctx, req) (ctrl.Result, error)` returned, as its handler
/// reads it (with an error, any `Result` beside it is ignored, with a warning).
pub use super::reconcile::Outcome;

/// `reconcileHandler`'s queue operations for one returned reconcile
/// (controller-runtime v0.24.1 pkg/internal/controller/controller.go):
///
/// ```go
/// case err != nil:
///     if !errors.Is(err, reconcile.TerminalError(nil)) { c.Queue.AddWithOpts(AddOpts{RateLimited: true, Priority: &priority}, req) }
/// case result.RequeueAfter > 0:
///     c.Queue.Forget(req); c.Queue.AddWithOpts(AddOpts{After: result.RequeueAfter, Priority: &priority}, req)
/// case result.Requeue:
///     c.Queue.AddWithOpts(AddOpts{RateLimited: true, Priority: &priority}, req)
/// default:
///     c.Queue.Forget(req)
/// ```
///
/// `priority` is what the key was handed out with (`GetWithPriority`),
/// unless the result set its own (`Result.Priority`, v0.23). A terminal
/// error is neither requeued nor forgotten: its backoff stays until a later
/// success. `Done` comes after, from the caller, as `processNextWorkItem`'s
/// deferred `c.Queue.Done(obj)` does.
pub fn reconcile_handler<T: Ord + Clone>(queue: &mut WorkQueue<T>, key: &T, outcome: &Outcome, priority: i32, now_ms: u64) -> Requeue {
    match *outcome {
        Outcome::Error(_) | Outcome::Requeue => {
            let delay_ms = queue.add_rate_limited_with_priority(key.clone(), now_ms, priority);
            Requeue::RateLimited { delay_ms }
        }
        Outcome::TerminalError(_) => Requeue::Terminal,
        Outcome::RequeueAfter(delay_ms) => {
            queue.forget(key);
            queue.add_after_with_priority(key.clone(), delay_ms, now_ms, priority);
            Requeue::After { delay_ms }
        }
        Outcome::Done => {
            queue.forget(key);
            Requeue::No
        }
    }
}

/// One kind's `ConsistencyHandler`: an event handler on the kind's informer
/// that remembers the highest resourceVersion delivered (`observedRV`), and
/// the client's side of it: per key, the resourceVersion of its last write
/// (`minimumRVs`, kept only while ahead of what was observed) and the UIDs
/// it deleted whose DELETED has not been seen (`pendingDeletes`).
#[derive(Debug, Clone, Default, Hash)]
struct Handler {
    observed_rv: u64,
    minimum_rvs: SortedMap<ObjectKey, u64>,
    pending_deletes: SortedMap<ObjectKey, SortedSet<u64>>,
    /// The write barrier: this client's writes in flight, per key, by sequence number.
    in_flight: SortedMap<ObjectKey, SortedSet<u64>>,
}

/// controller-runtime v0.25's read-your-writes client: one handler per kind.
///
/// Upstream's `Get` first waits out the writes to its key already in flight
/// (`consistentClient`'s per-key lock, held across each write), then
/// until the handler has observed the resourceVersion the last write
/// recorded and the key's pending deletes (`ConsistencyHandler.WaitForGet`);
/// `List` the same over every key of the kind (`WaitForList`, the highest
/// minimum). There is no timeout but the
/// reconcile's context, which has none by default (`ReconciliationTimeout`).
/// Simplified here: a read waits for every write of its key (or kind) in
/// flight, not only those begun before it; with the one worker
/// `MaxConcurrentReconciles` defaults to, no write can begin while it waits.
#[derive(Debug, Clone, Default, Hash)]
pub struct ReadYourWrites {
    handlers: [Handler; crate::sim::object::MAX_KINDS],
    seq: u64,
}

impl ReadYourWrites {
    /// A write leaves (it takes its key's lock, `writeAndRecordRV`); a delete also notes the UID it
    /// deletes first, "to avoid missing the event" (`AddPendingDelete`).
    /// Returns the write's number for [`ReadYourWrites::answered`].
    pub fn begin(&mut self, kind: Kind, key: &ObjectKey, deletes_uid: Option<u64>) -> u64 {
        self.seq += 1;
        let h = &mut self.handlers[kind.index()];
        entry(&mut h.in_flight, key).insert(self.seq);
        if let Some(uid) = deletes_uid {
            entry(&mut h.pending_deletes, key).insert(uid);
        }
        self.seq
    }

    /// The write's answer: `ok` and, for a write that left the object in
    /// the cluster, its new resourceVersion (`SetMinimumRV`). A failed
    /// delete, or one a finalizer turned into an update, is no longer
    /// pending (`RemovePendingDelete`).
    /// `written` is the object's key and new resourceVersion (a generated
    /// name is known only now; `key` is what the barrier was begun with).
    pub fn answered(
        &mut self,
        kind: Kind,
        key: &ObjectKey,
        seq: u64,
        ok: bool,
        deleted_uid: Option<u64>,
        written: Option<(&ObjectKey, u64)>,
    ) {
        let h = &mut self.handlers[kind.index()];
        if let Some(set) = h.in_flight.get_mut(key) {
            set.remove(&seq);
            if set.is_empty() {
                h.in_flight.remove(key);
            }
        }
        if let (Some(uid), true) = (deleted_uid, !ok || written.is_some()) {
            unpend(&mut h.pending_deletes, key, uid);
        }
        if let (true, Some((key, rv))) = (ok, written) {
            if rv > h.observed_rv && h.minimum_rvs.get(key).is_none_or(|m| rv > *m) {
                h.minimum_rvs.insert(key.clone(), rv);
            }
        }
    }

    /// The kind's informer handed an object to its handlers (`OnAdd`,
    /// `OnUpdate`, `OnDelete`: `observeResourceVersion`); a delete also ends
    /// its UID's pending delete (`observeDeletion`).
    pub fn observe(&mut self, kind: Kind, key: &ObjectKey, rv: u64, deleted_uid: Option<u64>) {
        let h = &mut self.handlers[kind.index()];
        if rv > h.observed_rv {
            h.observed_rv = rv;
            // Minimums at or below what was observed are met: cleaned up.
            let met: Vec<ObjectKey> = h.minimum_rvs.iter().filter(|(_, m)| **m <= rv).map(|(k, _)| k.clone()).collect();
            for k in met {
                h.minimum_rvs.remove(&k);
            }
        }
        if let Some(uid) = deleted_uid {
            unpend(&mut h.pending_deletes, key, uid);
        }
    }

    /// `Ok` if `read` may go to the cache now; else what it waits for.
    pub fn ready(&self, read: &Read) -> Result<(), Behind> {
        let h = &self.handlers[read.kind().index()];
        let (wants_rv, deletes, writes) = match read {
            Read::Get { key, .. } => (
                h.minimum_rvs.get(key).copied(),
                h.pending_deletes.get(key).map_or(0, |s| s.len() as u32),
                h.in_flight.get(key).map_or(0, |s| s.len() as u32),
            ),
            Read::List { .. } => (
                h.minimum_rvs.iter().map(|(_, rv)| *rv).max(),
                h.pending_deletes.iter().map(|(_, s)| s.len() as u32).sum(),
                h.in_flight.iter().map(|(_, s)| s.len() as u32).sum(),
            ),
        };
        let wants_rv = wants_rv.filter(|rv| *rv > h.observed_rv);
        if wants_rv.is_none() && deletes == 0 && writes == 0 {
            return Ok(());
        }
        Err(Behind { wants_rv, seen_rv: h.observed_rv, deletes, writes })
    }

    /// A restarted process's client remembers nothing.
    pub fn reset(&mut self) {
        *self = ReadYourWrites::default();
    }
}

fn entry<'a>(map: &'a mut SortedMap<ObjectKey, SortedSet<u64>>, key: &ObjectKey) -> &'a mut SortedSet<u64> {
    if map.get(key).is_none() {
        map.insert(key.clone(), SortedSet::new());
    }
    map.get_mut(key).expect("just inserted")
}

fn unpend(map: &mut SortedMap<ObjectKey, SortedSet<u64>>, key: &ObjectKey, uid: u64) {
    if let Some(set) = map.get_mut(key) {
        set.remove(&uid);
        if set.is_empty() {
            map.remove(key);
        }
    }
}

/// Ported from controller-runtime v0.24.1 `pkg/internal/controller/controller_test.go`
/// ("Processing queue items") and `pkg/controller/priorityqueue/priorityqueue_test.go`,
/// under their names, and from the read-your-writes client's behaviour (v0.25).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::workqueue::LOW_PRIORITY;

    fn pq() -> WorkQueue<String> {
        WorkQueue::priority_queue()
    }

    fn k(s: &str) -> String {
        s.to_string()
    }

    /// An error a reconcile returns: its create was refused.
    fn failed() -> crate::sim::reconcile::ReconcileError {
        crate::sim::reconcile::ReconcileError::Request {
            verb: crate::sim::apiserver::Verb::Create,
            kind: Kind::ConfigMap,
            name: "x".into(),
            status: crate::sim::apiserver::Status::INTERNAL_ERROR,
            cause: None,
        }
    }

    /// Hand out the key, run `outcome` through the handler, `Done`.
    fn reconcile(q: &mut WorkQueue<String>, outcome: Outcome, now_ms: u64) -> (String, Requeue) {
        let (key, priority) = q.get_with_priority().expect("a key");
        let r = reconcile_handler(q, &key, &outcome, priority, now_ms);
        q.done(&key);
        (key, r)
    }

    #[test]
    fn should_requeue_a_request_if_there_is_an_error_and_continue_processing_items() {
        let mut q = pq();
        q.add(k("foo/bar"));
        let (_, r) = reconcile(&mut q, Outcome::Error(failed()), 0);
        assert_eq!(r, Requeue::RateLimited { delay_ms: 5 });
        assert_eq!(q.len(), 0, "waiting out its backoff, not ready");
        q.promote_ready(5);
        let (_, r) = reconcile(&mut q, Outcome::Done, 5);
        assert_eq!(r, Requeue::No);
        assert_eq!(q.num_requeues(&k("foo/bar")), 0, "forgotten after success");
    }

    #[test]
    fn should_not_requeue_a_request_if_there_is_a_terminal_error() {
        let mut q = pq();
        q.add(k("foo/bar"));
        let (_, r) = reconcile(&mut q, Outcome::TerminalError(failed()), 0);
        assert_eq!(r, Requeue::Terminal, "counted, neither requeued nor forgotten");
        assert_eq!((q.len(), q.next_ready_at()), (0, None));
    }

    #[test]
    fn should_not_reset_backoff_until_there_s_a_non_error_result() {
        let mut q = pq();
        q.add(k("foo/bar"));
        let mut delays = Vec::new();
        let mut now = 0;
        for _ in 0..3 {
            let (_, r) = reconcile(&mut q, Outcome::Error(failed()), now);
            let Requeue::RateLimited { delay_ms } = r else { panic!("{r:?}") };
            delays.push(delay_ms);
            now += delay_ms;
            q.promote_ready(now);
        }
        assert_eq!(delays, vec![5, 10, 20]);
        // A terminal error neither requeues nor forgets: the backoff stays.
        reconcile(&mut q, Outcome::TerminalError(failed()), now);
        assert_eq!(q.num_requeues(&k("foo/bar")), 3);
        q.add(k("foo/bar"));
        reconcile(&mut q, Outcome::Done, now);
        assert_eq!(q.num_requeues(&k("foo/bar")), 0);
    }

    #[test]
    fn should_requeue_a_request_with_rate_limiting_if_the_result_sets_requeue_true_and_continue_processing_items() {
        let mut q = pq();
        q.add(k("foo/bar"));
        let (_, r) = reconcile(&mut q, Outcome::Requeue, 0);
        assert_eq!(r, Requeue::RateLimited { delay_ms: 5 });
        assert_eq!(q.num_requeues(&k("foo/bar")), 1, "rate-limited: counted, not forgotten");
    }

    #[test]
    fn should_requeue_a_request_after_a_duration_but_not_rate_limited_if_the_result_sets_requeue_after() {
        let mut q = pq();
        q.add(k("foo/bar"));
        reconcile(&mut q, Outcome::Error(failed()), 0);
        q.promote_ready(5);
        let (_, r) = reconcile(&mut q, Outcome::RequeueAfter(30_000), 5);
        assert_eq!(r, Requeue::After { delay_ms: 30_000 });
        assert_eq!(q.num_requeues(&k("foo/bar")), 0, "Forget before AddAfter");
        assert_eq!(q.next_ready_at(), Some(30_005));
    }

    #[test]
    fn should_retain_the_priority_when_there_was_an_error() {
        let mut q = pq();
        q.add_with_priority(k("low/one"), LOW_PRIORITY);
        let (_, _) = reconcile(&mut q, Outcome::Error(failed()), 0);
        q.promote_ready(5);
        assert_eq!(q.priority(&k("low/one")), LOW_PRIORITY);
        q.add(k("high/two"));
        assert_eq!(q.get_with_priority(), Some((k("high/two"), 0)), "the requeued low-priority key waits behind");
    }

    #[test]
    #[allow(non_snake_case)]
    fn returns_items_in_order() {
        let mut q = pq();
        q.add(k("foo"));
        q.add(k("bar"));
        assert_eq!(q.get(), Some(k("foo")));
        assert_eq!(q.get(), Some(k("bar")));
    }

    #[test]
    fn doesn_t_return_an_item_that_is_currently_locked() {
        let mut q = pq();
        q.add(k("foo"));
        let foo = q.get().unwrap();
        q.add(k("foo"));
        q.add(k("bar"));
        assert_eq!(q.get(), Some(k("bar")), "foo is locked");
        assert_eq!(q.get(), None);
        q.done(&foo);
        assert_eq!(q.get(), Some(k("foo")), "returned as soon as it is unlocked");
    }

    /// `lockedAddWithOpts`: a waiting item added again without `After` is
    /// ready now, and without a raise of its priority keeps its
    /// `AddedCounter`, so its place ahead of the items added after it.
    #[test]
    fn locked_add_with_opts_readies_a_waiting_item_in_its_place_and_a_raise_behind_its_peers() {
        let mut q = pq();
        q.add_after(k("waiting"), 1_000, 0);
        q.add(k("b"));
        q.add(k("c"));
        q.add(k("waiting"));
        let order: Vec<String> = std::iter::from_fn(|| q.get()).collect();
        assert_eq!(order, ["waiting", "b", "c"], "it was added first");

        // A raise takes a fresh counter: first by priority, then behind its new peers.
        let mut q = pq();
        q.add_after(k("waiting"), 1_000, 0);
        q.add_with_priority(k("high"), 5);
        q.add(k("b"));
        q.add_with_priority(k("waiting"), 5);
        let order: Vec<String> = std::iter::from_fn(|| q.get()).collect();
        assert_eq!(order, ["high", "waiting", "b"]);
    }

    #[test]
    fn enqueues_a_locked_item() {
        // Added while processed, it is queued at once where it stands: ahead of a later add.
        let mut q = pq();
        q.add(k("foo"));
        let foo = q.get().unwrap();
        q.add(k("foo"));
        q.add(k("bar"));
        let bar = q.get().unwrap();
        q.done(&foo);
        q.done(&bar);
        assert_eq!(q.get(), Some(k("foo")));
        assert_eq!(q.get(), None, "de-duplicated: once more only");
    }

    #[test]
    fn retains_the_highest_priority_and_will_not_decrease_it() {
        let mut q = pq();
        q.add_with_priority(k("foo"), 1);
        q.add_with_priority(k("foo"), 2);
        q.add_with_priority(k("foo"), 1);
        assert_eq!(q.get_with_priority(), Some((k("foo"), 2)));
    }

    #[test]
    fn gets_pushed_to_the_front_if_the_priority_increases() {
        let mut q = pq();
        q.add(k("foo"));
        q.add(k("bar"));
        q.add(k("baz"));
        q.add_with_priority(k("baz"), 1);
        assert_eq!(q.get(), Some(k("baz")));
        assert_eq!(q.get(), Some(k("foo")));
    }

    #[test]
    fn retains_the_lowest_after_duration() {
        let mut q = pq();
        q.add_after_with_priority(k("foo"), 0, 0, 0);
        q.add_after_with_priority(k("bar"), 100, 0, 0);
        q.add_after_with_priority(k("bar"), 50, 0, 0);
        assert_eq!(q.next_ready_at(), Some(50));
        assert_eq!(q.len(), 1, "non-ready items are not in Len()");
    }

    #[test]
    fn the_initial_list_waits_behind_a_real_change() {
        let mut q = pq();
        q.add_with_priority(k("ns/a"), LOW_PRIORITY);
        q.add_with_priority(k("ns/b"), LOW_PRIORITY);
        q.add(k("ns/c"));
        let order: Vec<String> = std::iter::from_fn(|| q.get()).collect();
        assert_eq!(order, vec![k("ns/c"), k("ns/a"), k("ns/b")]);
    }

    fn key(name: &str) -> ObjectKey {
        ObjectKey::new("ns", name)
    }

    #[test]
    fn a_get_waits_for_its_own_write_and_no_other() {
        let mut c = ReadYourWrites::default();
        let get = |n: &str| Read::Get { kind: Kind::ConfigMap, key: key(n) };
        let w = c.begin(Kind::ConfigMap, &key("a"), None);
        assert_eq!(c.ready(&get("a")), Err(Behind { wants_rv: None, seen_rv: 0, deletes: 0, writes: 1 }), "the write barrier");
        c.answered(Kind::ConfigMap, &key("a"), w, true, None, Some((&key("a"), 7)));
        assert_eq!(c.ready(&get("a")), Err(Behind { wants_rv: Some(7), seen_rv: 0, deletes: 0, writes: 0 }));
        assert_eq!(c.ready(&get("b")), Ok(()), "per key");
        c.observe(Kind::ConfigMap, &key("z"), 6, None);
        assert!(c.ready(&get("a")).is_err(), "6 < 7");
        c.observe(Kind::ConfigMap, &key("a"), 7, None);
        assert_eq!(c.ready(&get("a")), Ok(()));
        assert_eq!(c.ready(&Read::List { kind: Kind::Pod }), Ok(()), "per kind");
    }

    #[test]
    fn a_list_waits_for_every_write_of_its_kind() {
        let mut c = ReadYourWrites::default();
        for (name, rv) in [("a", 3), ("b", 9), ("c", 5)] {
            let w = c.begin(Kind::ConfigMap, &key(name), None);
            c.answered(Kind::ConfigMap, &key(name), w, true, None, Some((&key(name), rv)));
        }
        let list = Read::List { kind: Kind::ConfigMap };
        c.observe(Kind::ConfigMap, &key("c"), 5, None);
        assert_eq!(c.ready(&list).map_err(|b| b.wants_rv), Err(Some(9)));
        c.observe(Kind::ConfigMap, &key("b"), 9, None);
        assert_eq!(c.ready(&list), Ok(()));
    }

    #[test]
    fn a_read_after_a_delete_waits_for_its_deleted_event() {
        let mut c = ReadYourWrites::default();
        let get = Read::Get { kind: Kind::ConfigMap, key: key("a") };
        let w = c.begin(Kind::ConfigMap, &key("a"), Some(42));
        c.answered(Kind::ConfigMap, &key("a"), w, true, Some(42), None);
        assert_eq!(c.ready(&get).map_err(|b| b.deletes), Err(1));
        c.observe(Kind::ConfigMap, &key("a"), 12, Some(42));
        assert_eq!(c.ready(&get), Ok(()));
        // A failed delete is no longer pending; one a finalizer held waits for its update instead.
        let w = c.begin(Kind::ConfigMap, &key("b"), Some(43));
        c.answered(Kind::ConfigMap, &key("b"), w, false, Some(43), None);
        assert_eq!(c.ready(&Read::Get { kind: Kind::ConfigMap, key: key("b") }), Ok(()));
        let w = c.begin(Kind::ConfigMap, &key("c"), Some(44));
        c.answered(Kind::ConfigMap, &key("c"), w, true, Some(44), Some((&key("c"), 20)));
        assert_eq!(c.ready(&Read::Get { kind: Kind::ConfigMap, key: key("c") }).map_err(|b| (b.wants_rv, b.deletes)), Err((Some(20), 0)));
    }
}
