//! "Chaos matrix": the run on the page under upstream's fault cells, a row
//! per mitigation, computed in the page's worker (`Task::Matrix`) row by
//! row, and drawn as a table whose every cell names its verdict in words and
//! opens its own run at the frame where it broke. The rows are
//! `crate::view::matrix`'s, the very ones `cachescope matrix` prints.

use super::find::{spawn, Running};
use super::modal::Modal;
use super::notice::Notice;
use super::state::{use_ui, Ui};
use crate::view::find::{Reply, Task};
use crate::view::matrix::{self as vm, CellView, RowView};
use leptos::prelude::*;

/// Open a cell's run: its scenario, at its breaking frame, announced in its words.
fn open(ui: Ui, cell: &CellView) {
    let Some(doc) = &cell.doc else { return };
    let text = doc.to_string();
    match crate::scenario::Scenario::from_json(&text) {
        Ok(s) => {
            ui.matrix_open.set(false);
            ui.load(s, None, Some(text));
            ui.seek(cell.frame as usize);
            ui.notice.set(Notice::say(cell.words.clone()));
        }
        Err(e) => ui.notice.set(Notice::say(e.to_string())),
    }
}

/// One cell: a button naming its verdict (and frame), or, for a cell that
/// did not run, its verdict as text.
fn cell_view(ui: Ui, column: &'static str, c: CellView) -> impl IntoView {
    let class = format!("verdict verdict-{}", c.verdict.replace('_', "-"));
    let label = c.label.clone();
    let at = (c.verdict == "broke").then(|| format!("frame {}", c.frame));
    let words = c.words.clone();
    // Its name is what it shows, then the whole cell in words (for a reader who cannot see the colour or hover).
    let content = view! {
        <span class="label">{label}</span>
        {at.map(|at| view! { <span class="at mono">{at}</span> })}
        <span class="sr-only">{format!(": {words}")}</span>
    };
    let inner = if c.doc.is_some() {
        let cell = c.clone();
        leptos::either::Either::Left(view! {
            <button class=class title=words on:click=move |_| open(ui, &cell)>
                {content}
            </button>
        })
    } else {
        leptos::either::Either::Right(view! { <span class=class title=words>{content}</span> })
    };
    view! { <td data-column=column data-cell=c.cell.clone()>{inner}</td> }
}

/// The matrix, in the page's one [`Modal`]: a line while the worker runs,
/// the table as its rows arrive, the chosen row in a sentence, a legend.
#[component]
pub(super) fn Matrix() -> impl IntoView {
    let ui = use_ui();
    let close = Callback::new(move |()| ui.matrix_open.set(false));
    let rows = RwSignal::new(Vec::<RowView>::new());
    let status = RwSignal::new(vm::progress(0));
    let running = StoredValue::new_local(None::<Running>);
    let scenario = ui.session.with_untracked(|s| s.scenario().to_value());
    let started = spawn(&Task::Matrix { scenario, budget: crate::matrix::WORST_BUDGET }, move |reply| match reply {
        Ok(Reply::MatrixRow(row)) => {
            rows.update(|r| r.push(*row));
            status.set(vm::progress(rows.with_untracked(Vec::len)));
        }
        Ok(Reply::MatrixDone) => {
            status.set(rows.with_untracked(|r| vm::summary(r)).unwrap_or_default());
            // Not from inside this handler: dropping the worker's handle ends the handler's owner.
            request_animation_frame(move || running.set_value(None));
        }
        Ok(Reply::Failed(why)) | Err(why) => {
            status.set(format!("The matrix could not run: {why}"));
            request_animation_frame(move || running.set_value(None));
        }
        Ok(Reply::Ready | Reply::Progress(_) | Reply::Done { .. } | Reply::LessonChecked { .. }) => {}
    });
    match started {
        Ok(r) => running.set_value(Some(r)),
        Err(why) => status.set(format!("The matrix could not start: {why}.")),
    }
    on_cleanup(move || running.set_value(None));
    let columns = vm::columns();
    let head = columns
        .iter()
        .map(|&(name, title, plan, upstream)| {
            view! {
                <th scope="col" title=plan>
                    <span class="title">{title}</span>
                    <span class="source">{if upstream { "upstream" } else { "cachescope" }}</span>
                    <span class="sr-only">{format!(" ({name}): {plan}")}</span>
                </th>
            }
        })
        .collect_view();
    let body = move || {
        rows.get()
            .into_iter()
            .map(|r| {
                let cells = r.cells.into_iter().zip(columns.iter()).map(|(c, &(_, title, ..))| cell_view(ui, title, c)).collect_view();
                view! {
                    <tr data-row=r.row.clone()>
                        <th scope="row">
                            <span class="title">{r.title}</span>
                            {r.note.map(|n| view! { <span class="note">{n}</span> })}
                        </th>
                        {cells}
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <Modal labelled_by="matrix-title" class="matrix-dialog" close>
            <h2 id="matrix-title">"Chaos matrix"</h2>
            <p>
                "This run under each fault of upstream's StandardChaosMatrix (kubernetes #139657) and three of cachescope's own, a row per mitigation. "
                "Every cell is seeded, so its verdict is the same each time, here and in "<code>"cachescope matrix"</code>". "
                "A cell whose fault never fired is invalid, as upstream's AssertExpectedFaultsTriggered would say. Open a cell to play its run from the frame where it broke."
            </p>
            <p class="matrix-status" role="status">{move || status.get()}</p>
            <div class="matrix-scroll" tabindex="0" role="region" aria-label="Chaos matrix table">
                <table class="matrix">
                    <thead>
                        <tr>
                            <th scope="col">"Mitigation"</th>
                            {head}
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
            <ul class="matrix-legend" aria-label="Verdicts">
                {vm::legend()
                    .into_iter()
                    .map(|(key, label, meaning)| view! {
                        <li><span class=format!("verdict verdict-{}", key.replace('_', "-"))>{label}</span>" "{meaning}</li>
                    })
                    .collect_view()}
            </ul>
            <div class="dialog-actions">
                <button on:click=move |_| ui.matrix_open.set(false)>"Close"</button>
            </div>
        </Modal>
    }
}
