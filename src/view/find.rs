//! "Can it go wrong?": the page's schedule search, as plain messages and words.
//!
//! The page runs [`crate::explore`] in a Web Worker (a second instance of the
//! page's own wasm, started by `scripts/explore-worker.js`), so the search
//! never blocks the main thread. They speak JSON text: the page posts a
//! [`Job`], the worker answers with [`Reply`]s (progress every
//! [`crate::explore::PROGRESS_EVERY`] states, then the outcome). Stop is the
//! page terminating the worker. Everything here is web-free: [`serve`] is the
//! worker's whole logic, tested natively; the words a learner reads are
//! [`progress_words`] and [`outcome_words`], which hand the search's counts
//! to the narration floor (`narrate::explore`).

use crate::explore::{explore_with, Exploration, Options};
use crate::narrate::explore::{self as words, FoundFacts, SearchFacts};
use crate::scenario::Scenario;
use crate::view::lesson::counterexample;
use serde::{Deserialize, Serialize};

/// What the page asks the worker to search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// The scenario as the page plays it (settings applied), as a document.
    pub scenario: serde_json::Value,
    /// The invariant to break; any, when `None`.
    pub invariant: Option<String>,
    /// The most watch events held back in one schedule.
    pub max_deviations: usize,
    /// The most states (frames simulated over every schedule) to search.
    pub budget: u64,
    /// Also try losing each event (a fault).
    #[serde(default)]
    pub drops: bool,
}

/// What the page asks its worker: a search, or a scenario's lesson checked
/// against its run (`crate::view::lesson::verify`, all of it, as `cachescope
/// check` does), off the main thread: a custom scenario's runs can be long.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    Search(Job),
    CheckLesson {
        scenario: serde_json::Value,
    },
    /// The chaos matrix over the scenario (`crate::view::matrix`), its
    /// worst-schedule cell searched within `budget` states.
    Matrix {
        scenario: serde_json::Value,
        budget: u64,
    },
}

/// The page's default bound: up to two held-back events, two million states
/// (a few seconds in the page; the over-create bug takes a few hundred).
pub const DEFAULT_MAX_DEVIATIONS: usize = 2;
pub const DEFAULT_BUDGET: u64 = 2_000_000;

/// What the worker says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// Booted: it takes jobs now.
    Ready,
    /// So far.
    Progress(Exploration),
    /// The search ended: what it found, and the counterexample as a scenario
    /// document the page loads as a run (or, when it cannot be written as
    /// one, why: `refused`).
    Done {
        exploration: Exploration,
        counterexample: Option<serde_json::Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        refused: Option<String>,
    },
    /// The job could not run (a scenario the worker refused, a malformed job).
    Failed(String),
    /// A lesson checked: its steps, and the first that the run contradicts
    /// (`lesson[2]: …`), if one does.
    LessonChecked { steps: usize, failure: Option<String> },
    /// A row of the chaos matrix, done.
    MatrixRow(Box<crate::view::matrix::RowView>),
    /// Every row of the matrix is done.
    MatrixDone,
}

impl Reply {
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a reply serializes")
    }

    /// Read a reply about a scenario that declares `kinds` (its schedules
    /// and counterexample may name them: [`Task::kinds`]).
    pub fn from_text(text: &str, kinds: &[crate::sim::object::Kind]) -> Result<Reply, String> {
        crate::sim::object::declared_scope(kinds, || serde_json::from_str(text))
            .map_err(|e| format!("the search worker said something unreadable: {e}"))
    }
}

impl Task {
    /// The kinds the task's scenario declares, which the worker's replies may name.
    pub fn kinds(&self) -> Vec<crate::sim::object::Kind> {
        let scenario = match self {
            Task::Search(job) => &job.scenario,
            Task::CheckLesson { scenario } | Task::Matrix { scenario, .. } => scenario,
        };
        crate::scenario::declared_in(&scenario.to_string())
    }
}

/// The worker's whole job: read a [`Task`] (JSON text), do it, and post
/// each reply as JSON text.
pub fn serve(task: &str, post: &mut dyn FnMut(String)) {
    let job = match serde_json::from_str(task) {
        Ok(Task::Search(job)) => job,
        Ok(Task::CheckLesson { scenario }) => return post(check_lesson(&scenario).to_text()),
        Ok(Task::Matrix { scenario, budget }) => return matrix(&scenario, budget, post),
        Err(e) => return post(Reply::Failed(format!("a malformed search job: {e}")).to_text()),
    };
    let scenario = match Scenario::from_json(&job.scenario.to_string()) {
        Ok(s) => s,
        Err(e) => return post(Reply::Failed(e.to_string()).to_text()),
    };
    let options = Options {
        invariant: job.invariant,
        max_deviations: job.max_deviations,
        budget: job.budget,
        drops: job.drops,
        ..Options::default()
    };
    // The same limits as the runner's flags: a job over them is refused, not clamped.
    if let Err(e) = options.check(&scenario) {
        return post(Reply::Failed(e.to_string()).to_text());
    }
    let found = explore_with(&scenario, &options, &mut |so_far| {
        post(Reply::Progress(so_far.clone()).to_text());
        true
    });
    let (counterexample, refused) = match found.violation.as_ref().map(|v| counterexample(&scenario, v)) {
        Some(Ok(c)) => (Some(c.to_value()), None),
        Some(Err(e)) => (None, Some(e.to_string())),
        None => (None, None),
    };
    post(Reply::Done { exploration: found, counterexample, refused }.to_text());
}

/// The chaos matrix, a row a reply, within the explorer's budget limit.
fn matrix(scenario: &serde_json::Value, budget: u64, post: &mut dyn FnMut(String)) {
    let s = match Scenario::from_json(&scenario.to_string()) {
        Ok(s) => s,
        Err(e) => return post(Reply::Failed(e.to_string()).to_text()),
    };
    if let Err(e) = crate::scenario::limits::get("--budget").check("budget", budget) {
        return post(Reply::Failed(e.to_string()).to_text());
    }
    crate::view::matrix::rows_of(&s, budget, &mut |row| post(Reply::MatrixRow(Box::new(row)).to_text()));
    post(Reply::MatrixDone.to_text());
}

/// A scenario's lesson, checked whole against its run.
fn check_lesson(scenario: &serde_json::Value) -> Reply {
    match Scenario::from_json(&scenario.to_string()) {
        Ok(s) => Reply::LessonChecked { steps: s.lesson.len(), failure: crate::view::lesson::verify(&s).err().map(|e| e.to_string()) },
        Err(e) => Reply::Failed(e.to_string()),
    }
}

/// What the page does when a search ends: the run it loads, at which frame,
/// and the words it says. "Loaded" is said only of a counterexample that
/// loads; one that cannot (refused by the worker, or by the page's parser)
/// is announced by its error alone, and the page's run stays as it was.
#[derive(Debug, Clone, PartialEq)]
pub struct Landing {
    /// The counterexample, its document (for the URL), and its breaking frame.
    pub load: Option<(Scenario, String, usize)>,
    pub words: String,
}

/// The [`Landing`] of a finished search.
pub fn landing(e: &Exploration, counterexample: Option<&serde_json::Value>, refused: Option<&str>, max_deviations: usize) -> Landing {
    let Some(v) = &e.violation else { return Landing { load: None, words: outcome_words(e, max_deviations) } };
    let cannot = |why: &str| Landing { load: None, words: words::cannot_load_words(&v.invariant, v.frame, why) };
    match (counterexample, refused) {
        (_, Some(why)) => cannot(why),
        (None, None) => cannot("the search worker sent no counterexample"),
        (Some(doc), None) => match Scenario::from_json(&doc.to_string()) {
            Ok(s) => Landing { load: Some((s, doc.to_string(), v.frame as usize)), words: outcome_words(e, max_deviations) },
            Err(err) => cannot(&err.to_string()),
        },
    }
}

/// `12,345`: the report's one way of writing a count.
pub use crate::narrate::units::thousands;

/// How far a search got, for the words.
fn searched(e: &Exploration) -> SearchFacts {
    SearchFacts {
        explored: e.explored,
        states: e.states,
        distinct_states: e.distinct_states,
        level: e.level,
        stopped: e.stopped,
        complete: e.complete,
    }
}

/// What a search found, for the words.
fn found(e: &Exploration) -> Option<FoundFacts<'_>> {
    e.violation.as_ref().map(|v| FoundFacts { invariant: &v.invariant, frame: v.frame, deviations: v.deviations, schedule: &v.schedule })
}

/// The live count while a search runs.
pub fn progress_words(e: &Exploration) -> String {
    words::progress_words(&searched(e))
}

/// What the search found, or how much it searched, in words a learner reads.
pub fn outcome_words(e: &Exploration, max_deviations: usize) -> String {
    words::outcome_words(found(e), &searched(e), max_deviations, &Options::default().late_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    fn base_job(scenario: &Scenario, invariant: Option<&str>) -> Job {
        Job {
            scenario: scenario.to_value(),
            invariant: invariant.map(str::to_string),
            max_deviations: DEFAULT_MAX_DEVIATIONS,
            budget: DEFAULT_BUDGET,
            drops: false,
        }
    }

    /// A search as the page posts it.
    fn task(job: Job) -> String {
        serde_json::to_string(&Task::Search(job)).unwrap()
    }

    fn job(scenario: &Scenario, invariant: Option<&str>) -> String {
        task(base_job(scenario, invariant))
    }

    fn replies(job: &str) -> Vec<Reply> {
        let mut out = Vec::new();
        serve(job, &mut |text| out.push(Reply::from_text(&text, &[]).unwrap()));
        out
    }

    #[test]
    fn the_worker_finds_the_over_create_at_lag_0_and_sends_a_counterexample_that_replays() {
        let s = preset("over-create").unwrap().with_settings([("controller.naming", "generate"), ("cluster.watch_lag_ms", "0")]).unwrap();
        let out = replies(&job(&s, Some("children_within_desired")));
        let Some(Reply::Done { exploration, counterexample: Some(doc), .. }) = out.last() else { panic!("{out:?}") };
        let v = exploration.violation.as_ref().unwrap();
        let c = Scenario::from_json(&doc.to_string()).unwrap();
        let replayed = crate::report::Report::run(&c);
        assert_eq!(replayed.invariants["children_within_desired"].first_broken_frame, Some(v.frame));
        let words = outcome_words(exploration, DEFAULT_MAX_DEVIATIONS);
        assert!(words.contains(&format!("breaks at frame {}", v.frame)), "{words}");
        assert!(words.contains("ConfigMap event arrives 1.0 s late"), "{words}");
    }

    /// A search over a scenario's own kinds: the worker's replies name them
    /// (a schedule holding back a Job's event), and the page reads them with
    /// the kinds the task's scenario declares. Read without, they are unreadable.
    #[test]
    fn the_worker_speaks_of_a_scenarios_own_kinds_and_the_page_reads_it() {
        let mut v = preset("job-expectations-by-name").unwrap().to_value();
        v["controller"]["recipe"]["delete_expectations_on_delete"] = true.into();
        let s = Scenario::from_value(v).unwrap();
        let t = Task::Search(base_job(&s, Some("job-gets-its-pods")));
        assert_eq!(t.kinds().iter().map(|k| k.as_str()).collect::<Vec<_>>(), ["Job"]);
        let mut texts = Vec::new();
        serve(&serde_json::to_string(&t).unwrap(), &mut |text| texts.push(text));
        let last = texts.last().unwrap();
        assert!(Reply::from_text(last, &[]).is_err(), "read without the kinds, a Job in the schedule is unknown");
        let Ok(Reply::Done { exploration, counterexample: Some(doc), .. }) = Reply::from_text(last, &t.kinds()) else { panic!("{last}") };
        let held = &exploration.violation.as_ref().unwrap().schedule;
        assert!(held.iter().any(|d| d.kind.as_str() == "Job"), "{held:?}");
        let c = Scenario::from_json(&doc.to_string()).unwrap();
        assert!(!crate::report::Report::run(&c).invariants["job-gets-its-pods"].held);
    }

    #[test]
    fn progress_comes_every_few_thousand_states_and_a_clean_search_says_how_much() {
        let s = preset("replicaset-pressure").unwrap();
        let out = replies(&task(Job { budget: 100_000, max_deviations: 1, ..base_job(&s, None) }));
        let progress = out.iter().filter(|r| matches!(r, Reply::Progress(_))).count();
        let Some(Reply::Done { exploration, counterexample: None, .. }) = out.last() else { panic!("{:?}", out.last()) };
        assert_eq!(progress as u64, exploration.states / crate::explore::PROGRESS_EVERY);
        let words = outcome_words(exploration, 1);
        assert!(words.starts_with("No violation among"), "{words}");
        assert!(words.contains(&thousands(exploration.explored)), "{words}");
    }

    #[test]
    fn with_drops_the_search_finds_what_fools_the_consistency_store() {
        let s = preset("staleness-mitigation").unwrap().with_settings([("cluster.watch_lag_ms", "0")]).unwrap();
        let job = |drops: bool| task(Job { drops, ..base_job(&s, Some("children_within_desired")) });
        assert!(matches!(replies(&job(false)).last(), Some(Reply::Done { counterexample: None, .. })));
        let Some(Reply::Done { exploration, counterexample: Some(_), .. }) = replies(&job(true)).last().cloned() else { panic!() };
        let words = outcome_words(&exploration, DEFAULT_MAX_DEVIATIONS);
        assert!(words.contains("ConfigMap event is lost on the wire"), "{words}");
    }

    #[test]
    fn the_worker_checks_a_lesson_whole_and_names_the_step_the_run_contradicts() {
        let check = |s: &Scenario| replies(&serde_json::to_string(&Task::CheckLesson { scenario: s.to_value() }).unwrap());
        let good = preset("over-create").unwrap();
        assert_eq!(check(&good), vec![Reply::LessonChecked { steps: 4, failure: None }]);
        let mut bad = good.clone();
        bad.lesson[1].reveal = "It keeps 13 of them.".to_string();
        let out = check(&bad);
        let [Reply::LessonChecked { steps: 4, failure: Some(f) }] = &out[..] else { panic!("{out:?}") };
        assert!(f.starts_with("lesson[1]: the reveal states 13, which the run does not give"), "{f}");
    }

    #[test]
    fn a_bad_job_fails_naming_the_problem() {
        let out = replies("{\"search\":{\"scenario\":{\"name\":\"x\"},\"invariant\":null,\"max_deviations\":1,\"budget\":10}}");
        assert!(matches!(&out[..], [Reply::Failed(m)] if m.contains("until_ms") || m.contains("controller")), "{out:?}");
        assert!(matches!(&replies("nonsense")[..], [Reply::Failed(m)] if m.starts_with("a malformed search job")));
    }

    #[test]
    fn a_counterexample_is_announced_as_loaded_only_when_it_loads() {
        let s = preset("over-create").unwrap().with_settings([("controller.naming", "generate"), ("cluster.watch_lag_ms", "0")]).unwrap();
        let Some(Reply::Done { exploration, counterexample: Some(doc), refused: None }) = replies(&job(&s, None)).pop() else { panic!() };
        let frame = exploration.violation.as_ref().unwrap().frame as usize;
        let ok = landing(&exploration, Some(&doc), None, DEFAULT_MAX_DEVIATIONS);
        assert!(matches!(&ok.load, Some((c, _, f)) if *f == frame && !c.schedule.is_empty()), "{ok:?}");
        assert!(ok.words.contains("Loaded as this run"), "{}", ok.words);
        // A document the page refuses (over a limit): nothing loads, and only the error is said.
        let mut long = doc.clone();
        long["description"] = "x".repeat(4_019).into();
        let no = landing(&exploration, Some(&long), None, DEFAULT_MAX_DEVIATIONS);
        assert_eq!(no.load, None);
        assert!(!no.words.contains("Loaded") && no.words.contains("description") && no.words.contains("4019"), "{}", no.words);
        // One the worker could not write.
        let no = landing(&exploration, None, Some("schedule: 101 entries"), DEFAULT_MAX_DEVIATIONS);
        assert_eq!(no.load, None);
        assert!(!no.words.contains("Loaded") && no.words.contains("101 entries"), "{}", no.words);
    }

    #[test]
    fn a_job_over_the_limits_is_refused_naming_the_field() {
        let s = preset("over-create").unwrap();
        let out = replies(&task(Job { max_deviations: 9, ..base_job(&s, None) }));
        assert!(matches!(&out[..], [Reply::Failed(m)] if m.contains("--max-deviations") && m.contains('9')), "{out:?}");
    }

    #[test]
    fn words() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1_234_567), "1,234,567");
        let e = Exploration { explored: 3, states: 5_000, stopped: true, ..Exploration::default() };
        assert_eq!(outcome_words(&e, 2), "Stopped after 3 timings (5,000 states), with no violation among them.");
    }
}
