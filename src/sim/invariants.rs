//! Named invariants, checked as frames are produced. Each records the first
//! frame that broke it, so the UI can jump there and the runner can report it.
//! Five are built in; a scenario may declare more ([`Declared`]), in the two
//! families of upstream's controller robustness framework
//! (`test/utils/robustness`, kubernetes PR #139657): safety, checked at every
//! request that could break it, and liveness, checked once at a stated time.
//! Facts only: what each promises and what broke it are worded by
//! `crate::narrate::invariants`.

use super::apiserver::{Actor, ApiServer, AuditEntry, Verb};
use super::frame::{Event, Shortfall, Violation, ViolationFacts};
use super::object::{child_kind, child_label, Kind, Object, ObjectKey, ObjectRc};
use serde::Serialize;

/// One invariant and its state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct Invariant {
    pub name: &'static str,
    pub first_broken_frame: Option<u64>,
    /// What broke it, first time.
    pub facts: Option<ViolationFacts>,
    /// What a declared invariant promises (none: a built-in one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
}

/// An invariant a scenario declares (`invariants[]`): its name, interned,
/// and what it promises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Declared {
    pub name: &'static str,
    pub rule: Rule,
}

/// What a declared invariant promises, of each object of an owner kind and
/// its children (the kind its declaration or its built-in wiring names),
/// counted as the apiserver holds them: active (not Terminating), by
/// controllerRef, or by the owner's label where a child has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Safety: no create leaves an `owner` with more than `count` active children.
    AtMost { count: u32, owner: Kind },
    /// Safety: no controller delete leaves an `owner` with fewer than
    /// `count` active children (a quorum, a disruption budget).
    AtLeast { count: u32, owner: Kind },
    /// Liveness: `by_ms` into the run, every `owner` has exactly its desired
    /// count of active children. Checked once, then: upstream's framework
    /// checks liveness once the controller settles, within a timeout.
    Converged { owner: Kind, by_ms: u64 },
    /// Safety, a predicate over each object of a `kind`: no controller
    /// write leaves one without the label `label` (node-feature-discovery's
    /// Nodes keep their feature labels).
    HasLabel { kind: Kind, label: &'static str },
}

impl Rule {
    /// The owner kind it speaks of.
    pub fn owner(self) -> Kind {
        match self {
            Rule::AtMost { owner, .. } | Rule::AtLeast { owner, .. } | Rule::Converged { owner, .. } => owner,
            Rule::HasLabel { kind, .. } => kind,
        }
    }
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

/// Whether an invariant says anything of a run of this controller (its
/// spec, as a recipe rewires it): one on owners and their children needs a
/// controller with owners (the pruner has none), one on a ReplicaSet's pods
/// a controller of ReplicaSets. The others, and a scenario's own, hold of
/// any controller. Every invariant is checked whatever the controller (one
/// that cannot break holds); the page lists the ones that apply.
pub fn applies(name: &str, spec: &super::spec::ControllerSpec) -> bool {
    match name {
        CHILDREN_WITHIN_DESIRED | NO_ORPHANS => spec.owner.is_some(),
        ALL_PODS_WITHIN_REPLICAS => spec.owner == Some(Kind::ReplicaSet),
        _ => true,
    }
}

/// Every invariant of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Hash)]
pub struct Invariants {
    pub list: Vec<Invariant>,
    /// Owner kinds whose controller counts their children against a number
    /// of its own, not their desired field (a recipe's `count.desired`:
    /// one MachineSet a MachineDeployment), and that number.
    #[serde(skip)]
    pub counted_against: Vec<(Kind, u32)>,
}

impl Default for Invariants {
    fn default() -> Self {
        Self::new()
    }
}

impl Invariants {
    pub fn new() -> Self {
        let list = NAMES.iter().map(|&name| Invariant { name, first_broken_frame: None, facts: None, rule: None }).collect();
        Invariants { list, counted_against: Vec::new() }
    }

    /// The children `owner` should have: what its controller counts against.
    fn desired_of(&self, owner: &crate::sim::object::Object) -> u32 {
        let fixed = self.counted_against.iter().find(|(k, _)| *k == owner.kind()).map(|(_, n)| *n);
        fixed.or(owner.spec.desired()).unwrap_or(0)
    }

    /// The built-in invariants, then `declared`, in order.
    pub fn with(declared: &[Declared]) -> Self {
        let mut all = Self::new();
        all.list.extend(declared.iter().map(|d| Invariant { name: d.name, first_broken_frame: None, facts: None, rule: Some(d.rule) }));
        all
    }

    /// The declared invariants, in order.
    pub fn declared(&self) -> impl Iterator<Item = Declared> + '_ {
        self.list.iter().filter_map(|i| Some(Declared { name: i.name, rule: i.rule? }))
    }

    /// The times the declared liveness invariants are checked at, by their index among the declared.
    pub(crate) fn liveness_times(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.declared().enumerate().filter_map(|(i, d)| match d.rule {
            Rule::Converged { by_ms, .. } => Some((i, by_ms)),
            _ => None,
        })
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
        let mut broke = match audit.verb {
            Verb::Create if audit.status.is_success() => self.check_create(audit, api),
            Verb::Delete if !sent.synced => {
                vec![Violation::new(
                    NO_DELETE_BEFORE_SYNC,
                    ViolationFacts::DeleteBeforeSync { kind: audit.kind, name: audit.name.to_string() },
                )]
            }
            Verb::Delete if sent.uncached && audit.status.is_success() => {
                vec![Violation::new(
                    NO_DELETE_OF_UNCACHED,
                    ViolationFacts::DeleteOfUncached { kind: audit.kind, name: audit.name.to_string() },
                )]
            }
            _ => Vec::new(),
        };
        for d in self.declared() {
            Self::check_declared(d, audit, api, &mut broke);
        }
        broke
    }

    /// A declared safety invariant, after a controller's request.
    fn check_declared(d: Declared, audit: &AuditEntry, api: &ApiServer, broke: &mut Vec<Violation>) {
        if let Rule::HasLabel { kind, label } = d.rule {
            if audit.status.is_success() && audit.kind == kind && matches!(audit.verb, Verb::Create | Verb::Update) {
                let written = api.get(kind, &ObjectKey::new(audit.namespace.clone(), audit.name.to_string()));
                if written.is_some_and(|o| !o.labels.contains_key(label)) {
                    broke.push(Violation::new(d.name, ViolationFacts::LabelMissing { kind, name: audit.name.to_string(), label }));
                }
            }
            return;
        }
        if !audit.status.is_success() || child_kind(d.rule.owner()) != Some(audit.kind) {
            return;
        }
        match (d.rule, audit.verb) {
            (Rule::AtMost { count, owner: kind }, Verb::Create) => {
                let Some(created) = api.get(audit.kind, &ObjectKey::new(audit.namespace.clone(), audit.name.to_string())) else { return };
                let Some(owner) = owner_of(created, api).filter(|o| o.kind() == kind) else { return };
                let (active, _) = children_of(api, &owner, audit.kind);
                if active > count {
                    let facts = ViolationFacts::AboveBound {
                        owner: kind,
                        owner_name: owner.name.to_string(),
                        count,
                        active,
                        created: audit.name.to_string(),
                    };
                    broke.push(Violation::new(d.name, facts));
                }
            }
            (Rule::AtLeast { count, owner: kind }, Verb::Delete) => {
                // The deleted child may be gone for good: every owner of the
                // kind in its namespace is counted.
                let below = api.objects_of(kind).filter(|o| o.namespace == audit.namespace && !o.is_terminating()).find_map(|owner| {
                    let (active, _) = children_of(api, owner, audit.kind);
                    (active < count).then(|| (owner.name.to_string(), active))
                });
                if let Some((owner_name, active)) = below {
                    let facts = ViolationFacts::BelowBound { owner: kind, owner_name, count, active, deleted: audit.name.to_string() };
                    broke.push(Violation::new(d.name, facts));
                }
            }
            _ => {}
        }
    }

    /// A declared liveness invariant at its time: how many `owner` objects
    /// there were, and the first whose active children are not its desired count.
    pub(crate) fn check_converged(&self, owner: Kind, api: &ApiServer) -> (u32, Option<Shortfall>) {
        let Some(child) = child_kind(owner) else { return (0, None) };
        let mut owners = 0;
        let mut short = None;
        for o in api.objects_of(owner).filter(|o| !o.is_terminating()) {
            owners += 1;
            let desired = self.desired_of(o);
            let (active, _) = children_of(api, o, child);
            if active != desired && short.is_none() {
                short = Some(Shortfall { name: o.name.to_string(), desired, active });
            }
        }
        (owners, short)
    }

    /// A committed create: the owner's children now, active and Terminating.
    fn check_create(&self, audit: &AuditEntry, api: &ApiServer) -> Vec<Violation> {
        let Some(created) = api.get(audit.kind, &ObjectKey::new(audit.namespace.clone(), audit.name.to_string())) else {
            return Vec::new();
        };
        let Some(owner) = owner_of(created, api) else { return Vec::new() };
        let desired = self.desired_of(&owner);
        let (active, terminating) = children_of(api, &owner, audit.kind);
        let mut broke = Vec::new();
        if active > desired {
            let facts = ViolationFacts::OverDesired {
                owner: owner.kind(),
                owner_name: owner.name.to_string(),
                desired,
                active,
                created: audit.name.to_string(),
            };
            broke.push(Violation::new(CHILDREN_WITHIN_DESIRED, facts));
        }
        if owner.kind() == Kind::ReplicaSet && active + terminating > desired {
            let facts = ViolationFacts::PodsOverReplicas {
                owner_name: owner.name.to_string(),
                desired,
                total: active + terminating,
                terminating,
                created: audit.name.to_string(),
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
            Event::LivenessChecked { invariant, kind, short: Some(short), .. } => {
                let facts = ViolationFacts::NotConverged {
                    owner: *kind,
                    owner_name: short.name.clone(),
                    desired: short.desired,
                    active: short.active,
                };
                Some(Violation::new(invariant, facts))
            }
            _ => None,
        }
    }
}

/// The owner of a child the apiserver holds: its controllerRef's object,
/// the very one (same UID); for a child without one (ownerReferences off),
/// the owner its label names.
fn owner_of(child: &Object, api: &ApiServer) -> Option<ObjectRc> {
    match child.controller_ref() {
        Some(r) => api.get(r.kind, &ObjectKey::new(child.namespace.clone(), r.name.clone())).filter(|o| o.uid == r.uid).cloned(),
        None => api.kinds().find_map(|owner_kind| {
            let label = child_label(owner_kind)?;
            let name = (child_kind(owner_kind) == Some(child.kind())).then(|| child.labels.get(label)).flatten()?;
            api.get(owner_kind, &ObjectKey::new(child.namespace.clone(), name.clone())).cloned()
        }),
    }
}

/// An owner's children of `kind` as the apiserver holds them, `(active,
/// Terminating)`: by controllerRef (an old owner's pods, still being
/// collected under the same name, are not this one's), counted by the
/// apiserver's index; and children without one (ownerReferences off) that
/// carry the owner's label, over the kind when there are any.
fn children_of(api: &ApiServer, owner: &Object, kind: Kind) -> (u32, u32) {
    let (mut active, mut terminating) = api.controlled_by(kind, owner.uid);
    if api.uncontrolled_count(kind) > 0 {
        for c in api.objects_of(kind) {
            let mine = c.controller_ref().is_none()
                && c.namespace == owner.namespace
                && child_label(owner.kind()).is_some_and(|l| c.labels.get(l).is_some_and(|v| *v == owner.name));
            match (mine, c.is_terminating()) {
                (true, false) => active += 1,
                (true, true) => terminating += 1,
                (false, _) => {}
            }
        }
    }
    (active, terminating)
}
