//! Small pieces of layout several panels share: a kind's short name, a CSS
//! percentage, the panel's note on what it simplifies, scrolling a list to
//! an item.

use crate::narrate::simplifications::Panel;
use crate::sim::object::Kind;
use leptos::prelude::*;

/// A kind's short name, as the rows, the wires and the audit log show it.
pub(super) fn kind_abbr(k: Kind) -> &'static str {
    match k {
        Kind::Ensemble => "Ens",
        Kind::ConfigMap => "CM",
        Kind::ReplicaSet => "RS",
        Kind::Pod => "Pod",
    }
}

/// A 0..=1 fraction as a CSS percentage with one decimal, without float formatting.
pub(in crate::ui) fn percent(f: f64) -> String {
    let p = (f.clamp(0.0, 1.0) * 1000.0).round() as u32;
    format!("{}.{}%", p / 10, p % 10)
}

/// The one line a panel carries on how the simulation simplifies what it shows.
pub(super) fn simplified(panel: Panel) -> impl IntoView {
    crate::narrate::simplifications::panel_note(panel).map(|note| view! { <p class="simplified">{note}</p> })
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
