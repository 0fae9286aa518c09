//! The one modal dialog of the page (Help, Your notes): an overlay, a
//! labelled `dialog` that keeps Tab inside it and closes on Escape, a press
//! outside it, or its own Close, giving the focus back to where it was.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A modal dialog labelled by the element `labelled_by` names (its heading),
/// its first button focused on opening; `close` is called to close it.
#[component]
pub(super) fn Modal(
    /// The id of the dialog's heading.
    labelled_by: &'static str,
    /// A class for the dialog beside `dialog` (its width, say).
    #[prop(optional)]
    class: &'static str,
    close: Callback<()>,
    children: Children,
) -> impl IntoView {
    let dialog = NodeRef::<leptos::html::Div>::new();
    let opener = document().active_element();
    Effect::new(move |_| {
        let first = dialog.get().and_then(|d| d.query_selector("button").ok().flatten());
        if let Some(b) = first.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = b.focus();
        }
    });
    // Escape closes it wherever the focus is (on the page itself, after a
    // press on the dialog's text); inside it, its own handler does first.
    let escape = window_event_listener(leptos::ev::keydown, move |e| {
        if e.key() == "Escape" {
            close.run(());
        }
    });
    on_cleanup(move || {
        escape.remove();
        if let Some(el) = opener.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
    // Escape closes; Tab and Shift+Tab cycle through the dialog's own controls.
    let keys = move |e: web_sys::KeyboardEvent| {
        if e.key() == "Escape" {
            e.stop_propagation();
            close.run(());
            return;
        }
        if e.key() != "Tab" {
            return;
        }
        let Some(d) = dialog.get() else { return };
        let Ok(all) = d.query_selector_all("a[href], button, input, select, textarea, [tabindex='0']") else { return };
        let items: Vec<web_sys::HtmlElement> = (0..all.length()).filter_map(|i| all.item(i)).filter_map(|n| n.dyn_into().ok()).collect();
        let (Some(first), Some(last)) = (items.first(), items.last()) else { return };
        let active = document().active_element();
        let at = |el: &web_sys::HtmlElement| active.as_ref().is_some_and(|a| a == el.unchecked_ref::<web_sys::Element>());
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
        <div class="overlay" on:click=move |_| close.run(())>
            <div
                class=format!("dialog {class}")
                role="dialog"
                aria-modal="true"
                aria-labelledby=labelled_by
                node_ref=dialog
                on:click=|e| e.stop_propagation()
                on:keydown=keys
            >
                {children()}
            </div>
        </div>
    }
}
