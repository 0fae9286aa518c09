//! The Expectations panel: ControllerExpectations' records, and below them
//! v1.36's consistency store against the caches.

use crate::sim::expectations::Satisfied;
use crate::sim::object::Kind;
use crate::sim::world::World;

/// One expectations record.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectationView {
    pub key: String,
    pub add: i64,
    pub del: i64,
    pub age_ms: u64,
    pub timeout_ms: u64,
    /// 1 when just set, 0 at the timeout.
    pub fraction_left: f64,
    pub satisfied: bool,
    pub why: Satisfied,
}

/// Every field but `fraction_left`, which `age_ms` and `timeout_ms` decide.
impl std::hash::Hash for ExpectationView {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (&self.key, self.add, self.del, self.age_ms, self.timeout_ms, self.satisfied, &self.why).hash(h);
    }
}

/// The Expectations panel: records, or why there are none.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct ExpectationsView {
    pub enabled: bool,
    pub records: Vec<ExpectationView>,
}

pub fn expectations(world: &World) -> ExpectationsView {
    let now = world.now_ms();
    let e = &world.ctl.expectations;
    ExpectationsView {
        enabled: world.controller.expectations(),
        records: e
            .records()
            .map(|(key, r)| {
                let age_ms = now.saturating_sub(r.timestamp_ms);
                let why = e.satisfied(key, now);
                ExpectationView {
                    key: key.to_string(),
                    add: r.add,
                    del: r.del,
                    age_ms,
                    timeout_ms: e.timeout_ms,
                    fraction_left: 1.0 - (age_ms as f64 / e.timeout_ms.max(1) as f64).min(1.0),
                    satisfied: why.is_satisfied(),
                    why,
                }
            })
            .collect(),
    }
}

/// Whether the Expectations panel is drawn. For a built-in controller,
/// always: its lessons name the ControllerExpectations it keeps or lacks,
/// and the panel says which. For a recipe (a user's controller, an
/// incident's), only while the run keeps expectations or runs the
/// consistency store: a reconcile that uses neither gets the room, and the
/// panel appears with the guard that brings it.
pub fn drawn(recipe: bool, e: &ExpectationsView, c: &ConsistencyView) -> bool {
    !recipe || e.enabled || c.enabled
}

/// One owner's record in v1.36's consistency store, against its caches.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ConsistencyRecord {
    pub key: String,
    /// Per resource: (kind, the resourceVersion the controller wrote, how far its cache has read).
    pub resources: Vec<(Kind, u64, u64)>,
    /// Some cache has not read what was written: the next sync of this key is skipped.
    pub behind: bool,
    /// The key waits out its rate-limited backoff: ready in this many ms.
    pub retry_in_ms: Option<u64>,
    /// Its failures so far (the per-item backoff's exponent).
    pub failures: u32,
}

/// The consistency store, as the Expectations panel shows it below the expectations.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ConsistencyView {
    pub enabled: bool,
    pub records: Vec<ConsistencyRecord>,
    /// `stale_sync_skips` so far.
    pub skips: u64,
}

pub fn consistency(world: &World) -> ConsistencyView {
    let now = world.now_ms();
    let q = &world.ctl.queue;
    let records = world
        .ctl
        .consistency
        .records()
        .map(|(key, r)| {
            let resources: Vec<(Kind, u64, u64)> = r
                .versions
                .iter()
                .map(|(kind, wrote)| (*kind, *wrote, world.controller_informer(*kind).map_or(0, |i| i.last_sync_rv())))
                .collect();
            ConsistencyRecord {
                key: key.clone(),
                behind: resources.iter().any(|(_, wrote, read)| wrote > read),
                resources,
                retry_in_ms: q.waiting().find(|(k, _)| k.as_str() == key.as_str()).map(|(_, at)| at.saturating_sub(now)),
                failures: q.num_requeues(&key.as_str().into()),
            }
        })
        .collect();
    ConsistencyView { enabled: world.controller.consistency_store(), records, skips: world.ctl.stale_sync_skips }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::preset;
    use crate::view::session::Session;

    #[test]
    fn a_recipe_gets_the_panel_with_the_guard_a_built_in_always() {
        let panel = |s: &crate::scenario::Scenario| {
            let world = Session::new(s.clone());
            let w = world.world();
            drawn(s.controller.recipe.is_some(), &expectations(w), &consistency(w))
        };
        let kuberay = preset("kuberay-random-delete").unwrap();
        assert!(!panel(&kuberay), "KubeRay's reconcile keeps no expectations, runs no store");
        let guarded = kuberay.with_settings([("controller.recipe.expectations", "true")]).unwrap();
        assert!(panel(&guarded), "the guard brings the panel");
        let stored = kuberay.with_settings([("controller.consistency_store", "true")]).unwrap();
        assert!(panel(&stored), "so does the consistency store");
        let ensemble = preset("over-create").unwrap();
        assert!(!ensemble.expectations() && panel(&ensemble), "a built-in's lesson names what it lacks");
    }

    #[test]
    fn expectations_view_counts_and_shrinks() {
        let mut s = Session::new(preset("replicaset-pressure").unwrap());
        let mut seen_pending = false;
        while s.step_forward() {
            let e = expectations(s.world());
            assert!(e.enabled);
            if let Some(r) = e.records.first() {
                if r.add > 0 {
                    seen_pending = true;
                    assert!(!r.satisfied);
                    assert!(r.fraction_left > 0.99);
                    break;
                }
            }
        }
        assert!(seen_pending);
        let off = Session::new(preset("over-create").unwrap());
        assert!(!expectations(off.world()).enabled);
    }
}
