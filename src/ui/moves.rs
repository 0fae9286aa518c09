//! The learner's moves: stepping, resetting, a setting changed (at a frame,
//! or from the start), a hands-on choice, another scenario loaded. Each ends
//! by settling the page ([`Ui::settle`]) and computing ahead.

use super::notice::{Notice, NoticeAction};
use super::state::Ui;
use crate::scenario::{preset, Scenario, ScenarioError};
use crate::sim::object::Kind;
use crate::view::hands::{self, WireChoice};
use crate::view::session::{Change, Session};
use leptos::prelude::*;

impl Ui {
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
    pub(super) fn step_back(&self) {
        let target = self.session.with_untracked(Session::back_shown_target);
        self.seek(target);
    }

    /// Show or hide the garbage collector's own cache deliveries when stepping.
    pub(super) fn set_hide_gc(&self, hide: bool) {
        self.session.update(|s| s.set_hide_gc(hide));
        self.notice.set(Notice::say(if hide {
            "Garbage collector steps hidden: stepping skips its own cache deliveries.".to_string()
        } else {
            "Garbage collector steps shown: stepping stops at each delivery to its cache too.".to_string()
        }));
    }

    pub(super) fn step_to_next_reconcile(&self) {
        self.pause();
        self.session.update(|s| {
            s.step_to_next_reconcile();
        });
        self.settle();
    }

    /// Back to frame 0, with the learner's settings: a setting changed at a
    /// frame is made from the start ("Back to the preset" restores the lab's).
    pub(super) fn reset(&self) {
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

    /// Make a change at the current frame; the frames after it are recomputed.
    /// A setting changed at the run's end can no longer act there: it is the
    /// learner's next run, made from frame 0 and played ("change one line and
    /// run it again"). One changed mid-run forks the run there, and the notice
    /// offers to make it from the start instead.
    pub(super) fn apply(&self, change: Change, what: &str) {
        let (frame, at_end) = self.session.with_untracked(|s| (s.position(), s.at_end()));
        if let Change::Knob(knob) = change {
            // A lesson's "change one line" starts the run again, wherever the learner stands.
            if (at_end || self.lesson_waits_for(knob.path)) && frame > 0 {
                self.session.update_untracked(|s| s.apply(change));
                self.move_to_start(Some(knob.path), &format!("{what} from the start: the run is replayed."), true);
                return;
            }
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
                // In a lesson the run waits at frame 0 for the step's question.
                if play && self.lesson.with_untracked(Option::is_none) {
                    self.toggle_play();
                } else {
                    self.look_ahead();
                    self.lesson_after_change();
                }
            }
            Err(e) => self.notice.set(Notice::say(e.to_string())),
        }
    }

    /// "Apply from the start": the notice's action for a setting changed mid-run.
    pub(super) fn apply_from_start(&self, path: &'static str) {
        self.move_to_start(Some(path), &format!("{path} from the start: the run is replayed."), true);
    }

    /// The preset this run comes from: the one chosen, or the one a found bug
    /// or a hands-on choice turned into a scenario of its own (it keeps its name).
    pub(super) fn origin_preset(&self) -> Option<String> {
        self.preset.get().or_else(|| {
            let name = self.session.with(|s| s.scenario().name.clone());
            crate::scenario::preset_names().contains(&name.as_str()).then_some(name)
        })
    }

    /// "Back to the preset": its own settings, none of the learner's, frame 0.
    pub(super) fn back_to_preset(&self) {
        if let Some(name) = self.origin_preset() {
            self.load_preset(&name);
            self.notice.set(Notice::say(format!("Back to {name} as the lab wrote it.")));
        }
    }

    /// The learner's hands on a watch event in flight (the Watch panel's
    /// buttons): the choice joins the scenario's schedule, the run is
    /// recomputed from frame 0 on it (every frame so far stays the same) and
    /// the page comes back to this frame; the URL then carries the scenario.
    pub(super) fn choose_wire(&self, kind: Kind, nth: u32, choice: WireChoice, what: &str) {
        self.pause();
        let chosen = self.session.with_untracked(|s| hands::choose(s.scenario(), s.world(), kind, nth, choice));
        self.adopt(chosen, &choice.done(what));
    }

    /// The learner's choice of the idle worker that takes the next key (the
    /// Workqueue panel's buttons), as [`Ui::choose_wire`] does it.
    pub(super) fn choose_worker(&self, worker: u32, key: &str) {
        self.pause();
        let chosen = self.session.with_untracked(|s| hands::choose_worker(s.scenario(), s.world(), worker));
        self.adopt(chosen, &format!("Worker {worker} takes {key} next"));
    }

    /// Play on `chosen`, the scenario with a choice made at this frame.
    fn adopt(&self, chosen: Result<Scenario, ScenarioError>, done: &str) {
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
    pub(super) fn restart_with(&self, path: &str, value: &str, what: &str) {
        self.restart_with_all(&[(path.to_string(), value.to_string())], what);
    }

    /// Settings (or fields of the recipe) changed as one change: the recipe's
    /// fields may hold only together (`Scenario::with_settings` checks them so).
    pub(super) fn restart_with_all(&self, edits: &[(String, String)], what: &str) {
        // At the run's end a change is the learner's next run, played, as every other change there is.
        let replay = self.session.with_untracked(|s| s.at_end() && s.position() > 0) && self.lesson.with_untracked(Option::is_none);
        self.pause();
        let base = self.session.with_untracked(|s| s.scenario().clone());
        match base.with_settings(edits.iter().map(|(p, v)| (p.as_str(), v.as_str()))) {
            Ok(scenario) => {
                self.settings.update(|v| {
                    // A part set whole drops the link's settings inside it (`steps[2].…` under `steps`).
                    let within =
                        |k: &str, path: &str| k == path || k.starts_with(&format!("{path}.")) || k.starts_with(&format!("{path}["));
                    v.retain(|(k, _)| edits.iter().all(|(path, _)| !within(k, path)));
                    v.extend(edits.iter().cloned());
                });
                let rebuilt = self.session.with_untracked(|s| s.rebuilt(scenario));
                self.session.set(rebuilt);
                self.known.set(0);
                self.ended.set(false);
                let then = if replay { " and is replayed" } else { "" };
                self.notice.set(Notice::say(format!(
                    "{what}: this matters when the controller starts, so the run was recomputed from frame 0{then}."
                )));
            }
            Err(e) => {
                self.notice.set(Notice::say(e.to_string()));
                self.settle();
                return;
            }
        }
        self.settle();
        if replay {
            self.toggle_play();
        } else {
            self.look_ahead();
            self.lesson_after_change();
        }
    }

    /// Open another scenario from the start: a preset by name, or a scenario
    /// given whole (imported, or sent by the host page) whose document the URL
    /// then carries as `custom`.
    pub(super) fn load(&self, scenario: Scenario, preset_name: Option<String>, custom: Option<String>) {
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
        self.lesson_check.set(None);
        self.settle();
        self.look_ahead();
        // A scenario given whole (imported, sent by a host, found by a search): its lesson checked before a learner meets it.
        if self.custom.with_value(Option::is_some) {
            self.check_lesson();
        }
    }

    pub(super) fn load_preset(&self, name: &str) {
        match preset(name) {
            Ok(s) => self.load(s, Some(name.to_string()), None),
            Err(e) => self.notice.set(Notice::say(e.to_string())),
        }
    }
}
