//! The Lesson region: a scenario's lesson, step by step. Each step asks
//! where the learner stands, before the run shows it; Check plays the run to
//! the step's frame and pauses there; the reveal says "You said 8; the run
//! says 11", why, and lights the panel concerned; Next goes on. A step that
//! asks for a change waits until the learner makes it with the page's own
//! control. The learner's notes collect the steps' `write` rows. The answers
//! are [`crate::view::lesson::verify`]'s, for the run on the page.

use super::bridge::post_to_parent;
use super::modal::Modal;
use super::state::{use_ui, Ui};
use crate::narrate::lesson as words;
use crate::scenario::{lesson, Gauge, LessonStep, Measure, Scenario, StepOutcome};
use crate::view::host;
use crate::view::lesson::{self as vl, LessonRun, Phase, Response};
use leptos::either::Either;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What a step's answer is about, lit on the reveal: a panel's class.
fn panel_of(g: &Gauge) -> &'static str {
    match g.measure {
        Measure::Live | Measure::Peak => "cluster",
        Measure::Cached => "cache",
        Measure::ExpectedAdds | Measure::ExpectedDeletes => "expectations",
        Measure::Reconciles | Measure::Requeues | Measure::TerminalErrors => "workqueue",
        Measure::HeldReads | Measure::LastWriteMs => "reconcile",
        Measure::Broken => "invariants",
        Measure::Requests | Measure::Errors | Measure::ExitCode | Measure::CreatesAfterDelete | Measure::StaleSyncSkips => "reconcile",
    }
}

impl Ui {
    /// The lesson's answers for the scenario on the page, computed once per scenario.
    fn lesson_outcomes(&self) -> Result<Vec<StepOutcome>, String> {
        let scenario = self.session.with_untracked(vl::lesson_scenario);
        if let Some((for_scenario, outcomes)) = self.lesson_cache.with_value(|c| c.clone()) {
            if for_scenario == scenario {
                return outcomes;
            }
        }
        let outcomes = vl::verify(&scenario).map_err(|e| e.to_string());
        self.lesson_cache.set_value(Some((scenario, outcomes.clone())));
        outcomes
    }

    /// Start (or resume) the lesson at `step`, asking.
    pub(super) fn start_lesson(&self, step: usize) {
        let steps = self.session.with_untracked(|s| s.scenario().lesson.len());
        if steps == 0 {
            return;
        }
        self.lesson.set(Some(LessonRun::at(step, steps)));
        if step == 0 {
            self.lesson_written.set(Vec::new());
        }
        self.ask();
    }

    /// The lesson's current step asks for a change of `path` (its `set`).
    pub(super) fn lesson_waits_for(&self, path: &str) -> bool {
        let Some(step) = self.lesson.with_untracked(|l| l.as_ref().filter(|l| l.phase == Phase::Ask).map(|l| l.step)) else {
            return false;
        };
        self.session.with_untracked(|s| s.scenario().lesson.get(step).is_some_and(|st| st.set.contains_key(path)))
    }

    /// The run was made again from frame 0 with a change: a step asking
    /// asks again there (the change it waited for is made).
    pub(super) fn lesson_after_change(&self) {
        if self.lesson.with_untracked(|l| l.as_ref().is_some_and(|l| l.phase == Phase::Ask)) {
            self.ask();
        }
    }

    /// Leave the lesson: the page as it is, the region offering to start again.
    pub(super) fn leave_lesson(&self) {
        self.lesson.set(None);
        self.lesson_lit.set(None);
        self.stop_at.set_value(None);
    }

    /// Ask the current step where it is asked: its `ask_at`, or the
    /// previous step's frame (frame 0 for the first, and for a step that
    /// asks for a change, whose run starts again), before the run shows the
    /// answer.
    fn ask(&self) {
        let Some(run) = self.lesson.get_untracked() else { return };
        self.lesson_lit.set(None);
        let scenario = self.session.with_untracked(|s| s.scenario().clone());
        let Some(step) = scenario.lesson.get(run.step) else { return };
        let missing = self.session.with_untracked(|s| vl::settings_missing(step, s));
        if missing.is_empty() {
            let from = self.lesson_outcomes().ok().and_then(|o| o.get(run.step).map(|o| o.ask_frame as usize)).unwrap_or(0);
            self.pause();
            self.seek(from);
        }
        let label = words::step_label(run.step, scenario.lesson.len());
        let said = if missing.is_empty() { step.ask.clone() } else { format!("{} {}", step.ask, words::waiting(&missing)) };
        self.lesson_said.set(format!("{label}. {said}"));
        focus_soon(*self, ".lesson-answer input, .lesson-answer button");
    }

    /// The learner answers: recorded against the run, posted to the host,
    /// and the run plays to the step's frame.
    fn check(&self, response: Response) {
        let Some(mut run) = self.lesson.get_untracked() else { return };
        let scenario = self.session.with_untracked(|s| s.scenario().clone());
        let outcomes = match self.lesson_outcomes() {
            Ok(o) => o,
            Err(e) => {
                // Said where it is seen, not only to a screen reader.
                let said = words::check_failed(&e);
                self.lesson_said.set(said.clone());
                self.problems.update(|p| {
                    if !p.contains(&said) {
                        p.push(said);
                    }
                });
                return;
            }
        };
        let (Some(step), Some(outcome)) = (scenario.lesson.get(run.step), outcomes.get(run.step)) else { return };
        let answered = run.answer(step, outcome, response);
        let said = |r: Response| match r {
            Response::Number(n) => host::Said::Number(n),
            Response::Choice(_) => host::Said::Text(vl::response_text(step, r)),
        };
        let expected = match outcome.choice {
            Some(_) => host::Said::Text(vl::expected_text(step, outcome)),
            None => host::Said::Number(outcome.answer),
        };
        post_to_parent(*self, &host::lesson_answered(run.step + 1, &said(response), &expected, answered.correct));
        // A notice about the change the step waited for has said its piece: the run now speaks.
        self.notice.set(None);
        if run.step + 1 == run.answers.len() {
            let (raw, max) = run.score();
            post_to_parent(*self, &host::lesson_completed(raw, max));
        }
        self.lesson.set(Some(run));
        self.play_to(outcome.frame as usize);
    }

    /// Play to `frame` and reveal there; at once when motion is reduced, or
    /// when the page is already there or past it.
    fn play_to(&self, frame: usize) {
        let position = self.session.with_untracked(|s| s.position());
        if self.reduced_motion.get_value() || position >= frame {
            self.pause();
            self.seek(frame);
            self.reveal();
            return;
        }
        self.stop_at.set_value(Some(frame));
        self.lesson_said.set(format!("Playing to frame {frame}…"));
        if !self.playing.get_untracked() {
            self.toggle_play();
        }
        focus_soon(*self, ".lesson-skip");
    }

    /// Playback reached the frame a lesson step plays to.
    pub(super) fn arrived(&self) {
        if self.lesson.with_untracked(|l| l.as_ref().is_some_and(|l| l.phase == Phase::Play)) {
            self.reveal();
        }
    }

    /// The reveal: the verdict, why, the panel concerned lit.
    fn reveal(&self) {
        self.stop_at.set_value(None);
        let Some(mut run) = self.lesson.get_untracked() else { return };
        let scenario = self.session.with_untracked(|s| s.scenario().clone());
        let (Some(step), Ok(outcomes)) = (scenario.lesson.get(run.step), self.lesson_outcomes()) else { return };
        let Some(outcome) = outcomes.get(run.step) else { return };
        run.phase = Phase::Reveal;
        let verdict = verdict_of(step, outcome, &run);
        let lit = panel_of(&step.answer);
        self.lesson_lit.set(Some(lit));
        show_lit(lit);
        self.lesson.set(Some(run));
        self.lesson_said.set(format!("{verdict} {}", outcome.reveal));
        focus_soon(*self, ".lesson-next");
    }

    fn next_step(&self) {
        let Some(mut run) = self.lesson.get_untracked() else { return };
        run.next();
        let done = run.phase == Phase::Done;
        self.lesson.set(Some(run.clone()));
        if done {
            self.lesson_lit.set(None);
            let (raw, max) = run.score();
            self.lesson_said.set(words::completed(raw, max));
            focus_soon(*self, ".lesson-again");
        } else {
            self.ask();
        }
    }
}

/// The verdict sentence for the current step's answer.
fn verdict_of(step: &LessonStep, outcome: &StepOutcome, run: &LessonRun) -> String {
    let Some(a) = run.answers.get(run.step).copied().flatten() else { return String::new() };
    words::verdict(&vl::response_text(step, a.response), &vl::expected_text(step, outcome), outcome.choice.is_some(), a.correct)
}

/// Focus the first element matching `selector` once the view has drawn it,
/// the step's text scrolled back to its top: the question and the reveal
/// start there, and what goes on from here stays in view below it. Then a
/// host page hears the height the step needs (a reveal asks for more).
fn focus_soon(ui: Ui, selector: &'static str) {
    request_animation_frame(move || {
        super::bridge::report_needed_height(ui);
        if let Some(el) = document().query_selector(selector).ok().flatten().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
        if let Some(body) = document().query_selector(".lesson-body").ok().flatten() {
            body.set_scroll_top(0);
        }
    });
}

/// Bring the panel a reveal lights into view, where the stage scrolls (a
/// phone's stacked panels); elsewhere it is in view already.
fn show_lit(panel: &'static str) {
    request_animation_frame(move || {
        if let Some(el) = document().query_selector(&format!(".grid > .panel.{panel}")).ok().flatten() {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Nearest);
            el.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
}

/// The Lesson region: "Start the lesson" when the scenario has one, then each step.
#[component]
pub(super) fn LessonRegion() -> impl IntoView {
    let ui = use_ui();
    let steps = Memo::new(move |_| ui.session.with(|s| s.scenario().lesson.len()));
    move || {
        let n = steps.get();
        (n > 0).then(|| match ui.lesson.get().is_some() {
            false => Either::Left(view! {
                <section class="lesson idle" aria-label="Lesson">
                    <p>
                        <strong>"Lesson"</strong>
                        <span class="lesson-about">{format!(" · {n} steps; each asks you to predict before the run shows you.")}</span>
                    </p>
                    <button class="lesson-start" on:click=move |_| ui.start_lesson(0)>"Start the lesson"</button>
                </section>
            }),
            true => Either::Right(view! { <ActiveLesson /> }),
        })
    }
}

#[component]
fn ActiveLesson() -> impl IntoView {
    let ui = use_ui();
    let scenario = Memo::new(move |_| ui.session.with(|s| s.scenario().clone()));
    // Redrawn when the step or its phase changes, not when an answer is kept.
    let at = Memo::new(move |_| ui.lesson.with(|l| l.as_ref().map_or((0, Phase::Ask), |l| (l.step, l.phase))));
    let run = move || ui.lesson.get_untracked().unwrap_or_else(|| LessonRun::at(0, 0));
    let step = move || {
        let (i, _) = at.get();
        scenario.with(|s| s.lesson.get(i).cloned())
    };
    let label = move || {
        let (i, phase) = at.get();
        let n = scenario.with(|s| s.lesson.len());
        if phase == Phase::Done {
            format!("{n} of {n} done")
        } else {
            words::step_label(i, n)
        }
    };
    // The verdict stays in view above the reveal, which scrolls under it.
    let verdict = move || {
        let (i, phase) = at.get();
        let step = step()?;
        let r = run();
        match phase {
            Phase::Reveal => {
                let outcome = ui.lesson_outcomes().ok().and_then(|o| o.get(i).cloned())?;
                let correct = r.answers.get(i).copied().flatten().is_some_and(|a| a.correct);
                Some(view! { <p class="verdict" class:right=correct class:wrong=!correct>{verdict_of(&step, &outcome, &r)}</p> }.into_any())
            }
            Phase::Done => {
                let (raw, max) = r.score();
                Some(view! { <p class="verdict">{words::completed(raw, max)}</p> }.into_any())
            }
            Phase::Ask | Phase::Play => None,
        }
    };
    let body = move || {
        let (i, phase) = at.get();
        let Some(step) = step() else { return view! { <p>"This lesson has no step here."</p> }.into_any() };
        match phase {
            Phase::Ask => view! { <Ask step /> }.into_any(),
            Phase::Play => view! {
                <p class="ask">{step.ask.clone()}</p>
                <p class="lesson-playing">"The run plays to the step's frame…"</p>
            }
            .into_any(),
            Phase::Reveal => {
                let outcome = ui.lesson_outcomes().ok().and_then(|o| o.get(i).cloned());
                let prompt = step.prompt.clone().map(|prompt| view! { <Written step=i prompt /> });
                view! {
                    <p class="reveal">{outcome.as_ref().map(|o| o.reveal.clone())}</p>
                    {outcome.and_then(|o| o.table).map(table_view)}
                    {prompt}
                }
                .into_any()
            }
            Phase::Done => {
                view! { <p>"Your notes keep every figure and sentence: copy them as Markdown for your write-up."</p> }.into_any()
            }
        }
    };
    // What goes on from here, always in view below the step.
    let foot = move || {
        let (i, phase) = at.get();
        match phase {
            Phase::Ask => None,
            Phase::Play => Some(
                view! {
                    <button class="lesson-skip" on:click=move |_| {
                        let frame = ui.stop_at.get_value();
                        ui.pause();
                        if let Some(f) = frame {
                            ui.seek(f);
                        }
                        ui.reveal();
                    }>"Show the answer now"</button>
                }
                .into_any(),
            ),
            Phase::Reveal => {
                let last = i + 1 == run().answers.len();
                Some(view! { <button class="lesson-next" on:click=move |_| ui.next_step()>{if last { "Finish" } else { "Next step" }}</button> }.into_any())
            }
            Phase::Done => {
                Some(view! { <button class="lesson-again" on:click=move |_| ui.start_lesson(0)>"Start again"</button> }.into_any())
            }
        }
    };
    let notes_open = RwSignal::new(false);
    view! {
        <section class="lesson active" aria-label="Lesson">
            <header class="lesson-head">
                <h2 class="lesson-tag">"Lesson · " <span class="lesson-step">{label}</span></h2>
                <NotesButton scenario open=notes_open />
                <button class="lesson-leave" aria-label="Leave the lesson" title="Leave the lesson" on:click=move |_| ui.leave_lesson()>"×"</button>
            </header>
            {verdict}
            <div class="lesson-body" tabindex="-1">{body}</div>
            {move || foot().map(|f| view! { <div class="lesson-foot">{f}</div> })}
            <div class="sr-only" aria-live="polite" aria-atomic="true">{move || ui.lesson_said.get()}</div>
            {move || notes_open.get().then(|| view! { <NotesDialog scenario close=Callback::new(move |()| notes_open.set(false)) /> })}
        </section>
    }
}

/// The question, and the field or choices to answer it in; a step that asks
/// for a change says what it waits for instead, until the run has it.
#[component]
fn Ask(step: LessonStep) -> impl IntoView {
    let ui = use_ui();
    let set_step = step.clone();
    let missing = Memo::new(move |_| ui.session.with(|s| vl::settings_missing(&set_step, s)));
    // The change made (with the page's control, at the run's end or with
    // "Apply from the start"): the run starts again, and the step asks there.
    Effect::new(move |was: Option<bool>| {
        let waiting = !missing.with(Vec::is_empty);
        if was == Some(true) && !waiting {
            ui.ask();
        }
        waiting
    });
    let error = RwSignal::new(None::<String>);
    let typed = RwSignal::new(String::new());
    let chosen = RwSignal::new(None::<usize>);
    let choices = step.choices.clone();
    let is_choice = !choices.is_empty();
    let submit = move |e: leptos::ev::SubmitEvent| {
        e.prevent_default();
        let response = if is_choice {
            chosen.get_untracked().map(Response::Choice)
        } else {
            vl::parse_prediction(&typed.get_untracked()).map(Response::Number)
        };
        match response {
            Some(r) => ui.check(r),
            None => error.set(Some(if is_choice { "Choose one first.".into() } else { "Type a number, like 4.".into() })),
        }
    };
    // Without the settings on the page (an embed shows the transport only, unless controls=all), a button makes the change.
    let controls_hidden = {
        use crate::view::url::ControlsMode;
        let mode = ui.layout.with_value(|l| l.controls).unwrap_or(if ui.embed.get_untracked() {
            ControlsMode::Transport
        } else {
            ControlsMode::All
        });
        mode != ControlsMode::All
    };
    // On a phone the settings fold into a popover: a button opens it, where the change is the learner's to make.
    let settings_folded = !controls_hidden && super::popover::compact();
    view! {
        <p class="ask" id="lesson-ask">{step.ask.clone()}</p>
        {move || {
            let m = missing.get();
            (!m.is_empty()).then(|| {
                let todo = m.clone();
                // A field of the recipe is changed in its editor, in the full page and the embed alike.
                let in_recipe = m.iter().any(|(p, _)| crate::scenario::lesson::is_recipe_field(p));
                let (settings_folded, controls_hidden) = (settings_folded && !in_recipe, controls_hidden && !in_recipe);
                view! {
                    <p class="waiting" role="status">{words::waiting(&m)}</p>
                    {in_recipe.then(|| view! {
                        <button class="lesson-answer" aria-haspopup="dialog" on:click=move |_| ui.editor_open.set(true)>"Open Your controller"</button>
                    })}
                    {settings_folded.then(|| view! {
                        <button class="lesson-answer" on:click=move |_| open_settings()>"Open Settings"</button>
                    })}
                    {controls_hidden.then(|| view! {
                        <button class="lesson-answer" on:click=move |_| {
                            for (path, value) in &todo {
                                ui.restart_with(path, value, &format!("{path} set to {value}"));
                            }
                        }>"Make the change"</button>
                    })}
                }
            })
        }}
        <form class="lesson-answer" on:submit=submit hidden=move || !missing.with(Vec::is_empty)>
            {if is_choice {
                Either::Left(view! {
                    <fieldset class="choices">
                        <legend class="sr-only">{step.ask.clone()}</legend>
                        {choices.into_iter().enumerate().map(|(i, c)| view! {
                            <label>
                                <input type="radio" name="lesson-choice" on:change=move |_| { chosen.set(Some(i)); error.set(None); } />
                                {c.text}
                            </label>
                        }).collect_view()}
                    </fieldset>
                })
            } else {
                Either::Right(view! {
                    <label for="prediction">"Your prediction"</label>
                    <input
                        id="prediction"
                        type="text"
                        inputmode="numeric"
                        autocomplete="off"
                        aria-describedby="lesson-ask"
                        aria-invalid=move || error.with(Option::is_some).to_string()
                        prop:value=move || typed.get()
                        on:input=move |e| { typed.set(event_target_value(&e)); error.set(None); }
                    />
                })
            }}
            <button type="submit">"Check"</button>
            {move || error.get().map(|e| view! { <span class="lesson-error" role="alert">{e}</span> })}
        </form>
    }
}

/// A step's table (the lab's comparison), its cells filled in by the run.
fn table_view(t: lesson::LessonTable) -> impl IntoView {
    let columns = t.columns.clone();
    view! {
        <table class="lesson-table">
            <thead><tr>{t.columns.into_iter().map(|c| view! { <th scope="col">{c}</th> }).collect_view()}</tr></thead>
            <tbody>
                {t.rows.into_iter().map(|row| {
                    let mut cells = row.into_iter();
                    let head = cells.next().unwrap_or_default();
                    // Each cell names its column, for the narrow stage where the rows stack.
                    let named = cells.zip(columns.clone().into_iter().skip(1)).map(|(c, col)| view! { <td data-column=col>{c}</td> });
                    view! { <tr><th scope="row">{head}</th>{named.collect_view()}</tr> }
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// "Your notes (n)": opens the notes, once a step has written one.
#[component]
fn NotesButton(scenario: Memo<Scenario>, open: RwSignal<bool>) -> impl IntoView {
    let ui = use_ui();
    let count = move || {
        let run = ui.lesson.get()?;
        let outcomes = ui.lesson_outcomes().ok()?;
        let n = scenario.with(|s| vl::notes(s, &outcomes, &run).len() + vl::prompts(s, &run, &[]).len());
        (n > 0).then_some(n)
    };
    move || {
        count().map(|n| {
            view! {
                <button class="lesson-notes" aria-haspopup="dialog" on:click=move |_| open.set(true)>{format!("Your notes ({n})")}</button>
            }
        })
    }
}

/// What the learner writes in their own words for a step's `prompt`, kept
/// for the notes (and their Markdown).
#[component]
fn Written(
    step: usize,
    prompt: String,
    /// Its field's id, distinct where the notes' dialog shows it again over the step.
    #[prop(default = "written")]
    place: &'static str,
) -> impl IntoView {
    let ui = use_ui();
    let id = format!("{place}-{step}");
    let value = move || ui.lesson_written.with(|w| w.get(step).cloned().unwrap_or_default());
    view! {
        <div class="written">
            <label for=id.clone()>{prompt}</label>
            <textarea
                id=id
                rows="2"
                prop:value=value
                on:input=move |e| {
                    let text = event_target_value(&e);
                    ui.lesson_written.update(|w| {
                        if w.len() <= step {
                            w.resize(step + 1, String::new());
                        }
                        w[step] = text;
                    });
                }
            ></textarea>
        </div>
    }
}

/// "Your notes": the `write` rows so far, the learner's prediction beside
/// the run's figure, the lab's tables and the learner's own sentences, in a
/// dialog of the page's width, copied as Markdown for the lab's write-up.
#[component]
fn NotesDialog(scenario: Memo<Scenario>, close: Callback<()>) -> impl IntoView {
    let ui = use_ui();
    let run = ui.lesson.get_untracked().unwrap_or_else(|| LessonRun::at(0, 0));
    let outcomes = ui.lesson_outcomes().unwrap_or_default();
    let rows = scenario.with_untracked(|s| vl::notes(s, &outcomes, &run));
    let tables = vl::tables(&outcomes, &run);
    let prompts = scenario.with_untracked(|s| vl::prompts(s, &run, &[]));
    let name = scenario.with_untracked(|s| s.name.clone());
    let copied = RwSignal::new(None::<Result<(), String>>);
    let markdown = {
        let (rows, tables) = (rows.clone(), tables.clone());
        move || {
            let written = ui.lesson_written.get_untracked();
            let prompts = scenario.with_untracked(|s| vl::prompts(s, &run, &written));
            vl::notes_markdown(&name, &rows, &tables, &prompts)
        }
    };
    view! {
        <Modal labelled_by="notes-title" class="notes-dialog" close>
            <h2 id="notes-title">"Your notes"</h2>
            // The actions first: in view as the dialog opens, on a phone too.
            <div class="dialog-actions">
                <button on:click=move |_| close.run(())>"Close"</button>
                <button on:click=move |_| {
                    let text = markdown();
                    let kept = text.clone();
                    super::share::write_clipboard(text, move |ok| copied.set(Some(if ok { Ok(()) } else { Err(kept) })));
                }>"Copy as Markdown"</button>
                {move || copied.get().map(|c| match c {
                    Ok(()) => Either::Left(view! { <span role="status">"Copied."</span> }),
                    Err(md) => Either::Right(view! {
                        <label class="by-hand">"The clipboard is not available here: copy this by hand."
                            <textarea readonly rows="4">{md}</textarea>
                        </label>
                    }),
                })}
            </div>
            {(!rows.is_empty()).then(|| view! {
                <table class="notes-rows">
                    <thead><tr><th scope="col">""</th><th scope="col">"You predicted"</th><th scope="col">"The run"</th></tr></thead>
                    <tbody>
                        {rows.into_iter().map(|r| view! {
                            <tr><th scope="row">{r.label}</th><td>{r.predicted.unwrap_or_else(|| "–".into())}</td><td>{r.measured}</td></tr>
                        }).collect_view()}
                    </tbody>
                </table>
            })}
            {tables.into_iter().map(table_view).collect_view()}
            {prompts.into_iter().map(|p| view! { <Written step=p.step prompt=p.prompt place="notes-written" /> }).collect_view()}
        </Modal>
    }
}

/// Open the settings popover (a phone's folded settings bar), its summary
/// scrolled into view, for a step that waits for the learner's change.
fn open_settings() {
    let settings = document().query_selector("details.settings").ok().flatten();
    if let Some(details) = settings.and_then(|e| e.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
        details.set_open(true);
        details.scroll_into_view();
    }
}

thread_local! {
    /// The worker checking a lesson while it does, and its check's number:
    /// a reply belongs to the latest check only.
    static CHECKER: std::cell::RefCell<(u64, Option<super::find::Running>)> = const { std::cell::RefCell::new((0, None)) };
}

impl Ui {
    /// Check the scenario's lesson whole, as `cachescope check` does, in a
    /// worker (a custom scenario's runs can be long): "Check this lesson",
    /// and every custom scenario the page opens. A step the run contradicts
    /// is named in the banner, before a learner meets it.
    pub(super) fn check_lesson(&self) {
        let scenario = self.session.with_untracked(|s| (!s.scenario().lesson.is_empty()).then(|| vl::lesson_scenario(s).to_value()));
        let Some(scenario) = scenario else {
            self.lesson_check.set(None);
            return;
        };
        self.lesson_check.set(Some(vl::LessonCheck::Checking));
        let ui = *self;
        let generation = CHECKER.with(|c| {
            let mut c = c.borrow_mut();
            c.0 += 1;
            c.0
        });
        let running = super::find::spawn(&crate::view::find::Task::CheckLesson { scenario }, move |reply| {
            use crate::view::find::Reply;
            let checked = match reply {
                Ok(Reply::LessonChecked { steps, failure: None }) => vl::LessonCheck::Held { steps },
                Ok(Reply::LessonChecked { failure: Some(f), .. }) => vl::LessonCheck::Contradicted(f),
                Ok(Reply::Failed(why)) | Err(why) => vl::LessonCheck::Unavailable(why),
                Ok(_) => return,
            };
            // Not from inside the worker's handler: dropping it ends the worker.
            request_animation_frame(move || {
                let latest = CHECKER.with(|c| {
                    let mut c = c.borrow_mut();
                    let latest = c.0 == generation;
                    if latest {
                        c.1 = None;
                    }
                    latest
                });
                if !latest {
                    return;
                }
                if let vl::LessonCheck::Contradicted(f) = &checked {
                    let said = words::check_failed(f);
                    ui.problems.update(|p| {
                        if !p.contains(&said) {
                            p.push(said.clone());
                        }
                    });
                }
                ui.lesson_check.set(Some(checked));
            });
        });
        match running {
            Ok(r) => CHECKER.with(|c| c.borrow_mut().1 = Some(r)),
            Err(why) => self.lesson_check.set(Some(vl::LessonCheck::Unavailable(why))),
        }
    }
}

/// "Check this lesson", for a course author: the whole lesson against the
/// run, as `cachescope check` does, with no toolchain but the page.
#[component]
pub fn CheckThisLesson() -> impl IntoView {
    let ui = use_ui();
    let has_lesson = Memo::new(move |_| ui.session.with(|s| !s.scenario().lesson.is_empty()));
    move || {
        has_lesson.get().then(|| {
            view! {
                <div class="check-lesson">
                    <button
                        on:click=move |_| ui.check_lesson()
                        prop:disabled=move || ui.lesson_check.with(|c| matches!(c, Some(vl::LessonCheck::Checking)))
                    >
                        "Check this lesson"
                    </button>
                    <p role="status">
                        {move || ui.lesson_check.get().map(|c| match c {
                            vl::LessonCheck::Checking => "Checking every step against the run…".to_string(),
                            vl::LessonCheck::Held { steps } => words::check_held(steps),
                            vl::LessonCheck::Contradicted(f) => words::check_failed(&f),
                            vl::LessonCheck::Unavailable(why) => words::check_unavailable(&why),
                        })}
                    </p>
                </div>
            }
        })
    }
}
