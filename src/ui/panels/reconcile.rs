//! The Reconcile panel: the controller's code, the current step lit.

use super::layout::{keep_in_view, simplified};
use crate::narrate::simplifications::Panel;
use crate::ui::state::{part_of, use_ui};
use leptos::prelude::*;
use std::hash::Hash;

#[component]
pub fn ReconcilePanel() -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    let code = NodeRef::<leptos::html::Ol>::new();
    // Redrawn when the code's state changes, not with every frame the snapshot does.
    let version = part_of(snap, |s, h| s.reconcile.hash(h));
    // The lit line stays in view when the panel is too short for all of the
    // code: measured at the next frame's start, when measuring costs nothing.
    Effect::new(move |_| {
        let _ = version.get();
        ui.at_next_frame(move || {
            if let Some(list) = code.try_get_untracked().flatten() {
                keep_in_view(&list, "li.lit");
            }
        });
    });
    view! {
        <section class="panel reconcile" aria-label="Reconcile">
            <header>
                <h2>"Reconcile"</h2>
                <span class="sub">"the controller's code, current step lit"</span>
            </header>
            <ol class="code mono" tabindex="0" aria-label="The reconcile's code" node_ref=code>
                // A line redrawn when what it shows changes (lit, its value,
                // who waits there), not the whole code at every change.
                <For
                    each=move || {
                        let _ = version.get();
                        snap.with_untracked(|s| s.reconcile.lines.iter().cloned().enumerate().collect::<Vec<_>>())
                    }
                    key=|line| line.clone()
                    children=|(_, line)| {
                        let lit = line.lit;
                        let waiting = (!line.waiting.is_empty() && !lit).then(|| {
                            let who = line.waiting.iter().map(|w| format!("worker {w}")).collect::<Vec<_>>().join(", ");
                            view! { <span class="waiting">{format!("{who} waits here")}</span> }
                        });
                        view! {
                            <li class:lit=lit aria-current=lit.then_some("step")>
                                {lit.then(|| view! { <span class="now">"now"</span> })}
                                <span class="text">{line.text}</span>
                                {line.value.map(|v| view! { <span class="value">{v}</span> })}
                                {waiting}
                            </li>
                        }
                    }
                />
            </ol>
            {simplified(Panel::Reconcile)}
        </section>
    }
}
