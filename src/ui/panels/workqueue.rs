//! The Workqueue panel: its structures, the workers, and the learner's
//! choice of the idle worker that takes the next key.

use super::layout::simplified;
use crate::narrate::simplifications::Panel;
use crate::ui::state::{part_of, use_ui};
use crate::view::panels as pv;
use leptos::prelude::*;
use std::hash::Hash;

#[component]
pub fn WorkqueuePanel() -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    // Redrawn when the queue or its waiting times change, not with every frame the snapshot does.
    let version = part_of(snap, |s, h| (&s.queue, waiting(&s.queue, s.now_ms)).hash(h));
    // When two or more workers are idle and a key is about to be taken: which one takes it.
    let choice = move || {
        snap.with(|s| s.queue.next_take.clone().filter(|_| s.queue.idle.len() >= 2).map(|(key, by)| (key, by, s.queue.idle.clone())))
            .map(|(key, by, idle)| {
                let buttons = idle
                    .into_iter()
                    .filter(|w| *w != by)
                    .map(|w| {
                        let key = key.clone();
                        let name = format!("Take with worker {w}: {key}");
                        view! { <button class="hand" aria-label=name.clone() title=name on:click=move |_| ui.choose_worker(w, &key)>{w.to_string()}</button> }
                    })
                    .collect_view();
                view! { <p class="take">{format!("next: worker {by} takes {key}; or worker ")}{buttons}</p> }
            })
    };
    view! {
        <section class="panel workqueue" aria-label="Workqueue">
            {move || { let _ = version.get(); snap.with_untracked(|s| workqueue(&s.queue, &waiting(&s.queue, s.now_ms))) }}
            {choice}
            {simplified(Panel::Workqueue)}
        </section>
    }
}

/// The keys waiting for their delay, each with how long it has left.
fn waiting(q: &pv::QueueView, now: u64) -> String {
    if q.waiting.is_empty() {
        "none".to_string()
    } else {
        q.waiting.iter().map(|(k, at)| format!("{k} in {} ms", at.saturating_sub(now))).collect::<Vec<_>>().join(", ")
    }
}

fn workqueue(q: &pv::QueueView, waiting: &str) -> impl IntoView {
    let queued = (
        q.queued.is_empty().then(|| view! { <span class="none">"empty"</span> }),
        q.queued.iter().map(|k| view! { <span class="key">{k.clone()}</span> }).collect_view(),
    );
    let workers = q
        .workers
        .iter()
        .map(|w| match &w.busy {
            Some((key, n)) => view! { <li class="busy">{format!("worker {}: {key} (reconcile {n})", w.worker)}</li> },
            None => view! { <li class="idle">{format!("worker {}: idle", w.worker)}</li> },
        })
        .collect_view();
    let dirty = if q.dirty_while_processing.is_empty() {
        "none".to_string()
    } else {
        format!("{}: one more reconcile after Done", q.dirty_while_processing.join(", "))
    };
    let waiting = waiting.to_string();
    view! {
        <header>
            <h2>"Workqueue"</h2>
            <span class="sub">
                {match q.controller {
                    Some(name) => format!("{name}'s, workers {}", if q.running { "running" } else { "waiting" }),
                    None => (if q.running { "workers running" } else { "workers waiting" }).to_string(),
                }}
            </span>
        </header>
        <dl class="queue" tabindex="0" aria-label="The workqueue's structures">
            <dt>"queue"</dt>
            <dd class="mono">{queued}</dd>
            <dt>"processing"</dt>
            <dd class="mono"><ul class="workers" role="list">{workers}</ul></dd>
            <dt>"dirty"</dt>
            <dd class="mono">{dirty}</dd>
            <dt>"waiting"</dt>
            <dd class="mono">{waiting}</dd>
        </dl>
    }
}
