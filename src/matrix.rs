//! The chaos matrix: a scenario run under each cell of the fault matrix
//! upstream tests its controllers with (kubernetes #139657,
//! `test/utils/robustness`, `StandardChaosMatrix`), and under each
//! mitigation its controller can take, a row each.
//!
//! Upstream's matrix runs a controller against a fake client whose faults
//! fire with a wall-clock probability; here each cell is a deterministic
//! fault plan written in the scenario's own vocabulary (`fail_next`, the
//! schedule's late events, `drop_next_event`, a setting), so a cell is a
//! scenario like any other: the page opens it, the runner replays it, and
//! its verdict is the same on every machine. Three cells are cachescope's
//! own, which upstream's `FaultRule`s cannot express: an owner present in
//! the cache but a version behind (upstream's `StaleRead` only hides
//! objects), a lost watch-list bookmark, and the explorer's worst schedule.
//!
//! Each cell says what upstream's harness says: whether safety held (every
//! invariant, checked as the run goes), whether the controller converged
//! once it settled (liveness, at the run's end), and whether every fault it
//! declares fired. A declared fault that never fired makes the cell
//! invalid, as `AssertExpectedFaultsTriggered` does; a cell whose faults
//! the controller gives no place to fire (it never updates its owner, say)
//! has no injection site, which is a fact about the controller, not a pass.
//!
//! Facts only: `crate::narrate::matrix` says them.

pub use crate::scenario::chaos::{Broken, Cell, Fault, Fired, Liveness, NotTaken, Row, Searched, Verdict, NONE};

use crate::explore::{self, Options};
use crate::report::TraceHasher;
use crate::scenario::Scenario;
use crate::scenario::{ActionSpec, DropSpec, FailNextSpec};
use crate::sim::apiserver::{Actor, EventType, FailMode, Verb};
use crate::sim::frame::{Event, Frame};
use crate::sim::object::{Kind, ObjectKey};
use crate::sim::rng::Rng;
use crate::sim::world::{Deviation, World};
use serde::Serialize;

/// How late CacheSyncLag's and VersionBehind's events arrive, beyond the lag.
pub const STALE_MS: u64 = 5_000;
/// ExpectationsTimeout's stale child cache: 1 s, as upstream's cell.
pub const EXPECTATIONS_STALE_MS: u64 = 1_000;
/// How many of a kind's events a stale cell holds back.
pub const STALE_EVENTS: u32 = 8;
/// FlakyAPIServer: each child create fails with this chance in a thousand
/// (upstream's 0.30), drawn from the scenario's seed, over the first
/// `FLAKY_CREATES` creates; the first always fails, so the fault fires
/// wherever the controller creates at all.
pub const FLAKY_PER_MILLE: u64 = 300;
pub const FLAKY_CREATES: u32 = 20;
/// LostBookmark: the watch timeout that ends a watch-list which lost its
/// bookmark, where the scenario sets none (upstream's minWatchTimeout, 5
/// min, or twice the lag and first LIST where they are longer, so that a
/// new watch-list can finish); the run is made this much longer, so a
/// controller that recovers when it ends can converge.
pub const WATCH_TIMEOUT_MS: u64 = 300_000;
/// The worst-schedule cell's search budget, in states.
pub const WORST_BUDGET: u64 = 100_000;

/// One cell of one row.
#[derive(Debug, Clone, Serialize)]
pub struct CellRun {
    pub cell: Cell,
    pub verdict: Verdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub broke: Option<Broken>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub liveness: Option<Liveness>,
    pub faults: Vec<Fired>,
    /// The worst-schedule cell: schedules searched, and whether every one within the bound was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub searched: Option<Searched>,
    pub frames: u64,
    pub trace_hash: String,
    /// The scenario the cell ran: what the page opens and the runner replays.
    #[serde(skip)]
    pub scenario: Option<Scenario>,
}

/// One row: its settings over the scenario, and its cells.
#[derive(Debug, Clone, Serialize)]
pub struct RowRun {
    pub row: Row,
    /// `path=value` for each setting the row sets over the scenario.
    pub settings: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_taken: Option<NotTaken>,
    pub cells: Vec<CellRun>,
}

/// The whole matrix over a scenario: what `cachescope matrix` prints.
#[derive(Debug, Clone, Serialize)]
pub struct Matrix {
    pub scenario: String,
    pub seed: u64,
    /// The row whose failures decide the exit code.
    pub chosen: Row,
    pub cells: Vec<Cell>,
    pub rows: Vec<RowRun>,
    /// A valid cell of the chosen row broke safety or did not converge.
    pub failed: bool,
}

/// What a row's baseline run says the controller does: where faults can fire.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sites {
    /// The controller updates its owner (a status, a finalizer, labels).
    pub owner_updates: bool,
    /// It creates children.
    pub child_creates: bool,
    /// It has an informer on its child kind, and syncs after its first
    /// child create: a held child event can meet a sync.
    pub child_cache: bool,
    /// Its owner changes after it is made (a MODIFIED event reaches the controller).
    pub owner_modified: bool,
    /// It keeps ControllerExpectations.
    pub expectations: bool,
}

/// A row made ready: its scenario (or why it is not taken) and, once its
/// baseline has run, the sites its faults may fire at.
#[derive(Debug, Clone)]
pub struct RowPlan {
    pub row: Row,
    pub settings: Vec<String>,
    pub scenario: Result<Scenario, NotTaken>,
}

/// Each row's scenario over `s`, in `Row::ALL`'s order.
pub fn rows(s: &Scenario) -> Vec<RowPlan> {
    let none = none_of(s);
    let baseline_hash = |sc: &Scenario| play(sc, &[]).trace_hash;
    let none_hash = baseline_hash(&none.0);
    Row::ALL
        .into_iter()
        .map(|row| {
            let (scenario, settings) = match row {
                Row::AsWritten => (Ok(s.clone()), Vec::new()),
                Row::None => (Ok(none.0.clone()), none.1.clone()),
                _ => {
                    let (path, value) = row.mitigation().expect("a mitigation row sets one");
                    let mut settings: Vec<String> = none.1.iter().filter(|set| !set.starts_with(&format!("{path}="))).cloned().collect();
                    settings.push(format!("{path}={value}"));
                    let made = none.0.with_settings([(path, value)]).map_err(|e| NotTaken::Refused { error: e.to_string() });
                    let made = made.and_then(|sc| if baseline_hash(&sc) == none_hash { Err(NotTaken::ChangesNothing) } else { Ok(sc) });
                    (made, settings)
                }
            };
            RowPlan { row, settings, scenario }
        })
        .collect()
}

/// `s` with every mitigation off that the scenario lets be turned off, and
/// the settings that did it: each one the scenario accepts and whose run it changes.
fn none_of(s: &Scenario) -> (Scenario, Vec<String>) {
    let mut out = s.clone();
    let mut hash = play(&out, &[]).trace_hash;
    let mut said = Vec::new();
    for (path, value) in NONE {
        if let Ok(next) = out.with_settings([(path, value)]) {
            let next_hash = play(&next, &[]).trace_hash;
            if next_hash != hash {
                said.push(format!("{path}={value}"));
                (out, hash) = (next, next_hash);
            }
        }
    }
    (out, said)
}

/// Run a whole row: its baseline first, which finds the sites, then each cell.
pub fn run_row(plan: &RowPlan, cells: &[Cell], budget: u64) -> RowRun {
    let scenario = match &plan.scenario {
        Ok(s) => s,
        Err(why) => {
            let cells = cells.iter().map(|&cell| not_taken(cell)).collect();
            return RowRun { row: plan.row, settings: plan.settings.clone(), not_taken: Some(why.clone()), cells };
        }
    };
    let sites = sites(scenario);
    let cells = cells.iter().map(|&cell| run_cell(scenario, cell, sites, budget)).collect();
    RowRun { row: plan.row, settings: plan.settings.clone(), not_taken: None, cells }
}

/// The whole matrix over `s`; `chosen` decides `failed`.
pub fn matrix(s: &Scenario, chosen: Row) -> Matrix {
    matrix_of(s, chosen, &Cell::ALL, WORST_BUDGET)
}

/// [`matrix`] over some `cells`, the worst schedule searched within `budget` states.
pub fn matrix_of(s: &Scenario, chosen: Row, cells: &[Cell], budget: u64) -> Matrix {
    let rows: Vec<RowRun> = rows(s).iter().map(|plan| run_row(plan, cells, budget)).collect();
    let failed = rows.iter().filter(|r| r.row == chosen).flat_map(|r| &r.cells).any(|c| c.verdict.fails());
    Matrix { scenario: s.name.clone(), seed: s.seed, chosen, cells: cells.to_vec(), rows, failed }
}

fn not_taken(cell: Cell) -> CellRun {
    CellRun {
        cell,
        verdict: Verdict::NotTaken,
        broke: None,
        liveness: None,
        faults: Vec::new(),
        searched: None,
        frames: 0,
        trace_hash: String::new(),
        scenario: None,
    }
}

/// Where the controller, run as `s` is, gives faults a place to fire.
pub fn sites(s: &Scenario) -> Sites {
    let init = s.world_init();
    let mut world = World::new(init);
    let (owner, child) = (world.spec.owner, world.spec.child);
    let informer = world.controller_informer(child).is_some();
    let mut sites = Sites { expectations: world.controller.expectations(), ..Sites::default() };
    while let Some(frame) = world.step() {
        match &frame.event {
            Event::ReconcileStarted { .. } | Event::ReconcileNote { .. } => sites.child_cache |= informer && sites.child_creates,
            Event::ApiRequest { entry, .. } if matches!(entry.actor, Actor::Controller(_)) => {
                sites.owner_updates |= Some(entry.kind) == owner && entry.verb == Verb::Update;
                sites.child_creates |= entry.kind == child && entry.verb == Verb::Create;
            }
            Event::WatchDelivered { object, event_type: EventType::Modified, .. } if Some(object.kind) == owner => {
                sites.owner_modified = true;
            }
            _ => {}
        }
    }
    sites
}

/// Run one cell over a row's scenario.
pub fn run_cell(s: &Scenario, cell: Cell, sites: Sites, budget: u64) -> CellRun {
    let site = match cell {
        Cell::BaselineNoFaults | Cell::WorstSchedule => true,
        Cell::WriteConflicts => sites.owner_updates,
        Cell::CacheSyncLag => sites.child_cache,
        Cell::LostBookmark => true,
        Cell::FlakyApiServer => sites.child_creates,
        Cell::CombinedChaos => sites.owner_updates && sites.child_cache,
        Cell::ExpectationsTimeout => sites.expectations && sites.child_cache,
        Cell::VersionBehind => sites.owner_modified,
    };
    let planned = if site { plan(s, cell, budget) } else { None };
    let Some((scenario, searched)) = planned else {
        return CellRun { verdict: Verdict::NoSite, ..not_taken(cell) };
    };
    let played = play(&scenario, cell.faults());
    let faults: Vec<Fired> = cell.faults().iter().map(|&fault| Fired { fault, times: played.fired(fault) }).collect();
    let verdict = if faults.iter().any(|f| f.times == 0) {
        Verdict::Invalid
    } else if played.broke.is_some() {
        Verdict::Broke
    } else if played.liveness.as_ref().is_some_and(|l| !l.converged) {
        Verdict::Stuck
    } else {
        Verdict::Held
    };
    CellRun {
        cell,
        verdict,
        broke: played.broke,
        liveness: played.liveness,
        faults,
        searched,
        frames: played.frames,
        trace_hash: played.trace_hash,
        scenario: Some(scenario),
    }
}

/// The cell's fault plan written into `s` (`None`: the scenario cannot take
/// it, e.g. a watch-list it refuses), and, for the worst schedule, what the
/// search covered.
pub fn plan(s: &Scenario, cell: Cell, budget: u64) -> Option<(Scenario, Option<Searched>)> {
    let spec = s.controller.spec();
    let (owner, child) = (spec.owner, spec.child);
    let mut out = s.clone();
    if cell != Cell::BaselineNoFaults {
        // Its checks and lesson are the story as written, which the faults change.
        out.expect.clear();
        out.lesson.clear();
    }
    match cell {
        Cell::BaselineNoFaults => {}
        Cell::WriteConflicts => {
            // The 1st and 2nd update of the owner, status or not.
            let owner = owner?;
            arm(&mut out, Verb::Update, owner, FailMode::Conflict, 1);
            arm(&mut out, Verb::Update, owner, FailMode::Conflict, 1);
        }
        Cell::CacheSyncLag => hold(&mut out, child, 1, STALE_MS),
        Cell::FlakyApiServer => {
            let mut rng = Rng::new(s.seed ^ 0x_f1a4_7a91);
            for nth in 1..=FLAKY_CREATES {
                if nth == 1 || rng.below(1_000) < FLAKY_PER_MILLE {
                    arm(&mut out, Verb::Create, child, FailMode::InternalError, nth);
                }
            }
        }
        Cell::CombinedChaos => {
            arm(&mut out, Verb::Update, owner?, FailMode::Conflict, 1);
            hold(&mut out, child, 2, STALE_MS);
        }
        Cell::ExpectationsTimeout => {
            // The expectations' clock moved past its timeout: a record is
            // expired as soon as it is made.
            out = out.with_settings([("cluster.expectations_timeout_ms", "1")]).ok()?;
            hold(&mut out, child, 2, EXPECTATIONS_STALE_MS);
        }
        Cell::VersionBehind => hold(&mut out, owner?, 2, STALE_MS),
        Cell::LostBookmark => {
            if !out.controller.watch_list() {
                out = out.with_settings([("controller.watch_list", "true")]).ok()?;
            }
            if out.cluster.watch_timeout_ms == 0 {
                // Long enough for a new watch-list's bookmark to come through the lag.
                let lag = out.cluster.watch_lag_ms + out.cluster.initial_list_ms;
                let timeout = WATCH_TIMEOUT_MS.max(2 * lag + 1_000);
                out.cluster.watch_timeout_ms = timeout;
                out.until_ms = out.until_ms.saturating_add(timeout);
                out.validate().ok()?;
            }
            let drop = DropSpec { kind: child, event_type: None, bookmark: true };
            out.actions.push(ActionSpec { at_ms: 0, drop_next_event: Some(drop), ..ActionSpec::default() });
        }
        Cell::WorstSchedule => {
            let o = Options { budget, ..Options::default() };
            let found = explore::explore(s, &o);
            let searched = Searched {
                schedules: found.explored,
                complete: found.complete,
                found: found.violation.is_some(),
                deviations: found.violation.as_ref().map_or(0, |v| v.deviations),
            };
            if let Some(v) = found.violation {
                out.schedule = v.schedule;
            }
            return Some((out, Some(searched)));
        }
    }
    out.validate().ok()?;
    Some((out, None))
}

/// Arm a failure at the run's start: the controller's `nth` request with
/// `verb` on `kind`. Appended, so the scenario's own actions keep their
/// indices (the world runs actions by time, then in the order given).
fn arm(s: &mut Scenario, verb: Verb, kind: Kind, mode: FailMode, nth: u32) {
    let fail = FailNextSpec { verb, kind, mode, nth: (nth > 1).then_some(nth) };
    s.actions.push(ActionSpec { at_ms: 0, fail_next: Some(fail), ..ActionSpec::default() });
}

/// Hold `kind`'s events from the `from`th on `late_ms` late, `STALE_EVENTS`
/// of them, where the scenario's own schedule does not already time them.
fn hold(s: &mut Scenario, kind: Kind, from: u32, late_ms: u64) {
    for nth in from..from + STALE_EVENTS {
        if !s.schedule.iter().any(|d| d.kind == kind && d.nth == nth) {
            s.schedule.push(Deviation::late(kind, nth, late_ms));
        }
    }
}

/// What a cell's run showed.
struct Played {
    broke: Option<Broken>,
    liveness: Option<Liveness>,
    frames: u64,
    trace_hash: String,
    fired: Vec<(Fault, u32)>,
}

impl Played {
    fn fired(&self, fault: Fault) -> u32 {
        self.fired.iter().find(|(f, _)| *f == fault).map_or(0, |(_, n)| *n)
    }
}

/// Run `s` to its end, counting `faults` as they fire.
fn play(s: &Scenario, faults: &[Fault]) -> Played {
    let mut world = World::new(s.world_init());
    let (owner, child) = (world.spec.owner, world.spec.child);
    let mut hasher = TraceHasher::default();
    let mut broke = None;
    let mut settled_at_ms = 0;
    let mut fired: Vec<(Fault, u32)> = faults.iter().map(|&f| (f, 0)).collect();
    while let Some(frame) = world.step() {
        hasher.add(&frame);
        if broke.is_none() {
            broke = frame.broke.first().map(|v| Broken { invariant: v.invariant.to_string(), frame: frame.n, at_ms: frame.at_ms });
        }
        if let Event::ApiRequest { entry, .. } = &frame.event {
            if entry.verb != Verb::Get && entry.verb != Verb::List && entry.verb != Verb::Watch && entry.status.is_success() {
                settled_at_ms = frame.at_ms;
            }
        }
        for (fault, n) in fired.iter_mut() {
            if fires(*fault, &frame, &world, owner, child) {
                *n += 1;
            }
        }
    }
    let liveness = owner.and_then(|owner| {
        let (owners, short) = world.invariants.check_converged(owner, &world.api);
        (owners > 0).then(|| Liveness { converged: short.is_none(), settled_at_ms, short })
    });
    Played { broke, liveness, frames: world.frames(), trace_hash: hasher.hex(), fired }
}

/// Whether `frame` (with the world just after it) is `fault` firing.
fn fires(fault: Fault, frame: &Frame, world: &World, owner: Option<Kind>, child: Kind) -> bool {
    match (fault, &frame.event) {
        (Fault::OwnerConflict, Event::ApiRequest { entry, .. }) => {
            entry.injected && entry.verb == Verb::Update && Some(entry.kind) == owner && entry.status.code == 409
        }
        (Fault::ChildCreateFails, Event::ApiRequest { entry, .. }) => entry.injected && entry.verb == Verb::Create && entry.kind == child,
        (Fault::StaleChildCache, Event::ReconcileStarted { .. } | Event::ReconcileNote { .. }) => world
            .controller_informer(child)
            .is_some_and(|inf| inf.wire().any(|e| e.event_type == EventType::Added && (e.held_ms > 0 || e.due_ms.is_some()))),
        (Fault::ExpectationsExpired, Event::ApiRequest { entry, .. }) => {
            world.controller.expectations()
                && matches!(entry.actor, Actor::Controller(_))
                && entry.verb == Verb::Create
                && entry.kind == child
        }
        (Fault::OwnerVersionBehind, Event::ReconcileStarted { key, .. }) => {
            let Some(owner) = owner else { return false };
            let Some((namespace, name)) = key.split_once('/') else { return false };
            let key = ObjectKey::new(namespace, name);
            let cached = world.controller_informer(owner).and_then(|inf| inf.get(&key)).map(|o| o.resource_version);
            let truth = world.api.get(owner, &key).map(|o| o.resource_version);
            matches!((cached, truth), (Some(c), Some(t)) if c < t)
        }
        (Fault::BookmarkLost, Event::BookmarkDropped { kind, .. }) => *kind == child,
        _ => false,
    }
}
