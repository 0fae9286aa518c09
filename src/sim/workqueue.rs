//! client-go's workqueue: the FIFO with `dirty` and `processing` sets, the
//! delaying queue's `AddAfter`, and the default controller rate limiter, all in
//! simulated milliseconds.
//!
//! The rules (`util/workqueue/queue.go`): a key is never handed to two workers at
//! once, and any number of `add`s while it is processed collapse into exactly one
//! more hand-out after `done`.
//!
//! The same type is controller-runtime's priority queue when built with
//! [`WorkQueue::priority_queue`] (v0.24 `pkg/controller/priorityqueue`, on by
//! default since v0.23): an item has a priority, the highest is handed out
//! first and, within one, the earliest added (`lessReady`); a second add keeps
//! the higher priority (a raise moves it behind the others of its new
//! priority) and the earlier ready time; an item added while it is processed
//! is queued at once, where it stands, but not handed out before `done`
//! (the `locked` set). Its rate limiter is the per-item backoff alone.

use super::sorted::{SortedMap, SortedSet};
use std::collections::VecDeque;

/// The FIFO, dirty and processing structures of `workqueue.Type`, plus the
/// waiting set of the delaying queue and the controller rate limiter.
#[derive(Debug, Clone, Hash)]
pub struct WorkQueue<T: Ord + Clone> {
    queue: VecDeque<T>,
    dirty: SortedSet<T>,
    processing: SortedSet<T>,
    /// Delayed adds, ordered by ready time then insertion order. A second
    /// `add_after` of an item keeps the earliest time (the set is small: a
    /// linear search finds an item's entry).
    waiting_by_time: Vec<(u64, u64, T)>,
    waiting_seq: u64,
    limiter: ControllerRateLimiter<T>,
    /// controller-runtime's priority queue: each queued or waiting item's
    /// priority (absent: 0); `None` for client-go's queue, which has none.
    priorities: Option<SortedMap<T, i32>>,
    /// The priority queue's `AddedCounter` of each queued or waiting item,
    /// and the next one: the ready items stand in its order, within a priority.
    added: SortedMap<T, u64>,
    added_counter: u64,
}

/// controller-runtime's `handler.LowPriority`: what an event of the initial
/// list, or an update that changed no resourceVersion (a resync), is queued
/// with (v0.24 `pkg/handler/eventhandler.go`).
pub const LOW_PRIORITY: i32 = -100;

impl<T: Ord + Clone> Default for WorkQueue<T> {
    fn default() -> Self {
        Self::new(ControllerRateLimiter::default())
    }
}

impl<T: Ord + Clone> WorkQueue<T> {
    pub fn new(limiter: ControllerRateLimiter<T>) -> Self {
        WorkQueue {
            queue: VecDeque::new(),
            dirty: SortedSet::new(),
            processing: SortedSet::new(),
            waiting_by_time: Vec::new(),
            waiting_seq: 0,
            added: SortedMap::new(),
            added_counter: 0,
            limiter,
            priorities: None,
        }
    }

    /// controller-runtime's priority queue, with its default rate limiter
    /// (`NewTypedItemExponentialFailureRateLimiter(5ms, 1000s)`, no bucket:
    /// `NewTypedUnmanaged`, v0.24 pkg/controller/controller.go).
    pub fn priority_queue() -> Self {
        let limiter = ControllerRateLimiter { item: ItemExponentialFailureRateLimiter::new(5, 1_000_000), bucket: None };
        WorkQueue { priorities: Some(SortedMap::new()), ..Self::new(limiter) }
    }

    /// It is controller-runtime's priority queue.
    pub fn has_priorities(&self) -> bool {
        self.priorities.is_some()
    }

    /// An item's priority while it is queued or waiting (0 on client-go's queue).
    pub fn priority(&self, item: &T) -> i32 {
        self.priorities.as_ref().and_then(|p| p.get(item).copied()).unwrap_or(0)
    }

    /// `AddWithOpts(AddOpts{Priority: &priority}, item)` on the priority
    /// queue (`lockedAddWithOpts`); a plain `add` on client-go's. Returns
    /// true if the item was queued or moved.
    pub fn add_with_priority(&mut self, item: T, priority: i32) -> bool {
        let Some(priorities) = self.priorities.as_mut() else { return self.add(item) };
        if self.dirty.contains(&item) {
            let old = priorities.get(&item).copied().unwrap_or(0);
            if priority <= old {
                return false;
            }
            // A raised priority takes a fresh AddedCounter: behind the others of its priority.
            priorities.insert(item.clone(), priority);
            self.queue.retain(|t| t != &item);
            self.stamp(&item);
            self.queue.push_back(item);
            return true;
        }
        if let Some(w) = self.waiting_by_time.iter().position(|(_, _, t)| t == &item) {
            // Ready now beats a later ready time ("the min of possible durations"). Without a
            // raise of priority it keeps its AddedCounter, so its place among the ready
            // (`lockedAddWithOpts`: "addedCounter := w.items[key].AddedCounter").
            self.waiting_by_time.remove(w);
            let old = priorities.get(&item).copied().unwrap_or(i32::MIN);
            priorities.insert(item.clone(), old.max(priority));
            self.dirty.insert(item.clone());
            match self.added.get(&item).copied().filter(|_| priority <= old) {
                Some(counter) => {
                    let at = self.queue.partition_point(|t| self.added.get(t).is_some_and(|c| *c < counter));
                    self.queue.insert(at, item);
                }
                None => {
                    self.stamp(&item);
                    self.queue.push_back(item);
                }
            }
            return true;
        }
        let p = priorities.get(&item).copied().unwrap_or(i32::MIN).max(priority);
        priorities.insert(item.clone(), p);
        self.dirty.insert(item.clone());
        self.stamp(&item);
        self.queue.push_back(item);
        true
    }

    /// A fresh `AddedCounter` for the item (the priority queue's only).
    fn stamp(&mut self, item: &T) {
        if self.priorities.is_some() {
            self.added.insert(item.clone(), self.added_counter);
            self.added_counter += 1;
        }
    }

    /// `Add`: ignored if the item is already dirty; marked dirty and, unless it is
    /// being processed, pushed to the tail. Returns true if the item was pushed.
    pub fn add(&mut self, item: T) -> bool {
        if self.priorities.is_some() {
            return self.add_with_priority(item, 0);
        }
        if self.dirty.contains(&item) {
            return false;
        }
        self.dirty.insert(item.clone());
        if self.processing.contains(&item) {
            return false;
        }
        self.queue.push_back(item);
        true
    }

    /// The item is dirty: an `Add` now would change nothing.
    pub(crate) fn is_dirty(&self, item: &T) -> bool {
        self.dirty.contains(item)
    }

    /// `Get`: pop the head, move it to processing and out of dirty. The
    /// priority queue's head is its highest-priority item, first added first,
    /// that no worker holds (`GetWithPriority`).
    pub fn get(&mut self) -> Option<T> {
        self.get_with_priority().map(|(item, _)| item)
    }

    /// `GetWithPriority`: the item and the priority it was queued with.
    pub fn get_with_priority(&mut self) -> Option<(T, i32)> {
        let at = match &self.priorities {
            None => 0,
            Some(p) => {
                let mut best: Option<(usize, i32)> = None;
                for (i, t) in self.queue.iter().enumerate() {
                    let prio = p.get(t).copied().unwrap_or(0);
                    if !self.processing.contains(t) && best.is_none_or(|(_, b)| prio > b) {
                        best = Some((i, prio));
                    }
                }
                best?.0
            }
        };
        let item = self.queue.remove(at)?;
        let priority = self.priorities.as_mut().and_then(|p| p.remove(&item)).unwrap_or(0);
        self.added.remove(&item);
        self.processing.insert(item.clone());
        self.dirty.remove(&item);
        Some((item, priority))
    }

    /// `Done`: the worker finished; if the item became dirty meanwhile, push
    /// it now (the priority queue queued it already, where it stands).
    pub fn done(&mut self, item: &T) {
        self.processing.remove(item);
        if self.dirty.contains(item) && self.priorities.is_none() {
            self.queue.push_back(item.clone());
        }
    }

    /// `Len`: the items ready to hand out, not the processing or waiting ones.
    pub fn len(&self) -> usize {
        if self.priorities.is_some() {
            return self.queue.iter().filter(|t| !self.processing.contains(*t)).count();
        }
        self.queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `AddAfter(item, delay)` at simulated time `now_ms`: a delay of 0 is an
    /// immediate `add`; otherwise the item waits, keeping the earliest ready time.
    pub(crate) fn add_after(&mut self, item: T, delay_ms: u64, now_ms: u64) {
        self.add_after_with_priority(item, delay_ms, now_ms, 0);
    }

    /// `AddWithOpts(AddOpts{After: delay, Priority: &priority}, item)`.
    pub(crate) fn add_after_with_priority(&mut self, item: T, delay_ms: u64, now_ms: u64, priority: i32) {
        if delay_ms == 0 {
            self.add_with_priority(item, priority);
            return;
        }
        if self.priorities.is_some() && self.dirty.contains(&item) {
            // Already ready: it stays ready ("the min of possible durations"), at the higher priority.
            self.add_with_priority(item, priority);
            return;
        }
        let waiting = self.waiting_by_time.iter().any(|(_, _, t)| t == &item);
        if let Some(p) = self.priorities.as_mut() {
            let old = p.get(&item).copied();
            let kept = old.unwrap_or(i32::MIN).max(priority);
            p.insert(item.clone(), kept);
            // A new item takes the next AddedCounter, and so does a raise of a waiting one's priority.
            if !waiting || old.is_some_and(|o| priority > o) {
                self.stamp(&item);
            }
        }
        let ready_at = now_ms + delay_ms;
        if let Some(i) = self.waiting_by_time.iter().position(|(_, _, t)| t == &item) {
            if self.waiting_by_time[i].0 <= ready_at {
                return;
            }
            self.waiting_by_time.remove(i);
        }
        self.waiting_seq += 1;
        let entry = (ready_at, self.waiting_seq, item);
        let at = self.waiting_by_time.partition_point(|e| (e.0, e.1) < (entry.0, entry.1));
        self.waiting_by_time.insert(at, entry);
    }

    /// `AddRateLimited`: `add_after(item, limiter.when(item))`. Returns the delay.
    pub(crate) fn add_rate_limited(&mut self, item: T, now_ms: u64) -> u64 {
        self.add_rate_limited_with_priority(item, now_ms, 0)
    }

    /// `AddWithOpts(AddOpts{RateLimited: true, Priority: &priority}, item)`.
    pub(crate) fn add_rate_limited_with_priority(&mut self, item: T, now_ms: u64, priority: i32) -> u64 {
        let delay_ms = self.limiter.when(&item, now_ms);
        self.add_after_with_priority(item, delay_ms, now_ms, priority);
        delay_ms
    }

    /// `Forget`: reset the item's failure count.
    pub fn forget(&mut self, item: &T) {
        self.limiter.forget(item);
    }

    /// `NumRequeues`.
    pub fn num_requeues(&self, item: &T) -> u32 {
        self.limiter.num_requeues(item)
    }

    /// When the earliest waiting item becomes ready, if any.
    pub(crate) fn next_ready_at(&self) -> Option<u64> {
        self.waiting_by_time.first().map(|(at, _, _)| *at)
    }

    /// Move every waiting item whose time has come into the queue. Returns them.
    pub(crate) fn promote_ready(&mut self, now_ms: u64) -> Vec<T> {
        let mut ready = Vec::new();
        while let Some((at, _, _)) = self.waiting_by_time.first() {
            if *at > now_ms {
                break;
            }
            let (_, _, item) = self.waiting_by_time.remove(0);
            // Ready now, at the priority it waited with (a new AddedCounter).
            let priority = self.priority(&item);
            self.add_with_priority(item.clone(), priority);
            ready.push(item);
        }
        ready
    }

    /// The queued items, head first.
    pub fn queued(&self) -> impl Iterator<Item = &T> {
        self.queue.iter()
    }

    /// Items being processed by a worker.
    pub fn processing(&self) -> impl Iterator<Item = &T> {
        self.processing.iter()
    }

    /// Items being processed that were added again meanwhile: they go back on
    /// the queue at `done`.
    pub fn dirty_while_processing(&self) -> impl Iterator<Item = &T> {
        self.processing.iter().filter(|t| self.dirty.contains(*t))
    }

    /// Delayed items and when each becomes ready.
    pub fn waiting(&self) -> impl Iterator<Item = (&T, u64)> {
        self.waiting_by_time.iter().map(|(at, _, t)| (t, *at))
    }

    /// Drop everything: a restarted process starts with an empty queue.
    pub fn clear(&mut self) {
        let priorities = self.priorities.as_ref().map(|_| SortedMap::new());
        *self = WorkQueue { priorities, ..WorkQueue::new(self.limiter.reset()) };
    }
}

/// `ItemExponentialFailureRateLimiter`: `base * 2^failures`, capped.
#[derive(Debug, Clone, Hash)]
pub struct ItemExponentialFailureRateLimiter<T: Ord> {
    pub base_ms: u64,
    pub max_ms: u64,
    failures: SortedMap<T, u32>,
}

impl<T: Ord + Clone> ItemExponentialFailureRateLimiter<T> {
    pub fn new(base_ms: u64, max_ms: u64) -> Self {
        ItemExponentialFailureRateLimiter { base_ms, max_ms, failures: SortedMap::new() }
    }

    /// `When`: the delay for this failure, then count it.
    pub fn when(&mut self, item: &T) -> u64 {
        let exp = self.failures.get(item).copied().unwrap_or(0);
        self.failures.insert(item.clone(), exp + 1);
        // 2^exp overflows long before the cap matters; saturate instead.
        let factor = 1u64.checked_shl(exp).unwrap_or(u64::MAX);
        self.base_ms.saturating_mul(factor).min(self.max_ms)
    }

    pub fn forget(&mut self, item: &T) {
        self.failures.remove(item);
    }

    pub fn num_requeues(&self, item: &T) -> u32 {
        self.failures.get(item).copied().unwrap_or(0)
    }
}

/// `BucketRateLimiter` over `rate.NewLimiter(qps, burst)`, shared by all items.
///
/// Tokens are counted in thousandths so simulated time stays in integers.
#[derive(Debug, Clone, Hash)]
pub struct BucketRateLimiter {
    pub qps: u64,
    pub burst: u64,
    milli_tokens: i64,
    last_ms: u64,
}

impl BucketRateLimiter {
    pub fn new(qps: u64, burst: u64) -> Self {
        BucketRateLimiter { qps, burst, milli_tokens: (burst * 1000) as i64, last_ms: 0 }
    }

    /// `Reserve().Delay()`: take one token, and say how long until it is really there.
    pub fn when(&mut self, now_ms: u64) -> u64 {
        let elapsed_ms = now_ms.saturating_sub(self.last_ms);
        let cap = (self.burst * 1000) as i64;
        // qps tokens per second = qps milli-tokens per millisecond.
        self.milli_tokens = (self.milli_tokens + (elapsed_ms * self.qps) as i64).min(cap);
        self.last_ms = self.last_ms.max(now_ms);
        self.milli_tokens -= 1000;
        if self.milli_tokens >= 0 {
            0
        } else {
            let short = (-self.milli_tokens) as u64;
            short.div_ceil(self.qps.max(1))
        }
    }
}

/// `DefaultControllerRateLimiter`: the max of a per-item exponential backoff
/// (5 ms doubling to 1000 s) and a shared bucket (10 qps, burst 100)
/// (`default_rate_limiters.go:50-56`). controller-runtime's priority queue
/// has the per-item backoff alone (`bucket: None`).
#[derive(Debug, Clone, Hash)]
pub struct ControllerRateLimiter<T: Ord> {
    pub item: ItemExponentialFailureRateLimiter<T>,
    pub bucket: Option<BucketRateLimiter>,
}

impl<T: Ord + Clone> Default for ControllerRateLimiter<T> {
    fn default() -> Self {
        ControllerRateLimiter { item: ItemExponentialFailureRateLimiter::new(5, 1_000_000), bucket: Some(BucketRateLimiter::new(10, 100)) }
    }
}

impl<T: Ord + Clone> ControllerRateLimiter<T> {
    pub fn when(&mut self, item: &T, now_ms: u64) -> u64 {
        let a = self.item.when(item);
        let b = self.bucket.as_mut().map_or(0, |b| b.when(now_ms));
        a.max(b)
    }

    pub fn forget(&mut self, item: &T) {
        self.item.forget(item);
    }

    pub fn num_requeues(&self, item: &T) -> u32 {
        self.item.num_requeues(item)
    }

    /// A fresh limiter with the same settings.
    fn reset(&self) -> Self {
        ControllerRateLimiter {
            item: ItemExponentialFailureRateLimiter::new(self.item.base_ms, self.item.max_ms),
            bucket: self.bucket.as_ref().map(|b| BucketRateLimiter::new(b.qps, b.burst)),
        }
    }
}

/// Ported from client-go `util/workqueue` tests, under their original names.
#[cfg(test)]
mod tests {
    use super::*;

    fn q() -> WorkQueue<&'static str> {
        WorkQueue::default()
    }

    #[test]
    #[allow(non_snake_case)]
    fn TestLen() {
        let mut q = q();
        q.add("foo");
        assert_eq!(q.len(), 1);
        q.add("bar");
        assert_eq!(q.len(), 2);
        q.add("foo"); // already dirty
        assert_eq!(q.len(), 2);
    }

    #[test]
    #[allow(non_snake_case)]
    fn TestReinsert() {
        let mut q = q();
        q.add("foo");
        let i = q.get().unwrap();
        assert_eq!(i, "foo");
        q.add(i);
        q.done(&i);
        let j = q.get().unwrap();
        assert_eq!(j, "foo");
        q.done(&j);
        assert_eq!(q.len(), 0);
        assert!(q.get().is_none());
    }

    #[test]
    #[allow(non_snake_case)]
    fn TestCollapse() {
        let mut q = q();
        q.add("bar");
        q.add("bar");
        let i = q.get().unwrap();
        assert_eq!(i, "bar");
        q.done(&i);
        assert_eq!(q.len(), 0);
        assert!(q.get().is_none());
    }

    #[test]
    #[allow(non_snake_case)]
    fn TestCollapseWhileProcessing() {
        let mut q = q();
        q.add("foo");
        let i = q.get().unwrap();
        q.add("foo");
        q.add("foo");
        // Not handed out again while still processing.
        assert!(q.get().is_none());
        assert_eq!(q.dirty_while_processing().count(), 1);
        q.done(&i);
        assert_eq!(q.get(), Some("foo"));
        q.done(&"foo");
        assert!(q.get().is_none(), "handed out exactly once more");
    }

    #[test]
    #[allow(non_snake_case)]
    fn TestAddWhileProcessing() {
        let mut q: WorkQueue<u32> = WorkQueue::default();
        for i in 0..50 {
            q.add(i);
        }
        let mut readded = std::collections::BTreeSet::new();
        let mut handed = 0;
        while let Some(i) = q.get() {
            handed += 1;
            if readded.insert(i) {
                q.add(i);
            }
            q.done(&i);
        }
        assert_eq!(handed, 100, "each item once, then once more");
        assert_eq!(q.len(), 0);
    }

    #[test]
    fn never_two_workers_on_one_key() {
        let mut q = q();
        q.add("a");
        q.add("b");
        let first = q.get().unwrap();
        q.add(first);
        let second = q.get().unwrap();
        assert_ne!(first, second);
        assert!(q.get().is_none());
    }

    #[test]
    #[allow(non_snake_case)]
    fn TestDeduping() {
        let mut q = q();
        q.add_after("foo", 50, 0);
        q.add_after("foo", 70, 0);
        assert_eq!(q.next_ready_at(), Some(50));
        assert!(q.promote_ready(49).is_empty());
        assert_eq!(q.promote_ready(50), vec!["foo"]);
        assert_eq!(q.len(), 1);
        assert_eq!(q.next_ready_at(), None, "fires once");

        let mut q = self::q();
        q.add_after("foo", 50, 0);
        q.add_after("foo", 30, 0);
        assert_eq!(q.next_ready_at(), Some(30));
        assert_eq!(q.promote_ready(30), vec!["foo"]);
        assert_eq!(q.next_ready_at(), None);
    }

    #[test]
    fn add_after_zero_is_immediate() {
        let mut q = q();
        q.add_after("foo", 0, 10);
        assert_eq!(q.len(), 1);
    }

    #[test]
    #[allow(non_snake_case)]
    fn TestItemExponentialFailureRateLimiter() {
        let mut l = ItemExponentialFailureRateLimiter::new(1, 1000);
        let got: Vec<u64> = (0..5).map(|_| l.when(&"one")).collect();
        assert_eq!(got, vec![1, 2, 4, 8, 16]);
        assert_eq!(l.num_requeues(&"one"), 5);
        // Another item is independent.
        assert_eq!(l.when(&"two"), 1);
        assert_eq!(l.when(&"two"), 2);
        l.forget(&"one");
        assert_eq!(l.num_requeues(&"one"), 0);
        assert_eq!(l.when(&"one"), 1);
        // The cap holds.
        for _ in 0..40 {
            l.when(&"three");
        }
        assert_eq!(l.when(&"three"), 1000);
    }

    #[test]
    fn bucket_allows_burst_then_paces_at_qps() {
        let mut b = BucketRateLimiter::new(10, 100);
        for _ in 0..100 {
            assert_eq!(b.when(0), 0);
        }
        assert_eq!(b.when(0), 100, "the 101st token is 1/10 s away");
        assert_eq!(b.when(0), 200);
        // After a quiet second the bucket has refilled ten tokens, minus the two owed.
        assert_eq!(b.when(1200), 0);
    }

    #[test]
    fn default_controller_limiter_is_max_of_both() {
        let mut l: ControllerRateLimiter<&str> = ControllerRateLimiter::default();
        assert_eq!(l.when(&"a", 0), 5);
        assert_eq!(l.when(&"a", 0), 10);
        assert_eq!(l.when(&"a", 0), 20);
        l.forget(&"a");
        assert_eq!(l.when(&"a", 0), 5);
    }

    #[test]
    fn rate_limited_requeue_waits_then_fires() {
        let mut q = q();
        assert_eq!(q.add_rate_limited("k", 100), 5);
        assert_eq!(q.len(), 0);
        assert_eq!(q.next_ready_at(), Some(105));
        q.promote_ready(105);
        assert_eq!(q.get(), Some("k"));
    }
}
