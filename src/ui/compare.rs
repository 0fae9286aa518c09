//! Two runs side by side (`compare=` in the URL): Run A, the scenario as the
//! page has it, and Run B with the settings `compare=` names, each in its
//! own region with compact panels (Cluster and Cache, Expectations), moved
//! by one transport in simulated time ([`crate::view::compare`]), the lab's
//! figures tabled for both ("Side by side"), and the request at which their
//! audit logs part marked on both and said in the caption once reached.
//! Both runs are computed to their ends first, in slices of the main thread
//! with their progress and a Stop (a run at the limits is tens of thousands
//! of frames); a host page's commands drive both, and its `frame` messages
//! carry both.

use super::bridge::post_to_parent;
use super::panels::{ExpectationsPanel, Side, StorePanel};
use super::state::{clock_ms, use_ui, Ui, SLICE_MS};
use crate::narrate::compare as words;
use crate::narrate::units::{kind_plural, secs};
use crate::view::compare::{self as vc, Divergence, Figures};
use crate::view::host;
use crate::view::url::PageState;
use leptos::context::Provider;
use leptos::prelude::*;

/// The two runs, B made from A's scenario with `vs`.
#[derive(Clone, Copy)]
struct Pair {
    a: Ui,
    b: Ui,
    /// Where the audit logs part, once both runs are computed (or stopped).
    parting: RwSignal<Option<Divergence>>,
    /// While both runs are computed: the frames each has so far.
    computing: RwSignal<Option<(usize, usize)>>,
    /// Stopped before both ends were known.
    stopped: RwSignal<bool>,
    /// A host page's command that came while both were computed.
    waiting: StoredValue<Option<host::Command>, LocalStorage>,
    playing: RwSignal<bool>,
    clock: StoredValue<Option<(f64, f64)>>,
}

impl Pair {
    /// One slice of computing both runs to their ends: at most
    /// [`SLICE_MS`] of the main thread, then the page breathes, and on.
    fn compute_slice(self) {
        if self.computing.try_get_untracked().flatten().is_none() {
            return;
        }
        // Half a slice each, so neither waits on the other.
        for ui in [self.a, self.b] {
            let started = clock_ms();
            ui.session.update_untracked(|s| {
                if !s.end_known() {
                    s.look_ahead(&mut |n| n % 16 != 0 || clock_ms() - started < SLICE_MS / 2.0);
                }
            });
        }
        let known = |ui: Ui| ui.session.with_untracked(|s| (s.frames().len(), s.end_known()));
        let ((ka, ea), (kb, eb)) = (known(self.a), known(self.b));
        if ea && eb {
            self.computed();
        } else {
            self.computing.set(Some((ka, kb)));
            set_timeout(move || self.compute_slice(), std::time::Duration::from_millis(0));
        }
    }

    /// Stop computing: compare what is known; the focus, which was on
    /// Stop, goes to Play.
    fn stop(self) {
        self.stopped.set(true);
        self.computed();
        request_animation_frame(|| {
            if let Some(play) =
                document().get_element_by_id("play").and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
            {
                let _ = play.focus();
            }
        });
    }

    /// Both runs computed (or stopped): each at frame 0, the parting found.
    fn computed(self) {
        for ui in [self.a, self.b] {
            ui.session.update(|s| {
                s.seek(0);
            });
            let (known, ended) = ui.session.with_untracked(|s| (s.frames().len(), s.end_known()));
            ui.known.set(known);
            ui.ended.set(ended);
            ui.settle();
        }
        let parting =
            self.a.session.with_untracked(|sa| self.b.session.with_untracked(|sb| vc::first_divergence(sa.frames(), sb.frames())));
        self.parting.set(parting);
        self.computing.set(None);
        if let Some(command) = self.waiting.try_update_value(Option::take).flatten() {
            self.obey(command);
        }
    }

    fn ready(&self) -> bool {
        self.computing.with_untracked(Option::is_none)
    }

    /// A host page's command, for both runs; one that comes while both are
    /// computed waits for them (the last such), as the transport's buttons do.
    fn obey(self, command: host::Command) {
        if !self.ready() {
            self.waiting.set_value(Some(command));
            return;
        }
        match command {
            host::Command::Play if !self.playing.get_untracked() => self.toggle_play(),
            host::Command::Play => {}
            host::Command::Pause => self.pause(),
            host::Command::Step => self.step(),
            host::Command::Back => self.back(),
            host::Command::Reset => self.reset(),
            host::Command::Seek(n) => {
                // Run A's frame n, and Run B at the same simulated time.
                self.pause();
                self.both(|a, b| vc::seek_frame_of_a(a, b, n));
            }
            host::Command::Load(_) => self.a.notice.set(crate::ui::notice::Notice::say(words::LOAD_IGNORED)),
        }
    }

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
        if !self.ready() {
            return;
        }
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
    a.region_of.set_value("Run A: ");
    b.region_of.set_value("Run B: ");
    let pair = Pair {
        a,
        b,
        parting: RwSignal::new(None),
        computing: RwSignal::new(Some((0, 0))),
        stopped: RwSignal::new(false),
        waiting: StoredValue::new_local(None),
        playing: RwSignal::new(false),
        clock: StoredValue::new(None),
    };
    // Both runs whole (the parting and the figures need their ends), in slices, from frame 0.
    a.obey_both.set_value(Some(Callback::new(move |command| pair.obey(command))));
    set_timeout(move || pair.compute_slice(), std::time::Duration::from_millis(0));
    let a_label = words::settings(&state.settings);
    let b_label = words::settings(&vs);
    // The later of the two runs' last frames: where both time lines end.
    let end_ms = Memo::new(move |_| {
        pair.parting.track();
        [a, b].iter().filter_map(|u| u.session.with_untracked(|s| s.frames().last().map(|f| f.at_ms))).max().unwrap_or(0).max(1)
    });
    let now = move || a.snap.with(|s| s.now_ms).max(b.snap.with(|s| s.now_ms));
    let parted = move || pair.parting.with(|p| p.as_ref().is_some_and(|d| now() >= d.at_ms));
    // Where the runs part, said once they have reached it; before, where it is marked.
    let said = move || {
        if let Some((ka, kb)) = pair.computing.get() {
            return words::computing(ka, kb);
        }
        let stopped = pair.stopped.get().then(|| {
            let known = |ui: Ui| ui.session.with_untracked(|s| s.frames().len());
            words::stopped(known(a), known(b))
        });
        let stopped_early = pair.stopped.get();
        let parting = pair.parting.with(|p| {
            p.as_ref().map_or_else(
                || if stopped_early { words::SAME_SO_FAR } else { words::SAME }.to_string(),
                |d| {
                    if now() >= d.at_ms {
                        words::divergence(d.at_ms, d.frame_a, d.frame_b, d.a.as_ref(), d.b.as_ref())
                    } else {
                        words::BEFORE_PARTING.to_string()
                    }
                },
            )
        });
        stopped.map_or(parting.clone(), |s| format!("{s} {parting}"))
    };
    // A host page follows both runs.
    if super::bridge::embedded() {
        Effect::new(move |_| {
            let at = |ui: Ui| {
                let last = ui.ended.get().then(|| ui.known.get());
                ui.snap.with(|s| (s.position, s.now_ms, last, s.invariants.clone()))
            };
            let ((fa, ta, la, ia), (fb, tb, lb, ib)) = (at(a), at(b));
            let text = host::frame_pair(
                host::RunAt { frame: fa, time_ms: ta, last_frame: la, invariants: &ia },
                host::RunAt { frame: fb, time_ms: tb, last_frame: lb, invariants: &ib },
            );
            post_to_parent(a, &text);
        });
    }
    let ready = move || pair.computing.with(Option::is_none);
    view! {
        <div class="compare">
            // Each run's panels read their own run: a context of its own, under a child owner.
            <Provider value=a><RunColumn ui=a name="Run A" label=a_label parting=pair.parting end_ms now=Signal::derive(now) /></Provider>
            <Provider value=b><RunColumn ui=b name="Run B" label=b_label parting=pair.parting end_ms now=Signal::derive(now) /></Provider>
        </div>
        <div class="compare-below">
            <SideBySide pair />
            <section class="caption-region compare-caption" aria-label="Caption">
                <p class="caption" class:broke=parted tabindex="0">{said}</p>
                <div class="sr-only" aria-live="polite">{move || parted().then(said)}</div>
            </section>
        </div>
        <section class="transport" aria-label="Transport">
            <div class="buttons">
                <button on:click=move |_| pair.reset() disabled=move || !ready()>"Reset"</button>
                <button on:click=move |_| pair.back() disabled=move || !ready() aria-label="Step back" title="Step back: both runs, to the time before">"◀"</button>
                <button class="play" id="play" on:click=move |_| pair.toggle_play() disabled=move || !ready()>{move || if pair.playing.get() { "Pause" } else { "Play" }}</button>
                <button on:click=move |_| pair.step() disabled=move || !ready() aria-label="Step forward" title="Step forward: both runs, to the next time either has an event">"▶"</button>
            </div>
            {move || match pair.computing.get() {
                Some((ka, kb)) => leptos::either::Either::Left(view! {
                    <div class="clock computing" role="status">
                        <span class="mono">{words::computing_short(ka, kb)}</span>
                        <button class="stop" on:click=move |_| pair.stop()>"Stop"</button>
                    </div>
                }),
                None => leptos::either::Either::Right(view! {
                    <div class="clock">
                        <span class="time mono">{move || format!("t = {}", secs(now()))}</span>
                        <span class="mono">{move || format!("Frame {} · {}", a.snap.with(|s| s.position), b.snap.with(|s| s.position))}</span>
                    </div>
                }),
            }}
        </section>
    }
}

/// One run's region: its settings, its compact panels, its timeline with the parting marked, its caption.
#[component]
fn RunColumn(
    ui: Ui,
    name: &'static str,
    label: String,
    parting: RwSignal<Option<Divergence>>,
    end_ms: Memo<u64>,
    now: Signal<u64>,
) -> impl IntoView {
    let snap = ui.snap;
    let expectations = ui.session.with_untracked(|s| s.scenario().controller.expectations());
    let mark = move || parting.with(|p| p.as_ref().map(|d| d.at_ms));
    let at = move || super::panels::percent(now.get() as f64 / end_ms.get() as f64);
    // At frame 0 not the preset's first line: it asks for the change Run B has, with settings this view hides.
    let caption = move || snap.with(|s| if s.position == 0 { words::AT_START.to_string() } else { s.caption.clone() });
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
                aria-label=move || match mark() {
                    Some(m) => format!("{name} at {} of {}; the runs part at {}", secs(now.get()), secs(end_ms.get()), secs(m)),
                    None => format!("{name} at {} of {}", secs(now.get()), secs(end_ms.get())),
                }
            >
                <span class="run-now" style:left=at></span>
                {move || mark().map(|m| view! { <span class="run-parting" style:left=super::panels::percent(m as f64 / end_ms.get() as f64)>"⚑"</span> })}
            </div>
            <p class="run-caption" tabindex="0">{caption}</p>
        </section>
    }
}

/// The lab's figures for both runs, now.
#[component]
fn SideBySide(pair: Pair) -> impl IntoView {
    let kind = pair.a.session.with_untracked(|s| s.scenario().controller.spec().child);
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
                    // Each heading whole, and short where the table is narrow (a phone); a screen reader reads it whole.
                    <tr>
                        <th scope="col">""</th>
                        {[
                            (format!("{} live", kind_plural(kind)), "live"),
                            ("peak".to_string(), "peak"),
                            ("creates 201".to_string(), "201"),
                            ("creates 409".to_string(), "409"),
                            ("deletes".to_string(), "del."),
                            ("invariants broken".to_string(), "broken"),
                        ]
                        .into_iter()
                        .map(|(long, short)| view! {
                            <th scope="col"><span class="long">{long}</span><span class="short" aria-hidden="true">{short}</span></th>
                        })
                        .collect_view()}
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
