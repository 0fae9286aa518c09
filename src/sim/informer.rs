//! An informer: a reflector's LIST then WATCH, the events in flight on its
//! watch, and the store (the cache) that listers read.
//!
//! Faithful points (`client-go/tools/cache`): the store is updated before any
//! handler runs; `HasSynced` turns true only once the first LIST is in the store;
//! a relist replaces the store and hands a `DeletedFinalStateUnknown` tombstone
//! to the delete handler for every key the new list lacks; events on one watch
//! are delivered in order, never reordered.
//!
//! How a LIST reaches the store is the [`Fifo`]'s choice: v1.36's AtomicFIFO
//! replaces the store in one step (one frame, `HasSynced` at it); v1.28's
//! DeltaFIFO pops the items one at a time, then the tombstones, and
//! `HasSynced` turns true at the last pop, so a reader between pops sees part
//! of the list.
//!
//! How the first state arrives is the reflector's choice: a LIST, or, with
//! watch-list (client-go's `WatchListClient`, on by default since v0.35), a
//! watch opened with `sendInitialEvents=true` that streams the state as
//! ADDED events into a temporary store, closed by a BOOKMARK annotated
//! `k8s.io/initial-events-end`; only then is the FIFO's `Replace` called
//! with what was streamed (client-go v0.36.3 `tools/cache/reflector.go`,
//! `watchList`). Lose that bookmark and the informer does not sync until
//! the watch ends and a new watch-list's gets through (never, with
//! `cluster.watch_timeout_ms` at its default 0; 5 to 10 minutes upstream).

use super::apiserver::{EventType, WatchEvent};
use super::object::{Kind, ObjectKey, ObjectRc};
use super::shelves::Shelves;
use super::sorted::SortedMap;
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::Arc;

/// How the informer's queue takes a LIST.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize, Hash)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Fifo {
    /// v1.36's AtomicFIFO: the store is replaced at once; `HasSynced` then.
    #[default]
    Atomic,
    /// v1.28's DeltaFIFO: one pop per item, then per tombstone; `HasSynced`
    /// when the initial population is all popped.
    Delta,
}

/// One entry of a DeltaFIFO's initial population.
#[derive(Debug, Clone, Hash)]
pub enum Pop {
    /// `Replaced`/`Sync` of a listed item.
    Item(ObjectRc),
    /// `DeletedFinalStateUnknown` of a key the list lacks.
    Tombstone(ObjectRc),
}

/// What one DeltaFIFO pop did.
#[derive(Debug, Clone, Hash)]
pub struct Popped {
    pub pop: Pop,
    /// The store's previous version of the object, if it had one.
    pub old: Option<ObjectRc>,
    /// 1-based position in the population, and its size.
    pub n: u32,
    pub of: u32,
    /// This pop made `HasSynced` true.
    pub first_sync: bool,
}

/// The timing a schedule chose for one watch event (default: the lag's).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Timing {
    pub nth: u32,
    pub held_ms: u64,
    pub due_ms: Option<u64>,
    pub drop: bool,
}

/// An event on the wire from the apiserver to this informer.
#[derive(Debug, Clone, Hash)]
pub struct InFlight {
    pub event_type: EventType,
    pub object: ObjectRc,
    pub sent_at_ms: u64,
    /// Extra seeded delay for this event on top of the lag.
    pub jitter_ms: u64,
    /// Extra delay a schedule chose for it (a deviation from the default
    /// schedule, the explorer's or a counterexample's); 0 by default.
    pub held_ms: u64,
    /// When a schedule says it arrives instead of after the lag (`u64::MAX`:
    /// held, never within the run), no earlier than the events ahead of it.
    pub due_ms: Option<u64>,
    /// Its ordinal among the events of its kind the apiserver sent (what a schedule names it by).
    pub nth: u32,
    /// A schedule drops it: lost when it would arrive (until then it is on
    /// the wire like any other, so nothing before that moment differs).
    pub drop_on_arrival: bool,
    /// A fault dropped it: it will arrive nowhere.
    pub dropped: bool,
    /// A BOOKMARK: no object, only a resourceVersion (`object` is a
    /// placeholder of the informer's kind, nameless, at that version).
    pub bookmark: bool,
    /// Of a watch-list's initial state: an ADDED of the snapshot, or (with
    /// `bookmark`) the `k8s.io/initial-events-end` BOOKMARK that closes it.
    pub initial: bool,
}

/// Where the reflector is.
#[derive(Debug, Clone, Hash)]
pub enum ListState {
    /// Not started (a controller that is not running).
    Idle,
    /// The LIST is in flight; events committed meanwhile will be in its snapshot.
    Requested { started_at_ms: u64 },
    /// The apiserver answered; the items reach the store at `fill_at_ms`
    /// (the LIST started at `started_at_ms`).
    Listed { items: Vec<ObjectRc>, list_rv: u64, started_at_ms: u64, fill_at_ms: u64 },
    /// A watch-list streams the state (the snapshot at `list_rv`) as ADDED
    /// events into `received`, the reflector's temporary store, until the
    /// `k8s.io/initial-events-end` BOOKMARK; the store is untouched and no
    /// handler runs until then. Events after the snapshot queue behind the
    /// bookmark, and land in `received` too if it is lost.
    Streaming { received: Shelves, list_rv: u64, started_at_ms: u64, of: u32 },
    /// A DeltaFIFO pops the list: `queue[i]` at `times[i]`.
    Popping { queue: VecDeque<(Pop, u64)>, list_rv: u64, of: u32, done_at_ms: u64 },
    /// The store holds a list; the watch delivers events after its resourceVersion.
    Watching { list_rv: u64 },
    /// The watch ended (`410 Expired`) and the reflector is backing off: the
    /// store keeps what it has, and nothing new reaches it until the next LIST.
    Closed,
}

/// What the store did when a list was popped into it, for the handlers.
#[derive(Debug, Clone, Default, Hash)]
pub struct Replaced {
    /// The handler calls, in the order they are made: the store is replaced
    /// first, then every deletion, then the adds and updates in list order
    /// (client-go v0.36.3 `tools/cache/controller.go`,
    /// `processReplacedAllInfo`: "Processing all deletions first matches
    /// behavior of RealFIFO#Replace").
    pub calls: Vec<Replacement>,
    /// This replace made `HasSynced` true.
    pub first_sync: bool,
}

/// One handler call of a [`Replaced`].
#[derive(Debug, Clone, Hash)]
pub enum Replacement {
    /// `DeletedFinalStateUnknown{key, lastKnownObj}` for a key the list lacks.
    Tombstone(ObjectRc),
    Added(ObjectRc),
    /// (old, new): the same resourceVersion means nothing changed.
    Updated(ObjectRc, ObjectRc),
}

impl Replaced {
    /// The tombstones it handed out, in order.
    pub fn tombstones(&self) -> impl Iterator<Item = &ObjectRc> {
        self.calls.iter().filter_map(|c| match c {
            Replacement::Tombstone(o) => Some(o),
            _ => None,
        })
    }
}

/// A watch event handed to the handlers, after the store took it.
#[derive(Debug, Clone, Hash)]
pub struct Delivered {
    pub event: InFlight,
    /// The store's previous version of the object, if it had one.
    pub old: Option<ObjectRc>,
    /// A watch-list is still streaming its initial state: the event went to
    /// the temporary store, and no handler runs (with its count so far).
    pub streamed: Option<u32>,
}

/// What a controller's reflector arms its informer to lose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DropNext {
    /// The next watch event, of this type if given.
    Event(Option<EventType>),
    /// The next BOOKMARK (a watch-list's `k8s.io/initial-events-end` among them).
    Bookmark,
}

/// What is in flight for each object of an informer's kind, by (namespace,
/// name): its newest event not lost, and when the store will hold it
/// ([`Informer::pending`]). A sorted list, searched by halves.
#[derive(Debug, Default)]
pub struct Pending<'a>(Vec<(NameOf<'a>, (EventType, u64))>);

/// An object's (namespace, name), borrowed from the wire.
type NameOf<'a> = (&'a str, &'a str);

impl Pending<'_> {
    pub fn get(&self, namespace: &str, name: &str) -> Option<(EventType, u64)> {
        self.0.binary_search_by(|(k, _)| k.cmp(&(namespace, name))).ok().map(|i| self.0[i].1)
    }
}

/// One informer for one kind, across all namespaces.
#[derive(Debug, Clone, Hash)]
pub struct Informer {
    pub kind: Kind,
    store: Shelves,
    /// Of the objects in the store, how many each controller (by UID) owns
    /// that are not Terminating: `FilterActivePods` over the lister, kept as
    /// the store changes, so a reconcile reads its count instead of scanning
    /// every object (the same number; at 1,000 pods the scan was a tenth of
    /// the simulation's time).
    active_by_controller: SortedMap<u64, u32>,
    /// Of the objects in the store, how many carry each value of one label,
    /// by namespace: what a controller that counts its children by label
    /// (`client.MatchingLabels`) reads, kept as the store changes, as
    /// client-go's indexers are (`AddIndexers`). Asked for by the
    /// controller ([`Informer::index_label`]); none otherwise.
    by_label: Option<LabelIndex>,
    in_flight: VecDeque<InFlight>,
    state: ListState,
    has_synced: bool,
    last_delivered_at_ms: u64,
    /// `LastStoreSyncResourceVersion`: the resourceVersion of the last LIST
    /// or event applied to the store, the informer's progress mark.
    last_sync_rv: u64,
    /// Faults armed: what to drop next, each used once, in the order armed
    /// (a bookmark and an ADDED event armed together are each dropped).
    drop_next: Vec<DropNext>,
    pub fifo: Fifo,
    /// The reflector's first state (and each relist) is a watch-list stream, not a LIST.
    pub watch_list: bool,
}

impl InFlight {
    /// An event sent at `sent_at_ms` on the default timing.
    fn new(event_type: EventType, object: ObjectRc, sent_at_ms: u64) -> Self {
        InFlight {
            event_type,
            object,
            sent_at_ms,
            jitter_ms: 0,
            held_ms: 0,
            due_ms: None,
            nth: 0,
            drop_on_arrival: false,
            dropped: false,
            bookmark: false,
            initial: false,
        }
    }
}

impl Informer {
    pub fn new(kind: Kind) -> Self {
        Informer {
            kind,
            store: Shelves::default(),
            active_by_controller: SortedMap::new(),
            by_label: None,
            in_flight: VecDeque::new(),
            state: ListState::Idle,
            has_synced: false,
            last_delivered_at_ms: 0,
            last_sync_rv: 0,
            drop_next: Vec::new(),
            fifo: Fifo::Atomic,
            watch_list: false,
        }
    }

    /// `HasSynced`: the first LIST is in the store and its handlers have run.
    pub(crate) fn has_synced(&self) -> bool {
        self.has_synced
    }

    /// `LastStoreSyncResourceVersion`: how far this store has read the
    /// cluster's history (events and LISTs alike; a dropped event reads nothing).
    pub fn last_sync_rv(&self) -> u64 {
        self.last_sync_rv
    }

    pub fn state(&self) -> &ListState {
        &self.state
    }

    /// The lister: `Get(key)`.
    pub fn get(&self, key: &ObjectKey) -> Option<&ObjectRc> {
        self.store.get(key)
    }

    /// The lister: every cached object, by key.
    pub fn list(&self) -> impl Iterator<Item = &ObjectRc> {
        self.store.values()
    }

    /// How many cached objects the controller with this UID owns (its
    /// `controllerRef`) that are not Terminating: what
    /// `FilterActivePods(ListPods(...))` counts.
    pub fn active_controlled_by(&self, uid: u64) -> u32 {
        self.active_by_controller.get(&uid).copied().unwrap_or(0)
    }

    /// The store, with `active_by_controller` and `by_label` kept in step:
    /// `object` in (or, `deleted`, out of its key), and out what it replaces.
    fn store_put(&mut self, object: &ObjectRc, deleted: bool) -> Option<ObjectRc> {
        let old = if deleted {
            self.store.remove(&object.namespace, &object.name)
        } else {
            count_active(&mut self.active_by_controller, object, true);
            if let Some(index) = &mut self.by_label {
                index.count(object, true);
            }
            self.store.insert(object.clone())
        };
        if let Some(old) = &old {
            count_active(&mut self.active_by_controller, old, false);
            if let Some(index) = &mut self.by_label {
                index.count(old, false);
            }
        }
        old
    }

    /// Keep a count of the store's objects by the value of `label`, per
    /// namespace, from now on ([`Informer::labelled`] reads it).
    pub(crate) fn index_label(&mut self, label: Arc<str>) {
        let mut index = LabelIndex { label, counts: Vec::new() };
        for o in self.store.values() {
            index.count(o, true);
        }
        self.by_label = Some(index);
    }

    /// How many objects of `namespace` in the store carry `label=value`, and
    /// how many of those are not Terminating; `None` unless the informer
    /// keeps a count by that label ([`Informer::index_label`]).
    pub fn labelled(&self, label: &str, namespace: &str, value: &str) -> Option<(u32, u32)> {
        let index = self.by_label.as_ref().filter(|i| &*i.label == label)?;
        Some(index.get(namespace, value))
    }

    /// How many counts [`Informer::index_label`] keeps (a world's weight counts them).
    pub(crate) fn labels_counted(&self) -> usize {
        self.by_label.as_ref().map_or(0, |i| i.counts.len())
    }

    pub fn len(&self) -> usize {
        self.store.len()
    }

    pub fn is_empty(&self) -> bool {
        self.store.is_empty()
    }

    /// Start the reflector: the caller sends the LIST and calls [`Informer::listed`] with the answer.
    pub fn start_list(&mut self, now_ms: u64) {
        self.state = ListState::Requested { started_at_ms: now_ms };
        // The old watch is gone; what it carried is in the new list.
        self.in_flight.clear();
    }

    /// The LIST was answered at `now_ms`. The items reach the store no earlier
    /// than `initial_list_ms` after the LIST started: decoding and popping a big
    /// list is the slow part.
    pub fn listed(&mut self, items: Vec<ObjectRc>, list_rv: u64, now_ms: u64, initial_list_ms: u64) {
        let started = match self.state {
            ListState::Requested { started_at_ms } => started_at_ms,
            _ => now_ms,
        };
        let fill_at_ms = now_ms.max(started + initial_list_ms);
        self.state = ListState::Listed { items, list_rv, started_at_ms: started, fill_at_ms };
    }

    /// The watch-list's watch was answered at `now_ms` with the snapshot at
    /// `list_rv`: its items join the wire as ADDED events, sent evenly until
    /// `initial_list_ms` after the request (the apiserver streaming a big
    /// state), then the `k8s.io/initial-events-end` BOOKMARK at `list_rv`.
    /// Each travels the watch, lag included; events committed after the
    /// snapshot follow the bookmark.
    pub fn streamed(&mut self, items: Vec<ObjectRc>, list_rv: u64, now_ms: u64, initial_list_ms: u64) {
        let started = match self.state {
            ListState::Requested { started_at_ms } => started_at_ms,
            _ => now_ms,
        };
        let end_ms = now_ms.max(started + initial_list_ms);
        let span = end_ms - now_ms;
        let of = items.len() as u64;
        for (i, o) in items.into_iter().enumerate() {
            let drop = self.take_drop(|d| matches!(d, DropNext::Event(None) | DropNext::Event(Some(EventType::Added))));
            let mut e = InFlight::new(EventType::Added, o, now_ms + span * (i as u64 + 1) / (of + 1));
            (e.initial, e.dropped) = (true, drop);
            self.in_flight.push_back(e);
        }
        self.state = ListState::Streaming { received: Shelves::default(), list_rv, started_at_ms: started, of: of as u32 };
        let mut end = self.bookmark_at(list_rv, end_ms);
        end.initial = true;
        end.dropped = self.take_drop(|d| d == DropNext::Bookmark);
        self.in_flight.push_back(end);
    }

    /// Whether an armed fault takes this one; the first that does is spent.
    fn take_drop(&mut self, takes: impl Fn(DropNext) -> bool) -> bool {
        let hit = self.drop_next.iter().position(|d| takes(*d));
        if let Some(i) = hit {
            self.drop_next.remove(i);
        }
        hit.is_some()
    }

    /// A committed change. It joins the wire if the watch covers it.
    pub fn offer(&mut self, event: &WatchEvent, now_ms: u64, jitter_ms: u64) {
        self.offer_timed(event, now_ms, jitter_ms, Timing::default());
    }

    /// A committed change, on the timing a schedule chose for it.
    pub(crate) fn offer_timed(&mut self, event: &WatchEvent, now_ms: u64, jitter_ms: u64, timing: Timing) {
        let list_rv = match &self.state {
            ListState::Listed { list_rv, .. }
            | ListState::Streaming { list_rv, .. }
            | ListState::Popping { list_rv, .. }
            | ListState::Watching { list_rv } => *list_rv,
            ListState::Idle | ListState::Requested { .. } | ListState::Closed => return,
        };
        if event.object.resource_version <= list_rv {
            return;
        }
        let dropped = self.take_drop(|d| matches!(d, DropNext::Event(t) if t.is_none_or(|t| t == event.event_type)));
        let mut e = InFlight::new(event.event_type, event.object.clone(), now_ms);
        e.jitter_ms = jitter_ms;
        e.held_ms = timing.held_ms;
        e.due_ms = timing.due_ms;
        e.nth = timing.nth;
        e.drop_on_arrival = timing.drop;
        e.dropped = dropped;
        self.in_flight.push_back(e);
    }

    /// The apiserver's BOOKMARK at `rv` joins the wire of an established watch.
    pub(crate) fn offer_bookmark(&mut self, rv: u64, now_ms: u64) {
        if !self.is_watching() {
            return;
        }
        let mut e = self.bookmark_at(rv, now_ms);
        e.dropped = self.take_drop(|d| d == DropNext::Bookmark);
        self.in_flight.push_back(e);
    }

    /// A BOOKMARK at `rv`, sent at `now_ms`.
    fn bookmark_at(&self, rv: u64, now_ms: u64) -> InFlight {
        let spec = super::object::Spec::empty(self.kind);
        let placeholder = super::object::Object {
            namespace: Default::default(),
            name: Default::default(),
            uid: 0,
            resource_version: rv,
            creation_rv: rv,
            generate_name: None,
            labels: Default::default(),
            annotations: Default::default(),
            owner_references: Default::default(),
            finalizers: Vec::new(),
            generation: 0,
            deletion_timestamp_ms: None,
            deletion_grace_period_ms: None,
            spec,
            status: None,
        };
        let mut e = InFlight::new(EventType::Modified, ObjectRc::new(placeholder), now_ms);
        e.bookmark = true;
        e
    }

    /// Arm a fault: the next event (or bookmark) it names is dropped on the wire.
    pub(crate) fn drop_next(&mut self, what: DropNext) {
        self.drop_next.push(what);
    }

    /// When the next thing happens to this informer, under a watch lag of `lag_ms`.
    pub(crate) fn next_due(&self, lag_ms: u64) -> Option<u64> {
        match &self.state {
            ListState::Listed { fill_at_ms, .. } => Some(*fill_at_ms),
            ListState::Popping { queue, .. } => queue.front().map(|(_, at)| *at),
            ListState::Watching { .. } | ListState::Streaming { .. } => {
                self.in_flight.front().map(|e| self.deliver_at(e, lag_ms, self.last_delivered_at_ms))
            }
            ListState::Idle | ListState::Requested { .. } | ListState::Closed => None,
        }
    }

    fn deliver_at(&self, e: &InFlight, lag_ms: u64, previous_ms: u64) -> u64 {
        // In order: never before the event ahead of it.
        e.due_ms.unwrap_or_else(|| e.sent_at_ms.saturating_add(lag_ms + e.jitter_ms + e.held_ms)).max(previous_ms)
    }

    /// The events on the wire, head first, without their delivery times.
    pub fn wire(&self) -> impl Iterator<Item = &InFlight> {
        self.in_flight.iter()
    }

    /// How many events are on the wire.
    pub(crate) fn in_flight_len(&self) -> usize {
        self.in_flight.len()
    }

    /// The events [`Informer::in_flight`] lists, head first, without their
    /// delivery times: what a count of them reads (a reconcile counting its
    /// children's ADDED events walks the wire; it need not build a list).
    pub fn on_the_wire(&self) -> impl Iterator<Item = &InFlight> {
        let listening = !matches!(self.state, ListState::Idle | ListState::Requested { .. } | ListState::Closed);
        self.in_flight.iter().filter(move |_| listening)
    }

    /// The events on the wire with their delivery times under `lag_ms`, head first.
    /// A changed lag moves events already in flight too.
    pub fn in_flight(&self, lag_ms: u64) -> Vec<(&InFlight, u64)> {
        let mut previous = self.last_delivered_at_ms;
        let mut out = Vec::with_capacity(self.in_flight.len());
        match self.state {
            ListState::Listed { fill_at_ms, .. } => previous = previous.max(fill_at_ms),
            // Behind the population in the queue.
            ListState::Popping { done_at_ms, .. } => previous = previous.max(done_at_ms),
            ListState::Watching { .. } | ListState::Streaming { .. } => {}
            ListState::Idle | ListState::Requested { .. } | ListState::Closed => return out,
        }
        for e in &self.in_flight {
            let at = self.deliver_at(e, lag_ms, previous);
            previous = at;
            out.push((e, at));
        }
        out
    }

    /// The in-flight event for `key`, if any (the newest one), and when the
    /// store will hold it: a watch-list's initial event only at its
    /// `initial-events-end` bookmark (never, if that is lost).
    pub fn pending_for(&self, key: &ObjectKey, lag_ms: u64) -> Option<(EventType, u64)> {
        self.pending(lag_ms).get(&key.namespace, &key.name)
    }

    /// [`Informer::pending_for`] of every object with an event in flight, in
    /// one pass over the wire: what a panel drawing every row asks (one call
    /// a row was the wire walked once a row).
    pub fn pending(&self, lag_ms: u64) -> Pending<'_> {
        let wire = self.in_flight(lag_ms);
        // Of a watch-list's initial state, the store holds each at the bookmark that ends it.
        let end = if self.is_streaming() {
            match wire.iter().find(|(e, _)| e.bookmark && e.initial && !e.dropped) {
                Some((_, at)) => Some(*at),
                None => return Pending(Vec::new()),
            }
        } else {
            None
        };
        let mut all: Vec<_> = wire
            .iter()
            .filter(|(e, _)| !e.dropped && !e.bookmark)
            .map(|(e, at)| ((e.object.namespace.as_str(), e.object.name.as_str()), (e.event_type, end.unwrap_or(*at))))
            .collect();
        // By object, each object's events in wire order (a stable sort); the newest, last, is kept.
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all.reverse();
        all.dedup_by(|later, newer| later.0 == newer.0);
        all.reverse();
        Pending(all)
    }

    /// A DeltaFIFO's `Replace`: the listed items, then a tombstone for each
    /// stored key the list lacks, queued to pop one at a time, evenly from
    /// `now_ms` to the list's fill time (`HasSynced` at the last).
    pub(crate) fn queue_population(&mut self, now_ms: u64) {
        let ListState::Listed { items, list_rv, fill_at_ms, .. } = std::mem::replace(&mut self.state, ListState::Idle) else {
            panic!("queue_population called when no list is waiting");
        };
        let mut listed = Shelves::default();
        for o in &items {
            listed.insert(o.clone());
        }
        let gone = self.store.values().filter(|o| listed.get_named(&o.namespace, &o.name).is_none()).map(|o| Pop::Tombstone(o.clone()));
        let gone: Vec<Pop> = gone.collect();
        let mut pops: Vec<Pop> = items.into_iter().map(Pop::Item).collect();
        pops.extend(gone);
        let of = pops.len() as u64;
        let span = fill_at_ms.saturating_sub(now_ms);
        let queue = pops.into_iter().enumerate().map(|(i, p)| (p, now_ms + span * (i as u64 + 1) / of.max(1))).collect();
        self.state = ListState::Popping { queue, list_rv, of: of as u32, done_at_ms: fill_at_ms.max(now_ms) };
        if of == 0 {
            // An empty population: `Replace` with nothing is synced at once.
            self.state = ListState::Watching { list_rv };
            self.last_sync_rv = self.last_sync_rv.max(list_rv);
            self.has_synced = true;
        }
    }

    /// Is a DeltaFIFO population being popped?
    pub(crate) fn is_popping(&self) -> bool {
        matches!(self.state, ListState::Popping { .. })
    }

    /// Pop the next entry of the population into the store.
    pub fn pop(&mut self, now_ms: u64) -> Popped {
        let ListState::Popping { queue, list_rv, of, .. } = &mut self.state else {
            panic!("pop called with no population");
        };
        let (pop, _) = queue.pop_front().expect("a queued pop");
        let (n, of, list_rv, last) = (*of - queue.len() as u32, *of, *list_rv, queue.is_empty());
        let old = match &pop {
            Pop::Item(o) => self.store_put(o, false),
            Pop::Tombstone(o) => self.store_put(o, true),
        };
        self.last_delivered_at_ms = now_ms;
        let mut first_sync = false;
        if last {
            self.state = ListState::Watching { list_rv };
            self.last_sync_rv = self.last_sync_rv.max(list_rv);
            first_sync = !self.has_synced;
            self.has_synced = true;
        }
        Popped { pop, old, n, of, first_sync }
    }

    /// Pop the listed items into the store: `Replace`.
    pub fn fill(&mut self, now_ms: u64) -> Replaced {
        let ListState::Listed { items, list_rv, .. } = std::mem::replace(&mut self.state, ListState::Idle) else {
            panic!("fill called when no list is waiting");
        };
        let mut new_store = Shelves::default();
        let mut replacements = Vec::with_capacity(items.len());
        for item in items {
            replacements.push(match self.store.get_named(&item.namespace, &item.name) {
                None => Replacement::Added(item.clone()),
                Some(old) => Replacement::Updated(old.clone(), item.clone()),
            });
            new_store.insert(item);
        }
        let mut out = Replaced::default();
        for old in self.store.values() {
            if new_store.get_named(&old.namespace, &old.name).is_none() {
                out.calls.push(Replacement::Tombstone(old.clone()));
            }
        }
        out.calls.append(&mut replacements);
        self.store = new_store;
        self.active_by_controller.clear();
        for o in self.store.values() {
            count_active(&mut self.active_by_controller, o, true);
        }
        if let Some(index) = self.by_label.take() {
            self.index_label(index.label);
        }
        self.state = ListState::Watching { list_rv };
        self.last_sync_rv = self.last_sync_rv.max(list_rv);
        self.last_delivered_at_ms = now_ms;
        out.first_sync = !self.has_synced;
        self.has_synced = true;
        out
    }

    /// Deliver the head of the wire: update the store, then hand the event to
    /// the handlers. While a watch-list streams, an event goes to the
    /// temporary store instead, and its closing bookmark turns what was
    /// streamed into a list waiting for the FIFO's `Replace` (at once: the
    /// caller fills or pops it as it does a LIST's).
    pub fn deliver(&mut self, now_ms: u64) -> Delivered {
        let mut event = self.in_flight.pop_front().expect("deliver called with nothing in flight");
        event.dropped |= event.drop_on_arrival;
        self.last_delivered_at_ms = now_ms;
        if event.dropped {
            return Delivered { event, old: None, streamed: None };
        }
        if let ListState::Streaming { received, list_rv, started_at_ms, .. } = &mut self.state {
            if event.bookmark && event.initial {
                let items = std::mem::take(received).into_values().collect();
                let (list_rv, started_at_ms) = (*list_rv, *started_at_ms);
                self.state = ListState::Listed { items, list_rv, started_at_ms, fill_at_ms: now_ms };
                return Delivered { event, old: None, streamed: None };
            }
            if event.bookmark {
                return Delivered { event, old: None, streamed: None };
            }
            let old = match event.event_type {
                EventType::Added | EventType::Modified => received.insert(event.object.clone()),
                EventType::Deleted => received.remove(&event.object.namespace, &event.object.name),
            };
            let n = received.len() as u32;
            return Delivered { event, old, streamed: Some(n) };
        }
        self.last_sync_rv = self.last_sync_rv.max(event.object.resource_version);
        if event.bookmark {
            // Nothing changes in the store; only its progress mark moves.
            return Delivered { event, old: None, streamed: None };
        }
        let old = self.store_put(&event.object, event.event_type == EventType::Deleted);
        Delivered { event, old, streamed: None }
    }

    /// The watch ended: what was on its wire is lost (the next LIST has it).
    pub(crate) fn close_watch(&mut self) {
        self.state = ListState::Closed;
        self.in_flight.clear();
    }

    pub(crate) fn is_watching(&self) -> bool {
        matches!(self.state, ListState::Watching { .. })
    }

    /// A watch-list is streaming its initial state, its closing bookmark not yet in.
    pub(crate) fn is_streaming(&self) -> bool {
        matches!(self.state, ListState::Streaming { .. })
    }

    /// A restarted process: an empty cache, no watch, not synced.
    pub fn reset(&mut self) {
        let (fifo, watch_list, by_label) = (self.fifo, self.watch_list, self.by_label.take());
        *self = Informer::new(self.kind);
        (self.fifo, self.watch_list) = (fifo, watch_list);
        if let Some(index) = by_label {
            self.index_label(index.label);
        }
    }
}

/// The informer's condition as the Cache panel shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Idle,
    Listing,
    Synced,
}

impl Informer {
    pub fn phase(&self) -> Phase {
        match (&self.state, self.has_synced) {
            (ListState::Idle, false) => Phase::Idle,
            (_, true) => Phase::Synced,
            (_, false) => Phase::Listing,
        }
    }
}

/// The store's objects counted by the value of one label, per namespace:
/// (all, not Terminating). A sorted list, not a map: a world is cloned at
/// every checkpoint, and a B-tree's nodes cost a clone a few hundred bytes
/// for the one or two owners a scenario has.
#[derive(Debug, Clone, Hash)]
struct LabelIndex {
    label: Arc<str>,
    /// (namespace, value, all, not Terminating), by namespace and value; no count of 0.
    counts: Vec<(super::object::Name, String, u32, u32)>,
}

impl LabelIndex {
    fn find(&self, namespace: &str, value: &str) -> Result<usize, usize> {
        self.counts.binary_search_by(|(n, v, ..)| (n.as_str(), v.as_str()).cmp(&(namespace, value)))
    }

    fn get(&self, namespace: &str, value: &str) -> (u32, u32) {
        self.find(namespace, value).map_or((0, 0), |i| (self.counts[i].2, self.counts[i].3))
    }

    /// `o` counted in (`add`) or out.
    fn count(&mut self, o: &ObjectRc, add: bool) {
        let Some(value) = o.labels.get(&*self.label) else { return };
        let active = u32::from(!o.is_terminating());
        match (self.find(&o.namespace, value), add) {
            (Ok(i), true) => {
                let n = &mut self.counts[i];
                (n.2, n.3) = (n.2 + 1, n.3 + active);
            }
            (Err(i), true) => self.counts.insert(i, (o.namespace.clone(), value.clone(), 1, active)),
            (Ok(i), false) => {
                let n = &mut self.counts[i];
                (n.2, n.3) = (n.2.saturating_sub(1), n.3.saturating_sub(active));
                if n.2 == 0 {
                    self.counts.remove(i);
                }
            }
            (Err(_), false) => {}
        }
    }
}

/// Ported from client-go `delta_fifo_test.go` and `reflector` behaviour.
/// `o` counted into (`add`) or out of `counts`, the store's active objects by controller UID.
fn count_active(counts: &mut SortedMap<u64, u32>, o: &ObjectRc, add: bool) {
    let Some(uid) = o.controller_ref().map(|r| r.uid).filter(|_| !o.is_terminating()) else { return };
    let n = counts.get(&uid).copied().unwrap_or(0);
    match (add, n) {
        (true, n) => counts.insert(uid, n + 1),
        (false, 0 | 1) => {
            counts.remove(&uid);
        }
        (false, n) => counts.insert(uid, n - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::object::{Object, Spec};

    fn cm(name: &str, rv: u64) -> ObjectRc {
        ObjectRc::new(Object::bare("ns", name, rv, Spec::ConfigMap))
    }

    /// The count by label ([`Informer::index_label`]) is what a scan of the
    /// store counts, through each of the two ways the store changes
    /// (`store_put`, which a watch event and a DeltaFIFO pop both reach, and
    /// `fill`, which a relist's and a watch-list's replace reach): an object
    /// added, updated (relabelled, Terminating), deleted, a relist, a restart.
    #[test]
    fn the_count_by_label_is_what_a_scan_counts() {
        let labelled = |name: &str, rv: u64, owner: &str, terminating: bool| {
            let mut o = Object::bare("ns", name, rv, Spec::ConfigMap);
            o.labels = std::rc::Rc::new([("owner".to_string(), owner.to_string())].into_iter().collect());
            o.deletion_timestamp_ms = terminating.then_some(1);
            ObjectRc::new(o)
        };
        let scan = |inf: &Informer, owner: &str| {
            let all: Vec<&ObjectRc> = inf.list().filter(|o| o.labels.get("owner").map(String::as_str) == Some(owner)).collect();
            (all.len() as u32, all.iter().filter(|o| !o.is_terminating()).count() as u32)
        };
        let agrees = |inf: &Informer, at: &str| {
            for owner in ["x", "y", "z"] {
                assert_eq!(inf.labelled("owner", "ns", owner), Some(scan(inf, owner)), "{at}: owner={owner}");
            }
        };
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.store_put(&labelled("a", 1, "x", false), false);
        assert_eq!(inf.labelled("owner", "ns", "x"), None, "no count until asked for");
        inf.index_label("owner".into());
        assert_eq!(inf.labelled("owner", "ns", "x"), Some((1, 1)), "what the store held when asked is counted");
        assert_eq!(inf.labelled("app", "ns", "x"), None, "another label is not counted");
        assert_eq!(inf.labelled("owner", "other", "x"), Some((0, 0)), "another namespace holds none");
        inf.store_put(&labelled("b", 2, "x", false), false);
        inf.store_put(&labelled("c", 3, "y", false), false);
        inf.store_put(&cm("d", 4), false);
        agrees(&inf, "added");
        inf.store_put(&labelled("b", 5, "x", true), false);
        inf.store_put(&labelled("a", 6, "y", false), false);
        agrees(&inf, "updated");
        assert_eq!(inf.labelled("owner", "ns", "x"), Some((1, 0)), "b, Terminating");
        inf.store_put(&labelled("c", 7, "y", false), true);
        inf.store_put(&labelled("b", 8, "x", true), true);
        agrees(&inf, "deleted");
        inf.start_list(10);
        inf.listed(vec![labelled("e", 9, "z", false), labelled("f", 9, "z", true), cm("g", 9)], 9, 10, 0);
        inf.fill(10);
        agrees(&inf, "replaced by a relist");
        assert_eq!(inf.labelled("owner", "ns", "z"), Some((2, 1)));
        inf.reset();
        agrees(&inf, "restarted");
        assert_eq!(inf.labelled("owner", "ns", "z"), Some((0, 0)), "an empty cache, still counted");
    }

    /// `TestDeltaFIFO_HasSynced` (`delta_fifo_test.go`): not synced before a
    /// `Replace`; synced at once by an empty one; after `Replace([a, b])`,
    /// false until both are popped, and the tombstones of keys the list lacks
    /// count in the initial population too.
    #[test]
    #[allow(non_snake_case)]
    fn TestDeltaFIFO_HasSynced() {
        let delta = || {
            let mut inf = Informer::new(Kind::ConfigMap);
            inf.fifo = Fifo::Delta;
            inf
        };
        let mut inf = delta();
        assert!(!inf.has_synced(), "nothing happened");
        inf.start_list(0);
        inf.listed(vec![], 0, 0, 0);
        inf.queue_population(0);
        assert!(inf.has_synced(), "Replace of nothing is synced at once");

        let mut inf = delta();
        inf.start_list(0);
        inf.listed(vec![cm("a", 1), cm("b", 2)], 2, 10, 100);
        inf.queue_population(10);
        assert!(!inf.has_synced(), "Replace([a, b]) queued, nothing popped");
        assert_eq!(inf.next_due(0), Some(55), "pops spread evenly to the fill time");
        let first = inf.pop(55);
        assert!(!inf.has_synced() && !first.first_sync, "one of two popped");
        assert_eq!(inf.len(), 1, "a reader sees part of the list");
        let second = inf.pop(100);
        assert!(inf.has_synced() && second.first_sync, "both popped");
        assert_eq!((second.n, second.of), (2, 2));

        // A relist whose list lacks a stored key: its tombstone is popped last.
        inf.start_list(200);
        inf.listed(vec![cm("b", 2)], 3, 210, 0);
        inf.queue_population(210);
        let pops: Vec<bool> = std::iter::from_fn(|| inf.is_popping().then(|| matches!(inf.pop(210).pop, Pop::Tombstone(_)))).collect();
        assert_eq!(pops, [false, true]);
        assert!(inf.get(&ObjectKey::new("ns", "a")).is_none());
    }

    /// Its AtomicFIFO counterpart (v1.36): the list is one `ReplacedAll`
    /// entry, and `HasSynced` turns true when that one entry is processed.
    #[test]
    #[allow(non_snake_case)]
    fn TestAtomicFIFO_HasSynced() {
        let mut inf = Informer::new(Kind::ConfigMap);
        assert!(!inf.has_synced());
        inf.start_list(0);
        assert!(!inf.has_synced(), "a LIST in flight is not a sync");
        inf.listed(vec![cm("a", 1), cm("b", 2)], 2, 10, 100);
        assert!(!inf.has_synced(), "listed but not yet popped");
        assert_eq!(inf.next_due(0), Some(100));
        let r = inf.fill(100);
        assert!(r.first_sync);
        assert!(inf.has_synced());
        assert_eq!(inf.len(), 2);
    }

    #[test]
    fn store_is_updated_before_handlers_and_events_arrive_in_order_after_the_lag() {
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.start_list(0);
        inf.listed(vec![], 0, 0, 0);
        inf.fill(0);
        let a = WatchEvent { event_type: EventType::Added, object: cm("a", 1) };
        let b = WatchEvent { event_type: EventType::Added, object: cm("b", 2) };
        inf.offer(&a, 10, 50); // jitter pushes a later than b's own time
        inf.offer(&b, 20, 0);
        let times: Vec<u64> = inf.in_flight(100).iter().map(|(_, at)| *at).collect();
        assert_eq!(times, vec![160, 160], "b waits for a: never reordered");
        assert_eq!(inf.next_due(100), Some(160));
        assert!(inf.get(&ObjectKey::new("ns", "a")).is_none(), "not in the cache while in flight");
        let d = inf.deliver(160);
        assert_eq!(d.event.object.name, "a");
        assert!(inf.get(&ObjectKey::new("ns", "a")).is_some());
        // A longer lag moves events already on the wire.
        assert_eq!(inf.next_due(1000), Some(1020));
    }

    #[test]
    fn events_covered_by_the_list_are_not_delivered_twice() {
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.start_list(0);
        inf.offer(&WatchEvent { event_type: EventType::Added, object: cm("a", 1) }, 0, 0);
        inf.listed(vec![cm("a", 1)], 1, 5, 0);
        inf.offer(&WatchEvent { event_type: EventType::Added, object: cm("a", 1) }, 5, 0);
        assert!(inf.in_flight(0).is_empty());
        inf.offer(&WatchEvent { event_type: EventType::Added, object: cm("b", 2) }, 6, 0);
        assert_eq!(inf.in_flight(0).len(), 1);
    }

    #[test]
    fn relist_hands_tombstones_for_vanished_keys() {
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.start_list(0);
        inf.listed(vec![cm("a", 1), cm("b", 2)], 2, 0, 0);
        inf.fill(0);
        inf.start_list(50);
        inf.listed(vec![cm("b", 2), cm("c", 4)], 4, 60, 0);
        let r = inf.fill(60);
        assert!(!r.first_sync);
        assert_eq!(r.tombstones().map(|o| o.name.as_str()).collect::<Vec<_>>(), vec!["a"]);
        assert!(matches!(&r.calls[1..], [Replacement::Updated(..), Replacement::Added(_)]));
        assert!(inf.get(&ObjectKey::new("ns", "a")).is_none());
    }

    /// Ported from client-go v0.36.3 `tools/cache/controller_test.go`
    /// `TestReplaceEvents`, its atomic case: the store is replaced before
    /// any handler runs, then deletions come first, then the updates and
    /// adds in list order.
    #[test]
    #[allow(non_snake_case)]
    fn TestReplaceEvents() {
        let with_label = |name: &str, rv: u64, ver: &str| {
            let mut o = (*cm(name, rv)).clone();
            std::rc::Rc::make_mut(&mut o.labels).insert("ver".into(), ver.into());
            ObjectRc::new(o)
        };
        let record = |r: &Replaced| -> Vec<(&'static str, String, u64)> {
            r.calls
                .iter()
                .map(|c| match c {
                    Replacement::Tombstone(o) => ("delete", o.key().to_string(), o.resource_version),
                    Replacement::Added(o) => ("add", o.key().to_string(), o.resource_version),
                    Replacement::Updated(_, o) => ("update", o.key().to_string(), o.resource_version),
                })
                .collect()
        };
        let s = |v: &[(&'static str, &str, u64)]| v.iter().map(|(a, k, rv)| (*a, k.to_string(), *rv)).collect::<Vec<_>>();

        // "Create with no initial objects"
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.start_list(0);
        inf.listed(vec![cm("pod-1", 1)], 1, 0, 0);
        assert_eq!(record(&inf.fill(0)), s(&[("add", "ns/pod-1", 1)]));

        // "Delete all objects"
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.start_list(0);
        inf.listed(vec![cm("pod-1", 1), cm("pod-3", 2)], 2, 0, 0);
        inf.fill(0);
        inf.start_list(10);
        inf.listed(vec![], 2, 10, 0);
        assert_eq!(record(&inf.fill(10)), s(&[("delete", "ns/pod-1", 1), ("delete", "ns/pod-3", 2)]));
        assert_eq!(inf.len(), 0, "the store is empty before the handlers run");

        // "Create, update, delete"
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.start_list(0);
        inf.listed(vec![cm("pod-1", 1), with_label("pod-2", 2, "1"), cm("pod-3", 3)], 3, 0, 0);
        inf.fill(0);
        inf.start_list(10);
        inf.listed(vec![cm("pod-1", 4), with_label("pod-2", 5, "2"), cm("pod-4", 6)], 6, 10, 0);
        let r = inf.fill(10);
        assert_eq!(
            record(&r),
            s(&[("delete", "ns/pod-3", 3), ("update", "ns/pod-1", 4), ("update", "ns/pod-2", 5), ("add", "ns/pod-4", 6)])
        );
        // StoreRV: each handler sees the store as the list left it.
        assert_eq!(inf.get(&ObjectKey::new("ns", "pod-2")).unwrap().resource_version, 5);
        assert!(inf.get(&ObjectKey::new("ns", "pod-3")).is_none());
    }

    #[test]
    fn a_dropped_event_never_reaches_the_store() {
        let mut inf = Informer::new(Kind::Pod);
        inf.start_list(0);
        inf.listed(vec![], 0, 0, 0);
        inf.fill(0);
        inf.drop_next(DropNext::Event(Some(EventType::Added)));
        inf.offer(&WatchEvent { event_type: EventType::Added, object: cm("a", 1) }, 0, 0);
        inf.offer(&WatchEvent { event_type: EventType::Added, object: cm("b", 2) }, 0, 0);
        let d = inf.deliver(0);
        assert!(d.event.dropped);
        assert!(inf.get(&ObjectKey::new("ns", "a")).is_none());
        let d = inf.deliver(0);
        assert!(!d.event.dropped, "only the next one is dropped");
        assert!(inf.get(&ObjectKey::new("ns", "b")).is_some());
    }

    /// A watch-list informer at `now_ms`, answered with `items` at `list_rv`.
    fn streaming(items: Vec<ObjectRc>, list_rv: u64, initial_list_ms: u64) -> Informer {
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.watch_list = true;
        inf.start_list(0);
        inf.streamed(items, list_rv, 10, initial_list_ms);
        inf
    }

    /// Deliver everything on the wire, then fill a list that waits (as the
    /// world does at its fill time): what arrived, in order.
    fn drain(inf: &mut Informer, lag_ms: u64) -> Vec<Delivered> {
        let mut out = Vec::new();
        while let Some(at) = inf.next_due(lag_ms) {
            if matches!(inf.state(), ListState::Listed { .. }) {
                inf.fill(at);
                continue;
            }
            out.push(inf.deliver(at));
        }
        out
    }

    /// Ported from client-go v0.36.0 `tools/cache/reflector_watchlist_test.go`,
    /// `TestWatchList`, "prove that the reflector is synced after receiving a
    /// bookmark event": two ADDED, then the `k8s.io/initial-events-end`
    /// BOOKMARK; the store holds both, and only from the bookmark on.
    #[test]
    #[allow(non_snake_case)]
    fn TestWatchList_synced_after_receiving_a_bookmark_event() {
        let mut inf = streaming(vec![cm("p1", 1), cm("p2", 2)], 2, 100);
        assert!(inf.is_streaming() && !inf.has_synced());
        // Sent evenly until the LIST time is over, each after the watch's lag; the bookmark last.
        let wire: Vec<(bool, u64)> = inf.in_flight(1000).iter().map(|(e, at)| (e.bookmark, *at)).collect();
        assert_eq!(wire, [(false, 1040), (false, 1070), (true, 1100)]);
        let first = inf.deliver(1040);
        assert_eq!(first.streamed, Some(1), "to the temporary store");
        assert_eq!(inf.len(), 0, "not the cache: no lister sees it yet");
        assert!(!inf.has_synced() && inf.last_sync_rv() == 0);
        inf.deliver(1070);
        let end = inf.deliver(1100);
        assert!(end.event.bookmark && end.event.initial && end.streamed.is_none());
        assert!(matches!(inf.state(), ListState::Listed { fill_at_ms: 1100, .. }), "Replace at once");
        let r = inf.fill(1100);
        assert!(r.first_sync && inf.has_synced());
        assert_eq!(r.calls.len(), 2, "the handlers see two adds, at the Replace");
        assert_eq!((inf.len(), inf.last_sync_rv()), (2, 2));
    }

    /// `TestWatchList`, "the reflector won't be synced if the bookmark event
    /// has not been received", here because a proxy lost it: the stream's
    /// items, and every change after it, stay in the temporary store.
    #[test]
    #[allow(non_snake_case)]
    fn TestWatchList_not_synced_without_the_bookmark_event() {
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.watch_list = true;
        inf.drop_next(DropNext::Bookmark);
        inf.start_list(0);
        inf.streamed(vec![cm("p1", 1)], 1, 10, 0);
        inf.offer(&WatchEvent { event_type: EventType::Added, object: cm("p2", 2) }, 20, 0);
        let got = drain(&mut inf, 0);
        assert_eq!(
            got.iter().map(|d| (d.event.bookmark, d.event.dropped, d.streamed)).collect::<Vec<_>>(),
            [(false, false, Some(1)), (true, true, None), (false, false, Some(2))]
        );
        assert!(!inf.has_synced() && inf.is_streaming() && inf.is_empty());
        assert_eq!(inf.phase(), Phase::Listing);
    }

    /// Two faults armed on one informer are each spent on what they take:
    /// an ADDED event's drop armed beside the bookmark's takes the next ADDED
    /// (here the stream's first), and the bookmark's the bookmark.
    #[test]
    fn a_dropped_event_armed_beside_a_dropped_bookmark_drops_both() {
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.watch_list = true;
        inf.drop_next(DropNext::Event(Some(EventType::Added)));
        inf.drop_next(DropNext::Bookmark);
        inf.start_list(0);
        inf.streamed(vec![cm("p1", 1)], 1, 10, 0);
        inf.offer(&WatchEvent { event_type: EventType::Added, object: cm("p2", 2) }, 20, 0);
        inf.offer(&WatchEvent { event_type: EventType::Added, object: cm("p3", 3) }, 30, 0);
        let got = drain(&mut inf, 0);
        let mut dropped: Vec<(bool, String)> = got
            .iter()
            .filter(|d| d.event.dropped)
            .map(|d| (d.event.bookmark, if d.event.bookmark { String::new() } else { d.event.object.name.to_string() }))
            .collect();
        dropped.sort();
        assert_eq!(
            dropped,
            [(false, "p1".to_string()), (true, String::new())],
            "the stream's first ADDED and the bookmark; p2 and p3 arrive"
        );
        assert!(inf.drop_next.is_empty());
    }

    /// `TestWatchList`, "check if Updates and Deletes events are propagated
    /// during streaming (until the bookmark is received)": changes that reach
    /// the reflector before the bookmark edit the temporary store, so the
    /// Replace holds p1's update and not the deleted p3. (Here they follow a
    /// lost bookmark, the one way such events precede it in this model: the
    /// apiserver's stream puts later changes behind it.)
    #[test]
    #[allow(non_snake_case)]
    fn TestWatchList_updates_and_deletes_are_propagated_during_streaming() {
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.watch_list = true;
        inf.drop_next(DropNext::Bookmark);
        inf.start_list(0);
        inf.streamed(vec![cm("p1", 1), cm("p2", 2)], 2, 10, 0);
        for (t, o) in [(EventType::Modified, cm("p1", 3)), (EventType::Added, cm("p3", 4)), (EventType::Deleted, cm("p3", 5))] {
            inf.offer(&WatchEvent { event_type: t, object: o }, 20, 0);
        }
        drain(&mut inf, 0);
        let ListState::Streaming { received, .. } = inf.state() else { panic!("still streaming") };
        let held: Vec<(&str, u64)> = received.values().map(|o| (o.name.as_str(), o.resource_version)).collect();
        assert_eq!(held, [("p1", 3), ("p2", 2)]);
    }

    /// A BOOKMARK moves the store's progress mark (`LastStoreSyncResourceVersion`)
    /// and nothing else: no object, no handler, no pending event for any key.
    #[test]
    fn a_bookmark_moves_the_progress_mark_only() {
        let mut inf = Informer::new(Kind::ConfigMap);
        inf.offer_bookmark(5, 0);
        assert_eq!(inf.in_flight_len(), 0, "no watch yet, no bookmark");
        inf.start_list(0);
        inf.listed(vec![cm("a", 1)], 1, 0, 0);
        inf.fill(0);
        inf.offer_bookmark(9, 10);
        assert!(inf.pending_for(&ObjectKey::new("", ""), 0).is_none());
        let d = inf.deliver(10);
        assert!(d.event.bookmark && d.old.is_none());
        assert_eq!(inf.last_sync_rv(), 9);
        assert_eq!(inf.len(), 1);
    }
}
