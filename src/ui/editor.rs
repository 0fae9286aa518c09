//! "Your controller": a dialog that writes the run's reconcile as a recipe
//! (`view::editor`), checks every keystroke, and runs a valid one from
//! frame 0; the link then carries it, as it carries an imported scenario.

use super::modal::Modal;
use super::state::use_ui;
use crate::view::editor::{added, code, moved, step_names, steps_in, Draft, Move, Start};
use leptos::prelude::*;

#[component]
pub(super) fn Editor() -> impl IntoView {
    let ui = use_ui();
    let close = Callback::new(move |()| ui.editor_open.set(false));
    let current = ui.session.with_untracked(|s| s.scenario().clone());
    let starts = crate::view::editor::starts(&current);
    let first = starts.first().copied();
    let draft = RwSignal::new(first.and_then(|s| Draft::begin(s, &current)));
    let text = RwSignal::new(draft.with_untracked(|d| d.as_ref().map(|d| d.text.clone()).unwrap_or_default()));
    let checked = Memo::new(move |_| draft.with(|d| d.as_ref().map(|d| text.with(|t| d.check(t)))));
    // The lines of the last valid draft: an invalid edit leaves them as they were.
    let lines = RwSignal::new(Vec::<String>::new());
    Effect::new(move |_| {
        if let Some(Ok(s)) = checked.with(|c| c.as_ref().map(|c| c.run.clone())) {
            lines.set(code(&s));
        }
    });
    let status = move || match checked.get() {
        None => "This run's controller is the pruner, a one-shot program: start from a preset's reconcile.".to_string(),
        Some(c) => match c.run {
            Ok(s) => format!("Valid: {} steps. Run it from frame 0.", s.controller.recipe.as_ref().map_or(0, |r| r.ops.len())),
            Err(e) => format!("Not run: {e}. The last valid recipe stays on screen."),
        },
    };
    let invalid = move || checked.with(|c| !matches!(c, Some(c) if c.run.is_ok()));
    let add_choice = NodeRef::<leptos::html::Select>::new();
    let start_from = move |key: String| {
        if let Some(start) = Start::from_key(&key) {
            let d = Draft::begin(start, &current);
            text.set(d.as_ref().map(|d| d.text.clone()).unwrap_or_default());
            draft.set(d);
        }
    };
    // What Export last did, said beside the verdict.
    let exported = RwSignal::new(None::<String>);
    let export = move |_| {
        let Some(Ok(s)) = checked.with_untracked(|c| c.as_ref().map(|c| c.run.clone())) else { return };
        if let Some(name) = super::share::download_scenario(&s) {
            exported.set(Some(format!("Exported as {name}: `cachescope run {name}` plays this very run.")));
        }
    };
    let run = move |_| {
        let Some(c) = checked.get_untracked() else { return };
        if let (Ok(s), Some(compact)) = (c.run, c.compact) {
            ui.editor_open.set(false);
            ui.load(s, None, Some(compact));
        }
    };
    view! {
        <Modal labelled_by="editor-title" class="editor-dialog" close>
            <h2 id="editor-title">"Your controller"</h2>
            <p>
                "Write the reconcile as a recipe: one step a line, each at most one API call, each a point where the watch may be late. "
                "Every edit is checked; Run plays a valid one from frame 0, and Share's link carries it."
            </p>
            <div class="control">
                <label for="editor-start">"Start from"</label>
                <select id="editor-start" on:change=move |ev| start_from(event_target_value(&ev))>
                    {starts
                        .iter()
                        .map(|s| {
                            let label = match s {
                                Start::Current => "This run's reconcile".to_string(),
                                Start::Blank => "A blank reconcile".to_string(),
                                Start::Preset(name) => format!("Preset {name}"),
                            };
                            view! { <option value=s.key()>{label}</option> }
                        })
                        .collect_view()}
                </select>
            </div>
            <h3 id="editor-code-title">"As code"</h3>
            <ol class="editor-code" aria-labelledby="editor-code-title">
                {move || {
                    let all = lines.get();
                    let n = all.len();
                    all.into_iter()
                        .enumerate()
                        .map(|(line, l)| {
                            // Line 0 is the dequeue's; line i is step i (from 1).
                            let buttons = (line > 0).then(|| {
                                let step = line - 1;
                                let act = move |how: Move| {
                                    if let Some(t) = text.with_untracked(|t| moved(t, step, how)) {
                                        text.set(t);
                                    }
                                };
                                view! {
                                    <span class="step-moves">
                                        <button aria-label=format!("Move step {line} up") title="Up" prop:disabled=move || invalid() || line == 1 on:click=move |_| act(Move::Up)>"↑"</button>
                                        <button aria-label=format!("Move step {line} down") title="Down" prop:disabled=move || invalid() || line + 1 == n on:click=move |_| act(Move::Down)>"↓"</button>
                                        <button aria-label=format!("Remove step {line}") title="Remove" prop:disabled=invalid on:click=move |_| act(Move::Remove)>"✕"</button>
                                    </span>
                                }
                            });
                            view! { <li><code>{l}</code>{buttons}</li> }
                        })
                        .collect_view()
                }}
            </ol>
            <div class="control add-step">
                <label for="editor-add">"Add a step"</label>
                <select id="editor-add" node_ref=add_choice>
                    {step_names().into_iter().map(|n| view! { <option value=n>{n}</option> }).collect_view()}
                </select>
                // A step may be added to an invalid recipe (the one it lacks, say), so long as it is JSON.
                <button prop:disabled=move || text.with(|t| steps_in(t).is_none()) on:click=move |_| {
                    let Some(name) = add_choice.get_untracked().map(|s| s.value()) else { return };
                    if let Some(t) = text.with_untracked(|t| added(t, &name)) {
                        text.set(t);
                    }
                }>"Add before the return"</button>
            </div>
            <label for="editor-json">"Recipe (JSON)"</label>
            <textarea
                id="editor-json"
                class="editor-json"
                spellcheck="false"
                rows="14"
                aria-invalid=move || invalid().to_string()
                aria-describedby="editor-status"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
            ></textarea>
            <p id="editor-status" class="editor-status" class:bad=invalid role="status" aria-live="polite">{status}</p>
            <p class="editor-exported" aria-live="polite">{move || exported.get()}</p>
            <div class="dialog-actions">
                <button on:click=run prop:disabled=invalid>"Run"</button>
                <button on:click=export prop:disabled=invalid>"Export"</button>
                <button on:click=move |_| ui.editor_open.set(false)>"Close"</button>
            </div>
        </Modal>
    }
}
