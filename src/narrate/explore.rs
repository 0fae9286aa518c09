//! The schedule explorer's words: what a schedule does to the events it
//! names, and the sentences a counterexample opens on.

use super::units::{and_list, fmt_ms, ordinal, secs};
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
