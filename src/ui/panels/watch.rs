//! The Watch panel: the events in flight along one lane, and the learner's
//! hands on each (deliver now, hold or release, drop).

use super::layout::{kind_abbr, percent, simplified};
use crate::narrate::simplifications::Panel;
use crate::narrate::units::secs;
use crate::ui::recycle::{set_attr, set_text, text_part, Attr, Look, Recycler};
use crate::ui::state::use_ui;
use crate::view::hands::WireChoice;
use crate::view::panels as pv;
use leptos::prelude::*;
use wasm_bindgen::{closure::Closure, JsCast};

#[component]
pub fn WatchPanel() -> impl IntoView {
    let ui = use_ui();
    let wires = ui.wires;
    let snap = ui.snap;
    let more = move || wires.with(|(head, all)| all - head.len());
    // The wires, recycled (crate::ui::recycle): an event keeps its element
    // while it is on the lane, and one that arrives takes the element of one
    // that left. Written at each animation frame: where each dot is, and when it arrives.
    let list = NodeRef::<leptos::html::Ul>::new();
    // The lane draws the wires it has room for (pv::lane_room), from its
    // head: measured when its box changes (a ResizeObserver, which reports
    // the first box too, after layout, so reading it there lays nothing out),
    // when it scrolls, and at the next frame's start after the number of
    // wires drawn changed (the lane fills the panel's room whatever it holds,
    // so its box does not change when it begins to clip). A lane with no
    // wire keeps the room it had.
    let measure = move || {
        let Some(ul) = list.get_untracked() else { return };
        let el: &web_sys::Element = &ul;
        let Some(first) = el.query_selector(":scope > li.wire").ok().flatten() else { return };
        let (height, clipped) = (el.client_height(), el.scroll_height() > el.client_height());
        let room = pv::lane_room(clipped, f64::from(el.scroll_top()), f64::from(height), first.get_bounding_client_rect().height());
        ui.lane_room.maybe_update(|r| std::mem::replace(r, room) != room);
    };
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, Closure<dyn FnMut(js_sys::Array)>)>);
    list.on_load(move |ul| {
        let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |_: js_sys::Array| measure());
        if let Ok(o) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
            o.observe(&ul);
            observer.set_value(Some((o, on_resize)));
        }
    });
    on_cleanup(move || {
        if let Some((o, _)) = observer.try_update_value(Option::take).flatten() {
            o.disconnect();
        }
    });
    let pool = StoredValue::new_local(None::<Recycler<WireLook>>);
    let drawn_count = StoredValue::new(0);
    // A render effect, as tachys draws its own views: run as the frame's render runs.
    let drawn = RenderEffect::new(move |_| {
        let Some(ul) = list.get() else { return };
        let at = ui.display_ms.get();
        let wanted: Vec<(String, WireLook, usize)> =
            wires.with(|(ws, _)| ws.iter().zip(1..).map(|(w, i)| (w.id.clone(), WireLook::of(w, at), i)).collect());
        pool.update_value(|pool| pool.get_or_insert_with(|| Recycler::new(ul.into())).show(&wanted, None, None));
        if drawn_count.get_value() != wanted.len() {
            drawn_count.set_value(wanted.len());
            ui.at_next_frame(measure);
        }
    });
    StoredValue::new_local(drawn);
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
            // The hands' presses, for every wire at once: a listener a button
            // would be three closures for each place of the pool.
            <ul
                class="wires"
                role="list"
                tabindex="0"
                aria-label="Events in flight"
                node_ref=list
                on:click=move |e: leptos::ev::MouseEvent| press_hand(&e, wires, ui)
                on:scroll=move |_| measure()
            ></ul>
            {move || wires.with(|(w, _)| w.is_empty()).then(|| view! { <p class="empty">{move || snap.with(|s| crate::narrate::panels::empty_wire_note(s.stalled, s.restart_at, s.synced))}</p> })}
            {move || (more() > 0).then(|| view! { <p class="more-wires">{format!("+{} more in flight", more())}</p> })}
            {move || wires.with(|(w, _)| w.iter().any(|w| w.nth > 0 && !w.dropped)).then(|| view! {
                <p class="hands-legend">"Your hands on each event: "<b>"⇥"</b>" deliver now · "<b>"‖"</b>" hold · "<b>"✕"</b>" drop"</p>
            })}
            {simplified(Panel::Watch)}
        </section>
    }
}

/// The hands' choices, in the order `data-choice` numbers them.
const CHOICES: [WireChoice; 4] = [WireChoice::DeliverNow, WireChoice::Hold, WireChoice::Release, WireChoice::Drop];

/// What one wire shows: everything its element is written from, where its
/// dot is and when it arrives among it (the animation clock moves those at
/// each frame; the rest changes when the event's state does).
#[derive(Debug, Clone, PartialEq)]
struct WireLook {
    id: String,
    class: String,
    label: String,
    /// `CM `: the kind, abbreviated, and a space before the name.
    kind: String,
    name: String,
    /// `ADDED ConfigMap beta-voice-0`: what the hands' names say they act on.
    what: String,
    held: String,
    eta: String,
    /// Where its dot is along the track: the style of the span it rides.
    left: String,
    /// The learner's hands are on it: an event of a kind's count, not dropped.
    hands: bool,
    on_hold: bool,
}

impl WireLook {
    fn of(w: &pv::Wire, at_ms: u64) -> WireLook {
        let mut class = format!("wire {}", w.label.to_lowercase());
        for (on, name) in [(w.dropped, " dropped"), (w.held_ms > 0, " held")] {
            if on {
                class.push_str(name);
            }
        }
        WireLook {
            id: w.id.clone(),
            class,
            label: w.label.clone(),
            kind: format!("{} ", kind_abbr(w.kind)),
            name: w.name.clone(),
            what: format!("{} {} {}", w.label, w.kind, w.name),
            held: if w.held_ms > 0 { format!(" held back {}", secs(w.held_ms)) } else { String::new() },
            eta: if w.dropped { "dropped".to_string() } else { pv::arrival_words(w.deliver_at_ms.saturating_sub(at_ms)) },
            left: format!("transform:translateX({})", percent(w.progress)),
            hands: w.nth > 0 && !w.dropped,
            on_hold: w.on_hold,
        }
    }

    /// The middle hand: Hold, or Release an event held.
    fn middle(&self) -> usize {
        if self.on_hold {
            2
        } else {
            1
        }
    }
}

const DATA_WIRE: Attr = Attr("data-wire");

/// The glyph of each choice, in `CHOICES`' order.
const GLYPHS: [&str; 4] = ["⇥", "‖", "▶", "✕"];

impl Look for WireLook {
    const MARKS: &'static [Attr] = &[Attr::CLASS, DATA_WIRE];

    /// `li.wire`: the event, the object, the held tag, the time to arrival,
    /// the track and its dot, and the learner's hands on it (Deliver now,
    /// Hold or Release, Drop: each names the event, and joins the run's
    /// schedule when pressed, `press_hand`). A held tag with nothing to say
    /// is empty (style/main.css hides it); hands an event does not take are hidden.
    ///
    /// A hand's name is its choice and the event ("Deliver now: ADDED
    /// ConfigMap beta-voice-0"): its own `aria-label`, the choice, followed
    /// (`aria-labelledby`) by a hidden part of its wire that says the event,
    /// so an element given to another event writes that one text, not two
    /// attributes on each of three hands. Its tooltip is the choice: the
    /// event is on the line beside it.
    fn build() -> (web_sys::Element, Vec<web_sys::Node>) {
        let doc = document();
        let id = WIRES_BUILT.with(|n| n.replace(n.get() + 1));
        let li = doc.create_element("li").expect("an element");
        let (event, event_text) = text_part("span", "event");
        let (obj, name_text) = text_part("span", "obj mono");
        let (k, k_text) = text_part("span", "k");
        let _ = obj.insert_before(&k, obj.first_child().as_ref());
        let (held, held_text) = text_part("span", "held-tag");
        let (eta, eta_text) = text_part("span", "eta mono");
        let (what, what_text) = text_part("span", "what");
        what.set_id(&format!("wire-{id}-what"));
        let _ = what.set_attribute("hidden", "");
        let track = doc.create_element("span").expect("an element");
        track.set_class_name("track");
        let _ = track.set_attribute("aria-hidden", "true");
        // The dot rides a span as wide as the track, moved along it by a
        // transform (a percentage of its own width, so of the track's): moving
        // it lays nothing out, where `left` laid its wire out at every frame.
        let run = doc.create_element("span").expect("an element");
        run.set_class_name("run");
        let dot = doc.create_element("span").expect("an element");
        dot.set_class_name("dot");
        let _ = run.append_child(&dot);
        let _ = track.append_child(&run);
        let hands = doc.create_element("span").expect("an element");
        hands.set_class_name("hands");
        let mut parts: Vec<web_sys::Node> =
            vec![event_text, k_text, name_text, held_text, eta_text, what_text, run.into(), hands.clone().into()];
        for (n, choice) in [0, 1, 3].into_iter().enumerate() {
            let (button, glyph) = text_part("button", "hand");
            button.set_id(&format!("wire-{id}-{n}"));
            let _ = button.set_attribute("aria-labelledby", &format!("wire-{id}-{n} wire-{id}-what"));
            name_hand(&button, &glyph, choice);
            let _ = hands.append_child(&button);
            parts.push(button.into());
            parts.push(glyph);
        }
        let _ = li.append_child(&event);
        let _ = li.append_child(&doc.create_text_node(" "));
        for part in [&obj, &held, &eta, &what, &track, &hands] {
            let _ = li.append_child(part);
        }
        (li, parts)
    }

    fn paint(&self, li: &web_sys::Element, parts: &[web_sys::Node], was: Option<&Self>) {
        set_attr(li, Attr::CLASS, Some(&self.class), was.map(|w| Some(w.class.as_str())));
        set_attr(li, DATA_WIRE, Some(&self.id), was.map(|w| Some(w.id.as_str())));
        fn texts(l: &WireLook) -> [&str; 6] {
            [&l.label, &l.kind, &l.name, &l.held, &l.eta, &l.what]
        }
        let had = was.map(texts);
        for (i, (text, part)) in texts(self).iter().zip(parts).enumerate() {
            set_text(part, text, had.map(|h| h[i]));
        }
        set_attr(parts[6].unchecked_ref(), Attr::STYLE, Some(&self.left), was.map(|w| Some(w.left.as_str())));
        set_attr(parts[7].unchecked_ref(), Attr::HIDDEN, (!self.hands).then_some(""), was.map(|w| (!w.hands).then_some("")));
        // The middle hand: Hold, or Release an event held (written whole when
        // `was` is unknown: the element may have held an event on hold).
        if was.is_none_or(|w| w.middle() != self.middle()) {
            name_hand(parts[10].unchecked_ref(), &parts[11], self.middle());
        }
    }
}

thread_local! {
    /// Wire elements built so far: each one's number makes its parts' ids.
    static WIRES_BUILT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A hand's choice: its name's first part (its wire's hidden `what` says the
/// rest), its tooltip, its `data-choice` and its glyph.
fn name_hand(button: &web_sys::Element, glyph: &web_sys::Node, choice: usize) {
    let label = CHOICES[choice].label();
    let _ = button.set_attribute("aria-label", &format!("{label}:"));
    let _ = button.set_attribute("title", label);
    let _ = button.set_attribute("data-choice", &choice.to_string());
    glyph.set_node_value(Some(GLYPHS[choice]));
}

/// A press on a hands-on button of the Watch list: its choice made on its
/// wire's event, and the focus kept in the list (the wire may go: Drop,
/// Deliver now), never given to the page.
fn press_hand(e: &leptos::ev::MouseEvent, wires: Memo<(Vec<pv::Wire>, usize)>, ui: crate::ui::state::Ui) {
    let Some(button) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).and_then(|t| t.closest("button.hand").ok().flatten())
    else {
        return;
    };
    let choice = button.get_attribute("data-choice").and_then(|c| c.parse::<usize>().ok()).and_then(|c| CHOICES.get(c).copied());
    let id = button.closest("li.wire").ok().flatten().and_then(|li| li.get_attribute("data-wire"));
    let (Some(choice), Some(id)) = (choice, id) else { return };
    let Some((kind, nth, what)) = wires
        .with_untracked(|(ws, _)| ws.iter().find(|w| w.id == id).map(|w| (w.kind, w.nth, format!("{} {} {}", w.label, w.kind, w.name))))
    else {
        return;
    };
    let at = wire_index(&button);
    ui.choose_wire(kind, nth, choice, &what);
    request_animation_frame(move || focus_wire_near(at));
}

/// Where the wire of a pressed hands-on button stands in the Watch list.
fn wire_index(button: &web_sys::Element) -> Option<usize> {
    let li = button.closest("li.wire").ok()??;
    let list = li.parent_element()?;
    // The wires shown: the list's recycled elements no event has are hidden, and have no class.
    let items = list.query_selector_all(":scope > li.wire").ok()?;
    (0..items.length()).find(|i| items.item(*i).is_some_and(|x| x == *li.as_ref())).map(|i| i as usize)
}

/// Focus the same button on the wire now at `at` (or the last one), else the list itself.
fn focus_wire_near(at: Option<usize>) {
    let Some(at) = at else { return };
    let Some(list) = document().query_selector(".watch .wires").ok().flatten() else { return };
    let active = document().active_element();
    // Still on a button shown: nothing to do. One the press hid (its wire
    // dropped, or gone and its place emptied) is about to lose the focus to the page.
    let shown = |a: &web_sys::Element| a.closest("[hidden]").ok().flatten().is_none();
    if active.as_ref().is_some_and(|a| list.contains(Some(a)) && shown(a)) {
        return;
    }
    // The pool's hidden elements, no event's now, are not wires (they have no class).
    let Ok(items) = list.query_selector_all(":scope > li.wire") else { return };
    let wire = items.item((at as u32).min(items.length().saturating_sub(1))).and_then(|n| n.dyn_into::<web_sys::Element>().ok());
    let target = wire.and_then(|w| w.query_selector(".hands:not([hidden]) .hand").ok().flatten()).unwrap_or(list);
    if let Ok(el) = target.dyn_into::<web_sys::HtmlElement>() {
        let _ = el.focus();
    }
}
