//! Sorted-vector sets and maps for the small collections of the simulation
//! (a controller's queued keys, its failure counts, a record's expected
//! deletions). Binary search over a vector: deterministic order like a
//! B-tree's, and much less code in the page's wasm than one more `BTreeMap`
//! instantiation per key type. Not for large collections: inserts shift.

use std::cmp::Ordering;

/// A set kept sorted.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SortedSet<T>(Vec<T>);

impl<T> Default for SortedSet<T> {
    fn default() -> Self {
        SortedSet(Vec::new())
    }
}

impl<T: Ord> SortedSet<T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// `item` may be any form `T` borrows as, like [`SortedSet::remove`]'s.
    pub fn contains<Q: Ord + ?Sized>(&self, item: &Q) -> bool
    where
        T: std::borrow::Borrow<Q>,
    {
        self.0.binary_search_by(|x| x.borrow().cmp(item)).is_ok()
    }

    /// Insert; false if it was already there.
    pub fn insert(&mut self, item: T) -> bool {
        match self.0.binary_search(&item) {
            Ok(_) => false,
            Err(i) => {
                self.0.insert(i, item);
                true
            }
        }
    }

    /// Remove; false if it was not there. `item` may be any form `T`
    /// borrows as (a `&str` for a `String`): nothing is built to look it up.
    pub fn remove<Q: Ord + ?Sized>(&mut self, item: &Q) -> bool
    where
        T: std::borrow::Borrow<Q>,
    {
        match self.0.binary_search_by(|x| x.borrow().cmp(item)) {
            Ok(i) => {
                self.0.remove(i);
                true
            }
            Err(_) => false,
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }
}

impl<T: Ord> FromIterator<T> for SortedSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v: Vec<T> = iter.into_iter().collect();
        v.sort();
        v.dedup();
        SortedSet(v)
    }
}

impl<T: serde::Serialize> serde::Serialize for SortedSet<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// A map kept sorted by key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SortedMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap(Vec::new())
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    fn find(&self, key: &K) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.cmp(key))
    }

    pub fn get(&self, key: &K) -> Option<&V> {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.find(key).ok().map(|i| &mut self.0[i].1)
    }

    /// Insert or replace.
    pub fn insert(&mut self, key: K, value: V) {
        match self.find(&key) {
            Ok(i) => self.0[i].1 = value,
            Err(i) => self.0.insert(i, (key, value)),
        }
    }

    pub fn remove(&mut self, key: &K) -> Option<V> {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }

    /// The value of the key that `cmp` finds, without building that key:
    /// `cmp` orders a stored key against the one sought.
    pub fn get_by(&self, mut cmp: impl FnMut(&K) -> Ordering) -> Option<&V> {
        self.0.binary_search_by(|(k, _)| cmp(k)).ok().map(|i| &self.0[i].1)
    }

    /// `get_by`, for a change.
    pub fn get_mut_by(&mut self, mut cmp: impl FnMut(&K) -> Ordering) -> Option<&mut V> {
        self.0.binary_search_by(|(k, _)| cmp(k)).ok().map(|i| &mut self.0[i].1)
    }

    /// Remove the entry that `cmp` finds (as `get_by`).
    pub fn remove_by(&mut self, mut cmp: impl FnMut(&K) -> Ordering) -> Option<V> {
        self.0.binary_search_by(|(k, _)| cmp(k)).ok().map(|i| self.0.remove(i).1)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sorted_set_is_a_set_in_order() {
        let mut s = SortedSet::new();
        assert!(s.insert("b") && s.insert("a") && !s.insert("b"));
        assert_eq!(s.iter().copied().collect::<Vec<_>>(), ["a", "b"]);
        assert!(s.contains(&"a") && s.remove(&"a") && !s.remove(&"a"));
        assert_eq!(s.len(), 1);
        let t: SortedSet<u32> = [3, 1, 3, 2].into_iter().collect();
        assert_eq!(t.iter().copied().collect::<Vec<_>>(), [1, 2, 3]);
    }

    #[test]
    fn a_sorted_map_is_a_map_in_order() {
        let mut m = SortedMap::new();
        m.insert("b", 2);
        m.insert("a", 1);
        m.insert("b", 3);
        assert_eq!(m.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(), [("a", 1), ("b", 3)]);
        *m.get_mut(&"a").unwrap() += 10;
        assert_eq!(m.get(&"a"), Some(&11));
        assert_eq!(m.remove(&"a"), Some(11));
        assert_eq!(m.get(&"a"), None);
    }
}
