//! In-process fuzzing on stable Rust, for `make fuzz`: every parser a link,
//! a file or a host page can reach, fed mutated inputs grown from a committed
//! seed corpus (`fuzz/corpus/<harness>/`).
//!
//! Why not cargo-fuzz: libFuzzer needs nightly and a sanitizer build, which
//! these machines and CI do not have; what matters here is that no input
//! panics, hangs or is accepted beyond the work budget, and a fast mutation
//! loop over structured seeds finds those. Mutations are byte-level (flip,
//! insert, delete, duplicate, splice another seed) and token-level (a
//! dictionary of the formats' own words and edge values). An input a harness
//! accepts joins the corpus, so accepted shapes breed.
//!
//! A failure is a panic (caught per input), an input that takes longer than
//! the deadline (a watchdog thread aborts with the input), or a scenario that
//! is accepted but breaks the budget: more objects at the peak than
//! `MAX_OBJECTS_AT_PEAK`, or a run that does not end within its frame limit.
//! The `explore` harness feeds `cachescope explore`'s own arguments (the
//! flags and their counts, parsed as the runner parses them): an accepted
//! set must be within every limit the table declares for them, and a search
//! run with it (on a sample, at a small budget) must hold no more memory than
//! `explore::BYTES_PER_STATE` per state plus its world (counted by the
//! runner's allocator), so a flag added without a limit is found here.
//! The input is written to `target/fuzz-failures/` and the run exits 1.
//!
//! Native only: it reads the wall clock and spawns a thread.

use crate::scenario::limits::{self, MAX_OBJECTS_AT_PEAK};
use crate::scenario::{preset, set_path, Scenario, PRESETS};
use crate::sim::hash::fnv1a;
use crate::sim::rng::Rng;
use crate::sim::world::World;
use crate::view::session::Edit;
use crate::view::{host, url};
use std::collections::HashSet;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The harnesses, by name: what each feeds its input to.
pub const HARNESSES: &[&str] = &["scenario", "path", "url", "z", "edit", "host", "explore"];

/// The scenario the `explore` harness searches with the arguments it accepts.
const EXPLORE_SCENARIO: &str = "replicaset-pressure";

/// The budget the `explore` harness runs an accepted search with, at most:
/// the budget is bounded by its own limit (checked on every input); what a
/// run must show is that nothing else grows without it.
const EXPLORE_RUN_BUDGET: u64 = 100_000;

/// How long one input may take (parsing, or a whole simulated run).
pub const DEADLINE: Duration = Duration::from_secs(20);

/// What a harness did with one input.
enum Verdict {
    Refused,
    Accepted,
    /// Accepted, but beyond the work budget: a failure.
    OverBudget(String),
}

/// Words the inputs are made of, and values at the edges of their types.
const DICTIONARY: &[&str] = &[
    "\"name\"",
    "\"controller\"",
    "\"kind\"",
    "\"ensemble\"",
    "\"replicaset\"",
    "\"pruner\"",
    "\"objects\"",
    "\"actions\"",
    "\"count\"",
    "\"voices\"",
    "\"replicas\"",
    "\"scale\"",
    "\"to\"",
    "\"apply\"",
    "\"delete\"",
    "\"delete_pods\"",
    "\"until_ms\"",
    "\"at_ms\"",
    "\"cluster\"",
    "\"watch_lag_ms\"",
    "\"expect\"",
    "\"measure\"",
    "\"labels\"",
    "\"finalizers\"",
    "\"owner_references\"",
    "\"Ensemble\"",
    "\"ReplicaSet\"",
    "\"ConfigMap\"",
    "\"Pod\"",
    "\"{i}\"",
    "\"e-{i}\"",
    "\"generate\"",
    "\"seed\"",
    "\"workers\"",
    "0",
    "1",
    "-1",
    "999",
    "1000",
    "1999",
    "2000",
    "2001",
    "5000",
    "20000",
    "86400000",
    "86400001",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "1e309",
    "0.5",
    "null",
    "true",
    "false",
    "[]",
    "{}",
    "\"\"",
    "\"\\u0000\"",
    "\"\\u202e\"",
    "\"\\ud800\"",
    "\u{FEFF}",
    "\u{202E}",
    "\u{FFFE}",
    ",",
    ":",
    "[",
    "]",
    "{",
    "}",
    "\"",
    "\\",
    "&",
    "=",
    "%",
    "%00",
    "%ZZ",
    "+",
    "s=",
    "z=",
    "scenario=",
    "edit=",
    "frame=",
    "panels=",
    "controls=",
    "origin=",
    "speed=",
    "gc=",
    "seed=",
    "controller.naming=",
    "cluster.watch_lag_ms=",
    "do=",
    "scale:",
    "delete_owner:",
    "fail_next_create:",
    "pause_controller:",
    "\"cachescope\"",
    "\"seek\"",
    "\"load\"",
    "\"frame\"",
    "\"scenario\"",
    ".",
    "..",
    "[0]",
    "[99999999999]",
    "--max-deviations ",
    "--budget ",
    "--late ",
    "--drop ",
    "--invariant ",
    "children_within_desired",
    " 8 ",
    " 9 ",
    " 16 ",
    " 600000 ",
    " 600001 ",
    " 10000000 ",
    " 10000001 ",
    "\n",
    "\t",
];

/// Feed one input to a harness.
fn feed(harness: &str, input: &str) -> Verdict {
    match harness {
        "scenario" => scenario(Scenario::from_json(input)),
        "path" => {
            // `PATH=VALUE` against a preset's document, as `--set` and the URL do.
            let (path, raw) = input.split_once('=').unwrap_or((input, ""));
            let base = preset("over-create").expect("a preset");
            let mut doc = base.to_value();
            if set_path(&mut doc, path, raw).is_err() {
                return Verdict::Refused;
            }
            scenario(base.with_settings([(path, raw)]))
        }
        "url" => {
            let parsed = url::parse_query_lenient(input, "over-create");
            match budget(&parsed.state.scenario) {
                Some(why) => Verdict::OverBudget(why),
                None if parsed.problems.is_empty() => Verdict::Accepted,
                None => Verdict::Refused,
            }
        }
        "z" => match url::unpack(input) {
            Ok(json) => scenario(Scenario::from_json(&json)),
            Err(_) => Verdict::Refused,
        },
        "edit" => match Edit::parse(input) {
            Ok(_) => Verdict::Accepted,
            Err(_) => Verdict::Refused,
        },
        "host" => match host::parse(input) {
            Ok(Some(_)) => Verdict::Accepted,
            _ => Verdict::Refused,
        },
        "explore" => match explore_options(input) {
            None => Verdict::Refused,
            Some(o) => explore_within_limits(&o).map_or(Verdict::Accepted, Verdict::OverBudget),
        },
        other => panic!("no harness {other}"),
    }
}

fn scenario(parsed: Result<Scenario, crate::scenario::ScenarioError>) -> Verdict {
    match parsed {
        Err(_) => Verdict::Refused,
        Ok(s) => budget(&s).map_or(Verdict::Accepted, Verdict::OverBudget),
    }
}

/// An accepted scenario within the budget asks for at most its objects.
fn budget(s: &Scenario) -> Option<String> {
    let (n, field, _) = limits::objects_at_peak(s, None);
    (n > MAX_OBJECTS_AT_PEAK).then(|| format!("accepted, but asks for {n} objects at the peak ({field})"))
}

/// `cachescope explore`'s arguments as the runner reads them (after the
/// scenario), accepted or not.
fn explore_options(input: &str) -> Option<crate::explore::Options> {
    #[derive(clap::Parser)]
    #[command(name = "explore", no_binary_name = true)]
    struct Args {
        #[command(flatten)]
        flags: crate::explore::Flags,
    }
    let args = <Args as clap::Parser>::try_parse_from(input.split_whitespace()).ok()?;
    args.flags.options(&preset(EXPLORE_SCENARIO).expect("a preset")).ok()
}

/// Accepted arguments ask for no more than the limits table allows.
fn explore_within_limits(o: &crate::explore::Options) -> Option<String> {
    let over = |path: &str, n: u64| (n > limits::get(path).max).then(|| format!("accepted, but {path} is {n}"));
    over("--budget", o.budget)
        .or_else(|| over("--max-deviations", o.max_deviations as u64))
        .or_else(|| over("--late", o.late_ms.len() as u64))
}

/// Search with accepted arguments (at a budget of at most
/// [`EXPLORE_RUN_BUDGET`]): the memory it holds must stay within
/// `BYTES_PER_STATE` per state plus one world.
fn run_explore(o: &crate::explore::Options) -> Option<String> {
    use crate::bench::{live_bytes, peak_bytes, reset_peak};
    let s = preset(EXPLORE_SCENARIO).expect("a preset");
    let o = crate::explore::Options { budget: o.budget.min(EXPLORE_RUN_BUDGET), ..o.clone() };
    let before = live_bytes();
    reset_peak();
    let found = crate::explore::explore(&s, &o);
    let held = peak_bytes().saturating_sub(before) as u64;
    let ceiling = crate::explore::BYTES_PER_STATE * o.budget + (64 << 20);
    (held > ceiling || found.states > o.budget)
        .then(|| format!("a search held {held} bytes over {} states (ceiling {ceiling}) with {o:?}", found.states))
}

/// Run an accepted scenario to its end: it must end within its frame limit.
fn run_to_end(s: &Scenario) -> Option<String> {
    let init = s.world_init();
    let limit = init.frame_limit;
    let mut world = World::new(init);
    let mut frames = 0u64;
    while world.step().is_some() {
        frames += 1;
        if frames > limit {
            return Some(format!("ran past its frame limit {limit}"));
        }
    }
    None
}

/// The seed corpus of a harness: every file in `dir/<harness>/`, plus, for
/// the scenario parsers, the presets themselves.
fn corpus(dir: &Path, harness: &str) -> Vec<String> {
    let mut seeds: Vec<String> = std::fs::read_dir(dir.join(harness))
        .map(|entries| {
            let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            paths.into_iter().filter_map(|p| std::fs::read(p).ok()).map(|b| String::from_utf8_lossy(&b).into_owned()).collect()
        })
        .unwrap_or_default();
    if harness == "scenario" {
        seeds.extend(PRESETS.iter().map(|(_, json)| json.to_string()));
    }
    if harness == "z" {
        seeds.extend(PRESETS.iter().map(|(_, json)| url::pack(json)));
    }
    if seeds.is_empty() {
        seeds.push(String::new());
    }
    seeds
}

/// One mutation of `input` (at a char boundary, so inputs stay text).
fn mutate(rng: &mut Rng, input: &str, corpus: &[String]) -> String {
    let mut s = input.to_string();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let at = boundary(&s, if s.is_empty() { 0 } else { rng.up_to(s.len() as u64) as usize });
        match rng.below(8) {
            0 | 1 => s.insert_str(at, DICTIONARY[rng.below(DICTIONARY.len() as u64) as usize]),
            2 => {
                // Replace a token-ish run with a dictionary word.
                let end = boundary(&s, (at + 1 + rng.below(11) as usize).min(s.len()));
                s.replace_range(at..end, DICTIONARY[rng.below(DICTIONARY.len() as u64) as usize]);
            }
            3 => {
                let end = boundary(&s, (at + 1 + rng.below(23) as usize).min(s.len()));
                s.replace_range(at..end, "");
            }
            4 => {
                // Duplicate a chunk (lists grow, keys repeat).
                let end = boundary(&s, (at + 1 + rng.below(63) as usize).min(s.len()));
                let chunk = s[at..end].to_string();
                s.insert_str(end, &chunk);
            }
            5 => {
                // A random character, ASCII mostly.
                let c = if rng.below(5) > 0 {
                    (0x20 + rng.below(0x5f)) as u8 as char
                } else {
                    char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{0}')
                };
                s.insert(at, c);
            }
            6 => {
                // A digit run made longer or replaced: numbers at their edges.
                let digits = ["0", "9", "99999", "4294967296", "-", "."];
                s.insert_str(at, digits[rng.below(digits.len() as u64) as usize]);
            }
            _ => {
                // Splice: this input's head, another's tail.
                let other = &corpus[rng.below(corpus.len() as u64) as usize];
                let cut = boundary(other, if other.is_empty() { 0 } else { rng.up_to(other.len() as u64) as usize });
                s.truncate(at);
                s.push_str(&other[cut..]);
            }
        }
        if s.len() > 64 << 10 {
            s.truncate(boundary(&s, 64 << 10));
        }
    }
    s
}

fn boundary(s: &str, mut i: usize) -> usize {
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i.min(s.len())
}

/// What one harness run found.
#[derive(Debug, Clone, Default)]
pub struct HarnessRun {
    pub harness: String,
    pub inputs: u64,
    pub accepted: u64,
    /// Distinct accepted scenarios run to their end.
    pub simulated: u64,
    pub seconds: f64,
    /// The first failure: what, and the input's file.
    pub failure: Option<String>,
}

/// Fuzz one harness with `count` inputs from `seed`.
pub fn run(harness: &str, count: u64, seed: u64, corpus_dir: &Path) -> HarnessRun {
    let mut rng = Rng::new(seed ^ fnv1a(harness.as_bytes()));
    let mut pool = corpus(corpus_dir, harness);
    let seeds = pool.len();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut out = HarnessRun { harness: harness.to_string(), ..HarnessRun::default() };
    let started = Instant::now();
    let (current, since) = watchdog(harness);
    let mut sim_time = Duration::ZERO;
    let quiet = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    for i in 0..count {
        let input = if i < seeds as u64 {
            pool[i as usize].clone()
        } else {
            let parent = rng.below(pool.len() as u64) as usize;
            // Packed documents: half the time, mutate the document and pack it
            // again, so the inflater is fed valid streams of odd documents too.
            match url::unpack(&pool[parent]) {
                Ok(json) if harness == "z" && rng.below(2) == 0 => url::pack(&mutate(&mut rng, &json, &pool)),
                _ => mutate(&mut rng, &pool[parent], &pool),
            }
        };
        *current.lock().unwrap_or_else(|e| e.into_inner()) = input.clone();
        since.store(started.elapsed().as_millis() as u64 + 1, Ordering::SeqCst);
        let verdict = panic::catch_unwind(AssertUnwindSafe(|| feed(harness, &input)));
        let failure = match verdict {
            Err(p) => Some(format!("panicked: {}", panic_text(&p))),
            Ok(Verdict::OverBudget(why)) => Some(why),
            Ok(Verdict::Refused) => None,
            Ok(Verdict::Accepted) => {
                out.accepted += 1;
                if pool.len() < 4_096 && seen.insert(fnv1a(input.as_bytes())) {
                    pool.push(input.clone());
                }
                // Run what the scenario parsers accept, while that costs at
                // most a quarter of the time: every distinct one early, a
                // sample later.
                let text = match harness {
                    "scenario" => Some(input.clone()),
                    "z" => url::unpack(&input).ok(),
                    _ => None,
                };
                let search = (harness == "explore").then(|| explore_options(&input)).flatten();
                if let Some(o) =
                    search.filter(|_| sim_time < started.elapsed() / 4 && seen.insert(fnv1a(format!("run {input}").as_bytes())))
                {
                    let t = Instant::now();
                    let why = panic::catch_unwind(AssertUnwindSafe(|| run_explore(&o)))
                        .unwrap_or_else(|p| Some(format!("the search panicked: {}", panic_text(&p))));
                    sim_time += t.elapsed();
                    out.simulated += 1;
                    why
                } else {
                    match text.and_then(|t| Scenario::from_json(&t).ok()) {
                        Some(s) if sim_time < started.elapsed() / 4 && seen.insert(fnv1a(s.to_value().to_string().as_bytes())) => {
                            let t = Instant::now();
                            let why = panic::catch_unwind(AssertUnwindSafe(|| run_to_end(&s)))
                                .unwrap_or_else(|p| Some(format!("the run panicked: {}", panic_text(&p))));
                            sim_time += t.elapsed();
                            out.simulated += 1;
                            why
                        }
                        _ => None,
                    }
                }
            }
        };
        since.store(0, Ordering::SeqCst);
        out.inputs += 1;
        if let Some(why) = failure {
            let file = save_failure(harness, &input);
            out.failure = Some(format!("{why}; input saved as {}", file.display()));
            break;
        }
    }
    panic::set_hook(quiet);
    out.seconds = started.elapsed().as_secs_f64();
    out
}

/// A thread that aborts the process, with the input, when one takes longer than [`DEADLINE`].
fn watchdog(harness: &str) -> (Arc<Mutex<String>>, Arc<AtomicU64>) {
    let current = Arc::new(Mutex::new(String::new()));
    let since = Arc::new(AtomicU64::new(0));
    let (c, s, h) = (current.clone(), since.clone(), harness.to_string());
    let started = Instant::now();
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(250));
        let at = s.load(Ordering::SeqCst);
        if at > 0 && started.elapsed().as_millis() as u64 > at + DEADLINE.as_millis() as u64 {
            let input = c.lock().map(|i| i.clone()).unwrap_or_default();
            let file = save_failure(&h, &input);
            eprintln!("fuzz {h}: an input took longer than {DEADLINE:?}; saved as {}", file.display());
            std::process::exit(1);
        }
        if Arc::strong_count(&s) == 1 {
            return;
        }
    });
    (current, since)
}

fn save_failure(harness: &str, input: &str) -> PathBuf {
    let dir = PathBuf::from("target/fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let file = dir.join(format!("{harness}-{:016x}", fnv1a(input.as_bytes())));
    let _ = std::fs::write(&file, input);
    file
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "a panic".into())
}

/// Fuzz every harness (or the named ones), printing `make bench`-style figures.
/// Returns whether all passed.
pub fn main(harnesses: &[String], count: u64, seed: u64, corpus_dir: &Path, out: &mut dyn Write) -> bool {
    let mut all = true;
    for h in harnesses {
        let o = run(h, count, seed, corpus_dir);
        let rate = o.inputs as f64 / o.seconds.max(1e-9);
        let _ = writeln!(
            out,
            "fuzz_{}_inputs: {} inputs ({} accepted, {} run to their end) in {:.1} s",
            o.harness, o.inputs, o.accepted, o.simulated, o.seconds
        );
        let _ = writeln!(out, "fuzz_{}_inputs_per_s: {rate:.0} inputs/s", o.harness);
        if let Some(f) = o.failure {
            let _ = writeln!(out, "fuzz_{}_failure: {f}", o.harness);
            all = false;
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_explore_harness_reads_the_runners_flags_and_holds_them_to_the_table() {
        let o = explore_options("--max-deviations 1 --budget 5000 --late 700 --drop").expect("accepted");
        assert_eq!((o.max_deviations, o.budget, o.late_ms.clone(), o.drops), (1, 5_000, vec![700], true));
        // Refused as the runner refuses them: over a limit, unknown, malformed.
        for bad in ["--max-deviations 9", "--budget 10000001", "--late 0", "--late 5 --late 5", "--frobnicate", "--budget x"] {
            assert!(explore_options(bad).is_none(), "{bad}");
        }
        // Had a limit been missing, an accepted value past it is a failure.
        let past = crate::explore::Options { budget: limits::get("--budget").max + 1, ..o.clone() };
        assert!(explore_within_limits(&past).is_some_and(|why| why.contains("--budget")));
        assert_eq!(explore_within_limits(&o), None);
        assert_eq!(run_explore(&o), None, "a search within its limits holds what it may");
    }
}
