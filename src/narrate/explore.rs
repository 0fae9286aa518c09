//! The schedule explorer's words: what a schedule does to the events it
//! names, and the sentences a counterexample opens on.

use super::units::{and_list, fmt_ms, ordinal, secs, thousands};
use crate::sim::world::Deviation;

/// What a schedule does to the events it names, in words: "the 3rd
/// ConfigMap event arrives 1.0 s late and the 4th is lost on the wire".
pub fn schedule_words(schedule: &[Deviation]) -> String {
    let parts: Vec<String> = schedule
        .iter()
        .map(|d| {
            let event = format!("the {} {} event", ordinal(d.nth), d.kind);
            match (d.drop, d.hold, d.at_ms) {
                (true, _, _) => format!("{event} is lost on the wire"),
                (_, true, _) => format!("{event} is held"),
                (_, _, Some(at)) => format!("{event} arrives at {} s", fmt_ms(at, 3)),
                _ => format!("{event} arrives {} late", secs(d.late_ms.unwrap_or(0))),
            }
        })
        .collect();
    match parts.as_slice() {
        [] => "nothing is held back (the default timing)".to_string(),
        _ => and_list(&parts),
    }
}

/// When a counterexample's violation happens, against the scenario's own
/// schedule: `added` is what the search held back beyond `own_entries`.
pub fn when_words(added: &[Deviation], own_entries: usize) -> String {
    match (added.is_empty(), own_entries) {
        (true, 0) => "on the default timing".to_string(),
        (true, n) => format!("on the scenario's own schedule ({n} entries)"),
        (false, 0) => format!("when {}", schedule_words(added)),
        (false, n) => format!("when {}, beside the scenario's own schedule ({n} entries)", schedule_words(added)),
    }
}

/// The sentence a counterexample's description ends with.
pub fn found_words(invariant: &str, frame: u64, when: &str) -> String {
    format!("Found by cachescope explore: {invariant} breaks at frame {frame} {when}.")
}

/// A counterexample's start line: what was found (`when`: [`when_words`], or
/// `None` for the short form when that would be over the start line's limit).
pub fn start_words(invariant: &str, frame: u64, when: Option<&str>) -> String {
    match when {
        Some(when) => format!("Press ▶: {invariant} breaks at frame {frame} {when}."),
        None => format!("Press ▶: {invariant} breaks at frame {frame} under this run's schedule."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schedule_in_words() {
        use crate::narrate::units::ordinal;
        use crate::sim::object::Kind;
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(12), "12th");
        assert_eq!(ordinal(23), "23rd");
        let late = Deviation::late(Kind::ConfigMap, 3, 1_000);
        let lost = Deviation { drop: true, ..Deviation::on_time(Kind::ConfigMap, 4) };
        let at = Deviation { at_ms: Some(2_726), ..Deviation::on_time(Kind::Pod, 1) };
        assert_eq!(
            schedule_words(&[late, lost, at]),
            "the 3rd ConfigMap event arrives 1.0 s late, the 4th ConfigMap event is lost on the wire and the 1st Pod event arrives at 2.726 s"
        );
        assert_eq!(schedule_words(&[]), "nothing is held back (the default timing)");
    }
}

/// How far a schedule search got: the explorer's counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchFacts {
    /// Schedules run.
    pub explored: u64,
    /// Frames simulated over every run.
    pub states: u64,
    pub distinct_states: u64,
    /// The level being searched: schedules with this many deviations.
    pub level: usize,
    pub stopped: bool,
    pub complete: bool,
}

/// A schedule that breaks an invariant, as the explorer found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FoundFacts<'a> {
    pub invariant: &'a str,
    pub frame: u64,
    /// Events held back beyond the scenario's own schedule.
    pub deviations: usize,
    /// The whole schedule.
    pub schedule: &'a [Deviation],
}

fn held_back(n: usize) -> String {
    match n {
        0 => "no held-back event".to_string(),
        1 => "1 held-back event".to_string(),
        n => format!("{n} held-back events"),
    }
}

/// The live count while a search runs.
pub fn progress_words(s: &SearchFacts) -> String {
    format!(
        "Searching: {} timings tried ({} states, {} distinct), now those with {}…",
        thousands(s.explored),
        thousands(s.states),
        thousands(s.distinct_states),
        held_back(s.level)
    )
}

/// What a search found, or how much it searched, in words a learner reads;
/// `late_ms`: the lateness choices it tried.
pub fn outcome_words(found: Option<FoundFacts>, s: &SearchFacts, max_deviations: usize, late_ms: &[u64]) -> String {
    let searched = format!("{} timings ({} states)", thousands(s.explored), thousands(s.states));
    match found {
        Some(v) if v.deviations == 0 => format!(
            "Found without holding anything back: {} breaks at frame {} on the default timing. Loaded; step through it.",
            v.invariant, v.frame
        ),
        Some(v) if v.schedule.iter().any(|d| d.drop) => format!(
            "Found after {searched}: {} breaks at frame {} when {}. Loaded as this run, at that frame: a watch that loses an \
             event silently breaks what the controller relies on (a real one ends instead, and the relist repairs the cache).",
            v.invariant,
            v.frame,
            schedule_words(v.schedule)
        ),
        Some(v) => format!(
            "Found after {searched}: {} breaks at frame {} when {}. Loaded as this run, at that frame; the marks on the timeline \
             show where the held-back {} arrives: that timing is the whole bug.",
            v.invariant,
            v.frame,
            schedule_words(v.schedule),
            if v.deviations == 1 { "event" } else { "events" }
        ),
        None if s.stopped => format!("Stopped after {searched}, with no violation among them."),
        None if s.complete => format!(
            "No violation among {searched} with up to {}. That is a bounded search: every way to hold back up to {max_deviations} \
             watch {} by {} was tried, not every timing there is.",
            held_back(max_deviations),
            if max_deviations == 1 { "event" } else { "events" },
            late_ms.iter().map(|ms| secs(*ms)).collect::<Vec<_>>().join(" or ")
        ),
        None => format!(
            "No violation among the first {searched}: the search reached its budget before it tried every schedule with up to {}.",
            held_back(max_deviations)
        ),
    }
}

/// A counterexample found that the page cannot load, and why.
pub fn cannot_load_words(invariant: &str, frame: u64, why: &str) -> String {
    format!("The search found that {invariant} breaks at frame {frame}, but cannot load it as a run: {why}")
}
