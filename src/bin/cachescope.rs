#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]
//! `cachescope`: the headless runner. It plays the same scenarios as the page
//! and prints JSON, for tests, course authors and CI.
//!
//! Exit codes: 0 success, 2 bad input (a message on stderr names the field and
//! the value), never a panic on input.

use cachescope::report::Report;
use cachescope::scenario::{self, Scenario, ScenarioError};
use cachescope::sim::world::World;
use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Counts live bytes for `bench`'s memory figures (a thread-local add per allocation).
#[global_allocator]
static ALLOCATOR: cachescope::bench::CountingAllocator = cachescope::bench::CountingAllocator;

/// `println!` that stops quietly when stdout is closed (`cachescope trace … | head`)
/// instead of panicking: a closed pipe is not an error.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

#[derive(Parser)]
#[command(name = "cachescope", version, about = "See what a Kubernetes controller sees: play a scenario headless.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct Target {
    /// A preset name (see `cachescope presets`) or a scenario file (`*.json`).
    scenario: String,
    /// Override the scenario's seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Set any scenario field by its dotted path, e.g. `--set controller.naming=generate`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    set: Vec<String>,
}

#[derive(clap::Args)]
struct Targets {
    /// Preset names or scenario files (`*.json`).
    #[arg(required = true)]
    scenarios: Vec<String>,
    /// Override every scenario's seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Set a field in every scenario by its dotted path, e.g. `--set cluster.watch_lag_ms=0`.
    #[arg(long = "set", value_name = "PATH=VALUE")]
    set: Vec<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario to its end and print one JSON summary.
    Run(Target),
    /// Print one JSON line per frame: time, kind, caption, touched objects, and the Reconcile panel's lit line and value.
    Trace(Target),
    /// Run each scenario and test its `expect` checks; exit 1 if any fails.
    Check(Targets),
    /// List the built-in presets.
    Presets,
    /// Print the scenario JSON Schema.
    Schema,
    /// Print every setting (path, default, range, whether it may change during a run, meaning) as Markdown tables.
    Settings,
    /// Print benchmark figures, one `name: value unit` per line.
    Bench,
    /// Run a scenario twice, Run B with `--vs` settings changed, and print one JSON object: both summaries and where their audit logs first differ.
    Compare(CompareArgs),
    /// Search the schedules (watch events held back) for one that breaks an invariant; exit 1 when one is found.
    Explore(ExploreArgs),
    /// Run the scenario under each cell of the chaos matrix (upstream's StandardChaosMatrix and cachescope's own cells), a row per
    /// mitigation its controller can take, and print one JSON object; exit 1 if a valid cell of the chosen row breaks safety or
    /// does not converge.
    Matrix(MatrixArgs),
    /// Write the run as a Go test to take home: `export go SCENARIO` prints a controller-runtime unit test (the fake client,
    /// its List answered from each reconcile's cache as the run had it) that replays the run's reconciles up to its breaking
    /// frame and checks the invariant it broke.
    Export(ExportArgs),
    /// Print the scenario's reconcile (or a file's recipe alone) as the pseudo-code the page shows, a line per step (a step
    /// off in this run is marked); `--json`: as the recipe a scenario's `controller.recipe` takes, to start one of your own from.
    Recipe(RecipeArgs),
    /// Fuzz the parsers (scenario, path, url, z, edit, host) and explore's own arguments (explore) with mutated inputs from a seed corpus; exit 1 on a failure.
    Fuzz(FuzzArgs),
}

#[derive(clap::Args)]
struct CompareArgs {
    #[command(flatten)]
    target: Target,
    /// A setting Run B changes, by its dotted path, e.g. `--vs controller.naming=generate` (at least one).
    #[arg(long = "vs", value_name = "PATH=VALUE", required = true)]
    vs: Vec<String>,
}

#[derive(clap::Args)]
struct ExploreArgs {
    #[command(flatten)]
    target: Target,
    #[command(flatten)]
    flags: cachescope::explore::Flags,
    /// Write the counterexample here, as a scenario `cachescope run` replays.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
}

#[derive(clap::Args)]
struct MatrixArgs {
    #[command(flatten)]
    target: Target,
    /// The row whose cells decide the exit code: as_written (default), none, expectations, consistency_store,
    /// read_your_writes, live_reads or deterministic_names.
    #[arg(long, default_value = "as_written")]
    row: String,
    /// Only these cells (default: every one), by name: BaselineNoFaults, WriteConflicts, CacheSyncLag, FlakyAPIServer,
    /// CombinedChaos, ExpectationsTimeout, VersionBehind, LostBookmark, WorstSchedule.
    #[arg(long = "cell")]
    cells: Vec<String>,
    /// The worst-schedule cell's search budget, in states (as explore's --budget).
    #[arg(long, default_value_t = cachescope::matrix::WORST_BUDGET)]
    budget: u64,
}

#[derive(clap::Args)]
struct ExportArgs {
    /// What to write: `go` (a controller-runtime test) or `robustness` (a skeleton for upstream's robustness framework).
    format: String,
    #[command(flatten)]
    target: Target,
    /// Replay the reconciles up to this frame (default: the first that breaks an invariant, else the run's end).
    #[arg(long)]
    frame: Option<u64>,
    /// Export a chaos matrix cell's run instead (its name, as `matrix --cell` takes it), in the row `--row` names.
    #[arg(long)]
    cell: Option<String>,
    /// The matrix row of `--cell` (default: as_written).
    #[arg(long, default_value = "as_written")]
    row: String,
}

#[derive(clap::Args)]
struct RecipeArgs {
    #[command(flatten)]
    target: Target,
    /// Print the recipe as JSON instead.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct FuzzArgs {
    /// Harnesses to run (default: all).
    harnesses: Vec<String>,
    /// Inputs per harness.
    #[arg(long, default_value_t = 1_000_000)]
    count: u64,
    /// The mutation RNG's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The seed corpus: one directory per harness.
    #[arg(long, default_value = "fuzz/corpus")]
    corpus: std::path::PathBuf,
}

fn load(t: &Target) -> Result<Scenario, ScenarioError> {
    let base = if t.scenario.ends_with(".json") || std::path::Path::new(&t.scenario).is_file() {
        let text = std::fs::read_to_string(&t.scenario)
            .map_err(|e| ScenarioError::new("scenario", Some(format!("{:?}", t.scenario)), format!("cannot read {}: {e}", t.scenario)))?;
        Scenario::from_json(&text).map_err(|mut e| {
            e.message = format!("{} ({})", e.message, t.scenario);
            e
        })?
    } else {
        scenario::preset(&t.scenario)?
    };
    let mut edits = Vec::new();
    for s in &t.set {
        let Some((path, value)) = s.split_once('=') else {
            return Err(ScenarioError::new("--set", Some(format!("{s:?}")), "expected PATH=VALUE, for example controller.naming=generate"));
        };
        edits.push((path, value));
    }
    let mut scenario = base.with_settings(edits)?;
    if let Some(seed) = t.seed {
        scenario.seed = seed;
    }
    Ok(scenario)
}

/// A file holding a recipe alone (`steps`, no `controller`), as a scenario
/// that runs it on its owner kind's controller; errors name the recipe's
/// own fields (`steps[0].get_owner.from`). None: not such a file.
fn bare_recipe(path: &str) -> Option<Result<Scenario, ScenarioError>> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut value: serde_json::Value = serde_json::from_str(&text).ok()?;
    if value.get("steps").is_none() || value.get("controller").is_some() {
        return None;
    }
    // The kinds it reconciles, when they are the scenario's own, travel beside its steps.
    let kinds = value.as_object_mut().and_then(|o| o.remove("kinds"));
    // The controller whose owner kind the recipe reconciles, and what its
    // steps need of it; a recipe that does not parse gets the ensemble's,
    // and the scenario's parser names its fault.
    use cachescope::sim::apiserver::ControllerKind;
    use cachescope::sim::recipe::{Op, ReadFrom, Recipe};
    use cachescope::sim::settings::Choice;
    let parsed: Option<Recipe> = serde_json::from_value(value.clone()).ok();
    let kind = parsed
        .as_ref()
        .and_then(|r| ControllerKind::ALL.iter().copied().find(|k| k.spec().owner == Some(r.owner)))
        .unwrap_or(ControllerKind::Ensemble);
    // The steps alone: a recipe over kinds of its own parses as a whole only beside them.
    let ops: Vec<Op> = value.get("steps").and_then(|s| serde_json::from_value(s.clone()).ok()).unwrap_or_default();
    let mut controller = serde_json::json!({"kind": cachescope::sim::settings::word(kind)});
    if ops.iter().any(|op| matches!(op, Op::EnsureReady)) {
        controller["consistency_store"] = true.into();
    }
    let reads_own_writes = |from: &ReadFrom| *from == ReadFrom::ReadYourWrites;
    // A read through controller-runtime's client needs that runtime, not its read-your-writes switch.
    if ops
        .iter()
        .any(|op| matches!(op, Op::GetOwner { from, .. } | Op::Count { from, .. } | Op::List { from, .. } if reads_own_writes(from)))
    {
        controller["runtime"] = "controller-runtime".into();
    }
    controller["recipe"] = value;
    let mut doc = serde_json::json!({"name": "recipe", "controller": controller});
    if let Some(kinds) = kinds {
        doc["kinds"] = kinds;
    }
    Some(Scenario::from_value(doc).map_err(|mut e| {
        e.field = e.field.strip_prefix("controller.recipe.").unwrap_or(&e.field).to_string();
        e.message = format!("{} ({path})", e.message);
        e
    }))
}

/// `cachescope recipe`: the reconcile as code, or as a recipe.
fn recipe(s: &Scenario, json: bool) -> Result<(), ScenarioError> {
    use cachescope::sim::controllers;
    if json {
        let Some(recipe) = controllers::bundled::recipe(&s.controller) else {
            return Err(ScenarioError::new(
                "controller.kind",
                Some("\"pruner\"".into()),
                "the pruner is a one-shot program, not a reconcile loop: it has no recipe",
            ));
        };
        // A recipe over kinds of the scenario's own carries their declarations.
        let mut value = serde_json::to_value(&recipe).expect("recipes serialize");
        if !s.kinds.is_empty() {
            value["kinds"] = serde_json::to_value(&s.kinds).expect("kinds serialize");
        }
        say!("{}", serde_json::to_string_pretty(&value).expect("recipes serialize"));
        return Ok(());
    }
    for (i, (step, text)) in controllers::pseudo_code(&s.controller).into_iter().enumerate() {
        let off = if controllers::step_applies(&s.controller, step) { "" } else { "   [off in this run]" };
        say!("{:>2}  {text}{off}", i + 1);
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        Command::Run(t) => load(&t).map(|s| {
            let report = Report::run(&s).with_lesson(cachescope::view::lesson::verify(&s));
            say!("{}", serde_json::to_string(&report).expect("reports serialize"));
        }),
        Command::Check(t) => {
            let loaded: Result<Vec<Scenario>, ScenarioError> =
                t.scenarios.iter().map(|name| load(&Target { scenario: name.clone(), seed: t.seed, set: t.set.clone() })).collect();
            match loaded {
                Ok(scenarios) => return if check(&scenarios) { ExitCode::SUCCESS } else { ExitCode::from(1) },
                Err(e) => Err(e),
            }
        }
        Command::Trace(t) => load(&t).map(|s| trace(&s)),
        Command::Compare(c) => load(&c.target).and_then(|s| {
            let vs = cachescope::view::compare::parse_vs(&c.vs.join(";")).map_err(|mut e| {
                e.field = "--vs".into();
                e
            })?;
            let report = cachescope::view::compare::compare(&s, &vs)?;
            say!("{}", serde_json::to_string(&report).expect("reports serialize"));
            Ok(())
        }),
        Command::Recipe(r) => bare_recipe(&r.target.scenario).unwrap_or_else(|| load(&r.target)).and_then(|s| recipe(&s, r.json)),
        Command::Presets => {
            for s in scenario::presets() {
                let first = s.description.split(". ").nth(1).unwrap_or(&s.description);
                say!("{:<22} {}", s.name, first.trim_end_matches('.'));
            }
            Ok(())
        }
        Command::Schema => {
            say!("{}", serde_json::to_string_pretty(&scenario::settings::schema()).expect("schemas serialize"));
            Ok(())
        }
        Command::Settings => {
            for (title, section) in [("Top level", ""), ("cluster", "cluster"), ("controller", "controller")] {
                say!("### {title}\n\n{}", scenario::settings::markdown_table(section));
            }
            say!("### Limits: the work budget\n\n{}", scenario::limits::markdown_table());
            say!("### controller.recipe: the steps\n\n{}", scenario::recipe::markdown_table());
            Ok(())
        }
        Command::Bench => {
            cachescope::bench::run(&mut std::io::stdout());
            Ok(())
        }
        Command::Matrix(m) => match matrix(&m) {
            Ok(failed) => return ExitCode::from(if failed { 1 } else { 0 }),
            Err(e) => Err(e),
        },
        Command::Export(x) => export(&x),
        Command::Explore(e) => match explore(&e) {
            Ok(found) => return ExitCode::from(if found { 1 } else { 0 }),
            Err(e) => Err(e),
        },
        Command::Fuzz(f) => {
            let known = cachescope::fuzz::HARNESSES;
            match f.harnesses.iter().find(|h| !known.contains(&h.as_str())) {
                Some(bad) => {
                    Err(ScenarioError::new("harness", Some(format!("{bad:?}")), format!("unknown harness; known: {}", known.join(", "))))
                }
                None => {
                    let harnesses: Vec<String> =
                        if f.harnesses.is_empty() { known.iter().map(|h| h.to_string()).collect() } else { f.harnesses.clone() };
                    if !cachescope::fuzz::main(&harnesses, f.count, f.seed, &f.corpus, &mut std::io::stdout()) {
                        return ExitCode::from(1);
                    }
                    Ok(())
                }
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cachescope: {e}");
            ExitCode::from(2)
        }
    }
}

/// Run each scenario, print each applicable check as `✓`/`✗` with what was
/// expected and measured, and say whether all held.
fn check(scenarios: &[Scenario]) -> bool {
    let mut all_held = true;
    let (mut held, mut failed) = (0, 0);
    for s in scenarios {
        let report = Report::run(s);
        let skipped = s.expect.len() - report.expectations.len();
        if report.expectations.is_empty() && s.lesson.is_empty() {
            let why = if s.expect.is_empty() { "it has no checks" } else { "none of its checks applies to these settings" };
            say!("- {}: nothing checked, {why}", s.name);
        }
        for o in &report.expectations {
            let measured = o.measured.map_or("nothing".to_string(), |m| m.to_string());
            let mark = if o.held { "✓" } else { "✗" };
            say!("{mark} {}: {} (expected {}, measured {measured})", s.name, o.text, o.expected);
            if o.held {
                held += 1;
            } else {
                failed += 1;
                all_held = false;
            }
        }
        if skipped > 0 && !report.expectations.is_empty() {
            say!("  {}: {skipped} more check(s) for other settings", s.name);
        }
        // The lesson: every step's answer from the run, every figure its
        // reveal states checked, and nothing on screen stating an answer
        // while its question is open.
        if !s.lesson.is_empty() {
            match cachescope::view::lesson::verify(s) {
                Ok(steps) => {
                    for (i, o) in steps.iter().enumerate() {
                        let answer = match o.choice {
                            Some(c) => format!("choice {} ({})", c + 1, s.lesson[i].choices[c].text),
                            None => o.answer.to_string(),
                        };
                        say!(
                            "✓ {}: lesson step {} of {}, asked at frame {}, answered at frame {}: {answer}",
                            s.name,
                            i + 1,
                            steps.len(),
                            o.ask_frame,
                            o.frame
                        );
                        held += 1;
                    }
                }
                Err(e) => {
                    say!("✗ {}: {e}", s.name);
                    failed += 1;
                    all_held = false;
                }
            }
        }
    }
    say!("{held} held, {failed} failed");
    all_held
}

/// `cachescope explore`: prints one JSON object; `Ok(true)` when a violation was found.
/// The chaos matrix over one scenario, printed as one JSON object; whether a
/// valid cell of the chosen row failed.
/// `--row NAME`, or an error naming it and the rows there are.
fn parse_row(name: &str) -> Result<cachescope::matrix::Row, ScenarioError> {
    use cachescope::matrix::Row;
    Row::parse(name).ok_or_else(|| {
        let known: Vec<&str> = Row::ALL.iter().map(|r| r.name()).collect();
        ScenarioError::new("--row", Some(format!("{name:?}")), format!("unknown row; known: {}", known.join(", ")))
    })
}

/// `--cell NAME`, or an error naming it and the cells there are.
fn parse_cell(name: &str) -> Result<cachescope::matrix::Cell, ScenarioError> {
    use cachescope::matrix::Cell;
    Cell::parse(name).ok_or_else(|| {
        let known: Vec<&str> = Cell::ALL.iter().map(|c| c.name()).collect();
        ScenarioError::new("--cell", Some(format!("{name:?}")), format!("unknown cell; known: {}", known.join(", ")))
    })
}

fn matrix(m: &MatrixArgs) -> Result<bool, ScenarioError> {
    use cachescope::matrix::{self, Cell};
    let s = load(&m.target)?;
    let row = parse_row(&m.row)?;
    let mut cells = Vec::new();
    for name in &m.cells {
        let cell = parse_cell(name)?;
        if !cells.contains(&cell) {
            cells.push(cell);
        }
    }
    if cells.is_empty() {
        cells = Cell::ALL.to_vec();
    }
    cachescope::scenario::limits::get("--budget").check("--budget", m.budget)?;
    let found = matrix::matrix_of(&s, row, &cells, m.budget);
    say!("{}", serde_json::to_string(&found).expect("the matrix serializes"));
    Ok(found.failed)
}

fn export(x: &ExportArgs) -> Result<(), ScenarioError> {
    if x.format != "go" && x.format != "robustness" {
        return Err(ScenarioError::new("format", Some(format!("{:?}", x.format)), "unknown export format; known: go, robustness"));
    }
    let mut s = load(&x.target)?;
    if let Some(name) = &x.cell {
        s = matrix_cell(&s, name, &x.row)?;
    }
    let go = if x.format == "robustness" {
        if let Some(frame) = x.frame {
            return Err(ScenarioError::new(
                "--frame",
                Some(frame.to_string()),
                "a robustness skeleton runs the whole matrix: it takes no frame",
            ));
        }
        cachescope::export::robustness(&s)
    } else {
        cachescope::export::go_test(&s, x.frame)
    }?;
    say!("{}", go.text.trim_end());
    Ok(())
}

/// The scenario a chaos matrix cell runs, in a row: what `export go --cell` takes home.
fn matrix_cell(s: &Scenario, name: &str, row: &str) -> Result<Scenario, ScenarioError> {
    use cachescope::matrix;
    let (cell, row) = (parse_cell(name)?, parse_row(row)?);
    let plan = matrix::rows(s).into_iter().find(|p| p.row == row).expect("every row is planned");
    let run = matrix::run_row(&plan, &[cell], matrix::WORST_BUDGET);
    let c = &run.cells[0];
    c.scenario.clone().ok_or_else(|| {
        ScenarioError::new(
            "--cell",
            Some(format!("{name:?}")),
            format!("the cell did not run in the row {}: {}", row.name(), cachescope::narrate::matrix::verdict_label(c.verdict)),
        )
    })
}

fn explore(e: &ExploreArgs) -> Result<bool, ScenarioError> {
    use cachescope::explore::explore;
    use cachescope::view::lesson::counterexample;
    let s = load(&e.target)?;
    let options = e.flags.options(&s)?;
    let t = std::time::Instant::now();
    let found = explore(&s, &options);
    let elapsed = t.elapsed().as_secs_f64();
    // A counterexample is a scenario `run` accepts, or none, and the report says why.
    let mut refused = None;
    if let (Some(v), Some(path)) = (&found.violation, &e.out) {
        match counterexample(&s, v) {
            Ok(c) => {
                let text = serde_json::to_string_pretty(&c.to_value()).expect("scenarios serialize");
                std::fs::write(path, text + "\n")
                    .map_err(|err| ScenarioError::new("--out", Some(format!("{path:?}")), format!("cannot write: {err}")))?;
            }
            Err(why) => {
                eprintln!("cachescope: no counterexample written to {}: {why}", path.display());
                refused = Some(why.to_string());
            }
        }
    }
    let report = serde_json::json!({
        "explored": found.explored,
        "states": found.states,
        "distinct_states": found.distinct_states,
        "complete": found.complete,
        "pruned": !options.exhaustive,
        "elapsed_ms": (elapsed * 1000.0).round(),
        "states_per_s": (found.states as f64 / elapsed.max(1e-9)).round(),
        "violation": found.violation,
    });
    let mut report = report;
    if let Some(why) = refused {
        report["counterexample_refused"] = why.into();
    }
    say!("{report}");
    Ok(found.violation.is_some())
}

fn trace(s: &Scenario) {
    let mut world = World::new(s.world_init());
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    while let Some(frame) = world.step() {
        if writeln!(out, "{}", cachescope::report::trace_line_drawn(&frame, &world)).is_err() {
            return; // a closed pipe (| head) is not an error
        }
    }
}
