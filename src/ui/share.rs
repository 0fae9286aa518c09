//! Sharing and files: "Share" (the link), "Embed" (an `<iframe>` snippet),
//! "Import scenario" (a file picker; dropping a file on the page does the
//! same), "Export scenario", "Export trace" and "Export SVG". What each one
//! says lands in the notice under the caption (a `role="status"` region).

use super::{use_ui, Ui};
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

/// Copy `text`; say `done` when it worked, and show the text to copy by hand when it did not
/// (an iframe without `allow="clipboard-write"`, a page not served over https).
fn copy(ui: Ui, text: String, done: String) {
    let promise = window().navigator().clipboard().write_text(&text);
    leptos::task::spawn_local(async move {
        match JsFuture::from(promise).await {
            Ok(_) => ui.notice.set(Some(done)),
            Err(_) => ui.notice.set(Some(format!("The clipboard is not available here; copy this by hand: {text}"))),
        }
    });
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

/// A file name from a scenario name: letters, digits, `-` and `_` only.
fn file_stem(ui: Ui) -> String {
    let name = ui.session.with_untracked(|s| s.scenario().name.clone());
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
                ui.notice.set(Some(format!("Could not read {name}.")));
                return;
            }
        };
        match Scenario::from_json(&text) {
            Ok(scenario) => {
                // The URL carries the document compactly: the file's own JSON, re-serialized without spaces.
                let compact = serde_json::from_str::<serde_json::Value>(&text).map(|v| v.to_string()).unwrap_or(text);
                let title = scenario.name.clone();
                ui.load(scenario, None, Some(compact));
                ui.notice.set(Some(format!("Imported {name}: scenario {title}, from frame 0.")));
            }
            Err(e) => ui.notice.set(Some(format!("Could not import {name}: {e}"))),
        }
    });
}

/// The first file of a drop or a file input.
pub(super) fn first_file(files: Option<web_sys::FileList>) -> Option<web_sys::File> {
    files.and_then(|f| f.get(0))
}

#[component]
pub fn ShareBar() -> impl IntoView {
    let ui = use_ui();
    let picker = NodeRef::<leptos::html::Input>::new();
    let share = move |_| {
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
    };
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
        let json = ui.session.with_untracked(|s| serde_json::to_string_pretty(&s.scenario().to_value()).unwrap_or_default());
        let name = format!("{}.json", file_stem(ui));
        if download(&name, "application/json", &format!("{json}\n")).is_ok() {
            ui.notice.set(Some(format!("Exported the scenario as {name}; import it here or run it with `cachescope run {name}`.")));
        }
    };
    let export_trace = move |_| {
        let (text, n) = ui.session.with_untracked(|s| (trace_text(&s.frames()[..s.position()]), s.position()));
        let name = format!("{}.trace.jsonl", file_stem(ui));
        if download(&name, "application/x-ndjson", &text).is_ok() {
            ui.notice.set(Some(format!("Exported frames 1 to {n} as {name}, line for line what `cachescope trace` prints.")));
        }
    };
    let export_svg = move |_| {
        let (svg, n) = ui.session.with_untracked(|s| {
            let snap = ui.snap.get_untracked();
            (frame_svg(&s.scenario().name, &snap, &ui.wires.get_untracked()), s.position())
        });
        let name = format!("{}-frame-{n}.svg", file_stem(ui));
        if download(&name, "image/svg+xml", &svg).is_ok() {
            ui.notice.set(Some(format!("Exported frame {n} as {name}.")));
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
            }>"Import scenario"</button>
            <input
                node_ref=picker
                class="sr-only"
                type="file"
                accept=".json,application/json"
                tabindex="-1"
                aria-label="Scenario file"
                on:change=move |ev| {
                    let input: web_sys::HtmlInputElement = event_target(&ev);
                    if let Some(file) = first_file(input.files()) {
                        import(ui, file);
                    }
                    input.set_value("");
                }
            />
            <button on:click=export_scenario>"Export scenario"</button>
            <button on:click=export_trace>"Export trace"</button>
            <button on:click=export_svg>"Export SVG"</button>
        </section>
    }
}
