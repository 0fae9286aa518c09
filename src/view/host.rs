//! The host-page API: messages a course page posts to an embedded cachescope
//! (`window.postMessage`), and the ones cachescope posts back to its parent.
//! Plain JSON in and out, so the protocol is tested natively; `ui` only moves
//! the strings across `postMessage`.
//!
//! In: `{"cachescope": "play" | "pause" | "step" | "back" | "reset"}`,
//! `{"cachescope": "seek", "frame": 40}`, `{"cachescope": "load", "scenario": {…}}`.
//! Out: `{"cachescope": "ready"}` once loaded, and after each frame change
//! `{"cachescope": "frame", "frame": 3, "time_ms": 2520, "invariants": {…}}`,
//! where each invariant is `{"held": true}` or `{"held": false, "broken_at_frame": 7}`.

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

/// Posted after each frame change.
pub fn frame(frame: usize, time_ms: u64, invariants: &[Invariant]) -> String {
    let mut inv = Map::new();
    for i in invariants {
        let v = match i.first_broken_frame {
            None => json!({ "held": true }),
            Some(n) => json!({ "held": false, "broken_at_frame": n }),
        };
        inv.insert(i.name.to_string(), v);
    }
    json!({ "cachescope": "frame", "frame": frame, "time_ms": time_ms, "invariants": inv }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

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
        let v: Value = serde_json::from_str(&frame(3, 2520, &inv)).unwrap();
        assert_eq!(v["cachescope"], "frame");
        assert_eq!((v["frame"].as_u64(), v["time_ms"].as_u64()), (Some(3), Some(2520)));
        assert_eq!(v["invariants"][inv[0].name], json!({ "held": true }));
        assert_eq!(v["invariants"][inv[1].name], json!({ "held": false, "broken_at_frame": 7 }));
        assert_eq!(serde_json::from_str::<Value>(&ready()).unwrap(), json!({ "cachescope": "ready" }));
    }
}
