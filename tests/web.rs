//! Component tests for the Leptos UI, run in headless Chromium by
//! `wasm-bindgen-test-runner` (`cargo test --target wasm32-unknown-unknown --test web`).
//!
//! Each test mounts a fresh [`App`] into its own element and checks the DOM
//! against what the simulation itself says, so the tests stay true when the
//! presets and the report change.
#![cfg(target_arch = "wasm32")]

use cachescope::report::Report;
use cachescope::scenario::{preset, preset_names};
use cachescope::ui::App;
use leptos::mount::mount_to;
use leptos::task::tick;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlSelectElement, HtmlTableSectionElement};

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh, empty element appended to `<body>`.
fn fresh_root() -> HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    root.unchecked_into()
}

fn find(root: &Element, selector: &str) -> Option<Element> {
    root.query_selector(selector).unwrap()
}

fn scenario_select(root: &Element) -> HtmlSelectElement {
    find(root, r#"select[aria-label="Scenario"]"#)
        .expect("a <select aria-label=\"Scenario\">")
        .unchecked_into()
}

/// Checks that the summary in `root` shows exactly `report`.
fn assert_summary_shows(root: &Element, report: &Report) {
    let section = find(root, r#"section[aria-label="Run summary"]"#).expect("the Run summary section");
    assert!(find(root, r#"[role="alert"]"#).is_none(), "no alert next to a summary");

    let caption = find(&section, "table > caption").expect("the live table has a caption");
    assert!(!caption.text_content().unwrap_or_default().trim().is_empty());

    let body: HtmlTableSectionElement = find(&section, "table > tbody").expect("a <tbody>").unchecked_into();
    let rows = body.rows();
    if report.live.is_empty() {
        assert_eq!(rows.length(), 1, "one 'no live objects' row");
    } else {
        assert_eq!(rows.length() as usize, report.live.len(), "one row per live kind");
        for (i, (kind, count)) in report.live.iter().enumerate() {
            let row = rows.item(i as u32).unwrap();
            let cells = row.children();
            assert_eq!(cells.item(0).unwrap().text_content().unwrap(), *kind);
            assert_eq!(cells.item(1).unwrap().text_content().unwrap(), count.to_string());
        }
    }

    let hash = find(&section, ".trace-hash").expect("the trace hash");
    assert_eq!(hash.text_content().unwrap(), report.trace_hash);
}

#[wasm_bindgen_test]
fn select_lists_every_preset_in_order() {
    let root = fresh_root();
    let _app = mount_to(root.clone(), App);

    let names = preset_names();
    assert!(!names.is_empty(), "at least one preset");
    let select = scenario_select(&root);
    assert_eq!(select.length() as usize, names.len());
    for (i, name) in names.iter().enumerate() {
        let option = select.item(i as u32).unwrap();
        assert_eq!(option.get_attribute("value").as_deref(), Some(*name));
    }
    assert_eq!(select.value(), names[0], "the first preset is chosen at start");
}

#[wasm_bindgen_test]
fn summary_shows_the_first_preset_run() {
    let root = fresh_root();
    let _app = mount_to(root.clone(), App);

    let first = preset_names()[0];
    let report = Report::run(&preset(first).expect("every listed preset loads"));
    assert_summary_shows(&root, &report);
}

#[wasm_bindgen_test]
async fn choosing_a_scenario_reruns_it_or_shows_the_error() {
    let root = fresh_root();
    let _app = mount_to(root.clone(), App);
    let select = scenario_select(&root);

    // Choose every preset in turn (last first, so the value really changes),
    // then a name that is not a preset: the page must show that run's
    // summary, or the preset's error in an alert, and never panic.
    let mut names: Vec<&str> = preset_names().into_iter().rev().collect();
    names.push("no-such-preset");
    for name in names {
        let document = web_sys::window().unwrap().document().unwrap();
        if !(0..select.length()).any(|i| select.item(i).unwrap().get_attribute("value").as_deref() == Some(name)) {
            let option = document.create_element("option").unwrap();
            option.set_attribute("value", name).unwrap();
            option.set_text_content(Some(name));
            select.append_child(&option).unwrap();
        }
        select.set_value(name);
        let change = web_sys::Event::new("change").unwrap();
        select.dispatch_event(&change).unwrap();
        tick().await;

        match preset(name) {
            Ok(scenario) => assert_summary_shows(&root, &Report::run(&scenario)),
            Err(err) => {
                let alert = find(&root, r#"[role="alert"]"#).expect("an alert for a bad preset");
                assert_eq!(alert.text_content().unwrap(), err.to_string());
                assert!(find(&root, r#"section[aria-label="Run summary"]"#).is_none());
            }
        }
    }
}
