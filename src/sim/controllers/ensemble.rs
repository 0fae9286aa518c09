//! The lab's operator: an `Ensemble` with `spec.voices` ConfigMap children:
//! its event handlers and its pseudo-code. Its reconcile is the recipe
//! `bundled.rs` writes, which the interpreter runs.
//!
//! The reconcile has the shape most operators have: read the owner from the
//! cache, count its children in the cache, create the missing ones (or delete
//! the surplus), return. It counts in a cache it has just written to, which is
//! the whole of lab 1. With `expectations` on it guards the count the way the
//! ReplicaSet controller does.
//!
//! With `delete_surplus` it deletes `children[voices:]` in the order its
//! lister returned them: a Go map's order, random from call to call (see
//! [`super::ListOrder`]), so two reconciles on the same stale cache can pick
//! different victims and delete below the desired count.

use super::Step;

/// The pseudo-code the Reconcile panel shows, a line per step.
pub(crate) const PSEUDO_CODE: &[(Step, &str)] = &[
    (Step::Dequeue, "key := queue.Get()"),
    (Step::EnsureReady, "if err := consistencyStore.EnsureReady(key); err != nil { return err }   // KEP-5647, ported, when on"),
    (Step::GetOwner, "ensemble, err := lister.Get(key)   // NotFound: forget expectations; DeletionTimestamp set: return"),
    (Step::CheckExpectations, "if !expectations.SatisfiedExpectations(key) { return nil }"),
    (Step::ListChildren, "children := cmLister.List(ensemble=key)   // the cache, not the cluster"),
    (Step::Create, "for i := len(children); i < spec.voices; i++ { client.Create(voice) }"),
    (Step::Delete, "for _, c := range children[spec.voices:] { client.Delete(c) }   // --delete-surplus"),
    (Step::Return, "return nil   // --double-enqueue: queue.Add(key)"),
];

/// The same reconcile written with controller-runtime, the operator's
/// default: its client reads the cache, `Reconcile` returns a `ctrl.Result`.
pub(crate) const PSEUDO_CODE_CONTROLLER_RUNTIME: &[(Step, &str)] = &[
    (Step::Dequeue, "req := queue.GetWithPriority()   // controller-runtime's priority queue: the initial list's events last"),
    (
        Step::EnsureReady,
        "if err := consistencyStore.EnsureReady(key); err != nil { return ctrl.Result{}, err }   // KEP-5647, ported, when on",
    ),
    (
        Step::GetOwner,
        "err := r.Get(ctx, req.NamespacedName, &ensemble)   // the cache; NotFound: forget expectations; DeletionTimestamp set: return",
    ),
    (Step::CheckExpectations, "if !expectations.SatisfiedExpectations(key) { return ctrl.Result{}, nil }"),
    (Step::ListChildren, "r.List(ctx, &children, client.MatchingLabels{ensemble: req.Name})   // the cache, not the cluster"),
    (Step::Create, "for i := len(children.Items); i < spec.voices; i++ { r.Create(ctx, voice) }"),
    (Step::Delete, "for _, c := range children.Items[spec.voices:] { r.Delete(ctx, &c) }   // --delete-surplus"),
    (
        Step::Return,
        "return ctrl.Result{}, err   // err: AddRateLimited; nil: Forget; --double-enqueue: the key again, as a second event would",
    ),
];

/// The two reads, live through the API reader (`controller.live_reads`).
pub(crate) const LIVE_READS: [(Step, &str); 2] = [
    (Step::GetOwner, "err := r.apiReader.Get(ctx, req.NamespacedName, &ensemble)   // live: a GET to the apiserver"),
    (Step::ListChildren, "r.apiReader.List(ctx, &children, client.MatchingLabels{ensemble: req.Name})   // live: a LIST to the apiserver"),
];

/// The two reads through v0.25's read-your-writes client (`controller.read_your_writes`).
pub(crate) const READS_OWN_WRITES: [(Step, &str); 2] = [
    (Step::GetOwner, "err := r.Get(ctx, req.NamespacedName, &ensemble)   // read-your-writes: waits for this client's writes of it"),
    (Step::ListChildren, "r.List(ctx, &children, client.MatchingLabels{ensemble: req.Name})   // read-your-writes: waits until the cache has seen every ConfigMap this client wrote"),
];
