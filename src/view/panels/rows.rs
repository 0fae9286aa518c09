//! The Cluster and Cache panels' one row list: a merge of the two
//! key-ordered stores, grouped by owner, so the two panels line up row for
//! row and the eye compares them.

use crate::sim::apiserver::EventType;
use crate::sim::object::{child_label, Kind, Name, Object, ObjectRc, ObjectRef};
use crate::sim::world::World;

/// How an object's row stands between the cluster and the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowState {
    /// The cache has the version the cluster has.
    Synced,
    /// In the cluster, not yet in the cache: a dashed ghost in the Cache panel.
    NotInCache,
    /// Gone from the cluster, still in the cache: struck through in the Cluster panel.
    GoneFromCluster,
    /// Both have it, at different resourceVersions.
    Stale,
}

/// One object, as both panels show it. Every object's row is built at every
/// frame drawn (a list needs them all to order, count and find the one the
/// frame acts on, and draws ~30): what only a drawn row needs, its id, is
/// made when drawn ([`Row::id`]), and the namespace and the name are the
/// object's own, shared, not copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub kind: Kind,
    pub namespace: Name,
    pub name: Name,
    /// The server picked the name (`generateName`).
    pub generated: bool,
    pub cluster_rv: Option<u64>,
    pub cache_rv: Option<u64>,
    /// The event on its way to the cache for this object, and how far away it is.
    pub pending: Option<(EventType, u64)>,
    /// 0 for owners and loose objects, 1 for children listed under their owner.
    pub depth: u8,
    /// The current frame acted on this object (see [`mark_touched`]).
    pub touched: bool,
    /// (cluster, cache): the version each side holds is Terminating (deletionTimestamp set).
    pub terminating: (bool, bool),
    /// (cluster, cache): a ReplicaSet's `status.replicas`, once its controller has written it.
    pub status_replicas: (Option<u32>, Option<u32>),
}

impl Row {
    /// Stable across frames: `Kind/namespace/name`.
    pub fn id(&self) -> String {
        format!("{}/{}/{}", self.kind, self.namespace, self.name)
    }

    pub fn state(&self) -> RowState {
        match (self.cluster_rv, self.cache_rv) {
            (Some(a), Some(b)) if a == b => RowState::Synced,
            (Some(_), Some(_)) => RowState::Stale,
            (Some(_), None) => RowState::NotInCache,
            (None, _) => RowState::GoneFromCluster,
        }
    }
}

/// One object as the cluster and the cache hold it (either may not).
type Pair = (Option<ObjectRc>, Option<ObjectRc>);

/// The union of what the cluster and the controller's cache hold, grouped by owner.
pub fn object_rows(world: &World) -> Vec<Row> {
    let lag = world.cluster.watch_lag_ms;
    let now = world.now_ms();
    // (cluster version, cache version) per object: both sides iterate in key
    // order per kind, so a merge pairs them in linear time.
    let informers: Vec<_> = world.kinds.iter().map(|&k| world.controller_informer(k)).collect();
    let held = world.kinds.iter().zip(&informers).map(|(&k, i)| world.api.count(k) + i.map_or(0, |i| i.len())).sum();
    let mut all: Vec<Pair> = Vec::with_capacity(held);
    for (&kind, informer) in world.kinds.iter().zip(&informers) {
        let mut cluster = world.api.objects_of(kind).peekable();
        let mut cache = informer.iter().flat_map(|i| i.list()).peekable();
        loop {
            let order = match (cluster.peek(), cache.peek()) {
                (None, None) => break,
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (Some(a), Some(b)) => (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)),
            };
            all.push(match order {
                std::cmp::Ordering::Less => (cluster.next().cloned(), None),
                std::cmp::Ordering::Greater => (None, cache.next().cloned()),
                std::cmp::Ordering::Equal => (cluster.next().cloned(), cache.next().cloned()),
            });
        }
    }
    // Each pair's object, borrowed (this runs at every frame drawn): the cluster's version, else the cache's.
    fn either(v: &Pair) -> &Object {
        v.0.as_deref().or(v.1.as_deref()).expect("one side has it")
    }
    // Oldest first: by creation, which no two objects share (each is
    // created at a revision of its own), then by kind and key should two
    // ever tie. Sorted on the number, read once a pair: a comparison that
    // read it through both pairs' objects was most of the rows' time at
    // 2,000 objects.
    let mut all: Vec<(u64, Pair)> = all.into_iter().map(|v| (either(&v).creation_rv, v)).collect();
    all.sort_unstable_by(|(a, x), (b, y)| {
        a.cmp(b).then_with(|| {
            let (x, y) = (either(x), either(y));
            (x.kind(), &x.namespace, &x.name).cmp(&(y.kind(), &y.namespace, &y.name))
        })
    });
    let written = |o: &Option<ObjectRc>| o.as_ref().and_then(|o| o.status).filter(|s| s.observed_generation > 0).map(|s| s.replicas);
    // What is on each informer's wire, by object: once a kind, not once a
    // row; found by the kind's index, not by a search of the kinds.
    let mut pending: Vec<_> = (0..crate::sim::object::MAX_KINDS).map(|_| Default::default()).collect();
    for (&kind, informer) in world.kinds.iter().zip(&informers) {
        pending[kind.index()] = informer.map(|i| i.pending(lag)).unwrap_or_default();
    }
    let make = |v: &Pair, depth: u8| {
        let o = either(v);
        let pending = pending[o.kind().index()].get(&o.namespace, &o.name).map(|(t, at)| (t, at.saturating_sub(now)));
        Row {
            kind: o.kind(),
            namespace: o.namespace.clone(),
            name: o.name.clone(),
            generated: o.generate_name.is_some(),
            cluster_rv: v.0.as_ref().map(|o| o.resource_version),
            cache_rv: v.1.as_ref().map(|o| o.resource_version),
            pending,
            depth,
            touched: false,
            terminating: (v.0.as_ref().is_some_and(|o| o.is_terminating()), v.1.as_ref().is_some_and(|o| o.is_terminating())),
            status_replicas: (written(&v.0), written(&v.1)),
        }
    };
    // Children: objects whose child label names an owner of the right kind (borrowed: no name copied).
    fn owner_of<'o>(kinds: &[Kind], o: &'o Object) -> Option<(Kind, &'o str)> {
        kinds.iter().copied().find_map(|owner_kind| {
            if crate::sim::object::child_kind(owner_kind) != Some(o.kind()) {
                return None;
            }
            child_label(owner_kind).and_then(|l| o.labels.get(l)).map(|n| (owner_kind, n.as_str()))
        })
    }
    // Which pairs are owners (or loose objects), and which are children, of
    // what owner: as places in `all`, so each row is built once, where it
    // goes (built first and then moved into place, the rows were copied
    // twice over: a sixth of their time at 2,000 objects).
    let mut top: Vec<usize> = Vec::new();
    let mut owners: Vec<(Kind, &str)> = Vec::new();
    let mut children: Vec<((Kind, &str), usize)> = Vec::with_capacity(all.len());
    for (i, (_, v)) in all.iter().enumerate() {
        let o = either(v);
        match owner_of(&world.kinds, o) {
            Some(owner) => children.push((owner, i)),
            None => {
                owners.push((o.kind(), o.name.as_str()));
                top.push(i);
            }
        }
    }
    // An owner's children follow it, oldest first (their order in
    // `children`); two owners of one name (in two namespaces) both match a
    // child, and the first listed takes it. One pass: at 2,000 objects, a
    // pass over the children for each owner was most of the rows' time.
    let mut first: rustc_hash::FxHashMap<(Kind, &str), usize> = Default::default();
    for (i, owner) in owners.iter().enumerate() {
        first.entry(*owner).or_insert(i);
    }
    // The children by their owner's place in `top`, and those whose owner
    // is gone from both sides at `top.len()`: still shown, at the end. The
    // sort is stable, so each owner's stay oldest first.
    let mut grouped: Vec<(usize, usize)> = children.iter().map(|(owner, i)| (first.get(owner).copied().unwrap_or(top.len()), *i)).collect();
    grouped.sort_by_key(|&(t, _)| t);
    let mut rest = &grouped[..];
    let mut rows = Vec::with_capacity(all.len());
    for (t, &i) in top.iter().enumerate() {
        rows.push(make(&all[i].1, 0));
        let own = rest.partition_point(|&(owner, _)| owner == t);
        rows.extend(rest[..own].iter().map(|&(_, c)| make(&all[c].1, 1)));
        rest = &rest[own..];
    }
    rows.extend(rest.iter().map(|&(_, c)| make(&all[c].1, 1)));
    rows
}

/// Marks the rows of the objects a frame acted on ([`Event::touched`]), so
/// the panels can light them and keep them in view.
pub(crate) fn mark_touched(rows: &mut [Row], touched: &[ObjectRef]) {
    for t in touched {
        if let Some(r) = rows.iter_mut().find(|r| r.kind == t.kind && *r.namespace == *t.namespace && r.name == t.name) {
            r.touched = true;
        }
    }
}

/// The rows a list keeps in the DOM: those a viewport `height` px tall,
/// scrolled `top` px down a list of `len` rows `pitch` px apart, shows, and
/// `overscan` more on either side (so a small scroll never shows a blank
/// before the next frame draws). Bounded by the viewport, not by `len`: a
/// panel of 2,000 objects draws as many rows as one of 50. As long as `len`
/// and the viewport stay, the window keeps its length wherever the list is
/// scrolled (at either end, what the overscan cannot take there it takes on
/// the other side), so the list's row elements, recycled by place in the
/// window, are as many at the top as in the middle: a scroll creates none.
pub fn visible_rows(len: usize, top: f64, height: f64, pitch: f64, overscan: usize) -> std::ops::Range<usize> {
    if len == 0 || pitch <= 0.0 {
        return 0..0;
    }
    let first = (top.max(0.0) / pitch).floor() as usize;
    let shown = (height.max(0.0) / pitch).ceil() as usize + 1;
    let window = shown.saturating_add(overscan.saturating_mul(2)).min(len);
    let start = first.saturating_sub(overscan).min(len - window);
    start..start + window
}

/// While playing at `speed`, how long at least, in ms of wall time, the
/// Cluster and Cache lists stand before they scroll to the row the frame
/// acts on again: [`FOLLOW_MIN_MS`] up to ×2, then in proportion to the
/// speed, up to [`FOLLOW_MAX_MS`] from [`FOLLOW_MAX_FROM_SPEED`]. The faster the run,
/// the more often the lit row leaves for another part of a long list (at
/// ×10 and 500 replicas, several times a second), and a list that followed
/// it every 200 ms jumped five times a second, too fast to read; each jump
/// draws both lists' rows anew (about 70 rows), the heaviest frames of play.
/// Paused or stepped, the lists scroll to the lit row at once.
pub fn follow_every_ms(speed: f64) -> f64 {
    (FOLLOW_MAX_MS * speed / FOLLOW_MAX_FROM_SPEED).clamp(FOLLOW_MIN_MS, FOLLOW_MAX_MS)
}

/// The least and the most [`follow_every_ms`] waits, in ms of wall time.
const FOLLOW_MIN_MS: f64 = 200.0;
const FOLLOW_MAX_MS: f64 = 1000.0;
/// The speed from which [`follow_every_ms`] waits its most.
const FOLLOW_MAX_FROM_SPEED: f64 = 10.0;

/// What Help says of [`follow_every_ms`], its figures these constants.
pub fn follow_words() -> String {
    crate::narrate::panels::following_words(
        FOLLOW_MIN_MS as u64,
        FOLLOW_MAX_MS as u64,
        &crate::view::url::format_speed(FOLLOW_MAX_FROM_SPEED),
    )
}

/// Where to scroll a viewport `height` px tall, now `top` px down, so that
/// row `i` of a list `pitch` px apart is wholly in view: `None` if it is
/// already, else just far enough (up to its top, or down to its bottom).
pub fn scroll_to_show(i: usize, top: f64, height: f64, pitch: f64) -> Option<f64> {
    let (row_top, row_bottom) = (i as f64 * pitch, (i + 1) as f64 * pitch);
    if row_top < top {
        Some(row_top)
    } else if row_bottom > top + height && height > 0.0 {
        Some((row_bottom - height).min(row_top))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::at_reconcile_2;
    use super::*;
    use crate::scenario::preset;
    use crate::sim::frame::{Event, Frame};
    use crate::view::session::Session;

    #[test]
    fn the_row_a_frame_acts_on_is_marked_touched() {
        let mut session = Session::new(preset("read-your-write").unwrap());
        while session.step_forward() {
            if let Some(Frame { event: Event::ApiRequest { entry, .. }, .. }) = session.last_frame() {
                if entry.status.code == 409 {
                    break;
                }
            }
        }
        let mut rows = object_rows(session.world());
        mark_touched(&mut rows, &session.last_frame().unwrap().event.touched());
        let touched: Vec<&str> = rows.iter().filter(|r| r.touched).map(|r| r.name.as_str()).collect();
        assert_eq!(touched, ["seed-99"]);
        // Another object marks its own row; a name that is only a prefix, or
        // another kind of the same name, marks none.
        let object = |kind, name: &str| ObjectRef { kind, namespace: "academy-lab".into(), name: name.into() };
        mark_touched(&mut rows, &[object(Kind::ConfigMap, "seed-9")]);
        assert_eq!(rows.iter().filter(|r| r.touched).count(), 2);
        let mut fresh = object_rows(session.world());
        mark_touched(&mut fresh, &[object(Kind::ConfigMap, "seed"), object(Kind::Pod, "seed-1")]);
        assert!(fresh.iter().all(|r| !r.touched));
    }

    #[test]
    fn cluster_and_cache_rows_line_up_and_show_the_gap() {
        let s = at_reconcile_2("generate");
        let rows = object_rows(s.world());
        assert_eq!(rows[0].kind, Kind::Ensemble);
        assert_eq!(rows[0].state(), RowState::Synced);
        let children: Vec<&Row> = rows.iter().filter(|r| r.depth == 1).collect();
        assert_eq!(children.len(), 4, "four in the cluster, under their owner");
        for c in &children {
            assert_eq!(c.state(), RowState::NotInCache);
            assert!(c.generated);
            let (t, eta) = c.pending.expect("its ADDED is on the wire");
            assert_eq!(t, EventType::Added);
            assert!(eta > 0 && eta <= 2000);
        }
    }

    #[test]
    fn each_owner_is_followed_by_its_own_children_oldest_first() {
        let json = r#"{"name":"two","until_ms":20000,"controller":{"kind":"ensemble"},"objects":[{"kind":"Ensemble","name":"e-{i}","voices":3,"count":2}]}"#;
        let mut session = Session::new(crate::scenario::Scenario::from_json(json).unwrap());
        while session.step_forward() {}
        let rows = object_rows(session.world());
        let names: Vec<(u8, &str)> = rows.iter().map(|r| (r.depth, r.name.as_str())).collect();
        // Created in this order: e-1, e-2, then each one's voices (indexed, so oldest first by index).
        let expected = [
            (0, "e-1"),
            (1, "e-1-voice-0"),
            (1, "e-1-voice-1"),
            (1, "e-1-voice-2"),
            (0, "e-2"),
            (1, "e-2-voice-0"),
            (1, "e-2-voice-1"),
            (1, "e-2-voice-2"),
        ];
        assert_eq!(names, expected);
    }

    #[test]
    fn children_whose_owner_is_gone_are_listed_last_oldest_first() {
        // The scenario's first Ensemble deleted at 10 s, its voices orphaned
        // (kept, their ownerReferences taken off); the rows once the run is over.
        fn rows_after_orphaning(objects: &str) -> Vec<(u8, String)> {
            use crate::sim::apiserver::Propagation;
            use crate::view::session::{Change, UiAction};
            let json = format!(r#"{{"name":"orphans","until_ms":60000,"controller":{{"kind":"ensemble"}},"objects":{objects}}}"#);
            let mut session = Session::new(crate::scenario::Scenario::from_json(&json).unwrap());
            while session.world().now_ms() < 10_000 && session.step_forward() {}
            session.apply(Change::Action(UiAction::DeleteOwner(Propagation::Orphan)));
            while session.step_forward() {}
            object_rows(session.world()).iter().map(|r| (r.depth, r.name.to_string())).collect()
        }
        let names = rows_after_orphaning(r#"[{"kind":"Ensemble","name":"alpha","voices":3},{"kind":"Ensemble","name":"beta","voices":2}]"#);
        let expected =
            [(0, "beta"), (1, "beta-voice-0"), (1, "beta-voice-1"), (1, "alpha-voice-0"), (1, "alpha-voice-1"), (1, "alpha-voice-2")];
        assert_eq!(names, expected.map(|(d, n)| (d, n.to_string())));
        // With no owner left at all, the orphans are the whole list.
        let names = rows_after_orphaning(r#"[{"kind":"Ensemble","name":"alpha","voices":2}]"#);
        assert_eq!(names, [(1, "alpha-voice-0"), (1, "alpha-voice-1")].map(|(d, n)| (d, n.to_string())));
    }

    #[test]
    fn a_list_draws_the_rows_in_view_and_a_few_more_at_any_length() {
        // 30 px rows in a 300 px viewport: 10 in view, one more for a part
        // row, 6 either side: a window of 23 rows.
        assert_eq!(visible_rows(500, 3_000.0, 300.0, 30.0, 6), 94..117);
        assert_eq!(visible_rows(500, 0.0, 300.0, 30.0, 6), 0..23, "the top: the overscan it cannot take above, below");
        assert_eq!(visible_rows(500, 14_700.0, 300.0, 30.0, 6), 477..500, "the end: the last row is drawn, and as many as elsewhere");
        for len in [50, 500, 2_000, 100_000] {
            let r = visible_rows(len, (len as f64 / 2.0) * 30.0, 300.0, 30.0, 6);
            assert!(r.len() <= 23, "{len} rows: {} drawn", r.len());
        }
        assert_eq!(visible_rows(3, 0.0, 300.0, 30.0, 6), 0..3, "a short list: all of it");
        assert_eq!(visible_rows(0, 0.0, 300.0, 30.0, 6), 0..0);
        assert_eq!(visible_rows(500, 90_000.0, 300.0, 30.0, 6), 477..500, "scrolled past a list that shrank: its last rows");
        assert_eq!(visible_rows(500, -40.0, 300.0, 30.0, 6), 0..23, "an overscrolled top counts as the top");
        // Scrolled anywhere, pixel by pixel, the window keeps its length and holds every row in view.
        for top in (0..=14_700).step_by(7) {
            let r = visible_rows(500, f64::from(top), 300.0, 30.0, 6);
            assert_eq!(r.len(), 23, "scrolled to {top} px");
            let (first, last) = (top as usize / 30, ((top as usize + 300).div_ceil(30)).min(500));
            assert!(r.start <= first && last <= r.end, "scrolled to {top} px: rows {first}..{last} in view, {r:?} drawn");
        }
    }

    #[test]
    fn a_lit_row_is_scrolled_into_view_just_enough() {
        assert_eq!(scroll_to_show(5, 0.0, 300.0, 30.0), None, "in view");
        assert_eq!(scroll_to_show(9, 0.0, 300.0, 30.0), None, "the last whole row in view");
        assert_eq!(scroll_to_show(10, 0.0, 300.0, 30.0), Some(30.0), "one below: down by one row");
        assert_eq!(scroll_to_show(40, 0.0, 300.0, 30.0), Some(930.0), "far below: to its bottom");
        assert_eq!(scroll_to_show(2, 300.0, 300.0, 30.0), Some(60.0), "above: up to its top");
        assert_eq!(scroll_to_show(3, 0.0, 20.0, 30.0), Some(90.0), "a viewport shorter than a row: its top");
        // Scrolled there, the row is in view, and drawn.
        let to = scroll_to_show(400, 0.0, 300.0, 30.0).unwrap();
        assert_eq!(scroll_to_show(400, to, 300.0, 30.0), None);
        assert!(visible_rows(500, to, 300.0, 30.0, 6).contains(&400));
    }

    #[test]
    fn the_lists_follow_the_lit_row_less_often_the_faster_the_run_plays() {
        use crate::view::url::{speed_of_step, MAX_SPEED_STEP, MIN_SPEED_STEP};
        assert_eq!(follow_every_ms(0.1), FOLLOW_MIN_MS);
        assert_eq!(follow_every_ms(1.0), 200.0);
        assert_eq!(follow_every_ms(2.0), 200.0);
        assert_eq!(follow_every_ms(5.0), 500.0);
        assert_eq!(follow_every_ms(FOLLOW_MAX_FROM_SPEED), FOLLOW_MAX_MS);
        assert_eq!(follow_every_ms(1000.0), FOLLOW_MAX_MS);
        // Over the slider's every step: never more often as the run speeds up.
        let waits: Vec<f64> = (MIN_SPEED_STEP..=MAX_SPEED_STEP).map(|s| follow_every_ms(speed_of_step(s))).collect();
        assert!(waits.windows(2).all(|w| w[0] <= w[1]), "{waits:?}");
        // Help states the same figures.
        let said = follow_words();
        assert!(said.contains("at most every 200 ms") && said.contains("every 1.0 s from ×10"), "{said}");
    }
}
