//! Two runs of one scenario side by side, as plain values: Run A as the
//! page has it, Run B with one setting or more changed (`compare=` in the
//! URL, `cachescope compare`), moved together in simulated time, their
//! lab figures tabled, and the first request at which their audit logs part.

use crate::scenario::{Gauge, Measure, Scenario, ScenarioError};
use crate::sim::apiserver::{AuditEntry, Verb};
use crate::sim::frame::{Event, Frame};
use crate::view::session::Session;
use serde::Serialize;

/// `compare=` as written: `controller.naming=generate;cluster.watch_lag_ms=0`.
pub fn parse_vs(text: &str) -> Result<Vec<(String, String)>, ScenarioError> {
    let mut out: Vec<(String, String)> = Vec::new();
    for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((path, value)) = part.split_once('=') else {
            return Err(ScenarioError::new(
                "URL parameter compare",
                Some(format!("{part:?}")),
                "expected PATH=VALUE[;PATH=VALUE…], for example controller.naming=generate",
            ));
        };
        out.retain(|(p, _)| p != path.trim());
        out.push((path.trim().to_string(), value.trim().to_string()));
    }
    if out.is_empty() {
        return Err(ScenarioError::new("URL parameter compare", Some(format!("{text:?}")), "names no setting to change in Run B"));
    }
    Ok(out)
}

/// Run B: the scenario with `vs` applied, each bad setting named.
pub fn run_b(a: &Scenario, vs: &[(String, String)]) -> Result<Scenario, ScenarioError> {
    a.with_settings(vs.iter().map(|(p, v)| (p.as_str(), v.as_str())))
}

/// A request as the two logs are compared: who, what, on which kind, answered how
/// (names aside: generated names differ by design).
fn shape(e: &AuditEntry) -> (crate::sim::apiserver::Actor, Verb, crate::sim::object::Kind, u16) {
    (e.actor, e.verb, e.kind, e.status.code)
}

/// Where two runs' audit logs first differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Divergence {
    /// The request's place in both logs (0-based).
    pub request: usize,
    /// Each run's frame and time for it; `None` where that run's log has ended.
    pub frame_a: Option<u64>,
    pub frame_b: Option<u64>,
    pub at_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<AuditEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<AuditEntry>,
}

/// The first request at which the two runs' audit logs differ (by actor,
/// verb, kind and status), or `None` when they agree throughout.
pub fn first_divergence(a: &[Frame], b: &[Frame]) -> Option<Divergence> {
    let log = |frames: &[Frame]| -> Vec<(u64, AuditEntry)> {
        frames
            .iter()
            .filter_map(|f| match &f.event {
                Event::ApiRequest { entry, .. } => Some((f.n, entry.clone())),
                _ => None,
            })
            .collect()
    };
    let (la, lb) = (log(a), log(b));
    for i in 0..la.len().max(lb.len()) {
        let (x, y) = (la.get(i), lb.get(i));
        let same = matches!((x, y), (Some((_, x)), Some((_, y))) if shape(x) == shape(y));
        if !same {
            let at_ms = [x, y].into_iter().flatten().map(|(_, e)| e.at_ms).min().unwrap_or(0);
            return Some(Divergence {
                request: i,
                frame_a: x.map(|(n, _)| *n),
                frame_b: y.map(|(n, _)| *n),
                at_ms,
                a: x.map(|(_, e)| e.clone()),
                b: y.map(|(_, e)| e.clone()),
            });
        }
    }
    None
}

/// The lab's figures for one run at its current frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Figures {
    /// The children the controller makes (ConfigMaps, Pods), live and at their peak.
    pub live: u64,
    pub peak: u64,
    pub creates_201: u64,
    pub creates_409: u64,
    pub deletes: u64,
    /// The invariants broken so far.
    pub broken: Vec<&'static str>,
}

/// The figures of a world that has run through `frames`.
pub fn figures(scenario: &Scenario, world: &crate::sim::world::World, frames: &[Frame]) -> Figures {
    let kind = scenario.controller.spec().child;
    let g = |measure, verb: Option<Verb>, status: Option<u16>| {
        Gauge { measure, kind: Some(kind).filter(|_| verb.is_none()), verb, status, from_ms: None, to_ms: None, invariant: None }
            .measure(world, frames)
            .unwrap_or(0)
    };
    Figures {
        live: g(Measure::Live, None, None),
        peak: g(Measure::Peak, None, None),
        creates_201: g(Measure::Requests, Some(Verb::Create), Some(201)),
        creates_409: g(Measure::Requests, Some(Verb::Create), Some(409)),
        deletes: g(Measure::Requests, Some(Verb::Delete), Some(200)),
        broken: world.invariants.list.iter().filter(|i| !i.held()).map(|i| i.name).collect(),
    }
}

/// A session's figures at its position.
pub fn session_figures(s: &Session) -> Figures {
    figures(s.scenario(), s.world(), &s.frames()[..s.position().min(s.frames().len())])
}

/// The time of a run's next frame, computing it if it is not known yet;
/// `None` at its end.
fn next_frame_at(s: &mut Session) -> Option<u64> {
    if s.position() >= s.frames().len() && !s.end_known() {
        s.look_ahead(&mut |n| n < 1);
    }
    s.frames().get(s.position()).map(|f| f.at_ms)
}

/// Step both runs to the next simulated time either has a frame at: each
/// plays every frame up to it, so the two stay aligned in time. False when
/// neither has a frame left.
pub fn step_both(a: &mut Session, b: &mut Session) -> bool {
    let Some(t) = [next_frame_at(a), next_frame_at(b)].into_iter().flatten().min() else {
        // Nothing left to happen: each learns it is at its end.
        a.step_forward();
        b.step_forward();
        return false;
    };
    for s in [a, b] {
        while next_frame_at(s).is_some_and(|at| at <= t) {
            if !s.step_forward() {
                break;
            }
        }
    }
    true
}

/// Playback: each run forward through every frame at or before `t_ms`
/// (at most 400 frames each per call, so a painted frame stays short).
pub fn seek_both_forward(a: &mut Session, b: &mut Session, t_ms: u64) {
    for s in [a, b] {
        let mut n = 0;
        while n < 400 && next_frame_at(s).is_some_and(|at| at <= t_ms) && s.step_forward() {
            n += 1;
        }
        if next_frame_at(s).is_none() {
            s.step_forward();
        }
    }
}

/// The last frame at or before `t_ms` (0: before anything happened).
fn frame_at(s: &Session, t_ms: u64) -> usize {
    s.frames().partition_point(|f| f.at_ms <= t_ms)
}

/// Both runs to the last frame at or before `t_ms`.
pub fn seek_both(a: &mut Session, b: &mut Session, t_ms: u64) {
    for s in [a, b] {
        let n = frame_at(s, t_ms);
        s.seek(n);
    }
}

/// Run A to its frame `n` (its last, past its end), and Run B to its last
/// frame at or before that frame's time: a host page's `seek` for the pair.
pub fn seek_frame_of_a(a: &mut Session, b: &mut Session, n: usize) {
    a.seek(n.min(a.frames().len()));
    let t = if a.position() == 0 { 0 } else { a.world().now_ms() };
    b.seek(if a.position() == 0 { 0 } else { frame_at(b, t) });
}

/// Back to the latest simulated time, before the current one, at which either run had an event.
pub fn back_both(a: &mut Session, b: &mut Session) {
    let now = a.world().now_ms().max(b.world().now_ms());
    let before = |s: &Session| {
        let p = s.position().min(s.frames().len());
        s.frames()[..p].iter().rev().map(|f| f.at_ms).find(|&t| t < now)
    };
    let target = [before(a), before(b)].into_iter().flatten().max();
    match target {
        Some(t) => seek_both(a, b, t),
        None => {
            a.seek(0);
            b.seek(0);
        }
    }
}

/// Both runs computed to their ends (the divergence and the scrubber need them).
pub fn run_out(s: &mut Session) {
    s.look_ahead(&mut |_| true);
}

/// One JSON object for `cachescope compare`: both runs' summaries and where they part.
#[derive(Debug, Clone, Serialize)]
pub struct CompareReport {
    pub a: crate::report::Report,
    pub b: crate::report::Report,
    /// Run B's settings, as given.
    pub vs: std::collections::BTreeMap<String, String>,
    pub first_divergence: Option<Divergence>,
}

/// Run both to their ends and compare them.
pub fn compare(a: &Scenario, vs: &[(String, String)]) -> Result<CompareReport, ScenarioError> {
    let b = run_b(a, vs)?;
    let frames = |s: &Scenario| {
        let mut w = crate::sim::world::World::new(s.world_init());
        std::iter::from_fn(move || w.step()).collect::<Vec<Frame>>()
    };
    let (fa, fb) = (frames(a), frames(&b));
    Ok(CompareReport {
        a: crate::report::Report::run(a),
        b: crate::report::Report::run(&b),
        vs: vs.iter().cloned().collect(),
        first_divergence: first_divergence(&fa, &fb),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    #[test]
    fn the_over_create_runs_part_at_reconcile_2s_create_and_end_4_against_11() {
        let a = preset("over-create").unwrap();
        let vs = parse_vs("controller.naming=generate").unwrap();
        let r = compare(&a, &vs).unwrap();
        assert_eq!((r.a.live["ConfigMap"], r.b.live["ConfigMap"]), (4, 11));
        let d = r.first_divergence.expect("they part");
        let (ea, eb) = (d.a.unwrap(), d.b.unwrap());
        assert_eq!(
            (ea.verb, ea.status.code, eb.verb, eb.status.code),
            (Verb::Create, 409, Verb::Create, 201),
            "A's repeat is refused, B's is a new object"
        );
        assert_eq!(d.frame_a, d.frame_b, "the same frame in both: everything before it happened alike");
    }

    #[test]
    fn stepping_both_keeps_them_aligned_in_time() {
        let a = preset("over-create").unwrap();
        let b = run_b(&a, &parse_vs("controller.naming=generate").unwrap()).unwrap();
        let (mut sa, mut sb) = (Session::new(a), Session::new(b));
        let mut steps = 0;
        while step_both(&mut sa, &mut sb) && steps < 10_000 {
            steps += 1;
            let (ta, tb) = (sa.world().now_ms(), sb.world().now_ms());
            // Each is at the latest time either has reached, or has nothing before it.
            let t = ta.max(tb);
            for s in [&sa, &sb] {
                let next = s.frames().get(s.position()).map(|f| f.at_ms);
                assert!(next.is_none_or(|n| n > t), "a run left behind at {t}: its next frame is at {next:?}");
            }
        }
        assert!(steps > 10);
        let (fa, fb) = (session_figures(&sa), session_figures(&sb));
        assert_eq!((fa.live, fb.live), (4, 11));
        assert_eq!((fa.creates_409 > 0, fb.creates_409), (true, 0));
        assert_eq!(fb.broken, vec!["children_within_desired"]);
        // And back, time by time, to the start.
        let mut backs = 0;
        while sa.position() + sb.position() > 0 && backs < 10_000 {
            let before = sa.world().now_ms().max(sb.world().now_ms());
            back_both(&mut sa, &mut sb);
            assert!(sa.world().now_ms().max(sb.world().now_ms()) < before || sa.position() + sb.position() == 0);
            backs += 1;
        }
        assert_eq!((sa.position(), sb.position()), (0, 0));
    }

    #[test]
    fn a_hosts_seek_takes_run_a_to_its_frame_and_run_b_to_that_time() {
        let a_s = preset("over-create").unwrap();
        let b_s = run_b(&a_s, &[("controller.naming".into(), "generate".into())]).unwrap();
        let (mut a, mut b) = (Session::new(a_s), Session::new(b_s));
        run_out(&mut a);
        run_out(&mut b);
        seek_frame_of_a(&mut a, &mut b, 30);
        assert_eq!(a.position(), 30);
        let t = a.world().now_ms();
        assert!(
            b.world().now_ms() <= t && b.frames().get(b.position()).is_none_or(|next| next.at_ms > t),
            "Run B at its last frame by then"
        );
        seek_frame_of_a(&mut a, &mut b, 0);
        assert_eq!((a.position(), b.position()), (0, 0), "frame 0 is both runs' start");
        seek_frame_of_a(&mut a, &mut b, 1_000_000);
        assert_eq!(a.position(), a.frames().len(), "past the end: Run A's last frame");
        assert!(b.position() > 0);
    }

    #[test]
    fn the_parting_is_said_with_both_answers() {
        let a = preset("over-create").unwrap();
        let d = compare(&a, &parse_vs("controller.naming=generate").unwrap()).unwrap().first_divergence.unwrap();
        let said = crate::narrate::compare::divergence(d.at_ms, d.frame_a, d.frame_b, d.a.as_ref(), d.b.as_ref());
        assert_eq!(
            said,
            "Run A and Run B part at 2.7 s (frame 19 in both): in Run A the create of ConfigMap beta-voice-0 is answered 409 AlreadyExists; in Run B, 201 Created."
        );
    }

    #[test]
    fn a_bad_compare_names_itself() {
        assert!(parse_vs("").unwrap_err().to_string().contains("names no setting"));
        assert!(parse_vs("controller.naming").unwrap_err().to_string().contains("PATH=VALUE"));
        let a = preset("over-create").unwrap();
        let e = run_b(&a, &parse_vs("controller.naming=sometimes").unwrap()).unwrap_err();
        assert_eq!(e.field, "controller.naming");
    }
}
