//! What a controller is, as one value every floor reads: what it watches
//! and how each watched event reaches its queue ([`Handler`], [`MapsTo`]),
//! what it owns and counts, how it runs, what it defaults to and what it can be set
//! to do. The world, the views, the narration and the settings bar ask the
//! run's controller's [`ControllerSpec`] rather than matching on which
//! controller it is (kube-runtime's `Controller::new(api).owns(child)`:
//! the wiring as a value, apart from the reconcile).
//!
//! A leaf: it imports only `apiserver`'s vocabulary, `object` and
//! `reconcile`, so `settings` and everything above read it.

use super::apiserver::ControllerKind;
use super::object::{Kind, ENSEMBLE_LABEL};
use super::reconcile::Step;

/// How the controller's process runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Program {
    /// A reconcile loop over a workqueue, for as long as it lives.
    Loop,
    /// One pass, then the process exits (lab 2's pruner).
    OneShot,
}

/// How an event of a watched kind reaches the workqueue: the key it adds,
/// and what its handler does on the way (kube-runtime's `owns` and
/// `watches` as data; the handlers run in `controllers/handlers.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MapsTo {
    /// The object's own key (`For(owner)`). With `forgets`, a delete, or an
    /// object of another UID under the name (a re-creation the cache never
    /// saw go), drops the key's expectations and clears its consistency
    /// record by the old UID (`deleteRS`).
    Itself { forgets: bool },
    /// The owner a label names (the Ensemble's, which holds with
    /// ownerReferences off too); an ADDED or DELETED child lowers its expectations.
    OwnerByLabel(&'static str),
    /// The owner its controllerRef names, if the lister holds that very
    /// object (same UID): `addPod`, `updatePod`, `deletePod`. A resync (same
    /// resourceVersion) is ignored; a Terminating child counts as deleted.
    OwnerByControllerRef,
}

/// A watched kind's handler.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Handler {
    pub kind: Kind,
    pub maps_to: MapsTo,
}

/// What the controller can be set to do: each a setting of the table (or a
/// group of them) that applies to it, offered in the page only where it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Can {
    /// `controller.naming`: how it names what it creates.
    pub naming: bool,
    /// `controller.double_enqueue`: re-add the key after a success.
    pub double_enqueue: bool,
    /// `controller.expectations`: keep ControllerExpectations.
    pub expectations: bool,
    /// `controller.delete_surplus`: delete children past the desired count.
    pub delete_surplus: bool,
    /// `controller.owner_references`: set a controllerRef on its children.
    pub owner_references: bool,
    /// `controller.consistency_store`: v1.36's consistency store.
    pub consistency_store: bool,
    /// `controller.update_status`: write the owner's status.
    pub update_status: bool,
    /// `controller.runtime=controller-runtime`: be written with controller-runtime.
    pub controller_runtime: bool,
}

/// One controller, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ControllerSpec {
    pub kind: ControllerKind,
    /// The name it goes by in logs and the audit log's user field.
    pub name: &'static str,
    pub program: Program,
    /// The kinds its informers watch, in the order they start.
    pub watches: &'static [Kind],
    /// Its event handlers, a watched kind each (none: a one-shot program's
    /// informer only fills its lister).
    pub handlers: &'static [Handler],
    /// The kind whose objects it reconciles, each with a desired count of children (none: the pruner).
    pub owner: Option<Kind>,
    /// The kind it counts, creates and deletes: its figures are of this kind.
    pub child: Kind,
    /// The owner's spec field that holds the desired count (`voices`, `replicas`).
    pub desired_field: Option<&'static str>,
    /// The step a worker is on when it has just taken a key, and its return's.
    pub first_step: Step,
    pub last_step: Step,
    /// Worker goroutines when the scenario names none.
    pub default_workers: u32,
    /// Written with controller-runtime when the scenario names no runtime.
    pub controller_runtime_by_default: bool,
    /// Keeps ControllerExpectations when the scenario says nothing.
    pub expectations_by_default: bool,
    /// Runs the consistency store as its Kubernetes release ships it for
    /// this controller (`StaleControllerConsistency…`, from v1.36).
    pub consistency_store_by_release: bool,
    /// The client-side limit `(qps, burst)` when the scenario names none (qps 0: no limit).
    pub client_defaults: (u32, u32),
    /// Its informers' LISTs go through its own client (and wait for its limiter).
    pub informers_share_client: bool,
    pub can: Can,
}

/// client-go's `DefaultQPS` and `DefaultBurst` (`rest/config.go`), what a
/// hand-written client-go program gets when it leaves `rest.Config.QPS` at zero.
pub const DEFAULT_CLIENT_QPS: u32 = 5;
pub const DEFAULT_CLIENT_BURST: u32 = 10;

/// The lab's operator: an `Ensemble` with `spec.voices` ConfigMaps, written
/// with controller-runtime, whose `GetConfigWithContext` turns the client's
/// limiter off when QPS is unset ("rely on API priority and fairness":
/// `cfg.QPS = -1`, controller-runtime v0.21+ `pkg/client/config/config.go`;
/// its burst applies only if a scenario sets a qps: rest.Config's
/// `DefaultBurst`); its informers share its client's config.
const ENSEMBLE: ControllerSpec = ControllerSpec {
    kind: ControllerKind::Ensemble,
    name: ControllerKind::Ensemble.actor_name(),
    program: Program::Loop,
    watches: &[Kind::Ensemble, Kind::ConfigMap],
    handlers: &[
        Handler { kind: Kind::Ensemble, maps_to: MapsTo::Itself { forgets: false } },
        Handler { kind: Kind::ConfigMap, maps_to: MapsTo::OwnerByLabel(ENSEMBLE_LABEL) },
    ],
    owner: Some(Kind::Ensemble),
    child: Kind::ConfigMap,
    desired_field: Some("voices"),
    first_step: Step::Dequeue,
    last_step: Step::Return,
    default_workers: 1,
    controller_runtime_by_default: true,
    expectations_by_default: false,
    consistency_store_by_release: false,
    client_defaults: (0, DEFAULT_CLIENT_BURST),
    informers_share_client: true,
    can: Can {
        naming: true,
        double_enqueue: true,
        expectations: true,
        delete_surplus: true,
        owner_references: true,
        consistency_store: true,
        update_status: false,
        controller_runtime: true,
    },
};

/// kube-controller-manager's ReplicaSet controller: 5 workers and
/// expectations, as upstream; the controller manager sets its clients to 20
/// QPS, burst 30 (`SetDefaults_KubeControllerManagerConfiguration`,
/// pkg/controller/apis/config/v1alpha1/defaults.go), a token bucket a
/// controller (controller-manager v0.36.3 `pkg/clientbuilder/client_builder.go`),
/// and its shared informers have a client of their own
/// (`ClientOrDie("shared-informers")` in `CreateControllerContext`).
const REPLICASET: ControllerSpec = ControllerSpec {
    kind: ControllerKind::ReplicaSet,
    name: ControllerKind::ReplicaSet.actor_name(),
    program: Program::Loop,
    watches: &[Kind::ReplicaSet, Kind::Pod],
    handlers: &[
        Handler { kind: Kind::ReplicaSet, maps_to: MapsTo::Itself { forgets: true } },
        Handler { kind: Kind::Pod, maps_to: MapsTo::OwnerByControllerRef },
    ],
    owner: Some(Kind::ReplicaSet),
    child: Kind::Pod,
    desired_field: Some("replicas"),
    first_step: Step::Dequeue,
    last_step: Step::Return,
    default_workers: 5,
    controller_runtime_by_default: false,
    expectations_by_default: true,
    consistency_store_by_release: true,
    client_defaults: (20, 30),
    informers_share_client: false,
    can: Can {
        naming: false,
        double_enqueue: false,
        expectations: true,
        delete_surplus: false,
        owner_references: false,
        consistency_store: true,
        update_status: true,
        controller_runtime: false,
    },
};

/// Lab 2's pruner: a plain client-go program, one pass, with rest.Config's
/// `DefaultQPS` 5 and `DefaultBurst` 10 (client-go v0.36.3 `rest/config.go`).
/// It names only the ConfigMap it creates when it re-reads its own write.
const PRUNER: ControllerSpec = ControllerSpec {
    kind: ControllerKind::Pruner,
    name: ControllerKind::Pruner.actor_name(),
    program: Program::OneShot,
    watches: &[Kind::ConfigMap],
    handlers: &[],
    owner: None,
    child: Kind::ConfigMap,
    desired_field: None,
    first_step: Step::LiveList,
    last_step: Step::Exit,
    default_workers: 1,
    controller_runtime_by_default: false,
    expectations_by_default: false,
    consistency_store_by_release: false,
    client_defaults: (DEFAULT_CLIENT_QPS, DEFAULT_CLIENT_BURST),
    informers_share_client: true,
    can: Can {
        naming: true,
        double_enqueue: false,
        expectations: false,
        delete_surplus: false,
        owner_references: false,
        consistency_store: false,
        update_status: false,
        controller_runtime: false,
    },
};

impl ControllerKind {
    /// This controller, as data.
    pub const fn spec(self) -> &'static ControllerSpec {
        match self {
            ControllerKind::Ensemble => &ENSEMBLE,
            ControllerKind::ReplicaSet => &REPLICASET,
            ControllerKind::Pruner => &PRUNER,
        }
    }
}

/// `base`'s wiring over other kinds: a recipe whose owner is a kind of the
/// scenario's own (`RayCluster` → `Pod`) runs as its controller kind runs
/// (its runtime, defaults, clients and handlers' way of mapping an event)
/// but watches and reconciles `owner` and `child`. Its child handler maps
/// by `owner`'s children label where `base`'s maps by a label, and by
/// controllerRef where `base`'s does. Interned: one value per distinct
/// wiring for the process's life, as declared kinds are. `forgets`, when
/// given, says whether the owner's delete handler forgets its expectations.
pub fn rewired(
    base: &'static ControllerSpec,
    owner: Kind,
    child: Kind,
    name: Option<&str>,
    forgets: Option<bool>,
) -> &'static ControllerSpec {
    let name = name.map_or(base.name, super::object::intern);
    let handlers: Vec<Handler> = base
        .handlers
        .iter()
        .map(|h| match h.maps_to {
            MapsTo::Itself { forgets: was } => Handler { kind: owner, maps_to: MapsTo::Itself { forgets: forgets.unwrap_or(was) } },
            MapsTo::OwnerByLabel(_) => {
                Handler { kind: child, maps_to: MapsTo::OwnerByLabel(super::object::child_label(owner).unwrap_or(ENSEMBLE_LABEL)) }
            }
            MapsTo::OwnerByControllerRef => Handler { kind: child, ..*h },
        })
        .collect();
    if base.owner == Some(owner) && base.child == child && base.name == name && *base.handlers == *handlers {
        return base;
    }
    static INTERNED: std::sync::Mutex<Vec<&'static ControllerSpec>> = std::sync::Mutex::new(Vec::new());
    let mut specs = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
    let same = |s: &&&ControllerSpec| {
        s.kind == base.kind && s.owner == Some(owner) && s.child == child && s.name == name && *s.handlers == *handlers
    };
    if let Some(spec) = specs.iter().find(same) {
        return spec;
    }
    let spec = ControllerSpec {
        name,
        watches: Box::leak(Box::new([owner, child])),
        handlers: Box::leak(handlers.into_boxed_slice()),
        owner: Some(owner),
        child,
        desired_field: owner.desired_field(),
        ..*base
    };
    let spec: &'static ControllerSpec = Box::leak(Box::new(spec));
    specs.push(spec);
    spec
}

impl ControllerSpec {
    /// The name it goes by in logs and the audit log's user field.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Who its requests are from.
    pub fn agent(&self) -> super::apiserver::Agent {
        super::apiserver::Agent { kind: self.kind, name: self.name }
    }

    /// A reconcile loop (it can be paused, run as two replicas, restarted).
    pub fn loops(&self) -> bool {
        self.program == Program::Loop
    }

    /// Its children are pods: kubectl's `delete pod` acts on them.
    pub fn has_pods(&self) -> bool {
        self.child == Kind::Pod
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::settings::{Choice, ControllerSettings};

    #[test]
    fn each_controller_is_one_consistent_value() {
        for &kind in ControllerKind::ALL {
            let spec = kind.spec();
            assert_eq!(spec.kind, kind);
            assert!(spec.watches.contains(&spec.child), "{kind:?} watches what it counts");
            assert!(spec.owner.is_none_or(|o| spec.watches.contains(&o)), "{kind:?} watches its owner");
            // A loop handles every kind it watches, in the order it watches them; a one-shot program none.
            let handled: Vec<Kind> = spec.handlers.iter().map(|h| h.kind).collect();
            assert_eq!(handled, if spec.loops() { spec.watches.to_vec() } else { Vec::new() }, "{kind:?}");
            // Its owner's events add the owner's own key; its children's, their owner's.
            for h in spec.handlers {
                assert_eq!(matches!(h.maps_to, MapsTo::Itself { .. }), Some(h.kind) == spec.owner, "{kind:?}: {h:?}");
            }
            assert_eq!(spec.owner.is_some(), spec.desired_field.is_some(), "{kind:?}: an owner holds a desired count");
            // Its first and last steps are lines of its code, whatever its settings.
            let code: Vec<Step> =
                crate::sim::controllers::pseudo_code(&ControllerSettings::new(kind)).into_iter().map(|(s, _)| s).collect();
            assert!(code.contains(&spec.first_step) && code.contains(&spec.last_step), "{kind:?}: {code:?}");
            // What it defaults to is what it can be set to.
            assert!(!spec.expectations_by_default || spec.can.expectations, "{kind:?}");
            assert!(!spec.controller_runtime_by_default || spec.can.controller_runtime, "{kind:?}");
            assert!(!spec.consistency_store_by_release || spec.can.consistency_store, "{kind:?}");
            assert_eq!(spec.loops(), spec.owner.is_some(), "{kind:?}: the loops reconcile owners; the one-shot program has none");
        }
        assert_eq!(ControllerKind::ReplicaSet.spec().client_defaults, (20, 30), "kube-controller-manager's clients");
        assert_eq!(ControllerKind::Pruner.spec().client_defaults, (DEFAULT_CLIENT_QPS, DEFAULT_CLIENT_BURST));
        assert_eq!(ControllerKind::ReplicaSet.spec().name(), "replicaset-controller");
        assert!(ControllerKind::ReplicaSet.spec().has_pods() && !ControllerKind::Ensemble.spec().has_pods());
    }
}
