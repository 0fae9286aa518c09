//! The controllers' event handlers, one function for every controller: what
//! an event of a watched kind does is its [`MapsTo`] in the controller's
//! [`ControllerSpec`]. They run after the store took the event (`caches`
//! already holds it), and return what they did (`HandlerEffects`).

use super::{queue_key, Caches, HandlerEffects, HandlerEvent};
use crate::sim::apiserver::EventType;
use crate::sim::consistency::ConsistencyStore;
use crate::sim::expectations::Expectations;
use crate::sim::object::{Name, ObjectKey, ObjectRc};
use crate::sim::recipe::KeyedBy;
use crate::sim::spec::{ControllerSpec, MapsTo};

/// Run the controller's handler for one event of a watched kind, its
/// expectations kept under `keyed_by` (its recipe's).
pub fn handle(
    spec: &ControllerSpec,
    keyed_by: KeyedBy,
    informer_kind: crate::sim::object::Kind,
    ev: &HandlerEvent,
    caches: &Caches,
    expectations: &mut Expectations,
    consistency: &mut ConsistencyStore,
) -> HandlerEffects {
    let mut fx = HandlerEffects::default();
    let Some(handler) = spec.handlers.iter().find(|h| h.kind == informer_kind) else { return fx };
    match handler.maps_to {
        MapsTo::Itself { forgets } => {
            let key = queue_key(&ev.object.namespace, &ev.object.name);
            // updateRS: an object with a new UID under the old name was
            // deleted and re-created unseen (client-go hands an ADDED for a
            // key its store holds to OnUpdate): treat the old as deleted,
            // `deleteRS`, whose expectations go with it. v1.36's deleteRS
            // also clears the consistency store's record of the deleted
            // object, by its UID (`consistencyStore.Clear(key, rs.UID)`), so
            // a successor under its name is not held back by it.
            let recreated = ev.old.filter(|old| old.uid != ev.object.uid);
            if forgets && (ev.event_type == EventType::Deleted || recreated.is_some()) {
                expectations.delete(&keyed_by.key(&key, recreated.unwrap_or(ev.object).uid));
                consistency.clear(&key, Some(recreated.unwrap_or(ev.object).uid));
            }
            fx.enqueued.push(key);
        }
        MapsTo::OwnerByLabel(label) => {
            let Some(owner) = ev.object.labels.get(label) else { return fx };
            let key = queue_key(&ev.object.namespace, owner);
            // Kept by UID, a child is traced to its owner by its controllerRef.
            let record = match keyed_by {
                KeyedBy::Name => Some(key.clone()),
                KeyedBy::Uid => ev.object.controller_ref().map(|r| keyed_by.key(&key, r.uid)),
            };
            if ev.event_type == EventType::Deleted {
                fx.deleted.push(key.clone());
            }
            observe(&mut fx, expectations, key, record, ev.event_type, ev.object);
        }
        MapsTo::OwnerByControllerRef => {
            // A child's DELETED (or its tombstone) is resolved against the lister
            // as it is: the owner is still there unless it went first.
            let Some(owner) = resolve_controller_ref(caches, ev.object) else {
                // An orphan, or a child of an owner that is gone or re-created
                // (another UID): adoption would enqueue matching owners; none is modelled.
                return fx;
            };
            let key = queue_key(&ev.object.namespace, &owner.name);
            // A resync (same resourceVersion) is ignored.
            if ev.event_type == EventType::Modified && ev.old.is_some_and(|o| o.resource_version == ev.object.resource_version) {
                return fx;
            }
            // addPod and updatePod hand a Terminating pod to deletePod: the
            // controller replaces it now, not when the kubelet removes it.
            let seen_as = if ev.object.is_terminating() { EventType::Deleted } else { ev.event_type };
            let record = keyed_by.key(&key, owner.uid);
            if ev.event_type == EventType::Deleted {
                fx.deleted.push(key.clone());
            }
            observe(&mut fx, expectations, key, Some(record), seen_as, ev.object);
        }
    }
    fx
}

/// A child's event as its owner's expectations (kept under `record`) see it
/// (`CreationObserved`, `DeletionObserved`, tombstones unwrapped to the last
/// known object), and the owner's key enqueued.
fn observe(
    fx: &mut HandlerEffects,
    expectations: &mut Expectations,
    key: Name,
    record: Option<Name>,
    seen_as: EventType,
    child: &ObjectRc,
) {
    if let Some(record) = record {
        let observed = match seen_as {
            EventType::Added => expectations.creation_observed(&record).then_some("add"),
            EventType::Modified => None,
            EventType::Deleted => expectations.deletion_observed(&record, &queue_key(&child.namespace, &child.name)).then_some("del"),
        };
        if let Some(what) = observed {
            fx.observed.push((record, what));
        }
    }
    fx.enqueued.push(key);
}

/// `resolveControllerRef`: the owner a child's controllerRef names, from the
/// lister, if it is the very object (same UID). A child of a deleted owner
/// names its successor's name but not its UID, and so belongs to nobody: it
/// must not lower the successor's expectations.
fn resolve_controller_ref<'a>(caches: &'a Caches, child: &ObjectRc) -> Option<&'a ObjectRc> {
    let r = child.controller_ref()?;
    caches.get(r.kind, &ObjectKey::new(child.namespace.clone(), r.name.clone())).filter(|owner| owner.uid == r.uid)
}
