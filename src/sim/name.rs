//! [`Name`]: an object's namespace or name, shared rather than copied.
//!
//! An object's key travels everywhere: into the audit log, the watch events,
//! the informer's store, the workqueue, every ObjectRef a frame names. As a
//! `String` each of those copies was an allocation, a copy and a free: about
//! seven a simulated event, a quarter of the simulation's instructions under
//! callgrind. A `Name` is one immutable string behind an `Arc`: a copy is a
//! count raised. It reads, compares, orders, hashes and serializes exactly as
//! the `str` it holds, so traces and their hashes are unchanged.
//! (An `Arc` rather than an `Rc`: the page keeps snapshots that name objects
//! in signals, which must be `Send + Sync`.)

use serde::{Deserialize, Serialize};
use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// An immutable string, cheap to copy. See the module's documentation.
#[derive(Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Name(Arc<str>);

/// As the `str`'s, and at once where both are the one string: a name is
/// shared, so the two sides of most comparisons are (the page's lists merge
/// the cluster's objects with the cache's by key at every frame drawn; where
/// both hold an object, its name is the same string). Equality has the
/// same shortcut already (`Arc`'s own, for an `Eq` type).
impl Ord for Name {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Arc::ptr_eq(&self.0, &other.0) {
            return std::cmp::Ordering::Equal;
        }
        self.0.cmp(&other.0)
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for Name {
    fn default() -> Self {
        Name::from("")
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// As the `str`'s (quoted), so a `{:?}` reads as it did when this was a `String`.
impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Self {
        Name(Arc::from(s))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Self {
        Name(Arc::from(s))
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Self {
        Name::from(s.as_str())
    }
}

impl From<&Name> for Name {
    fn from(s: &Name) -> Self {
        s.clone()
    }
}

impl From<Name> for String {
    fn from(n: Name) -> Self {
        n.0.to_string()
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        **self == *other.0
    }
}

#[cfg(test)]
mod tests {
    use super::Name;
    use std::hash::{BuildHasher, BuildHasherDefault};

    /// A trace's hash, a map's order and a file's JSON read a `Name` as the
    /// `String` it replaced.
    #[test]
    fn a_name_hashes_orders_and_serializes_as_its_string() {
        let h = BuildHasherDefault::<rustc_hash::FxHasher>::default();
        let std = std::hash::RandomState::new();
        for s in ["", "web-7xk2p", "academy-lab"] {
            let (n, owned) = (Name::from(s), s.to_string());
            assert_eq!(h.hash_one(&n), h.hash_one(&owned), "{s}");
            assert_eq!(std.hash_one(&n), std.hash_one(&owned), "{s}");
            assert_eq!(serde_json::to_string(&n).unwrap(), serde_json::to_string(&owned).unwrap());
            assert_eq!(serde_json::from_str::<Name>(&serde_json::to_string(&owned).unwrap()).unwrap(), s);
            assert_eq!(format!("{n:?}"), format!("{owned:?}"));
        }
        let mut names: Vec<Name> = ["web-b", "web-a", "api", "web-ab"].map(Name::from).to_vec();
        names.push(names[1].clone());
        names.sort();
        assert_eq!(names, ["api", "web-a", "web-a", "web-ab", "web-b"]);
        // One string, or two of the same letters: equal either way.
        let web = Name::from("web-a");
        assert_eq!(web.cmp(&web.clone()), std::cmp::Ordering::Equal);
        assert_eq!(web.cmp(&Name::from("web-a")), std::cmp::Ordering::Equal);
        assert_eq!(web.cmp(&Name::from("web-b")), std::cmp::Ordering::Less);
    }
}
