//! A scenario's own kinds (`kinds`): a custom resource such as KubeRay's
//! `RayCluster`, or a built-in resource the simulator does not model, such
//! as `Job`, declared by name, resource, the spec field that holds its
//! desired count and which children it owns. They are read before the rest
//! of the document (the first of two passes), so every `kind` field after
//! them may name them; each becomes one interned [`KindDecl`] row.

use super::validate::{dns_name, label_part, shown};
use super::{limits, ScenarioError};
use crate::sim::object::{declare, intern, Kind, KindDecl};
use serde::{Deserialize, Serialize};

#[cfg(not(target_arch = "wasm32"))]
use schemars::JsonSchema;

/// One declared kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct DeclaredKind {
    /// The kind's name, UpperCamelCase (`RayCluster`); not a built-in's.
    pub name: String,
    /// The lower-case plural resource, as the apiserver's messages name it
    /// (`rayclusters.ray.io`). Default: the name in lower case, plus `s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// An owner kind's spec field with its desired count of children
    /// (`workers`); set in an object as `"spec": {"workers": 3}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desired: Option<String>,
    /// An owner kind's children: their kind and the label that carries the
    /// owner's name (what the invariants and the garbage collector's orphan
    /// check count by). Required with `desired`; without it, the objects of
    /// another kind that name this one (a Node's NodeFeatures), which a
    /// recipe may `list` but not `count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub children: Option<Children>,
}

/// What an owner kind's children are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Children {
    /// A built-in kind, or one declared before this one.
    pub kind: String,
    /// The label key whose value is the owner's name (`ray.io/cluster`).
    pub label: String,
}

/// The kinds a scenario document (JSON text) declares, for reading
/// something else that names them (the search worker's reply about it); a
/// text that declares none, or none validly, gives none.
pub fn declared_in(text: &str) -> Vec<Kind> {
    read(text).unwrap_or_default()
}

/// The first pass: the document's `kinds`, checked and interned, in order.
/// A text that is not JSON, or has no `kinds`, declares none (the second
/// pass names what is wrong with it).
pub(super) fn read(text: &str) -> Result<Vec<Kind>, ScenarioError> {
    if !text.contains("\"kinds\"") {
        return Ok(Vec::new());
    }
    let Ok(serde_json::Value::Object(mut doc)) = serde_json::from_str::<serde_json::Value>(text) else { return Ok(Vec::new()) };
    let Some(kinds) = doc.remove("kinds") else { return Ok(Vec::new()) };
    let serde_json::Value::Array(entries) = kinds else {
        return Err(ScenarioError::new("kinds", None, "must be a list of kinds, each {\"name\": …}"));
    };
    limits::get("kinds").check("kinds", entries.len() as u64)?;
    let mut declared: Vec<Kind> = Vec::with_capacity(entries.len());
    for (i, entry) in entries.into_iter().enumerate() {
        let at = format!("kinds[{i}]");
        let doc: DeclaredKind = serde_json::from_value(entry).map_err(|e| ScenarioError::new(at.clone(), None, e.to_string()))?;
        declared.push(resolve(&at, i, &doc, &declared)?);
    }
    Ok(declared)
}

fn resolve(at: &str, slot: usize, doc: &DeclaredKind, before: &[Kind]) -> Result<Kind, ScenarioError> {
    let name = &doc.name;
    let camel = !name.is_empty()
        && name.len() <= 63
        && name.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        && name.bytes().all(|b| b.is_ascii_alphanumeric());
    if !camel {
        return Err(ScenarioError::new(
            format!("{at}.name"),
            Some(shown(name)),
            "a kind's name is UpperCamelCase: a capital letter, then letters and digits, at most 63",
        ));
    }
    if Kind::built_in(name).is_some() || before.iter().any(|k| k.as_str() == name) {
        return Err(ScenarioError::new(format!("{at}.name"), Some(shown(name)), "names a kind already known: each kind once"));
    }
    let resource = doc.resource.clone().unwrap_or_else(|| format!("{}s", name.to_ascii_lowercase()));
    let resource_ok = resource.len() <= 253 && resource.split('.').all(|part| dns_name("", part).is_ok());
    if !resource_ok {
        return Err(ScenarioError::new(
            format!("{at}.resource"),
            Some(shown(&resource)),
            "a resource is lower-case letters, digits, '-' and '.' (`rayclusters.ray.io`)",
        ));
    }
    if let Some(field) = &doc.desired {
        let ok = field.len() <= 63
            && field.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            && field.bytes().all(|b| b.is_ascii_alphanumeric());
        if !ok {
            return Err(ScenarioError::new(
                format!("{at}.desired"),
                Some(shown(field)),
                "a spec field's name is lowerCamelCase (`workers`, `replicas`)",
            ));
        }
    }
    if doc.desired.is_some() && doc.children.is_none() {
        return Err(ScenarioError::new(format!("{at}.children"), None, "an owner kind (one with desired) says which children it owns"));
    }
    // Children without a desired count: objects of another kind that name
    // this one by a label (a Node's NodeFeatures), listed but never counted
    // against a number.
    let children = match &doc.children {
        None => None,
        Some(c) => {
            let kind = Kind::built_in(&c.kind).or_else(|| before.iter().copied().find(|k| k.as_str() == c.kind)).ok_or_else(|| {
                ScenarioError::new(
                    format!("{at}.children.kind"),
                    Some(shown(&c.kind)),
                    "is neither a built-in kind (Ensemble, ConfigMap, ReplicaSet, Pod) nor one declared before this one",
                )
            })?;
            label_part(&format!("{at}.children.label"), &c.label, true)?;
            Some((kind, intern(&c.label)))
        }
    };
    Ok(declare(KindDecl {
        slot: u8::try_from(slot).expect("the kinds limit keeps slots small"),
        name: intern(name),
        resource: intern(&resource),
        desired: doc.desired.as_deref().map(intern),
        children,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declared_kind_reads_as_one_row_whoever_reads_it() {
        let text = r#"{"kinds": [{"name": "RayCluster", "resource": "rayclusters.ray.io", "desired": "workers",
            "children": {"kind": "Pod", "label": "ray.io/cluster"}}]}"#;
        let a = read(text).unwrap();
        let b = read(text).unwrap();
        assert_eq!(a, b);
        let Kind::Declared(row) = a[0] else { panic!("{a:?}") };
        assert!(
            std::ptr::eq(
                row,
                match b[0] {
                    Kind::Declared(r) => r,
                    _ => unreachable!(),
                }
            ),
            "interned once"
        );
        assert_eq!((a[0].as_str(), a[0].resource(), a[0].desired_field()), ("RayCluster", "rayclusters.ray.io", Some("workers")));
        assert_eq!(crate::sim::object::child_kind(a[0]), Some(Kind::Pod));
        assert_eq!(crate::sim::object::child_label(a[0]), Some("ray.io/cluster"));
        assert_eq!(a[0].index(), crate::sim::object::BUILT_IN);
    }

    #[test]
    fn a_kind_may_have_children_without_a_desired_count() {
        let kinds = read(r#"{"kinds": [{"name": "Node", "resource": "nodes", "children": {"kind": "Pod", "label": "a/node"}}]}"#).unwrap();
        assert_eq!(kinds[0].desired_field(), None);
        assert_eq!(crate::sim::object::child_kind(kinds[0]), Some(Kind::Pod));
    }

    #[test]
    fn each_broken_field_is_named() {
        let cases = [
            (r#"[{"name": "rayCluster"}]"#, "kinds[0].name"),
            (r#"[{"name": "Pod"}]"#, "kinds[0].name"),
            (r#"[{"name": "A"}, {"name": "A"}]"#, "kinds[1].name"),
            (r#"[{"name": "A", "resource": "As!"}]"#, "kinds[0].resource"),
            (r#"[{"name": "A", "desired": "Workers", "children": {"kind": "Pod", "label": "a"}}]"#, "kinds[0].desired"),
            (r#"[{"name": "A", "desired": "workers"}]"#, "kinds[0].children"),
            (r#"[{"name": "A", "desired": "n", "children": {"kind": "B", "label": "a"}}, {"name": "B"}]"#, "kinds[0].children.kind"),
            (r#"[{"name": "A", "desired": "n", "children": {"kind": "Pod", "label": "a b"}}]"#, "kinds[0].children.label"),
            (r#"[{"name": "A", "desird": "n"}]"#, "kinds[0]"),
            (r#"[{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}, {"name": "E"}]"#, "kinds"),
            (r#"{"name": "A"}"#, "kinds"),
        ];
        for (kinds, field) in cases {
            let err = read(&format!(r#"{{"kinds": {kinds}}}"#)).expect_err(kinds);
            assert_eq!(err.field, field, "{kinds}: {err}");
        }
    }
}
