//! Long work in slices of at most [`SLICE_MS`] of the main thread, so no
//! accepted input blocks the page: the look-ahead, a seek to frames not
//! computed yet (its progress in the transport, with Stop), a seek or a step
//! back replayed from a checkpoint, and the trace hash. And what follows any
//! move by hand ([`Ui::settle`]), which starts the hashing once the end is known.

use super::notice::Notice;
use super::state::{clock_ms, Computing, Ui, SLICE_MS};
use crate::view::panels as pv;
use leptos::prelude::*;

/// Frames computed ahead of the position in the background, so the scrubber
/// covers the run; bigger runs extend as they play (or as a seek computes them).
const LOOKAHEAD_FRAMES: usize = 50_000;

impl Ui {
    /// After any move by hand: the clock snaps to the frame and the caption is narrated.
    pub(super) fn settle(&self) {
        let asking = self.lesson.with_untracked(|l| l.as_ref().is_some_and(crate::view::lesson::LessonRun::asking));
        let (now, caption, known, broken, ended, hash) = self.session.with_untracked(|s| {
            let broken = s.world().invariants.list.iter().filter(|i| !i.held()).count();
            let caption = if asking { crate::view::lesson::asking_caption(s) } else { pv::session_caption(s) };
            (s.world().now_ms(), caption, s.frames().len(), broken, s.end_known(), s.trace_hash())
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

    /// Go to frame `n`. Frames not computed yet are computed in slices of
    /// [`SLICE_MS`] (the first one at once, so a near frame is reached in
    /// this call), with the progress in the transport and a Stop.
    pub fn seek(&self, n: usize) {
        self.seek_to(n, false);
    }

    pub(super) fn seek_to(&self, n: usize, from_url: bool) {
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
    pub(super) fn stop_computing(&self) {
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
}
