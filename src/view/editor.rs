//! "Your controller": what the recipe editor shows, as plain values. A
//! draft is a scenario document (the one it started from) and the text of
//! its `controller.recipe`; each edit of the text is checked whole, and a
//! valid one is the next run, its pseudo-code the lines the Reconcile panel
//! will draw. Its steps are added (each from the language's worked
//! example), moved and removed as a list; their fields are edited as JSON.

use crate::scenario::{preset, recipe::written_out, Scenario, PRESETS};
use serde_json::Value;

/// Where a draft starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// The run on the page, its reconcile written out as a recipe.
    Current,
    /// A minimal reconcile over the current run's owner and child kinds:
    /// read the owner, list its children, return.
    Blank,
    /// A preset's scenario with its reconcile written out.
    Preset(&'static str),
}

impl Start {
    /// Its value in the "Start from" menu.
    pub fn key(self) -> String {
        match self {
            Start::Current => "current".to_string(),
            Start::Blank => "blank".to_string(),
            Start::Preset(name) => format!("preset:{name}"),
        }
    }

    /// The menu's value read back.
    pub fn from_key(key: &str) -> Option<Start> {
        match key {
            "current" => Some(Start::Current),
            "blank" => Some(Start::Blank),
            _ => key.strip_prefix("preset:").and_then(|n| PRESETS.iter().find(|(p, _)| *p == n)).map(|(p, _)| Start::Preset(p)),
        }
    }
}

/// Every start the menu offers for `current`: the run itself and a blank
/// reconcile where its controller is a reconcile loop, then every preset
/// whose controller is one (the pruner, a one-shot program, has no recipe).
pub fn starts(current: &Scenario) -> Vec<Start> {
    let looped = |s: &Scenario| crate::sim::controllers::bundled::recipe(&s.controller).is_some();
    let mut all = Vec::new();
    if looped(current) {
        all.extend([Start::Current, Start::Blank]);
    }
    all.extend(PRESETS.iter().filter(|(n, _)| preset(n).is_ok_and(|s| looped(&s))).map(|(n, _)| Start::Preset(n)));
    all
}

/// A recipe being written: the document it runs in, and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The scenario document, its lesson left behind (a lesson's figures
    /// are the preset's recipe's), `controller.recipe` replaced by the text's.
    base: Value,
    pub text: String,
}

/// A draft checked: the scenario it makes, or the error that names the
/// field at fault; and the lines of its code.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub run: Result<Scenario, String>,
    /// The document, compact, as the link carries it (a valid draft only).
    pub compact: Option<String>,
}

impl Draft {
    /// A draft from `start`, over `current` (the run on the page); none
    /// where there is no reconcile loop to start from.
    pub fn begin(start: Start, current: &Scenario) -> Option<Draft> {
        let mut base = match start {
            Start::Current | Start::Blank => written_out(current)?,
            Start::Preset(name) => written_out(&preset(name).ok()?)?,
        };
        if start == Start::Blank {
            let recipe = &base["controller"]["recipe"];
            let blank = serde_json::json!({
                "owner": recipe["owner"],
                "child": recipe["child"],
                "steps": [{"get_owner": {}}, {"list": {"select": "active_controlled"}}, "return"],
            });
            base["controller"]["recipe"] = blank;
        }
        if let Some(doc) = base.as_object_mut() {
            doc.remove("lesson");
        }
        let text = serde_json::to_string_pretty(&base["controller"]["recipe"]).expect("a recipe serializes");
        Some(Draft { base, text })
    }

    /// Check `text` as the draft's recipe: JSON first (an error says its
    /// line and column), then the scenario's own rules (an error names the
    /// step and field).
    pub fn check(&self, text: &str) -> Checked {
        let recipe: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return Checked { run: Err(format!("controller.recipe: not JSON: {e}")), compact: None },
        };
        let mut doc = self.base.clone();
        doc["controller"]["recipe"] = recipe;
        match Scenario::from_value(doc.clone()) {
            Ok(s) => Checked { run: Ok(s), compact: Some(doc.to_string()) },
            Err(e) => Checked { run: Err(e.to_string()), compact: None },
        }
    }
}

/// The reconcile's code as the Reconcile panel draws it, one line a step.
pub fn code(s: &Scenario) -> Vec<String> {
    crate::sim::controllers::pseudo_code(&s.controller).into_iter().map(|(_, text)| text.into_owned()).collect()
}

/// What a line's buttons do to its step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Up,
    Down,
    Remove,
}

/// The recipe text's steps, when it is a recipe's JSON.
fn with_steps(text: &str, change: impl FnOnce(&mut Vec<Value>) -> Option<()>) -> Option<String> {
    let mut recipe: Value = serde_json::from_str(text).ok()?;
    let steps = recipe.get_mut("steps")?.as_array_mut()?;
    change(steps)?;
    Some(serde_json::to_string_pretty(&recipe).expect("JSON serializes"))
}

/// `text` with its step `i` (from 0) moved a place up or down, or removed;
/// none when the text is not a recipe's JSON or the step has no such place.
pub fn moved(text: &str, i: usize, how: Move) -> Option<String> {
    with_steps(text, |steps| {
        match how {
            Move::Up if i > 0 && i < steps.len() => steps.swap(i - 1, i),
            Move::Down if i + 1 < steps.len() => steps.swap(i, i + 1),
            Move::Remove if i < steps.len() => {
                steps.remove(i);
            }
            _ => return None,
        }
        Some(())
    })
}

/// `text` with the step named `name` added, as the language's table writes
/// its worked example, before the last step (a reconcile ends by returning).
pub fn added(text: &str, name: &str) -> Option<String> {
    let doc = crate::scenario::recipe::STEPS.iter().find(|s| s.name == name)?;
    let step: Value = serde_json::from_str(doc.example).expect("each example is JSON (tested)");
    with_steps(text, |steps| {
        let at = steps.len().saturating_sub(1);
        steps.insert(at, step);
        Some(())
    })
}

/// How many steps the text holds, when it is a recipe's JSON: what the
/// list's buttons can act on, valid or not.
pub fn steps_in(text: &str) -> Option<usize> {
    serde_json::from_str::<Value>(text).ok()?.get("steps")?.as_array().map(Vec::len)
}

/// The steps the language has, by name, for the "Add a step" menu.
pub fn step_names() -> Vec<&'static str> {
    crate::scenario::recipe::STEPS.iter().map(|s| s.name).collect()
}
