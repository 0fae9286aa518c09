//! The page's whole state in its URL, so a course author can embed any moment
//! of any run in an iframe:
//!
//! `?s=over-create&controller.naming=generate&edit=37:cluster.watch_lag_ms=800&frame=40&speed=2&embed=1`
//!
//! - `s`: a preset; or `scenario`: a whole scenario as JSON;
//! - any dotted path (`cluster.watch_lag_ms=800`): a setting from frame 0, the
//!   same codec as the runner's `--set`;
//! - `edit`: a change made at a frame (repeatable), as [`Edit`] prints it;
//! - `frame`: the frame shown; `speed`: simulated seconds per second (0.1 to 1000);
//! - `embed`: `1` for the compact four-panel layout.
//!
//! Every bad parameter is an error naming the parameter and its value.

use super::session::Edit;
use crate::scenario::{preset, Scenario, ScenarioError};

/// The default playback speed: simulated seconds per real second.
pub const DEFAULT_SPEED: f64 = 1.0;
pub const MIN_SPEED: f64 = 0.1;
pub const MAX_SPEED: f64 = 1000.0;
/// The speed slider moves in twentieths of a decade: step 0 is ×1, 20 is ×10.
pub const MIN_SPEED_STEP: i32 = -20;
pub const MAX_SPEED_STEP: i32 = 60;

/// 10^(j/20) for j in 0..20: one decade of slider steps.
const DECADE: [f64; 20] = [
    1.0,
    1.122_018_454,
    1.258_925_412,
    1.412_537_545,
    1.584_893_192,
    1.778_279_41,
    1.995_262_315,
    2.238_721_139,
    2.511_886_432,
    2.818_382_931,
    3.162_277_66,
    3.548_133_892,
    3.981_071_706,
    4.466_835_922,
    5.011_872_336,
    5.623_413_252,
    6.309_573_445,
    7.079_457_844,
    7.943_282_347,
    8.912_509_381,
];

/// The speed at a slider step: 10^(step/20), from a table rather than `powf`.
pub fn speed_of_step(step: i32) -> f64 {
    let step = step.clamp(MIN_SPEED_STEP, MAX_SPEED_STEP);
    let (decade, j) = (step.div_euclid(20), step.rem_euclid(20) as usize);
    let mut speed = DECADE[j];
    for _ in 0..decade.max(0) {
        speed *= 10.0;
    }
    for _ in 0..(-decade).max(0) {
        speed /= 10.0;
    }
    speed
}

/// The nearest slider step to a speed.
pub fn step_of_speed(speed: f64) -> i32 {
    (MIN_SPEED_STEP..=MAX_SPEED_STEP)
        .min_by(|a, b| {
            let da = (speed_of_step(*a) / speed).max(speed / speed_of_step(*a));
            let db = (speed_of_step(*b) / speed).max(speed / speed_of_step(*b));
            da.total_cmp(&db)
        })
        .unwrap_or(0)
}

/// A plain decimal (`2`, `0.25`, `31.6`) as a number. Only what the `speed`
/// parameter needs: the page leaves out the general float parser, whose tables
/// are a sizeable share of the wasm.
fn parse_decimal(text: &str) -> Option<f64> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| !s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !(frac.is_empty() || digits(frac)) {
        return None;
    }
    let mut value = f64::from(whole.parse::<u32>().ok()?);
    if !frac.is_empty() {
        let mut scale = 1.0;
        for _ in 0..frac.len() {
            scale *= 10.0;
        }
        value += f64::from(frac.parse::<u32>().ok()?) / scale;
    }
    Some(value)
}

/// Everything the URL says.
#[derive(Debug, Clone, PartialEq)]
pub struct PageState {
    /// The preset's name, or `None` for a scenario given whole.
    pub preset: Option<String>,
    /// The scenario with the URL's settings applied.
    pub scenario: Scenario,
    /// The scenario before settings: what `scenario=` carried.
    pub custom: Option<String>,
    /// Settings from frame 0, as written (`cluster.watch_lag_ms`, `800`).
    pub settings: Vec<(String, String)>,
    pub edits: Vec<Edit>,
    pub frame: usize,
    pub speed: f64,
    pub embed: bool,
}

impl PageState {
    /// The state of a freshly opened preset.
    pub fn for_preset(name: &str) -> Result<PageState, ScenarioError> {
        Ok(PageState {
            preset: Some(name.to_string()),
            scenario: preset(name)?,
            custom: None,
            settings: Vec::new(),
            edits: Vec::new(),
            frame: 0,
            speed: DEFAULT_SPEED,
            embed: false,
        })
    }
}

fn param_error(name: &str, value: &str, message: impl Into<String>) -> ScenarioError {
    ScenarioError::new(format!("URL parameter {name}"), Some(format!("{value:?}")), message)
}

/// Parse a query string (with or without the leading `?`).
pub fn parse_query(query: &str, default_preset: &str) -> Result<PageState, ScenarioError> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut preset_name: Option<String> = None;
    let mut custom: Option<String> = None;
    let mut settings = Vec::new();
    let mut edits = Vec::new();
    let mut frame = 0usize;
    let mut speed = DEFAULT_SPEED;
    let mut embed = false;
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        let (key, value) = (key.into_owned(), value.into_owned());
        match key.as_str() {
            "s" | "preset" => preset_name = Some(value),
            "scenario" => custom = Some(value),
            "edit" => edits.push(Edit::parse(&value).map_err(|e| param_error("edit", &value, e.message))?),
            "frame" => frame = value.parse().map_err(|_| param_error("frame", &value, "expected a frame number, like frame=40"))?,
            "speed" => {
                speed = parse_decimal(&value)
                    .filter(|v| v.is_finite() && (MIN_SPEED..=MAX_SPEED).contains(v))
                    .ok_or_else(|| param_error("speed", &value, format!("expected a number from {MIN_SPEED} to {MAX_SPEED}")))?;
            }
            "embed" => {
                embed = match value.as_str() {
                    "1" | "true" | "" => true,
                    "0" | "false" => false,
                    _ => return Err(param_error("embed", &value, "expected 1 or 0")),
                }
            }
            k if k.contains('.') || k == "seed" || k == "until_ms" => settings.push((key, value)),
            _ => {
                return Err(param_error(
                    &key,
                    &value,
                    "unknown URL parameter; known: s, scenario, a dotted setting like cluster.watch_lag_ms, edit, frame, speed, embed",
                ))
            }
        }
    }
    if preset_name.is_some() && custom.is_some() {
        return Err(param_error("scenario", "", "give either s (a preset) or scenario (a JSON document), not both"));
    }
    let base = match &custom {
        Some(json) => Scenario::from_json(json).map_err(|mut e| {
            e.field = if e.field.is_empty() { "URL parameter scenario".into() } else { format!("URL parameter scenario: {}", e.field) };
            e
        })?,
        None => {
            let name = preset_name.clone().unwrap_or_else(|| default_preset.to_string());
            preset(&name).map_err(|e| param_error("s", &name, e.message))?
        }
    };
    let scenario = base.with_settings(settings.iter().map(|(k, v)| (k.as_str(), v.as_str())))?;
    let preset = if custom.is_some() { None } else { Some(preset_name.unwrap_or_else(|| default_preset.to_string())) };
    Ok(PageState { preset, scenario, custom, settings, edits, frame, speed, embed })
}

/// The query string for a state (with the leading `?`). Defaults are left out.
pub fn encode(state: &PageState) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    match (&state.preset, &state.custom) {
        (_, Some(json)) => {
            q.append_pair("scenario", json);
        }
        (Some(p), None) => {
            q.append_pair("s", p);
        }
        (None, None) => {}
    }
    for (k, v) in &state.settings {
        q.append_pair(k, v);
    }
    for e in &state.edits {
        q.append_pair("edit", &e.to_string());
    }
    if state.frame > 0 {
        q.append_pair("frame", &state.frame.to_string());
    }
    if (state.speed - DEFAULT_SPEED).abs() > f64::EPSILON {
        q.append_pair("speed", &format_speed(state.speed));
    }
    if state.embed {
        q.append_pair("embed", "1");
    }
    let s = q.finish();
    if s.is_empty() {
        String::new()
    } else {
        format!("?{s}")
    }
}

/// A speed as the URL and the label show it: `2`, `0.25`, `31.6` (integer
/// arithmetic: no float formatting in the page).
pub fn format_speed(speed: f64) -> String {
    let (scaled, decimals) = if speed >= 10.0 { ((speed * 10.0).round() as u64, 1) } else { ((speed * 100.0).round() as u64, 2) };
    let div = 10u64.pow(decimals);
    let mut s = format!("{}.{:0width$}", scaled / div, scaled % div, width = decimals as usize);
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_query_opens_the_default_preset() {
        let s = parse_query("", "over-create").unwrap();
        assert_eq!(s.preset.as_deref(), Some("over-create"));
        assert_eq!(s.frame, 0);
        assert_eq!(encode(&PageState { preset: Some("over-create".into()), ..s.clone() }), "?s=over-create");
    }

    #[test]
    fn the_whole_state_round_trips() {
        let q = "?s=over-create&controller.naming=generate&edit=37%3Acluster.watch_lag_ms%3D800&frame=40&speed=2.5&embed=1";
        let s = parse_query(q, "over-create").unwrap();
        assert_eq!(s.scenario.controller.naming, crate::sim::controllers::Naming::Generate);
        assert_eq!(s.edits.len(), 1);
        assert_eq!((s.frame, s.speed, s.embed), (40, 2.5, true));
        assert_eq!(encode(&s), q);
    }

    #[test]
    fn a_whole_scenario_can_ride_in_the_url() {
        let json = r#"{"name":"mine","controller":{"kind":"pruner","wait_for_cache_sync":false},"objects":[{"kind":"ConfigMap","name":"seed-{i}","count":3}]}"#;
        let q = encode(&PageState { preset: None, custom: Some(json.into()), ..parse_query("", "over-create").unwrap() });
        let s = parse_query(&q, "over-create").unwrap();
        assert_eq!(s.scenario.name, "mine");
        assert_eq!(s.preset, None);
    }

    #[test]
    fn bad_parameters_name_themselves_and_their_value() {
        let cases = [
            ("s=nope", "URL parameter s", "nope"),
            ("frame=ten", "URL parameter frame", "ten"),
            ("speed=0", "URL parameter speed", "0"),
            ("embed=maybe", "URL parameter embed", "maybe"),
            ("colour=red", "URL parameter colour", "red"),
            ("edit=3:controller.workers=2", "URL parameter edit", "3:controller.workers=2"),
            ("controller.naming=gen", "controller.naming", "gen"),
            ("cluster.watch_lag_ms=-5", "cluster.watch_lag_ms", "-5"),
            ("scenario=%7Bnot%20json", "URL parameter scenario", "line 1"),
        ];
        for (q, field, value) in cases {
            let e = parse_query(q, "over-create").unwrap_err();
            let text = e.to_string();
            assert!(text.contains(field) && text.contains(value), "{q}: {text}");
        }
    }

    #[test]
    fn speeds_print_short() {
        assert_eq!(format_speed(2.0), "2");
        assert_eq!(format_speed(0.25), "0.25");
        assert_eq!(format_speed(31.62), "31.6");
        assert_eq!(format_speed(1000.0), "1000");
        assert_eq!(step_of_speed(1.0), 0);
        assert_eq!(format_speed(speed_of_step(MAX_SPEED_STEP)), "1000");
        assert_eq!(step_of_speed(speed_of_step(7)), 7);
        assert_eq!(step_of_speed(0.1), MIN_SPEED_STEP);
        assert_eq!(step_of_speed(2.5), 8);
        for step in MIN_SPEED_STEP..=MAX_SPEED_STEP {
            assert_eq!(step_of_speed(speed_of_step(step)), step);
        }
        assert!((speed_of_step(20) - 10.0).abs() < 1e-9 && (speed_of_step(-20) - 0.1).abs() < 1e-9);
        assert_eq!(parse_decimal("2.5"), Some(2.5));
        assert_eq!(parse_decimal("1000"), Some(1000.0));
        for bad in ["", ".5", "1e3", "-1", "x", "1.2.3", "NaN"] {
            assert_eq!(parse_decimal(bad), None, "{bad}");
        }
    }
}
