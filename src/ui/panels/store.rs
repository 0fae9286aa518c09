//! The Cluster and Cache panels: one component, [`StorePanel`], seen from
//! either side of the gap ([`Side`]). Both lay out the same rows
//! ([`crate::view::panels::object_rows`]), so they line up row for row.

use super::layout::{keep_in_view, kind_abbr, simplified};
use crate::narrate::simplifications::Panel;
use crate::narrate::units::{plural, secs};
use crate::ui::state::use_ui;
use crate::view::panels::{self as pv, Row, RowState};
use crate::view::snapshot::Snapshot;
use leptos::either::Either;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Which side of the gap a store panel shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The truth: every object the apiserver holds now.
    Cluster,
    /// The controller's informer store: what its lister returns.
    Cache,
}

impl Side {
    /// The panel's class and its heading.
    fn class(self) -> &'static str {
        match self {
            Side::Cluster => "cluster",
            Side::Cache => "cache",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Side::Cluster => "Cluster",
            Side::Cache => "Cache",
        }
    }

    fn list_label(self) -> &'static str {
        match self {
            Side::Cluster => "Objects in the cluster",
            Side::Cache => "Objects in the cache",
        }
    }

    /// The other side's lists, which scroll with this one's.
    fn other_lists(self) -> &'static str {
        match self {
            Side::Cluster => ".cache .rows, .cache .chips",
            Side::Cache => ".cluster .rows, .cluster .chips",
        }
    }

    fn panel(self) -> Panel {
        match self {
            Side::Cluster => Panel::Cluster,
            Side::Cache => Panel::Cache,
        }
    }

    fn is_cache(self) -> bool {
        self == Side::Cache
    }

    /// The objects this side holds, and those the other holds and this one lacks.
    fn counts(self, s: &Snapshot) -> (usize, usize) {
        match self {
            Side::Cluster => (s.cluster_holds, s.cluster_lacks),
            Side::Cache => (s.cache_holds, s.cache_lacks),
        }
    }

    /// What the header says of the objects this side lacks.
    fn lacks_words(self, n: usize) -> String {
        match self {
            Side::Cluster => format!("{n} deleted, still cached"),
            Side::Cache => format!("lacks {n}"),
        }
    }

    /// The version of the row's object this side holds, if it holds one.
    fn rv(self, r: &Row) -> Option<u64> {
        match self {
            Side::Cluster => r.cluster_rv,
            Side::Cache => r.cache_rv,
        }
    }

    /// The version this side holds is Terminating.
    fn terminating(self, r: &Row) -> bool {
        match self {
            Side::Cluster => r.terminating.0,
            Side::Cache => r.terminating.1,
        }
    }

    /// The `status.replicas` of the version this side holds.
    fn status(self, r: &Row) -> Option<u32> {
        match self {
            Side::Cluster => r.status_replicas.0,
            Side::Cache => r.status_replicas.1,
        }
    }
}

/// Cluster or Cache: the header (how many objects this side holds, and the
/// gap to the other; the cluster's resourceVersion, or the cache's
/// `HasSynced`), the rows, and the panel's note on what it simplifies.
#[component]
pub fn StorePanel(side: Side) -> impl IntoView {
    let snap = use_ui().snap;
    let synced = move || snap.with(|s| s.synced);
    let sub = move || match side {
        Side::Cluster => "the truth".to_string(),
        Side::Cache => snap.with(|s| s.replicas.clone().unwrap_or_else(|| "the informer's store".to_string())),
    };
    // The counts never give way to the rest of the header: "lacks N" is the stale gap itself.
    let counts = move || {
        snap.with(|s| {
            let (holds, lacks) = side.counts(s);
            (plural(holds as u64, "object", "objects"), lacks)
        })
    };
    let badge = move || match side {
        Side::Cluster => format!("rv {}", snap.with(|s| s.resource_version)),
        Side::Cache => if synced() { "HasSynced ✓" } else { "HasSynced ✗" }.to_string(),
    };
    let badge_class = match side {
        Side::Cluster => "badge mono",
        Side::Cache => "badge synced",
    };
    if side == Side::Cluster {
        // Once for both lists, from the Cluster side.
        follow_touched();
    }
    view! {
        <section class=format!("panel {}", side.class()) aria-label=side.title()>
            <header>
                <h2>{side.title()}</h2>
                <span class="sub">{sub}</span>
                <span class="counts mono">
                    {move || counts().0}
                    {move || (counts().1 > 0).then(|| view! { " · " <b class="lacks">{side.lacks_words(counts().1)}</b> })}
                </span>
                <span class=badge_class class:no=move || side.is_cache() && !synced()>{badge}</span>
            </header>
            {objects_list(side)}
            {simplified(side.panel())}
        </section>
    }
}

/// A key that changes whenever what a row shows changes, so `For` redraws it.
fn row_key(r: &Row) -> String {
    // The note shows `secs(eta)`: key on that very text, so the row redraws when it changes.
    let pending = r.pending.map(|(t, eta)| format!("{}{}", t.as_str(), secs(eta))).unwrap_or_default();
    format!("{}|{:?}|{:?}|{pending}|{}|{:?}|{:?}", r.id, r.cluster_rv, r.cache_rv, r.touched, r.terminating, r.status_replicas)
}

/// The row class, lit when the current frame acted on the object.
fn row_class(base: &str, r: &Row) -> String {
    let depth = if r.depth > 0 { "child" } else { "top" };
    format!("{base} {depth}{}", if r.touched { " touched" } else { "" })
}

/// The name, with a generated suffix set apart so the eye sees the server picked it.
fn name_view(r: &Row) -> impl IntoView {
    let (head, tail) = if r.generated && r.name.len() > 5 { r.name.split_at(r.name.len() - 5) } else { (r.name.as_str(), "") };
    view! { <span class="name mono">{head.to_string()}<b class="suffix">{tail.to_string()}</b></span> }
}

/// Above this many objects a panel draws each child as a chip: one element,
/// its state in its outline, its name in its tooltip. Hundreds of pods stay
/// legible at a glance and cheap to redraw while playing.
const DENSE_ROWS: usize = 60;

/// The most chips a panel draws (the first, in key order): past it, a count.
/// Thousands of chips tell no more than the count does, and laying them out
/// would hold the main thread for most of a second.
const MAX_CHIPS: usize = 500;

/// The same rows, seen from one side. Each side names only what it holds; an
/// object only the other side has keeps its row as an unnamed, dashed slot
/// (so the two panels still line up row for row), and an empty side says it
/// is empty rather than drawing a column of slots.
fn objects_list(side: Side) -> impl IntoView {
    let snap = use_ui().snap;
    let dense = Memo::new(move |_| snap.with(|s| s.rows.len() > DENSE_ROWS));
    let holds = move || snap.with(|s| side.counts(s).0);
    let empty = move || snap.with(|s| s.empty_note(side.is_cache())).map(|text| view! { <p class="empty big">{text}</p> });
    let list = move || (holds() > 0).then(|| if dense.get() { Either::Left(chips(side)) } else { Either::Right(rows_list(side)) });
    (empty, list)
}

/// Keeps the object the current frame acted on in view while stepping or
/// playing: scrolls the Cluster and Cache lists just enough, never the page.
/// Runs as an effect, after the rows are drawn.
fn follow_touched() {
    let snap = use_ui().snap;
    Effect::new(move |_| {
        snap.track();
        // Rows only: past 60 objects the panels draw chips, all in view at once.
        let Ok(lists) = document().query_selector_all(".cluster .rows, .cache .rows") else { return };
        for list in (0..lists.length()).filter_map(|i| lists.item(i)).filter_map(|n| n.dyn_into::<web_sys::Element>().ok()) {
            keep_in_view(&list, ":scope > .touched");
        }
    });
}

/// Cluster and Cache scroll together, so their rows stay side by side.
fn sync_scroll(ev: &web_sys::Event, side: Side) {
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let Some(o) = el.closest(".grid").ok().flatten().and_then(|g| g.query_selector(side.other_lists()).ok().flatten()) else { return };
    if o.scroll_top() != el.scroll_top() {
        o.set_scroll_top(el.scroll_top());
    }
}

/// The dense form: owners as rows, children as chips.
fn chips(side: Side) -> impl IntoView {
    let snap = use_ui().snap;
    let more = move || snap.with(|s| s.rows.len().saturating_sub(MAX_CHIPS));
    view! {
        <ul class="chips" role="list" tabindex="0" aria-label=side.list_label() on:scroll=move |ev| sync_scroll(&ev, side)>
            <For
                each=move || snap.with(|s| s.rows.iter().take(MAX_CHIPS).map(|r| (format!("{}|{:?}|{:?}|{}|{}|{:?}", r.id, r.cluster_rv, r.cache_rv, r.pending.is_some(), r.touched, r.terminating), r.clone())).collect::<Vec<_>>())
                key=|(k, _)| k.clone()
                children=move |(_, r): (String, Row)| {
                    if side.rv(&r).is_none() {
                        // Held by the other side only: an unnamed slot.
                        return Either::Left(view! { <li class=row_class("chip slot", &r) aria-hidden="true"></li> });
                    }
                    let class = match (side, r.state()) {
                        (Side::Cluster, RowState::NotInCache) => "chip unseen",
                        (Side::Cache, RowState::GoneFromCluster) | (_, RowState::Stale) => "chip stale",
                        _ => "chip",
                    };
                    let class = if side.terminating(&r) { format!("{class} terminating") } else { class.to_string() };
                    let label = if r.depth > 0 { String::new() } else { format!("{} {}", kind_abbr(r.kind), r.name) };
                    Either::Right(view! {
                        <li class=row_class(&class, &r) data-kind=r.kind.as_str() data-present="true" title=r.name.clone()>{label}</li>
                    })
                }
            />
            {move || (more() > 0).then(|| view! { <li class="chip more">{format!("and {} more", more())}</li> })}
        </ul>
    }
}

/// The row form, one object a line.
fn rows_list(side: Side) -> impl IntoView {
    let snap = use_ui().snap;
    view! {
        <ul class="rows" role="list" tabindex="0" aria-label=side.list_label() on:scroll=move |ev| sync_scroll(&ev, side)>
            <For
                each=move || snap.with(|s| s.rows.clone())
                key=row_key
                children=move |r: Row| {
                    let state = r.state();
                    let Some(rv) = side.rv(&r) else {
                        // What only the other side holds: a slot without a name.
                        let note = match (side, r.pending) {
                            (Side::Cache, Some((t, eta))) => format!("{} {}", t.as_str(), pv::arrival_words(eta)),
                            (Side::Cache, None) => "not in this cache".to_string(),
                            (Side::Cluster, _) => "deleted; the cache still has it".to_string(),
                        };
                        return Either::Left(view! {
                            <li class=row_class("row slot", &r)><span class="note">{note}</span></li>
                        });
                    };
                    let terminating = side.terminating(&r);
                    let status = side.status(&r);
                    let (class, note) = match (side, state) {
                        (Side::Cluster, RowState::NotInCache) => ("row unseen", "not cached yet".to_string()),
                        (Side::Cache, RowState::GoneFromCluster) => ("row stale", "gone from the cluster".to_string()),
                        (_, RowState::Stale) => ("row stale", "older version in the cache".to_string()),
                        _ => ("row", String::new()),
                    };
                    Either::Right(view! {
                        <li class=row_class(class, &r) data-kind=r.kind.as_str() data-present="true" title=r.id.clone()>
                            <span class="kind">{kind_abbr(r.kind)}</span>
                            {name_view(&r)}
                            <span class="rv mono">{format!("rv {rv}")}</span>
                            {status.map(|n| view! { <span class="status mono" title="status.replicas, as the controller last wrote it">{format!("status {n}")}</span> })}
                            {terminating.then(|| view! { <span class="note terminating" title="deletionTimestamp is set: the kubelet removes it when its grace period is over">"Terminating"</span> })}
                            {(!note.is_empty()).then(|| view! { <span class="note">{note}</span> })}
                        </li>
                    })
                }
            />
        </ul>
    }
}
