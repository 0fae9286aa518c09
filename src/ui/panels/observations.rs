//! The Observations panel: what the lab expects, checked against this run
//! (once it has ended, or when the learner asks), and the counts so far.

use crate::narrate::units::plural;
use crate::ui::state::{part_of, use_ui};
use crate::view::panels as pv;
use leptos::prelude::*;
use std::hash::Hash;

#[component]
pub fn Observations() -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    // The lab's figures wait for the learner's own: shown at the run's end,
    // or when asked, and never while a lesson's question is open. With no
    // figure to guess (a scenario of one's own, or settings the lab says
    // nothing of), what it says is said at once.
    let asking = Memo::new(move |_| snap.with(|s| s.asking));
    let stated = move || snap.with(|s| s.checks.checks.len());
    let shown = Memo::new(move |_| !asking.get() && (ui.expected_shown.get() || ui.at_run_end() || stated() == 0));
    // Each part redrawn when it changes, not with every frame the snapshot does.
    let counts = part_of(snap, |s, h| s.observations.hash(h));
    let plot = part_of(snap, |s, h| s.plot.hash(h));
    let checks = part_of(snap, |s, h| s.checks.hash(h));
    view! {
        <section class="panel observations" aria-label="Observations">
            <header>
                <h2>"Observations"</h2>
                <span class="sub">"what the lab expects, checked against this run"</span>
            </header>
            <div class="scroll" tabindex="0" aria-label="Checks and counts">
                // Drawn once and hidden, not redrawn with every frame: its button keeps its handler.
                <p class="predict" prop:hidden=move || shown.get() || asking.get()>
                    {move || format!("What will the run show? The lab states {} for these settings: make your guess, then play to the end, or ", plural(stated() as u64, "figure", "figures"))}
                    <button class="show-expected" on:click=move |_| ui.expected_shown.set(true)>"Show what the lab expects"</button>
                </p>
                <p class="predict" prop:hidden=move || !asking.get()>{crate::narrate::lesson::CHECKS_WAIT}</p>
                {move || shown.get().then(|| { let _ = checks.get(); snap.with_untracked(|s| checks_list(&s.checks)) })}
                {move || { let _ = counts.get(); snap.with_untracked(|s| facts(&s.observations)) }}
                <svg class="plot" viewBox="0 0 3000 640" role="img" aria-label="Children in the cluster and in the cache over time">
                    <polyline class="series cluster" points=move || { let _ = plot.get(); snap.with_untracked(|s| s.plot.0.clone()) } />
                    <polyline class="series cache" points=move || { let _ = plot.get(); snap.with_untracked(|s| s.plot.1.clone()) } />
                </svg>
                <p class="legend"><span class="swatch cluster"></span>"cluster "<span class="swatch cache"></span>"cache"</p>
            </div>
        </section>
    }
}

/// The lab's checks, each with its verdict and its figures.
fn checks_list(checks: &pv::ChecksView) -> impl IntoView {
    let rows = checks
        .checks
        .iter()
        .map(|c| {
            let (mark, class, said) = match c.held {
                Some(true) => ("✓", "held", "holds"),
                Some(false) => ("✗", "failed", "does not hold"),
                None => ("…", "pending", "not measured yet"),
            };
            let measured = match (c.held, c.measured) {
                (None, _) => "…".to_string(),
                (Some(_), Some(m)) => m.to_string(),
                (Some(_), None) => "nothing".to_string(),
            };
            view! {
                <li class=format!("check {class}")>
                    <span class="mark" aria-hidden="true">{mark}</span>
                    <span class="text">{c.text.clone()}<span class="sr-only">{format!(": {said}")}</span></span>
                    <span class="figures mono">{format!("expected {} · measured {measured}", c.expected)}</span>
                </li>
            }
        })
        .collect_view();
    let empty = checks.checks.is_empty().then(|| {
        let text = if checks.other_settings > 0 {
            "The lab gives no figure for these settings."
        } else {
            "This scenario states no figure to check."
        };
        view! { <li class="check none">{text}</li> }
    });
    view! {
        <ul class="checks" role="list">{rows}{empty}</ul>
        {checks.why.clone().map(|w| view! { <p class="why">{w}</p> })}
    }
}

/// The counts so far.
fn facts(o: &pv::Observations) -> impl IntoView {
    let lines = o.lines().into_iter().map(|(label, value)| view! { <dt>{label}</dt><dd class="mono">{value}</dd> }).collect_view();
    view! { <dl class="facts">{lines}</dl> }
}
