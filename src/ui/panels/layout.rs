//! Small pieces of layout several panels share: a kind's short name, a CSS
//! percentage, the panel's note on what it simplifies, scrolling a list to
//! an item, and whether a panel is worth redrawing while playing.

use crate::narrate::simplifications::Panel;
use crate::sim::object::Kind;
use leptos::prelude::*;
use wasm_bindgen::{closure::Closure, JsCast};

/// A kind's short name, as the rows, the wires and the audit log show it.
pub(super) fn kind_abbr(k: Kind) -> &'static str {
    match k {
        Kind::Ensemble => "Ens",
        Kind::ConfigMap => "CM",
        Kind::ReplicaSet => "RS",
        Kind::Pod => "Pod",
        // A kind of the scenario's own: its capitals (`RayCluster`: RC); with
        // one capital, its name if it fits the column (`Node`), else its first
        // three letters (`Member`: Mem).
        Kind::Declared(d) => {
            let caps: String = d.name.chars().filter(char::is_ascii_uppercase).collect();
            if caps.len() >= 2 {
                crate::sim::object::intern(&caps)
            } else if d.name.chars().count() <= 4 {
                d.name
            } else {
                crate::sim::object::intern(&d.name.chars().take(3).collect::<String>())
            }
        }
    }
}

/// A 0..=1 fraction as a CSS percentage with one decimal, without float formatting.
pub(in crate::ui) fn percent(f: f64) -> String {
    let p = (f.clamp(0.0, 1.0) * 1000.0).round() as u32;
    format!("{}.{}%", p / 10, p % 10)
}

/// The one line a panel carries on how the simulation simplifies what it
/// shows, in this run (none when no simplification applies to it here).
pub(super) fn simplified(panel: Panel) -> impl IntoView {
    let controls = crate::ui::state::use_ui().controls;
    move || {
        let traits = controls.with(|c| c.traits());
        crate::narrate::simplifications::panel_note(panel, &traits).map(|note| view! { <p class="simplified">{note}</p> })
    }
}

/// Whether a panel below the first screen is worth redrawing: it is in view
/// (an IntersectionObserver says so, after the browser's layout, at no cost
/// to a frame), or the run is not playing. While playing, Space-time and the
/// logs, scrolled out of view, are left as they were, and redrawn the moment
/// they come into view or playback stops: every step by hand, every seek
/// and every pause draws them, so what a screen reader or a test reads of a
/// paused page is always the current frame's.
pub(super) fn worth_drawing(section: NodeRef<leptos::html::Section>) -> Memo<bool> {
    let playing = crate::ui::state::use_ui().playing;
    let in_view = RwSignal::new(true);
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Some(el) = section.get() else { return false };
        let seen = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            if let Some(entry) = entries.iter().last().and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok()) {
                in_view.try_set(entry.is_intersecting());
            }
        });
        if let Ok(observer) = web_sys::IntersectionObserver::new(seen.as_ref().unchecked_ref()) {
            observer.observe(&el);
            seen.forget();
            on_cleanup(move || observer.disconnect());
        }
        true
    });
    Memo::new(move |_| in_view.get() || !playing.get())
}

/// Scrolls `list` just enough to show its child matching `selector`.
pub(super) fn keep_in_view(list: &web_sys::Element, selector: &str) {
    let Some(item) = list.query_selector(selector).ok().flatten() else { return };
    let (r, l) = (item.get_bounding_client_rect(), list.get_bounding_client_rect());
    let by = if r.top() < l.top() { r.top() - l.top() } else { (r.bottom() - l.bottom()).max(0.0) };
    if by != 0.0 {
        list.set_scroll_top(list.scroll_top() + by as i32);
    }
}
