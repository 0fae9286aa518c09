//! The rules a scenario's recipe (`controller.recipe`) must keep beyond its
//! types, each error naming the step and field at fault: its shape (a
//! count before what acts on it, `return` last, one step per line of the
//! code), what each step needs of the controller (the consistency store for
//! `ensure_ready`, controller-runtime's read-your-writes client for its
//! reads), its limits (`limits::LIMITS`), and that no switch of the built-in
//! recipe is set beside it, where it would change nothing.

use super::{limits, Scenario, ScenarioError};
use crate::sim::object::{child_kind, Kind};
use crate::sim::recipe::{Cond, Is, KeyedBy, Naming, Op, ReadFrom, Recipe, Term};
use crate::sim::settings::{ControllerSettings, RuntimeKind};
use crate::sim::spec::Program;

const AT: &str = "controller.recipe";

/// Check the scenario's recipe, if it has one, and the controllers beside it.
pub(super) fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    let c = &s.controller;
    let Some(recipe) = &c.recipe else {
        if !c.alongside.is_empty() {
            return Err(ScenarioError::new(
                "controller.alongside",
                None,
                "runs controllers beside one written as a recipe: give controller.recipe, whose children they reconcile",
            ));
        }
        return Ok(());
    };
    one(recipe, c, AT)?;
    switches_beside(c)?;
    if let Some((i, path)) = s.controls.iter().enumerate().find(|(_, p)| WRITTEN_BY_RECIPE.iter().any(|(w, _)| w == p)) {
        return Err(ScenarioError::new(
            format!("controls[{i}]"),
            Some(format!("\"{path}\"")),
            "writes a line of the built-in reconcile, which controller.recipe replaces: the page does not offer it",
        ));
    }
    shape(recipe, c, AT)?;
    beside(s)
}

/// The controllers beside the recipe (`controller.alongside`): each a recipe
/// over kinds of the scenario's own whose owner is a kind another of them
/// creates, one controller an owner kind, and one replica of them all.
fn beside(s: &Scenario) -> Result<(), ScenarioError> {
    let c = &s.controller;
    limits::get("controller.alongside").check("controller.alongside", c.alongside.len() as u64)?;
    if c.alongside.is_empty() {
        return Ok(());
    }
    if c.instances > 1 {
        return Err(ScenarioError::new(
            "controller.instances",
            Some(c.instances.to_string()),
            "runs two replicas, and controllers beside the recipe run in one: set controller.instances to 1",
        ));
    }
    let primary = c.recipe.as_ref().expect("checked by validate");
    let mut owners = vec![primary.owner];
    let mut children = vec![primary.child];
    for (i, recipe) in c.alongside.iter().enumerate() {
        let at = format!("controller.alongside[{i}]");
        if !matches!(recipe.owner, Kind::Declared(_)) {
            return Err(ScenarioError::new(
                format!("{at}.owner"),
                Some(format!("\"{}\"", recipe.owner)),
                "is a built-in kind: a controller beside the recipe reconciles a kind the scenario declares",
            ));
        }
        if owners.contains(&recipe.owner) {
            return Err(ScenarioError::new(
                format!("{at}.owner"),
                Some(format!("\"{}\"", recipe.owner)),
                "has a controller already: one controller an owner kind",
            ));
        }
        if !children.contains(&recipe.owner) {
            return Err(ScenarioError::new(
                format!("{at}.owner"),
                Some(format!("\"{}\"", recipe.owner)),
                format!(
                    "is no kind a controller here creates ({}): a controller beside the recipe reconciles its children",
                    names(&children)
                ),
            ));
        }
        let settings = c.beside(i);
        one(recipe, &settings, &at)?;
        shape(recipe, &settings, &at)?;
        owners.push(recipe.owner);
        children.push(recipe.child);
    }
    Ok(())
}

fn names(kinds: &[Kind]) -> String {
    kinds.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", ")
}

/// One recipe's wiring at `at`: a reconcile loop's, its owner and child
/// kinds its controller's (or its declared owner's), its steps within the
/// limits, its name a DNS name.
fn one(recipe: &Recipe, c: &ControllerSettings, at: &str) -> Result<(), ScenarioError> {
    let spec = c.kind.spec();
    let (Program::Loop, Some(owner)) = (spec.program, spec.owner) else {
        return Err(ScenarioError::new(
            at,
            None,
            format!("the {} is a one-shot program; a recipe is a reconcile loop's (controller.kind ensemble or replicaset)", word(c)),
        ));
    };
    // A recipe over kinds of the scenario's own takes its controller's wiring
    // over them (`spec::rewired`): its child is the one its owner declares.
    let (owner, child) = match recipe.owner {
        Kind::Declared(_) => match child_kind(recipe.owner) {
            Some(child) => (recipe.owner, child),
            None => {
                return Err(ScenarioError::new(
                    format!("{at}.owner"),
                    Some(format!("\"{}\"", recipe.owner)),
                    "declares no children to reconcile: give its kinds entry desired and children",
                ))
            }
        },
        _ => (owner, c.kind.spec().child),
    };
    let kinds = [("owner", recipe.owner, owner), ("child", recipe.child, child)];
    for (field, said, is) in kinds {
        if said != is {
            return Err(ScenarioError::new(
                format!("{at}.{field}"),
                Some(format!("\"{said}\"")),
                format!("the {} controller's {field} kind is {is}: a recipe keeps its controller's wiring", word(c)),
            ));
        }
    }
    limits::get("controller.recipe.steps").check(&format!("{at}.steps"), recipe.ops.len() as u64)?;
    if let Some(name) = &recipe.name {
        super::dns_name(&format!("{at}.name"), name)?;
    }
    Ok(())
}

fn word(c: &ControllerSettings) -> &'static str {
    crate::sim::settings::word(c.kind)
}

/// The step's serde name (`count`), as a path names it.
fn name(op: &Op) -> &'static str {
    match op {
        Op::EnsureReady => "ensure_ready",
        Op::GetOwner { .. } => "get_owner",
        Op::CheckExpectations { .. } => "check_expectations",
        Op::Count { .. } => "count",
        Op::List { .. } => "list",
        Op::LabelOwner { .. } => "label_owner",
        Op::ReturnIf { .. } => "return_if",
        Op::Create { .. } => "create",
        Op::Delete { .. } => "delete",
        Op::WaitForCache { .. } => "wait_for_cache",
        Op::UpdateStatus { .. } => "update_status",
        Op::Finalizer { .. } => "finalizer",
        Op::ForEach { .. } => "for_each",
        Op::Return => "return",
        Op::RequeueAfter { .. } => "requeue_after",
    }
}

fn shape(recipe: &Recipe, c: &ControllerSettings, at_recipe: &str) -> Result<(), ScenarioError> {
    let by_uid = recipe.expectations_keyed_by == KeyedBy::Uid;
    if by_uid && !recipe.expectations {
        return Err(ScenarioError::new(
            format!("{at_recipe}.expectations_keyed_by"),
            Some("\"uid\"".into()),
            "keys expectations the recipe does not keep: set controller.recipe.expectations to true",
        ));
    }
    if recipe.delete_expectations_on_delete.is_some() && !recipe.expectations {
        return Err(ScenarioError::new(
            format!("{at_recipe}.delete_expectations_on_delete"),
            recipe.delete_expectations_on_delete.map(|b| b.to_string()),
            "forgets expectations the recipe does not keep: add a check_expectations step, or drop this field",
        ));
    }
    let last = recipe.ops.len() - 1;
    let mut counted = false;
    let mut listed = false;
    let mut live_owner = false;
    let mut got_owner = false;
    for (i, op) in recipe.ops.iter().enumerate() {
        let at = format!("{at_recipe}.steps[{i}]");
        let step = format!("{at}.{}", name(op));
        if let Some(j) = recipe.ops[..i].iter().position(|o| o.step() == op.step()) {
            return Err(ScenarioError::new(
                at,
                Some(format!("\"{}\"", name(op))),
                format!("a second step on the line of steps[{j}]: a recipe has one step of each kind, each a line of its code"),
            ));
        }
        if (op.step() == crate::sim::reconcile::Step::Return) != (i == last) {
            let message = if i == last { "the last step must be `return` or `requeue_after`" } else { "a return must be the last step" };
            return Err(ScenarioError::new(at, Some(format!("\"{}\"", name(op))), message));
        }
        match op {
            // Off by default, the step is a slip; off as the document says,
            // it is the line the switch turns on, drawn off (an incident's fix).
            Op::EnsureReady if !c.consistency_store() && c.consistency_store.is_none() => {
                return Err(ScenarioError::new(
                    step,
                    None,
                    "asks the consistency store, which is off: set controller.consistency_store to true (or kubernetes to 1.36 or later); false, said outright, keeps the line and draws it off",
                ));
            }
            Op::CheckExpectations { .. } if !recipe.expectations => {
                return Err(ScenarioError::new(step, None, "needs controller.recipe.expectations: true, which keeps them"));
            }
            Op::CheckExpectations { .. } if by_uid && !got_owner => {
                return Err(ScenarioError::new(
                    step,
                    None,
                    "keeps expectations by the owner's UID, which only a get_owner before it has read",
                ));
            }
            Op::Create { owner_reference: false, .. } if by_uid => {
                return Err(ScenarioError::new(
                    format!("{step}.owner_reference"),
                    Some("false".into()),
                    "expectations kept by UID trace each child to its owner by its controllerRef: set owner_reference to true",
                ));
            }
            Op::GetOwner { from, .. } | Op::Count { from, .. } | Op::List { from, .. } => {
                let field = format!("{step}.from");
                // controller-runtime's client: it reads the cache, and waits
                // for its own writes while controller.read_your_writes is on
                // (a live switch, as EnableReadYourWritesConsistency is the
                // client's option, not the reconcile's).
                if *from == ReadFrom::ReadYourWrites && c.runtime() != RuntimeKind::ControllerRuntime {
                    return Err(ScenarioError::new(
                        field,
                        Some("\"read_your_writes\"".into()),
                        "reads through controller-runtime's client: needs controller.runtime controller-runtime",
                    ));
                }
                if *from == ReadFrom::Live && !matches!(op, Op::GetOwner { .. }) && !live_owner {
                    return Err(ScenarioError::new(
                        field,
                        Some("\"live\"".into()),
                        "a live count needs a live get_owner before it: it counts the children of the owner the apiserver returned",
                    ));
                }
                if let Op::GetOwner { from, .. } = op {
                    live_owner |= *from == ReadFrom::Live;
                    got_owner = true;
                }
                if let Op::Count { burst: Some(b), .. } = op {
                    limits::get("controller.recipe.steps[].count.burst").check(&format!("{step}.burst"), u64::from(*b))?;
                }
                if let Op::Count { desired: Some(n), .. } = op {
                    limits::get("controller.recipe.steps[].count.desired").check(&format!("{step}.desired"), u64::from(*n))?;
                }
                if let Op::Count { desired: None, .. } = op {
                    if recipe.owner.desired_field().is_none() {
                        return Err(ScenarioError::new(
                            step,
                            None,
                            format!("counts against a desired count, and {} declares none: read its children with `list`", recipe.owner),
                        ));
                    }
                }
                if let Op::List { select, .. } | Op::Count { select, .. } = op {
                    if !got_owner {
                        let reads = if matches!(op, Op::List { .. }) { "lists" } else { "counts" };
                        return Err(ScenarioError::new(
                            step,
                            None,
                            format!("needs a `get_owner` before it: it {reads} the children of the owner read"),
                        ));
                    }
                    if let Some(label) = select.label() {
                        limits::get("controller.recipe.steps[].count.select.label").check_text(
                            &format!("{step}.select.label"),
                            label,
                            false,
                        )?;
                    }
                    listed |= matches!(op, Op::List { .. });
                }
                if let Op::Count { victims, .. } = op {
                    let deletes = recipe.ops[i..].iter().any(|o| matches!(o, Op::Delete { .. }));
                    let keeps = *victims == crate::sim::recipe::Victims::Keep;
                    if deletes == keeps {
                        let (value, message) = if keeps {
                            (
                                "\"keep\"",
                                "keeps the surplus, so the delete step after it would never delete: choose its victims, or drop the delete",
                            )
                        } else {
                            ("", "chooses victims no step deletes: add a `delete` after it, or set victims to keep")
                        };
                        return Err(ScenarioError::new(format!("{step}.victims"), (!value.is_empty()).then(|| value.to_string()), message));
                    }
                }
                counted |= matches!(op, Op::Count { .. });
            }
            Op::CheckExpectations { .. } if counted => {
                return Err(ScenarioError::new(
                    step,
                    None,
                    "comes after the count, where it can stop no create or delete: put it before the `count`",
                ));
            }
            Op::Create { .. } | Op::Delete { .. } | Op::UpdateStatus { .. } if !counted => {
                return Err(ScenarioError::new(step, None, "needs a `count` before it: it acts on what the count found"));
            }
            _ => {}
        }
        if let Op::Create { copy_desired: true, .. } = op {
            for (which, kind) in [("owner", recipe.owner), ("child", recipe.child)] {
                if kind.desired_field().is_none() {
                    return Err(ScenarioError::new(
                        format!("{step}.copy_desired"),
                        Some("true".into()),
                        format!("copies a desired count, and the {which} kind {kind} declares none"),
                    ));
                }
            }
        }
        if let Op::Create { naming, label, .. } = op {
            limits::get("controller.recipe.steps[].create.label").check_text(&format!("{step}.label"), label, false)?;
            let (variant, infix) = match naming {
                Naming::Indexed(infix) => ("indexed", infix),
                Naming::Generate(infix) => ("generate", infix),
            };
            let field = format!("{step}.naming.{variant}");
            limits::get("controller.recipe.steps[].create.naming").check(&field, infix.chars().count() as u64)?;
            if let Some(bad) = infix.chars().find(|ch| !(ch.is_ascii_lowercase() || ch.is_ascii_digit() || *ch == '-' || *ch == '.')) {
                return Err(ScenarioError::new(
                    field,
                    Some(format!("\"{infix}\"")),
                    format!("holds {bad:?}: a name is lowercase letters, digits, '-' and '.'"),
                ));
            }
        }
        if let Op::LabelOwner { labels, annotations, .. } = op {
            if !(counted || listed) {
                return Err(ScenarioError::new(step, None, "needs a `list` or `count` before it: it labels the owner from what was found"));
            }
            if labels.is_empty() && annotations.is_empty() {
                return Err(ScenarioError::new(
                    format!("{step}.labels"),
                    Some("{}".into()),
                    "names no label or annotation to write: give at least one",
                ));
            }
            limits::get("controller.recipe.steps[].label_owner.labels").check(&format!("{step}.labels"), labels.len() as u64)?;
            for (key, value) in labels {
                super::validate::label_part(&format!("{step}.labels"), key, true)?;
                super::validate::label_part(&format!("{step}.labels.{key}"), value, false)?;
            }
            super::validate::annotations(
                &format!("{step}.annotations"),
                annotations.iter().map(|(k, v)| (&**k, &**v)),
                "controller.recipe.steps[].label_owner.annotations",
            )?;
        }
        if let Op::ForEach { max, when, .. } = op {
            if !(counted || listed) {
                return Err(ScenarioError::new(step, None, "needs a `list` or `count` before it: it loops over what was read"));
            }
            limits::get("controller.recipe.steps[].for_each.max").check(&format!("{step}.max"), u64::from(*max))?;
            if let Some(when) = when {
                object_condition(&format!("{step}.when"), when, 1)?;
            }
        }
        if let Op::ReturnIf { when, error, terminal } = op {
            if *terminal && !*error {
                return Err(ScenarioError::new(
                    format!("{step}.terminal"),
                    Some("true".into()),
                    "a terminal error is an error: set error to true beside it",
                ));
            }
            if *terminal && c.runtime() != RuntimeKind::ControllerRuntime {
                return Err(ScenarioError::new(
                    format!("{step}.terminal"),
                    Some("true".into()),
                    "reconcile.TerminalError is controller-runtime's: needs controller.runtime controller-runtime",
                ));
            }
            let get_owner = recipe.ops[..i].iter().find(|o| matches!(o, Op::GetOwner { .. }));
            condition(&format!("{step}.when"), when, recipe, get_owner, counted || listed, 1)?;
        }
        if let Op::WaitForCache { timeout_ms } = op {
            if !recipe.ops[..i].iter().any(|o| matches!(o, Op::Create { .. })) {
                return Err(ScenarioError::new(step, None, "needs a `create` before it: it waits for what the create made"));
            }
            limits::get("controller.recipe.steps[].wait_for_cache.timeout_ms").check(&format!("{step}.timeout_ms"), *timeout_ms)?;
        }
        if let Op::UpdateStatus { retries } = op {
            limits::get("controller.recipe.steps[].update_status.retries").check(&format!("{step}.retries"), u64::from(*retries))?;
        }
        if let Op::Finalizer { name } = op {
            super::validate::label_part(&format!("{step}.name"), name, true)?;
            match recipe.ops[..i].iter().find(|o| matches!(o, Op::GetOwner { .. })) {
                None => return Err(ScenarioError::new(step, None, "needs a `get_owner` before it: it adds its finalizer to the owner read")),
                Some(Op::GetOwner { stop_if_terminating: true, .. }) => {
                    return Err(ScenarioError::new(
                        format!("{step}.name"),
                        Some(format!("\"{name}\"")),
                        "is never taken off: get_owner returns at a Terminating owner, which would stay Terminating; set its stop_if_terminating to false",
                    ))
                }
                Some(_) => {}
            }
        }
        if let Op::RequeueAfter { after_ms } = op {
            limits::get("controller.recipe.steps[].requeue_after.after_ms").check(&format!("{step}.after_ms"), *after_ms)?;
        }
    }
    Ok(())
}

/// Check a `for_each`'s condition at `at`, `level` levels deep: its
/// nesting and its lists within the limits, each label a label.
fn object_condition(at: &str, when: &Is, level: u64) -> Result<(), ScenarioError> {
    limits::get("controller.recipe.steps[].for_each.when").check(at, level)?;
    match when {
        Is::Not(c) => object_condition(&format!("{at}.not"), c, level + 1),
        Is::All(cs) | Is::Any(cs) => {
            let field = if matches!(when, Is::All(_)) { "all" } else { "any" };
            limits::get("controller.recipe.steps[].for_each.when.all").check(&format!("{at}.{field}"), cs.len() as u64)?;
            cs.iter().enumerate().try_for_each(|(j, c)| object_condition(&format!("{at}.{field}[{j}]"), c, level + 1))
        }
        Is::Labelled(key, value) => {
            super::validate::label_part(&format!("{at}.labelled[0]"), key, true)?;
            super::validate::label_part(&format!("{at}.labelled[1]"), value, false)
        }
        Is::Terminating | Is::Controlled | Is::Orphan => Ok(()),
    }
}

/// Check a `return_if`'s condition at `at`, `level` levels deep: its
/// nesting and its lists within the limits, and each fact it reads read
/// before it (`read`: a `count` or `list` came first).
fn condition(at: &str, when: &Cond, recipe: &Recipe, get_owner: Option<&Op>, read: bool, level: u64) -> Result<(), ScenarioError> {
    limits::get("controller.recipe.steps[].return_if.when").check(at, level)?;
    match when {
        Cond::Not(c) => condition(&format!("{at}.not"), c, recipe, get_owner, read, level + 1),
        Cond::All(cs) | Cond::Any(cs) => {
            let field = if matches!(when, Cond::All(_)) { "all" } else { "any" };
            limits::get("controller.recipe.steps[].return_if.when.all").check(&format!("{at}.{field}"), cs.len() as u64)?;
            cs.iter().enumerate().try_for_each(|(j, c)| condition(&format!("{at}.{field}[{j}]"), c, recipe, get_owner, read, level + 1))
        }
        Cond::OwnerTerminating => match get_owner {
            None => Err(ScenarioError::new(
                at,
                Some("\"owner_terminating\"".into()),
                "reads the owner, which only a `get_owner` before it reads",
            )),
            Some(Op::GetOwner { stop_if_terminating: true, .. }) => Err(ScenarioError::new(
                at,
                Some("\"owner_terminating\"".into()),
                "never holds: get_owner returns at a Terminating owner first; set its stop_if_terminating to false",
            )),
            Some(_) => Ok(()),
        },
        c => {
            let op = serde_json::to_value(c).ok().and_then(|v| v.as_object().and_then(|m| m.keys().next().cloned())).unwrap_or_default();
            for (j, term) in c.terms().into_iter().flatten().enumerate() {
                let field = format!("{at}.{op}[{j}]");
                match term {
                    Term::Found if !read => {
                        return Err(ScenarioError::new(
                            field,
                            Some("\"found\"".into()),
                            "reads what a `count` or `list` found: put one before this step",
                        ))
                    }
                    Term::Desired if get_owner.is_none() => {
                        return Err(ScenarioError::new(
                            field,
                            Some("\"desired\"".into()),
                            "reads the owner's desired count: put a `get_owner` before this step",
                        ))
                    }
                    Term::Desired if recipe.owner.desired_field().is_none() => {
                        return Err(ScenarioError::new(
                            field,
                            Some("\"desired\"".into()),
                            format!("reads a desired count, and {} declares none", recipe.owner),
                        ))
                    }
                    _ => {}
                }
            }
            Ok(())
        }
    }
}

/// The scenario's document with its reconcile written out as a recipe: a
/// built-in controller's as `bundled::recipe` writes it from the switches,
/// which go back to their defaults (the recipe says them now), and the
/// controls that offered them go too; a recipe of the scenario's own as it
/// is. What a reconcile of one's own starts from; none for the pruner, a
/// one-shot program.
pub fn written_out(s: &Scenario) -> Option<serde_json::Value> {
    let mut v = s.to_value();
    if s.controller.recipe.is_some() {
        return Some(v);
    }
    let recipe = crate::sim::controllers::bundled::recipe(&s.controller)?;
    let plain = serde_json::to_value(ControllerSettings::new(s.controller.kind)).expect("settings serialize");
    let c = &mut v["controller"];
    for (path, _) in WRITTEN_BY_RECIPE {
        let key = path.strip_prefix("controller.").expect("a controller switch");
        c[key] = plain[key].clone();
    }
    c["recipe"] = serde_json::to_value(&recipe).expect("recipes serialize");
    // `get_mut`, not `v["controls"]`: indexing a document with no controls would write `"controls": null` into it.
    if let Some(controls) = v.get_mut("controls").and_then(serde_json::Value::as_array_mut) {
        controls.retain(|p| !WRITTEN_BY_RECIPE.iter().any(|(w, _)| p == w));
    }
    Some(v)
}

/// The switches that write a line of the built-in reconcile, and what says
/// it in a recipe instead: refused beside one, and not offered in the page.
pub const WRITTEN_BY_RECIPE: &[(&str, &str)] = &[
    ("controller.naming", "its create step's naming"),
    ("controller.delete_surplus", "a delete step"),
    ("controller.owner_references", "its create step's owner_reference"),
    ("controller.live_reads", "its reads' from"),
    ("controller.expectations", "controller.recipe.expectations and a check_expectations step"),
    ("controller.update_status", "an update_status step"),
    ("controller.burst_replicas", "its count's burst"),
];

/// A switch that writes a line of the built-in recipe, set beside a recipe
/// of the scenario's own, would change nothing: refused, naming the step
/// that says it instead.
fn switches_beside(c: &ControllerSettings) -> Result<(), ScenarioError> {
    let plain = ControllerSettings::new(c.kind);
    let differs = |path: &str| match path {
        "controller.naming" => c.naming != plain.naming,
        "controller.delete_surplus" => c.delete_surplus != plain.delete_surplus,
        "controller.owner_references" => c.owner_references != plain.owner_references,
        "controller.live_reads" => c.live_reads != plain.live_reads,
        "controller.expectations" => c.expectations.is_some(),
        "controller.update_status" => c.update_status != plain.update_status,
        "controller.burst_replicas" => c.burst_replicas != plain.burst_replicas,
        _ => unreachable!("{path} is not a switch of the built-in reconcile"),
    };
    match WRITTEN_BY_RECIPE.iter().find(|(path, _)| differs(path)) {
        Some((path, instead)) => Err(ScenarioError::new(
            *path,
            None,
            format!("writes a line of the built-in reconcile, which controller.recipe replaces: say it with {instead}"),
        )),
        None => Ok(()),
    }
}

/// One step of the recipe language, as the docs list it: its name, a worked
/// example (a step as `controller.recipe.steps` takes it) and what it does.
/// `cachescope settings` prints the table with the line each example
/// becomes in the Reconcile panel; a test parses every example and checks
/// every step has its row.
pub struct StepDoc {
    pub name: &'static str,
    pub example: &'static str,
    pub does: &'static str,
}

pub const STEPS: &[StepDoc] = &[
    StepDoc {
        name: "ensure_ready",
        example: r#""ensure_ready""#,
        does: "v1.36's consistency store: skip the sync and return an error (requeued with backoff) while a cache has not read this key's own writes. Needs `controller.consistency_store`; with it set to false outright, the line is kept and drawn off, as a fix waiting for its switch.",
    },
    StepDoc {
        name: "get_owner",
        example: r#"{"get_owner": {"from": "cache", "stop_if_terminating": true}}"#,
        does: "Read the key's owner `from` the cache (default), `live` (a GET) or `read_your_writes` (controller-runtime's client: the cache, and, while `controller.read_your_writes` is on, v0.25's wait for this client's own writes). NotFound forgets its expectations and returns; with `stop_if_terminating` (default), so does a deletionTimestamp.",
    },
    StepDoc {
        name: "check_expectations",
        example: r#"{"check_expectations": {"on_pending": "return"}}"#,
        does: "`SatisfiedExpectations(key)`: while creates or deletes it made are unseen, `return` (default) or `count_only` (count for the status, act on nothing). The recipe keeps expectations when it has this step (unless `controller.recipe.expectations` says `false`, which this step refuses); kept under the owner's name, or its UID with `controller.recipe.expectations_keyed_by: \"uid\"`.",
    },
    StepDoc {
        name: "count",
        example: r#"{"count": {"from": "cache", "select": {"label": "academy.k3ii.dev/ensemble"}, "victims": "past_desired", "burst": 500}}"#,
        does: "Count the owner's children (`select`: `{\"label\": key}`, every child whose label holds the owner's name, Terminating ones too; `{\"active_label\": key}`, the same without the Terminating ones, a count of the healthy; `active_controlled`, by controllerRef, not Terminating; or `namespace`, every object of the child kind in the owner's namespace, whatever its labels and owner, as a `client.InNamespace` list with no selector reads) against its desired count, and plan: create the missing, or delete a surplus (`victims`: `keep`, default; `past_desired`, `children[desired:]` in the lister's order; `newest`; `oldest`; `random`, drawn with the run's seeded RNG; `highest_ordinal`, by the number after the name's last `-`, highest first, as a StatefulSet scales down; a name without one goes last), at most `burst` a sync (default: no limit). With `desired`, it counts against that many, not the owner's desired count (Cluster API's MachineDeployment controller wants one MachineSet). The one read that can be stale; the frame shows the cluster's count beside it.",
    },
    StepDoc {
        name: "list",
        example: r#"{"list": {"from": "cache", "select": {"label": "nfd.node.kubernetes.io/node-name"}}}"#,
        does: "Read the owner's children (`select` as `count`'s), or any objects of its child kind that name it (a Node's NodeFeatures), `from` the cache (default) or `live`, and keep what was found, with no desired count to plan against: what `label_owner` acts on. An owner kind declared without `desired` is read with `list`, never `count`. One of `list` and `count` a recipe.",
    },
    StepDoc {
        name: "label_owner",
        example: r#"{"label_owner": {"labels": {"feature.node.kubernetes.io/cpu-model.vendor_id": "Intel"}, "annotations": {"nfd.node.kubernetes.io/feature-labels": "cpu-model.vendor_id"}, "remove": "when_none_listed", "precondition": "resource_version"}}"#,
        does: "Set `labels` and `annotations` (up to 8 of each, one at least; an annotation's value any text up to 1,024 characters: nfd-master notes there which labels it manages) on the owner when the `list` or `count` before it found some children, and take them off when it found none: `remove` `when_none_listed` (default: an incomplete cache strips them, node-feature-discovery #1802) or `on_observed_delete` (only once the event handler has seen one of the owner's children deleted, #2415's fix). Sent as an `Update` of the owner as read, with a `precondition`: `none` (default: an unconditional update, as nfd-master's patch of a Node is sent, which also writes the owner's other fields back as read, so a stale read undoes a change it has not seen), `resource_version` (the optimistic lock: an owner that moved on since the read is `409 Conflict`, the sync's error) or `uid` (another owner under the name is). An owner that already says so is left alone.",
    },
    StepDoc {
        name: "return_if",
        example: r#"{"return_if": {"when": {"all": [{"lt": ["found", "desired"]}, {"not": "owner_terminating"}]}, "error": true}}"#,
        does: "A guard of the controller's own: end the sync where `when` holds, returning an error (`error: true`: requeued with backoff; with `terminal: true` too, controller-runtime's `reconcile.TerminalError`: counted in `terminal_reconcile_errors`, never requeued, the key waiting for its next event) or nil (default: the key waits for its next event). `when` compares two terms (`lt`, `le`, `eq`, `ne`, `gt`, `ge` of `found`, what the `count` or `list` before found; `desired`, the owner's desired count; or a whole number), reads `owner_terminating` (with `get_owner`'s `stop_if_terminating: false`), or joins conditions with `not`, `all` and `any`, 3 levels deep at most. A guard that does not hold makes no frame.",
    },
    StepDoc {
        name: "create",
        example: r#"{"create": {"naming": {"indexed": "-voice-"}, "label": "academy.k3ii.dev/ensemble", "owner_reference": true, "batches": "one_by_one"}}"#,
        does: "Create what the count found missing, named `{\"indexed\": infix}` (owner + infix + index: a second create of one is `409 AlreadyExists`) or `{\"generate\": infix}` (`generateName`: a second create is a duplicate), labelled with the owner's name, with a controllerRef (default), `one_by_one` (default) or in `slow_start` batches. With `copy_desired`, each child asks for the owner's desired count (a MachineSet made with its MachineDeployment's replicas, for a controller beside this one to act on). `ExpectCreations` first when expectations are kept.",
    },
    StepDoc {
        name: "delete",
        example: r#"{"delete": {"at_once": false, "precondition": "uid", "propagation": "Orphan"}}"#,
        does: "Delete the surplus the count chose, one at a time (default) or `at_once`, with a `precondition` (`none`, default; `uid`, only the very object read; `resource_version`, only as it was read: else `409 Conflict`) and a `propagation` policy for the victim's own dependents (`Background`, the default when absent: the garbage collector deletes them after; `Foreground`: the victim stays Terminating until they are gone; `Orphan`: they live on, their ownerReferences taken off); NotFound is someone else's delete, not an error. `ExpectDeletions` first when expectations are kept.",
    },
    StepDoc {
        name: "wait_for_cache",
        example: r#"{"wait_for_cache": {"timeout_ms": 10000}}"#,
        does: "Wait until the cache holds every object this reconcile's creates made, up to `timeout_ms`, then return a timeout error (Cluster API #13649: the retry counts a cache that still lacks the new MachineSet and creates another). Comes after a `create`. The world wakes it when the cache holds them, not every 100 ms as `wait.PollUntilContextTimeout` would.",
    },
    StepDoc {
        name: "finalizer",
        example: r#"{"finalizer": {"name": "ray.io/cleanup"}}"#,
        does: "The finalizer pattern: while the owner lives, add the finalizer if it lacks it, with an `Update` at the resourceVersion read (a stale owner is `409 Conflict`, the sync's error); once the owner is Terminating, take it off the same way and return (its children are the garbage collector's). Comes after a `get_owner` with `stop_if_terminating: false`, which would otherwise return first and leave the owner Terminating.",
    },
    StepDoc {
        name: "requeue_after",
        example: r#"{"requeue_after": {"after_ms": 30000}}"#,
        does: "The last step, in place of `return`: return the sync's first error, or nil and ask to be queued again `after_ms` later (`ctrl.Result{RequeueAfter}`; client-go's `queue.AddAfter`), for a controller that polls what no event announces. An error wins: it is requeued rate-limited.",
    },
    StepDoc {
        name: "update_status",
        example: r#"{"update_status": {"retries": 1}}"#,
        does: "Write what was counted to the owner's status with the resourceVersion read, unless it says so already; a failure (a `409 Conflict`) is retried `retries` times (default 1) after a GET.",
    },
    StepDoc {
        name: "for_each",
        example: r#"{"for_each": {"max": 1, "when": {"all": [{"labelled": ["revision", "old"]}, {"not": "terminating"}]}, "do": {"delete": {"precondition": "uid"}}}}"#,
        does: "A bounded loop over what the `list` or `count` before it read, in the order read (or, `over: \"live\"`, over a LIST of its own from the apiserver, selected alike: fresher than what the sync decided on): for each object `when` holds of (absent: every one), `do` one request, one object at a time, at most `max` (1 to 100) a sync, the rest left to the next. `when` reads the object as the cache (or the live list) gave it: `terminating`, `controlled` (its controllerRef carries the owner's UID), `orphan` (no controllerRef), `labelled` `[key, value]`, joined with `not`, `all` and `any`, 3 levels deep at most. `do`: `delete` (a `precondition` and a `propagation` as `delete`'s; NotFound is someone else's delete). The first error ends the loop and is the sync's; its deletes raise no expectations.",
    },
    StepDoc { name: "return", example: r#""return""#, does: "Return the first error a write met (requeued rate-limited), or nil. The last step, and only there." },
];

/// What a step's field holds, as the editor's form offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    /// One of these words (`from`: `cache`, `live`, …).
    Choice(&'static [&'static str]),
    /// `true` or `false`.
    Flag,
    /// A whole number; its limits are [`limits::LIMITS`]' entry at
    /// `controller.recipe.steps[].{step}.{field}` where it has one.
    Int,
    /// Text: a label's key, a finalizer's name.
    Text,
    /// One of these words, those marked `true` carrying a text:
    /// `{"label": key}`, or a bare `"active_controlled"`.
    Tagged(&'static [(&'static str, bool)]),
    /// JSON of its own: a condition, a map of labels, a loop's action.
    Json,
    /// `true`, `false`, or left out, which means something neither says
    /// (the controller's own wiring).
    MaybeFlag,
}

/// One field of a step: its kind, what leaving it out means, and a line of help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepField {
    pub step: &'static str,
    pub field: &'static str,
    pub kind: FieldKind,
    /// What the field is when left out, as its form shows it (`None`:
    /// required, or absent meaning something no value says).
    pub default: Option<&'static str>,
    /// The step needs it.
    pub required: bool,
    pub help: &'static str,
}

const FROM: FieldKind = FieldKind::Choice(&["cache", "live", "read_your_writes"]);
const SELECT: FieldKind = FieldKind::Tagged(&[("label", true), ("active_label", true), ("active_controlled", false), ("namespace", false)]);
const PRECONDITION: FieldKind = FieldKind::Choice(&["none", "uid", "resource_version"]);
const PROPAGATION: FieldKind = FieldKind::Choice(&["Background", "Foreground", "Orphan"]);

const fn field(step: &'static str, field: &'static str, kind: FieldKind, default: Option<&'static str>, help: &'static str) -> StepField {
    StepField { step, field, kind, default, required: false, help }
}

const fn needed(step: &'static str, field: &'static str, kind: FieldKind, help: &'static str) -> StepField {
    StepField { step, field, kind, default: None, required: true, help }
}

/// The recipe's own fields, above its steps (`step` is `recipe`): its
/// kinds, its name, and how it keeps its expectations.
pub const RECIPE_FIELDS: &[StepField] = &[
    field("recipe", "name", FieldKind::Text, None, "the name it goes by in logs and the audit log (absent: its controller kind's)"),
    needed("recipe", "owner", FieldKind::Text, "the kind it reconciles: Ensemble, ReplicaSet, or a kind the scenario declares"),
    needed("recipe", "child", FieldKind::Text, "the kind it counts, creates and deletes: its owner's children"),
    field("recipe", "expectations", FieldKind::MaybeFlag, None, "keeps ControllerExpectations (left out: exactly when a step checks them)"),
    field(
        "recipe",
        "expectations_keyed_by",
        FieldKind::Choice(&["name", "uid"]),
        Some("name"),
        "what they are kept under: the owner's namespace/name, or its UID",
    ),
    field(
        "recipe",
        "delete_expectations_on_delete",
        FieldKind::MaybeFlag,
        None,
        "the owner's delete handler forgets them (left out: its controller kind's wiring)",
    ),
];

/// Every field of every step, in the order the editor's form shows them
/// ([`STEPS`] says what each step does; a test holds this table to the
/// fields `crate::sim::recipe::Op` reads).
pub const FIELDS: &[StepField] = &[
    field(
        "get_owner",
        "from",
        FROM,
        Some("cache"),
        "where the owner is read: the cache, a live GET, or controller-runtime's read-your-writes client",
    ),
    field("get_owner", "stop_if_terminating", FieldKind::Flag, Some("true"), "a deletionTimestamp ends the sync, as NotFound does"),
    field(
        "check_expectations",
        "on_pending",
        FieldKind::Choice(&["return", "count_only"]),
        Some("return"),
        "while its own creates or deletes are unseen: return, or count without acting",
    ),
    field("count", "from", FROM, Some("cache"), "where the children are counted: the one read that can be stale"),
    needed("count", "select", SELECT, "which children: by a label holding the owner's name, by controllerRef, or the whole namespace"),
    field(
        "count",
        "victims",
        FieldKind::Choice(&["keep", "past_desired", "newest", "oldest", "random", "highest_ordinal"]),
        Some("keep"),
        "which of a surplus are deleted",
    ),
    field("count", "burst", FieldKind::Int, None, "at most this many creates or deletes a sync (absent: no limit)"),
    field("count", "desired", FieldKind::Int, None, "count against this many, not the owner's desired count"),
    field("list", "from", FROM, Some("cache"), "where the children are read"),
    needed("list", "select", SELECT, "which children: by a label holding the owner's name, by controllerRef, or the whole namespace"),
    field("label_owner", "labels", FieldKind::Json, None, "the labels written on the owner, as {\"key\": \"value\"}"),
    field("label_owner", "annotations", FieldKind::Json, None, "the annotations written with them, as {\"key\": \"value\"}"),
    field(
        "label_owner",
        "remove",
        FieldKind::Choice(&["when_none_listed", "on_observed_delete"]),
        Some("when_none_listed"),
        "when the labels come off an owner whose list found none",
    ),
    field(
        "label_owner",
        "precondition",
        PRECONDITION,
        Some("none"),
        "what the owner's Update checks: nothing, its UID, or its resourceVersion",
    ),
    needed("return_if", "when", FieldKind::Json, "the condition, as JSON: {\"lt\": [\"found\", \"desired\"]}, with not, all and any"),
    field("return_if", "error", FieldKind::Flag, Some("false"), "return an error (requeued with backoff) rather than nil"),
    field(
        "return_if",
        "terminal",
        FieldKind::Flag,
        Some("false"),
        "with error: reconcile.TerminalError (controller-runtime): counted, never requeued",
    ),
    needed(
        "create",
        "naming",
        FieldKind::Tagged(&[("indexed", true), ("generate", true)]),
        "owner + this + an index (a second create is AlreadyExists), or generateName (a second is a duplicate)",
    ),
    needed("create", "label", FieldKind::Text, "the label key each child carries, set to the owner's name"),
    field("create", "owner_reference", FieldKind::Flag, Some("true"), "each child has a controllerRef to the owner"),
    field(
        "create",
        "batches",
        FieldKind::Choice(&["one_by_one", "slow_start"]),
        Some("one_by_one"),
        "one request at a time, or slowStartBatch's 1, 2, 4, …",
    ),
    field("create", "copy_desired", FieldKind::Flag, Some("false"), "each child asks for the owner's desired count"),
    field("delete", "at_once", FieldKind::Flag, Some("false"), "send every delete at once rather than one at a time"),
    field(
        "delete",
        "precondition",
        PRECONDITION,
        Some("none"),
        "what the delete checks: nothing, the UID read, or the resourceVersion read",
    ),
    field(
        "delete",
        "propagation",
        PROPAGATION,
        None,
        "what becomes of the victim's own dependents (absent: the resource's default, Background)",
    ),
    needed("wait_for_cache", "timeout_ms", FieldKind::Int, "how long to wait for the cache to hold this sync's creates, in ms"),
    needed("finalizer", "name", FieldKind::Text, "the finalizer added while the owner lives and removed once it is Terminating"),
    needed("requeue_after", "after_ms", FieldKind::Int, "queue the key again this many ms later"),
    field("update_status", "retries", FieldKind::Int, Some("1"), "tries again after a GET, this many times, when the status write fails"),
    field("for_each", "over", FieldKind::Choice(&["read", "live"]), Some("read"), "what was read before, or a live LIST of its own"),
    needed("for_each", "max", FieldKind::Int, "at most this many objects a sync"),
    field(
        "for_each",
        "when",
        FieldKind::Json,
        None,
        "which objects, as JSON: {\"not\": \"terminating\"}, labelled, controlled, orphan (absent: every one)",
    ),
    needed("for_each", "do", FieldKind::Json, "the request for each, as JSON: {\"delete\": {\"precondition\": \"uid\"}}"),
];

/// The fields of the step named `step` (`recipe`: the recipe's own), in the form's order.
pub fn fields(step: &str) -> impl Iterator<Item = &'static StepField> + '_ {
    FIELDS.iter().chain(RECIPE_FIELDS).filter(move |f| f.step == step)
}

/// A field's limits, where the work budget declares them.
pub fn field_limits(f: &StepField) -> Option<(u64, u64)> {
    let path = format!("controller.recipe.steps[].{}.{}", f.step, f.field);
    limits::LIMITS.iter().find(|l| l.path == path && l.of == limits::Of::Value).map(|l| (l.min, l.max))
}

/// The steps' table for the docs: each with its example and the line it prints.
pub fn markdown_table() -> String {
    let mut out = String::from("| step | example | what it does | the line it shows |\n|---|---|---|---|\n");
    for s in STEPS {
        let op: Op = serde_json::from_str(s.example).expect("each example is a step");
        let recipe = Recipe {
            name: None,
            expectations_keyed_by: crate::sim::recipe::KeyedBy::Name,
            delete_expectations_on_delete: None,
            owner: crate::sim::object::Kind::Ensemble,
            child: crate::sim::object::Kind::ConfigMap,
            expectations: true,
            ops: vec![op].into(),
        };
        let line = recipe.code("voices").pop().map(|(_, text)| text).unwrap_or_default();
        out.push_str(&format!("| `{}` | `{}` | {} | `{}` |\n", s.name, s.example, s.does, line.replace('|', "\\|")));
    }
    out
}

/// A valid recipe for `kind`'s controller drawn from `draw(n)` (a number
/// below `n`): every step the language has, each field at any value the
/// rules allow (`list`, which shares the count's line, aside). The property tests and the determinism sample run these.
/// `store`: the consistency store is on, so `ensure_ready` may be drawn.
pub fn arbitrary(kind: crate::sim::apiserver::ControllerKind, store: bool, draw: &mut dyn FnMut(u32) -> u32) -> Recipe {
    use crate::sim::recipe::{Batches, KeyedBy, OnPending, Precondition, Removal, Select, Victims};
    let spec = kind.spec();
    let owner = spec.owner.expect("a reconcile loop has an owner kind");
    let label: std::sync::Arc<str> = match owner {
        crate::sim::object::Kind::Ensemble => crate::sim::object::ENSEMBLE_LABEL.into(),
        _ => crate::sim::object::REPLICASET_LABEL.into(),
    };
    let coin = |draw: &mut dyn FnMut(u32) -> u32| draw(2) == 1;
    let expectations = coin(draw);
    let mut ops = Vec::new();
    if store && coin(draw) {
        ops.push(Op::EnsureReady);
    }
    let from = if coin(draw) { ReadFrom::Live } else { ReadFrom::Cache };
    ops.push(Op::GetOwner { from, stop_if_terminating: coin(draw) });
    if expectations && coin(draw) {
        let on_pending = if coin(draw) { OnPending::Return } else { OnPending::CountOnly };
        ops.push(Op::CheckExpectations { on_pending });
    }
    let count_from = if from == ReadFrom::Live && coin(draw) { ReadFrom::Live } else { ReadFrom::Cache };
    let select = if coin(draw) { Select::Label(label.clone()) } else { Select::ActiveControlled };
    let victims = [Victims::Keep, Victims::PastDesired, Victims::Newest, Victims::Oldest, Victims::Random][draw(5) as usize];
    let burst = coin(draw).then(|| 1 + draw(5));
    ops.push(Op::Count { from: count_from, select, victims, burst, desired: None });
    if draw(4) > 0 {
        let infix: std::sync::Arc<str> = ["-", "-x-", ".y"][draw(3) as usize].into();
        let naming = if coin(draw) { Naming::Indexed(infix) } else { Naming::Generate(infix) };
        let batches = if coin(draw) { Batches::OneByOne } else { Batches::SlowStart };
        ops.push(Op::Create { naming, label, owner_reference: draw(4) > 0, batches, copy_desired: false });
    }
    // A delete step exactly where the count chooses victims.
    if victims != Victims::Keep {
        let precondition = [Precondition::None, Precondition::Uid, Precondition::ResourceVersion][draw(3) as usize];
        ops.push(Op::Delete { at_once: coin(draw), precondition, propagation: None });
    }
    if coin(draw) {
        ops.push(Op::UpdateStatus { retries: draw(3) });
    }
    ops.push(Op::Return);
    // Kept by UID, children are traced to their owner by controllerRef: every create sets one.
    let expectations_keyed_by = if expectations && coin(draw) { KeyedBy::Uid } else { KeyedBy::Name };
    if expectations_keyed_by == KeyedBy::Uid {
        for op in &mut ops {
            if let Op::Create { owner_reference, .. } = op {
                *owner_reference = true;
            }
        }
    }
    // A wait for the cache after the create, drawn last so earlier draws keep their values.
    if let Some(at) = ops.iter().position(|o| matches!(o, Op::Create { .. })).filter(|_| draw(3) == 0) {
        ops.insert(at + 1, Op::WaitForCache { timeout_ms: 500 * (1 + u64::from(draw(6))) });
    }
    // A requeue after a while in place of the return, drawn after that.
    if draw(4) == 0 {
        *ops.last_mut().expect("a return") = Op::RequeueAfter { after_ms: 1_000 * (1 + u64::from(draw(10))) };
    }
    // The finalizer step after get_owner, which must then reach a Terminating owner; drawn last.
    if draw(4) == 0 {
        let at = ops.iter().position(|o| matches!(o, Op::GetOwner { .. })).expect("a get_owner");
        if let Op::GetOwner { stop_if_terminating, .. } = &mut ops[at] {
            *stop_if_terminating = false;
        }
        ops.insert(at + 1, Op::Finalizer { name: "academy.k3ii.dev/cleanup".into() });
    }
    // Labels on the owner from what the count found, after the count; drawn last.
    if draw(4) == 0 {
        let at = ops.iter().position(|o| matches!(o, Op::Count { .. })).expect("a count");
        let value = ["true", "counted", "a.b-c"][draw(3) as usize];
        let labels = std::iter::once(("academy.k3ii.dev/children".into(), value.into())).collect();
        let remove = if coin(draw) { Removal::WhenNoneListed } else { Removal::OnObservedDelete };
        ops.insert(at + 1, Op::LabelOwner { labels, annotations: Default::default(), remove, precondition: Precondition::None });
    }
    // A guard of its own after the count (or after the labels it writes), drawn last.
    if draw(4) == 0 {
        use crate::sim::recipe::{Cond, Term};
        let term = |draw: &mut dyn FnMut(u32) -> u32| [Term::Found, Term::Desired, Term::Int(draw(6))][draw(3) as usize];
        let compare = |draw: &mut dyn FnMut(u32) -> u32| {
            let (a, b) = (term(draw), term(draw));
            [Cond::Lt(a, b), Cond::Le(a, b), Cond::Eq(a, b), Cond::Ne(a, b), Cond::Gt(a, b), Cond::Ge(a, b)][draw(6) as usize].clone()
        };
        let when = match draw(3) {
            0 => compare(draw),
            1 => Cond::Not(Box::new(compare(draw))),
            _ => {
                // The owner's deletionTimestamp, where get_owner goes on past one.
                let goes_on = ops.iter().any(|o| matches!(o, Op::GetOwner { stop_if_terminating: false, .. }));
                let a = compare(draw);
                let b = if goes_on && coin(draw) { Cond::OwnerTerminating } else { compare(draw) };
                if coin(draw) {
                    Cond::All(vec![a, b])
                } else {
                    Cond::Any(vec![a, b])
                }
            }
        };
        let at = ops.iter().rposition(|o| matches!(o, Op::Count { .. } | Op::LabelOwner { .. })).expect("a count");
        ops.insert(at + 1, Op::ReturnIf { when, error: coin(draw), terminal: false });
    }
    // The labels' precondition, drawn after everything else.
    if let Some(Op::LabelOwner { precondition, .. }) = ops.iter_mut().find(|o| matches!(o, Op::LabelOwner { .. })) {
        *precondition = [Precondition::None, Precondition::Uid, Precondition::ResourceVersion][draw(3) as usize];
    }
    // A loop over what the count read, before the return; drawn last of all.
    if draw(4) == 0 {
        use crate::sim::recipe::{Act, Is, Over};
        let fact = |draw: &mut dyn FnMut(u32) -> u32| match draw(4) {
            0 => Is::Terminating,
            1 => Is::Controlled,
            2 => Is::Orphan,
            _ => Is::Labelled("academy.k3ii.dev/tier".into(), "canary".into()),
        };
        let when = match draw(4) {
            0 => None,
            1 => Some(fact(draw)),
            2 => Some(Is::Not(Box::new(fact(draw)))),
            _ => Some(Is::All(vec![fact(draw), Is::Not(Box::new(fact(draw)))])),
        };
        let precondition = [Precondition::None, Precondition::Uid, Precondition::ResourceVersion][draw(3) as usize];
        let at = ops.len() - 1;
        ops.insert(at, Op::ForEach { over: Over::Read, max: 1 + draw(4), when, act: Act::Delete { precondition, propagation: None } });
    }
    // The victims by ordinal, the deletes' propagation and a count of the
    // whole namespace, drawn after all of that.
    if draw(4) == 0 {
        if let Some(Op::Count { victims, .. }) =
            ops.iter_mut().find(|o| matches!(o, Op::Count { victims, .. } if *victims != Victims::Keep))
        {
            *victims = Victims::HighestOrdinal;
        }
    }
    use crate::sim::object::Propagation;
    let drawn = [None, Some(Propagation::Background), Some(Propagation::Foreground), Some(Propagation::Orphan)][draw(4) as usize];
    for op in &mut ops {
        if let Op::Delete { propagation, .. } | Op::ForEach { act: crate::sim::recipe::Act::Delete { propagation, .. }, .. } = op {
            *propagation = drawn;
        }
    }
    if draw(6) == 0 {
        if let Some(Op::Count { select, .. }) = ops.iter_mut().find(|o| matches!(o, Op::Count { .. })) {
            *select = Select::Namespace;
        }
    }
    if let Some(Op::LabelOwner { annotations, .. }) = ops.iter_mut().find(|o| matches!(o, Op::LabelOwner { .. })) {
        if coin(draw) {
            annotations.insert("academy.k3ii.dev/counted-by".into(), "a recipe, 1 of 2".into());
        }
    }
    Recipe {
        name: None,
        owner,
        child: spec.child,
        expectations,
        expectations_keyed_by,
        delete_expectations_on_delete: None,
        ops: ops.into(),
    }
}

/// A scenario running `recipe` (an Ensemble's or a ReplicaSet's) at
/// `lag_ms`: its owner asks for 3, then 5 at 4 s, then 1 at 9 s.
pub fn sample(recipe: &Recipe, lag_ms: u64) -> Scenario {
    use serde_json::json;
    let (kind, owner) = match recipe.owner {
        crate::sim::object::Kind::Ensemble => ("ensemble", json!({"kind": "Ensemble", "name": "beta", "voices": 3})),
        _ => ("replicaset", json!({"kind": "ReplicaSet", "name": "web", "replicas": 3})),
    };
    let (owner_kind, name) = (owner["kind"].clone(), owner["name"].clone());
    let v = json!({
        "name": "arbitrary", "until_ms": 20000,
        "cluster": {"watch_lag_ms": lag_ms},
        "objects": [owner],
        "actions": [
            {"at_ms": 4000, "scale": {"kind": owner_kind, "name": name, "to": 5}},
            {"at_ms": 9000, "scale": {"kind": owner_kind, "name": name, "to": 1}}
        ],
        "controller": {"kind": kind, "recipe": recipe}
    });
    Scenario::from_value(v).unwrap_or_else(|e| panic!("an arbitrary recipe is valid: {e}\n{recipe:?}"))
}

/// `draw(n)`, a number below `n`, from a seeded LCG: the same stream on every platform.
pub fn draws(seed: u64) -> impl FnMut(u32) -> u32 {
    let mut x = seed ^ 0x853c_49e6_748f_ea9b;
    move |n| {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((x >> 33) % u64::from(n)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_has_a_row_whose_example_is_that_step() {
        let named: Vec<&str> = STEPS
            .iter()
            .map(|s| {
                let op: Op = serde_json::from_str(s.example).unwrap_or_else(|e| panic!("{}: {e}", s.name));
                assert_eq!(name(&op), s.name);
                name(&op)
            })
            .collect();
        // Every step the language has has a row, once (`return` and
        // `requeue_after` are two steps on one line of the code).
        let unique: std::collections::BTreeSet<&str> = named.iter().copied().collect();
        assert_eq!(unique.len(), named.len(), "one row a step");
        assert_eq!(named.len(), 15, "the fifteen steps of crate::sim::recipe::Op");
    }
}
