//! The Timeline: the audit log and the controller's log, newest last.

use crate::sim::apiserver::AuditEntry;
use crate::sim::frame::{Event, Frame};

/// One line of the Timeline: an audit entry or a controller log line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TimelineEntry {
    Audit { frame: u64, entry: AuditEntry },
    Log { frame: u64, at_ms: u64, text: String },
}

/// How far back the Timeline looks for lines: it is redrawn on every played
/// frame, so it must not scan a long run from the start.
const TIMELINE_LOOKBACK: usize = crate::narrate::run::LOOKBACK;

/// The last `limit` audit entries and log lines up to the current frame (within
/// the last [`TIMELINE_LOOKBACK`] frames), newest last.
pub fn timeline(frames: &[Frame], limit: usize) -> (Vec<TimelineEntry>, Vec<TimelineEntry>) {
    let mut audit = Vec::new();
    let mut logs = Vec::new();
    for f in frames.iter().rev().take(TIMELINE_LOOKBACK) {
        if audit.len() >= limit && logs.len() >= limit {
            break;
        }
        match &f.event {
            Event::ApiRequest { entry, .. } if audit.len() < limit => audit.push(TimelineEntry::Audit { frame: f.n, entry: entry.clone() }),
            Event::ReconcileNote { note, .. } if logs.len() < limit => {
                if let Some(text) = crate::narrate::frame::log_line(note) {
                    logs.push(TimelineEntry::Log { frame: f.n, at_ms: f.at_ms, text });
                }
            }
            Event::ReconcileFinished { key, error: Some(e), .. } if logs.len() < limit => logs.push(TimelineEntry::Log {
                frame: f.n,
                at_ms: f.at_ms,
                text: format!("error reconciling {key}: {}", crate::narrate::frame::error_words(e)),
            }),
            Event::ControllerExited { code, error, .. } if logs.len() < limit => logs.push(TimelineEntry::Log {
                frame: f.n,
                at_ms: f.at_ms,
                text: match error {
                    Some(e) => format!("{}\nexit status {code}", crate::narrate::frame::error_words(e)),
                    None => format!("exit status {code}"),
                },
            }),
            _ => {}
        }
    }
    audit.reverse();
    logs.reverse();
    (audit, logs)
}

#[cfg(test)]
mod tests {
    use super::super::observations::observations;
    use super::*;
    use crate::scenario::preset;
    use crate::sim::apiserver::Verb;
    use crate::view::session::Session;

    #[test]
    fn timeline_has_audit_and_logs() {
        let mut s = Session::new(preset("empty-cache").unwrap());
        s.seek(usize::MAX);
        let (audit, logs) = timeline(&s.frames()[..s.position()], 10);
        assert_eq!(audit.len(), 10);
        // The last lines are the pruner's deletes, each an ordinary 200 OK.
        assert!(audit
            .iter()
            .all(|e| matches!(e, TimelineEntry::Audit { entry, .. } if entry.verb == Verb::Delete && entry.status.code == 200)));
        assert!(logs.iter().any(|l| matches!(l, TimelineEntry::Log { text, .. } if text.starts_with("DELETE (not in cache)"))));
        assert!(matches!(logs.last(), Some(TimelineEntry::Log { text, .. }) if text == "exit status 0"));
        let o = observations(s.world());
        assert_eq!((o.in_cluster, o.peak_in_cluster), (0, 50));
        assert_eq!(o.deletes, vec![(200, 50)]);
    }
}
