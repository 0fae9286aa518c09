//! The page's reactive state, [`Ui`]: a handful of `Copy` signals around one
//! `RwSignal<Session>`, and the memos every panel reads. What a move does to
//! it lives beside: `moves` (the learner's), `playback` (the animation loop),
//! `slices` (long work in slices), `bridge` (the host page's), `mirror` (the
//! URL's).

use super::notice::{Note, Notice};
use crate::scenario::{preset, Scenario};
use crate::view::panels as pv;
use crate::view::session::Session;
use crate::view::snapshot::{snapshot_in, Snapshot};
use crate::view::url::{self, Layout, PageState};
use leptos::prelude::*;

/// The most main-thread time one slice of long work takes (computing frames,
/// hashing the trace), in ms: then it yields, so the page never blocks for
/// long whatever the scenario asks, and a seek far ahead shows its progress
/// and can be stopped.
pub(super) const SLICE_MS: f64 = 30.0;

/// The page's clock, for timing slices (the simulation never reads it).
pub(super) fn clock_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// A seek to a frame not computed yet: computed in slices, with its progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Computing {
    /// The frame the seek goes to, and the frames known so far.
    pub(super) target: usize,
    pub(super) done: usize,
    /// The URL's `frame=`: past the end, the banner says so.
    pub(super) from_url: bool,
}

/// The page's reactive state: a few signals over plain values. `Copy`, so
/// every handler and component can hold it.
#[derive(Clone, Copy)]
pub struct Ui {
    /// The model. Local storage: it shares objects behind `Rc`, which is not `Send`.
    pub session: RwSignal<Session, LocalStorage>,
    /// The preset's name, or `None` for a scenario given whole.
    pub(super) preset: RwSignal<Option<String>>,
    /// `scenario=` JSON, for a custom scenario.
    pub(super) custom: StoredValue<Option<String>>,
    /// Settings from frame 0, as the URL carries them.
    pub(super) settings: RwSignal<Vec<(String, String)>>,
    pub(super) playing: RwSignal<bool>,
    /// The speed slider's step: the speed is 10^(step/20) simulated seconds per second.
    pub(super) speed_step: RwSignal<i32>,
    /// The animation clock: never behind the current frame's time.
    pub display_ms: RwSignal<u64>,
    /// Frames known (the scrubber's range).
    pub known: RwSignal<usize>,
    /// The run has no more frames after `known`.
    pub(super) ended: RwSignal<bool>,
    /// What the last change did: the notice in the caption bar.
    pub(super) notice: RwSignal<Option<Notice>>,
    /// The live region's text: the caption of each manual step.
    pub(super) narration: RwSignal<String>,
    pub(super) help_open: RwSignal<bool>,
    /// "Real incidents" is open.
    pub(super) gallery_open: RwSignal<bool>,
    /// "Chaos matrix" is open (its worker runs while it is).
    pub(super) matrix_open: RwSignal<bool>,
    /// "Your controller" is open.
    pub(super) editor_open: RwSignal<bool>,
    /// Asks "Can it go wrong?" to search the run on the page (the editor's
    /// Find a bug); the panel takes the ask and sets it back.
    pub(super) find_asked: RwSignal<bool>,
    /// The learner asked to see the lab's figures before the run's end.
    pub expected_shown: RwSignal<bool>,
    pub(super) embed: RwSignal<bool>,
    /// What the URL asked for that could not be honoured: the banner.
    pub(super) problems: RwSignal<Vec<String>>,
    /// The URL's layout options, kept so the URL keeps them.
    pub(super) layout: StoredValue<Layout>,
    pub(super) reduced_motion: StoredValue<bool>,
    pub(super) last_tick: StoredValue<Option<f64>>,
    /// Invariants broken so far in playback, so each break is announced once.
    pub(super) announced_breaks: StoredValue<usize>,
    /// Feedback from Share, Embed, import and export, shown beside those buttons.
    pub(super) share_note: RwSignal<Option<Note>>,
    /// The frame the pointer rests on in the audit log or the Space-time view:
    /// each lights what the other draws for it.
    pub(super) pointed: RwSignal<Option<usize>>,
    /// The Cluster and Cache lists' heights in px, as last measured (0 for
    /// one not drawn): both keep the lit row in view of the shorter, so the
    /// two, which scroll together, show it alike.
    pub(crate) list_heights: RwSignal<[f64; 2]>,
    /// A seek being computed in slices (the transport shows it, with Stop).
    pub(super) computing: RwSignal<Option<Computing>>,
    /// The run's trace hash, once its end is known and every frame hashed.
    pub(super) trace_hash: RwSignal<Option<String>>,
    /// The look-ahead is running (one chain of slices at a time).
    pub(super) looking: StoredValue<bool>,
    /// The URL's `frame=`, when it is past the frames computed at start.
    pub(super) pending_frame: StoredValue<Option<usize>>,
    /// Counts moves of the page: a seek's slices go on only while it is theirs.
    pub(super) seek_generation: StoredValue<u64>,
    /// The lesson in progress (`None`: off).
    pub(super) lesson: RwSignal<Option<crate::view::lesson::LessonRun>>,
    /// The lesson's answers, for the scenario they were computed for.
    #[allow(clippy::type_complexity)]
    pub(super) lesson_cache: StoredValue<Option<(Scenario, Result<Vec<crate::scenario::StepOutcome>, String>)>, LocalStorage>,
    /// What the lesson last said: its own live region.
    pub(super) lesson_said: RwSignal<String>,
    /// A region's name before its panel's (`Run A: `, two runs side by side), so each is named once on the page.
    pub(super) region_of: StoredValue<&'static str>,
    /// Two runs side by side: a host page's commands go to both, through this.
    pub(super) obey_both: StoredValue<Option<Callback<crate::view::host::Command>>>,
    /// The scenario's lesson checked whole in the worker, for its author (and the banner when it fails).
    pub(super) lesson_check: RwSignal<Option<crate::view::lesson::LessonCheck>>,
    /// What the learner wrote for each step's `prompt`, by step.
    pub(super) lesson_written: RwSignal<Vec<String>>,
    /// The panel a lesson's reveal lights (its class: `cache`).
    pub(super) lesson_lit: RwSignal<Option<&'static str>>,
    /// Playback pauses at this frame (a lesson's Check plays to its step's frame).
    pub(super) stop_at: StoredValue<Option<usize>>,
    /// Everything the panels draw for the current frame: one memo for all of them.
    pub(super) snap: Memo<Snapshot>,
    /// The controls' values, a memo of their own: they change when a setting
    /// does, not with every frame, so the controls are not redrawn while playing.
    pub(super) controls: Memo<crate::view::snapshot::ControlsView>,
    /// The Watch lane at the animation clock: its first `lane_room` wires,
    /// and how many are in flight in all.
    pub(super) wires: Memo<(Vec<pv::Wire>, usize)>,
    /// How many wires the Watch lane has room for ([`pv::lane_room`]): the
    /// Watch panel measures it; until then, [`pv::LANE_WIRES`].
    pub(super) lane_room: RwSignal<usize>,
}

/// The `Ui` provided by the explorer.
type Part = Box<dyn Fn(&Snapshot, &mut rustc_hash::FxHasher) + Send + Sync>;

/// A fingerprint of the part of the snapshot `part` feeds a hasher: a memo
/// that notifies only when that part changes, so what draws it is not
/// redrawn with every frame the snapshot changes. One memo type (`u64`) and
/// one closure type for every part of the page: a `Memo<T>` a part would
/// compile the reactive machinery once per `T`, about 1 KB of wasm each.
/// Read it with `get`, not `track`: a memo never read is never computed, and
/// one never computed has not subscribed to the snapshot.
pub(super) fn part_of(snap: Memo<Snapshot>, part: impl Fn(&Snapshot, &mut rustc_hash::FxHasher) + Send + Sync + 'static) -> Memo<u64> {
    let part: Part = Box::new(part);
    Memo::new(move |_| {
        snap.with(|s| {
            let mut h = rustc_hash::FxHasher::default();
            part(s, &mut h);
            std::hash::Hasher::finish(&h)
        })
    })
}

/// What [`Ui::at_next_frame`] has queued, and whether a frame callback waits to run it.
type NextFrame = (std::cell::RefCell<Vec<Box<dyn FnOnce()>>>, std::cell::Cell<bool>);

thread_local! {
    static NEXT_FRAME: NextFrame = Default::default();
}

/// Runs what [`Ui::at_next_frame`] queued, in the order it was queued.
pub(super) fn run_next_frame() {
    for f in NEXT_FRAME.with(|(queued, _)| std::mem::take(&mut *queued.borrow_mut())) {
        f();
    }
}

/// Runs the queue from a frame callback of its own, once, unless playback's tick runs it first.
fn run_next_frame_soon() {
    if NEXT_FRAME.with(|(_, waiting)| !waiting.replace(true)) {
        request_animation_frame(|| {
            NEXT_FRAME.with(|(_, waiting)| waiting.set(false));
            run_next_frame();
        });
    }
}

pub(super) fn use_ui() -> Ui {
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
        let lesson = RwSignal::new(None::<crate::view::lesson::LessonRun>);
        // While a lesson's question is open, the snapshot keeps its answer off the screen.
        let asking = Memo::new(move |_| lesson.with(|l| l.as_ref().is_some_and(crate::view::lesson::LessonRun::asking)));
        let snap = Memo::new(move |_| {
            let asking = asking.get();
            session.with(|s| snapshot_in(s, asking))
        });
        let controls = Memo::new(move |_| snap.with(|s| s.controls.clone()));
        let lane_room = RwSignal::new(pv::LANE_WIRES);
        let wires = Memo::new(move |_| {
            let at = display_ms.get();
            let room = lane_room.get();
            session.with(|s| pv::wires_head(s.world(), false, at, room))
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
            gallery_open: RwSignal::new(false),
            matrix_open: RwSignal::new(false),
            editor_open: RwSignal::new(false),
            find_asked: RwSignal::new(false),
            expected_shown: RwSignal::new(false),
            embed: RwSignal::new(state.embed),
            problems: RwSignal::new(problems),
            layout: StoredValue::new(state.layout),
            reduced_motion: StoredValue::new(reduced),
            last_tick: StoredValue::new(None),
            announced_breaks: StoredValue::new(0),
            share_note: RwSignal::new(None),
            pointed: RwSignal::new(None),
            list_heights: RwSignal::new([0.0; 2]),
            computing: RwSignal::new(None),
            trace_hash: RwSignal::new(None),
            looking: StoredValue::new(false),
            pending_frame: StoredValue::new(pending_frame),
            seek_generation: StoredValue::new(0),
            lesson,
            lesson_cache: StoredValue::new_local(None),
            lesson_said: RwSignal::new(String::new()),
            lesson_written: RwSignal::new(Vec::new()),
            lesson_check: RwSignal::new(None),
            region_of: StoredValue::new(""),
            obey_both: StoredValue::new(None),
            lesson_lit: RwSignal::new(None),
            stop_at: StoredValue::new(None),
            snap,
            controls,
            wires,
            lane_room,
        }
    }

    /// The page shows the run's last frame, and knows it is the last
    /// (however it got there: played, stepped, or sought past the end).
    pub(super) fn at_run_end(&self) -> bool {
        self.session.with(|s| s.at_end()) || self.ended.get() && self.snap.with(|s| s.position) >= self.known.get()
    }

    pub(super) fn speed(&self) -> f64 {
        url::speed_of_step(self.speed_step.get_untracked())
    }

    /// The speed is at the top of the slider: draw the latest frame, no animation.
    pub(super) fn at_top_speed(&self) -> bool {
        self.speed_step.get_untracked() >= url::MAX_SPEED_STEP
    }

    /// `known` grows to `n`, notifying its readers only when it does: playback
    /// calls this every painted frame, and most frames are already known.
    pub(super) fn raise_known(&self, n: usize) {
        self.known.maybe_update(|k| {
            let grew = n > *k;
            *k = (*k).max(n);
            grew
        });
    }

    /// Stop playing, and any seek still being computed.
    /// Runs `f` at the start of the next frame, before anything changes the
    /// page in it: a scroll set or a box measured while a frame's changes are
    /// being made makes the browser lay the page out there and then, and
    /// again once the rest are made (about a millisecond each at 500
    /// replicas); at the next frame's start the layout is the one just drawn,
    /// and reading or scrolling it costs nothing. The learner sees it one
    /// frame later, with that frame's changes. While playing, the tick runs
    /// the queue first thing ([`run_next_frame`]): a frame callback queued
    /// now would run after the next tick, its changes made. Otherwise, and
    /// for what is left when playback pauses, a frame callback of its own.
    pub(super) fn at_next_frame(&self, f: impl FnOnce() + 'static) {
        NEXT_FRAME.with(|(queued, _)| queued.borrow_mut().push(Box::new(f)));
        if !self.playing.get_untracked() {
            run_next_frame_soon();
        }
    }

    pub(super) fn pause(&self) {
        self.playing.set(false);
        run_next_frame_soon();
        self.seek_generation.update_value(|g| *g += 1);
        if self.computing.get_untracked().is_some() {
            self.computing.set(None);
        }
    }
}
