//! The one dotted-path codec: `controller.naming=generate`, `actions[0].at_ms=500`
//! (or `actions.0.at_ms`). The runner's `--set` and the page's URL both use it,
//! so a setting means the same thing in both places.

use super::ScenarioError;
use serde_json::Value;

/// Split `a.b[2].c` or `a.b.2.c` into `["a", "b", "2", "c"]`.
pub fn split_path(path: &str) -> Vec<String> {
    path.replace('[', ".").replace(']', "").split('.').filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// The value at a dotted path (`controller.naming`, `actions[0].apply.replicas`), if any.
pub fn get_path<'a>(root: &'a Value, path: &str) -> Option<&'a Value> {
    split_path(path).iter().try_fold(root, |v, seg| match v {
        Value::Object(m) => m.get(seg.as_str()),
        Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

/// Read a raw setting: JSON if it parses as JSON (`800`, `true`, `"x"`, `[..]`), else a plain string.
fn parse_raw(raw: &str) -> Value {
    serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
}

/// Set the field at `path` in a scenario's JSON value. The path must name a
/// field that exists (every field exists once defaults are filled in); the
/// value's type is checked when the scenario is rebuilt from the value.
pub fn set_path(root: &mut Value, path: &str, raw: &str) -> Result<(), ScenarioError> {
    let segments = split_path(path);
    if segments.is_empty() {
        return Err(ScenarioError::new("--set", Some(format!("{path:?}")), "expected PATH=VALUE, for example controller.naming=generate"));
    }
    // `controller.` or `a..b` names no field: say so under the path as written.
    if path.replace('[', ".").replace(']', "").split('.').any(str::is_empty) && !path.contains('[') {
        return Err(ScenarioError::new(path, None, "a dotted path with an empty part names no field (like controller.naming)"));
    }
    let mut node = root;
    let mut walked = String::new();
    for seg in &segments {
        let here = if walked.is_empty() { seg.clone() } else { format!("{walked}.{seg}") };
        node = match node {
            Value::Object(map) => {
                if !map.contains_key(seg) {
                    let known: Vec<&str> = map.keys().map(String::as_str).collect();
                    return Err(ScenarioError::new(
                        path,
                        Some(raw.to_string()),
                        format!(
                            "unknown setting {here:?}; {} has: {}",
                            if walked.is_empty() { "a scenario" } else { &walked },
                            known.join(", ")
                        ),
                    ));
                }
                map.get_mut(seg).expect("checked above")
            }
            Value::Array(items) => {
                let len = items.len();
                let idx: usize = seg.parse().map_err(|_| {
                    ScenarioError::new(path, Some(raw.to_string()), format!("{walked} is a list: expected an index, got {seg:?}"))
                })?;
                if idx >= len {
                    return Err(ScenarioError::new(path, Some(raw.to_string()), format!("{walked} has {len} entries: no index {idx}")));
                }
                &mut items[idx]
            }
            _ => {
                return Err(ScenarioError::new(
                    path,
                    Some(raw.to_string()),
                    format!("{walked} is a value, not a section: nothing inside it to set"),
                ))
            }
        };
        walked = here;
    }
    *node = parse_raw(raw);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sets_nested_fields_and_list_entries() {
        let mut v = json!({"controller": {"naming": "deterministic"}, "actions": [{"at_ms": 0}]});
        set_path(&mut v, "controller.naming", "generate").unwrap();
        set_path(&mut v, "actions[0].at_ms", "500").unwrap();
        set_path(&mut v, "actions.0.at_ms", "600").unwrap();
        assert_eq!(v, json!({"controller": {"naming": "generate"}, "actions": [{"at_ms": 600}]}));
    }

    #[test]
    fn unknown_paths_name_the_field_and_what_exists() {
        let mut v = json!({"controller": {"naming": "deterministic", "workers": 1}});
        let e = set_path(&mut v, "controller.nameing", "generate").unwrap_err();
        assert_eq!(e.field, "controller.nameing");
        assert!(e.message.contains("naming, workers"), "{}", e.message);
        let e = set_path(&mut v, "controller.naming.x", "1").unwrap_err();
        assert!(e.message.contains("not a section"), "{}", e.message);
    }

    #[test]
    fn list_indices_are_checked() {
        let mut v = json!({"actions": []});
        let e = set_path(&mut v, "actions.3.at_ms", "1").unwrap_err();
        assert!(e.message.contains("no index 3"), "{}", e.message);
        let e = set_path(&mut v, "actions.x", "1").unwrap_err();
        assert!(e.message.contains("expected an index"), "{}", e.message);
    }
}
