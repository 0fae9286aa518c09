//! The Watch panel: the events in flight along one lane, and the learner's
//! hands on each (deliver now, hold or release, drop).

use super::layout::{kind_abbr, percent, simplified};
use crate::narrate::simplifications::Panel;
use crate::narrate::units::secs;
use crate::ui::state::use_ui;
use crate::view::hands::WireChoice;
use crate::view::panels as pv;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[component]
pub fn WatchPanel() -> impl IntoView {
    let ui = use_ui();
    let wires = ui.wires;
    let snap = ui.snap;
    let more = move || wires.with(|(head, all)| all - head.len());
    let pool = Memo::new(move |was: Option<&usize>| wires.with(|(w, _)| w.len()).max(was.copied().unwrap_or(0)));
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
            <ul class="wires" role="list" tabindex="0" aria-label="Events in flight" on:click=move |e: leptos::ev::MouseEvent| press_hand(&e, wires, ui)>
                // A pool of wire elements by place in the lane, not by
                // event: as events arrive and leave, a place shows another,
                // and its element is rewritten, not rebuilt. It holds as many
                // places as the lane has shown at once (at most
                // pv::LANE_WIRES); those past the events now in flight are hidden.
                <For each=move || 0..pool.get() key=|i| *i children=move |i| wire_slot(i, wires, ui) />
            </ul>
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

/// What one wire shows, but for where its event is on the track: everything
/// its element is set from. A place of the lane's pool whose event, or what
/// its event shows, changes is rewritten from this.
#[derive(Debug, Clone, PartialEq)]
struct WireLook {
    id: String,
    class: String,
    label: String,
    abbr: &'static str,
    name: String,
    /// `ADDED ConfigMap beta-voice-0`: what the hands' names say they act on.
    what: String,
    dropped: bool,
    held_ms: u64,
    /// The learner's hands are on it: an event of a kind's count, not dropped.
    hands: bool,
    on_hold: bool,
    deliver_at_ms: u64,
}

impl WireLook {
    fn of(w: &pv::Wire) -> WireLook {
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
            abbr: kind_abbr(w.kind),
            name: w.name.clone(),
            what: format!("{} {} {}", w.label, w.kind, w.name),
            dropped: w.dropped,
            held_ms: w.held_ms,
            hands: w.nth > 0 && !w.dropped,
            on_hold: w.on_hold,
            deliver_at_ms: w.deliver_at_ms,
        }
    }
}

/// The wire element at place `i` of the lane: the event there, its dot
/// where it is on the track, and the learner's hands on it (Deliver now,
/// Hold or Release, Drop: each names the event, and joins the run's schedule
/// when pressed, `press_hand`). Every wire has the same children: a held
/// tag with nothing to say is empty (style/main.css hides it), and hands an
/// event does not take are hidden.
fn wire_slot(i: usize, wires: Memo<(Vec<pv::Wire>, usize)>, ui: crate::ui::state::Ui) -> impl IntoView {
    let look = Memo::new(move |_| wires.with(|(ws, _)| ws.get(i).map(WireLook::of)));
    let text = move |f: fn(&WireLook) -> String| move || look.with(|l| l.as_ref().map(f).unwrap_or_default());
    let progress = move || wires.with(|(ws, _)| ws.get(i).map_or(1.0, |w| w.progress));
    let eta = move || {
        let at = ui.display_ms.get();
        look.with(|l| match l {
            Some(l) if l.dropped => "dropped".to_string(),
            Some(l) => pv::arrival_words(l.deliver_at_ms.saturating_sub(at)),
            None => String::new(),
        })
    };
    let button = move |choice: Signal<usize>, glyph: Signal<&'static str>| {
        let name = move || look.with(|l| format!("{}: {}", CHOICES[choice.get()].label(), l.as_ref().map_or("", |l| l.what.as_str())));
        view! {
            <button class="hand" aria-label=name title=name data-choice=move || choice.get()>
                {move || glyph.get()}
            </button>
        }
    };
    let on_hold = Memo::new(move |_| look.with(|l| l.as_ref().is_some_and(|l| l.on_hold)));
    view! {
        <li
            class=move || look.with(|l| l.as_ref().map_or_else(|| "wire".to_string(), |l| l.class.clone()))
            hidden=move || look.with(Option::is_none)
            data-wire=move || look.with(|l| l.as_ref().map(|l| l.id.clone()))
        >
            <span class="event">{text(|l| l.label.clone())}</span>
            " "
            <span class="obj mono">
                <span class="k">{text(|l| format!("{} ", l.abbr))}</span>
                {text(|l| l.name.clone())}
            </span>
            <span class="held-tag">{text(|l| if l.held_ms > 0 { format!(" held back {}", secs(l.held_ms)) } else { String::new() })}</span>
            <span class="eta mono">{eta}</span>
            <span class="track" aria-hidden="true">
                <span class="dot" style:left=move || percent(progress())></span>
            </span>
            <span class="hands" hidden=move || !look.with(|l| l.as_ref().is_some_and(|l| l.hands))>
                {button(Signal::stored(0), Signal::stored("⇥"))}
                {button(Signal::derive(move || if on_hold.get() { 2 } else { 1 }), Signal::derive(move || if on_hold.get() { "▶" } else { "‖" }))}
                {button(Signal::stored(3), Signal::stored("✕"))}
            </span>
        </li>
    }
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
    let items = list.children();
    (0..items.length()).find(|i| items.item(*i).is_some_and(|x| x == li)).map(|i| i as usize)
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
    // The pool's hidden places, past the events in flight, are not wires.
    let Ok(items) = list.query_selector_all(":scope > li:not([hidden])") else { return };
    let wire = items.item((at as u32).min(items.length().saturating_sub(1))).and_then(|n| n.dyn_into::<web_sys::Element>().ok());
    let target = wire.and_then(|w| w.query_selector(".hands:not([hidden]) .hand").ok().flatten()).unwrap_or(list);
    if let Ok(el) = target.dyn_into::<web_sys::HtmlElement>() {
        let _ = el.focus();
    }
}
