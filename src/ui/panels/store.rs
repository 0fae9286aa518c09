//! The Cluster and Cache panels: one component, [`StorePanel`], seen from
//! either side of the gap ([`Side`]). Both lay out the same rows
//! ([`crate::view::panels::object_rows`]), so they line up row for row.

use super::layout::{kind_abbr, simplified};
use crate::narrate::simplifications::Panel;
use crate::ui::recycle::{set_attr, set_text, text_part, Attr, Look, Recycler};
use crate::ui::state::{part_of, use_ui};
use crate::view::panels::{self as pv, Row, RowState};
use crate::view::snapshot::Snapshot;
use leptos::prelude::*;
use std::hash::Hash;
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
            Side::Cluster => ".cache .rows",
            Side::Cache => ".cluster .rows",
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
            let (_, lacks) = side.counts(s);
            let by_kind = match side {
                Side::Cluster => &s.cluster_kinds,
                Side::Cache => &s.cache_kinds,
            };
            // One text, which wraps only between kinds (no-break spaces within one, and before its "·").
            (pv::holds_parts(by_kind).iter().map(|p| p.replace(' ', "\u{a0}")).collect::<Vec<_>>().join("\u{a0}· "), lacks)
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
    view! {
        <section class=format!("panel {}", side.class()) aria-label=format!("{}{}", use_ui().region_of.get_value(), side.title())>
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

/// What one row shows, on one side: everything its element's attributes
/// and texts are written from. The rows' elements are recycled
/// ([`crate::ui::recycle`]): an element given to another object is written
/// only where the two rows differ. Every row has the same children, and one
/// with nothing to say is empty (style/main.css hides an empty one).
#[derive(Debug, Clone, PartialEq, Default)]
struct RowLook {
    class: String,
    /// `data-kind`, `title` (the object's id): only of a row that names its object.
    kind: Option<&'static str>,
    id: Option<String>,
    abbr: &'static str,
    /// The name, and a generated suffix set apart so the eye sees the server picked it.
    head: String,
    suffix: String,
    rv: String,
    status: String,
    terminating: bool,
    note: String,
}

impl RowLook {
    fn of(side: Side, r: &Row) -> RowLook {
        let depth = if r.depth > 0 { "child" } else { "top" };
        let touched = if r.touched { " touched" } else { "" };
        let Some(rv) = side.rv(r) else {
            // What only the other side holds: a slot without a name.
            let note = match (side, r.pending) {
                (Side::Cache, Some((t, eta))) => format!("{} {}", t.as_str(), pv::arrival_words(eta)),
                (Side::Cache, None) => "not in this cache".to_string(),
                (Side::Cluster, _) => "deleted; the cache still has it".to_string(),
            };
            return RowLook { class: format!("row slot {depth}{touched}"), note, ..RowLook::default() };
        };
        let (class, note) = match (side, r.state()) {
            (Side::Cluster, RowState::NotInCache) => ("row unseen", "not cached yet"),
            (Side::Cache, RowState::GoneFromCluster) => ("row stale", "gone from the cluster"),
            (_, RowState::Stale) => ("row stale", "older version in the cache"),
            _ => ("row", ""),
        };
        let (head, suffix) = if r.generated && r.name.len() > 5 { r.name.split_at(r.name.len() - 5) } else { (r.name.as_str(), "") };
        let status = side.status(r).map(|n| format!("status {n}")).unwrap_or_default();
        let terminating = side.terminating(r);
        // Classes, not `:has()`, say what the row's parts hold: a `:has()`
        // is checked again at every change below it, and rows change every
        // frame. `terminating` dims the name; `noted`: a note takes the
        // resourceVersion's place, unless a status stands between them.
        let noted = status.is_empty() && (terminating || !note.is_empty());
        let mut class = format!("{class} {depth}{touched}");
        for (on, mark) in [(terminating, " terminating"), (noted, " noted")] {
            if on {
                class.push_str(mark);
            }
        }
        RowLook {
            class,
            kind: Some(r.kind.as_str()),
            id: Some(r.id()),
            abbr: kind_abbr(r.kind),
            head: head.to_string(),
            suffix: suffix.to_string(),
            rv: format!("rv {rv}"),
            status,
            terminating,
            note: note.to_string(),
        }
    }
}

const DATA_KIND: Attr = Attr("data-kind");
const DATA_PRESENT: Attr = Attr("data-present");

const STATUS_TITLE: &str = "status.replicas, as the controller last wrote it";
const TERMINATING_TITLE: &str = "deletionTimestamp is set: the kubelet removes it when its grace period is over";

impl Look for RowLook {
    const MARKS: &'static [Attr] = &[Attr::CLASS, DATA_KIND, DATA_PRESENT, Attr::TITLE];

    /// `li.row`: the kind, the name (a generated suffix apart), the rv, the
    /// status, Terminating and the note; parts, their text nodes, then the
    /// status and Terminating spans (their titles).
    fn build() -> (web_sys::Element, Vec<web_sys::Node>) {
        let li = document().create_element("li").expect("an element");
        let (kind, kind_text) = text_part("span", "kind");
        let (name, head) = text_part("span", "name mono");
        let (suffix, suffix_text) = text_part("b", "suffix");
        let _ = name.append_child(&suffix);
        let (rv, rv_text) = text_part("span", "rv mono");
        let (status, status_text) = text_part("span", "status mono");
        let (terminating, terminating_text) = text_part("span", "note terminating");
        let (note, note_text) = text_part("span", "note");
        for part in [&kind, &name, &rv, &status, &terminating, &note] {
            let _ = li.append_child(part);
        }
        (li, vec![kind_text, head, suffix_text, rv_text, status_text, terminating_text, note_text, status.into(), terminating.into()])
    }

    fn paint(&self, li: &web_sys::Element, parts: &[web_sys::Node], was: Option<&Self>) {
        set_attr(li, Attr::CLASS, Some(&self.class), was.map(|w| Some(w.class.as_str())));
        set_attr(li, DATA_KIND, self.kind, was.map(|w| w.kind));
        set_attr(li, DATA_PRESENT, self.kind.map(|_| "true"), was.map(|w| w.kind.map(|_| "true")));
        set_attr(li, Attr::TITLE, self.id.as_deref(), was.map(|w| w.id.as_deref()));
        let terminating = |l: &RowLook| if l.terminating { "Terminating" } else { "" };
        let texts = [self.abbr, &self.head, &self.suffix, &self.rv, &self.status, terminating(self), &self.note];
        let had = was.map(|w| [w.abbr, &w.head, &w.suffix, &w.rv, &w.status, terminating(w), &w.note]);
        for (i, (text, part)) in texts.iter().zip(parts).enumerate() {
            set_text(part, text, had.map(|h| h[i]));
        }
        let status_title = |l: &RowLook| (!l.status.is_empty()).then_some(STATUS_TITLE);
        set_attr(parts[7].unchecked_ref(), Attr::TITLE, status_title(self), was.map(status_title));
        let terminating_title = |l: &RowLook| l.terminating.then_some(TERMINATING_TITLE);
        set_attr(parts[8].unchecked_ref(), Attr::TITLE, terminating_title(self), was.map(terminating_title));
    }
}

/// A row's height, in rem, and the gap below it, in px: the lists' one pitch,
/// set on each list as `--row-h` and `--row-gap` (style/main.css's `.row`
/// reads them), so the rows the list draws and the scroll arithmetic agree.
const ROW_HEIGHT_REM: f64 = 1.75;
const ROW_GAP_PX: f64 = 2.0;

/// Rows kept in the DOM above and below those in view.
const OVERSCAN: usize = 8;

/// Up to this many objects a list draws every row (the page's find and a
/// screen reader's browse mode see them all); past it, only those in view.
const ALL_ROWS: usize = 60;

/// The distance from one row's top to the next's, in px, at the page's root font size.
fn row_pitch() -> f64 {
    let rem = document()
        .document_element()
        .and_then(|root| window().get_computed_style(&root).ok().flatten())
        .and_then(|style| style.get_property_value("font-size").ok())
        // `16px`, `17.5px`: read without the float parser (view::url::parse_decimal).
        .and_then(|size| size.strip_suffix("px").and_then(crate::view::url::parse_decimal))
        .unwrap_or(16.0);
    ROW_HEIGHT_REM * rem + ROW_GAP_PX
}

/// The same rows, seen from one side. Each side names only what it holds; an
/// object only the other side has keeps its row as an unnamed, dashed slot
/// (so the two panels still line up row for row), and an empty side says it
/// is empty rather than drawing a column of slots.
fn objects_list(side: Side) -> impl IntoView {
    let snap = use_ui().snap;
    // A Memo, so the list is built when this side first holds something, not again at every count.
    let holds_any = Memo::new(move |_| snap.with(|s| side.counts(s).0 > 0));
    let note = part_of(snap, move |s, h| s.empty_note(side.is_cache()).hash(h));
    let empty = move || {
        let _ = note.get();
        snap.with_untracked(|s| s.empty_note(side.is_cache())).map(|text| view! { <p class="empty big">{text}</p> })
    };
    let list = move || holds_any.get().then(|| rows_list(side));
    (empty, list)
}

/// Cluster and Cache scroll together, so their rows stay side by side. The
/// list the learner scrolls leads; the other follows, and its own scroll
/// event, the echo of following (marked `data-follows`), is not sent back:
/// it would stop the leader's smooth scroll (Home, End, Page Down) where the
/// follower stood.
fn sync_scroll(el: &web_sys::Element, side: Side) {
    let top = el.scroll_top();
    if el.get_attribute("data-follows").is_some_and(|at| at == top.to_string()) {
        let _ = el.remove_attribute("data-follows");
        return;
    }
    let Some(o) = el.closest(".grid").ok().flatten().and_then(|g| g.query_selector(side.other_lists()).ok().flatten()) else { return };
    if o.scroll_top() != top {
        let _ = o.set_attribute("data-follows", &top.to_string());
        o.set_scroll_top(top);
    }
}

/// One object a line. Past [`ALL_ROWS`] objects, drawn only where the list is
/// scrolled to: the rows in view and [`OVERSCAN`] more either side, between
/// two spacers that stand for the rest, so the list scrolls as if every row
/// were there. Each row says its place (`aria-posinset` of `aria-setsize`),
/// so a screen reader hears "37 of 500" and reaches every row by scrolling. The row the current
/// frame acts on is scrolled into view (computed, not measured: no layout is
/// read while playing).
fn rows_list(side: Side) -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    let heights = ui.list_heights;
    let mine = usize::from(side.is_cache());
    let pitch = row_pitch();
    let list = NodeRef::<leptos::html::Ul>::new();
    let top = RwSignal::new(0.0);
    // Until the list is measured, the window's height bounds it from above.
    let height = RwSignal::new(window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(900.0));
    let len = Memo::new(move |_| snap.with(|s| s.rows.len()));
    let shown = Memo::new(move |_| match len.get() {
        n if n <= ALL_ROWS => 0..n,
        n => pv::visible_rows(n, top.get(), height.get(), pitch, OVERSCAN),
    });
    // Where the list is scrolled, and how tall it is. A frame later than the
    // list's load, or on a resize, the list may be gone: then nothing is kept.
    let measure = move |el: &web_sys::Element| {
        top.try_set(f64::from(el.scroll_top()));
        let h = f64::from(el.client_height());
        if h > 0.0 && height.try_get_untracked().is_some_and(|was| was != h) {
            height.try_set(h);
            heights.try_update(|hs| hs[mine] = h);
        }
    };
    list.on_load(move |el| request_animation_frame(move || measure(&el)));
    let resize = window_event_listener(leptos::ev::resize, move |_| {
        if let Some(el) = list.try_get_untracked().flatten() {
            measure(&el);
        }
    });
    on_cleanup(move || {
        resize.remove();
        heights.try_update(|hs| hs[mine] = 0.0);
    });
    // The lit row in view: its place, against where the list is scrolled;
    // again when a list's height is measured. Of the shorter list, where the
    // other is drawn too: they scroll together, and both show it. While
    // playing, at most as often as `pv::follow_every_ms` says for the speed:
    // faster than that the list only flickers (at ×10 and 500 pods the lit
    // row moved every frame, and the list redrew every row it shows, each
    // time); stepped, sought or paused (a pause runs this again), at once.
    let followed = StoredValue::new(f64::NEG_INFINITY);
    Effect::new(move |_| {
        let other = heights.with(|hs| hs[1 - mine]);
        let h = if other > 0.0 { height.get().min(other) } else { height.get() };
        let Some(i) = snap.with(|s| s.rows.iter().position(|r| r.touched)) else { return };
        let now = crate::ui::state::clock_ms();
        if ui.playing.get() && now - followed.get_value() < pv::follow_every_ms(ui.speed()) {
            return;
        }
        if let Some(to) = pv::scroll_to_show(i, top.get_untracked(), h, pitch) {
            followed.set_value(now);
            // Scrolled, and the rows there drawn, at the next frame's start
            // (`Ui::at_next_frame`): set now, the scroll would lay the page out twice.
            // Its scroll event is marked (`data-scrolled`): where the list
            // stands is known, and reading it there would lay the page out
            // again, the other list's rows having been redrawn by then.
            // Only a scroll that moved the list has an event to mark: one the
            // browser clamps to where the list already stands (the taller of
            // the two lists, at its end, follows the shorter's arithmetic)
            // has none, and its mark would swallow the learner's next scroll,
            // the rows drawn left where they were. The frame's start is laid
            // out: reading where the list stands there lays nothing out.
            ui.at_next_frame(move || {
                let Some(el) = list.try_get_untracked().flatten() else { return };
                let before = el.scroll_top();
                el.set_scroll_top(to.round() as i32);
                let after = el.scroll_top();
                if after != before {
                    // Where it went: an event that finds the list elsewhere
                    // is the learner's too (the browser sends one scroll
                    // event a frame, theirs and this one coalesced), and is measured.
                    let _ = el.set_attribute("data-scrolled", &after.to_string());
                }
                top.try_set(f64::from(after));
            });
        }
    });
    // The rows, recycled (crate::ui::recycle), and past ALL_ROWS the rows
    // not drawn, above and below, as two empty items of their height (a
    // list's own padding would not do: a border-box list grows to hold it
    // instead of scrolling); only a windowed list has them. Each row says its
    // place (`aria-posinset` of `aria-setsize`).
    // Each spacer's element, and the style last written on it.
    let pool = StoredValue::new_local(None::<(Recycler<RowLook>, [(web_sys::Element, String); 2])>);
    // A render effect, as tachys draws its own views: run as the frame's render runs.
    let drawn = RenderEffect::new(move |_| {
        let Some(ul) = list.get() else { return };
        let (r, n) = (shown.get(), len.get());
        let wanted: Vec<(String, RowLook, usize)> = snap.with(|s| {
            let rows = s.rows.get(r.clone()).unwrap_or_default();
            rows.iter().zip(r.start + 1..).map(|(row, at)| (row.id(), RowLook::of(side, row), at)).collect()
        });
        pool.update_value(|pool| {
            let (rows, [(above, above_style), (below, below_style)]) = pool.get_or_insert_with(|| {
                let spacer = || {
                    let li = document().create_element("li").expect("an element");
                    li.set_class_name("spacer");
                    let _ = li.set_attribute("aria-hidden", "true");
                    (li, String::new())
                };
                (Recycler::new(ul.clone().into()), [spacer(), spacer()])
            });
            let windowed = n > ALL_ROWS;
            if windowed {
                if ul.first_child().is_none_or(|c| c != **above) {
                    let _ = ul.insert_before(above, ul.first_child().as_ref());
                }
                if below.parent_node().is_none() || below.next_sibling().is_some() {
                    let _ = ul.append_child(below);
                }
                for (spacer, style, rows) in [(&*above, above_style, r.start), (&*below, below_style, n - r.end)] {
                    let height = format!("height:{:.2}px", rows as f64 * pitch);
                    if *style != height {
                        Attr::STYLE.set(spacer, &height);
                        *style = height;
                    }
                }
            } else {
                above.remove();
                below.remove();
            }
            rows.show(&wanted, Some(n), windowed.then_some(&**below));
        });
    });
    StoredValue::new_local(drawn);
    view! {
        <ul
            class="rows"
            role="list"
            tabindex="0"
            aria-label=side.list_label()
            node_ref=list
            style=format!("--row-h:{ROW_HEIGHT_REM}rem;--row-gap:{ROW_GAP_PX}px")
            on:scroll=move |ev| {
                if let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                    // The echo of scrolling to the touched row: `top` is already
                    // where it went, if the list is still there.
                    if let Some(went) = el.get_attribute("data-scrolled") {
                        let _ = el.remove_attribute("data-scrolled");
                        if went == el.scroll_top().to_string() {
                            return;
                        }
                    }
                    measure(&el);
                    sync_scroll(&el, side);
                }
            }
        >
        </ul>
    }
}
