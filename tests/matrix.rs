//! The chaos matrix (`cachescope::matrix`, `cachescope matrix`): each cell a
//! deterministic fault plan over a scenario, each row a mitigation.

mod support;

use cachescope::matrix::{self, Cell, Fault, Row, Verdict};
use cachescope::report::Report;
use cachescope::scenario::expect::effective_settings;
use cachescope::scenario::expect::Measure;
use cachescope::scenario::{preset, presets};
use std::process::Command;

fn row(m: &matrix::Matrix, row: Row) -> &matrix::RowRun {
    m.rows.iter().find(|r| r.row == row).expect("every row is in the matrix")
}

fn cell(r: &matrix::RowRun, cell: Cell) -> &matrix::CellRun {
    r.cells.iter().find(|c| c.cell == cell).expect("every cell is in the row")
}

/// BaselineNoFaults is the scenario as written: the same trace as `run`, and
/// it breaks exactly what the run breaks, so never an invariant a preset's
/// checks say holds. Every other cell whose faults have a place to fire
/// fires them all: no preset has an invalid cell.
#[test]
fn baseline_is_the_run_as_written_and_no_preset_has_an_invalid_cell() {
    for s in presets() {
        let m = matrix::matrix(&s, Row::AsWritten);
        let run = support::run_scenario(s.clone());
        let report = &run.report;
        let baseline = cell(row(&m, Row::AsWritten), Cell::BaselineNoFaults);
        assert_eq!(baseline.trace_hash, report.trace_hash, "{}", s.name);
        let first_broken = report.invariants.values().filter_map(|o| o.first_broken_frame).min();
        assert_eq!(baseline.broke.as_ref().map(|b| b.frame), first_broken, "{}", s.name);
        if let Some(b) = &baseline.broke {
            assert_eq!(report.invariants[&b.invariant].first_broken_frame, Some(b.frame), "{}", s.name);
        }
        let effective = effective_settings(&s, &run.world);
        for check in s.expect.iter().filter(|c| c.measure == Measure::Broken && c.equals == Some(0) && c.applies(&effective)) {
            let said_to_hold = check.invariant.as_deref().unwrap();
            assert!(baseline.broke.as_ref().is_none_or(|b| b.invariant != said_to_hold), "{}: {}", s.name, check.text);
        }
        for r in &m.rows {
            for c in &r.cells {
                assert_ne!(c.verdict, Verdict::Invalid, "{} {:?} {:?}: {:?}", s.name, r.row, c.cell, c.faults);
                if c.verdict != Verdict::NoSite && c.verdict != Verdict::NotTaken {
                    assert!(c.faults.iter().all(|f| f.times > 0), "{} {:?} {:?}", s.name, r.row, c.cell);
                    assert_eq!(c.faults.len(), c.cell.faults().len());
                }
            }
        }
    }
}

/// Lab 1 with GenerateName: the stale child cache over-creates without
/// ControllerExpectations and not with them; deterministic names hold too.
#[test]
fn over_create_with_generate_name_breaks_under_cache_sync_lag_without_expectations_and_holds_with_them() {
    let s = preset("over-create").unwrap().with_settings([("controller.naming", "generate")]).unwrap();
    let m = matrix::matrix(&s, Row::AsWritten);
    let lag = |r: Row| cell(row(&m, r), Cell::CacheSyncLag).clone();
    for r in [Row::AsWritten, Row::None] {
        let c = lag(r);
        assert_eq!(c.verdict, Verdict::Broke, "{r:?}");
        assert_eq!(c.broke.as_ref().unwrap().invariant, "children_within_desired");
        assert!(c.faults.iter().any(|f| f.fault == Fault::StaleChildCache && f.times > 0));
    }
    for r in [Row::Expectations, Row::DeterministicNames, Row::ConsistencyStore, Row::ReadYourWrites, Row::LiveReads] {
        assert_eq!(lag(r).verdict, Verdict::Held, "{r:?}");
    }
    assert!(m.failed, "the chosen row, as written, breaks");
    // The Ensemble never updates its owner: WriteConflicts has no site.
    assert_eq!(cell(row(&m, Row::AsWritten), Cell::WriteConflicts).verdict, Verdict::NoSite);
    // The ReplicaSet does (UpdateStatus), and under 409s it still holds.
    let rs = matrix::matrix_of(&preset("replicaset-pressure").unwrap(), Row::AsWritten, &[Cell::WriteConflicts], 1);
    let c = cell(row(&rs, Row::AsWritten), Cell::WriteConflicts);
    assert_eq!(c.verdict, Verdict::Held);
    assert_eq!(c.faults[0].times, 2, "the 1st and 2nd owner update meet 409 Conflict");
}

/// A cell is a scenario like any other: what it ran replays to the same
/// trace hash, and two matrices over one scenario are the same.
#[test]
fn a_cells_verdict_is_reproducible_and_its_scenario_replays_it() {
    let s = preset("replicaset-pressure").unwrap();
    let a = serde_json::to_string(&matrix::matrix(&s, Row::AsWritten)).unwrap();
    let b = serde_json::to_string(&matrix::matrix(&s, Row::AsWritten)).unwrap();
    assert_eq!(a, b);
    let m = matrix::matrix(&s, Row::AsWritten);
    for r in m.rows.iter().filter(|r| r.not_taken.is_none()) {
        for c in &r.cells {
            if let Some(sc) = &c.scenario {
                let text = serde_json::to_string(&sc.to_value()).unwrap();
                let replayed = cachescope::scenario::Scenario::from_json(&text).unwrap();
                assert_eq!(Report::run(&replayed).trace_hash, c.trace_hash, "{:?} {:?}", r.row, c.cell);
            }
        }
    }
}

/// Rows the controller cannot take say why: a setting refused names itself.
#[test]
fn a_row_the_controller_cannot_take_says_why() {
    let m = matrix::matrix(&preset("replicaset-pressure").unwrap(), Row::AsWritten);
    match &row(&m, Row::ReadYourWrites).not_taken {
        Some(matrix::NotTaken::Refused { error }) => assert!(error.contains("controller.read_your_writes"), "{error}"),
        other => panic!("{other:?}"),
    }
    assert!(row(&m, Row::ReadYourWrites).cells.iter().all(|c| c.verdict == Verdict::NotTaken));
}

fn cachescope(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cachescope")).args(args).output().expect("the runner starts")
}

#[test]
fn cachescope_matrix_prints_one_object_and_exits_by_the_chosen_row() {
    let held = cachescope(&["matrix", "over-create"]);
    assert_eq!(held.status.code(), Some(0), "{}", String::from_utf8_lossy(&held.stderr));
    let out: serde_json::Value = serde_json::from_slice(&held.stdout).unwrap();
    assert_eq!(out["chosen"], "as_written");
    assert_eq!(out["rows"].as_array().unwrap().len(), Row::ALL.len());
    assert_eq!(out["rows"][0]["cells"].as_array().unwrap().len(), Cell::ALL.len());
    // The none row breaks: chosen, it decides the exit code.
    assert_eq!(cachescope(&["matrix", "over-create", "--row", "none"]).status.code(), Some(1));
    let one = cachescope(&["matrix", "over-create", "--row", "none", "--cell", "FlakyAPIServer"]);
    let out: serde_json::Value = serde_json::from_slice(&one.stdout).unwrap();
    assert_eq!(out["cells"], serde_json::json!(["FlakyAPIServer"]));
    for (args, names) in [
        (vec!["matrix", "over-create", "--row", "sometimes"], "--row: unknown row"),
        (vec!["matrix", "over-create", "--cell", "Flaky"], "--cell: unknown cell"),
        (vec!["matrix", "over-create", "--budget", "0"], "--budget"),
    ] {
        let o = cachescope(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(names) && err.lines().count() == 1, "{err}");
    }
}
