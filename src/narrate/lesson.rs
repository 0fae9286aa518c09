//! A lesson's own sentences: where the learner is, what they said against
//! what the run says, what a step waits for, and how it went.

use super::units::plural;

/// "Step 2 of 4".
pub fn step_label(step: usize, steps: usize) -> String {
    format!("Step {} of {steps}", step + 1)
}

/// The learner's answer against the run's, plainly: "You said 8; the run
/// says 11." For a choice, the choice's words.
pub fn verdict(said: &str, says: &str, choice: bool, correct: bool) -> String {
    let compared = if choice { format!("You chose: {said}. The run: {says}.") } else { format!("You said {said}; the run says {says}.") };
    let judged = if correct { "Right." } else { "Not this time; here is why." };
    format!("{compared} {judged}")
}

/// What a step that asks for a change waits for: each `(path, value)`.
pub fn waiting(missing: &[(String, String)]) -> String {
    // A whole part of the recipe (its steps) is named, not printed: the question says what to change.
    let list: Vec<String> = missing
        .iter()
        .map(|(p, v)| if v.starts_with(['[', '{']) { format!("{p}, as the question says") } else { format!("{p} = {v}") })
        .collect();
    // A field of the recipe is changed in its editor, not with a setting's control.
    let with = if missing.iter().any(|(p, _)| crate::scenario::lesson::is_recipe_field(p)) {
        "in Your controller (✎), its step's form, and Run"
    } else {
        "with the page's own control"
    };
    format!("Waiting for your change ({}) {with}; the run then starts again from frame 0.", list.join(", "))
}

/// The caption at frame 0 while a lesson is open, in place of the preset's
/// first line (which speaks of the changes later steps ask for).
pub const AT_START: &str =
    "Frame 0: nothing has happened yet. Answer the lesson's question; Check plays the run to the moment it is about.";

/// Why `cachescope check` refuses a step whose screen states its answer
/// while the question is open: where (`the caption`), and the words.
pub fn answer_on_screen(answer: u64, place: &str, words: &str) -> String {
    format!("while the question is open, {place} already states the answer, {answer}: \"{words}\"; ask before that moment (ask_at)")
}

/// A lesson checked whole, for its author: every step holds.
pub fn check_held(steps: usize) -> String {
    format!(
        "All {} hold against the run: every answer measured from it, no figure in a reveal it contradicts, and nothing on screen answers a question while it is open.",
        plural(steps as u64, "step", "steps")
    )
}

/// A lesson the run contradicts, for the banner and its author.
pub fn check_failed(failure: &str) -> String {
    format!("This scenario's lesson does not hold against its run: {failure}")
}

/// A lesson that could not be checked in the page, and why (no worker).
pub fn check_unavailable(why: &str) -> String {
    format!("The lesson could not be checked here: {why}. cachescope check checks it on the command line.")
}

/// The caption of a lesson's last step, once done, beside the score.
pub const DONE: &str = "Your notes keep every figure and sentence: copy them as Markdown for your write-up.";

/// What Observations says while a lesson's question is open.
pub const CHECKS_WAIT: &str = "The lab's figures wait until you have answered the lesson's question.";

/// The end of a lesson: "Lesson complete: 3 of your 4 answers matched the run."
pub fn completed(raw: usize, max: usize) -> String {
    format!("Lesson complete: {raw} of your {} matched the run.", plural(max as u64, "answer", "answers"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_says_both_figures_and_judges_plainly() {
        assert_eq!(verdict("8", "11", false, false), "You said 8; the run says 11. Not this time; here is why.");
        assert_eq!(verdict("11", "11", false, true), "You said 11; the run says 11. Right.");
        assert_eq!(completed(3, 4), "Lesson complete: 3 of your 4 answers matched the run.");
        assert_eq!(step_label(0, 4), "Step 1 of 4");
        assert!(waiting(&[("controller.naming".into(), "generate".into())]).contains("controller.naming = generate"));
    }
}
