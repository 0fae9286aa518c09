//! The garbage collector's state: its informers over every kind (the graph
//! of ownerReferences), what it remembers, and one `attemptToDeleteItem` in
//! progress. A leaf: its jobs are in `gc.rs`.

use crate::sim::controllers::Caches;
use crate::sim::object::ObjectRc;
use crate::sim::sorted::SortedSet;

/// The garbage collector: its informers over every kind and what it remembers.
#[derive(Debug, Clone, Hash)]
pub struct GarbageCollector {
    pub caches: Caches,
    /// `absentOwnerCache`: owners (by UID) a GET found gone.
    pub absent_owners: SortedSet<u64>,
    /// Owners whose dependents it orphaned on request: their survivors are no leak.
    pub orphaned_on_purpose: SortedSet<u64>,
}

impl GarbageCollector {
    pub fn new(caches: Caches) -> Self {
        GarbageCollector { caches, absent_owners: SortedSet::new(), orphaned_on_purpose: SortedSet::new() }
    }

    /// The dependents of the owner with `uid`, as the graph knows them.
    pub(super) fn dependents(&self, uid: u64) -> Vec<ObjectRc> {
        let mut out = Vec::new();
        for inf in &self.caches.informers {
            out.extend(inf.list().filter(|o| o.owner_references.iter().any(|r| r.uid == uid)).cloned());
        }
        out
    }
}

/// One `attemptToDeleteItem` in progress, carried by the GETs it sends.
#[derive(Debug, Clone, Hash)]
pub struct Attempt {
    /// The dependent as the graph had it.
    pub item: ObjectRc,
    /// The dependent as the live GET returned it (once read).
    pub latest: Option<ObjectRc>,
    /// The reference being checked next.
    pub next: usize,
    pub solid: u32,
    pub dangling: Vec<u64>,
    pub waiting: u32,
    /// Its DELETE of the dependent is in flight: a 409 (the dependent moved
    /// on since it was read) starts the attempt again.
    pub deleting: bool,
}

impl Attempt {
    /// The start of an attempt on `item`: nothing read yet.
    pub fn new(item: ObjectRc) -> Self {
        Attempt { item, latest: None, next: 0, solid: 0, dangling: Vec::new(), waiting: 0, deleting: false }
    }
}
