//! Menus and popovers: every `<details data-popover>` (Export, "Can it go
//! wrong?", and Settings where it opens over the panels) closes on Escape and
//! on a press outside it, gives the focus back to its summary, opens just
//! below its summary (never over it), and is the only one open.
//!
//! `data-popover="always"` is a popover at every size; `"compact"` only on a
//! phone, a short window or in an embed, where the settings fold away (the
//! same media query as the stylesheet's compact layout).

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// The stylesheet's compact layout: the settings fold into a popover.
pub const COMPACT_QUERY: &str = "(max-width: 700px), (max-height: 500px)";

fn is_popover(el: &Element) -> bool {
    match el.get_attribute("data-popover").as_deref() {
        Some("always") => true,
        Some("compact") => compact() || el.closest(".app.embed").ok().flatten().is_some(),
        _ => false,
    }
}

/// The page is in its compact layout.
pub fn compact() -> bool {
    window().match_media(COMPACT_QUERY).ok().flatten().is_some_and(|m| m.matches())
}

fn open_popovers() -> Vec<Element> {
    let Ok(all) = document().query_selector_all("details[data-popover][open]") else { return Vec::new() };
    (0..all.length()).filter_map(|i| all.item(i)).filter_map(|n| n.dyn_into::<Element>().ok()).filter(is_popover).collect()
}

fn summary_of(details: &Element) -> Option<HtmlElement> {
    details.query_selector(":scope > summary").ok().flatten().and_then(|s| s.dyn_into::<HtmlElement>().ok())
}

fn close(details: &Element) {
    if let Some(d) = details.dyn_ref::<web_sys::HtmlDetailsElement>() {
        d.set_open(false);
    }
}

/// Close every open popover; the focus goes back to the summary of the one
/// that held it (or, with `focus_back`, of the last one open).
pub fn close_all(focus_back: bool) {
    let active = document().active_element();
    let open = open_popovers();
    let held = open.iter().find(|d| active.as_ref().is_some_and(|a| d.contains(Some(a)))).cloned();
    let back = held.or_else(|| open.last().cloned().filter(|_| focus_back));
    for d in &open {
        close(d);
    }
    if let Some(summary) = back.as_ref().and_then(summary_of) {
        let _ = summary.focus();
    }
}

/// Open below its summary: the popover's top edge is the summary's bottom.
/// A menu hangs from its summary's right edge; where the header has wrapped
/// its summary to the left, so that it would hang past the window's left
/// edge, it hangs from the summary's left edge instead.
fn place(details: &Element) {
    let Some(summary) = summary_of(details) else { return };
    let bottom = summary.get_bounding_client_rect().bottom().ceil() + 4.0;
    if let Some(el) = details.dyn_ref::<HtmlElement>() {
        let _ = el.style().set_property("--pop-top", &format!("{bottom}px"));
    }
    let Some(items) = details.query_selector(":scope > .menu-items").ok().flatten() else { return };
    let Some(el) = items.dyn_ref::<HtmlElement>() else { return };
    let style = el.style();
    let _ = style.remove_property("left");
    let _ = style.remove_property("right");
    if items.get_bounding_client_rect().left() < 0.0 {
        let _ = style.set_property("left", "0");
        let _ = style.set_property("right", "auto");
    }
}

fn focusable(el: &Element) -> bool {
    el.closest("a[href], button, input, select, textarea, summary, [tabindex]").ok().flatten().is_some()
}

/// Listen, for as long as the page is mounted.
pub fn install() {
    // A press outside an open popover closes it; on nothing focusable, the
    // focus goes back to its summary.
    let down = Closure::<dyn Fn(web_sys::Event)>::new(|e: web_sys::Event| {
        let Some(target) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
        for d in open_popovers() {
            if !d.contains(Some(&target)) {
                match summary_of(&d).filter(|_| !focusable(&target)) {
                    // After the press's own mousedown, which would take the focus to the
                    // page: closed and focused in one task, so no one sees it closed with
                    // the focus lost.
                    Some(s) => {
                        gloo_timers::callback::Timeout::new(0, move || {
                            close(&d);
                            let _ = s.focus();
                        })
                        .forget();
                    }
                    None => close(&d),
                }
            }
        }
    });
    // `toggle` does not bubble: listen in the capture phase. One open at a time, below its summary.
    let toggle = Closure::<dyn Fn(web_sys::Event)>::new(|e: web_sys::Event| {
        let Some(d) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
        if d.get_attribute("data-popover").is_none() || !d.has_attribute("open") {
            return;
        }
        place(&d);
        if is_popover(&d) {
            for other in open_popovers().into_iter().filter(|o| *o != d) {
                close(&other);
            }
        }
    });
    let capture = web_sys::AddEventListenerOptions::new();
    capture.set_capture(true);
    let w = window();
    let _ = w.add_event_listener_with_callback_and_add_event_listener_options("pointerdown", down.as_ref().unchecked_ref(), &capture);
    let _ = w.add_event_listener_with_callback_and_add_event_listener_options("toggle", toggle.as_ref().unchecked_ref(), &capture);
    // A resize or a rotation moves the summaries.
    let resized = window_event_listener_untyped("resize", |_| {
        for d in open_popovers() {
            place(&d);
        }
    });
    let held = StoredValue::new_local(Some((down, toggle)));
    on_cleanup(move || {
        resized.remove();
        if let Some((down, toggle)) = held.try_update_value(Option::take).flatten() {
            let w = window();
            let _ = w.remove_event_listener_with_callback_and_bool("pointerdown", down.as_ref().unchecked_ref(), true);
            let _ = w.remove_event_listener_with_callback_and_bool("toggle", toggle.as_ref().unchecked_ref(), true);
        }
    });
}
