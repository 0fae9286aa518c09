//! Hello world in Leptos 0.8 (CSR): a heading, a button, a slider and an SVG
//! circle that follows them. `make bench` compares the real page's gzipped
//! size with this one's.

use leptos::prelude::*;

#[component]
fn Hello() -> impl IntoView {
    let (count, set_count) = signal(0u32);
    let (radius, set_radius) = signal(20u32);
    view! {
        <main>
            <h1>"Hello, Leptos"</h1>
            <button on:click=move |_| set_count.update(|n| *n += 1)>
                "Clicked " {count} " times"
            </button>
            <label>
                "Radius "
                <input
                    type="range"
                    min="1"
                    max="50"
                    prop:value=move || radius.get().to_string()
                    on:input=move |e| set_radius.set(event_target_value(&e).parse().unwrap_or(20))
                />
            </label>
            <svg width="120" height="120" viewBox="0 0 120 120" role="img" aria-label="A circle">
                <circle cx=move || 60 + count.get() % 10 cy="60" r=move || radius.get() fill="steelblue" />
            </svg>
        </main>
    }
}

fn main() {
    leptos::mount::mount_to_body(Hello);
}
