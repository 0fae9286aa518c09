//! Component tests for the Leptos UI, run in headless Chromium by
//! `wasm-bindgen-test-runner` (`make test-wasm`, or
//! `cargo test --target wasm32-unknown-unknown --test web`).
//!
//! Each test mounts one panel (inside the [`Ui`] context it needs) or the whole
//! [`Stage`] into a fresh element, and checks what is drawn against what an
//! independent [`Session`] of the same scenario says at the same frame (the
//! plain views in `cachescope::view::panels`), so the tests stay true when the
//! presets change and fail when a panel draws something the simulation did
//! not say.
#![cfg(target_arch = "wasm32")]

use cachescope::scenario::preset_names;
use cachescope::sim::apiserver::ControllerKind;
use cachescope::sim::controllers::Naming;
use cachescope::sim::object::Kind;
use cachescope::ui::{
    App, Controls, ExpectationsPanel, InvariantsPanel, Observations, ReconcilePanel, ScenarioPicker, ShareBar, Side, Stage, StorePanel,
    TimelinePanel, Transport, Ui, WatchPanel, WorkqueuePanel,
};
use cachescope::view::panels::{self as pv, RowState, TimelineEntry};
use cachescope::view::session::Session;
use cachescope::view::url::{self, parse_query, PageState};
use leptos::mount::mount_to;
use leptos::prelude::*;
use leptos::task::tick;
use std::any::Any;
use std::cell::Cell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement};

wasm_bindgen_test_configure!(run_in_browser);

// ---------------------------------------------------------------- harness

const DEFAULT: &str = "over-create";

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A fresh, empty element appended to `<body>`.
fn fresh_root() -> HtmlElement {
    let root = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    root.unchecked_into()
}

fn state(query: &str) -> PageState {
    parse_query(query, DEFAULT).unwrap_or_else(|e| panic!("{query}: {e}"))
}

/// What the simulation says at the frame `query` opens: a session of its own,
/// not the one the page holds.
fn reference(query: &str) -> Session {
    let st = state(query);
    let mut s = Session::with_edits(st.scenario, &st.edits);
    s.seek(st.frame);
    s
}

/// A component mounted with a [`Ui`] in context; unmounted and removed on drop.
struct Mounted {
    root: HtmlElement,
    ui: Option<Ui>,
    _handle: Box<dyn Any>,
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

impl Mounted {
    fn ui(&self) -> Ui {
        self.ui.expect("mounted with a Ui")
    }

    fn one(&self, selector: &str) -> Element {
        one(&self.root, selector)
    }

    fn all(&self, selector: &str) -> Vec<Element> {
        all(&self.root, selector)
    }

    fn text(&self, selector: &str) -> String {
        text(&self.one(selector))
    }

    /// Wait for the timers the page set (the look-ahead) before unmounting:
    /// one firing after it would touch disposed signals and panic.
    async fn finish(self) {
        sleep(60).await;
        drop(self);
    }
}

/// Mount `view` with a `Ui` for `query` provided as context, as the explorer
/// provides it, and let its first effects run (a range input's value, for
/// one, is only right once its `max` is in place).
async fn mount_panel<V: IntoView + 'static>(query: &str, view: impl FnOnce() -> V + 'static) -> Mounted {
    let st = state(query);
    let root = fresh_root();
    let slot = Rc::new(Cell::new(None::<Ui>));
    let slot_in = slot.clone();
    let handle = mount_to(root.clone(), move || {
        let ui = Ui::new(st);
        provide_context(ui);
        slot_in.set(Some(ui));
        view()
    });
    tick().await;
    Mounted { root, ui: slot.get(), _handle: Box::new(handle) }
}

/// Mount a component that needs no context (the explorer provides its own; the error page needs none).
async fn mount_bare<V: IntoView + 'static>(view: impl FnOnce() -> V + 'static) -> Mounted {
    let root = fresh_root();
    let handle = mount_to(root.clone(), view);
    tick().await;
    Mounted { root, ui: None, _handle: Box::new(handle) }
}

fn one(root: &Element, selector: &str) -> Element {
    root.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no element matches {selector:?}"))
}

fn all(root: &Element, selector: &str) -> Vec<Element> {
    // `querySelectorAll` through js-sys: web-sys's NodeList binding is not among the enabled features.
    let f: js_sys::Function = js_sys::Reflect::get(root, &"querySelectorAll".into()).unwrap().unchecked_into();
    let list = f.call1(root, &selector.into()).unwrap_or_else(|e| panic!("bad selector {selector:?}: {e:?}"));
    js_sys::Array::from(&list).iter().map(|e| e.unchecked_into()).collect()
}

fn text(e: &Element) -> String {
    e.text_content().unwrap_or_default()
}

fn attr(e: &Element, name: &str) -> Option<String> {
    e.get_attribute(name)
}

fn has_class(e: &Element, class: &str) -> bool {
    e.class_list().contains(class)
}

fn click(e: &Element) {
    e.unchecked_ref::<HtmlElement>().click();
}

/// Fire a bubbling `event` at `e`, as the browser does after a user's input.
fn fire(e: &Element, event: &str) {
    let ctor: js_sys::Function = js_sys::Reflect::get(&js_sys::global(), &"Event".into()).unwrap().unchecked_into();
    let init = js_sys::Object::new();
    js_sys::Reflect::set(&init, &"bubbles".into(), &true.into()).unwrap();
    let ev = js_sys::Reflect::construct(&ctor, &js_sys::Array::of2(&event.into(), &init)).unwrap();
    e.dispatch_event(ev.unchecked_ref()).unwrap();
}

/// Set an input's value and fire the event its handler listens to.
fn set_input(e: &Element, value: &str, event: &str) {
    e.unchecked_ref::<HtmlInputElement>().set_value(value);
    fire(e, event);
}

/// A key pressed with the focus on `<body>` (the explorer listens on the window).
fn press(key: &str, shift: bool) {
    let script = format!(
        "document.body.dispatchEvent(new KeyboardEvent('keydown', {{ key: {key:?}, shiftKey: {shift}, bubbles: true, cancelable: true }}))"
    );
    js_sys::eval(&script).expect("dispatch a keydown");
}

async fn sleep(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

fn secs(ms: u64) -> String {
    format!("{:.1} s", ms as f64 / 1000.0)
}

/// The first frame of `query`'s run (from its frame on) where `pred` holds.
fn first_frame_where(query: &str, pred: impl Fn(&Session) -> bool) -> usize {
    let mut s = reference(query);
    loop {
        if pred(&s) {
            return s.position();
        }
        assert!(s.step_forward(), "{query}: the run ended before the frame the test looks for");
    }
}

// ---------------------------------------------------------------- the renderer (vendor/tachys)

/// The names of the attributes written on `e` from now on, in order, each
/// time the returned function is called (a MutationObserver's records).
fn attributes_written(e: &Element) -> impl Fn() -> Vec<String> {
    let observe = js_sys::Function::new_with_args(
        "el",
        "const seen = []; const mo = new MutationObserver((ms) => seen.push(...ms.map((m) => m.attributeName)));\
         mo.observe(el, { attributes: true });\
         return () => { seen.push(...mo.takeRecords().map((m) => m.attributeName)); return seen.slice(); };",
    );
    let read: js_sys::Function = observe.call1(&wasm_bindgen::JsValue::NULL, e).unwrap().unchecked_into();
    move || js_sys::Array::from(&read.call0(&wasm_bindgen::JsValue::NULL).unwrap()).iter().map(|n| n.as_string().unwrap()).collect()
}

/// With `erase_components`, an element's attributes are a `Vec<AnyAttribute>`,
/// and published tachys rebuilds it by removing and setting every attribute
/// again; vendor/tachys rebuilds each in place. So a view drawn again writes
/// only the attribute whose value changed (before the patch: all three, twice).
#[wasm_bindgen_test]
async fn a_rebuilt_element_writes_only_the_attributes_that_changed() {
    let (n, set_n) = signal(1u32);
    let m =
        mount_bare(move || view! { <div>{move || view! { <p class="same" title="same" data-n=n.get().to_string()>{n.get()}</p> }}</div> })
            .await;
    let p = m.one("p");
    let written = attributes_written(&p);
    set_n.set(2);
    tick().await;
    assert_eq!(m.one("p"), p, "rebuilt in place, not built anew");
    assert_eq!((text(&p), attr(&p, "data-n")), ("2".to_string(), Some("2".to_string())));
    assert_eq!(written(), ["data-n"]);
    assert_eq!((attr(&p, "class"), attr(&p, "title")), (Some("same".to_string()), Some("same".to_string())));
}

/// The element rebuilt with other attributes than it was built with (other
/// types, or one type under another name: a custom attribute's name is a
/// value) loses the old ones, as leptos#4268 asks of any patch to that code.
#[wasm_bindgen_test]
async fn a_rebuilt_element_with_other_attributes_drops_the_old_ones() {
    let (which, set_which) = signal(0u8);
    let m = mount_bare(move || {
        view! {
            <div>
                {move || match which.get() {
                    0 => view! { <p id="home"></p> }.into_any(),
                    1 => view! { <p class="auth-box"></p> }.into_any(),
                    2 => view! { <p data-a="1"></p> }.into_any(),
                    _ => view! { <p data-b="2"></p> }.into_any(),
                }}
            </div>
        }
    })
    .await;
    let names = |p: &Element| js_sys::Array::from(&p.get_attribute_names()).iter().map(|n| n.as_string().unwrap()).collect::<Vec<_>>();
    let mut seen = Vec::new();
    for step in 0..4u8 {
        set_which.set(step);
        tick().await;
        let p = m.one("p");
        seen.push((names(&p), attr(&p, "id").or(attr(&p, "class")).or(attr(&p, "data-a")).or(attr(&p, "data-b"))));
    }
    let expected = [("id", "home"), ("class", "auth-box"), ("data-a", "1"), ("data-b", "2")];
    assert_eq!(seen, expected.map(|(name, value)| (vec![name.to_string()], Some(value.to_string()))));
}

// ---------------------------------------------------------------- the reactive graph (vendor/reactive_graph)

/// An effect that reads a memo (the rows in view) of a memo (how many rows)
/// of a memo (the snapshot), and the two it derives from too, as the
/// Cluster list's rows do. Published reactive_graph checks the first memo
/// with the effect as the observer: the snapshot, brought up to date by
/// that check, spares the effect its `mark_dirty`, and the rows in view,
/// unchanged, answer "no change", so the effect missed the frame (at the end
/// of a run, for good: the rows said "of 497" under a header counting 501).
/// vendor/reactive_graph runs the effect once for each change, and only once.
#[wasm_bindgen_test]
async fn an_effect_reading_a_memo_and_what_it_derives_from_runs_once_for_each_change() {
    let source = RwSignal::new(0usize);
    let seen = Rc::new(std::cell::RefCell::new(Vec::new()));
    let seen_in = Rc::clone(&seen);
    // Mounted, as the page's effects are: the memos and the effect belong to the mounted view.
    let _m = mount_bare(move || {
        let snap = Memo::new(move |_| source.get());
        let len = Memo::new(move |_| snap.get() / 10);
        let shown = Memo::new(move |_| len.get().min(3));
        StoredValue::new_local(RenderEffect::new(move |_| seen_in.borrow_mut().push((shown.get(), len.get(), snap.get()))));
    })
    .await;
    for v in [5, 40, 41, 50] {
        source.set(v);
        tick().await;
    }
    assert_eq!(*seen.borrow(), [(0, 0, 0), (0, 0, 5), (3, 4, 40), (3, 4, 41), (3, 5, 50)]);
}

// ---------------------------------------------------------------- Cluster and Cache

/// The Cluster (or Cache) panel's rows are exactly the view's rows, in order,
/// each seen from its side: a side names only what it holds; an object only
/// the other side has is an unnamed slot; a side that holds nothing draws no
/// list at all and says it is empty.
fn assert_rows_drawn(m: &Mounted, panel: &str, s: &Session, cache_side: bool) {
    let rows = pv::object_rows(s.world());
    // The rows shown: elements the list recycles and no object has are hidden.
    let items = m.all(&format!(r#"section[aria-label="{panel}"] ul.rows > li:not([hidden])"#));
    let at = format!("{panel} at frame {}", s.position());
    let holds = rows.iter().filter(|r| if cache_side { r.cache_rv.is_some() } else { r.cluster_rv.is_some() }).count();
    if holds == 0 {
        assert!(items.is_empty(), "{at}: an empty side draws no rows");
        if !rows.is_empty() {
            assert!(m.text(&format!(r#"section[aria-label="{panel}"] .empty"#)).starts_with("Empty"), "{at}: it says it is empty");
        }
        return;
    }
    assert_eq!(items.len(), rows.len(), "{at}: one row per object, so both panels line up");
    for (li, r) in items.iter().zip(&rows) {
        let rv = if cache_side { r.cache_rv } else { r.cluster_rv };
        assert_eq!(has_class(li, "child"), r.depth == 1, "{at}: {} listed under its owner", r.id());
        let Some(rv) = rv else {
            assert!(has_class(li, "slot"), "{at}: {} is a slot on this side", r.id());
            assert_eq!(text(&one(li, ".name")), "", "{at}: a slot names nothing");
            assert!(!text(li).contains(r.name.as_str()), "{at}: {} is not named on the side that lacks it", r.name);
            if cache_side {
                let note = match r.pending {
                    Some((t, eta)) => format!("{} in {}", t.as_str(), secs(eta)),
                    None => "not in this cache".to_string(),
                };
                assert_eq!(text(&one(li, ".note:not(.terminating)")), note, "{at}: the slot says when its event arrives");
            }
            continue;
        };
        assert_eq!(attr(li, "title").as_deref(), Some(r.id().as_str()), "{at}: row order");
        assert_eq!(attr(li, "data-kind").as_deref(), Some(r.kind.as_str()), "{at}: {}", r.id());
        assert_eq!(text(&one(li, ".name")), r.name, "{at}: the full name (a generated suffix too)");
        assert_eq!(text(&one(li, ".rv")), format!("rv {rv}"), "{at}: {}", r.id());
        let expected_class = match (cache_side, r.state()) {
            (false, RowState::NotInCache) => Some("unseen"),
            (true, RowState::GoneFromCluster) | (_, RowState::Stale) => Some("stale"),
            _ => None,
        };
        for class in ["unseen", "stale", "slot"] {
            assert_eq!(has_class(li, class), expected_class == Some(class), "{at}: {} is {:?}, class {class}", r.id(), r.state());
        }
    }
}

#[wasm_bindgen_test]
async fn cluster_panel_lists_what_the_apiserver_holds_frame_by_frame() {
    let q = "s=over-create";
    let m = mount_panel(q, || view! { <StorePanel side=Side::Cluster /> }).await;
    let ui = m.ui();
    let mut s = reference(q);
    let end = {
        let mut e = reference(q);
        e.seek(usize::MAX)
    };
    assert!(end > 40, "over-create runs past frame 40 ({end} frames)");
    for n in [0, 8, 20, 40, end / 2, end] {
        ui.seek(n);
        tick().await;
        s.seek(n);
        assert_rows_drawn(&m, "Cluster", &s, false);
        let present_cms = m.all(r#"li[data-kind="ConfigMap"]"#).len() as u64;
        assert_eq!(present_cms, s.world().api.live().get(&Kind::ConfigMap).copied().unwrap_or(0), "frame {n}: ConfigMaps in the cluster");
        assert_eq!(m.text(".badge"), format!("rv {}", s.world().api.resource_version()), "frame {n}: the cluster's resourceVersion");
    }
    // At the end, the lab's figure: exactly four beta-voice- ConfigMaps.
    let names: Vec<String> = m.all(r#"li[data-kind="ConfigMap"] .name"#).iter().map(text).collect();
    assert_eq!(names, ["beta-voice-0", "beta-voice-1", "beta-voice-2", "beta-voice-3"]);
    m.finish().await;
}

#[wasm_bindgen_test]
async fn cluster_panel_keeps_a_slot_for_what_is_deleted_but_still_cached() {
    // replicaset-pressure: pods are deleted while the cache still holds them;
    // the Cluster keeps an unnamed slot, the Cache strikes the name out.
    let q = "s=replicaset-pressure";
    let n = first_frame_where(q, |s| pv::object_rows(s.world()).iter().any(|r| r.state() == RowState::GoneFromCluster));
    let q = format!("{q}&frame={n}");
    let m = mount_panel(&q, || view! { <StorePanel side=Side::Cluster /> <StorePanel side=Side::Cache /> }).await;
    let s = reference(&q);
    assert_rows_drawn(&m, "Cluster", &s, false);
    assert_rows_drawn(&m, "Cache", &s, true);
    assert!(!m.all(r#"section[aria-label="Cluster"] li.slot"#).is_empty(), "frame {n}: the deleted pod's slot");
    assert!(!m.all(r#"section[aria-label="Cache"] li.stale[data-kind="Pod"]"#).is_empty(), "frame {n}: still cached, struck out");
    m.finish().await;
}

#[wasm_bindgen_test]
async fn an_empty_cache_names_nothing() {
    // empty-cache without the wait: the cache holds nothing while the cluster holds the seeds.
    let q = "s=empty-cache";
    let n = first_frame_where(q, |s| s.world().api.resource_version() > 55);
    let q = format!("{q}&frame={n}");
    let m = mount_panel(&q, || view! { <StorePanel side=Side::Cache /> }).await;
    let s = reference(&q);
    assert_eq!(s.world().controller_informer(Kind::ConfigMap).unwrap().len(), 0, "the store is empty at frame {n}");
    assert_rows_drawn(&m, "Cache", &s, true);
    let drawn = m.text(r#"section[aria-label="Cache"]"#);
    for o in s.world().api.objects_of(Kind::ConfigMap) {
        assert!(!drawn.contains(&format!("{} ", o.name)) && !drawn.ends_with(o.name.as_str()), "the empty cache names {}: {drawn}", o.name);
    }
    assert!(drawn.contains("Empty."), "{drawn}");
    m.finish().await;
}

#[wasm_bindgen_test]
async fn cluster_and_cache_light_the_object_the_frame_acts_on_and_keep_it_in_view() {
    // read-your-write: the 409 frame acts on seed-99, the 51st of 51 rows.
    let q = "s=read-your-write";
    let n = first_frame_where(q, |s| s.last_frame().is_some() && pv::session_caption(s).contains("409 AlreadyExists"));
    // The page's stylesheet is not loaded here: give the lists the scrolling
    // box they have on the page, and the rows the height the list's scroll
    // arithmetic takes (the list sets --row-h and --row-gap).
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some(
        ".rows { display: block; max-height: 120px; overflow-y: auto; margin: 0; padding: 0 } \
         .row { display: flex; box-sizing: border-box; height: var(--row-h); margin-bottom: var(--row-gap) }",
    ));
    document().head().unwrap().append_child(&style).unwrap();
    let m = mount_panel(q, || view! { <StorePanel side=Side::Cluster /> <StorePanel side=Side::Cache /> }).await;
    let ui = m.ui();
    // Whether both lists show their lit row (none lit: nothing to show).
    let in_view = |m: &Mounted| {
        ["Cluster", "Cache"].iter().all(|panel| {
            let row = m.all(&format!(r#"section[aria-label="{panel}"] li.touched"#));
            let Some(row) = row.first() else { return true };
            let (row, list) =
                (row.get_bounding_client_rect(), m.one(&format!(r#"section[aria-label="{panel}"] ul.rows"#)).get_bounding_client_rect());
            row.top() >= list.top() - 0.5 && row.bottom() <= list.bottom() + 0.5
        })
    };
    for (frame, lit) in [(n, Some("seed-99")), (0, None), (n, Some("seed-99"))] {
        ui.seek(frame);
        tick().await;
        // The lists scroll at the next animation frame (`Ui::at_next_frame`),
        // which a loaded machine may run late: wait for it, up to a second.
        for _ in 0..50 {
            sleep(20).await;
            if in_view(&m) {
                break;
            }
        }
        // The Cluster names it; the Cache, which does not hold it yet, lights its unnamed slot.
        let names: Vec<String> = m.all(r#"section[aria-label="Cluster"] li.touched .name"#).iter().map(text).collect();
        assert_eq!(names, lit.into_iter().collect::<Vec<_>>(), "frame {frame}: the Cluster row lit");
        let slots = m.all(r#"section[aria-label="Cache"] li.touched"#);
        assert_eq!(slots.len(), usize::from(lit.is_some()), "frame {frame}: the Cache slot lit");
        assert!(slots.iter().all(|s| has_class(s, "slot")), "frame {frame}: seed-99 is not in the cache yet");
        if lit.is_some() {
            for panel in ["Cluster", "Cache"] {
                let row = m.one(&format!(r#"section[aria-label="{panel}"] li.touched"#)).get_bounding_client_rect();
                let list = m.one(&format!(r#"section[aria-label="{panel}"] ul.rows"#)).get_bounding_client_rect();
                assert!(
                    row.top() >= list.top() - 0.5 && row.bottom() <= list.bottom() + 0.5,
                    "frame {frame}: the lit row is scrolled into the {panel} list's view (row {}..{}, list {}..{})",
                    row.top(),
                    row.bottom(),
                    list.top(),
                    list.bottom()
                );
            }
        }
    }
    style.remove();
    m.finish().await;
}

#[wasm_bindgen_test]
async fn cache_panel_keeps_slots_for_what_it_has_not_seen_yet() {
    // The first frames where the cluster has ConfigMaps the cache has not seen.
    let q = "s=over-create&controller.naming=generate";
    let n =
        first_frame_where(q, |s| pv::object_rows(s.world()).iter().any(|r| r.kind == Kind::ConfigMap && r.state() == RowState::NotInCache));
    let q = format!("{q}&frame={}", n + 3);
    let m = mount_panel(&q, || view! { <StorePanel side=Side::Cluster /> <StorePanel side=Side::Cache /> }).await;
    let s = reference(&q);
    assert_rows_drawn(&m, "Cache", &s, true);
    assert_rows_drawn(&m, "Cluster", &s, false);
    let slots = m.all(r#"section[aria-label="Cache"] li.slot"#);
    assert!(!slots.is_empty(), "slots in the Cache panel");
    // The slot and the cluster row line up, by position in both lists.
    let cluster = m.all(r#"section[aria-label="Cluster"] ul.rows > li:not([hidden])"#);
    let cache = m.all(r#"section[aria-label="Cache"] ul.rows > li:not([hidden])"#);
    assert_eq!(cluster.len(), cache.len());
    for (a, b) in cluster.iter().zip(&cache) {
        assert_eq!(has_class(a, "unseen"), has_class(b, "slot"), "highlighted in both panels: {:?}", attr(a, "title"));
        if !has_class(b, "slot") {
            assert_eq!(attr(a, "title"), attr(b, "title"), "the two panels line up row by row");
        }
    }
    // Generated names are shown in full, the suffix set apart.
    let unseen = m.one(r#"section[aria-label="Cluster"] li.unseen"#);
    let suffix = one(&unseen, ".name b.suffix");
    assert_eq!(text(&suffix).len(), 5, "the five-letter generated suffix");
    assert!(text(&one(&unseen, ".name")).starts_with("beta-voice-"));
    // HasSynced follows the informer.
    let badge = m.text(r#"section[aria-label="Cache"] .badge.synced"#);
    assert_eq!(badge, if s.world().controller_synced() { "HasSynced ✓" } else { "HasSynced ✗" });
    m.finish().await;
}

#[wasm_bindgen_test]
async fn cache_panel_says_has_synced_only_once_listed() {
    let q = "s=empty-cache";
    let m = mount_panel(q, || view! { <StorePanel side=Side::Cache /> }).await;
    let ui = m.ui();
    assert!(!reference(q).world().controller_synced());
    assert_eq!(m.text(".badge.synced"), "HasSynced ✗");
    assert!(has_class(&m.one(".badge.synced"), "no"));
    let n = first_frame_where(q, |s| s.world().controller_synced());
    ui.seek(n - 1);
    tick().await;
    assert_eq!(m.text(".badge.synced"), "HasSynced ✗", "frame {}: not yet", n - 1);
    ui.step_forward();
    tick().await;
    assert_eq!(m.text(".badge.synced"), "HasSynced ✓", "frame {n}: the list is in the store");
    assert!(!has_class(&m.one(".badge.synced"), "no"));
    m.finish().await;
}

// ---------------------------------------------------------------- Watch

#[wasm_bindgen_test]
async fn watch_panel_draws_events_in_flight_along_their_path() {
    let q0 = "s=over-create";
    let n = first_frame_where(q0, |s| pv::wires(s.world(), false, s.world().now_ms()).iter().filter(|w| w.label == "ADDED").count() >= 2);
    let q = format!("{q0}&frame={n}");
    let m = mount_panel(&q, || view! { <WatchPanel /> }).await;
    let ui = m.ui();
    let s = reference(&q);
    let now = s.world().now_ms();
    let wires = pv::wires(s.world(), false, now);
    let items = m.all("ul.wires > li");
    assert_eq!(items.len(), wires.len().min(40), "frame {n}: one line per event on the wire");
    assert!(m.all("p.empty").is_empty(), "no 'nothing on the wire' while events travel");
    assert!(m.text(".sub").ends_with(&format!("lag {} ms", s.world().cluster.watch_lag_ms)));
    let lefts = |m: &Mounted| -> Vec<f64> {
        // Each dot rides a span as wide as its track, moved along it by a transform.
        m.all("ul.wires .track > .run")
            .iter()
            .map(|d| {
                attr(d, "style")
                    .unwrap()
                    .trim_start_matches("transform:translateX(")
                    .trim()
                    .trim_end_matches(';')
                    .trim_end_matches(')')
                    .trim_end_matches('%')
                    .parse::<f64>()
                    .unwrap()
            })
            .collect()
    };
    for ((li, w), left) in items.iter().zip(&wires).zip(lefts(&m)) {
        assert_eq!(text(&one(li, ".event")), w.label);
        assert!(has_class(li, &w.label.to_lowercase()));
        assert!(text(li).contains(&w.name), "{} on the line", w.name);
        assert!((left - 100.0 * w.progress).abs() < 0.06, "{}: drawn at {left}%, the view says {:.1}%", w.name, 100.0 * w.progress);
        assert_eq!(text(&one(li, ".eta")), format!("in {}", secs(w.deliver_at_ms - now)));
    }
    // The animation clock moves them along between frames.
    let before = lefts(&m);
    ui.display_ms.set(now + 300);
    tick().await;
    let after = lefts(&m);
    assert_eq!(before.len(), after.len());
    assert!(before.iter().zip(&after).all(|(b, a)| a > b || *b >= 100.0), "every dot moved forward: {before:?} -> {after:?}");
    m.finish().await;
}

#[wasm_bindgen_test]
async fn watch_panel_gives_the_element_of_an_event_gone_to_the_next_and_builds_none_again() {
    // over-create from its first ADDED on: events arrive and leave the lane frame by frame.
    let q0 = "s=over-create";
    let n = first_frame_where(q0, |s| !pv::wires(s.world(), false, s.world().now_ms()).is_empty());
    let q = format!("{q0}&frame={n}");
    let m = mount_panel(&q, || view! { <WatchPanel /> }).await;
    let ui = m.ui();
    let mut s = reference(&q);
    let mut built: Vec<web_sys::Element> = Vec::new();
    let (mut most, mut emptied) = (0, false);
    for f in n..n + 80 {
        ui.seek(f);
        tick().await;
        s.seek(f);
        let now = s.world().now_ms();
        let wires = pv::wires(s.world(), false, now);
        let items = m.all("ul.wires > li");
        let shown: Vec<_> = items.iter().filter(|li| attr(li, "hidden").is_none()).collect();
        assert_eq!(shown.len(), wires.len().min(40), "frame {f}: one wire shown per event on the wire");
        for (li, w) in shown.iter().zip(&wires) {
            assert_eq!(text(&one(li, ".event")), w.label, "frame {f}");
            assert!(text(&one(li, ".obj")).ends_with(&w.name), "frame {f}: {} on the line", w.name);
            assert_eq!(attr(li, "data-wire").as_deref(), Some(w.id.as_str()), "frame {f}: the hands act on this very event");
            assert_eq!(attr(&one(li, ".hands"), "hidden").is_none(), w.nth > 0 && !w.dropped, "frame {f}: hands on {}", w.name);
        }
        // Every element the lane ever built is still in the list: one whose
        // event has gone is hidden, and given to the next event, not built anew.
        assert!(built.iter().all(|li| li.is_connected()), "frame {f}: a wire element was dropped");
        for li in &items {
            if !built.contains(li) {
                built.push(li.clone());
            }
        }
        assert_eq!(items.len(), built.len(), "frame {f}");
        most = most.max(wires.len());
        emptied |= most > 0 && wires.is_empty();
    }
    assert!(most >= 4, "over-create puts its creates on the wire at once ({most} at most)");
    assert_eq!(built.len(), most.min(40), "as many wire elements as the lane has held at once, and no more");
    assert!(emptied, "the lane emptied again within 80 frames of its first event");
    m.finish().await;
}

#[wasm_bindgen_test]
async fn watch_panel_shows_dropped_events_as_dropped() {
    // Drop the next event once the Ensemble is in the cluster: a child's ADDED.
    let q0 = "s=over-create&edit=8:do=drop_next_event";
    let n = first_frame_where(q0, |s| pv::wires(s.world(), false, s.world().now_ms()).iter().any(|w| w.dropped));
    let q = format!("{q0}&frame={n}");
    let m = mount_panel(&q, || view! { <WatchPanel /> }).await;
    let s = reference(&q);
    let wires = pv::wires(s.world(), false, s.world().now_ms());
    let items = m.all("ul.wires > li");
    assert_eq!(items.len(), wires.len());
    let mut dropped = 0;
    for (li, w) in items.iter().zip(&wires) {
        assert_eq!(has_class(li, "dropped"), w.dropped, "{}", w.name);
        if w.dropped {
            dropped += 1;
            assert_eq!(text(&one(li, ".eta")), "dropped");
        }
    }
    assert_eq!(dropped, 1);
    m.finish().await;
}

#[wasm_bindgen_test]
async fn watch_panel_says_when_nothing_is_on_the_wire() {
    let q0 = "s=over-create";
    let end = reference("s=over-create&frame=100000").position();
    let q = format!("{q0}&frame={end}");
    let s = reference(&q);
    assert!(pv::wires(s.world(), false, s.world().now_ms()).is_empty());
    let m = mount_panel(&q, || view! { <WatchPanel /> }).await;
    assert!(m.all("ul.wires > li").is_empty());
    assert_eq!(m.text("p.empty"), "Nothing on the wire: the cache has every change.");
    m.finish().await;
}

// ---------------------------------------------------------------- Workqueue

#[wasm_bindgen_test]
async fn workqueue_panel_shows_queued_processing_and_dirty_keys() {
    let q0 = "s=over-create";
    // A frame with a worker busy, and one with a key dirty while processing (double enqueue).
    let busy = first_frame_where(q0, |s| pv::queue(s.world(), None).workers.iter().any(|w| w.busy.is_some()));
    let m = mount_panel(q0, || view! { <WorkqueuePanel /> }).await;
    let ui = m.ui();
    let mut s = reference(q0);
    let dirty = {
        let mut r = reference(q0);
        loop {
            if !pv::queue(r.world(), None).dirty_while_processing.is_empty() {
                break r.position();
            }
            assert!(r.step_forward(), "over-create (double enqueue) has a key dirty while processing");
        }
    };
    let mut seen_busy = false;
    for n in [0, busy, dirty] {
        ui.seek(n);
        tick().await;
        s.seek(n);
        let q = pv::queue(s.world(), None);
        let dds = m.all("dl.queue > dd");
        assert_eq!(dds.len(), 4, "queue, processing, dirty, waiting");
        let keys: Vec<String> = all(&dds[0], ".key").iter().map(text).collect();
        assert_eq!(keys, q.queued, "frame {n}: queued keys");
        if q.queued.is_empty() {
            assert_eq!(text(&dds[0]), "empty");
        }
        let workers: Vec<String> = all(&dds[1], "li").iter().map(text).collect();
        let expected: Vec<String> = q
            .workers
            .iter()
            .map(|w| match &w.busy {
                Some((key, r)) => format!("worker {}: {key} (reconcile {r})", w.worker),
                None => format!("worker {}: idle", w.worker),
            })
            .collect();
        assert_eq!(workers, expected, "frame {n}: workers");
        seen_busy |= !m.all("ul.workers li.busy").is_empty();
        let dirty = if q.dirty_while_processing.is_empty() {
            "none".to_string()
        } else {
            format!("{}: one more reconcile after Done", q.dirty_while_processing.join(", "))
        };
        assert_eq!(text(&dds[2]), dirty, "frame {n}: dirty keys");
        assert_eq!(m.text(".sub"), if q.running { "workers running" } else { "workers waiting" });
    }
    assert!(seen_busy, "a busy worker was drawn");
    m.finish().await;
}

// ---------------------------------------------------------------- Expectations

#[wasm_bindgen_test]
async fn expectations_panel_says_when_the_controller_keeps_none() {
    let q = "s=over-create&frame=40";
    assert!(!pv::expectations(reference(q).world()).enabled, "over-create keeps no expectations");
    let m = mount_panel(q, || view! { <ExpectationsPanel /> }).await;
    let section = m.one(r#"section[aria-label="Expectations"]"#);
    assert!(text(&one(&section, "p.empty")).starts_with("This controller keeps no expectations"));
    assert!(m.all("li.record").is_empty());
    assert!(m.all("[data-counter]").is_empty());
    m.finish().await;
}

#[wasm_bindgen_test]
async fn expectations_panel_counts_creates_in_flight() {
    let q0 = "s=replicaset-pressure";
    let n = first_frame_where(q0, |s| pv::expectations(s.world()).records.iter().any(|r| r.add > 0));
    let m = mount_panel(&format!("{q0}&frame={}", n - 1), || view! { <ExpectationsPanel /> }).await;
    let ui = m.ui();
    let mut s = reference(q0);
    // Before: records (if any) with add 0; then the frame the creates go out; then a few more.
    for k in (n - 1)..(n + 6) {
        ui.seek(k);
        tick().await;
        s.seek(k);
        let e = pv::expectations(s.world());
        assert!(e.enabled);
        let records = m.all("li.record");
        assert_eq!(records.len(), e.records.len(), "frame {k}: one line per key");
        if e.records.is_empty() {
            assert!(m.text("p.empty").starts_with("No records yet"));
        }
        for (li, r) in records.iter().zip(&e.records) {
            assert_eq!(text(&one(li, ".key")), r.key);
            assert_eq!(text(&one(li, r#"b[data-counter="add"]"#)), r.add.to_string(), "frame {k}: add");
            assert_eq!(text(&one(li, r#"b[data-counter="del"]"#)), r.del.to_string(), "frame {k}: del");
            assert_eq!(has_class(li, "pending"), !r.satisfied);
            assert_eq!(text(&one(li, ".satisfied")).starts_with("SatisfiedExpectations: true"), r.satisfied);
            let meter = one(li, r#"[role="meter"]"#);
            assert_eq!(attr(&meter, "aria-valuenow"), Some(format!("{}", (r.fraction_left * 100.0).round())));
        }
    }
    ui.seek(n);
    tick().await;
    let add: i64 = m.text(r#"b[data-counter="add"]"#).parse().unwrap();
    assert!(add > 0, "frame {n}: a non-zero add while the creates are in flight");
    m.finish().await;
}

// ---------------------------------------------------------------- Reconcile

#[wasm_bindgen_test]
async fn reconcile_panel_lights_the_step_each_frame_acts_on() {
    let q0 = "s=over-create&controller.naming=generate";
    let m = mount_panel(q0, || view! { <ReconcilePanel /> }).await;
    let ui = m.ui();
    let mut s = reference(q0);
    let lines = pv::reconcile(s.world(), s.last_frame()).lines;
    let drawn: Vec<String> = m.all("ol.code > li .text").iter().map(text).collect();
    assert_eq!(drawn, lines.iter().map(|l| l.text.to_string()).collect::<Vec<_>>(), "the controller's pseudo-code, line by line");
    assert!(m.all("ol.code > li.lit").is_empty(), "frame 0: nobody is reconciling");
    // Walk the run; every frame lights exactly the line the view says, with its values.
    let mut lit_steps = std::collections::BTreeSet::new();
    let end = reference(&format!("{q0}&frame=100000")).position();
    for n in 1..=end {
        ui.seek(n);
        tick().await;
        s.seek(n);
        let r = pv::reconcile(s.world(), s.last_frame());
        let items = m.all("ol.code > li");
        for (li, line) in items.iter().zip(&r.lines) {
            assert_eq!(has_class(li, "lit"), line.lit, "frame {n}: {}", line.text);
            assert_eq!(attr(li, "aria-current").as_deref(), line.lit.then_some("step"), "frame {n}: {}", line.text);
            if line.lit {
                lit_steps.insert(format!("{:?}", line.step));
                let value = line.value.clone().unwrap_or_default();
                assert_eq!(li.query_selector(".value").unwrap().map(|v| text(&v)).unwrap_or_default(), value, "frame {n}");
            }
        }
        // A frame a reconcile acts in lights a line; others light none.
        let acts = pv::frame_step(ControllerKind::Ensemble, s.last_frame().unwrap()).is_some();
        assert_eq!(items.iter().any(|li| has_class(li, "lit")), acts, "frame {n}");
    }
    for step in ["Dequeue", "ListChildren", "Create", "Return"] {
        assert!(lit_steps.contains(step), "the run lights {step}: {lit_steps:?}");
    }
    m.finish().await;
}

// ---------------------------------------------------------------- Observations

#[wasm_bindgen_test]
async fn observations_show_the_labs_numbers_live() {
    let q0 = "s=empty-cache";
    let end = reference("s=empty-cache&frame=100000").position();
    let m = mount_panel(q0, || view! { <Observations /> }).await;
    let ui = m.ui();
    let mut s = reference(q0);
    for n in [0, end / 2, end] {
        ui.seek(n);
        tick().await;
        s.seek(n);
        // As the page does after a seek: at the last frame, the run's end is known there.
        s.probe_end();
        let o = pv::observations(s.world());
        let dds: Vec<String> = m.all("dl.facts > dd").iter().map(text).collect();
        let dts: Vec<String> = m.all("dl.facts > dt").iter().map(text).collect();
        assert_eq!(dts[0], format!("{}s", o.kind));
        assert_eq!(dds[0], format!("cluster {} · cache {} · peak {}", o.in_cluster, o.in_cache, o.peak_in_cluster), "frame {n}");
        // (status, count) pairs, whatever collection the view keeps them in.
        let counts = |c: Vec<(u16, u64)>, verb| {
            if c.is_empty() {
                "none".to_string()
            } else {
                c.iter().map(|(code, k)| format!("{k} × {}", pv::status_label(*code, verb))).collect::<Vec<_>>().join(", ")
            }
        };
        use cachescope::sim::apiserver::Verb;
        assert_eq!(dds[1], counts(o.creates.clone().into_iter().collect(), Verb::Create), "frame {n}: creates");
        assert_eq!(dds[2], counts(o.deletes.clone().into_iter().collect(), Verb::Delete), "frame {n}: deletes");
        let checks = pv::checks(&s);
        // Before the run's end the lab's figures wait until the learner asks for them.
        // (At the last frame too, while the page has not yet learned that it is the last.)
        let hidden = m.all("li.check").is_empty();
        if n < end {
            assert!(hidden, "frame {n}: no check shown before the end");
        }
        if hidden {
            assert_eq!(m.text("button.show-expected"), "Show what the lab expects");
            click(&m.one("button.show-expected"));
            assert!(ui.expected_shown.get_untracked(), "frame {n}: the button asks for the lab's figures");
            tick().await;
            tick().await;
        }
        let drawn: Vec<String> = m.all("li.check .text").iter().map(text).collect();
        let said: Vec<String> = checks
            .checks
            .iter()
            .map(|c| {
                let how = match c.held {
                    Some(true) => "holds",
                    Some(false) => "does not hold",
                    None => "not measured yet",
                };
                format!("{}: {how}", c.text)
            })
            .collect();
        assert_eq!(drawn, said, "frame {n}: the lab's checks, each with its verdict");
        ui.expected_shown.set(false);
        tick().await;
    }
    // Once the page knows the run's end, every check holds, each with its figure.
    ui.seek(100_000);
    tick().await;
    let figures: Vec<String> = m.all("li.check .figures").iter().map(text).collect();
    assert!(!figures.is_empty());
    assert!(figures.iter().all(|f| !f.ends_with('…')), "{figures:?}");
    assert!(m.all("li.check.failed").is_empty());
    assert!(figures.contains(&"expected 50 · measured 50".to_string()), "{figures:?}");
    // At the end the cache-less pruner has deleted all fifty.
    assert_eq!(m.all("dl.facts > dd")[2].text_content().unwrap(), "50 × 200 OK");
    assert!(m.one("svg.plot polyline.cluster").get_attribute("points").unwrap().split(' ').count() >= 2);
    m.finish().await;
}

// ---------------------------------------------------------------- Invariants

#[wasm_bindgen_test]
async fn invariant_badges_turn_red_and_jump_to_the_frame_they_broke() {
    let q0 = "s=empty-cache";
    let end = reference("s=empty-cache&frame=100000").position();
    let m = mount_panel(q0, || view! { <InvariantsPanel /> }).await;
    let ui = m.ui();
    // The pruner has no owners and no pods: the invariants on those say nothing of it, and are not listed.
    let applies = |i: &&cachescope::sim::invariants::Invariant| cachescope::sim::invariants::applies(i.name, ControllerKind::Pruner.spec());
    let at_start: Vec<_> = reference(q0).world().invariants.list.iter().filter(applies).cloned().collect();
    assert_eq!(at_start.iter().map(|i| i.name).collect::<Vec<_>>(), ["no_delete_before_sync", "no_delete_of_uncached"]);
    assert_eq!(m.all("li.invariant").len(), at_start.len());
    assert!(m.all("li.invariant.broken").is_empty(), "frame 0: all held");
    ui.seek(end);
    tick().await;
    let s = reference(&format!("{q0}&frame={end}"));
    let list: Vec<_> = s.world().invariants.list.iter().filter(applies).cloned().collect();
    let items = m.all("li.invariant");
    assert_eq!(items.len(), list.len());
    let mut jump_to = None;
    for (li, inv) in items.iter().zip(list) {
        assert!(text(li).contains(inv.name));
        assert_eq!(has_class(li, "broken"), inv.first_broken_frame.is_some(), "{}", inv.name);
        match inv.first_broken_frame {
            Some(f) => {
                let button = one(li, "button.jump");
                assert_eq!(text(&button), format!("frame {f}"));
                assert_eq!(button.get_attribute("aria-label").unwrap(), format!("{} broken at frame {f}: jump to it", inv.name));
                jump_to.get_or_insert((button, f));
            }
            None => assert_eq!(text(&one(li, ".held")), "held"),
        }
    }
    let (button, f) = jump_to.expect("empty-cache breaks no_delete_before_sync");
    click(&button);
    tick().await;
    assert_eq!(ui.session.with_untracked(|s| s.position()), f as usize, "the jump lands on the frame it broke");
    assert!(!m.all("li.invariant.broken").is_empty(), "still red at the frame it broke");
    m.finish().await;
}

// ---------------------------------------------------------------- Timeline

#[wasm_bindgen_test]
async fn timeline_shows_the_audit_log_and_the_controller_log_side_by_side() {
    let q = format!("s=empty-cache&frame={}", reference("s=empty-cache&frame=100000").position());
    let s = reference(&q);
    let (audit, logs) = pv::timeline(&s.frames()[..s.position()], usize::MAX);
    let m = mount_panel(&q, || view! { <TimelinePanel /> }).await;
    let drawn = m.all("ol.audit > li");
    assert!(!drawn.is_empty() && drawn.len() <= audit.len());
    // The newest lines, newest last.
    let tail = &audit[audit.len() - drawn.len()..];
    for (li, e) in drawn.iter().zip(tail) {
        let TimelineEntry::Audit { entry, .. } = e else { panic!("audit entries only") };
        assert_eq!(text(&one(li, ".verb")), entry.verb.as_str());
        assert_eq!(text(&one(li, ".status")), entry.status.label());
        assert!(has_class(&one(li, ".status"), if entry.status.code >= 400 { "bad" } else { "ok" }));
        assert!(entry.name.is_empty() || text(&one(li, ".obj")).ends_with(entry.name.as_str()));
        assert_eq!(text(&one(li, ".t")), format!("{:.3}", entry.at_ms as f64 / 1000.0));
    }
    // The empty-cache deletions look like an intentional cleanup to the apiserver.
    let [.., deleted] = &drawn[..] else { panic!("a line at least") };
    assert_eq!(text(&one(deleted, ".verb")), "delete");
    assert_eq!(text(&one(deleted, ".status")), "200 OK");
    let log_lines: Vec<String> = m.all("ol.log > li").iter().map(text).collect();
    let expected: Vec<String> = logs
        .iter()
        .map(|e| match e {
            TimelineEntry::Log { at_ms, text, .. } => format!("{:.3} {text}", *at_ms as f64 / 1000.0),
            _ => unreachable!(),
        })
        .collect();
    assert!(!log_lines.is_empty());
    assert_eq!(log_lines[..], expected[expected.len() - log_lines.len()..], "the controller's newest log lines");
    assert!(log_lines.last().unwrap().ends_with("exit status 0"));
    m.finish().await;
}

// ---------------------------------------------------------------- Controls

#[wasm_bindgen_test]
async fn controls_show_the_scenario_settings_and_change_them() {
    let q = "s=over-create";
    let m = mount_panel(q, || view! { <ScenarioPicker /> <Controls /> }).await;
    let ui = m.ui();
    let s = reference(q);
    let c = &s.world().controller;

    let select: HtmlSelectElement = m.one("select#scenario-select").unchecked_into();
    let names: Vec<String> = (0..select.length()).map(|i| select.item(i).unwrap().get_attribute("value").unwrap()).collect();
    assert_eq!(names, preset_names());
    assert_eq!(select.value(), "over-create");
    assert_eq!(m.text(r#"label[for="scenario-select"]"#), "Scenario");

    let lag: HtmlInputElement = m.one("input#lag").unchecked_into();
    assert_eq!(m.text(r#"label[for="lag"]"#), "Watch lag");
    assert_eq!(lag.type_(), "range");
    assert_eq!(lag.value(), s.world().cluster.watch_lag_ms.to_string());
    assert!(lag.max().parse::<u64>().unwrap() >= 5000, "the lag slider reaches 5,000 ms");

    let checkbox = |label: &str| -> HtmlInputElement {
        let l = m.all("label").into_iter().find(|l| text(l).trim() == label).unwrap_or_else(|| panic!("a label {label:?}"));
        one(&l, "input").unchecked_into()
    };
    assert_eq!(checkbox("Deterministic names").checked(), c.naming == Naming::Deterministic);
    assert_eq!(checkbox("GenerateName").checked(), c.naming == Naming::Generate);
    assert_eq!(checkbox("Double enqueue").checked(), c.double_enqueue);
    // What over-create's lesson does not use waits under More settings, drawn once it opens.
    let bar_labels: Vec<String> = m.all("label").iter().map(|l| text(l).trim().to_string()).collect();
    for elsewhere in ["Expectations", "Wait for cache sync", "Delete surplus", "Voices"] {
        assert!(!bar_labels.iter().any(|l| l == elsewhere), "{elsewhere} is not one of over-create's controls: {bar_labels:?}");
    }
    let more: web_sys::HtmlDetailsElement = m.one("details.more-settings").unchecked_into();
    more.set_open(true);
    fire(more.unchecked_ref(), "toggle");
    tick().await;
    tick().await;
    // Each setting of the table there, named by its path, with the table's limits.
    let field = |path: &str| -> HtmlInputElement { m.one(&format!(r#"input#setting-{}"#, path.replace(['.', '_'], "-"))).unchecked_into() };
    assert_eq!(m.text(r#"label[for="setting-controller-expectations"]"#), "controller.expectations");
    assert_eq!(field("controller.expectations").checked(), c.expectations());
    // controller-runtime never reconciles before its caches sync: the operator is offered no switch to skip the wait.
    assert!(m.all("input#setting-controller-wait-for-cache-sync").is_empty(), "the ensemble operator is controller-runtime's");
    assert_eq!(field("controller.delete_surplus").checked(), c.delete_surplus);
    assert_eq!(field("cluster.api_latency_ms").value(), s.world().cluster.api_latency_ms.to_string());
    assert_eq!(field("cluster.api_latency_ms").max(), "60000");
    assert_eq!(m.text(r#"label[for="desired"]"#), "Voices");
    assert_eq!(m.one("input#desired").unchecked_into::<HtmlInputElement>().value(), "4");
    let buttons: Vec<String> = m.all("button").iter().map(text).collect();
    for b in ["Delete the Ensemble", "Drop next watch event", "Restart controller"] {
        assert!(buttons.iter().any(|t| t == b), "{b:?} in {buttons:?}");
    }
    assert!(!buttons.iter().any(|t| t == "Delete a pod"), "no pods in over-create");

    // A user's change goes into the session at this frame.
    set_input(lag.unchecked_ref(), "3000", "change");
    // Two turns of the executor: the change reaches the fields through the
    // snapshot and the controls' own memo (Ui::controls) as two rounds of effects.
    tick().await;
    tick().await;
    assert_eq!(ui.session.with_untracked(|s| s.world().cluster.watch_lag_ms), 3000);
    assert_eq!(m.one(r#"input[aria-label="Watch lag in ms"]"#).unchecked_into::<HtmlInputElement>().value(), "3000");
    click(checkbox("GenerateName").unchecked_ref());
    tick().await;
    assert_eq!(ui.session.with_untracked(|s| s.world().controller.naming), Naming::Generate);
    assert!(checkbox("GenerateName").checked() && !checkbox("Deterministic names").checked());
    click(field("controller.expectations").unchecked_ref());
    tick().await;
    assert!(ui.session.with_untracked(|s| s.world().controller.expectations()));
    assert_eq!(ui.session.with_untracked(|s| s.world().cluster.watch_lag_ms), 3000, "the earlier change still holds");

    // A bad number is refused with a message naming the field.
    set_input(&m.one("input#desired"), "-3", "change");
    tick().await;
    assert_eq!(attr(&m.one("input#desired"), "aria-invalid").as_deref(), Some("true"));
    assert!(m.text("#desired-error").starts_with("Voices: \"-3\""), "{}", m.text("#desired-error"));

    // Choosing another preset loads it.
    select.set_value("replicaset-pressure");
    fire(select.unchecked_ref(), "change");
    tick().await;
    assert_eq!(ui.session.with_untracked(|s| s.scenario().controller.kind), ControllerKind::ReplicaSet);
    assert_eq!(m.text(r#"label[for="desired"]"#), "Replicas");
    assert!(m.all("button").iter().any(|b| text(b) == "Delete a pod"));
    // Only the controls that act on this controller: a ReplicaSet's pods always have generated names.
    let labels = || m.all("label").iter().map(|l| text(l).trim().to_string()).collect::<Vec<_>>();
    for gone in ["GenerateName", "Double enqueue", "Delete surplus", "ownerReferences"] {
        assert!(!labels().iter().any(|l| l == gone), "{gone} does nothing to a ReplicaSet: {:?}", labels());
    }
    assert!(labels().iter().any(|l| l == "Expectations"));
    // The pruner: its first LIST is the figure's other half; expectations and faults do nothing to it.
    select.set_value("empty-cache");
    fire(select.unchecked_ref(), "change");
    tick().await;
    assert_eq!(m.text(r#"label[for="first-list"]"#), "First LIST");
    assert_eq!(m.one("input#first-list").unchecked_into::<HtmlInputElement>().value(), "10000");
    assert_eq!(m.text(r#"output[for="first-list"]"#), "10.0 s");
    for gone in ["Expectations", "Double enqueue", "GenerateName"] {
        assert!(!labels().iter().any(|l| l == gone), "{gone} does nothing to the pruner: {:?}", labels());
    }
    assert!(!m.all("button").iter().any(|b| text(b) == "Drop next watch event"));
    set_input(&m.one("input#first-list"), "2000", "change");
    tick().await;
    assert_eq!(ui.session.with_untracked(|s| s.world().cluster.initial_list_ms), 2000);
    assert_eq!(ui.session.with_untracked(|s| s.position()), 0, "a start-time setting recomputes the run from frame 0");
    m.finish().await;
}

#[wasm_bindgen_test]
async fn wait_for_cache_sync_rebuilds_the_run_from_frame_0() {
    let q = "s=empty-cache&frame=20";
    let m = mount_panel(q, || view! { <Controls /> <StorePanel side=Side::Cluster /> }).await;
    let ui = m.ui();
    let l = m.all("label").into_iter().find(|l| text(l).trim() == "Wait for cache sync").unwrap();
    let input: HtmlInputElement = one(&l, "input").unchecked_into();
    assert!(!input.checked());
    click(input.unchecked_ref());
    tick().await;
    assert!(input.checked());
    assert_eq!(ui.session.with_untracked(|s| s.position()), 0);
    ui.seek(100_000);
    tick().await;
    let s = reference("s=empty-cache&controller.wait_for_cache_sync=true&frame=100000");
    assert_rows_drawn(&m, "Cluster", &s, false);
    assert_eq!(m.all(r#"li[data-kind="ConfigMap"]"#).len(), 50, "all fifty seeds remain");
    m.finish().await;
}

// ---------------------------------------------------------------- Transport

#[wasm_bindgen_test]
async fn transport_steps_back_and_forth_and_scrubs() {
    let q = "s=over-create";
    let m = mount_panel(q, || view! { <Transport /> }).await;
    let ui = m.ui();
    let button = |name: &str| -> Element {
        m.all("button")
            .into_iter()
            .find(|b| attr(b, "aria-label").unwrap_or_else(|| text(b)) == name)
            .unwrap_or_else(|| panic!("a button named {name:?}"))
    };
    let frame = || m.text(".frame");
    let clock = |n: usize| {
        let s = reference(&format!("{q}&frame={n}"));
        format!("t = {:.3} s", s.world().now_ms() as f64 / 1000.0)
    };
    assert_eq!(frame(), "Frame 0");
    assert_eq!(text(&button("Play")), "Play");
    for _ in 0..3 {
        click(&button("Step forward"));
    }
    tick().await;
    assert_eq!(frame(), "Frame 3");
    assert_eq!(m.text(".time"), clock(3));
    click(&button("Step back"));
    tick().await;
    assert_eq!(frame(), "Frame 2");
    assert_eq!(m.text(".time"), clock(2));

    let mut r = reference(&format!("{q}&frame=2"));
    assert!(r.step_to_next_reconcile());
    click(&button("Step to next reconcile"));
    tick().await;
    assert_eq!(frame(), format!("Frame {}", r.position()));

    // The explorer computes the run ahead so the scrubber covers it all.
    let end = reference("s=over-create&frame=100000").position();
    ui.look_ahead();
    sleep(100).await;
    let scrub = m.one(r#"input[aria-label="Timeline scrubber"]"#);
    assert_eq!(attr(&scrub, "max"), Some(end.to_string()), "the scrubber spans the whole run");
    set_input(&scrub, "30", "input");
    tick().await;
    assert_eq!(frame(), "Frame 30");
    assert_eq!(attr(&scrub, "aria-valuetext").unwrap(), format!("frame 30 of {}", ui.known.get_untracked()));

    click(&button("Reset"));
    tick().await;
    assert_eq!(frame(), "Frame 0");

    // The end of the run is marked.
    ui.seek(end);
    tick().await;
    assert_eq!(frame(), format!("Frame {end}"));
    assert_eq!(m.text(".end"), "End of run");

    // Speed: a logarithmic slider from ×0.1 to ×1000, ×1 in the middle third.
    let speed: HtmlInputElement = m.one("input#speed").unchecked_into();
    assert_eq!(m.text(r#"label[for="speed"]"#), "Speed");
    let (min, max): (f64, f64) = (speed.min().parse().unwrap(), speed.max().parse().unwrap());
    for (at, label) in [(max, "×1000"), (min, "×0.1"), (min + (max - min) / 4.0, "×1")] {
        set_input(speed.unchecked_ref(), &at.to_string(), "input");
        tick().await;
        assert_eq!(m.text(r#"output[for="speed"]"#), label, "the slider at {at} of {min}..{max}");
        assert_eq!(attr(speed.unchecked_ref(), "aria-valuetext").as_deref(), Some(label));
    }
    m.finish().await;
}

// ---------------------------------------------------------------- the whole page

#[wasm_bindgen_test]
async fn explorer_opens_the_urls_frame_with_every_region_and_answers_keys() {
    let st = state("s=over-create&frame=40");
    let m = mount_bare(move || view! { <Stage state=st /> }).await;
    for region in [
        "Controls",
        "Cluster",
        "Watch",
        "Cache",
        "Expectations",
        "Workqueue",
        "Reconcile",
        "Observations",
        "Caption",
        "Transport",
        "Invariants",
        "Timeline",
    ] {
        assert_eq!(m.all(&format!(r#"section[aria-label="{region}"]"#)).len(), 1, "one region named {region}");
    }
    assert_eq!(m.text(".frame"), "Frame 40");
    let s = reference("s=over-create&frame=40");
    assert_eq!(m.text("p.caption"), pv::session_caption(&s));
    assert_eq!(m.text(r#"[aria-live="polite"]"#), pv::session_caption(&s), "the live region narrates the caption");

    press("ArrowRight", false);
    tick().await;
    assert_eq!(m.text(".frame"), "Frame 41");
    press("ArrowLeft", false);
    press("ArrowLeft", false);
    tick().await;
    assert_eq!(m.text(".frame"), "Frame 39");
    let mut r = reference("s=over-create&frame=39");
    r.step_to_next_reconcile();
    press("ArrowRight", true);
    tick().await;
    assert_eq!(m.text(".frame"), format!("Frame {}", r.position()));
    press("r", false);
    tick().await;
    assert_eq!(m.text(".frame"), "Frame 0");

    assert!(m.all(r#"[role="dialog"]"#).is_empty());
    press("?", false);
    tick().await;
    let dialog = m.one(r#"[role="dialog"]"#);
    assert!(text(&dialog).contains("Step forward"));
    press("Escape", false);
    tick().await;
    assert!(m.all(r#"[role="dialog"]"#).is_empty(), "Escape closes the help");

    press(" ", false);
    tick().await;
    assert_eq!(text(&m.one("button.play")), "Pause", "Space plays");
    press(" ", false);
    tick().await;
    assert_eq!(text(&m.one("button.play")), "Play", "Space pauses");
    m.finish().await;
}

/// Mount [`App`] with `query` in the address bar, then put the address back.
async fn app_at(query: &str) -> Mounted {
    let window = web_sys::window().unwrap();
    let history = window.history().unwrap();
    let was = window.location().href().unwrap();
    let path = window.location().pathname().unwrap();
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{query}"))).unwrap();
    let m = mount_bare(App).await;
    tick().await;
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&was)).unwrap();
    m
}

#[wasm_bindgen_test]
async fn a_bad_url_shows_a_banner_naming_the_parameter_and_opens_the_rest() {
    for (query, names, frame) in [
        ("?s=nope&frame=3", vec!["URL parameter s", "\"nope\""], 3),
        ("?s=empty-cache&cluster.watch_lag_ms=abc&frame=5", vec!["cluster.watch_lag_ms", "abc"], 5),
        ("?frame=ten", vec!["URL parameter frame", "\"ten\""], 0),
        ("?s=read-your-write&frame=99999", vec!["URL parameter frame", "99999", "past the end"], usize::MAX),
        ("?s=over-create&panels=cluster,nope&colour=red", vec!["URL parameter panels", "nope", "URL parameter colour", "red"], 0),
    ] {
        let m = app_at(query).await;
        let alerts = m.all(r#"[role="alert"]"#);
        assert_eq!(alerts.len(), 1, "{query}: one banner");
        let said = text(&alerts[0]);
        for n in &names {
            assert!(said.contains(n), "{query}: {n:?} in {said:?}");
        }
        let url::Parsed { state, problems, .. } = url::parse_query_lenient(query, DEFAULT);
        for p in &problems {
            assert!(said.contains(&p.to_string()), "{query}: the banner says {said:?}, the parser {p}");
        }
        // The rest of the page is there, at the frame the valid parameters ask for.
        assert_eq!(m.all(r#"section[aria-label="Cluster"]"#).len(), 1, "{query}: the explorer is drawn");
        let mut s = Session::with_edits(state.scenario, &state.edits);
        s.seek(frame);
        assert_eq!(m.text(".frame"), format!("Frame {}", s.position()), "{query}");
        // Dismissed, it goes.
        click(&m.one(r#"[role="alert"] button"#));
        tick().await;
        assert!(m.all(r#"[role="alert"]"#).is_empty(), "{query}: dismissed");
        m.finish().await;
    }
}

#[wasm_bindgen_test]
async fn a_good_url_opens_the_explorer_at_its_frame() {
    let m = app_at("?s=replicaset-pressure&frame=25").await;
    assert!(m.all(r#"[role="alert"]:not(:empty)"#).is_empty(), "no error");
    assert_eq!(m.text(".frame"), "Frame 25");
    assert_eq!(m.one("select#scenario-select").unchecked_into::<HtmlSelectElement>().value(), "replicaset-pressure");
    m.finish().await;
}

#[wasm_bindgen_test]
async fn cluster_and_cache_draw_only_the_rows_in_view_of_hundreds() {
    // A hundred replicas: past the lists' draw-everything limit. Each list,
    // made 300 px tall with the page's row height (main.css is not loaded here), draws the rows in view and a few more, each the view's
    // row at its place, and pads for the rest; scrolled to the end, it draws
    // the last row, and the other list scrolls with it.
    let q0 = "s=replicaset-pressure&actions.0.apply.replicas=100";
    let n = first_frame_where(q0, |s| pv::object_rows(s.world()).len() > 80);
    let q = format!("{q0}&frame={n}");
    let style = document().create_element("style").unwrap();
    style.set_text_content(Some(
        ".grid .row { display: flex; box-sizing: border-box; height: var(--row-h); margin-bottom: var(--row-gap) }",
    ));
    document().head().unwrap().append_child(&style).unwrap();
    let m = mount_panel(&q, || view! { <div class="grid"><StorePanel side=Side::Cluster /> <StorePanel side=Side::Cache /></div> }).await;
    let s = reference(&q);
    let rows = pv::object_rows(s.world());
    let pitch = 1.75 * 16.0 + 2.0;
    let list = |panel: &str| m.one(&format!(r#"section[aria-label="{panel}"] ul.rows"#));
    let drawn = |panel: &str| {
        let items = m.all(&format!(r#"section[aria-label="{panel}"] ul.rows > li:not(.spacer):not([hidden])"#));
        let at: Vec<usize> = items.iter().map(|li| attr(li, "aria-posinset").unwrap().parse().unwrap()).collect();
        (items, at)
    };
    let check = |panel: &str, cache_side: bool, items: &[Element], at: &[usize]| {
        assert!(!items.is_empty() && items.len() <= 30, "{panel}: {} rows drawn of {}", items.len(), rows.len());
        assert!(at.windows(2).all(|w| w[1] == w[0] + 1), "{panel}: consecutive rows {at:?}");
        let spacers = m.all(&format!(r#"section[aria-label="{panel}"] ul.rows > li.spacer"#));
        assert_eq!(spacers.len(), 2, "{panel}: a spacer above the rows drawn, one below");
        assert!(spacers.iter().all(|sp| attr(sp, "aria-hidden").as_deref() == Some("true")), "{panel}: spacers are not read out");
        let tall = |sp: &Element| {
            sp.unchecked_ref::<HtmlElement>().style().get_property_value("height").unwrap().trim_end_matches("px").parse::<f64>().unwrap()
        };
        let stands_for = (tall(&spacers[0]) + tall(&spacers[1])) / pitch + items.len() as f64;
        assert!((stands_for - rows.len() as f64).abs() < 0.01, "{panel}: the spacers stand for the rows not drawn ({stands_for})");
        assert!((tall(&spacers[0]) / pitch - (at[0] - 1) as f64).abs() < 0.01, "{panel}: the first drawn row sits at its place");
        let ul = list(panel);
        assert!(ul.scroll_height() > ul.client_height() * 2, "{panel}: the list scrolls as if every row were there");
        for (li, &i) in items.iter().zip(at) {
            let r = &rows[i - 1];
            assert_eq!(attr(li, "aria-setsize").as_deref(), Some(rows.len().to_string().as_str()), "{panel}: row {i} says how many");
            let present = if cache_side { r.cache_rv.is_some() } else { r.cluster_rv.is_some() };
            assert_eq!(has_class(li, "slot"), !present, "{panel}: row {i}, {}, a slot where this side lacks it", r.id());
            if present {
                assert_eq!(attr(li, "title").as_deref(), Some(r.id().as_str()), "{panel}: row {i} is the view's row {i}");
                assert_eq!(text(&one(li, ".name")), r.name);
            }
        }
    };
    for panel in ["Cluster", "Cache"] {
        let style = list(panel).unchecked_into::<HtmlElement>().style();
        style.set_property("height", "300px").unwrap();
        style.set_property("overflow-y", "auto").unwrap();
        style.set_property("box-sizing", "border-box").unwrap();
    }
    // The frame acts on a row: each list is scrolled to show it, and draws it.
    let touched = cachescope::view::snapshot::snapshot(&s).rows.iter().position(|r| r.touched);
    for (panel, cache_side) in [("Cluster", false), ("Cache", true)] {
        fire(&list(panel), "scroll");
        sleep(40).await;
        let (items, at) = drawn(panel);
        check(panel, cache_side, &items, &at);
        if let Some(i) = touched {
            let li = items.iter().zip(&at).find(|(_, &p)| p == i + 1).map(|(li, _)| li);
            assert!(li.is_some_and(|li| has_class(li, "touched")), "{panel}: the lit row {} is drawn, lit", i + 1);
        }
    }
    // To the top.
    for (panel, cache_side) in [("Cluster", false), ("Cache", true)] {
        list(panel).set_scroll_top(0);
        fire(&list(panel), "scroll");
        sleep(40).await;
        let (items, at) = drawn(panel);
        assert_eq!(at[0], 1, "{panel}: from the top");
        check(panel, cache_side, &items, &at);
        let held =
            |kind| rows.iter().filter(|r| r.kind == kind && if cache_side { r.cache_rv.is_some() } else { r.cluster_rv.is_some() }).count();
        let said = cachescope::view::panels::holds_words(
            &cachescope::sim::object::Kind::ALL.into_iter().map(|k| (k, held(k))).filter(|(_, n)| *n > 0).collect::<Vec<_>>(),
        );
        let header = m.text(&format!(r#"section[aria-label="{panel}"] .counts"#)).replace('\u{a0}', " ");
        assert!(header.starts_with(&said) && said.contains(" pods"), "{panel}: the header counts them all, by kind: {header}");
    }
    // To the end: the Cluster list scrolled, the Cache list follows.
    let cluster = list("Cluster");
    cluster.set_scroll_top(1_000_000);
    fire(&cluster, "scroll");
    sleep(40).await;
    fire(&list("Cache"), "scroll");
    sleep(40).await;
    for (panel, cache_side) in [("Cluster", false), ("Cache", true)] {
        let (items, at) = drawn(panel);
        assert_eq!(at.last().copied(), Some(rows.len()), "{panel}: the last row is drawn at the end");
        assert!(at[0] > 1, "{panel}: the top rows are not");
        check(panel, cache_side, &items, &at);
    }
    assert_eq!(list("Cache").scroll_top(), cluster.scroll_top(), "the two lists scroll together");
    assert!(m.all("ul.chips").is_empty(), "one form of list at any size");
    m.finish().await;
    style.remove();
}

#[wasm_bindgen_test]
async fn the_embedded_explorer_shows_the_four_panels_caption_and_transport() {
    let st = state("s=over-create&frame=40&embed=1");
    let m = mount_bare(move || view! { <Stage state=st /> }).await;
    for region in ["Cluster", "Watch", "Cache", "Expectations", "Caption", "Transport"] {
        assert_eq!(m.all(&format!(r#"section[aria-label="{region}"]"#)).len(), 1, "{region} is embedded");
    }
    for region in ["Controls", "Workqueue", "Reconcile", "Observations", "Invariants", "Timeline"] {
        assert!(m.all(&format!(r#"section[aria-label="{region}"]"#)).is_empty(), "{region} is left out of the embed");
    }
    assert_eq!(m.text(".frame"), "Frame 40");
    m.finish().await;
}

#[wasm_bindgen_test]
async fn panels_and_controls_choose_what_an_embed_shows() {
    let q = "s=replicaset-pressure&frame=20&embed=1&panels=expectations,cluster&controls=none";
    let st = state(q);
    let m = mount_bare(move || view! { <Stage state=st /> }).await;
    for region in ["Cluster", "Expectations", "Caption"] {
        assert_eq!(m.all(&format!(r#"section[aria-label="{region}"]"#)).len(), 1, "{region} is shown");
    }
    for region in ["Watch", "Cache", "Controls", "Transport", "Workqueue", "Timeline"] {
        assert!(m.all(&format!(r#"section[aria-label="{region}"]"#)).is_empty(), "{region} is left out");
    }
    // In the page's order, whatever the URL's.
    let names: Vec<String> = m.all("section.panel").iter().filter_map(|e| attr(e, "aria-label")).collect();
    assert_eq!(names, ["Cluster", "Expectations"]);
    // The way out: the same moment in the full page, without the embed's options.
    let full = attr(&m.one("a.full-view"), "href").unwrap();
    assert_eq!(full, "?s=replicaset-pressure&frame=20");
    m.finish().await;

    let st = state("s=over-create&frame=4&controls=transport");
    let m = mount_bare(move || view! { <Stage state=st /> }).await;
    assert!(m.all(r#"section[aria-label="Controls"]"#).is_empty(), "controls=transport: no settings");
    assert_eq!(m.all(r#"section[aria-label="Transport"]"#).len(), 1);
    assert_eq!(m.all(r#"section[aria-label="Timeline"]"#).len(), 1, "not an embed: every panel");
    assert!(m.all("a.full-view").is_empty(), "already the full view");
    m.finish().await;
}

#[wasm_bindgen_test]
async fn several_changes_at_one_frame_all_reach_the_url() {
    // A learner at frame 0 chooses GenerateName, then sets the lag: the URL
    // must carry both, or a reload (or a shared link) shows another run.
    let m = mount_panel("s=over-create", || view! { <ScenarioPicker /> <Controls /> }).await;
    let ui = m.ui();
    let generate = m.all("label").into_iter().find(|l| text(l).trim() == "GenerateName").unwrap();
    click(&one(&generate, "input"));
    tick().await;
    set_input(&m.one("input#lag"), "3000", "change");
    tick().await;
    let query = ui.query();
    let replayed = reference(&query);
    assert_eq!(replayed.world().controller.naming, Naming::Generate, "{query}");
    assert_eq!(replayed.world().cluster.watch_lag_ms, 3000, "{query}");
    m.finish().await;
}

#[wasm_bindgen_test]
async fn about_this_run_shows_the_trace_hash_the_runner_computes() {
    let q = "s=over-create&controller.naming=generate&seed=5";
    let st = state(q);
    let expected = cachescope::report::Report::run(&st.scenario).trace_hash;
    let m = mount_bare(move || view! { <Stage state=st /> }).await;
    // The look-ahead computes the run in slices; the hash appears once it has ended.
    let mut hash = None;
    for _ in 0..100 {
        if let Some(h) = m.root.query_selector("code.trace-hash").unwrap() {
            hash = Some(text(&h));
            break;
        }
        sleep(20).await;
    }
    assert_eq!(hash.as_deref(), Some(expected.as_str()), "the page's trace_hash");
    let about = m.text(".about-run");
    assert!(about.contains("cachescope run over-create --set controller.naming=generate --set seed=5"), "{about}");
    m.finish().await;
}

/// Post `data` to the page as a host page would (a `message` event on the window).
fn host_message(data: &str) {
    let init = web_sys::MessageEventInit::new();
    init.set_data(&js_sys::JSON::parse(data).unwrap());
    init.set_origin("https://course.example");
    let ev = web_sys::MessageEvent::new_with_event_init_dict("message", &init).unwrap();
    web_sys::window().unwrap().dispatch_event(&ev).unwrap();
}

#[wasm_bindgen_test]
async fn host_messages_drive_the_explorer_and_bad_ones_are_named() {
    let st = state("s=replicaset-pressure");
    let m = mount_bare(move || view! { <Stage state=st /> }).await;
    host_message(r#"{"cachescope":"seek","frame":12}"#);
    tick().await;
    assert_eq!(m.text(".frame"), "Frame 12");
    host_message(r#"{"cachescope":"step"}"#);
    host_message(r#"{"cachescope":"step"}"#);
    host_message(r#"{"cachescope":"back"}"#);
    tick().await;
    assert_eq!(m.text(".frame"), "Frame 13");
    host_message(r#"{"cachescope":"seek","frame":"ten"}"#);
    tick().await;
    let notice = m.text(r#".notice-line[role="status"] p.notice"#);
    assert!(notice.contains("Ignored a message from https://course.example") && notice.contains("\"ten\""), "{notice}");
    assert_eq!(m.text(".frame"), "Frame 13", "a bad message moves nothing");
    host_message(r#"{"type":"not for us"}"#);
    host_message(r#"{"cachescope":"reset"}"#);
    tick().await;
    assert_eq!(m.text(".frame"), "Frame 0");
    m.finish().await;
}

#[wasm_bindgen_test]
async fn the_share_bar_names_every_action() {
    let m = mount_panel("s=over-create", || view! { <ShareBar /> }).await;
    // Accessible names: the visible label, or the aria-label that contains it.
    let names: Vec<String> = m.all("section.share button").iter().map(|b| attr(b, "aria-label").unwrap_or_else(|| text(b))).collect();
    assert_eq!(names, ["Share", "Embed", "Import scenario", "Export scenario", "Export trace", "Export SVG", "Export Go test"]);
    assert_eq!(m.text("section.share details.menu > summary"), "Export");
    // The file input the Import button opens is hidden from everyone: no phantom control.
    let picker = m.one(r#"input[type="file"]"#);
    assert!(picker.has_attribute("hidden"));
    assert_eq!(attr(&picker, "aria-label"), None);
    assert_eq!(attr(&picker, "accept").as_deref(), Some(".json,application/json"));
    m.finish().await;
}

/// Each panel says, in one line, how the simulation simplifies what it
/// shows: the notes the help lists in full, each on the panel it affects.
#[wasm_bindgen_test]
async fn each_panel_notes_its_simplifications_in_one_line() {
    use cachescope::narrate::simplifications::{panel_note, Panel};
    let m = mount_panel("s=over-create", || {
        view! { <StorePanel side=Side::Cluster /> <StorePanel side=Side::Cache /> <WatchPanel /> <WorkqueuePanel /> <ExpectationsPanel /> <ReconcilePanel /> }
    })
    .await;
    // over-create: an Ensemble of ConfigMaps, --double-enqueue, no surplus deletes, no consistency store.
    let traits = cachescope::view::snapshot::snapshot(&reference("s=over-create")).controls.traits();
    for (class, panel, applies) in [
        ("cluster", Panel::Cluster, false),
        ("cache", Panel::Cache, true),
        ("watch", Panel::Watch, true),
        ("workqueue", Panel::Workqueue, true),
        ("expectations", Panel::Expectations, false),
        ("reconcile", Panel::Reconcile, false),
    ] {
        let note = panel_note(panel, &traits);
        assert_eq!(note.is_some(), applies, "{class}: {note:?}");
        let drawn: Vec<String> = m.all(&format!(".panel.{class} .simplified")).iter().map(text).collect();
        assert_eq!(drawn, note.into_iter().collect::<Vec<_>>(), "{class}");
    }
    assert!(panel_note(Panel::Watch, &traits).unwrap().contains("a lag change moves events already on the wire"));
    assert!(panel_note(Panel::Workqueue, &traits).unwrap().contains("--double-enqueue re-adds once per chain"));
    // The notes that speak of what this run lacks say nothing here: pods, a
    // surplus delete's lister order, the consistency store; the pruner has no --double-enqueue.
    let pruner = cachescope::view::snapshot::snapshot(&reference("s=empty-cache")).controls.traits();
    assert_eq!(panel_note(Panel::Workqueue, &pruner), None);
    let rs = cachescope::view::snapshot::snapshot(&reference("s=replicaset-pressure")).controls.traits();
    assert!(panel_note(Panel::Cluster, &rs).unwrap().contains("pods are always Running and ready"));
    assert!(panel_note(Panel::Reconcile, &rs).unwrap().contains("surplus delete"));
}
