//! The Observations panel: the lab's "Observe" numbers, live, and its
//! checks against this run.

use crate::narrate::panels::status_label;
use crate::sim::apiserver::{Actor, Verb};
use crate::sim::frame::{Event, Frame};
use crate::sim::object::Kind;
use crate::sim::world::{SentBy, World};
use crate::view::session::Session;

/// The observations strip: the lab's "Observe" numbers, live.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Observations {
    pub kind: Kind,
    pub in_cluster: u64,
    pub in_cache: u64,
    pub peak_in_cluster: u64,
    /// (status, count), by status: the controller's creates, and every delete, up to this frame.
    pub creates: Vec<(u16, u64)>,
    pub deletes: Vec<(u16, u64)>,
}

impl Observations {
    /// The panel's counts as it prints them, a `(label, value)` a line:
    /// `("ConfigMaps", "cluster 4 · cache 0 · peak 4")`, then creates and deletes.
    pub fn lines(&self) -> [(String, String); 3] {
        [
            (format!("{}s", self.kind), format!("cluster {} · cache {} · peak {}", self.in_cluster, self.in_cache, self.peak_in_cluster)),
            ("creates".to_string(), Observations::counts(&self.creates, Verb::Create)),
            ("deletes".to_string(), Observations::counts(&self.deletes, Verb::Delete)),
        ]
    }

    /// The counts in one line of words (`ConfigMaps: cluster 4 · …; creates: …`).
    pub fn words(&self) -> String {
        self.lines().iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("; ")
    }

    /// A count of `(status, n)` pairs as the strip prints it: `4 × 201 Created, 10 × 409 AlreadyExists`.
    pub fn counts(m: &[(u16, u64)], verb: Verb) -> String {
        if m.is_empty() {
            return "none".to_string();
        }
        m.iter().map(|(c, n)| format!("{n} × {}", status_label(*c, verb))).collect::<Vec<_>>().join(", ")
    }
}

pub fn observations(world: &World) -> Observations {
    let kind = world.controller.spec().child;
    // Deletes count whoever sent them (the pruner, kubectl's pressure, the GC); creates, the controller's.
    let mut deletes = world.kind_counts(kind, Verb::Delete, SentBy::Controller);
    for (code, n) in world.kind_counts(kind, Verb::Delete, SentBy::Others) {
        match deletes.iter_mut().find(|(c, _)| *c == code) {
            Some((_, m)) => *m += n,
            None => deletes.push((code, n)),
        }
    }
    deletes.sort_unstable();
    Observations {
        kind,
        in_cluster: world.api.live_count(kind),
        in_cache: world.controller_informer(kind).map_or(0, |i| i.len() as u64),
        peak_in_cluster: world.api.peak_count(kind),
        creates: world.kind_counts(kind, Verb::Create, SentBy::Controller),
        deletes,
    }
}

/// One of the scenario's checks, as the Observations panel shows it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CheckView {
    pub text: String,
    pub expected: String,
    /// Measured over the whole run; `None` until its end is known (or if unmeasurable).
    pub measured: Option<u64>,
    /// `None` until the run's end is known.
    pub held: Option<bool>,
}

/// The scenario's checks for this run: what the lab expects, what the run
/// gives, and why they differ when a setting moved the run off the lab's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ChecksView {
    pub checks: Vec<CheckView>,
    /// Checks the scenario has for other settings than these.
    pub other_settings: usize,
    /// One sentence, when a check does not hold.
    pub why: Option<String>,
}

pub fn checks(s: &Session) -> ChecksView {
    let total = s.scenario().expect.len();
    let checks: Vec<CheckView> = match s.outcomes() {
        Some(outcomes) => outcomes
            .iter()
            .map(|o| CheckView { text: o.text.clone(), expected: o.expected.clone(), measured: o.measured, held: Some(o.held) })
            .collect(),
        None => s
            .applicable_checks()
            .into_iter()
            .map(|c| CheckView { text: c.text.clone(), expected: c.expected(), measured: None, held: None })
            .collect(),
    };
    let why = checks.iter().any(|c| c.held == Some(false)).then(|| {
        let departures = s.departures();
        if departures.is_empty() {
            "This run does not do what its scenario expects, at the scenario's own settings.".to_string()
        } else {
            let parts: Vec<String> = departures
                .iter()
                .map(|d| {
                    let when = d.frame.map(|f| format!(" at frame {f}")).unwrap_or_default();
                    match &d.lab {
                        Some(lab) => format!("{} {} (the lab: {lab}){when}", d.what, d.now),
                        None => format!("{} {}{when}", d.what, d.now),
                    }
                })
                .collect();
            format!("The lab's figures are for its own settings; this run changed {}.", parts.join(", "))
        }
    });
    ChecksView { other_settings: total - checks.len().min(total), checks, why }
}

/// Successful deletes by kind over `frames`, the kubelet's excepted (it
/// finishes a graceful delete someone else asked for): what an empty panel
/// says went.
pub(crate) fn deleted_by_kind(frames: &[Frame]) -> Vec<(Kind, u64)> {
    let mut out: Vec<(Kind, u64)> = Vec::new();
    for f in frames {
        if let Event::ApiRequest { entry, .. } = &f.event {
            if entry.verb == Verb::Delete && entry.status.is_success() && entry.actor != Actor::Kubelet {
                match out.iter_mut().find(|(k, _)| *k == entry.kind) {
                    Some((_, n)) => *n += 1,
                    None => out.push((entry.kind, 1)),
                }
            }
        }
    }
    out.sort_by_key(|(k, _)| k.index());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    #[test]
    /// The checks listed before the run's end follow the settings as they
    /// stand at the current frame: a setting changed during the run lists
    /// the checks of its new value (the session keeps the list between
    /// frames, and finds it again when a setting moves).
    fn pending_checks_follow_a_setting_changed_during_the_run() {
        use crate::view::session::Change;
        let flag = |on| Change::Knob(crate::scenario::settings::knob("controller.expectations", crate::sim::settings::Val::Flag(on)));
        let texts = |s: &Session| checks(s).checks.into_iter().map(|c| c.text).collect::<Vec<_>>();
        let mut s = Session::new(preset("replicaset-pressure").unwrap());
        let with = texts(&s);
        assert_eq!(with, ["never more than 10 pods", "never more pods than replicas"]);
        assert_eq!(texts(&s), with, "asked again, at the same settings");
        s.step_forward();
        s.apply(flag(false));
        let without = texts(&s);
        assert_eq!(without, ["without expectations, more than 10 pods", "without expectations, children_within_desired breaks"]);
        s.apply(flag(true));
        assert_eq!(texts(&s), with);
    }

    #[test]
    fn checks_say_which_setting_moved_the_run_off_the_labs_figure() {
        use crate::view::session::Change;
        let generate = preset("over-create").unwrap().with_settings([("controller.naming", "generate")]).unwrap();
        let mut s = Session::new(generate).with_base(preset("over-create").unwrap());
        // Before the run's end is known, the checks for these settings are listed, unmeasured.
        let pending = checks(&s);
        assert!(pending.checks.iter().all(|c| c.held.is_none() && c.measured.is_none()));
        assert_eq!(pending.checks.len() + pending.other_settings, s.scenario().expect.len());
        s.apply(Change::Knob(crate::scenario::settings::knob("cluster.watch_lag_ms", crate::sim::settings::Val::Int(0))));
        s.seek(usize::MAX);
        s.step_forward();
        let v = checks(&s);
        let eleven = v.checks.iter().find(|c| c.text.contains("11 ConfigMaps")).expect("the GenerateName figure applies");
        assert_eq!((eleven.measured, eleven.held), (Some(4), Some(false)), "at lag 0 there is no duplicate");
        let why = v.why.expect("a failed check says why");
        assert!(why.contains("controller.naming generate (the lab: deterministic)"), "{why}");
        assert!(why.contains("cluster.watch_lag_ms 0 (the lab: 2000) at frame 0"), "{why}");
        // At the lab's own settings every check holds and nothing needs explaining.
        let mut lab = Session::new(preset("over-create").unwrap());
        lab.seek(usize::MAX);
        lab.step_forward();
        let v = checks(&lab);
        assert!(v.checks.iter().all(|c| c.held == Some(true)), "{:?}", v.checks);
        assert_eq!(v.why, None);
    }
}
