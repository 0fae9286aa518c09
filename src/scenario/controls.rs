//! `controls`: the settings and page actions a scenario's story uses.
//!
//! A lesson needs a few of the page's controls, not all of them: lab 1's
//! over-create needs the Names radios, lab 2's empty cache "Wait for cache
//! sync". A scenario lists them by the names the rest of the program already
//! uses: a setting by its dotted path from [`SETTINGS`] (as `--set` and the
//! URL write it), a page action by the word `edit=` writes after `do=`
//! ([`CONTROL_ACTIONS`]). The page shows those and puts the rest under "More
//! settings"; an empty list shows everything, as before.

use super::settings::SETTINGS;
use super::{limits, owner_kinds, Scenario, ScenarioError};

/// The page's actions, as `edit=`'s `do=` words name them
/// (`view::session::Edit`): `scale` is the Voices/Replicas field.
pub const CONTROL_ACTIONS: &[&str] =
    &["delete_pod", "delete_owner", "drop_next_event", "restart_controller", "fail_next_create", "pause_controller", "scale"];

/// The one static name of a setting path or an action word, if it is one.
pub fn known(what: &str) -> Option<&'static str> {
    SETTINGS.iter().map(|s| s.path).chain(CONTROL_ACTIONS.iter().copied()).find(|k| *k == what)
}

/// Whether the page can do this action for this scenario's controller (the
/// same rules as the page's buttons, `view::session::Session::supports`).
pub fn action_applies(s: &Scenario, action: &str) -> Result<(), String> {
    let kind = s.controller.kind;
    let has_owner = owner_kinds(s).next().is_some();
    match action {
        "delete_pod" if !kind.spec().has_pods() => {
            let name = if kind.spec().loops() { "an ensemble" } else { "the pruner" };
            Err(format!("{name} has no pods to delete; delete_pod is for the replicaset"))
        }
        "pause_controller" if !kind.spec().loops() => {
            Err("the pruner is a one-shot program; pausing is for the long-running controllers (ensemble, replicaset)".to_string())
        }
        "delete_owner" | "scale" if !has_owner => {
            Err(format!("{action} acts on the scenario's Ensemble or ReplicaSet, and it has none (in objects or an apply)"))
        }
        _ => Ok(()),
    }
}

/// Check `controls`: each entry known, applicable, and listed once.
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    limits::get("controls").check("controls", s.controls.len() as u64)?;
    for (i, c) in s.controls.iter().enumerate() {
        let field = format!("controls[{i}]");
        if known(c).is_none() {
            let hint = nearest(c).map(|k| format!("did you mean {k}? ")).unwrap_or_default();
            let settings: Vec<&str> = SETTINGS.iter().map(|s| s.path).collect();
            return Err(ScenarioError::new(
                field,
                Some(format!("{c:?}")),
                format!(
                    "{c:?} is neither a setting nor an action; {hint}known actions: {}; known settings: {}",
                    CONTROL_ACTIONS.join(", "),
                    settings.join(", ")
                ),
            ));
        }
        if CONTROL_ACTIONS.contains(&c.as_str()) {
            action_applies(s, c).map_err(|why| ScenarioError::new(field.clone(), Some(format!("{c:?}")), format!("{c:?}: {why}")))?;
        }
        if let Some(j) = s.controls[..i].iter().position(|d| d == c) {
            return Err(ScenarioError::new(field, Some(format!("{c:?}")), format!("{c:?} is listed twice (first at controls[{j}])")));
        }
    }
    Ok(())
}

/// The known name `what` most likely meant: the closest by edit distance,
/// if close (a typo), else one it begins or ends (`restart`, `watch_lag_ms`).
fn nearest(what: &str) -> Option<&'static str> {
    let names = || SETTINGS.iter().map(|s| s.path).chain(CONTROL_ACTIONS.iter().copied());
    let typo = names().map(|k| (distance(what, k), k)).filter(|(d, _)| *d <= 3).min_by_key(|(d, _)| *d).map(|(_, k)| k);
    typo.or_else(|| {
        (what.chars().count() >= 4).then(|| names().find(|k| k.starts_with(what) || k.ends_with(&format!(".{what}")))).flatten()
    })
}

/// Levenshtein distance over characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    fn with_controls(name: &str, controls: &[&str]) -> Result<Scenario, ScenarioError> {
        let mut v = preset(name).unwrap().to_value();
        v["controls"] = serde_json::json!(controls);
        Scenario::from_value(v)
    }

    #[test]
    fn a_typo_is_named_with_its_field_its_value_and_the_nearest_name() {
        let e = with_controls("over-create", &["scale", "controller.nmaing"]).unwrap_err();
        assert_eq!(e.field, "controls[1]");
        assert_eq!(e.value.as_deref(), Some("\"controller.nmaing\""));
        let text = e.to_string();
        assert!(
            text.starts_with("controls[1]: \"controller.nmaing\" is neither a setting nor an action; did you mean controller.naming?"),
            "{text}"
        );
        assert!(text.contains("known actions: delete_pod, delete_owner,") && text.contains("cluster.watch_lag_ms"), "{text}");
        let e = with_controls("over-create", &["naming"]).unwrap_err();
        assert!(e.to_string().contains("did you mean controller.naming?"), "{e}");
        // Far from every name: no guess.
        let e = with_controls("over-create", &["make it fast"]).unwrap_err();
        assert!(!e.to_string().contains("did you mean"), "{e}");
    }

    #[test]
    fn an_entry_listed_twice_is_refused() {
        let e = with_controls("over-create", &["controller.naming", "scale", "controller.naming"]).unwrap_err();
        assert_eq!(e.field, "controls[2]");
        assert!(e.to_string().contains("listed twice (first at controls[0])"), "{e}");
    }

    #[test]
    fn an_action_the_controller_cannot_take_is_refused() {
        let e = with_controls("over-create", &["delete_pod"]).unwrap_err();
        assert_eq!(e.field, "controls[0]");
        assert!(e.to_string().contains("\"delete_pod\": an ensemble has no pods to delete"), "{e}");
        let e = with_controls("empty-cache", &["controller.wait_for_cache_sync", "scale"]).unwrap_err();
        assert_eq!(e.field, "controls[1]");
        assert!(e.to_string().contains("has none"), "{e}");
        assert_eq!(with_controls("empty-cache", &["pause_controller"]).unwrap_err().field, "controls[0]");
        assert!(with_controls("replicaset-pressure", &["delete_pod", "scale", "controller.expectations"]).is_ok());
    }

    #[test]
    fn too_many_entries_are_refused_by_the_limits_table() {
        let max = limits::get("controls").max as usize;
        let many = vec!["scale"; max + 1];
        let e = with_controls("over-create", &many).unwrap_err();
        assert_eq!(e.field, "controls");
        assert!(e.to_string().contains(&format!("at most {max}")), "{e}");
        assert_eq!(known("scale"), Some("scale"));
        assert_eq!(known("cluster.watch_lag_ms"), Some("cluster.watch_lag_ms"));
        assert_eq!(known("cluster"), None);
    }
}
