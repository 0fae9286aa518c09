//! Two runs side by side, in words: where their audit logs part.

use super::panels::status_label;
use super::units::secs;
use crate::sim::apiserver::AuditEntry;

fn request_words(e: &AuditEntry) -> String {
    let what =
        if e.name.is_empty() { format!("{} {}", e.verb.as_str(), e.kind) } else { format!("{} of {} {}", e.verb.as_str(), e.kind, e.name) };
    format!("the {what} is answered {}", status_label(e.status.code, e.verb))
}

/// "Run A and Run B part at 2.72 s (frame 19 in both): in Run A the create of
/// ConfigMap beta-voice-0 is answered 409 AlreadyExists; in Run B, 201 Created."
pub fn divergence(at_ms: u64, frame_a: Option<u64>, frame_b: Option<u64>, a: Option<&AuditEntry>, b: Option<&AuditEntry>) -> String {
    let frames = match (frame_a, frame_b) {
        (Some(x), Some(y)) if x == y => format!("frame {x} in both"),
        (Some(x), Some(y)) => format!("frame {x} in Run A, {y} in Run B"),
        (Some(x), None) => format!("frame {x} in Run A"),
        (None, Some(y)) => format!("frame {y} in Run B"),
        (None, None) => "no frame".to_string(),
    };
    let side = |run: &str, e: Option<&AuditEntry>| match e {
        Some(e) => format!("in {run} {}", request_words(e)),
        None => format!("{run}'s log has ended"),
    };
    let b_words = match (a, b) {
        (Some(x), Some(y)) if x.verb == y.verb && x.kind == y.kind => format!("in Run B, {}", status_label(y.status.code, y.verb)),
        _ => side("Run B", b),
    };
    format!("Run A and Run B part at {} ({frames}): {}; {b_words}.", secs(at_ms), side("Run A", a))
}

/// A run's settings in words: the lab's, or what the link changed.
pub fn settings(changed: &[(String, String)]) -> String {
    if changed.is_empty() {
        "as the lab wrote it".to_string()
    } else {
        changed.iter().map(|(p, v)| format!("{p} = {v}")).collect::<Vec<_>>().join(", ")
    }
}

/// Each run's caption at frame 0: not the preset's first line, which asks
/// for a change the comparison has made already, with settings it hides.
pub const AT_START: &str = "Frame 0: nothing has happened yet. Play moves both runs together in simulated time.";

/// The caption before the runs reach their parting: where it is marked, not what it is.
pub const BEFORE_PARTING: &str =
    "Both runs move together in simulated time. ⚑ on each time line marks where their audit logs part: press Play, or step to it.";

/// The caption while both runs are computed, before anything can be compared.
pub fn computing(frames_a: usize, frames_b: usize) -> String {
    format!(
        "Computing both runs to their ends, to find where they part: Run A {}, Run B {}.",
        super::units::plural(frames_a as u64, "frame", "frames"),
        super::units::plural(frames_b as u64, "frame", "frames")
    )
}

/// Stopped before both ends were known: the parting is looked for in the frames computed.
pub fn stopped(frames_a: usize, frames_b: usize) -> String {
    format!(
        "Stopped after {} of Run A and {} of Run B: where they part is looked for in those, and the figures are theirs.",
        super::units::plural(frames_a as u64, "frame", "frames"),
        super::units::plural(frames_b as u64, "frame", "frames")
    )
}

/// Stopped before both ends, and no parting among the frames computed.
pub const SAME_SO_FAR: &str = "Run A and Run B send the same requests, answered alike, as far as they were computed.";

/// The transport's count while both runs are computed.
pub fn computing_short(frames_a: usize, frames_b: usize) -> String {
    format!("Computing: A {frames_a} · B {frames_b} frames")
}

/// A host page's `load`, which a comparison does not take.
pub const LOAD_IGNORED: &str =
    "Ignored load: this page compares two runs of the scenario its link names; a host changes them by changing the link.";

/// The two logs never part.
pub const SAME: &str = "Run A and Run B send the same requests, answered alike, all the way.";
