//! "About this scenario" and "About this run", below the panels.

use crate::ui::state::use_ui;
use crate::view::session::Session;
use crate::view::url::runner_command;
use leptos::either::Either;
use leptos::prelude::*;

/// "About this scenario": its description, the real incident it mirrors, and
/// for its author, "Check this lesson".
#[component]
pub fn AboutScenario() -> impl IntoView {
    let snap = use_ui().snap;
    // A memo: the snapshot changes every frame played, the description and
    // the incident only with the scenario. Without it the link was built
    // anew at every frame, below the panels, where it made the browser lay
    // out the whole page again.
    let about = Memo::new(move |_| snap.with(|s| (s.controls.description.clone(), s.controls.incident.clone())));
    let c = move || about.get();
    view! {
        <details class="about" id="about" tabindex="-1" open>
            <summary>"About this scenario"</summary>
            <p>{move || c().0}</p>
            {move || c().1.map(|(title, url)| view! {
                <p>"This happened: " <a href=url target="_blank" rel="noopener noreferrer">{title}</a></p>
            })}
            <crate::ui::CheckThisLesson />
        </details>
    }
}

/// "About this run": the scenario, the seed, how long the run is, its trace
/// hash (the same `trace_hash` `cachescope run` prints for the same scenario
/// and seed) and the command line that reproduces it.
#[component]
pub fn AboutRun() -> impl IntoView {
    let ui = use_ui();
    // Hashed in slices by the look-ahead once the run's end is known (`Ui::trace_hash`):
    // never all at once here. The memo lets through only real changes: playback
    // touches `known` every frame.
    let hash = ui.trace_hash;
    let run = Memo::new(move |_| (ui.ended.get(), ui.known.get()));
    // Why the run stopped where it did, when the object limit stopped it: from the
    // session itself (cheap until its end is known), changed only when it changes.
    let stopped = Memo::new(move |_| ui.session.with(|s| s.stopped_at_object_limit().map(|(_, why)| why)));
    let stopped = move || stopped.get();
    let facts = move || {
        run.track();
        ui.session.with_untracked(|s| (s.scenario().name.clone(), s.scenario().seed, s.frames().len(), s.edits().len()))
    };
    let command = move || {
        // What the command depends on: not every frame played.
        ui.preset.track();
        ui.settings.track();
        run.track();
        runner_command(&ui.page_state())
    };
    view! {
        <details class="about-run">
            <summary>"About this run"</summary>
            <dl>
                <dt>"Scenario"</dt>
                <dd class="mono">{move || facts().0}</dd>
                <dt>"Seed"</dt>
                <dd class="mono">{move || facts().1}</dd>
                <dt>"Frames"</dt>
                <dd class="mono">
                    {move || match (ui.ended.get(), ui.session.with_untracked(Session::stopped_at_frame_limit), stopped()) {
                        (true, _, Some(_)) => format!("{}: the object limit; the run stops here", facts().2),
                        (true, true, None) => format!("{}: the frame limit for a scenario this size; the run stops here", facts().2),
                        (true, false, None) => facts().2.to_string(),
                        _ => format!("{} so far", facts().2),
                    }}
                </dd>
                <dt hidden=move || stopped().is_none()>"Why it stops"</dt>
                <dd class="stopped-why" hidden=move || stopped().is_none()>{move || stopped().unwrap_or_default()}</dd>
                <dt>"trace_hash"</dt>
                <dd>
                    {move || match (hash.get(), ui.ended.get()) {
                        (Some(h), _) => Either::Left(view! { <code class="trace-hash">{h}</code> }),
                        (None, true) => Either::Right(view! { <span class="muted">"hashing the frames…"</span> }),
                        (None, false) => Either::Right(view! { <span class="muted">"known once the run has ended"</span> }),
                    }}
                </dd>
                <dt>"Reproduce"</dt>
                <dd>
                    {move || match (command(), facts().3) {
                        (Some(c), 0) => Either::Left(view! { <code>{c}</code> }),
                        (_, 0) => Either::Right("Export the scenario, then run it: cachescope run <file>.json".to_string()),
                        (_, n) => Either::Right(format!("This run has {n} change(s) made while it ran; the runner replays scenarios, not changes.")),
                    }}
                </dd>
            </dl>
        </details>
    }
}
