//! A scenario's own invariants (`invariants`): what "broken" means for its
//! controller, in the vocabulary of upstream's controller robustness
//! framework (`test/utils/robustness`, kubernetes PR #139657). Two are
//! safety (checked at every request that could break them: `at_most`,
//! `at_least`) and one is liveness (checked once, at its time: `eventually`).
//! Each is named; `expect`, a lesson's `broken`, the explorer and the
//! Invariants panel use the name as they use a built-in invariant's.

use super::validate::shown;
use super::{limits, Scenario, ScenarioError};
use crate::sim::invariants::{Declared, Rule, NAMES};
use crate::sim::object::{child_kind, intern, Kind};
use serde::{Deserialize, Serialize};

#[cfg(not(target_arch = "wasm32"))]
use schemars::JsonSchema;

/// One declared invariant: its name and exactly one of `at_most`,
/// `at_least`, `eventually`, `always`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct InvariantSpec {
    /// Its name (`quorum-kept`): lower-case letters, digits, `-` and `_`,
    /// not a built-in invariant's.
    pub name: String,
    /// Safety: no create leaves an owner with more than `count` active
    /// (not Terminating) children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<Bound>,
    /// Safety: no controller delete leaves an owner with fewer than `count`
    /// active children (a quorum, a disruption budget).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_least: Option<Bound>,
    /// Liveness: at `by_ms`, every object of the kind `converged` names has
    /// exactly its desired count of active children.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eventually: Option<Eventually>,
    /// Safety, a predicate: no controller write (a create or an update)
    /// leaves an object of `kind` without the label `has_label`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub always: Option<Always>,
}

/// A predicate every object of a kind keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Always {
    /// The kind whose objects it speaks of.
    pub kind: Kind,
    /// A label key each of them carries (`feature.node.kubernetes.io/cpu-model.vendor_id`).
    pub has_label: String,
}

/// A bound on each owner's active children.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Bound {
    /// How many.
    pub count: u32,
    /// The owner kind whose children are counted (one with children: Ensemble, ReplicaSet, or a declared owner kind).
    pub owner: Kind,
}

/// A liveness invariant's promise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Eventually {
    /// The owner kind each of whose objects must have its desired count of children.
    pub converged: Kind,
    /// When, in ms into the run (no later than `until_ms`).
    pub by_ms: u64,
}

/// One field of an invariant's rule, as the editor's form offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleField {
    pub field: &'static str,
    /// A whole number (else a word: a kind, a label key).
    pub number: bool,
    pub help: &'static str,
}

/// Each rule an invariant may state, its fields, and what it promises, in a line.
pub const RULES: &[(&str, &[RuleField], &str)] = &[
    (
        "at_most",
        &[
            RuleField { field: "count", number: true, help: "how many active children each owner may have at most" },
            RuleField { field: "owner", number: false, help: "the owner kind whose children are counted" },
        ],
        "safety: no create leaves an owner with more",
    ),
    (
        "at_least",
        &[
            RuleField { field: "count", number: true, help: "how many active children each owner keeps at least" },
            RuleField { field: "owner", number: false, help: "the owner kind whose children are counted" },
        ],
        "safety: no controller delete leaves an owner with fewer (a quorum)",
    ),
    (
        "eventually",
        &[
            RuleField { field: "converged", number: false, help: "the owner kind each of whose objects has its desired count of children" },
            RuleField { field: "by_ms", number: true, help: "by when, in ms into the run" },
        ],
        "liveness: checked once, at its time",
    ),
    (
        "always",
        &[
            RuleField { field: "kind", number: false, help: "the kind whose objects it speaks of" },
            RuleField { field: "has_label", number: false, help: "a label key each of them keeps through every controller write" },
        ],
        "safety: no controller write leaves an object without the label",
    ),
];

/// The scenario's invariants, checked, named in error by field
/// (`invariants[0].at_most.owner`), and interned.
pub(super) fn declared(s: &Scenario) -> Result<Vec<Declared>, ScenarioError> {
    limits::get("invariants").check("invariants", s.invariants.len() as u64)?;
    let mut out: Vec<Declared> = Vec::with_capacity(s.invariants.len());
    for (i, spec) in s.invariants.iter().enumerate() {
        let at = format!("invariants[{i}]");
        let name = &spec.name;
        let ok = !name.is_empty()
            && name.len() <= 63
            && name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        if !ok {
            return Err(ScenarioError::new(
                format!("{at}.name"),
                Some(shown(name)),
                "an invariant's name starts with a lower-case letter, then lower-case letters, digits, '-' and '_', at most 63",
            ));
        }
        if NAMES.contains(&name.as_str()) || out.iter().any(|d| d.name == name) {
            return Err(ScenarioError::new(format!("{at}.name"), Some(shown(name)), "names an invariant already known: each name once"));
        }
        let given = [spec.at_most.is_some(), spec.at_least.is_some(), spec.eventually.is_some(), spec.always.is_some()]
            .iter()
            .filter(|b| **b)
            .count();
        if given != 1 {
            return Err(ScenarioError::new(at, None, format!("give exactly one of at_most, at_least, eventually, always; {given} given")));
        }
        if let Some(a) = &spec.always {
            super::validate::label_part(&format!("{at}.always.has_label"), &a.has_label, true)?;
            out.push(Declared { name: intern(name), rule: Rule::HasLabel { kind: a.kind, label: intern(&a.has_label) } });
            continue;
        }
        let owner_at = |field: &str, kind: Kind| -> Result<(), ScenarioError> {
            match child_kind(kind) {
                Some(_) => Ok(()),
                None => Err(ScenarioError::new(
                    format!("{at}.{field}"),
                    Some(shown(kind.as_str())),
                    "owns no children to count: name an owner kind (Ensemble, ReplicaSet, or a declared kind with children)",
                )),
            }
        };
        let rule = match (spec.at_most, spec.at_least, spec.eventually) {
            (Some(b), _, _) => {
                owner_at("at_most.owner", b.owner)?;
                limits::get("invariants[].at_most.count").check(&format!("{at}.at_most.count"), u64::from(b.count))?;
                Rule::AtMost { count: b.count, owner: b.owner }
            }
            (_, Some(b), _) => {
                owner_at("at_least.owner", b.owner)?;
                limits::get("invariants[].at_least.count").check(&format!("{at}.at_least.count"), u64::from(b.count))?;
                Rule::AtLeast { count: b.count, owner: b.owner }
            }
            (_, _, Some(e)) => {
                owner_at("eventually.converged", e.converged)?;
                if e.converged.desired_field().is_none() {
                    return Err(ScenarioError::new(
                        format!("{at}.eventually.converged"),
                        Some(shown(e.converged.as_str())),
                        "declares no desired count to converge on: give its kinds entry desired",
                    ));
                }
                if e.by_ms > s.until_ms {
                    return Err(ScenarioError::new(
                        format!("{at}.eventually.by_ms"),
                        Some(e.by_ms.to_string()),
                        format!("is after the run ends (until_ms {}): it would never be checked", s.until_ms),
                    ));
                }
                Rule::Converged { owner: e.converged, by_ms: e.by_ms }
            }
            (None, None, None) => unreachable!("exactly one is given"),
        };
        out.push(Declared { name: intern(name), rule });
    }
    Ok(out)
}

impl Scenario {
    /// The names of the invariants its runs check, which it may cite: the built-in ones, then its own.
    pub fn invariant_names(&self) -> Vec<&str> {
        NAMES.iter().copied().chain(self.invariants.iter().map(|i| i.name.as_str())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(invariants: &str) -> Result<Scenario, ScenarioError> {
        let text = format!(
            r#"{{"name": "t", "until_ms": 20000, "controller": {{"kind": "replicaset"}},
                "objects": [{{"kind": "ReplicaSet", "name": "web", "replicas": 3}}], "invariants": {invariants}}}"#
        );
        Scenario::from_json(&text)
    }

    #[test]
    fn a_declared_invariant_is_checked_beside_the_built_in_ones() {
        let s = with(
            r#"[{"name": "at-most-2", "at_most": {"count": 2, "owner": "ReplicaSet"}},
                         {"name": "converged", "eventually": {"converged": "ReplicaSet", "by_ms": 10000}}]"#,
        )
        .unwrap();
        let init = s.world_init();
        assert_eq!(init.invariants.len(), 2);
        assert_eq!(init.invariants[0].rule, Rule::AtMost { count: 2, owner: Kind::ReplicaSet });
        assert!(s.invariant_names().contains(&"converged"));
    }

    #[test]
    fn each_broken_field_is_named() {
        let cases = [
            (r#"[{"name": "Big", "at_most": {"count": 2, "owner": "ReplicaSet"}}]"#, "invariants[0].name"),
            (r#"[{"name": "no_orphans", "at_most": {"count": 2, "owner": "ReplicaSet"}}]"#, "invariants[0].name"),
            (
                r#"[{"name": "a", "at_most": {"count": 2, "owner": "ReplicaSet"}}, {"name": "a", "at_least": {"count": 1, "owner": "ReplicaSet"}}]"#,
                "invariants[1].name",
            ),
            (r#"[{"name": "a"}]"#, "invariants[0]"),
            (
                r#"[{"name": "a", "at_most": {"count": 2, "owner": "ReplicaSet"}, "at_least": {"count": 1, "owner": "ReplicaSet"}}]"#,
                "invariants[0]",
            ),
            (r#"[{"name": "a", "at_most": {"count": 2, "owner": "Pod"}}]"#, "invariants[0].at_most.owner"),
            (r#"[{"name": "a", "at_least": {"count": 0, "owner": "ReplicaSet"}}]"#, "invariants[0].at_least.count"),
            (r#"[{"name": "a", "at_most": {"count": 2000000, "owner": "ReplicaSet"}}]"#, "invariants[0].at_most.count"),
            (r#"[{"name": "a", "eventually": {"converged": "ConfigMap", "by_ms": 1000}}]"#, "invariants[0].eventually.converged"),
            (r#"[{"name": "a", "eventually": {"converged": "ReplicaSet", "by_ms": 30000}}]"#, "invariants[0].eventually.by_ms"),
            (r#"[{"name": "a", "always": {"kind": "ReplicaSet", "has_label": "a b"}}]"#, "invariants[0].always.has_label"),
            (
                r#"[{"name": "a", "always": {"kind": "ReplicaSet", "has_label": "a"}, "at_least": {"count": 1, "owner": "ReplicaSet"}}]"#,
                "invariants[0]",
            ),
        ];
        for (invariants, field) in cases {
            let err = with(invariants).expect_err(invariants);
            assert_eq!(err.field, field, "{invariants}: {err}");
        }
    }
}
