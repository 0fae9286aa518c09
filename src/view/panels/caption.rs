//! The caption at the session's position: the frame's own words, or the
//! lab's first line, or what the run came to, with what this run changed.

use super::wires::wires;
use crate::narrate::panels::{current_caption, HANDS_HINT};
use crate::sim::frame::Event;
use crate::view::session::Session;

/// The caption at the session's position. At frame 0 it is the lab's own
/// text, which speaks of the lab's settings: when the link set others, it says
/// which, so no sentence stands that this run contradicts unremarked. At the
/// run's last frame, once the session knows it is the last, it says what the
/// run came to ([`crate::narrate::run::end_summary`]); a reconcile's return says
/// what it sent ([`crate::narrate::run::reconcile_finished`]).
pub fn session_caption(s: &Session) -> String {
    if s.at_end() && s.position() > 0 {
        let summary = crate::narrate::run::end_summary(s.scenario(), s.world(), &s.frames()[..s.position()]);
        // A run stopped by its object limit says why it ended there.
        return match s.stopped_at_object_limit().filter(|(stop, _)| stop.frame as usize == s.position()) {
            Some((_, why)) => format!("{summary} {why}"),
            None => summary,
        };
    }
    if let Some(said) = s.last_frame().and_then(|_| crate::narrate::run::reconcile_finished(&s.frames()[..s.position()])) {
        return said;
    }
    // A frame the session hides (the garbage collector's own cache delivery)
    // is told as the moment before it: where stepping would have stopped.
    let caption = current_caption(s.last_shown_frame(), s.scenario());
    if s.last_frame().is_some() {
        // The last frame of a run stopped by its object limit says why it is the last.
        if let Some((_, why)) = s.stopped_at_object_limit().filter(|(stop, _)| stop.frame as usize == s.position()) {
            return format!("{caption} {why}");
        }
        return match first_events_in_flight(s) {
            true => format!("{caption} {HANDS_HINT}"),
            false => caption,
        };
    }
    let moved: Vec<String> = s
        .departures()
        .into_iter()
        .filter(|d| d.frame.is_none())
        .map(|d| match d.lab {
            Some(lab) => format!("{} is {} (the lab's: {lab})", d.what, d.now),
            None => format!("{} is {}", d.what, d.now),
        })
        .collect();
    if moved.is_empty() {
        caption
    } else {
        format!(
            "{caption} This run is not the lab's: {}; where the text above says otherwise, the run shows what these settings do.",
            moved.join(", ")
        )
    }
}

/// The run's first stretch with watch events on their way to the controller
/// and none delivered yet: where the caption points to the Watch panel's buttons.
fn first_events_in_flight(s: &Session) -> bool {
    let so_far = &s.frames()[..s.position()];
    !so_far.iter().any(|f| matches!(f.event, Event::WatchDelivered { .. }))
        && wires(s.world(), false, s.world().now_ms()).iter().any(|w| w.nth > 0 && !w.dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;

    #[test]
    fn a_hidden_garbage_collector_delivery_is_told_as_the_moment_before_it() {
        let mut s = crate::view::session::Session::new(preset("over-create").unwrap());
        assert!(s.hide_gc(), "over-create deletes no owner: the collector's deliveries are hidden");
        let mut seen = 0;
        while s.step_forward() {
            if s.hidden() {
                seen += 1;
                let said = session_caption(&s);
                assert!(!said.contains("garbage collector"), "frame {}: {said}", s.position());
                let shown = s.last_shown_frame().unwrap();
                assert!(said.starts_with(&crate::narrate::caption(shown)), "frame {}: {said}", s.position());
            }
        }
        assert!(seen > 0, "playback can stop on one");
    }

    #[test]
    fn the_first_events_in_flight_point_to_the_hands_on_them_once() {
        let mut s = crate::view::session::Session::new(preset("over-create").unwrap());
        let mut hinted = Vec::new();
        while s.step_forward() {
            if session_caption(&s).ends_with(HANDS_HINT) {
                hinted.push(s.position());
            }
        }
        assert!(!hinted.is_empty(), "over-create's first events in flight are pointed to");
        // One stretch, before the first delivery, and only where an event is on its way.
        let first_delivery = s.frames().iter().position(|f| matches!(f.event, Event::WatchDelivered { .. })).unwrap() + 1;
        assert!(hinted.iter().all(|&n| n < first_delivery), "{hinted:?} vs first delivery at {first_delivery}");
        assert!(hinted.windows(2).all(|w| w[1] == w[0] + 1), "one stretch: {hinted:?}");
    }

    #[test]
    fn the_first_caption_says_which_settings_are_not_the_labs() {
        let lab = crate::scenario::preset("over-create").unwrap();
        let moved = lab.with_settings([("cluster.watch_lag_ms", "0")]).unwrap();
        let s = Session::new(moved).with_base(lab.clone());
        let caption = session_caption(&s);
        // The preset's start line, not its whole description (that stays under "About this scenario").
        assert!(!lab.start.is_empty());
        assert!(caption.starts_with(lab.start.trim()), "{caption}");
        assert!(!caption.contains(lab.description.trim()), "{caption}");
        assert!(caption.contains("This run is not the lab's: cluster.watch_lag_ms is 0 (the lab's: 2000)"), "{caption}");
        assert_eq!(session_caption(&Session::new(lab.clone())), lab.start);
        // Without a start line, the description is the first caption, with how to begin.
        let mut plain = lab.clone();
        plain.start.clear();
        let caption = session_caption(&Session::new(plain));
        assert_eq!(caption, format!("{} Press Play, or → to step one frame.", lab.description.trim()));
    }

    /// A run that passes its object limit ends there, and the session says why.
    #[test]
    fn a_run_over_the_object_limit_ends_and_says_why() {
        let (_, held) = crate::scenario::limits::OVER_AT_RUN_TIME[2];
        let mut s = Session::new(crate::scenario::Scenario::from_json(held).unwrap());
        s.look_ahead(&mut |_| true);
        assert!(s.end_known());
        let (stop, why) = s.stopped_at_object_limit().expect("stopped at the object limit");
        assert_eq!((stop.live, stop.frame as usize), (2_001, s.frames().len()));
        assert!(why.contains("the 1st Pod event is held"), "{why}");
        assert_eq!(s.position(), 0, "computed ahead; the learner is where they were");
        s.seek(usize::MAX);
        assert!(s.at_end());
        assert!(session_caption(&s).contains("the cluster holds 2,001 objects"), "the caption at the last frame says so");
    }
}
