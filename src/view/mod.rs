//! Plain view structs computed from a session: what each panel shows. No web
//! crate here, so every view is tested natively; the Leptos components in
//! `ui` only lay these out.

pub mod host;
pub mod panels;
pub mod session;
pub mod snapshot;
pub mod svg;
pub mod url;
