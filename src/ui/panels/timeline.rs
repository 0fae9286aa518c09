//! The Timeline panel: the audit log and the controller log, side by side.

use super::layout::{kind_abbr, worth_drawing};
use crate::narrate::units::fmt_ms;
use crate::sim::apiserver::Actor;
use crate::ui::state::{part_of, use_ui};
use crate::view::panels::TimelineEntry;
use leptos::prelude::*;
use std::hash::Hash;

#[component]
pub fn TimelinePanel() -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    let pointed = ui.pointed;
    // Each log redrawn when it gains or loses a line, not with every frame
    // the snapshot does; and not while playing out of view (`worth_drawing`).
    let section = NodeRef::<leptos::html::Section>::new();
    let worth = worth_drawing(section);
    let audit = while_worth(worth, part_of(snap, |s, h| s.audit.hash(h)));
    let logs = while_worth(worth, part_of(snap, |s, h| s.logs.hash(h)));
    view! {
        <section class="panel timeline" id="timeline" tabindex="-1" aria-label="Timeline" node_ref=section>
            <div class="column">
                <h2>"Audit log"</h2>
                <ol class="audit mono">
                    {move || { let _ = audit.get(); snap.with_untracked(|s| s.audit.clone()) }.into_iter().filter_map(|e| match e {
                        TimelineEntry::Audit { frame, entry } => Some((frame as usize, entry)),
                        TimelineEntry::Log { .. } => None,
                    }).map(|(frame, entry)| {
                        let class = if entry.status.code >= 400 { "bad" } else { "ok" };
                        let who = match entry.actor { Actor::Kubectl => "kubectl".to_string(), a => a.to_string() };
                        view! {
                            <li
                                class:pointed=move || pointed.get() == Some(frame)
                                on:mouseenter=move |_| pointed.set(Some(frame))
                                on:mouseleave=move |_| pointed.set(None)
                            >
                                <span class="t">{fmt_ms(entry.at_ms, 3)}</span>
                                <span class="who">{who}</span>
                                <span class="verb">{entry.verb.as_str()}</span>
                                <span class="obj">{if entry.name.is_empty() { format!("{}s", entry.kind) } else { format!("{} {}", kind_abbr(entry.kind), entry.name) }}</span>
                                <span class=format!("status {class}")>{entry.status.label()}</span>
                            </li>
                        }
                    }).collect_view()}
                </ol>
            </div>
            <div class="column">
                <h2>"Controller log"</h2>
                <ol class="log mono">
                    {move || { let _ = logs.get(); snap.with_untracked(|s| s.logs.clone()) }.into_iter().filter_map(|e| match e {
                        TimelineEntry::Log { at_ms, text, .. } => Some(view! { <li><span class="t">{fmt_ms(at_ms, 3)}</span>" "{text}</li> }),
                        TimelineEntry::Audit { .. } => None,
                    }).collect_view()}
                </ol>
            </div>
        </section>
    }
}

/// `version` while the panel is worth drawing; else the value it had, so
/// what reads it is not redrawn (and `version`, not read, is not computed).
fn while_worth(worth: Memo<bool>, version: Memo<u64>) -> Memo<u64> {
    Memo::new(move |was: Option<&u64>| match (was, worth.get()) {
        (Some(&was), false) => was,
        _ => version.get(),
    })
}
