//! Validation: every setting's limits (from `settings::SETTINGS`), the work
//! budget's, and every cross-field rule, each error naming its field.

use super::{controls, get_path, limits, settings, Act, ActionSpec, ObjectSpec, Scenario, ScenarioError};
use crate::sim::object::Kind;
use crate::sim::settings::RuntimeKind;

impl Scenario {
    /// Check every range and cross-field rule.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        // Every setting's limits, from its one declaration.
        let doc = self.to_value();
        for setting in settings::SETTINGS {
            if let Some(value) = get_path(&doc, setting.path) {
                setting.check(value)?;
            }
        }
        // A declared kind's own first-LIST time keeps the built-in kinds' limits.
        if let Some(settings::Domain::Int { min, max, .. }) = settings::setting("cluster.initial_list_ms_by_kind.Pod").map(|s| s.domain) {
            for (kind, ms) in self.cluster.initial_list_ms_by_kind.iter().filter(|(k, _)| matches!(k, Kind::Declared(_))) {
                range(&format!("cluster.initial_list_ms_by_kind.{kind}"), ms, min, max)?;
            }
        }
        if self.controller.instances == 2 && !self.controller.spec().loops() {
            return Err(ScenarioError::new(
                "controller.instances",
                Some("2".into()),
                "the pruner is a one-shot program; two replicas are for the long-running controllers (ensemble, replicaset)",
            ));
        }
        // client-go's NewLeaderElector: "leaseDuration must be greater than renewDeadline".
        if self.controller.instances == 2 && self.cluster.lease_ms <= crate::sim::world::RENEW_DEADLINE_MS {
            return Err(ScenarioError::new(
                "cluster.lease_ms",
                Some(self.cluster.lease_ms.to_string()),
                "must be greater than leader election's renew deadline (10000 ms) with two replicas, as client-go requires",
            ));
        }
        let c = &self.controller;
        if c.runtime() == RuntimeKind::ControllerRuntime && !c.spec().can.controller_runtime {
            return Err(ScenarioError::new(
                "controller.runtime",
                Some("\"controller-runtime\"".into()),
                "only the ensemble operator is written with controller-runtime: the replicaset controller is kube-controller-manager's, and the pruner a plain client-go program",
            ));
        }
        let settings = [
            ("controller.live_reads", c.live_reads),
            ("controller.read_your_writes", c.read_your_writes),
            ("controller.priority_queue", c.priority_queue.is_some()),
            ("controller.controller_runtime", c.controller_runtime.is_some()),
        ];
        for (path, on) in settings {
            if on && c.runtime() != RuntimeKind::ControllerRuntime {
                let value = match path {
                    "controller.controller_runtime" => c.controller_runtime.map(|v| format!("\"{}\"", crate::sim::settings::word(v))),
                    "controller.priority_queue" => c.priority_queue.map(|b| b.to_string()),
                    _ => Some("true".into()),
                };
                return Err(ScenarioError::new(path, value, "is controller-runtime's; set controller.runtime to controller-runtime"));
            }
        }
        // controller-runtime never reconciles before its caches sync: `Controller.Start` waits for
        // every source (v0.24.1 pkg/internal/controller/controller.go,
        // `startEventSourcesAndQueueLocked`: `WaitForSync` under `CacheSyncTimeout`), and its cached
        // client blocks a read of an unsynced informer (pkg/cache/internal/informers.go, `Get`).
        if !c.wait_for_cache_sync && c.runtime() == RuntimeKind::ControllerRuntime {
            let why = match c.controller_runtime {
                Some(v) => format!("controller.controller_runtime {}", crate::sim::settings::word(v)),
                None => "controller.runtime controller-runtime".to_string(),
            };
            return Err(ScenarioError::new(
                "controller.wait_for_cache_sync",
                Some("false".into()),
                format!(
                    "{why} never reconciles before its caches sync (Controller.Start waits for every source): set controller.runtime to client-go for a program that skips WaitForCacheSync"
                ),
            ));
        }
        if let Some(v) = c.controller_runtime.filter(|v| c.read_your_writes && !v.reads_your_writes()) {
            return Err(ScenarioError::new(
                "controller.read_your_writes",
                Some("true".into()),
                format!("controller-runtime {} has no EnableReadYourWritesConsistency: it came in 0.25", crate::sim::settings::word(v)),
            ));
        }
        let (qps, burst) = self.cluster.client_limit(self.controller.kind);
        if qps > 0 && burst == 0 {
            return Err(ScenarioError::new(
                "cluster.client_burst",
                Some("0".into()),
                "must be at least 1 when cluster.client_qps is set: a bucket of 0 tokens never lets a request through",
            ));
        }
        if self.name.trim().is_empty() {
            return Err(ScenarioError::new("name", Some("\"\"".into()), "must not be empty"));
        }
        limits::get("name").check_text("name", &self.name, false)?;
        limits::get("description").check_text("description", &self.description, true)?;
        limits::get("start").check_text("start", &self.start, false)?;
        controls::validate(self)?;
        super::recipe::validate(self)?;
        if let Some(i) = &self.incident {
            limits::get("incident.title").check_text("incident.title", &i.title, false)?;
            limits::get("incident.url").check_text("incident.url", &i.url, false)?;
        }
        limits::get("objects").check("objects", self.objects.len() as u64)?;
        limits::get("actions").check("actions", self.actions.len() as u64)?;
        limits::get("expect").check("expect", self.expect.len() as u64)?;
        super::invariants::declared(self)?;
        let known = self.invariant_names();
        super::lesson::validate(&self.lesson, &doc, &known)?;
        // The page links it: only web links, never `javascript:` or `data:`.
        if let Some(i) = &self.incident {
            if !(i.url.starts_with("https://") || i.url.starts_with("http://")) {
                return Err(ScenarioError::new("incident.url", Some(format!("{:?}", i.url)), "must be an http:// or https:// link"));
            }
        }
        let mut total = 0u64;
        for (i, o) in self.objects.iter().enumerate() {
            total += u64::from(o.count.unwrap_or(1));
            o.validate(&format!("objects[{i}]"))?;
            let ns = o.namespace.as_deref().unwrap_or(&self.controller.namespace);
            for (j, r) in o.owner_references.iter().enumerate() {
                let listed_before = self.objects[..i].iter().any(|p| {
                    p.kind == r.kind
                        && p.namespace.as_deref().unwrap_or(&self.controller.namespace) == ns
                        && p.templates(ns).iter().any(|t| t.name.as_deref() == Some(r.name.as_str()))
                });
                if !listed_before {
                    return Err(ScenarioError::new(
                        format!("objects[{i}].owner_references[{j}].name"),
                        Some(format!("{:?}", r.name)),
                        format!("no {} of that name is listed before this object in its namespace", r.kind),
                    ));
                }
            }
        }
        if total > limits::MAX_OBJECTS_AT_PEAK {
            return Err(ScenarioError::new(
                "objects",
                Some(format!("{total} objects")),
                format!("{total} seed objects in all; the work budget is {} objects at once", limits::MAX_OBJECTS_AT_PEAK),
            ));
        }
        for (i, a) in self.actions.iter().enumerate() {
            self.validate_action(&format!("actions[{i}]"), a)?;
        }
        limits::get("schedule").check("schedule", self.schedule.len() as u64)?;
        limits::get("takes").check("takes", self.takes.len() as u64)?;
        for (i, t) in self.takes.iter().enumerate() {
            limits::get("takes[].take").check(&format!("takes[{i}].take"), u64::from(t.take))?;
            if t.worker >= self.workers() {
                return Err(ScenarioError::new(
                    format!("takes[{i}].worker"),
                    Some(t.worker.to_string()),
                    match self.workers() {
                        1 => "the controller has 1 worker, numbered 0".to_string(),
                        n => format!("the controller has {n} workers, numbered from 0"),
                    },
                ));
            }
            if self.takes[..i].iter().any(|o| o.take == t.take) {
                return Err(ScenarioError::new(format!("takes[{i}].take"), Some(t.take.to_string()), "is chosen twice".to_string()));
            }
        }
        let watched = self.controller.spec().watches;
        for (i, d) in self.schedule.iter().enumerate() {
            if !watched.contains(&d.kind) {
                return Err(ScenarioError::new(
                    format!("schedule[{i}].kind"),
                    Some(d.kind.to_string()),
                    format!("{} does not watch {}", self.controller.kind.actor_name(), d.kind),
                ));
            }
            limits::get("schedule[].nth").check(&format!("schedule[{i}].nth"), u64::from(d.nth))?;
            // Each value in its range first: `late_ms: 0` is out of range, not "no way".
            if let Some(late) = d.late_ms {
                limits::get("schedule[].late_ms").check(&format!("schedule[{i}].late_ms"), late)?;
            }
            if let Some(at) = d.at_ms {
                limits::get("schedule[].at_ms").check(&format!("schedule[{i}].at_ms"), at)?;
            }
            let given: Vec<&str> = [("late_ms", d.late_ms.is_some()), ("at_ms", d.at_ms.is_some()), ("hold", d.hold), ("drop", d.drop)]
                .into_iter()
                .filter_map(|(name, set)| set.then_some(name))
                .collect();
            if given.len() != 1 {
                let said = if given.is_empty() { "none of them".to_string() } else { given.join(" and ") };
                return Err(ScenarioError::new(
                    format!("schedule[{i}]"),
                    Some(said.clone()),
                    format!("gives {said}; give exactly one of late_ms, at_ms, hold, drop (the one way this event leaves its timing)"),
                ));
            }
        }
        if !self.expect.is_empty() {
            for (i, c) in self.expect.iter().enumerate() {
                limits::get("expect[].text").check_text(&format!("expect[{i}].text"), &c.text, false)?;
                c.validate(&format!("expect[{i}]"), &doc, &known)?;
            }
        }
        limits::check_budget(self, None)
    }

    /// The budget, with a scale of the scenario's owner made from outside it
    /// (the page's field, `edit=…do=scale:N`).
    pub fn check_budget_with_scale(&self, kind: Kind, name: &str, to: u32) -> Result<(), ScenarioError> {
        limits::check_budget(self, Some((kind, name.to_string(), to)))
    }

    fn validate_action(&self, at: &str, a: &ActionSpec) -> Result<(), ScenarioError> {
        let act = a.act().map_err(|set| {
            ScenarioError::new(
                at,
                Some(format!("{set} actions")),
                "needs exactly one of apply, delete, scale, delete_pods, drop_next_event, restart_controller, relist, fail_next, pause_controller",
            )
        })?;
        if a.at_ms > self.until_ms {
            return Err(ScenarioError::new(
                format!("{at}.at_ms"),
                Some(a.at_ms.to_string()),
                format!("{} is after until_ms {}", a.at_ms, self.until_ms),
            ));
        }
        let watched = |field: &str, kind: Kind| {
            if self.controller.spec().watches.contains(&kind) {
                Ok(())
            } else {
                Err(ScenarioError::new(
                    format!("{at}.{field}.kind"),
                    Some(kind.to_string()),
                    format!("{} does not watch {kind}", self.controller.kind.actor_name()),
                ))
            }
        };
        match act {
            Act::Apply(o) => {
                o.validate(&format!("{at}.apply"))?;
                if !o.owner_references.is_empty() {
                    return Err(ScenarioError::new(
                        format!("{at}.apply.owner_references"),
                        None,
                        "ownerReferences are for the objects listed in objects, whose owners exist before the run",
                    ));
                }
                if o.count.is_some_and(|n| n != 1) {
                    return Err(ScenarioError::new(format!("{at}.apply.count"), o.count.map(|n| n.to_string()), "apply takes one object"));
                }
            }
            Act::Delete(t) => {
                dns_name(&format!("{at}.delete.name"), &t.name)?;
                if let Some(ns) = &t.namespace {
                    dns_name(&format!("{at}.delete.namespace"), ns)?;
                }
            }
            Act::Scale(s) => {
                if s.kind.desired_field().is_none() {
                    return Err(ScenarioError::new(
                        format!("{at}.scale.kind"),
                        Some(s.kind.to_string()),
                        format!("{} cannot be scaled: only an owner kind (Ensemble, ReplicaSet, a declared kind with desired)", s.kind),
                    ));
                }
                dns_name(&format!("{at}.scale.name"), &s.name)?;
                if let Some(ns) = &s.namespace {
                    dns_name(&format!("{at}.scale.namespace"), ns)?;
                }
                limits::get("actions[].scale.to").check(&format!("{at}.scale.to"), u64::from(s.to))?;
                range(&format!("{at}.scale.to"), u64::from(s.to), 0, settings::desired_max(s.kind))?;
            }
            Act::PauseController(p) => {
                limits::get("actions[].pause_controller.for_ms").check(&format!("{at}.pause_controller.for_ms"), p.for_ms)?;
                if !self.controller.spec().loops() {
                    return Err(ScenarioError::new(
                        format!("{at}.pause_controller"),
                        None,
                        "the pruner is a one-shot program; pausing is for the long-running controllers (ensemble, replicaset)",
                    ));
                }
            }
            Act::DeletePods(d) => {
                dns_name(&format!("{at}.delete_pods.owner"), &d.owner)?;
                limits::get("actions[].delete_pods.count").check(&format!("{at}.delete_pods.count"), u64::from(d.count))?;
                limits::get("actions[].delete_pods.interval_ms").check(&format!("{at}.delete_pods.interval_ms"), d.interval_ms)?;
            }
            Act::DropNextEvent(d) => {
                watched("drop_next_event", d.kind)?;
                if let (true, Some(t)) = (d.bookmark, d.event_type) {
                    return Err(ScenarioError::new(
                        format!("{at}.drop_next_event.type"),
                        Some(format!("\"{}\"", t.as_str())),
                        "a BOOKMARK has no event type: give type or bookmark, not both",
                    ));
                }
            }
            Act::Relist(r) => watched("relist", r.kind)?,
            Act::FailNext(f) => {
                if let Some(nth) = f.nth {
                    limits::get("actions[].fail_next.nth").check(&format!("{at}.fail_next.nth"), u64::from(nth))?;
                }
            }
            Act::RestartController => {}
        }
        Ok(())
    }
}

impl ObjectSpec {
    fn validate(&self, at: &str) -> Result<(), ScenarioError> {
        if let Some(ns) = &self.namespace {
            dns_name(&format!("{at}.namespace"), ns)?;
        }
        let count = self.count.unwrap_or(1);
        limits::get("objects[].count").check(&format!("{at}.count"), u64::from(count))?;
        limits::get("objects[].labels").check(&format!("{at}.labels"), self.labels.len() as u64)?;
        limits::get("objects[].finalizers").check(&format!("{at}.finalizers"), self.finalizers.len() as u64)?;
        limits::get("objects[].owner_references").check(&format!("{at}.owner_references"), self.owner_references.len() as u64)?;
        for (key, value) in &self.labels {
            label_part(&format!("{at}.labels"), key, true)?;
            label_part(&format!("{at}.labels.{key}"), value, false)?;
        }
        annotations(&format!("{at}.annotations"), self.annotations.iter().map(|(k, v)| (k.as_str(), v.as_str())), "objects[].annotations")?;
        if count > 1 && !self.name.contains("{i}") {
            return Err(ScenarioError::new(
                format!("{at}.name"),
                Some(format!("{:?}", self.name)),
                "with count > 1 the name needs {i} (for example \"seed-{i}\")",
            ));
        }
        // The longest name the entry makes is the one with the largest {i}.
        dns_name(&format!("{at}.name"), &self.name.replace("{i}", &count.to_string()))?;
        match (self.kind, self.voices, self.replicas) {
            (Kind::Ensemble, None, _) => return Err(ScenarioError::new(format!("{at}.voices"), None, "an Ensemble needs voices")),
            (Kind::ReplicaSet, _, None) => return Err(ScenarioError::new(format!("{at}.replicas"), None, "a ReplicaSet needs replicas")),
            (k, Some(v), _) if k != Kind::Ensemble => {
                return Err(ScenarioError::new(
                    format!("{at}.voices"),
                    Some(v.to_string()),
                    format!("only an Ensemble has voices; this object's kind is {k}"),
                ))
            }
            (k, _, Some(r)) if k != Kind::ReplicaSet => {
                return Err(ScenarioError::new(
                    format!("{at}.replicas"),
                    Some(r.to_string()),
                    format!("only a ReplicaSet has replicas; this object's kind is {k}"),
                ))
            }
            _ => {}
        }
        let field = matches!(self.kind, Kind::Declared(_)).then(|| self.kind.desired_field()).flatten();
        if let Some(key) = self.spec.keys().find(|k| Some(k.as_str()) != field) {
            let message = match field {
                Some(f) => format!("a {}'s spec holds {f} only", self.kind),
                None => format!("only a declared owner kind has spec fields; this object's kind is {}", self.kind),
            };
            return Err(ScenarioError::new(format!("{at}.spec.{key}"), Some(shown(key)), message));
        }
        if let Some(f) = field {
            let Some(&n) = self.spec.get(f) else {
                return Err(ScenarioError::new(format!("{at}.spec.{f}"), None, format!("a {} needs spec.{f}", self.kind)));
            };
            limits::get("objects[].spec").check(&format!("{at}.spec.{f}"), u64::from(n))?;
        }
        if let Some(v) = self.voices {
            limits::get("objects[].voices").check(&format!("{at}.voices"), u64::from(v))?;
        }
        if let Some(r) = self.replicas {
            limits::get("objects[].replicas").check(&format!("{at}.replicas"), u64::from(r))?;
        }
        if self.kind == Kind::Pod {
            return Err(ScenarioError::new(
                format!("{at}.kind"),
                Some("Pod".into()),
                "pods are made by a ReplicaSet, not listed as objects",
            ));
        }
        for (j, f) in self.finalizers.iter().enumerate() {
            let ok =
                !f.is_empty() && f.len() <= 253 && f.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-./".contains(&b));
            if !ok {
                return Err(ScenarioError::new(
                    format!("{at}.finalizers[{j}]"),
                    Some(format!("{f:?}")),
                    "a finalizer is a qualified name: lower-case letters, digits, '-', '.' and '/' (like example.com/hold)",
                ));
            }
        }
        Ok(())
    }
}

/// The kinds of the owners a scenario makes (Ensembles and ReplicaSets, in
/// `objects` or an `apply`): what the page's owner buttons act on.
pub(super) fn owner_kinds(s: &Scenario) -> impl Iterator<Item = Kind> + '_ {
    let seeded = s.objects.iter().map(|o| o.kind);
    let applied = s.actions.iter().filter_map(|a| a.apply.as_ref()).map(|o| o.kind);
    seeded.chain(applied).filter(|k| k.desired_field().is_some())
}

pub(super) fn range(field: &str, v: u64, lo: u64, hi: u64) -> Result<(), ScenarioError> {
    if v < lo || v > hi {
        return Err(ScenarioError::new(field, Some(v.to_string()), format!("{v} is out of range {lo}..={hi}")));
    }
    Ok(())
}

/// A DNS-1123 label, as Kubernetes requires of names and namespaces (simplified: 63 characters).
pub(super) fn dns_name(field: &str, name: &str) -> Result<(), ScenarioError> {
    let ok = !name.is_empty()
        && name.len() <= 63
        && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
        && name.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric())
        && name.bytes().last().is_some_and(|b| b.is_ascii_alphanumeric());
    if ok {
        Ok(())
    } else {
        Err(ScenarioError::new(
            field,
            Some(shown(name)),
            format!("{} is not a valid name (lower-case letters, digits and '-', at most 63)", shown(name)),
        ))
    }
}

/// A text as an error quotes it: escaped, and cut after 60 characters.
pub(super) fn shown(text: &str) -> String {
    if text.chars().count() <= 60 {
        format!("{text:?}")
    } else {
        format!("{:?}…", text.chars().take(60).collect::<String>())
    }
}

/// Annotations at `field`: at most as many as the limit `limit` allows,
/// each key a label's key, each value any printable text up to 1,024
/// characters (the apiserver's bound is 256 KiB for them all).
pub(super) fn annotations<'a>(
    field: &str,
    map: impl ExactSizeIterator<Item = (&'a str, &'a str)>,
    limit: &str,
) -> Result<(), ScenarioError> {
    limits::get(limit).check(field, map.len() as u64)?;
    for (key, value) in map {
        label_part(field, key, true)?;
        limits::get("objects[].annotations.value").check_text(&format!("{field}.{key}"), value, false)?;
    }
    Ok(())
}

/// A label's key (a qualified name, with an optional `prefix/`) or value, as
/// Kubernetes allows them (simplified: at most 63 characters each part).
pub(super) fn label_part(field: &str, text: &str, key: bool) -> Result<(), ScenarioError> {
    let part_ok = |p: &str| {
        p.len() <= 63
            && p.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
            && p.bytes().next().is_none_or(|b| b.is_ascii_alphanumeric())
            && p.bytes().last().is_none_or(|b| b.is_ascii_alphanumeric())
    };
    let ok = if key {
        let (prefix, name) = text.rsplit_once('/').unwrap_or(("", text));
        !name.is_empty()
            && part_ok(name)
            && (prefix.is_empty() || dns_name(field, prefix).is_ok() || prefix.len() <= 253 && part_ok(prefix))
    } else {
        part_ok(text)
    };
    if ok {
        return Ok(());
    }
    Err(ScenarioError::new(
        field,
        Some(shown(text)),
        format!(
            "not a valid label {}: letters, digits, '-', '_' and '.', at most 63, beginning and ending with a letter or digit",
            if key { "key" } else { "value" }
        ),
    ))
}
