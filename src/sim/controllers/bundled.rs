//! The two reconcile loops cachescope ships, as the recipes their settings
//! write: each switch of the settings bar that changes what the reconcile
//! does is a line of the recipe changed (`controller.expectations` adds the
//! guard, `controller.naming` changes how a create names, `controller.live_reads`
//! where a read goes). The interpreter (`interpreter.rs`) runs them as it runs
//! any recipe; the lab's pruner is a one-shot program of its own (`pruner.rs`).

use super::replicaset::STATUS_UPDATE_RETRIES;
use crate::sim::apiserver::ControllerKind;
use crate::sim::object::{Kind, ENSEMBLE_LABEL, REPLICASET_LABEL};
use crate::sim::recipe::{Batches, KeyedBy, Naming, OnPending, Op, Precondition, ReadFrom, Recipe, Select, Victims};
use crate::sim::settings::{ControllerSettings, Naming as NamingSetting};
use std::sync::Arc;

/// The recipe the run's controller reconciles with: the scenario's own, or
/// as its settings write it; none for a one-shot program.
pub fn recipe(settings: &ControllerSettings) -> Option<Recipe> {
    if let Some(recipe) = &settings.recipe {
        return Some(Recipe::clone(recipe));
    }
    match settings.kind {
        ControllerKind::Ensemble => Some(ensemble(settings)),
        ControllerKind::ReplicaSet => Some(replicaset(settings)),
        ControllerKind::Pruner => None,
    }
}

/// The lab's operator: read the Ensemble, count its ConfigMaps by label in
/// the cache, create the missing one at a time (or delete the surplus),
/// return. Its reads go where controller-runtime's client sends them.
fn ensemble(settings: &ControllerSettings) -> Recipe {
    let from = if settings.live_reads {
        ReadFrom::Live
    } else if settings.reads_own_writes() {
        ReadFrom::ReadYourWrites
    } else {
        ReadFrom::Cache
    };
    let infix = Arc::from("-voice-");
    let naming = match settings.naming {
        NamingSetting::Deterministic => Naming::Indexed(infix),
        NamingSetting::Generate => Naming::Generate(infix),
    };
    let mut ops = Vec::with_capacity(7);
    if settings.consistency_store() {
        ops.push(Op::EnsureReady);
    }
    ops.push(Op::GetOwner { from, stop_if_terminating: true });
    if settings.expectations() {
        ops.push(Op::CheckExpectations { on_pending: OnPending::Return });
    }
    let victims = if settings.delete_surplus { Victims::PastDesired } else { Victims::Keep };
    ops.push(Op::Count { from, select: Select::Label(Arc::from(ENSEMBLE_LABEL)), victims, burst: None, desired: None });
    ops.push(Op::Create {
        naming,
        label: Arc::from(ENSEMBLE_LABEL),
        owner_reference: settings.owner_references,
        batches: Batches::OneByOne,
        copy_desired: false,
    });
    if settings.delete_surplus {
        ops.push(Op::Delete { at_once: false, precondition: Precondition::None, propagation: None });
    }
    ops.push(Op::Return);
    Recipe {
        name: None,
        owner: Kind::Ensemble,
        child: Kind::ConfigMap,
        expectations: settings.expectations(),
        expectations_keyed_by: KeyedBy::Name,
        delete_expectations_on_delete: None,
        ops: ops.into(),
    }
}

/// `syncReplicaSet` (`pkg/controller/replicaset/replica_set.go`): the
/// consistency store's check first (v1.36), expectations read before the
/// pods are listed (l.693), creates in slow-start batches clamped to
/// `burstReplicas`, deletes of the newest at once, then the status.
fn replicaset(settings: &ControllerSettings) -> Recipe {
    let mut ops = Vec::with_capacity(8);
    if settings.consistency_store() {
        ops.push(Op::EnsureReady);
    }
    ops.push(Op::GetOwner { from: ReadFrom::Cache, stop_if_terminating: false });
    if settings.expectations() {
        // Upstream lists the pods anyway, for the status; without the status
        // write that list changes nothing, and is not shown.
        let on_pending = if settings.update_status { OnPending::CountOnly } else { OnPending::Return };
        ops.push(Op::CheckExpectations { on_pending });
    }
    let burst = Some(settings.burst_replicas.max(1));
    ops.push(Op::Count { from: ReadFrom::Cache, select: Select::ActiveControlled, victims: Victims::Newest, burst, desired: None });
    ops.push(Op::Create {
        naming: Naming::Generate(Arc::from("-")),
        label: Arc::from(REPLICASET_LABEL),
        owner_reference: true,
        batches: Batches::SlowStart,
        copy_desired: false,
    });
    ops.push(Op::Delete { at_once: true, precondition: Precondition::None, propagation: None });
    if settings.update_status {
        ops.push(Op::UpdateStatus { retries: STATUS_UPDATE_RETRIES });
    }
    ops.push(Op::Return);
    Recipe {
        name: None,
        owner: Kind::ReplicaSet,
        child: Kind::Pod,
        expectations: settings.expectations(),
        expectations_keyed_by: KeyedBy::Name,
        delete_expectations_on_delete: None,
        ops: ops.into(),
    }
}
