//! The built-in scenarios, one per lab experiment. Each is also a file under
//! `scenarios/`, which is the single source: the binary embeds the files.

use super::{Scenario, ScenarioError};

/// (name, JSON text) of every preset, in the order the page lists them.
pub const PRESETS: &[(&str, &str)] = &[
    ("over-create", include_str!("../../scenarios/over-create.json")),
    ("over-create-surplus", include_str!("../../scenarios/over-create-surplus.json")),
    ("replicaset-pressure", include_str!("../../scenarios/replicaset-pressure.json")),
    ("expectations-timeout", include_str!("../../scenarios/expectations-timeout.json")),
    ("empty-cache", include_str!("../../scenarios/empty-cache.json")),
    ("absent-from-cache", include_str!("../../scenarios/absent-from-cache.json")),
    ("read-your-write", include_str!("../../scenarios/read-your-write.json")),
    ("teardown", include_str!("../../scenarios/teardown.json")),
    ("staleness-mitigation", include_str!("../../scenarios/staleness-mitigation.json")),
    ("staleness-mitigation-replicaset", include_str!("../../scenarios/staleness-mitigation-replicaset.json")),
    ("over-create-answers", include_str!("../../scenarios/over-create-answers.json")),
    ("result-handling", include_str!("../../scenarios/result-handling.json")),
    ("two-replicas", include_str!("../../scenarios/two-replicas.json")),
    ("lost-bookmark", include_str!("../../scenarios/lost-bookmark.json")),
    ("kuberay-random-delete", include_str!("../../scenarios/kuberay-random-delete.json")),
    ("eck-random-names", include_str!("../../scenarios/eck-random-names.json")),
    ("job-expectations-by-name", include_str!("../../scenarios/job-expectations-by-name.json")),
    ("nfd-labels-stripped", include_str!("../../scenarios/nfd-labels-stripped.json")),
    ("capi-duplicate-machinesets", include_str!("../../scenarios/capi-duplicate-machinesets.json")),
    ("opensearch-quorum", include_str!("../../scenarios/opensearch-quorum.json")),
];

/// The presets' names.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}

/// A preset by name; an unknown name is an error that lists the known ones.
pub fn preset(name: &str) -> Result<Scenario, ScenarioError> {
    let (_, text) = PRESETS.iter().find(|(n, _)| *n == name).ok_or_else(|| {
        ScenarioError::new(
            "preset",
            Some(format!("{name:?}")),
            format!("unknown preset {name:?}; known presets: {}", preset_names().join(", ")),
        )
    })?;
    Scenario::from_json(text)
}

/// Every preset, parsed.
pub fn presets() -> Vec<Scenario> {
    PRESETS.iter().map(|(n, _)| preset(n).expect("built-in presets are valid (tested)")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_is_named_like_its_file() {
        for (name, _) in PRESETS {
            let s = preset(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(&s.name, name);
            assert!(!s.description.is_empty(), "{name} has a description");
        }
    }

    #[test]
    fn unknown_preset_names_the_value_and_the_choices() {
        let e = preset("over-creat").unwrap_err();
        assert_eq!(e.field, "preset");
        assert!(e.to_string().contains("\"over-creat\""));
        assert!(e.to_string().contains("over-create, over-create-surplus"));
    }
}
