//! Objects of one kind, sorted by `namespace/name` as etcd's keys and an
//! informer's lister are, on shelves: a list of short sorted runs rather
//! than one B-tree. The apiserver's store of each kind and every informer's
//! cache are shelves.
//!
//! Why not a `BTreeMap<ObjectKey, ObjectRc>`: kubectl's `delete_pods` draws
//! the nth pod in key order at every interval, and a B-tree finds the nth
//! only by walking n entries (at 1,000 pods, a sixth of a simulated run's
//! instructions went there). Here the nth is a walk over the shelves'
//! lengths (about n / 48 of them) and an index. A lookup is two binary
//! searches, compared on the objects' own names, so neither a lookup nor an
//! insert builds an `ObjectKey` (two strings) as a B-tree's key would.

use crate::sim::object::{ObjectKey, ObjectRc};
use std::cmp::Ordering;

/// A shelf splits in two when it reaches this many objects.
const SHELF_MAX: usize = 96;

#[derive(Debug, Clone, Default)]
pub struct Shelves {
    /// Sorted runs, each non-empty and at most `SHELF_MAX - 1` long; every
    /// object of a shelf sorts before every object of the next.
    shelves: Vec<Vec<ObjectRc>>,
    len: usize,
}

/// `namespace/name` order, as `ObjectKey`'s derived `Ord`.
fn order(object: &ObjectRc, namespace: &str, name: &str) -> Ordering {
    (object.namespace.as_str(), object.name.as_str()).cmp(&(namespace, name))
}

impl Shelves {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The shelf that holds, or would hold, `namespace/name`: the first whose
    /// last object does not sort before it (the last shelf past them all).
    fn shelf_for(&self, namespace: &str, name: &str) -> usize {
        let i = self.shelves.partition_point(|s| order(s.last().expect("no empty shelf"), namespace, name) == Ordering::Less);
        i.min(self.shelves.len().saturating_sub(1))
    }

    /// (shelf, Ok(index) if there, Err(where it would go)).
    fn find(&self, namespace: &str, name: &str) -> Option<(usize, Result<usize, usize>)> {
        if self.shelves.is_empty() {
            return None;
        }
        let s = self.shelf_for(namespace, name);
        Some((s, self.shelves[s].binary_search_by(|o| order(o, namespace, name))))
    }

    pub fn get(&self, key: &ObjectKey) -> Option<&ObjectRc> {
        self.get_named(&key.namespace, &key.name)
    }

    /// `get`, by the key's parts.
    pub fn get_named(&self, namespace: &str, name: &str) -> Option<&ObjectRc> {
        match self.find(namespace, name)? {
            (s, Ok(i)) => Some(&self.shelves[s][i]),
            _ => None,
        }
    }

    /// Insert `object`, or replace the one of its key; the one replaced, if any.
    pub fn insert(&mut self, object: ObjectRc) -> Option<ObjectRc> {
        let Some((s, at)) = self.find(&object.namespace, &object.name) else {
            self.shelves.push(vec![object]);
            self.len = 1;
            return None;
        };
        match at {
            Ok(i) => Some(std::mem::replace(&mut self.shelves[s][i], object)),
            Err(i) => {
                let shelf = &mut self.shelves[s];
                shelf.insert(i, object);
                if shelf.len() >= SHELF_MAX {
                    let upper = shelf.split_off(SHELF_MAX / 2);
                    self.shelves.insert(s + 1, upper);
                }
                self.len += 1;
                None
            }
        }
    }

    /// Remove the object of `namespace/name`; it, if it was there.
    pub fn remove(&mut self, namespace: &str, name: &str) -> Option<ObjectRc> {
        let (s, Ok(i)) = self.find(namespace, name)? else { return None };
        let removed = self.shelves[s].remove(i);
        if self.shelves[s].is_empty() {
            self.shelves.remove(s);
        }
        self.len -= 1;
        Some(removed)
    }

    /// Every object, in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &ObjectRc> + Clone {
        self.shelves.iter().flatten()
    }

    /// Every object, in key order, taken.
    pub fn into_values(self) -> impl Iterator<Item = ObjectRc> {
        self.shelves.into_iter().flatten()
    }

    /// The objects of `namespace`, in name order.
    pub fn in_namespace<'a>(&'a self, namespace: &'a str) -> impl Iterator<Item = &'a ObjectRc> + 'a {
        let start = match self.find(namespace, "") {
            Some((s, Ok(i) | Err(i))) => (s, i),
            None => (0, 0),
        };
        self.shelves
            .iter()
            .enumerate()
            .skip(start.0)
            .flat_map(move |(s, shelf)| shelf[if s == start.0 { start.1 } else { 0 }..].iter())
            .take_while(move |o| o.namespace == namespace)
    }

    /// The `n`th object in key order (from 0), without walking the n before it.
    pub fn nth(&self, mut n: usize) -> Option<&ObjectRc> {
        for shelf in &self.shelves {
            if n < shelf.len() {
                return Some(&shelf[n]);
            }
            n -= shelf.len();
        }
        None
    }
}

/// The same hash for the same objects, however they happen to be shelved
/// (the explorer's fingerprint must not tell apart two equal stores).
impl std::hash::Hash for Shelves {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_usize(self.len);
        for object in self.values() {
            object.hash(state);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::object::{Object, Spec};
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn pod(namespace: &str, name: &str, rv: u64) -> ObjectRc {
        ObjectRc::new(Object {
            namespace: namespace.into(),
            name: name.into(),
            uid: rv,
            resource_version: rv,
            creation_rv: rv,
            generate_name: None,
            labels: Default::default(),
            owner_references: vec![],
            finalizers: vec![],
            generation: 1,
            deletion_timestamp_ms: None,
            deletion_grace_period_ms: None,
            spec: Spec::Pod,
            status: None,
        })
    }

    /// (insert?, namespace, name): few namespaces and names, so that keys
    /// collide, shelves split, empty out and fill again.
    fn op() -> impl Strategy<Value = (bool, u8, u16)> {
        (prop::bool::weighted(0.6), 0u8..3, 0u16..400)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

        /// After any inserts and removes, the shelves answer every question
        /// as the B-tree they replace would: each key's object, the order, the
        /// nth of every n, a namespace's objects, the count.
        #[test]
        fn shelves_answer_as_a_btree(ops in prop::collection::vec(op(), 0..1200)) {
            let mut shelves = Shelves::default();
            let mut tree: BTreeMap<ObjectKey, ObjectRc> = BTreeMap::new();
            for (rv, (insert, ns, name)) in ops.into_iter().enumerate() {
                let (ns, name) = (format!("ns-{ns}"), format!("web-{name}"));
                if insert {
                    let o = pod(&ns, &name, rv as u64);
                    let old = shelves.insert(o.clone()).map(|o| o.resource_version);
                    prop_assert_eq!(old, tree.insert(o.key(), o).map(|o| o.resource_version));
                } else {
                    let gone = shelves.remove(&ns, &name).map(|o| o.resource_version);
                    prop_assert_eq!(gone, tree.remove(&ObjectKey::new(ns.as_str(), name.as_str())).map(|o| o.resource_version));
                }
            }
            prop_assert_eq!(shelves.len(), tree.len());
            let order: Vec<ObjectKey> = shelves.values().map(|o| o.key()).collect();
            prop_assert_eq!(&order, &tree.keys().cloned().collect::<Vec<_>>());
            for (n, key) in order.iter().enumerate() {
                prop_assert_eq!(shelves.nth(n).map(|o| o.key()), Some(key.clone()));
                prop_assert_eq!(shelves.get(key).map(|o| o.key()), Some(key.clone()));
            }
            prop_assert!(shelves.nth(order.len()).is_none());
            prop_assert!(shelves.get(&ObjectKey::new("ns-1", "web-400")).is_none());
            for ns in ["ns-0", "ns-1", "ns-2", "ns-3", ""] {
                let here: Vec<ObjectKey> = shelves.in_namespace(ns).map(|o| o.key()).collect();
                let want: Vec<ObjectKey> = tree.keys().filter(|k| k.namespace == ns).cloned().collect();
                prop_assert_eq!(here, want);
            }
        }
    }
}
