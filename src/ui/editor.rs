//! "Your controller": a dialog that writes the run's reconcile as a recipe
//! (`view::editor`), checks every keystroke, and runs a valid one from
//! frame 0; the link then carries it, as it carries an imported scenario.

use super::modal::Modal;
use super::state::use_ui;
use crate::scenario::recipe::{field_limits, FieldKind};
use crate::scenario::RULES;
use crate::sim::object::Kind;
use crate::view::editor::{
    code, edited, form, moved, recipe_edits, step_names, steps_in, Draft, Edit, FieldView, InvariantField, KindField, Move, Part, Shown,
    Start,
};
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
    // An edit the form could not write into the recipe (a number that is none): said until the next edit.
    let form_error = RwSignal::new(None::<String>);
    // The part whose form is open: the recipe's own fields, or a step's.
    let open = RwSignal::new(None::<Part>);
    let tab = RwSignal::new(Tab::Steps);
    let status = move || match (form_error.get(), checked.get()) {
        (Some(e), _) => format!("Not run: {e}. The last valid recipe stays on screen."),
        (None, None) => "This run's controller is the pruner, a one-shot program: start from a preset's reconcile.".to_string(),
        (None, Some(c)) => match c.run {
            Ok(s) => format!("Valid: {} steps. Run it from frame 0.", s.controller.recipe.as_ref().map_or(0, |r| r.ops.len())),
            Err(e) => format!("Not run: {e}. The last valid recipe stays on screen."),
        },
    };
    // Every change of the text, by the form or by hand, is the edit the status speaks of.
    Effect::new(move |_| {
        text.track();
        form_error.set(None);
    });
    let edit = move |part: Part, field: &'static str, how: Edit| match text.with_untracked(|t| edited(t, part, field, how)) {
        Ok(t) => text.set(t),
        Err(e) => form_error.set(Some(e)),
    };
    let invalid = move || form_error.with(Option::is_some) || checked.with(|c| !matches!(c, Some(c) if c.run.is_ok()));
    let add_choice = NodeRef::<leptos::html::Select>::new();
    let start_from = move |key: String| {
        if let Some(start) = Start::from_key(&key) {
            let d = Draft::begin(start, &current);
            text.set(d.as_ref().map(|d| d.text.clone()).unwrap_or_default());
            draft.set(d);
            open.set(None);
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
    // Run it from frame 0; then, as asked, search its schedules as "Can it go wrong?" does, or copy its link.
    let run = move |then: Then| {
        let Some(c) = checked.get_untracked() else { return };
        if let (Ok(s), Some(compact)) = (c.run, c.compact) {
            ui.editor_open.set(false);
            // In a lesson, a change of the recipe's fields is the change its step waits for: the
            // run is made again with it, the lesson goes on, and the link names the fields.
            let in_lesson = ui.lesson.with_untracked(Option::is_some);
            match ui.session.with_untracked(|now| recipe_edits(now.scenario(), &s)).filter(|e| in_lesson && !e.is_empty()) {
                Some(edits) => {
                    let said = edits.iter().map(|(p, v)| format!("{p} = {v}")).collect::<Vec<_>>().join(", ");
                    ui.restart_with_all(&edits, &said);
                }
                None => ui.load(s, None, Some(compact)),
            }
            match then {
                Then::Play => {}
                Then::Find => ui.find_asked.set(true),
                Then::Share => super::share::share_link(ui),
            }
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
            <Tabs tab />
            <div role="tabpanel" id="editor-panel-steps" aria-labelledby="editor-tab-steps" class="editor-panel" hidden=move || tab.get() != Tab::Steps>
                <h3 id="editor-code-title">"As code"</h3>
                <button
                    class="recipe-fields"
                    aria-expanded=move || (open.get() == Some(Part::Recipe)).to_string()
                    aria-controls=move || (open.get() == Some(Part::Recipe)).then_some("step-form")
                    on:click=move |_| {
                        open.set((open.get_untracked() != Some(Part::Recipe)).then_some(Part::Recipe));
                        focus_form();
                    }
                >"Owner, child and expectations"</button>
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
                                            // The open form stays on the step it was opened for.
                                            open.update(|o| {
                                                if let Some(Part::Step(s)) = *o {
                                                    *o = match how {
                                                        Move::Up if s == step => Some(Part::Step(s - 1)),
                                                        Move::Up if s + 1 == step => Some(Part::Step(s + 1)),
                                                        Move::Down if s == step => Some(Part::Step(s + 1)),
                                                        Move::Down if s == step + 1 => Some(Part::Step(s - 1)),
                                                        Move::Remove if s == step => None,
                                                        Move::Remove if s > step => Some(Part::Step(s - 1)),
                                                        _ => Some(Part::Step(s)),
                                                    };
                                                }
                                            });
                                        }
                                    };
                                    let opened = move || open.get() == Some(Part::Step(step));
                                    view! {
                                        <span class="step-moves">
                                            <button
                                                aria-label=format!("Edit step {line}")
                                                title="Edit"
                                                aria-expanded=move || opened().to_string()
                                                aria-controls=move || opened().then_some("step-form")
                                                on:click=move |_| {
                                                    open.set((!opened()).then_some(Part::Step(step)));
                                                    focus_form();
                                                }
                                            >"✎"</button>
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
                {move || open.get().map(|part| view! { <PartForm part text edit /> })}
                <div class="control add-step">
                    <label for="editor-add">"Add a step"</label>
                    <select id="editor-add" node_ref=add_choice>
                        {step_names().into_iter().map(|n| view! { <option value=n>{n}</option> }).collect_view()}
                    </select>
                    // A step may be added to an invalid recipe (the one it lacks, say), so long as it is JSON.
                    <button prop:disabled=move || text.with(|t| steps_in(t).is_none()) on:click=move |_| {
                        let Some(name) = add_choice.get_untracked().map(|s| s.value()) else { return };
                        if let Some(t) = draft.with_untracked(|d| d.as_ref().and_then(|d| text.with_untracked(|t| d.add(t, &name)))) {
                            text.set(t);
                        }
                    }>"Add the step"</button>
                </div>
            </div>
            <div role="tabpanel" id="editor-panel-kinds" aria-labelledby="editor-tab-kinds" class="editor-panel" hidden=move || tab.get() != Tab::Kinds>
                <Kinds draft form_error />
            </div>
            <div role="tabpanel" id="editor-panel-invariants" aria-labelledby="editor-tab-invariants" class="editor-panel" hidden=move || tab.get() != Tab::Invariants>
                <Invariants draft form_error />
            </div>
            <div role="tabpanel" id="editor-panel-json" aria-labelledby="editor-tab-json" class="editor-panel" hidden=move || tab.get() != Tab::Json>
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
            </div>
            <p id="editor-status" class="editor-status" class:bad=invalid role="status" aria-live="polite">{status}</p>
            <p class="editor-exported" aria-live="polite">{move || exported.get()}</p>
            <div class="dialog-actions">
                <button on:click=move |_| run(Then::Play) prop:disabled=invalid>"Run"</button>
                // The search and the link live in the full page's header: an embed runs the recipe
                // (and its "Open full view" carries it).
                {(!ui.embed.get_untracked()).then(|| view! {
                    <button on:click=move |_| run(Then::Find) prop:disabled=invalid>"Find a bug"</button>
                    <button on:click=move |_| run(Then::Share) prop:disabled=invalid>"Share"</button>
                })}
                <button on:click=export prop:disabled=invalid>"Export"</button>
                <button on:click=move |_| ui.editor_open.set(false)>"Close"</button>
            </div>
        </Modal>
    }
}

/// What Run does once the draft is the page's run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Then {
    Play,
    /// Search its schedules for a break.
    Find,
    /// Copy its link.
    Share,
}

/// The dialog's four views of one draft.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Steps,
    Kinds,
    Invariants,
    Json,
}

const TABS: [(Tab, &str, &str); 4] = [
    (Tab::Steps, "steps", "Steps"),
    (Tab::Kinds, "kinds", "Kinds"),
    (Tab::Invariants, "invariants", "Invariants"),
    (Tab::Json, "json", "JSON"),
];

/// The tab list (WAI-ARIA's tabs pattern): the chosen tab alone is in the
/// Tab order; arrows, Home and End choose another and move the focus to it.
#[component]
fn Tabs(tab: RwSignal<Tab>) -> impl IntoView {
    let choose = move |i: usize| {
        let (t, id, _) = TABS[i];
        tab.set(t);
        refocus(format!("#editor-tab-{id}"));
    };
    let keydown = move |ev: leptos::ev::KeyboardEvent| {
        let now = TABS.iter().position(|(t, _, _)| *t == tab.get_untracked()).unwrap_or(0);
        let n = TABS.len();
        let to = match ev.key().as_str() {
            "ArrowRight" => (now + 1) % n,
            "ArrowLeft" => (now + n - 1) % n,
            "Home" => 0,
            "End" => n - 1,
            _ => return,
        };
        ev.prevent_default();
        choose(to);
    };
    view! {
        <div role="tablist" aria-label="Edit" class="editor-tabs" on:keydown=keydown>
            {TABS
                .iter()
                .map(|&(t, id, label)| {
                    let selected = move || tab.get() == t;
                    view! {
                        <button
                            role="tab"
                            id=format!("editor-tab-{id}")
                            aria-controls=format!("editor-panel-{id}")
                            aria-selected=move || selected().to_string()
                            tabindex=move || if selected() { "0" } else { "-1" }
                            on:click=move |_| tab.set(t)
                        >
                            {label}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// The scenario's own kinds, each a small form (its resource, its desired
/// field, its children), and every owner's desired count. Drawn anew only
/// when their number changes, so a field keeps its focus as it is typed in.
#[component]
fn Kinds(draft: RwSignal<Option<Draft>>, form_error: RwSignal<Option<String>>) -> impl IntoView {
    let shape = Memo::new(move |_| {
        draft.with(|d| {
            d.as_ref().map_or((Vec::new(), Vec::new()), |d| {
                let kinds = d.kinds().into_iter().map(|k| k.name).collect::<Vec<_>>();
                let owners = d.owners().into_iter().map(|o| format!("{} {}: {}", o.kind, o.name, o.field)).collect::<Vec<_>>();
                (kinds, owners)
            })
        })
    });
    let value = move |i: usize, f: KindField| {
        draft.with(|d| d.as_ref().and_then(|d| d.kinds().into_iter().nth(i)?.fields.into_iter().find(|(g, _)| *g == f).map(|(_, v)| v)))
    };
    let edit = move |i: usize, f: KindField, to: String| {
        edit_draft(draft, form_error, |d| d.edit_kind(i, f, &to));
    };
    let count = move |j: usize| draft.with(|d| d.as_ref().and_then(|d| Some(d.owners().into_iter().nth(j)?.count)).unwrap_or_default());
    let set_count = move |j: usize, to: String| {
        edit_draft(draft, form_error, |d| d.edit_count(j, &to));
    };
    let help = |f: KindField| {
        match f {
        KindField::Resource => "The lower-case plural resource the apiserver's messages name (rayclusters.ray.io). Left out: the name's, lower-cased, with an s.",
        KindField::Desired => "The owner's spec field with its desired count of children (workers). Left out: the kind owns no counted children.",
        KindField::ChildrenKind => "The kind of its children.",
        KindField::ChildrenLabel => "The label that names a child's owner (ray.io/cluster).",
    }
    };
    view! {
        <p class="field-help">
            "Pod, ConfigMap, ReplicaSet (spec.replicas, children Pod) and the lab's Ensemble (spec.voices, children ConfigMap) are built in. "
            "A kind of the scenario's own is declared in its file's kinds; its name is how objects, steps and invariants name it, so it is not edited here."
        </p>
        {move || {
            let (kinds, owners) = shape.get();
            let names: Vec<String> = Kind::ALL.iter().map(|k| k.to_string()).chain(kinds.iter().cloned()).collect();
            let kind_forms = kinds
                .into_iter()
                .enumerate()
                .map(|(i, name)| {
                    let id = move |f: KindField| format!("kind-{i}-{}", f.path().replace('.', "-"));
                    let fields = KindField::ALL
                        .iter()
                        .map(|&f| {
                            let input = if f == KindField::ChildrenKind {
                                let now = untrack(|| value(i, f));
                                let options = names
                                    .iter()
                                    .filter(|n| **n != name)
                                    .map(|n| view! { <option value=n.clone() selected=now.as_deref() == Some(n.as_str())>{n.clone()}</option> })
                                    .collect_view();
                                view! {
                                    <select
                                        id=id(f)
                                        aria-describedby=format!("{}-help", id(f))
                                        prop:value=move || value(i, f).unwrap_or_default()
                                        on:change=move |ev| edit(i, f, event_target_value(&ev))
                                    >
                                        <option value="" selected=now.as_deref().unwrap_or_default().is_empty()>"(none)"</option>
                                        {options}
                                    </select>
                                }
                                .into_any()
                            } else {
                                view! {
                                    <input
                                        id=id(f)
                                        type="text"
                                        spellcheck="false"
                                        aria-describedby=format!("{}-help", id(f))
                                        prop:value=move || value(i, f).unwrap_or_default()
                                        on:input=move |ev| edit(i, f, event_target_value(&ev))
                                    />
                                }
                                .into_any()
                            };
                            view! {
                                <div class="step-field">
                                    <label for=id(f)>{f.path()}</label>
                                    {input}
                                    <p class="field-help" id=format!("{}-help", id(f))>{help(f)}</p>
                                </div>
                            }
                        })
                        .collect_view();
                    view! {
                        <fieldset class="step-form kind-form">
                            <legend>{format!("Kind {name}")}</legend>
                            {fields}
                        </fieldset>
                    }
                })
                .collect_view();
            let no_owner = owners.is_empty().then(|| view! { <p class="field-help">"None of the run's objects has a desired count."</p> });
            let owner_fields = owners
                .into_iter()
                .enumerate()
                .map(|(j, label)| {
                    let id = format!("owner-{j}-count");
                    view! {
                        <div class="step-field">
                            <label for=id.clone()>{label}</label>
                            <input
                                id=id
                                type="number"
                                inputmode="numeric"
                                min="0"
                                prop:value=move || count(j)
                                on:input=move |ev| set_count(j, event_target_value(&ev))
                            />
                        </div>
                    }
                })
                .collect_view();
            view! {
                {kind_forms}
                <fieldset class="step-form owners-form">
                    <legend>"Owners and their desired counts"</legend>
                    <p class="field-help">"Each owner the run starts with or applies: what its controller makes children for."</p>
                    {no_owner}
                    {owner_fields}
                </fieldset>
            }
        }}
    }
}

/// Make one edit of the draft's document (its kinds, owners or invariants);
/// what the edit itself refuses is said until the next edit.
fn edit_draft(draft: RwSignal<Option<Draft>>, form_error: RwSignal<Option<String>>, edit: impl FnOnce(&mut Draft) -> Result<(), String>) {
    let mut result = Ok(());
    draft.update(|d| {
        if let Some(d) = d {
            result = edit(d);
        }
    });
    form_error.set(result.err());
}

/// Move the focus to `selector`'s element once the page has drawn it anew.
fn refocus(selector: String) {
    request_animation_frame(move || {
        let el = document().query_selector(&selector).ok().flatten();
        if let Some(el) = el.and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok()) {
            let _ = el.focus();
        }
    });
}

/// Move the focus to the open form's first control, once it is drawn.
fn focus_form() {
    refocus("#step-form select, #step-form input, #step-form textarea".to_string());
}

/// A part's fields as controls (a step's, or the recipe's own), each edit
/// written into the recipe's text. Its controls are drawn once for the
/// part's kind and keep their focus while the text changes under them;
/// their values follow the text.
#[component]
fn PartForm(part: Part, text: RwSignal<String>, edit: impl Fn(Part, &'static str, Edit) + Copy + Send + Sync + 'static) -> impl IntoView {
    let name = Memo::new(move |_| text.with(|t| form(t, part).map(|(name, _)| name)));
    let shown = move |field: &'static str| {
        text.with(|t| form(t, part).and_then(|(_, views)| views.into_iter().find(|v| v.field.field == field).map(|v| v.shown)))
    };
    let title = move |name: &str| match part {
        Part::Recipe => "The recipe: owner, child and expectations".to_string(),
        Part::Step(i) => format!("Step {}: {name}", i + 1),
    };
    move || {
        let Some(name) = name.get() else {
            return view! { <p id="step-form" class="step-form">"Not a recipe the form can edit: mend the JSON below."</p> }.into_any();
        };
        let views = text.with_untracked(|t| form(t, part)).map(|(_, v)| v).unwrap_or_default();
        let none = views.is_empty().then(|| view! { <p class="field-help">{format!("{name} has no fields.")}</p> });
        let controls = views.into_iter().map(|v| control(part, v, shown, edit)).collect_view();
        view! {
            <fieldset id="step-form" class="step-form">
                <legend>{title(&name)}</legend>
                {none}
                {controls}
            </fieldset>
        }
        .into_any()
    }
}

/// One field's control, its label and its help.
fn control(
    step: Part,
    v: FieldView,
    shown: impl Fn(&'static str) -> Option<Shown> + Copy + Send + Sync + 'static,
    edit: impl Fn(Part, &'static str, Edit) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let f = v.field;
    let id = match step {
        Part::Recipe => format!("recipe-{}", f.field),
        Part::Step(i) => format!("step-{i}-{}", f.field),
    };
    let help_id = format!("{id}-help");
    let word = move || match shown(f.field) {
        Some(Shown::Choice(w)) | Some(Shown::Tagged(w, _)) => w,
        _ => String::new(),
    };
    let words = |options: Vec<(&'static str, bool)>| {
        let absent = (f.default.is_none() && !f.required)
            .then(|| view! { <option value="" selected=move || word().is_empty()>"(left out)"</option> });
        let each = options.into_iter().map(|(w, _)| view! { <option value=w selected=move || word() == w>{w}</option> }).collect_view();
        (absent, each)
    };
    let input = match f.kind {
        FieldKind::Choice(_) | FieldKind::MaybeFlag => {
            let options: &'static [&'static str] = match f.kind {
                FieldKind::Choice(options) => options,
                _ => &["true", "false"],
            };
            let (absent, each) = words(options.iter().map(|w| (*w, false)).collect());
            view! {
                <select id=id.clone() aria-describedby=help_id.clone() prop:value=word on:change=move |ev| edit(step, f.field, Edit::Word(event_target_value(&ev)))>
                    {absent}{each}
                </select>
            }
            .into_any()
        }
        FieldKind::Tagged(options) => {
            let carries = move || matches!(f.kind, FieldKind::Tagged(tags) if tags.iter().any(|(t, c)| *c && *t == word()));
            let (_, each) = words(options.to_vec());
            let text_id = format!("{id}-text");
            view! {
                <select id=id.clone() aria-describedby=help_id.clone() prop:value=word on:change=move |ev| edit(step, f.field, Edit::Tag(event_target_value(&ev)))>
                    {each}
                </select>
                <label class="sr-only" for=text_id.clone()>{format!("{}: its text", f.field)}</label>
                <input
                    id=text_id
                    type="text"
                    spellcheck="false"
                    hidden=move || !carries()
                    prop:value=move || match shown(f.field) {
                        Some(Shown::Tagged(_, t)) => t,
                        _ => String::new(),
                    }
                    on:input=move |ev| edit(step, f.field, Edit::TagText(event_target_value(&ev)))
                />
            }
            .into_any()
        }
        FieldKind::Flag => view! {
            <input
                id=id.clone()
                type="checkbox"
                aria-describedby=help_id.clone()
                prop:checked=move || matches!(shown(f.field), Some(Shown::Flag(true)))
                on:change=move |ev| edit(step, f.field, Edit::Flag(event_target_checked(&ev)))
            />
        }
        .into_any(),
        FieldKind::Int => {
            let (min, max) = field_limits(f).unwrap_or((0, u64::from(u32::MAX)));
            view! {
                <input
                    id=id.clone()
                    type="number"
                    inputmode="numeric"
                    min=min.to_string()
                    max=max.to_string()
                    placeholder=match (f.required, f.default) {
                        (true, _) => "required".to_string(),
                        (false, Some(d)) => format!("left out: {d}"),
                        (false, None) => "left out".to_string(),
                    }
                    aria-describedby=help_id.clone()
                    prop:value=move || match shown(f.field) {
                        Some(Shown::Int(n)) => n,
                        _ => String::new(),
                    }
                    on:input=move |ev| edit(step, f.field, Edit::Number(event_target_value(&ev)))
                />
            }
            .into_any()
        }
        FieldKind::Text => view! {
            <input
                id=id.clone()
                type="text"
                spellcheck="false"
                aria-describedby=help_id.clone()
                prop:value=move || match shown(f.field) {
                    Some(Shown::Text(t)) => t,
                    _ => String::new(),
                }
                on:input=move |ev| edit(step, f.field, Edit::Text(event_target_value(&ev)))
            />
        }
        .into_any(),
        FieldKind::Json => view! {
            <textarea
                id=id.clone()
                class="field-json"
                rows="2"
                spellcheck="false"
                aria-describedby=help_id.clone()
                prop:value=move || match shown(f.field) {
                    Some(Shown::Json(j)) => j,
                    _ => String::new(),
                }
                on:input=move |ev| edit(step, f.field, Edit::Json(event_target_value(&ev)))
            ></textarea>
        }
        .into_any(),
    };
    let required = f.required.then_some(" (required)");
    view! {
        <div class="step-field">
            <label for=id>{f.field}{required}</label>
            {input}
            <p class="field-help" id=help_id>{f.help}</p>
        </div>
    }
}

/// The scenario's own invariants, each a small form: its name, its rule and
/// the rule's fields; added and removed by button. Drawn anew only when
/// their number or rules change, so a field keeps its focus as it is typed in
/// (a rule chosen, or an invariant removed, puts the focus back where it was).
#[component]
fn Invariants(draft: RwSignal<Option<Draft>>, form_error: RwSignal<Option<String>>) -> impl IntoView {
    let shape = Memo::new(move |_| {
        draft.with(|d| d.as_ref().map(|d| d.invariants().into_iter().map(|v| v.rule).collect::<Vec<_>>()).unwrap_or_default())
    });
    let value = move |i: usize, field: InvariantField| {
        draft
            .with(|d| {
                let v = d.as_ref().and_then(|d| d.invariants().into_iter().nth(i))?;
                Some(match field {
                    InvariantField::Name => v.name,
                    InvariantField::Rule => v.rule,
                    InvariantField::Of(name) => v.fields.into_iter().find(|(f, _)| f.field == name).map(|(_, x)| x).unwrap_or_default(),
                })
            })
            .unwrap_or_default()
    };
    let edit = move |i: usize, field: InvariantField, to: String| {
        edit_draft(draft, form_error, |d| d.edit_invariant(i, field, &to));
        // Another rule draws the invariant's form anew: the focus goes back to its menu.
        if field == InvariantField::Rule {
            refocus(format!("#invariant-{i}-rule"));
        }
    };
    view! {
        <p class="field-help">
            "What broken means for this controller, beside the built-in ones: Find a bug searches for a schedule that breaks one, and the Invariants panel lights the frame it breaks at."
        </p>
        {move || {
            shape
                .get()
                .into_iter()
                .enumerate()
                .map(|(i, rule)| {
                    let n = i + 1;
                    let promise = RULES.iter().find(|(r, _, _)| *r == rule).map_or("", |(_, _, p)| *p);
                    let fields = RULES.iter().find(|(r, _, _)| *r == rule).map_or(&[][..], |(_, f, _)| *f);
                    let id = move |f: &str| format!("invariant-{i}-{f}");
                    view! {
                        <fieldset class="step-form invariant-form">
                            <legend>{move || format!("Invariant {n}: {}", value(i, InvariantField::Name))}</legend>
                            <div class="step-field">
                                <label for=id("name")>"name"</label>
                                <input id=id("name") type="text" spellcheck="false" prop:value=move || value(i, InvariantField::Name) on:input=move |ev| edit(i, InvariantField::Name, event_target_value(&ev)) />
                            </div>
                            <div class="step-field">
                                <label for=id("rule")>"rule"</label>
                                <select id=id("rule") aria-describedby=id("rule-help") on:change=move |ev| edit(i, InvariantField::Rule, event_target_value(&ev))>
                                    {RULES.iter().map(|(r, _, _)| view! { <option value=*r selected=*r == rule>{*r}</option> }).collect_view()}
                                </select>
                                <p class="field-help" id=id("rule-help")>{promise}</p>
                            </div>
                            {fields
                                .iter()
                                .map(|f| {
                                    let field = f.field;
                                    view! {
                                        <div class="step-field">
                                            <label for=id(field)>{field}</label>
                                            <input
                                                id=id(field)
                                                type=if f.number { "number" } else { "text" }
                                                inputmode=if f.number { "numeric" } else { "text" }
                                                spellcheck="false"
                                                aria-describedby=id(&format!("{field}-help"))
                                                prop:value=move || value(i, InvariantField::Of(field))
                                                on:input=move |ev| edit(i, InvariantField::Of(field), event_target_value(&ev))
                                            />
                                            <p class="field-help" id=id(&format!("{field}-help"))>{f.help}</p>
                                        </div>
                                    }
                                })
                                .collect_view()}
                            <button class="remove-invariant" on:click=move |_| {
                                draft.update(|d| if let Some(d) = d { d.remove_invariant(i) });
                                refocus(".add-invariant".to_string());
                            }>
                                {format!("Remove invariant {n}")}
                            </button>
                        </fieldset>
                    }
                })
                .collect_view()
        }}
        <button class="add-invariant" on:click=move |_| draft.update(|d| if let Some(d) = d { d.add_invariant() })>"Add an invariant"</button>
    }
}
