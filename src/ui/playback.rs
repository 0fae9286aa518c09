//! Playback: a `requestAnimationFrame` loop that moves an animation clock
//! forward and steps the session up to it (quiet stretches skipped, each
//! painted frame's stepping within budget), and pauses when the tab is hidden.

use super::state::Ui;
use leptos::prelude::*;

impl Ui {
    pub(super) fn toggle_play(&self) {
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

    fn schedule_tick(&self) {
        let ui = *self;
        request_animation_frame(move || ui.tick());
    }

    /// One animation frame of playback.
    fn tick(&self) {
        if !self.playing.try_get_untracked().unwrap_or(false) {
            return;
        }
        // What the last frame left for this one's start, before this one changes anything.
        super::state::run_next_frame();
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
            let stop = self.stop_at.get_value();
            while s.world().next_at_ms().is_some_and(|at| at <= target_ms) && stop.is_none_or(|f| s.position() < f) {
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
        // A lesson's Check plays to its step's frame, and pauses there.
        if self.stop_at.get_value().is_some_and(|f| self.session.with_untracked(|s| s.position()) >= f) {
            self.stop_at.set_value(None);
            self.pause();
            self.settle();
            self.arrived();
            return;
        }
        if ended {
            // One more step finds nothing and tells the session its end is here (and its checks measured).
            self.session.update(|s| {
                s.step_forward();
            });
            self.ended.set(true);
            self.pause();
            self.settle();
            if self.stop_at.get_value().is_some() {
                self.stop_at.set_value(None);
                self.arrived();
            }
            return;
        }
        self.schedule_tick();
    }
}

/// Playback pauses itself when the tab is hidden.
pub(super) fn pause_when_hidden(ui: Ui) {
    let hidden = window_event_listener_untyped("visibilitychange", move |_| {
        if document().hidden() {
            ui.pause();
        }
    });
    on_cleanup(move || hidden.remove());
}
