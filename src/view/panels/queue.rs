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
    /// Whose queue it is, when controllers run beside the recipe
    /// (`controller.alongside`): the panel follows the frame's controller.
    pub controller: Option<&'static str>,
}

/// The workqueue of the controller `which` names (`World::process`).
pub fn queue(world: &World, which: Option<u8>) -> QueueView {
    let (controller, process) = world.process(which);
    let q = &process.queue;
    QueueView {
        queued: q.queued().map(|k| k.to_string()).collect(),
        workers: process
            .workers
            .iter()
            .enumerate()
            .map(|(i, w)| WorkerView { worker: i as u32, busy: w.busy.as_ref().map(|b| (b.key.to_string(), b.n)) })
            .collect(),
        dirty_while_processing: q.dirty_while_processing().map(|k| k.to_string()).collect(),
        waiting: q.waiting().map(|(k, at)| (k.to_string(), at)).collect(),
        running: process.running,
        // The learner's hands choose the recipe's own workers only.
        next_take: if which.is_none() { world.next_take() } else { None },
        idle: process.workers.iter().enumerate().filter(|(_, w)| w.busy.is_none()).map(|(i, _)| i as u32).collect(),
        controller: (!world.beside.is_empty()).then(|| controller.spec().name()),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::at_reconcile_2;
    use super::*;

    #[test]
    fn queue_view_shows_the_key_being_processed() {
        let s = at_reconcile_2("deterministic");
        let q = queue(s.world(), None);
        assert!(q.running);
        assert_eq!(q.workers[0].busy.as_ref().map(|b| b.0.as_str()), Some("academy-lab/beta"));
    }
}
