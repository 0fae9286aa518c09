//! Named invariants, checked as frames are produced. Each records the first
//! frame that broke it, so the UI can jump there and the runner can report it.
//! Facts only: what each promises and what broke it are worded by
//! `crate::narrate::invariants`.

use super::apiserver::{Actor, ApiServer, AuditEntry, Verb};
use super::frame::{Event, Violation, ViolationFacts};
use super::object::{child_kind, child_label, Kind, ObjectKey};
use serde::Serialize;

/// One invariant and its state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct Invariant {
    pub name: &'static str,
    pub first_broken_frame: Option<u64>,
    /// What broke it, first time.
    pub facts: Option<ViolationFacts>,
}

impl Invariant {
    pub fn held(&self) -> bool {
        self.first_broken_frame.is_none()
    }
}

/// What the check reads from a request the apiserver just handled, as its
/// sender stood when it sent it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SentWith {
    /// The sender's caches had synced.
    pub synced: bool,
    /// A controller's delete of an object its cache did not hold.
    pub uncached: bool,
}

impl SentWith {
    /// Sent with the sender's caches synced, its target in them: what every
    /// sender but a controller's worker is taken to be (kubectl, the garbage
    /// collector, the kubelet, a relist), and nothing an invariant flags.
    pub(crate) const SYNCED: SentWith = SentWith { synced: true, uncached: false };
    /// Sent before the sender's caches had synced: an informer's first LIST.
    pub(crate) const UNSYNCED: SentWith = SentWith { synced: false, uncached: false };
}

/// The invariants' names, in report order.
pub const CHILDREN_WITHIN_DESIRED: &str = "children_within_desired";
pub const ALL_PODS_WITHIN_REPLICAS: &str = "all_pods_within_replicas";
pub const NO_DELETE_BEFORE_SYNC: &str = "no_delete_before_sync";
pub const NO_DELETE_OF_UNCACHED: &str = "no_delete_of_uncached";
pub const NO_ORPHANS: &str = "no_orphans";

/// Every invariant's name, in report order.
pub const NAMES: [&str; 5] = [CHILDREN_WITHIN_DESIRED, ALL_PODS_WITHIN_REPLICAS, NO_DELETE_BEFORE_SYNC, NO_DELETE_OF_UNCACHED, NO_ORPHANS];

/// Whether an invariant says anything of a run of this controller: one on
/// owners and their children needs a controller with owners (the pruner has
/// none), one on pods a controller of pods. The others hold of any
/// controller. Every invariant is checked whatever the controller (one that
/// cannot break holds); the page lists the ones that apply.
pub fn applies(name: &str, controller: super::apiserver::ControllerKind) -> bool {
    let spec = controller.spec();
    match name {
        CHILDREN_WITHIN_DESIRED | NO_ORPHANS => spec.owner.is_some(),
        ALL_PODS_WITHIN_REPLICAS => spec.has_pods(),
        _ => true,
    }
}

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
        let list = NAMES.iter().map(|&name| Invariant { name, first_broken_frame: None, facts: None }).collect();
        Invariants { list }
    }

    pub fn get(&self, name: &str) -> Option<&Invariant> {
        self.list.iter().find(|i| i.name == name)
    }

    /// Record a violation at `frame`; true when it is the invariant's first.
    pub fn record(&mut self, v: &Violation, frame: u64) -> bool {
        match self.list.iter_mut().find(|i| i.name == v.invariant) {
            Some(i) if i.first_broken_frame.is_none() => {
                i.first_broken_frame = Some(frame);
                i.facts = Some(v.facts.clone());
                true
            }
            _ => false,
        }
    }

    /// Check a request the apiserver just handled: the violation it makes, if any.
    pub(crate) fn check_request(&self, sent: SentWith, audit: &AuditEntry, api: &ApiServer) -> Vec<Violation> {
        if !matches!(audit.actor, Actor::Controller(_)) {
            return Vec::new();
        }
        match audit.verb {
            Verb::Create if audit.status.is_success() => Self::check_create(audit, api),
            Verb::Delete if !sent.synced => {
                vec![Violation::new(NO_DELETE_BEFORE_SYNC, ViolationFacts::DeleteBeforeSync { kind: audit.kind, name: audit.name.clone() })]
            }
            Verb::Delete if sent.uncached && audit.status.is_success() => {
                vec![Violation::new(NO_DELETE_OF_UNCACHED, ViolationFacts::DeleteOfUncached { kind: audit.kind, name: audit.name.clone() })]
            }
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
            None => api.kinds().find_map(|owner_kind| {
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
            let facts = ViolationFacts::OverDesired {
                owner: owner.kind(),
                owner_name: owner.name.clone(),
                desired,
                active,
                created: audit.name.clone(),
            };
            broke.push(Violation::new(CHILDREN_WITHIN_DESIRED, facts));
        }
        if owner.kind() == Kind::ReplicaSet && active + terminating > desired {
            let facts = ViolationFacts::PodsOverReplicas {
                owner_name: owner.name.clone(),
                desired,
                total: active + terminating,
                terminating,
                created: audit.name.clone(),
            };
            broke.push(Violation::new(ALL_PODS_WITHIN_REPLICAS, facts));
        }
        broke
    }

    /// Check an event once it is a frame: the violation it shows, if any.
    pub(crate) fn check_event(&self, event: &Event) -> Option<Violation> {
        match event {
            Event::OrphansRemain { owner, children, .. } => {
                Some(Violation::new(NO_ORPHANS, ViolationFacts::Orphans { owner: owner.clone(), children: *children }))
            }
            _ => None,
        }
    }
}
