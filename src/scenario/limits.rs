//! The work budget: how big a scenario may be, declared once.
//!
//! Each knob that multiplies work (objects per owner, owners, actions, checks,
//! text) has its limit in [`LIMITS`], and their product is bounded too:
//! [`objects_at_peak`] estimates how many objects the cluster will hold at
//! once if every owner gets the children it asks for, and a scenario over
//! [`MAX_OBJECTS_AT_PEAK`] is refused before anything is simulated, by the
//! runner (exit 2) and the page (a banner) alike, naming the field that asks
//! the most. Time is bounded by the world itself: a run stops after
//! [`FRAME_LIMIT`] frames, natively and in the page, and after the frame that
//! leaves the cluster holding more than [`MAX_OBJECTS_AT_PEAK`] objects (what
//! a controller creates while its cache lags or an event is held counts too).
//!
//! Why these figures: at 5,000 objects the slowest scenario found (five
//! Ensembles of 1,000 generated ConfigMaps, no client-side rate limit) runs
//! to its end natively in about a second, and the page computes 1,000 of its
//! frames in well under a second; at 10,000 pods a ReplicaSet took 9 s for
//! 30,000 frames (each sync lists every pod). `make bench` prints the figures
//! for the largest scenario these limits accept.

use super::{Scenario, ScenarioError};
use crate::sim::object::Kind;
use std::collections::BTreeMap;

pub use crate::sim::world::FRAME_LIMIT;

/// The most objects a scenario may ask the cluster to hold at once.
pub const MAX_OBJECTS_AT_PEAK: u64 = 2_000;

/// Objects × frames a run may cost: a frame's work grows with the objects a
/// sync lists, so a run's frame limit is this over its objects at the peak.
pub const WORK_BUDGET: u64 = 120_000_000;

/// The frames a run of a scenario asking for `objects` at the peak may make:
/// [`FRAME_LIMIT`] up to 600 objects, then fewer (60,000 at 2,000).
pub fn frame_limit(objects: u64) -> u64 {
    (WORK_BUDGET / objects.max(1)).min(FRAME_LIMIT)
}

/// The largest scenarios the budget accepts, by what they multiply (each at
/// exactly [`MAX_OBJECTS_AT_PEAK`], and staying within it as they run):
/// `tests/limits.rs` runs them to their frame limit and `make bench` times them.
pub const LARGEST_ACCEPTED: [(&str, &str); 2] = [
    // Two Ensembles of 999 ConfigMaps, enqueued twice and resynced every second for a day.
    (
        "ensembles",
        r#"{"name":"e","until_ms":86400000,"controller":{"kind":"ensemble","double_enqueue":true,"delete_surplus":true,"workers":8},
            "cluster":{"watch_lag_ms":2000,"client_qps":0,"resync_ms":1000},"objects":[{"kind":"Ensemble","name":"e-{i}","voices":999,"count":2}]}"#,
    ),
    // A ReplicaSet of 1,999 pods with its expectations, resynced every second for a day.
    (
        "replicaset",
        r#"{"name":"r","until_ms":86400000,"controller":{"kind":"replicaset"},
            "cluster":{"watch_lag_ms":2000,"client_qps":0,"resync_ms":1000},"objects":[{"kind":"ReplicaSet","name":"web","replicas":1999}]}"#,
    ),
];

/// Scenarios the budget accepts whose controller creates past it as they
/// run (what it asks for is within; what it makes while its cache lags is
/// not): each stops after the frame that passes [`MAX_OBJECTS_AT_PEAK`] live
/// objects, and says why (`tests/limits.rs`, `make bench`).
pub const OVER_AT_RUN_TIME: [(&str, &str); 3] = [
    // The largest Ensembles with generated names: over-creating, and deleting the surplus.
    (
        "ensembles_generate",
        r#"{"name":"e","until_ms":86400000,"controller":{"kind":"ensemble","naming":"generate","double_enqueue":true,"delete_surplus":true,"workers":8},
            "cluster":{"watch_lag_ms":2000,"client_qps":0,"resync_ms":1000},"objects":[{"kind":"Ensemble","name":"e-{i}","voices":999,"count":2}]}"#,
    ),
    // The largest ReplicaSet without expectations: over-creating while its cache lags.
    (
        "replicaset_no_expectations",
        r#"{"name":"r","until_ms":86400000,"controller":{"kind":"replicaset","expectations":false},
            "cluster":{"watch_lag_ms":2000,"client_qps":0,"resync_ms":1000},"objects":[{"kind":"ReplicaSet","name":"web","replicas":1999}]}"#,
    ),
    // The same with its first Pod event held: its cache never sees a pod, and every resync
    // creates 1,999 more (30,437 pods in 60,000 frames before the budget held at run time).
    (
        "replicaset_held",
        r#"{"name":"r","until_ms":86400000,"controller":{"kind":"replicaset","expectations":false},
            "cluster":{"watch_lag_ms":2000,"client_qps":0,"resync_ms":1000},"objects":[{"kind":"ReplicaSet","name":"web","replicas":1999}],
            "schedule":[{"kind":"Pod","nth":1,"hold":true}]}"#,
    ),
];

/// What a limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Of {
    /// A number's value.
    Value,
    /// A list's entries (or a map's).
    Items,
    /// A text's characters.
    Chars,
    /// A repeated flag's values (`--late 1000 --late 5000`).
    Values,
    /// A condition's nesting: one level, and one more for each `not`, `all` or `any` around it.
    Levels,
}

/// One limit on a part of a scenario that is not a setting.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// Where, as errors name it, with `[]` for "any entry": `objects[].count`.
    pub path: &'static str,
    pub of: Of,
    pub min: u64,
    pub max: u64,
    /// Why, in a few words (the docs' table).
    pub why: &'static str,
}

const fn limit(path: &'static str, of: Of, min: u64, max: u64, why: &'static str) -> Limit {
    Limit { path, of, min, max, why }
}

/// Every limit, in the order the docs list them.
pub const LIMITS: &[Limit] = &[
    limit("name", Of::Chars, 1, 100, "a short identifier"),
    limit("description", Of::Chars, 0, 4_000, "a few sentences"),
    limit("start", Of::Chars, 0, 160, "one line: what to press and what to watch"),
    limit("controls", Of::Items, 0, 24, "settings and actions the story uses"),
    limit("incident.title", Of::Chars, 1, 200, "a title"),
    limit("incident.url", Of::Chars, 1, 2_000, "a link"),
    limit("kinds", Of::Items, 0, crate::sim::object::MAX_DECLARED as u64, "kinds of the scenario's own"),
    limit("invariants", Of::Items, 0, 4, "invariants of the scenario's own"),
    limit("invariants[].at_most.count", Of::Value, 0, MAX_OBJECTS_AT_PEAK, "active children an owner may have"),
    limit("invariants[].at_least.count", Of::Value, 1, MAX_OBJECTS_AT_PEAK, "active children an owner keeps"),
    limit("objects", Of::Items, 0, 100, "entries; each makes `count` objects"),
    limit("objects[].count", Of::Value, 1, MAX_OBJECTS_AT_PEAK, "objects made from one entry"),
    limit("objects[].voices", Of::Value, 0, 1_000, "an Ensemble's ConfigMaps"),
    limit("objects[].replicas", Of::Value, 0, MAX_OBJECTS_AT_PEAK, "a ReplicaSet's pods"),
    limit("objects[].spec", Of::Value, 0, MAX_OBJECTS_AT_PEAK, "a declared owner kind's desired count"),
    limit("objects[].labels", Of::Items, 0, 16, "labels on one object"),
    limit("objects[].annotations", Of::Items, 0, 16, "annotations on one object"),
    limit("objects[].annotations.value", Of::Chars, 0, 1_024, "characters in one annotation's value"),
    limit("objects[].finalizers", Of::Items, 0, 8, "finalizers on one object"),
    limit("objects[].owner_references", Of::Items, 0, 8, "ownerReferences on one object"),
    limit("actions", Of::Items, 0, 1_000, "timeline entries"),
    limit("actions[].scale.to", Of::Value, 0, MAX_OBJECTS_AT_PEAK, "voices or replicas (an Ensemble: at most 1,000)"),
    limit("actions[].delete_pods.count", Of::Value, 1, 100_000, "pods deleted, one per interval"),
    limit("actions[].delete_pods.interval_ms", Of::Value, 1, 86_400_000, "ms between two of them"),
    limit("actions[].fail_next.nth", Of::Value, 1, 1_000, "which such request fails, counted from the action"),
    limit("actions[].pause_controller.for_ms", Of::Value, 1, 3_600_000, "ms the leader is frozen"),
    limit("controller.recipe.steps", Of::Items, 2, 12, "steps of a reconcile, each a line of its pseudo-code"),
    limit("controller.alongside", Of::Items, 0, 2, "controllers beside the recipe: three levels of ownership at most"),
    limit("controller.recipe.steps[].count.burst", Of::Value, 1, MAX_OBJECTS_AT_PEAK, "children one sync may create or delete"),
    limit("controller.recipe.steps[].count.desired", Of::Value, 0, 100, "children counted against, in place of the owner's"),
    limit(
        "controller.recipe.steps[].wait_for_cache.timeout_ms",
        Of::Value,
        1,
        600_000,
        "ms it waits for its cache to show what it created",
    ),
    limit("controller.recipe.steps[].requeue_after.after_ms", Of::Value, 1, 86_400_000, "ms until the key is queued again"),
    limit("controller.recipe.steps[].update_status.retries", Of::Value, 0, 5, "GETs and tries again after a failed status write"),
    limit("controller.recipe.steps[].count.select.label", Of::Chars, 1, 63, "a label's key"),
    limit("controller.recipe.steps[].label_owner.labels", Of::Items, 0, 8, "labels a label_owner step writes"),
    limit("controller.recipe.steps[].label_owner.annotations", Of::Items, 0, 8, "annotations a label_owner step writes"),
    limit("controller.recipe.steps[].return_if.when", Of::Levels, 1, 3, "a Go `if`, not a language: not, all and any nest"),
    limit("controller.recipe.steps[].return_if.when.all", Of::Items, 1, 4, "conditions an `all` (or an `any`) joins"),
    limit("controller.recipe.steps[].for_each.max", Of::Value, 1, 100, "objects one for_each acts on a sync: a bounded loop"),
    limit("controller.recipe.steps[].for_each.when", Of::Levels, 1, 3, "a Go `if` over one object: not, all and any nest"),
    limit("controller.recipe.steps[].for_each.when.all", Of::Items, 1, 4, "conditions an `all` (or an `any`) joins"),
    limit("controller.recipe.steps[].create.label", Of::Chars, 1, 63, "a label's key"),
    limit("controller.recipe.steps[].create.naming", Of::Chars, 1, 40, "what a child's name adds to its owner's"),
    limit("schedule", Of::Items, 0, 100, "watch events held back"),
    limit("takes", Of::Items, 0, 100, "worker choices"),
    limit("takes[].take", Of::Value, 1, 1_000_000, "which key taken from the workqueue, counted from 1"),
    limit("schedule[].nth", Of::Value, 1, 1_000_000, "which event of its kind, counted from 1"),
    limit("schedule[].late_ms", Of::Value, 1, 600_000, "ms it arrives later than the lag says"),
    limit("schedule[].at_ms", Of::Value, 0, 2_592_000_000, "ms into the run it arrives at (no earlier than the events ahead of it)"),
    limit("expect", Of::Items, 0, 100, "checks"),
    limit("expect[].text", Of::Chars, 1, 300, "the sentence a check shows"),
    limit("lesson", Of::Items, 0, 40, "steps"),
    limit("lesson[].ask", Of::Chars, 1, 400, "a question, or one of its choices"),
    limit("lesson[].reveal", Of::Chars, 1, 1_200, "what the learner reads after answering"),
    limit("lesson[].choices", Of::Items, 0, 8, "choices a step offers"),
    limit("lesson[].figures", Of::Items, 0, 16, "figures a step's reveal states"),
    limit("lesson[].write", Of::Chars, 1, 120, "a row's label in the learner's notes"),
    limit("lesson[].prompt", Of::Chars, 1, 300, "what the learner writes in their own words"),
    limit("lesson[].table.columns[]", Of::Chars, 0, 120, "a column's heading"),
    limit("lesson[].table.rows", Of::Items, 1, 12, "rows of a step's table"),
    limit("lesson[].table.rows[][]", Of::Chars, 0, 300, "a cell of a step's table"),
    // The schedule search's own arguments (`cachescope explore`, the page's Find a bug):
    // its memory is bounded by the budget (`explore::BYTES_PER_STATE`), the budget here.
    limit("--max-deviations", Of::Value, 0, 8, "`explore`: events held back in one schedule"),
    limit("--budget", Of::Value, 1, MAX_EXPLORE_BUDGET, "`explore`: states simulated over every schedule (5× the default)"),
    limit("--late", Of::Values, 1, 16, "`explore`: how late a held-back event may arrive, each a choice per event"),
];

/// The most states one schedule search may simulate: what bounds its memory
/// (see `crate::explore::BYTES_PER_STATE`) and its time.
pub const MAX_EXPLORE_BUDGET: u64 = 10_000_000;

/// The limit declared at `path` (`objects[].count`).
pub fn get(path: &str) -> &'static Limit {
    LIMITS.iter().find(|l| l.path == path).unwrap_or_else(|| panic!("no limit is declared at {path}"))
}

impl Limit {
    /// Check `n` (a value, a count of entries or of characters) at `field`, the
    /// path with its indices (`objects[2].count`).
    pub fn check(&self, field: &str, n: u64) -> Result<(), ScenarioError> {
        if (self.min..=self.max).contains(&n) {
            return Ok(());
        }
        let what = match self.of {
            Of::Value => return super::range(field, n, self.min, self.max),
            Of::Items => "entries",
            Of::Chars => "characters",
            Of::Values => "values",
            Of::Levels => "levels",
        };
        let bound = if n > self.max { format!("at most {}", self.max) } else { format!("at least {}", self.min) };
        Err(ScenarioError::new(field, Some(format!("{n} {what}")), format!("{n} {what}; {bound} ({})", self.why)))
    }

    /// Check a text's length at `field`, and that it holds no character that
    /// would hide or reorder what the page shows: control characters (but a
    /// line break, where `multiline`), bidirectional overrides, and the
    /// noncharacters XML forbids.
    pub fn check_text(&self, field: &str, text: &str, multiline: bool) -> Result<(), ScenarioError> {
        self.check(field, text.chars().count() as u64)?;
        if let Some((i, c)) = text.chars().enumerate().find(|(_, c)| !printable(*c, multiline)) {
            return Err(ScenarioError::new(
                field,
                Some(format!("U+{:04X} at character {}", c as u32, i + 1)),
                "holds a control, bidirectional-override or non-character code point; write plain text",
            ));
        }
        Ok(())
    }
}

/// Safe to show as text, and to write into XML.
pub fn printable(c: char, multiline: bool) -> bool {
    let bidi = matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    let nonchar = matches!(c as u32, 0xFDD0..=0xFDEF) || (c as u32 & 0xFFFE) == 0xFFFE;
    let control = c.is_control() && !(multiline && c == '\n');
    !(bidi || nonchar || control)
}

/// What the cluster would hold at once if every owner got what it asks for:
/// the seed objects, plus, for each owner (seeded or applied), the most
/// children it ever asks for (its `voices` or `replicas`, or a `scale.to`).
/// `extra_scale` is a scale of the scenario's owner made from outside (the
/// page's field, `edit=…do=scale:N`). Returns the estimate and, of what
/// makes it, the field that asks the most, with what it asks.
pub fn objects_at_peak(s: &Scenario, extra_scale: Option<(Kind, String, u32)>) -> (u64, String, String) {
    let ns = &s.controller.namespace;
    let mut desired: BTreeMap<(Kind, String, String), (u64, String)> = BTreeMap::new();
    let mut ask = |kind: Kind, namespace: &str, name: String, n: u64, field: String| {
        let e = desired.entry((kind, namespace.to_string(), name)).or_insert((0, String::new()));
        if n > e.0 {
            *e = (n, field);
        }
    };
    let mut seeds = 0u64;
    let mut biggest = (0u64, "objects".to_string(), String::new());
    for (i, o) in s.objects.iter().enumerate() {
        let count = u64::from(o.count.unwrap_or(1));
        seeds += count;
        let per = u64::from(o.voices.or(o.replicas).or_else(|| o.spec.values().next().copied()).unwrap_or(0));
        let namespace = o.namespace.as_deref().unwrap_or(ns);
        let unit = o.kind.desired_field().unwrap_or("");
        let total = count * (1 + per);
        if total > biggest.0 {
            let said = if per > 0 { format!("{count} × {} {per} {unit}", o.kind) } else { format!("{count} {}", o.kind) };
            biggest = (total, format!("objects[{i}]"), said);
        }
        if per > 0 {
            for t in o.templates(ns) {
                ask(o.kind, namespace, t.name.unwrap_or_default().into(), per, format!("objects[{i}].{unit}"));
            }
        }
    }
    for (i, a) in s.actions.iter().enumerate() {
        if let Some(o) = &a.apply {
            let per = u64::from(o.voices.or(o.replicas).or_else(|| o.spec.values().next().copied()).unwrap_or(0));
            seeds += 1;
            ask(o.kind, o.namespace.as_deref().unwrap_or(ns), o.name.clone(), per, format!("actions[{i}].apply"));
        }
        if let Some(sc) = &a.scale {
            ask(sc.kind, sc.namespace.as_deref().unwrap_or(ns), sc.name.clone(), u64::from(sc.to), format!("actions[{i}].scale.to"));
        }
    }
    if let Some((kind, name, to)) = extra_scale {
        ask(kind, ns, name, u64::from(to), "edit".to_string());
    }
    let children: u64 = desired.values().map(|(n, _)| n).sum();
    if let Some((n, field)) = desired.values().max_by_key(|(n, _)| *n) {
        if *n > biggest.0 {
            biggest = (*n, field.clone(), format!("{n} children"));
        }
    }
    (seeds + children, biggest.1, biggest.2)
}

/// Refuse a scenario whose objects at the peak are over the budget, naming
/// the field that asks the most.
pub fn check_budget(s: &Scenario, extra_scale: Option<(Kind, String, u32)>) -> Result<(), ScenarioError> {
    let (n, field, said) = objects_at_peak(s, extra_scale);
    if n > MAX_OBJECTS_AT_PEAK {
        return Err(ScenarioError::new(
            field,
            Some(said),
            format!(
                "this scenario asks the cluster to hold {n} objects at once; the work budget is {MAX_OBJECTS_AT_PEAK} \
                 (seed objects plus every owner's voices or replicas at their largest)"
            ),
        ));
    }
    Ok(())
}

/// The docs' table of these limits (`cachescope settings`).
pub fn markdown_table() -> String {
    let mut out = String::from("| where | limit | what |\n|---|---|---|\n");
    out.push_str(&format!(
        "| the whole scenario | at most {MAX_OBJECTS_AT_PEAK} objects at once | seed objects plus every owner's voices or replicas at their largest (a `scale.to`, an `apply`, the page's field): the product of the limits below is bounded too |\n"
    ));
    out.push_str(&format!(
        "| a run | at most {FRAME_LIMIT} frames, and {WORK_BUDGET} objects × frames | it stops there, natively and in the page, and says so: {} frames at {MAX_OBJECTS_AT_PEAK} objects |\n",
        frame_limit(MAX_OBJECTS_AT_PEAK)
    ));
    out.push_str(&format!(
        "| a run, as it goes | at most {MAX_OBJECTS_AT_PEAK} objects at once | what the controller creates counts too (over-creating while its cache lags, or an event held): the run stops after the frame that passes it, natively and in the page, and says why (`stopped_at_object_limit`) |\n"
    ));
    for l in LIMITS {
        let range = match l.of {
            Of::Value => format!("{}-{}", l.min, l.max),
            Of::Items if l.min > 0 => format!("{}-{} entries", l.min, l.max),
            Of::Items => format!("at most {} entries", l.max),
            Of::Values => format!("{}-{} values", l.min, l.max),
            Of::Chars => format!("{}-{} characters", l.min, l.max),
            Of::Levels => format!("{}-{} levels deep", l.min, l.max),
        };
        out.push_str(&format!("| `{}` | {range} | {} |\n", l.path, l.why));
    }
    out
}
