//! Named invariants, checked as frames are produced. Each records the first
//! frame that broke it, so the UI can jump there and the runner can report it.

use super::apiserver::{Actor, ApiServer, AuditEntry, Verb};
use super::controllers::ControllerSettings;
use super::frame::{Event, Frame};
use super::object::{child_kind, child_label, Kind, ObjectKey};
use super::world::InFlightRequest;
use serde::Serialize;

/// One invariant and its state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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

/// The invariants' names, in report order.
pub const CHILDREN_WITHIN_DESIRED: &str = "children_within_desired";
pub const NO_DELETE_BEFORE_SYNC: &str = "no_delete_before_sync";
pub const NO_ORPHANS: &str = "no_orphans";

/// Every invariant of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
                inv(CHILDREN_WITHIN_DESIRED, "A controller's create never takes an owner's children above its desired count."),
                inv(NO_DELETE_BEFORE_SYNC, "No controller delete is sent before its cache has synced."),
                inv(NO_ORPHANS, "No child outlives its deleted owner by more than the grace period."),
            ],
        }
    }

    pub fn get(&self, name: &str) -> Option<&Invariant> {
        self.list.iter().find(|i| i.name == name)
    }

    fn break_(&mut self, name: &str, frame: u64, detail: impl FnOnce() -> String) {
        if let Some(i) = self.list.iter_mut().find(|i| i.name == name) {
            if i.first_broken_frame.is_none() {
                i.first_broken_frame = Some(frame);
                i.detail = Some(detail());
            }
        }
    }

    /// Check a request the apiserver just handled; `frame` is the frame it becomes.
    pub fn check_request(&mut self, req: &InFlightRequest, audit: &AuditEntry, api: &ApiServer, frame: u64) {
        if !matches!(audit.actor, Actor::Controller(_)) {
            return;
        }
        match audit.verb {
            Verb::Create if audit.status.is_success() => {
                // Which owner kinds have this kind of child?
                for owner_kind in [Kind::Ensemble, Kind::ReplicaSet] {
                    if child_kind(owner_kind) != Some(audit.kind) {
                        continue;
                    }
                    let label = child_label(owner_kind).expect("owner kinds have a child label");
                    let Some(owner_name) = req.request.body.as_ref().and_then(|b| b.labels.get(label)) else { continue };
                    let owner = api.get(owner_kind, &ObjectKey::new(audit.namespace.clone(), owner_name.clone()));
                    let desired = owner.and_then(|o| o.spec.desired()).unwrap_or(0);
                    let children = api.count_labelled(audit.kind, &audit.namespace, label, owner_name);
                    if children > desired {
                        self.break_(CHILDREN_WITHIN_DESIRED, frame, || {
                            format!("{owner_kind} {owner_name} wants {desired} and now has {children} after creating {}", audit.name)
                        });
                    }
                }
            }
            Verb::Delete if !req.synced_at_send => {
                self.break_(NO_DELETE_BEFORE_SYNC, frame, || {
                    format!("delete of {} {} sent before the cache synced", audit.kind, audit.name)
                });
            }
            _ => {}
        }
    }

    /// Check a frame once it exists.
    pub fn check_frame(&mut self, frame: &Frame, _api: &ApiServer, _settings: &ControllerSettings) {
        if let Event::OrphansRemain { owner, children, .. } = &frame.event {
            self.break_(NO_ORPHANS, frame.n, || format!("{children} children of deleted {owner} remain"));
        }
    }
}
