//! "Real incidents": the presets that reproduce a staleness incident of a
//! real project, each as the gallery lists it — the project, its story in a
//! line (the description's first sentence), the incident's title and link —
//! all read from the preset itself, so a preset's words are said once.

use crate::scenario::{preset, PRESETS};

/// One incident as the gallery lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incident {
    /// The preset that reproduces it (`opensearch-quorum`).
    pub preset: &'static str,
    /// The project it happened in, as its repository is named
    /// (`opensearch-project/opensearch-k8s-operator`).
    pub project: String,
    /// The incident's own title, as the preset links it.
    pub title: String,
    pub url: String,
    /// The story in a line: the description's first sentence, past one
    /// that only names the lab step the preset follows.
    pub story: String,
    /// Its controller is a recipe over kinds of its own (an operator's), not one of the labs'.
    pub operator: bool,
    /// It has a lesson to offer.
    pub lesson: bool,
}

/// Every preset with an incident, the controllers written as recipes over
/// kinds of their own first, each group in the presets' order.
pub fn incidents() -> Vec<Incident> {
    let mut all: Vec<Incident> = PRESETS
        .iter()
        .filter_map(|(name, _)| {
            let s = preset(name).ok()?;
            let incident = s.incident.clone()?;
            let operator = s.controller.recipe.as_ref().is_some_and(|r| matches!(r.owner, crate::sim::object::Kind::Declared(_)));
            Some(Incident {
                preset: name,
                project: project(&incident.url).unwrap_or_else(|| incident.title.clone()),
                title: incident.title,
                url: incident.url,
                story: story(&s.description).to_string(),
                operator,
                lesson: !s.lesson.is_empty(),
            })
        })
        .collect();
    all.sort_by_key(|i| !i.operator);
    all
}

/// `owner/repo` of a GitHub address (`https://github.com/ray-project/kuberay/issues/715`).
fn project(url: &str) -> Option<String> {
    let path = url.strip_prefix("https://github.com/")?;
    let mut parts = path.split('/');
    let (owner, repo) = (parts.next()?, parts.next()?);
    (!owner.is_empty() && !repo.is_empty()).then(|| format!("{owner}/{repo}"))
}

/// The description's first sentence, or its second where the first only
/// names the lab step it follows (`Lab 2, steps 1-3.`).
fn story(description: &str) -> &str {
    let first = first_sentence(description);
    if first.starts_with("Lab ") && first.len() < 40 {
        let rest = description[first.len()..].trim_start();
        if !rest.is_empty() {
            return first_sentence(rest);
        }
    }
    first
}

/// Up to the first full stop that ends a sentence: a `.` followed by a space
/// and a capital (so `v0.16's` and `e.g. a` do not end it); all of it if none does.
fn first_sentence(text: &str) -> &str {
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices(". ") {
        if bytes.get(i + 2).is_some_and(u8::is_ascii_uppercase) {
            return &text[..=i];
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_story_is_the_first_sentence_and_a_project_its_repository() {
        assert_eq!(first_sentence("It restarts (v0.16's factory). The LIST is slow."), "It restarts (v0.16's factory).");
        assert_eq!(first_sentence("One, e.g. this. Two."), "One, e.g. this.");
        assert_eq!(first_sentence("No stop at all"), "No stop at all");
        assert_eq!(story("Lab 2, step 4. The pruner creates seed-99. Then more."), "The pruner creates seed-99.");
        assert_eq!(
            story("Lab 1's GenerateName over-create, and four answers. More."),
            "Lab 1's GenerateName over-create, and four answers."
        );
        assert_eq!(project("https://github.com/ray-project/kuberay/issues/715").as_deref(), Some("ray-project/kuberay"));
        assert_eq!(project("https://example.com/x"), None);
    }

    #[test]
    fn the_gallery_lists_every_preset_with_an_incident_the_operators_first() {
        let all = incidents();
        let with: Vec<&str> = PRESETS.iter().filter(|(n, _)| preset(n).unwrap().incident.is_some()).map(|(n, _)| *n).collect();
        assert_eq!(all.len(), with.len());
        let first_lab = all.iter().position(|i| !i.operator).unwrap();
        assert!(all[..first_lab].iter().all(|i| i.operator) && all[first_lab..].iter().all(|i| !i.operator));
        let opensearch = all.iter().find(|i| i.preset == "opensearch-quorum").unwrap();
        assert!(opensearch.operator && opensearch.lesson);
        assert_eq!(opensearch.project, "opensearch-project/opensearch-k8s-operator");
        for i in &all {
            assert!(i.story.ends_with('.') && i.story.len() < 400 && !i.story.starts_with("Lab 1,"), "{}: {}", i.preset, i.story);
        }
    }
}
