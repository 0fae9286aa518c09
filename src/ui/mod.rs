//! The Leptos face of cachescope (wasm32 only).
//!
//! One signal holds the [`Session`](crate::view::session::Session) (a plain model: the scenario, its history
//! and the changes made along the way); every panel renders plain view values
//! computed from it by [`crate::view`]. Playback is a `requestAnimationFrame`
//! loop that moves an animation clock forward and steps the session up to it;
//! events on the wire are drawn at that clock, so a longer lag is visibly a
//! longer trip. The page's whole state is mirrored into its URL.
//!
//! One file a job: `state` (the [`Ui`] signals, the session, the memos),
//! `moves`, `playback` and `slices` (what changes it), `keyboard`, `bridge`
//! (the host page), `mirror` (the URL and its banner), `caption`, `help`,
//! `recycle` (the lists that hand an element on rather than build one),
//! and the components: `controls`, `panels`, `share`, `find`, `popover`.
//! This file is the root: [`App`] and the [`Stage`] that wires them.

mod bridge;
mod caption;
mod compare;
mod controls;
mod editor;
mod find;
mod gallery;
mod help;
mod keyboard;
mod lesson;
mod matrix;
mod mirror;
mod modal;
mod moves;
mod notice;
mod panels;
mod playback;
mod popover;
mod recycle;
mod share;
mod slices;
mod state;

use crate::view::panels as pv;
use crate::view::url::{self, ControlsMode, PageState, PanelId};
use caption::CaptionBar;
use help::Help;
use leptos::either::Either;
use leptos::prelude::*;
use mirror::Banner;

pub use controls::{Controls, ScenarioPicker, Transport};
pub use find::{serve_in_worker, CanItGoWrong};
pub use lesson::CheckThisLesson;
pub use panels::{
    AboutRun, AboutScenario, ExpectationsPanel, InvariantsPanel, Observations, ReconcilePanel, Side, SpaceTimePanel, StorePanel,
    TimelinePanel, WatchPanel, WorkqueuePanel,
};
pub use share::ShareBar;
pub use state::Ui;

/// The preset a bare URL opens.
const DEFAULT_PRESET: &str = "over-create";

/// The page: the explorer, with a banner naming whatever in the URL could not be used.
#[component]
pub fn App() -> impl IntoView {
    let query = window().location().search().unwrap_or_default();
    let url::Parsed { state, problems, fell_back } = url::parse_query_lenient(&query, DEFAULT_PRESET);
    let problems = problems.iter().map(ToString::to_string).collect::<Vec<_>>();
    view! { <Stage state problems fell_back /> }
}

/// The explorer: controls, panels, caption, transport and timeline.
#[component]
pub fn Stage(
    state: PageState,
    /// Problems found while reading the URL, for the banner.
    #[prop(optional)]
    problems: Vec<String>,
    /// The scenario the URL names could not be used: the link is kept as
    /// given in the address bar until the learner changes something.
    #[prop(optional)]
    fell_back: bool,
) -> impl IntoView {
    let shown = state.shown_panels();
    let controls = state.controls_mode();
    let comparing = state.layout.compare.clone().map(|vs| (vs, state.clone()));
    let comparing_now = comparing.is_some();
    let ui = Ui::new(state);
    ui.problems.update(|p| {
        let mut all = problems;
        all.append(p);
        *p = all;
    });
    provide_context(ui);
    ui.narration.set(ui.session.with_untracked(pv::session_caption));
    caption::dismiss_notices_in_time(ui);
    popover::install();
    // Two runs side by side move by their own transport, not the one run's keys.
    if comparing.is_none() {
        keyboard::listen(ui);
    }
    playback::pause_when_hidden(ui);
    mirror::mirror_into_url(ui, fell_back);
    bridge::connect(ui);

    // A scenario the link gives whole: its lesson checked before a learner meets it.
    if ui.custom.with_value(Option::is_some) {
        ui.check_lesson();
    }
    // `lesson=1`: the lesson, at the URL's step.
    if let Some(step) = ui.layout.with_value(|l| l.lesson) {
        ui.start_lesson(step);
    }
    // Mark the first drawn frame for the page benchmark, then compute ahead (or play).
    request_animation_frame(move || {
        if let Some(p) = window().performance() {
            let _ = p.mark("cachescope:first-frame");
        }
        if comparing_now {
            // Two runs side by side move by their own transport, from frame 0.
        } else if ui.layout.with_value(|l| l.autoplay) {
            ui.toggle_play();
        } else if let Some(frame) = ui.pending_frame.get_value() {
            // The URL's frame, past what the first slice computed: the rest in slices.
            ui.pending_frame.set_value(None);
            ui.seek_to(frame, true);
            ui.look_ahead();
        } else {
            ui.look_ahead();
        }
    });

    let embed = ui.embed;
    // A scenario file dragged over the page: dropping it imports it.
    let dropping = RwSignal::new(false);
    let has = |p: PanelId| shown.contains(&p);
    let in_lesson = Memo::new(move |_| ui.lesson.with(Option::is_some));
    // A recipe's Expectations panel comes and goes with the guard or the store it uses.
    let with_expectations = has(PanelId::Expectations);
    let expectations_drawn = Memo::new(move |_| {
        let recipe = ui.session.with(|s| s.scenario().controller.recipe.is_some());
        ui.snap.with(|s| pv::expectations_drawn(recipe, &s.expectations, &s.consistency))
    });
    let full_view = move || {
        // Follows the page while paused, like the address bar.
        if !ui.playing.get() {
            ui.session.track();
        }
        ui.full_view_query()
    };
    let title = move || ui.session.with(|s| format!("cachescope: {}", s.scenario().name));
    view! {
        <main
            class="app"
            class:embed=move || embed.get()
            class:dropping=move || dropping.get()
            data-lit=move || ui.lesson_lit.get()
            // Classes, not `:has()` in style/main.css, say what the stage
            // holds: a `:has()` on an ancestor is checked again at every
            // change below it, and while playing the lists change every frame.
            class:in-lesson=move || in_lesson.get()
            on:dragover=move |e| {
                e.prevent_default();
                dropping.set(true);
            }
            on:dragleave=move |_| dropping.set(false)
            on:drop=move |e| {
                e.prevent_default();
                dropping.set(false);
                if let Some(file) = share::first_file(e.data_transfer().and_then(|d| d.files())) {
                    share::import(ui, file);
                }
            }
        >
            <a class="skip-link" href="#play" on:click=move |e| {
                e.prevent_default();
                if let Some(play) = document().get_element_by_id("play").and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok()) {
                    let _ = play.focus();
                }
            }>"Skip to the transport"</a>
            <Banner />
            {if embed.get_untracked() {
                Either::Left(view! {
                    <h1 class="sr-only">{title}</h1>
                    <div class="embed-links">
                        // The editor opens here as a dialog, as in the full page.
                        <button class="embed-editor" aria-haspopup="dialog" on:click=move |_| ui.editor_open.set(true)>"✎ Your controller"</button>
                        <a class="full-view" href=full_view target="_blank" rel="noopener">"Open full view ↗"</a>
                    </div>
                })
            } else {
                Either::Right(view! {
                    <header class="app-header">
                        <h1>"cachescope"</h1>
                        <p class="lede">"See what a Kubernetes controller sees: its cache lags the cluster."</p>
                        <ScenarioPicker />
                        // Where the header is narrow, a symbol each (the name stays, and shows as a tooltip).
                        <button class="header-dialog" aria-label="Your controller" title="Your controller" aria-haspopup="dialog" on:click=move |_| ui.editor_open.set(true)>
                            <span class="symbol" aria-hidden="true">"✎"</span><span class="text">"Your controller"</span>
                        </button>
                        <button class="header-dialog" aria-label="Real incidents" title="Real incidents" aria-haspopup="dialog" on:click=move |_| ui.gallery_open.set(true)>
                            <span class="symbol" aria-hidden="true">"⚑"</span><span class="text">"Real incidents"</span>
                        </button>
                        <button class="header-dialog" aria-label="Chaos matrix" title="Chaos matrix" aria-haspopup="dialog" on:click=move |_| ui.matrix_open.set(true)>
                            <span class="symbol" aria-hidden="true">"▦"</span><span class="text">"Chaos matrix"</span>
                        </button>
                        <ShareBar />
                        <CanItGoWrong />
                        <button class="help-button" aria-label="Help" aria-keyshortcuts="?" on:click=move |_| ui.help_open.set(true)>
                            "?"
                        </button>
                        // Two runs side by side keep the settings the link gave them.
                        {(controls == ControlsMode::All && !comparing_now).then(|| view! { <Controls /> })}
                    </header>
                })
            }}
            {(embed.get_untracked() && controls == ControlsMode::All && !comparing_now).then(|| view! { <Controls /> })}
            {match comparing {
                Some((vs, state)) => Either::Left(view! { <compare::CompareStage vs state /> }),
                None => Either::Right(view! {
            // The stage and the lesson: a lesson in progress takes a column
            // beside the panels (below them on a phone held upright).
            <div class="stage-row">
            <div class="stage-scroll">
                <div class="grid" class:without-expectations=move || !(with_expectations && expectations_drawn.get())>
                    {has(PanelId::Cluster).then(|| view! { <StorePanel side=Side::Cluster /> })}
                    {has(PanelId::Watch).then(|| view! { <WatchPanel /> })}
                    {has(PanelId::Cache).then(|| view! { <StorePanel side=Side::Cache /> })}
                    {has(PanelId::Expectations).then_some(move || expectations_drawn.get().then(|| view! { <ExpectationsPanel /> }))}
                    {has(PanelId::Workqueue).then(|| view! { <WorkqueuePanel /> })}
                    {has(PanelId::Reconcile).then(|| view! { <ReconcilePanel /> })}
                    {has(PanelId::Observations).then(|| view! { <Observations /> })}
                </div>
                <nav class="below" aria-label="Below the panels">
                    <span aria-hidden="true">"↓ Below: "</span>
                    {has(PanelId::SpaceTime).then(|| view! { <a href="#space-time" on:click=move |e| scroll_to(e, "space-time")>"Space-time"</a> })}
                    {has(PanelId::Timeline).then(|| view! { <a href="#timeline" on:click=move |e| scroll_to(e, "timeline")>"Audit and controller logs"</a> })}
                    {(!embed.get_untracked()).then(|| view! { <a href="#about" on:click=move |e| scroll_to(e, "about")>"About this scenario and run"</a> })}
                </nav>
                <div class="more">
                    {has(PanelId::SpaceTime).then(|| view! { <SpaceTimePanel /> })}
                    {has(PanelId::Timeline).then(|| view! { <TimelinePanel /> })}
                    {(!embed.get_untracked()).then(|| view! { <AboutScenario /> <AboutRun /> })}
                </div>
            </div>
            <lesson::LessonRegion />
            </div>
            <CaptionBar invariants=has(PanelId::Invariants) />
            {(controls != ControlsMode::None).then(|| view! { <Transport /> })}
                }),
            }}
            <div class="sr-only" aria-live="polite" aria-atomic="true">
                {move || ui.narration.get()}
            </div>
            {move || ui.help_open.get().then(|| view! { <Help /> })}
            {move || ui.gallery_open.get().then(|| view! { <gallery::Gallery /> })}
            {move || ui.matrix_open.get().then(|| view! { <matrix::Matrix /> })}
            {move || ui.editor_open.get().then(|| view! { <editor::Editor /> })}
        </main>
    }
}

/// Follow an in-page link by scrolling the stage, not the page (the address keeps its query).
fn scroll_to(e: leptos::ev::MouseEvent, id: &str) {
    e.prevent_default();
    if let Some(el) = document().get_element_by_id(id) {
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Start);
        el.scroll_into_view_with_scroll_into_view_options(&options);
        if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
            let _ = el.focus();
        }
    }
}
