//! The host-page API: messages a course page posts to an embedded cachescope
//! (`window.postMessage`), and the ones cachescope posts back to its parent.
//! Plain JSON in and out, so the protocol is tested natively; `ui` only moves
//! the strings across `postMessage`.
//!
//! In: `{"cachescope": "play" | "pause" | "step" | "back" | "reset"}`,
//! `{"cachescope": "seek", "frame": 40}`, `{"cachescope": "load", "scenario": {…}}`.
//! Out: `{"cachescope": "ready"}` once loaded, and after each frame change
//! `{"cachescope": "frame", "frame": 3, "time_ms": 2520, "last_frame": 85,
//! "at_end": false, "invariants": {…}}`, where each invariant is `{"held":
//! true}` or `{"held": false, "broken_at_frame": 7}` and `last_frame` is
//! `null` until the run's end is known. A lesson posts `{"cachescope":
//! "lesson", "event": "answered", "step": 2, "response": 8, "expected": 11,
//! "correct": false}` for each answer and `{"cachescope": "lesson", "event":
//! "completed", "score": {"raw": 3, "max": 4, "scaled": 0.75}}` at its end
//! (an xAPI result's shape); `{"cachescope": "resize", "height": 640}` when
//! the content's height changes.

use crate::scenario::Scenario;
use crate::sim::invariants::Invariant;
use serde_json::{json, Map, Value};

/// What a host page can ask.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Play,
    Pause,
    /// One frame forward.
    Step,
    /// One frame back.
    Back,
    /// To frame 0.
    Reset,
    Seek(usize),
    /// Open this scenario from frame 0.
    Load(Box<Scenario>),
}

/// The verbs, as the error for an unknown one lists them.
const VERBS: &str = "play, pause, step, back, reset, seek, load";

/// Reads a message (its JSON text). `Ok(None)`: not addressed to cachescope at
/// all (no `cachescope` key), which the page leaves alone. `Err`: addressed to
/// it but malformed, named by field and value.
pub fn parse(text: &str) -> Result<Option<Command>, String> {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return Ok(None);
    };
    let Some(obj) = value.as_object() else { return Ok(None) };
    let Some(verb) = obj.get("cachescope") else { return Ok(None) };
    let Some(verb) = verb.as_str() else {
        return Err(format!("message field cachescope: expected one of {VERBS} (got {verb})"));
    };
    let allowed: &[&str] = match verb {
        "seek" => &["cachescope", "frame"],
        "load" => &["cachescope", "scenario"],
        _ => &["cachescope"],
    };
    if let Some(extra) = obj.keys().find(|k| !allowed.contains(&k.as_str())) {
        let takes = if allowed.len() > 1 { allowed[1..].join(", ") } else { "no other field".to_string() };
        return Err(format!("message {verb:?}: unknown field {extra:?}; it takes {takes}"));
    }
    Ok(Some(match verb {
        "play" => Command::Play,
        "pause" => Command::Pause,
        "step" => Command::Step,
        "back" => Command::Back,
        "reset" => Command::Reset,
        "seek" => {
            let frame = obj.get("frame");
            match frame.and_then(Value::as_u64) {
                Some(n) => Command::Seek(usize::try_from(n).unwrap_or(usize::MAX)),
                None => {
                    let got = frame.map_or_else(|| "nothing".to_string(), Value::to_string);
                    return Err(format!("message \"seek\" field frame: expected a frame number, like 40 (got {got})"));
                }
            }
        }
        "load" => match obj.get("scenario") {
            Some(s @ Value::Object(_)) => {
                Command::Load(Box::new(Scenario::from_value(s.clone()).map_err(|e| format!("message \"load\" field scenario: {e}"))?))
            }
            other => {
                let got = other.map_or_else(|| "nothing".to_string(), Value::to_string);
                return Err(format!("message \"load\" field scenario: expected a scenario object (got {got})"));
            }
        },
        other => return Err(format!("message field cachescope: expected one of {VERBS} (got {other:?})")),
    }))
}

/// Posted once the page is ready for commands.
pub fn ready() -> String {
    json!({ "cachescope": "ready" }).to_string()
}

/// Posted after each frame change: `last_frame` once the end is known.
pub fn frame(frame: usize, time_ms: u64, last_frame: Option<usize>, invariants: &[Invariant]) -> String {
    frame_value(frame, time_ms, last_frame, invariants).to_string()
}

/// Where one run stands, for a `frame` message.
#[derive(Debug, Clone, Copy)]
pub struct RunAt<'a> {
    pub frame: usize,
    pub time_ms: u64,
    pub last_frame: Option<usize>,
    pub invariants: &'a [Invariant],
}

/// Posted after each move of two runs side by side (`compare=`): Run A's
/// fields as a single run's, and Run B's under `b`, alike.
pub fn frame_pair(a: RunAt<'_>, b: RunAt<'_>) -> String {
    let mut v = frame_value(a.frame, a.time_ms, a.last_frame, a.invariants);
    let mut run_b = frame_value(b.frame, b.time_ms, b.last_frame, b.invariants);
    if let Some(m) = run_b.as_object_mut() {
        m.remove("cachescope");
    }
    v["b"] = run_b;
    v.to_string()
}

fn frame_value(frame: usize, time_ms: u64, last_frame: Option<usize>, invariants: &[Invariant]) -> Value {
    let mut inv = Map::new();
    for i in invariants {
        let v = match i.first_broken_frame {
            None => json!({ "held": true }),
            Some(n) => json!({ "held": false, "broken_at_frame": n }),
        };
        inv.insert(i.name.to_string(), v);
    }
    let at_end = last_frame == Some(frame);
    json!({ "cachescope": "frame", "frame": frame, "time_ms": time_ms, "last_frame": last_frame, "at_end": at_end, "invariants": inv })
}

/// A lesson's answer or choice, as a message carries it: a number stays one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    Number(u64),
    Text(String),
}

impl Said {
    fn value(&self) -> Value {
        match self {
            Said::Number(n) => json!(n),
            Said::Text(t) => json!(t),
        }
    }
}

/// Posted when the learner answers lesson step `step` (1-based).
pub fn lesson_answered(step: usize, response: &Said, expected: &Said, correct: bool) -> String {
    json!({ "cachescope": "lesson", "event": "answered", "step": step, "response": response.value(), "expected": expected.value(), "correct": correct })
        .to_string()
}

/// Posted when the last step is answered: the score as an xAPI result has it.
pub fn lesson_completed(raw: usize, max: usize) -> String {
    let scaled = if max == 0 { 0.0 } else { raw as f64 / max as f64 };
    json!({ "cachescope": "lesson", "event": "completed", "score": { "raw": raw, "max": max, "scaled": (scaled * 1000.0).round() / 1000.0 } })
        .to_string()
}

/// Posted when the page's content height changes, so a host can size its iframe.
pub fn resize(height: u32) -> String {
    json!({ "cachescope": "resize", "height": height }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    #[test]
    fn a_pair_of_runs_posts_both_where_one_posts_one() {
        let inv = crate::sim::invariants::Invariants::new().list;
        let a = RunAt { frame: 19, time_ms: 2720, last_frame: Some(78), invariants: &inv };
        let b = RunAt { frame: 20, time_ms: 2720, last_frame: None, invariants: &inv };
        let v: Value = serde_json::from_str(&frame_pair(a, b)).unwrap();
        let one: Value = serde_json::from_str(&frame(19, 2720, Some(78), &inv)).unwrap();
        for key in ["cachescope", "frame", "time_ms", "last_frame", "at_end", "invariants"] {
            assert_eq!(v[key], one[key], "{key}: Run A's fields as a single run's");
        }
        assert_eq!(v["b"]["frame"], 20);
        assert_eq!(v["b"]["last_frame"], Value::Null);
        assert_eq!(v["b"]["at_end"], false);
        assert!(v["b"].get("cachescope").is_none());
        assert_eq!(v["b"]["invariants"], one["invariants"]);
    }

    #[test]
    fn every_verb_parses() {
        for (text, want) in [
            (r#"{"cachescope":"play"}"#, Command::Play),
            (r#"{"cachescope":"pause"}"#, Command::Pause),
            (r#"{"cachescope":"step"}"#, Command::Step),
            (r#"{"cachescope":"back"}"#, Command::Back),
            (r#"{"cachescope":"reset"}"#, Command::Reset),
            (r#"{"cachescope":"seek","frame":40}"#, Command::Seek(40)),
        ] {
            assert_eq!(parse(text), Ok(Some(want)), "{text}");
        }
        let over = preset("over-create").unwrap();
        let text = json!({ "cachescope": "load", "scenario": over.to_value() }).to_string();
        assert_eq!(parse(&text), Ok(Some(Command::Load(Box::new(over)))));
    }

    #[test]
    fn a_host_page_loads_a_counterexample_with_its_schedule() {
        // What Find a bug and cachescope explore --out write: the scenario with its schedule.
        let s = preset("over-create").unwrap().with_settings([("controller.naming", "generate"), ("cluster.watch_lag_ms", "0")]).unwrap();
        let found = crate::explore::explore(&s, &crate::explore::Options::default()).violation.expect("a violation");
        let c = crate::explore::counterexample(&s, &found).expect("a counterexample within the limits");
        let text = json!({ "cachescope": "load", "scenario": c.to_value() }).to_string();
        let Ok(Some(Command::Load(loaded))) = parse(&text) else { panic!("{text}") };
        assert_eq!(loaded.schedule, found.schedule);
        let run = crate::report::Report::run(&loaded);
        assert_eq!(run.invariants[found.invariant.as_str()].first_broken_frame, Some(found.frame));
    }

    #[test]
    fn lesson_messages_carry_the_answer_and_the_score() {
        let v: Value = serde_json::from_str(&lesson_answered(2, &Said::Number(8), &Said::Number(11), false)).unwrap();
        assert_eq!(v, json!({"cachescope": "lesson", "event": "answered", "step": 2, "response": 8, "expected": 11, "correct": false}));
        let v: Value = serde_json::from_str(&lesson_answered(4, &Said::Text("a".into()), &Said::Text("a".into()), true)).unwrap();
        assert_eq!((&v["response"], &v["correct"]), (&json!("a"), &json!(true)));
        let v: Value = serde_json::from_str(&lesson_completed(3, 4)).unwrap();
        assert_eq!(v, json!({"cachescope": "lesson", "event": "completed", "score": {"raw": 3, "max": 4, "scaled": 0.75}}));
        let v: Value = serde_json::from_str(&lesson_completed(1, 3)).unwrap();
        assert_eq!(v["score"]["scaled"], json!(0.333));
        assert_eq!(serde_json::from_str::<Value>(&resize(640)).unwrap(), json!({"cachescope": "resize", "height": 640}));
    }

    #[test]
    fn messages_for_someone_else_are_left_alone() {
        for text in ["", "42", r#""step""#, r#"{"type":"webpackOk"}"#, r#"[1,2]"#, "not json"] {
            assert_eq!(parse(text), Ok(None), "{text}");
        }
    }

    #[test]
    fn malformed_messages_name_the_field_and_the_value() {
        for (text, needles) in [
            (r#"{"cachescope":"jump"}"#, &["cachescope", "\"jump\"", "seek"][..]),
            (r#"{"cachescope":7}"#, &["cachescope", "7"]),
            (r#"{"cachescope":"seek"}"#, &["frame", "nothing"]),
            (r#"{"cachescope":"seek","frame":-1}"#, &["frame", "-1"]),
            (r#"{"cachescope":"seek","frame":"ten"}"#, &["frame", "\"ten\""]),
            (r#"{"cachescope":"step","frame":3}"#, &["\"step\"", "unknown field \"frame\""]),
            (r#"{"cachescope":"load"}"#, &["scenario", "nothing"]),
            (r#"{"cachescope":"load","scenario":{"name":"x","controler":{}}}"#, &["scenario", "controler"]),
        ] {
            let e = parse(text).expect_err(text);
            for n in needles {
                assert!(e.contains(n), "{text}: {n:?} in {e:?}");
            }
        }
    }

    #[test]
    fn the_frame_message_carries_the_frame_the_clock_and_each_invariant() {
        let mut inv = crate::sim::invariants::Invariants::default().list;
        assert!(inv.len() >= 2);
        inv[1].first_broken_frame = Some(7);
        let v: Value = serde_json::from_str(&frame(3, 2520, None, &inv)).unwrap();
        assert_eq!(v["cachescope"], "frame");
        assert_eq!((v["frame"].as_u64(), v["time_ms"].as_u64()), (Some(3), Some(2520)));
        assert_eq!((&v["last_frame"], &v["at_end"]), (&Value::Null, &json!(false)));
        let end: Value = serde_json::from_str(&frame(85, 5935, Some(85), &inv)).unwrap();
        assert_eq!((&end["last_frame"], &end["at_end"]), (&json!(85), &json!(true)));
        let before: Value = serde_json::from_str(&frame(84, 5935, Some(85), &inv)).unwrap();
        assert_eq!(before["at_end"], json!(false));
        assert_eq!(v["invariants"][inv[0].name], json!({ "held": true }));
        assert_eq!(v["invariants"][inv[1].name], json!({ "held": false, "broken_at_frame": 7 }));
        assert_eq!(serde_json::from_str::<Value>(&ready()).unwrap(), json!({ "cachescope": "ready" }));
    }
}
