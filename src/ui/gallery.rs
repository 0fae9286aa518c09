//! "Real incidents": a dialog listing the presets that reproduce a real
//! project's staleness incident (`narrate::gallery`), each opened at frame 0
//! with its lesson offered.

use super::modal::Modal;
use super::state::use_ui;
use leptos::prelude::*;

/// The gallery, in the page's one [`Modal`]: for each incident its project,
/// its story in a line, its link, and Open.
#[component]
pub(super) fn Gallery() -> impl IntoView {
    let ui = use_ui();
    let close = Callback::new(move |()| ui.gallery_open.set(false));
    let (operators, labs): (Vec<_>, Vec<_>) = crate::narrate::gallery::incidents().into_iter().partition(|i| i.operator);
    let list = move |items: Vec<crate::narrate::gallery::Incident>| {
        view! {
            <ul class="gallery">
                {items
                    .into_iter()
                    .map(|i| {
                        let name = i.preset;
                        let opened = move |_| {
                            ui.gallery_open.set(false);
                            ui.load_preset(name);
                        };
                        view! {
                            <li>
                                <h4>{i.project}</h4>
                                <p class="story">{i.story}</p>
                                <p class="links">
                                    <a href=i.url target="_blank" rel="noopener noreferrer">{i.title}</a>
                                </p>
                                <p class="has-lesson">{if i.lesson { "With a lesson" } else { "To play and change" }}</p>
                                <button class="open" aria-label=format!("Open {name}") on:click=opened>"Open"</button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
    };
    view! {
        <Modal labelled_by="gallery-title" class="gallery-dialog" close>
            <h2 id="gallery-title">"Real incidents"</h2>
            <p>"Each one happened in a real project, and each is a scenario here: open it at its start, play it, and make the one-line fix."</p>
            <h3>"Controllers written as recipes"</h3>
            {list(operators)}
            <h3>"The labs' incidents"</h3>
            {list(labs)}
            <div class="dialog-actions">
                <button on:click=move |_| ui.gallery_open.set(false)>"Close"</button>
            </div>
        </Modal>
    }
}
