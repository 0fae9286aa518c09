//! `ControllerExpectations` and `UIDTrackingControllerExpectations`
//! (`pkg/controller/controller_utils.go`, v1.28.0), in simulated time.
//!
//! A record per controller key counts the creations and deletions the
//! controller has asked for and not yet seen come back through its informer.
//! While a record is pending, a sync must not act on its cache: it would count
//! children the cache does not show yet.

use super::name::Name;
use super::sorted::SortedSet;
use serde::Serialize;

/// `ExpectationsTimeout` (l.71): after this long, a pending record counts as satisfied.
pub(crate) const DEFAULT_TIMEOUT_MS: u64 = 5 * 60 * 1000;

/// One `ControlleeExpectations` record, with the pod keys it expects to see deleted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct Record {
    pub add: i64,
    pub del: i64,
    /// When the record was last set.
    pub timestamp_ms: u64,
    /// `UIDTrackingControllerExpectations`: the `ns/name` keys expected to be deleted.
    pub deleting: SortedSet<String>,
    /// The UID of the owner whose sync set it. Not upstream's (its record
    /// knows only the key): kept so the narration can say when an owner
    /// re-created under a name waits on its predecessor's record.
    pub set_for: u64,
}

impl Record {
    /// `Fulfilled`: both counters at or below zero.
    pub fn fulfilled(&self) -> bool {
        self.add <= 0 && self.del <= 0
    }
}

/// Why `SatisfiedExpectations` answered as it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Satisfied {
    /// No record: a new controller, or one whose record was deleted. True.
    NoRecord,
    /// `add <= 0 && del <= 0`. True.
    Fulfilled,
    /// The record is older than the timeout. True, and the controller logs it.
    Expired { age_ms: u64 },
    /// Still waiting for `add` creations and `del` deletions. False.
    Pending { add: i64, del: i64 },
}

impl Satisfied {
    pub fn is_satisfied(self) -> bool {
        !matches!(self, Satisfied::Pending { .. })
    }
}

/// The expectations of one controller, keyed by controller key (`ns/name`).
#[derive(Debug, Clone, Serialize, Hash)]
pub struct Expectations {
    pub timeout_ms: u64,
    /// Sorted by key. A controller has a handful of keys: a vector is enough,
    /// and smaller in the page than another map type.
    records: Vec<(Name, Record)>,
}

impl Default for Expectations {
    fn default() -> Self {
        Expectations::new(DEFAULT_TIMEOUT_MS)
    }
}

impl Expectations {
    pub fn new(timeout_ms: u64) -> Self {
        Expectations { timeout_ms, records: Vec::new() }
    }

    /// `SatisfiedExpectations(key)` (l.187-213).
    pub fn satisfied(&self, key: &str, now_ms: u64) -> Satisfied {
        match self.get(key) {
            None => Satisfied::NoRecord,
            Some(r) if r.fulfilled() => Satisfied::Fulfilled,
            Some(r) => {
                let age_ms = now_ms.saturating_sub(r.timestamp_ms);
                if age_ms > self.timeout_ms {
                    Satisfied::Expired { age_ms }
                } else {
                    Satisfied::Pending { add: r.add, del: r.del }
                }
            }
        }
    }

    /// `ExpectCreations(key, n)`: replace any record with `{add: n, del: 0, now}`.
    pub fn expect_creations(&mut self, key: &str, n: u32, now_ms: u64) {
        self.set(key, i64::from(n), 0, SortedSet::new(), now_ms);
    }

    /// `ExpectDeletions(key, podKeys)` of the UID-tracking flavour:
    /// `{add: 0, del: len(keys), now}`, remembering the keys.
    pub fn expect_deletions(&mut self, key: &str, pod_keys: SortedSet<String>, now_ms: u64) {
        let n = pod_keys.len() as i64;
        self.set(key, 0, n, pod_keys, now_ms);
    }

    /// Note which owner's sync set `key`'s record (the simulator's own
    /// bookkeeping, for the narration: upstream's record has no owner).
    pub fn set_for(&mut self, key: &str, uid: u64) {
        if let Some(record) = self.get_mut(key) {
            record.set_for = uid;
        }
    }

    fn set(&mut self, key: &str, add: i64, del: i64, deleting: SortedSet<String>, now_ms: u64) {
        let record = Record { add, del, timestamp_ms: now_ms, deleting, set_for: 0 };
        match self.position(key) {
            Ok(i) => self.records[i].1 = record,
            Err(i) => self.records.insert(i, (Name::from(key), record)),
        }
    }

    /// `CreationObserved(key)`: lower `add` by one if a record exists (it may go negative).
    pub fn creation_observed(&mut self, key: &str) -> bool {
        match self.get_mut(key) {
            Some(r) => {
                r.add -= 1;
                true
            }
            None => false,
        }
    }

    /// `DeletionObserved(key, podKey)` of the UID-tracking flavour: lowers `del`
    /// only if `pod_key` was expected, and forgets it, so a second observation of
    /// the same deletion counts nothing.
    pub(crate) fn deletion_observed(&mut self, key: &str, pod_key: &str) -> bool {
        match self.get_mut(key) {
            Some(r) => {
                let expected = r.deleting.remove(pod_key);
                if expected {
                    r.del -= 1;
                }
                expected
            }
            None => false,
        }
    }

    /// `LowerExpectations(key, add, del)`: used when creates or deletes the
    /// controller expected will never happen (a failed batch).
    pub fn lower(&mut self, key: &str, add: i64, del: i64) {
        if let Some(r) = self.get_mut(key) {
            r.add -= add;
            r.del -= del;
        }
    }

    /// `DeleteExpectations(key)`: forget the record (the controller object is gone).
    pub fn delete(&mut self, key: &str) -> bool {
        match self.position(key) {
            Ok(i) => {
                self.records.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    fn position(&self, key: &str) -> Result<usize, usize> {
        self.records.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    fn get_mut(&mut self, key: &str) -> Option<&mut Record> {
        self.position(key).ok().map(|i| &mut self.records[i].1)
    }

    pub fn get(&self, key: &str) -> Option<&Record> {
        self.position(key).ok().map(|i| &self.records[i].1)
    }

    pub fn records(&self) -> impl Iterator<Item = (&Name, &Record)> {
        self.records.iter().map(|(k, r)| (k, r))
    }

    pub fn clear(&mut self) {
        self.records.clear();
    }
}

/// Ported from `pkg/controller/controller_utils_test.go`, under their original names.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(non_snake_case)]
    fn TestControllerExpectations() {
        let mut e = Expectations::default();
        let key = "default/rc";
        let (adds, dels) = (10u32, 30usize);
        e.set(key, i64::from(adds), dels as i64, SortedSet::new(), 0);
        // Observe adds + 1 creations: still waiting on the deletions.
        for _ in 0..=adds {
            e.creation_observed(key);
        }
        assert!(!e.satisfied(key, 0).is_satisfied(), "deletions still pending");
        // Observe dels + 1 deletions (plain ControllerExpectations counts every call).
        for _ in 0..=dels {
            e.lower(key, 0, 1);
        }
        assert_eq!(e.satisfied(key, 0), Satisfied::Fulfilled);
        let r = e.get(key).unwrap();
        assert_eq!((r.add, r.del), (-1, -1));

        // Set (1, 2): not satisfied; past the timeout it is.
        e.set(key, 1, 2, SortedSet::new(), 1_000);
        assert!(!e.satisfied(key, 1_000).is_satisfied());
        assert!(!e.satisfied(key, 1_000 + DEFAULT_TIMEOUT_MS).is_satisfied(), "exactly at the timeout, not yet");
        assert!(matches!(e.satisfied(key, 1_001 + DEFAULT_TIMEOUT_MS), Satisfied::Expired { .. }));
    }

    #[test]
    #[allow(non_snake_case)]
    fn TestUIDExpectations() {
        let mut e = Expectations::default();
        let keys: Vec<String> = (0..5).map(|i| format!("default/pod-{i}")).collect();
        e.expect_deletions("default/rs", keys.iter().cloned().collect(), 0);
        for (i, k) in keys.iter().enumerate() {
            assert!(!e.satisfied("default/rs", 0).is_satisfied(), "only {i} of 5 observed");
            assert!(e.deletion_observed("default/rs", k));
            // The same deletion observed again counts nothing.
            assert!(!e.deletion_observed("default/rs", k));
        }
        assert!(e.satisfied("default/rs", 0).is_satisfied());
        assert_eq!(e.get("default/rs").unwrap().del, 0);
        // A deletion nobody expected is ignored.
        assert!(!e.deletion_observed("default/rs", "default/stranger"));
    }

    #[test]
    fn no_record_is_satisfied_and_observations_without_record_do_nothing() {
        let mut e = Expectations::default();
        assert_eq!(e.satisfied("ns/x", 0), Satisfied::NoRecord);
        assert!(!e.creation_observed("ns/x"));
        assert!(e.get("ns/x").is_none());
    }

    #[test]
    fn expect_creations_replaces_the_record() {
        let mut e = Expectations::default();
        e.expect_creations("ns/x", 3, 0);
        e.creation_observed("ns/x");
        e.expect_creations("ns/x", 2, 50);
        let r = e.get("ns/x").unwrap();
        assert_eq!((r.add, r.del, r.timestamp_ms), (2, 0, 50));
        assert!(e.delete("ns/x"));
        assert_eq!(e.satisfied("ns/x", 60), Satisfied::NoRecord);
    }
}
