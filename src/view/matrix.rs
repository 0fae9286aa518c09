//! The Matrix view as plain values: each row and cell the page draws, in
//! words, with the scenario each cell ran (which the page opens at its
//! breaking frame). The worker computes them (`crate::view::find::serve`,
//! `Task::Matrix`), a row at a time, from the same `crate::matrix` the
//! runner's `cachescope matrix` prints, so the page and the runner agree.

use crate::matrix::{self, Cell, CellRun, Row, RowRun, Verdict};
use crate::narrate::matrix::{self as words, CellFacts};
use serde::{Deserialize, Serialize};

/// One cell as the page draws it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellView {
    /// Upstream's name (`Cell::name`).
    pub cell: String,
    /// Its verdict's key (`held`, `broke`, `stuck`, `invalid`, `no_site`,
    /// `not_taken`): the class its colour hangs on.
    pub verdict: String,
    /// The verdict in a word or two, shown in the cell.
    pub label: String,
    /// The cell in full: its verdict, what broke or how it converged, what fired.
    pub words: String,
    /// The frame it opens at: where it broke, or 0.
    pub frame: u64,
    pub trace_hash: String,
    /// The scenario it ran, to open (none for a cell that did not run).
    pub doc: Option<serde_json::Value>,
}

/// One row as the page draws it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RowView {
    /// `Row::name`.
    pub row: String,
    pub title: String,
    /// Why it is not taken, in words.
    pub note: Option<String>,
    pub cells: Vec<CellView>,
}

/// A column's header: upstream's name, its title, what its plan does, and
/// whether upstream's matrix has it.
pub fn columns() -> Vec<(&'static str, &'static str, &'static str, bool)> {
    Cell::ALL.iter().map(|&c| (c.name(), words::cell_title(c), words::cell_plan(c), c.upstream())).collect()
}

fn key(v: Verdict) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

fn verdict_key(c: &CellRun) -> String {
    key(c.verdict)
}

/// The legend: each verdict's key, label and meaning.
pub fn legend() -> Vec<(String, &'static str, &'static str)> {
    Verdict::ALL.iter().map(|&v| (key(v), words::verdict_label(v), words::verdict_meaning(v))).collect()
}

/// A row's run as the page draws it.
pub fn row_view(r: &RowRun) -> RowView {
    let cells = r
        .cells
        .iter()
        .map(|c| {
            let facts = CellFacts {
                cell: c.cell,
                row: r.row,
                verdict: c.verdict,
                broke: c.broke.as_ref(),
                liveness: c.liveness.as_ref(),
                faults: &c.faults,
                searched: c.searched.as_ref(),
            };
            CellView {
                cell: c.cell.name().to_string(),
                verdict: verdict_key(c),
                label: words::verdict_label(c.verdict).to_string(),
                words: words::cell_words(&facts),
                frame: c.broke.as_ref().map_or(0, |b| b.frame),
                trace_hash: c.trace_hash.clone(),
                doc: c.scenario.as_ref().map(|s| s.to_value()),
            }
        })
        .collect();
    RowView {
        row: r.row.name().to_string(),
        title: words::row_title(r.row).to_string(),
        note: r.not_taken.as_ref().map(|why| words::not_taken_words(r.row, why)),
        cells,
    }
}

/// The whole matrix over `s`, a row at a time, each handed to `post` as it is done.
pub fn rows_of(s: &crate::scenario::Scenario, budget: u64, post: &mut dyn FnMut(RowView)) {
    for plan in matrix::rows(s) {
        post(row_view(&matrix::run_row(&plan, &Cell::ALL, budget)));
    }
}

/// The row a page's matrix is judged by, as the runner's default.
pub const CHOSEN: Row = Row::AsWritten;

/// How many rows the whole matrix has.
pub const ROWS: usize = Row::ALL.len();

/// The line above the table while the worker runs.
pub fn progress(done: usize) -> String {
    words::progress_words(done, ROWS)
}

/// A row's cells counted by verdict.
pub fn tally(r: &RowView) -> words::Tally {
    let mut t = words::Tally::default();
    for c in &r.cells {
        match c.verdict.as_str() {
            "held" => t.held += 1,
            "broke" => t.broke += 1,
            "stuck" => t.stuck += 1,
            "invalid" => t.invalid += 1,
            "no_site" => t.no_site += 1,
            _ => {}
        }
    }
    t
}

/// The chosen row in a sentence, once it is among `rows`.
pub fn summary(rows: &[RowView]) -> Option<String> {
    rows.iter().find(|r| r.row == CHOSEN.name()).map(|r| words::summary_words(CHOSEN, tally(r)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    /// The page's rows are the runner's: the same verdicts and trace hashes,
    /// in the same order, every cell named in words.
    #[test]
    fn the_pages_rows_are_the_runners_matrix() {
        let s = preset("over-create").unwrap().with_settings([("controller.naming", "generate")]).unwrap();
        let mut rows = Vec::new();
        rows_of(&s, matrix::WORST_BUDGET, &mut |r| rows.push(r));
        let m = matrix::matrix(&s, CHOSEN);
        assert_eq!(rows.len(), m.rows.len());
        for (view, run) in rows.iter().zip(&m.rows) {
            assert_eq!(view.row, run.row.name());
            for (v, c) in view.cells.iter().zip(&run.cells) {
                assert_eq!((v.cell.as_str(), v.trace_hash.as_str()), (c.cell.name(), c.trace_hash.as_str()));
                assert_eq!(v.verdict, verdict_key(c));
                assert!(v.words.contains(words::verdict_label(c.verdict)), "{}", v.words);
            }
        }
        let none = rows.iter().find(|r| r.row == "none").unwrap();
        let lag = none.cells.iter().find(|c| c.cell == "CacheSyncLag").unwrap();
        assert_eq!(lag.verdict, "broke");
        assert!(lag.words.starts_with("Cache sync lag × No mitigation: broke children_within_desired at frame "), "{}", lag.words);
        assert!(lag.frame > 0 && lag.doc.is_some());
        // The sentence under the table says what the runner's exit code says.
        let chosen = m.rows.iter().find(|r| r.row == CHOSEN).unwrap();
        let fails = chosen.cells.iter().any(|c| c.verdict.fails());
        let said = summary(&rows).unwrap();
        assert!(said.ends_with(if fails { "fails on this row." } else { "passes on this row." }), "{said}");
        let broke = chosen.cells.iter().filter(|c| c.verdict == crate::scenario::chaos::Verdict::Broke).count();
        assert!(said.contains(&format!("{broke} broke")), "{said}");
    }

    /// A cell opened in the page marks its faults on the scrubber, one mark
    /// for each time the matrix counted one firing: the 500s on child
    /// creates, the lost bookmark.
    #[test]
    fn an_opened_cell_marks_its_faults_where_they_fired() {
        let s = preset("over-create").unwrap().with_settings([("controller.naming", "generate")]).unwrap();
        let mut rows = Vec::new();
        rows_of(&s, matrix::WORST_BUDGET, &mut |r| rows.push(r));
        let m = matrix::matrix(&s, CHOSEN);
        let none = m.rows.iter().find(|r| r.row == Row::None).unwrap();
        let view = rows.iter().find(|r| r.row == "none").unwrap();
        for (cell, fault, said) in [
            (Cell::FlakyApiServer, crate::scenario::chaos::Fault::ChildCreateFails, "made to fail: 500"),
            (Cell::LostBookmark, crate::scenario::chaos::Fault::BookmarkLost, "initial-events-end bookmark lost"),
        ] {
            let run = none.cells.iter().find(|c| c.cell == cell).unwrap();
            let fired = run.faults.iter().find(|f| f.fault == fault).map_or(0, |f| f.times);
            assert!(fired > 0, "{cell:?}");
            let doc = view.cells.iter().find(|c| c.cell == cell.name()).unwrap().doc.clone().unwrap();
            let mut session = crate::view::session::Session::new(crate::scenario::Scenario::from_json(&doc.to_string()).unwrap());
            session.seek(100_000);
            let snap = crate::view::snapshot::snapshot(&session);
            assert_eq!(snap.faults.len(), fired as usize, "{cell:?}: {:?}", snap.faults);
            for (frame, words) in &snap.faults {
                assert!(words.starts_with(&format!("Frame {frame}: ")) && words.contains(said), "{words}");
            }
        }
        // A run that injects nothing marks nothing.
        let mut plain = crate::view::session::Session::new(s);
        plain.seek(100_000);
        assert!(crate::view::snapshot::snapshot(&plain).faults.is_empty());
    }
}
