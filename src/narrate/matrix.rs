//! The chaos matrix in words: each cell's fault plan, each row's
//! mitigation, and a cell's verdict with what fired (`crate::matrix`'s facts,
//! in `crate::scenario::chaos`'s vocabulary).

use super::units::{plural, secs};
use crate::scenario::chaos::{Broken, Cell, Fault, Fired, Liveness, NotTaken, Row, Searched, Verdict};

/// A cell's name for a reader, beside upstream's (`Cell::name`).
pub fn cell_title(cell: Cell) -> &'static str {
    match cell {
        Cell::BaselineNoFaults => "No faults",
        Cell::WriteConflicts => "Write conflicts",
        Cell::CacheSyncLag => "Cache sync lag",
        Cell::FlakyApiServer => "Flaky API server",
        Cell::CombinedChaos => "Combined chaos",
        Cell::ExpectationsTimeout => "Expectations timeout",
        Cell::VersionBehind => "A version behind",
        Cell::LostBookmark => "Lost bookmark",
        Cell::WorstSchedule => "Worst schedule",
    }
}

/// What a cell's plan does to the run, in a sentence.
pub fn cell_plan(cell: Cell) -> &'static str {
    match cell {
        Cell::BaselineNoFaults => "The scenario as written, no fault added.",
        Cell::WriteConflicts => "The controller's first two updates of its owner are answered 409 Conflict.",
        Cell::CacheSyncLag => "The child kind's first 8 watch events arrive 5 s late, so syncs read a cache that lacks them.",
        Cell::FlakyApiServer => "Child creates fail with 500: the first, then each of the next 19 with a 0.30 chance drawn from the seed.",
        Cell::CombinedChaos => "One 409 Conflict on the owner, and the child events 5 s late.",
        Cell::ExpectationsTimeout => {
            "The expectations' clock is past its timeout (1 ms here), and the child events from the second arrive 1 s late."
        }
        Cell::VersionBehind => {
            "The owner's watch events from the second arrive 5 s late: the cache holds the owner, but an old version of it."
        }
        Cell::LostBookmark => {
            "The child watch-list's initial-events-end bookmark is lost; the watch ends after its timeout and a new one is opened."
        }
        Cell::WorstSchedule => "The first schedule of late watch events the search finds that breaks an invariant.",
    }
}

/// A row's mitigation for a reader.
pub fn row_title(row: Row) -> &'static str {
    match row {
        Row::AsWritten => "As written",
        Row::None => "No mitigation",
        Row::Expectations => "ControllerExpectations",
        Row::ConsistencyStore => "Consistency store",
        Row::ReadYourWrites => "Read-your-writes",
        Row::LiveReads => "Live reads",
        Row::DeterministicNames => "Deterministic names",
    }
}

/// A verdict's one word or two, what a cell shows (never its colour alone).
pub fn verdict_label(v: Verdict) -> &'static str {
    match v {
        Verdict::Held => "held",
        Verdict::Broke => "broke",
        Verdict::Stuck => "stuck",
        Verdict::Invalid => "invalid",
        Verdict::NoSite => "no site",
        Verdict::NotTaken => "not taken",
    }
}

/// What a verdict means, for the legend under the table.
pub fn verdict_meaning(v: Verdict) -> &'static str {
    match v {
        Verdict::Held => "no invariant broke, and it converged",
        Verdict::Broke => "an invariant broke, at the frame shown",
        Verdict::Stuck => "nothing broke, but it had not converged when the run ended",
        Verdict::Invalid => "a fault the cell declares never fired",
        Verdict::NoSite => "the controller gives the cell's faults no place to fire",
        Verdict::NotTaken => "the mitigation is not one this controller can take",
    }
}

/// A fault and how often it fired.
pub fn fired_words(f: &Fired) -> String {
    let what = match f.fault {
        Fault::OwnerConflict => ("409 Conflict on an owner update", "409 Conflicts on owner updates"),
        Fault::StaleChildCache => ("sync on a child cache that lacked a late event", "syncs on a child cache that lacked a late event"),
        Fault::ChildCreateFails => ("500 on a child create", "500s on child creates"),
        Fault::ExpectationsExpired => ("expectation born expired", "expectations born expired"),
        Fault::OwnerVersionBehind => ("sync on an owner a version behind", "syncs on an owner a version behind"),
        Fault::BookmarkLost => ("bookmark lost", "bookmarks lost"),
    };
    plural(f.times, what.0, what.1)
}

/// Why a row is not taken.
pub fn not_taken_words(row: Row, why: &NotTaken) -> String {
    match why {
        NotTaken::Refused { error } => format!("{} is not one this controller can take: {error}", row_title(row)),
        NotTaken::ChangesNothing => format!("{} changes nothing in this controller's run.", row_title(row)),
    }
}

/// A cell's facts, for its sentence.
pub struct CellFacts<'a> {
    pub cell: Cell,
    pub row: Row,
    pub verdict: Verdict,
    pub broke: Option<&'a Broken>,
    pub liveness: Option<&'a Liveness>,
    pub faults: &'a [Fired],
    pub searched: Option<&'a Searched>,
}

/// A cell in full: its verdict, what broke or how it converged, and what fired.
pub fn cell_words(c: &CellFacts) -> String {
    let at = format!("{} × {}", cell_title(c.cell), row_title(c.row));
    let verdict = match (c.verdict, c.broke, c.liveness) {
        (Verdict::Broke, Some(b), _) => format!("{at}: broke {} at frame {} ({}).", b.invariant, b.frame, secs(b.at_ms)),
        (Verdict::Stuck, _, Some(l)) => match &l.short {
            Some(s) => format!(
                "{at}: stuck. No invariant broke, but when the run ended {} had {} of its {} desired children.",
                s.name, s.active, s.desired
            ),
            None => format!("{at}: stuck: it had not converged when the run ended."),
        },
        (Verdict::Held, _, Some(l)) => {
            format!("{at}: held. No invariant broke, and it converged: the cluster's last write was at {}.", secs(l.settled_at_ms))
        }
        (Verdict::Held, _, None) => format!("{at}: held. No invariant broke."),
        (Verdict::Invalid, ..) => format!("{at}: invalid. A fault the cell declares never fired, so the run says nothing about it."),
        (Verdict::NoSite, ..) => format!("{at}: no site. This controller gives the cell's faults no place to fire."),
        (Verdict::NotTaken, ..) => format!("{at}: not taken."),
        (v, ..) => format!("{at}: {}.", verdict_label(v)),
    };
    let fired: Vec<String> = c.faults.iter().map(fired_words).collect();
    let fired = if fired.is_empty() { String::new() } else { format!(" Fired: {}.", super::units::and_list(&fired)) };
    let searched = match c.searched {
        Some(s) if s.found && s.deviations == 0 => " The search found the scenario's own schedule breaks.".to_string(),
        Some(s) if s.found => {
            let held = plural(s.deviations as u64, "watch event", "watch events");
            format!(" The search found it holding back {held}, after {}.", plural(s.schedules, "schedule", "schedules"))
        }
        Some(s) if s.complete => {
            format!(" The search ran all {} within its bound and none broke.", plural(s.schedules, "schedule", "schedules"))
        }
        Some(s) => format!(" The search ran {} within its budget and none broke.", plural(s.schedules, "schedule", "schedules")),
        None => String::new(),
    };
    format!("{verdict}{fired}{searched}")
}

/// The matrix while it runs: how many of its rows are done.
pub fn progress_words(done: usize, total: usize) -> String {
    format!("Running the matrix: {done} of {total} rows done…")
}

/// A row's cells counted by verdict, for the sentence under the table.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    pub held: usize,
    pub broke: usize,
    pub stuck: usize,
    pub invalid: usize,
    pub no_site: usize,
}

/// The chosen row in a sentence, once every row is done: what the
/// scenario as written does under each fault.
pub fn summary_words(row: Row, t: Tally) -> String {
    let ran = t.held + t.broke + t.stuck;
    let mut parts = vec![format!("{} held", t.held), format!("{} broke", t.broke), format!("{} stuck", t.stuck)];
    if t.invalid > 0 {
        parts.push(format!("{} invalid", t.invalid));
    }
    if t.no_site > 0 {
        parts.push(format!("{} with no site for their faults", t.no_site));
    }
    let verdict = if t.broke + t.stuck > 0 { "fails" } else { "passes" };
    format!(
        "{}: of {}, {}. The runner's cachescope matrix {verdict} on this row.",
        row_title(row),
        plural(ran as u64 + t.invalid as u64 + t.no_site as u64, "cell", "cells"),
        super::units::and_list(&parts)
    )
}
