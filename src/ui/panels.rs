//! The panels. Each is a labelled region laying out one view from
//! [`crate::view::panels`]; none computes anything the views do not.

use super::use_ui;
use crate::sim::apiserver::Actor;
use crate::sim::object::Kind;
use crate::view::panels::{self as pv, Row, RowState, TimelineEntry};
use leptos::prelude::*;

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

fn secs(ms: u64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

/// The shared rows of Cluster and Cache, recomputed when the session moves.
fn rows_memo() -> Memo<Vec<Row>> {
    let ui = use_ui();
    Memo::new(move |_| ui.session.with(|s| pv::object_rows(s.world())))
}

/// A key that changes whenever what a row shows changes, so `For` redraws it.
fn row_key(r: &Row) -> String {
    let pending = r.pending.map(|(t, eta)| format!("{}{}", t.as_str(), eta / 100)).unwrap_or_default();
    format!("{}|{:?}|{:?}|{pending}", r.id, r.cluster_rv, r.cache_rv)
}

/// The name, with a generated suffix set apart so the eye sees the server picked it.
fn name_view(r: &Row) -> AnyView {
    if r.generated && r.name.len() > 5 {
        let (head, tail) = r.name.split_at(r.name.len() - 5);
        view! { <span class="name mono">{head.to_string()}<b class="suffix">{tail.to_string()}</b></span> }.into_any()
    } else {
        view! { <span class="name mono">{r.name.clone()}</span> }.into_any()
    }
}

/// Cluster or Cache: the same rows, seen from one side.
fn objects_list(rows: Memo<Vec<Row>>, cache_side: bool) -> impl IntoView {
    let dense = Memo::new(move |_| rows.with(|r| r.len() > 60));
    view! {
        <ul class="rows" class:dense=move || dense.get() role="list">
            <For
                each=move || rows.get()
                key=row_key
                children=move |r: Row| {
                    let state = r.state();
                    let present = if cache_side { r.cache_rv.is_some() } else { r.cluster_rv.is_some() };
                    let rv = if cache_side { r.cache_rv } else { r.cluster_rv };
                    let (class, note) = match (cache_side, state) {
                        (_, RowState::Synced) => ("row", String::new()),
                        (false, RowState::NotInCache) => ("row unseen", "not in the cache yet".to_string()),
                        (true, RowState::NotInCache) => (
                            "row ghost",
                            match r.pending {
                                Some((t, eta)) => format!("not in cache yet: {} in {}", t.as_str(), secs(eta)),
                                None => "not in cache".to_string(),
                            },
                        ),
                        (false, RowState::GoneFromCluster) => ("row gone", "deleted: still in the cache".to_string()),
                        (true, RowState::GoneFromCluster) => ("row stale", "gone from the cluster".to_string()),
                        (_, RowState::Stale) => ("row stale", "older version in the cache".to_string()),
                    };
                    let depth = if r.depth > 0 { "child" } else { "top" };
                    view! {
                        <li class=format!("{class} {depth}") data-kind=r.kind.as_str() data-present=present.to_string() title=r.id.clone()>
                            <span class="kind">{kind_abbr(r.kind)}</span>
                            {name_view(&r)}
                            <span class="rv mono">{rv.map(|v| format!("rv {v}")).unwrap_or_default()}</span>
                            {(!note.is_empty()).then(|| view! { <span class="note">{note}</span> })}
                        </li>
                    }
                }
            />
        </ul>
    }
}

#[component]
pub fn ClusterPanel() -> impl IntoView {
    let rows = rows_memo();
    let ui = use_ui();
    let rv = Memo::new(move |_| ui.session.with(|s| s.world().api.resource_version()));
    view! {
        <section class="panel cluster" aria-label="Cluster">
            <header>
                <h2>"Cluster"</h2>
                <span class="sub">"the apiserver's truth"</span>
                <span class="badge mono">{move || format!("rv {}", rv.get())}</span>
            </header>
            {objects_list(rows, false)}
        </section>
    }
}

#[component]
pub fn CachePanel() -> impl IntoView {
    let rows = rows_memo();
    let ui = use_ui();
    let synced = Memo::new(move |_| ui.session.with(|s| s.world().controller_synced()));
    view! {
        <section class="panel cache" aria-label="Cache">
            <header>
                <h2>"Cache"</h2>
                <span class="sub">"what the controller sees"</span>
                <span class="badge synced" class:no=move || !synced.get()>
                    {move || if synced.get() { "HasSynced ✓" } else { "HasSynced ✗" }}
                </span>
            </header>
            {objects_list(rows, true)}
        </section>
    }
}

#[component]
pub fn WatchPanel() -> impl IntoView {
    let ui = use_ui();
    let wires = Memo::new(move |_| {
        let at = ui.display_ms.get();
        ui.session.with(|s| pv::wires(s.world(), false, at))
    });
    let lag = Memo::new(move |_| ui.session.with(|s| s.world().cluster.watch_lag_ms));
    let shown = Memo::new(move |_| wires.with(|w| w.iter().take(MAX_WIRES).map(|w| (w.id.clone(), w.label.clone(), w.kind, w.name.clone(), w.dropped)).collect::<Vec<_>>()));
    let more = move || wires.with(|w| w.len().saturating_sub(MAX_WIRES));
    view! {
        <section class="panel watch" aria-label="Watch">
            <header>
                <h2>"Watch"</h2>
                <span class="sub">{move || format!("events in flight · lag {} ms", lag.get())}</span>
            </header>
            <div class="lane-ends" aria-hidden="true">
                <span>"apiserver"</span>
                <span>"cache"</span>
            </div>
            <ul class="wires" role="list">
                <For
                    each=move || shown.get()
                    key=|w| w.0.clone()
                    children=move |(id, label, kind, name, dropped)| {
                        let pos_id = id.clone();
                        let progress = move || wires.with(|ws| ws.iter().find(|w| w.id == pos_id).map_or(1.0, |w| w.progress));
                        let eta_id = id.clone();
                        let eta = move || {
                            let at = ui.display_ms.get();
                            wires.with(|ws| ws.iter().find(|w| w.id == eta_id).map(|w| w.deliver_at_ms.saturating_sub(at)))
                        };
                        view! {
                            <li class=format!("wire {}", label.to_lowercase()) class:dropped=dropped>
                                <span class="what">
                                    <span class="event">{label.clone()}</span>
                                    " "
                                    <span class="mono">{format!("{} {}", kind_abbr(kind), name)}</span>
                                    <span class="eta mono">
                                        {move || if dropped { "dropped".to_string() } else { eta().map(|e| format!("in {}", secs(e))).unwrap_or_default() }}
                                    </span>
                                </span>
                                <span class="track" aria-hidden="true">
                                    <span class="dot" style:left=move || format!("{:.1}%", 100.0 * progress())></span>
                                </span>
                            </li>
                        }
                    }
                />
            </ul>
            <Show when=move || wires.with(|w| w.is_empty())>
                <p class="empty">"Nothing on the wire: the cache has every change."</p>
            </Show>
            <Show when=move || { more() > 0 }>
                <p class="more">{move || format!("+{} more in flight", more())}</p>
            </Show>
        </section>
    }
}

#[component]
pub fn WorkqueuePanel() -> impl IntoView {
    let ui = use_ui();
    let q = Memo::new(move |_| ui.session.with(|s| pv::queue(s.world())));
    view! {
        <section class="panel workqueue" aria-label="Workqueue">
            <header>
                <h2>"Workqueue"</h2>
                <span class="sub">{move || if q.with(|q| q.running) { "workers running" } else { "workers waiting" }}</span>
            </header>
            <dl class="queue">
                <dt>"queue"</dt>
                <dd class="mono">
                    {move || {
                        let keys = q.with(|q| q.queued.clone());
                        if keys.is_empty() { view! { <span class="none">"empty"</span> }.into_any() } else { keys.into_iter().map(|k| view! { <span class="key">{k}</span> }).collect_view().into_any() }
                    }}
                </dd>
                <dt>"processing"</dt>
                <dd class="mono">
                    <ul class="workers" role="list">
                        {move || q.with(|q| q.workers.clone()).into_iter().map(|w| match w.busy {
                            Some((key, n)) => view! { <li class="busy">{format!("worker {}: {key} (reconcile {n})", w.worker)}</li> }.into_any(),
                            None => view! { <li class="idle">{format!("worker {}: idle", w.worker)}</li> }.into_any(),
                        }).collect_view()}
                    </ul>
                </dd>
                <dt>"dirty"</dt>
                <dd class="mono">
                    {move || {
                        let d = q.with(|q| q.dirty_while_processing.clone());
                        if d.is_empty() { "none".to_string() } else { format!("{}: one more reconcile after Done", d.join(", ")) }
                    }}
                </dd>
                <dt>"waiting"</dt>
                <dd class="mono">
                    {move || {
                        let now = ui.session.with(|s| s.world().now_ms());
                        let w = q.with(|q| q.waiting.clone());
                        if w.is_empty() { "none".to_string() } else { w.into_iter().map(|(k, at)| format!("{k} in {} ms", at.saturating_sub(now))).collect::<Vec<_>>().join(", ") }
                    }}
                </dd>
            </dl>
        </section>
    }
}

#[component]
pub fn ExpectationsPanel() -> impl IntoView {
    let ui = use_ui();
    let e = Memo::new(move |_| ui.session.with(|s| pv::expectations(s.world())));
    view! {
        <section class="panel expectations" aria-label="Expectations">
            <header>
                <h2>"Expectations"</h2>
                <span class="sub">"ControllerExpectations"</span>
            </header>
            <Show
                when=move || e.with(|e| e.enabled || !e.records.is_empty())
                fallback=|| view! {
                    <p class="empty">"This controller keeps no expectations: nothing stops a second reconcile from counting a cache that has not seen its own creates."</p>
                }
            >
                <Show when=move || e.with(|e| e.records.is_empty())>
                    <p class="empty">"No records yet: SatisfiedExpectations is true for a key without one."</p>
                </Show>
                <ul class="records" role="list">
                    {move || e.get().records.into_iter().map(|r| {
                        let pct = (r.fraction_left * 100.0).round();
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
                    }).collect_view()}
                </ul>
            </Show>
        </section>
    }
}

#[component]
pub fn ReconcilePanel() -> impl IntoView {
    let ui = use_ui();
    let r = Memo::new(move |_| ui.session.with(|s| pv::reconcile(s.world())));
    view! {
        <section class="panel reconcile" aria-label="Reconcile">
            <header>
                <h2>"Reconcile"</h2>
                <span class="sub">"the controller's code, current step lit"</span>
            </header>
            <ol class="code mono">
                {move || {
                    let r = r.get();
                    r.lines.iter().enumerate().map(|(i, line)| {
                        let active = r.active.iter().any(|(_, l)| *l as usize == i);
                        view! { <li class:active=active aria-current=if active { Some("step") } else { None }>{line.to_string()}</li> }
                    }).collect_view()
                }}
            </ol>
        </section>
    }
}

#[component]
pub fn Observations() -> impl IntoView {
    let ui = use_ui();
    let o = Memo::new(move |_| ui.session.with(|s| pv::observations(s.world())));
    let expect = Memo::new(move |_| ui.session.with(|s| s.scenario().expect.clone()));
    let points = Memo::new(move |_| {
        ui.session.with(|s| {
            let samples = s.samples();
            let end = s.scenario().until_ms.max(1) as f64;
            let t_max = samples.last().map_or(1, |x| x.at_ms).max(1) as f64;
            let t_max = t_max.min(end);
            let peak = samples.iter().map(|x| x.cluster.max(x.cache)).max().unwrap_or(1).max(1) as f64;
            let step = (samples.len() / 240).max(1);
            let line = |f: fn(&crate::view::session::Sample) -> u32| {
                samples
                    .iter()
                    .step_by(step)
                    .chain(samples.last())
                    .map(|x| format!("{:.1},{:.1}", 300.0 * x.at_ms as f64 / t_max, 60.0 - 56.0 * f(x) as f64 / peak))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            (line(|x| x.cluster), line(|x| x.cache))
        })
    });
    let counts = |m: &std::collections::BTreeMap<u16, u64>| {
        if m.is_empty() {
            "none".to_string()
        } else {
            m.iter().map(|(c, n)| format!("{n} × {}", pv::status_label(*c))).collect::<Vec<_>>().join(", ")
        }
    };
    view! {
        <section class="panel observations" aria-label="Observations">
            <header>
                <h2>"Observations"</h2>
            </header>
            <dl class="facts">
                <dt>{move || format!("{}s", o.get().kind)}</dt>
                <dd class="mono">
                    {move || { let o = o.get(); format!("cluster {} · cache {} · peak {}", o.in_cluster, o.in_cache, o.peak_in_cluster) }}
                </dd>
                <dt>"creates"</dt>
                <dd class="mono">{move || counts(&o.get().creates)}</dd>
                <dt>"deletes"</dt>
                <dd class="mono">{move || counts(&o.get().deletes)}</dd>
                <dt>"the lab expects"</dt>
                <dd>{move || expect.get().unwrap_or_else(|| "(no figure given)".into())}</dd>
            </dl>
            <svg class="plot" viewBox="0 0 300 64" role="img" aria-label="Children in the cluster and in the cache over time">
                <polyline class="series cluster" points=move || points.get().0 />
                <polyline class="series cache" points=move || points.get().1 />
            </svg>
            <p class="legend"><span class="swatch cluster"></span>"cluster "<span class="swatch cache"></span>"cache"</p>
        </section>
    }
}

#[component]
pub fn InvariantsPanel() -> impl IntoView {
    let ui = use_ui();
    let list = Memo::new(move |_| ui.session.with(|s| s.world().invariants.list.clone()));
    view! {
        <section class="panel invariants" aria-label="Invariants">
            <ul class="badges" role="list">
                {move || list.get().into_iter().map(|i| {
                    let broken = i.first_broken_frame;
                    view! {
                        <li class="invariant" class:broken=broken.is_some() title=i.description>
                            <span class="mark" aria-hidden="true">{if broken.is_some() { "⚠" } else { "✓" }}</span>
                            <span class="mono">{i.name}</span>
                            {match broken {
                                Some(n) => view! {
                                    <button class="jump" on:click=move |_| ui.seek(n as usize)>{format!("broken at frame {n}: jump")}</button>
                                }.into_any(),
                                None => view! { <span class="held">"held"</span> }.into_any(),
                            }}
                            {i.detail.map(|d| view! { <span class="detail">{d}</span> })}
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}

#[component]
pub fn TimelinePanel() -> impl IntoView {
    let ui = use_ui();
    let entries = Memo::new(move |_| ui.session.with(|s| pv::timeline(&s.frames()[..s.position()], 14)));
    view! {
        <section class="panel timeline" aria-label="Timeline">
            <div class="column">
                <h2>"Audit log"</h2>
                <ol class="audit mono">
                    {move || entries.get().0.into_iter().map(|e| match e {
                        TimelineEntry::Audit { entry, .. } => {
                            let code = entry.status.code;
                            let class = if code >= 400 { "bad" } else { "ok" };
                            let who = match entry.actor { Actor::Kubectl => "kubectl".to_string(), a => a.to_string() };
                            view! {
                                <li>
                                    <span class="t">{format!("{:.3}", entry.at_ms as f64 / 1000.0)}</span>
                                    <span class="who">{who}</span>
                                    <span class="verb">{entry.verb.as_str()}</span>
                                    <span class="obj">{if entry.name.is_empty() { format!("{}s", entry.kind) } else { format!("{} {}", kind_abbr(entry.kind), entry.name) }}</span>
                                    <span class=format!("status {class}")>{entry.status.label()}</span>
                                </li>
                            }.into_any()
                        }
                        TimelineEntry::Log { .. } => ().into_any(),
                    }).collect_view()}
                </ol>
            </div>
            <div class="column">
                <h2>"Controller log"</h2>
                <ol class="log mono">
                    {move || entries.get().1.into_iter().map(|e| match e {
                        TimelineEntry::Log { at_ms, text, .. } => view! {
                            <li><span class="t">{format!("{:.3}", at_ms as f64 / 1000.0)}</span>" "{text}</li>
                        }.into_any(),
                        TimelineEntry::Audit { .. } => ().into_any(),
                    }).collect_view()}
                </ol>
            </div>
        </section>
    }
}
