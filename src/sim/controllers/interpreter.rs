//! The one interpreter of reconcile recipes ([`crate::sim::recipe`]). A
//! [`RecipeRun`] is one reconcile of one key in progress: the op it is on,
//! where that op stands (a read held, a batch of requests out), and what the
//! ops before it found (the owner, the count and its plan, the first error).
//!
//! Each call runs ops from where it stands until one yields a [`Beat`]: a
//! note (one frame), requests (the world sends them and resumes it with the
//! answers), a read held by the read-your-writes client, or the return. Ops
//! that do nothing this time (a create when the plan deletes) yield nothing
//! and take no time, so the frames a recipe makes are the ones its code
//! would. It reads only its caches and what the apiserver answered its own
//! requests; the cluster figures a note needs, the world adds
//! ([`Beat::Counted`]).

use super::replicaset::next_batch;
use super::{
    count_children, lister_order, split_key, unseen_children, Beat, Creates, Cx, Hold, Input, Note, Outcome, Owned, Plan, ReconcileError,
    Step, Tally,
};
use crate::sim::apiserver::{Actor, AuditEntry, EventType, Options, Request, Response, Status};
use crate::sim::controller_runtime::Read;
use crate::sim::expectations::Satisfied;
use crate::sim::hash::Fnv64;
use crate::sim::object::{Labels, Name, Object, ObjectKey, ObjectRc, ObjectTemplate, OwnerReference, Propagation, ReplicaSetStatus, Spec};
use crate::sim::recipe::{
    Act, Batches, Cond, Facts, Is, KeyedBy, Naming, OnPending, Op, Over, Precondition, ReadFrom, Recipe, Removal, Select, Victims,
};
use std::collections::{BTreeMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::Arc;

/// One reconcile of one key, as the recipe runs it.
#[derive(Debug, Clone, Hash)]
pub struct RecipeRun {
    recipe: Shared,
    key: Name,
    owner_key: ObjectKey,
    /// The owner's UID as this reconcile read it: its writes are recorded under it.
    owner_uid: u64,
    /// The op it is on.
    pc: usize,
    at: At,
    /// A note was the last word: return this at the next resume.
    ending: Option<Outcome>,
    /// The owner as a live GET returned it (controller-runtime's API reader).
    live_owner: Option<ObjectRc>,
    /// Creates and deletes are allowed (`rsNeedsSync`): pending expectations
    /// with [`OnPending::CountOnly`] count without them.
    manage: bool,
    counted: Option<Counted>,
    /// The first error a write met (`manageReplicas`' result): what `Return` returns.
    error: Option<ReconcileError>,
    /// What its creates made, as their answers named them.
    created: Vec<ObjectKey>,
}

/// The recipe a run follows, shared by reference and hashed as the digest
/// taken when the run began: the explorer hashes every state it meets, and
/// a recipe does not change under a run.
#[derive(Debug, Clone)]
pub struct Shared {
    recipe: Rc<Recipe>,
    digest: u64,
}

impl Shared {
    pub fn new(recipe: Recipe) -> Shared {
        let mut digest = Fnv64::default();
        recipe.hash(&mut digest);
        Shared { recipe: Rc::new(recipe), digest: digest.finish() }
    }
}

impl std::hash::Hash for Shared {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.digest);
    }
}

impl std::ops::Deref for Shared {
    type Target = Recipe;
    fn deref(&self) -> &Recipe {
        &self.recipe
    }
}

/// Where the current op stands.
#[derive(Debug, Clone, Hash)]
enum At {
    /// Not begun.
    Entering,
    /// The read-your-writes client holds its read; try again when resumed.
    Held,
    /// Its one request is out (a live GET or LIST).
    Sent,
    /// Creates: what is left to send, the last batch's size, how many were asked and made.
    Creating { todo: VecDeque<ObjectTemplate>, batch: u32, total: u32, successes: u32 },
    /// Deletes: what is left to send.
    Deleting { todo: VecDeque<ObjectRc> },
    /// `UpdateStatus` is out (try `attempt`, from 0).
    UpdatingStatus { status: ReplicaSetStatus, attempt: u32 },
    /// Waiting for the cache to show what it created, since, until.
    Waiting { since_ms: u64, deadline_ms: u64 },
    /// The finalizer step said what it will do; its `Update` (the owner as
    /// read, its finalizer added or, `removing`, taken off) goes next.
    FinalizerNoted { removing: bool, body: ObjectTemplate, read_rv: u64 },
    /// The owner's `Update` with its finalizer added (or, `removing`, taken off) is out.
    Finalizing { removing: bool },
    /// The labels step said what it will do; the owner's `Update` with
    /// them set (or, `removing`, taken off), under its precondition, goes next.
    LabelsNoted { removing: bool, body: ObjectTemplate, options: Options },
    /// The owner's `Update` with its labels set (or, `removing`, taken off) is out.
    Labelling { removing: bool },
    /// A `for_each` said what it picked; its requests go next, one at a time.
    Picked { todo: VecDeque<ObjectRc> },
    /// One of a `for_each`'s requests is out; `todo` is what is left.
    Each { todo: VecDeque<ObjectRc> },
    /// The GET after a failed `UpdateStatus`, for the latest resourceVersion.
    RereadingStatus { status: ReplicaSetStatus, attempt: u32, update_error: ReconcileError },
}

/// What a count found, for the writes and the status after it.
#[derive(Debug, Clone, Hash)]
struct Counted {
    /// The owner as counted (the status reports its generation).
    owner: ObjectRc,
    in_cache: u32,
    /// What it counted against: the owner's desired count, or the count step's own.
    desired: u32,
    plan: Plan,
    /// The surplus to delete, chosen from what this reconcile read.
    victims: Vec<ObjectRc>,
    /// The indexed names the children read hold, for an indexed create to skip.
    present: Present,
    /// What the read returned, in its order: kept only for a `for_each`.
    found: Vec<ObjectRc>,
}

/// What an op did: go on to the next op, or yield a beat (staying on this
/// op, moving past it first, or ending the reconcile after it).
enum Flow {
    Next,
    Stay(Beat),
    Then(Beat),
    End(Beat, Outcome),
}

impl RecipeRun {
    pub fn start(recipe: Shared, key: &Name, cx: &mut Cx) -> (RecipeRun, Beat) {
        let mut run = RecipeRun {
            recipe,
            key: key.clone(),
            owner_key: split_key(key),
            owner_uid: 0,
            pc: 0,
            at: At::Entering,
            ending: None,
            live_owner: None,
            manage: true,
            counted: None,
            error: None,
            created: Vec::new(),
        };
        let beat = run.run(Input::Resume, cx);
        (run, beat)
    }

    pub fn resume(&mut self, input: Input, cx: &mut Cx) -> Beat {
        match self.ending.take() {
            Some(outcome) => Beat::Return(outcome),
            None => self.run(input, cx),
        }
    }

    fn run(&mut self, mut input: Input, cx: &mut Cx) -> Beat {
        let recipe = Rc::clone(&self.recipe.recipe);
        loop {
            let Some(op) = recipe.ops.get(self.pc) else {
                return self.returns();
            };
            match self.op(op, input, cx) {
                Flow::Next => self.advance(),
                Flow::Stay(beat) => return beat,
                Flow::Then(beat) => {
                    self.advance();
                    return beat;
                }
                Flow::End(beat, outcome) => {
                    self.ending = Some(outcome);
                    return beat;
                }
            }
            input = Input::Resume;
        }
    }

    fn advance(&mut self) {
        self.pc += 1;
        self.at = At::Entering;
    }

    fn returns(&mut self) -> Beat {
        Beat::Return(self.error.take().map_or(Outcome::Done, Outcome::Error))
    }

    /// `return ctrl.Result{RequeueAfter: d}, err`: an error wins, as controller-runtime has it.
    fn returns_after(&mut self, after_ms: u64) -> Beat {
        Beat::Return(self.error.take().map_or(Outcome::RequeueAfter(after_ms), Outcome::Error))
    }

    fn op(&mut self, op: &Op, input: Input, cx: &mut Cx) -> Flow {
        match op {
            Op::EnsureReady => match cx.ensure_ready(&self.key) {
                Ok(()) => Flow::Next,
                Err(error) => Flow::End(
                    Beat::Note { note: Note::StaleSkip { owner: self.key.clone(), error }, then_ms: 0 },
                    Outcome::Error(ReconcileError::Stale(error)),
                ),
            },
            Op::GetOwner { from, stop_if_terminating } => self.get_owner(*from, *stop_if_terminating, input, cx),
            Op::CheckExpectations { on_pending } => self.check_expectations(*on_pending, cx),
            Op::Count { from, select, victims, burst, desired } => self.count(*from, select, Some((*victims, *burst, *desired)), input, cx),
            Op::List { from, select } => self.count(*from, select, None, input, cx),
            Op::LabelOwner { labels, annotations, remove, precondition } => {
                self.label_owner([labels, annotations], *remove, *precondition, input, cx)
            }
            Op::ReturnIf { when, error, terminal } => self.return_if(when, *error, *terminal, cx),
            Op::Create { naming, label, owner_reference, batches, copy_desired } => {
                self.create(naming, label, *owner_reference, *batches, *copy_desired, input, cx)
            }
            Op::Delete { at_once, precondition, propagation } => self.delete(*at_once, *precondition, *propagation, input, cx),
            Op::WaitForCache { timeout_ms } => self.wait_for_cache(*timeout_ms, cx),
            Op::UpdateStatus { retries } => self.update_status(*retries, input, cx),
            Op::Finalizer { name } => self.finalizer(name, input, cx),
            Op::ForEach { over, max, when, act } => self.for_each(*over, *max, when.as_ref(), *act, input, cx),
            Op::Return => Flow::Stay(self.returns()),
            Op::RequeueAfter { after_ms } => Flow::Stay(self.returns_after(*after_ms)),
        }
    }

    /// The key its expectations are kept under (the owner's UID is known once it is read).
    fn exp_key(&self) -> Name {
        self.recipe.expectations_keyed_by.key(&self.key, self.owner_uid)
    }

    fn actor(cx: &Cx) -> Actor {
        Actor::Controller(cx.settings.spec().agent())
    }

    /// Whether the read-your-writes client holds `read`: the note that says so, as a beat.
    fn held(&mut self, read: Read, cx: &Cx) -> Option<Flow> {
        let behind = cx.ryw.ready(&read).err()?;
        self.at = At::Held;
        Some(Flow::Stay(Beat::Wait { note: Note::ReadWaits { read: read.clone(), behind }, hold: Hold::Read(read) }))
    }

    fn get_owner(&mut self, from: ReadFrom, stop_if_terminating: bool, input: Input, cx: &mut Cx) -> Flow {
        let kind = self.recipe.owner;
        if let At::Sent = self.at {
            let Some((response, audit)) = first_answer(input) else { return Flow::Stay(Beat::Return(Outcome::Done)) };
            return match response.status {
                Status::OK => self.with_owner(response.object, true, stop_if_terminating, cx),
                Status::NOT_FOUND => self.with_owner(None, true, stop_if_terminating, cx),
                _ => Flow::Stay(Beat::Return(Outcome::Error(ReconcileError::of(&audit)))),
            };
        }
        match from {
            ReadFrom::Live => {
                self.at = At::Sent;
                Flow::Stay(Beat::Call { requests: vec![Request::get(Self::actor(cx), kind, &self.owner_key)], step: Step::GetOwner })
            }
            ReadFrom::ReadYourWrites | ReadFrom::Cache => {
                // The client's read-your-writes turned off (a live switch) reads the cache as it is.
                if from == ReadFrom::ReadYourWrites && cx.settings.reads_own_writes() {
                    if let Some(held) = self.held(Read::Get { kind, key: self.owner_key.clone() }, cx) {
                        return held;
                    }
                }
                let owner = cx.caches.get(kind, &self.owner_key).cloned();
                self.with_owner(owner, false, stop_if_terminating, cx)
            }
        }
    }

    fn with_owner(&mut self, owner: Option<ObjectRc>, live: bool, stop_if_terminating: bool, cx: &mut Cx) -> Flow {
        let Some(owner) = owner else {
            // NotFound: `Clear(key, "")` and `DeleteExpectations(key)`.
            cx.forget_owner(&self.key);
            // Kept by UID, the record of an owner gone unread cannot be named: it blocks no one.
            let forgets_expectations = self.recipe.expectations && self.recipe.expectations_keyed_by == KeyedBy::Name;
            let note = Note::OwnerNotInCache { owner: self.key.clone(), forgets_expectations, live };
            return Flow::End(Beat::Note { note, then_ms: 0 }, Outcome::Done);
        };
        self.owner_uid = owner.uid;
        // Being deleted (a finalizer holds it, or the garbage collector is
        // taking its children first): make nothing more, or it would fight the collector.
        if stop_if_terminating && owner.is_terminating() {
            return Flow::End(Beat::Note { note: Note::OwnerTerminating { owner: self.key.clone() }, then_ms: 0 }, Outcome::Done);
        }
        if live {
            self.live_owner = Some(owner);
        }
        Flow::Next
    }

    fn check_expectations(&mut self, on_pending: OnPending, cx: &mut Cx) -> Flow {
        let owner = self.key.clone();
        let key = self.exp_key();
        match cx.expectations.satisfied(&key, cx.now_ms) {
            Satisfied::Pending { add, del } => {
                let record = cx.expectations.get(&key);
                let age_ms = record.map(|rec| cx.now_ms - rec.timestamp_ms).unwrap_or(0);
                // Set by a sync of another object under this name (a predecessor, deleted and re-created).
                let inherited = record.is_some_and(|rec| self.owner_uid != 0 && rec.set_for != 0 && rec.set_for != self.owner_uid);
                let beat = Beat::Note { note: Note::ExpectationsPending { owner, add, del, age_ms, inherited }, then_ms: 0 };
                match on_pending {
                    OnPending::Return => Flow::End(beat, Outcome::Done),
                    OnPending::CountOnly => {
                        self.manage = false;
                        Flow::Then(beat)
                    }
                }
            }
            Satisfied::Expired { age_ms } => Flow::Then(Beat::Note { note: Note::ExpectationsExpired { owner, age_ms }, then_ms: 0 }),
            Satisfied::NoRecord | Satisfied::Fulfilled => Flow::Next,
        }
    }

    /// `if when { return }`: nothing (no frame) when it does not hold; when it
    /// does, a frame that says what was read, and the return.
    fn return_if(&mut self, when: &Cond, error: bool, terminal: bool, cx: &Cx) -> Flow {
        // The owner as read: the count's, else live, else as the cache has it now.
        let owner = match &self.counted {
            Some(c) => Some(c.owner.clone()),
            None => self.live_owner.clone().or_else(|| cx.caches.get(self.recipe.owner, &self.owner_key).cloned()),
        };
        let facts = Facts {
            found: self.counted.as_ref().map_or(0, |c| c.in_cache),
            desired: self.counted.as_ref().map(|c| c.desired).or_else(|| owner.as_ref().and_then(|o| o.spec.desired())).unwrap_or(0),
            owner_terminating: owner.is_some_and(|o| o.is_terminating()),
        };
        if !when.holds(&facts) {
            return Flow::Next;
        }
        let (found, desired) = (facts.found, facts.desired);
        let note = Note::Returned { owner: self.key.clone(), found, desired, error, terminal: error && terminal };
        // An error of the sync's before it wins, as a Go `return err` would have returned it first.
        let outcome = match self.error.take() {
            Some(e) => Outcome::Error(e),
            None if error && terminal => Outcome::TerminalError(ReconcileError::Guard { found, desired }),
            None if error => Outcome::Error(ReconcileError::Guard { found, desired }),
            None => Outcome::Done,
        };
        Flow::End(Beat::Note { note, then_ms: 0 }, outcome)
    }

    /// Read the owner's children; `planning` (a count's victims and burst):
    /// plan against its desired count, else (a list) keep what was found.
    fn count(
        &mut self,
        from: ReadFrom,
        select: &Select,
        planning: Option<(Victims, Option<u32>, Option<u32>)>,
        input: Input,
        cx: &mut Cx,
    ) -> Flow {
        let child = self.recipe.child;
        if let At::Sent = self.at {
            let Some((response, audit)) = first_answer(input) else { return Flow::Stay(Beat::Return(Outcome::Done)) };
            if !response.status.is_success() {
                return Flow::Stay(Beat::Return(Outcome::Error(ReconcileError::of(&audit))));
            }
            let owner = self.live_owner.clone().expect("a live count follows a live read of the owner");
            let children: Vec<ObjectRc> = response.items.iter().filter(|o| selects(select, &owner, o)).cloned().collect();
            return self.counted(owner, children.len() as u32, Some(children), 0, true, select, planning, cx);
        }
        if from == ReadFrom::Live && self.live_owner.is_some() {
            self.at = At::Sent;
            let request = Request::list(Self::actor(cx), child, &self.owner_key.namespace);
            return Flow::Stay(Beat::Call { requests: vec![request], step: Step::ListChildren });
        }
        if from == ReadFrom::ReadYourWrites && cx.settings.reads_own_writes() {
            if let Some(held) = self.held(Read::List { kind: child }, cx) {
                return held;
            }
        }
        // The owner as it was read: live if `get_owner` read it live, else as the cache has it now.
        let Some(owner) = self.live_owner.clone().or_else(|| cx.caches.get(self.recipe.owner, &self.owner_key).cloned()) else {
            let note = Note::OwnerNotInCache { owner: self.key.clone(), forgets_expectations: self.recipe.expectations, live: false };
            return Flow::End(Beat::Note { note, then_ms: 0 }, Outcome::Done);
        };
        let informer = cx.caches.informer(child).expect("a controller watches the kind it counts");
        match select {
            Select::Label(label) | Select::ActiveLabel(label) => {
                // Counted as the store changes where the informer keeps a
                // count by this label (the controller asked it to,
                // Runtime::new); listed only where a plan or a loop reads them.
                let active = matches!(select, Select::ActiveLabel(_));
                if let Some((all, not_terminating)) = informer.labelled(label, &self.owner_key.namespace, &self.owner_key.name) {
                    let unseen = unseen_children(informer, label, &self.owner_key);
                    let in_cache = if active { not_terminating } else { all };
                    return self.counted(owner, in_cache, None, unseen, false, select, planning, cx);
                }
                let (mut children, unseen) = count_children(informer, label, &self.owner_key);
                if matches!(select, Select::ActiveLabel(_)) {
                    children.retain(|c| !c.is_terminating());
                }
                self.counted(owner, children.len() as u32, Some(children), unseen, false, select, planning, cx)
            }
            Select::ActiveControlled => {
                // Counted as the store changes (`Informer::active_controlled_by`); listed only when some are to go.
                let active = informer.active_controlled_by(owner.uid);
                let unseen = informer
                    .wire()
                    .filter(|e| {
                        !e.dropped && e.event_type == EventType::Added && e.object.controller_ref().is_some_and(|r| r.uid == owner.uid)
                    })
                    .count() as u32;
                // Indexed names skip the ones the cache holds: list them only then.
                let children = matches!(self.recipe.naming(), Some(Naming::Indexed(_)))
                    .then(|| informer.list().filter(|o| selects(select, &owner, o)).cloned().collect());
                self.counted(owner, active, children, unseen, false, select, planning, cx)
            }
            Select::Namespace => {
                let children: Vec<ObjectRc> = informer.list().filter(|o| selects(select, &owner, o)).cloned().collect();
                let unseen = informer
                    .on_the_wire()
                    .filter(|e| !e.dropped && e.event_type == EventType::Added && e.object.namespace == owner.namespace)
                    .count() as u32;
                self.counted(owner, children.len() as u32, Some(children), unseen, false, select, planning, cx)
            }
        }
    }

    /// The children are read (`children`, or only their number): a count
    /// (`planning`: its victims and burst) plans and says what it counted;
    /// a list keeps what it found.
    #[allow(clippy::too_many_arguments)]
    fn counted(
        &mut self,
        owner: ObjectRc,
        in_cache: u32,
        children: Option<Vec<ObjectRc>>,
        unseen: u32,
        live: bool,
        select: &Select,
        planning: Option<(Victims, Option<u32>, Option<u32>)>,
        cx: &mut Cx,
    ) -> Flow {
        let Some((victims, burst, wanted)) = planning else {
            let tally = Tally {
                child: self.recipe.child,
                namespace: self.owner_key.namespace.clone(),
                of: owned(select, &self.owner_key, &owner),
                creates: Creates::Nothing,
                deletes: Vec::new(),
            };
            let note = Note::Listed { owner: self.key.clone(), child_kind: self.recipe.child, in_cache, in_cluster: 0, unseen, live };
            let desired = owner.spec.desired().unwrap_or(0);
            let found = self.found(children, select, &owner, cx);
            self.counted =
                Some(Counted { owner, in_cache, desired, plan: Plan::Nothing, victims: Vec::new(), present: Present::default(), found });
            return Flow::Then(Beat::Counted { note, then_ms: cx.settings.reconcile_ms, tally });
        };
        let desired = wanted.or(owner.spec.desired()).unwrap_or(0);
        let clamp = |n: u32| burst.map_or(n, |b| n.min(b));
        // A terminating owner manages nothing (`rs.DeletionTimestamp == nil`); its status is still written.
        let plan = if !self.manage || owner.is_terminating() || in_cache == desired {
            Plan::Nothing
        } else if in_cache < desired {
            // A recipe without a create step plans none.
            if self.recipe.naming().is_some() {
                Plan::Create(clamp(desired - in_cache))
            } else {
                Plan::Nothing
            }
        } else if victims != Victims::Keep {
            Plan::Delete(clamp(in_cache - desired))
        } else {
            Plan::Nothing
        };
        // Surplus victims are chosen now, from what this reconcile read. The
        // lister's order is drawn from the RNG only for a delete.
        let chosen: Vec<ObjectRc> = match plan {
            Plan::Delete(n) => {
                let mut listed: Vec<&ObjectRc> = match &children {
                    Some(children) => children.iter().collect(),
                    None => {
                        let informer = cx.caches.informer(self.recipe.child).expect("a controller watches the kind it counts");
                        informer.list().filter(|o| selects(select, &owner, o)).collect()
                    }
                };
                match victims {
                    Victims::Keep => listed.clear(),
                    // `children[desired:]`: the lister's order, a Go map's when random.
                    Victims::PastDesired => {
                        lister_order(&mut listed, cx.settings.list_order, cx.rng);
                        listed.drain(..(desired as usize).min(listed.len()));
                    }
                    // getPodsToDelete: with every pod Running and ready, the newest
                    // go first. A simplification: upstream's ActivePodsWithRanks
                    // (with LogarithmicScaleDown) compares ages in power-of-two
                    // buckets and breaks a tie by UID; here, by age alone.
                    Victims::Newest => listed.sort_by(|a, b| b.creation_rv.cmp(&a.creation_rv).then(a.name.cmp(&b.name))),
                    Victims::Oldest => listed.sort_by(|a, b| a.creation_rv.cmp(&b.creation_rv).then(a.name.cmp(&b.name))),
                    Victims::Random => lister_order(&mut listed, crate::sim::settings::ListOrder::Random, cx.rng),
                    Victims::HighestOrdinal => listed.sort_by(|a, b| ordinal(&b.name).cmp(&ordinal(&a.name)).then(a.name.cmp(&b.name))),
                }
                listed.into_iter().take(n as usize).cloned().collect()
            }
            _ => Vec::new(),
        };
        // The indexed names the cache holds: only indexed creates skip them,
        // and only a count that plans creates gathers them (999 names of the
        // largest scenario, resynced every second).
        let read = |infix: &str| match &children {
            Some(children) => Ordinals::of(&owner, infix, children.iter().map(|c| &*c.name)),
            None => {
                let informer = cx.caches.informer(self.recipe.child).expect("a controller watches the kind it counts");
                Ordinals::of(&owner, infix, informer.list().filter(|o| selects(select, &owner, o)).map(|c| &*c.name))
            }
        };
        let present = match plan {
            Plan::Create(_) => Present(
                self.recipe
                    .ops
                    .iter()
                    .filter_map(|o| match o {
                        Op::Create { naming: Naming::Indexed(infix), .. } => Some((infix.clone(), read(infix))),
                        _ => None,
                    })
                    .collect(),
            ),
            _ => Present::default(),
        };
        // What the cluster will hold after the plan, the world counts (the reconcile never reads it).
        let creates = match (plan, self.recipe.naming()) {
            (Plan::Create(n), Some(Naming::Generate(_))) => Creates::Generated(n),
            (Plan::Create(n), Some(Naming::Indexed(infix))) => {
                Creates::Named(missing_names(&owner, infix, present.of(infix)).take(n as usize).collect())
            }
            _ => Creates::Nothing,
        };
        let tally = Tally {
            child: self.recipe.child,
            namespace: self.owner_key.namespace.clone(),
            of: owned(select, &self.owner_key, &owner),
            creates,
            deletes: chosen.iter().map(|o| o.key()).collect(),
        };
        // A guard between this count and the write its plan needs may return first.
        let rest = &self.recipe.ops[self.pc + 1..];
        let guard = rest.iter().position(|o| matches!(o, Op::ReturnIf { .. }));
        let write = match plan {
            Plan::Create(_) => rest.iter().position(|o| matches!(o, Op::Create { .. })),
            Plan::Delete(_) => rest.iter().position(|o| matches!(o, Op::Delete { .. })),
            Plan::Nothing => None,
        };
        let guarded = matches!((guard, write), (Some(g), Some(w)) if g < w);
        let note = Note::Counted {
            owner: self.key.clone(),
            child_kind: self.recipe.child,
            in_cache,
            in_cluster: 0,
            cluster_after: 0,
            desired,
            unseen,
            plan,
            expect: self.recipe.expectations && plan != Plan::Nothing,
            live,
            guarded,
        };
        let found = self.found(children, select, &owner, cx);
        self.counted = Some(Counted { owner, in_cache, desired, plan, victims: chosen, present, found });
        Flow::Then(Beat::Counted { note, then_ms: cx.settings.reconcile_ms, tally })
    }

    #[allow(clippy::too_many_arguments)]
    #[allow(clippy::too_many_arguments)]
    fn create(
        &mut self,
        naming: &Naming,
        label: &str,
        owner_reference: bool,
        batches: Batches,
        copy_desired: bool,
        input: Input,
        cx: &mut Cx,
    ) -> Flow {
        match std::mem::replace(&mut self.at, At::Entering) {
            At::Creating { todo, batch, total, successes } => {
                let Input::Responses(answers) = input else { return Flow::Stay(Beat::Return(Outcome::Done)) };
                let mut made = 0;
                for (response, audit) in &answers {
                    if response.status == Status::CREATED {
                        made += 1;
                        cx.wrote_at(&self.key, self.owner_uid, self.recipe.child, audit.resource_version);
                        // Kept only for a wait on them: a copy per create costs the explorer otherwise.
                        if self.recipe.waits_for_cache() {
                            self.created.push(ObjectKey::new(audit.namespace.clone(), audit.name.clone()));
                        }
                    }
                }
                let successes = successes + made;
                if made == batch {
                    return self.send_creates(todo, batch, total, successes, batches, cx);
                }
                // The creates that failed or were never sent produce no event
                // (replica_set.go l.610-615: `CreationObserved` for each).
                if self.recipe.expectations {
                    cx.expectations.lower(&self.exp_key(), i64::from(total - successes), 0);
                }
                let failed =
                    answers.iter().find(|(r, _)| r.status != Status::CREATED).expect("fewer made than sent: one answer is not 201");
                self.error.get_or_insert(ReconcileError::of(&failed.1));
                Flow::Next
            }
            _ => {
                let Some(Counted { owner, plan: Plan::Create(n), present, .. }) = &self.counted else { return Flow::Next };
                let n = *n;
                if self.recipe.expectations {
                    // Before any API call (l.584).
                    let key = self.exp_key();
                    cx.expectations.expect_creations(&key, n, cx.now_ms);
                    cx.expectations.set_for(&key, self.owner_uid);
                }
                let spec = if copy_desired {
                    Spec::with_desired(self.recipe.child, owner.spec.desired().unwrap_or(0))
                } else {
                    Spec::empty(self.recipe.child)
                };
                let todo = templates(owner, spec, n, naming, label, owner_reference, present);
                self.send_creates(todo, 0, n, 0, batches, cx)
            }
        }
    }

    fn send_creates(
        &mut self,
        mut todo: VecDeque<ObjectTemplate>,
        previous: u32,
        total: u32,
        successes: u32,
        batches: Batches,
        cx: &Cx,
    ) -> Flow {
        let remaining = todo.len() as u32;
        let batch = match batches {
            Batches::OneByOne => remaining.min(1),
            Batches::SlowStart => next_batch(previous, remaining),
        };
        if batch == 0 {
            return Flow::Next;
        }
        let actor = Self::actor(cx);
        let requests = todo.drain(..batch as usize).map(|t| Request::create(actor, t)).collect();
        self.at = At::Creating { todo, batch, total, successes };
        Flow::Stay(Beat::Call { requests, step: Step::Create })
    }

    fn delete(&mut self, at_once: bool, precondition: Precondition, propagation: Option<Propagation>, input: Input, cx: &mut Cx) -> Flow {
        let todo = match std::mem::replace(&mut self.at, At::Entering) {
            At::Deleting { todo } => {
                let Input::Responses(answers) = input else { return Flow::Stay(Beat::Return(Outcome::Done)) };
                for (response, audit) in &answers {
                    // Recorded in the consistency store from v1.38 only: before, a
                    // typed Delete returned only an error (kubernetes #138400, #138724).
                    if response.status.is_success() {
                        cx.deleted_at(&self.key, self.owner_uid, self.recipe.child, audit.resource_version);
                    } else {
                        if self.recipe.expectations {
                            let key = ObjectKey::new(audit.namespace.clone(), audit.name.clone()).to_string();
                            cx.expectations.deletion_observed(&self.exp_key(), &key);
                        }
                        // client.IgnoreNotFound: someone else already deleted it.
                        if response.status != Status::NOT_FOUND {
                            self.error.get_or_insert(ReconcileError::of(audit));
                        }
                    }
                }
                if self.error.is_some() {
                    // The deletes never sent will produce no event: not expected any more.
                    if self.recipe.expectations {
                        for o in &todo {
                            cx.expectations.deletion_observed(&self.exp_key(), &o.key().to_string());
                        }
                    }
                    return Flow::Next;
                }
                todo
            }
            _ => {
                let Some(Counted { plan: Plan::Delete(_), victims, .. }) = &self.counted else { return Flow::Next };
                if self.recipe.expectations {
                    let keys = victims.iter().map(|o| o.key().to_string()).collect();
                    let key = self.exp_key();
                    cx.expectations.expect_deletions(&key, keys, cx.now_ms);
                    cx.expectations.set_for(&key, self.owner_uid);
                }
                victims.iter().cloned().collect()
            }
        };
        self.send_deletes(todo, at_once, precondition, propagation, cx)
    }

    fn send_deletes(
        &mut self,
        mut todo: VecDeque<ObjectRc>,
        at_once: bool,
        precondition: Precondition,
        propagation: Option<Propagation>,
        cx: &Cx,
    ) -> Flow {
        let n = if at_once { todo.len() } else { todo.len().min(1) };
        if n == 0 {
            return Flow::Next;
        }
        let (actor, kind) = (Self::actor(cx), self.recipe.child);
        let requests =
            todo.drain(..n).map(|o| Request::delete(actor, kind, &o.key()).with(delete_options(precondition, propagation, &o))).collect();
        self.at = At::Deleting { todo };
        Flow::Stay(Beat::Call { requests, step: Step::Delete })
    }

    /// Wait until the cache holds what this reconcile created: at once if it
    /// does (no frame), else a note and a hold the world ends when it does or
    /// at the deadline, when the reconcile returns the timeout as its error.
    fn wait_for_cache(&mut self, timeout_ms: u64, cx: &mut Cx) -> Flow {
        let kind = self.recipe.child;
        let waiting = self.created.iter().filter(|k| cx.caches.get(kind, k).is_none()).count() as u32;
        match std::mem::replace(&mut self.at, At::Entering) {
            // Nothing to wait for, or a create failed: its error is what the sync returns.
            _ if waiting == 0 || self.error.is_some() => Flow::Next,
            At::Waiting { since_ms, deadline_ms } => {
                if cx.now_ms < deadline_ms {
                    self.at = At::Waiting { since_ms, deadline_ms };
                    let hold = Hold::Cached { kind, keys: self.created.clone(), deadline_ms };
                    let note = Note::WaitsForCache { kind, waiting, timeout_ms };
                    return Flow::Stay(Beat::Wait { note, hold });
                }
                let waited_ms = cx.now_ms - since_ms;
                Flow::Stay(Beat::Return(Outcome::Error(ReconcileError::CacheTimeout { kind, waiting, waited_ms })))
            }
            _ => {
                let deadline_ms = cx.now_ms + timeout_ms;
                self.at = At::Waiting { since_ms: cx.now_ms, deadline_ms };
                let hold = Hold::Cached { kind, keys: self.created.clone(), deadline_ms };
                Flow::Stay(Beat::Wait { note: Note::WaitsForCache { kind, waiting, timeout_ms }, hold })
            }
        }
    }

    /// `updateReplicaSetStatus`: nothing when the status already says what
    /// was counted, for the generation counted.
    fn update_status(&mut self, retries: u32, input: Input, cx: &mut Cx) -> Flow {
        match std::mem::replace(&mut self.at, At::Entering) {
            At::UpdatingStatus { status, attempt } => {
                let Some((response, audit)) = first_answer(input) else { return Flow::Next };
                if response.status.is_success() {
                    cx.wrote_at(&self.key, self.owner_uid, self.recipe.owner, audit.resource_version);
                    return Flow::Next;
                }
                // A failed status write is the sync's error: the key is requeued rate-limited.
                let update_error = ReconcileError::of(&audit);
                if attempt >= retries {
                    return Flow::Stay(Beat::Return(Outcome::Error(update_error)));
                }
                self.at = At::RereadingStatus { status, attempt, update_error };
                let request = Request::get(Self::actor(cx), self.recipe.owner, &self.owner_key);
                Flow::Stay(Beat::Call { requests: vec![request], step: Step::UpdateStatus })
            }
            At::RereadingStatus { status, attempt, update_error } => match first_answer(input) {
                Some((response, _)) if response.object.is_some() => {
                    let latest = response.object.expect("a GET's object");
                    self.send_status(&latest, status, attempt + 1, cx)
                }
                // "If the GET fails we can't trust status.Replicas anymore."
                Some((_, audit)) => Flow::Stay(Beat::Return(Outcome::Error(ReconcileError::of(&audit)))),
                None => Flow::Stay(Beat::Return(Outcome::Error(update_error))),
            },
            _ => {
                let Some(Counted { owner, in_cache, .. }) = &self.counted else { return Flow::Next };
                let status = ReplicaSetStatus { replicas: *in_cache, observed_generation: owner.generation };
                if owner.status == Some(status) {
                    return Flow::Next;
                }
                let owner = owner.clone();
                self.send_status(&owner, status, 0, cx)
            }
        }
    }

    /// The finalizer pattern over the owner as read (live, or the cache's):
    /// add it with an `Update` at the resourceVersion read while the owner
    /// lives; once it is Terminating, take it off the same way and return.
    fn finalizer(&mut self, name: &str, input: Input, cx: &mut Cx) -> Flow {
        let at = std::mem::replace(&mut self.at, At::Entering);
        if let At::FinalizerNoted { removing, body, read_rv } = at {
            let options = Options { resource_version: Some(read_rv), ..Options::default() };
            self.at = At::Finalizing { removing };
            return Flow::Stay(Beat::Call { requests: vec![Request::update(Self::actor(cx), body).with(options)], step: Step::Finalizer });
        }
        if let At::Finalizing { removing } = at {
            let Some((response, audit)) = first_answer(input) else { return Flow::Next };
            if !response.status.is_success() {
                // A stale owner's resourceVersion is `409 Conflict`: the sync's error, requeued rate-limited.
                return Flow::Stay(Beat::Return(Outcome::Error(ReconcileError::of(&audit))));
            }
            cx.wrote_at(&self.key, self.owner_uid, self.recipe.owner, audit.resource_version);
            if removing {
                return Flow::Stay(self.returns());
            }
            // `client.Update` writes the answer into the object it was given:
            // the steps after this one use the owner at its new resourceVersion.
            self.live_owner = response.object.or(self.live_owner.take());
            return Flow::Next;
        }
        let Some(owner) = self.live_owner.clone().or_else(|| cx.caches.get(self.recipe.owner, &self.owner_key).cloned()) else {
            return Flow::Next;
        };
        let holds = owner.finalizers.iter().any(|f| f.as_str() == name);
        let removing = owner.is_terminating();
        let mut finalizers = owner.finalizers.clone();
        match (removing, holds) {
            (false, true) => return Flow::Next,
            (true, false) => {
                return Flow::End(Beat::Note { note: Note::OwnerTerminating { owner: self.key.clone() }, then_ms: 0 }, Outcome::Done)
            }
            (false, false) => finalizers.push(name.to_string()),
            (true, true) => finalizers.retain(|f| f.as_str() != name),
        }
        let body = ObjectTemplate { finalizers, ..(&*owner).into() };
        let read_rv = owner.resource_version;
        let note = Note::Finalizer { owner: self.key.clone(), name: name.to_string(), adding: !removing, read_rv };
        self.at = At::FinalizerNoted { removing, body, read_rv };
        Flow::Stay(Beat::Note { note, then_ms: 0 })
    }

    /// Label the owner from what the list found: set `marks` (its labels
    /// and its annotations) when it found some, take them off when it found none (with
    /// [`Removal::OnObservedDelete`], only once a child's DELETED was seen),
    /// with an `Update` of the owner as read, under `precondition` (an
    /// owner moved on since, or another under its name, is `409 Conflict`).
    /// An owner that already says so makes no frame.
    fn label_owner(
        &mut self,
        marks: [&BTreeMap<Arc<str>, Arc<str>>; 2],
        remove: Removal,
        precondition: Precondition,
        input: Input,
        cx: &mut Cx,
    ) -> Flow {
        let at = std::mem::replace(&mut self.at, At::Entering);
        if let At::LabelsNoted { removing, body, options } = at {
            self.at = At::Labelling { removing };
            let request = Request::update(Self::actor(cx), body).with(options);
            return Flow::Stay(Beat::Call { requests: vec![request], step: Step::LabelOwner });
        }
        if let At::Labelling { removing } = at {
            let Some((response, audit)) = first_answer(input) else { return Flow::Next };
            if !response.status.is_success() {
                // A precondition the owner no longer meets is `409 Conflict`: the sync's error, requeued rate-limited.
                return Flow::Stay(Beat::Return(Outcome::Error(ReconcileError::of(&audit))));
            }
            cx.wrote_at(&self.key, self.owner_uid, self.recipe.owner, audit.resource_version);
            if removing {
                cx.deletes_seen.remove(self.key.as_str());
            }
            self.live_owner = response.object.or(self.live_owner.take());
            return Flow::Next;
        }
        let Some(Counted { owner, in_cache, .. }) = &self.counted else { return Flow::Next };
        let owner = self.live_owner.clone().unwrap_or_else(|| owner.clone());
        let found = *in_cache > 0;
        let child_kind = self.recipe.child;
        // What the owner holds now, labels then annotations, and how many of `marks` change.
        let mut now = [(*owner.labels).clone(), owner.annotations.as_deref().cloned().unwrap_or_default()];
        let changes: [usize; 2] = if found {
            // Its children are back: a delete seen before is behind it.
            cx.deletes_seen.remove(self.key.as_str());
            std::array::from_fn(|m| {
                let lacking = marks[m].iter().filter(|(k, v)| now[m].get(&***k).map(|have| &**have) != Some(&***v)).count();
                for (k, v) in marks[m] {
                    now[m].insert(k.to_string(), v.to_string());
                }
                lacking
            })
        } else {
            let held: [usize; 2] = std::array::from_fn(|m| marks[m].keys().filter(|k| now[m].contains_key(&***k)).count());
            if held != [0, 0] && remove == Removal::OnObservedDelete && !cx.deletes_seen.contains(self.key.as_str()) {
                let note = Note::LabelsKept { owner: self.key.clone(), child_kind };
                return Flow::Then(Beat::Note { note, then_ms: 0 });
            }
            for m in 0..2 {
                for k in marks[m].keys() {
                    now[m].remove(&**k);
                }
            }
            held
        };
        if changes == [0, 0] {
            return Flow::Next;
        }
        let read_rv = owner.resource_version;
        let options = checked(precondition, &owner);
        let [labels, annotations] = now;
        let body =
            ObjectTemplate { labels: Rc::new(labels), annotations: crate::sim::object::annotations(annotations), ..(&*owner).into() };
        let [keys, annotations] = changes.map(|n| n as u32);
        let note = Note::Labels { owner: self.key.clone(), child_kind, removing: !found, keys, annotations, read_rv };
        self.at = At::LabelsNoted { removing: !found, body, options };
        Flow::Stay(Beat::Note { note, then_ms: 0 })
    }

    /// What the read returned, kept for a `for_each` (the children listed,
    /// else the cache's, as selected), and nothing for a recipe without one.
    fn found(&self, children: Option<Vec<ObjectRc>>, select: &Select, owner: &ObjectRc, cx: &Cx) -> Vec<ObjectRc> {
        if !self.recipe.loops() {
            return Vec::new();
        }
        children.unwrap_or_else(|| {
            let informer = cx.caches.informer(self.recipe.child).expect("a controller watches the kind it counts");
            informer.list().filter(|o| selects(select, owner, o)).cloned().collect()
        })
    }

    /// `for _, c := range children { if when { client.Delete(c) } }`, over
    /// what the read before returned (or, `over` live, what a LIST of its
    /// own returns), at most `max` a sync: nothing (no frame) when none is
    /// picked; else a note of what was, then its deletes one at a time, the
    /// first error the loop's end.
    fn for_each(&mut self, over: Over, max: u32, when: Option<&Is>, act: Act, input: Input, cx: &mut Cx) -> Flow {
        let todo = match std::mem::replace(&mut self.at, At::Entering) {
            At::Picked { todo } => todo,
            At::Sent => {
                let Some((response, audit)) = first_answer(input) else { return Flow::Stay(Beat::Return(Outcome::Done)) };
                if !response.status.is_success() {
                    return Flow::Stay(Beat::Return(Outcome::Error(ReconcileError::of(&audit))));
                }
                let Some(Counted { owner, .. }) = &self.counted else { return Flow::Next };
                let select = self.recipe.select().expect("a loop follows a read");
                let listed: Vec<ObjectRc> = response.items.iter().filter(|o| selects(select, owner, o)).cloned().collect();
                return self.pick(&listed, max, when, true);
            }
            At::Each { todo } => {
                let Some((response, audit)) = first_answer(input) else { return Flow::Next };
                // client.IgnoreNotFound: someone else already deleted it.
                if !response.status.is_success() && response.status != Status::NOT_FOUND {
                    self.error.get_or_insert(ReconcileError::of(&audit));
                    return Flow::Next;
                }
                todo
            }
            _ if over == Over::Live => {
                if self.counted.is_none() {
                    return Flow::Next;
                }
                self.at = At::Sent;
                let request = Request::list(Self::actor(cx), self.recipe.child, &self.owner_key.namespace);
                return Flow::Stay(Beat::Call { requests: vec![request], step: Step::ForEach });
            }
            _ => {
                let Some(Counted { found, .. }) = &self.counted else { return Flow::Next };
                let found = found.clone();
                return self.pick(&found, max, when, false);
            }
        };
        let mut todo = todo;
        let Some(o) = todo.pop_front() else { return Flow::Next };
        let Act::Delete { precondition, propagation } = act;
        let request = Request::delete(Self::actor(cx), self.recipe.child, &o.key()).with(delete_options(precondition, propagation, &o));
        self.at = At::Each { todo };
        Flow::Stay(Beat::Call { requests: vec![request], step: Step::ForEach })
    }

    /// The objects of `from` a loop acts on: those `when` holds of, at most
    /// `max`; nothing (no frame) when none, else a note of what was picked.
    fn pick(&mut self, from: &[ObjectRc], max: u32, when: Option<&Is>, live: bool) -> Flow {
        let Some(Counted { owner, .. }) = &self.counted else { return Flow::Next };
        let matched: Vec<&ObjectRc> = from.iter().filter(|o| when.is_none_or(|w| w.holds(o, owner.uid))).collect();
        if matched.is_empty() {
            return Flow::Next;
        }
        let todo: VecDeque<ObjectRc> = matched.iter().take(max as usize).map(|o| (*o).clone()).collect();
        let note = Note::Picked {
            owner: self.key.clone(),
            child_kind: self.recipe.child,
            of: from.len() as u32,
            matched: matched.len() as u32,
            acting: todo.len() as u32,
            live,
        };
        self.at = At::Picked { todo };
        Flow::Stay(Beat::Note { note, then_ms: 0 })
    }

    fn send_status(&mut self, owner: &ObjectRc, status: ReplicaSetStatus, attempt: u32, cx: &Cx) -> Flow {
        self.at = At::UpdatingStatus { status, attempt };
        Flow::Stay(Beat::Call { requests: vec![Request::update_status(Self::actor(cx), owner, status)], step: Step::UpdateStatus })
    }
}

impl Recipe {
    /// It has a `wait_for_cache` step, which needs to know what its creates made.
    fn waits_for_cache(&self) -> bool {
        self.ops.iter().any(|op| matches!(op, Op::WaitForCache { .. }))
    }

    /// It has a `for_each` over what the read returned.
    fn loops(&self) -> bool {
        self.ops.iter().any(|op| matches!(op, Op::ForEach { over: Over::Read, .. }))
    }

    /// How its create step names, if it has one.
    fn naming(&self) -> Option<&Naming> {
        self.ops.iter().find_map(|op| match op {
            Op::Create { naming, .. } => Some(naming),
            _ => None,
        })
    }
}

/// What a write asks the apiserver to check of `o` as it was read (`metav1.Preconditions`).
fn checked(precondition: Precondition, o: &Object) -> Options {
    match precondition {
        Precondition::None => Options::default(),
        Precondition::Uid => Options { uid: Some(o.uid), ..Options::default() },
        Precondition::ResourceVersion => Options { resource_version: Some(o.resource_version), ..Options::default() },
    }
}

/// A delete's options: its precondition on `o`, and its propagation policy.
fn delete_options(precondition: Precondition, propagation: Option<Propagation>, o: &Object) -> Options {
    Options { propagation, ..checked(precondition, o) }
}

/// The number after a name's last `-` (`web-10`: 10), as a StatefulSet's
/// `getOrdinal` reads it with `(.*)-([0-9]+)$` into an int32; a name
/// without one (`web10`, `web-`) has none, and sorts below every number.
fn ordinal(name: &str) -> Option<i32> {
    let (_, digits) = name.rsplit_once('-')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The one answer to a single request.
fn first_answer(input: Input) -> Option<(Response, AuditEntry)> {
    match input {
        Input::Responses(answers) => answers.into_iter().next(),
        Input::Resume => None,
    }
}

/// How the world counts the children `select` reads, in the cluster.
fn owned(select: &Select, owner_key: &ObjectKey, owner: &ObjectRc) -> Owned {
    match select {
        Select::Label(label) => Owned::Label { label: label.clone(), value: owner_key.name.to_string(), active: false },
        Select::ActiveLabel(label) => Owned::Label { label: label.clone(), value: owner_key.name.to_string(), active: true },
        Select::ActiveControlled => Owned::Controlled { uid: owner.uid },
        Select::Namespace => Owned::Namespace,
    }
}

/// Whether `child` is one of `owner`'s as `select` sees it.
fn selects(select: &Select, owner: &ObjectRc, child: &ObjectRc) -> bool {
    match select {
        Select::Label(label) => child.namespace == owner.namespace && child.labels.get(&**label).is_some_and(|v| *v == owner.name),
        Select::ActiveLabel(label) => {
            !child.is_terminating() && child.namespace == owner.namespace && child.labels.get(&**label).is_some_and(|v| *v == owner.name)
        }
        Select::ActiveControlled => !child.is_terminating() && child.controller_ref().is_some_and(|r| r.uid == owner.uid),
        Select::Namespace => child.namespace == owner.namespace,
    }
}

/// The indexed names the children a count read hold: for each infix an
/// indexed create of the recipe names with, its [`Ordinals`].
#[derive(Debug, Clone, Default, Hash)]
struct Present(Vec<(Arc<str>, Ordinals)>);

impl Present {
    /// Those of `infix` (none held, for an infix no create of the recipe names with).
    fn of(&self, infix: &str) -> &Ordinals {
        static NONE: Ordinals = Ordinals(Vec::new());
        self.0.iter().find(|(i, _)| &**i == infix).map_or(&NONE, |(_, o)| o)
    }
}

/// Which of an owner's indexed names, `{owner}{infix}0 .. {owner}{infix}(desired-1)`,
/// a list of children holds: one flag an ordinal. Read off the names once, so
/// a create finds the missing ones without writing out every name it could
/// make (999 of them, at each count of the largest scenario's resyncs).
#[derive(Debug, Clone, Default, Hash)]
struct Ordinals(Vec<bool>);

impl Ordinals {
    /// The ordinals `names` hold. A name is `{owner}{infix}` and then `i` as
    /// `format!` writes it (no sign, no leading zero), with `i < desired`:
    /// `web-01` is not ordinal 1, as no create would name it so.
    fn of<'a>(owner: &ObjectRc, infix: &str, names: impl Iterator<Item = &'a str>) -> Ordinals {
        let desired = owner.spec.desired().unwrap_or(0) as usize;
        let mut held = vec![false; desired];
        for name in names {
            let Some(digits) = name.strip_prefix(&*owner.name).and_then(|rest| rest.strip_prefix(infix)) else { continue };
            let canonical = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && (digits == "0" || !digits.starts_with('0'));
            if !canonical {
                continue;
            }
            if let Some(i) = digits.parse::<usize>().ok().filter(|&i| i < desired) {
                held[i] = true;
            }
        }
        Ordinals(held)
    }

    fn holds(&self, i: u32) -> bool {
        self.0.get(i as usize).copied().unwrap_or(false)
    }
}

/// The indexed names `{owner}{infix}0 .. {owner}{infix}(desired-1)` absent from `present`, in order.
fn missing_names<'a>(owner: &ObjectRc, infix: &str, present: &'a Ordinals) -> impl Iterator<Item = String> + 'a {
    let prefix = format!("{}{infix}", owner.name);
    (0..owner.spec.desired().unwrap_or(0)).filter(|&i| !present.holds(i)).map(move |i| format!("{prefix}{i}"))
}

/// The objects a create step sends: one template, its labels and
/// ownerReferences shared, under each name or `generateName`.
fn templates(
    owner: &ObjectRc,
    spec: Spec,
    n: u32,
    naming: &Naming,
    label: &str,
    owner_reference: bool,
    present: &Present,
) -> VecDeque<ObjectTemplate> {
    let labels: Labels = Rc::new([(label.to_string(), owner.name.to_string())].into());
    let owner_references = if owner_reference {
        Rc::new(vec![OwnerReference { kind: owner.kind(), name: owner.name.clone(), uid: owner.uid, controller: true }])
    } else {
        Default::default()
    };
    let template = |name: Option<String>, generate_name: Option<Name>| ObjectTemplate {
        namespace: owner.namespace.clone(),
        name: name.map(Name::from),
        generate_name,
        labels: labels.clone(),
        annotations: Default::default(),
        owner_references: owner_references.clone(),
        finalizers: Vec::new(),
        spec: spec.clone(),
    };
    match naming {
        Naming::Indexed(infix) => {
            missing_names(owner, infix, present.of(infix)).take(n as usize).map(|name| template(Some(name), None)).collect()
        }
        Naming::Generate(infix) => {
            let prefix = Name::from(format!("{}{infix}", owner.name));
            (0..n).map(|_| template(None, Some(prefix.clone()))).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(name: &str, voices: u32) -> ObjectRc {
        ObjectRc::new(Object::bare("default", name, 1, Spec::Ensemble { voices }))
    }

    /// What an indexed create made before `Ordinals`: every name it could
    /// make written out, and those the names read hold skipped.
    fn missing_by_lookup(owner: &ObjectRc, infix: &str, names: &[&str]) -> Vec<String> {
        (0..owner.spec.desired().unwrap_or(0))
            .map(|i| format!("{}{infix}{i}", owner.name))
            .filter(|n| !names.contains(&n.as_str()))
            .collect()
    }

    #[test]
    fn an_indexed_create_skips_exactly_the_names_the_cache_holds() {
        let beta = owner("beta", 12);
        let cases: [&[&str]; 6] = [
            &[],
            &["beta-voice-0", "beta-voice-1", "beta-voice-2"],
            &["beta-voice-11", "beta-voice-3", "beta-voice-7", "beta-voice-5"],
            // Not an ordinal of beta's, or past its desired count: nothing skipped for them.
            &[
                "beta-voice-01",
                "beta-voice-012",
                "beta-voice-",
                "beta-voice-x",
                "beta-voice-+1",
                "beta-voice-12",
                "beta-voice-99999999999999999999",
            ],
            &["alpha-voice-2", "beta-other-2", "beta-voice-2-x", "beta-voice- 2", "beta-voice-٣"],
            &["beta-voice-0", "beta-voice-0", "beta-voice-10", "beta-voice-1"],
        ];
        for names in cases {
            let present = Ordinals::of(&beta, "-voice-", names.iter().copied());
            let made: Vec<String> = missing_names(&beta, "-voice-", &present).collect();
            assert_eq!(made, missing_by_lookup(&beta, "-voice-", names), "names read: {names:?}");
        }
        // All held: nothing to make; none desired: nothing either.
        let all: Vec<String> = (0..12).map(|i| format!("beta-voice-{i}")).collect();
        let present = Ordinals::of(&beta, "-voice-", all.iter().map(String::as_str));
        assert_eq!(missing_names(&beta, "-voice-", &present).count(), 0);
        let none = owner("beta", 0);
        assert_eq!(missing_names(&none, "-voice-", &Ordinals::of(&none, "-voice-", all.iter().map(String::as_str))).count(), 0);
    }

    #[test]
    fn each_indexed_create_skips_the_names_of_its_own_infix() {
        let beta = owner("beta", 3);
        let names = ["beta-a-0", "beta-b-1", "beta-b-2"];
        let present = Present(
            ["-a-", "-b-"].into_iter().map(|infix| (Arc::from(infix), Ordinals::of(&beta, infix, names.iter().copied()))).collect(),
        );
        assert_eq!(missing_names(&beta, "-a-", present.of("-a-")).collect::<Vec<_>>(), ["beta-a-1", "beta-a-2"]);
        assert_eq!(missing_names(&beta, "-b-", present.of("-b-")).collect::<Vec<_>>(), ["beta-b-0"]);
        // An infix no create names with holds nothing.
        assert_eq!(missing_names(&beta, "-c-", present.of("-c-")).count(), 3);
    }
}
