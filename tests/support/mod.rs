//! Shared helpers for the native integration tests: one data-driven way to run
//! a scenario and look at what happened.
#![allow(dead_code)]

use cachescope::narrate::caption;
use cachescope::report::{Report, TraceHasher};
use cachescope::scenario::{preset, Scenario};
use cachescope::sim::frame::Frame;
use cachescope::sim::world::World;

/// A finished run: the report, every frame, and the world at the end.
pub struct Run {
    pub scenario: Scenario,
    pub report: Report,
    pub frames: Vec<Frame>,
    pub world: World,
}

impl Run {
    /// Captions of frames `from..=to`, one per line, for failure messages.
    pub fn captions(&self, from: u64, to: u64) -> String {
        self.frames
            .iter()
            .filter(|f| f.n >= from && f.n <= to)
            .map(|f| format!("  #{:<5} {:>7} ms  {}", f.n, f.at_ms, caption(f)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// How a person replays this run: the command line and the frames up to `frame`.
    pub fn replay_hint(&self, frame: u64) -> String {
        format!(
            "replay: cachescope trace <scenario> --seed {} (scenario below)\n{}\nframes up to #{frame}:\n{}",
            self.scenario.seed,
            serde_json::to_string(&self.scenario).unwrap(),
            self.captions(frame.saturating_sub(40), frame)
        )
    }
}

/// Run a scenario to its end.
pub fn run_scenario(scenario: Scenario) -> Run {
    let mut world = World::new(scenario.world_init());
    let mut frames = Vec::new();
    let mut hasher = TraceHasher::default();
    while let Some(f) = world.step() {
        hasher.add(&f);
        frames.push(f);
    }
    let report = Report::of(&scenario, &world, &frames, &hasher);
    Run { scenario, report, frames, world }
}

/// Run a preset with `path=value` edits.
pub fn check(name: &str, sets: &[(&str, &str)]) -> Run {
    let scenario = preset(name).unwrap().with_settings(sets.iter().copied()).unwrap();
    run_scenario(scenario)
}
