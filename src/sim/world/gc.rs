//! The garbage collector, as `pkg/controller/garbagecollector` does it: its
//! own informers over every kind (the graph of ownerReferences), and three
//! jobs.
//!
//! - `attemptToDeleteItem`: read the dependent first (a live GET; gone,
//!   another UID under its name, or no owner left ends the job); then each owner, one by one
//!   (`isDangling`: the absent-owner cache answers for an owner already known
//!   gone, else a live GET; 404 or another UID is dangling and goes into the
//!   cache). With a solid owner left, the dangling references are removed from
//!   the dependent; with none, it is deleted with UID and resourceVersion
//!   preconditions, in the propagation its own finalizers ask for. A 409
//!   (it changed since it was read) starts the attempt again.
//! - Foreground deletion (`processDeletingDependentsItem`): an owner
//!   Terminating with `foregroundDeletion` sends its dependents to
//!   attemptToDelete, and once none is left in the graph, removes the finalizer.
//! - Orphan deletion (`orphanDependents`): an owner Terminating with `orphan`
//!   has the reference to it removed from each dependent, then the finalizer.
//!
//! Simplifications: removing a reference or a finalizer is an update, not a
//! patch; every controllerRef blocks its owner's deletion (`NewControllerRef`
//! sets `blockOwnerDeletion`), no other reference does; a job is retried only
//! when its delete's preconditions fail, and at once, not after the queue's
//! backoff.

use super::collector::Attempt;
use super::in_flight::Origin;
use super::state::World;
use super::timer::Timer;
use crate::sim::apiserver::{Actor, EventType, Handled, Options, Propagation, Request, Status};
use crate::sim::controllers::{HandlerEffects, HandlerEvent};
use crate::sim::frame::Event;
use crate::sim::invariants::SentWith;
use crate::sim::object::{
    child_kind, child_label, Object, ObjectKey, ObjectRc, ObjectRef, ObjectTemplate, OwnerReference, OwnerReferences, FINALIZER_FOREGROUND,
    FINALIZER_ORPHAN,
};
use std::rc::Rc;

fn owner_key(dep: &Object, r: &OwnerReference) -> ObjectKey {
    ObjectKey::new(dep.namespace.clone(), r.name.clone())
}

/// The body of an update that writes `o` as it is, but for `owner_references` and `finalizers`.
fn rewrite(o: &Object, owner_references: OwnerReferences, finalizers: Vec<String>) -> ObjectTemplate {
    ObjectTemplate { owner_references, finalizers, ..o.into() }
}

impl World {
    /// The graph builder: an owner's DELETED sends its dependents to
    /// `attemptToDelete`; so does a dependent whose owner the graph does not
    /// hold; an owner that turns Terminating with `foregroundDeletion` or
    /// `orphan` starts the deletion of, or the orphaning of, its dependents.
    pub(super) fn gc_handle(&mut self, ev: &HandlerEvent) -> HandlerEffects {
        let mut fx = HandlerEffects::default();
        let o = ev.object;
        let mut attempts: Vec<ObjectRc> = Vec::new();
        match ev.event_type {
            EventType::Deleted => {
                if child_kind(o.kind()).is_some() {
                    attempts.extend(self.gc.dependents(o.uid));
                }
                // A dependent gone: its owners waiting on their dependents look again.
                for r in o.owner_references.iter() {
                    let key = owner_key(o, r);
                    if let Some(owner) = self.gc.caches.get(r.kind, &key).filter(|w| w.uid == r.uid).cloned() {
                        self.gc_deleting_dependents(&owner);
                    }
                }
            }
            EventType::Added | EventType::Modified => {
                let owner_missing =
                    o.owner_references.iter().any(|r| self.gc.caches.get(r.kind, &owner_key(o, r)).is_none_or(|w| w.uid != r.uid));
                if owner_missing {
                    attempts.push(o.clone());
                }
                // The moment an owner turns Terminating (not every update after).
                let began = o.is_terminating() && ev.old.is_none_or(|p| !p.is_terminating());
                if began && o.finalizers.iter().any(|f| f == FINALIZER_FOREGROUND) {
                    attempts.extend(self.gc.dependents(o.uid));
                    self.gc_deleting_dependents(o);
                }
                if began && o.finalizers.iter().any(|f| f == FINALIZER_ORPHAN) {
                    self.gc_orphan_dependents(o);
                }
            }
        }
        for item in attempts {
            fx.attempt_to_delete.push(crate::sim::controllers::queue_key(&item.namespace, &item.name));
            self.gc_attempt(Attempt::new(item));
        }
        fx
    }

    /// `attemptToDeleteItem` begins: the live GET of the dependent.
    fn gc_attempt(&mut self, attempt: Attempt) {
        let req = Request::get(Actor::GarbageCollector, attempt.item.kind(), &attempt.item.key());
        self.send(req, Origin::Gc(Box::new(attempt)), SentWith::SYNCED);
    }

    /// `processDeletingDependentsItem`: once no dependent that blocks the
    /// owner is left in the graph, remove `foregroundDeletion`.
    fn gc_deleting_dependents(&mut self, owner: &ObjectRc) {
        if !owner.is_terminating() || !owner.finalizers.iter().any(|f| f == FINALIZER_FOREGROUND) {
            return;
        }
        let blocking = self.gc.dependents(owner.uid).iter().any(|d| d.owner_references.iter().any(|r| r.uid == owner.uid && r.controller));
        if blocking {
            return;
        }
        let finalizers = owner.finalizers.iter().filter(|f| *f != FINALIZER_FOREGROUND).cloned().collect();
        let req = Request::update(Actor::GarbageCollector, rewrite(owner, owner.owner_references.clone(), finalizers));
        self.send(req, Origin::GcWrite, SentWith::SYNCED);
    }

    /// `orphanDependents`, then `removeFinalizer(orphan)`: the dependents
    /// lose their reference to the owner and live on.
    fn gc_orphan_dependents(&mut self, owner: &ObjectRc) {
        self.gc.orphaned_on_purpose.insert(owner.uid);
        for dep in self.gc.dependents(owner.uid) {
            let refs = Rc::new(dep.owner_references.iter().filter(|r| r.uid != owner.uid).cloned().collect());
            let req = Request::update(Actor::GarbageCollector, rewrite(&dep, refs, dep.finalizers.clone()));
            self.send(req, Origin::GcWrite, SentWith::SYNCED);
        }
        let finalizers = owner.finalizers.iter().filter(|f| *f != FINALIZER_ORPHAN).cloned().collect();
        let req = Request::update(Actor::GarbageCollector, rewrite(owner, owner.owner_references.clone(), finalizers));
        self.send(req, Origin::GcWrite, SentWith::SYNCED);
    }

    /// One GET of `attemptToDeleteItem` was answered: the dependent's own, or
    /// an owner's. Carry on with the next owner, or decide.
    pub(super) fn gc_answered(&mut self, mut a: Attempt, outcome: &Handled) {
        if a.deleting {
            // The delete's preconditions failed: the dependent changed since
            // it was read (a new owner, say). The item goes back on
            // attemptToDelete and is read and judged again.
            if outcome.response.status == Status::CONFLICT {
                self.gc_attempt(Attempt::new(a.item));
            }
            return;
        }
        let Some(latest) = a.latest.clone() else {
            // The dependent's own GET: gone, or re-created under its name, ends the job.
            match &outcome.response.object {
                Some(o) if o.uid == a.item.uid => a.latest = Some(o.clone()),
                _ => return,
            }
            // "item doesn't have an owner, continue on next item": orphaned meanwhile.
            if a.latest.as_ref().is_some_and(|o| o.owner_references.is_empty()) {
                return;
            }
            return self.gc_next_owner(a);
        };
        let r = &latest.owner_references[a.next];
        match &outcome.response.object {
            Some(owner) if owner.uid == r.uid => {
                if owner.is_terminating() && owner.finalizers.iter().any(|f| f == FINALIZER_FOREGROUND) {
                    a.waiting += 1;
                } else {
                    a.solid += 1;
                }
            }
            // 404, or another object under the owner's name: dangling, and remembered.
            _ => {
                self.gc.absent_owners.insert(r.uid);
                a.dangling.push(r.uid);
            }
        }
        a.next += 1;
        self.gc_next_owner(a)
    }

    /// `classifyReferences`, one reference at a time; then `attemptToDeleteItem`'s decision.
    fn gc_next_owner(&mut self, mut a: Attempt) {
        let latest = a.latest.clone().expect("the dependent was read");
        while let Some(r) = latest.owner_references.get(a.next) {
            if !self.gc.absent_owners.contains(&r.uid) {
                let req = Request::get(Actor::GarbageCollector, r.kind, &owner_key(&latest, r));
                self.send(req, Origin::Gc(Box::new(a)), SentWith::SYNCED);
                return;
            }
            a.dangling.push(r.uid);
            a.next += 1;
        }
        if a.solid > 0 {
            // Solid owners remain: only the dangling references go.
            if !a.dangling.is_empty() {
                let refs = Rc::new(latest.owner_references.iter().filter(|r| !a.dangling.contains(&r.uid)).cloned().collect());
                let req = Request::update(Actor::GarbageCollector, rewrite(&latest, refs, latest.finalizers.clone()));
                self.send(req, Origin::GcWrite, SentWith::SYNCED);
            }
            return;
        }
        let propagation = if latest.finalizers.iter().any(|f| f == FINALIZER_ORPHAN) {
            Propagation::Orphan
        } else if latest.finalizers.iter().any(|f| f == FINALIZER_FOREGROUND) {
            Propagation::Foreground
        } else {
            Propagation::Background
        };
        // The UID and resourceVersion it was judged at are preconditions: a
        // dependent that moved on since is not deleted (kubernetes #132632,
        // "add RV check on GC delete calls", v1.34).
        let options = Options {
            uid: Some(latest.uid),
            resource_version: Some(latest.resource_version),
            propagation: Some(propagation),
            ..Options::default()
        };
        let req = Request::delete(Actor::GarbageCollector, latest.kind(), &latest.key()).with(options);
        a.deleting = true;
        self.send(req, Origin::Gc(Box::new(a)), SentWith::SYNCED);
    }

    /// An owner has been gone for the grace period: the frame, if children naming it remain.
    pub(super) fn orphan_deadline(&mut self, owner: ObjectRef, uid: u64, deleted_at_ms: u64) -> Option<Event> {
        let recreated = self.api.get(owner.kind, &owner.key()).is_some_and(|o| o.uid != uid);
        if self.gc.orphaned_on_purpose.contains(&uid) {
            return None;
        }
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
