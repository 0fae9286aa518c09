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
    let code_text = part_of(snap, |s, h| s.reconcile.lines.iter().for_each(|l| (&l.text, l.off).hash(h)));
    // Line `i` as the current frame has it.
    let line = move |i: usize| {
        let _ = version.get();
        snap.with_untracked(|s| s.reconcile.lines.get(i).cloned())
    };
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
                // With controllers beside the recipe, the panel follows the frame's: it names whose code it is.
                <span class="sub">
                    {move || match snap.with(|s| s.reconcile.controller) {
                        Some(name) => format!("{name}'s code, current step lit"),
                        None => "the controller's code, current step lit".to_string(),
                    }}
                </span>
            </header>
            <ol class="code mono" tabindex="0" aria-label="The reconcile's code" node_ref=code>
                // The code as written, drawn when it changes (another
                // controller); as the run goes, each line's own parts change
                // in place (lit, its value, who waits there), not the list.
                {move || {
                    let _ = code_text.get();
                    let texts: Vec<(String, bool)> = snap.with_untracked(|s| s.reconcile.lines.iter().map(|l| (l.text.to_string(), l.off)).collect());
                    texts.into_iter().enumerate().map(|(i, (text, off))| {
                        let lit = move || line(i).is_some_and(|l| l.lit);
                        view! {
                            // "now" and the value are always there, shown by
                            // the line's class and text (style/main.css): the
                            // lit line moves at every step, and an element
                            // taken out and put back costs its layout twice.
                            <li class:lit=lit class:off=off aria-current=move || lit().then_some("step")>
                                <span class="now">"now"</span>
                                <span class="text">{text}</span>
                                {off.then(|| view! { <span class="off-tag">"off in this run"</span> })}
                                <span class="value">{move || line(i).and_then(|l| l.value).unwrap_or_default()}</span>
                                {move || line(i).filter(|l| !l.waiting.is_empty() && !l.lit).map(|l| {
                                    let who = l.waiting.iter().map(|w| format!("worker {w}")).collect::<Vec<_>>().join(", ");
                                    view! { <span class="waiting">{format!("{who} waits here")}</span> }
                                })}
                            </li>
                        }
                    }).collect_view()
                }}
            </ol>
            {simplified(Panel::Reconcile)}
        </section>
    }
}
