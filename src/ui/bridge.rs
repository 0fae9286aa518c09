//! The host-page API (docs/embedding.md) across `postMessage`: commands in
//! from the page embedding this one ([`Ui::obey`]), `ready` and each frame out.
//! The messages themselves are [`crate::view::host`]'s.

use super::notice::Notice;
use super::state::Ui;
use crate::view::host;
use leptos::ev;
use leptos::prelude::*;

impl Ui {
    /// Obey a host page's command ([`crate::view::host`]).
    pub(super) fn obey(&self, command: host::Command) {
        if let Some(both) = self.obey_both.get_value() {
            both.run(command);
            return;
        }
        match command {
            host::Command::Play => {
                if !self.playing.get_untracked() {
                    self.toggle_play();
                }
            }
            host::Command::Pause => {
                self.pause();
                self.settle();
            }
            host::Command::Step => self.step_forward(),
            host::Command::Back => self.step_back(),
            host::Command::Reset => self.reset(),
            host::Command::Seek(n) => self.seek(n),
            host::Command::Load(scenario) => {
                let json = scenario.to_value().to_string();
                self.load(*scenario, None, Some(json));
            }
        }
    }
}

/// Listen to the host page's commands, and post it `ready` and then every frame.
pub(super) fn connect(ui: Ui) {
    const IGNORED_MESSAGE: &str = "Ignored a message from";
    let messages = window_event_listener(ev::message, move |e| {
        let origin = e.origin();
        if let Some(only) = ui.layout.with_value(|l| l.origin.clone()) {
            if origin != only {
                ui.notice.set(Notice::say(format!("{IGNORED_MESSAGE} {origin}: this page obeys only {only} (the origin parameter).")));
                return;
            }
        }
        let data = e.data();
        let text = match data.as_string() {
            Some(t) => t,
            None => match js_sys::JSON::stringify(&data).ok().and_then(|s| s.as_string()) {
                Some(t) => t,
                // Addressed to this page but not JSON (a cyclic object, a function): said, not dropped.
                None if js_sys::Reflect::has(&data, &"cachescope".into()).unwrap_or(false) => {
                    ui.notice.set(Notice::say(format!(
                        "{IGNORED_MESSAGE} {origin}: it cannot be read as JSON (a cyclic object?); send plain JSON, as docs/embedding.md shows."
                    )));
                    return;
                }
                None => return,
            },
        };
        match host::parse(&text) {
            Ok(Some(command)) => {
                // A good message after an ignored one: the notice about it is stale.
                if ui.notice.with_untracked(|n| n.as_ref().is_some_and(|n| n.text.starts_with(IGNORED_MESSAGE))) {
                    ui.notice.set(None);
                }
                ui.obey(command)
            }
            Ok(None) => {}
            Err(problem) => ui.notice.set(Notice::say(format!("{IGNORED_MESSAGE} {origin}: {problem}."))),
        }
    });
    on_cleanup(move || messages.remove());
    // Ready before the first frame message (effects run after this).
    post_to_parent(ui, &host::ready());
    // A page on its own has no one to tell: then the effect tracks nothing and never runs again.
    // Two runs side by side post both runs' frames themselves (`compare.rs`).
    if embedded() {
        report_height(ui);
    }
    if embedded() && ui.layout.with_value(|l| l.compare.is_none()) {
        Effect::new(move |_| {
            let last = ui.ended.get().then(|| ui.known.get());
            let text = ui.snap.with(|s| host::frame(s.position, s.now_ms, last, &s.invariants));
            post_to_parent(ui, &text);
        });
    }
}

thread_local! {
    /// The height last posted in `resize`.
    static POSTED_HEIGHT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The height the content needs, in CSS px: the page fills its window, and
/// what scrolls inside it for want of room (a lesson step's reveal and its
/// table, the caption) needs that much more to show whole.
fn needed_height() -> u32 {
    let window_h = window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0) as i32;
    let overflow = |selector: &str| {
        document().query_selector(selector).ok().flatten().map_or(0, |el| (el.scroll_height() - el.client_height()).max(0))
    };
    u32::try_from(window_h + overflow(".lesson-body") + overflow(".caption-region .caption")).unwrap_or(0)
}

/// Post `resize` with the height the content needs when it has changed: a
/// host can fit its iframe to it (a reveal opening asks for more room).
pub(super) fn report_needed_height(ui: Ui) {
    if !embedded() {
        return;
    }
    let height = needed_height();
    if POSTED_HEIGHT.with(|p| p.replace(height)) != height {
        post_to_parent(ui, &host::resize(height));
    }
}

/// Report the needed height as the page first lays out, and whenever the
/// window or the body changes size; the lesson reports it as a step changes.
fn report_height(ui: Ui) {
    let on_resize = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries: js_sys::Array| {
        report_needed_height(ui);
    });
    if let (Ok(observer), Some(body)) =
        (web_sys::ResizeObserver::new(wasm_bindgen::JsCast::unchecked_ref(on_resize.as_ref())), document().body())
    {
        observer.observe(&body);
        on_resize.forget();
        on_cleanup(move || observer.disconnect());
    }
}

/// The page this one is embedded in, if it is in an iframe.
fn parent_page() -> Option<web_sys::Window> {
    window().parent().ok().flatten().filter(|p| *p != window())
}

pub(super) fn embedded() -> bool {
    parent_page().is_some()
}

/// Post a message to the page embedding this one, if any: to the `origin`
/// parameter's origin when given, else to whichever page it is.
pub(super) fn post_to_parent(ui: Ui, text: &str) {
    let Some(parent) = parent_page() else { return };
    let target = match ui.layout.with_value(|l| l.origin.clone()) {
        Some(only) => {
            // Post only to the origin the URL names; when the embedding page
            // (as its referrer says) is another, say nothing at all.
            let referrer = document().referrer();
            let parent_origin = referrer.splitn(4, '/').take(3).collect::<Vec<_>>().join("/");
            if !referrer.is_empty() && parent_origin != only {
                return;
            }
            only
        }
        None => "*".to_string(),
    };
    if let Ok(message) = js_sys::JSON::parse(text) {
        let _ = parent.post_message(&message, &target);
    }
}
