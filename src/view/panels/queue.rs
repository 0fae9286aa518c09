//! The Workqueue panel: the queue's three structures, the waiting room and
//! the workers.

use crate::sim::world::World;

/// A worker and what it is doing.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WorkerView {
    pub worker: u32,
    /// The key and the reconcile's number, if busy.
    pub busy: Option<(String, u64)>,
}

/// The workqueue's three structures and the waiting room.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct QueueView {
    pub queued: Vec<String>,
    pub workers: Vec<WorkerView>,
    pub dirty_while_processing: Vec<String>,
    /// Rate-limited keys and when each is ready.
    pub waiting: Vec<(String, u64)>,
    pub running: bool,
    /// The key the next idle worker takes, and the worker that will (the
    /// schedule's choice, or the lowest idle one), when one is about to.
    pub next_take: Option<(String, u32)>,
    /// The idle workers (the learner may choose among them when two or more are).
    pub idle: Vec<u32>,
}

pub fn queue(world: &World) -> QueueView {
    let q = &world.ctl.queue;
    QueueView {
        queued: q.queued().cloned().collect(),
        workers: world
            .ctl
            .workers
            .iter()
            .enumerate()
            .map(|(i, w)| WorkerView { worker: i as u32, busy: w.busy.as_ref().map(|b| (b.key.clone(), b.n)) })
            .collect(),
        dirty_while_processing: q.dirty_while_processing().cloned().collect(),
        waiting: q.waiting().map(|(k, at)| (k.clone(), at)).collect(),
        running: world.ctl.running,
        next_take: world.next_take(),
        idle: world.ctl.workers.iter().enumerate().filter(|(_, w)| w.busy.is_none()).map(|(i, _)| i as u32).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::at_reconcile_2;
    use super::*;

    #[test]
    fn queue_view_shows_the_key_being_processed() {
        let s = at_reconcile_2("deterministic");
        let q = queue(s.world());
        assert!(q.running);
        assert_eq!(q.workers[0].busy.as_ref().map(|b| b.0.as_str()), Some("academy-lab/beta"));
    }
}
