//! The invariants' badges in the caption bar: each held, or the frame that
//! broke it, a button that seeks there.

use crate::ui::state::{part_of, use_ui};
use crate::view::panels as pv;
use leptos::prelude::*;
use std::hash::Hash;

#[component]
pub fn InvariantsPanel() -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    // Its own memo: the badges change when one breaks, not with every frame the snapshot does.
    let version = part_of(snap, |s, h| s.invariants.hash(h));
    view! {
        // Focusable: with more badges than fit it scrolls, and keyboard users scroll it too.
        <section class="panel invariants" aria-label="Invariants" tabindex="0">
            <ul class="badges" role="list">
                {move || { let _ = version.get(); snap.with_untracked(|s| s.invariants.clone()) }.into_iter().map(|i| {
                    let broken = i.first_broken_frame;
                    let id = i.name;
                    view! {
                        <li class="invariant" class:broken=broken.is_some() title=format!("{id}: {}", crate::narrate::invariants::promise(&i))>
                            <span class="mark" aria-hidden="true">{if broken.is_some() { "⚠" } else { "✓" }}</span>
                            <span class="inv-name" aria-hidden="true">{pv::invariant_label(id)}</span>
                            <span class="sr-only">{id}</span>
                            {broken.map(|n| view! {
                                <button class="jump" aria-label=format!("{id} broken at frame {n}: jump to it") on:click=move |_| ui.seek(n as usize)>
                                    {format!("frame {n}")}
                                </button>
                            })}
                            {broken.is_none().then(|| view! { <span class="held">"held"</span> })}
                            {i.facts.as_ref().map(|f| view! { <span class="sr-only">{crate::narrate::invariants::violation_words(f)}</span> })}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}
