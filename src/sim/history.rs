//! Time travel that knows nothing of Kubernetes: seek to any frame, step back,
//! and fork the future after a change in the past.
//!
//! A model is anything `Clone` with a deterministic `step`. The history keeps
//! every frame and a checkpoint (a clone of the model) every `interval` frames;
//! seeking back restores the nearest checkpoint at or before the target and
//! replays at most `interval - 1` frames. Objects are shared behind `Rc`, so a
//! checkpoint costs the maps' nodes, not copies of every object.
//!
//! Checkpoints are bounded: at most [`MAX_CHECKPOINTS`], weighing at most
//! [`CHECKPOINT_BYTES`] in all (by the model's own estimate, [`Model::weight`]).
//! When a new one would break either bound, the interval doubles and every
//! checkpoint off the new spacing goes (the first and the forks stay), so a
//! run of any length holds a fixed amount of model state, and seeking replays
//! at most one interval: 512 frames early in a run, 2,048 at a million
//! frames of a thousand-pod ReplicaSet (`make bench`: under 10 ms a seek).
//!
//! A fork (a change made at some position) is a checkpoint too, and a marked
//! one: replaying through that position swaps in the changed model, so the
//! change holds however the learner travels back and forth.

/// A deterministic state machine.
pub trait Model: Clone {
    type Frame: Clone + PartialEq + std::fmt::Debug;
    /// The next frame, or `None` when nothing is left to happen.
    fn step(&mut self) -> Option<Self::Frame>;
    /// About how many bytes a clone of the model holds (what a checkpoint costs).
    fn weight(&self) -> usize {
        std::mem::size_of::<Self>()
    }
}

/// The distance between checkpoints at the start of a run.
pub(crate) const DEFAULT_INTERVAL: usize = 512;

/// The most regular checkpoints kept (the first and the forks besides).
pub(crate) const MAX_CHECKPOINTS: usize = 512;

/// The most the checkpoints may weigh in all, by [`Model::weight`]. Sized so
/// a thousand-pod world (about 355 KB a checkpoint) keeps them 2,048 frames
/// apart up to a million frames: at 4,096 a seek replays up to 15 ms of frames.
pub const CHECKPOINT_BYTES: usize = 192 << 20;

/// Frames seen so far, checkpoints, and the model at the current position.
#[derive(Debug, Clone)]
pub struct History<M: Model> {
    interval: usize,
    /// The model after `k` frames, for `k` a multiple of `interval` or a fork position.
    /// Kept sorted by position (checkpoints are only ever added past the
    /// last one, or after truncating at a fork).
    checkpoints: Vec<(usize, M)>,
    /// Positions where the model was changed.
    forks: Vec<usize>,
    /// The checkpoints' weight, and the most there may be, in count and in weight.
    weight: usize,
    max_checkpoints: usize,
    max_weight: usize,
    frames: Vec<M::Frame>,
    current: M,
    /// How many frames `current` has taken.
    position: usize,
    /// The model has said it has nothing more, at `frames.len()`.
    ended: bool,
    /// The model after all `frames.len()` frames, when the position is behind
    /// it: where [`History::extend`] computes the future without moving the
    /// position (and, once `ended`, the model as it ended).
    tip: Option<M>,
}

impl<M: Model> History<M> {
    pub fn new(model: M) -> Self {
        Self::with_interval(model, DEFAULT_INTERVAL)
    }

    pub(crate) fn with_interval(model: M, interval: usize) -> Self {
        Self::with_bounds(model, interval, MAX_CHECKPOINTS, CHECKPOINT_BYTES)
    }

    /// A history whose checkpoints start `interval` frames apart and are at
    /// most `max_checkpoints` (besides the first and the forks) and `max_weight` bytes.
    pub(crate) fn with_bounds(model: M, interval: usize, max_checkpoints: usize, max_weight: usize) -> Self {
        let interval = interval.max(1);
        History {
            interval,
            weight: model.weight(),
            max_checkpoints: max_checkpoints.max(1),
            max_weight,
            checkpoints: vec![(0, model.clone())],
            forks: Vec::new(),
            frames: Vec::new(),
            current: model,
            position: 0,
            ended: false,
            tip: None,
        }
    }

    /// The model as it is after `position()` frames.
    pub fn current(&self) -> &M {
        &self.current
    }

    /// Frames taken to reach the current state (0 = the initial state).
    pub fn position(&self) -> usize {
        self.position
    }

    /// Every frame computed so far (the future beyond `position` included).
    pub fn frames(&self) -> &[M::Frame] {
        &self.frames
    }

    /// The frame that led to the current state, if any.
    pub fn last_frame(&self) -> Option<&M::Frame> {
        self.position.checked_sub(1).and_then(|i| self.frames.get(i))
    }

    /// The model has nothing more to do after its last known frame.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// At the last frame there will ever be.
    pub fn at_end(&self) -> bool {
        self.ended && self.position == self.frames.len()
    }

    /// The model as the run ended, once it has (the tip, or the current
    /// model at the end).
    pub fn end_model(&self) -> Option<&M> {
        if !self.ended {
            return None;
        }
        self.tip.as_ref().or((self.position == self.frames.len()).then_some(&self.current))
    }

    /// Compute frames past the last known one without moving the position:
    /// `more` sees the model after each new frame and that frame, and says
    /// whether to go on. Stops, too, when the model ends. Returns the frames
    /// added. Checkpoints are made as stepping makes them, so seeking into
    /// these frames later replays at most one interval.
    pub fn extend(&mut self, mut more: impl FnMut(&M, &M::Frame) -> bool) -> usize {
        if self.ended {
            return 0;
        }
        let len = self.frames.len();
        let mut tip = match self.tip.take() {
            Some(t) => t,
            None if self.position == len => self.current.clone(),
            None => {
                // The nearest checkpoint at or before the last frame: no fork lies
                // between it and there (a fork is a checkpoint), so replay straight.
                let i = self.checkpoints.partition_point(|(at, _)| *at <= len) - 1;
                let (at, model) = &self.checkpoints[i];
                let mut m = model.clone();
                for _ in *at..len {
                    m.step();
                }
                m
            }
        };
        let mut added = 0;
        loop {
            let Some(frame) = tip.step() else {
                self.ended = true;
                break;
            };
            self.frames.push(frame);
            added += 1;
            let at = self.frames.len();
            let last = self.checkpoints.last().map_or(0, |(p, _)| *p);
            if at.is_multiple_of(self.interval) && at > last {
                self.weight += tip.weight();
                self.checkpoints.push((at, tip.clone()));
                self.thin();
            }
            if !more(&tip, &self.frames[at - 1]) {
                break;
            }
        }
        self.tip = Some(tip);
        added
    }

    /// One frame forward. `None` at the end.
    pub fn step_forward(&mut self) -> Option<&M::Frame> {
        if self.position < self.frames.len() {
            let frame = self.current.step();
            debug_assert_eq!(frame.as_ref(), Some(&self.frames[self.position]), "replay must be deterministic");
            self.position += 1;
            if self.position == self.frames.len() && !self.ended {
                // Caught up with the tip: the current model is it now.
                self.tip = None;
            }
        } else {
            if self.ended {
                return None;
            }
            match self.current.step() {
                None => {
                    self.ended = true;
                    return None;
                }
                Some(frame) => {
                    self.frames.push(frame);
                    self.position += 1;
                }
            }
        }
        let last = self.checkpoints.last().map_or(0, |(at, _)| *at);
        if self.forks.contains(&self.position) {
            // The model was changed here: continue from the changed one.
            if let Some((_, m)) = self.checkpoints.iter().find(|(at, _)| *at == self.position) {
                self.current = m.clone();
            }
        } else if self.position.is_multiple_of(self.interval) && self.position > last {
            self.weight += self.current.weight();
            self.checkpoints.push((self.position, self.current.clone()));
            self.thin();
        }
        self.frames.get(self.position - 1)
    }

    /// Keep the checkpoints within their bounds: double the interval and drop
    /// those off it (never the first, nor a fork), as often as needed.
    fn thin(&mut self) {
        loop {
            let regular = self.checkpoints.iter().filter(|(at, _)| *at > 0 && !self.forks.contains(at)).count();
            let over = regular > self.max_checkpoints || (self.weight > self.max_weight && regular > 1);
            if !over {
                return;
            }
            self.interval *= 2;
            let (interval, forks) = (self.interval, &self.forks);
            let mut weight = 0;
            self.checkpoints.retain(|(at, m)| {
                let keep = *at == 0 || forks.contains(at) || at.is_multiple_of(interval);
                if keep {
                    weight += m.weight();
                }
                keep
            });
            self.weight = weight;
        }
    }

    /// The distance between checkpoints now.
    pub fn interval(&self) -> usize {
        self.interval
    }

    /// How many checkpoints are kept, and their weight by [`Model::weight`].
    pub fn checkpoints(&self) -> (usize, usize) {
        (self.checkpoints.len(), self.weight)
    }

    /// One frame back. `false` at the start.
    pub fn step_back(&mut self) -> bool {
        if self.position == 0 {
            return false;
        }
        self.seek(self.position - 1);
        true
    }

    /// Go to the state after `target` frames (clamped to the end, if the model ends first).
    pub fn seek(&mut self, target: usize) -> usize {
        self.start_toward(target);
        while self.position < target {
            if self.step_forward().is_none() {
                break;
            }
        }
        self.position
    }

    /// [`History::seek`] in slices: towards `target` (at most the last frame
    /// known), replaying while `more()` says so. Returns whether it is there;
    /// if not, the next call goes on from where this one stopped.
    pub fn seek_toward(&mut self, target: usize, mut more: impl FnMut() -> bool) -> bool {
        let target = target.min(self.frames.len());
        self.start_toward(target);
        while self.position < target {
            if !more() {
                return false;
            }
            if self.step_forward().is_none() {
                break;
            }
        }
        true
    }

    /// Where a seek to `target` replays from: the model at the tip when the
    /// target is the last known frame or beyond (no replay), else the nearest
    /// checkpoint at or before it, when that is behind us or ahead of us (a
    /// jump forward over known frames too). [`History::seek`] and
    /// [`History::seek_toward`] both start here.
    fn start_toward(&mut self, target: usize) {
        if target >= self.frames.len() && self.position < self.frames.len() && !self.ended {
            if let Some(tip) = self.tip.take() {
                self.current = tip;
                self.position = self.frames.len();
            }
        }
        let i = self.checkpoints.partition_point(|(at, _)| *at <= target) - 1;
        let (at, model) = &self.checkpoints[i];
        if target < self.position || *at > self.position {
            self.current = model.clone();
            self.position = *at;
        }
    }

    /// Step forward until `pred` holds for a frame (inclusive), or the end.
    pub fn step_until(&mut self, mut pred: impl FnMut(&M::Frame) -> bool) -> Option<&M::Frame> {
        loop {
            let hit = match self.step_forward() {
                None => return None,
                Some(f) => pred(f),
            };
            if hit {
                return self.last_frame();
            }
        }
    }

    /// Change the present and drop the future it invalidates: the frames after
    /// `position` are recomputed from the changed model.
    pub fn fork(&mut self, edit: impl FnOnce(&mut M)) {
        self.frames.truncate(self.position);
        self.ended = false;
        self.tip = None;
        self.checkpoints.retain(|(at, _)| *at < self.position);
        self.forks.retain(|at| *at < self.position);
        edit(&mut self.current);
        // Kept even at 0, replacing the initial state: the change holds from there on.
        self.checkpoints.push((self.position, self.current.clone()));
        self.forks.push(self.position);
        self.weight = self.checkpoints.iter().map(|(_, m)| m.weight()).sum();
        self.thin();
    }

    /// Run until the model ends or `max_frames` frames exist.
    pub fn run_to_end(&mut self, max_frames: usize) {
        while self.frames.len() < max_frames && self.step_forward().is_some() {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy model: a counter whose frames are its values, ending at `stop`.
    #[derive(Debug, Clone)]
    struct Counter {
        value: u64,
        inc: u64,
        stop: u64,
    }

    impl Model for Counter {
        type Frame = u64;
        fn step(&mut self) -> Option<u64> {
            if self.value >= self.stop {
                return None;
            }
            self.value += self.inc;
            Some(self.value)
        }
    }

    #[test]
    fn seek_back_and_forth_reproduces_states() {
        let mut h = History::with_interval(Counter { value: 0, inc: 1, stop: 1000 }, 16);
        h.seek(500);
        assert_eq!(h.current().value, 500);
        assert!(h.step_back());
        assert_eq!((h.position(), h.current().value), (499, 499));
        h.seek(17);
        assert_eq!(h.current().value, 17);
        h.seek(2000);
        assert_eq!(h.position(), 1000, "clamped at the end");
        assert!(h.at_end());
        assert!(h.step_forward().is_none());
        h.seek(0);
        assert_eq!(h.current().value, 0);
        assert!(!h.step_back());
    }

    #[test]
    fn fork_recomputes_the_future() {
        let mut h = History::with_interval(Counter { value: 0, inc: 1, stop: 100 }, 8);
        h.seek(50);
        h.seek(20);
        assert_eq!(h.frames().len(), 50);
        h.fork(|c| c.inc = 10);
        assert_eq!(h.frames().len(), 20, "the old future is gone");
        h.step_forward();
        assert_eq!(h.current().value, 30);
        // Seeking back before the fork and forward again follows the new future.
        h.seek(3);
        assert_eq!(h.current().value, 3);
        h.seek(21);
        assert_eq!(h.current().value, 30);
        // Stepping one frame at a time through the fork position keeps the change too.
        h.seek(19);
        h.step_forward();
        h.step_forward();
        assert_eq!(h.current().value, 30);
    }

    #[test]
    fn fork_exactly_on_a_checkpoint_replaces_it() {
        let mut h = History::with_interval(Counter { value: 0, inc: 1, stop: 100 }, 8);
        h.seek(16);
        h.fork(|c| c.inc = 5);
        h.seek(20);
        h.seek(16);
        assert_eq!(h.current().value, 16);
        assert_eq!(h.current().inc, 5, "the checkpoint at 16 carries the edit");
    }

    #[test]
    fn checkpoints_stay_bounded_and_seeking_stays_exact() {
        let mut h = History::with_bounds(Counter { value: 0, inc: 1, stop: u64::MAX }, 16, 8, usize::MAX);
        h.seek(500);
        h.fork(|c| c.inc = 2);
        h.seek(1_000_000);
        let (kept, _) = h.checkpoints();
        // The first, the fork, and at most 8 more, however long the run.
        assert!(kept <= 10, "{kept} checkpoints");
        assert!(h.interval() >= 1_000_000 / 16, "the interval grew to {}", h.interval());
        for target in [0, 499, 500, 501, 777_777, 3] {
            h.seek(target);
            let want = if target <= 500 { target as u64 } else { 500 + 2 * (target as u64 - 500) };
            assert_eq!(h.current().value, want, "at {target}");
        }
        // By weight too: each Counter weighs 24 bytes; 100 bytes keep the first and three more.
        let mut h = History::with_bounds(Counter { value: 0, inc: 1, stop: 10_000 }, 16, 1_000, 100);
        h.seek(10_000);
        assert!(h.checkpoints().1 <= 100 + 24, "{:?}", h.checkpoints());
        h.seek(5_001);
        assert_eq!(h.current().value, 5_001);
    }

    #[test]
    fn step_until_finds_the_next_match() {
        let mut h = History::new(Counter { value: 0, inc: 1, stop: 100 });
        assert_eq!(h.step_until(|f| f % 10 == 0), Some(&10));
        assert_eq!(h.step_until(|f| *f == 1000), None);
        assert!(h.at_end());
    }
}
