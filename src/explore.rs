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

use crate::scenario::{limits, Scenario, ScenarioError};
use crate::sim::object::{Kind, MAX_KINDS};
use crate::sim::world::{Deviation, World};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

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
    /// No pruning: every schedule runs to its end, even through a state
    /// already explored. Slower, and the check on the pruning: it must find
    /// the same verdict at the same number of deviations (`tests/explore.rs`).
    pub exhaustive: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { invariant: None, max_deviations: 2, budget: 2_000_000, late_ms: vec![1_000, 10_000], drops: false, exhaustive: false }
    }
}

impl Options {
    /// Check each argument against its limit in the one table
    /// ([`crate::scenario::limits::LIMITS`]: `--max-deviations`, `--budget`,
    /// `--late`), and the invariant against the ones `s` checks; the error
    /// names the flag and its value. Nothing is clamped: what is over is refused.
    pub fn check(&self, s: &Scenario) -> Result<(), ScenarioError> {
        if let Some(name) = &self.invariant {
            let names = s.invariant_names();
            if !names.contains(&name.as_str()) {
                return Err(ScenarioError::new(
                    "--invariant",
                    Some(format!("{name:?}")),
                    format!("unknown invariant; known: {}", names.join(", ")),
                ));
            }
        }
        limits::get("--max-deviations").check("--max-deviations", self.max_deviations as u64)?;
        limits::get("--budget").check("--budget", self.budget)?;
        limits::get("--late").check("--late", self.late_ms.len() as u64)?;
        for (i, ms) in self.late_ms.iter().enumerate() {
            limits::get("schedule[].late_ms").check("--late", *ms)?;
            if self.late_ms[..i].contains(ms) {
                return Err(ScenarioError::new("--late", Some(ms.to_string()), format!("{ms} is given twice; each value is one choice")));
            }
        }
        Ok(())
    }
}

/// What the search holds per state of its budget, at most, in bytes: an
/// entry of the visited set (8 bytes in a hash table at least 7/16 full,
/// twice over while it grows) and a [`Node`] per schedule run. The search's
/// memory is this times its budget plus one world; `tests/memory.rs`
/// measures it with the benchmark's counting allocator.
pub const BYTES_PER_STATE: u64 = 64;

/// The explorer's arguments as `cachescope explore` takes them (native only:
/// clap is the runner's), shared with `make fuzz`'s `explore` harness.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone, clap::Args)]
pub struct Flags {
    /// The invariant to break (default: any).
    #[arg(long)]
    pub invariant: Option<String>,
    /// The most events held back in one schedule (0-8).
    #[arg(long, default_value_t = 2)]
    pub max_deviations: usize,
    /// The most states (frames simulated over every run) to search (at most 10,000,000).
    #[arg(long, default_value_t = 2_000_000)]
    pub budget: u64,
    /// How late a held-back event arrives (ms, 1-600000); repeat for more choices (at most 16).
    #[arg(long = "late", default_values_t = [1_000u64, 10_000])]
    pub late_ms: Vec<u64>,
    /// Also try losing each event on the wire (a fault a real watch never
    /// commits silently; what it breaks shows what a controller relies on).
    #[arg(long)]
    pub drop: bool,
    /// Search without pruning by state: every schedule runs to its end (slower;
    /// the check on the pruned search, which must agree).
    #[arg(long)]
    pub exhaustive: bool,
}

#[cfg(not(target_arch = "wasm32"))]
impl Flags {
    /// The search these flags ask for over `s`, each within its limit ([`Options::check`]).
    pub fn options(&self, s: &Scenario) -> Result<Options, ScenarioError> {
        let o = Options {
            invariant: self.invariant.clone(),
            max_deviations: self.max_deviations,
            budget: self.budget,
            late_ms: self.late_ms.clone(),
            drops: self.drop,
            exhaustive: self.exhaustive,
        };
        o.check(s)?;
        Ok(o)
    }
}

/// A schedule that breaks an invariant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexample {
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
    pub violation: Option<Counterexample>,
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

/// A schedule searched whose children are still to come: the deviation it
/// adds to its parent's (by index: its kind, its ordinal, which choice of
/// [`Options`]), and the events its run sent, which are its children's
/// choices. 28 bytes, one per schedule that has children: the frontier is
/// never materialized (a level's schedules are enumerated from their
/// parents as they are run), so the search holds one node per schedule
/// run, never one per choice it could make.
#[derive(Debug, Clone, Copy)]
struct Node {
    /// The parent's index, or [`Node::ROOT`] for the default schedule.
    parent: u32,
    nth: u32,
    sent: [u32; MAX_KINDS],
    /// Its kind's `Kind::index`.
    kind: u8,
    /// An index into `Options::late_ms`, or its length for "lost on the wire".
    choice: u16,
}

impl Node {
    const ROOT: u32 = u32::MAX;
}

/// The deviation a node adds (`kinds`: the run's, by `Kind::index`).
fn deviation(n: &Node, o: &Options, kinds: &[Kind]) -> Deviation {
    let kind = kinds[usize::from(n.kind)];
    match o.late_ms.get(usize::from(n.choice)) {
        Some(ms) => Deviation::late(kind, n.nth, *ms),
        None => Deviation { drop: true, ..Deviation::on_time(kind, n.nth) },
    }
}

/// The deviations the schedule at `nodes[i]` adds, first to last.
fn added(nodes: &[Node], mut i: u32, o: &Options, kinds: &[Kind]) -> Vec<Deviation> {
    let mut out = Vec::new();
    while i != Node::ROOT {
        let n = &nodes[i as usize];
        if n.parent == Node::ROOT && n.kind == u8::MAX {
            break;
        }
        out.push(deviation(n, o, kinds));
        i = n.parent;
    }
    out.reverse();
    out
}

/// Why one schedule's run ended.
enum RunEnd {
    /// It ran to its end, or into a state already explored, or hit the budget; what it sent.
    Done([u32; MAX_KINDS]),
    /// It broke the invariant, or the caller stopped the search: return `out`.
    Return,
}

/// [`explore`], telling `progress` how far it has got every
/// [`PROGRESS_EVERY`] states (the page's live count); the search stops,
/// incomplete, when it answers `false`.
///
/// Memory is bounded by the budget, by construction: the visited set gets
/// at most one entry per state simulated (and one per schedule), and the
/// search keeps one [`Node`] per schedule run below the last level, never a
/// queue of the choices still to try, however many `late_ms` values there
/// are. [`Options::check`] holds the budget itself to its limit.
pub fn explore_with(s: &Scenario, o: &Options, progress: &mut dyn FnMut(&Exploration) -> bool) -> Exploration {
    let init = s.world_init();
    let (base, all) = (init.schedule, init.kinds);
    let kinds = s.controller.spec().watches;
    let mut out = Exploration::default();
    // Each state's fingerprint (counted, not used to prune, when exhaustive).
    let mut seen: HashSet<u64> = HashSet::new();
    let choices = o.late_ms.len() + usize::from(o.drops);
    // Run one schedule; `Return` when the search is over.
    let mut run = |added: &[Deviation], level: usize, out: &mut Exploration, seen: &mut HashSet<u64>| -> RunEnd {
        let mut init = s.world_init();
        init.schedule = canonical(base.iter().chain(added).copied().collect());
        let schedule = init.schedule.clone();
        let mut world = World::new(init);
        out.explored += 1;
        // Run to the end, or to a state some run has already been in with the same deviations ahead.
        loop {
            if !seen.insert(fingerprint(&schedule, &world)) && world.frames() > 0 && !o.exhaustive {
                break;
            }
            let Some(frame) = world.step() else { break };
            out.states += 1;
            let broke = frame.broke.iter().find(|v| o.invariant.as_deref().is_none_or(|name| v.invariant == name));
            if let Some(v) = broke {
                out.violation = Some(Counterexample {
                    invariant: v.invariant.to_string(),
                    frame: frame.n,
                    deviations: level,
                    schedule: schedule.clone(),
                });
                out.distinct_states = seen.len() as u64;
                return RunEnd::Return;
            }
            if out.states >= o.budget {
                break;
            }
            if out.states.is_multiple_of(PROGRESS_EVERY) {
                out.distinct_states = seen.len() as u64;
                if !progress(out) {
                    out.stopped = true;
                    return RunEnd::Return;
                }
            }
        }
        RunEnd::Done(world.events_sent)
    };
    // Level 0: the default schedule, the root of every other.
    let RunEnd::Done(sent) = run(&[], 0, &mut out, &mut seen) else { return out };
    let mut nodes = vec![Node { parent: Node::ROOT, nth: 0, sent, kind: u8::MAX, choice: 0 }];
    let mut parents = 0..1usize;
    for level in 1..=o.max_deviations {
        out.level = level;
        let first_child = nodes.len();
        for p in parents.clone() {
            if out.states >= o.budget {
                out.distinct_states = seen.len() as u64;
                return out;
            }
            let parent = nodes[p];
            let mut schedule = added(&nodes, p as u32, o, &all);
            let last = schedule.last().map(|d| (d.kind, d.nth));
            // Children: one more event held back, after the last one this schedule holds
            // (canonical order, so each set of deviations is tried once), among those it sent.
            for kind in kinds {
                for nth in 1..=parent.sent[kind.index()] {
                    if last.is_some_and(|l| l >= (*kind, nth)) {
                        continue;
                    }
                    for choice in 0..choices {
                        if out.states >= o.budget {
                            out.distinct_states = seen.len() as u64;
                            return out;
                        }
                        let node = Node { parent: p as u32, nth, sent: [0; MAX_KINDS], kind: kind.index() as u8, choice: choice as u16 };
                        schedule.push(deviation(&node, o, &all));
                        let end = run(&schedule, level, &mut out, &mut seen);
                        schedule.pop();
                        match end {
                            RunEnd::Return => return out,
                            RunEnd::Done(sent) if level < o.max_deviations => nodes.push(Node { sent, ..node }),
                            RunEnd::Done(_) => {}
                        }
                    }
                }
            }
        }
        if nodes.len() == first_child {
            break;
        }
        parents = first_child..nodes.len();
    }
    out.complete = out.states < o.budget;
    out.distinct_states = seen.len() as u64;
    out
}

/// A state and the deviations still ahead of it (not yet sent), hashed into one word.
fn fingerprint(schedule: &[Deviation], world: &World) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write_u64(world.fingerprint());
    schedule.iter().filter(|d| d.nth > world.events_sent[d.kind.index()]).for_each(|d| d.hash(&mut h));
    h.finish()
}

/// The counterexample as a scenario: `s` with the violating schedule, which
/// `cachescope run` replays to the same broken invariant at the same frame.
///
/// It is always a scenario `run` accepts, or none: the description gets one
/// sentence saying what was found (the scenario's own text is shortened, at a
/// word, when both would pass its limit), and a schedule over its limit loses
/// the entries for events the run never sends (they change nothing). When the
/// events it does send need more entries than a scenario may hold, there is
/// no counterexample to write, and the error says so, naming `schedule`.
pub fn counterexample(s: &Scenario, v: &Counterexample) -> Result<Scenario, ScenarioError> {
    let mut c = s.clone();
    c.schedule = v.schedule.clone();
    let max_entries = limits::get("schedule").max as usize;
    if c.schedule.len() > max_entries {
        // The run to its end, to learn which events it sends at all.
        let mut world = World::new(c.world_init());
        while world.step().is_some() {}
        let sent = world.events_sent;
        c.schedule.retain(|d| d.nth <= sent[d.kind.index()]);
        if c.schedule.len() > max_entries {
            return Err(ScenarioError::new(
                "schedule",
                Some(format!("{} entries", c.schedule.len())),
                format!(
                    "the counterexample holds back {} events this run sends, and a scenario's schedule holds at most {max_entries}: \
                     it cannot be written as a scenario (found: {} breaks at frame {})",
                    c.schedule.len(),
                    v.invariant,
                    v.frame
                ),
            ));
        }
    }
    // What the search added, beyond the scenario's own schedule.
    let mut own = s.schedule.clone();
    let added: Vec<Deviation> = v
        .schedule
        .iter()
        .filter(|d| match own.iter().position(|o| o == *d) {
            Some(i) => {
                own.remove(i);
                false
            }
            None => true,
        })
        .copied()
        .collect();
    let when = crate::narrate::explore::when_words(&added, s.schedule.len());
    let found = crate::narrate::explore::found_words(&v.invariant, v.frame, &when);
    let max_chars = limits::get("description").max as usize;
    let own_text = s.description.trim();
    c.description = if own_text.is_empty() {
        found.chars().take(max_chars).collect()
    } else {
        let room = max_chars.saturating_sub(found.chars().count() + 1);
        format!("{} {found}", shortened(own_text, room)).trim().chars().take(max_chars).collect()
    };
    // Its first caption says what was found, not the preset's own way in.
    let start = crate::narrate::explore::start_words(&v.invariant, v.frame, Some(&when));
    c.start = if start.chars().count() as u64 <= limits::get("start").max {
        start
    } else {
        crate::narrate::explore::start_words(&v.invariant, v.frame, None)
    };
    // Its checks were written for the run without this schedule: it keeps
    // those that apply to it and hold, never a sentence its run contradicts.
    let mut world = World::new(c.world_init());
    let mut frames = Vec::new();
    while let Some(f) = world.step() {
        frames.push(f);
    }
    let effective = crate::scenario::expect::effective_settings(&c, &world);
    c.expect.retain(|check| check.applies(&effective) && check.outcome(&world, &frames).held);
    c.validate()?;
    Ok(c)
}

/// `text` in at most `room` characters: whole, or cut at a word with "…".
fn shortened(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        return text.to_string();
    }
    let keep: String = text.chars().take(room.saturating_sub(1)).collect();
    let cut = match keep.rfind(char::is_whitespace) {
        Some(i) if i > 0 => keep[..i].trim_end().to_string(),
        _ => keep,
    };
    format!("{cut}…")
}
