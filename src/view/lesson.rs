//! A lesson as the page runs it, as plain values: which step, what the
//! learner answered and whether the run agrees, the notes they collect and
//! their score. The answers come from [`crate::scenario::lesson::play`];
//! this only keeps the learner's side.
//!
//! A step goes Ask → Play → Reveal: the question is asked where the learner
//! stands (the previous step's frame, or frame 0), before the run shows it;
//! Check plays the run to the step's frame and pauses there; the reveal says
//! what the learner said, what the run says and why.

use crate::scenario::lesson::{play, stated_figures, LessonFailure};
use crate::scenario::{LessonStep, Scenario, StepOutcome};
use crate::view::panels::{observations, session_caption};
use crate::view::session::Session;

/// The caption while a lesson's question is open (or the run plays to its
/// answer): the frame's own words, but at frame 0 not the preset's first
/// line, which names the change a later step asks for.
pub fn asking_caption(s: &Session) -> String {
    if s.position() == 0 {
        crate::narrate::lesson::AT_START.to_string()
    } else {
        session_caption(s)
    }
}

/// What the screen says in words while a question is open, as the page
/// shows it: the caption, and the Observations panel's counts (its checks
/// wait until the learner has answered). Each with the name of its place.
pub fn asking_words(s: &Session) -> Vec<(&'static str, String)> {
    vec![("the caption", asking_caption(s)), ("Observations", observations(s.world()).words())]
}

/// Play a lesson ([`play`]) and hold each step to its promise, *predict,
/// then look*: at the frame its question is asked, nothing the page says
/// in words (caption, Observations) states the answer. A figure equal to
/// the answer states it only where the answer's measure still reads
/// otherwise at that frame, and that figure is none of the present's counts
/// (what each kind the run has holds in the cluster and the cache, the
/// Observations' tallies): such a figure speaks of what is to come ("the
/// cluster will hold 8"), not of what is. (Observations, its checks
/// hidden while asking, states only tallies: it is checked all the same,
/// so that a forecast added there would be caught.) What `cachescope check`, the runner's report and the page's
/// lesson all read.
pub fn verify(scenario: &Scenario) -> Result<Vec<StepOutcome>, LessonFailure> {
    let outcomes = play(scenario)?;
    let mut runs: Vec<(&std::collections::BTreeMap<String, String>, Session)> = Vec::new();
    for (j, (step, outcome)) in scenario.lesson.iter().zip(&outcomes).enumerate() {
        let fail = |message: String| LessonFailure { step: format!("lesson[{j}]"), message };
        let at = match runs.iter().position(|(settings, _)| *settings == &outcome.settings) {
            Some(at) => at,
            None => {
                let run = scenario
                    .with_settings(outcome.settings.iter().map(|(p, v)| (p.as_str(), v.as_str())))
                    .map_err(|e| fail(e.to_string()))?;
                runs.push((&outcome.settings, Session::new(run)));
                runs.len() - 1
            }
        };
        let session = &mut runs[at].1;
        session.seek(outcome.ask_frame as usize);
        let now = step.answer.measure(session.world(), &session.frames()[..session.position()]);
        if now == Some(outcome.answer) {
            continue;
        }
        // The present's counts: what each kind the run has holds in the
        // cluster and in the cache, and the Observations' tallies so far.
        let w = session.world();
        let kinds = w.kinds.iter().copied().filter(|&k| w.api.live_count(k) > 0 || w.controller_informer(k).is_some());
        let mut present: Vec<u64> =
            kinds.flat_map(|k| [w.api.live_count(k), w.controller_informer(k).map_or(0, |i| i.len() as u64)]).collect();
        present.extend(stated_figures(&observations(w).words()));
        for (place, words) in asking_words(session) {
            // A figure that is none of the present's counts speaks of what is to come.
            let forecast = stated_figures(&words).into_iter().filter(|n| !present.contains(n));
            if forecast.into_iter().any(|n| n == outcome.answer) {
                return Err(fail(crate::narrate::lesson::answer_on_screen(outcome.answer, place, &words)));
            }
        }
    }
    Ok(outcomes)
}

/// A lesson checked whole against its run, as `cachescope check` does (the
/// page runs [`verify`] in its worker, `view::find::Task::CheckLesson`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LessonCheck {
    Checking,
    /// Every step holds.
    Held {
        steps: usize,
    },
    /// The first step the run contradicts, named (`lesson[2]: …`).
    Contradicted(String),
    /// It could not be checked here (no worker could start): why.
    Unavailable(String),
}

/// A counterexample of `scenario` ([`crate::explore::counterexample`]), with
/// its lesson only if the counterexample's run holds to it ([`verify`]):
/// the lesson was written for the run without the schedule, and a learner
/// must not be told what this run contradicts. What `cachescope explore
/// --out` writes and the page's Find a bug loads.
pub fn counterexample(scenario: &Scenario, v: &crate::explore::Counterexample) -> Result<Scenario, crate::scenario::ScenarioError> {
    let mut c = crate::explore::counterexample(scenario, v)?;
    if verify(&c).is_err() {
        c.lesson.clear();
        // The controls a lesson's steps used stay: they are still the story's.
    }
    Ok(c)
}

/// What the learner answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Response {
    Number(u64),
    /// A choice, 0-based.
    Choice(usize),
}

/// One answered step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answered {
    pub response: Response,
    pub correct: bool,
}

/// Where a step is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The question, before the run shows its answer.
    Ask,
    /// Checked: the run plays to the step's frame.
    Play,
    /// At the frame: what the learner said, what the run says, why.
    Reveal,
    /// Every step answered.
    Done,
}

/// The lesson in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonRun {
    /// The step, 0-based.
    pub step: usize,
    pub phase: Phase,
    /// Each step's answer, once given.
    pub answers: Vec<Option<Answered>>,
}

impl LessonRun {
    /// The lesson at `step` (from `step=`), asking.
    pub fn at(step: usize, steps: usize) -> LessonRun {
        LessonRun { step: step.min(steps.saturating_sub(1)), phase: Phase::Ask, answers: vec![None; steps] }
    }

    /// Record the learner's answer to the current step against the run's.
    pub fn answer(&mut self, step: &LessonStep, outcome: &StepOutcome, response: Response) -> Answered {
        let answered = Answered { response, correct: is_right(step, outcome, response) };
        if let Some(slot) = self.answers.get_mut(self.step) {
            *slot = Some(answered);
        }
        self.phase = Phase::Play;
        answered
    }

    /// On to the next step, or done after the last.
    pub fn next(&mut self) {
        if self.step + 1 < self.answers.len() {
            self.step += 1;
            self.phase = Phase::Ask;
        } else {
            self.phase = Phase::Done;
        }
    }

    /// A question is open: asked, or the run plays to its answer.
    pub fn asking(&self) -> bool {
        matches!(self.phase, Phase::Ask | Phase::Play)
    }

    /// Right answers, and steps: the score a course platform records.
    pub fn score(&self) -> (usize, usize) {
        (self.answers.iter().flatten().filter(|a| a.correct).count(), self.answers.len())
    }
}

/// Is `response` the run's answer?
pub fn is_right(step: &LessonStep, outcome: &StepOutcome, response: Response) -> bool {
    match (response, outcome.choice) {
        (Response::Number(n), None) => n == outcome.answer,
        (Response::Choice(c), Some(right)) => c == right && c < step.choices.len(),
        _ => false,
    }
}

/// The response as the learner gave it: the number, or the choice's text.
pub fn response_text(step: &LessonStep, response: Response) -> String {
    match response {
        Response::Number(n) => n.to_string(),
        Response::Choice(c) => step.choices.get(c).map_or_else(String::new, |c| c.text.clone()),
    }
}

/// The run's answer as the learner reads it: the number, or the right choice's text.
pub fn expected_text(step: &LessonStep, outcome: &StepOutcome) -> String {
    match outcome.choice {
        Some(c) => step.choices.get(c).map_or_else(String::new, |c| c.text.clone()),
        None => outcome.answer.to_string(),
    }
}

/// A typed prediction read as a number: digits, thousands separators and
/// blanks allowed ("1,000"); anything else is no prediction.
pub fn parse_prediction(text: &str) -> Option<u64> {
    let digits: String = text.chars().filter(|c| !matches!(c, ',' | ' ' | '_' | '\u{a0}')).collect();
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())).then(|| digits.parse().ok()).flatten()
}

/// A step's `set` the page's run does not have from frame 0 yet: each
/// `(path, value)` still to make (empty: the step may ask). A change made at
/// frame 0 counts; one made later forks the run there, and does not.
pub fn settings_missing(step: &LessonStep, session: &Session) -> Vec<(String, String)> {
    let doc = session.scenario().to_value();
    step.set
        .iter()
        .map(|(p, v)| (p.clone(), crate::scenario::lesson::raw(v)))
        .filter(|(path, want)| {
            // A field of the recipe, a step list included, is had when making the change would change nothing.
            if crate::scenario::lesson::is_recipe_field(path) {
                let now = crate::scenario::get_path(&doc, path);
                let made = session.scenario().with_settings([(path.as_str(), want.as_str())]).ok().map(|s| s.to_value());
                let after = made.as_ref().and_then(|m| crate::scenario::get_path(m, path));
                // A path the recipe no longer has (its step moved away) is not had.
                return now.is_none() || after.is_none() || after != now;
            }
            let mut from_start = crate::scenario::get_path(&doc, path).map(crate::scenario::lesson::raw);
            for (frame, p, value) in session.knob_edits() {
                if p == path.as_str() {
                    from_start = if frame == 0 { Some(value) } else { None };
                }
            }
            from_start.as_ref() != Some(want)
        })
        .collect()
}

/// The scenario a lesson's answers are computed on: the run as the page
/// makes it from the start (its scenario, and the changes made at frame 0),
/// but with the lab's own value for each setting the lesson changes, which
/// its steps make in turn ([`crate::scenario::lesson::play`]).
pub fn lesson_scenario(session: &Session) -> Scenario {
    let doc = session.base().to_value();
    let lab = session
        .scenario()
        .lesson
        .iter()
        .flat_map(|st| st.set.keys())
        .filter_map(|p| crate::scenario::get_path(&doc, p).map(|v| (p.as_str(), crate::scenario::lesson::raw(v))));
    let mine = session.knob_edits().filter(|(f, _, _)| *f == 0).map(|(_, p, v)| (p, v));
    let edits: Vec<(&str, String)> = mine.chain(lab).collect();
    // The recipe's fields go back to the lab's together (with_settings checks them so): the learner's fix may have made them hold only together.
    session.scenario().with_settings(edits.iter().map(|(p, v)| (*p, v.as_str()))).unwrap_or_else(|_| session.scenario().clone())
}

/// One row of the learner's notes: a step's `write` label, their prediction, the run's figure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteRow {
    pub label: String,
    pub predicted: Option<String>,
    pub measured: String,
}

/// The notes so far: a row for each step with a `write` the learner has reached the reveal of.
pub fn notes(scenario: &Scenario, outcomes: &[StepOutcome], run: &LessonRun) -> Vec<NoteRow> {
    let reached = |i: usize| i < run.step || (i == run.step && matches!(run.phase, Phase::Reveal | Phase::Done));
    scenario
        .lesson
        .iter()
        .zip(outcomes)
        .enumerate()
        .filter(|(i, (step, _))| step.write.is_some() && reached(*i))
        .map(|(i, (step, outcome))| NoteRow {
            label: step.write.clone().unwrap_or_default(),
            predicted: run.answers.get(i).copied().flatten().map(|a| response_text(step, a.response)),
            measured: expected_text(step, outcome),
        })
        .collect()
}

/// The tables of the steps the learner has reached the reveal of (the lab's comparisons), filled in by the run.
pub fn tables(outcomes: &[StepOutcome], run: &LessonRun) -> Vec<crate::scenario::lesson::LessonTable> {
    let reached = |i: usize| i < run.step || (i == run.step && matches!(run.phase, Phase::Reveal | Phase::Done));
    outcomes.iter().enumerate().filter(|(i, _)| reached(*i)).filter_map(|(_, o)| o.table.clone()).collect()
}

/// A step's `prompt` the learner has reached the reveal of: its index, the
/// prompt, and what they wrote so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub step: usize,
    pub prompt: String,
    pub written: String,
}

/// The prompts so far, with what the learner wrote for each step (`written`, by step).
pub fn prompts(scenario: &Scenario, run: &LessonRun, written: &[String]) -> Vec<Prompt> {
    let reached = |i: usize| i < run.step || (i == run.step && matches!(run.phase, Phase::Reveal | Phase::Done));
    scenario
        .lesson
        .iter()
        .enumerate()
        .filter(|(i, _)| reached(*i))
        .filter_map(|(i, st)| {
            let prompt = st.prompt.clone()?;
            Some(Prompt { step: i, prompt, written: written.get(i).cloned().unwrap_or_default() })
        })
        .collect()
}

/// The notes as Markdown, for the learner's write-up: the rows, each table,
/// then each prompt with what the learner wrote (or a blank line to fill).
pub fn notes_markdown(title: &str, rows: &[NoteRow], tables: &[crate::scenario::lesson::LessonTable], prompts: &[Prompt]) -> String {
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    let mut md = format!("### {}\n\n| | You predicted | The run |\n|---|---|---|\n", cell(title));
    for r in rows {
        md.push_str(&format!("| {} | {} | {} |\n", cell(&r.label), cell(r.predicted.as_deref().unwrap_or("–")), cell(&r.measured)));
    }
    for t in tables {
        md.push_str(&format!(
            "\n| {} |\n|{}\n",
            t.columns.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | "),
            "---|".repeat(t.columns.len())
        ));
        for row in &t.rows {
            md.push_str(&format!("| {} |\n", row.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | ")));
        }
    }
    for p in prompts {
        let written = p.written.trim();
        md.push_str(&format!("\n**{}**\n\n{}\n", p.prompt.trim(), if written.is_empty() { "_(to write)_" } else { written }));
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::lesson::play;
    use crate::scenario::preset;

    #[test]
    fn a_lesson_records_answers_against_the_run_and_scores_them() {
        let s = preset("over-create").unwrap();
        let outcomes = play(&s).unwrap();
        let mut run = LessonRun::at(0, s.lesson.len());
        let first = run.answer(&s.lesson[0], &outcomes[0], Response::Number(4));
        assert!(!first.correct, "reconcile 2 counts 0, not 4");
        assert_eq!(run.phase, Phase::Play);
        run.phase = Phase::Reveal;
        run.next();
        assert!(run.answer(&s.lesson[1], &outcomes[1], Response::Number(outcomes[1].answer)).correct);
        run.phase = Phase::Reveal;
        assert_eq!(run.score(), (1, s.lesson.len()));
        let rows = notes(&s, &outcomes, &run);
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!((rows[0].predicted.as_deref(), rows[0].measured.as_str()), (Some("4"), "0"));
        let written = vec![String::new(), "Ours names its children: 409s, not duplicates.".to_string()];
        let asked = prompts(&s, &run, &written);
        assert_eq!(asked.len(), 1, "step 2's prompt, reached");
        let md = notes_markdown("over-create", &rows, &tables(&outcomes, &run), &asked);
        assert!(md.ends_with(&format!("\n**{}**\n\nOurs names its children: 409s, not duplicates.\n", asked[0].prompt)), "{md}");
        let blank = notes_markdown("over-create", &rows, &[], &prompts(&s, &run, &[]));
        assert!(blank.ends_with("_(to write)_\n"), "an unwritten sentence is a blank to fill: {blank}");
        assert!(md.contains("| What reconcile 2 counts in its cache | 4 | 0 |"), "{md}");
        assert!(md.contains("| ConfigMaps with deterministic names | 4 | 4 |"), "{md}");
        // Step 2's table, the lab's comparison, with this run's figures in it.
        let conflicts = outcomes[1].figures["conflicts"];
        assert!(md.contains("|  | Deterministic names | ControllerExpectations |\n|---|---|---|"), "{md}");
        assert!(md.contains(&format!("{conflicts} repeated creates came back 409 AlreadyExists")), "{md}");
        // The last step's choice: right only for the one the run selects.
        let last = s.lesson.len() - 1;
        let right = outcomes[last].choice.unwrap();
        assert!(is_right(&s.lesson[last], &outcomes[last], Response::Choice(right)));
        assert!(!is_right(&s.lesson[last], &outcomes[last], Response::Choice((right + 1) % s.lesson[last].choices.len())));
        assert!(!is_right(&s.lesson[last], &outcomes[last], Response::Number(outcomes[last].answer)), "a choice step takes a choice");
    }

    #[test]
    fn predictions_read_as_numbers_or_not_at_all() {
        assert_eq!(parse_prediction(" 11 "), Some(11));
        assert_eq!(parse_prediction("1,000"), Some(1000));
        for bad in ["", "eleven", "-3", "2.5", "1e3"] {
            assert_eq!(parse_prediction(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_set_step_waits_for_the_setting_from_frame_0() {
        let s = preset("over-create").unwrap();
        let step = s.lesson.iter().find(|st| !st.set.is_empty()).unwrap();
        let lab = Session::new(s.clone());
        assert_eq!(settings_missing(step, &lab), vec![("controller.naming".to_string(), "generate".to_string())]);
        let changed = Session::new(s.with_settings([("controller.naming", "generate")]).unwrap());
        assert!(settings_missing(step, &changed).is_empty());
        // Chosen with the page's control at frame 0: from the start, so it counts.
        let knob = crate::scenario::settings::knob("controller.naming", crate::sim::settings::Val::Word("generate"));
        let mut at_start = Session::new(s.clone());
        at_start.apply(crate::view::session::Change::Knob(knob));
        assert!(settings_missing(step, &at_start).is_empty());
        // Chosen mid-run: the run forks there, so the step still waits.
        let mut mid = Session::new(s.clone());
        mid.seek(10);
        mid.apply(crate::view::session::Change::Knob(knob));
        assert_eq!(settings_missing(step, &mid).len(), 1);
        // The answers stay the lab's for the steps before the change, whatever the page runs now.
        let generated = Session::new(s.with_settings([("controller.naming", "generate"), ("cluster.watch_lag_ms", "2000")]).unwrap())
            .with_base(s.clone());
        let outcomes = play(&lesson_scenario(&generated)).unwrap();
        assert_eq!((outcomes[1].answer, outcomes[2].answer), (4, 11), "deterministic names, then GenerateName");
    }
}
