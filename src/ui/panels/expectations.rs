//! The Expectations panel: ControllerExpectations' records, and v1.36's
//! consistency store under them.

use super::layout::simplified;
use crate::narrate::simplifications::Panel;
use crate::narrate::units::secs;
use crate::sim::apiserver::ControllerKind;
use crate::ui::state::{part_of, use_ui};
use crate::view::panels as pv;
use leptos::prelude::*;
use std::hash::Hash;

#[component]
pub fn ExpectationsPanel() -> impl IntoView {
    let snap = use_ui().snap;
    // Redrawn when what it shows changes, not with every frame the snapshot does.
    let version = part_of(snap, |s, h| (&s.expectations, s.controls.kind, &s.consistency).hash(h));
    view! { <section class="panel expectations" aria-label=format!("{}Expectations", use_ui().region_of.get_value())>{move || { let _ = version.get(); snap.with_untracked(|s| (expectations(&s.expectations, s.controls.kind, s.consistency.enabled), consistency(&s.consistency))) }}{simplified(Panel::Expectations)}</section> }
}

fn expectations(e: &pv::ExpectationsView, kind: ControllerKind, store: bool) -> impl IntoView {
    let note = match (e.enabled, e.records.is_empty()) {
        (false, true) if !kind.spec().loops() => {
            Some("The pruner keeps no expectations: it is a one-shot program that trusts its lister, not a reconcile loop.")
        }
        // The store as an operator ports it (upstream ships it for kube-controller-manager's own).
        (false, true) if store && !kind.spec().consistency_store_by_release => {
            Some("This controller keeps no expectations; the consistency store, below (v1.36's, ported into the operator), skips a sync until the cache has read its own writes.")
        }
        (false, true) if store => {
            Some("This controller keeps no expectations here; v1.36's consistency store, below, skips a sync until the cache has read its own writes.")
        }
        (false, true) => Some("This controller keeps no expectations: nothing stops a second reconcile from counting a cache that has not seen its own creates."),
        (true, true) => Some("No records yet: SatisfiedExpectations is true for a key without one."),
        _ => None,
    };
    let records = e
        .records
        .iter()
        .map(|r| {
            let pct = (r.fraction_left * 100.0).round() as u32;
            view! {
                <li class="record" class:pending=!r.satisfied>
                    <div class="key mono">{r.key.clone()}</div>
                    <div class="counters mono">
                        <span>"add "<b data-counter="add">{r.add}</b></span>
                        <span>"del "<b data-counter="del">{r.del}</b></span>
                    </div>
                    <div class="age" role="meter" aria-label="Time left before the timeout" aria-valuemin="0" aria-valuemax="100" aria-valuenow=pct>
                        <span class="bar" style:width=format!("{pct}%")></span>
                    </div>
                    <div class="age-text mono">{format!("set {} ago, times out after {}", secs(r.age_ms), secs(r.timeout_ms))}</div>
                    <div class="satisfied">
                        {if r.satisfied { "SatisfiedExpectations: true" } else { "SatisfiedExpectations: false: syncs skip creates and deletes" }}
                    </div>
                </li>
            }
        })
        .collect_view();
    view! {
        <header>
            <h2>"Expectations"</h2>
            <span class="sub">"ControllerExpectations"</span>
        </header>
        {note.map(|n| view! { <p class="empty">{n}</p> })}
        <ul class="records" role="list" tabindex="0" aria-label="Expectation records">{records}</ul>
    }
}

/// v1.36's consistency store, under the expectations: per key, what the
/// controller wrote against how far each cache has read, the skips so far
/// and the backoff the key waits out.
fn consistency(c: &pv::ConsistencyView) -> impl IntoView {
    c.enabled.then(|| {
        let records = c
            .records
            .iter()
            .map(|r| {
                let reads = r
                    .resources
                    .iter()
                    .map(|(kind, wrote, read)| {
                        let mark = if wrote > read { "behind" } else { "caught up" };
                        view! { <li class="mono">{format!("{} wrote rv {wrote} · cache read rv {read} · {mark}", kind.resource())}</li> }
                    })
                    .collect_view();
                let retry = r.retry_in_ms.map(|ms| format!("retry in {ms} ms (failure {})", r.failures));
                view! {
                    <li class="store-record" class:behind=r.behind>
                        <div class="key mono">{r.key.clone()}</div>
                        <ul class="reads" role="list">{reads}</ul>
                        {retry.map(|t| view! { <div class="retry mono">{t}</div> })}
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="store" role="group" aria-label="Consistency store (KEP-5647)">
                <h3>"Consistency store (KEP-5647)"</h3>
                <p class="skips">{format!("stale_sync_skips {}", c.skips)}</p>
                {c.records.is_empty().then(|| view! { <p class="empty">"No record: every write has been read back."</p> })}
                <ul class="store-records" role="list">{records}</ul>
            </div>
        }
    })
}
