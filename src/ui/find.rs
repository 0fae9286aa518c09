//! "Can it go wrong?": the schedule search in a Web Worker, and what the
//! worker runs. The messages and the words are [`crate::view::find`]'s.

use super::state::{part_of, use_ui, Ui};
use crate::view::find::{self, Job, Reply, Task, DEFAULT_BUDGET, DEFAULT_MAX_DEVIATIONS};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The worker's side: answer each job the page posts with the search's
/// replies. `main` calls this instead of mounting the page when it finds
/// itself in a worker (`scripts/explore-worker.js` started it there).
pub fn serve_in_worker() {
    std::panic::set_hook(Box::new(console_error_panic_hook::hook));
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let poster = scope.clone();
    let on_job = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        if let Some(text) = e.data().as_string() {
            find::serve(&text, &mut |reply| {
                let _ = poster.post_message(&reply.into());
            });
        }
    });
    scope.set_onmessage(Some(on_job.as_ref().unchecked_ref()));
    // The worker lives as long as its handler: it is never dropped.
    on_job.forget();
    let _ = scope.post_message(&Reply::Ready.to_text().into());
}

/// The page's own module and wasm, as absolute URLs: Trunk names them with a
/// content hash and preloads both from `index.html`.
fn own_module() -> Option<(String, String)> {
    let document = document();
    let base = document.base_uri().ok().flatten()?;
    let href = |selector: &str| {
        let link = document.query_selector(selector).ok().flatten()?;
        web_sys::Url::new_with_base(&link.get_attribute("href")?, &base).ok().map(|u| u.href())
    };
    Some((href("link[rel=modulepreload][href$='.js']")?, href("link[rel=preload][href$='.wasm']")?))
}

/// A running worker: the worker and the handlers that must live as long.
pub(super) struct Running {
    worker: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// Start a worker running the page's own wasm, give it `task` once it has
/// booted, and hand each of its replies (or why it failed) to `on_reply`.
/// Dropping the [`Running`] stops it.
pub(super) fn spawn(task: &Task, on_reply: impl FnMut(Result<Reply, String>) + 'static) -> Result<Running, String> {
    let (glue, wasm) = own_module().ok_or("the worker needs the page's own files, and this page does not name them")?;
    let options = web_sys::WorkerOptions::new();
    options.set_type(web_sys::WorkerType::Module);
    let worker = web_sys::Worker::new_with_options("./explore-worker.js", &options).map_err(|e| format!("no worker could start: {e:?}"))?;
    let task_text = serde_json::to_string(task).expect("a task serializes");
    // Its replies may name the scenario's own kinds (a schedule holding back a Job's event).
    let kinds = task.kinds();
    let sender = worker.clone();
    let replies = std::rc::Rc::new(std::cell::RefCell::new(on_reply));
    let to_reply = replies.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        let Some(text) = e.data().as_string() else { return };
        if let Some(failed) = serde_json::from_str::<serde_json::Value>(&text).ok().and_then(|v| v["failed"].as_str().map(str::to_string)) {
            (to_reply.borrow_mut())(Err(format!("{failed}.")));
            return;
        }
        match Reply::from_text(&text, &kinds) {
            Ok(Reply::Ready) => {
                let _ = sender.post_message(&task_text.clone().into());
            }
            other => (to_reply.borrow_mut())(other),
        }
    });
    let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
        (replies.borrow_mut())(Err(format!("the worker failed: {}", e.message())));
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    let boot = serde_json::json!({ "boot": { "glue": glue, "wasm": wasm } }).to_string();
    worker.post_message(&boot.into()).map_err(|e| format!("no worker could start: {e:?}"))?;
    Ok(Running { worker, _on_message: on_message, _on_error: on_error })
}

#[derive(Clone, Copy)]
struct Search {
    running: StoredValue<Option<Running>, LocalStorage>,
    searching: RwSignal<bool>,
    /// The live count while it searches.
    count: RwSignal<String>,
    /// What it found, or how much it searched.
    outcome: RwSignal<String>,
    /// How far it had got, for the words when the learner stops it.
    last: StoredValue<Option<crate::explore::Exploration>>,
    max_deviations: StoredValue<usize>,
}

impl Search {
    fn stop(&self, said: Option<String>) {
        self.running.set_value(None);
        self.searching.set(false);
        self.count.set(String::new());
        if let Some(s) = said {
            self.outcome.set(s);
        }
    }

    /// Starts a search; a violation it finds is loaded as the page's run, the
    /// panel closes (it would cover the panels) and the caption bar says what was found.
    fn start(&self, ui: Ui, job: Job, panel: NodeRef<leptos::html::Details>) {
        self.stop(None);
        let search = *self;
        let max_deviations = job.max_deviations;
        let running = spawn(&Task::Search(job), move |reply| match reply {
            Ok(Reply::Progress(so_far)) => {
                search.count.set(find::progress_words(&so_far));
                search.last.set_value(Some(so_far));
            }
            Ok(Reply::Done { exploration, counterexample, refused }) => {
                // Loaded exactly as announced, or announced by its error alone.
                let landing = find::landing(&exploration, counterexample.as_ref(), refused.as_deref(), max_deviations);
                // Not from inside this handler: stopping drops the worker that calls it.
                request_animation_frame(move || {
                    search.stop(None);
                    search.outcome.set(landing.words.clone());
                    if let Some((s, doc, frame)) = landing.load {
                        ui.load(s, None, Some(doc));
                        ui.seek(frame);
                        if let Some(p) = panel.get_untracked() {
                            p.set_open(false);
                        }
                        ui.notice.set(super::notice::Notice::say(landing.words));
                    }
                });
            }
            Ok(Reply::Failed(why)) => request_animation_frame(move || search.stop(Some(format!("The search could not run: {why}")))),
            Ok(Reply::Ready | Reply::LessonChecked { .. } | Reply::MatrixRow(_) | Reply::MatrixDone) => {}
            Err(why) => request_animation_frame(move || search.stop(Some(format!("The search could not run: {why}")))),
        });
        match running {
            Ok(r) => self.running.set_value(Some(r)),
            Err(why) => {
                self.outcome.set(format!("The search could not start: {why}."));
                return;
            }
        }
        self.last.set_value(None);
        self.max_deviations.set_value(max_deviations);
        self.searching.set(true);
        self.outcome.set(String::new());
        self.count.set("Starting the search…".to_string());
    }
}

/// "Can it go wrong?": choose an invariant and a bound, press Find a bug.
#[component]
pub fn CanItGoWrong() -> impl IntoView {
    let ui = use_ui();
    let search = Search {
        running: StoredValue::new_local(None),
        searching: RwSignal::new(false),
        count: RwSignal::new(String::new()),
        outcome: RwSignal::new(String::new()),
        last: StoredValue::new(None),
        max_deviations: StoredValue::new(DEFAULT_MAX_DEVIATIONS),
    };
    let stop = move |_| {
        let so_far = search.last.get_value().unwrap_or_default();
        let words = find::outcome_words(&crate::explore::Exploration { stopped: true, ..so_far }, search.max_deviations.get_value());
        search.stop(Some(words));
    };
    on_cleanup(move || search.running.set_value(None));
    let invariant = RwSignal::new(String::new());
    let events = RwSignal::new(DEFAULT_MAX_DEVIATIONS);
    let drops = RwSignal::new(false);
    let panel = NodeRef::<leptos::html::Details>::new();
    let find = move |_: ()| {
        let scenario = ui.session.with_untracked(|s| s.scenario().to_value());
        let invariant = Some(invariant.get_untracked()).filter(|i| !i.is_empty());
        search.start(
            ui,
            Job { scenario, invariant, max_deviations: events.get_untracked(), budget: DEFAULT_BUDGET, drops: drops.get_untracked() },
            panel,
        );
    };
    // The editor's Find a bug: the panel opens on the run it has just loaded and searches it.
    // Taken once, by whichever panel is mounted when it is asked (loading the run may draw the header anew).
    Effect::new(move |_| {
        if ui.find_asked.get() {
            ui.find_asked.set(false);
            if let Some(p) = panel.get_untracked() {
                p.set_open(true);
            }
            find(());
        }
    });
    // The run's invariants, the scenario's own among them: redrawn when the scenario changes them, not with every frame.
    let snap = ui.snap;
    let which = part_of(snap, |s, h| s.invariants.iter().for_each(|i| std::hash::Hash::hash(i.name, h)));
    let names = move || {
        let _ = which.get();
        snap.with_untracked(|s| s.invariants.iter().map(|i| (i.name, crate::narrate::invariants::promise(i))).collect::<Vec<_>>())
    };
    view! {
        <details class="menu find-bug" data-popover="always" node_ref=panel>
            <summary>"Can it go wrong?"</summary>
            <div class="menu-items find-panel">
                <p class="find-intro">
                    "Search the timings a real cluster allows: hold back one watch event, then two, and replay, until an invariant breaks."
                </p>
                <label>
                    "Invariant"
                    <select on:change=move |e| invariant.set(event_target_value(&e)) prop:disabled=move || search.searching.get()>
                        <option value="" selected>"Any invariant"</option>
                        {move || {
                            names()
                                .into_iter()
                                .map(|(name, promise)| view! { <option value=name title=promise>{name}</option> })
                                .collect_view()
                        }}
                    </select>
                </label>
                <label>
                    "Held-back events, at most"
                    <select
                        on:change=move |e| events.set(event_target_value(&e).parse().unwrap_or(DEFAULT_MAX_DEVIATIONS))
                        prop:disabled=move || search.searching.get()
                    >
                        {(1..=3usize)
                            .map(|n| view! { <option value=n.to_string() selected=n == DEFAULT_MAX_DEVIATIONS>{n.to_string()}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label class="find-drops">
                    <input
                        type="checkbox"
                        prop:checked=move || drops.get()
                        prop:disabled=move || search.searching.get()
                        on:change=move |e| drops.set(event_target_checked(&e))
                    />
                    "Also lose events (a fault a real watch never commits silently)"
                </label>
                <div class="find-buttons">
                    <button on:click=move |_| find(()) prop:disabled=move || search.searching.get()>"Find a bug"</button>
                    <button on:click=stop prop:disabled=move || !search.searching.get()>
                        "Stop"
                    </button>
                </div>
                <p class="find-count mono">{move || search.count.get()}</p>
                <p class="find-outcome" role="status">{move || search.outcome.get()}</p>
            </div>
        </details>
    }
}
