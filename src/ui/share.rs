//! Sharing and files: "Share" (the link), "Embed" (an `<iframe>` snippet),
//! "Import scenario" (a file picker; dropping a file on the page does the
//! same), and an "Export" menu (scenario, trace, SVG, Go test). What each one says
//! appears beside these buttons (a `role="status"` popover); where the
//! clipboard is missing or refuses, the popover holds the text, selected, to
//! copy by hand.

use super::notice::Note;
use super::state::{use_ui, Ui};
use crate::report::trace_text;
use crate::scenario::Scenario;
use crate::view::svg::frame_svg;
use crate::view::url::{self, Layout, PageState};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The page's address without its query: where links and embeds point.
fn page_base() -> String {
    let l = window().location();
    format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())
}

/// Copy `text`; say `done` when it worked, and offer the text to copy by hand
/// when there is no clipboard (a page over plain http, but for localhost) or
/// it refuses (an iframe without `allow="clipboard-write"`).
fn copy(ui: Ui, text: String, done: String) {
    let kept = text.clone();
    write_clipboard(text, move |copied| {
        ui.share_note.set(if copied {
            Note::say(done)
        } else {
            Some(Note { text: "The clipboard is not available here: copy this by hand.".to_string(), copy_by_hand: Some(kept) })
        })
    });
}

/// Write `text` to the clipboard; `then(true)` once it is there, `then(false)`
/// when there is no clipboard or it refuses.
pub(super) fn write_clipboard(text: String, then: impl FnOnce(bool) + 'static) {
    let navigator = window().navigator();
    let has_clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard")).is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if !has_clipboard {
        then(false);
        return;
    }
    let promise = navigator.clipboard().write_text(&text);
    leptos::task::spawn_local(async move { then(JsFuture::from(promise).await.is_ok()) });
}

/// Offer `text` as a file download named `name`.
fn download(name: &str, mime: &str, text: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag)?;
    let href = web_sys::Url::create_object_url_with_blob(&blob)?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a")?.unchecked_into();
    a.set_href(&href);
    a.set_download(name);
    a.click();
    // Revoked once the download has had time to start.
    set_timeout(move || drop(web_sys::Url::revoke_object_url(&href)), std::time::Duration::from_secs(10));
    Ok(())
}

/// A file name from the run's scenario name.
fn file_stem(ui: Ui) -> String {
    stem(&ui.session.with_untracked(|s| s.scenario().name.clone()))
}

/// Offer `s` as the scenario file `cachescope run` plays, named after it;
/// the file's name, once the download has started.
pub(super) fn download_scenario(s: &Scenario) -> Option<String> {
    let json = serde_json::to_string_pretty(&s.to_value()).unwrap_or_default();
    let name = format!("{}.json", stem(&s.name));
    download(&name, "application/json", &format!("{json}\n")).ok().map(|()| name)
}

/// A file name from a scenario name: letters, digits, `-` and `_` only.
fn stem(name: &str) -> String {
    let stem: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' }).collect();
    if stem.is_empty() {
        "scenario".to_string()
    } else {
        stem
    }
}

/// Read a scenario file and open it, or say what is wrong with it, by field and value.
pub(super) fn import(ui: Ui, file: web_sys::File) {
    let name = file.name();
    let promise = file.text();
    leptos::task::spawn_local(async move {
        let text = match JsFuture::from(promise).await {
            Ok(t) => t.as_string().unwrap_or_default(),
            Err(_) => {
                ui.share_note.set(Note::say(format!("Could not read {name}.")));
                return;
            }
        };
        match Scenario::from_json(&text) {
            Ok(scenario) => {
                // The URL carries the document compactly: the file's own JSON, re-serialized without spaces.
                let compact = serde_json::from_str::<serde_json::Value>(&text).map(|v| v.to_string()).unwrap_or(text);
                let title = scenario.name.clone();
                ui.load(scenario, None, Some(compact));
                ui.share_note.set(Note::say(format!("Imported {name}: scenario {title}, from frame 0.")));
            }
            Err(e) => ui.share_note.set(Note::say(format!("Could not import {name}: {e}"))),
        }
    });
}

/// The first file of a drop or a file input.
pub(super) fn first_file(files: Option<web_sys::FileList>) -> Option<web_sys::File> {
    files.and_then(|f| f.get(0))
}

/// "Share": copy the page's link, which opens this scenario, its settings
/// and this frame; said beside the Share button.
pub(super) fn share_link(ui: Ui) {
    let mut done = "Link copied: it opens this scenario, these settings and this frame.".to_string();
    if let Some(json) = ui.custom.get_value() {
        let n = url::pack(&json).len();
        if n > url::MAX_SHARED_PACKED {
            done = format!(
                "Link copied, but this scenario packs to {n} characters, over the {} a link carries safely: some servers cut such URLs. Export the scenario and share the file instead.",
                url::MAX_SHARED_PACKED
            );
        }
    }
    copy(ui, format!("{}{}", page_base(), ui.query()), done);
}

#[component]
pub fn ShareBar() -> impl IntoView {
    let ui = use_ui();
    let picker = NodeRef::<leptos::html::Input>::new();
    let share = move |_| share_link(ui);
    let embed = move |_| {
        let now = ui.page_state();
        // The embed keeps the chosen panels and controls; the author decides on autoplay and origin.
        let layout = Layout { autoplay: false, origin: None, ..now.layout.clone() };
        let state = PageState { embed: true, layout, ..now };
        let title = ui.session.with_untracked(|s| format!("cachescope: {}", s.scenario().name));
        let snippet = url::iframe_snippet(&format!("{}{}", page_base(), url::encode(&state)), &title);
        copy(ui, snippet, "Embed snippet copied: paste the <iframe> into your course page.".to_string());
    };
    let export_scenario = move |_| {
        if let Some(name) = ui.session.with_untracked(|s| download_scenario(s.scenario())) {
            ui.share_note
                .set(Note::say(format!("Exported the scenario as {name}; import it here or run it with `cachescope run {name}`.")));
        }
    };
    let export_trace = move |_| {
        let (text, n) = ui.session.with_untracked(|s| (trace_text(&s.frames()[..s.position()], s.world()), s.position()));
        let name = format!("{}.trace.jsonl", file_stem(ui));
        if download(&name, "application/x-ndjson", &text).is_ok() {
            ui.share_note.set(Note::say(format!("Exported frames 1 to {n} as {name}, line for line what `cachescope trace` prints.")));
        }
    };
    let export_svg = move |_| {
        let (svg, n) = ui.session.with_untracked(|s| {
            let snap = ui.snap.get_untracked();
            let wires = crate::view::panels::wires(s.world(), false, ui.display_ms.get_untracked());
            let spacetime = crate::view::spacetime::of_session(s, &wires);
            (frame_svg(&s.scenario().name, &snap, &wires, Some(&spacetime)), s.position())
        });
        let name = format!("{}-frame-{n}.svg", file_stem(ui));
        if download(&name, "image/svg+xml", &svg).is_ok() {
            ui.share_note.set(Note::say(format!("Exported frame {n} as {name}.")));
        }
    };
    // The run up to the frame on the page, as a Go test (`cachescope export go --frame N` writes the same bytes).
    let export_go = move |_| {
        let (made, n) = ui.session.with_untracked(|s| (crate::export::go_test(s.scenario(), Some(s.position() as u64)), s.position()));
        match made {
            Ok(go) => {
                if download(&go.file_name, "text/x-go", &go.text).is_ok() {
                    ui.share_note.set(Note::say(format!(
                        "Exported the run's {} up to frame {n} as {}: wire it to your reconciler (docs/exporting.md).",
                        crate::narrate::units::plural(go.reconciles as u64, "reconcile", "reconciles"),
                        go.file_name
                    )));
                }
            }
            Err(e) => ui.share_note.set(Note::say(format!("No Go test at frame {n}: {}.", e.message))),
        }
    };
    let note = ui.share_note;
    // The field to copy from by hand is selected as soon as it appears.
    let by_hand = NodeRef::<leptos::html::Textarea>::new();
    Effect::new(move |_| {
        if let Some(t) = by_hand.get() {
            let _ = t.focus();
            t.select();
        }
    });
    let menu = NodeRef::<leptos::html::Details>::new();
    let close_menu = move || {
        if let Some(m) = menu.get() {
            m.set_open(false);
        }
    };
    view! {
        <section class="share" aria-label="Share and export">
            <button on:click=share>"Share"</button>
            <button on:click=embed>"Embed"</button>
            <button on:click=move |_| {
                if let Some(input) = picker.get() {
                    input.click();
                }
            } aria-label="Import scenario">"Import"</button>
            // Hidden from everyone: the Import button stands for it.
            <input
                node_ref=picker
                hidden
                type="file"
                accept=".json,application/json"
                on:change=move |ev| {
                    let input: web_sys::HtmlInputElement = event_target(&ev);
                    if let Some(file) = first_file(input.files()) {
                        import(ui, file);
                    }
                    input.set_value("");
                }
            />
            <details class="menu" data-popover="always" node_ref=menu>
                <summary>"Export"</summary>
                <div class="menu-items">
                    <button on:click=move |e| { close_menu(); export_scenario(e) }>"Export scenario"</button>
                    <button on:click=move |e| { close_menu(); export_trace(e) }>"Export trace"</button>
                    <button on:click=move |e| { close_menu(); export_svg(e) }>"Export SVG"</button>
                    <button on:click=move |e| { close_menu(); export_go(e) }>"Export Go test"</button>
                </div>
            </details>
            {move || note.get().map(|n| view! {
                <div class="share-note" role="status">
                    <p>{n.text}</p>
                    {n.copy_by_hand.map(|t| view! {
                        <textarea node_ref=by_hand readonly rows="3" aria-label="Text to copy">{t}</textarea>
                    })}
                    <button class="dismiss" aria-label="Dismiss" on:click=move |_| note.set(None)>"×"</button>
                </div>
            })}
        </section>
    }
}
