//! The help dialog: every key, and what the simulation simplifies.

use super::state::use_ui;
use leptos::prelude::*;

/// The help overlay: every key, and what the simulation simplifies. A modal
/// dialog: Tab stays inside it, and closing it returns the focus to where it was.
#[component]
pub(super) fn Help() -> impl IntoView {
    let ui = use_ui();
    let close = NodeRef::<leptos::html::Button>::new();
    let dialog = NodeRef::<leptos::html::Div>::new();
    let opener = document().active_element();
    Effect::new(move |_| {
        if let Some(b) = close.get() {
            let _ = b.focus();
        }
    });
    on_cleanup(move || {
        if let Some(el) = opener.and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok()) {
            let _ = el.focus();
        }
    });
    // Tab and Shift+Tab cycle through the dialog's own controls.
    let trap = move |e: web_sys::KeyboardEvent| {
        if e.key() != "Tab" {
            return;
        }
        let Some(d) = dialog.get() else { return };
        let Ok(all) = d.query_selector_all("a[href], button, input, select, [tabindex='0']") else { return };
        let items: Vec<web_sys::HtmlElement> =
            (0..all.length()).filter_map(|i| all.item(i)).filter_map(|n| wasm_bindgen::JsCast::dyn_into(n).ok()).collect();
        let (Some(first), Some(last)) = (items.first(), items.last()) else { return };
        let active = document().active_element();
        let at =
            |el: &web_sys::HtmlElement| active.as_ref().is_some_and(|a| a == wasm_bindgen::JsCast::unchecked_ref::<web_sys::Element>(el));
        let inside = active.as_ref().is_some_and(|a| d.contains(Some(a)));
        if e.shift_key() && (at(first) || !inside) {
            e.prevent_default();
            let _ = last.focus();
        } else if !e.shift_key() && (at(last) || !inside) {
            e.prevent_default();
            let _ = first.focus();
        }
    };
    view! {
        <div class="overlay" on:click=move |_| ui.help_open.set(false)>
            <div
                class="dialog"
                role="dialog"
                aria-modal="true"
                aria-labelledby="help-title"
                node_ref=dialog
                on:click=|e| e.stop_propagation()
                on:keydown=trap
            >
                <h2 id="help-title">"What you see"</h2>
                <dl class="panels-help">
                    <dt>"Cluster"</dt><dd>"The truth: every object the apiserver holds now, with its resourceVersion."</dd>
                    <dt>"Watch"</dt><dd>"The events on their way from the apiserver to the controller's cache, each arriving after the watch lag."</dd>
                    <dt>"Cache"</dt><dd>"The informer's store: what the controller's lister returns. A dashed slot is an object the cluster has and this cache does not yet."</dd>
                    <dt>"Expectations"</dt><dd>"ControllerExpectations: the creates and deletes a controller waits to see come back through the watch before it trusts its cache again."</dd>
                    <dt>"Workqueue"</dt><dd>"The keys waiting to be reconciled, the ones being processed, and those added again while they were."</dd>
                    <dt>"Reconcile"</dt><dd>"The controller's code, the current step lit, with the values it read from the cache."</dd>
                    <dt>"Observations"</dt><dd>"What the lab expects, checked against this run once it has ended (or when you ask), beside the counts so far."</dd>
                </dl>
                <p>
                    "Each event in flight in the Watch panel has three buttons: ⇥ deliver it now, ‖ hold it back (then ▶ release it) and ✕ drop it. "
                    "Each choice joins the scenario's schedule, so the link replays it."
                </p>
                <h2>"Keys"</h2>
                <dl class="keys">
                    <dt><kbd>"Space"</kbd></dt><dd>"Play / pause"</dd>
                    <dt><kbd>"→"</kbd></dt><dd>"Step forward"</dd>
                    <dt><kbd>"Shift"</kbd>" + "<kbd>"→"</kbd></dt><dd>"Step to the next reconcile"</dd>
                    <dt><kbd>"←"</kbd></dt><dd>"Step back"</dd>
                    <dt><kbd>"R"</kbd></dt><dd>"Reset to frame 0"</dd>
                    <dt><kbd>"?"</kbd></dt><dd>"This help"</dd>
                    <dt><kbd>"Esc"</kbd></dt><dd>"Close it"</dd>
                </dl>
                <p>
                    "After you click a setting, Space, ← and → still drive the run. Reach a setting with Tab instead and it keeps its own keys."
                </p>
                <h2>"Sharing and files"</h2>
                <p>
                    "Share copies a link to this moment; Embed, an iframe for a course page. Import a scenario file, or drop one on the page; "
                    "export the scenario, the trace (what cachescope trace prints) or this frame as SVG."
                </p>
                <h2>"Can it go wrong?"</h2>
                <p>
                    "Find a bug replays this scenario holding back one watch event (1 s or 10 s beyond the lag), then two, then three, "
                    "searching breadth-first so the first break it finds is one of the shortest, and skipping any state it has already been in. "
                    "A break loads as the run: the held-back event is named on its wire, in the caption when it arrives, and by a mark on "
                    "the timeline; the link carries it. Finding none is a bounded answer: no break among the timings tried, not a proof for every timing."
                </p>
                <h2>"How this differs from a real cluster"</h2>
                <ul class="simplifications">
                    {crate::narrate::simplifications::SIMPLIFICATIONS.iter().map(|s| view! { <li>{s.text}</li> }).collect_view()}
                    <li>"The garbage collector's own cache deliveries are hidden when stepping unless an owner is deleted (GC steps shows them)."</li>
                </ul>
                <button node_ref=close on:click=move |_| ui.help_open.set(false)>"Close"</button>
            </div>
        </div>
    }
}
