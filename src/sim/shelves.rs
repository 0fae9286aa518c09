//! Objects of one kind, sorted by `namespace/name` as etcd's keys and an
//! informer's lister are, on shelves: per namespace, a list of short sorted
//! runs rather than one B-tree. The apiserver's store of each kind, every
//! informer's cache and a watch-list's temporary store are shelves.
//!
//! Why not a `BTreeMap<ObjectKey, ObjectRc>`: kubectl's `delete_pods` draws
//! the nth pod in key order at every interval, and a B-tree finds the nth
//! only by walking n entries (at 1,000 pods, a sixth of a simulated run's
//! instructions went there). Here the nth is a walk over the shelves'
//! lengths (about n / 48 of them) and an index. A lookup finds the namespace
//! (there are few), then the shelf, by halves over the heads (below) of the
//! shelves' last objects, kept side by side, then the name by halves within
//! the shelf. Each object sits beside
//! the first eight bytes of its name as a number, so the search compares
//! numbers and reads the names themselves only where those bytes tie; no
//! lookup builds an `ObjectKey` (two strings) as a B-tree's key would.

use crate::sim::object::{Name, ObjectKey, ObjectRc};
use std::cmp::Ordering;

/// A shelf splits in two when it reaches this many objects.
const SHELF_MAX: usize = 96;

#[derive(Debug, Clone, Default)]
pub struct Shelves {
    /// The namespaces that hold objects, in order.
    namespaces: Vec<Namespace>,
    len: usize,
}

#[derive(Debug, Clone)]
struct Namespace {
    name: Name,
    /// Sorted runs, each non-empty and shorter than `SHELF_MAX`; every
    /// object of a shelf sorts before every object of the next.
    shelves: Vec<Shelf>,
}

/// A shelf's objects, and the head (below) of its last one: the search for
/// a shelf reads the heads, side by side in memory, and reads a shelf's own
/// last object only where its head ties. (It read each shelf's last object,
/// each elsewhere in memory: half of every lookup's time at 1,000 pods.)
#[derive(Debug, Clone)]
struct Shelf {
    last: u64,
    items: Vec<Shelved>,
}

impl Shelf {
    fn new(items: Vec<Shelved>) -> Shelf {
        Shelf { last: items.last().expect("no empty shelf").head, items }
    }
}

/// An object, and the first eight bytes of its name, big-endian (zeros past
/// its end): numbers that order as the names do, except when they tie.
#[derive(Debug, Clone)]
struct Shelved {
    head: u64,
    object: ObjectRc,
}

fn head(name: &str) -> u64 {
    let mut bytes = [0u8; 8];
    let n = name.len().min(8);
    bytes[..n].copy_from_slice(&name.as_bytes()[..n]);
    u64::from_be_bytes(bytes)
}

impl Shelved {
    /// How this object's name sorts against `name`, whose head is `head`.
    fn order(&self, head: u64, name: &str) -> Ordering {
        self.head.cmp(&head).then_with(|| self.object.name.as_str().cmp(name))
    }
}

impl Namespace {
    /// The shelf that holds, or would hold, `name`: the first whose last
    /// object does not sort before it (the last shelf past them all).
    fn shelf_for(&self, head: u64, name: &str) -> usize {
        let mut i = self.shelves.partition_point(|s| s.last < head);
        while self.shelves.get(i).is_some_and(|s| s.last == head && s.items[s.items.len() - 1].order(head, name) == Ordering::Less) {
            i += 1;
        }
        i.min(self.shelves.len() - 1)
    }

    /// Shelf `s`'s `last` again, after its objects changed.
    fn relast(&mut self, s: usize) {
        let shelf = &mut self.shelves[s];
        shelf.last = shelf.items.last().expect("no empty shelf").head;
    }

    /// (shelf, Ok(index) if there, Err(where it would go)).
    fn find(&self, head: u64, name: &str) -> (usize, Result<usize, usize>) {
        let s = self.shelf_for(head, name);
        (s, self.shelves[s].items.binary_search_by(|o| o.order(head, name)))
    }

    #[cfg(all(test, not(target_arch = "wasm32")))]
    fn len(&self) -> usize {
        self.shelves.iter().map(|s| s.items.len()).sum()
    }
}

impl Shelves {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn namespace(&self, namespace: &str) -> Result<usize, usize> {
        self.namespaces.binary_search_by(|n| n.name.as_str().cmp(namespace))
    }

    pub fn get(&self, key: &ObjectKey) -> Option<&ObjectRc> {
        self.get_named(&key.namespace, &key.name)
    }

    /// `get`, by the key's parts.
    pub fn get_named(&self, namespace: &str, name: &str) -> Option<&ObjectRc> {
        let ns = &self.namespaces[self.namespace(namespace).ok()?];
        match ns.find(head(name), name) {
            (s, Ok(i)) => Some(&ns.shelves[s].items[i].object),
            _ => None,
        }
    }

    /// Insert `object`, or replace the one of its key; the one replaced, if any.
    pub fn insert(&mut self, object: ObjectRc) -> Option<ObjectRc> {
        let entry = Shelved { head: head(&object.name), object };
        let ns = match self.namespace(&entry.object.namespace) {
            Ok(n) => &mut self.namespaces[n],
            Err(n) => {
                let name = entry.object.namespace.clone();
                self.namespaces.insert(n, Namespace { name, shelves: vec![Shelf::new(vec![entry])] });
                self.len += 1;
                return None;
            }
        };
        match ns.find(entry.head, &entry.object.name) {
            (s, Ok(i)) => Some(std::mem::replace(&mut ns.shelves[s].items[i], entry).object),
            (s, Err(i)) => {
                let shelf = &mut ns.shelves[s].items;
                shelf.insert(i, entry);
                if shelf.len() >= SHELF_MAX {
                    let upper = shelf.split_off(SHELF_MAX / 2);
                    ns.shelves.insert(s + 1, Shelf::new(upper));
                }
                ns.relast(s);
                self.len += 1;
                None
            }
        }
    }

    /// Remove the object of `namespace/name`; it, if it was there.
    pub fn remove(&mut self, namespace: &str, name: &str) -> Option<ObjectRc> {
        let n = self.namespace(namespace).ok()?;
        let ns = &mut self.namespaces[n];
        let (s, Ok(i)) = ns.find(head(name), name) else { return None };
        let removed = ns.shelves[s].items.remove(i);
        if ns.shelves[s].items.is_empty() {
            ns.shelves.remove(s);
            if ns.shelves.is_empty() {
                self.namespaces.remove(n);
            }
        } else {
            ns.relast(s);
        }
        self.len -= 1;
        Some(removed.object)
    }

    /// Every object, in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &ObjectRc> + Clone {
        self.namespaces.iter().flat_map(|n| n.shelves.iter().flat_map(|s| &s.items)).map(|e| &e.object)
    }

    /// Every object, in key order, taken.
    pub fn into_values(self) -> impl Iterator<Item = ObjectRc> {
        self.namespaces.into_iter().flat_map(|n| n.shelves.into_iter().flat_map(|s| s.items)).map(|e| e.object)
    }

    /// The objects of `namespace`, in name order.
    pub fn in_namespace<'a>(&'a self, namespace: &str) -> impl Iterator<Item = &'a ObjectRc> + 'a {
        let ns = self.namespace(namespace).ok().map(|n| &self.namespaces[n]);
        ns.into_iter().flat_map(|n| n.shelves.iter().flat_map(|s| &s.items)).map(|e| &e.object)
    }

    /// The `n`th object in key order (from 0), without walking the n before it.
    pub fn nth(&self, mut n: usize) -> Option<&ObjectRc> {
        for shelf in self.namespaces.iter().flat_map(|ns| ns.shelves.iter().map(|s| &s.items)) {
            if n < shelf.len() {
                return Some(&shelf[n].object);
            }
            n -= shelf.len();
        }
        None
    }

    /// Every shelf non-empty and short, in order, and the count right: what
    /// the tests hold after each change.
    #[cfg(all(test, not(target_arch = "wasm32")))]
    fn well_kept(&self) -> bool {
        let keys: Vec<(&str, &str)> = self.values().map(|o| (o.namespace.as_str(), o.name.as_str())).collect();
        keys.windows(2).all(|w| w[0] < w[1])
            && self
                .namespaces
                .iter()
                .all(|n| !n.shelves.is_empty() && n.shelves.iter().all(|s| !s.items.is_empty() && s.items.len() < SHELF_MAX))
            && self
                .namespaces
                .iter()
                .all(|n| n.shelves.iter().flat_map(|s| &s.items).all(|e| e.head == head(&e.object.name) && e.object.namespace == n.name))
            && self.namespaces.iter().all(|n| n.shelves.iter().all(|s| s.items.last().is_some_and(|e| e.head == s.last)))
            && self.namespaces.iter().map(Namespace::len).sum::<usize>() == self.len
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

// Native only: proptest is not built for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::sim::object::{Object, Spec};
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn pod(namespace: &str, name: &str, rv: u64) -> ObjectRc {
        ObjectRc::new(Object::bare(namespace, name, rv, Spec::Pod))
    }

    /// (insert?, namespace, name, a long name?): few namespaces and names,
    /// so that keys collide, shelves split, empty out and fill again; long
    /// names share their first eight bytes, so the search must read on.
    fn op() -> impl Strategy<Value = (bool, u8, u16, bool)> {
        (prop::bool::weighted(0.6), 0u8..3, 0u16..400, any::<bool>())
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
            for (rv, (insert, ns, name, long)) in ops.into_iter().enumerate() {
                let (ns, name) = (format!("ns-{ns}"), if long { format!("web-pod-{name}") } else { format!("web-{name}") });
                if insert {
                    let o = pod(&ns, &name, rv as u64);
                    let old = shelves.insert(o.clone()).map(|o| o.resource_version);
                    prop_assert_eq!(old, tree.insert(o.key(), o).map(|o| o.resource_version));
                } else {
                    let gone = shelves.remove(&ns, &name).map(|o| o.resource_version);
                    prop_assert_eq!(gone, tree.remove(&ObjectKey::new(ns.as_str(), name.as_str())).map(|o| o.resource_version));
                }
                if rv % 50 == 0 {
                    prop_assert!(shelves.well_kept());
                }
            }
            prop_assert!(shelves.well_kept());
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
