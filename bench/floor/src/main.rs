//! The floor: a textarea, and the trace hash of the preset named in it (or of
//! the scenario pasted into it as JSON), computed by cachescope's core. No
//! panel, no control beyond that. `make bench` reports its gzipped size
//! beside the real page's and the hello world's.

use cachescope::report::Report;
use cachescope::scenario::{preset, Scenario};
use leptos::prelude::*;

#[component]
fn Floor() -> impl IntoView {
    let (text, set_text) = signal(String::from("over-create"));
    let hash = move || {
        let t = text.get();
        let scenario = if t.trim_start().starts_with('{') { Scenario::from_json(&t) } else { preset(t.trim()) };
        match scenario {
            Ok(s) => Report::run(&s).trace_hash,
            Err(e) => e.to_string(),
        }
    };
    view! {
        <main>
            <textarea aria-label="Preset or scenario" on:input=move |e| set_text.set(event_target_value(&e))>"over-create"</textarea>
            <output>{hash}</output>
        </main>
    }
}

fn main() {
    leptos::mount::mount_to_body(Floor);
    // The page's own mark for its first drawn frame: `make bench` sets the two side by side.
    request_animation_frame(|| {
        if let Some(p) = window().performance() {
            let _ = p.mark("cachescope:first-frame");
        }
    });
}
