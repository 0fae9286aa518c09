//! Lab 2's ten-line program: list live ConfigMaps from the apiserver and delete
//! every one absent from the lister; optionally (`reread_after_create`) create
//! `seed-99`, re-read it from the lister and create it again if absent.
//!
//! It is a one-shot program, not a loop: it runs once when started and exits.
//! Without `wait_for_cache_sync` it runs before its informer has listed, so the
//! lister is empty and every live ConfigMap "is not in the cache".

use super::{Beat, Cx, Input, MissAction, Naming, Note, Outcome, ReconcileError, Step};
use crate::sim::apiserver::{Actor, ControllerKind, Request, Status};
use crate::sim::object::{Kind, Name, ObjectKey, ObjectRc, ObjectTemplate, Spec};
use std::collections::VecDeque;

/// The pseudo-code the Reconcile panel shows, a line per step.
pub(crate) const PSEUDO_CODE: &[(Step, &str)] = &[
    (Step::LiveList, "live, _ := cs.CoreV1().ConfigMaps(ns).List(ctx, opts)   // the apiserver"),
    (Step::LookUp, "for _, cm := range live.Items { if _, err := lister.Get(cm.Name); IsNotFound(err) {"),
    (Step::Delete, "    cs.CoreV1().ConfigMaps(ns).Delete(ctx, cm.Name)   // DELETE (not in cache) } }"),
    (Step::CreateOnce, "cs.CoreV1().ConfigMaps(ns).Create(ctx, seed99)   // --reread-after-create"),
    (Step::Reread, "if _, err := lister.Get(\"seed-99\"); IsNotFound(err) {"),
    (Step::CreateAgain, "    cs.CoreV1().ConfigMaps(ns).Create(ctx, seed99) }   // AlreadyExists: the good outcome"),
    (Step::Exit, "os.Exit(code)   // 0, or 1 after an error"),
];

/// The name the read-your-write step creates.
pub(crate) const REREAD_NAME: &str = "seed-99";

const ACTOR: Actor = Actor::Controller(crate::sim::apiserver::Agent::of(ControllerKind::Pruner));

/// The run in progress.
#[derive(Debug, Clone, Hash)]
pub struct Prune {
    namespace: String,
    stage: Stage,
    deleted: u32,
}

#[derive(Debug, Clone, Hash)]
enum Stage {
    /// Waiting for the live list.
    Listing,
    /// Checking live objects against the lister, one by one.
    Pruning {
        todo: VecDeque<ObjectRc>,
    },
    /// A delete is in flight.
    Deleting {
        todo: VecDeque<ObjectRc>,
    },
    /// The first create of seed-99 is in flight.
    Creating,
    /// Re-read after the create found nothing: create again next.
    Reread,
    CreatingAgain,
    /// Done.
    Exited,
}

impl Prune {
    /// The run begins with a live LIST: it reads nothing from its cache yet.
    pub fn start(key: &str, _cx: &mut Cx) -> (Prune, Beat) {
        let namespace = key.split('/').next().unwrap_or(key).to_string();
        let r = Prune { namespace: namespace.clone(), stage: Stage::Listing, deleted: 0 };
        (r, Beat::Call { requests: vec![Request::list(ACTOR, Kind::ConfigMap, &namespace)], step: Step::LiveList })
    }

    fn template(&self, cx: &Cx) -> ObjectTemplate {
        let (name, generate_name) = match cx.settings.naming {
            Naming::Deterministic => (Some(REREAD_NAME.to_string()), None),
            Naming::Generate => (None, Some(format!("{REREAD_NAME}-"))),
        };
        ObjectTemplate {
            namespace: self.namespace.as_str().into(),
            name: name.map(Name::from),
            generate_name: generate_name.map(Name::from),
            labels: Default::default(),
            annotations: Default::default(),
            owner_references: Default::default(),
            finalizers: vec![],
            spec: Spec::ConfigMap,
        }
    }

    fn prune_next(&mut self, mut todo: VecDeque<ObjectRc>, cx: &mut Cx) -> Beat {
        while let Some(live) = todo.pop_front() {
            let key = live.key();
            if cx.caches.get(Kind::ConfigMap, &key).is_some() {
                continue;
            }
            let (event, eta_ms) = match cx.eta(Kind::ConfigMap, &key) {
                Some((t, eta)) => (Some(t), Some(eta)),
                None => (None, None),
            };
            todo.push_front(live);
            self.stage = Stage::Deleting { todo };
            let note = Note::CacheMiss { name: key.name.to_string(), kind: Kind::ConfigMap, event, eta_ms, then: MissAction::Delete };
            return Beat::Note { note, then_ms: 0 };
        }
        self.after_prune(cx)
    }

    fn after_prune(&mut self, cx: &mut Cx) -> Beat {
        if cx.settings.reread_after_create {
            self.stage = Stage::Creating;
            return Beat::Call { requests: vec![Request::create(ACTOR, self.template(cx))], step: Step::CreateOnce };
        }
        self.exit(Ok(()))
    }

    /// The program ends: `Ok` exits 0, an error exits 1.
    fn exit(&mut self, result: Result<(), ReconcileError>) -> Beat {
        self.stage = Stage::Exited;
        Beat::Return(result.into())
    }

    /// How many ConfigMaps this run deleted.
    pub fn deleted(&self) -> u32 {
        self.deleted
    }

    pub fn resume(&mut self, input: Input, cx: &mut Cx) -> Beat {
        match std::mem::replace(&mut self.stage, Stage::Exited) {
            Stage::Listing => {
                let Input::Responses(rs) = input else { return self.exit(Ok(())) };
                let items = rs[0].0.items.clone();
                let n_cached = cx.caches.informer(Kind::ConfigMap).map_or(0, |i| i.len()) as u32;
                self.stage = Stage::Pruning { todo: items.iter().cloned().collect() };
                Beat::Note {
                    note: Note::LiveListed { kind: Kind::ConfigMap, n_live: items.len() as u32, n_cached },
                    then_ms: cx.settings.reconcile_ms,
                }
            }
            Stage::Pruning { todo } => self.prune_next(todo, cx),
            Stage::Deleting { mut todo } => match input {
                // After the note: send the delete.
                Input::Resume => {
                    let live = todo.pop_front().expect("a miss leaves its object first");
                    self.stage = Stage::Deleting { todo };
                    Beat::Call { requests: vec![Request::delete(ACTOR, Kind::ConfigMap, &live.key())], step: Step::Delete }
                }
                Input::Responses(rs) => {
                    if rs[0].0.status.is_success() {
                        self.deleted += 1;
                    }
                    self.prune_next(todo, cx)
                }
            },
            Stage::Creating => {
                let Input::Responses(rs) = input else { return self.exit(Ok(())) };
                let (response, audit) = &rs[0];
                if response.status != Status::CREATED {
                    return self.exit(Err(ReconcileError::of(audit)));
                }
                let name = audit.name.to_string();
                let key = ObjectKey::new(self.namespace.as_str(), name.as_str());
                if cx.caches.get(Kind::ConfigMap, &key).is_some() {
                    return self.exit(Ok(()));
                }
                let (event, eta_ms) = match cx.eta(Kind::ConfigMap, &key) {
                    Some((t, eta)) => (Some(t), Some(eta)),
                    None => (None, None),
                };
                self.stage = Stage::Reread;
                Beat::Note {
                    note: Note::CacheMiss { name, kind: Kind::ConfigMap, event, eta_ms, then: MissAction::CreateAgain },
                    then_ms: 0,
                }
            }
            Stage::Reread => {
                self.stage = Stage::CreatingAgain;
                Beat::Call { requests: vec![Request::create(ACTOR, self.template(cx))], step: Step::CreateAgain }
            }
            Stage::CreatingAgain => {
                let Input::Responses(rs) = input else { return self.exit(Ok(())) };
                let (response, audit) = &rs[0];
                if response.status == Status::CREATED {
                    self.exit(Ok(()))
                } else {
                    self.exit(Err(ReconcileError::of(audit)))
                }
            }
            Stage::Exited => Beat::Return(Outcome::Done),
        }
    }
}
