//! The panels. Each is a labelled region laying out one view from
//! [`crate::view::panels`]; none computes anything the views do not.

use super::use_ui;
use crate::narrate::simplifications::Panel;
use crate::narrate::units::{fmt_ms, plural, secs};
use crate::sim::apiserver::{Actor, ControllerKind};
use crate::sim::object::Kind;
use crate::view::panels::{self as pv, Row, RowState, TimelineEntry};
use leptos::either::Either;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Wires shown at once on the Watch lane; the rest are counted.
const MAX_WIRES: usize = 40;

fn kind_abbr(k: Kind) -> &'static str {
    match k {
        Kind::Ensemble => "Ens",
        Kind::ConfigMap => "CM",
        Kind::ReplicaSet => "RS",
        Kind::Pod => "Pod",
    }
}

/// A 0..=1 fraction as a CSS percentage with one decimal, without float formatting.
pub(super) fn percent(f: f64) -> String {
    let p = (f.clamp(0.0, 1.0) * 1000.0).round() as u32;
    format!("{}.{}%", p / 10, p % 10)
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

/// Cluster or Cache: the same rows, seen from one side. Each side names only
/// what it holds; an object only the other side has keeps its row as an
/// unnamed, dashed slot (so the two panels still line up row for row), and an
/// empty side says it is empty rather than drawing a column of slots.
fn objects_list(cache_side: bool) -> impl IntoView {
    let snap = use_ui().snap;
    let dense = Memo::new(move |_| snap.with(|s| s.rows.len() > DENSE_ROWS));
    let holds = move || snap.with(|s| if cache_side { s.cache_holds } else { s.cluster_holds });
    let empty = move || snap.with(|s| s.empty_note(cache_side)).map(|text| view! { <p class="empty big">{text}</p> });
    let list =
        move || (holds() > 0).then(|| if dense.get() { Either::Left(chips(cache_side)) } else { Either::Right(rows_list(cache_side)) });
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
fn sync_scroll(ev: &web_sys::Event, cache_side: bool) {
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    let other = if cache_side { ".cluster .rows, .cluster .chips" } else { ".cache .rows, .cache .chips" };
    let Some(o) = el.closest(".grid").ok().flatten().and_then(|g| g.query_selector(other).ok().flatten()) else { return };
    if o.scroll_top() != el.scroll_top() {
        o.set_scroll_top(el.scroll_top());
    }
}

fn list_label(cache_side: bool) -> &'static str {
    if cache_side {
        "Objects in the cache"
    } else {
        "Objects in the cluster"
    }
}

/// The dense form: owners as rows, children as chips.
fn chips(cache_side: bool) -> impl IntoView {
    let snap = use_ui().snap;
    let more = move || snap.with(|s| s.rows.len().saturating_sub(MAX_CHIPS));
    view! {
        <ul class="chips" role="list" tabindex="0" aria-label=list_label(cache_side) on:scroll=move |ev| sync_scroll(&ev, cache_side)>
            <For
                each=move || snap.with(|s| s.rows.iter().take(MAX_CHIPS).map(|r| (format!("{}|{:?}|{:?}|{}|{}|{:?}", r.id, r.cluster_rv, r.cache_rv, r.pending.is_some(), r.touched, r.terminating), r.clone())).collect::<Vec<_>>())
                key=|(k, _)| k.clone()
                children=move |(_, r): (String, Row)| {
                    let present = if cache_side { r.cache_rv.is_some() } else { r.cluster_rv.is_some() };
                    if !present {
                        // Held by the other side only: an unnamed slot.
                        return Either::Left(view! { <li class=row_class("chip slot", &r) aria-hidden="true"></li> });
                    }
                    let class = match (cache_side, r.state()) {
                        (false, RowState::NotInCache) => "chip unseen",
                        (true, RowState::GoneFromCluster) | (_, RowState::Stale) => "chip stale",
                        _ => "chip",
                    };
                    let class = if (cache_side && r.terminating.1) || (!cache_side && r.terminating.0) { format!("{class} terminating") } else { class.to_string() };
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

/// The most chips a panel draws (the first, in key order): past it, a count.
/// Thousands of chips tell no more than the count does, and laying them out
/// would hold the main thread for most of a second.
const MAX_CHIPS: usize = 500;

/// The row form, one object a line.
fn rows_list(cache_side: bool) -> impl IntoView {
    let snap = use_ui().snap;
    view! {
        <ul class="rows" role="list" tabindex="0" aria-label=list_label(cache_side) on:scroll=move |ev| sync_scroll(&ev, cache_side)>
            <For
                each=move || snap.with(|s| s.rows.clone())
                key=row_key
                children=move |r: Row| {
                    let state = r.state();
                    let present = if cache_side { r.cache_rv.is_some() } else { r.cluster_rv.is_some() };
                    if !present {
                        // What only the other side holds: a slot without a name.
                        let note = match (cache_side, r.pending) {
                            (true, Some((t, eta))) => format!("{} {}", t.as_str(), pv::arrival_words(eta)),
                            (true, None) => "not in this cache".to_string(),
                            (false, _) => "deleted; the cache still has it".to_string(),
                        };
                        return Either::Left(view! {
                            <li class=row_class("row slot", &r)><span class="note">{note}</span></li>
                        });
                    }
                    let rv = if cache_side { r.cache_rv } else { r.cluster_rv };
                    let terminating = if cache_side { r.terminating.1 } else { r.terminating.0 };
                    let status = if cache_side { r.status_replicas.1 } else { r.status_replicas.0 };
                    let (class, note) = match (cache_side, state) {
                        (false, RowState::NotInCache) => ("row unseen", "not cached yet".to_string()),
                        (true, RowState::GoneFromCluster) => ("row stale", "gone from the cluster".to_string()),
                        (_, RowState::Stale) => ("row stale", "older version in the cache".to_string()),
                        _ => ("row", String::new()),
                    };
                    Either::Right(view! {
                        <li class=row_class(class, &r) data-kind=r.kind.as_str() data-present="true" title=r.id.clone()>
                            <span class="kind">{kind_abbr(r.kind)}</span>
                            {name_view(&r)}
                            <span class="rv mono">{rv.map(|v| format!("rv {v}")).unwrap_or_default()}</span>
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

#[component]
pub fn ClusterPanel() -> impl IntoView {
    let snap = use_ui().snap;
    let counts = move || snap.with(|s| (plural(s.cluster_holds as u64, "object", "objects"), s.cluster_lacks));
    view! {
        <section class="panel cluster" aria-label="Cluster">
            <header>
                <h2>"Cluster"</h2>
                <span class="sub">"the truth"</span>
                <span class="counts mono">
                    {move || counts().0}
                    {move || (counts().1 > 0).then(|| view! { " · " <b class="lacks">{format!("{} deleted, still cached", counts().1)}</b> })}
                </span>
                <span class="badge mono">{move || format!("rv {}", snap.with(|s| s.resource_version))}</span>
            </header>
            {follow_touched()}
            {objects_list(false)}
            {simplified(Panel::Cluster)}
        </section>
    }
}

#[component]
pub fn CachePanel() -> impl IntoView {
    let snap = use_ui().snap;
    let synced = move || snap.with(|s| s.synced);
    let whose = move || snap.with(|s| s.replicas.clone().unwrap_or_else(|| "the informer's store".to_string()));
    // The counts never give way to the rest of the header: "lacks N" is the stale gap itself.
    let counts = move || snap.with(|s| (plural(s.cache_holds as u64, "object", "objects"), s.cache_lacks));
    view! {
        <section class="panel cache" aria-label="Cache">
            <header>
                <h2>"Cache"</h2>
                <span class="sub">{whose}</span>
                <span class="counts mono">
                    {move || counts().0}
                    {move || (counts().1 > 0).then(|| view! { " · " <b class="lacks">{format!("lacks {}", counts().1)}</b> })}
                </span>
                <span class="badge synced" class:no=move || !synced()>
                    {move || if synced() { "HasSynced ✓" } else { "HasSynced ✗" }}
                </span>
            </header>
            {objects_list(true)}
            {simplified(Panel::Cache)}
        </section>
    }
}

/// The one line a panel carries on how the simulation simplifies what it shows.
fn simplified(panel: Panel) -> impl IntoView {
    crate::narrate::simplifications::panel_note(panel).map(|note| view! { <p class="simplified">{note}</p> })
}

#[component]
pub fn WatchPanel() -> impl IntoView {
    let ui = use_ui();
    let wires = ui.wires;
    let snap = ui.snap;
    let more = move || wires.with(|w| w.len().saturating_sub(MAX_WIRES));
    view! {
        <section class="panel watch" aria-label="Watch">
            <header>
                <h2>"Watch"</h2>
                <span class="sub">{move || format!("events in flight · lag {} ms", snap.with(|s| s.controls.lag_ms))}</span>
            </header>
            <div class="lane-ends" aria-hidden="true">
                <span>"apiserver"</span>
                <span>"cache"</span>
            </div>
            <ul class="wires" role="list" tabindex="0" aria-label="Events in flight">
                <For
                    each=move || wires.with(|w| w.iter().take(MAX_WIRES).map(|w| (w.id.clone(), w.label.clone(), w.kind, w.name.clone(), w.dropped, w.held_ms, w.nth)).collect::<Vec<_>>())
                    key=|w| (w.0.clone(), w.4)
                    children=move |(id, label, kind, name, dropped, held_ms, nth)| {
                        let hold_id = id.clone();
                        let on_hold = Signal::derive(move || wires.with(|ws| ws.iter().take(MAX_WIRES).any(|w| w.id == hold_id && w.on_hold)));
                        let what = format!("{label} {kind} {name}");
                        let pos_id = id.clone();
                        let progress = move || wires.with(|ws| ws.iter().take(MAX_WIRES).find(|w| w.id == pos_id).map_or(1.0, |w| w.progress));
                        let eta_id = id.clone();
                        let eta = move || {
                            let at = ui.display_ms.get();
                            wires.with(|ws| ws.iter().take(MAX_WIRES).find(|w| w.id == eta_id).map(|w| w.deliver_at_ms.saturating_sub(at)))
                        };
                        view! {
                            <li class=format!("wire {}", label.to_lowercase()) class:dropped=dropped class:held={held_ms > 0}>
                                <span class="what">
                                    <span class="event">{label.clone()}</span>
                                    " "
                                    <span class="obj mono"><span class="k">{format!("{} ", kind_abbr(kind))}</span>{name.clone()}</span>
                                    {(held_ms > 0).then(|| view! { <span class="held-tag">{format!(" held back {}", secs(held_ms))}</span> })}
                                    <span class="eta mono">
                                        {move || if dropped { "dropped".to_string() } else { eta().map(pv::arrival_words).unwrap_or_default() }}
                                    </span>
                                </span>
                                <span class="track" aria-hidden="true">
                                    <span class="dot" style:left=move || percent(progress())></span>
                                </span>
                                {(nth > 0 && !dropped).then(|| view! { <WireHands kind nth what=what.clone() on_hold /> })}
                            </li>
                        }
                    }
                />
            </ul>
            {move || wires.with(|w| w.is_empty()).then(|| view! { <p class="empty">"Nothing on the wire: the cache has every change."</p> })}
            {move || (more() > 0).then(|| view! { <p class="more-wires">{format!("+{} more in flight", more())}</p> })}
            {move || wires.with(|w| w.iter().any(|w| w.nth > 0 && !w.dropped)).then(|| view! {
                <p class="hands-legend">"Your hands on each event: "<b>"⇥"</b>" deliver now · "<b>"‖"</b>" hold · "<b>"✕"</b>" drop"</p>
            })}
            {simplified(Panel::Watch)}
        </section>
    }
}

// The panels below redraw as one piece when the frame changes: one reactive
// computation each, which keeps the wasm small; tachys updates their text in
// place rather than rebuilding the elements.

#[component]
pub fn WorkqueuePanel() -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    // When two or more workers are idle and a key is about to be taken: which one takes it.
    let choice = move || {
        snap.with(|s| s.queue.next_take.clone().filter(|_| s.queue.idle.len() >= 2).map(|(key, by)| (key, by, s.queue.idle.clone())))
            .map(|(key, by, idle)| {
                let buttons = idle
                    .into_iter()
                    .filter(|w| *w != by)
                    .map(|w| {
                        let key = key.clone();
                        let name = format!("Take with worker {w}: {key}");
                        view! { <button class="hand" aria-label=name.clone() title=name on:click=move |_| ui.choose_worker(w, &key)>{w.to_string()}</button> }
                    })
                    .collect_view();
                view! { <p class="take">{format!("next: worker {by} takes {key}; or worker ")}{buttons}</p> }
            })
    };
    view! {
        <section class="panel workqueue" aria-label="Workqueue">
            {move || snap.with(|s| workqueue(&s.queue, s.now_ms))}
            {choice}
            {simplified(Panel::Workqueue)}
        </section>
    }
}

fn workqueue(q: &pv::QueueView, now: u64) -> impl IntoView {
    let queued = (
        q.queued.is_empty().then(|| view! { <span class="none">"empty"</span> }),
        q.queued.iter().map(|k| view! { <span class="key">{k.clone()}</span> }).collect_view(),
    );
    let workers = q
        .workers
        .iter()
        .map(|w| match &w.busy {
            Some((key, n)) => view! { <li class="busy">{format!("worker {}: {key} (reconcile {n})", w.worker)}</li> },
            None => view! { <li class="idle">{format!("worker {}: idle", w.worker)}</li> },
        })
        .collect_view();
    let dirty = if q.dirty_while_processing.is_empty() {
        "none".to_string()
    } else {
        format!("{}: one more reconcile after Done", q.dirty_while_processing.join(", "))
    };
    let waiting = if q.waiting.is_empty() {
        "none".to_string()
    } else {
        q.waiting.iter().map(|(k, at)| format!("{k} in {} ms", at.saturating_sub(now))).collect::<Vec<_>>().join(", ")
    };
    view! {
        <header>
            <h2>"Workqueue"</h2>
            <span class="sub">{if q.running { "workers running" } else { "workers waiting" }}</span>
        </header>
        <dl class="queue" tabindex="0" aria-label="The workqueue's structures">
            <dt>"queue"</dt>
            <dd class="mono">{queued}</dd>
            <dt>"processing"</dt>
            <dd class="mono"><ul class="workers" role="list">{workers}</ul></dd>
            <dt>"dirty"</dt>
            <dd class="mono">{dirty}</dd>
            <dt>"waiting"</dt>
            <dd class="mono">{waiting}</dd>
        </dl>
    }
}

#[component]
pub fn ExpectationsPanel() -> impl IntoView {
    let snap = use_ui().snap;
    view! { <section class="panel expectations" aria-label="Expectations">{move || snap.with(|s| (expectations(&s.expectations, s.controls.kind, s.consistency.enabled), consistency(&s.consistency)))}{simplified(Panel::Expectations)}</section> }
}

fn expectations(e: &pv::ExpectationsView, kind: ControllerKind, store: bool) -> impl IntoView {
    let note = match (e.enabled, e.records.is_empty()) {
        (false, true) if kind == ControllerKind::Pruner => {
            Some("The pruner keeps no expectations: it is a one-shot program that trusts its lister, not a reconcile loop.")
        }
        (false, true) if store => {
            Some("This controller keeps no expectations; v1.36's consistency store, below, skips a sync until the cache has read its own writes.")
        }
        (false, true) => Some("This controller keeps no expectations: nothing stops a second reconcile from counting a cache that has not seen its own creates."),
        (true, true) => Some("No records yet: SatisfiedExpectations is true for a key without one."),
        _ => None,
    };
    let records = e
        .records
        .iter()
        .map(|r| {
            let pct = (r.fraction_left * 100.0).round() as u32;
            view! {
                <li class="record" class:pending=!r.satisfied>
                    <div class="key mono">{r.key.clone()}</div>
                    <div class="counters mono">
                        <span>"add "<b data-counter="add">{r.add}</b></span>
                        <span>"del "<b data-counter="del">{r.del}</b></span>
                    </div>
                    <div class="age" role="meter" aria-label="Time left before the timeout" aria-valuemin="0" aria-valuemax="100" aria-valuenow=pct>
                        <span class="bar" style:width=format!("{pct}%")></span>
                    </div>
                    <div class="age-text mono">{format!("set {} ago, times out after {}", secs(r.age_ms), secs(r.timeout_ms))}</div>
                    <div class="satisfied">
                        {if r.satisfied { "SatisfiedExpectations: true" } else { "SatisfiedExpectations: false: syncs skip creates and deletes" }}
                    </div>
                </li>
            }
        })
        .collect_view();
    view! {
        <header>
            <h2>"Expectations"</h2>
            <span class="sub">"ControllerExpectations"</span>
        </header>
        {note.map(|n| view! { <p class="empty">{n}</p> })}
        <ul class="records" role="list" tabindex="0" aria-label="Expectation records">{records}</ul>
    }
}

/// Scrolls `list` just enough to show its child matching `selector`.
fn keep_in_view(list: &web_sys::Element, selector: &str) {
    let Some(item) = list.query_selector(selector).ok().flatten() else { return };
    let (r, l) = (item.get_bounding_client_rect(), list.get_bounding_client_rect());
    let by = if r.top() < l.top() { r.top() - l.top() } else { (r.bottom() - l.bottom()).max(0.0) };
    if by != 0.0 {
        list.set_scroll_top(list.scroll_top() + by as i32);
    }
}

/// v1.36's consistency store, under the expectations: per key, what the
/// controller wrote against how far each cache has read, the skips so far
/// and the backoff the key waits out.
fn consistency(c: &pv::ConsistencyView) -> impl IntoView {
    c.enabled.then(|| {
        let records = c
            .records
            .iter()
            .map(|r| {
                let reads = r
                    .resources
                    .iter()
                    .map(|(kind, wrote, read)| {
                        let mark = if wrote > read { "behind" } else { "caught up" };
                        view! { <li class="mono">{format!("{} wrote rv {wrote} · cache read rv {read} · {mark}", kind.resource())}</li> }
                    })
                    .collect_view();
                let retry = r.retry_in_ms.map(|ms| format!("retry in {ms} ms (failure {})", r.failures));
                view! {
                    <li class="store-record" class:behind=r.behind>
                        <div class="key mono">{r.key.clone()}</div>
                        <ul class="reads" role="list">{reads}</ul>
                        {retry.map(|t| view! { <div class="retry mono">{t}</div> })}
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="store" role="group" aria-label="Consistency store (v1.36)">
                <h3>"Read own writes (v1.36)"</h3>
                <p class="skips">{format!("stale_sync_skips {}", c.skips)}</p>
                {c.records.is_empty().then(|| view! { <p class="empty">"No record: every write has been read back."</p> })}
                <ul class="store-records" role="list">{records}</ul>
            </div>
        }
    })
}

#[component]
pub fn ReconcilePanel() -> impl IntoView {
    let snap = use_ui().snap;
    let code = NodeRef::<leptos::html::Ol>::new();
    // The lit line stays in view when the panel is too short for all of the code.
    Effect::new(move |_| {
        snap.track();
        if let Some(list) = code.get() {
            keep_in_view(&list, "li.lit");
        }
    });
    view! {
        <section class="panel reconcile" aria-label="Reconcile">
            <header>
                <h2>"Reconcile"</h2>
                <span class="sub">"the controller's code, current step lit"</span>
            </header>
            <ol class="code mono" tabindex="0" aria-label="The reconcile's code" node_ref=code>
                {move || {
                    let r = snap.with(|s| s.reconcile.clone());
                    r.lines.into_iter().map(|line| {
                        let lit = line.lit;
                        let waiting = (!line.waiting.is_empty() && !lit).then(|| {
                            let who = line.waiting.iter().map(|w| format!("worker {w}")).collect::<Vec<_>>().join(", ");
                            view! { <span class="waiting">{format!("{who} waits here")}</span> }
                        });
                        view! {
                            <li class:lit=lit aria-current=lit.then_some("step")>
                                {lit.then(|| view! { <span class="now">"now"</span> })}
                                <span class="text">{line.text}</span>
                                {line.value.map(|v| view! { <span class="value">{v}</span> })}
                                {waiting}
                            </li>
                        }
                    }).collect_view()
                }}
            </ol>
            {simplified(Panel::Reconcile)}
        </section>
    }
}

#[component]
pub fn Observations() -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    // The lab's figures wait for the learner's own: shown at the run's end, or when asked.
    let shown = Memo::new(move |_| ui.expected_shown.get() || ui.at_run_end());
    let stated = move || snap.with(|s| s.checks.checks.len());
    view! {
        <section class="panel observations" aria-label="Observations">
            <header>
                <h2>"Observations"</h2>
                <span class="sub">"what the lab expects, checked against this run"</span>
            </header>
            <div class="scroll" tabindex="0" aria-label="Checks and counts">
                // Drawn once and hidden, not redrawn with every frame: its button keeps its handler.
                <p class="predict" prop:hidden=move || shown.get()>
                    {move || format!("What will the run show? The lab states {} for these settings: make your guess, then play to the end, or ", plural(stated() as u64, "figure", "figures"))}
                    <button class="show-expected" on:click=move |_| ui.expected_shown.set(true)>"Show what the lab expects"</button>
                </p>
                {move || shown.get().then(|| snap.with(|s| checks_list(&s.checks)))}
                {move || snap.with(|s| facts(&s.observations, &s.plot))}
            </div>
        </section>
    }
}

/// The lab's checks, each with its verdict and its figures.
fn checks_list(checks: &pv::ChecksView) -> impl IntoView {
    let rows = checks
        .checks
        .iter()
        .map(|c| {
            let (mark, class, said) = match c.held {
                Some(true) => ("✓", "held", "holds"),
                Some(false) => ("✗", "failed", "does not hold"),
                None => ("…", "pending", "not measured yet"),
            };
            let measured = match (c.held, c.measured) {
                (None, _) => "…".to_string(),
                (Some(_), Some(m)) => m.to_string(),
                (Some(_), None) => "nothing".to_string(),
            };
            view! {
                <li class=format!("check {class}")>
                    <span class="mark" aria-hidden="true">{mark}</span>
                    <span class="text">{c.text.clone()}<span class="sr-only">{format!(": {said}")}</span></span>
                    <span class="figures mono">{format!("expected {} · measured {measured}", c.expected)}</span>
                </li>
            }
        })
        .collect_view();
    let empty = checks.checks.is_empty().then(|| {
        let text = if checks.other_settings > 0 {
            "The lab gives no figure for these settings."
        } else {
            "This scenario states no figure to check."
        };
        view! { <li class="check none">{text}</li> }
    });
    view! {
        <ul class="checks" role="list">{rows}{empty}</ul>
        {checks.why.clone().map(|w| view! { <p class="why">{w}</p> })}
    }
}

/// The counts so far and the plot of children over time.
fn facts(o: &pv::Observations, plot: &(String, String)) -> impl IntoView {
    view! {
        <dl class="facts">
            <dt>{format!("{}s", o.kind)}</dt>
            <dd class="mono">{format!("cluster {} · cache {} · peak {}", o.in_cluster, o.in_cache, o.peak_in_cluster)}</dd>
            <dt>"creates"</dt>
            <dd class="mono">{pv::Observations::counts(&o.creates, crate::sim::apiserver::Verb::Create)}</dd>
            <dt>"deletes"</dt>
            <dd class="mono">{pv::Observations::counts(&o.deletes, crate::sim::apiserver::Verb::Delete)}</dd>
        </dl>
        <svg class="plot" viewBox="0 0 3000 640" role="img" aria-label="Children in the cluster and in the cache over time">
            <polyline class="series cluster" points=plot.0.clone() />
            <polyline class="series cache" points=plot.1.clone() />
        </svg>
        <p class="legend"><span class="swatch cluster"></span>"cluster "<span class="swatch cache"></span>"cache"</p>
    }
}

#[component]
pub fn InvariantsPanel() -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    view! {
        // Focusable: with more badges than fit it scrolls, and keyboard users scroll it too.
        <section class="panel invariants" aria-label="Invariants" tabindex="0">
            <ul class="badges" role="list">
                {move || snap.with(|s| s.invariants.clone()).into_iter().map(|i| {
                    let broken = i.first_broken_frame;
                    let id = i.name;
                    view! {
                        <li class="invariant" class:broken=broken.is_some() title=format!("{id}: {}", crate::narrate::invariants::description(id))>
                            <span class="mark" aria-hidden="true">{if broken.is_some() { "⚠" } else { "✓" }}</span>
                            <span class="inv-name" aria-hidden="true">{pv::invariant_label(id)}</span>
                            <span class="sr-only">{id}</span>
                            {broken.map(|n| view! {
                                <button class="jump" aria-label=format!("{id} broken at frame {n}: jump to it") on:click=move |_| ui.seek(n as usize)>
                                    {format!("frame {n}")}
                                </button>
                            })}
                            {broken.is_none().then(|| view! { <span class="held">"held"</span> })}
                            {i.facts.as_ref().map(|f| view! { <span class="sr-only">{crate::narrate::invariants::violation_words(f)}</span> })}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}

/// Deliver now, Hold (or Release) and Drop for one event in flight: each
/// names the event, and joins the run's schedule.
#[component]
fn WireHands(kind: Kind, nth: u32, what: String, on_hold: Signal<bool>) -> impl IntoView {
    use crate::view::hands::WireChoice;
    let ui = use_ui();
    let button = move |choice: WireChoice, glyph: &'static str, what: String| {
        let name = format!("{}: {what}", choice.label());
        view! {
            <button
                class="hand"
                aria-label=name.clone()
                title=name
                on:click=move |e: leptos::ev::MouseEvent| {
                    // The wire may go (Drop, Deliver now): the focus goes to its neighbour, never to the page.
                    let at = wire_index(&e);
                    ui.choose_wire(kind, nth, choice, &what);
                    request_animation_frame(move || focus_wire_near(at));
                }
            >
                {glyph}
            </button>
        }
    };
    let (w1, w2, w3, w4) = (what.clone(), what.clone(), what.clone(), what);
    view! {
        <span class="hands">
            {button(WireChoice::DeliverNow, "⇥", w1)}
            {move || if on_hold.get() { button(WireChoice::Release, "▶", w2.clone()) } else { button(WireChoice::Hold, "‖", w3.clone()) }}
            {button(WireChoice::Drop, "✕", w4)}
        </span>
    }
}

/// Where the wire of a pressed hands-on button stands in the Watch list.
fn wire_index(e: &leptos::ev::MouseEvent) -> Option<usize> {
    let li = e.target()?.dyn_into::<web_sys::Element>().ok()?.closest("li.wire").ok()??;
    let list = li.parent_element()?;
    let items = list.children();
    (0..items.length()).find(|i| items.item(*i).is_some_and(|x| x == li)).map(|i| i as usize)
}

/// Focus the same button on the wire now at `at` (or the last one), else the list itself.
fn focus_wire_near(at: Option<usize>) {
    let Some(at) = at else { return };
    let Some(list) = document().query_selector(".watch .wires").ok().flatten() else { return };
    let active = document().active_element();
    if active.as_ref().is_some_and(|a| list.contains(Some(a))) {
        return;
    }
    let items = list.children();
    let wire = items.item((at as u32).min(items.length().saturating_sub(1)));
    let target = wire.and_then(|w| w.query_selector(".hand").ok().flatten()).unwrap_or(list);
    if let Ok(el) = target.dyn_into::<web_sys::HtmlElement>() {
        let _ = el.focus();
    }
}

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
    let view = Memo::new(move |_| wires.with(|w| ui.session.with(|s| crate::view::spacetime::of_session(s, w))));
    let pointed = ui.pointed;
    let drawing = move || {
        let lit = pointed.get();
        view.with(|v| crate::view::spacetime::svg(&crate::view::spacetime::SpaceTime { lit, ..v.clone() }))
    };
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
            <div class="st-wrap" on:click=seek on:mouseover=point on:mouseleave=move |_| pointed.set(None) inner_html=drawing></div>
            <p class="sr-only">{summary}</p>
        </section>
    }
}

#[component]
pub fn TimelinePanel() -> impl IntoView {
    let ui = use_ui();
    let snap = ui.snap;
    let pointed = ui.pointed;
    view! {
        <section class="panel timeline" id="timeline" tabindex="-1" aria-label="Timeline">
            <div class="column">
                <h2>"Audit log"</h2>
                <ol class="audit mono">
                    {move || snap.with(|s| s.audit.clone()).into_iter().filter_map(|e| match e {
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
                    {move || snap.with(|s| s.logs.clone()).into_iter().filter_map(|e| match e {
                        TimelineEntry::Log { at_ms, text, .. } => Some(view! { <li><span class="t">{fmt_ms(at_ms, 3)}</span>" "{text}</li> }),
                        TimelineEntry::Audit { .. } => None,
                    }).collect_view()}
                </ol>
            </div>
        </section>
    }
}

/// "About this scenario": its description and the real incident it mirrors.
#[component]
pub fn AboutScenario() -> impl IntoView {
    let snap = use_ui().snap;
    let c = move || snap.with(|s| (s.controls.description.clone(), s.controls.incident.clone()));
    view! {
        <details class="about" id="about" tabindex="-1" open>
            <summary>"About this scenario"</summary>
            <p>{move || c().0}</p>
            {move || c().1.map(|(title, url)| view! {
                <p>"This happened: " <a href=url target="_blank" rel="noopener noreferrer">{title}</a></p>
            })}
        </details>
    }
}

/// "About this run": the scenario, the seed, how long the run is, its trace
/// hash (the same `trace_hash` `cachescope run` prints for the same scenario
/// and seed) and the command line that reproduces it.
#[component]
pub fn AboutRun() -> impl IntoView {
    let ui = use_ui();
    // Hashed in slices by the look-ahead once the run's end is known (`Ui::trace_hash`):
    // never all at once here. The memo lets through only real changes: playback
    // touches `known` every frame.
    let hash = ui.trace_hash;
    let run = Memo::new(move |_| (ui.ended.get(), ui.known.get()));
    // Why the run stopped where it did, when the object limit stopped it: from the
    // session itself (cheap until its end is known), changed only when it changes.
    let stopped = Memo::new(move |_| ui.session.with(|s| s.stopped_at_object_limit().map(|(_, why)| why)));
    let stopped = move || stopped.get();
    let facts = move || {
        run.track();
        ui.session.with_untracked(|s| (s.scenario().name.clone(), s.scenario().seed, s.frames().len(), s.edits().len()))
    };
    let command = move || {
        // What the command depends on: not every frame played.
        ui.preset.track();
        ui.settings.track();
        run.track();
        crate::view::url::runner_command(&ui.page_state())
    };
    view! {
        <details class="about-run">
            <summary>"About this run"</summary>
            <dl>
                <dt>"Scenario"</dt>
                <dd class="mono">{move || facts().0}</dd>
                <dt>"Seed"</dt>
                <dd class="mono">{move || facts().1}</dd>
                <dt>"Frames"</dt>
                <dd class="mono">
                    {move || match (ui.ended.get(), ui.session.with_untracked(crate::view::session::Session::stopped_at_frame_limit), stopped()) {
                        (true, _, Some(_)) => format!("{}: the object limit; the run stops here", facts().2),
                        (true, true, None) => format!("{}: the frame limit for a scenario this size; the run stops here", facts().2),
                        (true, false, None) => facts().2.to_string(),
                        _ => format!("{} so far", facts().2),
                    }}
                </dd>
                <dt hidden=move || stopped().is_none()>"Why it stops"</dt>
                <dd class="stopped-why" hidden=move || stopped().is_none()>{move || stopped().unwrap_or_default()}</dd>
                <dt>"trace_hash"</dt>
                <dd>
                    {move || match (hash.get(), ui.ended.get()) {
                        (Some(h), _) => Either::Left(view! { <code class="trace-hash">{h}</code> }),
                        (None, true) => Either::Right(view! { <span class="muted">"hashing the frames…"</span> }),
                        (None, false) => Either::Right(view! { <span class="muted">"known once the run has ended"</span> }),
                    }}
                </dd>
                <dt>"Reproduce"</dt>
                <dd>
                    {move || match (command(), facts().3) {
                        (Some(c), 0) => Either::Left(view! { <code>{c}</code> }),
                        (_, 0) => Either::Right("Export the scenario, then run it: cachescope run <file>.json".to_string()),
                        (_, n) => Either::Right(format!("This run has {n} change(s) made while it ran; the runner replays scenarios, not changes.")),
                    }}
                </dd>
            </dl>
        </details>
    }
}
