//! The sample lesson page authors copy (`examples/course-page.html`) states
//! figures about the runs it embeds. Each is held to those runs as a
//! preset's own prose is (`tests/scenarios.rs`): a figure a section's text
//! states, in digits or in words, must be one its iframes' runs measure
//! (each of the preset's checks, under the iframe's settings and the check's
//! own `when`) or one of their settings.
#![cfg(not(target_arch = "wasm32"))]

use cachescope::scenario::Scenario;
use cachescope::sim::world::World;
use cachescope::view::url::parse_query;

const PAGE: &str = include_str!("../examples/course-page.html");

/// Number words a lesson writes, with their values.
const WORDS: &[(&str, u64)] = &[
    ("zero", 0),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("hundred", 100),
];

/// One `<section>` of the page: its prose and the scenarios its iframes play.
struct Section {
    id: String,
    prose: String,
    runs: Vec<Scenario>,
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(open) {
        let after = &rest[i + open.len()..];
        let Some(j) = after.find(close) else { break };
        out.push(&after[..j]);
        rest = &after[j + close.len()..];
    }
    out
}

/// Text without tags, entities decoded, white space collapsed.
fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn sections() -> Vec<Section> {
    between(PAGE, "<section", "</section>")
        .into_iter()
        .map(|html| {
            let id = between(html, "aria-labelledby=\"", "\"").first().map_or("?", |s| s).to_string();
            // The lesson's prose: the paragraphs of its text, not its buttons or frame counters.
            let prose = between(html, "<p>", "</p>")
                .into_iter()
                .map(text_of)
                .filter(|p| !p.starts_with("Frame:") && !p.starts_with("Step both"))
                .collect::<Vec<_>>()
                .join(" ");
            let runs = between(html, " src=\"", "\"")
                .into_iter()
                .flat_map(|src| {
                    let src = src.replace("&amp;", "&");
                    let query = src.split_once('?').map_or("", |(_, q)| q);
                    let state = parse_query(query, "over-create").unwrap_or_else(|e| panic!("{id}: the iframe's src {src}: {e}"));
                    assert!(state.edits.is_empty(), "{id}: an iframe with edits ({src}) is not checked here");
                    // Two runs side by side: Run B too.
                    let b = state.layout.compare.as_ref().map(|vs| {
                        cachescope::view::compare::run_b(&state.scenario, vs).unwrap_or_else(|e| panic!("{id}: compare in {src}: {e}"))
                    });
                    std::iter::once(state.scenario).chain(b)
                })
                .collect();
            Section { id, prose, runs }
        })
        .collect()
}

/// The figures a sentence states, in digits or words: not those in names
/// (`late-1`, `seed-99`), HTTP status labels (`409 AlreadyExists`, `200 OK`)
/// or versions (`v1.36`).
fn stated_figures(text: &str) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    let tokens: Vec<&str> = text.split(|c: char| c.is_whitespace()).collect();
    for (i, raw) in tokens.iter().enumerate() {
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
        let next = tokens.get(i + 1).map_or("", |t| t.trim_matches(|c: char| !c.is_alphanumeric()));
        if let Ok(n) = word.parse::<u64>() {
            let status = ["AlreadyExists", "OK", "Created", "NotFound", "Conflict"].contains(&next);
            if !status {
                out.push((n, raw.to_string()));
            }
            continue;
        }
        let lower = word.to_lowercase();
        if let Some((_, n)) = WORDS.iter().find(|(w, _)| *w == lower) {
            out.push((*n, raw.to_string()));
        }
    }
    out
}

/// Numbers in a JSON value, milliseconds also as seconds.
fn numbers_in(v: &serde_json::Value, out: &mut Vec<u64>) {
    match v {
        serde_json::Value::Number(n) => {
            if let Some(n) = n.as_u64() {
                out.extend([n, n / 1000]);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| numbers_in(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| numbers_in(x, out)),
        _ => {}
    }
}

/// Run `s` to its end: the world and its frames.
fn run(s: &Scenario) -> (World, Vec<cachescope::sim::frame::Frame>) {
    let mut world = World::new(s.world_init());
    let mut frames = Vec::new();
    while let Some(f) = world.step() {
        frames.push(f);
    }
    (world, frames)
}

/// What a section's runs pin: each check of each iframe's scenario, measured
/// on that scenario with the check's `when` applied (the variant a lesson
/// asks the learner to switch to), and every number in its settings. Each
/// check must hold there too: a figure the page implies is one the lab gets.
fn pinned(section: &Section) -> Vec<u64> {
    let mut out = Vec::new();
    for s in &section.runs {
        let mut settings = s.to_value();
        settings
            .as_object_mut()
            .unwrap()
            .retain(|k, _| !matches!(k.as_str(), "description" | "start" | "controls" | "expect" | "name" | "incident"));
        numbers_in(&settings, &mut out);
        for c in &s.expect {
            let raw: Vec<(String, String)> =
                c.when.iter().map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string))).collect();
            let variant = s.with_settings(raw.iter().map(|(k, v)| (k.as_str(), v.as_str()))).unwrap();
            let (world, frames) = run(&variant);
            let o = c.outcome(&world, &frames);
            assert!(o.held, "{}: {} (expected {}, measured {:?}) under {:?}", section.id, o.text, o.expected, o.measured, c.when);
            out.extend(o.measured);
        }
    }
    out
}

#[test]
fn every_figure_the_course_page_states_is_one_its_runs_measure() {
    let sections = sections();
    assert_eq!(sections.len(), 4, "the page's four sections: three runs explained, then a lesson");
    for section in &sections {
        assert!(!section.runs.is_empty(), "{}: an iframe to check against", section.id);
        let pinned = pinned(section);
        let stated = stated_figures(&section.prose);
        assert!(!stated.is_empty(), "{}: its prose states figures: {}", section.id, section.prose);
        for (n, as_written) in stated {
            assert!(
                pinned.contains(&n),
                "{}: the page says {as_written:?} ({n}), which its runs do not measure and no setting holds ({pinned:?}): {}",
                section.id,
                section.prose
            );
        }
    }
}

/// The test sees what a careless edit would write: the old "eight
/// ConfigMaps", or a figure in digits, is caught in the GenerateName section.
#[test]
fn the_course_page_check_catches_the_lab_s_eight_written_as_this_run_s() {
    let sections = sections();
    let over = sections.iter().find(|s| s.id == "over-create").unwrap();
    let pinned = pinned(over);
    for claim in ["and eight ConfigMaps exist", "and 8 ConfigMaps exist", "twelve ConfigMaps"] {
        let stated = stated_figures(claim);
        assert_eq!(stated.len(), 1, "{claim}");
        assert!(!pinned.contains(&stated[0].0), "{claim}: {pinned:?}");
    }
    // What the page does say, it says of these runs.
    assert!(pinned.contains(&11) && pinned.contains(&4) && pinned.contains(&10));
    assert!(over.prose.contains("eleven ConfigMaps"), "{}", over.prose);
    // Names, statuses and citations are not figures.
    assert_eq!(stated_figures("late-1 gets 409 AlreadyExists and 200 OK, in Lesson"), vec![]);
}
