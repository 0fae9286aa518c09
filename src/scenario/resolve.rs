//! Resolution: a validated document to what the world is built from
//! ([`WorldInit`]), with the defaults that depend on another setting
//! resolved at the start.

use super::{limits, Act, ObjectSpec, Scenario};
use crate::sim::informer::DropNext;
use crate::sim::object::{Kind, ObjectKey, ObjectTemplate, OwnerReference, Spec};
use crate::sim::world::{Action, ActionKind, WorldInit};

impl Scenario {
    /// It injects faults: a failure armed (`fail_next`), an event armed to
    /// drop, or a schedule entry that drops one. The scrubber marks them and
    /// an exported test says it cannot replay them.
    pub fn injects_faults(&self) -> bool {
        self.actions.iter().any(|a| a.fail_next.is_some() || a.drop_next_event.is_some()) || self.schedule.iter().any(|d| d.drop)
    }

    /// Expectations on or off, with the per-controller default resolved.
    pub fn expectations(&self) -> bool {
        self.controller.expectations()
    }

    /// Worker count, with the per-controller default resolved.
    pub fn workers(&self) -> u32 {
        self.controller.workers()
    }

    /// Resolve into what the world is built from.
    pub fn world_init(&self) -> WorldInit {
        // The defaults that depend on another setting are resolved now, at
        // the start: the collector's lag stays what it was when the
        // controller's changes during the run.
        let mut cluster = self.cluster.clone();
        cluster.gc_watch_lag_ms = Some(cluster.gc_watch_lag_ms());
        let (qps, burst) = cluster.client_limit(self.controller.kind);
        (cluster.client_qps, cluster.client_burst) = (Some(qps), Some(burst));
        let mut controller = self.controller.clone();
        controller.expectations = Some(controller.expectations());
        controller.workers = Some(controller.workers());
        let k = &self.controller;
        let ns = &k.namespace;
        let objects = self.objects.iter().flat_map(|o| o.templates(ns)).collect();
        let key = |namespace: &Option<String>, name: &str| ObjectKey::new(namespace.clone().unwrap_or_else(|| ns.clone()), name);
        let actions = self
            .actions
            .iter()
            .map(|a| {
                let kind = match a.act().expect("a validated entry gives one action") {
                    Act::Apply(o) => ActionKind::Apply(o.templates(ns).remove(0)),
                    Act::Delete(t) => ActionKind::Delete { kind: t.kind, key: key(&t.namespace, &t.name), propagation: t.propagation },
                    Act::Scale(s) => ActionKind::Scale { kind: s.kind, key: key(&s.namespace, &s.name), to: s.to },
                    Act::DeletePods(d) => ActionKind::DeletePods {
                        owner: ObjectKey::new(ns.clone(), d.owner.clone()),
                        count: d.count,
                        interval_ms: d.interval_ms,
                    },
                    Act::DropNextEvent(d) => ActionKind::DropNextEvent {
                        kind: d.kind,
                        what: if d.bookmark { DropNext::Bookmark } else { DropNext::Event(d.event_type) },
                    },
                    Act::Relist(r) => ActionKind::Relist { kind: r.kind },
                    Act::FailNext(f) => ActionKind::FailNext { verb: f.verb, kind: f.kind, mode: f.mode, nth: f.nth.unwrap_or(1) },
                    Act::PauseController(p) => ActionKind::PauseController { for_ms: p.for_ms },
                    Act::RestartController => ActionKind::RestartController,
                };
                Action { at_ms: a.at_ms, kind }
            })
            .collect();
        let frame_limit = limits::frame_limit(limits::objects_at_peak(self, None).0);
        let takes = self.takes.iter().map(|t| (t.take, t.worker)).collect();
        WorldInit {
            seed: self.seed,
            until_ms: self.until_ms,
            frame_limit,
            object_limit: limits::MAX_OBJECTS_AT_PEAK,
            cluster,
            controller,
            kinds: Kind::ALL.into_iter().chain(self.declared.iter().copied()).collect(),
            invariants: super::invariants::declared(self).expect("a validated scenario's invariants"),
            objects,
            actions,
            schedule: self.schedule.clone(),
            takes,
        }
    }
}

impl ObjectSpec {
    pub(super) fn templates(&self, default_ns: &str) -> Vec<ObjectTemplate> {
        let namespace = self.namespace.clone().unwrap_or_else(|| default_ns.to_string());
        let desired = match self.kind {
            Kind::Ensemble => self.voices,
            Kind::ReplicaSet => self.replicas,
            Kind::ConfigMap | Kind::Pod => None,
            Kind::Declared(_) => self.kind.desired_field().and_then(|f| self.spec.get(f).copied()),
        };
        let spec = Spec::with_desired(self.kind, desired.unwrap_or(0));
        let count = self.count.unwrap_or(1);
        let labels = std::rc::Rc::new(self.labels.clone());
        let annotations = crate::sim::object::annotations(self.annotations.clone());
        // The UID is the owner's at creation: 0 until the world resolves it.
        let owner_references: crate::sim::object::OwnerReferences = std::rc::Rc::new(
            self.owner_references
                .iter()
                .map(|r| OwnerReference { kind: r.kind, name: r.name.as_str().into(), uid: 0, controller: r.controller })
                .collect(),
        );
        (1..=count)
            .map(|i| ObjectTemplate {
                namespace: namespace.as_str().into(),
                name: Some(if count > 1 || self.name.contains("{i}") {
                    self.name.replace("{i}", &i.to_string()).into()
                } else {
                    self.name.as_str().into()
                }),
                generate_name: None,
                labels: labels.clone(),
                annotations: annotations.clone(),
                owner_references: owner_references.clone(),
                finalizers: self.finalizers.clone(),
                spec: spec.clone(),
            })
            .collect()
    }
}

/// A scenario's owner, the one the page's buttons act on: its first Ensemble or ReplicaSet.
pub fn owner_of(scenario: &Scenario) -> Option<(Kind, ObjectKey)> {
    let ns = &scenario.controller.namespace;
    let from_objects = scenario.objects.iter().map(|o| (o.kind, o.namespace.clone(), o.name.clone()));
    let from_actions = scenario.actions.iter().filter_map(|a| a.apply.as_ref()).map(|o| (o.kind, o.namespace.clone(), o.name.clone()));
    from_objects
        .chain(from_actions)
        .find(|(k, _, _)| k.desired_field().is_some())
        .map(|(k, n, name)| (k, ObjectKey::new(n.unwrap_or_else(|| ns.clone()), name)))
}
