//! The page's state in its URL: what it says ([`Ui::page_state`]), mirrored
//! into the address bar whenever the page settles, and the banner naming
//! what the URL asked for and could not have.

use super::state::{use_ui, Ui};
use crate::view::url::{self, Layout, PageState};
use leptos::prelude::*;

impl Ui {
    /// Everything the URL says, now.
    pub(super) fn page_state(&self) -> PageState {
        let (scenario, edits, frame) = self.session.with_untracked(|s| (s.scenario().clone(), s.edits().to_vec(), s.position()));
        // Two runs side by side always open at frame 0: the link keeps no frame of Run A's alone.
        let frame = if self.layout.with_value(|l| l.compare.is_some()) { 0 } else { frame };
        PageState {
            preset: self.preset.get_untracked(),
            scenario,
            custom: self.custom.get_value(),
            settings: self.settings.get_untracked(),
            edits,
            frame,
            speed: self.speed(),
            embed: self.embed.get_untracked(),
            layout: Layout { lesson: self.lesson.with_untracked(|l| l.as_ref().map(|l| l.step)), ..self.layout.get_value() },
            gc_steps: self.session.with_untracked(|s| (s.hide_gc() != s.hides_gc_by_default()).then_some(!s.hide_gc())),
        }
    }

    /// The URL that reproduces the current state.
    pub fn query(&self) -> String {
        url::encode(&self.page_state())
    }

    /// The same moment in the full page: no embed layout, no autoplay, no host.
    pub(super) fn full_view_query(&self) -> String {
        let (lesson, compare) = (self.lesson.with_untracked(|l| l.as_ref().map(|l| l.step)), self.layout.with_value(|l| l.compare.clone()));
        url::encode(&PageState { embed: false, layout: Layout { lesson, compare, ..Layout::default() }, ..self.page_state() })
    }
}

/// Mirror the state into the URL whenever it settles (not on every played
/// frame). When the scenario the link named could not be used (`fell_back`),
/// the link stays as given, for a reload or a report, until the learner
/// changes the run (its scenario, settings or edits; not merely the frame).
pub(super) fn mirror_into_url(ui: Ui, fell_back: bool) {
    let what = move || {
        (ui.preset.get_untracked(), ui.custom.get_value(), ui.settings.get_untracked(), ui.session.with_untracked(|s| s.edits().to_vec()))
    };
    let kept = StoredValue::new(fell_back.then(what));
    Effect::new(move |_| {
        let playing = ui.playing.get();
        ui.session.track();
        ui.speed_step.track();
        ui.preset.track();
        ui.lesson.track();
        if playing {
            return;
        }
        if kept.with_value(|k| k.as_ref().is_some_and(|k| *k == what())) {
            return;
        }
        kept.set_value(None);
        let q = ui.query();
        if let Ok(h) = window().history() {
            let path = window().location().pathname().unwrap_or_default();
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{q}")));
        }
    });
}

/// What the URL asked for and the page could not do, each naming the parameter and its value.
#[component]
pub(super) fn Banner() -> impl IntoView {
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
