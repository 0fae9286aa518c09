//! A scenario's actions (`kubectl apply`, `delete`, `scale`, pod deletions,
//! faults, restarts, relists) and the page's buttons, which inject actions at
//! the current millisecond.

use super::in_flight::Origin;
use super::input::{Action, ActionKind, Armed};
use super::state::World;
use super::timer::{Start, Timer};
use crate::sim::apiserver::{Actor, Options, Request};
use crate::sim::frame::Event;
use crate::sim::informer::DropNext;
use crate::sim::invariants::SentWith;
use crate::sim::object::{Kind, ObjectKey, ObjectTemplate, Spec};
use std::rc::Rc;

impl World {
    pub(super) fn act(&mut self, i: usize) -> Option<Event> {
        let action = self.actions[i].kind.clone();
        match action {
            ActionKind::Apply(t) => {
                let exists =
                    t.name.as_ref().is_some_and(|n| self.api.get(t.kind(), &ObjectKey::new(t.namespace.clone(), n.clone())).is_some());
                let req = if exists { Request::update(Actor::Kubectl, t) } else { Request::create(Actor::Kubectl, t) };
                self.send(req, Origin::Kubectl, SentWith::SYNCED);
                None
            }
            ActionKind::Delete { kind, key, propagation } => {
                let req = Request::delete(Actor::Kubectl, kind, &key).with(Options { propagation, ..Options::default() });
                self.send(req, Origin::Kubectl, SentWith::SYNCED);
                None
            }
            ActionKind::Scale { kind, key, to } => {
                let current = self.api.get(kind, &key).cloned();
                let body = match current {
                    Some(o) => {
                        let spec = if o.spec.desired().is_some() { Spec::with_desired(kind, to) } else { o.spec.clone() };
                        ObjectTemplate { spec, ..(&*o).into() }
                    }
                    // Scaling something that is not there is a 404, as kubectl gets.
                    None => ObjectTemplate {
                        namespace: key.namespace.clone(),
                        name: Some(key.name.clone()),
                        generate_name: None,
                        labels: Default::default(),
                        annotations: Default::default(),
                        owner_references: Default::default(),
                        finalizers: vec![],
                        spec: Spec::with_desired(kind, to),
                    },
                };
                let mut req = Request::update(Actor::Kubectl, body);
                req.kind = kind;
                self.send(req, Origin::Kubectl, SentWith::SYNCED);
                None
            }
            ActionKind::DeletePods { count, .. } => {
                self.delete_random_pod(i, count);
                None
            }
            ActionKind::DropNextEvent { kind, what } => {
                let inf = self.ctl.caches.informer_mut(kind)?;
                inf.drop_next(what);
                let (event_type, bookmark) = match what {
                    DropNext::Event(t) => (t, false),
                    DropNext::Bookmark => (None, true),
                };
                Some(Event::FaultArmed { kind, event_type, bookmark })
            }
            ActionKind::RestartController => Some(self.start_controller(Start::Again)),
            ActionKind::Relist { kind } => {
                let epoch = self.ctl.epoch;
                let inf = self.ctl.caches.informer_mut(kind)?;
                inf.start_list(self.now_ms);
                let req = self.reflector_request(kind);
                self.send(req, Origin::Informer { kind, epoch }, SentWith::SYNCED);
                Some(Event::RelistStarted { kind })
            }
            ActionKind::FailNext { verb, kind, mode, nth } => {
                self.faults.push(Armed { verb, kind, mode, passes: nth.saturating_sub(1) });
                Some(Event::FailureArmed { verb, kind, mode, nth })
            }
            ActionKind::PauseController { for_ms } => {
                if self.ctl.paused_until.is_some() {
                    return None;
                }
                self.pause_leader(for_ms)
            }
        }
    }

    pub(super) fn delete_random_pod(&mut self, action: usize, left: u32) {
        if left == 0 {
            return;
        }
        let ActionKind::DeletePods { owner, interval_ms, .. } = &self.actions[action].kind else { return };
        let interval_ms = *interval_ms;
        // Compare uids, not names: this runs every interval over every pod.
        // One draw over the owner's pods by key, as a lister's sorted list
        // would give them: the index counts them, and when every pod is the
        // owner's the store finds the one drawn without a walk.
        let victim = self.api.get(self.spec.owner.unwrap_or(Kind::ReplicaSet), owner).map(|rs| rs.uid).and_then(|uid| {
            let (active, terminating) = self.api.controlled_by(Kind::Pod, uid);
            let n = u64::from(active + terminating);
            let nth = (n > 0).then(|| self.rng.below(n) as usize)?;
            if n == self.api.count(Kind::Pod) as u64 {
                // Every pod is the owner's (the usual case): no need to look inside them.
                return self.api.nth_of(Kind::Pod, nth).map(|p| p.key());
            }
            self.api.objects_of(Kind::Pod).filter(|p| p.controller_ref().is_some_and(|r| r.uid == uid)).nth(nth).map(|p| p.key())
        });
        if let Some(key) = victim {
            self.send(Request::delete(Actor::Kubectl, Kind::Pod, &key), Origin::Kubectl, SentWith::SYNCED);
        }
        if left > 1 {
            self.set_timer(self.now_ms + interval_ms.max(1), Timer::DeletePod { action, left: left - 1 });
        }
    }

    /// Do an action now (the page's buttons): it fires as the next thing at this millisecond.
    pub fn inject(&mut self, kind: ActionKind) {
        let actions = Rc::make_mut(&mut self.actions);
        actions.push(Action { at_ms: self.now_ms, kind });
        let i = actions.len() - 1;
        self.set_timer(self.now_ms, Timer::Action(i));
    }

    /// The scenario's actions, including injected ones.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }
}
