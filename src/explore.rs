//! The schedule explorer: "can this ever go wrong?", answered by search.
//!
//! The simulation is deterministic; what a real cluster leaves open is when
//! each watch event reaches the controller's informer. A schedule is the list
//! of events a run holds back ([`Deviation`]: the `nth` event of a kind,
//! `late_ms` late). The explorer searches breadth-first by the number of
//! deviations, so the first violation it finds is one of the shortest
//! counterexamples, and prunes by state: every frame of every run is
//! fingerprinted ([`World::fingerprint`], with the deviations still ahead),
//! and a run that reaches a state already explored stops there (its future
//! is one already searched), its children limited to the events it sent
//! before. The search is bounded (deviations, states); "no violation" is
//! said as what it is: none among the schedules searched.
//!
//! Pure and clock-free like the core: the caller times it.

use crate::scenario::Scenario;
use crate::sim::controllers::watched_kinds;
use crate::sim::world::{Deviation, World};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// What to search.
#[derive(Debug, Clone)]
pub struct Options {
    /// The invariant to break (any, when `None`).
    pub invariant: Option<String>,
    /// The most events held back in one schedule.
    pub max_deviations: usize,
    /// The most states (frames simulated, over every run) to search.
    pub budget: u64,
    /// How late a held-back event may arrive, each a choice.
    pub late_ms: Vec<u64>,
    /// Losing an event on the wire is a choice too. A real watch never loses
    /// one silently (it ends, and the relist repairs the cache), so this is a
    /// fault, off by default: what it breaks shows what a mechanism relies on.
    pub drops: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { invariant: None, max_deviations: 2, budget: 2_000_000, late_ms: vec![1_000, 10_000], drops: false }
    }
}

/// A schedule that breaks an invariant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    pub invariant: String,
    /// The frame that broke it.
    pub frame: u64,
    /// Events held back beyond the scenario's own schedule.
    pub deviations: usize,
    /// The whole schedule (the scenario's own deviations first).
    pub schedule: Vec<Deviation>,
}

/// What a search found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exploration {
    /// Schedules run (each to its end, or to a state already explored).
    pub explored: u64,
    /// Frames simulated over every run.
    pub states: u64,
    /// Distinct fingerprints seen.
    pub distinct_states: u64,
    /// Every schedule within the bound was searched (not cut by the budget, nor stopped).
    pub complete: bool,
    /// The caller stopped the search (its progress callback said so).
    pub stopped: bool,
    /// The level being searched: schedules with this many deviations.
    pub level: usize,
    pub violation: Option<Violation>,
}

/// The deviations a schedule holds, in a canonical order (by kind, then ordinal).
fn canonical(mut d: Vec<Deviation>) -> Vec<Deviation> {
    d.sort();
    d
}

/// How often a search reports its progress, in states.
pub const PROGRESS_EVERY: u64 = 4_096;

/// Search `s` for a schedule that breaks `o.invariant`.
pub fn explore(s: &Scenario, o: &Options) -> Exploration {
    explore_with(s, o, &mut |_| true)
}

/// [`explore`], telling `progress` how far it has got every
/// [`PROGRESS_EVERY`] states (the page's live count); the search stops,
/// incomplete, when it answers `false`.
pub fn explore_with(s: &Scenario, o: &Options, progress: &mut dyn FnMut(&Exploration) -> bool) -> Exploration {
    let base: Vec<Deviation> = s.world_init().schedule;
    let kinds = watched_kinds(s.controller.kind);
    let mut out = Exploration::default();
    let mut seen: HashSet<(u64, u64)> = HashSet::new();
    let mut frontier: Vec<Vec<Deviation>> = vec![Vec::new()];
    for level in 0..=o.max_deviations {
        out.level = level;
        let mut next = Vec::new();
        for added in frontier {
            if out.states >= o.budget {
                out.distinct_states = seen.len() as u64;
                return out;
            }
            let mut init = s.world_init();
            init.schedule = canonical(base.iter().chain(&added).copied().collect());
            let schedule = init.schedule.clone();
            let mut world = World::new(init);
            out.explored += 1;
            // Run to the end, or to a state some run has already been in with the same deviations ahead.
            loop {
                let ahead = fingerprint_ahead(&schedule, &world);
                if !seen.insert((world.fingerprint(), ahead)) && world.frames() > 0 {
                    break;
                }
                let Some(frame) = world.step() else { break };
                out.states += 1;
                let broke = frame.broke.iter().find(|v| o.invariant.as_deref().is_none_or(|name| v.invariant == name));
                if let Some(v) = broke {
                    out.violation = Some(Violation {
                        invariant: v.invariant.to_string(),
                        frame: frame.n,
                        deviations: level,
                        schedule: schedule.clone(),
                    });
                    out.distinct_states = seen.len() as u64;
                    return out;
                }
                if out.states >= o.budget {
                    break;
                }
                if out.states.is_multiple_of(PROGRESS_EVERY) {
                    out.distinct_states = seen.len() as u64;
                    if !progress(&out) {
                        out.stopped = true;
                        return out;
                    }
                }
            }
            if level == o.max_deviations {
                continue;
            }
            // Children: one more event held back, after the last one this schedule holds
            // (canonical order, so each set of deviations is tried once), among those sent.
            let last = added.last().copied();
            for kind in kinds {
                for nth in 1..=world.events_sent[kind.index()] {
                    let lost = o.drops.then_some(Deviation { late_ms: 0, drop: true, ..Deviation::late(*kind, nth, 0) });
                    for d in o.late_ms.iter().map(|ms| Deviation::late(*kind, nth, *ms)).chain(lost) {
                        if last.is_some_and(|l| (l.kind, l.nth) >= (d.kind, d.nth)) {
                            continue;
                        }
                        let mut child = added.clone();
                        child.push(d);
                        next.push(child);
                    }
                }
            }
        }
        frontier = next;
        if frontier.is_empty() {
            break;
        }
    }
    out.complete = out.states < o.budget;
    out.distinct_states = seen.len() as u64;
    out
}

/// The deviations still ahead of a world (not yet sent), hashed: part of a state's identity.
fn fingerprint_ahead(schedule: &[Deviation], world: &World) -> u64 {
    schedule.iter().filter(|d| d.nth > world.events_sent[d.kind.index()]).fold(0xcbf2_9ce4_8422_2325u64, |h, d| {
        (h ^ (u64::from(d.nth) << 8 | d.kind.index() as u64 | u64::from(d.drop) << 7) ^ d.late_ms.rotate_left(32))
            .wrapping_mul(0x0100_0000_01b3)
    })
}

/// The counterexample as a scenario: `s` with the violating schedule, which
/// `cachescope run` replays to the same broken invariant at the same frame.
pub fn counterexample(s: &Scenario, v: &Violation) -> Scenario {
    let mut c = s.clone();
    c.schedule = v.schedule.clone();
    c.description = format!(
        "{} Found by cachescope explore: {} breaks at frame {} when {}.",
        s.description,
        v.invariant,
        v.frame,
        crate::sim::caption::schedule_words(&v.schedule)
    )
    .trim()
    .to_string();
    // Its first caption says what was found, not the preset's own way in.
    let found = format!("Press ▶: {} breaks at frame {} when {}.", v.invariant, v.frame, crate::sim::caption::schedule_words(&v.schedule));
    c.start = if found.chars().count() as u64 <= crate::scenario::limits::get("start").max {
        found
    } else {
        format!("Press ▶: {} breaks at frame {} under this run's schedule.", v.invariant, v.frame)
    };
    c
}
