//! The browser app: installs the panic hook and mounts the Leptos [`App`]
//! (`cachescope::ui::App`) on `<body>`.
//!
//! Trunk builds this binary for wasm32 (`index.html` names it with `data-bin`).
//! A native build exists only so that `cargo build` and `cargo test` on the
//! host stay green; it points the reader at the right command and exits.

#[cfg(target_arch = "wasm32")]
fn main() {
    // In a Web Worker (scripts/explore-worker.js): no page to draw, the
    // schedule search to serve.
    if wasm_bindgen::JsCast::dyn_ref::<web_sys::Window>(&js_sys::global()).is_none() {
        cachescope::ui::serve_in_worker();
        return;
    }
    // Turn Rust panics into readable `console.error` messages instead of an
    // opaque "unreachable executed", and into a message in the page (and to
    // an embedding page) by scripts/boot.js's `cachescopeCrashed`.
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let window = leptos::prelude::window();
        if let Ok(f) = js_sys::Reflect::get(&window, &"cachescopeCrashed".into()) {
            if let Some(f) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&f) {
                let _ = f.call1(&window, &format!("{info}").into());
            }
        }
    }));
    // index.html says "Loading…" until now (and scripts/boot.js says what went
    // wrong if this never runs).
    if let Some(loading) = leptos::prelude::document().get_element_by_id("loading") {
        loading.remove();
    }
    leptos::mount::mount_to_body(cachescope::ui::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "cachescope-web is the browser app; it runs only as WebAssembly.\n\
         Build and open it with `make serve` (then http://127.0.0.1:8080/).\n\
         The command-line runner is `cachescope` (`cargo run --bin cachescope -- --help`)."
    );
    std::process::exit(2);
}
