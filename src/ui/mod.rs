//! The Leptos face of cachescope (wasm32 only).
//!
//! For now the page lets a reader pick a preset scenario, runs it to the end
//! with [`Report::run`], and shows the run summary. The UI keeps one signal
//! over plain data (the chosen preset's outcome) and renders from it; the
//! simulation types carry no signals.

use std::collections::BTreeMap;

use leptos::prelude::*;

use crate::report::Report;
use crate::scenario::{preset, preset_names};

/// Runs the preset called `name` to the end, or says why it could not.
///
/// The error is the [`ScenarioError`](crate::scenario::ScenarioError)'s
/// message, shown to the reader in an alert rather than a panic.
fn run_preset(name: &str) -> Result<Report, String> {
    preset(name)
        .map(|scenario| Report::run(&scenario))
        .map_err(|err| err.to_string())
}

/// The whole page: a title, a scenario picker and the chosen run's summary.
#[component]
pub fn App() -> impl IntoView {
    let names = preset_names();
    let outcome = RwSignal::new(match names.first() {
        Some(first) => run_preset(first),
        None => Err("No preset scenarios are built in.".to_string()),
    });

    let options = names
        .iter()
        .map(|name| view! { <option value=*name>{*name}</option> })
        .collect_view();

    view! {
        <main class="app">
            <header class="app-header">
                <h1>"cachescope"</h1>
                <p class="lede">
                    "See what a Kubernetes controller sees: its informer cache lags behind the "
                    "cluster, and a reconcile that trusts a stale cache creates too much."
                </p>
            </header>
            <div class="controls">
                <label for="scenario">"Scenario"</label>
                <select
                    id="scenario"
                    aria-label="Scenario"
                    on:change=move |ev| outcome.set(run_preset(&event_target_value(&ev)))
                >
                    {options}
                </select>
            </div>
            {move || match outcome.get() {
                Ok(report) => view! { <RunSummary report /> }.into_any(),
                Err(message) => view! { <p class="alert" role="alert">{message}</p> }.into_any(),
            }}
        </main>
    }
}

/// The summary of one finished run: its identity, the objects still live at
/// the end (per kind), and the trace hash that pins the run's determinism.
#[component]
fn RunSummary(report: Report) -> impl IntoView {
    let Report { scenario, seed, frames, trace_hash, live, .. } = report;
    view! {
        <section class="summary" aria-label="Run summary">
            <h2>"Run summary"</h2>
            <dl class="facts">
                <dt>"Scenario"</dt>
                <dd>
                    <code>{scenario}</code>
                </dd>
                <dt>"Seed"</dt>
                <dd class="num-inline">{seed}</dd>
                <dt>"Frames"</dt>
                <dd class="num-inline">{frames}</dd>
                <dt>"Trace hash"</dt>
                <dd>
                    <code class="trace-hash">{trace_hash}</code>
                </dd>
            </dl>
            <LiveTable live />
        </section>
    }
}

/// Live objects per kind at the end of the run, one row each.
#[component]
fn LiveTable(live: BTreeMap<String, u64>) -> impl IntoView {
    let rows = if live.is_empty() {
        view! {
            <tr class="empty">
                <td colspan="2">"No live objects."</td>
            </tr>
        }
        .into_any()
    } else {
        live.into_iter()
            .map(|(kind, count)| {
                view! {
                    <tr>
                        <th scope="row">
                            <code>{kind}</code>
                        </th>
                        <td class="num">{count}</td>
                    </tr>
                }
            })
            .collect_view()
            .into_any()
    };
    view! {
        <table class="live">
            <caption>"Live objects at the end of the run"</caption>
            <thead>
                <tr>
                    <th scope="col">"Kind"</th>
                    <th scope="col" class="num">"Count"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
