//! The keyboard: Space, ←/→, Shift+→, R, ? and Escape, page-wide.

use super::popover;
use super::state::Ui;
use leptos::ev;
use leptos::prelude::*;

/// Listen to the page's keys. A control the learner reached with Tab keeps
/// its own keys (arrows move a radio group or a slider, Space ticks a box);
/// one they clicked with the pointer does not: there Space, ← and → drive the
/// transport, so choosing "GenerateName" and pressing → steps the run instead
/// of switching back.
pub(super) fn listen(ui: Ui) {
    let pointer_down = StoredValue::new_local(None::<web_sys::Element>);
    let pointer_focus = StoredValue::new(false);
    let element = |t: Option<web_sys::EventTarget>| t.and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
    // A press on the control itself, or on its label.
    let pressed_on = |p: &web_sys::Element, control: &web_sys::Element| {
        p.contains(Some(control))
            || control.contains(Some(p))
            || p.closest("label")
                .ok()
                .flatten()
                .is_some_and(|l| l.contains(Some(control)) || l.get_attribute("for").is_some_and(|id| id == control.id()))
    };
    let down = window_event_listener(ev::pointerdown, move |e| {
        let pressed = element(e.target());
        // Pressing the control that already has the focus makes it a clicked one too.
        if let (Some(p), Some(active)) = (&pressed, document().active_element()) {
            if pressed_on(p, &active) {
                pointer_focus.set_value(true);
            }
        }
        pointer_down.set_value(pressed);
    });
    // Focus that follows a pointer press on the control, or on its label.
    let focus = window_event_listener(ev::focusin, move |e| {
        let pressed = pointer_down.get_value();
        pointer_down.set_value(None);
        let by_pointer = element(e.target()).is_some_and(|focused| pressed.is_some_and(|p| pressed_on(&p, &focused)));
        pointer_focus.set_value(by_pointer);
    });
    let keys = window_event_listener(ev::keydown, move |e| {
        let target = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        let tag = target.as_ref().map(|el| el.tag_name());
        let input_type = target.as_ref().and_then(|el| el.get_attribute("type")).unwrap_or_default();
        let key = e.key();
        if key == "Tab" {
            pointer_down.set_value(None);
            pointer_focus.set_value(false);
        }
        if e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        if key == "Escape" {
            ui.help_open.set(false);
            ui.gallery_open.set(false);
            ui.matrix_open.set(false);
            ui.editor_open.set(false);
            popover::close_all(true);
            return;
        }
        // In a field every key is the field's; on a button or a link, Space and
        // Enter are its own (they press it), the rest are the page's.
        let in_field = tag.as_deref().is_some_and(|t| matches!(t, "INPUT" | "SELECT" | "TEXTAREA"));
        // A sentence being written keeps every key, "?" too; an open dialog
        // keeps the page's keys from the run under it (the focus may be on
        // the page itself, after a press on the dialog's text), Help but for "?".
        let modal_open = document().query_selector("[aria-modal='true']").ok().flatten().is_some();
        if tag.as_deref() == Some("TEXTAREA") || modal_open && !(key == "?" && ui.help_open.get_untracked()) {
            return;
        }
        let on_control = tag.as_deref().is_some_and(|t| matches!(t, "BUTTON" | "A" | "SUMMARY"));
        let clicked_setting = pointer_focus.get_value()
            && (tag.as_deref() == Some("SELECT") || matches!(input_type.as_str(), "radio" | "checkbox" | "range"))
            && matches!(key.as_str(), " " | "ArrowLeft" | "ArrowRight");
        if in_field && !clicked_setting && key != "?" || on_control && matches!(key.as_str(), " " | "Enter") {
            return;
        }
        if ui.help_open.get_untracked() && key != "?" {
            return;
        }
        let handled = match key.as_str() {
            " " => {
                ui.toggle_play();
                true
            }
            "ArrowRight" if e.shift_key() => {
                ui.step_to_next_reconcile();
                true
            }
            "ArrowRight" => {
                ui.step_forward();
                true
            }
            "ArrowLeft" => {
                ui.step_back();
                true
            }
            "r" | "R" => {
                ui.reset();
                true
            }
            "?" => {
                ui.help_open.update(|h| *h = !*h);
                true
            }
            _ => false,
        };
        if handled {
            e.prevent_default();
        }
    });
    // A checkbox ticks on Space's keyup: cancelled too when the keydown drove the transport.
    let keyup = window_event_listener(ev::keyup, move |e| {
        let target = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        let checkbox = target.and_then(|el| el.get_attribute("type")).is_some_and(|t| t == "checkbox" || t == "radio");
        if checkbox && pointer_focus.get_value() && e.key() == " " {
            e.prevent_default();
        }
    });
    on_cleanup(move || {
        keys.remove();
        keyup.remove();
        down.remove();
        focus.remove();
    });
}
