//! The Space-time panel: the view's SVG, lit where the pointer rests, a
//! click on a mark seeking to its frame.

use crate::ui::state::use_ui;
use crate::view::spacetime::{live_svg, of_session};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The frame of the Space-time mark an event happened on (its `data-frame`).
fn marked_frame(e: &leptos::ev::MouseEvent) -> Option<usize> {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest("[data-frame]").ok().flatten())
        .and_then(|el| el.get_attribute("data-frame"))
        .and_then(|f| f.parse::<usize>().ok())
}

/// Space-time: one lane per actor, time running down; the stale read as a picture.
#[component]
pub fn SpaceTimePanel() -> impl IntoView {
    let ui = use_ui();
    let wires = ui.wires;
    let view = Memo::new(move |_| wires.with(|w| ui.session.with(|s| of_session(s, w))));
    let pointed = ui.pointed;
    let drawing = move || {
        let lit = pointed.get();
        view.with(|v| live_svg(v, lit))
    };
    // The pointed mark's title, as the browser's tooltip: the drawing has none of its own.
    let title = move || pointed.get().and_then(|f| view.with(|v| v.title_of(f)));
    // The pointer on a mark lights its line in the audit log.
    let point = move |e: leptos::ev::MouseEvent| {
        let frame = marked_frame(&e);
        if pointed.get_untracked() != frame {
            pointed.set(frame);
        }
    };
    let summary = move || view.with(|v| v.summary());
    // A click on a mark (an arrow, a read, a bar, a write) seeks to its frame.
    let seek = move |e: leptos::ev::MouseEvent| {
        if let Some(n) = marked_frame(&e) {
            ui.seek(n);
        }
    };
    view! {
        <section class="panel spacetime-panel" id="space-time" tabindex="-1" aria-label="Space-time">
            <header>
                <h2>"Space-time"</h2>
                <span class="sub">"time runs down · an arrow per watch event, sloped by its lag · ◆ a cache read, red when stale"</span>
            </header>
            // Focusable, so a keyboard can scroll it where it overflows.
            <div class="st-wrap" tabindex="0" role="group" aria-label="Space-time drawing" on:click=seek on:mouseover=point on:mouseleave=move |_| pointed.set(None) title=title inner_html=drawing></div>
            <p class="sr-only">{summary}</p>
        </section>
    }
}
