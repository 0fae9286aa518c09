//! What a run is given: its seed and limits, the settings, the objects there
//! before it starts, the scenario's actions and the schedule's deviations
//! (`WorldInit`), as plain data. A leaf: it imports nothing of the world.

use crate::sim::apiserver::{FailMode, Propagation, Verb};
use crate::sim::informer::DropNext;
use crate::sim::object::{Kind, ObjectKey, ObjectTemplate};
use crate::sim::settings::{ClusterSettings, ControllerSettings};
use serde::{Deserialize, Serialize};

/// The most frames a run makes, natively and in the page alike: a run stops
/// here however much is still to happen. A big world's frames cost more (a
/// sync lists every child), so `scenario::limits::frame_limit` lowers it for
/// a scenario of many objects; this is the ceiling.
pub const FRAME_LIMIT: u64 = 200_000;

/// Everything a world is built from.
#[derive(Debug, Clone, Hash)]
pub struct WorldInit {
    pub seed: u64,
    pub until_ms: u64,
    /// The run stops after this many frames (a scenario gives at most
    /// [`FRAME_LIMIT`]; the benchmark asks for more).
    pub frame_limit: u64,
    /// The run stops after the frame that leaves the cluster holding more
    /// objects than this (a scenario gives its work budget's, 2,000): what a
    /// controller creates while an event is held counts too, not only what
    /// the scenario asks for.
    pub object_limit: u64,
    pub cluster: ClusterSettings,
    pub controller: ControllerSettings,
    /// Every kind of the run: the built-ins, then the scenario's own (`kinds`).
    pub kinds: Vec<Kind>,
    /// The scenario's own invariants (`invariants`), checked beside the built-in ones.
    pub invariants: Vec<crate::sim::invariants::Declared>,
    /// Objects that exist before the scenario starts (no requests, no events).
    pub objects: Vec<ObjectTemplate>,
    pub actions: Vec<Action>,
    /// Where this run departs from the default schedule: watch events held back.
    pub schedule: Vec<Deviation>,
    /// Which idle worker takes a key: `(k, w)`, the `k`th key taken from the
    /// workqueue over the run goes to worker `w` if it is idle (the lowest idle
    /// one otherwise, the default).
    pub takes: Vec<(u32, u32)>,
}

/// One choice a run makes differently from the default schedule, as a
/// scenario's `schedule` writes it: the `nth` watch event of `kind` the
/// apiserver sends (1-based, over the whole run), on its way to the
/// controller's informer, taken off its default timing in one of four ways
/// (exactly one): it arrives `late_ms` later than the lag says (the
/// explorer's choice), or `at_ms` into the run (the page's Deliver now and
/// Release), or is `hold`-ed (never arrives within the run), or is
/// `drop`-ped (lost on the wire). A watch is a stream: what is behind an
/// event never overtakes it. What the schedule explorer varies, and what a
/// counterexample carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Deviation {
    pub kind: Kind,
    pub nth: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(not(target_arch = "wasm32"), schemars(with = "u64"))]
    pub late_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub hold: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub drop: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Deviation {
    /// The `nth` event of `kind`, on its default timing (no way chosen yet).
    pub fn on_time(kind: Kind, nth: u32) -> Deviation {
        Deviation { kind, nth, late_ms: None, at_ms: None, hold: false, drop: false }
    }

    /// The explorer's kind: the `nth` event of `kind`, `late_ms` late.
    pub fn late(kind: Kind, nth: u32, late_ms: u64) -> Deviation {
        Deviation { kind, nth, late_ms: Some(late_ms), at_ms: None, hold: false, drop: false }
    }
}

/// A failure armed for the controller's requests with `verb` on `kind`
/// (`fail_next`): `passes` more such requests go through before it fails one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Armed {
    pub verb: Verb,
    pub kind: Kind,
    pub mode: FailMode,
    pub passes: u32,
}

/// A scenario action, resolved to what the world does.
#[derive(Debug, Clone, PartialEq, Hash)]
pub enum ActionKind {
    /// `kubectl apply`: create, or update if it exists.
    Apply(ObjectTemplate),
    /// `kubectl delete`, with `--cascade` as `propagation` (absent: background).
    Delete { kind: Kind, key: ObjectKey, propagation: Option<Propagation> },
    /// `kubectl scale`.
    Scale { kind: Kind, key: ObjectKey, to: u32 },
    /// Delete `count` pods of a ReplicaSet, one every `interval_ms`, chosen by the seeded RNG.
    DeletePods { owner: ObjectKey, count: u32, interval_ms: u64 },
    /// Drop the next event (of `event_type`, if given) on the controller's watch of `kind`.
    DropNextEvent { kind: Kind, what: DropNext },
    /// Kill the controller: its cache, queue and expectations are lost; it starts again.
    RestartController,
    /// The controller's watch of `kind` expires (410): the informer re-lists.
    Relist { kind: Kind },
    /// The controller's `nth` request with `verb` on `kind` from now (1: the
    /// next) fails as `mode` says.
    FailNext { verb: Verb, kind: Kind, mode: FailMode, nth: u32 },
    /// The controller's leader freezes for `for_ms`.
    PauseController { for_ms: u64 },
}

#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Action {
    pub at_ms: u64,
    pub kind: ActionKind,
}
