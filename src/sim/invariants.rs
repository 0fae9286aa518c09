//! Named invariants, checked as frames are produced. Each records the first
//! frame that broke it, so the UI can jump there and the runner can report it.

use super::apiserver::{Actor, ApiServer, AuditEntry, Verb};
use super::frame::Event;
use super::object::{child_kind, child_label, Kind, ObjectKey};
use super::world::InFlightRequest;
use serde::Serialize;

/// One invariant and its state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct Invariant {
    pub name: &'static str,
    /// What it promises, in one sentence.
    pub description: &'static str,
    pub first_broken_frame: Option<u64>,
    /// What broke it, first time.
    pub detail: Option<String>,
}

impl Invariant {
    pub fn held(&self) -> bool {
        self.first_broken_frame.is_none()
    }
}

/// One violation of an invariant, carried by the frame that made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct Violation {
    pub invariant: &'static str,
    /// What broke it, in words: `Ensemble beta wants 4 and now has 5 after creating beta-voice-x`.
    pub detail: String,
    /// The first violation of this invariant in the run.
    pub first: bool,
}

impl Violation {
    fn new(invariant: &'static str, detail: String) -> Self {
        Violation { invariant, detail, first: false }
    }
}

/// The invariants' names, in report order.
pub const CHILDREN_WITHIN_DESIRED: &str = "children_within_desired";
pub const ALL_PODS_WITHIN_REPLICAS: &str = "all_pods_within_replicas";
pub const NO_DELETE_BEFORE_SYNC: &str = "no_delete_before_sync";
pub const NO_DELETE_OF_UNCACHED: &str = "no_delete_of_uncached";
pub const NO_ORPHANS: &str = "no_orphans";

/// Every invariant of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct Invariants {
    pub list: Vec<Invariant>,
}

impl Default for Invariants {
    fn default() -> Self {
        Self::new()
    }
}

impl Invariants {
    pub fn new() -> Self {
        let inv = |name, description| Invariant { name, description, first_broken_frame: None, detail: None };
        Invariants {
            list: vec![
                inv(
                    CHILDREN_WITHIN_DESIRED,
                    "A controller's create never takes an owner's active children (not Terminating) above its desired count.",
                ),
                inv(
                    ALL_PODS_WITHIN_REPLICAS,
                    "A ReplicaSet's create never takes its pods, Terminating ones included, above spec.replicas: what the ReplicaSet does not promise, and a graceful delete shows.",
                ),
                inv(NO_DELETE_BEFORE_SYNC, "No controller delete is sent before its cache has synced."),
                inv(
                    NO_DELETE_OF_UNCACHED,
                    "No controller deletes, after its cache has synced, an object that cache does not hold (created since, its ADDED event still on the wire).",
                ),
                inv(NO_ORPHANS, "No child outlives its deleted owner by more than the grace period."),
            ],
        }
    }

    pub fn get(&self, name: &str) -> Option<&Invariant> {
        self.list.iter().find(|i| i.name == name)
    }

    /// Record a violation at `frame`; true when it is the invariant's first.
    pub fn record(&mut self, v: &Violation, frame: u64) -> bool {
        match self.list.iter_mut().find(|i| i.name == v.invariant) {
            Some(i) if i.first_broken_frame.is_none() => {
                i.first_broken_frame = Some(frame);
                i.detail = Some(v.detail.clone());
                true
            }
            _ => false,
        }
    }

    /// Check a request the apiserver just handled: the violation it makes, if any.
    pub fn check_request(&self, req: &InFlightRequest, audit: &AuditEntry, api: &ApiServer) -> Vec<Violation> {
        if !matches!(audit.actor, Actor::Controller(_)) {
            return Vec::new();
        }
        match audit.verb {
            Verb::Create if audit.status.is_success() => Self::check_create(audit, api),
            Verb::Delete if !req.synced_at_send => {
                vec![Violation::new(NO_DELETE_BEFORE_SYNC, format!("delete of {} {} sent before the cache synced", audit.kind, audit.name))]
            }
            Verb::Delete if req.uncached_at_send && audit.status.is_success() => vec![Violation::new(
                NO_DELETE_OF_UNCACHED,
                format!(
                    "{} {} was deleted though the synced cache did not hold it: absent from the cache is not absent from the cluster",
                    audit.kind, audit.name
                ),
            )],
            _ => Vec::new(),
        }
    }

    /// A committed create: the owner's children now, active and Terminating.
    fn check_create(audit: &AuditEntry, api: &ApiServer) -> Vec<Violation> {
        let Some(created) = api.get(audit.kind, &ObjectKey::new(audit.namespace.clone(), audit.name.clone())) else { return Vec::new() };
        // The owner is the controllerRef's object, the very one (same UID);
        // a child without one (ownerReferences off) belongs to the owner its label names.
        let owner = match created.controller_ref() {
            Some(r) => api.get(r.kind, &ObjectKey::new(audit.namespace.clone(), r.name.clone())).filter(|o| o.uid == r.uid),
            None => [Kind::Ensemble, Kind::ReplicaSet].into_iter().find_map(|owner_kind| {
                let label = child_label(owner_kind)?;
                let name = (child_kind(owner_kind) == Some(audit.kind)).then(|| created.labels.get(label)).flatten()?;
                api.get(owner_kind, &ObjectKey::new(audit.namespace.clone(), name.clone()))
            }),
        };
        let Some(owner) = owner else { return Vec::new() };
        let desired = owner.spec.desired().unwrap_or(0);
        // Children by controllerRef (an old owner's pods, still being
        // collected under the same name, are not this one's), counted by the
        // apiserver's index; and children without one (ownerReferences off)
        // that carry the owner's label, over the kind when there are any.
        let (mut active, mut terminating) = api.controlled_by(audit.kind, owner.uid);
        if api.uncontrolled_count(audit.kind) > 0 {
            for c in api.objects_of(audit.kind) {
                let mine = c.controller_ref().is_none()
                    && c.namespace == audit.namespace
                    && child_label(owner.kind()).is_some_and(|l| c.labels.get(l) == Some(&owner.name));
                match (mine, c.is_terminating()) {
                    (true, false) => active += 1,
                    (true, true) => terminating += 1,
                    (false, _) => {}
                }
            }
        }
        let mut broke = Vec::new();
        if active > desired {
            let detail = format!("{} {} wants {desired} and now has {active} after creating {}", owner.kind(), owner.name, audit.name);
            broke.push(Violation::new(CHILDREN_WITHIN_DESIRED, detail));
        }
        if owner.kind() == Kind::ReplicaSet && active + terminating > desired {
            let detail = format!(
                "ReplicaSet {} wants {desired} and the cluster holds {} of its pods, {terminating} of them Terminating, after creating {}",
                owner.name,
                active + terminating,
                audit.name
            );
            broke.push(Violation::new(ALL_PODS_WITHIN_REPLICAS, detail));
        }
        broke
    }

    /// Check an event once it is a frame: the violation it shows, if any.
    pub fn check_event(&self, event: &Event) -> Option<Violation> {
        match event {
            Event::OrphansRemain { owner, children, .. } => {
                Some(Violation::new(NO_ORPHANS, format!("{children} children of deleted {owner} remain")))
            }
            _ => None,
        }
    }
}
