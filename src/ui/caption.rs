//! The caption bar: the current frame's caption, the invariants' badges and
//! the change notice (which goes by itself unless it offers an action).

use super::notice::NoticeAction;
use super::panels::InvariantsPanel;
use super::state::{part_of, use_ui, Ui};
use leptos::prelude::*;

/// How long a notice without an action stays, in ms.
const NOTICE_MS: u32 = 7_000;

/// A notice without an action goes by itself, unless another took its place.
pub(super) fn dismiss_notices_in_time(ui: Ui) {
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
}

/// The caption of the current frame, the invariants' badges and the change
/// notice, in a bar of fixed height: nothing below it moves while stepping.
#[component]
pub(super) fn CaptionBar(invariants: bool) -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    let incident = part_of(snap, |s, h| std::hash::Hash::hash(&s.incident, h));
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
        <div class="caption-bar" class:without-invariants=!invariants>
            <p
                class="caption"
                class:stale=move || snap.with(|s| s.stale)
                class:broke=move || snap.with(|s| s.broke)
                tabindex="0"
            >
                {move || snap.with(|s| s.caption.clone())}
                {move || { let _ = incident.get(); snap.with_untracked(|s| s.incident.clone()) }.map(|(title, url)| view! {
                    " " <span class="incident">"This happened: " <a href=url target="_blank" rel="noopener noreferrer">{title}</a></span>
                })}
            </p>
            {invariants.then(|| view! { <InvariantsPanel /> })}
        </div>
        </section>
    }
}
