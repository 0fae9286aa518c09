//! The invariants in words: what each promises, its badge's short name, and
//! what broke it, from the facts a [`Violation`](crate::sim::frame::Violation) carries.

use super::units::{a_kind, children_of, kind_noun, secs};
use crate::sim::frame::ViolationFacts;
use crate::sim::invariants::{
    Invariant, Rule, ALL_PODS_WITHIN_REPLICAS, CHILDREN_WITHIN_DESIRED, NO_DELETE_BEFORE_SYNC, NO_DELETE_OF_UNCACHED, NO_ORPHANS,
};
use crate::sim::object::{child_kind, Kind};

/// What the invariant named `name` promises, in one sentence (empty for a name it does not know).
pub fn description(name: &str) -> &'static str {
    match name {
        CHILDREN_WITHIN_DESIRED => "A controller's create never takes an owner's active children (not Terminating) above its desired count.",
        ALL_PODS_WITHIN_REPLICAS => {
            "A ReplicaSet's create never takes its pods, Terminating ones included, above spec.replicas: what the ReplicaSet does not promise, and a graceful delete shows."
        }
        NO_DELETE_BEFORE_SYNC => "No controller delete is sent before its cache has synced.",
        NO_DELETE_OF_UNCACHED => {
            "No controller deletes, after its cache has synced, an object that cache does not hold (created since, its ADDED event still on the wire)."
        }
        NO_ORPHANS => "No child outlives its deleted owner by more than the grace period.",
        _ => "",
    }
}

/// What an invariant promises, in one sentence: a built-in one's
/// [`description`], a declared one's from its rule.
pub fn promise(i: &Invariant) -> String {
    match i.rule {
        None => description(i.name).to_string(),
        Some(rule) => rule_words(rule),
    }
}

/// An owner's children, counted in their own noun: `1 Member`, `4 MachineSets`, `2 children`.
fn counted(owner: Kind, n: u32) -> String {
    child_kind(owner).map_or_else(|| super::units::plural(n, "child", "children"), |k| kind_noun(k, n.into()))
}

/// A declared invariant's rule in words: `No create leaves a RayCluster with
/// more than 3 active pods (declared: safety).`
pub fn rule_words(rule: Rule) -> String {
    match rule {
        Rule::AtMost { count, owner } => {
            format!("No create leaves {} with more than {} active (declared: safety).", a_kind(owner), counted(owner, count))
        }
        Rule::AtLeast { count, owner } => {
            format!("No controller delete leaves {} with fewer than {} active (declared: safety).", a_kind(owner), counted(owner, count))
        }
        Rule::Converged { owner, by_ms } => {
            format!(
                "By {}, every {owner} has exactly its desired count of active {} (declared: liveness).",
                secs(by_ms),
                children_of(owner)
            )
        }
        Rule::HasLabel { kind, label } => {
            format!("No controller write leaves {} without the label {label} (declared: safety).", a_kind(kind))
        }
    }
}

/// An invariant's short name for its badge (its id stays in the accessible
/// name, the title and the export).
pub fn label(id: &str) -> &str {
    match id {
        CHILDREN_WITHIN_DESIRED => "children ≤ desired",
        ALL_PODS_WITHIN_REPLICAS => "all pods ≤ replicas",
        NO_DELETE_BEFORE_SYNC => "no delete before sync",
        NO_DELETE_OF_UNCACHED => "no delete of uncached",
        NO_ORPHANS => "no orphans",
        other => other,
    }
}

/// What broke an invariant, in words: `Ensemble beta wants 4 and now has 5 after creating beta-voice-x`.
pub fn violation_words(facts: &ViolationFacts) -> String {
    match facts {
        ViolationFacts::OverDesired { owner, owner_name, desired, active, created } => {
            format!("{owner} {owner_name} wants {desired} and now has {active} after creating {created}")
        }
        ViolationFacts::PodsOverReplicas { owner_name, desired, total, terminating, created } => format!(
            "ReplicaSet {owner_name} wants {desired} and the cluster holds {total} of its pods, {terminating} of them Terminating, after creating {created}"
        ),
        ViolationFacts::DeleteBeforeSync { kind, name } => format!("delete of {kind} {name} sent before the cache synced"),
        ViolationFacts::DeleteOfUncached { kind, name } => {
            format!("{kind} {name} was deleted though the synced cache did not hold it: absent from the cache is not absent from the cluster")
        }
        ViolationFacts::Orphans { owner, children } => {
            let remain = if *children == 1 { "remains" } else { "remain" };
            format!("{} of deleted {owner} {remain}", counted(owner.kind, *children))
        }
        ViolationFacts::AboveBound { owner, owner_name, count, active, created } => {
            format!("{owner} {owner_name} has {} active after creating {created}, over its bound of {count}", counted(*owner, *active))
        }
        ViolationFacts::BelowBound { owner, owner_name, count, active, deleted } => {
            format!("{owner} {owner_name} has {} active after the delete of {deleted}, under its bound of {count}", counted(*owner, *active))
        }
        ViolationFacts::NotConverged { owner, owner_name, desired, active } => {
            let wants = counted(*owner, *desired);
            format!("{owner} {owner_name} has {active} of the {wants} it wants by the time it was to have them")
        }
        ViolationFacts::LabelMissing { kind, name, label } => format!("{kind} {name} was written without the label {label}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_invariant_says_what_it_promises() {
        for name in crate::sim::invariants::NAMES {
            assert!(description(name).ends_with('.'), "{name}");
            assert_ne!(label(name), name, "{name} has a short label");
        }
    }

    #[test]
    fn a_bound_broken_counts_its_children_in_their_number() {
        let below = |active| ViolationFacts::BelowBound {
            owner: Kind::ReplicaSet,
            owner_name: "web".into(),
            count: 2,
            active,
            deleted: "web-x".into(),
        };
        assert_eq!(violation_words(&below(1)), "ReplicaSet web has 1 pod active after the delete of web-x, under its bound of 2");
        assert!(violation_words(&below(0)).contains("has 0 pods active"));
        let above =
            ViolationFacts::AboveBound { owner: Kind::ReplicaSet, owner_name: "web".into(), count: 1, active: 2, created: "web-y".into() };
        assert_eq!(violation_words(&above), "ReplicaSet web has 2 pods active after creating web-y, over its bound of 1");
    }

    #[test]
    fn an_owner_takes_its_article_and_its_children_their_number() {
        let rule = rule_words(Rule::AtMost { count: 1, owner: Kind::Ensemble });
        assert_eq!(rule, "No create leaves an Ensemble with more than 1 ConfigMap active (declared: safety).");
        assert!(
            rule_words(Rule::AtLeast { count: 2, owner: Kind::ReplicaSet }).starts_with("No controller delete leaves a ReplicaSet with")
        );
        let owner = crate::sim::object::ObjectRef { kind: Kind::ReplicaSet, namespace: "lab".into(), name: "web".into() };
        assert_eq!(
            violation_words(&ViolationFacts::Orphans { owner: owner.clone(), children: 1 }),
            "1 pod of deleted ReplicaSet lab/web remains"
        );
        assert_eq!(violation_words(&ViolationFacts::Orphans { owner, children: 3 }), "3 pods of deleted ReplicaSet lab/web remain");
        let short = ViolationFacts::NotConverged { owner: Kind::ReplicaSet, owner_name: "web".into(), desired: 1, active: 0 };
        assert_eq!(violation_words(&short), "ReplicaSet web has 0 of the 1 pod it wants by the time it was to have them");
    }
}
