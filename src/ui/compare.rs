//! Two runs side by side (`compare=` in the URL): Run A, the scenario as the
//! page has it, and Run B with the settings `compare=` names, each in its
//! own region with compact panels (Cluster and Cache, Expectations), moved
//! by one transport in simulated time ([`crate::view::compare`]), the lab's
//! figures tabled for both ("Side by side"), and the request at which their
//! audit logs part marked on both and said in the caption.

use super::panels::{ExpectationsPanel, Side, StorePanel};
use super::state::{use_ui, Ui};
use crate::narrate::units::{kind_plural, secs};
use crate::sim::controllers::tracked_kind;
use crate::view::compare::{self as vc, Divergence, Figures};
use crate::view::url::PageState;
use leptos::context::Provider;
use leptos::prelude::*;

/// The two runs, B made from A's scenario with `vs`.
#[derive(Clone, Copy)]
struct Pair {
    a: Ui,
    b: Ui,
    /// Where the audit logs part, once both runs are known to their ends.
    parting: StoredValue<Option<Divergence>>,
    playing: RwSignal<bool>,
    clock: StoredValue<Option<(f64, f64)>>,
}

impl Pair {
    fn both(&self, mut f: impl FnMut(&mut crate::view::session::Session, &mut crate::view::session::Session)) {
        self.a.session.update(|sa| self.b.session.update(|sb| f(sa, sb)));
        self.a.settle();
        self.b.settle();
    }

    fn step(&self) {
        self.pause();
        self.both(|a, b| {
            vc::step_both(a, b);
        });
    }

    fn back(&self) {
        self.pause();
        self.both(vc::back_both);
    }

    fn reset(&self) {
        self.pause();
        self.both(|a, b| {
            a.seek(0);
            b.seek(0);
        });
    }

    fn pause(&self) {
        self.playing.set(false);
        self.clock.set_value(None);
    }

    fn toggle_play(&self) {
        if self.playing.get_untracked() {
            self.pause();
            return;
        }
        if self.a.session.with_untracked(|s| s.at_end()) && self.b.session.with_untracked(|s| s.at_end()) {
            self.reset();
        }
        self.playing.set(true);
        let pair = *self;
        request_animation_frame(move || pair.tick());
    }

    /// One animation frame: both runs step up to the clock, which runs at the page's speed.
    fn tick(&self) {
        if !self.playing.try_get_untracked().unwrap_or(false) {
            return;
        }
        let now = window().performance().map_or(0.0, |p| p.now());
        let start = self.a.session.with_untracked(|s| s.world().now_ms()).max(self.b.session.with_untracked(|s| s.world().now_ms()));
        let (at, was) = self.clock.get_value().unwrap_or((start as f64, now));
        let t = at + (now - was).clamp(0.0, 100.0) * self.a.speed();
        self.clock.set_value(Some((t, now)));
        let mut more = false;
        self.both(|a, b| {
            vc::seek_both_forward(a, b, t as u64);
            more = !(a.at_end() && b.at_end());
        });
        if more {
            let pair = *self;
            request_animation_frame(move || pair.tick());
        } else {
            self.pause();
        }
    }
}

/// The compare stage: both runs, the Side by side table, the caption, the transport.
#[component]
pub(super) fn CompareStage(vs: Vec<(String, String)>, state: PageState) -> impl IntoView {
    let a = use_ui();
    let scenario_a = a.session.with_untracked(|s| s.scenario().clone());
    let scenario_b = vc::run_b(&scenario_a, &vs).unwrap_or_else(|_| scenario_a.clone());
    let b = Ui::new(PageState { scenario: scenario_b, frame: 0, edits: Vec::new(), ..state.clone() });
    // Both runs whole (the parting and the figures need their ends), from frame 0.
    for ui in [a, b] {
        ui.session.update(|s| {
            vc::run_out(s);
            s.seek(0);
        });
        ui.known.set(ui.session.with_untracked(|s| s.frames().len()));
        ui.ended.set(true);
        ui.settle();
    }
    let parting = a.session.with_untracked(|sa| b.session.with_untracked(|sb| vc::first_divergence(sa.frames(), sb.frames())));
    let pair = Pair { a, b, parting: StoredValue::new(parting.clone()), playing: RwSignal::new(false), clock: StoredValue::new(None) };
    let said = parting.as_ref().map_or_else(
        || crate::narrate::compare::SAME.to_string(),
        |d| crate::narrate::compare::divergence(d.at_ms, d.frame_a, d.frame_b, d.a.as_ref(), d.b.as_ref()),
    );
    let a_label = crate::narrate::compare::settings(&state.settings);
    let b_label = crate::narrate::compare::settings(&vs);
    // The later of the two runs' last frames: where both time lines end.
    let end_ms = [a, b].iter().filter_map(|u| u.session.with_untracked(|s| s.frames().last().map(|f| f.at_ms))).max().unwrap_or(0).max(1);
    let now = move || a.snap.with(|s| s.now_ms).max(b.snap.with(|s| s.now_ms));
    let parted_at = parting.as_ref().map(|d| d.at_ms);
    let parted = move || parted_at.is_some_and(|at| now() >= at);
    let said_now = said.clone();
    view! {
        <div class="compare">
            // Each run's panels read their own run: a context of its own, under a child owner.
            <Provider value=a><RunColumn ui=a name="Run A" label=a_label parting=pair.parting end_ms now=Signal::derive(now) /></Provider>
            <Provider value=b><RunColumn ui=b name="Run B" label=b_label parting=pair.parting end_ms now=Signal::derive(now) /></Provider>
        </div>
        <SideBySide pair />
        <section class="caption-region compare-caption" aria-label="Caption">
            <p class="caption" class:broke=parted tabindex="0">{said}</p>
            <div class="sr-only" aria-live="polite">{move || parted().then(|| said_now.clone())}</div>
        </section>
        <section class="transport" aria-label="Transport">
            <div class="buttons">
                <button on:click=move |_| pair.reset()>"Reset"</button>
                <button on:click=move |_| pair.back() aria-label="Step back" title="Step back: both runs, to the time before">"◀"</button>
                <button class="play" id="play" on:click=move |_| pair.toggle_play()>{move || if pair.playing.get() { "Pause" } else { "Play" }}</button>
                <button on:click=move |_| pair.step() aria-label="Step forward" title="Step forward: both runs, to the next time either has an event">"▶"</button>
            </div>
            <div class="clock">
                <span class="time mono">{move || format!("t = {}", secs(now()))}</span>
                <span class="mono">{move || format!("Frame {} · {}", a.snap.with(|s| s.position), b.snap.with(|s| s.position))}</span>
            </div>
        </section>
    }
}

/// One run's region: its settings, its compact panels, its timeline with the parting marked, its caption.
#[component]
fn RunColumn(
    ui: Ui,
    name: &'static str,
    label: String,
    parting: StoredValue<Option<Divergence>>,
    end_ms: u64,
    now: Signal<u64>,
) -> impl IntoView {
    let snap = ui.snap;
    let expectations = ui.session.with_untracked(|s| s.scenario().controller.expectations());
    let mark = parting.with_value(|p| p.as_ref().map(|d| d.at_ms));
    let at = move || super::panels::percent(now.get() as f64 / end_ms as f64);
    let caption = move || snap.with(|s| s.caption.clone());
    view! {
        <section class="run" aria-label=name>
            <header>
                <h2>{name}</h2>
                <span class="run-settings">{label}</span>
                // Both runs are shown at the same simulated time: each as its last frame at or before it.
                <span class="run-clock mono">{move || format!("t = {} · frame {}", secs(now.get()), snap.with(|s| s.position))}</span>
            </header>
            <div class="run-panels" class:with-expectations=expectations>
                <StorePanel side=Side::Cluster />
                <StorePanel side=Side::Cache />
                {expectations.then(|| view! { <ExpectationsPanel /> })}
            </div>
            <div
                class="run-line"
                role="img"
                aria-label=move || match mark {
                    Some(m) => format!("{name} at {} of {}; the runs part at {}", secs(now.get()), secs(end_ms), secs(m)),
                    None => format!("{name} at {} of {}", secs(now.get()), secs(end_ms)),
                }
            >
                <span class="run-now" style:left=at></span>
                {mark.map(|m| view! { <span class="run-parting" style:left=super::panels::percent(m as f64 / end_ms as f64)>"⚑"</span> })}
            </div>
            <p class="run-caption" tabindex="0">{caption}</p>
        </section>
    }
}

/// The lab's figures for both runs, now.
#[component]
fn SideBySide(pair: Pair) -> impl IntoView {
    let kind = pair.a.session.with_untracked(|s| tracked_kind(s.scenario().controller.kind));
    let figures = move |ui: Ui| -> Figures {
        ui.snap.track();
        ui.session.with_untracked(vc::session_figures)
    };
    let row = move |name: &'static str, ui: Ui| {
        // Measured once per move of the run, for all six cells.
        let f = Memo::new(move |_| figures(ui));
        let f = move || f.get();
        view! {
            <tr>
                <th scope="row">{name}</th>
                <td>{move || f().live}</td>
                <td>{move || f().peak}</td>
                <td>{move || f().creates_201}</td>
                <td>{move || f().creates_409}</td>
                <td>{move || f().deletes}</td>
                <td>{move || { let b = f().broken; if b.is_empty() { "none".to_string() } else { b.join(", ") } }}</td>
            </tr>
        }
    };
    view! {
        <section class="side-by-side" aria-label="Side by side" tabindex="0">
            <table>
                <caption class="sr-only">"The lab's figures for both runs at the current time"</caption>
                <thead>
                    <tr>
                        <th scope="col">""</th>
                        <th scope="col">{format!("{} live", kind_plural(kind))}</th>
                        <th scope="col">"peak"</th>
                        <th scope="col">"creates 201"</th>
                        <th scope="col">"creates 409"</th>
                        <th scope="col">"deletes"</th>
                        <th scope="col">"invariants broken"</th>
                    </tr>
                </thead>
                <tbody>
                    {row("Run A", pair.a)}
                    {row("Run B", pair.b)}
                </tbody>
            </table>
        </section>
    }
}
