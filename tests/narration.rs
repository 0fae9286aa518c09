//! What the page says about a run as a whole: a reconcile's return counts
//! what it sent, and the run's last frame says what the run came to, with
//! the figure each of the scenario's checks measures (issue 16).
#![cfg(not(target_arch = "wasm32"))]

use cachescope::narrate::caption;
use cachescope::narrate::run::reconcile_requests;
use cachescope::scenario::{preset, presets, Measure, Scenario};
use cachescope::sim::apiserver::{Actor, ControllerKind, Verb};
use cachescope::sim::frame::Event;
use cachescope::view::panels::session_caption;
use cachescope::view::session::Session;

/// A session played to its end, knowing it is the end.
fn at_end(s: Scenario) -> Session {
    let mut s = Session::new(s);
    s.seek(usize::MAX);
    assert!(s.at_end(), "{}: the session knows the run has ended", s.scenario().name);
    s
}

/// The preset at its own settings, then under each of its checks' `when` settings.
fn variants(p: &Scenario) -> Vec<Scenario> {
    let mut out = vec![p.clone()];
    for c in &p.expect {
        if c.when.is_empty() {
            continue;
        }
        let raw: Vec<(String, String)> =
            c.when.iter().map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string))).collect();
        let s = p.with_settings(raw.iter().map(|(k, v)| (k.as_str(), v.as_str()))).expect("a check's when is a valid setting");
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// `text` states `v` as a figure of its own: not part of a longer number or a
/// name (`seed-99`, `late-1`), and not a frame number.
fn states(text: &str, v: u64) -> bool {
    let b = text.as_bytes();
    let want = v.to_string();
    let mut i = 0;
    while let Some(at) = text[i..].find(&want).map(|k| k + i) {
        let end = at + want.len();
        let before = at.checked_sub(1).map(|k| b[k]);
        let after = b.get(end).copied();
        let glued = before.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'))
            || after.is_some_and(|c| c.is_ascii_digit() || (c == b'.' && b.get(end + 1).is_some_and(u8::is_ascii_digit)));
        if !glued && !text[..at].ends_with("frame ") {
            return true;
        }
        i = end;
    }
    false
}

/// The sentence of `text` that begins with `head`, up to its full stop.
fn sentence<'a>(text: &'a str, head: &str) -> Option<&'a str> {
    let at = text.find(head)?;
    let rest = &text[at + head.len()..];
    Some(rest.split(". ").next().unwrap_or(rest))
}

#[test]
fn every_preset_ends_on_a_sentence_stating_what_each_of_its_checks_measures() {
    for p in presets() {
        for scenario in variants(&p) {
            let s = at_end(scenario);
            let said = session_caption(&s);
            let last = caption(s.last_frame().unwrap());
            assert!(said.starts_with("End of run at "), "{}: {said}", p.name);
            assert_ne!(said, last, "{}: the end is a summary, not the last frame's own caption", p.name);
            let checks = s.applicable_checks();
            assert!(!checks.is_empty(), "{}: some check applies", p.name);
            for c in checks {
                let v = c.measure(s.world(), s.frames()).unwrap_or_else(|| panic!("{}: {} is measured", p.name, c.text));
                let ok = match c.measure {
                    Measure::Broken => {
                        let name = c.invariant.as_deref().unwrap();
                        let (list, other) = if v == 1 { ("Broken: ", "Held: ") } else { ("Held: ", "Broken: ") };
                        sentence(&said, list).is_some_and(|l| l.contains(name)) && !sentence(&said, other).is_some_and(|l| l.contains(name))
                    }
                    // A count over a window of time is said in the check's own
                    // words where it holds (which the check pins), not as seconds.
                    _ if c.from_ms.is_some() || c.to_ms.is_some() => {
                        assert!(!said.contains(" from ") || !said.contains(" s on"), "{}: no window in seconds: {said}", p.name);
                        if c.accepts(v) {
                            said.contains(&c.text)
                        } else {
                            states(&said, v)
                        }
                    }
                    _ => states(&said, v),
                };
                assert!(ok, "{} with {:?}: the end does not state {v}, what \"{}\" measures: {said}", p.name, c.when, c.text);
            }
        }
    }
}

/// The lab's two runs, the empty cache's and the late create's, word for word: what a learner
/// reads when the run is over.
#[test]
fn the_labs_runs_end_on_what_they_came_to() {
    let end =
        |name: &str, sets: &[(&str, &str)]| session_caption(&at_end(preset(name).unwrap().with_settings(sets.iter().copied()).unwrap()));
    assert_eq!(
        end("over-create", &[]),
        "End of run at 4.8 s: 4 ConfigMaps for 4 voices, as it wants. 10 of its creates answered 409 AlreadyExists. Held: children_within_desired."
    );
    assert_eq!(
        end("over-create", &[("controller.naming", "generate")]),
        "End of run at 6.8 s: 11 ConfigMaps for 4 voices, 7 more than it wants; nothing will clean them up. \
         11, not the lab's eight or twelve: reconcile 3, queued by the first ADDED to arrive, reads 1 of 4 and creates 3 (4 + 4 + 3); \
         0 of its creates answered 409 AlreadyExists. Broken: children_within_desired at frame 19."
    );
    assert_eq!(
        end("empty-cache", &[]),
        "End of run at 10.0 s: the pruner exits with status 0, having deleted 50 ConfigMaps; no ConfigMap is left. \
         50 of its deletes answered 200 OK; 0 errors in the audit log. Broken: no_delete_before_sync at frame 7."
    );
    assert_eq!(
        end("empty-cache", &[("controller.wait_for_cache_sync", "true")]),
        "End of run at 10.2 s: the pruner exits with status 0, having deleted 0 ConfigMaps; 50 ConfigMaps left. \
         0 errors in the audit log; 0 of its deletes answered 200 OK."
    );
    assert_eq!(
        end("absent-from-cache", &[]),
        "End of run at 10.7 s: the pruner exits with status 0, having deleted 1 ConfigMap; 50 ConfigMaps left. \
         1 of its deletes answered 200 OK. Broken: no_delete_of_uncached at frame 10. Held: no_delete_before_sync."
    );
    // Before the session knows the run is over, the last frame speaks for itself.
    let mut s = Session::new(preset("over-create").unwrap());
    let frames = {
        let mut probe = s.clone();
        probe.seek(usize::MAX);
        probe.position()
    };
    s.seek(frames - 1);
    assert!(!session_caption(&s).starts_with("End of run"), "{}", session_caption(&s));
}

/// The frame a session sits on when reconcile `n` returns.
fn at_return(s: &mut Session, n: u64) -> String {
    s.seek(0);
    while s.step_forward() {
        if matches!(&s.last_frame().unwrap().event, Event::ReconcileFinished { n: m, .. } if *m == n) {
            return session_caption(s);
        }
    }
    panic!("reconcile {n} never returns");
}

/// over-create's re-added reconcile reads a cache without its own creates.
/// It does not send four creates that get 409: it sends one, returns its
/// error and is requeued with backoff, and its frames say exactly that.
#[test]
fn a_reconcile_says_what_it_sent_as_the_audit_log_shows_it() {
    let mut s = Session::new(preset("over-create").unwrap());
    let read = s.clone();
    let counted = {
        let mut r = read;
        r.seek(usize::MAX);
        r.frames()
            .iter()
            .find(|f| matches!(&f.event, Event::ReconcileNote { n: 2, note: cachescope::sim::controllers::Note::Counted { .. }, .. }))
            .map(caption)
            .unwrap()
    };
    assert_eq!(
        counted,
        "Reconcile 2 reads the cache: 0 of 4 ConfigMaps, while the cluster holds 4 (4 ADDED events still on the wire). \
         It sets out to create the 4 it lacks, though the cluster already holds 4 of those names."
    );
    assert!(!counted.contains("409"), "the read cannot know what its creates will get");
    assert_eq!(
        at_return(&mut s, 1),
        "Reconcile 1 of academy-lab/beta sent 4 creates (each 201 Created) and succeeds; --double-enqueue adds the key again at once."
    );
    assert_eq!(
        at_return(&mut s, 2),
        "Reconcile 2 of academy-lab/beta sent 1 create (409 AlreadyExists) and fails: it returns the error \
         (configmaps \"beta-voice-0\" already exists), so the key is requeued with backoff, again in 5 ms."
    );
    for n in 3..=10 {
        let said = at_return(&mut s, n);
        assert!(said.starts_with(&format!("Reconcile {n} of academy-lab/beta sent 1 create (409 AlreadyExists) and fails")), "{said}");
    }
    assert_eq!(
        at_return(&mut s, 12),
        "Reconcile 12 of academy-lab/beta sent no request and succeeds; --double-enqueue adds the key again at once."
    );
}

/// Every request a worker sent is counted by the reconcile that sent it,
/// once: the tallies of every preset's returns add up to its audit log.
#[test]
fn the_returns_tallies_add_up_to_the_audit_log() {
    // The pruner's one pass ends with its exit, whose own caption says what it deleted.
    for p in presets().into_iter().filter(|p| p.controller.kind != ControllerKind::Pruner) {
        let mut preset_returns = 0;
        for scenario in variants(&p) {
            let s = at_end(scenario);
            let frames = s.frames();
            let mut tallied = 0u64;
            let mut returns = 0;
            for (i, f) in frames.iter().enumerate() {
                if matches!(f.event, Event::ReconcileFinished { .. }) {
                    returns += 1;
                    let by_verb = reconcile_requests(&frames[..=i]).unwrap_or_else(|| panic!("{}: frame {} is told apart", p.name, f.n));
                    tallied += by_verb.iter().flat_map(|(_, codes)| codes.iter().map(|(_, k)| k)).sum::<u64>();
                }
            }
            // What the reconciles that returned sent: each request is its
            // replica's open reconcile's. One cut short (its replica lost the
            // lease) or still running at the end never returns to count it.
            // A process is a replica of the recipe's controller, or a controller beside it.
            type Process = (Option<char>, Option<u8>);
            let finished: std::collections::BTreeSet<(Process, u64)> = frames
                .iter()
                .filter_map(|f| match f.event {
                    Event::ReconcileFinished { n, .. } => Some(((f.replica, f.beside), n)),
                    _ => None,
                })
                .collect();
            let mut open: std::collections::BTreeMap<Process, u64> = Default::default();
            let (mut sent, mut sent_unreturned) = (0u64, 0u64);
            for f in frames.iter() {
                match &f.event {
                    Event::ReconcileStarted { n, .. } => {
                        open.insert((f.replica, f.beside), *n);
                    }
                    Event::ApiRequest { entry, step: Some(_), .. } if matches!(entry.actor, Actor::Controller(_)) => {
                        let n = open[&(f.replica, f.beside)];
                        if finished.contains(&((f.replica, f.beside), n)) {
                            sent += 1;
                        } else {
                            sent_unreturned += 1;
                        }
                    }
                    _ => {}
                }
            }
            preset_returns += returns;
            if returns == 0 {
                // A controller whose workers never started (lost-bookmark's
                // client-go program) sent nothing a reconcile could count.
                assert_eq!((sent, sent_unreturned), (0, 0), "{}: no reconcile returned, yet its workers sent requests", p.name);
            }
            assert_eq!(
                tallied,
                sent,
                "{} with {:?} ({sent_unreturned} sent by reconciles that never returned)",
                p.name,
                s.scenario().controller
            );
        }
        assert!(preset_returns > 0, "{}: some variant's reconciles return", p.name);
    }
    // What it counts is by verb and by the status the client saw.
    let s = at_end(preset("over-create-surplus").unwrap());
    let verbs: Vec<Verb> = s
        .frames()
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(f.event, Event::ReconcileFinished { .. }))
        .flat_map(|(i, _)| reconcile_requests(&s.frames()[..=i]).unwrap().into_iter().map(|(v, _)| v))
        .collect();
    assert!(verbs.contains(&Verb::Create) && verbs.contains(&Verb::Delete));
}

/// A reconcile that finds no owner forgets its expectations only where the
/// controller keeps them: the Ensemble operator, which keeps none by default,
/// says it just returns (teardown's captions said otherwise).
#[test]
fn only_a_controller_with_expectations_is_said_to_forget_them() {
    let mut said_returns = 0;
    for p in presets() {
        for s in variants(&p) {
            let keeps = s.controller.expectations();
            let mut w = cachescope::sim::world::World::new(s.world_init());
            while let Some(f) = w.step() {
                let c = caption(&f);
                if c.contains("in the cache: it forgets its expectations") {
                    assert!(keeps, "{}: {c}", s.name);
                }
                if c.contains("in the cache: nothing to manage, it returns") {
                    assert!(!keeps, "{}: {c}", s.name);
                    said_returns += 1;
                }
            }
        }
    }
    assert!(said_returns > 0, "teardown's Ensemble operator, its owner gone");
}

/// Every reconcile a worker starts says what queued its key: a watch event, a
/// LIST, a resync, `--double-enqueue`, or `AddRateLimited`'s retry once its
/// delay is over (which a reconcile of the key in between used to leave
/// unnamed: "reconcile 16." and no cause), in every preset and `when` variant.
#[test]
fn every_reconcile_says_what_queued_it() {
    let mut retries = 0;
    for p in presets() {
        for s in variants(&p) {
            let session = at_end(s);
            for f in session.frames() {
                if let Event::ReconcileStarted { n, queued_by, double_enqueued, .. } = &f.event {
                    assert!(
                        queued_by.is_some() || *double_enqueued,
                        "{}: reconcile {n} at frame {} names no cause: {:?}",
                        session.scenario().name,
                        f.n,
                        caption(f)
                    );
                    retries += usize::from(matches!(queued_by, Some(cachescope::sim::frame::QueuedBy::RateLimitedRetry)));
                }
            }
        }
    }
    assert!(retries >= 3, "the presets retry after errors: {retries} reconciles queued by AddRateLimited");
}
