//! The Leptos face of cachescope (wasm32 only).
//!
//! One signal holds the [`Session`] (a plain model: the scenario, its history
//! and the changes made along the way); every panel renders plain view values
//! computed from it by [`crate::view`]. Playback is a `requestAnimationFrame`
//! loop that moves an animation clock forward and steps the session up to it;
//! events on the wire are drawn at that clock, so a longer lag is visibly a
//! longer trip. The page's whole state is mirrored into its URL.

mod controls;
mod find;
mod panels;
mod popover;
mod share;

use crate::scenario::{preset, Scenario};
use crate::view::host;
use crate::view::panels as pv;
use crate::view::session::{Change, Session};
use crate::view::snapshot::{snapshot, Snapshot};
use crate::view::url::{self, ControlsMode, Layout, PageState, PanelId};
use leptos::either::Either;
use leptos::ev;
use leptos::prelude::*;

pub use controls::{Controls, ScenarioPicker, Transport};
pub use find::{serve_in_worker, FindBug};
pub use panels::{
    AboutRun, AboutScenario, CachePanel, ClusterPanel, ExpectationsPanel, InvariantsPanel, Observations, ReconcilePanel, SpaceTimePanel,
    TimelinePanel, WatchPanel, WorkqueuePanel,
};
pub use share::ShareBar;

/// The preset a bare URL opens.
pub const DEFAULT_PRESET: &str = "over-create";

/// Frames computed ahead of the position in the background, so the scrubber
/// covers the run; bigger runs extend as they play (or as a seek computes them).
const LOOKAHEAD_FRAMES: usize = 50_000;

/// What the last change did, said in the caption bar. A plain notice goes
/// by itself; one with an action stays until it is used or dismissed.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub text: String,
    pub action: Option<NoticeAction>,
}

/// What a notice offers beside its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeAction {
    /// A setting changed at a frame: make that change from frame 0 instead.
    ApplyFromStart(&'static str),
}

impl Notice {
    /// A notice that only says something (and goes by itself).
    pub fn say(text: impl Into<String>) -> Option<Notice> {
        Some(Notice { text: text.into(), action: None })
    }
}

/// How long a notice without an action stays, in ms.
const NOTICE_MS: u32 = 7_000;

/// The most main-thread time one slice of long work takes (computing frames,
/// hashing the trace), in ms: then it yields, so the page never blocks for
/// long whatever the scenario asks, and a seek far ahead shows its progress
/// and can be stopped.
const SLICE_MS: f64 = 30.0;

/// The page's clock, for timing slices (the simulation never reads it).
fn clock_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// A seek to a frame not computed yet: computed in slices, with its progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Computing {
    /// The frame the seek goes to, and the frames known so far.
    pub target: usize,
    pub done: usize,
    /// The URL's `frame=`: past the end, the banner says so.
    from_url: bool,
}

/// The page's reactive state: a few signals over plain values. `Copy`, so
/// every handler and component can hold it.
#[derive(Clone, Copy)]
pub struct Ui {
    /// The model. Local storage: it shares objects behind `Rc`, which is not `Send`.
    pub session: RwSignal<Session, LocalStorage>,
    /// The preset's name, or `None` for a scenario given whole.
    pub preset: RwSignal<Option<String>>,
    /// `scenario=` JSON, for a custom scenario.
    pub custom: StoredValue<Option<String>>,
    /// Settings from frame 0, as the URL carries them.
    pub settings: RwSignal<Vec<(String, String)>>,
    pub playing: RwSignal<bool>,
    /// The speed slider's step: the speed is 10^(step/20) simulated seconds per second.
    pub speed_step: RwSignal<i32>,
    /// The animation clock: never behind the current frame's time.
    pub display_ms: RwSignal<u64>,
    /// Frames known (the scrubber's range).
    pub known: RwSignal<usize>,
    /// The run has no more frames after `known`.
    pub ended: RwSignal<bool>,
    /// What the last change did: the notice in the caption bar.
    pub notice: RwSignal<Option<Notice>>,
    /// The live region's text: the caption of each manual step.
    pub narration: RwSignal<String>,
    pub help_open: RwSignal<bool>,
    /// The learner asked to see the lab's figures before the run's end.
    pub expected_shown: RwSignal<bool>,
    pub embed: RwSignal<bool>,
    /// What the URL asked for that could not be honoured: the banner.
    pub problems: RwSignal<Vec<String>>,
    /// The URL's layout options, kept so the URL keeps them.
    pub layout: StoredValue<Layout>,
    pub reduced_motion: StoredValue<bool>,
    last_tick: StoredValue<Option<f64>>,
    /// Invariants broken so far in playback, so each break is announced once.
    announced_breaks: StoredValue<usize>,
    /// Feedback from Share, Embed, import and export, shown beside those buttons.
    pub share_note: RwSignal<Option<share::Note>>,
    /// The frame the pointer rests on in the audit log or the Space-time view:
    /// each lights what the other draws for it.
    pub pointed: RwSignal<Option<usize>>,
    /// A seek being computed in slices (the transport shows it, with Stop).
    pub computing: RwSignal<Option<Computing>>,
    /// The run's trace hash, once its end is known and every frame hashed.
    pub trace_hash: RwSignal<Option<String>>,
    /// The look-ahead is running (one chain of slices at a time).
    looking: StoredValue<bool>,
    /// The URL's `frame=`, when it is past the frames computed at start.
    pending_frame: StoredValue<Option<usize>>,
    /// Counts moves of the page: a seek's slices go on only while it is theirs.
    seek_generation: StoredValue<u64>,
    /// Everything the panels draw for the current frame: one memo for all of them.
    pub snap: Memo<Snapshot>,
    /// The wires at the animation clock.
    pub wires: Memo<Vec<pv::Wire>>,
}

/// The `Ui` provided by the explorer.
pub fn use_ui() -> Ui {
    expect_context::<Ui>()
}

impl Ui {
    pub fn new(state: PageState) -> Ui {
        // The scenario as written, before the URL's settings: what "the lab's settings" are.
        let base = match (&state.preset, &state.custom) {
            (Some(name), _) => preset(name).ok(),
            (None, Some(json)) => Scenario::from_json(json).ok(),
            (None, None) => None,
        }
        .unwrap_or_else(|| state.scenario.clone());
        let mut session = Session::with_edits(state.scenario.clone(), &state.edits).with_base(base);
        if let Some(show) = state.gc_steps {
            session.set_hide_gc(!show);
        }
        // The URL's frame, as far as a slice of work reaches; the rest is computed in slices.
        let started = clock_ms();
        let known = session.frames().len();
        if state.frame > known {
            // Half a slice: this runs in the page's first task, with its start-up.
            session.look_ahead(&mut |n| known + n < state.frame && (n % 16 != 0 || clock_ms() - started < SLICE_MS / 2.0));
        }
        let pending_frame = (state.frame > session.frames().len() && !session.end_known()).then_some(state.frame);
        session.seek(state.frame.min(session.frames().len()));
        session.probe_end();
        let mut problems = Vec::new();
        if pending_frame.is_none() && session.position() < state.frame {
            problems.push(format!(
                "URL parameter frame: {} is past the end of the run, which has {} frames; showing the last",
                state.frame,
                session.position()
            ));
        }
        for (edit, at) in session.moved_edits() {
            problems
                .push(format!("URL parameter edit: {edit} is past the end of the run, which has {at} frames; it was made at frame {at}"));
        }
        let display = session.world().now_ms();
        let known = session.frames().len();
        let session = RwSignal::new_local(session);
        let display_ms = RwSignal::new(display);
        let snap = Memo::new(move |_| session.with(snapshot));
        let wires = Memo::new(move |_| {
            let at = display_ms.get();
            session.with(|s| pv::wires(s.world(), false, at))
        });
        let reduced = window().match_media("(prefers-reduced-motion: reduce)").ok().flatten().is_some_and(|m| m.matches());
        Ui {
            session,
            preset: RwSignal::new(state.preset),
            custom: StoredValue::new(state.custom),
            settings: RwSignal::new(state.settings),
            playing: RwSignal::new(false),
            speed_step: RwSignal::new(url::step_of_speed(state.speed)),
            display_ms,
            known: RwSignal::new(known),
            ended: RwSignal::new(false),
            notice: RwSignal::new(None),
            narration: RwSignal::new(String::new()),
            help_open: RwSignal::new(false),
            expected_shown: RwSignal::new(false),
            embed: RwSignal::new(state.embed),
            problems: RwSignal::new(problems),
            layout: StoredValue::new(state.layout),
            reduced_motion: StoredValue::new(reduced),
            last_tick: StoredValue::new(None),
            announced_breaks: StoredValue::new(0),
            share_note: RwSignal::new(None),
            pointed: RwSignal::new(None),
            computing: RwSignal::new(None),
            trace_hash: RwSignal::new(None),
            looking: StoredValue::new(false),
            pending_frame: StoredValue::new(pending_frame),
            seek_generation: StoredValue::new(0),
            snap,
            wires,
        }
    }

    /// The page shows the run's last frame, and knows it is the last
    /// (however it got there: played, stepped, or sought past the end).
    pub fn at_run_end(&self) -> bool {
        self.session.with(|s| s.at_end()) || self.ended.get() && self.snap.with(|s| s.position) >= self.known.get()
    }

    pub fn speed(&self) -> f64 {
        url::speed_of_step(self.speed_step.get_untracked())
    }

    /// The speed is at the top of the slider: draw the latest frame, no animation.
    pub fn at_top_speed(&self) -> bool {
        self.speed_step.get_untracked() >= url::MAX_SPEED_STEP
    }

    /// `known` grows to `n`, notifying its readers only when it does: playback
    /// calls this every painted frame, and most frames are already known.
    fn raise_known(&self, n: usize) {
        self.known.maybe_update(|k| {
            let grew = n > *k;
            *k = (*k).max(n);
            grew
        });
    }

    /// After any move by hand: the clock snaps to the frame and the caption is narrated.
    fn settle(&self) {
        let (now, caption, known, broken, ended, hash) = self.session.with_untracked(|s| {
            let broken = s.world().invariants.list.iter().filter(|i| !i.held()).count();
            (s.world().now_ms(), pv::session_caption(s), s.frames().len(), broken, s.end_known(), s.trace_hash())
        });
        self.display_ms.set(now);
        self.raise_known(known);
        // The end is known where it is reached, however the learner got there.
        self.ended.maybe_update(|e| std::mem::replace(e, ended) != ended);
        self.trace_hash.maybe_update(|h| std::mem::replace(h, hash.clone()) != hash);
        self.narration.set(caption);
        self.announced_breaks.set_value(broken);
        // Once the end is known, the trace is hashed in the background ("About this run").
        if ended && hash.is_none() && !self.playing.get_untracked() {
            self.look_ahead();
        }
    }

    /// Stop playing, and any seek still being computed.
    pub fn pause(&self) {
        self.playing.set(false);
        self.seek_generation.update_value(|g| *g += 1);
        if self.computing.get_untracked().is_some() {
            self.computing.set(None);
        }
    }

    pub fn step_forward(&self) {
        self.pause();
        self.session.update(|s| {
            s.step_forward_shown();
            // At the last frame known: is it the run's last? Known here, not one step later.
            s.probe_end();
        });
        self.settle();
    }

    /// One step back: one seek (replayed in slices from a checkpoint), past
    /// the frames that are hidden.
    pub fn step_back(&self) {
        let target = self.session.with_untracked(Session::back_shown_target);
        self.seek(target);
    }

    /// Show or hide the garbage collector's own cache deliveries when stepping.
    pub fn set_hide_gc(&self, hide: bool) {
        self.session.update(|s| s.set_hide_gc(hide));
        self.notice.set(Notice::say(if hide {
            "Garbage collector steps hidden: stepping skips its own cache deliveries.".to_string()
        } else {
            "Garbage collector steps shown: stepping stops at each delivery to its cache too.".to_string()
        }));
    }

    pub fn step_to_next_reconcile(&self) {
        self.pause();
        self.session.update(|s| {
            s.step_to_next_reconcile();
        });
        self.settle();
    }

    /// Back to frame 0, with the learner's settings: a setting changed at a
    /// frame is made from the start ("Back to the preset" restores the lab's).
    pub fn reset(&self) {
        if self.session.with_untracked(|s| s.knob_edits().next().is_some()) {
            self.move_to_start(None, "Frame 0, with your settings from the start; Back to the preset restores the lab's.", false);
            return;
        }
        self.pause();
        self.session.update(|s| {
            s.seek(0);
        });
        self.notice.set(None);
        self.settle();
    }

    /// Go to frame `n`. Frames not computed yet are computed in slices of
    /// [`SLICE_MS`] (the first one at once, so a near frame is reached in
    /// this call), with the progress in the transport and a Stop.
    pub fn seek(&self, n: usize) {
        self.seek_to(n, false);
    }

    fn seek_to(&self, n: usize, from_url: bool) {
        self.pause();
        let target = n.min(crate::view::session::MAX_FRAMES);
        let done = self.session.with_untracked(|s| s.frames().len());
        self.compute_slice(Computing { target, done, from_url }, self.seek_generation.get_value());
    }

    /// One slice of a seek: compute frames towards its target for at most
    /// [`SLICE_MS`]; there, go to it; else show how far it got, yield, and
    /// go on (unless something else moved the page since: a new generation).
    fn compute_slice(&self, c: Computing, generation: u64) {
        if self.seek_generation.try_get_value() != Some(generation) {
            return;
        }
        let started = clock_ms();
        let (known, ended) = self.session.with_untracked(|s| (s.frames().len(), s.end_known()));
        if known < c.target && !ended {
            self.session.update_untracked(|s| {
                s.look_ahead(&mut |n| known + n < c.target && (n % 16 != 0 || clock_ms() - started < SLICE_MS));
            });
        }
        let (known, ended) = self.session.with_untracked(|s| (s.frames().len(), s.end_known()));
        self.raise_known(known);
        // Computed that far: replay to it from the nearest checkpoint, in slices too.
        let mut there = false;
        if known >= c.target || ended {
            self.session.update_untracked(|s| there = s.seek_toward(c.target.min(known), &mut || clock_ms() - started < SLICE_MS));
        }
        if there {
            if self.computing.get_untracked().is_some() {
                self.computing.set(None);
            }
            self.session.update(|s| s.probe_end());
            let position = self.session.with_untracked(|s| s.position());
            if c.from_url && position < c.target {
                self.problems.update(|p| {
                    p.push(format!(
                        "URL parameter frame: {} is past the end of the run, which has {position} frames; showing the last",
                        c.target
                    ))
                });
            }
            self.settle();
            return;
        }
        // How far it got: frames computed, or (replaying) the frame it has reached.
        let done = if known >= c.target || ended { self.session.with_untracked(|s| s.position()) } else { known };
        let c = Computing { done, ..c };
        self.computing.set(Some(c));
        let ui = *self;
        set_timeout(move || ui.compute_slice(c, generation), std::time::Duration::from_millis(0));
    }

    /// Stop a seek being computed: go as far as it got.
    pub fn stop_computing(&self) {
        let Some(c) = self.computing.get_untracked() else { return };
        self.pause();
        let reached = self.session.with_untracked(|s| s.frames().len()).min(c.target);
        self.session.update(|s| {
            s.seek(reached);
        });
        self.notice.set(Notice::say(format!(
            "Stopped computing at frame {reached} of {}: the frames computed so far are kept; seek again to go on.",
            c.target
        )));
        self.settle();
    }

    pub fn toggle_play(&self) {
        if self.playing.get_untracked() {
            self.pause();
            self.settle();
        } else {
            if self.session.with_untracked(|s| s.at_end()) {
                self.session.update(|s| {
                    s.seek(0);
                });
                self.settle();
            }
            self.last_tick.set_value(None);
            self.playing.set(true);
            self.schedule_tick();
        }
    }

    /// Make a change at the current frame; the frames after it are recomputed.
    /// A setting changed at the run's end can no longer act there: it is the
    /// learner's next run, made from frame 0 and played ("change one line and
    /// run it again"). One changed mid-run forks the run there, and the notice
    /// offers to make it from the start instead.
    pub fn apply(&self, change: Change, what: &str) {
        let (frame, at_end) = self.session.with_untracked(|s| (s.position(), s.at_end()));
        if let (Change::Knob(knob), true) = (change, at_end && frame > 0) {
            self.session.update_untracked(|s| s.apply(change));
            self.move_to_start(Some(knob.path), &format!("{what} from the start: the run is replayed."), true);
            return;
        }
        let had_future = self.session.with_untracked(|s| s.frames().len() > s.position());
        self.session.update(|s| s.apply(change));
        self.known.set(self.session.with_untracked(|s| s.frames().len()));
        self.ended.set(false);
        let notice = match change {
            Change::Knob(knob) if frame > 0 => Some(Notice {
                text: format!("{what} from frame {frame} on: the frames before it are as they were."),
                action: Some(NoticeAction::ApplyFromStart(knob.path)),
            }),
            _ if had_future => Notice::say(format!("{what} at frame {frame}: the frames after it are recomputed from here.")),
            _ => Notice::say(format!("{what} at frame {frame}.")),
        };
        self.notice.set(notice);
        self.settle();
        self.look_ahead();
    }

    /// The learner's setting changes made from frame 0 instead of where they
    /// were made (`only`: one setting's), the run recomputed, and played if `play`.
    fn move_to_start(&self, only: Option<&str>, said: &str, play: bool) {
        self.pause();
        match self.session.with_untracked(|s| s.knobs_from_start(only)) {
            Ok((session, moved)) => {
                self.settings.update(|v| {
                    for (path, value) in &moved {
                        v.retain(|(k, _)| k != path);
                        v.push((path.clone(), value.clone()));
                    }
                });
                self.session.set(session);
                self.known.set(0);
                self.ended.set(false);
                self.notice.set(Notice::say(said));
                self.settle();
                if play {
                    self.toggle_play();
                } else {
                    self.look_ahead();
                }
            }
            Err(e) => self.notice.set(Notice::say(e.to_string())),
        }
    }

    /// "Apply from the start": the notice's action for a setting changed mid-run.
    pub fn apply_from_start(&self, path: &'static str) {
        self.move_to_start(Some(path), &format!("{path} from the start: the run is replayed."), true);
    }

    /// The preset this run comes from: the one chosen, or the one a found bug
    /// or a hands-on choice turned into a scenario of its own (it keeps its name).
    pub fn origin_preset(&self) -> Option<String> {
        self.preset.get().or_else(|| {
            let name = self.session.with(|s| s.scenario().name.clone());
            crate::scenario::preset_names().contains(&name.as_str()).then_some(name)
        })
    }

    /// "Back to the preset": its own settings, none of the learner's, frame 0.
    pub fn back_to_preset(&self) {
        if let Some(name) = self.origin_preset() {
            self.load_preset(&name);
            self.notice.set(Notice::say(format!("Back to {name} as the lab wrote it.")));
        }
    }

    /// The learner's hands on a watch event in flight (the Watch panel's
    /// buttons): the choice joins the scenario's schedule, the run is
    /// recomputed from frame 0 on it (every frame so far stays the same) and
    /// the page comes back to this frame; the URL then carries the scenario.
    pub fn choose_wire(&self, kind: crate::sim::object::Kind, nth: u32, choice: crate::view::hands::WireChoice, what: &str) {
        self.pause();
        let chosen = self.session.with_untracked(|s| crate::view::hands::choose(s.scenario(), s.world(), kind, nth, choice));
        self.adopt(chosen, &choice.done(what));
    }

    /// The learner's choice of the idle worker that takes the next key (the
    /// Workqueue panel's buttons), as [`Ui::choose_wire`] does it.
    pub fn choose_worker(&self, worker: u32, key: &str) {
        self.pause();
        let chosen = self.session.with_untracked(|s| crate::view::hands::choose_worker(s.scenario(), s.world(), worker));
        self.adopt(chosen, &format!("Worker {worker} takes {key} next"));
    }

    /// Play on `chosen`, the scenario with a choice made at this frame.
    fn adopt(&self, chosen: Result<Scenario, crate::scenario::ScenarioError>, done: &str) {
        let position = self.session.with_untracked(|s| s.position());
        match chosen {
            Ok(scenario) => {
                // Before the signals below: the URL mirror reads it when they settle.
                self.custom.set_value(Some(scenario.to_value().to_string()));
                self.preset.set(None);
                self.settings.set(Vec::new());
                // Recomputed from frame 0 in slices, back to this frame (every frame before it is the same).
                let rebuilt = self.session.with_untracked(|s| s.rebuilt(scenario.clone())).with_base(scenario);
                self.session.set(rebuilt);
                self.known.set(0);
                self.ended.set(false);
                self.trace_hash.set(None);
                self.notice.set(Notice::say(format!(
                    "{done} (at frame {position}). The run's schedule holds it, so the link and an exported scenario carry it."
                )));
                self.seek(position);
                self.look_ahead();
                return;
            }
            Err(e) => self.notice.set(Notice::say(e.to_string())),
        }
        self.settle();
    }

    /// A setting that only matters when the controller starts: the run is
    /// rebuilt from frame 0 with it.
    pub fn restart_with(&self, path: &str, value: &str, what: &str) {
        self.pause();
        let base = self.session.with_untracked(|s| s.scenario().clone());
        match base.with_settings([(path, value)]) {
            Ok(scenario) => {
                self.settings.update(|v| {
                    v.retain(|(k, _)| k != path);
                    v.push((path.to_string(), value.to_string()));
                });
                let rebuilt = self.session.with_untracked(|s| s.rebuilt(scenario));
                self.session.set(rebuilt);
                self.known.set(0);
                self.ended.set(false);
                self.notice
                    .set(Notice::say(format!("{what}: this matters when the controller starts, so the run was recomputed from frame 0.")));
            }
            Err(e) => self.notice.set(Notice::say(e.to_string())),
        }
        self.settle();
        self.look_ahead();
    }

    /// Open another scenario from the start: a preset by name, or a scenario
    /// given whole (imported, or sent by the host page) whose document the URL
    /// then carries as `custom`.
    pub fn load(&self, scenario: Scenario, preset_name: Option<String>, custom: Option<String>) {
        self.pause();
        // Before the signals below: the URL mirror reads it when they settle.
        self.custom.set_value(custom);
        self.preset.set(preset_name);
        self.settings.set(Vec::new());
        self.session.set(Session::new(scenario));
        self.known.set(0);
        self.ended.set(false);
        self.notice.set(None);
        self.expected_shown.set(false);
        self.settle();
        self.look_ahead();
    }

    /// Obey a host page's command ([`crate::view::host`]).
    pub fn obey(&self, command: host::Command) {
        match command {
            host::Command::Play => {
                if !self.playing.get_untracked() {
                    self.toggle_play();
                }
            }
            host::Command::Pause => {
                self.pause();
                self.settle();
            }
            host::Command::Step => self.step_forward(),
            host::Command::Back => self.step_back(),
            host::Command::Reset => self.reset(),
            host::Command::Seek(n) => self.seek(n),
            host::Command::Load(scenario) => {
                let json = scenario.to_value().to_string();
                self.load(*scenario, None, Some(json));
            }
        }
    }

    pub fn load_preset(&self, name: &str) {
        match preset(name) {
            Ok(s) => self.load(s, Some(name.to_string()), None),
            Err(e) => self.notice.set(Notice::say(e.to_string())),
        }
    }

    /// Compute frames ahead of the position in slices of at most
    /// [`SLICE_MS`], so the scrubber covers the run without delaying the
    /// first paint or the input: up to [`LOOKAHEAD_FRAMES`], and always one
    /// past the position (so the end is known where it is reached); then,
    /// once the end is known, hash the trace for "About this run", in
    /// slices too. One chain of slices at a time.
    pub fn look_ahead(&self) {
        if self.looking.try_get_value().is_none_or(|l| l) {
            return;
        }
        self.looking.set_value(true);
        let ui = *self;
        set_timeout(move || ui.look_ahead_slice(), std::time::Duration::from_millis(0));
    }

    fn look_ahead_slice(&self) {
        // The page may have been unmounted since (the component tests do).
        // A seek being computed runs its own slices, between these: both extend the same tip.
        let busy = self.playing.try_get_untracked().is_none_or(|playing| playing);
        if busy {
            self.looking.try_set_value(false);
            return;
        }
        let (known, ended, position, hashed) =
            self.session.with_untracked(|s| (s.frames().len(), s.end_known(), s.position(), s.trace_hash().is_some()));
        let compute = !ended && (known < LOOKAHEAD_FRAMES || position + 1 >= known);
        if !(compute || (ended && !hashed)) {
            self.looking.set_value(false);
            return;
        }
        let started = clock_ms();
        let mut now_ended = ended;
        self.session.update_untracked(|s| {
            if compute {
                let limit = LOOKAHEAD_FRAMES.max(position + 1);
                s.look_ahead(&mut |n| known + n < limit && (n % 16 != 0 || clock_ms() - started < SLICE_MS));
            }
            now_ended = s.end_known();
            if now_ended {
                s.advance_hash(&mut |n| n % 64 != 0 || clock_ms() - started < SLICE_MS);
            }
        });
        let (now_known, hash) = self.session.with_untracked(|s| (s.frames().len(), s.trace_hash()));
        self.raise_known(now_known);
        if now_ended && !ended {
            // The run's end is known now, and with it the checks' measured figures.
            self.ended.set(true);
            self.session.update(|_| ());
        }
        self.trace_hash.maybe_update(|h| std::mem::replace(h, hash.clone()) != hash);
        let ui = *self;
        set_timeout(move || ui.look_ahead_slice(), std::time::Duration::from_millis(0));
    }

    fn schedule_tick(&self) {
        let ui = *self;
        request_animation_frame(move || ui.tick());
    }

    /// One animation frame of playback.
    fn tick(&self) {
        if !self.playing.try_get_untracked().unwrap_or(false) {
            return;
        }
        let now = window().performance().map_or(0.0, |p| p.now());
        let dt = self.last_tick.get_value().map_or(0.0, |t| (now - t).clamp(0.0, 100.0));
        self.last_tick.set_value(Some(now));
        let speed = self.speed();
        let mut target = self.display_ms.get_untracked() as f64 + dt * speed;
        // Quiet stretches (nothing in flight, nothing running) are skipped.
        let (quiet, next_at) = self.session.with_untracked(|s| (s.world().is_quiet(), s.world().next_at_ms()));
        if let Some(at) = next_at {
            if quiet && (at as f64) > target + 300.0 {
                target = at as f64;
            }
        }
        let target_ms = target as u64;
        let mut ended = false;
        let budget_start = now;
        self.session.update(|s| {
            // Keep each painted frame within budget: at most ~4 ms of stepping,
            // leaving the rest of 16 ms to draw. In a burst the simulation
            // falls behind the requested speed rather than the page stuttering.
            let mut steps = 0u32;
            while s.world().next_at_ms().is_some_and(|at| at <= target_ms) {
                if !s.step_forward() {
                    break;
                }
                steps += 1;
                if steps.is_multiple_of(16) && window().performance().map_or(0.0, |p| p.now()) - budget_start > 4.0 {
                    break;
                }
            }
            ended = s.at_end() || s.world().next_at_ms().is_none();
            if ended {
                s.probe_end();
            }
        });
        // A broken invariant is announced even while playing (the caption is not).
        let broken = self.session.with_untracked(|s| s.world().invariants.list.iter().filter(|i| !i.held()).count());
        if broken > self.announced_breaks.get_value() {
            // The latest break: the one this tick played past.
            let said = self.session.with_untracked(|s| {
                let latest = s.world().invariants.list.iter().filter(|i| !i.held()).max_by_key(|i| i.first_broken_frame)?;
                let facts = latest.facts.as_ref()?;
                Some(format!(
                    "⚠ {} broken at frame {}: {}.",
                    latest.name,
                    latest.first_broken_frame?,
                    crate::narrate::invariants::violation_words(facts)
                ))
            });
            if let Some(said) = said {
                self.narration.set(said);
            }
        }
        self.announced_breaks.set_value(broken);
        let frame_now = self.session.with_untracked(|s| s.world().now_ms());
        let shown = if self.at_top_speed() || self.reduced_motion.get_value() { frame_now } else { target_ms.max(frame_now) };
        self.display_ms.set(shown);
        self.raise_known(self.session.with_untracked(|s| s.frames().len()));
        if ended {
            // One more step finds nothing and tells the session its end is here (and its checks measured).
            self.session.update(|s| {
                s.step_forward();
            });
            self.ended.set(true);
            self.pause();
            self.settle();
            return;
        }
        self.schedule_tick();
    }

    /// Everything the URL says, now.
    pub fn page_state(&self) -> PageState {
        let (scenario, edits, frame) = self.session.with_untracked(|s| (s.scenario().clone(), s.edits().to_vec(), s.position()));
        PageState {
            preset: self.preset.get_untracked(),
            scenario,
            custom: self.custom.get_value(),
            settings: self.settings.get_untracked(),
            edits,
            frame,
            speed: self.speed(),
            embed: self.embed.get_untracked(),
            layout: self.layout.get_value(),
            gc_steps: self.session.with_untracked(|s| (s.hide_gc() != s.hides_gc_by_default()).then_some(!s.hide_gc())),
        }
    }

    /// The URL that reproduces the current state.
    pub fn query(&self) -> String {
        url::encode(&self.page_state())
    }

    /// The same moment in the full page: no embed layout, no autoplay, no host.
    pub fn full_view_query(&self) -> String {
        url::encode(&PageState { embed: false, layout: Layout::default(), ..self.page_state() })
    }
}

/// The page: the explorer, with a banner naming whatever in the URL could not be used.
#[component]
pub fn App() -> impl IntoView {
    let query = window().location().search().unwrap_or_default();
    let url::Parsed { state, problems } = url::parse_query_lenient(&query, DEFAULT_PRESET);
    let problems = problems.iter().map(ToString::to_string).collect::<Vec<_>>();
    view! { <Explorer state problems /> }
}

/// What the URL asked for and the page could not do, each naming the parameter and its value.
#[component]
fn Banner() -> impl IntoView {
    let problems = use_ui().problems;
    move || {
        problems.with(|p| !p.is_empty()).then(|| {
            view! {
                <div class="alert banner" role="alert">
                    <p>"Part of this link could not be used; the rest is shown."</p>
                    <ul>{problems.get().into_iter().map(|p| view! { <li class="mono">{p}</li> }).collect_view()}</ul>
                    <button on:click=move |_| problems.set(Vec::new())>"Dismiss"</button>
                </div>
            }
        })
    }
}

/// The explorer: controls, panels, caption, transport and timeline.
#[component]
pub fn Explorer(
    state: PageState,
    /// Problems found while reading the URL, for the banner.
    #[prop(optional)]
    problems: Vec<String>,
) -> impl IntoView {
    let shown = state.shown_panels();
    let controls = state.controls_mode();
    let ui = Ui::new(state);
    ui.problems.update(|p| {
        let mut all = problems;
        all.append(p);
        *p = all;
    });
    provide_context(ui);
    ui.narration.set(ui.session.with_untracked(pv::session_caption));
    // A notice without an action goes by itself, unless another took its place.
    Effect::new(move |_| {
        let Some(n) = ui.notice.get() else { return };
        if n.action.is_none() {
            gloo_timers::callback::Timeout::new(NOTICE_MS, move || {
                if ui.notice.try_get_untracked().flatten().as_ref() == Some(&n) {
                    ui.notice.set(None);
                }
            })
            .forget();
        }
    });
    popover::install();

    // Keyboard: Space, ←/→, Shift+→, R, ? and Escape. A control the learner
    // reached with Tab keeps its own keys (arrows move a radio group or a
    // slider, Space ticks a box); one they clicked with the pointer does not:
    // there Space, ← and → drive the transport, so choosing "GenerateName" and
    // pressing → steps the run instead of switching back.
    let pointer_down = StoredValue::new_local(None::<web_sys::Element>);
    let pointer_focus = StoredValue::new(false);
    let element = |t: Option<web_sys::EventTarget>| t.and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
    // A press on the control itself, or on its label.
    let pressed_on = |p: &web_sys::Element, control: &web_sys::Element| {
        p.contains(Some(control))
            || control.contains(Some(p))
            || p.closest("label")
                .ok()
                .flatten()
                .is_some_and(|l| l.contains(Some(control)) || l.get_attribute("for").is_some_and(|id| id == control.id()))
    };
    let down = window_event_listener(ev::pointerdown, move |e| {
        let pressed = element(e.target());
        // Pressing the control that already has the focus makes it a clicked one too.
        if let (Some(p), Some(active)) = (&pressed, document().active_element()) {
            if pressed_on(p, &active) {
                pointer_focus.set_value(true);
            }
        }
        pointer_down.set_value(pressed);
    });
    // Focus that follows a pointer press on the control, or on its label.
    let focus = window_event_listener(ev::focusin, move |e| {
        let pressed = pointer_down.get_value();
        pointer_down.set_value(None);
        let by_pointer = element(e.target()).is_some_and(|focused| pressed.is_some_and(|p| pressed_on(&p, &focused)));
        pointer_focus.set_value(by_pointer);
    });
    let keys = window_event_listener(ev::keydown, move |e| {
        let target = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        let tag = target.as_ref().map(|el| el.tag_name());
        let input_type = target.as_ref().and_then(|el| el.get_attribute("type")).unwrap_or_default();
        let key = e.key();
        if key == "Tab" {
            pointer_down.set_value(None);
            pointer_focus.set_value(false);
        }
        if e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        if key == "Escape" {
            ui.help_open.set(false);
            popover::close_all(true);
            return;
        }
        // In a field every key is the field's; on a button or a link, Space and
        // Enter are its own (they press it), the rest are the page's.
        let in_field = tag.as_deref().is_some_and(|t| matches!(t, "INPUT" | "SELECT" | "TEXTAREA"));
        let on_control = tag.as_deref().is_some_and(|t| matches!(t, "BUTTON" | "A" | "SUMMARY"));
        let clicked_setting = pointer_focus.get_value()
            && (tag.as_deref() == Some("SELECT") || matches!(input_type.as_str(), "radio" | "checkbox" | "range"))
            && matches!(key.as_str(), " " | "ArrowLeft" | "ArrowRight");
        if in_field && !clicked_setting && key != "?" || on_control && matches!(key.as_str(), " " | "Enter") {
            return;
        }
        if ui.help_open.get_untracked() && key != "?" {
            return;
        }
        let handled = match key.as_str() {
            " " => {
                ui.toggle_play();
                true
            }
            "ArrowRight" if e.shift_key() => {
                ui.step_to_next_reconcile();
                true
            }
            "ArrowRight" => {
                ui.step_forward();
                true
            }
            "ArrowLeft" => {
                ui.step_back();
                true
            }
            "r" | "R" => {
                ui.reset();
                true
            }
            "?" => {
                ui.help_open.update(|h| *h = !*h);
                true
            }
            _ => false,
        };
        if handled {
            e.prevent_default();
        }
    });
    // A checkbox ticks on Space's keyup: cancelled too when the keydown drove the transport.
    let keyup = window_event_listener(ev::keyup, move |e| {
        let target = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        let checkbox = target.and_then(|el| el.get_attribute("type")).is_some_and(|t| t == "checkbox" || t == "radio");
        if checkbox && pointer_focus.get_value() && e.key() == " " {
            e.prevent_default();
        }
    });
    on_cleanup(move || {
        keys.remove();
        keyup.remove();
        down.remove();
        focus.remove();
    });

    // Playback pauses itself when the tab is hidden.
    let hidden = window_event_listener_untyped("visibilitychange", move |_| {
        if document().hidden() {
            ui.pause();
        }
    });
    on_cleanup(move || hidden.remove());

    // Mirror the state into the URL whenever it settles (not on every played frame).
    Effect::new(move |_| {
        let playing = ui.playing.get();
        ui.session.track();
        ui.speed_step.track();
        ui.preset.track();
        if playing {
            return;
        }
        let q = ui.query();
        if let Ok(h) = window().history() {
            let path = window().location().pathname().unwrap_or_default();
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{q}")));
        }
    });

    // The host-page API (docs/embedding.md): commands in, frames out.
    const IGNORED_MESSAGE: &str = "Ignored a message from";
    let messages = window_event_listener(ev::message, move |e| {
        let origin = e.origin();
        if let Some(only) = ui.layout.with_value(|l| l.origin.clone()) {
            if origin != only {
                ui.notice.set(Notice::say(format!("{IGNORED_MESSAGE} {origin}: this page obeys only {only} (the origin parameter).")));
                return;
            }
        }
        let data = e.data();
        let text = data.as_string().or_else(|| js_sys::JSON::stringify(&data).ok().and_then(|s| s.as_string())).unwrap_or_default();
        match host::parse(&text) {
            Ok(Some(command)) => {
                // A good message after an ignored one: the notice about it is stale.
                if ui.notice.with_untracked(|n| n.as_ref().is_some_and(|n| n.text.starts_with(IGNORED_MESSAGE))) {
                    ui.notice.set(None);
                }
                ui.obey(command)
            }
            Ok(None) => {}
            Err(problem) => ui.notice.set(Notice::say(format!("{IGNORED_MESSAGE} {origin}: {problem}."))),
        }
    });
    on_cleanup(move || messages.remove());
    // Ready before the first frame message (effects run after this).
    post_to_parent(ui, &host::ready());
    // A page on its own has no one to tell: then the effect tracks nothing and never runs again.
    if embedded() {
        Effect::new(move |_| {
            let text = ui.snap.with(|s| host::frame(s.position, s.now_ms, &s.invariants));
            post_to_parent(ui, &text);
        });
    }

    // Mark the first drawn frame for the page benchmark, then compute ahead (or play).
    request_animation_frame(move || {
        if let Some(p) = window().performance() {
            let _ = p.mark("cachescope:first-frame");
        }
        if ui.layout.with_value(|l| l.autoplay) {
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
                    <a class="full-view" href=full_view target="_blank" rel="noopener">"Open full view ↗"</a>
                })
            } else {
                Either::Right(view! {
                    <header class="app-header">
                        <h1>"cachescope"</h1>
                        <p class="lede">"See what a Kubernetes controller sees: its cache lags the cluster."</p>
                        <ScenarioPicker />
                        <ShareBar />
                        <FindBug />
                        <button class="help-button" aria-label="Help" aria-keyshortcuts="?" on:click=move |_| ui.help_open.set(true)>
                            "?"
                        </button>
                        {(controls == ControlsMode::All).then(|| view! { <Controls /> })}
                    </header>
                })
            }}
            {(embed.get_untracked() && controls == ControlsMode::All).then(|| view! { <Controls /> })}
            <div class="stage-scroll">
                <div class="grid">
                    {has(PanelId::Cluster).then(|| view! { <ClusterPanel /> })}
                    {has(PanelId::Watch).then(|| view! { <WatchPanel /> })}
                    {has(PanelId::Cache).then(|| view! { <CachePanel /> })}
                    {has(PanelId::Expectations).then(|| view! { <ExpectationsPanel /> })}
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
            <CaptionBar invariants=has(PanelId::Invariants) />
            {(controls != ControlsMode::None).then(|| view! { <Transport /> })}
            <div class="sr-only" aria-live="polite" aria-atomic="true">
                {move || ui.narration.get()}
            </div>
            {move || ui.help_open.get().then(|| view! { <Help /> })}
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

/// The page this one is embedded in, if it is in an iframe.
fn parent_page() -> Option<web_sys::Window> {
    window().parent().ok().flatten().filter(|p| *p != window())
}

fn embedded() -> bool {
    parent_page().is_some()
}

/// Post a message to the page embedding this one, if any: to the `origin`
/// parameter's origin when given, else to whichever page it is.
fn post_to_parent(ui: Ui, text: &str) {
    let Some(parent) = parent_page() else { return };
    let target = match ui.layout.with_value(|l| l.origin.clone()) {
        Some(only) => {
            // Post only to the origin the URL names; when the embedding page
            // (as its referrer says) is another, say nothing at all.
            let referrer = document().referrer();
            let parent_origin = referrer.splitn(4, '/').take(3).collect::<Vec<_>>().join("/");
            if !referrer.is_empty() && parent_origin != only {
                return;
            }
            only
        }
        None => "*".to_string(),
    };
    if let Ok(message) = js_sys::JSON::parse(text) {
        let _ = parent.post_message(&message, &target);
    }
}

/// The caption of the current frame, the invariants' badges and the change
/// notice, in a bar of fixed height: nothing below it moves while stepping.
#[component]
fn CaptionBar(invariants: bool) -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    view! {
        <section class="caption-region" aria-label="Caption">
        <div class="notice-line" role="status">
            {move || ui.notice.get().map(|n| view! {
                <p class="notice">
                    <span>{n.text}</span>
                    {n.action.map(|a| match a {
                        NoticeAction::ApplyFromStart(path) => view! {
                            <button class="notice-action" on:click=move |_| ui.apply_from_start(path)>"Apply from the start"</button>
                        },
                    })}
                    <button class="dismiss" aria-label="Dismiss the notice" on:click=move |_| ui.notice.set(None)>"×"</button>
                </p>
            })}
            </div>
        <div class="caption-bar">
            <p
                class="caption"
                class:stale=move || snap.with(|s| s.stale)
                class:broke=move || snap.with(|s| s.broke)
                tabindex="0"
            >
                {move || snap.with(|s| s.caption.clone())}
                {move || snap.with(|s| s.incident.clone()).map(|(title, url)| view! {
                    " " <span class="incident">"This happened: " <a href=url target="_blank" rel="noopener noreferrer">{title}</a></span>
                })}
            </p>
            {invariants.then(|| view! { <InvariantsPanel /> })}
        </div>
        </section>
    }
}

/// The help overlay: every key, and what the simulation simplifies. A modal
/// dialog: Tab stays inside it, and closing it returns the focus to where it was.
#[component]
fn Help() -> impl IntoView {
    let ui = use_ui();
    let close = NodeRef::<leptos::html::Button>::new();
    let dialog = NodeRef::<leptos::html::Div>::new();
    let opener = document().active_element();
    Effect::new(move |_| {
        if let Some(b) = close.get() {
            let _ = b.focus();
        }
    });
    on_cleanup(move || {
        if let Some(el) = opener.and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok()) {
            let _ = el.focus();
        }
    });
    // Tab and Shift+Tab cycle through the dialog's own controls.
    let trap = move |e: web_sys::KeyboardEvent| {
        if e.key() != "Tab" {
            return;
        }
        let Some(d) = dialog.get() else { return };
        let Ok(all) = d.query_selector_all("a[href], button, input, select, [tabindex='0']") else { return };
        let items: Vec<web_sys::HtmlElement> =
            (0..all.length()).filter_map(|i| all.item(i)).filter_map(|n| wasm_bindgen::JsCast::dyn_into(n).ok()).collect();
        let (Some(first), Some(last)) = (items.first(), items.last()) else { return };
        let active = document().active_element();
        let at =
            |el: &web_sys::HtmlElement| active.as_ref().is_some_and(|a| a == wasm_bindgen::JsCast::unchecked_ref::<web_sys::Element>(el));
        let inside = active.as_ref().is_some_and(|a| d.contains(Some(a)));
        if e.shift_key() && (at(first) || !inside) {
            e.prevent_default();
            let _ = last.focus();
        } else if !e.shift_key() && (at(last) || !inside) {
            e.prevent_default();
            let _ = first.focus();
        }
    };
    view! {
        <div class="overlay" on:click=move |_| ui.help_open.set(false)>
            <div
                class="dialog"
                role="dialog"
                aria-modal="true"
                aria-labelledby="help-title"
                node_ref=dialog
                on:click=|e| e.stop_propagation()
                on:keydown=trap
            >
                <h2 id="help-title">"What you see"</h2>
                <dl class="panels-help">
                    <dt>"Cluster"</dt><dd>"The truth: every object the apiserver holds now, with its resourceVersion."</dd>
                    <dt>"Watch"</dt><dd>"The events on their way from the apiserver to the controller's cache, each arriving after the watch lag."</dd>
                    <dt>"Cache"</dt><dd>"The informer's store: what the controller's lister returns. A dashed slot is an object the cluster has and this cache does not yet."</dd>
                    <dt>"Expectations"</dt><dd>"ControllerExpectations: the creates and deletes a controller waits to see come back through the watch before it trusts its cache again."</dd>
                    <dt>"Workqueue"</dt><dd>"The keys waiting to be reconciled, the ones being processed, and those added again while they were."</dd>
                    <dt>"Reconcile"</dt><dd>"The controller's code, the current step lit, with the values it read from the cache."</dd>
                    <dt>"Observations"</dt><dd>"What the lab expects, checked against this run once it has ended (or when you ask), beside the counts so far."</dd>
                </dl>
                <p>
                    "Each event in flight in the Watch panel has three buttons: ⇥ deliver it now, ‖ hold it back (then ▶ release it) and ✕ drop it. "
                    "Each choice joins the scenario's schedule, so the link replays it."
                </p>
                <h2>"Keys"</h2>
                <dl class="keys">
                    <dt><kbd>"Space"</kbd></dt><dd>"Play / pause"</dd>
                    <dt><kbd>"→"</kbd></dt><dd>"Step forward"</dd>
                    <dt><kbd>"Shift"</kbd>" + "<kbd>"→"</kbd></dt><dd>"Step to the next reconcile"</dd>
                    <dt><kbd>"←"</kbd></dt><dd>"Step back"</dd>
                    <dt><kbd>"R"</kbd></dt><dd>"Reset to frame 0"</dd>
                    <dt><kbd>"?"</kbd></dt><dd>"This help"</dd>
                    <dt><kbd>"Esc"</kbd></dt><dd>"Close it"</dd>
                </dl>
                <p>
                    "After you click a setting, Space, ← and → still drive the run. Reach a setting with Tab instead and it keeps its own keys."
                </p>
                <h2>"Sharing and files"</h2>
                <p>
                    "Share copies a link to this moment; Embed, an iframe for a course page. Import a scenario file, or drop one on the page; "
                    "export the scenario, the trace (what cachescope trace prints) or this frame as SVG."
                </p>
                <h2>"Can it go wrong?"</h2>
                <p>
                    "Find a bug replays this scenario holding back one watch event (1 s or 10 s beyond the lag), then two, then three, "
                    "searching breadth-first so the first break it finds is one of the shortest, and skipping any state it has already been in. "
                    "A break loads as the run: the held-back event is named on its wire, in the caption when it arrives, and by a mark on "
                    "the timeline; the link carries it. Finding none is a bounded answer: no break among the timings tried, not a proof for every timing."
                </p>
                <h2>"How this differs from a real cluster"</h2>
                <ul class="simplifications">
                    {crate::narrate::simplifications::SIMPLIFICATIONS.iter().map(|s| view! { <li>{s.text}</li> }).collect_view()}
                    <li>"The garbage collector's own cache deliveries are hidden when stepping unless an owner is deleted (GC steps shows them)."</li>
                </ul>
                <button node_ref=close on:click=move |_| ui.help_open.set(false)>"Close"</button>
            </div>
        </div>
    }
}
