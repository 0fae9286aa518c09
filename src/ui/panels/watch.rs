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
            // was three closures made and dropped for each event that came and
            // went, at every frame played.
            <ul class="wires" role="list" tabindex="0" aria-label="Events in flight" on:click=move |e: leptos::ev::MouseEvent| press_hand(&e, wires, ui)>
                <For
                    each=move || wires.with(|(w, _)| w.iter().map(|w| (w.id.clone(), w.label.clone(), w.kind, w.name.clone(), w.dropped, w.held_ms, w.nth)).collect::<Vec<_>>())
                    key=|w| (w.0.clone(), w.4)
                    children=move |(id, label, kind, name, dropped, held_ms, nth)| {
                        let hold_id = id.clone();
                        let on_hold = Signal::derive(move || wires.with(|(ws, _)| ws.iter().any(|w| w.id == hold_id && w.on_hold)));
                        let what = format!("{label} {kind} {name}");
                        let pos_id = id.clone();
                        let progress = move || wires.with(|(ws, _)| ws.iter().find(|w| w.id == pos_id).map_or(1.0, |w| w.progress));
                        let eta_id = id.clone();
                        let eta = move || {
                            let at = ui.display_ms.get();
                            wires.with(|(ws, _)| ws.iter().find(|w| w.id == eta_id).map(|w| w.deliver_at_ms.saturating_sub(at)))
                        };
                        view! {
                            <li class=format!("wire {}", label.to_lowercase()) class:dropped=dropped class:held={held_ms > 0} data-wire=id.clone()>
                                <span class="event">{label.clone()}</span>
                                " "
                                <span class="obj mono"><span class="k">{format!("{} ", kind_abbr(kind))}</span>{name.clone()}</span>
                                {(held_ms > 0).then(|| view! { <span class="held-tag">{format!(" held back {}", secs(held_ms))}</span> })}
                                <span class="eta mono">
                                    {move || if dropped { "dropped".to_string() } else { eta().map(pv::arrival_words).unwrap_or_default() }}
                                </span>
                                <span class="track" aria-hidden="true">
                                    <span class="dot" style:left=move || percent(progress())></span>
                                </span>
                                {(nth > 0 && !dropped).then(|| view! { <WireHands what=what.clone() on_hold /> })}
                            </li>
                        }
                    }
                />
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

/// Deliver now, Hold (or Release) and Drop for one event in flight: each
/// names the event, and joins the run's schedule when pressed (`press_hand`).
#[component]
fn WireHands(what: String, on_hold: Signal<bool>) -> impl IntoView {
    let button = move |choice: usize, glyph: &'static str, what: String| {
        let name = format!("{}: {what}", CHOICES[choice].label());
        view! {
            <button class="hand" aria-label=name.clone() title=name data-choice=choice>
                {glyph}
            </button>
        }
    };
    let (w1, w2, w3, w4) = (what.clone(), what.clone(), what.clone(), what);
    view! {
        <span class="hands">
            {button(0, "⇥", w1)}
            {move || if on_hold.get() { button(2, "▶", w2.clone()) } else { button(1, "‖", w3.clone()) }}
            {button(3, "✕", w4)}
        </span>
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
