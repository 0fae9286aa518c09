//! The chaos matrix's vocabulary: its cells (fault plans), rows
//! (mitigations), the faults a cell declares and the verdicts it reaches, as
//! facts. The plans and runs are `crate::matrix`'s; the words are
//! `crate::narrate::matrix`'s, which is why these live below both.

use crate::sim::frame::Shortfall;
use serde::Serialize;

/// A column of the matrix: a fault plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Cell {
    BaselineNoFaults,
    WriteConflicts,
    CacheSyncLag,
    #[serde(rename = "FlakyAPIServer")]
    FlakyApiServer,
    CombinedChaos,
    ExpectationsTimeout,
    /// cachescope's own: the owner in the cache, but old.
    VersionBehind,
    /// cachescope's own: the child watch-list's initial-events-end bookmark lost.
    LostBookmark,
    /// cachescope's own: the explorer's first breaking schedule at the scenario's lag.
    WorstSchedule,
}

impl Cell {
    pub const ALL: [Cell; 9] = [
        Cell::BaselineNoFaults,
        Cell::WriteConflicts,
        Cell::CacheSyncLag,
        Cell::FlakyApiServer,
        Cell::CombinedChaos,
        Cell::ExpectationsTimeout,
        Cell::VersionBehind,
        Cell::LostBookmark,
        Cell::WorstSchedule,
    ];

    /// Its name, upstream's where upstream has the cell.
    pub fn name(self) -> &'static str {
        match self {
            Cell::BaselineNoFaults => "BaselineNoFaults",
            Cell::WriteConflicts => "WriteConflicts",
            Cell::CacheSyncLag => "CacheSyncLag",
            Cell::FlakyApiServer => "FlakyAPIServer",
            Cell::CombinedChaos => "CombinedChaos",
            Cell::ExpectationsTimeout => "ExpectationsTimeout",
            Cell::VersionBehind => "VersionBehind",
            Cell::LostBookmark => "LostBookmark",
            Cell::WorstSchedule => "WorstSchedule",
        }
    }

    /// One of upstream's `StandardChaosMatrix` cells.
    pub fn upstream(self) -> bool {
        !matches!(self, Cell::VersionBehind | Cell::LostBookmark | Cell::WorstSchedule)
    }

    /// The faults it declares, each of which must fire for the cell to count.
    pub fn faults(self) -> &'static [Fault] {
        match self {
            Cell::BaselineNoFaults | Cell::WorstSchedule => &[],
            Cell::WriteConflicts => &[Fault::OwnerConflict],
            Cell::CacheSyncLag => &[Fault::StaleChildCache],
            Cell::FlakyApiServer => &[Fault::ChildCreateFails],
            Cell::CombinedChaos => &[Fault::OwnerConflict, Fault::StaleChildCache],
            Cell::ExpectationsTimeout => &[Fault::ExpectationsExpired, Fault::StaleChildCache],
            Cell::VersionBehind => &[Fault::OwnerVersionBehind],
            Cell::LostBookmark => &[Fault::BookmarkLost],
        }
    }

    pub fn parse(name: &str) -> Option<Cell> {
        Cell::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// A row of the matrix: the mitigation the controller runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Row {
    /// The scenario's own settings.
    AsWritten,
    /// Every mitigation below off, children named by the server.
    None,
    Expectations,
    ConsistencyStore,
    ReadYourWrites,
    LiveReads,
    DeterministicNames,
}

/// What `Row::None` turns off, as settings.
pub const NONE: [(&str, &str); 5] = [
    ("controller.expectations", "false"),
    ("controller.consistency_store", "false"),
    ("controller.read_your_writes", "false"),
    ("controller.live_reads", "false"),
    ("controller.naming", "generate"),
];

impl Row {
    pub const ALL: [Row; 7] =
        [Row::AsWritten, Row::None, Row::Expectations, Row::ConsistencyStore, Row::ReadYourWrites, Row::LiveReads, Row::DeterministicNames];

    pub fn name(self) -> &'static str {
        match self {
            Row::AsWritten => "as_written",
            Row::None => "none",
            Row::Expectations => "expectations",
            Row::ConsistencyStore => "consistency_store",
            Row::ReadYourWrites => "read_your_writes",
            Row::LiveReads => "live_reads",
            Row::DeterministicNames => "deterministic_names",
        }
    }

    pub fn parse(name: &str) -> Option<Row> {
        Row::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The one setting that turns its mitigation on, over `Row::None`.
    pub fn mitigation(self) -> Option<(&'static str, &'static str)> {
        match self {
            Row::AsWritten | Row::None => None,
            Row::Expectations => Some(("controller.expectations", "true")),
            Row::ConsistencyStore => Some(("controller.consistency_store", "true")),
            Row::ReadYourWrites => Some(("controller.read_your_writes", "true")),
            Row::LiveReads => Some(("controller.live_reads", "true")),
            Row::DeterministicNames => Some(("controller.naming", "deterministic")),
        }
    }
}

/// A fault a cell declares, and what counts as its firing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// An injected `409 Conflict` answered the controller's update of its owner.
    OwnerConflict,
    /// A reconcile ran while one of the cell's held child events was still on
    /// the wire: the child cache lacked what the cluster held.
    StaleChildCache,
    /// An injected `500` answered the controller's create of a child.
    ChildCreateFails,
    /// The controller made an expectation the moved clock had already
    /// expired: a child create it expected.
    ExpectationsExpired,
    /// A reconcile ran while its owner's cached version was behind the cluster's.
    OwnerVersionBehind,
    /// The child watch-list's bookmark was lost on the wire.
    BookmarkLost,
}

/// How often a declared fault fired in a cell's run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fired {
    pub fault: Fault,
    pub times: u32,
}

/// The first invariant a run broke.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Broken {
    pub invariant: String,
    pub frame: u64,
    pub at_ms: u64,
}

/// Whether the controller converged once it settled: every owner's active
/// children at its desired count at the run's end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Liveness {
    pub converged: bool,
    /// The cluster's last write: when it settled.
    pub settled_at_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short: Option<Shortfall>,
}

/// A cell's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every declared fault fired; safety held; it converged (or has nothing to converge to).
    Held,
    /// Safety broke: an invariant.
    Broke,
    /// Safety held, but the controller did not converge by the run's end.
    Stuck,
    /// A declared fault never fired: the run says nothing about it.
    Invalid,
    /// The controller gives the cell's faults no place to fire.
    NoSite,
    /// The row's mitigation is not one this controller can take.
    NotTaken,
}

impl Verdict {
    pub const ALL: [Verdict; 6] = [Verdict::Held, Verdict::Broke, Verdict::Stuck, Verdict::Invalid, Verdict::NoSite, Verdict::NotTaken];

    /// A valid cell whose controller failed it: what makes `cachescope matrix` exit 1.
    pub fn fails(self) -> bool {
        matches!(self, Verdict::Broke | Verdict::Stuck)
    }
}

/// Why a row is not taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub enum NotTaken {
    /// The scenario refuses its setting (the validator's error).
    Refused { error: String },
    /// Its setting changes nothing in this controller's run.
    ChangesNothing,
}

/// What the worst-schedule cell's search covered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Searched {
    pub schedules: u64,
    pub complete: bool,
    /// It found a schedule that breaks an invariant.
    pub found: bool,
    /// Events it held back beyond the scenario's own schedule.
    pub deviations: usize,
}
