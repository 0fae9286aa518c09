//! "Your controller": what the recipe editor shows, as plain values. A
//! draft is a scenario document (the one it started from) and the text of
//! its `controller.recipe`; each edit of the text is checked whole, and a
//! valid one is the next run, its pseudo-code the lines the Reconcile panel
//! will draw. Its steps are added (each from the language's worked
//! example), moved and removed as a list, and each opens a form: its
//! fields (`scenario::recipe::FIELDS`) as controls, each edit written back
//! into the text and checked like a keystroke.

use crate::scenario::recipe::{fields, FieldKind, StepField};
use crate::scenario::{preset, recipe::written_out, Scenario, ScenarioError, PRESETS};
use crate::scenario::{RuleField, RULES};
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
            // A check that names a field of the preset's recipe (`when`) is about that recipe, as
            // its lesson is: kept, it would refuse a step moved away from under its path.
            if let Some(Value::Array(checks)) = doc.get_mut("expect") {
                let on_recipe =
                    |c: &Value| c["when"].as_object().is_some_and(|w| w.keys().any(|k| crate::scenario::lesson::is_recipe_field(k)));
                checks.retain(|c| !on_recipe(c));
            }
        }
        // `expectations` left out where it says what leaving it out means (kept exactly when a
        // step checks them): a check_expectations step added, or removed, then keeps them or not.
        let recipe = &mut base["controller"]["recipe"];
        let checks = recipe["steps"].as_array().is_some_and(|steps| steps.iter().any(|s| s.get("check_expectations").is_some()));
        if recipe.get("expectations").and_then(Value::as_bool) == Some(checks) {
            recipe.as_object_mut().map(|r| r.remove("expectations"));
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

impl Draft {
    /// `text` with the step named `name` added where it makes a valid
    /// recipe, the latest such place before the return (a guard goes
    /// before the count it guards); where none does, before the return, and
    /// the check names what it lacks.
    pub fn add(&self, text: &str, name: &str) -> Option<String> {
        let last = added(text, name)?;
        // Its index, before the return; each place tried is one move up from the one before.
        let Some(mut at) = steps_in(&last)?.checked_sub(2) else { return Some(last) };
        let mut candidate = last.clone();
        loop {
            if self.check(&candidate).run.is_ok() {
                return Some(candidate);
            }
            if at == 0 {
                return Some(last);
            }
            candidate = moved(&candidate, at, Move::Up)?;
            at -= 1;
        }
    }
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

/// A field of a step as its form shows it: what the text holds, or what
/// leaving it out means.
#[derive(Debug, Clone, PartialEq)]
pub enum Shown {
    /// The word chosen; empty where absence is a choice of its own (a
    /// delete's propagation left to the resource's default).
    Choice(String),
    Flag(bool),
    /// The number as typed; empty when absent.
    Int(String),
    Text(String),
    /// The word, and the text it carries (empty for a bare word).
    Tagged(String, String),
    /// Compact JSON; empty when absent.
    Json(String),
}

/// A field and what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldView {
    pub field: &'static StepField,
    pub shown: Shown,
}

/// What a form edits: the recipe's own fields, or a step's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Recipe,
    /// Step `i`, from 0.
    Step(usize),
}

impl Part {
    /// Where its fields sit in the scenario (`controller.recipe.steps[2].count`).
    fn at(self, name: &str) -> String {
        match self {
            Part::Recipe => "controller.recipe".to_string(),
            Part::Step(i) => format!("controller.recipe.steps[{i}].{name}"),
        }
    }
}

/// The part's name (a step's, or `recipe`) and its fields as the form
/// shows them, when the text is a recipe's JSON with such a part.
pub fn form(text: &str, part: Part) -> Option<(String, Vec<FieldView>)> {
    let recipe: Value = serde_json::from_str(text).ok()?;
    let (name, body) = match part {
        Part::Recipe => ("recipe".to_string(), recipe.as_object()),
        Part::Step(i) => match recipe.get("steps")?.as_array()?.get(i)? {
            Value::String(name) => (name.clone(), None),
            Value::Object(m) if m.len() == 1 => m.iter().next().map(|(k, v)| (k.clone(), v.as_object()))?,
            _ => return None,
        },
    };
    let views = fields(&name)
        .map(|field| {
            let value = body.and_then(|b| b.get(field.field));
            let word = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
            let shown = match field.kind {
                FieldKind::Choice(_) => Shown::Choice(word(value).or(field.default.map(str::to_string)).unwrap_or_default()),
                FieldKind::MaybeFlag => Shown::Choice(value.and_then(Value::as_bool).map(|b| b.to_string()).unwrap_or_default()),
                FieldKind::Flag => Shown::Flag(value.and_then(Value::as_bool).unwrap_or(field.default == Some("true"))),
                // What is written; leaving it out is the control's placeholder (typing over a shown default would append to it).
                FieldKind::Int => Shown::Int(value.map(|v| v.to_string()).unwrap_or_default()),
                FieldKind::Text => Shown::Text(word(value).unwrap_or_default()),
                FieldKind::Tagged(_) => match value {
                    Some(Value::String(tag)) => Shown::Tagged(tag.clone(), String::new()),
                    Some(Value::Object(m)) => m.iter().next().map_or(Shown::Tagged(String::new(), String::new()), |(tag, v)| {
                        Shown::Tagged(tag.clone(), v.as_str().unwrap_or_default().to_string())
                    }),
                    _ => Shown::Tagged(String::new(), String::new()),
                },
                FieldKind::Json => Shown::Json(value.map(Value::to_string).unwrap_or_default()),
            };
            FieldView { field, shown }
        })
        .collect();
    Some((name, views))
}

/// Step `i`'s name and its fields as the form shows them.
pub fn step_form(text: &str, i: usize) -> Option<(String, Vec<FieldView>)> {
    form(text, Part::Step(i))
}

/// An edit made in a step's form.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// A word chosen; empty leaves the field out.
    Word(String),
    Flag(bool),
    /// A number as typed; empty leaves the field out.
    Number(String),
    Text(String),
    /// A tagged field's word, keeping the text it carried (where the new word carries one).
    Tag(String),
    /// A tagged field's text, under its word.
    TagText(String),
    /// JSON as typed; empty leaves the field out.
    Json(String),
}

/// `text` with the part's `field` set by `edit`, or the error naming the
/// field where the edit cannot be written as JSON at all (a number that is
/// none, JSON that is not). What JSON can hold is written, and the draft's
/// check names what the scenario's rules refuse, as for a keystroke.
pub fn edited(text: &str, part: Part, field: &str, edit: Edit) -> Result<String, String> {
    let (name, _) = form(text, part).ok_or_else(|| format!("{}: not a part the form can edit", part.at("")))?;
    let place = part.at(&name);
    let spec = fields(&name).find(|f| f.field == field).ok_or_else(|| format!("{place}: has no field {field}"))?;
    let at = format!("{place}.{field}");
    let refused = |value: &str, why: &str| ScenarioError::new(&at, Some(format!("{value:?}")), why).to_string();
    let mut recipe: Value = serde_json::from_str(text).expect("form read it");
    let body = match part {
        Part::Recipe => recipe.as_object_mut(),
        Part::Step(i) => {
            let step = &mut recipe["steps"][i];
            if step.is_string() {
                *step = serde_json::json!({ name.clone(): {} });
            }
            step[name.as_str()].as_object_mut()
        }
    };
    let body = body.ok_or_else(|| format!("{place}: not an object"))?;
    let old = body.get(field).cloned();
    let value = match edit {
        Edit::Word(w) | Edit::Number(w) | Edit::Json(w) if w.trim().is_empty() => None,
        Edit::Text(t) if t.is_empty() && !spec.required => None,
        Edit::Word(w) if spec.kind == FieldKind::MaybeFlag => Some(Value::Bool(w == "true")),
        Edit::Word(w) => Some(Value::String(w)),
        Edit::Flag(b) => Some(Value::Bool(b)),
        Edit::Number(n) => Some(Value::from(n.trim().parse::<u64>().map_err(|_| refused(&n, "is not a whole number"))?)),
        Edit::Text(t) => Some(Value::String(t)),
        Edit::Json(j) => Some(serde_json::from_str(&j).map_err(|e| refused(&j, &format!("is not JSON ({e})")))?),
        Edit::Tag(tag) => {
            let carries = matches!(spec.kind, FieldKind::Tagged(tags) if tags.iter().any(|(t, text)| *t == tag && *text));
            let kept = old.as_ref().and_then(Value::as_object).and_then(|m| m.values().next()).and_then(Value::as_str).unwrap_or_default();
            Some(if carries { serde_json::json!({ tag: kept }) } else { Value::String(tag) })
        }
        Edit::TagText(t) => {
            let tag = old.as_ref().and_then(Value::as_object).and_then(|m| m.keys().next().cloned());
            let tag = tag.ok_or_else(|| refused(&t, "carries no text: choose a word that does first"))?;
            Some(serde_json::json!({ tag: t }))
        }
    };
    match value {
        Some(v) => body.insert(field.to_string(), v),
        None => body.remove(field),
    };
    Ok(serde_json::to_string_pretty(&recipe).expect("JSON serializes"))
}

/// The draft as changes of the current run's recipe, field by field
/// (`controller.recipe.steps[2].label_owner.remove` = `on_observed_delete`),
/// or, where its shape changed (a step added), the part that did as a whole
/// (`controller.recipe.steps` = its JSON), when the recipe is all it
/// changes. A lesson waits for such a change (its step's `set`), and the
/// link says it as settings do. None when the draft changes more than its
/// recipe (the start another preset's), or the changes do not make the
/// draft's run.
pub fn recipe_edits(current: &Scenario, draft: &Scenario) -> Option<Vec<(String, String)>> {
    let (mut was, mut now) = (current.to_value(), draft.to_value());
    // What a draft leaves behind (the lesson, the checks about the preset's recipe) is no change it makes.
    for doc in [&mut was, &mut now] {
        let doc = doc.as_object_mut()?;
        doc.remove("lesson");
        doc.remove("expect");
    }
    let (old, new) = (was["controller"].as_object_mut()?.remove("recipe")?, now["controller"].as_object_mut()?.remove("recipe")?);
    if was != now {
        return None;
    }
    let mut edits = Vec::new();
    leaves_changed("controller.recipe", &old, &new, &mut edits)?;
    let raw = |v: &Value| match v {
        // A word that would read as JSON (`"1"`) keeps its quotes.
        Value::String(s) if serde_json::from_str::<Value>(s).is_err() => s.clone(),
        other => other.to_string(),
    };
    let edits: Vec<(String, String)> = edits.into_iter().map(|(path, v)| (path, raw(&v))).collect();
    let made = current.with_settings(edits.iter().map(|(p, v)| (p.as_str(), v.as_str()))).ok()?;
    (made.to_value()["controller"]["recipe"] == draft.to_value()["controller"]["recipe"]).then_some(edits)
}

/// Each scalar of `new` that differs from `old`'s at the same place, by
/// dotted path; where their shapes differ (an entry more or fewer, another
/// kind of value), `new`'s part there, whole.
fn leaves_changed(at: &str, old: &Value, new: &Value, out: &mut Vec<(String, Value)>) -> Option<()> {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) if a.len() == b.len() && a.keys().all(|k| b.contains_key(k)) => {
            a.iter().try_for_each(|(k, v)| leaves_changed(&format!("{at}.{k}"), v, &b[k], out))
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            a.iter().zip(b).enumerate().try_for_each(|(i, (x, y))| leaves_changed(&format!("{at}[{i}]"), x, y, out))
        }
        // The recipe as a whole is no setting: a change of its shape is its steps' or a field's.
        _ if at == "controller.recipe" && old != new => None,
        (a, b) => {
            if a != b {
                out.push((at.to_string(), b.clone()));
            }
            Some(())
        }
    }
}

/// A field of a declared kind (`kinds[i]`) its form edits. Its name is not
/// one: objects, steps and invariants name the kind by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindField {
    /// The lower-case plural resource (`rayclusters.ray.io`).
    Resource,
    /// The owner's spec field with its desired count (`workers`); empty: none.
    Desired,
    /// Its children's kind.
    ChildrenKind,
    /// The label that names a child's owner.
    ChildrenLabel,
}

impl KindField {
    pub const ALL: [KindField; 4] = [KindField::Resource, KindField::Desired, KindField::ChildrenKind, KindField::ChildrenLabel];

    /// Its place in a `kinds` entry, as the scenario's errors name it.
    pub fn path(self) -> &'static str {
        match self {
            KindField::Resource => "resource",
            KindField::Desired => "desired",
            KindField::ChildrenKind => "children.kind",
            KindField::ChildrenLabel => "children.label",
        }
    }
}

/// A declared kind as its form shows it: its name and each field's value as written ("" when left out).
#[derive(Debug, Clone, PartialEq)]
pub struct KindView {
    pub name: String,
    pub fields: Vec<(KindField, String)>,
}

/// An owner the run starts with or applies, and its desired count: what
/// "a kind with `replicas: 3`" is in the document.
#[derive(Debug, Clone, PartialEq)]
pub struct OwnerView {
    /// Where it is written: `objects[0]`, `actions[2].apply`.
    pub at: String,
    pub kind: String,
    pub name: String,
    /// The desired count's place in it: `replicas`, `voices`, `spec.workers`.
    pub field: String,
    pub count: String,
}

impl Draft {
    /// The kinds the scenario declares, as their forms show them.
    pub fn kinds(&self) -> Vec<KindView> {
        let all = self.base.get("kinds").and_then(Value::as_array).cloned().unwrap_or_default();
        let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
        all.iter()
            .map(|k| KindView {
                name: text(&k["name"]),
                fields: KindField::ALL
                    .iter()
                    .map(|f| {
                        let v = match f {
                            KindField::Resource => &k["resource"],
                            KindField::Desired => &k["desired"],
                            KindField::ChildrenKind => &k["children"]["kind"],
                            KindField::ChildrenLabel => &k["children"]["label"],
                        };
                        (*f, text(v))
                    })
                    .collect(),
            })
            .collect()
    }

    /// Set declared kind `i`'s `field` to `to` ("" leaves it out). Its
    /// owners' counts follow a renamed desired field. The draft's check
    /// names what the scenario's rules refuse, as for a keystroke.
    pub fn edit_kind(&mut self, i: usize, field: KindField, to: &str) -> Result<(), String> {
        let entry = self.base.get_mut("kinds").and_then(|v| v.get_mut(i)).and_then(Value::as_object_mut);
        let entry = entry.ok_or_else(|| format!("kinds[{i}]: no such kind"))?;
        let name = entry.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        let value = (!to.is_empty()).then(|| Value::String(to.to_string()));
        let set = |map: &mut serde_json::Map<String, Value>, key: &str| match &value {
            Some(v) => {
                map.insert(key.to_string(), v.clone());
            }
            None => {
                map.remove(key);
            }
        };
        match field {
            KindField::Resource => set(entry, "resource"),
            KindField::Desired => {
                let old = entry.get("desired").and_then(Value::as_str).map(str::to_string);
                set(entry, "desired");
                if let (Some(old), Some(new)) = (old, value.as_ref().and_then(Value::as_str)) {
                    for owner in owner_entries(&mut self.base).filter(|o| o["kind"] == name.as_str()) {
                        if let Some(spec) = owner.get_mut("spec").and_then(Value::as_object_mut) {
                            if let Some(n) = spec.remove(&old) {
                                spec.insert(new.to_string(), n);
                            }
                        }
                    }
                }
            }
            KindField::ChildrenKind | KindField::ChildrenLabel => {
                let key = if field == KindField::ChildrenKind { "kind" } else { "label" };
                let children = entry.entry("children").or_insert_with(|| Value::Object(Default::default()));
                if let Some(c) = children.as_object_mut() {
                    set(c, key);
                    if c.is_empty() {
                        entry.remove("children");
                    }
                }
            }
        }
        Ok(())
    }

    /// The owners the run starts with (`objects`) or applies (`actions`),
    /// each with its desired count, where its kind has one.
    pub fn owners(&self) -> Vec<OwnerView> {
        let mut base = self.base.clone();
        let fields = desired_fields(&base);
        let mut out = Vec::new();
        for (at, o) in owner_places(&mut base) {
            let kind = o["kind"].as_str().unwrap_or_default().to_string();
            let Some((field, in_spec)) = fields.iter().find(|(k, _, _)| *k == kind).map(|(_, f, s)| (f.clone(), *s)) else { continue };
            let count = if in_spec { &o["spec"][&field] } else { &o[&field] };
            let count = if count.is_null() { String::new() } else { count.to_string() };
            let field = if in_spec { format!("spec.{field}") } else { field };
            out.push(OwnerView { at, kind, name: o["name"].as_str().unwrap_or_default().to_string(), field, count });
        }
        out
    }

    /// Set the desired count of owner `j` (as [`Draft::owners`] lists
    /// them) to `to`: a whole number, else refused naming the field.
    pub fn edit_count(&mut self, j: usize, to: &str) -> Result<(), String> {
        let owner = self.owners().into_iter().nth(j).ok_or_else(|| format!("no owner {j}"))?;
        let at = format!("{}.{}", owner.at, owner.field);
        let n = to
            .trim()
            .parse::<u32>()
            .map_err(|_| ScenarioError::new(at.clone(), Some(format!("{to:?}")), "is not a whole number").to_string())?;
        let target = owner_places(&mut self.base).find(|(a, _)| *a == owner.at).map(|(_, o)| o);
        let target = target.ok_or_else(|| format!("{}: no such owner", owner.at))?;
        match owner.field.strip_prefix("spec.") {
            Some(f) => target["spec"][f] = Value::from(n),
            None => target[owner.field.as_str()] = Value::from(n),
        }
        Ok(())
    }
}

/// Each kind with a desired count: its name, the field, and whether the
/// field is under `spec` (a declared kind's) or beside the name (a built-in's).
fn desired_fields(base: &Value) -> Vec<(String, String, bool)> {
    let mut all = vec![("Ensemble".to_string(), "voices".to_string(), false), ("ReplicaSet".to_string(), "replicas".to_string(), false)];
    for k in base.get("kinds").and_then(Value::as_array).into_iter().flatten() {
        if let (Some(name), Some(desired)) = (k["name"].as_str(), k["desired"].as_str()) {
            all.push((name.to_string(), desired.to_string(), true));
        }
    }
    all
}

/// Every object the document writes whole, by where: `objects[i]`, `actions[i].apply`.
fn owner_places(base: &mut Value) -> impl Iterator<Item = (String, &mut Value)> {
    let doc = base.as_object_mut().into_iter().flat_map(|d| d.iter_mut());
    doc.flat_map(|(key, v)| {
        let list = v.as_array_mut().map(|l| l.iter_mut().enumerate().collect::<Vec<_>>()).unwrap_or_default();
        let key = key.clone();
        list.into_iter().filter_map(move |(i, v)| match key.as_str() {
            "objects" => Some((format!("objects[{i}]"), v)),
            "actions" => v.get_mut("apply").filter(|a| a.is_object()).map(|a| (format!("actions[{i}].apply"), a)),
            _ => None,
        })
    })
}

/// [`owner_places`]' objects alone.
fn owner_entries(base: &mut Value) -> impl Iterator<Item = &mut Value> {
    owner_places(base).map(|(_, v)| v)
}

/// One of the draft's invariants as its form shows it: its name, its rule
/// (`at_most`, …) and the rule's fields with their values as written.
#[derive(Debug, Clone, PartialEq)]
pub struct InvariantView {
    pub name: String,
    pub rule: String,
    pub fields: Vec<(&'static RuleField, String)>,
}

/// What an invariant's form edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvariantField {
    Name,
    /// Another rule, written with its fields' first values.
    Rule,
    /// A field of its rule (`count`).
    Of(&'static str),
}

impl Draft {
    /// The scenario's own invariants, as the forms show them.
    pub fn invariants(&self) -> Vec<InvariantView> {
        let all = self.base.get("invariants").and_then(Value::as_array).cloned().unwrap_or_default();
        all.iter()
            .map(|inv| {
                let rule = RULES.iter().find(|(r, _, _)| inv.get(*r).is_some());
                let fields = rule.map_or(Vec::new(), |(r, fields, _)| {
                    fields
                        .iter()
                        .map(|f| {
                            let v = &inv[*r][f.field];
                            (f, v.as_str().map_or_else(|| if v.is_null() { String::new() } else { v.to_string() }, str::to_string))
                        })
                        .collect()
                });
                InvariantView {
                    name: inv["name"].as_str().unwrap_or_default().to_string(),
                    rule: rule.map_or(String::new(), |(r, _, _)| r.to_string()),
                    fields,
                }
            })
            .collect()
    }

    /// Set invariant `i`'s `field` to `to` (a number's field takes digits:
    /// anything else is refused, naming the field); the check names what
    /// the scenario's rules refuse. A new rule starts from the recipe's
    /// owner kind and its desired count's bounds.
    pub fn edit_invariant(&mut self, i: usize, field: InvariantField, to: &str) -> Result<(), String> {
        let owner = self.base["controller"]["recipe"]["owner"].clone();
        let until = self.base["until_ms"].clone();
        let inv = self.base.get_mut("invariants").and_then(|v| v.get_mut(i)).and_then(Value::as_object_mut);
        let inv = inv.ok_or_else(|| format!("invariants[{i}]: no such invariant"))?;
        match field {
            InvariantField::Name => {
                inv.insert("name".into(), Value::String(to.to_string()));
            }
            InvariantField::Rule => {
                let (rule, _, _) = RULES.iter().find(|(r, _, _)| *r == to).ok_or_else(|| format!("invariants[{i}]: no rule {to}"))?;
                inv.retain(|k, _| k == "name");
                let body = match *rule {
                    "at_most" | "at_least" => serde_json::json!({ "count": 1, "owner": owner }),
                    "eventually" => serde_json::json!({ "converged": owner, "by_ms": until }),
                    _ => serde_json::json!({ "kind": owner, "has_label": "" }),
                };
                inv.insert(rule.to_string(), body);
            }
            InvariantField::Of(name) => {
                let (rule, fields, _) =
                    RULES.iter().find(|(r, _, _)| inv.contains_key(*r)).ok_or_else(|| format!("invariants[{i}]: no rule"))?;
                let f = fields.iter().find(|f| f.field == name).ok_or_else(|| format!("invariants[{i}].{rule}: has no field {name}"))?;
                let value = if f.number {
                    let at = format!("invariants[{i}].{rule}.{name}");
                    let n = to
                        .trim()
                        .parse::<u64>()
                        .map_err(|_| ScenarioError::new(at, Some(format!("{to:?}")), "is not a whole number").to_string())?;
                    Value::from(n)
                } else {
                    Value::String(to.to_string())
                };
                inv[*rule][name] = value;
            }
        }
        Ok(())
    }

    /// Another invariant: at most the owner's desired count of children,
    /// named `mine-N` (its name and bound are the learner's to change).
    pub fn add_invariant(&mut self) {
        let owner = self.base["controller"]["recipe"]["owner"].clone();
        let list = self.base.as_object_mut().map(|d| d.entry("invariants").or_insert_with(|| Value::Array(Vec::new())));
        if let Some(Value::Array(list)) = list {
            let taken = |name: &str| list.iter().any(|i| i["name"] == name);
            let name = (1..).map(|n| format!("mine-{n}")).find(|n| !taken(n)).expect("a free name");
            list.push(serde_json::json!({ "name": name, "at_most": { "count": 1, "owner": owner } }));
        }
    }

    /// Invariant `i` taken away.
    pub fn remove_invariant(&mut self, i: usize) {
        if let Some(list) = self.base.get_mut("invariants").and_then(Value::as_array_mut) {
            if i < list.len() {
                list.remove(i);
            }
            if list.is_empty() {
                self.base.as_object_mut().map(|d| d.remove("invariants"));
            }
        }
    }
}
