//! Kubernetes v1.36's answer to a controller reading its own writes from a
//! stale cache: KEP-5647's consistency store
//! (`pkg/controller/util/consistency/consistency.go`), on by default for the
//! ReplicaSet, DaemonSet, StatefulSet and Job controllers
//! (`StaleControllerConsistency*` gates).
//!
//! Per controller key (the owner), it keeps the highest resourceVersion the
//! controller itself wrote, per resource. Before a sync, `EnsureReady`
//! compares each with that informer's last resourceVersion applied to its
//! store (`LastStoreSyncResourceVersion`: events and bookmarks alike, the
//! informer's progress mark, not the object's). If the store is behind, the
//! sync is skipped with a `ConsistencyError` and the key goes back to the
//! queue rate-limited; once it has caught up, the record is deleted (each
//! batch of writes gates once). Unlike expectations it never expires, and it
//! lives in memory only: a restarted controller starts with none.
//!
//! A simplification: resourceVersions are the simulator's integers, always
//! comparable (upstream fails open on an empty or unparsable one).

use super::object::Kind;
use super::sorted::SortedMap;
use serde::Serialize;
use std::fmt;

/// One owner's record: its UID and, per resource, the newest resourceVersion written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct OwnerRecord {
    pub owner_uid: u64,
    /// Written resourceVersion per resource (by the kind whose informer reads it back).
    pub versions: Vec<(Kind, u64)>,
}

impl OwnerRecord {
    fn new(owner_uid: u64) -> Self {
        OwnerRecord { owner_uid, versions: Vec::new() }
    }

    /// `WroteAt`: keep the newest resourceVersion per resource.
    fn wrote_at(&mut self, resource: Kind, rv: u64) {
        match self.versions.iter_mut().find(|(k, _)| *k == resource) {
            Some((_, v)) => *v = (*v).max(rv),
            None => {
                self.versions.push((resource, rv));
                self.versions.sort();
            }
        }
    }

    /// `EnsureReady`: every written version is at most what its store has read.
    fn ensure_ready(&self, read: &impl Fn(Kind) -> Option<u64>) -> Result<(), ConsistencyError> {
        for (resource, wrote_rv) in &self.versions {
            // No store for this resource: upstream skips it.
            let Some(read_rv) = read(*resource) else { continue };
            if *wrote_rv > read_rv {
                return Err(ConsistencyError { read_rv, wrote_rv: *wrote_rv, resource: *resource });
            }
        }
        Ok(())
    }
}

/// `ConsistencyError`: a store has not read what the controller wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
pub struct ConsistencyError {
    pub read_rv: u64,
    pub wrote_rv: u64,
    pub resource: Kind,
}

impl fmt::Display for ConsistencyError {
    /// Upstream's words: `read version: 5 is not as new as written version: 9 for group resource pods`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "read version: {} is not as new as written version: {} for group resource {}",
            self.read_rv,
            self.wrote_rv,
            self.resource.resource()
        )
    }
}

/// `RealConsistencyStore`: owner key (`ns/name`) to its record.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ConsistencyStore {
    writes: SortedMap<String, OwnerRecord>,
}

impl ConsistencyStore {
    /// `WroteAt(owner, ownerUID, resource, rv)`: a record for another UID
    /// under the same name is replaced by a fresh one.
    pub fn wrote_at(&mut self, owner: &str, owner_uid: u64, resource: Kind, rv: u64) {
        let fresh = self.writes.get(&owner.to_string()).is_none_or(|r| r.owner_uid != owner_uid);
        if fresh {
            self.writes.insert(owner.to_string(), OwnerRecord::new(owner_uid));
        }
        if let Some(r) = self.writes.get_mut(&owner.to_string()) {
            r.wrote_at(resource, rv);
        }
    }

    /// `Clear(owner, ownerUID)`: forget the owner if the UID matches, or whatever it is for `None`.
    pub fn clear(&mut self, owner: &str, owner_uid: Option<u64>) {
        if self.writes.get(&owner.to_string()).is_some_and(|r| owner_uid.is_none_or(|u| u == r.owner_uid)) {
            self.writes.remove(&owner.to_string());
        }
    }

    /// `EnsureReady(owner)`: `Ok` when there is no record, or when every store
    /// has read at least what was written (and then the record is deleted);
    /// else the first resource that lags, as upstream's error says it.
    pub(crate) fn ensure_ready(&mut self, owner: &str, read: impl Fn(Kind) -> Option<u64>) -> Result<(), ConsistencyError> {
        let Some(record) = self.writes.get(&owner.to_string()) else { return Ok(()) };
        record.ensure_ready(&read)?;
        let uid = record.owner_uid;
        self.clear(owner, Some(uid));
        Ok(())
    }

    /// The record of an owner, if any.
    pub fn get(&self, owner: &str) -> Option<&OwnerRecord> {
        self.writes.get(&owner.to_string())
    }

    /// Every record, by owner key.
    pub fn records(&self) -> impl Iterator<Item = (&String, &OwnerRecord)> {
        self.writes.iter()
    }

    /// A restarted controller keeps nothing: the store is memory only.
    pub fn reset(&mut self) {
        self.writes.clear();
    }
}

/// Ported from `consistency_test.go` under upstream's names.
#[cfg(test)]
#[allow(non_snake_case)]
mod tests {
    use super::*;

    #[test]
    fn TestOwnerRecord_WroteAt() {
        let mut or = OwnerRecord::new(1);
        or.wrote_at(Kind::Pod, 5);
        assert_eq!(or.versions, [(Kind::Pod, 5)]);
        or.wrote_at(Kind::Pod, 10);
        assert_eq!(or.versions, [(Kind::Pod, 10)], "a higher write");
        or.wrote_at(Kind::Pod, 8);
        assert_eq!(or.versions, [(Kind::Pod, 10)], "a lower write is ignored");
        or.wrote_at(Kind::ReplicaSet, 1);
        assert!(or.versions.contains(&(Kind::ReplicaSet, 1)));
        assert!(or.versions.contains(&(Kind::Pod, 10)), "the pod version is unchanged");
    }

    #[test]
    fn TestOwnerRecord_IsReady() {
        let mut or = OwnerRecord::new(1);
        let reads = |pods: Option<u64>, rss: Option<u64>| {
            move |k: Kind| match k {
                Kind::Pod => pods,
                Kind::ReplicaSet => rss,
                _ => None,
            }
        };
        assert!(or.ensure_ready(&reads(None, None)).is_ok(), "ready with no writes");
        or.wrote_at(Kind::Pod, 10);
        assert!(or.ensure_ready(&reads(None, None)).is_ok(), "ready with a write and no store to read it");
        assert!(or.ensure_ready(&reads(Some(5), None)).is_err(), "not ready when read < write");
        assert!(or.ensure_ready(&reads(Some(10), None)).is_ok(), "ready when read == write");
        assert!(or.ensure_ready(&reads(Some(15), None)).is_ok(), "ready when read > write");
        or.wrote_at(Kind::ReplicaSet, 100);
        assert!(or.ensure_ready(&reads(Some(15), Some(50))).is_err(), "not ready when one of two is behind");
        assert!(or.ensure_ready(&reads(Some(15), Some(100))).is_ok(), "ready when both are");
    }

    #[test]
    fn TestConsistencyStore_EnsureWrittenRecord() {
        let mut store = ConsistencyStore::default();
        store.wrote_at("ns/owner1", 1, Kind::Pod, 10);
        assert_eq!(store.get("ns/owner1").map(|r| r.owner_uid), Some(1));
        // Another UID under the same name: a new, empty record replaces it.
        store.wrote_at("ns/owner1", 2, Kind::ReplicaSet, 3);
        let r = store.get("ns/owner1").unwrap();
        assert_eq!(r.owner_uid, 2);
        assert_eq!(r.versions, [(Kind::ReplicaSet, 3)], "nothing of the old record");
    }

    #[test]
    fn TestConsistencyStore_WroteAt() {
        let mut store = ConsistencyStore::default();
        store.wrote_at("ns/owner1", 1, Kind::Pod, 10);
        store.wrote_at("ns/owner1", 1, Kind::Pod, 20);
        assert_eq!(store.get("ns/owner1").unwrap().versions, [(Kind::Pod, 20)]);
    }

    #[test]
    fn TestConsistencyStore_Clear() {
        let mut store = ConsistencyStore::default();
        store.wrote_at("ns/owner1", 1, Kind::Pod, 1);
        store.wrote_at("ns/owner2", 2, Kind::Pod, 1);
        store.clear("ns/non-existent", Some(1));
        assert_eq!(store.records().count(), 2);
        store.clear("ns/owner1", Some(2));
        assert_eq!(store.records().count(), 2, "not with the wrong UID");
        store.clear("ns/owner1", Some(1));
        assert!(store.get("ns/owner1").is_none() && store.get("ns/owner2").is_some());
        store.wrote_at("ns/owner1", 1, Kind::Pod, 1);
        store.clear("ns/owner1", None);
        assert!(store.get("ns/owner1").is_none(), "an empty UID clears whatever it is");
        assert!(store.get("ns/owner2").is_some());
    }

    #[test]
    fn TestConsistencyStore_IsReady() {
        let mut store = ConsistencyStore::default();
        assert!(store.ensure_ready("ns/owner1", |_| Some(5)).is_ok(), "ready with no record");
        store.wrote_at("ns/owner1", 1, Kind::Pod, 10);
        let e = store.ensure_ready("ns/owner1", |_| Some(5)).unwrap_err();
        assert_eq!(e.to_string(), "read version: 5 is not as new as written version: 10 for group resource pods");
        assert!(store.get("ns/owner1").is_some(), "kept while behind");
        assert!(store.ensure_ready("ns/owner1", |_| Some(10)).is_ok(), "ready when read == write");
        assert!(store.get("ns/owner1").is_none(), "the record is gone once read back");
    }
}
