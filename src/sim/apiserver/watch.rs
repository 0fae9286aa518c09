//! What a committed write sends every watch: a `WatchEvent` of an `EventType`.

use crate::sim::object::ObjectRc;
use serde::Serialize;

/// ADDED / MODIFIED / DELETED, as a watch stream spells them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize, Hash)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub enum EventType {
    #[serde(rename = "ADDED")]
    Added,
    #[serde(rename = "MODIFIED")]
    Modified,
    #[serde(rename = "DELETED")]
    Deleted,
}

impl EventType {
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Added => "ADDED",
            EventType::Modified => "MODIFIED",
            EventType::Deleted => "DELETED",
        }
    }
}

/// A change committed to the store, to be fanned out to every watch.
#[derive(Debug, Clone, Hash)]
pub struct WatchEvent {
    pub event_type: EventType,
    /// The new version; for DELETED, the last state at the deletion's resourceVersion.
    pub object: ObjectRc,
}
