//! The page's whole state in its URL, so a course author can embed any moment
//! of any run in an iframe:
//!
//! `?s=over-create&controller.naming=generate&edit=37:cluster.watch_lag_ms=800&frame=40&speed=2&embed=1`
//!
//! - `s`: a preset; or `scenario`: a whole scenario as JSON, or `z`: the same
//!   packed ([`pack`]: deflate and base64url, what the page writes);
//! - any dotted path (`cluster.watch_lag_ms=800`): a setting from frame 0, the
//!   same codec as the runner's `--set`;
//! - `edit`: a change made at a frame (repeatable), as [`Edit`] prints it;
//! - `frame`: the frame shown; `speed`: simulated seconds per second (0.1 to 1000);
//! - `embed`: `1` for the compact four-panel layout; `panels`: which panels
//!   show (`panels=cluster,cache,expectations`); `controls`: `none`,
//!   `transport` or `all`; `autoplay`: `1` to start playing;
//! - `origin`: the only parent origin whose messages the page obeys.
//!
//! Every bad parameter is a problem naming the parameter and its value; the
//! page reports it and still honours the rest ([`parse_query_lenient`]).

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

/// A plain decimal (`2`, `0.25`, `31.6`) as a number: the `speed` parameter,
/// and a computed CSS length's digits (the lists' row pitch). The page leaves
/// out the general float parser, whose tables are 12 KB of the gzipped wasm.
pub(crate) fn parse_decimal(text: &str) -> Option<f64> {
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

/// The longest packed scenario (`z=`) a shared link should carry: with the
/// rest of a URL it stays under the 8 KB many servers and proxies accept.
/// Longer ones still open, but the page warns when it makes such a link.
pub const MAX_SHARED_PACKED: usize = 6_000;

/// The most a packed scenario may inflate to: a link is not a way to make the
/// page allocate without bound.
const MAX_UNPACKED: usize = 1 << 20;

/// A scenario document packed for a URL: raw deflate, then base64url without padding.
pub fn pack(json: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9))
}

/// The document a `z=` value packs, or what is wrong with it.
pub fn unpack(packed: &str) -> Result<String, String> {
    use base64::Engine;
    let bytes =
        base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(packed.trim_end_matches('=')).map_err(|e| format!("not base64url: {e}"))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_UNPACKED).map_err(|e| match e.status {
        miniz_oxide::inflate::TINFLStatus::HasMoreOutput => format!("too large: it inflates past {} bytes", MAX_UNPACKED),
        status => format!("not a deflated scenario ({status:?})"),
    })?;
    String::from_utf8(json).map_err(|_| "the packed scenario is not UTF-8 text".to_string())
}

/// A panel the page can show; `panels=cluster,cache,expectations` picks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PanelId {
    Cluster,
    Watch,
    Cache,
    Expectations,
    Workqueue,
    Reconcile,
    Observations,
    Invariants,
    Timeline,
    SpaceTime,
}

impl PanelId {
    pub const ALL: [PanelId; 10] = [
        PanelId::Cluster,
        PanelId::Watch,
        PanelId::Cache,
        PanelId::Expectations,
        PanelId::Workqueue,
        PanelId::Reconcile,
        PanelId::Observations,
        PanelId::Invariants,
        PanelId::Timeline,
        PanelId::SpaceTime,
    ];
    /// What an embed shows unless `panels=` says otherwise.
    pub const EMBED: [PanelId; 4] = [PanelId::Cluster, PanelId::Watch, PanelId::Cache, PanelId::Expectations];

    pub fn as_str(self) -> &'static str {
        match self {
            PanelId::Cluster => "cluster",
            PanelId::Watch => "watch",
            PanelId::Cache => "cache",
            PanelId::Expectations => "expectations",
            PanelId::Workqueue => "workqueue",
            PanelId::Reconcile => "reconcile",
            PanelId::Observations => "observations",
            PanelId::Invariants => "invariants",
            PanelId::Timeline => "timeline",
            PanelId::SpaceTime => "spacetime",
        }
    }

    fn parse(name: &str) -> Option<PanelId> {
        PanelId::ALL.into_iter().find(|p| p.as_str() == name)
    }
}

/// Which controls show: `controls=none|transport|all`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlsMode {
    /// No controls at all: a picture that the host page may drive.
    None,
    /// Play, step, scrub and speed only.
    Transport,
    /// The scenario's settings and actions as well.
    All,
}

impl ControlsMode {
    pub fn as_str(self) -> &'static str {
        match self {
            ControlsMode::None => "none",
            ControlsMode::Transport => "transport",
            ControlsMode::All => "all",
        }
    }
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
    pub layout: Layout,
    /// `gc=1` shows the garbage collector's own cache deliveries when stepping,
    /// `gc=0` hides them; `None`: the scenario's default (shown only where an
    /// owner is deleted).
    pub gc_steps: Option<bool>,
}

/// How an embedded page is laid out and whom it obeys, as the URL says.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Layout {
    /// `panels=`: the panels shown, in the page's order; `None` for the mode's default.
    pub panels: Option<Vec<PanelId>>,
    /// `controls=`; `None` for the mode's default.
    pub controls: Option<ControlsMode>,
    /// `autoplay=1`: start playing once loaded.
    pub autoplay: bool,
    /// `origin=`: the only parent origin whose messages are obeyed.
    pub origin: Option<String>,
    /// `lesson=1`: the scenario's lesson is on, at `step=N` (0-based here,
    /// 1-based in the URL); `None`: off.
    pub lesson: Option<usize>,
    /// `compare=PATH=VALUE[;…]`: two runs side by side, Run B with these settings.
    pub compare: Option<Vec<(String, String)>>,
}

impl PageState {
    /// The panels shown: `panels=`, or all of them (four in an embed).
    pub fn shown_panels(&self) -> Vec<PanelId> {
        self.layout.panels.clone().unwrap_or_else(|| if self.embed { PanelId::EMBED.to_vec() } else { PanelId::ALL.to_vec() })
    }

    /// The controls shown: `controls=`, or all of them (the transport in an embed).
    pub fn controls_mode(&self) -> ControlsMode {
        self.layout.controls.unwrap_or(if self.embed { ControlsMode::Transport } else { ControlsMode::All })
    }
}

fn param_error(name: &str, value: &str, message: impl Into<String>) -> ScenarioError {
    ScenarioError::new(format!("URL parameter {name}"), Some(format!("{value:?}")), message)
}

/// A query string read leniently: every parameter that could be honoured is,
/// and each one that could not is a problem naming it and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub state: PageState,
    pub problems: Vec<ScenarioError>,
    /// The scenario the link names could not be used (a refused document,
    /// an unknown preset): the state holds the default preset in its place.
    pub fell_back: bool,
}

/// Parse a query string (with or without the leading `?`); the first problem is the error.
pub fn parse_query(query: &str, default_preset: &str) -> Result<PageState, ScenarioError> {
    let Parsed { state, mut problems, .. } = parse_query_lenient(query, default_preset);
    if problems.is_empty() {
        Ok(state)
    } else {
        Err(problems.swap_remove(0))
    }
}

/// Is `text` an origin (`https://host[:port]`), as `MessageEvent.origin` gives them?
fn is_origin(text: &str) -> bool {
    let rest = text.strip_prefix("https://").or_else(|| text.strip_prefix("http://"));
    rest.is_some_and(|r| !r.is_empty() && !r.contains(['/', '?', '#', '@', ' ']))
}

fn flag(name: &str, value: &str, problems: &mut Vec<ScenarioError>) -> bool {
    match value {
        "1" | "true" | "" => true,
        "0" | "false" => false,
        _ => {
            problems.push(param_error(name, value, "expected 1 or 0"));
            false
        }
    }
}

/// Parse a query string, keeping what is good: a bad parameter is left out (a
/// bad preset or scenario falls back to the default preset) and reported.
/// A frame past the end of the run is for the page to find, as it plays it.
pub fn parse_query_lenient(query: &str, default_preset: &str) -> Parsed {
    const KNOWN: &str = "known: s, scenario, z, a dotted setting like cluster.watch_lag_ms, seed, until_ms, edit, frame, speed, gc, embed, panels, controls, autoplay, origin, lesson, step, compare";
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut problems = Vec::new();
    let mut preset_name: Option<String> = None;
    let mut custom: Option<String> = None;
    let mut raw_settings = Vec::new();
    let mut edits = Vec::new();
    let (mut frame, mut speed, mut embed, mut layout) = (0, DEFAULT_SPEED, false, Layout::default());
    let mut gc_steps = None;
    let (mut lesson, mut step) = (false, None::<(usize, String)>);
    // Which parameter gave the scenario document (`z` or `scenario`), to name it in errors.
    let mut custom_from = "scenario";
    // A document was given, whether or not it could be read.
    let mut asked_custom = false;
    let mut seen: Vec<String> = Vec::new();
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        let (key, value) = (key.into_owned(), value.into_owned());
        // A parameter that picks one thing, given twice: the last wins, and the page says so.
        let single = matches!(
            key.as_str(),
            "s" | "preset"
                | "scenario"
                | "z"
                | "frame"
                | "speed"
                | "panels"
                | "controls"
                | "origin"
                | "embed"
                | "gc"
                | "lesson"
                | "step"
                | "compare"
        );
        if single {
            let name = if key == "preset" { "s".to_string() } else { key.clone() };
            if seen.contains(&name) {
                problems.push(param_error(&name, &value, format!("{name} is given more than once; the last is used")));
            }
            seen.push(name);
        }
        match key.as_str() {
            "s" | "preset" => preset_name = Some(value),
            "scenario" => {
                custom = Some(value);
                custom_from = "scenario";
                asked_custom = true;
            }
            "z" => {
                asked_custom = true;
                match unpack(&value) {
                    Ok(json) => {
                        custom = Some(json);
                        custom_from = "z";
                    }
                    Err(e) => problems.push(param_error(
                        "z",
                        &super::ellipsize(&value, 40),
                        format!("{e}; expected a scenario as the page's Share makes it"),
                    )),
                }
            }
            "edit" => match Edit::parse(&value) {
                Ok(e) => edits.push(e),
                Err(e) => problems.push(param_error("edit", &value, e.message)),
            },
            "frame" => match value.parse() {
                Ok(f) => frame = f,
                Err(_) => problems.push(param_error("frame", &value, "expected a frame number, like frame=40")),
            },
            "speed" => match parse_decimal(&value).filter(|v| v.is_finite() && (MIN_SPEED..=MAX_SPEED).contains(v)) {
                Some(v) => speed = v,
                None => problems.push(param_error("speed", &value, format!("expected a number from {MIN_SPEED} to {MAX_SPEED}"))),
            },
            "embed" => embed = flag("embed", &value, &mut problems),
            "gc" => {
                if matches!(value.as_str(), "1" | "true" | "" | "0" | "false") {
                    gc_steps = Some(flag("gc", &value, &mut problems));
                } else {
                    flag("gc", &value, &mut problems);
                }
            }
            "autoplay" => layout.autoplay = flag("autoplay", &value, &mut problems),
            "lesson" => lesson = flag("lesson", &value, &mut problems),
            "compare" => match super::compare::parse_vs(&value) {
                Ok(vs) => layout.compare = Some(vs),
                Err(e) => problems.push(e),
            },
            "step" => match value.parse::<usize>() {
                Ok(n) if n >= 1 => step = Some((n, value)),
                _ => problems.push(param_error("step", &value, "expected a lesson step, counted from 1, like step=3")),
            },
            "panels" => {
                let mut shown = Vec::new();
                for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    match PanelId::parse(name) {
                        Some(p) if !shown.contains(&p) => shown.push(p),
                        Some(_) => {}
                        None => problems.push(param_error(
                            "panels",
                            name,
                            "unknown panel; known: cluster, watch, cache, expectations, workqueue, reconcile, observations, invariants, timeline, spacetime",
                        )),
                    }
                }
                // Shown in the page's order, whatever the URL's.
                shown.sort_by_key(|p| PanelId::ALL.iter().position(|q| q == p));
                // `panels=` (empty) asks for none; names that are all unknown ask for nothing known.
                if shown.is_empty() && !value.trim().is_empty() {
                    problems.push(param_error("panels", &value, "names no known panel; all are shown"));
                    layout.panels = None;
                } else {
                    layout.panels = Some(shown);
                }
            }
            "controls" => {
                match [ControlsMode::None, ControlsMode::Transport, ControlsMode::All].into_iter().find(|m| m.as_str() == value) {
                    Some(m) => layout.controls = Some(m),
                    None => problems.push(param_error("controls", &value, "expected none, transport or all")),
                }
            }
            "origin" => {
                if !is_origin(&value) {
                    problems.push(param_error(
                        "origin",
                        &value,
                        "expected an origin like https://courses.example.org; no message will be obeyed",
                    ));
                }
                layout.origin = Some(value);
            }
            k if k.contains('.') || k == "seed" || k == "until_ms" => raw_settings.push((key, value)),
            _ => problems.push(param_error(&key, &value, format!("unknown URL parameter; {KNOWN}"))),
        }
    }
    if seen.iter().any(|k| k == "z") && seen.iter().any(|k| k == "scenario") {
        problems.push(param_error(custom_from, "", "give either z or scenario, not both: the last given is used"));
    }
    if preset_name.is_some() && custom.is_some() {
        problems.push(param_error(
            custom_from,
            "",
            format!("give either s (a preset) or {custom_from} (a scenario document), not both: the {custom_from} is used"),
        ));
        preset_name = None;
    }
    let default = || preset(default_preset).expect("the default preset exists");
    let base = match &custom {
        Some(json) => match Scenario::from_json(json) {
            Ok(s) => Some(s),
            Err(mut e) => {
                e.field = if e.field.is_empty() {
                    format!("URL parameter {custom_from}")
                } else {
                    format!("URL parameter {custom_from}: {}", e.field)
                };
                problems.push(e);
                custom = None;
                None
            }
        },
        None => {
            let name = preset_name.clone().unwrap_or_else(|| default_preset.to_string());
            match preset(&name) {
                Ok(s) => Some(s),
                Err(e) => {
                    problems.push(param_error("s", &name, e.message));
                    preset_name = None;
                    None
                }
            }
        }
    };
    // The link named a scenario the page could not use: a refused document,
    // one that could not even be unpacked, or an unknown preset.
    let fell_back = base.is_none() || asked_custom && custom.is_none();
    // Settings one at a time, so each bad one is named and the good ones still apply.
    let mut scenario = base.unwrap_or_else(default);
    let mut settings = Vec::new();
    for (path, value) in raw_settings {
        match scenario.with_settings([(path.as_str(), value.as_str())]) {
            Ok(next) => {
                scenario = next;
                settings.push((path, value));
            }
            Err(e) => problems.push(e),
        }
    }
    // A scale is bounded by its owner's kind (1,000 voices, 5,000 replicas)
    // and by the work budget, with the scenario's other objects.
    let owner = super::session::owner_of(&scenario);
    edits.retain(|e| match (e.change, &owner) {
        (super::session::Change::Action(super::session::UiAction::Scale(to)), Some((kind, key))) => {
            let max = crate::scenario::settings::desired_max(*kind);
            let problem = if u64::from(to) > max {
                Some(format!("a {kind} scales to 0 to {max}"))
            } else {
                scenario.check_budget_with_scale(*kind, &key.name, to).err().map(|b| b.message)
            };
            if let Some(p) = &problem {
                problems.push(param_error("edit", &e.to_string(), p.clone()));
            }
            problem.is_none()
        }
        _ => true,
    });
    // Run B's settings, each one checked against the scenario.
    if let Some(vs) = &layout.compare {
        if let Err(e) = super::compare::run_b(&scenario, vs) {
            problems.push(param_error("compare", &e.field, e.message));
            layout.compare = None;
        }
    }
    // The lesson, at its step: only where the scenario has one, and never the
    // lesson of a fallback the link did not ask for.
    if lesson && fell_back {
        problems.push(param_error(
            "lesson",
            "1",
            format!(
                "not started: the scenario this link names could not be used, and {} in its place is not the lesson it meant",
                scenario.name
            ),
        ));
        lesson = false;
        step = None;
    }
    let steps = scenario.lesson.len();
    if lesson && steps == 0 {
        problems.push(param_error("lesson", "1", format!("{} has no lesson", scenario.name)));
    }
    if let (Some((_, raw)), false) = (&step, lesson && steps > 0) {
        if lesson || steps > 0 {
            problems.push(param_error("step", raw, "a step needs lesson=1 and a scenario with a lesson"));
        } else {
            problems.push(param_error("step", raw, format!("{} has no lesson", scenario.name)));
        }
    }
    layout.lesson = (lesson && steps > 0).then(|| match step {
        Some((n, raw)) if n > steps => {
            problems.push(param_error("step", &raw, format!("the lesson has {steps} steps; it starts at the first")));
            0
        }
        Some((n, _)) => n - 1,
        None => 0,
    });
    let state = PageState {
        preset: if custom.is_some() { None } else { Some(preset_name.unwrap_or_else(|| default_preset.to_string())) },
        scenario,
        custom,
        settings,
        edits,
        frame,
        speed,
        embed,
        layout,
        gc_steps,
    };
    Parsed { state, problems, fell_back }
}

/// The query string for a state (with the leading `?`). Defaults are left out.
pub fn encode(state: &PageState) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    match (&state.preset, &state.custom) {
        (_, Some(json)) => {
            q.append_pair("z", &pack(json));
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
    if let Some(show) = state.gc_steps {
        q.append_pair("gc", if show { "1" } else { "0" });
    }
    if state.embed {
        q.append_pair("embed", "1");
    }
    let layout = &state.layout;
    if let Some(panels) = &layout.panels {
        q.append_pair("panels", &panels.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(","));
    }
    if let Some(c) = layout.controls {
        q.append_pair("controls", c.as_str());
    }
    if layout.autoplay {
        q.append_pair("autoplay", "1");
    }
    if let Some(o) = &layout.origin {
        q.append_pair("origin", o);
    }
    if let Some(vs) = &layout.compare {
        q.append_pair("compare", &vs.iter().map(|(p, v)| format!("{p}={v}")).collect::<Vec<_>>().join(";"));
    }
    if let Some(step) = layout.lesson {
        q.append_pair("lesson", "1");
        if step > 0 {
            q.append_pair("step", &(step + 1).to_string());
        }
    }
    let s = q.finish();
    if s.is_empty() {
        String::new()
    } else {
        format!("?{s}")
    }
}

/// The runner's command line for a preset run with these settings, e.g.
/// `cachescope run over-create --set controller.naming=generate`; `None` for a
/// scenario given whole (export it, then `cachescope run file.json`).
pub fn runner_command(state: &PageState) -> Option<String> {
    let quote = |v: &str| {
        // `[` and `]` are globs to zsh (and `*`, `?` to every shell): quoted.
        if !v.is_empty() && v.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.=:/,".contains(&b)) {
            v.to_string()
        } else {
            format!("'{}'", v.replace('\'', r"'\''"))
        }
    };
    let preset = state.preset.as_deref().filter(|_| state.custom.is_none())?;
    let mut cmd = format!("cachescope run {}", quote(preset));
    for (k, v) in &state.settings {
        cmd.push_str(" --set ");
        cmd.push_str(&quote(&format!("{k}={v}")));
    }
    Some(cmd)
}

/// The `<iframe>` a course author pastes: `src` is the page's absolute URL
/// with the state and `embed=1`; `title` names it for screen readers.
pub fn iframe_snippet(src: &str, title: &str) -> String {
    use super::xml::escape;
    format!(
        r#"<iframe src="{}" width="800" height="500" title="{}" loading="lazy" allow="clipboard-write"></iframe>"#,
        escape(src),
        escape(title)
    )
}

/// A speed as the URL and the label show it: `2`, `0.25`, `31.6` (integer
/// arithmetic: no float formatting in the page).
pub fn format_speed(speed: f64) -> String {
    // Two significant figures: the slider's steps are powers of 10^(1/20)
    // (5.0119…), which say themselves as the round figures they stand for (5).
    let (scaled, decimals) = match speed {
        s if s >= 10.0 => (s.round() as u64, 0),
        s if s >= 1.0 => ((s * 10.0).round() as u64, 1),
        s => ((s * 100.0).round() as u64, 2),
    };
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
        assert!(q.starts_with("?z="), "packed: {q}");
        let s = parse_query(&q, "over-create").unwrap();
        assert_eq!(s.scenario.name, "mine");
        assert_eq!((s.preset, s.custom.as_deref()), (None, Some(json)));
        // Written by hand as plain JSON, it opens too.
        let plain = format!("scenario={}", form_urlencoded::byte_serialize(json.as_bytes()).collect::<String>());
        assert_eq!(parse_query(&plain, "over-create").unwrap().scenario.name, "mine");
    }

    #[test]
    fn packed_scenarios_are_compact_and_checked() {
        for name in crate::scenario::preset_names() {
            let json = crate::scenario::preset(name).unwrap().to_value().to_string();
            let packed = pack(&json);
            assert_eq!(unpack(&packed).unwrap(), json);
            let plain: usize = form_urlencoded::byte_serialize(json.as_bytes()).map(str::len).sum();
            assert!(packed.len() * 10 < plain * 6, "{name}: packed {} vs URL-encoded {plain}", packed.len());
            assert!(packed.len() < MAX_SHARED_PACKED);
        }
        for bad in ["not*base64", "AAAA", &pack("{\"name\":").replace('A', "B")] {
            let e = parse_query(&format!("z={bad}"), "over-create").unwrap_err().to_string();
            assert!(e.contains("URL parameter z"), "{bad}: {e}");
        }
        // A packed bomb stops at the limit instead of allocating without bound.
        let bomb = pack(&" ".repeat(MAX_UNPACKED + 1));
        assert!(unpack(&bomb).is_err());
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
    fn a_bad_parameter_is_reported_and_the_good_ones_still_apply() {
        let q = "s=empty-cache&cluster.watch_lag_ms=-5&controller.naming=generate&frame=ten&colour=red&panels=cache,bogus,cluster&speed=2";
        let Parsed { state, problems, .. } = parse_query_lenient(q, "over-create");
        assert_eq!(state.preset.as_deref(), Some("empty-cache"));
        assert_eq!(state.scenario.controller.naming, crate::sim::controllers::Naming::Generate, "the good setting applies");
        assert_eq!(state.scenario.cluster.watch_lag_ms, preset("empty-cache").unwrap().cluster.watch_lag_ms, "the bad one does not");
        assert_eq!(state.settings, [("controller.naming".to_string(), "generate".to_string())]);
        assert_eq!((state.frame, state.speed), (0, 2.0));
        assert_eq!(state.layout.panels, Some(vec![PanelId::Cluster, PanelId::Cache]), "known panels, in the page's order");
        let said: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        assert_eq!(said.len(), 4, "{said:#?}");
        for (needle, value) in [
            ("cluster.watch_lag_ms", "-5"),
            ("URL parameter frame", "ten"),
            ("URL parameter colour", "red"),
            ("URL parameter panels", "bogus"),
        ] {
            assert!(said.iter().any(|p| p.contains(needle) && p.contains(value)), "{needle}={value} named in {said:#?}");
        }
    }

    #[test]
    fn an_unknown_preset_or_a_broken_scenario_opens_the_default_and_says_so() {
        let Parsed { state, problems, .. } = parse_query_lenient("s=over-creat&controller.naming=generate", "over-create");
        assert_eq!(state.preset.as_deref(), Some("over-create"));
        assert_eq!(state.scenario.controller.naming, crate::sim::controllers::Naming::Generate);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].to_string().contains("URL parameter s") && problems[0].to_string().contains("over-creat"));
        let Parsed { state, problems, fell_back } = parse_query_lenient("scenario=%7B%22name%22%3A1%7D", "over-create");
        assert_eq!((state.preset.as_deref(), state.custom.as_deref()), (Some("over-create"), None));
        assert!(problems[0].to_string().starts_with("URL parameter scenario"), "{}", problems[0]);
        assert!(fell_back);
    }

    #[test]
    fn a_lesson_is_never_the_fallbacks() {
        // over-create has a lesson; the link asked for another scenario's, which could not be used.
        let Parsed { state, problems, fell_back } = parse_query_lenient("scenario=%7B%22name%22%3A1%7D&lesson=1&step=2", "over-create");
        assert!(fell_back);
        assert_eq!(state.layout.lesson, None, "over-create's lesson is not started in its place");
        let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
        assert!(said.iter().any(|p| p.starts_with("URL parameter lesson") && p.contains("not started")), "{said:#?}");
        let Parsed { state, fell_back, .. } = parse_query_lenient("s=over-create&lesson=1", "over-create");
        assert!(!fell_back);
        assert_eq!(state.layout.lesson, Some(0));
        // A z= cut short, which cannot even be unpacked, names no usable scenario either.
        let Parsed { state, fell_back, .. } = parse_query_lenient("z=q1Y&lesson=1", "over-create");
        assert!(fell_back);
        assert_eq!(state.layout.lesson, None);
    }

    #[test]
    fn embed_options_round_trip_and_default_by_mode() {
        let q = "?s=over-create&embed=1&panels=cluster%2Ccache%2Cexpectations&controls=none&autoplay=1&origin=https%3A%2F%2Fcourses.example.org";
        let s = parse_query(q, "over-create").unwrap();
        assert_eq!(s.shown_panels(), [PanelId::Cluster, PanelId::Cache, PanelId::Expectations]);
        assert_eq!(
            (s.controls_mode(), s.layout.autoplay, s.layout.origin.as_deref()),
            (ControlsMode::None, true, Some("https://courses.example.org"))
        );
        assert_eq!(encode(&s), q);
        let plain = parse_query("embed=1", "over-create").unwrap();
        assert_eq!((plain.shown_panels(), plain.controls_mode()), (PanelId::EMBED.to_vec(), ControlsMode::Transport));
        let full = parse_query("", "over-create").unwrap();
        assert_eq!((full.shown_panels(), full.controls_mode()), (PanelId::ALL.to_vec(), ControlsMode::All));
        for bad in ["origin=courses.example.org", "origin=https%3A%2F%2Fa.org%2Fpath", "controls=some", "autoplay=yes"] {
            assert!(parse_query(bad, "over-create").is_err(), "{bad}");
        }
    }

    #[test]
    fn the_runner_command_reproduces_a_preset_run() {
        let s = parse_query("s=over-create&controller.naming=generate&cluster.watch_lag_ms=800&seed=7", "over-create").unwrap();
        assert_eq!(
            runner_command(&s).as_deref(),
            Some("cachescope run over-create --set controller.naming=generate --set cluster.watch_lag_ms=800 --set seed=7")
        );
        let odd = PageState { settings: vec![("controller.namespace".into(), "it's here".into())], ..s.clone() };
        assert_eq!(runner_command(&odd).as_deref(), Some(r"cachescope run over-create --set 'controller.namespace=it'\''s here'"));
        let custom = PageState { preset: None, custom: Some("{}".into()), ..s };
        assert_eq!(runner_command(&custom), None);
    }

    #[test]
    fn the_iframe_snippet_escapes_its_attributes() {
        let s = iframe_snippet("https://x.org/c/?s=over-create&embed=1", "cachescope: \"mine\" <b>");
        assert_eq!(
            s,
            r#"<iframe src="https://x.org/c/?s=over-create&amp;embed=1" width="800" height="500" title="cachescope: &quot;mine&quot; &lt;b&gt;" loading="lazy" allow="clipboard-write"></iframe>"#
        );
    }

    #[test]
    fn the_lesson_and_its_step_round_trip_and_bad_ones_are_named() {
        let s = parse_query("s=over-create&lesson=1&step=3", "over-create").unwrap();
        assert_eq!(s.layout.lesson, Some(2));
        assert_eq!(encode(&s), "?s=over-create&lesson=1&step=3");
        assert_eq!(parse_query("s=over-create&lesson=1", "over-create").unwrap().layout.lesson, Some(0));
        assert_eq!(parse_query("s=over-create", "over-create").unwrap().layout.lesson, None);
        let steps = preset("over-create").unwrap().lesson.len();
        for (q, field, says) in [
            ("s=over-create&lesson=1&step=0", "URL parameter step", "counted from 1"),
            (&format!("s=over-create&lesson=1&step={}", steps + 1) as &str, "URL parameter step", "it starts at the first"),
            ("s=over-create&step=2", "URL parameter step", "needs lesson=1"),
            ("s=over-create&lesson=maybe", "URL parameter lesson", "maybe"),
        ] {
            let Parsed { problems, .. } = parse_query_lenient(q, "over-create");
            assert!(problems.iter().any(|p| p.field == field && p.to_string().contains(says)), "{q}: {problems:?}");
        }
        let bare = r#"{"name":"bare","controller":{"kind":"ensemble"}}"#;
        let q = format!("scenario={}&lesson=1", bare.replace('{', "%7B").replace('}', "%7D").replace('"', "%22"));
        let Parsed { state, problems, .. } = parse_query_lenient(&q, "over-create");
        assert_eq!(state.layout.lesson, None);
        assert!(problems.iter().any(|p| p.field == "URL parameter lesson" && p.to_string().contains("bare has no lesson")), "{problems:?}");
    }

    #[test]
    fn compare_round_trips_and_a_bad_setting_is_named() {
        let s = parse_query("s=over-create&compare=controller.naming%3Dgenerate%3Bcluster.watch_lag_ms%3D500", "over-create").unwrap();
        assert_eq!(
            s.layout.compare,
            Some(vec![("controller.naming".into(), "generate".into()), ("cluster.watch_lag_ms".into(), "500".into())])
        );
        assert_eq!(parse_query(&encode(&s), "over-create").unwrap(), s);
        let Parsed { state, problems, .. } = parse_query_lenient("s=over-create&compare=controller.naming%3Dsometimes", "over-create");
        assert_eq!(state.layout.compare, None);
        assert!(problems.iter().any(|p| p.field == "URL parameter compare" && p.to_string().contains("sometimes")), "{problems:?}");
        let Parsed { problems, .. } = parse_query_lenient("s=over-create&compare=naming", "over-create");
        assert!(problems.iter().any(|p| p.to_string().contains("PATH=VALUE")), "{problems:?}");
    }

    #[test]
    fn speeds_print_short() {
        assert_eq!(format_speed(2.0), "2");
        assert_eq!(format_speed(0.25), "0.25");
        assert_eq!(format_speed(31.62), "32");
        assert_eq!(format_speed(speed_of_step(step_of_speed(5.0))), "5", "speed=5 is the slider's 5.0119, said as 5");
        assert_eq!(format_speed(speed_of_step(step_of_speed(2.5))), "2.5");
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
