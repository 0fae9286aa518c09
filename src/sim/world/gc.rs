//! The garbage collector: its own informers over every kind, the graph of
//! ownerReferences they give it, and `attemptToDelete`: a live GET of a
//! dependent's owner, then a delete if the owner is gone (404 or another UID).
//! A simplification of the real collector: it checks a dependent's first
//! ownerReference only, and deletes with background propagation.

use super::{Origin, Timer, World};
use crate::sim::apiserver::{Actor, EventType, Outcome, Request};
use crate::sim::controllers::{Caches, HandlerEffects, HandlerEvent};
use crate::sim::frame::Event;
use crate::sim::object::{child_kind, child_label, ObjectKey, ObjectRc, ObjectRef};

/// The garbage collector: its informers over every kind and its attemptToDelete jobs.
#[derive(Debug, Clone)]
pub struct GarbageCollector {
    pub caches: Caches,
}

impl World {
    /// The garbage collector's graph: an owner's DELETED sends each dependent to
    /// `attemptToDelete`; so does a dependent whose owner the graph has never seen.
    pub(super) fn gc_handle(&mut self, ev: &HandlerEvent) -> HandlerEffects {
        let mut fx = HandlerEffects::default();
        let mut dependents: Vec<ObjectRc> = Vec::new();
        match ev.event_type {
            EventType::Deleted => {
                let uid = ev.object.uid;
                if child_kind(ev.object.kind()).is_some() {
                    for inf in &self.gc.caches.informers {
                        dependents.extend(inf.list().filter(|o| o.owner_references.iter().any(|r| r.uid == uid)).cloned());
                    }
                }
            }
            EventType::Added | EventType::Modified => {
                let owner_missing = ev.object.owner_references.iter().any(|r| {
                    let key = ObjectKey::new(ev.object.namespace.clone(), r.name.clone());
                    self.gc.caches.get(r.kind, &key).is_none_or(|o| o.uid != r.uid)
                });
                if owner_missing {
                    dependents.push(ev.object.clone());
                }
            }
        }
        for dep in dependents {
            fx.attempt_to_delete.push(dep.key().to_string());
            let Some(owner) = dep.owner_references.first() else { continue };
            let req = Request::get(Actor::GarbageCollector, owner.kind, &ObjectKey::new(dep.namespace.clone(), owner.name.clone()));
            self.send(req, Origin::GcGet { dependent: dep.clone() }, true);
        }
        fx
    }

    /// `attemptToDelete`'s GET of a dependent's owner was answered: delete the
    /// dependent if its owner is gone (404, or another object under its name).
    pub(super) fn gc_owner_answered(&mut self, dependent: ObjectRc, outcome: &Outcome) {
        let owner_gone = match &outcome.response.object {
            None => true,
            Some(o) => dependent.owner_references.iter().all(|r| r.uid != o.uid),
        };
        if owner_gone {
            let req = Request::delete(Actor::GarbageCollector, dependent.kind(), &dependent.key());
            self.send(req, Origin::GcDelete, true);
        }
    }

    /// An owner has been gone for the grace period: the frame, if children naming it remain.
    pub(super) fn orphan_deadline(&mut self, owner: ObjectRef, uid: u64, deleted_at_ms: u64) -> Option<Event> {
        let recreated = self.api.get(owner.kind, &owner.key()).is_some_and(|o| o.uid != uid);
        let label = child_label(owner.kind)?;
        let kind = child_kind(owner.kind)?;
        let children = self.api.count_labelled(kind, &owner.namespace, label, &owner.name);
        if recreated || children == 0 {
            return None;
        }
        Some(Event::OrphansRemain { owner, children, since_ms: deleted_at_ms })
    }

    /// An owner's delete starts its children's grace period.
    pub(super) fn start_orphan_grace(&mut self, owner: &ObjectRc) {
        let at = self.now_ms + self.cluster.orphan_grace_ms;
        let timer = Timer::OrphanDeadline { owner: owner.object_ref(), uid: owner.uid, deleted_at_ms: self.now_ms };
        self.set_timer(at, timer);
    }
}
